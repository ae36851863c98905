"""The package's layers, checked from the source: which part may import which, and no cycles.

The parts, lowest first::

    engine < world < tasks < agents < serve | adapters | devtools < train | explore < cli

A module may import its own part and the parts below it; the three parts on one
rank are peers and never import each other. Training sits above the adapters
because its runners drive the trainers through them (the TRL reward functions
and rollout function). ``compoworld.services`` stands
beside the world: a service imports the engine, the world, the authoring kit
(``compoworld.services.kit``) and the modules of its own domain folder, and no
module of the package imports a service by name (the registry imports them by
string, on first use). The package's own ``__init__`` is the public facade over
the engine and the world.

Every import counts, wherever it is written: at module level, under
``TYPE_CHECKING`` or inside a function. Besides the order, no two modules may
import each other through any chain (an import cycle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

__all__ = ["LAYERS", "Import", "check_layers", "find_imports", "part_of"]

LAYERS: dict[str, int] = {
    "engine": 0,
    "world": 1,
    "services": 1,
    "tasks": 2,
    "agents": 3,
    "serve": 4,
    "adapters": 4,
    "devtools": 4,
    "train": 5,
    "explore": 5,
    "cli": 6,
}
"""Each part's rank: a part may import the parts of lower rank (and itself)."""

_FACADE = ""  # the package's own __init__
_FACADE_MAY_IMPORT = frozenset({"engine", "world"})
_SERVICE_KIT = "services.kit"


@dataclass(frozen=True, slots=True)
class Import:
    """One import of one package module by another.

    Attributes:
        importer: The importing module (dotted name).
        imported: The imported module (dotted name; ``from pkg import mod`` names the submodule).
        line: Where the import is written.
        path: The importing file.
    """

    importer: str
    imported: str
    line: int
    path: Path


def _module_name(path: Path, root: Path, package: str) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = [package, *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_imports(root: Path, package: str = "compoworld") -> tuple[set[str], list[Import]]:
    """Every module of a package and every import among them.

    Args:
        root: The package's folder (the one holding its ``__init__.py``).
        package: The package's import name.

    Returns:
        The package's modules, and its imports of its own modules.
    """
    files = sorted(root.rglob("*.py"))
    modules = {_module_name(p, root, package) for p in files}
    imports: list[Import] = []
    for path in files:
        name = _module_name(path, root, package)
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            for target in _targets(node, name, is_pkg, modules):
                if target == package or target.startswith(package + "."):
                    imports.append(Import(name, target, getattr(node, "lineno", 0), path))
    return modules, imports


def _targets(node: ast.AST, module: str, is_pkg: bool, modules: set[str]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            anchor = module.split(".")
            anchor = anchor[: len(anchor) - node.level + (1 if is_pkg else 0)]
            base = ".".join([*anchor, base] if base else anchor)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            yield sub if sub in modules else base


def part_of(module: str, package: str = "compoworld") -> str:
    """The part a module belongs to: ``engine``, ``world``, …, ``services.kit``, or ``""`` for the facade."""
    rest = module[len(package) + 1 :].split(".") if module != package else []
    if not rest or rest[0] not in LAYERS:
        return "cli" if rest == ["__main__"] else _FACADE
    if rest[0] == "services" and len(rest) > 1 and rest[1] == "kit":
        return _SERVICE_KIT
    return rest[0]


def _service_domain(module: str, package: str) -> str | None:
    rest = module[len(package) + 1 :].split(".")
    return rest[1] if len(rest) > 2 and rest[0] == "services" else None


def _order_problem(imp: Import, package: str) -> str | None:
    src, dst = part_of(imp.importer, package), part_of(imp.imported, package)
    if src == _FACADE:
        return None if dst in _FACADE_MAY_IMPORT else "the package facade imports only the engine and the world"
    if dst == _FACADE:
        return f"{src} imports the package facade; import the module that defines the name"
    if dst == _SERVICE_KIT:
        return None if src in ("services", _SERVICE_KIT) else "only services use the service-authoring kit"
    if src == _SERVICE_KIT:
        return None if dst in ("engine", "world") else "the service-authoring kit imports only the engine and the world"
    if dst == "services":
        if src != "services":
            return "no module imports a service by name; the registry imports services on first use"
        theirs, mine = _service_domain(imp.imported, package), _service_domain(imp.importer, package)
        if theirs is None or theirs == mine:
            return None
        return (
            f"a {mine} service imports a {theirs} service; shared tables and rules belong in the world "
            "(compoworld.world) or the authoring kit (compoworld.services.kit)"
        )
    if src == "services":
        return None if dst in ("engine", "world") else "services import only the engine, the world and the kit"
    if src == dst:
        return None
    if LAYERS[dst] < LAYERS[src]:
        return None
    if LAYERS[dst] == LAYERS[src]:
        return f"{src} and {dst} are peers and never import each other"
    return f"{src} (rank {LAYERS[src]}) imports {dst} (rank {LAYERS[dst]}), which sits above it"


def _cycles(imports: Iterable[Import]) -> list[list[str]]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for imp in imports:
        if imp.importer != imp.imported:
            graph.add_edge(imp.importer, imp.imported)
    out = []
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            cycle = nx.find_cycle(graph.subgraph(component))
            out.append([edge[0] for edge in cycle] + [cycle[0][0]])
    return sorted(out)


def check_layers(root: Path, package: str = "compoworld") -> list[str]:
    """Check a package's imports against its layers and for cycles.

    Args:
        root: The package's folder.
        package: Its import name.

    Returns:
        One line per problem (``file:line: importer imports imported: why``), empty when all hold.
    """
    _, imports = find_imports(root, package)
    problems: list[str] = []
    for imp in imports:
        why = _order_problem(imp, package)
        line = f"{imp.path}:{imp.line}: {imp.importer} imports {imp.imported}: {why}"
        if why is not None and line not in problems:  # one line per import, however many names it takes
            problems.append(line)
    # The facade is imported implicitly by every submodule, so edges into it are not cycles of the code's making.
    real = [imp for imp in imports if imp.imported != package]
    problems.extend(f"import cycle: {' -> '.join(cycle)}" for cycle in _cycles(real))
    return problems
