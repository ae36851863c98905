"""Harborline Bank: available balance, approvals, roles, idempotent payments, transfers and statements."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import finance as links
from tests.services import helpers
from tests.services.helpers import ServiceTools, service_world

BANK = ServiceTools("banking")
WORLD = BANK.world
ok, refused, every = BANK.ok, BANK.refused, BANK.every
POP = WORLD.population


def acct(ep: Episode, name: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_accounts") if a["name"] == name)


def member(ep: Episode, role: str, k: int = 0) -> str:
    return str(every(ep, "list_team_members", role=role)[k]["email"])


def payee(ep: Episode, method: str = "ach") -> dict[str, Any]:
    return every(ep, "list_recipients", status="active", default_method=method)[0]


def send(ep: Episode, amount: int, key: str = "k-1", by: str | None = None, **extra: Any) -> dict[str, Any]:
    args: dict[str, Any] = {
        "account_id": acct(ep, "Operating Checking")["id"],
        "recipient_id": payee(ep)["id"],
        "amount": amount,
        "requested_by": by or member(ep, "admin"),
        "idempotency_key": key,
        **extra,
    }
    return dict(ok(ep, "send_money", **args))


# -- the world ------------------------------------------------------------------------------


def test_accounts_and_payees_match_the_ledger_and_procurement() -> None:
    ep = Episode(service_world("banking", "ledger"))
    ledger_banks = {a["bank_account_number"] for a in helpers.ok(ep, "ledger__list_accounts", type="bank")["items"]}
    ours = {a["account_number"] for a in helpers.ok(ep, "banking__list_accounts", limit=100)["items"]}
    assert ledger_banks == {links.home_account_number(POP, h.key) for h in links.HOME_ACCOUNTS} <= ours
    vendors = {v["name"]: v for v in helpers.ok(ep, "ledger__list_vendors", limit=100)["items"]}
    businesses = helpers.ok(ep, "banking__list_recipients", kind="business", limit=100)["items"]
    assert {r["business_name"] for r in businesses} == set(vendors)
    for r in businesses:
        v = vendors[r["business_name"]]
        assert (r["account_number"], r["email"], r["status"]) == (v["bank_account_number"], v["email"], v["status"])


def test_finance_staff_are_the_team_and_available_balances_net_the_holds() -> None:
    ep = Episode(WORLD)
    finance = {p.email for p in POP.employees if p.department == "Finance"}
    team = every(ep, "list_team_members")
    assert {m["email"] for m in team} == finance
    assert {m["role"] for m in team} == {"admin", "payments", "bookkeeper"}
    txs = every(ep, "list_transactions")
    for a in every(ep, "list_accounts"):
        held = sum(
            t["amount"]
            for t in txs
            if t["account_id"] == a["id"] and t["status"] == "pending" and t["direction"] == "debit"
        )
        assert a["available_balance"] == a["current_balance"] - held


# -- payments -------------------------------------------------------------------------------


def test_an_admins_small_payment_is_held_at_once(ep: Episode) -> None:
    before = acct(ep, "Operating Checking")
    tx = send(ep, 2_000_00, invoice_number="INV-20001")
    assert (tx["status"], tx["counterparty_account"]) == ("pending", payee(ep)["account_number"])
    after = acct(ep, "Operating Checking")
    assert after["available_balance"] == before["available_balance"] - 2_000_00
    assert after["current_balance"] == before["current_balance"]
    assert every(ep, "list_approval_requests", transaction_id=tx["id"]) == []


def test_a_large_payment_waits_for_another_admin(ep: Episode) -> None:
    admin, other = member(ep, "admin", 0), member(ep, "admin", 1)
    before = acct(ep, "Operating Checking")["available_balance"]
    tx = send(ep, 25_000_00, by=admin)
    assert tx["status"] == "pending_approval"
    assert acct(ep, "Operating Checking")["available_balance"] == before
    [req] = every(ep, "list_approval_requests", transaction_id=tx["id"])
    refused(
        ep, "approve_payment", "rule_violation", "approver_email", approval_request_id=req["id"], approver_email=admin
    )
    refused(
        ep,
        "approve_payment",
        "rule_violation",
        "approver_email",
        approval_request_id=req["id"],
        approver_email=member(ep, "bookkeeper"),
    )
    approved = ok(ep, "approve_payment", approval_request_id=req["id"], approver_email=other)
    assert approved["status"] == "pending" and approved["estimated_delivery"] is not None
    assert acct(ep, "Operating Checking")["available_balance"] == before - 25_000_00
    refused(
        ep,
        "approve_payment",
        "rule_violation",
        "approval_request_id",
        approval_request_id=req["id"],
        approver_email=other,
    )


def test_the_payments_role_always_needs_approval_and_bookkeepers_cannot_pay(ep: Episode) -> None:
    assert send(ep, 100_00, by=member(ep, "payments"))["status"] == "pending_approval"
    refused(
        ep,
        "send_money",
        "rule_violation",
        "requested_by",
        account_id=acct(ep, "Operating Checking")["id"],
        recipient_id=payee(ep)["id"],
        amount=100_00,
        requested_by=member(ep, "bookkeeper"),
        idempotency_key="k-2",
    )


def test_payments_are_limited_by_the_available_balance_and_the_account(ep: Episode) -> None:
    base = {"recipient_id": payee(ep)["id"], "requested_by": member(ep, "admin"), "idempotency_key": "k-3"}
    operating = acct(ep, "Operating Checking")
    msg = refused(
        ep,
        "send_money",
        "rule_violation",
        "amount",
        account_id=operating["id"],
        amount=operating["available_balance"] + 1,
        **base,
    )
    assert str(operating["available_balance"]) in msg
    refused(
        ep,
        "send_money",
        "rule_violation",
        "account_id",
        account_id=acct(ep, "Reserve Savings")["id"],
        amount=100,
        **base,
    )
    refused(
        ep,
        "send_money",
        "rule_violation",
        "account_id",
        account_id=acct(ep, "Legacy Checking")["id"],
        amount=100,
        **base,
    )


def test_a_retry_with_the_same_key_does_not_pay_twice(ep: Episode) -> None:
    first = send(ep, 1_500_00, key="inv-20001-pay")
    snap = ep.snapshot()
    again = send(ep, 1_500_00, key="inv-20001-pay")
    assert again == first and ep.diff(snap).is_empty
    refused(
        ep,
        "send_money",
        "conflict",
        "idempotency_key",
        account_id=first["account_id"],
        recipient_id=first["recipient_id"],
        amount=1_600_00,
        requested_by=member(ep, "admin"),
        idempotency_key="inv-20001-pay",
    )


def test_a_wire_needs_the_payees_address(ep: Episode) -> None:
    person = POP.consumers[-1]
    new = ok(
        ep,
        "create_recipient",
        kind="individual",
        person_name=person.name,
        account_number="IND-99001",
        routing_number="021000021",
    )
    refused(
        ep,
        "send_money",
        "rule_violation",
        "method",
        account_id=acct(ep, "Operating Checking")["id"],
        recipient_id=new["id"],
        amount=100_00,
        method="wire",
        requested_by=member(ep, "admin"),
        idempotency_key="k-4",
    )
    refused(ep, "update_recipient", "rule_violation", "address", recipient_id=new["id"], default_method="check")
    refused(
        ep,
        "create_recipient",
        "conflict",
        "account_number",
        kind="individual",
        person_name="Someone Else",
        account_number="IND-99001",
        routing_number="021000021",
    )


def test_rejecting_needs_a_reason_and_cancelling_releases_the_hold(ep: Episode) -> None:
    req = every(ep, "list_approval_requests", status="pending")[0]
    approver = next(
        m["email"] for m in every(ep, "list_team_members", role="admin") if m["email"] != req["requested_by"]
    )
    refused(
        ep,
        "reject_payment",
        "rule_violation",
        "reason",
        approval_request_id=req["id"],
        approver_email=approver,
        reason=" ",
    )
    assert (
        ok(ep, "reject_payment", approval_request_id=req["id"], approver_email=approver, reason="Wrong payee")["status"]
        == "rejected"
    )
    before = acct(ep, "Operating Checking")["available_balance"]
    tx = send(ep, 700_00, key="k-5")
    assert ok(ep, "cancel_transaction", transaction_id=tx["id"])["status"] == "cancelled"
    assert acct(ep, "Operating Checking")["available_balance"] == before
    sent = every(ep, "list_transactions", status="sent", direction="debit")[0]
    refused(ep, "cancel_transaction", "rule_violation", "transaction_id", transaction_id=sent["id"])


# -- transfers, deposits, statements --------------------------------------------------------


def test_an_internal_transfer_posts_both_legs(ep: Episode) -> None:
    reserve, operating = acct(ep, "Reserve Savings"), acct(ep, "Operating Checking")
    legs = ok(ep, "internal_transfer", from_account_id=reserve["id"], to_account_id=operating["id"], amount=30_000_00)
    assert legs["debit"]["related_transaction_id"] == legs["credit"]["id"]
    assert acct(ep, "Reserve Savings")["current_balance"] == reserve["current_balance"] - 30_000_00
    assert acct(ep, "Operating Checking")["available_balance"] == operating["available_balance"] + 30_000_00
    refused(
        ep,
        "internal_transfer",
        "rule_violation",
        "amount",
        from_account_id=reserve["id"],
        to_account_id=operating["id"],
        amount=reserve["available_balance"],
    )
    refused(
        ep,
        "internal_transfer",
        "rule_violation",
        "to_account_id",
        from_account_id=reserve["id"],
        to_account_id=reserve["id"],
        amount=1,
    )


def test_a_deposited_check_is_pending_and_deposited_once(ep: Episode) -> None:
    operating = acct(ep, "Operating Checking")
    image = "https://files.example.com/checks/new-1.jpg"
    tx = ok(
        ep,
        "deposit_check",
        account_id=operating["id"],
        amount=900_00,
        check_image=image,
        payer_company=POP.customers[1].name,
    )
    assert tx["status"] == "pending" and acct(ep, "Operating Checking") == operating
    refused(
        ep,
        "deposit_check",
        "conflict",
        "check_image",
        account_id=operating["id"],
        amount=900_00,
        check_image=image,
        payer_company=POP.customers[1].name,
    )
    refused(
        ep,
        "deposit_check",
        "rule_violation",
        "amount",
        account_id=operating["id"],
        amount=60_000_00,
        check_image="https://files.example.com/checks/new-2.jpg",
        payer_company=POP.customers[1].name,
    )


def test_the_statement_reconciles_opening_and_closing_balances(ep: Episode) -> None:
    operating = acct(ep, "Operating Checking")
    st = ok(ep, "account_statement", account_id=operating["id"], start="2026-02-01")
    assert st["closing_balance"] == operating["current_balance"]
    assert st["opening_balance"] + st["money_in"] - st["money_out"] == st["closing_balance"]
    assert st["money_in"] == sum(t["amount"] for t in st["transactions"] if t["direction"] == "credit")
    earlier = ok(ep, "account_statement", account_id=operating["id"], start="2026-01-20", end="2026-01-31")
    assert earlier["closing_balance"] == st["opening_balance"]
