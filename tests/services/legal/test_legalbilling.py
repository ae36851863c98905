"""Counsel Spend: LEDES submission checks, guideline flags, line review, approval within budget, appeals."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BILL = ServiceTools("legalbilling")
WORLD = BILL.world
ok, refused, every = BILL.ok, BILL.refused, BILL.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
START = TODAY.replace(day=1).isoformat()


def setup(ep: Episode) -> tuple[dict[str, Any], dict[str, Any]]:
    matter = every(ep, "list_matters", status="open")[0]
    tk = every(ep, "list_timekeepers", firm_id=matter["firm_id"], classification="associate")[0]
    return matter, tk


def fee(tk: dict[str, Any], **change: Any) -> dict[str, Any]:
    line = {
        "date": START,
        "description": "Draft brief",
        "timekeeper_id": tk["id"],
        "hours": 2.0,
        "rate": tk["approved_rate"],
        "task_code": "L210",
        "activity_code": "A103",
    }
    return line | change


def submit(ep: Episode, matter: dict[str, Any], number: str, *lines: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = ok(
        ep,
        "submit_invoice",
        matter_id=matter["id"],
        invoice_number=number,
        period_start=START,
        period_end=TODAY.isoformat(),
        lines=list(lines),
    )
    return found


def test_seeded_firms_are_world_companies_and_spend_matches_approved_invoices(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    assert {f["name"] for f in every(ep, "list_firms")} <= names
    staff = {p.email for p in POP.employees}
    for m in every(ep, "list_matters"):
        assert m["attorney_email"] in staff
        done = [i for i in every(ep, "list_invoices", matter_id=m["id"]) if i["status"] in ("approved", "paid")]
        assert m["spent"] == sum(i["total_approved"] for i in done)


def test_an_invoice_number_is_submitted_once_per_firm(ep: Episode) -> None:
    matter, tk = setup(ep)
    inv = submit(ep, matter, "Q-100", fee(tk))
    assert (inv["status"], inv["total_billed"]) == ("submitted", 2 * tk["approved_rate"])
    refused(
        ep,
        "submit_invoice",
        "conflict",
        "invoice_number",
        matter_id=matter["id"],
        invoice_number="Q-100",
        period_start=START,
        period_end=TODAY.isoformat(),
        lines=[fee(tk)],
    )


def test_lines_must_be_coded_in_tenths_inside_the_period_and_by_the_firms_staff(ep: Episode) -> None:
    matter, tk = setup(ep)
    other = next(t for t in every(ep, "list_timekeepers") if t["firm_id"] != matter["firm_id"])
    base = {
        "matter_id": matter["id"],
        "invoice_number": "Q-200",
        "period_start": START,
        "period_end": TODAY.isoformat(),
    }
    early = (TODAY.replace(day=1) - dt.timedelta(days=1)).isoformat()
    for bad in (fee(tk, task_code=None), fee(tk, hours=1.25), fee(tk, date=early), fee(other)):
        refused(ep, "submit_invoice", "rule_violation", "lines", lines=[bad], **base)
    refused(
        ep, "submit_invoice", "rule_violation", "period_end", **(base | {"period_end": "2099-01-01"}), lines=[fee(tk)]
    )


def test_guidelines_flag_rates_long_entries_and_disallowed_expenses(ep: Episode) -> None:
    matter, tk = setup(ep)
    meal = {"date": START, "description": "Team dinner", "expense_code": "E111", "amount": 18_000}
    filing = {"date": START, "description": "Filing fee", "expense_code": "E112", "amount": 40_500}
    inv = submit(ep, matter, "Q-300", fee(tk, rate=tk["approved_rate"] + 1), fee(tk, hours=11.0), meal, filing)
    found = every(ep, "list_lines", invoice_id=inv["id"])
    assert [x["status"] for x in found] == ["flagged", "flagged", "flagged", "accepted"]
    assert all(x["flags"] for x in found[:3]) and found[3]["flags"] == []


def test_an_invoice_is_approved_only_when_no_line_is_flagged(ep: Episode) -> None:
    matter, tk = setup(ep)
    inv = submit(ep, matter, "Q-400", fee(tk, rate=tk["approved_rate"] + 10_000), fee(tk))
    high, normal = every(ep, "list_lines", invoice_id=inv["id"])
    refused(ep, "adjust_line", "rule_violation", "line_id", line_id=high["id"], approved_amount=1)
    ok(ep, "review_invoice", invoice_id=inv["id"])
    refused(ep, "approve_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    refused(ep, "adjust_line", "rule_violation", "approved_amount", line_id=high["id"], approved_amount=high["amount"])
    refused(ep, "adjust_line", "rule_violation", "note", line_id=high["id"], approved_amount=1, note=" ")
    allowed = 2 * tk["approved_rate"]
    assert ok(ep, "adjust_line", line_id=high["id"], approved_amount=allowed)["status"] == "adjusted"
    done = ok(ep, "approve_invoice", invoice_id=inv["id"])
    assert (done["status"], done["total_approved"]) == ("approved", allowed + normal["amount"])
    spent = ok(ep, "matter_spend", matter_id=matter["id"])
    assert spent["approved"] == matter["spent"] + done["total_approved"]
    assert ok(ep, "pay_invoice", invoice_id=inv["id"])["status"] == "paid"


def test_accepting_or_rejecting_flagged_lines(ep: Episode) -> None:
    matter, tk = setup(ep)
    inv = submit(ep, matter, "Q-500", fee(tk, hours=12.0), fee(tk, hours=10.5))
    a, b = every(ep, "list_lines", invoice_id=inv["id"])
    ok(ep, "review_invoice", invoice_id=inv["id"])
    assert ok(ep, "accept_line", line_id=a["id"], note="Trial day")["approved_amount"] == a["amount"]
    refused(ep, "accept_line", "conflict", "line_id", line_id=a["id"])
    assert ok(ep, "reject_line", line_id=b["id"])["approved_amount"] == 0
    assert ok(ep, "approve_invoice", invoice_id=inv["id"])["total_approved"] == a["amount"]


def test_approval_stays_within_the_budget(ep: Episode) -> None:
    matter, tk = setup(ep)
    big = [
        fee(tk, hours=9.0, date=(TODAY.replace(day=1) + dt.timedelta(days=d % max(TODAY.day, 1))).isoformat())
        for d in range(60)
    ]
    inv = submit(ep, matter, "Q-600", *big)
    ok(ep, "review_invoice", invoice_id=inv["id"])
    assert matter["spent"] + inv["total_billed"] > matter["budget"]
    assert "budget" in refused(ep, "approve_invoice", "rule_violation", "invoice_id", invoice_id=inv["id"])
    ok(ep, "update_matter", matter_id=matter["id"], budget=matter["spent"] + inv["total_billed"])
    assert ok(ep, "approve_invoice", invoice_id=inv["id"])["status"] == "approved"


def test_a_rejected_invoice_is_appealed_once(ep: Episode) -> None:
    inv = every(ep, "list_invoices", status="rejected")[0]
    back = ok(ep, "appeal_invoice", invoice_id=inv["id"])
    assert (back["status"], back["appealed"]) == ("in_review", True)
    refused(ep, "reject_invoice", "rule_violation", "reason", invoice_id=inv["id"], reason="")
    ok(ep, "reject_invoice", invoice_id=inv["id"], reason="Still block billed.")
    refused(ep, "appeal_invoice", "conflict", "invoice_id", invoice_id=inv["id"])


def test_a_matter_closes_only_when_no_invoice_is_open(ep: Episode) -> None:
    busy = next(
        m for m in every(ep, "list_matters") if every(ep, "list_invoices", matter_id=m["id"], status="approved")
    )
    refused(ep, "close_matter", "rule_violation", "matter_id", matter_id=busy["id"])
    quiet = next(m for m in every(ep, "list_matters") if not every(ep, "list_invoices", matter_id=m["id"]))
    assert ok(ep, "close_matter", matter_id=quiet["id"])["status"] == "closed"
    refused(
        ep,
        "submit_invoice",
        "rule_violation",
        "matter_id",
        matter_id=quiet["id"],
        invoice_number="Z-1",
        period_start=START,
        period_end=TODAY.isoformat(),
        lines=[{"date": START, "description": "x", "expense_code": "E101", "amount": 100}],
    )


def test_opening_a_matter_needs_an_active_firm_and_an_in_house_attorney(ep: Episode) -> None:
    firm = every(ep, "list_firms")[0]
    args = {"name": "Patent license", "firm_id": firm["id"], "budget": 1_000_000}
    refused(ep, "open_matter", "rule_violation", "attorney_email", attorney_email="x@lawfirm.example", **args)
    ok(ep, "update_firm", firm_id=firm["id"], active=False)
    refused(ep, "open_matter", "rule_violation", "firm_id", attorney_email=POP.employees[0].email, **args)
