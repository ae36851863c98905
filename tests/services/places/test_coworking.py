"""Hivebase Coworking: memberships on plans, room bookings with credits, day passes, check-ins, invoices."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from compoworld import Episode
from tests.services.helpers import ServiceTools

COWORK = ServiceTools("coworking")
WORLD = COWORK.world
ok, refused, every, first = COWORK.ok, COWORK.refused, COWORK.every, COWORK.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def slot(ep: Episode, room: dict[str, Any], days: int, hour: int, hours: float = 1) -> dict[str, str]:
    loc = ok(ep, "get_location", location_id=room["location_id"])
    tz = ZoneInfo(loc["timezone"])
    day = (WORLD.epoch + dt.timedelta(days=days)).astimezone(tz).date()
    start = dt.datetime.combine(day, dt.time(hour), tzinfo=tz)
    end = start + dt.timedelta(hours=hours)
    return {"starts_at": start.astimezone(dt.UTC).isoformat(), "ends_at": end.astimezone(dt.UTC).isoformat()}


def freelancer(ep: Episode) -> dict[str, Any]:
    return next(m for m in every(ep, "list_members", status="active") if m["company_id"] is None)


def member_with_room(ep: Episode, kind: str = "meeting_room") -> tuple[dict[str, Any], dict[str, Any]]:
    m = freelancer(ep)
    rooms = every(ep, "list_resources", location_id=m["location_id"], kind=kind)
    return m, max(rooms, key=lambda r: r["credits_per_hour"])


def test_seeded_members_come_from_the_population_and_companies_pay_for_their_people(ep: Episode) -> None:
    emails = {p.email for p in POP.people}
    members = every(ep, "list_members")
    assert {m["status"] for m in members} == {"active", "paused", "cancelled"}
    for m in members:
        assert m["email"] in emails
        plan = ok(ep, "get_plan", plan_id=m["plan_id"])
        assert plan["location_id"] == m["location_id"]
    for inv in every(ep, "list_invoices"):
        m = ok(ep, "get_member", member_id=inv["member_id"])
        if m["company_id"]:
            assert inv["bill_to_email"] == ok(ep, "get_company", company_id=m["company_id"])["billing_email"]
        else:
            assert inv["bill_to_email"] == m["email"]


def test_joining_needs_an_open_plan_a_new_email_and_a_company_at_the_same_location(ep: Episode) -> None:
    plan = first(ep, "plans", active=True, desk_type="hot_desk")
    taken = first(ep, "members")["email"]
    refused(ep, "join", "conflict", "email", full_name="Ana Lima", email=taken, plan_id=plan["id"])
    closed = first(ep, "plans", active=False)
    refused(ep, "join", "rule_violation", "plan_id", full_name="Ana Lima", email="ana@lima.io", plan_id=closed["id"])
    far = next(c for c in every(ep, "list_companies") if c["location_id"] != plan["location_id"])
    args = {"full_name": "Ana Lima", "email": "ana@lima.io", "plan_id": plan["id"]}
    refused(ep, "join", "rule_violation", "company_id", company_id=far["id"], **args)
    made = ok(ep, "join", **args)
    assert (made["status"], made["credit_balance"], made["location_id"]) == (
        "active",
        plan["monthly_credits"],
        plan["location_id"],
    )


def test_a_booking_spends_credits_first_and_charges_the_rest(ep: Episode) -> None:
    m, room = member_with_room(ep)
    hours = m["credit_balance"] // room["credits_per_hour"] + 2
    b = ok(ep, "book_room", resource_id=room["id"], member_id=m["id"], **slot(ep, room, 5, 9, hours))
    used = (m["credit_balance"] // room["credits_per_hour"]) * room["credits_per_hour"]
    assert b["credits_used"] == m["credit_balance"] >= used
    assert b["charge_cents"] > 0
    assert ok(ep, "get_member", member_id=m["id"])["credit_balance"] == 0


def test_a_room_is_never_double_booked_nor_booked_outside_hours_or_capacity(ep: Episode) -> None:
    m, room = member_with_room(ep)
    args = {"resource_id": room["id"], "member_id": m["id"]}
    ok(ep, "book_room", **args, **slot(ep, room, 6, 10, 2))
    refused(ep, "book_room", "conflict", "starts_at", **args, **slot(ep, room, 6, 11, 1))
    refused(ep, "book_room", "rule_violation", "starts_at", **args, **slot(ep, room, 6, 5, 1))
    refused(ep, "book_room", "rule_violation", "starts_at", **args, **slot(ep, room, -1, 10, 1))
    refused(ep, "book_room", "rule_violation", "ends_at", **args, **slot(ep, room, 7, 9, 9))
    refused(
        ep, "book_room", "rule_violation", "attendees", attendees=room["capacity"] + 1, **args, **slot(ep, room, 7, 9)
    )
    other = next(r for r in every(ep, "list_resources") if r["location_id"] != m["location_id"])
    refused(
        ep,
        "book_room",
        "rule_violation",
        "resource_id",
        resource_id=other["id"],
        member_id=m["id"],
        **slot(ep, other, 7, 10),
    )
    paused = first(ep, "members", status="paused")
    refused(
        ep,
        "book_room",
        "rule_violation",
        "member_id",
        resource_id=room["id"],
        member_id=paused["id"],
        **slot(ep, room, 7, 10),
    )


def test_cancelling_a_day_ahead_returns_credits_but_late_cancellation_does_not(ep: Episode) -> None:
    m, room = member_with_room(ep)
    args = {"resource_id": room["id"], "member_id": m["id"]}
    early = ok(ep, "book_room", **args, **slot(ep, room, 4, 9))
    before = ok(ep, "get_member", member_id=m["id"])["credit_balance"]
    cancelled = ok(ep, "cancel_booking", booking_id=early["id"])
    assert (cancelled["status"], cancelled["credits_used"]) == ("cancelled", 0)
    assert ok(ep, "get_member", member_id=m["id"])["credit_balance"] == before + early["credits_used"]
    refused(ep, "cancel_booking", "conflict", "booking_id", booking_id=early["id"])
    start = (WORLD.epoch + dt.timedelta(hours=3)).replace(minute=0, second=0, microsecond=0)
    soon = {"starts_at": start.isoformat(), "ends_at": (start + dt.timedelta(hours=1)).isoformat()}
    late = ep.call("coworking__book_room", args | soon)
    if late.ok:
        balance = ok(ep, "get_member", member_id=m["id"])["credit_balance"]
        assert ok(ep, "cancel_booking", booking_id=late.result["id"])["credits_used"] == late.result["credits_used"]
        assert ok(ep, "get_member", member_id=m["id"])["credit_balance"] == balance


def test_day_passes_are_limited_per_day_and_admit_only_on_their_day(ep: Episode) -> None:
    loc = min(every(ep, "list_locations"), key=lambda x: x["day_pass_limit"])
    day = (TODAY + dt.timedelta(days=10)).isoformat()
    for k in range(loc["day_pass_limit"]):
        ok(ep, "sell_day_pass", location_id=loc["id"], guest_name=f"Guest {k}", guest_email=f"g{k}@x.io", valid_on=day)
    refused(
        ep,
        "sell_day_pass",
        "rule_violation",
        "valid_on",
        location_id=loc["id"],
        guest_name="Late",
        guest_email="late@x.io",
        valid_on=day,
    )
    future = every(ep, "list_day_passes", location_id=loc["id"], valid_on=day)[0]
    refused(ep, "check_in", "rule_violation", "day_pass_id", location_id=loc["id"], day_pass_id=future["id"])
    p = ok(
        ep, "sell_day_pass", location_id=loc["id"], guest_name="Now", guest_email="now@x.io", valid_on=TODAY.isoformat()
    )
    visit = ok(ep, "check_in", location_id=loc["id"], day_pass_id=p["id"])
    assert visit["day_pass_id"] == p["id"]
    assert ok(ep, "get_day_pass", day_pass_id=p["id"])["status"] == "used"
    refused(ep, "check_in", "rule_violation", "day_pass_id", location_id=loc["id"], day_pass_id=p["id"])


def test_members_check_in_once_and_only_where_their_plan_allows(ep: Episode) -> None:
    inside = next(c for c in every(ep, "list_checkins") if c["checked_out_at"] is None)
    refused(ep, "check_in", "conflict", "member_id", location_id=inside["location_id"], member_id=inside["member_id"])
    ok(ep, "check_out", checkin_id=inside["id"])
    refused(ep, "check_out", "conflict", "checkin_id", checkin_id=inside["id"])
    again = ok(ep, "check_in", location_id=inside["location_id"], member_id=inside["member_id"])
    assert again["checked_out_at"] is None
    m = freelancer(ep)
    plan = ok(ep, "get_plan", plan_id=m["plan_id"])
    assert not plan["multi_location"]
    other = next(loc for loc in every(ep, "list_locations") if loc["id"] != m["location_id"])
    refused(ep, "check_in", "rule_violation", "location_id", location_id=other["id"], member_id=m["id"])
    refused(ep, "check_in", "rule_violation", "member_id", location_id=other["id"])


def test_monthly_invoice_bills_plan_and_booking_charges_once(ep: Episode) -> None:
    m, room = member_with_room(ep)
    hours = m["credit_balance"] // room["credits_per_hour"] + 1
    b = ok(ep, "book_room", resource_id=room["id"], member_id=m["id"], **slot(ep, room, 3, 9, hours))
    inv = ok(ep, "issue_invoice", member_id=m["id"])
    plan = ok(ep, "get_plan", plan_id=m["plan_id"])
    pending = sum(x["charge_cents"] for x in every(ep, "list_bookings", member_id=m["id"], invoice_id=inv["id"]))
    assert inv["total_cents"] == plan["monthly_price_cents"] + pending and pending >= b["charge_cents"] > 0
    assert inv["period"] == TODAY.strftime("%Y-%m")
    refused(ep, "issue_invoice", "conflict", "member_id", member_id=m["id"])
    ok(ep, "void_invoice", invoice_id=inv["id"])
    assert ok(ep, "get_booking", booking_id=b["id"])["invoice_id"] is None
    again = ok(ep, "issue_invoice", member_id=m["id"])
    assert again["total_cents"] == inv["total_cents"]
    assert ok(ep, "pay_invoice", invoice_id=again["id"])["status"] == "paid"
    refused(ep, "void_invoice", "rule_violation", "invoice_id", invoice_id=again["id"])


def test_cancelling_a_membership_cancels_future_bookings(ep: Episode) -> None:
    m, room = member_with_room(ep)
    b = ok(ep, "book_room", resource_id=room["id"], member_id=m["id"], **slot(ep, room, 8, 9))
    gone = ok(ep, "cancel_membership", member_id=m["id"])
    assert (gone["status"], gone["credit_balance"]) == ("cancelled", 0)
    assert ok(ep, "get_booking", booking_id=b["id"])["status"] == "cancelled"
    refused(ep, "cancel_membership", "conflict", "member_id", member_id=m["id"])
    refused(ep, "issue_invoice", "rule_violation", "member_id", member_id=m["id"])
    refused(ep, "reactivate_member", "rule_violation", "member_id", member_id=m["id"])
