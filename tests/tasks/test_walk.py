"""Random walks over the dependency graph, executed as drawn."""

from __future__ import annotations

import random

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.arguments import ValuePool
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.walk import WEAK, Walk, WalkConfig, draw_walk

SERVICES = ["crm", "mail", "invoicing", "payments", "calendar", "chat", "shop", "shipping", "helpdesk", "hr"]


@pytest.fixture(scope="module")
def setup() -> tuple[World, ToolGraph, ValuePool]:
    catalog = Catalog.load(SERVICES)
    world = World.build(catalog, seed=7)
    return world, ToolGraph.build(catalog), ValuePool.from_world(world)


@pytest.fixture(scope="module")
def walks(setup: tuple[World, ToolGraph, ValuePool]) -> list[Walk]:
    world, graph, pool = setup
    config = WalkConfig(min_length=4, max_length=6, min_services=3, max_services=4)
    out = []
    for i in range(40):
        result = draw_walk(world, graph, random.Random(i), config, pool)
        if result.walk is not None:
            out.append(result.walk)
        else:
            assert result.reason in {"no_start", "dead_end", "no_write", "too_few_services", "no_fan_in"}
    return out


def test_most_draws_give_a_walk(walks: list[Walk]) -> None:
    assert len(walks) >= 20


def test_every_step_after_the_first_consumes_an_identifying_upstream_value(walks: list[Walk]) -> None:
    for walk in walks:
        first = walk.steps[0]
        assert any(p.kind == "given" for p in first.provenance.values())
        for i, step in enumerate(walk.steps[1:], start=1):
            upstream = [p for p in step.provenance.values() if p.kind == "step"]
            assert upstream and all(p.step is not None and p.step < i for p in upstream)
            assert any(p.semantic not in WEAK for p in upstream), step


def test_ids_are_never_given_or_literal(walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]) -> None:
    _, graph, _ = setup
    for walk in walks:
        for step in walk.steps:
            ports = {p.path: p.semantic for p in graph.inputs[step.tool]}
            for name, prov in step.provenance.items():
                if ports.get(name, "").endswith(".id"):
                    assert prov.kind == "step"


def test_walks_respect_their_constraints_and_write(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    for walk in walks:
        assert 4 <= len(walk.steps) <= 6
        assert 3 <= len(walk.services) <= 4
        assert any(world.catalog.tools[s.tool].writes for s in walk.steps)
        assert not walk.episode.diff().is_empty


def test_re_executing_a_walk_on_a_fresh_episode_gives_the_same_state(
    walks: list[Walk], setup: tuple[World, ToolGraph, ValuePool]
) -> None:
    world, _, _ = setup
    for walk in walks:
        ep = Episode(world)
        for step in walk.steps:
            res = ep.call(step.tool, step.arguments)
            assert res.ok and res.result == step.result
        assert ep.state_hash() == walk.episode.state_hash()


def test_the_same_seed_draws_the_same_walk(setup: tuple[World, ToolGraph, ValuePool]) -> None:
    world, graph, pool = setup
    a = draw_walk(world, graph, random.Random(3), WalkConfig(), pool)
    b = draw_walk(world, graph, random.Random(3), WalkConfig(), pool)
    assert (a.walk is None) == (b.walk is None)
    if a.walk is not None and b.walk is not None:
        assert [(s.tool, s.arguments) for s in a.walk.steps] == [(s.tool, s.arguments) for s in b.walk.steps]
