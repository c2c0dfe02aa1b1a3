"""`suggest --format json`: one object (see the README)."""

from __future__ import annotations

import json
from typing import Any

from partpicker.pricing import line_usd
from partpicker.suggest.answer import Check, Choice, Solution, with_report
from partpicker.validate.report import Report


def choice_dict(choice: Choice, solution: Solution) -> dict[str, Any]:
    """A build's parts by role: unit price, count, line price, the price's date, kind and age."""
    return {
        role: {
            "id": p.part.id,
            "name": p.part.name,
            "usd": p.usd,
            "count": choice.build.count(role),
            "line_usd": line_usd(p.usd, choice.build.count(role)),
            "price_date": p.date.isoformat(),
            "price_kind": p.kind,
            "price_age_days": (solution.as_of - p.date).days,
        }
        for role, p in choice.prices.items()
    }


def _checks(checks: tuple[Check, ...]) -> list[str]:
    return [f"{c.rule}: {c.message}" for c in checks]


def build_dict(choice: Choice, solution: Solution) -> dict[str, Any]:
    """One suggested build with its totals and what to verify."""
    return {
        "build": choice_dict(choice, solution),
        "total_usd": choice.now_usd,
        "full_scale_usd": choice.full_usd,
        "proven": choice.proven,
        "verify": _checks(choice.unknowns),
        "warnings": _checks(choice.warnings),
        "verify_evidence": list(choice.weak),
    }


def _beside(solution: Solution) -> dict[str, Any]:
    """The builds shown beside the answer: cheaper if unknowns hold, proven over the budget,
    the builder's pick (None where there is none)."""
    beside = {"possible": solution.possible, "proven_over_budget": solution.proven_over_budget}
    beside["builder"] = solution.builder
    return {key: build_dict(c, solution) if c else None for key, c in beside.items()}


def as_dict(solution: Solution, report: Report | None = None) -> dict[str, Any]:
    req = solution.request
    best = solution.choices[0] if solution.choices else None
    near = solution.near_miss
    return {
        "status": solution.status,
        "exit_code": int(solution.exit_code),
        "budget_usd": req.budget,
        "as_of": solution.as_of.isoformat(),
        "objective": req.objective,
        "verified_only": req.verified_only,
        "gpus": {"now": req.start_gpus, "target": req.gpus},
        "build": choice_dict(best, solution) if best else None,
        "total_usd": best.now_usd if best else None,
        "full_scale_usd": best.full_usd if best else None,
        "cheapest_usd": solution.cheapest_usd,
        "alternatives": [build_dict(c, solution) for c in solution.choices[1:]],
        "explanation": solution.reason if not best else "; ".join(solution.binding),
        "retry_as_of": solution.retry_as_of.isoformat() if solution.retry_as_of else None,
        "warnings": _checks(best.warnings) if best else [],
        "unproven": _checks(best.unknowns) if best else [],
        "verify_evidence": list(best.weak) if best else [],
        **_beside(solution),
        "near_miss": {**build_dict(near.choice, solution), "rule": near.rule, "message": near.message}
        if near
        else None,
        "from_user": report.from_user if report else [],
        "search": {
            "offered": solution.stats.offered,
            "after_unary_rules": solution.stats.after_unary,
            "after_dominance": solution.stats.after_dominance,
            "nodes": solution.stats.nodes,
            "rule_checks": solution.stats.rule_checks,
        },
    }


def render(solution: Solution, report: Report | None = None) -> str:
    return json.dumps(as_dict(with_report(solution, report), report), indent=2, allow_nan=False)
