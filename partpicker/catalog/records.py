"""Compact typed records of JSON Lines parts (msgspec structs), made from the pydantic models.

A large catalog's parts are read into these, not into pydantic models: one msgspec decoder
for every line (the ``category`` key picks the struct), with the models' types, bounds,
literals and ``extra="forbid"``, then the checks msgspec cannot say (vocabulary, slugs,
evidence) once per distinct value. A record reads like its part (same field names,
``price_as_of``, ``total_gb``); :func:`to_part` makes the pydantic part of a record, which
`suggest` does only for the few candidates left after its reduction.

The structs are generated from :mod:`partpicker.models`, so there is one schema. A line the
fast path rejects is not reported from here: the loader validates it again with pydantic,
which says what is wrong in the same words as for YAML (and accepts what pydantic accepts
that the decoder does not: none such is known since values are strict, issue 11).
"""

from __future__ import annotations

import bisect
import datetime as dt
import operator
import types
import typing
from array import array
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, Union

import annotated_types
import msgspec
from pydantic import AfterValidator, BaseModel
from pydantic.fields import FieldInfo

from partpicker.models import CATEGORIES, SLUG, WEAK_EVIDENCE, Part, spec_fields


class Record(msgspec.Struct, gc=False):
    """Base of the generated part records (decoded, checked, then made slim)."""


_CONSTRAINTS: dict[type, str] = {
    annotated_types.Ge: "ge",
    annotated_types.Le: "le",
    annotated_types.Gt: "gt",
    annotated_types.Lt: "lt",
    annotated_types.MinLen: "min_length",
    annotated_types.MaxLen: "max_length",
}


