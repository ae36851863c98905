"""The service registry: one line per service, imported only when needed.

Built-in services register in :mod:`compoworld.services`; other packages can
add theirs through the ``compoworld.services`` entry-point group
(``name = "package.module:service"``). Registering imports nothing: a service's
module is imported the first time the catalog asks for it.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from compoworld.engine.errors import CatalogError
from compoworld.engine.service import Service

__all__ = ["register", "registered", "resolve"]

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
    return dict(sorted(_REGISTRY.items()))


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
        raise CatalogError(f"unknown service {name!r}; registered: {', '.join(targets)}")
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
