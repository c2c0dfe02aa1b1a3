"""The same `suggest` problem as an OR-Tools CP-SAT model (issue 14's general-solver baseline).

    pip install -e '.[bench]'
    python benchmarks/cpsat.py benchmarks/out/synth-10k.jsonl --gpus 4     # prints one JSON line

The model, built from the same catalog and the same rule evaluations as partpicker:

- the candidates of each role are partpicker's own: the parts on offer as of the date, one per
  class of parts alike on what the rules read, after the unary rules and dominance
  (``Search.domains()``, exact); so CP-SAT gets the small problem, not the raw catalog;
- one boolean per candidate part per role, exactly one per role; the GPU count is the
  request's (the cost weight of a GPU is the number bought now);
- each rule of two or more roles is a table: per role, an integer naming the class of the
  chosen part for that rule (its booleans weighted by class number), and the allowed tuples
  of classes are those on which the rule passes, judged by the same ``Search.status`` as the
  search (each combination of classes evaluated once);
- minimise the total in cents.

``solve_cpsat`` returns the optimum; ``main`` times load, build and solve and checks the optimum
against partpicker's search on the same catalog. A model whose tables would exceed
``max_combos`` class combinations raises :class:`TooBig` instead of running for hours.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import math
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partpicker.catalog import Catalog, load_catalog
from partpicker.rules.rulebook import RuleSpec, load_rules
from partpicker.suggest.offer import Request
from partpicker.suggest.search import Search


class TooBig(Exception):
    """The rule tables would hold more class combinations than allowed."""


@dataclass(frozen=True)
class Optimum:
    usd: float | None
    """The cheapest total (objective), None if infeasible."""
    ids: dict[str, str]
    build_s: float
    solve_s: float
    combos: int
    """Class combinations evaluated for the rule tables."""


def _class_vars(model: Any, search: Search, rule: RuleSpec, role: str, items: list[Any], xs: list[Any]) -> tuple:
    """The class of the chosen part of ``role`` for ``rule`` as an int var, and one
    representative part per class."""
    index: dict[int, int] = {}
    reps = []
    weights = []
    for part, _ in items:
        cls = search._spec_class(rule, role, part)
        if cls not in index:
            index[cls] = len(reps)
            reps.append(part)
        weights.append(index[cls])
    var = model.NewIntVar(0, max(0, len(reps) - 1), f"{rule.id}:{role}")
    model.Add(var == sum(w * x for w, x in zip(weights, xs, strict=True)))
    return var, reps


def _table(model: Any, search: Search, rule: RuleSpec, domains: dict[str, Any], xs: dict[str, list[Any]]) -> int:
    """Constrain ``rule`` by the table of class tuples it passes on; the combinations evaluated."""
    cvars, reps = [], []
    for role in rule.roles:
        var, found = _class_vars(model, search, rule, role, domains[role].items, xs[role])
        cvars.append(var)
        reps.append(found)
    allowed = [
        idx
        for idx in itertools.product(*(range(len(r)) for r in reps))
        if search.status(rule, {role: reps[k][i] for k, (role, i) in enumerate(zip(rule.roles, idx, strict=True))})
        in search.accepted
    ]
    model.AddAllowedAssignments(cvars, allowed)
    return math.prod(len(r) for r in reps)


def _model(search: Search, domains: dict[str, Any], max_combos: int) -> tuple[Any, dict[str, list[Any]], int]:
    """The CP-SAT model of the search's domains and rules: its booleans per role, and the class
    combinations its rule tables evaluated."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    xs = {role: [model.NewBoolVar(f"{role}{i}") for i in range(len(d.items))] for role, d in domains.items()}
    for vars_ in xs.values():
        model.AddExactlyOne(vars_)
    multi = [rule for rule in search.rules if len(rule.roles) > 1]
    sizes = [math.prod(len({search._spec_class(r, x, p) for p, _ in domains[x].items}) for x in r.roles) for r in multi]
    if sum(sizes) > max_combos:
        raise TooBig(f"{sum(sizes):,} class combinations (more than {max_combos:,})")
    combos = sum(_table(model, search, rule, domains, xs) for rule in multi)
    cents = {role: [round(cost * 100) for _, cost in d.items] for role, d in domains.items()}
    model.Minimize(sum(c * x for role in xs for c, x in zip(cents[role], xs[role], strict=True)))
    return model, xs, combos


def solve_cpsat(catalog: Catalog, rules: dict[str, RuleSpec], request: Request, max_combos: int = 2_000_000) -> Optimum:
    """The cheapest build by CP-SAT (``request.top`` must be 1)."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    search = Search(catalog, rules, request)
    domains = search.domains()
    model, xs, combos = _model(search, domains, max_combos)
    built = time.perf_counter()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # the machine is shared; partpicker is single-threaded too
    status = solver.Solve(model)
    solved = time.perf_counter()
    if status == cp_model.INFEASIBLE:
        return Optimum(None, {}, built - start, solved - built, combos)
    if status != cp_model.OPTIMAL:
        raise RuntimeError("CP-SAT stopped before proving its optimum")
    ids = {role: d.items[i][0].id for role, d in domains.items() for i, x in enumerate(xs[role]) if solver.Value(x)}
    usd = sum(cost for role, d in domains.items() for part, cost in d.items if part.id == ids[role])
    return Optimum(round(usd, 2), ids, built - start, solved - built, combos)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--gpus", type=int, default=4)
    parser.add_argument("--as-of", default="2025-07-23")
    parser.add_argument("--max-combos", type=int, default=2_000_000)
    parser.add_argument("--check", action="store_true", help="also run partpicker's search; the optima must agree")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    catalog = load_catalog([args.catalog])
    loaded = time.perf_counter()
    rules = load_rules()
    request = Request(gpus=args.gpus, min_storage_gb=0, as_of=dt.date.fromisoformat(args.as_of))
    out: dict[str, Any] = {"load_s": loaded - start}
    try:
        found = solve_cpsat(catalog, rules, request, args.max_combos)
    except TooBig as exc:
        out.update(error=f"too big: {exc}")
    else:
        out.update(usd=found.usd, build_s=found.build_s, solve_s=found.solve_s, combos=found.combos)
        if args.check:
            best = Search(catalog, rules, request).run()
            out["partpicker_usd"] = best[0][0] if best else None
            out["agree"] = out["partpicker_usd"] == found.usd
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))
    return 0 if out.get("agree", True) else 1


if __name__ == "__main__":
    sys.exit(main())
