"""Issue 11, example by example: each bullet of "Where it stands" is a named test here.

The order and the names follow the issue text. Where a test elsewhere holds the detail (the
EXPECTED.yaml of tests/data/builds/invalid/ and tests/data/catalogs/invalid/, test_hostile.py),
this one still checks the example itself through the command a user runs, so each can fail on
its own. Fixtures are files: tests/data/builds/invalid/, tests/data/catalogs/invalid/,
tests/data/hostile/; only FIFOs, links, empty folders and multi-megabyte inputs are made at run time.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from partpicker.cli import app
from partpicker.errors import ExitCode

from .conftest import DATA, ROOT

runner = CliRunner()
ARTICLE = ROOT / "examples" / "article-2018.yaml"
BUILDS = DATA / "builds" / "invalid"
CATALOGS = DATA / "catalogs" / "invalid"
HOSTILE = DATA / "hostile"
REPR = re.compile(r"<[a-zA-Z_.]+ object at 0x|PosixPath\(|LineDict|LineList|datetime\.date\(|\bNone\b|Traceback")


def run(*args: Any) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def bad_input(result: Any, *phrases: str) -> str:
    """One clear error: exit 2 (not 1, "this build fails"), one line of `error:`, short, no
    traceback or Python repr; returns stderr."""
    assert result.exit_code == ExitCode.BAD_INPUT, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    err = result.stderr
    assert err.count("error:") == 1, err
    assert len(err) < 2000, len(err)
    assert not REPR.search(err), err
    for phrase in phrases:
        assert phrase in err, err
    return err


def bad_option(result: Any, *phrases: str) -> None:
    """A bad option value: exit 2 with the usage error, no traceback, no JSON on stdout."""
    assert result.exit_code == ExitCode.BAD_INPUT, (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == "" and len(result.stderr) < 2000
    assert "Invalid value" in result.stderr or "error:" in result.stderr, result.stderr
    for phrase in phrases:
        assert phrase in result.stderr, result.stderr


def bad_build(name: str, line: int | None, phrase: str) -> None:
    path = BUILDS / name
    where = f"{path}:{line}:" if line else f"{path}:"
    bad_input(run("validate", path), where, phrase)


def caught(name: str, check: str, line: int) -> None:
    """`catalog check` finds the defect on its line, and validate refuses the catalog."""
    path = CATALOGS / name
    result = run("catalog", "check", path)
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert f"{path}:{line}: [{check}]" in result.stdout, result.stdout
    bad_input(run("validate", ARTICLE, "--catalog", ROOT / "catalogs", "--catalog", path), str(path))


# --- The YAML layer crashes ... each exits 1 --------------------------------------------------


def test_control_bytes() -> None:
    bad_build("control-byte.yaml", 1, "control or special character")
    bad_build("control-byte-after-accents.yaml", 4, "control or special character")


def test_impossible_date_in_a_build() -> None:
    bad_build("impossible-date.yaml", 2, "not a real date")


def test_impossible_date_in_a_catalog_does_not_crash_catalog_check() -> None:
    caught("impossible-date.yaml", "yaml-syntax", 9)


@pytest.mark.parametrize(
    "name, line, phrase",
    [
        ("bad-int-tag.yaml", 2, "is not a valid int"),
        ("bad-float-tag.yaml", 3, "is not a valid float"),
        ("bad-timestamp-tag.yaml", 2, "is not a valid timestamp"),
        ("bad-bool-tag.yaml", 3, "is not a valid bool"),
    ],
    ids=["int", "float", "timestamp", "bool"],
)
def test_bad_tags(name: str, line: int, phrase: str) -> None:
    bad_build(name, line, phrase)


@pytest.mark.parametrize(
    "name, phrase", [("seq-tag-on-scalar.yaml", "is not a list"), ("map-tag-on-scalar.yaml", "is not a mapping")]
)
def test_seq_or_map_tag_on_a_scalar(name: str, phrase: str) -> None:
    bad_build(name, 2, phrase)


def test_deep_nesting_in_yaml() -> None:
    bad_build("deep-nesting.yaml", 3, "nested deeper than 64 levels")


def test_deep_nesting_in_a_jsonl_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n")  # json.loads once raised RecursionError
    result = run("catalog", "check", deep)
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert f"{deep}:1: [yaml-syntax] malformed JSON: nested too deeply" in result.stdout
    bad_input(run("validate", ARTICLE, "--catalog", deep), str(deep))


# --- Tiny inputs exhaust memory and time ---------------------------------------------------


@pytest.mark.parametrize("name", ["billion-laughs-9.yaml", "billion-laughs.yaml"], ids=["9-levels", "7-levels"])
def test_billion_laughs(name: str) -> None:
    # 9 levels once ran over 60 s and 2 GB; 7 levels printed a 351 MB "message".
    bad_build(name, None, "aliases expand to more than 100,000 values")


def test_validate_dev_zero() -> None:
    bad_input(run("validate", "/dev/zero"), "/dev/zero", "not a regular file")


def test_a_fifo_does_not_block(tmp_path: Path) -> None:
    fifo = tmp_path / "build.yaml"
    os.mkfifo(fifo)
    bad_input(run("validate", fifo), "not a regular file")


def test_a_1_mb_part_name_is_not_echoed_back(tmp_path: Path) -> None:
    build = tmp_path / "b.yaml"
    build.write_text(f"name: big\nparts:\n  cpu: {'T' * 1_000_000}\n")
    err = bad_input(run("validate", build), f"{build}:3:", "longer than 20,000 characters")
    assert "T" * 200 not in err


# --- Rule overrides are unchecked ------------------------------------------------------------


@pytest.mark.parametrize("name", ["override-margin-inf.yaml", "override-margin-nan.yaml"], ids=["inf", "nan"])
def test_margin_inf_or_nan(name: str) -> None:
    bad_build(name, 3, "psu-wattage.margin must be a finite number")


def test_severity_list() -> None:
    bad_build("override-severity-list.yaml", 3, "gpu-cooling.severity must be error, warning or info")


def test_margin_negative_is_not_ok() -> None:
    # once called 2,100 W "ok" on a 1,600 W PSU
    bad_build("override-margin-negative.yaml", 3, "psu-wattage.margin must be at least 1, got -5")


def test_min_watts_true_is_not_1_watt() -> None:
    bad_build("override-min-watts-bool.yaml", 3, "psu-wattage.min_watts must be a whole number, got True")


# --- Options ---------------------------------------------------------------------------------


def test_as_of_year_one() -> None:
    bad_option(run("suggest", "--as-of", "0001-01-01"), "outside 1990-01-01")


def test_huge_stale_days() -> None:
    bad_option(run("suggest", "--stale-days", "99999999999"), "--stale-days", "36500")


def test_budget_inf_is_not_json_infinity() -> None:
    bad_option(run("suggest", "--budget", "inf", "--format", "json"), "--budget", "finite")


def test_format_json_with_cost_is_one_object() -> None:
    result = run("suggest", "--format", "json", "--cost")
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.UNPROVEN), result.output
    doc = json.loads(result.stdout)  # no text after the JSON
    assert isinstance(doc, dict) and "cost" in doc, sorted(doc)


def test_catalog_binary_file() -> None:
    bad_input(run("validate", ARTICLE, "--catalog", HOSTILE / "binary.yaml"), "binary.yaml")
    bad_input(run("suggest", "--catalog", HOSTILE / "binary.yaml"), "binary.yaml")


def test_catalog_deep_jsonl(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("{" + '"a":[' * 50_000 + "]" * 50_000 + "}\n")
    bad_input(run("suggest", "--catalog", deep), str(deep))


def test_catalog_dev_zero() -> None:
    bad_input(run("suggest", "--catalog", "/dev/zero"), "/dev/zero", "not a regular file")


# --- Catalogs ----------------------------------------------------------------------------------


def test_usd_inf_is_caught() -> None:
    caught("price-inf.yaml", "bounds", 9)


def test_watts_string_is_not_coerced() -> None:
    caught("watts-string.yaml", "schema", 6)


def test_hpwr_12v_true_is_not_coerced() -> None:
    caught("hpwr-bool.yaml", "schema", 7)


def test_a_folder_named_x_yaml(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").mkdir()
    result = run("catalog", "check", tmp_path)
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert f"{tmp_path / 'x.yaml'}:0: [yaml-syntax] is a folder" in result.stdout
    bad_input(run("validate", ARTICLE, "--catalog", tmp_path / "x.yaml"), "is a folder")


def test_one_broken_symlink_does_not_abort_catalog_check(tmp_path: Path) -> None:
    (tmp_path / "psu.yaml").write_bytes((CATALOGS / "watts-string.yaml").read_bytes())
    (tmp_path / "gone.yaml").symlink_to(tmp_path / "nowhere.yaml")
    result = run("catalog", "check", tmp_path)
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert "gone.yaml:0: [yaml-syntax] broken symbolic link" in result.stdout
    assert "psu.yaml:6: [schema]" in result.stdout  # and the other file was still checked


def test_slot_position_11_on_a_7_slot_board_gets_no_gpu() -> None:
    caught("slot-map-position-11.yaml", "slot-map", 11)
    broken = CATALOGS / "slot-map-position-11.yaml"
    err = bad_input(run("suggest", "--catalog", ROOT / "catalogs", "--catalog", broken), "--allow-broken-catalog")
    assert "position 11" in err


# --- Output ----------------------------------------------------------------------------------


def _refused(args: list[Any], *phrases: str) -> None:
    result = run(*args)
    bad_input(result, *phrases)
    assert result.stdout == "", "the answer was printed before the error"


def test_output_missing_folder(tmp_path: Path) -> None:
    _refused(["suggest", "--output", tmp_path / "nope" / "b.yaml"], "does not exist")


def test_output_read_only_folder(tmp_path: Path) -> None:
    if os.geteuid() == 0:  # root writes into a 0555 folder; sysfs refuses even root
        _refused(["suggest", "--output", "/sys/partpicker-test.yaml"], "Permission denied")
        return
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    _refused(["suggest", "--output", folder / "b.yaml"], "not writable")


def test_output_folder_as_path(tmp_path: Path) -> None:
    _refused(["suggest", "--output", tmp_path], "is a folder")


def test_output_file_as_parent(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    _refused(["suggest", "--output", tmp_path / "file" / "b.yaml"], "not a folder")


def test_output_empty_path() -> None:
    _refused(["suggest", "--output", ""], "the path is empty")


def test_output_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.fuzz.corruptions import full_disk

    target = tmp_path / "b.yaml"
    target.write_text("old\n")
    with full_disk():
        _refused(["suggest", "--output", target], "No space left on device")
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["b.yaml"]


def test_output_keeps_an_existing_0644_file_0644(tmp_path: Path) -> None:
    target = tmp_path / "b.yaml"
    target.write_text("old\n")
    target.chmod(0o644)  # once became 0600
    result = run("suggest", "--output", target)
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.UNPROVEN), result.output
    assert target.read_text() != "old\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_output_new_file_is_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        result = run("suggest", "--output", tmp_path / "b.yaml")
    finally:
        os.umask(old)
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.UNPROVEN), result.output
    assert stat.S_IMODE((tmp_path / "b.yaml").stat().st_mode) == 0o644


def _device(tmp_path: Path) -> Path:
    """A character device named like an output file (/dev/null's numbers; root only), else /dev/null."""
    path = tmp_path / "dev.svg"
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except OSError:
        return Path("/dev/null")
    return path


@pytest.mark.parametrize("command", ["suggest", "cost"])
def test_output_symlink_and_device_refused(tmp_path: Path, command: str) -> None:
    (tmp_path / "real.svg").write_text("keep\n")
    (tmp_path / "link.svg").symlink_to(tmp_path / "real.svg")
    option = ["suggest", "--output"] if command == "suggest" else ["cost", ARTICLE, "--plot"]
    _refused([*option, tmp_path / "link.svg"], "is a symbolic link")
    assert (tmp_path / "link.svg").is_symlink() and (tmp_path / "real.svg").read_text() == "keep\n"
    device = _device(tmp_path)
    _refused([*option, device], "not a regular file")
    assert stat.S_ISCHR(os.stat(device).st_mode)


# --- Injection -------------------------------------------------------------------------------


def test_github_annotation_injection() -> None:
    result = run("validate", HOSTILE / "github-injection.yaml", "--format", "github")
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.FINDINGS), result.output
    lines = result.stdout.splitlines()
    assert not any(line.startswith("::error file=README.md") for line in lines), lines
    assert "x%0A::error file=README.md,line=1::injected" in result.stdout


