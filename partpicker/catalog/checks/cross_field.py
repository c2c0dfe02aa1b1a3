"""bounds-cross: values that contradict each other within a part."""

from __future__ import annotations

from collections.abc import Iterator

from partpicker.catalog import Catalog, Problem
from partpicker.catalog.checks.interface import lint, problem
from partpicker.models import Cpu, Ram


@lint("inconsistent", "fields of one part that contradict each other (threads < cores, usable lanes > total)")
def check(catalog: Catalog) -> Iterator[Problem]:
    for part in catalog:
        if isinstance(part, Cpu):
            yield from _cpu(catalog, part)
        if isinstance(part, Ram) and part.registered and part.ecc is False:
            yield problem(catalog, "inconsistent", part.id, "registered memory without ECC", ["ecc"])


def _cpu(catalog: Catalog, part: Cpu) -> Iterator[Problem]:
    if part.cores and part.threads and part.threads < part.cores:
        yield problem(catalog, "inconsistent", part.id, f"{part.threads} threads < {part.cores} cores", ["threads"])
    if part.pcie_lanes and part.pcie_lanes_total and part.pcie_lanes > part.pcie_lanes_total:
        yield problem(
            catalog,
            "inconsistent",
            part.id,
            f"{part.pcie_lanes} usable lanes > {part.pcie_lanes_total} total",
            ["pcie_lanes"],
        )
