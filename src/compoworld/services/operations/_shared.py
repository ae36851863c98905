"""Helpers the operations services share: checking that people are the company's staff, approval signatures."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.types import DateTime, Email, Text
from compoworld.services.kit.records import Value

__all__ = ["Signature", "require_staff"]


def require_staff(ctx: Ctx, emails: str | Iterable[str] | None, field: str) -> None:
    """Refuse any e-mail that is not an employee's (None passes).

    Args:
        ctx: The call's context.
        emails: One e-mail, several, or None.
        field: The parameter blamed.
    """
    staff = {p.email for p in ctx.population.employees}
    for e in (emails,) if isinstance(emails, str) or emails is None else emails:
        if e is not None and e not in staff:
            raise RuleViolation(f"{e} is not an employee", field=field, hint="use employees' e-mails")


class Signature(Value):
    """An approver's decision on a document or a change."""

    approver_email: Email = Field(description="The approver.")
    decision: Literal["approved", "rejected"] = Field(description="approved or rejected.")
    comment: Text = Field(default="", description="Why (required for a rejection).")
    signed_at: DateTime = Field(description="When they signed.")
