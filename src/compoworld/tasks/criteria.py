"""Rubric criteria: declarative checks of a task's final state and answer.

Criteria are data, not code, so a task can be re-verified anywhere. Four kinds
(docs/design.md §5):

* ``state``: a record exists with given field values (an added record is
  matched by its values, never by its id, so any correct solution passes), a
  world record has given values, or a world record is gone;
* ``transition``: a value an upstream step produced was consumed by a write:
  it appears in a written record's field (the link that makes a task
  compositional);
* ``message``: a message record was added, to the right person, whose text
  carries each fact asked for (found upstream), whatever the rest of its wording;
* ``answer``: the final answer mentions a value of the world;
* ``no_collateral``: nothing was written outside the expected tables and records (one criterion per
  service the task works in, one for every other service);
* ``unchanged``: a named world record (a decoy, a record on hold) was neither changed nor removed;
* ``not_sent``: no message went to someone who must not get it (or told them what they must not learn:
  what was found for another customer);
* ``count``: no more new records of a kind than asked for (a count lock: one reminder per customer,
  not two; one comment per ticket).

The last four are negatives (:data:`NEGATIVE_KINDS`): they hold before the agent acts, and only
breaking them tells anything, so partial credit leaves out those that still hold
(:mod:`compoworld.tasks.rewards`).

Each criterion names the criteria it depends on (a DAG along the walk); the
reward schemes gate on it. Criteria are checked against the state the agent
started from: after a task's setup (its trigger event), not the bare world.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from compoworld.engine.episode import Episode, Snapshot, StateDiff

__all__ = [
    "CRITERION_KINDS",
    "NEGATIVE_KINDS",
    "AnswerCriterion",
    "CountCriterion",
    "Criterion",
    "MessageCriterion",
    "NoCollateralCriterion",
    "NotSentCriterion",
    "StateCriterion",
    "TransitionCriterion",
    "UnchangedCriterion",
    "Verdict",
    "carries_fact",
    "check_criteria",
    "count_added",
    "criteria_hold",
]


class _Base(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="Unique within the task, e.g. c3.")
    description: str = Field(description="What the criterion asks, in words.")
    depends_on: list[str] = Field(default_factory=list, description="Ids of the criteria this one builds on.")
    step: int | None = Field(default=None, description="The solution step the criterion comes from.")


class StateCriterion(_Base):
    """A record exists, has values, or is gone."""

    kind: Literal["state"] = "state"
    table: str = Field(description="The table, e.g. crm.contacts.")
    mode: Literal["added", "updated", "removed"] = Field(description="What happened to the record.")
    record_id: str | None = Field(default=None, description="For updated/removed: the world record.")
    fields: dict[str, Any] = Field(default_factory=dict, description="Field values the record must have.")


class TransitionCriterion(_Base):
    """A value produced upstream ends up in a record written downstream."""

    kind: Literal["transition"] = "transition"
    from_step: int = Field(description="The step that produced the value.")
    from_field: str = Field(description="Where in that step's result the value was.")
    value: Any = Field(default=None, description="The value (when it is the same in every correct solution).")
    ref_criterion: str | None = Field(
        default=None,
        description="Instead of a value: the id of a record created earlier, found by this state criterion "
        "(new ids differ between correct solutions, so they are matched through the record's values).",
    )
    table: str = Field(description="The table of the written record.")
    field: str = Field(description="The field of the written record that must hold (or contain) the value.")


class MessageCriterion(_Base):
    """A message was sent (a record added) to the right person, and its text carries found facts."""

    kind: Literal["message"] = "message"
    table: str = Field(description="The table of sent messages, e.g. mail.messages.")
    fields: dict[str, Any] = Field(default_factory=dict, description="Values the message must have (its recipient).")
    contains: dict[str, list[str]] = Field(
        description="Per text field, the facts it must carry (case-insensitive), e.g. {'body': ['1Z999']}."
    )


class AnswerCriterion(_Base):
    """The final answer mentions a value."""

    kind: Literal["answer"] = "answer"
    value: str = Field(description="The text the answer must contain (case-insensitive).")


class NoCollateralCriterion(_Base):
    """Nothing was written outside what the task asks for, in the services it covers.

    A task's collateral is checked per service it works in, and once for every other service, so a
    rollout that damages three services breaks three criteria, and a report tells which ones.
    """

    kind: Literal["no_collateral"] = "no_collateral"
    added: dict[str, int] = Field(default_factory=dict, description="Most records each table may gain.")
    touched: dict[str, list[str]] = Field(
        default_factory=dict, description="World records each table may change or remove."
    )
    services: list[str] = Field(
        default_factory=list, description="Only the tables of these services are checked; empty: every service's."
    )
    besides: list[str] = Field(default_factory=list, description="The tables of these services are not checked.")

    def covers(self, table: str) -> bool:
        """Whether a table (``service.table``) is one this criterion checks."""
        service = table.split(".", 1)[0]
        return (not self.services or service in self.services) and service not in self.besides


class UnchangedCriterion(_Base):
    """A world record the task must leave alone (a decoy, a record on hold) was neither changed nor removed."""

    kind: Literal["unchanged"] = "unchanged"
    table: str = Field(description="The table, e.g. crm.contacts.")
    record_id: str = Field(description="The record that must stay as it was.")
    why: str = Field(default="", description="Why it must be left alone, e.g. 'a near-duplicate of the contact'.")


class NotSentCriterion(_Base):
    """No message went to someone who must not get it; more generally, no new record carries values it must not.

    A message to the wrong team, a ticket filed under the category a replaced rule gave: the table's
    records added since the start are checked, never those the world already held.
    """

    kind: Literal["not_sent"] = "not_sent"
    table: str = Field(description="The table of sent messages (or other new records), e.g. mail.messages.")
    fields: dict[str, Any] = Field(description="Values no new record may have, e.g. a message's recipient.")
    contains: dict[str, list[str]] = Field(
        default_factory=dict,
        description="With it, only a record whose text carries one of these facts counts (case-insensitive): "
        "what was found for one customer must not be told to another, e.g. {'body': ['INV-0042']}.",
    )


class CountCriterion(_Base):
    """A count lock: no more new records with given values than the work asks for (a duplicate is wrong too).

    Sending the same reminder twice, or filing a second copy of a ticket, leaves every positive criterion
    met; the lock is what a duplicate breaks. Only records added since the start are counted.
    """

    kind: Literal["count"] = "count"
    table: str = Field(description="The table of new records, e.g. mail.messages.")
    fields: dict[str, Any] = Field(description="Values the counted records have, e.g. a message's recipient.")
    most: int = Field(ge=0, description="Most new records with those values.")


Criterion = Annotated[
    StateCriterion
    | TransitionCriterion
    | MessageCriterion
    | AnswerCriterion
    | NoCollateralCriterion
    | UnchangedCriterion
    | NotSentCriterion
    | CountCriterion,
    Field(discriminator="kind"),
]

CRITERION_KINDS: tuple[str, ...] = (
    "state",
    "transition",
    "message",
    "answer",
    "no_collateral",
    "unchanged",
    "not_sent",
    "count",
)
"""Every kind of criterion, in the order reports list them."""

NEGATIVE_KINDS = frozenset({"no_collateral", "unchanged", "not_sent", "count"})
"""Criterion kinds that hold before the agent acts and fail only when it does something it must not."""


class Verdict(BaseModel):
    """One criterion's result on one final state, with its prerequisites (what reward schemes gate on)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="The criterion's id.")
    kind: str = Field(description="state, transition, message, answer, no_collateral, unchanged, not_sent or count.")
    passed: bool = Field(description="Whether the criterion holds.")
    description: str = Field(description="What the criterion asks, in words.")
    detail: str = Field(default="", description="Why it does not hold, when it does not.")
    depends_on: list[str] = Field(default_factory=list, description="Ids of the criteria it builds on.")


