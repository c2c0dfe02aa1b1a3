"""Output formats for a validation report, registered by name.

A new format is one module with a ``render(report) -> str`` and one entry here.
"""

from __future__ import annotations

from collections.abc import Callable

from partpicker.validate.formats import github, html, pcpartpicker, sarif, text
from partpicker.validate.formats import json as json_format
from partpicker.validate.report import Report

REPORTER_BY_NAME: dict[str, Callable[[Report], str]] = {
    "text": text.render,
    "json": json_format.render,
    "github": github.render,
    "sarif": sarif.render,
    "html": html.render,
    "pcpartpicker": pcpartpicker.render,
}
