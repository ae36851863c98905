"""Flexforce VMS: distribution to suppliers, rate cards, submissions, work orders, time sheets, SOWs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VMS = ServiceTools("vms")
WORLD = VMS.world
ok, refused, every = VMS.ok, VMS.refused, VMS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
MANAGER = POP.employees[1].email
MONDAY = TODAY - dt.timedelta(days=TODAY.weekday())


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def active_supplier(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_suppliers", status="active")[0]


def new_posting(ep: Episode, title: str = "Data Analyst", positions: int = 1) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_posting",
        job_title=title,
        hiring_manager_email=MANAGER,
        max_bill_rate_cents=20_000,
        start_date=day(7),
        end_date=day(35),
        positions=positions,
    )
    return made


def test_suppliers_are_world_companies_and_rate_cards_are_ranges(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    for sup in every(ep, "list_suppliers"):
        assert sup["name"] in names
    for card in every(ep, "list_rate_cards"):
        assert card["min_rate_cents"] <= card["max_rate_cents"]
    sup = active_supplier(ep)
    title = every(ep, "list_rate_cards", supplier_id=sup["id"])[0]["job_title"]
    refused(
        ep,
        "create_rate_card",
        "conflict",
        "job_title",
        supplier_id=sup["id"],
        job_title=title,
        min_rate_cents=1,
        max_rate_cents=2,
    )
    refused(
        ep,
        "create_rate_card",
        "rule_violation",
        "min_rate_cents",
        supplier_id=sup["id"],
        job_title="Designer",
        min_rate_cents=9,
        max_rate_cents=2,
    )


def test_a_posting_goes_to_active_suppliers_with_a_rate_card(ep: Episode) -> None:
    refused(
        ep,
        "create_posting",
        "rule_violation",
        "hiring_manager_email",
        job_title="Data Analyst",
        hiring_manager_email="x@y.io",
        max_bill_rate_cents=1,
        start_date=day(7),
        end_date=day(30),
    )
    refused(
        ep,
        "create_posting",
        "rule_violation",
        "end_date",
        job_title="Data Analyst",
        hiring_manager_email=MANAGER,
        max_bill_rate_cents=1,
        start_date=day(7),
        end_date=day(7),
    )
    post = new_posting(ep)
    inactive = every(ep, "list_suppliers", status="inactive")[0]
    refused(
        ep, "distribute_posting", "rule_violation", "supplier_id", posting_id=post["id"], supplier_ids=[inactive["id"]]
    )
    cards = {c["supplier_id"] for c in every(ep, "list_rate_cards", job_title="Data Analyst")}
    without = next(s for s in every(ep, "list_suppliers", status="active") if s["id"] not in cards)
    refused(
        ep, "distribute_posting", "rule_violation", "supplier_ids", posting_id=post["id"], supplier_ids=[without["id"]]
    )
    with_card = next(s for s in every(ep, "list_suppliers", status="active") if s["id"] in cards)
    sent = ok(ep, "distribute_posting", posting_id=post["id"], supplier_ids=[with_card["id"]])
    assert (sent["status"], sent["supplier_ids"]) == ("distributed", [with_card["id"]])


def test_submissions_respect_distribution_rate_card_and_duplicates(ep: Episode) -> None:
    post = every(ep, "list_postings", status="distributed")[0]
    sid = post["supplier_ids"][0]
    card = every(ep, "list_rate_cards", supplier_id=sid, job_title=post["job_title"])[0]
    base = {"posting_id": post["id"], "supplier_id": sid, "candidate_name": "Ana Ruiz", "candidate_email": "ana@r.io"}
    refused(
        ep, "submit_candidate", "rule_violation", "bill_rate_cents", bill_rate_cents=card["min_rate_cents"] - 1, **base
    )
    high = min(card["max_rate_cents"], post["max_bill_rate_cents"])
    refused(ep, "submit_candidate", "rule_violation", "bill_rate_cents", bill_rate_cents=high + 1, **base)
    ok(ep, "submit_candidate", bill_rate_cents=high, **base)
    refused(ep, "submit_candidate", "conflict", "candidate_email", bill_rate_cents=high, **base)
    outsider = next(s["id"] for s in every(ep, "list_suppliers") if s["id"] not in post["supplier_ids"])
    refused(
        ep,
        "submit_candidate",
        "rule_violation",
        "supplier_id",
        bill_rate_cents=high,
        **(base | {"supplier_id": outsider, "candidate_email": "b@r.io"}),
    )


def test_accepting_a_shortlisted_candidate_makes_a_budgeted_work_order_and_fills_the_posting(ep: Episode) -> None:
    post = every(ep, "list_postings", status="distributed")[0]
    subs = every(ep, "list_submissions", posting_id=post["id"])
    submitted = next(s for s in subs if s["status"] == "submitted")
    refused(ep, "accept_submission", "rule_violation", "submission_id", submission_id=submitted["id"])
    short = next(s for s in subs if s["status"] == "shortlisted")
    wo = ok(ep, "accept_submission", submission_id=short["id"], weekly_hours=40)
    start, end = dt.date.fromisoformat(post["start_date"]), dt.date.fromisoformat(post["end_date"])
    weeks = -(-(end - start).days // 7)
    assert (wo["status"], wo["budget_cents"]) == ("pending", short["bill_rate_cents"] * 40 * weeks)
    assert wo["worker_email"] == short["candidate_email"] and wo["hiring_manager_email"] == post["hiring_manager_email"]
    filled = ok(ep, "get_posting", posting_id=post["id"])["status"]
    assert filled == ("filled" if post["positions"] == 1 else "distributed")


def test_time_sheets_need_an_active_order_a_monday_and_sane_hours(ep: Episode) -> None:
    wo = every(ep, "list_work_orders", status="active")[0]
    pending = every(ep, "list_work_orders", status="pending")[0]
    monday = MONDAY.isoformat()
    refused(
        ep,
        "submit_timesheet",
        "rule_violation",
        "work_order_id",
        work_order_id=pending["id"],
        week_start=monday,
        hours=8,
    )
    refused(
        ep,
        "submit_timesheet",
        "rule_violation",
        "week_start",
        work_order_id=wo["id"],
        week_start=(MONDAY + dt.timedelta(days=1)).isoformat(),
        hours=8,
    )
    refused(ep, "submit_timesheet", "rule_violation", "hours", work_order_id=wo["id"], week_start=monday, hours=61)
    ts = ok(ep, "submit_timesheet", work_order_id=wo["id"], week_start=monday, hours=37.5)
    assert ts["amount_cents"] == round(37.5 * wo["bill_rate_cents"])
    refused(ep, "submit_timesheet", "conflict", "week_start", work_order_id=wo["id"], week_start=monday, hours=1)
    approved = ok(ep, "approve_timesheet", timesheet_id=ts["id"])
    assert approved["status"] == "approved"
    after = ok(ep, "get_work_order", work_order_id=wo["id"])
    assert after["spent_cents"] == wo["spent_cents"] + ts["amount_cents"]
    refused(ep, "approve_timesheet", "rule_violation", "timesheet_id", timesheet_id=ts["id"])


def test_approved_time_never_exceeds_the_budget(ep: Episode) -> None:
    post = new_posting(ep, "Data Analyst")
    sid = next(
        c["supplier_id"]
        for c in every(ep, "list_rate_cards", job_title="Data Analyst")
        if ok(ep, "get_supplier", supplier_id=c["supplier_id"])["status"] == "active"
    )
    ok(ep, "distribute_posting", posting_id=post["id"], supplier_ids=[sid])
    card = every(ep, "list_rate_cards", supplier_id=sid, job_title="Data Analyst")[0]
    sub = ok(
        ep,
        "submit_candidate",
        posting_id=post["id"],
        supplier_id=sid,
        candidate_name="Kim Lee",
        candidate_email="kim@lee.io",
        bill_rate_cents=card["min_rate_cents"],
    )
    ok(ep, "shortlist_submission", submission_id=sub["id"])
    wo = ok(ep, "accept_submission", submission_id=sub["id"], weekly_hours=1)
    assert ok(ep, "get_posting", posting_id=post["id"])["status"] == "filled"
    ok(ep, "activate_work_order", work_order_id=wo["id"])
    ts = ok(ep, "submit_timesheet", work_order_id=wo["id"], week_start=MONDAY.isoformat(), hours=40)
    refused(ep, "approve_timesheet", "rule_violation", "timesheet_id", timesheet_id=ts["id"])
    assert ok(ep, "reject_timesheet", timesheet_id=ts["id"])["status"] == "rejected"


def test_inactive_suppliers_get_nothing_new(ep: Episode) -> None:
    sup = active_supplier(ep)
    ok(ep, "deactivate_supplier", supplier_id=sup["id"])
    refused(
        ep,
        "create_rate_card",
        "rule_violation",
        "supplier_id",
        supplier_id=sup["id"],
        job_title="Designer",
        min_rate_cents=1,
        max_rate_cents=2,
    )
    refused(
        ep,
        "create_sow",
        "rule_violation",
        "supplier_id",
        supplier_id=sup["id"],
        title="Audit",
        owner_email=MANAGER,
        fee_cents=100,
    )
    ok(ep, "activate_supplier", supplier_id=sup["id"])
    assert ok(ep, "create_sow", supplier_id=sup["id"], title="Audit", owner_email=MANAGER, fee_cents=100)["status"] == (
        "draft"
    )


def test_a_sow_invoices_milestones_up_to_its_fee_once_approved(ep: Episode) -> None:
    sup = active_supplier(ep)
    sow = ok(ep, "create_sow", supplier_id=sup["id"], title="Portal build", owner_email=MANAGER, fee_cents=900_000)
    refused(ep, "invoice_milestone", "rule_violation", "sow_id", sow_id=sow["id"], amount_cents=100)
    refused(ep, "close_sow", "rule_violation", "sow_id", sow_id=sow["id"])
    ok(ep, "approve_sow", sow_id=sow["id"])
    assert ok(ep, "invoice_milestone", sow_id=sow["id"], amount_cents=600_000)["invoiced_cents"] == 600_000
    refused(ep, "invoice_milestone", "rule_violation", "amount_cents", sow_id=sow["id"], amount_cents=300_001)
    ok(ep, "invoice_milestone", sow_id=sow["id"], amount_cents=300_000)
    assert ok(ep, "close_sow", sow_id=sow["id"])["status"] == "closed"
