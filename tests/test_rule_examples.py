"""Every rule's examples are its tests: `pytest -k psu-wattage` runs that rule's cases."""

from __future__ import annotations

import pytest

from partpicker.catalog import Catalog
from partpicker.rules.checks import CHECKS
from partpicker.rules.rulebook import RuleSpec, example_build, load_rules
from partpicker.validate.engine import run_rule

RULES = load_rules()
CASES = [(spec, ex) for spec in RULES.values() for ex in spec.examples]


@pytest.mark.parametrize(("spec", "example"), CASES, ids=[f"{s.id}:{e.id}" for s, e in CASES])
def test_rule_example(spec: RuleSpec, example, catalog: Catalog) -> None:
    build = example_build(example, catalog)
    params = spec.defaults() | example.params
    outcome = run_rule(spec, build, params, {})
    assert outcome.status == example.expect, outcome.values


def test_every_rule_has_a_check_and_every_check_a_rule() -> None:
    assert set(RULES) == set(CHECKS)


@pytest.mark.parametrize("spec", RULES.values(), ids=list(RULES))
def test_rule_is_documented(spec: RuleSpec) -> None:
    assert spec.explanation.strip() and spec.sources
    assert {"pass", "fail"} <= {e.expect for e in spec.examples}
    assert {"pass", "fail"} <= set(spec.message)


UNREAD_VALUES = {int: 7, float: 7.5, str: "x", bool: True}


@pytest.mark.parametrize(("spec", "example"), CASES, ids=[f"{s.id}:{e.id}" for s, e in CASES])
def test_rule_reads_only_what_it_declares(spec: RuleSpec, example, catalog: Catalog) -> None:
    """The solver caches a rule's status on the fields it declares it reads: changing or
    blanking any other field of any part must not change the status."""
    build = example_build(example, catalog)
    params = spec.defaults() | example.params
    before = run_rule(spec, build, params, {}).status
    for role in spec.roles:
        part = build.part(role)
        if part is None:
            continue
        for name, info in type(part).model_fields.items():
            if name in spec.reads[role] or name in ("id", "name", "brand", "sources", "category"):
                continue
            raw = part.model_dump()
            raw[name] = None if not info.is_required() else raw[name]
            if raw[name] is not None:  # required field: change its value instead
                base = type(raw[name])
                if base not in UNREAD_VALUES:
                    continue
                raw[name] = UNREAD_VALUES[base]
            try:
                changed = type(part).model_validate(raw)
            except ValueError:
                continue
            trial = build.with_part(role, changed)
            after = run_rule(spec, trial, params, {}).status
            assert after == before, f"{spec.id} reads {role}.{name} but does not declare it"
