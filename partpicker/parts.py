"""The part classes as the `validate` path imports them (issue 14): ``isinstance`` checks and
annotations name these, not :mod:`partpicker.models`, so that a warm `validate` imports no
pydantic.

For the type checker the names are the pydantic models (whose fields declare every attribute a
rule reads); at run time they are the plain classes of :mod:`partpicker.kinds`, the models'
bases, which a part read from the cache is an instance of (a parsed part is a model, and an
instance of them too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from partpicker.kinds import KINDS, WEAK_EVIDENCE, spec_fields

__all__ = [
    "KINDS",
    "WEAK_EVIDENCE",
    "Case",
    "Cooler",
    "Cpu",
    "Evidence",
    "Gpu",
    "GpuPower",
    "M2Slot",
    "Motherboard",
    "Part",
    "PcieSlot",
    "Price",
    "Psu",
    "Ram",
    "Sharing",
    "Ssd",
    "spec_fields",
]

if TYPE_CHECKING:
    from partpicker.models import (
        Case,
        Cooler,
        Cpu,
        Evidence,
        Gpu,
        GpuPower,
        M2Slot,
        Motherboard,
        Part,
        PcieSlot,
        Price,
        Psu,
        Ram,
        Sharing,
        Ssd,
    )
else:
    from partpicker import kinds

    Part, Cpu, Motherboard, Gpu, Psu, Ssd, Case, Ram, Cooler = (
        kinds.PartKind,
        kinds.CpuKind,
        kinds.MotherboardKind,
        kinds.GpuKind,
        kinds.PsuKind,
        kinds.SsdKind,
        kinds.CaseKind,
        kinds.RamKind,
        kinds.CoolerKind,
    )
    Price, Evidence, Sharing, PcieSlot, M2Slot, GpuPower = (
        kinds.PriceKind,
        kinds.EvidenceKind,
        kinds.SharingKind,
        kinds.PcieSlotKind,
        kinds.M2SlotKind,
        kinds.GpuPowerKind,
    )
