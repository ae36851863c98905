"""Helpers shared by the behaviour tests of the services.

Each test module binds one :class:`ServiceTools` to its service and takes the
helpers it needs from it, so that its tests call tools by their short names::

    SHOP = ServiceTools("shop")
    WORLD = SHOP.world
    ok, refused = SHOP.ok, SHOP.refused

The ``ep`` fixture (``tests/services/conftest.py``) gives each test a fresh
episode of its module's ``WORLD``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, TypeVar, cast

from compoworld import Catalog, Episode, Record, World

__all__ = ["ServiceTools", "get", "ok", "refused", "rows", "service_world", "table_of"]

R = TypeVar("R", bound=Record)

SEED = 3
"""The seed of the worlds the service tests run in."""


def service_world(*services: str, seed: int = SEED) -> World:
    """A world of only these services, seeded as the service tests expect."""
    return World.build(Catalog.load(list(services)), seed=seed)


def ok(ep: Episode, tool: str, /, **args: Any) -> Any:
    """Call a tool (full name, e.g. ``shop__get_order``) that must succeed; return its result."""
    res = ep.call(tool, args)
    assert res.ok, res.error
    return res.result


def refused(ep: Episode, tool: str, etype: str, field: str | None, /, **args: Any) -> str:
    """Call a tool (full name) that must fail; check the error and that nothing changed; return the message.

    The error must have type ``etype``, blame ``field`` and carry a hint; the
    episode's state hash and its records must be as they were before the call.
    """
    before = ep.state_hash()
    snap = ep.snapshot()
    res = ep.call(tool, args)
    assert not res.ok, f"{tool} unexpectedly succeeded: {res.result}"
    assert res.error is not None
    assert res.error.type == etype, res.error
    assert res.error.field == field, res.error
    assert res.error.hint, "every refusal tells the agent what to do instead"
    assert ep.state_hash() == before
    assert ep.diff(snap).is_empty
    return res.error.message


def table_of(ep: Episode, model: type[Record]) -> str:
    """The table of a record model in the episode's world, e.g. ``storage.folders`` for ``Folder``."""
    return ep.world.catalog.spec_of(model).table


def rows(ep: Episode, model: type[R]) -> list[R]:
    """The current records of a model's table in an episode, in id order."""
    out = list(ep.iter_records(table_of(ep, model)))
    assert all(isinstance(rec, model) for rec in out)
    return cast("list[R]", out)


def get(ep: Episode, model: type[R], record_id: str) -> R:
    """The current record ``record_id`` of a model's table in an episode, which must exist."""
    rec = ep.get(table_of(ep, model), record_id)
    assert isinstance(rec, model), f"no {model.__name__} {record_id}"
    return rec


class ServiceTools:
    """One service's tools, called by their short names, and the world it seeds on its own.

    Args:
        service: The service's name, e.g. ``"shop"``.
        seed: The seed of :attr:`world`.
    """

    def __init__(self, service: str, *, seed: int = SEED) -> None:
        self.service = service
        self.seed = seed

    @cached_property
    def world(self) -> World:
        """A world of this service alone (built on first use)."""
        return service_world(self.service, seed=self.seed)

    def tool(self, name: str) -> str:
        """The full name of one of the service's tools."""
        return f"{self.service}__{name}"

    def ok(self, ep: Episode, tool: str, /, **args: Any) -> Any:
        """Call a tool of the service that must succeed (see :func:`ok`)."""
        return ok(ep, self.tool(tool), **args)

    def refused(self, ep: Episode, tool: str, etype: str, field: str | None, /, **args: Any) -> str:
        """Call a tool of the service that must fail without changing anything (see :func:`refused`)."""
        return refused(ep, self.tool(tool), etype, field, **args)

    def every(self, ep: Episode, tool: str, /, **filters: Any) -> list[dict[str, Any]]:
        """Every item a list tool returns for ``filters``, following its cursor page by page."""
        out: list[dict[str, Any]] = []
        cursor = None
        while True:
            page = self.ok(ep, tool, limit=100, cursor=cursor, **filters)
            out.extend(page["items"])
            cursor = page["next_cursor"]
            if cursor is None:
                return out

    def items(self, ep: Episode, plural: str, /, **filters: Any) -> list[dict[str, Any]]:
        """The first page (up to 100) of ``list_<plural>`` for ``filters``."""
        return list(self.ok(ep, f"list_{plural}", limit=100, **filters)["items"])

    def first(self, ep: Episode, plural: str, /, **filters: Any) -> dict[str, Any]:
        """The first item of ``list_<plural>`` for ``filters``, which must find one."""
        found = self.items(ep, plural, **filters)
        assert found, f"no {plural} with {filters}"
        return found[0]

    def records(self, table: str) -> list[Any]:
        """The seeded records of a table of :attr:`world` (short name; typed loosely: tests read fields by name)."""
        return list(self.world.tables[f"{self.service}.{table}"].records.values())

    def seeded(self, table: str, pred: Callable[[dict[str, Any]], bool] = lambda r: True) -> list[dict[str, Any]]:
        """Seeded records of a table of :attr:`world` (short name) as JSON, matching ``pred``, in id order."""
        t = self.world.tables[f"{self.service}.{table}"]
        rows = [t.records[rid].model_dump(mode="json") for rid in t.sorted_ids]
        return [r for r in rows if pred(r)]
