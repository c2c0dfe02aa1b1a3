"""Build files: the YAML a user writes, and the build it resolves to against a catalog."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from partpicker import yamlio
from partpicker.errors import InputError, excerpt, printable
from partpicker.models import Case, Cooler, Cpu, Day, Gpu, Motherboard, Part, Psu, Ram, Ssd

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


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


MAX_NAME = 300
"""A part name in a build file is at most this long (a longer one is no catalog name)."""


class Counted(_Strict):
    """A part with a count: ``{part: NAME, count: N}``."""

    part: str = Field(min_length=1)
    count: int = Field(1, ge=1, le=16)


class PartsSpec(_Strict):
    """The ``parts:`` mapping of a build file."""

    cpu: str | None = None
    motherboard: str | None = None
    gpu: str | Counted | None = None
    ram: str | Counted | None = None
    ssd: str | list[str] | None = None
    psu: str | None = None
    case: str | None = None
    cooler: str | None = None


RuleSetting = Literal["off"] | bool | dict[str, Any]


class BuildFile(_Strict):
    """A build file as written."""

    name: str | None = None
    profile: Literal["compat", "dl-workstation"] = "dl-workstation"
    target_gpus: int | None = Field(None, ge=1, le=16)
    as_of: Day | None = None
    parts: PartsSpec
    rules: dict[str, RuleSetting] = Field(default_factory=dict)

    AS_OF_RANGE: ClassVar[tuple[dt.date, dt.date]] = (dt.date(1990, 1, 1), dt.date(2100, 12, 31))
    """The dates a build may be priced as of (what a PC part catalog can mean; no overflow)."""

    @field_validator("as_of")
    @classmethod
    def _as_of_in_range(cls, value: dt.date | None) -> dt.date | None:
        low, high = cls.AS_OF_RANGE
        if value is not None and not low <= value <= high:
            raise ValueError(f"must be from {low} to {high}")
        return value


@dataclass(frozen=True, slots=True)
class Line:
    """One part of a build and how many of it."""

    part: Part
    count: int = 1


P = TypeVar("P", bound=Part)


@dataclass(frozen=True)
class Build:
    """A build whose parts are catalog parts: lines of parts keyed by role, in role order.

    Most roles hold one line; ``ssd`` holds one per drive (the first boots); a count says how
    many of a part (GPUs, RAM kits). Read it through the typed accessors (``build.cpu``,
    ``build.gpus``, ``build.ssds``, ``build.count("gpu")``); make one with :meth:`of`.
    """

    name: str
    profile: str
    target_gpus: int
    parts: Mapping[str, tuple[Line, ...]] = field(default_factory=dict)
    rules: dict[str, RuleSetting] = field(default_factory=dict)
    as_of: dt.date | None = None
    path: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

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
        (default 1), and ``meta`` (rules, as_of, path, lines)."""
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
        return self._typed("psu", Psu)

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
            f"key {dup.key!r} appears twice (first on line {dup.first_line})",
            path=path,
            line=dup.line,
            hint="keep one of them",
        )
    return parse_build(loaded.data, catalog, path=str(path))


def parse_build(raw: Any, catalog: Resolver, *, path: str = "<build>") -> Build:
    """Validate a loaded build document and resolve its parts against ``catalog``."""
    spec = _validated(raw, path)
    lines = _lines(raw)

    def find(category: str, name: str | None) -> Part | None:
        return resolve(category, name) if name else None

    def resolve(category: str, name: str) -> Part:
        if len(name) > MAX_NAME:
            raise InputError(
                f"the {category} name {excerpt(name, 60)} is longer than {MAX_NAME} characters",
                path=path,
                line=lines.get(category),
                hint=f"use a catalog id or name (`partpicker catalog list {category}`)",
            )
        try:
            return catalog.resolve(name, category)
        except LookupError as exc:
            raise InputError(
                str(exc),
                path=path,
                line=lines.get(category),
                hint=f"use a catalog id or name (`partpicker catalog list {category}`)",
            ) from None

    p = spec.parts
    gpu_name, gpu_count = _counted(p.gpu)
    ram_name, ram_count = _counted(p.ram)
    ssd_names = [p.ssd] if isinstance(p.ssd, str) else list(p.ssd or [])
    gpu = find("gpu", gpu_name)  # first, as the error a file gets depends on it
    parts: dict[str, Part | Sequence[Part] | None] = {
        "cpu": find("cpu", p.cpu),
        "motherboard": find("motherboard", p.motherboard),
        "gpu": gpu,
        "ram": find("ram", ram_name),
        "ssd": [resolve("ssd", n) for n in ssd_names],
        "psu": find("psu", p.psu),
        "case": find("case", p.case),
        "cooler": find("cooler", p.cooler),
    }
    return Build.of(
        spec.name or Path(path).stem,
        spec.profile,
        target_for(spec.profile, spec.target_gpus, gpu_count if gpu else 0),
        parts,
        {"gpu": gpu_count, "ram": ram_count},
        rules=dict(spec.rules),
        as_of=spec.as_of,
        path=path,
        lines=lines,
    )


def _lines(raw: dict[str, Any]) -> dict[str, int]:
    """The line of each role under ``parts:`` and of each rule under ``rules:`` (``rules.<id>``)."""
    lines = {role: yamlio.line_of(raw, ["parts", role]) or 0 for role in raw.get("parts") or {}}
    lines.update({f"rules.{rid}": yamlio.line_of(raw, ["rules", rid]) or 0 for rid in raw.get("rules") or {}})
    return lines


def _validated(raw: Any, path: str) -> BuildFile:
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
    try:
        return BuildFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(_explain(err), path=path, line=yamlio.line_of(raw, err["loc"]), hint=_hint(err)) from None


def _counted(value: str | Counted | None) -> tuple[str | None, int]:
    if value is None:
        return None, 0
    if isinstance(value, str):
        return value, 1
    return value.part, value.count


def _explain(err: Any) -> str:
    loc = ".".join(str(x) for x in err["loc"] if not str(x).startswith(("str", "Counted", "list[", "literal", "bool")))
    kind = err["type"]
    if kind == "extra_forbidden":
        return f"unknown key {loc!r}"
    if kind == "missing":
        return f"required key {loc!r} is missing"
    return f"{loc}: {printable(err['msg'])[:300]} (got {excerpt(err.get('input'))})"


def _hint(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return (
            "allowed keys: name, profile, target_gpus, as_of, parts, rules; "
            "parts: cpu, motherboard, gpu, ram, ssd, psu, case, cooler"
        )
    return "see examples/article-2018.yaml for the format"
