"""Every build in examples/ validates as a well-informed builder would expect."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

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
    build = load_build(ROOT / "examples" / name, catalog)
    _judge(build, EXPECT[name], rules)
    if "retarget" in EXPECT[name]:
        want = EXPECT[name]["retarget"]
        _judge(dataclasses.replace(build, target_gpus=want["target_gpus"]), want, rules)


def _judge(build: Any, want: dict[str, Any], rules: Any) -> None:
    report = evaluate(build, rules)
    status = {f.rule: (f.status, f.severity) for f in report.findings}
    messages = {f.rule: f.message for f in report.findings}
    n = build.target_gpus
    for rule in want.get("names_n", []):
        assert re.search(rf"\b{n} GPU{'' if n == 1 else 's'}\b", messages[rule]), (rule, messages[rule])
    assert report.verdict == want["verdict"], [(f.rule, f.status, f.message) for f in report.findings]
    for rule in want.get("fails", []):
        assert status[rule] == ("fail", "error"), (rule, status.get(rule))
    for rule in want.get("warns", []):
        assert status[rule] == ("fail", "warning"), (rule, status.get(rule))
    for rule in want.get("passes", []):
        assert status[rule][0] == "pass", (rule, status.get(rule))
    if "unknown" in want:
        assert sorted(r for r, (s, _) in status.items() if s == "unknown") == sorted(want["unknown"])
