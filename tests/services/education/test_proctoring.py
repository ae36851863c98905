"""Watchpoint Proctoring: booking windows and accommodations, ID checks, launch timing, incidents and reviews."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PROC = ServiceTools("proctoring")
WORLD = PROC.world
ok, refused, every = PROC.ok, PROC.refused, PROC.every
POP = WORLD.population
NOW = WORLD.epoch
STAFF = POP.employees[0].email


def at(**delta: int) -> str:
    return (NOW + dt.timedelta(**delta)).isoformat()


def exam(ep: Episode, status: str, level: str | None = None) -> dict[str, Any]:
    return next(e for e in every(ep, "list_exams", status=status) if level is None or e["service_level"] == level)


def session(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_sessions", status=status)[0]


def book(ep: Episode, exam_id: str, email: str, **when: int) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep, "book_session", exam_id=exam_id, student_name="Robin Vale", student_email=email, starts_at=at(**when)
    )
    return made


def test_seeded_exams_belong_to_staff_and_sessions_to_students(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email: p.name for p in POP.consumers}
    for e in every(ep, "list_exams"):
        assert e["instructor_email"] in staff
    for s in every(ep, "list_sessions"):
        assert consumers[s["student_email"]] == s["student_name"]
    statuses = {s["status"] for s in every(ep, "list_sessions")}
    assert {"scheduled", "id_verified", "id_failed", "in_progress", "completed", "cancelled", "no_show"} <= statuses


def test_a_session_fits_the_window_with_the_accommodated_time(ep: Episode) -> None:
    e = exam(ep, "published", "record_plus")
    closes = dt.datetime.fromisoformat(e["closes_at"].replace("Z", "+00:00"))
    last = closes - dt.timedelta(minutes=e["duration_minutes"])
    ok(
        ep,
        "book_session",
        exam_id=e["id"],
        student_name="Robin Vale",
        student_email="a@example.org",
        starts_at=last.isoformat(),
    )
    ok(ep, "grant_accommodation", student_email="b@example.org", approved_by=STAFF, extra_time_percent=50)
    refused(
        ep,
        "book_session",
        "rule_violation",
        "starts_at",
        exam_id=e["id"],
        student_name="Robin Vale",
        student_email="b@example.org",
        starts_at=last.isoformat(),
    )
    made = book(ep, e["id"], "b@example.org", hours=2)
    assert made["duration_minutes"] == e["duration_minutes"] * 3 // 2


def test_live_proctoring_is_booked_a_day_ahead_and_drafts_take_no_bookings(ep: Episode) -> None:
    live = exam(ep, "published", "live")
    opens = dt.datetime.fromisoformat(live["opens_at"].replace("Z", "+00:00"))
    hours = int((opens - NOW).total_seconds() // 3600) + 1
    assert hours > 24  # the seeded live exam opens in days
    book(ep, live["id"], "c@example.org", hours=hours)
    draft = exam(ep, "draft")
    refused(
        ep,
        "book_session",
        "conflict",
        "exam_id",
        exam_id=draft["id"],
        student_name="Robin Vale",
        student_email="d@example.org",
        starts_at=at(days=11),
    )


def test_one_open_reservation_per_student_and_exam(ep: Episode) -> None:
    e = exam(ep, "published", "record_plus")
    first = book(ep, e["id"], "e@example.org", hours=3)
    refused(
        ep,
        "book_session",
        "conflict",
        "student_email",
        exam_id=e["id"],
        student_name="Robin Vale",
        student_email="e@example.org",
        starts_at=at(hours=6),
    )
    ok(ep, "cancel_session", session_id=first["id"])
    assert book(ep, e["id"], "e@example.org", hours=6)["status"] == "scheduled"


def test_identity_is_verified_by_face_match_and_a_low_score_fails(ep: Episode) -> None:
    a, b = every(ep, "list_sessions", status="scheduled")[:2]
    assert ok(ep, "verify_identity", session_id=a["id"], id_type="passport", face_match_score=0.85)["status"] == (
        "id_verified"
    )
    assert ok(ep, "verify_identity", session_id=b["id"], id_type="passport", face_match_score=0.5)["status"] == (
        "id_failed"
    )
    refused(ep, "start_session", "conflict", "session_id", session_id=b["id"])
    refused(
        ep, "verify_identity", "conflict", "session_id", session_id=a["id"], id_type="passport", face_match_score=0.9
    )


def test_a_session_launches_no_earlier_than_fifteen_minutes_before_its_time(ep: Episode) -> None:
    later = every(ep, "list_sessions", status="scheduled")[-1]
    ok(ep, "verify_identity", session_id=later["id"], id_type="student_id", face_match_score=0.9)
    refused(ep, "start_session", "rule_violation", "session_id", session_id=later["id"])
    soon = session(ep, "id_verified")
    started = ok(ep, "start_session", session_id=soon["id"])
    assert started["status"] == "in_progress" and started["started_at"] is not None
    assert ok(ep, "end_session", session_id=soon["id"])["status"] == "completed"
    refused(ep, "end_session", "conflict", "session_id", session_id=soon["id"])


def test_incidents_are_flagged_only_within_a_session_that_ran(ep: Episode) -> None:
    ran = session(ep, "in_progress")
    refused(
        ep,
        "flag_incident",
        "conflict",
        "session_id",
        session_id=session(ep, "scheduled")["id"],
        kind="left_frame",
        severity="low",
        at_minute=1,
    )
    refused(
        ep,
        "flag_incident",
        "rule_violation",
        "at_minute",
        session_id=ran["id"],
        kind="left_frame",
        severity="low",
        at_minute=ran["duration_minutes"] + 1,
    )
    inc = ok(ep, "flag_incident", session_id=ran["id"], kind="voices_detected", severity="medium", at_minute=5)
    assert inc["status"] == "flagged"
    assert ok(ep, "session_report", session_id=ran["id"])["integrity"] == "review_pending"


def test_a_confirmed_high_severity_incident_makes_a_violation(ep: Episode) -> None:
    inc = every(ep, "list_incidents", status="flagged", severity="high")[0]
    refused(
        ep,
        "review_incident",
        "rule_violation",
        "reviewed_by",
        incident_id=inc["id"],
        confirmed=False,
        reviewed_by="student@example.org",
    )
    refused(ep, "review_incident", "rule_violation", "notes", incident_id=inc["id"], confirmed=True, reviewed_by=STAFF)
    ok(ep, "review_incident", incident_id=inc["id"], confirmed=True, reviewed_by=STAFF, notes="Phone in hand at 20:00.")
    report = ok(ep, "session_report", session_id=inc["session_id"])
    assert (report["integrity"], report["confirmed"], report["pending_review"]) == ("violation", 1, 0)
    refused(ep, "review_incident", "conflict", "incident_id", incident_id=inc["id"], confirmed=False, reviewed_by=STAFF)


def test_exams_need_a_window_that_holds_them_and_accommodations_grant_something(ep: Episode) -> None:
    base = {"course_code": "CS101", "title": "Quiz 3", "instructor_email": STAFF, "duration_minutes": 120}
    refused(
        ep, "create_exam", "rule_violation", "closes_at", opens_at=at(days=2), closes_at=at(days=2, hours=1), **base
    )
    refused(
        ep,
        "create_exam",
        "rule_violation",
        "instructor_email",
        opens_at=at(days=2),
        closes_at=at(days=3),
        **(base | {"instructor_email": "x@example.org"}),
    )
    made = ok(ep, "create_exam", opens_at=at(days=2), closes_at=at(days=3), **base)
    assert made["status"] == "draft"
    assert ok(ep, "publish_exam", exam_id=made["id"])["status"] == "published"
    refused(
        ep,
        "grant_accommodation",
        "rule_violation",
        "extra_time_percent",
        student_email="f@example.org",
        approved_by=STAFF,
    )
