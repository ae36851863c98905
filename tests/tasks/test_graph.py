"""The tool dependency graph."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from compoworld import Catalog
from compoworld.tasks.graph import ToolGraph, input_ports, output_ports


@pytest.fixture(scope="module")
def graph(catalog: Catalog) -> ToolGraph:
    return ToolGraph.build(catalog)


def test_an_edge_links_a_produced_email_to_a_consumed_email_across_services(graph: ToolGraph) -> None:
    links = graph.edges[("crm__get_contact", "mail__send_message")]
    assert any(ln.field == "email" and ln.param == "to[]" and ln.semantic == "email" for ln in links)


def test_ids_feed_the_tools_of_their_resource(graph: ToolGraph) -> None:
    links = graph.edges[("crm__list_contacts", "crm__update_contact")]
    assert any(ln.field == "items[].id" and ln.param == "contact_id" for ln in links)


def test_generic_values_and_untyped_fields_make_no_edges(graph: ToolGraph, catalog: Catalog) -> None:
    semantics = {ln.semantic for links in graph.edges.values() for ln in links}
    assert not semantics & {"country", "currency", "quantity", "percent", "text.body", "language", "city"}
    for name in catalog.tools:
        assert all(p.semantic for p in input_ports(catalog.tools[name]))
    assert all(a != b for a, b in graph.edges)


def test_nested_parameters_are_ports_by_path(catalog: Catalog) -> None:
    ports = {p.path: p for p in input_ports(catalog.tools["invoicing__create_invoice"])}
    assert ports["lines[].item_id"].semantic == "invoicing.item.id"
    assert ports["customer_id"].required and not ports["bill_email"].required
    out = {p.path for p in output_ports(catalog.tools["crm__list_contacts"])}
    assert {"items[].id", "items[].email"} <= out


def test_stats_report_connectivity(graph: ToolGraph, catalog: Catalog) -> None:
    stats = graph.stats()
    assert stats["tools"] == len(catalog.tools)
    assert stats["edges"] > 0 and stats["cross_service_edges"] > 0
    # Some services only take values an agent is told (translation takes free text): 90 % is the bar.
    assert stats["services_with_cross_in_and_out_share"] >= 0.9
    assert stats["largest_component"] >= 0.95 * stats["tools"]


def test_export_json_and_graphml_hold_every_tool_and_edge(tmp_path: Path) -> None:
    graph = ToolGraph.build(Catalog.load(["crm", "mail", "invoicing"]))
    doc = json.loads(graph.export(tmp_path / "g.json").read_text())
    assert len(doc["nodes"]) == len(graph.tools) and len(doc["edges"]) == len(graph.edges)
    g = nx.read_graphml(graph.export(tmp_path / "g.graphml", "graphml"))
    assert g.number_of_nodes() == len(graph.tools) and g.number_of_edges() == len(graph.edges)
    assert g.nodes["crm__get_contact"]["service"] == "crm"
