"""Paystream: charges and captures, refunds bounded by the charge, disputes, balance and payouts."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Ctx, Episode
from compoworld.services.finance.payments import Charge, Dispute
from tests.services.helpers import ServiceTools

PAYMENTS = ServiceTools("payments")
WORLD = PAYMENTS.world
ok, refused, every = PAYMENTS.ok, PAYMENTS.refused, PAYMENTS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def chargeable(ep: Episode) -> tuple[dict[str, Any], dict[str, Any]]:
    """A customer whose default card can be charged, and that card."""
    for customer in every(ep, "list_customers"):
        pm_id = customer["default_payment_method_id"]
        if pm_id is None:
            continue
        pm = ok(ep, "get_payment_method", payment_method_id=pm_id)
        if pm["type"] == "card" and pm["last4"] not in ("0002", "9995") and pm["exp_year"] > TODAY.year:
            return customer, pm
    raise AssertionError("no chargeable customer")


def charge_where(ep: Episode, status: str, **extra: Any) -> dict[str, Any]:
    for ch in every(ep, "list_charges", status=status):
        if all(ch[k] == v for k, v in extra.items()):
            return ch
    raise AssertionError(f"no {status} charge with {extra}")


def balance(ep: Episode, currency: str) -> dict[str, Any]:
    [row] = ok(ep, "get_balance", currency=currency)
    return dict(row)


# -- the world ------------------------------------------------------------------------------


def test_customers_are_the_populations_consumers_and_billing_contacts() -> None:
    ep = Episode(WORLD)
    emails = {c["email"] for c in every(ep, "list_customers")}
    assert {p.email for p in POP.consumers} <= emails
    assert emails <= {p.email for p in POP.people if p.role in ("consumer", "contact")}
    statuses = {c["status"] for c in every(ep, "list_charges")}
    assert statuses == {"requires_capture", "succeeded", "failed", "canceled"}
    assert {d["status"] for d in every(ep, "list_disputes")} == {
        "warning_needs_response",
        "needs_response",
        "under_review",
        "won",
        "lost",
    }


def test_every_currency_with_a_bank_account_has_a_positive_available_balance() -> None:
    ep = Episode(WORLD)
    for account in every(ep, "list_bank_accounts", default_for_currency=True):
        assert balance(ep, account["currency"])["available"] > 0


# -- charging -------------------------------------------------------------------------------


def test_a_captured_charge_withholds_the_fee_and_is_pending_until_settled(ep: Episode) -> None:
    customer, pm = chargeable(ep)
    before = balance(ep, "USD")
    ch = ok(
        ep,
        "create_charge",
        customer_id=customer["id"],
        amount=10_000,
        currency="USD",
        invoice_number="INV-00012",
        description="Invoice INV-00012",
    )
    assert (ch["status"], ch["amount_captured"], ch["fee"]) == ("succeeded", 10_000, 320)
    assert (ch["payment_method_id"], ch["receipt_email"], ch["invoice_number"]) == (
        pm["id"],
        customer["email"],
        "INV-00012",
    )
    assert ch["available_on"] == (TODAY + dt.timedelta(days=2)).isoformat()
    after = balance(ep, "USD")
    assert after["pending"] == before["pending"] + 10_000 - 320
    assert after["available"] == before["available"]
    assert ep.diff().counts() == {"payments.charges": {"added": 1, "updated": 0, "removed": 0}}
    assert ok(ep, "list_charges", invoice_number="INV-00012")["items"] == [ch]


def test_a_charge_below_the_minimum_is_refused(ep: Episode) -> None:
    customer, _ = chargeable(ep)
    refused(ep, "create_charge", "rule_violation", "amount", customer_id=customer["id"], amount=49, currency="USD")


def test_an_expired_or_declined_card_refuses_the_charge(ep: Episode) -> None:
    customer, _ = chargeable(ep)
    declined = ok(
        ep,
        "create_payment_method",
        type="card",
        customer_id=customer["id"],
        brand="visa",
        last4="0002",
        exp_month=12,
        exp_year=TODAY.year + 1,
        billing_name=customer["name"],
    )
    msg = refused(
        ep,
        "create_charge",
        "rule_violation",
        "payment_method_id",
        customer_id=customer["id"],
        amount=5000,
        currency="USD",
        payment_method_id=declined["id"],
    )
    assert msg.startswith("card_declined")
    seeded_expired = next(
        pm for pm in every(ep, "list_payment_methods", type="card") if pm["customer_id"] and pm["exp_year"] < TODAY.year
    )
    msg = refused(
        ep,
        "create_charge",
        "rule_violation",
        "payment_method_id",
        customer_id=seeded_expired["customer_id"],
        amount=5000,
        currency="USD",
        payment_method_id=seeded_expired["id"],
    )
    assert msg.startswith("expired_card")


def test_a_payment_method_of_another_customer_cannot_be_charged(ep: Episode) -> None:
    customer, pm = chargeable(ep)
    other = next(c for c in every(ep, "list_customers") if c["id"] != customer["id"])
    refused(
        ep,
        "create_charge",
        "rule_violation",
        "payment_method_id",
        customer_id=other["id"],
        amount=5000,
        currency="USD",
        payment_method_id=pm["id"],
    )


def test_a_customer_without_a_payment_method_cannot_be_charged(ep: Episode) -> None:
    bare = next(c for c in every(ep, "list_customers") if c["default_payment_method_id"] is None)
    refused(
        ep, "create_charge", "rule_violation", "payment_method_id", customer_id=bare["id"], amount=5000, currency="USD"
    )


# -- authorize and capture ------------------------------------------------------------------


def test_an_authorization_is_captured_once_for_at_most_the_authorized_amount(ep: Episode) -> None:
    customer, _ = chargeable(ep)
    auth = ok(ep, "create_charge", customer_id=customer["id"], amount=8000, currency="EUR", capture=False)
    assert (auth["status"], auth["amount_captured"], auth["fee"]) == ("requires_capture", 0, 0)
    refused(ep, "capture_charge", "rule_violation", "amount_to_capture", charge_id=auth["id"], amount_to_capture=8001)
    captured = ok(ep, "capture_charge", charge_id=auth["id"], amount_to_capture=6000)
    assert (captured["status"], captured["amount"], captured["amount_captured"]) == ("succeeded", 8000, 6000)
    assert captured["fee"] == 174 + 30
    msg = refused(ep, "capture_charge", "rule_violation", "charge_id", charge_id=auth["id"])
    assert "already been captured" in msg


def test_a_failed_or_canceled_charge_cannot_be_captured(ep: Episode) -> None:
    refused(ep, "capture_charge", "rule_violation", "charge_id", charge_id=charge_where(ep, "failed")["id"])
    refused(ep, "capture_charge", "rule_violation", "charge_id", charge_id=charge_where(ep, "canceled")["id"])


def test_an_authorization_older_than_seven_days_cannot_be_captured(ep: Episode) -> None:
    auth = charge_where(ep, "requires_capture")
    ctx = Ctx(ep)
    stale = ctx.get(Charge, auth["id"])
    ctx.update(stale, created_at=WORLD.epoch - dt.timedelta(days=8))
    refused(ep, "capture_charge", "rule_violation", "charge_id", charge_id=auth["id"])


def test_canceling_releases_an_authorization_but_not_a_captured_charge(ep: Episode) -> None:
    refused(ep, "cancel_charge", "rule_violation", "charge_id", charge_id=charge_where(ep, "succeeded")["id"])
    auth = charge_where(ep, "requires_capture")
    canceled = ok(ep, "cancel_charge", charge_id=auth["id"], reason="abandoned")
    assert canceled["status"] == "canceled"
    [change] = ep.diff().tables["payments.charges"].updated
    assert change.changed == ["description", "status"]


# -- refunds --------------------------------------------------------------------------------


def test_refunds_of_a_charge_cannot_add_up_to_more_than_was_captured(ep: Episode) -> None:
    ch = charge_where(ep, "succeeded", amount_refunded=0, disputed=False)
    first = ok(
        ep, "create_refund", charge_id=ch["id"], amount=ch["amount_captured"] - 100, reason="requested_by_customer"
    )
    assert first["currency"] == ch["currency"]
    msg = refused(ep, "create_refund", "rule_violation", "amount", charge_id=ch["id"], amount=101)
    assert "100" in msg
    rest = ok(ep, "create_refund", charge_id=ch["id"])
    assert rest["amount"] == 100
    after = ok(ep, "get_charge", charge_id=ch["id"])
    assert (after["amount_refunded"], after["refunded"]) == (ch["amount_captured"], True)
    refused(ep, "create_refund", "rule_violation", "charge_id", charge_id=ch["id"])
    assert ep.diff().counts()["payments.refunds"]["added"] == 2


def test_refunds_come_out_of_the_available_balance(ep: Episode) -> None:
    ch = charge_where(ep, "succeeded", amount_refunded=0, disputed=False)
    before = balance(ep, ch["currency"])["available"]
    ok(ep, "create_refund", charge_id=ch["id"], amount=500)
    assert balance(ep, ch["currency"])["available"] == before - 500


def test_a_failed_canceled_or_uncaptured_charge_cannot_be_refunded(ep: Episode) -> None:
    for status in ("failed", "canceled", "requires_capture"):
        refused(ep, "create_refund", "rule_violation", "charge_id", charge_id=charge_where(ep, status)["id"])


def test_a_disputed_charge_cannot_be_refunded(ep: Episode) -> None:
    ch = charge_where(ep, "succeeded", disputed=True)
    refused(ep, "create_refund", "rule_violation", "charge_id", charge_id=ch["id"], amount=100)


# -- disputes -------------------------------------------------------------------------------


def test_submitting_evidence_puts_the_dispute_under_review(ep: Episode) -> None:
    dp = every(ep, "list_disputes", status="needs_response")[0]
    saved = ok(ep, "submit_dispute_evidence", dispute_id=dp["id"], evidence="Tracking shows delivery.", submit=False)
    assert (saved["status"], saved["evidence"]) == ("needs_response", "Tracking shows delivery.")
    sent = ok(ep, "submit_dispute_evidence", dispute_id=dp["id"], evidence="Signed delivery receipt.")
    assert (sent["status"], sent["submitted_at"]) == ("under_review", "2026-03-02T09:01:00Z")
    refused(ep, "submit_dispute_evidence", "rule_violation", "dispute_id", dispute_id=dp["id"], evidence="More")


def test_evidence_after_the_deadline_or_empty_is_refused(ep: Episode) -> None:
    dp = every(ep, "list_disputes", status="needs_response")[0]
    refused(ep, "submit_dispute_evidence", "rule_violation", "evidence", dispute_id=dp["id"], evidence="  ")
    ctx = Ctx(ep)
    ctx.update(ctx.get(Dispute, dp["id"]), evidence_due_by=TODAY - dt.timedelta(days=1))
    refused(ep, "submit_dispute_evidence", "rule_violation", "dispute_id", dispute_id=dp["id"], evidence="Receipt")


def test_accepting_a_dispute_loses_it_and_a_decided_one_cannot_be_accepted(ep: Episode) -> None:
    dp = every(ep, "list_disputes", status="warning_needs_response")[0]
    before = balance(ep, dp["currency"])["available"]
    lost = ok(ep, "accept_dispute", dispute_id=dp["id"])
    assert lost["status"] == "lost"
    assert balance(ep, dp["currency"])["available"] == before - dp["amount"] - 1500
    for status in ("won", "lost", "under_review"):
        decided = every(ep, "list_disputes", status=status)[0]
        refused(ep, "accept_dispute", "rule_violation", "dispute_id", dispute_id=decided["id"])


# -- payouts --------------------------------------------------------------------------------


def test_a_payout_above_the_available_balance_is_refused_and_changes_nothing(ep: Episode) -> None:
    available = balance(ep, "USD")["available"]
    refused(ep, "create_payout", "rule_violation", "amount", amount=available + 1, currency="USD")


def test_a_payout_within_the_balance_goes_to_the_default_account(ep: Episode) -> None:
    available = balance(ep, "EUR")["available"]
    payout = ok(ep, "create_payout", amount=available, currency="EUR")
    [account] = every(ep, "list_bank_accounts", currency="EUR", default_for_currency=True)
    assert (payout["bank_account_id"], payout["status"]) == (account["id"], "pending")
    assert payout["arrival_date"] == (TODAY + dt.timedelta(days=2)).isoformat()
    assert balance(ep, "EUR")["available"] == 0
    refused(ep, "create_payout", "rule_violation", "amount", amount=1, currency="EUR")
    ok(ep, "cancel_payout", payout_id=payout["id"])
    assert balance(ep, "EUR")["available"] == available


def test_a_payout_needs_a_bank_account_in_its_currency(ep: Episode) -> None:
    eur = every(ep, "list_bank_accounts", currency="EUR")[0]
    refused(
        ep, "create_payout", "rule_violation", "bank_account_id", amount=100, currency="USD", bank_account_id=eur["id"]
    )
    refused(ep, "create_payout", "rule_violation", "currency", amount=100, currency="CHF")


def test_only_a_pending_payout_can_be_canceled(ep: Episode) -> None:
    for status in ("in_transit", "paid"):
        payout = every(ep, "list_payouts", status=status)[0]
        refused(ep, "cancel_payout", "rule_violation", "payout_id", payout_id=payout["id"])


# -- payment methods, customers, bank accounts ----------------------------------------------


def test_a_payment_method_attached_to_another_customer_cannot_be_attached(ep: Episode) -> None:
    customer, pm = chargeable(ep)
    other = next(c for c in every(ep, "list_customers") if c["id"] != customer["id"])
    refused(
        ep,
        "attach_payment_method",
        "rule_violation",
        "payment_method_id",
        payment_method_id=pm["id"],
        customer_id=other["id"],
    )
    refused(
        ep,
        "update_customer",
        "rule_violation",
        "default_payment_method_id",
        customer_id=other["id"],
        default_payment_method_id=pm["id"],
    )


def test_detaching_the_default_card_leaves_the_customer_without_a_default(ep: Episode) -> None:
    customer, pm = chargeable(ep)
    detached = ok(ep, "detach_payment_method", payment_method_id=pm["id"])
    assert detached["customer_id"] is None
    assert ok(ep, "get_customer", customer_id=customer["id"])["default_payment_method_id"] is None
    attached = ok(ep, "attach_payment_method", payment_method_id=pm["id"], customer_id=customer["id"])
    assert attached["customer_id"] == customer["id"]
    assert ok(ep, "get_customer", customer_id=customer["id"])["default_payment_method_id"] == pm["id"]


def test_an_expired_card_cannot_be_added_and_a_bank_account_has_no_expiry(ep: Episode) -> None:
    customer, _ = chargeable(ep)
    refused(
        ep,
        "create_payment_method",
        "rule_violation",
        "exp_year",
        type="card",
        customer_id=customer["id"],
        brand="visa",
        last4="4242",
        exp_month=1,
        exp_year=TODAY.year - 1,
        billing_name=customer["name"],
    )
    refused(
        ep,
        "create_payment_method",
        "rule_violation",
        "exp_month",
        type="sepa_debit",
        last4="3000",
        exp_month=4,
        billing_name=customer["name"],
    )


def test_a_customer_with_an_open_authorization_cannot_be_deleted(ep: Episode) -> None:
    auth = charge_where(ep, "requires_capture")
    refused(ep, "delete_customer", "rule_violation", "customer_id", customer_id=auth["customer_id"])


def test_deleting_a_customer_detaches_its_payment_methods(ep: Episode) -> None:
    held = {c["customer_id"] for c in every(ep, "list_charges", status="requires_capture")}
    customer = next(c for c in every(ep, "list_customers") if c["default_payment_method_id"] and c["id"] not in held)
    methods = every(ep, "list_payment_methods", customer_id=customer["id"])
    ok(ep, "delete_customer", customer_id=customer["id"])
    counts = ep.diff().counts()
    assert counts["payments.customers"]["removed"] == 1
    assert counts["payments.payment_methods"]["updated"] == len(methods)


def test_the_default_bank_account_cannot_be_deleted_and_a_new_default_replaces_it(ep: Episode) -> None:
    [default] = every(ep, "list_bank_accounts", currency="USD", default_for_currency=True)
    refused(ep, "delete_bank_account", "rule_violation", "bank_account_id", bank_account_id=default["id"])
    refused(
        ep,
        "update_bank_account",
        "rule_violation",
        "default_for_currency",
        bank_account_id=default["id"],
        default_for_currency=False,
    )
    new = ok(
        ep,
        "create_bank_account",
        bank_name="Lakeside Credit Union",
        account_number="US550210000001",
        currency="USD",
        country="US",
        default_for_currency=True,
    )
    assert new["holder_name"] == POP.home.name
    assert ok(ep, "get_bank_account", bank_account_id=default["id"])["default_for_currency"] is False
    refused(
        ep,
        "create_bank_account",
        "conflict",
        "account_number",
        bank_name="Other",
        account_number="US550210000001",
        currency="USD",
        country="US",
    )


def test_a_card_expiry_can_be_renewed_but_not_set_in_the_past(ep: Episode) -> None:
    expired = next(
        pm for pm in every(ep, "list_payment_methods", type="card") if pm["customer_id"] and pm["exp_year"] < TODAY.year
    )
    refused(
        ep,
        "update_payment_method",
        "rule_violation",
        "exp_year",
        payment_method_id=expired["id"],
        exp_year=TODAY.year - 2,
    )
    renamed = ok(ep, "update_payment_method", payment_method_id=expired["id"], billing_name="Renamed Holder")
    assert renamed["billing_name"] == "Renamed Holder"
    renewed = ok(ep, "update_payment_method", payment_method_id=expired["id"], exp_year=TODAY.year + 3)
    assert renewed["exp_year"] == TODAY.year + 3
