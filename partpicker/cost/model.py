"""What owning a build costs against renting cloud GPUs, month by month (the article's table).

The model (docs/cost.md states it with the source of every default):

- **Own**: the purchase price is paid up front; straight-line depreciation to $0 over
  ``depreciation_months``; electricity at ``kwh_usd`` for the machine's draw over the hours used.
- **Cloud**: ``cloud_rate`` per GPU-hour on demand for the hours used; 1-year and 3-year
  reserved at a fraction of that, billed monthly for *every* hour (used or not); storage
  for the build's SSD capacity at ``storage_rate`` per GB-month, every month.
- **Break-even** compares what the owner has *paid* (purchase + electricity) with the cloud
  bill; the **ratios** compare the cloud bill with the *net* cost of owning (depreciation +
  electricity), as the article does.

Everything here is pure: frozen inputs in, frozen results out, :class:`InputError` on bad
input. Messages name each setting in words and carry its key (:class:`SettingError`), by
which the CLI shows the flag that sets it.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from partpicker.build import Build
from partpicker.cost.rates import CloudRate
from partpicker.errors import SettingError
from partpicker.pricing import STALE_DAYS, PartLine, line_usd, price_lines, today
from partpicker.rules import power

HOURS_PER_YEAR = 8760
DAYS_PER_MONTH = 365 / 12
HOURS_PER_MONTH = HOURS_PER_YEAR / 12  # 730: every hour of a month, for reserved billing

# The article's own draw figures (Jeff Chen, 2018): shown beside the estimate.
ARTICLE_DRAW_KW: dict[int, float] = {1: 1.0, 4: 2.0}
# The article's purchase price of the 1-GPU build, and of each extra GPU.
ARTICLE_PURCHASE_USD = 3000.0
ARTICLE_GPU_USD = 700.0

CLOUD = ("on-demand", "reserved-1yr", "reserved-3yr")
"""The cloud options, in the order they are shown."""
LABEL = {"on-demand": "on-demand", "reserved-1yr": "1-yr reserved", "reserved-3yr": "3-yr reserved"}
RATIO_MONTHS = (12, 36)
"""The ratios are reported after 1 and 3 years, whatever the horizon."""
MAX_MONTHS = 240
MAX_GPUS = 16


@dataclass(frozen=True)
class Assumptions:
    """The usage and the prices; every default is the article's."""

    hours_per_day: float = 24.0
    """Hours a day the machine (or the rented GPUs) is used."""
    months: int = 36
    """The horizon of the table."""
    kwh_usd: float = 0.20
    """Electricity price, USD per kWh (article)."""
    depreciation_months: int = 36
    """The machine loses its value in a straight line to $0 over this many months (article)."""
    cloud_rate: float = 3.00
    """On-demand price of one cloud GPU, USD per hour (article: AWS, about $2,100 a month)."""
    cloud: CloudRate | None = None
    """Where ``cloud_rate`` comes from (class, provider, date, source); None: the article's default."""
    reserved_1yr: float = 0.65
    """1-year reserved price as a fraction of on-demand (article)."""
    reserved_3yr: float = 0.40
    """3-year reserved price as a fraction of on-demand (article)."""
    storage_rate: float = 0.10
    """Cloud storage, USD per GB-month, paid every month even when no GPU runs (article)."""

    def __post_init__(self) -> None:
        _between("hours_per_day", self.hours_per_day, 0, 24)
        _whole("months", self.months, 1, MAX_MONTHS)
        _at_least("kwh_usd", self.kwh_usd, 0)
        _whole("depreciation_months", self.depreciation_months, 1, MAX_MONTHS)
        _positive("cloud_rate", self.cloud_rate)
        _fraction("reserved_1yr", self.reserved_1yr)
        _fraction("reserved_3yr", self.reserved_3yr)
        _at_least("storage_rate", self.storage_rate, 0)

    def rate(self, option: str) -> float:
        """USD per GPU-hour for a cloud option."""
        factor = {"on-demand": 1.0, "reserved-1yr": self.reserved_1yr, "reserved-3yr": self.reserved_3yr}[option]
        return self.cloud_rate * factor


