"""GitHub Actions workflow annotation lines (``::error file=...,line=...::message``)."""

from __future__ import annotations

from partpicker.errors import printable


def escape(text: str) -> str:
    """Escape a message for a workflow command (GitHub's toolkit rules, `escapeData` in
    actions/toolkit's command.ts: %, CR and LF); other control characters (ANSI escapes) and
    lone surrogates are shown escaped as ``\\x1b``."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_prop(text: str) -> str:
    """Escape a property value (`escapeProperty`: also ``:`` and ``,``)."""
    return escape(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, message: str, *, file: str | None, line: int | None, title: str) -> str:
    props = [f"title={escape_prop(title)}"]
    if file:
        props.insert(0, f"file={escape_prop(file)}")
        if line:
            props.insert(1, f"line={line}")
    return f"::{level} {','.join(props)}::{escape(message)}"
