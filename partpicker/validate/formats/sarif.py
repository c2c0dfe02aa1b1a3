"""SARIF 2.1.0: one run, one result per failing or unknown rule."""

from __future__ import annotations

import json
from typing import Any

from partpicker import __version__
from partpicker.validate.report import Report

LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def render(report: Report) -> str:
    results = []
    for f in report.findings:
        if f.status == "pass":
            continue
        physical: dict[str, Any] = {"artifactLocation": {"uri": report.path or report.build}}
        if f.line:
            physical["region"] = {"startLine": f.line}
        location = {"physicalLocation": physical}
        results.append(
            {
                "ruleId": f.rule,
                "level": LEVEL[f.severity] if f.status == "fail" else "note",
                "message": {"text": f.message},
                "locations": [location],
            }
        )
    results.extend(_verify_results(report))
    rules = sorted({f.rule: f.title for f in report.findings}.items())
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "partpicker",
                        "version": __version__,
                        "rules": [{"id": rid, "shortDescription": {"text": title}} for rid, title in rules],
                    }
                },
                "results": results,
                "properties": {"verify": [e.to_dict() for e in report.verify]},
            }
        ],
    }
    return json.dumps(doc, indent=2, allow_nan=False)


def _verify_results(report: Report) -> list[dict[str, Any]]:
    """One note per passing rule that rests on derived or recalled facts."""
    out = []
    for f in report.findings:
        if not f.rests_on_weak:
            continue
        facts = ", ".join(f"{e.name} {e.field} ({e.kind})" for e in f.weak)
        out.append(
            {
                "ruleId": f.rule,
                "level": "note",
                "message": {"text": f"passes on derived or recalled facts, verify before you buy: {facts}"},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": report.path or report.build}}}],
                "properties": {"evidence": [e.to_dict() for e in f.weak]},
            }
        )
    return out
