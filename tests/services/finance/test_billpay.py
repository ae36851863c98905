"""Settle Payables: bills that match their lines, sequential approvals, scheduled and partial payments, credits."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BILLPAY = ServiceTools("billpay")
WORLD = BILLPAY.world
ok, refused, every = BILLPAY.ok, BILLPAY.refused, BILLPAY.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
USERS = {u["role"]: u["email"] for u in BILLPAY.seeded("users") if u["is_active"]}
INACTIVE = next(u["email"] for u in BILLPAY.seeded("users") if not u["is_active"])
CLERK, PAYER, ADMIN = USERS["CLERK"], USERS["PAYER"], USERS["ADMINISTRATOR"]
APPROVERS = [u["email"] for u in BILLPAY.seeded("users") if u["role"] == "APPROVER"]


def bill(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_bills", **filters)[0]


def lines(*amounts: int) -> list[dict[str, Any]]:
    return [{"description": f"Line {k}", "amount": a} for k, a in enumerate(amounts)]


def new_bill(ep: Episode, vendor_id: str, number: str, *amounts: int, **extra: Any) -> Any:
    return ok(
        ep,
        "create_bill",
        vendor_id=vendor_id,
        invoice_number=number,
        invoice_date=TODAY.isoformat(),
        amount=sum(amounts),
        line_items=lines(*amounts),
        created_by_email=CLERK,
        **extra,
    )


def approved(ep: Episode, *amounts: int) -> dict[str, Any]:
    vendor = every(ep, "list_vendors", is_active=True)[0]
    made = new_bill(ep, vendor["id"], "INV-T-900", *amounts)
    ok(ep, "assign_bill_approvers", bill_id=made["id"], approvers=APPROVERS[:1])
    return ok(ep, "approve_bill", bill_id=made["id"], approver_email=APPROVERS[0])  # type: ignore[no-any-return]


def test_seeded_vendors_are_the_populations_companies_and_balances_add_up() -> None:
    ep = Episode(WORLD)
    companies = {c.name: c for c in POP.companies}
    for v in every(ep, "list_vendors"):
        assert v["name"] in companies and v["phone"] == companies[v["name"]].phone
    paid: dict[str, int] = {}
    for p in every(ep, "list_payments", status="PAID"):
        paid[p["bill_id"]] = paid.get(p["bill_id"], 0) + p["amount"]
    for b in every(ep, "list_bills"):
        assert b["amount"] == sum(line["amount"] for line in b["line_items"])
        assert b["balance"] == b["amount"] - paid.get(b["id"], 0) - b["credit_applied"]
        if b["approvers"] and b["amount"] >= 1_000_000:
            assert len(b["approvers"]) >= 2
    assert {b["approval_status"] for b in every(ep, "list_bills")} == {
        "UNASSIGNED",
        "ASSIGNED",
        "APPROVING",
        "APPROVED",
        "DENIED",
    }


def test_a_bill_matches_its_lines_and_its_invoice_number_is_unique_per_vendor(ep: Episode) -> None:
    first, second = every(ep, "list_vendors", is_active=True)[:2]
    made = new_bill(ep, first["id"], "INV-T-1", 10_000, 2_550)
    assert (made["amount"], made["balance"], made["approval_status"]) == (12_550, 12_550, "UNASSIGNED")
    assert made["due_date"] > made["invoice_date"], "the vendor's net terms give the due date"
    args = {"invoice_date": TODAY.isoformat(), "created_by_email": CLERK, "line_items": lines(10_000, 2_550)}
    refused(
        ep,
        "create_bill",
        "rule_violation",
        "amount",
        vendor_id=first["id"],
        invoice_number="X-2",
        amount=12_500,
        **args,
    )
    refused(
        ep,
        "create_bill",
        "conflict",
        "invoice_number",
        vendor_id=first["id"],
        invoice_number="INV-T-1",
        amount=12_550,
        **args,
    )
    new_bill(ep, second["id"], "INV-T-1", 500)
    refused(
        ep,
        "create_bill",
        "rule_violation",
        "due_date",
        vendor_id=first["id"],
        invoice_number="X-3",
        amount=12_550,
        due_date="2026-01-01",
        **args,
    )
    archived = every(ep, "list_vendors", is_active=False)[0]
    refused(
        ep,
        "create_bill",
        "rule_violation",
        "vendor_id",
        vendor_id=archived["id"],
        invoice_number="X-4",
        amount=12_550,
        **args,
    )
    refused(
        ep,
        "create_bill",
        "rule_violation",
        "created_by_email",
        vendor_id=first["id"],
        invoice_number="X-5",
        amount=12_550,
        **{**args, "created_by_email": APPROVERS[0]},
    )


def test_vendors_need_what_their_payment_method_needs_and_unique_names(ep: Episode) -> None:
    refused(ep, "create_vendor", "rule_violation", "bank_account_number", name="New Co", pay_by="ACH")
    refused(ep, "create_vendor", "rule_violation", "address_line", name="New Co", pay_by="CHECK", city="Lyon")
    existing = every(ep, "list_vendors", is_active=True)[0]
    refused(
        ep,
        "create_vendor",
        "conflict",
        "name",
        name=existing["name"],
        pay_by="VIRTUAL_CARD",
        email="ap@new.example",
    )
    made = ok(
        ep, "create_vendor", name="New Co", pay_by="ACH", bank_account_number="DE-1234567", routing_number="021000021"
    )
    assert made["is_active"] and made["net_terms_days"] == 30
    refused(ep, "update_vendor", "rule_violation", "address_line", vendor_id=made["id"], pay_by="CHECK")


def test_a_vendor_with_scheduled_payments_cannot_be_archived(ep: Episode) -> None:
    scheduled = every(ep, "list_payments", status="SCHEDULED")[0]
    refused(ep, "archive_vendor", "rule_violation", "vendor_id", vendor_id=scheduled["vendor_id"])
    ok(ep, "cancel_payment", payment_id=scheduled["id"])
    assert ok(ep, "archive_vendor", vendor_id=scheduled["vendor_id"])["is_active"] is False
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "bill_id",
        bill_id=scheduled["bill_id"],
        amount=100,
        process_date=TODAY.isoformat(),
        payer_email=PAYER,
    )


def test_approvals_follow_the_policy_and_the_assigned_order(ep: Episode) -> None:
    unassigned = bill(ep, approval_status="UNASSIGNED")
    vendor = every(ep, "list_vendors", is_active=True)[0]
    large = new_bill(ep, vendor["id"], "INV-T-BIG", 1_000_000)
    refused(ep, "assign_bill_approvers", "rule_violation", "approvers", bill_id=large["id"], approvers=APPROVERS[:1])
    refused(
        ep, "assign_bill_approvers", "rule_violation", "approvers", bill_id=large["id"], approvers=[APPROVERS[0], CLERK]
    )
    refused(
        ep,
        "assign_bill_approvers",
        "rule_violation",
        "approvers",
        bill_id=large["id"],
        approvers=[APPROVERS[0], INACTIVE],
    )
    refused(
        ep, "assign_bill_approvers", "rule_violation", "approvers", bill_id=large["id"], approvers=[APPROVERS[0]] * 2
    )
    assigned = ok(ep, "assign_bill_approvers", bill_id=large["id"], approvers=APPROVERS[:2])
    assert assigned["approval_status"] == "ASSIGNED"
    refused(ep, "approve_bill", "rule_violation", "approver_email", bill_id=large["id"], approver_email=APPROVERS[1])
    assert ok(ep, "approve_bill", bill_id=large["id"], approver_email=APPROVERS[0])["approval_status"] == "APPROVING"
    refused(ep, "approve_bill", "rule_violation", "approver_email", bill_id=large["id"], approver_email=APPROVERS[0])
    done = ok(ep, "approve_bill", bill_id=large["id"], approver_email=APPROVERS[1])
    assert done["approval_status"] == "APPROVED" and done["approved_by"] == APPROVERS[:2]
    refused(ep, "assign_bill_approvers", "conflict", "bill_id", bill_id=large["id"], approvers=APPROVERS[:2])
    refused(ep, "approve_bill", "rule_violation", "bill_id", bill_id=unassigned["id"], approver_email=APPROVERS[0])


def test_only_approved_bills_are_paid_and_editing_starts_approval_over(ep: Episode) -> None:
    pay = {"process_date": TODAY.isoformat(), "payer_email": PAYER}
    for status in ("UNASSIGNED", "ASSIGNED", "APPROVING", "DENIED"):
        b = bill(ep, approval_status=status)
        refused(ep, "pay_bill", "rule_violation", "bill_id", bill_id=b["id"], amount=b["balance"], **pay)
    pending = bill(ep, approval_status="APPROVING")
    edited = ok(ep, "edit_bill", bill_id=pending["id"], amount=30_000, line_items=lines(20_000, 10_000))
    assert (edited["approval_status"], edited["approved_by"], edited["balance"]) == ("ASSIGNED", [], 30_000)
    refused(ep, "edit_bill", "rule_violation", "amount", bill_id=pending["id"], amount=30_001, line_items=lines(30_000))
    denied = bill(ep, approval_status="DENIED")
    refused(
        ep, "deny_bill", "rule_violation", "bill_id", bill_id=denied["id"], approver_email=APPROVERS[0], reason="No"
    )
    turn = edited["approvers"][0]
    assert (
        ok(ep, "deny_bill", bill_id=pending["id"], approver_email=turn, reason="Wrong PO")["approval_status"]
        == "DENIED"
    )


def test_payments_can_be_partial_but_never_exceed_what_is_left(ep: Episode) -> None:
    b = approved(ep, 80_000, 20_000)
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "payer_email",
        bill_id=b["id"],
        amount=100,
        process_date=TODAY.isoformat(),
        payer_email=CLERK,
    )
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "process_date",
        bill_id=b["id"],
        amount=100,
        process_date="2026-03-07",
        payer_email=PAYER,
    )
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "process_date",
        bill_id=b["id"],
        amount=100,
        process_date="2026-02-27",
        payer_email=PAYER,
    )
    first = ok(ep, "pay_bill", bill_id=b["id"], amount=60_000, process_date=TODAY.isoformat(), payer_email=PAYER)
    assert first["status"] == "SCHEDULED"
    assert ok(ep, "get_bill", bill_id=b["id"])["payment_status"] == "SCHEDULED"
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "amount",
        bill_id=b["id"],
        amount=40_001,
        process_date="2026-03-09",
        payer_email=PAYER,
    )
    ok(ep, "pay_bill", bill_id=b["id"], amount=40_000, process_date="2026-03-09", payer_email=PAYER)
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "amount",
        bill_id=b["id"],
        amount=1,
        process_date="2026-03-09",
        payer_email=PAYER,
    )
    run = ok(ep, "process_payments")
    assert first["id"] in run["payment_ids"]
    after = ok(ep, "get_bill", bill_id=b["id"])
    assert (after["payment_status"], after["balance"], after["scheduled_amount"]) == ("PARTIAL", 40_000, 40_000)
    refused(ep, "cancel_payment", "conflict", "payment_id", payment_id=first["id"])
    paid = bill(ep, payment_status="PAID")
    refused(
        ep,
        "pay_bill",
        "conflict",
        "bill_id",
        bill_id=paid["id"],
        amount=1,
        process_date=TODAY.isoformat(),
        payer_email=PAYER,
    )


def test_cancelling_a_scheduled_payment_makes_the_amount_payable_again(ep: Episode) -> None:
    scheduled = every(ep, "list_payments", status="SCHEDULED")[0]
    before = ok(ep, "get_bill", bill_id=scheduled["bill_id"])
    assert before["payment_status"] == "SCHEDULED"
    assert ok(ep, "cancel_payment", payment_id=scheduled["id"])["status"] == "CANCELED"
    after = ok(ep, "get_bill", bill_id=scheduled["bill_id"])
    assert (after["payment_status"], after["scheduled_amount"]) == ("UNPAID", 0)
    refused(ep, "cancel_payment", "conflict", "payment_id", payment_id=scheduled["id"])
    assert ok(ep, "process_payments")["payment_ids"] == []
    refused(
        ep,
        "edit_bill",
        "rule_violation",
        "bill_id",
        bill_id=bill(ep, payment_status="PARTIAL")["id"],
        amount=1,
        line_items=lines(1),
    )


def test_vendor_credits_reduce_bills_of_the_same_vendor(ep: Episode) -> None:
    credit = every(ep, "list_vendor_credits")[0]
    own = new_bill(ep, credit["vendor_id"], "INV-T-CR", 30_000)
    other = bill(ep, approval_status="APPROVED", payment_status="UNPAID")
    assert other["vendor_id"] != credit["vendor_id"]
    refused(
        ep,
        "apply_vendor_credit",
        "rule_violation",
        "bill_id",
        vendor_credit_id=credit["id"],
        bill_id=other["id"],
        amount=100,
    )
    refused(
        ep,
        "apply_vendor_credit",
        "rule_violation",
        "amount",
        vendor_credit_id=credit["id"],
        bill_id=own["id"],
        amount=credit["amount"] + 1,
    )
    applied = ok(ep, "apply_vendor_credit", vendor_credit_id=credit["id"], bill_id=own["id"], amount=10_000)
    assert applied["status"] == "PARTIALLY_APPLIED" and applied["applications"] == [
        {"bill_id": own["id"], "amount": 10_000}
    ]
    reduced = ok(ep, "get_bill", bill_id=own["id"])
    assert (reduced["balance"], reduced["payment_status"]) == (20_000, "PARTIAL")
    refused(
        ep,
        "create_vendor_credit",
        "conflict",
        "ref_number",
        vendor_id=credit["vendor_id"],
        ref_number=credit["ref_number"],
        credit_date=TODAY.isoformat(),
        amount=500,
    )
