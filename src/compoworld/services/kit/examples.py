"""Example providers: valid arguments for a tool, found in a fresh episode (see ``Service.tool(example=...)``).

Most providers pick the first record in some state and call the tool on it;
:func:`first_example` builds such a provider in one line, and
:func:`fixed_example` one whose arguments do not depend on the world.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from compoworld.engine.context import Ctx
from compoworld.engine.records import Record

__all__ = ["first_example", "fixed_example"]

R = TypeVar("R", bound=Record)


def first_example(
    model: type[R],
    param: str | None = None,
    /,
    *,
    where: Mapping[str, Any] | None = None,
    match: Callable[[Ctx, R], bool] | None = None,
    fields: Mapping[str, str] | None = None,
    **arguments: Any,
) -> Callable[[Ctx], dict[str, Any] | None]:
    """A provider that calls the tool on the first record of ``model`` (in id order) that qualifies.

    Args:
        model: The record type the tool acts on.
        param: The parameter that takes the record's id (None: the tool takes no id).
        where: Field values the record must have (e.g. ``{"status": "open"}``); indexed, so cheap.
        match: A further condition on the record, for what equality cannot say (its parent is live,
            a date is still ahead).
        fields: Parameters filled from the record's own fields: ``{"owner_email": "owner"}`` passes the
            record's ``owner`` as ``owner_email``.
        **arguments: The tool's other arguments, as given.

    Returns:
        ``ctx -> {param: id, **fields, **arguments}``, or None when no record qualifies.

    Example:
        ``@service.tool(..., example=first_example(Delivery, "delivery_id", where={"status": "created"},
        reason="merchant_request"))``
    """
    equals = dict(where or {})
    copied = dict(fields or {})

    def example(ctx: Ctx) -> dict[str, Any] | None:
        for record in ctx.select(model, equals):
            if match is None or match(ctx, record):
                out = {} if param is None else {param: record.id}
                out.update({name: getattr(record, source) for name, source in copied.items()})
                # A fresh copy each time: a tool that appends to a list argument must not change the next example.
                return out | copy.deepcopy(arguments)
        return None

    example.__name__ = f"first_{model.__name__.lower()}_example"
    return example


def fixed_example(**arguments: Any) -> Callable[[Ctx], dict[str, Any] | None]:
    """A provider that always gives the same arguments (for tools that name no record).

    Args:
        **arguments: The tool's arguments.
    """

    def example(ctx: Ctx) -> dict[str, Any] | None:
        return copy.deepcopy(arguments)

    example.__name__ = "fixed_example"
    return example
