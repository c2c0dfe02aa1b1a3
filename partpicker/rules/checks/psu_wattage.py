"""psu-wattage: the PSU covers the full-load draw of N GPUs with margin, and the article's floor.

need = max(floor if N >= floor_from_gpus else 0, ceil((CPU TDP + N x GPU W + rest) x margin)),
in exact arithmetic (the margin as the decimal it is written as). GPU W is the card's board
power, or the build's per-card ``power_limit_w`` when that is lower. A failing PSU gets the
per-card power limit that would make it fit, when one would.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, Unknown, check, gpus, verdict


def gpu_note(board_w: int | None, limit: int | None) -> tuple[int, str]:
    """(watts used per card, how the message shows them); *unknown* without either figure."""
    if board_w is None:
        if limit is None:
            raise Unknown("board_power_w of the GPU is not in the catalog")
        return limit, f"{limit} W (power limit; board power unknown)"
    used = power.gpu_power_w(board_w, limit)
    if used < board_w:
        return used, f"{used} W (power-limited from {board_w} W)"
    return used, f"{used} W"


def _advice(watts: int, margin: Fraction, fixed: int, n: int, used: int, need: int, floor: int) -> str:
    """What would make a failing PSU fit: a per-card power limit when one would, else a bigger PSU."""
    if watts < floor:
        return f"; no power limit lifts a PSU over the {floor} W floor: use one of {need} W or more"
    cap = power.per_gpu_cap_w(Fraction(watts) / margin, Fraction(fixed), n)
    if 0 < cap < used:
        return f"; power-limit the cards to {cap} W or less, or use a PSU of {need} W or more"
    return f"; use a PSU of {need} W or more"


@check("psu-wattage")
def run(ctx: Context) -> Outcome:
    psu, cpu, gpu = ctx.part("psu"), ctx.part("cpu"), ctx.part("gpu")
    n = ctx.n_gpus
    floored = n >= int(ctx.params["floor_from_gpus"])
    floor = int(ctx.params["min_watts"]) if floored else 0
    margin = power.exact(ctx.params["margin"])
    rest = int(ctx.params["rest_of_system_w"])
    values: dict[str, Any] = {"watts": psu.watts, "n": n, "gpus": gpus(n), "rest": rest, "margin": ctx.params["margin"]}
    values["floor_note"] = (
        f"; floor {floor} W from {ctx.params['floor_from_gpus']} GPUs"
        if floored
        else f"; no floor below {ctx.params['floor_from_gpus']} GPUs"
    )
    if psu.watts < floor and (cpu.tdp_w is None or gpu.board_power_w is None):
        # Below the floor whatever the parts draw: no need to know their power.
        advice = f"; no power limit lifts a PSU over the {floor} W floor: use one of {floor} W or more"
        return verdict(False, need=floor, load="?", tdp="?", gpu="?", advice=advice, **values)
    tdp = ctx.need(cpu, "tdp_w")
    used, shown = gpu_note(gpu.board_power_w, ctx.build.power_limit_w)
    load = tdp + n * used + rest
    need = power.psu_need_w(Fraction(load), margin, floor)
    ok = psu.watts >= need
    if not ok and gpu.board_power_w is None:
        raise Unknown("board_power_w of the GPU is not in the catalog (the power limit alone is not enough)")
    advice = "" if ok else _advice(psu.watts, margin, tdp + rest, n, used, need, floor)
    return verdict(ok, need=need, load=load, tdp=tdp, gpu=shown, advice=advice, **values)
