"""Prices: the price of a part as of a date under a staleness policy, line prices, and today.

Every module asks here: `validate` for its dated part lines, `suggest` for what it may
offer, `cost` for the purchase price, `catalog check` for "dated in the future".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from partpicker.build import Build
from partpicker.models import Part, Price

STALE_DAYS = 365
"""A price older than this many days on the date asked about is stale."""


def today() -> dt.date:
    """Today's date (one function, so that tests can pin it)."""
    return dt.date.today()


def price_of(part: Part, day: dt.date) -> Price | None:
    """The newest price point of ``part`` on or before ``day`` (MSRP and street alike), or None."""
    return part.price_as_of(day)


def is_stale(point: Price, day: dt.date, stale_days: int = STALE_DAYS) -> bool:
    """Whether ``point`` is older than ``stale_days`` on ``day``."""
    return (day - point.date).days > stale_days


def fresh_price(part: Part, day: dt.date, stale_days: int = STALE_DAYS) -> Price | None:
    """The price of ``part`` as of ``day`` if it is within ``stale_days``, else None (not on offer)."""
    point = price_of(part, day)
    if point is None or is_stale(point, day, stale_days):
        return None
    return point


def line_usd(unit_usd: float, count: int) -> float:
    """The price of ``count`` parts at ``unit_usd`` each."""
    return unit_usd * count


@dataclass(frozen=True)
class PartLine:
    """A part of the build with the price used."""

    id: str
    name: str
    count: int
    usd: float | None
    price_date: dt.date | None
    price_source: str | None
    stale: bool
    origin: str | None = None
    """Where the part came from when not the bundled catalog (a user file, generic, inline)."""
    price_from_user: str | None = None
    """Where the price used came from, when the user gave it (a parts file, the build file)."""


def price_lines(build: Build, day: dt.date, stale_days: int = STALE_DAYS) -> dict[str, PartLine]:
    """Each part of ``build`` with its price as of ``day`` (None when it has none), by role."""
    out: dict[str, PartLine] = {}
    for role, part, count in build.items():
        point = price_of(part, day)
        known = build.provenance.get(part.id)
        from_user = known.prices_from if known and point is not None and point in known.user_prices else None
        out[role] = PartLine(
            id=part.id,
            name=part.name,
            count=count,
            usd=point.usd if point else None,
            price_date=point.date if point else None,
            price_source=point.source if point else None,
            stale=bool(point and is_stale(point, day, stale_days)),
            origin=known.origin if known else None,
            price_from_user=from_user,
        )
    return out


def total_usd(lines: dict[str, PartLine]) -> float:
    """The sum of the priced lines (unpriced ones count nothing), to the cent."""
    return round(sum(line_usd(p.usd or 0, p.count) for p in lines.values()), 2)
