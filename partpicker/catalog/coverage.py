"""`partpicker catalog coverage`: how many parts know each decisive field, by evidence kind.

The decisive fields of a category are data: the union of the fields the rules read for
that role (each rule's ``reads:``, passed in by the caller, since rules sit above the
catalog), in model order, plus ``prices``. A field is known when it is not ``None`` (and,
for the list fields in :data:`EMPTY_IS_UNKNOWN`, not empty); its kind is the part's
``evidence_of(field)``, ``unstated`` when neither the field nor the part says. A price is
known when the part has a dated price point (its evidence is that point's source and date,
so it has no kind column).

The HEDT / workstation / EPYC platforms (the CPUs and boards of the sockets and chipsets
below) are reported as their own group, ahead of the whole catalog.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from partpicker.catalog.load import Catalog
from partpicker.models import CATEGORIES, EVIDENCE_KINDS, Part

PRICES = "prices"
UNSTATED = "unstated"
KINDS: tuple[str, ...] = (*EVIDENCE_KINDS, UNSTATED)

HEDT_SOCKETS = frozenset({"sTR4", "sTRX4", "sWRX8", "sTR5", "SP3", "LGA2011-3", "LGA2066", "LGA4677", "LGA3647"})
HEDT_CHIPSETS = frozenset({"X99", "X399", "TRX40", "TRX50", "WRX80", "WRX90", "X299", "C422", "W790"})
HEDT_TITLE = "HEDT / workstation / EPYC platforms"

EMPTY_IS_UNKNOWN = frozenset({("cpu", "memory_types"), ("case", "psu_form_factors")})
"""List fields whose empty list means 'not known' (a CPU takes some memory, a case some PSU);
other empty lists mean none (a cooler with no extra brackets, a board with no M.2)."""


def decisive_fields(reads: Iterable[Mapping[str, Iterable[str]]]) -> dict[str, tuple[str, ...]]:
    """Per category, the fields any rule reads (in model order), then ``prices``."""
    wanted: dict[str, set[str]] = {}
    for rule_reads in reads:
        for role, names in rule_reads.items():
            wanted.setdefault(role, set()).update(names)
    return {
        cat: (*(f for f in cls.model_fields if f in wanted.get(cat, set())), PRICES) for cat, cls in CATEGORIES.items()
    }


def is_hedt(part: Part) -> bool:
    """A CPU or board of a HEDT, workstation or EPYC platform (by socket, or by chipset)."""
    if part.category not in ("cpu", "motherboard"):
        return False
    socket = getattr(part, "socket", None)
    chipset = str(getattr(part, "chipset", None) or "")
    return socket in HEDT_SOCKETS or any(word in HEDT_CHIPSETS for word in chipset.replace("-", " ").split())


def known(part: Part, name: str) -> bool:
    """Whether ``part`` knows the decisive field ``name``."""
    if name == PRICES:
        return bool(part.prices)
    value = getattr(part, name)
    if value is None:
        return False
    return not (value in ([], ()) and (part.category, name) in EMPTY_IS_UNKNOWN)  # a record's lists are tuples


def kind_of(part: Part, name: str) -> str | None:
    """The evidence kind of a known field (``unstated`` if none is given); None for prices."""
    if name == PRICES:
        return None
    ev = part.evidence_of(name)
    return ev.kind if ev is not None else UNSTATED


@dataclass(frozen=True)
class FieldCoverage:
    """One decisive field of one category within a group."""

    field: str
    total: int
    by_kind: dict[str, int]
    """Known values per evidence kind (empty for prices)."""
    missing: tuple[str, ...]
    """Ids of the parts that do not know it."""

    @property
    def known(self) -> int:
        return self.total - len(self.missing)

    @property
    def share(self) -> float:
        return self.known / self.total if self.total else 1.0


@dataclass(frozen=True)
class CategoryCoverage:
    category: str
    parts: int
    fields: tuple[FieldCoverage, ...]


@dataclass(frozen=True)
class GroupCoverage:
    """A group of parts (the HEDT platforms, or all parts) and its categories' coverage."""

    key: str
    title: str
    categories: tuple[CategoryCoverage, ...] = field(default_factory=tuple)

    @property
    def known(self) -> int:
        return sum(f.known for c in self.categories for f in c.fields)

    @property
    def total(self) -> int:
        return sum(f.total for c in self.categories for f in c.fields)

    @property
    def share(self) -> float:
        return self.known / self.total if self.total else 1.0


def field_coverage(parts: list[Part], name: str) -> FieldCoverage:
    by_kind: dict[str, int] = {}
    missing = []
    for part in parts:
        if not known(part, name):
            missing.append(part.id)
            continue
        kind = kind_of(part, name)
        if kind is not None:
            by_kind[kind] = by_kind.get(kind, 0) + 1
    return FieldCoverage(name, len(parts), by_kind, tuple(sorted(missing)))


def group(key: str, title: str, parts: Iterable[Part], decisive: Mapping[str, tuple[str, ...]]) -> GroupCoverage:
    """The coverage of ``parts``, per category (categories with no parts left out)."""
    by_cat: dict[str, list[Part]] = {}
    for part in parts:
        by_cat.setdefault(part.category, []).append(part)
    cats = tuple(
        CategoryCoverage(cat, len(by_cat[cat]), tuple(field_coverage(by_cat[cat], f) for f in decisive[cat]))
        for cat in CATEGORIES
        if by_cat.get(cat)
    )
    return GroupCoverage(key, title, cats)


def coverage(
    catalog: Catalog, decisive: Mapping[str, tuple[str, ...]], category: str | None = None
) -> tuple[GroupCoverage, ...]:
    """The HEDT group (left out when it has no part, e.g. for ``category`` gpu), then all parts
    (of ``category`` only, if given: titled so)."""
    parts = [p for p in catalog if category in (None, p.category)]
    hedt = [p for p in parts if is_hedt(p)]
    every = group("all", "All parts" if category is None else f"All {category} parts", parts, decisive)
    return (group("hedt", HEDT_TITLE, hedt, decisive), every) if hedt else (every,)


def to_dict(groups: Iterable[GroupCoverage], gaps: bool = True) -> dict[str, Any]:
    """The JSON shape: groups, categories, fields with counts by kind (and the missing ids)."""
    return {
        "kinds": list(KINDS),
        "groups": [
            {
                "group": g.key,
                "title": g.title,
                "known": g.known,
                "total": g.total,
                "share": round(g.share, 4),
                "categories": [
                    {
                        "category": c.category,
                        "parts": c.parts,
                        "fields": [_field_dict(f, gaps) for f in c.fields],
                    }
                    for c in g.categories
                ],
            }
            for g in groups
        ],
    }


def _field_dict(f: FieldCoverage, gaps: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "field": f.field,
        "known": f.known,
        "total": f.total,
        "share": round(f.share, 4),
        "by_kind": {k: f.by_kind.get(k, 0) for k in KINDS} if f.field != PRICES else None,
    }
    if gaps:
        out["missing"] = list(f.missing)
    return out
