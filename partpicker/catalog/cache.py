"""The bundled catalog, parsed and checked once and kept in the user cache folder (issue 14).

`validate`, `suggest` and the other commands load the bundled catalog and run the catalog
checks on it (``check_catalog(skip=CURATION_ONLY)``); parsing its YAML with line numbers is
most of a `validate`. The result -- every part as loaded, where each was defined, and the
problems found -- is stored with :mod:`partpicker.cache` under a key made of the catalog
files' bytes, the checks skipped, today's date (the checks judge prices against it), the
package version and its source files; the next run
makes the stored parts back (``msgspec`` MessagePack of plain data: no pickle, nothing from
the file is ever executed) without validating them again: as the same pydantic models
(:func:`partpicker.cache.flatten` and :func:`~partpicker.cache.rebuild`), or for `validate`
as their plain classes (:mod:`partpicker.kinds`: the models' bases, the same fields and
behaviour, and no pydantic to import; :func:`partpicker.kinds.make`). A stored file
that does not decode, or whose parts are not of their models' shape, is a miss: the catalog
is parsed again.

Catalogs named with ``--catalog`` and JSON Lines files (already fast) are not cached.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import msgspec

from partpicker import cache, pricing
from partpicker.catalog.load import Catalog, Origin, Problem, catalog_files

if TYPE_CHECKING:
    from partpicker.parts import Part

KIND = "bundled-catalog"


class _Part(msgspec.Struct, array_like=True):
    category: str
    path: str
    line: int | None
    data: list[Any]  # partpicker.cache.flatten


class _Problem(msgspec.Struct, array_like=True):
    check: str
    path: str
    line: int | None
    message: str
    part_id: str | None
    severity: str


class _Stored(msgspec.Struct, array_like=True):
    parts: list[_Part]
    problems: list[_Problem]


def checked_catalog(
    paths: Sequence[str | Path] | None = None, *, skip: frozenset[str] = frozenset(), plain: bool = False
) -> tuple[Catalog, list[Problem]]:
    """:func:`partpicker.catalog.checks.check_catalog`, from the cache for the bundled catalog:
    its parts as the pydantic models, or with ``plain`` as their plain classes (what `validate`
    reads: no pydantic to import; :mod:`partpicker.kinds`)."""
    files = None if paths else catalog_files(None)
    key = _key(files, skip) if files else None
    if key is not None:
        payload = cache.load(KIND, key)
        found = _decode(payload, plain=plain) if payload is not None else None
        if found is not None:
            return found
    from partpicker.catalog.checks import check_catalog

    catalog, problems = check_catalog(paths, skip=skip)
    if key is not None:
        cache.store(KIND, key, encode(catalog, problems))
    return catalog, problems


def _key(files: list[Path], skip: frozenset[str]) -> str | None:
    if cache.cache_dir() is None or any(f.suffix == ".jsonl" for f in files):
        return None
    # the checks read the catalog and today's date (a price dated after today is a problem)
    return cache.key_of(KIND, files, extra=f"{','.join(sorted(skip))};{pricing.today().isoformat()}")


def encode(catalog: Catalog, problems: Sequence[Problem]) -> bytes:
    """The catalog and its problems as MessagePack of plain data."""
    parts = [
        _Part(part.category, origin.path, origin.line, cache.flatten(part))
        for part, origin in ((p, catalog.origin[p.id]) for p in catalog.parts.values())
    ]
    found = [_Problem(p.check, p.path, p.line, p.message, p.part_id, p.severity) for p in problems]
    return msgspec.msgpack.encode(_Stored(parts, found))


def _decode(payload: bytes, *, plain: bool = False) -> tuple[Catalog, list[Problem]] | None:
    """The catalog and problems stored, or None if the payload is not a catalog this code wrote."""
    from partpicker.kinds import KINDS, make

    def made(category: str, data: Any) -> Part:
        if plain:
            return cast("Part", make(KINDS[category], data))
        from partpicker.models import CATEGORIES

        return cache.rebuild(CATEGORIES[category], data)

    try:
        stored = msgspec.msgpack.decode(payload, type=_Stored)
    except (msgspec.DecodeError, ValueError, TypeError):
        return None
    catalog = Catalog()
    try:
        for entry in stored.parts:
            catalog.add(made(entry.category, entry.data), Origin(entry.path, entry.line, None))
    except (KeyError, ValueError, TypeError):
        return None
    problems = [Problem(p.check, p.path, p.line, p.message, p.part_id, p.severity) for p in stored.problems]
    return catalog, problems
