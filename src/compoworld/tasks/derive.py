"""Criteria derivation: a walk's rubric, from what each step of an oracle run changed.

:func:`derive_criteria` re-executes a walk (:func:`~compoworld.tasks.replay.replay_walk`)
and derives its criteria in stages, in this order:

1. per step, :func:`state_criteria`: a record the step added exists with the
   values the step was called with (matched by value, never by its new id), a
   world record it updated has its new values (an update of a record the task
   created is merged into that record's criterion), a world record it removed
   is gone;
2. per step that wrote, :func:`transition_criteria`: an identifying value an
   earlier step found was stored by this write;
3. :func:`settle_created` and :func:`settle_updated`: those state criteria keep
   only the values that hold at the end (a later step may have changed them);
4. when the last step only reads, :func:`answer_criterion`: the final answer
   reports a value it returns;
5. :func:`no_collateral_criteria`: nothing else was created, changed or deleted, in each service
   the walk works in and in all the others (one criterion each);
6. :func:`count_locks`: no more messages to a recipient, or records with a created record's
   values, than the oracle made (a duplicate reminder breaks the lock, and nothing else);
7. :func:`opt_outs`: when the task opens with an unsubscribe or an opt-out, no message goes to
   that person by any means the task's messages use.

Criteria are numbered ``c0``, ``c1``, … as they are made, and depend on the
criteria of the steps whose values they use. When a change cannot be pinned
down, a stage raises :class:`Unverifiable` and the walk has no criteria.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

from compoworld.engine.episode import Episode, RecordChange, StateDiff
from compoworld.engine.records import generated_fields
from compoworld.engine.state import canonical_json
from compoworld.tasks.criteria import (
    AnswerCriterion,
    CountCriterion,
    MessageCriterion,
    NoCollateralCriterion,
    NotSentCriterion,
    StateCriterion,
    TransitionCriterion,
    carries_fact,
    count_added,
)
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.render import answer_label, field_label, render_value, reported_answer
from compoworld.tasks.replay import replay_walk
from compoworld.tasks.roles import sends
from compoworld.tasks.transforms import apply_transform
from compoworld.tasks.walk import WEAK, Provenance, Step, Walk, flatten
from compoworld.world.world import World

__all__ = [
    "Derivation",
    "Derived",
    "Unverifiable",
    "answer_criterion",
    "count_locks",
    "created_ids",
    "derive_criteria",
    "find_value",
    "is_new_id",
    "no_collateral_criteria",
    "no_collateral_criterion",
    "opt_outs",
    "settle_created",
    "settle_updated",
    "state_criteria",
    "transition_criteria",
]


class Unverifiable(Exception):
    """A walk's changes cannot be pinned down by criteria (the walk becomes no task)."""


@dataclass(slots=True)
class Derived:
    """A walk's criteria and the oracle run they were derived from.

    Attributes:
        criteria: The rubric, in id order.
        episode: The oracle episode in its final state.
    """

    criteria: list[Any]
    episode: Episode


@dataclass(slots=True)
class Derivation:
    """The criteria derived so far from one oracle run, and what the stages look up in them.

    Attributes:
        world: The walk's world.
        new_ids: Ids of the records the run created (they differ between correct solutions).
        results: What each step returned (where a message's facts are read from).
        criteria: The criteria so far, in id order.
        by_step: Per step, the ids of the criteria it gave (what later steps depend on).
        created: Per record the run created, the index in :attr:`criteria` of its state criterion.
    """

    world: World
    new_ids: set[str]
    results: list[Any] = field(default_factory=list)
    criteria: list[Any] = field(default_factory=list)
    by_step: dict[int, list[str]] = field(default_factory=dict)
    created: dict[str, int] = field(default_factory=dict)

    def next_id(self) -> str:
        """The id the next criterion gets."""
        return f"c{len(self.criteria)}"

    def add(self, criterion: Any) -> str:
        """Append a criterion; return its id."""
        self.criteria.append(criterion)
        return str(criterion.id)


def created_ids(diff: StateDiff) -> set[str]:
    """Ids of the records a diff adds."""
    return {str(r["id"]) for td in diff.tables.values() for r in td.added}


