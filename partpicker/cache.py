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


def rebuild(model: type[M], data: Any) -> M:
    """``model`` made again of the plain data this code stored for it (its ``model_dump(mode=
    "python", round_trip=True, exclude_unset=True)`` through MessagePack), without validating it
    again: what was stored was validated when it was made, and the key and digest say it is
    what this very code wrote. Validating it back would build every model's validator first,
    the larger part of a warm `validate` (issue 14; the models are ``defer_build``). Nested
    models are made the same way, ISO dates become dates again, and the fields set are the
    keys stored. ``ValueError`` if the data is not of the model's shape (a key that is no
    field, a required field missing, a nested model that is no mapping): a miss."""
    return _maker(model)(data)  # type: ignore[no-any-return]


_MAKERS: dict[Any, Callable[[Any], Any]] = {}


def _maker(model: type[BaseModel]) -> Callable[[Any], Any]:
    """The function that makes ``model`` of plain data (one per model, made on first use)."""
    if model in _MAKERS:
        return _MAKERS[model]
    plan: list[tuple[str, Callable[[Any], Any] | None, Callable[[], Any] | None]] = []
    new, setattr_ = object.__new__, object.__setattr__

    def make(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"stored data is not a {model.__name__}")
        values, found = {}, 0
        for name, convert, default in plan:  # in field order, as validation makes them
            if name in data:
                found += 1
                values[name] = data[name] if convert is None else convert(data[name])
            elif default is not None:
                values[name] = default()
            else:
                raise ValueError(f"stored data is not a {model.__name__}: no {name}")
        if found != len(data):
            raise ValueError(f"stored data is not a {model.__name__}: a key that is no field")
        # what model_construct does for these models (no private attributes, no extra fields,
        # no post-init: checked below), at a third of its cost
        made = new(model)
        setattr_(made, "__dict__", values)
        setattr_(made, "__pydantic_fields_set__", set(data))
        setattr_(made, "__pydantic_extra__", None)
        setattr_(made, "__pydantic_private__", None)
        return made

    if model.__private_attributes__ or model.model_config.get("extra") == "allow" or model.__pydantic_post_init__:
        raise TypeError(f"cannot rebuild a {model.__name__} from stored data")
    _MAKERS[model] = make  # before its fields: a model may contain itself
    for name, info in model.model_fields.items():
        plan.append((name, _converter(info.annotation), None if info.is_required() else _default(info)))
    return make


def _default(info: Any) -> Callable[[], Any]:
    """A field's default, made afresh for each instance as pydantic does (a factory, or a copy)."""
    import copy

    if info.default_factory is not None:
        if info.default_factory not in (list, dict, set) and info.default_factory_takes_validated_data:
            raise TypeError("cannot rebuild a default made from the other fields")
        return info.default_factory  # type: ignore[no-any-return]
    value = info.default
    if value is None or isinstance(value, (bool, int, float, str, bytes, frozenset)):
        return lambda: value
    return lambda: copy.deepcopy(value)


def _converter(annotation: Any) -> Callable[[Any], Any] | None:
    """How a stored value of type ``annotation`` becomes the value again (None: as it is)."""
    import typing

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _converter(args[0])
    if isinstance(annotation, type) and origin is None:
        return _class_converter(annotation)
    inner = [_converter(a) for a in args if a is not type(None)]
    if all(c is None for c in inner):
        return None
    made = _generic_converter(origin, len(args), inner)
    if made is None:  # a union of models, say: which one it was is not stored; validate instead
        raise TypeError(f"cannot rebuild a {annotation} from stored data")
    return made


def _class_converter(cls: type) -> Callable[[Any], Any] | None:
    import datetime as dt

    from pydantic import BaseModel

    if issubclass(cls, BaseModel):
        return _maker(cls)
    return _day if issubclass(cls, dt.date) and not issubclass(cls, dt.datetime) else None


def _generic_converter(
    origin: Any, n_args: int, inner: list[Callable[[Any], Any] | None]
) -> Callable[[Any], Any] | None:
    """``X | None``, ``list[X]`` and ``dict[K, X]`` of a converted ``X``; None for anything else."""
    import types
    import typing

    if origin in (typing.Union, types.UnionType) and len(inner) == 1 and inner[0] is not None:
        return _optional(inner[0])
    if origin is list and len(inner) == 1 and inner[0] is not None:
        return _list_of(inner[0])
    if origin is dict and n_args == 2 and inner[0] is None and inner[1] is not None:
        return _dict_of(inner[1])
    return None


def _day(value: Any) -> Any:
    import datetime as dt

    if isinstance(value, str):
        return dt.date.fromisoformat(value)
    if isinstance(value, dt.date):
        return value
    raise ValueError("stored data is not a date")


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
