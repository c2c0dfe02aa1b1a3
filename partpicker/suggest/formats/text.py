"""`suggest --format text`: each build with the specs that made its parts eligible, and why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from partpicker.models import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd
from partpicker.pricing import OLD_DAYS, age_text, line_usd
from partpicker.suggest.answer import BUILDER_WARNINGS, Choice, Solution, with_report
from partpicker.validate.report import Report


def _q(value: object) -> str:
    return "?" if value is None else f"{value:g}" if isinstance(value, float) else str(value)


def _board(part: Motherboard) -> str:
    x16 = sum(1 for s in part.pcie_slots or [] if (s.physical or 0) >= 16)
    slots = "? x16-size slots" if part.pcie_slots is None else f"{x16} x16-size slots"
    m2 = "? M.2" if part.m2_slots is None else f"{len(part.m2_slots)} M.2"
    return f"{part.socket}, {part.form_factor}, {slots}, {m2}"


# The specs the rules read of each category, in a few words ("?" where the catalog does not know).
ELIGIBILITY: dict[type[Part], Callable[[Any], str]] = {
    Cpu: lambda p: f"{p.socket}, {_q(p.cores)} cores, {_q(p.pcie_lanes)} lanes, {_q(p.tdp_w)} W",
    Motherboard: _board,
    Gpu: lambda p: f"{_q(p.vram_gb)} GB, {_q(p.slot_width)} slots, {_q(p.board_power_w)} W, {_q(p.cooler)}",
    Psu: lambda p: f"{p.watts} W, {_q(p.pcie_8pin)} PCIe cables, {_q(p.efficiency)}",
    Case: lambda p: f"{_q(p.expansion_slots)} slots, GPUs to {_q(p.max_gpu_length_mm)} mm",
    Ram: lambda p: f"{p.total_gb} GB {p.memory_type} ({p.modules}x{p.module_gb})",
    Ssd: lambda p: f"{p.interface.upper()} {p.form_factor}, {p.capacity_gb} GB",
    Cooler: lambda p: ", ".join(p.sockets + p.bracket_sockets),
}


def eligibility(part: Part) -> str:
    """The specs the rules read, in a few words ("?" where the catalog does not know)."""
    for cls, describe in ELIGIBILITY.items():
        if isinstance(part, cls):
            return describe(part)
    return ""


HEADS = {
    "proven": "Cheapest build proven to pass every error rule",
    "unproven": "UNPROVEN: no build is proven to pass; the cheapest no rule is known to fail",
}
ALLOWED_UNKNOWN = "UNPROVEN (--allow-unknown): the cheapest build no rule is known to fail, resting on unknown facts"


def _head(solution: Solution) -> str:
    """The first build's heading; with --allow-unknown an unproven answer may have a proven
    build beside it, so it does not say there is none."""
    if solution.status == "unproven" and solution.request.allow_unknown:
        return ALLOWED_UNKNOWN
    budget = solution.request.budget
    if solution.status == "unproven" and budget is not None and solution.proven_over_budget is not None:
        # (a proven build over the budget is shown below: "no build is proven" would contradict it)
        within = f"no build within the ${budget:,.2f} budget is proven to pass"
        return f"UNPROVEN: {within}; the cheapest no rule is known to fail"
    return HEADS[solution.status]


def text(solution: Solution, report: Report | None = None) -> str:
    """The answer: the builds, what to verify, the builder's pick, why these parts (``report``:
    the first build's findings under other settings, see :func:`with_report`)."""
    solution = with_report(solution, report)
    if not solution.choices:
        return _no_build(solution)
    req = solution.request
    out: list[str] = []
    for rank, choice in enumerate(solution.choices, 1):
        head = _head(solution) if rank == 1 else f"Alternative {rank - 1} (another CPU, board or GPU)"
        out.append(
            f"{head}: ready for {req.gpus} GPU{'' if req.gpus == 1 else 's'}, {req.start_gpus} bought now "
            f"(prices as of {solution.as_of}, objective: {req.objective}"
            f"{'; recalled facts treated as unknown (--verified-only)' if req.verified_only else ''})"
        )
        out += _lines(solution, choice)
        out += _verify(choice)
        out.append("")
    out += _price_age(solution)
    out += _proven_over_budget(solution)
    out += _possible(solution)
    out += _builder(solution)
    out.append("Why these parts")
    out += [f"  {line}" for line in solution.binding]
    out += _warned(solution.choices[0])
    if report is not None and report.from_user:
        out += ["", "Not from the bundled catalog", *(f"  {line}" for line in report.from_user)]
    return "\n".join(out)


