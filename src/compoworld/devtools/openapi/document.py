"""Reading an OpenAPI 3 document: local references resolved, operations listed in a fixed order.

The scaffold never reaches the network: a document is one file, YAML or JSON,
whose ``$ref``s point inside it (``#/components/...``). ``allOf`` is merged into
one object, a nullable ``anyOf``/``oneOf`` becomes its non-null member, and a
reference cycle stops at the first repeat (marked, so the plan can say so).
Every resolved component schema keeps its component name under ``x-cw-ref``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["METHODS", "Document", "Operation", "Parameter", "SpecError", "load_document", "parse_document"]

METHODS = ("get", "post", "put", "patch", "delete")
"""The HTTP methods that become tools, in the order operations are listed."""

REF = "x-cw-ref"
"""Key under which a resolved schema keeps the name of the component it came from."""


class SpecError(ValueError):
    """The document cannot be read as a self-contained OpenAPI 3 document."""


@dataclass(frozen=True, slots=True)
class Parameter:
    """One operation parameter (path, query or header).

    Attributes:
        name: The name in the document.
        location: ``path``, ``query``, ``header`` or ``cookie``.
        schema: Its resolved schema.
        required: Whether it is required.
        description: Its description.
    """

    name: str
    location: str
    schema: dict[str, Any]
    required: bool
    description: str


@dataclass(frozen=True, slots=True)
class Operation:
    """One operation of the document.

    Attributes:
        method: Lower-case HTTP method.
        path: The path template.
        operation_id: ``operationId`` or one made from method and path.
        summary: Summary, else the first line of the description.
        description: Description.
        parameters: Path-level and operation-level parameters (operation wins on name clashes).
        body: The request body's resolved schema, if any (JSON, form or multipart).
        body_required: Whether the body is required.
        responses: Resolved schema of each success response (``2xx``) that has one.
        tags: The operation's tags.
    """

    method: str
    path: str
    operation_id: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    body: dict[str, Any] | None
    body_required: bool
    responses: dict[str, dict[str, Any]] = field(default_factory=dict)
    tags: tuple[str, ...] = ()

    @property
    def segments(self) -> list[str]:
        """The path's non-empty segments."""
        return [s for s in self.path.split("/") if s]

    @property
    def label(self) -> str:
        """``METHOD /path (operationId)`` for reports."""
        return f"{self.method.upper()} {self.path} ({self.operation_id})"

    def success(self) -> dict[str, Any] | None:
        """The schema of the first success response that has one."""
        for code in sorted(self.responses):
            return self.responses[code]
        return None


@dataclass(frozen=True, slots=True)
class Document:
    """A loaded document.

    Attributes:
        source: The file it was read from (its name only, for reproducible output).
        openapi: The ``openapi`` version string.
        title: ``info.title``.
        version: ``info.version``.
        description: ``info.description``.
        schemas: Resolved component schemas by name.
        operations: Every operation, in path order then method order.
    """

    source: str
    openapi: str
    title: str
    version: str
    description: str
    schemas: dict[str, dict[str, Any]]
    operations: tuple[Operation, ...]


