"""Validity gates: what a task must satisfy to be kept (docs/design.md §5).

:func:`validate_task` runs them in this order and names the first that fails:

* the criteria's dependencies form a DAG (:func:`is_dag`), and the solution replays;
* gate 1: the oracle solution passes every criterion;
* gate 2: doing nothing fails;
* gate 3: every proper prefix of the solution fails;
* every step matters (:func:`has_unused_step`);
* gate 4: re-executing the solution on a fresh episode gives the same state hash;
* gate 5: every entity named is identified uniquely (:func:`is_ambiguous`);
* gate 6: the instruction holds no value the agent must discover (:func:`leaks`).

Open-world answers come from the task's recording, so validation never asks a
world model again.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from compoworld.engine.episode import Episode, Snapshot
from compoworld.tasks.criteria import criteria_hold
from compoworld.tasks.replay import run_solution
from compoworld.tasks.task import Task, provenance_fields, provenance_sources, task_answer
from compoworld.tasks.walk import identified
from compoworld.world.world import World

__all__ = ["has_unused_step", "is_ambiguous", "is_dag", "leaks", "passes", "validate_task"]


def is_dag(criteria: Sequence[Any]) -> bool:
    """Whether criteria dependencies name known criteria and have no cycle."""
    deps = {c.id: list(c.depends_on) for c in criteria}
    if any(d not in deps for ds in deps.values() for d in ds):
        return False
    state: dict[str, int] = {}

    def visit(node: str) -> bool:
        if state.get(node) == 1:
            return False
        if state.get(node) == 2:
            return True
        state[node] = 1
        ok = all(visit(d) for d in deps[node])
        state[node] = 2
        return ok

    return all(visit(c) for c in deps)


def passes(criteria: Sequence[Any], episode: Episode, answer: str = "", since: Snapshot | None = None) -> bool:
    """Whether an episode's state (and a final answer) passes every criterion, checked from ``since``."""
    return criteria_hold(criteria, episode, answer, since)


def has_unused_step(world: World, task: Task) -> bool:
    """Whether a step before the last neither writes nor finds anything a later step uses."""
    n = len(task.solution)
    used = {k for s in task.solution for p in s.provenance.values() for k in provenance_sources(p)}
    return any(
        not world.catalog.tools[step.tool].writes and j not in used and j != n - 1
        for j, step in enumerate(task.solution)
    )


def is_ambiguous(task: Task, results: Sequence[Any]) -> bool:
    """Whether a step takes a value from a list that held more than one item (so it named no single entity).

    Args:
        task: The task.
        results: Each solution step's result.
    """
    return any(
        "[" in field and not identified(results[k], field)
        for step in task.solution
        for prov in step.provenance.values()
        for k, field in provenance_fields(prov)
    )


def leaks(task: Task) -> bool:
    """Whether the instruction states a value of three or more characters that a step had to find or derive.

    Values the solution also takes as given or literal arguments are stated anyway and do not count,
    nor does a value seen only inside a stated one (the domain inside a stated e-mail address).
    """
    given = [
        v for s in task.solution for k, v in s.arguments.items() if s.provenance[k]["kind"] in ("given", "literal")
    ]
    stated = {json.dumps(v) for v in given}
    text = task.instruction
    for value in sorted((v for v in given if isinstance(v, str) and len(v) >= 3), key=len, reverse=True):
        text = text.replace(value, " ")
    for step in task.solution:
        for name, prov in step.provenance.items():
            if prov["kind"] not in ("step", "derived"):
                continue
            value = step.arguments[name]
            for v in value if isinstance(value, list) else [value]:
                if isinstance(v, str) and len(v) >= 3 and json.dumps(v) not in stated and v in text:
                    return True
    return False


def validate_task(world: World, task: Task, *, reference_hash: str | None = None) -> str | None:
    """Run every validity gate of docs/design.md §5 on a task, in its world.

    Open-world answers come from the task's recording, so validation never
    asks a world model again.

    Args:
        world: The task's world (same seed and version).
        task: The task.
        reference_hash: The state hash of an independent earlier execution of the
            solution; when given it stands in for gate 4's second execution.

    Returns:
        None when every gate holds, else the first failure: ``bad_dag`` (criteria
        dependencies name unknown criteria or form a cycle), ``unreplayable``,
        ``oracle_fails``, ``trivial``, ``prefix_passes``, ``unused_step``,
        ``nondeterministic``, ``ambiguous`` or ``leak``.
    """
    if not is_dag(task.criteria):
        return "bad_dag"
    # One execution serves gates 1 to 3: the state after k steps is the prefix of length k.
    oracle = run_solution(world, task, probe=lambda ep, base: passes(task.criteria, ep, "", base), stop_at_failure=True)
    if not oracle.ok:
        return "unreplayable"
    # Gate 1: the oracle passes every criterion.
    if not passes(task.criteria, oracle.episode, task_answer(task), oracle.base):
        return "oracle_fails"
    # Gate 2: doing nothing fails.
    if oracle.probes[0]:
        return "trivial"
    # Gate 3: every proper prefix fails.
    if any(oracle.probes[1:]):
        return "prefix_passes"
    # Every step matters: it writes, or a later step or the answer uses what it found.
    if has_unused_step(world, task):
        return "unused_step"
    # Gate 4: re-executing on a fresh episode gives the same state hash.
    if reference_hash is None:
        reference_hash = run_solution(world, task).episode.state_hash()
    if reference_hash != oracle.episode.state_hash():
        return "nondeterministic"
    # Gate 5: every entity named is identified uniquely: values taken from a list come from a one-item list.
    if is_ambiguous(task, oracle.results):
        return "ambiguous"
    # Gate 6: the instruction holds no value the agent must discover.
    if leaks(task):
        return "leak"
    return None
