"""gpu-cooling: open-air or passive cards should not sit in adjacent slots."""

from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, passed


@check("gpu-cooling")
def run(ctx: Context) -> Outcome:
    gpu = ctx.part("gpu")
    cooler = ctx.need(gpu, "cooler")
    n = ctx.n_gpus
    if n < 2 or cooler in ("blower", "hybrid", "water"):
        return passed(cooler=cooler, n=n, how="nothing to warn about")
    with_case = ctx.build.case is not None and ctx.build.case.expansion_slots is not None
    lay = ctx.layout(with_case=with_case) or ctx.layout(with_case=with_case, known_only=False)
    if lay is None:
        raise Unknown(f"no layout seats {n} cards (see gpu-slots)")
    if lay.adjacent_pairs == 0:
        return passed(cooler=cooler, n=n, how="every card has a free slot below it")
    return failed(cooler=cooler, n=n, adjacent=lay.adjacent_pairs, how="cards sit back to back")
