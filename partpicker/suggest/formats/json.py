"""`suggest --format json`: one object (see the README)."""

from __future__ import annotations

import json
from typing import Any

from partpicker.suggest.answer import Choice, Solution
from partpicker.validate.report import Report


def choice_dict(choice: Choice, request_start: int) -> dict[str, Any]:
    return {
        role: {
            "id": p.part.id,
            "name": p.part.name,
            "usd": p.usd,
            "count": choice.build.count(role),
            "price_date": p.date.isoformat(),
        }
        for role, p in choice.prices.items()
    }


def as_dict(solution: Solution, report: Report | None = None) -> dict[str, Any]:
    req = solution.request
    best = solution.choices[0] if solution.choices else None
    return {
        "status": solution.status,
        "budget_usd": req.budget,
        "as_of": solution.as_of.isoformat(),
        "objective": req.objective,
        "gpus": {"now": req.start_gpus, "target": req.gpus},
        "build": choice_dict(best, req.start_gpus) if best else None,
        "total_usd": best.now_usd if best else None,
        "full_scale_usd": best.full_usd if best else None,
        "cheapest_usd": solution.cheapest_usd,
        "alternatives": [
            {"build": choice_dict(c, req.start_gpus), "total_usd": c.now_usd, "full_scale_usd": c.full_usd}
            for c in solution.choices[1:]
        ],
        "explanation": solution.reason if not best else "; ".join(solution.binding),
        "warnings": _findings(report, "fail"),
        "unproven": _findings(report, "unknown"),
        "from_user": report.from_user if report else [],
        "search": {
            "offered": solution.stats.offered,
            "after_unary_rules": solution.stats.after_unary,
            "after_dominance": solution.stats.after_dominance,
            "nodes": solution.stats.nodes,
            "rule_checks": solution.stats.rule_checks,
        },
    }


def _findings(report: Report | None, status: str) -> list[str]:
    """The chosen build's findings of ``status``, as "rule: message"."""
    return [f"{f.rule}: {f.message}" for f in report.findings if f.status == status] if report else []


def render(solution: Solution, report: Report | None = None) -> str:
    return json.dumps(as_dict(solution, report), indent=2)
