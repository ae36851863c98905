"""The catalog: every loaded service, its resources and tools, checked at load.

Loading imports the registered service modules (all of them, or the ones
named), derives every tool's schemas and refuses the whole catalog, with a
message naming the culprit, if any declaration is invalid.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from compoworld.engine.crud import standard_tools
from compoworld.engine.errors import CatalogError
from compoworld.engine.records import Record
from compoworld.engine.registration import registered, resolve
from compoworld.engine.service import ResourceSpec, Service
from compoworld.engine.tools import Tool, tool_from_def
from compoworld.engine.version import __version__

__all__ = ["Catalog"]

_ENGINE = __name__.rpartition(".")[0] + "."


def _source_modules(module_name: str) -> set[str]:
    """A service module and the modules of its own distribution it uses (seeding contracts, the authoring kit …).

    The engine's own modules are left out: the package version in the fingerprint stands for them.
    """
    module = sys.modules.get(module_name)
    if module is None:
        return set()
    top = module_name.partition(".")[0]
    found = {module_name}
    for value in vars(module).values():
        name = value.__name__ if inspect.ismodule(value) else getattr(value, "__module__", None)
        if (
            isinstance(name, str)
            and name.partition(".")[0] == top
            and not name.startswith(_ENGINE)
            and name in sys.modules
            and getattr(sys.modules[name], "__file__", None)
        ):
            found.add(name)
    return found


class Catalog:
    """A checked set of services with their resources and tools.

    Use :meth:`load` rather than the constructor.

    Args:
        services: The services, already imported.
    """

    def __init__(self, services: Iterable[Service]) -> None:
        self.services: dict[str, Service] = {}
        self.resources: dict[str, ResourceSpec[Any]] = {}
        self.tables: dict[str, ResourceSpec[Any]] = {}
        self.tools: dict[str, Tool] = {}
        self._by_model: dict[type[Record], ResourceSpec[Any]] = {}
        for svc in sorted(services, key=lambda s: s.name):
            if svc.name in self.services:
                raise CatalogError(f"service {svc.name!r} appears twice")
            self.services[svc.name] = svc
            for spec in svc.resources:
                if spec.qualified in self.resources:
                    raise CatalogError(f"resource {spec.qualified!r} is declared twice")
                if spec.model in self._by_model:
                    raise CatalogError(
                        f"{spec.model.__name__} backs both {self._by_model[spec.model].qualified} and {spec.qualified}"
                    )
                self.resources[spec.qualified] = spec
                self.tables[spec.table] = spec
                self._by_model[spec.model] = spec
        id_resources = {q: spec.table for q, spec in self.resources.items()}
        for svc in self.services.values():
            built: list[Tool] = []
            for spec in svc.resources:
                built.extend(standard_tools(spec, id_resources))
            for tdef in svc.tool_defs:
                built.append(tool_from_def(svc.name, tdef, id_resources))
            for tool in built:
                if tool.name in self.tools:
                    raise CatalogError(f"tool {tool.name!r} is declared twice")
                self.tools[tool.name] = tool
        self._fingerprint: str | None = None

    @classmethod
    def load(cls, services: Sequence[str] | None = None, *, render_schemas: bool = False) -> Catalog:
        """Load registered services (all, or those named) and check them.

        Names, descriptions, docstrings, type hints, id references and result
        serialisers are checked here. Argument validators and the JSON Schemas
        shown to agents are derived on first use, so that a worker that serves
        a few tools does not pay for thousands; ``render_schemas=True`` derives
        every one now and fails on the first that cannot be, as ``compoworld
        check`` and the test suite do.

        Args:
            services: Service names; None loads every registered service.
            render_schemas: Also render every tool's JSON Schemas now.

        Returns:
            The catalog.

        Raises:
            CatalogError: for an unknown service or an invalid declaration.
        """
        names = list(registered()) if services is None else list(dict.fromkeys(services))
        catalog = cls(resolve(n) for n in names)
        if render_schemas:
            catalog.render_schemas()
        return catalog

    def render_schemas(self) -> None:
        """Derive every tool's argument validator and render its JSON Schemas.

        Raises:
            CatalogError: naming the first tool whose schema cannot be rendered.
        """
        for tool in self.tools.values():
            _ = tool.params_model, tool.parameters_schema, tool.result_schema

    def spec_of(self, model: type[Record]) -> ResourceSpec[Any]:
        """Return the resource a record model backs.

        Raises:
            CatalogError: if the model belongs to no loaded service.
        """
        try:
            return self._by_model[model]
        except KeyError:
            raise CatalogError(
                f"{model.__name__} is not a resource of a loaded service; load its service too"
            ) from None

    def tools_of(self, service: str) -> list[Tool]:
        """Return a service's tools in declaration order."""
        return [t for t in self.tools.values() if t.service == service]

    @property
    def fingerprint(self) -> str:
        """A hash of the engine version, every table and tool name, and the services' source.

        Hashing the source (not only the schemas) makes a change of a tool's
        behaviour change the fingerprint, and with it every world's version.
        The source of every module in a service's package (shared helpers such
        as seeding contracts) counts too.
        """
        if self._fingerprint is None:
            h = hashlib.sha256(f"compoworld {__version__}\n".encode())
            h.update(json.dumps([sorted(self.tables), sorted(self.tools)]).encode())
            modules = sorted({dep for svc in self.services.values() for dep in _source_modules(svc.module)})
            for name in modules:
                module = sys.modules[name]
                try:
                    source = inspect.getsource(module)
                except (OSError, TypeError):  # a package without source on disk
                    source = ""
                h.update(f"\n{name}\n".encode())
                h.update(source.encode())
            self._fingerprint = h.hexdigest()[:16]
        return self._fingerprint

    def stats(self) -> dict[str, Any]:
        """Summary counts of the catalog.

        Returns:
            ``services``, ``tools``, ``categories``, ``resources``, ``open_world_tools``,
            ``open_world_services``, ``read_tools``, ``write_tools``, ``tools_by_kind``
            and ``services_by_category``.
        """
        tools = list(self.tools.values())
        open_world = [t for t in tools if t.annotations.open_world]
        by_category: Counter[str] = Counter(s.category for s in self.services.values())
        return {
            "services": len(self.services),
            "tools": len(tools),
            "categories": len(by_category),
            "resources": len(self.resources),
            "open_world_tools": len(open_world),
            "open_world_services": len({t.service for t in open_world}),
            "read_tools": sum(1 for t in tools if t.annotations.read_only),
            "write_tools": sum(1 for t in tools if not t.annotations.read_only),
            "tools_by_kind": dict(sorted(Counter(t.kind for t in tools).items())),
            "services_by_category": dict(sorted(by_category.items())),
            "fingerprint": self.fingerprint,
        }
