"""psu-case-mounts: a dual-PSU build's case mounts every PSU.

One PSU: the case's PSU bay (psu-fits-case checks its form factor). Two or more: the case
must say it mounts that many; the catalog rarely knows, and then the rule says *unknown*.
"""

from partpicker.rules.checks import Context, Outcome, Unknown, check, verdict
from partpicker.rules.checks.psu_wattage import psu_units


@check("psu-case-mounts")
def run(ctx: Context) -> Outcome:
    n = len(psu_units(ctx))
    case = ctx.part("case")
    if n == 1:
        return verdict(True, n=n, mounts="its one PSU", case=case.name)
    if case.psu_mounts is None:
        raise Unknown(
            f"whether {case.name} ({case.id}) mounts {n} PSUs is not in the catalog: check its manual, "
            "or place the second PSU outside the case"
        )
    ok = case.psu_mounts >= n
    mounts = f"{n} PSUs ({case.psu_mounts} PSU mounts)" if ok else f"{case.psu_mounts} PSU mount(s)"
    return verdict(ok, n=n, mounts=mounts, case=case.name)
