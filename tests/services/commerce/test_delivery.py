"""Dashway Drive: quotes that expire, delivery area and radius, dasher dispatch, proof of delivery, cancellation."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.engine.entities import Person
from tests.services.helpers import ServiceTools

DRIVE = ServiceTools("delivery")
WORLD = DRIVE.world
ok, refused, every, seeded = DRIVE.ok, DRIVE.refused, DRIVE.every, DRIVE.seeded
POP = WORLD.population


def store_with_customer(ep: Episode) -> tuple[dict[str, Any], Person]:
    """An active store with a population consumer in its city, close enough to deliver to, and a car dasher."""
    from compoworld.engine.types import PostalAddress
    from compoworld.services.commerce.delivery import MAX_KM, _distance

    for st in every(ep, "list_stores", active=True):
        addr = PostalAddress(**st["address"])
        cars = every(ep, "list_dashers", city=addr.city, status="available", vehicle="car")
        for p in POP.consumers:
            if p.address.city == addr.city and _distance(addr, p.address) <= MAX_KM and cars:
                return st, p
    raise AssertionError("no deliverable customer")


def quote(ep: Episode, ref: str = "D-77001", **changes: Any) -> dict[str, Any]:
    st, p = store_with_customer(ep)
    args: dict[str, Any] = dict(
        store_id=st["id"],
        external_delivery_id=ref,
        dropoff_address=p.address.model_dump(),
        dropoff_contact_name=p.name,
        dropoff_phone=p.phone,
        order_value=5_500,
    )
    args.update(changes)
    return dict(ok(ep, "create_quote", **args))


def car_dasher(ep: Episode, delivery: dict[str, Any]) -> dict[str, Any]:
    city = ok(ep, "get_store", store_id=delivery["store_id"])["address"]["city"]
    return every(ep, "list_dashers", city=city, status="available", vehicle="car")[0]


def new_delivery(ep: Episode, **accept: Any) -> dict[str, Any]:
    q = quote(ep)
    return dict(ok(ep, "accept_quote", quote_id=q["id"], **accept))


# -- the world ---------------------------------------------------------------------------------


def test_stores_are_the_populations_companies_and_dashers_and_customers_its_consumers() -> None:
    companies = {c.name: c for c in POP.companies}
    for st in seeded("stores"):
        assert st["address"] == companies[st["business_name"]].address.model_dump()
    consumers = {p.name: p for p in POP.consumers}
    for d in seeded("dashers"):
        assert consumers[d["name"]].phone == d["phone"] and consumers[d["name"]].place.city == d["city"]
    for d in seeded("deliveries"):
        person = consumers[d["dropoff_contact_name"]]
        assert d["dropoff_address"] == person.address.model_dump()
        assert d["dropoff_address"]["city"] == d["pickup_address"]["city"]


def test_seeded_fees_follow_the_distance_and_busy_dashers_carry_one_delivery() -> None:
    for q in seeded("quotes"):
        assert q["fee"] == 599 + round(85 * q["distance_km"])
    carrying = [d["dasher_id"] for d in seeded("deliveries") if d["status"] in ("enroute_to_pickup", "picked_up")]
    assert len(carrying) == len(set(carrying))
    busy = {d["id"] for d in seeded("dashers") if d["status"] == "on_delivery"}
    assert busy == set(carrying)


# -- quotes ------------------------------------------------------------------------------------


def test_a_quote_is_priced_by_distance_and_holds_five_minutes(ep: Episode) -> None:
    q = quote(ep)
    assert q["fee"] == 599 + round(85 * q["distance_km"])
    assert q["distance_km"] <= 15
    for _ in range(6):  # six other writes: six minutes pass on the episode clock
        quote(ep, ref=f"D-7710{_}")
    msg = refused(ep, "accept_quote", "rule_violation", "quote_id", quote_id=q["id"])
    assert "expired" in msg


def test_accepting_creates_the_delivery_once(ep: Episode) -> None:
    q = quote(ep)
    d = ok(ep, "accept_quote", quote_id=q["id"], tip=250, contactless=True)
    assert (d["status"], d["external_delivery_id"], d["fee"], d["tip"]) == ("created", "D-77001", q["fee"], 250)
    refused(ep, "accept_quote", "conflict", "quote_id", quote_id=q["id"])
    st, p = store_with_customer(ep)
    refused(
        ep,
        "create_quote",
        "conflict",
        "external_delivery_id",
        store_id=st["id"],
        external_delivery_id="D-77001",
        dropoff_address=p.address.model_dump(),
        dropoff_contact_name=p.name,
        dropoff_phone=p.phone,
        order_value=100,
    )


def test_deliveries_stay_in_the_stores_city_and_under_the_value_cap(ep: Episode) -> None:
    st, p = store_with_customer(ep)
    far = next(c for c in POP.consumers if c.address.city != st["address"]["city"])
    base = dict(
        store_id=st["id"],
        external_delivery_id="D-77002",
        dropoff_contact_name=p.name,
        dropoff_phone=p.phone,
    )
    refused(
        ep,
        "create_quote",
        "rule_violation",
        "dropoff_address",
        dropoff_address=far.address.model_dump(),
        order_value=100,
        **base,
    )
    refused(
        ep,
        "create_quote",
        "rule_violation",
        "order_value",
        dropoff_address=p.address.model_dump(),
        order_value=150_001,
        **base,
    )


# -- dispatch and drop-off ---------------------------------------------------------------------


def test_a_dasher_must_be_available_local_and_have_the_range(ep: Episode) -> None:
    d = new_delivery(ep)
    busy = every(ep, "list_dashers", status="on_delivery")[0]
    refused(ep, "assign_dasher", "rule_violation", "dasher_id", delivery_id=d["id"], dasher_id=busy["id"])
    city = ok(ep, "get_store", store_id=d["store_id"])["address"]["city"]
    elsewhere = next(x for x in every(ep, "list_dashers", status="available") if x["city"] != city)
    refused(ep, "assign_dasher", "rule_violation", "dasher_id", delivery_id=d["id"], dasher_id=elsewhere["id"])
    walkers = [x for x in every(ep, "list_dashers", status="available", vehicle="walker") if d["distance_km"] > 2] + [
        x for x in every(ep, "list_dashers", status="available", vehicle="bike") if d["distance_km"] > 8
    ]
    for slow in walkers:
        if slow["city"] == city:
            refused(ep, "assign_dasher", "rule_violation", "dasher_id", delivery_id=d["id"], dasher_id=slow["id"])
    car = car_dasher(ep, d)
    out = ok(ep, "assign_dasher", delivery_id=d["id"], dasher_id=car["id"])
    assert (out["status"], out["dasher_id"]) == ("enroute_to_pickup", car["id"])
    assert ok(ep, "get_dasher", dasher_id=car["id"])["status"] == "on_delivery"
    refused(ep, "go_offline_dasher", "rule_violation", "dasher_id", dasher_id=car["id"])


def test_a_contactless_drop_off_needs_a_photo_and_frees_the_dasher(ep: Episode) -> None:
    d = new_delivery(ep, contactless=True)
    car = car_dasher(ep, d)
    ok(ep, "assign_dasher", delivery_id=d["id"], dasher_id=car["id"])
    refused(ep, "complete_delivery", "rule_violation", "delivery_id", delivery_id=d["id"])  # not picked up
    ok(ep, "mark_picked_up", delivery_id=d["id"])
    refused(ep, "complete_delivery", "rule_violation", "proof_photo_url", delivery_id=d["id"])
    done = ok(ep, "complete_delivery", delivery_id=d["id"], proof_photo_url="https://files.example.com/p/1.jpg")
    assert done["status"] == "delivered" and done["delivered_at"] is not None
    after = ok(ep, "get_dasher", dasher_id=car["id"])
    assert (after["status"], after["completed_deliveries"]) == ("available", car["completed_deliveries"] + 1)


def test_a_signature_needs_the_signers_name(ep: Episode) -> None:
    d = new_delivery(ep, signature_required=True)
    ok(ep, "assign_dasher", delivery_id=d["id"], dasher_id=car_dasher(ep, d)["id"])
    ok(ep, "mark_picked_up", delivery_id=d["id"])
    refused(ep, "complete_delivery", "rule_violation", "signed_by", delivery_id=d["id"])
    assert ok(ep, "complete_delivery", delivery_id=d["id"], signed_by=d["dropoff_contact_name"])["signed_by"]


# -- changes and cancellation ------------------------------------------------------------------


def test_cancelling_is_free_before_dispatch_and_costs_the_fee_after(ep: Episode) -> None:
    free = new_delivery(ep)
    assert ok(ep, "cancel_delivery", delivery_id=free["id"], reason="customer_request")["cancellation_fee"] == 0
    refused(ep, "cancel_delivery", "conflict", "delivery_id", delivery_id=free["id"], reason="other")
    q = quote(ep, ref="D-77003")
    paid = ok(ep, "accept_quote", quote_id=q["id"])
    car = car_dasher(ep, paid)
    ok(ep, "assign_dasher", delivery_id=paid["id"], dasher_id=car["id"])
    out = ok(ep, "cancel_delivery", delivery_id=paid["id"], reason="merchant_request")
    assert out["cancellation_fee"] == paid["fee"]
    assert ok(ep, "get_dasher", dasher_id=car["id"])["status"] == "available"
    view = ok(ep, "track_delivery", external_delivery_id="D-77003")
    assert (view["status"], view["total_charged"]) == ("cancelled", paid["fee"])


def test_after_pickup_nothing_can_be_cancelled_or_changed(ep: Episode) -> None:
    d = every(ep, "list_deliveries", status="picked_up")[0]
    refused(ep, "cancel_delivery", "rule_violation", "delivery_id", delivery_id=d["id"], reason="customer_request")
    refused(ep, "update_delivery", "rule_violation", "delivery_id", delivery_id=d["id"], tip=1_000)
    fresh = new_delivery(ep)
    assert ok(ep, "update_delivery", delivery_id=fresh["id"], tip=900)["tip"] == 900


def test_tracking_shows_the_dasher_and_what_is_charged(ep: Episode) -> None:
    d = next(x for x in seeded("deliveries") if x["status"] == "enroute_to_pickup")
    view = ok(ep, "track_delivery", external_delivery_id=d["external_delivery_id"])
    dasher = ok(ep, "get_dasher", dasher_id=d["dasher_id"])
    assert (view["dasher_name"], view["dasher_phone"]) == (dasher["name"], dasher["phone"])
    assert view["total_charged"] == d["fee"] + d["tip"] and view["dropoff_eta"] is not None
    refused(ep, "track_delivery", "not_found", "external_delivery_id", external_delivery_id="D-00000")
