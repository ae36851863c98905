"""Meridian Pay Global: quote pricing and expiry, recipients per currency, funding, transfer states, batches."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import finance as links
from tests.services.helpers import ServiceTools

XB = ServiceTools("xborder")
WORLD = XB.world
ok, refused, every = XB.ok, XB.refused, XB.every
POP = WORLD.population
TYPES = {"EUR": "iban", "GBP": "sort_code", "USD": "aba", "INR": "ifsc", "MXN": "clabe"}


def balance(ep: Episode, currency: str) -> dict[str, Any]:
    return every(ep, "list_balances", currency=currency, status="active")[0]


def recipient(ep: Episode, currency: str) -> dict[str, Any]:
    return every(ep, "list_recipients", currency=currency, active=True)[0]


def transfer(ep: Episode, currency: str, amount: int, txn: str, source: str = "USD") -> dict[str, Any]:
    q = ok(ep, "create_quote", source_currency=source, target_currency=currency, source_amount=amount)
    r = recipient(ep, currency)
    return dict(
        ok(
            ep,
            "create_transfer",
            quote_id=q["id"],
            recipient_id=r["id"],
            reference="Invoice 77",
            customer_transaction_id=txn,
        )
    )


def test_seeding_keeps_balances_recipients_and_batches_consistent(ep: Episode) -> None:
    for b in every(ep, "list_balances"):
        held = every(ep, "list_transfers", source_currency=b["currency"], status="processing")
        assert b["reserved"] == sum(t["source_amount"] for t in held)
    suppliers = {s.company.name: s.contact.email for s in links.suppliers(POP)}
    for r in every(ep, "list_recipients"):
        assert r["account_type"] == TYPES.get(r["currency"], "swift")
        if r["business_name"]:
            assert suppliers[r["business_name"]] == r["email"]
    for g in every(ep, "list_batch_groups"):
        ts = every(ep, "list_transfers", batch_id=g["id"])
        assert sorted(g["transfer_ids"]) == sorted(t["id"] for t in ts)
        assert g["total_source_amount"] == sum(t["source_amount"] for t in ts)


def test_a_quote_charges_a_fixed_fee_plus_045_percent_at_mid_market(ep: Episode) -> None:
    q = ok(ep, "create_quote", source_currency="USD", target_currency="EUR", source_amount=10_000_00)
    assert q["fee"] == 1_50 + 45_00
    assert q["target_amount"] == int((10_000_00 - q["fee"]) * q["rate"])
    t = ok(ep, "create_quote", source_currency="GBP", target_currency="INR", target_amount=500_000_00)
    assert t["target_amount"] == 500_000_00 and (t["source_amount"] - t["fee"]) * t["rate"] >= 499_999_00
    refused(
        ep,
        "create_quote",
        "rule_violation",
        "source_amount",
        source_currency="USD",
        target_currency="EUR",
        source_amount=100,
        target_amount=100,
    )
    refused(
        ep,
        "create_quote",
        "rule_violation",
        "target_currency",
        source_currency="USD",
        target_currency="BRL",
        source_amount=100_00,
    )


def test_a_transfer_needs_a_live_unused_quote_in_the_recipients_currency(ep: Episode) -> None:
    expired = next(q for q in every(ep, "list_quotes", status="pending") if q["target_currency"] == "GBP")
    gbp = recipient(ep, "GBP")
    base = {"reference": "Invoice 1", "customer_transaction_id": "new-0000001"}
    refused(ep, "create_transfer", "rule_violation", "quote_id", quote_id=expired["id"], recipient_id=gbp["id"], **base)
    live = ok(ep, "create_quote", source_currency="USD", target_currency="EUR", source_amount=2_000_00)
    refused(
        ep, "create_transfer", "rule_violation", "recipient_id", quote_id=live["id"], recipient_id=gbp["id"], **base
    )
    used = every(ep, "list_transfers")[0]
    refused(
        ep,
        "create_transfer",
        "conflict",
        "customer_transaction_id",
        quote_id=live["id"],
        recipient_id=recipient(ep, "EUR")["id"],
        reference="x",
        customer_transaction_id=used["customer_transaction_id"],
    )
    made = ok(ep, "create_transfer", quote_id=live["id"], recipient_id=recipient(ep, "EUR")["id"], **base)
    assert (made["status"], made["target_amount"]) == ("incoming_payment_waiting", live["target_amount"])
    refused(
        ep,
        "create_transfer",
        "conflict",
        "quote_id",
        quote_id=live["id"],
        recipient_id=recipient(ep, "EUR")["id"],
        reference="x",
        customer_transaction_id="new-0000002",
    )


def test_funding_takes_the_source_amount_from_a_balance_that_covers_it(ep: Episode) -> None:
    eur = balance(ep, "EUR")
    big = transfer(ep, "GBP", eur["amount"] + 1, "big-0000001", source="EUR")
    refused(ep, "fund_transfer", "rule_violation", "transfer_id", transfer_id=big["id"])
    t = transfer(ep, "INR", 5_000_00, "inr-0000001")
    usd = balance(ep, "USD")
    funded = ok(ep, "fund_transfer", transfer_id=t["id"])
    assert (funded["status"], funded["funded"]) == ("processing", True)
    after = balance(ep, "USD")
    assert (after["amount"], after["reserved"]) == (usd["amount"] - 5_000_00, usd["reserved"] + 5_000_00)
    refused(ep, "fund_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])


def test_a_funded_transfer_converts_and_is_sent_then_cannot_be_cancelled(ep: Episode) -> None:
    t = transfer(ep, "EUR", 3_000_00, "eur-0000001")
    refused(ep, "simulate_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])
    ok(ep, "fund_transfer", transfer_id=t["id"])
    reserved = balance(ep, "USD")["reserved"]
    assert ok(ep, "simulate_transfer", transfer_id=t["id"])["status"] == "funds_converted"
    assert balance(ep, "USD")["reserved"] == reserved - 3_000_00
    refused(ep, "cancel_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])
    assert ok(ep, "simulate_transfer", transfer_id=t["id"])["status"] == "outgoing_payment_sent"
    refused(ep, "simulate_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])


def test_cancelling_a_funded_transfer_refunds_the_balance(ep: Episode) -> None:
    t = every(ep, "list_transfers", status="processing")[0]
    bal = balance(ep, t["source_currency"])
    assert ok(ep, "cancel_transfer", transfer_id=t["id"])["status"] == "cancelled"
    after = balance(ep, t["source_currency"])
    assert (after["amount"], after["reserved"]) == (
        bal["amount"] + t["source_amount"],
        bal["reserved"] - t["source_amount"],
    )
    refused(ep, "cancel_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])


def test_recipient_accounts_follow_their_currency(ep: Episode) -> None:
    base = {"business_name": "Nordlicht GmbH", "country": "DE"}
    refused(
        ep, "create_recipient", "rule_violation", "account_number", currency="EUR", account_number="12345678", **base
    )
    refused(ep, "create_recipient", "rule_violation", "bank_code", currency="GBP", account_number="31926819", **base)
    refused(
        ep,
        "create_recipient",
        "rule_violation",
        "business_name",
        currency="GBP",
        account_number="31926819",
        bank_code="200415",
        person_name="Ann Lee",
        **base,
    )
    iban = ok(ep, "create_recipient", currency="EUR", account_number="DE89370400440532013000", **base)
    assert (iban["account_type"], iban["bank_code"]) == ("iban", None)
    chf = ok(ep, "create_recipient", currency="CHF", account_number="0235-00012345", bank_code="UBSWCHZH", **base)
    assert chf["account_type"] == "swift"
    refused(
        ep,
        "create_recipient",
        "conflict",
        "account_number",
        currency="EUR",
        account_number="DE89370400440532013000",
        **base,
    )
    busy = every(ep, "list_transfers", status="processing")[0]
    refused(ep, "update_recipient", "rule_violation", "recipient_id", recipient_id=busy["recipient_id"], active=False)


def test_balances_open_once_per_currency_and_close_only_empty(ep: Episode) -> None:
    refused(ep, "open_balance", "conflict", "currency", currency="USD")
    refused(ep, "open_balance", "rule_violation", "currency", currency="BRL")
    assert ok(ep, "open_balance", currency="CHF")["amount"] == 0
    refused(ep, "close_balance", "rule_violation", "balance_id", balance_id=balance(ep, "GBP")["id"])
    cad = balance(ep, "CAD")
    assert ok(ep, "close_balance", balance_id=cad["id"])["status"] == "closed"
    refused(ep, "top_up_balance", "rule_violation", "balance_id", balance_id=cad["id"], amount=100)
    gbp = balance(ep, "GBP")
    assert ok(ep, "top_up_balance", balance_id=gbp["id"], amount=1_000_00)["amount"] == gbp["amount"] + 1_000_00


def test_a_batch_takes_one_source_currency_is_completed_then_funded_at_once(ep: Episode) -> None:
    new = every(ep, "list_batch_groups", status="new")[0]
    eur_q = ok(ep, "create_quote", source_currency="EUR", target_currency="GBP", source_amount=1_000_00)
    gbp = recipient(ep, "GBP")
    refused(
        ep,
        "add_batch_transfer",
        "rule_violation",
        "quote_id",
        batch_group_id=new["id"],
        quote_id=eur_q["id"],
        recipient_id=gbp["id"],
        reference="x",
        customer_transaction_id="bat-0000001",
    )
    usd_q = ok(ep, "create_quote", source_currency="USD", target_currency="GBP", source_amount=1_000_00)
    t = ok(
        ep,
        "add_batch_transfer",
        batch_group_id=new["id"],
        quote_id=usd_q["id"],
        recipient_id=gbp["id"],
        reference="x",
        customer_transaction_id="bat-0000001",
    )
    refused(ep, "fund_transfer", "rule_violation", "transfer_id", transfer_id=t["id"])
    refused(ep, "fund_batch", "rule_violation", "batch_group_id", batch_group_id=new["id"])
    done = ok(ep, "complete_batch", batch_group_id=new["id"])
    assert done["status"] == "completed" and t["id"] in done["transfer_ids"]
    usd = balance(ep, "USD")
    assert ok(ep, "fund_batch", batch_group_id=new["id"])["status"] == "funded"
    assert balance(ep, "USD")["amount"] == usd["amount"] - done["total_source_amount"]
    assert {x["status"] for x in every(ep, "list_transfers", batch_id=new["id"])} == {"processing"}
    refused(
        ep,
        "add_batch_transfer",
        "rule_violation",
        "batch_group_id",
        batch_group_id=new["id"],
        quote_id=usd_q["id"],
        recipient_id=gbp["id"],
        reference="x",
        customer_transaction_id="bat-0000002",
    )
