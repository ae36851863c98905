"""Chairside: booking rules, deposits, late cancels and no-shows, checkout with discounts, memberships, classes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

SALON = ServiceTools("salon")
WORLD = SALON.world
ok, refused, every, first = SALON.ok, SALON.refused, SALON.every, SALON.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def at(days: int, hour: int, minute: int = 0) -> str:
    return iso_z(dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour, minute), tzinfo=dt.UTC))


def service_of(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "menu_services", query=name)


def client(ep: Episode, *, card: bool) -> dict[str, Any]:
    members = {m["client_id"] for m in every(ep, "list_memberships")}
    return next(c for c in every(ep, "list_clients", card_on_file=card) if c["id"] not in members)


def test_seeded_staff_are_employees_and_clients_are_consumers(ep: Episode) -> None:
    staff = {p.email: p.name for p in POP.employees}
    consumers = {p.email: p.name for p in POP.consumers}
    for s in every(ep, "list_staff_members"):
        assert staff[s["email"]] == s["name"]
    for c in every(ep, "list_clients"):
        assert consumers[c["email"]] == c["name"]
    for a in every(ep, "list_appointments"):
        svc = ok(ep, "get_menu_service", menu_service_id=a["menu_service_id"])
        assert ok(ep, "get_staff", staff_id=a["staff_id"])["role"] == svc["role"]


def test_a_booking_needs_a_qualified_free_staff_member_inside_opening_hours(ep: Episode) -> None:
    cut = service_of(ep, "Women's Haircut")
    stylist = first(ep, "staff_members", role="stylist")
    colorist = first(ep, "staff_members", role="colorist")
    base = {"client_id": client(ep, card=True)["id"], "menu_service_id": cut["id"]}
    refused(ep, "book_appointment", "rule_violation", "staff_id", staff_id=colorist["id"], start_at=at(30, 10), **base)
    refused(
        ep, "book_appointment", "rule_violation", "start_at", staff_id=stylist["id"], start_at=at(30, 18, 30), **base
    )
    refused(ep, "book_appointment", "rule_violation", "start_at", staff_id=stylist["id"], start_at=at(-1, 10), **base)
    made = ok(ep, "book_appointment", staff_id=stylist["id"], start_at=at(30, 10), **base)
    assert made["end_at"] == at(30, 11) and made["location_id"] == stylist["location_id"]
    refused(ep, "book_appointment", "conflict", "start_at", staff_id=stylist["id"], start_at=at(30, 10, 30), **base)


def test_a_deposit_needs_a_card_and_is_collected_at_booking(ep: Episode) -> None:
    color = service_of(ep, "Full Highlights")
    colorist = first(ep, "staff_members", role="colorist")
    args = {"staff_id": colorist["id"], "menu_service_id": color["id"], "start_at": at(31, 9)}
    refused(ep, "book_appointment", "rule_violation", "client_id", client_id=client(ep, card=False)["id"], **args)
    made = ok(ep, "book_appointment", client_id=client(ep, card=True)["id"], **args)
    assert made["deposit_collected"] == color["deposit"] > 0


def test_a_late_cancel_keeps_the_deposit_and_an_early_one_does_not(ep: Episode) -> None:
    facial = service_of(ep, "Signature Facial")
    who = first(ep, "staff_members", role="esthetician")
    cl = client(ep, card=True)["id"]
    base = {"client_id": cl, "staff_id": who["id"], "menu_service_id": facial["id"]}
    soon = ok(ep, "book_appointment", start_at=(NOW + dt.timedelta(hours=3)).isoformat(), **base)
    later = ok(ep, "book_appointment", start_at=at(20, 12), **base)
    assert ok(ep, "cancel_appointment", appointment_id=soon["id"])["fee_charged"] == facial["deposit"]
    assert ok(ep, "cancel_appointment", appointment_id=later["id"])["fee_charged"] == 0
    refused(ep, "cancel_appointment", "rule_violation", "appointment_id", appointment_id=later["id"])


def test_a_no_show_charges_the_fee_and_counts_against_the_client(ep: Episode) -> None:
    missed = next(a for a in every(ep, "list_appointments", status="confirmed") if a["start_at"] < iso_z(NOW))
    before = ok(ep, "get_client", client_id=missed["client_id"])
    fee = ok(ep, "get_location", location_id=missed["location_id"])["no_show_fee"] if before["card_on_file"] else 0
    done = ok(ep, "mark_no_show", appointment_id=missed["id"])
    assert done["fee_charged"] == missed["deposit_collected"] + fee
    assert ok(ep, "get_client", client_id=missed["client_id"])["no_shows"] == before["no_shows"] + 1
    ahead = next(a for a in every(ep, "list_appointments", status="booked") if a["start_at"] > iso_z(NOW))
    refused(ep, "mark_no_show", "rule_violation", "appointment_id", appointment_id=ahead["id"])


def test_checkout_applies_the_membership_discount_and_the_deposit(ep: Episode) -> None:
    member = first(ep, "memberships", status="active", plan="premium")
    cut = service_of(ep, "Women's Haircut")
    stylist = first(ep, "staff_members", role="stylist")
    a = ok(
        ep,
        "book_appointment",
        client_id=member["client_id"],
        staff_id=stylist["id"],
        menu_service_id=cut["id"],
        start_at=at(12, 15),
    )
    refused(ep, "complete_appointment", "rule_violation", "appointment_id", appointment_id=a["id"])
    ok(ep, "arrive_appointment", appointment_id=a["id"])
    done = ok(ep, "complete_appointment", appointment_id=a["id"])
    assert done["amount_charged"] == round(cut["price"] * 0.8)


def test_one_live_membership_per_client_with_a_card(ep: Episode) -> None:
    paused = first(ep, "memberships", status="paused")
    refused(ep, "sell_membership", "conflict", "client_id", client_id=paused["client_id"], plan="premium")
    refused(
        ep, "sell_membership", "rule_violation", "client_id", client_id=client(ep, card=False)["id"], plan="essential"
    )
    made = ok(ep, "sell_membership", client_id=client(ep, card=True)["id"], plan="premium")
    assert (made["credits"], made["discount_pct"], made["status"]) == (10, 20.0, "active")
    ok(ep, "cancel_membership", membership_id=made["id"])
    refused(ep, "resume_membership", "rule_violation", "membership_id", membership_id=made["id"])


def test_class_bookings_use_credits_respect_capacity_and_return_credits_only_when_early(ep: Episode) -> None:
    full = first(ep, "class_sessions", name="Pilates Mat")
    yoga = first(ep, "class_sessions", name="Morning Yoga")
    tonight = first(ep, "class_sessions", name="Sound Bath")
    taken = {b["client_id"] for c in (yoga, tonight) for b in every(ep, "list_class_bookings", class_id=c["id"])}
    member = next(m for m in every(ep, "list_memberships", status="active") if m["client_id"] not in taken)
    assert member["credits"] >= 2
    refused(ep, "book_class", "rule_violation", "class_id", class_id=full["id"], client_id=member["client_id"])
    b = ok(ep, "book_class", class_id=yoga["id"], client_id=member["client_id"])
    assert b["paid_with"] == "credit"
    assert ok(ep, "get_membership", membership_id=member["id"])["credits"] == member["credits"] - 1
    refused(ep, "book_class", "conflict", "client_id", class_id=yoga["id"], client_id=member["client_id"])
    assert ok(ep, "cancel_class_booking", class_booking_id=b["id"])["status"] == "cancelled"
    assert ok(ep, "get_membership", membership_id=member["id"])["credits"] == member["credits"]
    late = ok(ep, "book_class", class_id=tonight["id"], client_id=member["client_id"])
    assert ok(ep, "cancel_class_booking", class_booking_id=late["id"])["status"] == "late_cancelled"
    assert ok(ep, "get_membership", membership_id=member["id"])["credits"] == member["credits"] - 1
    drop_in = ok(ep, "book_class", class_id=yoga["id"], client_id=client(ep, card=False)["id"])
    assert drop_in["paid_with"] == "drop_in"


def test_staff_with_upcoming_appointments_cannot_be_deactivated(ep: Episode) -> None:
    a = next(a for a in every(ep, "list_appointments", status="booked") if a["start_at"] > iso_z(NOW))
    refused(ep, "update_staff", "rule_violation", "active", staff_id=a["staff_id"], active=False)
    ok(ep, "cancel_appointment", appointment_id=a["id"])
    rest = [x for x in every(ep, "list_appointments", staff_id=a["staff_id"]) if x["status"] in ("booked", "confirmed")]
    for x in rest:
        if x["start_at"] > iso_z(NOW):
            ok(ep, "cancel_appointment", appointment_id=x["id"])
    assert ok(ep, "update_staff", staff_id=a["staff_id"], active=False)["active"] is False
