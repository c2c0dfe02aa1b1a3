"""Build files: the YAML a user writes, and the build it resolves to against a catalog."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from partpicker import yamlio
from partpicker.errors import InputError, excerpt, printable
from partpicker.kinds import Plain
from partpicker.parts import Case, Cooler, Cpu, Gpu, Motherboard, Part, Price, Psu, Ram, Ssd, spec_fields

if TYPE_CHECKING:
    from partpicker.build.schema import PriceIn

PROFILES: dict[str, list[str]] = {
    "compat": ["compat"],
    "dl-workstation": ["compat", "dl-workstation"],
}
# GPUs the platform must be ready for when the build file does not say.
DEFAULT_TARGET = {"compat": None, "dl-workstation": 4}
ROLES = ("cpu", "motherboard", "gpu", "ram", "ssd", "psu", "case", "cooler")


class Resolver(Protocol):
    """What resolves a build file's names to parts (a catalog; the build does not import it)."""

    def resolve(self, name: str, category: str) -> Part:
        """The part of ``category`` that ``name`` names; ``LookupError`` if none or several."""
        ...

    def provenance(self, part: Part) -> Provenance:
        """Where ``part`` and any of its prices came from, when not the bundled catalog."""
        ...


@dataclass(frozen=True)
class Provenance:
    """Where a part came from when not from the bundled catalog, and the prices the user gave."""

    origin: str | None = None
    """E.g. "your parts file parts.yaml:12", "generic part: from its name"; None: the catalog."""
    user_prices: tuple[Price, ...] = ()
    """Price points that came from the user (a parts file, a price import, the build file)."""
    prices_from: str | None = None
    """Where those price points came from (a file, or several)."""


MAX_NAME = 300
"""A part name in a build file is at most this long (a longer one is no catalog name)."""

AS_OF_RANGE = (dt.date(1990, 1, 1), dt.date(2100, 12, 31))
"""The dates a build may be priced as of (what a PC part catalog can mean; no overflow)."""


class CountedKind(Plain):
    """A part entry written as a mapping (schema: :class:`partpicker.build.schema.Counted`)."""

    FIELDS = ("part", "spec", "count", "price")
    if TYPE_CHECKING:
        part: str | None
        spec: dict[str, Any] | None
        count: int
        price: Any


class PartsSpecKind(Plain):
    """The ``parts:`` mapping of a build file (schema: ``schema.PartsSpec``)."""

    FIELDS = ROLES
    if TYPE_CHECKING:

        def __getattr__(self, role: str) -> Any: ...


class BuildFileKind(Plain):
    """A build file as written (schema: :class:`partpicker.build.schema.BuildFile`)."""

    FIELDS = ("name", "profile", "target_gpus", "as_of", "power_limit_w", "parts", "rules")
    if TYPE_CHECKING:
        name: str | None
        profile: str
        target_gpus: int | None
        as_of: dt.date | None
        power_limit_w: int | None
        parts: PartsSpecKind
        rules: dict[str, Any]


Entry = str | CountedKind
RuleSetting = Any
"""A rule's setting in a build file: ``off``, true or false, or a mapping of parameters."""


@dataclass(frozen=True, slots=True)
class Line:
    """One part of a build and how many of it."""

    part: Part
    count: int = 1


P = TypeVar("P", bound=Part)


