"""Tradelink EDI: 850 intake, 855 timing, 856 quantities, 810 amounts, 997 errors and resends, scorecards."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EDI = ServiceTools("edi")
WORLD = EDI.world
ok, refused, every = EDI.ok, EDI.refused, EDI.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def partner(ep: Episode, requires_855: bool = True) -> dict[str, Any]:
    return next(p for p in every(ep, "list_partners", status="live") if p["requires_855"] == requires_855)


def receive(ep: Episode, p: dict[str, Any], po_number: str = "PO-7001", qty: int = 10) -> dict[str, Any]:
    item = every(ep, "list_catalog_items")[0]
    made: dict[str, Any] = ok(
        ep,
        "receive_purchase_order",
        partner_id=p["id"],
        po_number=po_number,
        po_date=TODAY.isoformat(),
        ship_by=(TODAY + dt.timedelta(days=5)).isoformat(),
        lines=[{"sku": item["sku"], "quantity": qty}],
    )
    return made


def test_seeded_partners_are_world_companies_and_each_po_has_its_850(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    assert {p["name"] for p in every(ep, "list_partners")} <= names
    for po in every(ep, "list_purchase_orders"):
        docs = every(ep, "list_transactions", po_number=po["po_number"], doc_type="850")
        assert len(docs) == 1 and docs[0]["direction"] == "inbound"
    statuses = {po["status"] for po in every(ep, "list_purchase_orders")}
    assert statuses == {"new", "acknowledged", "partially_shipped", "shipped", "invoiced", "rejected"}


def test_an_850_is_priced_from_the_catalog_and_answered_by_a_997(ep: Episode) -> None:
    p = partner(ep)
    po = receive(ep, p)
    item = every(ep, "list_catalog_items")[0]
    assert po["status"] == "new" and po["lines"][0]["unit_price"] == item["unit_price"]
    txs = every(ep, "list_transactions", po_number="PO-7001")
    assert sorted((t["doc_type"], t["direction"]) for t in txs) == [("850", "inbound"), ("997", "outbound")]
    assert len({t["control_number"] for t in every(ep, "list_transactions")}) == len(every(ep, "list_transactions"))


def test_duplicate_pos_unknown_skus_and_paused_partners_are_refused(ep: Episode) -> None:
    p = partner(ep)
    receive(ep, p)
    args = {"po_date": TODAY.isoformat(), "ship_by": TODAY.isoformat()}
    sku = every(ep, "list_catalog_items")[0]["sku"]
    refused(
        ep,
        "receive_purchase_order",
        "conflict",
        "po_number",
        partner_id=p["id"],
        po_number="PO-7001",
        lines=[{"sku": sku, "quantity": 1}],
        **args,
    )
    refused(
        ep,
        "receive_purchase_order",
        "rule_violation",
        "lines",
        partner_id=p["id"],
        po_number="PO-7002",
        lines=[{"sku": "NOPE-1", "quantity": 1}],
        **args,
    )
    paused = every(ep, "list_partners", status="paused")[0]
    refused(
        ep,
        "receive_purchase_order",
        "rule_violation",
        "partner_id",
        partner_id=paused["id"],
        po_number="PO-7003",
        lines=[{"sku": sku, "quantity": 1}],
        **args,
    )


def test_an_asn_needs_the_855_when_the_partner_requires_it(ep: Episode) -> None:
    strict, loose = partner(ep, True), partner(ep, False)
    asn = {"carrier_scac": "UPSN", "lines": [{"sku": every(ep, "list_catalog_items")[0]["sku"], "quantity": 4}]}
    po = receive(ep, strict)
    refused(
        ep,
        "send_ship_notice",
        "rule_violation",
        "purchase_order_id",
        purchase_order_id=po["id"],
        tracking_number="1Z0000000001",
        **asn,
    )
    ok(ep, "acknowledge_purchase_order", purchase_order_id=po["id"], decision="accept")
    ok(ep, "send_ship_notice", purchase_order_id=po["id"], tracking_number="1Z0000000001", **asn)
    other = receive(ep, loose, "PO-7100")
    ok(ep, "send_ship_notice", purchase_order_id=other["id"], tracking_number="1Z0000000002", **asn)
    assert ok(ep, "get_purchase_order", purchase_order_id=other["id"])["status"] == "partially_shipped"


def test_an_855_past_the_window_is_flagged_late(ep: Episode) -> None:
    stale = every(ep, "list_purchase_orders", status="new")
    flags = {}
    for po in stale:
        t = ok(ep, "acknowledge_purchase_order", purchase_order_id=po["id"], decision="accept")
        flags[po["po_number"]] = t["late"]
    assert True in flags.values()
    fresh = receive(ep, partner(ep))
    assert ok(ep, "acknowledge_purchase_order", purchase_order_id=fresh["id"], decision="reject")["late"] is False
    assert ok(ep, "get_purchase_order", purchase_order_id=fresh["id"])["status"] == "rejected"
    refused(
        ep,
        "acknowledge_purchase_order",
        "rule_violation",
        "purchase_order_id",
        purchase_order_id=fresh["id"],
        decision="accept",
    )


def test_shipping_never_exceeds_the_order_and_completes_it(ep: Episode) -> None:
    po = receive(ep, partner(ep, False), qty=10)
    sku = po["lines"][0]["sku"]
    base = {"purchase_order_id": po["id"], "carrier_scac": "FDEG"}
    refused(
        ep,
        "send_ship_notice",
        "rule_violation",
        "lines",
        tracking_number="794600000001",
        lines=[{"sku": sku, "quantity": 11}],
        **base,
    )
    ok(ep, "send_ship_notice", tracking_number="794600000001", lines=[{"sku": sku, "quantity": 6}], **base)
    refused(
        ep,
        "send_ship_notice",
        "conflict",
        "tracking_number",
        tracking_number="794600000001",
        lines=[{"sku": sku, "quantity": 4}],
        **base,
    )
    refused(
        ep,
        "send_ship_notice",
        "rule_violation",
        "lines",
        tracking_number="794600000002",
        lines=[{"sku": sku, "quantity": 5}],
        **base,
    )
    ok(ep, "send_ship_notice", tracking_number="794600000002", lines=[{"sku": sku, "quantity": 4}], **base)
    got = ok(ep, "get_purchase_order", purchase_order_id=po["id"])
    assert got["status"] == "shipped" and got["lines"][0]["shipped"] == 10


def test_an_invoice_bills_shipped_units_once(ep: Episode) -> None:
    po = receive(ep, partner(ep, False), qty=10)
    sku, price = po["lines"][0]["sku"], po["lines"][0]["unit_price"]
    refused(
        ep, "send_invoice", "rule_violation", "purchase_order_id", purchase_order_id=po["id"], invoice_number="INV-9001"
    )
    ship = {"purchase_order_id": po["id"], "carrier_scac": "FDEG"}
    ok(ep, "send_ship_notice", tracking_number="794600000011", lines=[{"sku": sku, "quantity": 3}], **ship)
    inv = ok(ep, "send_invoice", purchase_order_id=po["id"], invoice_number="INV-9001")
    assert inv["total"] == 3 * price
    refused(
        ep, "send_invoice", "rule_violation", "purchase_order_id", purchase_order_id=po["id"], invoice_number="INV-9002"
    )
    ok(ep, "send_ship_notice", tracking_number="794600000012", lines=[{"sku": sku, "quantity": 7}], **ship)
    refused(ep, "send_invoice", "conflict", "invoice_number", purchase_order_id=po["id"], invoice_number="INV-9001")
    assert ok(ep, "send_invoice", purchase_order_id=po["id"], invoice_number="INV-9002")["total"] == 7 * price
    assert ok(ep, "get_purchase_order", purchase_order_id=po["id"])["status"] == "invoiced"


def test_a_997_rejection_lists_errors_and_the_document_is_resent(ep: Episode) -> None:
    sent = next(t for t in every(ep, "list_transactions", status="sent") if t["doc_type"] != "997")
    refused(ep, "record_functional_ack", "rule_violation", "errors", transaction_id=sent["id"], accepted=False)
    err = [{"segment": "IT1", "code": "7", "message": "Unit price mismatch"}]
    refused(
        ep, "record_functional_ack", "rule_violation", "errors", transaction_id=sent["id"], accepted=True, errors=err
    )
    rejected = ok(ep, "record_functional_ack", transaction_id=sent["id"], accepted=False, errors=err)
    assert rejected["status"] == "rejected" and rejected["errors"][0]["segment"] == "IT1"
    refused(ep, "record_functional_ack", "conflict", "transaction_id", transaction_id=sent["id"], accepted=True)
    again = ok(ep, "resend_transaction", transaction_id=sent["id"])
    assert again["status"] == "sent" and again["control_number"] > sent["control_number"]
    assert ok(ep, "get_transaction", transaction_id=sent["id"])["status"] == "resent"
    ack997 = every(ep, "list_transactions", doc_type="997")[0]
    refused(ep, "record_functional_ack", "rule_violation", "transaction_id", transaction_id=ack997["id"], accepted=True)


def test_the_scorecard_counts_what_the_documents_say(ep: Episode) -> None:
    for p in every(ep, "list_partners"):
        card = ok(ep, "partner_scorecard", partner_id=p["id"])
        pos = every(ep, "list_purchase_orders", partner_id=p["id"])
        txs = every(ep, "list_transactions", partner_id=p["id"])
        assert card["purchase_orders"] == len(pos)
        assert card["unacknowledged_orders"] == sum(po["status"] == "new" for po in pos)
        assert card["late_acknowledgements"] == sum(t["late"] for t in txs if t["doc_type"] == "855")
        assert card["rejected_documents"] == sum(t["status"] in ("rejected", "resent") for t in txs)
