"""Remit Payouts: verification gating, balances per currency, batches, cancellations and retries."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PAYOUTS = ServiceTools("payouts")
WORLD = PAYOUTS.world
ok, refused, every = PAYOUTS.ok, PAYOUTS.refused, PAYOUTS.every
POP = WORLD.population


def balance(ep: Episode, currency: str) -> dict[str, Any]:
    return dict(ok(ep, "get_balance", currency=currency))


def payable(ep: Episode, currency: str | None = None) -> list[dict[str, Any]]:
    funded = {b["currency"] for b in every(ep, "list_balances")}
    return [
        r
        for r in every(ep, "list_recipients", kyc_status="verified")
        if r["currency"] in funded and (currency is None or r["currency"] == currency)
    ]


def main_currency(ep: Episode) -> str:
    return str(every(ep, "list_payout_batches")[0]["currency"])


def test_recipients_are_people_and_companies_of_the_population() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for r in every(ep, "list_recipients"):
        person = people[r["email"]]
        assert r["name"] == person.name
        if r["kind"] == "company":
            company = POP.company_of(person)
            assert company is not None and r["business_name"] == company.name
        else:
            assert person.role == "consumer" and r["currency"] == person.place.currency


def test_each_balance_is_its_top_ups_less_what_was_paid_out() -> None:
    ep = Episode(WORLD)
    payouts = every(ep, "list_payouts")
    for bal in every(ep, "list_balances"):
        cur = bal["currency"]
        funded = sum(t["amount"] for t in every(ep, "list_top_ups", currency=cur))
        out = sum(p["amount"] for p in payouts if p["currency"] == cur and p["status"] not in ("cancelled", "failed"))
        moving = sum(p["amount"] for p in payouts if p["currency"] == cur and p["status"] in ("pending", "unclaimed"))
        assert (bal["available"], bal["in_transit"]) == (funded - out, moving)


def test_verification_goes_from_documents_to_a_decision(ep: Episode) -> None:
    r = every(ep, "list_recipients", kyc_status="unverified", kind="individual")[0]
    doc = "https://files.example.com/kyc/new.pdf"
    refused(
        ep,
        "submit_verification",
        "rule_violation",
        "document_type",
        recipient_id=r["id"],
        document_type="company_registration",
        document_url=doc,
    )
    refused(ep, "review_verification", "rule_violation", "recipient_id", recipient_id=r["id"], decision="verified")
    assert (
        ok(ep, "submit_verification", recipient_id=r["id"], document_type="passport", document_url=doc)["kyc_status"]
        == "pending"
    )
    refused(
        ep,
        "submit_verification",
        "rule_violation",
        "recipient_id",
        recipient_id=r["id"],
        document_type="passport",
        document_url=doc,
    )
    refused(ep, "review_verification", "rule_violation", "reason", recipient_id=r["id"], decision="rejected")
    assert ok(ep, "review_verification", recipient_id=r["id"], decision="verified")["kyc_status"] == "verified"


def test_only_verified_recipients_are_paid(ep: Episode) -> None:
    for status in ("unverified", "pending", "rejected"):
        r = every(ep, "list_recipients", kyc_status=status)[0]
        msg = refused(ep, "create_payout", "rule_violation", "recipient_id", recipient_id=r["id"], amount=100_00)
        assert status in msg


def test_a_payout_moves_money_from_available_to_in_transit(ep: Episode) -> None:
    r = payable(ep, main_currency(ep))[0]
    before = balance(ep, r["currency"])
    p = ok(ep, "create_payout", recipient_id=r["id"], amount=450_00, invoice_number="INV-7001")
    assert (p["status"], p["recipient_email"], p["currency"]) == ("pending", r["email"], r["currency"])
    assert p["destination"] == (r["bank_account"] if r["payout_method"] == "bank_transfer" else None)
    after = balance(ep, r["currency"])
    assert (after["available"], after["in_transit"]) == (before["available"] - 450_00, before["in_transit"] + 450_00)
    refused(
        ep,
        "create_payout",
        "conflict",
        "invoice_number",
        recipient_id=r["id"],
        amount=450_00,
        invoice_number="INV-7001",
    )


def test_payouts_stay_within_the_limits_and_the_balance(ep: Episode) -> None:
    r = payable(ep, main_currency(ep))[0]
    refused(ep, "create_payout", "rule_violation", "amount", recipient_id=r["id"], amount=20_000_01)
    refused(ep, "create_payout", "rule_violation", "amount", recipient_id=r["id"], amount=99)
    bal = balance(ep, r["currency"])
    for _ in range(bal["available"] // 20_000_00):
        ok(ep, "create_payout", recipient_id=r["id"], amount=20_000_00)
    left = balance(ep, r["currency"])["available"]
    msg = refused(ep, "create_payout", "rule_violation", "amount", recipient_id=r["id"], amount=left + 1)
    assert str(left) in msg


def test_an_unfunded_currency_needs_a_top_up_first(ep: Episode) -> None:
    funded = {b["currency"] for b in every(ep, "list_balances")}
    r = next(r for r in every(ep, "list_recipients", kyc_status="verified") if r["currency"] not in funded)
    refused(ep, "create_payout", "rule_violation", "recipient_id", recipient_id=r["id"], amount=100_00)
    bal = ok(ep, "top_up_balance", currency=r["currency"], amount=1_000_00, source_account="PLAT-OPS-0001")
    assert (bal["currency"], bal["available"]) == (r["currency"], 1_000_00)
    ok(ep, "create_payout", recipient_id=r["id"], amount=100_00)
    assert balance(ep, r["currency"])["available"] == 900_00


def test_a_batch_pays_everyone_once_in_one_currency(ep: Episode) -> None:
    cur = main_currency(ep)
    rs = payable(ep, cur)[:3]
    items = [{"recipient_email": r["email"], "amount": 100_00 * (k + 1)} for k, r in enumerate(rs)]
    before = balance(ep, cur)["available"]
    res = ok(
        ep, "create_payout_batch", sender_batch_id="2026-03-w1", email_subject="Earnings", currency=cur, items=items
    )
    assert (res["batch"]["item_count"], res["batch"]["total"]) == (3, 600_00)
    assert [p["recipient_email"] for p in res["payouts"]] == [r["email"] for r in rs]
    assert balance(ep, cur)["available"] == before - 600_00
    refused(
        ep,
        "create_payout_batch",
        "conflict",
        "sender_batch_id",
        sender_batch_id="2026-03-w1",
        email_subject="Again",
        currency=cur,
        items=items[:1],
    )
    refused(
        ep,
        "create_payout_batch",
        "rule_violation",
        "items.1.recipient_email",
        sender_batch_id="b-2",
        email_subject="Twice",
        currency=cur,
        items=[items[0], items[0]],
    )
    other = next(r for r in payable(ep) if r["currency"] != cur)
    refused(
        ep,
        "create_payout_batch",
        "rule_violation",
        "items.1.recipient_email",
        sender_batch_id="b-3",
        email_subject="Mixed",
        currency=cur,
        items=[items[0], {"recipient_email": other["email"], "amount": 100_00}],
    )
    refused(
        ep,
        "create_payout_batch",
        "not_found",
        "items.0.recipient_email",
        sender_batch_id="b-4",
        email_subject="Unknown",
        currency=cur,
        items=[{"recipient_email": "nobody@example.com", "amount": 100_00}],
    )


def test_cancelling_returns_the_money_and_empties_the_batch(ep: Episode) -> None:
    batch = every(ep, "list_payout_batches", status="processing")[0]
    items = every(ep, "list_payouts", batch_id=batch["id"])
    before = balance(ep, batch["currency"])
    for p in items:
        assert ok(ep, "cancel_payout", payout_id=p["id"])["status"] == "cancelled"
    after = balance(ep, batch["currency"])
    assert after["available"] == before["available"] + batch["total"]
    assert after["in_transit"] == before["in_transit"] - batch["total"]
    assert ok(ep, "get_payout_batch", payout_batch_id=batch["id"])["status"] == "cancelled"
    paid = every(ep, "list_payouts", status="paid")[0]
    refused(ep, "cancel_payout", "rule_violation", "payout_id", payout_id=paid["id"])


def test_a_failed_payout_is_retried_only_to_a_new_account(ep: Episode) -> None:
    failed = every(ep, "list_payouts", status="failed")
    stuck = next(
        p for p in failed if ok(ep, "get_recipient", recipient_id=p["recipient_id"])["bank_account"] == p["destination"]
    )
    refused(ep, "retry_payout", "rule_violation", "payout_id", payout_id=stuck["id"])
    ok(ep, "update_recipient", recipient_id=stuck["recipient_id"], bank_account="NEW-ACCT-7788")
    retry = ok(ep, "retry_payout", payout_id=stuck["id"])
    assert (retry["destination"], retry["amount"], retry["retry_of"]) == ("NEW-ACCT-7788", stuck["amount"], stuck["id"])
    refused(ep, "retry_payout", "conflict", "payout_id", payout_id=stuck["id"])


def test_earnings_total_a_recipients_payouts(ep: Episode) -> None:
    r = payable(ep, main_currency(ep))[0]
    mine = every(ep, "list_payouts", recipient_id=r["id"])
    earned = ok(ep, "recipient_earnings", recipient_email=r["email"])
    assert earned["paid"] == sum(p["amount"] for p in mine if p["status"] == "paid")
    assert earned["payouts"] == len(mine)
    refused(ep, "recipient_earnings", "not_found", "recipient_email", recipient_email="nobody@example.com")
