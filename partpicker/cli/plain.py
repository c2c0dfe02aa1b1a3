"""The command line's plain helpers, without typer: printing, bad input, internal errors, the
catalog a command loads.

`partpicker validate BUILD` runs without importing typer at all (issue 14: ``import typer``
alone is a third of the 0.3 s target; see :mod:`partpicker.cli.lean`), so what a command
needs besides its options lives here, and :mod:`partpicker.cli.common` re-exports it for the
typer commands. An exit is ``SystemExit(code)``: click lets it through unchanged, so a typer
command and the lean path end alike.
"""

from __future__ import annotations

import datetime as dt
import errno
import io
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

from partpicker import output as write_output
from partpicker.errors import ExitCode, InputError, SettingError, excerpt, printable

if TYPE_CHECKING:
    from partpicker.catalog import Catalog

T = TypeVar("T")

REPORT_BUG = "this is a bug in partpicker, not in your input: please report it with the command and its input files"

_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")
"""click's pattern of the ANSI styles it strips from output that is not a terminal."""


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """``typer.echo`` of a string: to stdout (or stderr), a newline, ANSI styles stripped when
    not a terminal, flushed; on a stream misconfigured as ASCII, UTF-8 with replacements."""
    stream: IO[Any] = sys.stderr if err else sys.stdout
    out = text + "\n" if nl else text
    if not out:
        stream.flush()
        return
    if not _isatty(stream):
        out = _ANSI.sub("", out)
    encoding = (getattr(stream, "encoding", None) or "ascii").lower().replace("_", "-")
    binary = getattr(stream, "buffer", None)
    misread = encoding in ("ascii", "us-ascii", "646", "ansi-x3.4-1968")
    # The bytes go out here on a stream misconfigured as ASCII (what click does with one: UTF-8,
    # errors replaced), and on an unbuffered one (python -u, PYTHONUNBUFFERED), whose text layer
    # writes straight to the file and drops what a partial write leaves (a pipe whose reader went
    # away mid-write): here they are written until all are out or a write says the reader is gone.
    if binary is not None and (misread or isinstance(binary, io.RawIOBase)):
        stream.flush()
        errors = "replace" if misread else getattr(stream, "errors", None) or "strict"
        _write_all(binary, out.encode("utf-8" if misread else encoding, errors))
        binary.flush()
        return
    stream.write(out)
    stream.flush()


def _write_all(raw: io.RawIOBase, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = raw.write(view)
        if not written:  # nothing taken (a non-blocking file that would block): the reader is not reading
            raise BrokenPipeError(errno.EPIPE, "the output took nothing")
        view = view[written:]


def _isatty(stream: IO[Any]) -> bool:
    try:
        return stream.isatty()
    except Exception:  # a stream that cannot say is no terminal (as click reads it)
        return False


def stdout_to_devnull() -> None:
    """Point stdout at /dev/null, so the final flush of what is left cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file behind stdout (a test runner)
        pass


def internal_error(exc: BaseException, *, debug: bool) -> NoReturn:
    """Say that partpicker failed (not the input) and exit :attr:`ExitCode.INTERNAL`."""
    if debug:
        import traceback

        echo("".join(traceback.format_exception(exc)), err=True, nl=False)
    what = excerpt(f"{type(exc).__name__}: {exc}", 200)[1:-1]  # excerpt quotes it; the message has its own
    more = "" if debug else "; run again with --debug for the traceback"
    echo(f"internal error: {what}; {REPORT_BUG}{more}", err=True)
    raise SystemExit(ExitCode.INTERNAL)


def fail_input(exc: InputError) -> NoReturn:
    """Print one clear error and exit 2."""
    echo(f"error: {exc}", err=True)
    raise SystemExit(exc.exit_code)


def emit(text: str, output: Path | None = None) -> None:
    """Print a result, or write it to ``output`` whole or not at all (exit 2 if that fails).

    Printed, control characters, ANSI escapes and lone surrogates from user strings are shown
    escaped (``\\x1b``), so no input can repaint the terminal or crash the encoder."""
    if output is None:
        echo(printable(text, keep="\n"))
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


FIRST_DAY, LAST_DAY = dt.date(1990, 1, 1), dt.date(2100, 12, 31)
"""``BuildFile.AS_OF_RANGE`` (tests/test_cli_lazy.py holds them equal; the build models are
not imported for this)."""


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


MAX_STALE_DAYS = 36_500
"""--stale-days at most 100 years (any more is "never stale", and would overflow a date)."""


def load_catalog_once(
    paths: Sequence[Path] | None, parts: Sequence[Path] | None = None, allow_broken: bool = False, plain: bool = False
) -> Catalog:
    """Load the catalog for a command (the bundled one from the cache when it is there,
    :mod:`partpicker.catalog.cache`), refusing (or, with ``allow_broken``, warning about) one
    that `catalog check` would reject (but for its curation-only checks); then your parts and
    prices on top of it (the per-user files, then each ``--parts`` file); then move it out of
    the garbage collector's sight: a command loads one catalog and keeps it to the end, and on
    a 100k-part catalog the collector's passes over it cost more than the work
    (benchmarks/README.md). ``plain``: a cached bundled catalog's parts as the plain classes of
    :mod:`partpicker.kinds` (`validate`, which reads only their fields: no pydantic to import)."""
    import gc

    from partpicker.catalog.cache import checked_catalog
    from partpicker.catalog.load import CURATION_ONLY, broken_catalog
    from partpicker.paths import user_parts_file, user_prices_file

    catalog, found = checked_catalog(paths, skip=CURATION_ONLY, plain=plain)
    problems = [p for p in found if p.severity == "error"]  # warnings pass `catalog check` too
    if problems and not allow_broken:
        raise broken_catalog(
            problems, hint="run `partpicker catalog check` to list every problem, or pass --allow-broken-catalog"
        )
    if problems:
        first = broken_catalog(problems)
        echo(f"warning: using a broken catalog (--allow-broken-catalog): {first}", err=True)
    mine = [f for f in (user_parts_file(), user_prices_file()) if f.is_file()]
    if mine or parts:
        from partpicker.catalog.overlay import apply_overlays

        catalog = apply_overlays(catalog, [*mine, *(parts or [])])
    gc.freeze()
    return catalog


def check_output(path: Path | None) -> None:
    """Exit 2 before any work if ``--output`` cannot be written."""
    if path is not None:
        guarded(lambda: write_output.check_target(path, "--output"))
