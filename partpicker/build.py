"""Build files: the YAML a user writes, and the build it resolves to against a catalog."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from partpicker import yamlio
from partpicker.errors import InputError
from partpicker.models import Case, Cooler, Cpu, Gpu, Motherboard, Part, Psu, Ram, Ssd

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
    model_config = ConfigDict(extra="forbid", frozen=True)


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
    as_of: dt.date | None = None
    parts: PartsSpec
    rules: dict[str, RuleSetting] = Field(default_factory=dict)


@dataclass(frozen=True)
class Build:
    """A build whose parts are catalog parts."""

    name: str
    profile: str
    target_gpus: int
    cpu: Cpu | None = None
    motherboard: Motherboard | None = None
    gpu: Gpu | None = None
    gpu_count: int = 0
    ram: Ram | None = None
    ram_count: int = 1
    ssds: tuple[Ssd, ...] = ()
    psu: Psu | None = None
    case: Case | None = None
    cooler: Cooler | None = None
    rules: dict[str, RuleSetting] = field(default_factory=dict)
    as_of: dt.date | None = None
    path: str | None = None
    lines: dict[str, int] = field(default_factory=dict)

    def items(self) -> list[tuple[str, Part, int]]:
        """(role, part, count) for every part in the build, in role order."""
        out: list[tuple[str, Part, int]] = []
        for role in ROLES:
            if role == "ssd":
                for i, ssd in enumerate(self.ssds):
                    out.append(("ssd" if i == 0 else f"ssd-{i + 1}", ssd, 1))
            elif role == "gpu":
                if self.gpu is not None:
                    out.append(("gpu", self.gpu, self.gpu_count))
            elif role == "ram":
                if self.ram is not None:
                    out.append(("ram", self.ram, self.ram_count))
            else:
                part = getattr(self, role)
                if part is not None:
                    out.append((role, part, 1))
        return out

    def has(self, role: str) -> bool:
        return bool(self.ssds) if role == "ssd" else getattr(self, role) is not None


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
        spec = BuildFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(_explain(err), path=path, line=yamlio.line_of(raw, err["loc"]), hint=_hint(err)) from None
    parts_raw = raw.get("parts") or {}
    lines = {role: yamlio.line_of(raw, ["parts", role]) or 0 for role in parts_raw}
    lines.update({f"rules.{rid}": yamlio.line_of(raw, ["rules", rid]) or 0 for rid in raw.get("rules") or {}})

    def find(role: str, name: str) -> Any:
        category = "ssd" if role == "ssd" else role
        try:
            return catalog.resolve(name, category)
        except LookupError as exc:
            raise InputError(
                str(exc),
                path=path,
                line=lines.get(role),
                hint=f"use a catalog id or name (`partpicker catalog list {category}`)",
            ) from None

    p = spec.parts
    gpu_name, gpu_count = _counted(p.gpu)
    ram_name, ram_count = _counted(p.ram)
    ssd_names = [p.ssd] if isinstance(p.ssd, str) else list(p.ssd or [])
    gpu = find("gpu", gpu_name) if gpu_name else None
    return Build(
        name=spec.name or Path(path).stem,
        profile=spec.profile,
        target_gpus=target_for(spec.profile, spec.target_gpus, gpu_count if gpu else 0),
        cpu=find("cpu", p.cpu) if p.cpu else None,
        motherboard=find("motherboard", p.motherboard) if p.motherboard else None,
        gpu=gpu,
        gpu_count=gpu_count if gpu else 0,
        ram=find("ram", ram_name) if ram_name else None,
        ram_count=ram_count,
        ssds=tuple(find("ssd", n) for n in ssd_names),
        psu=find("psu", p.psu) if p.psu else None,
        case=find("case", p.case) if p.case else None,
        cooler=find("cooler", p.cooler) if p.cooler else None,
        rules=dict(spec.rules),
        as_of=spec.as_of,
        path=path,
        lines=lines,
    )


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
    return f"{loc}: {err['msg']} (got {err.get('input')!r})"


def _hint(err: Any) -> str:
    if err["type"] == "extra_forbidden":
        return (
            "allowed keys: name, profile, target_gpus, as_of, parts, rules; "
            "parts: cpu, motherboard, gpu, ram, ssd, psu, case, cooler"
        )
    return "see examples/article-2018.yaml for the format"
