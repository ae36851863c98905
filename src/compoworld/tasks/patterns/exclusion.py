"""Exclusion: records on hold, opted out, closed or inactive are skipped, however well they match.

A lookup by a value many records share (the customer's e-mail, a company, an account) finds the one
the work is about and others in a state the team leaves alone: a ticket on hold, a contact who
unsubscribed, an order cancelled. The pattern makes such siblings, in the setup, by the records'
own services, and says in a note which state to skip. Two places take them:

* a read of the walk that finds, in a one-item list, the record a later write acts on: that record
  is moved to an excluded state (it becomes an old case of the same person, first in the list), and a
  copy of it, made by its service's create tool and brought to the state the original had, becomes
  the record to act on; sometimes a second excluded copy comes between them. The oracle picks its
  record from the whole list by the rule (:func:`~compoworld.tasks.transforms.pick_item`); the write
  must still go through on an excluded sibling, or acting on it would be no trap;
* a message that tells how many records someone has (the ``aggregation`` pattern's count): one or two
  copies of the counted records are planted in an excluded state, the count leaves them out
  (``unless``) and the message tells the smaller number. Asked for without ``aggregation``, the
  pattern makes the count it needs and the task takes on both names.

Every sibling is guarded by an *unchanged* criterion. Shortcuts the task must fail: ``first_match``
(act on the first record the list returns: an excluded one) and ``every_match`` (act on, or count,
every record that matches: the excluded ones too).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from compoworld.engine.context import Ctx
from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import ArgumentGenerator, ValuePool
from compoworld.tasks.criteria import UnchangedCriterion
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns.aggregation import plant_aggregation
from compoworld.tasks.patterns.base import Negative, Part, Shortcut, literal_step, rerun, singled, with_argument
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.roles import sends
from compoworld.tasks.transforms import count_items, list_items, pick_item
from compoworld.tasks.walk import Provenance, Step, Walk, produced_values
from compoworld.world.world import World

__all__ = [
    "EXCLUDED",
    "Count",
    "Site",
    "copy_calls",
    "copy_record",
    "excluded_state",
    "find_counts",
    "find_sites",
    "person_of",
    "plant_exclusion",
    "world_pool",
]

EXCLUDED = re.compile(
    r"clos|cancel|archiv|inactiv|deactivat|suspend|hold|paus|opt_?out|opted|unsubscri|do_not|block|expir|void|"
    r"disabl|lock|retir|terminat|lost|declin|reject|withdrawn|deleted|cleaned|bounced|dormant|frozen|no_show|"
    r"pending_approval|disputed|flagged|quarantin|solved|resolved|complet|fulfil|finished|ended|refund"
)
"""Words of a state (a status value, a flag's name) in which a team leaves a record alone."""

# What a record says about its person or company.
_PERSONAL = frozenset({"email", "phone", "person.name", "person.first_name", "person.last_name", "company.name"})
# States as people say them.
_SAID = {"hold": "on hold", "pending_approval": "pending approval", "no_show": "a no-show"}
# Flags whose clearing is the excluded state (a record no longer active).
_LIVE = frozenset({"active", "is_active", "enabled", "is_enabled", "available"})
# Fields that carry a record's state: its status, a flag that it is live, a flag that it is to be skipped.
_STATUS = frozenset({"status", "state", "stage"})
# How often a second excluded copy is planted between the old record and the right one.
_SECOND = 0.35


@dataclass(frozen=True, slots=True)
class Site:
    """A read of the walk that finds, in a one-item list, the record a later write acts on.

    Attributes:
        step: The read.
        key: Where the list is in its result (``items``).
        table: The record's table.
        record_id: The record it found (a world record).
        uses: ``(step, argument, field of the record)`` of every later argument taken from it.
    """

    step: int
    key: str
    table: str
    record_id: str
    uses: tuple[tuple[int, str, str], ...]


def excluded_state(field: str, value: Any) -> str | None:
    """A state in words when it is one a team skips (``closed``, ``marked do not contact``), else None.

    Args:
        field: The field (``status``, ``do_not_contact``, ``active``).
        value: Its value in that state.
    """
    words = field.removeprefix("is_").replace("_", " ")
    if isinstance(value, bool):
        if value and EXCLUDED.search(field):
            return words if field.endswith(("ed", "hold")) else f"marked {words}"
        return f"not {words}" if not value and field in _LIVE else None
    if isinstance(value, str) and EXCLUDED.search(value.casefold()):
        said = _SAID.get(value.casefold(), value.casefold().replace("_", " "))
        return said if field in _STATUS else f"{words} {said!r}"
    return None


def find_sites(world: World, walk: Walk, *, refs: bool = False) -> list[Site]:
    """Reads of the walk (after its first step) whose one-item list holds the world record a later write acts on.

    With ``refs``, a write that acts on a record the item refers to (a vote's article, by ``article_id``)
    counts as acting on it too.

    Every later use of the record must take one of its own fields (its id for the write); a message
    fact or a derived value taken from it would no longer be one record's.

    Args:
        world: The world.
        walk: The walk.

    Returns:
        The sites, in step order.
    """
    tools = world.catalog.tools
    sites: list[Site] = []
    for k, step in enumerate(walk.steps):
        if k == 0 or tools[step.tool].writes or k in walk.told or k in walk.named:
            continue
        if not isinstance(step.result, dict):
            continue
        lists = [(key, v) for key, v in step.result.items() if isinstance(v, list)]
        if len(lists) != 1 or len(lists[0][1]) != 1 or not isinstance(lists[0][1][0], dict):
            continue
        key, (item,) = lists[0]
        record_id = item.get("id")
        spec = _resource_of(world, tools[step.tool].service, record_id)
        if spec is None or not isinstance(record_id, str) or record_id not in world.tables[spec.table].records:
            continue
        uses: list[tuple[int, str, str]] = []
        fits = True
        prefix = f"{key}[0]."
        for j, later in enumerate(walk.steps):
            for name, prov in later.provenance.items():
                if k not in prov.sources:
                    continue
                if prov.kind == "step" and prov.field is not None and prov.field.startswith(prefix):
                    uses.append((j, name, prov.field.removeprefix(prefix)))
                else:
                    fits = False
        acts = any((f == "id" or (refs and f.endswith("_id"))) and tools[walk.steps[j].tool].writes for j, _, f in uses)
        if fits and acts:
            sites.append(Site(k, key, spec.table, record_id, tuple(uses)))
    return sites


def _resource_of(world: World, service: str, record_id: Any) -> Any:
    """The resource of a service whose ids look like ``record_id`` (``tkt_000012``), or None."""
    if not isinstance(record_id, str) or "_" not in record_id:
        return None
    prefix = record_id.rsplit("_", 1)[0]
    found = [s for s in world.catalog.resources.values() if s.service == service and s.prefix == prefix]
    return found[0] if len(found) == 1 else None


def _creates(world: World, graph: ToolGraph, qualified: str) -> list[str]:
    """Tools of a resource's service that may create its records: those named after it first (once per graph)."""
    cache: dict[str, list[str]] = graph.cache.setdefault("exclusion_creates", {})
    if qualified not in cache:
        prior = RecipePrior.default()
        service = qualified.split(".", 1)[0]
        makers = [
            n
            for n in sorted(graph.tools)
            if world.catalog.tools[n].service == service and action_of(world.catalog.tools[n]) == "create"
        ]
        cache[qualified] = sorted(makers, key=lambda n: qualified not in prior.subjects(world.catalog.tools[n]))[:4]
    return cache[qualified]


def _params(world: World, tool: str) -> dict[str, Any]:
    """A tool's parameter schemas by name."""
    props: dict[str, Any] = world.catalog.tools[tool].parameters_schema.get("properties", {})
    return props


def copy_calls(
    world: World, graph: ToolGraph, table: str, original: dict[str, Any], person: dict[str, str] | None = None
) -> list[tuple[str, dict[str, Any]]]:
    """Create calls that may make a copy of a record: its own values where a create tool takes them.

    Each tool's own example is tried too, with the record's values put in where the names match (a
    booking tool makes the invitee of a booking), and what the walk found about the record's person
    where the tool asks for a value of that kind (a ticket's requester e-mail, for a ticket that holds
    the requester's id).
    """
    spec = world.tables[table].spec
    person = person or {}
    calls = []
    for name in _creates(world, graph, spec.qualified):
        tool = world.catalog.tools[name]
        props = _params(world, name)
        semantics = {p.path: p.semantic for p in graph.inputs[name]}
        theirs = {
            k: person[semantics[k]]
            for k in props
            if semantics.get(k) in person and not sends(k) and not _owned(k) and k not in original
        }
        own = {k: original[k] for k in sorted(props) if k in original and original[k] not in (None, "", [])}
        if set(tool.required) <= set(own) | set(theirs):
            calls.append((name, {**own, **theirs}))
        if tool.example is not None:
            try:
                example = tool.example(Ctx(Episode(world), tool, writable=False))
            except Exception:  # a broken example provider: the record's own values are all there is
                example = None
            if isinstance(example, dict):
                calls.append((name, {**example, **own, **theirs}))
    return calls


def _owned(name: str) -> bool:
    """Whether a parameter names someone on the team's side of a record (its owner, assignee, agent)."""
    return any(w in name for w in ("owner", "assignee", "assigned", "agent", "manager", "approver"))


def person_of(world: World, graph: ToolGraph, walk: Walk, k: int) -> dict[str, str]:
    """What the walk found about the person or company step ``k`` looks records up by, by semantic type."""
    found: dict[str, str] = {}
    for prov in walk.steps[k].provenance.values():
        if prov.kind != "step" or prov.step is None:
            continue
        source = walk.steps[prov.step]
        for p in reversed(produced_values(prov.step, source.result, graph.outputs[source.tool])):
            if isinstance(p.value, str) and (p.semantic in _PERSONAL or p.semantic.endswith(".id")):
                found.setdefault(p.semantic, p.value)
    return found


def _movers(world: World, graph: ToolGraph, table: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Calls that change a record's state with nothing but its id and the state: ``(tool, id param, args)``."""
    spec = world.tables[table].spec
    semantic = f"{spec.qualified}.id"
    out = []
    for name in sorted(graph.consumers.get(semantic, ())):
        tool = world.catalog.tools[name]
        if action_of(tool) not in ("update", "transition"):
            continue
        ids = [p for p in graph.inputs[name] if p.required and p.semantic.endswith(".id")]
        if len(ids) != 1 or ids[0].semantic != semantic or "." in ids[0].path:
            continue
        id_param = ids[0].path
        props = _params(world, name)
        settable = [p for p in props if p != id_param and p in spec.model.model_fields and _is_state(p)]
        # What else the move asks for (a reason, a date, who did it) is drawn as a walk draws a value.
        gen = ArgumentGenerator(world, world_pool(world, graph), tool.service, random.Random(name), fresh=False)
        extra = {
            p: gen.value(props[p], tool.parameters_schema, name=p, resource=spec.qualified)
            for p in sorted(set(tool.required) - {id_param})
        }
        if not set(extra) & set(settable):
            out.append((name, id_param, extra))
        for field in settable:
            values = _values(props[field], spec.model.model_fields[field].annotation)
            out += [(name, id_param, {**extra, field: v}) for v in values]
    return out


def world_pool(world: World, graph: ToolGraph) -> ValuePool:
    """The world's values for the other arguments a move asks for, built once per graph."""
    key = f"exclusion_pool:{world.seed}:{world.version}"
    pool: ValuePool | None = graph.cache.get(key)
    if pool is None:
        pool = graph.cache[key] = ValuePool.from_world(world)
    return pool


def _is_state(field: str) -> bool:
    """Whether a field says what state its record is in (a status, a live flag, a flag to skip it by)."""
    return field in _STATUS or field in _LIVE or EXCLUDED.search(field) is not None


def _values(schema: dict[str, Any], annotation: Any) -> list[Any]:
    """The values a state parameter takes: its enum, or both truth values of a flag."""
    for option in [schema, *schema.get("anyOf", [])]:
        if isinstance(option.get("enum"), list):
            return list(option["enum"])
        if option.get("type") == "boolean":
            return [True, False]
    return [True, False] if annotation is bool else []


@dataclass(frozen=True, slots=True)
class _Exclusion:
    """Moves that put a record in a state to skip (one or two: a ticket is solved before it is closed).

    Attributes:
        moves: ``(tool, id parameter, other arguments)`` of each call, in order.
        field: The field that says the state.
        value: Its value in that state.
        words: The state in words (``closed``).
    """

    moves: tuple[tuple[str, str, dict[str, Any]], ...]
    field: str
    value: Any
    words: str

    def apply(self, episode: Episode, record_id: str) -> list[Step] | None:
        """Make the moves on a record; the calls made, or None (the episode as it was) when one fails."""
        snap = episode.snapshot()
        steps = []
        for tool, id_param, extra in self.moves:
            args = {id_param: record_id, **extra}
            res = episode.call(tool, args)
            if not res.ok:
                episode.restore(snap)
                return None
            steps.append(literal_step(tool, args, res.result))
        return steps


def _exclusions(world: World, graph: ToolGraph, episode: Episode, table: str, record_id: str) -> list[_Exclusion]:
    """The moves (one or two) that put a record in a state a team skips, tried on the episode (left as it was)."""
    out: list[_Exclusion] = []
    before = episode.get(table, record_id)
    if before is None:
        return out
    movers = _movers(world, graph, table)
    seen: set[tuple[str, str]] = set()

    def visit(moves: tuple[tuple[str, str, dict[str, Any]], ...]) -> None:
        snap = episode.snapshot()
        for name, id_param, extra in moves[:-1]:
            episode.call(name, {id_param: record_id, **extra})
        name, id_param, extra = moves[-1]
        res = episode.call(name, {id_param: record_id, **extra})
        after = episode.get(table, record_id)
        if res.ok and after is not None:
            changed = [
                f
                for f in world.tables[table].spec.model.model_fields
                if _is_state(f) and getattr(after, f, None) != getattr(before, f, None)
            ]
            words = [(f, excluded_state(f, getattr(after, f))) for f in changed]
            state = next(((f, w) for f, w in words if w is not None), None)
            if state is not None and (state[0], str(getattr(after, state[0]))) not in seen:
                seen.add((state[0], str(getattr(after, state[0]))))
                out.append(_Exclusion(moves, state[0], getattr(after, state[0]), state[1]))
            elif state is None and changed and len(moves) == 1:
                # A step on the way (a ticket solved first): one more move may reach a state to skip.
                episode.restore(snap)
                for more in movers:
                    visit((*moves, more))
                return
        episode.restore(snap)

    for mover in movers:
        visit((mover,))
    return out


def _same_state(
    world: World, graph: ToolGraph, episode: Episode, table: str, copy_id: str, original: Any
) -> list[Step] | None:
    """Calls that bring a new copy to the state of the record it copies ([] when it is there), or None."""
    spec = world.tables[table].spec
    wanted = {f: getattr(original, f) for f in spec.model.model_fields if _is_state(f)}

    def differs() -> dict[str, Any]:
        now = episode.get(table, copy_id)
        return {f: v for f, v in wanted.items() if now is None or getattr(now, f, None) != v}

    if not differs():
        return []
    for name, id_param, extra in _movers(world, graph, table):
        snap = episode.snapshot()
        args = {id_param: copy_id, **extra}
        res = episode.call(name, args)
        if res.ok and not differs():
            return [literal_step(name, args, res.result)]
        episode.restore(snap)
    return None


def plant_exclusion(
    world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]
) -> Part | None:
    """The ``exclusion`` pattern: the record a write acts on is found among siblings in a state to skip.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the site, the excluded state and whether a second sibling is planted.
        names: The patterns asked for (unused: the planter is only called for ``exclusion``).

    Returns:
        The part, or None when no read of the walk fits or no excluded state can be made on which the
        write would still go through (a sibling the write cannot touch is no trap).
    """
    sites = find_sites(world, walk)
    rng.shuffle(sites)
    for site in sites[:2]:
        part = _plant(world, graph, walk, rng, site)
        if part is not None:
            return part
    for tally in find_counts(walk):
        part = _plant_count(world, graph, walk, rng, tally)
        if part is not None:
            return part
    if "aggregation" in names or find_counts(walk):
        return None
    # Asked for alone, the pattern makes the count it needs (and says so: the task takes on both).
    counted = plant_aggregation(world, graph, walk, rng, names)
    if counted is None:
        return None
    for tally in find_counts(counted.walk):
        part = _plant_count(world, graph, counted.walk, rng, tally)
        if part is not None:
            return replace(
                part,
                names=("aggregation", "exclusion"),
                inserted=counted.inserted,
                negatives=[*counted.negatives, *part.negatives],
                notes=[*counted.notes, *part.notes],
                shortcuts=[*counted.shortcuts, *part.shortcuts],
            )
    return None


@dataclass(frozen=True, slots=True)
class Count:
    """A message of the walk that tells how many records a list step found (the ``aggregation`` pattern's).

    Attributes:
        step: The list step.
        message: The message step.
        argument: Its text argument that tells the count.
    """

    step: int
    message: int
    argument: str


def find_counts(walk: Walk) -> list[Count]:
    """Messages of the walk that tell a count of a list's records, with no condition on them yet.

    Args:
        walk: The walk.

    Returns:
        The counts, in step order.
    """
    return [
        Count(prov.step, j, name)
        for j, step in enumerate(walk.steps)
        for name, prov in step.provenance.items()
        if prov.kind == "compose"
        and prov.transform == "count_items"
        and prov.step is not None
        and "unless" not in dict(prov.params)
    ]


def _plant_count(world: World, graph: ToolGraph, walk: Walk, rng: random.Random, count: Count) -> Part | None:
    """Siblings in a state to skip among the records a message counts: closed tickets do not count.

    One or two more records like those counted are planted in the setup and moved to an excluded
    state; the count leaves them out (``unless``), and the message tells the smaller number.
    """
    lister = walk.steps[count.step]
    target = walk.steps[count.message]
    prov = target.provenance[count.argument]
    # What the list finds as the walk stands (an earlier pattern's steps may not have been run yet).
    before = Episode(world)
    if not all(before.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    for step in walk.steps[: count.step]:
        before.call(step.tool, step.arguments)
    listed = before.call(lister.tool, lister.arguments)
    records = list_items(listed.result) if listed.ok else None
    old = count_items(listed.result, dict(prov.params)) if listed.ok else None
    if not records or not isinstance(old, int):
        return None
    spec = _resource_of(world, world.catalog.tools[lister.tool].service, records[-1].get("id"))
    if spec is None:
        return None
    # Records planted by the setup are copied by the very calls that made them; others by their values.
    ids = {r.get("id") for r in records}
    copies = [
        (s.tool, s.arguments) for s in walk.setup if isinstance(s.result, dict) and s.result.get("id") in ids
    ] + copy_calls(world, graph, spec.table, records[-1])
    # The excluded state is found on a first copy.
    first = _copy_plain(before, spec.table, copies)
    if first is None:
        return None
    exclusions = [e for e in _exclusions(world, graph, before, spec.table, first[0]) if e.field in records[-1]]
    if not exclusions:
        return None
    exclusion = rng.choice(exclusions)
    episode = Episode(world)
    setup: list[Step] = []
    siblings: list[str] = []
    for _ in range(1 if rng.random() >= _SECOND else 2):
        made = _copy_plain(episode, spec.table, copies)
        if made is None:
            return None
        copy_id, step = made
        moved = exclusion.apply(episode, copy_id)
        if moved is None:
            return None
        setup += [step, *moved]
        siblings.append(copy_id)
    unless = ((exclusion.field, [exclusion.value]),)
    params = {**dict(prov.params), "unless": unless}
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    for step in walk.steps[: count.step]:
        episode.call(step.tool, step.arguments)
    found = episode.call(lister.tool, lister.arguments)
    every = count_items(found.result, dict(prov.params)) if found.ok else None
    live = count_items(found.result, params) if found.ok else None
    seen = {r.get("id") for r in list_items(found.result) or []}
    if not isinstance(live, int) or not isinstance(every, int) or live < 2 or every == live:
        return None
    if not set(siblings) <= seen:
        return None
    body = str(target.arguments[count.argument])
    told = _retell(body, old, live)
    wrong = _retell(body, old, every)
    if told is None or wrong is None:
        return None
    steps = list(walk.steps)
    steps[count.message] = with_argument(
        target, count.argument, told, replace(prov, params=tuple(sorted(params.items())))
    )
    new = rerun(world, replace(walk, steps=steps, setup=[*setup, *walk.setup]))
    if new is None or not singled(new):
        return None
    svc = world.catalog.services[world.catalog.tools[lister.tool].service].title
    plural = spec.plural.replace("_", " ")
    note = rng.choice(
        (
            f"{plural.capitalize()} in {svc} that are {exclusion.words} do not count, and they stay as they are.",
            f"Leave {plural} that are {exclusion.words} out of any count, and leave them alone in {svc}.",
        )
    )
    negatives: list[Negative] = [
        UnchangedCriterion(
            id="",
            description=f"the {spec.noun} {sibling}, {exclusion.words}, is left alone",
            table=spec.table,
            record_id=sibling,
            why=f"a {spec.noun} {exclusion.words}, to be skipped",
        )
        for sibling in siblings
    ]
    shortcuts = [Shortcut("every_match", choice=(count.message, count.argument, wrong))]
    return Part(names=("exclusion",), walk=new, negatives=negatives, notes=[note], shortcuts=shortcuts)


def _retell(body: str, old: int, new: int) -> str | None:
    """The message with the count it tells (its last whole number ``old``) made ``new``, or None if it tells none."""
    found = list(re.finditer(rf"(?<![\w.,/-]){old}(?!\w)(?![.,/-]\w)", body))
    if not found:
        return None
    at = found[-1]
    return f"{body[: at.start()]}{new}{body[at.end() :]}"


def _copy_plain(episode: Episode, table: str, copies: list[tuple[str, dict[str, Any]]]) -> tuple[str, Step] | None:
    """A copy of a record made on the episode by the first create call that makes one: its id and the call."""
    for tool, args in copies:
        snap = episode.snapshot()
        res = episode.call(tool, args)
        added = episode.diff(snap).tables.get(table) if res.ok else None
        made = [str(r["id"]) for r in added.added] if added is not None else []
        if len(made) == 1:
            return made[0], literal_step(tool, args, res.result)
        episode.restore(snap)
    return None


def _plant(world: World, graph: ToolGraph, walk: Walk, rng: random.Random, site: Site) -> Part | None:
    """The pattern on one site (see :func:`plant_exclusion`)."""
    table = world.tables[site.table]
    original = table.records[site.record_id]
    person = person_of(world, graph, walk, site.step)
    copies = copy_calls(world, graph, site.table, original.model_dump(mode="json"), person)
    if not copies:
        return None
    episode = Episode(world)
    exclusions = _exclusions(world, graph, episode, site.table, site.record_id)
    if not exclusions:
        return None
    rng.shuffle(exclusions)
    for exclusion in exclusions[:3]:
        part = _with(world, graph, walk, rng, site, copies, exclusion, original)
        if part is not None:
            return part
    return None


def _with(
    world: World,
    graph: ToolGraph,
    walk: Walk,
    rng: random.Random,
    site: Site,
    copies: list[tuple[str, dict[str, Any]]],
    exclusion: _Exclusion,
    original: Any,
) -> Part | None:
    """The pattern on one site with one excluded state, or None when the walk no longer holds with it."""
    spec = world.tables[site.table].spec
    episode = Episode(world)
    setup: list[Step] = []
    # The record the walk found becomes an old case, in the state to skip.
    moved = exclusion.apply(episode, site.record_id)
    if moved is None:
        return None
    setup += moved
    siblings = [site.record_id]
    second = rng.random() < _SECOND
    made: str | None = None
    for n in range(2 if second else 1):
        last = n == (1 if second else 0)
        copy = copy_record(world, graph, episode, site, copies, original, None if last else exclusion)
        if copy is None:
            if last:
                return None
            continue
        copy_id, steps = copy
        setup += steps
        if last:
            made = copy_id
        else:
            siblings.append(copy_id)
    if made is None:
        return None
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    for step in walk.steps[: site.step]:
        episode.call(step.tool, step.arguments)
    found = episode.call(walk.steps[site.step].tool, walk.steps[site.step].arguments)
    records = list_items(found.result) if found.ok else None
    unless = ((exclusion.field, [exclusion.value]),)
    if records is None or [r.get("id") for r in records] != [*siblings, made]:
        return None
    if pick_item(found.result, {"take": "id", "unless": unless}) != made:
        return None
    chosen = next(r for r in records if r.get("id") == made)
    steps = list(walk.steps)
    for j, name, field in site.uses:
        params = {"take": field, "unless": unless}
        later = steps[j]
        old = later.provenance[name]
        prov = Provenance(
            "derived", site.step, "", old.semantic, transform="pick_item", params=tuple(sorted(params.items()))
        )
        value = chosen.get(field)
        steps[j] = with_argument(later, name, [value] if isinstance(later.arguments[name], list) else value, prov)
    new = replace(walk, steps=steps, setup=[*setup, *walk.setup])
    made_again = rerun(world, new)
    if made_again is None or not singled(made_again) or not _trap_holds(world, made_again, site, siblings):
        return None
    svc = world.catalog.services[world.catalog.tools[walk.steps[site.step].tool].service].title
    plural = spec.plural.replace("_", " ")
    note = rng.choice(
        (
            f"Some {plural} in {svc} may be {exclusion.words}: leave those alone.",
            f"Skip any {spec.noun} in {svc} that is {exclusion.words}; only the live one is to be worked on.",
            f"Leave {plural} that are {exclusion.words} in {svc} as they are.",
        )
    )
    write = next(j for j, _, f in site.uses if f == "id" and world.catalog.tools[steps[j].tool].writes)
    id_name = next(n for j, n, f in site.uses if j == write and f == "id")
    negatives: list[Negative] = [
        UnchangedCriterion(
            id="",
            description=f"the {spec.noun} {sibling}, {exclusion.words}, is left alone",
            table=site.table,
            record_id=sibling,
            why=f"a {spec.noun} {exclusion.words}, to be skipped",
        )
        for sibling in siblings
    ]
    first = [site.record_id] if isinstance(steps[write].arguments[id_name], list) else site.record_id
    shortcuts = [
        Shortcut("first_match", choice=(write, id_name, first)),
        Shortcut("every_match", also=(made, site.record_id)),
    ]
    return Part(names=("exclusion",), walk=made_again, negatives=negatives, notes=[note], shortcuts=shortcuts)


def copy_record(
    world: World,
    graph: ToolGraph,
    episode: Episode,
    site: Site,
    copies: list[tuple[str, dict[str, Any]]],
    original: Any,
    exclusion: _Exclusion | None = None,
) -> tuple[str, list[Step]] | None:
    """A copy of a site's record made on the episode: its id and the calls that made it.

    Args:
        world: The world.
        graph: Its dependency graph.
        episode: Where the copy is made (left as it was when none can be).
        site: The read whose record is copied.
        copies: Create calls that may make a copy (:func:`copy_calls`), tried in order.
        original: The record copied.
        exclusion: Moves that put the copy in a state to skip; None: it is brought to the original's state.

    Returns:
        The copy's id and calls, or None when no call makes one in the state wanted.
    """
    for tool, args in copies:
        snap = episode.snapshot()
        res = episode.call(tool, args)
        added = episode.diff(snap).tables.get(site.table) if res.ok else None
        # The one record of the table the call made (a booking tool makes the invitee of its booking).
        made = [str(r["id"]) for r in added.added] if added is not None else []
        if len(made) != 1:
            episode.restore(snap)
            continue
        copy_id = made[0]
        steps = [literal_step(tool, args, res.result)]
        if exclusion is not None:
            moved = exclusion.apply(episode, copy_id)
            if moved is None:
                episode.restore(snap)
                continue
            steps += moved
        else:
            moves = _same_state(world, graph, episode, site.table, copy_id, original)
            if moves is None:
                episode.restore(snap)
                continue
            steps += moves
        return copy_id, steps
    return None


def _trap_holds(world: World, walk: Walk, site: Site, siblings: list[str]) -> bool:
    """Whether the write would go through on an excluded sibling too (so acting on it is possible, and wrong)."""
    tools = world.catalog.tools
    episode = walk.episode
    for j, name, field in site.uses:
        step = walk.steps[j]
        if field != "id" or not tools[step.tool].writes:
            continue
        for sibling in siblings:
            snap = episode.snapshot()
            value = [sibling] if isinstance(step.arguments[name], list) else sibling
            res = episode.call(step.tool, {**step.arguments, name: value})
            changed = res.ok and any(c.id == sibling for td in episode.diff(snap).tables.values() for c in td.updated)
            episode.restore(snap)
            if not changed:
                return False
    return True
