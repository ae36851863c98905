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

from compoworld.engine.episode import Episode, Snapshot, StateDiff
from compoworld.engine.openworld import ReplayWorldModel
from compoworld.engine.runtime import CallResult
from compoworld.tasks.task import Task
from compoworld.tasks.walk import Walk
from compoworld.world.world import World

__all__ = ["SetupError", "SolutionRun", "WalkReplay", "apply_setup", "replay_walk", "run_solution"]


class SetupError(RuntimeError):
    """A task's setup call failed: the episode is not in the state the task starts from."""


def apply_setup(episode: Episode, task: Task) -> Snapshot:
    """Make a task's setup calls (its trigger event) on an episode, before the agent starts.

    Args:
        episode: A fresh (or reset) episode of the task's world.
        task: The task.

    Returns:
        The state after the setup: criteria are checked against it.

    Raises:
        SetupError: naming the call that failed and why.
    """
    for step in task.setup:
        res = episode.call(step.tool, step.arguments)
        if not res.ok:
            raise SetupError(
                f"task {task.id}: setup call {step.tool} failed ({res.error}); the world is not the one the task "
                "was made in: synthesize the task again"
            )
    return episode.snapshot()


@dataclass(slots=True)
class WalkReplay:
    """A walk re-executed on a fresh episode.

    Attributes:
        episode: The episode in its final state (the task's oracle).
        diffs: What each step changed, one diff per step.
        final: What the whole walk changed (the episode against the state after the setup).
        base: The state after the setup, before the first step.
    """

    episode: Episode
    diffs: list[StateDiff]
    final: StateDiff
    base: Snapshot


@dataclass(slots=True)
class SolutionRun:
    """A task's solution run on a fresh episode that replays the task's recording.

    Attributes:
        episode: The episode after the calls.
        base: The state after the task's setup, before the first call.
        calls: The outcome of each call, in order.
        probes: The probe's answer on the state before each call (empty without a probe).
    """

    episode: Episode
    base: Snapshot
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
        The replay, or None when a setup call or a step fails, or a step returns something else
        than when it was drawn.
    """
    ep = Episode(world)
    for call in walk.setup:
        if not ep.call(call.tool, call.arguments).ok:
            return None
    base = ep.snapshot()
    diffs: list[StateDiff] = []
    for step in walk.steps:
        snap = ep.snapshot()
        res = ep.call(step.tool, step.arguments)
        if not res.ok or res.result != step.result:
            return None
        diffs.append(ep.diff(snap))
    return WalkReplay(ep, diffs, ep.diff(base), base)


def run_solution(
    world: World,
    task: Task,
    steps: int | None = None,
    *,
    probe: Callable[[Episode, Snapshot], bool] | None = None,
    stop_at_failure: bool = False,
) -> SolutionRun:
    """Run a task's solution on a fresh episode whose open-world answers come from the task's recording.

    The task's setup runs first; probes and :attr:`SolutionRun.base` see the state after it.

    Args:
        world: The task's world.
        task: The task.
        steps: Run only the first this many calls (default: all).
        probe: Asked about the state before each call, with the state after the setup; its answers
            are kept in :attr:`SolutionRun.probes`.
        stop_at_failure: Stop after the first call that fails (by default the calls after it are made
            all the same).

    Returns:
        The run.
    """
    episode = Episode(world, world_model=ReplayWorldModel(task.recording))
    run = SolutionRun(episode, apply_setup(episode, task))
    for step in task.solution[:steps]:
        if probe is not None:
            run.probes.append(probe(run.episode, run.base))
        res = run.episode.call(step.tool, step.arguments)
        run.calls.append(res)
        if stop_at_failure and not res.ok:
            break
    return run
