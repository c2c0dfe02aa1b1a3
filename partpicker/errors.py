"""The one exception for bad input: what, where (file and line), and what to do."""

from __future__ import annotations

import datetime as dt
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
    INTERNAL = 70
    """An internal error: a bug in partpicker, not in the input (EX_SOFTWARE of sysexits.h)."""
    PIPE_CLOSED = 141
    """The reader of stdout went away (`partpicker ... | head`): the command stops quietly, with
    128 + SIGPIPE, what a shell reports for a tool that signal stopped."""


MAX_MESSAGE = 8000
"""No error message is longer than this, all told, and no line of it longer than
:data:`MAX_LINE` (a hostile input cannot make a huge one; a list of several unresolved names,
each with its candidates, may take a few lines)."""
MAX_LINE = 1990


def printable(text: str, keep: str = "") -> str:
    """``text`` with control characters, ANSI escapes and lone surrogates shown escaped
    (``\\x1b``, ``\\n``, ``\\ud800``), so user strings cannot repaint a terminal or forge lines."""
    if text.isprintable():
        return text
    if "\n" in keep:
        rest = keep.replace("\n", "")
        return "\n".join(printable(line, rest) for line in text.split("\n"))
    return "".join(ch if ch.isprintable() or ch in keep else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    return ch.encode("unicode_escape", "backslashreplace").decode("ascii")


def excerpt(value: object, limit: int = 80) -> str:
    """A short, printable quotation of a user value for a message: ``'abc…' (12,345 chars)``."""
    if isinstance(value, dt.date):  # as the user wrote it, not datetime.date(1, 1, 1)
        value = value.isoformat()
    text = printable(value if isinstance(value, str) else repr(value))
    quote = "'" if isinstance(value, str) else ""
    if len(text) <= limit:
        return f"{quote}{text}{quote}"
    return f"{quote}{text[:limit]}...{quote} ({len(text):,} characters)"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 16] + " (message cut)"


class InputError(Exception):
    """Bad input from the user: a build file, a catalog, an option. The CLI exits 2 on it."""

    exit_code = ExitCode.BAD_INPUT

    def __init__(self, what: str, *, path: str | Path | None = None, line: int | None = None, hint: str = "") -> None:
        what = "\n".join(_cut(line, MAX_LINE) for line in printable(what, keep="\n").split("\n"))
        super().__init__(what)
        self.what = what
        self.path = printable(str(path))[:300] if path is not None else None
        self.line = line
        self.hint = printable(hint, keep="\n")[:300]

    def __str__(self) -> str:
        where = ""
        if self.path:
            where = f"{self.path}:{self.line}: " if self.line else f"{self.path}: "
        hint = f"\n  {self.hint}" if self.hint else ""
        text = "\n".join(_cut(line, MAX_LINE) for line in f"{where}{self.what}{hint}".split("\n"))
        return _cut(text, MAX_MESSAGE)


class SettingError(InputError):
    """A problem with one setting, named in words (``the cloud rate must be more than 0``).

    ``setting`` is its key (``cloud_rate``), by which a front end that knows the flag setting it
    shows the flag instead: ``flag_what`` is the message after the flag (`` must be more than
    0``), None to keep ``what`` as it is (the front end may still give its own hint)."""

    def __init__(
        self,
        setting: str,
        what: str,
        *,
        flag_what: str | None = None,
        arg: str = "",
        path: str | Path | None = None,
        line: int | None = None,
        hint: str = "",
    ) -> None:
        super().__init__(what, path=path, line=line, hint=hint)
        self.setting = setting
        self.flag_what = flag_what
        self.arg = arg
        """What the setting was for, if anything (the role of an unpriced part)."""

    def with_flag(self, flag: str, hint: str | None = None) -> InputError:
        """The same error as a front end shows it: ``flag`` in place of the words, its own hint."""
        what = self.what if self.flag_what is None else f"{flag}{self.flag_what}"
        return InputError(what, path=self.path, line=self.line, hint=self.hint if hint is None else hint)
