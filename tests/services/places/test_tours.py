"""Tourdesk: capacity and pricing by customer type, cut-off refunds, rebooking, check-in window, guides."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from compoworld.tasks.graph import input_ports
from tests.services.helpers import ServiceTools

TOURS = ServiceTools("tours")
WORLD = TOURS.world
ok, refused, every, first = TOURS.ok, TOURS.refused, TOURS.every, TOURS.first
POP = WORLD.population
NOW = WORLD.epoch
GUEST = POP.consumers[0]


def tour(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "items", query=name)


def departures(ep: Episode, item: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(every(ep, "list_availabilities", item_id=item["id"]), key=lambda a: a["start_at"])


def book(ep: Episode, availability_id: str, **customers: int) -> dict[str, Any]:
    seats = [{"customer_type": t, "count": n} for t, n in customers.items()]
    return dict(
        ok(
            ep,
            "create_booking",
            availability_id=availability_id,
            contact_name=GUEST.name,
            contact_email=GUEST.email,
            customers=seats,
        )
    )


def test_seeded_bookings_fill_their_departures_and_are_priced_by_rate(ep: Episode) -> None:
    for a in every(ep, "list_availabilities"):
        live = every(ep, "list_bookings", availability_id=a["id"], status="booked")
        assert a["booked"] == sum(b["seats"] for b in live) <= a["capacity"]
    people = {p.email: p.name for p in POP.people}
    for b in every(ep, "list_bookings"):
        rates = {r["customer_type"]: r["price"] for r in ok(ep, "get_item", item_id=b["item_id"])["rates"]}
        assert b["total"] == sum(rates[c["customer_type"]] * c["count"] for c in b["customers"])
        assert people[b["contact_email"]] == b["contact_name"]


def test_a_booking_respects_capacity_rates_and_accompanied_children(ep: Episode) -> None:
    walk = tour(ep, "Old Town Walking")
    full = next(a for a in departures(ep, walk) if a["booked"] == a["capacity"])
    base = {"contact_name": GUEST.name, "contact_email": GUEST.email}
    one = [{"customer_type": "adult", "count": 1}]
    refused(
        ep, "create_booking", "rule_violation", "availability_id", availability_id=full["id"], customers=one, **base
    )
    later = departures(ep, walk)[-1]
    kid = [{"customer_type": "child", "count": 1}]
    refused(ep, "create_booking", "rule_violation", "customers", availability_id=later["id"], customers=kid, **base)
    senior = [{"customer_type": "senior", "count": 1}]
    refused(ep, "create_booking", "rule_violation", "customers", availability_id=later["id"], customers=senior, **base)
    made = book(ep, later["id"], adult=2, child=1, infant=1)
    assert (made["seats"], made["total"]) == (4, 2 * 2500 + 1200)
    assert ok(ep, "get_availability", availability_id=later["id"])["booked"] == later["booked"] + 4


def test_bookings_need_an_open_departure_that_has_not_started(ep: Episode) -> None:
    cruise = tour(ep, "Harbor Sunset")
    closed = first(ep, "availabilities", item_id=cruise["id"], status="closed")
    base = {
        "contact_name": GUEST.name,
        "contact_email": GUEST.email,
        "customers": [{"customer_type": "adult", "count": 1}],
    }
    refused(ep, "create_booking", "rule_violation", "availability_id", availability_id=closed["id"], **base)
    past = departures(ep, cruise)[0]
    refused(ep, "create_booking", "rule_violation", "availability_id", availability_id=past["id"], **base)
    ok(ep, "reopen_availability", availability_id=closed["id"])
    assert book(ep, closed["id"], adult=1)["status"] == "booked"
    refused(
        ep, "update_availability", "rule_violation", "capacity", availability_id=closed["id"], capacity=closed["booked"]
    )


def test_cancelling_before_the_cutoff_refunds_everything_and_after_it_nothing(ep: Episode) -> None:
    walk = tour(ep, "Old Town Walking")
    soon = next(a for a in departures(ep, walk) if a["start_at"] > iso_z(NOW))
    late = book(ep, soon["id"], adult=1)
    assert ok(ep, "cancel_booking", booking_id=late["id"])["refund"] == 0
    far = departures(ep, walk)[-1]
    early = book(ep, far["id"], adult=1)
    assert ok(ep, "cancel_booking", booking_id=early["id"])["refund"] == early["total"]
    assert ok(ep, "get_availability", availability_id=far["id"])["booked"] == far["booked"]
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=early["id"])


def test_rebooking_moves_seats_between_departures_of_the_same_tour(ep: Episode) -> None:
    walk = tour(ep, "Old Town Walking")
    ahead = [a for a in departures(ep, walk) if a["start_at"] > iso_z(NOW)]
    b = every(ep, "list_bookings", availability_id=ahead[1]["id"], status="booked")[0]
    target = ahead[-1]
    moved = ok(ep, "rebook_booking", booking_id=b["id"], availability_id=target["id"])
    assert moved["availability_id"] == target["id"]
    assert ok(ep, "get_availability", availability_id=target["id"])["booked"] == target["booked"] + b["seats"]
    assert ok(ep, "get_availability", availability_id=ahead[1]["id"])["booked"] == ahead[1]["booked"] - b["seats"]
    other = departures(ep, tour(ep, "Food Market"))[-1]
    refused(ep, "rebook_booking", "rule_violation", "availability_id", booking_id=b["id"], availability_id=other["id"])
    refused(ep, "rebook_booking", "rule_violation", "availability_id", booking_id=b["id"], availability_id=target["id"])


def test_check_in_opens_two_hours_before_and_counts_at_most_the_seats(ep: Episode) -> None:
    walk = tour(ep, "Old Town Walking")
    ahead = [a for a in departures(ep, walk) if a["start_at"] > iso_z(NOW)]
    now_dep, tomorrow = ahead[0], ahead[2]
    b = every(ep, "list_bookings", availability_id=now_dep["id"], status="booked")[0]
    refused(ep, "check_in_booking", "rule_violation", "count", booking_id=b["id"], count=b["seats"] + 1)
    assert ok(ep, "check_in_booking", booking_id=b["id"], count=b["seats"])["checked_in"] == b["seats"]
    refused(ep, "cancel_booking", "rule_violation", "booking_id", booking_id=b["id"])
    far = every(ep, "list_bookings", availability_id=tomorrow["id"], status="booked")[0]
    refused(ep, "check_in_booking", "rule_violation", "booking_id", booking_id=far["id"], count=1)
    manifest = ok(ep, "departure_manifest", availability_id=now_dep["id"])
    assert manifest["checked_in"] == b["seats"] and manifest["remaining"] == now_dep["capacity"] - now_dep["booked"]


def test_cancelling_a_departure_refunds_all_its_bookings(ep: Episode) -> None:
    a = [x for x in departures(ep, tour(ep, "Food Market")) if x["start_at"] > iso_z(NOW)][-1]
    live = every(ep, "list_bookings", availability_id=a["id"], status="booked")
    assert live
    done = ok(ep, "cancel_availability", availability_id=a["id"])
    assert (done["status"], done["booked"]) == ("cancelled", 0)
    for b in every(ep, "list_bookings", availability_id=a["id"]):
        assert (b["status"], b["refund"]) == ("cancelled", b["total"])
    refused(ep, "update_availability", "rule_violation", "availability_id", availability_id=a["id"], capacity=50)


def test_guides_are_employees_on_one_departure_at_a_time(ep: Episode) -> None:
    walk = tour(ep, "Old Town Walking")
    taken = next(a for a in departures(ep, walk) if a["guide_email"] and a["start_at"] > iso_z(NOW))
    start = dt.datetime.fromisoformat(taken["start_at"].replace("Z", "+00:00")) + dt.timedelta(minutes=30)
    args = {"item_id": tour(ep, "Food Market")["id"], "start_at": iso_z(start), "capacity": 8}
    refused(ep, "create_availability", "conflict", "guide_email", guide_email=taken["guide_email"], **args)
    refused(ep, "create_availability", "rule_violation", "guide_email", guide_email="x@y.io", **args)
    shut = first(ep, "items", active=False)
    refused(ep, "create_availability", "rule_violation", "item_id", **(args | {"item_id": shut["id"]}))
    made = ok(ep, "create_availability", **args)
    assert made["end_at"] == iso_z(start + dt.timedelta(minutes=180))
    openings = ok(ep, "find_openings", item_id=args["item_id"], seats=8, days=30)
    assert made["id"] in [o["availability_id"] for o in openings]


def test_a_customer_quoting_their_voucher_finds_that_one_booking() -> None:
    ep = Episode(WORLD)
    bookings = every(ep, "list_bookings")
    by_contact: dict[str, int] = {}
    for b in bookings:
        by_contact[b["contact_email"]] = by_contact.get(b["contact_email"], 0) + 1
    # A contact may hold several bookings; the voucher they quote names one.
    assert max(by_contact.values()) > 1
    for b in bookings:
        assert [x["id"] for x in every(ep, "list_bookings", voucher=b["voucher"])] == [b["id"]]
    # It is the number a support ticket or an e-mail quotes: an order's number, which walks state.
    tool = TOURS.world.catalog.tools["tours__list_bookings"]
    assert ("voucher", "order_number") in {(p.path, p.semantic) for p in input_ports(tool)}
