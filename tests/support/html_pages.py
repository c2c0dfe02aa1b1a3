"""The HTML pages the CLI writes for the example builds, and ways to read them back."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from partpicker.cli import app

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLES = ROOT / "examples"
ARTICLE = EXAMPLES / "article-2018.yaml"
FOUR_3090 = EXAMPLES / "fail-4x-rtx-3090-fe-x399.yaml"
ARTICLE_WORLD = ROOT / "tests" / "data" / "suggest" / "001_article_world" / "catalog"
SUGGEST_ARGS = ["--as-of", "2018-09-01", "--catalog", str(ARTICLE_WORLD), "--top", "3"]
COST_ARGS = [str(ARTICLE), "--purchase-usd", "3000", "--gpus", "4", "--gpu-price", "700"]

runner = CliRunner()

PAGES: dict[str, list[str]] = {
    "article": ["validate", str(ARTICLE)],
    "four-3090": ["validate", str(FOUR_3090)],
    "suggest": ["suggest", *SUGGEST_ARGS],
    "cost": ["cost", *COST_ARGS],
}
"""Each page's command line (without --format and --output)."""


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args))


def write_page(name: str, folder: Path) -> Path:
    """Run the page's command with ``--format html --output`` into ``folder``; the file written."""
    target = folder / f"{name}.html"
    result = invoke(*PAGES[name], "--format", "html", "--output", str(target))
    assert result.exit_code in (0, 1), result.output
    assert result.stdout == ""
    return target


def as_json(*args: str) -> Any:
    """The same command's JSON output: the second path a page is judged against."""
    return json.loads(invoke(*args, "--format", "json").stdout)


def svg(page: str, ident: str) -> ET.Element:
    """The inline ``<svg id=ident>`` of a page, parsed."""
    found = re.search(rf'<svg id="{ident}".*?</svg>', page, re.S)
    assert found, f"no <svg id={ident}>"
    return ET.fromstring(found.group())


def with_class(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    return [e for e in root.iter(tag) if css in e.get("class", "").split()]


def positions(elements: list[ET.Element]) -> list[int]:
    return [int(e.get("data-position", "0")) for e in elements]
