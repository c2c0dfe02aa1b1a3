"""`suggest --format text`: each build with the specs that made its parts eligible, and why."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from partpicker.models import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd
from partpicker.suggest.answer import Solution
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
            n = choice.build.count(role)
            count = f"{n} x " if n > 1 else ""
            out.append(f"  {role:<12} ${p.usd:>9,.2f}  {count}{p.part.name}  [{eligibility(p.part)}]  ({p.date})")
        out.append(f"  {'total now':<12} ${choice.now_usd:>9,.2f}")
        out.append(f"  {'at ' + str(req.gpus) + ' GPUs':<12} ${choice.full_usd:>9,.2f}")
        out.append("")
    out.append("Why these parts")
    out += [f"  {line}" for line in solution.binding]
    if report is not None:
        out += _unproven_and_warned(report)
    if report is not None and report.from_user:
        out += ["", "Not from the bundled catalog", *(f"  {line}" for line in report.from_user)]
    return "\n".join(out)


def _unproven_and_warned(report: Report) -> list[str]:
    """The chosen build's rules that could not be checked, and its failing warnings."""
    out: list[str] = []
    unproven = [f for f in report.findings if f.status == "unknown"]
    warned = [f for f in report.findings if f.status == "fail"]
    if unproven:
        out += ["", "Not proven (--allow-unknown: these rules could not be checked)"]
        out += [f"  [??] {f.rule} ({f.severity}): {f.message}" for f in unproven]
    if warned:
        out += ["", "Warnings (reported, not enforced; --strict enforces them)"]
        out += [f"  [warn] {f.rule}: {f.message}" for f in warned]
    return out


render = text
