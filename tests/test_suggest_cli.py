"""`partpicker suggest` end to end: golden cases, the bundled catalog, files, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from partpicker.cli import app

from .conftest import DATA

runner = CliRunner()
CASES = sorted(p for p in (DATA / "suggest").iterdir() if p.is_dir())
ARTICLE_WORLD = DATA / "suggest" / "001_article_world" / "catalog"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path) -> None:
    request = yaml.safe_load((case / "request.yaml").read_text())
    expected = yaml.safe_load((case / "expected.yaml").read_text())
    catalog = (case / request.get("catalog", "catalog")).resolve()
    result = runner.invoke(app, ["suggest", *request["args"], "--catalog", str(catalog)])
    assert result.exit_code == expected.get("exit_code", 0), result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == expected["status"]
    if "total_usd" in expected:
        assert doc["total_usd"] == pytest.approx(expected["total_usd"])
    if "full_scale_usd" in expected:
        assert doc["full_scale_usd"] == pytest.approx(expected["full_scale_usd"])
    if "build" in expected:
        assert {role: p["id"] for role, p in doc["build"].items()} == expected["build"]
    for role, rule in expected.get("because", {}).items():
        line = next(x for x in doc["explanation"].split("; ") if x.startswith(f"{role}:"))
        assert f"fails {rule}:" in line, line
    if "alternative_totals" in expected:
        assert [a["total_usd"] for a in doc["alternatives"]] == pytest.approx(expected["alternative_totals"])
    builds = [doc["build"], *(a["build"] for a in doc["alternatives"])] if doc["build"] else []
    keys = [tuple(b[r]["id"] for r in ("cpu", "motherboard", "gpu")) for b in builds]
    assert len(set(keys)) == len(keys), "each --top build has another CPU, board or GPU"
    if "cheapest_usd" in expected:
        assert doc["cheapest_usd"] == pytest.approx(expected["cheapest_usd"])
    if "explanation_contains" in expected:
        assert expected["explanation_contains"] in doc["explanation"]


def test_json_shape() -> None:
    result = runner.invoke(app, ["suggest", "--as-of", "2018-09-01", "-f", "json", "--catalog", str(ARTICLE_WORLD)])
    doc = json.loads(result.stdout)
    assert set(doc) >= {
        "status",
        "budget_usd",
        "gpus",
        "build",
        "total_usd",
        "full_scale_usd",
        "alternatives",
        "explanation",
    }
    assert doc["gpus"] == {"now": 1, "target": 4}
    assert doc["build"]["gpu"]["count"] == 1


def test_output_file_validates(tmp_path: Path) -> None:
    out = tmp_path / "build.yaml"
    result = runner.invoke(
        app, ["suggest", "--as-of", "2018-09-01", "--catalog", str(ARTICLE_WORLD), "--output", str(out)]
    )
    assert result.exit_code == 0, result.output
    check = runner.invoke(app, ["validate", str(out), "--catalog", str(ARTICLE_WORLD), "-f", "json"])
    doc = json.loads(check.stdout)
    assert check.exit_code == 0
    assert all(f["status"] == "pass" for f in doc["findings"] if f["severity"] == "error")


def test_no_output_file_when_infeasible(tmp_path: Path) -> None:
    out = tmp_path / "build.yaml"
    result = runner.invoke(
        app,
        ["suggest", "--as-of", "2018-09-01", "--budget", "100", "--catalog", str(ARTICLE_WORLD), "--output", str(out)],
    )
    assert result.exit_code == 1
    assert "raise the budget by $2,290.00" in result.stdout
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []


def test_required_part_that_breaks_a_rule_is_named() -> None:
    result = runner.invoke(
        app,
        ["suggest", "--as-of", "2018-09-01", "--catalog", str(ARTICLE_WORLD), "--require", "cpu=Example CPU 8C 20L"],
    )
    assert result.exit_code == 1
    assert "cpu-pcie-lanes" in result.stdout


def test_pinned_gpu_model_and_exclude() -> None:
    pinned = runner.invoke(
        app,
        ["suggest", "--as-of", "2018-09-01", "--catalog", str(ARTICLE_WORLD), "--exclude", "example-case-8-slots"],
    )
    assert pinned.exit_code == 1  # the only case with eight slots is gone
    assert "gpu-slots" in pinned.stdout


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["--gpus", "2", "--start-gpus", "3"], "--start-gpus 3 is more than --gpus 2"),
        (["--require", "cpu"], "is not ROLE=NAME"),
        (["--require", "gpuu=RTX 3090"], "unknown role"),
        (["--require", "cpu=Nonexistent Chip 9000"], "no cpu in the catalog matches"),
        (["--as-of", "soon"], "is not a date"),
        (["--gpu", "Voodoo 5 6000"], "--gpu Voodoo 5 6000"),
        (["--catalog", "no/such/folder"], "catalog path not found"),
    ],
)
def test_usage_errors_exit_2(args: list[str], phrase: str) -> None:
    result = runner.invoke(app, ["suggest", *args])
    assert result.exit_code == 2, result.output
    assert phrase in result.stderr
    assert "Traceback" not in result.output


def test_headline_answers_and_its_output_validates(tmp_path: Path) -> None:
    """The README's first command answers on the bundled catalog: a proven build (exit 0) that
    `validate` passes, or an unproven one (exit 3) that `validate` gives the same unknowns."""
    out = tmp_path / "build.yaml"
    result = runner.invoke(app, ["suggest", "--gpus", "4", "--budget", "3000", "-f", "json", "--output", str(out)])
    assert result.exit_code in (0, 3), result.output
    doc = json.loads(result.stdout)
    assert doc["status"] == ("proven" if result.exit_code == 0 else "unproven")
    assert doc["total_usd"] <= 3000
    check = runner.invoke(app, ["validate", str(out), "-f", "json"])
    report = json.loads(check.stdout)
    unknown = sorted(f["rule"] for f in report["findings"] if f["status"] == "unknown")
    assert unknown == sorted(u.split(":")[0] for u in doc["unproven"])
    assert report["verdict"] == ("pass" if result.exit_code == 0 else "unknown")


def test_allow_unknown_names_what_is_unproven() -> None:
    result = runner.invoke(app, ["suggest", "--gpus", "4", "--as-of", "2025-07-23", "--allow-unknown", "-f", "json"])
    doc = json.loads(result.stdout)
    assert result.exit_code == (3 if doc["unproven"] and doc["status"] == "unproven" else 0), result.output
    assert doc["status"] in ("proven", "unproven")


def test_suggest_with_cost() -> None:
    result = runner.invoke(app, ["suggest", "--as-of", "2018-09-01", "--catalog", str(ARTICLE_WORLD), "--cost"])
    assert result.exit_code == 0, result.output
    assert "break-even: on-demand month 2" in result.stdout
    assert "At full scale (4 GPUs, $4,490.00)" in result.stdout
    # As of 2018 an 11 GB card compares with the article's $3/h V100 (docs/cost.md, "Which cloud GPU").
    assert "cloud rate: $3.00/GPU-h on demand: V100" in result.stdout
    doc = json.loads(
        runner.invoke(
            app, ["suggest", "--as-of", "2018-09-01", "--catalog", str(ARTICLE_WORLD), "--cost", "-f", "json"]
        ).stdout
    )
    used = doc["cost"]["now"]["assumptions"]["cloud_rate_used"]
    assert (used["gpu_class"], used["usd_per_gpu_hour"], used["date"]) == ("V100", 3.0, "2018")


@pytest.mark.parametrize(
    ("name", "chips"),
    [
        ("RTX 3060", {"GeForce RTX 3060 12GB"}),  # a memory size ends some chip names
        ("RTX 3090", {"GeForce RTX 3090"}),  # not the 3090 Ti
        ("RTX 3090 Ti", {"GeForce RTX 3090 Ti"}),
        ("RTX 4060 Ti", {"GeForce RTX 4060 Ti 16GB"}),
    ],
)
def test_gpu_model_matches_every_card_of_the_chip(name: str, chips: set[str]) -> None:
    from partpicker.models import Gpu
    from partpicker.suggest.offer import gpu_model

    from .conftest import read_catalog_once

    catalog = read_catalog_once()[0]
    cards = gpu_model(catalog, name)
    assert {c.chip for c in cards if isinstance(c, Gpu)} == chips
    every = {g.id for g in catalog.entries("gpu") if isinstance(g, Gpu) and g.chip in chips}
    assert {c.id for c in cards} == every and len(every) >= 1


def test_the_budget_advice_leads_to_a_proven_build() -> None:
    """Over budget, the answer names the cheapest build proven to pass: raising the budget by
    what it says gives that proven build (not an unproven one)."""
    import re

    short = runner.invoke(app, ["suggest", "--gpus", "4", "--budget", "1000", "--as-of", "2025-07-31"])
    assert short.exit_code == 1
    found = re.search(r"proven to pass costs \$([\d,]+\.\d\d) now", short.stdout)
    assert found, short.stdout
    price = float(found[1].replace(",", ""))
    enough = runner.invoke(
        app, ["suggest", "--gpus", "4", "--budget", str(price), "--as-of", "2025-07-31", "-f", "json"]
    )
    doc = json.loads(enough.stdout)
    assert enough.exit_code == 0 and doc["status"] == "proven"
    assert doc["total_usd"] == pytest.approx(price)


@pytest.mark.parametrize("gpus", [1, 4])
def test_why_says_unchecked_only_where_nothing_fails(gpus: int, catalog, rules) -> None:  # type: ignore[no-untyped-def]
    """'Why these parts': a cheaper part said to be 'cannot be checked on' a rule fails no rule
    of its role in the answer's build (a failing rule is named before an unchecked one)."""
    import datetime as dt

    from partpicker.suggest.answer import solve
    from partpicker.suggest.offer import Request
    from partpicker.validate.engine import evaluate

    solution = solve(catalog, rules, Request(gpus=gpus, budget=3000, as_of=dt.date(2025, 7, 31), min_storage_gb=500))
    build = solution.choices[0].build
    by_name = {p.name: p for p in catalog.parts.values()}
    unchecked = [line for line in solution.binding if " is cheaper but cannot be checked on " in line]
    for line in unchecked:
        role, rest = line.split(": ", 1)
        name = rest.split(" ($", 1)[0]
        report = evaluate(build.with_part(role, by_name[name]), rules, as_of=solution.as_of)
        failing = [f.rule for f in report.findings if f.status == "fail" and f.severity == "error"]
        assert not [r for r in failing if role in rules[r].roles], (line, failing)
    assert any(" is cheaper but fails " in line for line in solution.binding)


