"""gpu-length: the graphics card fits the case's maximum card length."""

from partpicker.rules.checks import Context, Outcome, check, verdict


@check("gpu-length")
def run(ctx: Context) -> Outcome:
    gpu, case = ctx.part("gpu"), ctx.part("case")
    length = ctx.need(gpu, "length_mm")
    limit = ctx.need(case, "max_gpu_length_mm")
    return verdict(length <= limit, length=length, limit=limit, spare=limit - length)
