"""`validate --format html`: one self-contained page with the text report's content (banner,
parts, findings worst first, what to verify, what was not checked) and the pictures: the slot
map where gpu-slots seats the cards, and the power budget at the target GPU count."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from partpicker.html import FindingRow, PageView, PartRow, render_page
from partpicker.validate import drawing
from partpicker.validate.evidence import summary_text
from partpicker.validate.formats.text import NEVER_CHECKED, banner, summary, verify_text
from partpicker.validate.report import Report

URL = re.compile(r"https?://[^\s)]+")


def source_label(source: str | None) -> str | None:
    """A price's source in a few words: the site it is from, else the text cut short."""
    if not source:
        return None
    found = URL.search(source)
    if found:
        host = urlsplit(found.group()).hostname or found.group()
        return host.removeprefix("www.")
    return source if len(source) <= 60 else source[:59] + "\u2026"


def part_rows(report: Report) -> tuple[PartRow, ...]:
    return tuple(
        PartRow(
            role=role,
            name=p.name,
            count=p.count,
            usd=p.usd,
            price_date=p.price_date.isoformat() if p.price_date else None,
            stale=p.stale,
            price_source=source_label(p.price_source),
            evidence=summary_text(report.part_evidence[role]) if role in report.part_evidence else None,
        )
        for role, p in report.parts.items()
    )


def finding_rows(report: Report) -> tuple[FindingRow, ...]:
    """Each finding; a pass resting on derived or recalled facts says so, as the text's ``ok*``."""
    weak = " (rests on derived or recalled facts)"
    return tuple(
        FindingRow(f.rule, f.severity, f.status, f.message + (weak if f.rests_on_weak else "")) for f in report.findings
    )


def page(report: Report) -> PageView:
    """The report as the page's view; the pictures need the build the report was made from."""
    build = report.resolved
    return PageView(
        build=report.build,
        verdict=report.verdict,
        banner=banner(report),
        summary=summary(report),
        parts=part_rows(report),
        total_usd=report.total_usd,
        findings=finding_rows(report),
        verify=tuple(verify_text(e) for e in report.verify),
        skipped=tuple(f"{s.rule}: {s.reason}" for s in report.skipped),
        never_checked=NEVER_CHECKED,
        board=drawing.board_view(build, report.params) if build else None,
        power=drawing.power_view(build, report.params) if build else None,
        board_notes=drawing.board_notes(build, report.params) if build else (),
        notes=drawing.power_notes(build) if build else (),
    )


def render(report: Report) -> str:
    return render_page(page(report))
