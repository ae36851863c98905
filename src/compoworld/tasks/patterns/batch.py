"""Batch: the same work on several records, not only on the first.

Real requests are rarely about one record: "every open ticket of this customer gets the new owner",
"each of her invoices is re-sent", "two more people left today". Two forms, the first tried first:

* the event the task opens with happened to one or two other records of its table as well
  (:func:`plant_several`): each is named in the event's message, and every step that works on what
  the first step found is done again for each, its messages going to that record's own people;
* a read of the walk finds, in a one-item list, the record the later steps act on (below).

A read of the walk that finds, in a one-item list, the record the
later steps act on is where the pattern fits (the sites of :func:`~compoworld.tasks.patterns.exclusion.find_sites`):
one to three more records like it are made in the setup, by the record's own service, in the same
state and with titles of their own, so the list now finds them all; every step that works on the
record, and every step that works on what those made, is done again for each of the others, each
taking its record from the list by the rule (:func:`~compoworld.tasks.transforms.pick_item`).

The instruction asks for the work once and says it goes for every record (the repeated steps are
:attr:`~compoworld.tasks.walk.Walk.repeats`); the agent must see that the list holds several, and
work through each, neither skipping one nor doing one twice. Each record's write has criteria of
its own, and the derived count locks catch a duplicate. Shortcut the task must fail, in both forms:
``only_one`` (do the work for the first record and stop).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import replace
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import ArgumentGenerator
from compoworld.tasks.criteria import NotSentCriterion, carries_fact
from compoworld.tasks.graph import ToolGraph, label, render_value
from compoworld.tasks.messages import addressee
from compoworld.tasks.patterns.base import Negative, Part, Shortcut, rerun, value_at, written_record
from compoworld.tasks.patterns.exclusion import Site, copy_calls, copy_record, find_sites, person_of, world_pool
from compoworld.tasks.render import source_phrase
from compoworld.tasks.transforms import apply_transform, list_items
from compoworld.tasks.walk import Provenance, Step, Walk, flatten
from compoworld.world.world import World

__all__ = ["closure", "find_batch_sites", "plant_batch", "plant_several"]

# Fields of a copy drawn afresh, so that each record reads as its own (a ticket's subject, a task's title).
_OWN = frozenset({"subject", "title", "summary", "name", "description", "body", "notes", "message"})
# Whom a message goes to.
_WHOM = frozenset({"email", "phone"})
# How many more records the list finds, drawn.
_MORE = (2, 2, 3, 3)
# How many other records the trigger's event happened to as well, drawn.
_SEVERAL = (1, 1, 2)


def closure(walk: Walk, site: Site) -> list[int]:
    """The steps that work on a site's record: those that use it, and those that use what they found or made.

    Args:
        walk: The walk.
        site: The read that finds the record.

    Returns:
        The steps, in order.
    """
    inside = {j for j, _, _ in site.uses}
    for j in range(site.step + 1, len(walk.steps)):
        if any(k in inside for p in walk.steps[j].provenance.values() for k in p.sources):
            inside.add(j)
    return sorted(inside)


def _picked(site: Site, record_id: str, was: Provenance) -> Provenance:
    """Where a value of one record of the site's list comes from: the record with that id, picked from the list.

    A rule the value was picked by already (skip records on hold: the ``exclusion`` pattern's) stays.
    """
    take = dict(was.params).get("take") if was.kind == "derived" else str(was.field).split("].", 1)[-1]
    params = {**(dict(was.params) if was.kind == "derived" else {}), "take": take, "where": (("id", record_id),)}
    return Provenance(
        "derived", site.step, "", was.semantic, transform="pick_item", params=tuple(sorted(params.items()))
    )


def find_batch_sites(world: World, walk: Walk) -> list[Site]:
    """Reads whose record later steps work on, by its id, to change or add to it (not to send from it).

    The sites of :func:`~compoworld.tasks.patterns.exclusion.find_sites` (a one-item list), and reads
    from whose list an earlier pattern picks the one live record (records on hold beside it).

    Args:
        world: The world.
        walk: The walk.

    Returns:
        The sites, in step order.
    """
    tools = world.catalog.tools
    sites = find_sites(world, walk, refs=True)
    taken = {s.step for s in sites}
    for k, step in enumerate(walk.steps):
        if k in taken or k in walk.told or k in walk.named or tools[step.tool].writes:
            continue
        if not isinstance(step.result, dict):
            continue
        uses = [
            (j, name, str(dict(p.params).get("take")))
            for j, later in enumerate(walk.steps)
            for name, p in later.provenance.items()
            if k in p.sources
        ]
        picked = [
            walk.steps[j].provenance[name]
            for j, name, _ in uses
            if walk.steps[j].provenance[name].kind == "derived"
            and walk.steps[j].provenance[name].transform == "pick_item"
        ]
        if not uses or len(picked) != len(uses):
            continue
        record_id = apply_transform("pick_item", step.result, {**dict(picked[0].params), "take": "id"})
        key = next((key for key, v in step.result.items() if isinstance(v, list)), None)
        table = next(
            (t for t, tab in world.tables.items() if isinstance(record_id, str) and record_id in tab.records), None
        )
        if key is None or table is None:
            continue
        sites.append(Site(k, key, table, str(record_id), tuple(uses)))
    return [
        s
        for s in sorted(sites, key=lambda s: s.step)
        if any(_acts(f) and action_of(tools[walk.steps[j].tool]) not in ("message", "read") for j, _, f in s.uses)
    ]


def _acts(field: str) -> bool:
    """Whether a field of a listed record names what a write acts on: the record, or one it refers to."""
    return field == "id" or field.endswith("_id")


def _varied(
    world: World,
    graph: ToolGraph,
    calls: list[tuple[str, dict[str, Any]]],
    rng: random.Random,
    person: dict[str, str],
    refs: set[str],
) -> list[tuple[str, dict[str, Any]]]:
    """The copy calls with their titles drawn afresh, and the records they refer to (``refs``) other ones.

    A copy of a vote that the work follows to its article must be a vote for another article, or the
    work would be done twice on one.
    """
    pool = world_pool(world, graph)
    out = []
    for tool, args in calls:
        schema = world.catalog.tools[tool].parameters_schema
        props: dict[str, Any] = schema.get("properties", {})
        gen = ArgumentGenerator(world, pool, world.catalog.tools[tool].service, rng, fresh=False)
        new = dict(args)
        for name in sorted(set(args) & _OWN):
            if isinstance(args[name], str) and args[name] not in person.values() and name in props:
                value = gen.value(props[name], schema, name=name, resource=world.catalog.tools[tool].resource)
                if isinstance(value, str) and value:
                    new[name] = value
        for name in sorted(refs & set(props)):
            other = next(
                (v for v in (gen.value(props[name], schema, name=name) for _ in range(4)) if v != args.get(name)), None
            )
            if other is None:
                break
            new[name] = other
        else:
            out.append((tool, new))
    return out


def _resolve(prov: Provenance, value: Any, results: list[Any]) -> Any:
    """An argument made again from what its source steps found now (a list argument stays a list)."""
    if prov.kind == "step" and prov.step is not None and prov.field is not None:
        found = value_at(results[prov.step], prov.field)
    elif prov.kind == "derived" and prov.step is not None and prov.transform:
        found = apply_transform(prov.transform, value_at(results[prov.step], prov.field or ""), dict(prov.params))
    else:
        return value
    return [found] if isinstance(value, list) and not isinstance(found, list) else found


def plant_batch(world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]) -> Part | None:
    """The ``batch`` pattern: the work the walk does on a record is done on every record its lookup finds.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the site, how many more records there are and their titles.
        names: The patterns asked for (unused: the planter is only called for ``batch``).

    Returns:
        The part, or None when no read of the walk fits, no copy of its record can be made, or the
        work no longer goes through on the copies.
    """
    # The event happened to several records: the whole work again, the likelier the longer it is.
    several = plant_several(world, graph, walk, rng)
    if several is not None:
        return several
    sites = find_batch_sites(world, walk)
    rng.shuffle(sites)
    for site in sites[:2]:
        part = _plant(world, graph, walk, rng, site)
        if part is not None:
            return part
    return None


def plant_several(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> Part | None:
    """The event the walk opens with happened to one or two other records too: the whole work is done for each.

    An offboarding rarely comes one leaver at a time; a price change hits several listings. Each other
    record of the trigger's table, found by the same lookup with its own value and named in the
    event's message, gets the same event in the setup; every step that works on what the first
    step found is done again for it (:attr:`~compoworld.tasks.walk.Walk.repeats`), each message
    going to that record's own people. Steps that need nothing of the record (finding the mailbox
    the messages go out from) are done once.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the other record and the wording.

    Returns:
        The part, or None when the walk has no event, no other record can take it, or the work does
        not go through for it (a literal value of the work names the first record's people).
    """
    if not walk.trigger or not walk.setup or walk.repeats or 0 in walk.told or 0 in walk.named:
        return None
    first = walk.steps[0]
    given = [(n, v) for n, v in first.arguments.items() if first.provenance[n].kind == "given"]
    if len(given) != 1 or len(first.arguments) != 1 or not isinstance(given[0][1], str):
        return None
    key, event = given[0][0], walk.setup[-1]
    items = list_items(first.result)
    found = items[0] if items is not None and len(items) == 1 else first.result
    record_id = found.get("id") if isinstance(found, dict) else None
    table = next((t for t, tab in world.tables.items() if record_id in tab.records), None)
    holder = [n for n, v in event.arguments.items() if v == record_id]
    if table is None or len(holder) != 1:
        return None
    chain = [0, *closure(walk, Site(0, "", table, str(record_id), tuple(_uses_of(walk, 0))))]
    if any(j in walk.told or j in walk.named for j in chain):
        return None
    # Values about the first record's people: a value stated for the work that names them cannot go for the other record.
    about = {v for j in chain for _, v in flatten(walk.steps[j].result) if _names(v)}
    literals = [
        str(v)
        for j in chain[1:]
        for n, v in walk.steps[j].arguments.items()
        if walk.steps[j].provenance[n].kind in ("literal", "given")
    ]
    # A literal sharing a name's word with them ("Kovacs Consulting" for Rafael Kovacs) is theirs as well.
    words = {w for a in about for w in re.findall(r"[A-Z][\w'-]{3,}", a)}
    if any(a in lit for lit in literals for a in about) or any(
        set(re.findall(r"[\w'-]+", lit)) & words for lit in literals
    ):
        return None
    used = json.dumps([s.arguments for s in walk.steps] + [s.result for s in walk.steps])
    rows = world.tables[table].records
    counts = Counter(getattr(rec, key, None) for rec in rows.values())
    others = [r for r in rows.values() if isinstance(getattr(r, key, None), str) and counts[getattr(r, key)] == 1]
    others = [r for r in others if r.id != record_id and json.dumps(getattr(r, key))[1:-1] not in used]
    rng.shuffle(others)
    wanted = rng.choice(_SEVERAL)
    taken: list[tuple[str, str]] = []
    part = None
    for other in others[:6]:
        # One record at a time: a record the work does not go through for is passed over.
        tried = _several(
            world, walk, rng, chain, key, [*taken, (str(getattr(other, key)), str(other.id))], holder[0], table
        )
        if tried is not None:
            part = tried
            taken.append((str(getattr(other, key)), str(other.id)))
            if len(taken) == wanted:
                break
    return part


def _moved(prov: Provenance, moved: dict[int, int]) -> Provenance:
    """A repeated step's provenance: the steps it took values from, as repeated for the same record."""
    return replace(
        prov,
        step=moved.get(prov.step, prov.step) if prov.step is not None else None,
        parts=tuple((moved.get(k, k), f) for k, f in prov.parts),
    )


def _uses_of(walk: Walk, k: int) -> list[tuple[int, str, str]]:
    """The arguments of later steps that take a value step ``k`` found: ``(step, name, field)``."""
    return [
        (j, name, str(p.field))
        for j, later in enumerate(walk.steps)
        for name, p in later.provenance.items()
        if k in p.sources
    ]


def _several(
    world: World,
    walk: Walk,
    rng: random.Random,
    chain: list[int],
    key: str,
    others: list[tuple[str, str]],
    holder: str,
    table: str,
) -> Part | None:
    """The walk's work done again for other records (``(value, id)``), their events made in the setup.

    See :func:`plant_several`.
    """
    event = walk.setup[-1]
    episode = Episode(world)
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    setup = list(walk.setup)
    for _, other_id in others:
        args = {**event.arguments, holder: other_id}
        snap = episode.snapshot()
        fired = episode.call(event.tool, args)
        if not fired.ok or not any(c.id == other_id for td in episode.diff(snap).tables.values() for c in td.updated):
            return None
        setup.append(Step(event.tool, args, {n: Provenance("literal") for n in args}, fired.result))
    steps = list(walk.steps)
    origin: dict[int, int] = {}
    lookups: list[int] = []
    for value, _ in others:
        moved: dict[int, int] = {}
        for j in chain:
            moved[j] = len(steps)
            provenance = {n: _moved(p, moved) for n, p in walk.steps[j].provenance.items()}
            arguments = {**walk.steps[j].arguments, key: value} if j == 0 else walk.steps[j].arguments
            steps.append(replace(walk.steps[j], arguments=arguments, provenance=provenance, result=None))
            origin[len(steps) - 1] = j
        lookups.append(moved[0])
    made = _made(world, replace(walk, steps=steps, setup=setup), origin, walk, readers=True)
    if made is None:
        return None
    # Each other record's lookup must find it alone, as the first step found the first one.
    for k, (_, other_id) in zip(lookups, others, strict=True):
        again = list_items(made.steps[k].result)
        found = again[0] if again is not None and len(again) == 1 else made.steps[k].result
        if not isinstance(found, dict) or found.get("id") != other_id:
            return None
    new = rerun(world, replace(made, repeats=frozenset(origin)))
    if new is None:
        return None
    noun = world.tables[table].spec.noun
    subject = " and ".join(f"the {noun} with {label(key)} {render_value(value)}" for value, _ in others)
    also = rng.choice(
        (
            f" The same happened to {subject}.",
            f" So did {subject}.",
            f" {subject[:1].upper()}{subject[1:]} changed the same way.",
        )
    )
    each = "Each of the two" if len(others) == 1 else "Each of them"
    note = rng.choice(
        (
            "Do all of this for each of them, one after the other.",
            f"{each} needs the same handling: work through them one by one.",
            "Handle each the same way, with its own records.",
        )
    )
    return Part(
        names=("batch",),
        walk=replace(new, trigger=walk.trigger + also),
        negatives=_no_leaks(world, new, origin),
        notes=[note],
        shortcuts=[Shortcut("only_one", drop=tuple(sorted(origin)))],
    )


def _told(step: Step, name: str, steps: list[Step]) -> list[str]:
    """The facts a message text of a step tells: the values its parts were found as."""
    prov = step.provenance[name]
    facts = [value_at(steps[k].result, path) for k, path in prov.parts]
    if prov.transform and prov.step is not None:
        facts.append(
            apply_transform(prov.transform, value_at(steps[prov.step].result, prov.field or ""), dict(prov.params))
        )
    return [str(f) for f in facts if isinstance(f, str | int) and not isinstance(f, bool)]


def _no_leaks(world: World, walk: Walk, origin: dict[int, int]) -> list[Negative]:
    """What one record's people must not be told: the facts found for another record, where its message goes to others.

    A message about one customer's account sent to another customer is a leak, whatever else it gets
    right; each repeated message to another reader than its original's gets a criterion both ways.
    """
    out: list[Negative] = []
    for j, j0 in sorted(origin.items()):
        step, was = walk.steps[j], walk.steps[j0]
        spec = written_record(world, step.tool)
        if spec is None or action_of(world.catalog.tools[step.tool]) != "message":
            continue
        fields = spec.model.model_fields
        whom = [n for n, p in step.provenance.items() if p.kind != "compose" and p.semantic in _WHOM and n in fields]
        texts = [n for n, p in step.provenance.items() if p.kind == "compose" and n in fields]
        if not whom or not texts or all(step.arguments[n] == was.arguments[n] for n in whom):
            continue
        for reader, mine in ((step, was), (was, step)):
            # The other record's facts its own message tells and this reader's does not.
            facts = {
                n: [f for f in _told(mine, n, walk.steps) if not carries_fact(str(reader.arguments[n]), f)]
                for n in texts
            }
            facts = {n: sorted(set(f)) for n, f in facts.items() if f}
            address = reader.arguments[whom[0]]
            address = address[0] if isinstance(address, list) and len(address) == 1 else address
            if not facts or not isinstance(address, str):
                continue
            told = ", ".join(f for fs in facts.values() for f in fs)
            out.append(
                NotSentCriterion(
                    id="",
                    description=f"no {spec.noun} to {address} tells what was found for another record ({told})",
                    table=spec.table,
                    fields={whom[0]: address},
                    contains=facts,
                )
            )
    return out


def _plant(world: World, graph: ToolGraph, walk: Walk, rng: random.Random, site: Site) -> Part | None:
    """The pattern on one site (see :func:`plant_batch`)."""
    tools = world.catalog.tools
    chain = closure(walk, site)
    if not any(tools[walk.steps[j].tool].writes for j in chain):
        return None
    if any(j in walk.told or j in walk.named or j in walk.repeats for j in chain):
        return None
    original = world.tables[site.table].records[site.record_id]
    person = person_of(world, graph, walk, site.step)
    calls = copy_calls(world, graph, site.table, original.model_dump(mode="json"), person)
    refs = {f for j, _, f in site.uses if f != "id" and _acts(f) and tools[walk.steps[j].tool].writes}
    if not calls:
        return None
    episode = Episode(world)
    setup: list[Step] = []
    others: list[str] = []
    for _ in range(rng.choice(_MORE)):
        made = copy_record(world, graph, episode, site, _varied(world, graph, calls, rng, person, refs), original)
        if made is None:
            break
        others.append(made[0])
        setup += made[1]
    if not others:
        return None
    # The records as the list finds them, the one the walk found among them.
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    for step in walk.steps[: site.step]:
        episode.call(step.tool, step.arguments)
    found = episode.call(walk.steps[site.step].tool, walk.steps[site.step].arguments)
    listed = list_items(found.result) if found.ok else None
    before = list_items(walk.steps[site.step].result) or []
    was = {str(r.get("id")) for r in before}
    if listed is None or site.record_id not in was or {str(r.get("id")) for r in listed} != was | set(others):
        return None
    order = [str(r.get("id")) for r in listed if str(r.get("id")) in {site.record_id, *others}]
    uses = {(j, name): field for j, name, field in site.uses}
    # The walk's own steps take their record from the list by its id; then the chain again per other record.
    steps = [
        replace(
            step,
            provenance={
                n: _picked(site, site.record_id, p) if (j, n) in uses else p for n, p in step.provenance.items()
            },
        )
        for j, step in enumerate(walk.steps)
    ]
    repeats: list[int] = []
    origin: dict[int, int] = {}
    for other in (r for r in order if r != site.record_id):
        moved: dict[int, int] = {}
        for j in chain:
            moved[j] = len(steps)
            provenance = {}
            for n, p in walk.steps[j].provenance.items():
                provenance[n] = _picked(site, other, p) if (j, n) in uses else _moved(p, moved)
            steps.append(replace(walk.steps[j], provenance=provenance, result=None))
            repeats.append(len(steps) - 1)
            origin[len(steps) - 1] = j
    made_walk = _made(world, replace(walk, steps=steps, setup=[*setup, *walk.setup]), origin, walk)
    if made_walk is None:
        return None
    new = rerun(world, replace(made_walk, repeats=frozenset(repeats)))
    if new is None:
        return None
    svc = world.catalog.services[tools[walk.steps[site.step].tool].service].title
    spec = world.tables[site.table].spec
    records = source_phrase(world, new, site.step, "")
    note = rng.choice(
        (
            f"This goes for every one of {records}, not only the first: each is handled on its own.",
            f"There may be more than one {spec.noun} in {svc}: do the same for each of {records}.",
            f"Work through all of {records}, one by one, each the same way.",
        )
    )
    return Part(
        names=("batch",),
        walk=new,
        notes=[note],
        shortcuts=[Shortcut("only_one", drop=tuple(repeats))],
    )


def _made(world: World, walk: Walk, origin: dict[int, int], was: Walk, *, readers: bool = False) -> Walk | None:
    """The walk executed after its setup, each argument made again from what its sources find now.

    A repeated step's message text tells, in place of each fact its original told, the same fact
    found now for the repeat's record (``origin`` maps each repeated step to the step it repeats).
    With ``readers``, a repeated message may go to another reader than its original (each changed
    record's own person), greeted by their own name; without, it must go to the same one.
    """
    episode = Episode(world)
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    results: list[Any] = []
    steps: list[Step] = []
    for j, step in enumerate(walk.steps):
        args = dict(step.arguments)
        for name, prov in step.provenance.items():
            if prov.kind != "compose":
                args[name] = _resolve(prov, args[name], results)
                continue
            text = str(args[name])
            if j in origin:
                parts = was.steps[origin[j]].provenance[name].parts
                for (k, path), (k0, _) in zip(prov.parts, parts, strict=True):
                    old, now = value_at(was.steps[k0].result, path), value_at(results[k], path)
                    if isinstance(old, str) and isinstance(now, str):
                        text = text.replace(old, now)
                first = was.steps[origin[j]].provenance[name]
                if prov.transform and prov.step is not None and first.step is not None:
                    # A fact derived from what a step found (how many tickets someone has), for this record.
                    told = apply_transform(
                        prov.transform, value_at(was.steps[first.step].result, prov.field or ""), dict(prov.params)
                    )
                    now = apply_transform(
                        prov.transform, value_at(results[prov.step], prov.field or ""), dict(prov.params)
                    )
                    text = _told_again(text, told, now)
            args[name] = text
        if j in origin and any(
            args[n] != steps[origin[j]].arguments.get(n)
            for n, p in step.provenance.items()
            if p.kind != "compose" and p.semantic in _WHOM
        ):
            # A message text is worded for its reader (a greeting): another reader is greeted by name.
            greeted = _greeted(step, args, origin, was, results) if readers else None
            if greeted is None:
                return None
            args = greeted
        res = episode.call(step.tool, args)
        if not res.ok:
            return None
        results.append(res.result)
        steps.append(replace(step, arguments=args, result=res.result))
    return replace(walk, steps=steps, episode=episode)


def _told_again(text: str, told: Any, now: Any) -> str:
    """A text that told one derived value (a count) telling another in its place."""
    if told is None or now is None or str(told) == str(now):
        return text
    return re.sub(rf"(?<![\w.]){re.escape(str(told))}(?![\w.])", str(now), text, count=1)


def _greeted(
    step: Step, args: dict[str, Any], origin: dict[int, int], was: Walk, results: list[Any]
) -> dict[str, Any] | None:
    """A repeated message's arguments greeting its own reader, or None when their name is not found.

    The original greets its reader by a first name the walk found (a contact's name); the repeat's
    reader is greeted by the name found at the same place for the repeat's record.
    """
    out = dict(args)
    moved = {k0: k for k, k0 in origin.items() if k < len(results)}
    for name, prov in step.provenance.items():
        if prov.kind != "compose":
            continue
        text = str(args[name])
        old = addressee(text)
        if old is None:
            continue
        new = None
        for k0, k in moved.items():
            for path, value in flatten(was.steps[k0].result):
                if isinstance(value, str) and value.split(" ")[0] == old and path.rsplit(".", 1)[-1].endswith("name"):
                    found = value_at(results[k], path)
                    new = found.split(" ")[0] if isinstance(found, str) and found else None
                    break
            if new is not None:
                break
        if new is None:
            return None
        out[name] = text.replace(old, new, 1)
    return out


def _names(value: Any) -> bool:
    """Whether a found value may name someone or something (a person, company, address or title), not a status."""
    return isinstance(value, str) and len(value) >= 4 and (" " in value or "@" in value or value[:1].isupper())