@dataclass(frozen=True)
class DrawEstimate:
    """The machine's draw at the wall, from its parts (see :mod:`partpicker.rules.power`)."""

    cpu_tdp_w: float
    gpu_power_w: float
    gpus: int
    rest_w: float
    utilisation: float
    """Fraction of rated CPU and GPU power drawn while in use; the rest of the system is constant."""
    efficiency: str | None
    """The PSU's 80 PLUS rating; None: unknown, so the DC figure (a lower bound) is used."""
    dc_w: float
    wall_w: float

    @property
    def kw(self) -> float:
        return self.wall_w / 1000


@dataclass(frozen=True)
class PriceLine:
    """One line of the purchase price."""

    role: str
    name: str
    count: int
    unit_usd: float
    source: str
    """Where the price comes from: the catalog's date and source, or the option that gave it."""
    from_user: bool = False
    """The price is the user's (a build file's ``price:`` or a parts file), not the catalog's."""


@dataclass(frozen=True)
class Machine:
    """What is owned: its price, GPUs, draw and the storage a cloud copy would need."""

    name: str
    purchase_usd: float
    gpus: int
    draw_kw: float
    storage_gb: float
    installed_gpus: int | None = None
    """GPUs in the build file; None when the machine is not a build file (e.g. a suggestion)."""
    purchase_source: str = "given"
    """How the purchase price was made: 'catalog', '--purchase-usd', ..."""
    draw_source: str = "given"
    """'estimate' or '--draw-kw'."""
    estimate: DrawEstimate | None = None
    lines: tuple[PriceLine, ...] = ()
    as_of: dt.date | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        _at_least("purchase_usd", self.purchase_usd, 0)
        _whole("gpus", self.gpus, 1, MAX_GPUS)
        _positive("draw_kw", self.draw_kw)
        _at_least("storage_gb", self.storage_gb, 0)


@dataclass(frozen=True)
class Burst:
    """A peak: ``factor`` x the machine's GPUs for ``days`` days, once every ``every_months``."""

    factor: float
    days: float
    every_months: int
    text: str


@dataclass(frozen=True)
class Strategy:
    """One way to meet a bursty need, costed over the horizon (net of the machines' remaining value)."""

    key: str
    """own-peak, own-plus-rent or rent-all."""
    usd: float
    summary: str


@dataclass(frozen=True)
class BurstResult:
    """Owning for the peak vs owning 1x and renting the rest vs renting everything."""

    burst: Burst
    bursts: int
    """Bursts in the horizon (the first in month 1)."""
    machines: int
    """Machines needed to own the peak."""
    rented_gpus: int
    """Extra GPUs rented during a burst when not owning the peak."""
    strategies: tuple[Strategy, ...]
    cheapest: str
    verdict: str


@dataclass(frozen=True)
class MonthRow:
    """One month: its costs and the running totals."""

    month: int
    own: float
    """This month's cost of owning: depreciation + electricity."""
    cloud: Mapping[str, float]
    """This month's cloud bill per option (GPUs + storage)."""
    own_paid: float
    """Paid so far: purchase (up front) + electricity."""
    own_net: float
    """Cost so far net of the machine's remaining value: depreciation + electricity."""
    cloud_total: Mapping[str, float]
    """Cloud bill so far per option."""


@dataclass(frozen=True)
class CostResult:
    """Everything `partpicker cost` reports; every format reads this."""

    machine: Machine
    assumptions: Assumptions
    rows: tuple[MonthRow, ...]
    """Month 1 to max(horizon, 36): the ratios after 3 years need 36 months."""
    electricity_month: float
    depreciation_month: float
    gpu_month: Mapping[str, float]
    """GPU part of each cloud option's monthly bill."""
    storage_month: float
    break_even: Mapping[str, int | None]
    """First whole month when paid <= the option's bill so far; None: not within the horizon."""
    ratios: Mapping[int, Mapping[str, float]]
    """Cloud bill / net cost of owning, after 12 and 36 months."""
    burst: BurstResult | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def horizon(self) -> tuple[MonthRow, ...]:
        return self.rows[: self.assumptions.months]

    @property
    def last(self) -> MonthRow:
        return self.rows[self.assumptions.months - 1]

    @property
    def cheapest_cloud(self) -> str:
        """The cloud option with the smallest bill over the horizon."""
        return min(CLOUD, key=lambda k: self.last.cloud_total[k])

    @property
    def own_is_cheaper(self) -> bool:
        return self.last.own_net <= self.last.cloud_total[self.cheapest_cloud]