def test_ansi_escapes_do_not_reach_the_terminal() -> None:
    result = run("validate", HOSTILE / "ansi-name.yaml")
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.FINDINGS), result.output
    assert "\x1b" not in result.output
    assert "\\x1b[2J\\x1b[31mPASS" in result.stdout


def test_lone_surrogate_does_not_crash_the_text_format() -> None:
    bad_input(run("validate", HOSTILE / "surrogate-name.yaml"), "surrogate-name.yaml:3:", "invalid Unicode")
    bad_input(run("suggest", "--gpu", "RTX\ud800"), "RTX\\ud800")


# --- Empty catalog folder, paths, reprs --------------------------------------------------------


def test_empty_catalog_folder_is_not_blamed_on_the_build_file(tmp_path: Path) -> None:
    err = bad_input(run("validate", ARTICLE, "--catalog", tmp_path), f"{tmp_path}: no catalog files")
    assert str(ARTICLE) not in err


def test_catalog_check_on_an_empty_folder_names_the_path(tmp_path: Path) -> None:
    bad_input(run("catalog", "check", tmp_path), f"{tmp_path}: no catalog files")


def test_no_python_reprs_in_messages() -> None:
    expected = sorted(p for p in BUILDS.glob("*.yaml") if p.name != "EXPECTED.yaml")
    assert len(expected) > 30
    for path in expected:
        result = run("validate", path)
        assert not REPR.search(result.stderr), (path.name, result.stderr)


# --- Exit codes (What to build) ----------------------------------------------------------------


def test_an_internal_error_exits_70_not_1(monkeypatch: pytest.MonkeyPatch) -> None:
    from partpicker.cli import validate as validate_cli

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(validate_cli, "evaluate", boom)
    result = run("validate", ARTICLE)
    assert result.exit_code == ExitCode.INTERNAL
    assert "Traceback" not in result.stderr and "report" in result.stderr
