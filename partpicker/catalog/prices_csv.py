"""`partpicker prices import FILE.csv`: dated prices from a spreadsheet into a price overlay.

Columns (a header row, any order): ``id`` or ``name`` (a name is resolved like a build
file's; add ``category`` when a name could be of several), ``usd``, ``date`` (YYYY-MM-DD),
``source`` (default: the CSV file's name), ``kind`` (msrp, street or used; default street).
Every bad row is reported at once with its line; nothing is written unless all rows are good.
The overlay is the price-only entries of :mod:`partpicker.catalog.overlay`; importing into an
existing overlay adds the new points to its entries (a point already there is not repeated).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from partpicker import yamlio
from partpicker.catalog.load import Catalog
from partpicker.errors import InputError
from partpicker.models import CATEGORIES, Part, Price
from partpicker.pricing import today

COLUMNS = ("id", "name", "category", "usd", "date", "source", "kind")
HINT = "columns: id or name (and category), usd, date (YYYY-MM-DD), source, kind (msrp|street|used)"


def read_prices(path: str | Path, catalog: Catalog) -> list[tuple[str, Price]]:
    """(part id, price point) for every row of the CSV file; InputError listing every bad row."""
    rows = _rows(path)
    out: list[tuple[str, Price]] = []
    problems: list[tuple[int, str]] = []
    default_source = Path(path).name
    for line, row in rows:
        try:
            part = _part(row, catalog)
            point = Price.model_validate(
                {
                    "usd": row.get("usd"),
                    "date": row.get("date"),
                    "source": row.get("source") or default_source,
                    "kind": row.get("kind") or "street",
                },
                strict=False,  # CSV cells are text: "59.99" is the number; inf and nan still are not
            )
            if point.date > today():  # as catalog check: a price is a fact of a day that has come
                raise ValueError(f"date {point.date} is in the future (today is {today()})")
        except (LookupError, ValueError) as exc:
            problems.append((line, _reason(exc)))
            continue
        out.append((part.id, point))
    if len(problems) == 1:
        raise InputError(problems[0][1], path=path, line=problems[0][0], hint=HINT)
    if problems:
        listed = "\n".join(f"line {line}: {why}" for line, why in problems)
        raise InputError(f"{len(problems)} bad rows:\n{listed}", path=path, hint=HINT)
    return out


def _rows(path: str | Path) -> list[tuple[int, dict[str, str]]]:
    """(line, cells by column) for every data row; InputError on an unreadable file or bad header."""
    reader = csv.DictReader(io.StringIO(_text(path)))
    header = [h.strip().casefold() for h in reader.fieldnames or []]
    unknown = [h for h in header if h not in COLUMNS]
    if not header or unknown or "usd" not in header or not {"id", "name"} & set(header):
        what = f"unknown column(s) {', '.join(unknown)}" if unknown else "the header row lacks id or name, or usd"
        raise InputError(what, path=path, line=1, hint=HINT)
    reader.fieldnames = header
    return [(reader.line_num, {k: (v or "").strip() for k, v in row.items() if isinstance(k, str)}) for row in reader]


def _text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError("file not found", path=path, hint="check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", path=path, hint="save the file as UTF-8 CSV") from None


def _part(row: dict[str, str], catalog: Catalog) -> Part:
    if row.get("id"):
        found = catalog.parts.get(row["id"])
        if found is None:
            raise LookupError(f"no part has id {row['id']!r} (`partpicker find` lists ids)")
        return found
    name, category = row.get("name", ""), row.get("category", "")
    if not name:
        raise LookupError("give the part's id or name")
    if category:
        if category not in CATEGORIES:
            raise LookupError(f"unknown category {category!r}; use one of {', '.join(CATEGORIES)}")
        return catalog.resolve(name, category)
    fits = []
    for cat in CATEGORIES:
        try:
            fits.append(catalog.resolve(name, cat))
        except LookupError:
            continue
    fits = [p for p in fits if not p.id.startswith("generic-")]
    if len(fits) != 1:
        said = "no part" if not fits else "parts of several categories (" + ", ".join(p.id for p in fits) + ")"
        raise LookupError(f"{name!r} names {said}; give its id, or add a category column")
    return fits[0]


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        loc = ".".join(str(x) for x in err["loc"])
        return f"{loc}: {err['msg']} (got {err.get('input')!r})"
    return str(exc).replace("\n", "\n  ")


def merged_overlay(existing: Path | None, points: list[tuple[str, Price]]) -> tuple[str, int]:
    """The text of a price overlay: ``existing``'s entries (if the file exists) plus ``points``,
    and how many of ``points`` it did not hold already."""
    entries: list[dict[str, Any]] = []
    if existing is not None and existing.is_file():
        doc = yamlio.read(existing).data or {}
        if not isinstance(doc, dict) or not isinstance(doc.get("parts", []), list):
            raise InputError("not a parts file (no `parts:` list)", path=existing, hint="name a new --output file")
        entries = [dict(e) for e in doc.get("parts") or []]
    by_id = {e.get("id"): e for e in entries if isinstance(e, dict) and set(e) <= {"id", "prices"}}
    added = 0
    for part_id, point in points:
        entry = by_id.get(part_id)
        if entry is None:
            entry = by_id[part_id] = {"id": part_id, "prices": []}
            entries.append(entry)
        prices = entry.setdefault("prices", [])
        dumped = point.model_dump()
        if dumped not in [dict(p) for p in prices]:
            prices.append(dumped)
            added += 1
    head = "# Prices imported by `partpicker prices import`; an overlay on top of the bundled catalog.\n"
    return head + yaml.safe_dump({"parts": _plain(entries)}, sort_keys=False, allow_unicode=True), added


def _plain(value: Any) -> Any:
    """Line-numbered YAML containers as plain ones, for dumping."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