def is_new_id(value: Any, new_ids: set[str]) -> bool:
    """Whether a value is (or holds) the id of a record this episode created: such ids differ between solutions."""
    if isinstance(value, str):
        return value in new_ids
    if isinstance(value, list):
        return any(is_new_id(v, new_ids) for v in value)
    if isinstance(value, dict):
        return any(is_new_id(v, new_ids) for v in value.values())
    return False


def find_value(diff: StateDiff, value: Any) -> tuple[str, str] | None:
    """The first ``(table, field)`` of a record a diff adds or updates that holds (or lists) a value."""
    for table, td in diff.tables.items():
        for rec in list(td.added) + [c.after for c in td.updated]:
            for k, v in rec.items():
                if k == "id":
                    continue
                if v == value or (isinstance(v, list) and value in v):
                    return table, k
    return None


def _generated(world: World, table: str) -> set[str]:
    """Fields of a table the service fills in (and the id): no criterion asks for them."""
    model = world.tables[table].spec.model
    return {name for name, _ in generated_fields(model)} | {"id"}


def _clocked(world: World, table: str, args: dict[str, Any]) -> set[str]:
    """Points in time a step set from the episode's clock (``solved_at``), not from its arguments.

    Their value depends on how many writes came before, so another correct order of the
    same work gives another value: no criterion pins them.
    """
    model = world.tables[table].spec.model
    return {name for name, info in model.model_fields.items() if name not in args and _holds_datetime(info.annotation)}


def _holds_datetime(annotation: Any) -> bool:
    """Whether a type is a datetime, possibly annotated or optional."""
    return annotation is dt.datetime or any(_holds_datetime(a) for a in get_args(annotation))


def _arguments(step: Step) -> dict[str, Any]:
    """A step's arguments as JSON has them (as records store them)."""
    args: dict[str, Any] = json.loads(canonical_json(step.arguments))
    return args


def _upstream_criteria(d: Derivation, step: Step) -> list[str]:
    """The criteria of the steps whose values a step uses, in step order."""
    upstream = sorted({k for p in step.provenance.values() for k in p.sources})
    return [cid for k in upstream for cid in d.by_step.get(k, [])]


# -- stage 1: state criteria ----------------------------------------------------------------


def _added(
    d: Derivation, j: int, table: str, rec: dict[str, Any], step: Step, deps: list[str], *, companion: bool
) -> str | None:
    """The criterion of a record step ``j`` added, or None for a companion record nothing given identifies.

    Raises:
        Unverifiable: when nothing the step was given identifies the record and it is no companion.
    """
    args = _arguments(step)
    composed = [n for n, p in step.provenance.items() if p.kind == "compose"]
    skip = _generated(d.world, table) | set(composed)
    fields = {
        k: v for k, v in rec.items() if k in args and k not in skip and args[k] == v and not is_new_id(v, d.new_ids)
    }
    # The record that keeps the composed text is the message; others the step added go along with it (a thread).
    message = any(v == args[n] for n in composed for v in rec.values())
    if not message and not fields and companion:
        # A record made beside the one asked for (a message's thread, a new team's general channel,
        # a document's first revision): that one's criterion asks for the work, and no-collateral
        # counts this one among the records added.
        return None
    d.created[str(rec["id"])] = len(d.criteria)
    if message:
        return d.add(_message(d, j, table, rec, step, fields, deps))
    if not fields:
        raise Unverifiable(f"nothing the step was given identifies the record it added to {table}")
    noun = d.world.tables[table].spec.a_noun
    desc = f"{noun} exists in {table} with " + ", ".join(f"{k} = {render_value(v)}" for k, v in fields.items())
    return d.add(
        StateCriterion(
            id=d.next_id(), description=desc, depends_on=deps, step=j, table=table, mode="added", fields=fields
        )
    )


