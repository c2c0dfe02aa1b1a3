"""What the HTML report draws for a validated build: the slot map's and the power budget's views.

The cards go where ``gpu-slots`` puts them: the same search (:func:`partpicker.rules.layout.best_layout`)
with the same questions in the same order (within the case, then on the board; sharing known,
then also unknown). When no layout seats the cards, they are drawn where the search would put
cards one slot thin, so the picture shows where they collide; when not even that exists, in the
board's x16-size slots in order, and the cards left over are listed as having no slot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from partpicker.build import Build
from partpicker.html.views import BoardView, CardView, M2View, PowerView, SlotView
from partpicker.parts import Gpu, M2Slot, Motherboard, PcieSlot, Psu, Ssd
from partpicker.rules import layout, power
from partpicker.rules.checks import Unknown, psu_wattage
from partpicker.rules.rulebook import agree
from partpicker.vocab import FORM_FACTORS

Params = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Seating:
    """Where the cards and drives are drawn, and whether that is a layout that works."""

    slots: tuple[PcieSlot, ...]
    drives: tuple[tuple[Ssd, M2Slot], ...]
    fits: bool
    """True: a layout gpu-slots accepts (on the board, maybe not in the case); False: the cards collide."""


def gpu_count(build: Build) -> int:
    """The cards drawn: the target count the rules are evaluated for (at least those installed)."""
    return max(build.target_gpus, build.gpu_count) if build.gpu is not None else 0


def _search(board: Motherboard, build: Build, n: int, width: float, min_lanes: int) -> layout.Layout | None:
    """gpu-slots' layout: in the case first, then on the board alone; sharing known, then unknown."""
    cpu_lanes = build.cpu.pcie_lanes if build.cpu else None
    drives = [d for d in build.ssds if layout.is_m2(d)]
    case_slots = build.case.expansion_slots if build.case else None
    tries: list[tuple[int | None, bool]] = [(case_slots, True), (case_slots, False)] if case_slots else []
    tries += [(None, True), (None, False)]
    for slots, known_only in tries:
        found = layout.best_layout(
            board,
            n=n,
            width=width,
            cpu_lanes=cpu_lanes,
            drives=drives,
            min_lanes=min_lanes,
            case_slots=slots,
            known_only=known_only,
        )
        if found is not None:
            return found
    return None


def _any_drives(board: Motherboard, build: Build) -> tuple[tuple[Ssd, M2Slot], ...]:
    drives = [d for d in build.ssds if layout.is_m2(d)]
    return next(layout.drive_placements(board, drives), ())


def seating(build: Build, params: Params) -> Seating | None:
    """Where to draw the cards, or None when the board's slots or the card's width are unknown."""
    board, gpu = build.motherboard, build.gpu
    n = gpu_count(build)
    if board is None or board.pcie_slots is None:
        return None
    if gpu is None or gpu.slot_width is None or n == 0:
        return Seating((), _any_drives(board, build), True)
    min_lanes = int(params.get("gpu-slots", {}).get("min_lanes_per_gpu", 8))
    found = _search(board, build, n, gpu.slot_width, min_lanes)
    if found is not None:
        return Seating(found.gpu_slots, found.drives, True)
    thin = _search(board, build, n, 1, min_lanes)
    if thin is not None:
        return Seating(thin.gpu_slots, thin.drives, False)
    x16 = [s for s in board.pcie_slots if (s.physical or 0) >= 16 and s.position is not None]
    return Seating(tuple(x16[:n]), _any_drives(board, build), False)


def card_label(i: int, gpu: Gpu, installed: int) -> str:
    planned = "" if i <= installed else " (to add)"
    return f"GPU {i}{planned}: {gpu.chip}"


def _cards(build: Build, seats: Sequence[PcieSlot]) -> tuple[CardView, ...]:
    gpu = build.gpu
    if gpu is None:
        return ()
    positions: list[int | None] = [s.position for s in seats]
    positions += [None] * (gpu_count(build) - len(positions))
    return tuple(
        CardView(card_label(i, gpu, build.gpu_count), position, gpu.slot_width, gpu.cooler)
        for i, position in enumerate(positions, 1)
    )


def _slot_views(board: Motherboard, cpu_lanes: int | None, used: frozenset[str]) -> tuple[SlotView, ...]:
    """Each slot with its lanes after sharing, while the ``used`` slots are occupied."""
    return tuple(
        SlotView(s.label, s.position, s.physical, layout.lanes_of(s, cpu_lanes, used - {s.label}), s.gen, s.source)
        for s in board.pcie_slots or []
    )


def _m2_views(board: Motherboard, drives: Sequence[tuple[Ssd, M2Slot]]) -> tuple[M2View, ...]:
    """Each placed M.2 drive, and the PCIe slots whose lanes its socket takes."""
    out = []
    for drive, socket in drives:
        steals = tuple(s.label for s in board.pcie_slots or [] if any(sh.when == socket.label for sh in s.shares))
        out.append(M2View(socket.label, drive.name, steals, socket.source, socket.shares is not None))
    return tuple(out)


