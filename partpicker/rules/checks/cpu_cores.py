"""cpu-cores: the CPU has enough cores to feed N GPUs: max(min_cores_floor, cores_per_gpu x N)."""

import math

from partpicker.rules.checks import Context, Outcome, check, gpus, verdict
from partpicker.rules.power import exact


def cores_needed(n_gpus: int, floor: int, per_gpu: float) -> int:
    """Cores for ``n_gpus`` cards: ``per_gpu`` each (rounded up, exactly), never fewer than ``floor``."""
    return max(floor, math.ceil(exact(per_gpu) * n_gpus))


@check("cpu-cores")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    cores = ctx.need(cpu, "cores")
    floor, per_gpu = int(ctx.params["min_cores_floor"]), ctx.params["cores_per_gpu"]
    need = cores_needed(ctx.n_gpus, floor, per_gpu)
    return verdict(
        cores >= need,
        cores=cores,
        need=need,
        n=ctx.n_gpus,
        gpus=gpus(ctx.n_gpus),
        per_gpu=per_gpu,
        floor=floor,
        threads=cpu.threads or "?",
    )
