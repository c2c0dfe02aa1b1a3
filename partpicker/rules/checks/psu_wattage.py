"""psu-wattage: the PSU covers the full-load draw of N GPUs with margin, and the article's floor.

need = max(floor if N >= floor_from_gpus else 0, ceil((CPU TDP + N x GPU W + rest) x margin)),
in exact arithmetic (the margin as the decimal it is written as). GPU W is the card's board
power, or the build's per-card ``power_limit_w`` when that is lower. A failing PSU gets the
per-card power limit that would make it fit, when one would.

A dual-PSU build (``psu: [A, B]`` or ``{part: A, count: 2}``) is rated at the sum of its
units' watts, each named in the message. On a named low-line circuit (``mains_volts``
below 200, which ``--circuit us-15a`` sets; 0 = not stated) a unit gives its low-line
rating (``low_line_watts``: a 2000 W unit on 230 V may give 1650 W on 115 V); unknown
where the catalog lacks it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from partpicker.parts import Psu
from partpicker.rules import power
from partpicker.rules.checks import Context, Outcome, Unknown, check, gpus, verdict


def psu_units(ctx: Context) -> tuple[Psu, ...]:
    """Every PSU of the build, one per unit; *unknown* if it has none."""
    ctx.part("psu")
    return ctx.build.psus


def psu_watts(psus: tuple[Psu, ...], volts: float) -> tuple[int, ...]:
    """Each PSU's output on mains of ``volts`` (0: not stated, its rating; on 100-127 V its
    low-line rating); *unknown* for a unit whose low-line output the catalog lacks."""
    out = []
    for p in psus:
        watts = power.rated_watts(p.watts, p.low_line_watts, volts) if volts else p.watts
        if watts is None:
            raise Unknown(
                f"the output of {p.name} on {volts:g} V mains (low_line_watts) is not in the catalog: "
                f"it is rated {p.watts} W on 200-240 V"
            )
        out.append(watts)
    return tuple(out)


def psu_label(psus: tuple[Psu, ...], watts: tuple[int, ...], volts: float) -> str:
    """``PSU 1600 W``; for several, each named with its figure and the sum; a unit derated on
    low-line mains says so."""

    def one(p: Psu, w: int) -> str:
        return f"{w} W" if w == p.watts else f"{w} W on {volts:g} V (rated {p.watts} W)"

    if len(psus) == 1:
        return f"PSU {one(psus[0], watts[0])}"
    each = " + ".join(f"{p.name} {one(p, w)}" for p, w in zip(psus, watts, strict=True))
    return f"{len(psus)} PSUs ({each}) = {sum(watts)} W"


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
    volts = float(ctx.params["mains_volts"])
    each = psu_watts(psus, volts)
    watts = sum(each)
    n = ctx.n_gpus
    floored = n >= int(ctx.params["floor_from_gpus"])
    floor = int(ctx.params["min_watts"]) if floored else 0
    margin = power.exact(ctx.params["margin"])
    rest = int(ctx.params["rest_of_system_w"])
    values: dict[str, Any] = {
        "watts": watts,
        "psu": psu_label(psus, each, volts),
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
