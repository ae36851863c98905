"""The service API: how a service module declares its resources and tools.

A service module builds one :class:`Service`, declares its resources with
:meth:`Service.resource` (standard tools come from that declaration), decorates
its domain tools with :meth:`Service.tool`, and seeds its records from the
shared population with :meth:`Service.seeder`. Nothing here runs a tool: the
catalog turns declarations into :class:`~compoworld.engine.tools.Tool` objects and
checks them when it loads.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from compoworld.engine.errors import CatalogError
from compoworld.engine.records import R, Record

__all__ = [
    "ExampleFn",
    "Guard",
    "ResourceSpec",
    "SeedFn",
    "Service",
    "ToolDef",
    "Transition",
]

ExampleFn = Callable[..., dict[str, Any] | None]
"""An example provider: ``example(ctx)`` gives valid arguments from a fresh read-only context, or None."""

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
F = TypeVar("F", bound=Callable[..., Any])

# Declarations name the functions they hold loosely: the context types (``Ctx``, ``SeedContext``) are
# built on the catalog these declarations make up, so naming them here would make an import cycle.
Guard = Callable[..., None]
"""A domain rule on a standard write: ``guard(ctx, new_record_or_None, old_record_or_None)``.

It runs inside the same atomic call, after the write is applied (so queries
see the new state); raising a :class:`~compoworld.engine.errors.ToolFailure` undoes
the whole call. For a delete it runs before the record is removed, with
``new`` None.
"""


@dataclass(frozen=True, slots=True)
class Transition:
    """A status change exposed as its own tool (``close_ticket``, ``ship_order``).

    Attributes:
        field: The status field the transition changes.
        source: Values the field may have for the transition to be allowed.
        target: The value it gets.
        intent: How an instruction says it ("close the ticket").
        description: The tool's description; derived from the other fields if empty.
        destructive: Whether the transition cannot be undone by another tool.
    """

    field: str
    source: tuple[str | bool, ...]
    target: str | bool
    intent: str
    description: str = ""
    destructive: bool = False


_LAZY_SPEC_FIELDS = frozenset({"model", "guard_create", "guard_update", "guard_delete"})
_LAZY_SERVICE_FIELDS = frozenset({"tool_defs", "seeders"})


@dataclass(eq=False, slots=True)
class ResourceSpec(Generic[R]):
    """A declared resource: its record model, its table and its standard tools.

    Attributes:
        service: Name of the owning service.
        name: Singular name (``contact``).
        plural: Plural name (``contacts``), used for the table and list tool.
        model: The record model.
        prefix: Prefix of generated ids (``ct`` gives ``ct_000001``).
        create: Fields a caller may set on create; True means every field that
            is neither ``id`` nor generated; False means no create tool.
        get: Whether to offer a get tool.
        filters: Fields the list tool filters on by equality; None means no list tool.
        search: Text fields the list tool's ``query`` searches (case-insensitive).
        update: Fields an update tool may change; empty means no update tool.
        delete: Whether to offer a delete tool.
        transitions: Status transitions by verb.
        unique: Fields whose value must be unique in the table.
        guard_create: Domain rule checked on a standard create (see :data:`Guard`).
        guard_update: Domain rule checked on a standard update or transition.
        guard_delete: Domain rule checked on a standard delete.
        title: A human noun for the record in descriptions ("support ticket").

    A catalog loaded from its index holds stand-ins whose ``model`` and guards
    are filled in when the service is imported, on first read of one of them.
    """

    service: str
    name: str
    plural: str
    model: type[R]
    prefix: str
    create: bool | tuple[str, ...] = True
    get: bool = True
    filters: tuple[str, ...] | None = ()
    search: tuple[str, ...] = ()
    update: tuple[str, ...] = ()
    delete: bool = True
    transitions: Mapping[str, Transition] = field(default_factory=dict)
    unique: tuple[str, ...] = ()
    guard_create: Guard | None = None
    guard_update: Guard | None = None
    guard_delete: Guard | None = None
    title: str = ""
    _load: Callable[[], None] | None = None

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise accept any attribute name

        def __getattr__(self, name: str) -> Any:
            # Reached only when a slot is unset: a stand-in whose service is not imported yet.
            if name in _LAZY_SPEC_FIELDS:
                load = object.__getattribute__(self, "_load")
                if load is not None:
                    load()
                    return object.__getattribute__(self, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    @property
    def qualified(self) -> str:
        """``service.name``: the resource's name in semantic id types."""
        return f"{self.service}.{self.name}"

    @property
    def table(self) -> str:
        """``service.plural``: the name of the resource's table."""
        return f"{self.service}.{self.plural}"

    @property
    def noun(self) -> str:
        """The human noun for one record."""
        return self.title or self.name.replace("_", " ")

    @property
    def a_noun(self) -> str:
        """The noun with its indefinite article ("an invoice", "a contact")."""
        noun = self.noun
        return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


@dataclass(eq=False, slots=True)
class ToolDef:
    """A domain tool as declared, before the catalog derives its schemas.

    Attributes:
        fn: The function; its first parameter is the call's context.
        intent: How an instruction phrases what the tool does.
        write: Whether it may write.
        destructive: Whether its writes destroy or irreversibly change data.
        idempotent: Whether repeating the same call changes nothing more.
        open_world: Whether it models an open, non-deterministic outside world.
        example: Optional provider of valid arguments from a fresh context, for
            tools whose valid arguments the conformance suite cannot guess.
        name: The tool's short name (the function's name unless given).
    """

    fn: Callable[..., Any]
    intent: str
    write: bool
    destructive: bool
    idempotent: bool
    open_world: bool
    example: ExampleFn | None
    name: str


