"""The one exception for bad input: what, where (file and line), and what to do."""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    """The exit codes of every command, named once: 0 ok, 1 findings or no build, 2 bad
    input, 3 an unproven answer."""

    CLEAN = 0
    """Nothing wrong (a passing build, a clean catalog, a suggestion found)."""
    FINDINGS = 1
    """Findings: a failing error rule (with ``--strict`` also warnings and unknowns), catalog
    problems, or no build for `suggest`."""
    BAD_INPUT = 2
    """Bad input: a missing or malformed file, an unknown part or key, a broken catalog."""
    UNPROVEN = 3
    """`suggest` answered with a build that no rule is known to fail, but that is not proven
    to pass (facts the catalog lacks: verify them before you buy)."""


class InputError(Exception):
    """Bad input from the user: a build file, a catalog, an option. The CLI exits 2 on it."""

    exit_code = ExitCode.BAD_INPUT

    def __init__(self, what: str, *, path: str | Path | None = None, line: int | None = None, hint: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.path = str(path) if path is not None else None
        self.line = line
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        hint = f"\n  {self.hint}" if self.hint else ""
        return f"{where}{self.what}{hint}"
