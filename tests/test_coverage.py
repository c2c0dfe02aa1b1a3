"""`partpicker catalog coverage`: counts checked against the raw YAML, and the README table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from partpicker.catalog import Catalog
from partpicker.catalog.coverage import (
    EMPTY_IS_UNKNOWN,
    HEDT_CHIPSETS,
    HEDT_SOCKETS,
    coverage,
    decisive_fields,
    is_hedt,
)
from partpicker.catalog.coverage_formats import markdown
from partpicker.cli import app
from partpicker.models import CATEGORIES, Motherboard
from partpicker.rules.rulebook import RuleSpec

from .conftest import DATA, ROOT

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


def _raw_parts(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for path in sorted(folder.glob("*.yaml")):
        doc = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
        out += [(doc["category"], part) for part in doc["parts"]]
    return out


def _raw_known(category: str, part: dict[str, Any], name: str) -> tuple[bool, str | None]:
    """Second path: known and kind straight from the YAML as written."""
    if name == "prices":
        return bool(part.get("prices")), None
    absent = [] if CATEGORIES[category].model_fields[name].default_factory is list else None
    value = part.get(name, absent)
    if value is None or (value == [] and (category, name) in EMPTY_IS_UNKNOWN):
        return False, None
    own = (part.get("field_evidence") or {}).get(name)
    return True, own["kind"] if own else (part.get("evidence") or "unstated")


def _raw_hedt(category: str, part: dict[str, Any]) -> bool:
    if category not in ("cpu", "motherboard"):
        return False
    words = str(part.get("chipset") or "").replace("-", " ").split()
    return part.get("socket") in HEDT_SOCKETS or any(w in HEDT_CHIPSETS for w in words)


def test_counts_equal_a_recount_of_the_yaml(rules: dict[str, RuleSpec]) -> None:
    doc = json.loads(run("catalog", "coverage", "--format", "json", "--gaps").stdout)
    decisive = decisive_fields(r.reads for r in rules.values())
    raw = _raw_parts(ROOT / "catalogs")
    for g in doc["groups"]:
        members = [(c, p) for c, p in raw if g["group"] == "all" or _raw_hedt(c, p)]
        assert sum(cat["parts"] for cat in g["categories"]) == len(members)
        for cat in g["categories"]:
            parts = [p for c, p in members if c == cat["category"]]
            assert [f["field"] for f in cat["fields"]] == list(decisive[cat["category"]])
            for f in cat["fields"]:
                seen = [(p["id"], *_raw_known(cat["category"], p, f["field"])) for p in parts]
                assert sorted(f["missing"]) == sorted(i for i, ok, _ in seen if not ok), (cat["category"], f["field"])
                assert f["known"] == sum(ok for _, ok, _ in seen)
                if f["by_kind"] is not None:
                    recount = {k: sum(1 for _, ok, kind in seen if ok and kind == k) for k in doc["kinds"]}
                    assert f["by_kind"] == recount, (cat["category"], f["field"])
        assert g["known"] == sum(f["known"] for c in g["categories"] for f in c["fields"])


def test_decisive_fields_are_what_the_rules_read(rules: dict[str, RuleSpec]) -> None:
    decisive = decisive_fields(r.reads for r in rules.values())
    for category, fields in decisive.items():
        read = {f for r in rules.values() for f in r.reads.get(category, [])}
        assert set(fields) == read | {"prices"}


def test_hedt_group_holds_the_workstation_platforms(catalog: Catalog) -> None:
    by_socket = {p.socket: p for p in catalog.by_category["motherboard"]}  # type: ignore[attr-defined]
    assert is_hedt(catalog.parts["msi-x399-sli-plus"])
    assert "AM4" in by_socket and not is_hedt(by_socket["AM4"])
    assert any(is_hedt(p) for p in catalog.by_category["cpu"] if p.socket == "SP3")  # type: ignore[attr-defined]
    assert not any(is_hedt(p) for p in catalog.by_category["gpu"])
    assert not any(is_hedt(p) for p in catalog.by_category["cooler"])


def test_category_filter_and_bad_category() -> None:
    doc = json.loads(run("catalog", "coverage", "-f", "json", "--category", "psu").stdout)
    assert [c["category"] for g in doc["groups"] for c in g["categories"]] == ["psu"]  # no PSU is HEDT
    bad = run("catalog", "coverage", "--category", "gpus")
    assert bad.exit_code == 2 and "unknown category 'gpus'" in bad.stderr


def test_gaps_lists_the_missing_parts() -> None:
    plain = run("catalog", "coverage", "--category", "psu").stdout
    gaps = run("catalog", "coverage", "--category", "psu", "--gaps").stdout
    doc = json.loads(run("catalog", "coverage", "-f", "json", "--category", "psu", "--gaps").stdout)
    assert [g["group"] for g in doc["groups"]] == ["all"]  # no HEDT group without a HEDT part
    missing = [i for c in doc["groups"][0]["categories"] for f in c["fields"] for i in f["missing"]]
    assert missing and "missing:" not in plain
    assert all(i in gaps for i in missing)


def test_fixture_catalog_kinds() -> None:
    folder = DATA / "catalogs" / "evidence"
    doc = json.loads(run("catalog", "coverage", "-f", "json", "--catalog", str(folder)).stdout)
    cpu = next(c for c in doc["groups"][0]["categories"] if c["category"] == "cpu")
    by_field = {f["field"]: f for f in cpu["fields"]}
    assert by_field["cores"]["by_kind"]["recalled"] == 1
    assert by_field["pcie_lanes"]["by_kind"]["manual"] == 1
    assert by_field["prices"]["known"] == 0


def test_readme_coverage_table_is_generated(catalog: Catalog, rules: dict[str, RuleSpec]) -> None:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("<!-- coverage-table:start -->\n")[1].split("<!-- coverage-table:end -->")[0]
    table = markdown(coverage(catalog, decisive_fields(r.reads for r in rules.values())))
    assert block.strip() == table.strip(), "regenerate with `partpicker catalog coverage --format markdown`"


def test_readme_counts_the_bundled_parts(catalog: Catalog) -> None:
    """The README's part counts and its slot-map count are the catalog's."""
    import re

    readme = (ROOT / "README.md").read_text()
    counts = {k: len(v) for k, v in catalog.by_category.items()}
    said = re.search(r"`catalogs/\*\.yaml`: (\d+) curated parts \((\d+) CPUs, (\d+) motherboards, (\d+) GPUs", readme)
    assert said is not None
    assert [int(x) for x in said.groups()] == [
        sum(counts.values()),
        counts["cpu"],
        counts["motherboard"],
        counts["gpu"],
    ]
    maps = re.search(r"are known for (\d+) of the (\d+) boards", readme)
    boards = catalog.by_category["motherboard"]
    known = sum(1 for b in boards if isinstance(b, Motherboard) and b.pcie_slots is not None)
    assert maps is not None and (int(maps[1]), int(maps[2])) == (known, len(boards))


def test_readme_counts_the_compat_rules(rules: dict[str, RuleSpec]) -> None:
    import re

    said = re.search(r"`compat` runs the (\w+) marked `compat`", (ROOT / "README.md").read_text())
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    assert said is not None
    assert words.index(said[1]) + 1 == sum(1 for r in rules.values() if r.profile == "compat")
