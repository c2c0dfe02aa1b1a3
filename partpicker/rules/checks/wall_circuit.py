"""wall-circuit: full-load draw at the wall within one 120 V / 15 A circuit's continuous 80 %.

wall = (CPU TDP + N x GPU W + rest) / efficiency <= max_wall_watts, compared exactly
(load <= limit x efficiency). GPU W is the board power, or the build's ``power_limit_w``
when lower; a failing build is told the per-card limit that would fit.

A dual-PSU build is judged on one circuit too, at its total draw, through the least
efficient of its PSUs (the conservative figure): the rule knows of one wall circuit only.
"""

from fractions import Fraction

from partpicker.parts import Psu
from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, Unknown, check, gpus, verdict
from partpicker.rules.checks.psu_wattage import gpu_note, psu_units


def _least_efficient(psus: tuple[Psu, ...]) -> tuple[Fraction, str]:
    """The lowest full-load efficiency among the PSUs (unknown counts as 1: DC load shown)."""
    worst = min(psus, key=lambda p: power.efficiency(p.efficiency))
    rating = worst.efficiency or "unknown efficiency: DC load shown"
    if len(psus) > 1 and worst.efficiency:
        rating += f" (the least efficient of the {len(psus)} PSUs)"
    return power.efficiency(worst.efficiency), rating


@check("wall-circuit")
def run(ctx: Context) -> Outcome:
    psus, cpu, gpu = psu_units(ctx), ctx.part("cpu"), ctx.part("gpu")
    limit = power.exact(ctx.params["max_wall_watts"])
    rest = int(ctx.params["rest_of_system_w"])
    tdp = ctx.need(cpu, "tdp_w")
    used, shown = gpu_note(gpu.board_power_w, ctx.build.power_limit_w)
    n = ctx.n_gpus
    load = tdp + n * used + rest
    eff, rating = _least_efficient(psus)
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
        rating=rating,
        circuit=ctx.params.get("circuit", "one 120 V / 15 A circuit"),
    )
