"""Formats of `suggest --workload`: text and JSON, registered by name."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from partpicker.suggest.formats import SUGGEST_FORMATS
from partpicker.validate.report import Report
from partpicker.workload import FitResult
from partpicker.workplan.answer import Option, WorkAnswer
from partpicker.workplan.power import PowerPlan


def _fit_line(r: FitResult) -> str:
    return f"{r.n_gpus} x {r.gpu} ({r.vram_gb:g} GiB), {r.plan.strategy if r.plan else '-'}"


def _option_line(rank: int, o: Option) -> str:
    r = o.fit
    price = f"${o.total_usd:>10,.2f}" if o.total_usd is not None else "   no build"
    peak = f"{r.peak_gib:.1f} of {r.usable_gib:.1f} GiB per card" if r.peak_gib is not None else ""
    return f"  {rank}. {price}  {_fit_line(r)}: {peak}"


def _power_lines(plan: PowerPlan | None) -> list[str]:
    if plan is None:
        return []
    return ["", f"Power plan at {plan.n_gpus} GPUs"] + [f"  {line}" for line in plan.lines]


def text(answer: WorkAnswer, report: Report | None = None) -> str:
    req = answer.request
    head = f"Workload: {req.workload.describe()} ({req.model.name}; {req.headroom:.0%} of each card left free)"
    if answer.status != "ok":
        return f"{head}\nNo build: {answer.reason}."
    out = [head, "GPU options that hold it, by the price of their cheapest build:"]
    out += [_option_line(i, o) for i, o in enumerate(answer.options, 1)]
    if answer.miss is not None:
        m = answer.miss
        price = f"${m.total_usd:,.2f}" if m.total_usd is not None else "no build"
        out.append(f"  next cheaper, does not fit: {_fit_line(m.fit)} at {price}: {m.fit.reason.split(': ', 1)[-1]}")
    if answer.unbuilt:
        names = ", ".join(_fit_line(o.fit) for o in answer.unbuilt[:4])
        out.append(f"  hold it but no build found: {names}")
    best = answer.options[0]
    out += ["", SUGGEST_FORMATS["text"](best.solution, report)]
    out += _power_lines(best.power)
    return "\n".join(out)


def _fit_doc(r: FitResult) -> dict[str, Any]:
    return {
        "gpu": r.gpu,
        "vram_gb": r.vram_gb,
        "n_gpus": r.n_gpus,
        "strategy": r.plan.strategy if r.plan else None,
        "peak_gib": None if r.peak_gib is None else round(r.peak_gib, 2),
        "usable_gib": round(r.usable_gib, 2),
        "fits": r.fits,
        "reason": r.reason,
        "per_card_gib": r.per_card_gib(),
    }


def _power_doc(plan: PowerPlan | None) -> dict[str, Any] | None:
    if plan is None:
        return None
    return {
        "circuit": plan.circuit.name,
        "continuous_w": round(plan.circuit.continuous_w),
        "wall_w": None if plan.wall_w is None else round(plan.wall_w),
        "fits": plan.fits,
        "power_limit_w": plan.limit_w,
        "circuits": plan.circuits,
        "plan": list(plan.lines),
    }


def _option_doc(o: Option) -> dict[str, Any]:
    choice = o.solution.choices[0] if o.solution.choices else None
    return {
        **_fit_doc(o.fit),
        "total_usd": o.total_usd,
        "build": {role: p.part.id for role, p in choice.prices.items()} if choice else None,
        "power": _power_doc(o.power),
    }


def as_json(answer: WorkAnswer, report: Report | None = None) -> str:
    doc = {
        "status": answer.status,
        "workload": answer.request.workload.describe(),
        "model": answer.request.model.id,
        "headroom": answer.request.headroom,
        "budget_usd": answer.request.base.budget,
        "options": [_option_doc(o) for o in answer.options],
        "next_cheaper_miss": None
        if answer.miss is None
        else {**_fit_doc(answer.miss.fit), "total_usd": answer.miss.total_usd},
        "unbuilt": [{**_fit_doc(o.fit), "why": o.solution.reason} for o in answer.unbuilt],
        "closest": None if answer.closest is None else _fit_doc(answer.closest),
        "reason": answer.reason,
        "verdict": None if report is None else report.verdict,
    }
    return json.dumps(doc, indent=2)


WORK_FORMATS: dict[str, Callable[[WorkAnswer, Report | None], str]] = {"text": text, "json": as_json}
