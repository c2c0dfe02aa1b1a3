"""Output formats of `partpicker catalog coverage`, registered by name: ``render(groups, gaps)``."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from partpicker.catalog.coverage import KINDS, PRICES, FieldCoverage, GroupCoverage, to_dict

Groups = Sequence[GroupCoverage]


def _pct(share: float) -> str:
    return f"{share:.0%}" if share in (0.0, 1.0) else f"{share:.1%}"


def _kinds(f: FieldCoverage) -> list[str]:
    if f.field == PRICES:
        return ["" for _ in KINDS]
    return [str(f.by_kind[k]) if f.by_kind.get(k) else "-" for k in KINDS]


def _heading(g: GroupCoverage) -> str:
    return f"{g.title}: {_pct(g.share)} of the decisive facts known ({g.known:,} of {g.total:,})"


def markdown(groups: Groups, gaps: bool = False) -> str:
    """One table per group: a row per category and field, known counts by evidence kind."""
    out: list[str] = []
    for g in groups:
        out += [f"**{_heading(g)}**", ""]
        out.append("| category | field | known | share | " + " | ".join(KINDS) + " |")
        out.append("|---|---|---:|---:|" + "---:|" * len(KINDS))
        for c in g.categories:
            for i, f in enumerate(c.fields):
                cat = f"{c.category} ({c.parts})" if i == 0 else ""
                cells = [cat, f"`{f.field}`", f"{f.known}/{f.total}", _pct(f.share), *_kinds(f)]
                out.append("| " + " | ".join(cells) + " |")
        if gaps:
            out += ["", *_gap_lines(g, "- ")]
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def text(groups: Groups, gaps: bool = False) -> str:
    """Aligned columns per group; with ``gaps`` the ids missing each field under it."""
    out: list[str] = []
    head = f"    {'field':<20} {'known':>9} {'share':>6}  " + " ".join(f"{k:>8}" for k in KINDS)
    for g in groups:
        out += [_heading(g), head]
        for c in g.categories:
            out.append(f"  {c.category} ({c.parts} parts)")
            for f in c.fields:
                kinds = " ".join(f"{k:>8}" for k in _kinds(f))
                out.append(f"    {f.field:<20} {f.known:>4}/{f.total:<4} {_pct(f.share):>6}  {kinds}")
                if gaps and f.missing:
                    out.append(f"      missing: {', '.join(f.missing)}")
        out.append("")
    return "\n".join(out).rstrip()


def _gap_lines(g: GroupCoverage, bullet: str) -> list[str]:
    lines = []
    for c in g.categories:
        for f in c.fields:
            if f.missing:
                lines.append(f"{bullet}{c.category}.{f.field} ({len(f.missing)}): {', '.join(f.missing)}")
    return lines or [f"{bullet}no gaps"]


def json_format(groups: Groups, gaps: bool = False) -> str:
    """One object: ``{kinds, groups: [{group, title, known, total, share, categories: [...]}]}``."""
    return json.dumps(to_dict(groups, gaps=gaps), indent=2)


COVERAGE_FORMATS: dict[str, Callable[[Groups, bool], str]] = {
    "text": text,
    "json": json_format,
    "markdown": markdown,
}
