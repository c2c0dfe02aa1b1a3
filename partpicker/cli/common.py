"""Shared pieces of the command line: the app, bad-input handling, common options."""

from __future__ import annotations

import datetime as dt
import gc
import math
import os
import sys
import traceback
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer
from typer.core import TyperGroup

from partpicker import output as write_output
from partpicker.build import BuildFile
from partpicker.catalog import Catalog
from partpicker.catalog.load import broken_catalog
from partpicker.errors import ExitCode, InputError, SettingError, excerpt, printable

T = TypeVar("T")

REPORT_BUG = "this is a bug in partpicker, not in your input: please report it with the command and its input files"


class GuardedGroup(TyperGroup):
    """The app's command group: an unexpected exception is an internal error, exit 70, one line
    on stderr (the traceback only with ``--debug`` or ``PARTPICKER_DEBUG=1``)."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException, KeyboardInterrupt):
            raise
        except BrokenPipeError:
            _stdout_to_devnull()
            raise typer.Exit(ExitCode.PIPE_CLOSED) from None
        except Exception as exc:
            internal_error(exc, debug=bool(ctx.params.get("debug")) or bool(os.environ.get("PARTPICKER_DEBUG")))


def _stdout_to_devnull() -> None:
    """Point stdout at /dev/null, so the final flush of what is left cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (a test runner)
        pass


def internal_error(exc: BaseException, *, debug: bool) -> NoReturn:
    """Say that partpicker failed (not the input) and exit :attr:`ExitCode.INTERNAL`."""
    if debug:
        typer.echo("".join(traceback.format_exception(exc)), err=True, nl=False)
    what = excerpt(f"{type(exc).__name__}: {exc}", 200).strip("'")
    more = "" if debug else "; run again with --debug for the traceback"
    typer.echo(f"internal error: {what}; {REPORT_BUG}{more}", err=True)
    raise typer.Exit(ExitCode.INTERNAL)


def fail_input(exc: InputError) -> NoReturn:
    """Print one clear error and exit 2."""
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(exc.exit_code)


def emit(text: str, output: Path | None = None) -> None:
    """Print a result, or write it to ``output`` whole or not at all (exit 2 if that fails).

    Printed, control characters, ANSI escapes and lone surrogates from user strings are shown
    escaped (``\\x1b``), so no input can repaint the terminal or crash the encoder."""
    if output is None:
        typer.echo(printable(text, keep="\n"))
    else:
        guarded(lambda: write_output.write_text(output, text + "\n", "--output"))


SETTING_FLAGS = {
    "hours_per_day": "--hours-per-day",
    "months": "--months",
    "kwh_usd": "--kwh-price",
    "depreciation_months": "--depreciation-months",
    "cloud_rate": "--cloud-rate",
    "cloud_gpu": "--cloud-gpu",
    "reserved_1yr": "--reserved-1yr",
    "reserved_3yr": "--reserved-3yr",
    "storage_rate": "--storage-rate",
    "purchase_usd": "--purchase-usd",
    "gpus": "--gpus",
    "draw_kw": "--draw-kw",
    "storage_gb": "--storage-gb",
    "utilisation": "--utilisation",
    "gpu_price": "--gpu-price",
    "price": "--price",
    "prices": "--price",
    "burst": "--burst",
    "require": "--require",
    "gpu": "--gpu",
    "exclude": "--exclude",
    "start_gpus": "--start-gpus",
}
"""The flag that sets each setting a core message names in words (:class:`SettingError`);
every command spells a setting's flag the same way."""


def guarded(fn: Callable[[], T], hints: Mapping[str, str] | None = None) -> T:
    """Run core code; bad input becomes one message on stderr and exit code 2. A bad setting the
    core names in words (:class:`SettingError`) is shown with its flag, and with ``hints``' hint
    for it if any (``{arg}``: what the setting was for)."""
    try:
        return fn()
    except SettingError as exc:
        flag, hint = SETTING_FLAGS.get(exc.setting), (hints or {}).get(exc.setting)
        fail_input(exc.with_flag(flag, hint.format(arg=exc.arg) if hint else None) if flag else exc)
    except InputError as exc:
        fail_input(exc)


def parse_date(value: str | None, option: str) -> dt.date | None:
    """An ISO date option, or exit 2 naming the option."""
    if value is None:
        return None
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        fail_input(InputError(f"{option} {excerpt(value)} is not a date", hint="use YYYY-MM-DD, e.g. 2018-09-01"))
    if not FIRST_DAY <= day <= LAST_DAY:
        fail_input(InputError(f"{option} {day} is outside {FIRST_DAY} to {LAST_DAY}", hint="use a date near today"))
    return day


FIRST_DAY, LAST_DAY = BuildFile.AS_OF_RANGE


def finite(option: str, low: float = 0.0, high: float = 1e9) -> Callable[[float | None], float | None]:
    """A typer callback: the number must be finite and within [low, high] (no inf, no nan)."""

    def check(value: float | None) -> float | None:
        if value is not None and not (math.isfinite(value) and low <= value <= high):
            raise typer.BadParameter(
                f"must be a finite number from {low:g} to {high:g}, got {value}", param_hint=option
            )
        return value

    return check


MAX_STALE_DAYS = 36_500
"""--stale-days at most 100 years (any more is "never stale", and would overflow a date)."""


def load_catalog_once(
    paths: Sequence[Path] | None, parts: Sequence[Path] | None = None, allow_broken: bool = False
) -> Catalog:
    """Load the catalog for a command (the bundled one from the cache when it is there,
    :mod:`partpicker.catalog.cache`), refusing (or, with ``allow_broken``, warning about) one
    that `catalog check` would reject (but for its curation-only checks); then your parts and
    prices on top of it (the per-user files, then each ``--parts`` file); then move it out of
    the garbage collector's sight: a command loads one catalog and keeps it to the end, and on
    a 100k-part catalog the collector's passes over it cost more than the work
    (benchmarks/README.md)."""
    from partpicker.catalog.cache import checked_catalog
    from partpicker.catalog.load import CURATION_ONLY
    from partpicker.paths import user_parts_file, user_prices_file

    catalog, found = checked_catalog(paths, skip=CURATION_ONLY)
    problems = [p for p in found if p.severity == "error"]  # warnings pass `catalog check` too
    if problems and not allow_broken:
        raise broken_catalog(
            problems, hint="run `partpicker catalog check` to list every problem, or pass --allow-broken-catalog"
        )
    if problems:
        first = broken_catalog(problems)
        typer.echo(f"warning: using a broken catalog (--allow-broken-catalog): {first}", err=True)
    mine = [f for f in (user_parts_file(), user_prices_file()) if f.is_file()]
    if mine or parts:
        from partpicker.catalog.overlay import apply_overlays

        catalog = apply_overlays(catalog, [*mine, *(parts or [])])
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


def check_output(path: Path | None) -> None:
    """Exit 2 before any work if ``--output`` cannot be written."""
    if path is not None:
        guarded(lambda: write_output.check_target(path, "--output"))
