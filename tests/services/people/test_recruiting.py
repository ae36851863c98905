"""Talentry Recruiting: forward-only pipelines, scorecards before offers, salary bands, hires fill openings."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RECRUITING = ServiceTools("recruiting")
WORLD = RECRUITING.world
ok, refused, every = RECRUITING.ok, RECRUITING.refused, RECRUITING.every
POP = WORLD.population
START = "2026-04-15"


def open_job(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_jobs", status="open")[0]


def fresh_application(ep: Episode, job: dict[str, Any] | None = None) -> dict[str, Any]:
    """A new active application (no scorecard yet) of a new candidate."""
    job = job or open_job(ep)
    cand = ok(ep, "create_candidate", first_name="Ada", last_name="Quill", email="ada.quill@inbox.io")
    return dict(ok(ep, "apply_to_job", candidate_id=cand["id"], job_id=job["id"]))


def new_job_with_one_opening(ep: Episode) -> dict[str, Any]:
    job = ok(
        ep,
        "create_job",
        name="Platform Engineer",
        department="Engineering",
        hiring_manager_email=POP.employees[0].email,
        recruiter_email=POP.employees[4].email,
        stages=["screen", "onsite", "offer"],
        salary_min=90_000_00,
        salary_max=120_000_00,
        currency="USD",
    )
    ok(ep, "create_opening", job_id=job["id"], target_start_date=START)
    return dict(job)


# -- the world ------------------------------------------------------------------------------


def test_candidates_are_consumers_and_jobs_are_run_by_employees() -> None:
    ep = Episode(WORLD)
    consumers = {p.email: p for p in POP.consumers}
    for cand in every(ep, "list_candidates"):
        person = consumers[cand["email"]]
        assert (cand["first_name"], cand["last_name"]) == (person.first_name, person.last_name)
    staff = {p.email: p for p in POP.employees}
    for job in every(ep, "list_jobs"):
        assert staff[job["hiring_manager_email"]].department == job["department"]
        assert staff[job["recruiter_email"]].department == "People"
        assert job["salary_min"] <= job["salary_max"]
    assert {j["status"] for j in every(ep, "list_jobs")} == {"draft", "open", "closed"}
    assert {a["status"] for a in every(ep, "list_applications")} == {"active", "rejected", "hired"}
    assert {o["status"] for o in every(ep, "list_offers")} >= {"sent", "accepted", "declined", "rescinded"}


def test_every_hired_application_filled_one_opening_of_its_job() -> None:
    ep = Episode(WORLD)
    hired = every(ep, "list_applications", status="hired")
    assert hired
    for app in hired:
        filled = every(ep, "list_openings", job_id=app["job_id"], status="closed", close_reason="hired")
        assert app["id"] in {o["hired_application_id"] for o in filled}


# -- applying -------------------------------------------------------------------------------


def test_applying_puts_the_application_at_the_first_stage_of_the_job(ep: Episode) -> None:
    job = open_job(ep)
    cand = every(ep, "list_candidates")[-1]
    app = ok(ep, "apply_to_job", candidate_id=cand["id"], job_id=job["id"], source="referral")
    assert (app["stage"], app["status"], app["source"]) == (job["stages"][0], "active", "referral")
    assert ep.diff().counts() == {"recruiting.applications": {"added": 1, "updated": 0, "removed": 0}}


def test_a_closed_job_accepts_no_applications_and_nothing_changes(ep: Episode) -> None:
    closed = every(ep, "list_jobs", status="closed")[0]
    cand = every(ep, "list_candidates")[0]
    msg = refused(ep, "apply_to_job", "rule_violation", "job_id", candidate_id=cand["id"], job_id=closed["id"])
    assert "closed" in msg


def test_a_candidate_cannot_apply_twice_to_the_same_job(ep: Episode) -> None:
    app = fresh_application(ep)
    refused(ep, "apply_to_job", "conflict", "candidate_id", candidate_id=app["candidate_id"], job_id=app["job_id"])


# -- moving through stages ------------------------------------------------------------------


def test_an_application_moves_forward_and_may_skip_stages(ep: Episode) -> None:
    app = fresh_application(ep)
    job = ok(ep, "get_job", job_id=app["job_id"])
    moved = ok(ep, "advance_application", application_id=app["id"])
    assert moved["stage"] == job["stages"][1]
    skipped = ok(ep, "advance_application", application_id=app["id"], to_stage=job["stages"][3])
    assert skipped["stage"] == job["stages"][3]


def test_an_application_never_moves_back_a_stage(ep: Episode) -> None:
    app = fresh_application(ep)
    job = ok(ep, "get_job", job_id=app["job_id"])
    ok(ep, "advance_application", application_id=app["id"], to_stage=job["stages"][2])
    refused(
        ep, "advance_application", "rule_violation", "to_stage", application_id=app["id"], to_stage=job["stages"][1]
    )
    refused(ep, "advance_application", "rule_violation", "to_stage", application_id=app["id"], to_stage="nowhere")


def test_a_rejected_application_is_final_and_its_open_offer_is_rescinded(ep: Episode) -> None:
    offer = every(ep, "list_offers", status="sent")[0]
    app_id = offer["application_id"]
    rejected = ok(ep, "reject_application", application_id=app_id, reason="Went with another candidate")
    assert rejected["status"] == "rejected"
    assert ok(ep, "get_offer", offer_id=offer["id"])["status"] == "rescinded"
    refused(ep, "advance_application", "rule_violation", "application_id", application_id=app_id)
    refused(ep, "reject_application", "rule_violation", "application_id", application_id=app_id, reason="again")


# -- interviews -----------------------------------------------------------------------------


def test_an_interviewer_cannot_be_booked_into_overlapping_interviews(ep: Episode) -> None:
    app = fresh_application(ep)
    who = POP.employees[2].email
    first = ok(
        ep,
        "schedule_interview",
        application_id=app["id"],
        interviewer_email=who,
        start="2026-03-20T10:00:00Z",
        duration_minutes=60,
    )
    assert first["end"] == "2026-03-20T11:00:00Z"
    assert first["stage"] == app["stage"]
    refused(
        ep,
        "schedule_interview",
        "conflict",
        "start",
        application_id=app["id"],
        interviewer_email=who,
        start="2026-03-20T10:30:00Z",
    )
    ok(ep, "schedule_interview", application_id=app["id"], interviewer_email=who, start="2026-03-20T11:00:00Z")


# -- offers and hires -----------------------------------------------------------------------


def test_an_offer_needs_a_scorecard_first(ep: Episode) -> None:
    app = fresh_application(ep)
    job = ok(ep, "get_job", job_id=app["job_id"])
    msg = refused(
        ep,
        "create_offer",
        "rule_violation",
        "application_id",
        application_id=app["id"],
        salary=job["salary_min"],
        start_date=START,
    )
    assert "scorecard" in msg


def test_an_offer_outside_the_job_salary_range_is_refused(ep: Episode) -> None:
    app = fresh_application(ep)
    job = ok(ep, "get_job", job_id=app["job_id"])
    ok(
        ep,
        "submit_scorecard",
        application_id=app["id"],
        interviewer_email=job["hiring_manager_email"],
        overall_recommendation="yes",
    )
    for salary in (job["salary_max"] + 1, job["salary_min"] - 1):
        refused(
            ep, "create_offer", "rule_violation", "salary", application_id=app["id"], salary=salary, start_date=START
        )


def test_a_valid_offer_moves_the_application_to_the_last_stage(ep: Episode) -> None:
    app = fresh_application(ep)
    job = ok(ep, "get_job", job_id=app["job_id"])
    ok(
        ep,
        "submit_scorecard",
        application_id=app["id"],
        interviewer_email=job["hiring_manager_email"],
        overall_recommendation="strong_yes",
    )
    offer = ok(ep, "create_offer", application_id=app["id"], salary=job["salary_max"], start_date=START)
    assert (offer["status"], offer["currency"]) == ("sent", job["currency"])
    assert ok(ep, "get_application", application_id=app["id"])["stage"] == job["stages"][-1]
    refused(
        ep,
        "create_offer",
        "conflict",
        "application_id",
        application_id=app["id"],
        salary=job["salary_min"],
        start_date=START,
    )


def test_hiring_fills_the_last_opening_and_closes_the_job(ep: Episode) -> None:
    job = new_job_with_one_opening(ep)
    app = fresh_application(ep, job)
    assert app["stage"] == "screen"
    ok(
        ep,
        "submit_scorecard",
        application_id=app["id"],
        interviewer_email=job["hiring_manager_email"],
        overall_recommendation="yes",
    )
    offer = ok(ep, "create_offer", application_id=app["id"], salary=100_000_00, start_date=START)
    snap = ep.snapshot()
    hire = ok(ep, "hire_candidate", offer_id=offer["id"])
    assert hire["offer"]["status"] == "accepted"
    assert hire["application"]["status"] == "hired"
    assert (hire["opening"]["status"], hire["opening"]["close_reason"]) == ("closed", "hired")
    assert hire["opening"]["hired_application_id"] == app["id"]
    assert hire["job"]["status"] == "closed"
    counts = ep.diff(snap).counts()
    assert {t: c["updated"] for t, c in counts.items()} == {
        "recruiting.offers": 1,
        "recruiting.applications": 1,
        "recruiting.openings": 1,
        "recruiting.jobs": 1,
    }
    other = ok(ep, "create_candidate", first_name="Bo", last_name="Lee", email="bo.lee@inbox.io")
    refused(ep, "apply_to_job", "rule_violation", "job_id", candidate_id=other["id"], job_id=job["id"])


def test_a_job_with_no_open_opening_cannot_hire(ep: Episode) -> None:
    job = new_job_with_one_opening(ep)
    opening = every(ep, "list_openings", job_id=job["id"])[0]
    app = fresh_application(ep, job)
    ok(
        ep,
        "submit_scorecard",
        application_id=app["id"],
        interviewer_email=job["hiring_manager_email"],
        overall_recommendation="yes",
    )
    offer = ok(ep, "create_offer", application_id=app["id"], salary=95_000_00, start_date=START)
    second = ok(ep, "create_candidate", first_name="Cy", last_name="Ng", email="cy.ng@inbox.io")
    app2 = ok(ep, "apply_to_job", candidate_id=second["id"], job_id=job["id"])
    ok(
        ep,
        "submit_scorecard",
        application_id=app2["id"],
        interviewer_email=job["recruiter_email"],
        overall_recommendation="yes",
    )
    offer2 = ok(ep, "create_offer", application_id=app2["id"], salary=95_000_00, start_date=START)
    ok(ep, "hire_candidate", offer_id=offer["id"], opening_id=opening["id"])
    refused(ep, "hire_candidate", "rule_violation", "offer_id", offer_id=offer2["id"])


def test_a_candidate_with_applications_cannot_be_deleted(ep: Episode) -> None:
    app = every(ep, "list_applications")[0]
    refused(ep, "delete_candidate", "rule_violation", "candidate_id", candidate_id=app["candidate_id"])
