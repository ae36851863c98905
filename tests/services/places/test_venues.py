"""Hallmark Venues: lead conversion, tentative and definite holds, room conflicts, BEOs, payment schedules."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VEN = ServiceTools("venues")
WORLD = VEN.world
ok, refused, every, first = VEN.ok, VEN.refused, VEN.every, VEN.first
POP = WORLD.population
MANAGER = POP.employees[0].email
NOW = WORLD.epoch


def when(days: int, hours: int = 4) -> dict[str, str]:
    start = NOW.replace(hour=18, minute=0, second=0, microsecond=0) + dt.timedelta(days=days)
    return {"starts_at": start.isoformat(), "ends_at": (start + dt.timedelta(hours=hours)).isoformat()}


def room(ep: Episode, name: str, venue_id: str) -> dict[str, Any]:
    return next(r for r in every(ep, "list_rooms", venue_id=venue_id) if r["name"] == name)


def prospect(ep: Episode, room_name: str, days: int, guests: int = 20) -> dict[str, Any]:
    lead = ok(
        ep,
        "create_lead",
        contact_name="Maya Ito",
        contact_email=f"maya{days}@ito.io",
        event_description="Team offsite dinner",
        event_date=(NOW.date() + dt.timedelta(days=days)).isoformat(),
        guest_count=guests,
    )
    venue = every(ep, "list_venues")[0]
    made: dict[str, Any] = ok(
        ep,
        "convert_lead",
        lead_id=lead["id"],
        venue_id=venue["id"],
        room_ids=[room(ep, room_name, venue["id"])["id"]],
        owner_email=MANAGER,
        **when(days),
    )
    return made


def test_seeded_leads_and_events_come_from_customer_contacts(ep: Episode) -> None:
    emails = {p.email for p in POP.people}
    companies = {c.name for c in POP.customers}
    for lead in every(ep, "list_leads"):
        assert lead["contact_email"] in emails and lead["company_name"] in companies
    staff = {p.email for p in POP.employees}
    assert all(e["owner_email"] in staff for e in every(ep, "list_events"))
    statuses = {e["status"] for e in every(ep, "list_events")}
    assert statuses == {"prospect", "tentative", "definite", "closed", "lost"}


def test_converting_a_lead_checks_capacity_and_makes_a_prospect(ep: Episode) -> None:
    lead = first(ep, "leads", status="new")
    venue = every(ep, "list_venues")[0]
    small = room(ep, "Boardroom", venue["id"])
    args = {"lead_id": lead["id"], "venue_id": venue["id"], "owner_email": MANAGER, **when(90)}
    refused(ep, "convert_lead", "rule_violation", "guest_count", room_ids=[small["id"]], **args)
    other = next(v for v in every(ep, "list_venues") if v["id"] != venue["id"])
    far = room(ep, "Grand Ballroom", other["id"])
    refused(ep, "convert_lead", "rule_violation", "room_ids", room_ids=[far["id"]], **args)
    refused(
        ep,
        "convert_lead",
        "rule_violation",
        "owner_email",
        room_ids=[small["id"]],
        **(args | {"owner_email": "x@y.io"}),
    )
    big = room(ep, "Grand Ballroom", venue["id"])
    event = ok(ep, "convert_lead", room_ids=[big["id"]], **args)
    assert (event["status"], event["contact_email"], event["lead_id"]) == (
        "prospect",
        lead["contact_email"],
        lead["id"],
    )
    assert ok(ep, "get_lead", lead_id=lead["id"])["status"] == "converted"
    refused(ep, "convert_lead", "conflict", "lead_id", room_ids=[big["id"]], **args)


def test_a_tentative_hold_is_refused_over_a_definite_event(ep: Episode) -> None:
    definite = next(e for e in every(ep, "list_events", status="definite") if e["starts_at"] > NOW.isoformat())
    lead = ok(
        ep,
        "create_lead",
        contact_name="Li Wei",
        contact_email="li@wei.io",
        event_description="Clash",
        event_date=definite["starts_at"][:10],
        guest_count=10,
    )
    clash = ok(
        ep,
        "convert_lead",
        lead_id=lead["id"],
        venue_id=definite["venue_id"],
        room_ids=definite["room_ids"],
        starts_at=definite["starts_at"],
        ends_at=definite["ends_at"],
        owner_email=MANAGER,
    )
    refused(ep, "hold_event", "conflict", "room_ids", event_id=clash["id"])
    free = ok(
        ep,
        "room_availability",
        room_id=definite["room_ids"][0],
        starts_at=definite["starts_at"],
        ends_at=definite["ends_at"],
    )
    assert [e["id"] for e in free] == [definite["id"]]
    later = (dt.datetime.fromisoformat(definite["ends_at"]) + dt.timedelta(hours=1)).isoformat()
    ok(
        ep,
        "update_event",
        event_id=clash["id"],
        starts_at=later,
        ends_at=(dt.datetime.fromisoformat(later) + dt.timedelta(hours=2)).isoformat(),
    )
    assert ok(ep, "hold_event", event_id=clash["id"])["status"] == "tentative"


def test_confirming_needs_the_deposit_and_no_competing_hold(ep: Episode) -> None:
    e = prospect(ep, "Library", 30)
    ok(ep, "hold_event", event_id=e["id"])
    ok(ep, "add_beo_item", event_id=e["id"], category="food", description="Canapés", quantity=20, unit_price_cents=900)
    schedule = ok(ep, "build_payment_schedule", event_id=e["id"])
    refused(ep, "confirm_event", "rule_violation", "event_id", event_id=e["id"])
    deposit, final = schedule
    refused(
        ep,
        "record_payment",
        "rule_violation",
        "instalment_id",
        instalment_id=final["id"],
        amount_cents=final["amount_cents"],
    )
    refused(ep, "record_payment", "rule_violation", "amount_cents", instalment_id=deposit["id"], amount_cents=1)
    ok(ep, "record_payment", instalment_id=deposit["id"], amount_cents=deposit["amount_cents"])
    rival = prospect(ep, "Library", 30, guests=10)
    ok(ep, "hold_event", event_id=rival["id"])
    refused(ep, "confirm_event", "conflict", "room_ids", event_id=e["id"])
    ok(ep, "lose_event", event_id=rival["id"])
    assert ok(ep, "confirm_event", event_id=e["id"])["status"] == "definite"


def test_the_schedule_splits_the_quote_into_deposit_and_final(ep: Episode) -> None:
    e = prospect(ep, "Terrace", 50, guests=40)
    refused(ep, "build_payment_schedule", "rule_violation", "event_id", event_id=e["id"])
    ok(ep, "hold_event", event_id=e["id"])
    ok(ep, "add_beo_item", event_id=e["id"], category="food", description="Buffet", quantity=40, unit_price_cents=5000)
    quote = ok(ep, "event_quote", event_id=e["id"])
    venue = ok(ep, "get_venue", venue_id=e["venue_id"])
    assert quote["items_cents"] == 200000
    assert quote["service_charge_cents"] == round(200000 * venue["service_charge_pct"] / 100)
    dep, fin = ok(ep, "build_payment_schedule", event_id=e["id"])
    assert dep["amount_cents"] == round(quote["total_cents"] * venue["deposit_pct"] / 100)
    assert dep["amount_cents"] + fin["amount_cents"] == quote["total_cents"]
    assert fin["due_on"] == (NOW.date() + dt.timedelta(days=43)).isoformat()
    again = ok(ep, "build_payment_schedule", event_id=e["id"])
    assert {i["status"] for i in every(ep, "list_instalments", event_id=e["id"])} == {"due", "void"}
    ok(ep, "record_payment", instalment_id=again[0]["id"], amount_cents=again[0]["amount_cents"])
    refused(ep, "build_payment_schedule", "conflict", "event_id", event_id=e["id"])


def test_changing_an_approved_beo_makes_a_new_draft_version(ep: Episode) -> None:
    beo = first(ep, "beos", status="draft")
    approved = ok(ep, "approve_beo", beo_id=beo["id"])
    refused(ep, "approve_beo", "conflict", "beo_id", beo_id=beo["id"])
    revised = ok(
        ep,
        "add_beo_item",
        event_id=beo["event_id"],
        category="av",
        description="Microphone",
        quantity=2,
        unit_price_cents=5000,
    )
    assert (revised["status"], revised["version"]) == ("draft", approved["version"] + 1)
    assert len(revised["items"]) == len(beo["items"]) + 1
    lost = first(ep, "events", status="lost")
    refused(
        ep,
        "add_beo_item",
        "rule_violation",
        "event_id",
        event_id=lost["id"],
        category="food",
        description="Late order",
        quantity=1,
        unit_price_cents=100,
    )


def test_cancelling_a_definite_event_voids_what_is_due_and_keeps_the_deposit(ep: Episode) -> None:
    e = next(x for x in every(ep, "list_events", status="definite") if x["starts_at"] > NOW.isoformat())
    gone = ok(ep, "cancel_event", event_id=e["id"])
    assert gone["status"] == "cancelled"
    kinds = {i["kind"]: i["status"] for i in every(ep, "list_instalments", event_id=e["id"])}
    assert kinds == {"deposit": "paid", "final": "void"}
    refused(ep, "update_event", "rule_violation", "event_id", event_id=e["id"], guest_count=10)
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=first(ep, "events", status="tentative")["id"])


def test_an_event_closes_after_it_ends_and_is_paid_in_full(ep: Episode) -> None:
    ended = next(x for x in every(ep, "list_events", status="definite") if x["ends_at"] <= NOW.isoformat())
    upcoming = next(x for x in every(ep, "list_events", status="definite") if x["starts_at"] > NOW.isoformat())
    refused(ep, "close_event", "rule_violation", "event_id", event_id=upcoming["id"])
    quote = ok(ep, "event_quote", event_id=ended["id"])
    assert quote["paid_cents"] == quote["total_cents"]
    assert ok(ep, "close_event", event_id=ended["id"])["status"] == "closed"
    refused(ep, "lose_lead", "rule_violation", "reason", lead_id=first(ep, "leads", status="new")["id"], reason=" ")
    assert ok(ep, "lose_lead", lead_id=first(ep, "leads", status="new")["id"], reason="Too small")["status"] == "lost"
