"""The cost curves: what owning has cost so far (paid, and net of resale value) against each
cloud option's bill, month by month, with each break-even month marked.

Hooks: ``polyline.series[data-series]`` (own-paid, own-net, cloud-0...), ``circle.break-even``
with ``data-month`` and ``data-option``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from partpicker.html.svg import el, figure, num, to_string
from partpicker.html.views import CostCurve

WIDTH, HEIGHT = 920.0, 380.0
LEFT, RIGHT, TOP, BOTTOM = 80.0, 660.0, 30.0, 320.0


def nice_step(top: float, steps: int = 5) -> float:
    """A round tick step (1, 2 or 5 x 10^k) giving about ``steps`` ticks up to ``top``."""
    raw = max(top, 1.0) / steps
    power = float(10 ** math.floor(math.log10(raw)))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= raw)


class Axes:
    """Months 1..n across, dollars 0..top up."""

    def __init__(self, months: int, top: float) -> None:
        self.months = max(months, 2)
        self.step = nice_step(top)
        self.top = math.ceil(max(top, 1.0) / self.step) * self.step

    def x(self, month: float) -> float:
        return LEFT + (RIGHT - LEFT) * (month - 1) / (self.months - 1)

    def y(self, usd: float) -> float:
        return BOTTOM - (BOTTOM - TOP) * usd / self.top

    def points(self, values: Sequence[float]) -> str:
        return " ".join(f"{num(self.x(i + 1))},{num(self.y(v))}" for i, v in enumerate(values))


def _axes(root: ET.Element, axes: Axes) -> None:
    el(root, "line", x1=LEFT, y1=BOTTOM, x2=RIGHT, y2=BOTTOM, class_="axis")
    el(root, "line", x1=LEFT, y1=TOP, x2=LEFT, y2=BOTTOM, class_="axis")
    ticks = round(axes.top / axes.step)
    for i in range(ticks + 1):
        usd = i * axes.step
        el(root, "line", x1=LEFT, y1=axes.y(usd), x2=RIGHT, y2=axes.y(usd), class_="grid")
        el(root, "text", f"${usd:,.0f}", x=LEFT - 6, y=axes.y(usd) + 4, class_="tick", text_anchor="end")
    every = 12 if axes.months > 24 else 6 if axes.months > 12 else 1
    for month in [1, *range(every, axes.months + 1, every)]:
        el(root, "text", str(month), x=axes.x(month), y=BOTTOM + 16, class_="tick", text_anchor="middle")
    el(root, "text", "month", x=(LEFT + RIGHT) / 2, y=BOTTOM + 34, class_="axis-label", text_anchor="middle")


def series(curve: CostCurve) -> list[tuple[str, str, tuple[float, ...]]]:
    """(key, label, cumulative totals) for every line drawn."""
    out = [("own-paid", "own (paid)", curve.own_paid), ("own-net", "own (net)", curve.own_net)]
    out += [(f"cloud-{i}", s.label, s.totals) for i, s in enumerate(curve.cloud)]
    return out


def _lines(root: ET.Element, curve: CostCurve, axes: Axes) -> None:
    for i, (key, label, values) in enumerate(series(curve)):
        el(root, "polyline", points=axes.points(values), class_=f"series {key}", data_series=key, fill="none")
        y = TOP + 8 + i * 20
        el(root, "line", x1=RIGHT + 20, y1=y, x2=RIGHT + 44, y2=y, class_=f"legend {key}")
        el(root, "text", label, x=RIGHT + 50, y=y + 4, class_="legend-label")


def break_even_text(curve: CostCurve) -> list[str]:
    out = []
    for s in curve.cloud:
        when = f"month {s.break_even}" if s.break_even else "not in the horizon"
        out.append(f"break-even vs {s.label}: {when}")
    return out


def _break_even(root: ET.Element, curve: CostCurve, axes: Axes) -> None:
    for i, s in enumerate(curve.cloud):
        if s.break_even is None or not 1 <= s.break_even <= len(curve.own_paid):
            continue
        x, y = axes.x(s.break_even), axes.y(curve.own_paid[s.break_even - 1])
        el(root, "line", x1=x, y1=y, x2=x, y2=BOTTOM, class_=f"break-even-line cloud-{i}")
        g = el(root, "g", class_="break-even-group")
        el(g, "title", f"break-even against {s.label}: month {s.break_even}")
        el(g, "circle", cx=x, cy=y, r="5", class_=f"break-even cloud-{i}", data_month=s.break_even, data_option=s.label)
    for i, text in enumerate(break_even_text(curve)):
        el(root, "text", text, x=RIGHT + 20, y=TOP + 130 + i * 18, class_="break-even-label")


def describe(curve: CostCurve) -> str:
    months = len(curve.own_paid)
    parts = [f"Cumulative cost over {months} months: {curve.title}."]
    for _, label, values in series(curve):
        if values:
            parts.append(f"{label}: ${values[-1]:,.0f} after {len(values)} months.")
    parts += [t + "." for t in break_even_text(curve)]
    return " ".join(parts)


def cost_curves(curve: CostCurve, ident: str = "cost") -> str:
    """The cost curves as an inline ``<svg>`` element."""
    values = [v for _, _, vs in series(curve) for v in vs]
    axes = Axes(max(len(vs) for _, _, vs in series(curve)), max(values, default=1.0))
    root = figure(ident, WIDTH, HEIGHT, f"Cost over time: {curve.title}", describe(curve), "cost")
    _axes(root, axes)
    _lines(root, curve, axes)
    _break_even(root, curve, axes)
    return to_string(root)
