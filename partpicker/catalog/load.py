"""Load catalog YAML files into typed parts, and find a part by id, name, alias or fuzzy name."""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import os
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from partpicker import yamlio
from partpicker.build import Provenance
from partpicker.errors import InputError, excerpt, printable
from partpicker.parts import KINDS, Part
from partpicker.paths import catalog_dir

if TYPE_CHECKING:
    from partpicker.catalog import records  # the JSON Lines path imports it when it runs (issue 14)


@dataclass(frozen=True)
class Problem:
    """Something wrong in a catalog file, found while loading or checking it."""

    check: str
    path: str
    line: int | None
    message: str
    part_id: str | None = None
    severity: str = "error"
    """error (``catalog check`` exits 1) or warning (reported; the check still passes)."""


@dataclass(frozen=True)
class Origin:
    """Where a part is defined."""

    path: str
    line: int | None
    raw: Any = field(compare=False, repr=False)


class Catalog:
    """All parts, by id and by category, with where each was defined.

    Parts from JSON Lines files are kept as slim records (:mod:`partpicker.catalog.records`)
    until asked for: :meth:`entries` gives them as they are (what `suggest` reduces), and
    ``parts``, ``by_category`` and ``origin`` make every pydantic part on first use.
    """

    def __init__(self) -> None:
        self._parts: dict[str, Part] = {}
        self._origin: dict[str, Origin] = {}
        self._by_category: dict[str, list[Part]] = {cat: [] for cat in KINDS}
        self._records: dict[str, Any] = {}
        self._entries: dict[str, list[Any]] = {cat: [] for cat in KINDS}
        self._files: list[Path] = []
        self._made: dict[str, Part] = {}
        self._models: list[Part] = []
        self.memo: dict[Hashable, Any] = {}
        """What commands compute once per catalog (each part's price as of a day, its class
        for a set of fields), emptied whenever a part is added or replaced."""
        self.overlay: dict[str, Provenance] = {}
        """Parts and prices that came from the user (parts files, price imports), by part id."""
        self.reduction: Any = None
        """Set when the catalog holds only the parts one `suggest` request can choose (read
        streaming: :mod:`partpicker.suggest.reduce`): what it knows of the parts left out."""

    def add(self, part: Part, origin: Origin) -> None:
        self.memo.clear()
        self._models.append(part)
        self._parts[part.id] = part
        self._origin[part.id] = origin
        self._by_category[part.category].append(part)
        self._entries[part.category].append(part)

    def add_file(self, path: Path) -> int:
        """Note a JSON Lines file; its number for :meth:`add_record`."""
        self._files.append(path)
        return len(self._files) - 1

    def add_record(self, record: Any, category: str) -> None:
        """Add a slim record of a JSON Lines part (made into a part when asked for)."""
        self.memo.clear()
        self._records[record.id] = record
        self._entries[category].append(record)

    def models(self) -> list[Part]:
        """The parts added as models (YAML), in order; not those made of JSON Lines records
        (the loader checked those line by line)."""
        return self._models

    def has(self, part_id: str) -> bool:
        return part_id in self._parts or part_id in self._records

    def origin_of(self, part_id: str) -> Origin:
        if part_id in self._origin:
            return self._origin[part_id]
        record = self._records[part_id]
        return Origin(str(self._files[record.file_no]), record.line, None)

    def entries(self, category: str) -> list[Any]:
        """The parts of a category as loaded, in order: pydantic parts, and slim records of
        JSON Lines parts (they read alike: the same spec fields, ``id``, ``name``,
        ``price_as_of``); :meth:`part_of` makes the part of one."""
        return self._entries[category]

    def part_of(self, entry: Any) -> Part:
        """The pydantic part of an entry (itself, or made from its record's line)."""
        if isinstance(entry, Part):
            return entry
        made = self._made.get(entry.id)
        if made is None:
            from partpicker.catalog import records

            with self._files[entry.file_no].open("rb") as handle:
                made = self._made[entry.id] = records.part_from_line(handle, entry)
        return made

    def part_at(self, file_no: int, offset: int) -> Part:
        """The pydantic part of the line at ``offset`` of JSON Lines file ``file_no`` (a part
        read but not kept: :attr:`reduction`)."""
        from partpicker.catalog import records

        with self._files[file_no].open("rb") as handle:
            return records.part_at(handle, offset)

    def _materialise(self) -> None:
        if not self._records:
            return
        pending, self._records = self._records, {}
        for record in pending.values():
            part = self.part_of(record)
            self._parts[part.id] = part
            self._origin[part.id] = Origin(str(self._files[record.file_no]), record.line, None)
        for category, entries in self._entries.items():
            self._by_category[category] = [self.part_of(e) for e in entries]
            self._entries[category] = list(self._by_category[category])

    @property
    def parts(self) -> dict[str, Part]:
        self._materialise()
        return self._parts

    @property
    def origin(self) -> dict[str, Origin]:
        self._materialise()
        return self._origin

    @property
    def by_category(self) -> dict[str, list[Part]]:
        self._materialise()
        return self._by_category

    def __len__(self) -> int:
        return len(self._parts) + len(self._records)

    def __iter__(self) -> Iterator[Part]:
        return iter(self.parts.values())

    def resolve(self, name: str, category: str) -> Part:
        """Find a part of ``category`` by id, exact name, alias, or a clear fuzzy match
        (:func:`partpicker.catalog.resolve.resolve`); ``LookupError`` lists the candidates."""
        from partpicker.catalog import resolve  # (names and their patterns: only where a name is looked up)

        return resolve.resolve(self, name, category)

    def provenance(self, part: Part) -> Provenance:
        """Where ``part`` and its user prices came from (empty for a bundled part)."""
        found = self.overlay.get(part.id)
        if found is not None:
            return found
        from partpicker.catalog.generic import GENERIC_BRAND, GENERIC_ORIGIN

        if part.brand == GENERIC_BRAND and part.id.startswith("generic-") and not self.has(part.id):
            return Provenance(GENERIC_ORIGIN)
        return Provenance()

    def copy(self) -> Catalog:
        """A catalog with the same parts that can be added to without changing this one."""
        out = Catalog()
        out._parts, out._origin, out.overlay = dict(self.parts), dict(self.origin), dict(self.overlay)
        out._by_category = {cat: list(parts) for cat, parts in self.by_category.items()}
        out._models = list(out._parts.values())
        out._entries = {cat: list(parts) for cat, parts in self.by_category.items()}
        return out

    def replace(self, part: Part) -> None:
        """Put ``part`` in place of the part with its id (an overlay adding prices)."""
        old = self.parts[part.id]
        self.memo.clear()
        self._parts[part.id] = part
        for group in (self._by_category[part.category], self._entries[part.category]):
            group[group.index(old)] = part
        if old in self._models:
            self._models[self._models.index(old)] = part

    def closest(self, name: str, category: str, limit: int = 5) -> list[Part]:
        """The parts nearest to a name, ignoring model codes (for 'did you mean')."""
        from partpicker.catalog import resolve

        return resolve.closest(self, name, category, limit)


