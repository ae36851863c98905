"""Hearthstone Realty CRM: deal-driven stages, deal sides and pipeline, showings, action plans, trash."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

REALTY = ServiceTools("realtycrm")
WORLD = REALTY.world
ok, refused, every, first = REALTY.ok, REALTY.refused, REALTY.every, REALTY.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def agent(ep: Episode, active: bool = True) -> dict[str, Any]:
    return first(ep, "agents", role="agent", active=active)


def person(ep: Episode, **filters: Any) -> dict[str, Any]:
    return first(ep, "people", **filters)


def for_sale(ep: Episode) -> dict[str, Any]:
    busy = {d["property_id"] for d in every(ep, "list_deals") if d["stage"] in ("offer", "under_contract")}
    return next(p for p in every(ep, "list_properties", status="active") if p["id"] not in busy)


def deal_args(ep: Episode, **kw: Any) -> dict[str, Any]:
    args = {
        "person_id": person(ep, kind="buyer", stage="prospect")["id"],
        "property_id": for_sale(ep)["id"],
        "agent_id": agent(ep)["id"],
        "side": "buyer",
        "price": 45_000_000,
        "commission_percent": 2.5,
    }
    return args | kw


def test_the_brokerage_is_the_home_company_and_stages_follow_the_deals(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    assert all(a["email"] in staff for a in every(ep, "list_agents"))
    consumers = {p.email: p for p in POP.consumers}
    assert all(consumers[p["email"]].last_name == p["last_name"] for p in every(ep, "list_people"))
    for d in every(ep, "list_deals"):
        client = next(p for p in every(ep, "list_people") if p["id"] == d["person_id"])
        prop = next(p for p in every(ep, "list_properties") if p["id"] == d["property_id"])
        if d["stage"] == "under_contract":
            assert (client["stage"], prop["status"]) == ("under_contract", "pending")
        if d["stage"] == "closed":
            assert prop["status"] == "sold" and d["commission"] == int(d["price"] * d["commission_percent"] / 100)


def test_deal_stages_cannot_be_set_by_hand_and_agents_must_be_active(ep: Episode) -> None:
    lead = person(ep, stage="lead")
    refused(ep, "update_person", "rule_violation", "stage", person_id=lead["id"], stage="under_contract")
    refused(
        ep,
        "update_person",
        "rule_violation",
        "assigned_agent_id",
        person_id=lead["id"],
        assigned_agent_id=agent(ep, active=False)["id"],
    )
    moved = ok(ep, "update_person", person_id=lead["id"], stage="prospect", assigned_agent_id=agent(ep)["id"])
    assert (moved["stage"], moved["assigned_agent_id"]) == ("prospect", agent(ep)["id"])
    refused(
        ep,
        "create_person",
        "rule_violation",
        "price_min",
        first_name="Ana",
        last_name="Ruiz",
        email="ana.ruiz@example.org",
        kind="buyer",
        price_min=50_000_000,
        price_max=40_000_000,
    )
    refused(
        ep, "create_person", "conflict", "email", first_name="Ana", last_name="Ruiz", email=lead["email"], kind="buyer"
    )


def test_a_deal_needs_the_right_client_a_property_for_sale_and_one_live_deal_per_side(ep: Episode) -> None:
    refused(
        ep, "create_deal", "rule_violation", "person_id", **deal_args(ep, person_id=person(ep, stage="trash")["id"])
    )
    seller = person(ep, kind="seller", stage="active_client")
    refused(ep, "create_deal", "rule_violation", "side", **deal_args(ep, person_id=seller["id"]))
    pending = first(ep, "properties", status="pending")
    refused(ep, "create_deal", "rule_violation", "property_id", **deal_args(ep, property_id=pending["id"]))
    refused(ep, "create_deal", "rule_violation", "commission_percent", **deal_args(ep, commission_percent=12.0))
    offered = first(ep, "deals", stage="offer", side="buyer")
    refused(ep, "create_deal", "conflict", "property_id", **deal_args(ep, property_id=offered["property_id"]))
    args = deal_args(ep)
    deal = ok(ep, "create_deal", **args)
    assert (deal["stage"], deal["commission"]) == ("offer", 0)
    assert (
        person(ep, email=next(p["email"] for p in every(ep, "list_people") if p["id"] == args["person_id"]))["stage"]
        == "active_client"
    )


def test_a_deal_goes_offer_under_contract_closed_and_carries_the_property_and_client(ep: Episode) -> None:
    deal = ok(ep, "create_deal", **deal_args(ep, price=40_000_000, commission_percent=3.0))
    refused(ep, "advance_deal", "rule_violation", "stage", deal_id=deal["id"], stage="closed")
    ok(ep, "advance_deal", deal_id=deal["id"], stage="under_contract")
    prop = next(p for p in every(ep, "list_properties") if p["id"] == deal["property_id"])
    client = next(p for p in every(ep, "list_people") if p["id"] == deal["person_id"])
    assert (prop["status"], client["stage"]) == ("pending", "under_contract")
    closed = ok(ep, "advance_deal", deal_id=deal["id"], stage="closed")
    assert (closed["commission"], closed["close_date"]) == (1_200_000, TODAY.isoformat())
    assert first(ep, "properties", mls_number=prop["mls_number"])["status"] == "sold"
    assert person(ep, email=client["email"])["stage"] == "closed"
    refused(ep, "advance_deal", "rule_violation", "stage", deal_id=deal["id"], stage="fell_through")


def test_a_deal_that_falls_through_puts_the_home_back_on_the_market(ep: Episode) -> None:
    deal = first(ep, "deals", stage="under_contract")
    done = ok(ep, "advance_deal", deal_id=deal["id"], stage="fell_through")
    assert done["stage"] == "fell_through"
    prop = next(p for p in every(ep, "list_properties") if p["id"] == deal["property_id"])
    client = next(p for p in every(ep, "list_people") if p["id"] == deal["person_id"])
    assert (prop["status"], client["stage"]) == ("active", "active_client")


def test_showings_need_a_home_for_sale_a_future_slot_and_a_free_agent(ep: Episode) -> None:
    booked = every(ep, "list_appointments", outcome="scheduled")[0]
    buyer = person(ep, kind="buyer", stage="active_client")
    args = {"person_id": buyer["id"], "property_id": for_sale(ep)["id"], "agent_id": booked["agent_id"]}
    refused(ep, "schedule_showing", "conflict", "starts_at", starts_at=booked["starts_at"], **args)
    refused(
        ep,
        "schedule_showing",
        "rule_violation",
        "starts_at",
        starts_at=(NOW - dt.timedelta(hours=1)).isoformat(),
        **args,
    )
    pending = first(ep, "properties", status="pending")
    refused(
        ep,
        "schedule_showing",
        "rule_violation",
        "property_id",
        starts_at=booked["ends_at"],
        **(args | {"property_id": pending["id"]}),
    )
    refused(
        ep,
        "schedule_showing",
        "rule_violation",
        "person_id",
        starts_at=booked["ends_at"],
        **(args | {"person_id": person(ep, stage="trash")["id"]}),
    )
    made = ok(ep, "schedule_showing", starts_at=booked["ends_at"], minutes=60, **args)
    assert made["title"].startswith("Showing: ") and made["outcome"] == "scheduled"


def test_an_action_plan_creates_its_tasks_once_until_paused(ep: Episode) -> None:
    plan = next(p for p in every(ep, "list_action_plans") if p["name"].startswith("Seller"))
    client = person(ep, kind="seller", stage="prospect")
    applied = ok(ep, "apply_action_plan", person_id=client["id"], plan_id=plan["id"])
    due = [t["due_date"] for t in applied["tasks"]]
    assert due == [(TODAY + dt.timedelta(days=s["day"])).isoformat() for s in plan["steps"]]
    assert {t["agent_id"] for t in applied["tasks"]} == {client["assigned_agent_id"]}
    refused(ep, "apply_action_plan", "conflict", "plan_id", person_id=client["id"], plan_id=plan["id"])
    ok(ep, "pause_enrollment", enrollment_id=applied["enrollment"]["id"])
    again = ok(ep, "apply_action_plan", person_id=client["id"], plan_id=plan["id"])
    assert again["enrollment"]["status"] == "running"
    nobody = next(p for p in every(ep, "list_people") if p["assigned_agent_id"] is None and p["stage"] != "trash")
    refused(ep, "apply_action_plan", "rule_violation", "person_id", person_id=nobody["id"], plan_id=plan["id"])
    done = ok(ep, "complete_task", task_id=applied["tasks"][0]["id"])
    assert done["completed"] is True


def test_trashing_a_person_pauses_their_running_plans(ep: Episode) -> None:
    run = first(ep, "enrollments", status="running")
    ok(ep, "update_person", person_id=run["person_id"], stage="trash")
    assert every(ep, "list_enrollments", person_id=run["person_id"], status="running") == []
    refused(ep, "apply_action_plan", "rule_violation", "person_id", person_id=run["person_id"], plan_id=run["plan_id"])
