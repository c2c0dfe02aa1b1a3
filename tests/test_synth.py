"""benchmarks/synth.py makes valid, deterministic, realistic catalogs; the JSONL loader names bad lines."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from partpicker.catalog import Catalog, load_catalog, read_catalog
from partpicker.cli import app

ROOT = Path(__file__).resolve().parent.parent
N_PARTS = 2_000


@pytest.fixture(scope="module")
def synth() -> ModuleType:
    spec = importlib.util.spec_from_file_location("benchmarks_synth", ROOT / "benchmarks" / "synth.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def parts(synth: ModuleType) -> list[dict[str, Any]]:
    return list(synth.generate(N_PARTS, seed=1))


@pytest.fixture(scope="module")
def jsonl(synth: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("synth") / "synth-2k.jsonl"
    synth.write(path, N_PARTS, seed=1)
    return path


def test_same_seed_same_parts(synth: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(synth, "CHUNK", 64)  # several chunks, each seeded on its own
    first = list(synth.generate(300, seed=7))
    assert first == list(synth.generate(300, seed=7))
    assert first != list(synth.generate(300, seed=8))


def test_file_is_the_generated_parts(synth: ModuleType, parts: list[dict[str, Any]], jsonl: Path) -> None:
    lines = jsonl.read_text(encoding="utf-8").splitlines()
    assert lines == [synth._dump(p) for p in parts]
    assert not list(jsonl.parent.glob("*.part"))  # no half-written file left beside it


def test_every_part_validates(jsonl: Path, parts: list[dict[str, Any]]) -> None:
    catalog, problems = read_catalog([jsonl])
    assert problems == []
    assert len(catalog) == N_PARTS
    assert len(load_catalog([jsonl])) == N_PARTS
    for part in parts:
        assert re.fullmatch(rf"synth-{part['category']}-\d{{6}}", part["id"])


def test_category_mix_follows_the_curated_catalog(parts: list[dict[str, Any]], catalog: Catalog) -> None:
    want = {cat: len(items) / len(catalog) for cat, items in catalog.by_category.items()}
    got = Counter(p["category"] for p in parts)
    for cat, share in want.items():
        assert abs(got[cat] / N_PARTS - share) < 0.05, cat


def test_boards_with_and_without_slot_maps(parts: list[dict[str, Any]]) -> None:
    boards = [p for p in parts if p["category"] == "motherboard"]
    mapped = [b for b in boards if "pcie_slots" in b]
    assert 0.45 <= len(mapped) / len(boards) <= 0.75
    assert any("m2_slots" in b for b in mapped)
    assert any("lanes_by_cpu" in s for b in mapped for s in b["pcie_slots"])
    assert any(s.get("source") == "chipset" and s.get("physical") == 16 for b in mapped for s in b["pcie_slots"])
    assert any(m.get("shares") for b in mapped for m in b.get("m2_slots") or [])


def test_useless_and_infeasible_parts_are_there(synth: ModuleType, parts: list[dict[str, Any]]) -> None:
    shares = synth.summarize(parts)["shares"]
    for name in (
        "cpu: < 36 lanes",
        "cpu: lanes unknown",
        "case: <= 7 slots",
        "psu: < 1400 W",
        "no price",
        "stale price (> 1 year before as-of)",
        "gpu: board power unknown",
    ):
        assert 0.01 < shares[name] < 0.6, name
    assert any(p["category"] == "psu" and p["watts"] == 850 for p in parts)


def test_catalog_check_passes(jsonl: Path) -> None:
    result = CliRunner().invoke(app, ["catalog", "check", str(jsonl)])
    assert result.exit_code == 0, result.output


def test_jsonl_bad_lines_are_named_by_line(parts: list[dict[str, Any]], tmp_path: Path) -> None:
    good = json.dumps(parts[0], separators=(",", ":"))
    late = {k: v for k, v in parts[1].items() if k != "category"} | {"category": parts[1]["category"]}
    bad_value = dict(parts[2], id="synth-bad-value", brand="")
    lines = [
        good,  # 1
        '{"category":"cpu", oops',  # 2: not JSON
        "",  # 3: blank, skipped
        json.dumps(late),  # 4: category last, spaced: the slow path, fine
        '{"category":"toaster","id":"t"}',  # 5: unknown category
        json.dumps(bad_value, separators=(",", ":")),  # 6: empty brand
        good,  # 7: the same id again
    ]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    catalog, problems = read_catalog([path])
    assert sorted(catalog.parts) == sorted([parts[0]["id"], parts[1]["id"]])
    assert sorted((p.line, p.check) for p in problems) == [
        (2, "yaml-syntax"),
        (5, "vocabulary"),
        (6, "schema"),
        (7, "duplicate-id"),
    ]
    assert "brand" in next(p.message for p in problems if p.line == 6)
    assert catalog.origin[parts[1]["id"]].line == 4
