"""`cost --format text`: a table with a compact terminal chart; and the few lines `suggest --cost` shows."""

from __future__ import annotations

import math
from collections.abc import Sequence

from partpicker.cost.model import ARTICLE_DRAW_KW, CLOUD, LABEL, RATIO_MONTHS, Assumptions, CostResult, DrawEstimate
from partpicker.pricing import line_usd

SHORT = {"on-demand": "on-demand", "reserved-1yr": "1-yr res.", "reserved-3yr": "3-yr res."}
MARK = {"own_paid": "o", "on-demand": "D", "reserved-1yr": "1", "reserved-3yr": "3"}
CHART_HEIGHT = 10
CHART_WIDTH = 60


def money(usd: float) -> str:
    return f"${usd:,.2f}"


def dollars(usd: float) -> str:
    return f"${usd:,.0f}"


def times(ratio: float) -> str:
    return "inf" if math.isinf(ratio) else f"{ratio:.1f}x"


def when(month: int | None) -> str:
    return "never" if month is None else f"month {month}"


def headline(result: CostResult) -> str:
    """One sentence: which is cheaper over the horizon, and when owning pays for itself."""
    m, a, last = result.machine, result.assumptions, result.last
    best = result.cheapest_cloud
    cloud = last.cloud_total[best]
    if result.own_is_cheaper:
        ratio = times(cloud / last.own_net) if last.own_net > 0 else "inf"
        pays = result.break_even["on-demand"]
        payback = (
            f"it pays for itself in month {pays} against on-demand"
            if pays is not None
            else f"it does not pay for itself within {a.months} months against on-demand"
        )
        return (
            f"{m.name}: owning is cheaper over {a.months} months: {dollars(last.own_net)} net against "
            f"{dollars(cloud)} for the cheapest cloud option ({LABEL[best]}), {ratio} less; {payback}."
        )
    return (
        f"{m.name}: renting is cheaper over {a.months} months: {LABEL[best]} costs {dollars(cloud)} "
        f"against {dollars(last.own_net)} net to own."
    )


def _draw_text(result: CostResult) -> str:
    m = result.machine
    article = ", ".join(f"{kw:g} kW ({n} GPU{'s' if n > 1 else ''})" for n, kw in ARTICLE_DRAW_KW.items())
    est = m.estimate
    if m.draw_source == "estimate" and est is not None:
        return f"{m.draw_kw:.2f} kW at the wall, estimated: {_estimate_text(est)}; the article's figures: {article}"
    est_text = f"estimate {est.kw:.2f} kW = {_estimate_text(est)}" if est else "no estimate"
    return f"{m.draw_kw:.2f} kW ({m.draw_source}); {est_text}; the article's figures: {article}"


def _estimate_text(est: DrawEstimate) -> str:
    eff = est.efficiency or "efficiency unknown, DC figure"
    return (
        f"({est.utilisation:.0%} x (CPU {est.cpu_tdp_w:g} W + {est.gpus} x {est.gpu_power_w:g} W)"
        f" + rest {est.rest_w:g} W) / PSU ({eff})"
    )


def table_months(result: CostResult) -> list[int]:
    """The months shown in the text table: the first three, quarters of the first year, every
    year, the break-even months and the horizon."""
    n = result.assumptions.months
    marks = {1, 2, 3, 6, n, *range(12, n + 1, 12)}
    marks.update(m for m in result.break_even.values() if m is not None)
    return sorted(m for m in marks if 1 <= m <= n)


def render_text(result: CostResult) -> str:
    m, a = result.machine, result.assumptions
    out = [headline(result)]
    installed = f" ({m.installed_gpus} installed)" if m.installed_gpus is not None else ""
    dated = f"prices as of {m.as_of}; " if m.as_of else ""
    out.append(f"{dated}{m.gpus} GPU(s){installed}, {a.hours_per_day:g} h/day, {a.months} months")
    out.append("")
    for section in (_own, _cloud, _table, _break_even, _burst):
        out.extend(section(result))
    out.append("")
    out.extend(chart(result))
    if result.notes:
        out.append("")
        out.append("Notes")
        out.extend(f"  - {note}" for note in result.notes)
    return "\n".join(out)


def _own(result: CostResult) -> list[str]:
    """The purchase, its lines, the draw and the monthly costs of owning."""
    m, a = result.machine, result.assumptions
    out: list[str] = []
    out.append("Own")
    out.append(f"  {'purchase':<14} {money(m.purchase_usd):>12}  ({m.purchase_source})")
    for line in m.lines:
        total = money(line_usd(line.unit_usd, line.count))
        what = f"{line.count} x {line.name} @ {money(line.unit_usd)} = {total}" if line.count > 1 else line.name
        out.append(f"    {line.role:<12} {total:>12}  {what}  ({line.source})")
    out.append(f"  {'draw':<14} {_draw_text(result)}")
    out.append(
        f"  {'electricity':<14} {money(result.electricity_month):>12} / month  "
        f"({m.draw_kw:.2f} kW x {a.hours_per_day:g} h/day x ${a.kwh_usd:.2f}/kWh)"
    )
    out.append(
        f"  {'depreciation':<14} {money(result.depreciation_month):>12} / month  "
        f"(straight line to $0 over {a.depreciation_months} months)"
    )
    return out


