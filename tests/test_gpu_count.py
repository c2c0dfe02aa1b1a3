"""The rules at any GPU count N, in exact arithmetic, and the user's GPU power limit.

Each expectation is computed here by its own formula (integers only, from the article's
numbers), not by calling the rule code, and compared with what the rules say.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from partpicker.build import Build, load_build
from partpicker.catalog import Catalog
from partpicker.cli import app
from partpicker.models import Part
from partpicker.rules.rulebook import RuleSpec
from partpicker.validate.engine import evaluate, message, run_rule

from .conftest import DATA

runner = CliRunner()
NS = range(1, 9)
# 80 PLUS full-load efficiency in per cent (115 V internal programme), written out here.
EFFICIENCY_PERCENT = {"80+ Gold": 87, "80+ Platinum": 89, "80+ Titanium": 90}
CPUS = ["amd-ryzen-9-7950x", "amd-ryzen-threadripper-1920x", "intel-core-i7-7820x", "amd-ryzen-threadripper-3960x"]
GPUS = ["nvidia-geforce-rtx-4090-founders-edition", "nvidia-geforce-gtx-1080-ti-founders-edition"]
PSUS = ["corsair-rm850x-2021", "evga-supernova-1600-p2", "corsair-ax1600i"]


def _build(catalog: Catalog, n: int, ids: dict[str, str | list[str]], limit: int | None = None) -> Build:
    parts: dict[str, Part | list[Part]] = {
        role: [catalog.parts[i] for i in ident] if isinstance(ident, list) else catalog.parts[ident]
        for role, ident in ids.items()
    }
    return Build.of("t", "dl-workstation", n, parts, power_limit_w=limit)


def _run(spec: RuleSpec, build: Build, **params: object) -> tuple[str, str]:
    outcome = run_rule(spec, build, spec.defaults() | params, {})
    return outcome.status, message(spec, outcome)


def _gpus(n: int) -> str:
    return "1 GPU" if n == 1 else f"{n} GPUs"


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("cpu", CPUS)
@pytest.mark.parametrize("drives", [0, 1, 3])
def test_cpu_pcie_lanes_at_n(n: int, cpu: str, drives: int, catalog: Catalog, rules) -> None:
    build = _build(catalog, n, {"cpu": cpu, "ssd": ["samsung-970-evo-1tb"] * drives})
    need = 8 * n + 4 * max(1, drives)  # N GPUs at x8 + the NVMe drives (at least the boot drive) at x4
    lanes = catalog.parts[cpu].pcie_lanes
    status, text = _run(rules["cpu-pcie-lanes"], build)
    assert status == ("pass" if lanes >= need else "fail")
    assert f"{_gpus(n)} at x8 + {max(1, drives)} NVMe at x4 need {need}" in text


def test_cpu_pcie_lanes_is_the_articles_36_at_four(catalog: Catalog, rules) -> None:
    _, text = _run(rules["cpu-pcie-lanes"], _build(catalog, 4, {"cpu": "amd-ryzen-9-7950x"}))
    assert "4 GPUs at x8 + 1 NVMe at x4 need 36" in text


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("cpu", [*CPUS, "intel-core-i7-8700k"])
def test_cpu_cores_at_n(n: int, cpu: str, catalog: Catalog, rules) -> None:
    need = 4 if n <= 2 else 2 * n  # never fewer than 4; two per GPU (8 at four GPUs)
    cores = catalog.parts[cpu].cores
    status, text = _run(rules["cpu-cores"], _build(catalog, n, {"cpu": cpu}))
    assert status == ("pass" if cores >= need else "fail")
    assert f"{_gpus(n)} {'needs' if n == 1 else 'need'} {need}" in text


# cores_per_gpu overrides as (written, numerator, denominator): the exact value is num / den.
FRACTIONAL_CORES = [("0.5", 1, 2), ("1.5", 3, 2), ("2.25", 9, 4), ("2.7", 27, 10), ("3.3", 33, 10), ("0.35", 7, 20)]


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize(("written", "num", "den"), FRACTIONAL_CORES)
def test_cpu_cores_fractional_per_gpu_rounds_up_exactly(
    n: int, written: str, num: int, den: int, catalog: Catalog, rules
) -> None:
    """A fractional cores_per_gpu needs the whole cores above the exact product (1.5 x 3 = 4.5 needs 5,
    not int()'s 4); the judge is Fraction and integer ceiling division, not the rule's code."""
    exact = Fraction(num, den) * n
    need = max(4, -(-num * n // den))
    assert need == max(4, math.ceil(exact))
    # Two CPUs a core either side of the need (a real CPU with its core count changed).
    base = catalog.parts["amd-ryzen-threadripper-3960x"]
    for cores, expected in ((need, "pass"), (need - 1, "fail")):
        build = _build(catalog, n, {})
        build = build.with_part("cpu", _with(base, cores=cores, threads=2 * cores))
        status, text = _run(rules["cpu-cores"], build, cores_per_gpu=float(written))
        assert status == expected, text
        assert f"{_gpus(n)} {'needs' if n == 1 else 'need'} {need}" in text


def _psu_need(tdp: int, gpu_w: int, n: int, margin_permille: int = 1100) -> int:
    load = tdp + n * gpu_w + 100
    formula = -(-load * margin_permille // 1000)  # ceiling division in integers
    return max(formula, 1400) if n >= 4 else formula


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("gpu", GPUS)
@pytest.mark.parametrize("psu", PSUS)
def test_psu_wattage_at_n(n: int, gpu: str, psu: str, catalog: Catalog, rules) -> None:
    cpu = "amd-ryzen-threadripper-1920x"
    tdp, gpu_w = catalog.parts[cpu].tdp_w, catalog.parts[gpu].board_power_w
    need = _psu_need(tdp, gpu_w, n)
    watts = catalog.parts[psu].watts
    status, text = _run(rules["psu-wattage"], _build(catalog, n, {"cpu": cpu, "gpu": gpu, "psu": psu}))
    assert status == ("pass" if watts >= need else "fail"), text
    assert f"{need} W needed for {_gpus(n)}" in text
    assert f"{n} x {gpu_w} W" in text
    assert ("floor 1400 W" in text) == (n >= 4)


@pytest.mark.parametrize("n", NS)
@pytest.mark.parametrize("psu", PSUS)
def test_wall_circuit_at_n(n: int, psu: str, catalog: Catalog, rules) -> None:
    cpu, gpu = "amd-ryzen-threadripper-1920x", "nvidia-geforce-rtx-4090-founders-edition"
    load = catalog.parts[cpu].tdp_w + n * catalog.parts[gpu].board_power_w + 100
    eff = EFFICIENCY_PERCENT[catalog.parts[psu].efficiency]
    fits = load * 100 <= 1440 * eff  # load / (eff / 100) <= 1440, in integers
    status, text = _run(rules["wall-circuit"], _build(catalog, n, {"cpu": cpu, "gpu": gpu, "psu": psu}))
    assert status == ("pass" if fits else "fail")
    assert _gpus(n) in text
    if not fits:
        cap = (1440 * eff - 100 * (catalog.parts[cpu].tdp_w + 100)) // (100 * n)
        if cap > 0:
            assert f"power-limit the cards to {cap} W or less" in text


# -- exact arithmetic ----------------------------------------------------------------


def _with(part: Part, **update: object) -> Part:
    return part.model_copy(update=update)


def _psu_case(catalog: Catalog, watts: int, tdp: int, gpu_w: int, n: int) -> Build:
    return Build.of(
        "t",
        "dl-workstation",
        n,
        {
            "cpu": _with(catalog.parts["amd-ryzen-threadripper-1920x"], tdp_w=tdp),
            "gpu": _with(catalog.parts["nvidia-geforce-rtx-3090-founders-edition"], board_power_w=gpu_w),
            "psu": _with(catalog.parts["evga-supernova-1600-p2"], watts=watts),
        },
    )


def test_1650w_covers_1500w_at_margin_1_1(catalog: Catalog, rules) -> None:
    """The float bug of issue 14: ceil(1500 * 1.1) is 1651 in floating point."""
    spec = rules["psu-wattage"]
    assert _run(spec, _psu_case(catalog, 1650, 180, 305, 4))[0] == "pass"  # 180 + 4 x 305 + 100 = 1500
    assert _run(spec, _psu_case(catalog, 1649, 180, 305, 4))[0] == "fail"
    assert "1650 W needed" in _run(spec, _psu_case(catalog, 1649, 180, 305, 4))[1]


@settings(max_examples=300, deadline=None)
@given(
    tdp=st.integers(35, 400),
    gpu_w=st.integers(50, 700),
    n=st.integers(1, 8),
    margin=st.integers(1000, 1500),
    slack=st.integers(-3, 3),
)
def test_psu_wattage_is_exact(catalog: Catalog, rules, tdp: int, gpu_w: int, n: int, margin: int, slack: int) -> None:
    """At every margin written with three decimals, the PSU exactly at the need passes and
    one watt below fails (integer per-mille arithmetic as the judge)."""
    need = _psu_need(tdp, gpu_w, n, margin)
    watts = need + slack
    build = _psu_case(catalog, watts, tdp, gpu_w, n)
    status, _ = _run(rules["psu-wattage"], build, margin=margin / 1000)
    assert status == ("pass" if watts >= need else "fail")


# -- the power limit -----------------------------------------------------------------


def test_power_limit_lowers_the_gpu_power_used(catalog: Catalog, rules) -> None:
    ids = {"cpu": "amd-ryzen-9-7950x", "gpu": GPUS[0], "psu": "corsair-rm850x-2021"}
    spec = rules["psu-wattage"]
    status, text = _run(spec, _build(catalog, 2, ids))
    assert status == "fail"
    # 850 / 1.1 = 772.7 W for the system; minus 170 + 100 leaves 502.7 W for two cards.
    assert "power-limit the cards to 251 W or less" in text
    assert _run(spec, _build(catalog, 2, ids, limit=251))[0] == "pass"
    status, text = _run(spec, _build(catalog, 2, ids, limit=252))
    assert status == "fail"
    assert "252 W (power-limited from 450 W)" in text
    # A limit above the board power changes nothing.
    assert _run(spec, _build(catalog, 2, ids, limit=600))[1] == _run(spec, _build(catalog, 2, ids))[1]


def test_power_limit_cannot_lift_a_psu_over_the_floor(catalog: Catalog, rules) -> None:
    ids = {"cpu": "amd-ryzen-9-7950x", "gpu": GPUS[0], "psu": "corsair-rm850x-2021"}
    status, text = _run(rules["psu-wattage"], _build(catalog, 4, ids, limit=100))
    assert status == "fail"
    assert "power-limit the cards" not in text and "1400 W floor" in text


def test_power_limit_bounds_an_unknown_board_power(catalog: Catalog, rules) -> None:
    """A card whose board power is unknown draws at most its limit: pass if that fits, else unknown."""
    base = _build(catalog, 2, {"cpu": "amd-ryzen-9-7950x", "psu": "corsair-rm850x-2021"})
    gpu = _with(catalog.parts[GPUS[0]], board_power_w=None)
    build = base.with_part("gpu", gpu)
    spec = rules["psu-wattage"]
    assert _run(spec, build)[0] == "unknown"
    assert _run(spec, Build.of("t", "dl-workstation", 2, {**_parts(build), "gpu": gpu}, power_limit_w=250))[0] == "pass"
    assert _run(spec, Build.of("t", "dl-workstation", 2, {**_parts(build), "gpu": gpu}, power_limit_w=300))[0] == (
        "unknown"
    )


def _parts(build: Build) -> dict[str, Part]:
    return {role: part for role, part, _ in build.items()}


def test_power_limit_in_a_build_file(catalog: Catalog, rules) -> None:
    build = load_build(DATA / "builds" / "valid" / "power-limited-2x4090.yaml", catalog)
    assert build.power_limit_w == 250
    found = {f.rule: f for f in evaluate(build, rules).findings}
    assert found["psu-wattage"].status == "pass"
    assert "2 x 250 W (power-limited from 450 W)" in found["psu-wattage"].message
    assert "250 W (power-limited" in found["wall-circuit"].message


def test_validate_power_limit_option_overrides_the_file() -> None:
    path = str(DATA / "builds" / "valid" / "power-limited-2x4090.yaml")
    result = runner.invoke(app, ["validate", path, "--power-limit", "300", "--format", "json"])
    assert "3 x" not in result.stdout
    assert re.search(r"2 x 300 W \(power-limited from 450 W\)", result.stdout)
    assert "power-limit the cards to 251 W or less" in result.stdout
    bad = runner.invoke(app, ["validate", path, "--power-limit", "0"])
    assert bad.exit_code == 2


def test_suggest_power_limit_reaches_the_build_file(tmp_path: Path) -> None:
    catalog = DATA / "suggest" / "001_article_world" / "catalog"
    out = tmp_path / "build.yaml"
    args = ["suggest", "--gpus", "4", "--as-of", "2018-09-01", "--catalog", str(catalog), "--power-limit", "200"]
    result = runner.invoke(app, [*args, "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert "power_limit_w: 200" in out.read_text()
    checked = runner.invoke(app, ["validate", str(out), "--catalog", str(catalog)])
    assert "4 x 200 W (power-limited from 250 W)" in checked.stdout
