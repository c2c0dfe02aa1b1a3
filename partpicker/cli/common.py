"""Shared pieces of the typer commands: the command group, the common options; and, from
:mod:`partpicker.cli.plain`, bad-input handling and the catalog a command loads."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from partpicker.cli.plain import (
    FIRST_DAY,
    LAST_DAY,
    MAX_STALE_DAYS,
    REPORT_BUG,
    SETTING_FLAGS,
    check_output,
    emit,
    fail_input,
    guarded,
    internal_error,
    load_catalog_once,
    parse_date,
    stdout_to_devnull,
)
from partpicker.errors import ExitCode

__all__ = [
    "FIRST_DAY",
    "LAST_DAY",
    "MAX_STALE_DAYS",
    "REPORT_BUG",
    "SETTING_FLAGS",
    "AllowBrokenOpt",
    "AsOfOpt",
    "CatalogOpt",
    "GuardedGroup",
    "OutputOpt",
    "PartsOpt",
    "PowerLimitOpt",
    "check_output",
    "emit",
    "fail_input",
    "finite",
    "guarded",
    "internal_error",
    "load_catalog_once",
    "parse_date",
]


class GuardedGroup(TyperGroup):
    """The app's command group: an unexpected exception is an internal error, exit 70, one line
    on stderr (the traceback only with ``--debug`` or ``PARTPICKER_DEBUG=1``)."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            stdout_to_devnull()
            raise typer.Exit(ExitCode.PIPE_CLOSED) from None
        except Exception as exc:
            internal_error(exc, debug=bool(ctx.params.get("debug")) or bool(os.environ.get("PARTPICKER_DEBUG")))


def finite(option: str, low: float = 0.0, high: float = 1e9) -> Callable[[float | None], float | None]:
    """A typer callback: the number must be finite and within [low, high] (no inf, no nan)."""

    def check(value: float | None) -> float | None:
        if value is not None and not (math.isfinite(value) and low <= value <= high):
            raise typer.BadParameter(
                f"must be a finite number from {low:g} to {high:g}, got {value}", param_hint=option
            )
        return value

    return check


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
AllowBrokenOpt = Annotated[
    bool,
    typer.Option(
        "--allow-broken-catalog", help="Use a catalog that `catalog check` rejects (a warning instead of exit 2)."
    ),
]


OutputOpt = Annotated[
    Path | None,
    typer.Option("--output", "-o", help="Write the report to this file (whole or not at all) instead of stdout."),
]
