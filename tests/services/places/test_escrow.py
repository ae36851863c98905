"""Clearpath Title: commitments, the balanced escrow ledger, clear to close, closing and recording."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TITLE = ServiceTools("escrow")
WORLD = TITLE.world
ok, refused, every = TITLE.ok, TITLE.refused, TITLE.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
OFFICER = POP.employees[0].email


def order(ep: Episode, status: str, n: int = 0) -> dict[str, Any]:
    return every(ep, "list_orders", status=status)[n]


def balance(ep: Episode, order_id: str) -> dict[str, Any]:
    found: dict[str, Any] = ok(ep, "ledger_balance", order_id=order_id)
    return found


def test_seeded_orders_are_between_consumers_and_closed_ledgers_balance(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    for o in every(ep, "list_orders"):
        assert o["buyer_email"] in consumers
        assert o["seller_email"] is None or o["seller_email"] in consumers
    for status in ("clear_to_close", "closed"):
        bal = balance(ep, order(ep, status)["id"])
        assert bal["balanced"] and bal["balance"] == 0 and bal["received"] > 0


def test_opening_an_order_checks_the_deal_and_one_live_order_per_property(ep: Episode) -> None:
    live = order(ep, "open")
    buyer = POP.consumers[-1]
    base = {
        "buyer_name": buyer.name,
        "buyer_email": buyer.email,
        "escrow_officer_email": OFFICER,
        "closing_date": (TODAY + dt.timedelta(days=30)).isoformat(),
    }
    addr = POP.consumers[-3].address.model_dump()
    refused(
        ep, "open_order", "rule_violation", "seller_name", transaction_type="purchase", property_address=addr, **base
    )
    refused(
        ep,
        "open_order",
        "rule_violation",
        "escrow_officer_email",
        transaction_type="refinance",
        property_address=addr,
        loan_amount=10_000_000,
        **(base | {"escrow_officer_email": "a@b.io"}),
    )
    refused(
        ep,
        "open_order",
        "conflict",
        "property_address",
        transaction_type="refinance",
        property_address=live["property_address"],
        loan_amount=10_000_000,
        **base,
    )
    made = ok(ep, "open_order", transaction_type="refinance", property_address=addr, loan_amount=10_000_000, **base)
    assert made["status"] == "open" and made["file_number"].startswith("CPT-")


def test_a_commitment_is_issued_once_with_the_standard_items(ep: Episode) -> None:
    fresh = next(
        o for o in every(ep, "list_orders", status="open") if not every(ep, "list_commitments", order_id=o["id"])
    )
    cmt = ok(ep, "issue_commitment", order_id=fresh["id"])
    assert cmt["policy_amount"] == fresh["purchase_price"] and cmt["proposed_insured"] == fresh["buyer_name"]
    found = every(ep, "list_items", order_id=fresh["id"])
    assert {i["kind"] for i in found} == {"requirement", "exception"} and {i["status"] for i in found} == {"open"}
    refused(ep, "issue_commitment", "conflict", "order_id", order_id=fresh["id"])


def test_requirements_clear_and_exceptions_are_removed_each_in_its_own_way(ep: Episode) -> None:
    req = every(ep, "list_items", kind="requirement", status="open")[0]
    exc = every(ep, "list_items", kind="exception", status="open")[0]
    refused(ep, "clear_requirement", "rule_violation", "item_id", item_id=exc["id"], note="x")
    refused(ep, "remove_exception", "rule_violation", "item_id", item_id=req["id"], note="x")
    refused(ep, "clear_requirement", "rule_violation", "note", item_id=req["id"], note=" ")
    assert ok(ep, "clear_requirement", item_id=req["id"], note="Payoff letter received")["status"] == "cleared"
    refused(ep, "clear_requirement", "conflict", "item_id", item_id=req["id"], note="again")
    assert ok(ep, "remove_exception", item_id=exc["id"], note="Survey provided")["status"] == "removed"


def test_clear_to_close_needs_signed_documents_and_a_balanced_ledger(ep: Episode) -> None:
    o = next(
        x
        for x in every(ep, "list_orders", status="open")
        if x["transaction_type"] == "purchase" and every(ep, "list_documents", order_id=x["id"], status="signed")
    )
    assert "unsigned" in refused(ep, "clear_to_close", "rule_violation", "order_id", order_id=o["id"])
    deed = every(ep, "list_documents", order_id=o["id"], status="draft")[0]
    ok(ep, "sign_document", document_id=deed["id"])
    extra = ok(ep, "add_disbursement", order_id=o["id"], party="Home warranty co.", amount=50_000, memo="Warranty")
    assert balance(ep, o["id"])["balance"] == -50_000
    assert "balance" in refused(ep, "clear_to_close", "rule_violation", "order_id", order_id=o["id"])
    ok(ep, "void_entry", entry_id=extra["id"])
    assert ok(ep, "clear_to_close", order_id=o["id"])["status"] == "clear_to_close"


def test_ledger_changes_reopen_a_clear_to_close_order(ep: Episode) -> None:
    o = order(ep, "clear_to_close")
    refused(ep, "update_order", "rule_violation", "order_id", order_id=o["id"], purchase_price=1)
    receipt = ok(ep, "add_receipt", order_id=o["id"], party="Buyer", amount=10_000, memo="Extra")
    assert receipt["status"] == "pending"
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "open"
    refused(
        ep,
        "clear_receipt",
        "rule_violation",
        "entry_id",
        entry_id=every(ep, "list_entries", order_id=o["id"], kind="disbursement")[0]["id"],
    )
    ok(ep, "clear_receipt", entry_id=receipt["id"])
    assert balance(ep, o["id"])["balance"] == 10_000


def test_closing_pays_every_disbursement_and_recording_follows(ep: Episode) -> None:
    o = order(ep, "clear_to_close")
    deed = every(ep, "list_documents", order_id=o["id"], kind="deed")[0]
    refused(
        ep, "record_document", "rule_violation", "document_id", document_id=deed["id"], instrument_number="2026-0100001"
    )
    closed = ok(ep, "close_order", order_id=o["id"])
    assert closed["status"] == "closed" and closed["closed_at"] is not None
    assert {e["status"] for e in every(ep, "list_entries", order_id=o["id"], kind="disbursement")} == {"disbursed"}
    done = ok(ep, "record_document", document_id=deed["id"], instrument_number="2026-0100001")
    assert (done["status"], done["recorded_on"]) == ("recorded", TODAY.isoformat())
    trust = every(ep, "list_documents", order_id=o["id"], kind="deed_of_trust")[0]
    refused(
        ep,
        "record_document",
        "conflict",
        "instrument_number",
        document_id=trust["id"],
        instrument_number="2026-0100001",
    )
    stmt = every(ep, "list_documents", order_id=o["id"], kind="settlement_statement")[0]
    refused(
        ep, "record_document", "rule_violation", "document_id", document_id=stmt["id"], instrument_number="2026-0100002"
    )
    refused(ep, "add_receipt", "rule_violation", "order_id", order_id=o["id"], party="x", amount=1, memo="late")


def test_an_order_does_not_close_before_its_closing_date(ep: Episode) -> None:
    o = order(ep, "clear_to_close")
    ok(ep, "update_order", order_id=o["id"], closing_date=(TODAY + dt.timedelta(days=3)).isoformat())
    refused(ep, "close_order", "rule_violation", "order_id", order_id=o["id"])


def test_cancelling_needs_an_empty_ledger(ep: Episode) -> None:
    funded = next(o for o in every(ep, "list_orders", status="open") if balance(ep, o["id"])["received"])
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=funded["id"])
    fresh = next(o for o in every(ep, "list_orders", status="open") if not every(ep, "list_entries", order_id=o["id"]))
    assert ok(ep, "cancel_order", order_id=fresh["id"])["status"] == "cancelled"
    refused(ep, "issue_commitment", "rule_violation", "order_id", order_id=fresh["id"])


def test_one_document_of_each_kind_per_order(ep: Episode) -> None:
    o = next(x for x in every(ep, "list_orders", status="open") if every(ep, "list_documents", order_id=x["id"]))
    kind = every(ep, "list_documents", order_id=o["id"])[0]["kind"]
    refused(ep, "create_document", "conflict", "kind", order_id=o["id"], kind=kind)
    made = ok(ep, "create_document", order_id=o["id"], kind="owner_affidavit")
    assert made["status"] == "draft"
    assert ok(ep, "sign_document", document_id=made["id"])["status"] == "signed"
    refused(ep, "sign_document", "rule_violation", "document_id", document_id=made["id"])
