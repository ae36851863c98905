"""Freshfold: route windows, the order pipeline, per-pound pricing, delivery charges with credit, refunds."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LAUNDRY = ServiceTools("laundry")
WORLD = LAUNDRY.world
ok, refused, every, first = LAUNDRY.ok, LAUNDRY.refused, LAUNDRY.every, LAUNDRY.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def next_day(weekday: str, weeks: int = 2) -> str:
    base = TODAY + dt.timedelta(days=7 * weeks)
    return (base + dt.timedelta(days=(DAYS.index(weekday) - base.weekday()) % 7)).isoformat()


def customer_and_window(ep: Episode, zone: str = "north") -> tuple[dict[str, Any], dict[str, Any]]:
    c = first(ep, "customers", zone=zone)
    w = first(ep, "windows", zone=zone, weekday="tuesday")
    return c, w


def test_seeded_customers_are_consumers_and_delivered_orders_were_charged(ep: Episode) -> None:
    consumers = {p.email: p.name for p in POP.consumers}
    for c in every(ep, "list_customers"):
        assert consumers[c["email"]] == c["name"]
    for o in every(ep, "list_orders", status="delivered"):
        assert o["charged"] + o["credit_applied"] == o["total"] > 0


def test_pickups_fit_the_window_day_zone_and_capacity(ep: Episode) -> None:
    c, w = customer_and_window(ep)
    base = {"customer_id": c["id"], "window_id": w["id"], "service_kind": "wash_fold"}
    refused(ep, "schedule_pickup", "rule_violation", "pickup_date", pickup_date=next_day("wednesday"), **base)
    refused(ep, "schedule_pickup", "rule_violation", "pickup_date", pickup_date=TODAY.isoformat(), **base)
    south = first(ep, "windows", zone="south", weekday="tuesday")
    refused(
        ep,
        "schedule_pickup",
        "rule_violation",
        "window_id",
        pickup_date=next_day("tuesday"),
        **(base | {"window_id": south["id"]}),
    )
    for _ in range(w["capacity"]):
        ok(ep, "schedule_pickup", pickup_date=next_day("tuesday"), **base)
    refused(ep, "schedule_pickup", "conflict", "window_id", pickup_date=next_day("tuesday"), **base)


def test_only_scheduled_orders_move_or_cancel(ep: Episode) -> None:
    c, w = customer_and_window(ep)
    o = ok(
        ep,
        "schedule_pickup",
        customer_id=c["id"],
        window_id=w["id"],
        pickup_date=next_day("tuesday"),
        service_kind="dry_clean",
    )
    moved = ok(ep, "reschedule_pickup", order_id=o["id"], window_id=w["id"], pickup_date=next_day("tuesday", 3))
    assert moved["pickup_date"] == next_day("tuesday", 3)
    assert ok(ep, "cancel_order", order_id=o["id"])["status"] == "cancelled"
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=first(ep, "orders", status="weighed")["id"])


def test_weighing_prices_by_the_pound_with_minimum_and_express(ep: Episode) -> None:
    assert ok(ep, "quote_price", service_kind="wash_fold", weight_lbs=20)["subtotal"] == 3900
    assert ok(ep, "quote_price", service_kind="wash_fold", weight_lbs=5)["subtotal"] == 3000
    assert ok(ep, "quote_price", service_kind="wash_fold", weight_lbs=20, express=True)["total"] == 5850 + 499
    o = first(ep, "orders", status="picked_up")
    weighed = ok(ep, "weigh_order", order_id=o["id"], weight_lbs=30)
    rate = {"wash_fold": 195, "dry_clean": 450, "mixed": 275}[o["service_kind"]]
    expected = max(30 * rate, 3000)
    expected = round(expected * 1.5) if o["express"] else expected
    assert (weighed["subtotal"], weighed["total"]) == (expected, expected + 499)
    refused(ep, "weigh_order", "rule_violation", "order_id", order_id=o["id"], weight_lbs=10)


def test_the_order_moves_through_the_pipeline_in_order(ep: Episode) -> None:
    o = first(ep, "orders", status="weighed")
    refused(ep, "mark_ready_order", "rule_violation", "order_id", order_id=o["id"])
    ok(ep, "start_processing_order", order_id=o["id"])
    ok(ep, "mark_ready_order", order_id=o["id"])
    refused(ep, "deliver_order", "rule_violation", "order_id", order_id=o["id"])
    ok(ep, "dispatch_order", order_id=o["id"])
    assert ok(ep, "deliver_order", order_id=o["id"])["status"] == "delivered"


def test_pickup_is_recorded_on_or_after_its_day(ep: Episode) -> None:
    later = next(o for o in every(ep, "list_orders", status="scheduled") if o["pickup_date"] > TODAY.isoformat())
    refused(ep, "record_pickup", "rule_violation", "order_id", order_id=later["id"], bags=2)
    today = next(o for o in every(ep, "list_orders", status="scheduled") if o["pickup_date"] == TODAY.isoformat())
    assert ok(ep, "record_pickup", order_id=today["id"], bags=3)["bags"] == 3


def test_delivery_uses_account_credit_first(ep: Episode) -> None:
    o = first(ep, "orders", status="out_for_delivery")
    c = ok(ep, "get_customer", customer_id=o["customer_id"])
    assert c["credit"] > 0
    done = ok(ep, "deliver_order", order_id=o["id"])
    used = min(c["credit"], o["total"])
    assert (done["credit_applied"], done["charged"]) == (used, o["total"] - used)
    assert ok(ep, "get_customer", customer_id=c["id"])["credit"] == c["credit"] - used


def test_refunds_never_exceed_what_was_paid(ep: Episode) -> None:
    o = next(x for x in every(ep, "list_orders", status="delivered") if x["refunded"])
    left = o["total"] - o["refunded"]
    refused(
        ep,
        "issue_refund",
        "rule_violation",
        "amount",
        order_id=o["id"],
        amount=left + 1,
        method="credit",
        reason="quality",
    )
    refused(
        ep,
        "issue_refund",
        "rule_violation",
        "order_id",
        order_id=first(ep, "orders", status="ready")["id"],
        amount=100,
        method="card",
        reason="quality",
    )
    c = ok(ep, "get_customer", customer_id=o["customer_id"])
    ok(ep, "issue_refund", order_id=o["id"], amount=left, method="credit", reason="damaged_item")
    assert ok(ep, "get_customer", customer_id=c["id"])["credit"] == c["credit"] + left
    refused(ep, "issue_refund", "rule_violation", "amount", order_id=o["id"], amount=1, method="card", reason="other")
