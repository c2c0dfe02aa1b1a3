"""gpu-p2p: GeForce cards have no peer-to-peer over PCIe; multi-GPU traffic goes through host memory."""

from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, gpus, passed

DATACENTER_AND_WORKSTATION = ("RTX A", "RTX PRO", "Quadro", "Ada Generation", "Tesla", "A100", "H100", "L40")


@check("gpu-p2p")
def run(ctx: Context) -> Outcome:
    chip = ctx.part("gpu").chip
    n = ctx.n_gpus
    if n < 2:
        return passed(chip=chip, gpus=gpus(n), how="one card has no peer")
    if "GeForce" in chip:
        return failed(chip=chip, gpus=gpus(n))
    if any(word in chip for word in DATACENTER_AND_WORKSTATION):
        return passed(chip=chip, gpus=gpus(n), how="workstation and data-centre cards support P2P over PCIe")
    raise Unknown(f"whether {chip} cards support P2P over PCIe is not in the catalog")
