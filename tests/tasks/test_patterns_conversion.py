"""The conversion pattern: an amount in another currency, a due date counted in working days."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from compoworld import Catalog, Episode, World
from compoworld.tasks.criteria import NotSentCriterion, check_criteria
from compoworld.tasks.gates import validate_task
from compoworld.tasks.patterns import Shortcut, apply_patterns, shortcut_passes
from compoworld.tasks.replay import apply_setup
from compoworld.tasks.synthesis import SynthConfig, Synthesizer
from compoworld.tasks.task import Task, task_answer
from compoworld.tasks.walk import Provenance, Step, Walk

# A CRM follow-up after an event elsewhere: where due dates are derived; the exchange-rate and holiday services.
SERVICES = ["crm", "helpdesk", "livechat", "subscriptions", "teamchat", "holidays", "fx", "marketplace"]


@pytest.fixture(scope="module")
def world() -> World:
    return World.build(Catalog.load(SERVICES), seed=0)


@pytest.fixture(scope="module")
def synth(world: World) -> Synthesizer:
    return Synthesizer(world, config=SynthConfig(patterns=("conversion",)))


@pytest.fixture(scope="module")
def tasks(synth: Synthesizer) -> list[Task]:
    found = [t for _, t, _ in synth.tasks(0, 30) if t is not None and "conversion" in t.patterns]
    assert len(found) >= 5, "working days should fit the CRM follow-ups of these services"
    return found


def _call(episode: Episode, tool: str, args: dict[str, Any], prov: dict[str, Provenance]) -> Step:
    res = episode.call(tool, args)
    assert res.ok, res.error
    return Step(tool, args, prov, res.result)


def _opportunity_walk(world: World, amount: tuple[int, Provenance] | None = None) -> Walk:
    """An account found by its domain, and an opportunity created for it (amount stated unless given)."""
    account = next(a for a in world.tables["crm.accounts"].records.values() if a.domain)
    episode = Episode(world)
    found = _call(
        episode,
        "crm__list_accounts",
        {"domain": account.domain},
        {"domain": Provenance("given", semantic="company.domain")},
    )
    steps = [found]
    value, prov = amount or (480000, Provenance("literal"))
    args = {
        "account_id": found.result["items"][0]["id"],
        "name": "Renewal",
        "amount": value,
        "close_date": "2026-04-30",
    }
    provenance = {
        "account_id": Provenance("step", 0, "items[0].id", "crm.account.id"),
        "name": Provenance("literal"),
        "amount": prov,
        "close_date": Provenance("literal"),
    }
    steps.append(_call(episode, "crm__create_opportunity", args, provenance))
    return Walk(steps, episode)


def _build(world: World, synth: Synthesizer, walk: Walk, seed: int = 0) -> tuple[Task, list[Shortcut]]:
    rng = random.Random(seed)
    patterned = apply_patterns(world, synth.graph, walk, ("conversion",), rng)
    assert patterned is not None and patterned.names == ["conversion"]
    built = synth.build(
        patterned.walk,
        seed=0,
        index=0,
        rng=rng,
        negatives=patterned.negatives,
        patterns=patterned.names,
        notes=patterned.notes,
    )
    assert built.task is not None, built.reason
    return built.task, patterned.shortcuts


def _written(world: World, task: Task, step: int, name: str, value: Any) -> list[bool]:
    """Each criterion's verdict when the solution's step ``step`` passes ``value`` as ``name``."""
    episode = Episode(world)
    base = apply_setup(episode, task)
    for i, s in enumerate(task.solution):
        episode.call(s.tool, {**s.arguments, name: value} if i == step else s.arguments)
    return [v.passed for v in check_criteria(task.criteria, episode, task_answer(task), base)]


def test_a_stated_amount_in_another_currency_is_converted_at_todays_rate(world: World, synth: Synthesizer) -> None:
    task, shortcuts = _build(world, synth, _opportunity_walk(world))
    assert validate_task(world, task) is None
    convert, write = task.solution[1], task.solution[2]
    assert convert.tool == "fx__convert" and convert.arguments["to_currency"] == "USD"
    foreign, stated = convert.arguments["from_currency"], convert.arguments["amount"]
    assert foreign != "USD"
    # The instruction states the amount as a colleague quotes it, and says which currency the books are in.
    assert f"amount: {foreign} " in task.instruction and "Our books are kept in US dollars (USD)" in task.instruction
    assert str(stated) not in task.instruction
    # The write takes exactly what the conversion gives.
    episode = Episode(world)
    apply_setup(episode, task)
    result = episode.call(convert.tool, convert.arguments).result
    assert write.arguments["amount"] == result["result"] != stated
    assert write.provenance["amount"] == {"kind": "step", "step": 1, "field": "result", "semantic": "money.amount"}
    # The oracle passes; entering the stated figure unconverted does not, and its negative says so.
    assert shortcut_passes(world, task, Shortcut("none"))
    (no_conversion,) = shortcuts
    assert no_conversion.name == "no_conversion" and not shortcut_passes(world, task, no_conversion)
    guard = next(c for c in task.criteria if isinstance(c, NotSentCriterion))
    assert guard.table == "crm.opportunities" and guard.fields == {"amount": stated}
    verdicts = _written(world, task, 2, "amount", stated)
    assert not verdicts[task.criteria.index(guard)]


def test_an_amount_copied_from_a_record_in_another_currency_is_converted(world: World, synth: Synthesizer) -> None:
    # An order paid in another currency, its buyer's only one and of one line (so it names one order): its total goes into a deal kept in dollars.
    buyers: dict[str, int] = {}
    for o in world.tables["marketplace.orders"].records.values():
        buyers[o.buyer_email] = buyers.get(o.buyer_email, 0) + 1
    order = next(
        o
        for o in world.tables["marketplace.orders"].records.values()
        if o.currency not in ("USD", None) and buyers[o.buyer_email] == 1 and len(o.lines) == 1 and o.total > 0
    )
    walk = _opportunity_walk(world)
    episode = Episode(world)
    found = _call(
        episode,
        "marketplace__list_orders",
        {"buyer_email": order.buyer_email},
        {"buyer_email": Provenance("given", semantic="email")},
    )
    assert found.result["items"][0]["total"] == order.total
    steps = [found] + [_call(episode, s.tool, s.arguments, s.provenance) for s in walk.steps]
    steps[2] = Step(
        steps[2].tool,
        {**steps[2].arguments, "amount": order.total},
        {
            **{
                k: p if p.step is None else Provenance("step", 1, p.field, p.semantic)
                for k, p in steps[2].provenance.items()
            },
            "amount": Provenance("step", 0, "items[0].total", "money.amount"),
        },
        steps[2].result,
    )
    task, shortcuts = _build(world, synth, Walk(steps, Episode(world)))
    assert validate_task(world, task) is None
    convert = task.solution[2]
    assert convert.tool == "fx__convert"
    assert convert.arguments == {"amount": order.total, "from_currency": order.currency, "to_currency": "USD"}
    assert convert.provenance["from_currency"]["field"] == "items[0].currency"
    # Named where it is found, not as a figure: the agent must see the order's currency for itself.
    assert "amount: the order's total in Bazaarly Marketplace" in task.instruction
    assert all(not shortcut_passes(world, task, s) for s in shortcuts)


def test_a_due_date_in_working_days_skips_weekends_and_public_holidays(world: World, tasks: list[Task]) -> None:
    for task in tasks:
        assert validate_task(world, task) is None, task.id
        (j,) = [i for i, s in enumerate(task.solution) if s.tool == "holidays__add_working_days"]
        lookup, write = task.solution[j], task.solution[j + 1]
        days, start = lookup.arguments["days"], dt.date.fromisoformat(lookup.arguments["date"])
        name = next(n for n, p in write.provenance.items() if p.get("step") == j)
        due = dt.date.fromisoformat(write.arguments[name])
        # Working days: a weekend at least lies between, so the date is later than as many calendar days.
        assert due > start + dt.timedelta(days=days) and due.weekday() < 5
        assert f"{days} working days after" in task.instruction
        assert "public holidays in the United States don't count" in task.instruction
        assert write.arguments[name] not in task.instruction
        # Calendar days instead of working days: the shortcut fails, and its negative fails with it.
        calendar = (start + dt.timedelta(days=days)).isoformat()
        guard = next(c for c in task.criteria if isinstance(c, NotSentCriterion) and calendar in c.fields.values())
        assert not _written(world, task, j + 1, name, calendar)[task.criteria.index(guard)]
        assert not shortcut_passes(world, task, Shortcut("no_conversion", drop=(j,), choice=(j + 1, name, calendar)))
        assert shortcut_passes(world, task, Shortcut("none"))


def test_conversion_is_the_same_for_the_same_seed(world: World, synth: Synthesizer, tasks: list[Task]) -> None:
    again = Synthesizer(world, config=SynthConfig(patterns=("conversion",)))
    twice = [t for _, t, _ in again.tasks(0, 30) if t is not None and "conversion" in t.patterns]
    assert [t.model_dump() for t in twice] == [t.model_dump() for t in tasks]
    first, _ = _build(world, synth, _opportunity_walk(world), seed=3)
    second, _ = _build(world, synth, _opportunity_walk(world), seed=3)
    assert first.model_dump() == second.model_dump()
