"""Ledgerline ERP: quotation states, stock reservation, pickings, invoice posting and payment."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ERP = ServiceTools("erp")
WORLD = ERP.world
ok, refused, every, first = ERP.ok, ERP.refused, ERP.every, ERP.first
POP = WORLD.population
TODAY = WORLD.epoch.date().isoformat()


def product(ep: Episode, product_id: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_products") if p["id"] == product_id)


def stocked(ep: Episode) -> dict[str, Any]:
    return next(p for p in every(ep, "list_products", type="product") if p["qty_on_hand"] > p["qty_reserved"])


def quotation(ep: Episode, lines: list[tuple[str, int]]) -> dict[str, Any]:
    customer = first(ep, "partners", kind="customer")
    order = ok(ep, "create_sale_order", partner_id=customer["id"], salesperson_email=POP.employees[0].email)
    for pid, qty in lines:
        order = ok(ep, "add_sale_order_line", sale_order_id=order["id"], product_id=pid, quantity=qty)
    return dict(order)


def test_seeded_partners_are_the_populations_companies_and_orders_cover_every_state(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    partners = every(ep, "list_partners")
    assert partners and all(p["name"] in names for p in partners)
    assert {p["kind"] for p in partners} == {"customer", "vendor", "both"}
    states = {o["state"] for o in every(ep, "list_sale_orders")}
    assert states == {"draft", "sent", "sale", "done", "cancel"}
    skus = {p.sku for p in POP.products}
    assert all(p["default_code"] in skus for p in every(ep, "list_products"))


def test_lines_price_from_the_catalogue_and_total_adds_up(ep: Episode) -> None:
    p = stocked(ep)
    order = quotation(ep, [(p["id"], 2)])
    order = ok(ep, "add_sale_order_line", sale_order_id=order["id"], product_id=p["id"], quantity=1, price_unit=100)
    assert order["lines"][0]["price_unit"] == p["list_price"]
    assert order["amount_total"] == 2 * p["list_price"] + 100


def test_vendor_only_partner_cannot_be_sold_to(ep: Episode) -> None:
    vendor = first(ep, "partners", kind="vendor")
    refused(
        ep,
        "create_sale_order",
        "rule_violation",
        "partner_id",
        partner_id=vendor["id"],
        salesperson_email=POP.employees[0].email,
    )


def test_empty_quotation_cannot_be_sent_or_confirmed(ep: Episode) -> None:
    order = quotation(ep, [])
    refused(ep, "send_quotation", "rule_violation", "sale_order_id", sale_order_id=order["id"])
    refused(ep, "confirm_sale_order", "rule_violation", "sale_order_id", sale_order_id=order["id"])


def test_confirm_reserves_stock_and_refuses_when_short(ep: Episode) -> None:
    p = stocked(ep)
    free = p["qty_on_hand"] - p["qty_reserved"]
    short = quotation(ep, [(p["id"], free + 1)])
    assert "not enough stock" in refused(
        ep, "confirm_sale_order", "rule_violation", "sale_order_id", sale_order_id=short["id"]
    )
    order = quotation(ep, [(p["id"], free)])
    ok(ep, "send_quotation", sale_order_id=order["id"])
    confirmed = ok(ep, "confirm_sale_order", sale_order_id=order["id"])
    assert confirmed["state"] == "sale"
    assert product(ep, p["id"])["qty_reserved"] == p["qty_reserved"] + free
    (delivery,) = every(ep, "list_pickings", sale_order_id=order["id"])
    assert delivery["state"] == "assigned" and delivery["moves"] == [{"product_id": p["id"], "quantity": free}]
    refused(
        ep,
        "add_sale_order_line",
        "rule_violation",
        "sale_order_id",
        sale_order_id=order["id"],
        product_id=p["id"],
        quantity=1,
    )


def test_full_cycle_delivery_invoice_payment_makes_the_order_done(ep: Episode) -> None:
    p = stocked(ep)
    order = quotation(ep, [(p["id"], 1)])
    ok(ep, "confirm_sale_order", sale_order_id=order["id"])
    (delivery,) = every(ep, "list_pickings", sale_order_id=order["id"])
    ok(ep, "validate_picking", picking_id=delivery["id"])
    after = product(ep, p["id"])
    assert (after["qty_on_hand"], after["qty_reserved"]) == (p["qty_on_hand"] - 1, p["qty_reserved"])
    refused(ep, "validate_picking", "rule_violation", "picking_id", picking_id=delivery["id"])
    inv = ok(ep, "create_invoice", sale_order_id=order["id"])
    refused(ep, "create_invoice", "rule_violation", "sale_order_id", sale_order_id=order["id"])
    refused(ep, "register_payment", "rule_violation", "invoice_id", invoice_id=inv["id"], amount=1, payment_date=TODAY)
    inv = ok(ep, "post_invoice", invoice_id=inv["id"])
    assert inv["name"].startswith("INV-") and inv["due_date"] > inv["invoice_date"]
    total = inv["amount_total"]
    refused(
        ep, "register_payment", "rule_violation", "amount", invoice_id=inv["id"], amount=total + 1, payment_date=TODAY
    )
    part = ok(ep, "register_payment", invoice_id=inv["id"], amount=total - 1, payment_date=TODAY)
    assert part["payment_state"] == "partial"
    assert first(ep, "sale_orders", name=order["name"])["state"] == "sale"
    paid = ok(ep, "register_payment", invoice_id=inv["id"], amount=1, payment_date=TODAY)
    assert paid["payment_state"] == "paid" and paid["amount_residual"] == 0
    assert first(ep, "sale_orders", name=order["name"])["state"] == "done"
    refused(ep, "cancel_sale_order", "rule_violation", "sale_order_id", sale_order_id=order["id"])


def test_cancel_releases_reservation_but_not_with_a_posted_invoice(ep: Episode) -> None:
    p = stocked(ep)
    order = quotation(ep, [(p["id"], 1)])
    ok(ep, "confirm_sale_order", sale_order_id=order["id"])
    ok(ep, "cancel_sale_order", sale_order_id=order["id"])
    assert product(ep, p["id"])["qty_reserved"] == p["qty_reserved"]
    assert every(ep, "list_pickings", sale_order_id=order["id"])[0]["state"] == "cancel"
    posted = first(ep, "invoices", state="posted", payment_state="not_paid")
    refused(ep, "cancel_sale_order", "rule_violation", "sale_order_id", sale_order_id=posted["sale_order_id"])


def test_posting_needs_a_draft_invoice_and_payment_cannot_predate_it(ep: Episode) -> None:
    posted = first(ep, "invoices", state="posted", payment_state="not_paid")
    refused(ep, "post_invoice", "rule_violation", "invoice_id", invoice_id=posted["id"])
    refused(
        ep,
        "register_payment",
        "rule_violation",
        "payment_date",
        invoice_id=posted["id"],
        amount=1,
        payment_date="2000-01-01",
    )
    paid = first(ep, "invoices", payment_state="paid")
    refused(ep, "register_payment", "rule_violation", "invoice_id", invoice_id=paid["id"], amount=1, payment_date=TODAY)


def test_purchase_order_receipt_adds_stock_and_completes_the_order(ep: Episode) -> None:
    vendor = first(ep, "partners", kind="vendor")
    p = stocked(ep)
    po = ok(ep, "create_purchase_order", partner_id=vendor["id"], lines=[{"product_id": p["id"], "quantity": 12}])
    assert po["state"] == "purchase" and po["amount_total"] == 12 * p["standard_price"]
    (receipt,) = every(ep, "list_pickings", purchase_order_id=po["id"])
    ok(ep, "validate_picking", picking_id=receipt["id"])
    assert product(ep, p["id"])["qty_on_hand"] == p["qty_on_hand"] + 12
    assert every(ep, "list_purchase_orders", partner_id=vendor["id"])[-1]["state"] == "done"


def test_purchase_order_refuses_customers_and_duplicate_lines(ep: Episode) -> None:
    customer = first(ep, "partners", kind="customer")
    vendor = first(ep, "partners", kind="vendor")
    p = stocked(ep)
    line = {"product_id": p["id"], "quantity": 1}
    refused(ep, "create_purchase_order", "rule_violation", "partner_id", partner_id=customer["id"], lines=[line])
    refused(
        ep,
        "create_purchase_order",
        "rule_violation",
        "lines[1].product_id",
        partner_id=vendor["id"],
        lines=[line, line],
    )
    refused(ep, "create_purchase_order", "rule_violation", "lines", partner_id=vendor["id"], lines=[])
