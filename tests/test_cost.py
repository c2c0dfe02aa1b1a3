"""`partpicker cost`: the article's figures, every option's validation, JSON, and the plot file."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from partpicker.build import load_build
from partpicker.catalog import Catalog
from partpicker.cli import app
from partpicker.cli.cost import FLAGS, for_suggestion
from partpicker.cost import model as costmodel
from partpicker.cost.formats import COST_FORMATS
from partpicker.cost.formats.json import to_dict
from partpicker.cost.formats.text import savings_text
from partpicker.cost.model import Assumptions, compare, compare_purchase, parse_burst
from partpicker.errors import SettingError

from .conftest import DATA, ROOT, fast_first

runner = CliRunner()
ARTICLE = str(ROOT / "examples" / "article-2018.yaml")
COST = DATA / "cost"
# The article's assumptions: the $3,000 build, 1 kW with one GPU, 2 kW with four, +3 GPUs at $700.
ONE_GPU = ["--purchase-usd", "3000", "--draw-kw", "1"]
FOUR_GPUS = ["--purchase-usd", "3000", "--gpus", "4", "--gpu-price", "700", "--draw-kw", "2"]


def run(*args: str) -> Any:
    return runner.invoke(app, ["cost", *args])


def cost_json(*args: str) -> dict[str, Any]:
    result = run(ARTICLE, *args, "--format", "json")
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def within(value: float, target: float, tolerance: float = 0.10) -> bool:
    return abs(value - target) <= tolerance * target


# --- the article ---------------------------------------------------------------------------


def test_one_gpu_year_is_about_10x_cheaper_than_on_demand_and_4x_than_3yr_reserved() -> None:
    doc = cost_json(*ONE_GPU)
    assert doc["machine"]["storage_gb"] == 1000  # the build's 1 TB SSD, kept in the cloud
    year = doc["ratios"]["1y"]
    assert within(year["on-demand"], 10), year
    assert within(year["reserved-3yr"], 4), year
    # The same from the table: a year of on demand is $3 x 8760 h + 12 x $100 storage.
    month12 = doc["months"][11]
    assert month12["cloud_total"]["on-demand"] == pytest.approx(3 * 8760 + 1200)
    assert month12["own_net"] == pytest.approx(1000 + 8760 * 0.20)  # a third of $3,000 + 1 kW all year


def test_four_gpus_are_about_21x_cheaper_than_on_demand() -> None:
    doc = cost_json(*FOUR_GPUS)
    assert doc["machine"]["purchase_usd"] == pytest.approx(3000 + 3 * 700)
    assert doc["machine"]["gpus"] == 4 and doc["machine"]["installed_gpus"] == 1
    assert within(doc["ratios"]["1y"]["on-demand"], 21), doc["ratios"]


def test_break_even_about_two_months_and_under_one_for_four_gpus() -> None:
    assert cost_json(*ONE_GPU)["break_even"]["on-demand"] == 2
    assert cost_json(*FOUR_GPUS)["break_even"]["on-demand"] == 1


def test_article_figures_from_the_model_directly() -> None:
    # The function `suggest --cost` calls, with the article's numbers.
    one = compare_purchase(3000, 1, 1.0, 1000)
    four = compare_purchase(3000 + 3 * 700, 4, 2.0, 1000)
    assert within(one.ratios[12]["on-demand"], 10)
    assert within(one.ratios[12]["reserved-3yr"], 4)
    assert within(four.ratios[12]["on-demand"], 21)
    assert one.break_even["on-demand"] == 2
    assert four.break_even["on-demand"] == 1
    assert "pays for itself in month 2" in savings_text(one)


@given(
    purchase=st.floats(100, 20_000),
    gpus=st.integers(1, 8),
    draw=st.floats(0.1, 3.0),
    hours=st.floats(0.5, 24),
    storage=st.floats(0, 8000),
)
def test_break_even_matches_the_closed_form(
    purchase: float, gpus: int, draw: float, hours: float, storage: float
) -> None:
    # Second path: paid(m) = P + e m and cloud(m) = c m cross at m = P / (c - e).
    a = Assumptions(hours_per_day=hours, months=240)
    result = compare_purchase(purchase, gpus, draw, storage, a)
    days = 365 / 12
    e = draw * hours * days * a.kwh_usd
    for option in costmodel.CLOUD:
        hours_billed = hours * days if option == "on-demand" else 730
        c = a.rate(option) * gpus * hours_billed + storage * a.storage_rate
        exact = purchase / (c - e) if c > e else math.inf
        got = result.break_even[option]
        if exact > 240 + 1e-6:
            assert got is None
        elif abs(exact - round(exact)) > 1e-6:  # away from a boundary, where rounding could tip it
            assert got == max(1, math.ceil(exact))


def test_reserved_is_billed_for_every_hour_and_on_demand_for_hours_used() -> None:
    r = compare_purchase(3000, 2, 1.0, 0, Assumptions(hours_per_day=8))
    assert r.gpu_month["on-demand"] == pytest.approx(3.0 * 2 * 8 * 365 / 12)
    assert r.gpu_month["reserved-1yr"] == pytest.approx(3.0 * 0.65 * 2 * 730)
    assert r.gpu_month["reserved-3yr"] == pytest.approx(3.0 * 0.40 * 2 * 730)


def test_depreciation_stops_after_its_term() -> None:
    r = compare_purchase(3600, 1, 1.0, 0, Assumptions(months=48, depreciation_months=36))
    assert r.rows[35].own_net == pytest.approx(r.rows[35].own_paid)
    assert r.rows[47].own - r.electricity_month == pytest.approx(0)
    assert r.rows[0].own == pytest.approx(100 + r.electricity_month)


def test_light_use_says_renting_is_cheaper() -> None:
    result = run(ARTICLE, *ONE_GPU, "--hours-per-day", "0.5", "--storage-gb", "100", "--months", "12")
    assert result.exit_code == 0, result.output
    assert "renting is cheaper over 12 months" in result.stdout.splitlines()[0]


# --- bursts --------------------------------------------------------------------------------


def test_burst_parses_the_small_language() -> None:
    b = parse_burst("100x for 1 week every 6 months")
    assert (b.factor, b.days, b.every_months) == (100, 7, 6)
    assert parse_burst("2.5X for 3 days every month").every_months == 1
    assert parse_burst("4x for a month every year").every_months == 12


def test_burst_100x_a_week_every_six_months_rents_the_peak() -> None:
    doc = cost_json(*ONE_GPU, "--burst", "100x for 1 week every 6 months")
    burst = doc["burst"]
    assert burst["bursts"] == 6 and burst["machines"] == 100 and burst["rented_gpus"] == 99
    # Own one ($8,256 net over 36 months) + 99 GPUs x $3 x 24 h x 7 days x 6 bursts + 36 x $100 storage.
    assert burst["strategies"]["own-plus-rent"] == pytest.approx(8256 + 99 * 3 * 24 * 7 * 6 + 3600)
    assert burst["cheapest"] == "own-plus-rent"
    assert burst["verdict"].startswith(
        "owning for the base load and renting the peaks is cheapest for this pattern: owning 1 machine and renting 99"
    )


def test_burst_says_owning_when_owning_the_peak_is_cheaper() -> None:
    result = run(ARTICLE, *FOUR_GPUS, "--burst", "2x for 2 months every 3 months")
    assert result.exit_code == 0, result.output
    assert "owning for the peak is cheapest for this pattern: owning 2 machines" in result.stdout


# --- the example build, end to end ---------------------------------------------------------


def test_unpriced_parts_are_named_with_the_options_that_price_them() -> None:
    build, cat = str(COST / "unpriced.yaml"), str(COST / "catalog")
    result = run(build, "--catalog", cat)
    assert result.exit_code == 2
    assert "2 part(s) have no price on or before 2019-01-01: gpu (Test GPU), ssd (Test SSD)" in result.stderr
    assert "--price gpu=USD" in result.stderr and "--as-of" in result.stderr and "--purchase-usd" in result.stderr
    assert result.stdout == ""
    # A later date prices the GPU but not the SSD, which has no price at all.
    later = run(build, "--catalog", cat, "--as-of", "2020-06-01")
    assert later.exit_code == 2 and "1 part(s) have no price on or before 2020-06-01: ssd" in later.stderr
    # --price fills the gaps; the CPU keeps its catalog price.
    given = run(build, "--catalog", cat, "--price", "gpu=650", "--price", "ssd=300", "--format", "json")
    assert given.exit_code == 0, given.output
    doc = json.loads(given.stdout)
    assert doc["machine"]["purchase_usd"] == pytest.approx(400 + 650 + 300)
    assert doc["machine"]["storage_gb"] == 2000
    assert any("PSU efficiency unknown" in note for note in doc["notes"])  # no PSU: DC draw, a lower bound
    assert doc["machine"]["draw_kw"] == pytest.approx((180 + 250 + 100) / 1000)
    # Extra GPUs need a GPU price even when the build's price is given.
    extra = run(build, "--catalog", cat, "--purchase-usd", "2000", "--gpus", "3")
    assert extra.exit_code == 2
    assert "2 extra GPU(s) for 3 GPUs, but Test GPU has no price on or before 2019-01-01" in extra.stderr
    assert "--gpu-price" in extra.stderr


def test_article_build_as_is_exits_2_exactly_when_the_catalog_lacks_a_price(catalog: Catalog) -> None:
    # docs/cost.md: the bundled catalog has no 2018 price for the article's board, case and cooler.
    build = load_build(ARTICLE, catalog)
    assert build.as_of is not None
    unpriced = [role for role, part, _ in build.items() if part.price_as_of(build.as_of) is None]
    result = run(ARTICLE)
    if unpriced:
        assert result.exit_code == 2
        assert f"{len(unpriced)} part(s) have no price on or before 2018-09-01" in result.stderr
        assert all(f"{role} (" in result.stderr for role in unpriced)
        assert "--purchase-usd USD" in result.stderr  # the way out that needs no part prices
    else:  # once the catalog has 2018 prices for every part, the plain command works
        assert result.exit_code == 0, result.output


def test_article_build_end_to_end_with_the_article_price() -> None:
    result = run(ARTICLE, "--purchase-usd", "3000")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("article-2018: owning is cheaper over 36 months")
    assert "prices as of 2018-09-01" in out
    assert "the article's figures: 1 kW (1 GPU), 2 kW (4 GPUs)" in out
    assert "0.60 kW" in out  # the estimate: (180 + 250 + 100 W) / 0.89
    assert "Break-even" in out and "Cumulative cost by month" in out


def test_article_build_with_the_missing_prices_given() -> None:
    doc = cost_json("--price", "motherboard=305", "--price", "case=114", "--price", "cooler=114")
    # The catalog's five dated prices as of 2018-09-01, plus the three given.
    assert doc["machine"]["purchase_usd"] == pytest.approx(799 + 699 + 399.99 + 449.99 + 322.99 + 305 + 114 + 114)
    sources = {line["role"]: line["source"] for line in doc["machine"]["lines"]}
    assert sources["motherboard"] == "given"
    assert sources["cpu"].startswith("2017-08-10")


def gpu_price_2018(catalog: Catalog) -> float:
    build = load_build(ARTICLE, catalog)
    assert build.gpu is not None and build.as_of is not None
    point = build.gpu.price_as_of(build.as_of)
    assert point is not None
    return point.usd


def test_extra_gpus_use_the_catalog_price_as_of_the_date(catalog: Catalog) -> None:
    doc = cost_json("--purchase-usd", "3000", "--gpus", "4")
    assert doc["machine"]["purchase_usd"] == pytest.approx(3000 + 3 * gpu_price_2018(catalog))  # $699 MSRP today
    # The estimate for four cards: (180 + 4 x 250 + 100 W) / 0.89 (80+ Platinum).
    assert doc["machine"]["draw_kw"] == pytest.approx(1280 / 0.89 / 1000, rel=1e-3)


def test_gpu_only_build_needs_draw_kw_and_counts_both_drives() -> None:
    path = str(COST / "gpu-only.yaml")
    result = run(path, "--purchase-usd", "1500")
    assert result.exit_code == 2
    assert "the draw cannot be estimated: the build has no CPU" in result.stderr
    assert "--draw-kw" in result.stderr
    result = run(path, "--purchase-usd", "1500", "--draw-kw", "0.8", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["machine"]["storage_gb"] == 2000


def test_json_is_one_object_with_the_documented_shape() -> None:
    doc = cost_json(*ONE_GPU, "--months", "24")
    assert set(doc) == {
        "build", "as_of", "cheaper", "summary", "machine", "assumptions", "per_month",
        "months", "break_even", "ratios", "burst", "notes",
    }  # fmt: skip
    assert len(doc["months"]) == 24
    assert [m["month"] for m in doc["months"]] == list(range(1, 25))
    assert set(doc["break_even"]) == set(costmodel.CLOUD)
    assert set(doc["ratios"]) == {"1y", "3y"}
    assert doc["burst"] is None
    assert doc["cheaper"] == "own"
    assert doc["machine"]["article_draw_kw"] == {"1": 1.0, "4": 2.0}
    assert set(COST_FORMATS) == {"text", "json", "html"}


def test_json_says_never_when_owning_does_not_pay_off() -> None:
    doc = cost_json(*ONE_GPU, "--hours-per-day", "0.5", "--storage-gb", "100", "--months", "12")
    assert doc["break_even"]["on-demand"] is None
    assert doc["cheaper"] == "cloud"


def test_for_suggestion_shows_now_and_full_scale(catalog: Catalog) -> None:
    build = load_build(ARTICLE, catalog)
    solution = SimpleNamespace(choices=[SimpleNamespace(build=build, now_usd=3000.0)], as_of=build.as_of)
    text = for_suggestion(solution)
    assert text.startswith("article-2018: owning is cheaper")
    assert f"At full scale (4 GPUs, ${3000 + 3 * gpu_price_2018(catalog):,.2f})" in text


def test_to_dict_reads_the_result_only() -> None:
    doc = to_dict(compare_purchase(3000, 1, 1.0, 1000, name="x"))
    assert doc["build"] == "x" and doc["as_of"] is None and doc["machine"]["installed_gpus"] is None


# --- every option validated ----------------------------------------------------------------

BAD = [
    (["--hours-per-day", "-1"], "--hours-per-day must be between 0 and 24, got -1"),
    (["--hours-per-day", "25"], "--hours-per-day must be between 0 and 24, got 25"),
    (["--months", "0"], "--months must be between 1 and 240, got 0"),
    (["--months", "-6"], "--months must be between 1 and 240, got -6"),
    (["--depreciation-months", "0"], "--depreciation-months must be between 1 and 240"),
    (["--kwh-price", "-0.1"], "--kwh-price must be 0 or more"),
    (["--cloud-rate", "0"], "--cloud-rate must be more than 0"),
    (["--reserved-1yr", "65"], "--reserved-1yr must be a fraction"),
    (["--reserved-3yr", "0"], "--reserved-3yr must be a fraction"),
    (["--storage-rate", "-1"], "--storage-rate must be 0 or more"),
    (["--storage-gb", "-1"], "--storage-gb must be 0 or more"),
    (["--utilisation", "0"], "--utilisation must be above 0 and at most 1"),
    (["--utilisation", "1.5"], "--utilisation must be above 0 and at most 1"),
    (["--draw-kw", "0"], "--draw-kw must be more than 0"),
    (["--gpus", "0"], "--gpus must be between 1 and 16"),
    (["--gpus", "17"], "--gpus must be between 1 and 16"),
    (["--gpu-price", "-700", "--gpus", "2"], "--gpu-price must be more than 0"),
    (["--hours-per-day", "nan"], "--hours-per-day must be a number"),
    (["--burst", "lots every so often"], "--burst 'lots every so often' is not understood"),
    (["--burst", "1x for 1 week every 6 months"], "the peak must be more than 1x"),
    (["--burst", "3x for 2 months every month"], "cannot last longer than the time between bursts"),
    (["--burst", "3x for 0 days every month"], "use a duration above 0"),
    (["--price", "motherboard"], "--price 'motherboard' is not ROLE=USD"),
    (["--price", "gpu=lots"], "--price 'gpu=lots' is not ROLE=USD"),
    (["--price", "keyboard=30"], "the build has no part 'keyboard'"),
    (["--price", "cpu=-1"], "--price cpu must be more than 0"),
    (["--price", "cpu=400", "--purchase-usd", "3000"], "give either the whole build's price or part prices"),
    (["--purchase-usd", "0"], "--purchase-usd must be more than 0"),
    (["--as-of", "last year"], "--as-of 'last year' is not a date"),
    (["--plot", "cost.pdf"], "the file name must end in .png or .svg"),
]


@pytest.mark.parametrize(("args", "phrase"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_option_is_one_clear_error(args: list[str], phrase: str, tmp_path: Path) -> None:
    base = [] if "--price" in args else ["--purchase-usd", "3000"]
    result = run(ARTICLE, *base, *args)
    assert result.exit_code == 2, result.output
    assert result.stderr.count("error:") == 1
    assert phrase in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


def test_fewer_gpus_than_installed_is_an_error() -> None:
    result = run(str(COST / "gpu-only.yaml"), "--purchase-usd", "1500", "--draw-kw", "1", "--gpus", "1")
    assert result.exit_code == 2
    assert "--gpus 1 is fewer than the 2 GPU(s) the build has installed" in result.stderr


def test_build_without_gpu_is_an_error_unless_gpus_are_given() -> None:
    path = str(COST / "no-gpu.yaml")
    result = run(path, "--purchase-usd", "1500")
    assert result.exit_code == 2
    assert "the build has no GPU" in result.stderr
    ok = run(path, "--purchase-usd", "1500", "--gpus", "2", "--gpu-price", "700", "--draw-kw", "1")
    assert ok.exit_code == 0, ok.output


def test_unknown_build_file() -> None:
    result = run("no/such/build.yaml")
    assert result.exit_code == 2
    assert "no/such/build.yaml: file not found" in result.stderr


def test_model_rejects_bad_assumptions_itself() -> None:
    """Below the CLI, messages name the setting in words, not a flag (issue 8); the key they carry
    is what the CLI maps to its flag."""
    with pytest.raises(SettingError, match="the number of months must be between 1 and 240") as months:
        Assumptions(months=0)
    assert months.value.setting == "months" and "--" not in str(months.value)
    with pytest.raises(SettingError, match="the hours of use a day must be between 0 and 24") as hours:
        compare(costmodel.Machine("m", 3000, 1, 1.0, 0), Assumptions(hours_per_day=-2))
    assert hours.value.setting == "hours_per_day"
    with pytest.raises(SettingError, match="the cloud rate must be more than 0") as rate:
        Assumptions(cloud_rate=0)
    assert rate.value.with_flag("--cloud-rate").what == "--cloud-rate must be more than 0, got 0"


def test_every_cost_setting_the_core_names_has_a_flag() -> None:
    """Each setting key the model names maps to a flag of `cost` (no error shows a bare key)."""
    assert set(costmodel.SETTINGS) <= set(FLAGS)


# --- the plot ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "magic"), fast_first([("cost.svg", b"<?xml"), ("cost.png", b"\x89PNG")], 1))
def test_plot_is_written_on_success(tmp_path: Path, name: str, magic: bytes) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / name
    result = run(ARTICLE, *ONE_GPU, "--plot", str(target))
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no temporary file left beside it


@pytest.mark.parametrize(
    "args",
    [["--months", "0"], ["--burst", "whenever"], ["--hours-per-day", "-1"], []],
    ids=["bad-months", "bad-burst", "negative-hours", "unpriced-build"],
)
def test_failing_run_writes_no_plot(tmp_path: Path, args: list[str]) -> None:
    target = tmp_path / "cost.png"
    extra = ["--purchase-usd", "3000"] if args else []
    result = run(ARTICLE, *extra, *args, "--plot", str(target))
    assert result.exit_code == 2, result.output
    assert list(tmp_path.iterdir()) == []


def test_plot_without_matplotlib_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib...` raise ImportError
    target = tmp_path / "cost.png"
    result = run(ARTICLE, *ONE_GPU, "--plot", str(target))
    assert result.exit_code == 2
    assert "--plot needs matplotlib, which is not installed" in result.stderr
    assert "partpicker[plot]" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_plot_that_fails_while_writing_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    figure = pytest.importorskip("matplotlib.figure")

    def broken(self: Any, handle: Any, **kwargs: Any) -> None:
        handle.write(b"half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(figure.Figure, "savefig", broken)
    target = tmp_path / "cost.svg"
    result = run(ARTICLE, *ONE_GPU, "--plot", str(target))
    assert result.exit_code == 2
    assert "cannot write the file (No space left on device)" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_plot_does_not_replace_a_good_file_on_failure(tmp_path: Path) -> None:
    target = tmp_path / "cost.png"
    target.write_bytes(b"the previous plot")
    result = run(ARTICLE, *ONE_GPU, "--months", "0", "--plot", str(target))
    assert result.exit_code == 2
    assert target.read_bytes() == b"the previous plot"
