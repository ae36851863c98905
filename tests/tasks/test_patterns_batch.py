"""The batch pattern: the work is done on every record a lookup finds, or that the opening event happened to."""

from __future__ import annotations

import dataclasses
import json

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.actions import action_of
from compoworld.tasks.criteria import CountCriterion, NotSentCriterion, check_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.messages import addressee
from compoworld.tasks.patterns import Shortcut, shortcut_passes
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.synthesis import PATTERNED_WALK, SynthConfig, Synthesizer
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.transforms import list_items

SERVICES = ["inventory", "shop", "teamchat", "mail", "listings", "booking", "helpdesk", "knowledgebase", "crm"]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def batched(world: World) -> list[Task]:
    synth = Synthesizer(world, config=SynthConfig(patterns=("batch",), walk=PATTERNED_WALK))
    return [t for _, t, _ in synth.tasks(0, 80) if t is not None and "batch" in t.patterns]


@pytest.fixture(scope="module")
def tasks(world: World) -> list[Task]:
    """Tasks whose lookup lists several records, each worked on.

    Drawn from walks that start cold: a walk opening with an event works on the records it happened to.
    """
    cold = dataclasses.replace(PATTERNED_WALK, trigger=False)
    synth = Synthesizer(world, config=SynthConfig(patterns=("batch",), walk=cold))
    found = [t for _, t, _ in synth.tasks(0, 80) if t is not None and "batch" in t.patterns and _picked(t)]
    assert len(found) >= 3, "the batch pattern should fit several tasks of these services"
    return found


@pytest.fixture(scope="module")
def several(batched: list[Task]) -> list[Task]:
    """Tasks whose opening event happened to several records, the whole work done for each."""
    found = [t for t in batched if not _picked(t)]
    assert len(found) >= 3, "the event of several tasks of these services should fit other records too"
    return found


def _picked(task: Task) -> dict[int, tuple[int, str]]:
    """Per solution step that acts on one listed record: ``(list step, that record's id)``."""
    out = {}
    for j, step in enumerate(task.solution):
        for prov in step.provenance.values():
            params = prov.get("params", {})
            if prov.get("transform") == "pick_item" and any(f == "id" for f, _ in params.get("where", ())):
                out[j] = (int(prov["step"]), next(v for f, v in params["where"] if f == "id"))
    return out


