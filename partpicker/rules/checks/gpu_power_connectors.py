"""gpu-power-connectors: the PSU has a separate cable for every GPU power socket.

A 12VHPWR / 12V-2x6 socket takes a native cable, or NVIDIA's adapter fed by one 8-pin
cable per 150 W of what the slot's 75 W does not cover (two for a 350 W RTX 3090, three
for a 450 W RTX 4090, four for 600 W). A dual-PSU build has the cables of both units.
"""

import math

from partpicker.parts import Gpu
from partpicker.rules.checks import Context, Outcome, check, verdict
from partpicker.rules.checks.psu_wattage import psu_units


def cables_needed(ctx: Context, gpu: Gpu, n: int, have_hpwr: int) -> tuple[int, int]:
    """(PCIe 8-pin cables, of them feeding 12VHPWR adapters) for ``n`` cards from PSUs with
    ``have_hpwr`` native 12VHPWR cables; *unknown* without the card's sockets (or its power,
    when adapters are needed)."""
    power = ctx.need(gpu, "power")
    hpwr = n * power.hpwr_12v
    adapter = 0
    if hpwr > have_hpwr:
        watts = ctx.need(gpu, "board_power_w")
        per_socket = min(4, max(1, math.ceil((watts - 75) / 150 / max(power.hpwr_12v, 1))))
        adapter = (hpwr - have_hpwr) * per_socket
    return n * (power.pcie_8pin + power.pcie_6pin) + adapter, adapter


@check("gpu-power-connectors")
def run(ctx: Context) -> Outcome:
    gpu, psus = ctx.part("gpu"), psu_units(ctx)
    n = ctx.n_gpus
    have_hpwr = sum(psu.hpwr_12v or 0 for psu in psus)
    need8, adapter = cables_needed(ctx, gpu, n, have_hpwr)
    have8 = sum(ctx.need(psu, "pcie_8pin") for psu in psus)
    hpwr = n * gpu.power.hpwr_12v if gpu.power else 0
    via = f" (incl. {adapter} feeding 12VHPWR adapters)" if adapter else ""
    return verdict(
        need8 <= have8,
        n=n,
        need8=need8,
        have8=have8,
        need_hpwr=min(hpwr, have_hpwr),  # native cables; the other sockets take adapters, counted in need8
        have_hpwr=have_hpwr,
        via=via,
        psu_has="the PSU has" if len(psus) == 1 else f"the {len(psus)} PSUs have",
    )