@dataclass(frozen=True)
class Build:
    """A build whose parts are catalog parts: lines of parts keyed by role, in role order.

    Most roles hold one line; ``ssd`` holds one per drive (the first boots), ``psu`` one per
    power supply of a dual-PSU build; a count says how many of a part (GPUs, RAM kits, PSUs).
    Read it through the typed accessors (``build.cpu``, ``build.gpus``, ``build.ssds``,
    ``build.psus``, ``build.count("gpu")``); make one with :meth:`of`.
    """

    name: str
    profile: str
    target_gpus: int
    parts: Mapping[str, tuple[Line, ...]] = field(default_factory=dict)
    rules: dict[str, RuleSetting] = field(default_factory=dict)
    as_of: dt.date | None = None
    path: str | None = None
    lines: dict[str, int] = field(default_factory=dict)
    provenance: Mapping[str, Provenance] = field(default_factory=dict)
    """Where parts not from the bundled catalog, and prices the user gave, came from (by part id)."""
    power_limit_w: int | None = None
    """A power limit per GPU the user will set (``nvidia-smi -pl``); None = board power."""

    @classmethod
    def of(
        cls,
        name: str,
        profile: str,
        target_gpus: int,
        parts: Mapping[str, Part | Sequence[Part] | None],
        counts: Mapping[str, int] | None = None,
        **meta: Any,
    ) -> Build:
        """A build of ``parts`` by role (a part, several, or None), ``counts`` of a role's part
        (default 1), and ``meta`` (rules, as_of, path, lines, power_limit_w)."""
        counts = counts or {}
        lines: dict[str, tuple[Line, ...]] = {}
        for role in ROLES:
            chosen = parts.get(role)
            if chosen is None:
                continue
            several = (chosen,) if isinstance(chosen, Part) else tuple(chosen)
            if several:
                lines[role] = tuple(Line(part, counts.get(role, 1)) for part in several)
        return cls(name=name, profile=profile, target_gpus=target_gpus, parts=lines, **meta)

    # -- reading it ------------------------------------------------------------------

    def part(self, role: str) -> Part | None:
        """The (first) part in ``role``, or None."""
        found = self.parts.get(role)
        return found[0].part if found else None

    def all(self, role: str) -> tuple[Part, ...]:
        """Every part in ``role``, in order."""
        return tuple(line.part for line in self.parts.get(role, ()))

    def count(self, role: str) -> int:
        """How many parts the build has in ``role`` (0 if none)."""
        return sum(line.count for line in self.parts.get(role, ()))

    def has(self, role: str) -> bool:
        return bool(self.parts.get(role))

    def _typed(self, role: str, cls: type[P]) -> P | None:
        part = self.part(role)
        assert part is None or isinstance(part, cls), f"{role}: {part!r}"
        return part

    @property
    def cpu(self) -> Cpu | None:
        return self._typed("cpu", Cpu)

    @property
    def motherboard(self) -> Motherboard | None:
        return self._typed("motherboard", Motherboard)

    @property
    def gpu(self) -> Gpu | None:
        """The (first) GPU model."""
        return self._typed("gpu", Gpu)

    @property
    def gpus(self) -> tuple[Gpu, ...]:
        """The GPU models installed (one per line; see :attr:`gpu_count` for how many cards)."""
        return tuple(g for g in self.all("gpu") if isinstance(g, Gpu))

    @property
    def gpu_count(self) -> int:
        return self.count("gpu")

    @property
    def ram(self) -> Ram | None:
        return self._typed("ram", Ram)

    @property
    def ram_count(self) -> int:
        return self.count("ram")

    @property
    def ssds(self) -> tuple[Ssd, ...]:
        """The drives, the boot drive first."""
        return tuple(d for d in self.all("ssd") if isinstance(d, Ssd))

    @property
    def psu(self) -> Psu | None:
        """The (first) PSU."""
        return self._typed("psu", Psu)

    @property
    def psus(self) -> tuple[Psu, ...]:
        """Every PSU, one entry per unit (``{part: X, count: 2}`` is X twice)."""
        return tuple(
            line.part for line in self.parts.get("psu", ()) for _ in range(line.count) if isinstance(line.part, Psu)
        )

    @property
    def case(self) -> Case | None:
        return self._typed("case", Case)

    @property
    def cooler(self) -> Cooler | None:
        return self._typed("cooler", Cooler)

    def items(self) -> list[tuple[str, Part, int]]:
        """(label, part, count) for every line, in role order; a role's second line is
        labelled ``<role>-2`` and so on (``ssd``, ``ssd-2``)."""
        return [
            (role if i == 0 else f"{role}-{i + 1}", line.part, line.count)
            for role, found in self.parts.items()
            for i, line in enumerate(found)
        ]

    # -- changing it -----------------------------------------------------------------

    def with_part(self, role: str, part: Part) -> Build:
        """This build with ``part`` in place of the (first) part of ``role``, same count."""
        found = self.parts.get(role, ())
        count = found[0].count if found else 1
        parts = {**self.parts, role: (Line(part, count), *found[1:])}
        return replace(self, parts={r: parts[r] for r in ROLES if r in parts})

    def with_count(self, role: str, count: int) -> Build:
        """This build with ``count`` of the (first) part of ``role``."""
        found = self.parts[role]
        return replace(self, parts={**self.parts, role: (Line(found[0].part, count), *found[1:])})


