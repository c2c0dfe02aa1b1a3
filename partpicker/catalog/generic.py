"""Generic parts by spec: a RAM kit or an SSD the catalog lacks, checked by what its name says.

No rule reads a RAM kit's or a drive's maker, so "128GB (4x32GB) DDR5-4800 ECC RDIMM" or
"2TB NVMe M.2 2280 PCIe 4.0" can be checked as a generic part of those specs. Only when the
name carries every spec the rules need (RAM: type and modules x size; SSD: capacity,
interface and form factor, with the M.2 length); what the name does not say (ECC,
registered, speed, PCIe generation) stays unknown. A generic part has no price: a price
comes only from the user (the build file's ``price:``, or a parts file).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from partpicker.catalog import names

if TYPE_CHECKING:
    from partpicker.models import Part, Ram, Ssd  # imported when a generic part is made (issue 14)

GENERIC_BRAND = "generic"
GENERIC_ORIGIN = "generic part: from its name"

_M2_LENGTH = re.compile(r"\bm\.?\s?2\s*-?\s*(22(?:30|42|60|80|110))\b|\b(22(?:30|42|60|80|110))\b", re.IGNORECASE)


def from_name(name: str, category: str) -> Part | None:
    """A generic part of ``category`` with the specs ``name`` states, or None if it lacks one."""
    if category == "ram":
        return _ram(name)
    if category == "ssd":
        return _ssd(name)
    return None


def _source(name: str) -> list[str]:
    return [f"its name as given: {name!r}"]


def _ram(name: str) -> Ram | None:
    specs = names.read(name, "ram").specs
    kind, modules, size = specs.get("memory_type"), specs.get("modules"), specs.get("module_gb")
    if not (isinstance(kind, str) and isinstance(modules, int) and isinstance(size, int)):
        return None
    speed = specs.get("speed_mts")
    ecc, registered = specs.get("ecc"), specs.get("registered")
    bits = [f"{modules}x{size}gb", kind, str(speed or "")]
    bits += ["ecc" if ecc else "", "rdimm" if registered else ""]
    from partpicker.models import Ram

    return Ram(
        id=_slug("generic-ram", bits),
        name=name.strip(),
        brand=GENERIC_BRAND,
        memory_type=kind,
        modules=modules,
        module_gb=size,
        speed_mts=speed if isinstance(speed, int) else None,
        ecc=ecc if isinstance(ecc, bool) else None,
        registered=registered if isinstance(registered, bool) else None,
        sources=_source(name),
        notes=GENERIC_ORIGIN,
    )


def _ssd(name: str) -> Ssd | None:
    specs = names.read(name, "ssd").specs
    capacity, form, interface, gen = (specs.get(k) for k in ("capacity_gb", "form", "interface", "pcie_gen"))
    if form == "m2":
        length = _M2_LENGTH.search(name)
        if length is None:
            return None
        form_factor = f"M.2-{length[1] or length[2]}"
        interface = interface or ("nvme" if gen else None)
    elif form == "2.5in":
        form_factor, interface = "2.5in", interface or "sata"
    else:
        return None
    if not isinstance(capacity, int) or interface not in ("nvme", "sata"):
        return None
    from partpicker.models import Ssd

    return Ssd(
        id=_slug("generic-ssd", [f"{capacity}gb", form_factor, interface, f"gen{gen}" if gen else ""]),
        name=name.strip(),
        brand=GENERIC_BRAND,
        interface=interface,
        form_factor=form_factor,
        capacity_gb=capacity,
        pcie_gen=gen if isinstance(gen, int) else None,
        sources=_source(name),
        notes=GENERIC_ORIGIN,
    )


def _slug(head: str, bits: list[str]) -> str:
    text = "-".join([head, *(b for b in bits if b)])
    return re.sub(r"[^a-z0-9]+", "-", text.casefold().replace("m.2", "m2")).strip("-")
