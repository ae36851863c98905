"""Rendering: a walk's instruction, its plan, the given facts it states, and the answer it asks for.

The instruction is what a colleague would send (:func:`instruction`): what
happened (the trigger event), then the outcomes that must hold afterwards, one
sentence per write, in business words. It never names a tool, numbers a step or
points at "step N": reads are left for the agent to find, and a value an
earlier step finds is named by what it is ("the tracking number of the
shipment"), never stated. The facts the agent cannot discover (who, which
order, which mailbox) and plain values (a priority, a quantity) are stated.
When the last step only reads, it asks to report a value it returns
(:func:`reported_answer`).

The plan (:func:`plan`) is the step list in words, kept in the task for
debugging and analysis and never shown to the agent.
"""

from __future__ import annotations

import random
from typing import Any

from compoworld.tasks.actions import action_of
from compoworld.tasks.graph import ToolGraph, field_label, label, normalise_path, render_value
from compoworld.tasks.roles import sends
from compoworld.tasks.transforms import transform_phrase
from compoworld.tasks.walk import REPORTED, WEAK, Walk, finding, told
from compoworld.world.world import World

__all__ = [
    "answer_label",
    "aside",
    "aside_sentence",
    "field_label",
    "given_facts",
    "goal_sentence",
    "instruction",
    "label",
    "plan",
    "render_value",
    "reported_answer",
    "source_phrase",
    "step_sentence",
]

_CONNECTORS_FIRST = ("First, ", "To begin, ", "")
_CONNECTORS_MID = ("Then ", "Next, ", "After that, ", "Once that is done, ")
_CONNECTORS_LAST = ("Finally, ", "Last, ", "To finish, ")


def reported_answer(graph: ToolGraph, walk: Walk) -> tuple[str, str] | None:
    """The value of the last step's result the final answer must report.

    The first nameable string of at least three characters that no step was given as an argument;
    for an open-world lookup, failing that, what it was asked for (see :func:`~compoworld.tasks.walk.finding`).

    Args:
        graph: The dependency graph (for the last tool's output ports).
        walk: The walk.

    Returns:
        ``(path in the result, value)``, or None when the result holds no such value.
    """
    last = len(walk.steps) - 1
    step = walk.steps[last]
    given = told([s.arguments for s in walk.steps])
    lookup = walk.episode.world.catalog.tools[step.tool].annotations.open_world
    p = finding(last, step.result, graph.outputs[step.tool], given, lookup=lookup)
    return (p.path, str(p.value)) if p is not None else None


def given_facts(walk: Walk) -> dict[str, Any]:
    """The facts an instruction states, by label (numbered by step when a label repeats)."""
    given: dict[str, Any] = {}
    for j, step in enumerate(walk.steps):
        for name, prov in step.provenance.items():
            if j in walk.repeats and step.arguments[name] in given.values():
                continue  # the same fact, for another record of a batch
            if prov.kind == "given":
                key = label(name)
                given[key if key not in given else f"{key} ({j + 1})"] = step.arguments[name]
    return given


def _connector(j: int, n: int, rng: random.Random) -> str:
    if j == 0:
        return rng.choice(_CONNECTORS_FIRST)
    if j == n - 1:
        return rng.choice(_CONNECTORS_LAST)
    return rng.choice(_CONNECTORS_MID)


def step_sentence(world: World, walk: Walk, j: int, rng: random.Random) -> str:
    """The sentence asking for step ``j`` (without its number and full stop).

    Args:
        world: The walk's world (for the tool's intent and its service's title).
        walk: The walk.
        j: The step.
        rng: Picks the connector and the phrasing of the steps it uses.

    Returns:
        The sentence: the given and literal values it states, the upstream findings it names.
    """
    step = walk.steps[j]
    tool = world.catalog.tools[step.tool]
    svc = world.catalog.services[tool.service]
    parts = []
    refs = []
    for name, prov in step.provenance.items():
        if prov.kind in ("given", "literal"):
            parts.append(f"{label(name)} {render_value(step.arguments[name])}")
        elif prov.step is not None and prov.semantic not in WEAK:
            refs.append(f"the {field_label(prov.field or name)} from step {prov.step + 1}")
    connector = _connector(j, len(walk.steps), rng)
    intent = tool.intent
    text = f"{connector}{intent if connector else intent[:1].upper() + intent[1:]} in {svc.title}"
    if parts:
        text += " (" + "; ".join(parts) + ")"
    if refs:
        text += rng.choice((", using ", ", with ", ", based on ")) + " and ".join(dict.fromkeys(refs))
    return text


_OPENERS = (
    "Please follow up:",
    "Can you take care of this?",
    "Here is what we need:",
    "Please handle it:",
    "What needs to happen now:",
)
_GLUE = ("", "Also, ", "Then ", "And ")
_ASK = (
    "In your reply, tell me the {what}.",
    "Reply with the {what} when you are done.",
    "Let me know the {what} in your answer.",
)


