"""Tillpoint POS: taxed register orders, card and cash tenders, stock sell-down, refunds and cash drawers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

POS = ServiceTools("pos")
WORLD = POS.world
ok, refused, every, seeded = POS.ok, POS.refused, POS.every, POS.seeded
POP = WORLD.population
CLERK = POP.employees[0].email


def location(ep: Episode, with_open_drawer: bool = True) -> dict[str, Any]:
    for loc in every(ep, "list_locations", status="ACTIVE"):
        if bool(every(ep, "list_shifts", location_id=loc["id"], state="OPEN")) == with_open_drawer:
            return loc
    raise AssertionError("no such location")


def tracked(ep: Episode, min_stock: int = 2) -> dict[str, Any]:
    return next(v for v in every(ep, "list_variations", track_inventory=True) if v["stock"] >= min_stock)


def ring_up(ep: Episode, loc: dict[str, Any], variation: dict[str, Any], quantity: int = 1) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "create_order",
            location_id=loc["id"],
            line_items=[{"variation_id": variation["id"], "quantity": quantity}],
            employee_email=CLERK,
        )
    )


def drawer(ep: Episode, loc: dict[str, Any]) -> dict[str, Any]:
    return every(ep, "list_shifts", location_id=loc["id"], state="OPEN")[0]


# -- the world ---------------------------------------------------------------------------------


def test_the_stores_are_the_home_companys_and_the_catalog_its_products() -> None:
    home = POP.home
    locs = seeded("locations")
    assert {loc["business_name"] for loc in locs} == {home.name}
    assert locs[0]["address"] == home.address.model_dump()
    skus = {p.sku for p in POP.products}
    assert {v["sku"].removesuffix("-L") for v in seeded("variations")} <= skus
    staff = {p.email for p in POP.employees}
    assert {o["employee_email"] for o in seeded("orders")} <= staff
    assert {s["opened_by"] for s in seeded("shifts")} <= staff
    consumers = {p.email: p.name for p in POP.consumers}
    assert all(consumers[o["customer_email"]] == o["customer_name"] for o in seeded("orders") if o["customer_email"])


def test_the_same_skus_as_the_storefront() -> None:
    both = service_world("pos", "shop")
    shop_skus = {v.sku for v in both.tables["shop.variants"].records.values()}
    assert {v.sku for v in both.tables["pos.variations"].records.values()} <= shop_skus


def test_seeded_totals_and_drawers_add_up() -> None:
    for o in seeded("orders"):
        assert o["subtotal"] == sum(li["gross"] for li in o["line_items"])
        assert o["total"] == o["subtotal"] + o["total_tax"]
    for sh in seeded("shifts"):
        cash = [p for p in seeded("payments") if p["shift_id"] == sh["id"]]
        back = [r for r in seeded("refunds") if r["shift_id"] == sh["id"]]
        assert sh["cash_sales"] == sum(p["amount"] + p["tip"] for p in cash)
        assert sh["cash_refunds"] == sum(r["amount"] for r in back)
        assert sh["expected_cash"] == sh["opening_cash"] + sh["cash_sales"] - sh["cash_refunds"]
        if sh["state"] == "CLOSED":
            assert sh["discrepancy"] == sh["counted_cash"] - sh["expected_cash"]


# -- orders and tenders ------------------------------------------------------------------------


def test_an_order_is_taxed_at_the_locations_rate(ep: Episode) -> None:
    loc = location(ep)
    v = tracked(ep)
    order = ring_up(ep, loc, v, 2)
    assert order["state"] == "OPEN" and order["receipt_number"].startswith("R-")
    assert order["subtotal"] == 2 * v["price"]
    assert order["total_tax"] == round(order["subtotal"] * loc["tax_rate"] / 100)
    assert order["total"] == order["subtotal"] + order["total_tax"]


def test_ringing_up_more_than_is_in_stock_is_refused(ep: Episode) -> None:
    v = tracked(ep)
    msg = refused(
        ep,
        "create_order",
        "rule_violation",
        "line_items.0.quantity",
        location_id=location(ep)["id"],
        line_items=[{"variation_id": v["id"], "quantity": v["stock"] + 1}],
        employee_email=CLERK,
    )
    assert f"only {v['stock']} unit(s)" in msg


def test_paying_by_card_completes_the_order_and_sells_the_stock_down(ep: Episode) -> None:
    v = tracked(ep)
    order = ring_up(ep, location(ep), v, 2)
    refused(ep, "pay_order", "rule_violation", "card_last4", order_id=order["id"], source_type="CARD")
    pay = ok(ep, "pay_order", order_id=order["id"], source_type="CARD", card_last4="4242", tip=300)
    assert (pay["amount"], pay["tip"], pay["card_last4"]) == (order["total"], 300, "4242")
    assert ok(ep, "get_order", order_id=order["id"])["state"] == "COMPLETED"
    assert ok(ep, "get_variation", variation_id=v["id"])["stock"] == v["stock"] - 2
    refused(ep, "pay_order", "conflict", "order_id", order_id=order["id"], source_type="CARD", card_last4="4242")
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order["id"])


def test_cash_goes_into_the_open_drawer_and_change_is_given(ep: Episode) -> None:
    loc = location(ep)
    before = drawer(ep, loc)
    order = ring_up(ep, loc, tracked(ep))
    due = order["total"] + 100
    refused(
        ep,
        "pay_order",
        "rule_violation",
        "cash_tendered",
        order_id=order["id"],
        source_type="CASH",
        tip=100,
        cash_tendered=due - 1,
    )
    pay = ok(ep, "pay_order", order_id=order["id"], source_type="CASH", tip=100, cash_tendered=due + 1_000)
    assert (pay["change_back"], pay["shift_id"]) == (1_000, before["id"])
    after = drawer(ep, loc)
    assert after["cash_sales"] == before["cash_sales"] + due
    assert after["expected_cash"] == before["expected_cash"] + due


def test_cash_needs_an_open_drawer(ep: Episode) -> None:
    loc = location(ep, with_open_drawer=False)
    order = ring_up(ep, loc, tracked(ep))
    args = dict(order_id=order["id"], source_type="CASH", cash_tendered=order["total"] + 500)
    refused(ep, "pay_order", "rule_violation", "source_type", **args)
    ok(ep, "open_shift", location_id=loc["id"], employee_email=CLERK, opening_cash=5_000)
    refused(ep, "open_shift", "conflict", "location_id", location_id=loc["id"], employee_email=CLERK, opening_cash=0)
    assert ok(ep, "pay_order", **args)["change_back"] == 500


def test_a_canceled_order_cannot_be_paid(ep: Episode) -> None:
    order = ring_up(ep, location(ep), tracked(ep))
    assert ok(ep, "cancel_order", order_id=order["id"])["state"] == "CANCELED"
    refused(ep, "pay_order", "rule_violation", "order_id", order_id=order["id"], source_type="CARD", card_last4="1111")


# -- refunds -----------------------------------------------------------------------------------


def test_refunds_never_exceed_the_payment(ep: Episode) -> None:
    pay = next(p for p in every(ep, "list_payments", source_type="CARD") if p["refunded"] == 0)
    paid = pay["amount"] + pay["tip"]
    refused(ep, "refund_payment", "rule_violation", "amount", payment_id=pay["id"], amount=paid + 1, reason="other")
    ok(ep, "refund_payment", payment_id=pay["id"], amount=paid - 100, reason="damaged")
    refused(ep, "refund_payment", "rule_violation", "amount", payment_id=pay["id"], amount=101, reason="other")
    ok(ep, "refund_payment", payment_id=pay["id"], amount=100, reason="other")
    assert ok(ep, "get_payment", payment_id=pay["id"])["refunded"] == paid


def test_a_cash_refund_comes_out_of_an_open_drawer(ep: Episode) -> None:
    loc = location(ep)
    order = ring_up(ep, loc, tracked(ep))
    pay = ok(ep, "pay_order", order_id=order["id"], source_type="CASH", cash_tendered=order["total"])
    before = drawer(ep, loc)
    refund = ok(ep, "refund_payment", payment_id=pay["id"], amount=500, reason="price_adjustment")
    assert refund["shift_id"] == before["id"]
    assert drawer(ep, loc)["expected_cash"] == before["expected_cash"] - 500
    ok(ep, "close_shift", shift_id=before["id"], counted_cash=before["expected_cash"] - 500)
    refused(ep, "refund_payment", "rule_violation", "payment_id", payment_id=pay["id"], amount=100, reason="other")


# -- drawers -----------------------------------------------------------------------------------


def test_paid_outs_are_limited_to_the_cash_in_the_drawer(ep: Episode) -> None:
    sh = drawer(ep, location(ep))
    refused(
        ep,
        "record_cash_movement",
        "rule_violation",
        "amount",
        shift_id=sh["id"],
        kind="paid_out",
        amount=sh["expected_cash"] + 1,
        description="Supplies",
    )
    after = ok(ep, "record_cash_movement", shift_id=sh["id"], kind="paid_out", amount=1_500, description="Supplies")
    assert (after["paid_out"], after["expected_cash"]) == (1_500, sh["expected_cash"] - 1_500)


def test_closing_off_by_more_than_the_tolerance_needs_a_note(ep: Episode) -> None:
    sh = drawer(ep, location(ep))
    short = sh["expected_cash"] - 2_000
    refused(ep, "close_shift", "rule_violation", "note", shift_id=sh["id"], counted_cash=short)
    closed = ok(ep, "close_shift", shift_id=sh["id"], counted_cash=short, note="Float taken to the bank early")
    assert (closed["state"], closed["discrepancy"]) == ("CLOSED", -2_000)
    refused(ep, "close_shift", "rule_violation", "shift_id", shift_id=sh["id"], counted_cash=short)
    near = ok(ep, "open_shift", location_id=sh["location_id"], employee_email=CLERK, opening_cash=1_000)
    assert ok(ep, "close_shift", shift_id=near["id"], counted_cash=1_300)["discrepancy"] == 300


def test_daily_sales_add_up_the_days_payments() -> None:
    ep = Episode(WORLD)
    pay = seeded("payments")[0]
    day = pay["created_at"][:10]
    report = ok(ep, "daily_sales", location_id=pay["location_id"], date=day)
    mine = [p for p in seeded("payments") if p["location_id"] == pay["location_id"] and p["created_at"][:10] == day]
    assert report["payments"] == len(mine)
    assert report["tips"] == sum(p["tip"] for p in mine)
    assert report["card"] + report["cash"] == sum(p["amount"] + p["tip"] for p in mine)
    assert report["gross_sales"] + report["tax"] == sum(p["amount"] for p in mine)
    assert report["net"] == report["card"] + report["cash"] - report["refunds"]
