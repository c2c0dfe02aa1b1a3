"""Holdout spot checks: 30 parts compared field by field with public reference data
(Intel ARK, TechPowerUp). Skipped where ../shared/reference is absent; the project never
reads it at run time."""

from __future__ import annotations

import csv
import json
import re

import pytest

from .conftest import SHARED

REF = SHARED / "reference"
pytestmark = pytest.mark.skipif(not REF.is_dir(), reason="no ../shared/reference here")

# Catalog id -> Intel ARK model number. Compared: cores, threads, PCIe lanes, TDP.
ARK_PARTS = {
    "intel-core-i7-7800x": "i7-7800X",
    "intel-core-i7-7820x": "i7-7820X",
    "intel-core-i9-7900x": "i9-7900X",
    "intel-core-i9-7920x": "i9-7920X",
    "intel-core-i9-7940x": "i9-7940X",
    "intel-core-i9-7980xe": "i9-7980XE",
    "intel-core-i9-9820x": "i9-9820X",
    "intel-core-i9-9900x": "i9-9900X",
    "intel-core-i9-10900x": "i9-10900X",
    "intel-core-i9-10940x": "i9-10940X",
    "intel-core-i9-10980xe": "i9-10980XE",
    "intel-xeon-w-2145": "W-2145",
    "intel-xeon-w-2255": "W-2255",
    "intel-xeon-w5-2455x": "w5-2455X",
    "intel-xeon-w7-3465x": "w7-3465X",
    "intel-core-i9-9900k": "i9-9900K",
    "intel-core-i9-12900k": "i9-12900K",
}
# Catalog id -> TechPowerUp reference board. Compared: VRAM, board power, length, slot
# width, power sockets. (Where NVIDIA's own figure differs from TechPowerUp's, e.g. the
# RTX 3090 FE length, the catalog follows NVIDIA and says so in the part's notes; those
# parts are not listed here.)
TPU_PARTS = {
    "nvidia-geforce-gtx-1080-ti-founders-edition": "GeForce GTX 1080 Ti",
    "nvidia-geforce-gtx-1080-founders-edition": "GeForce GTX 1080",
    "nvidia-titan-xp": "TITAN Xp",
    "nvidia-titan-v": "TITAN V",
    "nvidia-titan-rtx": "TITAN RTX",
    "nvidia-geforce-rtx-3080-founders-edition": "GeForce RTX 3080",
    "nvidia-geforce-rtx-4090-founders-edition": "GeForce RTX 4090",
    "nvidia-geforce-rtx-5090-founders-edition": "GeForce RTX 5090",
    "nvidia-rtx-a4000": "RTX A4000",
    "nvidia-rtx-a5000": "RTX A5000",
    "nvidia-rtx-a6000": "RTX A6000",
    "nvidia-rtx-6000-ada-generation": "RTX 6000 Ada Generation",
    "nvidia-rtx-pro-6000-blackwell-workstation-edition": "RTX PRO 6000 Blackwell",
}
SLOTS = {"Single-slot": 1, "Dual-slot": 2, "Triple-slot": 3}


def _num(text: str) -> int | None:
    match = re.search(r"\d+", text or "")
    return int(match.group()) if match else None


def _ark() -> dict[str, dict[str, str]]:
    with (REF / "intel-ark-cpu.csv").open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    out = {}
    for row in rows:
        match = re.search(r"\b([iw][3579]-\d{4,5}[A-Z]*|W-\d{4}[A-Z]*)\b", row["CpuName"])
        if match:
            out[match.group(1)] = row
    return out


def test_enough_parts_are_spot_checked() -> None:
    assert len(ARK_PARTS) + len(TPU_PARTS) >= 20


@pytest.mark.parametrize("part_id", sorted(ARK_PARTS))
def test_cpu_matches_intel_ark(part_id: str, catalog) -> None:
    row = _ark()[ARK_PARTS[part_id]]
    cpu = catalog.parts[part_id]
    assert cpu.cores == _num(row["CoreCount"])
    assert cpu.threads == _num(row["ThreadCount"])
    assert cpu.pcie_lanes == _num(row["NumPCIExpressPorts"])
    if row["MaxTDP"]:  # blank on Xeon W rows (a known gap of the dataset)
        assert cpu.tdp_w == _num(row["MaxTDP"])


@pytest.mark.parametrize("part_id", sorted(TPU_PARTS))
def test_gpu_matches_techpowerup(part_id: str, catalog) -> None:
    rows = [json.loads(line) for line in (REF / "techpowerup-gpu-reference.jsonl").read_text("utf-8").splitlines()]
    row = next(r for r in rows if r["name"] == TPU_PARTS[part_id])
    gpu = catalog.parts[part_id]
    assert gpu.vram_gb == row["memory_size_gb"]
    assert gpu.board_power_w == row["thermal_design_power_w"]
    assert gpu.length_mm == pytest.approx(row["board_length_mm"], abs=0.5)
    assert gpu.slot_width == SLOTS[row["board_slot_width"]]
    sockets = row["power_connectors"]
    if gpu.power is None:  # e.g. the RTX A6000's CPU 8-pin, which the model cannot express
        assert "EPS" in sockets
        return
    six = sum(int(n) for n in re.findall(r"(\d)x 6-pin", sockets))
    eight = sum(int(n) for n in re.findall(r"(\d)x 8-pin", sockets))
    hpwr = sum(int(n) for n in re.findall(r"(\d)x 1[26]-pin", sockets))
    assert (gpu.power.pcie_6pin, gpu.power.pcie_8pin, gpu.power.hpwr_12v) == (six, eight, hpwr)


