"""Sourcewell Procure: approval chains, POs from approved requisitions, receipts bounded, three-way match."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PROCUREMENT = ServiceTools("procurement")
WORLD = PROCUREMENT.world
ok, refused, every = PROCUREMENT.ok, PROCUREMENT.refused, PROCUREMENT.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
TODAY = WORLD.epoch.date().isoformat()


def item_of_active_supplier(ep: Episode) -> dict[str, Any]:
    for sup in every(ep, "list_suppliers", status="active"):
        found = every(ep, "list_items", supplier_id=sup["id"], active=True)
        if found:
            return found[0]
    raise AssertionError("no active item")


def requisition(ep: Episode, quantity: int = 2, item: dict[str, Any] | None = None) -> dict[str, Any]:
    item = item or item_of_active_supplier(ep)
    req = ok(
        ep,
        "create_requisition",
        title="Monitors for the new team",
        requester_email=STAFF[0],
        lines=[{"item_id": item["id"], "quantity": quantity}],
    )
    return dict(req)


def ordered(ep: Episode, quantity: int = 4) -> dict[str, Any]:
    """A new issued purchase order of one line."""
    req = requisition(ep, quantity)
    ok(ep, "submit_requisition", requisition_id=req["id"])
    ok(ep, "approve_requisition", requisition_id=req["id"], approver_email=STAFF[1])
    return dict(ok(ep, "create_purchase_order", requisition_id=req["id"]))


def invoice(ep: Episode, po: dict[str, Any], quantity: int, unit_price: int | None = None) -> dict[str, Any]:
    line = po["lines"][0]
    price = line["unit_price"] if unit_price is None else unit_price
    return dict(
        ok(
            ep,
            "create_supplier_invoice",
            purchase_order_id=po["id"],
            invoice_number=f"SI-{po['po_number']}",
            invoice_date=TODAY,
            lines=[{"sku": line["sku"], "quantity": quantity, "unit_price": price}],
        )
    )


# -- the world ------------------------------------------------------------------------------


def test_suppliers_are_population_companies_and_items_are_its_products() -> None:
    ep = Episode(WORLD)
    companies = {c.domain: c for c in POP.customers}
    for sup in every(ep, "list_suppliers"):
        company = companies[sup["domain"]]
        assert sup["name"] == company.name
        assert sup["contact_email"] in {p.email for p in POP.people_at(company)}
    products = {p.sku: p for p in POP.products}
    for item in every(ep, "list_items"):
        assert item["unit_price"] == products[item["sku"]].cost_cents
        assert item["name"] == products[item["sku"]].name
    assert {r["status"] for r in every(ep, "list_requisitions")} == {
        "draft",
        "pending_approval",
        "approved",
        "rejected",
        "ordered",
    }
    assert {i["status"] for i in every(ep, "list_supplier_invoices")} == {"pending", "approved", "disputed", "paid"}


# -- requisitions and approvals -------------------------------------------------------------


def test_a_requisition_is_priced_from_the_catalog(ep: Episode) -> None:
    item = item_of_active_supplier(ep)
    req = requisition(ep, 3, item)
    assert req["total"] == 3 * item["unit_price"]
    assert (req["supplier_id"], req["status"], req["approvals_required"]) == (item["supplier_id"], "draft", 1)
    assert ep.diff().counts() == {"procurement.requisitions": {"added": 1, "updated": 0, "removed": 0}}


def test_an_inactive_supplier_is_refused(ep: Episode) -> None:
    sup = every(ep, "list_suppliers", status="inactive")[0]
    item = every(ep, "list_items", supplier_id=sup["id"])[0]
    refused(
        ep,
        "create_requisition",
        "rule_violation",
        "lines.0.item_id",
        title="Anything",
        requester_email=STAFF[0],
        lines=[{"item_id": item["id"]}],
    )
    refused(
        ep,
        "create_item",
        "rule_violation",
        "supplier_id",
        sku="ZZZ-1",
        name="Gadget",
        supplier_id=sup["id"],
        unit_price=100,
    )


def test_a_purchase_order_comes_only_from_an_approved_requisition(ep: Episode) -> None:
    req = requisition(ep)
    refused(ep, "create_purchase_order", "rule_violation", "requisition_id", requisition_id=req["id"])
    ok(ep, "submit_requisition", requisition_id=req["id"])
    refused(ep, "create_purchase_order", "rule_violation", "requisition_id", requisition_id=req["id"])
    refused(
        ep, "approve_requisition", "rule_violation", "approver_email", requisition_id=req["id"], approver_email=STAFF[0]
    )
    assert ok(ep, "approve_requisition", requisition_id=req["id"], approver_email=STAFF[1])["status"] == "approved"
    snap = ep.snapshot()
    po = ok(ep, "create_purchase_order", requisition_id=req["id"])
    assert (po["status"], po["total"], po["lines"]) == ("issued", req["total"], req["lines"])
    assert po["po_number"].startswith("PO-")
    assert ep.diff(snap).counts() == {
        "procurement.requisitions": {"added": 0, "updated": 1, "removed": 0},
        "procurement.purchase_orders": {"added": 1, "updated": 0, "removed": 0},
    }
    refused(ep, "create_purchase_order", "rule_violation", "requisition_id", requisition_id=req["id"])


def test_a_requisition_above_the_threshold_needs_a_second_distinct_approval(ep: Episode) -> None:
    item = item_of_active_supplier(ep)
    quantity = 10_000_00 // item["unit_price"] + 1
    req = requisition(ep, quantity, item)
    assert req["approvals_required"] == 2
    ok(ep, "submit_requisition", requisition_id=req["id"])
    first = ok(ep, "approve_requisition", requisition_id=req["id"], approver_email=STAFF[1])
    assert first["status"] == "pending_approval"
    refused(ep, "create_purchase_order", "rule_violation", "requisition_id", requisition_id=req["id"])
    refused(ep, "approve_requisition", "conflict", "approver_email", requisition_id=req["id"], approver_email=STAFF[1])
    second = ok(ep, "approve_requisition", requisition_id=req["id"], approver_email=STAFF[2])
    assert second["status"] == "approved"
    chain = every(ep, "list_approvals", requisition_id=req["id"])
    assert [(a["step"], a["approver_email"]) for a in chain] == [(1, STAFF[1]), (2, STAFF[2])]


def test_a_rejected_requisition_can_be_resubmitted_and_starts_the_chain_again(ep: Episode) -> None:
    req = requisition(ep)
    ok(ep, "submit_requisition", requisition_id=req["id"])
    assert (
        ok(ep, "reject_requisition", requisition_id=req["id"], approver_email=STAFF[1], comment="Too early")["status"]
        == "rejected"
    )
    ok(ep, "submit_requisition", requisition_id=req["id"])
    assert every(ep, "list_approvals", requisition_id=req["id"]) == []


# -- receiving ------------------------------------------------------------------------------


def test_receipts_cannot_exceed_the_ordered_quantity(ep: Episode) -> None:
    po = ordered(ep, quantity=4)
    sku = po["lines"][0]["sku"]
    ok(ep, "receive_goods", purchase_order_id=po["id"], sku=sku, quantity=3, received_by_email=STAFF[3])
    msg = refused(
        ep,
        "receive_goods",
        "rule_violation",
        "quantity",
        purchase_order_id=po["id"],
        sku=sku,
        quantity=2,
        received_by_email=STAFF[3],
    )
    assert "3 of 4" in msg
    ok(ep, "receive_goods", purchase_order_id=po["id"], sku=sku, quantity=1, received_by_email=STAFF[3])
    refused(
        ep,
        "receive_goods",
        "rule_violation",
        "sku",
        purchase_order_id=po["id"],
        sku="NOT-ON-PO",
        quantity=1,
        received_by_email=STAFF[3],
    )


def test_an_order_with_goods_received_cannot_be_cancelled(ep: Episode) -> None:
    po = ordered(ep)
    ok(
        ep,
        "receive_goods",
        purchase_order_id=po["id"],
        sku=po["lines"][0]["sku"],
        quantity=1,
        received_by_email=STAFF[3],
    )
    refused(ep, "cancel_purchase_order", "rule_violation", "purchase_order_id", purchase_order_id=po["id"])


# -- three-way match ------------------------------------------------------------------------


def test_an_invoice_for_goods_not_yet_received_fails_the_match(ep: Episode) -> None:
    po = ordered(ep, quantity=4)
    ok(
        ep,
        "receive_goods",
        purchase_order_id=po["id"],
        sku=po["lines"][0]["sku"],
        quantity=2,
        received_by_email=STAFF[3],
    )
    inv = invoice(ep, po, quantity=4)
    match = ok(ep, "three_way_match", invoice_id=inv["id"])
    assert not match["matched"]
    assert match["lines"][0]["received"] == 2 and match["lines"][0]["invoiced"] == 4
    msg = refused(ep, "approve_invoice_for_payment", "rule_violation", "invoice_id", invoice_id=inv["id"])
    assert "three-way match" in msg


def test_an_invoice_above_the_po_price_fails_the_match(ep: Episode) -> None:
    po = ordered(ep, quantity=2)
    ok(
        ep,
        "receive_goods",
        purchase_order_id=po["id"],
        sku=po["lines"][0]["sku"],
        quantity=2,
        received_by_email=STAFF[3],
    )
    inv = invoice(ep, po, quantity=2, unit_price=po["lines"][0]["unit_price"] + 1)
    refused(ep, "approve_invoice_for_payment", "rule_violation", "invoice_id", invoice_id=inv["id"])
    disputed = ok(ep, "dispute_supplier_invoice", invoice_id=inv["id"], reason="Price above contract")
    assert disputed["status"] == "disputed"


def test_a_matching_invoice_is_approved_closes_the_order_and_can_be_paid(ep: Episode) -> None:
    po = ordered(ep, quantity=2)
    ok(
        ep,
        "receive_goods",
        purchase_order_id=po["id"],
        sku=po["lines"][0]["sku"],
        quantity=2,
        received_by_email=STAFF[3],
    )
    inv = invoice(ep, po, quantity=2)
    refused(ep, "pay_supplier_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    assert ok(ep, "three_way_match", invoice_id=inv["id"])["matched"]
    snap = ep.snapshot()
    approved = ok(ep, "approve_invoice_for_payment", invoice_id=inv["id"])
    assert approved["status"] == "approved"
    assert ok(ep, "get_purchase_order", purchase_order_id=po["id"])["status"] == "closed"
    assert ep.diff(snap).counts() == {
        "procurement.supplier_invoices": {"added": 0, "updated": 1, "removed": 0},
        "procurement.purchase_orders": {"added": 0, "updated": 1, "removed": 0},
    }
    assert ok(ep, "pay_supplier_invoice", invoice_id=inv["id"])["status"] == "paid"


def test_a_duplicate_supplier_invoice_number_is_refused(ep: Episode) -> None:
    inv = every(ep, "list_supplier_invoices")[0]
    refused(
        ep,
        "create_supplier_invoice",
        "conflict",
        "invoice_number",
        purchase_order_id=inv["purchase_order_id"],
        invoice_number=inv["invoice_number"],
        invoice_date=TODAY,
        lines=[{"sku": inv["lines"][0]["sku"], "quantity": 1, "unit_price": inv["lines"][0]["unit_price"]}],
    )


def test_seeded_overbilled_invoices_fail_the_match() -> None:
    ep = Episode(WORLD)
    pending = every(ep, "list_supplier_invoices", status="pending")
    results = {inv["id"]: ok(ep, "three_way_match", invoice_id=inv["id"])["matched"] for inv in pending}
    assert True in results.values() and False in results.values()


def test_a_supplier_in_use_cannot_be_deleted_only_deactivated(ep: Episode) -> None:
    req = every(ep, "list_requisitions")[0]
    refused(ep, "delete_supplier", "rule_violation", "supplier_id", supplier_id=req["supplier_id"])
    assert ok(ep, "deactivate_supplier", supplier_id=req["supplier_id"])["status"] == "inactive"
