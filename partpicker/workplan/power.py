"""The power plan of a build on a wall circuit: full-load draw, per-GPU limits that fit, a
second circuit with a second PSU when limits cannot, and the PSUs' headroom for GPU transients.

Draw at the wall = (CPU TDP + N x GPU power + the rest) / the PSU's efficiency at full load
(partpicker.rules.power, the figures psu-wattage and wall-circuit use). A per-GPU limit that
fits solves that for the GPU power. Limits below ``MIN_LIMIT_SHARE`` of the board power are
not proposed: Puget Systems measured a quad RTX 3090 at 280 W of 350 (80 %) losing ~5 % of
training speed; deeper cuts cost more, and each card has a driver floor (nvidia-smi -q -d
POWER, "Min Power Limit") that the catalog does not know.

Two circuits: the first PSU carries the CPU, the rest and N - k cards, a second PSU on the
second circuit the other k cards (k the fewest that bring the first circuit within its
continuous share); the second PSU needs k x GPU W x the psu-wattage margin (1.1) and a cable
per socket of its k cards. More than two circuits are not planned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction

from partpicker.build import Build
from partpicker.circuits import Circuit
from partpicker.models import Psu
from partpicker.rules import power

MIN_LIMIT_SHARE = 0.6
PSU_MARGIN = Fraction(11, 10)  # psu-wattage's default margin, for the second PSU's own cards
PUGET = "https://www.pugetsystems.com/labs/hpc/quad-rtx3090-gpu-power-limiting-with-systemd-and-nvidia-smi-1983/"
ATX3 = (
    "ATX 3.x: the unit must ride through power excursions to {transient:,} W (200 % of its rating) for 100 us "
    "(Intel ATX 3.0 design guide, power excursion table)"
)
NOT_ATX3 = (
    "not ATX 3.x (or unknown): its rating promises no excursion headroom; GPU transients reach well "
    "above board power for milliseconds (Igor's Lab on the RTX 3090), so keep the steady load well under the rating"
)


@dataclass(frozen=True)
class Split:
    """Two PSUs on two circuits: the cards each carries and what each draws at the wall."""

    first_gpus: int  # on the first PSU, with the CPU and the rest of the system
    second_gpus: int  # on the second PSU
    gpu_w: int  # what one card draws at full power (board power, or the build's limit)
    limit_w: int | None  # the per-GPU limit that makes both circuits fit (None: none needed)
    first_wall_w: float
    second_need_w: int  # the second PSU's watts: ceil(second_gpus x card W x margin)

    @property
    def card_w(self) -> int:
        """What one card draws on this plan (limited when the split needs a limit)."""
        return min(self.gpu_w, self.limit_w or self.gpu_w)

    def second_wall_w(self, efficiency: Fraction) -> float:
        return float(self.second_gpus * self.card_w / efficiency)


@dataclass(frozen=True)
class PowerPlan:
    """How a build at N GPUs sits on one circuit, in watts."""

    circuit: Circuit
    n_gpus: int
    gpu_w: int | None
    cpu_w: int | None
    rest_w: int
    efficiency: str | None
    psu_w: int | None
    wall_w: float | None  # at full GPU power; None when a power figure is unknown
    limit_w: int | None  # per-GPU limit that fits the circuit (None: not needed, or not possible)
    circuits: int  # circuits needed at full power (1 when it fits)
    lines: tuple[str, ...] = ()  # the plan, in sentences
    split: Split | None = None  # two circuits, two PSUs: what each carries
    psus: tuple[Psu, ...] = ()  # the build's PSUs, and the second one when the plan adds it
    head: tuple[str, ...] = ()  # the first sentences (circuit, draw, advice), before the PSUs
    card_w: int | None = None  # what one card draws: board power, or the build's lower limit

    @property
    def fits(self) -> bool | None:
        return None if self.wall_w is None else self.wall_w <= self.circuit.continuous_w

    @property
    def changes(self) -> bool:
        """Whether the circuit changes the build: a power limit or a second circuit is needed."""
        return self.fits is False


def _over(
    wall: Fraction, limit: Fraction, eff: Fraction, fixed_w: int, gpu_w: int, n: int
) -> tuple[int | None, int, str]:
    """(per-GPU limit, circuits needed, advice) for a draw of ``wall`` on a circuit of ``limit``
    (``fixed_w``: CPU and the rest; ``gpu_w``: what one card draws now)."""
    if wall <= limit:
        return None, 1, f"fits: {float(wall):,.0f} W <= {float(limit):,.0f} W, no further power limit needed"
    cap = power.per_gpu_cap_w(limit * eff, Fraction(fixed_w), n)  # the rules' formula, exact
    circuits = math.ceil(wall / limit)
    over = f"over by {float(wall - limit):,.0f} W"
    if cap >= MIN_LIMIT_SHARE * gpu_w:
        advice = (
            f"{over}: power-limit each GPU to {cap} W (from {gpu_w} W, {cap / gpu_w:.0%}; "
            f"`nvidia-smi -pl {cap}`, or power_limit_w: {cap} in the build file), or use {circuits} circuits ({PUGET})"
        )
        return cap, circuits, advice
    advice = (
        f"{over}: the limit that would fit, {cap} W per GPU ({cap / gpu_w:.0%} of {gpu_w} W), is below "
        f"{MIN_LIMIT_SHARE:.0%}: use {circuits} circuits, with a second PSU on the second circuit"
    )
    return None, circuits, advice


def split_of(fixed_w: int, gpu_w: int, n: int, limit: Fraction, eff: Fraction) -> Split | None:
    """The split of ``n`` cards between two PSUs on two circuits that needs the mildest power
    limit (none if it can), the first PSU also carrying ``fixed_w``; the second PSU is assumed
    as efficient as the first until one is chosen. None: two circuits need a limit below
    ``MIN_LIMIT_SHARE``."""
    best: tuple[int, int] | None = None  # (per-card cap, cards on the second PSU)
    for k in range(1, n):
        cap = min(power.per_gpu_cap_w(limit * eff, Fraction(fixed_w), n - k), math.floor(limit * eff / k))
        if best is None or min(cap, gpu_w) > min(best[0], gpu_w):
            best = (cap, k)
    if best is None or best[0] < MIN_LIMIT_SHARE * gpu_w:
        return None
    cap, k = best
    limit_w = cap if cap < gpu_w else None
    card = min(cap, gpu_w)
    first = Fraction(fixed_w + (n - k) * card) / eff
    return Split(n - k, k, gpu_w, limit_w, float(first), math.ceil(k * card * PSU_MARGIN))


def split_lines(plan: PowerPlan) -> list[str]:
    """The two-PSU plan in sentences (with the second PSU when one is chosen)."""
    s, c = plan.split, plan.circuit
    if s is None:
        return []
    limited = f", each GPU power-limited to {s.limit_w} W" if s.limit_w else ""
    first = (
        f"two circuits{limited}: circuit 1, PSU 1 carries the CPU, the rest and {s.first_gpus} GPU(s): "
        f"{s.first_wall_w:,.0f} W at the wall"
    )
    if len(plan.psus) < 2:
        return [first, f"circuit 2 needs a second PSU of {s.second_need_w:,} W or more for {s.second_gpus} GPU(s)"]
    second = plan.psus[1]
    wall2 = s.second_wall_w(power.efficiency(second.efficiency))
    fits = "fits" if wall2 <= c.continuous_w else "does NOT fit"
    return [
        first,
        f"circuit 2, PSU 2 {second.name} ({rating(second, c.volts)[1]} >= {s.second_need_w:,} W = {s.second_gpus} x "
        f"{s.card_w} W x {float(PSU_MARGIN):g}) carries {s.second_gpus} GPU(s): {wall2:,.0f} W at the wall, "
        f"{fits} {c.continuous_w:,.0f} W",
    ]


def is_atx3(psu: Psu) -> bool:
    return (psu.atx_version or "").startswith("3")


def transient_w(psu: Psu) -> int | None:
    """The excursion an ATX 3.x unit must ride through (200 % of its rating); None otherwise."""
    return 2 * psu.watts if is_atx3(psu) else None


def rating(psu: Psu, volts: float) -> tuple[int, str]:
    """(watts, how to say them) of ``psu`` on mains of ``volts``: on 100-127 V its low-line
    rating, as psu-wattage judges it; where that is unknown, its rating, saying so."""
    watts = power.rated_watts(psu.watts, psu.low_line_watts, volts)
    if watts is None:
        return psu.watts, f"{psu.watts} W (on 200-240 V; its output on {volts:g} V is not in the catalog)"
    return watts, f"{watts} W" if watts == psu.watts else f"{watts} W on {volts:g} V (rated {psu.watts} W)"


def _psu_line(psu: Psu, steady: int, volts: float, label: str = "PSU") -> str:
    watts, said = rating(psu, volts)
    head = f"{label} {said} at {steady:,} W steady DC load ({steady / watts:.0%})"
    return f"{head}; {transient_note(psu)}"


def transient_note(psu: Psu) -> str:
    """What the PSU's rating promises for GPU transients."""
    transient = transient_w(psu)
    return NOT_ATX3 if transient is None else ATX3.format(transient=transient)


