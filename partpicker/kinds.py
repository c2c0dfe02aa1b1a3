"""The part classes without pydantic: what a warm `validate` reads its cached catalog into.

Issue 14: importing pydantic and making the part models' classes costs about all of the 0.3 s
a warm `validate` may take. The bundled catalog in the cache was validated when it was
stored, so the warm path makes its parts as plain objects of the classes here: the same
attributes (in ``__dict__``, as pydantic keeps them), the same behaviour (``price_as_of``,
``evidence_of``, ``total_gb``, ``category``, ``model_copy``), immutable. Each pydantic model
of :mod:`partpicker.models` subclasses its class here, so ``isinstance(part, kinds.Cpu)``
holds for both; every module on the `validate` path imports its part classes from
:mod:`partpicker.parts` (these classes under the models' names). ``FIELDS`` is each model's fields in order (a test
holds it equal to ``model_fields``); ``NESTED`` says how a stored field is made again
(:func:`make`, the plain counterpart of :func:`partpicker.cache.rebuild`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

K = TypeVar("K", bound="Plain")
Nested = dict[str, Callable[[Any], Any]]

WEAK_EVIDENCE: frozenset[str] = frozenset({"derived", "recalled"})
"""Evidence kinds a pass may rest on only with a 'verify before you buy' note."""


class Plain:
    """A record of named values in ``__dict__``, immutable, made by :func:`make` or ``of``."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()
    NESTED: ClassVar[dict[str, Callable[[Any], Any]]] = {}

    @classmethod
    def of(cls: type[K], **values: Any) -> K:
        """A plain record of ``values`` (every field: the caller gives the defaults)."""
        made = object.__new__(cls)
        object.__setattr__(made, "__dict__", {name: values[name] for name in cls.FIELDS})
        return made

    def model_copy(self: K, *, update: dict[str, Any] | None = None) -> K:
        """A copy with ``update`` applied, not validated (as pydantic's ``model_copy``)."""
        made = object.__new__(type(self))
        object.__setattr__(made, "__dict__", {**self.__dict__, **(update or {})})
        return made

    def model_dump(self) -> dict[str, Any]:
        """The values as plain data, nested records as dicts (as pydantic's ``model_dump``)."""
        return {name: _dumped(value) for name, value in self.__dict__.items()}

    def __setattr__(self, name: str, value: Any) -> None:
        raise TypeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        return hash((type(self), *self.__dict__.values()))

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items())
        return f"{type(self).__name__.removesuffix('Kind')}({inner})"


def _dumped(value: Any) -> Any:
    if isinstance(value, Plain):
        return value.model_dump()
    if isinstance(value, list):
        return [_dumped(v) for v in value]
    if isinstance(value, dict):
        return {k: _dumped(v) for k, v in value.items()}
    return value


# Plain subclasses carry their data in ``__dict__`` (no __slots__ below), as pydantic models do.


def make(cls: type[K], data: Any) -> K:
    """A plain ``cls`` of what :func:`partpicker.cache.flatten` stored for its model (a bit
    mask of the fields set, then every field's value in field order); ``ValueError`` (or
    ``TypeError``) if the data is not of that shape."""
    if type(data) is not list or len(data) != len(cls.FIELDS) + 1 or type(data[0]) is not int:
        raise ValueError(f"stored data is not a {cls.__name__}")
    values = dict(zip(cls.FIELDS, data[1:], strict=True))
    for name, into in cls.NESTED.items():
        values[name] = into(values[name])
    made = object.__new__(cls)
    object.__setattr__(made, "__dict__", values)
    return made


def _day(value: Any) -> dt.date:
    if type(value) is not str:
        raise TypeError("stored date is not text")
    return dt.date.fromisoformat(value)


