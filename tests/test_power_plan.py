"""The power plan: two PSUs on two circuits when no power limit of 60 % or more fits one, the
second PSU chosen from the catalog and priced; the JSON plan states the text's numbers."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partpicker.build import Line, load_build
from partpicker.circuits import CIRCUITS
from partpicker.cli import app
from partpicker.pricing import price_of
from partpicker.rules.power import efficiency
from partpicker.workplan.power import MIN_LIMIT_SHARE, power_plan, split_of

from .conftest import DATA, ROOT, read_catalog_once

runner = CliRunner()
DAY = "2025-07-31"
QUAD_3090 = ROOT / "examples" / "fail-4x-rtx-3090-fe-x399.yaml"
TWO_PSUS = DATA / "builds" / "dual-psu" / "two-1600w-listed.yaml"
# Four 575 W RTX 5090s: on us-15a no limit of 60 % fits one circuit, so the plan adds a PSU.
FOUR_5090 = ["--workload", "serve llama-3.1-70b q8 ctx 32768 users 4", "--gpu", "RTX 5090", "--circuit", "us-15a"]


def _catalog():  # type: ignore[no-untyped-def]
    return read_catalog_once()[0]


def _numbers(text: str) -> set[int]:
    return {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", text)}


def _brute_split(fixed: int, gpu_w: int, n: int, limit: float, eff: float) -> tuple[int, int]:
    """(mildest per-card draw, cards on PSU 2) over every split and every whole-watt draw."""
    best = (0, 0)
    for k in range(1, n):
        for w in range(gpu_w, 0, -1):
            if (fixed + (n - k) * w) / eff <= limit and k * w / eff <= limit:
                best = max(best, (w, -k))
                break
    return best[0], -best[1]


@pytest.mark.parametrize(("n", "gpu_w", "fixed"), [(4, 575, 240), (4, 450, 380), (6, 350, 380), (3, 600, 200)])
def test_the_split_needs_the_mildest_limit(n: int, gpu_w: int, fixed: int) -> None:
    limit, eff = Fraction(1440), Fraction(9, 10)
    split = split_of(fixed, gpu_w, n, limit, eff)
    w, k = _brute_split(fixed, gpu_w, n, 1440, 0.9)
    if w < MIN_LIMIT_SHARE * gpu_w:
        assert split is None
        return
    assert split is not None and split.card_w == w and split.second_gpus == k
    assert split.limit_w == (None if w == gpu_w else w)
    assert split.second_need_w == math.ceil(k * w * Fraction(11, 10))


def test_two_psus_listed_on_one_circuit_share_it_and_json_says_so() -> None:
    result = runner.invoke(app, ["validate", str(TWO_PSUS), "--circuit", "us-15a", "-f", "json"])
    plan = json.loads(result.stdout)["power_plan"]
    build = load_build(TWO_PSUS, _catalog())
    assert [p["id"] for p in plan["psus"]] == [p.id for p in build.psus]
    assert plan["split"] is None and all(p["steady_w"] is None for p in plan["psus"])
    assert plan["steady_w"] == 280 + 4 * 225 + 100  # at the advised limit, as the text says
    text = runner.invoke(app, ["validate", str(TWO_PSUS), "--circuit", "us-15a"]).stdout
    assert f"3200 W at {plan['steady_w']:,} W steady DC load" in text


@pytest.mark.parametrize("circuit", ["us-15a", "jp-15a", "eu-16a"])
def test_validate_json_plan_states_the_text_numbers(circuit: str) -> None:
    args = ["validate", str(QUAD_3090), "--circuit", circuit]
    text = runner.invoke(app, args).stdout.split("Power plan at", 1)[1]
    plan = json.loads(runner.invoke(app, [*args, "-f", "json"]).stdout)["power_plan"]
    assert all(f"  {line}\n" in text for line in plan["plan"])
    said = _numbers(text)
    for key in ("wall_w", "steady_w", "gpu_w", "cpu_w", "rest_w"):
        assert plan[key] in said, key
    assert plan["circuit"]["continuous_w"] in said
    if plan["power_limit_w"] is not None:
        assert f"power-limit each GPU to {plan['power_limit_w']} W" in text
    for psu in plan["psus"]:
        assert psu["watts"] in said and (psu["transient_w"] is None or psu["transient_w"] in said)


@pytest.mark.slow
def test_four_575w_cards_on_us_15a_get_a_second_psu_that_validates(tmp_path: Path) -> None:
    out = tmp_path / "build.yaml"
    result = runner.invoke(app, ["suggest", *FOUR_5090, "--as-of", DAY, "--allow-unknown", "--output", str(out)])
    assert result.exit_code in (0, 3), result.output  # 3: the build passes only if unknown facts hold
    doc = json.loads(
        runner.invoke(app, ["suggest", *FOUR_5090, "--as-of", DAY, "--allow-unknown", "-f", "json"]).stdout
    )
    best = doc["options"][0]
    catalog = _catalog()
    build = load_build(out, catalog)
    assert len(build.psus) == 2  # two units of one model from the search, or a second the plan adds
    psu2 = build.psus[1]
    second = best["second_psu"]
    if second is not None:  # the plan added it: priced as of the day, listed, in the total
        assert psu2.id == second["id"]
        price = price_of(psu2, dt.date.fromisoformat(DAY))
        assert price is not None and second["usd"] == price.usd
        assert f"psu-2  ${second['usd']:,.2f}  {psu2.name}" in result.stdout
    plan = best["power"]
    split = plan["split"]
    assert split["second_gpus"] + split["first_gpus"] == best["n_gpus"] == build.gpu_count
    # Each circuit within its continuous share, by the plan's own figures recomputed.
    card = build.power_limit_w or 575
    eff2 = float(efficiency(psu2.efficiency))
    assert split["second_gpus"] * card / eff2 <= CIRCUITS["us-15a"].continuous_w
    assert psu2.low_line_watts is not None and psu2.low_line_watts >= math.ceil(
        split["second_gpus"] * card * Fraction(11, 10)
    )
    # The written build validates with both PSUs: psu-wattage sums them, no error rule fails.
    report = runner.invoke(app, ["validate", str(out), "--circuit", "us-15a", "-f", "json"])
    assert report.exit_code == 0, report.output
    findings = {f["rule"]: f for f in json.loads(report.stdout)["findings"]}
    assert findings["psu-wattage"]["status"] == "pass" and "2 PSUs" in findings["psu-wattage"]["message"]
    # With both listed the plan puts one on each circuit; with the first alone it asks for the second.
    both = power_plan(build, CIRCUITS["us-15a"], 4)
    assert both.psus == build.psus and any(f"PSU 2 {psu2.name}" in line for line in both.lines)
    first = replace(build, parts={**build.parts, "psu": (Line(build.psus[0]),)})
    alone = power_plan(first, CIRCUITS["us-15a"], 4)
    assert len(alone.psus) == 1 and any("needs a second PSU" in line for line in alone.lines)


@pytest.mark.slow
def test_verified_only_reaches_the_workload_path() -> None:
    """--verified-only with --workload: recalled facts are unknown there too (the recalled
    form factor of a case no longer passes), and the build is plain suggest's --verified-only
    build for the same GPU and count (a second path)."""
    line = ["--workload", "qlora llama-3.1-70b seq 4096", "--as-of", DAY, "--allow-unknown"]
    plain = runner.invoke(app, ["suggest", *line]).stdout
    verified = runner.invoke(app, ["suggest", *line, "--verified-only"]).stdout
    assert "(recalled) -" in plain
    assert "(recalled) -" not in verified
    doc = json.loads(runner.invoke(app, ["suggest", *line, "--verified-only", "-f", "json"]).stdout)
    best = doc["options"][0]
    chip = _catalog().parts[best["build"]["gpu"]["id"]].chip
    n = str(best["n_gpus"])
    args = ["suggest", "--gpus", n, "--start-gpus", n, "--gpu", chip, "--as-of", DAY, "--allow-unknown"]
    other = json.loads(runner.invoke(app, [*args, "--verified-only", "-f", "json"]).stdout)
    assert {role: p["id"] for role, p in other["build"].items()} == {role: p["id"] for role, p in best["build"].items()}
    assert other["total_usd"] == pytest.approx(best["total_usd"])
