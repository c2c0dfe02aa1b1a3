"""Output formats for a validation report, registered by name.

A new format is one module with a ``render(report) -> str`` and one entry here (each module
is imported only when its format is asked for).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from partpicker.lazy import LazyFormats

if TYPE_CHECKING:
    from partpicker.validate.report import Report

REPORTER_BY_NAME: LazyFormats[Callable[[Report], str]] = LazyFormats(
    __name__,
    {
        "text": "text",
        "json": "json",
        "github": "github",
        "sarif": "sarif",
        "html": "html",
        "pcpartpicker": "pcpartpicker",
    },
)
