"""`partpicker find`: search the catalog as a user would before writing a build."""

from __future__ import annotations

from partpicker.find.search import Filters, Found, Hit, find

__all__ = ["Filters", "Found", "Hit", "find"]
