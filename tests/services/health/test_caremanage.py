"""Bridgeway Care Management: identification, outreach limits, consent and capacity, gaps, plans, transitions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CM = ServiceTools("caremanage")
WORLD = CM.world
ok, refused, every, first = CM.ok, CM.refused, CM.every, CM.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def fresh(ep: Episode, program: str = "Diabetes management") -> dict[str, Any]:
    prog = next(p for p in every(ep, "list_programs", active=True) if p["name"] == program)
    pt = next(p for p in every(ep, "list_patients") if not every(ep, "list_enrollments", patient_id=p["id"]))
    made: dict[str, Any] = ok(
        ep, "identify_patient", patient_id=pt["id"], program_id=prog["id"], care_manager_email=STAFF
    )
    return made


def test_patients_are_consumers_with_a_tier_from_their_score(ep: Episode) -> None:
    names = {p.email: p.name for p in POP.consumers}
    for p in every(ep, "list_patients"):
        assert names[p["email"]] == p["name"]
        s = p["risk_score"]
        assert p["risk_tier"] == ("high" if s >= 70 else "rising" if s >= 40 else "low")
        assert ok(ep, "find_patient", email=p["email"])["id"] == p["id"]
    staff = {e.email for e in POP.employees}
    assert {e["care_manager_email"] for e in every(ep, "list_enrollments")} <= staff


def test_identification_needs_staff_an_open_program_and_no_duplicate(ep: Episode) -> None:
    e = fresh(ep)
    refused(
        ep,
        "identify_patient",
        "conflict",
        "program_id",
        patient_id=e["patient_id"],
        program_id=e["program_id"],
        care_manager_email=STAFF,
    )
    closed = first(ep, "programs", active=False)
    refused(
        ep,
        "identify_patient",
        "rule_violation",
        "program_id",
        patient_id=e["patient_id"],
        program_id=closed["id"],
        care_manager_email=STAFF,
    )
    other = next(p for p in every(ep, "list_programs", active=True) if p["id"] != e["program_id"])
    refused(
        ep,
        "identify_patient",
        "rule_violation",
        "care_manager_email",
        patient_id=e["patient_id"],
        program_id=other["id"],
        care_manager_email="someone@else.org",
    )


def test_three_unanswered_attempts_make_a_patient_unreachable(ep: Episode) -> None:
    e = fresh(ep)
    for _ in range(2):
        ok(ep, "log_outreach", enrollment_id=e["id"], channel="phone", outcome="no_answer")
    assert ok(ep, "get_enrollment", enrollment_id=e["id"])["status"] == "outreach"
    ok(ep, "log_outreach", enrollment_id=e["id"], channel="sms", outcome="left_message")
    assert ok(ep, "get_enrollment", enrollment_id=e["id"])["status"] == "unreachable"
    refused(
        ep, "log_outreach", "rule_violation", "enrollment_id", enrollment_id=e["id"], channel="phone", outcome="reached"
    )


def test_enrolling_needs_a_reached_patient(ep: Episode) -> None:
    e = fresh(ep)
    refused(ep, "enroll_patient", "rule_violation", "enrollment_id", enrollment_id=e["id"])
    ok(ep, "log_outreach", enrollment_id=e["id"], channel="phone", outcome="reached")
    done = ok(ep, "enroll_patient", enrollment_id=e["id"])
    assert (done["status"], done["consent_on"]) == ("enrolled", TODAY.isoformat())


def test_a_full_program_enrolls_no_one_more(ep: Episode) -> None:
    e = fresh(ep, "Heart failure")
    ok(ep, "log_outreach", enrollment_id=e["id"], channel="phone", outcome="reached")
    refused(ep, "enroll_patient", "rule_violation", "enrollment_id", enrollment_id=e["id"])
    member = first(ep, "enrollments", program_id=e["program_id"], status="enrolled")
    ok(ep, "graduate_enrollment", enrollment_id=member["id"])
    assert ok(ep, "enroll_patient", enrollment_id=e["id"])["status"] == "enrolled"


def test_a_decline_closes_the_enrollment(ep: Episode) -> None:
    e = fresh(ep)
    ok(ep, "log_outreach", enrollment_id=e["id"], channel="phone", outcome="declined")
    assert ok(ep, "get_enrollment", enrollment_id=e["id"])["status"] == "declined"
    refused(ep, "enroll_patient", "rule_violation", "enrollment_id", enrollment_id=e["id"])


def test_gaps_close_with_evidence_or_are_excluded_once(ep: Episode) -> None:
    g = first(ep, "gaps", status="open")
    refused(ep, "close_gap", "rule_violation", "evidence", gap_id=g["id"], evidence=" ")
    done = ok(ep, "close_gap", gap_id=g["id"], evidence="Retinal exam claim 2026-02-11")
    assert (done["status"], done["closed_on"]) == ("closed", TODAY.isoformat())
    refused(ep, "exclude_gap", "rule_violation", "gap_id", gap_id=g["id"], reason="x")
    other = first(ep, "gaps", status="open")
    assert ok(ep, "exclude_gap", gap_id=other["id"], reason="Hospice")["status"] == "excluded"


def test_one_active_care_plan_per_enrollment(ep: Episode) -> None:
    without = next(
        e
        for e in every(ep, "list_enrollments", status="enrolled")
        if not every(ep, "list_care_plans", enrollment_id=e["id"])
    )
    goal = {"description": "Walk 20 minutes daily", "target_date": (TODAY + dt.timedelta(days=60)).isoformat()}
    refused(ep, "create_care_plan", "rule_violation", "goals", enrollment_id=without["id"], problem="CHF", goals=[])
    ok(ep, "create_care_plan", enrollment_id=without["id"], problem="CHF", goals=[goal])
    refused(
        ep, "create_care_plan", "conflict", "enrollment_id", enrollment_id=without["id"], problem="CHF", goals=[goal]
    )
    ident = first(ep, "enrollments", status="identified")
    refused(
        ep, "create_care_plan", "rule_violation", "enrollment_id", enrollment_id=ident["id"], problem="x", goals=[goal]
    )


def test_a_discharge_sets_contact_and_visit_due_dates(ep: Episode) -> None:
    high = first(ep, "patients", risk_tier="high")
    friday = TODAY - dt.timedelta(days=(TODAY.weekday() - 4) % 7)
    t = ok(
        ep,
        "record_transition",
        patient_id=high["id"],
        kind="discharge",
        facility="Mercy General",
        event_date=friday.isoformat(),
    )
    assert t["contact_due"] == (friday + dt.timedelta(days=4)).isoformat()
    assert t["visit_due"] == (friday + dt.timedelta(days=7)).isoformat()
    refused(ep, "complete_follow_up", "rule_violation", "transition_id", transition_id=t["id"])
    ok(ep, "contact_after_discharge", transition_id=t["id"])
    assert ok(ep, "complete_follow_up", transition_id=t["id"])["status"] == "completed"
    refused(
        ep,
        "record_transition",
        "rule_violation",
        "event_date",
        patient_id=high["id"],
        kind="admission",
        facility="Mercy General",
        event_date=(TODAY + dt.timedelta(days=2)).isoformat(),
    )