def target_for(profile: str, target_gpus: int | None, installed: int) -> int:
    """GPUs the rules are evaluated for: the file's target, else the profile's default."""
    target = target_gpus if target_gpus is not None else DEFAULT_TARGET[profile]
    return max(target or installed, installed)


def load_build(path: str | Path, catalog: Resolver) -> Build:
    """Read, validate and resolve a build file. Any problem is an :class:`InputError`."""
    loaded = yamlio.read(path)
    if loaded.duplicates:
        dup = loaded.duplicates[0]
        raise InputError(
            dup.message,
            path=path,
            line=dup.line,
            hint="keep one of them",
        )
    return parse_build(loaded.data, catalog, path=str(path))


def parse_build(raw: Any, catalog: Resolver, *, path: str = "<build>") -> Build:
    """Validate a loaded build document and resolve its parts against ``catalog``.

    Every name that does not resolve is reported at once: one :class:`InputError` listing
    each with its line and candidates.
    """
    spec = _validated(raw, path)
    lines = _lines(raw)
    reader = _PartReader(raw, catalog, path, spec.as_of)
    p = spec.parts
    entries: dict[str, list[Entry]] = {
        role: ([value] if not isinstance(value, list) else list(value))
        for role in ROLES
        if (value := getattr(p, role)) is not None
    }
    parts: dict[str, Part | Sequence[Part] | None] = {}
    counts: dict[str, int] = {}
    for role, found in entries.items():
        listed = isinstance(getattr(p, role), list)
        _not_empty(role, found, listed, raw, path)
        resolved = [reader.part(role, i if listed or role == "ssd" else None, e) for i, e in enumerate(found)]
        if role != "ssd":
            counts[role] = _count(found, role, raw, path, listed)
        parts[role] = [r for r in resolved if r is not None]
    reader.raise_problems(lines)
    installed = counts.get("gpu", 0) if parts.get("gpu") else 0
    return Build.of(
        spec.name or Path(path).stem,
        spec.profile,
        target_for(spec.profile, spec.target_gpus, installed),
        parts,
        counts,
        rules=dict(spec.rules),
        as_of=spec.as_of,
        path=path,
        lines=lines,
        provenance=reader.provenance,
        power_limit_w=spec.power_limit_w,
    )


COUNTED_ROLES = ("gpu", "ram", "psu")


def _not_empty(role: str, found: list[Entry], listed: bool, raw: Any, path: str) -> None:
    """An empty list is bad input (``ssd: []`` is no drive, as it always was)."""
    if listed and not found and role != "ssd":
        raise InputError(
            f"parts.{role}: an empty list",
            path=path,
            line=yamlio.line_of(raw, ["parts", role]),
            hint=f"name the {role} (two PSUs as `psu: [A, B]`), or leave `{role}:` out",
        )


