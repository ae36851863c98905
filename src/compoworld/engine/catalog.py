"""The catalog: every loaded service, its resources and tools, checked at load.

Loading reads each service's entry in the catalog index
(:mod:`compoworld.engine.index`): its names, resources and tools with their
schemas, kept on disk and used only while every source file it was made from
is unchanged. What the index answers needs no import; a service's module is
imported the first time something needs its code (a tool's function, a record
model, a seeder), and its tools are then built from the declarations and filled
into the stand-ins the catalog already holds. A service without a current
entry is imported at load, checked, and written to the index for the next
process. A catalog built from :class:`Service` objects (``Catalog([...])``)
imports and builds everything at once.

Either way the whole catalog is refused, with a message naming the culprit, if
a declaration is invalid.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from compoworld.engine.crud import standard_tools
from compoworld.engine.errors import CatalogError
from compoworld.engine.heap import building
from compoworld.engine.index import ENGINE_PACKAGE, FileHashes, IndexStore, module_file, source_closure, source_text
from compoworld.engine.records import Record
from compoworld.engine.registration import registered, resolve, unknown_service
from compoworld.engine.service import ResourceSpec, Service, Transition
from compoworld.engine.tools import Tool, ToolAnnotations, tool_from_def
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


def _module_source(name: str, path: str | None) -> str:
    """A fingerprinted module's source: from the module when it is imported, else from its file."""
    module = sys.modules.get(name)
    if module is not None:
        try:
            return inspect.getsource(module)
        except (OSError, TypeError):  # a package without source on disk
            return ""
    return source_text(path) if path else ""


def _model_name(model: type[Record]) -> str:
    return f"{model.__module__}:{model.__qualname__}"


def _build_tools(svc: Service, id_resources: Mapping[str, str]) -> list[Tool]:
    """A service's tools from its declarations: standard tools per resource, then domain tools, in order."""
    built: list[Tool] = []
    for spec in svc.resources:
        built.extend(standard_tools(spec, id_resources))
    for tdef in svc.tool_defs:
        built.append(tool_from_def(svc.name, tdef, id_resources))
    return built


# -- index entries: what a stand-in is made from ----------------------------------------------------


def _resource_entry(spec: ResourceSpec[Any]) -> dict[str, Any]:
    return {
        "name": spec.name,
        "plural": spec.plural,
        "prefix": spec.prefix,
        "create": spec.create if isinstance(spec.create, bool) else list(spec.create),
        "get": spec.get,
        "filters": None if spec.filters is None else list(spec.filters),
        "search": list(spec.search),
        "update": list(spec.update),
        "delete": spec.delete,
        "transitions": {
            verb: [t.field, list(t.source), t.target, t.intent, t.description, t.destructive]
            for verb, t in spec.transitions.items()
        },
        "unique": list(spec.unique),
        "title": spec.title,
        "model": _model_name(spec.model),
    }


def _stub_resource(service: str, r: dict[str, Any], load: Callable[[], None]) -> ResourceSpec[Any]:
    # Built without __init__: the model and the guards stay unset until the service is imported.
    spec: ResourceSpec[Any] = ResourceSpec.__new__(ResourceSpec)
    spec.service = service
    spec.name = r["name"]
    spec.plural = r["plural"]
    spec.prefix = r["prefix"]
    spec.create = r["create"] if isinstance(r["create"], bool) else tuple(r["create"])
    spec.get = r["get"]
    spec.filters = None if r["filters"] is None else tuple(r["filters"])
    spec.search = tuple(r["search"])
    spec.update = tuple(r["update"])
    spec.delete = r["delete"]
    spec.transitions = {
        verb: Transition(field=f, source=tuple(src), target=tgt, intent=i, description=d, destructive=x)
        for verb, (f, src, tgt, i, d, x) in r["transitions"].items()
    }
    spec.unique = tuple(r["unique"])
    spec.title = r["title"]
    spec._load = load
    return spec


