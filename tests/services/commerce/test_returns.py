"""Loopback Returns: the return window, final sale and quantities, outcomes and their amounts, labels, restocking."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world.commerce import first_order_numbers
from tests.services.helpers import ServiceTools

RETURNS = ServiceTools("returns")
WORLD = RETURNS.world
ok, refused, every = RETURNS.ok, RETURNS.refused, RETURNS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def order(ep: Episode, number: str) -> dict[str, Any]:
    return every(ep, "list_orders", order_number=number)[0]


def product(ep: Episode, sku: str) -> dict[str, Any]:
    return every(ep, "list_products", sku=sku)[0]


def item(sku: str, quantity: int = 1, reason: str = "too_small") -> dict[str, Any]:
    return {"sku": sku, "quantity": quantity, "reason": reason}


def start(ep: Episode, number: str, sku: str, outcome: str = "refund", **extra: Any) -> Any:
    return ok(ep, "create_return", order_id=order(ep, number)["id"], items=[item(sku)], outcome=outcome, **extra)


def test_orders_carry_the_shops_order_numbers_and_closed_returns_add_up() -> None:
    ep = Episode(WORLD)
    numbers = first_order_numbers(POP)
    for o in every(ep, "list_orders"):
        assert numbers[o["customer_email"]] == o["order_number"]
        assert o["total_cents"] == sum(li["price_cents"] * li["quantity"] for li in o["lines"])
    for r in every(ep, "list_returns", status="closed"):
        if r["outcome"] == "refund":
            assert r["refund_cents"] == r["items_total_cents"] - r["restocking_fee_cents"]
        else:
            assert r["store_credit_cents"] == r["items_total_cents"] + r["bonus_cents"]
    assert {r["status"] for r in every(ep, "list_returns")} == {
        "open",
        "approved",
        "received",
        "closed",
        "rejected",
        "cancelled",
    }


def test_returns_open_on_delivery_and_close_with_the_window(ep: Episode) -> None:
    late = next(o for o in every(ep, "list_orders") if o["delivered_on"] and o["delivered_on"] < "2026-01-31")
    check = ok(ep, "check_eligibility", order_id=late["id"])
    assert not check["within_window"] and {li["reason"] for li in check["lines"]} <= {
        "final sale",
        "return window closed",
    }
    sku = late["lines"][0]["sku"]
    refused(ep, "create_return", "rule_violation", "order_id", order_id=late["id"], items=[item(sku)], outcome="refund")
    pending = next(o for o in every(ep, "list_orders") if o["delivered_on"] is None)
    refused(
        ep,
        "create_return",
        "rule_violation",
        "order_id",
        order_id=pending["id"],
        items=[item(pending["lines"][0]["sku"])],
        outcome="refund",
    )
    pol = RETURNS.seeded("policies")[0]
    ok(ep, "update_policy", policy_id=pol["id"], return_window_days=90)
    assert ok(ep, "check_eligibility", order_id=late["id"])["within_window"]


def test_final_sale_items_and_units_already_returned_cannot_be_returned(ep: Episode) -> None:
    mixed = order(ep, "#1003")
    final = next(li["sku"] for li in mixed["lines"] if li["final_sale"])
    refused(ep, "create_return", "rule_violation", "items", order_id=mixed["id"], items=[item(final)], outcome="refund")
    refused(
        ep, "create_return", "rule_violation", "items", order_id=mixed["id"], items=[item("ZZZ-999")], outcome="refund"
    )
    # #1002 bought two OUT-1004 and one of them is in an open return
    two = order(ep, "#1002")
    refused(
        ep,
        "create_return",
        "rule_violation",
        "items",
        order_id=two["id"],
        items=[item("OUT-1004", 2)],
        outcome="refund",
    )
    refused(
        ep,
        "create_return",
        "rule_violation",
        "items",
        order_id=two["id"],
        items=[item("OUT-1004"), item("OUT-1004")],
        outcome="refund",
    )
    ok(ep, "create_return", order_id=two["id"], items=[item("OUT-1004")], outcome="refund")
    lines = {li["sku"]: li for li in ok(ep, "check_eligibility", order_id=two["id"])["lines"]}
    assert (lines["OUT-1004"]["returnable_quantity"], lines["OUT-1004"]["reason"]) == (0, "already returned")


def test_rejected_and_cancelled_returns_free_their_items(ep: Episode) -> None:
    rejected = every(ep, "list_returns", status="rejected")[0]
    sku = rejected["items"][0]["sku"]
    bought = next(li["quantity"] for li in order(ep, rejected["order_number"])["lines"] if li["sku"] == sku)
    ok(ep, "create_return", order_id=rejected["order_id"], items=[item(sku, bought)], outcome="store_credit")
    opened = every(ep, "list_returns", status="open", outcome="refund")[0]
    assert ok(ep, "cancel_return", return_id=opened["id"])["status"] == "cancelled"
    again = ok(
        ep, "create_return", order_id=opened["order_id"], items=[item(opened["items"][0]["sku"])], outcome="refund"
    )
    assert again["status"] == "open"
    received = every(ep, "list_returns", status="received")[0]
    refused(ep, "cancel_return", "rule_violation", "return_id", return_id=received["id"])


def test_each_outcome_prices_the_return_by_the_policy(ep: Episode) -> None:
    refund = start(ep, "#1003", "OUT-1009")
    assert refund["restocking_fee_cents"] == round(refund["items_total_cents"] * 0.10)
    credit = start(ep, "#1008", "ELE-1026", "store_credit")
    assert (credit["bonus_cents"], credit["restocking_fee_cents"]) == (round(credit["items_total_cents"] * 0.05), 0)
    refused(
        ep,
        "create_return",
        "rule_violation",
        "exchange_sku",
        order_id=order(ep, "#1008")["id"],
        items=[item("ELE-1026")],
        outcome="exchange",
    )
    refused(
        ep,
        "create_return",
        "rule_violation",
        "exchange_sku",
        order_id=order(ep, "#1008")["id"],
        items=[item("ELE-1026")],
        outcome="exchange",
        exchange_sku="APP-1005",
    )
    refused(
        ep,
        "create_return",
        "rule_violation",
        "exchange_sku",
        order_id=order(ep, "#1008")["id"],
        items=[item("ELE-1026")],
        outcome="refund",
        exchange_sku="ELE-1001",
    )


def test_approval_issues_a_label_unless_the_item_is_cheap_enough_to_keep(ep: Episode) -> None:
    opened = every(ep, "list_returns", status="open", outcome="refund")[0]
    approved = ok(ep, "approve_return", return_id=opened["id"], carrier="fedex")
    assert approved["status"] == "approved" and approved["label"]["carrier"] == "fedex"
    assert approved["label"]["tracking_number"] in approved["label"]["label_url"]
    refused(ep, "approve_return", "conflict", "return_id", return_id=opened["id"])
    cheap = start(ep, "#1009", "HOM-1028", "store_credit")
    kept = ok(ep, "approve_return", return_id=cheap["id"])
    assert (kept["status"], kept["keep_item"], kept["label"]) == ("received", True, None)
    assert ok(ep, "close_return", return_id=cheap["id"])["store_credit_cents"] == 2600 + 130


def test_receiving_restocks_the_items_fit_to_sell(ep: Episode) -> None:
    opened = every(ep, "list_returns", status="open")[0]
    refused(ep, "receive_return", "rule_violation", "return_id", return_id=opened["id"])
    approved = every(ep, "list_returns", status="approved", outcome="store_credit")[0]
    sku = approved["items"][0]["sku"]
    refused(ep, "receive_return", "rule_violation", "restock_skus", return_id=approved["id"], restock_skus=["ELE-1001"])
    before = product(ep, sku)["stock"]
    got = ok(ep, "receive_return", return_id=approved["id"], restock_skus=[sku])
    assert got["status"] == "received" and got["items"][0]["restocked"] is True
    assert product(ep, sku)["stock"] == before + 1
    closed = ok(ep, "close_return", return_id=approved["id"])
    assert closed["store_credit_cents"] == closed["items_total_cents"] + closed["bonus_cents"]
    refused(ep, "close_return", "rule_violation", "return_id", return_id=approved["id"])


def test_an_exchange_ships_from_stock_and_settles_the_price_difference(ep: Episode) -> None:
    swap = every(ep, "list_returns", status="approved", outcome="exchange")[0]
    refused(ep, "close_return", "rule_violation", "return_id", return_id=swap["id"])
    ok(ep, "receive_return", return_id=swap["id"])
    new = product(ep, swap["exchange_sku"])
    closed = ok(ep, "close_return", return_id=swap["id"])
    diff = new["price_cents"] - swap["items_total_cents"]
    assert (closed["upsell_cents"], closed["store_credit_cents"]) == (max(diff, 0), max(-diff, 0))
    assert product(ep, swap["exchange_sku"])["stock"] == new["stock"] - 1
    assert closed["items"][0]["restocked"] is False


def test_rejecting_needs_a_reason_and_exchanges_cannot_be_turned_off_midway(ep: Episode) -> None:
    opened = every(ep, "list_returns", status="open")[0]
    refused(ep, "reject_return", "rule_violation", "reason", return_id=opened["id"], reason="  ")
    assert ok(ep, "reject_return", return_id=opened["id"], reason="Worn")["status"] == "rejected"
    refused(ep, "reject_return", "conflict", "return_id", return_id=opened["id"], reason="Worn")
    pol = RETURNS.seeded("policies")[0]
    refused(ep, "update_policy", "rule_violation", "exchanges_enabled", policy_id=pol["id"], exchanges_enabled=False)
