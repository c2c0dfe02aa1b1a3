"""`catalog diff BASE HEAD`: parts added, removed and changed, and what that does to the
example builds' verdicts. BASE and HEAD are folders or git revisions."""

from __future__ import annotations

import datetime as dt
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from partpicker.catalog import Catalog, Problem
from partpicker.errors import InputError


@dataclass
class Change:
    """One part present on both sides with different fields."""

    id: str
    name: str
    fields: list[tuple[str, Any, Any]]


@dataclass
class Impact:
    """An example build whose verdict differs between the sides."""

    build: str
    before: str
    after: str


@dataclass
class Diff:
    base: str
    head: str
    added: list[tuple[str, str, str]] = field(default_factory=list)
    removed: list[tuple[str, str, str]] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    impact: list[Impact] = field(default_factory=list)
    problems: dict[str, int] = field(default_factory=dict)
    suggest: list[tuple[str, str, str]] = field(default_factory=list)


def _materialise(spec: str, repo: Path, tmp: Path) -> Path:
    """A folder holding the catalog of ``spec``: the folder itself, or a git revision's catalogs/."""
    path = Path(spec)
    if path.is_dir():
        return path / "catalogs" if (path / "catalogs").is_dir() else path
    try:
        names = subprocess.run(
            ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", spec, "--", "catalogs"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
    except (subprocess.CalledProcessError, FileNotFoundError):
        raise InputError(
            f"{spec!r} is neither a folder nor a git revision of {repo}", hint="name a folder or a commit/branch"
        ) from None
    out = tmp / spec.replace("/", "_")
    for name in names:
        if not name.endswith((".yaml", ".yml")):
            continue
        blob = subprocess.run(["git", "-C", str(repo), "show", f"{spec}:{name}"], check=True, capture_output=True)
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(blob.stdout)
    return out / "catalogs"


def _flat(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, sub in value.items():
            out.update(_flat(sub, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def compare(base: Catalog, head: Catalog) -> tuple[list[Any], list[Any], list[Change]]:
    added = [(p.category, p.id, p.name) for pid, p in head.parts.items() if pid not in base.parts]
    removed = [(p.category, p.id, p.name) for pid, p in base.parts.items() if pid not in head.parts]
    changed = []
    for pid, new in head.parts.items():
        old = base.parts.get(pid)
        if old is None or old == new:
            continue
        a, b = _flat(old.model_dump(mode="json")), _flat(new.model_dump(mode="json"))
        fields = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        changed.append(Change(pid, new.name, fields))
    return added, removed, changed


Verdicts = Callable[[Catalog], dict[str, str]]
"""Judges a catalog by the example builds: example name -> verdict."""
Answers = Callable[[Catalog, dt.date | None], dict[str, str]]
"""Judges a catalog by the standard `suggest` requests: request -> one-line answer."""


def newest_price(*catalogs: Catalog) -> dt.date | None:
    """The newest price date in the catalogs (the date the standard requests are priced at)."""
    dates = [p.date for c in catalogs for part in c for p in part.prices]
    return max(dates) if dates else None


SHOWN_PROBLEMS = 20


def _where(problem: Problem, spec: str, tmp: Path) -> str:
    """``file:line`` of a problem, a git revision's files named ``REV:catalogs/x.yaml``."""
    path = Path(problem.path)
    root = tmp / spec.replace("/", "_")
    shown = f"{spec}:{path.relative_to(root)}" if path.is_relative_to(root) else problem.path
    return f"{shown}:{problem.line}" if problem.line else shown


def _loads_cleanly(sides: dict[str, tuple[str, Path, list[Problem]]], tmp: Path) -> None:
    """Both sides load without errors, or an :class:`InputError` listing every error with
    file and line: a part that does not load would otherwise show as removed (or not added)."""
    lines = [
        f"  {side} {_where(p, spec, tmp)}: {p.message}"
        for side, (spec, _, problems) in sides.items()
        for p in problems
        if p.severity == "error"
    ]
    if not lines:
        return
    broken = [side for side, (_, _, problems) in sides.items() if any(p.severity == "error" for p in problems)]
    more = [f"  ... and {len(lines) - SHOWN_PROBLEMS} more"] if len(lines) > SHOWN_PROBLEMS else []
    raise InputError(
        f"{' and '.join(broken)} do{'es' if len(broken) == 1 else ''} not load cleanly "
        f"({len(lines)} problem(s)), so the diff would be wrong:\n" + "\n".join(lines[:SHOWN_PROBLEMS] + more),
        hint="fix them (`partpicker catalog check` lists them), then diff again",
    )


def diff(
    base_spec: str, head_spec: str, *, repo: Path, verdicts: Verdicts | None = None, answers: Answers | None = None
) -> Diff:
    """Parts added, removed and changed; with ``verdicts`` and ``answers``, what that does to them."""
    with tempfile.TemporaryDirectory() as tmp:
        base_dir = _materialise(base_spec, repo, Path(tmp))
        head_dir = _materialise(head_spec, repo, Path(tmp))
        # Each side as `catalog check` reads it: a catalog that fails a check loads no more
        # cleanly than one that does not parse (as `validate --catalog` refuses it).
        from partpicker.catalog.checks import check_catalog

        base, base_problems = check_catalog([base_dir]) if base_dir.exists() else (Catalog(), [])
        head, head_problems = check_catalog([head_dir]) if head_dir.exists() else (Catalog(), [])
        _loads_cleanly(
            {"BASE": (base_spec, base_dir, base_problems), "HEAD": (head_spec, head_dir, head_problems)}, Path(tmp)
        )
    result = Diff(base_spec, head_spec)
    result.added, result.removed, result.changed = compare(base, head)
    result.problems = {"base": len(base_problems), "head": len(head_problems)}
    if verdicts is not None:
        before, after = verdicts(base), verdicts(head)
        result.impact = [Impact(name, before[name], after[name]) for name in before if before[name] != after[name]]
    if answers is not None:
        day = newest_price(base, head)
        old, new = answers(base, day), answers(head, day)
        result.suggest = [(label, old[label], new[label]) for label in old if old[label] != new[label]]
    return result


def markdown(d: Diff) -> str:
    out = [f"### Catalog diff `{d.base}` → `{d.head}`", ""]
    out.append(f"**{len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed.**")
    if d.problems.get("head"):
        out.append(f"\n:warning: HEAD has {d.problems['head']} catalog problem(s): run `partpicker catalog check`.")
    for title, rows in (("Added", d.added), ("Removed", d.removed)):
        if rows:
            out += ["", f"#### {title}", "", "| category | id | name |", "|---|---|---|"]
            out += [f"| {c} | `{i}` | {n} |" for c, i, n in rows]
    if d.changed:
        out += ["", "#### Changed", "", "| part | field | before | after |", "|---|---|---|---|"]
        for ch in d.changed:
            for fname, a, b in ch.fields:
                out.append(f"| `{ch.id}` | {fname} | {_cell(a)} | {_cell(b)} |")
    return "\n".join(out + _impact_markdown(d))


def _impact_markdown(d: Diff) -> list[str]:
    """The impact on the example builds and on the standard `suggest` requests."""
    out = ["", "#### Impact on example builds", ""]
    if d.impact:
        out += ["| build | before | after |", "|---|---|---|"]
        out += [f"| {i.build} | {i.before} | {i.after} |" for i in d.impact]
    else:
        out.append("No example build changes verdict.")
    out += ["", "#### Impact on `suggest`", ""]
    if d.suggest:
        out += ["| request | before | after |", "|---|---|---|"]
        out += [f"| `{label}` | {_cell(a)} | {_cell(b)} |" for label, a, b in d.suggest]
    else:
        out.append("The standard requests get the same answers.")
    return out


def text(d: Diff) -> str:
    out = [
        f"catalog diff {d.base} -> {d.head}: {len(d.added)} added, {len(d.removed)} removed, {len(d.changed)} changed"
    ]
    out += [f"  + {c} {i}" for c, i, _ in d.added]
    out += [f"  - {c} {i}" for c, i, _ in d.removed]
    for ch in d.changed:
        out += [f"  ~ {ch.id}.{f}: {_cell(a)} -> {_cell(b)}" for f, a, b in ch.fields]
    out += [f"  ! {i.build}: {i.before} -> {i.after}" for i in d.impact] or ["  no example build changes verdict"]
    out += [f"  ? {label}: {a} -> {b}" for label, a, b in d.suggest] or ["  suggest: same answers"]
    return "\n".join(out)


def _cell(value: Any) -> str:
    text = "—" if value is None else str(value)
    return text.replace("|", "\\|")[:160]


DIFF_FORMATS: dict[str, Callable[[Diff], str]] = {"markdown": markdown, "text": text}