# --- validation ---------------------------------------------------------------------------


SETTINGS: dict[str, str] = {
    "hours_per_day": "the hours of use a day",
    "months": "the number of months",
    "kwh_usd": "the electricity price",
    "depreciation_months": "the depreciation term in months",
    "cloud_rate": "the cloud rate",
    "reserved_1yr": "the 1-year reserved price",
    "reserved_3yr": "the 3-year reserved price",
    "storage_rate": "the cloud storage rate",
    "purchase_usd": "the purchase price",
    "gpus": "the machine's GPU count",
    "draw_kw": "the draw at the wall",
    "storage_gb": "the cloud storage",
    "utilisation": "the utilisation",
    "gpu_price": "the price of an extra GPU",
}
"""Each setting's key (what :class:`SettingError` carries) and how messages name it."""


def _bad(key: str, problem: str, hint: str = "", words: str | None = None, arg: str = "") -> SettingError:
    """``the cloud rate must be more than 0, got -1`` (the CLI: ``--cloud-rate must be ...``)."""
    return SettingError(key, f"{words or SETTINGS[key]}{problem}", flag_what=f"{arg}{problem}", hint=hint)


MAX_NUMBER = 1e9
"""No price, rate or quantity above this: a larger one (1e308) overflows the sums to inf and nan."""


def _num(key: str, value: float, words: str | None = None, arg: str = "") -> None:
    if isinstance(value, bool) or not math.isfinite(value) or abs(value) > MAX_NUMBER:
        raise _bad(key, f" must be a number up to {MAX_NUMBER:g}, got {value!r}", words=words, arg=arg)


def _between(key: str, value: float, low: float, high: float) -> None:
    _num(key, value)
    if not low <= value <= high:
        raise _bad(key, f" must be between {low:g} and {high:g}, got {value:g}")


def _at_least(key: str, value: float, low: float) -> None:
    _num(key, value)
    if value < low:
        raise _bad(key, f" must be {low:g} or more, got {value:g}")


def _positive(key: str, value: float, words: str | None = None, arg: str = "") -> None:
    _num(key, value, words, arg)
    if value <= 0:
        raise _bad(key, f" must be more than 0, got {value:g}", words=words, arg=arg)


def _fraction(key: str, value: float) -> None:
    _num(key, value)
    if not 0 < value <= 1:
        raise _bad(
            key,
            f" must be a fraction of the on-demand price above 0 and at most 1, got {value:g}",
            hint="e.g. 0.65 for 65%",
        )


