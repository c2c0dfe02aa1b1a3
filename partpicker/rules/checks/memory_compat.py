"""memory-compat: the RAM kit's type, module count and capacity suit the board and the CPU."""

from partpicker.parts import Cpu, Motherboard, Ram
from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, passed


@check("memory-compat")
def run(ctx: Context) -> Outcome:
    ram, board = ctx.part("ram"), ctx.part("motherboard")
    cpu = ctx.build.cpu
    modules = ram.modules * ctx.build.ram_count
    total = ram.total_gb * ctx.build.ram_count
    problems: list[str] = []
    missing: list[str] = []
    if board.memory_type is None:
        missing.append(f"memory type of {board.name}")
    elif ram.memory_type != board.memory_type:
        problems.append(f"{ram.memory_type} kit on a {board.memory_type} board")
    if cpu is not None and cpu.memory_types and ram.memory_type not in cpu.memory_types:
        problems.append(f"{ram.memory_type} kit with a CPU for {'/'.join(cpu.memory_types)}")
    _capacity(board, modules, total, problems, missing)
    problems += _cpu_and_buffering(ram, board, cpu, total)
    missing += _buffering_unknown(ram, board, cpu)
    against = "the board and CPU" if cpu is not None else "the board (the build has no CPU to check it against)"
    values = {"modules": modules, "total_gb": total, "type": ram.memory_type, "against": against}
    if problems:
        return failed(problems="; ".join(problems), **values)
    if missing:
        raise Unknown(", ".join(missing) + " not in the catalog")
    return passed(**values)


def _cpu_and_buffering(ram: Ram, board: Motherboard, cpu: Cpu | None, total: int) -> list[str]:
    """The kit against the CPU's maximum, and registered against unbuffered."""
    problems: list[str] = []
    if cpu is not None and cpu.max_memory_gb is not None and total > cpu.max_memory_gb:
        problems.append(f"{total} GB exceeds the CPU's {cpu.max_memory_gb} GB")
    takes = board.memory_registered
    if takes is not None and takes != "both" and ram.registered is not None and takes != ram.registered:
        need = "registered (RDIMM)" if takes else "unbuffered (UDIMM)"
        problems.append(f"the board takes {need} memory only")
    if takes == "both" and ram.registered and cpu is not None and cpu.ecc is False:
        problems.append(f"registered (RDIMM) memory with {cpu.name}, which takes no ECC memory (RDIMMs are ECC)")
    return problems


def _buffering_unknown(ram: Ram, board: Motherboard, cpu: Cpu | None) -> list[str]:
    """What is not known of registered against unbuffered. On a board that takes both, the CPU
    decides: one without ECC takes unbuffered kits only (registered ones are ECC); which kind
    an ECC-capable CPU takes there is not in the catalog."""
    out = []
    if board.memory_registered is None:
        out.append(f"the memory buffering (RDIMM or UDIMM) {board.name} takes")
    if ram.registered is None:
        out.append(f"the buffering (RDIMM or UDIMM) of {ram.name}")
    elif board.memory_registered == "both" and (cpu is None or cpu.ecc is not False):
        what = cpu.name if cpu is not None else "the CPU (none in the build)"
        out.append(f"which memory buffering (RDIMM or UDIMM) {what} takes on {board.name}")
    return out


def _capacity(board: Motherboard, modules: int, total: int, problems: list[str], missing: list[str]) -> None:
    """The board's slots and maximum capacity against the kit's (appends to ``problems``, ``missing``)."""
    if board.memory_slots is None:
        missing.append(f"memory slots of {board.name}")
    elif modules > board.memory_slots:
        problems.append(f"{modules} modules for {board.memory_slots} slots")
    if board.max_memory_gb is None:
        missing.append(f"max memory of {board.name}")
    elif total > board.max_memory_gb:
        problems.append(f"{total} GB exceeds the board's {board.max_memory_gb} GB")
