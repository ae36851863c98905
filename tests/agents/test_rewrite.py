"""LLM instruction rewrites: kept only when they state every fact and pass every gate."""

from __future__ import annotations

import pytest

from compoworld import Catalog, World
from compoworld.agents.rewrite import InstructionRewriter, stated_values
from compoworld.devtools.testing import ScriptedChatServer
from compoworld.tasks.synthesis import Synthesizer
from compoworld.tasks.task import Task


@pytest.fixture(scope="module")
def setup() -> tuple[World, Task]:
    world = World.build(Catalog.load(["crm", "mail", "invoicing", "payments", "shop", "helpdesk"]), seed=0)
    synth = Synthesizer(world)
    task = next(t for _, t, _ in synth.tasks(5, 30) if t is not None and stated_values(t))
    return world, task


def _faithful(task: Task) -> str:
    return "Could you please do this for me: " + " and then ".join(stated_values(task)) + ". " + task.instruction


def test_a_rewrite_that_keeps_every_fact_is_accepted(setup: tuple[World, Task]) -> None:
    world, task = setup
    text = _faithful(task)
    with ScriptedChatServer([text]) as server:
        out = InstructionRewriter(server.url, "writer").rewrite(world, task)
        assert out.instruction == text and out.metadata["instruction"] == "llm"
        assert server.requests[0]["messages"][1]["content"] == task.instruction


def test_a_rewrite_that_drops_a_fact_is_retried_then_refused(setup: tuple[World, Task]) -> None:
    world, task = setup
    with ScriptedChatServer(["Please handle it.", "Please handle it, thanks."]) as server:
        rewriter = InstructionRewriter(server.url, "writer", max_attempts=2)
        out = rewriter.rewrite(world, task)
        assert out.instruction == task.instruction and out.metadata["instruction"] == "template"
        assert len(server.requests) == 2 and "leaves out" in server.requests[1]["messages"][-1]["content"]
        assert rewriter.refused == 1


def test_a_rewrite_that_leaks_a_discovered_value_is_refused(setup: tuple[World, Task]) -> None:
    world, task = setup
    discovered = next(
        str(s.arguments[n])
        for s in task.solution
        for n, p in s.provenance.items()
        if p["kind"] == "step"
        and isinstance(s.arguments[n], str)
        and len(s.arguments[n]) >= 3
        and str(s.arguments[n]) not in stated_values(task)
    )
    with ScriptedChatServer([_faithful(task) + f" (it is {discovered})"]) as server:
        out = InstructionRewriter(server.url, "writer", max_attempts=1).rewrite(world, task)
    assert out.instruction == task.instruction


def test_a_dead_endpoint_keeps_the_template(setup: tuple[World, Task]) -> None:
    world, task = setup
    with ScriptedChatServer() as server:
        url = server.url
    out = InstructionRewriter(url, "writer", timeout_s=2).rewrite(world, task)
    assert out.instruction == task.instruction