def _cloud(result: CostResult) -> list[str]:
    """The monthly cloud bill of each pricing."""
    m, a = result.machine, result.assumptions
    out: list[str] = []
    out.append("Cloud")
    out.append(f"  {'rate':<14} {rate_text(a)}")
    storage = f"storage {m.storage_gb:,.0f} GB x ${a.storage_rate:.2f} = {money(result.storage_month)}"
    for k in CLOUD:
        bill = result.gpu_month[k] + result.storage_month
        if k == "on-demand":
            how = f"${a.rate(k):.2f}/GPU-h x {m.gpus} GPU(s) x {a.hours_per_day:g} h/day"
        else:
            how = f"${a.rate(k):.2f}/GPU-h ({a.rate(k) / a.cloud_rate:.0%}) x {m.gpus} GPU(s), every hour"
        out.append(f"  {LABEL[k]:<14} {money(bill):>12} / month  ({how}; + {storage})")
    return out


def rate_text(a: Assumptions) -> str:
    """The on-demand rate used and where it comes from: class, provider, instance, date, source."""
    c = a.cloud
    if c is None:
        return f"${a.cloud_rate:.2f}/GPU-h on demand (the article's 2018 AWS figure)"
    if c.kind == "given":
        return f"${c.usd_per_gpu_hour:.2f}/GPU-h on demand (given)"
    return (
        f"${c.usd_per_gpu_hour:.2f}/GPU-h on demand: {c.gpu_class} ({c.why}), {c.provider} {c.instance}, "
        f"{c.date_text} [{c.kind}: {c.source}]"
    )


def _table(result: CostResult) -> list[str]:
    """The cumulative costs, month by month."""
    _m, _a = result.machine, result.assumptions
    out: list[str] = []
    out.append("")
    out.append("Cumulative cost (own paid = purchase + electricity; own net = depreciation + electricity)")
    heads = ["month", "own paid", "own net", *(SHORT[k] for k in CLOUD)]
    out.append("  " + "  ".join(f"{h:>12}" if i else f"{h:>5}" for i, h in enumerate(heads)))
    for month in table_months(result):
        r = result.rows[month - 1]
        cells = [r.own_paid, r.own_net, *(r.cloud_total[k] for k in CLOUD)]
        out.append("  " + f"{month:>5}" + "".join(f"  {dollars(c):>12}" for c in cells))
    return out


def _break_even(result: CostResult) -> list[str]:
    """Break-even months and the cloud/own ratios."""
    _m, _a = result.machine, result.assumptions
    out: list[str] = []
    out.append("")
    out.append(
        "Break-even (first month when own paid <= the cloud bill): "
        + ", ".join(f"{LABEL[k]} {when(result.break_even[k])}" for k in CLOUD)
    )
    for months in RATIO_MONTHS:
        years = months // 12
        ratios = ", ".join(f"{LABEL[k]} {times(result.ratios[months][k])}" for k in CLOUD)
        out.append(f"Cloud / own net after {years} year{'s' if years > 1 else ''}: {ratios}")
    return out


def _burst(result: CostResult) -> list[str]:
    """The costs of the burst strategies (nothing without a burst)."""
    b, a = result.burst, result.assumptions
    if b is None:
        return []
    out = [
        "",
        f"Burst: {b.burst.text} ({b.bursts} in {a.months} months; costs over the horizon, "
        "net of the machines' remaining value)",
    ]
    for s in b.strategies:
        mark = "*" if s.key == b.cheapest else " "
        out.append(f"  {mark} {s.key:<14} {dollars(s.usd):>14}")
    out.append(f"  {b.verdict}")
    return out


def chart(result: CostResult, height: int = CHART_HEIGHT, width: int = CHART_WIDTH) -> list[str]:
    """A compact chart of the cumulative curves over the horizon (own as paid)."""
    rows = result.horizon
    series: dict[str, Sequence[float]] = {k: [r.cloud_total[k] for r in rows] for k in CLOUD}
    series["own_paid"] = [r.own_paid for r in rows]  # drawn last, so it shows where curves meet
    n = len(rows)
    cols = min(n, width)
    top = max(max(v) for v in series.values()) or 1.0
    grid = _grid(series, n, cols, top, height)
    label_w = len(dollars(top))
    legend = ", ".join(f"{MARK[k]} {LABEL[k]}" for k in CLOUD)
    out = [f"Cumulative cost by month ({MARK['own_paid']} own paid, {legend})"]
    for i, line in enumerate(grid):
        label = dollars(top) if i == 0 else (dollars(0) if i == height - 1 else "")
        out.append(f"  {label:>{label_w}} |{''.join(line).rstrip()}")
    out.append(f"  {'':>{label_w}} +{'-' * cols}")
    out.append(f"  {'':>{label_w}}  1{f'month {n}':>{cols - 1}}")
    return out


def _grid(series: dict[str, Sequence[float]], n: int, cols: int, top: float, height: int) -> list[list[str]]:
    """The chart's cells: each series' mark at its level in each column (later series on top)."""
    grid = [[" "] * cols for _ in range(height)]
    for key, values in series.items():
        for c in range(cols):
            i = min(n - 1, math.ceil((c + 1) * n / cols) - 1)
            level = round(values[i] / top * (height - 1))
            grid[height - 1 - level][c] = MARK[key]
    return grid


def savings_text(result: CostResult) -> str:
    """A few lines for another command's output (e.g. `suggest --cost`)."""
    lines = [headline(result), f"  cloud rate: {rate_text(result.assumptions)}"]
    lines.append("  break-even: " + ", ".join(f"{LABEL[k]} {when(result.break_even[k])}" for k in CLOUD))
    for months in RATIO_MONTHS:
        ratios = ", ".join(f"{LABEL[k]} {times(result.ratios[months][k])}" for k in CLOUD)
        lines.append(f"  cloud / own after {months // 12} year(s): {ratios}")
    return "\n".join(lines)


render = render_text
