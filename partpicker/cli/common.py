"""Shared pieces of the command line: the app, bad-input handling, common options."""

from __future__ import annotations

import datetime as dt
import gc
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer

from partpicker.catalog import Catalog, load_catalog
from partpicker.errors import InputError

T = TypeVar("T")


def fail_input(exc: InputError) -> NoReturn:
    """Print one clear error and exit 2."""
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(exc.exit_code)


def guarded(fn: Callable[[], T]) -> T:
    """Run core code; bad input becomes one message on stderr and exit code 2."""
    try:
        return fn()
    except InputError as exc:
        fail_input(exc)


def parse_date(value: str | None, option: str) -> dt.date | None:
    """An ISO date option, or exit 2 naming the option."""
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail_input(InputError(f"{option} {value!r} is not a date", hint="use YYYY-MM-DD, e.g. 2018-09-01"))


def load_catalog_once(paths: Sequence[Path] | None, parts: Sequence[Path] | None = None) -> Catalog:
    """Load the catalog for a command, then your parts and prices on top of it (the per-user
    files, then each ``--parts`` file), then move it out of the garbage collector's sight:
    a command loads one catalog and keeps it to the end, and on a 100k-part catalog the
    collector's passes over it cost more than the work (benchmarks/README.md)."""
    from partpicker.catalog.overlay import apply_overlays
    from partpicker.paths import user_parts_file, user_prices_file

    mine = [f for f in (user_parts_file(), user_prices_file()) if f.is_file()]
    catalog = apply_overlays(load_catalog(paths), [*mine, *(parts or [])])
    gc.freeze()
    return catalog


CatalogOpt = Annotated[
    list[Path] | None, typer.Option("--catalog", help="Catalog file or folder (repeatable); default: the bundled one.")
]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Price the parts as of this date (YYYY-MM-DD).")]


PowerLimitOpt = Annotated[
    int | None,
    typer.Option(
        "--power-limit",
        min=1,
        max=2000,
        metavar="W",
        help="Power-limit each GPU to W watts (nvidia-smi -pl); psu-wattage and wall-circuit use it.",
    ),
]
PartsOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--parts",
        help="Your own parts and prices, on top of the catalog (repeatable); see `partpicker parts path`.",
    ),
]


OutputOpt = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write the report to this file (whole or not at all) instead of stdout."),
]


def check_output(path: Path | None) -> None:
    """Exit 2 before any work if ``--output`` cannot be written."""
    if path is not None:
        guarded(lambda: _check_target(path))


def emit(text: str, output: Path | None) -> None:
    """Print ``text``, or write it to ``output`` whole or not at all (exit 2 if that fails)."""
    if output is None:
        typer.echo(text)
    else:
        guarded(lambda: _write_whole(output, text + "\n"))


def _check_target(path: Path) -> None:
    if str(path) in ("", "."):
        raise InputError("--output: the path is empty", hint="give a file name, e.g. report.html")
    if path.is_dir():
        raise InputError(f"--output {path}: is a folder", hint="give a file name inside it")
    if path.exists() and (path.is_symlink() or not path.is_file()):
        raise InputError(f"--output {path}: is not a regular file; not replaced")
    folder = path.parent
    if not folder.exists():
        raise InputError(f"--output {path}: folder {folder} does not exist", hint="create it first")
    if not folder.is_dir():
        raise InputError(f"--output {path}: {folder} is a file, not a folder")
    if not os.access(folder, os.W_OK):
        raise InputError(f"--output {path}: folder {folder} is not writable")


def _write_whole(path: Path, text: str) -> None:
    """A temporary file beside ``path``, renamed over it once complete."""
    _check_target(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:100]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except OSError as exc:
        raise InputError(f"--output {path}: cannot write ({exc.strerror or exc})") from None
    finally:
        Path(tmp).unlink(missing_ok=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