SeedFn = Callable[..., None]
"""A seeder: ``seed(s)`` with the service's :class:`~compoworld.engine.state.SeedContext`."""


class Service:
    """One service: a named set of resources and tools over the shared world.

    Args:
        name: Short lowercase name; tool names are ``name__tool``.
        title: Display name.
        category: Category such as ``crm`` or ``email``.
        modeled_on: The public API contract the service follows (product and version).
        description: One paragraph on what the service does.

    A catalog loaded from its index holds stand-ins built without importing
    the service: ``tool_defs`` and ``seeders`` are filled in when it is
    imported, on first read of one of them.
    """

    def __init__(self, name: str, *, title: str, category: str, modeled_on: str, description: str) -> None:
        if not _NAME.match(name) or "__" in name:
            raise CatalogError(f"service name {name!r} must match [a-z][a-z0-9_]* without '__'")
        self.name = name
        # The defining module, for the catalog fingerprint; tests may build services anywhere.
        self.module: str = sys._getframe(1).f_globals.get("__name__", "")
        self.title = title
        self.category = category
        self.modeled_on = modeled_on
        self.description = description
        self.resources: list[ResourceSpec[Any]] = []
        self.tool_defs: list[ToolDef] = []
        self.seeders: list[SeedFn] = []
        self._load: Callable[[], None] | None = None

    if not TYPE_CHECKING:  # hidden from mypy, which would otherwise accept any attribute name

        def __getattr__(self, name: str) -> Any:
            # Reached only for an attribute never set: a stand-in whose service is not imported yet.
            if name in _LAZY_SERVICE_FIELDS:
                load = self.__dict__.get("_load")
                if load is not None:
                    load()
                    return self.__dict__[name]
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def resource(
        self,
        model: type[R],
        *,
        name: str,
        plural: str,
        prefix: str,
        create: bool | Sequence[str] = True,
        get: bool = True,
        filters: Sequence[str] | None = (),
        search: Sequence[str] = (),
        update: Sequence[str] = (),
        delete: bool = True,
        transitions: Mapping[str, Transition] | None = None,
        unique: Sequence[str] = (),
        guard_create: Guard | None = None,
        guard_update: Guard | None = None,
        guard_delete: Guard | None = None,
        title: str = "",
    ) -> ResourceSpec[R]:
        """Declare a resource and the standard tools over it.

        Args:
            model: The record model (a :class:`~compoworld.engine.records.Record` subclass).
            name: Singular resource name.
            plural: Plural name, used for the table and the list tool.
            prefix: Prefix of generated ids.
            create: Fields settable on create (True: all but id and generated; False: no tool).
            get: Whether to offer ``get_<name>``.
            filters: Equality filters of ``list_<plural>``; None: no list tool.
            search: Text fields searched by the list tool's ``query``.
            update: Fields ``update_<name>`` may change; empty: no update tool.
            delete: Whether to offer ``delete_<name>``.
            transitions: Status transitions, each becoming ``<verb>_<name>``.
            unique: Fields whose values must be unique.
            guard_create: Domain rule on a create (see :data:`Guard`).
            guard_update: Domain rule on an update or transition.
            guard_delete: Domain rule on a delete.
            title: Human noun for the record.

        Returns:
            The resource's spec; pass its model to the context's table methods.
        """
        if not (isinstance(model, type) and issubclass(model, Record)):
            raise CatalogError(f"{self.name}: resource {name!r} model must subclass Record")
        for n in (name, plural):
            if not _NAME.match(n):
                raise CatalogError(f"{self.name}: resource name {n!r} must match [a-z][a-z0-9_]*")
        spec: ResourceSpec[R] = ResourceSpec(
            service=self.name,
            name=name,
            plural=plural,
            model=model,
            prefix=prefix,
            create=create if isinstance(create, bool) else tuple(create),
            get=get,
            filters=None if filters is None else tuple(filters),
            search=tuple(search),
            update=tuple(update),
            delete=delete,
            transitions=dict(transitions or {}),
            unique=tuple(unique),
            guard_create=guard_create,
            guard_update=guard_update,
            guard_delete=guard_delete,
            title=title,
        )
        self.resources.append(spec)
        return spec

    def tool(
        self,
        *,
        intent: str,
        write: bool = False,
        destructive: bool = False,
        idempotent: bool | None = None,
        open_world: bool = False,
        example: ExampleFn | None = None,
        name: str | None = None,
    ) -> Callable[[F], F]:
        """Declare a domain tool; the decorated function is returned unchanged.

        The function's first parameter is the call's :class:`~compoworld.engine.context.Ctx`;
        the others are the tool's parameters, typed, with Google-style ``Args:``
        docs. Its return annotation is the result type.

        Args:
            intent: How an instruction phrases what the tool does.
            write: Whether the tool may write.
            destructive: Whether its writes destroy or irreversibly change data.
            idempotent: Whether repeating the call changes nothing more
                (default: True for reads, False for writes).
            open_world: Whether the tool models an open outside world.
            example: Provider of valid arguments for the conformance suite.
            name: Tool name if not the function's.

        Returns:
            A decorator registering the function.
        """

        def register(fn: F) -> F:
            self.tool_defs.append(
                ToolDef(
                    fn=fn,
                    intent=intent,
                    write=write,
                    destructive=destructive,
                    idempotent=(not write) if idempotent is None else idempotent,
                    open_world=open_world,
                    example=example,
                    name=name or fn.__name__,
                )
            )
            return fn

        return register

    def seeder(self, fn: SeedFn) -> SeedFn:
        """Register a function that seeds this service's records from the population."""
        self.seeders.append(fn)
        return fn

    def __repr__(self) -> str:
        return f"Service({self.name!r})"
