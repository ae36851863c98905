"""Tool schemas reshaped for the servers, never rewritten by hand.

* MCP (through protocol 2025-11-25) wants a tool's output schema and
  structured content to be JSON objects: :func:`object_output` wraps a
  non-object result as ``{"result": ...}``.
* An OpenAPI document resolves ``$ref`` from its own root, so the ``$defs`` of
  every tool's schema move into ``components/schemas``: :class:`Components`
  hoists them, naming each definition once and keeping definitions that share a
  name but differ apart.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

__all__ = ["Components", "object_output"]

_DEFS_REF = "#/$defs/"
_COMPONENTS_REF = "#/components/schemas/"


def object_output(schema: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """An output schema whose root is an object.

    Args:
        schema: A tool's result schema (not modified).

    Returns:
        ``(schema, wrapped)``: the schema itself when its root is an object, else
        ``{"result": schema}`` with the definitions kept at the root, and True.
    """
    if schema.get("type") == "object":
        return schema, False
    inner = {k: v for k, v in schema.items() if k != "$defs"}
    wrapped: dict[str, Any] = {"type": "object", "properties": {"result": inner}, "required": ["result"]}
    if "$defs" in schema:
        wrapped["$defs"] = schema["$defs"]
    return wrapped, True


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _local_refs(node: Any, found: set[str]) -> None:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(_DEFS_REF):
            found.add(ref[len(_DEFS_REF) :])
        for value in node.values():
            _local_refs(value, found)
    elif isinstance(node, list):
        for value in node:
            _local_refs(value, found)


def _rewrite(node: Any, names: dict[str, str]) -> Any:
    if isinstance(node, dict):
        out = {k: _rewrite(v, names) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith(_DEFS_REF):
            out["$ref"] = _COMPONENTS_REF + names[ref[len(_DEFS_REF) :]]
        return out
    if isinstance(node, list):
        return [_rewrite(v, names) for v in node]
    return node


class Components:
    """Definitions hoisted out of many JSON Schemas into one ``components/schemas`` map.

    Args:
        reserved: Component names already taken by other schemas of the document.
    """

    def __init__(self, reserved: dict[str, Any] | None = None) -> None:
        self.schemas: dict[str, Any] = {}
        self._keys: dict[str, str] = {name: f"reserved:{name}" for name in reserved or {}}

    def add(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Hoist a schema's ``$defs`` and return the schema with its references rewritten.

        Args:
            schema: A self-contained JSON Schema (not modified).

        Returns:
            A new schema without ``$defs`` whose references point into :attr:`schemas`.
        """
        defs: dict[str, Any] = schema.get("$defs", {})
        body = {k: v for k, v in schema.items() if k != "$defs"}
        if not defs:
            return copy.deepcopy(body)
        names = {name: self._name(name, self._key(name, defs)) for name in defs}
        for name, definition in defs.items():
            final = names[name]
            if final not in self.schemas:
                self.schemas[final] = _rewrite(definition, names)
        rewritten: dict[str, Any] = _rewrite(body, names)
        return rewritten

    @staticmethod
    def _key(name: str, defs: dict[str, Any]) -> str:
        """A content key of a definition and every definition it reaches."""
        closure: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            if current in closure or current not in defs:
                continue
            closure.add(current)
            refs: set[str] = set()
            _local_refs(defs[current], refs)
            todo.extend(refs)
        material = _canonical([name, {n: defs[n] for n in sorted(closure)}])
        return hashlib.sha256(material.encode()).hexdigest()

    def _name(self, name: str, key: str) -> str:
        for candidate in (name, f"{name}_{key[:8]}", f"{name}_{key}"):
            taken = self._keys.get(candidate)
            if taken is None:
                self._keys[candidate] = key
                return candidate
            if taken == key:
                return candidate
        raise ValueError(f"cannot name the definition {name}")  # pragma: no cover - a full hash collision
