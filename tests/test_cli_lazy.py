"""The lazy command line (issue 14): `partpicker --help` and `--version` answered without typer,
each command's module imported only when it runs, and the lean help agreeing with what typer
registers."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main
from typer.testing import CliRunner

import partpicker
import partpicker.cli
from partpicker.cli import COMMANDS, OPTIONS, help_text, version_text
from partpicker.cli import app as root_app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def eager_commands() -> dict[str, tuple[str, str]]:
    """Every top-level command the cli modules register, the eager way: name -> (module, help)."""
    found: dict[str, tuple[str, str]] = {}
    for info in pkgutil.iter_modules(partpicker.cli.__path__):
        if info.name.startswith("_"):  # __main__ runs the command
            continue
        module = importlib.import_module(f"partpicker.cli.{info.name}")
        register = getattr(module, "register", None)
        if register is None:
            continue
        scratch = typer.Typer()
        register(scratch)
        for name, command in typer.main.get_group(scratch).commands.items():
            assert name not in found, f"{name} registered by {found[name][0]} and {info.name}"
            first_paragraph = (command.help or "").split("\n\n")[0]
            found[name] = (info.name, " ".join(first_paragraph.split()))
    return found


def listed(text: str, section: str) -> list[str]:
    """The names a help text lists under ``section:`` (first word of each entry line)."""
    lines = text.split(f"\n{section}:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    return [line.split()[0] for line in lines if line.startswith("  ") and not line.startswith("   ")]


def test_the_table_is_every_command_typer_registers() -> None:
    eager = eager_commands()
    assert set(COMMANDS) == set(eager)
    for name, entry in COMMANDS.items():
        assert (entry.module, entry.summary) == eager[name], name


def test_the_lean_help_lists_exactly_those_commands_and_options() -> None:
    text = help_text()
    assert listed(text, "Commands") == list(COMMANDS)
    assert set(listed(text, "Commands")) == set(eager_commands())
    for entry in COMMANDS.values():
        assert entry.summary in " ".join(text.split())
    group = typer.main.get_command(root_app)
    declared = {opt: param.help for param in group.params for opt in param.opts}  # type: ignore[attr-defined]
    assert listed(text, "Options") == list(OPTIONS)
    assert {**declared, "--help": OPTIONS["--help"]} == OPTIONS
    assert all(len(line) <= 80 for line in text.splitlines())


@pytest.mark.parametrize("args", [["--help"], ["--debug", "--help"]])
def test_typer_prints_the_same_top_level_help(args: list[str]) -> None:
    result = runner.invoke(root_app, args)
    assert result.exit_code == 0
    assert result.output == help_text()


def test_version() -> None:
    result = runner.invoke(root_app, ["--version"])
    assert result.exit_code == 0
    assert result.output == version_text() == f"partpicker {partpicker.__version__}\n"


def run(*args: str, cache: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    if cache is not None:
        env = {**env, "PARTPICKER_CACHE_DIR": str(cache), "PARTPICKER_NO_CACHE": ""}
    return subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "partpicker.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=120,
    )


def imported(stderr: str) -> set[str]:
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize(("args", "code"), [(["--help"], 0), (["--version"], 0), ([], 2)])
def test_the_lean_answers_import_no_typer(args: list[str], code: int) -> None:
    done = run(*args)
    assert done.returncode == code
    assert done.stdout == (version_text() if args == ["--version"] else help_text())
    modules = imported(done.stderr)
    assert "partpicker.cli" in modules
    assert not {m for m in modules if m.split(".")[0] in {"typer", "click", "pydantic", "yaml", "rich"}}


@pytest.mark.slow
def test_validate_imports_only_what_it_needs(tmp_path: Path) -> None:
    cold = run("validate", "examples/article-2018.yaml", cache=tmp_path)
    assert cold.returncode == 0, cold.stderr[-2000:]
    assert "pydantic" in {m.split(".")[0] for m in imported(cold.stderr)}  # it parsed the catalog
    done = run("validate", "examples/article-2018.yaml", cache=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == cold.stdout
    assert "Not checked by any rule" in done.stdout
    top = {m.split(".")[0] for m in imported(done.stderr)}
    assert "pydantic" not in top  # the cached catalog and rules as plain objects (partpicker.kinds)
    assert not top & {"typer", "click", "networkx", "jinja2", "matplotlib", "markdown_it", "rich"}  # cli/lean.py
    ours = {m for m in imported(done.stderr) if m.startswith("partpicker.")}
    unused = {"partpicker.suggest.search", "partpicker.cost.model", "partpicker.workload", "partpicker.html"}
    assert not ours & unused
    assert "partpicker.cli.suggest" not in ours and "partpicker.cli.cost" not in ours


def test_the_headroom_default_is_the_workload_one() -> None:
    from partpicker.cli import workplan
    from partpicker.workload import DEFAULT_HEADROOM

    assert workplan.DEFAULT_HEADROOM == DEFAULT_HEADROOM


def test_suggest_imports_its_solver_only_to_solve() -> None:
    """The search (networkx, the rules' checks) is imported once the catalog is being read:
    `suggest` on a large catalog imports it while the other processes read (issue 14)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import partpicker.cli.suggest"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    modules = imported(done.stderr)
    assert "partpicker.cli.suggest" in modules
    assert not modules & {
        "networkx",
        "partpicker.suggest.answer",
        "partpicker.suggest.search",
        "partpicker.validate.engine",
    }
