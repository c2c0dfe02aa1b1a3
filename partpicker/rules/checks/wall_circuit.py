"""wall-circuit: full-load draw at the wall within one 120 V / 15 A circuit's continuous 80 %."""

from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, check, verdict
from partpicker.vocab import EFFICIENCY_AT_FULL_LOAD


@check("wall-circuit")
def run(ctx: Context) -> Outcome:
    psu, cpu, gpu = ctx.part("psu"), ctx.part("cpu"), ctx.part("gpu")
    limit = float(ctx.params["max_wall_watts"])
    rest = float(ctx.params["rest_of_system_w"])
    tdp = ctx.need(cpu, "tdp_w")
    gpu_w = ctx.need(gpu, "board_power_w")
    n = ctx.n_gpus
    wall = power.wall_w(power.dc_load_w(tdp, gpu_w, n, rest), psu.efficiency)
    eff = EFFICIENCY_AT_FULL_LOAD.get(psu.efficiency or "", 1.0)
    cap = int((limit * eff - tdp - rest) / n) if n else 0
    return verdict(
        wall <= limit,
        wall=round(wall),
        limit=round(limit),
        n=n,
        cap=cap,
        gpu_w=gpu_w,
        rating=psu.efficiency or "unknown efficiency: DC load shown",
    )
