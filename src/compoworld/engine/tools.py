"""Tools: callable, typed, annotated operations with schemas derived from signatures.

A :class:`Tool` is built once when the catalog loads, either from a domain
function (its type hints and Google-style docstring) or from a resource
declaration (see :mod:`compoworld.engine.crud`). Anything that cannot be turned into a
JSON Schema fails here, with a message naming the tool, never at call time.
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, get_args, get_origin

import docstring_parser
from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, TypeAdapter, create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError
from pydantic_core import core_schema as cs

from compoworld.engine.errors import CatalogError
from compoworld.engine.types import SemanticType, semantic_of

if TYPE_CHECKING:
    from compoworld.engine.service import ExampleFn, ToolDef

__all__ = [
    "ParamSpec",
    "Tool",
    "ToolAnnotations",
    "ToolKind",
    "build_tool",
    "resolve_ref",
    "semantic_type_of",
    "tool_from_def",
]

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
ToolKind = Literal["create", "get", "list", "update", "delete", "transition", "domain"]

ParamSpec = tuple[Any, FieldInfo]
"""A parameter as ``(annotation, FieldInfo)``, the form pydantic's ``create_model`` takes."""


@dataclass(frozen=True, slots=True)
class ToolAnnotations:
    """Side effects as data, in the MCP annotation vocabulary.

    Attributes:
        read_only: The tool never writes.
        destructive: Its writes delete or irreversibly change data.
        idempotent: Repeating the same call has no further effect.
        open_world: It models an open, non-deterministic outside world.
    """

    read_only: bool
    destructive: bool
    idempotent: bool
    open_world: bool


