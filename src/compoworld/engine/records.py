"""Typed records: the only way a service keeps state.

A resource is a frozen pydantic model deriving from :class:`Record`. Every
service's state is a set of such records in the episode's tables; nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CREATED", "UPDATED", "Deleted", "Generated", "Page", "R", "Record", "field_generated", "generated_fields"]


class Record(BaseModel):
    """Base of every resource record; subclasses declare ``id`` with ``IdOf``."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)

    id: str
    """Unique id of the record."""


R = TypeVar("R", bound=Record)


@dataclass(frozen=True, slots=True)
class Generated:
    """Marks a field the engine fills in instead of the caller.

    Attributes:
        kind: ``created`` (the episode clock at creation), ``updated`` (the clock
            at creation and at every write) or ``sequence`` (a per-table counter
            rendered with ``fmt``, e.g. ``"INV-{n:05d}"``).
        fmt: The format of a ``sequence`` value; ``{n}`` is the counter.
    """

    kind: Literal["created", "updated", "sequence"]
    fmt: str = "{n}"

    def render(self, n: int) -> str:
        """Render the ``n``-th value of a sequence field."""
        return self.fmt.format(n=n)


CREATED = Generated("created")
UPDATED = Generated("updated")


class Page(BaseModel, Generic[R]):
    """One page of a list: items in id order and the cursor of the next page."""

    model_config = ConfigDict(frozen=True)

    items: list[R] = Field(description="Records on this page, in id order.")
    next_cursor: str | None = Field(
        default=None, description="Pass as `cursor` to get the next page; null on the last page."
    )


class Deleted(BaseModel):
    """The result of a delete."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(description="Id of the deleted record.")
    deleted: bool = Field(default=True, description="Always true.")


def field_generated(model: type[Record], name: str) -> Generated | None:
    """Return the :class:`Generated` marker of ``model.name`` if it has one."""
    info = model.model_fields[name]
    for item in info.metadata:
        if isinstance(item, Generated):
            return item
    return None


_GENERATED: dict[type[Record], tuple[tuple[str, Generated], ...]] = {}


def generated_fields(model: type[Record]) -> tuple[tuple[str, Generated], ...]:
    """Return ``(field, marker)`` for every generated field of ``model`` (cached: writes ask often)."""
    cached = _GENERATED.get(model)
    if cached is None:
        found = ((name, field_generated(model, name)) for name in model.model_fields)
        cached = tuple((name, gen) for name, gen in found if gen is not None)
        _GENERATED[model] = cached
    return cached
