"""The aggregation pattern: how many records someone has (or what they add up to) decides a choice or a fact."""

from __future__ import annotations

import re
from typing import Any

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.criteria import MessageCriterion, NotSentCriterion, carries_fact, check_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.patterns import Shortcut, shortcut_passes
from compoworld.tasks.patterns.aggregation import top_of_scale
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.transforms import apply_transform, count_items, list_items, pick_item, sum_field

# Services where people have tickets, requests and issues, and where work sets a priority or an urgency.
SERVICES = ["helpdesk", "tracker", "oncall", "crm", "identity", "teamchat", "mail", "propertymgmt", "servicedesk"]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def tasks(world: World) -> list[Task]:
    synth = Synthesizer(world, config=SynthConfig(patterns=("aggregation",)))
    found = [t for _, t, _ in synth.tasks(0, 30) if t is not None and "aggregation" in t.patterns]
    assert len(found) >= 5, "the aggregation pattern should fit several tasks of these services"
    return found


def _counted(task: Task) -> tuple[int, int, str, dict[str, Any]]:
    """``(list step, step that uses the count, its argument, the provenance)`` of a task's count."""
    for j, step in enumerate(task.solution):
        for name, prov in step.provenance.items():
            if prov.get("transform") in ("count_items", "sum_field"):
                return int(prov["step"]), j, name, prov
    raise AssertionError(f"{task.id} counts nothing")


def _retold(body: str, old: int, new: int) -> str:
    """The body with the last whole number ``old`` it tells made ``new``."""
    found = list(re.finditer(rf"(?<![\w.,/-]){old}(?!\w)", body))
    assert found, body
    at = found[-1]
    return f"{body[: at.start()]}{new}{body[at.end() :]}"


def test_counts_sums_and_picks_over_a_list() -> None:
    page = {
        "items": [
            {"id": "t1", "status": "closed", "total": 100.0},
            {"id": "t2", "status": "open", "total": 250.5},
            {"id": "t3", "status": "OPEN", "total": 50.0},
        ],
        "next_cursor": None,
    }
    assert count_items(page, {}) == 3
    assert count_items(page, {"unless": [["status", ["closed"]]]}) == 2
    assert count_items(page, {"where": [["status", "open"]]}) == 2
    assert count_items(page, {"at_least": 3, "then": "urgent", "else": "normal"}) == "urgent"
    rule = {"at_least": 3, "then": "urgent", "else": "normal"}
    assert count_items(page, {**rule, "unless": [["status", ["closed"]]]}) == "normal"
    assert sum_field(page, {"field": "total"}) == 400.5
    assert sum_field(page, {"field": "total", "at_least": 400, "then": 1, "else": 3}) == 1
    assert pick_item(page, {"take": "id", "unless": [["status", ["closed"]]]}) is None  # two are open
    assert pick_item(page, {"take": "id", "where": [["status", "closed"]]}) == "t1"
    # A page with more to come is no whole list: nothing is counted from it.
    assert count_items({**page, "next_cursor": "t3"}, {}) is None
    assert list_items({"rides": page["items"]}) == page["items"]
    assert apply_transform("count_items", page, {}) == 3


def test_a_short_number_is_told_as_a_number_of_its_own() -> None:
    assert carries_fact("Ana has 3 open tickets.", "3")
    assert carries_fact("Open tickets: 3.", "3")
    assert not carries_fact("the reservation number is SL-0000039", "3")
    assert not carries_fact("it costs 3.50", "3")
    assert not carries_fact("13 tickets", "3")
    assert carries_fact("Tracking 1Z999", "1z999")


def test_the_highest_value_of_an_ordered_choice() -> None:
    assert top_of_scale(["low", "normal", "high", "urgent"]) == "urgent"
    assert top_of_scale(["highest", "high", "medium", "low", "lowest"]) == "highest"
    assert top_of_scale(["P1", "P2", "P3"]) == "P1"
    assert top_of_scale(["call", "email"]) is None


