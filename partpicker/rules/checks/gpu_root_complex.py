"""gpu-root-complex: the cards hang off one root complex, not the dies of a multi-die CPU."""

from partpicker.rules import topology
from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, gpus, passed


@check("gpu-root-complex")
def run(ctx: Context) -> Outcome:
    cpu = ctx.part("cpu")
    n = ctx.n_gpus
    per_gpu = int(ctx.params["min_lanes_per_gpu"])
    values = {"cpu": cpu.name, "gpus": gpus(n), "n": n, "per_gpu": per_gpu}
    if n < 2:
        return passed(how="one card", **values)
    die = topology.die_lanes(cpu)
    if die is None:
        raise Unknown(f"how the PCIe lanes of {cpu.name} ({cpu.socket}) split over its dies is not in the catalog")
    if die >= topology.ONE_DIE:
        return passed(how="every lane hangs off one I/O die", **values)
    if n * per_gpu > die:
        return failed(die=die, need=n * per_gpu, **values)
    raise Unknown(f"{n} cards at x{per_gpu} fit one die's {die} lanes, but which die each slot is wired to is unknown")
