"""Example providers built by the kit find the record a tool should act on, or say there is none."""

from __future__ import annotations

import pytest

from compoworld import Catalog, Episode, World
from compoworld.engine.context import Ctx
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.sales.crm import Lead, Opportunity


@pytest.fixture(scope="module")
def ctx() -> Ctx:
    world = World.build(Catalog.load(["crm"]), seed=0)
    return Ctx(Episode(world), world.catalog.tools["crm__get_lead"], writable=False)


def test_first_example_takes_the_first_matching_record_in_id_order(ctx: Ctx) -> None:
    lead = ctx.first(Lead, status="new")
    assert lead is not None
    provider = first_example(Lead, "lead_id", where={"status": "new"}, reason="duplicate")
    assert provider(ctx) == {"lead_id": lead.id, "reason": "duplicate"}


def test_first_example_applies_its_condition_and_copies_fields(ctx: Ctx) -> None:
    big = [o for o in ctx.scan(Opportunity) if o.amount > 50_000_00]
    assert big, "the seeded world has large deals"
    provider = first_example(
        Opportunity, "opportunity_id", match=lambda _, o: o.amount > 50_000_00, fields={"account_id": "account_id"}
    )
    assert provider(ctx) == {"opportunity_id": big[0].id, "account_id": big[0].account_id}
    assert first_example(Opportunity, None, fields={"name": "name"})(ctx) == {"name": next(ctx.scan(Opportunity)).name}


def test_first_example_gives_none_when_no_record_qualifies(ctx: Ctx) -> None:
    assert first_example(Lead, "lead_id", where={"status": "no-such-status"})(ctx) is None
    assert first_example(Lead, "lead_id", match=lambda _, r: False)(ctx) is None


def test_example_providers_give_fresh_arguments_every_time(ctx: Ctx) -> None:
    for provider in (fixed_example(tags=["a"], limit=5), first_example(Lead, "lead_id", tags=["a"], limit=5)):
        first = provider(ctx)
        assert first is not None and first["tags"] == ["a"] and first["limit"] == 5
        first["tags"].append("b")
        again = provider(ctx)
        assert again is not None and again["tags"] == ["a"]
