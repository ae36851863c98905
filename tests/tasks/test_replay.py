"""Replay: a walk re-executed on a fresh episode, and a task's solution run on its recording."""

from __future__ import annotations

import random

import pytest

from compoworld import World
from compoworld.tasks.replay import replay_walk, run_solution
from compoworld.tasks.synthesis import Synthesizer
from compoworld.tasks.task import Task
from compoworld.tasks.walk import Step, Walk
from tests.tasks.handmade import log_call_walk


@pytest.fixture(scope="module")
def walk(crm_world: World) -> Walk:
    return log_call_walk(crm_world)


@pytest.fixture(scope="module")
def task(crm_world: World, walk: Walk) -> Task:
    built = Synthesizer(crm_world).build(walk, seed=0, index=0, rng=random.Random(0))
    assert built.task is not None, built.reason
    return built.task


def test_replaying_a_walk_gives_one_diff_per_step_and_the_walks_final_state(crm_world: World, walk: Walk) -> None:
    replay = replay_walk(crm_world, walk)
    assert replay is not None
    assert len(replay.diffs) == len(walk.steps)
    assert [d.is_empty for d in replay.diffs] == [True, False, False, False, True]
    assert list(replay.diffs[1].tables) == ["crm.activities"] and replay.diffs[1].tables["crm.activities"].added
    assert replay.diffs[2].tables["crm.activities"].updated  # completing what step 2 created
    assert replay.episode is not walk.episode
    assert replay.episode.state_hash() == walk.episode.state_hash()
    assert replay.final.counts() == walk.episode.diff().counts()


def test_a_walk_whose_step_returns_something_else_does_not_replay(crm_world: World, walk: Walk) -> None:
    first = walk.steps[0]
    changed = Step(first.tool, first.arguments, first.provenance, dict(first.result, title="Somebody else"))
    assert replay_walk(crm_world, Walk([changed, *walk.steps[1:]], walk.episode)) is None


def test_a_walk_whose_step_fails_does_not_replay(crm_world: World, walk: Walk) -> None:
    first = walk.steps[0]
    broken = Step(first.tool, {"email": "nobody@nowhere.example"}, first.provenance, first.result)
    assert replay_walk(crm_world, Walk([broken, *walk.steps[1:]], walk.episode)) is None


def test_running_a_solution_reaches_the_oracle_state(crm_world: World, walk: Walk, task: Task) -> None:
    run = run_solution(crm_world, task)
    assert run.ok and len(run.calls) == len(task.solution)
    assert run.episode.state_hash() == walk.episode.state_hash()
    assert run.results == [s.result for s in walk.steps]
    assert run.probes == []


def test_a_solution_can_be_run_in_part(crm_world: World, task: Task) -> None:
    run = run_solution(crm_world, task, 2)
    assert len(run.calls) == 2
    assert run.episode.diff().counts() == {"crm.activities": {"added": 1, "updated": 0, "removed": 0}}


def test_the_probe_sees_the_state_before_each_call(crm_world: World, task: Task) -> None:
    run = run_solution(crm_world, task, probe=lambda ep, base: bool(ep.diff(base).tables))
    assert run.probes == [False, False, True, True, True]


def test_a_failed_call_is_kept_and_the_run_goes_on_unless_told_to_stop(crm_world: World, task: Task) -> None:
    bad = task.solution[0].model_copy(update={"arguments": {"email": 42}})
    broken = task.model_copy(update={"solution": [bad, *task.solution[1:]]})
    run = run_solution(crm_world, broken)
    assert not run.ok and len(run.calls) == len(task.solution)
    assert run.results[0] is run.calls[0].error and run.results[0] is not None
    stopped = run_solution(crm_world, broken, probe=lambda ep, base: True, stop_at_failure=True)
    assert len(stopped.calls) == 1 and stopped.probes == [True] and not stopped.ok
