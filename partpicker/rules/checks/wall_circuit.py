"""wall-circuit: full-load draw at the wall within one 120 V / 15 A circuit's continuous 80 %.

wall = (CPU TDP + N x GPU W + rest) / efficiency <= max_wall_watts, compared exactly
(load <= limit x efficiency). GPU W is the board power, or the build's ``power_limit_w``
when lower; a failing build is told the per-card limit that would fit.
"""

from fractions import Fraction

from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, Unknown, check, gpus, verdict
from partpicker.rules.checks.psu_wattage import gpu_note


@check("wall-circuit")
def run(ctx: Context) -> Outcome:
    psu, cpu, gpu = ctx.part("psu"), ctx.part("cpu"), ctx.part("gpu")
    limit = power.exact(ctx.params["max_wall_watts"])
    rest = int(ctx.params["rest_of_system_w"])
    tdp = ctx.need(cpu, "tdp_w")
    used, shown = gpu_note(gpu.board_power_w, ctx.build.power_limit_w)
    n = ctx.n_gpus
    load = tdp + n * used + rest
    eff = power.efficiency(psu.efficiency)
    ok = Fraction(load) <= limit * eff
    if not ok and gpu.board_power_w is None:
        raise Unknown("board_power_w of the GPU is not in the catalog (the power limit alone is not enough)")
    cap = power.per_gpu_cap_w(limit * eff, Fraction(tdp + rest), n)
    if ok:
        advice = ""
    elif 0 < cap < used:
        advice = f"; use two circuits or power-limit the cards to {cap} W or less"
    else:
        advice = "; use two circuits (no power limit of the cards is enough)"
    return verdict(
        ok,
        wall=round(Fraction(load) / eff),
        load=load,
        limit=ctx.params["max_wall_watts"],
        n=n,
        gpus=gpus(n),
        tdp=tdp,
        rest=rest,
        cap=cap,
        gpu=shown,
        advice=advice,
        rating=psu.efficiency or "unknown efficiency: DC load shown",
        circuit=ctx.params.get("circuit", "one 120 V / 15 A circuit"),
    )
