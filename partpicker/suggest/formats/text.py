"""`suggest --format text`: each build with the specs that made its parts eligible, and why."""

from __future__ import annotations

from partpicker.models import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd
from partpicker.suggest.answer import Solution
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
