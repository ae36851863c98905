"""What every difficulty pattern is made of: the part it adds to a walk, its shortcuts, and the re-execution.

A pattern planter takes a walk and returns a :class:`Part`: the walk with the pattern's setup calls
(what the world holds when the agent starts) and the steps it inserts (the lookups a rule asks for),
the negative criteria it adds (what the agent must leave alone), the sentences the instruction ends
with, and the corners an agent could cut (:class:`Shortcut`). Parts compose: each planter gets the walk
the earlier ones left, and the shortcuts of earlier parts follow the steps later ones insert.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeAlias

from compoworld.engine.episode import Episode
from compoworld.engine.openworld import ReplayWorldModel
from compoworld.engine.service import ResourceSpec
from compoworld.tasks.actions import action_of
from compoworld.tasks.criteria import NotSentCriterion, UnchangedCriterion, carries_fact, criteria_hold
from compoworld.tasks.graph import ToolGraph, label
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.transforms import apply_transform
from compoworld.tasks.walk import Provenance, Step, Walk, flatten, identified
from compoworld.world.world import World

__all__ = [
    "Negative",
    "Part",
    "Planter",
    "Shortcut",
    "insert_steps",
    "literal_step",
    "not_made_with",
    "rerun",
    "shortcut_passes",
    "singled",
    "value_at",
    "with_argument",
    "written_record",
]

Negative: TypeAlias = UnchangedCriterion | NotSentCriterion
"""A criterion a pattern adds: what the agent must leave alone or not send."""


@dataclass(frozen=True, slots=True)
class Shortcut:
    """A corner an agent could cut that a patterned task must not reward (the task is dropped if it does).

    Attributes:
        name: What the corner is: ``ignore_policy`` (never read the rule: keep the stated or default
            choice, skip the lookups), ``every_match`` (act on every record that looks right: the decoy
            too), ``first_match`` (take the first row that matches the first condition), ``stale_row``
            (follow a row a newer one replaced), ``skip_lookup`` (act without the check a rule asks for),
            ``only_one`` (do the work of a batch for the first record only).
        drop: Solution steps the shortcut skips.
        choice: ``(step, argument, value)``: the value the shortcut passes instead (None: leaves it out).
        also: ``(id, other id)``: every call that names the first is made on the second as well.
    """

    name: str
    drop: tuple[int, ...] = ()
    choice: tuple[int, str, Any] | None = None
    also: tuple[str, str] | None = None

    def calls(self, solution: Sequence[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
        """The solution's calls as the shortcut makes them."""
        out: list[tuple[str, dict[str, Any]]] = []
        for i, (tool, args) in enumerate(solution):
            if i in self.drop:
                continue
            if self.choice is not None and self.choice[0] == i:
                _, name, value = self.choice
                args = {k: v for k, v in args.items() if k != name} | ({} if value is None else {name: value})
            out.append((tool, args))
            if self.also is not None and self.also[0] in args.values():
                out.append((tool, {k: self.also[1] if v == self.also[0] else v for k, v in args.items()}))
        return out

    def moved(self, index: Sequence[int]) -> Shortcut:
        """The shortcut on a walk whose old step ``i`` is now step ``index[i]`` (steps were inserted)."""
        choice = self.choice
        if choice is not None:
            choice = (index[choice[0]], choice[1], choice[2])
        return replace(self, drop=tuple(index[i] for i in self.drop), choice=choice)


def shortcut_passes(world: World, task: Task, shortcut: Shortcut) -> bool:
    """Whether a shortcut's calls, made after the task's setup, meet every criterion of the task.

    Args:
        world: The task's world.
        task: The task.
        shortcut: The shortcut.
    """
    episode = Episode(world, world_model=ReplayWorldModel(task.recording))
    base = apply_setup(episode, task)
    for tool, args in shortcut.calls([(s.tool, s.arguments) for s in task.solution]):
        episode.call(tool, args)
    return criteria_hold(task.criteria, episode, task_answer(task), base)


@dataclass(frozen=True, slots=True)
class Part:
    """What one pattern adds to a walk.

    Attributes:
        name: The pattern (a name of :data:`~compoworld.tasks.patterns.PATTERNS`); a part may carry more
            than one when it makes several difficulties at once (a rule table with two conditions and
            dated rows is ``policy``, ``conditional`` and ``recency``).
        walk: The walk with the pattern in: its setup extended in front, its inserted steps in place
            (their results None until :func:`rerun` makes them).
        inserted: The indices, in ``walk.steps``, of the steps the pattern inserted.
        negatives: The criteria it adds (ids are given when the task's criteria are known).
        notes: Sentences the instruction ends with (where a rule the agent must apply is kept).
        shortcuts: The corners it names, each of which must fail the task.
    """

    names: tuple[str, ...]
    walk: Walk
    inserted: tuple[int, ...] = ()
    negatives: list[Negative] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    shortcuts: list[Shortcut] = field(default_factory=list)


Planter = Callable[[World, ToolGraph, Walk, random.Random, frozenset[str]], Part | None]
"""A pattern's planter: ``(world, graph, walk, rng, names asked for) -> Part or None`` when it does not fit."""


def literal_step(tool: str, args: dict[str, Any], result: Any) -> Step:
    """A setup call: every argument a plain value the pattern chose."""
    return Step(tool, args, {k: Provenance("literal") for k in args}, result)


