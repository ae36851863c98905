"""Bridgeway Cases: enrollment with waitlists, exits and completion, service notes, goals, referrals, summary."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CM = ServiceTools("casemanage")
WORLD = CM.world
ok, refused, every, first = CM.ok, CM.refused, CM.every, CM.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = POP.employees[0].email


def program(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_programs") if p["name"] == name)


def client(ep: Episode, email: str = "sam.ortiz@example.org", born: str = "1985-02-02") -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep, "create_client", first_name="Sam", last_name="Ortiz", email=email, birth_date=born, case_manager_email=STAFF
    )
    return made


def test_clients_are_residents_managed_by_staff_and_counts_match(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    for c in every(ep, "list_clients"):
        assert c["email"] in {p.email for p in POP.consumers} and c["case_manager_email"] in staff
    for p in every(ep, "list_programs"):
        assert p["enrolled"] == len(every(ep, "list_enrollments", program_id=p["id"], status="enrolled"))


def test_enrollment_checks_age_status_and_duplicates_and_waitlists_when_full(ep: Episode) -> None:
    c = client(ep)
    refused(
        ep,
        "enroll_client",
        "rule_violation",
        "email",
        email=c["email"],
        program_id=program(ep, "Youth Mentoring")["id"],
    )
    refused(
        ep,
        "enroll_client",
        "rule_violation",
        "program_id",
        email=c["email"],
        program_id=program(ep, "Financial Coaching")["id"],
    )
    full = program(ep, "Rapid Rehousing")
    assert full["enrolled"] == full["capacity"]
    assert ok(ep, "enroll_client", email=c["email"], program_id=full["id"])["status"] == "waitlisted"
    refused(ep, "enroll_client", "conflict", "email", email=c["email"], program_id=full["id"])
    inactive = first(ep, "clients", status="inactive")
    refused(ep, "enroll_client", "rule_violation", "email", email=inactive["email"], program_id=full["id"])


def test_an_exit_frees_a_seat_for_the_first_waitlisted(ep: Episode) -> None:
    full = ok(ep, "get_program", program_id=first(ep, "enrollments", status="waitlisted")["program_id"])
    waiting = every(ep, "list_enrollments", program_id=full["id"], status="waitlisted")
    leaving = first(ep, "enrollments", program_id=full["id"], status="enrolled")
    refused(ep, "end_enrollment", "rule_violation", "exit_reason", enrollment_id=leaving["id"], completed=False)
    gone = ok(ep, "end_enrollment", enrollment_id=leaving["id"], completed=False, exit_reason="moved")
    assert (gone["status"], gone["exit_reason"], gone["ended_on"]) == ("exited", "moved", TODAY.isoformat())
    moved_up = ok(ep, "get_enrollment", enrollment_id=waiting[0]["id"])
    assert (moved_up["status"], moved_up["enrolled_on"]) == ("enrolled", TODAY.isoformat())
    assert ok(ep, "get_program", program_id=full["id"])["enrolled"] == full["capacity"]
    refused(ep, "end_enrollment", "conflict", "enrollment_id", enrollment_id=leaving["id"], completed=True)


def test_completion_waits_for_every_goal_outcome(ep: Episode) -> None:
    c = client(ep, born="1950-05-05")
    e = ok(ep, "enroll_client", email=c["email"], program_id=program(ep, "Senior Connections")["id"])
    g = ok(ep, "set_goal", enrollment_id=e["id"], description="Earn a forklift certificate", target_date="2031-01-01")
    refused(ep, "end_enrollment", "rule_violation", "enrollment_id", enrollment_id=e["id"], completed=True)
    ok(ep, "start_goal", goal_id=g["id"])
    achieved = ok(ep, "achieve_goal", goal_id=g["id"])
    assert (achieved["status"], achieved["outcome_on"]) == ("achieved", TODAY.isoformat())
    assert ok(ep, "end_enrollment", enrollment_id=e["id"], completed=True)["status"] == "completed"


def test_service_notes_need_an_active_enrollment_staff_and_a_past_date(ep: Episode) -> None:
    e = first(ep, "enrollments", status="enrolled")
    args = {"enrollment_id": e["id"], "service_type": "counseling", "minutes": 50, "body": "Session"}
    refused(ep, "add_service_note", "rule_violation", "author_email", author_email="x@example.org", **args)
    refused(
        ep, "add_service_note", "rule_violation", "service_date", author_email=STAFF, service_date="2031-01-01", **args
    )
    note = ok(ep, "add_service_note", author_email=STAFF, **args)
    assert (note["service_date"], note["client_id"]) == (TODAY.isoformat(), e["client_id"])
    waiting = first(ep, "enrollments", status="waitlisted")
    refused(
        ep,
        "add_service_note",
        "rule_violation",
        "enrollment_id",
        author_email=STAFF,
        **(args | {"enrollment_id": waiting["id"]}),
    )


def test_goals_need_a_target_ahead_and_move_through_their_states(ep: Episode) -> None:
    e = first(ep, "enrollments", status="enrolled")
    refused(
        ep,
        "set_goal",
        "rule_violation",
        "target_date",
        enrollment_id=e["id"],
        description="x",
        target_date=TODAY.isoformat(),
    )
    g = ok(ep, "set_goal", enrollment_id=e["id"], description="Open a bank account", target_date="2031-06-01")
    refused(ep, "achieve_goal", "rule_violation", "goal_id", goal_id=g["id"])
    assert ok(ep, "miss_goal", goal_id=g["id"])["status"] == "not_achieved"


def test_referrals_one_open_per_organization_and_need(ep: Episode) -> None:
    c = first(ep, "clients", status="active")
    refused(
        ep,
        "refer_client",
        "rule_violation",
        "follow_up_days",
        email=c["email"],
        organization="Harbor Legal Aid",
        need="legal",
        follow_up_days=90,
    )
    r = ok(ep, "refer_client", email=c["email"], organization="Harbor Legal Aid", need="legal")
    refused(
        ep, "refer_client", "conflict", "organization", email=c["email"], organization="Harbor Legal Aid", need="legal"
    )
    refused(ep, "complete_referral", "rule_violation", "referral_id", referral_id=r["id"])
    ok(ep, "accept_referral", referral_id=r["id"])
    assert ok(ep, "complete_referral", referral_id=r["id"])["status"] == "completed"
    assert ok(ep, "refer_client", email=c["email"], organization="Harbor Legal Aid", need="legal")["status"] == "sent"


def test_the_case_summary_adds_up_the_file(ep: Episode) -> None:
    e = first(ep, "enrollments", status="enrolled")
    c = ok(ep, "get_client", client_id=e["client_id"])
    before = ok(ep, "case_summary", email=c["email"])
    ok(
        ep,
        "add_service_note",
        enrollment_id=e["id"],
        author_email=STAFF,
        service_type="benefits",
        minutes=25,
        body="SNAP",
    )
    ok(ep, "refer_client", email=c["email"], organization="City Food Pantry", need="food")
    after = ok(ep, "case_summary", email=c["email"])
    assert after["service_minutes"] == before["service_minutes"] + 25
    assert after["open_referrals"] == before["open_referrals"] + 1
    assert after["active_enrollments"] == len(
        [x for x in every(ep, "list_enrollments", client_id=c["id"]) if x["status"] in ("enrolled", "waitlisted")]
    )