def _contains(actual: Any, expected: Any) -> bool:
    if actual == expected:
        return True
    if isinstance(actual, list):
        return any(_contains(a, expected) for a in actual)
    if isinstance(actual, str) and isinstance(expected, str):
        return expected.casefold() == actual.casefold()
    return False


def _matches(record: dict[str, Any], fields: dict[str, Any]) -> bool:
    return all(k in record and record[k] == v for k, v in fields.items())


def _written(diff: StateDiff, table: str) -> list[dict[str, Any]]:
    td = diff.tables.get(table)
    if td is None:
        return []
    return list(td.added) + [c.after for c in td.updated]


# A short number (a count) is told as a number of its own, not as digits inside another one.
_SHORT_NUMBER = re.compile(r"^\d{1,3}$")


def carries_fact(text: str, fact: str) -> bool:
    """Whether a text tells a fact: contains it, case aside; a short number (``3``) only as a whole number.

    ``"3"`` is told by ``"3 open tickets"`` and ``"tickets: 3."``, not by ``"SL-0000039"`` nor ``"3.5"``.
    """
    if _SHORT_NUMBER.match(fact):
        return re.search(rf"(?<![\w.,/-]){fact}(?!\w)(?![.,/-]\w)", text) is not None
    return fact.casefold() in text.casefold()


def count_added(diff: StateDiff, table: str, fields: dict[str, Any]) -> int:
    """How many records added to a table carry every value of ``fields`` (a recipient among several counts)."""
    td = diff.tables.get(table)
    return sum(1 for r in (td.added if td else []) if all(_contains(r.get(k), v) for k, v in fields.items()))


def _text(record: dict[str, Any], name: str) -> str:
    value = record.get(name)
    return " ".join(map(str, value)) if isinstance(value, list) else str(value or "")


def _carries(record: dict[str, Any], contains: dict[str, list[str]]) -> bool:
    return all(carries_fact(_text(record, name), f) for name, facts in contains.items() for f in facts)


def _carries_any(record: dict[str, Any], contains: dict[str, list[str]]) -> bool:
    """Whether a record's text tells any one of the facts listed per field."""
    return any(carries_fact(_text(record, name), f) for name, facts in contains.items() for f in facts)


