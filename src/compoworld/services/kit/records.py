"""Record bases a service's models build on: value objects and timestamped records.

``Value`` is a frozen nested object that refuses unknown fields (a line item, an
address part, a rule); ``Created`` and ``Timestamped`` are records whose
``created_at`` (and ``updated_at``) the engine fills in from the episode clock.
A record whose timestamps mean something more specific ("when it was sent")
declares them itself, so that its schema says so.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict

from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.types import DateTime

__all__ = ["Created", "Timestamped", "Value"]


class Value(BaseModel):
    """A frozen value object nested in a record or a result; unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Created(Record):
    """A record that keeps when it was created."""

    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Timestamped(Created):
    """A record that keeps when it was created and when it last changed."""

    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""
