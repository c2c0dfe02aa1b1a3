"""cpu-cores: the CPU has enough cores to feed the GPUs."""

from partpicker.rules.checks import Context, Outcome, check, verdict


@check("cpu-cores")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    cores = ctx.need(cpu, "cores")
    need = int(ctx.params["min_cores"])
    return verdict(cores >= need, cores=cores, min_cores=need, threads=cpu.threads or "?")
