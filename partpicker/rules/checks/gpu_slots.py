"""gpu-slots: the board seats target_gpus cards, spaced for their width, within the case.

Some answers need no slot map: n cards of span s cover at least n*s expansion positions
starting at position 1, so they need a case with n*s slots, and the last card starts at
position (n-1)*s+1 or later, which must exist on a board of this form factor.
"""

import math
from collections.abc import Callable, Hashable, Mapping, MutableMapping, Sequence
from typing import Any

from partpicker.kinds import most_lanes
from partpicker.parts import Motherboard, Part, PcieSlot
from partpicker.rules import layout
from partpicker.rules.checks import Context, Outcome, Sieve, can_pass, check, failed, layout_min_lanes, passed, unknown
from partpicker.vocab import FORM_FACTORS


def _where(lay: layout.Layout) -> str:
    return ", ".join(
        f"{s.label} (position {s.position}, x{lanes})" for s, lanes in zip(lay.gpu_slots, lay.gpu_lanes, strict=True)
    )


@check("gpu-slots")
def run(ctx: Context) -> Outcome:
    board, gpu = ctx.part("motherboard"), ctx.part("gpu")
    n = ctx.n_gpus
    width = ctx.need(gpu, "slot_width")
    span = math.ceil(width)
    min_lanes = int(ctx.params["min_lanes_per_gpu"])
    values: dict[str, Any] = {"n": n, "width": width, "min_lanes": min_lanes}
    too_few = _counted_out(ctx, board, n, span, values)
    if too_few is not None:
        return too_few
    slots = ctx.need(board, "pcie_slots")
    cpu_lanes = ctx.build.cpu.pcie_lanes if ctx.build.cpu else None
    wired = _wired(slots, cpu_lanes, min_lanes)
    listed = ", ".join(f"{s.label}@{s.position or '?'}" for s in wired) or "none"
    if len(wired) < n:
        return failed(why=f"the board has {len(wired)} x16-size slots wired x{min_lanes} or more ({listed})", **values)
    on_board = ctx.layout(with_case=False)
    if on_board is None:
        return _no_layout(ctx, board, wired, listed, cpu_lanes, values)
    return _in_case(ctx, on_board, values)


def _wired(slots: list[PcieSlot], cpu_lanes: int | None, min_lanes: int) -> list[PcieSlot]:
    """The x16-size slots (or of unknown size) wired with ``min_lanes`` or more."""
    return [
        s
        for s in slots
        if (s.physical is None or s.physical >= 16) and (layout.lanes_of(s, cpu_lanes, frozenset()) or 0) >= min_lanes
    ]


def _counted_out(ctx: Context, board: Motherboard, n: int, span: int, values: dict[str, Any]) -> Outcome | None:
    """Fail without a slot map: the board's form factor or the case's slot count is too small."""
    positions = FORM_FACTORS[board.form_factor]
    if (n - 1) * span + 1 > positions:
        return failed(
            why=f"the last card would start at position {(n - 1) * span + 1} or later; "
            f"a {board.form_factor} board has {positions} slot positions",
            **values,
        )
    case = ctx.build.case
    if case is not None and case.expansion_slots is not None and n * span > case.expansion_slots:
        return failed(why=f"they cover {n * span} expansion slots; the case has {case.expansion_slots}", **values)
    return None


def _no_layout(
    ctx: Context, board: Motherboard, wired: list[PcieSlot], listed: str, cpu_lanes: int | None, values: dict[str, Any]
) -> Outcome:
    """No layout seats the cards on the board: unknown if a slot's place or an M.2 slot's sharing
    is unknown, else fail with how many fit."""
    vague = [s.label for s in wired if s.position is None or s.physical is None]
    if vague:
        return unknown(f"the position or size of slot {', '.join(vague)} of {board.name}", where=listed, **values)
    maybe = ctx.layout(with_case=False, known_only=False)
    if maybe is not None:
        unsure = sorted({s.label for _, s in maybe.drives if s.shares is None})
        return unknown(
            f"whether M.2 slot {', '.join(unsure)} of {board.name} takes lanes from a GPU slot "
            "(its lane sharing is not in the catalog)",
            where=_where(maybe),
            **values,
        )
    return _how_many_fit(ctx, board, listed, cpu_lanes, values)


def _how_many_fit(
    ctx: Context, board: Motherboard, listed: str, cpu_lanes: int | None, values: dict[str, Any]
) -> Outcome:
    """Fail, saying how many of the cards some layout seats (unless only the status is wanted)."""
    n, width = values["n"], values["width"]
    if not ctx.explain:
        return failed(why="no layout", **values)
    drives = [d for d in ctx.build.ssds if layout.is_m2(d)]
    most = layout.most_cards(
        board, n, width=width, cpu_lanes=cpu_lanes, drives=drives, min_lanes=values["min_lanes"], known_only=False
    )
    why = (
        f"x16 slots at {listed}: a {width:g}-slot card covers {math.ceil(width)} positions, "
        f"so only {most} of {n} fit (with the build's M.2 drives placed)"
    )
    return failed(why=why, **values)


