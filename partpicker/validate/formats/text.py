"""Human text: a verdict banner, the parts with dated prices, findings worst first, then what
was not checked and why."""

from __future__ import annotations

import textwrap

from partpicker.pricing import PartLine, age_text
from partpicker.validate.evidence import FactEvidence, summary_text
from partpicker.validate.report import Finding, Report

BANNERS = {
    "pass": "No issues or incompatibilities found.",
    "unknown": "Potential issues: some rules could not be checked (see 'Not checked').",
    "fail": "Incompatible: these parts do not work together as a {n}-GPU build.",
}
WARN_BANNER = "Warning! These parts have potential issues."
MARK = {"pass": "ok", "fail": "FAIL", "unknown": "??"}
NEVER_CHECKED = (
    "Not checked by any rule: BIOS versions, cable lengths, RAM QVL, cooler clearance to RAM, "
    "PSU transients beyond the margin, noise."
)
WIDTH = 110
WEAK_LEGEND = "ok* = passes on derived or recalled facts: see 'Verify before you buy'"


def money(usd: float | None) -> str:
    return "      n/a" if usd is None else f"${usd:>9,.2f}"


def banner(report: Report) -> str:
    """The sentence after the verdict (the HTML page shows the same)."""
    warned = any(f.status != "pass" and f.severity == "warning" for f in report.findings)
    if report.verdict == "pass" and warned:
        return WARN_BANNER
    return BANNERS[report.verdict].format(n=report.target_gpus)


def summary(report: Report) -> str:
    """The line under the banner: profile, GPU counts, the pricing date."""
    return (
        f"profile {report.profile}; rules evaluated for {report.target_gpus} GPU(s), "
        f"{report.installed_gpus} installed; prices as of {report.as_of}"
        + ("; recalled facts treated as unknown (--verified-only)" if report.verified_only else "")
    )


def verify_text(e: FactEvidence) -> str:
    """One "Verify before you buy" entry: the fact, its evidence kind, what to check and where."""
    return f"{e.name}: {e.field} ({e.kind}) - {e.what_to_check()}"


def render(report: Report) -> str:
    out: list[str] = []
    out.append(f"{report.build}: {report.verdict.upper()}  {banner(report)}")
    out.append(summary(report))
    out.append("")
    out.extend(_parts(report))
    out.append("")
    out.extend(_rules(report))
    out.extend(_verify(report))
    out.append("")
    out.append(NEVER_CHECKED)
    return "\n".join(out)


def _parts(report: Report) -> list[str]:
    """Each part with the line price (count x unit), the dated price used and its age, and the total."""
    out = ["Parts"]
    for role, p in report.parts.items():
        what = p.name
        if p.count > 1:  # count x unit = the line total in the column
            priced = f" @ ${p.usd:,.2f} = ${p.line_usd:,.2f}" if p.line_usd is not None else ""
            what = f"{p.count} x {p.name}{priced}"
        out.append(f"  {role:<12} {money(p.line_usd)}  {what}{_when(p)}")
        if role in report.part_evidence:
            out.append(f"  {'':<12} {'':>10}  evidence: {summary_text(report.part_evidence[role])}")
    out.append(f"  {'total':<12} {money(report.total_usd)}{_incomplete(report)}")
    old = [role for role, p in report.parts.items() if p.stale]
    if old:
        out.append(f"  warning: prices of {', '.join(old)} are old; check today's prices before you buy")
    if report.from_user:
        out.append("")
        out.append("Not from the bundled catalog")
        out.extend(f"  {line}" for line in report.from_user)
    return out


def _when(p: PartLine) -> str:
    """ "(2025-07-23, street, 497 days old)", or that there is no price."""
    if p.price_date is None:
        return "  (no price on or before that date)"
    kind = f", {p.kind}" if p.kind else ""
    age = f", {age_text(p.age_days)} old" if p.age_days else ""
    return f"  ({p.price_date}{kind}{age}{', OLD' if p.stale else ''})"


def _incomplete(report: Report) -> str:
    if not report.unpriced:
        return ""
    return f"  incomplete: no price for {', '.join(report.unpriced)}"


def _mark(f: Finding) -> str:
    """ok, ok* (on weak facts), FAIL, ?? ; a failed warning is "warn" (it does not fail the build,
    as in `suggest`'s answer)."""
    if f.status == "fail" and f.severity == "warning":
        return "warn"
    return "ok*" if f.rests_on_weak else MARK[f.status]


def _verify(report: Report) -> list[str]:
    """The derived and recalled facts the passing rules rest on: what to check, and where."""
    facts = report.verify
    if not facts:
        return []
    out = ["", "Verify before you buy"]
    for e in facts:
        text = verify_text(e)
        out.extend(
            textwrap.wrap(text, width=WIDTH, initial_indent="  ", subsequent_indent="      ", break_on_hyphens=False)
        )
    return out


def _rules(report: Report) -> list[str]:
    """Every rule checked with its numbers, then what was not checked and why."""
    out = ["Rules"]
    for f in report.findings:
        if f.status == "unknown":
            continue
        out.append(f"  [{_mark(f):>4}] {f.rule} ({f.severity}): {f.message}")
    if any(f.rests_on_weak for f in report.findings):
        out.append(f"  {WEAK_LEGEND}")
    unknown = [f for f in report.findings if f.status == "unknown"]
    if unknown or report.skipped:
        out.append("")
        out.append("Not checked")
        for f in unknown:
            out.append(f"  [  ??] {f.rule} ({f.severity}): {f.message}")
        for s in report.skipped:
            out.append(f"  [skip] {s.rule}: {s.reason}")
    return out
