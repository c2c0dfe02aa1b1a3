"""Shared pieces of the command line: the app, bad-input handling, common options."""

from __future__ import annotations

import datetime as dt
import gc
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
