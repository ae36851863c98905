"""Shieldline Comp: binding, payroll reports and premium, audits, first reports of injury, claims to closure."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WC = ServiceTools("workerscomp")
WORLD = WC.world
ok, refused, every = WC.ok, WC.refused, WC.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
ADMIN = POP.employees[0].email


def policy(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_policies", status=status)[0]


def claim(ep: Episode, status: str, **more: Any) -> dict[str, Any]:
    return every(ep, "list_claims", status=status, **more)[0]


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def test_seeded_injuries_and_claims_are_the_worlds_employees_and_premiums_follow_rates(ep: Episode) -> None:
    names = {p.email: p.name for p in POP.employees}
    for inj in every(ep, "list_injuries"):
        assert names[inj["employee_email"]] == inj["employee_name"]
    for c in every(ep, "list_claims"):
        assert c["employee_email"] in STAFF
        assert ok(ep, "get_injury", injury_id=c["injury_id"])["status"] == "claim_filed"
    rates = {c["id"]: c["rate"] for c in every(ep, "list_class_codes")}
    reports = every(ep, "list_payroll_reports")
    assert reports
    for r in reports:
        assert r["premium_cents"] == round(r["payroll_cents"] * rates[r["class_code_id"]] / 100)
    assert {p["status"] for p in every(ep, "list_policies")} == {"quoted", "active", "cancelled", "expired"}


def test_a_quote_binds_only_with_a_class_code_and_no_overlapping_active_policy(ep: Episode) -> None:
    refused(
        ep,
        "quote_policy",
        "rule_violation",
        "contact_email",
        carrier="Pie Insurance",
        state="WA",
        effective_date=day(5),
        contact_email="x@y.io",
    )
    refused(
        ep,
        "quote_policy",
        "rule_violation",
        "effective_date",
        carrier="Pie Insurance",
        state="WA",
        effective_date=day(-1),
        contact_email=ADMIN,
    )
    made = ok(ep, "quote_policy", carrier="Pie Insurance", state="WA", effective_date=day(5), contact_email=ADMIN)
    start = TODAY + dt.timedelta(days=5)
    end = start.replace(year=start.year + 1) - dt.timedelta(days=1)
    assert (made["status"], made["expiration_date"]) == ("quoted", end.isoformat())
    refused(ep, "bind_policy", "rule_violation", "policy_id", policy_id=made["id"])
    ok(ep, "add_class_code", policy_id=made["id"], code="8810", description="Clerical", rate=0.1)
    refused(ep, "add_class_code", "conflict", "code", policy_id=made["id"], code="8810", description="Again", rate=0.2)
    assert ok(ep, "bind_policy", policy_id=made["id"])["status"] == "active"
    refused(ep, "bind_policy", "rule_violation", "policy_id", policy_id=made["id"])
    rival = ok(ep, "quote_policy", carrier="Hartford", state="CA", effective_date=day(1), contact_email=ADMIN)
    ok(ep, "add_class_code", policy_id=rival["id"], code="8810", description="Clerical", rate=0.1)
    refused(ep, "bind_policy", "conflict", "policy_id", policy_id=rival["id"])


def test_payroll_is_reported_once_per_code_and_month_on_an_active_policy(ep: Episode) -> None:
    active = policy(ep, "active")
    cc = every(ep, "list_class_codes", policy_id=active["id"])[0]
    month = TODAY.replace(day=1).isoformat()
    before = ok(ep, "premium_summary", policy_id=active["id"])
    refused(
        ep,
        "report_payroll",
        "rule_violation",
        "period_start",
        class_code_id=cc["id"],
        period_start=day(0) if TODAY.day != 1 else day(1),
        payroll_cents=100,
    )
    made = ok(ep, "report_payroll", class_code_id=cc["id"], period_start=month, payroll_cents=1_000_000)
    assert made["premium_cents"] == round(1_000_000 * cc["rate"] / 100)
    refused(
        ep, "report_payroll", "conflict", "period_start", class_code_id=cc["id"], period_start=month, payroll_cents=5
    )
    after = ok(ep, "premium_summary", policy_id=active["id"])
    assert after["billed_premium_cents"] == before["billed_premium_cents"] + made["premium_cents"]
    assert after["reports"] == before["reports"] + 1
    quoted_cc = every(ep, "list_class_codes", policy_id=policy(ep, "quoted")["id"])[0]
    refused(
        ep,
        "report_payroll",
        "rule_violation",
        "class_code_id",
        class_code_id=quoted_cc["id"],
        period_start=month,
        payroll_cents=100,
    )


def test_an_audit_runs_scheduled_to_completed_and_computes_the_adjustment(ep: Episode) -> None:
    running = every(ep, "list_audits", status="in_progress")[0]
    refused(ep, "schedule_audit", "conflict", "policy_id", policy_id=running["policy_id"], scheduled_for=day(3))
    refused(
        ep,
        "complete_audit",
        "rule_violation",
        "audit_id",
        audit_id=every(ep, "list_audits", status="scheduled")[0]["id"],
        audited_payroll_cents=1,
    )
    reported = sum(r["premium_cents"] for r in every(ep, "list_payroll_reports", policy_id=running["policy_id"]))
    done = ok(ep, "complete_audit", audit_id=running["id"], audited_payroll_cents=100_000_000)
    assert done["status"] == "completed" and done["reported_premium_cents"] == reported
    assert done["adjustment_cents"] == done["audited_premium_cents"] - reported
    again = ok(ep, "schedule_audit", policy_id=running["policy_id"], scheduled_for=day(30))
    assert again["status"] == "scheduled"
    assert ok(ep, "start_audit", audit_id=again["id"])["status"] == "in_progress"
    refused(
        ep, "schedule_audit", "rule_violation", "policy_id", policy_id=policy(ep, "quoted")["id"], scheduled_for=day(3)
    )


def test_a_first_report_needs_an_employee_a_past_date_and_a_covering_policy(ep: Episode) -> None:
    who = POP.employees[1].email
    base = {"injury_type": "strain", "body_part": "back", "description": "Lifted a heavy box."}
    refused(
        ep, "report_injury", "rule_violation", "employee_email", employee_email="a@b.io", injury_date=day(0), **base
    )
    refused(ep, "report_injury", "rule_violation", "injury_date", employee_email=who, injury_date=day(1), **base)
    refused(ep, "report_injury", "rule_violation", "injury_date", employee_email=who, injury_date=day(-3000), **base)
    made = ok(ep, "report_injury", employee_email=who, injury_date=day(-5), **base)
    assert (made["status"], made["reported_late"], made["policy_id"]) == (
        "reported",
        True,
        policy(ep, "active")["id"],
    )
    refused(ep, "report_injury", "conflict", "employee_email", employee_email=who, injury_date=day(-5), **base)


def test_a_claim_is_filed_once_per_reported_injury(ep: Episode) -> None:
    inj = every(ep, "list_injuries", status="reported")[0]
    refused(ep, "file_claim", "rule_violation", "reserve_cents", injury_id=inj["id"], reserve_cents=0)
    made = ok(ep, "file_claim", injury_id=inj["id"], reserve_cents=800_000)
    assert (made["status"], made["employee_email"], made["work_status"]) == ("open", inj["employee_email"], "off_work")
    assert ok(ep, "get_injury", injury_id=inj["id"])["status"] == "claim_filed"
    refused(ep, "file_claim", "conflict", "injury_id", injury_id=inj["id"], reserve_cents=800_000)
    kept = every(ep, "list_injuries", status="record_only")[0]
    refused(ep, "file_claim", "conflict", "injury_id", injury_id=kept["id"], reserve_cents=800_000)


def test_payments_need_an_accepted_claim_and_stay_within_the_reserve(ep: Episode) -> None:
    opened = claim(ep, "open")
    refused(ep, "record_payment", "rule_violation", "claim_id", claim_id=opened["id"], kind="medical", amount_cents=10)
    accepted = ok(ep, "accept_claim", claim_id=opened["id"])
    left = accepted["reserve_cents"] - accepted["medical_paid_cents"] - accepted["indemnity_paid_cents"]
    refused(
        ep,
        "record_payment",
        "rule_violation",
        "amount_cents",
        claim_id=opened["id"],
        kind="indemnity",
        amount_cents=left + 1,
    )
    paid = ok(ep, "record_payment", claim_id=opened["id"], kind="indemnity", amount_cents=left)
    assert paid["indemnity_paid_cents"] == accepted["indemnity_paid_cents"] + left
    refused(
        ep, "record_payment", "rule_violation", "amount_cents", claim_id=opened["id"], kind="medical", amount_cents=1
    )


def test_return_to_work_moves_forward_and_a_claim_closes_at_full_duty(ep: Episode) -> None:
    c = claim(ep, "accepted", work_status="off_work")
    refused(ep, "close_claim", "rule_violation", "claim_id", claim_id=c["id"])
    refused(ep, "return_to_work", "rule_violation", "on", claim_id=c["id"], work_status="modified_duty", on=day(2))
    back = ok(ep, "return_to_work", claim_id=c["id"], work_status="modified_duty")
    assert (back["work_status"], back["return_to_work_date"]) == ("modified_duty", day(0))
    refused(ep, "return_to_work", "rule_violation", "work_status", claim_id=c["id"], work_status="modified_duty")
    ok(ep, "return_to_work", claim_id=c["id"], work_status="full_duty")
    closed = ok(ep, "close_claim", claim_id=c["id"])
    assert closed["status"] == "closed" and closed["closed_at"] is not None
    refused(ep, "close_claim", "rule_violation", "claim_id", claim_id=c["id"])


def test_a_denial_needs_a_reason_and_a_policy_with_live_claims_cannot_be_cancelled(ep: Episode) -> None:
    opened = claim(ep, "open")
    refused(ep, "deny_claim", "rule_violation", "reason", claim_id=opened["id"], reason="  ")
    denied = ok(ep, "deny_claim", claim_id=opened["id"], reason="Off the premises.")
    assert (denied["status"], denied["denial_reason"]) == ("denied", "Off the premises.")
    refused(ep, "return_to_work", "rule_violation", "claim_id", claim_id=opened["id"], work_status="full_duty")
    active = policy(ep, "active")
    refused(ep, "cancel_policy", "conflict", "policy_id", policy_id=active["id"], reason="Switching carriers")
    quoted = policy(ep, "quoted")
    done = ok(ep, "cancel_policy", policy_id=quoted["id"], reason="Switching carriers")
    assert (done["status"], done["cancel_reason"]) == ("cancelled", "Switching carriers")
    refused(ep, "cancel_policy", "rule_violation", "policy_id", policy_id=quoted["id"], reason="Again")


def test_an_injury_end_to_end_from_first_report_to_closed_claim(ep: Episode) -> None:
    who = POP.employees[-1].email
    inj = ok(
        ep,
        "report_injury",
        employee_email=who,
        injury_date=day(0),
        injury_type="laceration",
        body_part="hand",
        description="Cut on a shelf edge.",
    )
    assert inj["reported_late"] is False
    c = ok(ep, "file_claim", injury_id=inj["id"], reserve_cents=300_000)
    ok(ep, "accept_claim", claim_id=c["id"])
    ok(ep, "record_payment", claim_id=c["id"], kind="medical", amount_cents=120_000)
    ok(ep, "return_to_work", claim_id=c["id"], work_status="full_duty")
    closed = ok(ep, "close_claim", claim_id=c["id"])
    assert (closed["status"], closed["medical_paid_cents"], closed["work_status"]) == ("closed", 120_000, "full_duty")
    assert every(ep, "list_claims", employee_email=who)[0]["id"] == c["id"]
