"""Seeded synthetic catalogs (JSON Lines) whose parts look like the curated ones, at any size.

    python benchmarks/synth.py --parts 100000 --seed 1 --out benchmarks/out/synth-100k.jsonl
    python benchmarks/synth.py --parts 2000 --seed 1 --stats      # print the mix, write nothing

How it stays realistic: the distributions are *learned* from the bundled curated catalog
(`load_catalog()`), not typed in here. Each synthetic part starts from a real part of its
category drawn at random (so the category mix, sockets, form factors, memory types, the
joint cores/lanes/TDP of a CPU, a GPU's width/length/power/cooler, ... follow the curated
catalog), then some specs are re-drawn from the values seen for the same group (a CPU's
cores and TDP among its socket's, a RAM kit's modules among its memory type's, a PSU's
wattage among all PSUs') and lengths and prices get a little jitter. Prices follow the
template's dated series (or a same-category part's), clipped to 2018..AS_OF.

A few shares are *chosen*, not learned, because the curated catalog is too thin there to
benchmark a solver (each constant below says why): boards with a slot map, PSUs with a
known cable count. Infeasible and useless parts come both from the curated mix (28-lane
X299 CPUs, 7-slot cases, 850 W PSUs, unknown specs, parts with no price) and from a small
extra share of unknowns and stale prices, so that a solver must filter, not just pick.

Output is deterministic for (parts, seed, curated catalog): part ``i`` belongs to chunk
``i // CHUNK``, and each chunk has its own ``random.Random`` seeded from (seed, chunk), so
chunks can be made in parallel (``--jobs``) and the file is the same byte for byte.
Parts stream to disk chunk by chunk; the file appears only when complete.
"""

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import functools
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from partpicker.catalog import catalog_files, load_catalog
from partpicker.models import Cpu, Motherboard, Part, Psu
from partpicker.vocab import FORM_FACTORS

CHUNK = 4096
"""Parts per chunk: the unit of seeding, of parallel work and of memory held at once."""

FIRST_DAY = dt.date(2018, 1, 1)
"""No price point before this day (the curated catalog's few 2014-2017 MSRPs are clipped)."""

SLOT_MAP_SHARE = 0.6
"""Boards with a PCIe slot map. Chosen: the curated catalog has 4 of 49 (maps are hard to
source), which would leave a 100k catalog with almost no board a 4-GPU solver can prove;
the other 40% are the realistic 'no slot map' boards the solver must skip."""

M2_MAP_SHARE = 0.75
"""Of the boards with a PCIe map, those whose M.2 map is known too (curated: none yet)."""

PSU_CABLES_KNOWN = 0.6
"""PSUs with a known PCIe 8-pin cable count. Chosen: the curated catalog has 3 of 28; the
count is then the learned cables-per-watt of those three times the wattage, +-1."""

M2_SHARES_UNKNOWN = 0.15
"""Of the M.2 sockets in a known M.2 map, those whose lane sharing is not known (null)."""

REAL_LAYOUT_SHARE = 0.4
"""Of the boards with a map whose socket has a real (curated) slot map, those that take it
(possibly varied); the rest get a layout generated for the socket and form factor."""

EXTRA_UNKNOWN = 0.04
"""Per key spec, the chance of dropping a known value (on top of the curated unknowns)."""

STALE_SHARE = 0.06
"""Parts whose every price is older than a year before AS_OF (on top of the learned ones)."""

USED_SHARE = 0.03
"""Parts that also get a 'used' price point."""

NOTES_SHARE = 0.5
"""Parts that carry their template's notes (so lines are about as long as curated ones)."""

_HEDT_CHANNELS = 4  # a socket whose CPUs have >= 4 memory channels is a workstation socket


# --------------------------------------------------------------------------- the profile


@dataclass
class Template:
    """One curated part, reduced to what a synthetic variant copies."""

    id: str
    name: str
    brand: str
    aliases: list[str]
    sources: list[str]
    notes: str | None
    released: int | None  # date ordinal
    spec: dict[str, Any]  # category fields, JSON-ready, unknowns left out
    series: list[tuple[int, float, str]]  # (date ordinal, usd, kind)
    fallback_level: float = 0.0  # its group's median price, for a template with no price
    short_note: str = ""
    long_note: str | None = None


@dataclass
class SocketInfo:
    """What the CPUs of one socket tell about the boards for it."""

    hedt: bool
    board_lanes: int  # the lanes a board for this socket is wired for (its biggest CPU's)
    smaller: list[int]  # smaller lane counts seen on this socket, for `lanes_by_cpu`
    gen: int


