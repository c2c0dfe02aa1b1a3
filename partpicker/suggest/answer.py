"""The answer to a `suggest` request. It always answers:

- **proven** (exit 0): the cheapest build every error rule *passes*; beside it, when one is
  cheaper if facts the catalog lacks hold, that one (``possible``) with what to verify;
- **unproven** (exit 3): no build is proven, so the cheapest build no rule is known to fail,
  with the facts to verify;
- **infeasible** (exit 1): every candidate is known to fail (or costs more than the budget);
  then the cheapest near miss, with the rule and the numbers that stop it.

At two GPUs or more the answer also gives the **builder's pick**: the cheapest build that
also clears the warnings that decide whether the machine works well (``BUILDER_WARNINGS``),
and what it costs more, when the cheapest does not clear them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from partpicker.build import ROLES, Build
from partpicker.catalog.load import Catalog, gc_paused
from partpicker.errors import ExitCode
from partpicker.models import Part
from partpicker.pricing import line_usd
from partpicker.rules.graph import unary_rules
from partpicker.rules.rulebook import RuleSpec
from partpicker.suggest import split
from partpicker.suggest.offer import Priced, Request
from partpicker.suggest.search import Search
from partpicker.validate.engine import evaluate, message, run_rule
from partpicker.validate.report import Report

BUILDER_WARNINGS = ("gpu-cooling", "ram-capacity")
"""Warnings that decide whether a multi-GPU machine works well: open-air cards packed back to
back throttle, and less RAM than total VRAM starves the data loaders."""
NEAR_MISS_RULES = 6
"""At most this many of the rules that failed most are relaxed one by one to find a near miss."""


@dataclass(frozen=True)
class Check:
    """A rule's finding on a suggested build: a fact to verify, or a warning."""

    rule: str
    severity: str
    message: str


@dataclass(frozen=True)
class Choice:
    """One suggested build."""

    build: Build
    prices: dict[str, Priced]
    now_usd: float
    full_usd: float
    objective_usd: float
    unknowns: tuple[Check, ...] = ()
    """Rules that could not be checked (what to verify before buying)."""
    warnings: tuple[Check, ...] = ()
    """Warning rules that fail."""
    weak: tuple[str, ...] = ()
    """Derived and recalled facts its passes rest on: what to check before buying, and where."""

    @property
    def proven(self) -> bool:
        return not any(c.severity == "error" for c in self.unknowns)


@dataclass(frozen=True)
class NearMiss:
    """The cheapest build that is stopped by one thing only: a rule, or the budget."""

    choice: Choice
    rule: str
    message: str


@dataclass(frozen=True)
class Stats:
    """How much work the search did."""

    offered: dict[str, int]
    after_unary: dict[str, int]
    after_dominance: dict[str, int]
    nodes: int
    rule_checks: int


Status = Literal["proven", "unproven", "infeasible"]


@dataclass(frozen=True)
class Solution:
    """The answer: builds cheapest first, or why there is none."""

    status: Status
    request: Request
    choices: tuple[Choice, ...]
    cheapest_usd: float | None
    reason: str
    binding: tuple[str, ...]
    stats: Stats
    as_of: dt.date
    possible: Choice | None = None
    """With a proven answer: a cheaper build if the facts it lacks hold."""
    builder: Choice | None = None
    """The cheapest build that also clears ``BUILDER_WARNINGS`` (when the first does not)."""
    near_miss: NearMiss | None = None
    retry_as_of: dt.date | None = None
    """With nothing offered for want of fresh prices: the date of the newest price, to ask as of."""
    proven_over_budget: Choice | None = None
    """With an unproven answer under a budget: the cheapest proven build over it, if any."""

    @property
    def exit_code(self) -> ExitCode:
        """CLEAN proven, UNPROVEN unproven, FINDINGS without a build."""
        return {"proven": ExitCode.CLEAN, "unproven": ExitCode.UNPROVEN}.get(self.status, ExitCode.FINDINGS)


@dataclass
class _Ctx:
    catalog: Catalog
    rules: dict[str, RuleSpec]
    request: Request


