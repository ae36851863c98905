"""Keel Ledger: balanced journals, the lock date, bills posted to payables, payments and reconciliation."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.world import finance as links
from tests.services import helpers
from tests.services.helpers import ServiceTools, service_world

LEDGER = ServiceTools("ledger")
WORLD = LEDGER.world
ok, refused, every = LEDGER.ok, LEDGER.refused, LEDGER.every
POP = WORLD.population


def account(ep: Episode, code: str) -> dict[str, Any]:
    found = every(ep, "list_accounts", code=code)
    assert len(found) == 1
    return found[0]


def ap_balance(ep: Episode) -> int:
    rows = ok(ep, "trial_balance", account_type="accounts_payable")["rows"]
    return int(rows[0]["balance"]) if rows else 0


LOCK_DATE = "2026-01-31"
"""The seeded books close January (the month before last)."""


def new_bill(ep: Episode, number: str = "INV-90001", **extra: Any) -> dict[str, Any]:
    vendor = every(ep, "list_vendors", status="active")[0]
    args: dict[str, Any] = {
        "vendor_id": vendor["id"],
        "bill_number": number,
        "date": "2026-02-20",
        "lines": [
            {"description": "Consulting", "unit_amount": 120_00, "quantity": 10},
            {"description": "Travel costs", "unit_amount": 345_50, "account_id": account(ep, "493")["id"]},
        ],
        **extra,
    }
    return dict(ok(ep, "create_bill", **args))


# -- the world ------------------------------------------------------------------------------


def test_vendors_are_procurements_suppliers_with_the_same_remit_accounts() -> None:
    both = service_world("ledger", "procurement")
    ep = Episode(both)
    suppliers = {s["name"]: s for s in helpers.ok(ep, "procurement__list_suppliers", limit=100)["items"]}
    vendors = helpers.ok(ep, "ledger__list_vendors", limit=100)["items"]
    assert vendors
    for v in vendors:
        sup = suppliers[v["name"]]
        assert (v["email"], v["bank_account_number"]) == (sup["contact_email"], sup["remit_to_account"])
        assert (v["status"] == "active") == (sup["status"] == "active")


def test_bank_accounts_carry_the_home_companys_account_numbers() -> None:
    ep = Episode(WORLD)
    banks = {a["code"]: a for a in every(ep, "list_accounts", type="bank")}
    for home in links.HOME_ACCOUNTS:
        assert banks[home.ledger_code]["bank_account_number"] == links.home_account_number(POP, home.key)


def test_the_seeded_books_balance_and_bills_agree_with_their_lines_and_payments() -> None:
    ep = Episode(WORLD)
    tb = ok(ep, "trial_balance")
    assert tb["balanced"] and tb["total_debit"] == tb["total_credit"] > 0
    pays = every(ep, "list_bill_payments")
    for bill in every(ep, "list_bills"):
        assert bill["total"] == sum(ln["amount"] for ln in bill["lines"])
        assert bill["amount_paid"] == sum(p["amount"] for p in pays if p["bill_id"] == bill["id"])
        if bill["status"] == "awaiting_payment":
            assert bill["amount_due"] == bill["total"] - bill["amount_paid"]
    assert {b["status"] for b in every(ep, "list_bills")} == {"draft", "awaiting_payment", "paid", "voided"}


# -- journals -------------------------------------------------------------------------------


def test_a_balanced_journal_posts_and_moves_the_trial_balance(ep: Episode) -> None:
    exp, accrual = account(ep, "412"), account(ep, "825")
    before = {r["code"]: r["balance"] for r in ok(ep, "trial_balance")["rows"]}
    je = ok(
        ep,
        "create_journal_entry",
        date="2026-02-27",
        narration="Accrued audit fee",
        lines=[{"account_id": exp["id"], "debit": 2_000_00}, {"account_id": accrual["id"], "credit": 2_000_00}],
        post=True,
    )
    assert (je["status"], je["total_debit"], je["total_credit"]) == ("posted", 2_000_00, 2_000_00)
    after = {r["code"]: r["balance"] for r in ok(ep, "trial_balance")["rows"]}
    assert after["412"] - before.get("412", 0) == 2_000_00
    assert after["825"] - before.get("825", 0) == -2_000_00


def test_an_unbalanced_journal_is_saved_as_a_draft_but_never_posted(ep: Episode) -> None:
    exp, accrual = account(ep, "412"), account(ep, "825")
    lines = [{"account_id": exp["id"], "debit": 1_000_00}, {"account_id": accrual["id"], "credit": 900_00}]
    msg = refused(
        ep, "create_journal_entry", "rule_violation", "lines", date="2026-02-27", narration="X", lines=lines, post=True
    )
    assert "do not equal" in msg
    draft = ok(ep, "create_journal_entry", date="2026-02-27", narration="Bonus accrual", lines=lines)
    assert draft["status"] == "draft"
    refused(ep, "post_journal_entry", "rule_violation", "journal_entry_id", journal_entry_id=draft["id"])
    ok(ep, "delete_journal_entry", journal_entry_id=draft["id"])


def test_manual_journals_cannot_touch_a_bank_account(ep: Episode) -> None:
    bank, exp = account(ep, "090"), account(ep, "404")
    refused(
        ep,
        "create_journal_entry",
        "rule_violation",
        "lines.1.account_id",
        date="2026-02-27",
        narration="Fee",
        lines=[{"account_id": exp["id"], "debit": 10_00}, {"account_id": bank["id"], "credit": 10_00}],
    )


def test_nothing_dated_in_a_locked_period_is_posted_or_voided(ep: Episode) -> None:
    exp, accrual = account(ep, "412"), account(ep, "825")
    lines = [{"account_id": exp["id"], "debit": 50_00}, {"account_id": accrual["id"], "credit": 50_00}]
    msg = refused(
        ep,
        "create_journal_entry",
        "rule_violation",
        "date",
        date="2026-01-15",
        narration="Late",
        lines=lines,
        post=True,
    )
    assert LOCK_DATE in msg
    january = next(
        j for j in every(ep, "list_journal_entries", status="posted", source="manual") if j["date"] < "2026-02"
    )
    refused(ep, "void_journal_entry", "rule_violation", "journal_entry_id", journal_entry_id=january["id"])
    refused(ep, "set_lock_date", "rule_violation", "lock_date", lock_date="2026-03-10")
    # Drafts still open in February keep February from being locked.
    refused(ep, "set_lock_date", "rule_violation", "lock_date", lock_date="2026-02-28")
    ok(ep, "set_lock_date", lock_date=None)
    assert (
        ok(ep, "create_journal_entry", date="2026-01-15", narration="Late", lines=lines, post=True)["status"]
        == "posted"
    )


# -- bills ----------------------------------------------------------------------------------


def test_a_bill_totals_its_lines_defaults_accounts_and_is_entered_once(ep: Episode) -> None:
    bill = new_bill(ep)
    vendor = ok(ep, "get_vendor", vendor_id=bill["vendor_id"])
    assert bill["total"] == 10 * 120_00 + 345_50 == bill["amount_due"]
    assert bill["lines"][0]["account_id"] == vendor["default_account_id"]
    assert bill["due_date"] > bill["date"] and bill["status"] == "draft"
    refused(
        ep,
        "create_bill",
        "conflict",
        "bill_number",
        vendor_id=vendor["id"],
        bill_number=bill["bill_number"],
        date="2026-02-21",
        lines=[{"description": "Again", "unit_amount": 1_00}],
    )


def test_approving_posts_the_bill_to_accounts_payable(ep: Episode) -> None:
    bill = new_bill(ep)
    before = ap_balance(ep)
    approved = ok(ep, "approve_bill", bill_id=bill["id"])
    assert approved["status"] == "awaiting_payment"
    je = ok(ep, "get_journal_entry", journal_entry_id=approved["journal_entry_id"])
    assert (je["source"], je["total_debit"], je["total_credit"]) == ("bill", bill["total"], bill["total"])
    assert ap_balance(ep) - before == -bill["total"]
    refused(ep, "approve_bill", "rule_violation", "bill_id", bill_id=bill["id"])


def test_payments_never_exceed_what_is_due_and_settle_the_bill(ep: Episode) -> None:
    bill = ok(ep, "approve_bill", bill_id=new_bill(ep)["id"])
    bank = account(ep, "090")
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "amount",
        bill_id=bill["id"],
        bank_account_id=bank["id"],
        amount=bill["total"] + 1,
    )
    refused(
        ep,
        "pay_bill",
        "rule_violation",
        "bank_account_id",
        bill_id=bill["id"],
        bank_account_id=account(ep, "412")["id"],
        amount=100,
    )
    first = ok(ep, "pay_bill", bill_id=bill["id"], bank_account_id=bank["id"], amount=500_00)
    vendor = ok(ep, "get_vendor", vendor_id=bill["vendor_id"])
    assert first["pay_to_account"] == vendor["bank_account_number"]
    assert ok(ep, "get_bill", bill_id=bill["id"])["amount_due"] == bill["total"] - 500_00
    ok(ep, "pay_bill", bill_id=bill["id"], bank_account_id=bank["id"], amount=bill["total"] - 500_00)
    paid = ok(ep, "get_bill", bill_id=bill["id"])
    assert (paid["status"], paid["amount_due"], paid["amount_paid"]) == ("paid", 0, bill["total"])
    refused(ep, "pay_bill", "rule_violation", "bill_id", bill_id=bill["id"], bank_account_id=bank["id"], amount=1)


def test_a_draft_bill_is_not_paid_and_a_bill_with_payments_is_not_voided(ep: Episode) -> None:
    bank = account(ep, "090")
    draft = new_bill(ep)
    refused(ep, "pay_bill", "rule_violation", "bill_id", bill_id=draft["id"], bank_account_id=bank["id"], amount=100)
    partly = next(b for b in every(ep, "list_bills", status="awaiting_payment") if b["amount_paid"] > 0)
    refused(ep, "void_bill", "rule_violation", "bill_id", bill_id=partly["id"])


def test_voiding_an_approved_bill_reverses_its_posting(ep: Episode) -> None:
    bill = ok(ep, "approve_bill", bill_id=new_bill(ep)["id"])
    before = ap_balance(ep)
    voided = ok(ep, "void_bill", bill_id=bill["id"])
    assert (voided["status"], voided["amount_due"]) == ("voided", 0)
    assert ok(ep, "get_journal_entry", journal_entry_id=bill["journal_entry_id"])["status"] == "voided"
    assert ap_balance(ep) - before == bill["total"]
    refused(ep, "void_journal_entry", "rule_violation", "journal_entry_id", journal_entry_id=bill["journal_entry_id"])


def test_aged_payables_total_the_unpaid_approved_bills(ep: Episode) -> None:
    report = ok(ep, "aged_payables")
    unpaid = every(ep, "list_bills", status="awaiting_payment")
    assert report["total_due"] == sum(b["amount_due"] for b in unpaid)
    assert report["overdue"] == sum(b["amount_due"] for b in report["bills"] if b["days_overdue"] > 0)


# -- reconciliation -------------------------------------------------------------------------


def test_a_statement_line_matches_only_an_entry_of_the_same_amount(ep: Episode) -> None:
    line = every(ep, "list_statement_lines", status="unreconciled", direction="spent")[0]
    reconciled = every(ep, "list_statement_lines", status="reconciled")
    payments = every(ep, "list_bill_payments", bank_account_id=line["account_id"])
    free = [p for p in payments if p["journal_entry_id"] not in {r["journal_entry_id"] for r in reconciled}]
    match = next(p for p in free if p["amount"] == line["amount"])
    wrong = next(p for p in free if p["amount"] != line["amount"])
    refused(
        ep,
        "reconcile_statement_line",
        "rule_violation",
        "journal_entry_id",
        statement_line_id=line["id"],
        journal_entry_id=wrong["journal_entry_id"],
    )
    done = ok(ep, "reconcile_statement_line", statement_line_id=line["id"], journal_entry_id=match["journal_entry_id"])
    assert (done["status"], done["journal_entry_id"]) == ("reconciled", match["journal_entry_id"])
    refused(
        ep,
        "reconcile_statement_line",
        "conflict",
        "statement_line_id",
        statement_line_id=line["id"],
        journal_entry_id=match["journal_entry_id"],
    )


def test_coding_a_received_line_creates_a_posted_bank_entry(ep: Episode) -> None:
    line = every(ep, "list_statement_lines", status="unreconciled", direction="received")[0]
    sales = account(ep, "200")
    done = ok(ep, "reconcile_statement_line", statement_line_id=line["id"], account_id=sales["id"])
    je = ok(ep, "get_journal_entry", journal_entry_id=done["journal_entry_id"])
    assert je["source"] == "bank" and je["status"] == "posted"
    by_account = {ln["account_id"]: ln for ln in je["lines"]}
    assert by_account[line["account_id"]]["debit"] == line["amount"] == by_account[sales["id"]]["credit"]
    refused(
        ep,
        "reconcile_statement_line",
        "rule_violation",
        "journal_entry_id",
        statement_line_id=every(ep, "list_statement_lines", status="unreconciled")[0]["id"],
    )


# -- chart of accounts ----------------------------------------------------------------------


def test_system_and_default_accounts_cannot_be_archived(ep: Episode) -> None:
    refused(
        ep, "update_account", "rule_violation", "account_id", account_id=account(ep, "800")["id"], status="archived"
    )
    vendor = every(ep, "list_vendors", status="active")[0]
    refused(
        ep, "update_account", "rule_violation", "account_id", account_id=vendor["default_account_id"], status="archived"
    )
    refused(ep, "create_account", "conflict", "code", code="412", name="Duplicate", type="expense")
    refused(ep, "create_account", "rule_violation", "bank_account_number", code="093", name="New bank", type="bank")
    made = ok(ep, "create_account", code="093", name="FX account", type="bank", bank_account_number="FX-0099")
    assert made["status"] == "active"
