"""Formats of `suggest --workload`: text and JSON, registered by name."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import yaml

from partpicker.models import Psu
from partpicker.rules.power import efficiency
from partpicker.suggest.formats import SUGGEST_FORMATS
from partpicker.suggest.formats.build_file import build_file
from partpicker.validate.report import Report
from partpicker.workload import FitResult
from partpicker.workplan.answer import Option, WorkAnswer, over_budget_proven
from partpicker.workplan.power import PowerPlan, is_atx3, psu_loads, steady_w, transient_w


def _fit_line(r: FitResult) -> str:
    return f"{r.n_gpus} x {r.gpu} ({r.vram_gb:g} GiB), {r.plan.strategy if r.plan else '-'}"


def _option_line(rank: int, o: Option) -> str:
    r = o.fit
    price = f"${o.total_usd:>10,.2f}" if o.total_usd is not None else "   no build"
    peak = f"{r.peak_gib:.1f} of {r.usable_gib:.1f} GiB per card" if r.peak_gib is not None else ""
    proven = "" if o.proven else "  (not proven: unknown facts)"
    return f"  {rank}. {price}  {_fit_line(r)}: {peak}{proven}"


def power_lines(plan: PowerPlan | None) -> list[str]:
    """A power plan as text lines, after a blank one (none without a plan)."""
    if plan is None:
        return []
    head = f"Power plan at {plan.n_gpus} GPU{'' if plan.n_gpus == 1 else 's'}"
    return ["", head] + [f"  {line}" for line in plan.lines]


def _second_psu_lines(o: Option) -> list[str]:
    if o.second_psu is None or o.second_psu_usd is None or o.total_usd is None:
        return []
    p = o.second_psu
    limit = o.build.power_limit_w if o.build else None
    return [
        f"  plus, for the second circuit: psu-2  ${o.second_psu_usd:,.2f}  {p.name} [{p.watts} W]",
        f"  total with both PSUs  ${o.total_usd:,.2f}"
        + (f"; each GPU power-limited to {limit} W (power_limit_w in --output)" if limit else ""),
    ]


def _proven_mark(o: Option) -> str:
    return "" if over_budget_proven(o) else " (not proven)"


def _unbuilt_lines(answer: WorkAnswer) -> list[str]:
    """Options that hold the workload without a build to show: over the budget (with the price
    of their cheapest build), or with no build at all."""
    over = sorted(
        (o for o in answer.unbuilt if o.solution.cheapest_usd is not None), key=lambda o: o.solution.cheapest_usd or 0
    )
    none = [o for o in answer.unbuilt if o.solution.cheapest_usd is None]
    out = []
    if over:
        names = ", ".join(
            f"{_fit_line(o.fit)} at ${o.solution.cheapest_usd or 0:,.2f}{_proven_mark(o)}" for o in over[:4]
        )
        out.append(f"  hold it, over the budget: {names}")
    if none:
        out.append(f"  hold it but no build found: {', '.join(_fit_line(o.fit) for o in none[:4])}")
    return out


def text(answer: WorkAnswer, report: Report | None = None) -> str:
    req = answer.request
    head = f"Workload: {req.workload.describe()} ({req.model.name}; {req.headroom:.0%} of each card left free)"
    if answer.status != "ok":
        return f"{head}\nNo build: {answer.reason}."
    order = (
        "by the price of their cheapest build not known to fail (--allow-unknown)"
        if req.base.allow_unknown
        else "proven builds first, by the price of their cheapest build"
    )
    out = [head, f"GPU options that hold it, {order}:"]
    out += [_option_line(i, o) for i, o in enumerate(answer.options, 1)]
    if answer.miss is not None:
        m = answer.miss
        price = f"${m.total_usd:,.2f}" if m.total_usd is not None else "no build"
        out.append(f"  next cheaper, does not fit: {_fit_line(m.fit)} at {price}: {m.fit.reason.split(': ', 1)[-1]}")
    out += _unbuilt_lines(answer)
    if answer.unsearched:
        out.append(
            f"  {len(answer.unsearched)} more hold it but were not searched: their cheapest parts already "
            f"cost as much as option {req.top}"
        )
    best = answer.options[0]
    if req.room_gpus is not None and best.fit.n_gpus > req.room_gpus:
        out.append(
            f"  note: --gpus {req.room_gpus} is fewer than the {best.fit.n_gpus} cards that hold it, "
            f"so the build is ready for {best.fit.n_gpus}"
        )
    out += ["", SUGGEST_FORMATS["text"](best.solution, report)]
    out += _second_psu_lines(best)
    out += power_lines(best.power)
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


def _split_doc(plan: PowerPlan) -> dict[str, Any] | None:
    s = plan.split
    if s is None:
        return None
    second = plan.psus[1] if len(plan.psus) >= 2 else None
    return {
        "first_gpus": s.first_gpus,
        "second_gpus": s.second_gpus,
        "power_limit_w": s.limit_w,
        "first_wall_w": round(s.first_wall_w),
        "second_psu_need_w": s.second_need_w,
        "second_wall_w": None if second is None else round(s.second_wall_w(efficiency(second.efficiency))),
    }


def _psu_doc(psu: Psu, steady: int | None) -> dict[str, Any]:
    transient = transient_w(psu)
    return {
        "id": psu.id,
        "name": psu.name,
        "watts": psu.watts,
        "efficiency": psu.efficiency,
        "atx3": is_atx3(psu),
        "transient_w": transient,
        "steady_w": steady,
        "transient_headroom_w": None if transient is None or steady is None else transient - steady,
    }


def power_doc(plan: PowerPlan | None) -> dict[str, Any] | None:
    """The power plan as data: the numbers its sentences (``plan``) state."""
    if plan is None:
        return None
    c = plan.circuit
    return {
        "circuit": {
            "name": c.name,
            "volts": c.volts,
            "amps": c.amps,
            "continuous_w": round(c.continuous_w),
            "rule": c.rule,
        },
        "n_gpus": plan.n_gpus,
        "gpu_board_w": plan.gpu_w,
        "gpu_w": plan.card_w,
        "cpu_w": plan.cpu_w,
        "rest_w": plan.rest_w,
        "steady_w": steady_w(plan),
        "wall_w": None if plan.wall_w is None else round(plan.wall_w),
        "fits": plan.fits,
        "power_limit_w": plan.split.limit_w if plan.split else plan.limit_w,
        "circuits": plan.circuits,
        "split": _split_doc(plan),
        "psus": [_psu_doc(p, load) for p, load in zip(plan.psus, psu_loads(plan), strict=False)],
        "plan": list(plan.lines),
    }


def _counted_parts(o: Option) -> dict[str, Any]:
    """The option's build by role, as plain `suggest -f json` gives it: each part's id and count
    (a second PSU the plan adds is listed after the first)."""
    build = o.build
    assert build is not None
    out: dict[str, Any] = {}
    for role, lines in build.parts.items():
        entries = [{"id": line.part.id, "count": line.count} for line in lines]
        out[role] = entries[0] if len(entries) == 1 else entries
    return out


def _option_doc(o: Option) -> dict[str, Any]:
    choice = o.solution.choices[0] if o.solution.choices else None
    return {
        **_fit_doc(o.fit),
        "total_usd": o.total_usd,
        "proven": o.proven,
        "build": _counted_parts(o) if choice else None,
        "power": power_doc(o.power),
        "second_psu": None if o.second_psu is None else {"id": o.second_psu.id, "usd": o.second_psu_usd},
    }


def as_json(answer: WorkAnswer, report: Report | None = None) -> str:
    status: str = answer.status
    if status == "ok":  # as plain suggest's JSON says it: the cheapest option proven, or not
        status = "proven" if answer.options[0].proven else "unproven"
    doc = {
        "status": status,
        "workload": answer.request.workload.describe(),
        "model": answer.request.model.id,
        "headroom": answer.request.headroom,
        "budget_usd": answer.request.base.budget,
        "options": [_option_doc(o) for o in answer.options],
        "next_cheaper_miss": None
        if answer.miss is None
        else {**_fit_doc(answer.miss.fit), "total_usd": answer.miss.total_usd},
        "unbuilt": [
            {**_fit_doc(o.fit), "why": o.solution.reason, "cheapest_usd": o.solution.cheapest_usd}
            for o in answer.unbuilt
        ],
        "closest": None if answer.closest is None else _fit_doc(answer.closest),
        "unsearched": [_fit_doc(r) for r in answer.unsearched],
        "reason": answer.reason,
        "verdict": None if report is None else report.verdict,
    }
    return json.dumps(doc, indent=2)


def html(answer: WorkAnswer, report: Report | None = None) -> str:
    """The page of the cheapest option's build (suggest's page); without one, an error page
    is not made: :func:`text` says why (the CLI prints it)."""
    if not answer.options:
        return text(answer, report)
    return SUGGEST_FORMATS["html"](answer.options[0].solution, report)


WORK_FORMATS: dict[str, Callable[[WorkAnswer, Report | None], str]] = {"text": text, "json": as_json, "html": html}


def work_build_file(option: Option) -> str:
    """The build file of an option: suggest's, with both PSUs listed when the plan adds one,
    and the per-GPU power limit the plan's two circuits need."""
    written = build_file(option.solution)
    extra, build = option.second_psu, option.build
    limit = build.power_limit_w if build is not None else None
    if extra is None and limit == option.solution.request.power_limit_w:
        return written
    head, _, body = written.partition("\n")
    doc = yaml.safe_load(body)
    if extra is not None:
        doc["parts"]["psu"] = [doc["parts"]["psu"], extra.id]
    if limit is not None:
        parts = doc.pop("parts")
        doc = {**{k: v for k, v in doc.items() if k != "power_limit_w"}, "power_limit_w": limit, "parts": parts}
    return f"{head}\n# Two PSUs, each on its own circuit: see the power plan.\n" + yaml.safe_dump(doc, sort_keys=False)
