"""Tallyspend Expenses: policy limits and receipts, manager-only approval, reimbursed reports are final."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EXPENSES = ServiceTools("expenses")
WORLD = EXPENSES.world
ok, refused, every = EXPENSES.ok, EXPENSES.refused, EXPENSES.every
POP = WORLD.population
CUR = POP.home.place.currency
RECEIPT = "https://files.example.com/receipts/r-1.pdf"


def employee_with_manager(ep: Episode) -> dict[str, Any]:
    for emp in every(ep, "list_employees", active=True):
        if emp["manager_email"] is not None:
            return emp
    raise AssertionError("no employee with a manager")


def limits_of(ep: Episode, emp: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    policy = ok(ep, "get_policy", policy_id=emp["policy_id"])
    return policy, {lim["category"]: lim["limit"] for lim in policy["limits"]}


def new_report(ep: Episode, emp: dict[str, Any] | None = None) -> dict[str, Any]:
    emp = emp or employee_with_manager(ep)
    return dict(ok(ep, "create_report", employee_id=emp["id"], title="Client visit Lyon", currency=CUR))


def add(ep: Episode, report_id: str, category: str, amount: int, receipt: bool = True) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        report_id=report_id,
        date="2026-02-27",
        merchant="Harborview Hotel",
        category=category,
        amount=amount,
        currency=CUR,
    )
    if receipt:
        args["receipt_url"] = RECEIPT
    return dict(ok(ep, "create_expense", **args))


# -- the world ------------------------------------------------------------------------------


def test_employees_are_the_home_staff_with_managers_among_them() -> None:
    ep = Episode(WORLD)
    emps = every(ep, "list_employees")
    staff = {p.email: p for p in POP.employees}
    assert {e["email"] for e in emps} == set(staff)
    assert all(e["name"] == staff[e["email"]].name for e in emps)
    assert sum(1 for e in emps if e["manager_email"] is None) == 1
    assert all(e["manager_email"] in staff for e in emps if e["manager_email"])
    statuses = {r["status"] for r in every(ep, "list_reports")}
    assert statuses == {"draft", "submitted", "approved", "returned", "reimbursed"}


def test_seeded_report_totals_are_the_sum_of_their_entries() -> None:
    ep = Episode(WORLD)
    entries = every(ep, "list_expenses")
    for rep in every(ep, "list_reports"):
        assert rep["total"] == sum(e["amount"] for e in entries if e["report_id"] == rep["id"])
    for pay in every(ep, "list_reimbursements"):
        assert ok(ep, "get_report", report_id=pay["report_id"])["total"] == pay["amount"]


# -- entries --------------------------------------------------------------------------------


def test_adding_an_entry_updates_the_report_total(ep: Episode) -> None:
    rep = new_report(ep)
    add(ep, rep["id"], "meals", 2_500)
    add(ep, rep["id"], "ground_transport", 1_800, receipt=False)
    assert ok(ep, "get_report", report_id=rep["id"])["total"] == 4_300
    entry = every(ep, "list_expenses", report_id=rep["id"])[0]
    ok(ep, "delete_expense", expense_id=entry["id"])
    assert ok(ep, "get_report", report_id=rep["id"])["total"] == 1_800


def test_an_entry_in_another_currency_than_the_report_is_refused(ep: Episode) -> None:
    rep = new_report(ep)
    other = "JPY" if CUR != "JPY" else "USD"
    refused(
        ep,
        "create_expense",
        "rule_violation",
        "currency",
        report_id=rep["id"],
        date="2026-02-27",
        merchant="Cafe Lumen",
        category="meals",
        amount=1_000,
        currency=other,
    )


# -- submitting -----------------------------------------------------------------------------


def test_an_empty_report_cannot_be_submitted_and_nothing_changes(ep: Episode) -> None:
    rep = new_report(ep)
    msg = refused(ep, "submit_report", "rule_violation", "report_id", report_id=rep["id"])
    assert "no entries" in msg


def test_an_entry_above_the_policy_limit_needs_a_justification(ep: Episode) -> None:
    emp = employee_with_manager(ep)
    _, limits = limits_of(ep, emp)
    rep = new_report(ep, emp)
    entry = add(ep, rep["id"], "meals", limits["meals"] + 1_000)
    audit = ok(ep, "audit_report", report_id=rep["id"])
    assert [v["rule"] for v in audit["violations"]] == ["over_limit_without_justification"]
    assert not audit["submittable"]
    refused(ep, "submit_report", "rule_violation", "report_id", report_id=rep["id"])
    ok(ep, "update_expense", expense_id=entry["id"], justification="Dinner with the customer's board")
    assert ok(ep, "submit_report", report_id=rep["id"])["status"] == "submitted"


def test_an_entry_above_the_receipt_threshold_needs_a_receipt(ep: Episode) -> None:
    emp = employee_with_manager(ep)
    policy, _ = limits_of(ep, emp)
    rep = new_report(ep, emp)
    entry = add(ep, rep["id"], "office_supplies", policy["receipt_required_over"] + 1, receipt=False)
    msg = refused(ep, "submit_report", "rule_violation", "report_id", report_id=rep["id"])
    assert "receipt" in msg
    ok(ep, "attach_receipt", expense_id=entry["id"], receipt_url=RECEIPT)
    snap = ep.snapshot()
    submitted = ok(ep, "submit_report", report_id=rep["id"])
    assert submitted["status"] == "submitted" and submitted["submitted_at"] is not None
    assert ep.diff(snap).counts() == {"expenses.reports": {"added": 0, "updated": 1, "removed": 0}}


def test_a_submitted_report_cannot_be_edited(ep: Episode) -> None:
    rep = every(ep, "list_reports", status="submitted")[0]
    entry = every(ep, "list_expenses", report_id=rep["id"])[0]
    refused(ep, "update_report", "rule_violation", "report_id", report_id=rep["id"], title="Changed")
    refused(ep, "update_expense", "rule_violation", "expense_id", expense_id=entry["id"], amount=1)
    refused(ep, "delete_expense", "rule_violation", "expense_id", expense_id=entry["id"])


# -- approving ------------------------------------------------------------------------------


def test_only_the_submitters_manager_approves(ep: Episode) -> None:
    rep = every(ep, "list_reports", status="submitted")[0]
    emp = ok(ep, "get_employee", employee_id=rep["employee_id"])
    outsider = next(p.email for p in POP.employees if p.email not in (emp["manager_email"], emp["email"]))
    msg = refused(
        ep, "approve_report", "rule_violation", "approver_email", report_id=rep["id"], approver_email=outsider
    )
    assert emp["manager_email"] in msg
    refused(ep, "approve_report", "rule_violation", "approver_email", report_id=rep["id"], approver_email=emp["email"])
    approved = ok(ep, "approve_report", report_id=rep["id"], approver_email=emp["manager_email"])
    assert (approved["status"], approved["approver_email"]) == ("approved", emp["manager_email"])


def test_a_returned_report_can_be_fixed_and_resubmitted(ep: Episode) -> None:
    rep = every(ep, "list_reports", status="submitted")[0]
    manager = ok(ep, "get_employee", employee_id=rep["employee_id"])["manager_email"]
    refused(ep, "return_report", "rule_violation", "comment", report_id=rep["id"], approver_email=manager, comment=" ")
    back = ok(ep, "return_report", report_id=rep["id"], approver_email=manager, comment="Split the hotel bill")
    assert back["status"] == "returned"
    ok(ep, "update_report", report_id=rep["id"], purpose="Customer workshop")
    assert ok(ep, "submit_report", report_id=rep["id"])["status"] == "submitted"


def test_the_managers_queue_lists_their_reports_waiting() -> None:
    ep = Episode(WORLD)
    rep = every(ep, "list_reports", status="submitted")[0]
    manager = ok(ep, "get_employee", employee_id=rep["employee_id"])["manager_email"]
    queue = ok(ep, "pending_approvals", approver_email=manager)
    assert rep["id"] in {r["id"] for r in queue["reports"]}
    assert queue["total"] == sum(r["total"] for r in queue["reports"])


# -- reimbursing ----------------------------------------------------------------------------


def test_reimbursing_pays_the_total_to_the_employees_account(ep: Episode) -> None:
    rep = every(ep, "list_reports", status="approved")[0]
    emp = ok(ep, "get_employee", employee_id=rep["employee_id"])
    pay = ok(ep, "reimburse_report", report_id=rep["id"], method="payroll")
    assert (pay["amount"], pay["account_number"], pay["currency"]) == (rep["total"], emp["reimbursement_account"], CUR)
    assert ok(ep, "get_report", report_id=rep["id"])["status"] == "reimbursed"
    counts = ep.diff().counts()
    assert counts == {
        "expenses.reports": {"added": 0, "updated": 1, "removed": 0},
        "expenses.reimbursements": {"added": 1, "updated": 0, "removed": 0},
    }


def test_a_reimbursed_report_is_final(ep: Episode) -> None:
    rep = every(ep, "list_reports", status="reimbursed")[0]
    entry = every(ep, "list_expenses", report_id=rep["id"])[0]
    refused(ep, "reimburse_report", "conflict", "report_id", report_id=rep["id"])
    refused(ep, "update_report", "rule_violation", "report_id", report_id=rep["id"], title="Edited")
    refused(ep, "delete_report", "rule_violation", "report_id", report_id=rep["id"])
    refused(ep, "attach_receipt", "rule_violation", "expense_id", expense_id=entry["id"], receipt_url=RECEIPT)
    refused(ep, "submit_report", "rule_violation", "report_id", report_id=rep["id"])


def test_an_unapproved_report_is_not_reimbursed(ep: Episode) -> None:
    rep = every(ep, "list_reports", status="submitted")[0]
    refused(ep, "reimburse_report", "rule_violation", "report_id", report_id=rep["id"])


def test_a_policy_with_active_employees_cannot_be_deactivated(ep: Episode) -> None:
    emp = employee_with_manager(ep)
    refused(ep, "update_policy", "rule_violation", "active", policy_id=emp["policy_id"], active=False)
