"""m2-slot: every M.2 drive has a free M.2 slot of its interface and length."""

from partpicker.rules import layout
from partpicker.rules.checks import Context, Outcome, check, failed, passed


@check("m2-slot")
def run(ctx: Context) -> Outcome:
    drives = [d for d in ctx.build.ssds if layout.is_m2(d)]
    if not drives:
        return passed(placement="no M.2 drives in the build")
    board = ctx.part("motherboard")
    slots = ctx.need(board, "m2_slots")
    placement = next(layout.drive_placements(board, drives), None)
    if placement is None:
        kinds = ", ".join(f"{d.name} ({d.interface}, {d.form_factor})" for d in drives)
        offered = ", ".join(f"{s.label} ({'/'.join(s.interfaces)})" for s in slots) or "none"
        return failed(drives=kinds, slots=offered)
    return passed(placement=", ".join(f"{d.name} in {s.label}" for d, s in placement))
