"""`partpicker catalog check`: every check over the catalog, one module per check.

Loading itself reports the first seven ids (see :data:`LOAD_CHECKS`); each module here
registers one function that reads the loaded catalog and yields problems.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Sequence
from pathlib import Path

from partpicker.catalog import Catalog, Problem, read_catalog
from partpicker.catalog.checks.interface import LINT_CHECKS, PART_CHECKS, LintCheck, lint, problem
from partpicker.errors import ExitCode

__all__ = ["LINT_CHECKS", "LintCheck", "all_checks", "check_catalog", "exit_code", "lint", "problem"]

LOAD_CHECKS: dict[str, str] = {
    "yaml-syntax": "the file is not valid YAML",
    "duplicate-key": "a key appears twice in one YAML mapping",
    "schema": "unknown field, wrong type, missing required field",
    "vocabulary": "a socket, form factor, memory type or rating outside the controlled list",
    "slug": "an id that is not a lower-case slug",
    "no-sources": "a part without sources",
    "duplicate-id": "two parts with one id",
    "bounds": "a value outside plausible bounds (a 900 mm GPU, a 40 kW PSU, 300 PCIe lanes)",
    "price": "a price without a date, or dated in the future",
    "evidence-note": "a derived or recalled field_evidence without its note (the document, or the rule)",
    "evidence-field": "field_evidence naming a field that is not a spec of the part's category",
}


CURATION_ONLY = frozenset({"near-duplicate"})
"""Checks that only `catalog check` runs, not the commands that load a catalog: a near-duplicate
name is a hint to the curator (it makes no answer wrong), and the check is quadratic."""


def check_catalog(
    paths: Sequence[str | Path] | None = None, *, skip: frozenset[str] = frozenset()
) -> tuple[Catalog, list[Problem]]:
    """Load and check (every check but those in ``skip``); every problem found, sorted by file and line."""
    part_checks = {cid: fn for cid, fn in PART_CHECKS.items() if cid not in skip}
    catalog, problems = read_catalog(paths, part_checks=part_checks)
    for check_id, (_summary, fn) in LINT_CHECKS.items():
        if check_id not in skip:
            problems.extend(fn(catalog))
    problems.sort(key=lambda p: (p.path, p.line or 0, p.check))
    return catalog, problems


def exit_code(problems: Sequence[Problem]) -> ExitCode:
    """FINDINGS if a check found an error (warnings alone pass), else CLEAN."""
    return ExitCode.FINDINGS if any(p.severity == "error" for p in problems) else ExitCode.CLEAN


def all_checks() -> dict[str, str]:
    """Every check id with its one-line summary."""
    return {**LOAD_CHECKS, **{cid: summary for cid, (summary, _) in LINT_CHECKS.items()}}


for _info in pkgutil.iter_modules(__path__):
    if _info.name != "interface":
        importlib.import_module(f"{__name__}.{_info.name}")
