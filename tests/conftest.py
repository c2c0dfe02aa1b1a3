"""Shared fixtures: the bundled catalog and rules, loaded once."""

from __future__ import annotations

from pathlib import Path

import pytest

from partpicker.catalog import Catalog, load_catalog
from partpicker.rules.rulebook import RuleSpec, load_rules

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return load_catalog()


@pytest.fixture(scope="session")
def rules() -> dict[str, RuleSpec]:
    return load_rules()
