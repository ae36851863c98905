"""The service registry: one line per service, imported only when needed.

Built-in services register in :mod:`compoworld.services`; other packages can
add theirs through the ``compoworld.services`` entry-point group
(``name = "package.module:service"``). Registering imports nothing: a service's
module is imported the first time the catalog asks for it.

Service modules that are plain files (a team's own, or one ``compoworld service new``
wrote) join through :data:`SERVICE_PATH_ENV`: every process that reads the registry
(a synthesis, its verification, a rollout, a Ray worker) imports them, so that a task
set made over them can be checked and played anywhere the variable is set.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import os
import sys
from importlib.metadata import entry_points
from pathlib import Path

from compoworld.engine.errors import CatalogError
from compoworld.engine.service import Service

__all__ = ["SERVICE_PATH_ENV", "load_service_file", "register", "registered", "resolve", "unknown_service"]

SERVICE_PATH_ENV = "COMPOWORLD_SERVICE_PATH"
"""Service modules from files: ``.py`` files or folders of them, separated by ``os.pathsep``."""

_REGISTRY: dict[str, str] = {}
_BUILTINS_LOADED = False


def register(name: str, target: str) -> None:
    """Register a service by the import path of its :class:`Service` object.

    Args:
        name: The service's name.
        target: ``"package.module:attribute"``.

    Raises:
        CatalogError: if the name is taken by another target or the target is malformed.
    """
    if ":" not in target:
        raise CatalogError(f"service {name!r}: target {target!r} must be 'module:attribute'")
    existing = _REGISTRY.get(name)
    if existing is not None and existing != target:
        raise CatalogError(f"service {name!r} is already registered as {existing!r}")
    _REGISTRY[name] = target


def registered() -> dict[str, str]:
    """Return every registered service name with its import target, sorted by name."""
    global _BUILTINS_LOADED
    if not _BUILTINS_LOADED:
        # The built-in registry is a module of register() lines; importing it imports no service.
        importlib.import_module("compoworld.services")
        for ep in entry_points(group="compoworld.services"):
            register(ep.name, ep.value)
        _BUILTINS_LOADED = True
        for path in _service_files(os.environ.get(SERVICE_PATH_ENV, "")):
            load_service_file(path)
    return dict(sorted(_REGISTRY.items()))


def _service_files(value: str) -> list[Path]:
    files: list[Path] = []
    for part in value.split(os.pathsep):
        if not part.strip():
            continue
        path = Path(part).expanduser()
        if path.is_dir():
            files += sorted(f for f in path.glob("*.py") if not f.name.startswith("_"))
        elif path.is_file() and path.suffix == ".py":
            files.append(path)
        else:
            raise CatalogError(f"{SERVICE_PATH_ENV}: {part} is neither a service module (.py) nor a folder of them")
    return files


def load_service_file(path: Path) -> Service:
    """Import a service module from a file and register it, so that catalogs and synthesis find it by name.

    The module is imported under ``compoworld_user.<stem>`` so that it cannot
    shadow a module of the package; it must define one :class:`Service`
    (conventionally called ``service``) whose name no other registered service has.
    Loading the same file again returns the same service.

    Args:
        path: The ``.py`` file.

    Returns:
        The module's service.

    Raises:
        CatalogError: if the file is missing, fails to import, defines no service or several, or
            names a service that is already registered from elsewhere.
    """
    if not path.is_file() or path.suffix != ".py":
        raise CatalogError(f"{path}: give the path of a service module (.py file)")
    module_name = f"compoworld_user.{path.stem}"
    loaded = sys.modules.get(module_name)
    if loaded is not None and getattr(loaded, "__file__", None) == str(path.resolve()):
        return _service_of(loaded, path)[1]
    spec = importlib.util.spec_from_file_location(module_name, path.resolve())
    if spec is None or spec.loader is None:
        raise CatalogError(f"{path}: cannot be imported as a module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(module_name, None)
        raise CatalogError(f"{path}: import failed: {type(exc).__name__}: {exc}") from exc
    attr, found = _service_of(module, path)
    target = f"{module_name}:{attr}"
    existing = registered().get(found.name)
    if existing is not None and existing != target:
        raise CatalogError(
            f"{path}: service {found.name!r} is already registered as {existing}; give yours another name"
        )
    register(found.name, target)
    return found


def _service_of(module: object, path: Path) -> tuple[str, Service]:
    found = getattr(module, "service", None)
    if isinstance(found, Service):
        return "service", found
    services = [(k, v) for k, v in vars(module).items() if isinstance(v, Service)]
    if len(services) != 1:
        raise CatalogError(f"{path}: define exactly one Service (found {len(services)}); name it `service`")
    return services[0]


def resolve(name: str) -> Service:
    """Import a registered service's module and return its :class:`Service`.

    Args:
        name: The service's name.

    Returns:
        The service object.

    Raises:
        CatalogError: if the name is unknown or the target is not a Service named ``name``.
    """
    targets = registered()
    if name not in targets:
        raise unknown_service(name)
    module_name, _, attr = targets[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise CatalogError(f"service {name!r}: cannot import {module_name}: {exc}") from exc
    obj = getattr(module, attr, None)
    if not isinstance(obj, Service):
        raise CatalogError(f"service {name!r}: {targets[name]} is not a Service")
    if obj.name != name:
        raise CatalogError(f"service registered as {name!r} calls itself {obj.name!r}")
    return obj


def unknown_service(name: str) -> CatalogError:
    """The error for a service name nothing registered: the names closest to it, and how services join.

    Args:
        name: The name asked for.

    Returns:
        The error to raise.
    """
    targets = registered()
    close = difflib.get_close_matches(name, targets, n=3)
    return CatalogError(
        f"unknown service {name!r} ({len(targets)} registered"
        + (f"; did you mean {', '.join(close)}?" if close else "")
        + f"); a service module from a file joins through {SERVICE_PATH_ENV}=PATH.py, a package's through "
        "its compoworld.services entry point; `compoworld catalog stats` counts them"
    )