def _meta(metadata: list[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in metadata:
        key = _CONSTRAINTS.get(type(item))
        if key is not None:
            out[key] = getattr(item, key)
        elif isinstance(item, FieldInfo):
            out.update(_meta(item.metadata))
    return out


def _validators(metadata: list[Any]) -> list[Callable[[Any], Any]]:
    return [item.func for item in metadata if isinstance(item, AfterValidator)]  # type: ignore[misc]


def _type(annotation: Any, metadata: list[Any]) -> Any:
    """The msgspec type of a pydantic annotation (lists become tuples: compact, hashable)."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *extra = typing.get_args(annotation)
        return _type(inner, [*metadata, *extra])
    if origin in (Union, types.UnionType):  # constraints bind the arms that are not None
        arms = [a if a is type(None) else _type(a, metadata) for a in typing.get_args(annotation)]
        return Union[tuple(arms)]  # noqa: UP007
    constraints = _meta(metadata)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        found: Any = struct_of(annotation)
    elif origin is list:
        found = tuple[_type(typing.get_args(annotation)[0], []), ...]  # type: ignore[misc]
    elif origin is dict:
        key, value = typing.get_args(annotation)
        found = dict[_type(key, []), _type(value, [])]  # type: ignore[misc]
    else:
        found = annotation  # str, int, float, bool, dt.date, Literal[...]
    return typing.Annotated[found, msgspec.Meta(**constraints)] if constraints else found


@cache
def struct_of(model: type[BaseModel]) -> type[msgspec.Struct]:
    """The msgspec struct of a pydantic model (a part model's is tagged by its category)."""
    fields: list[Any] = []
    for name, info in model.model_fields.items():
        kind = _type(info.annotation, list(info.metadata))
        if info.default_factory is not None:
            fields.append((name, kind, msgspec.field(default_factory=tuple if info.default_factory is list else dict)))
        elif info.is_required():
            fields.append((name, kind))
        else:
            fields.append((name, kind, info.default))
    fields.sort(key=lambda f: len(f) > 2)  # msgspec wants the required fields first
    if issubclass(model, Part):
        return msgspec.defstruct(
            model.__name__,
            fields,
            bases=(Record,),
            tag_field="category",
            tag=model.category,
            forbid_unknown_fields=True,
            gc=False,
            namespace={"category": model.category},  # reads like the part: record.category
        )
    return msgspec.defstruct(model.__name__, fields, forbid_unknown_fields=True, gc=False)


@cache
def _vocabulary(model: type[Part]) -> tuple[tuple[str, Callable[[Any], Any], bool], ...]:
    """The top-level fields of a part model with an after-validator: (name, check, is a list)."""
    out: list[tuple[str, Callable[[Any], Any], bool]] = []
    for name, info in model.model_fields.items():
        checks = _validators(list(info.metadata))
        is_list = typing.get_origin(info.annotation) is list
        if is_list:
            item = typing.get_args(info.annotation)[0]
            if typing.get_origin(item) is typing.Annotated:
                checks = _validators(list(typing.get_args(item)[1:]))
        out.extend((name, check, is_list) for check in checks)
    return tuple(out)


@cache
def decoder() -> msgspec.json.Decoder[Any]:
    """One decoder for every category's lines."""
    return msgspec.json.Decoder(Union[tuple(struct_of(cls) for cls in CATEGORIES.values())])  # noqa: UP007


@cache
def _models() -> dict[type, type[Part]]:
    return {struct_of(cls): cls for cls in CATEGORIES.values()}


def model_of(record: Any) -> type[Part]:
    """The part model of a record."""
    return model_of_type(type(record))


def model_of_type(kind: type) -> type[Part]:
    """The part model of a record type."""
    return _models()[kind]


_MEMO_LIMIT = 1 << 16


class Checker:
    """The checks msgspec cannot say, memoised on the value (vocabulary words repeat)."""

    def __init__(self) -> None:
        self.plans: dict[type, tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]] = {}
        self.fixed: dict[tuple[type, tuple[Any, ...]], tuple[Any, ...] | bool] = {}
        """The normalised vocabulary of each record type's values seen (most records share them)."""
        self.words: dict[tuple[Callable[[Any], Any], str], str | None] = {}
        self.evidence_keys: dict[str, frozenset[str]] = {
            cat: frozenset(spec_fields(cls)) for cat, cls in CATEGORIES.items()
        }

    def word(self, check: Callable[[Any], Any], value: str) -> str | None:
        key = (check, value)
        if key not in self.words:
            try:
                self.words[key] = str(check(value))
            except ValueError:  # PydanticCustomError is a ValueError
                self.words[key] = None
        return self.words[key]

    def fix(self, record: Any) -> bool:
        """Normalise the vocabulary of ``record`` in place; False if pydantic would reject it."""
        if not SLUG.match(record.id):
            return False
        kind = type(record)
        plan = self.plans.get(kind) or self._plan(kind)
        names, values_of = plan
        if names:
            values = values_of(record)
            key = (kind, values)
            fixed = self.fixed.get(key)
            if fixed is None:
                if len(self.fixed) >= _MEMO_LIMIT:  # (a catalog of free-text words: keep memory flat)
                    self.fixed.clear()
                fixed = self._fixed(model_of(record), names, values)
                fixed = self.fixed[key] = True if fixed == values else fixed  # True: already normal
            if fixed is False:
                return False
            if fixed is not True:
                for name, old, new in zip(names, values, fixed, strict=True):
                    if new is not old:
                        setattr(record, name, new)
        return self._evidence_ok(record)

    def _plan(self, kind: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]]]:
        names = tuple(dict.fromkeys(name for name, _, _ in _vocabulary(model_of_type(kind))))
        getter = operator.attrgetter(*names) if len(names) > 1 else (lambda r: tuple(getattr(r, n) for n in names))
        plan = self.plans[kind] = (names, getter)
        return plan

    def _fixed(self, model: type[Part], names: tuple[str, ...], values: tuple[Any, ...]) -> tuple[Any, ...] | bool:
        """The normalised vocabulary values of a record (each field's checks in turn), False if
        one is not a word pydantic accepts."""
        current = dict(zip(names, values, strict=True))
        for name, check, is_list in _vocabulary(model):
            value = current[name]
            if value is None:
                continue
            if is_list:
                fixed: Any = tuple(self.word(check, v) for v in value)
                if None in fixed:
                    return False
            else:
                fixed = self.word(check, value)
                if fixed is None:
                    return False
            if fixed != value:
                current[name] = fixed
        return tuple(current[name] for name in names)

    def _evidence_ok(self, record: Any) -> bool:
        found = record.field_evidence
        if not found:
            return True
        if not found.keys() <= self.evidence_keys[record.category]:
            return False
        for ev in found.values():  # noqa: SIM110 (a loop, not all() of a generator: this runs once a line)
            if ev.note is None and ev.kind in WEAK_EVIDENCE:
                return False
        return True


