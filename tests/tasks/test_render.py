"""Rendering: an instruction states its goals and given facts, never a value a step must find."""

from __future__ import annotations

import random
import re

import pytest

from compoworld import Catalog, World
from compoworld.tasks.arguments import ValuePool
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.render import (
    field_label,
    given_facts,
    instruction,
    label,
    plan,
    render_value,
    reported_answer,
    step_sentence,
)
from compoworld.tasks.walk import Walk, WalkConfig, draw_walk
from tests.tasks.handmade import CONTACT, deal_walk, delete_walk, log_call_walk, retitle_twice_walk


@pytest.fixture(scope="module")
def graph(crm_world: World) -> ToolGraph:
    return ToolGraph.build(crm_world.catalog)


@pytest.fixture(scope="module")
def drawn() -> tuple[World, ToolGraph, list[Walk]]:
    world = World.build(
        Catalog.load(["crm", "mail", "helpdesk", "shop", "teamchat", "identity", "storage", "campaigns"]), seed=3
    )
    graph = ToolGraph.build(world.catalog)
    pool = ValuePool.from_world(world)
    walks = [draw_walk(world, graph, random.Random(i), WalkConfig(), pool).walk for i in range(60)]
    return world, graph, [w for w in walks if w is not None]


def _discovered(walk: Walk) -> set[str]:
    """String values a step took (or derived) from an earlier step that the instruction does not state anyway."""
    stated = [v for s in walk.steps for k, v in s.arguments.items() if s.provenance[k].kind in ("given", "literal")]
    out = set()
    for s in walk.steps:
        for name, prov in s.provenance.items():
            value = s.arguments[name]
            for v in value if isinstance(value, list) else [value]:
                if prov.kind in ("step", "derived") and isinstance(v, str) and len(v) >= 3 and v not in stated:
                    out.add(v)
    return out


def _unstated(walk: Walk, text: str) -> str:
    """The instruction without the values it states (a domain inside a stated e-mail is no leak)."""
    stated = [v for s in walk.steps for k, v in s.arguments.items() if s.provenance[k].kind in ("given", "literal")]
    for v in sorted((v for v in stated if isinstance(v, str)), key=len, reverse=True):
        text = text.replace(v, " ")
    return text


def test_an_instruction_states_goals_without_tools_or_numbers_then_asks_for_the_answer(
    crm_world: World, graph: ToolGraph
) -> None:
    walk = log_call_walk(crm_world)
    text, given = instruction(crm_world, graph, walk, random.Random(0))
    assert "\n" not in text and not re.search(r"\bstep \d|^\d+\.|\w+__\w+", text)
    assert walk.steps[0].arguments["email"] in text  # the fact to go by is stated
    assert 'kind "call"; subject "Renewal call"' in text  # so are the values the write takes
    last = text.rsplit(". ", 1)[-1]
    assert "phone" in last and ("answer" in last or "reply" in last.casefold())
    assert given == {"email": walk.steps[0].arguments["email"]}


def test_the_plan_numbers_every_step_and_names_what_it_uses(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    steps = plan(crm_world, walk)
    assert [line.split(".", 1)[0] for line in steps] == [str(j + 1) for j in range(len(walk.steps))]
    assert "from step 1" in steps[1]


def test_a_trigger_opens_the_instruction(crm_world: World, graph: ToolGraph) -> None:
    walk = log_call_walk(crm_world)
    walk.trigger = 'Relay CRM reports that the contact changed: its status is now "active".'
    text, _ = instruction(crm_world, graph, walk, random.Random(0))
    assert text.startswith(walk.trigger)


def test_a_sentence_states_given_and_literal_values_and_names_upstream_findings(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    sentence = step_sentence(crm_world, walk, 1, random.Random(0))
    assert 'kind "call"; subject "Renewal call"' in sentence
    assert "the contact from step 1" not in sentence and "the id from step 1" in sentence
    assert "create an activity" in sentence.lower() and CONTACT not in sentence


def test_the_first_sentence_starts_with_a_capital_letter_whatever_the_connector(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    for seed in range(20):
        assert step_sentence(crm_world, walk, 0, random.Random(seed))[0].isupper()


def test_the_same_random_state_renders_the_same_instruction(crm_world: World, graph: ToolGraph) -> None:
    walk = deal_walk(crm_world)
    a, b = random.Random(7), random.Random(7)
    assert instruction(crm_world, graph, walk, a) == instruction(crm_world, graph, walk, b)
    assert a.random() == b.random()


def test_no_answer_is_asked_for_when_the_last_step_writes_or_returns_nothing_to_report(
    crm_world: World, graph: ToolGraph
) -> None:
    walk = delete_walk(crm_world)
    assert reported_answer(graph, walk) is None
    text, _ = instruction(crm_world, graph, walk, random.Random(0))
    assert "tell me" not in text and "answer" not in text
    text, _ = instruction(crm_world, graph, retitle_twice_walk(crm_world), random.Random(0))
    assert "tell me" not in text and "answer" not in text


def test_the_reported_answer_is_never_a_value_the_instruction_states(crm_world: World, graph: ToolGraph) -> None:
    walk = log_call_walk(crm_world)
    ans = reported_answer(graph, walk)
    assert ans is not None
    path, value = ans
    assert path == "phone" and value == walk.steps[-1].result["phone"]
    assert value != walk.steps[0].arguments["email"]


def test_a_given_fact_whose_label_repeats_is_numbered_by_step(crm_world: World) -> None:
    walk = log_call_walk(crm_world)
    twice = Walk([walk.steps[0], walk.steps[0]], walk.episode)
    email = walk.steps[0].arguments["email"]
    assert given_facts(twice) == {"email": email, "email (2)": email}


def test_the_instruction_never_states_a_value_a_step_produced(crm_world: World, graph: ToolGraph) -> None:
    hand = [log_call_walk(crm_world), deal_walk(crm_world), delete_walk(crm_world)]
    for walk in hand:
        text, _ = instruction(crm_world, graph, walk, random.Random(0))
        found = _discovered(walk)
        assert found and not [v for v in found if v in _unstated(walk, text)]


def test_drawn_walks_never_state_a_value_a_step_produced(drawn: tuple[World, ToolGraph, list[Walk]]) -> None:
    world, graph, walks = drawn
    assert len(walks) >= 10
    for i, walk in enumerate(walks):
        text, given = instruction(world, graph, walk, random.Random(i))
        assert not [v for v in _discovered(walk) if v in _unstated(walk, text)], text
        assert all(
            s.arguments[k] in given.values() for s in walk.steps for k, p in s.provenance.items() if p.kind == "given"
        )


def test_names_and_values_read_as_words() -> None:
    assert label("contact_id") == "contact" and label("due_date") == "due date"
    assert field_label("items[0].email") == "email" and field_label("customer.account_id") == "account"
    # Bookkeeping fields in the words people use, never "the created at on record".
    assert field_label("items[0].created_at") == "creation date" and field_label("created_by") == "creator"
    assert render_value("Renewal call") == '"Renewal call"'
    assert render_value(12) == "12" and render_value(None) == "null" and render_value(True) == "true"
    address = {"street": "1 Main St", "city": "Lyon", "postal_code": "69001", "country": "FR"}
    assert render_value(address) == "1 Main St, 69001 Lyon, FR"
    assert render_value({"b": 1, "a": 2}) == '{"a": 2, "b": 1}'
