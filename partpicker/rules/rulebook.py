"""Rule definitions: one YAML file per rule in `rules/` (file stem = rule id).

A rule file carries the id, profile, severity, the roles it ties, its parameters with
defaults, message templates per status, the explanation with its sources, and pass/fail
examples. The check itself is a Python function registered under the same id in
:mod:`partpicker.rules.checks`; nothing from a data file is evaluated.
"""

from __future__ import annotations

import hashlib
import re
import string
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from partpicker import cache, paths, yamlio
from partpicker.build import PROFILES, Build
from partpicker.errors import InputError
from partpicker.kinds import Nested, Plain, dict_of, list_of, make
from partpicker.parts import Part

Status = Literal["pass", "fail", "unknown"]
Severity = Literal["error", "warning", "info"]
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


class ParamKind(Plain):
    """A rule parameter with its default, and the type and range an override must keep to
    (:class:`partpicker.rules.schema.Param` is its schema)."""

    FIELDS = ("default", "help", "type", "min", "max")
    if TYPE_CHECKING:
        default: int | float | str | bool
        type: str | None

    @property
    def kind(self) -> str:
        """The declared type, else the default's (a whole-number default of a float param is a float)."""
        return self.type or {bool: "bool", int: "int", float: "float", str: "str"}[type(self.default)]


class ExampleKind(Plain):
    """A small build on which the rule must give ``expect`` (schema: ``schema.Example``)."""

    FIELDS = ("id", "expect", "target_gpus", "gpu_count", "power_limit_w", "parts", "overrides", "params", "why")


class RuleSpecKind(Plain):
    """A rule as its file declares it (schema: :class:`partpicker.rules.schema.RuleSpec`)."""

    FIELDS = (
        "id",
        "title",
        "profile",
        "severity",
        "roles",
        "reads",
        "applies_when",
        "params",
        "message",
        "explanation",
        "formula",
        "sources",
        "examples",
    )
    NESTED: ClassVar[Nested] = {"params": dict_of(ParamKind), "examples": list_of(ExampleKind)}
    if TYPE_CHECKING:
        params: dict[str, Any]

    def defaults(self) -> dict[str, Any]:
        """The parameters at their defaults."""
        return {name: p.default for name, p in self.params.items()}


if TYPE_CHECKING:
    from partpicker.rules.schema import Example as Example
    from partpicker.rules.schema import Param as Param
    from partpicker.rules.schema import RuleSpec as RuleSpec
else:  # at run time the plain classes, which the schema's models subclass (as partpicker.kinds)
    Param, Example, RuleSpec = ParamKind, ExampleKind, RuleSpecKind


def render(template: str, values: dict[str, Any]) -> str:
    """Fill a message template's ``{name}`` placeholders (plain names only, no attribute access)."""
    out = []
    for literal, name, spec, _conv in string.Formatter().parse(template):
        out.append(literal)
        if name is not None:
            if name in values:
                try:
                    out.append(format(values[name], spec or ""))
                except (TypeError, ValueError):
                    out.append(str(values[name]))
            else:
                out.append("?")
    return agree("".join(out))


_ONE = re.compile(r"(?<![\d.,$])\b1 (card|module|GPU|adjacent pair|cable|slot|socket|kit|drive|PSU|die)s\b")
_ONE_KIND = re.compile(r"(?<![\d.,$])\b1 ((?:blower|open-air|water-cooled|passive|[A-Z][\w-]*) )cards\b")
_ONE_VERB = re.compile(r"\b(1 (?:card|GPU)(?: [\d.]+ slots wide)?) (need|fit|do not fit)\b")
_VERB = {"need": "needs", "fit": "fits", "do not fit": "does not fit"}
_AN = re.compile(r"\ba ([AEIO][A-Z-])")


def agree(text: str) -> str:
    """A filled message in agreement: "1 cards" is "1 card", "1 GPU need" "1 GPU needs", "a ATX"
    "an ATX" (templates say ``{n} cards``; a count of one reads as English)."""
    text = _ONE_KIND.sub(r"1 \1card", _ONE.sub(r"1 \1", text))
    text = _ONE_VERB.sub(lambda m: f"{m[1]} {_VERB[m[2]]}", text)
    return _AN.sub(r"an \1", text)