def test_an_unproven_answer_under_budget_names_the_proven_one_over_it() -> None:
    """A budget between the cheapest unproven build and the cheapest proven one: the answer is
    UNPROVEN (exit 3) and names the proven build over the budget, whose price is what a budget
    that buys it gives as the proven answer."""
    args = ["suggest", "--gpus", "4", "--as-of", "2025-07-31", "-f", "json"]
    proven = json.loads(runner.invoke(app, args).stdout)
    assert proven["status"] == "proven" and proven["possible"] is not None
    budget = (proven["possible"]["total_usd"] + proven["total_usd"]) / 2  # between the two
    short = runner.invoke(app, [*args, "--budget", str(budget)])
    doc = json.loads(short.stdout)
    assert short.exit_code == 3 and doc["status"] == "unproven"
    assert doc["proven_over_budget"]["total_usd"] == pytest.approx(proven["total_usd"])
    text = runner.invoke(app, [*args[:-2], "--budget", str(budget)]).stdout
    # the heading does not say no build is proven, when one over the budget is shown below it
    assert f"no build within the ${budget:,.2f} budget is proven" in text, text
    assert "Proven to pass, over the budget" in text and "no build is proven to pass" not in text


@pytest.mark.parametrize(
    ("flag", "said"),
    [(["--min-vram", "200"], "no priced card has 200 GB or more"), (["--min-storage", "100000"], "holds 100000 GB")],
)
def test_no_build_for_want_of_size_says_so_not_no_price(flag: list[str], said: str) -> None:
    result = runner.invoke(app, ["suggest", "--gpus", "4", *flag])
    assert result.exit_code == 1 and said in result.stdout and "(no price" not in result.stdout, result.output


def test_no_build_lists_only_rules_that_failed() -> None:
    pins = ["--require", "cpu=Intel Core i7-6900K", "--require", "ram=Samsung 32GB DDR4-2666 ECC RDIMM"]
    result = runner.invoke(app, ["suggest", "--gpus", "4", *pins, "--as-of", "2026-12-01"])
    assert result.exit_code == 1 and "the rules that failed most:" in result.stdout, result.output
    assert "(0x)" not in result.stdout
