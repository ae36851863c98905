"""Asides: a walk that must use an open-world lookup consults it about the record its work is on."""

from __future__ import annotations

import dataclasses
import random

import pytest

from compoworld import Catalog, World
from compoworld.tasks.criteria import AnswerCriterion, check_criteria
from compoworld.tasks.graph import ToolGraph, input_ports, output_ports
from compoworld.tasks.replay import run_solution
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task
from compoworld.tasks.walk import Walk, draw_walk, finding, flatten

SERVICES = ["crm", "helpdesk", "invoicing", "teamchat", "mail", "shop", "weather", "fx", "translate", "maps", "news"]
LOOKUPS = ["weather", "translate", "maps", "news"]


@pytest.fixture(scope="module")
def synth() -> Synthesizer:
    catalog = Catalog.load(SERVICES)
    return Synthesizer(World.build(catalog, seed=0), ToolGraph.build(catalog), SynthConfig())


def _focused(synth: Synthesizer, service: str, attempts: int = 24) -> list[tuple[Walk, Task]]:
    """Tasks of walks that must use ``service``, as a coverage index draws them."""
    out = []
    for a in range(attempts):
        cfg = dataclasses.replace(synth.config.walk, focus=service, focus_start=a % 2 == 0, trigger=a % 4 < 2)
        rng = random.Random(f"{service}:{a}")
        drawn = draw_walk(synth.world, synth.graph, rng, cfg, synth.pool)
        if drawn.walk is None:
            continue
        built = synth.build(drawn.walk, seed=0, index=a, rng=rng)
        if built.task is not None:
            out.append((drawn.walk, built.task))
    return out


@pytest.fixture(scope="module")
def asides(synth: Synthesizer) -> dict[str, list[tuple[Walk, Task]]]:
    return {service: _focused(synth, service) for service in LOOKUPS}


def test_generic_ports_are_there_only_when_asked_for() -> None:
    catalog = Catalog.load(["weather", "crm"])
    current = catalog.tools["weather__current_weather"]
    assert "city" not in {p.path for p in input_ports(current)}  # no edge: anyone can be told a city
    assert {"city", "country"} <= {p.path for p in input_ports(current, generic=True)}
    contacts = catalog.tools["crm__list_contacts"]
    assert {p.path for p in output_ports(contacts)} <= {p.path for p in output_ports(contacts, generic=True)}


def test_a_lookup_reports_what_it_was_asked_for_and_nothing_it_was_told(synth: Synthesizer) -> None:
    result = {"condition": {"description": "light rain", "main": "Rain"}, "observed_at": "2026-03-02T09:00:00Z"}
    ports = synth.graph.outputs["weather__current_weather"]
    found = finding(3, result, ports, set(), lookup=True)
    assert found is not None and (found.path, found.value) == ("condition.description", "light rain")
    # Only a lookup's own finding counts: any other read must name something a person can name.
    assert finding(3, result, ports, set(), lookup=False) is None
    # A value a step was given is no finding (a text "translated" into its own language).
    assert finding(3, result, ports, {'"light rain"'}, lookup=True) is None


def test_every_lookup_service_is_consulted_last_about_the_works_record(
    asides: dict[str, list[tuple[Walk, Task]]],
) -> None:
    for service in LOOKUPS:
        assert asides[service], f"no task of 24 focused attempts uses {service}"
        for walk, _ in asides[service]:
            last = walk.steps[-1]
            assert last.tool.startswith(f"{service}__")
            taken = [(name, p) for name, p in last.provenance.items() if p.kind == "step"]
            assert taken, f"{last.tool} took nothing the walk found: {last.arguments}"
            for name, p in taken:
                assert p.step is not None and p.step < len(walk.steps) - 1 and p.field is not None
                # The value is the one at that place of the earlier step's result, as found.
                at = dict(flatten(walk.steps[p.step].result))
                wanted = last.arguments[name]
                assert at[p.field] == (wanted[0] if isinstance(wanted, list) else wanted)
            # One record: all it took comes from the same step.
            assert len({p.step for _, p in taken}) == 1


def test_an_aside_reads_as_a_goal_and_its_finding_is_the_answer(
    synth: Synthesizer, asides: dict[str, list[tuple[Walk, Task]]]
) -> None:
    catalog = synth.world.catalog
    for service in LOOKUPS:
        for walk, task in asides[service]:
            tool = catalog.tools[walk.steps[-1].tool]
            title = catalog.services[service].title
            assert f"{tool.intent} in {title} (" in task.instruction
            assert tool.name not in task.instruction and "step" not in task.instruction.casefold()
            (answer,) = [c for c in task.criteria if isinstance(c, AnswerCriterion)]
            assert answer.value in [v for _, v in flatten(walk.steps[-1].result)]
            run = run_solution(synth.world, task)
            assert all(c.ok for c in run.calls)
            results = check_criteria(task.criteria, run.episode, answer=f"Done. It is {answer.value}.", since=run.base)
            assert all(r.passed for r in results), [r.detail for r in results if not r.passed]
            # The work done and the lookup made, but the finding not told: the task is not done.
            told_nothing = check_criteria(task.criteria, run.episode, answer="Done.", since=run.base)
            assert not all(r.passed for r in told_nothing)


def test_a_conversion_goes_from_the_records_currency_into_another() -> None:
    catalog = Catalog.load(["invoicing", "payments", "crm", "mail", "fx"])
    synth = Synthesizer(World.build(catalog, seed=0), ToolGraph.build(catalog), SynthConfig())
    converted = [w for w, _ in _focused(synth, "fx", 48) if w.steps[-1].tool == "fx__convert"]
    assert converted, "no conversion in 48 focused attempts"
    for walk in converted:
        args, prov = walk.steps[-1].arguments, walk.steps[-1].provenance
        assert args["from_currency"] != args["to_currency"]
        assert prov["from_currency"].kind == "step" or prov["to_currency"].kind == "step"
        # What is converted is the record's own amount, in that record's currency: never a made-up one.
        assert prov["amount"].kind == "step"
        assert {prov["amount"].step} == {p.step for p in prov.values() if p.kind == "step"}
