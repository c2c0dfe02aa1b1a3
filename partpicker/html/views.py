"""What the HTML report draws: plain frozen inputs, so the pictures need no catalog or rules.

The wiring (formats/CLI) turns a Report, a Layout and a CostResult into these; everything here
is either known or ``None`` (unknown), and the pictures say "unknown" rather than invent a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SlotView:
    """One PCIe expansion slot as this build uses it."""

    label: str
    """The manual's name, e.g. PCIE1."""
    position: int | None
    """Expansion position, 1 = nearest the CPU; None = the source does not say."""
    physical: int | None
    """Physical size (1, 4, 8, 16); None = unknown."""
    lanes: int | None
    """Electrical lanes *after* sharing with this build's CPU, cards and drives (0 = disabled)."""
    gen: int | None = None
    source: str | None = None
    """cpu, chipset or switch; None = unknown."""


@dataclass(frozen=True)
class CardView:
    """One graphics card seated in a slot."""

    label: str
    """What the picture calls it, e.g. "GPU 1: RTX 3090"."""
    position: int | None
    """The expansion position of the slot it sits in; None = not known."""
    width: float | None
    """Slots its cooler is thick (2, 2.5, 3...); None = unknown (drawn as one slot, said so)."""
    cooler: str | None = None
    """blower, open-air, hybrid, passive, water; None = unknown."""


@dataclass(frozen=True)
class M2View:
    """One M.2 socket with a drive in it."""

    label: str
    """The socket's name, e.g. M2_1."""
    drive: str
    """The drive in it."""
    steals_from: tuple[str, ...] = ()
    """Labels of the PCIe slots whose lanes this drive takes (or disables)."""
    source: str | None = None
    sharing_known: bool = True
    """False when the catalog does not say whether this socket shares lanes."""


@dataclass(frozen=True)
class BoardView:
    """The slot map: a board's expansion positions, the cards and drives in this build."""

    board: str
    slots: tuple[SlotView, ...]
    cards: tuple[CardView, ...] = ()
    m2: tuple[M2View, ...] = ()
    board_positions: int | None = None
    """Expansion positions the board's form factor has (ATX 7, E-ATX 7, ...); None = unknown."""
    case_last_slot: int | None = None
    """The case's expansion slot count, i.e. the last position a card may cover; None = unknown."""


@dataclass(frozen=True)
class PowerView:
    """The full-load power budget at the target GPU count (see partpicker's power estimates)."""

    n: int
    cpu_w: float | None
    gpu_w: float | None
    """Board power of one GPU."""
    rest_w: float
    margin: float
    """Headroom multiplied onto the load (psu-wattage's margin, e.g. 1.1)."""
    psu_w: float | None
    floor_w: float | None = None
    """psu-wattage's floor (e.g. 1400 W); None = none."""
    wall_w: float | None = None
    """Estimated draw at the wall; None = unknown."""
    circuit_w: float | None = None
    """The wall circuit's limit (wall-circuit's max_wall_watts)."""
    gpu_limit_w: float | None = None
    """A per-GPU power limit that would fit both the PSU and the circuit; None = not computed."""


@dataclass(frozen=True)
class CostSeries:
    """One cloud option's cumulative bill, month 1 onwards."""

    label: str
    totals: tuple[float, ...]
    break_even: int | None = None
    """First month the owner has paid no more than this bill; None = not within the horizon."""


@dataclass(frozen=True)
class CostCurve:
    """Cumulative cost of owning against renting, month 1 onwards (the cost model's horizon)."""

    title: str
    own_paid: tuple[float, ...]
    own_net: tuple[float, ...]
    cloud: tuple[CostSeries, ...]


@dataclass(frozen=True)
class PartRow:
    role: str
    name: str
    count: int
    usd: float | None
    price_date: str | None
    stale: bool = False
    price_source: str | None = None
    evidence: str | None = None


@dataclass(frozen=True)
class FindingRow:
    rule: str
    severity: str
    """error, warning or info."""
    status: str
    """pass, fail or unknown."""
    message: str


@dataclass(frozen=True)
class Section:
    """A titled list of lines the page shows after the findings (e.g. "Why these parts")."""

    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class PageView:
    """Everything one HTML page shows; the text report's content plus the pictures."""

    build: str
    verdict: str
    """pass, fail or unknown."""
    banner: str
    summary: str
    """e.g. "profile dl-workstation; rules evaluated for 4 GPU(s), 4 installed; prices as of ..."."""
    parts: tuple[PartRow, ...] = ()
    total_usd: float | None = None
    findings: tuple[FindingRow, ...] = ()
    verify: tuple[str, ...] = ()
    """"Verify before you buy" notes."""
    skipped: tuple[str, ...] = ()
    """Rules not run, each with why."""
    never_checked: str = ""
    """What no rule checks (the text report's last line)."""
    board: BoardView | None = None
    power: PowerView | None = None
    cost: CostCurve | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    board_notes: tuple[str, ...] = ()
    """What the slot map's reader should know (shown under it), e.g. why the cards collide."""
    kind: str = "validate"
    """validate, suggest or cost: a cost page has no findings sections."""
    badge: str | None = None
    """The verdict badge's text; None = the verdict in capitals."""
    sections: tuple[Section, ...] = ()
    """More titled lists, shown after the findings."""
