"""Prices as of a date, honestly (issue 15): an MSRP only until a street price is known, the
price's date and age shown and old prices warned, a line costs count x unit price, a total with
an unpriced part says "incomplete", and suggest never takes an unpriced part as free.

The price rule is judged by a brute force over random price histories; the outputs on a fixture
build (tests/data/prices/) whose numbers are worked out in the comments.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from partpicker.catalog import Catalog, Origin
from partpicker.cli import app
from partpicker.models import Part, Price
from partpicker.pricing import line_text, price_of
from partpicker.rules.rulebook import load_rules
from partpicker.suggest.answer import solve
from partpicker.suggest.offer import Request

from .conftest import DATA
from .support.random_catalog import DAY, make

runner = CliRunner()
PRICES = DATA / "prices"
BUILD, CATALOG = str(PRICES / "two-gpus.yaml"), str(PRICES / "catalog")


def validate(as_of: str, *more: str) -> Any:
    return runner.invoke(app, ["validate", BUILD, "--catalog", CATALOG, "--as-of", as_of, *more])


# -- the rule --------------------------------------------------------------------------------

POINTS = st.lists(
    st.tuples(st.integers(0, 60), st.sampled_from(["msrp", "street", "used"]), st.integers(1, 3000)),
    max_size=6,
)


@settings(max_examples=300, deadline=None)
@given(points=POINTS, day=st.integers(0, 70))
def test_price_of_matches_the_rule_stated_over_every_point(points: list[tuple[int, str, int]], day: int) -> None:
    """Newest market (street or used) point on or before the day; else newest MSRP; of points
    on one day the last listed wins."""
    base = dt.date(2020, 1, 1)
    prices = [Price(usd=usd, date=base + dt.timedelta(days=d), source="t", kind=k) for d, k, usd in points]  # type: ignore[arg-type]
    raw = {"id": "p", "name": "P", "brand": "B", "sources": ["t"], "prices": [p.model_dump() for p in prices]}
    part = Part.model_validate(raw)
    on = base + dt.timedelta(days=day)
    market = [(i, p) for i, p in enumerate(part.prices) if p.date <= on and p.kind != "msrp"]
    msrp = [(i, p) for i, p in enumerate(part.prices) if p.date <= on and p.kind == "msrp"]
    pool = market or msrp
    expected = max(pool, key=lambda ip: (ip[1].date, ip[0]))[1] if pool else None
    assert price_of(part, on) == expected


def test_line_text_is_count_x_unit_price() -> None:
    assert line_text(2, "RTX 4090", 1959.99) == "2 x RTX 4090 @ $1,959.99 = $3,919.98"
    assert line_text(1, "RTX 4090", 1959.99) == "RTX 4090 $1,959.99"
    assert line_text(3, "RTX 4090", None) == "3 x RTX 4090 (no price)"


# -- validate on the fixture build ----------------------------------------------------------


@pytest.mark.parametrize(
    ("as_of", "unit", "kind"),
    [
        ("2023-01-01", 1599.0, "msrp"),  # only the launch MSRP (2022-10-12) is known
        ("2023-07-01", 1959.99, "street"),  # the first street price (2023-06-01) replaces the MSRP
        ("2024-07-01", 1799.5, "street"),  # the newest street price
    ],
)
def test_the_gpu_line_is_count_x_the_price_of_the_day(as_of: str, unit: float, kind: str) -> None:
    result = validate(as_of, "--format", "json")
    doc = json.loads(result.stdout)
    gpu = doc["parts"]["gpu"]
    assert (gpu["usd"], gpu["price_kind"], gpu["count"]) == (unit, kind, 2)
    assert gpu["line_usd"] == round(2 * unit, 2)
    text = validate(as_of).stdout
    assert f"2 x Test MSRP GPU @ ${unit:,.2f} = ${2 * unit:,.2f}" in text


def test_price_age_is_shown_and_old_prices_warned() -> None:
    # As of 2023-07-01 the CPU's 2018-01-01 price is 2007 days (5.5 years) old, the GPU's 30 days.
    text = validate("2023-07-01").stdout
    assert "(2018-01-01, street, 5.5 years old, OLD)" in text
    assert "(2023-06-01, street, 30 days old)" in text
    assert "warning: prices of cpu are old; check today's prices before you buy" in text
    doc = json.loads(validate("2023-07-01", "--format", "json").stdout)
    assert doc["parts"]["cpu"]["price_age_days"] == (dt.date(2023, 7, 1) - dt.date(2018, 1, 1)).days
    assert doc["parts"]["cpu"]["stale"] is True and doc["parts"]["gpu"]["stale"] is False


def test_a_total_with_an_unpriced_part_says_incomplete() -> None:
    text = validate("2023-07-01").stdout
    # $400 CPU + 2 x $1,959.99; the SSD has no price: the total leaves it out and says so.
    assert "total        $ 4,319.98  incomplete: no price for ssd" in text
    doc = json.loads(validate("2023-07-01", "--format", "json").stdout)
    assert doc["total_incomplete"] is True and doc["unpriced"] == ["ssd"]
    assert doc["total_usd"] == pytest.approx(400 + 2 * 1959.99)


# -- suggest never takes an unpriced part as free ---------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_suggest_never_takes_an_unpriced_part(seed: int) -> None:
    """Strip the prices of a random third of a random catalog's parts: every build suggest gives
    has a price for every part, and its total now is the sum of count x those prices."""
    rng = random.Random(seed)
    full = make(rng)
    catalog = Catalog()
    for part in full.parts.values():
        kept = part if rng.random() >= 1 / 3 else part.model_copy(update={"prices": []})
        catalog.add(kept, Origin("random", None, {}))
    request = Request(gpus=2, start_gpus=1, as_of=DAY, allow_unknown=True, top=3)
    solution = solve(catalog, load_rules(), request)
    for choice in solution.choices:
        now = 0.0
        for role, part, count in choice.build.items():
            point = price_of(part, DAY)
            assert point is not None, f"{role}: {part.id} has no price but was suggested"
            now += point.usd * (count if role != "gpu" else request.start_gpus)
        assert choice.now_usd == pytest.approx(now)
