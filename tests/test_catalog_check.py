"""`partpicker catalog check`: one small fixture per defect class, each caught by the right
check with the right line; a clean fixture and the bundled catalog pass."""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from partpicker.catalog.checks import all_checks, check_catalog
from partpicker.cli import app

from .conftest import DATA

runner = CliRunner()
INVALID = DATA / "catalogs" / "invalid"
EXPECTED = yaml.safe_load((INVALID / "EXPECTED.yaml").read_text())


def test_every_fixture_has_an_expectation() -> None:
    assert {p.name for p in INVALID.glob("*.yaml")} - {"EXPECTED.yaml"} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED), ids=sorted(EXPECTED))
def test_defect_is_caught_by_its_check_on_its_line(name: str) -> None:
    check_id, line = EXPECTED[name]
    assert check_id in all_checks()
    _, found = check_catalog([INVALID / name])
    problems = [p for p in found if p.severity == "error"]  # the fixtures' parts have no evidence default
    assert [(p.check, p.line) for p in problems] == [(check_id, line)], problems
    result = runner.invoke(app, ["catalog", "check", str(INVALID / name), "--format", "github"])
    assert result.exit_code == 1
    assert f"::error file={INVALID / name},line={line},title={check_id}::" in result.stdout


def test_clean_fixture_passes() -> None:
    result = runner.invoke(app, ["catalog", "check", str(DATA / "catalogs" / "valid")])
    assert result.exit_code == 0, result.output
    assert "no problems in 1 parts from 1 file(s)" in result.stdout


def test_bundled_catalog_is_clean() -> None:
    catalog, problems = check_catalog()
    assert [p for p in problems if p.severity == "error"] == []
    assert {p.check for p in problems} <= {"evidence-default", "evidence-unknown"}  # warnings only
    assert len(catalog) >= 280


def test_json_format_and_unreadable_input() -> None:
    result = runner.invoke(app, ["catalog", "check", str(INVALID / "slug.yaml"), "--format", "json"])
    doc = json.loads(result.stdout)
    assert doc["ok"] is False and doc["problems"][0]["check"] == "slug"
    missing = runner.invoke(app, ["catalog", "check", "no/such/catalog"])
    assert missing.exit_code == 2
    assert "catalog path not found" in missing.stderr


def test_broken_catalog_stops_validate_with_exit_2(tmp_path) -> None:
    shelf = tmp_path / "catalog"
    shelf.mkdir()
    (shelf / "gpu.yaml").write_text((INVALID / "bounds-gpu-length.yaml").read_text())
    build = tmp_path / "build.yaml"
    build.write_text("parts:\n  gpu: Example GPU One\n")
    result = runner.invoke(app, ["validate", str(build), "--catalog", str(shelf)])
    assert result.exit_code == 2
    assert f"{shelf / 'gpu.yaml'}:7: broken catalog entry" in result.stderr
    assert "partpicker catalog check" in result.stderr


def test_evidence_warnings_name_the_line_and_pass() -> None:
    folder = DATA / "catalogs" / "warnings"
    _, problems = check_catalog([folder])
    found = [(p.check, p.line, p.severity, p.part_id) for p in problems]
    assert found == [
        ("evidence-default", 4, "warning", "example-cpu-no-default"),
        ("evidence-unknown", 17, "warning", "example-cpu-evidence-for-nothing"),
    ]
    result = runner.invoke(app, ["catalog", "check", str(folder)])
    assert result.exit_code == 0
    assert "no problems, 2 warning(s) in 2 parts" in result.stdout
    doc = json.loads(runner.invoke(app, ["catalog", "check", str(folder), "-f", "json"]).stdout)
    assert doc["ok"] is True and {p["severity"] for p in doc["problems"]} == {"warning"}
    gh = runner.invoke(app, ["catalog", "check", str(folder), "-f", "github"]).stdout
    assert gh.count("::warning file=") == 2
