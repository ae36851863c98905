"""Standard tools generated from a resource declaration.

``create``, ``get``, ``list`` (equality filters, text query, cursor paging),
``update``, ``delete`` and one tool per status transition: the same behaviour for
every resource, written once here instead of once per service.
"""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Protocol, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from compoworld.engine.errors import CatalogError, RuleViolation
from compoworld.engine.records import Deleted, Page, R, Record, generated_fields
from compoworld.engine.service import ResourceSpec, Transition
from compoworld.engine.tools import ParamSpec, Tool, ToolAnnotations, build_tool, semantic_type_of

__all__ = ["RecordContext", "standard_tools"]

MAX_PAGE = 100


class RecordContext(Protocol):
    """What a standard tool needs of its call's context; :class:`compoworld.engine.context.Ctx` provides it.

    Declared here, not imported: the context is built on the catalog these tools belong to.
    """

    def find(self, model: type[R], record_id: str) -> R | None:
        """The current record, or None."""
        ...

    def get(self, model: type[R], record_id: str, *, field: str | None = None) -> R:
        """The current record, or a ``not_found`` failure naming ``field``."""
        ...

    def select(self, model: type[R], equals: Mapping[str, Any], *, after: str | None = None) -> Iterator[R]:
        """The current records whose fields equal ``equals``, in id order, after id ``after``."""
        ...

    def create(self, model: type[R], **fields: Any) -> R:
        """Insert a record with a fresh id and generated fields."""
        ...

    def update(self, record: R, **changes: Any) -> R:
        """Replace a record with a changed, re-validated copy."""
        ...

    def delete(self, record: Record) -> None:
        """Remove a record."""
        ...


_READ = ToolAnnotations(read_only=True, destructive=False, idempotent=True, open_world=False)


def _annotated(info: FieldInfo) -> Any:
    """The field's full type, metadata included, as one Annotated type."""
    if info.metadata:
        return Annotated[(info.annotation, *info.metadata)]
    return info.annotation


def _describe(spec: ResourceSpec[Any], fname: str) -> str:
    info = spec.model.model_fields[fname]
    if not (info.description or "").strip():
        raise CatalogError(
            f"{spec.model.__module__}.{spec.model.__name__}.{fname}: field has no description "
            "(add a docstring under the field or Field(description=...))"
        )
    return (info.description or "").strip()


def _required_param(spec: ResourceSpec[Any], fname: str) -> ParamSpec:
    info = spec.model.model_fields[fname]
    desc = _describe(spec, fname)
    if info.is_required():
        return (_annotated(info), FieldInfo.from_field(..., description=desc))
    default = info.get_default(call_default_factory=True)
    return (_annotated(info), FieldInfo.from_field(default, description=desc))


@dataclass(frozen=True, slots=True)
class _OptionalOf:
    """Marks which field an optional parameter stands for.

    ``typing`` caches ``X | None`` by ``X``, and it holds ``Literal["a", "b"]`` equal to ``Literal["b", "a"]``: without
    a marker of its own, a filter's enum would take the order of whichever equal Literal a process met first, and a
    tool's schema would depend on which other services were loaded.
    """

    table: str
    field: str


def _optional_param(spec: ResourceSpec[Any], fname: str, description: str) -> ParamSpec:
    info = spec.model.model_fields[fname]
    marked: Any = Annotated[(info.annotation, *info.metadata, _OptionalOf(spec.table, fname))]
    return (marked | None, FieldInfo.from_field(None, description=description))


