"""m2-nvme: the board has an M.2 NVMe slot and the boot drive is an M.2 NVMe drive."""

from partpicker.rules import layout
from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, passed


@check("m2-nvme")
def run(ctx: Context) -> Outcome:
    board = ctx.part("motherboard")
    slots = ctx.need(board, "m2_slots")
    nvme_slots = [s.label for s in slots if "nvme" in s.interfaces]
    if not ctx.build.ssds:
        raise Unknown("the build has no SSD")
    boot = ctx.build.ssds[0]
    problems = []
    if not nvme_slots:
        problems.append(f"{board.name} has no M.2 NVMe slot")
    if boot.interface != "nvme" or not layout.is_m2(boot):
        problems.append(
            f"the boot drive {boot.name} is {boot.interface.upper()} {boot.form_factor} "
            f"({boot.read_mbps or '?'} MB/s), not M.2 NVMe"
        )
    if problems:
        return failed(problems="; ".join(problems))
    return passed(boot=boot.name, slots=", ".join(nvme_slots), read=boot.read_mbps or "?")
