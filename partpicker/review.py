"""`catalog diff` judged: a catalog change by what it does to the example builds' verdicts and
to the answers of the standard `suggest` requests. It sits above validate and suggest, which
it runs, so that the catalog package imports neither."""

from __future__ import annotations

import datetime as dt
from functools import partial
from pathlib import Path
from typing import Any

from partpicker.build import load_build
from partpicker.catalog import Catalog
from partpicker.catalog.diff import Diff
from partpicker.catalog.diff import diff as catalog_diff
from partpicker.errors import InputError
from partpicker.rules.rulebook import load_rules
from partpicker.suggest.answer import solve
from partpicker.suggest.offer import MIN_STORAGE_GB, Request
from partpicker.validate.engine import evaluate

# The requests whose answers a catalog change is judged by (as of the newest price).
STANDARD_REQUESTS: dict[str, dict[str, Any]] = {  # as the CLI asks them: its --min-storage default too
    "suggest --gpus 4": {"gpus": 4, "min_storage_gb": MIN_STORAGE_GB},
    "suggest --gpus 4 --allow-unknown": {"gpus": 4, "allow_unknown": True, "min_storage_gb": MIN_STORAGE_GB},
    "suggest --gpus 2 --allow-unknown": {"gpus": 2, "allow_unknown": True, "min_storage_gb": MIN_STORAGE_GB},
}


def example_verdicts(catalog: Catalog, examples: list[Path]) -> dict[str, str]:
    """Each example build's verdict against ``catalog`` (or the error it raises)."""
    rules = load_rules()
    out = {}
    for path in examples:
        try:
            out[path.name] = evaluate(load_build(path, catalog), rules).verdict
        except InputError as exc:
            out[path.name] = f"error ({exc.what})"
    return out


def suggest_answers(catalog: Catalog, day: dt.date | None) -> dict[str, str]:
    """A one-line answer to each standard request, priced as of ``day``."""
    rules = load_rules()
    out = {}
    for label, kwargs in STANDARD_REQUESTS.items():
        solution = solve(catalog, rules, Request(as_of=day, **kwargs))
        if solution.choices:
            best = solution.choices[0]
            parts = ", ".join(p.part.id for p in best.prices.values())
            out[label] = f"${best.now_usd:,.2f}: {parts}"
        else:
            out[label] = "no build"
    return out


def diff(base_spec: str, head_spec: str, *, repo: Path, examples: list[Path], suggest: bool = True) -> Diff:
    """The catalog diff BASE -> HEAD, with its impact on ``examples`` and (``suggest``) the standard answers."""
    return catalog_diff(
        base_spec,
        head_spec,
        repo=repo,
        verdicts=partial(example_verdicts, examples=examples),
        answers=suggest_answers if suggest else None,
    )
