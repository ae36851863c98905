"""Harbor Leave: eligibility, certifications with due dates, entitlement, intermittent usage, return to work."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LEAVE = ServiceTools("leavecases")
WORLD = LEAVE.world
ok, refused, every = LEAVE.ok, LEAVE.refused, LEAVE.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email: p for p in POP.employees}
SPECIALIST = POP.staff("People", fallback=2)[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def free_veteran(ep: Episode) -> Any:
    busy = {c["employee_email"] for c in every(ep, "list_cases")}
    return next(
        p
        for p in POP.employees
        if p.email not in busy
        and p.email != SPECIALIST
        and p.hire_date
        and p.hire_date < TODAY - dt.timedelta(days=800)
    )


def open_case(ep: Episode, p: Any, **extra: Any) -> Any:
    args = {
        "employee_email": p.email,
        "employee_name": p.name,
        "leave_type": "fmla_own_health",
        "start_date": day(14),
        "expected_end_date": day(27),
        "hours_worked_12mo": 1800,
        "specialist_email": SPECIALIST,
    }
    return ok(ep, "open_case", **(args | extra))


def approved_case(ep: Episode, p: Any, **extra: Any) -> Any:
    case = open_case(ep, p, **extra)
    ok(ep, "review_eligibility", case_id=case["id"])
    cert = every(ep, "list_certifications", case_id=case["id"])[0]
    ok(ep, "receive_certification", certification_id=cert["id"], provider_name="Dr. Lena Fischer")
    ok(ep, "review_certification", certification_id=cert["id"], sufficient=True)
    return ok(ep, "approve_case", case_id=case["id"])


def test_seeded_cases_belong_to_employees_and_match_their_status(ep: Episode) -> None:
    for c in every(ep, "list_cases"):
        assert STAFF[c["employee_email"]].name == c["employee_name"] and c["specialist_email"] in STAFF
        certs = every(ep, "list_certifications", case_id=c["id"])
        if c["status"] in ("approved", "on_leave", "returned"):
            assert c["eligible"] and all(x["status"] == "approved" for x in certs if x["kind"] != "fitness_for_duty")
        if c["status"] == "denied":
            assert c["denial_reason"]
    statuses = {c["status"] for c in every(ep, "list_cases")}
    assert statuses == {"submitted", "pending_certification", "approved", "denied", "on_leave", "returned", "canceled"}


def test_an_employee_has_one_open_case_and_bonding_follows_the_birth(ep: Episode) -> None:
    busy = every(ep, "list_cases", status="on_leave")[0]
    p = STAFF[busy["employee_email"]]
    refused(
        ep,
        "open_case",
        "conflict",
        "employee_email",
        employee_email=p.email,
        employee_name=p.name,
        leave_type="fmla_family_care",
        start_date=day(40),
        expected_end_date=day(50),
        hours_worked_12mo=1800,
        specialist_email=SPECIALIST,
    )
    q = free_veteran(ep)
    base = {
        "employee_email": q.email,
        "employee_name": q.name,
        "leave_type": "parental_bonding",
        "hours_worked_12mo": 1800,
        "specialist_email": SPECIALIST,
    }
    refused(ep, "open_case", "rule_violation", "event_date", start_date=day(5), expected_end_date=day(60), **base)
    refused(
        ep,
        "open_case",
        "rule_violation",
        "start_date",
        start_date=day(5),
        expected_end_date=day(60),
        event_date=day(-400),
        **base,
    )
    refused(
        ep,
        "open_case",
        "rule_violation",
        "specialist_email",
        **(base | {"specialist_email": q.email}),
        start_date=day(5),
        expected_end_date=day(60),
        event_date=day(-10),
    )
    made = ok(ep, "open_case", start_date=day(5), expected_end_date=day(60), event_date=day(-10), **base)
    assert made["status"] == "submitted" and made["eligible"] is None


def test_eligibility_needs_the_hours_and_requests_a_certification_due_in_15_days(ep: Episode) -> None:
    p = free_veteran(ep)
    low = open_case(ep, p, hours_worked_12mo=1000)
    denied = ok(ep, "review_eligibility", case_id=low["id"])
    assert (denied["status"], denied["eligible"]) == ("denied", False) and "1250" in denied["denial_reason"]
    again = open_case(ep, p)
    done = ok(ep, "review_eligibility", case_id=again["id"])
    assert (done["status"], done["eligible"]) == ("pending_certification", True)
    [cert] = every(ep, "list_certifications", case_id=again["id"])
    assert (cert["kind"], cert["status"], cert["due_on"]) == ("WH-380-E", "requested", day(15))
    refused(ep, "review_eligibility", "rule_violation", "case_id", case_id=again["id"])


def test_an_insufficient_certification_gets_a_cure_period_and_blocks_approval(ep: Episode) -> None:
    case = open_case(ep, free_veteran(ep))
    ok(ep, "review_eligibility", case_id=case["id"])
    cert = every(ep, "list_certifications", case_id=case["id"])[0]
    refused(ep, "receive_certification", "rule_violation", "provider_name", certification_id=cert["id"])
    ok(ep, "receive_certification", certification_id=cert["id"], provider_name="Dr. Lena Fischer")
    refused(ep, "review_certification", "rule_violation", "note", certification_id=cert["id"], sufficient=False)
    bad = ok(ep, "review_certification", certification_id=cert["id"], sufficient=False, note="No duration given")
    assert (bad["status"], bad["due_on"]) == ("insufficient", day(7))
    refused(ep, "approve_case", "rule_violation", "case_id", case_id=case["id"])
    assert ok(ep, "extend_certification", certification_id=cert["id"], days=5)["due_on"] == day(12)
    refused(ep, "extend_certification", "conflict", "certification_id", certification_id=cert["id"], days=5)


def test_approval_is_limited_by_the_rolling_entitlement(ep: Episode) -> None:
    p = free_veteran(ep)
    refused_case = open_case(ep, p, start_date=day(14), expected_end_date=day(14 + 7 * 13))
    ok(ep, "review_eligibility", case_id=refused_case["id"])
    cert = every(ep, "list_certifications", case_id=refused_case["id"])[0]
    ok(ep, "receive_certification", certification_id=cert["id"], provider_name="Dr. Lena Fischer")
    ok(ep, "review_certification", certification_id=cert["id"], sufficient=True)
    refused(ep, "approve_case", "rule_violation", "case_id", case_id=refused_case["id"])
    ok(ep, "update_case", case_id=refused_case["id"], expected_end_date=day(14 + 7 * 12 - 3))
    assert ok(ep, "approve_case", case_id=refused_case["id"])["status"] == "approved"


def test_a_continuous_leave_counts_its_weekdays_on_return(ep: Episode) -> None:
    p = free_veteran(ep)
    case = approved_case(ep, p, start_date=day(-14), expected_end_date=day(-1))
    refused(ep, "record_return", "rule_violation", "case_id", case_id=case["id"], return_date=day(0))
    ok(ep, "start_leave", case_id=case["id"])
    refused(ep, "record_return", "rule_violation", "return_date", case_id=case["id"], return_date=day(-14))
    back = ok(ep, "record_return", case_id=case["id"], return_date=day(0))
    assert (back["status"], back["return_date"]) == ("returned", day(0))
    used = every(ep, "list_usages", case_id=case["id"])
    assert len(used) == 10 and {u["hours"] for u in used} == {8.0}
    assert ok(ep, "entitlement", employee_email=p.email)["used_hours"] == 80.0


def test_intermittent_usage_stays_within_the_case_and_once_a_day(ep: Episode) -> None:
    case = every(ep, "list_cases", schedule="intermittent", status="approved")[0]
    logged = {u["date"] for u in every(ep, "list_usages", case_id=case["id"])}
    free = next(d for d in (day(-i) for i in range(1, 30)) if d not in logged)
    refused(ep, "start_leave", "rule_violation", "case_id", case_id=case["id"])
    before = ok(ep, "entitlement", employee_email=case["employee_email"])["used_hours"]
    use = ok(ep, "log_usage", case_id=case["id"], date=free, hours=3)
    assert ok(ep, "entitlement", employee_email=case["employee_email"])["used_hours"] == before + 3
    refused(ep, "log_usage", "conflict", "date", case_id=case["id"], date=free, hours=1)
    refused(
        ep,
        "log_usage",
        "rule_violation",
        "date",
        case_id=case["id"],
        date=(dt.date.fromisoformat(case["start_date"]) - dt.timedelta(days=1)).isoformat(),
        hours=1,
    )
    ok(ep, "remove_usage", usage_id=use["id"])
    assert ok(ep, "entitlement", employee_email=case["employee_email"])["used_hours"] == before


def test_returning_from_own_health_leave_needs_fitness_for_duty(ep: Episode) -> None:
    case = every(ep, "list_cases", status="on_leave", fitness_for_duty_required=True)[0]
    refused(ep, "record_return", "rule_violation", "case_id", case_id=case["id"], return_date=day(0))
    cert = ok(ep, "request_fitness_for_duty", case_id=case["id"])
    assert (cert["kind"], cert["due_on"]) == ("fitness_for_duty", day(15))
    refused(ep, "request_fitness_for_duty", "conflict", "case_id", case_id=case["id"])
    ok(ep, "receive_certification", certification_id=cert["id"])
    ok(ep, "review_certification", certification_id=cert["id"], sufficient=True)
    assert ok(ep, "record_return", case_id=case["id"], return_date=day(0))["status"] == "returned"


def test_canceling_and_denying_close_the_case(ep: Episode) -> None:
    pending = every(ep, "list_cases", status="pending_certification")[0]
    refused(ep, "deny_case", "rule_violation", "reason", case_id=pending["id"], reason=" ")
    assert ok(ep, "deny_case", case_id=pending["id"], reason="Certification not returned")["status"] == "denied"
    refused(ep, "cancel_case", "rule_violation", "case_id", case_id=pending["id"])
    approved = every(ep, "list_cases", status="approved")[0]
    assert ok(ep, "cancel_case", case_id=approved["id"])["status"] == "canceled"
    summary = ok(ep, "case_summary", case_id=approved["id"])
    assert summary["status"] == "canceled"
