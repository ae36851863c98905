"""Staylane Partner Hub: night-by-night availability, closures, minimum stays, policies, arrivals and no-shows."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HOTELS = ServiceTools("hotels")
WORLD = HOTELS.world
ok, refused, every, seeded = HOTELS.ok, HOTELS.refused, HOTELS.every, HOTELS.seeded
POP = WORLD.population
TODAY = WORLD.epoch.date()
GUEST = POP.consumers[50]


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def plan(name: str = "Flexible", room: str = "Standard Double", prop: int = 0) -> dict[str, Any]:
    props = seeded("properties")
    rooms = {r["id"]: r for r in seeded("room_types") if r["property_id"] == props[prop]["id"]}
    return next(p for p in seeded("rate_plans") if p["room_type_id"] in rooms and p["name"] == name
                and rooms[p["room_type_id"]]["name"] == room)  # fmt: skip


def book(ep: Episode, rate_plan: dict[str, Any], start: int, nights: int, **extra: Any) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "create_booking",
            rate_plan_id=rate_plan["id"],
            guest_name=extra.pop("name", GUEST.name),
            guest_email=extra.pop("email", GUEST.email),
            adults=extra.pop("adults", 2),
            check_in=day(start),
            check_out=day(start + nights),
            **extra,
        )
    )


# -- the world ---------------------------------------------------------------------------------


def test_guests_are_staff_and_consumers_and_no_night_is_oversold() -> None:
    people = {p.email: p for p in POP.people}
    for b in seeded("bookings"):
        assert people[b["guest_email"]].name == b["guest_name"]
    rooms = {r["id"]: r for r in seeded("room_types")}
    nights: dict[tuple[str, str], int] = {}
    for b in seeded("bookings"):
        if b["status"] in ("confirmed", "checked_in"):
            d = dt.date.fromisoformat(b["check_in"])
            while d < dt.date.fromisoformat(b["check_out"]):
                nights[(b["room_type_id"], d.isoformat())] = nights.get((b["room_type_id"], d.isoformat()), 0) + 1
                d += dt.timedelta(days=1)
    assert all(n <= rooms[room]["units"] for (room, _), n in nights.items())


def test_seeded_prices_are_rate_times_nights_plus_city_tax() -> None:
    props = {p["id"]: p for p in seeded("properties")}
    plans = {p["id"]: p for p in seeded("rate_plans")}
    for b in seeded("bookings"):
        assert b["room_total"] == plans[b["rate_plan_id"]]["nightly_rate"] * b["nights"]
        assert b["city_tax"] == round(b["room_total"] * props[b["property_id"]]["city_tax_percent"] / 100)
        assert b["total"] == b["room_total"] + b["city_tax"]


# -- booking -----------------------------------------------------------------------------------


def test_a_booking_is_priced_per_night_with_its_cancellation_deadline(ep: Episode) -> None:
    flex = plan()
    prop = seeded("properties")[0]
    b = book(ep, flex, 15, 3)
    assert (b["nights"], b["room_total"]) == (3, 3 * flex["nightly_rate"])
    assert b["total"] == b["room_total"] + round(b["room_total"] * prop["city_tax_percent"] / 100)
    assert b["free_cancellation_until"] == day(15 - flex["free_cancellation_days"])
    assert b["reservation_number"].startswith("SL-")
    refused(ep, "create_booking", "conflict", "guest_email", rate_plan_id=flex["id"], guest_name=GUEST.name,
            guest_email=GUEST.email, adults=1, check_in=day(16), check_out=day(17))  # fmt: skip


def test_stays_need_valid_dates_occupancy_and_minimum_nights(ep: Episode) -> None:
    args = dict(rate_plan_id=plan()["id"], guest_name=GUEST.name, guest_email=GUEST.email)
    refused(ep, "create_booking", "rule_violation", "check_out", adults=2, check_in=day(5), check_out=day(5), **args)
    refused(ep, "create_booking", "rule_violation", "check_in", adults=2, check_in=day(-1), check_out=day(2), **args)
    refused(ep, "create_booking", "rule_violation", "check_out", adults=2, check_in=day(5), check_out=day(36), **args)
    refused(ep, "create_booking", "rule_violation", "adults", adults=3, check_in=day(5), check_out=day(6), **args)
    saver = plan("Non-refundable saver", "Family Suite")
    refused(ep, "create_booking", "rule_violation", "check_out", rate_plan_id=saver["id"], guest_name=GUEST.name,
            guest_email=GUEST.email, adults=2, check_in=day(5), check_out=day(6))  # fmt: skip


def test_a_room_type_sells_out_night_by_night(ep: Episode) -> None:
    flex = plan(room="Family Suite")
    room = ok(ep, "get_room_type", room_type_id=flex["room_type_id"])
    for k in range(room["units"]):
        p = POP.consumers[k]
        book(ep, flex, 25, 2, name=p.name, email=p.email)
    msg = refused(ep, "create_booking", "rule_violation", "check_in", rate_plan_id=flex["id"], guest_name=GUEST.name,
                  guest_email=GUEST.email, adults=2, check_in=day(26), check_out=day(28))  # fmt: skip
    assert f"sold out on {day(26)}" in msg
    offers = ok(
        ep, "check_availability", property_id=flex["property_id"], check_in=day(26), check_out=day(28), adults=2
    )
    assert offers and all(o["room_type_id"] != room["id"] for o in offers)
    assert [o["total"] for o in offers] == sorted(o["total"] for o in offers)
    assert book(ep, flex, 27, 2)["status"] == "confirmed"  # the 27th still has a room


def test_a_closure_stops_sales_on_its_nights(ep: Episode) -> None:
    closure = seeded("closures")[0]
    flex = next(p for p in seeded("rate_plans") if p["room_type_id"] == closure["room_type_id"] and p["refundable"])
    start = dt.date.fromisoformat(closure["start_date"]) - dt.timedelta(days=1)
    refused(ep, "create_booking", "rule_violation", "check_in", rate_plan_id=flex["id"], guest_name=GUEST.name,
            guest_email=GUEST.email, adults=1, check_in=start.isoformat(),
            check_out=(start + dt.timedelta(days=2)).isoformat())  # fmt: skip
    ok(ep, "delete_closure", closure_id=closure["id"])
    ok(ep, "create_booking", rate_plan_id=flex["id"], guest_name=GUEST.name, guest_email=GUEST.email, adults=1,
       check_in=start.isoformat(), check_out=(start + dt.timedelta(days=2)).isoformat())  # fmt: skip


def test_modifying_reprices_the_stay(ep: Episode) -> None:
    flex = plan()
    b = book(ep, flex, 18, 2)
    longer = ok(ep, "modify_booking", booking_id=b["id"], check_out=day(22))
    assert (longer["nights"], longer["room_total"]) == (4, 4 * flex["nightly_rate"])
    refused(ep, "modify_booking", "rule_violation", "check_out", booking_id=b["id"], check_out=day(18))


# -- cancelling --------------------------------------------------------------------------------


def test_cancellation_is_free_until_the_deadline_then_costs_the_first_night(ep: Episode) -> None:
    flex = plan()
    early = book(ep, flex, 10, 3)
    assert ok(ep, "cancel_booking", booking_id=early["id"])["cancellation_fee"] == 0
    late = book(ep, flex, flex["free_cancellation_days"] - 1, 3)  # the deadline was yesterday
    fee = ok(ep, "cancel_booking", booking_id=late["id"])["cancellation_fee"]
    assert fee == late["total"] // 3
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=late["id"])


def test_a_non_refundable_stay_pays_in_full(ep: Episode) -> None:
    saver = plan("Non-refundable saver")
    b = book(ep, saver, 30, 2)
    assert b["free_cancellation_until"] is None
    assert ok(ep, "cancel_booking", booking_id=b["id"])["cancellation_fee"] == b["total"]


# -- arrivals and departures -------------------------------------------------------------------


def test_guests_check_in_from_the_arrival_day_and_then_check_out(ep: Episode) -> None:
    arriving = every(ep, "list_bookings", status="confirmed", check_in=day(0))[0]
    future = next(b for b in every(ep, "list_bookings", status="confirmed") if b["check_in"] > day(0))
    refused(ep, "check_in_booking", "rule_violation", "booking_id", booking_id=future["id"])
    refused(ep, "check_out_booking", "rule_violation", "booking_id", booking_id=arriving["id"])
    assert ok(ep, "check_in_booking", booking_id=arriving["id"])["status"] == "checked_in"
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=arriving["id"])
    assert ok(ep, "check_out_booking", booking_id=arriving["id"])["status"] == "checked_out"


def test_no_shows_are_marked_from_the_day_after_arrival_and_pay_the_fee(ep: Episode) -> None:
    missed = next(b for b in every(ep, "list_bookings", status="confirmed") if b["check_in"] < day(0))
    out = ok(ep, "mark_no_show", booking_id=missed["id"])
    expected = missed["total"] if not missed["refundable"] else missed["total"] // missed["nights"]
    assert (out["status"], out["cancellation_fee"]) == ("no_show", expected)
    today = every(ep, "list_bookings", status="confirmed", check_in=day(0))[0]
    refused(ep, "mark_no_show", "rule_violation", "booking_id", booking_id=today["id"])


def test_occupancy_counts_the_rooms_sold_that_night(ep: Episode) -> None:
    prop = seeded("properties")[0]
    report = ok(ep, "occupancy_report", property_id=prop["id"], date=day(0))
    held = [
        b
        for b in seeded("bookings")
        if b["property_id"] == prop["id"] and b["status"] in ("confirmed", "checked_in")
        and b["check_in"] <= day(0) < b["check_out"]
    ]  # fmt: skip
    assert report["sold"] == len(held)
    assert report["units"] == sum(r["units"] for r in seeded("room_types") if r["property_id"] == prop["id"])
    assert report["occupancy_percent"] == round(100 * report["sold"] / report["units"], 1)
    assert held
    refused(ep, "update_room_type", "rule_violation", "units", room_type_id=held[0]["room_type_id"], units=0)
