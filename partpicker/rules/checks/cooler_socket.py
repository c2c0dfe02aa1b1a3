"""cooler-socket: the CPU cooler mounts on the CPU's socket (and fits the case, where known)."""

from partpicker.rules.checks import Context, Outcome, check, failed, passed


@check("cooler-socket")
def run(ctx: Context) -> Outcome:
    cooler, cpu = ctx.part("cooler"), ctx.part("cpu")
    sockets = ", ".join(cooler.sockets)
    if cpu.socket not in cooler.sockets and cpu.socket not in cooler.bracket_sockets:
        return failed(socket=cpu.socket, sockets=sockets, problem=f"it does not list {cpu.socket}")
    if cpu.socket not in cooler.sockets:
        sockets += f"; {cpu.socket} with a separate bracket (see the cooler's notes)"
    case = ctx.build.case
    if (
        case is not None
        and cooler.height_mm is not None
        and case.max_cooler_height_mm is not None
        and cooler.height_mm > case.max_cooler_height_mm
    ):
        return failed(
            socket=cpu.socket,
            sockets=sockets,
            problem=f"it is {cooler.height_mm} mm tall and the case takes {case.max_cooler_height_mm} mm",
        )
    return passed(socket=cpu.socket, sockets=sockets)
