"""The power budget: the full-load draw (CPU, each GPU, the rest, the margin) against the PSU's
watts, and the wall draw against the circuit's limit, with a per-GPU power limit that would fit.

Hooks: ``rect.segment[data-part][data-watts]``, ``line.psu-watts``, ``line.floor``,
``rect.wall``, ``line.circuit``, ``line.gpu-limit``; every figure also appears as text.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from fractions import Fraction

from partpicker.html.svg import el, figure, to_string
from partpicker.html.views import PowerView

WIDTH, BAR_X, BAR_W, BAR_H = 900.0, 100.0, 680.0, 34.0
Y_PSU, Y_WALL = 56.0, 160.0
HEIGHT = 250.0


def load_w(view: PowerView) -> float | None:
    """CPU + n x GPU + rest, or None when the CPU or GPU figure is unknown."""
    if view.cpu_w is None or view.gpu_w is None:
        return None
    return view.cpu_w + view.n * view.gpu_w + view.rest_w


def need_w(view: PowerView) -> float | None:
    """What the PSU must supply: the load times the margin, at least the floor."""
    load = load_w(view)
    if load is None:
        return None
    # Whole watts in exact decimal arithmetic, as psu-wattage: 1680 W x 1.1 is 1848 W, not 1849 W.
    exact = Fraction(str(load)) * Fraction(str(view.margin))
    return max(float(math.ceil(exact)), view.floor_w or 0.0)


def segments(view: PowerView) -> list[tuple[str, str, float]]:
    """(part, label, watts) left to right: CPU, each GPU, the rest, the margin."""
    load = load_w(view)
    if load is None or view.cpu_w is None or view.gpu_w is None:
        return []
    out = [("cpu", "CPU", view.cpu_w)]
    out += [("gpu", f"GPU {i}", view.gpu_w) for i in range(1, view.n + 1)]
    out.append(("rest", "rest of system", view.rest_w))
    out.append(("margin", f"margin x{view.margin:g}", load * (view.margin - 1)))
    return out


def scale(view: PowerView) -> float:
    """Watts per full bar: the largest figure drawn, plus a tenth."""
    figures = [need_w(view), view.psu_w, view.floor_w, view.wall_w, view.circuit_w]
    return max([f for f in figures if f is not None] + [100.0]) * 1.1


def _x(watts: float, full: float) -> float:
    return BAR_X + BAR_W * watts / full


def _mark(root: ET.Element, css: str, watts: float, full: float, y: float, text: str) -> None:
    x = _x(watts, full)
    el(root, "line", x1=x, y1=y - 8, x2=x, y2=y + BAR_H + 8, class_=css, data_watts=round(watts))
    el(root, "text", text, x=x, y=y + BAR_H + 22, class_=f"{css}-label", text_anchor="middle")


def verdict_psu(view: PowerView) -> str:
    need = need_w(view)
    if need is None:
        missing = "CPU TDP" if view.cpu_w is None else "GPU board power"
        return f"full-load draw unknown: {missing} not known"
    head = f"needs {need:,.0f} W (load {load_w(view) or 0:,.0f} W x{view.margin:g}"
    head += f", floor {view.floor_w:,.0f} W)" if view.floor_w else ")"
    if view.psu_w is None:
        return head + "; PSU watts unknown"
    gap = view.psu_w - need
    return head + (f"; PSU {view.psu_w:,.0f} W: {gap:,.0f} W spare" if gap >= 0 else f"; PSU short by {-gap:,.0f} W")


def _psu_bar(root: ET.Element, view: PowerView, full: float) -> None:
    el(root, "text", "PSU (DC)", x=10.0, y=Y_PSU + 22, class_="bar-label")
    x = BAR_X
    for part, label, watts in segments(view):
        width = BAR_W * watts / full
        g = el(root, "g", class_="segment-group")
        el(g, "title", f"{label}: {watts:,.0f} W")
        el(
            g,
            "rect",
            x=x,
            y=Y_PSU,
            width=width,
            height=BAR_H,
            class_=f"segment {part}",
            data_part=part,
            data_watts=round(watts),
        )
        fitting = label if width > 7 * len(label) + 8 else label.split()[0]
        if width > 7 * len(fitting) + 8:
            el(g, "text", fitting, x=x + 4, y=Y_PSU + 22, class_="segment-label")
        x += width
    if view.psu_w is not None:
        _mark(root, "psu-watts", view.psu_w, full, Y_PSU, f"PSU {view.psu_w:,.0f} W")
    if view.floor_w:
        el(
            root,
            "line",
            x1=_x(view.floor_w, full),
            y1=Y_PSU,
            x2=_x(view.floor_w, full),
            y2=Y_PSU + BAR_H,
            class_="floor",
            data_watts=round(view.floor_w),
        )
    el(root, "text", verdict_psu(view), x=BAR_X, y=Y_PSU - 12, class_="bar-verdict")


def verdict_wall(view: PowerView) -> str:
    if view.wall_w is None:
        return "wall draw unknown"
    if view.circuit_w is None:
        return f"wall draw {view.wall_w:,.0f} W; circuit limit unknown"
    gap = view.circuit_w - view.wall_w
    head = f"wall draw {view.wall_w:,.0f} W against a {view.circuit_w:,.0f} W circuit"
    return head + (f": {gap:,.0f} W spare" if gap >= 0 else f": over by {-gap:,.0f} W")


def _wall_bar(root: ET.Element, view: PowerView, full: float) -> None:
    el(root, "text", "Wall (AC)", x=10.0, y=Y_WALL + 22, class_="bar-label")
    el(root, "text", verdict_wall(view), x=BAR_X, y=Y_WALL - 12, class_="bar-verdict")
    if view.wall_w is not None:
        over = view.circuit_w is not None and view.wall_w > view.circuit_w
        el(
            root,
            "rect",
            x=BAR_X,
            y=Y_WALL,
            width=BAR_W * view.wall_w / full,
            height=BAR_H,
            class_="wall over" if over else "wall",
            data_watts=round(view.wall_w),
        )
    if view.circuit_w is not None:
        _mark(root, "circuit", view.circuit_w, full, Y_WALL, f"circuit {view.circuit_w:,.0f} W")


def limit_text(view: PowerView) -> str:
    if view.gpu_limit_w is None:
        return "no per-GPU power limit computed"
    if view.gpu_w is not None and view.gpu_limit_w >= view.gpu_w:
        return f"fits at the cards' full {view.gpu_w:,.0f} W"
    if view.gpu_limit_w <= 0:
        return "no GPU power limit makes this fit"
    return f"a power limit of {view.gpu_limit_w:,.0f} W per GPU would fit (nvidia-smi -pl {view.gpu_limit_w:.0f})"


def _limit_mark(root: ET.Element, view: PowerView, full: float) -> None:
    """Where the PSU bar would end with the GPUs at the limit."""
    limit = view.gpu_limit_w
    if limit is None or view.cpu_w is None or view.gpu_w is None or not 0 < limit < view.gpu_w:
        return
    limited = PowerView(view.n, view.cpu_w, limit, view.rest_w, view.margin, view.psu_w, view.floor_w)
    watts = need_w(limited) or 0.0
    el(
        root,
        "line",
        x1=_x(watts, full),
        y1=Y_PSU - 4,
        x2=_x(watts, full),
        y2=Y_PSU + BAR_H + 4,
        class_="gpu-limit",
        data_watts=round(watts),
    )


def describe(view: PowerView) -> str:
    parts = [f"Power budget for {view.n} GPU(s)."]
    parts += [f"{label} {watts:,.0f} W." for _, label, watts in segments(view)]
    parts += [verdict_psu(view) + ".", verdict_wall(view) + ".", limit_text(view) + "."]
    return " ".join(parts)


def power_budget(view: PowerView, ident: str = "power") -> str:
    """The power budget as an inline ``<svg>`` element."""
    full = scale(view)
    root = figure(ident, WIDTH, HEIGHT, f"Power budget at {view.n} GPU(s)", describe(view), "power")
    _psu_bar(root, view, full)
    _wall_bar(root, view, full)
    _limit_mark(root, view, full)
    el(root, "text", limit_text(view), x=BAR_X, y=HEIGHT - 14, class_="gpu-limit-label")
    return to_string(root)
