"""`cost --format html`: the cost comparison as a page: the headline, the purchase lines, the
monthly costs, break-even and ratios, and the cumulative curves (own against each cloud option)."""

from __future__ import annotations

import re

from partpicker.cost.formats.text import headline, money, rate_text, times, when
from partpicker.cost.model import CLOUD, LABEL, RATIO_MONTHS, CostResult
from partpicker.html import CostCurve, CostSeries, PageView, PartRow, Section, render_page
from partpicker.validate.formats.html import source_label

DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def curve(result: CostResult) -> CostCurve:
    """Cumulative totals over the horizon, month 1 onwards, with each option's break-even."""
    rows = result.horizon
    m, a = result.machine, result.assumptions
    return CostCurve(
        title=f"{m.name}: {m.gpus} GPU(s), {a.hours_per_day:g} h/day",
        own_paid=tuple(r.own_paid for r in rows),
        own_net=tuple(r.own_net for r in rows),
        cloud=tuple(CostSeries(LABEL[k], tuple(r.cloud_total[k] for r in rows), result.break_even[k]) for k in CLOUD),
    )


def part_rows(result: CostResult) -> tuple[PartRow, ...]:
    """The purchase lines: each part's unit price, its date and source (or the option that gave it)."""
    rows = []
    for p in result.machine.lines:
        day, sep, source = p.source.partition(": ")
        dated = bool(sep) and DATE.fullmatch(day) is not None
        rows.append(
            PartRow(
                role=p.role,
                name=p.name,
                count=p.count,
                usd=p.unit_usd,
                price_date=day if dated else p.source,
                price_source=source_label(source) if dated else None,
            )
        )
    bought = sum(p.unit_usd * p.count for p in result.machine.lines)
    if result.machine.purchase_source == "given":  # the build's price was given as one sum
        rows.insert(0, PartRow("build", "the build as written", 1, result.machine.purchase_usd - bought, "given"))
    return tuple(rows)


def monthly(result: CostResult) -> tuple[str, ...]:
    """Owning's and each cloud option's monthly cost, as the text format states them."""
    m, a = result.machine, result.assumptions
    out = [
        f"purchase {money(m.purchase_usd)} ({m.purchase_source}); draw {m.draw_kw:.2f} kW ({m.draw_source})",
        f"electricity {money(result.electricity_month)} / month ({m.draw_kw:.2f} kW x {a.hours_per_day:g} h/day "
        f"x ${a.kwh_usd:.2f}/kWh)",
        f"depreciation {money(result.depreciation_month)} / month (straight line to $0 over "
        f"{a.depreciation_months} months)",
    ]
    out.append(f"cloud rate {rate_text(a)}")
    for k in CLOUD:
        out.append(
            f"{LABEL[k]} {money(result.gpu_month[k] + result.storage_month)} / month "
            f"(${a.rate(k):.2f}/GPU-h x {m.gpus} GPU(s); storage {money(result.storage_month)})"
        )
    return tuple(out)


def break_even(result: CostResult) -> tuple[str, ...]:
    out = [f"break-even against {LABEL[k]}: {when(result.break_even[k])}" for k in CLOUD]
    for months in RATIO_MONTHS:
        ratios = ", ".join(f"{LABEL[k]} {times(result.ratios[months][k])}" for k in CLOUD)
        out.append(f"cloud / own net after {months} months: {ratios}")
    if result.burst is not None:
        out += [s.summary for s in result.burst.strategies]
        out.append(result.burst.verdict)
    return tuple(out)


def page(result: CostResult) -> PageView:
    m, a = result.machine, result.assumptions
    installed = f" ({m.installed_gpus} installed)" if m.installed_gpus is not None else ""
    dated = f"prices as of {m.as_of}; " if m.as_of else ""
    return PageView(
        build=m.name,
        verdict="info",
        badge="OWN" if result.own_is_cheaper else "RENT",
        banner=headline(result),
        summary=f"{dated}{m.gpus} GPU(s){installed}, {a.hours_per_day:g} h/day, {a.months} months",
        parts=part_rows(result),
        total_usd=m.purchase_usd,
        kind="cost",
        sections=(Section("Per month", monthly(result)), Section("Break-even and ratios", break_even(result))),
        cost=curve(result),
        notes=result.notes,
    )


def render(result: CostResult) -> str:
    return render_page(page(result))
