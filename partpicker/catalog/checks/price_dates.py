"""price-future: every price is dated on or before today, and not before 1990 (no GPU of
this catalog was sold then; a year-1 date is a typo or a corrupt entry)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from partpicker import pricing
from partpicker.catalog.checks.interface import Finding, lint_part

EARLIEST = dt.date(1990, 1, 1)


@lint_part("price-future", "a price dated after today, or before 1990")
def check(part: Any) -> Iterator[Finding]:
    today = pricing.today()
    for i, price in enumerate(part.prices):
        if price.date > today or price.date < EARLIEST:
            when = "after today" if price.date > today else f"before {EARLIEST}"
            yield Finding(f"price ${price.usd:,.2f} is dated {price.date}, {when}", ("prices", i))
