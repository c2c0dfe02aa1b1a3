"""gpu-cooling: open-air or passive cards should not sit in adjacent slots."""

from partpicker.checks import Context, Outcome, check, failed, passed


@check("gpu-cooling")
def run(ctx: Context) -> Outcome:
    gpu = ctx.part("gpu")
    cooler = ctx.need(gpu, "cooler")
    n = ctx.n_gpus
    if n < 2 or cooler in ("blower", "hybrid", "water"):
        return passed(cooler=cooler, n=n, how="nothing to warn about")
    lay = ctx.layout(with_case=ctx.build.case is not None and ctx.build.case.expansion_slots is not None)
    if lay is None:
        # gpu-slots reports the missing layout; without one, assume cards are packed.
        return failed(cooler=cooler, n=n, adjacent=n - 1, how="no layout with gaps exists")
    if lay.adjacent_pairs == 0:
        return passed(cooler=cooler, n=n, how="every card has a free slot below it")
    return failed(cooler=cooler, n=n, adjacent=lay.adjacent_pairs, how="cards sit back to back")
