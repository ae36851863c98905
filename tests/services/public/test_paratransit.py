"""Access Ride: booking windows and eligibility, vehicle capacity, cancellations, the no-show policy, runs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PX = ServiceTools("paratransit")
WORLD = PX.world
ok, refused, every, first = PX.ok, PX.refused, PX.every, PX.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def at(days: int, hour: int, minute: int = 0) -> str:
    return dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour, minute), tzinfo=dt.UTC).isoformat()


def book(ep: Episode, rider: dict[str, Any], when: str, **extra: Any) -> Any:
    return ok(
        ep,
        "book_trip",
        client_number=rider["client_number"],
        pickup_at=when,
        pickup_street="1 A St",
        dropoff_street="2 B St",
        **extra,
    )


def wheelchair_rider(ep: Episode, name: str) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "certify_rider",
        first_name=name,
        last_name="Test",
        home_street="5 C St",
        city="Springfield",
        eligibility="unconditional",
        months=24,
        mobility_aid="wheelchair",
    )
    return made


def test_riders_are_residents_and_the_suspended_one_has_three_strikes(ep: Episode) -> None:
    emails = {p.email for p in POP.consumers}
    assert all(r["email"] in emails for r in every(ep, "list_riders"))
    sus = first(ep, "suspensions", status="active")
    rider = ok(ep, "get_rider", rider_id=sus["rider_id"])
    assert rider["status"] == "suspended" and sus["strikes"] == 3
    strikes = [t for t in every(ep, "list_trips", rider_id=rider["id"]) if t["status"] in ("no_show", "late_cancelled")]
    assert len(strikes) == 3


def test_booking_is_one_to_seven_days_ahead_for_active_eligible_riders(ep: Episode) -> None:
    r = first(ep, "riders", status="active", mobility_aid="walker")
    for when in (at(0, 18), at(8, 10)):
        refused(
            ep,
            "book_trip",
            "rule_violation",
            "pickup_at",
            client_number=r["client_number"],
            pickup_at=when,
            pickup_street="1 A St",
            dropoff_street="2 B St",
        )
    trip = book(ep, r, at(2, 19), companions=2)
    assert (trip["fare_cents"], trip["space"], trip["status"]) == (1050, "ambulatory", "requested")
    assert (trip["window_start"][11:16], trip["window_end"][11:16]) == ("18:45", "19:15")
    refused(
        ep,
        "book_trip",
        "conflict",
        "pickup_at",
        client_number=r["client_number"],
        pickup_at=at(2, 19, 45),
        pickup_street="1 A St",
        dropoff_street="2 B St",
    )
    suspended = first(ep, "riders", status="suspended")
    refused(
        ep,
        "book_trip",
        "rule_violation",
        "client_number",
        client_number=suspended["client_number"],
        pickup_at=at(2, 12),
        pickup_street="1 A St",
        dropoff_street="2 B St",
    )
    expiring = next(x for x in every(ep, "list_riders", status="active") if x["eligible_until"] < at(6, 0)[:10])
    refused(
        ep,
        "book_trip",
        "rule_violation",
        "pickup_at",
        client_number=expiring["client_number"],
        pickup_at=at(6, 12),
        pickup_street="1 A St",
        dropoff_street="2 B St",
    )


def test_a_vehicle_carries_no_more_wheelchairs_than_it_has_positions(ep: Episode) -> None:
    run = first(ep, "runs", run_code="R101", service_date=(TODAY + dt.timedelta(days=1)).isoformat())
    seats = ok(ep, "get_vehicle", vehicle_id=run["vehicle_id"])["wheelchair_positions"]
    trips = [book(ep, wheelchair_rider(ep, f"Rider{n}"), at(1, 20, 5 * n)) for n in range(seats + 1)]
    for trip in trips[:seats]:
        assert ok(ep, "schedule_trip", trip_id=trip["id"], run_id=run["id"])["status"] == "scheduled"
    refused(ep, "schedule_trip", "rule_violation", "run_id", trip_id=trips[-1]["id"], run_id=run["id"])
    today_run = first(ep, "runs", service_date=TODAY.isoformat())
    refused(ep, "schedule_trip", "rule_violation", "run_id", trip_id=trips[-1]["id"], run_id=today_run["id"])


def test_cancelling_close_to_the_window_is_a_late_cancellation(ep: Episode) -> None:
    early = next(t for t in every(ep, "list_trips", status="requested") if t["window_start"][:10] > TODAY.isoformat())
    assert ok(ep, "cancel_trip", trip_id=early["id"])["status"] == "cancelled"
    refused(ep, "cancel_trip", "conflict", "trip_id", trip_id=early["id"])
    soon = next(
        t
        for t in every(ep, "list_trips", status="scheduled")
        if t["window_start"][:10] == TODAY.isoformat() and t["window_start"] > NOW.isoformat()
    )
    assert ok(ep, "cancel_trip", trip_id=soon["id"])["status"] == "late_cancelled"


def test_a_third_strike_in_thirty_days_suspends_the_rider_and_cancels_the_week(ep: Episode) -> None:
    opened = next(t for t in every(ep, "list_trips", status="scheduled") if t["window_start"] <= NOW.isoformat())
    rider = ok(ep, "get_rider", rider_id=opened["rider_id"])
    ahead = book(ep, rider, at(3, 19))
    later = next(t for t in every(ep, "list_trips", status="scheduled") if t["window_start"] > NOW.isoformat())
    refused(ep, "record_outcome", "rule_violation", "trip_id", trip_id=later["id"], outcome="performed")
    refused(ep, "record_outcome", "conflict", "trip_id", trip_id=ahead["id"], outcome="performed")
    assert ok(ep, "record_outcome", trip_id=opened["id"], outcome="no_show")["status"] == "no_show"
    assert ok(ep, "get_rider", rider_id=rider["id"])["status"] == "suspended"
    assert ok(ep, "get_trip", trip_id=ahead["id"])["status"] == "cancelled"
    sus = first(ep, "suspensions", rider_id=rider["id"], status="active")
    assert (sus["starts_on"], sus["ends_on"]) == (TODAY.isoformat(), (TODAY + dt.timedelta(days=6)).isoformat())


def test_lifting_a_suspension_lets_the_rider_book_again(ep: Episode) -> None:
    sus = first(ep, "suspensions", status="active")
    rider = ok(ep, "get_rider", rider_id=sus["rider_id"])
    assert ok(ep, "lift_suspension", suspension_id=sus["id"])["status"] == "lifted"
    refused(ep, "lift_suspension", "conflict", "suspension_id", suspension_id=sus["id"])
    assert book(ep, rider, at(2, 7))["status"] == "requested"


def test_runs_need_a_free_in_service_vehicle_and_a_staff_driver(ep: Episode) -> None:
    day = (TODAY + dt.timedelta(days=1)).isoformat()
    used = first(ep, "runs", service_date=day)
    driver = POP.employees[-1].email
    refused(
        ep,
        "create_run",
        "conflict",
        "vehicle_id",
        run_code="R900",
        service_date=day,
        vehicle_id=used["vehicle_id"],
        driver_email=driver,
    )
    down = first(ep, "vehicles", status="out_of_service")
    refused(
        ep,
        "create_run",
        "rule_violation",
        "vehicle_id",
        run_code="R900",
        service_date=day,
        vehicle_id=down["id"],
        driver_email=driver,
    )
    free = next(
        v
        for v in every(ep, "list_vehicles", status="in_service")
        if not every(ep, "list_runs", service_date=day, vehicle_id=v["id"])
    )
    refused(
        ep,
        "create_run",
        "rule_violation",
        "driver_email",
        run_code="R900",
        service_date=day,
        vehicle_id=free["id"],
        driver_email="someone@example.org",
    )
    assert ok(ep, "create_run", run_code="R900", service_date=day, vehicle_id=free["id"], driver_email=driver)
    dispatched = first(ep, "runs", status="dispatched")
    refused(ep, "take_out_of_service_vehicle", "rule_violation", "vehicle_id", vehicle_id=dispatched["vehicle_id"])


def test_the_manifest_lists_the_runs_trips_in_pickup_order(ep: Episode) -> None:
    run = first(ep, "runs", service_date=TODAY.isoformat())
    manifest = ok(ep, "run_manifest", run_id=run["id"])
    assert manifest and all(t["run_id"] == run["id"] for t in manifest)
    times = [t["requested_at"] for t in manifest]
    assert times == sorted(times)
