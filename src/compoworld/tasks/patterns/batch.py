"""Batch: the same work on every record a lookup finds, not only on the first.

Real requests are rarely about one record: "every open ticket of this customer gets the new owner",
"each of her invoices is re-sent". A read of the walk that finds, in a one-item list, the record the
later steps act on is where the pattern fits (the sites of :func:`~compoworld.tasks.patterns.exclusion.find_sites`):
one to three more records like it are made in the setup, by the record's own service, in the same
state and with titles of their own, so the list now finds them all; every step that works on the
record, and every step that works on what those made, is done again for each of the others, each
taking its record from the list by the rule (:func:`~compoworld.tasks.transforms.pick_item`).

The instruction asks for the work once and says it goes for every record (the repeated steps are
:attr:`~compoworld.tasks.walk.Walk.repeats`); the agent must see that the list holds several, and
work through each, neither skipping one nor doing one twice. Each record's write has criteria of
its own, and the derived count locks catch a duplicate. Shortcut the task must fail: ``only_one``
(do the work for the record found first and stop).
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.arguments import ArgumentGenerator
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns.base import Part, Shortcut, rerun, value_at
from compoworld.tasks.patterns.exclusion import Site, copy_calls, copy_record, find_sites, person_of, world_pool
from compoworld.tasks.render import source_phrase
from compoworld.tasks.transforms import apply_transform, list_items
from compoworld.tasks.walk import Provenance, Step, Walk
from compoworld.world.world import World

__all__ = ["closure", "find_batch_sites", "plant_batch"]

# Fields of a copy drawn afresh, so that each record reads as its own (a ticket's subject, a task's title).
_OWN = frozenset({"subject", "title", "summary", "name", "description", "body", "notes", "message"})
# Whom a message goes to.
_WHOM = frozenset({"email", "phone"})
# How many more records the list finds, drawn.
_MORE = (2, 2, 3, 3)


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
    sites = find_batch_sites(world, walk)
    rng.shuffle(sites)
    for site in sites[:2]:
        part = _plant(world, graph, walk, rng, site)
        if part is not None:
            return part
    return None


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
                if (j, n) in uses:
                    provenance[n] = _picked(site, other, p)
                else:
                    provenance[n] = replace(
                        p,
                        step=moved.get(p.step, p.step) if p.step is not None else None,
                        parts=tuple((moved.get(k, k), f) for k, f in p.parts),
                    )
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


def _made(world: World, walk: Walk, origin: dict[int, int], was: Walk) -> Walk | None:
    """The walk executed after its setup, each argument made again from what its sources find now.

    A repeated step's message text tells, in place of each fact its original told, the same fact
    found now for the repeat's record (``origin`` maps each repeated step to the step it repeats).
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
            args[name] = text
        if j in origin and any(
            args[n] != steps[origin[j]].arguments.get(n)
            for n, p in step.provenance.items()
            if p.kind != "compose" and p.semantic in _WHOM
        ):
            return None  # a message text is worded for its reader (a greeting): the same reader for every record
        res = episode.call(step.tool, args)
        if not res.ok:
            return None
        results.append(res.result)
        steps.append(replace(step, arguments=args, result=res.result))
    return replace(walk, steps=steps, episode=episode)
