"""The one safe writer behind every ``--output`` and ``--plot``: whole or not at all.

The text is written to a temporary file in the target's folder and renamed over the target
only once it is complete, so a failed run leaves nothing half-written and the old file, if
any, untouched. An existing file keeps its mode; a new one gets 0644 under the umask (what
``open(..., "w")`` gives). Anything at the target but a regular file (a symbolic link, a
device, a FIFO, a folder) is refused, not replaced. Every failure is one
:class:`~partpicker.errors.InputError` naming the option and the path.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from partpicker.errors import InputError, printable

Writer = Callable[[BinaryIO], None]


def check_target(path: str | Path, option: str) -> Path:
    """The target as a :class:`Path` if a file can be written there, else an :class:`InputError`.

    Called before any work is done, so a run that cannot write its output fails early."""
    if str(path) in ("", "."):
        raise InputError(f"{option}: the path is empty", hint="give a file name, e.g. build.yaml")
    target = Path(path)
    where = _shown(target)
    try:
        st: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InputError(f"{option} {where}: {_why(exc)}") from None
    if st is not None:
        _check_existing(st, option, where)
    _check_folder(target.parent, option, where)
    return target


def _shown(path: Path) -> str:
    return printable(str(path))[:300]


def _check_existing(st: os.stat_result, option: str, where: str) -> None:
    if stat.S_ISLNK(st.st_mode):
        raise InputError(
            f"{option} {where}: is a symbolic link; partpicker does not replace links",
            hint="name the file it points to, or remove the link",
        )
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{option} {where}: is a folder", hint="give a file name inside it")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{option} {where}: is not a regular file (a device, FIFO or socket); not replaced")


def _check_folder(folder: Path, option: str, where: str) -> None:
    name = _shown(folder)
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        raise InputError(f"{option} {where}: folder {name} does not exist", hint="create it first") from None
    except NotADirectoryError:
        raise InputError(f"{option} {where}: a part of {name} is a file, not a folder") from None
    except OSError as exc:
        raise InputError(f"{option} {where}: {_why(exc)}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise InputError(f"{option} {where}: {name} is a file, not a folder")
    if not os.access(folder, os.W_OK):
        raise InputError(f"{option} {where}: folder {name} is not writable")


def _why(exc: OSError) -> str:
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    if exc.errno == errno.ELOOP:
        return "too many levels of symbolic links"
    return f"cannot write the file ({exc.strerror or exc})"


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_with(path: str | Path, write: Writer, option: str) -> None:
    """Write ``path`` whole or not at all with ``write(handle)`` (see the module docstring)."""
    target = check_target(path, option)
    mode = _mode_for(target)
    tmp = target.parent / f".{target.name[:100]}.{secrets.token_hex(6)}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            write(handle)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
        os.replace(tmp, target)
    except OSError as exc:
        raise InputError(f"{option} {_shown(target)}: {_why(exc)}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def write_text(path: str | Path, text: str, option: str) -> None:
    """Write UTF-8 ``text`` to ``path`` whole or not at all."""
    data = text.encode("utf-8", "backslashreplace")

    def write(handle: BinaryIO) -> None:
        handle.write(data)

    write_with(path, write, option)
