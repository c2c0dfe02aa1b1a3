"""Dominance compares exactly the specs the rules read: each category's signature (group and
score) reads the same fields as the rules it can bind (error rules; with --strict, warnings
too) declare in their `reads:`. A rule that starts reading a new field without the signature
following would let dominance drop a part that rule needs; this test says so."""

from __future__ import annotations

from typing import Any

import pytest

from partpicker.catalog import Catalog
from partpicker.models import Part
from partpicker.rules.rulebook import RuleSpec, load_rules, rules_for
from partpicker.suggest import dominance


class Recorder:
    """A part that records which fields are read (through properties too)."""

    def __init__(self, part: Part) -> None:
        self._part = part
        self.seen: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        attr = getattr(type(self._part), name, None)
        if isinstance(attr, property) and attr.fget is not None:
            return attr.fget(self)  # a derived value: record what it is derived from
        self.seen.add(name)
        return getattr(self._part, name)


WARNINGS = tuple(r.id for r in rules_for("dl-workstation", load_rules()) if r.severity == "warning")


@pytest.mark.parametrize("binding", ["errors", "strict", *WARNINGS])
@pytest.mark.parametrize("role", sorted(dominance.SIGNATURES))
def test_signature_reads_what_the_rules_read(
    role: str, binding: str, catalog: Catalog, rules: dict[str, RuleSpec]
) -> None:
    """Error rules; all warnings too (--strict); or one warning enforced (the builder's pick)."""
    strict = binding == "strict"
    enforced = frozenset({binding} & set(WARNINGS))
    declared = {
        name
        for rule in rules_for("dl-workstation", rules)
        if rule.severity == "error" or strict or rule.id in enforced
        for name in rule.reads.get(role, [])
    }
    seen: set[str] = set()
    for part in catalog.by_category[role]:
        recorder = Recorder(part)
        dominance.SIGNATURES[role](recorder, dominance.Scores(strict=strict, enforced=enforced))
        seen |= recorder.seen
    assert seen == declared, f"signature only: {sorted(seen - declared)}; reads only: {sorted(declared - seen)}"


def test_a_part_and_its_record_freeze_alike(catalog: Catalog) -> None:
    """The search's stand-in of a nested spec (a slot map, power sockets, a list of sockets) is
    the same for a pydantic part and for the JSON Lines record of it, so that they are one
    class; different values have different stand-ins."""
    from partpicker.catalog import records
    from partpicker.suggest.reduce import Freezer

    freeze = Freezer({}, {})
    nested = 0
    by_value: dict[Any, Any] = {}
    for parts in catalog.by_category.values():
        for part in parts:
            record = records.from_part(part)
            for name in type(part).model_fields:
                value = getattr(part, name)
                if value is None or isinstance(value, str | int | float | tuple) or name == "prices":
                    continue
                nested += 1
                assert freeze(value) == freeze(getattr(record, name)), (part.id, name)
                by_value.setdefault(freeze(value), set()).add(repr(value))
    assert nested > 100
    assert all(len(reprs) == 1 for reprs in by_value.values())  # (equal stand-ins: equal values)


@pytest.mark.parametrize("role", sorted(dominance.SIGNATURES))
def test_a_remembered_pruning_is_the_pruning(role: str, catalog: Catalog) -> None:
    """`suggest`'s searches share one memo of prunings: with it, every call keeps what a fresh
    pruning keeps, whichever settings asked before (a warning only some signatures ask, unknowns
    scored best or worst, --strict, --top), and the memo does answer the calls whose outcome
    cannot differ (the builder's pick, for roles whose signatures ask no warning it enforces)."""
    import random

    rng = random.Random(role)
    parts = [(part, float(rng.choice([10, 20, 30, 40]))) for part in catalog.by_category[role]]
    settings = [
        {"enforced": frozenset(enforced), "unknown_is_best": unknown, "strict": strict, "keep": keep}
        for enforced in [(), ("gpu-cooling",), ("ram-capacity",), ("gpu-cooling", "ram-capacity"), WARNINGS]
        for unknown in (False, True)
        for strict in (False, True)
        for keep in (1, 2)
    ]
    memo: dict[Any, Any] = {}
    answered = 0
    for setting in rng.sample(settings * 2, len(settings) * 2):
        before = sum(len(done) for done in memo.values())
        remembered = dominance.prune(parts, role, memo=memo, **setting)
        answered += sum(len(done) for done in memo.values()) == before
        assert remembered == dominance.prune(parts, role, **setting), setting
    assert answered >= len(settings)  # every setting's second call at least
