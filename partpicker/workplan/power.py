"""The power plan of a build on a wall circuit: full-load draw, per-GPU limits that fit, a
second circuit when limits cannot, and the PSU's headroom for GPU transients.

Draw at the wall = (CPU TDP + N x GPU power + the rest) / the PSU's efficiency at full load
(partpicker.rules.power, the figures psu-wattage and wall-circuit use). A per-GPU limit that
fits solves that for the GPU power. Limits below ``MIN_LIMIT_SHARE`` of the board power are
not proposed: Puget Systems measured a quad RTX 3090 at 280 W of 350 (80 %) losing ~5 % of
training speed; deeper cuts cost more, and each card has a driver floor (nvidia-smi -q -d
POWER, "Min Power Limit") that the catalog does not know.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from partpicker.build import Build
from partpicker.circuits import Circuit
from partpicker.models import Psu
from partpicker.rules import power

MIN_LIMIT_SHARE = 0.6
PUGET = "https://www.pugetsystems.com/labs/hpc/quad-rtx3090-gpu-power-limiting-with-systemd-and-nvidia-smi-1983/"
ATX3 = (
    "ATX 3.x: the unit must ride through power excursions of 200 % of its rating for 100 us "
    "(Intel ATX 3.0 design guide, power excursion table)"
)
NOT_ATX3 = (
    "not ATX 3.x (or unknown): its rating promises no excursion headroom; GPU transients reach well "
    "above board power for milliseconds (Igor's Lab on the RTX 3090), so keep the steady load well under the rating"
)


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
    lines: tuple[str, ...]  # the plan, in sentences

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
        f"{MIN_LIMIT_SHARE:.0%}: use {circuits} circuits, with a second PSU on the second circuit "
        "(the build file lists one PSU; a dual-PSU build is not validated)"
    )
    return None, circuits, advice


def _psu_line(psu: Psu, steady: int) -> str:
    atx3 = (psu.atx_version or "").startswith("3")
    return f"PSU {psu.watts} W at {steady:,} W steady DC load ({steady / psu.watts:.0%}); {ATX3 if atx3 else NOT_ATX3}"


def power_plan(build: Build, circuit: Circuit, n_gpus: int, rest_w: int = power.REST_OF_SYSTEM_W) -> PowerPlan:
    """The plan of ``build`` with ``n_gpus`` cards at full load on ``circuit`` (the build's
    ``power_limit_w``, when set and lower than the board power, is what each card draws)."""
    gpu, cpu, psu = build.gpu, build.cpu, build.psu
    board = gpu.board_power_w if gpu else None
    cpu_w = cpu.tdp_w if cpu else None
    eff_name = psu.efficiency if psu else None
    psu_w = psu.watts if psu else None
    lines = [f"circuit {circuit.name}: {circuit.describe()}"]
    if board is None or cpu_w is None:
        lines.append("draw unknown: the catalog lacks the GPU's board power or the CPU's TDP")
        return PowerPlan(circuit, n_gpus, board, cpu_w, rest_w, eff_name, psu_w, None, None, 1, tuple(lines))
    used = power.gpu_power_w(board, build.power_limit_w)
    eff = power.efficiency(eff_name)
    load = cpu_w + n_gpus * used + rest_w
    wall = Fraction(load) / eff
    limited = f" (limited from {board} W)" if used < board else ""
    how = f"({cpu_w} W CPU + {n_gpus} x {used} W{limited} + {rest_w} W) / {float(eff):.2f} ({eff_name or 'unknown'})"
    lines.append(f"full load at the wall: {float(wall):,.0f} W = {how}")
    cap, circuits, advice = _over(wall, power.exact(circuit.continuous_w), eff, cpu_w + rest_w, used, n_gpus)
    lines.append(advice)
    if psu is not None:
        lines.append(_psu_line(psu, cpu_w + n_gpus * min(used, cap or used) + rest_w))
    return PowerPlan(circuit, n_gpus, board, cpu_w, rest_w, eff_name, psu_w, float(wall), cap, circuits, tuple(lines))
