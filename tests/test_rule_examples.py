"""Every rule's examples are its tests: `pytest -k psu-wattage` runs that rule's cases."""

from __future__ import annotations

import pytest

from partpicker.catalog import Catalog
from partpicker.checks import CHECKS
from partpicker.engine import run_rule
from partpicker.rulebook import RuleSpec, example_build, load_rules

RULES = load_rules()
CASES = [(spec, ex) for spec in RULES.values() for ex in spec.examples]


@pytest.mark.parametrize(("spec", "example"), CASES, ids=[f"{s.id}:{e.id}" for s, e in CASES])
def test_rule_example(spec: RuleSpec, example, catalog: Catalog) -> None:
    build = example_build(example, catalog)
    params = {name: p.default for name, p in spec.params.items()} | example.params
    outcome = run_rule(spec, build, params, {})
    assert outcome.status == example.expect, outcome.values


def test_every_rule_has_a_check_and_every_check_a_rule() -> None:
    assert set(RULES) == set(CHECKS)


@pytest.mark.parametrize("spec", RULES.values(), ids=list(RULES))
def test_rule_is_documented(spec: RuleSpec) -> None:
    assert spec.explanation.strip() and spec.sources
    assert {"pass", "fail"} <= {e.expect for e in spec.examples}
    assert {"pass", "fail"} <= set(spec.message)
