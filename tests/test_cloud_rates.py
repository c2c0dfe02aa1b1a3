"""Dated cloud GPU rates (cloud/rates.yaml) and which one `cost` compares with.

The choice is judged two ways: by hand on a small test file (tests/data/cost/rates/), each
expectation derived in a comment; and on the bundled file by a brute force that states the rule
of docs/cost.md declaratively over every (class, rate) pair.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from partpicker.cli import app
from partpicker.cost.rates import CURRENT_DAYS, RateEntry, RateTable, choose_rate, load_rates, rates_file
from partpicker.errors import InputError, SettingError

from .conftest import DATA, ROOT

runner = CliRunner()
RATES = DATA / "cost" / "rates"
ARTICLE = str(ROOT / "examples" / "article-2018.yaml")
TODAY = dt.date(2026, 12, 1)
D = dt.date.fromisoformat


@pytest.fixture(scope="module")
def test_table() -> RateTable:
    return load_rates(RATES / "two-classes.yaml")


# -- the choice, by hand -----------------------------------------------------------------

CASES = [
    # day, VRAM, class asked, -> class, provider, a note that must appear (or None)
    # SMALL rates up to 2026-12-01: 2026-11-01 ($1.50) is the newest; 2026-03-01 ($0.90, 8-GPU)
    # is within 365 days of it, 2025-10-01 ($0.50, 396 days before) is not: $0.90 wins.
    ("2026-12-01", 11, None, "SMALL", "Cheap cloud", "8-GPU instances only"),
    # Up to 2026-05-01 the newest is 2026-03-01; 2025-10-01 is 151 days before it: $0.50.
    ("2026-05-01", 11, None, "SMALL", "Stale cloud", None),
    # 2019: only SMALL has a rate; it cannot hold 24 GB, so the largest known (SMALL) at the
    # 2018 rate, 516 days old.
    ("2019-06-01", 24, None, "SMALL", "Old cloud", "days old"),
    # 2025: BIG (80 GB, rated 2024-06-01) is the smallest that holds 24 GB.
    ("2025-01-01", 24, None, "BIG", "Big cloud", None),
    # An unknown VRAM: the smallest class rented on the day.
    ("2026-12-01", None, None, "SMALL", "Cheap cloud", None),
    # Before any rate: the oldest rate there is, and a note says so.
    ("2017-01-01", 11, None, "SMALL", "Old cloud", "no SMALL rate is known on or before 2017-01-01"),
    # Asked for BIG before it had a rate: its oldest, with the note.
    ("2018-06-01", 11, "big", "BIG", "Big cloud", "no BIG rate is known on or before 2018-06-01"),
]


@pytest.mark.parametrize(("day", "vram", "asked", "cls", "provider", "note"), CASES)
def test_the_choice_on_a_small_table(
    test_table: RateTable, day: str, vram: int | None, asked: str | None, cls: str, provider: str, note: str | None
) -> None:
    rate = choose_rate(D(day), vram_gb=vram, gpu_class=asked, table=test_table)
    assert (rate.gpu_class, rate.provider) == (cls, provider)
    if note is not None:
        assert any(note in n for n in rate.notes), rate.notes


def test_an_unknown_class_names_the_classes(test_table: RateTable) -> None:
    with pytest.raises(SettingError, match="no cloud GPU class 'TINY'") as exc:
        choose_rate(TODAY, gpu_class="TINY", table=test_table)
    assert exc.value.setting == "cloud_gpu" and "SMALL, BIG" in exc.value.hint


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("unknown-class.yaml", "rates of unknown class(es) HUGE"),
        ("recalled-without-note.yaml", "a recalled rate needs a note"),
    ],
)
def test_a_bad_rates_file_is_one_clear_error(name: str, phrase: str) -> None:
    with pytest.raises(InputError, match="invalid cloud rates file") as exc:
        load_rates(RATES / name)
    assert phrase in str(exc.value) and name in str(exc.value)


# -- the bundled file ----------------------------------------------------------------------


def test_the_bundled_file_has_every_class_the_issue_names_each_dated_and_sourced() -> None:
    table = load_rates()
    assert rates_file().is_file()
    ids = {c.id for c in table.classes}
    assert {"V100", "A100-40GB", "A100-80GB", "H100", "L40S"} <= ids
    for c in table.classes:
        assert table.of(c.id), f"{c.id} has no rate"
    for r in table.rates:
        assert r.source.strip() and r.provider.strip() and r.instance.strip()
        assert r.date <= TODAY
        if r.kind == "database":  # a dated transcription names the page it transcribes
            assert "http" in r.source


def test_the_articles_v100_is_the_2018_default() -> None:
    """The article build as of 2018-09-01 (one 11 GB GTX 1080 Ti) compares with the article's
    $3/h AWS figure, as every figure of docs/cost.md assumes."""
    rate = choose_rate(D("2018-09-01"), vram_gb=11)
    assert (rate.gpu_class, rate.provider, rate.usd_per_gpu_hour, rate.kind) == ("V100", "AWS", 3.0, "article")
    assert rate.date_text == "2018"


def _judge(table: RateTable, day: dt.date, vram: float | None) -> tuple[str, set[float]]:
    """The rule of docs/cost.md, stated over every pair: the class, and the acceptable rates."""
    known = [c for c in table.classes if any(r.gpu_class == c.id and r.date <= day for r in table.rates)]
    if not known:
        oldest = min(table.rates, key=lambda r: r.date)
        cls = oldest.gpu_class
    else:
        fits = [c for c in known if vram is not None and c.vram_gb >= vram]
        pool = fits or known
        if vram is None:
            size = min(c.vram_gb for c in known)
        elif fits:
            size = min(c.vram_gb for c in fits)
        else:
            size = max(c.vram_gb for c in known)
        cls = next(c.id for c in pool if c.vram_gb == size)  # the file's first of that size
    mine: list[RateEntry] = [r for r in table.rates if r.gpu_class == cls]
    before = [r for r in mine if r.date <= day]
    if not before:
        first = min(r.date for r in mine)
        return cls, {r.usd_per_gpu_hour for r in mine if r.date == first}
    newest = max(r.date for r in before)
    current = [r for r in before if newest - r.date <= dt.timedelta(days=CURRENT_DAYS)]
    return cls, {min(r.usd_per_gpu_hour for r in current)}


@settings(max_examples=200, deadline=None)
@given(
    day=st.dates(dt.date(2016, 1, 1), dt.date(2027, 12, 31)),
    vram=st.one_of(st.none(), st.sampled_from([8, 11, 12, 16, 24, 32, 40, 48, 80, 96])),
)
def test_the_choice_on_the_bundled_file_matches_the_brute_force(day: dt.date, vram: int | None) -> None:
    table = load_rates()
    rate = choose_rate(day, vram_gb=vram, table=table)
    cls, usd = _judge(table, day, vram)
    assert rate.gpu_class == cls
    assert rate.usd_per_gpu_hour in usd


# -- the CLI -------------------------------------------------------------------------------


def cost(*args: str) -> Any:
    return runner.invoke(app, ["cost", ARTICLE, "--purchase-usd", "3000", *args])


def cost_json(*args: str) -> dict[str, Any]:
    result = cost(*args, "--format", "json")
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_the_text_names_the_rate_its_class_provider_date_and_source() -> None:
    result = cost()
    assert result.exit_code == 0, result.output
    line = next(ln for ln in result.stdout.splitlines() if ln.strip().startswith("rate "))
    assert "$3.00/GPU-h on demand: V100" in line and "AWS" in line and "2018" in line and "Jeff Chen" in line


def test_cloud_gpu_picks_the_class_and_json_says_where_the_rate_comes_from() -> None:
    table = load_rates()
    doc = cost_json("--cloud-gpu", "H100", "--as-of", "2026-12-01")
    used = doc["assumptions"]["cloud_rate_used"]
    assert used["gpu_class"] == "H100"
    h100 = [r for r in table.of("H100") if r.date <= TODAY]
    newest = max(r.date for r in h100)
    cheapest = min(r.usd_per_gpu_hour for r in h100 if newest - r.date <= dt.timedelta(days=CURRENT_DAYS))
    assert used["usd_per_gpu_hour"] == doc["assumptions"]["cloud_rate"] == cheapest
    entry = next(r for r in h100 if r.usd_per_gpu_hour == cheapest)
    assert (used["provider"], used["date"], used["source"]) == (entry.provider, entry.date_text, entry.source)
    # The bill uses it: on demand, 1 GPU, 24 h a day, 365/12 days a month.
    assert doc["per_month"]["cloud_gpu"]["on-demand"] == pytest.approx(cheapest * 24 * 365 / 12, abs=0.01)


def test_cloud_rate_overrides_and_says_it_was_given() -> None:
    doc = cost_json("--cloud-rate", "2.5", "--cloud-gpu", "L40S")
    used = doc["assumptions"]["cloud_rate_used"]
    assert doc["assumptions"]["cloud_rate"] == 2.5 and used["kind"] == "given" and used["gpu_class"] == "L40S"


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--cloud-gpu", "K80"], "--cloud-gpu 'K80': no such cloud GPU class"),
        (["--cloud-rate", "0"], "--cloud-rate must be more than 0"),
        (["--cloud-rate", "-3"], "--cloud-rate must be more than 0"),
    ],
)
def test_bad_cloud_options_are_one_clear_error(args: list[str], phrase: str) -> None:
    result = cost(*args)
    assert result.exit_code == 2, result.output
    assert phrase in result.stderr and result.stderr.count("error:") == 1
    assert result.stdout == ""


def test_the_rates_file_is_packaged(tmp_path: Path) -> None:
    """The wheel carries cloud/ as partpicker/_data/cloud, like the catalog (pyproject.toml)."""
    text = (ROOT / "pyproject.toml").read_text()
    assert '"cloud" = "partpicker/_data/cloud"' in text


def test_the_docs_table_is_the_rates_file() -> None:
    """docs/cost.md lists every rate of cloud/rates.yaml (class, USD, date, kind), and no other."""
    rows = set()
    for line in (ROOT / "docs" / "cost.md").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] in {c.id for c in load_rates().classes}:
            rows.add((cells[0], float(cells[2]), cells[3], cells[4]))
    expected = {(r.gpu_class, r.usd_per_gpu_hour, r.date_text, r.kind) for r in load_rates().rates}
    assert rows == expected
