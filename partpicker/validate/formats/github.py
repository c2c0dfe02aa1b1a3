"""GitHub Actions workflow annotations: one ``::error``/``::warning`` line per failing or unknown rule."""

from __future__ import annotations

from partpicker.annotations import annotation, escape
from partpicker.validate.report import Report

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def render(report: Report) -> str:
    lines = []
    for f in report.findings:
        if f.status == "pass":
            continue
        level = LEVEL[f.severity] if f.status == "fail" else "notice"  # unknown: the message says what
        lines.append(annotation(level, f.message, file=report.path, line=f.line, title=f.rule))
    if report.verify:
        facts = "; ".join(f"{e.name} {e.field} ({e.kind})" for e in report.verify)
        lines.append(
            annotation(
                "notice",
                f"passes rest on derived or recalled facts, verify before you buy: {facts}",
                file=report.path,
                line=None,
                title="verify before you buy",
            )
        )
    # Escaped, and not at the start of the line: a build name must not read as a workflow command.
    lines.append(f"verdict {report.verdict}: {escape(report.build)}")
    return "\n".join(lines)
