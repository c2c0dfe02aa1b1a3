"""cpu-pcie-lanes: the CPU has enough PCIe lanes for four GPUs at x8 and an NVMe drive."""

from partpicker.rules.checks import Context, Outcome, check, verdict


@check("cpu-pcie-lanes")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    lanes = ctx.need(cpu, "pcie_lanes")
    need = int(ctx.params["min_lanes"])
    return verdict(lanes >= need, lanes=lanes, min_lanes=need)
