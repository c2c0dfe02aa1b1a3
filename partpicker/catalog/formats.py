"""Formats for `catalog check` problems: text, json, github."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from partpicker.annotations import annotation
from partpicker.catalog import Problem


def _tag(p: Problem) -> str:
    return "warning: " if p.severity == "warning" else ""


def _count(problems: Sequence[Problem]) -> str:
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    verdict = f"{errors} problem(s)" if errors else "no problems"
    return verdict + (f", {warnings} warning(s)" if warnings else "")


def text(problems: Sequence[Problem], parts: int, files: int) -> str:
    lines = [f"{p.path}:{p.line or 0}: [{p.check}] {_tag(p)}{p.message}" for p in problems]
    lines.append(f"{_count(problems)} in {parts} parts from {files} file(s)")
    return "\n".join(lines)


def as_json(problems: Sequence[Problem], parts: int, files: int) -> str:
    return json.dumps(
        {
            "ok": not any(p.severity == "error" for p in problems),
            "parts": parts,
            "files": files,
            "problems": [
                {
                    "check": p.check,
                    "severity": p.severity,
                    "path": p.path,
                    "line": p.line,
                    "part": p.part_id,
                    "message": p.message,
                }
                for p in problems
            ],
        },
        indent=2,
        allow_nan=False,
    )


def github(problems: Sequence[Problem], parts: int, files: int) -> str:
    lines = [annotation(p.severity, p.message, file=p.path, line=p.line, title=p.check) for p in problems]
    lines.append(f"{_count(problems)} in {parts} parts" + ("" if problems else f" from {files} file(s)"))
    return "\n".join(lines)


PROBLEM_REPORTER_BY_NAME: dict[str, Callable[[Sequence[Problem], int, int], str]] = {
    "text": text,
    "json": as_json,
    "github": github,
}
