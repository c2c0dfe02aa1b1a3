"""The HTML report: inline SVG pictures (slot map, power budget, cost curves) and one
self-contained page, drawn from the plain views in :mod:`partpicker.html.views`."""

from partpicker.html.render import render_page
from partpicker.html.views import (
    BoardView,
    CardView,
    CostCurve,
    CostSeries,
    FindingRow,
    M2View,
    PageView,
    PartRow,
    PowerView,
    Section,
    SlotView,
)

__all__ = [
    "BoardView",
    "CardView",
    "CostCurve",
    "CostSeries",
    "FindingRow",
    "M2View",
    "PageView",
    "PartRow",
    "PowerView",
    "Section",
    "SlotView",
    "render_page",
]
