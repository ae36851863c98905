"""Soft matching: the work names a person or a company loosely, the way colleagues do.

A message says "Gabe Rossi" or "Meridian" where the systems hold "Gabriel Rossi" and "Meridian
Logistics", and never gives the e-mail address a lookup would filter on. Where a read finds its record
by an exact value the instruction states (an e-mail, a login) and its list tool also searches names
(``query``), the pattern drops the exact value: the instruction names the record loosely (a nickname, an
initial, a company without the word after its name), and the oracle searches by the part of the name
that is certain (the surname, the company's first word), which must find that one record.

There is no corner to cut here that a replayed solution could take (the later calls would still carry
the ids the search found); what the agent must do is search by name and recognise the person.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from compoworld.engine.episode import Episode
from compoworld.tasks.graph import ToolGraph, label, render_value
from compoworld.tasks.patterns.base import Part
from compoworld.tasks.walk import Provenance, Walk
from compoworld.world.world import World

__all__ = ["NICKNAMES", "loose_name", "plant_soft_match"]

NICKNAMES: dict[str, tuple[str, ...]] = {
    "Alexander": ("Alex", "Sasha"),
    "Beatriz": ("Bea",),
    "Benedikt": ("Ben",),
    "Camila": ("Cami",),
    "Daniel": ("Dan", "Danny"),
    "Dmitri": ("Dima",),
    "Elena": ("Lena",),
    "Eliza": ("Liza",),
    "Gabriel": ("Gabe",),
    "Isaac": ("Zac",),
    "Jakob": ("Jake",),
    "Javier": ("Javi",),
    "Julia": ("Jules",),
    "Lorenzo": ("Enzo",),
    "Mateo": ("Teo",),
    "Nikolai": ("Nick", "Kolya"),
    "Olivia": ("Liv",),
    "Rafael": ("Rafa",),
    "Stefan": ("Steff",),
    "Theo": ("Teddy",),
    "Tomas": ("Tom",),
    "Valentina": ("Vale", "Tina"),
    "Victor": ("Vic",),
    "Zoe": ("Zo",),
}
"""Everyday short forms of the population's first names."""

_PERSON = ("person.name", "person.last_name")
_COMPANY = ("company.name",)
_SHARE = 0.5
"""How often the pattern is made on a walk it fits, when asked for: a mix keeps exact names in the set."""


def loose_name(name: str, company: bool, rng: random.Random) -> tuple[str, str] | None:
    """How a colleague names a person or a company, and the part of the name a search can rely on.

    ``("Gabe Rossi", "Rossi")`` or ``("G. Rossi", "Rossi")`` for Gabriel Rossi; ``("Meridian",
    "Meridian")`` for Meridian Logistics.

    Args:
        name: The name as the record holds it.
        company: Whether it names a company (else a person).
        rng: Picks the short form.

    Returns:
        ``(loose form, search text)``, or None for a one-word name.
    """
    words = name.split()
    if len(words) < 2:
        return None
    if company:
        return words[0], words[0]
    first, rest = words[0], " ".join(words[1:])
    shorts = NICKNAMES.get(first, ())
    loose = f"{rng.choice(shorts)} {rest}" if shorts and rng.random() < 0.7 else f"{first[0]}. {rest}"
    return loose, rest


def _found_name(graph: ToolGraph, tool: str, item: dict[str, Any], search: tuple[str, ...]) -> tuple[str, bool] | None:
    """The name of the record a read found, as its search fields hold it: ``(name, is a company)``."""
    for port in graph.outputs[tool]:
        field = port.path.removeprefix("items[].")
        if field == port.path or field not in search or not isinstance(item.get(field), str):
            continue
        if port.semantic in _COMPANY:
            return item[field], True
        if port.semantic == "person.name":
            return item[field], False
        if port.semantic == "person.last_name":
            first = next((v for k, v in item.items() if k.endswith("first_name") and isinstance(v, str)), None)
            if first:
                return f"{first} {item[field]}", False
    return None


def plant_soft_match(
    world: World, graph: ToolGraph, walk: Walk, rng: random.Random, names: frozenset[str]
) -> Part | None:
    """The ``softmatch`` pattern: one read's record named loosely instead of by the exact value it filters on.

    Args:
        world: The world.
        graph: Its dependency graph.
        walk: The walk so far.
        rng: Draws the read, the short form and whether to apply at all.
        names: The patterns asked for (unused: the planter is only called for ``softmatch``).

    Returns:
        The part, or None when no read fits (or the draw keeps the walk's exact names).
    """
    if rng.random() >= _SHARE:
        return None
    tools = world.catalog.tools
    fits: list[tuple[int, str, str, str]] = []
    for j, step in enumerate(walk.steps):
        tool = tools[step.tool]
        spec = world.catalog.resources.get(tool.resource or "")
        if tool.writes or j in walk.told or j in walk.named or spec is None or not spec.search:
            continue
        if "query" not in tool.parameters_schema.get("properties", {}) or len(step.arguments) != 1:
            continue
        (arg, value), prov = next(iter(step.arguments.items())), next(iter(step.provenance.values()))
        items = step.result.get("items") if isinstance(step.result, dict) else None
        if prov.kind != "given" or not isinstance(value, str) or not isinstance(items, list) or len(items) != 1:
            continue
        found = _found_name(graph, step.tool, items[0], spec.search)
        if found is None:
            continue
        loose = loose_name(found[0], found[1], rng)
        if loose is None:
            continue
        subject = f"the {spec.noun} with {label(arg)} {render_value(value)}"
        if j == 0 and walk.trigger and subject not in walk.trigger:
            continue
        fits.append((j, loose[0], loose[1], subject))
    if not fits:
        return None
    j, loose_form, search_text, subject = rng.choice(fits)
    step = walk.steps[j]
    # The search must find that one record, and only it, in the world as the agent meets it.
    episode = Episode(world)
    if not all(episode.call(s.tool, s.arguments).ok for s in walk.setup):
        return None
    for earlier in walk.steps[:j]:
        episode.call(earlier.tool, earlier.arguments)
    res = episode.call(step.tool, {"query": search_text})
    items = res.result.get("items") if res.ok and isinstance(res.result, dict) else None
    if not isinstance(items, list) or len(items) != 1 or items[0].get("id") != step.result["items"][0].get("id"):
        return None
    searched = replace(
        step, arguments={"query": search_text}, provenance={"query": Provenance("given", semantic="text")}
    )
    steps = [*walk.steps[:j], searched, *walk.steps[j + 1 :]]
    spec = world.catalog.resources[tools[step.tool].resource or ""]
    trigger = walk.trigger
    if j == 0 and trigger:
        trigger = trigger.replace(subject, f"the {spec.noun} of {loose_form}", 1)
    return Part(
        names=("softmatch",),
        walk=replace(walk, steps=steps, trigger=trigger, named={**walk.named, j: loose_form}),
    )
