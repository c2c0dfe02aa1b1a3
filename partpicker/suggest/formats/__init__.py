"""Formats for a `suggest` answer, registered by name (a new one: a module and an entry here;
each module is imported only when its format is asked for)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from partpicker.lazy import LazyFormats
from partpicker.suggest.formats.build_file import build_file

if TYPE_CHECKING:
    from partpicker.suggest.answer import Solution
    from partpicker.validate.report import Report

SUGGEST_FORMATS: LazyFormats[Callable[[Solution, Report | None], str]] = LazyFormats(
    __name__, {"text": "text", "json": "json", "html": "html"}
)

__all__ = ["SUGGEST_FORMATS", "build_file"]
