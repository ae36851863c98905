"""Storefront: stock-checked orders, cancellation with restock, fulfillments, refunds and inventory rules."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SHOP = ServiceTools("shop")
WORLD = SHOP.world
ok, refused, seeded = SHOP.ok, SHOP.refused, SHOP.seeded


def level(ep: Episode, variant_id: str, location_id: str) -> int:
    items = ok(ep, "list_inventory_levels", variant_id=variant_id, location_id=location_id)["items"]
    return int(items[0]["available"]) if items else 0


def stocked_variant(min_available: int = 3) -> tuple[str, str, int]:
    """(variant id, active location id, available) of an orderable variant with stock."""
    active_products = {p["id"] for p in seeded("products", lambda p: p["status"] == "active")}
    variants = {v["id"]: v for v in seeded("variants", lambda v: v["product_id"] in active_products)}
    active_locations = {loc["id"] for loc in seeded("locations", lambda loc: loc["active"])}
    for lv in seeded("inventory_levels"):
        if lv["variant_id"] in variants and lv["location_id"] in active_locations and lv["available"] >= min_available:
            return lv["variant_id"], lv["location_id"], lv["available"]
    raise AssertionError("no stocked variant")


def has_fulfillment(order_id: str, **match: Any) -> bool:
    return bool(
        seeded(
            "fulfillments",
            lambda f: (
                f["order_id"] == order_id and f["status"] == "success" and all(f[k] == v for k, v in match.items())
            ),
        )
    )


def open_paid_unshipped_order() -> dict[str, Any]:
    return seeded(
        "orders",
        lambda o: (
            o["status"] == "open"
            and o["financial_status"] == "paid"
            and o["fulfillment_status"] == "unfulfilled"
            and not has_fulfillment(o["id"])
        ),
    )[0]


def customer_id() -> str:
    return str(seeded("customers")[0]["id"])


# -- orders --------------------------------------------------------------------------------


def test_an_order_takes_its_units_out_of_the_locations_stock() -> None:
    ep = Episode(WORLD)
    variant, loc, available = stocked_variant()
    price = seeded("variants", lambda v: v["id"] == variant)[0]["price"]
    order = ok(
        ep,
        "create_order",
        customer_id=customer_id(),
        line_items=[{"variant_id": variant, "quantity": 2}],
        location_id=loc,
        shipping_price=499,
    )
    assert order["order_number"] == f"#1{len(seeded('orders')) + 1:03d}"
    assert order["subtotal_price"] == 2 * price
    assert order["total_price"] == 2 * price + 499
    assert order["financial_status"] == "paid"
    assert level(ep, variant, loc) == available - 2
    counts = ep.diff().counts()
    assert counts == {
        "shop.inventory_levels": {"added": 0, "updated": 1, "removed": 0},
        "shop.orders": {"added": 1, "updated": 0, "removed": 0},
    }


def test_repeated_variants_on_an_order_are_summed_into_one_line() -> None:
    ep = Episode(WORLD)
    variant, loc, available = stocked_variant()
    order = ok(
        ep,
        "create_order",
        customer_id=customer_id(),
        line_items=[{"variant_id": variant, "quantity": 1}, {"variant_id": variant, "quantity": 2}],
        location_id=loc,
    )
    assert [(li["variant_id"], li["quantity"]) for li in order["line_items"]] == [(variant, 3)]
    assert level(ep, variant, loc) == available - 3


def test_ordering_more_than_the_location_has_is_refused_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    variant, loc, available = stocked_variant()
    message = refused(
        ep,
        "create_order",
        "rule_violation",
        "line_items.0.quantity",
        customer_id=customer_id(),
        line_items=[{"variant_id": variant, "quantity": available + 1}],
        location_id=loc,
    )
    assert f"only {available} units" in message


def test_ordering_more_than_any_one_location_has_is_refused() -> None:
    ep = Episode(WORLD)
    variant, _, _ = stocked_variant()
    most = max(lv["available"] for lv in seeded("inventory_levels", lambda lv: lv["variant_id"] == variant))
    refused(
        ep,
        "create_order",
        "rule_violation",
        "line_items.0.quantity",
        customer_id=customer_id(),
        line_items=[{"variant_id": variant, "quantity": most + 1}],
    )


def test_a_draft_product_cannot_be_ordered() -> None:
    ep = Episode(WORLD)
    draft = seeded("products", lambda p: p["status"] == "draft")[0]
    variant = seeded("variants", lambda v: v["product_id"] == draft["id"])[0]
    refused(
        ep,
        "create_order",
        "rule_violation",
        "line_items.0.variant_id",
        customer_id=customer_id(),
        line_items=[{"variant_id": variant["id"], "quantity": 1}],
    )


def test_an_order_at_an_inactive_location_is_refused() -> None:
    ep = Episode(WORLD)
    variant, _, _ = stocked_variant()
    inactive = seeded("locations", lambda loc: not loc["active"])[0]
    refused(
        ep,
        "create_order",
        "rule_violation",
        "location_id",
        customer_id=customer_id(),
        line_items=[{"variant_id": variant, "quantity": 1}],
        location_id=inactive["id"],
    )


def test_cancelling_an_unshipped_paid_order_refunds_it_and_restocks_its_units() -> None:
    ep = Episode(WORLD)
    order = open_paid_unshipped_order()
    before = {li["variant_id"]: level(ep, li["variant_id"], order["location_id"]) for li in order["line_items"]}
    cancelled = ok(ep, "cancel_order", order_id=order["id"], reason="customer")
    assert cancelled["status"] == "cancelled"
    assert cancelled["financial_status"] == "refunded"
    assert cancelled["total_refunded"] == order["total_price"]
    for li in order["line_items"]:
        assert level(ep, li["variant_id"], order["location_id"]) == before[li["variant_id"]] + li["quantity"]
    diff = ep.diff()
    (refund,) = diff.tables["shop.refunds"].added
    assert refund["amount"] == order["total_price"]
    assert refund["reason"] == "cancellation"
    assert [c.id for c in diff.tables["shop.orders"].updated] == [order["id"]]


def test_cancelling_an_unpaid_order_voids_it_without_a_refund() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["status"] == "open" and o["financial_status"] == "pending")[0]
    cancelled = ok(ep, "cancel_order", order_id=order["id"], reason="declined", restock=False)
    assert cancelled["financial_status"] == "voided"
    assert cancelled["cancel_reason"] == "declined"
    assert set(ep.diff().tables) == {"shop.orders"}


def test_a_shipped_order_cannot_be_cancelled_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    order = seeded(
        "orders", lambda o: o["status"] == "open" and has_fulfillment(o["id"], shipment_status="in_transit")
    )[0]
    message = refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order["id"])
    assert "cannot be cancelled" in message


def test_a_cancelled_order_cannot_be_cancelled_again() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["status"] == "cancelled")[0]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order["id"])


def test_cancelling_a_confirmed_fulfillment_lets_the_order_be_cancelled() -> None:
    ep = Episode(WORLD)
    ful = seeded("fulfillments", lambda f: f["shipment_status"] == "confirmed")[0]
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=ful["order_id"])
    out = ok(ep, "cancel_fulfillment", fulfillment_id=ful["id"])
    assert out["status"] == "cancelled"
    order = ok(ep, "get_order", order_id=ful["order_id"])
    assert order["fulfillment_status"] == "unfulfilled"
    assert all(li["fulfilled_quantity"] == 0 for li in order["line_items"])
    assert ok(ep, "cancel_order", order_id=ful["order_id"])["status"] == "cancelled"


def test_a_fulfillment_in_transit_cannot_be_cancelled() -> None:
    ep = Episode(WORLD)
    ful = seeded("fulfillments", lambda f: f["shipment_status"] == "in_transit")[0]
    refused(ep, "cancel_fulfillment", "rule_violation", "fulfillment_id", fulfillment_id=ful["id"])


# -- fulfillments --------------------------------------------------------------------------


def test_a_fulfillment_records_the_carrier_and_tracking_number_and_ships_the_order() -> None:
    ep = Episode(WORLD)
    order = open_paid_unshipped_order()
    ful = ok(
        ep, "create_fulfillment", order_id=order["id"], tracking_company="ups", tracking_number="1Z999AA10123456784"
    )
    assert ful["tracking_url"] == "https://www.ups.com/track?tracknum=1Z999AA10123456784"
    assert ful["shipment_status"] == "confirmed"
    assert sorted((i["variant_id"], i["quantity"]) for i in ful["line_items"]) == sorted(
        (li["variant_id"], li["quantity"]) for li in order["line_items"]
    )
    diff = ep.diff()
    (change,) = diff.tables["shop.orders"].updated
    assert change.after["fulfillment_status"] == "fulfilled"
    assert len(diff.tables["shop.fulfillments"].added) == 1


def test_a_partial_fulfillment_leaves_the_rest_to_ship() -> None:
    ep = Episode(WORLD)
    order = seeded(
        "orders",
        lambda o: (
            o["status"] == "open"
            and o["fulfillment_status"] == "unfulfilled"
            and not has_fulfillment(o["id"])
            and sum(li["quantity"] for li in o["line_items"]) >= 2
        ),
    )[0]
    first = order["line_items"][0]
    ok(
        ep,
        "create_fulfillment",
        order_id=order["id"],
        tracking_company="fedex",
        tracking_number="794612345678",
        line_items=[{"variant_id": first["variant_id"], "quantity": 1}],
    )
    assert ok(ep, "get_order", order_id=order["id"])["fulfillment_status"] == "partial"


def test_fulfilling_more_units_than_are_left_is_refused_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    order = open_paid_unshipped_order()
    line = order["line_items"][0]
    refused(
        ep,
        "create_fulfillment",
        "rule_violation",
        "line_items.0.quantity",
        order_id=order["id"],
        tracking_company="ups",
        tracking_number="1Z999AA10123456784",
        line_items=[{"variant_id": line["variant_id"], "quantity": line["quantity"] + 1}],
    )


def test_a_tracking_number_belongs_to_one_parcel_only() -> None:
    ep = Episode(WORLD)
    taken = seeded("fulfillments", lambda f: f["status"] == "success")[0]["tracking_number"]
    order = open_paid_unshipped_order()
    refused(
        ep,
        "create_fulfillment",
        "conflict",
        "tracking_number",
        order_id=order["id"],
        tracking_company="ups",
        tracking_number=taken,
    )


def test_a_cancelled_order_cannot_be_fulfilled() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["status"] == "cancelled")[0]
    refused(
        ep,
        "create_fulfillment",
        "rule_violation",
        "order_id",
        order_id=order["id"],
        tracking_company="dhl_express",
        tracking_number="1234567890",
    )


def test_shipment_status_only_moves_forward() -> None:
    ep = Episode(WORLD)
    ful = seeded("fulfillments", lambda f: f["shipment_status"] == "in_transit")[0]
    refused(
        ep,
        "update_fulfillment",
        "rule_violation",
        "shipment_status",
        fulfillment_id=ful["id"],
        shipment_status="confirmed",
    )
    moved = ok(ep, "update_fulfillment", fulfillment_id=ful["id"], shipment_status="delivered")
    assert moved["shipment_status"] == "delivered"


def test_updating_tracking_rewrites_the_tracking_page() -> None:
    ep = Episode(WORLD)
    ful = seeded("fulfillments", lambda f: f["shipment_status"] == "confirmed")[0]
    out = ok(ep, "update_tracking", fulfillment_id=ful["id"], tracking_company="fedex", tracking_number="794600000001")
    assert out["tracking_url"] == "https://www.fedex.com/fedextrack/?trknbr=794600000001"


def test_the_tracking_of_a_delivered_parcel_is_final() -> None:
    ep = Episode(WORLD)
    ful = seeded("fulfillments", lambda f: f["shipment_status"] == "delivered")[0]
    refused(
        ep,
        "update_tracking",
        "rule_violation",
        "fulfillment_id",
        fulfillment_id=ful["id"],
        tracking_company="ups",
        tracking_number="1Z999AA10123456784",
    )


# -- refunds -------------------------------------------------------------------------------


def test_a_refund_above_what_was_paid_is_refused_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["financial_status"] == "partially_refunded")[0]
    left = order["total_price"] - order["total_refunded"]
    message = refused(ep, "create_refund", "rule_violation", "amount", order_id=order["id"], amount=left + 1)
    assert "cannot refund" in message
    calc = ok(ep, "calculate_refund", order_id=order["id"])
    assert calc["max_refundable"] == left


def test_a_refund_for_returned_units_restocks_them_and_marks_the_order_partially_refunded() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["financial_status"] == "paid" and o["fulfillment_status"] == "fulfilled")[0]
    line = order["line_items"][0]
    before = level(ep, line["variant_id"], order["location_id"])
    refund = ok(
        ep,
        "create_refund",
        order_id=order["id"],
        refund_line_items=[{"variant_id": line["variant_id"], "quantity": 1}],
        restock=True,
        reason="wrong_item",
    )
    assert refund["amount"] == line["price"]
    assert level(ep, line["variant_id"], order["location_id"]) == before + 1
    after = ok(ep, "get_order", order_id=order["id"])
    assert after["financial_status"] == "partially_refunded"
    assert after["total_refunded"] == line["price"]
    assert after["line_items"][0]["refunded_quantity"] == 1
    assert set(ep.diff().tables) == {"shop.refunds", "shop.orders", "shop.inventory_levels"}


def test_refunding_the_rest_marks_the_order_refunded_and_nothing_more_can_be_refunded() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["financial_status"] == "paid")[0]
    ok(ep, "create_refund", order_id=order["id"], amount=order["total_price"], reason="not_received")
    assert ok(ep, "get_order", order_id=order["id"])["financial_status"] == "refunded"
    refused(ep, "create_refund", "rule_violation", "order_id", order_id=order["id"], amount=1)


def test_an_unpaid_order_has_nothing_to_refund() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["financial_status"] == "pending")[0]
    refused(ep, "create_refund", "rule_violation", "order_id", order_id=order["id"], amount=100)


def test_units_cannot_be_refunded_twice() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["financial_status"] == "paid")[0]
    line = order["line_items"][0]
    refused(
        ep,
        "create_refund",
        "rule_violation",
        "refund_line_items.0.quantity",
        order_id=order["id"],
        refund_line_items=[{"variant_id": line["variant_id"], "quantity": line["quantity"] + 1}],
    )


def test_marking_a_pending_order_paid_makes_it_refundable() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["status"] == "open" and o["financial_status"] == "pending")[0]
    assert ok(ep, "mark_paid_order", order_id=order["id"])["financial_status"] == "paid"
    assert ok(ep, "calculate_refund", order_id=order["id"])["max_refundable"] == order["total_price"]


# -- customers -----------------------------------------------------------------------------


def test_a_customer_with_orders_cannot_be_deleted_but_one_without_can() -> None:
    ep = Episode(WORLD)
    buyers = {o["customer_id"] for o in seeded("orders")}
    buyer = next(c for c in seeded("customers") if c["id"] in buyers)
    refused(ep, "delete_customer", "rule_violation", "customer_id", customer_id=buyer["id"])
    browser = next(c for c in seeded("customers") if c["id"] not in buyers)
    ok(ep, "delete_customer", customer_id=browser["id"])
    assert ep.diff().counts() == {"shop.customers": {"added": 0, "updated": 0, "removed": 1}}


def test_customer_summary_adds_up_what_was_paid_and_refunded() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["financial_status"] == "partially_refunded")[0]
    summary = ok(ep, "customer_summary", customer_id=order["customer_id"])
    mine = seeded("orders", lambda o: o["customer_id"] == order["customer_id"])
    paid = ("paid", "partially_refunded", "refunded")
    expected = sum(o["total_price"] - o["total_refunded"] for o in mine if o["financial_status"] in paid)
    assert summary["total_spent"] == expected
    assert summary["orders_count"] == len(mine)
    assert summary["last_order_number"] == mine[-1]["order_number"]


def test_a_shipped_orders_address_cannot_change() -> None:
    ep = Episode(WORLD)
    order = seeded("orders", lambda o: o["status"] == "open" and o["fulfillment_status"] == "fulfilled")[0]
    new_address = {"street": "1 Elm Street", "city": "Berlin", "postal_code": "10115", "country": "DE"}
    refused(
        ep, "update_order", "rule_violation", "shipping_address", order_id=order["id"], shipping_address=new_address
    )


# -- inventory -----------------------------------------------------------------------------


def test_stock_cannot_be_adjusted_below_zero() -> None:
    ep = Episode(WORLD)
    variant, loc, available = stocked_variant()
    refused(
        ep,
        "adjust_inventory",
        "rule_violation",
        "adjustment",
        variant_id=variant,
        location_id=loc,
        adjustment=-(available + 1),
    )
    assert ok(ep, "adjust_inventory", variant_id=variant, location_id=loc, adjustment=-available)["available"] == 0


def test_a_transfer_moves_stock_between_locations() -> None:
    ep = Episode(WORLD)
    variant, loc, available = stocked_variant()
    target = next(x["id"] for x in seeded("locations", lambda x: x["active"]) if x["id"] != loc)
    at_target = level(ep, variant, target)
    out = ok(ep, "transfer_inventory", variant_id=variant, from_location_id=loc, to_location_id=target, quantity=2)
    assert out["source"]["available"] == available - 2
    assert out["destination"]["available"] == at_target + 2
    refused(
        ep,
        "transfer_inventory",
        "rule_violation",
        "quantity",
        variant_id=variant,
        from_location_id=loc,
        to_location_id=target,
        quantity=available,
    )


def test_stock_cannot_be_set_at_an_inactive_location() -> None:
    ep = Episode(WORLD)
    variant, _, _ = stocked_variant()
    inactive = seeded("locations", lambda x: not x["active"])[0]
    refused(
        ep,
        "set_inventory_level",
        "rule_violation",
        "location_id",
        variant_id=variant,
        location_id=inactive["id"],
        available=5,
    )


def test_a_location_holding_stock_cannot_be_deactivated_but_an_empty_one_can() -> None:
    ep = Episode(WORLD)
    _, loc, _ = stocked_variant()
    refused(ep, "deactivate_location", "rule_violation", "location_id", location_id=loc)
    stock: dict[str, int] = {}
    for lv in seeded("inventory_levels"):
        stock[lv["location_id"]] = stock.get(lv["location_id"], 0) + lv["available"]
    empty = next(x for x in seeded("locations", lambda x: x["active"]) if not stock.get(x["id"]))
    assert ok(ep, "deactivate_location", location_id=empty["id"])["active"] is False


# -- catalogue -----------------------------------------------------------------------------


def test_a_product_without_variants_cannot_be_activated() -> None:
    ep = Episode(WORLD)
    product = ok(ep, "create_product", title="Trail Poncho", product_type="outdoor", vendor=WORLD.population.home.name)
    assert product["status"] == "draft"
    refused(ep, "activate_product", "rule_violation", "product_id", product_id=product["id"])
    ok(ep, "create_variant", product_id=product["id"], title="Default Title", sku="OUT-9001", price=4900)
    assert ok(ep, "activate_product", product_id=product["id"])["status"] == "active"


def test_a_former_price_must_be_above_the_price() -> None:
    ep = Episode(WORLD)
    variant = seeded("variants")[0]
    refused(
        ep,
        "update_variant",
        "rule_violation",
        "compare_at_price",
        variant_id=variant["id"],
        compare_at_price=variant["price"],
    )


def test_the_last_variant_of_an_active_product_cannot_be_deleted() -> None:
    ep = Episode(WORLD)
    counts: dict[str, int] = {}
    for v in seeded("variants"):
        counts[v["product_id"]] = counts.get(v["product_id"], 0) + 1
    product = next(p for p in seeded("products", lambda p: p["status"] == "active") if counts.get(p["id"]) == 1)
    variant = seeded("variants", lambda v: v["product_id"] == product["id"])[0]
    refused(ep, "delete_variant", "rule_violation", "variant_id", variant_id=variant["id"])


def test_a_product_still_to_ship_cannot_be_deleted_but_a_draft_one_is_deleted_with_its_variants() -> None:
    ep = Episode(WORLD)
    order = open_paid_unshipped_order()
    refused(ep, "delete_product", "rule_violation", "product_id", product_id=order["line_items"][0]["product_id"])
    draft = seeded("products", lambda p: p["status"] == "draft")[0]
    variant_ids = {v["id"] for v in seeded("variants", lambda v: v["product_id"] == draft["id"])}
    ok(ep, "delete_product", product_id=draft["id"])
    diff = ep.diff()
    assert {r["id"] for r in diff.tables["shop.variants"].removed} == variant_ids
    assert all(r["variant_id"] in variant_ids for r in diff.tables["shop.inventory_levels"].removed)
    assert [r["id"] for r in diff.tables["shop.products"].removed] == [draft["id"]]


# -- seed ----------------------------------------------------------------------------------


def test_customers_are_the_populations_consumers() -> None:
    emails = {c["email"] for c in seeded("customers")}
    assert emails == {p.email for p in WORLD.population.consumers}


def test_every_population_product_is_sold_under_its_sku() -> None:
    skus = {v["sku"] for v in seeded("variants")}
    assert {p.sku for p in WORLD.population.products} <= skus


def test_the_seed_covers_every_order_state() -> None:
    orders = seeded("orders")
    assert {o["financial_status"] for o in orders} == {"pending", "paid", "partially_refunded", "refunded", "voided"}
    assert {o["fulfillment_status"] for o in orders} == {"unfulfilled", "partial", "fulfilled"}
    assert {o["status"] for o in orders} == {"open", "closed", "cancelled"}
    assert [o["order_number"] for o in orders[:3]] == ["#1001", "#1002", "#1003"]
