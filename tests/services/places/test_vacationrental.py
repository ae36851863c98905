"""Hostly: availability and house rules, channel money, cancellation policies, turnovers, owner statements."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VR = ServiceTools("vacationrental")
WORLD = VR.world
ok, refused, every, first = VR.ok, VR.refused, VR.every, VR.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def home(ep: Episode, nickname: str) -> dict[str, Any]:
    return first(ep, "listings", query=nickname)


def test_seeded_owners_and_guests_are_people_of_the_world_and_money_adds_up(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.people}
    for lst in every(ep, "list_listings"):
        assert people[lst["owner_email"]] == lst["owner_name"]
    for g in every(ep, "list_guests"):
        assert people[g["email"]] == g["full_name"]
    for r in every(ep, "list_reservations"):
        lst = ok(ep, "get_listing", listing_id=r["listing_id"])
        m = r["money"]
        assert m["fare_accommodation"] == lst["base_price"] * r["nights"]
        assert m["total_paid"] == m["fare_accommodation"] + lst["cleaning_fee"]
        assert m["net_accommodation"] == m["fare_accommodation"] - m["channel_commission"]
        assert r["nights"] >= lst["min_nights"] and r["guests_count"] <= lst["max_guests"]


def test_a_booking_needs_free_nights_the_minimum_stay_and_room_for_the_guests(ep: Episode) -> None:
    lst = home(ep, "Pine Cabin")
    g = every(ep, "list_guests")[0]
    base = {"listing_id": lst["id"], "guest_id": g["id"], "guests_count": 2}
    refused(ep, "create_reservation", "conflict", "check_in", check_in=day(11), check_out=day(16), **base)
    refused(ep, "create_reservation", "conflict", "check_in", check_in=day(3), check_out=day(5), **base)
    refused(ep, "create_reservation", "rule_violation", "check_out", check_in=day(100), check_out=day(101), **base)
    big = base | {"guests_count": lst["max_guests"] + 1}
    refused(ep, "create_reservation", "rule_violation", "guests_count", check_in=day(100), check_out=day(103), **big)
    refused(ep, "create_reservation", "rule_violation", "check_in", check_in=day(-3), check_out=day(2), **base)
    made = ok(ep, "create_reservation", check_in=day(100), check_out=day(103), source="airbnb", **base)
    assert made["status"] == "confirmed" and made["money"]["channel_commission"] == round(
        made["money"]["fare_accommodation"] * 0.15
    )
    assert not ok(ep, "quote_stay", listing_id=lst["id"], check_in=day(101), check_out=day(104))["available"]


def test_an_inquiry_is_confirmed_only_while_its_nights_are_free(ep: Episode) -> None:
    inq = first(ep, "reservations", status="inquiry")
    g = every(ep, "list_guests")[1]
    ok(
        ep,
        "create_reservation",
        listing_id=inq["listing_id"],
        guest_id=g["id"],
        check_in=inq["check_in"],
        check_out=inq["check_out"],
        guests_count=1,
    )
    refused(ep, "confirm_reservation", "conflict", "reservation_id", reservation_id=inq["id"])
    assert ok(ep, "decline_reservation", reservation_id=inq["id"])["status"] == "declined"


def test_cancellation_policy_decides_the_refund(ep: Episode) -> None:
    loft = home(ep, "Harbor Loft")
    beach = home(ep, "Beach House")
    g = every(ep, "list_guests")[2]
    late = {"guest_id": g["id"], "check_in": day(2), "check_out": day(6), "guests_count": 2}
    r1 = ok(ep, "create_reservation", listing_id=loft["id"], **(late | {"check_in": day(1)}))
    assert ok(ep, "cancel_reservation", reservation_id=r1["id"])["refund"] == r1["money"]["total_paid"]
    early = late | {"check_in": day(200), "check_out": day(204)}
    r2 = ok(ep, "create_reservation", listing_id=beach["id"], **early)
    assert ok(ep, "cancel_reservation", reservation_id=r2["id"])["refund"] == r2["money"]["total_paid"]
    r3 = ok(ep, "create_reservation", listing_id=beach["id"], **(late | {"check_in": day(5), "check_out": day(9)}))
    assert ok(ep, "cancel_reservation", reservation_id=r3["id"])["refund"] == r3["money"]["cleaning_fee"]
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=r3["id"])


def test_check_in_waits_for_the_turnover_cleaning(ep: Episode) -> None:
    arriving = [r for r in every(ep, "list_reservations", status="confirmed", check_in=TODAY.isoformat())]
    blocked = next(
        r for r in arriving if every(ep, "list_cleaning_tasks", listing_id=r["listing_id"], status="pending")
    )
    refused(ep, "check_in_reservation", "rule_violation", "reservation_id", reservation_id=blocked["id"])
    task = every(ep, "list_cleaning_tasks", listing_id=blocked["listing_id"], status="pending")[0]
    refused(ep, "complete_cleaning_task", "rule_violation", "cleaning_task_id", cleaning_task_id=task["id"])
    refused(
        ep, "assign_cleaning", "rule_violation", "cleaner_email", cleaning_task_id=task["id"], cleaner_email="a@b.io"
    )
    ok(ep, "assign_cleaning", cleaning_task_id=task["id"], cleaner_email=STAFF)
    assert ok(ep, "complete_cleaning_task", cleaning_task_id=task["id"])["completed_at"] is not None
    assert ok(ep, "check_in_reservation", reservation_id=blocked["id"])["status"] == "checked_in"
    future = first(ep, "reservations", status="confirmed", check_in=day(10))
    refused(ep, "check_in_reservation", "rule_violation", "reservation_id", reservation_id=future["id"])


def test_check_out_creates_the_turnover_task(ep: Episode) -> None:
    stay = first(ep, "reservations", status="checked_in")
    assert ok(ep, "check_out_reservation", reservation_id=stay["id"])["status"] == "checked_out"
    task = every(ep, "list_cleaning_tasks", listing_id=stay["listing_id"], status="pending")[-1]
    assert (task["reservation_id"], task["due_date"]) == (stay["id"], TODAY.isoformat())
    refused(ep, "check_out_reservation", "rule_violation", "reservation_id", reservation_id=stay["id"])


def test_owner_statements_total_last_months_stays_once(ep: Episode) -> None:
    month = every(ep, "list_owner_statements")[0]["month"]
    taken = {s["owner_email"] for s in every(ep, "list_owner_statements", month=month)}
    owner = next(lst["owner_email"] for lst in every(ep, "list_listings") if lst["owner_email"] not in taken)
    st = ok(ep, "generate_owner_statement", owner_email=owner, month=month)
    mine = {lst["id"]: lst for lst in every(ep, "list_listings", owner_email=owner)}
    stays = [
        r
        for r in every(ep, "list_reservations", status="checked_out")
        if r["listing_id"] in mine and r["check_out"][:7] == month
    ]
    assert sorted(st["reservation_ids"]) == sorted(r["id"] for r in stays) and stays
    fee = sum(round(r["money"]["net_accommodation"] * mine[r["listing_id"]]["commission_pct"] / 100) for r in stays)
    assert (st["management_fee"], st["owner_payout"]) == (fee, st["net_accommodation"] - fee)
    refused(ep, "generate_owner_statement", "conflict", "month", owner_email=owner, month=month)
    refused(ep, "generate_owner_statement", "rule_violation", "month", owner_email=owner, month=TODAY.strftime("%Y-%m"))
    refused(ep, "generate_owner_statement", "rule_violation", "owner_email", owner_email=STAFF, month=month)
    refused(ep, "mark_paid_owner_statement", "rule_violation", "owner_statement_id", owner_statement_id=st["id"])
    ok(ep, "finalize_owner_statement", owner_statement_id=st["id"])
    assert ok(ep, "mark_paid_owner_statement", owner_statement_id=st["id"])["status"] == "paid"


def test_calendar_blocks_refuse_booked_nights_and_listings_and_guests_are_unique(ep: Episode) -> None:
    stay = first(ep, "reservations", status="confirmed", check_in=day(10))
    clash = {"listing_id": stay["listing_id"], "start_date": day(11), "end_date": day(12), "reason": "maintenance"}
    refused(ep, "create_block", "conflict", "start_date", **clash)
    refused(
        ep, "create_block", "rule_violation", "end_date", **(clash | {"start_date": day(300), "end_date": day(300)})
    )
    ok(ep, "create_block", **(clash | {"start_date": day(300), "end_date": day(303)}))
    g = every(ep, "list_guests")[0]
    refused(ep, "create_guest", "conflict", "email", full_name="Someone Else", email=g["email"])
    shut = first(ep, "listings", active=False)
    args = {"guest_id": g["id"], "check_in": day(100), "check_out": day(105), "guests_count": 2}
    refused(ep, "create_reservation", "rule_violation", "listing_id", listing_id=shut["id"], **args)
