"""Bring your own API: a stateful service module scaffolded from an OpenAPI 3 document.

``scaffold`` reads a document (:mod:`.document`), decides resources, tools,
state machines and semantic types (:mod:`.plan`, :mod:`.semantics`), and writes
the module (:mod:`.render`) with a report of what was inferred and what was left
as TODO. :mod:`.load` imports a module from a file and runs the conformance
suite and graph checks on it; :mod:`.refine` improves a scaffold with any
OpenAI-compatible model, keeping only attempts that pass those checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compoworld.devtools.openapi.document import Document, SpecError, load_document
from compoworld.devtools.openapi.plan import ServicePlan, plan_service
from compoworld.devtools.openapi.render import render_module

__all__ = ["Scaffold", "SpecError", "scaffold"]


@dataclass(frozen=True, slots=True)
class Scaffold:
    """A scaffolded service.

    Attributes:
        document: The document it came from.
        plan: Every decision made.
        source: The module's text.
    """

    document: Document
    plan: ServicePlan
    source: str

    def report(self) -> dict[str, Any]:
        """What was generated, inferred and left open, as JSON-ready data."""
        plan = self.plan
        fields = [
            {
                "field": f"{owner}.{f.source}",
                "kind": f.kind,
                "semantic": f.semantic,
                "reason": f.reason,
            }
            for owner, flist in [
                *((r.class_name, r.fields) for r in plan.resources),
                *((v.class_name, v.fields) for v in plan.values),
            ]
            for f in flist
        ]
        tools = sorted({op["tool"] for op in plan.operations if op["tool"]})
        return {
            "service": plan.name,
            "document": self.document.source,
            "openapi": self.document.openapi,
            "operations": len(plan.operations),
            "operations_as_tools": sum(1 for op in plan.operations if op["kind"] != "todo"),
            "operations_todo": sum(1 for op in plan.operations if op["kind"] == "todo"),
            "tools_from_operations": tools,
            "resources": [r.name for r in plan.resources],
            "by_operation": plan.operations,
            "fields": fields,
            "semantic_inferred": sum(1 for f in fields if f["semantic"] or f["kind"] == "id"),
            "semantic_generic": sum(1 for f in fields if f["kind"] == "scalar" and not f["semantic"]),
            "todos": [{"where": t.where, "what": t.what} for t in plan.todos],
        }


def scaffold(path: Path, name: str, *, category: str = "custom") -> Scaffold:
    """Scaffold a service module from an OpenAPI 3 document.

    Args:
        path: The document (``.yaml``, ``.yml`` or ``.json``), self-contained.
        name: The service's name: lower case letters, digits and ``_``.
        category: The catalog category it joins.

    Returns:
        The scaffold: the module's source, the plan and the report.

    Raises:
        SpecError: if the document cannot be read, or the name is not a valid service name.
    """
    if not name.isidentifier() or not name.islower() or "__" in name or not name[0].isalpha():
        raise SpecError(f"service name {name!r}: use lower case letters, digits and single underscores")
    document = load_document(path)
    plan = plan_service(document, name, category)
    return Scaffold(document=document, plan=plan, source=render_module(plan))
