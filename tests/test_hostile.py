"""Hostile input (issue 11): each example of the issue, as a regression test.

Bad build files and catalog entries are fixtures (tests/data/builds/invalid/, with
EXPECTED.yaml, run by test_cli.py; tests/data/catalogs/invalid/, run by
test_catalog_check.py); this file holds what needs a special file, an option or a check of
the output: FIFOs, devices, links, folders, output paths, escaping, exit codes."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from partpicker import output, yamlio
from partpicker.catalog.checks import check_catalog
from partpicker.cli import app
from partpicker.errors import ExitCode, InputError, excerpt, printable

from .conftest import DATA, ROOT

runner = CliRunner()
ARTICLE = ROOT / "examples" / "article-2018.yaml"
CATALOGS = DATA / "catalogs"


def run(*args: str) -> Any:
    return runner.invoke(app, [str(a) for a in args])


def one_clear_error(result: Any, *phrases: str) -> None:
    assert result.exit_code == ExitCode.BAD_INPUT, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.stderr.count("error:") == 1, result.stderr
    assert len(result.stderr) < 2000
    for phrase in phrases:
        assert phrase in result.stderr, result.stderr


# --- the input boundary: special files ------------------------------------------------------


def test_dev_zero_is_refused_not_read() -> None:
    one_clear_error(run("validate", "/dev/zero"), "/dev/zero", "not a regular file")


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "build.yaml"
    os.mkfifo(fifo)
    one_clear_error(run("validate", fifo), "not a regular file")
    one_clear_error(run("validate", ARTICLE, "--catalog", fifo), "not a regular file")


def test_folder_named_like_a_yaml_file(tmp_path: Path) -> None:
    folder = tmp_path / "x.yaml"
    folder.mkdir()
    one_clear_error(run("validate", folder), "is a folder")
    shelf = tmp_path / "shelf"
    (shelf / "psu.yaml").mkdir(parents=True)
    result = run("catalog", "check", shelf)
    assert result.exit_code == ExitCode.FINDINGS
    assert "psu.yaml:0: [yaml-syntax] is a folder" in result.stdout


def test_oversized_file_is_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(yamlio.LIMITS, "file_bytes", 100)
    big = tmp_path / "big.yaml"
    big.write_text("name: " + "x" * 200 + "\n")
    one_clear_error(run("validate", big), "larger than 100 bytes")


def test_a_huge_value_is_quoted_short() -> None:
    # `(got {input!r})` once echoed a whole value; an excerpt is at most ~100 characters.
    text = excerpt("y" * 1_000_000)
    assert len(text) < 120 and "1,000,000 characters" in text
    assert len(str(InputError("z" * 1_000_000))) < 2000


# --- catalogs ------------------------------------------------------------------------------


def test_empty_catalog_folder_is_blamed_on_the_folder(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    one_clear_error(run("validate", ARTICLE, "--catalog", empty), f"{empty}: no catalog files")
    one_clear_error(run("catalog", "check", empty), f"{empty}: no catalog files")


def test_catalog_check_reports_every_unreadable_file_and_goes_on(tmp_path: Path) -> None:
    shelf = tmp_path / "shelf"
    shelf.mkdir()
    (shelf / "psu.yaml").write_text((CATALOGS / "valid").joinpath(next(os.walk(CATALOGS / "valid"))[2][0]).read_text())
    (shelf / "broken.yaml").symlink_to(tmp_path / "nowhere.yaml")
    (shelf / "loop.yaml").symlink_to(shelf / "loop.yaml")
    (shelf / "sub").mkdir()
    (shelf / "sub" / "up").symlink_to(shelf)  # a folder loop: not followed
    result = run("catalog", "check", shelf)
    assert result.exit_code == ExitCode.FINDINGS, result.output
    assert "broken.yaml:0: [yaml-syntax] broken symbolic link" in result.stdout
    assert "loop.yaml:0: [yaml-syntax] cannot read" in result.stdout
    assert "2 problem(s) in 1 parts from 3 file(s)" in result.stdout


def test_validate_refuses_a_catalog_that_catalog_check_rejects() -> None:
    broken = CATALOGS / "invalid" / "slot-map-beyond-form-factor.yaml"
    _, problems = check_catalog([broken])
    assert [p.check for p in problems if p.severity == "error"] == ["slot-map"]
    one_clear_error(run("validate", ARTICLE, "--catalog", broken), "broken catalog entry", "example-board")
    one_clear_error(run("suggest", "--catalog", broken), "--allow-broken-catalog")


def test_allow_broken_catalog_warns_and_goes_on() -> None:
    broken = CATALOGS / "invalid" / "slot-map-beyond-form-factor.yaml"
    result = run("validate", ARTICLE, "--catalog", ROOT / "catalogs", "--catalog", broken, "--allow-broken-catalog")
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.FINDINGS), result.output
    assert "warning: using a broken catalog" in result.stderr
    assert "article-2018" in result.stdout


def test_deep_jsonl_line_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    _, problems = check_catalog([deep])
    assert [(p.check, p.line) for p in problems] == [("yaml-syntax", 1)]
    assert len(problems[0].message) < 300
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\x00\xff\xfe{\n")
    _, problems = check_catalog([binary])
    assert [p.check for p in problems] == ["yaml-syntax"]


# --- options -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, phrase",
    [
        (["suggest", "--as-of", "0001-01-01"], "outside 1990-01-01"),
        (["validate", str(ARTICLE), "--as-of", "9999-12-31"], "outside 1990-01-01"),
        (["suggest", "--stale-days", "99999999999"], "stale-days"),
        (["suggest", "--budget", "inf"], "--budget"),
        (["suggest", "--budget", "nan"], "--budget"),
        (["suggest", "--min-vram", "nan"], "--min-vram"),
        (["validate", str(ARTICLE), "--as-of", "2018-02-30"], "is not a date"),
        (["cost", str(ARTICLE), "--kwh-price", "1e308"], "--kwh-price must be a number up to"),  # found by the fuzz run
    ],
    ids=[
        "as-of-year-1",
        "as-of-9999",
        "huge-stale-days",
        "budget-inf",
        "budget-nan",
        "vram-nan",
        "as-of-feb-30",
        "kwh-price-1e308",
    ],
)
def test_bad_option_values_exit_2(args: list[str], phrase: str) -> None:
    result = run(*args)
    assert result.exit_code == ExitCode.BAD_INPUT, result.output
    assert "Traceback" not in result.output
    assert phrase in result.stderr, result.stderr


# --- output --------------------------------------------------------------------------------


def test_output_keeps_an_existing_files_mode(tmp_path: Path) -> None:
    target = tmp_path / "build.yaml"
    target.write_text("old\n")
    target.chmod(0o640)
    output.write_text(target, "new\n", "--output")
    assert target.read_text() == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_output_new_file_is_0644_under_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        output.write_text(tmp_path / "new.yaml", "x\n", "--output")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.yaml").stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["new.yaml"]


def _bad_targets(tmp_path: Path) -> dict[str, tuple[str, str]]:
    (tmp_path / "real.yaml").write_text("keep me\n")
    (tmp_path / "link.yaml").symlink_to(tmp_path / "real.yaml")
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x")
    return {
        "symlink": (str(tmp_path / "link.yaml"), "is a symbolic link"),
        "device": ("/dev/null", "not a regular file"),
        "folder": (str(tmp_path / "folder"), "is a folder"),
        "missing-folder": (str(tmp_path / "nope" / "b.yaml"), "does not exist"),
        "file-as-parent": (str(tmp_path / "file" / "b.yaml"), "not a folder"),
        "empty": ("", "the path is empty"),
    }


@pytest.mark.parametrize("case", ["symlink", "device", "folder", "missing-folder", "file-as-parent", "empty"])
def test_output_refuses_what_it_must_not_replace(tmp_path: Path, case: str) -> None:
    path, phrase = _bad_targets(tmp_path)[case]
    with pytest.raises(InputError, match=phrase):
        output.write_text(path, "x\n", "--output")
    assert (tmp_path / "real.yaml").read_text() == "keep me\n"
    assert (tmp_path / "link.yaml").is_symlink()


def test_suggest_output_to_a_bad_path_is_one_error_and_no_answer(tmp_path: Path) -> None:
    result = run("suggest", "--output", tmp_path / "nope" / "b.yaml")
    one_clear_error(result, "does not exist")
    assert result.stdout == ""
    (tmp_path / "real.svg").write_text("keep me\n")
    (tmp_path / "link.svg").symlink_to(tmp_path / "real.svg")
    one_clear_error(run("cost", ARTICLE, "--plot", tmp_path / "link.svg"), "is a symbolic link")
    assert (tmp_path / "real.svg").read_text() == "keep me\n"


def test_full_disk_leaves_nothing(tmp_path: Path) -> None:
    def full(handle: Any) -> None:
        handle.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(InputError, match="No space left on device"):
        output.write_with(tmp_path / "b.yaml", full, "--output")
    assert list(tmp_path.iterdir()) == []


# --- escaping ------------------------------------------------------------------------------

INJECT = "x\n::error file=README.md,line=1::injected"


def _build(tmp_path: Path, name: str) -> Path:
    text = ARTICLE.read_text(encoding="utf-8").replace("name: article-2018", f"name: {json.dumps(name)}")
    path = tmp_path / "b.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_github_format_cannot_forge_an_annotation(tmp_path: Path) -> None:
    result = run("validate", _build(tmp_path, INJECT), "--format", "github")
    assert not any(line.startswith("::error file=README.md") for line in result.stdout.splitlines())
    assert "verdict pass: x%0A::error file=README.md,line=1::injected" in result.stdout


def test_ansi_escapes_are_shown_escaped(tmp_path: Path) -> None:
    result = run("validate", _build(tmp_path, "\x1b[2J\x1b[31mPASS"))
    assert result.exit_code in (ExitCode.CLEAN, ExitCode.FINDINGS), result.output
    assert "\x1b" not in result.stdout
    assert "\\x1b[2J\\x1b[31mPASS" in result.stdout
    for fmt in ("json", "sarif"):
        out = run("validate", _build(tmp_path, "\x1b[31m"), "--format", fmt).stdout
        assert "\x1b" not in out
        doc = json.loads(out)
        if fmt == "json":
            assert doc["build"] == "\x1b[31m"  # JSON keeps the exact string, escaped the JSON way


def test_lone_surrogates_are_an_error_or_shown_escaped(tmp_path: Path) -> None:
    # "\ud800" in a YAML string is not Unicode: libyaml refuses it, with its line; in an
    # option (undecodable bytes in argv arrive as lone surrogates) it is shown escaped.
    one_clear_error(run("validate", _build(tmp_path, "x\ud800")), "b.yaml:3:", "invalid Unicode")
    result = run("suggest", "--gpu", "RTX\ud800")
    one_clear_error(result, "--gpu RTX\\ud800")
    assert printable("PASS\ud800") == "PASS\\ud800"


def test_printable_keeps_newlines_only_when_asked() -> None:
    assert printable("a\nb\x07") == "a\\nb\\x07"
    assert printable("a\nb\x07", keep="\n") == "a\nb\\x07"


# --- exit codes ----------------------------------------------------------------------------


def test_internal_error_exits_70_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from partpicker.cli import validate as validate_cli

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(validate_cli, "evaluate", boom)
    result = run("validate", ARTICLE)
    assert result.exit_code == ExitCode.INTERNAL == 70
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1
    assert "internal error: RuntimeError: kaboom" in result.stderr and "report" in result.stderr
    debug = run("--debug", "validate", ARTICLE)
    assert debug.exit_code == 70 and "Traceback" in debug.stderr

    def key(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("html")

    monkeypatch.setattr(validate_cli, "evaluate", key)
    assert "internal error: KeyError: 'html'; " in run("validate", ARTICLE).stderr  # its quotes kept whole


def test_near_duplicate_groups_find_what_every_pair_finds(tmp_path: Path) -> None:
    # The check compares names only within groups of equal model numbers (5,000 parts once took
    # catalog check past 20 s); a brute force over every pair must find the same.
    from rapidfuzz import fuzz

    from partpicker.catalog.checks import near_duplicate as nd

    names = [
        f"{brand} {model} {n}{suffix}"
        for brand in ("Example", "Exampel", "Ex-ample")
        for model in ("PSU", "P.S.U")
        for n in ("1600", "1300", "")
        for suffix in ("", " G2", "W")
    ]
    parts = "".join(
        f"  - {{id: example-psu-{i}, name: {json.dumps(name)}, brand: Example, watts: 1600, sources: [x]}}\n"
        for i, name in enumerate(names)
    )
    path = tmp_path / "psu.yaml"
    path.write_text("category: psu\nparts:\n" + parts)
    catalog, problems = check_catalog([path])
    found = {
        (p.part_id, re.findall(r"\((example-psu-\d+)\)", p.message)[-1])
        for p in problems
        if p.check == "near-duplicate"
    }
    brute = set()
    for parts_of in catalog.by_category.values():
        for i, a in enumerate(parts_of):
            for b in parts_of[i + 1 :]:
                na, nb, ta, tb = nd._norm(a.name), nd._norm(b.name), nd._tokens(a.name), nd._tokens(b.name)
                same = nd._numbers(a.name) == nd._numbers(b.name) and not nd._other_model(na, nb, ta, tb)
                if same and fuzz.ratio(na, nb) >= nd.THRESHOLD:
                    brute.add((b.id, a.id))
    assert len(brute) > 5
    assert found == brute
