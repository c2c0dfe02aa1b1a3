"""evidence-default, evidence-unknown: warnings on how a part states its evidence.

A part without an ``evidence:`` default leaves the kind of every fact without its own
``field_evidence`` entry unstated; a ``field_evidence`` entry for a field the part leaves
unknown states evidence for nothing (a value was dropped, or the entry belongs elsewhere).
Both are warnings: the catalog still loads and `catalog check` still passes.
"""

from __future__ import annotations

from collections.abc import Iterator

from partpicker.catalog import Catalog, Problem
from partpicker.catalog.checks.interface import lint, problem
from partpicker.catalog.coverage import known
from partpicker.models import EVIDENCE_KINDS


@lint("evidence-default", "warning: a part without an `evidence:` default kind")
def no_default(catalog: Catalog) -> Iterator[Problem]:
    for part in catalog:
        if part.evidence is None:
            yield problem(
                catalog,
                "evidence-default",
                part.id,
                f"no `evidence:` default; add the kind most of its specs rest on ({', '.join(EVIDENCE_KINDS)})",
                ["id"],
                severity="warning",
            )


@lint("evidence-unknown", "warning: field_evidence naming a field the part leaves unknown")
def evidence_for_unknown(catalog: Catalog) -> Iterator[Problem]:
    for part in catalog:
        for name in part.field_evidence:
            if not known(part, name):
                yield problem(
                    catalog,
                    "evidence-unknown",
                    part.id,
                    f"field_evidence.{name} states evidence for a field the part leaves unknown; "
                    "give the value or drop the entry",
                    ["field_evidence", name],
                    severity="warning",
                )
