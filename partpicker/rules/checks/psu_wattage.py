"""psu-wattage: the PSU covers the full-load draw of N GPUs with margin, and the article's floor.

need = max(floor if N >= floor_from_gpus else 0, ceil((CPU TDP + N x GPU W + rest) x margin)),
in exact arithmetic (the margin as the decimal it is written as). GPU W is the card's board
power, or the build's per-card ``power_limit_w`` when that is lower. A failing PSU gets the
per-card power limit that would make it fit, when one would.

A dual-PSU build (``psu: [A, B]`` or ``{part: A, count: 2}``) is rated at the sum of its
units' watts, each named in the message.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from partpicker.models import Psu
from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, Unknown, check, gpus, verdict


def psu_units(ctx: Context) -> tuple[Psu, ...]:
    """Every PSU of the build, one per unit; *unknown* if it has none."""
    ctx.part("psu")
    return ctx.build.psus


def psu_label(psus: tuple[Psu, ...], what: str = "watts") -> str:
    """``PSU 1600 W``; for several, each named with its figure and the sum."""
    if len(psus) == 1:
        return f"PSU {psus[0].watts} W"
    each = " + ".join(f"{p.name} {p.watts} W" for p in psus)
    return f"{len(psus)} PSUs ({each}) = {sum(p.watts for p in psus)} W"


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
    psus, cpu, gpu = psu_units(ctx), ctx.part("cpu"), ctx.part("gpu")
    watts = sum(p.watts for p in psus)
    n = ctx.n_gpus
    floored = n >= int(ctx.params["floor_from_gpus"])
    floor = int(ctx.params["min_watts"]) if floored else 0
    margin = power.exact(ctx.params["margin"])
    rest = int(ctx.params["rest_of_system_w"])
    values: dict[str, Any] = {
        "watts": watts,
        "psu": psu_label(psus),
        "n": n,
        "gpus": gpus(n),
        "rest": rest,
        "margin": ctx.params["margin"],
    }
    values["floor_note"] = (
        f"; floor {floor} W from {ctx.params['floor_from_gpus']} GPUs"
        if floored
        else f"; no floor below {ctx.params['floor_from_gpus']} GPUs"
    )
    if watts < floor and (cpu.tdp_w is None or gpu.board_power_w is None):
        # Below the floor whatever the parts draw: no need to know their power.
        advice = f"; no power limit lifts a PSU over the {floor} W floor: use one of {floor} W or more"
        return verdict(False, need=floor, load="?", tdp="?", gpu="?", advice=advice, **values)
    tdp = ctx.need(cpu, "tdp_w")
    used, shown = gpu_note(gpu.board_power_w, ctx.build.power_limit_w)
    load = tdp + n * used + rest
    need = power.psu_need_w(Fraction(load), margin, floor)
    ok = watts >= need
    if not ok and gpu.board_power_w is None:
        raise Unknown("board_power_w of the GPU is not in the catalog (the power limit alone is not enough)")
    advice = "" if ok else _advice(watts, margin, tdp + rest, n, used, need, floor)
    return verdict(ok, need=need, load=load, tdp=tdp, gpu=shown, advice=advice, **values)
