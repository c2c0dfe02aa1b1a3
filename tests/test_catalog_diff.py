"""`partpicker catalog diff BASE HEAD`: parts added, removed, changed; impact on examples and suggest."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from partpicker.cli import app
from partpicker.review import diff

from .conftest import DATA, ROOT

runner = CliRunner()
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))


def _copy_catalog(dest: Path) -> Path:
    shutil.copytree(ROOT / "catalogs", dest)
    return dest


def test_added_removed_changed_and_impact(tmp_path: Path) -> None:
    base = _copy_catalog(tmp_path / "base")
    head = _copy_catalog(tmp_path / "head")
    psu = head / "psu.yaml"
    text = psu.read_text()
    # Change a spec the article build relies on: the EVGA 1600 P2 becomes a 1000 W unit.
    start = text.index("id: evga-supernova-1600-p2")
    at = text.index("    watts: 1600", start)
    text = text[:at] + "    watts: 1000" + text[at + len("    watts: 1600") :]
    at = text.index("low_line_watts: 1600", start)  # its output on 115 V too (a check keeps it <= watts)
    psu.write_text(text[:at] + "low_line_watts: 1000" + text[at + len("low_line_watts: 1600") :])
    ssd = head / "ssd.yaml"
    ssd.write_text(
        ssd.read_text() + "  - {id: example-new-drive, name: Example New Drive, brand: Example, "
        "sources: [test], interface: nvme, form_factor: M.2-2280, capacity_gb: 2000}\n"
    )
    result = diff(str(base), str(head), repo=ROOT, examples=EXAMPLES, suggest=False)
    assert ("ssd", "example-new-drive", "Example New Drive") in result.added
    assert result.removed == []
    changed = {(c.id, f): (a, b) for c in result.changed for f, a, b in c.fields}
    assert changed == {
        ("evga-supernova-1600-p2", "watts"): (1600, 1000),
        ("evga-supernova-1600-p2", "low_line_watts"): (1600, 1000),
    }
    flips = {i.build: (i.before, i.after) for i in result.impact}
    assert flips["article-2018.yaml"] == ("pass", "fail")


@pytest.mark.slow
def test_markdown_output_and_git_revisions(tmp_path: Path) -> None:
    if subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True).returncode != 0:
        pytest.skip("not a git checkout")
    args = ["catalog", "diff", "HEAD", str(ROOT), "--repo", str(ROOT), "--format", "markdown", "--no-suggest"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("### Catalog diff `HEAD`")
    assert "#### Impact on example builds" in result.stdout


def test_unknown_revision_is_exit_2() -> None:
    result = runner.invoke(app, ["catalog", "diff", "no-such-revision-xyz", str(ROOT), "--repo", str(ROOT)])
    assert result.exit_code == 2
    assert "neither a folder nor a git revision" in result.stderr


@pytest.mark.slow
def test_impact_on_standard_suggest_requests(tmp_path: Path) -> None:
    base = _copy_catalog(tmp_path / "base")
    head = _copy_catalog(tmp_path / "head")
    (head / "gpu.yaml").unlink()  # no GPU at all: every standard request loses its answer
    result = diff(str(base), str(head), repo=ROOT, examples=[], suggest=True)
    changes = {label: (a, b) for label, a, b in result.suggest}
    assert changes["suggest --gpus 4 --allow-unknown"][1] == "no build"
    assert changes["suggest --gpus 4 --allow-unknown"][0].startswith("$")


def test_a_broken_head_is_exit_2_naming_the_problems(tmp_path: Path) -> None:
    """A new part with errors must not read as "0 added", exit 0 (issue 15)."""
    base = _copy_catalog(tmp_path / "base")
    head = _copy_catalog(tmp_path / "head")
    shutil.copy(DATA / "catalogs" / "diff" / "gpu-new-part-three-errors.yaml", head / "gpu-new.yaml")
    result = runner.invoke(app, ["catalog", "diff", str(base), str(head), "--no-suggest"])
    assert result.exit_code == 2, result.output
    assert "HEAD does not load cleanly" in result.stderr
    assert "0 added" not in result.stdout
    problems = [line for line in result.stderr.splitlines() if line.strip().startswith("HEAD ")]
    assert problems and all(re.search(r"gpu-new\.yaml:\d+: ", line) for line in problems), result.stderr


def test_a_tab_in_base_is_exit_2_not_parts_removed(tmp_path: Path) -> None:
    """One tab in ram.yaml used to read as "0 added, 25 removed", exit 0."""
    base = _copy_catalog(tmp_path / "base")
    head = _copy_catalog(tmp_path / "head")
    ram = base / "ram.yaml"
    lines = ram.read_text().splitlines(keepends=True)
    lines[4] = "\t" + lines[4].lstrip(" ")
    ram.write_text("".join(lines))
    result = runner.invoke(app, ["catalog", "diff", str(base), str(head), "--no-suggest"])
    assert result.exit_code == 2, result.output
    assert "BASE does not load cleanly" in result.stderr
    assert re.search(r"BASE .*ram\.yaml:\d+: ", result.stderr), result.stderr
    assert "removed" not in result.stdout
    assert "Traceback" not in result.output


def test_the_example_builds_ship_with_the_package(tmp_path: Path) -> None:
    """`catalog diff` judges the example builds: the wheel carries examples/ as
    partpicker/_data/examples (pyproject.toml), and paths.examples_dir() finds them there or in
    a source checkout."""
    import tomllib

    from partpicker import paths

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert shipped["examples"] == "partpicker/_data/examples"
    found = sorted(p.name for p in paths.examples_dir().glob("*.yaml"))
    assert found == sorted(p.name for p in (ROOT / "examples").glob("*.yaml")) and len(found) >= 10


def test_a_head_that_fails_a_check_is_exit_2(tmp_path: Path) -> None:
    """A side that `catalog check` rejects (here a PSU giving more on 115 V than its rating)
    does not load cleanly, as `validate --catalog` refuses it: exit 2 naming the problem."""
    base = _copy_catalog(tmp_path / "base")
    head = _copy_catalog(tmp_path / "head")
    psu = head / "psu.yaml"
    text = psu.read_text()
    at = text.index("    watts: 1600", text.index("id: evga-supernova-1600-p2"))
    psu.write_text(text[:at] + "    watts: 1300" + text[at + len("    watts: 1600") :])
    result = CliRunner().invoke(app, ["catalog", "diff", str(base), str(head)])
    assert result.exit_code == 2
    assert "HEAD does not load cleanly" in result.stderr and "low_line_watts 1600 > watts 1300" in result.stderr
