"""Waypoint Travel: offers expire, policy needs a reason and the manager, no overlapping flights, no used cancels."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TRAVEL = ServiceTools("travel")
WORLD = TRAVEL.world
ok, refused, every = TRAVEL.ok, TRAVEL.refused, TRAVEL.every
POP = WORLD.population
HOME = POP.home.place
TODAY = WORLD.epoch.date()
AWAY = next(p.city for p in POP.places if p.city != HOME.city and p.country != HOME.country)


def in_days(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def traveler(ep: Episode, department: str = "Engineering") -> dict[str, Any]:
    return every(ep, "list_travelers", department=department)[1]


def new_trip(ep: Episode, trv: dict[str, Any]) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "create_trip",
            traveler_id=trv["id"],
            name="Customer visit",
            purpose="Quarterly review",
            destination=AWAY,
            start_date=in_days(10),
            end_date=in_days(14),
        )
    )


def flights(ep: Episode, day: int = 10, cabin: str = "economy") -> list[dict[str, Any]]:
    return list(
        ok(ep, "search_flight_offers", origin=HOME.city, destination=AWAY, departure_date=in_days(day), cabin=cabin)
    )


def raise_caps(ep: Episode, department: str) -> None:
    pol = every(ep, "list_policies", department=department)[0]
    ok(ep, "update_policy", policy_id=pol["id"], max_flight_fare=10**9, max_hotel_nightly_rate=10**9)


# -- the world ------------------------------------------------------------------------------


def test_travelers_are_the_employees_with_a_manager_and_a_policy_per_department() -> None:
    ep = Episode(WORLD)
    trvs = every(ep, "list_travelers")
    assert {t["email"] for t in trvs} == {p.email for p in POP.employees}
    emails = {t["email"] for t in trvs}
    assert all(t["manager_email"] in emails and t["manager_email"] != t["email"] for t in trvs)
    assert {p["department"] for p in every(ep, "list_policies")} == {t["department"] for t in trvs}
    assert {b["status"] for b in every(ep, "list_bookings")} == {
        "confirmed",
        "used",
        "pending_approval",
        "cancelled",
        "rejected",
    }


# -- searching ------------------------------------------------------------------------------


def test_flight_search_between_world_cities_gives_offers_in_the_home_currency(ep: Episode) -> None:
    offers = flights(ep)
    assert len(offers) == 3
    assert all(o["origin"] == HOME.city and o["destination"] == AWAY for o in offers)
    assert all(o["currency"] == HOME.currency and o["arrival_at"] > o["departure_at"] for o in offers)
    assert ep.diff().counts() == {"travel.flight_offers": {"added": 3, "updated": 0, "removed": 0}}


def test_a_search_to_an_unknown_city_is_not_found(ep: Episode) -> None:
    refused(
        ep,
        "search_flight_offers",
        "not_found",
        "destination",
        origin=HOME.city,
        destination="Atlantis",
        departure_date=in_days(5),
    )


def test_a_hotel_stay_must_check_out_after_it_checks_in(ep: Episode) -> None:
    refused(
        ep, "search_hotel_offers", "rule_violation", "check_out", city=AWAY, check_in=in_days(5), check_out=in_days(5)
    )
    offers = ok(ep, "search_hotel_offers", city=AWAY, check_in=in_days(5), check_out=in_days(8))
    assert all(o["total"] == 3 * o["nightly_rate"] for o in offers)


# -- booking --------------------------------------------------------------------------------


def test_an_expired_offer_cannot_be_booked(ep: Episode) -> None:
    trip = new_trip(ep, traveler(ep))
    stale = next(o for o in every(ep, "list_flight_offers") if o["expires_at"] < WORLD.epoch.isoformat())
    refused(ep, "book_flight", "rule_violation", "flight_offer_id", trip_id=trip["id"], flight_offer_id=stale["id"])


def test_an_offer_expires_twenty_minutes_after_the_search(ep: Episode) -> None:
    trv = traveler(ep)
    raise_caps(ep, trv["department"])
    trip = new_trip(ep, trv)
    offer = flights(ep)[0]
    for n in range(20):
        ok(ep, "update_trip", trip_id=trip["id"], purpose=f"Review round {n}")
    refused(ep, "book_flight", "rule_violation", "flight_offer_id", trip_id=trip["id"], flight_offer_id=offer["id"])


def test_an_in_policy_flight_is_confirmed_at_once_and_takes_a_seat(ep: Episode) -> None:
    trv = traveler(ep)
    raise_caps(ep, trv["department"])
    trip = new_trip(ep, trv)
    offer = flights(ep)[0]
    b = ok(ep, "book_flight", trip_id=trip["id"], flight_offer_id=offer["id"])
    assert b["status"] == "confirmed" and not b["out_of_policy"] and b["price"] == offer["price"]
    assert ok(ep, "get_flight_offer", flight_offer_id=offer["id"])["seats_left"] == offer["seats_left"] - 1


def test_an_out_of_policy_flight_needs_a_reason_and_then_waits_for_the_manager(ep: Episode) -> None:
    trv = traveler(ep)
    trip = new_trip(ep, trv)
    offer = flights(ep, cabin="business")[0]
    refused(ep, "book_flight", "rule_violation", "policy_reason", trip_id=trip["id"], flight_offer_id=offer["id"])
    b = ok(ep, "book_flight", trip_id=trip["id"], flight_offer_id=offer["id"], policy_reason="Overnight flight")
    assert b["status"] == "pending_approval" and b["out_of_policy"]
    someone = next(t for t in every(ep, "list_travelers") if t["email"] != trv["manager_email"])
    refused(
        ep, "approve_booking", "rule_violation", "approver_email", booking_id=b["id"], approver_email=someone["email"]
    )
    done = ok(ep, "approve_booking", booking_id=b["id"], approver_email=trv["manager_email"])
    assert done["status"] == "confirmed" and done["approved_by"] == trv["manager_email"]


def test_a_traveler_cannot_hold_overlapping_flights(ep: Episode) -> None:
    trv = traveler(ep)
    raise_caps(ep, trv["department"])
    trip = new_trip(ep, trv)
    first = flights(ep)[0]
    ok(ep, "book_flight", trip_id=trip["id"], flight_offer_id=first["id"])
    same_time = ok(
        ep,
        "search_flight_offers",
        origin=HOME.city,
        destination="Tokyo" if AWAY != "Tokyo" else "Sydney",
        departure_date=in_days(10),
    )
    clash = next(
        o for o in same_time if o["departure_at"] < first["arrival_at"] and first["departure_at"] < o["arrival_at"]
    )
    refused(ep, "book_flight", "rule_violation", "flight_offer_id", trip_id=trip["id"], flight_offer_id=clash["id"])


def test_an_expensive_hotel_needs_a_policy_reason(ep: Episode) -> None:
    trv = traveler(ep)
    trip = new_trip(ep, trv)
    suite = ok(ep, "search_hotel_offers", city=AWAY, check_in=in_days(10), check_out=in_days(12))[2]
    refused(ep, "book_hotel", "rule_violation", "policy_reason", trip_id=trip["id"], hotel_offer_id=suite["id"])
    b = ok(ep, "book_hotel", trip_id=trip["id"], hotel_offer_id=suite["id"], policy_reason="Only room left")
    assert b["kind"] == "hotel" and b["status"] == "pending_approval" and b["price"] == suite["total"]


# -- cancelling -----------------------------------------------------------------------------


def test_a_used_flight_cannot_be_cancelled(ep: Episode) -> None:
    used = every(ep, "list_bookings", status="used")[0]
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=used["id"])


def test_cancelling_a_confirmed_booking_frees_its_seat(ep: Episode) -> None:
    b = every(ep, "list_bookings", status="confirmed")[0]
    before = ok(ep, "get_flight_offer", flight_offer_id=b["flight_offer_id"])["seats_left"]
    done = ok(ep, "cancel_booking", booking_id=b["id"])
    assert done["status"] == "cancelled"
    assert ok(ep, "get_flight_offer", flight_offer_id=b["flight_offer_id"])["seats_left"] == before + 1
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=b["id"])


def test_a_trip_with_active_bookings_cannot_be_deleted_and_must_not_end_before_it_starts(ep: Episode) -> None:
    b = every(ep, "list_bookings", status="confirmed")[0]
    refused(ep, "delete_trip", "rule_violation", "trip_id", trip_id=b["trip_id"])
    refused(ep, "update_trip", "rule_violation", "end_date", trip_id=b["trip_id"], end_date="2020-01-01")


def test_the_itinerary_sums_the_committed_bookings(ep: Episode) -> None:
    trv = traveler(ep)
    raise_caps(ep, trv["department"])
    trip = new_trip(ep, trv)
    f = ok(ep, "book_flight", trip_id=trip["id"], flight_offer_id=flights(ep)[0]["id"])
    hotel = ok(ep, "search_hotel_offers", city=AWAY, check_in=in_days(10), check_out=in_days(12))[0]
    h = ok(ep, "book_hotel", trip_id=trip["id"], hotel_offer_id=hotel["id"])
    it = ok(ep, "trip_itinerary", trip_id=trip["id"])
    assert [b["id"] for b in it["bookings"]] == [f["id"], h["id"]]
    assert it["committed_cost"] == f["price"] + h["price"] and it["pending_approvals"] == 0
