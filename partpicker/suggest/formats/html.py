"""`suggest --format html`: the cheapest build as a page: its full validation report and pictures
(as `validate --format html` draws them), the totals now and at N GPUs, why no cheaper part was
taken, and the alternatives; or, with no build, why there is none."""

from __future__ import annotations

from dataclasses import replace

from partpicker.html import PageView, Section, render_page
from partpicker.suggest.answer import Choice, Solution
from partpicker.validate.formats import html as report_html
from partpicker.validate.report import Report


def _money(usd: float) -> str:
    return f"${usd:,.2f}"


def request_text(solution: Solution) -> str:
    req = solution.request
    budget = f"budget {_money(req.budget)}; " if req.budget is not None else ""
    return (
        f"ready for {req.gpus} GPU(s), {req.start_gpus} bought now; {budget}prices as of {solution.as_of}; "
        f"objective: {req.objective}"
    )


def alternative(rank: int, choice: Choice, best: Choice) -> str:
    """One alternative: its totals and the parts it changes against the best build."""
    changed = [
        f"{role}: {p.part.name}"
        for role, p in choice.prices.items()
        if role not in best.prices or best.prices[role].part.id != p.part.id
    ]
    return f"{rank}. {_money(choice.now_usd)} now, {_money(choice.full_usd)} at full scale" + (
        f" ({'; '.join(changed)})" if changed else ""
    )


def _no_build(solution: Solution) -> PageView:
    return PageView(
        build="suggest",
        verdict="fail",
        badge="NO BUILD",
        banner=f"No build: {solution.reason}.",
        summary=request_text(solution),
        kind="suggest",
    )


def page(solution: Solution, report: Report | None = None) -> PageView:
    """The best build's report page with the suggestion's totals, reasons and alternatives."""
    if not solution.choices or report is None:
        return _no_build(solution)
    best = solution.choices[0]
    req = solution.request
    sections = [Section("Why these parts", solution.binding)]
    if len(solution.choices) > 1:
        alts = tuple(alternative(i, c, best) for i, c in enumerate(solution.choices[1:], 1))
        sections.append(Section("Alternatives", alts))
    return replace(
        report_html.page(report),
        badge="SUGGESTED" if report.verdict == "pass" else None,
        banner=f"Cheapest valid build: {_money(best.now_usd)} now, {_money(best.full_usd)} at {req.gpus} GPUs.",
        summary=f"{request_text(solution)}; profile {report.profile}",
        kind="suggest",
        sections=tuple(sections),
    )


def render(solution: Solution, report: Report | None = None) -> str:
    return render_page(page(solution, report))
