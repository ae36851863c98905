"""Replay: re-executing a walk, and running a task's solution, on a fresh episode.

Synthesis executes a walk once as it draws it (see :mod:`compoworld.tasks.walk`).
Two more executions follow, both on a fresh episode of the same world:

* :func:`replay_walk` re-executes a walk step by step with the default world
  model, checking that every step returns what it returned when drawn, and
  keeps what each step changed; criteria are derived from that run, and its
  episode becomes the task's oracle (its recording holds the open-world answers);
* :func:`run_solution` runs a task's solution with those recorded answers, as
  the validity gates do, optionally probing the state before each call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from compoworld.engine.episode import Episode, StateDiff
from compoworld.engine.openworld import ReplayWorldModel
from compoworld.engine.runtime import CallResult
from compoworld.tasks.task import Task
from compoworld.tasks.walk import Walk
from compoworld.world.world import World

__all__ = ["SolutionRun", "WalkReplay", "replay_walk", "run_solution"]


@dataclass(slots=True)
class WalkReplay:
    """A walk re-executed on a fresh episode.

    Attributes:
        episode: The episode in its final state (the task's oracle).
        diffs: What each step changed, one diff per step.
        final: What the whole walk changed (the episode against the world).
    """

    episode: Episode
    diffs: list[StateDiff]
    final: StateDiff


@dataclass(slots=True)
class SolutionRun:
    """A task's solution run on a fresh episode that replays the task's recording.

    Attributes:
        episode: The episode after the calls.
        calls: The outcome of each call, in order.
        probes: The probe's answer on the state before each call (empty without a probe).
    """

    episode: Episode
    calls: list[CallResult] = field(default_factory=list)
    probes: list[bool] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether every call succeeded."""
        return all(c.ok for c in self.calls)

    @property
    def results(self) -> list[Any]:
        """Each call's result, or its error where it failed."""
        return [c.result if c.ok else c.error for c in self.calls]


def replay_walk(world: World, walk: Walk) -> WalkReplay | None:
    """Re-execute a walk step by step on a fresh episode.

    Args:
        world: The walk's world.
        walk: The walk, as drawn.

    Returns:
        The replay, or None when a step fails or returns something else than when it was drawn.
    """
    ep = Episode(world)
    diffs: list[StateDiff] = []
    for step in walk.steps:
        snap = ep.snapshot()
        res = ep.call(step.tool, step.arguments)
        if not res.ok or res.result != step.result:
            return None
        diffs.append(ep.diff(snap))
    return WalkReplay(ep, diffs, ep.diff())


def run_solution(
    world: World,
    task: Task,
    steps: int | None = None,
    *,
    probe: Callable[[Episode], bool] | None = None,
    stop_at_failure: bool = False,
) -> SolutionRun:
    """Run a task's solution on a fresh episode whose open-world answers come from the task's recording.

    Args:
        world: The task's world.
        task: The task.
        steps: Run only the first this many calls (default: all).
        probe: Asked about the state before each call; its answers are kept in :attr:`SolutionRun.probes`.
        stop_at_failure: Stop after the first call that fails (by default the calls after it are made
            all the same).

    Returns:
        The run.
    """
    run = SolutionRun(Episode(world, world_model=ReplayWorldModel(task.recording)))
    for step in task.solution[:steps]:
        if probe is not None:
            run.probes.append(probe(run.episode))
        res = run.episode.call(step.tool, step.arguments)
        run.calls.append(res)
        if stop_at_failure and not res.ok:
            break
    return run
