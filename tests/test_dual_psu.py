"""Dual-PSU builds: `psu: [A, B]` or `{part: A, count: 2}` sums the PSUs' watts and cables;
listing one PSU where two are needed is still a fail."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from partpicker.build import load_build
from partpicker.validate.engine import evaluate

from .conftest import DATA

DUAL = DATA / "builds" / "dual-psu"


def _findings(name: str, catalog, rules) -> tuple[object, dict[str, object]]:
    build = load_build(DUAL / name, catalog)
    return build, {f.rule: f for f in evaluate(build, rules).findings}


def _need_w(build) -> int:
    """psu-wattage's need, recomputed from the catalog figures (margin 1.1, rest 100 W, floor 1400 W)."""
    assert build.cpu is not None and build.gpu is not None and build.gpu.board_power_w is not None
    load = build.cpu.tdp_w + build.gpu_count * build.gpu.board_power_w + 100
    return max(1400, math.ceil(Fraction(load) * Fraction(11, 10)))


def test_one_1600w_psu_is_short(catalog, rules) -> None:
    build, found = _findings("one-1600w.yaml", catalog, rules)
    assert len(build.psus) == 1
    assert build.psus[0].watts < _need_w(build)
    assert found["psu-wattage"].status == "fail"
    assert found["psu-case-mounts"].status == "pass"


@pytest.mark.parametrize("name", ["two-1600w-listed.yaml", "two-1600w-counted.yaml"])
def test_two_psus_listed_pass_on_their_sum(name: str, catalog, rules) -> None:
    build, found = _findings(name, catalog, rules)
    assert len(build.psus) == 2
    total = sum(p.watts for p in build.psus)
    assert max(p.watts for p in build.psus) < _need_w(build) <= total
    wattage = found["psu-wattage"]
    assert wattage.status == "pass", wattage.message
    for psu in build.psus:  # each PSU named with its watts, and the sum
        assert f"{psu.name} {psu.watts} W" in wattage.message
    assert f"= {total} W >= {_need_w(build)} W" in wattage.message
    cables = sum(p.pcie_8pin or 0 for p in build.psus)
    assert f"the 2 PSUs have {cables} and" in found["gpu-power-connectors"].message
    # The catalog does not know whether the case mounts two PSUs: a stated unknown, not a pass.
    mounts = found["psu-case-mounts"]
    assert mounts.status == "unknown" and "mounts 2 PSUs" in mounts.message
    # One circuit still carries the total draw.
    assert found["wall-circuit"].status == "fail"


def test_the_listed_pair_is_priced_and_shown(catalog, rules) -> None:
    build = load_build(DUAL / "two-1600w-listed.yaml", catalog)
    report = evaluate(build, rules)
    assert report.parts["psu"].id == "evga-supernova-1600-p2"
    assert report.parts["psu-2"].id == "corsair-ax1600i"


def test_the_power_picture_draws_both_psus_as_the_rules_judge_them(catalog, rules) -> None:
    """The HTML power bar: the sum of both units' watts (as psu-wattage), the wall draw through
    the least efficient unit (as wall-circuit)."""
    from partpicker.html.power import power_budget
    from partpicker.rules import power
    from partpicker.validate import drawing

    build = load_build(DUAL / "two-1600w-listed.yaml", catalog)
    report = evaluate(build, rules)
    view = drawing.power_view(build, report.params)
    assert view is not None
    assert view.psu_w == sum(p.watts for p in build.psus) == 3200
    eff = min(power.efficiency(p.efficiency) for p in build.psus)
    assert build.cpu is not None and build.gpu is not None and build.gpu.board_power_w is not None
    load = build.cpu.tdp_w + build.gpu_count * build.gpu.board_power_w + 100
    assert view.wall_w == pytest.approx(float(Fraction(load) / eff))
    svg = power_budget(view)
    assert "PSU 3,200 W" in svg and "short by" not in svg


def _json(result) -> dict[str, object]:  # type: ignore[no-untyped-def]
    import json

    return json.loads(result.stdout)


