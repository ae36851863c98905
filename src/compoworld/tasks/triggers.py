"""Trigger events: what happened in the world just before the agent is asked to act.

Automations start from an event: a deal moved to won, a ticket was marked
urgent, an order was cancelled, an invoice went overdue. A scenario does the
same. Once a walk's first step has found the record it is about, a trigger is a
state change of that very record, made by a tool of its service that updates or
moves it through its states (:func:`event_tools`, :func:`fire_trigger`). The
call goes into the task's ``setup``: it runs before the agent starts, and the
instruction opens with what happened (:func:`trigger_message`). Criteria are
measured from the state after the setup, so the event itself earns nothing.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from compoworld.engine.episode import Episode, Snapshot, StateDiff
from compoworld.engine.records import generated_fields
from compoworld.engine.tools import Tool
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool, non_null
from compoworld.tasks.graph import ToolGraph
from compoworld.world.world import World

__all__ = [
    "EVENT_MIX",
    "REACTIONS",
    "Fired",
    "call_key",
    "event_tools",
    "fire_trigger",
    "names_reaction",
    "reactions",
    "silences",
    "trigger_message",
]

# Fields an event may set: the ones people watch (status, stage, priority …), never free text.
_WATCHED = ("status", "stage", "state", "priority", "severity", "tier", "level", "urgency", "health", "phase")
_MESSAGES = (
    "{svc} reports that {subject} changed: {change}.",
    "Heads-up from {svc}: {subject} just changed, {change}.",
    "We just got word from {svc} that {subject} was updated: {change}.",
    "An alert came in from {svc}: {subject} changed, {change}.",
)


# What teams automate after an event, by what the event says (its new value, or the flag it set),
# follow-ups included (a churned customer's account manager gets a task to call them):
# (event pattern, pattern of the tool names that react to it). The first event pattern that matches wins.
REACTIONS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (re.compile(event), re.compile(reaction))
    for event, reaction in (
        # Someone asked not to be contacted: stop contacting them everywhere.
        (
            r"unsubscri|no_consent|opt(ed)?_?out|bounced|complain|do_not|suppress",
            r"suppress|unsubscri|opt_?out|do_not_contact|block_(contact|sender|number|email)|"
            r"(remove|archive)_(contact|member|subscriber|lead)|pause_(enrollment|sequence|subscription)",
        ),
        # Something urgent or late: get the right people on it.
        (
            r"urgent|critical|high|p1|sev1|blocker|escalat|at_risk|overdue|breach|past_due|delinquent|unpaid|fail",
            r"escalat|assign|page|incident|acknowledge|create_(task|issue|ticket|case|activity|card)|remind|flag|priorit|"
            r"hold|retry",
        ),
        # Something ended: wind down what hangs on it.
        (
            r"cancel|refund|lost|churn|terminat|void|declin|reject|expired|revok|suspend|inactive|deactivat|"
            r"disabled|archived|locked|closed|offboard|vacation|paused|on_hold|resign|deprovision|deprecat|"
            r"removed|stopped|retired|deceased|disqualif|non_renewing",
            r"cancel|refund|void|revoke|suspend|deactivat|disable|remove|archive|hold|pause|close|offboard|"
            r"terminat|lock_(card|user|account|member)|block_(user|contact|card|sender|number)|unpublish|unassign|"
            r"reassign|transfer|create_(activity|task)",
        ),
        # Something succeeded: set up what comes next.
        (
            r"won|paid|approved|accepted|verified|confirmed|active|complete|delivered|hired|signed|published|"
            r"resolved|fulfil|shipped|ready|live|enabled|open",
            r"create_(invoice|project|order|shipment|task|issue|account|subscription|employee|contract|booking|"
            r"deal|opportunity|customer|activity|card)|invoice|fulfil|ship|activate|invite|onboard|publish|approve|"
            r"schedule|book|"
            r"provision|grant|add_member|enrol|enroll|convert|assign",
        ),
    )
)


# Prefixes that undo the verb after them: unsuspend, deactivate, deprovision, disapprove, reschedule.
_UNDOING = ("un", "de", "dis", "re")


@functools.cache  # few patterns, a catalog's tool names: every walk's event asks of the same ones
def names_reaction(pattern: re.Pattern[str], action: str) -> bool:
    """Whether a tool's action name (``suspend_user``) is one of a reaction pattern's verbs, not its undoing.

    Args:
        pattern: A reaction pattern of :data:`REACTIONS`.
        action: The tool's name without its service (``deactivate_item``).

    Returns:
        True when some match does not follow a prefix that undoes it: ``activate`` names
        ``activate_listing`` but not ``deactivate_item``; ``suspend`` not ``unsuspend_user``.
    """
    return any(not action[: m.start()].endswith(_UNDOING) for m in pattern.finditer(action))


EVENT_MIX: tuple[float, ...] = (0.15, 0.25, 0.3, 0.3)
"""How often a walk asks for each kind of event of :data:`REACTIONS`, in their order.

