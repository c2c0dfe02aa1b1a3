"""Formats for a cost comparison, registered by name: each a ``render(result) -> str``."""

from __future__ import annotations

from collections.abc import Callable

from partpicker.cost.formats import html, json, text
from partpicker.cost.model import CostResult

COST_FORMATS: dict[str, Callable[[CostResult], str]] = {
    "text": text.render,
    "json": json.render,
    "html": html.render,
}
