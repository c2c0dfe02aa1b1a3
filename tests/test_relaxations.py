"""A rule's relaxation (:func:`partpicker.rules.checks.can_pass`) says False only where no build
passes, and the searches that drop parts by it find what brute force finds."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from partpicker.build import Build
from partpicker.models import Case, Cpu, Gpu, Motherboard, Part, Ssd
from partpicker.rules.checks import RELAXATIONS
from partpicker.suggest.answer import solve
from partpicker.suggest.formats import json as suggest_json
from partpicker.suggest.offer import Request
from partpicker.suggest.search import Search
from partpicker.validate.engine import run_rule

from .conftest import fast_first
from .support.random_catalog import DAY, make
from .test_solver import RULES, _brute

BASE = {"brand": "Test", "sources": ["test"], "prices": [{"usd": 100, "date": "2025-01-01", "source": "test"}]}


def _part(cls: type[Part], i: int, **specs: Any) -> Any:
    return cls.model_validate({"id": f"{cls.category}-{i}", "name": f"Test {cls.category} {i}", **BASE, **specs})


def _slot(rng: random.Random, label: str, position: int | None, others: list[str]) -> dict[str, Any]:
    slot: dict[str, Any] = {
        "label": label,
        "position": position,
        "physical": rng.choice([16, 16, 16, 16, 8, 4, None]),
        "lanes": rng.choice([16, 16, 8, 8, 4, 0]),
        "source": rng.choice(["cpu", "cpu", "chipset", "switch", None]),
    }
    if rng.random() < 0.3:
        slot["lanes_by_cpu"] = {rng.choice([20, 28, 44]): rng.choice([0, 4, 8, 16])}
    if others and rng.random() < 0.3:
        slot["shares"] = [{"when": rng.choice(others), "lanes": rng.choice([0, 4, 8, 16])}]
    return slot


def _board(rng: random.Random, i: int) -> Motherboard:
    count = rng.randint(1, 7)
    positions = sorted(rng.sample(range(1, 9), count))
    labels = [f"S{p}" for p in positions]
    m2 = [{"label": "M2_1", "interfaces": ["nvme"], "lanes": 4, "source": rng.choice(["cpu", "chipset"])}]
    m2[0]["shares"] = rng.choice([[], None, [{"when": labels[-1], "lanes": 0}]])
    slots = [
        _slot(rng, label, None if rng.random() < 0.05 else position, [*labels, "M2_1"])
        for label, position in zip(labels, positions, strict=True)
    ]
    return _part(
        Motherboard,
        i,
        socket="AM4",
        form_factor=rng.choice(["ATX", "E-ATX", "Micro-ATX"]),
        pcie_slots=None if rng.random() < 0.05 else slots,
        m2_slots=rng.choice([m2, m2, [], None]),
    )


def _gpu_slots_world(rng: random.Random) -> tuple[Motherboard, dict[str, list[Any]]]:
    """A random board, and a few parts of each other role of gpu-slots."""
    others = _gpu_slots_parts(rng)
    return _board(rng, 0), others


def _gpu_slots_card_world(rng: random.Random) -> tuple[Gpu, dict[str, list[Any]]]:
    """A random card, and a few parts of each other role of gpu-slots (one to three boards)."""
    others = _gpu_slots_parts(rng)
    card = others.pop("gpu")[0]
    others["motherboard"] = [_board(rng, i) for i in range(rng.choice([1, 1, 2, 3]))]
    return card, others


def _gpu_slots_parts(rng: random.Random) -> dict[str, list[Any]]:
    return {
        "gpu": [
            _part(
                Gpu,
                i,
                chip="GeForce RTX 3090",
                vram_gb=24,
                cooler=rng.choice(["blower", "open-air", "open-air", "passive", "hybrid", "water", None]),
                power={"pcie_8pin": 2},
                slot_width=rng.choice([1, 2, 2, 2.5, 2.75, 3, 4, None]),
            )
            for i in range(rng.randint(1, 3))
        ],
        "case": [
            _part(
                Case,
                i,
                form_factors=["E-ATX"],
                psu_form_factors=["ATX"],
                expansion_slots=rng.choice([4, 7, 8, 8, 10, None]),
            )
            for i in range(rng.randint(1, 3))
        ],
        "cpu": [
            _part(Cpu, i, socket="AM4", memory_types=["DDR4"], pcie_lanes=rng.choice([20, 28, 44, 64, None]))
            for i in range(rng.randint(1, 2))
        ],
        "ssd": [
            _part(Ssd, i, interface=interface, form_factor=form, capacity_gb=1000)
            for i, (interface, form) in enumerate(
                rng.sample([("nvme", "M.2-2280"), ("nvme", "M.2-2280"), ("sata", "2.5in")], rng.randint(0, 2))
            )
        ],
    }


WORLDS: dict[tuple[str, str], Callable[[random.Random], tuple[Any, dict[str, list[Any]]]]] = {
    ("gpu-slots", "motherboard"): _gpu_slots_world,
    ("gpu-slots", "gpu"): _gpu_slots_card_world,
    ("gpu-cooling", "gpu"): _gpu_slots_card_world,  # (the same roles)
}
"""For each relaxation, random parts of its role and of the rule's other roles."""


def test_every_relaxation_is_tested() -> None:
    registered = {(rule_id, role) for rule_id, roles in RELAXATIONS.items() for role in roles}
    assert registered == set(WORLDS)