Most records' states are mostly endings; without a mix, nearly every task would wind something down.
"""


def reactions(fired: Fired) -> re.Pattern[str] | None:
    """The pattern of tool names that react to an event the way teams do, or None for an event of no known kind.

    Args:
        fired: The event.

    Returns:
        The first of :data:`REACTIONS` whose event pattern matches a new value (or a flag it set).
    """
    said = " ".join(_said(k, v) for k, v in fired.changes.items())
    for event, reaction in REACTIONS:
        if event.search(said):
            return reaction
    return None


# Flags whose clearing ends something (a product no longer active); other flags cleared name no known event.
_LIVE_FLAGS = frozenset({"active", "enabled", "available", "published", "is_active", "is_enabled"})


def _said(field: str, value: Any) -> str:
    """One change as the event patterns read it.

    A flag set reads as its name (``suspended``), a live flag cleared as ``inactive``, any other value as it is.
    """
    if isinstance(value, bool):
        return field if value else ("inactive" if field in _LIVE_FLAGS else "")
    return str(value).casefold()


def silences(fired: Fired) -> bool:
    """Whether an event asks that its subject be contacted no more (an unsubscribe, an opt-out).

    Args:
        fired: The event.

    Returns:
        True when the event is of the first kind of :data:`REACTIONS`.
    """
    return reactions(fired) is REACTIONS[0][1]


@dataclass(frozen=True, slots=True)
class Fired:
    """A trigger event made on an episode.

    Attributes:
        tool: The tool that made it.
        arguments: Its arguments.
        result: What it returned.
        table: The table of the record it changed.
        record: That record's id.
        changes: The watched fields it changed and their new values.
    """

    tool: str
    arguments: dict[str, Any]
    result: Any
    table: str
    record: str
    changes: dict[str, Any]


def event_tools(world: World, graph: ToolGraph, id_semantic: str) -> list[str]:
    """Tools that change a record identified by ``id_semantic`` as an event would (computed once per graph).

    A tool qualifies when it updates or moves through states one record of its service, takes that
    record's id as its only required id, and can set a watched field (status, stage, priority …)
    or needs nothing else to make its change.

    Args:
        world: The world (for its catalog).
        graph: The dependency graph (its cache keeps the answer).
        id_semantic: The semantic type of the record's id, e.g. ``crm.deal.id``.

    Returns:
        Their names, sorted.
    """
    cache: dict[str, list[str]] = graph.cache.setdefault("event_tools", {})
    if id_semantic in cache:
        return cache[id_semantic]
    found = []
    for name in graph.consumers.get(id_semantic, ()):
        tool = world.catalog.tools[name]
        if action_of(tool) not in ("update", "transition"):
            continue
        ids = [p for p in graph.inputs[name] if p.required and p.semantic.endswith(".id")]
        if len(ids) != 1 or ids[0].semantic != id_semantic or "." in ids[0].path or "[" in ids[0].path:
            continue
        if action_of(tool) == "update" and not _watched_enums(tool):
            continue
        found.append(name)
    cache[id_semantic] = sorted(found)
    return cache[id_semantic]


def _watched_enums(tool: Tool) -> dict[str, list[Any]]:
    """The tool's optional parameters with a closed set of values that name a watched field."""
    schema = tool.parameters_schema
    out: dict[str, list[Any]] = {}
    for pname, prop in schema.get("properties", {}).items():
        if pname in tool.required or not any(w in pname for w in _WATCHED):
            continue
        resolved = non_null(prop, schema)
        values = resolved.get("enum")
        if isinstance(values, list) and len(values) >= 2:
            out[pname] = values
    return out


# Event calls made on the world's own state, kept per world (see fire_trigger): the oldest go first beyond
# this many.
_MADE = 16384

# What an event call made on the world's own state: the state after it, its result and its change (see
# _changes), or None for no event.
_Made = tuple[Snapshot, Any, tuple[str, str, dict[str, Any]]] | None


def call_key(name: str, arguments: dict[str, Any]) -> tuple[str, str]:
    """A key of a call that no other call has, for keeping what calls made (a few times cheaper than canonical JSON).

    The arguments' ``repr`` tells values and their types apart (``1`` from ``1.0`` and ``True``); the same
    arguments in another order only get another key.
    """
    return name, repr(arguments)