def board_view(build: Build, params: Params) -> BoardView | None:
    """The slot map of the build's board with its cards and drives (None without a board)."""
    board = build.motherboard
    if board is None:
        return None
    positions = FORM_FACTORS.get(board.form_factor)
    case_last = build.case.expansion_slots if build.case else None
    seats = seating(build, params)
    if seats is None:  # no slot map: every card's slot is unknown, and the picture says so
        return BoardView(board.name, (), _cards(build, ()), (), positions, case_last)
    cpu_lanes = build.cpu.pcie_lanes if build.cpu else None
    used = frozenset(s.label for s in seats.slots) | {m.label for _, m in seats.drives}
    return BoardView(
        board.name,
        _slot_views(board, cpu_lanes, used),
        _cards(build, seats.slots),
        _m2_views(board, seats.drives),
        positions,
        case_last,
    )


def board_notes(build: Build, params: Params) -> tuple[str, ...]:
    """What the slot map's reader should know about where the cards are drawn."""
    board, gpu = build.motherboard, build.gpu
    if board is None or gpu is None:
        return ()
    if board.pcie_slots is None:
        return (f"The catalog has no slot map for {board.name}: the cards' slots are unknown, so none is drawn.",)
    if gpu.slot_width is None:
        return (f"The slot width of {gpu.name} is unknown: no cards are drawn.",)
    seats = seating(build, params)
    if seats is None or seats.fits:
        return ()
    unplaced = [s.label for s in board.pcie_slots if (s.physical or 0) >= 16 and s.position is None]
    if unplaced:  # gpu-slots is unknown, not failed: say why the drawing cannot seat them
        return (
            f"The catalog does not know where {', '.join(unplaced)} sit on {board.name}: the cards "
            "cannot be placed, so they are drawn where thinner cards would go (see gpu-slots: not checked).",
        )
    n = gpu_count(build)
    return (
        agree(
            f"No layout seats {n} cards {gpu.slot_width:g} slots wide on this board: they are drawn where "
            "thinner cards would go, to show where they collide."
        ),
    )


# --- power ---------------------------------------------------------------------------------


def _gpu_limit(
    cpu_w: int, psu_w: int | None, psu_p: Mapping[str, Any], wall_p: Mapping[str, Any], n: int, eff: Fraction
) -> float | None:
    """The largest per-card power within the PSU's budget (psu-wattage) and the circuit's
    (wall-circuit), as those rules compute it; None when neither rule runs."""
    caps = []
    if psu_p and psu_w is not None:
        floor = _floor(psu_p, n) or 0
        fixed = Fraction(cpu_w + int(psu_p["rest_of_system_w"]))
        budget = Fraction(psu_w) / power.exact(psu_p["margin"])
        caps.append(0 if psu_w < floor else power.per_gpu_cap_w(budget, fixed, n))
    if wall_p:
        fixed = Fraction(cpu_w + int(wall_p["rest_of_system_w"]))
        caps.append(power.per_gpu_cap_w(power.exact(wall_p["max_wall_watts"]) * eff, fixed, n))
    return float(max(min(caps), 0)) if caps and n else None


def _floor(psu_p: Mapping[str, Any], n: int) -> float | None:
    """psu-wattage's floor, where it applies at this GPU count."""
    if "min_watts" not in psu_p or n < int(psu_p.get("floor_from_gpus", 0)):
        return None
    return float(psu_p["min_watts"])


def _psu_watts(psus: tuple[Psu, ...], volts: float | None) -> int | None:
    """The PSUs' output as psu-wattage judges it (None: a low-line rating unknown)."""
    try:
        return sum(psu_wattage.psu_watts(psus, volts or 0))
    except Unknown:
        return None


def power_view(build: Build, params: Params) -> PowerView | None:
    """The full-load budget at the target GPU count with the psu-wattage and wall-circuit
        parameters and the build's power limit (None without a CPU, GPU and PSU). A dual-PSU build
        is drawn as the rules judge it: the sum of its units' watts (on low-line mains their low-line
    ratings), through the least efficient."""
    cpu, gpu, psus = build.cpu, build.gpu, build.psus
    if cpu is None or gpu is None or not psus:
        return None
    psu_p, wall_p = params.get("psu-wattage", {}), params.get("wall-circuit", {})
    watts = _psu_watts(psus, psu_p.get("mains_volts"))
    n = gpu_count(build)
    rest = float(psu_p.get("rest_of_system_w", power.REST_OF_SYSTEM_W))
    used = None if gpu.board_power_w is None else power.gpu_power_w(gpu.board_power_w, build.power_limit_w)
    wall = limit = None
    if cpu.tdp_w is not None and used is not None:
        eff = min(power.efficiency(p.efficiency) for p in psus)
        wall_rest = int(wall_p.get("rest_of_system_w", rest))
        wall = float(Fraction(cpu.tdp_w + n * used + wall_rest) / eff)
        limit = _gpu_limit(cpu.tdp_w, watts, psu_p, wall_p, n, eff)
    circuit = wall_p.get("max_wall_watts")
    return PowerView(
        n=n,
        cpu_w=cpu.tdp_w,
        gpu_w=used,
        rest_w=rest,
        margin=float(psu_p.get("margin", 1.0)),
        psu_w=watts,
        floor_w=_floor(psu_p, n),
        wall_w=wall,
        circuit_w=None if circuit is None else float(circuit),
        gpu_limit_w=limit,
    )


def power_notes(build: Build) -> tuple[str, ...]:
    """The power limit the budget is drawn at, if the build sets one below the cards' board power."""
    gpu, limit = build.gpu, build.power_limit_w
    if gpu is None or limit is None or gpu.board_power_w is None or limit >= gpu.board_power_w:
        return ()
    return (f"Drawn with the cards power-limited to {limit} W (board power {gpu.board_power_w} W).",)