def _opt(into: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else into(value)


def list_of(cls: type[Plain]) -> Callable[[Any], Any]:
    def each(value: Any) -> list[Any]:
        if type(value) is not list:
            raise ValueError("stored data is not a list")
        return [make(cls, item) for item in value]

    return each


def dict_of(cls: type[Plain]) -> Callable[[Any], Any]:
    def each(value: Any) -> dict[Any, Any]:
        if type(value) is not dict:
            raise ValueError("stored data is not a mapping")
        return {key: make(cls, item) for key, item in value.items()}

    return each


def _one(cls: type[Plain]) -> Callable[[Any], Any]:
    return lambda value: make(cls, value)


class PriceKind(Plain):
    FIELDS = ("usd", "date", "source", "kind")
    NESTED: ClassVar[Nested] = {"date": _day}


class EvidenceKind(Plain):
    FIELDS = ("kind", "source", "note")


class PartKind(Plain):
    """What every part has and does."""

    category: ClassVar[str] = "part"
    FIELDS: ClassVar[tuple[str, ...]] = (
        "id",
        "name",
        "brand",
        "aliases",
        "released",
        "prices",
        "sources",
        "notes",
        "evidence",
        "field_evidence",
    )
    NESTED: ClassVar[Nested] = {
        "released": _opt(_day),
        "prices": list_of(PriceKind),
        "field_evidence": dict_of(EvidenceKind),
    }
    if TYPE_CHECKING:
        prices: list[Any]
        evidence: str | None
        notes: str | None
        field_evidence: dict[str, Any]

    def evidence_of(self, field: str) -> Any:
        """The evidence for one spec field: its own entry, else the part's default kind, else None."""
        own = self.field_evidence.get(field)
        if own is not None:
            return own
        if self.evidence is None:
            return None
        note = self.notes if self.evidence in WEAK_EVIDENCE else None  # the notes name the document
        return EvidenceKind.of(kind=self.evidence, source=None, note=note)

    def price_as_of(self, day: dt.date) -> Any:
        """The latest price point on or before ``day`` (MSRP and street alike), or None."""
        best = None
        for point in self.prices:
            if point.date <= day and (best is None or point.date >= best.date):
                best = point
        return best


def _fields(*names: str) -> tuple[str, ...]:
    return (*PartKind.FIELDS, *names)


class CpuKind(PartKind):
    category: ClassVar[str] = "cpu"
    FIELDS = _fields(
        "socket",
        "cores",
        "threads",
        "pcie_lanes",
        "pcie_lanes_total",
        "pcie_gen",
        "tdp_w",
        "memory_types",
        "memory_channels",
        "max_memory_gb",
        "ecc",
    )


class SharingKind(Plain):
    FIELDS = ("when", "lanes")


class PcieSlotKind(Plain):
    FIELDS = ("label", "position", "physical", "lanes", "lanes_by_cpu", "gen", "source", "shares")
    NESTED: ClassVar[Nested] = {"shares": list_of(SharingKind)}


def most_lanes(slot: Any) -> int:
    """The most electrical lanes a PCIe slot can have: with its usual CPU, any other, or while
    another slot is in use (``slot``: a slot of a part, a record or a plain one alike)."""
    most = max(slot.lanes, *slot.lanes_by_cpu.values()) if slot.lanes_by_cpu else slot.lanes
    for share in slot.shares or ():  # (a loop: this runs for every x16 slot of every board)
        if share.lanes > most:
            most = share.lanes
    return int(most)


class M2SlotKind(Plain):
    FIELDS = ("label", "interfaces", "lanes", "gen", "source", "max_length", "shares")
    NESTED: ClassVar[Nested] = {"shares": _opt(list_of(SharingKind))}


class MotherboardKind(PartKind):
    category: ClassVar[str] = "motherboard"
    FIELDS = _fields(
        "socket",
        "chipset",
        "form_factor",
        "memory_type",
        "memory_slots",
        "max_memory_gb",
        "memory_registered",
        "pcie_slots",
        "m2_slots",
    )
    NESTED: ClassVar[Nested] = {
        **PartKind.NESTED,
        "pcie_slots": _opt(list_of(PcieSlotKind)),
        "m2_slots": _opt(list_of(M2SlotKind)),
    }


class GpuPowerKind(Plain):
    FIELDS = ("pcie_6pin", "pcie_8pin", "hpwr_12v")


class GpuKind(PartKind):
    category: ClassVar[str] = "gpu"
    FIELDS = _fields("chip", "vram_gb", "board_power_w", "slot_width", "length_mm", "cooler", "power", "pcie_gen")
    NESTED: ClassVar[Nested] = {**PartKind.NESTED, "power": _opt(_one(GpuPowerKind))}


class PsuKind(PartKind):
    category: ClassVar[str] = "psu"
    FIELDS = _fields(
        "watts", "low_line_watts", "form_factor", "pcie_8pin", "hpwr_12v", "efficiency", "atx_version", "length_mm"
    )


class SsdKind(PartKind):
    category: ClassVar[str] = "ssd"
    FIELDS = _fields("interface", "form_factor", "capacity_gb", "pcie_gen", "read_mbps")


class CaseKind(PartKind):
    category: ClassVar[str] = "case"
    FIELDS = _fields(
        "form_factors",
        "expansion_slots",
        "max_gpu_length_mm",
        "psu_form_factors",
        "psu_mounts",
        "max_cooler_height_mm",
    )


class RamKind(PartKind):
    category: ClassVar[str] = "ram"
    FIELDS = _fields("memory_type", "modules", "module_gb", "speed_mts", "ecc", "registered")
    if TYPE_CHECKING:
        modules: int
        module_gb: int

    @property
    def total_gb(self) -> int:
        return self.modules * self.module_gb


class CoolerKind(PartKind):
    category: ClassVar[str] = "cooler"
    FIELDS = _fields("kind", "sockets", "bracket_sockets", "height_mm", "radiator_mm")


KINDS: dict[str, type[PartKind]] = {
    cls.category: cls for cls in (CpuKind, MotherboardKind, GpuKind, PsuKind, SsdKind, CaseKind, RamKind, CoolerKind)
}
"""The plain part class of each category, in the order of :data:`partpicker.models.CATEGORIES`."""

NOT_SPECS = frozenset({"id", "name", "brand", "aliases", "prices", "sources", "notes", "evidence", "field_evidence"})


def spec_fields(cls: type[Any]) -> tuple[str, ...]:
    """The fields of a part class (a model or its plain class) that are specs (facts a rule
    may read), in declaration order."""
    return tuple(name for name in cls.FIELDS if name not in NOT_SPECS)
