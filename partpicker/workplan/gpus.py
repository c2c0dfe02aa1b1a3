"""The catalog's GPU models as candidates for a workload: one option per chip and memory size."""

from __future__ import annotations

from partpicker.catalog import Catalog
from partpicker.models import Gpu
from partpicker.workload import GpuOption


def gpu_options(catalog: Catalog) -> list[GpuOption]:
    """Each GPU model (chip) of the catalog with a known memory size, smallest memory first.

    Boards of one chip share its memory size; a chip sold in two sizes gives two options."""
    seen: dict[tuple[str, float], GpuOption] = {}
    for part in catalog.by_category["gpu"]:
        if isinstance(part, Gpu) and part.vram_gb is not None:
            seen.setdefault((part.chip, part.vram_gb), GpuOption(part.chip, part.vram_gb))
    return sorted(seen.values(), key=lambda g: (g.vram_gb, g.name))


def cards_of(catalog: Catalog, option: GpuOption) -> list[Gpu]:
    """The catalog's boards of one option (its chip, with its memory size)."""
    return [
        p
        for p in catalog.by_category["gpu"]
        if isinstance(p, Gpu) and p.chip == option.name and p.vram_gb == option.vram_gb
    ]
