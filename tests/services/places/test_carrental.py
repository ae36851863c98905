"""Roadway Car Rental: age minimums, one-way fees, pickup windows and upgrades, check-in billing, damage."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import age_on
from compoworld.services.places.carrental import (
    FUEL_PER_EIGHTH,
    LDW_DAILY,
    UNPLANNED_DROP_FEE,
    YOUNG_DRIVER_FEE,
    billed_days,
)
from tests.services.helpers import ServiceTools

RENTAL = ServiceTools("carrental")
WORLD = RENTAL.world
ok, refused, every, first = RENTAL.ok, RENTAL.refused, RENTAL.every, RENTAL.first
POP = WORLD.population
NOW = WORLD.epoch


def when(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def vclass(ep: Episode, code: str) -> dict[str, Any]:
    return first(ep, "vehicle_classes", code=code)


def locations(ep: Episode) -> list[dict[str, Any]]:
    return every(ep, "list_locations")


def trip(ep: Episode, code: str = "CCAR", **kw: Any) -> dict[str, Any]:
    loc = locations(ep)[0]["id"]
    start = NOW + dt.timedelta(days=3)
    args = {
        "pickup_location_id": loc,
        "return_location_id": loc,
        "class_id": vclass(ep, code)["id"],
        "pickup_at": start.isoformat(),
        "return_at": (start + dt.timedelta(days=2)).isoformat(),
        "driver_birth_date": "1988-03-02",
    }
    return args | kw


def birth_for(age: int) -> str:
    return (NOW.date() - dt.timedelta(days=365 * age + 30)).isoformat()


def open_agreement(ep: Episode, code: str) -> tuple[dict[str, Any], dict[str, Any]]:
    for ag in every(ep, "list_agreements", status="open"):
        res = ok(ep, "get_reservation", reservation_id=ag["reservation_id"])
        if res["class_id"] == vclass(ep, code)["id"]:
            return ag, res
    raise AssertionError(f"no open {code} rental")


def test_the_seeded_rentals_follow_the_population_and_the_fleet(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    for res in every(ep, "list_reservations"):
        assert people[res["driver_email"]].name == res["driver_name"]
        assert when(res["return_at"]) > when(res["pickup_at"])
    cities = {c.address.city for c in POP.companies}
    assert all(loc["address"]["city"] in cities for loc in locations(ep))
    for ag in every(ep, "list_agreements", status="open"):
        car = first(
            ep, "vehicles", plate=next(v["plate"] for v in every(ep, "list_vehicles") if v["id"] == ag["vehicle_id"])
        )
        assert car["status"] == "rented" and ag["out_km"] <= car["odometer_km"]
    assert every(ep, "list_damage_reports", severity="major")
    assert billed_days(NOW, NOW + dt.timedelta(hours=24, minutes=29)) == 1
    assert billed_days(NOW, NOW + dt.timedelta(hours=24, minutes=30)) == 2


def test_drivers_must_be_old_enough_and_young_drivers_pay_a_fee(ep: Episode) -> None:
    refused(
        ep, "quote_rental", "rule_violation", "driver_birth_date", **trip(ep, "PDAR", driver_birth_date=birth_for(23))
    )
    young = ok(ep, "quote_rental", **trip(ep, driver_birth_date=birth_for(23)))
    adult = ok(ep, "quote_rental", **trip(ep))
    assert young["fees"] == 2 * YOUNG_DRIVER_FEE and adult["fees"] == 0
    assert adult["estimated_total"] == 2 * vclass(ep, "CCAR")["daily_rate"]
    refused(ep, "quote_rental", "rule_violation", "driver_birth_date", **trip(ep, driver_birth_date=birth_for(19)))
    covered = ok(ep, "quote_rental", **trip(ep, damage_waiver=True))
    assert covered["fees"] == 2 * LDW_DAILY


def test_pickup_is_ahead_and_return_after_it(ep: Episode) -> None:
    args = trip(ep)
    refused(
        ep,
        "create_reservation",
        "rule_violation",
        "return_at",
        driver_name="A B",
        driver_email="a@b.example",
        **(args | {"return_at": args["pickup_at"]}),
    )
    refused(
        ep,
        "create_reservation",
        "rule_violation",
        "pickup_at",
        driver_name="A B",
        driver_email="a@b.example",
        **(args | {"pickup_at": (NOW - dt.timedelta(hours=1)).isoformat()}),
    )


def test_one_way_fees_by_distance_none_in_town_and_never_across_a_border(ep: Episode) -> None:
    locs = locations(ep)
    home = locs[0]
    town = next(loc for loc in locs if loc["id"] != home["id"] and loc["address"]["city"] == home["address"]["city"])
    assert ok(ep, "quote_rental", **trip(ep, return_location_id=town["id"]))["one_way_fee"] == 0
    away = [loc for loc in locs if loc["address"]["city"] != home["address"]["city"]]
    closed = next(loc for loc in away if not loc["one_way_returns"])
    refused(ep, "quote_rental", "rule_violation", "return_location_id", **trip(ep, return_location_id=closed["id"]))
    for loc in away:
        if not loc["one_way_returns"]:
            continue
        if loc["address"]["country"] == home["address"]["country"]:
            assert ok(ep, "quote_rental", **trip(ep, return_location_id=loc["id"]))["one_way_fee"] >= 5000
        else:
            refused(
                ep, "quote_rental", "rule_violation", "return_location_id", **trip(ep, return_location_id=loc["id"])
            )


def test_a_reservation_is_priced_as_quoted_and_cancelled_only_before_pickup(ep: Episode) -> None:
    person = POP.consumers[1]
    args = trip(ep, "SFAR", damage_waiver=True)
    made = ok(ep, "create_reservation", driver_name=person.name, driver_email=person.email, **args)
    assert made["estimated_total"] == ok(ep, "quote_rental", **args)["estimated_total"]
    assert made["confirmation"].startswith("RW") and made["status"] == "confirmed"
    assert ok(ep, "cancel_reservation", reservation_id=made["id"])["status"] == "cancelled"
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=made["id"])
    picked = first(ep, "reservations", status="picked_up")
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=picked["id"])


def test_check_out_needs_the_pickup_window_and_a_full_car_of_the_class_or_better(ep: Episode) -> None:
    soon = next(
        r
        for r in every(ep, "list_reservations", status="confirmed")
        if when(r["pickup_at"]) < NOW + dt.timedelta(hours=2)
    )
    later = next(
        r
        for r in every(ep, "list_reservations", status="confirmed")
        if when(r["pickup_at"]) > NOW + dt.timedelta(days=1)
    )
    here = every(ep, "list_vehicles", location_id=soon["pickup_location_id"], status="available")
    by_code = {c["id"]: c for c in every(ep, "list_vehicle_classes")}
    suv = next(v for v in here if by_code[v["class_id"]]["code"] == "SFAR")
    refused(
        ep, "check_out_vehicle", "rule_violation", "reservation_id", reservation_id=later["id"], vehicle_id=suv["id"]
    )
    small = next(v for v in here if by_code[v["class_id"]]["code"] == "ECAR")
    refused(ep, "check_out_vehicle", "rule_violation", "vehicle_id", reservation_id=soon["id"], vehicle_id=small["id"])
    thirsty = next(v for v in here if v["fuel_eighths"] < 8)
    refused(
        ep, "check_out_vehicle", "rule_violation", "vehicle_id", reservation_id=soon["id"], vehicle_id=thirsty["id"]
    )
    elsewhere = next(
        v for v in every(ep, "list_vehicles", status="available") if v["location_id"] != soon["pickup_location_id"]
    )
    refused(
        ep, "check_out_vehicle", "rule_violation", "vehicle_id", reservation_id=soon["id"], vehicle_id=elsewhere["id"]
    )
    ag = ok(ep, "check_out_vehicle", reservation_id=soon["id"], vehicle_id=suv["id"])
    assert (ag["out_km"], ag["out_fuel"], ag["status"]) == (suv["odometer_km"], 8, "open")
    assert first(ep, "vehicles", plate=suv["plate"])["status"] == "rented"
    refused(
        ep, "check_out_vehicle", "rule_violation", "reservation_id", reservation_id=soon["id"], vehicle_id=suv["id"]
    )


def test_check_in_bills_days_used_fuel_and_an_unplanned_drop(ep: Episode) -> None:
    ag, res = open_agreement(ep, "IDAR")
    home = next(loc for loc in locations(ep) if loc["id"] == res["return_location_id"])
    town = next(
        loc for loc in locations(ep) if loc["id"] != home["id"] and loc["address"]["city"] == home["address"]["city"]
    )
    args = {"agreement_id": ag["id"], "return_location_id": town["id"], "fuel_eighths": 6}
    refused(ep, "check_in_vehicle", "rule_violation", "odometer_km", odometer_km=ag["out_km"] - 1, **args)
    done = ok(ep, "check_in_vehicle", odometer_km=ag["out_km"] + 900, **args)
    days = billed_days(when(ag["out_at"]), NOW)
    young = age_on(dt.date.fromisoformat(res["driver_birth_date"]), when(ag["out_at"]).date()) < 25
    assert days == 3 and done["time_charge"] == 3 * vclass(ep, "IDAR")["daily_rate"]
    assert done["fuel_charge"] == 2 * FUEL_PER_EIGHTH and done["one_way_fee"] == UNPLANNED_DROP_FEE
    assert done["mileage_charge"] == 0 and done["fees"] == (3 * YOUNG_DRIVER_FEE if young else 0)
    assert done["total"] == done["time_charge"] + done["fees"] + done["fuel_charge"] + UNPLANNED_DROP_FEE
    car = next(v for v in every(ep, "list_vehicles") if v["id"] == ag["vehicle_id"])
    assert (car["location_id"], car["status"], car["odometer_km"]) == (town["id"], "available", ag["out_km"] + 900)
    assert ok(ep, "get_reservation", reservation_id=res["id"])["status"] == "completed"
    refused(ep, "check_in_vehicle", "conflict", "agreement_id", odometer_km=ag["out_km"] + 900, **args)


def test_kilometres_beyond_the_allowance_are_billed_and_the_waiver_covers_damage(ep: Episode) -> None:
    ag, res = open_agreement(ep, "PDAR")
    report = ok(ep, "report_damage", vehicle_id=ag["vehicle_id"], area="windshield", severity="minor", estimate=30000)
    assert (report["agreement_id"], report["charged"]) == (ag["id"], 0)
    done = ok(
        ep,
        "check_in_vehicle",
        agreement_id=ag["id"],
        return_location_id=res["return_location_id"],
        odometer_km=ag["out_km"] + 800,
        fuel_eighths=8,
    )
    assert done["days"] == 2 and done["mileage_charge"] == (800 - 2 * 300) * 30 and done["damage_charge"] == 0


def test_damage_without_the_waiver_is_charged_and_major_damage_grounds_the_car(ep: Episode) -> None:
    ag, res = open_agreement(ep, "IDAR")
    assert not res["damage_waiver"]
    ok(ep, "report_damage", vehicle_id=ag["vehicle_id"], area="left_side", severity="major", estimate=120000)
    done = ok(
        ep,
        "check_in_vehicle",
        agreement_id=ag["id"],
        return_location_id=res["return_location_id"],
        odometer_km=ag["out_km"] + 100,
        fuel_eighths=8,
    )
    assert done["damage_charge"] == 120000 and done["total"] >= 120000
    car = next(v for v in every(ep, "list_vehicles") if v["id"] == ag["vehicle_id"])
    assert car["status"] == "maintenance"
    report = first(ep, "damage_reports", vehicle_id=car["id"], status="reported")
    ok(ep, "repair_damage_report", damage_report_id=report["id"])
    assert first(ep, "vehicles", plate=car["plate"])["status"] == "available"
    fresh = next(
        v
        for v in every(ep, "list_vehicles", status="available")
        if not every(ep, "list_agreements", vehicle_id=v["id"])
    )
    refused(
        ep,
        "report_damage",
        "rule_violation",
        "vehicle_id",
        vehicle_id=fresh["id"],
        area="roof",
        severity="minor",
        estimate=1000,
    )