def catalog_files(paths: Sequence[str | Path] | None = None) -> list[Path]:
    """The YAML files under the given files or folders (default: the bundled catalog)."""
    roots = [Path(p) for p in paths] if paths else [catalog_dir()]
    files: list[Path] = []
    for root in roots:
        if root.is_dir() and root.suffix not in CATALOG_SUFFIXES:
            found = _files_under(root)
            if not found:
                raise InputError(
                    f"no catalog files ({', '.join('*' + s for s in CATALOG_SUFFIXES)}) in this folder",
                    path=root,
                    hint="name a catalog file or a folder that holds some",
                )
            files.extend(found)
        elif root.exists() or root.is_symlink():
            files.append(root)  # reading it says what is wrong with it (a broken link, a FIFO, x.yaml/)
        else:
            raise InputError("catalog path not found", path=root, hint="name a catalog file or folder")
    return files


def _files_under(root: Path) -> list[Path]:
    """The catalog files under a folder, sorted; links to folders are not followed (no loops),
    links to files are kept, broken ones too, so that reading them reports them."""
    found: list[Path] = []
    for folder, dirs, names in os.walk(root, followlinks=False):
        dirs.sort()
        found.extend(Path(folder, n) for n in names if Path(n).suffix in CATALOG_SUFFIXES)
        found.extend(Path(folder, d) for d in dirs if Path(d).suffix in CATALOG_SUFFIXES)
        dirs[:] = [d for d in dirs if Path(d).suffix not in CATALOG_SUFFIXES]
    return sorted(found)


CATALOG_SUFFIXES = (".yaml", ".yml", ".jsonl")

CURATION_ONLY = frozenset({"near-duplicate"})
"""Checks that only `catalog check` runs, not the commands that load a catalog: a near-duplicate
name is a hint to the curator (it makes no answer wrong), and the check is quadratic."""


