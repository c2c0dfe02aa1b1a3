"""cpu-pcie-lanes: the CPU has PCIe lanes for N GPUs and the build's NVMe drives.

need = N x lanes_per_gpu + max(min_nvme_drives, NVMe drives in the build) x lanes_per_nvme
(the article's 36 at N = 4 with one drive). pcie-lane-budget refines it with the board's wiring.
"""

from partpicker.rules.checks import Context, Outcome, check, gpus, verdict


def lanes_needed(n_gpus: int, nvme_drives: int, per_gpu: int, per_nvme: int) -> int:
    """Lanes for ``n_gpus`` cards and ``nvme_drives`` NVMe drives at the given widths."""
    return n_gpus * per_gpu + nvme_drives * per_nvme


@check("cpu-pcie-lanes")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    lanes = ctx.need(cpu, "pcie_lanes")
    per_gpu, per_nvme = int(ctx.params["lanes_per_gpu"]), int(ctx.params["lanes_per_nvme"])
    drives = max(int(ctx.params["min_nvme_drives"]), sum(1 for d in ctx.build.ssds if d.interface == "nvme"))
    need = lanes_needed(ctx.n_gpus, drives, per_gpu, per_nvme)
    return verdict(
        lanes >= need,
        lanes=lanes,
        need=need,
        n=ctx.n_gpus,
        gpus=gpus(ctx.n_gpus),
        per_gpu=per_gpu,
        nvme=drives,
        per_nvme=per_nvme,
    )
