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
