"""The one exception for bad input: what, where (file and line), and what to do."""

from __future__ import annotations

from pathlib import Path


class InputError(Exception):
    """Bad input from the user: a build file, a catalog, an option. The CLI exits 2 on it."""

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
