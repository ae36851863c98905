"""Rendering: a walk's instruction, the given facts it states, and the answer it asks for.

The instruction has one numbered sentence per step: the tool's intent in its
service, the given and literal arguments with their values, and the earlier
steps whose findings the step uses, named by what they found, never by value
(an agent must discover those). When the last step only reads, the
instruction asks to report a value it returns (:func:`reported_answer`).
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.walk import NAMEABLE, WEAK, Walk, produced_values
from compoworld.world.world import World

__all__ = [
    "field_label",
    "given_facts",
    "instruction",
    "label",
    "render_value",
    "reported_answer",
    "step_sentence",
]

_CONNECTORS_FIRST = ("First, ", "To begin, ", "")
_CONNECTORS_MID = ("Then ", "Next, ", "After that, ", "Once that is done, ")
_CONNECTORS_LAST = ("Finally, ", "Last, ", "To finish, ")


def label(name: str) -> str:
    """An argument or field name in words: ``contact_id`` -> ``contact``."""
    return name.replace("_", " ").replace(" id", "").strip()


def field_label(path: str) -> str:
    """The last field of a result path in words: ``items[0].email_address`` -> ``email address``."""
    last = re.sub(r"\[\d*\]", "", path).split(".")[-1]
    return label(last)


def render_value(value: Any) -> str:
    """A value as an instruction or a criterion states it: strings quoted, addresses on one line, else JSON."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        if {"street", "city", "postal_code", "country"} <= set(value):
            return f"{value['street']}, {value['postal_code']} {value['city']}, {value['country']}"
        return json.dumps(value, sort_keys=True)
    return json.dumps(value)


def reported_answer(graph: ToolGraph, walk: Walk) -> tuple[str, str] | None:
    """The value of the last step's result the final answer must report.

    The first nameable string of at least three characters that no step was given as an argument.

    Args:
        graph: The dependency graph (for the last tool's output ports).
        walk: The walk.

    Returns:
        ``(path in the result, value)``, or None when the result holds no such value.
    """
    last = len(walk.steps) - 1
    given = {json.dumps(v) for s in walk.steps for v in s.arguments.values()}
    for p in produced_values(last, walk.steps[last].result, graph.outputs[walk.steps[last].tool]):
        if (
            isinstance(p.value, str)
            and p.semantic in NAMEABLE | {"person.name", "text.title"}
            and len(p.value) >= 3
            and json.dumps(p.value) not in given
        ):
            return p.path, p.value
    return None


def given_facts(walk: Walk) -> dict[str, Any]:
    """The facts an instruction states, by label (numbered by step when a label repeats)."""
    given: dict[str, Any] = {}
    for j, step in enumerate(walk.steps):
        for name, prov in step.provenance.items():
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


def instruction(world: World, graph: ToolGraph, walk: Walk, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Render a walk's instruction and the given facts it states.

    Args:
        world: The walk's world.
        graph: Its dependency graph.
        walk: The walk.
        rng: Picks the phrasing (consumed step by step, in order).

    Returns:
        ``(instruction, given facts by label)``.
    """
    sentences = [f"{j + 1}. {step_sentence(world, walk, j, rng)}." for j in range(len(walk.steps))]
    if world.catalog.tools[walk.steps[-1].tool].annotations.read_only:
        ans = reported_answer(graph, walk)
        if ans is not None:
            sentences.append(f"Report the {field_label(ans[0])} you find in your final answer.")
    return "\n".join(sentences), given_facts(walk)