@pytest.mark.parametrize(("rule_id", "role"), sorted(WORLDS))
def test_a_relaxation_says_false_only_where_no_build_passes(rule_id: str, role: str) -> None:
    """Brute force over every build of the random parts: where the relaxation says False,
    none passes (and the worlds are close calls: some builds pass, and some parts are
    dropped that other parts of the same worlds would not be)."""
    rule = RULES[rule_id]
    rng = random.Random(7)
    dropped = passing = 0
    for _ in range(400):
        part, others = WORLDS[(rule_id, role)](rng)
        n = rng.choice([1, 2, 3, 4])
        relaxation = RELAXATIONS[rule_id][role]
        assert set(relaxation.reads) <= set(rule.roles) - {role}
        sieve = relaxation.sieve_of({r: others[r] for r in relaxation.reads}, n, rule.defaults(), {})
        roles = [r for r in rule.roles if r != role]
        statuses = set()
        for chosen in itertools.product(*(others[r] or [None] for r in roles)):
            parts = {role: part, **dict(zip(roles, chosen, strict=True))}
            build = Build.of("relaxed", "dl-workstation", n, parts, {"gpu": n})
            statuses.add(run_rule(rule, build, rule.defaults(), {}).status)
        if not sieve(part):
            dropped += 1
            world = {r: [p.model_dump() for p in ps] for r, ps in others.items()}
            assert "pass" not in statuses, (n, part.model_dump(), world)
        passing += "pass" in statuses
    assert dropped > 40 and passing > 40, (dropped, passing)


def _relaxed_away(search: Search) -> int:
    """How many parts the relaxations dropped from ``search``'s candidates."""
    search.domains()
    return sum(search.after_unary[r] - search.after_relaxation[r] for r in search.after_unary)


@pytest.mark.parametrize("seed", fast_first(range(200), 10))
def test_a_relaxed_search_equals_brute_force(seed: int) -> None:
    """A search that drops parts by the relaxations (one accepting only a pass, counting no
    failures) finds the totals brute force finds."""
    rng = random.Random(31_000 + seed)
    catalog = make(rng)
    gpus = rng.choice([2, 3, 4, 4])
    request = Request(
        gpus=gpus,
        start_gpus=rng.randint(1, gpus),
        budget=rng.choice([None, None, 4000.0]),
        min_vram=0,
        as_of=DAY,
        objective=rng.choice(["now", "full"]),
        strict=rng.random() < 0.2,
        top=rng.choice([1, 1, 3]),
    )
    search = Search(catalog, RULES, request, count_failures=False)
    assert search.relaxing
    found = [total for total, _ in search.run()]
    assert found == pytest.approx(_brute(catalog, request, request.top, {"pass"}), abs=0.01)


def test_the_relaxed_searches_drop_parts() -> None:
    """(Else the test above proves little.)"""
    dropped = 0
    for seed in range(40):
        rng = random.Random(31_000 + seed)
        catalog = make(rng)
        search = Search(catalog, RULES, Request(gpus=4, min_vram=0, as_of=DAY), count_failures=False)
        dropped += _relaxed_away(search) > 0
    assert dropped >= 8, dropped


def _answer(solution: Any) -> str:
    """An answer's JSON, but for how much its searches did (and how many parts were left after
    dominance: there the relaxations count too)."""
    found = suggest_json.as_dict(solution, None)
    for key in ("nodes", "rule_checks", "after_dominance"):
        found["search"].pop(key)
    return json.dumps(found, sort_keys=True, default=str)


def _bundled_request(rng: random.Random, gpus: int) -> Request:
    return Request(
        gpus=gpus,
        start_gpus=rng.randint(1, gpus),
        budget=rng.choice([None, 2000.0, 3000.0, 6000.0]),
        as_of=DAY.fromordinal(rng.randint(DAY.fromisoformat("2018-09-01").toordinal(), DAY.toordinal())),
        objective=rng.choice(["now", "full"]),
        strict=rng.random() < 0.2,
        top=rng.choice([1, 1, 3]),
    )


@pytest.mark.parametrize("seed", fast_first(range(40), 4))
def test_answers_are_the_same_without_relaxations(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """On the bundled catalog (real slot maps; answers with a builder's pick and cheaper
    builds if unknowns hold), each answer is the one the searches give without relaxing."""
    from partpicker.catalog import load_catalog
    from partpicker.rules import checks

    rng = random.Random(44_000 + seed)
    dropped = []

    def counted(relaxation: checks.Relaxation) -> checks.Relaxation:
        def sieve_of(*args: Any) -> Any:
            sieve = relaxation.sieve_of(*args)
            return lambda part: sieve(part) or dropped.append(part.id)

        return relaxation._replace(sieve_of=sieve_of)

    with_them = {rule: {role: counted(fn) for role, fn in roles.items()} for rule, roles in checks.RELAXATIONS.items()}
    for gpus in (4, rng.choice([1, 2, 3, 4]), rng.choice([2, 3])):
        request = _bundled_request(rng, gpus)
        answers = []
        for relaxations in (with_them, {}):
            monkeypatch.setattr("partpicker.suggest.search.RELAXATIONS", relaxations)
            catalog = load_catalog()
            catalog.memo.clear()  # (the session's catalog: what an earlier search remembered goes)
            answers.append(_answer(solve(catalog, RULES, request)))
        assert answers[0] == answers[1], request
    assert dropped  # (the relaxations did drop boards)


def test_a_search_that_accepts_unknowns_or_counts_does_not_relax() -> None:
    catalog = make(random.Random(5))
    request = Request(gpus=4, min_vram=0, as_of=DAY)
    assert not Search(catalog, RULES, request).relaxing  # (it counts failures)
    assert not Search(catalog, RULES, dataclasses.replace(request, allow_unknown=True), count_failures=False).relaxing
