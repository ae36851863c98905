"""Services from outside the package: load a module from a file and check it as the catalog's own are checked.

A team writing its own service (by hand or with ``compoworld service new``)
keeps it in its own repository; ``compoworld service check PATH`` imports that
file, loads it into the catalog beside the built-in services, runs the
conformance suite on every one of its tools and reports how it connects to the
rest of the dependency graph: which of its tools feed tools of other services
and which consume their outputs. A service that connects to nothing can be
called but never appears in a cross-service scenario.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from compoworld.devtools.conformance import CheckResult, check_world
from compoworld.engine.catalog import Catalog
from compoworld.engine.registration import load_service_file
from compoworld.engine.service import Service

__all__ = ["ServiceCheck", "check_service", "load_service_file"]


@dataclass
class ServiceCheck:
    """What checking one service found.

    Attributes:
        service: The service's name.
        tools: Its tools.
        results: Every conformance check's result.
        feeds: Tools of other services its outputs feed, with the semantic types that link them.
        consumes: Tools of other services whose outputs it takes.
    """

    service: str
    tools: list[str]
    results: list[CheckResult]
    feeds: dict[str, list[str]] = field(default_factory=dict)
    consumes: dict[str, list[str]] = field(default_factory=dict)

    @property
    def failures(self) -> list[CheckResult]:
        """The failed checks."""
        return [r for r in self.results if not r.ok]

    @property
    def connected(self) -> bool:
        """Whether it both feeds and consumes another service (what scenarios need)."""
        return bool(self.feeds) and bool(self.consumes)

    def summary(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {
            "service": self.service,
            "tools": len(self.tools),
            "tool_names": sorted(self.tools),
            "checks": len(self.results),
            "failed": len(self.failures),
            "failures": [{"tool": r.tool, "check": r.check, "detail": r.detail} for r in self.failures],
            "by_check": dict(Counter(r.check for r in self.results)),
            "feeds_services": sorted({t.partition("__")[0] for t in self.feeds}),
            "consumes_services": sorted({t.partition("__")[0] for t in self.consumes}),
            "links_out": sum(len(v) for v in self.feeds.values()),
            "links_in": sum(len(v) for v in self.consumes.values()),
            "connected": self.connected,
        }


def check_service(service: Service, *, seed: int = 0) -> ServiceCheck:
    """Run the conformance suite on a service and place it in the dependency graph of the whole catalog.

    Args:
        service: The service (from :func:`load_service_file` or imported).
        seed: The world's seed.

    Returns:
        The check's findings.

    Raises:
        CatalogError: if the service does not load beside the catalog (a name clash, a bad declaration).
    """
    from compoworld.tasks.graph import ToolGraph
    from compoworld.world.world import World

    own = Catalog.load([service.name], render_schemas=True)
    tools = [t.name for t in own.tools.values()]
    # Its own world is enough for the conformance suite (ids and values come from its records and the
    # population); the graph needs every service's tool schemas, which the index holds without imports.
    results = list(check_world(World.build(own, seed=seed), [service.name]))
    graph = ToolGraph.build(Catalog.load(None))
    mine = [t for t in graph.tools if graph.service_of[t] == service.name]
    feeds: dict[str, list[str]] = {}
    for name in mine:
        for out in graph.outputs[name]:
            for consumer in graph.consumers.get(out.semantic, ()):
                if graph.service_of[consumer] != service.name:
                    feeds.setdefault(consumer, []).append(out.semantic)
    wanted = {port.semantic for name in mine for port in graph.inputs[name]}
    consumes: dict[str, list[str]] = {}
    for name in graph.tools:
        if graph.service_of[name] != service.name:
            for out in graph.outputs[name]:
                if out.semantic in wanted:
                    consumes.setdefault(name, []).append(out.semantic)
    return ServiceCheck(service=service.name, tools=tools, results=results, feeds=feeds, consumes=consumes)
