"""cpu-socket: the CPU fits the motherboard's socket."""

from partpicker.rules.checks import Context, Outcome, check, verdict


@check("cpu-socket")
def run(ctx: Context) -> Outcome:
    cpu, board = ctx.part("cpu"), ctx.part("motherboard")
    return verdict(cpu.socket == board.socket, cpu_socket=cpu.socket, board_socket=board.socket)