def _added_matching(c: StateCriterion | MessageCriterion, diff: StateDiff) -> list[dict[str, Any]]:
    td = diff.tables.get(c.table)
    found = [r for r in (td.added if td else []) if _matches(r, c.fields)]
    return [r for r in found if _carries(r, c.contains)] if isinstance(c, MessageCriterion) else found


def _check_one(c: Any, episode: Episode, diff: StateDiff, answer: str, by_id: dict[str, Any]) -> tuple[bool, str]:
    if isinstance(c, StateCriterion):
        if c.mode == "added":
            found = _added_matching(c, diff)
            return bool(found), "" if found else f"no new record in {c.table} with {c.fields}"
        assert c.record_id is not None
        rec = episode.get(c.table, c.record_id)
        if c.mode == "removed":
            return rec is None, "" if rec is None else f"{c.table} {c.record_id} still exists"
        if rec is None:
            return False, f"{c.table} {c.record_id} is gone"
        data = rec.model_dump(mode="json")
        ok = _matches(data, c.fields)
        return ok, "" if ok else f"{c.table} {c.record_id} has { ({k: data.get(k) for k in c.fields}) }"
    if isinstance(c, MessageCriterion):
        found = _added_matching(c, diff)
        return bool(found), "" if found else f"no message in {c.table} with {c.fields} that carries {c.contains}"
    if isinstance(c, TransitionCriterion):
        if c.ref_criterion is not None:
            ref = by_id.get(c.ref_criterion)
            if not isinstance(ref, StateCriterion | MessageCriterion):
                return False, f"unknown criterion {c.ref_criterion}"
            ids = [r["id"] for r in _added_matching(ref, diff)]
            ok = any(_contains(r.get(c.field), i) for r in _written(diff, c.table) for i in ids)
            return ok, "" if ok else f"no record written to {c.table} refers in {c.field} to the record of {ref.id}"
        ok = any(_contains(r.get(c.field), c.value) for r in _written(diff, c.table))
        return ok, "" if ok else f"no record written to {c.table} carries {c.value!r} in {c.field}"
    if isinstance(c, AnswerCriterion):
        ok = c.value.casefold() in answer.casefold()
        return ok, "" if ok else f"the answer does not mention {c.value!r}"
    if isinstance(c, UnchangedCriterion):
        td = diff.tables.get(c.table)
        if td is not None and any(r.get("id") == c.record_id for r in td.removed):
            return False, f"{c.table} {c.record_id} was removed"
        if td is not None and any(u.id == c.record_id for u in td.updated):
            return False, f"{c.table} {c.record_id} was changed"
        return True, ""
    if isinstance(c, NotSentCriterion) and c.contains:
        td = diff.tables.get(c.table)
        told = [
            r
            for r in (td.added if td else [])
            if all(_contains(r.get(k), v) for k, v in c.fields.items()) and _carries_any(r, c.contains)
        ]
        return (
            not told,
            "" if not told else f"{len(told)} new record(s) in {c.table} with {c.fields} tell one of {c.contains}",
        )
    if isinstance(c, NotSentCriterion | CountCriterion):
        sent = count_added(diff, c.table, c.fields)
        most = c.most if isinstance(c, CountCriterion) else 0
        ok = sent <= most
        return ok, "" if ok else f"{sent} new record(s) in {c.table} with {c.fields}, at most {most} allowed"
    assert isinstance(c, NoCollateralCriterion)
    problems = []
    for table, td in diff.tables.items():
        if not c.covers(table):
            continue
        if len(td.added) > c.added.get(table, 0):
            problems.append(f"{len(td.added)} record(s) added to {table}")
        allowed = set(c.touched.get(table, []))
        for change in td.updated:
            if change.id not in allowed:
                problems.append(f"{table} {change.id} changed")
        for gone in td.removed:
            if gone.get("id") not in allowed:
                problems.append(f"{table} {gone.get('id')} removed")
    return not problems, "; ".join(problems)


def check_criteria(
    criteria: Sequence[Any], episode: Episode, answer: str = "", since: Snapshot | None = None
) -> list[Verdict]:
    """Check every criterion on an episode's final state and a final answer.

    Args:
        criteria: The task's criteria.
        episode: The episode in its final state.
        answer: The agent's final answer.
        since: The state the agent started from (after the task's setup); default: the world's.

    Returns:
        One verdict per criterion, in order.
    """
    diff = episode.diff(since)
    by_id = {c.id: c for c in criteria}
    out = []
    for c in criteria:
        passed, detail = _check_one(c, episode, diff, answer, by_id)
        out.append(
            Verdict(
                id=c.id,
                kind=c.kind,
                passed=passed,
                description=c.description,
                detail=detail,
                depends_on=list(c.depends_on),
            )
        )
    return out


def criteria_hold(criteria: Sequence[Any], episode: Episode, answer: str = "", since: Snapshot | None = None) -> bool:
    """Whether every criterion holds (as :func:`check_criteria` would find), stopping at the first that does not.

    The validity gates ask this of every prefix of every solution, where the first criterion usually fails
    already: no verdict is built.
    """
    diff = episode.diff(since)
    by_id = {c.id: c for c in criteria}
    return all(_check_one(c, episode, diff, answer, by_id)[0] for c in criteria)
