"""Roadmetric Fleet: trip rules (vehicle, license, hours of service, inspections), odometer, fuel, work orders."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FLEET = ServiceTools("fleet")
WORLD = FLEET.world
ok, refused, every, seeded = FLEET.ok, FLEET.refused, FLEET.every, FLEET.seeded
POP = WORLD.population
HOME = POP.home.place.city
TODAY = WORLD.epoch.date().isoformat()


def free_vehicle(ep: Episode) -> dict[str, Any]:
    due = {d["vehicle_id"] for d in ok(ep, "maintenance_due") if d["blocks_trips"]}
    moving = {t["vehicle_id"] for t in every(ep, "list_trips", status="in_progress")}
    return next(v for v in every(ep, "list_vehicles", status="active") if v["id"] not in due | moving)


def free_driver(ep: Episode) -> dict[str, Any]:
    return next(
        d
        for d in every(ep, "list_drivers")
        if d["duty_status"] != "driving" and d["license_expires"] >= TODAY and d["driving_minutes_today"] < 660
    )


def start(ep: Episode, vehicle: dict[str, Any] | None = None, driver: dict[str, Any] | None = None) -> dict[str, Any]:
    v = vehicle or free_vehicle(ep)
    d = driver or free_driver(ep)
    return dict(ok(ep, "start_trip", vehicle_id=v["id"], driver_id=d["id"], start_city=HOME, order_number="SO-30001"))


# -- the world ---------------------------------------------------------------------------------


def test_drivers_are_the_home_staff_and_vehicles_are_based_at_home() -> None:
    staff = {p.email: p for p in POP.employees}
    for d in seeded("drivers"):
        assert staff[d["email"]].name == d["name"] and staff[d["email"]].phone == d["phone"]
    assert {v["home_terminal"] for v in seeded("vehicles")} == {HOME}
    vendors = {c.name for c in POP.companies}
    assert {w["vendor"] for w in seeded("work_orders")} <= vendors


def test_seeded_trips_and_drivers_agree() -> None:
    for t in seeded("trips"):
        if t["status"] == "completed":
            assert t["distance_km"] == t["end_odometer_km"] - t["start_odometer_km"]
    driving = {t["driver_id"] for t in seeded("trips") if t["status"] == "in_progress"}
    assert driving == {d["id"] for d in seeded("drivers") if d["duty_status"] == "driving"}
    in_shop = {v["id"] for v in seeded("vehicles") if v["status"] == "in_shop"}
    assert in_shop == {w["vehicle_id"] for w in seeded("work_orders") if w["status"] == "open"}


# -- trips -------------------------------------------------------------------------------------


def test_a_trip_moves_the_odometer_and_charges_driving_time(ep: Episode) -> None:
    v, d = free_vehicle(ep), free_driver(ep)
    trip = start(ep, v, d)
    assert ok(ep, "get_driver", driver_id=d["id"])["duty_status"] == "driving"
    where = ok(ep, "vehicle_location", vehicle_id=v["id"])
    assert (where["on_trip"], where["driver_name"]) == (trip["id"], d["name"])
    refused(ep, "end_trip", "rule_violation", "end_odometer_km", trip_id=trip["id"], end_city=HOME,
            end_odometer_km=v["odometer_km"] - 1)  # fmt: skip
    done = ok(ep, "end_trip", trip_id=trip["id"], end_city=HOME, end_odometer_km=v["odometer_km"] + 87)
    assert (done["status"], done["distance_km"]) == ("completed", 87)
    assert ok(ep, "get_vehicle", vehicle_id=v["id"])["odometer_km"] == v["odometer_km"] + 87
    after = ok(ep, "get_driver", driver_id=d["id"])
    assert after["duty_status"] == "on_duty" and after["driving_minutes_today"] > d["driving_minutes_today"]
    refused(ep, "end_trip", "rule_violation", "trip_id", trip_id=trip["id"], end_city=HOME, end_odometer_km=1)


def test_a_vehicle_or_driver_on_a_trip_cannot_start_another(ep: Episode) -> None:
    v, d = free_vehicle(ep), free_driver(ep)
    start(ep, v, d)
    other_driver = next(x for x in every(ep, "list_drivers") if x["id"] != d["id"] and x["duty_status"] != "driving"
                        and x["license_expires"] >= TODAY and x["driving_minutes_today"] < 660)  # fmt: skip
    refused(
        ep, "start_trip", "conflict", "vehicle_id", vehicle_id=v["id"], driver_id=other_driver["id"], start_city=HOME
    )
    refused(ep, "start_trip", "conflict", "driver_id", vehicle_id=free_vehicle(ep)["id"], driver_id=d["id"],
            start_city=HOME)  # fmt: skip


def test_expired_licenses_and_used_up_hours_keep_drivers_parked(ep: Episode) -> None:
    v = free_vehicle(ep)
    expired = next(d for d in every(ep, "list_drivers") if d["license_expires"] < TODAY)
    msg = refused(ep, "start_trip", "rule_violation", "driver_id", vehicle_id=v["id"], driver_id=expired["id"],
                  start_city=HOME)  # fmt: skip
    assert "expired" in msg
    tired = next(d for d in every(ep, "list_drivers") if d["driving_minutes_today"] >= 660)
    refused(ep, "start_trip", "rule_violation", "driver_id", vehicle_id=v["id"], driver_id=tired["id"], start_city=HOME)
    ok(ep, "update_driver", driver_id=expired["id"], license_expires="2030-01-31")
    assert ok(ep, "start_trip", vehicle_id=v["id"], driver_id=expired["id"], start_city=HOME)["status"] == "in_progress"


def test_an_overdue_safety_inspection_keeps_the_vehicle_off_the_road_until_serviced(ep: Episode) -> None:
    due = next(d for d in ok(ep, "maintenance_due") if d["blocks_trips"])
    oil = [d for d in ok(ep, "maintenance_due") if d["overdue"] and not d["blocks_trips"]]
    assert oil, "an overdue oil change does not block trips"
    d = free_driver(ep)
    refused(ep, "start_trip", "rule_violation", "vehicle_id", vehicle_id=due["vehicle_id"], driver_id=d["id"],
            start_city=HOME)  # fmt: skip
    wo = ok(ep, "open_work_order", vehicle_id=due["vehicle_id"], description="Annual inspection",
            vendor="Granite Manufacturing", schedule_id=due["schedule_id"])  # fmt: skip
    assert ok(ep, "get_vehicle", vehicle_id=due["vehicle_id"])["status"] == "in_shop"
    refused(ep, "start_trip", "rule_violation", "vehicle_id", vehicle_id=due["vehicle_id"], driver_id=d["id"],
            start_city=HOME)  # fmt: skip
    closed = ok(ep, "complete_work_order", work_order_id=wo["id"], cost=18_500, invoice_number="WS-90001")
    assert (closed["status"], closed["invoice_number"]) == ("completed", "WS-90001")
    assert ok(ep, "get_vehicle", vehicle_id=due["vehicle_id"])["status"] == "active"
    assert not any(x["schedule_id"] == due["schedule_id"] and x["overdue"] for x in ok(ep, "maintenance_due"))
    assert start(ep, {"id": due["vehicle_id"]}, d)["status"] == "in_progress"
    refused(
        ep, "complete_work_order", "conflict", "work_order_id", work_order_id=wo["id"], cost=1, invoice_number="X-100"
    )


def test_a_vehicle_on_a_trip_cannot_go_to_the_shop_or_retire(ep: Episode) -> None:
    moving = every(ep, "list_trips", status="in_progress")[0]
    refused(ep, "open_work_order", "rule_violation", "vehicle_id", vehicle_id=moving["vehicle_id"],
            description="Check engine light", vendor="Granite Manufacturing")  # fmt: skip
    refused(ep, "retire_vehicle", "rule_violation", "vehicle_id", vehicle_id=moving["vehicle_id"])


# -- fuel --------------------------------------------------------------------------------------


def test_fuel_fills_respect_the_tank_the_odometer_and_electric_vehicles(ep: Episode) -> None:
    v = next(x for x in every(ep, "list_vehicles", status="active") if x["fuel_type"] == "diesel")
    d = free_driver(ep)
    base = dict(vehicle_id=v["id"], driver_id=d["id"], cost=9_000, station="Northway Fuel", city=HOME)
    refused(ep, "log_fuel", "rule_violation", "liters", liters=v["tank_capacity_liters"] + 1,
            odometer_km=v["odometer_km"] + 10, **base)  # fmt: skip
    refused(ep, "log_fuel", "rule_violation", "odometer_km", liters=40, odometer_km=v["odometer_km"] - 1, **base)
    log = ok(ep, "log_fuel", liters=40, odometer_km=v["odometer_km"] + 10, **base)
    assert log["currency"] == POP.home.place.currency
    assert ok(ep, "get_vehicle", vehicle_id=v["id"])["odometer_km"] == v["odometer_km"] + 10
    ev = next(x for x in every(ep, "list_vehicles") if x["fuel_type"] == "electric")
    refused(ep, "log_fuel", "rule_violation", "vehicle_id", **{**base, "vehicle_id": ev["id"]}, liters=1,
            odometer_km=ev["odometer_km"] + 1)  # fmt: skip


# -- schedules ---------------------------------------------------------------------------------


def test_schedules_need_an_interval_and_one_per_service(ep: Episode) -> None:
    v = free_vehicle(ep)
    base = dict(vehicle_id=v["id"], last_done_odometer_km=v["odometer_km"], last_done_date=TODAY)
    refused(ep, "create_maintenance_schedule", "rule_violation", "interval_km", service="tire_rotation", **base)
    refused(ep, "create_maintenance_schedule", "conflict", "service", service="oil_change", interval_km=15_000, **base)
    made = ok(ep, "create_maintenance_schedule", service="tire_rotation", interval_km=10_000, **base)
    due = ok(ep, "maintenance_due", vehicle_id=v["id"], within_km=10_000)
    assert any(x["schedule_id"] == made["id"] and x["km_left"] == 10_000 for x in due)


def test_the_last_fix_follows_the_trip_and_an_open_work_order_blocks_retirement(ep: Episode) -> None:
    v = free_vehicle(ep)
    trip = start(ep, v)
    far = next(p.city for p in POP.places if p.city != HOME)
    ok(ep, "end_trip", trip_id=trip["id"], end_city=far, end_odometer_km=v["odometer_km"] + 400)
    where = ok(ep, "vehicle_location", vehicle_id=v["id"])
    place = next(p for p in POP.places if p.city == far)
    assert (where["city"], where["latitude"], where["on_trip"]) == (far, place.latitude, None)
    shop = every(ep, "list_work_orders", status="open")[0]
    refused(ep, "retire_vehicle", "rule_violation", "vehicle_id", vehicle_id=shop["vehicle_id"])
    ok(ep, "complete_work_order", work_order_id=shop["id"], cost=50_000, invoice_number="WS-90002")
    assert ok(ep, "retire_vehicle", vehicle_id=shop["vehicle_id"])["status"] == "retired"
    refused(
        ep, "update_vehicle", "not_found", "assigned_driver_id", vehicle_id=v["id"], assigned_driver_id="drv_999999"
    )
