"""A cache of parsed data in the user cache folder, keyed by the content it was made from.

Issue 14: `validate` on the bundled catalog should not parse 300 parts of YAML every time.
What was made from some files is stored once, under a key that hashes the files' paths and
bytes, the package version, :data:`FORMAT` and the package's own source files (their names,
sizes and modification times: an edited partpicker never reads what an older one stored).

One file per ``kind``, in :func:`cache_dir`: a header (:data:`MAGIC`, the key, a digest of
the payload) and the payload. It is written to a temporary file and renamed into place
(:mod:`partpicker.output`), so it is whole or absent; a file that is truncated, corrupt,
foreign, stale or unreadable is a miss (the caller makes the data again and stores it anew),
and a folder that cannot be written means no cache, never an error.

``PARTPICKER_CACHE_DIR`` moves the folder; ``PARTPICKER_NO_CACHE=1`` (or ``--no-cache``)
turns the cache off.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from partpicker import output
from partpicker.errors import InputError

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel

M = TypeVar("M", bound="BaseModel")

FORMAT = 1
"""Bump when what is stored changes shape."""

MAGIC = b"partpicker-cache\n"
_DIGEST = 32
_PACKAGE = Path(__file__).resolve().parent

_disabled = False


def disable(off: bool = True) -> None:
    """Turn the cache off (``--no-cache``), or back on with ``off=False``."""
    global _disabled
    _disabled = off


def cache_dir() -> Path | None:
    """The cache folder (``$PARTPICKER_CACHE_DIR``, else the platform's user cache folder for
    partpicker: ~/.cache/partpicker on Linux), or None when the cache is off."""
    if _disabled or os.environ.get("PARTPICKER_NO_CACHE", "") not in ("", "0"):
        return None
    override = os.environ.get("PARTPICKER_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("partpicker", appauthor=False))


def _code(digest: hashlib.blake2b, folder: str) -> None:
    """Fold the package's source files (name, size, modification time) into ``digest``."""
    with os.scandir(folder) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    _code(digest, entry.path)
            elif entry.name.endswith((".py", ".pyi")):
                st = entry.stat()
                digest.update(f"{entry.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())


def key_of(kind: str, files: Sequence[Path], extra: str = "") -> str | None:
    """The key for data of ``kind`` made from ``files`` (in this order) and ``extra``; None if
    a file cannot be read (then there is nothing to key on: no cache)."""
    from partpicker import __version__

    digest = hashlib.blake2b(digest_size=_DIGEST)
    digest.update(f"{kind}\0{__version__}\0{FORMAT}\0{extra}\n".encode())
    _code(digest, str(_PACKAGE))
    for path in files:
        try:
            data = path.read_bytes()
        except OSError:
            return None
        digest.update(f"{path}\0{len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()


def _file(kind: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"{kind}.bin"


def load(kind: str, key: str) -> bytes | None:
    """The payload stored for ``kind`` under ``key``, or None (absent, stale, damaged, unreadable)."""
    path = _file(kind)
    if path is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO there must not block
    except (OSError, ValueError):
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            blob = handle.read()
    except (OSError, ValueError):
        return None
    head = MAGIC + key.encode() + b"\n"
    if not blob.startswith(head):
        return None
    stored, payload = blob[len(head) : len(head) + _DIGEST], blob[len(head) + _DIGEST :]
    if len(stored) != _DIGEST or hashlib.blake2b(payload, digest_size=_DIGEST).digest() != stored:
        return None
    return payload


def store(kind: str, key: str, payload: bytes) -> bool:
    """Store ``payload`` for ``kind`` under ``key``, whole or not at all; False if it could not be."""
    path = _file(kind)
    if path is None:
        return False

    def write(handle: BinaryIO) -> None:
        handle.write(MAGIC + key.encode() + b"\n")
        handle.write(hashlib.blake2b(payload, digest_size=_DIGEST).digest())
        handle.write(payload)

    with contextlib.suppress(OSError, InputError):
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        output.write_with(path, write, "cache")
        return True
    return False


def flatten(model: BaseModel) -> list[Any]:
    """A model as plain data to store, for :func:`rebuild`: a list of which fields were set (a
    bit mask, field by field) and then every field's value in field order, nested models
    flattened alike (MessagePack keeps the rest: numbers, strings, ISO dates, lists, maps)."""
    return _codec_of(type(model)).flatten(model)


def rebuild(model: type[M], data: Any) -> M:
    """``model`` made again of what :func:`flatten` stored, without validating it again: what
    was stored was validated when it was made, and the cache's key and digest say it is what
    this very code wrote. Validating it back would build every model's validator first, the
    larger part of a warm `validate` (issue 14; the models are ``defer_build``), and cost three
    times as much as this. Nested models are made the same way, ISO dates become dates again,
    the fields set are the ones stored. ``ValueError`` (or ``TypeError``) if the data is not of
    the model's shape (another number of fields, a required field not set, a nested model that
    is no list, a date that is no text): a miss."""
    return _codec_of(model).make(data)  # type: ignore[no-any-return]


class _Codec:
    """How one model class is flattened and made again (one per class, made on first use)."""

    def __init__(self, model: type[BaseModel]) -> None:
        if model.__private_attributes__ or model.model_config.get("extra") == "allow" or model.__pydantic_post_init__:
            raise TypeError(f"cannot rebuild a {model.__name__} from stored data")
        self.model = model
        self.names: tuple[str, ...] = tuple(model.model_fields)
        self.required = sum(1 << i for i, info in enumerate(model.model_fields.values()) if info.is_required())
        self.outs: list[tuple[str, Callable[[Any], Any]]] = []
        self.ins: list[tuple[str, Callable[[Any], Any]]] = []
        self._sets: dict[int, frozenset[str]] = {}

    def fill(self) -> None:
        """The fields' converters (after this codec is registered: a model may contain itself)."""
        for name, info in self.model.model_fields.items():
            out, into = _field_codec(info.annotation)
            if out is not None:
                self.outs.append((name, out))
            if into is not None:
                self.ins.append((name, into))

    def flatten(self, made: BaseModel) -> list[Any]:
        values = dict(made.__dict__)
        for name, out in self.outs:
            values[name] = out(values[name])
        fields_set = made.model_fields_set
        mask = sum(1 << i for i, name in enumerate(self.names) if name in fields_set)
        return [mask, *(values[name] for name in self.names)]

    def make(self, data: Any) -> Any:
        if type(data) is not list or len(data) != len(self.names) + 1 or type(data[0]) is not int:
            raise ValueError(f"stored data is not a {self.model.__name__}")
        mask = data[0]
        if mask & self.required != self.required or mask >> len(self.names):
            raise ValueError(f"stored data is not a {self.model.__name__}: a required field not set")
        values = dict(zip(self.names, data[1:], strict=False))  # in field order, as validation makes them
        for name, into in self.ins:
            values[name] = into(values[name])
        fields_set = self._sets.get(mask)
        if fields_set is None:
            fields_set = self._sets[mask] = frozenset(n for i, n in enumerate(self.names) if mask >> i & 1)
        # what model_construct does for these models (no private attributes, no extra fields,
        # no post-init: checked above), at a third of its cost
        made = object.__new__(self.model)
        object.__setattr__(made, "__dict__", values)
        object.__setattr__(made, "__pydantic_fields_set__", set(fields_set))
        object.__setattr__(made, "__pydantic_extra__", None)
        object.__setattr__(made, "__pydantic_private__", None)
        return made


_CODECS: dict[type, _Codec] = {}


def _codec_of(model: type[BaseModel]) -> _Codec:
    codec = _CODECS.get(model)
    if codec is None:
        codec = _CODECS[model] = _Codec(model)
        try:
            codec.fill()
        except TypeError:
            del _CODECS[model]
            raise
    return codec


Pair = tuple["Callable[[Any], Any] | None", "Callable[[Any], Any] | None"]


def _field_codec(annotation: Any) -> Pair:
    """How a value of type ``annotation`` is stored and made again: (out, in), None for as it is."""
    import typing

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _field_codec(args[0])
    if isinstance(annotation, type) and origin is None:
        return _class_codec(annotation)
    inner = [_field_codec(a) for a in args if a is not type(None)]
    if all(pair == (None, None) for pair in inner):
        return None, None
    made = _generic_codec(origin, len(args), inner)
    if made is None:  # a union of models, say: which one it was is not stored; validate instead
        raise TypeError(f"cannot rebuild a {annotation} from stored data")
    return made


def _class_codec(cls: type) -> Pair:
    import datetime as dt

    from pydantic import BaseModel

    if issubclass(cls, BaseModel):
        codec = _codec_of(cls)  # registered before its fields are read: a model may contain itself
        return codec.flatten, codec.make
    if issubclass(cls, dt.date) and not issubclass(cls, dt.datetime):
        return dt.date.isoformat, dt.date.fromisoformat  # stored as ISO text (TypeError if not text: a miss)
    return None, None


def _generic_codec(origin: Any, n_args: int, inner: list[Pair]) -> Pair | None:
    """``X | None``, ``list[X]`` and ``dict[K, X]`` of a converted ``X``; None for anything else."""
    import types
    import typing

    if origin in (typing.Union, types.UnionType) and len(inner) == 1:
        return _wrap(_optional, inner[0])
    if origin is list and len(inner) == 1:
        return _wrap(_list_of, inner[0])
    if origin is dict and n_args == 2 and inner[0] == (None, None):
        return _wrap(_dict_of, inner[1])
    return None


def _wrap(how: Callable[[Callable[[Any], Any]], Callable[[Any], Any]], pair: Pair) -> Pair:
    out, into = pair
    return (None if out is None else how(out)), (None if into is None else how(into))


def _optional(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else convert(value)


def _list_of(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def each(value: Any) -> list[Any]:
        if not isinstance(value, list):
            raise ValueError("stored data is not a list")
        return [convert(item) for item in value]

    return each


def _dict_of(convert: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def each(value: Any) -> dict[Any, Any]:
        if not isinstance(value, dict):
            raise ValueError("stored data is not a mapping")
        return {key: convert(item) for key, item in value.items()}

    return each
