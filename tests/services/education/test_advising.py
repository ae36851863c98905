"""Compass Advising: caseloads, appointment booking and summaries, early alerts and risk, cases, success plans."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ADV = ServiceTools("advising")
WORLD = ADV.world
ok, refused, every = ADV.ok, ADV.refused, ADV.every
POP = WORLD.population
NOW = WORLD.epoch
INSTRUCTOR = POP.employees[0].email


def at(**delta: int) -> str:
    return (NOW + dt.timedelta(**delta)).isoformat()


def advised(ep: Episode) -> dict[str, Any]:
    return next(s for s in every(ep, "list_students") if s["advisor_id"])


def test_seeded_advisors_are_staff_and_students_are_people_of_the_world(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email: p.name for p in POP.consumers}
    for a in every(ep, "list_advisors"):
        assert a["email"] in staff
        assert len(every(ep, "list_students", advisor_id=a["id"])) <= a["caseload_cap"]
    for s in every(ep, "list_students"):
        assert consumers[s["email"]] == s["name"]
    for a in every(ep, "list_alerts"):
        assert a["raised_by"] in staff


def test_an_advisor_takes_students_only_when_accepting_and_with_room(ep: Episode) -> None:
    free = next(s for s in every(ep, "list_students") if s["advisor_id"] is None)
    advs = every(ep, "list_advisors")
    closed = next(a for a in advs if not a["accepting"])
    full = next(
        a for a in advs if a["accepting"] and len(every(ep, "list_students", advisor_id=a["id"])) == a["caseload_cap"]
    )
    refused(ep, "assign_advisor", "rule_violation", "advisor_id", student_id=free["id"], advisor_id=closed["id"])
    refused(ep, "assign_advisor", "rule_violation", "advisor_id", student_id=free["id"], advisor_id=full["id"])
    ok(ep, "update_advisor", advisor_id=full["id"], caseload_cap=full["caseload_cap"] + 1)
    assert ok(ep, "assign_advisor", student_id=free["id"], advisor_id=full["id"])["advisor_id"] == full["id"]
    refused(ep, "assign_advisor", "conflict", "advisor_id", student_id=free["id"], advisor_id=full["id"])


def test_appointments_are_in_the_future_and_never_overlap(ep: Episode) -> None:
    stu = advised(ep)
    base = {"student_id": stu["id"], "advisor_id": stu["advisor_id"], "kind": "career"}
    refused(ep, "schedule_appointment", "rule_violation", "starts_at", starts_at=at(hours=-2), **base)
    ok(ep, "schedule_appointment", starts_at=at(days=8), **base)
    other = next(s for s in every(ep, "list_students", advisor_id=stu["advisor_id"]) if s["id"] != stu["id"])
    refused(
        ep,
        "schedule_appointment",
        "conflict",
        "starts_at",
        student_id=other["id"],
        advisor_id=stu["advisor_id"],
        kind="career",
        starts_at=at(days=8, minutes=15),
    )
    assert (
        ok(
            ep,
            "schedule_appointment",
            starts_at=at(days=8, minutes=30),
            student_id=other["id"],
            advisor_id=stu["advisor_id"],
            kind="career",
        )["status"]
        == "scheduled"
    )


def test_completing_an_appointment_files_its_summary_as_a_note(ep: Episode) -> None:
    started = next(a for a in every(ep, "list_appointments", status="scheduled") if a["starts_at"] <= at())
    future = next(a for a in every(ep, "list_appointments", status="scheduled") if a["starts_at"] > at())
    refused(ep, "complete_appointment", "rule_violation", "appointment_id", appointment_id=future["id"], summary="x")
    refused(ep, "complete_appointment", "rule_violation", "summary", appointment_id=started["id"], summary=" ")
    ok(ep, "complete_appointment", appointment_id=started["id"], summary="Chose a minor in statistics.")
    notes = every(ep, "list_notes", student_id=started["student_id"])
    assert any(n["appointment_id"] == started["id"] and "minor" in n["body"] for n in notes)
    refused(ep, "complete_appointment", "conflict", "appointment_id", appointment_id=started["id"], summary="Again")


def test_a_second_open_alert_makes_the_student_high_risk_and_duplicates_are_refused(ep: Episode) -> None:
    stu = next(s for s in every(ep, "list_students", risk="low") if not every(ep, "list_alerts", student_id=s["id"]))
    base = {"student_id": stu["id"], "raised_by": INSTRUCTOR, "course_code": "CS101"}
    refused(
        ep, "raise_alert", "rule_violation", "raised_by", **(base | {"raised_by": "x@example.org"}), reason="attendance"
    )
    ok(ep, "raise_alert", reason="attendance", **base)
    assert ok(ep, "get_student", student_id=stu["id"])["risk"] == "low"
    refused(ep, "raise_alert", "conflict", "reason", reason="attendance", **base)
    ok(ep, "raise_alert", reason="low_grade", **base)
    assert ok(ep, "get_student", student_id=stu["id"])["risk"] == "high"


def test_a_case_opens_from_an_open_alert_for_the_students_advisor(ep: Episode) -> None:
    alert = every(ep, "list_alerts", status="open")[0]
    case = ok(ep, "open_case", alert_id=alert["id"])
    stu = ok(ep, "get_student", student_id=alert["student_id"])
    assert (case["owner_id"], case["status"]) == (stu["advisor_id"], "open")
    refused(ep, "open_case", "conflict", "alert_id", alert_id=alert["id"])
    free = next(s for s in every(ep, "list_students") if s["advisor_id"] is None)
    orphan = ok(ep, "raise_alert", student_id=free["id"], raised_by=INSTRUCTOR, course_code="DA201", reason="wellbeing")
    refused(ep, "open_case", "rule_violation", "alert_id", alert_id=orphan["id"])


def test_a_case_closes_only_after_a_note_and_closes_its_alert(ep: Episode) -> None:
    bare = next(c for c in every(ep, "list_cases", status="open") if not every(ep, "list_notes", case_id=c["id"]))
    refused(ep, "close_case", "rule_violation", "case_id", case_id=bare["id"], outcome="resolved")
    other = next(c for c in every(ep, "list_cases") if c["student_id"] != bare["student_id"])
    refused(
        ep,
        "add_note",
        "rule_violation",
        "case_id",
        student_id=bare["student_id"],
        advisor_id=bare["owner_id"],
        body="Spoke with student.",
        case_id=other["id"],
    )
    ok(
        ep,
        "add_note",
        student_id=bare["student_id"],
        advisor_id=bare["owner_id"],
        body="Spoke with student.",
        case_id=bare["id"],
    )
    assert ok(ep, "close_case", case_id=bare["id"], outcome="referred")["outcome"] == "referred"
    refused(ep, "close_case", "conflict", "case_id", case_id=bare["id"], outcome="resolved")


def test_a_success_plan_completes_with_its_last_step(ep: Episode) -> None:
    plan = every(ep, "list_success_plans", status="active")[0]
    refused(
        ep,
        "create_success_plan",
        "conflict",
        "student_id",
        student_id=plan["student_id"],
        title="Another",
        steps=["One"],
    )
    refused(ep, "complete_step", "conflict", "step", plan_id=plan["id"], step=1)
    refused(ep, "complete_step", "rule_violation", "step", plan_id=plan["id"], step=3)
    assert ok(ep, "complete_step", plan_id=plan["id"], step=2)["status"] == "completed"
    stu = advised(ep)
    refused(ep, "create_success_plan", "rule_violation", "steps", student_id=stu["id"], title="Plan", steps=["A", "A"])
