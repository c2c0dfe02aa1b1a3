"""Output formats for a search, registered by name (one module with ``render(found)`` each)."""

from __future__ import annotations

from collections.abc import Callable

from partpicker.find.formats import json as json_format
from partpicker.find.formats import text
from partpicker.find.search import Found

FIND_FORMATS: dict[str, Callable[[Found], str]] = {"text": text.render, "json": json_format.render}
