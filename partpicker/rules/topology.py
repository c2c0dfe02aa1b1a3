"""Where multi-GPU traffic goes: which layouts of the cards exist, and which root complex a
CPU's PCIe lanes hang off. Read by gpu-chipset-lanes, gpu-x4-links and gpu-root-complex.

Layouts are those of :mod:`partpicker.rules.layout` at any lane count (x1 and up), with the
case and the build's M.2 drives, so a rule can ask "does some layout avoid this?".
"""

from __future__ import annotations

from collections.abc import Iterator

from partpicker.parts import Cpu
from partpicker.rules import layout as layout_mod
from partpicker.rules.checks import Context

# Sockets whose CPUs put every PCIe lane behind one die's root complex (one I/O die, or a
# monolithic die): AMD AM4/AM5/sTRX4/sWRX8/sTR5/SP5 (Zen 2 and later: one I/O die) and the
# Intel desktop and HEDT sockets of monolithic dies. Sources: AMD "Zen 2" I/O die (Hot Chips
# 2019); WikiChip, Skylake-X and Coffee Lake dies.
ONE_DIE_SOCKETS = frozenset({"AM4", "AM5", "sTRX4", "sWRX8", "sTR5", "SP5", "LGA1151", "LGA1200", "LGA1700", "LGA1851"})
ONE_DIE_SOCKETS_ALSO = frozenset({"LGA2066", "LGA2011-3"})
# Zen 1 / Zen+ Threadripper (sTR4) and EPYC 7001 (SP3 at PCIe 3.0; 7002 and later are 4.0): two or
# four Zeppelin dies, each with its own PCIe root complex; the CPU's usable lanes split
# evenly over the dies with I/O (two on sTR4, 2990WX included; four on EPYC 7001) (AMD, ISSCC 2018,
# "Zeppelin: an SoC for multichip architectures"; WikiChip, Threadripper 1950X, 2990WX).
ONE_DIE = 10**6
"""What :func:`die_lanes` returns for a CPU whose lanes all hang off one die."""


def die_lanes(cpu: Cpu) -> int | None:
    """PCIe lanes per die-with-its-own-root-complex: :data:`ONE_DIE` for a one-die CPU, the
    usable lanes / dies for a Zeppelin-based one (1920X: 60 / 2 = 30); None when unknown."""
    if cpu.socket in ONE_DIE_SOCKETS or cpu.socket in ONE_DIE_SOCKETS_ALSO:
        return ONE_DIE
    naples = cpu.socket == "SP3" and cpu.pcie_gen == 3  # EPYC 7001 is PCIe 3.0; 7002 and later 4.0
    if cpu.socket == "SP3" and cpu.pcie_gen is None:
        return None
    dies = 2 if cpu.socket == "sTR4" else 4 if naples else 0
    if dies:  # the CPU's usable lanes are split evenly over the dies with I/O
        return cpu.pcie_lanes // dies if cpu.pcie_lanes is not None else None
    if cpu.socket == "SP3":
        return ONE_DIE  # EPYC 7002 and later: one I/O die
    return None


def any_layouts(ctx: Context) -> Iterator[layout_mod.Layout]:
    """Every layout of the build's cards at any lane count (x1 and up), in the case if it has
    a known slot count; *unknown* (via :meth:`Context.need`) without a slot map."""
    board, gpu = ctx.part("motherboard"), ctx.part("gpu")
    ctx.need(board, "pcie_slots")
    width = ctx.need(gpu, "slot_width")
    drives = [d for d in ctx.build.ssds if layout_mod.is_m2(d)]
    if drives:
        ctx.need(board, "m2_slots")
    case = ctx.build.case
    cpu = ctx.build.cpu
    return layout_mod.layouts(
        board,
        n=ctx.n_gpus,
        width=width,
        cpu_lanes=cpu.pcie_lanes if cpu is not None else None,
        drives=drives,
        min_lanes=1,
        case_slots=case.expansion_slots if case is not None else None,
        known_only=True,
    )