def test_every_listed_record_gets_the_work_once(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        assert validate_task(world, task) is None, task.id
        picked = _picked(task)
        (k,) = {k for k, _ in picked.values()}
        ep = Episode(world)
        apply_setup(ep, task)
        for step in task.solution[:k]:
            ep.call(step.tool, step.arguments)
        listed = list_items(ep.call(task.solution[k].tool, task.solution[k].arguments).result) or []
        worked = {rid for _, rid in picked.values()}
        # Several records, all found by the one lookup, each worked on; the setup made the others.
        assert len(worked) >= 2 and worked <= {r["id"] for r in listed}, task.id
        made = [rid for rid in worked if all(rid not in table.records for table in world.tables.values())]
        assert made, task.id


def test_the_instruction_asks_once_and_says_it_goes_for_every_record(tasks: list[Task]) -> None:
    for task in tasks:
        said = ("every one of", "do the same for each of", "Work through all of")
        assert any(s in task.instruction for s in said), task.instruction
        # One goal sentence per kind of work, not one per record: no sentence is said twice.
        sentences = [s.strip() for s in task.instruction.split(". ") if s.strip()]
        assert len(sentences) == len(set(sentences)), task.instruction


def test_working_on_the_first_record_only_fails(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        first = min(j for j, (_, rid) in _picked(task).items() if rid != _picked(task)[min(_picked(task))][1])
        # Everything after the work on the first record is the work on the others.
        assert not shortcut_passes(world, task, Shortcut("only_one", drop=tuple(range(first, len(task.solution)))))


def test_doing_one_record_s_work_twice_breaks_a_count_lock(world: World, tasks: list[Task]) -> None:
    tried = 0
    for task in tasks:
        creates = [s for s in task.solution if action_of(world.catalog.tools[s.tool]) in ("create", "message")]
        if not creates:
            continue  # removals and status changes: a second one changes nothing, and their criteria say so
        tried += 1
        locks = [c for c in task.criteria if isinstance(c, CountCriterion)]
        assert locks, task.id
        ep = Episode(world)
        base = apply_setup(ep, task)
        for step in task.solution:
            ep.call(step.tool, step.arguments)
        assert all(v.passed for v in check_criteria(task.criteria, ep, task_answer(task), base))
        ep.call(creates[-1].tool, creates[-1].arguments)
        assert not all(v.passed for v in check_criteria(locks, ep, task_answer(task), base)), task.id
    assert tried, "some batch task should create records or send messages"


def test_synthesis_prefers_a_task_that_combines_patterns(world: World) -> None:
    names = ("batch", "aggregation", "crossref", "conversion", "decoys")

    def combined(combine: int) -> tuple[int, int]:
        synth = Synthesizer(world, config=SynthConfig(patterns=names, combine=combine))
        built = [t for _, t, _ in synth.tasks(0, 24) if t is not None]
        return sum(len(t.patterns) >= 2 for t in built), len(built)

    once, n_once = combined(1)
    thrice, n_thrice = combined(3)
    # Every index still gets a task; more of them are hard in two ways at once.
    assert n_once == n_thrice == 24 and thrice > once


def test_an_event_on_several_records_gets_the_whole_work_done_for_each(world: World, several: list[Task]) -> None:
    for task in several:
        assert validate_task(world, task) is None, task.id
        repeats = task.metadata["repeats"]
        first = task.solution[0]
        (key,) = first.arguments
        # Each other record is looked up as the first one, by its own value, which the event's message names.
        lookups = [j for j in repeats if task.solution[j].tool == first.tool]
        values = [task.solution[j].arguments[key] for j in lookups]
        assert lookups and first.arguments[key] not in values and len(set(values)) == len(values), task.id
        assert all(f'"{v}"' in task.instruction for v in [first.arguments[key], *values]), task.instruction
        assert set(values) <= set(task.given.values()), task.given
        # The same event was made on each of them before the agent starts.
        assert sum(s.tool == task.setup[-1].tool for s in task.setup) >= 1 + len(values), task.id
        assert not shortcut_passes(world, task, Shortcut("only_one", drop=tuple(repeats)))


def test_each_record_s_people_are_written_to_by_their_own_name(several: list[Task]) -> None:
    for task in several:
        greeted: dict[str, set[str]] = {}
        for step in task.solution:
            bodies = [str(v) for n, v in step.arguments.items() if step.provenance[n]["kind"] == "compose"]
            name = next((addressee(b) for b in bodies if addressee(b)), None)
            if name is not None:
                to = json.dumps(
                    {
                        n: v
                        for n, v in step.arguments.items()
                        if step.provenance[n].get("semantic") in ("email", "phone")
                    }
                )
                greeted.setdefault(name, set()).add(to)
        # A name greets one reader: the message about another record goes to that record's person, by name.
        assert all(len(readers) == 1 for readers in greeted.values()), (task.id, greeted)


def test_telling_one_record_s_findings_to_another_s_reader_breaks_a_negative(world: World, several: list[Task]) -> None:
    leaks = [(t, c) for t in several for c in t.criteria if isinstance(c, NotSentCriterion) and c.contains]
    assert leaks, "some task should message each record's own person"
    for task, leak in leaks:
        (name, address), (text, facts) = next(iter(leak.fields.items())), next(iter(leak.contains.items()))
        # The message to that reader, with the other record's findings added to its text.
        j = next(
            j
            for j, s in enumerate(task.solution)
            if address
            in (s.arguments.get(name) if isinstance(s.arguments.get(name), list) else [s.arguments.get(name)])
        )
        episode = Episode(world)
        base = apply_setup(episode, task)
        for i, step in enumerate(task.solution):
            args = dict(step.arguments)
            if i == j:
                args[text] = f"{args[text]} Also: {facts[0]}."
            assert episode.call(step.tool, args).ok
        (verdict,) = check_criteria([leak], episode, task_answer(task), base)
        assert not verdict.passed, (task.id, leak.description)