def _in_case(ctx: Context, on_board: layout.Layout, values: dict[str, Any]) -> Outcome:
    """The cards seat on the board: do they fit the case's expansion slots too?"""
    case = ctx.build.case
    if case is None or case.expansion_slots is None:
        return unknown(
            "the case's expansion slots" if case else "the build has no case", where=_where(on_board), **values
        )
    in_case = ctx.layout(with_case=True) or ctx.layout(with_case=True, known_only=False)
    if in_case is None:
        return failed(
            why=f"the last card would end at expansion slot {on_board.last_position}; "
            f"the case has {case.expansion_slots}",
            **values,
        )
    if any(s.shares is None for _, s in in_case.drives):
        return unknown("whether the M.2 slots used take lanes from a GPU slot", where=_where(in_case), **values)
    return passed(where=_where(in_case), last=in_case.last_position, case_slots=case.expansion_slots, **values)


@can_pass("gpu-slots", "motherboard", reads=["gpu", "case"])
def seats(
    others: Mapping[str, Sequence[Part]], n: int, params: dict[str, Any], memo: MutableMapping[Hashable, Any]
) -> Sieve:
    """Whether a board can pass with some card and case of ``others``: a pass needs a layout of
    ``n`` cards in x16-size slots of known size and place (:func:`layout.layouts`), each
    slot wired ``min_lanes_per_gpu`` or more, spaced for the card, the last card ending
    within the case. Relaxed: the narrowest card of ``others``, the case with the most
    expansion slots, and each slot at the most lanes any CPU and sharing can give it
    (:func:`fits`)."""
    widths = [w for w in (getattr(g, "slot_width", None) for g in others["gpu"]) if w is not None]
    room = _room(others)
    if not widths or room is None:
        return lambda board: False  # no card of known width, or no case of known slots: never a pass
    span, places_of = math.ceil(min(widths)), places_memo(memo, params)

    def sieve(board: Part) -> bool:
        places = places_of(board)
        return places is not None and fits(places, n, span, room)

    return sieve


@can_pass("gpu-slots", "gpu", reads=["motherboard", "case"])
def seated(
    others: Mapping[str, Sequence[Part]], n: int, params: dict[str, Any], memo: MutableMapping[Hashable, Any]
) -> Sieve:
    """Whether a card can pass on some board and in some case of ``others`` (a chosen board's:
    the widest card it seats, of those the search still tries): its span is at most the
    widest that :func:`fits` some board of ``others`` in the case with the most slots."""
    room = _room(others)
    if room is None:
        return lambda gpu: False  # no case of known slots: never a pass
    widest = widest_span(others["motherboard"], places_memo(memo, params), n, room)

    def sieve(gpu: Part) -> bool:
        width = getattr(gpu, "slot_width", None)
        return width is not None and math.ceil(width) <= widest

    return sieve


def _room(others: Mapping[str, Sequence[Part]]) -> int | None:
    """The most expansion slots of a case of ``others`` (None: no case of known slots)."""
    slots: list[int] = [c for c in (getattr(c, "expansion_slots", None) for c in others["case"]) if c is not None]
    return max(slots) if slots else None


def fits(places: tuple[int, ...], n: int, span: int, room: int) -> bool:
    """Whether ``n`` cards of ``span`` positions, in slots at ``places`` (in order), each
    starting after the one before ends, end within ``room`` slots. Taking each slot that
    clears the one before, in place order, seats the most cards and ends the n-th soonest."""
    seated, last = 0, None
    for place in places:
        if last is None or place - last >= span:
            seated, last = seated + 1, place
            if seated == n:
                return place + span - 1 <= room
    return False


def widest_span(
    boards: Sequence[Part], places_of: Callable[[Part], tuple[int, ...] | None], n: int, room: int, gap: int = 0
) -> int:
    """The widest span of which ``n`` cards, each but the last followed by ``gap`` free slots,
    :func:`fits` some board of ``boards`` within ``room`` slots (0: none)."""
    widest = 0
    for board in boards:
        places = places_of(board)
        while places is not None and fits(places, n, widest + 1 + gap, room + gap):
            widest += 1
    return widest


def places_memo(
    memo: MutableMapping[Hashable, Any], params: dict[str, Any]
) -> Callable[[Part], tuple[int, ...] | None]:
    """:func:`_places` of a board, remembered by its id (it holds for any other parts)."""
    min_lanes = layout_min_lanes(params)
    known: dict[str, tuple[int, ...] | None] = memo.setdefault(("places", min_lanes), {})

    def places_of(board: Part) -> tuple[int, ...] | None:
        if board.id not in known:
            known[board.id] = _places(board, min_lanes)
        return known[board.id]

    return places_of


def _places(board: Part, min_lanes: int) -> tuple[int, ...] | None:
    """The places of a board's x16-size slots of known size and place that some CPU and
    sharing wire ``min_lanes`` or more, in order (None: the slot map is unknown)."""
    slots: list[PcieSlot] | None = getattr(board, "pcie_slots", None)
    if slots is None:
        return None
    return tuple(
        sorted(
            s.position
            for s in slots
            if s.physical is not None and s.physical >= 16 and s.position is not None and most_lanes(s) >= min_lanes
        )
    )