def _count(found: list[Entry], role: str, raw: Any, path: str, listed: bool) -> int:
    """How many of the part the entry asks for (GPUs, RAM kits and PSUs come several); a
    list of PSUs (``psu: [a, b]``) is one of each."""
    counts = [e.count if isinstance(e, CountedKind) else 1 for e in found]
    at = next((i for i, c in enumerate(counts) if c > 1), None)
    if at is not None and (role not in COUNTED_ROLES or listed):
        raise InputError(
            f"parts.{role}: a count of {counts[at]}"
            + ("; in a list each PSU is one unit" if listed else "; only gpu, ram and psu take a count"),
            path=path,
            line=yamlio.line_of(raw, ["parts", role, *([at] if listed else []), "count"]),
            hint="list several drives under `ssd:`, two PSUs as `psu: [A, B]` or `{part: A, count: 2}`",
        )
    return counts[0]


class _PartReader:
    """Resolves a build file's entries to parts, collecting every unresolvable name."""

    def __init__(self, raw: Any, catalog: Resolver, path: str, as_of: dt.date | None) -> None:
        self.raw, self.catalog, self.path, self.as_of = raw, catalog, path, as_of
        self.problems: list[tuple[int | None, str, str]] = []
        self.provenance: dict[str, Provenance] = {}

    def part(self, role: str, index: int | None, entry: Entry) -> Part | None:
        """The part an entry names or gives, with its price if given; None (noted) if unresolved."""
        loc: list[int | str] = ["parts", role] + ([index] if index is not None else [])
        if isinstance(entry, str):
            return self._named(role, entry, loc)
        if entry.spec is not None:
            made = inline_part(role, entry.spec, self.raw, [*loc, "spec"], self.path)
            line = yamlio.line_of(self.raw, [*loc, "spec"])
            self.provenance[made.id] = Provenance(f"your spec in the build file {self.path}:{line}")
            part: Part | None = made
        else:
            part = self._named(role, entry.part or "", [*loc, "part"])
        if part is not None and entry.price is not None:
            part = self._priced(part, entry.price)
        return part

    def _named(self, role: str, name: str, loc: list[int | str]) -> Part | None:
        if len(name) > MAX_NAME:
            line = yamlio.line_of(self.raw, loc)
            self.problems.append((line, role, f"the name {excerpt(name, 60)} is longer than {MAX_NAME} characters"))
            return None
        try:
            part = self.catalog.resolve(name, role)
        except LookupError as exc:
            line = yamlio.line_of(self.raw, loc)
            self.problems.append((line, role, str(exc)))
            return None
        known = self.catalog.provenance(part)
        if known.origin or known.user_prices:
            self.provenance[part.id] = known
        return part

    def _priced(self, part: Part, price: float | PriceIn) -> Part:
        from partpicker.build.schema import PriceIn
        from partpicker.models import Price

        given = PriceIn(usd=price) if isinstance(price, float | int) else price
        point = Price(
            usd=given.usd, date=given.date or self.as_of or dt.date.today(), source=given.source, kind=given.kind
        )
        before = self.provenance.get(part.id, Provenance())
        self.provenance[part.id] = Provenance(
            before.origin, (*before.user_prices, point), _joined(before.prices_from, f"your build file {self.path}")
        )
        return part.model_copy(update={"prices": [*part.prices, point]})

    def raise_problems(self, lines: dict[str, int]) -> None:
        """One error listing every name that did not resolve, each with its line."""
        if not self.problems:
            return
        if len(self.problems) == 1:
            line, role, text = self.problems[0]
            raise InputError(
                f"{role}: {text}",
                path=self.path,
                line=line,
                hint=f"use a catalog id or name (`partpicker find NAME -c {role}`), or `--parts FILE`",
            )
        body = "\n".join(f"line {line}: {role}: " + text.replace("\n", "\n  ") for line, role, text in self.problems)
        raise InputError(
            f"{len(self.problems)} parts could not be resolved:\n{body}",
            path=self.path,
            line=self.problems[0][0],
            hint="use catalog ids or names (`partpicker find NAME`), or add your own parts (`--parts FILE`)",
        )


