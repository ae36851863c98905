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
    "count_items",
    "draw_params",
    "list_items",
    "pick_item",
    "pick_row",
    "sources_for",
    "sum_field",
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
        # A list's records counted or summed (a rule's threshold may turn the number into a choice), and the one
        # record of a list that is not in a state to skip: only difficulty patterns link through these.
        Transform("count_items", frozenset(), "number"),
        Transform("sum_field", frozenset(), "number"),
        Transform("pick_item", frozenset(), "record.field"),
    )
}
"""Every transform, by name."""


def _by_target() -> dict[str, tuple[Transform, ...]]:
    by_target: dict[str, list[Transform]] = {}
    for _, transform in sorted(TRANSFORMS.items()):
        by_target.setdefault(transform.target, []).append(transform)
    return {target: tuple(found) for target, found in by_target.items()}


# The transforms by the semantic type they make, in name order: walks ask for every parameter they fill.
_BY_TARGET = _by_target()


def sources_for(target: str) -> list[Transform]:
    """The transforms that make a value of semantic type ``target``, in name order."""
    return list(_BY_TARGET.get(target, ()))


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
    if name == "count_items":
        return count_items(value, params)
    if name == "sum_field":
        return sum_field(value, params)
    if name == "pick_item":
        return pick_item(value, params)
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


def list_items(result: Any) -> list[dict[str, Any]] | None:
    """The records a list call returned, or None when they are not all there.

    A page (``{"items": [...], "next_cursor": null}``) or any object holding one list of records, or a
    bare list. A page with a next cursor holds only some of the records: None.

    Args:
        result: What the list call returned.
    """
    if isinstance(result, dict):
        if result.get("next_cursor") is not None:
            return None
        lists = [v for v in result.values() if isinstance(v, list)]
        if len(lists) != 1:
            return None
        result = lists[0]
    if not isinstance(result, list) or not all(isinstance(r, dict) for r in result):
        return None
    return result


def _meets(record: dict[str, Any], params: dict[str, Any]) -> bool:
    """Whether a record meets a transform's conditions.

    ``where``: ``[field, value]`` pairs it must match (a list of values: any of them); ``unless``: pairs of
    which it must match none (a record in a state to skip). Strings match case aside.
    """

    def holds(field: str, wanted: Any) -> bool:
        values = wanted if isinstance(wanted, list | tuple) else [wanted]
        got = record.get(field)
        return any(
            (got.casefold() == v.casefold()) if isinstance(got, str) and isinstance(v, str) else got == v
            for v in values
        )

    return all(holds(str(f), v) for f, v in params.get("where", ())) and not any(
        holds(str(f), v) for f, v in params.get("unless", ())
    )


def _decide(total: float, params: dict[str, Any]) -> Any:
    """A number, or the choice a threshold rule makes of it (``at_least``: ``then`` at or above, else ``else``)."""
    if "at_least" not in params:
        return total
    return params.get("then") if total >= float(params["at_least"]) else params.get("else")


def count_items(result: Any, params: dict[str, Any]) -> Any | None:
    """How many records a list call found that meet the conditions, or the choice a threshold makes of it.

    Args:
        result: What the list call returned (see :func:`list_items`).
        params: ``where`` and ``unless`` (see :func:`_meets`); ``at_least``, ``then`` and ``else``: with a
            threshold, ``then`` when the count reaches it, else ``else`` (a rule: three or more open tickets
            get the highest priority).

    Returns:
        The count (or the choice), or None when the list is not whole.
    """
    records = list_items(result)
    if records is None:
        return None
    return _decide(sum(_meets(r, params) for r in records), params)


def sum_field(result: Any, params: dict[str, Any]) -> Any | None:
    """The total of a number field over the records a list call found that meet the conditions, or a choice.

    Args:
        result: What the list call returned (see :func:`list_items`).
        params: ``field`` (the number to add up), ``where`` and ``unless``, and a threshold as
            :func:`count_items` takes it.

    Returns:
        The total rounded to cents (or the choice), or None when the list is not whole or a record
        meeting the conditions holds no number there.
    """
    records = list_items(result)
    if records is None:
        return None
    field = str(params["field"])
    values = [r.get(field) for r in records if _meets(r, params)]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    return _decide(round(sum(float(v) for v in values if v is not None), 2), params)


def pick_item(result: Any, params: dict[str, Any]) -> Any | None:
    """A field of the one record of a list that meets the conditions (the one not on hold, not closed …).

    Args:
        result: What the list call returned (see :func:`list_items`).
        params: ``take`` (the field to read), ``where`` and ``unless`` (see :func:`_meets`).

    Returns:
        The field's value, or None when no record, or more than one, meets the conditions.
    """
    records = list_items(result)
    if records is None:
        return None
    kept = [r for r in records if _meets(r, params)]
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
    if name in ("pick_row", "pick_item"):
        return source
    if name in ("count_items", "sum_field") and "at_least" in params:
        return "as the rule below has it"
    if name == "count_items":
        return f"the number of {source}"
    if name == "sum_field":
        return f"the total {str(params.get('field', '')).replace('_', ' ')} of {source}"
    return f"the last name in {source}"