@dataclass(eq=False, slots=True)
class Tool:
    """A tool ready to be called by the runtime.

    Attributes:
        name: ``service__tool``.
        service: The owning service's name.
        short_name: The name within the service.
        description: What it does, for an agent.
        intent: How an instruction phrases it.
        annotations: Its side effects.
        kind: Standard operation kind or ``domain``.
        resource: The resource a standard tool works on (``crm.contact``).
        params: The parameters as ``(annotation, FieldInfo)``.
        result_adapter: Serialises the result to JSON-ready data.
        fn: ``fn(ctx, **arguments)`` runs the tool.
        id_params: ``(parameter, resource, table)`` for each parameter naming a
            record the runtime checks exists before the call.
        example: Optional provider of valid arguments.

    A catalog loaded from its index (:mod:`compoworld.engine.index`) holds
    stand-ins: every attribute above but ``params``, ``result_adapter``, ``fn``
    and ``example`` is set from the index, and reading one of those four
    imports the service and fills them in (``_load``). The two JSON Schemas are
    read from the index the first time one of the service's tools is asked for
    one (``_schemas``).
    """

    name: str
    service: str
    short_name: str
    description: str
    intent: str
    annotations: ToolAnnotations
    kind: ToolKind
    resource: str | None
    params: Mapping[str, ParamSpec]
    result_adapter: TypeAdapter[Any]
    fn: Callable[..., Any]
    id_params: tuple[tuple[str, str, str], ...] = ()
    example: ExampleFn | None = None
    required: frozenset[str] = field(default_factory=frozenset)
    _params_model: type[BaseModel] | None = None
    _parameters_schema: dict[str, Any] | None = None
    _result_schema: dict[str, Any] | None = None
    _load: Callable[[], None] | None = None
    _schemas: Callable[[], None] | None = None

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise accept any attribute name

        def __getattr__(self, name: str) -> Any:
            # Reached only when a slot is unset: a stand-in whose service is not imported yet.
            # Once loaded, the slots answer directly, so calls pay nothing for the laziness.
            if name in _LAZY_TOOL_FIELDS:
                load = object.__getattribute__(self, "_load")
                if load is not None:
                    load()
                    return object.__getattribute__(self, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def params_model(self) -> type[BaseModel]:
        """Validates arguments; unknown fields are refused (built on first use).

        Raises:
            CatalogError: if the parameters' types cannot be validated.
        """
        model = self._params_model
        if model is None:
            try:
                model = create_model(  # type: ignore[call-overload]
                    _model_name(self.name),
                    __config__=ConfigDict(extra="forbid", protected_namespaces=(), frozen=True),
                    **{n: (_json_form(a), info) for n, (a, info) in self.params.items()},
                )
            except Exception as exc:  # pydantic raises several types; the message is what matters
                raise CatalogError(f"tool {self.name}: cannot derive the parameters' schema: {exc}") from exc
            self._params_model = model
        return model

    @property
    def parameters_schema(self) -> dict[str, Any]:
        """JSON Schema of the arguments (rendered on first use; treat as read-only)."""
        if self._parameters_schema is None and self._schemas is not None:
            self._schemas()  # a stand-in's schemas, read from the index on first use
        if self._parameters_schema is None:
            try:
                schema = self.params_model.model_json_schema()
            except Exception as exc:
                raise CatalogError(f"tool {self.name}: cannot render the parameters' JSON Schema: {exc}") from exc
            schema.pop("title", None)
            self._parameters_schema = schema
        return self._parameters_schema

    @property
    def result_schema(self) -> dict[str, Any]:
        """JSON Schema of the result (rendered on first use, shared by tools of one result type)."""
        if self._result_schema is None and self._schemas is not None:
            self._schemas()
        if self._result_schema is None:
            try:
                self._result_schema = _result_schema(self.result_adapter)
            except Exception as exc:
                raise CatalogError(f"tool {self.name}: cannot render the result's JSON Schema: {exc}") from exc
        return self._result_schema

    @property
    def writes(self) -> bool:
        """True when the tool may write."""
        return not self.annotations.read_only

    def openai(self) -> dict[str, Any]:
        """Return the tool in the OpenAI chat ``tools`` format."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters_schema,
            },
        }


_LAZY_TOOL_FIELDS = frozenset({"params", "result_adapter", "fn", "example"})
"""What a stand-in tool gets only when its service is imported."""


@dataclass(frozen=True, slots=True)
class _NoBool:
    """Makes an integer ``Literal`` refuse booleans.

    Attributes:
        values: The Literal's values in their order: typing holds ``Literal[1, 2]`` equal to
            ``Literal[2, 1]`` and caches ``Annotated`` by equality, so without them an enum could
            take the order of another tool's.
    """

    values: tuple[Any, ...]

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> cs.CoreSchema:
        expected = " or ".join(str(v) for v in self.values)

        def refuse_bool(value: Any) -> Any:
            if isinstance(value, bool):
                raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})
            return value

        return cs.no_info_before_validator_function(refuse_bool, handler(source))


def _array_as_tuple(value: Any) -> Any:
    return tuple(value) if type(value) is list else value


@dataclass(frozen=True, slots=True)
class _ArrayAsTuple:
    """Makes a tuple take a JSON array (a list), as its ``type: array`` schema says it does."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> cs.CoreSchema:
        return cs.no_info_before_validator_function(_array_as_tuple, handler(source))


def _json_form(annotation: Any) -> Any:
    """``annotation`` as the runtime's strict validation of JSON data needs it.

    Strict validation refuses the lax coercions the schema does not publish, and two things more
    that the schema allows or forbids otherwise: a tuple refuses a list, which is what a JSON array
    is; and an integer ``Literal`` takes ``True`` (Python holds ``True == 1``), which its published
    ``enum: [1, 2]`` does not. Returns ``annotation`` itself when neither is in it. Only the
    parameters' own annotations are rewritten: a tuple inside a nested model would still refuse an
    array (the conformance suite's valid call would say so).
    """
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Literal:
        return Annotated[annotation, _NoBool(args)] if any(type(a) is int for a in args) else annotation
    if origin is tuple:
        return Annotated[_json_items(annotation), _ArrayAsTuple()]
    if origin is Annotated:
        base = args[0]
        if get_origin(base) is tuple:
            # Last, so that the tuple's own constraints (min_length …) stay on the tuple and in its schema.
            return Annotated[(_json_items(base), *args[1:], _ArrayAsTuple())]
        inner = _json_form(base)
        return annotation if inner is base else Annotated[(inner, *args[1:])]
    if origin in (Union, types.UnionType, list, dict):
        new = tuple(_json_form(a) for a in args)
        if all(n is a for n, a in zip(new, args, strict=True)):
            return annotation
        if origin is list:
            return list[new[0]]  # type: ignore[valid-type]
        if origin is dict:
            return dict[new[0], new[1]]  # type: ignore[valid-type]
        return Union[new]  # noqa: UP007 - a tuple of members is spelled this way only
    return annotation


def _json_items(annotation: Any) -> Any:
    """A tuple type with its item types in their JSON form."""
    args = get_args(annotation)
    new = tuple(_json_form(a) for a in args)
    return annotation if all(n is a for n, a in zip(new, args, strict=True)) else tuple[new]  # type: ignore[valid-type]


def resolve_ref(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """Follow a local ``#/$defs/...`` reference, keeping the referring schema's own keys.

    Args:
        schema: A (sub)schema, possibly ``{"$ref": ..., "description": ...}``.
        root: The schema holding ``$defs``.

    Returns:
        The referenced schema merged with the referrer's other keys, or ``schema`` itself.
    """
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        merged = dict(root.get("$defs", {}).get(ref.rsplit("/", 1)[-1], {}))
        merged.update({k: v for k, v in schema.items() if k != "$ref"})
        return merged
    return schema


def semantic_type_of(annotation: Any, metadata: list[Any] | tuple[Any, ...] = ()) -> SemanticType | None:
    """Find the semantic type of a parameter, looking through Optional and Annotated.

    Args:
        annotation: The parameter's type.
        metadata: Extra metadata (a FieldInfo's ``metadata``).

    Returns:
        The semantic type or None.
    """
    found = semantic_of(metadata)
    if found is not None:
        return found
    origin = get_origin(annotation)
    if origin is Annotated:
        args = get_args(annotation)
        return semantic_of(args[1:]) or semantic_type_of(args[0])
    if origin is Union or origin is types.UnionType:
        for arg in get_args(annotation):
            if arg is not type(None):
                sem = semantic_type_of(arg)
                if sem is not None:
                    return sem
    return None


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}
# Keyed by id(); holding the adapter keeps it alive so the id is never reused.
_RESULT_SCHEMAS: dict[int, tuple[TypeAdapter[Any], dict[str, Any]]] = {}


def _result_adapter(result_type: Any) -> TypeAdapter[Any]:
    """The adapter of a result type, shared by every tool returning it.

    Most resources' create, get, update and transition tools return the same
    record type; deriving its core schema once keeps catalog loading fast.
    """
    try:
        adapter = _ADAPTERS.get(result_type)
    except TypeError:  # an unhashable annotation: derive it every time
        return TypeAdapter(result_type)
    if adapter is None:
        adapter = TypeAdapter(result_type)
        _ADAPTERS[result_type] = adapter
    return adapter


def _result_schema(adapter: TypeAdapter[Any]) -> dict[str, Any]:
    cached = _RESULT_SCHEMAS.get(id(adapter))
    if cached is None:
        cached = (adapter, adapter.json_schema(mode="serialization"))
        _RESULT_SCHEMAS[id(adapter)] = cached
    return cached[1]


def _model_name(tool_name: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[_-]+", tool_name) if part) + "Args"


def build_tool(
    *,
    service: str,
    short_name: str,
    description: str,
    intent: str,
    annotations: ToolAnnotations,
    kind: ToolKind,
    resource: str | None,
    params: Mapping[str, ParamSpec],
    result_type: Any,
    fn: Callable[..., Any],
    id_resources: Mapping[str, str],
    example: ExampleFn | None = None,
) -> Tool:
    """Build a tool, deriving and checking its schemas.

    Args:
        service: Owning service.
        short_name: Name within the service.
        description: What the tool does.
        intent: Instruction phrase.
        annotations: Side effects.
        kind: Standard kind or ``domain``.
        resource: Resource a standard tool works on.
        params: Parameters as ``(annotation, FieldInfo)``.
        result_type: The result's type.
        fn: The implementation, ``fn(ctx, **arguments)``.
        id_resources: Table of each known resource by qualified name
            (``crm.contact`` -> ``crm.contacts``), for the id checks.
        example: Optional valid-argument provider.

    Returns:
        The tool.

    Raises:
        CatalogError: when a name, description or schema is invalid.
    """
    name = f"{service}__{short_name}"
    if not TOOL_NAME.match(name):
        raise CatalogError(f"tool name {name!r} must match [a-zA-Z0-9_-]{{1,64}}")
    if not description.strip():
        raise CatalogError(f"tool {name}: missing description")
    if not intent.strip():
        raise CatalogError(f"tool {name}: missing intent phrase")
    for pname, (_, info) in params.items():
        if not (info.description or "").strip():
            raise CatalogError(f"tool {name}: parameter {pname!r} has no description")
    # The result serialiser is derived now (most tools share their result type, so it is cheap);
    # the argument validator on first use: Catalog.load(render_schemas=True) derives every one.
    try:
        adapter = _result_adapter(result_type)
    except Exception as exc:  # pydantic raises several types; the message is what matters
        raise CatalogError(f"tool {name}: cannot derive a schema: {exc}") from exc
    id_params: list[tuple[str, str, str]] = []
    for pname, (annotation, info) in params.items():
        sem = semantic_type_of(annotation, info.metadata)
        if sem is not None and sem.kind == "id":
            res = sem.name[: -len(".id")]
            if res not in id_resources:
                raise CatalogError(f"tool {name}: parameter {pname!r} names unknown resource {res!r}")
            id_params.append((pname, res, id_resources[res]))
    required = frozenset(n for n, (_, info) in params.items() if info.is_required())
    return Tool(
        name=name,
        service=service,
        short_name=short_name,
        description=description.strip(),
        intent=intent.strip(),
        annotations=annotations,
        kind=kind,
        resource=resource,
        params=dict(params),
        result_adapter=adapter,
        fn=fn,
        id_params=tuple(id_params),
        example=example,
        required=required,
    )


def tool_from_def(service: str, tdef: ToolDef, id_resources: Mapping[str, str]) -> Tool:
    """Build a domain tool from its decorated function.

    Args:
        service: Owning service.
        tdef: The declaration.
        id_resources: Table of each known resource by qualified name.

    Returns:
        The tool.

    Raises:
        CatalogError: when the signature or docstring cannot give a schema.
    """
    fn = tdef.fn
    where = f"tool {service}__{tdef.name} ({fn.__module__}.{fn.__qualname__})"
    if tdef.open_world and tdef.write:
        raise CatalogError(f"{where}: open-world tools are read-only (their answers come from a world model)")
    doc = inspect.getdoc(fn)
    if not doc:
        raise CatalogError(f"{where}: missing docstring")
    parsed = docstring_parser.parse(doc, style=docstring_parser.DocstringStyle.GOOGLE)
    param_docs = {p.arg_name: (p.description or "") for p in parsed.params}
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:
        raise CatalogError(f"{where}: cannot resolve type hints: {exc}") from exc
    sig = inspect.signature(fn)
    plist = list(sig.parameters.values())
    if not plist:
        raise CatalogError(f"{where}: first parameter must be the context")
    params: dict[str, ParamSpec] = {}
    for p in plist[1:]:
        if p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            raise CatalogError(f"{where}: parameter {p.name!r} must be a plain or keyword parameter")
        if p.name not in hints:
            raise CatalogError(f"{where}: parameter {p.name!r} has no type hint")
        desc = param_docs.get(p.name, "")
        if not desc.strip():
            raise CatalogError(f"{where}: parameter {p.name!r} is not documented under Args:")
        default = ... if p.default is p.empty else p.default
        params[p.name] = (hints[p.name], FieldInfo.from_field(default, description=desc.strip()))
    if "return" not in hints:
        raise CatalogError(f"{where}: missing return type hint")
    description = "\n\n".join(s for s in (parsed.short_description, parsed.long_description) if s)
    return build_tool(
        service=service,
        short_name=tdef.name,
        description=description,
        intent=tdef.intent,
        annotations=ToolAnnotations(
            read_only=not tdef.write,
            destructive=tdef.destructive,
            idempotent=tdef.idempotent,
            open_world=tdef.open_world,
        ),
        kind="domain",
        resource=None,
        params=params,
        result_type=hints["return"],
        fn=fn,
        id_resources=id_resources,
        example=tdef.example,
    )