def _joined(before: str | None, now: str) -> str:
    return now if before in (None, now) else f"{before}; {now}"


def inline_part(role: str, fields: dict[str, Any], raw: Any, loc: list[int | str], path: str) -> Part:
    """A part given by its specs in a build file (``{spec: {name: ..., fields...}}``).

    ``id`` defaults to a slug of the name, ``brand`` to "custom", ``sources`` to the build file.
    """
    from pydantic import ValidationError

    from partpicker.models import CATEGORIES

    cls = CATEGORIES[role]
    name = fields.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError(
            f"parts.{role}.spec needs a `name:`", path=path, line=yamlio.line_of(raw, loc), hint=_spec_hint(cls)
        )
    filled = {
        "id": _slug(f"inline-{role}-{name}"),
        "brand": "custom",
        "sources": [f"your build file {path}"],
        **fields,
    }
    try:
        return cls.model_validate(filled)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"])
        raise InputError(
            f"parts.{role}.spec.{printable(where)[:100]}: {printable(str(err['msg']))[:300]}",
            path=path,
            line=yamlio.line_of(raw, [*loc, *err["loc"]]),
            hint=_spec_hint(cls),
        ) from None


def _spec_hint(cls: type[Part]) -> str:
    return f"a {cls.category} spec has `name:` and: {', '.join(spec_fields(cls))}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.casefold()).strip("-")[:80].strip("-")


def _lines(raw: dict[str, Any]) -> dict[str, int]:
    """The line of each role under ``parts:`` and of each rule under ``rules:`` (``rules.<id>``)."""
    lines = {role: yamlio.line_of(raw, ["parts", role]) or 0 for role in raw.get("parts") or {}}
    lines.update({f"rules.{rid}": yamlio.line_of(raw, ["rules", rid]) or 0 for rid in raw.get("rules") or {}})
    return lines


def _validated(raw: Any, path: str) -> BuildFileKind:
    """The build file's document checked against the schema, or an error naming the key."""
    if raw is None:
        raise InputError("the build file is empty", path=path, hint="see examples/article-2018.yaml for the format")
    if not isinstance(raw, dict):
        raise InputError(
            "a build file is a mapping with `parts:`",
            path=path,
            line=yamlio.line_of(raw, []),
            hint="see examples/article-2018.yaml for the format",
        )
    if "parts" in raw and (raw["parts"] is None or raw["parts"] == {}):
        raise InputError(
            "the build names no parts: `parts:` is empty",
            path=path,
            line=yamlio.line_of(raw, ["parts"]),
            hint=f"list them under parts: ({', '.join(ROLES)}); see examples/article-2018.yaml",
        )
    plain = plain_spec(raw)
    if plain is not None:
        return plain
    from pydantic import ValidationError

    from partpicker.build.schema import BuildFile

    try:
        return BuildFile.model_validate(raw)
    except ValidationError as exc:
        err = _written_branch(exc.errors())
        raise InputError(_explain(err), path=path, line=yamlio.line_of(raw, err["loc"]), hint=_hint(err)) from None


_KEYS = frozenset(BuildFileKind.FIELDS)
_SINGLE = frozenset(ROLES) - {"ssd", "psu"}


