"""Bazaarly Marketplace: one shop per order, stock limits, vacation, shipping, cancellation, refunds, reviews."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

MARKET = ServiceTools("marketplace")
WORLD = MARKET.world
ok, refused, every, seeded = MARKET.ok, MARKET.refused, MARKET.every, MARKET.seeded
POP = WORLD.population
BUYER = POP.consumers[3]


def open_listing(ep: Episode, min_quantity: int = 2) -> tuple[dict[str, Any], dict[str, Any]]:
    """An active listing with units left, of a shop that is not on vacation."""
    for listing in every(ep, "list_listings", state="active"):
        shop = ok(ep, "get_shop", shop_id=listing["shop_id"])
        if not shop["is_vacation"] and listing["quantity"] >= min_quantity:
            return listing, shop
    raise AssertionError("no listing on sale")


def buy(ep: Episode, listing: dict[str, Any], quantity: int = 1) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "place_order",
            shop_id=listing["shop_id"],
            buyer_email=BUYER.email,
            buyer_name=BUYER.name,
            shipping_address=BUYER.address.model_dump(),
            items=[{"listing_id": listing["id"], "quantity": quantity}],
        )
    )


# -- the world ---------------------------------------------------------------------------------


def test_shops_are_run_by_the_populations_companies_and_buyers_are_consumers() -> None:
    people = {p.email: p for p in POP.people}
    companies = {c.name: c for c in POP.companies}
    for shop in seeded("shops"):
        owner = people[shop["owner_email"]]
        assert owner.name == shop["owner_name"]
        assert POP.company_of(owner) is companies[shop["name"]]
        assert shop["currency"] == companies[shop["name"]].place.currency
    consumers = {p.email: p for p in POP.consumers}
    for order in seeded("orders"):
        assert consumers[order["buyer_email"]].name == order["buyer_name"]
        assert order["shipping_address"] == consumers[order["buyer_email"]].address.model_dump()
    assert {o["status"] for o in seeded("orders")} == {"paid", "shipped", "delivered", "cancelled"}


def test_seeded_totals_fees_and_ratings_add_up() -> None:
    shops = {s["id"]: s for s in seeded("shops")}
    for o in seeded("orders"):
        assert o["subtotal"] == sum(li["price"] * li["quantity"] for li in o["lines"])
        assert o["total"] == o["subtotal"] + o["shipping_cost"]
        kept = o["total"] - o["refunded_total"]
        assert o["marketplace_fee"] == round(kept * shops[o["shop_id"]]["transaction_fee_percent"] / 100)
        assert o["seller_payout"] == kept - o["marketplace_fee"]
        assert o["refunded_total"] == sum(r["amount"] for r in seeded("refunds") if r["order_id"] == o["id"])
    for shop in shops.values():
        stars = [r["rating"] for r in seeded("reviews") if r["shop_id"] == shop["id"]]
        assert shop["review_count"] == len(stars)
        if stars:
            assert shop["review_average"] == round(sum(stars) / len(stars), 2)


def test_the_same_products_and_shoppers_as_the_storefront() -> None:
    both = service_world("marketplace", "shop")
    shop_skus = {v.sku for v in both.tables["shop.variants"].records.values()}
    assert {li.sku for li in both.tables["marketplace.listings"].records.values()} <= shop_skus
    customers = {c.email for c in both.tables["shop.customers"].records.values()}
    assert {o.buyer_email for o in both.tables["marketplace.orders"].records.values()} <= customers


# -- ordering ----------------------------------------------------------------------------------


def test_placing_an_order_takes_the_units_and_computes_totals_and_fee(ep: Episode) -> None:
    listing, shop = open_listing(ep)
    order = buy(ep, listing, 2)
    assert order["status"] == "paid" and order["order_number"].startswith("BZ-")
    assert order["subtotal"] == 2 * listing["price"]
    assert order["total"] == order["subtotal"] + listing["shipping_price"]
    assert order["marketplace_fee"] == round(order["total"] * shop["transaction_fee_percent"] / 100)
    assert order["seller_payout"] == order["total"] - order["marketplace_fee"]
    assert ok(ep, "get_listing", listing_id=listing["id"])["quantity"] == listing["quantity"] - 2


def test_buying_the_last_unit_sells_the_listing_out_and_restocking_puts_it_back(ep: Episode) -> None:
    listing, _ = open_listing(ep)
    buy(ep, listing, listing["quantity"])
    assert ok(ep, "get_listing", listing_id=listing["id"])["state"] == "sold_out"
    refused(
        ep,
        "place_order",
        "rule_violation",
        "items.0.listing_id",
        shop_id=listing["shop_id"],
        buyer_email=BUYER.email,
        buyer_name=BUYER.name,
        shipping_address=BUYER.address.model_dump(),
        items=[{"listing_id": listing["id"], "quantity": 1}],
    )
    back = ok(ep, "update_inventory", listing_id=listing["id"], quantity=5)
    assert (back["state"], back["quantity"]) == ("active", 5)


def test_an_order_cannot_take_more_than_is_left_or_mix_shops(ep: Episode) -> None:
    listing, _ = open_listing(ep)
    other = next(li for li in every(ep, "list_listings", state="active") if li["shop_id"] != listing["shop_id"])
    base = dict(
        shop_id=listing["shop_id"],
        buyer_email=BUYER.email,
        buyer_name=BUYER.name,
        shipping_address=BUYER.address.model_dump(),
    )
    msg = refused(
        ep,
        "place_order",
        "rule_violation",
        "items.0.quantity",
        **base,
        items=[{"listing_id": listing["id"], "quantity": listing["quantity"] + 1}],
    )
    assert f"{listing['quantity']} unit(s) left" in msg
    refused(
        ep,
        "place_order",
        "rule_violation",
        "items.1.listing_id",
        **base,
        items=[{"listing_id": listing["id"], "quantity": 1}, {"listing_id": other["id"], "quantity": 1}],
    )


def test_a_shop_on_vacation_takes_no_orders(ep: Episode) -> None:
    shop = every(ep, "list_shops", is_vacation=True)[0]
    listing = every(ep, "list_listings", shop_id=shop["id"], state="active")[0]
    args = dict(
        shop_id=shop["id"],
        buyer_email=BUYER.email,
        buyer_name=BUYER.name,
        shipping_address=BUYER.address.model_dump(),
        items=[{"listing_id": listing["id"], "quantity": 1}],
    )
    refused(ep, "place_order", "rule_violation", "shop_id", **args)
    ok(ep, "resume_shop", shop_id=shop["id"])
    assert ok(ep, "place_order", **args)["status"] == "paid"


# -- shipping, cancelling, refunding -----------------------------------------------------------


def test_shipping_needs_a_paid_order_and_happens_once(ep: Episode) -> None:
    order = every(ep, "list_orders", status="paid")[0]
    refused(ep, "confirm_delivery", "rule_violation", "order_id", order_id=order["id"])
    shipped = ok(ep, "ship_order", order_id=order["id"], carrier="ups", tracking_number="1Z999AA10123456784")
    assert (shipped["status"], shipped["tracking_number"]) == ("shipped", "1Z999AA10123456784")
    refused(
        ep, "ship_order", "conflict", "order_id", order_id=order["id"], carrier="fedex", tracking_number="123456789012"
    )
    assert ok(ep, "confirm_delivery", order_id=order["id"])["status"] == "delivered"


def test_cancelling_restocks_and_refunds_in_full(ep: Episode) -> None:
    listing, _ = open_listing(ep)
    order = buy(ep, listing, 2)
    cancelled = ok(ep, "cancel_order", order_id=order["id"], reason="out_of_stock")
    assert cancelled["status"] == "cancelled"
    assert (cancelled["refunded_total"], cancelled["marketplace_fee"], cancelled["seller_payout"]) == (
        order["total"],
        0,
        0,
    )
    assert ok(ep, "get_listing", listing_id=listing["id"])["quantity"] == listing["quantity"]
    (refund,) = every(ep, "list_refunds", order_id=order["id"])
    assert (refund["amount"], refund["reason"]) == (order["total"], "cancellation")
    refused(ep, "refund_order", "rule_violation", "order_id", order_id=order["id"], amount=1, reason="goodwill")


def test_a_shipped_order_cannot_be_cancelled(ep: Episode) -> None:
    order = every(ep, "list_orders", status="shipped")[0]
    msg = refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order["id"])
    assert "already shipped" in msg


def test_refunds_never_exceed_what_the_buyer_paid(ep: Episode) -> None:
    order = next(o for o in every(ep, "list_orders", status="delivered") if o["refunded_total"] == 0)
    shop = ok(ep, "get_shop", shop_id=order["shop_id"])
    refused(
        ep,
        "refund_order",
        "rule_violation",
        "amount",
        order_id=order["id"],
        amount=order["total"] + 1,
        reason="damaged",
    )
    ok(ep, "refund_order", order_id=order["id"], amount=order["total"] // 2, reason="damaged")
    after = ok(ep, "get_order", order_id=order["id"])
    kept = order["total"] - order["total"] // 2
    assert after["marketplace_fee"] == round(kept * shop["transaction_fee_percent"] / 100)
    assert after["seller_payout"] == kept - after["marketplace_fee"]
    left = order["total"] - order["total"] // 2
    refused(ep, "refund_order", "rule_violation", "amount", order_id=order["id"], amount=left + 1, reason="damaged")
    ok(ep, "refund_order", order_id=order["id"], amount=left, reason="goodwill")


# -- reviews -----------------------------------------------------------------------------------


def test_only_the_buyer_of_a_delivered_order_reviews_it_once(ep: Episode) -> None:
    reviewed = {(r["order_id"], r["listing_id"]) for r in every(ep, "list_reviews")}
    order = next(
        o
        for o in every(ep, "list_orders", status="delivered")
        if (o["id"], o["lines"][0]["listing_id"]) not in reviewed
    )
    lid = order["lines"][0]["listing_id"]
    shop = ok(ep, "get_shop", shop_id=order["shop_id"])
    refused(
        ep, "leave_review", "rule_violation", "buyer_email", order_id=order["id"], listing_id=lid,
        buyer_email=POP.consumers[-1].email, rating=5,
    )  # fmt: skip
    ok(ep, "leave_review", order_id=order["id"], listing_id=lid, buyer_email=order["buyer_email"], rating=1)
    after = ok(ep, "get_shop", shop_id=shop["id"])
    total = shop["review_average"] * shop["review_count"] + 1
    assert after["review_count"] == shop["review_count"] + 1
    assert after["review_average"] == round(total / after["review_count"], 2)
    refused(
        ep, "leave_review", "conflict", "listing_id", order_id=order["id"], listing_id=lid,
        buyer_email=order["buyer_email"], rating=4,
    )  # fmt: skip


def test_an_undelivered_order_cannot_be_reviewed(ep: Episode) -> None:
    order = every(ep, "list_orders", status="shipped")[0]
    refused(
        ep, "leave_review", "rule_violation", "order_id", order_id=order["id"],
        listing_id=order["lines"][0]["listing_id"], buyer_email=order["buyer_email"], rating=5,
    )  # fmt: skip


# -- listings ----------------------------------------------------------------------------------


def test_listing_rules_sku_per_shop_stock_to_activate_and_deleting(ep: Episode) -> None:
    listing, _ = open_listing(ep)
    other_shop = next(s for s in every(ep, "list_shops") if s["id"] != listing["shop_id"])
    new = dict(title="Hand-thrown mug", sku=listing["sku"], category="home", price=2_400, quantity=0)
    refused(ep, "create_listing", "conflict", "sku", shop_id=listing["shop_id"], **new)
    draft = ok(ep, "create_listing", shop_id=other_shop["id"], **{**new, "sku": "MUG-0001"})
    assert draft["state"] == "draft"
    refused(ep, "activate_listing", "rule_violation", "listing_id", listing_id=draft["id"])
    refused(ep, "delete_listing", "rule_violation", "listing_id", listing_id=listing["id"])
    ok(ep, "update_inventory", listing_id=draft["id"], quantity=4)
    assert ok(ep, "activate_listing", listing_id=draft["id"])["state"] == "active"


def test_shop_sales_sum_its_orders(ep: Episode) -> None:
    shop = seeded("shops")[0]
    sales = ok(ep, "shop_sales", shop_id=shop["id"])
    mine = [o for o in seeded("orders") if o["shop_id"] == shop["id"]]
    assert sales["orders"] == len(mine)
    assert sales["gross_sales"] == sum(o["total"] for o in mine)
    assert sales["payout"] == sales["gross_sales"] - sales["refunded"] - sales["fees"]
    assert set(sales["to_ship"]) == {o["order_number"] for o in mine if o["status"] == "paid"}