def source_phrase(world: World, walk: Walk, k: int, field: str) -> str:
    """A found value named by whose it is and where it lives: ``the shipment's tracking number in Parcelly``.

    The record is the one the step found or made (the resource of its tool); a value of a
    record the task creates is ``the title of the document you create in Inkwell Docs``.

    Args:
        world: The walk's world.
        walk: The walk.
        k: The step that found the value.
        field: Where in its result ("" for the whole result: the records a list finds).
    """
    if walk.steps[k].phrase:
        return walk.steps[k].phrase  # a pattern's wording: a stated amount, the record the work is about
    tool = world.catalog.tools[walk.steps[k].tool]
    where = world.catalog.services[tool.service].title
    if k in walk.told:
        return f"as the rule kept in {where} has it"
    if field == "":
        return _records(world, walk, k)
    what = field_label(field)
    spec = world.catalog.resources.get(tool.resource) if tool.resource else None
    if action_of(tool) == "create":
        return f"the {what} of the {spec.noun} you create in {where}" if spec else f"the {what} you create in {where}"
    if spec is None:
        return f"the {what} on record in {where}"
    if what.startswith(spec.noun):
        return f"the {what} in {where}"  # the shop name, not the shop's shop name
    return f"the {spec.noun}'s {what} in {where}"


def _records(world: World, walk: Walk, k: int) -> str:
    """The records a list step finds, by what it filters on: ``the tickets in Beacon Desk whose requester …``."""
    step = walk.steps[k]
    tool = world.catalog.tools[step.tool]
    where = world.catalog.services[tool.service].title
    spec = world.catalog.resources.get(tool.resource) if tool.resource else None
    noun = spec.plural.replace("_", " ") if spec is not None else "records"
    found = [(n, p) for n, p in step.provenance.items() if n in step.arguments]
    if len(found) == 1 and found[0][1].kind == "step" and str(found[0][1].semantic).endswith(".id"):
        # Records filtered by whose they are: the help desk user's tickets.
        owner = world.catalog.resources.get(str(found[0][1].semantic).removesuffix(".id"))
        if owner is not None:
            return f"the {owner.noun}'s {noun} in {where}"
    by = [
        f"{label(name)} is "
        + (
            source_phrase(world, walk, prov.step, prov.field or name)
            if prov.kind == "step" and prov.step is not None
            else render_value(step.arguments[name])
        )
        for name, prov in step.provenance.items()
        if prov.kind in ("step", "given", "literal") and name in step.arguments
    ]
    return f"the {noun} in {where}" + (" whose " + " and ".join(by) if by else "")


def _stated(walk: Walk, j: int) -> list[str]:
    step = walk.steps[j]
    return [
        f"{label(name)} {render_value(step.arguments[name])}"
        for name, prov in step.provenance.items()
        if prov.kind in ("given", "literal")
    ]


def goal_sentence(world: World, walk: Walk, j: int, rng: random.Random) -> str:
    """What must be true after write ``j``, in business words, with no tool name and no step number.

    Args:
        world: The walk's world.
        walk: The walk.
        j: A writing step.
        rng: Picks the wording.

    Returns:
        The sentence, ending with a full stop.
    """
    step = walk.steps[j]
    tool = world.catalog.tools[step.tool]
    svc = world.catalog.services[tool.service].title
    message = action_of(tool) == "message"
    to: list[str] = []
    uses: list[str] = []
    body = None
    for name, prov in step.provenance.items():
        if prov.kind == "compose":
            facts = [source_phrase(world, walk, k, path) for k, path in prov.parts]
            if prov.transform and prov.step is not None:
                # A fact derived from what a step found: how many records a list holds.
                source = source_phrase(world, walk, prov.step, prov.field or "")
                facts.append(transform_phrase(prov.transform, source, dict(prov.params)))
            body = " and ".join(dict.fromkeys(facts))
        elif prov.kind == "derived" and str(prov.semantic).endswith(".id"):
            continue  # the record a write acts on, picked from a list, goes without saying as well
        elif prov.kind == "derived" and prov.step is not None and prov.transform == "pick_item":
            # A value of the one record picked from a list: the ticket's subject, not the tickets.
            source = source_phrase(world, walk, prov.step, str(dict(prov.params).get("take", name)))
            if message and prov.semantic in ("email", "phone") and not sends(name):
                to.append(source)
            else:
                uses.append(f"{label(name)}: {source}")
        elif prov.kind == "derived" and prov.step is not None and prov.transform:
            source = source_phrase(world, walk, prov.step, name if prov.field is None else prov.field)
            uses.append(f"{label(name)}: {transform_phrase(prov.transform, source, dict(prov.params))}")
        elif prov.kind == "step" and prov.step is not None and not str(prov.semantic).endswith(".id"):
            # Which record a write acts on goes without saying; where its values come from does not.
            source = source_phrase(world, walk, prov.step, prov.field or name)
            if message and prov.semantic in ("email", "phone") and not sends(name):
                to.append(source)  # whom a message goes to reads as such, not as a field
            else:
                uses.append(f"{label(name)}: {source}")
    intent = tool.intent
    text = f"{intent[:1].upper()}{intent[1:]} in {svc}"
    if to:
        text += " to " + " and ".join(dict.fromkeys(to))
    # Stated values and where the others come from read as one form: (subject "Renewal"; owner email: …).
    fields = _stated(walk, j) + list(dict.fromkeys(uses))
    if fields:
        text += " (" + "; ".join(fields) + ")"
    if body is not None:
        text += rng.choice((": the message must tell them ", ", telling them ", ", and say in it ")) + body
    return text + "."


