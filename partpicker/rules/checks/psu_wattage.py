"""psu-wattage: the PSU covers the full-load draw at target_gpus with margin, and the floor."""

import math

from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, check, verdict


@check("psu-wattage")
def run(ctx: Context) -> Outcome:
    psu, cpu, gpu = ctx.part("psu"), ctx.part("cpu"), ctx.part("gpu")
    floor = int(ctx.params["min_watts"])
    margin = float(ctx.params["margin"])
    rest = float(ctx.params["rest_of_system_w"])
    values = {"watts": psu.watts, "floor": floor, "n": ctx.n_gpus, "margin": margin}
    known = cpu.tdp_w is not None and gpu.board_power_w is not None
    if psu.watts < floor and not known:
        # Below the floor whatever the parts draw: no need to know their power.
        return verdict(False, need=floor, load="?", gpu_w=gpu.board_power_w or "?", tdp=cpu.tdp_w or "?", **values)
    tdp = ctx.need(cpu, "tdp_w")
    board_power = ctx.need(gpu, "board_power_w")
    load = power.dc_load_w(tdp, board_power, ctx.n_gpus, rest)
    need = max(floor, math.ceil(load * margin))
    return verdict(psu.watts >= need, need=need, load=round(load), gpu_w=board_power, tdp=tdp, **values)
