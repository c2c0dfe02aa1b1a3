"""gpu-x4-links: for training, no card has to run on an x4 (or narrower) link."""

from partpicker.rules import topology
from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, gpus, passed


@check("gpu-x4-links")
def run(ctx: Context) -> Outcome:
    n = ctx.n_gpus
    narrow = int(ctx.params["max_narrow_lanes"])
    if n < 2:
        return passed(gpus=gpus(n), how="one card", narrow=narrow)
    widest = 0
    found = False
    for lay in topology.any_layouts(ctx):
        found = True
        least = min(lay.gpu_lanes)
        if least > narrow:
            return passed(gpus=gpus(n), how=f"a layout gives every card x{least} or more", narrow=narrow)
        widest = max(widest, least)
    if not found:
        raise Unknown(f"no layout seats {n} cards (see gpu-slots)")
    return failed(gpus=gpus(n), least=widest, narrow=narrow)
