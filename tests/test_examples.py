"""Every build in examples/ validates as a well-informed builder would expect."""

from __future__ import annotations

import pytest
import yaml

from partpicker.build import load_build
from partpicker.validate.engine import evaluate

from .conftest import DATA, ROOT

EXPECT = yaml.safe_load((DATA / "examples.yaml").read_text())
EXAMPLES = sorted(p.name for p in (ROOT / "examples").glob("*.yaml"))


def test_every_example_has_an_expectation() -> None:
    assert set(EXAMPLES) == set(EXPECT)


@pytest.mark.parametrize("name", EXAMPLES)
def test_example(name: str, catalog, rules) -> None:
    want = EXPECT[name]
    report = evaluate(load_build(ROOT / "examples" / name, catalog), rules)
    status = {f.rule: (f.status, f.severity) for f in report.findings}
    assert report.verdict == want["verdict"], [(f.rule, f.status, f.message) for f in report.findings]
    for rule in want.get("fails", []):
        assert status[rule] == ("fail", "error"), (rule, status.get(rule))
    for rule in want.get("warns", []):
        assert status[rule] == ("fail", "warning"), (rule, status.get(rule))
    for rule in want.get("passes", []):
        assert status[rule][0] == "pass", (rule, status.get(rule))
    if "unknown" in want:
        assert sorted(r for r, (s, _) in status.items() if s == "unknown") == sorted(want["unknown"])
