"""Formats for a `suggest` answer, registered by name (a new one: a module and an entry here;
each module is imported only when its format is asked for; the build file a suggestion
writes is :mod:`partpicker.suggest.formats.build_file`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from partpicker.lazy import LazyFormats

if TYPE_CHECKING:
    from partpicker.suggest.answer import Solution
    from partpicker.validate.report import Report

SUGGEST_FORMATS: LazyFormats[Callable[[Solution, Report | None], str]] = LazyFormats(
    __name__, {"text": "text", "json": "json", "html": "html"}
)

__all__ = ["SUGGEST_FORMATS"]