def solve(catalog: Catalog, rules: dict[str, RuleSpec], request: Request) -> Solution:
    """The answer to a request (see the module docstring)."""
    ctx = _Ctx(catalog, rules, request)
    # Failures are counted only where an infeasible answer may read them: without unknowns
    # accepted, a search that accepts them follows one that found nothing.
    search = Search(catalog, rules, request, count_failures=request.allow_unknown)
    early = _cheaper_beside(ctx, search)
    try:
        choices = _run(ctx, search)
        possible = builder = None
        if choices and not request.allow_unknown:
            cheaper, builder = _cheaper_and_builder(ctx, choices[0], early)
            possible = cheaper[0] if cheaper and cheaper[0].objective_usd < choices[0].objective_usd - 0.005 else None
        else:
            if not choices:
                search, choices = _search(ctx, replace(request, allow_unknown=True))
            if choices:
                builder = _builder(ctx, _builder_request(ctx, choices[0]))
    finally:
        if early is not None:
            early.cancel()  # (no proven build: the cheaper ones are not asked)
    if not choices:
        return _infeasible(ctx, search)
    status: Status = "proven" if choices[0].proven else "unproven"
    over = _proven_unbudgeted(ctx) if status == "unproven" else None
    stats = _stats(search)  # (before the reasons ask it of more builds: the statuses other searches left may differ)
    return Solution(
        status,
        request,
        choices,
        choices[0].now_usd,
        "",
        _binding(search, choices[0]),
        stats,
        search.day,
        possible=possible,
        builder=builder,
        proven_over_budget=over,
    )


BESIDE = 10_000
"""Offered parts (all roles) from which a search runs in a forked process beside another:
below, forking costs more than the search it moves."""


def _cheaper_request(ctx: _Ctx) -> Request:
    """The request of the builds cheaper than a proven answer if unknown facts hold."""
    return replace(ctx.request, allow_unknown=True, top=1)


def _cheaper_beside(ctx: _Ctx, search: Search) -> split.Forked[list[tuple[float, dict[str, str]]]] | None:
    """On a large catalog (:data:`BESIDE`, :func:`split.beside`), and unless unknowns are
    accepted: the search of the builds cheaper if unknowns hold, started in a forked process
    now, beside the answer's ``search`` (not yet run) and the builder's pick after it. Its
    request does not depend on the answer, only whether it is asked does (a proven answer)."""
    offered = sum(search.offered_count(role) for role in search.offered)
    if ctx.request.allow_unknown or not split.beside(offered, BESIDE):
        return None
    cheaper_request = _cheaper_request(ctx)
    return split.Forked(lambda: _found(ctx, cheaper_request))


def _cheaper_and_builder(
    ctx: _Ctx, best: Choice, early: split.Forked[list[tuple[float, dict[str, str]]]] | None
) -> tuple[tuple[Choice, ...], Choice | None]:
    """Beside a proven ``best``: the builds cheaper if unknowns hold, and the builder's pick.
    On a large catalog the first was started in a forked process (``early``:
    :func:`_cheaper_beside`) while this one searched the answer, and now the second: the same
    answers, sooner."""
    cheaper_request = _cheaper_request(ctx)
    builder_request = _builder_request(ctx, best)
    if early is None:
        return _search(ctx, cheaper_request, count=False)[1], _builder(ctx, builder_request)
    builder = _builder(ctx, builder_request)
    found = early.result()
    return _chosen(ctx, Search(ctx.catalog, ctx.rules, cheaper_request, count_failures=False), found), builder


def _found(ctx: _Ctx, request: Request) -> list[tuple[float, dict[str, str]]]:
    """The builds found for ``request``, as the ids of their parts (a forked process's answer)."""
    search = Search(ctx.catalog, ctx.rules, request, count_failures=False)
    with gc_paused():
        found = search.run()
    return [(total, {role: part.id for role, part in assigned.items()}) for total, assigned in found]