Keep = Callable[[Any, str, int, int, int, Callable[[], Any]], None]
"""Takes a valid JSON Lines part instead of the catalog (:func:`read_catalog`): its record
(:mod:`partpicker.catalog.records`, checked), its category, the number of its file
(:meth:`Catalog.add_file`), the offset and number of its line, and what makes its slim record
(for the parts it keeps)."""
PartChecks = Mapping[str, Callable[[Any], Iterable[Any]]]
"""Checks of one part by id (:data:`partpicker.catalog.checks.interface.PART_CHECKS`): each
yields findings with ``message``, ``severity`` (and ``loc``, which a JSON Lines line has no
use for: its problems point at the line)."""


def read_catalog(
    paths: Sequence[str | Path] | None = None, *, part_checks: PartChecks | None = None, keep: Keep | None = None
) -> tuple[Catalog, list[Problem]]:
    """Load every part it can; return the catalog and the problems found on the way (with
    ``part_checks``, those they find in JSON Lines parts too, run on each line's record as
    it is read; YAML parts are checked afterwards, as :meth:`Catalog.models`).

    With ``keep``, each valid JSON Lines part is given to it as it is read (streaming:
    `suggest` keeps only what it can choose) and not added to the catalog, whose JSON Lines
    problems are then those of each line (duplicate ids are ``keep``'s to find)."""
    catalog = Catalog()
    problems: list[Problem] = []
    for path in catalog_files(paths):
        if path.suffix == ".jsonl":
            _read_jsonl(path, catalog, problems, part_checks or {}, keep)
        else:
            _read_file(path, catalog, problems)
    return catalog, problems


def load_catalog(paths: Sequence[str | Path] | None = None) -> Catalog:
    """Load a catalog that must be clean: the first problem is an :class:`InputError`."""
    catalog, problems = read_catalog(paths)
    if problems:
        raise broken_catalog(problems)
    return catalog


def broken_catalog(problems: Sequence[Problem], hint: str = "") -> InputError:
    """The error for a catalog with problems: the first one, and how many more."""
    first = problems[0]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return InputError(
        f"broken catalog entry: {first.message}{more}",
        path=first.path,
        line=first.line,
        hint=hint or "run `partpicker catalog check` to list every problem",
    )


def _read_file(path: Path, catalog: Catalog, problems: list[Problem]) -> None:
    spath = str(path)
    try:
        loaded = yamlio.read(path)
    except InputError as exc:
        problems.append(Problem("yaml-syntax", spath, exc.line, exc.what))
        return
    for dup in loaded.duplicates:
        problems.append(Problem("duplicate-key", spath, dup.line, dup.message))
    found = _category_and_parts(loaded.data, spath, problems)
    if found is not None:
        _add_parts(*found, spath, catalog, problems)


def _category_and_parts(doc: Any, spath: str, problems: list[Problem]) -> tuple[type[Part], list[Any]] | None:
    """The part class and the raw parts of a catalog file; None (with the problem) if it has none."""
    if doc is None:
        problems.append(Problem("schema", spath, 1, "the file is empty; expected `category:` and `parts:`"))
        return None
    if not isinstance(doc, dict) or set(doc) - {"category", "parts"} or "category" not in doc:
        problems.append(
            Problem(
                "schema", spath, yamlio.line_of(doc, []), "a catalog file is a mapping with `category:` and `parts:`"
            )
        )
        return None
    from partpicker.models import CATEGORIES  # pydantic: when a catalog is parsed (issue 14)

    category = doc["category"]
    cls = CATEGORIES.get(category) if isinstance(category, str) else None
    if cls is None:
        problems.append(
            Problem(
                "vocabulary",
                spath,
                yamlio.line_of(doc, ["category"]),
                f"unknown category {category!r}; use one of {', '.join(CATEGORIES)}",
            )
        )
        return None
    parts = doc.get("parts") or []
    if not isinstance(parts, list):
        problems.append(Problem("schema", spath, yamlio.line_of(doc, ["parts"]), "`parts:` must be a list"))
        return None
    return cls, parts


def _add_parts(cls: type[Part], parts: list[Any], spath: str, catalog: Catalog, problems: list[Problem]) -> None:
    """Validate each raw part and add it, or note its problems."""
    from pydantic import ValidationError

    for index, raw in enumerate(parts):
        line = yamlio.line_of(parts, [index])
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        try:
            part = cls.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                problems.append(
                    Problem(
                        _check_of(err),
                        spath,
                        yamlio.line_of(raw, _loc_of(err)) or line,
                        f"{raw_id or f'part #{index + 1}'}: {_describe(err)}",
                        raw_id if isinstance(raw_id, str) else None,
                    )
                )
            continue
        if catalog.has(part.id):
            first = catalog.origin_of(part.id)
            problems.append(
                Problem(
                    "duplicate-id",
                    spath,
                    yamlio.line_of(raw, ["id"]) or line,
                    f"id {part.id!r} is already used at {first.path}:{first.line}",
                    part.id,
                )
            )
            continue
        catalog.add(part, Origin(spath, line, raw))


