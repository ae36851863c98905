"""Splitpay: checkouts, authorization from confirmed checkouts, captures, voids, refunds, disputes, settlement."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BNPL = ServiceTools("bnpl")
WORLD = BNPL.world
ok, refused, every = BNPL.ok, BNPL.refused, BNPL.every
POP = WORLD.population


def tx(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_transactions", status=status)[0]


def fresh_checkout(ep: Episode) -> dict[str, Any]:
    return max(every(ep, "list_checkouts", status="confirmed"), key=lambda c: c["confirmed_at"])


def test_seeded_transactions_match_their_checkouts_events_and_settlement(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    for c in every(ep, "list_checkouts"):
        assert c["customer_email"] in consumers
        lines = sum(i["unit_price"] * i["qty"] for i in c["items"])
        assert c["total"] == lines + c["shipping_amount"] + c["tax_amount"]
        assert bool(every(ep, "list_transactions", checkout_id=c["id"])) == (c["status"] == "authorized")
    for t in every(ep, "list_transactions"):
        events = every(ep, "list_events", transaction_id=t["id"])
        assert t["amount_captured"] == sum(e["amount"] for e in events if e["type"] in ("capture", "partial_capture"))
        assert t["amount_refunded"] == sum(e["amount"] for e in events if e["type"] == "refund")
    for s in every(ep, "list_settlements"):
        events = every(ep, "list_events", settlement_id=s["id"])
        assert len(events) == s["event_count"] and s["net"] == s["gross_captures"] - s["refunds"] - s["fees"]


def test_checkouts_total_their_lines_within_financing_limits(ep: Episode) -> None:
    p = POP.consumers[20]
    base = {"customer_name": p.name, "customer_email": p.email, "shipping_amount": 900, "tax_amount": 1100}
    item = {"sku": "DESK-200", "display_name": "Standing desk", "unit_price": 45000, "qty": 2}
    made = ok(ep, "create_checkout", order_id="SO-90001", items=[item], **base)
    assert (made["status"], made["total"]) == ("opened", 92000)
    refused(ep, "create_checkout", "conflict", "order_id", order_id="SO-90001", items=[item], **base)
    cheap = item | {"unit_price": 1000, "qty": 1}
    refused(ep, "create_checkout", "rule_violation", "items", order_id="SO-90002", items=[cheap], **base)
    for _ in range(5):
        ok(ep, "send_checkout_link", checkout_id=made["id"], channel="sms")
    refused(ep, "send_checkout_link", "rule_violation", "checkout_id", checkout_id=made["id"])


def test_only_recently_confirmed_checkouts_are_authorized_once(ep: Episode) -> None:
    chk = fresh_checkout(ep)
    t = ok(ep, "authorize_transaction", checkout_id=chk["id"])
    assert (t["status"], t["amount"], t["financing_program"]) == ("authorized", chk["total"], chk["financing_program"])
    assert ok(ep, "get_checkout", checkout_id=chk["id"])["status"] == "authorized"
    refused(ep, "authorize_transaction", "conflict", "checkout_id", checkout_id=chk["id"])
    opened = every(ep, "list_checkouts", status="opened")[0]
    refused(ep, "authorize_transaction", "rule_violation", "checkout_id", checkout_id=opened["id"])
    stale = min(every(ep, "list_checkouts", status="confirmed"), key=lambda c: c["confirmed_at"])
    refused(ep, "authorize_transaction", "rule_violation", "checkout_id", checkout_id=stale["id"])


def test_partial_captures_never_exceed_the_authorization(ep: Episode) -> None:
    t = tx(ep, "authorized")
    refused(ep, "capture_transaction", "rule_violation", "amount", transaction_id=t["id"], amount=t["amount"] + 1)
    part = ok(ep, "capture_transaction", transaction_id=t["id"], amount=10000)
    assert (part["status"], part["amount_captured"]) == ("partially_captured", 10000)
    rest = ok(ep, "capture_transaction", transaction_id=t["id"])
    assert (rest["status"], rest["amount_captured"]) == ("captured", t["amount"])
    kinds = [e["type"] for e in every(ep, "list_events", transaction_id=t["id"])]
    assert kinds == ["auth", "partial_capture", "capture"]
    refused(ep, "capture_transaction", "rule_violation", "transaction_id", transaction_id=t["id"], amount=1)


def test_voiding_releases_what_was_not_captured(ep: Episode) -> None:
    part = tx(ep, "partially_captured")
    done = ok(ep, "void_transaction", transaction_id=part["id"])
    assert (done["status"], done["amount"]) == ("captured", part["amount_captured"])
    whole = tx(ep, "authorized")
    assert ok(ep, "void_transaction", transaction_id=whole["id"])["status"] == "voided"
    refused(ep, "void_transaction", "rule_violation", "transaction_id", transaction_id=whole["id"])
    refused(ep, "capture_transaction", "rule_violation", "transaction_id", transaction_id=whole["id"])


def test_refunds_are_limited_to_captured_money_and_blocked_by_disputes(ep: Episode) -> None:
    disputed = {d["transaction_id"] for d in every(ep, "list_disputes")}
    t = next(x for x in every(ep, "list_transactions", status="captured") if x["id"] not in disputed)
    refused(ep, "refund_transaction", "rule_violation", "amount", transaction_id=t["id"], amount=t["amount"] + 1)
    part = ok(ep, "refund_transaction", transaction_id=t["id"], amount=5000)
    assert (part["status"], part["amount_refunded"]) == ("partially_refunded", 5000)
    full = ok(ep, "refund_transaction", transaction_id=t["id"])
    assert (full["status"], full["amount_refunded"]) == ("refunded", t["amount_captured"])
    refused(ep, "refund_transaction", "rule_violation", "transaction_id", transaction_id=t["id"])
    d = every(ep, "list_disputes", status="needs_response")[0]
    refused(
        ep, "refund_transaction", "rule_violation", "transaction_id", transaction_id=d["transaction_id"], amount=100
    )


def test_disputes_are_answered_with_evidence_or_accepted(ep: Episode) -> None:
    d = every(ep, "list_disputes", status="needs_response")[0]
    refused(ep, "respond_to_dispute", "rule_violation", "evidence", dispute_id=d["id"], evidence="delivered")
    evidence = "Signed proof of delivery and photos of the item as shipped."
    assert ok(ep, "respond_to_dispute", dispute_id=d["id"], evidence=evidence)["status"] == "under_review"
    refused(ep, "respond_to_dispute", "conflict", "dispute_id", dispute_id=d["id"], evidence=evidence)
    refused(ep, "accept_dispute", "conflict", "dispute_id", dispute_id=d["id"])


def test_accepting_a_dispute_refunds_the_disputed_amount(ep: Episode) -> None:
    d = every(ep, "list_disputes", status="needs_response")[0]
    before = ok(ep, "get_transaction", transaction_id=d["transaction_id"])
    assert ok(ep, "accept_dispute", dispute_id=d["id"])["status"] == "lost"
    after = ok(ep, "get_transaction", transaction_id=d["transaction_id"])
    assert after["amount_refunded"] == before["amount_refunded"] + d["amount"]


def test_settlement_batches_earlier_captures_and_refunds_once(ep: Episode) -> None:
    summary = ok(ep, "get_summary")
    stl = ok(ep, "run_settlement")
    events = every(ep, "list_events", settlement_id=stl["id"])
    assert {e["type"] for e in events} <= {"capture", "partial_capture", "refund"} and len(events) == stl["event_count"]
    assert stl["net"] == stl["gross_captures"] - stl["refunds"] - stl["fees"] == summary["unsettled_net"]
    assert ok(ep, "get_summary")["unsettled_net"] == 0
    refused(ep, "run_settlement", "rule_violation", None)
    ok(ep, "capture_transaction", transaction_id=tx(ep, "authorized")["id"])
    refused(ep, "run_settlement", "rule_violation", None)


def test_shipping_updates_are_logged_unless_voided(ep: Episode) -> None:
    t = tx(ep, "partially_captured")
    made = ok(
        ep,
        "update_transaction",
        transaction_id=t["id"],
        shipping_carrier="UPS",
        shipping_confirmation="1Z999AA10123456784",
    )
    assert (made["shipping_carrier"], made["shipping_confirmation"]) == ("UPS", "1Z999AA10123456784")
    assert every(ep, "list_events", transaction_id=t["id"], type="update")
    refused(ep, "update_transaction", "rule_violation", "shipping_carrier", transaction_id=t["id"])
    refused(
        ep,
        "update_transaction",
        "rule_violation",
        "transaction_id",
        transaction_id=tx(ep, "voided")["id"],
        shipping_carrier="FedEx",
    )
