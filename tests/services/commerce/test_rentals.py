"""Hireloop Rentals: availability without double booking (lag time counted), the order life cycle, deposits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RENTALS = ServiceTools("rentals")
WORLD = RENTALS.world
ok, refused, every = RENTALS.ok, RENTALS.refused, RENTALS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def at(days: int, hour: int = 9) -> str:
    return dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC).isoformat()


def product(ep: Episode, sku: str) -> dict[str, Any]:
    return every(ep, "list_products", sku=sku)[0]


def item(ep: Episode, identifier: str) -> dict[str, Any]:
    return every(ep, "list_stock_items", identifier=identifier)[0]


def order_no(ep: Episode, number: int) -> dict[str, Any]:
    return next(o for o in every(ep, "list_orders") if o["number"] == number)


def new_order(ep: Episode, sku: str, units: int, starts: str, stops: str, customer: int = 0) -> Any:
    who = every(ep, "list_customers")[customer]
    lines = [{"product_id": product(ep, sku)["id"], "quantity": units}]
    return ok(ep, "create_order", customer_id=who["id"], starts_at=starts, stops_at=stops, lines=lines)


def test_customers_come_from_the_population_and_seeded_bookings_never_overlap() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for c in every(ep, "list_customers"):
        assert c["name"] == people[c["email"]].name
        assert (c["company_name"] is not None) == (c["discount_percent"] == 10)
    products = {p["id"]: p for p in every(ep, "list_products")}
    holding = [o for o in every(ep, "list_orders") if o["status"] in ("reserved", "started")]
    for o in every(ep, "list_orders"):
        line = o["lines"][0]
        assert line["total_cents"] == line["price_per_day_cents"] * line["quantity"] * o["days"]
        assert o["deposit_cents"] == products[line["product_id"]]["deposit_cents"] * line["quantity"]
    for a in holding:
        for b in holding:
            if a["id"] < b["id"] and set(a["stock_item_ids"]) & set(b["stock_item_ids"]):
                assert a["stops_at"] <= b["starts_at"] or b["stops_at"] <= a["starts_at"]


def test_availability_counts_overlapping_bookings_and_the_lag_time(ep: Episode) -> None:
    cam = product(ep, "CAM-MLK")
    busy = ok(ep, "check_availability", product_id=cam["id"], starts_at=at(1), stops_at=at(3))
    assert (busy["stock_count"], busy["booked"], busy["available"]) == (4, 3, 1)
    assert busy["free_stock_item_ids"] == [item(ep, "CAM-MLK-003")["id"]]
    # order 1001 returns two cameras at day 2 09:00; the 24-hour lag keeps them until day 3 09:00
    lag = ok(ep, "check_availability", product_id=cam["id"], starts_at=at(3, 8), stops_at=at(3, 20))
    assert item(ep, "CAM-MLK-001")["id"] not in lag["free_stock_item_ids"]
    after = ok(ep, "check_availability", product_id=cam["id"], starts_at=at(3, 10), stops_at=at(3, 20))
    assert item(ep, "CAM-MLK-001")["id"] in after["free_stock_item_ids"]
    refused(
        ep, "check_availability", "rule_violation", "stops_at", product_id=cam["id"], starts_at=at(3), stops_at=at(2)
    )


def test_reserving_books_the_first_free_items_and_refuses_a_shortage(ep: Episode) -> None:
    two = new_order(ep, "CAM-MLK", 2, at(1), at(3))
    refused(ep, "reserve_order", "rule_violation", "order_id", order_id=two["id"])
    one = new_order(ep, "CAM-MLK", 1, at(1), at(3))
    reserved = ok(ep, "reserve_order", order_id=one["id"])
    assert (reserved["status"], reserved["stock_item_ids"]) == ("reserved", [item(ep, "CAM-MLK-003")["id"]])
    refused(ep, "reserve_order", "conflict", "order_id", order_id=one["id"])
    cam = product(ep, "CAM-MLK")
    assert ok(ep, "check_availability", product_id=cam["id"], starts_at=at(1), stops_at=at(3))["available"] == 0


def test_a_named_stock_item_cannot_be_double_booked(ep: Episode) -> None:
    clash = new_order(ep, "CAM-MLK", 1, at(3, 8), at(4))
    first = item(ep, "CAM-MLK-001")["id"]
    refused(ep, "reserve_order", "rule_violation", "stock_item_ids", order_id=clash["id"], stock_item_ids=[first])
    refused(
        ep,
        "reserve_order",
        "rule_violation",
        "stock_item_ids",
        order_id=clash["id"],
        stock_item_ids=[item(ep, "PROJ-4K-002")["id"]],
    )
    refused(
        ep,
        "reserve_order",
        "rule_violation",
        "stock_item_ids",
        order_id=clash["id"],
        stock_item_ids=[first, item(ep, "CAM-MLK-002")["id"]],
    )
    later = new_order(ep, "CAM-MLK", 1, at(3, 10), at(4))
    assert ok(ep, "reserve_order", order_id=later["id"], stock_item_ids=[first])["stock_item_ids"] == [first]


def test_an_order_starts_only_with_every_item_at_hand(ep: Episode) -> None:
    fresh = new_order(ep, "CAM-MLK", 1, at(3, 10), at(4))
    refused(ep, "start_order", "rule_violation", "order_id", order_id=fresh["id"])
    first = item(ep, "CAM-MLK-001")["id"]
    ok(ep, "reserve_order", order_id=fresh["id"], stock_item_ids=[first])
    refused(ep, "start_order", "rule_violation", "order_id", order_id=fresh["id"])
    out = order_no(ep, 1001)
    assert ok(ep, "stop_order", order_id=out["id"])["status"] == "stopped"
    assert ok(ep, "start_order", order_id=fresh["id"])["status"] == "started"
    speakers = order_no(ep, 1011)
    broken = item(ep, "PA-SPK-003")
    ok(ep, "reserve_order", order_id=speakers["id"], stock_item_ids=[item(ep, "PA-SPK-001")["id"], broken["id"]])
    refused(ep, "start_order", "rule_violation", "order_id", order_id=speakers["id"])


def test_the_deposit_is_refunded_once_after_the_return_less_damage(ep: Episode) -> None:
    out = order_no(ep, 1001)
    refused(ep, "release_deposit", "rule_violation", "order_id", order_id=out["id"])
    ok(ep, "stop_order", order_id=out["id"])
    refused(ep, "stop_order", "rule_violation", "order_id", order_id=out["id"])
    deposit = out["deposit_cents"]
    refused(
        ep,
        "release_deposit",
        "rule_violation",
        "retained_cents",
        order_id=out["id"],
        retained_cents=deposit + 1,
        reason="x",
    )
    refused(ep, "release_deposit", "rule_violation", "reason", order_id=out["id"], retained_cents=5_000)
    done = ok(ep, "release_deposit", order_id=out["id"], retained_cents=5_000, reason="Scratched lens")
    assert (done["deposit_status"], done["deposit_refunded_cents"]) == ("refunded", deposit - 5_000)
    refused(ep, "release_deposit", "conflict", "order_id", order_id=out["id"])


def test_payments_cover_price_and_deposit_and_never_more(ep: Episode) -> None:
    unpaid = order_no(ep, 1004)
    owed = unpaid["price_cents"] + unpaid["deposit_cents"]
    refused(ep, "record_payment", "rule_violation", "amount_cents", order_id=unpaid["id"], amount_cents=owed + 1)
    part = ok(ep, "record_payment", order_id=unpaid["id"], amount_cents=unpaid["price_cents"])
    assert part["deposit_status"] == "none"
    full = ok(ep, "record_payment", order_id=unpaid["id"], amount_cents=unpaid["deposit_cents"])
    assert (full["paid_cents"], full["deposit_status"]) == (owed, "held")
    canceled = every(ep, "list_orders", status="canceled")[0]
    refused(ep, "record_payment", "rule_violation", "order_id", order_id=canceled["id"], amount_cents=100)


def test_canceling_frees_the_items_and_started_orders_cannot_be_canceled(ep: Episode) -> None:
    cam = product(ep, "CAM-MLK")
    held = order_no(ep, 1012)
    canceled = ok(ep, "cancel_order", order_id=held["id"])
    assert (canceled["status"], canceled["stock_item_ids"]) == ("canceled", [])
    assert ok(ep, "check_availability", product_id=cam["id"], starts_at=at(1), stops_at=at(3))["available"] == 2
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order_no(ep, 1001)["id"])


def test_rescheduling_reprices_and_keeps_the_items_only_if_they_are_free(ep: Episode) -> None:
    held = order_no(ep, 1004)  # CAM-MLK-003, days 4 to 7
    other = new_order(ep, "CAM-MLK", 1, at(1), at(3))
    ok(ep, "reserve_order", order_id=other["id"], stock_item_ids=held["stock_item_ids"])
    refused(ep, "reschedule_order", "rule_violation", "starts_at", order_id=held["id"], starts_at=at(1), stops_at=at(3))
    moved = ok(ep, "reschedule_order", order_id=held["id"], starts_at=at(10), stops_at=at(15))
    assert (moved["days"], moved["price_cents"]) == (5, 5 * held["lines"][0]["price_per_day_cents"])
    assert moved["stock_item_ids"] == held["stock_item_ids"]
    refused(
        ep,
        "reschedule_order",
        "rule_violation",
        "order_id",
        order_id=order_no(ep, 1001)["id"],
        starts_at=at(1),
        stops_at=at(3),
    )


def test_items_out_or_booked_keep_their_status(ep: Episode) -> None:
    out = item(ep, "CAM-MLK-001")
    refused(ep, "update_stock_item", "rule_violation", "status", stock_item_id=out["id"], status="maintenance")
    booked = item(ep, "CAM-MLK-004")
    refused(ep, "update_stock_item", "rule_violation", "status", stock_item_id=booked["id"], status="retired")
    assert ok(ep, "update_stock_item", stock_item_id=booked["id"], status="maintenance")["status"] == "maintenance"
    refused(ep, "start_order", "rule_violation", "order_id", order_id=order_no(ep, 1012)["id"])


def test_new_orders_are_priced_per_started_day_with_the_customers_discount(ep: Episode) -> None:
    business = next(k for k, c in enumerate(every(ep, "list_customers")) if c["discount_percent"])
    made = new_order(ep, "TENT-4P", 2, at(20), at(22, 10), customer=business)
    gross = 3 * 2 * product(ep, "TENT-4P")["price_per_day_cents"]
    assert (made["days"], made["price_cents"], made["status"]) == (3, gross - round(gross * 0.1), "new")
    who = every(ep, "list_customers")[0]["id"]
    tent = product(ep, "TENT-4P")["id"]
    refused(
        ep,
        "create_order",
        "rule_violation",
        "starts_at",
        customer_id=who,
        starts_at=at(-2),
        stops_at=at(1),
        lines=[{"product_id": tent, "quantity": 1}],
    )
    refused(
        ep,
        "create_order",
        "rule_violation",
        "lines",
        customer_id=who,
        starts_at=at(2),
        stops_at=at(3),
        lines=[{"product_id": tent, "quantity": 1}, {"product_id": tent, "quantity": 1}],
    )
    refused(ep, "create_customer", "conflict", "email", name="Someone", email=every(ep, "list_customers")[0]["email"])
