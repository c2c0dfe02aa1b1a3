"""The constraint graph: role nodes, one node per rule joined to the roles it ties."""

from __future__ import annotations

from partpicker.rules.graph import build_graph, rule_node, unary_rules


def test_graph_ties_each_rule_to_its_roles(rules) -> None:
    graph = build_graph(list(rules.values()))
    for spec in rules.values():
        assert set(graph.neighbors(rule_node(spec.id))) == set(spec.roles)
        assert graph.nodes[rule_node(spec.id)]["severity"] == spec.severity
    roles = {n for n, d in graph.nodes(data=True) if d["kind"] == "role"}
    assert roles == {"cpu", "motherboard", "gpu", "ram", "ssd", "psu", "case", "cooler"}


def test_unary_rules_are_the_filters_of_a_role(rules) -> None:
    graph = build_graph(list(rules.values()))
    # cpu-pcie-lanes counts the build's NVMe drives, so it ties the CPU to the SSD.
    assert sorted(unary_rules(graph, "cpu")) == ["cpu-cores", "gpu-root-complex"]
    assert unary_rules(graph, "case") == []
