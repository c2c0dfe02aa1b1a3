"""`suggest --gpus 4 --as-of 2018-09-01` on the bundled catalog: a build in the spirit of the
article (issue 9), priced with points of 2017-18, that `validate` passes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from partpicker.cli import app
from partpicker.models import Cpu, Psu

from .conftest import read_catalog_once

runner = CliRunner()
DAY = "2018-09-01"


def test_the_2018_answer_is_the_articles_kind_of_build(tmp_path: Path) -> None:
    out = tmp_path / "build.yaml"
    result = runner.invoke(app, ["suggest", "--gpus", "4", "--as-of", DAY, "-f", "json", "--output", str(out)])
    doc = json.loads(result.stdout)
    assert result.exit_code == 0 and doc["status"] == "proven", result.output
    catalog = read_catalog_once()[0]
    cpu = catalog.parts[doc["build"]["cpu"]["id"]]
    psu = catalog.parts[doc["build"]["psu"]["id"]]
    assert isinstance(cpu, Cpu) and isinstance(psu, Psu)
    # The article's thresholds, read from the catalog, not from the answer.
    assert (cpu.pcie_lanes or 0) >= 36 and cpu.cores >= 8 and psu.watts >= 1400
    assert doc["gpus"] == {"now": 1, "target": 4}
    # Every price is a point of 2017-18 (on or before the day asked).
    dates = [line["price_date"] for line in doc["build"].values()]
    assert all("2017-01-01" <= d <= DAY for d in dates), dates
    # The board seats four cards: validate says so rule by rule, as of that day.
    check = runner.invoke(app, ["validate", str(out), "--as-of", DAY, "-f", "json"])
    findings = {f["rule"]: f["status"] for f in json.loads(check.stdout)["findings"]}
    assert check.exit_code == 0 and json.loads(check.stdout)["verdict"] == "pass", check.output
    assert findings["gpu-slots"] == findings["cpu-pcie-lanes"] == findings["psu-wattage"] == "pass"
