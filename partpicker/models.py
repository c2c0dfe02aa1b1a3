"""Pydantic models of catalog parts: one class per category, every spec optional-but-typed.

A spec that is not known is ``None``; rules that need it report *unknown*, never pass.
Vocabulary fields (sockets, form factors, memory types) are normalised to the one list
in :mod:`partpicker.vocab`; an unknown word is a validation error of type ``vocabulary``.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError

from partpicker import kinds, vocab
from partpicker.errors import excerpt

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def _vocab(kind: str, canon: Any) -> Any:
    def check(value: str) -> str:
        found = canon(value)
        if found is None:
            raise PydanticCustomError(
                "vocabulary",
                "unknown {kind} {value}; add it to partpicker/vocab.py or use a listed spelling",
                {"kind": kind, "value": excerpt(value, 60)},
            )
        return str(found)

    return check


def _in_list(kind: str, words: list[str]) -> Any:
    by_key = {w.lower(): w for w in words}
    return _vocab(kind, lambda v: by_key.get(v.lower()))


Socket = Annotated[str, AfterValidator(_vocab("socket", vocab.socket))]
FormFactor = Annotated[str, AfterValidator(_vocab("form factor", vocab.form_factor))]
MemoryType = Annotated[str, AfterValidator(_in_list("memory type", vocab.MEMORY_TYPES))]
PsuFormFactor = Annotated[str, AfterValidator(_in_list("PSU form factor", vocab.PSU_FORM_FACTORS))]
SsdFormFactor = Annotated[str, AfterValidator(_in_list("SSD form factor", vocab.SSD_FORM_FACTORS))]
Efficiency = Annotated[str, AfterValidator(_in_list("efficiency rating", vocab.EFFICIENCY_RATINGS))]
Interface = Literal["nvme", "sata"]


def _iso_day(value: Any) -> Any:
    """A quoted ISO date ("2023-07-05") is a date too; nothing else is coerced (no numbers)."""
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise PydanticCustomError(
                "date_parsing", "{value} is not a real date (YYYY-MM-DD)", {"value": excerpt(value, 40)}
            ) from None
    return value


Day = Annotated[dt.date, BeforeValidator(_iso_day)]
Lanes = Annotated[int, Field(ge=0, le=16)]


class Strict(BaseModel):
    """Base: unknown fields are errors, instances are immutable, values are not coerced (no
    ``watts: "1500"``, no ``hpwr_12v: true``; a whole number is still a float) and numbers are
    finite (no ``usd: .inf`` or ``.nan``). Each model's validator is built when it is first
    used (``defer_build``): a warm `validate` makes its parts from the cache without one
    (:func:`partpicker.cache.rebuild`), and building them all costs more than the run (issue 14)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False, defer_build=True)


class Price(Strict, kinds.PriceKind):
    """One dated price point."""

    usd: float = Field(gt=0, description="Price in US dollars.")
    date: Day = Field(description="The day the price was seen or announced.")
    source: str = Field(min_length=1, description="Where: a URL, or 'PCPartPicker lowest price on DATE'.")
    kind: Literal["msrp", "street", "used"] = Field("street", description="Launch MSRP, new street, or used.")


EvidenceKind = Literal["manual", "maker", "review", "database", "derived", "recalled"]
"""Where a fact comes from, strongest first: the maker's manual (with page), the maker's spec page
or press release, a hardware review, a curated database snapshot (with its date), derived from
other sourced facts by a stated rule, or recalled: the curator's knowledge of a named maker's
document that no copy here could be read of."""

EVIDENCE_KINDS: tuple[str, ...] = ("manual", "maker", "review", "database", "derived", "recalled")
WEAK_EVIDENCE = kinds.WEAK_EVIDENCE


class Evidence(Strict, kinds.EvidenceKind):
    """The evidence for one spec field of a part, overriding the part's default kind."""

    kind: EvidenceKind
    source: str | None = Field(
        None,
        min_length=1,
        description="Where: a URL, 'MSI X399 SLI PLUS manual p. 23', 'BuildCores OpenDB 2026-08-17'.",
    )
    note: str | None = Field(
        None,
        min_length=1,
        description="For 'recalled': the document the value is recalled from; for 'derived': the rule used.",
    )

    @model_validator(mode="after")
    def _note_for_weak(self) -> Evidence:
        if self.kind in WEAK_EVIDENCE and self.note is None:
            raise PydanticCustomError(
                "evidence_note",
                "{kind} evidence needs a note: name the document it is recalled from, or the rule it is derived by",
                {"kind": self.kind},
            )
        return self


