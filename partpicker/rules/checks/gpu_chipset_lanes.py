"""gpu-chipset-lanes: no card has to sit in a slot wired to the chipset."""

from partpicker.rules import topology
from partpicker.rules.checks import Context, Outcome, Unknown, check, failed, gpus, passed


@check("gpu-chipset-lanes")
def run(ctx: Context) -> Outcome:
    n = ctx.n_gpus
    if n < 2:
        return passed(gpus=gpus(n), how="one card (the first slot is CPU-wired on every mapped board)")
    seen = unsure = False
    chipset_slots: set[str] = set()
    for lay in topology.any_layouts(ctx):
        seen = True
        sources = [s.source for s in lay.gpu_slots]
        if all(src in ("cpu", "switch") for src in sources):
            return passed(gpus=gpus(n), how="a layout puts every card on CPU lanes (directly or through a switch)")
        unsure |= None in sources
        chipset_slots |= {s.label for s in lay.gpu_slots if s.source == "chipset"}
    if not seen:
        raise Unknown(f"no layout seats {n} cards (see gpu-slots)")
    if unsure:
        raise Unknown("a slot's lane source (CPU or chipset) is not in the catalog")
    return failed(gpus=gpus(n), slots=", ".join(sorted(chipset_slots)))
