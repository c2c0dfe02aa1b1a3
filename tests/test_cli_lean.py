"""`partpicker validate` without typer (partpicker/cli/lean.py, issue 14): on every command line
it reads, it answers exactly what the typer command answers (stdout, stderr, exit code, the
file --output writes); every other command line it leaves to typer."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from partpicker.cli import app, lean
from partpicker.cli import validate as validate_cli

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
EXAMPLE = str(ROOT / "examples" / "article-2018.yaml")
FAILING = str(ROOT / "examples" / "fail-1200w-psu.yaml")
runner = CliRunner()

READ = [
    [EXAMPLE],
    [FAILING],
    [FAILING, "--strict"],
    ["--format", "json", EXAMPLE],
    [EXAMPLE, "--format=github"],
    ["-f", "sarif", FAILING],
    ["-f", "pcpartpicker", EXAMPLE, "-f", "text"],  # the last one given wins
    ["--strict", EXAMPLE],
    [EXAMPLE, "--as-of", "2018-09-01"],
    [EXAMPLE, "--as-of=2019-01-01", "--stale-days", "30"],
    ["--as-of", "not-a-date", EXAMPLE],
    ["--as-of", "1900-01-01", EXAMPLE],
    ["--stale-days", "36500", EXAMPLE],
    ["--verified-only", str(DATA / "builds" / "valid" / "recalled-facts.yaml")],
    ["--power-limit", "250", EXAMPLE],
    [str(DATA / "builds" / "valid" / "power-limited-2x4090.yaml"), "--power-limit=2000"],
    ["--parts", str(DATA / "parts" / "cheap-psu.yaml"), EXAMPLE],
    ["--parts", str(DATA / "parts" / "broken.yaml"), EXAMPLE],
    ["--catalog", str(ROOT / "catalogs"), EXAMPLE],
    ["--catalog", str(DATA / "catalogs" / "invalid" / "duplicate-id.yaml"), EXAMPLE],
    ["--catalog", str(DATA / "catalogs" / "invalid" / "bounds-psu-watts.yaml"), "--allow-broken-catalog", EXAMPLE],
    [str(ROOT / "no-such-build.yaml")],
    [str(DATA / "builds" / "invalid" / "duplicate-key.yaml")],
    [str(DATA / "builds" / "invalid" / "ambiguous-part.yaml")],
    [str(DATA / "builds" / "invalid" / "bad-yaml.yaml")],
    [str(DATA / "builds" / "invalid" / "empty.yaml")],
]
"""Command lines after `validate` that the lean path reads, good and bad."""

DECLINED = [
    [],
    ["--help"],
    [EXAMPLE, "--help"],
    [EXAMPLE, EXAMPLE],
    ["--", EXAMPLE],
    ["-", EXAMPLE],
    [""],
    ["--circuit", "us-15a", EXAMPLE],
    ["--no-strict", EXAMPLE],
    ["--strict=1", EXAMPLE],
    ["-fjson", EXAMPLE],
    ["-f=json", EXAMPLE],
    ["--format", "yaml", EXAMPLE],
    ["--format", "JSON", EXAMPLE],
    ["--format", EXAMPLE],
    ["--format"],
    ["--format="],
    [EXAMPLE, "--stale-days", "0"],
    [EXAMPLE, "--stale-days", "36501"],
    [EXAMPLE, "--stale-days", "-5"],
    [EXAMPLE, "--stale-days", "1e3"],
    [EXAMPLE, "--stale-days", "\u0663"],  # an Arabic-Indic three: a digit to str.isdigit
    [EXAMPLE, "--power-limit", "abc"],
    [EXAMPLE, "--power-limit", "2001"],
    [EXAMPLE, "--output", ""],
    [EXAMPLE, "--catalog", "--strict"],
    [EXAMPLE, "--formats", "json"],
    [EXAMPLE, "--unknown"],
]
"""Command lines after `validate` that typer reads (and mostly refuses, with its own message)."""


def by_typer(args: list[str]) -> tuple[Any, str, str]:
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def by_lean(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[Any, str, str]:
    try:
        code = lean.run_validate(args)
    except SystemExit as exc:
        code = exc.code
    assert code is not None, "declined"
    out = capsys.readouterr()
    return code, out.out, out.err


def _id(args: list[str]) -> str:
    return " ".join(Path(a).name if os.sep in a else a for a in args) or "(none)"


@pytest.mark.parametrize("args", READ, ids=[_id(a) for a in READ])
def test_the_lean_path_answers_as_typer_does(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    want = by_typer(["validate", *args])
    got = by_lean(["validate", *args], capsys)
    assert got == want
    assert lean.run_validate(["validate", *args, "--help"]) is None


def test_root_flags_and_output_files_alike(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, runner_of in (("typer", lambda a: by_typer(a)), ("lean", lambda a: by_lean(a, capsys))):
        out = tmp_path / f"{name}.json"
        code, stdout, stderr = runner_of(["--no-cache", "--debug", "validate", FAILING, "-o", str(out), "-f", "json"])
        assert (code, stdout, stderr) == (1, "", "")
        assert '"rule": "psu-wattage"' in out.read_text()
    assert (tmp_path / "typer.json").read_text() == (tmp_path / "lean.json").read_text()
    blocked = tmp_path / "a-folder"
    blocked.mkdir()
    args = ["validate", EXAMPLE, "--output", str(blocked)]
    assert by_lean(args, capsys) == by_typer(args)
    assert by_typer(args)[0] == 2


@pytest.mark.parametrize("args", DECLINED, ids=[_id(a) for a in DECLINED])
def test_everything_else_is_left_to_typer(args: list[str]) -> None:
    assert lean.run_validate(["validate", *args]) is None


@pytest.mark.parametrize(
    "args", [["--version", "validate", EXAMPLE], ["--debugs", "validate", EXAMPLE], ["suggest", "--gpus", "4"]]
)
def test_other_commands_and_root_options_are_left_to_typer(args: list[str]) -> None:
    assert lean.run_validate(args) is None


def test_shell_completion_is_left_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_PARTPICKER_COMPLETE", "bash_complete")
    assert lean.run_validate(["validate", EXAMPLE]) is None


@pytest.mark.parametrize("debug", [False, True])
def test_an_internal_error_is_exit_70_alike(
    debug: bool, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("kaboom")

    monkeypatch.setattr(validate_cli, "evaluate", boom)
    args = [*(["--debug"] if debug else []), "validate", EXAMPLE]
    want, got = by_typer(args), by_lean(args, capsys)
    assert got[0] == want[0] == 70
    assert got[1] == want[1] == ""
    if debug:  # the traceback's frames differ (typer's), its last lines do not
        assert "Traceback" in got[2] and got[2].splitlines()[-3:] == want[2].splitlines()[-3:]
    else:
        assert got[2] == want[2]


def test_the_options_read_are_typers() -> None:
    """Every option the lean path reads is one the command declares, with typer's bounds; the
    ones it does not read are the ones it leaves to typer."""
    command = typer.main.get_command(app).get_command(None, "validate")  # type: ignore[attr-defined]
    declared = {opt: param for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    read = {**lean.FLAGS, **lean.VALUED}
    for opt, name in read.items():
        assert declared[opt].name == name, opt
        assert declared[opt].is_flag == (opt in lean.FLAGS), opt
        assert declared[opt].multiple == (name in ("catalog", "parts")), opt
    for name, (low, high) in lean.RANGES.items():
        [param] = [p for p in command.params if p.name == name]
        assert (param.min, param.max) == (low, high)
    assert set(declared) - set(read) == {"--circuit", "--no-strict"} | {o for o in declared if not o.startswith("-")}
    assert {p.name for p in command.params} - {*read.values(), "build_file", "circuit"} == set()
    [fmt] = [p for p in command.params if p.name == "format"]
    assert sorted(m.value for m in fmt.type_descriptor.annotation) == sorted(validate_cli.REPORTER_BY_NAME)


def test_the_lean_date_range_is_the_build_files() -> None:
    from partpicker.build.schema import BuildFile
    from partpicker.cli import plain

    assert (plain.FIRST_DAY, plain.LAST_DAY) == BuildFile.AS_OF_RANGE