def _chosen(ctx: _Ctx, search: Search, found: Sequence[tuple[float, dict[str, str]]]) -> tuple[Choice, ...]:
    """The builds :func:`_found` names, as ``search`` (of the same request) would choose them."""
    runs = [(total, {r: search.offer_of(r, pid).part for r, pid in ids.items()}) for total, ids in found]
    return _within(ctx, search, runs)


def _search(
    ctx: _Ctx, request: Request, rules: dict[str, RuleSpec] | None = None, *, count: bool = True
) -> tuple[Search, tuple[Choice, ...]]:
    """The search for ``request`` and its builds within the budget, each with its findings
    (``count``: and how often each rule failed, which only an infeasible answer reads)."""
    search = Search(ctx.catalog, rules or ctx.rules, request, count_failures=count)
    return search, _run(ctx, search)


def _run(ctx: _Ctx, search: Search) -> tuple[Choice, ...]:
    """Run ``search``: its builds within the budget, each with its findings."""
    with gc_paused():  # the search makes many short-lived objects and no cycles worth chasing
        found = search.run()
    return _within(ctx, search, found)


def _within(ctx: _Ctx, search: Search, found: Sequence[tuple[float, dict[str, Part]]]) -> tuple[Choice, ...]:
    """The builds ``search`` found, with their findings, that its request's budget admits."""
    budget = search.request.budget
    choices = tuple(_choice(ctx, search, total, assigned) for total, assigned in found)
    return tuple(c for c in choices if budget is None or c.now_usd <= budget + 1e-9)


def with_report(solution: Solution, report: Report | None) -> Solution:
    """``solution`` with its first build's unknowns, warnings and weak facts read off
    ``report`` (its full report under other rule settings, e.g. a named wall circuit)."""
    if report is None or not solution.choices:
        return solution
    first = replace(solution.choices[0], **_findings(report))
    return replace(solution, choices=(first, *solution.choices[1:]))


def _findings(report: Report) -> dict[str, Any]:
    """A report's unknowns, failing warnings and weak facts, as :class:`Choice` fields."""
    return {
        "unknowns": tuple(Check(f.rule, f.severity, f.message) for f in report.findings if f.status == "unknown"),
        "warnings": tuple(
            Check(f.rule, f.severity, f.message)
            for f in report.findings
            if f.status == "fail" and f.severity != "error"
        ),
        "weak": tuple(f"{e.name}: {e.field} ({e.kind}) - {e.what_to_check()}" for e in report.verify),
    }


def _builder_request(ctx: _Ctx, best: Choice) -> Request | None:
    """At two GPUs or more, when ``best`` fails a builder's warning: the request for the
    cheapest build that clears them (ignoring the budget, so that its extra cost can be said;
    accepting unknowns where ``best`` is not proven)."""
    enforce = tuple(r for r in BUILDER_WARNINGS if r in ctx.rules)
    if ctx.request.gpus < 2 or not any(w.rule in enforce for w in best.warnings):
        return None
    return replace(ctx.request, enforce=enforce, top=1, budget=None, allow_unknown=not best.proven)


def _builder(ctx: _Ctx, request: Request | None) -> Choice | None:
    """The builder's pick (:func:`_builder_request`), if there is one to search for."""
    if request is None:
        return None
    found = _search(ctx, request, count=False)[1]
    return found[0] if found else None


def _stats(search: Search) -> Stats:
    return Stats(
        offered={r: search.offered_count(r) for r in search.offered},
        after_unary=search.after_unary,
        after_dominance=search.after_dominance,
        nodes=search.nodes,
        rule_checks=search.checks,
    )


def _choice(ctx: _Ctx, search: Search, total: float, assigned: dict[str, Part]) -> Choice:
    build = replace(search._build(assigned), name="suggestion")
    chosen = {role: search.priced(role, part) for role, part in assigned.items()}
    req = search.request
    now = sum(line_usd(p.usd, req.bought_now(r)) for r, p in chosen.items())
    full = now + sum(line_usd(p.usd, req.at_full_scale(r) - req.bought_now(r)) for r, p in chosen.items())
    ordered = {role: chosen[role] for role in ROLES if role in chosen}
    report = evaluate(build, ctx.rules, as_of=search.day, verified_only=req.verified_only)
    return Choice(build, ordered, round(now, 2), round(full, 2), total, **_findings(report))


