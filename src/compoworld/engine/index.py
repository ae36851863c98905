"""The catalog index on disk: what the catalog knows of a service without importing it.

Importing a service module and deriving its tools' schemas is most of what
loading a catalog costs. The catalog keeps, per service, one JSON entry under
the user's cache directory: the service's names and descriptions, its
resources, its tools, the modules its fingerprint hashes, and the source files
it was made from with their hashes. The tools' JSON Schemas, most of an entry's
size, sit beside it in a second file named by their hash, read the first time
a schema is asked for: a process that serves a few services does not decode
the schemas of hundreds. An entry is used only
while every one of those files still hashes the same, so a changed source (the
service's own or any module it imports, the engine's included) rebuilds it.

This module only finds, hashes, reads and writes; :mod:`compoworld.engine.catalog`
decides what an entry holds. Nothing here raises for a cache that is missing,
unreadable, corrupt or unwritable: the caller builds what it needs and goes on.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import re
import sys
import tempfile
import tokenize
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pydantic
import pydantic_core

from compoworld.engine.version import __version__

__all__ = [
    "ENGINE_PACKAGE",
    "FileHashes",
    "IndexStore",
    "cache_dir",
    "module_file",
    "source_closure",
    "source_text",
]

INDEX_FORMAT = 2
"""Bumped whenever the layout of an entry changes, so that old entries are never read."""

ENGINE_PACKAGE = __name__.partition(".")[0]
"""The top-level package of the engine (``compoworld``)."""

_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


def cache_dir() -> Path:
    """Where CompoWorld keeps what it can rebuild: ``$COMPOWORLD_CACHE``, else ``$XDG_CACHE_HOME/compoworld``, else ``~/.cache/compoworld``."""
    explicit = os.environ.get("COMPOWORLD_CACHE")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "compoworld"


def _environment() -> str:
    """A key of everything besides source files that an entry depends on.

    The interpreter and pydantic derive the schemas; the package's location and
    the environment's prefix keep two checkouts or two virtual environments
    (which may import the same module names from different files) apart.
    """
    parts = [
        str(INDEX_FORMAT),
        __version__,
        sys.version,
        pydantic.VERSION,
        pydantic_core.__version__,
        sys.prefix,
        _PACKAGE_DIR,
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]


def _atomic_write(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file and a rename, so readers never see half of it."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True


class FileHashes:
    """Hashes of source files, each read once per instance (one catalog load), and the imports found in them."""

    def __init__(self) -> None:
        self._hashes: dict[str, str | None] = {}
        self.imports: dict[str, set[str]] = {}
        """Module names each scanned file imports, by path (:func:`source_closure` fills it)."""

    def of(self, path: str) -> str | None:
        """The SHA-256 of a file's bytes, or None when it cannot be read."""
        if path not in self._hashes:
            try:
                self._hashes[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
            except OSError:
                self._hashes[path] = None
        return self._hashes[path]

    def unchanged(self, files: dict[str, str]) -> bool:
        """Whether every file still has the hash recorded for it."""
        return all(self.of(path) == digest for path, digest in files.items())


def source_text(path: str) -> str:
    """A module's source as :func:`inspect.getsource` reads it (its declared encoding, universal newlines).

    Returns:
        The text, or ``""`` when the file cannot be read.
    """
    try:
        with tokenize.open(path) as fh:
            return fh.read()
    except (OSError, SyntaxError, UnicodeDecodeError):
        return ""


def module_file(name: str) -> str | None:
    """The source file a module is (or would be) imported from, or None.

    An imported module answers from ``__file__``; another is looked for in its
    parent package's folders, as the import system would, without importing
    anything. A name that is no module (an attribute named in ``from m import
    name``) gives None.
    """
    module = sys.modules.get(name)
    if module is not None:
        found = getattr(module, "__file__", None)
        return found if isinstance(found, str) and found.endswith(".py") else None
    parent, _, last = name.rpartition(".")
    if not parent:
        try:
            spec = importlib.util.find_spec(name)  # a top-level name: nothing is imported to find it
        except (ImportError, ValueError):
            return None
        origin = spec.origin if spec is not None else None
        return origin if isinstance(origin, str) and origin.endswith(".py") else None
    for folder in _package_folders(parent):
        # A package shadows a module of the same name, as in the import system.
        for candidate in (os.path.join(folder, last, "__init__.py"), os.path.join(folder, f"{last}.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


def _package_folders(name: str) -> list[str]:
    """The folders a package's submodules are found in; none for a plain module or an unknown name."""
    module = sys.modules.get(name)
    if module is not None:
        return list(getattr(module, "__path__", None) or ())
    path = module_file(name)
    if path is None or os.path.basename(path) != "__init__.py":
        return []
    return [os.path.dirname(path)]


# Import statements anywhere in a file (functions included), with parenthesised name lists. Each match is
# parsed on its own, so text that only looks like an import (in a docstring) fails to parse and is skipped.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]*(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)", re.MULTILINE
)


def _imports(module: str, path: str, source: str) -> set[str]:
    """The module names an import statement of ``module`` names, candidate submodules of ``from`` imports included."""
    is_package = os.path.basename(path) == "__init__.py"
    found: set[str] = set()
    for match in _IMPORT.finditer(source):
        try:
            tree = ast.parse(match.group().strip())
        except SyntaxError:
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = module if is_package else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        package = package.rpartition(".")[0]
                    base = f"{package}.{base}" if base else package
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
    return found


def source_closure(
    modules: Iterable[str], tops: Iterable[str], scanned: dict[str, set[str]] | None = None
) -> dict[str, str]:
    """Every source file the given modules import, directly or not, within some top-level packages.

    Found by reading import statements, not by importing: a module counts
    whether or not it has been imported yet in this process. Modules outside
    ``tops`` (the standard library, pydantic …) are left out; the index's
    environment key covers the versions that matter.

    Args:
        modules: Dotted module names to start from.
        tops: Top-level package names whose modules count.
        scanned: Imports already found per file path, shared by the calls of one load (the engine's
            files are scanned once, not once per service).

    Returns:
        Module name by source file path.
    """
    local = set(tops)
    memo = {} if scanned is None else scanned
    out: dict[str, str] = {}
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen or name.partition(".")[0] not in local:
            continue
        seen.add(name)
        path = module_file(name)
        if path is None or path in out:
            continue
        out[path] = name
        found = memo.get(path)
        if found is None:
            found = memo[path] = _imports(name, path, source_text(path))
        todo.extend(found)
    return out


class IndexStore:
    """One directory of index entries, one JSON file per service, for one environment.

    Args:
        root: The cache directory (default: :func:`cache_dir`).
    """

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or cache_dir()
        self.environment = _environment()
        self._dir = self.root / "catalog" / self.environment

    def read(self, service: str) -> dict[str, Any] | None:
        """The stored entry of a service, or None when it is missing, unreadable or of another format."""
        try:
            entry = json.loads((self._dir / f"{service}.json").read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("format") != INDEX_FORMAT or entry.get("name") != service:
            return None
        return entry

    def write(self, service: str, entry: dict[str, Any]) -> bool:
        """Store a service's entry; False (and nothing raised) when it cannot be written.

        The tools' ``parameters`` and the entry's ``results`` are stored apart (see
        :meth:`read_schemas`); what :meth:`read` returns has neither, and names them by
        ``schemas``, their hash.
        """
        tools = entry["tools"]
        try:
            schemas = json.dumps(
                {"parameters": [t["parameters"] for t in tools], "results": entry["results"]},
                ensure_ascii=False,
                allow_nan=False,
            ).encode()
            digest = hashlib.sha256(schemas).hexdigest()[:32]
            head = {
                **entry,
                "tools": [{k: v for k, v in t.items() if k != "parameters"} for t in tools],
                "results": None,
                "schemas": digest,
                "format": INDEX_FORMAT,
            }
            data = json.dumps(head, ensure_ascii=False, allow_nan=False).encode()
        except (TypeError, ValueError):
            return False
        # Schemas first: an entry on disk always names a schema file that was written whole.
        name = f"{service}.{digest}.schemas.json"
        if not (_atomic_write(self._dir / name, schemas) and _atomic_write(self._dir / f"{service}.json", data)):
            return False
        for old in self._dir.glob(f"{service}.*.schemas.json"):
            if old.name != name:
                # A process holding the old entry then renders those schemas itself, as without an index.
                old.unlink(missing_ok=True)
        return True

    def read_schemas(self, service: str, digest: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | None:
        """The tools' parameter schemas (in tool order) and the result schemas of an entry, or None when lost.

        Args:
            service: The service.
            digest: The entry's ``schemas``.
        """
        try:
            data = (self._dir / f"{service}.{digest}.schemas.json").read_bytes()
            if hashlib.sha256(data).hexdigest()[:32] != digest:
                return None
            schemas = json.loads(data)
            return schemas["parameters"], schemas["results"]
        except (OSError, ValueError, TypeError, KeyError):
            return None

    def read_text(self, kind: str, key: str) -> str | None:
        """A small cached value (a world's version …) stored under ``kind/key``, or None."""
        try:
            return (self.root / kind / key).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def write_text(self, kind: str, key: str, value: str) -> bool:
        """Store a small value under ``kind/key``; False when it cannot be written."""
        return _atomic_write(self.root / kind / key, value.encode())
