"""`suggest --workload`: the cheapest build whose GPUs hold a workload.

1. Every GPU model of the catalog, at N = 1..8 cards, is judged by ``workload.fit`` (the
   fullest card against its memory less the headroom). Per model only the smallest N that
   fits matters: a platform ready for N + 1 cards is also ready for N, and one card more
   costs more, so the cheapest build for a model is at its smallest fitting N.
2. For each (model, N) the suggest API answers the cheapest build ready for N cards with all
   N bought now (``solve``, unchanged). With ~40 models at ~0.05 s each, every option is
   solved: the ranking by total price is exact, not estimated.
3. The answer ranks the options proven first (a build every rule passes on known facts),
   then by total price, so an option that is cheaper only if unknown facts hold never
   displaces a proven one; it names the next cheaper option that almost
   fits (the (model, N) cheaper than the best build that misses by the least memory) and
   why not, and gives each build's power plan on the circuit.
4. An option with no build proven on one PSU is also solved on two units of one PSU model
   (``psu: {part: X, count: 2}``): two PSUs when one cannot carry the cards; only where it
   could still be shown (its floor, each role's cheapest part with two PSUs, is under the
   ``top``-th proven price and the budget).
5. When the plan needs a second circuit (no power limit of at least 60 % fits one), the
   cheapest catalog PSU that carries the second circuit's cards (watts with psu-wattage's
   margin, on a 100-120 V circuit its low-line rating, which must be known; a cable per
   socket; its wall draw within the circuit) is added: the option's price and build include
   it, with the per-GPU limit the two circuits need, if any.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from typing import Literal

from partpicker.build import Build, Line
from partpicker.catalog import Catalog
from partpicker.circuits import Circuit
from partpicker.errors import ExitCode
from partpicker.models import Gpu, Psu
from partpicker.pricing import fresh_price, today
from partpicker.rules import power as rule_power
from partpicker.rules.checks import Context, Unknown
from partpicker.rules.checks.gpu_power_connectors import cables_needed
from partpicker.rules.rulebook import RuleSpec
from partpicker.suggest.answer import Solution, solve
from partpicker.suggest.offer import Request, offer
from partpicker.workload import DEFAULT_HEADROOM, FitResult, GpuOption, ModelSpec, Workload, fit_grid
from partpicker.workload.fit import MAX_GPUS
from partpicker.workplan.gpus import gpu_options
from partpicker.workplan.power import PowerPlan, power_plan, with_second_psu

Status = Literal["ok", "over-budget", "no-build", "impossible"]


@dataclass(frozen=True)
class WorkRequest:
    """A workload, the suggest request it refines (budget, date, pins), and the circuit."""

    workload: Workload
    model: ModelSpec
    base: Request
    headroom: float = DEFAULT_HEADROOM
    circuit: Circuit | None = None
    top: int = 3
    gpu: str | None = None  # a GPU model the user pinned ('RTX 3090'), matched as suggest does
    room_gpus: int | None = None
    """--gpus with --workload: the build is ready for at least this many cards (room to grow),
    while the cards that hold the workload are bought now."""
    min_vram: float | None = None
    """--min-vram with --workload: only GPU models with at least this much memory per card."""


@dataclass(frozen=True)
class Option:
    """One GPU model and count that holds the workload, with the suggest answer for it."""

    fit: FitResult
    solution: Solution
    power: PowerPlan | None
    second_psu_usd: float | None = None
    """The price of the second PSU the power plan adds (None: the plan adds none)."""

    @property
    def total_usd(self) -> float | None:
        if not self.solution.choices:
            return None
        return self.solution.choices[0].now_usd + (self.second_psu_usd or 0.0)

    @property
    def proven(self) -> bool:
        """Whether its build passes every rule on known facts (not only if unknown facts hold)."""
        return self.solution.status == "proven"

    @property
    def second_psu(self) -> Psu | None:
        """The PSU the power plan adds for a second circuit, if any."""
        return self.power.psus[1] if self.second_psu_usd is not None and self.power else None

    @property
    def build(self) -> Build | None:
        """The suggested build, with the plan's second PSU listed when it adds one."""
        if not self.solution.choices:
            return None
        build = self.solution.choices[0].build
        if self.power is None or self.power.split is None:
            return build
        limit = self.power.split.limit_w or build.power_limit_w  # the two circuits' per-GPU limit
        extra = self.second_psu
        if extra is None:  # two PSUs already (a counted pair): one per circuit, at the limit
            return replace(build, power_limit_w=limit)
        return replace(build, parts={**build.parts, "psu": (*build.parts["psu"], Line(extra))}, power_limit_w=limit)


