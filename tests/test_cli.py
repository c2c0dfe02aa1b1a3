"""The command line: exit codes and one clear message for every class of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from partpicker.cli import app

from .conftest import DATA, ROOT

runner = CliRunner()
INVALID = DATA / "builds" / "invalid"
EXPECTED = yaml.safe_load((INVALID / "EXPECTED.yaml").read_text())


def run(*args: str):
    return runner.invoke(app, list(args))


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=sorted(EXPECTED))
def test_bad_build_file_is_one_clear_error(name: str) -> None:
    line, phrase = EXPECTED[name]
    path = INVALID / name
    result = run("validate", str(path))
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert "Traceback" not in err and result.exception is None or isinstance(result.exception, SystemExit)
    assert err.count("error:") == 1
    where = f"{path}:{line}:" if line else f"{path}:"
    assert where in err, err
    assert phrase in err, err
    assert result.stdout == ""


def test_missing_file() -> None:
    result = run("validate", "no/such/build.yaml")
    assert result.exit_code == 2
    assert "no/such/build.yaml: file not found" in result.stderr


def test_unknown_option_is_usage_error() -> None:
    result = run("validate", str(ROOT / "examples" / "article-2018.yaml"), "--colour")
    assert result.exit_code == 2


def test_bad_as_of_date() -> None:
    result = run("validate", str(ROOT / "examples" / "article-2018.yaml"), "--as-of", "yesterday")
    assert result.exit_code == 2
    assert "--as-of 'yesterday' is not a date" in result.stderr


def test_article_build_passes() -> None:
    result = run("validate", str(ROOT / "examples" / "article-2018.yaml"))
    assert result.exit_code == 0, result.output
    assert "PASS" in result.stdout.splitlines()[0]


def test_json_is_one_object(tmp_path: Path) -> None:
    result = run("validate", str(ROOT / "examples" / "article-2018.yaml"), "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["verdict"] == "pass"
    assert doc["target_gpus"] == 4
    assert set(doc) >= {"build", "profile", "target_gpus", "verdict", "parts", "total_usd", "findings"}
    assert {f["status"] for f in doc["findings"]} <= {"pass", "fail", "unknown"}
    assert doc["parts"]["cpu"]["id"] == "amd-ryzen-threadripper-1920x"
    assert doc["total_usd"] == pytest.approx(
        sum(p["usd"] * p["count"] for p in doc["parts"].values() if p["usd"] is not None), abs=0.01
    )


def test_failing_build_exits_1_and_names_rule() -> None:
    result = run("validate", str(ROOT / "examples" / "fail-i7-7820x-x299.yaml"), "--format", "json")
    assert result.exit_code == 1
    failed = {f["rule"] for f in json.loads(result.stdout)["findings"] if f["status"] == "fail"}
    assert "cpu-pcie-lanes" in failed


def test_strict_fails_on_warnings() -> None:
    path = str(ROOT / "examples" / "warn-4x-rtx-4090-1600w.yaml")
    plain = run("validate", path, "--format", "json")
    doc = json.loads(plain.stdout)
    assert any(f["status"] == "fail" and f["severity"] == "warning" for f in doc["findings"])
    strict = run("validate", path, "--strict")
    assert strict.exit_code == 1


def test_github_format_annotates_build_lines() -> None:
    path = ROOT / "examples" / "fail-i7-7820x-x299.yaml"
    result = run("validate", str(path), "--format", "github")
    assert result.exit_code == 1
    cpu_line = next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.strip().startswith("cpu:"))
    assert f"::error file={path},line={cpu_line},title=cpu-pcie-lanes::" in result.stdout


def test_sarif_format() -> None:
    result = run("validate", str(ROOT / "examples" / "fail-i7-7820x-x299.yaml"), "--format", "sarif")
    doc = json.loads(result.stdout)
    ids = {r["ruleId"] for r in doc["runs"][0]["results"]}
    assert "cpu-pcie-lanes" in ids
    assert all(r["level"] in ("error", "warning", "note") for r in doc["runs"][0]["results"])


def test_rules_lists_every_rule(rules) -> None:
    result = run("rules")
    assert result.exit_code == 0
    for rule_id in rules:
        assert rule_id in result.stdout


def test_rules_graph_dot() -> None:
    result = run("rules", "--graph", "--format", "dot")
    assert result.exit_code == 0
    assert result.stdout.startswith("graph partpicker {")
    assert '"rule:cpu-pcie-lanes" -- "cpu"' in result.stdout