def plan(world: World, walk: Walk) -> list[str]:
    """The walk's steps in words, numbered, with the steps each one uses (kept in the task, never shown)."""
    rng = random.Random(0)  # the plan's wording is fixed: it is for reading, not for variety
    return [f"{j + 1}. {step_sentence(world, walk, j, rng)}" for j in range(len(walk.steps))]


def instruction(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Render a walk's instruction and the given facts it states.

    The trigger event first (when the walk has one), then the facts to go on (what the
    reads start from), then one goal sentence per write, then what to report.

    Args:
        world: The walk's world.
        graph: Its dependency graph.
        walk: The walk.
        rng: Picks the phrasing (consumed in order).

    Returns:
        ``(instruction, given facts by label)``.
    """
    tools = world.catalog.tools
    parts = [walk.trigger] if walk.trigger else []
    context = []
    for j, step in enumerate(walk.steps):
        tool = tools[step.tool]
        if tool.writes or (j == 0 and walk.trigger) or j in walk.told or j in walk.repeats:
            continue
        if j == len(walk.steps) - 1 and aside(world, walk, j):
            continue  # asked for in a sentence of its own, with what it is about
        stated = _stated(walk, j)
        if stated:
            svc = world.catalog.services[tool.service].title
            spec = world.catalog.resources.get(tool.resource) if tool.resource else None
            noun = spec.noun if spec is not None else "record"
            if j in walk.named:
                context.append(f"Use the {noun} of {walk.named[j]} in {svc}.")
                continue
            place = world.catalog.resources.get(tool.resource.removesuffix("_member")) if tool.resource else None
            if place is not None and tool.resource is not None and tool.resource.endswith("_member"):
                # A membership names a place by who is in it: the channel a teammate posts in.
                context.append(f"Use the {place.noun} of the member with {' and '.join(stated)} in {svc}.")
            else:
                context.append(f"Use the {noun} with {' and '.join(stated)} in {svc}.")
    parts.extend(context)
    goals = [
        goal_sentence(world, walk, j, rng)
        for j, step in enumerate(walk.steps)
        if tools[step.tool].writes and j not in walk.repeats
    ]
    if goals:
        parts.append(rng.choice(_OPENERS))
        for i, goal in enumerate(goals):
            glue = rng.choice(_GLUE) if i else ""
            parts.append(glue + (goal[:1].lower() + goal[1:] if glue else goal))
    if tools[walk.steps[-1].tool].annotations.read_only:
        ans = reported_answer(graph, walk)
        if ans is not None:
            last = len(walk.steps) - 1
            if aside(world, walk, last):
                parts.append(aside_sentence(world, walk, last, rng))
            parts.append(rng.choice(_ASK).format(what=answer_label(graph, walk, ans[0])))
    return " ".join(parts), given_facts(walk)


def aside(world: World, walk: Walk, j: int) -> bool:
    """Whether step ``j`` consults an open-world lookup about what an earlier step found (its city, its amount)."""
    tool = world.catalog.tools[walk.steps[j].tool]
    return (
        j > 0
        and tool.annotations.open_world
        and tool.annotations.read_only
        and any(p.kind == "step" for p in walk.steps[j].provenance.values())
    )


def aside_sentence(world: World, walk: Walk, j: int, rng: random.Random) -> str:
    """What a final lookup is asked about, in words (``Also check the current weather in Skycast (city: …)``).

    Args:
        world: The walk's world.
        walk: The walk.
        j: The lookup step (see :func:`aside`).
        rng: Picks the wording.

    Returns:
        The sentence, ending with a full stop.
    """
    step = walk.steps[j]
    tool = world.catalog.tools[step.tool]
    svc = world.catalog.services[tool.service].title
    uses = [
        f"{label(name)}: {source_phrase(world, walk, prov.step, prov.field or name)}"
        for name, prov in step.provenance.items()
        if prov.kind == "step" and prov.step is not None
    ]
    fields = _stated(walk, j) + list(dict.fromkeys(uses))
    text = f"{rng.choice(('Also ', 'Then ', 'And '))}{tool.intent} in {svc}"
    return text + (" (" + "; ".join(fields) + ")" if fields else "") + "."


def answer_label(graph: ToolGraph, walk: Walk, path: str) -> str:
    """What the final answer reports, in words: its field (``the domain``), or what a lookup was asked for.

    A lookup's own finding is named by its type (``weather.conditions``: the conditions), not by a
    field that says little on its own (``condition.description``).
    """
    tool = walk.steps[-1].tool
    where = normalise_path(path)
    semantic = next((p.semantic for p in graph.outputs[tool] if p.path == where), "")
    if semantic and semantic not in REPORTED:
        return semantic.rsplit(".", 1)[-1].replace("_", " ")
    return field_label(path)
