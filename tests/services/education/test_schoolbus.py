"""Yellowline Transport: riders and stops, bus seats and lifts, route changes, field trip requests and scheduling."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SB = ServiceTools("schoolbus")
WORLD = SB.world
ok, refused, every = SB.ok, SB.refused, SB.every
TODAY = WORLD.epoch.date()
TEACHER = WORLD.population.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def bus(ep: Episode, number: str) -> dict[str, Any]:
    return every(ep, "list_vehicles", bus_number=number)[0]


def route(ep: Episode, code: str) -> dict[str, Any]:
    return every(ep, "list_routes", code=code)[0]


def test_seeded_routes_fit_their_buses_and_riders_belong_to_world_families(ep: Episode) -> None:
    emails = {p.email for p in WORLD.population.people}
    assert all(r["guardian_email"] in emails for r in every(ep, "list_riders"))
    for r in every(ep, "list_routes"):
        roster = ok(ep, "route_roster", route_id=r["id"])
        v = ok(ep, "get_vehicle", vehicle_id=r["vehicle_id"])
        assert roster["riders"] <= v["capacity"] and roster["wheelchair_riders"] <= v["wheelchair_lifts"]
        assert v["status"] == "in_service"


def test_a_rider_gets_one_stop_per_run_on_a_route_to_their_school(ep: Episode) -> None:
    rider = next(r for r in every(ep, "list_riders") if not every(ep, "list_rider_assignments", rider_id=r["id"]))
    wrong = next(r for r in every(ep, "list_routes", run="am") if r["school"] != rider["school"])
    right = next(r for r in every(ep, "list_routes", run="am") if r["school"] == rider["school"])
    wrong_stop = every(ep, "list_stops", route_id=wrong["id"])[0]
    stop = every(ep, "list_stops", route_id=right["id"])[0]
    refused(ep, "assign_rider", "rule_violation", "stop_id", rider_id=rider["id"], stop_id=wrong_stop["id"])
    made = ok(ep, "assign_rider", rider_id=rider["id"], stop_id=stop["id"])
    assert (made["run"], made["route_id"]) == ("am", right["id"])
    other = every(ep, "list_stops", route_id=right["id"])[1]
    refused(ep, "assign_rider", "conflict", "rider_id", rider_id=rider["id"], stop_id=other["id"])


def test_a_wheelchair_rider_needs_a_free_lift(ep: Episode) -> None:
    chair = every(ep, "list_riders", wheelchair=True)[0]
    lincoln_pm = route(ep, "L-11")
    assert ok(ep, "route_roster", route_id=lincoln_pm["id"])["wheelchair_riders"] == 1
    refused(
        ep, "assign_vehicle", "rule_violation", "vehicle_id", route_id=lincoln_pm["id"], vehicle_id=bus(ep, "41")["id"]
    )
    assert chair["school"] == lincoln_pm["school"]


def test_a_bus_change_must_seat_the_riders_and_is_logged(ep: Episode) -> None:
    r = route(ep, "R-12")
    refused(ep, "assign_vehicle", "rule_violation", "vehicle_id", route_id=r["id"], vehicle_id=bus(ep, "40")["id"])
    ok(ep, "update_vehicle", vehicle_id=bus(ep, "41")["id"], capacity=1)
    refused(ep, "assign_vehicle", "rule_violation", "vehicle_id", route_id=r["id"], vehicle_id=bus(ep, "41")["id"])
    done = ok(ep, "assign_vehicle", route_id=r["id"], vehicle_id=bus(ep, "14")["id"])
    assert done["vehicle_id"] == bus(ep, "14")["id"]
    log = every(ep, "list_route_changes", route_id=r["id"], kind="vehicle")
    assert log[-1]["description"].endswith("-> 14")
    refused(ep, "assign_vehicle", "conflict", "vehicle_id", route_id=r["id"], vehicle_id=bus(ep, "14")["id"])


def test_a_bus_on_a_route_does_not_go_to_maintenance(ep: Episode) -> None:
    busy = bus(ep, "21")
    refused(ep, "send_to_maintenance_vehicle", "rule_violation", "vehicle_id", vehicle_id=busy["id"])
    spare = bus(ep, "41")
    assert ok(ep, "send_to_maintenance_vehicle", vehicle_id=spare["id"])["status"] == "maintenance"


def test_drivers_need_a_valid_cdl(ep: Episode) -> None:
    r = route(ep, "L-10")
    expired = next(d for d in every(ep, "list_drivers") if d["cdl_expires_on"] < TODAY.isoformat())
    refused(ep, "assign_driver", "rule_violation", "driver_id", route_id=r["id"], driver_id=expired["id"])
    ok(ep, "update_driver", driver_id=expired["id"], cdl_expires_on=day(365))
    assert ok(ep, "assign_driver", route_id=r["id"], driver_id=expired["id"])["driver_id"] == expired["id"]
    assert every(ep, "list_route_changes", route_id=r["id"], kind="driver")


def test_stops_are_added_at_the_end_in_time_order(ep: Episode) -> None:
    r = route(ep, "L-10")
    last = max(every(ep, "list_stops", route_id=r["id"]), key=lambda s: s["sequence"])
    refused(ep, "add_stop", "rule_violation", "time", route_id=r["id"], location="New Corner", time=last["time"])
    refused(ep, "add_stop", "conflict", "location", route_id=r["id"], location=last["location"].upper(), time="09:59")
    made = ok(ep, "add_stop", route_id=r["id"], location="New Corner", time="09:59")
    assert made["sequence"] == last["sequence"] + 1


def test_field_trips_need_notice_then_approval_then_a_free_bus_and_driver(ep: Episode) -> None:
    args = {"destination": "Planetarium", "depart": "09:00", "return_time": "13:00", "passengers": 60}
    refused(ep, "request_field_trip", "rule_violation", "trip_date", requester_email=TEACHER, trip_date=day(3), **args)
    refused(
        ep,
        "request_field_trip",
        "rule_violation",
        "requester_email",
        requester_email="p@home.io",
        trip_date=day(30),
        **args,
    )
    trip = ok(ep, "request_field_trip", requester_email=TEACHER, trip_date=day(9), **args)
    drivers = every(ep, "list_drivers")
    refused(
        ep,
        "schedule_field_trip",
        "rule_violation",
        "trip_id",
        trip_id=trip["id"],
        vehicle_id=bus(ep, "12")["id"],
        driver_id=drivers[1]["id"],
    )
    ok(ep, "approve_field_trip", field_trip_id=trip["id"])
    refused(
        ep,
        "schedule_field_trip",
        "rule_violation",
        "vehicle_id",
        trip_id=trip["id"],
        vehicle_id=bus(ep, "21")["id"],
        driver_id=drivers[1]["id"],
    )
    booked = every(ep, "list_field_trips", status="scheduled")[0]
    refused(
        ep,
        "schedule_field_trip",
        "conflict",
        "vehicle_id",
        trip_id=trip["id"],
        vehicle_id=booked["vehicle_id"],
        driver_id=drivers[1]["id"],
    )
    done = ok(ep, "schedule_field_trip", trip_id=trip["id"], vehicle_id=bus(ep, "12")["id"], driver_id=drivers[1]["id"])
    assert done["status"] == "scheduled"
