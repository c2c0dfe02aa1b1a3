"""Formats for a `suggest` answer, registered by name (a new one: a module and an entry here)."""

from __future__ import annotations

from collections.abc import Callable

from partpicker.suggest.answer import Solution
from partpicker.suggest.formats import html, json, text
from partpicker.suggest.formats.build_file import build_file
from partpicker.validate.report import Report

SUGGEST_FORMATS: dict[str, Callable[[Solution, Report | None], str]] = {
    "text": text.render,
    "json": json.render,
    "html": html.render,
}

__all__ = ["SUGGEST_FORMATS", "build_file"]
