"""Quadrant Learn: who may submit what and when, the late and missing policies, weighted grades."""

from __future__ import annotations

import math
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LMS = ServiceTools("lms")
WORLD = LMS.world
ok, refused, every = LMS.ok, LMS.refused, LMS.every
POP = WORLD.population
URL = "https://notebooks.example.com/answer"


def course(ep: Episode, code: str) -> dict[str, Any]:
    return dict(every(ep, "list_courses", course_code=code)[0])


def assignment(ep: Episode, code: str, name: str) -> dict[str, Any]:
    c = course(ep, code)
    return next(a for a in every(ep, "list_assignments", course_id=c["id"]) if a["name"] == name)


def teacher(ep: Episode, course_id: str) -> dict[str, Any]:
    e = every(ep, "list_enrollments", course_id=course_id, type="teacher")[0]
    return dict(ok(ep, "get_user", user_id=e["user_id"]))


def student_without(ep: Episode, assignment_id: str, course_id: str) -> str:
    done = {s["user_id"] for s in every(ep, "list_submissions", assignment_id=assignment_id)}
    return next(
        e["user_id"]
        for e in every(ep, "list_enrollments", course_id=course_id, type="student", state="active")
        if e["user_id"] not in done
    )


def late_score(c: dict[str, Any], points: float, raw: float, seconds: int) -> float:
    days = math.ceil(seconds / 86400)
    deducted = points * c["late_deduction_percent"] / 100 * days
    return round(max(raw - deducted, min(raw, points * c["late_minimum_percent"] / 100)), 2)


# -- the world ------------------------------------------------------------------------------


def test_teachers_are_staff_and_students_are_world_people() -> None:
    ep = Episode(WORLD)
    staff = {p.email for p in POP.employees}
    people = {p.email: p.name for p in POP.people}
    users = {u["id"]: u for u in every(ep, "list_users")}
    assert all(people[u["email"]] == u["name"] for u in users.values())
    for e in every(ep, "list_enrollments"):
        if e["type"] in ("teacher", "ta"):
            assert users[e["user_id"]]["email"] in staff


def test_seeded_late_grades_follow_the_course_policy() -> None:
    ep = Episode(WORLD)
    courses = {c["id"]: c for c in every(ep, "list_courses")}
    work = {a["id"]: a for a in every(ep, "list_assignments")}
    late = every(ep, "list_submissions", late=True, workflow_state="graded")
    assert late
    for sub in late:
        a = work[sub["assignment_id"]]
        expected = late_score(courses[a["course_id"]], a["points_possible"], sub["raw_score"], sub["seconds_late"])
        assert sub["score"] == expected
        assert sub["points_deducted"] == round(sub["raw_score"] - expected, 2)


# -- submitting -----------------------------------------------------------------------------


def test_attempts_are_limited(ep: Episode) -> None:
    quiz = assignment(ep, "CS101", "Quiz 2")
    student = student_without(ep, quiz["id"], quiz["course_id"])
    first = ok(ep, "submit_assignment", assignment_id=quiz["id"], user_id=student, body="Answer A")
    assert (first["attempt"], first["late"], first["workflow_state"]) == (1, False, "submitted")
    assert ok(ep, "submit_assignment", assignment_id=quiz["id"], user_id=student, body="Answer B")["attempt"] == 2
    refused(
        ep, "submit_assignment", "rule_violation", "assignment_id", assignment_id=quiz["id"], user_id=student, body="C"
    )