def _is_scalar(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin is Annotated:
        return _is_scalar(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return all(_is_scalar(a) for a in get_args(annotation) if a is not type(None))
    if origin is Literal:
        return True
    if origin is not None:
        return False
    return isinstance(annotation, type) and not issubclass(annotation, BaseModel | list | dict | set | tuple)


def _check_fields(spec: ResourceSpec[Any], names: tuple[str, ...], what: str) -> None:
    fields = spec.model.model_fields
    for n in names:
        if n not in fields:
            raise CatalogError(f"{spec.qualified}: {what} field {n!r} is not a field of {spec.model.__name__}")


def _check_spec(spec: ResourceSpec[Any]) -> None:
    model = spec.model
    id_info = model.model_fields["id"]
    sem = semantic_type_of(id_info.annotation, id_info.metadata)
    if sem is None or sem.name != f"{spec.qualified}.id":
        raise CatalogError(
            f"{spec.qualified}: {model.__name__}.id must be typed Annotated[str, IdOf({spec.qualified!r})]"
        )
    if isinstance(spec.create, tuple):
        _check_fields(spec, spec.create, "create")
    _check_fields(spec, spec.update, "update")
    _check_fields(spec, spec.search, "search")
    _check_fields(spec, spec.unique, "unique")
    for f in spec.filters or ():
        _check_fields(spec, (f,), "filter")
        if not _is_scalar(model.model_fields[f].annotation):
            raise CatalogError(f"{spec.qualified}: filter field {f!r} must be a scalar")
    for verb, tr in spec.transitions.items():
        _check_fields(spec, (tr.field,), f"transition {verb!r}")
    generated = {n for n, _ in generated_fields(model)}
    bad = generated & (set(spec.update) | set(spec.create if isinstance(spec.create, tuple) else ()))
    if bad:
        raise CatalogError(f"{spec.qualified}: generated fields {sorted(bad)} cannot be set by callers")


def _as_now(ctx: RecordContext, model: type[Record], rec: Record) -> Record:
    """The record as the call leaves it: a guard may have written to it after the tool's own write."""
    return ctx.find(model, rec.id) or rec


def _create_tool(spec: ResourceSpec[Any], id_resources: Mapping[str, str]) -> Tool:
    model = spec.model
    generated = {n for n, _ in generated_fields(model)} | {"id"}
    if isinstance(spec.create, tuple):
        names = spec.create
    else:
        names = tuple(n for n in model.model_fields if n not in generated)
    params = {n: _required_param(spec, n) for n in names}
    guard = spec.guard_create

    def create(ctx: RecordContext, **kwargs: Any) -> Record:
        rec: Record = ctx.create(model, **kwargs)
        if guard is not None:
            guard(ctx, rec, None)
            return _as_now(ctx, model, rec)
        return rec

    return build_tool(
        service=spec.service,
        short_name=f"create_{spec.name}",
        description=f"Create {spec.a_noun}. {_model_doc(model)}",
        intent=f"create {spec.a_noun}",
        annotations=ToolAnnotations(read_only=False, destructive=False, idempotent=False, open_world=False),
        kind="create",
        resource=spec.qualified,
        params=params,
        result_type=model,
        fn=create,
        id_resources=id_resources,
    )


def _id_param(spec: ResourceSpec[Any], verb: str) -> ParamSpec:
    info = spec.model.model_fields["id"]
    return (_annotated(info), FieldInfo.from_field(..., description=f"Id of the {spec.noun} to {verb}."))


def _get_tool(spec: ResourceSpec[Any], id_resources: Mapping[str, str]) -> Tool:
    model = spec.model
    pname = f"{spec.name}_id"

    def get(ctx: RecordContext, **kwargs: Any) -> Record:
        rec: Record = ctx.get(model, kwargs[pname], field=pname)
        return rec

    return build_tool(
        service=spec.service,
        short_name=f"get_{spec.name}",
        description=f"Get one {spec.noun} by id. {_model_doc(model)}",
        intent=f"look up {spec.a_noun}",
        annotations=_READ,
        kind="get",
        resource=spec.qualified,
        params={pname: _id_param(spec, "get")},
        result_type=model,
        fn=get,
        id_resources=id_resources,
    )


def _list_tool(spec: ResourceSpec[Any], id_resources: Mapping[str, str]) -> Tool:
    model = spec.model
    filters = spec.filters or ()
    params: dict[str, ParamSpec] = {
        f: _optional_param(spec, f, f"Only {spec.plural.replace('_', ' ')} whose {f} equals this. {_describe(spec, f)}")
        for f in filters
    }
    search = spec.search
    if search:
        params["query"] = (
            str | None,
            FieldInfo.from_field(
                None,
                description=f"Case-insensitive text contained in any of: {', '.join(search)}.",
                max_length=200,
            ),
        )
    params["limit"] = (int, FieldInfo.from_field(20, ge=1, le=MAX_PAGE, description=f"Page size (1 to {MAX_PAGE})."))
    params["cursor"] = (
        str | None,
        FieldInfo.from_field(
            None, max_length=64, description="`next_cursor` of the previous page; omit for the first page."
        ),
    )

    page_model = Page[model]  # type: ignore[valid-type]

    def list_records(ctx: RecordContext, **kwargs: Any) -> Page[Any]:
        limit: int = kwargs.pop("limit")
        cursor: str | None = kwargs.pop("cursor")
        query: str | None = kwargs.pop("query", None)
        equals = {k: v for k, v in kwargs.items() if v is not None}
        needle = query.casefold() if query else None
        items: list[Record] = []
        next_cursor: str | None = None
        for rec in ctx.select(model, equals, after=cursor):
            if needle is not None and not any(needle in str(getattr(rec, f) or "").casefold() for f in search):
                continue
            if len(items) == limit:
                next_cursor = items[-1].id
                break
            items.append(rec)
        # Items are already-valid records: construct without re-validating them.
        return page_model.model_construct(items=items, next_cursor=next_cursor)

    return build_tool(
        service=spec.service,
        short_name=f"list_{spec.plural}",
        description=f"List {spec.plural.replace('_', ' ')} in id order, optionally filtered, one page at a time. {_model_doc(model)}",
        intent=f"find {spec.plural.replace('_', ' ')}",
        annotations=_READ,
        kind="list",
        resource=spec.qualified,
        params=params,
        result_type=page_model,
        fn=list_records,
        id_resources=id_resources,
    )


def _update_tool(spec: ResourceSpec[Any], id_resources: Mapping[str, str]) -> Tool:
    model = spec.model
    pname = f"{spec.name}_id"
    params: dict[str, ParamSpec] = {pname: _id_param(spec, "update")}
    for f in spec.update:
        params[f] = _optional_param(spec, f, f"New value; omit to keep. {_describe(spec, f)}")
    guard = spec.guard_update
    fields = spec.update

    def update(ctx: RecordContext, **kwargs: Any) -> Record:
        rec = ctx.get(model, kwargs.pop(pname), field=pname)
        changes = {k: v for k, v in kwargs.items() if v is not None}
        if not changes:
            raise RuleViolation(
                f"nothing to update on {spec.noun} {rec.id}",
                hint=f"pass at least one of: {', '.join(fields)}",
            )
        new: Record = ctx.update(rec, **changes)
        if guard is not None:
            guard(ctx, new, rec)
            return _as_now(ctx, model, new)
        return new

    return build_tool(
        service=spec.service,
        short_name=f"update_{spec.name}",
        description=f"Change fields of {spec.a_noun}; omitted fields keep their values.",
        intent=f"update {spec.a_noun}",
        annotations=ToolAnnotations(read_only=False, destructive=False, idempotent=True, open_world=False),
        kind="update",
        resource=spec.qualified,
        params=params,
        result_type=model,
        fn=update,
        id_resources=id_resources,
    )


def _delete_tool(spec: ResourceSpec[Any], id_resources: Mapping[str, str]) -> Tool:
    model = spec.model
    pname = f"{spec.name}_id"
    guard = spec.guard_delete

    def delete(ctx: RecordContext, **kwargs: Any) -> Deleted:
        rec = ctx.get(model, kwargs[pname], field=pname)
        if guard is not None:
            guard(ctx, None, rec)
        ctx.delete(rec)
        return Deleted(id=rec.id)

    return build_tool(
        service=spec.service,
        short_name=f"delete_{spec.name}",
        description=f"Delete {spec.a_noun} permanently.",
        intent=f"delete {spec.a_noun}",
        annotations=ToolAnnotations(read_only=False, destructive=True, idempotent=True, open_world=False),
        kind="delete",
        resource=spec.qualified,
        params={pname: _id_param(spec, "delete")},
        result_type=Deleted,
        fn=delete,
        id_resources=id_resources,
    )


def _transition_tool(spec: ResourceSpec[Any], verb: str, tr: Transition, id_resources: Mapping[str, str]) -> Tool:
    model = spec.model
    pname = f"{spec.name}_id"
    guard = spec.guard_update
    allowed = ", ".join(repr(s) for s in tr.source)

    def transition(ctx: RecordContext, **kwargs: Any) -> Record:
        rec = ctx.get(model, kwargs[pname], field=pname)
        current = getattr(rec, tr.field)
        if current == tr.target:
            raise RuleViolation(
                f"{spec.noun} {rec.id} already has {tr.field} {tr.target!r}",
                field=pname,
                hint="nothing to do; check the record with the get tool",
            )
        if current not in tr.source:
            raise RuleViolation(
                f"cannot {verb} {spec.noun} {rec.id}: its {tr.field} is {current!r}",
                field=pname,
                hint=f"allowed only when {tr.field} is one of {allowed}",
            )
        new: Record = ctx.update(rec, **{tr.field: tr.target})
        if guard is not None:
            guard(ctx, new, rec)
            return _as_now(ctx, model, new)
        return new

    description = tr.description or (
        f"{verb.replace('_', ' ').capitalize()} {spec.a_noun}: sets {tr.field} to {tr.target!r}; "
        f"allowed when {tr.field} is one of {allowed}."
    )
    return build_tool(
        service=spec.service,
        short_name=f"{verb}_{spec.name}",
        description=description,
        intent=tr.intent,
        annotations=ToolAnnotations(read_only=False, destructive=tr.destructive, idempotent=False, open_world=False),
        kind="transition",
        resource=spec.qualified,
        params={pname: _id_param(spec, verb.replace("_", " "))},
        result_type=model,
        fn=transition,
        id_resources=id_resources,
    )


def _model_doc(model: type[Record]) -> str:
    doc = (model.__doc__ or "").strip().splitlines()
    return doc[0] if doc else ""


def standard_tools(spec: ResourceSpec[Any], id_resources: Mapping[str, str]) -> list[Tool]:
    """Build the standard tools a resource declares.

    Args:
        spec: The resource declaration.
        id_resources: Table of each known resource by qualified name.

    Returns:
        The tools, in a stable order.

    Raises:
        CatalogError: if the declaration names unknown fields or cannot give schemas.
    """
    _check_spec(spec)
    tools: list[Tool] = []
    if spec.create is not False:
        tools.append(_create_tool(spec, id_resources))
    if spec.get:
        tools.append(_get_tool(spec, id_resources))
    if spec.filters is not None:
        tools.append(_list_tool(spec, id_resources))
    if spec.update:
        tools.append(_update_tool(spec, id_resources))
    if spec.delete:
        tools.append(_delete_tool(spec, id_resources))
    for verb, tr in spec.transitions.items():
        tools.append(_transition_tool(spec, verb, tr, id_resources))
    return tools
