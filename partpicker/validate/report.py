"""The result of validating a build: frozen findings and a report every format reads."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from partpicker.build import Build
from partpicker.errors import ExitCode
from partpicker.pricing import PartLine
from partpicker.validate.evidence import FactEvidence


@dataclass(frozen=True)
class Finding:
    """One rule's result on one build."""

    rule: str
    """The rule id (the rule's file stem in `rules/`)."""
    title: str
    """The rule's one-line title."""
    severity: str
    """Effective severity: error, warning or info."""
    status: str
    """pass, fail or unknown."""
    roles: tuple[str, ...]
    """The build roles the rule ties."""
    message: str
    """What was found, with the numbers."""
    line: int | None = None
    """Line in the build file of the first role the rule names, for annotations."""
    evidence: tuple[FactEvidence, ...] = ()
    """The evidence of each known fact the rule read (its ``reads:``), per role part."""

    @property
    def weak(self) -> tuple[FactEvidence, ...]:
        """The facts it read that are only derived or recalled."""
        return tuple(e for e in self.evidence if e.weak)

    @property
    def rests_on_weak(self) -> bool:
        """A pass that rests on derived or recalled facts: marked, and listed under 'verify'."""
        return self.status == "pass" and bool(self.weak)


@dataclass(frozen=True)
class Skipped:
    """A rule that was not run, and why."""

    rule: str
    reason: str


@dataclass(frozen=True)
class Report:
    """Everything `validate` found."""

    build: str
    path: str | None
    profile: str
    target_gpus: int
    installed_gpus: int
    verdict: str
    as_of: dt.date
    parts: dict[str, PartLine]
    total_usd: float
    findings: tuple[Finding, ...]
    skipped: tuple[Skipped, ...] = field(default_factory=tuple)
    resolved: Build | None = field(default=None, compare=False, repr=False)
    """The build as evaluated (its parts), for formats that draw it; not serialised."""
    params: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False, repr=False)
    """Each rule that ran with its effective parameters (defaults and the build's overrides)."""
    part_evidence: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """Per role, its part's known spec fields grouped by evidence kind (see evidence.summary)."""
    verified_only: bool = False
    """Whether recalled facts were treated as unknown (``--verified-only``)."""

    @property
    def verify(self) -> tuple[FactEvidence, ...]:
        """'Verify before you buy': the derived or recalled facts the passing rules rest on,
        each once, in finding order."""
        seen: dict[tuple[str, str], FactEvidence] = {}
        for f in self.findings:
            if f.rests_on_weak:
                for e in f.weak:
                    seen.setdefault((e.part, e.field), e)
        return tuple(seen.values())

    def exit_code(self, strict: bool = False) -> ExitCode:
        """FINDINGS if the verdict is fail (``strict``: or any rule did not pass), else CLEAN."""
        if self.verdict == "fail" or (strict and any(f.status != "pass" for f in self.findings)):
            return ExitCode.FINDINGS
        return ExitCode.CLEAN

    @property
    def from_user(self) -> list[str]:
        """One line per part or price that came from the user, not the bundled catalog."""
        out = []
        for role, p in self.parts.items():
            if p.origin:
                out.append(f"{role}: {p.name}: {p.origin}")
            if p.price_from_user:
                out.append(f"{role}: price ${p.usd:,.2f} of {p.price_date}: from {p.price_from_user}")
        return out

    @property
    def unpriced(self) -> list[str]:
        return [role for role, p in self.parts.items() if p.usd is None]

    def to_dict(self) -> dict[str, Any]:
        """The one JSON shape (see the README)."""
        return {
            "build": self.build,
            "profile": self.profile,
            "target_gpus": self.target_gpus,
            "installed_gpus": self.installed_gpus,
            "verdict": self.verdict,
            "as_of": self.as_of.isoformat(),
            "parts": {
                role: {
                    "id": p.id,
                    "name": p.name,
                    "usd": p.usd,
                    "count": p.count,
                    "line_usd": p.line_usd,
                    "price_date": p.price_date.isoformat() if p.price_date else None,
                    "price_kind": p.kind,
                    "price_age_days": p.age_days,
                    "price_source": p.price_source,
                    "stale": p.stale,
                    "origin": p.origin,
                    "price_from_user": p.price_from_user,
                }
                for role, p in self.parts.items()
            },
            "total_usd": self.total_usd,
            "total_incomplete": bool(self.unpriced),
            "unpriced": self.unpriced,
            "from_user": self.from_user,
            "findings": [_finding_dict(f) for f in self.findings],
            "skipped": [asdict(s) for s in self.skipped],
            "verified_only": self.verified_only,
            "verify": [e.to_dict() for e in self.verify],
            "part_evidence": self.part_evidence,
        }


def _finding_dict(f: Finding) -> dict[str, Any]:
    """One finding's JSON: its fields (no line or title), with its evidence list."""
    out: dict[str, Any] = {
        "rule": f.rule,
        "severity": f.severity,
        "status": f.status,
        "roles": list(f.roles),
        "message": f.message,
    }
    out["evidence"] = [e.to_dict() for e in f.evidence]
    out["rests_on_weak_evidence"] = f.rests_on_weak
    return out
