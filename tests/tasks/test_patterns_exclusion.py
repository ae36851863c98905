"""The exclusion pattern: records on hold, closed or opted out are skipped however well they match."""

from __future__ import annotations

import collections
import random
import re
from typing import Any

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.arguments import non_null
from compoworld.tasks.criteria import UnchangedCriterion, check_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.patterns import Shortcut, plant_exclusion, shortcut_passes
from compoworld.tasks.patterns.exclusion import excluded_state, find_sites
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.transforms import apply_transform, count_items, list_items
from compoworld.tasks.walk import Provenance, Step, Walk

SERVICES = ["helpdesk", "tracker", "oncall", "crm", "identity", "teamchat", "mail", "propertymgmt", "servicedesk"]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def tasks(world: World) -> list[Task]:
    synth = Synthesizer(world, config=SynthConfig(patterns=("exclusion",)))
    found = [t for _, t, _ in synth.tasks(0, 40) if t is not None and "exclusion" in t.patterns]
    assert len(found) >= 3, "the exclusion pattern should fit several tasks of these services"
    return found


def _count(task: Task) -> tuple[int, int, str, dict[str, Any]]:
    """``(list step, message step, its text argument, the provenance)`` of the count that skips records."""
    for j, step in enumerate(task.solution):
        for name, prov in step.provenance.items():
            if prov.get("transform") == "count_items" and prov.get("params", {}).get("unless"):
                return int(prov["step"]), j, name, prov
    raise AssertionError(f"{task.id} skips nothing")


def test_states_a_team_skips_are_named_in_words() -> None:
    assert excluded_state("status", "hold") == "on hold"
    assert excluded_state("status", "closed") == "closed"
    assert excluded_state("status", "open") is None
    assert excluded_state("suspended", True) == "suspended"
    assert excluded_state("do_not_contact", True) == "marked do not contact"
    assert excluded_state("active", False) == "not active"
    assert excluded_state("active", True) is None