def from_part(part: Part) -> Any:
    """The record of a validated pydantic part (for lines only pydantic's lax mode accepts)."""
    return msgspec.convert(part.model_dump(), struct_of(type(part)))


def to_part(record: Any) -> Part:
    """The pydantic part of a record (pydantic-core builds it from the record's plain values)."""
    raw = msgspec.to_builtins(record)
    del raw["category"]
    # Lax only for shapes: msgspec typed the record strictly already; its tuples are lists here.
    return model_of(record).model_validate(raw, strict=False)


# -- slim records: what a loaded JSON Lines part keeps in memory -----------------------------


class Point(msgspec.Struct, gc=False, frozen=True):
    """A price point of a slim record (its date, amount and kind; the source stays in the file)."""

    usd: float
    date: dt.date
    kind: str = "street"


KINDS = ("street", "msrp", "used")
"""The price kinds, by their number in :attr:`Slim.price_kinds`."""
_MSRP = KINDS.index("msrp")
_KIND_NUMBERS = {kind: number for number, kind in enumerate(KINDS)}


if TYPE_CHECKING:
    IntArray = array[int]
    FloatArray = array[float]
else:  # (what msgspec reads of the annotations: `array[int]` is no type before Python 3.12)
    IntArray = FloatArray = array


class Slim(msgspec.Struct, gc=False, array_like=True):
    """Base of the slim records: a part's id, name, aliases and specs, its price points sorted
    by date (ordinals, amounts and kinds, packed), and where its line is (to make the full
    part from). They go from one process to another as MessagePack (:func:`wire_encoder`)."""

    id: str
    name: str
    aliases: tuple[str, ...]
    price_days: IntArray
    price_usd: FloatArray
    price_kinds: bytes
    file_no: int
    offset: int
    line: int

    def _point(self, at: int) -> Point:
        return Point(self.price_usd[at], dt.date.fromordinal(self.price_days[at]), KINDS[self.price_kinds[at]])

    def price_as_of(self, day: dt.date) -> Point | None:
        """The latest price point on or before ``day``, as :meth:`Part.price_as_of` (of
        points on one day, the last listed)."""
        at = bisect.bisect_right(self.price_days, day.toordinal()) - 1
        return None if at < 0 else self._point(at)

    def price_of(self, day: dt.date) -> Point | None:
        """As :func:`partpicker.pricing.price_of`: the newest street or used point on or
        before ``day``, else the newest MSRP point on or before it (of points on one day,
        the last listed)."""
        msrp = None
        for at in range(bisect.bisect_right(self.price_days, day.toordinal()) - 1, -1, -1):
            if self.price_kinds[at] != _MSRP:
                return self._point(at)
            if msrp is None:
                msrp = at
        return None if msrp is None else self._point(msrp)

    @property
    def prices(self) -> tuple[Point, ...]:
        return tuple(self._point(at) for at in range(len(self.price_days)))

    @property
    def total_gb(self) -> int:
        """A memory kit's total size (as :attr:`partpicker.models.Ram.total_gb`)."""
        return int(self.modules * self.module_gb)  # type: ignore[attr-defined]


@cache
def slim_of(record_type: type[msgspec.Struct]) -> tuple[type[Slim], tuple[str, ...]]:
    """The slim struct of a record type, and the spec fields it keeps."""
    model = _models()[record_type]
    specs = spec_fields(model)
    kinds = {f.name: f.type for f in msgspec.structs.fields(record_type)}
    made = msgspec.defstruct(f"Slim{model.__name__}", [(n, kinds[n]) for n in specs], bases=(Slim,), gc=False)
    cls = typing.cast("type[Slim]", made)
    _SLIM_MODELS[cls] = model
    return cls, specs


_SLIM_MODELS: dict[type, type[Part]] = {}


