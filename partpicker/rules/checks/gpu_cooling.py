"""gpu-cooling: open-air or passive cards should not sit in adjacent slots."""

import math
from collections.abc import Hashable, Mapping, MutableMapping, Sequence
from typing import Any

from partpicker.parts import Part
from partpicker.rules.checks import Context, Outcome, Sieve, Unknown, can_pass, check, failed, passed
from partpicker.rules.checks.gpu_slots import places_memo, widest_span

UNBOUNDED = 1 << 20
"""A number of expansion slots no case has (a layout that is not bounded by a case)."""

SELF_COOLED = ("blower", "hybrid", "water")
""":attr:`Gpu.cooler` kinds that need no free slot between cards."""


@check("gpu-cooling")
def run(ctx: Context) -> Outcome:
    gpu = ctx.part("gpu")
    cooler = ctx.need(gpu, "cooler")
    n = ctx.n_gpus
    if n < 2 or cooler in SELF_COOLED:
        return passed(cooler=cooler, n=n, how="nothing to warn about")
    with_case = ctx.build.case is not None and ctx.build.case.expansion_slots is not None
    lay = ctx.layout(with_case=with_case) or ctx.layout(with_case=with_case, known_only=False)
    if lay is None:
        raise Unknown(f"no layout seats {n} cards (see gpu-slots)")
    if lay.adjacent_pairs == 0:
        return passed(cooler=cooler, n=n, how="every card has a free slot below it")
    return failed(cooler=cooler, n=n, adjacent=lay.adjacent_pairs, how="cards sit back to back")


@can_pass("gpu-cooling", "gpu", reads=["motherboard", "case"])
def spaced(
    others: Mapping[str, Sequence[Part]], n: int, params: dict[str, Any], memo: MutableMapping[Hashable, Any]
) -> Sieve:
    """Whether a card can pass on some board and in some case of ``others`` (a chosen board's:
    the open-air cards it can space): a card that cools itself passes; another needs a layout
    with a free slot below every card but the last (cards of span s, s + 1 apart), within the
    case with the most slots (any, when a case's slots are unknown: its layout has no end)."""
    if n < 2:
        return lambda gpu: True
    cases = [getattr(c, "expansion_slots", None) for c in others["case"]]
    room = UNBOUNDED if None in cases or not cases else max(c for c in cases if c is not None)
    widest = widest_span(others["motherboard"], places_memo(memo, params), n, room, gap=1)  # (open-air cards)

    def sieve(gpu: Part) -> bool:
        cooler, width = getattr(gpu, "cooler", None), getattr(gpu, "slot_width", None)
        if cooler is None:
            return False
        return cooler in SELF_COOLED or (width is not None and math.ceil(width) <= widest)

    return sieve