def test_skipped_siblings_are_planted_counted_out_and_guarded(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        assert validate_task(world, task) is None, task.id
        k, j, name, prov = _count(task)
        ((field, values),) = prov["params"]["unless"]
        guards = [c for c in task.criteria if isinstance(c, UnchangedCriterion)]
        assert guards, task.id
        ep = Episode(world)
        apply_setup(ep, task)
        listed = ep.call(task.solution[k].tool, task.solution[k].arguments).result
        records = {r["id"]: r for r in list_items(listed) or []}
        for guard in guards:
            # A sibling made by the setup, found by the same lookup, in the state to skip.
            assert guard.record_id not in world.tables[guard.table].records
            assert records[guard.record_id][field] in values
        counted = apply_transform("count_items", listed, prov["params"])
        everything = apply_transform("count_items", listed, {})
        assert isinstance(counted, int) and isinstance(everything, int) and counted < everything
        assert re.search(rf"(?<!\d){counted}(?!\d)", task.solution[j].arguments[name])
        assert "out of any count" in task.instruction or "do not count" in task.instruction, task.instruction


def test_counting_every_match_or_touching_a_sibling_fails(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        k, j, name, prov = _count(task)
        ep = Episode(world)
        apply_setup(ep, task)
        listed = ep.call(task.solution[k].tool, task.solution[k].arguments).result
        counted = count_items(listed, prov["params"])
        everything = count_items(listed, {})
        assert isinstance(counted, int) and isinstance(everything, int)
        body = str(task.solution[j].arguments[name])
        at = list(re.finditer(rf"(?<![\w.,/-]){counted}(?!\w)", body))[-1]
        every = f"{body[: at.start()]}{everything}{body[at.end() :]}"
        assert not shortcut_passes(world, task, Shortcut("every_match", choice=(j, name, every)))
        # Reopening (or otherwise changing) a skipped record breaks the criterion that guards it.
        guard = next(c for c in task.criteria if isinstance(c, UnchangedCriterion))
        ep = Episode(world)
        base = apply_setup(ep, task)
        for step in task.solution:
            ep.call(step.tool, step.arguments)
        assert _touch(world, ep, guard)
        verdicts = {v.id: v.passed for v in check_criteria(task.criteria, ep, task_answer(task), base)}
        assert not verdicts[guard.id]


def _touch(world: World, ep: Episode, guard: UnchangedCriterion) -> bool:
    """Change the guarded record with an update tool of its service (a ticket's priority …); whether one did."""
    spec = world.tables[guard.table].spec
    for name, tool in sorted(world.catalog.tools.items()):
        if tool.resource != spec.qualified or tool.kind != "update":
            continue
        schema = tool.parameters_schema
        for param, prop in schema["properties"].items():
            for value in non_null(prop, schema).get("enum", []):
                before = ep.get(guard.table, guard.record_id)
                made = ep.call(name, {f"{spec.name}_id": guard.record_id, param: value})
                if made.ok and ep.get(guard.table, guard.record_id) != before:
                    return True
    return False


def _ticket_walk(world: World) -> Walk:
    """A user with one pending ticket found by a list of their tickets, whose priority is then raised."""
    tickets = [t.model_dump() for t in world.tables["helpdesk.tickets"].records.values()]
    per = collections.Counter(t["requester_id"] for t in tickets)
    ticket = next(t for t in tickets if per[t["requester_id"]] == 1 and t["status"] == "pending")
    user = world.tables["helpdesk.users"].records[ticket["requester_id"]].model_dump()
    email = str(user["email"])
    ep = Episode(world)
    found = ep.call("helpdesk__list_users", {"email": email}).result
    listed = ep.call("helpdesk__list_tickets", {"requester_id": user["id"]}).result
    raised = ep.call("helpdesk__update_ticket", {"ticket_id": ticket["id"], "priority": "urgent"}).result
    return Walk(
        [
            Step("helpdesk__list_users", {"email": email}, {"email": Provenance("given", semantic="email")}, found),
            Step(
                "helpdesk__list_tickets",
                {"requester_id": user["id"]},
                {"requester_id": Provenance("step", 0, "items[0].id", "helpdesk.user.id")},
                listed,
            ),
            Step(
                "helpdesk__update_ticket",
                {"ticket_id": ticket["id"], "priority": "urgent"},
                {
                    "ticket_id": Provenance("step", 1, "items[0].id", "helpdesk.ticket.id"),
                    "priority": Provenance("literal"),
                },
                raised,
            ),
        ],
        ep,
    )


def test_a_record_found_in_a_list_is_picked_past_siblings_to_skip(world: World) -> None:
    graph = ToolGraph.build(world.catalog)
    walk = _ticket_walk(world)
    (site,) = find_sites(world, walk)
    assert site.step == 1 and site.uses == ((2, "ticket_id", "id"),)
    part = plant_exclusion(world, graph, walk, random.Random(0), frozenset({"exclusion"}))
    assert part is not None and part.names == ("exclusion",)
    synth = Synthesizer(world, graph, SynthConfig(patterns=("exclusion",)))
    built = synth.build(
        part.walk,
        seed=0,
        index=0,
        rng=random.Random(0),
        negatives=part.negatives,
        patterns=part.names,
        notes=part.notes,
    )
    task = built.task
    assert task is not None, built.reason
    # The ticket the walk found is now an old case, first in the list; the one to raise is last.
    ep = Episode(world)
    apply_setup(ep, task)
    items = list_items(ep.call("helpdesk__list_tickets", task.solution[1].arguments).result) or []
    guarded = [c.record_id for c in task.criteria if isinstance(c, UnchangedCriterion)]
    assert [i["id"] for i in items[:-1]] == guarded and guarded[0] == site.record_id
    assert task.solution[2].arguments["ticket_id"] == items[-1]["id"]
    assert task.solution[2].provenance["ticket_id"]["transform"] == "pick_item"
    assert {s.name for s in part.shortcuts} == {"first_match", "every_match"}
    for shortcut in part.shortcuts:
        assert not shortcut_passes(world, task, shortcut), shortcut.name
    assert shortcut_passes(world, task, Shortcut("none"))


def test_the_same_seed_makes_the_same_tasks(world: World, tasks: list[Task]) -> None:
    again = Synthesizer(world, config=SynthConfig(patterns=("exclusion",)))
    remade = [t for _, t, _ in again.tasks(0, 40) if t is not None and "exclusion" in t.patterns]
    assert [t.model_dump_json() for t in remade] == [t.model_dump_json() for t in tasks]
