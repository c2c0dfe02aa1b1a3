"""price: every price has a date on or before today."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from partpicker import pricing
from partpicker.catalog.checks.interface import Finding, lint_part


@lint_part("price-future", "a price dated after today")
def check(part: Any) -> Iterator[Finding]:
    today = pricing.today()
    for i, price in enumerate(part.prices):
        if price.date > today:
            yield Finding(f"price ${price.usd:,.2f} is dated {price.date}, after today", ("prices", i))
