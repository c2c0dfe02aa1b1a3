"""cpu-cores: the CPU has enough cores to feed N GPUs: max(min_cores_floor, cores_per_gpu x N)."""

from partpicker.rules.checks import Context, Outcome, check, gpus, verdict


def cores_needed(n_gpus: int, floor: int, per_gpu: int) -> int:
    """Cores for ``n_gpus`` cards: ``per_gpu`` each, and never fewer than ``floor``."""
    return max(floor, per_gpu * n_gpus)


@check("cpu-cores")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    cores = ctx.need(cpu, "cores")
    floor, per_gpu = int(ctx.params["min_cores_floor"]), int(ctx.params["cores_per_gpu"])
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