@dataclass
class Profile:
    """Everything learned from the curated catalog."""

    categories: list[str]
    weights: list[float]
    templates: dict[str, list[Template]]
    as_of: int  # newest price date in the curated catalog (ordinal)
    cpu_cores: dict[str, list[int]]
    cpu_tdp: dict[str, list[int]]
    cpu_lanes: dict[str, list[tuple[int, int | None]]]
    sockets: dict[str, SocketInfo]
    layouts: dict[str, list[tuple[str, list[dict[str, Any]], list[dict[str, Any]] | None]]]
    m2_layouts: dict[str, list[list[dict[str, Any]]]]  # boards whose M.2 map alone is known
    psu_watts: list[int]
    psu_cables_per_watt: float
    case_slots: list[int]
    ram_modules: dict[str, list[int]]
    ram_module_gb: dict[str, list[int]]
    ram_speeds: dict[str, list[int]]
    ssd_capacity: dict[str, list[int]]
    radiators: list[int]
    group_price: dict[tuple[str, str], float]
    category_price: dict[str, float]
    priced_series: dict[str, list[tuple[list[tuple[int, float, str]], float]]]
    cum_weights: list[float]
    first_day: int
    iso: dict[int, str]  # date ordinal -> ISO string, for every day a part can carry
    counts: dict[str, int] = field(default_factory=dict)


def _spec(part: Part) -> dict[str, Any]:
    # exclude_defaults, not exclude_none: a slot's required-but-null position stays, and an
    # M.2 socket's `shares: []` (none, from the manual) stays apart from null (not known).
    common = {"id", "name", "brand", "aliases", "released", "prices", "sources", "notes"}
    return {k: v for k, v in part.model_dump(mode="json", exclude_defaults=True).items() if k not in common}


def _group(category: str, spec: dict[str, Any]) -> str:
    """The key a price is pooled by when a part has no price of its own."""
    key = {
        "cpu": "socket",
        "motherboard": "socket",
        "gpu": "chip",
        "psu": "watts",
        "ssd": "capacity_gb",
        "case": "expansion_slots",
        "ram": "memory_type",
        "cooler": "kind",
    }[category]
    return str(spec.get(key))


