"""The answer to a `suggest` request: the cheapest builds found, or why there is none, with
why each part was taken over a cheaper one."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Literal

from partpicker.build import ROLES, Build
from partpicker.catalog.load import Catalog, gc_paused
from partpicker.errors import ExitCode
from partpicker.models import Part
from partpicker.pricing import line_usd
from partpicker.rules.graph import unary_rules
from partpicker.rules.rulebook import RuleSpec
from partpicker.suggest.offer import Priced, Request
from partpicker.suggest.search import Search
from partpicker.validate.engine import message, run_rule


@dataclass(frozen=True)
class Choice:
    """One suggested build."""

    build: Build
    prices: dict[str, Priced]
    now_usd: float
    full_usd: float


@dataclass(frozen=True)
class Stats:
    """How much work the search did."""

    offered: dict[str, int]
    after_unary: dict[str, int]
    after_dominance: dict[str, int]
    nodes: int
    rule_checks: int


@dataclass(frozen=True)
class Solution:
    """The answer: builds cheapest first, or why there is none."""

    status: Literal["ok", "infeasible"]
    request: Request
    choices: tuple[Choice, ...]
    cheapest_usd: float | None
    reason: str
    binding: tuple[str, ...]
    stats: Stats
    as_of: dt.date

    @property
    def exit_code(self) -> ExitCode:
        """CLEAN with a build, FINDINGS without one."""
        return ExitCode.CLEAN if self.status == "ok" else ExitCode.FINDINGS


def solve(catalog: Catalog, rules: dict[str, RuleSpec], request: Request) -> Solution:
    """The cheapest valid build(s) for a request, or why there is none."""
    search = Search(catalog, rules, request)
    with gc_paused():  # the search makes many short-lived objects and no cycles worth chasing
        found = search.run()
    prices = {role: {p.part.id: p for p in items} for role, items in search.offered.items()}
    choices = tuple(_choice(search, assigned, prices) for _, assigned in found)
    stats = _stats(search)
    within = [c for c in choices if request.budget is None or c.now_usd <= request.budget + 1e-9]
    if within:
        return Solution(
            "ok", request, tuple(within), within[0].now_usd, "", _binding(search, within[0]), stats, search.day
        )
    cheapest = _cheapest_over_budget(catalog, rules, request, prices) if not found else None
    return Solution("infeasible", request, (), cheapest, _why(search, request, cheapest), (), stats, search.day)


def _stats(search: Search) -> Stats:
    return Stats(
        offered={r: len(v) for r, v in search.offered.items()},
        after_unary=search.after_unary,
        after_dominance=search.after_dominance,
        nodes=search.nodes,
        rule_checks=search.checks,
    )


def _cheapest_over_budget(
    catalog: Catalog, rules: dict[str, RuleSpec], request: Request, prices: dict[str, dict[str, Priced]]
) -> float | None:
    """With a budget, what the cheapest build would cost without it (None: no budget, or no build)."""
    if request.budget is None:
        return None
    unbounded = Search(catalog, rules, replace(request, budget=None, top=1))
    best = unbounded.run()
    return _choice(unbounded, best[0][1], prices).now_usd if best else None


def _choice(search: Search, assigned: dict[str, Part], prices: dict[str, dict[str, Priced]]) -> Choice:
    build = replace(search._build(assigned), name="suggestion")
    chosen = {role: prices[role][part.id] for role, part in assigned.items()}
    req = search.request
    now = sum(line_usd(p.usd, req.bought_now(r)) for r, p in chosen.items())
    full = now + sum(line_usd(p.usd, req.at_full_scale(r) - req.bought_now(r)) for r, p in chosen.items())
    ordered = {role: chosen[role] for role in ROLES if role in chosen}
    return Choice(build, ordered, round(now, 2), round(full, 2))


def _binding(search: Search, choice: Choice) -> tuple[str, ...]:
    """For each role, why no cheaper offered part was taken: the nearest cheaper part and
    the rule it would break in this build (or that it fits but costs more elsewhere)."""
    out = []
    assigned = {role: p.part for role, p in choice.prices.items()}
    for role, chosen in choice.prices.items():
        cheaper = sorted((p for p in search.offered[role] if p.usd < chosen.usd), key=lambda p: -p.usd)
        if not cheaper:
            out.append(f"{role}: the cheapest offered")
            continue
        alt = cheaper[0]
        swapped = {**assigned, role: alt.part}
        reason = "fits this build, but every build with it costs more overall"
        for rule in sorted(search.rules, key=lambda r: len(r.roles)):  # its own rules first
            if role not in rule.roles or search.status(rule, swapped) in search.accepted:
                continue
            # Only the rule that fails is run again, for its message.
            params = rule.defaults()
            outcome = run_rule(rule, search._build(swapped), params, search.layouts)
            reason = f"fails {rule.id}: {message(rule, outcome)}"
            break
        more = f" (and {len(cheaper) - 1} cheaper still)" if len(cheaper) > 1 else ""
        out.append(f"{role}: {alt.part.name} (${alt.usd:,.2f}){more} is cheaper but {reason}")
    return tuple(out)


def _none_offered(search: Search, request: Request, empty: list[str]) -> str:
    """Why the roles ``empty`` have nothing on offer, and the date to try if every price is stale."""
    why = (
        f"no {', '.join(empty)} is offered as of {search.day} (priced within {request.stale_days} days"
        f"{' and matching the pins' if request.require or request.gpu else ''})"
    )
    newest = [p.date for r in empty for part in search.catalog.by_category[r] for p in part.prices]
    if newest and max(newest) < search.day - dt.timedelta(days=request.stale_days):
        why += f"; the newest price of one is dated {max(newest)}: try --as-of {max(newest)} or a larger --stale-days"
    return why


def _why(search: Search, request: Request, cheapest: float | None) -> str:
    if cheapest is not None and request.budget is not None:
        return (
            f"the cheapest {request.gpus}-GPU-ready build costs ${cheapest:,.2f} now; raise the budget by "
            f"${cheapest - request.budget:,.2f} or allow older prices (--stale-days, --as-of)"
        )
    empty = [r for r in search.order if not search.offered[r]]
    if empty:
        return _none_offered(search, request, empty)
    unary_empty = [r for r in search.order if search.after_unary.get(r) == 0]
    if unary_empty:
        rules = unary_rules(search.graph, unary_empty[0])
        return f"no offered {unary_empty[0]} passes {', '.join(rules)}"
    common = ", ".join(f"{rid} ({n}x)" for rid, n in search.failures.most_common(4))
    return f"no combination of offered parts passes every rule; the rules that cut most: {common}"
