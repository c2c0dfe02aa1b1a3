"""Run a profile's rules over a build and assemble the report."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import replace
from typing import Any

from partpicker.build import Build, Line
from partpicker.catalog.verified import without_recalled
from partpicker.errors import InputError, excerpt
from partpicker.pricing import STALE_DAYS, price_lines, today, total_usd
from partpicker.rules.checks import CHECKS, Context, Outcome, Unknown
from partpicker.rules.rulebook import SEVERITY_RANK, Param, RuleSpec, render, rules_for
from partpicker.validate import evidence as ev
from partpicker.validate.report import Finding, Report, Skipped

KIND = {"int": "a whole number", "float": "a number", "str": "a string", "bool": "true or false"}
STATUS_ORDER = {"fail": 0, "unknown": 1, "pass": 2}


def settings(spec: RuleSpec, setting: Any, build: Build) -> tuple[bool, dict[str, Any], str]:
    """(enabled, params, severity) for a rule under a build's override."""
    params = spec.defaults()
    severity: str = spec.severity
    if setting is None or setting is True:
        return True, params, severity
    if setting is False or setting == "off":
        return False, params, severity
    line = build.lines.get(f"rules.{spec.id}")
    for key, value in setting.items():
        if key == "severity":
            if not isinstance(value, str) or value not in SEVERITY_RANK:
                raise InputError(
                    f"{spec.id}.severity must be error, warning or info, got {excerpt(value)}",
                    path=build.path,
                    line=line,
                )
            severity = value
        elif key not in params:
            allowed = ", ".join([*spec.params, "severity"])
            raise InputError(
                f"rule {spec.id} has no parameter {excerpt(key)}",
                path=build.path,
                line=line,
                hint=f"allowed: {allowed}",
            )
        else:
            problem = param_problem(spec.params[key], value)
            if problem:
                raise InputError(f"{spec.id}.{key} {problem}", path=build.path, line=line)
            params[key] = value
    return True, params, severity


def param_problem(param: Param, value: Any) -> str | None:
    """Why ``value`` may not override ``param`` (its declared type and range), or None.

    Strict: a boolean is never a number, a string never a number, numbers must be finite."""
    kind = param.kind
    if kind in ("int", "float"):
        ok = isinstance(value, int | float) and not isinstance(value, bool)
        if ok and kind == "int":
            ok = isinstance(value, int)
        if not ok:
            return f"must be {KIND[kind]}, got {excerpt(value)}"
        if not math.isfinite(value):
            return f"must be a finite number, got {excerpt(value)}"
        if param.min is not None and value < param.min:
            return f"must be at least {param.min:g}, got {value:g}"
        if param.max is not None and value > param.max:
            return f"must be at most {param.max:g}, got {value:g}"
        return None
    if not isinstance(value, bool if kind == "bool" else str):
        return f"must be {KIND[kind]}, got {excerpt(value)}"
    return None


def run_rule(
    spec: RuleSpec, build: Build, params: dict[str, Any], layouts: dict[Any, Any], *, explain: bool = True
) -> Outcome:
    """One rule's outcome on a build (no overrides, no report). ``explain=False`` lets a
    check skip work that only feeds its message (the solver needs the status alone)."""
    ctx = Context(build=build, n_gpus=build.target_gpus, params=params, _layouts=layouts, explain=explain)
    try:
        return CHECKS[spec.id](ctx)
    except Unknown as exc:
        return Outcome("unknown", {"missing": exc.missing})


def message(spec: RuleSpec, outcome: Outcome) -> str:
    if outcome.status == "unknown" and ("unknown" not in spec.message or set(outcome.values) == {"missing"}):
        return f"not checked: {outcome.values.get('missing', 'data missing')}"
    text = render(spec.message[outcome.status], {**outcome.values})  # type: ignore[index]
    if outcome.status == "unknown" and "missing" in outcome.values and "{missing}" not in spec.message["unknown"]:
        text += f" (not checked: {outcome.values['missing']})"
    return text


