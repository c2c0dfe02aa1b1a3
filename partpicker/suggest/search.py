"""`suggest`: the provably cheapest valid build, by exact search over the constraint graph.

1. Offer: each role's parts priced as of the date (newest point within the staleness
   window), minus exclusions, narrowed by pins (`--require`, `--gpu`) and `--min-vram`.
2. Filter each role by its unary rules (graph rule nodes of degree one).
3. Prune dominated parts (:mod:`partpicker.suggest.dominance`).
4. Branch and bound over the roles, in an order read off the graph (each step completes
   as many rules as it can). A rule is checked as soon as all its roles are chosen; when
   all roles but one of a rule are chosen, that role's domain is filtered by it (forward
   checking). The bound is the cost so far plus the cheapest remaining part of every
   unchosen role: admissible, so no cheaper build is ever cut. Candidates are tried
   cheapest first, so the first break on the bound ends a whole level.

On a JSON Lines catalog `suggest` reads, step 1 is made while the file streams by, and only
what the request can choose is kept (:mod:`partpicker.suggest.reduce`).

Every error-severity rule of the profile must *pass* (unknown is not enough, unless the
request says ``allow_unknown``: then the answer is the cheapest build not known to fail);
warnings are enforced only with ``strict``, or those the request names in ``enforce``.
With ``top`` K, each build found differs from every cheaper one in CPU, motherboard or GPU
(:data:`~partpicker.suggest.offer.VARIETY_ROLES`). Results are exact: tests compare them
with brute force.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from partpicker.build import ROLES, Build, Line
from partpicker.catalog.load import Catalog
from partpicker.errors import SettingError
from partpicker.models import Part
from partpicker.pricing import today
from partpicker.rules.checks import RELAXATIONS, Sieve
from partpicker.rules.graph import build_graph, unary_rules
from partpicker.rules.rulebook import RuleSpec, rules_for
from partpicker.suggest import dominance
from partpicker.suggest.offer import VARIETY_ROLES, Priced, Request, offer
from partpicker.suggest.reduce import Freezer, class_key, fields_read
from partpicker.validate.engine import run_rule


class Domain(NamedTuple):
    """The candidates of a role, cheapest first, and a key naming them by value: the role
    (its domain after unary rules and dominance), then each forward filtering of it (the
    rules, and the classes of the chosen parts they read), so that branches that narrow a
    domain alike share the memos keyed by it."""

    key: Hashable
    items: list[tuple[Part, float]]


class Classes(NamedTuple):
    """The parts of a domain by class for a rule (see :meth:`Search._spec_class`)."""

    of: list[int]
    """For each part of the domain, the index of its class."""
    representatives: list[Part]
    """One part per class (its first)."""
    ids: list[int]
    """The class of each representative."""
    sizes: list[int]
    """How many parts of the domain each class has."""
    masks: list[int]
    """The parts of each class, as a bit mask (bit i: the domain's part i)."""


def _cost_then_id(item: tuple[Part, float]) -> tuple[float, str]:
    """The order of a role's parts at their costs: cost, then id."""
    return item[1], item[0].id


def variety_key(assigned: dict[str, Part]) -> tuple[str, ...]:
    """The parts two builds of ``--top K`` must not all share."""
    return tuple(assigned[r].id for r in VARIETY_ROLES if r in assigned)


@dataclass
class _Shared:
    """What the searches of one catalog share when they ask rules of builds of one shape
    (profile, GPU counts, date, power limit): rule statuses by the classes of the parts they
    read, layouts, and those classes (one names the values of the fields a rule reads of a
    role)."""

    rules: dict[str, RuleSpec]
    """The rules the statuses are of, by id (kept, so that an id names one rule here)."""
    cache: dict[tuple[Any, ...], str] = field(default_factory=dict)
    layouts: dict[Any, Any] = field(default_factory=dict)
    spec_ids: dict[Hashable, int] = field(default_factory=dict)
    class_ids: dict[tuple[str, str], dict[str, int]] = field(default_factory=dict)
    lines: dict[tuple[str, str], tuple[Line, ...]] = field(default_factory=dict)


def _shared(catalog: Catalog, rules: list[RuleSpec], request: Request, day: dt.date) -> _Shared:
    """The :class:`_Shared` state of a search, kept with the catalog (emptied with its memo).

    A status depends on the rule and on the build it is run on: the classes of its parts,
    and the build's profile, GPU target, part counts, date and power limit, which the key holds; a rule
    set whose rule of some id is another object than the state's gets a state of its own."""
    counts = tuple(request.bought_now(role) for role in ROLES)  # the lines of :meth:`Search._build`
    shape = (request.profile, request.gpus, counts, day, request.power_limit_w)
    states: list[_Shared] = catalog.memo.setdefault(("search-shared", shape), [])
    for state in states:
        if all(state.rules.get(r.id, r) is r for r in rules):
            state.rules.update((r.id, r) for r in rules)
            return state
    state = _Shared({r.id: r for r in rules})
    states.append(state)
    return state


class Search:
    """Branch and bound over one request (see the module docstring)."""

    def __init__(
        self, catalog: Catalog, rules: dict[str, RuleSpec], request: Request, *, count_failures: bool = True
    ) -> None:
        if request.start_gpus > request.gpus:
            raise SettingError(
                "start_gpus",
                f"the GPUs to start with ({request.start_gpus}) are more than the GPUs to scale to ({request.gpus})",
                flag_what=f" {request.start_gpus} is more than the GPUs to scale to ({request.gpus})",
            )
        self.request = request
        self.day = request.as_of or today()
        severities = {"error"} | ({"warning"} if request.strict else set())
        self.rules = [
            r
            for r in rules_for(request.profile, rules)
            if (r.severity in severities or r.id in request.enforce) and all(role in request.roles for role in r.roles)
        ]
        self.graph = build_graph(self.rules)
        self.accepted = {"pass", "unknown"} if request.allow_unknown else {"pass"}
        self.catalog = catalog
        reduced = catalog.reduction
        if reduced is not None and not reduced.admits(request, self.day, {r: self._fields(r) for r in request.roles}):
            raise ValueError("this catalog was reduced for another request (partpicker.suggest.reduce)")
        self.offered = offer(catalog, request, self.day)
        self.offers: dict[str, dict[str, Priced]] | None = None
        self._frozen = Freezer.of(catalog)
        shared = _shared(catalog, self.rules, request, self.day)
        self.cache: dict[tuple[Any, ...], str] = shared.cache
        """Rule statuses by the classes of the parts they read (shared by the searches of one
        catalog, rule set and build shape: `suggest` searches up to three times)."""
        self.layouts: dict[Any, Any] = shared.layouts
        self.spec_ids: dict[Hashable, int] = shared.spec_ids
        self.class_ids: dict[tuple[str, str], dict[str, int]] = shared.class_ids
        self.lines: dict[tuple[str, str], tuple[Line, ...]] = shared.lines
        self.alike_classes: dict[str, int] = {}
        self.failures: Counter[str] = Counter()
        """How often each rule *failed* (not: was unknown) on a candidate."""
        self.count_failures = count_failures
        """Whether to count :attr:`failures` (which an infeasible answer reads); without, a
        domain that one rule empties is not filtered by the others."""
        self.relaxing = not count_failures and self.accepted == {"pass"}
        """Whether parts are dropped by the rules' relaxations (before the search, and as parts
        are chosen): where only a pass is accepted, and failures are not counted (dropped parts
        would not be)."""
        self.forward_rules: dict[tuple[str, str, frozenset[str]], list[RuleSpec]] = {}
        self.forward_memo: dict[Hashable, Domain] = {}
        self.relaxing_rules: dict[tuple[str, str], list[RuleSpec]] = {}
        self.passing_memo: dict[Hashable, tuple[int, int]] = {}
        self.class_memo: dict[tuple[str, str, Hashable], Classes] = {}
        self.nodes = 0
        self.checks = 0
        self.order = self._order()

    # -- building blocks -------------------------------------------------------------

    def _build(self, assigned: dict[str, Part]) -> Build:
        """The build of the chosen parts (GPUs: as many as bought now), as :meth:`Build.of`
        makes it, of lines made once per part (a rule is run on thousands of builds)."""
        lines: dict[str, tuple[Line, ...]] = {}
        for role in ROLES:
            part = assigned.get(role)
            if part is not None:
                line = self.lines.get((role, part.id))
                if line is None:
                    line = self.lines[(role, part.id)] = (
                        Line(self.catalog.part_of(part), self.request.bought_now(role)),
                    )
                lines[role] = line
        return Build(
            name="suggestion",
            profile=self.request.profile,
            target_gpus=self.request.gpus,
            parts=lines,
            as_of=self.day,
            power_limit_w=self.request.power_limit_w,
        )

    def _spec_class(self, rule: RuleSpec, role: str, part: Part) -> int:
        """A small number naming the values of the fields ``rule`` reads of ``part``: parts
        with equal numbers are alike to that rule (cached per part id)."""
        ids = self.class_ids.get((rule.id, role))
        if ids is None:
            ids = self.class_ids[(rule.id, role)] = {}
        found = ids.get(part.id)
        if found is None:
            fields = tuple(rule.reads[role])
            specs = (rule.id, role, fields, tuple(self._frozen(getattr(part, name)) for name in fields))
            found = ids[part.id] = self.spec_ids.setdefault(specs, len(self.spec_ids))
        return found

    def status(self, rule: RuleSpec, assigned: dict[str, Part]) -> str:
        """A rule's status on the chosen parts of its roles, cached by the specs it reads
        (so two boards with one slot map, or two cards of one width, share one check)."""
        key = (rule.id, *(self._spec_class(rule, r, assigned[r]) for r in rule.roles))
        found = self.cache.get(key)
        return self._run_status(key, rule, assigned) if found is None else found

    def _run_status(self, key: tuple[Any, ...], rule: RuleSpec, assigned: dict[str, Part]) -> str:
        """Run ``rule`` on the chosen parts of its roles; cache its status under ``key``."""
        self.checks += 1
        build = self._build({r: assigned[r] for r in rule.roles})
        found = self.cache[key] = run_rule(rule, build, rule.defaults(), self.layouts, explain=False).status
        return found

    def _order(self, domains: dict[str, Domain] | None = None) -> list[str]:
        """Roles in search order, read off the graph: greedily the role that completes the
        most rules, ties by the most rules touched, then by the widest price spread (deciding
        the costly choices first tightens the bound soonest), then by name."""
        order: list[str] = []
        remaining = set(self.request.roles)

        def spread(role: str) -> float:
            found = (domains or {}).get(role)
            prices = [price for _, price in found.items] if found else []
            return max(prices) - min(prices) if prices else 0.0

        while remaining:

            def score(role: str) -> tuple[int, int, float]:
                done = set(order) | {role}
                rule_nodes = list(self.graph.neighbors(role))
                completes = sum(1 for n in rule_nodes if set(self.graph.neighbors(n)) <= done)
                return (completes, len(rule_nodes), spread(role))

            best = max(sorted(remaining), key=score)
            order.append(best)
            remaining.remove(best)
        return order

    def rules_completed_by(self, role: str, done: set[str]) -> list[RuleSpec]:
        return [r for r in self.rules if role in r.roles and set(r.roles) <= done]

    # -- the search ------------------------------------------------------------------

    def domains(self) -> dict[str, Domain]:
        """Each role's domain after unary rules, the rules' relaxations (:meth:`_relaxed`) and
        dominance, with its cost weight."""
        self.after_unary: dict[str, int] = {}
        self.after_relaxation: dict[str, int] = {}
        self.after_dominance: dict[str, int] = {}
        candidates: dict[str, list[tuple[Part, float]]] = {}
        for role in self.request.roles:
            unary_ids = set(unary_rules(self.graph, role))
            unary = [r for r in self.rules if r.id in unary_ids]
            items = self._alike_of(role)
            for rule in unary:  # one check per class of alike parts, as in forward filtering
                items = self._filter(role, {}, Domain(("unary", role, rule.id), items), [rule], count=True)
            self.after_unary[role] = len(items)
            candidates[role] = items
        if self.relaxing:  # (before dominance, which then compares fewer parts)
            candidates = self._relaxed(candidates)
        out: dict[str, Domain] = {}
        for role, items in candidates.items():
            self.after_relaxation[role] = len(items)
            pruned = dominance.prune(
                items,
                role,
                keep=self.request.top if role in VARIETY_ROLES else 1,
                strict=self.request.strict,
                enforced=frozenset(self.request.enforce),
                unknown_is_best=self.request.allow_unknown,
                freezer=self._frozen,
                memo=self.catalog.memo,
            )
            self.after_dominance[role] = len(pruned)
            out[role] = Domain(role, pruned)
        return out

    def _relaxed(self, candidates: dict[str, list[tuple[Part, float]]]) -> dict[str, list[tuple[Part, float]]]:
        """The candidates without the parts that no build of the other roles' candidates can
        make pass a rule (see :func:`partpicker.rules.checks.can_pass`; what a relaxation
        remembers of a part is kept with the catalog, for the next search)."""
        out = dict(candidates)
        for rule in self.rules:
            for role, relaxation in RELAXATIONS.get(rule.id, {}).items():
                sieve = self._sieve(rule, role, {r: [part for part, _ in out[r]] for r in relaxation.reads})
                out[role] = [(part, cost) for part, cost in out[role] if sieve(part)]
        return out

    def _sieve(self, rule: RuleSpec, role: str, others: dict[str, list[Part]]) -> Sieve:
        """The test of a part of ``role`` that ``rule``'s relaxation makes of ``others``."""
        memo = self.catalog.memo.setdefault("relaxations", {})  # (one for all: a board's slot places serve three)
        return RELAXATIONS[rule.id][role].sieve_of(others, self.request.gpus, rule.defaults(), memo)

    def _forward_relaxations(self, role: str, other: str) -> list[RuleSpec]:
        """The rules with a relaxation for ``other`` that reads ``role``."""
        key = (role, other)
        rules = self.relaxing_rules.get(key)
        if rules is None:
            rules = self.relaxing_rules[key] = [
                r for r in self.rules if other in RELAXATIONS.get(r.id, {}) and role in RELAXATIONS[r.id][other].reads
            ]
        return rules

    def _relax_forward(
        self, role: str, assigned: dict[str, Part], rest: Sequence[str], out: dict[str, Domain]
    ) -> dict[str, Domain] | None:
        """``out`` without parts of the unchosen roles that, now that ``role`` is chosen, no
        build of the chosen parts and of the other domains can make pass a rule (its
        relaxation: :meth:`_relaxed`), memoised as forward filtering is; None if one empties."""
        for other in rest:
            for rule in self._forward_relaxations(role, other):
                reads = RELAXATIONS[rule.id][other].reads
                where = tuple(assigned[r].id if r in assigned else out[r].key for r in reads)
                key = ("relaxed", rule.id, out[other].key, where)
                kept = self.forward_memo.get(key)
                if kept is None:
                    others = {r: [assigned[r]] if r in assigned else [p for p, _ in out[r].items] for r in reads}
                    sieve = self._sieve(rule, other, others)
                    kept = self.forward_memo[key] = Domain(key, [(p, c) for p, c in out[other].items if sieve(p)])
                if not kept.items:
                    return None
                out[other] = kept
        return out

    def priced(self, role: str, part: Part) -> Priced:
        """The offer of a chosen part, with its pydantic part (a JSON Lines part is a slim
        record until a rule is run on it, or it is chosen)."""
        found = self.offer_of(role, part.id)
        return Priced(self.catalog.part_of(found.part), found.usd, found.date, found.kind)

    def offer_of(self, role: str, part_id: str) -> Priced:
        """The offer of ``role`` of the part with this id, as the search holds it."""
        if self.offers is None:
            self.offers = {r: {p.part.id: p for p in items} for r, items in self.offered.items()}
        return self.offers[role][part_id]

    def _alike_of(self, role: str) -> list[tuple[Part, float]]:
        """:meth:`_alike_cheapest` of the parts on offer for ``role`` at their cost weight,
        kept with the catalog for the searches that ask it alike (same offer, fields, weight
        and ``top``)."""
        offered, weight = self.offered[role], self.request.weight(role)
        keep = self.request.top if role in VARIETY_ROLES else 1
        key = ("alike-kept", role, self._fields(role), keep, weight, id(offered))
        found = self.catalog.memo.get(key)
        if found is None or found[0] is not offered:  # (the offer is kept with it: ids stay unique)
            items = [(priced.part, priced.usd * weight) for priced in offered]
            reduced = self.catalog.reduction
            known = None if reduced is None else reduced.classes(role, self._fields(role), keep)
            if known is None:
                items = self._alike_cheapest(role, items)
            else:  # (the reduction kept only these of each class: sorted, they are what it keeps)
                items.sort(key=_cost_then_id)
                self.alike_classes[role] = known
            found = self.catalog.memo[key] = (offered, items, self.alike_classes[role])
        self.alike_classes[role] = found[2]
        return list(found[1])

    def _fields(self, role: str) -> tuple[str, ...]:
        """Every field the rules read of ``role``, sorted."""
        return fields_read(self.rules, role)

    def offered_count(self, role: str) -> int:
        """How many parts the catalog offers for ``role`` (a reduced one: before it was)."""
        reduced = self.catalog.reduction
        return len(self.offered[role]) if reduced is None else int(reduced.offered(role))

    def cheaper(self, role: str, usd: float) -> tuple[Priced | None, int]:
        """The nearest offered part of ``role`` cheaper than ``usd`` (of the dearest such, the
        first in the catalog), and how many offered parts are cheaper."""
        reduced = self.catalog.reduction
        if reduced is not None:
            found: tuple[Priced | None, int] = reduced.cheaper(role, usd)
            return found
        cheaper = sorted((p for p in self.offered[role] if p.usd < usd), key=lambda p: -p.usd)
        return (cheaper[0] if cheaper else None), len(cheaper)

    def _alike_cheapest(self, role: str, items: list[tuple[Part, float]]) -> list[tuple[Part, float]]:
        """Per class of parts alike on every field the rules read of ``role``, the cheapest
        (ties: the first id); of a CPU, board or GPU, the ``top`` cheapest.

        Exact: a build with any other member of a class has the same rule statuses as with
        each kept one, and costs at least as much as each. Outside the variety roles, the kept
        one gives a build of the same CPU, board and GPU as cheap or cheaper, which `--top`
        keeps instead; in them, the K kept members give K builds of other CPUs, boards or
        GPUs as cheap or cheaper, so that build is not among the K answers.
        """
        fields = self._fields(role)
        keep = self.request.top if role in VARIETY_ROLES else 1
        kept: dict[Hashable, list[float]] = {}
        out: list[tuple[Part, float]] = []
        reduced = self.catalog.reduction
        key_of = (None if reduced is None else reduced.key_of(role, fields)) or class_key(fields, self._frozen)
        for part, cost in sorted(items, key=_cost_then_id):
            prices = kept.setdefault(key_of(part), [])
            if len(prices) < keep:
                prices.append(cost)
                out.append((part, cost))
        self.alike_classes[role] = len(kept)
        return out

    def run(self) -> list[tuple[float, dict[str, Part]]]:
        """The ``top`` cheapest builds with distinct objective totals, cheapest first."""
        domains = self.domains()
        self.order = self._order(domains)
        self.found: list[tuple[float, dict[str, Part]]] = []
        if all(domains[r].items for r in self.order):
            self._descend(0, {}, 0.0, 0.0, domains)
        return self.found

    def _bound(self) -> float:
        if len(self.found) < self.request.top:
            return float("inf")
        return self.found[-1][0]

    def _now_weight(self, role: str, cost: float) -> float:
        """The part of ``cost`` (the objective's) paid now."""
        now, weight = self.request.bought_now(role), self.request.weight(role)
        return cost if now == weight else cost * now / weight

    def _descend(
        self,
        depth: int,
        assigned: dict[str, Part],
        cost: float,
        now: float,
        domains: dict[str, Domain],
    ) -> None:
        self.nodes += 1
        if depth == len(self.order):
            self._record(cost, dict(assigned))
            return
        role = self.order[depth]
        rest = self.order[depth + 1 :]
        rest_lb = sum(domains[r].items[0][1] for r in rest)
        rest_now_lb = sum(self._now_weight(r, domains[r].items[0][1]) for r in rest)
        done = set(assigned) | {role}
        completed = self.rules_completed_by(role, done)
        for part, price in domains[role].items:
            if cost + price + rest_lb >= self._bound():
                break  # candidates are sorted by price: the rest are dearer still
            now_here = now + self._now_weight(role, price)
            if self._over_budget(now_here + rest_now_lb):
                continue  # objective "full": a dearer part may still be cheaper now
            assigned[role] = part
            if not self._passes(completed, assigned):
                continue
            narrowed = self._forward(role, assigned, rest, domains)
            if narrowed is not None:
                self._descend(depth + 1, assigned, cost + price, now_here, narrowed)
        assigned.pop(role, None)

    def _over_budget(self, now_usd: float) -> bool:
        return self.request.budget is not None and now_usd > self.request.budget + 1e-9

    def _passes(self, rules: list[RuleSpec], assigned: dict[str, Part]) -> bool:
        """Whether the chosen parts pass ``rules`` (the first failure is counted)."""
        for rule in rules:
            status = self.status(rule, assigned)
            if status not in self.accepted:
                if status == "fail":
                    self.failures[rule.id] += 1
                return False
        return True

    def _forward(
        self,
        role: str,
        assigned: dict[str, Part],
        rest: Sequence[str],
        domains: dict[str, Domain],
    ) -> dict[str, Domain] | None:
        """Filter each unchosen role by the rules that choosing ``role`` leaves it alone in
        (the domains were filtered by the earlier rules already); None if one empties."""
        out = dict(domains)
        done = set(assigned)
        for other in rest:
            rules = self._forward_rules(role, other, done)
            if not rules:
                continue
            kept = self._forward_filter(other, assigned, out[other], rules)
            if not kept.items:
                return None
            out[other] = kept
        return self._relax_forward(role, assigned, rest, out) if self.relaxing else out

    def _forward_rules(self, role: str, other: str, done: set[str]) -> list[RuleSpec]:
        """The rules that choosing ``role`` (with ``done`` chosen) leaves ``other`` alone in."""
        key = (role, other, frozenset(done))
        rules = self.forward_rules.get(key)
        if rules is None:
            rules = [r for r in self.rules if role in r.roles and other in r.roles and set(r.roles) - {other} <= done]
            rules.sort(key=lambda r: r.severity != "error")  # errors first: they empty domains soonest
            self.forward_rules[key] = rules
        return rules

    def _forward_filter(self, other: str, assigned: dict[str, Part], domain: Domain, rules: list[RuleSpec]) -> Domain:
        """:meth:`_filter`, memoised: the filtered domain depends only on the input domain and on
        what the rules read of the chosen parts (many branches share it); its key says both."""
        memo_key = (
            domain.key,
            tuple((r.id, *(self._spec_class(r, x, assigned[x]) for x in r.roles if x != other)) for r in rules),
        )
        kept = self.forward_memo.get(memo_key)
        if kept is None:
            kept = self.forward_memo[memo_key] = Domain(
                memo_key, self._filter(other, assigned, domain, rules, count=self.count_failures)
            )
        return kept

    def _filter(
        self,
        role: str,
        assigned: dict[str, Part],
        domain: Domain,
        rules: list[RuleSpec],
        *,
        count: bool = False,
    ) -> list[tuple[Part, float]]:
        """The parts of ``domain`` that pass ``rules`` with the chosen parts: each rule is
        checked once per class of alike parts, not once per part (``count``: each part a rule
        fails on is counted in :attr:`failures`)."""
        if not rules:
            return domain.items
        keep = -1  # a bit per part of the domain: whether it passes every rule so far
        trial = dict(assigned)
        for rule in rules:
            if not (keep or count):
                break  # empty already: the other rules need not be run
            passing, fails = self._passing(rule, role, assigned, domain, trial)
            if count:
                self.failures[rule.id] += fails
            keep &= passing
        # bin() gives the bits from the highest down: reversed, part i's bit is the i-th character.
        return list(itertools.compress(domain.items, map("1".__eq__, reversed(bin(keep)))))

    def _passing(
        self, rule: RuleSpec, role: str, assigned: dict[str, Part], domain: Domain, trial: dict[str, Part]
    ) -> tuple[int, int]:
        """The parts of ``domain`` that pass ``rule`` with the chosen parts, as a bit mask
        (bit i: part i), and how many it fails on; memoised by the domain and the classes of
        the chosen parts (a rule of a card and a case filters the cases alike for every
        board the card is tried on)."""
        context = tuple(self._spec_class(rule, r, assigned[r]) for r in rule.roles if r != role)
        key = (rule.id, domain.key, context)
        found = self.passing_memo.get(key)
        if found is None:
            classes = self._classes(rule, role, domain)
            statuses = self._verdicts(rule, role, classes.representatives, classes.ids, assigned, trial)
            mask = fails = 0
            for bits, size, status in zip(classes.masks, classes.sizes, statuses, strict=True):
                if status in self.accepted:
                    mask |= bits
                elif status == "fail":
                    fails += size
            found = self.passing_memo[key] = (mask, fails)
        return found

    def _verdicts(
        self,
        rule: RuleSpec,
        role: str,
        representatives: list[Part],
        ids: list[int],
        assigned: dict[str, Part],
        trial: dict[str, Part],
    ) -> list[str]:
        """The status of ``rule`` on each representative of ``role`` (of class ``ids``) with
        the chosen parts."""
        # The cache key of each representative differs only in this role's class.
        at = rule.roles.index(role) + 1
        fixed: list[Any] = [rule.id, *(self._spec_class(rule, r, assigned[r]) if r != role else 0 for r in rule.roles)]
        verdicts = []
        get = self.cache.get
        for part, cls in zip(representatives, ids, strict=True):
            fixed[at] = cls
            key = tuple(fixed)
            status = get(key)
            if status is None:
                trial[role] = part
                status = self._run_status(key, rule, trial)
            verdicts.append(status)
        return verdicts

    def _classes(self, rule: RuleSpec, role: str, domain: Domain) -> Classes:
        """The classes of the parts of ``domain`` for ``rule`` (memoised by the domain's key:
        the search passes the same domains down many branches)."""
        key = (rule.id, role, domain.key)
        memo = self.class_memo.get(key)
        if memo is not None:
            return memo
        index: dict[int, int] = {}
        classes: list[int] = []
        representatives: list[Part] = []
        members: list[list[int]] = []
        for i, (part, _) in enumerate(domain.items):
            cls = self._spec_class(rule, role, part)
            at = index.get(cls)
            if at is None:
                at = index[cls] = len(representatives)
                representatives.append(part)
                members.append([])
            members[at].append(i)
            classes.append(at)
        sizes = [len(m) for m in members]
        masks = [sum(1 << i for i in m) for m in members]
        found = self.class_memo[key] = Classes(classes, representatives, list(index), sizes, masks)
        return found

    def _record(self, cost: float, assigned: dict[str, Part]) -> None:
        """Keep the build if it is among the ``top`` cheapest, one per CPU, board and GPU."""
        total = round(cost, 2)
        key = variety_key(assigned)
        for i, (t, other) in enumerate(self.found):
            if variety_key(other) == key:
                if t <= total + 0.005:
                    return  # the same CPU, board and GPU: keep the cheaper (the first at a tie)
                del self.found[i]
                break
        self.found.append((total, assigned))
        self.found.sort(key=lambda ta: ta[0])
        del self.found[self.request.top :]
