"""Search the catalog by name as people type it, narrowed by specs and price as of a date.

A query is matched on tokens by :func:`partpicker.catalog.names.search` (the resolver's
identity rules: "RTX 3090" lists every 3090 card and no 3090 Ti); when nothing fits, the
parts nearest by spelling are listed instead, marked as such. A filter keeps only the
parts whose spec is known to meet it; parts left out because the spec is unknown are
counted, never silently passed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from partpicker import vocab
from partpicker.catalog import Catalog, names
from partpicker.errors import ExitCode, InputError
from partpicker.models import CATEGORIES, Case, Cooler, Cpu, Gpu, Motherboard, Part, Price, Psu, Ram, Ssd
from partpicker.pricing import price_of


@dataclass(frozen=True)
class Filters:
    """What a found part must meet; None: no filter."""

    category: str | None = None
    min_vram: float | None = None
    min_cores: int | None = None
    min_watts: int | None = None
    min_capacity_gb: int | None = None
    socket: str | None = None
    form_factor: str | None = None
    memory_type: str | None = None
    max_price: float | None = None


@dataclass(frozen=True)
class Hit:
    """A part found, with its price as of the date and where it came from."""

    part: Part
    price: Price | None
    origin: str | None
    """Where the part came from when not the bundled catalog."""
    user_price: bool
    """Whether the price shown came from the user."""


@dataclass(frozen=True)
class Found:
    """The answer to a search."""

    query: str
    filters: Filters
    as_of: dt.date
    hits: tuple[Hit, ...]
    how: Literal["match", "nearest", "all"]
    """match: parts fitting the query's words; nearest: nothing fit, closest by spelling; all: no query."""
    unknown: dict[str, int]
    """Parts left out by a filter because the spec it reads is unknown, by filter."""
    total: int
    """Hits before ``limit`` was applied."""

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.CLEAN if self.hits and self.how != "nearest" else ExitCode.FINDINGS


# A filter reads one spec of some categories: (filter name, category) -> the part's value.
_Getter = Callable[[Part], object]
_READS: dict[str, dict[str, _Getter]] = {
    "min_vram": {"gpu": lambda p: p.vram_gb if isinstance(p, Gpu) else None},
    "min_cores": {"cpu": lambda p: p.cores if isinstance(p, Cpu) else None},
    "min_watts": {"psu": lambda p: p.watts if isinstance(p, Psu) else None},
    "min_capacity_gb": {
        "ssd": lambda p: p.capacity_gb if isinstance(p, Ssd) else None,
        "ram": lambda p: p.total_gb if isinstance(p, Ram) else None,
    },
    "socket": {
        "cpu": lambda p: [p.socket] if isinstance(p, Cpu) else None,
        "motherboard": lambda p: [p.socket] if isinstance(p, Motherboard) else None,
        "cooler": lambda p: [*p.sockets, *p.bracket_sockets] if isinstance(p, Cooler) else None,
    },
    "form_factor": {
        "motherboard": lambda p: [p.form_factor] if isinstance(p, Motherboard) else None,
        "case": lambda p: p.form_factors if isinstance(p, Case) else None,
        "ssd": lambda p: [p.form_factor] if isinstance(p, Ssd) else None,
        "psu": lambda p: None if not isinstance(p, Psu) or p.form_factor is None else [p.form_factor],
    },
    "memory_type": {
        "ram": lambda p: [p.memory_type] if isinstance(p, Ram) else None,
        "motherboard": lambda p: None if not isinstance(p, Motherboard) or not p.memory_type else [p.memory_type],
        "cpu": lambda p: (p.memory_types or None) if isinstance(p, Cpu) else None,
    },
}


