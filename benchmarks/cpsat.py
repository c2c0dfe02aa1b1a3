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
- a rule whose table would hold more than ``max_combos`` combinations (``gpu-slots`` reads
  five roles: boards alone have thousands of distinct slot maps) is added **lazily**, per
  class of its pivot role (the role with the most classes): CP-SAT solves, and for each such
  rule whose pivot class in the solution has no table yet, that class's rows are evaluated
  and added (enforced when a part of that class is chosen), and CP-SAT solves again. Each
  solve is of a relaxation, so the first optimum whose pivot classes all have their tables
  is the optimum (logic-based Benders, or lazy constraint generation);
- minimise the total in cents.

``solve_cpsat`` returns the optimum; ``main`` times load, build and solve and checks the optimum
against partpicker's search on the same catalog. More than ``max_rounds`` solves raise
:class:`TooBig`.
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
from partpicker.suggest.offer import DEFAULT_STALE_DAYS, Request
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
    rounds: int = 1
    """CP-SAT solves (one, plus one per round of lazily added tables)."""
    lazy_rules: tuple[str, ...] = ()
    """The rules whose tables were added lazily, per class of their pivot role."""


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


def _passes(search: Search, rule: RuleSpec, roles: list[str], reps: list[list[Any]], idx: tuple[int, ...]) -> bool:
    chosen = {role: reps[k][i] for k, (role, i) in enumerate(zip(roles, idx, strict=True))}
    return search.status(rule, chosen) in search.accepted


def _table(model: Any, search: Search, rule: RuleSpec, domains: dict[str, Any], xs: dict[str, list[Any]]) -> int:
    """Constrain ``rule`` by the table of class tuples it passes on; the combinations evaluated."""
    cvars, reps = [], []
    for role in rule.roles:
        var, found = _class_vars(model, search, rule, role, domains[role].items, xs[role])
        cvars.append(var)
        reps.append(found)
    ranges = [range(len(r)) for r in reps]
    allowed = [idx for idx in itertools.product(*ranges) if _passes(search, rule, rule.roles, reps, idx)]
    model.AddAllowedAssignments(cvars, allowed)
    return math.prod(len(r) for r in reps)


class _Lazy:
    """A rule too big for one table (``gpu-slots`` reads five roles), constrained per class of
    its pivot role (the role of most classes, e.g. the board's slot map): when a solution
    picks a pivot class not constrained yet, that class's table is added (every tuple of the
    other roles' classes it passes on, enforced when a part of that class is chosen) and
    CP-SAT solves again. A solution whose pivot classes all have their tables satisfies the
    rule, so the first such optimum is the optimum (each solve is of a relaxation)."""

    def __init__(self, model: Any, search: Search, rule: RuleSpec, domains: dict[str, Any], xs: dict[str, list[Any]]):
        self.model, self.search, self.rule = model, search, rule
        classes = {r: [search._spec_class(rule, r, p) for p, _ in domains[r].items] for r in rule.roles}
        self.pivot = max(rule.roles, key=lambda r: (len(set(classes[r])), r))
        self.others = [r for r in rule.roles if r != self.pivot]
        self.cvars, self.reps = [], []
        for role in self.others:
            var, found = _class_vars(model, search, rule, role, domains[role].items, xs[role])
            self.cvars.append(var)
            self.reps.append(found)
        self.members: dict[int, list[int]] = {}
        for i, cls in enumerate(classes[self.pivot]):
            self.members.setdefault(cls, []).append(i)
        self.items, self.xs = domains[self.pivot].items, xs[self.pivot]
        self.tabled: set[int] = set()

    def chosen(self, solver: Any) -> int:
        """The pivot class of a solution."""
        at = next(i for i, x in enumerate(self.xs) if solver.Value(x))
        return self.search._spec_class(self.rule, self.pivot, self.items[at][0])

    def add(self, cls: int) -> int:
        """Constrain the solutions of pivot class ``cls``; the combinations evaluated."""
        self.tabled.add(cls)
        members = self.members[cls]
        picked = self.model.NewBoolVar(f"{self.rule.id}:{self.pivot}={cls}")
        self.model.Add(sum(self.xs[i] for i in members) == picked)
        rep = self.items[members[0]][0]
        roles = [self.pivot, *self.others]
        reps = [[rep], *self.reps]
        ranges = [range(1), *(range(len(r)) for r in self.reps)]
        allowed = [idx[1:] for idx in itertools.product(*ranges) if _passes(self.search, self.rule, roles, reps, idx)]
        if allowed:
            self.model.AddAllowedAssignments(self.cvars, allowed).OnlyEnforceIf(picked)
        else:
            self.model.Add(picked == 0)
        return math.prod(len(r) for r in ranges)