def test_suggest_psus_2_writes_a_counted_pair_that_validate_reads(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`suggest --psus 2`: two units of one PSU model, priced twice, written as
    `psu: {part: X, count: 2}`, and judged on their sum by validate."""
    from typer.testing import CliRunner

    from partpicker.cli import app

    runner = CliRunner()
    out = tmp_path / "two.yaml"
    args = ["suggest", "--gpus", "4", "--start-gpus", "4", "--gpu", "RTX 5090", "--as-of", "2025-07-31"]
    one = runner.invoke(app, [*args, "-f", "json"])
    two = runner.invoke(app, [*args, "--psus", "2", "-f", "json", "--output", str(out)])
    assert two.exit_code == 0, two.output  # proven on two units
    assert one.exit_code != 0  # one unit carries no proven build of four 575 W cards
    import yaml

    written = yaml.safe_load(out.read_text())
    assert written["parts"]["psu"]["count"] == 2
    checked = runner.invoke(app, ["validate", str(out), "-f", "json"])
    found = {f["rule"]: f for f in _json(checked)["findings"]}
    assert found["psu-wattage"]["status"] == "pass" and "2 PSUs" in found["psu-wattage"]["message"]
    assert found["gpu-power-connectors"]["status"] == "pass"


def test_a_workload_no_one_psu_carries_gets_two(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """suggest --workload: when no build is proven on one PSU, two units of one model; the
    answer equals the plain suggest answer with --psus 2 for the same cards."""
    from typer.testing import CliRunner

    from partpicker.cli import app

    runner = CliRunner()
    out = tmp_path / "w.yaml"
    line = "serve qwen2.5-32b bf16 ctx 16384 users 4"
    common = ["--gpu", "RTX 5090", "--as-of", "2025-07-31", "-f", "json"]
    work = runner.invoke(app, ["suggest", "--workload", line, *common, "--output", str(out)])
    assert work.exit_code == 0, work.output
    best = _json(work)["options"][0]  # type: ignore[index]
    import yaml

    written = yaml.safe_load(out.read_text())
    assert written["parts"]["psu"]["count"] == 2
    n = str(best["n_gpus"])
    plain = runner.invoke(app, ["suggest", "--gpus", n, "--start-gpus", n, "--psus", "2", *common])
    assert _json(plain)["status"] == "proven"
    assert best["total_usd"] == pytest.approx(_json(plain)["total_usd"])


@pytest.mark.parametrize(
    ("circuit", "status", "phrase"),
    [
        (None, "pass", "PSU 2000 W >= 1958 W"),  # no circuit named: the unit's rating
        ("eu-16a", "pass", "PSU 2000 W >= 1958 W"),  # 230 V mains: its rating
        ("us-15a", "unknown", "on 120 V mains (low_line_watts) is not in the catalog"),
        ("jp-15a", "unknown", "on 100 V mains (low_line_watts) is not in the catalog"),
    ],
)
def test_a_230v_unit_on_a_low_line_circuit_needs_its_low_line_rating(
    circuit: str | None, status: str, phrase: str
) -> None:
    """psu-wattage on a named circuit: below 200 V a PSU gives its low-line rating, which the
    catalog lacks for this 230 V unit; unknown, never a pass on the 230 V figure."""
    import json

    from typer.testing import CliRunner

    from partpicker.cli import app

    path = str(DATA / "builds" / "low-line" / "quad-3090-one-2000w-230v.yaml")
    args = ["validate", path, "-f", "json", *(["--circuit", circuit] if circuit else [])]
    result = CliRunner().invoke(app, args)
    found = {f["rule"]: f for f in json.loads(result.stdout)["findings"]}
    assert found["psu-wattage"]["status"] == status, found["psu-wattage"]
    assert phrase in found["psu-wattage"]["message"]


def test_the_power_plan_says_a_230v_units_low_line_output_is_unknown() -> None:
    from typer.testing import CliRunner

    from partpicker.cli import app

    path = str(DATA / "builds" / "low-line" / "quad-3090-one-2000w-230v.yaml")
    us = CliRunner().invoke(app, ["validate", path, "--circuit", "us-15a"]).stdout
    eu = CliRunner().invoke(app, ["validate", path, "--circuit", "eu-16a"]).stdout
    assert "PSU 2000 W (on 200-240 V; its output on 120 V is not in the catalog) at" in us
    assert "PSU 2000 W at" in eu and "not in the catalog) at" not in eu


@pytest.mark.slow
def test_a_counted_pair_on_two_circuits_writes_the_limit_and_says_two(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Four 575 W cards on us-15a: the two-PSU answer's plan puts one PSU on each of two
    circuits with a per-GPU limit; --output carries that limit, and the plan says two circuits
    (not the three full power would need) in text and JSON alike."""
    import json

    import yaml
    from typer.testing import CliRunner

    from partpicker.cli import app

    runner = CliRunner()
    out = tmp_path / "w.yaml"
    line = "serve qwen2.5-72b int8 ctx 16384 users 4"
    args = ["suggest", "--workload", line, "--gpu", "RTX 5090", "--circuit", "us-15a", "--as-of", "2025-07-31"]
    answer = json.loads(runner.invoke(app, [*args, "-f", "json", "--output", str(out)]).stdout)
    plan = answer["options"][0]["power"]
    written = yaml.safe_load(out.read_text())
    assert written["parts"]["psu"] == {"part": written["parts"]["psu"]["part"], "count": 2}
    assert plan["circuits"] == 2 and plan["split"] is not None
    assert written["power_limit_w"] == plan["split"]["power_limit_w"] is not None
    checked = runner.invoke(app, ["validate", str(out), "--circuit", "us-15a"])
    assert checked.exit_code == 0 and "use 3 circuits" not in checked.stdout


def test_adapter_fed_sockets_are_not_counted_as_native_cables_too() -> None:
    """Four RTX 3090 FE (one 12-pin each) on a PSU without 12VHPWR: the sockets take NVIDIA's
    adapter, so the message counts them once, as 8-pin cables, and asks for no native cable."""
    from partpicker.build import load_build
    from partpicker.rules.rulebook import load_rules
    from partpicker.validate.engine import evaluate

    from .conftest import ROOT, read_catalog_once

    build = load_build(ROOT / "examples" / "fail-4x-rtx-3090-fe-x399.yaml", read_catalog_once()[0])
    found = next(f for f in evaluate(build, load_rules()).findings if f.rule == "gpu-power-connectors")
    assert found.status == "pass"
    assert "(incl. 8 feeding 12VHPWR adapters) and 0 12VHPWR; the PSU has 9 and 0" in found.message


def test_a_proven_build_calls_its_unknown_warnings_not_checked_not_unproven() -> None:
    """Every error rule passes, psu-case-mounts (a warning) cannot be checked: the heading
    must not say the build is not proven."""
    from typer.testing import CliRunner

    from partpicker.cli import app

    args = ["suggest", "--gpus", "4", "--start-gpus", "4", "--gpu", "RTX 5090", "--psus", "2", "--as-of", "2025-07-31"]
    text = CliRunner().invoke(app, args).stdout
    first = text.split("\n\n")[0]
    assert first.startswith("Cheapest build proven to pass every error rule")
    assert "Warnings not checked:" in first and "Not proven:" not in first
    assert "psu-case-mounts (warning)" in first
