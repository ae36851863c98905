"""Pulse Studio: passes cover bookings, waitlists move up, late cancels and no-shows cost, schedule clashes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

FIT = ServiceTools("fitstudio")
WORLD = FIT.world
ok, refused, every, first = FIT.ok, FIT.refused, FIT.every, FIT.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def at(days: int, hour: int) -> str:
    return iso_z(dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC))


def full_class(ep: Episode) -> dict[str, Any]:
    return next(c for c in every(ep, "list_scheduled_classes") if c["waitlisted"])


def open_class(ep: Episode, days_ahead: int = 2) -> dict[str, Any]:
    return next(
        c
        for c in every(ep, "list_scheduled_classes", status="scheduled")
        if c["start_at"] >= at(days_ahead, 0) and c["booked"] < c["capacity"]
    )


def new_client(ep: Episode, name: str = "Robin Fox") -> dict[str, Any]:
    return dict(ok(ep, "create_client", name=name, email=f"{name.split()[0].lower()}@fox.io"))


def test_seeded_teachers_are_staff_clients_are_consumers_and_counts_add_up(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email for p in POP.consumers}
    assert all(t["email"] in staff for t in every(ep, "list_teachers"))
    assert all(c["email"] in consumers for c in every(ep, "list_clients"))
    for c in every(ep, "list_scheduled_classes"):
        visits = every(ep, "list_bookings", class_id=c["id"])
        assert c["booked"] == sum(v["status"] in ("booked", "checked_in") for v in visits)
        assert c["waitlisted"] == sum(v["status"] == "waitlisted" for v in visits)


def test_a_booking_needs_a_pass_and_a_pack_session_is_used(ep: Episode) -> None:
    c = open_class(ep)
    cl = new_client(ep)
    refused(ep, "book_class", "rule_violation", "client_id", class_id=c["id"], client_id=cl["id"])
    p = ok(ep, "sell_pass", client_id=cl["id"], option="pack_5")
    assert (p["sessions_remaining"], p["price"]) == (5, 11000)
    ok(ep, "book_class", class_id=c["id"], client_id=cl["id"])
    assert ok(ep, "get_pass", pass_id=p["id"])["sessions_remaining"] == 4
    refused(ep, "book_class", "conflict", "client_id", class_id=c["id"], client_id=cl["id"])


def test_the_intro_offer_is_for_new_clients_only(ep: Episode) -> None:
    cl = new_client(ep, "Ada Stone")
    ok(ep, "sell_pass", client_id=cl["id"], option="intro_week")
    refused(ep, "sell_pass", "rule_violation", "option", client_id=cl["id"], option="intro_week")
    refused(
        ep, "sell_pass", "rule_violation", "active_from", client_id=cl["id"], option="pack_5", active_from="2020-01-01"
    )


def test_unlimited_passes_allow_one_class_a_day(ep: Episode) -> None:
    cl = new_client(ep, "Lee Park")
    ok(ep, "sell_pass", client_id=cl["id"], option="monthly_unlimited")
    t = first(ep, "class_types", category="yoga")
    teacher = every(ep, "list_teachers")[0]
    a = ok(ep, "schedule_class", class_type_id=t["id"], teacher_id=teacher["id"], room="Studio A", start_at=at(9, 7))
    b = ok(ep, "schedule_class", class_type_id=t["id"], teacher_id=teacher["id"], room="Studio A", start_at=at(9, 12))
    ok(ep, "book_class", class_id=a["id"], client_id=cl["id"])
    refused(ep, "book_class", "rule_violation", "client_id", class_id=b["id"], client_id=cl["id"])


def test_a_full_class_waitlists_and_a_freed_spot_goes_to_the_first_waiting(ep: Episode) -> None:
    c = full_class(ep)
    waiting = sorted(
        every(ep, "list_bookings", class_id=c["id"], status="waitlisted"), key=lambda b: b["waitlist_position"]
    )
    seated = every(ep, "list_bookings", class_id=c["id"], status="booked")[0]
    cl = new_client(ep, "Max Rowe")
    ok(ep, "sell_pass", client_id=cl["id"], option="pack_10")
    mine = ok(ep, "book_class", class_id=c["id"], client_id=cl["id"])
    assert (mine["status"], mine["waitlist_position"]) == ("waitlisted", len(waiting) + 1)
    ok(ep, "cancel_booking", booking_id=seated["id"])
    assert ok(ep, "get_booking", booking_id=waiting[0]["id"])["status"] == "booked"
    assert ok(ep, "get_booking", booking_id=mine["id"])["waitlist_position"] == len(waiting)
    after = ok(ep, "get_scheduled_class", scheduled_class_id=c["id"])
    assert (after["booked"], after["waitlisted"]) == (c["booked"], c["waitlisted"])


def test_a_late_cancel_charges_a_fee_and_keeps_the_session(ep: Episode) -> None:
    soon = next(c for c in every(ep, "list_scheduled_classes") if at(0, 10) <= c["start_at"] < at(0, 21))
    cl = new_client(ep, "Kim Ono")
    p = ok(ep, "sell_pass", client_id=cl["id"], option="pack_5")
    b = ok(ep, "book_class", class_id=soon["id"], client_id=cl["id"])
    out = ok(ep, "cancel_booking", booking_id=b["id"])
    assert (out["status"], out["fee_charged"]) == ("late_cancelled", 1500)
    assert ok(ep, "get_pass", pass_id=p["id"])["sessions_remaining"] == 4
    assert ok(ep, "get_client", client_id=cl["id"])["account_balance"] == 1500
    assert ok(ep, "settle_balance", client_id=cl["id"])["account_balance"] == 0
    refused(ep, "settle_balance", "rule_violation", "client_id", client_id=cl["id"])


def test_an_early_cancel_returns_the_session(ep: Episode) -> None:
    c = open_class(ep, 2)
    cl = new_client(ep, "Jo March")
    p = ok(ep, "sell_pass", client_id=cl["id"], option="pack_5")
    b = ok(ep, "book_class", class_id=c["id"], client_id=cl["id"])
    assert ok(ep, "cancel_booking", booking_id=b["id"])["status"] == "cancelled"
    assert ok(ep, "get_pass", pass_id=p["id"])["sessions_remaining"] == 5
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=b["id"])


def test_check_in_at_class_time_and_no_shows_after_it(ep: Episode) -> None:
    now_class = next(c for c in every(ep, "list_scheduled_classes") if c["start_at"] == at(0, 9))
    b = first(ep, "bookings", class_id=now_class["id"], status="booked")
    assert ok(ep, "check_in", booking_id=b["id"])["status"] == "checked_in"
    later = first(ep, "bookings", class_id=open_class(ep)["id"], status="booked")
    refused(ep, "check_in", "rule_violation", "booking_id", booking_id=later["id"])
    refused(ep, "mark_no_show", "rule_violation", "booking_id", booking_id=later["id"])
    past = next(c for c in every(ep, "list_scheduled_classes") if c["start_at"] < at(0, 0))
    gone = first(ep, "bookings", class_id=past["id"], status="booked")
    out = ok(ep, "mark_no_show", booking_id=gone["id"])
    assert (out["status"], out["fee_charged"]) == ("no_show", 2000)


def test_teacher_and_room_cannot_double_book_and_cancelled_classes_release_bookings(ep: Episode) -> None:
    c = open_class(ep)
    t = first(ep, "class_types", category="hiit")
    other = next(x for x in every(ep, "list_teachers") if x["id"] != c["teacher_id"])
    refused(
        ep,
        "schedule_class",
        "conflict",
        "teacher_id",
        class_type_id=t["id"],
        teacher_id=c["teacher_id"],
        room="Cycle Room" if c["room"] != "Cycle Room" else "Studio A",
        start_at=c["start_at"],
    )
    refused(
        ep,
        "schedule_class",
        "conflict",
        "room",
        class_type_id=t["id"],
        teacher_id=other["id"],
        room=c["room"],
        start_at=c["start_at"],
    )
    visits = every(ep, "list_bookings", class_id=c["id"], status="booked")
    before = {v["pass_id"]: ok(ep, "get_pass", pass_id=v["pass_id"])["sessions_remaining"] for v in visits}
    assert ok(ep, "cancel_class", class_id=c["id"])["status"] == "cancelled"
    for v in visits:
        assert ok(ep, "get_booking", booking_id=v["id"])["status"] == "cancelled"
        left = before[v["pass_id"]]
        assert ok(ep, "get_pass", pass_id=v["pass_id"])["sessions_remaining"] == (None if left is None else left + 1)