def steady_w(plan: PowerPlan) -> int | None:
    """The full-load DC draw of the plan (cards at the plan's limit, if it sets one)."""
    if plan.cpu_w is None or plan.gpu_w is None:
        return None
    used = plan.split.card_w if plan.split else (plan.card_w or plan.gpu_w)
    return plan.cpu_w + plan.n_gpus * min(used, plan.limit_w or used) + plan.rest_w


def psu_loads(plan: PowerPlan) -> list[int | None]:
    """Each PSU's steady DC load: its share on two circuits, the whole load for one PSU, None
    for PSUs that share one circuit (how they share it is not known)."""
    s = plan.split
    if s is not None and len(plan.psus) >= 2:
        return [(plan.cpu_w or 0) + plan.rest_w + s.first_gpus * s.card_w, s.second_gpus * s.card_w]
    if len(plan.psus) == 1:
        return [steady_w(plan)]
    return [None for _ in plan.psus]


def _psu_lines(plan: PowerPlan, steady: int) -> list[str]:
    """Each PSU's steady DC load and its transient headroom (split between two circuits, or
    the sum of the units when they share one)."""
    if not plan.psus:
        return []
    loads = psu_loads(plan)
    if len(plan.psus) == 1 or plan.split is not None:
        labels = ["PSU"] if len(plan.psus) == 1 else [f"PSU {i}" for i in range(1, len(plan.psus) + 1)]
        return [
            _psu_line(p, load or 0, plan.circuit.volts, label)
            for p, load, label in zip(plan.psus, loads, labels, strict=False)
        ]
    rated = [rating(p, plan.circuit.volts) for p in plan.psus]
    total = sum(w for w, _ in rated)
    each = " + ".join(said for _, said in rated)
    return [f"PSUs {each} = {total} W at {steady:,} W steady DC load ({steady / total:.0%}), on one circuit"] + [
        f"PSU {i}, {p.name}: {transient_note(p)}" for i, p in enumerate(plan.psus, 1)
    ]


