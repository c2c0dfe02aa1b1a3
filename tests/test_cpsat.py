"""The CP-SAT baseline of the benchmarks (benchmarks/cpsat.py) and partpicker's search find the
same optimum on random catalogs (skipped without the `bench` extra: ortools)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from partpicker.rules.rulebook import load_rules
from partpicker.suggest.offer import Request
from partpicker.suggest.search import Search

from .support.random_catalog import DAY, make

pytest.importorskip("ortools")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import cpsat

RULES = load_rules()


@pytest.mark.slow
@pytest.mark.parametrize("max_combos", [2_000_000, 0])
@pytest.mark.parametrize("seed", range(12))
def test_cpsat_and_partpicker_agree(seed: int, max_combos: int) -> None:
    """Also with every rule's table added lazily (``max_combos`` 0), per class of its pivot role."""
    rng = random.Random(70_000 + seed)
    catalog = make(rng, {"cpu": 5, "motherboard": 5, "gpu": 6, "psu": 5, "case": 4})
    request = Request(gpus=rng.choice([1, 2, 4]), min_vram=0, as_of=DAY, allow_unknown=rng.random() < 0.3)
    best = Search(catalog, RULES, request).run()
    found = cpsat.solve_cpsat(catalog, RULES, request, max_combos=max_combos)
    assert (found.lazy_rules != ()) == (max_combos == 0)
    assert found.usd == (best[0][0] if best else None)
    if best:  # CP-SAT's build is a valid one of that price (ties may pick other parts)
        assert set(found.ids) == set(best[0][1])
