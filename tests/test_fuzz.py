"""Fuzzing as tests: hostile build files, overrides, options and catalog entries never give a
traceback, a hang, an oversized message or invalid JSON (tests/fuzz/; issue 11).

A bounded number of examples per run (``FUZZ_EXAMPLES``, default 15); for the long run whose
figures the README quotes: ``python -m tests.fuzz.run``. Every crash found is kept as a
fixture under tests/data/ (``fuzz-*.yaml``), which test_cli.py runs."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from partpicker.catalog import Catalog
from partpicker.catalog.checks import check_catalog
from partpicker.models import CATEGORIES, spec_fields
from partpicker.rules.rulebook import load_rules

from .fuzz import strategies as fz
from .fuzz.corruptions import CORRUPTIONS, OUTPUT_PATHS, PATCHES, check_catalog_class, check_outputs
from .fuzz.harness import MAX_MESSAGE, real_names, run_cli, write_text

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "15"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=os.environ.get("FUZZ_RANDOM") is None,  # CI runs the same examples; FUZZ_RANDOM=1 for new ones
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)
PARAMS = {rid: list(spec.params) for rid, spec in load_rules().items()}
BASES = [p.read_text(encoding="utf-8") for p in fz.EXAMPLES]


@pytest.fixture(scope="module")
def names(catalog: Catalog) -> list[str]:
    return real_names(catalog)


def assert_clean(args: list[str]) -> None:
    outcome = run_cli(args)
    assert outcome.clean, outcome


@FUZZ
@given(data=st.data())
def test_generated_build_files(tmp_path: Path, names: list[str], data: Any) -> None:
    doc = data.draw(fz.build_docs(names, PARAMS))
    path = write_text(tmp_path / "build.yaml", fz.dump(doc))
    fmt = data.draw(st.sampled_from(["text", "json", "github", "sarif"]))
    assert_clean(["validate", str(path), "--format", fmt])


@FUZZ
@given(text=fz.mutated_yaml(BASES), fmt=st.sampled_from(["text", "json"]))
def test_mutated_build_files(tmp_path: Path, text: str, fmt: str) -> None:
    path = write_text(tmp_path / "build.yaml", text)
    assert_clean(["validate", str(path), "--format", fmt])


@FUZZ
@given(rules=fz.overrides(PARAMS))
def test_rule_overrides(tmp_path: Path, rules: dict[Any, Any]) -> None:
    doc = yaml.safe_load(BASES[0])
    doc["rules"] = rules
    path = write_text(tmp_path / "build.yaml", fz.dump(doc))
    assert_clean(["validate", str(path), "--format", "json"])


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 3))
@given(args=fz.option_sets())
def test_option_sets(args: list[str]) -> None:
    assert_clean(args)


def _seeds(catalog: Catalog) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for category, parts in catalog.by_category.items():
        out[category] = [p.model_dump(mode="json", exclude_defaults=True) for p in parts[:3]]
    return out


@FUZZ
@given(data=st.data())
def test_catalog_entries(tmp_path: Path, catalog: Catalog, data: Any) -> None:
    fields = {name: list(spec_fields(cls)) for name, cls in CATEGORIES.items()}
    doc = data.draw(fz.catalog_entries(fields, _seeds(catalog)))
    path = write_text(tmp_path / "part.yaml", fz.dump(doc))
    _, problems = check_catalog([path])  # never raises: every problem is a Problem
    assert all(len(p.message) < MAX_MESSAGE for p in problems)
    assert_clean(["catalog", "check", str(path), "--format", "json"])
    assert_clean(["validate", str(fz.EXAMPLES[0]), "--catalog", str(path)])


@pytest.mark.slow
@pytest.mark.parametrize("label", sorted(CORRUPTIONS))
def test_catalog_corruption_class(tmp_path: Path, label: str) -> None:
    """Each corruption class of the long run: clean outcomes, and a corrupt catalog fails
    `catalog check` and is refused by validate and suggest."""
    outcomes = [run_cli(args) for args in CORRUPTIONS[label](tmp_path)]
    assert all(o.clean for o in outcomes), [o for o in outcomes if not o.clean]
    assert check_catalog_class(label, [o.exit_code for o in outcomes]) == []


@pytest.mark.slow
@pytest.mark.parametrize("label", sorted(OUTPUT_PATHS))
def test_output_path_class(tmp_path: Path, label: str) -> None:
    """Each output-path class of the long run: refused (exit 2) or written whole, nothing
    replaced that must not be, no mode changed, nothing left behind."""
    with PATCHES.get(label, contextlib.nullcontext)():
        outcomes = [run_cli(args) for args in OUTPUT_PATHS[label](tmp_path)]
    assert all(o.clean for o in outcomes), [o for o in outcomes if not o.clean]
    assert check_outputs(label, tmp_path, [o.exit_code for o in outcomes]) == []


def test_the_harness_counts_a_hang_as_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    # The CLI turns every Exception into exit 70: a hang must get through it, not be a "traceback".
    import time

    from partpicker.cli import validate as validate_cli

    monkeypatch.setattr(validate_cli, "evaluate", lambda *a, **k: time.sleep(5))
    outcome = run_cli(["validate", str(fz.EXAMPLES[0])], limit=0.3)
    assert outcome.hang and outcome.traceback is None and not outcome.clean
