"""Find a part of a category by id, exact name, alias, or its name as people type it.

The identity rules live in :mod:`partpicker.catalog.names`; this module adapts them to a
:class:`~partpicker.catalog.load.Catalog` and keeps the spelling normaliser the solver uses
to match GPU models.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from partpicker.catalog import generic, names
from partpicker.parts import Part

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
    # A name of specs alone ("2TB NVMe M.2 2280 PCIe 4.0") names no maker's part, even when
    # one catalog drive happens to fit; so does a name nothing in the catalog fits.
    specs_only = not names.identity_tokens(name, category)
    if isinstance(found, names.Resolved) and not (specs_only and found.how == "tokens"):
        return found.part
    if isinstance(found, names.NotFound) or specs_only:
        made = generic.from_name(name, category)
        if made is not None:  # the name says every spec a rule needs
            return made
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