@dataclass(frozen=True)
class Miss:
    """The next cheaper option that almost fits, and why not."""

    fit: FitResult
    total_usd: float | None  # its cheapest build, when there is one


@dataclass(frozen=True)
class WorkAnswer:
    """Builds that hold the workload, cheapest first, or why there is none (with numbers)."""

    status: Status
    request: WorkRequest
    options: tuple[Option, ...]  # with a build, cheapest first (at most ``top``)
    unbuilt: tuple[Option, ...]  # (model, N) that fit but have no build, and suggest's reason
    miss: Miss | None
    reason: str
    closest: FitResult | None  # for 'impossible': the option that comes closest
    unsearched: tuple[FitResult, ...] = ()
    """(model, N) that fit but were not searched: each role's cheapest part already costs at
    least the ``top``-th proven option shown."""

    @property
    def exit_code(self) -> ExitCode:
        """The cheapest option's: CLEAN proven, UNPROVEN if only unknown facts let it pass;
        FINDINGS when no option has a build."""
        if self.status == "ok" and self.options:
            return self.options[0].solution.exit_code
        return ExitCode.CLEAN if self.status == "ok" else ExitCode.FINDINGS


def _smallest_fitting(grid: list[FitResult]) -> list[FitResult]:
    """Per GPU model, its smallest fitting N."""
    best: dict[tuple[str, float], FitResult] = {}
    for r in grid:
        key = (r.gpu, r.vram_gb)
        if r.fits and (key not in best or r.n_gpus < best[key].n_gpus):
            best[key] = r
    return list(best.values())


def _request(req: WorkRequest, r: FitResult, psus: int | None = None) -> Request:
    """The suggest request for ``r``'s cards, all bought now (on ``psus`` PSUs if given)."""
    gpus = max(r.n_gpus, req.room_gpus or 0)
    base = replace(req.base, gpus=gpus, start_gpus=r.n_gpus, gpu=r.gpu, min_vram=0.0)
    return base if psus is None else replace(base, psus=psus)


def _solution_rank(s: Solution) -> tuple[int, float]:
    """Proven before unproven before none; then the cheaper."""
    order = {"proven": 0, "unproven": 1}.get(s.status, 2)
    return order, s.choices[0].now_usd if s.choices else 0.0


def _floor_usd(catalog: Catalog, request: Request, day: dt.date) -> float | None:
    """A lower bound on any build's price for ``request``: each role's cheapest offered part,
    as many as are bought (None: a role has nothing on offer, so there is no build)."""
    offered = offer(catalog, request, day)
    if any(not items for items in offered.values()):
        return None
    return sum(min(p.usd for p in items) * request.bought_now(role) for role, items in offered.items())


def _threshold(options: list[Option], top: int) -> float:
    """The price a build must beat to be among the ``top`` proven options shown."""
    proven = sorted(o.total_usd or 0.0 for o in options if o.proven)
    return proven[top - 1] if len(proven) >= top else float("inf")


def _with_two_psus(
    catalog: Catalog, rules: dict[str, RuleSpec], req: WorkRequest, options: list[Option]
) -> list[Option]:
    """Options with no build proven on one PSU, solved again on two units of one PSU model,
    cheapest floor first, where two could still be among the options shown: a floor (each
    role's cheapest part, two PSUs) at or above the ``top``-th proven price, or over the
    budget, cannot, and is not searched."""
    if req.base.psus != 1:  # the user chose the PSU count
        return options
    out = list(options)
    floors = {}
    for i, o in enumerate(out):
        if not o.proven:
            floors[i] = _floor_usd(catalog, _request(req, o.fit, psus=2), o.solution.as_of)
    budget = req.base.budget if req.base.budget is not None else float("inf")
    for i in sorted((i for i, f in floors.items() if f is not None), key=lambda i: floors[i] or 0.0):
        floor = floors[i] or 0.0
        if floor >= _threshold(out, req.top) or floor > budget + 1e-9:
            continue
        two = _option(catalog, rules, req, out[i].fit, psus=2)
        if _solution_rank(two.solution) < _solution_rank(out[i].solution):
            out[i] = two
    return out


