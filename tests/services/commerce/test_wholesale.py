"""Tradeloft Wholesale: case packs and minimums, credit terms, order states, payouts after commission, returns."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WS = ServiceTools("wholesale")
WORLD = WS.world
ok, refused, every = WS.ok, WS.refused, WS.every
POP = WORLD.population


def fresh_pair(ep: Episode, terms: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """An active retailer on these terms and an active brand it never ordered from."""
    for r in every(ep, "list_retailers", status="active", terms=terms):
        for b in every(ep, "list_brands", status="active"):
            if not every(ep, "list_orders", retailer_id=r["id"], brand_id=b["id"]):
                return r, b
    raise AssertionError("no fresh pair")


def stocked(ep: Episode, brand: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in every(ep, "list_products", brand_id=brand["id"], active=True) if p["stock"] >= 48)


def cases_for(p: dict[str, Any], cents: int) -> int:
    return int(max(1, -(-cents // (p["wholesale_price"] * p["case_pack"]))) * p["case_pack"])


def test_seeded_brands_and_retailers_come_from_the_world_and_credit_adds_up(ep: Episode) -> None:
    names = {c.name for c in POP.companies}
    assert POP.home.name in {b["name"] for b in every(ep, "list_brands")}
    for r in every(ep, "list_retailers"):
        assert r["name"] in names
        assert r["outstanding"] <= r["credit_limit"] or r["terms"] == "prepay"
        owed = sum(
            o["total"]
            for o in every(ep, "list_orders", retailer_id=r["id"])
            if o["state"] not in ("canceled", "delivered") and o["terms"] != "prepay"
        )
        assert r["outstanding"] == owed
    assert {p["sku"] for p in every(ep, "list_products")} == {p.sku for p in POP.products}


def test_orders_come_in_whole_cases_of_the_brands_active_products(ep: Episode) -> None:
    r, b = fresh_pair(ep, "prepay")
    p = next(x for x in every(ep, "list_products", brand_id=b["id"], active=True) if x["case_pack"] > 1)
    qty = cases_for(p, b["opening_minimum"])
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines[0].quantity",
        retailer_id=r["id"],
        brand_id=b["id"],
        lines=[{"product_id": p["id"], "quantity": qty + 1}],
    )
    other = next(x for x in every(ep, "list_products", active=True) if x["brand_id"] != b["id"])
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines[0].product_id",
        retailer_id=r["id"],
        brand_id=b["id"],
        lines=[{"product_id": other["id"], "quantity": other["case_pack"]}],
    )
    made = ok(
        ep, "place_order", retailer_id=r["id"], brand_id=b["id"], lines=[{"product_id": p["id"], "quantity": qty}]
    )
    assert (made["state"], made["is_reorder"], made["total"]) == ("new", False, qty * p["wholesale_price"])


def test_first_orders_meet_the_opening_minimum_and_reorders_the_reorder_minimum(ep: Episode) -> None:
    r, b = fresh_pair(ep, "prepay")
    p = stocked(ep, b)
    small = [{"product_id": p["id"], "quantity": p["case_pack"]}]
    if p["case_pack"] * p["wholesale_price"] < b["opening_minimum"]:
        refused(ep, "place_order", "rule_violation", "lines", retailer_id=r["id"], brand_id=b["id"], lines=small)
    ok(
        ep,
        "place_order",
        retailer_id=r["id"],
        brand_id=b["id"],
        lines=[{"product_id": p["id"], "quantity": cases_for(p, b["opening_minimum"])}],
    )
    again = ok(
        ep,
        "place_order",
        retailer_id=r["id"],
        brand_id=b["id"],
        lines=[{"product_id": p["id"], "quantity": cases_for(p, b["reorder_minimum"])}],
    )
    assert again["is_reorder"] is True


def test_net_terms_orders_must_fit_the_remaining_credit(ep: Episode) -> None:
    r, b = fresh_pair(ep, "net30")
    p = stocked(ep, b)
    room = r["credit_limit"] - r["outstanding"]
    too_much = (room // (p["wholesale_price"] * p["case_pack"]) + 1) * p["case_pack"]
    refused(
        ep,
        "place_order",
        "rule_violation",
        "lines",
        retailer_id=r["id"],
        brand_id=b["id"],
        lines=[{"product_id": p["id"], "quantity": too_much}],
    )
    qty = cases_for(p, b["opening_minimum"])
    made = ok(
        ep, "place_order", retailer_id=r["id"], brand_id=b["id"], lines=[{"product_id": p["id"], "quantity": qty}]
    )
    assert ok(ep, "get_retailer", retailer_id=r["id"])["outstanding"] == r["outstanding"] + made["total"]
    ok(ep, "cancel_order", order_id=made["id"])
    assert ok(ep, "get_retailer", retailer_id=r["id"])["outstanding"] == r["outstanding"]


def test_suspended_retailers_and_paused_brands_take_no_orders(ep: Episode) -> None:
    shut = every(ep, "list_retailers", status="suspended")[0]
    b = every(ep, "list_brands", status="active")[0]
    p = stocked(ep, b)
    refused(
        ep,
        "place_order",
        "rule_violation",
        "retailer_id",
        retailer_id=shut["id"],
        brand_id=b["id"],
        lines=[{"product_id": p["id"], "quantity": p["case_pack"]}],
    )
    paused = every(ep, "list_brands", status="paused")[0]
    r = every(ep, "list_retailers", status="active")[0]
    refused(
        ep,
        "place_order",
        "rule_violation",
        "brand_id",
        retailer_id=r["id"],
        brand_id=paused["id"],
        lines=[{"product_id": p["id"], "quantity": p["case_pack"]}],
    )


def test_accepting_reserves_stock_or_backorders_and_cancel_releases_it(ep: Episode) -> None:
    order = every(ep, "list_orders", state="new")[0]
    before = {ln["product_id"]: ok(ep, "get_product", product_id=ln["product_id"])["stock"] for ln in order["lines"]}
    accepted = ok(ep, "accept_order", order_id=order["id"])
    if accepted["state"] == "processing":
        for ln in order["lines"]:
            assert (
                ok(ep, "get_product", product_id=ln["product_id"])["stock"] == before[ln["product_id"]] - ln["quantity"]
            )
        ok(ep, "cancel_order", order_id=order["id"])
        for ln in order["lines"]:
            assert ok(ep, "get_product", product_id=ln["product_id"])["stock"] == before[ln["product_id"]]
    else:
        assert any(before[ln["product_id"]] < ln["quantity"] for ln in order["lines"])
    shipped = every(ep, "list_orders", state="in_transit")[0]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=shipped["id"])


def test_shipping_creates_the_payout_after_commission(ep: Episode) -> None:
    for order in every(ep, "list_orders", state="processing"):
        payout = ok(ep, "ship_order", order_id=order["id"], tracking_number="1Z999AA10123456784")
        rate = 15.0 if order["is_reorder"] else 25.0
        assert (payout["commission_rate"], payout["amount"]) == (rate, round(order["total"] * (100 - rate) / 100))
        assert ok(ep, "get_order", order_id=order["id"])["state"] == "in_transit"
        refused(ep, "ship_order", "rule_violation", "order_id", order_id=order["id"], tracking_number="1Z999AA1012345")
    moving = every(ep, "list_orders", state="in_transit")[0]
    assert ok(ep, "mark_delivered", order_id=moving["id"])["delivered_at"] is not None


def test_returns_stay_within_the_order_value_and_approval_deducts_the_payout(ep: Episode) -> None:
    order = every(ep, "list_orders", state="delivered")[0]
    refused(ep, "request_return", "rule_violation", "reason", order_id=order["id"], amount=100, reason=" ")
    taken = sum(r["amount"] for r in every(ep, "list_return_requests", order_id=order["id"]))
    refused(
        ep,
        "request_return",
        "rule_violation",
        "amount",
        order_id=order["id"],
        amount=order["total"] - taken + 1,
        reason="All of it",
    )
    ret = ok(ep, "request_return", order_id=order["id"], amount=2000, reason="Wrong color")
    ok(ep, "approve_return", return_id=ret["id"])
    deduction = [p for p in every(ep, "list_payouts", order_id=order["id"]) if p["amount"] < 0]
    rate = 15.0 if order["is_reorder"] else 25.0
    assert [p["amount"] for p in deduction] == [-round(2000 * (100 - rate) / 100)]
    refused(ep, "reject_return", "conflict", "return_id", return_id=ret["id"])
    new = every(ep, "list_orders", state="new")[0]
    refused(ep, "request_return", "rule_violation", "order_id", order_id=new["id"], amount=1, reason="x")


def test_payments_lower_the_balance_and_credit_limits_cover_it(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_retailers") if x["outstanding"] > 0)
    refused(ep, "record_payment", "rule_violation", "amount", retailer_id=r["id"], amount=r["outstanding"] + 1)
    refused(
        ep, "update_retailer", "rule_violation", "credit_limit", retailer_id=r["id"], credit_limit=r["outstanding"] - 1
    )
    assert ok(ep, "record_payment", retailer_id=r["id"], amount=r["outstanding"])["outstanding"] == 0
    refused(
        ep, "update_retailer", "rule_violation", "credit_limit", retailer_id=r["id"], terms="prepay", credit_limit=100
    )
