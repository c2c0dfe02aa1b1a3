"""Run one hostile input through partpicker and say how it went (shared by the tests and the run).

An outcome is clean when the command exits with one of its codes but 70 (an internal error),
without a traceback, within the time
limit, with every message under 2,000 characters and valid JSON whenever JSON was asked for."""

from __future__ import annotations

import itertools
import json
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from partpicker.catalog import Catalog
from partpicker.cli import app
from partpicker.errors import ExitCode

MAX_MESSAGE = 2000
HANG_S = 20.0
runner = CliRunner()


class Hang(BaseException):
    """A run took longer than :data:`HANG_S`. Not an :class:`Exception`, so the CLI's guard for
    internal errors (exit 70) lets it through and it is counted as a hang, not a traceback."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`Hang` in this thread after ``seconds`` (SIGALRM; main thread only)."""

    def fire(signum: int, frame: Any) -> None:
        raise Hang(f"over {seconds:g} s")

    old = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    """How one command went."""

    args: list[str]
    exit_code: int | None
    seconds: float
    traceback: str | None = None
    hang: bool = False
    message_len: int = 0
    bad_json: bool = False

    @property
    def clean(self) -> bool:
        return (
            self.traceback is None
            and not self.hang
            and self.message_len < MAX_MESSAGE
            and not self.bad_json
            and self.exit_code in set(ExitCode) - {ExitCode.INTERNAL}
        )


def wants_json(args: Sequence[str]) -> bool:
    return any(a == "--format" and b in ("json", "sarif") for a, b in itertools.pairwise(args))


def run_cli(args: Sequence[str], limit: float = HANG_S) -> Outcome:
    """Invoke the CLI in-process on ``args`` and judge the result."""
    args = [str(a) for a in args]
    start = time.perf_counter()
    try:
        with time_limit(limit):
            result = runner.invoke(app, args)
    except Hang:
        return Outcome(args, None, time.perf_counter() - start, hang=True)
    seconds = time.perf_counter() - start
    out = Outcome(args, result.exit_code, seconds)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        if isinstance(result.exception, Hang):
            out.hang = True
        else:
            out.traceback = f"{type(result.exception).__name__}: {str(result.exception)[:300]}"
    if result.exit_code == ExitCode.INTERNAL:
        out.traceback = out.traceback or result.stderr[:300]
    out.message_len = max((len(line) for line in result.stderr.splitlines()), default=0)
    if wants_json(args) and result.exit_code not in (ExitCode.BAD_INPUT, ExitCode.INTERNAL):
        try:
            json.loads(result.stdout)
        except ValueError:
            out.bad_json = True
    return out


@dataclass
class Tally:
    """The figures of a fuzz run, per input class."""

    name: str
    tried: int = 0
    clean: int = 0
    tracebacks: list[Outcome] = field(default_factory=list)
    hangs: list[Outcome] = field(default_factory=list)
    bad_json: int = 0
    max_message: int = 0
    slowest: float = 0.0
    seconds: float = 0.0
    missed: list[str] = field(default_factory=list)
    """Runs that exited cleanly but wrongly: a corrupt catalog passed or used, an output path
    replaced or left half-written (see tests/fuzz/corruptions.py)."""

    def add(self, outcome: Outcome) -> Outcome:
        self.tried += 1
        self.clean += outcome.clean
        if outcome.traceback:
            self.tracebacks.append(outcome)
        if outcome.hang:
            self.hangs.append(outcome)
        self.bad_json += outcome.bad_json
        self.max_message = max(self.max_message, outcome.message_len)
        self.slowest = max(self.slowest, outcome.seconds)
        self.seconds += outcome.seconds
        if self.tried % 500 == 0:
            print(
                f"  {self.name}: {self.tried:,} runs, {self.tried - self.clean} not clean", file=sys.stderr, flush=True
            )
        return outcome

    def row(self) -> str:
        return (
            f"| {self.name} | {self.tried:,} | {self.clean:,} | {len(self.tracebacks)} | {len(self.hangs)} | "
            f"{self.max_message:,} | {self.bad_json} | {len(self.missed)} | {self.slowest:.1f} | {self.seconds:.0f} |"
        )


HEADER = (
    "| input class | tried | clean | tracebacks | hangs > 20 s | max message chars | invalid JSON | wrong outcome "
    "| slowest s | total s |\n"
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
)


def real_names(catalog: Catalog, per_role: int = 6) -> list[str]:
    """A few real part names of each role (what a user would write)."""
    out: list[str] = []
    for parts in catalog.by_category.values():
        out.extend(p.name for p in parts[:per_role])
    return out


def write_text(path: Path, text: str) -> Path:
    """Write text as UTF-8, lone surrogates and all (they make the file invalid UTF-8)."""
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path
