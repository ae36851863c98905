"""The crossref pattern: a stale copy of a person's value; the source of truth holds another."""

from __future__ import annotations

import random
from typing import Any

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.criteria import NotSentCriterion, UnchangedCriterion, check_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.patterns import Shortcut, plant_crossref, shortcut_passes
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import SolutionStep, Task, task_answer
from compoworld.tasks.walk import Walk, flatten

# People found by e-mail in a help desk, two CRMs, billing and chat; the team told in its channel.
SERVICES = ["helpdesk", "crm", "dealflow", "teamchat", "subscriptions", "payments", "livechat"]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def tasks(world: World) -> list[Task]:
    synth = Synthesizer(world, config=SynthConfig(patterns=("crossref",)))
    found = [t for _, t, _ in synth.tasks(0, 30) if t is not None and "crossref" in t.patterns]
    assert len(found) >= 8, "a person's phone, company or name should be held by another service here"
    return found


def _parts(world: World, task: Task) -> tuple[int, int, str, str, str, UnchangedCriterion, str]:
    """The lookup in the source of truth, the write and its argument that take its value, the new and stale value.

    The lookup goes before the reads that find where the write goes (the channel a post goes to).
    """
    guard = next(c for c in task.criteria if isinstance(c, UnchangedCriterion))
    update = task.setup[0]
    service = update.tool.split("__", 1)[0]
    (j,) = [i for i, s in enumerate(task.solution) if s.tool.split("__", 1)[0] == service]
    field = next(k for k in update.arguments if k not in _ids(update))
    new = update.arguments[field]
    stale = getattr(world.tables[guard.table].records[guard.record_id], field)
    w, name = next(
        (i, n)
        for i in range(j + 1, len(task.solution))
        for n, p in task.solution[i].provenance.items()
        if j in _sources(p)
    )
    assert all(not world.catalog.tools[s.tool].writes for s in task.solution[j + 1 : w])
    return j, w, name, new, stale, guard, field


def _ids(step: SolutionStep) -> set[str]:
    return {k for k, p in step.provenance.items() if k.endswith("_id")}


def _sources(prov: dict[str, Any]) -> list[int]:
    if prov.get("kind") == "compose":
        return [int(p["step"]) for p in prov.get("parts", [])]
    return [int(prov["step"])] if prov.get("step") is not None else []


def test_the_source_of_truth_is_looked_up_and_its_value_written(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        assert validate_task(world, task) is None, task.id
        j, w, name, new, stale, guard, field = _parts(world, task)
        assert guard.table.split(".")[0] == task.setup[0].tool.split("__", 1)[0]
        # The source of truth holds the new value after the setup; the walk's own record still the stale one.
        episode = Episode(world)
        apply_setup(episode, task)
        looked = episode.call(task.solution[j].tool, task.solution[j].arguments).result
        assert [v for p, v in flatten(looked) if p.rsplit(".", 1)[-1] == field] == [new]
        # (a renamed company's new name may hold its old one: "Zephyr Logistics Holdings")
        written = task.solution[w].arguments[name]
        assert new in written and stale not in written.replace(new, "")
        # The rule at the end names the source of truth, and only the rule does: the sentence that asks for the
        # value names it by whose it is. The instruction states neither value.
        title = world.catalog.services[guard.table.split(".")[0]].title
        assert task.instruction.count(title) == 1 and "source of truth" in task.instruction.split(". ")[-1]
        assert new not in task.instruction and stale not in task.instruction.replace(new, "")


def test_skipping_the_lookup_fails_the_task(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        j, w, name, new, stale, _, _ = _parts(world, task)
        written = task.solution[w].arguments[name]
        at_hand = written.replace(new, stale)
        assert shortcut_passes(world, task, Shortcut("none"))
        assert not shortcut_passes(world, task, Shortcut("skip_lookup", drop=(j,), choice=(w, name, at_hand)))


def test_writing_or_telling_the_stale_value_breaks_a_negative_of_its_own(world: World, tasks: list[Task]) -> None:
    checked = 0
    for task in tasks:
        _, w, name, new, stale, _, _ = _parts(world, task)
        negatives = [
            c
            for c in task.criteria
            if isinstance(c, NotSentCriterion) and (stale in c.contains.get(name, []) or c.fields.get(name) == stale)
        ]
        if stale.casefold() in new.casefold():
            assert not negatives, task.id  # the current value tells the stale one: nothing to forbid
            continue
        if not negatives:
            continue  # an update of a record there already: its transition criterion asks for the value
        checked += 1
        episode = Episode(world)
        base = apply_setup(episode, task)
        for i, step in enumerate(task.solution):
            args = dict(step.arguments)
            if i == w:
                value = args[name]
                args[name] = (
                    [v.replace(new, stale) for v in value] if isinstance(value, list) else value.replace(new, stale)
                )
            episode.call(step.tool, args)
        assert not any(v.passed for v in check_criteria(negatives, episode, task_answer(task), base)), task.id
    assert checked, "some crossref task should message or create with the value"


def test_bringing_the_source_of_truth_back_to_the_stale_copy_breaks_its_guard(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        _, _, _, _, stale, guard, field = _parts(world, task)
        update = task.setup[0]
        episode = Episode(world)
        base = apply_setup(episode, task)
        for s in task.solution:
            episode.call(s.tool, s.arguments)
        verdicts = check_criteria(task.criteria, episode, task_answer(task), base)
        assert all(v.passed for v in verdicts)
        # An agent that "fixes" the disagreement the wrong way round: the source of truth gets the stale copy.
        assert episode.call(update.tool, {**update.arguments, field: stale}).ok
        verdicts = check_criteria(task.criteria, episode, task_answer(task), base)
        assert not next(v for v in verdicts if v.id == guard.id).passed, task.id


def test_copies_in_no_system_of_record_make_no_crossref() -> None:
    # Chat, bookings, hotels, rides and shops hold people's names and numbers, but none is where a team keeps
    # them: their tasks are made, without the pattern.
    services = ["livechat", "teamchat", "mail", "booking", "hotels", "listings", "rides", "shop", "marketplace"]
    world = World.build(Catalog.load(services), seed=0)
    synth = Synthesizer(world, config=SynthConfig(patterns=("crossref",)))
    made = [t for _, t, _ in synth.tasks(0, 10) if t is not None]
    assert len(made) == 10 and not any(t.patterns for t in made)
    assert plant_crossref(world, synth.graph, Walk([], Episode(world)), random.Random(0), frozenset()) is None


def test_crossref_is_the_same_for_the_same_seed(world: World, tasks: list[Task]) -> None:
    again = Synthesizer(world, config=SynthConfig(patterns=("crossref",)))
    twice = [t for _, t, _ in again.tasks(0, 30) if t is not None and "crossref" in t.patterns]
    assert [t.model_dump() for t in twice] == [t.model_dump() for t in tasks]