def _tool_entry(tool: Tool, results: dict[int, int], schemas: list[dict[str, Any]]) -> dict[str, Any]:
    result = tool.result_schema
    if id(result) not in results:  # tools of one result type share its schema, in the index too
        results[id(result)] = len(schemas)
        schemas.append(result)
    a = tool.annotations
    return {
        "name": tool.name,
        "short_name": tool.short_name,
        "description": tool.description,
        "intent": tool.intent,
        "annotations": [a.read_only, a.destructive, a.idempotent, a.open_world],
        "kind": tool.kind,
        "resource": tool.resource,
        "id_params": [[pname, res] for pname, res, _ in tool.id_params],
        "required": sorted(tool.required),
        "parameters": tool.parameters_schema,
        "result": results[id(result)],
    }


_ANNOTATIONS: dict[tuple[bool, ...], ToolAnnotations] = {}


def _stub_tools(
    service: str, entry: dict[str, Any], id_resources: Mapping[str, str], load: Callable[[], None], store: IndexStore
) -> list[Tool]:
    out: list[Tool] = []
    for t in entry["tools"]:
        id_params: list[tuple[str, str, str]] = []
        for pname, res in t["id_params"]:
            if res not in id_resources:  # the check build_tool makes, against this catalog's resources
                raise CatalogError(f"tool {t['name']}: parameter {pname!r} names unknown resource {res!r}")
            id_params.append((pname, res, id_resources[res]))
        flags = tuple(t["annotations"])
        annotations = _ANNOTATIONS.get(flags)
        if annotations is None:
            annotations = _ANNOTATIONS[flags] = ToolAnnotations(*flags)
        # Built without __init__: params, result_adapter, fn and example stay unset until the service is imported.
        tool: Tool = Tool.__new__(Tool)
        tool.name = t["name"]
        tool.service = service
        tool.short_name = t["short_name"]
        tool.description = t["description"]
        tool.intent = t["intent"]
        tool.annotations = annotations
        tool.kind = t["kind"]
        tool.resource = t["resource"]
        tool.id_params = tuple(id_params)
        tool.required = frozenset(t["required"])
        tool._params_model = None
        tool._parameters_schema = None
        tool._result_schema = None
        tool._load = load
        out.append(tool)
    fill = functools.partial(
        _fill_schemas, store, service, entry["schemas"], out, [t["result"] for t in entry["tools"]]
    )
    for tool in out:
        tool._schemas = fill
    return out


def _fill_schemas(store: IndexStore, service: str, digest: str, tools: list[Tool], results: list[int]) -> None:
    """Give a service's stand-ins their schemas from the index (asked for the first time); if lost, they render them."""
    found = store.read_schemas(service, digest)
    usable = found if found is not None and len(found[0]) == len(tools) else None
    for i, tool in enumerate(tools):
        tool._schemas = None
        if usable is not None:
            tool._parameters_schema = usable[0][i]
            tool._result_schema = usable[1][results[i]]


def _stub_service(entry: dict[str, Any], load: Callable[[], None]) -> Service:
    # Built without __init__: tool_defs and seeders stay unset until the service is imported.
    svc: Service = Service.__new__(Service)
    svc.name = entry["name"]
    svc.module = entry["module"]
    svc.title = entry["title"]
    svc.category = entry["category"]
    svc.modeled_on = entry["modeled_on"]
    svc.description = entry["description"]
    svc.resources = [_stub_resource(svc.name, r, load) for r in entry["resources"]]
    svc._load = load
    return svc


def _entry_current(entry: dict[str, Any], target: str, hashes: FileHashes) -> bool:
    """Whether an index entry still describes the registered service: same target, same module file, same sources."""
    try:
        module = target.partition(":")[0]
        return (
            entry["target"] == target
            and module_file(module) == entry["origin"]
            and isinstance(entry["files"], dict)
            and hashes.unchanged(entry["files"])
        )
    except (KeyError, TypeError):
        return False


