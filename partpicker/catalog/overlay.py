"""Your own parts and prices, on top of the bundled catalog (never instead of it).

An overlay file is YAML: ``parts:``, a list of entries, each either

- a new part: its category's fields plus ``category:`` (or one ``category:`` for the whole
  file, as in a catalog file); ``sources`` defaults to the overlay file;
- a price-only entry for a part already known (bundled, or from an earlier overlay):
  ``id:`` and ``prices:`` (dated points ``{usd, date, source, kind}``), nothing else.

A new part may not reuse a known id: an overlay adds, it never replaces. Every problem is
reported at once, each with file and line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from partpicker import yamlio
from partpicker.build import Build, Provenance
from partpicker.catalog.load import Catalog, Origin
from partpicker.errors import InputError
from partpicker.models import CATEGORIES, Part, Price

PRICE_ONLY_KEYS = frozenset({"id", "prices", "category"})


def marked(build: Build, catalog: Catalog) -> Build:
    """``build`` with where its user parts and prices came from (a build the solver made)."""
    found = {p.id: catalog.provenance(p) for _label, p, _count in build.items()}
    mine = {pid: known for pid, known in found.items() if known.origin or known.user_prices}
    return replace(build, provenance={**build.provenance, **mine}) if mine else build


def apply_overlays(catalog: Catalog, paths: Sequence[str | Path]) -> Catalog:
    """``catalog`` with each overlay file's parts and prices on top, in order (a copy: the
    catalog given is left as it was); InputError on any problem."""
    if not paths:
        return catalog
    out = catalog.copy()
    for path in paths:
        apply_overlay(out, path)
    return out


def apply_overlay(catalog: Catalog, path: str | Path) -> None:
    """Add one overlay file's parts and prices; every problem in one :class:`InputError`."""
    loaded = yamlio.read(path)
    spath = str(path)
    problems: list[tuple[int | None, str]] = [(d.line, d.message) for d in loaded.duplicates]
    entries, default_category = _entries(loaded.data, spath)
    for index, raw in enumerate(entries):
        line = yamlio.line_of(entries, [index])
        problems.extend(_apply_entry(catalog, raw, default_category, spath, line))
    if problems:
        problems.sort(key=lambda p: p[0] or 0)
        body = "\n".join(f"{spath}:{line}: {text}" for line, text in problems)
        head = problems[0][1] if len(problems) == 1 else f"{len(problems)} problems in your parts file:\n{body}"
        raise InputError(head, path=spath, line=problems[0][0], hint=OVERLAY_HINT)


OVERLAY_HINT = (
    "an overlay lists `parts:`: new parts (with `category:` and the category's fields) or "
    "price-only entries (`id:` of a known part and `prices:`); see README 'Your own parts and prices'"
)


def _entries(doc: Any, spath: str) -> tuple[list[Any], str | None]:
    """The raw entries of an overlay document and its file-wide category, if any."""
    if doc is None:
        return [], None
    if not isinstance(doc, dict) or "parts" not in doc or set(doc) - {"parts", "category"}:
        raise InputError(
            "a parts file is a mapping with `parts:` (and optionally one `category:`)",
            path=spath,
            line=yamlio.line_of(doc, []),
            hint=OVERLAY_HINT,
        )
    parts = doc.get("parts") or []
    if not isinstance(parts, list):
        raise InputError("`parts:` must be a list", path=spath, line=yamlio.line_of(doc, ["parts"]), hint=OVERLAY_HINT)
    category = doc.get("category")
    if category is not None and category not in CATEGORIES:
        raise InputError(
            f"unknown category {category!r}; use one of {', '.join(CATEGORIES)}",
            path=spath,
            line=yamlio.line_of(doc, ["category"]),
        )
    return parts, category


def _apply_entry(
    catalog: Catalog, raw: Any, default_category: str | None, spath: str, line: int | None
) -> list[tuple[int | None, str]]:
    """Add one entry (a part or prices); the problems found, as (line, text)."""
    if not isinstance(raw, dict):
        return [(line, "each entry is a mapping (a part, or `id:` and `prices:`)")]
    part_id = raw.get("id")
    known = catalog.parts.get(part_id) if isinstance(part_id, str) else None
    if known is not None:
        if set(raw) - PRICE_ONLY_KEYS:
            extra = ", ".join(sorted(str(k) for k in set(raw) - PRICE_ONLY_KEYS))
            return [
                (
                    yamlio.line_of(raw, ["id"]) or line,
                    f"{part_id!r} is already a part ({known.name}); an overlay never replaces a part: "
                    f"give only `id:` and `prices:` to add prices, or use a new id (not: {extra})",
                )
            ]
        return _add_prices(catalog, known, raw, spath, line)
    if isinstance(part_id, str) and set(raw) <= PRICE_ONLY_KEYS:
        return [(yamlio.line_of(raw, ["id"]) or line, f"no part has id {part_id!r} to add prices to")]
    return _add_part(catalog, raw, default_category, spath, line)


def _add_prices(catalog: Catalog, part: Part, raw: dict[str, Any], spath: str, line: int | None) -> list[Any]:
    prices = raw.get("prices")
    if not isinstance(prices, list) or not prices:
        return [(yamlio.line_of(raw, ["prices"]) or line, f"{part.id}: `prices:` must be a list of dated points")]
    points: list[Price] = []
    problems: list[tuple[int | None, str]] = []
    for index, value in enumerate(prices):
        try:
            points.append(Price.model_validate(value))
        except ValidationError as exc:
            for err in exc.errors():
                where = yamlio.line_of(raw, ["prices", index, *err["loc"]])
                problems.append((where, f"{part.id}: prices[{index}]: {_describe(err)}"))
    if problems:
        return problems
    catalog.replace(part.model_copy(update={"prices": [*part.prices, *points]}))
    before = catalog.overlay.get(part.id, Provenance())
    came = spath if before.prices_from in (None, spath) else f"{before.prices_from}; {spath}"
    catalog.overlay[part.id] = Provenance(before.origin, (*before.user_prices, *points), came)
    return []


def _add_part(
    catalog: Catalog, raw: dict[str, Any], default_category: str | None, spath: str, line: int | None
) -> list[Any]:
    category = raw.get("category", default_category)
    cls = CATEGORIES.get(category) if isinstance(category, str) else None
    if cls is None:
        return [
            (
                yamlio.line_of(raw, ["category"]) or line,
                f"{raw.get('id', 'a part')}: say its `category:` ({', '.join(CATEGORIES)})",
            )
        ]
    fields = {k: v for k, v in raw.items() if k != "category"}
    fields.setdefault("sources", [f"your parts file {spath}"])
    try:
        part = cls.model_validate(fields)
    except ValidationError as exc:
        label = raw.get("id") or raw.get("name") or "a part"
        return [(yamlio.line_of(raw, err["loc"]) or line, f"{label}: {_describe(err)}") for err in exc.errors()]
    catalog.add(part, Origin(spath, line, raw))
    catalog.overlay[part.id] = Provenance(f"your parts file {spath}:{line}", tuple(part.prices), spath)
    return []


def _describe(err: Any) -> str:
    loc = ".".join(str(x) for x in err["loc"])
    if err["type"] == "extra_forbidden":
        return f"unknown field {loc!r}; see catalogs/README.md for the fields of this category"
    if err["type"] == "missing":
        return f"required field {loc!r} is missing"
    return f"{loc}: {err['msg']}" if loc else str(err["msg"])