class Part(Strict, kinds.PartKind):
    """Fields every part has."""

    category: ClassVar[str] = "part"

    id: str = Field(description="Stable slug: lower-case words joined by hyphens.")
    name: str = Field(min_length=1)
    brand: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    released: Day | None = None
    prices: list[Price] = Field(default_factory=list)
    sources: list[str] = Field(min_length=1, description="Manufacturer pages or manuals the specs come from.")
    notes: str | None = None
    evidence: EvidenceKind | None = Field(None, description="Default evidence kind of this part's specs.")
    field_evidence: dict[str, Evidence] = Field(
        default_factory=dict, description="Evidence per spec field, where it differs from the part's default."
    )

    @model_validator(mode="after")
    def _evidence_fields(self) -> Part:
        unknown = sorted(set(self.field_evidence) - set(spec_fields(type(self))))
        if unknown:
            raise PydanticCustomError(
                "evidence_field",
                "field_evidence names {fields}, not a spec field of a {category}",
                {"fields": ", ".join(unknown), "category": self.category},
            )
        if self.evidence in WEAK_EVIDENCE and self.notes is None:
            raise PydanticCustomError(
                "evidence_note",
                "a {kind} evidence default needs the part's notes to name the document or the rule",
                {"kind": self.evidence},
            )
        return self

    def evidence_of(self, field: str) -> Evidence | None:
        """The evidence for one spec field: its own entry, else the part's default kind, else None."""
        own = self.field_evidence.get(field)
        if own is not None:
            return own
        if self.evidence is None:
            return None
        if self.evidence in WEAK_EVIDENCE:  # the part's notes name the document (checked on load)
            return Evidence(kind=self.evidence, note=self.notes)
        return Evidence(kind=self.evidence)

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not SLUG.match(value):
            raise PydanticCustomError(
                "slug",
                "id '{value}' is not a slug: use lower-case letters, digits and single hyphens",
                {"value": value},
            )
        return value

    if TYPE_CHECKING:  # kinds.PartKind.price_as_of, typed

        def price_as_of(self, day: dt.date) -> Price | None: ...


class Cpu(Part, kinds.CpuKind):
    """A processor."""

    category: ClassVar[str] = "cpu"

    socket: Socket
    cores: int | None = Field(None, ge=1, le=256)
    threads: int | None = Field(None, ge=1, le=512)
    pcie_lanes: int | None = Field(
        None,
        ge=0,
        le=160,
        description="PCIe lanes the CPU gives to slots and M.2, not counting the chipset link "
        "(AMD's 'usable' figure; Intel ARK's 'Max # of PCI Express Lanes').",
    )
    pcie_lanes_total: int | None = Field(None, ge=0, le=160, description="Total lanes incl. chipset link.")
    pcie_gen: int | None = Field(None, ge=1, le=6)
    tdp_w: int | None = Field(None, ge=1, le=1000)
    memory_types: list[MemoryType] = Field(default_factory=list)
    memory_channels: int | None = Field(None, ge=1, le=16)
    max_memory_gb: int | None = Field(None, ge=1, le=8192)
    ecc: bool | None = None


class Sharing(Strict, kinds.SharingKind):
    """This slot's lanes when another slot is in use (0 = disabled)."""

    when: str = Field(description="Label of the other slot (PCIe or M.2) whose use causes this.")
    lanes: Lanes


class PcieSlot(Strict, kinds.PcieSlotKind):
    """One PCIe expansion slot, as the board's manual describes it."""

    label: str = Field(min_length=1, description="The manual's name, e.g. PCIE1 or PCI_E3.")
    position: int | None = Field(
        ge=1, le=12, description="Expansion position, 1 = nearest the CPU; null if the source does not say."
    )
    physical: Lanes | None = Field(description="Physical size: 1, 4, 8 or 16; null if the source does not say.")
    lanes: Lanes = Field(description="Electrical lanes with the board's usual CPU.")
    lanes_by_cpu: dict[int, Lanes] = Field(
        default_factory=dict,
        description="Electrical lanes with smaller CPUs: key K applies to CPUs with K lanes or fewer "
        "(the smallest fitting key wins), e.g. {28: 8} for X299 boards with a 28-lane CPU.",
    )
    gen: int | None = Field(None, ge=1, le=6)
    source: Literal["cpu", "chipset", "switch"] | None = None
    shares: list[Sharing] = Field(default_factory=list)


class M2Slot(Strict, kinds.M2SlotKind):
    """One M.2 socket for storage."""

    label: str = Field(min_length=1)
    interfaces: list[Interface] = Field(min_length=1)
    lanes: Lanes | None = None
    gen: int | None = Field(None, ge=1, le=6)
    source: Literal["cpu", "chipset"] | None = None
    max_length: int | None = Field(None, description="Longest module, e.g. 2280 or 22110.")
    shares: list[Sharing] | None = Field(
        None,
        description="Lane sharing from the manual ([] = none); None = not known, so a layout that "
        "puts a drive here is only a possibility.",
    )