def _message(
    d: Derivation, j: int, table: str, rec: dict[str, Any], step: Step, fields: dict[str, Any], deps: list[str]
) -> MessageCriterion:
    """The criterion of a sent message: its recipient and the other values it was given, and the facts its text carries.

    Raises:
        Unverifiable: when the record keeps no text a composed argument was given, or a fact cannot be read back.
    """
    args = _arguments(step)
    contains: dict[str, list[str]] = {}
    for name, prov in step.provenance.items():
        if prov.kind != "compose":
            continue
        spot = name if rec.get(name) == args[name] else next((k for k, v in rec.items() if v == args[name]), None)
        if spot is None:
            raise Unverifiable(f"the message added to {table} does not keep the text given as {name}")
        facts = []
        for k, path in prov.parts:
            value = dict(flatten(d.results[k])).get(path)
            if not isinstance(value, str) or value.casefold() not in str(args[name]).casefold():
                raise Unverifiable(f"fact {path} of step {k + 1} is not in the text given as {name}")
            facts.append(value)
        if prov.transform and prov.step is not None:
            # A fact the text tells of what a step found (how many records a list holds), not found as it is.
            found = d.results[prov.step]
            source = found if not prov.field else dict(flatten(found)).get(prov.field)
            told = apply_transform(prov.transform, source, dict(prov.params))
            if told is None or not carries_fact(str(args[name]), str(told)):
                raise Unverifiable(f"the {prov.transform} of step {prov.step + 1} is not in the text given as {name}")
            facts.append(str(told))
        contains[spot] = facts
    noun = d.world.tables[table].spec.a_noun
    said = "; ".join(f"{k} carrying " + ", ".join(render_value(f) for f in fs) for k, fs in contains.items())
    to = ", ".join(f"{k} = {render_value(v)}" for k, v in fields.items())
    return MessageCriterion(
        id=d.next_id(),
        description=f"{noun} was sent in {table}" + (f" with {to}" if to else "") + f", its {said}",
        depends_on=sorted(set(deps)),
        step=j,
        table=table,
        fields=fields,
        contains=contains,
    )


def _merge_into_created(d: Derivation, change: RecordChange, changed: list[str]) -> str:
    idx = d.created.get(change.id)
    if idx is None:
        raise Unverifiable(f"record {change.id} was created in this task but has no criterion")
    old = d.criteria[idx]
    merged = dict(old.fields) | {k: change.after[k] for k in changed if not is_new_id(change.after[k], d.new_ids)}
    # Dependencies stay those of the creation: adding a later step's would make cycles.
    d.criteria[idx] = old.model_copy(update={"fields": merged})
    return str(old.id)


def _updated(
    d: Derivation, j: int, table: str, change: RecordChange, args: dict[str, Any], deps: list[str]
) -> str | None:
    skip = _generated(d.world, table) | _clocked(d.world, table, args)
    changed = [k for k in change.changed if k not in skip]
    if not changed:
        return None
    if change.id in d.new_ids:
        return _merge_into_created(d, change, changed)
    fields = {k: change.after[k] for k in changed}
    noun = d.world.tables[table].spec.noun
    desc = f"{noun} {change.id} in {table} has " + ", ".join(f"{k} = {render_value(v)}" for k, v in fields.items())
    return d.add(
        StateCriterion(
            id=d.next_id(),
            description=desc,
            depends_on=deps,
            step=j,
            table=table,
            mode="updated",
            record_id=change.id,
            fields=fields,
        )
    )


def _removed(d: Derivation, j: int, table: str, rec: dict[str, Any], deps: list[str]) -> str:
    return d.add(
        StateCriterion(
            id=d.next_id(),
            description=f"{table} {rec['id']} is removed",
            depends_on=deps,
            step=j,
            table=table,
            mode="removed",
            record_id=str(rec["id"]),
        )
    )


