"""The constraint graph: build roles as nodes, each rule a hyperedge node tying its roles.

Bipartite: role nodes (``kind="role"``) and rule nodes (``kind="rule"``, with severity and
profile). `validate` evaluates the rule nodes over a build; the solver of `suggest` reads
the same graph to filter each role by its unary rules and to order the search.
"""

from __future__ import annotations

from typing import TypeAlias

import networkx as nx

from partpicker.build import ROLES
from partpicker.rules.rulebook import RuleSpec

Graph: TypeAlias = "nx.Graph[str]"  # nodes: role names and "rule:<id>" strings


def rule_node(rule_id: str) -> str:
    return f"rule:{rule_id}"


def build_graph(rules: list[RuleSpec]) -> Graph:
    """The constraint graph of these rules: made once per rule set per process (memoised on what
    it is made of: each rule's id, severity, profile, title and roles), frozen so that no
    caller can change it under another."""
    key = tuple((s.id, s.severity, s.profile, s.title, tuple(s.roles)) for s in rules)
    graph = _GRAPHS.get(key)
    if graph is None:
        graph = _GRAPHS[key] = nx.freeze(_make_graph(rules))
    return graph


_GRAPHS: dict[tuple[tuple[str, str, str, str, tuple[str, ...]], ...], Graph] = {}


def _make_graph(rules: list[RuleSpec]) -> Graph:
    graph: Graph = nx.Graph()
    for role in ROLES:
        graph.add_node(role, kind="role")
    for spec in rules:
        node = rule_node(spec.id)
        graph.add_node(node, kind="rule", severity=spec.severity, profile=spec.profile, title=spec.title)
        for role in spec.roles:
            graph.add_edge(node, role)
    return graph


def unary_rules(graph: Graph, role: str) -> list[str]:
    """Rules that read this role alone (a filter on its parts)."""
    return [
        str(n)[len("rule:") :]
        for n in graph.neighbors(role)
        if graph.nodes[n]["kind"] == "rule" and graph.degree(n) == 1
    ]


def to_text(graph: Graph) -> str:
    lines = []
    for node, d in graph.nodes(data=True):
        if d["kind"] == "rule":
            roles = ", ".join(sorted(graph.neighbors(node)))
            lines.append(f"{str(node)[5:]:<22} {d['severity']:<8} {d['profile']:<15} {roles}")
    return "\n".join(["rule                   severity profile         roles", *lines])


def to_dot(graph: Graph) -> str:
    lines = ["graph partpicker {", "  node [fontname=Helvetica];"]
    for node, d in graph.nodes(data=True):
        if d["kind"] == "role":
            lines.append(f'  "{node}" [shape=box, style=filled, fillcolor="#dde8ff"];')
        else:
            color = {"error": "#ffd6d6", "warning": "#fff2c6"}.get(d["severity"], "#eeeeee")
            lines.append(f'  "{node}" [label="{str(node)[5:]}", shape=ellipse, style=filled, fillcolor="{color}"];')
    for a, b in graph.edges():
        lines.append(f'  "{a}" -- "{b}";')
    lines.append("}")
    return "\n".join(lines)