# --- Every `database` fact equals the reference row its part cites -----------------------
#
# A source line citing a snapshot row names it: "BuildCores OpenDB snapshot ..., row 'NAME'"
# or "TechPowerUp GPU database ..., reference row 'NAME'" (a cited name may be a prefix of
# the row's full name). For every part that cites rows, each decisive fact whose evidence
# kind is `database` (and whose own evidence source, if any, is that database) must equal
# the value of one of the rows it cites.

ROW = re.compile(r"row '([^']+)'")
BUILDCORES = {"gpu": "buildcores-gpu.jsonl", "psu": "buildcores-psu.jsonl"}
BC_FIELDS = {
    "gpu": {"board_power_w": "tdp", "vram_gb": "memory", "length_mm": "length"},
    "psu": {"watts": "wattage", "pcie_8pin": "connectors.pcie_6_plus_2_pin"},
}
CPU_FIELDS = {"cores": "cores.total", "threads": "cores.threads", "tdp_w": "specifications.tdp"}
TPU_FIELDS = {"board_power_w": "thermal_design_power_w", "vram_gb": "memory_size_gb", "length_mm": "board_length_mm"}


def _jsonl(name: str) -> list[dict]:
    return [json.loads(line) for line in (REF / name).read_text("utf-8").splitlines() if line.strip()]


def _dig(row: dict, path: str):
    for key in path.split("."):
        row = (row or {}).get(key)
    return row or None  # BuildCores writes 0 for 'not recorded'


def _cited(sources: list[str], database: str, names: dict[str, dict], part_id: str) -> list[dict]:
    """The rows of ``database`` that ``sources`` cite (exact name, else a unique prefix)."""
    out = []
    for source in sources:
        if database.lower() not in source.lower():
            continue
        for cited in ROW.findall(source):
            hits = [names[cited]] if cited in names else [r for n, r in names.items() if n.startswith(cited)]
            assert len(hits) == 1, f"{part_id}: cited row {cited!r} matches {len(hits)} rows of {database}"
            out.extend(hits)
    return out


def _database_facts(catalog, category: str, database: str, names: dict[str, dict], fields: dict[str, str]):
    """(part, field, values of the cited rows) for each `database` fact: a field with its own
    source is judged by the rows that source cites (none: another document, not judged here),
    a field on the part's default by the rows the part's sources cite."""
    for part in catalog.by_category[category]:
        for name, path in fields.items():
            ev = part.evidence_of(name)
            if getattr(part, name) is None or ev is None or ev.kind != "database":
                continue
            sources = [ev.source] if ev.source else part.sources
            rows = _cited(sources, database, names, part.id)
            if rows:
                yield part, name, [_dig(r, path) for r in rows]


def test_database_facts_equal_the_rows_they_cite(catalog) -> None:
    checked: dict[str, int] = {}
    wrong = []
    for category, fname in BUILDCORES.items():
        names = {r["metadata"]["name"]: r for r in _jsonl(fname)}
        facts = list(_database_facts(catalog, category, "BuildCores", names, BC_FIELDS[category]))
        if category == "gpu":
            tpu = {r["name"]: r for r in _jsonl("techpowerup-gpu-reference.jsonl") if r["manufacturer"] == "NVIDIA"}
            facts += list(_database_facts(catalog, "gpu", "TechPowerUp", tpu, TPU_FIELDS))
        for part, name, values in facts:
            known = [v for v in values if v is not None]
            if not known:
                continue  # the row leaves it blank: the fact rests on another source
            checked[category] = checked.get(category, 0) + 1
            ours = float(getattr(part, name))
            if not any(abs(ours - float(v)) <= (0.5 if name == "length_mm" else 0) for v in known):
                wrong.append(f"{part.id}.{name}: catalog {ours:g}, cited row(s) {known}")
    assert wrong == []
    assert checked.get("gpu", 0) >= 30 and checked.get("psu", 0) >= 20, checked


def test_cpu_database_facts_equal_the_buildcores_row_of_their_name(catalog) -> None:
    """CPUs cite the BuildCores snapshot without a row name: the row is the one of the same
    name (case aside). Cores, threads and TDP resting on `database` evidence must equal it."""
    rows = {r["metadata"]["name"].lower(): r for r in _jsonl("buildcores-cpu.jsonl")}
    checked, wrong = 0, []
    for cpu in catalog.by_category["cpu"]:
        row = rows.get(cpu.name.lower())
        if row is None or not any("buildcores" in s.lower() for s in cpu.sources):
            continue
        for name, path in CPU_FIELDS.items():
            ev = cpu.evidence_of(name)
            theirs = _dig(row, path)
            if ev is None or ev.kind != "database" or getattr(cpu, name) is None or theirs is None:
                continue
            if ev.source and "buildcores" not in ev.source.lower():
                continue
            checked += 1
            if getattr(cpu, name) != theirs:
                wrong.append(f"{cpu.id}.{name}: catalog {getattr(cpu, name)}, BuildCores {theirs}")
    assert wrong == []
    assert checked >= 15, checked