def state_criteria(d: Derivation, j: int, step: Step, diff: StateDiff) -> list[str]:
    """Stage 1: criteria of the records step ``j`` added, updated and removed, table by table.

    An added record is asked for by the values it took from the step's arguments;
    an updated world record by its changed fields; a removed world record by its
    absence. Fields the service generates never count, and records the task
    itself created are never asked for by id.

    Args:
        d: The derivation so far (criteria are appended to it).
        j: The step.
        step: The step as drawn.
        diff: What the step changed.

    Returns:
        The ids of the criteria the step gave (an update of a created record gives that record's).

    Raises:
        Unverifiable: when an added record has no such value, or a created record was updated before it was seen.
    """
    args = _arguments(step)
    deps = _upstream_criteria(d, step)
    mine: list[str] = []
    added = [(table, rec) for table, td in diff.tables.items() for rec in td.added]
    updates = any(td.updated for td in diff.tables.values())
    for table, rec in added:
        # With several records added, one the step's values do not identify goes along with another.
        cid = _added(d, j, table, rec, step, deps, companion=len(added) > 1 or updates)
        if cid is not None:
            mine.append(cid)
    for table, td in diff.tables.items():
        for change in td.updated:
            cid = _updated(d, j, table, change, args, deps)
            if cid is not None:
                mine.append(cid)
        mine.extend(_removed(d, j, table, rec, deps) for rec in td.removed if str(rec["id"]) not in d.new_ids)
    sent = {str(c.id) for c in d.criteria if isinstance(c, MessageCriterion) and c.step == j}
    if any(p.kind == "compose" for p in step.provenance.values()) and not sent:
        raise Unverifiable(f"no record step {j + 1} added keeps the message it was given")
    if added and not mine:
        raise Unverifiable(f"nothing step {j + 1} was given identifies a record it added")
    return mine


# -- stage 2: transition criteria -----------------------------------------------------------


def _field_named(diff: StateDiff, name: str, value: Any) -> tuple[str, str] | None:
    """The ``(table, field)`` of a written record whose field ``name`` holds (or lists) ``value``."""
    for table, td in diff.tables.items():
        for rec in list(td.added) + [c.after for c in td.updated]:
            held = rec.get(name)
            if held == value or (isinstance(held, list) and value in held):
                return table, name
    return None


def _acted_on(diff: StateDiff, value: Any) -> tuple[str, str] | None:
    """``(table, "id")`` when ``value`` is the id of a world record the diff updated: the record a step acted on.

    The record a reaction changes is found from what an earlier step found (the lead with the
    subscriber's e-mail): acting on that very record is how the found value is consumed.
    """
    for table, td in diff.tables.items():
        if any(c.id == value for c in td.updated):
            return table, "id"
    return None


def _transition(d: Derivation, j: int, name: str, prov: Provenance, value: Any, diff: StateDiff) -> str | None:
    assert prov.step is not None
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if value in (None, "") or isinstance(value, dict | list):
        return None
    # The written field named like the argument first: one value given twice (from_email and reply_to)
    # makes two links, not the same one twice.
    # A record the task made is asked for by its own criterion, whatever later steps do to it.
    acted = None if is_new_id(value, d.new_ids) else _acted_on(diff, value)
    spot = _field_named(diff, name, value) or find_value(diff, value) or acted
    if spot is None:
        return None
    table, fname = spot
    ref = None
    if is_new_id(value, d.new_ids):
        # A record made earlier in this task: match it by its values, not its id.
        idx = d.created.get(str(value))
        if idx is None:
            return None
        ref, value = d.criteria[idx].id, None
    if fname == "id":
        said = f"the record found in step {prov.step + 1} is the one written to {table}"
    else:
        said = (
            f"the {field_label(prov.field or name)} found in step {prov.step + 1} "
            + (f"(through {prov.transform}) " if prov.transform else "")
            + f"is used as {fname} of the record written to {table}"
        )
    return d.add(
        TransitionCriterion(
            id=d.next_id(),
            description=said,
            depends_on=sorted(set(d.by_step.get(prov.step, [])) | ({ref} if ref else set())),
            step=j,
            from_step=prov.step,
            from_field=prov.field or "",
            value=value,
            ref_criterion=ref,
            table=table,
            field=fname,
        )
    )


def transition_criteria(d: Derivation, j: int, step: Step, diff: StateDiff) -> list[str]:
    """Stage 2: criteria that an identifying value an earlier step found was stored by step ``j``'s write.

    For each argument taken from an earlier step (weak links such as dates and
    amounts aside), the first field of a record the step wrote that holds the
    value. A value that is the id of a record the task created is matched
    through that record's criterion instead.

    Args:
        d: The derivation so far (criteria are appended to it).
        j: The step.
        step: The step as drawn.
        diff: What the step changed (nothing comes of an empty one).

    Returns:
        The ids of the criteria made.
    """
    if diff.is_empty:
        return []
    args = _arguments(step)
    mine: list[str] = []
    for name, prov in step.provenance.items():
        if prov.kind not in ("step", "derived") or prov.semantic in WEAK or prov.step is None:
            continue
        cid = _transition(d, j, name, prov, args.get(name), diff)
        if cid is not None:
            mine.append(cid)
    return mine


