"""`cost --format json`: the one JSON shape (docs/cost.md)."""

from __future__ import annotations

import json
import math
from typing import Any

from partpicker.cost.formats.text import headline
from partpicker.cost.model import ARTICLE_DRAW_KW, Assumptions, CostResult


def to_dict(result: CostResult) -> dict[str, Any]:
    """The one JSON shape (docs/cost.md)."""
    m = result.machine
    doc: dict[str, Any] = {
        "build": m.name,
        "as_of": m.as_of.isoformat() if m.as_of else None,
        "cheaper": "own" if result.own_is_cheaper else "cloud",
        "summary": headline(result),
        "machine": _machine(result),
        "assumptions": _assumptions(result),
        "per_month": {
            "electricity": round(result.electricity_month, 2),
            "depreciation": round(result.depreciation_month, 2),
            "storage": round(result.storage_month, 2),
            "cloud_gpu": {k: round(v, 2) for k, v in result.gpu_month.items()},
        },
        "months": [
            {
                "month": r.month,
                "own": round(r.own, 2),
                "cloud": {k: round(v, 2) for k, v in r.cloud.items()},
                "own_paid": round(r.own_paid, 2),
                "own_net": round(r.own_net, 2),
                "cloud_total": {k: round(v, 2) for k, v in r.cloud_total.items()},
            }
            for r in result.horizon
        ],
        "break_even": dict(result.break_even),
        "ratios": {f"{m_ // 12}y": {k: _finite(v) for k, v in r.items()} for m_, r in result.ratios.items()},
        "burst": None,
        "notes": list(result.notes),
    }
    if result.burst is not None:
        doc["burst"] = _burst(result)
    return doc


def _machine(result: CostResult) -> dict[str, Any]:
    m = result.machine
    est = m.estimate
    return {
        "purchase_usd": m.purchase_usd,
        "purchase_source": m.purchase_source,
        "lines": [
            {"role": p.role, "name": p.name, "count": p.count, "unit_usd": p.unit_usd, "source": p.source}
            for p in m.lines
        ],
        "gpus": m.gpus,
        "installed_gpus": m.installed_gpus,
        "draw_kw": round(m.draw_kw, 4),
        "draw_source": m.draw_source,
        "estimated_draw": None
        if est is None
        else {
            "kw": round(est.kw, 4),
            "dc_w": round(est.dc_w, 1),
            "cpu_tdp_w": est.cpu_tdp_w,
            "gpu_power_w": est.gpu_power_w,
            "rest_w": est.rest_w,
            "utilisation": est.utilisation,
            "efficiency": est.efficiency,
        },
        "article_draw_kw": {str(n): kw for n, kw in ARTICLE_DRAW_KW.items()},
        "storage_gb": m.storage_gb,
    }


def _assumptions(result: CostResult) -> dict[str, Any]:
    a = result.assumptions
    return {
        "hours_per_day": a.hours_per_day,
        "months": a.months,
        "kwh_usd": a.kwh_usd,
        "depreciation_months": a.depreciation_months,
        "cloud_rate": a.cloud_rate,
        "cloud_rate_used": _cloud_rate(a),
        "reserved_1yr": a.reserved_1yr,
        "reserved_3yr": a.reserved_3yr,
        "storage_rate": a.storage_rate,
    }


def _cloud_rate(a: Assumptions) -> dict[str, Any]:
    """Where the on-demand rate comes from: its class, provider, instance, date and source."""
    c = a.cloud
    if c is None:
        return {"usd_per_gpu_hour": a.cloud_rate, "kind": "article", "source": "the article's 2018 AWS figure"}
    return {
        "usd_per_gpu_hour": c.usd_per_gpu_hour,
        "gpu_class": c.gpu_class,
        "provider": c.provider,
        "instance": c.instance,
        "gpus_per_instance": c.gpus_per_instance,
        "date": c.date_text,
        "kind": c.kind,
        "source": c.source,
        "why": c.why,
    }


def _burst(result: CostResult) -> dict[str, Any]:
    b = result.burst
    assert b is not None
    return {
        "text": b.burst.text,
        "factor": b.burst.factor,
        "days": round(b.burst.days, 4),
        "every_months": b.burst.every_months,
        "bursts": b.bursts,
        "machines": b.machines,
        "rented_gpus": b.rented_gpus,
        "strategies": {s.key: round(s.usd, 2) for s in b.strategies},
        "cheapest": b.cheapest,
        "verdict": b.verdict,
    }


def _finite(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 3)


def render(result: CostResult) -> str:
    return json.dumps(to_dict(result), indent=2, allow_nan=False)
