"""Ranking a walk's next tools: the first k of a full weighted sort, for far fewer draws."""

from __future__ import annotations

import random

import pytest

from compoworld import Catalog
from compoworld.tasks.candidates import (
    NEW_SERVICE_WEIGHT,
    WANTED_WRITE_WEIGHT,
    CandidateIndex,
    StepState,
    static_weight,
)
from compoworld.tasks.graph import ToolGraph
from compoworld.tasks.prior import RecipePrior
from compoworld.tasks.walk import NAMEABLE

SERVICES = ["crm", "mail", "invoicing", "payments", "calendar", "chat", "shop", "shipping", "helpdesk", "hr"]


class _Fixed(random.Random):
    """Every draw the same: keys are then the weights, so the first k are the k heaviest."""

    def random(self) -> float:
        return 0.5


@pytest.fixture(scope="module")
def index() -> CandidateIndex:
    catalog = Catalog.load(SERVICES)
    return CandidateIndex(ToolGraph.build(catalog), catalog.tools, RecipePrior.default(), NAMEABLE)


def _states(index: CandidateIndex) -> list[StepState]:
    """Walk states after each start tool, with and without a tool before, in every multiplier setting."""
    graph, tools = index.graph, index.tools
    out = []
    for i, start in enumerate(index.starts[:40]):
        produced = {p.semantic for p in graph.outputs[start]}
        service = tools[start].service
        before = None if i % 5 == 0 else tools[start]
        out.append(
            StepState(
                produced=produced,
                used={start},
                services={service} if i % 7 else {service, "crm", "mail", "chat"},
                before=before,
                need_services=i % 2 == 0,
                want_write=i % 3 != 0,
                max_services=4,
                open_world=i % 4 != 0,
            )
        )
    return out


def _weights(index: CandidateIndex, state: StepState) -> dict[str, float]:
    """Every tool that may follow, with its weight, by the rules as written (no tables, no tiers)."""
    graph, tools, prior = index.graph, index.tools, index.prior
    out = {}
    for sem in state.produced:
        for name in graph.consumers.get(sem, ()):
            tool = tools[name]
            needs = {p.semantic for p in graph.inputs[name] if p.required and p.semantic.endswith(".id")}
            if name in state.used or not needs <= state.produced:
                continue
            if tool.annotations.open_world and not state.open_world:
                continue
            if tool.service not in state.services and len(state.services) >= state.max_services:
                continue
            w = NEW_SERVICE_WEIGHT if state.need_services and tool.service not in state.services else 1.0
            if state.before is not None:
                w *= prior.weight(state.before, tool)
            if tool.writes and state.want_write:
                w *= WANTED_WRITE_WEIGHT
            w *= static_weight(tool)
            out[name] = w
    return out


def test_the_first_k_are_those_a_full_sort_gives(index: CandidateIndex) -> None:
    checked = 0
    for state in _states(index):
        weights = _weights(index, state)
        for k in (1, 5, 24, 10_000):
            expected = sorted(weights, key=lambda n: (weights[n], n), reverse=True)[:k]
            assert index.rank(state, _Fixed(), k) == expected
            checked += len(expected)
    assert checked > 1000


def test_every_tool_that_may_follow_can_be_drawn_and_no_other(index: CandidateIndex) -> None:
    for state in _states(index)[:10]:
        everything = index.rank(state, random.Random(0), 10_000)
        assert sorted(everything) == sorted(_weights(index, state))


def test_the_same_seed_gives_the_same_order(index: CandidateIndex) -> None:
    for state in _states(index)[:10]:
        assert index.rank(state, random.Random(3), 24) == index.rank(state, random.Random(3), 24)


def test_heavier_tools_come_first_more_often(index: CandidateIndex) -> None:
    state = next(s for s in _states(index) if s.before is not None and len(_weights(index, s)) > 30)
    weights = _weights(index, state)
    heaviest = max(weights, key=lambda n: (weights[n], n))
    lightest = min(weights, key=lambda n: (weights[n], n))
    firsts = [index.rank(state, random.Random(i), 24) for i in range(300)]
    assert sum(heaviest in f for f in firsts) > sum(lightest in f for f in firsts)


def test_start_tools_are_drawn_without_repeats_and_respect_open_world(index: CandidateIndex) -> None:
    state = StepState(set(), set(), set(), None, True, False, 4, open_world=False)
    picked = index.first(state, random.Random(1), 24)
    assert len(picked) == len(set(picked)) == 24
    assert set(picked) <= set(index.starts)
    assert not any(index.tools[n].annotations.open_world for n in picked)