def plan_lines(plan: PowerPlan, head: tuple[str, ...]) -> tuple[str, ...]:
    """The plan in sentences: ``head`` (circuit, draw, advice), the split, the PSUs."""
    steady = steady_w(plan)
    if plan.wall_w is None or steady is None:
        return head
    unplanned: tuple[str, ...] = ()
    if plan.split is None and plan.circuits >= 2 and plan.limit_w is None:
        unplanned = (
            f"two circuits do not hold {plan.n_gpus} GPUs without a limit below {MIN_LIMIT_SHARE:.0%} of their "
            "power: not planned (partpicker plans at most two PSUs on two circuits)",
        )
    return (*head, *unplanned, *split_lines(plan), *_psu_lines(plan, steady))


def with_second_psu(plan: PowerPlan, psu: Psu) -> PowerPlan:
    """The plan with ``psu`` as the second PSU on the second circuit."""
    done = replace(plan, psus=(*plan.psus[:1], psu))
    return replace(done, lines=plan_lines(done, plan.head))


def power_plan(build: Build, circuit: Circuit, n_gpus: int, rest_w: int = power.REST_OF_SYSTEM_W) -> PowerPlan:
    """The plan of ``build`` with ``n_gpus`` cards at full load on ``circuit`` (the build's
    ``power_limit_w``, when set and lower than the board power, is what each card draws)."""
    gpu, cpu, psu = build.gpu, build.cpu, build.psu
    board = gpu.board_power_w if gpu else None
    cpu_w = cpu.tdp_w if cpu else None
    eff_name = psu.efficiency if psu else None
    unknown = PowerPlan(circuit, n_gpus, board, cpu_w, rest_w, eff_name, psu.watts if psu else None, None, None, 1)
    head: tuple[str, ...] = (f"circuit {circuit.name}: {circuit.describe()}",)
    if board is None or cpu_w is None:
        head += ("draw unknown: the catalog lacks the GPU's board power or the CPU's TDP",)
        return replace(unknown, lines=head, head=head, psus=build.psus)
    used = power.gpu_power_w(board, build.power_limit_w)
    eff = power.efficiency(eff_name)
    wall = Fraction(cpu_w + n_gpus * used + rest_w) / eff
    limited = f" (limited from {board} W)" if used < board else ""
    how = f"({cpu_w} W CPU + {n_gpus} x {used} W{limited} + {rest_w} W) / {float(eff):.2f} ({eff_name or 'unknown'})"
    limit = power.exact(circuit.continuous_w)
    cap, circuits, advice = _over(wall, limit, eff, cpu_w + rest_w, used, n_gpus)
    head += (f"full load at the wall: {float(wall):,.0f} W = {how}", advice)
    split = split_of(cpu_w + rest_w, used, n_gpus, limit, eff) if circuits >= 2 and cap is None else None
    if split is not None and circuits > 2:  # two circuits do, with the split's limit: say two
        head = (
            *head[:-1],
            f"{advice.rsplit(': use ', 1)[0]}: use 2 circuits, a second PSU on the second, with the limit below "
            f"({circuits} circuits at full power)",
        )
        circuits = 2
    plan = replace(
        unknown,
        wall_w=float(wall),
        limit_w=cap,
        circuits=circuits,
        split=split,
        psus=build.psus,
        head=head,
        card_w=used,
    )
    return replace(plan, lines=plan_lines(plan, head))
