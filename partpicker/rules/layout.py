"""Where the cards and M.2 drives go: the slot assignment that gpu-slots, pcie-lane-budget,
m2-slot and gpu-cooling all read.

A card of width ``w`` in expansion position ``p`` covers positions ``p .. p + ceil(w) - 1``;
the next card must start after that, and the last one must end within the case's slots.
A slot's electrical lanes depend on the CPU (``lanes_by_cpu``) and drop when a slot it shares
with is in use (``shares``). The search is exhaustive over the board's slots (a board has at
most a dozen), so "no layout" really means none exists.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from partpicker.parts import M2Slot, Motherboard, PcieSlot, Ssd


@dataclass(frozen=True)
class Layout:
    """One way to seat the cards and drives."""

    gpu_slots: tuple[PcieSlot, ...]
    gpu_lanes: tuple[int, ...]
    drives: tuple[tuple[Ssd, M2Slot], ...]
    width: int

    @property
    def adjacent_pairs(self) -> int:
        """Pairs of neighbouring cards with no free slot between them."""
        pos = [s.position or 0 for s in self.gpu_slots]
        return sum(1 for a, b in itertools.pairwise(pos) if b - a <= self.width)

    @property
    def last_position(self) -> int:
        """The last expansion position the cards cover."""
        return (self.gpu_slots[-1].position or 0) + self.width - 1 if self.gpu_slots else 0

    def cpu_nvme(self) -> int:
        """NVMe drives placed on CPU-attached M.2 slots (or slots of unknown source)."""
        return sum(1 for d, s in self.drives if d.interface == "nvme" and s.source != "chipset")


def m2_length(form_factor: str) -> int | None:
    """Module length in mm from an M.2 form factor name (M.2-2280 -> 80, M.2-22110 -> 110)."""
    if not form_factor.startswith("M.2-22"):
        return None
    return int(form_factor[len("M.2-22") :])


def is_m2(drive: Ssd) -> bool:
    return drive.form_factor.startswith("M.2")


def lanes_of(slot: PcieSlot | M2Slot, cpu_lanes: int | None, used: frozenset[str]) -> int | None:
    """Electrical lanes of a slot with this CPU while the ``used`` slots are occupied."""
    lanes = slot.lanes
    if isinstance(slot, PcieSlot) and cpu_lanes is not None:
        # A key K applies to CPUs with K lanes or fewer; the smallest such key wins.
        fitting = [k for k in slot.lanes_by_cpu if cpu_lanes <= k]
        if fitting:
            lanes = slot.lanes_by_cpu[min(fitting)]
    for share in slot.shares or []:
        if share.when in used:
            lanes = share.lanes if lanes is None else min(lanes, share.lanes)
    return lanes


def drive_fits(drive: Ssd, slot: M2Slot) -> bool:
    length = m2_length(drive.form_factor)
    slot_len = m2_length(f"M.2-{slot.max_length}") if slot.max_length else None
    return drive.interface in slot.interfaces and (length is None or slot_len is None or length <= slot_len)


def drive_placements(
    board: Motherboard, drives: Sequence[Ssd], *, known_only: bool = False
) -> Iterator[tuple[tuple[Ssd, M2Slot], ...]]:
    """Every injective placement of the M.2 drives in M.2 slots that take them (with
    ``known_only``, only in slots whose lane sharing is known)."""
    m2 = [d for d in drives if is_m2(d)]
    slots = [s for s in board.m2_slots or [] if not known_only or s.shares is not None]
    for chosen in itertools.permutations(slots, len(m2)):
        if all(drive_fits(d, s) for d, s in zip(m2, chosen, strict=True)):
            yield tuple(zip(m2, chosen, strict=True))


def _drives_live(placed: tuple[tuple[Ssd, M2Slot], ...], used: frozenset[str], cpu_lanes: int | None) -> bool:
    return all(lanes_of(slot, cpu_lanes, used - {slot.label}) != 0 for _, slot in placed)


def layouts(
    board: Motherboard,
    *,
    n: int,
    width: float,
    cpu_lanes: int | None,
    drives: Sequence[Ssd] = (),
    min_lanes: int = 8,
    case_slots: int | None = None,
    known_only: bool = True,
) -> Iterator[Layout]:
    """Every valid layout of ``n`` cards of ``width`` slots plus the drives on this board.

    With ``known_only`` (the default) drives go only in M.2 slots whose lane sharing is
    known; without it, also in the others, which makes the layout a possibility only."""
    span = math.ceil(width)
    candidates = sorted(
        (s for s in board.pcie_slots or [] if s.physical is not None and s.physical >= 16 and s.position is not None),
        key=lambda s: s.position or 0,
    )
    for placed in drive_placements(board, drives, known_only=known_only):
        for combo in itertools.combinations(candidates, n):
            found = _layout(combo, placed, span, cpu_lanes=cpu_lanes, min_lanes=min_lanes, case_slots=case_slots)
            if found is not None:
                yield found


def _spaced(combo: tuple[PcieSlot, ...], span: int, case_slots: int | None) -> bool:
    """Cards of ``span`` positions in these slots do not collide, and end within the case."""
    if any((b.position or 0) - (a.position or 0) < span for a, b in itertools.pairwise(combo)):
        return False
    return not (case_slots is not None and combo and (combo[-1].position or 0) + span - 1 > case_slots)


def _all_at_least(lanes: list[int | None], min_lanes: int) -> bool:
    return all(x is not None and x >= min_lanes for x in lanes)


def _layout(
    combo: tuple[PcieSlot, ...],
    placed: tuple[tuple[Ssd, M2Slot], ...],
    span: int,
    *,
    cpu_lanes: int | None,
    min_lanes: int,
    case_slots: int | None,
) -> Layout | None:
    """The layout of cards in ``combo`` and drives as ``placed``, if it is valid."""
    if not _spaced(combo, span, case_slots):
        return None
    used = frozenset(s.label for _, s in placed) | {s.label for s in combo}
    lanes = [lanes_of(s, cpu_lanes, used - {s.label}) for s in combo]
    if not _all_at_least(lanes, min_lanes):
        return None
    if not _drives_live(placed, used, cpu_lanes):
        return None
    return Layout(combo, tuple(int(x or 0) for x in lanes), placed, span)


def best_layout(board: Motherboard, **kwargs: object) -> Layout | None:
    """The layout with the fewest CPU-attached NVMe drives, then the most air between cards,
    then the most lanes; None if there is none."""
    best: Layout | None = None
    best_key: tuple[int, int, int] | None = None
    for layout in layouts(board, **kwargs):  # type: ignore[arg-type]
        key = (layout.cpu_nvme(), layout.adjacent_pairs, -sum(layout.gpu_lanes))
        if best_key is None or key < best_key:
            best, best_key = layout, key
    return best


def most_cards(board: Motherboard, n: int, **kwargs: object) -> int:
    """The most cards (up to ``n``) that some layout seats."""
    for k in range(n, 0, -1):
        if next(layouts(board, n=k, **kwargs), None) is not None:  # type: ignore[arg-type]
            return k
    return 0