def load_document(path: Path) -> Document:
    """Read an OpenAPI 3 document from a ``.yaml``, ``.yml`` or ``.json`` file.

    Args:
        path: The file.

    Returns:
        The document, references resolved.

    Raises:
        SpecError: if the file cannot be read or parsed, is not OpenAPI 3, or refers outside itself.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            import yaml
        except ImportError as exc:  # pragma: no cover - PyYAML comes with the openapi extra
            raise SpecError(
                f"{path.name} is YAML; install PyYAML (pip install 'compoworld[openapi]') or give the JSON form"
            ) from exc
        try:
            raw = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise SpecError(f"{path.name} is not valid YAML: {exc}") from exc
    elif path.suffix.lower() == ".json":
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SpecError(f"{path.name} is not valid JSON: line {exc.lineno}: {exc.msg}") from exc
    else:
        raise SpecError(f"{path.name}: give a .yaml, .yml or .json file")
    return parse_document(raw, source=path.name)


def parse_document(raw: Any, *, source: str = "<document>") -> Document:
    """Build a :class:`Document` from the parsed YAML/JSON of an OpenAPI 3 document.

    Args:
        raw: The parsed document.
        source: A name for messages and reports.

    Returns:
        The document.

    Raises:
        SpecError: if it is not an OpenAPI 3 document or a reference cannot be resolved.
    """
    if not isinstance(raw, dict):
        raise SpecError(f"{source}: the document must be a mapping at the top level")
    version = str(raw.get("openapi", ""))
    if not version.startswith("3."):
        if "swagger" in raw:
            raise SpecError(
                f"{source} is Swagger {raw['swagger']}; convert it to OpenAPI 3 first "
                "(for example with swagger2openapi or the Swagger Editor's 'Convert to OpenAPI 3')"
            )
        raise SpecError(f"{source}: no 'openapi: 3.x' field; only OpenAPI 3.0 and 3.1 documents are read")
    resolver = _Resolver(raw, source)
    info = raw.get("info") or {}
    components = (raw.get("components") or {}).get("schemas") or {}
    schemas = {name: resolver.schema({"$ref": f"#/components/schemas/{name}"}) for name in sorted(components)}
    operations: list[Operation] = []
    paths = raw.get("paths") or {}
    if not isinstance(paths, dict) or not paths:
        raise SpecError(f"{source}: the document has no paths")
    for path in sorted(paths):
        item = resolver.node(paths[path])
        if not isinstance(item, dict):
            raise SpecError(f"{source}: path {path} is not a mapping")
        shared = [resolver.node(p) for p in item.get("parameters") or []]
        for method in METHODS:
            op = item.get(method)
            if isinstance(op, dict):
                operations.append(_operation(resolver, method, path, op, shared))
    return Document(
        source=source,
        openapi=version,
        title=str(info.get("title") or Path(source).stem),
        version=str(info.get("version") or ""),
        description=str(info.get("description") or "").strip(),
        schemas=schemas,
        operations=tuple(operations),
    )


def _operation(resolver: _Resolver, method: str, path: str, op: dict[str, Any], shared: list[Any]) -> Operation:
    params: dict[tuple[str, str], Parameter] = {}
    for p in [*shared, *(resolver.node(x) for x in op.get("parameters") or [])]:
        if not isinstance(p, dict) or "name" not in p:
            continue
        schema = resolver.schema(p.get("schema") or _content_schema(resolver, p.get("content")) or {"type": "string"})
        location = str(p.get("in", "query"))
        params[(location, str(p["name"]))] = Parameter(
            name=str(p["name"]),
            location=location,
            schema=schema,
            required=bool(p.get("required", location == "path")),
            description=str(p.get("description") or schema.get("description") or "").strip(),
        )
    body: dict[str, Any] | None = None
    body_required = False
    if isinstance(op.get("requestBody"), dict):
        rb = resolver.node(op["requestBody"])
        body = _content_schema(resolver, rb.get("content"))
        body_required = bool(rb.get("required", False))
    responses: dict[str, dict[str, Any]] = {}
    for code, resp in sorted((op.get("responses") or {}).items(), key=lambda kv: str(kv[0])):
        if str(code).startswith("2"):
            found = _content_schema(resolver, resolver.node(resp).get("content"))
            if found is not None:
                responses[str(code)] = found
    description = str(op.get("description") or "").strip()
    summary = str(op.get("summary") or "").strip() or (description.splitlines()[0] if description else "")
    return Operation(
        method=method,
        path=path,
        operation_id=str(op.get("operationId") or _made_id(method, path)),
        summary=summary,
        description=description,
        parameters=tuple(params.values()),
        body=body,
        body_required=body_required,
        responses=responses,
        tags=tuple(str(t) for t in op.get("tags") or ()),
    )


def _content_schema(resolver: _Resolver, content: Any) -> dict[str, Any] | None:
    if not isinstance(content, dict):
        return None
    for media in sorted(content, key=_media_rank):
        entry = content[media]
        if isinstance(entry, dict) and isinstance(entry.get("schema"), dict):
            return resolver.schema(entry["schema"])
    return None


def _media_rank(media: str) -> tuple[int, str]:
    # JSON first, then forms, then anything else: the scaffold models the structured forms.
    for rank, kind in enumerate(("json", "x-www-form-urlencoded", "multipart")):
        if kind in media:
            return rank, media
    return 9, media


def _made_id(method: str, path: str) -> str:
    words = [s.strip("{}") for s in path.split("/") if s]
    return "_".join([method, *words]) if words else method


class _Resolver:
    """Resolves local references and flattens ``allOf``, guarding against cycles."""

    def __init__(self, raw: dict[str, Any], source: str) -> None:
        self.raw = raw
        self.source = source
        self.stack: list[str] = []

    def node(self, node: Any) -> Any:
        """Follow a non-schema ``$ref`` (parameter, request body, response, path item)."""
        seen: set[str] = set()
        while isinstance(node, dict) and "$ref" in node:
            ref = str(node["$ref"])
            if ref in seen:
                raise SpecError(f"{self.source}: reference cycle at {ref}")
            seen.add(ref)
            node = self._lookup(ref)
        return node

    def _lookup(self, ref: str) -> Any:
        if not ref.startswith("#/"):
            raise SpecError(
                f"{self.source}: reference {ref!r} points outside the document; bundle it into one file first "
                "(for example with `redocly bundle`)"
            )
        node: Any = self.raw
        for part in ref[2:].split("/"):
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise SpecError(f"{self.source}: reference {ref!r} does not resolve")
            node = node[part]
        return node

    def schema(self, node: Any) -> dict[str, Any]:
        """Resolve a schema completely (nested properties and items too)."""
        if not isinstance(node, dict):
            return {}
        if "$ref" in node:
            ref = str(node["$ref"])
            name = ref.rsplit("/", 1)[-1]
            if ref in self.stack:
                return {"type": "object", REF: name, "x-cw-cycle": True}
            self.stack.append(ref)
            try:
                out = dict(self.schema(self._lookup(ref)))
            finally:
                self.stack.pop()
            if ref.startswith("#/components/schemas/"):
                out[REF] = name
            return out
        out = {k: v for k, v in node.items() if k not in ("properties", "items", "allOf", "anyOf", "oneOf")}
        if "allOf" in node:
            merged: dict[str, Any] = {}
            required: list[str] = list(node.get("required") or [])
            for part in node["allOf"]:
                sub = self.schema(part)
                merged.update(sub.get("properties") or {})
                required += [r for r in sub.get("required") or [] if r not in required]
                for key, value in sub.items():
                    if key not in ("properties", "required", REF):
                        out.setdefault(key, value)
            merged.update({k: self.schema(v) for k, v in (node.get("properties") or {}).items()})
            out["type"] = "object"
            out["properties"] = merged
            out["required"] = required
            return out
        for key in ("anyOf", "oneOf"):
            if key in node:
                members = [self.schema(m) for m in node[key]]
                real = [m for m in members if m.get("type") != "null"]
                if len(real) == 1:
                    merged_one = {**real[0], **out}
                    if len(members) > len(real):
                        merged_one["nullable"] = True
                    return merged_one
                out["x-cw-union"] = members
        if isinstance(out.get("type"), list):
            # OpenAPI 3.1: type: [string, "null"]
            kinds = [t for t in out["type"] if t != "null"]
            if len(kinds) < len(out["type"]):
                out["nullable"] = True
            out["type"] = kinds[0] if len(kinds) == 1 else "string"
        if "properties" in node and isinstance(node["properties"], dict):
            out["properties"] = {str(k): self.schema(v) for k, v in node["properties"].items()}
        if "items" in node:
            out["items"] = self.schema(node["items"])
        return out