def _whole(key: str, value: int, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(key, f" must be a whole number, got {value!r}")
    if not low <= value <= high:
        raise _bad(key, f" must be between {low} and {high}, got {value}")


# --- the machine -------------------------------------------------------------------------


def estimate_draw(
    cpu_tdp_w: float,
    gpu_power_w: float,
    gpus: int,
    efficiency: str | None,
    utilisation: float = 1.0,
    rest_w: float = power.REST_OF_SYSTEM_W,
) -> DrawEstimate:
    """Wall draw while in use: utilisation x (CPU TDP + n x GPU board power) + the rest, / PSU efficiency."""
    _utilisation(utilisation)
    dc = power.dc_load_w(utilisation * cpu_tdp_w, utilisation * gpu_power_w, gpus, rest_w)
    return DrawEstimate(cpu_tdp_w, gpu_power_w, gpus, rest_w, utilisation, efficiency, dc, power.wall_w(dc, efficiency))


def _utilisation(value: float) -> None:
    _num("utilisation", value)
    if not 0 < value <= 1:
        raise _bad("utilisation", f" must be above 0 and at most 1, got {value:g}", hint="e.g. 0.8 for 80%")


def machine_from_build(
    build: Build,
    *,
    as_of: dt.date | None = None,
    gpus: int | None = None,
    gpu_price: float | None = None,
    prices: Mapping[str, float] | None = None,
    purchase_usd: float | None = None,
    draw_kw: float | None = None,
    utilisation: float = 1.0,
    storage_gb: float | None = None,
) -> Machine:
    """Price a resolved build as of a date (default: the build's ``as_of``, else today).

    ``prices`` sets the unit price of parts by role (``--price ROLE=USD``); ``purchase_usd``
    replaces the price of the build as written. GPUs beyond those installed (``gpus``) are
    added at ``gpu_price``, else the GPU's unit price. A price that is needed but missing
    is an :class:`InputError` that says which option gives it.
    """
    prices = dict(prices or {})
    day = as_of or build.as_of or today()
    lines = price_lines(build, day, STALE_DAYS)
    _check_prices(build, lines, prices, purchase_usd, gpu_price)
    installed, total_gpus = _gpu_counts(build, gpus)
    extra = total_gpus - installed
    out, missing, stale = _catalog_lines(lines, prices)
    gpu_unit, gpu_unit_source = _gpu_unit(gpu_price, lines, out)
    _require_prices(build, day, lines, missing, purchase_usd, extra, total_gpus, gpu_unit)
    notes: list[str] = []
    purchase, source, out = _purchase(purchase_usd, out, prices, stale, day, notes)
    if extra and gpu_unit is not None:
        gpu_name = build.gpu.name if build.gpu else "GPU"
        out.append(PriceLine("extra-gpu", gpu_name, extra, gpu_unit, gpu_unit_source))
        purchase += extra * gpu_unit
    est, draw, draw_source = _draw(build, total_gpus, utilisation, draw_kw, notes)
    storage = _storage(build, storage_gb, notes)
    return Machine(
        name=build.name,
        purchase_usd=round(purchase, 2),
        gpus=total_gpus,
        draw_kw=draw,
        storage_gb=storage,
        installed_gpus=installed,
        purchase_source=source,
        draw_source=draw_source,
        estimate=est,
        lines=tuple(out),
        as_of=day,
        notes=tuple(notes),
    )


def _storage(build: Build, storage_gb: float | None, notes: list[str]) -> float:
    """GB a cloud copy keeps: ``storage_gb``, else the build's drives."""
    if storage_gb is not None:
        return storage_gb
    if not build.ssds:
        notes.append("the build has no SSD: no cloud storage is counted (give the GB kept in the cloud to count it)")
    return float(sum(s.capacity_gb for s in build.ssds))


def _purchase(
    purchase_usd: float | None,
    out: list[PriceLine],
    prices: Mapping[str, float],
    stale: list[str],
    day: dt.date,
    notes: list[str],
) -> tuple[float, str, list[PriceLine]]:
    """(purchase price, its source, the lines that make it up): ``purchase_usd`` if given, else the lines' sum."""
    if purchase_usd is not None:
        return purchase_usd, "given", []  # the catalog's lines do not make up this price
    if stale:
        notes.append(f"prices older than {STALE_DAYS} days on {day}: {', '.join(stale)}")
    purchase = sum(line_usd(p.unit_usd, p.count) for p in out)
    said = ["catalog"] if any(not p.from_user and p.source != "given" for p in out) else []
    said += ["your prices"] if any(p.from_user for p in out) else []
    said += ["given part prices"] if prices else []
    return purchase, " and ".join(said) or "catalog", out


def _check_prices(
    build: Build,
    lines: Mapping[str, PartLine],
    prices: Mapping[str, float],
    purchase_usd: float | None,
    gpu_price: float | None,
) -> None:
    """The given prices name parts of the build, are positive, and do not contradict each other."""
    unknown = sorted(set(prices) - set(lines))
    if unknown:
        raise SettingError(
            "price",
            f"a price is given for {unknown[0]!r}, but the build has no part {unknown[0]!r}",
            flag_what=f" {unknown[0]}=...: the build has no part {unknown[0]!r}",
            path=build.path,
            hint=f"roles in this build: {', '.join(lines)}",
        )
    for role, usd in prices.items():
        _positive("price", usd, words=f"the price of {role}", arg=f" {role}")
    if purchase_usd is not None and prices:
        raise SettingError(
            "purchase_usd",
            "give either the whole build's price or part prices, not both",
            hint="the whole build's price replaces every part's",
        )
    if gpu_price is not None:
        _positive("gpu_price", gpu_price)
    if purchase_usd is not None:
        _positive("purchase_usd", purchase_usd)


def _gpu_counts(build: Build, gpus: int | None) -> tuple[int, int]:
    """(installed, total) GPUs: the build's, and the machine's (``gpus``, default as installed)."""
    installed = build.gpu_count
    total_gpus = installed if gpus is None else gpus
    if build.gpu is None and gpus is None:
        raise SettingError(
            "gpus",
            "the build has no GPU: the cost model compares GPU-hours",
            path=build.path,
            hint="add a gpu to the build file, or give the machine's GPU count, the price of a GPU and the draw",
        )
    _whole("gpus", total_gpus, 1, MAX_GPUS)
    if total_gpus < installed:
        raise SettingError(
            "gpus",
            f"{SETTINGS['gpus']} {total_gpus} is fewer than the {installed} GPU(s) the build has installed",
            flag_what=f" {total_gpus} is fewer than the {installed} GPU(s) the build has installed",
            path=build.path,
            hint="the GPU count is the machine's total; change the count in the build file to cost fewer",
        )
    return installed, total_gpus


def _catalog_lines(
    lines: Mapping[str, PartLine], prices: Mapping[str, float]
) -> tuple[list[PriceLine], list[str], list[str]]:
    """The purchase lines (a given price wins over the catalog's), the unpriced roles, the stale ones."""
    out: list[PriceLine] = []
    missing: list[str] = []
    stale: list[str] = []
    for role, line in lines.items():
        if role in prices:
            out.append(PriceLine(role, line.name, line.count, prices[role], "given"))
        elif line.usd is not None:
            yours = f" (yours: {line.price_from_user})" if line.price_from_user else ""
            name = f"{line.name} [{line.origin}]" if line.origin else line.name
            source = f"{line.price_date}: {line.price_source}{yours}"
            out.append(PriceLine(role, name, line.count, line.usd, source, from_user=bool(line.price_from_user)))
            if line.stale:
                stale.append(role)
        else:
            missing.append(role)
    return out, missing, stale


def _gpu_unit(gpu_price: float | None, lines: Mapping[str, PartLine], out: list[PriceLine]) -> tuple[float | None, str]:
    """The price of one extra GPU and where it comes from: ``gpu_price``, else the build's GPU line."""
    if gpu_price is None and "gpu" in lines:
        gpu_line = next((p for p in out if p.role == "gpu"), None)
        if gpu_line is not None:
            return gpu_line.unit_usd, gpu_line.source
    return gpu_price, "given"


def _require_prices(
    build: Build,
    day: dt.date,
    lines: Mapping[str, PartLine],
    missing: list[str],
    purchase_usd: float | None,
    extra: int,
    total_gpus: int,
    gpu_unit: float | None,
) -> None:
    """Every price the purchase needs is known, or an error saying how to give it."""
    if purchase_usd is None and missing:
        names = ", ".join(f"{role} ({lines[role].name})" for role in missing)
        raise SettingError(
            "prices",
            f"{len(missing)} part(s) have no price on or before {day}: {names}",
            arg=missing[0],
            path=build.path,
            hint=f"give their prices (first: {missing[0]}), price the build at another date, "
            "or give the whole build's price",
        )
    if extra and gpu_unit is None:
        gpu_name = build.gpu.name if build.gpu else "the GPU"
        raise SettingError(
            "gpu_price",
            f"{extra} extra GPU(s) for {total_gpus} GPUs, but {gpu_name} has no price on or before {day}",
            path=build.path,
            hint="give the price of one GPU, or price it at another date",
        )


DRAW_HINT = "give {} in kW (the article: 1 kW for 1 GPU, 2 kW for 4)"


def _draw(
    build: Build, total_gpus: int, utilisation: float, draw_kw: float | None, notes: list[str]
) -> tuple[DrawEstimate | None, float, str]:
    """(estimate, draw in kW, its source): ``draw_kw`` if given, else the estimate."""
    est = _estimate_for(build, total_gpus, utilisation, notes)
    if draw_kw is None:
        if est is None:
            raise SettingError(
                "draw_kw",
                "the draw cannot be estimated: " + notes.pop(),
                path=build.path,
                hint=DRAW_HINT.format("the machine's draw at the wall"),
            )
        draw, draw_source = est.kw, "estimate"
    else:
        _positive("draw_kw", draw_kw)
        draw, draw_source = draw_kw, "given"
        if est is None:
            notes.append("no draw estimate: " + notes.pop())
    return est, draw, draw_source


def _estimate_for(build: Build, gpus: int, utilisation: float, notes: list[str]) -> DrawEstimate | None:
    """The draw estimate, or None with the reason appended to ``notes``."""
    _utilisation(utilisation)
    if build.cpu is None or build.cpu.tdp_w is None:
        notes.append(
            "the build has no CPU" if build.cpu is None else f"the TDP of {build.cpu.name} is not in the catalog"
        )
        return None
    if build.gpu is None or build.gpu.board_power_w is None:
        notes.append(
            "the build has no GPU"
            if build.gpu is None
            else f"the board power of {build.gpu.name} is not in the catalog"
        )
        return None
    efficiency = build.psu.efficiency if build.psu else None
    if efficiency is None:
        notes.append("PSU efficiency unknown: the draw estimate is the DC figure, a lower bound")
    return estimate_draw(build.cpu.tdp_w, build.gpu.board_power_w, gpus, efficiency, utilisation)


# --- bursts ------------------------------------------------------------------------------

BURST = re.compile(
    r"""^\s*(?P<factor>\d+(?:\.\d+)?)\s*x\s+
    for\s+(?P<n>\d+(?:\.\d+)?|an?|one)\s+(?P<unit>day|week|month)s?\s+
    every\s+(?:(?P<p>\d+|an?|one)\s+)?(?P<punit>month|year)s?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
BURST_UNIT_DAYS = {"day": 1.0, "week": 7.0, "month": DAYS_PER_MONTH}
BURST_WORDS = "the burst pattern"
BURST_HINT = "write it as NX for D day(s)|week(s)|month(s) every P month(s), e.g. '100x for 1 week every 6 months'"


def parse_burst(text: str) -> Burst:
    """Parse ``NX for D day(s)/week(s)/month(s) every P month(s)`` (or ``every year``)."""
    match = BURST.match(text)
    if match is None:
        raise _burst_error(text, " is not understood")

    def number(word: str | None) -> float:
        return 1.0 if word is None or word.lower() in ("a", "an", "one") else float(word)

    factor = float(match["factor"])
    days = number(match["n"]) * BURST_UNIT_DAYS[match["unit"].lower()]
    period = number(match["p"])
    if match["punit"].lower() == "year":
        period *= 12
    if factor <= 1:
        raise _burst_error(text, ": the peak must be more than 1x the machine")
    if days <= 0 or period < 1 or period != int(period):
        raise _burst_error(text, ": use a duration above 0 and a whole number of months")
    if days > period * DAYS_PER_MONTH:
        raise _burst_error(text, ": a burst cannot last longer than the time between bursts")
    return Burst(factor=factor, days=days, every_months=int(period), text=" ".join(text.split()))


def _burst_error(text: str, problem: str) -> SettingError:
    return SettingError("burst", f"{BURST_WORDS} {text!r}{problem}", flag_what=f" {text!r}{problem}", hint=BURST_HINT)


def _money(usd: float) -> str:
    return f"${usd:,.0f}"


def burst_costs(machine: Machine, a: Assumptions, burst: Burst, baseline: CostResult) -> BurstResult:
    """Cost the three ways to meet a peak over the horizon, net of remaining value."""
    months = a.months
    bursts = math.ceil(months / burst.every_months)
    machines = math.ceil(burst.factor)
    rented = math.ceil(burst.factor * machine.gpus) - machine.gpus
    burst_hours = a.hours_per_day * burst.days
    last = baseline.rows[months - 1]

    own_one = last.own_net
    depreciation = machine.purchase_usd * min(months, a.depreciation_months) / a.depreciation_months
    extra_power = (machines - 1) * machine.draw_kw * burst_hours * a.kwh_usd * bursts
    own_peak = own_one + (machines - 1) * depreciation + extra_power
    rent_bursts = rented * a.cloud_rate * burst_hours * bursts
    storage = machine.storage_gb * a.storage_rate * months
    own_plus_rent = own_one + rent_bursts + storage
    base_option = min(CLOUD, key=lambda k: last.cloud_total[k])
    rent_all = last.cloud_total[base_option] + rent_bursts

    peak = f"{burst.factor:g}x"
    strategies = (
        Strategy("own-peak", own_peak, f"owning {machines} machines for the {peak} peak costs {_money(own_peak)}"),
        Strategy(
            "own-plus-rent",
            own_plus_rent,
            f"owning 1 machine and renting {rented} more GPU(s) on demand during bursts costs {_money(own_plus_rent)}",
        ),
        Strategy(
            "rent-all",
            rent_all,
            f"renting everything ({LABEL[base_option]} for the base load, on demand for the peaks) "
            f"costs {_money(rent_all)}",
        ),
    )
    best = min(strategies, key=lambda s: s.usd)
    others = "; ".join(s.summary for s in strategies if s is not best)
    head = {
        "own-peak": "owning for the peak is cheapest",
        "own-plus-rent": "owning for the base load and renting the peaks is cheapest",
    }.get(best.key, "renting everything is cheapest")
    verdict = f"{head} for this pattern: {best.summary}; {others}."
    return BurstResult(burst, bursts, machines, rented, strategies, best.key, verdict)


# --- the comparison ----------------------------------------------------------------------


def compare(machine: Machine, assumptions: Assumptions | None = None, burst: Burst | None = None) -> CostResult:
    """Own vs on-demand vs 1-yr and 3-yr reserved, month by month."""
    a = assumptions or Assumptions()
    hours_month = a.hours_per_day * DAYS_PER_MONTH
    electricity = machine.draw_kw * hours_month * a.kwh_usd
    depreciation = machine.purchase_usd / a.depreciation_months
    storage = machine.storage_gb * a.storage_rate
    # On demand is billed for the hours used; reserved for every hour of the term.
    gpu_month = {
        "on-demand": a.rate("on-demand") * machine.gpus * hours_month,
        "reserved-1yr": a.rate("reserved-1yr") * machine.gpus * HOURS_PER_MONTH,
        "reserved-3yr": a.rate("reserved-3yr") * machine.gpus * HOURS_PER_MONTH,
    }
    rows = _months(machine, a, electricity, depreciation, {k: gpu_month[k] + storage for k in CLOUD})
    break_even = {
        k: next((r.month for r in rows[: a.months] if r.own_paid <= r.cloud_total[k] + 1e-9), None) for k in CLOUD
    }
    ratios = {m: {k: _ratio(rows[m - 1].cloud_total[k], rows[m - 1].own_net) for k in CLOUD} for m in RATIO_MONTHS}
    notes = list(machine.notes)
    if a.cloud is not None:
        notes.extend(a.cloud.notes)
    notes.append(
        "reserved prices are billed monthly as the article does; stopping before the end of a term "
        "still owes the rest of it (not counted here)"
    )
    result = CostResult(
        machine=machine,
        assumptions=a,
        rows=tuple(rows),
        electricity_month=electricity,
        depreciation_month=depreciation,
        gpu_month=gpu_month,
        storage_month=storage,
        break_even=break_even,
        ratios=ratios,
        notes=tuple(notes),
    )
    if burst is None:
        return result
    return replace(result, burst=burst_costs(machine, a, burst, result))


def _months(
    machine: Machine, a: Assumptions, electricity: float, depreciation: float, bill: dict[str, float]
) -> list[MonthRow]:
    """The month rows over the horizon (at least to the last ratio month), costs cumulated."""
    rows: list[MonthRow] = []
    paid, net = machine.purchase_usd, 0.0
    totals = dict.fromkeys(CLOUD, 0.0)
    for month in range(1, max(a.months, *RATIO_MONTHS) + 1):
        own = electricity + (depreciation if month <= a.depreciation_months else 0.0)
        paid += electricity
        net += own
        for k in CLOUD:
            totals[k] += bill[k]
        rows.append(MonthRow(month, own, dict(bill), paid, net, dict(totals)))
    return rows


def _ratio(cloud: float, own: float) -> float:
    return math.inf if own <= 0 else cloud / own


def compare_purchase(
    purchase_usd: float,
    gpus: int,
    draw_kw: float,
    storage_gb: float,
    assumptions: Assumptions | None = None,
    *,
    name: str = "build",
    burst: Burst | None = None,
) -> CostResult:
    """The comparison for a machine given by its numbers (for `suggest --cost`)."""
    machine = Machine(name=name, purchase_usd=purchase_usd, gpus=gpus, draw_kw=draw_kw, storage_gb=storage_gb)
    return compare(machine, assumptions, burst)
