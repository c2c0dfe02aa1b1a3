"""Formats for `catalog check` problems: text, json, github."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from partpicker.annotations import annotation
from partpicker.catalog import Problem


def text(problems: Sequence[Problem], parts: int, files: int) -> str:
    lines = [f"{p.path}:{p.line or 0}: [{p.check}] {p.message}" for p in problems]
    verdict = f"{len(problems)} problem(s)" if problems else "no problems"
    lines.append(f"{verdict} in {parts} parts from {files} file(s)")
    return "\n".join(lines)


def as_json(problems: Sequence[Problem], parts: int, files: int) -> str:
    return json.dumps(
        {
            "ok": not problems,
            "parts": parts,
            "files": files,
            "problems": [
                {"check": p.check, "path": p.path, "line": p.line, "part": p.part_id, "message": p.message}
                for p in problems
            ],
        },
        indent=2,
        allow_nan=False,
    )


def github(problems: Sequence[Problem], parts: int, files: int) -> str:
    lines = [annotation("error", p.message, file=p.path, line=p.line, title=p.check) for p in problems]
    lines.append(text([], parts, files) if not problems else f"{len(problems)} problem(s) in {parts} parts")
    return "\n".join(lines)


PROBLEM_REPORTER_BY_NAME: dict[str, Callable[[Sequence[Problem], int, int], str]] = {
    "text": text,
    "json": as_json,
    "github": github,
}