def learn(catalog_paths: Sequence[str | Path] | None = None) -> Profile:
    """Read the curated catalog and keep the distributions the generator draws from."""
    catalog = load_catalog(catalog_paths)
    templates: dict[str, list[Template]] = {}
    for category, parts in catalog.by_category.items():
        templates[category] = [
            Template(
                id=p.id,
                name=p.name,
                brand=p.brand,
                aliases=list(p.aliases),
                sources=list(p.sources),
                notes=p.notes,
                released=p.released.toordinal() if p.released else None,
                spec=_spec(p),
                series=sorted((x.date.toordinal(), x.usd, x.kind) for x in p.prices),
            )
            for p in sorted(parts, key=lambda p: p.id)  # id order: independent of file order
        ]
    templates = {c: t for c, t in templates.items() if t}
    total = sum(len(t) for t in templates.values())
    categories = sorted(templates)
    as_of = max(x.date for p in catalog for x in p.prices).toordinal()

    cpus = [p for p in catalog.by_category["cpu"] if isinstance(p, Cpu)]
    boards = [p for p in catalog.by_category["motherboard"] if isinstance(p, Motherboard)]
    cores: dict[str, list[int]] = defaultdict(list)
    tdp: dict[str, list[int]] = defaultdict(list)
    lanes: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
    channels: dict[str, list[int]] = defaultdict(list)
    gens: dict[str, list[int]] = defaultdict(list)
    for cpu in sorted(cpus, key=lambda p: p.id):
        if cpu.cores:
            cores[cpu.socket].append(cpu.cores)
        if cpu.tdp_w:
            tdp[cpu.socket].append(cpu.tdp_w)
        if cpu.pcie_lanes:
            lanes[cpu.socket].append((cpu.pcie_lanes, cpu.pcie_lanes_total))
        if cpu.memory_channels:
            channels[cpu.socket].append(cpu.memory_channels)
        if cpu.pcie_gen:
            gens[cpu.socket].append(cpu.pcie_gen)
    sockets: dict[str, SocketInfo] = {}
    for socket in sorted({b.socket for b in boards} | set(cores)):
        slots8 = [b.memory_slots == 8 for b in boards if b.socket == socket]
        hedt = max(channels.get(socket, [0])) >= _HEDT_CHANNELS or (bool(slots8) and all(slots8))
        known = sorted({n for n, _ in lanes.get(socket, [])})
        totals = [c.pcie_lanes_total for c in cpus if c.socket == socket and c.pcie_lanes_total]
        # Usable lanes unknown for every CPU of the socket: take the total less a x8 chipset
        # link (sWRX8: 128 -> 120), else a typical CPU of its class.
        design = known[-1] if known else (max(totals) - 8 if totals else (64 if hedt else 20))
        gen = max(gens.get(socket, [4]))
        sockets[socket] = SocketInfo(hedt, design, known[:-1], gen)

    layouts: dict[str, list[tuple[str, list[dict[str, Any]], list[dict[str, Any]] | None]]] = defaultdict(list)
    m2_layouts: dict[str, list[list[dict[str, Any]]]] = defaultdict(list)
    for board in sorted(boards, key=lambda p: p.id):
        spec = _spec(board)
        if board.pcie_slots:
            layouts[board.socket].append((board.form_factor, spec["pcie_slots"], spec.get("m2_slots")))
        elif board.m2_slots:
            m2_layouts[board.socket].append(spec["m2_slots"])

    psus = [p for p in catalog.by_category["psu"] if isinstance(p, Psu)]
    cables = [(p.pcie_8pin, p.watts) for p in psus if p.pcie_8pin]
    per_watt = sum(c for c, _ in cables) / sum(w for _, w in cables) if cables else 6 / 1000

    ram_modules: dict[str, list[int]] = defaultdict(list)
    ram_gb: dict[str, list[int]] = defaultdict(list)
    ram_speeds: dict[str, list[int]] = defaultdict(list)
    for t in templates.get("ram", []):
        key = f"{t.spec['memory_type']}/{bool(t.spec.get('registered'))}"
        ram_modules[key].append(t.spec["modules"])
        ram_gb[key].append(t.spec["module_gb"])
        if "speed_mts" in t.spec:
            ram_speeds[key].append(t.spec["speed_mts"])
    ssd_capacity: dict[str, list[int]] = defaultdict(list)
    for t in templates.get("ssd", []):
        ssd_capacity[t.spec["interface"]].append(t.spec["capacity_gb"])

    pooled: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_category: dict[str, list[float]] = defaultdict(list)
    priced_series: dict[str, list[tuple[list[tuple[int, float, str]], float]]] = defaultdict(list)
    for category, items in templates.items():
        for t in items:
            if t.series:
                level = statistics.median(usd for _, usd, _ in t.series)
                pooled[(category, _group(category, t.spec))].append(level)
                by_category[category].append(level)
                priced_series[category].append((t.series, level))
    group_price = {k: statistics.median(v) for k, v in pooled.items()}
    category_price = {k: statistics.median(v) for k, v in by_category.items()}
    for category, items in templates.items():
        for t in items:
            t.fallback_level = group_price.get(
                (category, _group(category, t.spec)), category_price.get(category, 100.0)
            )
            t.short_note = f"Synthetic variant of {t.id}."
            t.long_note = f"{t.short_note} {t.notes}" if t.notes else None

    first_day = FIRST_DAY.toordinal()
    earliest = min([first_day, *(t.released for items in templates.values() for t in items if t.released)]) - 30
    cum, running = [], 0.0
    for category in categories[:-1]:
        running += len(templates[category]) / total
        cum.append(running)

    return Profile(
        categories=categories,
        weights=[len(templates[c]) / total for c in categories],
        templates=templates,
        as_of=as_of,
        cpu_cores=dict(cores),
        cpu_tdp=dict(tdp),
        cpu_lanes=dict(lanes),
        sockets=sockets,
        layouts=dict(layouts),
        m2_layouts=dict(m2_layouts),
        psu_watts=sorted(t.spec["watts"] for t in templates.get("psu", [])),
        psu_cables_per_watt=per_watt,
        case_slots=sorted(t.spec["expansion_slots"] for t in templates.get("case", []) if "expansion_slots" in t.spec),
        ram_modules=dict(ram_modules),
        ram_module_gb=dict(ram_gb),
        ram_speeds=dict(ram_speeds),
        ssd_capacity=dict(ssd_capacity),
        radiators=sorted(t.spec["radiator_mm"] for t in templates.get("cooler", []) if "radiator_mm" in t.spec),
        group_price=group_price,
        category_price=category_price,
        priced_series=dict(priced_series),
        cum_weights=cum,
        first_day=first_day,
        iso={d: dt.date.fromordinal(d).isoformat() for d in range(earliest, max(as_of, first_day) + 31)},
        counts={c: len(templates[c]) for c in categories},
    )


@functools.cache
def _profile(paths: tuple[str, ...] | None) -> Profile:
    return learn(list(paths) if paths else None)