def find(catalog: Catalog, query: str, filters: Filters, day: dt.date, limit: int = 20) -> Found:
    """The parts ``query`` names, narrowed by ``filters``, priced as of ``day``."""
    filters = _canonical(filters)
    categories = _categories(filters)
    matched: list[Part] = []
    how: Literal["match", "nearest", "all"] = "all" if not query.strip() else "match"
    for category in categories:
        pool = catalog.by_category.get(category, [])
        matched += list(pool) if how == "all" else _matching(query, category, pool)
    if not matched and how == "match":
        how = "nearest"
        for category in categories:
            matched += names.closest(query, category, catalog.by_category.get(category, []), min(limit, 5))
    unknown: dict[str, int] = {}
    kept = [p for p in matched if _meets(p, filters, day, unknown)]
    if how == "all":
        kept.sort(key=lambda p: (p.category, p.name.casefold()))
    hits = tuple(_hit(catalog, p, day) for p in kept[:limit])
    return Found(query, filters, day, hits, how, unknown, len(kept))


def _matching(query: str, category: str, pool: list[Part]) -> list[Part]:
    """The parts of one category the query fits: the part it names exactly (id, name, alias)
    first, then every part its words and specs fit."""
    named = names.resolve(query, category, pool)
    first = [named.part] if isinstance(named, names.Resolved) and named.how != "tokens" else []
    return first + [p for p in names.search(query, category, pool) if p not in first]


def _categories(filters: Filters) -> list[str]:
    """The categories searched: the one asked, else those every given spec filter reads."""
    if filters.category is not None:
        return [filters.category]
    out = list(CATEGORIES)
    for name, reads in _READS.items():
        if getattr(filters, name) is not None:
            out = [c for c in out if c in reads]
    return out


def _canonical(filters: Filters) -> Filters:
    """Filters with the vocabulary spelt the catalog's way; a bad word or a spec filter that
    does not apply to the category is an :class:`InputError`."""
    if filters.category is not None and filters.category not in CATEGORIES:
        raise InputError(f"unknown category {filters.category!r}", hint=f"use one of {', '.join(CATEGORIES)}")
    for name, reads in _READS.items():
        if getattr(filters, name) is not None and filters.category is not None and filters.category not in reads:
            option = "--" + name.replace("_", "-")
            raise InputError(
                f"{option} does not apply to a {filters.category}", hint=f"{option} applies to: {', '.join(reads)}"
            )
    socket, form = filters.socket, filters.form_factor
    if socket is not None:
        socket = vocab.socket(socket) or _bad("socket", socket)
    if form is not None:
        form = vocab.form_factor(form) or _known_word(form, vocab.SSD_FORM_FACTORS + vocab.PSU_FORM_FACTORS)
    memory = filters.memory_type
    if memory is not None:
        memory = _known_word(memory, vocab.MEMORY_TYPES)
    return Filters(**{**filters.__dict__, "socket": socket, "form_factor": form, "memory_type": memory})


def _known_word(word: str, words: list[str]) -> str:
    found = {w.casefold(): w for w in words}.get(word.casefold())
    return found if found is not None else _bad("word", word)


def _bad(kind: str, word: str) -> str:
    raise InputError(f"unknown {kind} {word!r}", hint="use a spelling the catalog uses (see `partpicker catalog list`)")


def _meets(part: Part, filters: Filters, day: dt.date, unknown: dict[str, int]) -> bool:
    """Whether ``part`` is known to meet every filter (a part with the spec unknown is counted)."""
    for name, reads in _READS.items():
        wanted = getattr(filters, name)
        if wanted is None:
            continue
        have = reads[part.category](part) if part.category in reads else None
        if have is None:
            unknown[name] = unknown.get(name, 0) + 1
            return False
        ok = wanted in have if isinstance(have, list) else isinstance(have, int | float) and have >= wanted
        if not ok:
            return False
    if filters.max_price is not None:
        point = price_of(part, day)
        if point is None:
            unknown["max_price"] = unknown.get("max_price", 0) + 1
            return False
        if point.usd > filters.max_price:
            return False
    return True


def _hit(catalog: Catalog, part: Part, day: dt.date) -> Hit:
    point = price_of(part, day)
    known = catalog.provenance(part)
    return Hit(part, point, known.origin, point is not None and point in known.user_prices)