def _made(world: World, graph: ToolGraph, episode: Episode) -> dict[tuple[str, str], _Made] | None:
    """The event calls made on the world's own state so far, by call, or None when ``episode`` is not in it."""
    if not episode.pristine:
        return None
    made: dict[tuple[str, str], _Made] = graph.cache.setdefault(
        f"event_outcomes:{world.seed}:{world.version}:{episode.seed}", {}
    )
    return made


# Fields that only say when something changed (``state_changed_at``): no one is alerted to them.
_STAMPS = ("_at", "_on", "_date", "_time")


def _changes(world: World, diff: StateDiff) -> tuple[str, str, dict[str, Any]] | None:
    """The one record a call changed and its watched fields' new values, or None if it did otherwise."""
    tables = [(t, td) for t, td in diff.tables.items() if td.added or td.updated or td.removed]
    if len(tables) != 1 or tables[0][1].added or tables[0][1].removed or len(tables[0][1].updated) != 1:
        return None
    table, td = tables[0]
    generated = {name for name, _ in generated_fields(world.tables[table].spec.model)}
    change = td.updated[0]
    # A watched field (status, stage …) or a flag (suspended, archived): what a person would be alerted to.
    watched = {
        k: change.after[k]
        for k in change.changed
        if k not in generated
        and not k.endswith(_STAMPS)
        and (
            isinstance(change.after[k], bool)
            or (
                any(w in k for w in _WATCHED)
                and isinstance(change.after[k], str | int)
                and len(str(change.after[k])) <= 40
            )
        )
    }
    return (table, change.id, watched) if watched else None


@dataclass(frozen=True, slots=True)
class _EventCall:
    """How :func:`fire_trigger` calls an event tool on a record, worked out once per graph.

    Attributes:
        id_param: The parameter that takes the record's id.
        others: The tool's other required parameters, in name order (drawn for each call).
        enums: Its watched parameters with a closed set of values (:func:`_watched_enums`), in name order.
    """

    id_param: str
    others: tuple[str, ...]
    enums: tuple[tuple[str, tuple[Any, ...]], ...]


def _event_call(graph: ToolGraph, tool: Tool, id_semantic: str) -> _EventCall:
    plans: dict[tuple[str, str], _EventCall] = graph.cache.setdefault("event_call_plans", {})
    plan = plans.get((tool.name, id_semantic))
    if plan is None:
        id_param = next(p.path for p in graph.inputs[tool.name] if p.required and p.semantic == id_semantic)
        enums = _watched_enums(tool)
        plan = plans[(tool.name, id_semantic)] = _EventCall(
            id_param,
            tuple(sorted(tool.required - {id_param})),
            tuple((pname, tuple(enums[pname])) for pname in sorted(enums)),
        )
    return plan


