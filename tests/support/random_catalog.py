"""Small random catalogs of valid parts, for judging the solver against brute force.

Specs are drawn from small sets so that rules bind often (sockets clash, slots are packed,
PSUs fall short) and some parts have unknown specs or stale or missing prices.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from partpicker.catalog import Catalog, Origin
from partpicker.models import CATEGORIES

DAY = dt.date(2025, 1, 1)

SLOT_MAPS: list[list[dict[str, Any]] | None] = [
    [  # four double-spaced x16 slots, x16/x8/x16/x8
        {"label": "S1", "position": 1, "physical": 16, "lanes": 16, "source": "cpu"},
        {"label": "S3", "position": 3, "physical": 16, "lanes": 8, "source": "cpu"},
        {"label": "S5", "position": 5, "physical": 16, "lanes": 16, "source": "cpu"},
        {
            "label": "S7",
            "position": 7,
            "physical": 16,
            "lanes": 8,
            "source": "cpu",
            "shares": [{"when": "M2_2", "lanes": 0}],
        },
    ],
    [  # two x16 and a chipset x4
        {
            "label": "S1",
            "position": 1,
            "physical": 16,
            "lanes": 16,
            "source": "cpu",
            "shares": [{"when": "S3", "lanes": 8}],
        },
        {"label": "S3", "position": 3, "physical": 16, "lanes": 8, "source": "cpu"},
        {"label": "S5", "position": 5, "physical": 16, "lanes": 4, "source": "chipset"},
    ],
    [  # four packed x16 slots
        {"label": f"S{i}", "position": i, "physical": 16, "lanes": 8, "source": "cpu", "lanes_by_cpu": {28: 4}}
        for i in range(1, 5)
    ],
    None,  # slot map unknown
]
M2_MAPS: list[list[dict[str, Any]] | None] = [
    [
        {"label": "M2_1", "interfaces": ["nvme"], "lanes": 4, "source": "cpu", "shares": []},
        {"label": "M2_2", "interfaces": ["nvme", "sata"], "lanes": 4, "source": "chipset", "shares": []},
    ],
    [{"label": "M2_2", "interfaces": ["nvme", "sata"], "lanes": 4, "source": "chipset", "shares": []}],
    [{"label": "M2_1", "interfaces": ["nvme"], "lanes": 4}],  # sharing and source unknown
    [],
    None,
]


def _prices(rng: random.Random, low: int, high: int) -> list[dict[str, Any]]:
    roll = rng.random()
    if roll < 0.04:
        return []
    days_back = rng.choice([10, 100, 300]) if roll > 0.08 else 500  # some stale
    return [{"usd": rng.randrange(low, high), "date": DAY - dt.timedelta(days=days_back), "source": "test"}]


def _maybe(rng: random.Random, value: Any, p_unknown: float = 0.04) -> Any:
    return None if rng.random() < p_unknown else value


def _pick(rng: random.Random, good: Any, *bad: Any, p_bad: float = 0.2) -> Any:
    """Mostly a value that works, sometimes one that breaks a rule."""
    return rng.choice(bad) if bad and rng.random() < p_bad else good


def make(rng: random.Random, sizes: dict[str, int] | None = None) -> Catalog:
    sizes = sizes or {}
    raws: dict[str, list[dict[str, Any]]] = {c: [] for c in CATEGORIES}
    n = lambda cat, lo, hi: sizes.get(cat, rng.randint(lo, hi))  # noqa: E731
    home = rng.choice(["AM4", "sTR4"])
    away = "AM4" if home == "sTR4" else "sTR4"
    for _ in range(n("cpu", 2, 4)):
        raws["cpu"].append(
            {
                "socket": _pick(rng, home, away),
                "cores": _maybe(rng, _pick(rng, 12, 6, 16)),
                "pcie_lanes": _maybe(rng, _pick(rng, 60, 20, 28, 44)),
                "tdp_w": _maybe(rng, rng.choice([65, 105, 180])),
                "memory_types": ["DDR4"],
                "max_memory_gb": _pick(rng, 256, 64),
                "prices": _prices(rng, 150, 900),
            }
        )
    for _ in range(n("motherboard", 2, 3)):
        raws["motherboard"].append(
            {
                "socket": _pick(rng, home, away),
                "form_factor": _pick(rng, "ATX", "E-ATX"),
                "memory_type": "DDR4",
                "memory_slots": _pick(rng, 8, 4),
                "max_memory_gb": _pick(rng, 256, 64),
                "pcie_slots": rng.choices(SLOT_MAPS, weights=[6, 2, 2, 1])[0],
                "m2_slots": rng.choices(M2_MAPS, weights=[6, 3, 2, 1, 1])[0],
                "prices": _prices(rng, 100, 600),
            }
        )
    for _ in range(n("gpu", 2, 3)):
        power = rng.choice([{"pcie_8pin": 1, "pcie_6pin": 1}, {"pcie_8pin": 2}, {"hpwr_12v": 1}])
        raws["gpu"].append(
            {
                "chip": rng.choice(["GeForce GTX 1080 Ti", "GeForce RTX 3090"]),
                "vram_gb": rng.choice([11, 24]),
                "board_power_w": _maybe(rng, _pick(rng, rng.choice([250, 300]), 350, 450)),
                "slot_width": _maybe(rng, _pick(rng, 2, 2.5, 3)),
                "length_mm": _pick(rng, 267, 313, 336),
                "cooler": rng.choice(["blower", "open-air"]),
                "power": power,
                "prices": _prices(rng, 500, 1600),
            }
        )
    for _ in range(n("psu", 2, 3)):
        raws["psu"].append(
            {
                "watts": _pick(rng, rng.choice([1400, 1500, 1600, 1600, 2000]), 1200),
                "form_factor": "ATX",
                "pcie_8pin": _maybe(rng, _pick(rng, rng.choice([9, 12]), 4, 8)),
                "hpwr_12v": rng.choice([0, 1, 4]),
                "efficiency": rng.choice(["80+ Gold", "80+ Platinum", "80+ Titanium"]),
                "prices": _prices(rng, 100, 500),
            }
        )
    for _ in range(n("case", 1, 3)):
        raws["case"].append(
            {
                "form_factors": _pick(rng, ["E-ATX"], ["ATX"]),
                "expansion_slots": _maybe(rng, _pick(rng, 8, 7, 10)),
                "max_gpu_length_mm": _pick(rng, 420, 320),
                "psu_form_factors": ["ATX"],
                "prices": _prices(rng, 60, 300),
            }
        )
    for _ in range(n("ram", 1, 3)):
        raws["ram"].append(
            {
                "memory_type": "DDR4",
                "modules": _pick(rng, 4, 8, 2),
                "module_gb": _pick(rng, 16, 32),
                "prices": _prices(rng, 80, 900),
            }
        )
    for _ in range(n("ssd", 1, 3)):
        nvme = rng.random() < 0.85
        raws["ssd"].append(
            {
                "interface": "nvme" if nvme else "sata",
                "form_factor": "M.2-2280" if nvme else "2.5in",
                "capacity_gb": 1000,
                "prices": _prices(rng, 60, 300),
            }
        )
    for _ in range(n("cooler", 1, 3)):
        raws["cooler"].append(
            {
                "sockets": _pick(rng, [home], [away], ["AM4", "sTR4"]),
                "prices": _prices(rng, 40, 200),
            }
        )
    catalog = Catalog()
    for category, items in raws.items():
        for i, raw in enumerate(items):
            raw.update({"id": f"{category}-{i}", "name": f"Test {category} {i}", "brand": "Test", "sources": ["test"]})
            catalog.add(CATEGORIES[category].model_validate(raw), Origin("random", None, raw))
    return catalog
