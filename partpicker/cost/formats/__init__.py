"""Formats for a cost comparison, registered by name: each a ``render(result) -> str`` (each
module imported only when its format is asked for)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from partpicker.lazy import LazyFormats

if TYPE_CHECKING:
    from partpicker.cost.model import CostResult

COST_FORMATS: LazyFormats[Callable[[CostResult], str]] = LazyFormats(
    __name__, {"text": "text", "json": "json", "html": "html"}
)
