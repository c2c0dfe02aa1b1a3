"""psu-fits-case: the case takes the PSU's form factor (each PSU's, in a dual-PSU build)."""

from partpicker.rules.checks import Context, Outcome, Unknown, check, verdict
from partpicker.rules.checks.psu_wattage import psu_units


@check("psu-fits-case")
def run(ctx: Context) -> Outcome:
    psus, case = psu_units(ctx), ctx.part("case")
    ffs = [ctx.need(psu, "form_factor") for psu in psus]
    if not case.psu_form_factors:
        raise Unknown(f"PSU form factors of {case.name} ({case.id}) are not in the catalog")
    misfit = next((ff for ff in ffs if ff not in case.psu_form_factors), None)
    shown = " and ".join(dict.fromkeys(ffs))
    return verdict(misfit is None, psu_ff=misfit or shown, case_ffs=", ".join(case.psu_form_factors))