def _binding(search: Search, choice: Choice) -> tuple[str, ...]:
    """For each role, why no cheaper offered part was taken: the nearest cheaper part and
    the rule it would break in this build (or that it fits but costs more elsewhere)."""
    out = []
    assigned = {role: p.part for role, p in choice.prices.items()}
    for role, chosen in choice.prices.items():
        alt, cheaper = search.cheaper(role, chosen.usd)
        if alt is None:
            out.append(f"{role}: the cheapest offered")
            continue
        swapped = {**assigned, role: alt.part}
        reason = "fits this build, but every build with it costs more overall"
        stop = _stopping_rule(search, role, swapped)
        if stop is not None:
            rule, status = stop
            # Only the rule that stops it is run again, for its message.
            outcome = run_rule(rule, search._build(swapped), rule.defaults(), search.layouts)
            verb = "fails" if status == "fail" else "cannot be checked on"
            reason = f"{verb} {rule.id}: {message(rule, outcome)}"
        more = f" (and {cheaper - 1} cheaper still)" if cheaper > 1 else ""
        out.append(f"{role}: {alt.part.name} (${alt.usd:,.2f}){more} is cheaper but {reason}")
    return tuple(out)


def _stopping_rule(search: Search, role: str, swapped: dict[str, Part]) -> tuple[RuleSpec, str] | None:
    """The rule of ``role`` that stops the swapped build, a failing one before one that cannot
    be checked (a PSU too small is said so, not that its cables are unknown), its own rules
    first; None if none does."""
    stopped = None
    for rule in sorted(search.rules, key=lambda r: len(r.roles)):
        if role not in rule.roles:
            continue
        status = search.status(rule, swapped)
        if status == "fail":
            return rule, status
        if status not in search.accepted and stopped is None:
            stopped = (rule, status)
    return stopped


# -- no build ----------------------------------------------------------------------------


def _infeasible(ctx: _Ctx, search: Search) -> Solution:
    """No candidate passes: the cheapest near miss, and why."""
    near = _over_budget(ctx) or _near_miss(ctx, search)
    cheapest = near.choice.now_usd if near and near.rule == "budget" else None
    why, retry = _why(search, ctx.request, near)
    return Solution(
        "infeasible",
        ctx.request,
        (),
        cheapest,
        why,
        (),
        _stats(search),
        search.day,
        near_miss=near,
        retry_as_of=retry,
    )


def _proven_unbudgeted(ctx: _Ctx) -> Choice | None:
    """With a budget (and unknowns not accepted): the cheapest build proven to pass without it."""
    request = ctx.request
    if request.budget is None or request.allow_unknown:
        return None
    found = _search(ctx, replace(request, budget=None, top=1), count=False)[1]
    return found[0] if found else None


def _over_budget(ctx: _Ctx) -> NearMiss | None:
    """With a budget, the cheapest build without it: proven if one is (so that raising the
    budget by what it says gives a proven answer), else the cheapest not known to fail,
    saying so (None: no budget, or no build at all)."""
    request = ctx.request
    if request.budget is None:
        return None
    proven = _proven_unbudgeted(ctx)
    if proven is not None:
        best, how = proven, "proven to pass "
    else:
        found = _search(ctx, replace(request, budget=None, top=1, allow_unknown=True), count=False)[1]
        if not found:
            return None
        best = found[0]
        how = "" if best.proven else "(not proven: it rests on unknown facts) "
    over = best.now_usd - request.budget
    text = f"{how}costs ${best.now_usd:,.2f} now, ${over:,.2f} over the budget of ${request.budget:,.2f}"
    return NearMiss(best, "budget", text)


