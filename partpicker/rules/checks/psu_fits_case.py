"""psu-fits-case: the case takes the PSU's form factor."""

from partpicker.rules.checks import Context, Outcome, Unknown, check, verdict


@check("psu-fits-case")
def run(ctx: Context) -> Outcome:
    psu, case = ctx.part("psu"), ctx.part("case")
    ff = ctx.need(psu, "form_factor")
    if not case.psu_form_factors:
        raise Unknown(f"PSU form factors of {case.name} ({case.id}) are not in the catalog")
    return verdict(ff in case.psu_form_factors, psu_ff=ff, case_ffs=", ".join(case.psu_form_factors))
