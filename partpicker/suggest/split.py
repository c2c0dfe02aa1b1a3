"""A large JSON Lines catalog read by several processes at once (`suggest`, issue 14).

Reading and checking every line is most of what `suggest` costs on a market-scale catalog,
and each line is read alone, so the file is cut into spans of whole lines
(:func:`partpicker.catalog.load.spans_of`), one per process: this one reads the first, a forked
copy of it each other one, and each hands back what it kept (pickled, through a pipe). A span
whose process fails for any reason is read again here, so the answer never depends on the
processes (it is the same as one process reading everything: ``tests/test_suggest_split.py``).

How many processes: ``PARTPICKER_JOBS`` if set (1: one process; more than :data:`MAX_JOBS`:
that many; not a count: bad input, exit 2), else one per CPU this process may run on (at most
:data:`MAX_JOBS`), and one for catalogs under :data:`MIN_BYTES`, where forking costs more than
it saves; one where the system cannot fork.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from partpicker.errors import InputError

MIN_BYTES = 32 << 20
"""Catalogs smaller than this (about 16,000 parts) are read by one process."""
MAX_JOBS = 8

T = TypeVar("T")


def jobs_for(files: Sequence[Path], jobs: int | None = None) -> int:
    """How many processes read ``files`` (``jobs``: asked for, whatever their size)."""
    if not hasattr(os, "fork"):
        return 1
    if jobs is None:
        asked = _asked()
        try:
            if asked is None and sum(f.stat().st_size for f in files) < MIN_BYTES:
                return 1
        except OSError:
            return 1
        jobs = asked or _cpus()
    return max(1, min(jobs, MAX_JOBS))


def _asked() -> int | None:
    """``PARTPICKER_JOBS`` (None: unset or empty); an :class:`InputError` if it is no count."""
    asked = os.environ.get("PARTPICKER_JOBS", "").strip()
    if not asked:
        return None
    if not asked.isdigit() or int(asked) < 1:
        raise InputError(
            f"PARTPICKER_JOBS must be a number of processes, 1 or more (it is {asked!r})",
            hint=f"unset it for one per CPU (at most {MAX_JOBS}), or set 1 to read with one process",
        )
    return int(asked)


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def beside(size: int, at_least: int) -> bool:
    """Whether a task of a job of ``size`` (at least ``at_least``) may run in a forked process
    beside this one: the system can fork, and ``PARTPICKER_JOBS`` (or else the CPUs this
    process may run on) allows two processes."""
    return size >= at_least and hasattr(os, "fork") and (_asked() or _cpus()) > 1


def run(tasks: Sequence[Callable[[], T]], meanwhile: Callable[[], object] | None = None) -> list[T]:
    """Each task's result, in order: the first run here, the others each in a forked process
    at the same time (a task whose process fails is run here afterwards). ``meanwhile`` is
    run here after the first task, while the others may still run (work that needs none of
    theirs, done in what would be a wait)."""
    pending: list[Forked[T]] = []
    try:
        for task in tasks[1:]:
            pending.append(Forked(task))
        results = [tasks[0]()]
        if meanwhile is not None and pending:
            meanwhile()
        while pending:
            results.append(pending.pop(0).result())
        return results
    finally:
        for forked in pending:  # only when something failed here: stop the others
            forked.cancel()


class Forked(Generic[T]):
    """A task run in a forked copy of this process, started now: :meth:`result` waits for
    it (and runs the task here if that process fails), :meth:`cancel` stops it."""

    def __init__(self, task: Callable[[], T]) -> None:
        self.task = task
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: run, hand the result over, leave without the parent's cleanup
            code = 1
            try:
                os.close(reader)
                data = pickle.dumps(task(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(writer, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(writer)
        self.pid, self.reader = pid, reader

    def result(self) -> T:
        with os.fdopen(self.reader, "rb") as handle:
            data = handle.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        if os.waitstatus_to_exitcode(status) == 0 and data:
            try:
                found: T = pickle.loads(data)  # our own child's, through our own pipe
            except Exception:  # any failure of the child's hand-over: run the task here
                return self.task()
            return found
        return self.task()

    def cancel(self) -> None:
        if not self.pid:
            return
        with contextlib.suppress(OSError):
            os.close(self.reader)
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        self.pid = 0