def plain_spec(raw: dict[Any, Any]) -> BuildFileKind | None:
    """The build file read without pydantic when it is in the everyday forms the schema
    (:class:`partpicker.build.schema.BuildFile`) takes as they are -- names, ``{part: NAME,
    count: N}``, a YAML date, ``off``/true/false/a mapping per rule -- else None (then the
    schema reads it: a price, a part by its specs, a quoted date, and every mistake, with
    pydantic's own words). What this accepts, the schema accepts as the same values (tested)."""
    parts = raw.get("parts")
    if not set(raw) <= _KEYS or not isinstance(parts, dict) or not set(parts) <= set(ROLES):
        return None
    top = {key: raw.get(key) for key in ("name", "target_gpus", "as_of", "power_limit_w")}
    profile, rules = raw.get("profile", "dl-workstation"), raw.get("rules", {})
    entries = {role: _plain_entries(role, parts.get(role)) for role in ROLES}
    if not (_plain_top(top, profile) and all(found is not _NO for found in entries.values())):
        return None
    if not isinstance(rules, dict) or not all(type(r) is str and _plain_setting(v) for r, v in rules.items()):
        return None
    settings = {rid: dict(value) if isinstance(value, dict) else value for rid, value in rules.items()}
    return BuildFileKind.of(**top, profile=profile, parts=PartsSpecKind.of(**entries), rules=settings)


_NO: Any = object()


def _plain_top(top: dict[str, Any], profile: Any) -> bool:
    """The top-level values are of the schema's types and within its bounds."""
    return (
        _optional(top["name"], str)
        and type(profile) is str
        and profile in PROFILES
        and _whole(top["target_gpus"], 1, 16)
        and _whole(top["power_limit_w"], 1, 2000)
        and _day(top["as_of"])
    )


def _optional(value: Any, kind: type) -> bool:
    return value is None or type(value) is kind


def _day(value: Any) -> bool:
    return value is None or (type(value) is dt.date and AS_OF_RANGE[0] <= value <= AS_OF_RANGE[1])


def _whole(value: Any, low: int, high: int) -> bool:
    return value is None or (type(value) is int and low <= value <= high)


def _plain_setting(value: Any) -> bool:
    if isinstance(value, dict):
        return all(type(key) is str for key in value)
    return (type(value) is str and value == "off") or type(value) is bool


def _plain_entries(role: str, value: Any) -> Any:
    """A role's entry (or list of entries) as the schema makes it, or ``_NO``."""
    if value is None:
        return None
    if isinstance(value, list):
        if role in _SINGLE:
            return _NO
        listed = [_plain_entry(item) for item in value]
        return _NO if any(item is _NO for item in listed) else listed
    return _plain_entry(value)


def _plain_entry(value: Any) -> Any:
    if type(value) is str:
        return value
    if not isinstance(value, dict) or not set(value) <= {"part", "count"}:
        return _NO
    part, count = value.get("part"), value.get("count", 1)
    if type(part) is not str or not part or not _whole(count, 1, 16) or count is None:
        return _NO
    return CountedKind.of(part=part, spec=None, count=count, price=None)


def _written_branch(errors: Any) -> Any:
    """The error to report: for a part entry (a name, or a mapping ``{part:, count:}``) written
    as a mapping, the mapping's error ("count: should be >= 1"), not "should be a string"."""
    first = errors[0]
    if first["type"] == "string_type" and isinstance(first.get("input"), dict):
        for err in errors[1:]:
            if any("Counted" in str(x) for x in err["loc"]):
                return err
    return first


def _explain(err: Any) -> str:
    tags = ("str", "Counted", "function-after[", "list[", "literal", "bool")  # a union's branch names
    loc = ".".join(str(x) for x in err["loc"] if not str(x).startswith(tags))
    kind = err["type"]
    if kind == "extra_forbidden":
        return f"unknown key {loc!r}"
    if kind == "missing":
        return f"required key {loc!r} is missing"
    said, got = printable(str(err["msg"]))[:300], excerpt(err.get("input"))
    return f"{loc}: {said}" + ("" if got in said else f" (got {got})")


def _hint(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return (
            "allowed keys: name, profile, target_gpus, as_of, power_limit_w, parts, rules; "
            "parts: cpu, motherboard, gpu, ram, ssd, psu, case, cooler (ssd and psu may be lists); "
            "a part is a name or {part: NAME, count: N, price: USD} or {spec: {name: ..., fields...}}"
        )
    return "see examples/article-2018.yaml for the format"