def _read_jsonl(
    path: Path, catalog: Catalog, problems: list[Problem], part_checks: PartChecks, keep: Keep | None = None
) -> None:
    """The fast format: one JSON object per line, each with a `category` key.

    Each line is decoded by one msgspec decoder into a typed record, checked once
    (:mod:`partpicker.catalog.records`, then ``part_checks`` on the record) and kept slim:
    its specs and packed prices, and where the line is, to make the full part from when one
    is asked for. A line the fast path rejects is parsed and validated again the plain way
    (json, pydantic), which says what is wrong (or accepts what pydantic's lax mode
    accepts), so problems and their line numbers are the same whichever way a line went:
    first the lines that are not JSON or name no known category, in line order, then each
    category's bad and duplicate parts.

    The cyclic garbage collector is paused meanwhile: loading makes no reference cycles
    (the records are not even tracked by it).
    """
    from partpicker.catalog import records

    spath = str(path)
    try:
        yamlio.check_regular(path)
        handle = path.open("rb")
    except InputError as exc:
        problems.append(Problem("yaml-syntax", spath, None, exc.what))
        return
    except OSError as exc:
        problems.append(Problem("yaml-syntax", spath, None, f"cannot read: {exc.strerror}"))
        return
    with handle, gc_paused():
        rows = _Lines(spath, records.Slimmer(catalog.add_file(path)), part_checks, problems, keep).read(handle)
        _add_rows(rows, spath, catalog, problems)


@dataclass(frozen=True)
class Span:
    """The lines of a JSON Lines file that start at byte ``start`` or after, before ``stop``
    (``start`` is the start of a line)."""

    start: int
    stop: int


def spans_of(path: Path, parts: int) -> list[Span]:
    """``path`` cut into at most ``parts`` spans of whole lines, of about equal size, in order."""
    size = path.stat().st_size
    cuts = [0]
    with path.open("rb") as handle:
        for i in range(1, parts):
            target = size * i // parts
            if target <= cuts[-1]:
                continue
            handle.seek(target - 1)
            handle.readline()  # to the start of the next line
            if handle.tell() >= size:
                break
            cuts.append(handle.tell())
    return [Span(a, b) for a, b in zip(cuts, [*cuts[1:], size], strict=True)]


def read_jsonl_span(
    path: Path, file_no: int, span: Span, part_checks: PartChecks, keep: Keep, slimmer: Any | None = None
) -> tuple[list[Problem], int]:
    """The problems of the lines of ``span`` of JSON Lines file ``path`` (number ``file_no`` of
    its catalog), each valid part given to ``keep`` as :func:`read_catalog` gives it, and how
    many lines the span holds: the part of a file one process reads while others read the rest
    (`suggest`, issue 14). Its lines are numbered from the span's first, line 1 (the caller adds
    the lines of the spans before it: counting them here would read them too). ``slimmer``
    makes a kept part's slim record (``slim(record, offset, line)``; by default
    :class:`records.Slimmer`)."""
    from partpicker.catalog import records

    problems: list[Problem] = []
    with path.open("rb") as handle, gc_paused():
        lines = _Lines(str(path), slimmer or records.Slimmer(file_no), part_checks, problems, keep)
        lines.read(handle, span)
    return problems, lines.count


class _Lines:
    """The rows of one JSON Lines file: (line number, slim record or None, its problems) per
    category."""

    def __init__(
        self,
        spath: str,
        slimmer: records.Slimmer,
        part_checks: PartChecks,
        problems: list[Problem],
        keep: Keep | None = None,
    ) -> None:
        self.spath, self.slimmer, self.problems, self.keep = spath, slimmer, problems, keep
        self.checks = tuple(part_checks.items())
        self.rows: _Rows = {}
        self.count = 0
        """How many lines :meth:`read` read (numbered from 1)."""

    def add(self, cls: type[Part], number: int, record: Any, offset: int, found: list[Problem]) -> None:
        """A row of the file (``record`` None: an invalid line, ``found`` says why), kept
        slim; with ``keep``, a valid part goes there and its problems straight to the file's."""
        if self.keep is None:
            slim = None if record is None else self.slimmer.slim(record, offset, number)
            self.rows.setdefault(cls, []).append((number, slim, found))
            return
        self.problems.extend(found)
        if record is not None:
            made = functools.partial(self.slimmer.slim, record, offset, number)
            self.keep(record, cls.category, self.slimmer.file_no, offset, number, made)

    def read(self, handle: Any, span: Span | None = None) -> _Rows:
        """Every line of ``handle`` (binary), or those of ``span``."""
        from partpicker.catalog import records

        decode, fix = records.decoder().decode, records.Checker().fix
        check, add, model_of = self.check, self.add, records.model_of  # (this loop runs once a line)
        offset, stop, number = 0, None, 0
        if span is not None:
            offset, stop = span.start, span.stop
            handle.seek(offset)
        for number, line in enumerate(handle, 1):
            if stop is not None and offset >= stop:
                number -= 1
                break
            start, offset = offset, offset + len(line)
            try:
                record = decode(line)
            except msgspec.DecodeError:
                record = None
            if record is not None and fix(record):
                add(model_of(record), number, record, start, check(record, number) if self.checks else [])
            elif line.strip():
                _plain_row(line, number, start, self)
        self.count = number
        return self.rows

    def check(self, part: Any, number: int) -> list[Problem]:
        """What ``part_checks`` find in a part (or record) of line ``number``."""
        return [
            Problem(check_id, self.spath, number, f"{part.id}: {f.message}", part.id, f.severity)
            for check_id, fn in self.checks
            for f in fn(part)
        ]


