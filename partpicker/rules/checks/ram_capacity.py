"""ram-capacity: system RAM at least the total VRAM of target_gpus cards."""

from partpicker.rules.checks import Context, Outcome, check, verdict


@check("ram-capacity")
def run(ctx: Context) -> Outcome:
    ram, gpu = ctx.part("ram"), ctx.part("gpu")
    vram = ctx.need(gpu, "vram_gb")
    total = ram.total_gb * ctx.build.ram_count
    need = vram * ctx.n_gpus * float(ctx.params["ratio"])
    return verdict(total >= need, ram=total, need=f"{need:g}", n=ctx.n_gpus, vram=f"{vram:g}")
