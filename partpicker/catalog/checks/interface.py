"""The contract of a catalog check: a function of the loaded catalog that yields problems,
registered under its id with a one-line summary (``@lint(id, summary)``), one module each.
Problems name the part and, where they can, the line of the field (:func:`problem`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from partpicker.catalog import Catalog, Problem
from partpicker.yamlio import line_of

LintCheck = Callable[[Catalog], Iterable[Problem]]
LINT_CHECKS: dict[str, tuple[str, LintCheck]] = {}


def lint(check_id: str, summary: str) -> Callable[[LintCheck], LintCheck]:
    """Register a catalog check."""

    def register(fn: LintCheck) -> LintCheck:
        LINT_CHECKS[check_id] = (summary, fn)
        return fn

    return register


def problem(
    catalog: Catalog,
    check_id: str,
    part_id: str,
    message: str,
    loc: Sequence[str | int] = (),
    severity: str = "error",
) -> Problem:
    """A problem located at a part (or a field of it); ``severity`` error or warning."""
    origin = catalog.origin[part_id]
    line = line_of(origin.raw, list(loc)) if loc else origin.line
    return Problem(check_id, origin.path, line or origin.line, f"{part_id}: {message}", part_id, severity)