# -- stage 3: settling on final values ------------------------------------------------------


def settle_created(d: Derivation, final: StateDiff) -> None:
    """Stage 3a: keep in each created record's criterion only the values the record has at the end.

    Raises:
        Unverifiable: when a created record is gone at the end or keeps none of the values.
    """
    for rid, idx in d.created.items():
        final_rec = next((r for td in final.tables.values() for r in td.added if str(r["id"]) == rid), None)
        if final_rec is None:
            raise Unverifiable(f"record {rid} the task created is gone at the end")
        old = d.criteria[idx]
        settled = {k: v for k, v in old.fields.items() if final_rec.get(k) == v}
        if not settled and not isinstance(old, MessageCriterion):
            raise Unverifiable(f"record {rid} keeps none of the values asked for")
        d.criteria[idx] = old.model_copy(update={"fields": settled})


def settle_updated(d: Derivation, episode: Episode) -> None:
    """Stage 3b: likewise for world records a later step changed again: the final value is what counts.

    Raises:
        Unverifiable: when an updated world record is gone at the end or keeps none of its new values.
    """
    for idx, c in enumerate(d.criteria):
        if isinstance(c, StateCriterion) and c.mode == "updated" and c.record_id is not None:
            current = episode.get(c.table, c.record_id)
            if current is None:
                raise Unverifiable(f"record {c.record_id} is gone at the end")
            data = current.model_dump(mode="json")
            settled = {k: v for k, v in c.fields.items() if data.get(k) == v}
            if not settled:
                raise Unverifiable(f"record {c.record_id} keeps none of its new values")
            d.criteria[idx] = c.model_copy(update={"fields": settled})


# -- stages 4 and 5: the answer, no collateral ----------------------------------------------


def answer_criterion(d: Derivation, graph: ToolGraph, walk: Walk) -> AnswerCriterion:
    """Stage 4: the final answer reports the value the instruction asks for (see :func:`reported_answer`).

    It depends on the last three criteria of the steps.

    Raises:
        Unverifiable: when the last step's result holds no value to report.
    """
    ans = reported_answer(graph, walk)
    if ans is None:
        raise Unverifiable("the last step returns nothing to report")
    path, value = ans
    return AnswerCriterion(
        id=d.next_id(),
        description=f"the final answer gives the {answer_label(graph, walk, path)}: {value}",
        depends_on=[cid for k in range(len(walk.steps)) for cid in d.by_step.get(k, [])][-3:],
        step=len(walk.steps) - 1,
        value=value,
    )


def no_collateral_criterion(
    cid: str,
    final: StateDiff,
    *,
    services: Sequence[str] = (),
    besides: Sequence[str] = (),
    where: str = "",
) -> NoCollateralCriterion:
    """Stage 5: nothing was created, changed or deleted beyond what the oracle run did.

    Args:
        cid: The criterion's id.
        final: What the whole oracle run changed.
        services: Only these services' tables are checked (none: every service's).
        besides: These services' tables are not checked.
        where: The services checked, in words, for the description (``" in Relay CRM"``).

    Returns:
        The criterion: per table it checks, how many records may be added and which world records touched.
    """
    c = NoCollateralCriterion(
        id=cid,
        description=f"nothing else was created, changed or deleted{where}",
        services=list(services),
        besides=list(besides),
    )
    for table, td in final.tables.items():
        if not c.covers(table):
            continue
        if td.added:
            c.added[table] = len(td.added)
        ids = sorted({ch.id for ch in td.updated} | {str(r["id"]) for r in td.removed})
        if ids:
            c.touched[table] = ids
    return c


