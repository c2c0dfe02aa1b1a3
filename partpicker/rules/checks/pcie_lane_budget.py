"""pcie-lane-budget: N GPUs at x8 each plus CPU-attached NVMe drives at x4 fit the CPU's lanes."""

from typing import Any

from partpicker.parts import M2Slot, Motherboard, Ssd
from partpicker.rules import layout
from partpicker.rules.checks import Context, Outcome, Unknown, check, gpus, verdict


def _placement(ctx: Context, board: Motherboard, nvme: list[Ssd]) -> tuple[tuple[Ssd, M2Slot], ...]:
    """Where the NVMe drives go: as in the best GPU layout, else the first placement that fits."""
    ctx.need(board, "m2_slots")
    lay = None
    if board.pcie_slots is not None and ctx.build.gpu is not None:
        lay = ctx.layout(with_case=False) or ctx.layout(with_case=False, known_only=False)
    placement = lay.drives if lay is not None else next(layout.drive_placements(board, nvme), None)
    if placement is None:
        raise Unknown(f"no placement of the NVMe drives on {board.name}'s M.2 slots (see m2-slot)")
    return placement


@check("pcie-lane-budget")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    have = ctx.need(cpu, "pcie_lanes")
    per_gpu = int(ctx.params["lanes_per_gpu"])
    per_nvme = int(ctx.params["lanes_per_nvme"])
    n = ctx.n_gpus
    nvme = [d for d in ctx.build.ssds if d.interface == "nvme" and layout.is_m2(d)]
    values: dict[str, Any] = {"have": have, "n": n, "gpus": gpus(n), "per_gpu": per_gpu, "per_nvme": per_nvme}
    if n * per_gpu + len(nvme) * per_nvme <= have:
        # Even with every NVMe drive on CPU lanes, it fits (or there are none to place).
        return verdict(True, need=n * per_gpu + len(nvme) * per_nvme, nvme=len(nvme), **values)
    if n * per_gpu > have:
        # Even with every NVMe drive on chipset lanes, the GPUs alone do not fit.
        return verdict(False, need=n * per_gpu, nvme=0, **values)
    board = ctx.part("motherboard")
    return _placed(board, _placement(ctx, board, nvme), values)


def _placed(board: Motherboard, placement: tuple[tuple[Ssd, M2Slot], ...], values: dict[str, Any]) -> Outcome:
    """The budget with the drives placed: those on chipset lanes cost the CPU nothing."""
    n, per_gpu, per_nvme, have = values["n"], values["per_gpu"], values["per_nvme"], values["have"]
    on_cpu = sum(1 for _, s in placement if s.source == "cpu")
    unsure = sum(1 for _, s in placement if s.source is None)
    low, high = n * per_gpu + on_cpu * per_nvme, n * per_gpu + (on_cpu + unsure) * per_nvme
    if high <= have or low > have:
        return verdict(
            high <= have, need=high if high <= have else low, nvme=on_cpu + unsure * (high <= have), **values
        )
    raise Unknown(f"whether {board.name}'s M.2 slots hang off the CPU or the chipset")
