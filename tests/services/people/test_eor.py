"""Borderless Teams: country rules, signing order, milestones and timesheets, invoices, off-boarding notice."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EOR = ServiceTools("eor")
WORLD = EOR.world
ok, refused, every = EOR.ok, EOR.refused, EOR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
MANAGER = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def contract(ep: Episode, kind: str, status: str = "in_progress") -> dict[str, Any]:
    return every(ep, "list_contracts", contract_type=kind, status=status)[0]


def eor_args(ep: Episode, country: str = "DE", **over: Any) -> dict[str, Any]:
    rule = every(ep, "list_country_rules", country=country)[0]
    args = {
        "title": "Employment agreement",
        "contract_type": "eor",
        "worker_name": "Lena Vogel",
        "worker_email": "lena.vogel@example.de",
        "job_title": "Site Reliability Engineer",
        "country": country,
        "currency": rule["currency"],
        "rate_cents": rule["min_annual_salary_cents"],
        "scale": "annual",
        "start_date": day(30),
        "manager_email": MANAGER,
        "probation_days": rule["max_probation_days"],
    }
    return args | over


def test_seeded_contracts_link_the_world_s_people(ep: Episode) -> None:
    contacts = {p.email for p in POP.contacts}
    for c in every(ep, "list_contracts"):
        assert c["manager_email"] in STAFF and c["manager_email"] != c["worker_email"]
        if c["contract_type"] == "eor":
            assert c["worker_email"] in STAFF
            rule = every(ep, "list_country_rules", country=c["country"])[0]
            assert rule["eor_available"] and c["currency"] == rule["currency"]
            assert c["rate_cents"] >= rule["min_annual_salary_cents"]
        else:
            assert c["worker_email"] in contacts
    for inv in every(ep, "list_invoices"):
        assert inv["worker_email"] == ok(ep, "get_contract", contract_id=inv["contract_id"])["worker_email"]


def test_eor_contracts_must_meet_the_country_rules(ep: Episode) -> None:
    rule = every(ep, "list_country_rules", country="DE")[0]
    refused(ep, "create_contract", "rule_violation", "country", **eor_args(ep, "US"))
    refused(ep, "create_contract", "rule_violation", "currency", **eor_args(ep, currency="USD"))
    low = rule["min_annual_salary_cents"] - 1
    refused(ep, "create_contract", "rule_violation", "rate_cents", **eor_args(ep, rate_cents=low))
    refused(ep, "create_contract", "rule_violation", "rate_cents", **eor_args(ep, scale="monthly"))
    refused(
        ep,
        "create_contract",
        "rule_violation",
        "probation_days",
        **eor_args(ep, probation_days=rule["max_probation_days"] + 1),
    )
    refused(ep, "create_contract", "rule_violation", "manager_email", **eor_args(ep, manager_email="x@y.io"))
    refused(ep, "create_contract", "rule_violation", "start_date", **eor_args(ep, start_date=day(-1)))
    made = ok(ep, "create_contract", **eor_args(ep))
    assert (made["status"], made["client_signed_at"]) == ("new", None)


def test_one_live_contract_per_worker(ep: Episode) -> None:
    live = contract(ep, "fixed_rate")
    refused(ep, "create_contract", "conflict", "worker_email", **eor_args(ep, worker_email=live["worker_email"]))
    done = contract(ep, "fixed_rate", "completed")
    again = ok(ep, "create_contract", **eor_args(ep, worker_email=done["worker_email"]))
    assert again["worker_email"] == done["worker_email"]


def test_the_company_signs_before_the_worker(ep: Episode) -> None:
    c = contract(ep, "fixed_rate", "new")
    refused(ep, "record_worker_signature", "conflict", "contract_id", contract_id=c["id"])
    signed = ok(ep, "sign_contract", contract_id=c["id"])
    assert (signed["status"], signed["client_signed_at"]) == ("waiting_for_contractor_sign", TODAY.isoformat())
    refused(ep, "sign_contract", "conflict", "contract_id", contract_id=c["id"])
    live = ok(ep, "record_worker_signature", contract_id=c["id"])
    assert (live["status"], live["worker_signed_at"]) == ("in_progress", TODAY.isoformat())
    refused(ep, "cancel_contract", "rule_violation", "contract_id", contract_id=c["id"])
    waiting = contract(ep, "pay_as_you_go", "waiting_for_client_sign")
    assert ok(ep, "cancel_contract", contract_id=waiting["id"])["status"] == "cancelled"
    refused(ep, "update_contract", "rule_violation", "contract_id", contract_id=waiting["id"], scope="More")


def test_milestones_belong_to_milestone_contracts_and_bill_once_approved(ep: Episode) -> None:
    ms = contract(ep, "milestone")
    fixed = contract(ep, "fixed_rate")
    refused(ep, "submit_milestone", "rule_violation", "contract_id", contract_id=fixed["id"], title="X", amount_cents=5)
    seeded = every(ep, "list_milestones", contract_id=ms["id"])
    refused(ep, "submit_milestone", "conflict", "title", contract_id=ms["id"], title=seeded[0]["title"], amount_cents=9)
    new = ok(ep, "submit_milestone", contract_id=ms["id"], title="Release notes", amount_cents=50_000)
    ok(ep, "approve_milestone", milestone_id=new["id"])
    refused(ep, "decline_milestone", "rule_violation", "milestone_id", milestone_id=new["id"])
    approved = [m for m in every(ep, "list_milestones", contract_id=ms["id"]) if m["status"] == "approved"]
    inv = ok(ep, "generate_invoice", contract_id=ms["id"], period=TODAY.strftime("%Y-%m"))
    assert inv["amount_cents"] == sum(m["amount_cents"] for m in approved)
    assert {m["id"] for m in every(ep, "list_milestones", invoice_id=inv["id"])} == {m["id"] for m in approved}
    refused(ep, "generate_invoice", "conflict", "period", contract_id=ms["id"], period=TODAY.strftime("%Y-%m"))
    ok(ep, "void_invoice", invoice_id=inv["id"])
    assert every(ep, "list_milestones", invoice_id=inv["id"]) == []
    assert ok(ep, "generate_invoice", contract_id=ms["id"], period=TODAY.strftime("%Y-%m"))["amount_cents"] > 0


def test_timesheets_are_capped_per_day_and_bill_approved_hours(ep: Episode) -> None:
    c = contract(ep, "pay_as_you_go")
    refused(ep, "submit_timesheet", "rule_violation", "work_date", contract_id=c["id"], work_date=day(1), hours=4)
    ok(ep, "submit_timesheet", contract_id=c["id"], work_date=day(0), hours=20)
    refused(ep, "submit_timesheet", "rule_violation", "hours", contract_id=c["id"], work_date=day(0), hours=5)
    approved = every(ep, "list_timesheets", contract_id=c["id"], status="approved")
    period = approved[0]["work_date"][:7]
    hours = [t for t in approved if t["work_date"].startswith(period)]
    inv = ok(ep, "generate_invoice", contract_id=c["id"], period=period)
    assert inv["amount_cents"] == round(sum(t["hours"] for t in hours) * c["rate_cents"])
    assert {t["id"] for t in every(ep, "list_timesheets", invoice_id=inv["id"])} == {t["id"] for t in hours}
    eor = contract(ep, "eor")
    refused(ep, "submit_timesheet", "rule_violation", "contract_id", contract_id=eor["id"], work_date=day(0), hours=1)
    refused(ep, "generate_invoice", "rule_violation", "contract_id", contract_id=eor["id"], period=period)


def test_fixed_rate_invoices_bill_the_monthly_rate_once(ep: Episode) -> None:
    c = contract(ep, "fixed_rate")
    period = TODAY.strftime("%Y-%m")
    inv = ok(ep, "generate_invoice", contract_id=c["id"], period=period)
    assert (inv["amount_cents"], inv["currency"], inv["status"]) == (c["rate_cents"], c["currency"], "pending")
    future = (TODAY + dt.timedelta(days=40)).strftime("%Y-%m")
    refused(ep, "generate_invoice", "rule_violation", "period", contract_id=c["id"], period=future)
    assert ok(ep, "pay_invoice", invoice_id=inv["id"])["status"] == "paid"
    refused(ep, "void_invoice", "conflict", "invoice_id", invoice_id=inv["id"])


def test_terminating_an_eor_employee_respects_notice_and_pending_work(ep: Episode) -> None:
    c = contract(ep, "eor")
    rule = every(ep, "list_country_rules", country=c["country"])[0]
    notice = rule["notice_days"]
    base = {"contract_id": c["id"], "reason": "restructuring"}
    refused(ep, "terminate_contract", "rule_violation", "last_day", last_day=day(notice - 1), **base)
    refused(ep, "terminate_contract", "rule_violation", "last_day", last_day=day(-1), **base)
    quit_ = ok(ep, "terminate_contract", contract_id=c["id"], reason="resignation", last_day=day(1))
    assert (quit_["status"], quit_["termination_reason"]) == ("terminated", "resignation")
    refused(ep, "terminate_contract", "conflict", "contract_id", last_day=day(notice), **base)
    other = contract(ep, "eor")
    notice = every(ep, "list_country_rules", country=other["country"])[0]["notice_days"]
    done = ok(ep, "terminate_contract", contract_id=other["id"], reason="restructuring", last_day=day(notice))
    assert done["last_day"] == day(notice)


def test_submitted_work_blocks_off_boarding_a_contractor(ep: Episode) -> None:
    c = contract(ep, "pay_as_you_go")
    refused(
        ep,
        "terminate_contract",
        "conflict",
        "contract_id",
        contract_id=c["id"],
        reason="end_of_project",
        last_day=day(0),
    )
    for t in every(ep, "list_timesheets", contract_id=c["id"], status="submitted"):
        ok(ep, "decline_timesheet", timesheet_id=t["id"])
    ended = ok(ep, "terminate_contract", contract_id=c["id"], reason="end_of_project", last_day=day(0))
    assert ended["status"] == "terminated"
    refused(ep, "submit_timesheet", "conflict", "contract_id", contract_id=c["id"], work_date=day(0), hours=1)


def test_rate_amendments_and_the_cost_estimate_keep_the_minimum(ep: Episode) -> None:
    c = contract(ep, "eor")
    rule = every(ep, "list_country_rules", country=c["country"])[0]
    floor = rule["min_annual_salary_cents"]
    refused(ep, "amend_rate", "rule_violation", "rate_cents", contract_id=c["id"], rate_cents=floor - 1)
    refused(ep, "amend_rate", "rule_violation", "rate_cents", contract_id=c["id"], rate_cents=c["rate_cents"])
    assert (
        ok(ep, "amend_rate", contract_id=c["id"], rate_cents=c["rate_cents"] + 100_000)["rate_cents"] > c["rate_cents"]
    )
    est = ok(ep, "estimate_employment_cost", country=c["country"], annual_salary_cents=floor * 2)
    extra = round(floor * 2 * rule["employer_cost_percent"] / 100)
    assert (est["employer_contributions_cents"], est["total_annual_cost_cents"]) == (extra, floor * 2 + extra)
    refused(
        ep,
        "estimate_employment_cost",
        "rule_violation",
        "annual_salary_cents",
        country=c["country"],
        annual_salary_cents=1,
    )
    refused(ep, "estimate_employment_cost", "rule_violation", "country", country="US", annual_salary_cents=floor * 9)
