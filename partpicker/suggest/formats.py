"""Formats for a `suggest` answer: text and JSON, plus the build file it can write."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import yaml

from partpicker.models import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd
from partpicker.suggest.search import Choice, Solution
from partpicker.validate.report import Report


def _q(value: object) -> str:
    return "?" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def eligibility(part: Part) -> str:
    """The specs the rules read, in a few words ("?" where the catalog does not know)."""
    if isinstance(part, Cpu):
        return f"{part.socket}, {_q(part.cores)} cores, {_q(part.pcie_lanes)} lanes, {_q(part.tdp_w)} W"
    if isinstance(part, Motherboard):
        x16 = sum(1 for s in part.pcie_slots or [] if (s.physical or 0) >= 16)
        slots = "? x16-size slots" if part.pcie_slots is None else f"{x16} x16-size slots"
        m2 = "? M.2" if part.m2_slots is None else f"{len(part.m2_slots)} M.2"
        return f"{part.socket}, {part.form_factor}, {slots}, {m2}"
    if isinstance(part, Gpu):
        return f"{_q(part.vram_gb)} GB, {_q(part.slot_width)} slots, {_q(part.board_power_w)} W, {_q(part.cooler)}"
    if isinstance(part, Psu):
        return f"{part.watts} W, {_q(part.pcie_8pin)} PCIe cables, {_q(part.efficiency)}"
    if isinstance(part, Case):
        return f"{_q(part.expansion_slots)} slots, GPUs to {_q(part.max_gpu_length_mm)} mm"
    if isinstance(part, Ram):
        return f"{part.total_gb} GB {part.memory_type} ({part.modules}x{part.module_gb})"
    if isinstance(part, Ssd):
        return f"{part.interface.upper()} {part.form_factor}, {part.capacity_gb} GB"
    if isinstance(part, Cooler):
        return ", ".join(part.sockets + part.bracket_sockets)
    return ""


def choice_dict(choice: Choice, request_start: int) -> dict[str, Any]:
    return {
        role: {
            "id": p.part.id,
            "name": p.part.name,
            "usd": p.usd,
            "count": request_start if role == "gpu" else 1,
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
        "warnings": [f"{f.rule}: {f.message}" for f in report.findings if f.status == "fail"] if report else [],
        "unproven": [f"{f.rule}: {f.message}" for f in report.findings if f.status == "unknown"] if report else [],
        "search": {
            "offered": solution.stats.offered,
            "after_unary_rules": solution.stats.after_unary,
            "after_dominance": solution.stats.after_dominance,
            "nodes": solution.stats.nodes,
            "rule_checks": solution.stats.rule_checks,
        },
    }


def text(solution: Solution, report: Report | None = None) -> str:
    req = solution.request
    if not solution.choices:
        return f"No build: {solution.reason}."
    out: list[str] = []
    for rank, choice in enumerate(solution.choices, 1):
        head = "Cheapest valid build" if rank == 1 else f"Alternative {rank - 1}"
        out.append(
            f"{head}: ready for {req.gpus} GPUs, {req.start_gpus} bought now "
            f"(prices as of {solution.as_of}, objective: {req.objective})"
        )
        for role, p in choice.prices.items():
            count = f"{req.start_gpus} x " if role == "gpu" and req.start_gpus > 1 else ""
            out.append(f"  {role:<12} ${p.usd:>9,.2f}  {count}{p.part.name}  [{eligibility(p.part)}]  ({p.date})")
        out.append(f"  {'total now':<12} ${choice.now_usd:>9,.2f}")
        out.append(f"  {'at ' + str(req.gpus) + ' GPUs':<12} ${choice.full_usd:>9,.2f}")
        out.append("")
    out.append("Why these parts")
    out += [f"  {line}" for line in solution.binding]
    if report is not None:
        unproven = [f for f in report.findings if f.status == "unknown"]
        warned = [f for f in report.findings if f.status == "fail"]
        if unproven:
            out += ["", "Not proven (--allow-unknown: these rules could not be checked)"]
            out += [f"  [??] {f.rule} ({f.severity}): {f.message}" for f in unproven]
        if warned:
            out += ["", "Warnings (reported, not enforced; --strict enforces them)"]
            out += [f"  [warn] {f.rule}: {f.message}" for f in warned]
    return "\n".join(out)


def build_file(solution: Solution) -> str:
    """A build file for the best choice that `partpicker validate` reads."""
    req = solution.request
    choice = solution.choices[0]
    parts: dict[str, Any] = {}
    for role, p in choice.prices.items():
        parts[role] = {"part": p.part.id, "count": req.start_gpus} if role == "gpu" else p.part.id
    doc = {
        "name": "suggested",
        "profile": req.profile,
        "target_gpus": req.gpus,
        "as_of": solution.as_of,
        "parts": parts,
    }
    return "# Written by `partpicker suggest`; check it with `partpicker validate`.\n" + yaml.safe_dump(
        doc, sort_keys=False
    )


SUGGEST_FORMATS: dict[str, Callable[[Solution, Report | None], str]] = {
    "text": text,
    "json": lambda s, r: json.dumps(as_dict(s, r), indent=2),
}
