"""Vowline: event setup with a checklist, vendors within budget, payments, RSVPs under the cap, seating."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WED = ServiceTools("weddings")
WORLD = WED.world
ok, refused, every, first = WED.ok, WED.refused, WED.every, WED.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
PLANNER = POP.employees[0].email
VENDOR = POP.contacts[5]


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def soonest(ep: Episode) -> dict[str, Any]:
    return min(every(ep, "list_events", status="planning"), key=lambda e: e["event_date"])


def vendor(ep: Episode, event_id: str, category: str) -> dict[str, Any]:
    return first(ep, "vendor_bookings", event_id=event_id, category=category)


def test_seeded_events_have_staff_planners_and_vendors_from_contacts(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    contacts = {p.email: p.name for p in POP.contacts}
    for e in every(ep, "list_events"):
        assert e["planner_email"] in staff
        for v in every(ep, "list_vendor_bookings", event_id=e["id"]):
            assert contacts[v["contact_email"]] == v["contact_name"]
            paid = sum(p["amount"] for p in every(ep, "list_payments", vendor_booking_id=v["id"]))
            assert paid == v["paid"]


def test_a_new_event_gets_the_checklist_timed_from_its_date(ep: Episode) -> None:
    base = {"couple_names": "Ava & Noah", "client_email": "ava@home.io", "budget_total": 3_000_000, "guest_cap": 80}
    refused(ep, "create_event", "rule_violation", "event_date", event_date=day(0), planner_email=PLANNER, **base)
    refused(ep, "create_event", "rule_violation", "planner_email", event_date=day(400), planner_email="p@x.io", **base)
    ev = ok(ep, "create_event", event_date=day(400), planner_email=PLANNER, **base)
    tasks = every(ep, "list_tasks", event_id=ev["id"])
    assert len(tasks) == 6
    assert {t["due_date"] for t in tasks} >= {day(400 - 330), day(400 - 14)}


def test_exclusive_vendor_categories_are_booked_once(ep: Episode) -> None:
    ev = soonest(ep)
    args = {
        "event_id": ev["id"],
        "company": "Other Co",
        "contact_name": VENDOR.name,
        "contact_email": VENDOR.email,
        "amount": 1000,
    }
    refused(ep, "book_vendor", "conflict", "category", category="venue", **args)
    assert ok(ep, "book_vendor", category="florist", **args)["status"] == "proposed"
    ok(ep, "cancel_vendor", vendor_booking_id=vendor(ep, ev["id"], "dj")["id"])


def test_contracts_may_not_exceed_the_budget(ep: Episode) -> None:
    ev = soonest(ep)
    budget = ok(ep, "budget_summary", event_id=ev["id"])
    big = ok(
        ep,
        "book_vendor",
        event_id=ev["id"],
        category="planner_fee",
        company="Vowline",
        contact_name=VENDOR.name,
        contact_email=VENDOR.email,
        amount=budget["remaining"] + 1,
    )
    refused(ep, "sign_vendor_contract", "rule_violation", "vendor_booking_id", vendor_booking_id=big["id"])
    refused(
        ep, "update_event", "rule_violation", "budget_total", event_id=ev["id"], budget_total=budget["contracted"] - 1
    )
    ok(ep, "update_event", event_id=ev["id"], budget_total=ev["budget_total"] + 1)
    signed = ok(ep, "sign_vendor_contract", vendor_booking_id=big["id"])
    assert signed["status"] == "contracted" and signed["signed_at"]
    assert ok(ep, "budget_summary", event_id=ev["id"])["remaining"] == 0


def test_payments_go_to_contracted_vendors_up_to_the_contract(ep: Episode) -> None:
    ev = soonest(ep)
    venue = vendor(ep, ev["id"], "venue")
    florist = vendor(ep, ev["id"], "florist")
    refused(ep, "pay_vendor", "rule_violation", "vendor_booking_id", vendor_booking_id=florist["id"], amount=100)
    left = venue["amount"] - venue["paid"]
    refused(ep, "pay_vendor", "rule_violation", "amount", vendor_booking_id=venue["id"], amount=left + 1)
    ok(ep, "pay_vendor", vendor_booking_id=venue["id"], amount=left, note="Final payment")
    assert ok(ep, "get_vendor_booking", vendor_booking_id=venue["id"])["paid"] == venue["amount"]
    refused(ep, "cancel_vendor", "rule_violation", "vendor_booking_id", vendor_booking_id=venue["id"])


def test_signing_the_venue_sets_the_events_venue(ep: Episode) -> None:
    ev = next(e for e in every(ep, "list_events", status="planning") if e["venue_name"] is None)
    v = ok(
        ep,
        "book_vendor",
        event_id=ev["id"],
        category="venue",
        company="Lakeside Barn",
        contact_name=VENDOR.name,
        contact_email=VENDOR.email,
        amount=900_000,
    )
    ok(ep, "sign_vendor_contract", vendor_booking_id=v["id"])
    assert ok(ep, "get_event", event_id=ev["id"])["venue_name"] == "Lakeside Barn"


def test_rsvps_need_a_meal_and_stay_under_the_guest_cap(ep: Episode) -> None:
    ev = soonest(ep)
    pending = first(ep, "guests", event_id=ev["id"], rsvp="pending")
    refused(ep, "record_rsvp", "rule_violation", "meal", guest_id=pending["id"], rsvp="accepted")
    ok(ep, "record_rsvp", guest_id=pending["id"], rsvp="accepted", meal="vegetarian")
    seats = sum(g["party_size"] for g in every(ep, "list_guests", event_id=ev["id"], rsvp="accepted"))
    big = ok(
        ep,
        "add_guest",
        event_id=ev["id"],
        name="Big Family",
        email="big@fam.io",
        party_size=ev["guest_cap"] - seats + 1,
    )
    refused(ep, "record_rsvp", "rule_violation", "guest_id", guest_id=big["id"], rsvp="accepted", meal="beef")
    refused(ep, "add_guest", "conflict", "email", event_id=ev["id"], name="Again", email="big@fam.io")


def test_only_accepted_parties_are_seated_where_they_fit(ep: Episode) -> None:
    ev = soonest(ep)
    declined = first(ep, "guests", event_id=ev["id"], rsvp="declined")
    table = ok(ep, "add_table", event_id=ev["id"], name="Table 9", capacity=2)
    refused(ep, "add_table", "conflict", "name", event_id=ev["id"], name="Table 9", capacity=4)
    refused(ep, "seat_guest", "rule_violation", "guest_id", guest_id=declined["id"], table_id=table["id"])
    accepted = [g for g in every(ep, "list_guests", event_id=ev["id"], rsvp="accepted") if g["table_id"] is None]
    ok(ep, "seat_guest", guest_id=accepted[0]["id"], table_id=table["id"])
    pair = ok(ep, "add_guest", event_id=ev["id"], name="Two Of Us", email="two@us.io", party_size=2)
    ok(ep, "record_rsvp", guest_id=pair["id"], rsvp="accepted", meal="fish")
    refused(ep, "seat_guest", "conflict", "table_id", guest_id=pair["id"], table_id=table["id"])
    out = ok(ep, "record_rsvp", guest_id=accepted[0]["id"], rsvp="declined")
    assert (out["table_id"], out["meal"]) == (None, None)


def test_a_completed_event_is_frozen(ep: Episode) -> None:
    done = first(ep, "events", status="completed")
    refused(ep, "add_guest", "rule_violation", "event_id", event_id=done["id"], name="Late", email="late@x.io")
    refused(ep, "add_table", "rule_violation", "event_id", event_id=done["id"], name="T", capacity=4)
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=done["id"])
