"""Curbside Parking: no overbooking, reservation windows and cancellation, zone stays, extensions, citations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.places.parking import LATE_FEE, TRANSACTION_FEE, price_of
from tests.services.helpers import ServiceTools

PARKING = ServiceTools("parking")
WORLD = PARKING.world
ok, refused, every, first = PARKING.ok, PARKING.refused, PARKING.every, PARKING.first
POP = WORLD.population
NOW = WORLD.epoch
TOMORROW_9 = (NOW + dt.timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)


def iso(when: dt.datetime) -> str:
    return when.isoformat()


def facilities(ep: Episode) -> list[dict[str, Any]]:
    return every(ep, "list_facilities")


def vehicle(ep: Episode, n: int) -> dict[str, Any]:
    return every(ep, "list_vehicles")[n]


def zone(ep: Episode, code: str) -> dict[str, Any]:
    return first(ep, "zones", code=code)


def idle_vehicle(ep: Episode) -> dict[str, Any]:
    parked = {s["vehicle_id"] for s in every(ep, "list_sessions", status="active")}
    booked = {r["vehicle_id"] for r in every(ep, "list_reservations")}
    return next(v for v in every(ep, "list_vehicles") if v["id"] not in parked | booked)


def test_the_seeded_world_uses_the_population_and_prices_follow_the_rate_card(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    for v in every(ep, "list_vehicles"):
        assert people[v["owner_email"]].name == v["owner_name"]
    companies = {c.name for c in POP.customers}
    facs = {f["id"]: f for f in facilities(ep)}
    assert all(f["operator"] in companies and f["reservable_spaces"] <= f["capacity"] for f in facs.values())
    for r in every(ep, "list_reservations"):
        f = facs[r["facility_id"]]
        start, end = dt.datetime.fromisoformat(r["starts_at"]), dt.datetime.fromisoformat(r["ends_at"])
        assert r["price"] == price_of(f["hourly_rate"], f["daily_max"], start, end)
    assert price_of(600, 3200, NOW, NOW + dt.timedelta(hours=26)) == 3200 + 1200
    assert price_of(600, 3200, NOW, NOW + dt.timedelta(minutes=61)) == 1200


def test_a_facility_is_never_booked_beyond_its_reservable_spaces(ep: Episode) -> None:
    small = facilities(ep)[0]
    window = {
        "facility_id": small["id"],
        "starts_at": iso(TOMORROW_9 + dt.timedelta(hours=6)),
        "ends_at": iso(TOMORROW_9 + dt.timedelta(hours=10)),
    }
    quote = ok(ep, "quote_reservation", **window)
    assert (quote["available"], quote["spaces_left"]) == (False, 0)
    car = idle_vehicle(ep)
    refused(ep, "create_reservation", "rule_violation", "starts_at", vehicle_id=car["id"], **window)
    later = window | {"starts_at": iso(TOMORROW_9 + dt.timedelta(hours=8))}
    assert ok(ep, "quote_reservation", **later)["spaces_left"] == small["reservable_spaces"]
    held = every(ep, "list_reservations", facility_id=small["id"], status="confirmed")[0]
    assert ok(ep, "cancel_reservation", reservation_id=held["id"])["refund_amount"] == held["price"]
    made = ok(ep, "create_reservation", vehicle_id=car["id"], **window)
    assert made["price"] == 4 * small["hourly_rate"] and made["driver_email"] == car["owner_email"]
    refused(ep, "create_reservation", "conflict", "vehicle_id", vehicle_id=car["id"], **later)


def test_a_reservation_starts_ahead_ends_after_its_start_and_lasts_at_most_14_days(ep: Episode) -> None:
    facs = facilities(ep)
    car = idle_vehicle(ep)["id"]
    start = NOW + dt.timedelta(days=5)
    base = {"facility_id": facs[1]["id"], "vehicle_id": car}
    refused(
        ep,
        "create_reservation",
        "rule_violation",
        "starts_at",
        starts_at=iso(NOW - dt.timedelta(hours=1)),
        ends_at=iso(NOW + dt.timedelta(hours=2)),
        **base,
    )
    refused(ep, "create_reservation", "rule_violation", "ends_at", starts_at=iso(start), ends_at=iso(start), **base)
    refused(
        ep,
        "create_reservation",
        "rule_violation",
        "ends_at",
        starts_at=iso(start),
        ends_at=iso(start + dt.timedelta(days=15)),
        **base,
    )
    closed = next(f for f in facs if not f["active"])
    refused(
        ep,
        "create_reservation",
        "rule_violation",
        "facility_id",
        starts_at=iso(start),
        ends_at=iso(start + dt.timedelta(hours=2)),
        **(base | {"facility_id": closed["id"]}),
    )


def test_check_in_opens_15_minutes_before_start_and_started_bookings_cannot_be_cancelled(ep: Episode) -> None:
    soon = next(
        r
        for r in every(ep, "list_reservations", status="confirmed")
        if NOW < dt.datetime.fromisoformat(r["starts_at"]) < NOW + dt.timedelta(minutes=15)
    )
    later = next(
        r
        for r in every(ep, "list_reservations", status="confirmed")
        if dt.datetime.fromisoformat(r["starts_at"]) > NOW + dt.timedelta(days=1, hours=12)
    )
    refused(ep, "check_in_reservation", "rule_violation", "reservation_id", reservation_id=later["id"])
    inside = ok(ep, "check_in_reservation", reservation_id=soon["id"])
    assert inside["status"] == "checked_in" and inside["checked_in_at"] is not None
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=soon["id"])


def test_a_session_lasts_between_the_zones_minimum_and_maximum_and_a_car_parks_once(ep: Episode) -> None:
    main = zone(ep, "4521")
    car = idle_vehicle(ep)
    refused(ep, "start_session", "rule_violation", "minutes", zone_id=main["id"], vehicle_id=car["id"], minutes=121)
    refused(ep, "start_session", "rule_violation", "minutes", zone_id=main["id"], vehicle_id=car["id"], minutes=10)
    started = ok(ep, "start_session", zone_id=main["id"], vehicle_id=car["id"], minutes=90)
    assert (started["cost"], started["fees"], started["plate"]) == (450, TRANSACTION_FEE, car["plate"])
    refused(
        ep, "start_session", "conflict", "vehicle_id", zone_id=zone(ep, "5011")["id"], vehicle_id=car["id"], minutes=30
    )


def test_extensions_stay_within_the_maximum_stay_and_need_a_zone_that_allows_them(ep: Episode) -> None:
    running = every(ep, "list_sessions", zone_id=zone(ep, "4521")["id"], status="active")
    live = next(s for s in running if dt.datetime.fromisoformat(s["ends_at"]) > NOW)
    expired = next(s for s in every(ep, "list_sessions", status="expired"))
    refused(ep, "extend_session", "rule_violation", "minutes", session_id=live["id"], minutes=61)
    refused(ep, "extend_session", "rule_violation", "session_id", session_id=expired["id"], minutes=15)
    strip = every(ep, "list_sessions", zone_id=zone(ep, "4530")["id"], status="active")[0]
    refused(ep, "extend_session", "rule_violation", "session_id", session_id=strip["id"], minutes=5)
    longer = ok(ep, "extend_session", session_id=live["id"], minutes=60)
    assert (longer["minutes"], longer["extensions"], longer["fees"]) == (120, 1, 2 * TRANSACTION_FEE)
    assert dt.datetime.fromisoformat(longer["ends_at"]) == dt.datetime.fromisoformat(live["started_at"]) + dt.timedelta(
        minutes=120
    )


def test_stopping_early_refunds_nothing_prepaid_and_charges_time_used_pay_as_you_go(ep: Episode) -> None:
    prepaid = every(ep, "list_sessions", zone_id=zone(ep, "4521")["id"], status="active")[0]
    kept = ok(ep, "stop_session", session_id=prepaid["id"])
    assert kept["status"] == "stopped" and kept["cost"] == prepaid["cost"]
    payg = every(ep, "list_sessions", zone_id=zone(ep, "4522")["id"], status="active")[0]
    used = ok(ep, "stop_session", session_id=payg["id"])
    assert (
        used["cost"] < payg["cost"] and used["cost"] == 400 * 21 // 60
    )  # started 20 minutes before the epoch; one write since
    refused(ep, "stop_session", "rule_violation", "session_id", session_id=payg["id"])


def test_no_citation_for_a_paid_vehicle_and_disputes_close_after_21_days(ep: Episode) -> None:
    live = every(ep, "list_sessions", zone_id=zone(ep, "4521")["id"], status="active")[0]
    car = next(v for v in every(ep, "list_vehicles") if v["id"] == live["vehicle_id"])
    args = {"zone_id": live["zone_id"], "region": car["region"], "violation": "expired_meter"}
    refused(ep, "issue_citation", "rule_violation", "plate", plate=car["plate"], **args)
    stranger = ok(ep, "issue_citation", plate="zz-9 plr", **args)
    assert (stranger["plate"], stranger["vehicle_id"], stranger["fine"]) == ("ZZ9PLR", None, 4500)
    assert ok(ep, "dispute_citation", citation_id=stranger["id"])["status"] == "disputed"
    old = next(
        c
        for c in every(ep, "list_citations", status="issued")
        if dt.datetime.fromisoformat(c["issued_at"]) < NOW - dt.timedelta(days=30)
    )
    refused(ep, "dispute_citation", "rule_violation", "citation_id", citation_id=old["id"])
    paid = ok(ep, "pay_citation", citation_id=old["id"])
    assert paid["amount_paid"] == old["fine"] + LATE_FEE and paid["paid_at"] is not None


def test_a_plate_is_registered_once_per_region(ep: Episode) -> None:
    person = POP.consumers[-1]
    args = {"owner_name": person.name, "owner_email": person.email}
    car = ok(ep, "add_vehicle", plate="8 xyz-417", region="CA", **args)
    assert car["plate"] == "8XYZ417"
    refused(ep, "add_vehicle", "conflict", "plate", plate="8XYZ417", region="CA", **args)
    refused(ep, "add_vehicle", "rule_violation", "plate", plate="8 - - - - -", region="CA", **args)
    assert ok(ep, "add_vehicle", plate="8XYZ417", region="NV", **args)["region"] == "NV"
