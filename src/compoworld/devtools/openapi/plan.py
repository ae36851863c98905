"""From a document to a service plan: resources, their fields, tools, state machines and what is left open.

The plan is the scaffold's every decision in data, before any code is written:
which schemas are resources (a schema that operations create, fetch or list
under a path of its own), which operations are the standard tools over them,
which are status transitions (``POST /pulls/{id}/merge`` moving ``state`` to
``merged``), which are queries (``GET /pet/findByStatus``), and what the fields
mean. What it cannot decide becomes a :class:`Todo`, never a guess: an
operation that is none of those, a free-form object, a status that only an
update moves, an id the document types as an integer.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Any

from compoworld.devtools.openapi.document import REF, Document, Operation
from compoworld.devtools.openapi.semantics import infer_semantic, snake, tokens

__all__ = [
    "FieldPlan",
    "QueryPlan",
    "ResourcePlan",
    "ServicePlan",
    "Todo",
    "TransitionPlan",
    "ValuePlan",
    "plan_service",
]

_ID_NAMES = ("id", "sid", "uuid", "guid", "key")
_NAVIGATION = ("url", "links", "self", "href", "_links", "uri")
_PAGING = (
    "limit",
    "offset",
    "page",
    "page_size",
    "page_token",
    "cursor",
    "per_page",
    "starting_after",
    "ending_before",
)
_CREATED = ("date_created", "created_at", "created", "creation_date", "created_on", "create_time", "date_added")
_UPDATED = ("date_updated", "updated_at", "updated", "modified_at", "date_modified", "last_modified", "update_time")
_NAMEABLE = frozenset({"Email", "Phone", "PersonName", "CompanyName", "Domain"})
_RESERVED = frozenset({"schema", "json", "copy", "dict", "fields", "construct", "validate"})
_CLASS_RESERVED = frozenset({"Service", "Record", "Value", "Transition", "SeedContext", "Ctx", "Field", "Literal"})
_VERB_TARGETS = {
    # verb in a path or operationId -> status words it sets, in preference order
    "merge": ("merged",),
    "decline": ("declined",),
    "close": ("closed",),
    "reopen": ("open", "opened", "reopened"),
    "open": ("open", "opened"),
    "approve": ("approved",),
    "reject": ("rejected",),
    "cancel": ("canceled", "cancelled"),
    "archive": ("archived",),
    "unarchive": ("active",),
    "publish": ("published",),
    "unpublish": ("draft", "unpublished"),
    "complete": ("completed", "complete"),
    "ship": ("shipped",),
    "deliver": ("delivered",),
    "activate": ("active", "activated"),
    "deactivate": ("inactive", "deactivated"),
    "suspend": ("suspended",),
    "resume": ("active", "resumed"),
    "pause": ("paused",),
    "start": ("started", "in_progress", "in-progress", "running"),
    "stop": ("stopped",),
    "submit": ("submitted",),
    "confirm": ("confirmed",),
    "void": ("void", "voided"),
    "resolve": ("resolved",),
    "lock": ("locked",),
    "unlock": ("unlocked", "open"),
}


@dataclass
class Todo:
    """One decision left to the author.

    Attributes:
        where: What it is about (an operation's label, ``Resource.field``).
        what: What was not decided and what the scaffold did instead.
    """

    where: str
    what: str


@dataclass
class FieldPlan:
    """One field of a record or value object.

    Attributes:
        name: The Python field name (snake case).
        source: The property's name in the document.
        kind: ``scalar``, ``enum``, ``value`` (a nested object), ``array`` or ``id``.
        py: The base Python type (``str``, ``int``, ``Email``, ``PetId``, a value class's name).
        required: Whether the field has no default (it must be given on create).
        description: The document's description.
        semantic: The engine type or ``IdOf(...)`` it got, or None.
        reason: Why (or why it stayed generic).
        enum: Values of an enumeration.
        many: Whether it is a list (a tuple in the record).
        generated: ``CREATED`` or ``UPDATED`` for timestamps the engine fills in.
        ref: The resource an id field points at.
        example: The document's example, if any.
        constraints: Constraints kept from the document (``min_length`` …), for generic fields.
        default: The document's default, if any.
    """

    name: str
    source: str
    kind: str
    py: str
    required: bool = False
    description: str = ""
    semantic: str | None = None
    reason: str = ""
    enum: tuple[Any, ...] = ()
    many: bool = False
    generated: str | None = None
    ref: str | None = None
    example: Any = None
    constraints: dict[str, Any] = field(default_factory=dict)
    default: Any = None


@dataclass
class ValuePlan:
    """A nested object that is not a resource (``Category`` inside ``Pet``)."""

    class_name: str
    description: str
    fields: list[FieldPlan]


@dataclass
class TransitionPlan:
    """A status change recognised from an operation."""

    verb: str
    field: str
    source: tuple[str, ...]
    target: str
    operation: str
    intent: str


@dataclass
class QueryPlan:
    """A read operation that filters one resource's records by fields (``findPetsByStatus``)."""

    name: str
    resource: str
    params: list[tuple[str, FieldPlan, bool]]
    summary: str
    operation: str


@dataclass
class ResourcePlan:
    """One resource and its standard tools."""

    name: str
    plural: str
    class_name: str
    prefix: str
    schema_name: str
    description: str
    key: tuple[str, ...]
    fields: list[FieldPlan] = field(default_factory=list)
    parents: list[str] = field(default_factory=list)
    create: list[str] | None = None
    get: bool = False
    listed: bool = False
    keyed_by: tuple[str, str] | None = None
    update: list[str] = field(default_factory=list)
    delete: bool = False
    filters: list[str] = field(default_factory=list)
    search: list[str] = field(default_factory=list)
    status: str | None = None
    transitions: list[TransitionPlan] = field(default_factory=list)
    operations: dict[str, str] = field(default_factory=dict)
    schema: dict[str, Any] = field(default_factory=dict)

    def field_named(self, name: str) -> FieldPlan | None:
        """The field called ``name``, if any."""
        return next((f for f in self.fields if f.name == name), None)


@dataclass
class ServicePlan:
    """Everything the scaffold decided for one document."""

    name: str
    title: str
    category: str
    modeled_on: str
    description: str
    source: str
    resources: list[ResourcePlan]
    values: list[ValuePlan]
    queries: list[QueryPlan]
    todos: list[Todo]
    operations: list[dict[str, str]]

    def resource(self, name: str) -> ResourcePlan:
        """The resource called ``name``."""
        return next(r for r in self.resources if r.name == name)


def plan_service(doc: Document, name: str, category: str = "custom") -> ServicePlan:
    """Decide the service a document describes.

    Args:
        doc: The loaded document.
        name: The service's name (``[a-z][a-z0-9_]*``).
        category: Its catalog category.

    Returns:
        The plan, with every open decision listed as a TODO.
    """
    return _Planner(doc, name, category).run()


class _Planner:
    def __init__(self, doc: Document, name: str, category: str) -> None:
        self.doc = doc
        self.name = name
        self.category = category
        self.todos: list[Todo] = []
        self.values: dict[str, ValuePlan] = {}
        self.resources: dict[str, ResourcePlan] = {}
        self.by_key: dict[tuple[str, ...], ResourcePlan] = {}
        self.queries: list[QueryPlan] = []
        self.done: dict[str, tuple[str, str]] = {}

    # -- the steps ------------------------------------------------------------------------------

    def run(self) -> ServicePlan:
        self._find_resources()
        self._find_parents()
        for res in self.resources.values():
            self._fields(res)
        self._implied_fields()
        for op in self.doc.operations:
            self._classify(op)
        for res in self.resources.values():
            self._finish(res)
        operations = []
        for op in self.doc.operations:
            kind, tool = self.done.get(op.label, ("todo", ""))
            operations.append({"operation": op.label, "kind": kind, "tool": tool})
            if kind == "todo" and not any(t.where == op.label for t in self.todos):
                self.todos.append(Todo(op.label, self._why_not(op)))
        info = f"{self.doc.title} {self.doc.version}".strip()
        return ServicePlan(
            name=self.name,
            title=self.doc.title,
            category=self.category,
            modeled_on=f"{info} (OpenAPI {self.doc.openapi} document {self.doc.source})",
            description=_first_paragraph(self.doc.description) or f"The {self.doc.title} API.",
            source=self.doc.source,
            resources=list(self.resources.values()),
            values=list(self.values.values()),
            queries=self.queries,
            todos=self.todos,
            operations=operations,
        )

    def _find_resources(self) -> None:
        """A resource is an object schema with an id that operations fetch, list or create under a path of its own.

        Item reads come first, so that ``/pet/findByStatus`` is seen as an action on the ``/pet``
        collection rather than a collection of its own.
        """
        for op in self.doc.operations:
            segs = op.segments
            one = _object(op.success())
            if op.method == "get" and segs and _is_param(segs[-1]) and one is not None:
                self._resource(tuple(segs[:-1]), one)
        for op in self.doc.operations:
            segs = op.segments
            many = _items(op.success())
            listed = op.method == "get" and segs and not _is_param(segs[-1]) and many is not None
            if listed and many is not None and not self._is_action(segs) and _has_id(many):
                self._resource(tuple(segs), many)
        for op in self.doc.operations:
            # Resources only created (no get or list): POST on a collection returning the object.
            segs = op.segments
            body = _object(op.success()) or _object(op.body)
            if op.method == "post" and segs and not _is_param(segs[-1]) and body is not None and _has_id(body):
                key = tuple(segs)
                known = {r.schema_name for r in self.resources.values()}
                if key not in self.by_key and not self._is_action(segs) and self._schema_name(body, key) not in known:
                    self._resource(key, body)

    def _is_action(self, segs: list[str]) -> bool:
        # /pet/findByStatus, /user/login: a literal under a known collection; /pet/{id}/uploadImage: under an item.
        if len(segs) < 2:
            return False
        if _is_param(segs[-2]):
            return tuple(segs[:-2]) in self.by_key
        return tuple(segs[:-1]) in self.by_key

    def _schema_name(self, schema: dict[str, Any], key: tuple[str, ...]) -> str:
        ref = schema.get(REF)
        if ref:
            return str(ref)
        literal = next((s for s in reversed(key) if not _is_param(s)), "item")
        return _singular(snake(literal))

    def _resource(self, key: tuple[str, ...], schema: dict[str, Any]) -> None:
        schema_name = self._schema_name(schema, key)
        for res in self.resources.values():
            if res.schema_name == schema_name:
                self.by_key.setdefault(key, res)
                return
        name = _resource_name(schema_name)
        while name in self.resources:
            name += "_item"
        literal = next((s for s in reversed(key) if not _is_param(s)), name)
        plural = snake(literal)
        if plural == name or _singular(plural) != name:
            plural = _plural(name)
        res = ResourcePlan(
            name=name,
            plural=plural,
            class_name=_class_name(name),
            prefix=_prefix(name, {r.prefix for r in self.resources.values()}),
            schema_name=schema_name,
            description=str(schema.get("description") or "").strip(),
            key=key,
            schema=schema,
        )
        self.resources[name] = res
        self.by_key[key] = res

    def _find_parents(self) -> None:
        for key, res in self.by_key.items():
            if key != res.key:
                continue
            for i, seg in enumerate(key):
                if _is_param(seg):
                    parent = self.by_key.get(key[:i])
                    if parent is not None and parent is not res and parent.name not in res.parents:
                        res.parents.append(parent.name)

    def _fields(self, res: ResourcePlan) -> None:
        props: dict[str, Any] = res.schema.get("properties") or {}
        taken: set[str] = set()
        for parent in res.parents:
            pname = f"{parent}_id"
            source = next((p for p in props if snake(p) in (f"{parent}_id", f"{parent}_sid")), pname)
            res.fields.append(
                FieldPlan(
                    name=pname,
                    source=source,
                    kind="id",
                    py=f"{self.resources[parent].class_name}Id",
                    required=True,
                    description=str((props.get(source) or {}).get("description") or f"The {parent} it belongs to."),
                    semantic=f'IdOf("{self.name}.{parent}")',
                    reason="the parent in the path",
                    ref=parent,
                )
            )
            taken.update({pname, snake(source)})
        for prop, schema in props.items():
            fname = snake(prop)
            if fname in taken:
                continue
            if fname in _ID_NAMES or fname in _NAVIGATION:
                if fname in _ID_NAMES:
                    kind = schema.get("type", "string")
                    if kind != "string":
                        self.todos.append(
                            Todo(
                                f"{res.class_name}.{prop}",
                                f"the document types the id as {kind}; records use generated string ids "
                                f"({res.prefix}_000001)",
                            )
                        )
                continue
            plan = self._field(res.name, prop, schema, res.class_name)
            if plan is not None:
                if plan.name in taken:
                    continue
                taken.add(plan.name)
                res.fields.append(plan)

    def _implied_fields(self) -> None:
        """A list that filters on an enumeration the schema lacks (``state``: open, merged …) implies the field."""
        for op in self.doc.operations:
            segs = op.segments
            if op.method != "get" or not segs or _is_param(segs[-1]):
                continue
            res = self.by_key.get(tuple(segs))
            if res is None or _items(op.success()) is None:
                continue
            for p in op.parameters:
                name = snake(p.name)
                values = tuple(v for v in p.schema.get("enum") or () if isinstance(v, str))
                if p.location == "query" and values and res.field_named(name) is None and name not in _PAGING:
                    res.fields.append(
                        FieldPlan(
                            name=name,
                            source=p.name,
                            kind="enum",
                            py="str",
                            enum=values,
                            description=p.description,
                            reason="an enumeration the list filters on",
                            default=p.schema.get("default"),
                        )
                    )
                    self.todos.append(
                        Todo(
                            f"{res.class_name}.{name}",
                            f"not in the {res.schema_name} schema, but {op.operation_id} filters on it "
                            f"({', '.join(values)}); added as a field",
                        )
                    )

    def _field(self, holder: str, prop: str, schema: dict[str, Any], owner: str) -> FieldPlan | None:
        where = f"{owner}.{prop}"
        name = snake(prop)
        if keyword.iskeyword(name) or name in _RESERVED or name.startswith("model_"):
            name = f"{name}_value"
        desc = " ".join(str(schema.get("description") or "").split())
        kind = schema.get("type") or ("object" if "properties" in schema else "string")
        if "x-cw-union" in schema:
            self.todos.append(Todo(where, "one of several shapes (oneOf/anyOf); not kept"))
            return None
        if kind == "array":
            inner = self._field(holder, prop, schema.get("items") or {"type": "string"}, owner)
            if inner is None:
                return None
            inner.many = True
            if inner.kind == "id" and not inner.name.endswith("_ids"):
                inner.name = f"{_singular(name)}_ids"
            inner.description = desc or inner.description
            inner.required = False
            return inner
        target = self._resource_ref(name, schema)
        if target is None and schema.get("x-cw-cycle"):
            self.todos.append(Todo(where, f"refers back to {schema.get(REF)} (a cycle); not kept"))
            return None
        if target is not None:
            stem = name[:-4] if name.endswith("_sid") else name
            fname = stem if stem.endswith(("_id", "_ids")) else f"{stem}_id"
            if schema.get(REF):
                self.todos.append(
                    Todo(where, f"the document embeds a {target}; the record keeps its id ({fname}) instead")
                )
            return FieldPlan(
                name=fname,
                source=prop,
                kind="id",
                py=f"{self.resources[target].class_name}Id",
                description=desc or f"The {target}.",
                semantic=f'IdOf("{self.name}.{target}")',
                reason=f"names or embeds a {target}",
                ref=target,
            )
        if kind == "object":
            props = schema.get("properties") or {}
            if not props:
                self.todos.append(Todo(where, "a free-form object (no properties); not kept"))
                return None
            cls = self._value(str(schema.get(REF) or prop), schema, holder)
            return FieldPlan(name=name, source=prop, kind="value", py=cls, description=desc, reason="a nested object")
        if "enum" in schema:
            values = tuple(v for v in schema["enum"] if v is not None)
            if not values or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
                self.todos.append(Todo(where, "an enumeration of mixed or empty values; not kept"))
                return None
            return FieldPlan(
                name=name,
                source=prop,
                kind="enum",
                py="str" if isinstance(values[0], str) else "int",
                enum=values,
                description=desc,
                reason="an enumeration",
                default=schema.get("default"),
                example=schema.get("example"),
            )
        inference = infer_semantic(prop, schema, holder)
        base = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}.get(str(kind))
        if base is None:
            self.todos.append(Todo(where, f"type {kind} is not modelled; not kept"))
            return None
        plan = FieldPlan(
            name=name,
            source=prop,
            kind="scalar",
            py=inference.type_name or base,
            description=desc,
            semantic=inference.type_name,
            reason=inference.reason,
            example=schema.get("example"),
            default=schema.get("default"),
        )
        if inference.type_name is None:
            plan.constraints = _constraints(schema, base)
            if "pattern" in schema:
                self.todos.append(Todo(where, f"must match {schema['pattern']}; the seeder may not meet it"))
        if inference.type_name == "DateTime" and name in _CREATED:
            plan.generated = "CREATED"
        elif inference.type_name == "DateTime" and name in _UPDATED:
            plan.generated = "UPDATED"
        return plan

    def _resource_ref(self, name: str, schema: dict[str, Any]) -> str | None:
        ref = schema.get(REF)
        if ref:
            for res in self.resources.values():
                if res.schema_name == ref:
                    return res.name
            return None
        if schema.get("type", "string") not in ("string", "integer"):
            return None
        for res in self.resources.values():
            if name in (f"{res.name}_id", f"{res.name}_sid", f"{res.name}_ids"):
                return res.name
        for res in self.resources.values():
            if name.endswith((f"_{res.name}_id", f"_{res.name}_sid")):
                return res.name
        return None

    def _value(self, label: str, schema: dict[str, Any], holder: str) -> str:
        cls = _class_name(snake(label))
        if cls in self.values or any(r.class_name == cls for r in self.resources.values()):
            existing = self.values.get(cls)
            if existing is not None:
                return cls
            cls = f"{cls}Value"
        plan = ValuePlan(class_name=cls, description=str(schema.get("description") or "").strip(), fields=[])
        self.values[cls] = plan
        required = set(schema.get("required") or [])
        for prop, sub in (schema.get("properties") or {}).items():
            f = self._field(snake(label), prop, sub, cls)
            if f is not None:
                f.required = prop in required and not f.many and f.kind != "id"
                plan.fields.append(f)
        return cls

    # -- operations -----------------------------------------------------------------------------

    def _classify(self, op: Operation) -> None:
        segs = op.segments
        if not segs:
            return
        item = _is_param(segs[-1])
        key = tuple(segs[:-1]) if item else tuple(segs)
        res = self.by_key.get(key)
        if op.method == "get":
            if res is not None and item and _object(op.success()) is not None:
                self._mark(op, res, "get", f"get_{res.name}")
                res.get = True
                by = res.field_named(snake(segs[-1][1:-1]))
                if by is not None and by.semantic in _NAMEABLE and not by.many:
                    # The document reads it by a value people know (/PhoneNumbers/{PhoneNumber}), not by an id.
                    res.keyed_by = (by.name, op.label)
                return
            if res is not None and not item and _items(op.success()) is not None:
                self._mark(op, res, "list", f"list_{res.plural}")
                res.listed = True
                for p in op.parameters:
                    f = res.field_named(snake(p.name))
                    if p.location == "query" and f is not None and _filterable(f) and f.name not in res.filters:
                        res.filters.append(f.name)
                    elif p.location == "query" and f is not None and not _filterable(f):
                        self.todos.append(
                            Todo(op.label, f"query parameter {p.name} filters on {f.name}, a list or text; not offered")
                        )
                    elif p.location == "query" and f is None and snake(p.name) not in _PAGING:
                        self.todos.append(
                            Todo(op.label, f"query parameter {p.name} matches no field of {res.name}; not offered")
                        )
                return
            self._query(op)
            return
        if op.method == "post" and res is not None and not item:
            fields = self._body_fields(op, res)
            if res.create is None:
                res.create = fields
                required = {snake(r) for r in (op.body or {}).get("required") or []}
                for f in res.fields:
                    if f.name in required and f.name in fields and not f.many:
                        f.required = True
                self._mark(op, res, "create", f"create_{res.name}")
                return
        if op.method in ("put", "patch", "post") and res is not None and (item or op.method != "post"):
            fields = [f for f in self._body_fields(op, res) if f not in {f"{p}_id" for p in res.parents}]
            if fields:
                res.update = sorted(set(res.update) | set(fields), key=lambda n: [f.name for f in res.fields].index(n))
                self._mark(op, res, "update", f"update_{res.name}")
                return
        if op.method == "delete" and res is not None and item:
            res.delete = True
            self._mark(op, res, "delete", f"delete_{res.name}")
            return
        if op.method in ("post", "put", "patch") and len(segs) >= 2 and _is_param(segs[-2]):
            owner = self.by_key.get(tuple(segs[:-2]))
            if owner is not None and self._transition(op, owner, segs[-1]):
                return

    def _body_fields(self, op: Operation, res: ResourcePlan) -> list[str]:
        body = op.body or {}
        names: list[str] = []
        if not body and op.method != "get":
            # POST /pet/{petId}?name=…&status=…: a write whose values come as query parameters.
            for p in op.parameters:
                f = res.field_named(snake(p.name))
                if p.location == "query" and f is not None and f.generated is None and f.name not in names:
                    names.append(f.name)
        parents = {f"{p}_id" for p in res.parents}
        for prop in body.get("properties") or {}:
            f = res.field_named(snake(prop)) or next((x for x in res.fields if x.source == prop), None)
            if f is None and _resource_ref_name(snake(prop), res) is not None:
                f = res.field_named(f"{snake(prop)}_id")
            if f is not None and f.generated is None:
                if f.name not in names:
                    names.append(f.name)
            elif snake(prop) not in _ID_NAMES:
                self.todos.append(
                    Todo(op.label, f"body parameter {prop} is not a field of {res.name}; it is not taken")
                )
        names = [n for n in names if n not in parents]
        # The parent comes from the path: creating a child names its parent.
        return [*[f"{p}_id" for p in res.parents], *names] if op.method == "post" and res.create is None else names

    def _transition(self, op: Operation, res: ResourcePlan, action: str) -> bool:
        status = next((f for f in res.fields if f.kind == "enum" and _is_status(f.name)), None)
        verb = snake(action)
        words = [verb, *tokens(op.operation_id)]
        if status is None:
            return False
        values = [str(v) for v in status.enum]
        for word in words:
            for target in _VERB_TARGETS.get(word, ()):
                if target in values:
                    source = tuple(v for v in values if v != target)
                    res.status = status.name
                    res.transitions.append(
                        TransitionPlan(
                            verb=word,
                            field=status.name,
                            source=source,
                            target=target,
                            operation=op.label,
                            intent=(op.summary or f"{word} the {res.name}").rstrip(".").lower(),
                        )
                    )
                    self.todos.append(
                        Todo(
                            op.label,
                            f"{word}_{res.name} moves {status.name} to {target} from any other value "
                            f"({', '.join(source)}); restrict the sources the product allows",
                        )
                    )
                    self._mark(op, res, "transition", f"{word}_{res.name}")
                    return True
        return False

    def _query(self, op: Operation) -> None:
        target = _items(op.success())
        if target is None:
            return
        res = next((r for r in self.resources.values() if r.schema_name == target.get(REF)), None)
        if res is None:
            return
        params: list[tuple[str, FieldPlan, bool]] = []
        for p in op.parameters:
            if p.location not in ("query", "path"):
                continue
            f = res.field_named(snake(p.name))
            if f is None or not _filterable(f):
                if p.required:
                    return
                if snake(p.name) not in _PAGING:
                    self.todos.append(Todo(op.label, f"parameter {p.name} matches no field of {res.name}; not offered"))
                continue
            params.append((snake(p.name), f, p.required or p.location == "path"))
        if not params:
            return
        name = snake(op.operation_id)
        taken = {q.name for q in self.queries}
        if name in taken:
            name = f"{name}_{len(taken)}"
        self.queries.append(
            QueryPlan(
                name=name,
                resource=res.name,
                params=params,
                summary=op.summary or f"Find {res.plural} by {', '.join(p[0] for p in params)}.",
                operation=op.label,
            )
        )
        self._mark(op, res, "query", name)

    def _mark(self, op: Operation, res: ResourcePlan, kind: str, tool: str) -> None:
        self.done[op.label] = (kind, tool)
        res.operations[kind] = op.label

    def _finish(self, res: ResourcePlan) -> None:
        status = next((f for f in res.fields if f.kind == "enum" and _is_status(f.name)), None)
        if status is not None:
            res.status = status.name
            if status.name not in res.filters:
                res.filters.append(status.name)
            if not res.transitions:
                moved = "only through update" if status.name in res.update else "through no operation"
                self.todos.append(
                    Todo(
                        f"{res.class_name}.{status.source}",
                        f"a status ({', '.join(map(str, status.enum))}) that moves {moved}; declare the "
                        "transitions the product allows",
                    )
                )
        for parent in res.parents:
            if f"{parent}_id" not in res.filters:
                res.filters.insert(0, f"{parent}_id")
        for f in res.fields:
            if f.kind == "id" and not f.many and f.name not in res.filters:
                res.filters.append(f.name)
        if res.keyed_by is not None and not res.listed:
            key, label = res.keyed_by
            res.listed = True
            res.filters.append(key)
            self.todos.append(
                Todo(
                    label,
                    f"reads a {res.name} by its {key}; records keep generated ids, so list_{res.plural} filtered on "
                    f"{key} offers that lookup",
                )
            )
        named = [f.name for f in res.fields if f.semantic in _NAMEABLE and not f.many and f.name not in res.filters]
        if res.listed and named:
            # How people find a record ("the participant at +1 415 …"): a lookup the agent can start from.
            res.filters += named
            self.todos.append(
                Todo(
                    f"list_{res.plural}",
                    f"also filters on {', '.join(named)}, values people name records by; the document's list "
                    "does not: drop them if the product cannot",
                )
            )
        res.search = [f.name for f in res.fields if _searchable(f)][:3]
        if res.create is None and (res.get or res.listed):
            self.todos.append(
                Todo(res.class_name, "the document has no operation that creates it; records come from the seeder")
            )
        for f in res.fields:
            # A field the caller never sets and that has no default would make records impossible to create.
            if f.required and (res.create is None or f.name not in res.create):
                f.required = False

    def _why_not(self, op: Operation) -> str:
        if op.method == "get":
            return "a read that returns no resource's records, or filters on parameters that are not fields"
        return "neither a standard write of a resource nor a status change it could recognise; not generated"


# -- helpers --------------------------------------------------------------------------------------


def _is_param(seg: str) -> bool:
    return seg.startswith("{") and seg.endswith("}")


def _object(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    if schema and schema.get("type", "object") == "object" and schema.get("properties"):
        props = schema["properties"]
        arrays = [v for v in props.values() if v.get("type") == "array" and _object(v.get("items"))]
        if arrays and len(props) <= 3 and {"meta", "links", "next", "total", "page", "count"} & set(props):
            return None  # a list envelope, not an object
        return schema
    return None


def _items(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    if not schema:
        return None
    if schema.get("type") == "array":
        return _object(schema.get("items"))
    props = schema.get("properties") or {}
    arrays = [v for v in props.values() if v.get("type") == "array" and _object(v.get("items"))]
    if len(arrays) == 1 and len(props) <= 4:
        return _object(arrays[0].get("items"))
    return None


def _has_id(schema: dict[str, Any]) -> bool:
    return any(
        snake(p) in _ID_NAMES or snake(p) in ("username", "slug", "name") for p in schema.get("properties") or {}
    )


def _is_status(name: str) -> bool:
    return name in ("status", "state") or name.endswith(("_status", "_state"))


def _searchable(f: FieldPlan) -> bool:
    if f.kind != "scalar" or f.many:
        return False
    if f.py in ("Title", "Text", "PersonName", "CompanyName"):
        return True
    words = set(f.name.split("_"))
    return f.py == "str" and "pattern" not in f.constraints and bool(words & {"name", "title", "label", "subject"})


def _filterable(f: FieldPlan) -> bool:
    return not f.many and f.kind in ("scalar", "enum", "id") and f.py not in ("float", "Text")


def _resource_ref_name(name: str, res: ResourcePlan) -> str | None:
    return name if res.field_named(f"{name}_id") is not None else None


def _constraints(schema: dict[str, Any], base: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    pairs = {
        "str": (("minLength", "min_length"), ("maxLength", "max_length"), ("pattern", "pattern")),
        "int": (("minimum", "ge"), ("maximum", "le")),
        "float": (("minimum", "ge"), ("maximum", "le")),
    }
    for key, arg in pairs.get(base, ()):
        if key in schema and schema[key] is not None:
            out[arg] = schema[key]
    return out


def _resource_name(schema_name: str) -> str:
    last = schema_name.rsplit(".", 1)[-1]
    name = snake(last)
    name = re.sub(r"_(resource|object|model|response|dto)$", "", name)
    return name or "item"


def _class_name(name: str) -> str:
    cls = "".join(part.capitalize() for part in name.split("_") if part) or "Item"
    return f"{cls}Record" if cls in _CLASS_RESERVED else cls


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _plural(word: str) -> str:
    if word.endswith("y") and word[-2:-1] not in tuple("aeiou"):
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def _prefix(name: str, taken: set[str]) -> str:
    letters = "".join(part[0] for part in name.split("_"))
    for candidate in (name[:3] if "_" not in name else letters + name.split("_")[-1][1:3], name[:4], letters):
        if candidate and candidate not in taken:
            return candidate
    n = 2
    while f"{name[:3]}{n}" in taken:
        n += 1
    return f"{name[:3]}{n}"


def _first_paragraph(text: str) -> str:
    para = text.strip().split("\n\n", 1)[0]
    return " ".join(para.split())
