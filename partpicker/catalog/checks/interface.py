"""The contract of a catalog check: a function of the loaded catalog that yields problems,
registered under its id with a one-line summary (``@lint(id, summary)``), one module each.
Problems name the part and, where they can, the line of the field (:func:`problem`).

A check of one part at a time registers with ``@lint_part(id, summary)`` instead: a function
of the part that yields :class:`Finding`\\ s. It reads the part's fields only, so it runs
alike on a pydantic part and on the msgspec record of a JSON Lines line (the loader runs it
on each line as it streams by: a large catalog is checked without a model per part).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from partpicker.catalog import Catalog, Problem
from partpicker.yamlio import line_of

LintCheck = Callable[[Catalog], Iterable[Problem]]
LINT_CHECKS: dict[str, tuple[str, LintCheck]] = {}


@dataclass(frozen=True)
class Finding:
    """What a check of one part found: the message, the field it is about, and its severity."""

    message: str
    loc: tuple[str | int, ...] = ()
    severity: str = "error"


PartCheck = Callable[[Any], Iterable[Finding]]
PART_CHECKS: dict[str, PartCheck] = {}
WARNING_CHECKS: set[str] = set()
"""The checks of one part that only warn (``lint_part(..., warns=True)``): what reads only a
catalog's errors need not run them (`suggest` on a JSON Lines catalog, issue 14)."""


def lint(check_id: str, summary: str) -> Callable[[LintCheck], LintCheck]:
    """Register a catalog check."""

    def register(fn: LintCheck) -> LintCheck:
        LINT_CHECKS[check_id] = (summary, fn)
        return fn

    return register


def lint_part(check_id: str, summary: str, *, warns: bool = False) -> Callable[[PartCheck], PartCheck]:
    """Register a check of one part (a pydantic part, or the record of a JSON Lines line);
    ``warns``: every finding of it is a warning (:data:`WARNING_CHECKS`).

    As a catalog check it runs on the parts loaded as models; the JSON Lines loader runs it
    on every record it reads (:func:`partpicker.catalog.load.read_catalog`'s ``part_checks``)."""

    def register(fn: PartCheck) -> PartCheck:
        def whole(catalog: Catalog) -> Iterator[Problem]:
            for part in catalog.models():
                for found in fn(part):
                    yield problem(catalog, check_id, part.id, found.message, found.loc, found.severity)

        PART_CHECKS[check_id] = fn
        LINT_CHECKS[check_id] = (summary, whole)
        if warns:
            WARNING_CHECKS.add(check_id)
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
    origin = catalog.origin_of(part_id)
    line = line_of(origin.raw, list(loc)) if loc else origin.line
    return Problem(check_id, origin.path, line or origin.line, f"{part_id}: {message}", part_id, severity)
