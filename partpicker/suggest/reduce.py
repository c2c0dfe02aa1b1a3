"""`suggest` on a JSON Lines catalog, streaming: only the parts a request can choose are kept.

The search keeps, per role, per class of parts alike on every field its rules read (the
rules' ``reads:``; :func:`class_key`), the ``--top`` cheapest offered parts
(:meth:`~partpicker.suggest.search.Search._alike_cheapest`): a build with any other member of
a class has the same rule statuses and costs at least as much. :func:`streamed_catalog` makes
that cut while the file is read, so memory grows with the classes, not with the parts:

- every line is still decoded and checked as it streams by (loading is `catalog check`:
  :func:`partpicker.catalog.read_catalog` runs the per-part checks on each record, but those
  that only warn, :data:`~partpicker.catalog.checks.interface.WARNING_CHECKS`: only errors are
  read of what they find);
- a part is offered as the request offers it (:func:`partpicker.suggest.offer.offer`: priced
  as of the date, within ``--stale-days``, ``--min-vram``, ``--min-storage``), and kept only
  if it is among the ``--top`` cheapest of its class for *every* field any rule of the
  profile reads of its role (errors and warnings alike: the searches `suggest` runs --- the
  answer, the cheaper one if unknowns hold, the builder's pick with warnings enforced, the
  near misses with a rule relaxed --- each read a subset, so each keeps a subset of these);
  a part with an unknown spec is a class of its own (None is a value of the key);
- what the answer says of the whole catalog is counted on the way (:class:`Reduction`): how
  many parts each role offers, the nearest cheaper offered part of a chosen one (its price
  and where its line is: it is made again from its line), the newest price of a category;
- the checks of the whole catalog are made on 64-bit hashes: duplicate ids, and an alias
  that names two parts (``alias-conflict``). A catalog with any error, or with two hashes
  alike (a real problem, or a collision), is not reduced: the caller loads it whole, as
  before, and reports exactly what is wrong.

What falls back to loading the whole catalog: YAML catalogs, parts and prices of your own
(``--parts``, the per-user files), ``--verified-only``, and a request that names parts
(``--exclude``, ``--require``: resolving a name reads every name of a category). ``--gpu``
streams: a card is offered if its chip is of the model; a model no offered card is of falls
back (the whole catalog says which card the name means, or that none is for sale).
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
import functools
import operator
import types
import typing
from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from pathlib import Path
from typing import Any, Union

import msgspec
from pydantic import BaseModel

from partpicker import yamlio
from partpicker.catalog import Catalog, catalog_files, read_catalog, records
from partpicker.catalog.load import PartChecks, Problem, Span, gc_paused, read_jsonl_span, spans_of
from partpicker.errors import InputError
from partpicker.models import CATEGORIES
from partpicker.paths import user_parts_file, user_prices_file
from partpicker.pricing import fresh_price, kind_of
from partpicker.rules.rulebook import RuleSpec, rules_for
from partpicker.suggest import dominance, split
from partpicker.suggest.offer import VARIETY_ROLES, Priced, Request, big_enough, gpu_model_test, priced_key

_SCALARS = frozenset({int, float, str, bool, type(None)})
"""Types whose values are their own frozen form (:func:`dominance.freeze`)."""


def fields_read(rules: Iterable[RuleSpec], role: str) -> tuple[str, ...]:
    """Every field ``rules`` read of ``role``, sorted."""
    return tuple(sorted({name for rule in rules for name in rule.reads.get(role, ())}))


def class_key(fields: Sequence[str], frozen: Callable[[Any], Hashable]) -> Callable[[Any], tuple[Hashable, ...]]:
    """The class of a part (or slim record) on ``fields``: the tuple of their values, nested
    ones (slot maps, lists of sockets) made hashable by ``frozen``. Parts of one class are
    alike to every rule that reads only these fields."""
    values: Callable[[Any], tuple[Any, ...]] = (
        operator.attrgetter(*fields) if len(fields) > 1 else lambda p: tuple(getattr(p, f) for f in fields)
    )

    def key(part: Any) -> tuple[Hashable, ...]:
        return tuple([v if type(v) in _SCALARS else frozen(v) for v in values(part)])

    return key


class Freezer:
    """A hashable stand-in for a spec value: a nested value (a slot map, a list of sockets) is
    its JSON encoding, one bytes object per distinct encoding, found again by the value itself
    (slim records share one object per distinct nested value). A record's value and the
    pydantic model of it encode alike (the structs are made from the models, in their field
    order: tested), so a part from YAML, a JSON Lines record and a part made from its line
    (`suggest`'s "why not a cheaper part") are of one class when their specs are equal.

    Bytes keep their hash once made, where a frozen tuple of a slot map is hashed again, all
    the way down, each time it is part of a key (issue 14: at 1M parts, freezing was 2.6 s of
    the searches' 18 s, profiled). A value JSON cannot hold is :func:`dominance.freeze` of it."""

    def __init__(self, by_json: dict[bytes, Hashable], by_id: dict[int, tuple[Any, Hashable]] | None) -> None:
        self.by_json, self.by_id = by_json, by_id
        """(``by_id`` None: not on the value, which it would keep alive: the records of a
        catalog being streamed are dropped as they go.)"""

    @classmethod
    def of(cls, catalog: Catalog) -> Freezer:
        """The freezer of the searches of ``catalog`` (its memo kept with the catalog's)."""
        return cls(catalog.memo.setdefault("frozen", {}), catalog.memo.setdefault("frozen-ids", {}))

    def remember(self, value: Any, frozen: bytes) -> None:
        """Take ``frozen`` as the stand-in of ``value`` (a nested value: :func:`frozen_value` of
        it, found as the reduction read it) without encoding it again."""
        assert self.by_id is not None
        self.by_id[id(value)] = (value, self.by_json.setdefault(frozen, frozen))

    def __call__(self, value: Any) -> Hashable:
        # (frozen_value, inline: this runs for every nested spec of every class key a search makes)
        if value is None or isinstance(value, int | float | str):
            return value
        if type(value) in (tuple, list) and all(type(v) in _SCALARS for v in value):
            return tuple(value)
        if self.by_id is not None:
            same = self.by_id.get(id(value))
            if same is not None and same[0] is value:
                return same[1]
        found = _encoded(value)
        if type(found) is bytes:
            found = self.by_json.setdefault(found, found)
            if self.by_id is not None:
                self.by_id[id(value)] = (value, found)  # the value is kept: its id names it
        return found


def frozen_value(value: Any) -> Hashable:
    """The hashable stand-in of a spec value that :class:`Freezer` finds (without its memo): a
    scalar itself, a tuple or list of scalars as a tuple (a record's is one already), any other
    value its JSON encoding, or :func:`dominance.freeze` of it if JSON cannot hold it."""
    if value is None or isinstance(value, int | float | str):
        return value
    if type(value) in (tuple, list) and all(type(v) in _SCALARS for v in value):
        return tuple(value)
    return _encoded(value)


def _encoded(value: Any) -> Hashable:
    try:
        return msgspec.json.encode(value, enc_hook=_dumped)
    except (TypeError, NotImplementedError):
        return dominance.freeze(value)


def _dumped(value: Any) -> Any:
    """A pydantic model as plain data, for the JSON encoder (anything else it cannot encode)."""
    if isinstance(value, BaseModel):
        return value.model_dump()
    raise NotImplementedError


def shape(request: Request, day: dt.date) -> tuple[Any, ...]:
    """What a reduction depends on in a request (but ``top``, which may be smaller)."""
    weights = tuple(request.weight(role) for role in request.roles)
    offered = (day, request.stale_days, request.min_vram, request.min_storage_gb, request.gpu)
    return (*offered, request.profile, request.roles, weights)


def record_key(
    category: str, fields: tuple[str, ...], plans: Sequence[str] | None = None
) -> Callable[[Any], tuple[Hashable, ...]]:
    """:func:`class_key` on ``fields`` with :func:`frozen_value`, of the records of a
    category, in fewer calls (it runs once a line): each field by its declared type (a
    record's values are of it), a scalar or a tuple of scalars as it is, another value but
    None (and an empty tuple) by its JSON encoding, a field of a type of several kinds by
    :func:`frozen_value` (``plans``: :func:`_plans` of them, if made already)."""
    plans = _plans(category, fields) if plans is None else plans
    values: Callable[[Any], tuple[Any, ...]] = (
        operator.attrgetter(*fields) if len(fields) > 1 else lambda r: tuple(getattr(r, f) for f in fields)
    )
    encoded = [i for i, plan in enumerate(plans) if plan == "encoded"]
    other = [i for i, plan in enumerate(plans) if plan == "other"]
    if not encoded and not other:
        return values
    encode = msgspec.json.encode

    def key(record: Any) -> tuple[Hashable, ...]:
        found = list(values(record))
        for i in encoded:
            value = found[i]
            if value is not None and value != ():
                found[i] = encode(value)
        for i in other:
            found[i] = frozen_value(found[i])
        return tuple(found)

    return key


def _plans(category: str, fields: tuple[str, ...]) -> list[str]:
    """How :func:`record_key` takes each of ``fields`` of the records of a category (:func:`_plan`)."""
    kinds = {f.name: f.type for f in msgspec.structs.fields(records.struct_of(CATEGORIES[category]))}
    return [_plan(kinds[name]) for name in fields]


def _plan(kind: Any) -> str:
    """How :func:`record_key` takes a field of msgspec type ``kind``: ``as-is`` (scalars, tuples
    of scalars), ``encoded`` (structs, dicts, tuples of them) or ``other``."""
    arms = [a for a in _arms(kind) if a is not type(None)]
    if all(_scalar_type(a) for a in arms):
        return "as-is"
    if len(arms) != 1:
        return "other"
    (arm,) = arms
    if typing.get_origin(arm) is tuple:
        return _tuple_plan(typing.get_args(arm))
    return "encoded" if _nested_type(arm) else "other"


def _tuple_plan(items: tuple[Any, ...]) -> str:
    """:func:`_plan` of a tuple type of these arguments (``X, ...``: of any length)."""
    if len(items) == 2 and items[1] is Ellipsis:
        item = [a for a in _arms(items[0]) if a is not type(None)]
        if all(_scalar_type(a) for a in item):
            return "as-is"
        if all(_nested_type(a) for a in item):
            return "encoded"
    return "other"


def _arms(kind: Any) -> list[Any]:
    """The types a value of ``kind`` may be of (its union's arms, without constraints)."""
    if typing.get_origin(kind) is typing.Annotated:
        kind = typing.get_args(kind)[0]
    if typing.get_origin(kind) in (Union, types.UnionType):
        return [a for arm in typing.get_args(kind) for a in _arms(arm)]
    return [kind]


def _scalar_type(kind: Any) -> bool:
    if typing.get_origin(kind) is typing.Literal:
        return all(type(v) in _SCALARS for v in typing.get_args(kind))
    return kind in _SCALARS


def _nested_type(kind: Any) -> bool:
    """Whether values of ``kind`` are structs or dicts (never scalars, tuples or None)."""
    return typing.get_origin(kind) is dict or (isinstance(kind, type) and issubclass(kind, msgspec.Struct))


class _Role:
    """The classes of one role being reduced, and the index of its offered parts."""

    def __init__(self, category: str, fields: tuple[str, ...], keep: int, weight: int) -> None:
        plans = _plans(category, fields)
        self.fields, self.key, self.keep, self.weight = fields, record_key(category, fields, plans), keep, weight
        self.encodable = tuple(
            (i, name) for i, (name, plan) in enumerate(zip(fields, plans, strict=True)) if plan != "as-is"
        )
        """The fields (place in the key, name) whose values may stand in the key as their JSON
        encoding."""
        self.best: dict[tuple[Hashable, ...], list[tuple[float, str, int, Any, tuple[float, dt.date, str]]]] = {}
        """Per class, the kept entries: (cost, id, seq, slim record, the price point it is
        offered at: usd, date, kind)."""
        self.usd = array("d")
        self.file_no = array("H")
        self.offset = array("q")

    def take(self, record: Any, point: Any, seq: int, file_no: int, offset: int, slim: Callable[[], Any]) -> None:
        """An offered part (its record; the file number and offset of its line), at the price
        ``point``; ``slim`` makes its slim record."""
        usd = point.usd
        self.usd.append(usd)
        self.file_no.append(file_no)
        self.offset.append(offset)
        cost = usd * self.weight
        key = self.key(record)
        kept = self.best.get(key)
        if kept is None:
            self.best[key] = [(cost, record.id, seq, slim(), (usd, point.date, point.kind))]
        elif len(kept) < self.keep or (cost, record.id) < kept[-1][:2]:  # the search's order: cost, then id
            entry = (cost, record.id, seq, slim(), (usd, point.date, point.kind))
            bisect.insort(kept, entry, key=operator.itemgetter(0, 1))
            del kept[self.keep :]


class Reducer:
    """Takes the slim records of a JSON Lines catalog as the loader reads them (:meth:`take`),
    keeping per role and class only what ``request`` can choose (the module docstring)."""

    def __init__(self, rules: dict[str, RuleSpec], request: Request, day: dt.date, *, wire: bool = False) -> None:
        self.request, self.day = request, day
        self.wire = wire
        """Whether :meth:`state` gives the kept entries as MessagePack (a forked reader's,
        whose state is handed over: :func:`records.wire_encoder` sends a slim record in a
        fifth of the time pickle takes, and in a third of the time making it again from its
        line took)."""
        profile = [r for r in rules_for(request.profile, rules) if all(role in request.roles for role in r.roles)]
        # Values by the search's own stand-ins (a nested one by its JSON encoding): the classes
        # on a field set are the ones the search finds on it (:meth:`Reduction.classes`).
        fields = {role: fields_read(profile, role) for role in request.roles}
        self.roles = {
            role: _Role(
                role,
                fields[role],
                request.top if role in VARIETY_ROLES else 1,
                request.weight(role),
            )
            for role in request.roles
        }
        self.newest: dict[str, dt.date] = {}
        """The newest price of each category, of its parts not offered."""
        self.ids = array("q")
        self.names = array("q")
        self.aliases = array("q")
        self.own_aliases = 0
        """How many parts have an alias that is their own name (it conflicts if another part has that name)."""
        self.seq = 0
        self.of_model = gpu_model_test(request.gpu) if request.gpu else None
        """``--gpu``: whether a card is of the model (only those are offered)."""

    def take(self, record: Any, category: str, file_no: int, offset: int, line: int, slim: Callable[[], Any]) -> None:
        """One valid part, as the loader read it (:data:`partpicker.catalog.load.Keep`)."""
        self.seq += 1
        self.ids.append(hash(record.id))  # (the hashes, inline: this runs once a line)
        name = hash((category, record.name.casefold()))
        self.names.append(name)
        if record.aliases:
            self._aliases(record.aliases, category, name)
        role = self.roles.get(category)
        point = None if role is None else fresh_price(record, self.day, self.request.stale_days)
        if category == "gpu" and self.of_model is not None and not self.of_model(record.chip):
            point = None
        if role is not None and point is not None and big_enough(record, category, self.request):
            role.take(record, point, self.seq, file_no, offset, slim)
        elif record.prices:  # the newest price of a category is read only when it offers nothing
            self._newest(category, max(p.date for p in record.prices))

    def _newest(self, category: str, day: dt.date) -> None:
        if day > self.newest.setdefault(category, day):
            self.newest[category] = day

    def _aliases(self, aliases: Sequence[str], category: str, name: int) -> None:
        """Keep the hashes of a part's aliases (not its own name's: ``own_aliases`` counts those)."""
        own = {hash((category, a.casefold())) for a in aliases}
        if name in own:
            own.discard(name)
            self.own_aliases += 1
        self.aliases.extend(own)

    def state(self) -> dict[str, Any]:
        """What this reducer took, as plain data (another process's, to :meth:`merge`)."""
        roles = {role: (self._best_of(role), st.usd, st.file_no, st.offset) for role, st in self.roles.items()}
        return {
            "seq": self.seq,
            "roles": roles,
            "newest": self.newest,
            "hashes": (self.ids, self.names, self.aliases),
            "own_aliases": self.own_aliases,
        }

    def _best_of(self, role: str) -> Any:
        """A role's kept entries: its classes (:attr:`wire`: as MessagePack, a list of (key,
        entries), which :func:`_groups` reads)."""
        best = self.roles[role].best
        return records.wire_encoder().encode(list(best.items())) if self.wire else best

    def merge(self, state: dict[str, Any], renumber: Callable[[Any], None] | None = None) -> None:
        """Take what another reducer took (its :meth:`state`) of the parts read after this
        one's, as if this one had read them: per class the ``--top`` cheapest of both (a
        total order, cost then id, so the same whichever read first), the rest in order.
        ``renumber`` corrects the line number of each of its slim records (in place)."""
        base = self.seq
        for role, (best, usd, file_no, offset) in state["roles"].items():
            mine = self.roles[role]
            mine.usd.extend(usd)
            mine.file_no.extend(file_no)
            mine.offset.extend(offset)
            groups = _groups(role, best)
            if renumber is not None:
                for _, group in groups:
                    for entry in group:
                        renumber(entry[3])
            if not base and not mine.best:  # (the first share: its classes as they are)
                mine.best = dict(groups)
                continue
            for key, group in groups:
                theirs = [(cost, pid, seq + base, slim, at) for cost, pid, seq, slim, at in group]
                kept = mine.best.get(key)
                mine.best[key] = theirs if kept is None else sorted(kept + theirs, key=_ORDER)[: mine.keep]
        for category, day in state["newest"].items():
            self._newest(category, day)
        for mine_hashes, theirs_hashes in zip((self.ids, self.names, self.aliases), state["hashes"], strict=True):
            mine_hashes.extend(theirs_hashes)
        self.seq += state["seq"]
        self.own_aliases += state["own_aliases"]

    def suspect(self) -> bool:
        """Whether two parts may share an id, or an alias may name two parts (equal hashes:
        then the whole catalog is loaded, and checked exactly)."""
        if _repeats(self.ids) or _repeats(self.aliases, self.names):
            return True
        return bool(self.own_aliases) and _repeats(self.names)

    def fill(self, catalog: Catalog) -> None:
        """Add the kept parts to ``catalog`` (in the order they were read) with the
        :class:`Reduction` that says what was left out."""
        kept = [
            (seq, role, slim, at)
            for role, state in self.roles.items()
            for group in state.best.values()
            for _, _, seq, slim, at in group
        ]
        kept.sort(key=operator.itemgetter(0))
        for _, role, slim, _ in kept:
            catalog.add_record(slim, role)
        catalog.reduction = Reduction(self, catalog)
        # The searches' offer, as `offer.priced_parts` would make it of the kept parts (each is
        # offered, at the point it was kept at: the same one its slim record gives).
        priced: dict[str, list[Priced]] = {role: [] for role in self.roles}
        for _, role, slim, (usd, date, kind) in kept:
            priced[role].append(Priced(slim, usd, date, kind))
        for role, items in priced.items():
            catalog.memo[priced_key(role, self.day, self.request.stale_days)] = items
        self._remember(Freezer.of(catalog))

    def _remember(self, freezer: Freezer) -> None:
        """Leave with ``freezer`` the searches' stand-ins of the kept parts' nested values
        (their classes' keys hold them: the searches do not encode them again)."""
        for state in self.roles.values():
            if state.encodable:
                for key, group in state.best.items():
                    for at, field in state.encodable:
                        frozen = key[at]
                        if isinstance(frozen, bytes):
                            for entry in group:
                                freezer.remember(getattr(entry[3], field), frozen)


_ORDER = operator.itemgetter(0, 1)
"""The order of a class's kept entries: cost, then id (the search's)."""


def _groups(role: str, best: Any) -> Iterable[tuple[tuple[Hashable, ...], list[tuple[Any, ...]]]]:
    """The (key, entries) of a role's kept classes, as :meth:`Reducer.state` gave them."""
    if type(best) is not bytes:
        return best.items()  # type: ignore[no-any-return]
    return [(_key(key), group) for key, group in _wire_decoder(role).decode(best)]


def _key(sent: tuple[Any, ...]) -> tuple[Hashable, ...]:
    """A class key as it was before MessagePack (which gives a tuple of scalars back as a list)."""
    return tuple([tuple(v) if type(v) is list else v for v in sent])


@functools.cache
def _wire_decoder(role: str) -> msgspec.msgpack.Decoder[Any]:
    """The decoder of a role's kept classes as :meth:`Reducer._best_of` sends them. A key is
    a tuple of scalars, tuples of scalars and bytes (:func:`frozen_value`), which
    MessagePack gives back as they were but the tuples, as lists (:func:`_key`)."""
    slim: Any = records.slim_type(role)
    entry: Any = tuple[float, str, int, slim, tuple[float, dt.date, str]]
    return records.wire_decoder(list[tuple[tuple[Any, ...], list[entry]]])


def _repeats(values: array[int], among: array[int] | None = None) -> bool:
    """Whether a value of ``values`` appears twice in it, or also in ``among``: one set of the
    values, made and compared at C speed (at 1M parts the bitmap of low bits this replaced
    took 1.1 s of Python loops, the sets 0.3 s; a set lives for one call, about 64 MB per
    million values)."""
    seen = set(values)
    if len(seen) != len(values):
        return True
    return among is not None and not seen.isdisjoint(among)


class Reduction:
    """What a reduced catalog knows of the parts it left out (:attr:`Catalog.reduction`)."""

    def __init__(self, reducer: Reducer, catalog: Catalog) -> None:
        self.shape = shape(reducer.request, reducer.day)
        self.top = reducer.request.top
        self.fields = {role: state.fields for role, state in reducer.roles.items()}
        self.keep = {role: state.keep for role, state in reducer.roles.items()}
        self.class_count = {role: len(state.best) for role, state in reducer.roles.items()}
        self.index = {role: (state.usd, state.file_no, state.offset) for role, state in reducer.roles.items()}
        self.newest = {c: day for c, day in reducer.newest.items() if c not in self.index or not self.offered(c)}
        """The newest price of each category that offers nothing (what the answer says then)."""
        self.catalog = catalog
        self.keys = {
            role: {entry[1]: key for key, group in state.best.items() for entry in group}
            for role, state in reducer.roles.items()
        }
        """Each kept part's class key, by role and id (:meth:`key_of`)."""

    def admits(self, request: Request, day: dt.date, fields: dict[str, tuple[str, ...]]) -> bool:
        """Whether a search of ``request`` (reading ``fields`` of each role) finds in the reduced
        catalog what it would find in the whole one."""
        return (
            shape(request, day) == self.shape
            and not (request.exclude or request.require or request.verified_only)
            and (request.top <= self.top)
            and all(set(names) <= set(self.fields.get(role, ())) for role, names in fields.items())
        )

    def classes(self, role: str, fields: tuple[str, ...], keep: int) -> int | None:
        """How many classes of alike parts on ``fields`` the kept parts of ``role`` form, when
        they are already what a search keeps of them (the ``keep`` cheapest of each: it reads
        the fields this reduction read of the role, and keeps as many of each class); else
        None. (The classes are the search's: :func:`frozen_value`.)"""
        if self.fields.get(role) != fields or self.keep.get(role) != keep:
            return None
        return self.class_count[role]

    def key_of(self, role: str, fields: tuple[str, ...]) -> Callable[[Any], tuple[Hashable, ...]] | None:
        """The class key on ``fields`` of a kept part of ``role``, as :func:`class_key` with the
        search's stand-ins gives it (of the key it was kept by, the places of those fields),
        where this reduction read every one of them; else None."""
        mine = self.fields.get(role)
        if mine is None or not set(fields) <= set(mine):
            return None
        keys = self.keys[role]
        at = [mine.index(name) for name in fields]
        if not at:
            return lambda part: ()  # (no fields: every part is of one class)
        if len(at) == 1:
            (only,) = at
            return lambda part: (keys[part.id][only],)
        pick = operator.itemgetter(*at)
        return lambda part: pick(keys[part.id])

    def offered(self, role: str) -> int:
        """How many parts the whole catalog offers for ``role``."""
        return len(self.index[role][0])

    def cheaper(self, role: str, usd: float) -> tuple[Priced | None, int]:
        """The nearest cheaper offered part than ``usd`` (of the dearest such, the first read)
        and how many offered parts are cheaper."""
        prices, files, offsets = self.index[role]
        best, at, count = float("-inf"), -1, 0
        for i, price in enumerate(prices):
            if price < usd:
                count += 1
                if price > best:
                    best, at = price, i
        if at < 0:
            return None, 0
        part = self.catalog.part_at(files[at], offsets[at])
        point = fresh_price(part, self.shape[0], self.shape[1])
        assert point is not None  # it was offered
        return Priced(part, point.usd, point.date, kind_of(point)), count


def streamable(paths: Sequence[str | Path] | None, request: Request, *, overlays: bool = False) -> bool:
    """Whether `suggest` may read this catalog streaming (the module docstring says when not)."""
    if not paths or overlays or request.exclude or request.require or request.verified_only:
        return False
    if user_parts_file().is_file() or user_prices_file().is_file():
        return False
    from partpicker.catalog.checks import CURATION_ONLY, LINT_CHECKS
    from partpicker.catalog.checks.interface import PART_CHECKS

    # The checks of the whole catalog it makes on hashes; any other one needs the whole catalog.
    if set(LINT_CHECKS) - set(PART_CHECKS) - CURATION_ONLY != {"alias-conflict"}:
        return False
    return all(f.suffix == ".jsonl" for f in catalog_files(paths))


def streamed_catalog(
    paths: Sequence[str | Path] | None,
    rules: dict[str, RuleSpec],
    request: Request,
    *,
    overlays: bool = False,
    jobs: int | None = None,
    meanwhile: Callable[[], object] | None = None,
) -> Catalog | None:
    """The catalog ``request`` needs, read streaming and reduced (see the module docstring);
    None when it cannot be (then load it whole: :func:`streamable`, or a catalog with a
    problem, which the whole load reports). ``jobs``: how many processes read it
    (:mod:`partpicker.suggest.split`; by default as many as it has CPUs, if it is large);
    ``meanwhile``: run in this process once it has read its share, while the others read
    theirs (the command imports its solver then)."""
    if not streamable(paths, request, overlays=overlays):
        return None
    from partpicker.catalog.checks import CURATION_ONLY
    from partpicker.catalog.checks.interface import PART_CHECKS, WARNING_CHECKS
    from partpicker.pricing import today

    day = request.as_of or today()
    # Only errors are read of what the checks find (a catalog with one is not reduced): the
    # checks that only warn are not run (at 100k parts, about a twentieth of the read).
    skip = CURATION_ONLY | WARNING_CHECKS
    checks = {cid: fn for cid, fn in PART_CHECKS.items() if cid not in skip}
    files = catalog_files(paths)
    count = split.jobs_for(files, jobs)
    if count > 1 and all(_readable(f) for f in files):
        catalog, problems, reducer = _read_split(
            files, count, lambda wire: Reducer(rules, request, day, wire=wire), checks, meanwhile
        )
    else:
        reducer = Reducer(rules, request, day)
        catalog, problems = read_catalog(paths, part_checks=checks, keep=reducer.take)
    if any(p.severity == "error" for p in problems) or reducer.suspect():
        return None
    if request.gpu and "gpu" in reducer.roles and not reducer.roles["gpu"].best:
        return None  # no card of the model on offer: the whole catalog says why (or which card is meant)
    reducer.fill(catalog)
    return catalog


def _readable(path: Path) -> bool:
    """Whether ``path`` is a regular file that opens (else the one-process read says why)."""
    try:
        yamlio.check_regular(path)
        with path.open("rb"):
            return True
    except (InputError, OSError):
        return False


def _read_split(
    files: Sequence[Path],
    count: int,
    reducer: Callable[[bool], Reducer],
    checks: PartChecks,
    meanwhile: Callable[[], object] | None = None,
) -> tuple[Catalog, list[Problem], Reducer]:
    """``files`` read by ``count`` processes (:mod:`partpicker.suggest.split`), each a share
    of their spans with a reducer of its own (``reducer(wire)``: a forked one hands its kept
    classes over as MessagePack, :attr:`Reducer.wire`); the first reducer then takes the
    others' (in the order of the lines), so it holds what one reading everything would."""
    catalog = Catalog()
    numbered = [(catalog.add_file(path), path) for path in files]
    spans = [(file_no, path, span) for file_no, path in numbered for span in spans_of(path, count)]
    shares = _shares(spans, count)

    def read(share: list[tuple[int, Path, Span]], wire: bool) -> tuple[list[tuple[list[Problem], int]], dict[str, Any]]:
        taker = reducer(wire)
        found = [read_jsonl_span(path, file_no, span, checks, taker.take) for file_no, path, span in share]
        return found, taker.state()

    # The forked processes hand over their kept slim records as MessagePack.
    tasks = [functools.partial(read, share, i > 0) for i, share in enumerate(shares)]
    first = reducer(False)
    problems: list[Problem] = []
    lines_before: dict[int, int] = {}
    with gc_paused():  # (what the others hand over is many small objects, and no cycles)
        for share, (found, state) in zip(shares, split.run(tasks, meanwhile), strict=True):
            renumber = _Renumber(share, found, lines_before)
            problems += renumber.problems
            first.merge(state, renumber if renumber.needed else None)
    return catalog, problems, first


def _shares(spans: list[tuple[int, Path, Span]], count: int) -> list[list[tuple[int, Path, Span]]]:
    """``spans`` dealt in order into at most ``count`` shares of about equal bytes."""
    total = sum(span.stop - span.start for _, _, span in spans) or 1
    shares: list[list[tuple[int, Path, Span]]] = [[] for _ in range(count)]
    done = 0
    for item in spans:
        shares[min(count - 1, done * count // total)].append(item)
        done += item[2].stop - item[2].start
    return [share for share in shares if share]


def _renumbered(problem: Problem, before: int) -> Problem:
    """``problem`` of a span whose lines were numbered from its first, ``before`` lines after
    its file's first."""
    if not before or problem.line is None:
        return problem
    return dataclasses.replace(problem, line=problem.line + before)


class _Renumber:
    """The line numbers of one process's spans, each numbered from its first, made the lines
    of their files: its problems renumbered, and (called on one) a slim record's line
    renumbered in place. ``lines_before``: the lines of each file in the spans before (of the
    processes before), which this one's spans are added to."""

    def __init__(
        self,
        share: list[tuple[int, Path, Span]],
        found: list[tuple[list[Problem], int]],
        lines_before: dict[int, int],
    ) -> None:
        starts: dict[int, list[tuple[int, int]]] = {}
        self.problems: list[Problem] = []
        for (file_no, _, span), (span_problems, count) in zip(share, found, strict=True):
            before = lines_before.get(file_no, 0)
            lines_before[file_no] = before + count
            starts.setdefault(file_no, []).append((span.start, before))
            self.problems += [_renumbered(p, before) for p in span_problems]
        self.needed = any(before for spans in starts.values() for _, before in spans)
        """Whether any of its spans starts after its file's first line."""
        self.starts = {
            file_no: ([start for start, _ in spans], [b for _, b in spans]) for file_no, spans in starts.items()
        }

    def __call__(self, slim: Any) -> None:
        starts, before = self.starts[slim.file_no]
        slim.line += before[bisect.bisect_right(starts, slim.offset) - 1]
