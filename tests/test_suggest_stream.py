"""`suggest` on a JSON Lines catalog read streaming (:mod:`partpicker.suggest.reduce`) keeps only
what the request can choose, and answers exactly as on the whole catalog: the same builds,
totals, reasons, near misses, counts and why-lines; a catalog it cannot reduce exactly is
not reduced."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import shutil
from pathlib import Path
from typing import Any

import msgspec
import pytest

from partpicker.catalog import Catalog, load_catalog
from partpicker.catalog.checks import CURATION_ONLY, check_catalog
from partpicker.pricing import fresh_price
from partpicker.rules.rulebook import load_rules
from partpicker.suggest.answer import Solution, solve
from partpicker.suggest.formats import json as suggest_json
from partpicker.suggest.formats import text as suggest_text
from partpicker.suggest.offer import Request, gpu_model_test
from partpicker.suggest.reduce import streamed_catalog

from .conftest import fast_first
from .support.random_catalog import DAY, make

RULES = load_rules()
SIZES = {"cpu": 14, "motherboard": 10, "gpu": 14, "ram": 6, "ssd": 5, "psu": 10, "case": 8, "cooler": 5}
"""Several parts per class, so that the reduction has something to leave out."""


def as_jsonl(catalog: Catalog, path: Path, copies: int = 1) -> Path:
    """Write a catalog as JSON Lines, but its parts that `catalog check` rejects (the random
    catalogs are made for the rules, not for the checks); ``copies`` > 1 repeats each part
    under new ids and names at other prices (more parts alike)."""
    rng = random.Random(len(catalog))
    lines = []
    for copy in range(copies):
        for part in catalog:
            raw = part.model_dump(mode="json")
            if copy:
                raw["id"], raw["name"], raw["aliases"] = f"{part.id}-c{copy}", f"{part.name} copy {copy}", []
                for price in raw["prices"]:
                    price["usd"] = round(price["usd"] * rng.choice([0.9, 1.0, 1.1]), 2)
            lines.append({"category": part.category, **raw})
    _write(path, lines)
    _, problems = check_catalog([path], skip=CURATION_ONLY)
    bad = {p.line for p in problems if p.severity == "error"}
    return _write(path, [line for number, line in enumerate(lines, 1) if number not in bad])


def _everything(solution: Solution) -> tuple[Any, ...]:
    """All an answer says (its JSON, its text, and the reasons behind both)."""
    return (
        json.dumps(suggest_json.as_dict(solution, None), sort_keys=True, default=str),
        suggest_text.text(solution, None),
        solution.reason,
        solution.binding,
        solution.retry_as_of,
        solution.near_miss and (solution.near_miss.rule, solution.near_miss.message),
    )


def _request(rng: random.Random) -> Request:
    gpus = rng.choice([1, 2, 4])
    return Request(
        gpus=gpus,
        start_gpus=rng.randint(1, gpus),
        min_vram=rng.choice([0, 0, 12]),
        min_storage_gb=rng.choice([0, 500]),
        as_of=DAY,
        stale_days=rng.choice([None, None, 200]),
        top=rng.choice([1, 1, 3]),
        strict=rng.random() < 0.3,
        allow_unknown=rng.random() < 0.3,
        objective=rng.choice(["now", "full"]),
        budget=rng.choice([None, None, 1500.0, 3000.0]),
        psus=2 if rng.random() < 0.15 else 1,
    )


@pytest.mark.parametrize("seed", fast_first(range(60), 1))
def test_streamed_answers_equal_whole_catalog_answers(seed: int, tmp_path: Path) -> None:
    rng = random.Random(70_000 + seed)
    path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl", copies=2)
    for i in range(3):
        request = _request(rng)
        # a fresh one (the tests load a file once): the search counts the rule checks its memos spare
        whole = load_catalog([shutil.copy(path, tmp_path / f"whole-{i}.jsonl")])
        streamed = streamed_catalog([path], RULES, request)
        assert streamed is not None
        assert len(streamed) < len(whole)  # it left something out
        assert _everything(solve(streamed, RULES, request)) == _everything(solve(whole, RULES, request))


@pytest.mark.parametrize("seed", fast_first(range(12), 2))
def test_a_reduction_knows_the_classes_a_search_would_cut(seed: int, tmp_path: Path) -> None:
    """Where a search reads the fields the reduction read of a role and keeps as many parts
    of each class, the reduced parts are already its cut (:meth:`Reduction.classes`): the
    cut of them gives them all back in their order, in as many classes; elsewhere it is not
    claimed."""
    from partpicker.suggest.offer import VARIETY_ROLES
    from partpicker.suggest.reduce import class_key, frozen_value
    from partpicker.suggest.search import Search, _cost_then_id

    rng = random.Random(71_000 + seed)
    path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl", copies=3)
    known = 0
    for _ in range(4):
        request = _request(rng)
        streamed = streamed_catalog([path], RULES, request)
        assert streamed is not None and streamed.reduction is not None
        for strict in (request.strict, True):
            search = Search(streamed, RULES, dataclasses.replace(request, strict=strict), count_failures=False)
            for role in request.roles:
                keep = search.request.top if role in VARIETY_ROLES else 1
                items = sorted(
                    ((p.part, p.usd * request.weight(role)) for p in search.offered[role]), key=_cost_then_id
                )
                fields = search._fields(role)
                classes = streamed.reduction.classes(role, fields, keep)
                cut = search._alike_cheapest(role, items)
                if classes is not None:
                    known += 1
                    assert cut == items and search.alike_classes[role] == classes
                # (fewer fields, or more of each class kept: cut again)
                assert streamed.reduction.classes(role, fields[1:], keep) is None
                assert streamed.reduction.classes(role, fields, keep + 1) is None
                # and by the keys it kept the parts by, on these or fewer fields: the search's keys
                for some in (fields, fields[1:], fields[:1], fields[::2], ()):
                    key_of = streamed.reduction.key_of(role, some)
                    assert key_of is not None
                    assert [key_of(p) for p, _ in items] == [class_key(some, frozen_value)(p) for p, _ in items]
                assert streamed.reduction.key_of(role, (*fields, "name")) is None
    assert known


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_stand_ins_a_reduction_remembers_are_the_searchs(jobs: int, tmp_path: Path) -> None:
    """The stand-ins of the kept parts' nested values (slot maps, power sockets) that the
    reduction leaves with the catalog's freezer are the ones the search would make of them,
    whichever process read the part."""
    from partpicker.suggest.reduce import Freezer, frozen_value

    rng = random.Random(72_000)
    path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl", copies=3)
    request = dataclasses.replace(_request(rng), top=1)
    streamed = streamed_catalog([path], RULES, request, jobs=jobs)
    assert streamed is not None and streamed.reduction is not None
    remembered = Freezer.of(streamed)
    assert remembered.by_id  # (it remembers some)
    asked = 0
    for role, fields in streamed.reduction.fields.items():
        for part in streamed.entries(role):
            for name in fields:
                value = getattr(part, name)
                if type(frozen_value(value)) is bytes:
                    asked += 1
                    assert id(value) in remembered.by_id
                    assert remembered(value) == frozen_value(value) == Freezer({}, {})(value)
    assert asked


@pytest.mark.parametrize("seed", range(3))
def test_a_records_class_key_is_the_searchs(seed: int, tmp_path: Path) -> None:
    """The reduction's class key of a record (:func:`record_key`, by the fields' declared
    types) is :func:`class_key` with the search's stand-ins, on every spec field, for the
    records of every category (empty, unknown and nested values included)."""
    from partpicker.catalog import read_catalog
    from partpicker.catalog.checks.interface import PART_CHECKS
    from partpicker.models import CATEGORIES, spec_fields
    from partpicker.suggest.reduce import class_key, frozen_value, record_key

    rng = random.Random(73_000 + seed)
    path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl", copies=2)
    seen: list[tuple[Any, str]] = []
    checks = {cid: fn for cid, fn in PART_CHECKS.items() if cid not in CURATION_ONLY}
    read_catalog([path], part_checks=checks, keep=lambda record, category, *_: seen.append((record, category)))
    for record in [r for r, c in seen if c == "motherboard"][:3]:  # (and an empty slot map, an unknown one)
        for value in ((), None):
            seen.append((msgspec.structs.replace(record, pcie_slots=value, m2_slots=value), "motherboard"))
    assert {category for _, category in seen} == set(CATEGORIES)
    for record, category in seen:
        fields = tuple(sorted(spec_fields(CATEGORIES[category])))
        assert record_key(category, fields)(record) == class_key(fields, frozen_value)(record)
        for name in fields:  # (one field at a time: the single-field path)
            assert record_key(category, (name,))(record) == class_key((name,), frozen_value)(record)


def test_the_checks_a_streamed_read_skips_only_warn() -> None:
    """`suggest` reads only the errors of its checks, so it does not run those that only warn
    (:data:`WARNING_CHECKS`): each of them finds warnings, and nothing else, on every part of
    the bundled catalog and on parts made to trip it."""
    from partpicker.catalog.checks.interface import PART_CHECKS, WARNING_CHECKS
    from partpicker.models import EVIDENCE_KINDS, spec_fields

    assert {"evidence-default", "evidence-unknown"} <= WARNING_CHECKS <= set(PART_CHECKS)
    parts = list(load_catalog())
    gap = next((p, name) for p in parts for name in spec_fields(type(p)) if getattr(p, name) is None)
    part, unknown = gap
    evidence = {unknown: {"kind": EVIDENCE_KINDS[0], "source": "a test"}}
    tripped = [
        part.model_copy(update={"evidence": None}),
        type(part).model_validate({**part.model_dump(), "field_evidence": evidence}),
    ]
    for check_id in WARNING_CHECKS:
        found = [f for p in [*parts, *tripped] for f in PART_CHECKS[check_id](p)]
        assert found and {f.severity for f in found} == {"warning"}, check_id


def test_memory_follows_the_classes(tmp_path: Path) -> None:
    """Ten copies of a catalog keep no more parts than one copy has classes (times --top)."""
    rng = random.Random(5)
    base = make(rng, SIZES)
    one = streamed_catalog([as_jsonl(base, tmp_path / "one.jsonl")], RULES, Request(as_of=DAY, min_vram=0))
    ten = streamed_catalog([as_jsonl(base, tmp_path / "ten.jsonl", 10)], RULES, Request(as_of=DAY, min_vram=0))
    assert one is not None and ten is not None
    assert len(ten) <= len(one)  # a copy is alike to its original: one of each class is kept
    assert ten.reduction.offered("cpu") == 10 * one.reduction.offered("cpu")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("defect", ["duplicate-id", "alias-conflict", "own-alias-conflict", "bad-line"])
def test_a_catalog_with_a_problem_is_not_reduced(defect: str, tmp_path: Path) -> None:
    """Loading it whole reports the problem exactly (file, line, words)."""
    lines = _lines(as_jsonl(make(random.Random(3), SIZES), tmp_path / "good.jsonl"))
    cpus = [line for line in lines if line["category"] == "cpu"]
    if defect == "duplicate-id":
        lines.append({**cpus[0], "name": "Another name"})
    elif defect == "alias-conflict":
        cpus[1]["aliases"] = [cpus[0]["name"].upper()]
    elif defect == "own-alias-conflict":  # an alias that is its own name, and another part of that name
        cpus[1]["name"], cpus[1]["aliases"] = cpus[0]["name"], [cpus[0]["name"]]
    else:
        lines.append({**cpus[0], "id": "fresh-id", "name": "Fresh", "cores": -1})
    path = _write(tmp_path / "bad.jsonl", lines)
    assert streamed_catalog([path], RULES, Request(as_of=DAY)) is None


def test_two_parts_of_one_name_are_reduced(tmp_path: Path) -> None:
    """(A name twice is no problem: only an alias naming two parts is.)"""
    lines = _lines(as_jsonl(make(random.Random(4), SIZES), tmp_path / "good.jsonl"))
    cpus = [line for line in lines if line["category"] == "cpu"]
    cpus[1]["name"] = cpus[0]["name"]
    assert streamed_catalog([_write(tmp_path / "names.jsonl", lines)], RULES, Request(as_of=DAY)) is not None


@pytest.mark.parametrize("seed", fast_first(range(20), 1))
def test_a_gpu_model_streams_and_answers_alike(seed: int, tmp_path: Path) -> None:
    rng = random.Random(80_000 + seed)
    path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl", copies=2)
    for i, model in enumerate(["RTX 3090", "GTX 1080 Ti"]):
        request = dataclasses.replace(_request(rng), gpu=model)
        whole = load_catalog([shutil.copy(path, tmp_path / f"whole-{i}.jsonl")])
        streamed = streamed_catalog([path], RULES, request)
        if streamed is None:  # only when no card of the model is on offer (the whole catalog answers)
            of_model = gpu_model_test(model)
            on_offer = [g for g in whole.entries("gpu") if fresh_price(g, DAY, request.stale_days) and of_model(g.chip)]
            assert not on_offer
            continue
        assert all(request.gpu.split()[-1] in card.chip for card in streamed.entries("gpu"))
        assert _everything(solve(streamed, RULES, request)) == _everything(solve(whole, RULES, request))


@pytest.mark.parametrize(
    "change", [{"exclude": ("x",)}, {"require": {"cpu": "x"}}, {"gpu": "RTX 2080"}, {"verified_only": True}]
)
def test_a_request_naming_parts_reads_the_whole_catalog(change: dict[str, Any], tmp_path: Path) -> None:
    path = as_jsonl(make(random.Random(6), SIZES), tmp_path / "c.jsonl")
    assert streamed_catalog([path], RULES, dataclasses.replace(Request(as_of=DAY), **change)) is None


def test_yaml_and_own_parts_read_the_whole_catalog(tmp_path: Path) -> None:
    path = as_jsonl(make(random.Random(6), SIZES), tmp_path / "c.jsonl")
    assert streamed_catalog(None, RULES, Request(as_of=DAY)) is None  # the bundled YAML catalog
    assert streamed_catalog([path], RULES, Request(as_of=DAY), overlays=True) is None


def test_a_reduced_catalog_answers_only_its_own_request(tmp_path: Path) -> None:
    path = as_jsonl(make(random.Random(7), SIZES), tmp_path / "c.jsonl")
    request = Request(as_of=DAY, min_vram=0)
    streamed = streamed_catalog([path], RULES, request)
    assert streamed is not None
    for same in ({"allow_unknown": True}, {"gpus": 2}, {"budget": 10.0}):  # it offers and weighs alike
        solve(streamed, RULES, dataclasses.replace(request, **same))
    for other in ({"top": 3}, {"min_vram": 12.0}, {"start_gpus": 2}, {"objective": "full"}, {"stale_days": 30}):
        with pytest.raises(ValueError, match="reduced for another request"):
            solve(streamed, RULES, dataclasses.replace(request, **other))


def test_repeats_are_found_exactly() -> None:
    """The hash check: only equal values are repeats (not values alike in their low bits)."""
    from array import array

    from partpicker.suggest.reduce import _repeats

    _LOW = 1 << 24

    rng = random.Random(1)
    values = array("q", {rng.getrandbits(62) - 2**61 for _ in range(5000)})
    alike_low = array("q", [v + _LOW * rng.randint(1, 1000) for v in values[:100]])  # same low bits
    assert not _repeats(values) and not _repeats(values + alike_low)
    assert not _repeats(values[:2500], values[2500:]) and not _repeats(values, alike_low)
    assert _repeats(values + values[7:8])
    assert _repeats(values[:2500], array("q", [values[1234]]))
    assert not _repeats(array("q"), values) and not _repeats(array("q", [5]))


def test_the_command_streams_and_says_what_is_wrong_with_a_broken_file(tmp_path: Path) -> None:
    """`suggest --catalog X.jsonl` answers as on the whole catalog, and a duplicate id is
    still reported at its line (exit 2), as before."""
    from typer.testing import CliRunner

    from partpicker.cli import app

    path = as_jsonl(make(random.Random(8), SIZES), tmp_path / "c.jsonl", copies=2)
    args = ["suggest", "--gpus", "2", "--as-of", str(DAY), "--min-vram", "0", "-f", "json", "--catalog"]
    result = CliRunner().invoke(app, [*args, str(path)])
    request = Request(gpus=2, as_of=DAY, min_vram=0, min_storage_gb=500)
    want = suggest_json.as_dict(solve(load_catalog([shutil.copy(path, tmp_path / "w.jsonl")]), RULES, request), None)
    assert json.loads(result.stdout)["search"] == want["search"]
    assert json.loads(result.stdout)["total_usd"] == want["total_usd"]
    lines = _lines(path)
    broken = _write(tmp_path / "broken.jsonl", [*lines, lines[3]])
    result = CliRunner().invoke(app, [*args, str(broken)])
    assert result.exit_code == 2
    assert f"broken.jsonl:{len(lines) + 1}" in result.stderr
    assert f"is already used at {broken}:4" in result.stderr  # where the first one is


def test_a_streamed_catalog_offers_what_its_records_do(tmp_path: Path) -> None:
    """The offer the reduction leaves with the catalog (`offer.priced_parts`, made of the price
    points the parts were kept at) is the one the searches would make of the slim records."""
    from partpicker.suggest.offer import priced_parts

    rng = random.Random(23)
    random_path = as_jsonl(make(rng, SIZES), tmp_path / "random.jsonl")
    bundled = as_jsonl(load_catalog(), tmp_path / "bundled.jsonl")  # (MSRP points: kinds other than street)
    kinds: set[str] = set()
    for path, jobs in itertools.product((random_path, bundled), (1, 2, 1, 2)):  # (2: handed over)
        request = _request(rng)
        if path == bundled:
            request = dataclasses.replace(request, as_of=rng.choice([DAY, DAY.replace(year=2018, month=9)]))
        catalog = streamed_catalog([path], RULES, request, jobs=jobs)
        if catalog is None:
            continue
        day = request.as_of or DAY
        for role in request.roles:
            key = ("priced", role, day, request.stale_days)
            left = catalog.memo.pop(key)
            assert priced_parts(catalog, role, day, request.stale_days) == left
            kinds |= {p.kind for p in left}
    assert {"street", "msrp"} <= kinds
