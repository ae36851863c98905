"""Derived values: named transforms a walk applies to a value an earlier step found.

Real work rarely copies a value as it is: an invoice falls due thirty days after
the order, a company is looked up by the domain of a customer's e-mail, a form
wants a first name where the CRM holds a full one. A walk may link a found value
to a parameter of another semantic type through one of these transforms; the
step's provenance names the transform and its parameters (``{"kind": "derived",
"transform": "add_days", "params": {"days": 30}, "step": 1, "field": ...}``), so
the value can be recomputed from the source (:func:`apply_transform`) and the
instruction can say how it is derived (:func:`transform_phrase`).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass
from typing import Any

from compoworld.world.population import PERSONAL_DOMAINS

__all__ = [
    "TRANSFORMS",
    "Transform",
    "apply_transform",
    "draw_params",
    "pick_row",
    "sources_for",
    "transform_phrase",
]

_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2})")
# Personal mailboxes name no company: their domain is nobody's website.
_FREEMAIL = frozenset({*PERSONAL_DOMAINS, "gmail.com", "yahoo.com", "outlook.com", "hotmail.com", "icloud.com"})
_DAY_CHOICES = (3, 7, 14, 30)


@dataclass(frozen=True, slots=True)
class Transform:
    """A named transform from values of some semantic types to a value of another.

    Attributes:
        name: Its name, as provenance records it.
        sources: The semantic types it reads.
        target: The semantic type it makes.
    """

    name: str
    sources: frozenset[str]
    target: str


TRANSFORMS: dict[str, Transform] = {
    t.name: t
    for t in (
        Transform("email_domain", frozenset({"email"}), "company.domain"),
        Transform("add_days", frozenset({"date", "datetime"}), "date"),
        Transform("add_days_at", frozenset({"datetime"}), "datetime"),
        Transform("first_name", frozenset({"person.name"}), "person.first_name"),
        Transform("last_name", frozenset({"person.name"}), "person.last_name"),
        # A rule table's row picked by conditions and date: only difficulty patterns link through it.
        Transform("pick_row", frozenset(), "table.cell"),
    )
}
"""Every transform, by name."""


def sources_for(target: str) -> list[Transform]:
    """The transforms that make a value of semantic type ``target``, in name order."""
    return [t for _, t in sorted(TRANSFORMS.items()) if t.target == target]


def draw_params(transform: Transform, rng: random.Random) -> dict[str, Any]:
    """The parameters a walk draws for one use of a transform (``{"days": 14}`` for ``add_days``)."""
    if transform.name in ("add_days", "add_days_at"):
        return {"days": rng.choice(_DAY_CHOICES)}
    return {}


def apply_transform(name: str, value: Any, params: dict[str, Any] | None = None) -> Any | None:
    """Apply a named transform to a found value.

    Args:
        name: A key of :data:`TRANSFORMS`.
        value: The value the earlier step found.
        params: The transform's parameters (``days`` for ``add_days``).

    Returns:
        The derived value, or None when the transform does not apply to this value (a personal
        mailbox has no company domain, a one-word name has no last name …).

    Raises:
        KeyError: for an unknown transform.
    """
    params = params or {}
    if name not in TRANSFORMS:
        raise KeyError(f"unknown transform {name!r}; known: {', '.join(sorted(TRANSFORMS))}")
    if name == "pick_row":
        return pick_row(value, params)
    if not isinstance(value, str):
        return None
    if name == "email_domain":
        domain = value.rpartition("@")[2].casefold()
        return domain if "@" in value and "." in domain and domain not in _FREEMAIL else None
    if name == "add_days":
        match = _DATE.match(value)
        if match is None:
            return None
        day = dt.date.fromisoformat(match.group(1)) + dt.timedelta(days=int(params.get("days", 0)))
        return day.isoformat()
    if name == "add_days_at":
        try:
            moment = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None or len(value) <= 10:
            return None  # a day alone, or a time of no known zone, says no time to keep
        later = (moment + dt.timedelta(days=int(params.get("days", 0)))).astimezone(dt.UTC)
        return later.strftime("%Y-%m-%dT%H:%M:%SZ")
    words = value.split()
    if len(words) < 2:
        return None
    return words[0] if name == "first_name" else " ".join(words[1:])


def pick_row(rows: Any, params: dict[str, Any]) -> Any | None:
    """The cell a rule table's lookup gives: of the rows meeting every condition, the newest one's.

    Args:
        rows: The rows a lookup returned (each with ``cells`` by column name).
        params: ``take`` (the column to read), ``where`` (``[column, value]`` pairs every row kept must
            match, case aside) and ``newest`` (a date column: the latest row wins; "" for none).

    Returns:
        The cell, or None when no row, or more than one equally new row, meets the conditions.
    """
    if not isinstance(rows, list):
        return None
    where = [(str(c), str(v).casefold()) for c, v in params.get("where", ())]
    kept = [
        r["cells"]
        for r in rows
        if isinstance(r, dict)
        and isinstance(r.get("cells"), dict)
        and all(str(r["cells"].get(c, "")).casefold() == v for c, v in where)
    ]
    newest = str(params.get("newest", ""))
    if newest and kept:
        latest = max(str(c.get(newest, "")) for c in kept)
        kept = [c for c in kept if str(c.get(newest, "")) == latest]
    return kept[0].get(str(params["take"])) if len(kept) == 1 else None


def transform_phrase(name: str, source: str, params: dict[str, Any] | None = None) -> str:
    """How an instruction says a derived value: ``"30 days after the order date"``.

    Args:
        name: The transform.
        source: The source value in words (``"the order date"``).
        params: The transform's parameters.
    """
    params = params or {}
    if name == "email_domain":
        return f"the domain of {source}"
    if name == "add_days":
        days = int(params.get("days", 0))
        return f"{days} day{'s' if days != 1 else ''} after {source}"
    if name == "add_days_at":
        days = int(params.get("days", 0))
        return f"{days} day{'s' if days != 1 else ''} after {source}, at the same time of day"
    if name == "first_name":
        return f"the first name in {source}"
    if name == "pick_row":
        return source
    return f"the last name in {source}"