def _plain_row(line: bytes, number: int, offset: int, lines: _Lines) -> None:
    """A line the fast path rejected, parsed and validated the plain way."""
    spath, problems = lines.spath, lines.problems
    try:
        raw = json.loads(line)
    except (ValueError, RecursionError) as exc:
        why = "nested too deeply" if isinstance(exc, RecursionError) else printable(str(exc))[:200]
        problems.append(Problem("yaml-syntax", spath, number, f"malformed JSON: {why}"))
        return
    from pydantic import ValidationError

    from partpicker.models import CATEGORIES

    category = raw.pop("category", None) if isinstance(raw, dict) else None
    cls = CATEGORIES.get(category) if isinstance(category, str) else None
    if cls is None:
        given = "" if category is None else f" (not {excerpt(str(category))})"
        known = ", ".join(CATEGORIES)
        problems.append(Problem("vocabulary", spath, number, f"each line needs a known `category`{given}: {known}"))
        return
    try:
        part = cls.model_validate(raw)
    except ValidationError as exc:
        found = [
            Problem(_check_of(err), spath, number, f"{raw.get('id', '?')}: {_describe(err)}") for err in exc.errors()
        ]
        lines.add(cls, number, None, offset, found)
        return
    from partpicker.catalog import records

    lines.add(cls, number, records.from_part(part), offset, lines.check(part, number))


_Rows = dict[type[Part], list[tuple[int, Any, list[Problem]]]]


def _add_rows(rows: _Rows, spath: str, catalog: Catalog, problems: list[Problem]) -> None:
    """Add each category's valid parts in line order; note the bad and duplicate ones."""
    for cls, group in rows.items():
        for number, valid, found in group:
            if valid is None:
                problems.extend(found)
            elif catalog.has(valid.id):
                first = catalog.origin_of(valid.id)
                where = f"{first.path}:{first.line}" if first.line else first.path
                message = f"id {valid.id!r} is already used at {where}"
                problems.append(Problem("duplicate-id", spath, number, message, valid.id))
            else:
                catalog.add_record(valid, cls.category)
                problems.extend(found)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (reference counting still frees everything)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _loc_of(err: Any) -> list[Any]:
    """Where in the raw part an error points: its loc, or for a field_evidence entry naming no
    spec field, that entry (the model's check reports it on the whole part)."""
    if err["type"] == "evidence_field":
        return ["field_evidence", str(err.get("ctx", {}).get("fields", "")).split(", ")[0]]
    return list(err["loc"])


def _check_of(err: Any) -> str:
    kind = err["type"]
    if kind in ("vocabulary", "slug"):
        return str(kind)
    if kind in ("evidence_note", "evidence_field"):
        return str(kind).replace("_", "-")
    loc = err["loc"]
    if loc and loc[0] == "sources":
        return "no-sources"
    if loc and loc[0] == "prices" and kind in ("missing", "date_type", "date_from_datetime_parsing", "date_parsing"):
        return "price"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal", "finite_number"):
        return "bounds"
    return "schema"


def _describe(err: Any) -> str:
    loc = excerpt(".".join(str(x) for x in err["loc"]), 120).strip("'")
    kind = err["type"]
    if kind == "extra_forbidden":
        return f"unknown field {loc!r}; see catalogs/README.md for the fields of this category"
    if kind == "missing":
        return f"required field {loc!r} is missing"
    msg = printable(str(err["msg"]))[:300]
    return f"{loc}: {msg}" if loc else msg
