"""gpu-slots: the board seats target_gpus cards, spaced for their width, within the case."""

import math

from partpicker import layout
from partpicker.checks import Context, Outcome, check, failed, passed, unknown


def _where(lay: layout.Layout) -> str:
    return ", ".join(f"{s.label} (position {s.position}, x{lanes})" for s, lanes in zip(lay.gpu_slots, lay.gpu_lanes))


@check("gpu-slots")
def run(ctx: Context) -> Outcome:
    board, gpu = ctx.part("motherboard"), ctx.part("gpu")
    n = ctx.n_gpus
    width = ctx.need(gpu, "slot_width")
    span = math.ceil(width)
    min_lanes = int(ctx.params["min_lanes_per_gpu"])
    cpu_lanes = ctx.build.cpu.pcie_lanes if ctx.build.cpu else None
    drives = [d for d in ctx.build.ssds if layout.is_m2(d)]
    values = {"n": n, "width": width, "min_lanes": min_lanes}
    on_board = ctx.layout(with_case=False)
    if on_board is None:
        maybe = ctx.layout(with_case=False, known_only=False)
        if maybe is not None:
            unsure = sorted({s.label for _, s in maybe.drives if s.shares is None})
            return unknown(
                f"whether M.2 slot {', '.join(unsure)} of {board.name} takes lanes from a GPU slot "
                "(its lane sharing is not in the catalog)",
                where=_where(maybe), **values,
            )
        slots = ctx.need(board, "pcie_slots")
        wired = [s for s in slots if s.physical >= 16 and (layout.lanes_of(s, cpu_lanes, frozenset()) or 0) >= min_lanes]
        listed = ", ".join(f"{s.label}@{s.position}" for s in wired) or "none"
        fits = layout.most_cards(
            board, n, width=width, cpu_lanes=cpu_lanes, drives=drives, min_lanes=min_lanes, known_only=False
        )
        if len(wired) < n:
            why = f"the board has {len(wired)} x16-size slots wired x{min_lanes} or more ({listed})"
        else:
            why = (
                f"x16 slots at {listed}: a {width:g}-slot card covers {span} positions, "
                f"so only {fits} of {n} fit (with the build's M.2 drives placed)"
            )
        return failed(why=why, **values)
    if ctx.build.case is None or ctx.build.case.expansion_slots is None:
        return unknown(
            "the case's expansion slots" if ctx.build.case else "the build has no case",
            where=_where(on_board), **values,
        )
    case_slots = ctx.build.case.expansion_slots
    in_case = ctx.layout(with_case=True)
    if in_case is None:
        return failed(
            why=f"the last card would end at expansion slot {on_board.last_position}; "
            f"the case has {case_slots}",
            **values,
        )
    return passed(where=_where(in_case), last=in_case.last_position, case_slots=case_slots, **values)
