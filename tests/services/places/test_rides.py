"""Hopper Rides: upfront fares that expire, capacity, one ride at a time, cancellation fees, receipts, ratings."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RIDES = ServiceTools("rides")
WORLD = RIDES.world
ok, refused, every, seeded = RIDES.ok, RIDES.refused, RIDES.every, RIDES.seeded
POP = WORLD.population


def idle_rider(ep: Episode) -> tuple[dict[str, Any], Any]:
    """A rider without a ride under way, and the population person they are."""
    people = {p.email: p for p in POP.people}
    busy = {r["rider_id"] for r in every(ep, "list_rides") if r["status"] in ("accepted", "arriving", "in_progress")}
    for rider in every(ep, "list_riders"):
        if rider["id"] not in busy:
            return rider, people[rider["email"]]
    raise AssertionError("every rider is riding")


def fare(ep: Episode, product_name: str = "HopX", rider: dict[str, Any] | None = None) -> dict[str, Any]:
    if rider is None:
        rider, person = idle_rider(ep)
    else:
        person = next(p for p in POP.people if p.email == rider["email"])
    city = person.address.city
    product = every(ep, "list_products", city=city, active=True, query=product_name)[0]
    other = next(p for p in POP.people if p.address.city == city and p.key != person.key)
    return dict(
        ok(
            ep,
            "estimate_fare",
            rider_id=rider["id"],
            product_id=product["id"],
            pickup=person.address.model_dump(),
            dropoff=other.address.model_dump(),
        )
    )


def ride(ep: Episode, **kw: Any) -> dict[str, Any]:
    return dict(ok(ep, "request_ride", fare_id=fare(ep, **kw)["id"]))


def finish(ep: Episode, r: dict[str, Any]) -> dict[str, Any]:
    ok(ep, "update_ride_status", ride_id=r["id"], status="arriving")
    ok(ep, "update_ride_status", ride_id=r["id"], status="in_progress")
    return dict(ok(ep, "complete_ride", ride_id=r["id"]))


# -- the world ---------------------------------------------------------------------------------


def test_riders_and_drivers_are_the_populations_people() -> None:
    people = {p.email: p for p in POP.people}
    for r in seeded("riders"):
        person = people[r["email"]]
        assert (r["name"], r["phone"]) == (person.name, person.phone)
        assert (r["business_profile"] == POP.home.name) == (person.role == "employee")
    names = {p.name for p in POP.consumers}
    assert {d["name"] for d in seeded("drivers")} <= names
    assert POP.home.place.city in {p["city"] for p in seeded("products")}


def test_seeded_receipts_match_their_rides_and_busy_drivers_are_on_trips() -> None:
    rides = {r["id"]: r for r in seeded("rides")}
    for rc in seeded("receipts"):
        r = rides[rc["ride_id"]]
        assert r["status"] == "completed" and rc["fare"] == r["fare"]
        assert rc["total"] == rc["fare"] + rc["tip"]
    on_trip = {d["id"] for d in seeded("drivers") if d["status"] == "on_trip"}
    assert on_trip == {r["driver_id"] for r in rides.values() if r["status"] in ("accepted", "arriving", "in_progress")}


# -- fares -------------------------------------------------------------------------------------


def test_an_upfront_fare_follows_the_products_rates(ep: Episode) -> None:
    f = fare(ep)
    p = ok(ep, "get_product", product_id=f["product_id"])
    metered = max(
        p["minimum_fare"],
        p["base_fare"] + round(p["per_km"] * f["distance_km"]) + p["per_minute"] * f["duration_minutes"],
    )
    assert f["fare"] == round(metered * p["surge_multiplier"]) + p["booking_fee"]
    assert dt.datetime.fromisoformat(f["expires_at"]) - dt.datetime.fromisoformat(f["created_at"]) == dt.timedelta(
        minutes=2
    )


def test_pickups_must_be_in_the_products_city(ep: Episode) -> None:
    rider, person = idle_rider(ep)
    product = next(p for p in every(ep, "list_products", active=True) if p["city"] != person.address.city)
    refused(ep, "estimate_fare", "rule_violation", "pickup", rider_id=rider["id"], product_id=product["id"],
            pickup=person.address.model_dump(), dropoff=person.address.model_dump())  # fmt: skip


def test_a_fare_expires_after_two_minutes_and_is_used_once(ep: Episode) -> None:
    f = fare(ep)
    for _ in range(3):  # three writes: three minutes on the episode clock
        fare(ep)
    refused(ep, "request_ride", "rule_violation", "fare_id", fare_id=f["id"])
    fresh = fare(ep)
    ok(ep, "request_ride", fare_id=fresh["id"])
    refused(ep, "request_ride", "conflict", "fare_id", fare_id=fresh["id"])


# -- requesting --------------------------------------------------------------------------------


def test_a_request_goes_to_the_best_rated_available_driver(ep: Episode) -> None:
    f = fare(ep)
    free = every(ep, "list_drivers", product_id=f["product_id"], status="available")
    r = ok(ep, "request_ride", fare_id=f["id"])
    best = max(free, key=lambda d: (d["rating"], d["id"]))
    assert (r["status"], r["driver_id"], r["fare"]) == ("accepted", best["id"], f["fare"])
    assert ok(ep, "get_driver", driver_id=best["id"])["status"] == "on_trip"
    refused(ep, "go_offline_driver", "rule_violation", "driver_id", driver_id=best["id"])


def test_capacity_and_one_ride_at_a_time(ep: Episode) -> None:
    f = fare(ep)
    refused(ep, "request_ride", "rule_violation", "passengers", fare_id=f["id"], passengers=5)
    r = ok(ep, "request_ride", fare_id=f["id"], passengers=4)
    rider = ok(ep, "get_rider", rider_id=r["rider_id"])
    again = fare(ep, rider=rider)
    refused(ep, "request_ride", "conflict", "fare_id", fare_id=again["id"])


def test_no_driver_no_ride(ep: Episode) -> None:
    f = fare(ep)
    for d in every(ep, "list_drivers", product_id=f["product_id"], status="available"):
        ok(ep, "go_offline_driver", driver_id=d["id"])
    refused(ep, "request_ride", "rule_violation", "fare_id", fare_id=f["id"])


# -- the trip ----------------------------------------------------------------------------------


def test_a_trip_moves_step_by_step_and_ends_with_a_receipt(ep: Episode) -> None:
    r = ride(ep)
    refused(ep, "complete_ride", "rule_violation", "ride_id", ride_id=r["id"])
    refused(ep, "update_ride_status", "rule_violation", "status", ride_id=r["id"], status="in_progress")
    receipt = finish(ep, r)
    rider = ok(ep, "get_rider", rider_id=r["rider_id"])
    assert (receipt["rider_email"], receipt["fare"], receipt["total"]) == (rider["email"], r["fare"], r["fare"])
    assert receipt["receipt_number"].startswith("HR-") and receipt["pdf_url"].startswith("https://")
    assert ok(ep, "get_driver", driver_id=r["driver_id"])["status"] == "available"


def test_business_rides_are_billed_to_the_company(ep: Episode) -> None:
    busy = {x["rider_id"] for x in every(ep, "list_rides") if x["status"] in ("accepted", "arriving", "in_progress")}
    rider = next(x for x in every(ep, "list_riders", payment_method="business") if x["id"] not in busy)
    receipt = finish(ep, ride(ep, rider=rider))
    assert (receipt["charged_to"], receipt["business"]) == ("business", POP.home.name)


# -- cancelling and rating ---------------------------------------------------------------------


def test_cancelling_is_free_for_two_minutes_then_costs_the_fee(ep: Episode) -> None:
    quick = ride(ep)
    assert ok(ep, "cancel_ride", ride_id=quick["id"])["cancellation_fee"] == 0
    late = ride(ep)
    for _ in range(3):
        fare(ep)
    out = ok(ep, "cancel_ride", ride_id=late["id"])
    assert out["cancellation_fee"] == ok(ep, "get_product", product_id=late["product_id"])["cancellation_fee"]
    assert out["status"] == "rider_canceled"
    moving = every(ep, "list_rides", status="in_progress")[0]
    refused(ep, "cancel_ride", "rule_violation", "ride_id", ride_id=moving["id"])


def test_a_completed_ride_is_rated_once_and_the_tip_goes_on_the_receipt(ep: Episode) -> None:
    r = ride(ep)
    refused(ep, "rate_ride", "rule_violation", "ride_id", ride_id=r["id"], rating=5)
    receipt = finish(ep, r)
    driver = ok(ep, "get_driver", driver_id=r["driver_id"])
    after = ok(ep, "rate_ride", ride_id=r["id"], rating=1, tip=300)
    assert (after["tip"], after["total"]) == (300, receipt["total"] + 300)
    rated = ok(ep, "get_driver", driver_id=r["driver_id"])
    count = driver["ratings_count"] + 1
    assert rated["ratings_count"] == count
    assert rated["rating"] == round((driver["rating"] * driver["ratings_count"] + 1) / count, 2)
    refused(ep, "rate_ride", "conflict", "ride_id", ride_id=r["id"], rating=5)


def test_the_history_sums_receipts_and_fees() -> None:
    ep = Episode(WORLD)
    rider = next(r for r in seeded("riders") if r["rides_taken"] > 0)
    hist = ok(ep, "ride_history", rider_email=rider["email"])
    receipts = [rc for rc in seeded("receipts") if rc["rider_email"] == rider["email"]]
    fees = sum(r["cancellation_fee"] for r in seeded("rides") if r["rider_id"] == rider["id"])
    assert hist["completed"] == rider["rides_taken"] == len(receipts)
    assert hist["spent"] == sum(rc["total"] for rc in receipts) + fees
    refused(ep, "ride_history", "not_found", "rider_email", rider_email="nobody@nowhere.example")
