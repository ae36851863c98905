"""Upskill Academy: assignment rules, sequential paths, scored completions, certifications and renewal."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TRAINING = ServiceTools("training")
WORLD = TRAINING.world
ok, refused, every = TRAINING.ok, TRAINING.refused, TRAINING.every
POP = WORLD.population
TODAY = dt.date(2026, 3, 2)
DUE = "2026-04-15"


def course(ep: Episode, title: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_courses") if c["title"] == title)


def path(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_learning_paths") if p["name"] == name)


def learner(ep: Episode, email: str) -> dict[str, Any]:
    return dict(every(ep, "list_learners", email=email)[0])


def someone_without(ep: Episode, course_title: str) -> dict[str, Any]:
    c = course(ep, course_title)
    taken = {a["learner_id"] for a in every(ep, "list_assignments", course_id=c["id"])}
    return next(x for x in every(ep, "list_learners", active=True) if x["id"] not in taken and x["manager_email"])


def open_assignment(ep: Episode, learner_id: str, course_id: str) -> dict[str, Any]:
    return next(
        a
        for a in every(ep, "list_assignments", learner_id=learner_id, course_id=course_id)
        if a["status"] in ("not_started", "in_progress")
    )


# -- the world ------------------------------------------------------------------------------


def test_learners_are_the_staff_with_managers_among_them() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    learners = every(ep, "list_learners")
    assert {x["email"] for x in learners} == set(staff)
    assert all(x["name"] == staff[x["email"]].name for x in learners)
    assert all(x["manager_email"] in staff for x in learners if x["manager_email"])


def test_seeded_compliance_awards_follow_completed_paths() -> None:
    ep = Episode(WORLD)
    compliance = path(ep, "New Hire Compliance")
    for award in every(ep, "list_certification_awards", certification_id=compliance["certification_id"]):
        for cid in compliance["course_ids"]:
            assert any(
                a["status"] == "completed"
                for a in every(ep, "list_assignments", learner_id=award["learner_id"], course_id=cid)
            )
        assert (award["status"] == "active") == (award["expires_on"] >= TODAY.isoformat())


# -- assigning ------------------------------------------------------------------------------


def test_assigning_a_course_checks_each_learner(ep: Episode) -> None:
    first_aid = course(ep, "First Aid Basics")
    a, b = [x for x in every(ep, "list_learners", active=True) if x["department"] != "Operations"][:2]
    made = ok(
        ep,
        "assign_course",
        course_id=first_aid["id"],
        learner_emails=[a["email"], b["email"]],
        due_date=DUE,
        assigned_by=a["manager_email"] or a["email"],
    )
    assert [m["status"] for m in made] == ["not_started", "not_started"]
    refused(
        ep,
        "assign_course",
        "conflict",
        "learner_emails.0",
        course_id=first_aid["id"],
        learner_emails=[a["email"]],
        due_date=DUE,
        assigned_by=a["email"],
    )
    refused(
        ep,
        "assign_course",
        "rule_violation",
        "learner_emails.0",
        course_id=first_aid["id"],
        learner_emails=["ghost@example.org"],
        due_date=DUE,
        assigned_by=a["email"],
    )
    refused(
        ep,
        "assign_course",
        "rule_violation",
        "due_date",
        course_id=first_aid["id"],
        learner_emails=[a["email"]],
        due_date="2026-01-01",
        assigned_by=a["email"],
    )
    gone = every(ep, "list_learners", active=False)[0]
    refused(
        ep,
        "assign_course",
        "rule_violation",
        "learner_emails.0",
        course_id=first_aid["id"],
        learner_emails=[gone["email"]],
        due_date=DUE,
        assigned_by=a["email"],
    )
    draft = course(ep, "Python for Analysts")
    refused(
        ep,
        "assign_course",
        "rule_violation",
        "course_id",
        course_id=draft["id"],
        learner_emails=[a["email"]],
        due_date=DUE,
        assigned_by=a["email"],
    )


def test_a_prerequisite_must_be_completed_first(ep: Episode) -> None:
    advanced = course(ep, "Advanced Negotiation")
    newbie = someone_without(ep, "Sales Fundamentals")
    msg = refused(
        ep,
        "assign_course",
        "rule_violation",
        "learner_emails.0",
        course_id=advanced["id"],
        learner_emails=[newbie["email"]],
        due_date=DUE,
        assigned_by=newbie["manager_email"],
    )
    assert "Sales Fundamentals" in msg
    fundamentals = course(ep, "Sales Fundamentals")
    done = next(a for a in every(ep, "list_assignments", course_id=fundamentals["id"], status="completed"))
    seller = ok(
        ep,
        "learner_transcript",
        email=next(x["email"] for x in every(ep, "list_learners") if x["id"] == done["learner_id"]),
    )
    assert ok(
        ep,
        "assign_course",
        course_id=advanced["id"],
        learner_emails=[seller["email"]],
        due_date=DUE,
        assigned_by=seller["email"],
    )


# -- progress and completion ----------------------------------------------------------------


def test_a_sequential_path_is_taken_in_order(ep: Episode) -> None:
    newbie = someone_without(ep, "First Aid Basics")
    warehouse = path(ep, "Warehouse Safety")
    made = ok(
        ep,
        "assign_learning_path",
        learning_path_id=warehouse["id"],
        learner_email=newbie["email"],
        due_date=DUE,
        assigned_by=newbie["manager_email"],
    )
    first, second = made
    refused(ep, "record_progress", "rule_violation", "assignment_id", assignment_id=second["id"], progress=10.0)
    ok(ep, "record_progress", assignment_id=first["id"], progress=60.0)
    refused(ep, "record_progress", "rule_violation", "progress", assignment_id=first["id"], progress=30.0)
    ok(ep, "complete_course", assignment_id=first["id"])
    assert ok(ep, "record_progress", assignment_id=second["id"], progress=10.0)["status"] == "in_progress"


def test_failing_the_test_three_times_fails_the_assignment(ep: Episode) -> None:
    newbie = someone_without(ep, "First Aid Basics")
    forklift = course(ep, "Forklift Safety")
    assigned = ok(
        ep,
        "assign_course",
        course_id=forklift["id"],
        learner_emails=[newbie["email"]],
        due_date=DUE,
        assigned_by=newbie["email"],
    )[0]
    refused(ep, "complete_course", "rule_violation", "score", assignment_id=assigned["id"])
    for k in (1, 2):
        again = ok(ep, "complete_course", assignment_id=assigned["id"], score=60.0)
        assert (again["status"], again["attempts"]) == ("in_progress", k)
    failed = ok(ep, "complete_course", assignment_id=assigned["id"], score=70.0)
    assert (failed["status"], failed["attempts"]) == ("failed", 3)
    refused(ep, "record_progress", "rule_violation", "assignment_id", assignment_id=assigned["id"], progress=50.0)


def test_finishing_a_path_grants_its_certification(ep: Episode) -> None:
    compliance = path(ep, "New Hire Compliance")
    partial = next(
        x
        for x in every(ep, "list_learners", active=True)
        if not every(ep, "list_certification_awards", learner_id=x["id"])
        and every(ep, "list_assignments", learner_id=x["id"], path_id=compliance["id"])
    )
    for cid in compliance["course_ids"]:
        todo = [
            a
            for a in every(ep, "list_assignments", learner_id=partial["id"], course_id=cid)
            if a["status"] in ("not_started", "in_progress")
        ]
        for a in todo:
            ok(ep, "complete_course", assignment_id=a["id"], score=92.0)
    award = every(ep, "list_certification_awards", learner_id=partial["id"])[0]
    assert (award["issued_on"], award["expires_on"], award["status"]) == ("2026-03-02", "2027-03-02", "active")


def test_the_retraining_course_renews_an_expiring_certification(ep: Episode) -> None:
    soon = ok(ep, "expiring_certifications", within_days=30)
    assert soon and [e["expires_on"] for e in soon] == sorted(e["expires_on"] for e in soon)
    assert all(e["expires_on"] <= "2026-04-01" for e in soon)
    first = soon[0]
    renewal = first["renewal_course_id"]
    made = ok(
        ep,
        "assign_course",
        course_id=renewal,
        learner_emails=[first["learner_email"]],
        due_date=DUE,
        assigned_by=first["manager_email"] or first["learner_email"],
    )
    ok(ep, "complete_course", assignment_id=made[0]["id"], score=100.0)
    award = next(w for w in every(ep, "list_certification_awards") if w["id"] == first["award_id"])
    old = dt.date.fromisoformat(first["expires_on"])
    months = 12 if "Compliance" in first["certification"] else 24
    assert award["expires_on"] == old.replace(year=old.year + months // 12).isoformat()
    assert award["renewed_on"] == "2026-03-02"


# -- waivers, transcripts, retiring ---------------------------------------------------------


def test_only_the_manager_waives_with_a_reason(ep: Episode) -> None:
    a = every(ep, "list_assignments", status="not_started")[0]
    who = next(x for x in every(ep, "list_learners") if x["id"] == a["learner_id"])
    outsider = next(p.email for p in POP.employees if p.email not in (who["manager_email"], who["email"]))
    refused(
        ep,
        "waive_assignment",
        "rule_violation",
        "manager_email",
        assignment_id=a["id"],
        manager_email=outsider,
        reason="Busy",
    )
    refused(
        ep,
        "waive_assignment",
        "rule_violation",
        "reason",
        assignment_id=a["id"],
        manager_email=who["manager_email"],
        reason=" ",
    )
    done = ok(
        ep,
        "waive_assignment",
        assignment_id=a["id"],
        manager_email=who["manager_email"],
        reason="Took the course at a previous employer",
    )
    assert (done["status"], done["waived_by"]) == ("waived", who["manager_email"])
    refused(
        ep,
        "waive_assignment",
        "rule_violation",
        "assignment_id",
        assignment_id=a["id"],
        manager_email=who["manager_email"],
        reason="Again",
    )


def test_the_transcript_flags_overdue_work() -> None:
    ep = Episode(WORLD)
    late = next(
        a
        for a in every(ep, "list_assignments")
        if a["status"] in ("not_started", "in_progress") and a["due_date"] < TODAY.isoformat()
    )
    who = next(x for x in every(ep, "list_learners") if x["id"] == late["learner_id"])
    transcript = ok(ep, "learner_transcript", email=who["email"])
    line = next(x for x in transcript["assignments"] if x["assignment_id"] == late["id"])
    assert line["overdue"] and transcript["overdue"] >= 1


def test_a_course_with_open_assignments_is_not_retired(ep: Episode) -> None:
    busy = course(ep, "Giving Feedback")
    refused(ep, "retire_course", "rule_violation", "course_id", course_id=busy["id"])
    draft = course(ep, "Python for Analysts")
    assert ok(ep, "retire_course", course_id=draft["id"])["status"] == "retired"