def test_a_late_submission_loses_points_per_day_down_to_the_floor(ep: Episode) -> None:
    c = course(ep, "CS101")
    hw = assignment(ep, "CS101", "Week 6 exercises")
    student = student_without(ep, hw["id"], c["id"])
    refused(ep, "submit_assignment", "rule_violation", "url", assignment_id=hw["id"], user_id=student, body="text")
    sub = ok(ep, "submit_assignment", assignment_id=hw["id"], user_id=student, url=URL)
    assert sub["late"] and sub["seconds_late"] > 2 * 86400
    graded = ok(ep, "grade_submission", submission_id=sub["id"], score=8.0, grader_email=teacher(ep, c["id"])["email"])
    expected = late_score(c, hw["points_possible"], 8.0, sub["seconds_late"])
    assert (graded["raw_score"], graded["score"]) == (8.0, expected)
    assert expected == hw["points_possible"] * c["late_minimum_percent"] / 100  # 3 days late hits the floor
    refused(
        ep, "submit_assignment", "rule_violation", "assignment_id", assignment_id=hw["id"], user_id=student, url=URL
    )


def test_no_submission_after_the_lock_date_or_from_outsiders(ep: Episode) -> None:
    c = course(ep, "CS101")
    locked = assignment(ep, "CS101", "Week 1 exercises")
    student = every(ep, "list_enrollments", course_id=c["id"], type="student", state="active")[0]["user_id"]
    refused(
        ep,
        "submit_assignment",
        "rule_violation",
        "assignment_id",
        assignment_id=locked["id"],
        user_id=student,
        body="x",
    )
    quiz = assignment(ep, "CS101", "Quiz 2")
    dropped = every(ep, "list_enrollments", course_id=c["id"], type="student", state="inactive")[0]["user_id"]
    refused(ep, "submit_assignment", "rule_violation", "user_id", assignment_id=quiz["id"], user_id=dropped, body="x")
    paper = assignment(ep, "CS101", "In-class presentation")
    refused(
        ep, "submit_assignment", "rule_violation", "assignment_id", assignment_id=paper["id"], user_id=student, body="x"
    )


# -- grading --------------------------------------------------------------------------------


def test_only_the_courses_staff_grades_within_the_points(ep: Episode) -> None:
    sub = every(ep, "list_submissions", workflow_state="submitted", late=False)[0]
    work = next(a for a in every(ep, "list_assignments") if a["id"] == sub["assignment_id"])
    outsider = next(u for u in every(ep, "list_users") if u["email"] in {p.email for p in POP.consumers})
    refused(
        ep,
        "grade_submission",
        "rule_violation",
        "grader_email",
        submission_id=sub["id"],
        score=1.0,
        grader_email=outsider["email"],
    )
    grader = teacher(ep, work["course_id"])["email"]
    refused(
        ep,
        "grade_submission",
        "rule_violation",
        "score",
        submission_id=sub["id"],
        score=work["points_possible"] + 1,
        grader_email=grader,
    )
    done = ok(ep, "grade_submission", submission_id=sub["id"], score=work["points_possible"], grader_email=grader)
    assert (done["score"], done["points_deducted"], done["workflow_state"]) == (work["points_possible"], 0, "graded")
    refused(
        ep,
        "update_assignment",
        "rule_violation",
        "points_possible",
        assignment_id=work["id"],
        points_possible=work["points_possible"] + 5,
    )


def test_the_missing_policy_scores_unsubmitted_past_due_work(ep: Episode) -> None:
    c = course(ep, "DA201")
    quiz = assignment(ep, "DA201", "Quiz 1")
    active = {e["user_id"] for e in every(ep, "list_enrollments", course_id=c["id"], type="student", state="active")}
    had = {s["user_id"] for s in every(ep, "list_submissions", assignment_id=quiz["id"])}
    marked = ok(ep, "apply_missing_policy", assignment_id=quiz["id"])
    assert {s["user_id"] for s in marked} == active - had and marked
    expected = round(quiz["points_possible"] * (100 - c["missing_deduction_percent"]) / 100, 2)
    assert all(s["missing"] and s["score"] == expected for s in marked)
    assert ok(ep, "apply_missing_policy", assignment_id=quiz["id"]) == []
    future = assignment(ep, "DA201", "Quiz 2")
    refused(ep, "apply_missing_policy", "rule_violation", "assignment_id", assignment_id=future["id"])


