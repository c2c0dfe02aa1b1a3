"""alias-conflict: an alias (or name) that points at two parts of one category."""

from __future__ import annotations

from collections.abc import Iterator

from partpicker.catalog import Catalog, Problem
from partpicker.catalog.checks.interface import lint, problem
from partpicker.models import CATEGORIES


@lint("alias-conflict", "an alias that points at two parts")
def check(catalog: Catalog) -> Iterator[Problem]:
    for category in CATEGORIES:  # parts, and the slim records of JSON Lines parts (both have names and aliases)
        parts = catalog.entries(category)
        owner: dict[str, str] = {}
        for part in parts:
            owner.setdefault(part.name.casefold(), part.id)
        for part in parts:
            for i, alias in enumerate(part.aliases):
                key = alias.casefold()
                other = owner.setdefault(key, part.id)
                if other != part.id:
                    yield problem(
                        catalog, "alias-conflict", part.id, f"alias {alias!r} also names {other}", ["aliases", i]
                    )
