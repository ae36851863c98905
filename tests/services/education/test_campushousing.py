"""Quadrant Housing: applications and deposits, roommate requests, bed assignment rules, move-in and move-out."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CH = ServiceTools("campushousing")
WORLD = CH.world
ok, refused, every = CH.ok, CH.refused, CH.every
TERM = "2026-FA"


def hall(ep: Episode, policy: str) -> dict[str, Any]:
    return every(ep, "list_halls", policy=policy)[0]


def free_bed(ep: Episode, policy: str, term: str = TERM) -> dict[str, Any]:
    taken = {a["bed_id"] for a in every(ep, "list_assignments", term=term) if a["status"] in ("assigned", "checked_in")}
    h = hall(ep, policy)
    return next(b for b in every(ep, "list_beds", hall_id=h["id"], status="available") if b["id"] not in taken)


def accepted_without_bed(ep: Episode, gender: str) -> dict[str, Any]:
    for app in every(ep, "list_applications", term=TERM):
        res = ok(ep, "get_resident", resident_id=app["resident_id"])
        live = [
            a
            for a in every(ep, "list_assignments", resident_id=res["id"], term=TERM)
            if a["status"] in ("assigned", "checked_in")
        ]
        if res["gender"] == gender and not live and app["status"] != "cancelled":
            if app["status"] != "accepted":
                if not app["deposit_paid"]:
                    ok(ep, "pay_deposit", application_id=app["id"])
                ok(ep, "accept_application", application_id=app["id"])
            return dict(ok(ep, "get_application", application_id=app["id"]))
    raise AssertionError(f"no {gender} applicant without a bed")


def test_seeded_residents_are_world_people_and_assignments_fit_hall_policies(ep: Episode) -> None:
    emails = {p.email for p in WORLD.population.people}
    assert all(r["email"] in emails for r in every(ep, "list_residents"))
    fits = {"coed": {"female", "male", "nonbinary"}, "women": {"female"}, "men": {"male"}}
    for a in every(ep, "list_assignments"):
        res = ok(ep, "get_resident", resident_id=a["resident_id"])
        assert res["gender"] in fits[ok(ep, "get_hall", hall_id=a["hall_id"])["policy"]]


def test_acceptance_needs_the_deposit(ep: Episode) -> None:
    app = next(a for a in every(ep, "list_applications", status="submitted") if not a["deposit_paid"])
    refused(ep, "accept_application", "rule_violation", "application_id", application_id=app["id"])
    ok(ep, "pay_deposit", application_id=app["id"])
    refused(ep, "pay_deposit", "conflict", "application_id", application_id=app["id"])
    assert ok(ep, "accept_application", application_id=app["id"])["status"] == "accepted"


def test_one_live_application_per_term(ep: Episode) -> None:
    app = every(ep, "list_applications", status="submitted")[0]
    refused(ep, "submit_application", "conflict", "term", resident_id=app["resident_id"], term=TERM)
    ok(ep, "cancel_application", application_id=app["id"])
    again = ok(ep, "submit_application", resident_id=app["resident_id"], term=TERM, preferred_type="single")
    assert again["status"] == "submitted"


def test_beds_go_to_accepted_applicants_in_halls_that_fit(ep: Episode) -> None:
    app = accepted_without_bed(ep, "male")
    refused(ep, "assign_bed", "rule_violation", "bed_id", application_id=app["id"], bed_id=free_bed(ep, "women")["id"])
    taken = every(ep, "list_assignments", hall_id=hall(ep, "men")["id"], status="assigned")[0]
    refused(ep, "assign_bed", "conflict", "bed_id", application_id=app["id"], bed_id=taken["bed_id"])
    offline = every(ep, "list_beds", status="offline")[0]
    refused(ep, "assign_bed", "rule_violation", "bed_id", application_id=app["id"], bed_id=offline["id"])
    made = ok(ep, "assign_bed", application_id=app["id"], bed_id=free_bed(ep, "men")["id"])
    assert made["status"] == "assigned"
    refused(ep, "assign_bed", "conflict", "application_id", application_id=app["id"], bed_id=free_bed(ep, "coed")["id"])
    waiting = every(ep, "list_applications", status="waitlisted")[0]
    refused(
        ep,
        "assign_bed",
        "rule_violation",
        "application_id",
        application_id=waiting["id"],
        bed_id=free_bed(ep, "coed")["id"],
    )


def test_move_in_and_move_out_with_damages(ep: Episode) -> None:
    asg = every(ep, "list_assignments", status="assigned")[0]
    refused(ep, "check_out", "rule_violation", "assignment_id", assignment_id=asg["id"])
    inside = ok(ep, "check_in", assignment_id=asg["id"])
    assert inside["checked_in_at"] is not None
    refused(ep, "cancel_assignment", "rule_violation", "assignment_id", assignment_id=asg["id"])
    refused(ep, "check_out", "rule_violation", "damage_notes", assignment_id=asg["id"], damage_charge=5000)
    out = ok(ep, "check_out", assignment_id=asg["id"], damage_charge=5000, damage_notes="Broken blinds")
    assert (out["status"], out["damage_charge"]) == ("checked_out", 5000)


def test_occupancy_counts_beds_and_frees_cancelled_ones(ep: Episode) -> None:
    h = hall(ep, "women")
    before = ok(ep, "hall_occupancy", hall_id=h["id"], term=TERM)
    assert before["beds"] == len(every(ep, "list_beds", hall_id=h["id"]))
    assert before["available"] + before["occupied"] + before["offline"] >= before["beds"] - before["offline"]
    asg = next(a for a in every(ep, "list_assignments", hall_id=h["id"], status="assigned"))
    ok(ep, "cancel_assignment", assignment_id=asg["id"], reason="Withdrew")
    after = ok(ep, "hall_occupancy", hall_id=h["id"], term=TERM)
    assert (after["occupied"], after["available"]) == (before["occupied"] - 1, before["available"] + 1)


def test_roommate_requests_turn_mutual_when_both_ask(ep: Episode) -> None:
    pending = every(ep, "list_roommate_requests", status="pending")[0]
    asker = ok(ep, "get_resident", resident_id=pending["requester_id"])
    refused(
        ep,
        "request_roommate",
        "conflict",
        "requested_email",
        requester_id=asker["id"],
        requested_email=ok(ep, "get_resident", resident_id=pending["requested_id"])["email"],
        term=TERM,
    )
    back = ok(ep, "request_roommate", requester_id=pending["requested_id"], requested_email=asker["email"], term=TERM)
    assert back["status"] == "mutual"
    assert {r["status"] for r in every(ep, "list_roommate_requests", requester_id=asker["id"])} == {"mutual"}
    refused(
        ep,
        "request_roommate",
        "rule_violation",
        "requested_email",
        requester_id=asker["id"],
        requested_email=asker["email"],
        term=TERM,
    )


def test_an_occupied_bed_stays_online(ep: Episode) -> None:
    inside = every(ep, "list_assignments", status="checked_in")[0]
    refused(ep, "take_offline_bed", "rule_violation", "bed_id", bed_id=inside["bed_id"])
    bed = free_bed(ep, "coed")
    assert ok(ep, "take_offline_bed", bed_id=bed["id"])["status"] == "offline"
    assert ok(ep, "bring_online_bed", bed_id=bed["id"])["status"] == "available"