def _option(
    catalog: Catalog, rules: dict[str, RuleSpec], req: WorkRequest, r: FitResult, psus: int | None = None
) -> Option:
    solution = solve(catalog, rules, _request(req, r, psus))
    if not solution.choices or req.circuit is None:
        return Option(r, solution, None)
    build = solution.choices[0].build
    plan = power_plan(build, req.circuit, r.n_gpus)
    if plan.split is None or build.gpu is None or len(build.psus) > 1:  # two listed: one per circuit
        return Option(r, solution, plan)
    found = second_psu(catalog, plan, build, solution, req)
    if found is None:
        return Option(r, solution, plan)
    return Option(r, solution, with_second_psu(plan, found[0]), found[1])


def _carries(psu: Psu, plan: PowerPlan, build: Build) -> bool:
    """Whether ``psu`` can carry the second circuit's cards of ``plan``."""
    split, gpu = plan.split, build.gpu
    assert split is not None and isinstance(gpu, Gpu)
    watts = rule_power.rated_watts(psu.watts, psu.low_line_watts, plan.circuit.volts)  # low line: its rating there
    if watts is None or watts < split.second_need_w or psu.pcie_8pin is None:
        return False
    if split.second_wall_w(rule_power.efficiency(psu.efficiency)) > plan.circuit.continuous_w:
        return False
    try:
        need8, _ = cables_needed(Context(build, split.second_gpus, {}), gpu, split.second_gpus, psu.hpwr_12v or 0)
    except Unknown:
        return False
    return need8 <= psu.pcie_8pin


def second_psu(
    catalog: Catalog, plan: PowerPlan, build: Build, solution: Solution, req: WorkRequest
) -> tuple[Psu, float] | None:
    """The cheapest catalog PSU, priced as of the answer's date, that carries the plan's
    second circuit; None if none does."""
    best: tuple[Psu, float] | None = None
    for psu in catalog.by_category["psu"]:
        if not isinstance(psu, Psu) or not _carries(psu, plan, build):
            continue
        price = fresh_price(psu, solution.as_of, req.base.stale_days)
        if price is not None and (best is None or price.usd < best[1]):
            best = (psu, price.usd)
    return best


def _candidates(catalog: Catalog, req: WorkRequest) -> list[GpuOption]:
    options = gpu_options(catalog)
    if req.gpu:
        from partpicker.suggest.offer import gpu_model

        chips = {getattr(p, "chip", "") for p in gpu_model(catalog, req.gpu)}
        options = [g for g in options if g.name in chips]
    if req.min_vram is not None:
        options = [g for g in options if g.vram_gb >= req.min_vram]
    return options


def _rank(o: Option) -> tuple[bool, float, int]:
    """Proven first, then cheapest, then fewest cards."""
    return (not o.proven, o.total_usd or 0.0, o.fit.n_gpus)


def _miss(
    catalog: Catalog, rules: dict[str, RuleSpec], req: WorkRequest, grid: list[FitResult], best: float
) -> Miss | None:
    """Among the (model, N) that do not fit, the closest whose build is cheaper than ``best``."""
    misses = sorted((r for r in grid if not r.fits and r.margin_gib is not None), key=lambda r: -(r.margin_gib or 0.0))
    day = req.base.as_of or today()
    for r in misses[:12]:  # the closest few; each costs one solve, unless its floor rules it out
        floor = _floor_usd(catalog, _request(req, r), day)
        if floor is None or floor >= best:
            continue
        solution = solve(catalog, rules, _request(req, r))
        if solution.choices and solution.choices[0].now_usd < best:
            return Miss(r, solution.choices[0].now_usd)
    return None


