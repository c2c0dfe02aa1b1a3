"""GitHub Actions workflow annotations: one ``::error``/``::warning`` line per failing or unknown rule."""

from __future__ import annotations

from partpicker.validate.report import Report

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def escape(text: str) -> str:
    """Escape a message for a workflow command (GitHub's toolkit rules)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_prop(text: str) -> str:
    return escape(text).replace(":", "%3A").replace(",", "%2C")


def annotation(level: str, message: str, *, file: str | None, line: int | None, title: str) -> str:
    props = [f"title={escape_prop(title)}"]
    if file:
        props.insert(0, f"file={escape_prop(file)}")
        if line:
            props.insert(1, f"line={line}")
    return f"::{level} {','.join(props)}::{escape(message)}"


def render(report: Report) -> str:
    lines = []
    for f in report.findings:
        if f.status == "pass":
            continue
        level = LEVEL[f.severity] if f.status == "fail" else "notice"  # unknown: the message says what
        lines.append(annotation(level, f.message, file=report.path, line=f.line, title=f.rule))
    lines.append(f"{report.build}: verdict {report.verdict}")
    return "\n".join(lines)