def _near_miss(ctx: _Ctx, search: Search) -> NearMiss | None:
    """The cheapest build that fails only one rule, over the rules that failed most."""
    best: NearMiss | None = None
    for rule_id, _ in search.failures.most_common(NEAR_MISS_RULES):
        relaxed = {k: v for k, v in ctx.rules.items() if k != rule_id}
        found = _search(ctx, replace(ctx.request, allow_unknown=True, top=1), relaxed, count=False)[1]
        if not found or (best is not None and found[0].objective_usd >= best.choice.objective_usd):
            continue
        rule = ctx.rules[rule_id]
        outcome = run_rule(rule, found[0].build, rule.defaults(), {})
        best = NearMiss(found[0], rule_id, message(rule, outcome))
    return best


def _none_offered(search: Search, request: Request, empty: Sequence[str]) -> tuple[str, dt.date | None]:
    """Why the roles ``empty`` have nothing on offer, and the date to try if every price is stale."""
    sized = [r for r in empty if _too_small(search, request, r)]
    if sized:  # priced parts there are; none as large as asked
        return "; ".join(_size_wanted(request, r) for r in sized), None
    window = f"within {request.stale_days} days" if request.stale_days is not None else "on or before that day"
    why = (
        f"no {', '.join(empty)} is offered as of {search.day} (no price {window}"
        f"{' matching the pins' if request.require or request.gpu else ''})"
    )
    newest = [day for day in (_newest_price(search.catalog, r) for r in empty) if day is not None]
    if newest and request.stale_days is not None and max(newest) < search.day - dt.timedelta(days=request.stale_days):
        day, span = max(newest), (max(newest) - min(newest)).days
        why += f"; the newest price of one is dated {day}: ask as of that day, or allow older prices"
        if span > request.stale_days:  # as of that day the others are still older than the window
            why += f" (as of {day}, a window of at least {span} days offers every one of them)"
        return why, day
    return why, None


def _too_small(search: Search, request: Request, role: str) -> bool:
    """Whether ``role`` has parts priced as of the day, but none --min-vram / --min-storage
    lets in (the whole catalog only: a streamed one kept what the request offers)."""
    from partpicker.suggest.offer import big_enough, priced_parts

    if role not in ("gpu", "ssd") or search.catalog.reduction is not None or request.gpu or role in request.require:
        return False
    priced = priced_parts(search.catalog, role, search.day, request.stale_days)  # offer's list, memoised
    return bool(priced) and not any(big_enough(p.part, role, request) for p in priced)


def _size_wanted(request: Request, role: str) -> str:
    if role == "gpu":
        return f"no priced card has {request.min_vram:g} GB or more (--min-vram {request.min_vram:g})"
    return f"no priced drive holds {request.min_storage_gb} GB or more (--min-storage {request.min_storage_gb})"


def _newest_price(catalog: Catalog, category: str) -> dt.date | None:
    """The date of the newest price of any part of ``category`` (None: no price at all)."""
    if catalog.reduction is not None:
        found: dt.date | None = catalog.reduction.newest.get(category)
        return found
    return max((p.date for part in catalog.entries(category) for p in part.prices), default=None)


def _why(search: Search, request: Request, near: NearMiss | None) -> tuple[str, dt.date | None]:
    """Why there is no build, and the date to ask as of instead (if stale prices are why)."""
    if near is not None and near.rule == "budget":
        return (
            f"the cheapest {request.gpus}-GPU-ready build {near.message}; raise the budget by "
            f"${near.choice.now_usd - (request.budget or 0):,.2f}"
        ), None
    empty = [r for r in search.order if not search.offered[r]]
    if empty:
        return _none_offered(search, request, empty)
    unary_empty = [r for r in search.order if search.after_unary.get(r) == 0]
    if unary_empty:
        rules = unary_rules(search.graph, unary_empty[0])
        return f"no offered {unary_empty[0]} passes {', '.join(rules)}", None
    common = ", ".join(f"{rid} ({n}x)" for rid, n in search.failures.most_common(4) if n > 0)
    why = "no combination of offered parts passes every rule"
    if common:
        why += f"; the rules that failed most: {common}"
    if near is not None:
        why += f"; the cheapest near miss fails only {near.rule}: {near.message}"
    return why, None
