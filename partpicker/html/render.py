"""One self-contained HTML page from a :class:`PageView`: a Jinja2 template with autoescape
on, inline CSS and the inline SVG pictures; nothing is fetched when the page is opened."""

from __future__ import annotations

from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from partpicker.html.cost import cost_curves
from partpicker.html.power import power_budget
from partpicker.html.slotmap import slot_map
from partpicker.html.svg import clean
from partpicker.html.views import FindingRow, PageView

STATUS_RANK = {"fail": 0, "unknown": 1, "pass": 2}
SEVERITY_RANK = {"error": 0, "warning": 1, "info": 2}


def _finalize(value: object) -> object:
    """Every printed value: control and bidi-override characters made visible (SVG is already clean)."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return clean(value)


def money(usd: float | None) -> str:
    return "n/a" if usd is None else f"${usd:,.2f}"


@cache
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("partpicker.html", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        finalize=_finalize,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["money"] = money
    return env


def worst_first(findings: tuple[FindingRow, ...]) -> list[FindingRow]:
    """Checked findings, failures first, errors before warnings (stable otherwise)."""
    checked = [f for f in findings if f.status != "unknown"]
    return sorted(checked, key=lambda f: (STATUS_RANK.get(f.status, 3), SEVERITY_RANK.get(f.severity, 3)))


def render_page(page: PageView) -> str:
    """The whole page as one string."""
    return (
        environment()
        .get_template("report.html.j2")
        .render(
            page=page,
            findings=worst_first(page.findings),
            unknown=[f for f in page.findings if f.status == "unknown"],
            slot_map=Markup(slot_map(page.board)) if page.board else None,
            power=Markup(power_budget(page.power)) if page.power else None,
            cost=Markup(cost_curves(page.cost)) if page.cost else None,
        )
    )