def answer(catalog: Catalog, rules: dict[str, RuleSpec], req: WorkRequest) -> WorkAnswer:
    """The cheapest builds that hold ``req.workload``, or why there is none."""
    candidates = _candidates(catalog, req)
    grid = fit_grid(req.workload, candidates, range(1, MAX_GPUS + 1), headroom=req.headroom, model=req.model)
    fitting = _smallest_fitting(grid)
    if not fitting:
        return _impossible(req, grid)
    searched, unsearched = _solve_options(catalog, rules, req, fitting)
    solved = _with_two_psus(catalog, rules, req, searched)
    built = sorted((o for o in solved if o.total_usd is not None), key=_rank)
    unbuilt = tuple(o for o in solved if o.total_usd is None)
    if not built:
        return WorkAnswer(_no_build_status(unbuilt), req, (), unbuilt, None, _no_build_reason(req, unbuilt), None)
    best = built[0].total_usd or 0.0
    miss = _miss(catalog, rules, req, grid, best)
    return WorkAnswer("ok", req, tuple(built[: req.top]), unbuilt, miss, "", None, unsearched)


def _solve_options(
    catalog: Catalog, rules: dict[str, RuleSpec], req: WorkRequest, fitting: list[FitResult]
) -> tuple[list[Option], tuple[FitResult, ...]]:
    """Each fitting (model, N) solved, cheapest floor first (each role's cheapest part), until
    the floor reaches the ``top``-th proven price: no option from there on can be shown, so
    those are left unsearched (the answer says how many)."""
    day = req.base.as_of or today()
    floored = [(_floor_usd(catalog, _request(req, r), day), r) for r in fitting]
    floored.sort(key=lambda fr: (fr[0] is None, fr[0] or 0.0))
    solved: list[Option] = []
    skipped: list[FitResult] = []
    for floor, r in floored:
        if floor is not None and floor >= _threshold(solved, req.top):
            skipped.append(r)
            continue
        solved.append(_option(catalog, rules, req, r))
    return solved, tuple(skipped)


def _impossible(req: WorkRequest, grid: list[FitResult]) -> WorkAnswer:
    if not grid:  # no candidate at all: the filters left none
        what = f" with {req.min_vram:g} GB or more (--min-vram)" if req.min_vram is not None else ""
        pinned = f" of {req.gpu} (--gpu)" if req.gpu else ""
        return WorkAnswer("impossible", req, (), (), None, f"the catalog has no GPU model{pinned}{what}", None)
    planned = [r for r in grid if r.plan is not None]
    closest = max(planned, key=lambda r: r.margin_gib or 0.0, default=None)
    single = next((r for r in planned if r.n_gpus == 1), None)
    need = f"it needs {single.peak_gib:.1f} GiB on one card" if single and single.peak_gib else "it does not split"
    why = f"no GPU model of the catalog holds {req.workload.describe()} on up to {MAX_GPUS} cards: {need}"
    if closest is not None:
        why += f"; closest: {closest.n_gpus} x {closest.gpu}, {closest.reason}"
    return WorkAnswer("impossible", req, (), (), None, why, closest)


def _no_build_status(unbuilt: tuple[Option, ...]) -> Status:
    over = [o for o in unbuilt if o.solution.cheapest_usd is not None]
    return "over-budget" if over else "no-build"


def over_budget_proven(o: Option) -> bool:
    """Whether the build over the budget that ``o``'s answer names is proven."""
    near = o.solution.near_miss
    return near is not None and near.rule == "budget" and near.choice.proven


def _no_build_reason(req: WorkRequest, unbuilt: tuple[Option, ...]) -> str:
    over = sorted(  # proven first, as the options are ranked without a budget
        (o for o in unbuilt if o.solution.cheapest_usd is not None),
        key=lambda o: (not over_budget_proven(o), o.solution.cheapest_usd or 0),
    )
    if over and req.base.budget is not None:
        o = over[0]
        cost = o.solution.cheapest_usd or 0.0
        how = "proven" if over_budget_proven(o) else "not proven: it rests on unknown facts"
        return (
            f"the cheapest build that holds {req.workload.describe()} is {o.fit.n_gpus} x {o.fit.gpu} at "
            f"${cost:,.2f} ({how}), over the budget of ${req.base.budget:,.2f} by ${cost - req.base.budget:,.2f} "
            f"({o.fit.reason})"
        )
    reasons = "; ".join(f"{o.fit.n_gpus} x {o.fit.gpu}: {o.solution.reason}" for o in unbuilt[:3])
    return f"{len(unbuilt)} GPU options hold the workload, but suggest finds no build for any: {reasons}"