class Motherboard(Part, kinds.MotherboardKind):
    """A motherboard with its slot map."""

    category: ClassVar[str] = "motherboard"

    socket: Socket
    chipset: str | None = None
    form_factor: FormFactor
    memory_type: MemoryType | None = None
    memory_slots: int | None = Field(None, ge=1, le=32)
    max_memory_gb: int | None = Field(None, ge=1, le=8192)
    memory_registered: bool | Literal["both"] | None = Field(
        None,
        description="True: takes only RDIMMs; False: only UDIMMs; 'both': either (which one a CPU takes is "
        "not modelled, e.g. UDIMMs with a Core i7 and RDIMMs with a Xeon on one X99 workstation board).",
    )
    pcie_slots: list[PcieSlot] | None = Field(None, description="Ordered by position; None if unknown.")
    m2_slots: list[M2Slot] | None = Field(None, description="None if unknown; [] if the board has none.")


class GpuPower(Strict, kinds.GpuPowerKind):
    """Power sockets on a graphics card."""

    pcie_6pin: int = Field(0, ge=0, le=4)
    pcie_8pin: int = Field(0, ge=0, le=4)
    hpwr_12v: int = Field(0, ge=0, le=2, description="12VHPWR or 12V-2x6 sockets (600 W each).")


class Gpu(Part, kinds.GpuKind):
    """A graphics card (a specific board, not just the chip)."""

    category: ClassVar[str] = "gpu"

    chip: str = Field(min_length=1, description="The GPU model, e.g. GeForce RTX 3090.")
    vram_gb: float | None = Field(None, gt=0, le=256)
    board_power_w: int | None = Field(None, ge=10, le=1000)
    slot_width: float | None = Field(None, ge=1, le=5)
    length_mm: int | None = Field(None, ge=50, le=450)
    cooler: Literal["blower", "open-air", "hybrid", "passive", "water"] | None = None
    power: GpuPower | None = None
    pcie_gen: int | None = Field(None, ge=1, le=6)


class Psu(Part, kinds.PsuKind):
    """A power supply."""

    category: ClassVar[str] = "psu"

    watts: int = Field(
        ge=100, le=3000, description="Rated continuous output (on 200-240 V mains for units that derate)."
    )
    low_line_watts: int | None = Field(
        None,
        ge=100,
        le=3000,
        description="Rated output on 100-127 V mains: equal to watts for units that do not derate, lower for "
        "230 V units (e.g. 2000 W at 230 V, 1650 W at 115 V); None = not known.",
    )
    form_factor: PsuFormFactor | None = None
    pcie_8pin: int | None = Field(
        None, ge=0, le=24, description="PCIe 6+2-pin cables the PSU can run (one per GPU socket, no pigtails)."
    )
    hpwr_12v: int | None = Field(None, ge=0, le=8, description="Native 12VHPWR / 12V-2x6 cables.")
    efficiency: Efficiency | None = None
    atx_version: str | None = None
    length_mm: int | None = Field(None, ge=80, le=300)


class Ssd(Part, kinds.SsdKind):
    """A storage drive."""

    category: ClassVar[str] = "ssd"

    interface: Interface
    form_factor: SsdFormFactor
    capacity_gb: int = Field(ge=1, le=200_000)
    pcie_gen: int | None = Field(None, ge=1, le=6)
    read_mbps: int | None = Field(None, ge=1, le=20_000)


class Case(Part, kinds.CaseKind):
    """A computer case."""

    category: ClassVar[str] = "case"

    form_factors: list[FormFactor] = Field(min_length=1)
    expansion_slots: int | None = Field(None, ge=1, le=14)
    max_gpu_length_mm: int | None = Field(None, ge=100, le=600)
    psu_form_factors: list[PsuFormFactor] = Field(default_factory=list)
    psu_mounts: int | None = Field(
        None, ge=1, le=4, description="PSUs the case mounts (2 for a dual-PSU case); None = not known."
    )
    max_cooler_height_mm: int | None = Field(None, ge=20, le=250)


class Ram(Part, kinds.RamKind):
    """A memory kit."""

    category: ClassVar[str] = "ram"

    memory_type: MemoryType
    modules: int = Field(ge=1, le=16)
    module_gb: int = Field(ge=1, le=512)
    speed_mts: int | None = Field(None, ge=800, le=12000)
    ecc: bool | None = None
    registered: bool | None = None


class Cooler(Part, kinds.CoolerKind):
    """A CPU cooler."""

    category: ClassVar[str] = "cooler"

    kind: Literal["air", "aio", "custom"] | None = None
    sockets: list[Socket] = Field(min_length=1, description="Sockets it mounts on with what is in its box.")
    bracket_sockets: list[Socket] = Field(
        default_factory=list,
        description="Sockets it mounts on with a bracket from elsewhere (e.g. the Asetek bracket AMD put in "
        "first-generation Threadripper boxes); say which in notes.",
    )
    height_mm: int | None = Field(None, ge=20, le=250)
    radiator_mm: int | None = Field(None, ge=80, le=480)


spec_fields = kinds.spec_fields

CATEGORIES: dict[str, type[Part]] = {cls.category: cls for cls in (Cpu, Motherboard, Gpu, Psu, Ssd, Case, Ram, Cooler)}