def test_kept_tasks_count_planted_records_and_pass_every_gate(world: World, tasks: list[Task]) -> None:
    kinds = set()
    for task in tasks:
        assert validate_task(world, task) is None, task.id
        k, j, name, prov = _counted(task)
        kinds.add(prov["kind"])
        lister = task.solution[k]
        assert world.catalog.tools[lister.tool].kind == "list"
        ep = Episode(world)
        apply_setup(ep, task)
        found = ep.call(lister.tool, lister.arguments).result
        records = list_items(found)
        assert records is not None and len(records) >= 2, task.id
        # Records planted by the setup are among those counted: they live after the world's own.
        made = {s.tool for s in task.setup}
        assert any(r["id"] not in world.tables[_table(world, lister.tool)].records for r in records), made
        value = apply_transform(str(prov["transform"]), found, prov.get("params", {}))
        if prov["kind"] == "compose":
            assert carries_fact(task.solution[j].arguments[name], str(value))
            assert f" {value} " not in task.instruction  # the count is found, never stated
        else:
            assert task.solution[j].arguments[name] == value
            assert "Our rule for the" in task.instruction
    assert kinds == {"compose", "derived"}, "both a count told and a count that decides a choice"


def _table(world: World, tool: str) -> str:
    resource = world.catalog.tools[tool].resource
    assert resource is not None
    return world.catalog.resources[resource].table


def test_skipping_the_lookup_or_counting_one_record_fails(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        assert shortcut_passes(world, task, Shortcut("none"))
        k, j, name, prov = _counted(task)
        if prov["kind"] == "compose":
            body = str(task.solution[j].arguments[name])
            ep = Episode(world)
            apply_setup(ep, task)
            listed = ep.call(task.solution[k].tool, task.solution[k].arguments).result
            count = count_items(listed, prov.get("params", {}))
            assert isinstance(count, int)
            skipped = re.sub(r"[^.]*\b\d+\b[^.]*\.$", "", body).strip()
            assert not shortcut_passes(world, task, Shortcut("skip_lookup", drop=(k,), choice=(j, name, skipped)))
            one = _retold(body, count, 1)
            assert not shortcut_passes(world, task, Shortcut("first_match", choice=(j, name, one)))
        else:
            otherwise = prov["params"]["else"]
            assert not shortcut_passes(world, task, Shortcut("skip_lookup", drop=(k,), choice=(j, name, otherwise)))
            assert not shortcut_passes(world, task, Shortcut("first_match", choice=(j, name, otherwise)))


def test_a_miscounted_message_or_a_misread_rule_breaks_its_criterion(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        k, j, name, prov = _counted(task)
        if prov["kind"] == "compose":
            ep = Episode(world)
            base = apply_setup(ep, task)
            count = count_items(ep.call(task.solution[k].tool, task.solution[k].arguments).result, {})
            assert isinstance(count, int)
            for i, step in enumerate(task.solution):
                args = dict(step.arguments)
                if i == j:
                    args[name] = _retold(str(args[name]), count, count + 1)
                ep.call(step.tool, args)
            checked = check_criteria(task.criteria, ep, task_answer(task), base)
            broken = [v for v in checked if not v.passed]
            assert broken and all(
                isinstance(c, MessageCriterion) for c in task.criteria if c.id in {b.id for b in broken}
            )
        else:
            guards = [c for c in task.criteria if isinstance(c, NotSentCriterion)]
            wrong = prov["params"]["else"]
            assert all(c.fields == {name: wrong} for c in guards)
            ep = Episode(world)
            base = apply_setup(ep, task)
            for i, step in enumerate(task.solution):
                ep.call(step.tool, {**step.arguments, name: wrong} if i == j else step.arguments)
            verdicts = {v.id: v.passed for v in check_criteria(task.criteria, ep, task_answer(task), base)}
            assert not all(verdicts.values())
            assert all(not verdicts[c.id] for c in guards)


def test_the_same_seed_makes_the_same_tasks(world: World, tasks: list[Task]) -> None:
    again = Synthesizer(world, config=SynthConfig(patterns=("aggregation",)))
    remade = [t for _, t, _ in again.tasks(0, 30) if t is not None and "aggregation" in t.patterns]
    assert [t.model_dump_json() for t in remade] == [t.model_dump_json() for t in tasks]
