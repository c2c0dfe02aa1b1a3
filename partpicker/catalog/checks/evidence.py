"""evidence-default, evidence-unknown: warnings on how a part states its evidence.

A part without an ``evidence:`` default leaves the kind of every fact without its own
``field_evidence`` entry unstated; a ``field_evidence`` entry for a field the part leaves
unknown states evidence for nothing (a value was dropped, or the entry belongs elsewhere).
Both are warnings: the catalog still loads and `catalog check` still passes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from partpicker.catalog.checks.interface import Finding, lint_part
from partpicker.catalog.coverage import known
from partpicker.models import EVIDENCE_KINDS


@lint_part("evidence-default", "warning: a part without an `evidence:` default kind", warns=True)
def no_default(part: Any) -> Iterator[Finding]:
    if part.evidence is None:
        yield Finding(
            f"no `evidence:` default; add the kind most of its specs rest on ({', '.join(EVIDENCE_KINDS)})",
            ("id",),
            "warning",
        )


@lint_part("evidence-unknown", "warning: field_evidence naming a field the part leaves unknown", warns=True)
def evidence_for_unknown(part: Any) -> Iterator[Finding]:
    for name in part.field_evidence:
        if not known(part, name):
            yield Finding(
                f"field_evidence.{name} states evidence for a field the part leaves unknown; "
                "give the value or drop the entry",
                ("field_evidence", name),
                "warning",
            )
