"""The evidence a finding rests on: for each (role, part, field) a rule declares it reads,
the field's evidence kind, source and note (``Part.evidence_of``).

A fact the catalog does not know (``None``) carries no evidence: the rule that needed it
said *unknown*. ``--verified-only`` treats ``recalled`` facts as unknown too: the catalog
transform (:mod:`partpicker.catalog.verified`) nulls the optional ones, and
:func:`recalled_facts` names the required ones that remain, so that a pass resting on
them is not a pass.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from partpicker.build import Build
from partpicker.parts import WEAK_EVIDENCE, Part, spec_fields
from partpicker.rules.rulebook import RuleSpec


@dataclass(frozen=True)
class FactEvidence:
    """The evidence for one fact a rule read."""

    role: str
    part: str
    """The part's id."""
    name: str
    """The part's name, for people."""
    field: str
    kind: str | None
    """manual, maker, review, database, derived, recalled; None if the catalog does not say."""
    source: str | None = None
    note: str | None = None

    @property
    def weak(self) -> bool:
        """Derived or recalled: a pass resting on it is to be verified before buying."""
        return self.kind in WEAK_EVIDENCE

    def to_dict(self) -> dict[str, str | None]:
        return {
            "role": self.role,
            "part": self.part,
            "field": self.field,
            "kind": self.kind,
            "source": self.source,
            "note": self.note,
        }

    def what_to_check(self) -> str:
        """One line for people: the note's 'Verify ...' sentence if it has one, else its first
        sentence; then where (the source)."""
        hint = _verify_sentence(self.note).rstrip(".") if self.note else None
        where = f"source: {self.source}" if self.source else None
        return "; ".join(x for x in (hint, where) if x) or "no note or source recorded"


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def _verify_sentence(note: str) -> str:
    sentences = [s.strip() for s in _SENTENCE_END.split(note.strip()) if s.strip()]
    for sentence in sentences:
        if sentence.lower().startswith(("verify", "check")):
            return sentence
    return sentences[0]


def fact(role: str, part: Part, field: str) -> FactEvidence | None:
    """The evidence of ``part.field``; None when the catalog does not know the value."""
    if getattr(part, field, None) is None:
        return None
    ev = part.evidence_of(field)
    if ev is None:
        return FactEvidence(role, part.id, part.name, field, None)
    return FactEvidence(role, part.id, part.name, field, ev.kind, ev.source, ev.note)


def evidence_for(spec: RuleSpec, build: Build) -> tuple[FactEvidence, ...]:
    """The evidence of every known fact ``spec`` reads on ``build``, in the rule's role order
    (every drive for ``ssd``, every card model for ``gpu``)."""
    out: list[FactEvidence] = []
    for role, fields in spec.reads.items():
        for part in {p.id: p for p in build.all(role)}.values():
            for name in fields:
                found = fact(role, part, name)
                if found is not None:
                    out.append(found)
    return tuple(out)


def recalled(facts: Iterable[FactEvidence]) -> list[FactEvidence]:
    """The facts among ``facts`` that rest on recall."""
    return [f for f in facts if f.kind == "recalled"]


def summary(part: Part) -> dict[str, list[str]]:
    """A part's known spec fields grouped by evidence kind (``unstated`` if none is given),
    strongest kind first."""
    groups: dict[str, list[str]] = {}
    for name in spec_fields(type(part)):
        if getattr(part, name) is None:
            continue
        ev = part.evidence_of(name)
        groups.setdefault(ev.kind if ev else "unstated", []).append(name)
    order = {k: i for i, k in enumerate(("manual", "maker", "review", "database", "derived", "recalled"))}
    return dict(sorted(groups.items(), key=lambda kv: order.get(kv[0], len(order))))


def summary_text(groups: dict[str, list[str]]) -> str:
    """'database 9; derived: pcie_slots, m2_slots': strong kinds counted, weak ones named."""
    parts = []
    for kind, fields in groups.items():
        if kind in WEAK_EVIDENCE or kind == "unstated":
            parts.append(f"{kind}: {', '.join(fields)}")
        else:
            parts.append(f"{kind} {len(fields)}")
    return "; ".join(parts) or "no known specs"