def with_argument(step: Step, name: str, value: Any, provenance: Provenance) -> Step:
    """The step with one argument set to ``value``, which comes from where ``provenance`` says."""
    return replace(step, arguments={**step.arguments, name: value}, provenance={**step.provenance, name: provenance})


def written_record(world: World, tool: str) -> ResourceSpec[Any] | None:
    """What a write makes or changes: its tool's resource, or the one thing its name says it acts on."""
    found = world.catalog.tools[tool]
    subjects = RecipePrior.default().subjects(found)
    return world.catalog.resources.get(found.resource or (next(iter(subjects)) if len(subjects) == 1 else ""))


def not_made_with(world: World, tool: str, name: str, wrong: Sequence[Any], why: str) -> list[Negative]:
    """One criterion per wrong value: the record the write makes must not carry it in ``name``.

    A write that changes a record already there gets none (its transition criterion asks for the
    right value), nor one whose record has no such field.

    Args:
        world: The world.
        tool: The write.
        name: Its argument the wrong values would go to.
        wrong: The values an agent that cut a corner would pass, in order.
        why: How such an agent would come to it, after "as" (``"a misread row of the rule has it"``).
    """
    spec = written_record(world, tool)
    if spec is None or action_of(world.catalog.tools[tool]) not in ("create", "message"):
        return []
    if name not in spec.model.model_fields:
        return []
    return [
        NotSentCriterion(
            id="",
            description=f"no {spec.noun} is made with {label(name)} {value!r}, as {why}",
            table=spec.table,
            fields={name: value},
        )
        for value in wrong
    ]


def singled(walk: Walk) -> bool:
    """Whether every value a step takes from a list still comes from a one-item list (planted records may add items)."""
    return all(
        "[" not in field or identified(walk.steps[k].result, field)
        for step in walk.steps
        for prov in step.provenance.values()
        for k, field in ([(prov.step, prov.field or "")] if prov.kind == "step" and prov.step is not None else [])
        + list(prov.parts)
    )


def insert_steps(walk: Walk, at: int, steps: Sequence[Step]) -> Walk:
    """The walk with ``steps`` inserted before its step ``at``; later steps' references follow them.

    The inserted steps' own provenance must already name steps by their new indices; steps the
    walk's notes tell (``walk.told``), name (``walk.named``) or repeat (``walk.repeats``) stay so.
    """
    by = len(steps)

    def move(k: int) -> int:
        return k + by if k >= at else k

    def shifted(step: Step) -> Step:
        provenance = {
            n: replace(
                p,
                step=move(p.step) if p.step is not None else None,
                parts=tuple((move(k), f) for k, f in p.parts),
            )
            for n, p in step.provenance.items()
        }
        return replace(step, provenance=provenance)

    new = [*walk.steps[:at], *steps, *(shifted(s) for s in walk.steps[at:])]
    named = {move(k): v for k, v in walk.named.items()}
    told = frozenset(move(k) for k in walk.told)
    return replace(walk, steps=new, told=told, named=named, repeats=frozenset(move(k) for k in walk.repeats))


def value_at(result: Any, path: str) -> Any:
    """The value at a flattened path of a result (``items[0].id``); the whole result for ``""``."""
    if path == "":
        return result
    return dict(flatten(result)).get(path, _MISSING)


def rerun(world: World, walk: Walk) -> Walk | None:
    """The walk's steps made again after its setup, or None when what they found changed.

    What a pattern plants moves the clock and may show up in results; every value a later step took
    from an earlier one must still be there, as it was, for the steps to stay the oracle's. A derived
    value is derived again from what its step now finds.
    """
    episode = Episode(world)
    if not all(episode.call(call.tool, call.arguments).ok for call in walk.setup):
        return None
    steps: list[Step] = []
    for step in walk.steps:
        res = episode.call(step.tool, step.arguments)
        if not res.ok:
            return None
        steps.append(replace(step, result=res.result))
    found = [dict(flatten(s.result)) for s in steps]
    before = [dict(flatten(s.result)) if s.result is not None else None for s in walk.steps]
    for step in walk.steps:
        for name, prov in step.provenance.items():
            if prov.kind == "step" and prov.step is not None and prov.field is not None:
                # The value the step takes must be where it was found.
                value = found[prov.step].get(prov.field, _MISSING)
                if step.arguments.get(name) not in (value, [value]):
                    return None
            elif prov.kind == "derived" and prov.step is not None and prov.transform:
                source = value_at(steps[prov.step].result, prov.field or "")
                if apply_transform(prov.transform, source, dict(prov.params)) != step.arguments.get(name):
                    return None
            elif prov.kind == "compose":
                for k, path in prov.parts:
                    was = before[k]
                    if was is not None and was.get(path) != found[k].get(path, _MISSING):
                        return None
                if prov.transform and prov.step is not None:
                    # A fact derived from what a step found (a count) must be what the text tells.
                    source = value_at(steps[prov.step].result, prov.field or "")
                    told = apply_transform(prov.transform, source, dict(prov.params))
                    if told is None or not carries_fact(str(step.arguments.get(name, "")), str(told)):
                        return None
    return replace(walk, steps=steps, episode=episode)


_MISSING = object()
