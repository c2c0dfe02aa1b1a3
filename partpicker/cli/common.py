"""Shared pieces of the command line: the app, bad-input handling, common options."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn, TypeVar

import typer

from partpicker.errors import InputError

T = TypeVar("T")


def fail_input(exc: InputError) -> NoReturn:
    """Print one clear error and exit 2."""
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(2)


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


CatalogOpt = Annotated[
    list[Path] | None, typer.Option("--catalog", help="Catalog file or folder (repeatable); default: the bundled one.")
]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Price the parts as of this date (YYYY-MM-DD).")]