def load_rules(folder: str | Path | None = None) -> dict[str, RuleSpec]:
    """Every rule in the folder (default: the bundled `rules/`), by id, in profile order.

    Made once per rule set per process (memoised on the files' names and bytes; a fresh dict
    each call, of the same frozen specs), and for the bundled rules kept in the user cache
    folder (:mod:`partpicker.cache`) so that a command does not parse 21 YAML files again.
    """
    root = Path(folder) if folder else paths.rules_dir()
    files = sorted(root.glob("*.yaml"))
    key = _content_key(files, bundled=folder is None)
    found = _MEMO.get(key) if key is not None else None
    if found is None:
        found = _stored(key) if key is not None and folder is None else None
        if found is None:
            found = _parse_rules(files)
            if key is not None and folder is None:
                cache.store(_KIND, key, msgspec.msgpack.encode([cache.flatten(spec) for spec in found.values()]))
        if key is not None:
            _MEMO[key] = found
    return dict(found)


_KIND = "bundled-rules"
_MEMO: dict[str, dict[str, RuleSpec]] = {}


def _content_key(files: list[Path], *, bundled: bool) -> str | None:
    """A hash of the rule files' names and bytes (None if one cannot be read: then the plain
    path reports it)."""
    digest = hashlib.blake2b(digest_size=32)
    for path in files:
        try:
            data = yamlio.read_bytes(path)
        except InputError:
            return None
        digest.update(f"{path}\0{len(data)}\n".encode())
        digest.update(data)
    if bundled and cache.cache_dir() is not None:
        return cache.key_of(_KIND, [], extra=digest.hexdigest())
    return digest.hexdigest()


def _stored(key: str) -> dict[str, RuleSpec] | None:
    """The bundled rules from the cache, or None (absent, stale, or not rules this code wrote)."""
    payload = cache.load(_KIND, key)
    if payload is None:
        return None
    try:
        specs = [make(RuleSpec, raw) for raw in msgspec.msgpack.decode(payload)]
    except (msgspec.DecodeError, ValueError, TypeError):
        return None
    return {spec.id: spec for spec in specs}


def _parse_rules(files: list[Path]) -> dict[str, RuleSpec]:
    from pydantic import ValidationError

    from partpicker.rules.schema import RuleSpec as Schema

    rules: dict[str, RuleSpec] = {}
    for path in files:
        loaded = yamlio.read(path)
        try:
            spec = Schema.model_validate(loaded.data)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(map(str, err["loc"]))
            raise InputError(
                f"invalid rule file: {loc}: {err['msg']}", path=path, line=yamlio.line_of(loaded.data, err["loc"])
            ) from None
        if spec.id != path.stem:
            raise InputError(f"rule id {spec.id!r} does not match the file name", path=path, line=1)
        rules[spec.id] = spec
    order = {p: i for i, p in enumerate(PROFILES["dl-workstation"])}
    return dict(sorted(rules.items(), key=lambda kv: (order[kv[1].profile], kv[0])))


def rules_for(profile: str, rules: dict[str, RuleSpec]) -> list[RuleSpec]:
    """The rules a profile runs."""
    layers: Sequence[str] = PROFILES[profile]
    return [r for r in rules.values() if r.profile in layers]


def example_build(example: Example, catalog: Any) -> Build:
    """The :class:`~partpicker.build.Build` an example describes (overrides applied)."""

    def get(role: str, ident: str) -> Part:
        part: Part | None = catalog.parts.get(ident)
        if part is None or part.category != role:
            raise InputError(f"example {example.id}: no {role} with id {ident!r} in the catalog")
        if role in example.overrides:
            from partpicker.models import CATEGORIES

            part = CATEGORIES[role].model_validate({**part.model_dump(), **example.overrides[role]})
        return part

    parts = {
        role: [get(role, i) for i in ([ident] if isinstance(ident, str) else ident)]
        for role, ident in example.parts.items()
    }
    return Build.of(
        example.id,
        "dl-workstation",
        example.target_gpus,
        parts,
        {"gpu": example.gpu_count},
        power_limit_w=example.power_limit_w,
    )
