"""bounds-cross: values that contradict each other within a part."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from partpicker.catalog.checks.interface import Finding, lint_part


@lint_part(
    "inconsistent",
    "fields of one part that contradict each other (threads < cores, usable lanes > total, "
    "a PSU giving more on low-line mains than its rating)",
)
def check(part: Any) -> Iterator[Finding]:
    if part.category == "cpu":
        yield from _cpu(part)
    if part.category == "psu" and part.low_line_watts is not None and part.low_line_watts > part.watts:
        yield Finding(
            f"low_line_watts {part.low_line_watts} > watts {part.watts} (a PSU gives at most its rating)",
            ("low_line_watts",),
        )
    if part.category == "ram" and part.registered and part.ecc is False:
        yield Finding("registered memory without ECC", ("ecc",))


def _cpu(part: Any) -> Iterator[Finding]:
    if part.cores and part.threads and part.threads < part.cores:
        yield Finding(f"{part.threads} threads < {part.cores} cores", ("threads",))
    if part.pcie_lanes and part.pcie_lanes_total and part.pcie_lanes > part.pcie_lanes_total:
        yield Finding(f"{part.pcie_lanes} usable lanes > {part.pcie_lanes_total} total", ("pcie_lanes",))