class Catalog:
    """A checked set of services with their resources and tools.

    Use :meth:`load` rather than the constructor.

    Args:
        services: The services, already imported.
    """

    def __init__(self, services: Iterable[Service]) -> None:
        self._begin()
        self._assemble(list(services), {})

    def _begin(self) -> None:
        self.services: dict[str, Service] = {}
        self.resources: dict[str, ResourceSpec[Any]] = {}
        self.tables: dict[str, ResourceSpec[Any]] = {}
        self.tools: dict[str, Tool] = {}
        self._by_model: dict[type[Record], ResourceSpec[Any]] = {}
        # Specs by model name, so that a model of a service not imported yet still finds its spec.
        self._by_model_name: dict[str, ResourceSpec[Any]] = {}
        self._by_service: dict[str, list[Tool]] = {}
        self._entries: dict[str, dict[str, Any]] = {}
        self._lazy: set[str] = set()
        # Threads of one process share a catalog: two first uses of a service must import it once.
        self._lock = threading.RLock()
        self._fingerprint: str | None = None

    def _assemble(
        self, real: list[Service], entries: dict[str, dict[str, Any]], store: IndexStore | None = None
    ) -> None:
        """Add imported services and stand-ins made from index entries, and check them together."""
        stubs = [_stub_service(e, functools.partial(self._materialize, name)) for name, e in entries.items()]
        for svc in sorted([*real, *stubs], key=lambda s: s.name):
            if svc.name in self.services:
                raise CatalogError(f"service {svc.name!r} appears twice")
            self.services[svc.name] = svc
            entry = entries.get(svc.name)
            for i, spec in enumerate(svc.resources):
                if spec.qualified in self.resources:
                    raise CatalogError(f"resource {spec.qualified!r} is declared twice")
                model_name = entry["resources"][i]["model"] if entry else _model_name(spec.model)
                prior = self._by_model.get(spec.model) if entry is None else self._by_model_name.get(model_name)
                if prior is not None:
                    short = model_name.rpartition(":")[2].rpartition(".")[2]
                    raise CatalogError(f"{short} backs both {prior.qualified} and {spec.qualified}")
                self.resources[spec.qualified] = spec
                self.tables[spec.table] = spec
                self._by_model_name.setdefault(model_name, spec)
                if entry is None:
                    self._by_model[spec.model] = spec
        self._lazy = set(entries)
        self._entries.update(entries)
        id_resources = {q: spec.table for q, spec in self.resources.items()}
        for svc in self.services.values():
            entry = entries.get(svc.name)
            if entry is None:
                built = _build_tools(svc, id_resources)
            else:
                assert store is not None, "index entries come from a store"
                load = functools.partial(self._materialize, svc.name)
                built = _stub_tools(svc.name, entry, id_resources, load, store)
            for tool in built:
                if tool.name in self.tools:
                    raise CatalogError(f"tool {tool.name!r} is declared twice")
                self.tools[tool.name] = tool
            self._by_service[svc.name] = built

    @classmethod
    def load(cls, services: Sequence[str] | None = None, *, render_schemas: bool = False) -> Catalog:
        """Load registered services (all, or those named) and check them.

        A service with a current entry in the catalog index is not imported:
        the catalog holds stand-ins that import it on first use. Any other is
        imported now; names, descriptions, docstrings, type hints, id
        references and result serialisers are checked, every schema is
        rendered for its index entry, and the entry is written for the next
        process (nothing fails if the cache cannot be written). Argument
        validators are derived on first use, so that a worker that serves a
        few tools does not pay for thousands; ``render_schemas=True`` imports
        every service and derives every one now, failing on the first that
        cannot be, as ``compoworld check`` and the test suite do.

        Args:
            services: Service names; None loads every registered service.
            render_schemas: Also import every service and derive every tool's validator now.

        Returns:
            The catalog.

        Raises:
            CatalogError: for an unknown service or an invalid declaration.
        """
        targets = registered()
        names = list(targets) if services is None else list(dict.fromkeys(services))
        for name in names:
            if name not in targets:
                raise unknown_service(name)
        with building():
            catalog = cls._load(names, targets)
        if render_schemas:
            catalog.render_schemas()
        return catalog

    @classmethod
    def _load(cls, names: list[str], targets: Mapping[str, str]) -> Catalog:
        """:meth:`load`'s work once the names are checked: stand-ins from the index, the rest imported."""
        store = IndexStore()
        hashes = FileHashes()
        entries: dict[str, dict[str, Any]] = {}
        for name in names:
            entry = store.read(name)
            if entry is not None and _entry_current(entry, targets[name], hashes):
                entries[name] = entry
        for name in names:
            path = None if name in entries else module_file(targets[name].partition(":")[0])
            if path is not None:
                # Hashed before the import: a module edited while it loads leaves an entry that looks stale
                # (rebuilt next time), never one that looks current with the old schemas in it.
                hashes.of(path)
        real = [resolve(name) for name in names if name not in entries]
        catalog = cls.__new__(cls)
        catalog._begin()
        catalog._assemble(real, entries, store)
        for svc in real:
            entry = catalog._index_entry(svc, targets[svc.name], hashes)
            if entry is not None:
                catalog._entries[svc.name] = entry
                store.write(svc.name, entry)
        return catalog

    def _index_entry(self, svc: Service, target: str, hashes: FileHashes) -> dict[str, Any] | None:
        """The index entry of an imported service, or None when it cannot have one (a schema fails to render …)."""
        tools = self._by_service[svc.name]
        try:
            for tool in tools:
                _ = tool.params_model, tool.parameters_schema, tool.result_schema
        except CatalogError:
            return None  # the catalog still loads; the tool fails when called, as without an index
        module = target.partition(":")[0]
        deps = {name: getattr(sys.modules[name], "__file__", None) for name in sorted(_source_modules(svc.module))}
        tops = {ENGINE_PACKAGE, module.partition(".")[0], svc.module.partition(".")[0]}
        files: dict[str, str] = {}
        for path in sorted(source_closure([module, svc.module, *deps], tops, hashes.imports)):
            digest = hashes.of(path)
            if digest is None:
                return None
            files[path] = digest
        results: dict[int, int] = {}
        schemas: list[dict[str, Any]] = []
        entry: dict[str, Any] = {
            "name": svc.name,
            "target": target,
            "origin": module_file(module),
            "module": svc.module,
            "title": svc.title,
            "category": svc.category,
            "modeled_on": svc.modeled_on,
            "description": svc.description,
            "resources": [_resource_entry(spec) for spec in svc.resources],
            "tools": [_tool_entry(tool, results, schemas) for tool in tools],
            "results": schemas,
            "deps": deps,
            "files": files,
        }
        try:
            # A value JSON would change (a tuple, a non-string key) would make the stand-ins differ: no entry then.
            if json.loads(json.dumps(entry, allow_nan=False)) != entry:
                return None
        except (TypeError, ValueError):
            return None
        return entry

    def _materialize(self, name: str) -> None:
        """Import a service the catalog holds stand-ins for, and fill them in from its declarations.

        Raises:
            CatalogError: if the service cannot be imported, or no longer has the tables and tools its entry lists.
        """
        with self._lock:
            if name not in self._lazy:
                return
            svc = self.services[name]
            real = resolve(name)
            built = _build_tools(real, {q: spec.table for q, spec in self.resources.items()})
            tools = self._by_service[name]
            if [s.table for s in real.resources] != [s.table for s in svc.resources] or [t.name for t in built] != [
                t.name for t in tools
            ]:
                raise CatalogError(f"service {name!r} changed since the catalog was loaded; load the catalog again")
            for spec, declared in zip(svc.resources, real.resources, strict=True):
                prior = self._by_model.get(declared.model)
                if prior is not None and prior is not spec:
                    raise CatalogError(f"{declared.model.__name__} backs both {prior.qualified} and {spec.qualified}")
                spec.model = declared.model
                spec.guard_create = declared.guard_create
                spec.guard_update = declared.guard_update
                spec.guard_delete = declared.guard_delete
                self._by_model[declared.model] = spec
            for tool, made in zip(tools, built, strict=True):
                tool.params = made.params
                tool.result_adapter = made.result_adapter
                tool.example = made.example
                tool.fn = made.fn
            svc.tool_defs = real.tool_defs
            svc.seeders = real.seeders
            self._lazy.discard(name)

    @property
    def imported(self) -> frozenset[str]:
        """The services whose modules this catalog has imported (the others are known from the index alone)."""
        return frozenset(self.services) - self._lazy

    def render_schemas(self) -> None:
        """Derive every tool's argument validator and render its JSON Schemas (importing every service).

        Raises:
            CatalogError: naming the first tool whose schema cannot be rendered.
        """
        for tool in self.tools.values():
            _ = tool.params_model, tool.parameters_schema, tool.result_schema

    def spec_of(self, model: type[Record]) -> ResourceSpec[Any]:
        """Return the resource a record model backs (importing its service if need be).

        Raises:
            CatalogError: if the model belongs to no loaded service.
        """
        try:
            return self._by_model[model]
        except KeyError:
            pass
        spec = self._by_model_name.get(_model_name(model))
        if spec is not None and spec.service in self._lazy:
            self._materialize(spec.service)
            found = self._by_model.get(model)
            if found is not None:
                return found
        raise CatalogError(f"{model.__name__} is not a resource of a loaded service; load its service too")

    def tools_of(self, service: str) -> list[Tool]:
        """Return a service's tools in declaration order."""
        return list(self._by_service.get(service, ()))

    @property
    def fingerprint(self) -> str:
        """A hash of the engine version, every table and tool name, and the services' source.

        Hashing the source (not only the schemas) makes a change of a tool's
        behaviour change the fingerprint, and with it every world's version.
        The source of every module of its own distribution that a service
        module uses (shared helpers such as seeding contracts) counts too. The
        index lists those modules, so a catalog that has imported nothing reads
        them from their files and gets the same hash.
        """
        if self._fingerprint is None:
            h = hashlib.sha256(f"compoworld {__version__}\n".encode())
            h.update(json.dumps([sorted(self.tables), sorted(self.tools)]).encode())
            paths: dict[str, str | None] = {}
            for svc in self.services.values():
                entry = self._entries.get(svc.name)
                if entry is not None:
                    for name, path in entry["deps"].items():
                        paths.setdefault(name, path)
                else:
                    for name in _source_modules(svc.module):
                        paths.setdefault(name, getattr(sys.modules[name], "__file__", None))
            for name in sorted(paths):
                h.update(f"\n{name}\n".encode())
                h.update(_module_source(name, paths[name]).encode())
            self._fingerprint = h.hexdigest()[:16]
        return self._fingerprint

    @property
    def source_digest(self) -> str | None:
        """A hash of every source file the services were made from, by the index's record of them.

        What a world seeded from this catalog holds depends on these files
        alone (with the population), so a world's version can be kept under it
        (:class:`~compoworld.engine.state.WorldState`). None when some service
        has no index entry (one built from :class:`Service` objects, or one
        whose schemas could not be rendered): its sources are not known then.
        """
        files: dict[str, str] = {}
        for name in self.services:
            entry = self._entries.get(name)
            if entry is None:
                return None
            files.update(entry["files"])
        return hashlib.sha256(json.dumps(sorted(files.items())).encode()).hexdigest()

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