class Slimmer:
    """Makes slim records, sharing equal nested spec values (a slot map, a list of sockets)
    between parts: one object per distinct value, found by its JSON encoding."""

    def __init__(self, file_no: int) -> None:
        self.file_no = file_no
        self.shared: dict[bytes, Any] = {}
        self.plans: dict[type, tuple[type[Slim], Callable[[Any], tuple[Any, ...]], tuple[int, ...]]] = {}

    def _plan(self, record_type: type) -> tuple[type[Slim], Callable[[Any], tuple[Any, ...]], tuple[int, ...]]:
        cls, specs = slim_of(record_type)
        kinds = {f.name: f.type for f in msgspec.structs.fields(record_type)}
        nested = tuple(i for i, name in enumerate(specs) if _is_nested(kinds[name]))
        getter = operator.attrgetter(*specs) if len(specs) > 1 else (lambda r, n=specs[0]: (getattr(r, n),))
        plan = self.plans[record_type] = (cls, getter, nested)
        return plan

    def slim(self, record: Any, offset: int, line: int) -> Slim:
        plan = self.plans.get(type(record)) or self._plan(type(record))
        cls, getter, nested = plan
        values = list(getter(record))
        shared, encode = self.shared, msgspec.json.encode
        for i in nested:
            value = values[i]
            if value:
                values[i] = shared.setdefault(encode(value), value)
        points = sorted(record.prices, key=_DATE) if len(record.prices) > 1 else record.prices  # stable
        return cls(
            record.id,
            record.name,
            record.aliases,
            array("i", [p.date.toordinal() for p in points]),
            array("d", [p.usd for p in points]),
            bytes([_KIND_NUMBERS[p.kind] for p in points]),
            self.file_no,
            offset,
            line,
            *values,
        )


_DATE = operator.attrgetter("date")


def _array_out(value: Any) -> bytes:
    if isinstance(value, array):
        return value.typecode.encode() + value.tobytes()
    raise NotImplementedError(f"cannot send {type(value).__name__}")


def _array_in(kind: type, value: Any) -> Any:
    if kind is array and isinstance(value, bytes) and value:
        made = array(chr(value[0]))
        made.frombytes(memoryview(value)[1:])
        return made
    raise NotImplementedError(f"cannot read {kind.__name__}")


@cache
def wire_encoder() -> msgspec.msgpack.Encoder:
    """The MessagePack encoder of slim records (their arrays as their type code and bytes):
    what a `suggest` process sends another of the parts it kept (issue 14: about 5 us a slim
    record, where pickle took 25 and making it again from its line 15)."""
    return msgspec.msgpack.Encoder(enc_hook=_array_out)


def wire_decoder(kind: Any) -> msgspec.msgpack.Decoder[Any]:
    """The MessagePack decoder of values of type ``kind`` (holding slim records) that
    :func:`wire_encoder` encoded."""
    return msgspec.msgpack.Decoder(kind, dec_hook=_array_in)


def slim_type(category: str) -> type[Slim]:
    """The slim record type of a category's parts."""
    return slim_of(struct_of(CATEGORIES[category]))[0]


def _is_nested(kind: Any) -> bool:
    """Whether values of a msgspec type are containers or structs (worth sharing)."""
    arms = typing.get_args(kind) if typing.get_origin(kind) in (Union, types.UnionType) else (kind,)
    for arm in arms:
        if typing.get_origin(arm) is typing.Annotated:
            arm = typing.get_args(arm)[0]
        if typing.get_origin(arm) in (tuple, dict) or (isinstance(arm, type) and issubclass(arm, msgspec.Struct)):
            return True
    return False


@cache
def _checker() -> Checker:
    return Checker()


def slim_model(slim: Slim) -> type[Part]:
    """The part model of a slim record."""
    return _SLIM_MODELS[type(slim)]


def part_from_line(handle: Any, slim: Slim) -> Part:
    """The pydantic part of a slim record, made from its line in the file (open, binary) it
    came from."""
    return part_at(handle, slim.offset)


def part_at(handle: Any, offset: int) -> Part:
    """The pydantic part of the line at ``offset`` of a JSON Lines file (open, binary) that
    loaded without a problem."""
    line = _line_at(handle, offset)
    record = _fast_record(line)
    return _lax_part(line) if record is None else to_part(record)


def _line_at(handle: Any, offset: int) -> bytes:
    handle.seek(offset)
    line: bytes = handle.readline()
    return line


def _fast_record(line: bytes) -> Any | None:
    """The record of a line the fast path takes (None: one only pydantic's lax mode accepts)."""
    try:
        record = decoder().decode(line)
    except msgspec.DecodeError:
        return None
    return record if _checker().fix(record) else None


def _lax_part(line: bytes) -> Part:
    raw = msgspec.json.decode(line)  # a line only pydantic's lax mode accepts
    return CATEGORIES[raw.pop("category")].model_validate(raw)