def evaluate(
    build: Build,
    rules: dict[str, RuleSpec],
    *,
    as_of: dt.date | None = None,
    stale_days: int = STALE_DAYS,
    verified_only: bool = False,
) -> Report:
    """Validate ``build`` under its profile. ``verified_only``: recalled facts are unknown
    (:func:`partpicker.catalog.verified.without_recalled`), and a rule that reads one no part
    can be without (a socket) cannot pass."""
    _known_rules(build, rules)
    original = build if verified_only else None
    if verified_only:
        build = _verified(build)
    findings: list[Finding] = []
    skipped: list[Skipped] = []
    layouts: dict[Any, Any] = {}
    for spec in rules_for(build.profile, rules):
        found = _finding(spec, build, layouts, original)
        if isinstance(found, Skipped):
            skipped.append(found)
        else:
            findings.append(found)
    findings.sort(key=lambda f: (STATUS_ORDER[f.status], -SEVERITY_RANK[f.severity]))
    day = as_of or build.as_of or today()
    parts = price_lines(build, day, stale_days)
    total = total_usd(parts)
    return Report(
        build=build.name,
        path=build.path,
        profile=build.profile,
        target_gpus=build.target_gpus,
        installed_gpus=build.gpu_count,
        verdict=verdict_of(findings),
        as_of=day,
        parts=parts,
        total_usd=total,
        findings=tuple(findings),
        skipped=tuple(skipped),
        resolved=build,
        params=_params(build, rules),
        part_evidence={role: ev.summary(part) for role, part, _count in build.items()},
        verified_only=verified_only,
    )


def _params(build: Build, rules: dict[str, RuleSpec]) -> dict[str, dict[str, Any]]:
    """The effective parameters of each rule of the profile that is turned on."""
    out = {}
    for spec in rules_for(build.profile, rules):
        enabled, params, _severity = settings(spec, build.rules.get(spec.id), build)
        if enabled:
            out[spec.id] = params
    return out


def _known_rules(build: Build, rules: dict[str, RuleSpec]) -> None:
    """Every rule the build file overrides exists."""
    for rule_id in build.rules:
        if rule_id not in rules:
            raise InputError(
                f"unknown rule {rule_id!r}",
                path=build.path,
                line=build.lines.get(f"rules.{rule_id}"),
                hint="`partpicker rules` lists the rule ids",
            )


def _verified(build: Build) -> Build:
    """``build`` with its parts' recalled facts unknown."""
    parts = {role: tuple(Line(without_recalled(x.part), x.count) for x in lines) for role, lines in build.parts.items()}
    return replace(build, parts=parts)


def _finding(spec: RuleSpec, build: Build, layouts: dict[Any, Any], original: Build | None) -> Finding | Skipped:
    """One rule's finding on the build with the evidence it read, or why it was skipped.
    ``original``: the build before its recalled facts were made unknown (--verified-only)."""
    enabled, params, severity = settings(spec, build.rules.get(spec.id), build)
    if not enabled:
        return Skipped(spec.id, "turned off in the build file")
    absent = [role for role in spec.applies_when if not build.has(role)]
    if absent:
        return Skipped(spec.id, f"the build has no {', '.join(absent)}")
    outcome = run_rule(spec, build, params, layouts)
    line = next((build.lines[r] for r in spec.roles if build.lines.get(r)), None)
    facts = ev.evidence_for(spec, build)
    status, text = outcome.status, message(spec, outcome)
    if original is not None:
        status, text = _unless_recalled(status, text, facts, ev.evidence_for(spec, original))
    return Finding(spec.id, spec.title, severity, status, tuple(spec.roles), text, line, facts)


def _unless_recalled(
    status: str, text: str, facts: tuple[ev.FactEvidence, ...], before: tuple[ev.FactEvidence, ...]
) -> tuple[str, str]:
    """Under --verified-only: a pass that read a recalled fact is *unknown*, naming the facts;
    an unknown says which recalled facts were set unknown (``before``: the facts as catalogued)."""
    kept = ev.recalled(facts)
    if kept and status == "pass":
        named = ", ".join(f"{f.field} of {f.name}" for f in kept)
        return "unknown", f"not checked: rests on recalled {named} (--verified-only)"
    read = {(f.part, f.field) for f in facts}
    dropped = [f for f in ev.recalled(before) if (f.part, f.field) not in read]
    if dropped and status == "unknown":
        named = ", ".join(f"{f.field} of {f.name}" for f in dropped)
        if any(f"{f.field} of {f.name}" in text for f in dropped):  # the fact it lacks is one set unknown
            return status, f"not checked: rests on recalled {named} (--verified-only)"
        text += f" (recalled, so unknown under --verified-only: {named})"
    return status, text


def verdict_of(findings: list[Finding]) -> str:
    """fail if an error-severity rule fails; unknown if none fails but one could not be
    checked; else pass. Warnings, failing or unchecked, do not change it (as for `suggest`'s
    "proven": every error rule passes); the report lists them, and ``--strict`` exits 1."""
    errors = [f for f in findings if f.severity == "error"]
    if any(f.status == "fail" for f in errors):
        return "fail"
    if any(f.status == "unknown" for f in errors):
        return "unknown"
    return "pass"