def _model(
    search: Search, domains: dict[str, Any], max_combos: int
) -> tuple[Any, dict[str, list[Any]], int, list[_Lazy]]:
    """The CP-SAT model of the search's domains and rules: its booleans per role, the class
    combinations its rule tables evaluated, and the rules whose tables are added lazily
    (those of more than ``max_combos`` combinations)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    xs = {role: [model.NewBoolVar(f"{role}{i}") for i in range(len(d.items))] for role, d in domains.items()}
    for vars_ in xs.values():
        model.AddExactlyOne(vars_)
    combos, lazy = 0, []
    for rule in (r for r in search.rules if len(r.roles) > 1):
        size = math.prod(len({search._spec_class(rule, x, p) for p, _ in domains[x].items}) for x in rule.roles)
        if size <= max_combos:
            combos += _table(model, search, rule, domains, xs)
        else:
            lazy.append(_Lazy(model, search, rule, domains, xs))
    cents = {role: [round(cost * 100) for _, cost in d.items] for role, d in domains.items()}
    model.Minimize(sum(c * x for role in xs for c, x in zip(cents[role], xs[role], strict=True)))
    return model, xs, combos, lazy


def solve_cpsat(
    catalog: Catalog,
    rules: dict[str, RuleSpec],
    request: Request,
    max_combos: int = 50_000,
    max_rounds: int = 100_000,
) -> Optimum:
    """The cheapest build by CP-SAT (``request.top`` must be 1). Rules of more than
    ``max_combos`` class combinations get their tables lazily (:class:`_Lazy`); more than
    ``max_rounds`` solves raise :class:`TooBig`."""
    from ortools.sat.python import cp_model

    start = time.perf_counter()
    search = Search(catalog, rules, request)
    domains = search.domains()
    model, xs, combos, lazy = _model(search, domains, max_combos)
    built = time.perf_counter()
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # the machine is shared; partpicker is single-threaded too
    rounds = 0
    lazy_ids = tuple(rule.rule.id for rule in lazy)
    while True:
        status = solver.Solve(model)
        rounds += 1
        if status == cp_model.INFEASIBLE:
            return Optimum(None, {}, built - start, time.perf_counter() - built, combos, rounds, lazy_ids)
        if status != cp_model.OPTIMAL:
            raise RuntimeError("CP-SAT stopped before proving its optimum")
        pending = [(rule, cls) for rule in lazy if (cls := rule.chosen(solver)) not in rule.tabled]
        if not pending:
            break
        if rounds >= max_rounds:
            raise TooBig(f"more than {max_rounds:,} rounds of lazily added tables")
        combos += sum(rule.add(cls) for rule, cls in pending)
    solved = time.perf_counter()
    ids = {role: d.items[i][0].id for role, d in domains.items() for i, x in enumerate(xs[role]) if solver.Value(x)}
    usd = sum(cost for role, d in domains.items() for part, cost in d.items if part.id == ids[role])
    return Optimum(round(usd, 2), ids, built - start, solved - built, combos, rounds, lazy_ids)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--gpus", type=int, default=4)
    parser.add_argument("--as-of", default="2025-07-23")
    parser.add_argument("--max-combos", type=int, default=50_000, help="a bigger rule table is added lazily")
    parser.add_argument("--max-rounds", type=int, default=100_000, help="give up after this many CP-SAT solves")
    parser.add_argument("--check", action="store_true", help="also run partpicker's search; the optima must agree")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    catalog = load_catalog([args.catalog])
    loaded = time.perf_counter()
    rules = load_rules()
    day = dt.date.fromisoformat(args.as_of)
    request = Request(gpus=args.gpus, min_storage_gb=0, as_of=day, stale_days=DEFAULT_STALE_DAYS)  # as `suggest` asks
    out: dict[str, Any] = {"load_s": loaded - start}
    try:
        found = solve_cpsat(catalog, rules, request, args.max_combos, args.max_rounds)
    except TooBig as exc:
        out.update(error=f"too big: {exc}")
    else:
        out.update(usd=found.usd, build_s=found.build_s, solve_s=found.solve_s, combos=found.combos)
        out.update(rounds=found.rounds, lazy_rules=list(found.lazy_rules))
        if args.check:
            best = Search(catalog, rules, request).run()
            out["partpicker_usd"] = best[0][0] if best else None
            out["agree"] = out["partpicker_usd"] == found.usd
    out["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))
    return 0 if out.get("agree", True) else 1


if __name__ == "__main__":
    sys.exit(main())