def test_course_grades_weight_the_groups(ep: Episode) -> None:
    c = course(ep, "MK110")
    grades = ok(ep, "course_grades", course_id=c["id"])
    groups = {g["id"]: g["weight"] for g in every(ep, "list_assignment_groups", course_id=c["id"])}
    work = {a["id"]: a for a in every(ep, "list_assignments", course_id=c["id"])}
    row = next(r for r in grades["students"] if r["graded"] > 1)
    per: dict[str, list[float]] = {}
    for sub in every(ep, "list_submissions", user_id=row["user_id"], workflow_state="graded"):
        a = work.get(sub["assignment_id"])
        if a is None:
            continue
        earned, possible = per.get(a["group_id"], [0.0, 0.0])
        per[a["group_id"]] = [earned + sub["score"], possible + a["points_possible"]]
    weight = sum(groups[g] for g in per)
    expected = round(100 * sum(groups[g] * e / p for g, (e, p) in per.items()) / weight, 2)
    assert row["current_score"] == expected
    assert row["letter_grade"] == next(
        (letter for cut, letter in ((90, "A"), (80, "B"), (70, "C"), (60, "D")) if expected >= cut), "F"
    )


# -- enrollment and course rules ------------------------------------------------------------


def test_sections_have_a_capacity_and_users_enroll_once(ep: Episode) -> None:
    c = course(ep, "DA201")
    sec = every(ep, "list_sections", course_id=c["id"])[0]
    inside = {e["user_id"] for e in every(ep, "list_enrollments", course_id=c["id"])}
    outsiders = [u for u in every(ep, "list_users") if u["id"] not in inside]
    active = len(every(ep, "list_enrollments", section_id=sec["id"], type="student", state="active"))
    for u in outsiders[: sec["capacity"] - active]:
        ok(ep, "enroll_user", section_id=sec["id"], user_id=u["id"])
    late = outsiders[sec["capacity"] - active]
    refused(ep, "enroll_user", "rule_violation", "section_id", section_id=sec["id"], user_id=late["id"])
    refused(ep, "enroll_user", "conflict", "user_id", section_id=sec["id"], user_id=outsiders[0]["id"])
    dropped = every(ep, "list_enrollments", course_id=c["id"], state="inactive")[0]
    other = every(ep, "list_sections", course_id=c["id"])[-1]
    back = ok(ep, "enroll_user", section_id=other["id"], user_id=dropped["user_id"])
    assert (back["id"], back["state"]) == (dropped["id"], "active")


def test_a_concluded_course_is_read_only(ep: Episode) -> None:
    c = course(ep, "PM150")
    sec = every(ep, "list_sections", course_id=c["id"])[0]
    user = every(ep, "list_users")[-1]
    refused(ep, "enroll_user", "rule_violation", "section_id", section_id=sec["id"], user_id=user["id"])
    refused(ep, "update_course", "rule_violation", "course_id", course_id=c["id"], name="Renamed")
    work = every(ep, "list_assignments", course_id=c["id"])[0]
    sub = every(ep, "list_submissions", assignment_id=work["id"])[0]
    refused(
        ep,
        "grade_submission",
        "rule_violation",
        "submission_id",
        submission_id=sub["id"],
        score=1.0,
        grader_email=teacher(ep, c["id"])["email"],
    )


def test_group_weights_and_publishing_rules(ep: Episode) -> None:
    c = course(ep, "ML301")
    refused(ep, "create_assignment_group", "rule_violation", "weight", course_id=c["id"], name="Labs", weight=45.0)
    ok(ep, "create_assignment_group", course_id=c["id"], name="Labs", weight=40.0)
    new = ok(
        ep, "create_course", name="Statistics", course_code="ST100", start_date="2026-04-01", end_date="2026-07-01"
    )
    refused(ep, "publish_course", "rule_violation", "course_id", course_id=new["id"])
    refused(
        ep,
        "create_course",
        "conflict",
        "course_code",
        name="Python again",
        course_code="CS101",
        start_date="2026-04-01",
        end_date="2026-07-01",
    )
    assert ok(ep, "publish_course", course_id=c["id"])["workflow_state"] == "available"