def fire_trigger(
    world: World,
    graph: ToolGraph,
    episode: Episode,
    record: tuple[str, str, str],
    pool: ValuePool,
    rng: random.Random,
    want: re.Pattern[str] | None = None,
    carry: frozenset[re.Pattern[str]] | None = None,
) -> Fired | None:
    """Make an event on one record: set a watched field through a tool of its service.

    Args:
        world: The world.
        graph: Its dependency graph.
        episode: The episode to make it on (changed only when an event is made).
        record: ``(id semantic, id parameter value, service)`` of the record the walk found.
        pool: The world's values (for the other arguments an event tool needs).
        rng: Draws the tool and the new value.
        want: An event pattern of :data:`REACTIONS`: values and tools that say it are tried
            first (a mix of kinds of event keeps any one kind from filling a task set).
        carry: The reactions (patterns of :data:`REACTIONS`) the caller can carry the event over to,
            or None for any: an event of another kind (:func:`reactions`) is taken back and the next
            try made (a walk that must carry its event over would only be rejected after it).

    Returns:
        The event, or None when no tool of the record's service makes one of a kind ``carry`` takes.
    """
    id_semantic, record_id, service = record
    # Records on which no event (of the kinds carried) can be made at all, whatever is drawn (the walk's
    # episode is the world's until its event): kept per world, so a record is found dead only once.
    dead: set[tuple[str, ...]] = graph.cache.setdefault(f"no_event:{world.seed}:{world.version}", set())
    kinds = () if carry is None else tuple(sorted(p.pattern for p in carry))
    if (id_semantic, record_id) in dead or (id_semantic, record_id, *kinds) in dead:
        return None
    names = [n for n in event_tools(world, graph, id_semantic) if world.catalog.tools[n].service == service]
    rng.shuffle(names)
    # Whether the tries below are every call that could make an event: then failing says the record is dead.
    every = len(names) <= 4
    gen = ArgumentGenerator(world, pool, service, rng, fresh=False)
    tries: list[tuple[bool, str, dict[str, Any]]] = []
    for name in names[:4]:
        tool = world.catalog.tools[name]
        plan = _event_call(graph, tool, id_semantic)
        schema = tool.parameters_schema
        base: dict[str, Any] = {plan.id_param: record_id}
        for pname in plan.others:
            base[pname] = gen.value(schema["properties"][pname], schema)
            every = False  # another draw of this value might do
        for pname, choices in plan.enums:
            values = list(choices)
            every = every and len(values) <= 3
            rng.shuffle(values)
            said = [(v, want is not None and bool(want.search(_said(pname, v)))) for v in values]
            # The wanted kind's values first, then others: three of each at most.
            picked = [x for x in said if x[1]][:3] + [x for x in said if not x[1]][:3]
            tries.extend((fit, name, base | {pname: v}) for v, fit in picked)
        if not plan.enums:
            tries.append((want is not None and names_reaction(want, name.split("__", 1)[1]), name, base))
    # A declared state move the record's state does not allow is refused: no need to call it.
    tries = [t for t in tries if _may_move(world, episode, t[1], record_id)]
    tries.sort(key=lambda t: not t[0])  # stable: the draw's order within each kind
    every = every and len(tries) <= 12
    # On the world's own state a call's outcome is the call's alone, and walks try the same few values on the
    # same records often: what each call made (the state after its event, or no event) is kept per world.
    made = _made(world, graph, episode)
    refused = False
    for _, name, args in tries[:12]:
        key = call_key(name, args)
        if made is not None and key in made:
            known = made[key]
            if known is None:
                continue  # it made no event
            state, result, change = known
            # A state goes only into an episode of its own world (an equal world built again is another).
            if state.world is episode.world:
                fired = Fired(name, args, result, *change)
                if carry is not None and reactions(fired) not in carry:
                    refused = True
                    continue
                episode.restore(state)
                return fired
        snap = episode.snapshot()
        res = episode.call(name, args)
        found = _changes(world, episode.diff(snap)) if res.ok else None
        if found is None:
            episode.restore(snap)
        # An open-world call is always made: its answer goes into the episode's recording.
        if made is not None and not world.catalog.tools[name].annotations.open_world:
            if len(made) >= _MADE:
                del made[next(iter(made))]  # the oldest
            made[key] = None if found is None else (episode.snapshot(), res.result, found)
        if found is not None:
            fired = Fired(name, args, res.result, *found)
            if carry is None or reactions(fired) in carry:
                return fired
            refused = True
            episode.restore(snap)
    if every:
        # Events of other kinds may still be made on it for a walk that carries them.
        dead.add((id_semantic, record_id, *kinds) if refused else (id_semantic, record_id))
    return None


def _may_move(world: World, episode: Episode, name: str, record_id: str) -> bool:
    """False when ``name`` is a declared state move (``cancel_shipment``) the record's state does not allow."""
    tool = world.catalog.tools[name]
    spec = world.catalog.resources.get(tool.resource) if tool.resource else None
    if spec is None:
        return True
    verb = name.split("__", 1)[1].removesuffix(f"_{spec.name}")
    move = spec.transitions.get(verb)
    if move is None:
        return True
    record = episode.get(spec.table, record_id)
    if record is None:
        return True
    current = getattr(record, move.field, None)
    return current != move.target and current in move.source


def trigger_message(world: World, fired: Fired, subject: str, rng: random.Random) -> str:
    """What the agent is told happened, in words: the service, the record and its new values.

    Args:
        world: The world (for service titles and record nouns).
        fired: The event.
        subject: How the record is named, e.g. ``'the order with order number "SO-1042"'``.
        rng: Picks the wording.
    """
    tool = world.catalog.tools[fired.tool]
    svc = world.catalog.services[tool.service].title
    change = " and ".join(_change(k, v) for k, v in list(fired.changes.items())[:2])
    return rng.choice(_MESSAGES).format(svc=svc, subject=subject, change=change)


def _change(name: str, value: Any) -> str:
    """One changed field in words: ``its status is now "won"``, ``it is now suspended``."""
    words = name.removeprefix("is_").replace("_", " ")
    if isinstance(value, bool):
        return f"it is now {words}" if value else f"it is no longer {words}"
    return f'its {words} is now "{value}"'
