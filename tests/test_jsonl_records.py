"""The JSON Lines fast path (msgspec records, kept slim) makes the same parts, prices,
problems and `suggest` answers as the pydantic path it replaces."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
from pathlib import Path

import pytest
import yaml

from partpicker.catalog import Catalog, load_catalog, read_catalog
from partpicker.catalog.checks import CURATION_ONLY, LINT_CHECKS, check_catalog
from partpicker.pricing import price_of
from partpicker.rules.rulebook import RuleSpec, load_rules
from partpicker.suggest.answer import solve
from partpicker.suggest.dominance import freeze
from partpicker.suggest.offer import Request

from .conftest import fast_first
from .support.random_catalog import DAY, make

DATA = Path(__file__).resolve().parent / "data" / "jsonl"
RULES = load_rules()


def as_jsonl(catalog: Catalog, path: Path) -> Path:
    """Write a loaded catalog as JSON Lines (category first, as the documented format)."""
    with path.open("w", encoding="utf-8") as out:
        for part in catalog:
            out.write(json.dumps({"category": part.category, **part.model_dump(mode="json")}) + "\n")
    return path


def test_records_make_the_same_parts_and_prices(catalog: Catalog, tmp_path: Path) -> None:
    fast = load_catalog([as_jsonl(catalog, tmp_path / "bundled.jsonl")])
    assert len(fast) == len(catalog)
    days = sorted({p.date for part in catalog for p in part.prices})
    probes = [days[0] - dt.timedelta(days=1), *days[:: max(1, len(days) // 40)], dt.date(2030, 1, 1)]
    for category in catalog.by_category:
        entries = fast.entries(category)
        assert [e.id for e in entries] == [p.id for p in catalog.by_category[category]]
        for entry in entries:
            part = catalog.parts[entry.id]
            assert fast.part_of(entry) == part
            for name in type(part).model_fields:
                if hasattr(entry, name) and name != "prices":
                    assert freeze(getattr(entry, name)) == freeze(getattr(part, name)), (entry.id, name)
            for day in probes:
                want, got = part.price_as_of(day), entry.price_as_of(day)
                assert (got and (got.usd, got.date)) == (want and (want.usd, want.date)), (entry.id, day)
                want, got = price_of(part, day), price_of(entry, day)  # market before MSRP
                assert (got and (got.usd, got.date, got.kind)) == (want and (want.usd, want.date, want.kind))


def test_lax_lines_and_bad_lines() -> None:
    catalog, problems = read_catalog([DATA / "lax.jsonl"])
    # "12" for an int is refused (strict values, issue 11); "TR4" and "ddr4" are listed spellings
    assert sorted(e.id for e in catalog.entries("cpu")) == ["strict-cpu"]
    strict = catalog.entries("cpu")[0]
    assert strict.socket == "sTR4"
    point = strict.price_as_of(dt.date(2020, 6, 1))  # two points on one day: the last listed
    assert point is not None and point.usd == catalog.parts["strict-cpu"].price_as_of(dt.date(2020, 6, 1)).usd == 650.5
    assert [(p.line, p.check) for p in problems] == [
        (1, "schema"),
        (3, "slug"),
        (4, "vocabulary"),
        (5, "evidence-note"),
        (6, "evidence-field"),
        (7, "bounds"),
        (8, "schema"),
    ]
    assert "colour" in problems[-1].message


def test_a_broken_line_leaves_no_record(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    path.write_text((DATA / "lax.jsonl").read_text().splitlines()[1][:-10] + "\n")
    catalog, problems = read_catalog([path])
    assert len(catalog) == 0 and [(p.line, p.check) for p in problems] == [(1, "yaml-syntax")]


def _answer(catalog: Catalog, rules: dict[str, RuleSpec], request: Request) -> tuple[object, ...]:
    solution = solve(catalog, rules, request)
    return (
        solution.status,
        solution.cheapest_usd,
        tuple((c.now_usd, c.full_usd, tuple(p.part.id for p in c.prices.values())) for c in solution.choices),
    )


@pytest.mark.parametrize("seed", fast_first(range(80), 8))
def test_suggest_on_records_equals_suggest_on_models(seed: int, tmp_path: Path) -> None:
    """The same answer (totals and parts) from the JSON Lines copy of a random catalog."""
    rng = random.Random(50_000 + seed)
    catalog = make(rng, {"cpu": 6, "motherboard": 5, "gpu": 6, "psu": 5, "case": 4})
    fast = load_catalog([as_jsonl(catalog, tmp_path / "random.jsonl")])
    request = Request(
        gpus=rng.choice([1, 2, 4]),
        min_vram=0,
        as_of=DAY,
        top=rng.choice([1, 1, 3]),
        strict=rng.random() < 0.3,
        allow_unknown=rng.random() < 0.3,
        objective=rng.choice(["now", "full"]),
    )
    assert _answer(fast, RULES, request) == _answer(catalog, RULES, request)
    budget = dataclasses.replace(request, budget=1500.0)
    assert _answer(fast, RULES, budget) == _answer(catalog, RULES, budget)


INVALID = Path(__file__).resolve().parent / "data" / "catalogs" / "invalid"
_EXPECTED = yaml.safe_load((INVALID / "EXPECTED.yaml").read_text())
LINTED = sorted(name for name, (check_id, _) in _EXPECTED.items() if check_id in LINT_CHECKS)


@pytest.mark.parametrize("name", LINTED, ids=LINTED)
def test_jsonl_lines_get_the_catalog_checks_without_a_model_each(name: str, tmp_path: Path) -> None:
    """Loading a JSON Lines catalog is checking it (issue 11): each fixture's defect, as a
    line, is found by the same check, on the line of its part, and no part is made for it
    (the checks read the line's record)."""
    doc = yaml.safe_load((INVALID / name).read_text())
    path = tmp_path / "defect.jsonl"
    path.write_text("".join(json.dumps({"category": doc["category"], **p}, default=str) + "\n" for p in doc["parts"]))
    check_id, _ = _EXPECTED[name]
    skip = frozenset() if check_id in CURATION_ONLY else CURATION_ONLY
    catalog, found = check_catalog([path], skip=skip)
    errors = [p for p in found if p.severity == "error"]
    ids = [p["id"] for p in doc["parts"]]
    assert [(p.check, p.line) for p in errors] == [(check_id, ids.index(p.part_id) + 1) for p in errors]
    assert [p.check for p in errors] == [check_id]
    if check_id not in CURATION_ONLY:
        assert catalog.models() == [] and not catalog._made  # checked on the records


def test_an_unknown_category_is_quoted(tmp_path: Path) -> None:
    path = tmp_path / "cat.jsonl"
    path.write_text('{"category": "gpuu", "id": "x"}\n{"id": "y"}\n')
    _, problems = read_catalog([path])
    assert [(p.line, p.check) for p in problems] == [(1, "vocabulary"), (2, "vocabulary")]
    assert "(not 'gpuu')" in problems[0].message and "gpu, " in problems[0].message
    assert "(not" not in problems[1].message