def fingerprint(catalog_paths: Sequence[str | Path] | None = None) -> str:
    """A hash of this generator and the curated catalog it learns from (for caches)."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for path in catalog_files(catalog_paths):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


# --------------------------------------------------------------------------- one part


def _jitter(rng: random.Random, value: int, spread: int, low: int, high: int) -> int:
    return min(high, max(low, value + rng.randint(-spread, spread)))


def _cpu(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    socket = spec["socket"]
    factor = 1.0
    pool = prof.cpu_cores.get(socket)
    if pool and "cores" in spec and rng.random() < 0.4:
        cores = rng.choice(pool)
        ratio = spec.get("threads", 2 * spec["cores"]) / spec["cores"]
        factor = (cores / spec["cores"]) ** 0.7
        spec["cores"] = cores
        spec["threads"] = max(cores, round(cores * ratio))
    tdps = prof.cpu_tdp.get(socket)
    if tdps and rng.random() < 0.3:
        spec["tdp_w"] = rng.choice(tdps)
    lanes = prof.cpu_lanes.get(socket)
    if lanes and rng.random() < 0.15:
        usable, total = rng.choice(lanes)
        spec["pcie_lanes"] = usable
        if total:
            spec["pcie_lanes_total"] = total
        else:
            spec.pop("pcie_lanes_total", None)
    for key in ("pcie_lanes", "cores", "tdp_w"):
        if key in spec and rng.random() < EXTRA_UNKNOWN:
            del spec[key]
            if key == "pcie_lanes":
                spec.pop("pcie_lanes_total", None)
    return factor


def _gpu(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    if "length_mm" in spec and rng.random() < 0.6:
        spec["length_mm"] = _jitter(rng, spec["length_mm"], 12, 150, 450)
    if "slot_width" in spec and rng.random() < 0.25:
        width = spec["slot_width"] + rng.choice((-0.25, -0.1, 0.1, 0.15, 0.25, 0.5))
        spec["slot_width"] = round(min(5.0, max(1.0, width)), 2)
    if "board_power_w" in spec and spec.get("cooler") != "blower" and rng.random() < 0.3:
        spec["board_power_w"] = min(1000, spec["board_power_w"] + rng.choice((10, 15, 20, 30)))  # factory OC
    for key in ("board_power_w", "slot_width", "length_mm", "cooler", "power"):
        if key in spec and rng.random() < EXTRA_UNKNOWN:
            del spec[key]
    return 1.0


def _psu(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    factor = 1.0
    if rng.random() < 0.3:
        watts = rng.choice(prof.psu_watts)
        factor = (watts / spec["watts"]) ** 0.8
        if "pcie_8pin" in spec:
            spec["pcie_8pin"] = max(2, min(24, round(spec["pcie_8pin"] * watts / spec["watts"])))
        if "low_line_watts" in spec:  # derated in the same proportion, never above the rating
            spec["low_line_watts"] = min(watts, round(spec["low_line_watts"] * watts / spec["watts"]))
        spec["watts"] = watts
    if "pcie_8pin" not in spec and rng.random() < PSU_CABLES_KNOWN:
        cables = round(prof.psu_cables_per_watt * spec["watts"]) + rng.randint(-1, 1)
        spec["pcie_8pin"] = max(2, min(24, cables))
    if "hpwr_12v" not in spec and spec.get("atx_version") == "3.0" and rng.random() < 0.5:
        spec["hpwr_12v"] = rng.choice((1, 1, 2))
    if "length_mm" in spec and rng.random() < 0.3:
        spec["length_mm"] = _jitter(rng, spec["length_mm"], 10, 120, 300)
    if "pcie_8pin" in spec and rng.random() < EXTRA_UNKNOWN:
        del spec["pcie_8pin"]
    return factor


def _case(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    if prof.case_slots and rng.random() < 0.3:
        spec["expansion_slots"] = rng.choice(prof.case_slots)
    if "max_gpu_length_mm" in spec and rng.random() < 0.5:
        spec["max_gpu_length_mm"] = _jitter(rng, spec["max_gpu_length_mm"], 15, 200, 600)
    if "max_cooler_height_mm" in spec and rng.random() < 0.3:
        spec["max_cooler_height_mm"] = _jitter(rng, spec["max_cooler_height_mm"], 8, 60, 250)
    for key in ("expansion_slots", "max_gpu_length_mm"):
        if key in spec and rng.random() < EXTRA_UNKNOWN:
            del spec[key]
    return 1.0


def _ram(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    key = f"{spec['memory_type']}/{bool(spec.get('registered'))}"
    before = spec["modules"] * spec["module_gb"]
    if rng.random() < 0.5:
        spec["modules"] = rng.choice(prof.ram_modules[key])
        spec["module_gb"] = rng.choice(prof.ram_module_gb[key])
    if prof.ram_speeds.get(key) and rng.random() < 0.3:
        spec["speed_mts"] = rng.choice(prof.ram_speeds[key])
    return float((spec["modules"] * spec["module_gb"] / before) ** 0.9)


def _ssd(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    before = spec["capacity_gb"]
    if rng.random() < 0.4:
        spec["capacity_gb"] = rng.choice(prof.ssd_capacity[spec["interface"]])
    return float((spec["capacity_gb"] / before) ** 0.8)


def _cooler(rng: random.Random, prof: Profile, spec: dict[str, Any]) -> float:
    if "height_mm" in spec and rng.random() < 0.4:
        spec["height_mm"] = _jitter(rng, spec["height_mm"], 6, 30, 250)
    if spec.get("kind") == "aio" and prof.radiators and rng.random() < 0.4:
        spec["radiator_mm"] = rng.choice(prof.radiators)
    if "kind" in spec and rng.random() < EXTRA_UNKNOWN:
        del spec["kind"]
    return 1.0


# ----------------------------------------------------------------- motherboard slot maps

_LABELS = {  # (x16-size slot, other slot, M.2) label styles, by brand as in the curated maps/notes
    "ASUS": ("PCIEX16_{n}", "PCIEX1_{n}", "M.2_{n}"),
    "MSI": ("PCI_E{n}", "PCI_E{n}", "M2_{n}"),
    "Gigabyte": ("PCIEX16_{n}", "PCIEX1_{n}", "M2{n}"),
    "ASRock": ("PCIE{n}", "PCIE{n}", "M2_{n}"),
}
_DEFAULT_LABELS = ("SLOT{n}", "SLOT{n}", "M.2-P{n}")


def _wire(budget: int, count: int) -> list[int]:
    """Electrical widths for ``count`` CPU slots from ``budget`` lanes: x8 each, then x16
    from the top while lanes last; x4, then off, from the bottom when even x8 does not fit."""
    widths = [8] * count
    spare = budget - 8 * count
    for i in range(count):
        if spare >= 8:
            widths[i] = 16
            spare -= 8
    for wide, narrow in ((8, 4), (4, 0)):
        for i in reversed(range(count)):
            if spare < 0 and widths[i] == wide:
                widths[i] = narrow
                spare += wide - narrow
    return widths


def _layout(
    rng: random.Random, prof: Profile, spec: dict[str, Any], brand: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    """A slot map for a board: a real one (maybe varied) or one made for its socket and size."""
    socket = spec["socket"]
    limit = FORM_FACTORS[spec["form_factor"]]
    real = [lay for lay in prof.layouts.get(socket, []) if max(s.get("position") or 0 for s in lay[1]) <= limit]
    if real and rng.random() < REAL_LAYOUT_SHARE:
        _ff, slots, m2 = rng.choice(real)
        slots = [dict(s) for s in slots]
        if len(slots) > 2 and rng.random() < 0.25:  # fewer x16 slots: drop one, and what refers to it
            gone = slots.pop(rng.randrange(1, len(slots)))["label"]
            for s in slots:
                if any(x["when"] == gone for x in s.get("shares", ())):
                    s["shares"] = [x for x in s["shares"] if x["when"] != gone]
                    if not s["shares"]:
                        del s["shares"]
        if rng.random() < 0.2:  # the last slot hangs off the chipset at x4 (x1 in a x1 slot)
            last = slots[-1]
            for key in ("lanes_by_cpu", "shares"):
                last.pop(key, None)
            lanes = min(4, last.get("physical") or 4)
            last.update(lanes=lanes, source="chipset", gen=max(2, (last.get("gen") or 4) - 1))
        if m2 is None and rng.random() < M2_MAP_SHARE:
            m2 = _m2(rng, prof.sockets[socket], spec, brand, cpu_m2=1 if prof.sockets[socket].hedt else 0, start=1)
            if m2 and rng.random() < 0.35:  # an M.2 socket that takes the last slot's lanes
                shared = rng.choice(m2)["label"]
                slots[-1]["shares"] = [*slots[-1].get("shares", []), {"when": shared, "lanes": 0}]
        return slots, m2
    return _made_layout(rng, prof.sockets[socket], spec, brand, limit)


def _made_layout(
    rng: random.Random, info: SocketInfo, spec: dict[str, Any], brand: str, limit: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]] | None]:
    big, small, _m2label = _LABELS.get(brand, _DEFAULT_LABELS)
    gen = info.gen
    chipset_gen = max(2, gen - 1)
    if limit == 1:
        count = 1
    elif info.hedt:
        count = rng.choices((2, 3, 4, 5, 7), weights=(12, 18, 45, 10, 15))[0]
    else:
        count = rng.choices((1, 2, 3), weights=(35, 45, 20))[0]
    step = rng.choices((2, 1, 3), weights=(60, 25, 15))[0] if info.hedt else rng.choices((2, 3), weights=(70, 30))[0]
    start = 2 if rng.random() < 0.3 else 1
    if count >= 5:
        step, start = 1, 1  # five or seven x16 slots only fit packed (like the ASUS SAGE boards)
    positions = [p for p in range(start, limit + 1, step)][:count]
    if len(positions) < min(count, limit):
        positions = list(range(1, limit + 1))[:count]
    count = len(positions)
    if info.hedt:  # one to three M.2 sockets on CPU lanes, as long as every slot keeps x8
        cpu_m2 = min(rng.choice((1, 2, 3)), max(0, (info.board_lanes - 8 * count) // 4))
    else:  # mainstream: x16 for the slots, the rest of the CPU's lanes as M.2 x4 sockets
        cpu_m2 = max(0, min(2, (info.board_lanes - 16) // 4))
    packed = info.hedt and step == 1 and count >= 5
    slots: list[dict[str, Any]] = []
    if info.hedt:
        widths = _wire(info.board_lanes - 4 * cpu_m2, count)
        smaller = {} if packed else {n: _wire(n - 4 * min(cpu_m2, 1), count) for n in info.smaller}
    else:
        widths = [16] + [8] * (count - 1)
        smaller = {}
    for i, pos in enumerate(positions):
        slot: dict[str, Any] = {
            "label": big.format(n=pos),
            "position": pos,
            "physical": 16,
            "lanes": widths[i],
            "gen": gen,
            "source": "cpu",
        }
        by_cpu = {n: w[i] for n, w in smaller.items() if w[i] != widths[i]}
        if by_cpu:
            slot["lanes_by_cpu"] = by_cpu
        slots.append(slot)
    if not info.hedt and count > 1:  # mainstream: the CPU's x16 splits x8/x8 (or x8/x4/x4)
        first, second = slots[0], slots[1]
        first["shares"] = [{"when": second["label"], "lanes": 8}]
        if count > 2:
            second["shares"] = [{"when": slots[2]["label"], "lanes": 4}]
            slots[2]["lanes"] = 4
            first["shares"].append({"when": slots[2]["label"], "lanes": 8})
    if packed:  # seven (or five) packed slots: neighbours halve each other, like the ASUS SAGE boards
        for i, slot in enumerate(slots):
            slot["lanes"] = 16 if i % 2 == 0 else 8
            if i % 2 == 0:
                halves = [{"when": slots[j]["label"], "lanes": 8} for j in (i - 1, i + 1) if 0 <= j < count]
                if halves:
                    slot["shares"] = halves
            if info.board_lanes < 8 * count:  # more than the CPU has: a PCIe switch feeds them
                slot["source"] = "switch"
    elif count >= 3 and rng.random() < 0.2:  # x16/x4 variant: the last x16-size slot is the chipset's
        last = slots[-1]
        last.update(lanes=4, source="chipset", gen=chipset_gen)
        last.pop("lanes_by_cpu", None)
        last.pop("shares", None)
        for slot in slots:
            kept = [x for x in slot.get("shares", []) if x["when"] != last["label"]]
            if kept:
                slot["shares"] = kept
            else:
                slot.pop("shares", None)
    used = {s["position"] for s in slots}
    free = [p for p in range(1, limit + 1) if p not in used]
    rng.shuffle(free)
    extra: list[dict[str, Any]] = []

    def chipset_slot(label: str, pos: int, size: int) -> dict[str, Any]:
        return {
            "label": label.format(n=pos),
            "position": pos,
            "physical": size,
            "lanes": min(size, 4),
            "gen": chipset_gen,
            "source": "chipset",
        }

    if free and rng.random() < 0.5:
        extra.append(chipset_slot(big, free.pop(), 16))  # a x16-size slot wired x4
    for _ in range(rng.choice((0, 0, 1, 2))):
        if free:
            extra.append(chipset_slot(small, free.pop(), 1))
    slots = sorted(slots + extra, key=lambda s: s["position"])
    m2 = _m2(rng, info, spec, brand, cpu_m2=cpu_m2, start=1) if rng.random() < M2_MAP_SHARE else None
    if m2:
        chipset_m2 = [m for m in m2 if m["source"] == "chipset"]
        chipset_x4 = [s for s in slots if s["source"] == "chipset" and s["physical"] == 16]
        if chipset_m2 and chipset_x4 and rng.random() < 0.5:  # the chipset slot yields to an M.2
            chipset_x4[0]["shares"] = [{"when": chipset_m2[-1]["label"], "lanes": 0}]
        elif count > 1 and rng.random() < 0.3:  # a CPU M.2 socket and the last CPU slot exclude each other
            cpu_slots = [s for s in slots if s["source"] == "cpu"]
            cpu_m2s = [m for m in m2 if m["source"] == "cpu"]
            if cpu_slots and cpu_m2s:
                victim, socket_ = cpu_slots[-1], cpu_m2s[-1]
                victim["shares"] = [*victim.get("shares", []), {"when": socket_["label"], "lanes": 0}]
                socket_["shares"] = [{"when": victim["label"], "lanes": 0}]
    return slots, m2


def _m2(
    rng: random.Random, info: SocketInfo, spec: dict[str, Any], brand: str, cpu_m2: int, start: int
) -> list[dict[str, Any]]:
    label = _LABELS.get(brand, _DEFAULT_LABELS)[2]
    out: list[dict[str, Any]] = []
    n = start
    for _ in range(cpu_m2):
        out.append(
            {
                "label": label.format(n=n),
                "interfaces": ["nvme"],
                "lanes": 4,
                "gen": info.gen,
                "source": "cpu",
                "max_length": 22110 if info.hedt and rng.random() < 0.3 else 2280,
            }
        )
        n += 1
    for _ in range(rng.choice((0, 1, 1, 2) if info.hedt else (1, 1, 2, 3))):
        out.append(
            {
                "label": label.format(n=n),
                "interfaces": ["nvme", "sata"] if rng.random() < 0.4 else ["nvme"],
                "lanes": 4,
                "gen": max(3, info.gen - 1),
                "source": "chipset",
                "max_length": 22110 if rng.random() < 0.15 else 2280,
            }
        )
        n += 1
    for m in out:  # the manual names the sharing (none here) unless it is left unknown
        if rng.random() >= M2_SHARES_UNKNOWN:
            m["shares"] = []
    return out


def _motherboard(rng: random.Random, prof: Profile, spec: dict[str, Any], brand: str) -> float:
    spec.pop("pcie_slots", None)
    spec.pop("m2_slots", None)
    factor = 1.0
    if rng.random() < SLOT_MAP_SHARE:
        slots, m2 = _layout(rng, prof, spec, brand)
        spec["pcie_slots"] = slots
        if m2 is not None:
            spec["m2_slots"] = m2
        big = sum(1 for s in slots if s.get("physical") == 16 and s["lanes"] >= 8)
        factor = 0.8 + 0.1 * big
    elif prof.m2_layouts.get(spec["socket"]) and rng.random() < 0.2:  # the M.2 map alone is known
        spec["m2_slots"] = rng.choice(prof.m2_layouts[spec["socket"]])
    for key in ("memory_type", "max_memory_gb"):
        if key in spec and rng.random() < EXTRA_UNKNOWN:
            del spec[key]
    return factor


_VARY = {
    "cpu": _cpu,
    "gpu": _gpu,
    "psu": _psu,
    "case": _case,
    "ram": _ram,
    "ssd": _ssd,
    "cooler": _cooler,
}


# ------------------------------------------------------------------------------ prices


def _price(usd: float) -> float:
    if usd >= 20:
        return round(usd) - 0.01 if usd % 1 > 0.5 else float(round(usd))
    return round(usd, 2)


def _prices(rng: random.Random, prof: Profile, category: str, t: Template, factor: float) -> list[dict[str, Any]]:
    # Hot path (a million calls for a 1M catalog): rng.random() arithmetic instead of
    # randint/choice/gauss, and dates as ordinals with a lookup table of ISO strings.
    rand = rng.random
    series = t.series
    level = 1.0
    if not series:
        pool = prof.priced_series.get(category)
        if not pool or rand() < 0.5:
            return []  # about half the curated catalog's no-price share stays unpriced
        series, median = pool[int(rand() * len(pool))]
        level = t.fallback_level / median
    first, last = prof.first_day, prof.as_of
    # A stale part: every point moved back far enough that the +-45-day jitter keeps it > 365 days old.
    shift = -420 - int(rand() * 181) if rand() < STALE_SHARE else 0
    level *= factor * (0.85 + 0.3 * rand())
    out: list[tuple[int, float, str]] = []
    for day, usd, kind in series:
        day += shift + int(rand() * 91) - 45
        out.append((first if day < first else last if day > last else day, usd * level * (0.9 + 0.2 * rand()), kind))
    if rand() < 0.15:  # a point from the years the curated snapshots skip
        out.append((first + int(rand() * (last + shift - first)), out[-1][1] * (0.95 + 0.3 * rand()), "street"))
        out.sort()
    if rand() < USED_SHARE:
        day, usd, _ = out[-1]
        out.append((day, usd * (0.55 + 0.2 * rand()), "used"))
    iso = prof.iso
    return [
        {"usd": _price(usd), "date": iso[day], "source": f"synthetic {kind} price on {iso[day]}", "kind": kind}
        for day, usd, kind in out
    ]


# ------------------------------------------------------------------------------ chunks


def _part(rng: random.Random, prof: Profile, index: int, width: int) -> dict[str, Any]:
    rand = rng.random
    category = prof.categories[bisect.bisect(prof.cum_weights, rand())]
    pool = prof.templates[category]
    t = pool[int(rand() * len(pool))]
    spec = dict(t.spec)
    number = f"{index:0{width}d}"
    vary = _VARY.get(category)
    factor = vary(rng, prof, spec) if vary else _motherboard(rng, prof, spec, t.brand)
    part: dict[str, Any] = {
        "category": category,
        "id": f"synth-{category}-{number}",
        "name": f"{t.name} (synthetic {number})",
        "brand": t.brand,
    }
    if t.aliases:
        part["aliases"] = [f"{a} {number}" for a in t.aliases[: int(rand() * (len(t.aliases) + 1))]]
    if t.released is not None:
        part["released"] = prof.iso[t.released + int(rand() * 41) - 20]
    part.update(spec)
    prices = _prices(rng, prof, category, t, factor)
    if prices:
        part["prices"] = prices
    part["sources"] = t.sources[: 1 + int(rand() * len(t.sources))]
    part["notes"] = t.long_note if t.long_note and rand() < NOTES_SHARE else t.short_note
    return part


def _width(n_parts: int) -> int:
    return max(6, len(str(max(0, n_parts - 1))))


def _chunk(prof: Profile, seed: int, chunk: int, n_parts: int) -> list[dict[str, Any]]:
    rng = random.Random(f"partpicker-synth:{seed}:{chunk}")
    width = _width(n_parts)
    return [_part(rng, prof, i, width) for i in range(chunk * CHUNK, min(n_parts, (chunk + 1) * CHUNK))]


_ENCODER = json.JSONEncoder(separators=(",", ":"))


def _dump(part: dict[str, Any]) -> str:
    return _ENCODER.encode(part)


def generate(n_parts: int, seed: int, catalog_paths: Sequence[str | Path] | None = None) -> Iterator[dict[str, Any]]:
    """The parts of a synthetic catalog, one dict at a time (a chunk is held at once)."""
    prof = _profile(tuple(str(p) for p in catalog_paths) if catalog_paths else None)
    for chunk in range(math.ceil(n_parts / CHUNK)):
        yield from _chunk(prof, seed, chunk, n_parts)


_WORKER: Profile | None = None


def _init_worker(prof: Profile) -> None:
    global _WORKER
    _WORKER = prof


def _chunk_text(args: tuple[int, int, int]) -> str:
    seed, chunk, n_parts = args
    assert _WORKER is not None
    return "".join(_dump(p) + "\n" for p in _chunk(_WORKER, seed, chunk, n_parts))


def write(
    path: str | Path,
    n_parts: int,
    seed: int,
    jobs: int | None = None,
    catalog_paths: Sequence[str | Path] | None = None,
) -> int:
    """Write a synthetic catalog as JSON Lines; returns its size in bytes.

    ``jobs`` processes make chunks in parallel (default: one per CPU for 50k parts or
    more); the file is the same whatever ``jobs`` is. It is written beside ``path`` and
    renamed into place only when complete.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    prof = _profile(tuple(str(p) for p in catalog_paths) if catalog_paths else None)
    chunks = [(seed, c, n_parts) for c in range(math.ceil(n_parts / CHUNK))]
    if jobs is None:
        jobs = 1
    tmp = path.with_name(path.name + ".part")
    try:
        with tmp.open("w", encoding="utf-8", newline="\n") as out:
            if jobs > 1 and len(chunks) > 1:
                with multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(prof,)) as pool:
                    for text in pool.imap(_chunk_text, chunks):
                        out.write(text)
            else:
                _init_worker(prof)
                for args in chunks:
                    out.write(_chunk_text(args))
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    return path.stat().st_size