def _lines(solution: Solution, choice: Choice) -> list[str]:
    """The parts with count x unit price, specs, and the dated price with its age; the totals."""
    req = solution.request
    out = []
    for role, p in choice.prices.items():
        n = choice.build.count(role)
        count = f"{n} x " if n > 1 else ""
        each = f" @ ${p.usd:,.2f} = ${line_usd(p.usd, n):,.2f}" if n > 1 else ""
        age = age_text((solution.as_of - p.date).days)
        when = f"{p.date}, {p.kind}" + (f", {age} old" if age != "today" else "")
        out.append(
            f"  {role:<12} ${line_usd(p.usd, n):>9,.2f}  {count}{p.part.name}{each}  [{eligibility(p.part)}]  ({when})"
        )
    out.append(f"  {'total now':<12} ${choice.now_usd:>9,.2f}")
    out.append(f"  {'at ' + str(req.gpus) + (' GPU' if req.gpus == 1 else ' GPUs'):<12} ${choice.full_usd:>9,.2f}")
    return out


def _verify(choice: Choice) -> list[str]:
    """The rules the catalog could not check, and the derived or recalled facts passes rest on."""
    out = []
    if choice.unknowns:
        head = (
            "  Not proven: the catalog does not know these facts (verify them before you buy):"
            if not choice.proven
            else "  Warnings not checked: the catalog does not know these facts (verify them before you buy):"
        )
        out += [head]
        out += [f"    [??] {c.rule} ({c.severity}): {c.message}" for c in choice.unknowns]
    if choice.weak:
        out += ["  Verify before you buy (passes resting on derived or recalled facts):"]
        out += [f"    {line}" for line in choice.weak]
    return out


def _price_age(solution: Solution) -> list[str]:
    """A warning when a price used is old."""
    ages = [(solution.as_of - p.date).days for c in solution.choices for p in c.prices.values()]
    if not ages or max(ages) <= OLD_DAYS:
        return []
    return [
        f"warning: prices used are up to {age_text(max(ages))} old on {solution.as_of} (the newest the catalog has);"
        " check today's prices before you buy, or offer only recent ones with --stale-days N",
        "",
    ]


def _proven_over_budget(solution: Solution) -> list[str]:
    c, budget = solution.proven_over_budget, solution.request.budget
    if c is None or budget is None:
        return []
    over = c.now_usd - budget
    out = [f"Proven to pass, over the budget: ${c.now_usd:,.2f} now; raise the budget by ${over:,.2f} for it"]
    out += _lines(solution, c)
    return [*out, ""]


def _possible(solution: Solution) -> list[str]:
    c = solution.possible
    if c is None:
        return []
    saving = solution.choices[0].now_usd - c.now_usd
    out = [f"Cheaper if unknown facts hold (NOT proven): ${c.now_usd:,.2f} now, ${saving:,.2f} less"]
    out += _lines(solution, c)
    out += _verify(c)
    return [*out, ""]


def _builder(solution: Solution) -> list[str]:
    c = solution.builder
    if c is None:
        return []
    best = solution.choices[0]
    failed = ", ".join(w.rule for w in best.warnings if w.rule in BUILDER_WARNINGS)
    more = c.now_usd - best.now_usd
    budget = solution.request.budget
    over = f", over the budget by ${c.now_usd - budget:,.2f}" if budget is not None and c.now_usd > budget else ""
    out = [
        f"Builder's pick: the cheapest that also clears {', '.join(BUILDER_WARNINGS)} "
        f"(the build above fails {failed}): ${c.now_usd:,.2f} now, ${more:,.2f} more{over}"
    ]
    out += _lines(solution, c)
    out += _verify(c)
    return [*out, ""]


def _warned(choice: Choice) -> list[str]:
    if not choice.warnings:
        return []
    out = ["", "Warnings (reported, not enforced; --strict enforces them)"]
    return out + [f"  [warn] {w.rule}: {w.message}" for w in choice.warnings]


def _no_build(solution: Solution) -> str:
    out = [f"No build: {solution.reason}."]
    near = solution.near_miss
    if near is not None:
        out += ["", f"The cheapest near miss (stopped by {near.rule}: {near.message})"]
        out += _lines(solution, near.choice)
    return "\n".join(out)


render = text
