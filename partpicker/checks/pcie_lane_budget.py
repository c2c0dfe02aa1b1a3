"""pcie-lane-budget: GPUs at x8 each plus CPU-attached NVMe drives at x4 fit the CPU's lanes."""

from partpicker import layout
from partpicker.checks import Context, Outcome, Unknown, check, verdict


@check("pcie-lane-budget")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    have = ctx.need(cpu, "pcie_lanes")
    per_gpu = int(ctx.params["lanes_per_gpu"])
    per_nvme = int(ctx.params["lanes_per_nvme"])
    n = ctx.n_gpus
    nvme = [d for d in ctx.build.ssds if d.interface == "nvme" and layout.is_m2(d)]
    worst = n * per_gpu + len(nvme) * per_nvme
    if worst <= have or not nvme:
        # Even with every NVMe drive on CPU lanes, it fits (or there are none to place).
        on_cpu = len(nvme)
    elif n * per_gpu > have:
        # Even with every NVMe drive on chipset lanes, the GPUs alone do not fit.
        on_cpu = 0
    else:
        board = ctx.part("motherboard")
        if board.m2_slots is None or board.pcie_slots is None or ctx.build.gpu is None:
            raise Unknown(f"which of {board.name}'s M.2 slots hang off the CPU is not in the catalog")
        lay = ctx.layout(with_case=False)
        if lay is None:
            placement = next(layout.drive_placements(board, nvme), ())
            on_cpu = sum(1 for _, s in placement if s.source != "chipset")
        else:
            on_cpu = lay.cpu_nvme()
    need = n * per_gpu + on_cpu * per_nvme
    return verdict(need <= have, have=have, need=need, n=n, per_gpu=per_gpu, nvme=on_cpu, per_nvme=per_nvme)
