"""The tool dependency graph: which tool's output can feed which tool's input.

An edge A → B exists for each (output field of A, parameter of B) whose
semantic types match; the edge records every such pair. Values an agent could
simply be told (semantic types marked generic: a country, a plain number, free
text) and fields with no semantic type make no edges. Nested fields count, by
path: ``items[].email`` of a list tool feeds ``to[]`` of a mail tool.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from compoworld.engine.tools import resolve_ref
from compoworld.engine.types import SEMANTIC_KEY

if TYPE_CHECKING:
    from compoworld.engine.catalog import Catalog
    from compoworld.engine.tools import Tool

__all__ = ["Port", "ToolGraph", "field_label", "input_ports", "label", "normalise_path", "output_ports", "render_value"]

MAX_DEPTH = 6

_INDEX = re.compile(r"\[\d+\]")


@functools.lru_cache(maxsize=65536)  # walks ask of the same few result paths all the time
def normalise_path(path: str) -> str:
    """A value's path with list indices dropped, as ports name it: ``items[0].email`` -> ``items[].email``.

    Args:
        path: A path into a result or arguments, possibly with indices (as a solution's provenance writes them).

    Returns:
        The path in the form :func:`input_ports` and :func:`output_ports` give.
    """
    return _INDEX.sub("[]", path)


def label(name: str) -> str:
    """An argument or field name in words: ``contact_id`` -> ``contact``."""
    return name.replace("_", " ").replace(" id", "").strip()


# Bookkeeping fields read badly word for word ("the created at on record"): what people call them.
_FIELD_WORDS = {
    "created_at": "creation date",
    "updated_at": "last update",
    "created_by": "creator",
    "updated_by": "last editor",
    "closed_at": "closing date",
    "resolved_at": "resolution date",
    "sent_at": "sending date",
}


def field_label(path: str) -> str:
    """The last field of a result path in words: ``items[0].email_address`` -> ``email address``.

    Bookkeeping fields take the words people use: ``created_at`` -> ``creation date``, ``created_by`` ->
    ``creator``.
    """
    last = re.sub(r"\[\d*\]", "", path).split(".")[-1]
    return _FIELD_WORDS.get(last) or label(last)


def render_value(value: Any) -> str:
    """A value as an instruction or a criterion states it: strings quoted, addresses on one line, else JSON."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        if {"street", "city", "postal_code", "country"} <= set(value):
            return f"{value['street']}, {value['postal_code']} {value['city']}, {value['country']}"
        return json.dumps(value, sort_keys=True)
    return json.dumps(value)


@dataclass(frozen=True, slots=True)
class Port:
    """A typed value a tool produces or consumes.

    Attributes:
        path: Where it is: ``email``, ``items[].id``, ``lines[].item_id``.
        semantic: Its semantic type.
        required: For inputs, whether the tool requires it.
    """

    path: str
    semantic: str
    required: bool = True


def _walk(
    schema: dict[str, Any],
    root: dict[str, Any],
    path: str,
    required: bool,
    out: list[Port],
    depth: int,
    generic: bool = False,
) -> None:
    if depth > MAX_DEPTH:
        return
    s = resolve_ref(schema, root)
    options = s.get("anyOf") or s.get("oneOf")
    if options:
        sem_outer = s.get(SEMANTIC_KEY)
        for opt in options:
            if opt.get("type") == "null":
                continue
            opt = dict(opt)
            if sem_outer and SEMANTIC_KEY not in resolve_ref(opt, root):
                opt[SEMANTIC_KEY] = sem_outer
            _walk(opt, root, path, False, out, depth + 1, generic)
        return
    sem = s.get(SEMANTIC_KEY)
    if isinstance(sem, str):
        # A typed value, possibly a whole object (a postal address): one port, no descent.
        if (generic or not s.get("x-semantic-generic")) and path:
            out.append(Port(path, sem, required))
        return
    kind = s.get("type")
    if kind == "object":
        req = set(s.get("required", []))
        for name, prop in s.get("properties", {}).items():
            _walk(prop, root, f"{path}.{name}" if path else name, required and name in req, out, depth + 1, generic)
    elif kind == "array":
        _walk(s.get("items", {}), root, f"{path}[]", required, out, depth + 1, generic)


def output_ports(tool: Tool, *, generic: bool = False) -> list[Port]:
    """The typed values a tool's result carries.

    Args:
        tool: The tool.
        generic: Also the values of generic types (a city, a currency, a text), which make no edges
            but say what a record is about: a lookup can be asked about the city a contact lives in.
    """
    out: list[Port] = []
    _walk(tool.result_schema, tool.result_schema, "", True, out, 0, generic)
    return out


def input_ports(tool: Tool, *, generic: bool = False) -> list[Port]:
    """The typed parameters a tool takes (nested ones by path).

    Args:
        tool: The tool.
        generic: Also the parameters of generic types (see :func:`output_ports`).
    """
    out: list[Port] = []
    _walk(tool.parameters_schema, tool.parameters_schema, "", True, out, 0, generic)
    return out


@dataclass(frozen=True, slots=True)
class Link:
    """One (output field, parameter) pair on an edge."""

    field: str
    param: str
    semantic: str


@dataclass(slots=True)
class ToolGraph:
    """The dependency graph over every tool of a catalog.

    Attributes:
        tools: Tool names in order.
        service_of: Each tool's service.
        edges: ``(producer, consumer) -> links``; materialised on first use (walks need
            only ``consumers`` and the ports, and with thousands of tools sharing common
            types there are millions of pairs).
        outputs: Each tool's output ports.
        inputs: Each tool's input ports.
        consumers: Tools taking each semantic type, sorted.
        build_s: Seconds the build took.
        cache: Data derived from the graph by its users (walk start tools …), computed once.
    """

    tools: list[str]
    service_of: dict[str, str]
    _edges: dict[tuple[str, str], list[Link]] | None = None
    outputs: dict[str, list[Port]] = field(default_factory=dict)
    inputs: dict[str, list[Port]] = field(default_factory=dict)
    consumers: dict[str, list[str]] = field(default_factory=dict)
    build_s: float = 0.0
    cache: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def build(cls, catalog: Catalog) -> ToolGraph:
        """Build the graph over every tool of ``catalog``.

        Args:
            catalog: The catalog.

        Returns:
            The graph.
        """
        start = time.perf_counter()
        tools = sorted(catalog.tools)
        graph = cls(tools, {n: catalog.tools[n].service for n in tools})
        consumers: dict[str, list[tuple[str, Port]]] = defaultdict(list)
        for name in tools:
            tool = catalog.tools[name]
            graph.outputs[name] = output_ports(tool)
            graph.inputs[name] = input_ports(tool)
            for port in graph.inputs[name]:
                consumers[port.semantic].append((name, port))
        graph.consumers = {sem: sorted({name for name, _ in users}) for sem, users in consumers.items()}
        graph.build_s = time.perf_counter() - start
        return graph

    @property
    def edges(self) -> dict[tuple[str, str], list[Link]]:
        """Every edge with its field links, computed on first use."""
        if self._edges is None:
            by_type: dict[str, list[tuple[str, Port]]] = defaultdict(list)
            for name in self.tools:
                for port in self.inputs[name]:
                    by_type[port.semantic].append((name, port))
            edges: dict[tuple[str, str], list[Link]] = {}
            for producer in self.tools:
                for out in self.outputs[producer]:
                    for consumer, port in by_type.get(out.semantic, ()):
                        if consumer != producer:
                            edges.setdefault((producer, consumer), []).append(Link(out.path, port.path, out.semantic))
            self._edges = edges
        return self._edges

    def _largest_component(self) -> int:
        parent = {t: t for t in self.tools}

        def find(x: str) -> str:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for a, b in self.edges:
            ra, rb = find(a), find(b)
            if ra != rb:
                parent[ra] = rb
        sizes: dict[str, int] = defaultdict(int)
        for t in self.tools:
            sizes[find(t)] += 1
        return max(sizes.values(), default=0)

    def stats(self) -> dict[str, Any]:
        """Summary counts of the graph.

        Returns:
            ``tools``, ``edges`` (tool pairs), ``field_edges`` (field/parameter pairs),
            ``cross_service_edges``, ``services``, ``services_with_cross_in_and_out``,
            ``services_with_cross_in_and_out_share``, ``largest_component`` (tools in
            the largest weakly connected component), ``isolated_tools`` and ``build_s``.
        """
        cross_out: set[str] = set()
        cross_in: set[str] = set()
        cross = 0
        touched: set[str] = set()
        for a, b in self.edges:
            touched.update((a, b))
            sa, sb = self.service_of[a], self.service_of[b]
            if sa != sb:
                cross += 1
                cross_out.add(sa)
                cross_in.add(sb)
        services = set(self.service_of.values())
        both = cross_in & cross_out
        largest = self._largest_component()
        return {
            "tools": len(self.tools),
            "edges": len(self.edges),
            "field_edges": sum(len(v) for v in self.edges.values()),
            "cross_service_edges": cross,
            "services": len(services),
            "services_with_cross_in_and_out": len(both),
            "services_with_cross_in_and_out_share": round(len(both) / len(services), 4) if services else 0.0,
            "largest_component": largest,
            "largest_component_share": round(largest / len(self.tools), 4) if self.tools else 0.0,
            "isolated_tools": len(self.tools) - len(touched),
            "build_s": round(self.build_s, 4),
        }

    def export(self, path: str | Path, fmt: Literal["json", "graphml"] = "json") -> Path:
        """Write the graph for other tools: node-link JSON or GraphML.

        Args:
            path: Target file.
            fmt: ``json`` (nodes, edges with their links) or ``graphml``.

        Returns:
            The path written.
        """
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if fmt == "json":
            doc = {
                "nodes": [{"id": t, "service": self.service_of[t]} for t in self.tools],
                "edges": [
                    {
                        "source": a,
                        "target": b,
                        "links": [{"field": ln.field, "param": ln.param, "semantic": ln.semantic} for ln in links],
                    }
                    for (a, b), links in sorted(self.edges.items())
                ],
            }
            target.write_text(json.dumps(doc, indent=1, sort_keys=True))
            return target
        import networkx as nx

        g: nx.DiGraph[str] = nx.DiGraph()
        for t in self.tools:
            g.add_node(t, service=self.service_of[t])
        for (a, b), links in sorted(self.edges.items()):
            g.add_edge(
                a,
                b,
                links=";".join(f"{ln.field}->{ln.param}" for ln in links),
                semantics=";".join(sorted({ln.semantic for ln in links})),
                weight=len(links),
            )
        nx.write_graphml(g, target)
        return target
