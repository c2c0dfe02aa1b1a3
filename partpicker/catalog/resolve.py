"""Find a part of a category by id, exact name, alias, or its name as people type it.

The identity rules live in :mod:`partpicker.catalog.names`; this module adapts them to a
:class:`~partpicker.catalog.load.Catalog` and keeps the spelling normaliser the solver uses
to match GPU models.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from partpicker.catalog import names
from partpicker.models import Part

if TYPE_CHECKING:
    from partpicker.catalog.load import Catalog


def resolve(catalog: Catalog, name: str, category: str) -> Part:
    """The part ``name`` means; a ``LookupError`` listing the candidates (one per line) if
    the name is ambiguous or matches nothing."""
    pool = catalog.by_category.get(category, [])
    by_id = catalog.parts.get(name.strip())
    if by_id is not None and by_id.category == category:
        return by_id
    found = names.resolve(name, category, pool)
    if isinstance(found, names.Resolved):
        return found.part
    raise LookupError(found.message())


def closest(catalog: Catalog, name: str, category: str, limit: int = 5) -> list[Part]:
    """The parts nearest to a name by spelling (for 'did you mean')."""
    return names.closest(name, category, catalog.by_category.get(category, []), limit)


def norm(text: str) -> str:
    """Case- and spacing-insensitive spelling: "4 x 16GB" = "4x16GB", "1 TB" = "1TB"."""
    text = re.sub(r"(\d)\s*x\s*(\d)", r"\1x\2", text.casefold())
    text = re.sub(r"(\d)\s+(tb|gb|mb|w)\b", r"\1\2", text)
    return " ".join(re.sub(r"[-()/,]", " ", text).split())