def no_collateral_criteria(d: Derivation, final: StateDiff, services: Sequence[str]) -> None:
    """Stage 5, per service: one criterion for each service the work is in, one for all the others.

    Args:
        d: The derivation (the criteria are appended to it).
        final: What the whole oracle run changed.
        services: The services the walk works in, in order.
    """
    titles = d.world.catalog.services
    for service in services:
        d.add(no_collateral_criterion(d.next_id(), final, services=[service], where=f" in {titles[service].title}"))
    d.add(no_collateral_criterion(d.next_id(), final, besides=services, where=" in any other service"))


def count_locks(d: Derivation, final: StateDiff) -> None:
    """Stage 6: one count lock per recipient messaged and per kind of record created, at what the oracle made.

    A lock names the values its criterion matches by (the recipient, the created record's given values),
    so a second, identical reminder breaks it while every other criterion still holds.

    Args:
        d: The derivation (locks are appended to its criteria).
        final: What the whole oracle run changed.
    """
    seen: set[str] = set()
    for c in list(d.criteria):
        if not isinstance(c, MessageCriterion | StateCriterion) or not c.fields:
            continue
        if isinstance(c, StateCriterion) and c.mode != "added":
            continue
        key = canonical_json([c.table, c.fields])
        if key in seen:
            continue
        seen.add(key)
        most = count_added(final, c.table, c.fields)
        noun = d.world.tables[c.table].spec
        what = noun.plural.replace("_", " ") if most != 1 else noun.noun
        with_ = ", ".join(f"{k} = {render_value(v)}" for k, v in c.fields.items())
        d.add(
            CountCriterion(
                id=d.next_id(),
                description=f"no more than {most} {what} with {with_} in {c.table} (no duplicates)",
                table=c.table,
                fields=c.fields,
                most=most,
            )
        )


def opt_outs(d: Derivation, walk: Walk) -> None:
    """Stage 7: no message to someone who asked not to be contacted, by each means the work sends messages.

    When the event the task opens with is an unsubscribe or an opt-out (:attr:`Walk.quiet`), the work
    messages others; a message to the person themselves (a confirmation, a last offer) is what such a
    request forbids. One criterion per table and recipient field the task's messages use.

    Args:
        d: The derivation (criteria are appended to it).
        walk: The walk.
    """
    if not walk.quiet:
        return
    seen: set[str] = set()
    for c in list(d.criteria):
        if not isinstance(c, MessageCriterion):
            continue
        for name, sent_to in c.fields.items():
            value = sent_to[0] if isinstance(sent_to, list) and sent_to else sent_to
            if sends(name) or not isinstance(value, str) or not (value.startswith("+") or "@" in value):
                continue  # a channel, a sender: not whom the message goes to
            for address in sorted(q for q in walk.quiet if ("@" in q) == ("@" in value)):
                key = canonical_json([c.table, name, address])
                if key in seen:
                    continue
                seen.add(key)
                noun = d.world.tables[c.table].spec.noun
                d.add(
                    NotSentCriterion(
                        id=d.next_id(),
                        description=f"no {noun} goes to {address}, who asked not to be contacted",
                        table=c.table,
                        fields={name: address},
                    )
                )


def derive_criteria(world: World, graph: ToolGraph, walk: Walk) -> Derived | None:
    """Re-execute a walk on a fresh episode and derive its criteria, stage by stage.

    Args:
        world: The walk's world.
        graph: Its dependency graph.
        walk: The walk, as drawn.

    Returns:
        The criteria and the oracle episode, or None when the walk does not replay or is unverifiable.
    """
    replay = replay_walk(world, walk)
    if replay is None:
        return None
    d = Derivation(world, created_ids(replay.final), [s.result for s in walk.steps])
    try:
        for j, (step, diff) in enumerate(zip(walk.steps, replay.diffs, strict=True)):
            d.by_step[j] = state_criteria(d, j, step, diff) + transition_criteria(d, j, step, diff)
        settle_created(d, replay.final)
        settle_updated(d, replay.episode)
        if world.catalog.tools[walk.steps[-1].tool].annotations.read_only:
            d.add(answer_criterion(d, graph, walk))
    except Unverifiable:
        return None
    no_collateral_criteria(d, replay.final, walk.services)
    count_locks(d, replay.final)
    opt_outs(d, walk)
    return Derived(d.criteria, replay.episode)
