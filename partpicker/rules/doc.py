"""Rule documentation generated from the rule files (the README table and `partpicker rules`)."""

from __future__ import annotations

from partpicker.rules.rulebook import RuleSpec


def text(specs: list[RuleSpec]) -> str:
    out = []
    for s in specs:
        params = ", ".join(f"{k}={p.default}" for k, p in s.params.items())
        out.append(f"{s.id}  [{s.severity}, {s.profile}]  roles: {', '.join(s.roles)}")
        out.append(f"  {s.title}")
        if params:
            out.append(f"  parameters: {params}")
        if s.formula:
            out.append(f"  formula: {s.formula}")
        for line in s.explanation.strip().splitlines():
            out.append(f"  {line}")
        out.append(f"  sources: {'; '.join(s.sources)}")
        out.append("")
    return "\n".join(out).rstrip()


def markdown_table(specs: list[RuleSpec]) -> str:
    rows = [
        "| rule | profile | severity | roles | parameters | what it checks | at N GPUs |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in specs:
        params = ", ".join(f"`{k}={p.default}`" for k, p in s.params.items()) or "-"
        cells = [f"`{s.id}`", s.profile, s.severity, ", ".join(s.roles), params, s.title, s.formula or "-"]
        rows.append(f"| {' | '.join(cells)} |")
    return "\n".join(rows)
