"""Cross-check the catalog against the public reference data in ../shared/reference/.

A curation aid (the project never reads ../shared at run time): for every catalog part it
finds the closest reference row of the same maker (rapidfuzz) and prints each field where
the two disagree. Reference data has known errors (see its README), so a disagreement is a
place to look, not a verdict; `tests/test_spot_checks.py` pins 20+ parts with explicit
reference rows.

    python tools/crosscheck.py [--shared ../shared] [--category gpu] [--min-score 90]
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from partpicker.catalog import load_catalog  # noqa: E402
from partpicker.models import Part  # noqa: E402
from partpicker.vocab import form_factor, socket  # noqa: E402

REF_FILES = {
    "cpu": "buildcores-cpu.jsonl",
    "gpu": "buildcores-gpu.jsonl",
    "psu": "buildcores-psu.jsonl",
    "case": "buildcores-case.jsonl",
    "motherboard": "buildcores-motherboard.jsonl",
    "ssd": "buildcores-storage.jsonl",
}


def rows(shared: Path, name: str) -> Iterator[dict[str, Any]]:
    with (shared / "reference" / name).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def ark_rows(shared: Path) -> list[dict[str, str]]:
    with (shared / "reference" / "intel-ark-cpu.csv").open(encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _int(value: Any) -> int | None:
    if value in (None, "", 0):
        return None
    match = re.search(r"\d+(\.\d+)?", str(value))
    return round(float(match.group())) if match else None


# For each category: catalog field -> function of a BuildCores row giving the reference value.
BUILDCORES: dict[str, dict[str, Callable[[dict[str, Any]], Any]]] = {
    "cpu": {
        "cores": lambda r: r.get("cores", {}).get("total"),
        "threads": lambda r: r.get("cores", {}).get("threads"),
        "tdp_w": lambda r: r.get("specifications", {}).get("tdp"),
        "socket": lambda r: socket(r.get("socket") or "") or r.get("socket"),
    },
    "gpu": {
        "vram_gb": lambda r: r.get("memory"),
        "length_mm": lambda r: r.get("length"),
        "board_power_w": lambda r: r.get("tdp"),
    },
    "psu": {
        "watts": lambda r: r.get("wattage"),
        "hpwr_12v": lambda r: r.get("connectors", {}).get("pcie_12vhpwr"),
    },
    "case": {
        "expansion_slots": lambda r: r.get("expansion_slots"),
        "max_gpu_length_mm": lambda r: r.get("max_video_card_length"),
    },
    "motherboard": {
        "memory_slots": lambda r: r.get("memory", {}).get("slots"),
        "max_memory_gb": lambda r: r.get("memory", {}).get("max") or None,
        "socket": lambda r: socket(r.get("socket") or "") or r.get("socket"),
        "form_factor": lambda r: form_factor(r.get("form_factor") or "") or r.get("form_factor"),
    },
    "ssd": {
        "capacity_gb": lambda r: r.get("capacity"),
        "interface": lambda r: "nvme" if r.get("nvme") else "sata",
    },
}

ARK: dict[str, Callable[[dict[str, str]], Any]] = {
    "cores": lambda r: _int(r["CoreCount"]),
    "threads": lambda r: _int(r["ThreadCount"]),
    "pcie_lanes": lambda r: _int(r["NumPCIExpressPorts"]),
    "tdp_w": lambda r: _int(r["MaxTDP"]),
}


def disagreements(part: Part, ref: dict[str, Any], fields: dict[str, Callable[[Any], Any]]) -> list[str]:
    """Fields where the catalog and the reference row both have a value and differ."""
    out = []
    for name, get in fields.items():
        ours, theirs = getattr(part, name, None), get(ref)
        if ours is None or theirs in (None, "", 0):
            continue
        if isinstance(ours, float | int) and isinstance(theirs, float | int):
            same = abs(float(ours) - float(theirs)) < 0.5
        else:
            same = str(ours).casefold() == str(theirs).casefold()
        if not same:
            out.append(f"{name}: catalog {ours!r}, reference {theirs!r}")
    return out


def ark_model(name: str) -> str | None:
    match = re.search(r"\b(i[3579]-\d{4,5}[A-Z]*|W-\d{4}[A-Z]*|w[579]-\d{4}[A-Z]*)\b", name)
    return match.group(1).upper() if match else None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--category")
    ap.add_argument("--min-score", type=float, default=90.0)
    args = ap.parse_args()
    if not (args.shared / "reference").is_dir():
        print(f"no reference data at {args.shared}/reference", file=sys.stderr)
        return 2
    catalog = load_catalog()
    found = 0
    for category, fname in REF_FILES.items():
        if args.category not in (None, category):
            continue
        ref = list(rows(args.shared, fname))
        names = [r["metadata"]["name"] for r in ref]
        for part in catalog.by_category[category]:
            hit = process.extractOne(part.name, names, scorer=fuzz.token_set_ratio)
            if hit is None or hit[1] < args.min_score:
                print(f"{category:<11} {part.id}: no reference row (best {hit[0] if hit else '-'!r})")
                continue
            for d in disagreements(part, ref[hit[2]], BUILDCORES[category]):
                found += 1
                print(f"{category:<11} {part.id} ~ {hit[0]!r}: {d}")
    if args.category in (None, "cpu"):
        ark = {ark_model(r["CpuName"]): r for r in ark_rows(args.shared)}
        for part in catalog.by_category["cpu"]:
            model = ark_model(part.name)
            if model and model in ark:
                for d in disagreements(part, ark[model], ARK):
                    found += 1
                    print(f"cpu (ARK)   {part.id}: {d}")
    print(f"{found} disagreement(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
