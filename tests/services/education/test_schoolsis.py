"""Northfield SIS: schedules without clashes, attendance and guardian excuses, teacher grading, report cards."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SIS = ServiceTools("schoolsis")
WORLD = SIS.world
ok, refused, every = SIS.ok, SIS.refused, SIS.every
POP = WORLD.population


def term(ep: Episode, n: int) -> dict[str, Any]:
    return dict(every(ep, "list_terms")[n - 1])


def live_sections(ep: Episode, student_id: str, term_id: str) -> list[dict[str, Any]]:
    sections = {x["id"]: x for x in every(ep, "list_sections", term_id=term_id)}
    return [
        sections[e["section_id"]]
        for e in every(ep, "list_section_enrollments", student_id=student_id)
        if e["section_id"] in sections and e["date_left"] is None
    ]


def student_with_free_period(ep: Episode) -> tuple[dict[str, Any], dict[str, Any]]:
    s2 = term(ep, 2)
    for st in every(ep, "list_students", enroll_status="active"):
        busy = {x["period"] for x in live_sections(ep, st["id"], s2["id"])}
        for sec in every(ep, "list_sections", term_id=s2["id"]):
            if sec["period"] not in busy and sec["grade_min"] <= st["grade_level"] <= sec["grade_max"]:
                return st, sec
    raise AssertionError("no free period")


def teacher_of(ep: Episode, section: dict[str, Any]) -> str:
    return next(t["email"] for t in every(ep, "list_teachers") if t["id"] == section["teacher_id"])


# -- the world ------------------------------------------------------------------------------


def test_guardians_are_consumers_and_students_live_with_them() -> None:
    ep = Episode(WORLD)
    consumers = {p.email: p for p in POP.consumers}
    for st in every(ep, "list_students"):
        first = every(ep, "list_guardians", student_id=st["id"])[0]
        parent = consumers[first["email"]]
        assert (first["name"], first["custodial"]) == (parent.name, True)
        assert st["last_name"] == parent.last_name
        assert st["home_address"] == parent.address.model_dump()


def test_first_semester_report_cards_average_the_final_grades() -> None:
    ep = Episode(WORLD)
    s1 = term(ep, 1)
    points = {"A": 4, "B": 3, "C": 2, "D": 1, "F": 0}
    for card in every(ep, "list_report_cards", term_id=s1["id"]):
        grades = every(ep, "list_stored_grades", student_id=card["student_id"], term_id=s1["id"])
        assert all(g["final"] for g in grades) and card["sections"] == len(grades)
        assert card["gpa"] == round(sum(points[g["letter"]] for g in grades) / len(grades), 2)


# -- scheduling -----------------------------------------------------------------------------


def test_enrolling_checks_grade_level_and_period(ep: Episode) -> None:
    st, free = student_with_free_period(ep)
    s2 = term(ep, 2)
    taken = live_sections(ep, st["id"], s2["id"])[0]
    clashes = [
        x
        for x in every(ep, "list_sections", term_id=s2["id"], period=taken["period"])
        if x["id"] != taken["id"] and x["grade_min"] <= st["grade_level"] <= x["grade_max"]
    ]
    for clash in clashes[:1]:
        refused(ep, "enroll_in_section", "conflict", "section_id", student_id=st["id"], section_id=clash["id"])
    refused(ep, "enroll_in_section", "conflict", "section_id", student_id=st["id"], section_id=taken["id"])
    wrong = next(
        x
        for x in every(ep, "list_sections", term_id=s2["id"])
        if not x["grade_min"] <= st["grade_level"] <= x["grade_max"]
    )
    refused(ep, "enroll_in_section", "rule_violation", "section_id", student_id=st["id"], section_id=wrong["id"])
    joined = ok(ep, "enroll_in_section", student_id=st["id"], section_id=free["id"])
    assert joined["date_enrolled"] == "2026-03-02"


def test_sections_fill_up_and_rooms_and_teachers_are_not_double_booked(ep: Episode) -> None:
    s2 = term(ep, 2)
    busy = every(ep, "list_sections", term_id=s2["id"], period=1)[0]
    args = dict(course_name="Debate Club", term_id=s2["id"], room="999", capacity=1)
    refused(ep, "create_section", "conflict", "period", teacher_id=busy["teacher_id"], period=1, **args)
    other_teacher = next(
        t
        for t in every(ep, "list_teachers")
        if t["id"] != busy["teacher_id"]
        and not every(ep, "list_sections", term_id=s2["id"], period=1, teacher_id=t["id"])
    )
    refused(
        ep,
        "create_section",
        "conflict",
        "room",
        teacher_id=other_teacher["id"],
        period=1,
        **{**args, "room": busy["room"]},
    )
    tiny = ok(ep, "create_section", teacher_id=other_teacher["id"], period=7, **args)
    first, second = every(ep, "list_students", enroll_status="active")[:2]
    ok(ep, "enroll_in_section", student_id=first["id"], section_id=tiny["id"])
    refused(ep, "enroll_in_section", "rule_violation", "section_id", student_id=second["id"], section_id=tiny["id"])


def test_dropping_a_section_but_not_a_graded_one(ep: Episode) -> None:
    st = every(ep, "list_students", enroll_status="active")[0]
    current = live_sections(ep, st["id"], term(ep, 2)["id"])[0]
    left = ok(ep, "drop_section", student_id=st["id"], section_id=current["id"])
    assert left["date_left"] == "2026-03-02"
    refused(ep, "drop_section", "rule_violation", "section_id", student_id=st["id"], section_id=current["id"])
    past = live_sections(ep, st["id"], term(ep, 1)["id"])[0]
    refused(ep, "drop_section", "rule_violation", "section_id", student_id=st["id"], section_id=past["id"])


def test_a_transfer_ends_the_students_classes(ep: Episode) -> None:
    st = next(x for x in every(ep, "list_students", enroll_status="active") if x["grade_level"] > 9)
    refused(
        ep, "update_student", "rule_violation", "grade_level", student_id=st["id"], grade_level=st["grade_level"] - 1
    )
    ok(ep, "update_student", student_id=st["id"], enroll_status="transferred")
    assert live_sections(ep, st["id"], term(ep, 2)["id"]) == []
    refused(
        ep, "record_attendance", "rule_violation", "student_id", student_id=st["id"], date="2026-03-02", code="present"
    )


# -- attendance -----------------------------------------------------------------------------


def test_attendance_is_taken_for_school_days_of_the_term(ep: Episode) -> None:
    st = every(ep, "list_students", enroll_status="active")[0]
    for day in ("2026-02-28", "2026-03-03", "2026-01-12"):
        refused(ep, "record_attendance", "rule_violation", "date", student_id=st["id"], date=day, code="present")
    rec = ok(ep, "record_attendance", student_id=st["id"], date="2026-03-02", code="tardy", comment="Bus late")
    again = ok(ep, "record_attendance", student_id=st["id"], date="2026-03-02", code="present")
    assert again["id"] == rec["id"] and again["code"] == "present"
    excused = every(ep, "list_attendance", code="absent_excused")[0]
    refused(
        ep,
        "record_attendance",
        "rule_violation",
        "code",
        student_id=excused["student_id"],
        date=excused["date"],
        code="present",
    )


def test_only_a_custodial_guardian_excuses_a_recent_absence(ep: Episode) -> None:
    unexcused = every(ep, "list_attendance", code="absent_unexcused")
    absence = next(
        (
            a
            for a in unexcused
            if not all(g["custodial"] for g in every(ep, "list_guardians", student_id=a["student_id"]))
        ),
        unexcused[0],
    )
    guardians = every(ep, "list_guardians", student_id=absence["student_id"])
    parent = next(g for g in guardians if g["custodial"])
    refused(
        ep,
        "excuse_absence",
        "rule_violation",
        "guardian_email",
        attendance_id=absence["id"],
        guardian_email="stranger@example.org",
        reason="Sick",
    )
    for g in guardians:
        if not g["custodial"]:
            refused(
                ep,
                "excuse_absence",
                "rule_violation",
                "guardian_email",
                attendance_id=absence["id"],
                guardian_email=g["email"],
                reason="Sick",
            )
    done = ok(ep, "excuse_absence", attendance_id=absence["id"], guardian_email=parent["email"], reason="Dentist")
    assert (done["code"], done["excused_by"]) == ("absent_excused", parent["email"])
    refused(
        ep,
        "excuse_absence",
        "rule_violation",
        "attendance_id",
        attendance_id=absence["id"],
        guardian_email=parent["email"],
        reason="Dentist",
    )
    old = ok(ep, "record_attendance", student_id=absence["student_id"], date="2026-02-13", code="absent_unexcused")
    refused(
        ep,
        "excuse_absence",
        "rule_violation",
        "attendance_id",
        attendance_id=old["id"],
        guardian_email=parent["email"],
        reason="Sick",
    )


def test_the_attendance_summary_counts_the_term() -> None:
    ep = Episode(WORLD)
    absence = every(ep, "list_attendance", code="absent_unexcused")[0]
    mine = every(ep, "list_attendance", student_id=absence["student_id"])
    summary = ok(ep, "attendance_summary", student_id=absence["student_id"])
    absent = sum(1 for a in mine if a["code"].startswith("absent"))
    assert (summary["days_recorded"], summary["days_absent"]) == (len(mine), absent)
    assert summary["unexcused"] == sum(1 for a in mine if a["code"] == "absent_unexcused")
    assert summary["attendance_rate"] == round(100 * (len(mine) - absent) / len(mine), 1)


# -- grades and report cards ----------------------------------------------------------------


def test_only_the_teacher_grades_enrolled_students(ep: Episode) -> None:
    st = every(ep, "list_students", enroll_status="active")[0]
    sec = live_sections(ep, st["id"], term(ep, 2)["id"])[0]
    teacher = teacher_of(ep, sec)
    other = next(t["email"] for t in every(ep, "list_teachers") if t["email"] != teacher)
    refused(
        ep,
        "enter_grade",
        "rule_violation",
        "teacher_email",
        section_id=sec["id"],
        student_id=st["id"],
        percent=88.0,
        teacher_email=other,
    )
    outsider = next(
        x
        for x in every(ep, "list_students", enroll_status="active")
        if sec not in live_sections(ep, x["id"], term(ep, 2)["id"])
    )
    refused(
        ep,
        "enter_grade",
        "rule_violation",
        "student_id",
        section_id=sec["id"],
        student_id=outsider["id"],
        percent=88.0,
        teacher_email=teacher,
    )
    grade = ok(ep, "enter_grade", section_id=sec["id"], student_id=st["id"], percent=79.5, teacher_email=teacher)
    assert (grade["letter"], grade["final"]) == ("C", False)
    past = live_sections(ep, st["id"], term(ep, 1)["id"])[0]
    refused(
        ep,
        "enter_grade",
        "rule_violation",
        "section_id",
        section_id=past["id"],
        student_id=st["id"],
        percent=99.0,
        teacher_email=teacher_of(ep, past),
    )


def test_a_report_card_needs_every_grade_and_makes_them_final(ep: Episode) -> None:
    s2 = term(ep, 2)
    st = every(ep, "list_students", enroll_status="active")[1]
    sections = live_sections(ep, st["id"], s2["id"])
    graded = {g["section_id"] for g in every(ep, "list_stored_grades", student_id=st["id"], term_id=s2["id"])}
    missing = [x for x in sections if x["id"] not in graded]
    assert missing
    msg = refused(ep, "issue_report_card", "rule_violation", "term_id", student_id=st["id"], term_id=s2["id"])
    assert missing[0]["course_name"] in msg
    for k, sec in enumerate(missing):
        ok(
            ep,
            "enter_grade",
            section_id=sec["id"],
            student_id=st["id"],
            percent=(95.0, 85.0, 65.0)[k % 3],
            teacher_email=teacher_of(ep, sec),
        )
    card = ok(ep, "issue_report_card", student_id=st["id"], term_id=s2["id"])
    grades = every(ep, "list_stored_grades", student_id=st["id"], term_id=s2["id"])
    points = {"A": 4, "B": 3, "C": 2, "D": 1, "F": 0}
    assert card["gpa"] == round(sum(points[g["letter"]] for g in grades) / len(grades), 2)
    assert all(g["final"] for g in grades)
    mail = sorted(g["email"] for g in every(ep, "list_guardians", student_id=st["id"]) if g["receives_mail"])
    assert card["mailed_to"] == mail
    refused(ep, "issue_report_card", "conflict", "term_id", student_id=st["id"], term_id=s2["id"])


def test_a_student_keeps_a_custodial_guardian(ep: Episode) -> None:
    for st in every(ep, "list_students"):
        custodians = every(ep, "list_guardians", student_id=st["id"], custodial=True)
        if len(custodians) == 1:
            only = custodians[0]
            refused(ep, "delete_guardian", "rule_violation", "guardian_id", guardian_id=only["id"])
            refused(ep, "update_guardian", "rule_violation", "custodial", guardian_id=only["id"], custodial=False)
            refused(
                ep,
                "create_guardian",
                "conflict",
                "email",
                student_id=st["id"],
                name=only["name"],
                email=only["email"],
                relationship="guardian",
            )
            return
    raise AssertionError("no student with a single custodian")
