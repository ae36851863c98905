"""Example providers: valid arguments for a tool, found in a fresh episode (see ``Service.tool(example=...)``).

Most providers pick the first record in some state and call the tool on it;
:func:`first_example` builds such a provider in one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from compoworld.engine.context import Ctx
from compoworld.engine.records import Record

__all__ = ["first_example"]


def first_example(
    model: type[Record], param: str, /, *, where: Mapping[str, Any] | None = None, **arguments: Any
) -> Callable[[Ctx], dict[str, Any] | None]:
    """A provider that calls the tool on the first record of ``model`` whose fields equal ``where``.

    Args:
        model: The record type the tool acts on.
        param: The parameter that takes the record's id.
        where: Field values the record must have (e.g. ``{"status": "open"}``).
        **arguments: The tool's other arguments, as given.

    Returns:
        ``ctx -> {param: id, **arguments}``, or None when no record matches.

    Example:
        ``@service.tool(..., example=first_example(Delivery, "delivery_id", where={"status": "created"},
        reason="merchant_request"))``
    """
    equals = dict(where or {})

    def example(ctx: Ctx) -> dict[str, Any] | None:
        record = ctx.first(model, **equals)
        return None if record is None else {param: record.id, **arguments}

    example.__name__ = f"first_{model.__name__.lower()}_example"
    return example
