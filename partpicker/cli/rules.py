"""`partpicker rules`: every rule, or the constraint graph."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from partpicker.cli.common import emit, guarded
from partpicker.rules import doc as rules_doc
from partpicker.rules.graph import build_graph, to_dot, to_text
from partpicker.rules.rulebook import load_rules


class RulesFormat(StrEnum):
    text = "text"
    markdown = "markdown"
    dot = "dot"


def rules(
    graph: Annotated[bool, typer.Option("--graph", help="Print the constraint graph instead.")] = False,
    format: Annotated[RulesFormat, typer.Option("--format", "-f", help="text, markdown (table) or dot (graph).")] = (
        RulesFormat.text
    ),
) -> None:
    """List every rule: id, severity, roles, explanation, source (or the constraint graph)."""
    specs = list(guarded(load_rules).values())
    if graph or format == RulesFormat.dot:
        g = build_graph(specs)
        emit(to_dot(g) if format == RulesFormat.dot else to_text(g))
    elif format == RulesFormat.markdown:
        emit(rules_doc.markdown_table(specs))
    else:
        emit(rules_doc.text(specs))
