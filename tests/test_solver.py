"""`suggest` is exact: on hundreds of random small catalogs its answer equals brute force's."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from partpicker.build import Build
from partpicker.rules.rulebook import RuleSpec, load_rules, rules_for
from partpicker.suggest.answer import solve
from partpicker.suggest.offer import Request, offer
from partpicker.validate.engine import evaluate, run_rule

from .conftest import fast_first
from .support.random_catalog import DAY, make

RULES = load_rules()
ROLES = ("cpu", "motherboard", "gpu", "ram", "ssd", "psu", "case", "cooler")


VARIETY = ("cpu", "motherboard", "gpu")


def brute_force(catalog, request: Request, top: int = 1) -> list[float]:
    """The answer's totals by brute force: the ``top`` cheapest proven builds, each with another
    CPU, board or GPU than every cheaper one; if none is proven (or ``allow_unknown``), the
    cheapest not known to fail."""
    if not request.allow_unknown:
        proven = _brute(catalog, request, top, {"pass"})
        if proven:
            return proven
    return _brute(catalog, request, top, {"pass", "unknown"})


def _brute(catalog, request: Request, top: int, accepted: set[str]) -> list[float]:
    offered = offer(catalog, request, request.as_of)
    severities = {"error", "warning"} if request.strict else {"error"}
    rules = [r for r in rules_for(request.profile, RULES) if r.severity in severities or r.id in request.enforce]
    combos = []
    for parts in itertools.product(*(offered[r] for r in ROLES)):
        chosen = dict(zip(ROLES, parts, strict=True))
        gpu_n = request.start_gpus if request.objective == "now" else request.gpus
        units = {"gpu": gpu_n, "psu": request.psus}  # a dual-PSU request pays for both units
        total = round(sum(p.usd * units.get(r, 1) for r, p in chosen.items()), 2)
        now = sum(p.usd * {"gpu": request.start_gpus, "psu": request.psus}.get(r, 1) for r, p in chosen.items())
        if request.budget is not None and now > request.budget + 1e-9:
            continue
        combos.append((total, chosen))
    combos.sort(key=lambda tc: tc[0])
    totals: list[float] = []
    seen: set[tuple[str, ...]] = set()
    for total, chosen in combos:
        if len(totals) == top:
            break
        key = tuple(chosen[r].part.id for r in VARIETY)
        if key in seen:
            continue
        parts = {role: chosen[role].part for role in ROLES}
        build = Build.of(
            "brute", request.profile, request.gpus, parts, {"gpu": request.start_gpus, "psu": request.psus}
        )
        if all(_status(rule, build) in accepted for rule in rules):
            totals.append(total)
            seen.add(key)
    return totals


def _status(rule: RuleSpec, build: Build) -> str:
    params = rule.defaults()
    return run_rule(rule, build, params, {}).status


def random_request(rng: random.Random) -> Request:
    gpus = rng.choice([1, 2, 2, 4])
    return Request(
        gpus=gpus,
        start_gpus=rng.randint(1, gpus),
        budget=rng.choice([None, None, 2500.0, 4000.0]),
        min_vram=0,
        as_of=DAY,
        objective=rng.choice(["now", "full"]),
        strict=rng.random() < 0.2,
        allow_unknown=rng.random() < 0.25,
        psus=2 if rng.random() < 0.2 else 1,
    )


@pytest.mark.parametrize("seed", fast_first(range(320), 12))
def test_suggest_equals_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    catalog = make(rng)
    request = random_request(rng)
    solution = solve(catalog, RULES, request)
    expected = brute_force(catalog, request)
    if not expected:
        assert solution.status == "infeasible", solution.choices
        return
    assert solution.status in ("proven", "unproven"), solution.reason
    best = solution.choices[0]
    objective = best.now_usd if request.objective == "now" else best.full_usd
    assert objective == pytest.approx(expected[0], abs=0.01)
    report = evaluate(best.build.with_count("gpu", request.start_gpus), RULES, as_of=DAY)
    errors = [f for f in report.findings if f.severity == "error" or request.strict]
    proven = all(f.status == "pass" for f in report.findings if f.severity == "error")
    assert solution.status == ("proven" if proven else "unproven")
    assert solution.exit_code == (0 if proven else 3)
    assert all(f.status != "fail" for f in errors), [f.message for f in errors if f.status == "fail"]
    if solution.possible is not None:  # a cheaper build if unknown facts hold: never one known to fail
        assert solution.possible.objective_usd < best.objective_usd
        assert solution.possible.unknowns


@pytest.mark.parametrize("seed", fast_first(range(120), 5))
def test_top_three_equals_brute_force(seed: int) -> None:
    rng = random.Random(10_000 + seed)
    catalog = make(rng)
    request = dataclasses.replace(random_request(rng), top=3)
    solution = solve(catalog, RULES, request)
    expected = brute_force(catalog, request, top=3)
    got = [c.now_usd if request.objective == "now" else c.full_usd for c in solution.choices]
    assert got == pytest.approx(expected, abs=0.01)
    keys = [tuple(c.build.parts[r][0].part.id for r in VARIETY) for c in solution.choices]
    assert len(set(keys)) == len(keys), keys


WARNINGS = sorted(r.id for r in rules_for("dl-workstation", RULES) if r.severity == "warning")


@pytest.mark.parametrize("seed", fast_first(range(120), 8))
def test_enforced_warnings_equal_brute_force(seed: int) -> None:
    """Warnings enforced one by one (the builder's pick): dominance then compares what they read."""
    rng = random.Random(20_000 + seed)
    catalog = make(rng)
    enforce = tuple(rng.sample(WARNINGS, rng.randint(1, 2)))
    request = dataclasses.replace(random_request(rng), strict=False, enforce=enforce, top=rng.choice([1, 3]))
    solution = solve(catalog, RULES, request)
    expected = brute_force(catalog, request, top=request.top)
    got = [c.now_usd if request.objective == "now" else c.full_usd for c in solution.choices]
    assert got == pytest.approx(expected, abs=0.01), enforce


@pytest.mark.slow
def test_random_catalogs_are_not_trivial() -> None:
    """The generator makes both feasible and infeasible cases (else the tests above prove little)."""
    outcomes = []
    for seed in range(60):
        rng = random.Random(seed)
        outcomes.append(bool(brute_force(make(rng), random_request(rng))))
    assert 0.15 < sum(outcomes) / len(outcomes) < 0.9
