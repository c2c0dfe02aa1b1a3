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
from typing import BinaryIO

from partpicker import output
from partpicker.errors import InputError

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
