"""Prices: the price of a part as of a date under a staleness policy, line prices, and today.

The one place that decides what a part costs on a day. Every module asks here: `validate`
for its dated part lines, `suggest` for what it may offer, `cost` for the purchase price,
`catalog check` for "dated in the future".

The policy, in full:

- The price of a part on a day is its newest market point (**street**, or **used**: a
  dated used-market price, shown as such) on or before that day. A launch **MSRP** is its
  price only until a market price is known: an MSRP is not used once any street or used
  point exists on or before the day.
- A price is **old** when it is more than ``OLD_DAYS`` before the day: it is still used
  (and its age shown, with a warning), unless the caller gives a staleness limit
  (``stale_days``), which excludes older prices.
- A line costs count x unit price; a total over lines with an unpriced part is
  **incomplete**: it says so, and `suggest` never offers an unpriced part.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from partpicker.build import Build
from partpicker.parts import Part, Price

OLD_DAYS = 365
"""A price older than this many days on the date asked about is old: used, with a warning."""
STALE_DAYS = OLD_DAYS
"""The old name of :data:`OLD_DAYS` (``validate --stale-days`` flags prices older than it)."""


def today() -> dt.date:
    """Today's date (one function, so that tests can pin it)."""
    return dt.date.today()


def price_of(part: Part, day: dt.date) -> Price | None:
    """The price of ``part`` on ``day``: its newest street or used point on or before the day,
    else its newest MSRP point on or before the day (an MSRP only until a market price is
    known), else None. Of points on one day, the last listed wins. (The slim record of a
    JSON Lines part says it itself, by bisection: ``price_of``.)"""
    fast = getattr(part, "price_of", None)
    if fast is not None:
        found: Price | None = fast(day)
        return found
    market: Price | None = None
    msrp: Price | None = None
    for point in part.prices:  # (a part's or a record's: each point has its kind)
        when = point.date
        if when > day:
            continue
        if point.kind != "msrp":
            if market is None or when >= market.date:
                market = point
        elif msrp is None or when >= msrp.date:
            msrp = point
    return market or msrp


def kind_of(point: Price) -> str:
    """A point's kind (the slim records of a JSON Lines catalog keep none: street)."""
    return getattr(point, "kind", "street")


def age_days(point: Price, day: dt.date) -> int:
    """How many days before ``day`` the price was seen."""
    return (day - point.date).days


def is_stale(point: Price, day: dt.date, stale_days: int = OLD_DAYS) -> bool:
    """Whether ``point`` is older than ``stale_days`` on ``day``."""
    return age_days(point, day) > stale_days


def fresh_price(part: Part, day: dt.date, stale_days: int | None = None) -> Price | None:
    """The price of ``part`` as of ``day``; with ``stale_days``, None when it is older than
    that (not on offer). Without it, the newest price however old (its age is shown)."""
    point = price_of(part, day)
    if point is None or (stale_days is not None and is_stale(point, day, stale_days)):
        return None
    return point


def line_usd(unit_usd: float, count: int) -> float:
    """The price of ``count`` parts at ``unit_usd`` each, to the cent."""
    return round(unit_usd * count, 2)


@dataclass(frozen=True)
class PartLine:
    """A part of the build with the price used."""

    id: str
    name: str
    count: int
    usd: float | None
    """The unit price (None: no price on or before the day)."""
    price_date: dt.date | None
    price_source: str | None
    stale: bool
    """Older than the staleness limit (``OLD_DAYS`` unless the caller gave another)."""
    kind: str | None = None
    """msrp, street or used."""
    age_days: int | None = None
    """Days between the price's date and the day asked about."""

    origin: str | None = None
    """Where the part came from when not the bundled catalog (a user file, generic, inline)."""
    price_from_user: str | None = None
    """Where the price used came from, when the user gave it (a parts file, the build file)."""

    @property
    def line_usd(self) -> float | None:
        """count x unit price (None when unpriced)."""
        return None if self.usd is None else line_usd(self.usd, self.count)


def price_lines(build: Build, day: dt.date, stale_days: int = OLD_DAYS) -> dict[str, PartLine]:
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
            kind=kind_of(point) if point else None,
            age_days=age_days(point, day) if point else None,
            origin=known.origin if known else None,
            price_from_user=from_user,
        )
    return out


def total_usd(lines: Mapping[str, PartLine]) -> float:
    """The sum of count x unit price over the priced lines, to the cent (see :func:`unpriced`:
    a total with unpriced lines is incomplete)."""
    return round(sum(p.line_usd or 0.0 for p in lines.values()), 2)


def unpriced(lines: Mapping[str, PartLine]) -> list[str]:
    """The roles whose part has no price: the total leaves them out."""
    return [role for role, p in lines.items() if p.usd is None]


def money(usd: float) -> str:
    """``$1,959.99``."""
    return f"${usd:,.2f}"


def line_text(count: int, name: str, unit_usd: float | None) -> str:
    """ "2 x RTX 4090 @ $1,959.99 = $3,919.98"; one part: "RTX 4090 $1,959.99"."""
    if unit_usd is None:
        return f"{count} x {name} (no price)" if count > 1 else f"{name} (no price)"
    if count == 1:
        return f"{name} {money(unit_usd)}"
    return f"{count} x {name} @ {money(unit_usd)} = {money(line_usd(unit_usd, count))}"


def age_text(days: int) -> str:
    """A price's age in words: "today", "40 days", "1.4 years"."""
    if days <= 0:
        return "today"
    if days < 2 * 365:
        return f"{days} days"
    return f"{days / 365.25:.1f} years"
