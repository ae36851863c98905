"""Decoys: a near-duplicate of a record the work acts on, planted in the state of the record it imitates.

The same person under a look-alike e-mail domain, a product under a variant SKU: the walk's own lookups
by the exact value still find one record, while an agent that searches by name finds two. The decoy is
made by the record's own service before anything happens, brought to the original's state, and guarded
by an *unchanged* criterion; the ``every_match`` shortcut (act on both) must fail the task.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.tasks.actions import action_of
from compoworld.tasks.criteria import UnchangedCriterion
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns.base import Part, Shortcut, literal_step
from compoworld.tasks.triggers import event_tools
from compoworld.tasks.walk import Step, Walk
from compoworld.world.world import World

__all__ = ["Decoy", "near_duplicate", "near_duplicate_email", "plant_decoy", "plant_decoys"]


@dataclass(frozen=True, slots=True)
class Decoy:
    """A near-duplicate planted in the setup.

    Attributes:
        steps: The setup calls that create it and bring it to the state of the record it imitates.
        table: Its table.
        record_id: Its id, as the call returned it.
        of: The id of the record it imitates.
        why: What it is, in words.
    """

    steps: list[Step]
    table: str
    record_id: str
    of: str
    why: str


def _lookalikes(domain: str) -> list[str]:
    """Look-alike domains a second record of the same person may carry (a typo, a subsidiary, an old signup)."""
    stem, _, tld = domain.rpartition(".")
    found = [f"{stem}.co" if tld == "com" else "", f"{stem}.net" if tld != "net" else "", f"{stem}-group.{tld}"]
    return [d for d in [*found, f"mail.{domain}"] if d and d != domain]


def near_duplicate_email(email: str, rng: random.Random, taken: set[str] | None = None) -> str | None:
    """The same mailbox name at a look-alike domain (``jane.doe@acme.co`` for ``jane.doe@acme.com``).

    Args:
        email: The address to imitate.
        rng: Draws the look-alike.
        taken: Addresses already in use (casefolded), never returned.

    Returns:
        The look-alike address, or None when ``email`` is no address or every look-alike is taken.
    """
    local, at, domain = email.partition("@")
    if not at or not local or "." not in domain:
        return None
    variants = _lookalikes(domain)
    rng.shuffle(variants)
    for variant in variants:
        candidate = f"{local}@{variant}"
        if taken is None or candidate.casefold() not in taken:
            return candidate
    return None


def _targets(world: World, graph: ToolGraph, walk: Walk) -> list[tuple[str, str, str, str]]:
    """World records the walk changes after finding them by a value: ``(table, id, field, value)``.

    A record qualifies when a step updates or moves it, its id came from an earlier read that filtered
    on one of its own fields by the value it holds there (an e-mail, a SKU, a company), and the world
    held it before the walk.
    """
    tools = world.catalog.tools
    found = []
    for step in walk.steps:
        tool = tools[step.tool]
        if action_of(tool) not in ("update", "transition"):
            continue
        for port in graph.inputs[step.tool]:
            prov = step.provenance.get(port.path)
            if prov is None or prov.kind != "step" or not port.semantic.endswith(".id") or prov.step is None:
                continue
            spec = world.catalog.resources.get(port.semantic.removesuffix(".id"))
            record_id = step.arguments.get(port.path)
            if spec is None or not isinstance(record_id, str) or record_id not in world.tables[spec.table].records:
                continue
            finder = walk.steps[prov.step]
            if tools[finder.tool].writes or tools[finder.tool].resource != spec.qualified:
                continue
            for name, value in finder.arguments.items():
                if (
                    name in spec.model.model_fields
                    and isinstance(value, str)
                    and finder.provenance[name].kind in ("step", "given")
                    and getattr(world.tables[spec.table].records[record_id], name, None) == value
                ):
                    found.append((spec.table, record_id, name, value))
    return found


_CODE = re.compile(r"^[A-Z0-9][A-Z0-9-]*$")


def near_duplicate(value: str, rng: random.Random, taken: set[str] | None = None) -> str | None:
    """A value that looks like ``value`` and is another: a look-alike e-mail, a variant code, a longer name.

    ``jane.doe@acme.co`` for ``jane.doe@acme.com``, ``WC-1042-B`` for ``WC-1042``, ``Kovacs Consulting
    Group`` for ``Kovacs Consulting``.

    Args:
        value: The value to imitate.
        rng: Draws the variant.
        taken: Values already in use (casefolded), never returned.

    Returns:
        The variant, or None when none fits or every one is taken.
    """
    if "@" in value:
        return near_duplicate_email(value, rng, taken)
    if _CODE.match(value):
        variants = [f"{value}-B", f"{value}-OLD", f"{value}-2"]
    elif " " in value.strip():
        variants = [f"{value} Group", f"{value} Holdings", f"{value} International"]
    else:
        return None
    rng.shuffle(variants)
    return next((v for v in variants if taken is None or v.casefold() not in taken), None)


def plant_decoy(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> Decoy | None:
    """A near-duplicate of a record the walk acts on: the same person at a look-alike e-mail domain, a variant SKU.

    It is made by the create tool of the record's own service, with the record's own values but a
    look-alike of the value the walk found it by (:func:`near_duplicate`), so the walk's lookups by
    that value still find one record, while anyone who looks it up by name finds two.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk.
        rng: Draws the target and the look-alike.

    Returns:
        The decoy, or None when the walk acts on no such record or no decoy can be made.
    """
    targets = _targets(world, graph, walk)
    if not targets:
        return None
    table, record_id, field, value = rng.choice(targets)
    spec = world.tables[table].spec
    record = world.tables[table].records[record_id]
    tools = world.catalog.tools
    creates = [
        n
        for n in graph.tools
        if tools[n].resource == spec.qualified and action_of(tools[n]) == "create" and field in _params(world, n)
    ]
    if not creates:
        return None
    taken = {str(v).casefold() for v in world.tables[table].index(field)}
    lookalike = near_duplicate(value, rng, taken)
    if lookalike is None:
        return None
    for name in sorted(creates):
        required = set(tools[name].required)
        values = record.model_dump(mode="json")
        # The record's own values where the tool takes them, but no second copy of its phone or other
        # unique handles: a duplicate signup shares a name and a company, not a number.
        args: dict[str, Any] = {
            k: values[k]
            for k in sorted(_params(world, name))
            if k in values and values[k] not in (None, "", []) and (k in required or not _handle(k))
        }
        args[field] = lookalike
        if not required <= set(args):
            continue
        # Made first, as the task's setup makes it: the duplicate was there before anything happened.
        episode = Episode(world)
        res = episode.call(name, args)
        if not res.ok or not isinstance(res.result, dict) or not isinstance(res.result.get("id"), str):
            continue
        decoy_id = res.result["id"]
        # A copy still in its first state (a draft listing) is no trap: it is brought to the original's state.
        moves = _same_state(world, graph, episode, spec.table, decoy_id, record)
        if not all(episode.call(call.tool, call.arguments).ok for call in walk.setup):
            continue
        step = literal_step(name, args, res.result)
        why = f"the near-duplicate {spec.noun} with {field.replace('_', ' ')} {lookalike}"
        return Decoy([step, *moves], table, decoy_id, record_id, why)
    return None


# Fields that say what state a record is in: a copy must match them to pass for the original.
_STATE = re.compile(r"^(status|state|stage|active|is_active|enabled|published|archived|suspended)$")


def _same_state(
    world: World, graph: ToolGraph, episode: Episode, table: str, decoy_id: str, original: Any
) -> list[Step]:
    """Calls that move a new copy to the state of the record it imitates (none when it is there already).

    One call of a tool of the record's service that changes its state (:func:`event_tools`) and needs
    nothing but its id and the state to set; [] when none brings it there (the copy stays as it is).
    """
    spec = world.tables[table].spec
    decoy = episode.get(table, decoy_id)
    if decoy is None:
        return []
    target = {
        f: getattr(original, f)
        for f in spec.model.model_fields
        if _STATE.match(f) and getattr(decoy, f, None) != getattr(original, f, None)
    }
    if not target:
        return []
    tools = world.catalog.tools
    for name in event_tools(world, graph, f"{spec.qualified}.id"):
        id_param = next(p.path for p in graph.inputs[name] if p.required and p.semantic == f"{spec.qualified}.id")
        args: dict[str, Any] = {id_param: decoy_id}
        props = tools[name].parameters_schema.get("properties", {})
        args |= {f: v for f, v in target.items() if f in props and isinstance(v, str | bool)}
        if not set(tools[name].required) <= set(args):
            continue
        snap = episode.snapshot()
        res = episode.call(name, args)
        moved = episode.get(table, decoy_id)
        if res.ok and moved is not None and all(getattr(moved, f) == v for f, v in target.items()):
            return [literal_step(name, args, res.result)]
        episode.restore(snap)
    return []


def _params(world: World, tool: str) -> set[str]:
    """A tool's parameter names."""
    return set(world.catalog.tools[tool].parameters_schema.get("properties", {}))


def _handle(name: str) -> bool:
    """Whether a field is a unique handle of its record (a phone, a login, an external id)."""
    return any(w in name for w in ("phone", "login", "username", "handle", "external", "number", "code", "sku"))


def plant_decoys(world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]) -> Part | None:
    """The ``decoys`` pattern: a near-duplicate of a record the walk acts on (:func:`plant_decoy`).

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the target and the look-alike.
        names: The patterns asked for (unused: the planter is only called for ``decoys``).

    Returns:
        The part, or None when no decoy fits.
    """
    decoy = plant_decoy(world, graph, walk, rng)
    if decoy is None:
        return None
    negative = UnchangedCriterion(
        id="", description=f"{decoy.why} is left alone", table=decoy.table, record_id=decoy.record_id, why=decoy.why
    )
    return Part(
        names=("decoys",),
        walk=replace(walk, setup=[*decoy.steps, *walk.setup]),
        negatives=[negative],
        shortcuts=[Shortcut("every_match", also=(decoy.of, decoy.record_id))],
    )
