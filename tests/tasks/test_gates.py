"""Validity gates: each rejects the task it should, in docs/design.md §5's order, and a sound task passes them all."""

from __future__ import annotations

import random
from typing import Any

import pytest

from compoworld import World
from compoworld.tasks.criteria import AnswerCriterion, NoCollateralCriterion, StateCriterion
from compoworld.tasks.gates import has_unused_step, is_ambiguous, is_dag, leaks, passes, validate_task
from compoworld.tasks.replay import run_solution
from compoworld.tasks.synthesis import Synthesizer
from compoworld.tasks.task import SolutionStep, Task
from tests.tasks.handmade import CONTACT, ambiguous_walk, delete_walk, log_call_walk


@pytest.fixture(scope="module")
def task(crm_world: World) -> Task:
    built = Synthesizer(crm_world).build(log_call_walk(crm_world), seed=0, index=0, rng=random.Random(0))
    assert built.task is not None, built.reason
    return built.task


def _with(task: Task, **update: Any) -> Task:
    return task.model_copy(update=update)


def test_a_sound_task_passes_every_gate(crm_world: World, task: Task) -> None:
    assert validate_task(crm_world, task) is None
    assert validate_task(crm_world, task, reference_hash=run_solution(crm_world, task).episode.state_hash()) is None


def test_criteria_that_depend_on_an_unknown_or_in_a_cycle_are_no_dag(crm_world: World, task: Task) -> None:
    first, *rest = task.criteria
    cyclic = [
        first.model_copy(update={"depends_on": [rest[-1].id]}),
        *rest[:-1],
        rest[-1].model_copy(update={"depends_on": [first.id]}),
    ]
    unknown = [first.model_copy(update={"depends_on": ["c99"]}), *rest]
    assert is_dag(task.criteria) and not is_dag(cyclic) and not is_dag(unknown)
    assert not is_dag([first.model_copy(update={"depends_on": [first.id]})])
    assert validate_task(crm_world, _with(task, criteria=cyclic)) == "bad_dag"
    assert validate_task(crm_world, _with(task, criteria=unknown)) == "bad_dag"


def test_a_solution_that_does_not_run_is_unreplayable(crm_world: World, task: Task) -> None:
    bad = task.solution[1].model_copy(update={"arguments": {"contact_id": CONTACT}})
    assert validate_task(crm_world, _with(task, solution=[task.solution[0], bad, *task.solution[2:]])) == "unreplayable"


def test_a_solution_that_misses_a_criterion_fails_the_oracle_gate(crm_world: World, task: Task) -> None:
    without_update = [s for s in task.solution if s.tool != "crm__update_contact"]
    assert validate_task(crm_world, _with(task, solution=without_update)) == "oracle_fails"
    wrong_answer = [
        c.model_copy(update={"value": "nobody"}) if isinstance(c, AnswerCriterion) else c for c in task.criteria
    ]
    # The oracle's answer is the answer criterion's value, so only the state can fail it.
    assert validate_task(crm_world, _with(task, criteria=wrong_answer)) is None


def test_criteria_that_doing_nothing_passes_are_trivial(crm_world: World, task: Task) -> None:
    nothing = [c for c in task.criteria if isinstance(c, NoCollateralCriterion)]
    assert validate_task(crm_world, _with(task, criteria=nothing)) == "trivial"


def test_criteria_a_proper_prefix_passes_are_rejected(crm_world: World, task: Task) -> None:
    created = next(c for c in task.criteria if isinstance(c, StateCriterion) and c.mode == "added")
    nc = next(c for c in task.criteria if isinstance(c, NoCollateralCriterion))
    assert validate_task(crm_world, _with(task, criteria=[created, nc])) == "prefix_passes"


def test_a_read_nothing_uses_is_an_unused_step(crm_world: World, task: Task) -> None:
    # Reading the contact again before the last step: nothing uses what that read finds.
    extra = _with(task, solution=[*task.solution[:-1], task.solution[0], task.solution[-1]])
    assert has_unused_step(crm_world, extra) and not has_unused_step(crm_world, task)
    assert validate_task(crm_world, extra) == "unused_step"


def test_a_second_run_that_ends_elsewhere_is_nondeterministic(crm_world: World, task: Task) -> None:
    assert validate_task(crm_world, task, reference_hash="0" * 64) == "nondeterministic"


def test_a_value_taken_from_a_list_of_several_is_ambiguous(crm_world: World) -> None:
    built = Synthesizer(crm_world).build(ambiguous_walk(crm_world), seed=0, index=1, rng=random.Random(1))
    assert built.task is None and built.reason == "ambiguous"


def test_a_value_taken_from_a_one_item_list_is_not_ambiguous(crm_world: World, task: Task) -> None:
    walk = delete_walk(crm_world)
    solution = [
        SolutionStep(tool=s.tool, arguments=s.arguments, provenance={n: p.to_dict() for n, p in s.provenance.items()})
        for s in walk.steps
    ]
    results = [s.result for s in walk.steps]
    deleting = _with(task, solution=solution)
    assert results[1]["items"] and len(results[1]["items"]) == 1
    assert not is_ambiguous(deleting, results)
    two = dict(results[1], items=results[1]["items"] * 2)
    assert is_ambiguous(deleting, [results[0], two, results[2]])


def test_an_instruction_that_states_a_found_value_leaks(crm_world: World, task: Task) -> None:
    assert not leaks(task)
    leaky = _with(task, instruction=task.instruction + f" (the contact is {CONTACT})")
    assert leaks(leaky)
    assert validate_task(crm_world, leaky) == "leak"


def test_a_found_value_the_instruction_states_anyway_is_no_leak(task: Task) -> None:
    stated = task.solution[0].arguments["email"]
    assert stated in task.instruction and not leaks(task)


def test_passing_means_every_criterion_holds(crm_world: World, task: Task) -> None:
    done = run_solution(crm_world, task).episode
    assert passes(task.criteria, done, next(c.value for c in task.criteria if isinstance(c, AnswerCriterion)))
    assert not passes(task.criteria, done, "no idea")
    assert not passes(task.criteria, run_solution(crm_world, task, 3).episode)
