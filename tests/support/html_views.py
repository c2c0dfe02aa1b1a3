"""Views for the HTML tests, read from the YAML files in tests/data/html/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

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
    SlotView,
)

HTML_DATA = Path(__file__).resolve().parent.parent / "data" / "html"


def _yaml(name: str) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((HTML_DATA / name).read_text(encoding="utf-8"))
    return data


def board_view(name: str) -> BoardView:
    raw = _yaml(name)
    return BoardView(
        board=raw["board"],
        slots=tuple(SlotView(**s) for s in raw["slots"]),
        cards=tuple(CardView(**c) for c in raw.get("cards", [])),
        m2=tuple(M2View(**{**m, "steals_from": tuple(m.get("steals_from", ()))}) for m in raw.get("m2", [])),
        board_positions=raw["board_positions"],
        case_last_slot=raw["case_last_slot"],
    )


def cost_curve(raw: dict[str, Any]) -> CostCurve:
    """Straight-line totals; each break-even found by scanning the months."""
    months = range(1, raw["months"] + 1)
    paid = tuple(raw["own_paid_start"] + raw["own_paid_month"] * m for m in months)
    net = tuple(raw["own_net_month"] * m for m in months)
    cloud = []
    for c in raw["cloud"]:
        totals = tuple(float(c["per_month"] * m) for m in months)
        even = next((m for m, p, t in zip(months, paid, totals, strict=True) if p <= t), None)
        cloud.append(CostSeries(c["label"], totals, even))
    return CostCurve(raw["title"], paid, net, tuple(cloud))


def page_view(name: str = "page.yaml") -> PageView:
    raw = _yaml(name)
    return PageView(
        build=raw["build"],
        verdict=raw["verdict"],
        banner=raw["banner"],
        summary=raw["summary"],
        parts=tuple(PartRow(**p) for p in raw["parts"]),
        total_usd=raw["total_usd"],
        findings=tuple(FindingRow(**f) for f in raw["findings"]),
        verify=tuple(raw["verify"]),
        skipped=tuple(raw["skipped"]),
        never_checked=raw["never_checked"],
        board=board_view(raw["board_file"]),
        power=PowerView(**raw["power"]),
        cost=cost_curve(raw["cost"]),
    )
