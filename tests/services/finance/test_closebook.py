"""Closewise: preparer/reviewer sign-offs, reconciliation variances, flux explanations and the period lock."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CB = ServiceTools("closebook")
WORLD = CB.world
ok, refused, every = CB.ok, CB.refused, CB.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def period(ep: Episode, index: int) -> dict[str, Any]:
    return sorted(every(ep, "list_periods"), key=lambda p: p["name"])[index]


def test_seeded_close_uses_staff_and_separates_duties(ep: Episode) -> None:
    for item in every(ep, "list_checklist_items"):
        assert {item["preparer_email"], item["reviewer_email"]} <= STAFF
        assert item["preparer_email"] != item["reviewer_email"]
    for rec in every(ep, "list_reconciliations"):
        assert rec["preparer_email"] != rec["reviewer_email"]
        if rec["status"] != "open":
            assert rec["variance"] == rec["gl_balance"] - rec["supporting_balance"]
    assert [p["status"] for p in sorted(every(ep, "list_periods"), key=lambda p: p["name"])] == [
        "closed",
        "closed",
        "open",
        "open",
    ]


def test_only_the_preparer_prepares_and_only_the_reviewer_reviews(ep: Episode) -> None:
    item = every(ep, "list_checklist_items", period_id=period(ep, -1)["id"], status="open")[0]
    refused(
        ep,
        "prepare_item",
        "rule_violation",
        "prepared_by",
        checklist_item_id=item["id"],
        prepared_by=item["reviewer_email"],
    )
    ok(ep, "prepare_item", checklist_item_id=item["id"], prepared_by=item["preparer_email"])
    refused(
        ep,
        "review_item",
        "rule_violation",
        "reviewed_by",
        checklist_item_id=item["id"],
        reviewed_by=item["preparer_email"],
        approve=True,
    )
    done = ok(ep, "review_item", checklist_item_id=item["id"], reviewed_by=item["reviewer_email"], approve=True)
    assert done["status"] == "reviewed"
    refused(ep, "update_checklist_item", "rule_violation", "checklist_item_id", checklist_item_id=item["id"], notes="x")


def test_a_rejected_item_goes_back_to_open_with_notes(ep: Episode) -> None:
    item = every(ep, "list_checklist_items", period_id=period(ep, -1)["id"], status="prepared")[0]
    args = {"checklist_item_id": item["id"], "reviewed_by": item["reviewer_email"], "approve": False}
    refused(ep, "review_item", "rule_violation", "notes", **args)
    back = ok(ep, "review_item", notes="Support missing for the accrual.", **args)
    assert back["status"] == "open" and back["notes"] == "Support missing for the accrual."


def test_new_items_need_two_different_staff(ep: Episode) -> None:
    p = period(ep, -1)
    me = POP.employees[0].email
    base = {"period_id": p["id"], "title": "Intercompany eliminations", "area": "reporting", "due_date": p["due_date"]}
    refused(
        ep, "create_checklist_item", "rule_violation", "reviewer_email", preparer_email=me, reviewer_email=me, **base
    )
    refused(
        ep,
        "create_checklist_item",
        "rule_violation",
        "preparer_email",
        preparer_email="a@b.io",
        reviewer_email=me,
        **base,
    )
    closed = period(ep, 0)
    refused(
        ep,
        "create_checklist_item",
        "rule_violation",
        "period_id",
        preparer_email=me,
        reviewer_email=POP.employees[1].email,
        **(base | {"period_id": closed["id"]}),
    )


def test_a_variance_over_threshold_needs_an_explanation(ep: Episode) -> None:
    rec = every(ep, "list_reconciliations", period_id=period(ep, -1)["id"], status="open")[0]
    acct = ok(ep, "get_account", account_id=rec["account_id"])
    args = {"reconciliation_id": rec["id"], "prepared_by": rec["preparer_email"], "gl_balance": 5_000_000}
    gap = acct["variance_threshold"] + 1
    refused(ep, "prepare_reconciliation", "rule_violation", "explanation", supporting_balance=5_000_000 - gap, **args)
    small = ok(ep, "prepare_reconciliation", supporting_balance=5_000_000 - acct["variance_threshold"], **args)
    assert small["variance"] == acct["variance_threshold"] and small["status"] == "prepared"
    big = ok(ep, "prepare_reconciliation", supporting_balance=5_000_000 - gap, explanation="Outstanding checks", **args)
    assert big["variance"] == gap


def test_flux_over_threshold_is_explained_before_approval(ep: Episode) -> None:
    lines = every(ep, "list_flux_lines", period_id=period(ep, -1)["id"], over_threshold=True)
    assert lines
    refused(ep, "approve_flux", "rule_violation", "flux_line_id", flux_line_id=lines[0]["id"])
    refused(ep, "explain_flux", "rule_violation", "explanation", flux_line_id=lines[0]["id"], explanation=" ")
    ok(ep, "explain_flux", flux_line_id=lines[0]["id"], explanation="Price increase on renewals")
    assert ok(ep, "approve_flux", flux_line_id=lines[0]["id"])["status"] == "approved"


def test_the_close_manager_locks_a_fully_signed_period_in_order(ep: Episode) -> None:
    ready, current = period(ep, -2), period(ep, -1)
    refused(
        ep,
        "close_period",
        "rule_violation",
        "period_id",
        period_id=current["id"],
        closed_by=current["close_manager_email"],
    )
    other = next(e for e in sorted(STAFF) if e != ready["close_manager_email"])
    refused(ep, "close_period", "rule_violation", "closed_by", period_id=ready["id"], closed_by=other)
    assert ok(ep, "close_status", period_id=ready["id"])["percent_complete"] == 100
    locked = ok(ep, "close_period", period_id=ready["id"], closed_by=ready["close_manager_email"])
    assert locked["status"] == "closed"
    st = ok(ep, "close_status", period_id=current["id"])
    assert st["percent_complete"] < 100
    refused(
        ep,
        "close_period",
        "rule_violation",
        "period_id",
        period_id=current["id"],
        closed_by=current["close_manager_email"],
    )


def test_a_closed_period_is_frozen_until_reopened_with_a_reason(ep: Episode) -> None:
    closed = period(ep, 1)
    rec = every(ep, "list_reconciliations", period_id=closed["id"])[0]
    refused(
        ep,
        "review_reconciliation",
        "rule_violation",
        "reconciliation_id",
        reconciliation_id=rec["id"],
        reviewed_by=rec["reviewer_email"],
        approve=False,
    )
    refused(ep, "reopen_period", "rule_violation", "reason", period_id=closed["id"], reason="")
    opened = ok(ep, "reopen_period", period_id=closed["id"], reason="Late accrual")
    assert (opened["status"], opened["reopen_reason"]) == ("open", "Late accrual")
    me, other = POP.employees[0].email, POP.employees[1].email
    added = ok(
        ep,
        "create_checklist_item",
        period_id=closed["id"],
        title="Book the late accrual",
        area="accruals",
        preparer_email=me,
        reviewer_email=other,
        due_date=closed["due_date"],
    )
    assert added["status"] == "open"


def test_opening_the_next_period_copies_the_checklist_and_reconciliations(ep: Episode) -> None:
    last = period(ep, -1)
    made = ok(ep, "open_period", close_manager_email=last["close_manager_email"])
    assert made["name"] > last["name"]
    old = {i["title"] for i in every(ep, "list_checklist_items", period_id=last["id"])}
    new = every(ep, "list_checklist_items", period_id=made["id"])
    assert {i["title"] for i in new} == old and {i["status"] for i in new} == {"open"}
    accounts = every(ep, "list_accounts", kind="balance_sheet")
    assert len(every(ep, "list_reconciliations", period_id=made["id"])) == len(accounts)
