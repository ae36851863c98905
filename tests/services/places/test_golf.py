"""Fairway Desk: tee sheet rules, four-player slots, rate-class pricing, check-in, blocks, rain checks."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

GOLF = ServiceTools("golf")
WORLD = GOLF.world
ok, refused, every, first = GOLF.ok, GOLF.refused, GOLF.every, GOLF.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()
STAFF = POP.employees[0].email


def at(days: int, hour: int, minute: int = 0) -> str:
    return iso_z(dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour, minute), tzinfo=dt.UTC))


def course(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_courses")[0]


def golfers(ep: Episode, rate: str, n: int) -> list[dict[str, Any]]:
    rc = first(ep, "rate_classes", query=rate)
    return every(ep, "list_golfers", rate_class_id=rc["id"], status="active")[:n]


def test_seeded_golfers_are_consumers_and_members_have_numbers(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for g in every(ep, "list_golfers"):
        assert consumers[g["email"]] == g["name"]
    member = first(ep, "rate_classes", members_only=True)
    for g in every(ep, "list_golfers", rate_class_id=member["id"]):
        assert g["member_number"]
    assert {b["status"] for b in every(ep, "list_bookings")} >= {"booked", "checked_in", "completed", "no_show"}


def test_a_tee_time_must_be_on_the_sheet(ep: Episode) -> None:
    c = course(ep)
    g = golfers(ep, "Public", 1)[0]
    base = {"course_id": c["id"], "booker_id": g["id"]}
    refused(ep, "book_tee_time", "rule_violation", "start_at", start_at=at(10, 9, 5), **base)
    refused(ep, "book_tee_time", "rule_violation", "start_at", start_at=at(10, 19), **base)
    refused(ep, "book_tee_time", "rule_violation", "start_at", start_at=at(-2, 9), **base)
    refused(ep, "book_tee_time", "rule_violation", "start_at", start_at=at(5, 9), **base)
    assert ok(ep, "book_tee_time", start_at=at(10, 9, 10), **base)["status"] == "booked"


def test_a_slot_holds_four_players_each_once(ep: Episode) -> None:
    c = course(ep)
    four = golfers(ep, "Public", 3) + golfers(ep, "Senior", 2)
    slot = {"course_id": c["id"], "start_at": at(12, 8)}
    ok(ep, "book_tee_time", booker_id=four[0]["id"], other_player_ids=[four[1]["id"], four[2]["id"]], **slot)
    refused(
        ep, "book_tee_time", "conflict", "start_at", booker_id=four[3]["id"], other_player_ids=[four[4]["id"]], **slot
    )
    refused(ep, "book_tee_time", "conflict", "other_player_ids", booker_id=four[1]["id"], **slot)
    refused(
        ep,
        "book_tee_time",
        "rule_violation",
        "other_player_ids",
        booker_id=four[3]["id"],
        other_player_ids=[four[3]["id"]],
        course_id=c["id"],
        start_at=at(12, 9),
    )
    assert len(ok(ep, "book_tee_time", booker_id=four[3]["id"], **slot)["player_ids"]) == 1
    sheet = ok(ep, "tee_sheet", course_id=c["id"], day=(TODAY + dt.timedelta(days=12)).isoformat())
    row = next(s for s in sheet if s["start_at"].startswith(at(12, 8)[:16]))
    assert (row["players_booked"], row["spots_left"]) == (4, 0)


def test_fees_follow_each_players_rate_class_and_carts(ep: Episode) -> None:
    c = course(ep)
    pub, sen = golfers(ep, "Public", 1)[0], golfers(ep, "Senior", 1)[0]
    rates = {r["id"]: r for r in every(ep, "list_rate_classes")}
    made = ok(
        ep,
        "book_tee_time",
        course_id=c["id"],
        start_at=at(14, 10),
        booker_id=pub["id"],
        other_player_ids=[sen["id"]],
        holes=9,
        cart=True,
    )
    fees = rates[pub["rate_class_id"]]["green_fee_9"] + rates[sen["rate_class_id"]]["green_fee_9"]
    assert made["total"] == fees + 2 * c["cart_fee"]


def test_suspended_golfers_book_nothing_and_member_rates_need_a_number(ep: Episode) -> None:
    c = course(ep)
    bad = first(ep, "golfers", status="suspended")
    refused(
        ep, "book_tee_time", "rule_violation", "booker_id", course_id=c["id"], start_at=at(9, 8), booker_id=bad["id"]
    )
    member = first(ep, "rate_classes", members_only=True)
    g = golfers(ep, "Public", 1)[0]
    refused(ep, "update_golfer", "rule_violation", "rate_class_id", golfer_id=g["id"], rate_class_id=member["id"])
    up = ok(ep, "update_golfer", golfer_id=g["id"], rate_class_id=member["id"], member_number="M-20001")
    assert up["rate_class_id"] == member["id"]


def test_check_in_is_on_the_day_and_no_shows_only_after_the_time(ep: Episode) -> None:
    booked = every(ep, "list_bookings", status="booked")
    past = next(b for b in booked if b["start_at"] < iso_z(NOW))
    ahead = next(b for b in booked if b["start_at"] > at(1, 0))
    refused(ep, "check_in", "rule_violation", "booking_id", booking_id=ahead["id"])
    refused(ep, "mark_no_show", "rule_violation", "booking_id", booking_id=ahead["id"])
    assert ok(ep, "mark_no_show", booking_id=past["id"])["status"] == "no_show"
    today = next(b for b in booked if b["start_at"].startswith(TODAY.isoformat()))
    assert ok(ep, "check_in", booking_id=today["id"])["status"] == "checked_in"
    assert ok(ep, "complete_booking", booking_id=today["id"])["status"] == "completed"


def test_a_block_refuses_booked_groups_inside_and_needs_staff(ep: Episode) -> None:
    c = course(ep)
    b = next(x for x in every(ep, "list_bookings", status="booked") if x["start_at"] > at(1, 0))
    start = b["start_at"]
    end = iso_z(dt.datetime.fromisoformat(start.replace("Z", "+00:00")) + dt.timedelta(hours=2))
    base = {"course_id": c["id"], "reason": "league"}
    refused(ep, "block_tee_sheet", "conflict", "start_at", start_at=start, end_at=end, created_by=STAFF, **base)
    refused(
        ep,
        "block_tee_sheet",
        "rule_violation",
        "end_at",
        start_at=at(20, 9),
        end_at=at(20, 8),
        created_by=STAFF,
        **base,
    )
    refused(
        ep,
        "block_tee_sheet",
        "rule_violation",
        "created_by",
        start_at=at(20, 9),
        end_at=at(20, 11),
        created_by="a@b.io",
        **base,
    )
    ok(ep, "block_tee_sheet", start_at=at(20, 9), end_at=at(20, 11), created_by=STAFF, **base)
    g = golfers(ep, "Public", 1)[0]
    refused(
        ep, "book_tee_time", "rule_violation", "start_at", course_id=c["id"], start_at=at(20, 10), booker_id=g["id"]
    )


def test_rain_checks_credit_unplayed_holes_once_per_booking(ep: Episode) -> None:
    b = first(ep, "bookings", status="checked_in")
    rates = {r["id"]: r for r in every(ep, "list_rate_classes")}
    green = sum(rates[ok(ep, "get_golfer", golfer_id=g)["rate_class_id"]]["green_fee_18"] for g in b["player_ids"])
    nine = first(ep, "bookings", status="booked", holes=9)
    ok(ep, "check_in", booking_id=nine["id"])
    refused(ep, "issue_rain_check", "rule_violation", "holes_played", booking_id=nine["id"], holes_played=9)
    rc = ok(ep, "issue_rain_check", booking_id=b["id"], holes_played=6)
    assert rc["amount"] == round(green * 12 / 18) and rc["golfer_id"] == b["booker_id"]
    refused(ep, "issue_rain_check", "conflict", "booking_id", booking_id=b["id"], holes_played=3)
    refused(
        ep,
        "issue_rain_check",
        "rule_violation",
        "booking_id",
        booking_id=first(ep, "bookings", status="booked")["id"],
        holes_played=3,
    )


def test_a_rain_check_is_redeemed_on_the_holders_booking(ep: Episode) -> None:
    rc = first(ep, "rain_checks", status="issued")
    mine = first(ep, "bookings", booker_id=rc["golfer_id"], status="booked")
    other = next(b for b in every(ep, "list_bookings", status="booked") if b["booker_id"] != rc["golfer_id"])
    refused(ep, "redeem_rain_check", "rule_violation", "booking_id", rain_check_id=rc["id"], booking_id=other["id"])
    after = ok(ep, "redeem_rain_check", rain_check_id=rc["id"], booking_id=mine["id"])
    assert after["rain_check_applied"] == min(rc["amount"], mine["total"])
    refused(ep, "redeem_rain_check", "rule_violation", "rain_check_id", rain_check_id=rc["id"], booking_id=mine["id"])
    ok(ep, "cancel_booking", booking_id=mine["id"])
    assert ok(ep, "get_rain_check", rain_check_id=rc["id"])["status"] == "issued"
