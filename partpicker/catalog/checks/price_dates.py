"""price-future: every price is dated on or before today, and not before 1990 (no GPU of
this catalog was sold then; a year-1 date is a typo or a corrupt entry)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

from partpicker import pricing
from partpicker.catalog.checks.interface import Finding, lint_part

EARLIEST = dt.date(1990, 1, 1)


_SEEN: dict[Callable[[], dt.date], dt.date] = {}
"""The last day each ``today`` function (the real one, or a test's) returned: a price dated on
or before it is not after today, without asking again (the loader checks every line, and
asking the clock costs more than the rest of this check)."""


def _today_if_after(day: dt.date) -> dt.date:
    """Today (``pricing.today()``), asked again only when ``day`` is after the day it last
    returned: days only move forward (a test's stand-in for today is another function)."""
    today = pricing.today
    seen = _SEEN.get(today)
    if seen is None or day > seen:
        seen = _SEEN[today] = today()
    return seen


@lint_part("price-future", "a price dated after today, or before 1990")
def check(part: Any) -> Iterator[Finding]:
    seen = _SEEN.get(pricing.today)
    for i, price in enumerate(part.prices):
        if seen is not None and EARLIEST <= price.date <= seen:
            continue  # (the common case, without a call)
        if price.date < EARLIEST or price.date > _today_if_after(price.date):
            when = "after today" if price.date >= EARLIEST else f"before {EARLIEST}"
            yield Finding(f"price ${price.usd:,.2f} is dated {price.date}, {when}", ("prices", i))
