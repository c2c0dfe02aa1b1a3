"""Power estimates shared by psu-wattage, wall-circuit and the cost model.

Full-load DC draw = CPU TDP + n x GPU power + the rest of the system (drives, fans, RAM,
board: 100 W by default, after T. Dettmers' "A Full Hardware Guide to Deep Learning").
GPU power is the card's board power, or the user's per-card power limit when lower.
Wall draw = DC draw / the PSU's efficiency at full load (80 PLUS table).

The rules compare in exact arithmetic (:class:`~fractions.Fraction`): a margin of 1.1 is
11/10, so 1500 W x 1.1 is exactly 1650 W, never 1650.0000000000002 W.
"""

from __future__ import annotations

import math
from fractions import Fraction

from partpicker.vocab import EFFICIENCY_AT_FULL_LOAD

REST_OF_SYSTEM_W = 100
LOW_LINE_BELOW_V = 200
"""Mains below this (100-127 V) are low line: a PSU gives its low-line rating there."""


def exact(value: int | float | str | Fraction) -> Fraction:
    """A number as the decimal it was written as: ``1.1`` is 11/10 (not the float's binary value)."""
    if isinstance(value, Fraction | int):
        return Fraction(value)
    return Fraction(str(value))


def gpu_power_w(board_power_w: int, limit_w: int | None) -> int:
    """The power one card may draw: its board power, or the power limit when that is lower."""
    return board_power_w if limit_w is None else min(board_power_w, limit_w)


def dc_load_w(cpu_tdp_w: float, gpu_power_w: float, n_gpus: int, rest_w: float = REST_OF_SYSTEM_W) -> float:
    """Estimated full-load draw on the PSU's outputs, in watts."""
    return cpu_tdp_w + n_gpus * gpu_power_w + rest_w


def wall_w(dc_w: float, efficiency: str | None) -> float:
    """Estimated draw at the wall; with an unknown rating, the DC figure (a lower bound)."""
    if efficiency is None:
        return dc_w
    return dc_w / EFFICIENCY_AT_FULL_LOAD[efficiency]


def efficiency(rating: str | None) -> Fraction:
    """The PSU's full-load efficiency, exactly as the 80 PLUS table writes it (1 if unknown)."""
    return exact(EFFICIENCY_AT_FULL_LOAD[rating]) if rating is not None else Fraction(1)


def rated_watts(watts: int, low_line_watts: int | None, volts: float) -> int | None:
    """What a PSU rated ``watts`` (on 200-240 V mains for units that derate) delivers on mains of
    ``volts``: below 200 V its low-line rating (None: not known), else its rating."""
    return low_line_watts if volts < LOW_LINE_BELOW_V else watts


def psu_need_w(load_w: Fraction, margin: Fraction, floor_w: int) -> int:
    """The PSU watts a load needs: ceil(load x margin), and at least the floor (exact)."""
    return max(floor_w, math.ceil(load_w * margin))


def per_gpu_cap_w(budget_w: Fraction, fixed_w: Fraction, n_gpus: int) -> int:
    """The largest whole-watt power per card with ``fixed_w + n x cap <= budget_w`` (may be <= 0)."""
    return math.floor((budget_w - fixed_w) / n_gpus) if n_gpus else 0