# ------------------------------------------------------------------------------- stats


def summarize(parts: Iterable[dict[str, Any]], as_of: dt.date | None = None) -> dict[str, Any]:
    """Shares that say whether a catalog is realistic and how much of it is useless."""
    as_of = as_of or dt.date.fromordinal(_profile(None).as_of)
    stale_before = (as_of - dt.timedelta(days=365)).isoformat()
    count: Counter[str] = Counter()
    flags: Counter[str] = Counter()
    for p in parts:
        cat = p["category"]
        count[cat] += 1
        prices = p.get("prices", [])
        if not prices:
            flags["no price"] += 1
        elif max(x["date"] for x in prices) < stale_before:
            flags["stale price (> 1 year before as-of)"] += 1
        if cat == "motherboard":
            flags["board: slot map"] += "pcie_slots" in p
            flags["board: M.2 map"] += "m2_slots" in p
        elif cat == "cpu":
            lanes = p.get("pcie_lanes")
            flags["cpu: lanes unknown"] += lanes is None
            flags["cpu: < 36 lanes"] += lanes is not None and lanes < 36
        elif cat == "psu":
            flags["psu: < 1400 W"] += p["watts"] < 1400
            flags["psu: cable count known"] += "pcie_8pin" in p
        elif cat == "case":
            flags["case: <= 7 slots"] += p.get("expansion_slots", 99) <= 7
        elif cat == "gpu":
            flags["gpu: blower"] += p.get("cooler") == "blower"
            flags["gpu: > 2 slots wide"] += p.get("slot_width", 0) > 2
            flags["gpu: board power unknown"] += "board_power_w" not in p
    total = sum(count.values())
    base = {"board": "motherboard", "cpu": "cpu", "psu": "psu", "case": "case", "gpu": "gpu"}
    shares = {
        name: value / (count[base[name.split(":")[0]]] if ":" in name else total) if total else 0.0
        for name, value in sorted(flags.items())
    }
    return {"parts": total, "mix": {c: count[c] / total for c in sorted(count)}, "shares": shares}


# --------------------------------------------------------------------------------- CLI


def _size(text: str) -> int:
    text = text.strip().lower().replace("_", "")
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    return int(float(text[:-1] if scale > 1 else text) * scale)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=_size, required=True, help="how many parts (1000, 100k, 1M)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="the .jsonl file to write")
    parser.add_argument("--jobs", type=int, default=None, help="processes (default: one per CPU from 50k parts)")
    parser.add_argument("--stats", action="store_true", help="print the category mix and useless-part shares")
    args = parser.parse_args(argv)
    if args.out is None and not args.stats:
        parser.error("give --out FILE, or --stats")
    if args.out is not None:
        start = time.perf_counter()
        size = write(args.out, args.parts, args.seed, jobs=args.jobs)
        took = time.perf_counter() - start
        print(f"{args.out}: {args.parts:,} parts, {size / 1e6:.1f} MB, {took:.1f} s")
    if args.stats:
        summary = summarize(generate(args.parts, args.seed))
        print(f"{summary['parts']:,} parts")
        for cat, share in summary["mix"].items():
            print(f"  {cat:<12} {share:6.1%}")
        for name, share in summary["shares"].items():
            print(f"  {name:<40} {share:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
