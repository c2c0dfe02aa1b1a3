"""Power estimates shared by psu-wattage, wall-circuit and the cost model.

Full-load DC draw = CPU TDP + n x GPU board power + the rest of the system (drives, fans,
RAM, board: 100 W by default, after T. Dettmers' "A Full Hardware Guide to Deep Learning").
Wall draw = DC draw / the PSU's efficiency at full load (80 PLUS table).
"""

from __future__ import annotations

from partpicker.vocab import EFFICIENCY_AT_FULL_LOAD

REST_OF_SYSTEM_W = 100


def dc_load_w(cpu_tdp_w: float, gpu_power_w: float, n_gpus: int, rest_w: float = REST_OF_SYSTEM_W) -> float:
    """Estimated full-load draw on the PSU's outputs, in watts."""
    return cpu_tdp_w + n_gpus * gpu_power_w + rest_w


def wall_w(dc_w: float, efficiency: str | None) -> float:
    """Estimated draw at the wall; with an unknown rating, the DC figure (a lower bound)."""
    if efficiency is None:
        return dc_w
    return dc_w / EFFICIENCY_AT_FULL_LOAD[efficiency]
