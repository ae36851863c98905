"""Kinship Mentoring: enrollment, matching with capacity and reporting lines, meetings, completion, feedback."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.org import org_chart
from tests.services.helpers import ServiceTools

MENT = ServiceTools("mentoring")
WORLD = MENT.world
ok, refused, every, first = MENT.ok, MENT.refused, MENT.every, MENT.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
CHART = org_chart(POP.employees)


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def enrolling(ep: Episode) -> dict[str, Any]:
    return first(ep, "cohorts", status="enrolling")


def free_employee(ep: Episode, cohort_id: str, skip: int = 0) -> str:
    taken = {p["email"] for p in every(ep, "list_participants", cohort_id=cohort_id)}
    return [p.email for p in POP.employees if p.email not in taken][skip]


def test_seeded_participants_are_staff_and_matches_respect_capacity(ep: Episode) -> None:
    for p in every(ep, "list_participants"):
        assert p["email"] in STAFF
    for mentor in every(ep, "list_participants", role="mentor"):
        live = [m for m in every(ep, "list_matches", mentor_id=mentor["id"]) if m["status"] in ("proposed", "active")]
        assert len(live) <= mentor["capacity"]
    for m in every(ep, "list_matches", status="completed"):
        assert len(every(ep, "list_meetings", match_id=m["id"])) >= 4
    for g in every(ep, "list_meetings"):
        assert g["held_on"] <= day(0)


def test_enrollment_needs_an_enrolling_cohort_an_employee_and_one_role(ep: Episode) -> None:
    cohort = enrolling(ep)
    email = free_employee(ep, cohort["id"])
    closed = first(ep, "cohorts", status="closed")
    refused(
        ep,
        "enroll",
        "rule_violation",
        "cohort_id",
        cohort_id=closed["id"],
        email=email,
        role="mentee",
        skills=["sales"],
    )
    refused(
        ep, "enroll", "rule_violation", "email", cohort_id=cohort["id"], email="x@y.io", role="mentee", skills=["sales"]
    )
    refused(ep, "enroll", "rule_violation", "skills", cohort_id=cohort["id"], email=email, role="mentee", skills=[])
    made = ok(ep, "enroll", cohort_id=cohort["id"], email=email, role="mentee", skills=["sales"], capacity=3)
    person = next(p for p in POP.employees if p.email == email)
    assert (made["name"], made["status"], made["capacity"]) == (person.name, "applied", 1)
    refused(ep, "enroll", "conflict", "email", cohort_id=cohort["id"], email=email, role="mentor", skills=["sales"])


def test_matching_needs_approved_participants_and_mentor_capacity(ep: Episode) -> None:
    cohort = enrolling(ep)
    mentor = ok(
        ep,
        "enroll",
        cohort_id=cohort["id"],
        email=free_employee(ep, cohort["id"]),
        role="mentor",
        skills=["sales", "finance"],
        capacity=1,
    )
    a = ok(
        ep,
        "enroll",
        cohort_id=cohort["id"],
        email=free_employee(ep, cohort["id"], 1),
        role="mentee",
        skills=["sales", "design"],
    )
    b = ok(
        ep,
        "enroll",
        cohort_id=cohort["id"],
        email=free_employee(ep, cohort["id"], 2),
        role="mentee",
        skills=["finance"],
    )
    refused(ep, "propose_match", "rule_violation", "mentor_id", mentor_id=mentor["id"], mentee_id=a["id"])
    for p in (mentor, a, b):
        ok(ep, "approve_participant", participant_id=p["id"])
    refused(ep, "propose_match", "rule_violation", "mentor_id", mentor_id=a["id"], mentee_id=b["id"])
    match = ok(ep, "propose_match", mentor_id=mentor["id"], mentee_id=a["id"])
    assert (match["status"], match["score"]) == ("proposed", 50.0)
    refused(ep, "propose_match", "conflict", "mentee_id", mentor_id=mentor["id"], mentee_id=a["id"])
    refused(ep, "propose_match", "rule_violation", "mentor_id", mentor_id=mentor["id"], mentee_id=b["id"])
    assert all(s["mentor_id"] != mentor["id"] for s in ok(ep, "suggest_mentors", mentee_id=b["id"]))


def test_a_manager_never_mentors_their_own_report(ep: Episode) -> None:
    cohort = enrolling(ep)
    taken = {p["email"] for p in every(ep, "list_participants", cohort_id=cohort["id"])}
    pair = next(
        (p, boss)
        for p in POP.employees
        if (boss := CHART.manager_of(p)) is not None and p.email not in taken and boss.email not in taken
    )
    report, boss = pair
    mentor = ok(
        ep, "enroll", cohort_id=cohort["id"], email=boss.email, role="mentor", skills=["leadership"], capacity=3
    )
    mentee = ok(ep, "enroll", cohort_id=cohort["id"], email=report.email, role="mentee", skills=["leadership"])
    ok(ep, "approve_participant", participant_id=mentor["id"])
    ok(ep, "approve_participant", participant_id=mentee["id"])
    msg = refused(ep, "propose_match", "rule_violation", "mentor_id", mentor_id=mentor["id"], mentee_id=mentee["id"])
    assert "report" in msg


def test_meetings_are_logged_on_active_matches_in_the_past(ep: Episode) -> None:
    active = next(m for m in every(ep, "list_matches", status="active") if m["cohort_id"] == "coh_000002")
    refused(ep, "log_meeting", "rule_violation", "held_on", match_id=active["id"], held_on=day(1))
    refused(ep, "log_meeting", "rule_violation", "held_on", match_id=active["id"], held_on=day(-400))
    made = ok(ep, "log_meeting", match_id=active["id"], held_on=day(0), duration_minutes=30, topics="Promotion case")
    assert made["duration_minutes"] == 30
    proposed = every(ep, "list_matches", status="proposed")[0]
    refused(ep, "log_meeting", "rule_violation", "match_id", match_id=proposed["id"], held_on=day(0))


def test_a_match_completes_only_after_the_minimum_meetings(ep: Episode) -> None:
    short = next(
        m for m in every(ep, "list_matches", status="active") if len(every(ep, "list_meetings", match_id=m["id"])) < 4
    )
    held = len(every(ep, "list_meetings", match_id=short["id"]))
    refused(ep, "complete_match", "rule_violation", "match_id", match_id=short["id"])
    for _ in range(4 - held):
        ok(ep, "log_meeting", match_id=short["id"], held_on=day(0))
    assert ok(ep, "complete_match", match_id=short["id"])["status"] == "completed"
    refused(ep, "complete_match", "rule_violation", "match_id", match_id=short["id"])


def test_ending_early_abandons_open_goals_and_needs_a_reason(ep: Episode) -> None:
    active = every(ep, "list_matches", status="active")[0]
    goal = ok(ep, "create_goal", match_id=active["id"], title="Lead a planning meeting", due_date=day(60))
    assert ok(ep, "update_goal", goal_id=goal["id"], progress=50)["status"] == "in_progress"
    refused(ep, "update_goal", "rule_violation", "progress", goal_id=goal["id"], progress=10)
    refused(ep, "end_match", "rule_violation", "reason", match_id=active["id"], reason="")
    ended = ok(ep, "end_match", match_id=active["id"], reason="Mentee moved teams")
    assert (ended["status"], ended["end_reason"]) == ("ended", "Mentee moved teams")
    assert {g["status"] for g in every(ep, "list_goals", match_id=active["id"])} <= {"achieved", "abandoned"}
    refused(ep, "create_goal", "rule_violation", "match_id", match_id=active["id"], title="Too late")


def test_feedback_comes_once_from_each_side_of_a_finished_match(ep: Episode) -> None:
    done = every(ep, "list_matches", status="completed")[-1]
    refused(
        ep, "submit_feedback", "rule_violation", "author_email", match_id=done["id"], author_email="x@y.io", rating=4
    )
    ok(ep, "submit_feedback", match_id=done["id"], author_email=done["mentor_email"], rating=5, comment="Rewarding")
    refused(
        ep,
        "submit_feedback",
        "conflict",
        "author_email",
        match_id=done["id"],
        author_email=done["mentor_email"],
        rating=3,
    )
    active = every(ep, "list_matches", status="active")[0]
    refused(
        ep,
        "submit_feedback",
        "rule_violation",
        "match_id",
        match_id=active["id"],
        author_email=active["mentee_email"],
        rating=4,
    )


def test_cohorts_start_with_an_active_match_and_close_when_no_match_is_live(ep: Episode) -> None:
    running = every(ep, "list_cohorts", status="running")
    busy = next(c for c in running if ok(ep, "cohort_report", cohort_id=c["id"])["matches_by_status"]["active"])
    refused(ep, "close_cohort", "rule_violation", "cohort_id", cohort_id=busy["id"])
    quiet = next(c for c in running if c["id"] != busy["id"])
    assert ok(ep, "close_cohort", cohort_id=quiet["id"])["status"] == "closed"
    made = ok(ep, "create_cohort", program_id=busy["program_id"], name="Pilot", start_date=day(10), end_date=day(100))
    refused(ep, "start_cohort", "rule_violation", "cohort_id", cohort_id=made["id"])
    refused(
        ep,
        "create_cohort",
        "rule_violation",
        "end_date",
        program_id=busy["program_id"],
        name="Bad",
        start_date=day(10),
        end_date=day(5),
    )
    assert ok(ep, "start_cohort", cohort_id=enrolling(ep)["id"])["status"] == "running"


def test_withdrawing_ends_live_matches_and_the_report_counts_them(ep: Episode) -> None:
    cohort = first(ep, "cohorts", status="running")
    before = ok(ep, "cohort_report", cohort_id=cohort["id"])
    active = every(ep, "list_matches", cohort_id=cohort["id"], status="active")[0]
    ok(ep, "withdraw_participant", participant_id=active["mentee_id"])
    assert ok(ep, "get_match", match_id=active["id"])["status"] == "ended"
    after = ok(ep, "cohort_report", cohort_id=cohort["id"])
    assert after["matches_by_status"]["ended"] == before["matches_by_status"]["ended"] + 1
    assert after["mentees"] == before["mentees"] - 1
