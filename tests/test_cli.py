"""The command line: exit codes and one clear message for every class of bad input."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from partpicker.cli import app

from .conftest import DATA, ROOT

UNMAPPED = DATA / "builds" / "valid" / "unmapped-board.yaml"  # the article build on a board with no slot map

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
    assert "Traceback" not in err
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert err.count("error:") == 1
    where = f"{path}:{line}:" if line else f"{path}:"
    assert where in err, err
    assert phrase in err, err
    assert result.stdout == ""


@pytest.mark.parametrize("name", ["impossible-date.yaml", "bad-int-tag.yaml", "bad-timestamp-tag.yaml"])
def test_a_bad_value_in_good_yaml_is_not_called_a_syntax_error(name: str) -> None:
    err = run("validate", str(INVALID / name)).stderr
    assert "malformed YAML" not in err and "fix the YAML syntax" not in err, err
    assert "bad-yaml.yaml" not in name and "malformed YAML" in run("validate", str(INVALID / "bad-yaml.yaml")).stderr


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


def test_exit_codes_by_verdict() -> None:
    compat = run("validate", str(ROOT / "examples" / "article-2018-compat.yaml"))
    assert compat.exit_code == 0, compat.output
    assert compat.stdout.splitlines()[0].startswith("article-2018-compat: PASS  No issues")
    unknown = run("validate", str(UNMAPPED))
    assert unknown.exit_code == 0
    assert "UNKNOWN" in unknown.stdout.splitlines()[0]
    assert "Not checked" in unknown.stdout
    assert run("validate", str(UNMAPPED), "--strict").exit_code == 1
    assert run("validate", str(ROOT / "examples" / "fail-1200w-psu.yaml")).exit_code == 1


def test_json_is_one_object() -> None:
    result = run("validate", str(UNMAPPED), "--format", "json")
    doc = json.loads(result.stdout)
    assert doc["verdict"] == "unknown"
    assert doc["target_gpus"] == 4
    assert set(doc) >= {"build", "profile", "target_gpus", "verdict", "parts", "total_usd", "findings"}
    assert {f["status"] for f in doc["findings"]} <= {"pass", "fail", "unknown"}
    unknown = sorted(f["rule"] for f in doc["findings"] if f["status"] == "unknown")
    # the slot map decides gpu-slots and the topology rules that read the layout (its M.2 sockets are known)
    assert unknown == ["gpu-chipset-lanes", "gpu-slots", "gpu-x4-links"]
    assert doc["parts"]["cpu"]["id"] == "amd-ryzen-threadripper-1920x"
    assert doc["parts"]["cpu"]["price_date"] <= "2018-09-01"
    assert doc["total_usd"] == pytest.approx(
        sum(p["usd"] * p["count"] for p in doc["parts"].values() if p["usd"] is not None), abs=0.01
    )


def test_failing_build_exits_1_and_names_rule() -> None:
    result = run("validate", str(ROOT / "examples" / "fail-i7-7820x-x299.yaml"), "--format", "json")
    assert result.exit_code == 1
    failed = {f["rule"] for f in json.loads(result.stdout)["findings"] if f["status"] == "fail"}
    assert "cpu-pcie-lanes" in failed


def test_a_failed_warning_is_marked_warn_not_fail() -> None:
    text = run("validate", str(ROOT / "examples" / "article-2018.yaml")).stdout
    assert text.splitlines()[0].startswith("article-2018: PASS")
    assert "  [warn] gpu-p2p (warning):" in text and "[FAIL] gpu-p2p" not in text
    failing = run("validate", str(ROOT / "examples" / "fail-1200w-psu.yaml")).stdout
    assert "  [FAIL] psu-wattage (error):" in failing


def test_warnings_are_reported_with_severity() -> None:
    doc = json.loads(run("validate", str(ROOT / "examples" / "fail-4x-rtx-4090-1600w.yaml"), "-f", "json").stdout)
    wall = next(f for f in doc["findings"] if f["rule"] == "wall-circuit")
    assert (wall["status"], wall["severity"]) == ("fail", "warning")
    assert "power-limit" in wall["message"]


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
    assert '"cpu" -- "rule:cpu-pcie-lanes"' in result.stdout or '"rule:cpu-pcie-lanes" -- "cpu"' in result.stdout


def test_unknown_rules_are_notices_that_say_what_is_missing() -> None:
    result = run("validate", str(UNMAPPED), "--format", "github")
    lines = result.stdout.splitlines()
    notices = [n for n in lines if n.startswith("::notice") and "title=verify before you buy::" not in n]
    slots = [n for n in notices if "title=gpu-slots::" in n]
    assert len(notices) == 3 and len(slots) == 1  # the three rules that need the slot map (its M.2 sockets are known)
    assert all(n.count("not checked") == 1 for n in notices)
    assert "pcie_slots of Gigabyte X399 AORUS Gaming 7" in slots[0]


@pytest.mark.slow
def test_a_reader_that_goes_away_is_not_an_internal_error() -> None:
    """`partpicker ... | head -1`: the closed pipe ends the command quietly with 141 (128 + SIGPIPE)."""
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-m", "partpicker", "catalog", "coverage", "--gaps"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PARTPICKER_NO_CACHE": "1"},
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before anything is written
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141, err
    assert "internal error" not in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_reader_that_goes_away_mid_report_is_141(unbuffered: str, tmp_path: Path) -> None:
    """The same when the reader goes away in the middle of a report larger than a pipe holds,
    also with an unbuffered stdout (``python -u``, ``PYTHONUNBUFFERED``), whose text layer would
    drop what a partial write leaves and exit 0 (session 6 QA: `catalog check FILE | head -1`)."""
    import subprocess
    import sys

    line = (DATA / "jsonl" / "lax.jsonl").read_text().splitlines()[1] + "\n"
    path = tmp_path / "dups.jsonl"
    path.write_text(line * 3000)  # 2,999 duplicate ids: a report of about 300 KB
    env = {**os.environ, "PARTPICKER_NO_CACHE": "1", "PYTHONUNBUFFERED": unbuffered}
    cmd = [sys.executable, "-m", "partpicker", "catalog", "check", str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10)  # the report started
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 141, err
    assert "internal error" not in err and "Traceback" not in err


def test_an_unchecked_warning_leaves_the_verdict_pass() -> None:
    """Only error rules make the verdict: a warning that fails or cannot be checked gives PASS
    with the warning banner (as `suggest` calls such a build proven), listed under 'Not
    checked'; --strict exits 1 on it."""
    path = str(DATA / "builds" / "valid" / "three-titan-rtx-p2p-unknown.yaml")
    doc = json.loads(run("validate", path, "-f", "json").stdout)
    unknown = [f for f in doc["findings"] if f["status"] == "unknown"]
    assert unknown and all(f["severity"] == "warning" for f in unknown)  # the fixture's premise
    assert all(f["status"] == "pass" for f in doc["findings"] if f["severity"] == "error")
    assert doc["verdict"] == "pass"
    text = run("validate", path)
    assert text.exit_code == 0
    assert (
        text.stdout.splitlines()[0] == "three-titan-rtx-p2p-unknown: PASS  Warning! These parts have potential issues."
    )
    assert "Not checked" in text.stdout and "gpu-p2p" in text.stdout
    assert run("validate", path, "--strict").exit_code == 1
