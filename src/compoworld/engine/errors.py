"""Structured errors: what a tool call returns when it cannot succeed.

Services raise the :class:`ToolFailure` subclasses; the runtime turns every
failure, including arguments that do not validate, into a :class:`ToolError`
that an agent can read and act on.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

__all__ = [
    "CatalogError",
    "Conflict",
    "ErrorType",
    "NotFound",
    "RuleViolation",
    "ToolError",
    "ToolFailure",
]

ErrorType = Literal[
    "unknown_tool",
    "invalid_arguments",
    "not_found",
    "conflict",
    "rule_violation",
    "internal_error",
]


@dataclass(frozen=True, slots=True)
class ToolError:
    """A failed call, in a form an agent can act on.

    Attributes:
        type: The kind of failure.
        message: What went wrong.
        field: The argument at fault, if one is (dotted path for nested ones).
        hint: What to do instead.
    """

    type: ErrorType
    message: str
    field: str | None = None
    hint: str = ""

    def to_dict(self) -> dict[str, str | None]:
        """Return the error as a JSON-ready dict."""
        return asdict(self)


class ToolFailure(Exception):
    """Base of the exceptions a tool raises to fail a call cleanly."""

    error_type: ErrorType = "rule_violation"

    def __init__(self, message: str, *, field: str | None = None, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.hint = hint

    def to_error(self) -> ToolError:
        """Return the structured error for this failure."""
        return ToolError(self.error_type, self.message, self.field, self.hint)


class NotFound(ToolFailure):
    """A referenced record does not exist."""

    error_type: ErrorType = "not_found"


class Conflict(ToolFailure):
    """The call would break a uniqueness constraint or races a state change."""

    error_type: ErrorType = "conflict"


class RuleViolation(ToolFailure):
    """The call breaks a domain rule (a refund above the charge, an overlapping booking …)."""

    error_type: ErrorType = "rule_violation"


class CatalogError(Exception):
    """A service or tool declaration is invalid; raised when the catalog loads."""
