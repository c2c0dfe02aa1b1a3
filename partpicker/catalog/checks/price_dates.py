"""price: every price has a date on or before today."""

from __future__ import annotations

from collections.abc import Iterator

from partpicker import pricing
from partpicker.catalog import Catalog, Problem
from partpicker.catalog.checks.interface import lint, problem


@lint("price-future", "a price dated after today")
def check(catalog: Catalog) -> Iterator[Problem]:
    today = pricing.today()
    for part in catalog:
        for i, price in enumerate(part.prices):
            if price.date > today:
                yield problem(
                    catalog,
                    "price-future",
                    part.id,
                    f"price ${price.usd:,.2f} is dated {price.date}, after today",
                    ["prices", i],
                )
