"""Openroles Jobs: publishing and expiry, sponsorship budgets and caps, applications and dispositions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

JOBS = ServiceTools("jobboard")
WORLD = JOBS.world
ok, refused, every = JOBS.ok, JOBS.refused, JOBS.every
POP = WORLD.population
TODAY = "2026-03-02"


def live_posting(ep: Episode, sponsored: bool | None = None, verified: bool = True) -> dict[str, Any]:
    for p in every(ep, "list_postings", status="active"):
        emp = ok(ep, "get_employer", employer_id=p["employer_id"])
        if p["expires_on"] >= TODAY and emp["verified"] == verified and sponsored in (None, p["sponsored"]):
            return dict(p)
    raise AssertionError("no live posting")


def seeker_without(ep: Episode, posting_id: str, resume: bool = True) -> dict[str, Any]:
    applied = {a["seeker_id"] for a in every(ep, "list_applications", posting_id=posting_id)}
    return next(
        s for s in every(ep, "list_job_seekers") if s["id"] not in applied and (s["resume_url"] is not None) == resume
    )


# -- the world ------------------------------------------------------------------------------


def test_employers_are_world_companies_and_seekers_are_consumers() -> None:
    ep = Episode(WORLD)
    names = {c.name: c for c in POP.companies}
    emps = every(ep, "list_employers")
    assert POP.home.name in {e["name"] for e in emps}
    for e in emps:
        assert e["currency"] == names[e["name"]].place.currency
    people = {p.email: p.name for p in POP.consumers}
    assert {s["email"]: s["name"] for s in every(ep, "list_job_seekers")} == people
    home = next(e for e in emps if e["name"] == POP.home.name)
    recruiters = {p.email for p in POP.employees if p.department == "People"}
    assert all(p["contact_email"] in recruiters for p in every(ep, "list_postings", employer_id=home["id"]))


def test_application_counts_leave_out_withdrawn_ones() -> None:
    ep = Episode(WORLD)
    for p in every(ep, "list_postings"):
        apps = every(ep, "list_applications", posting_id=p["id"])
        assert p["applications_count"] == sum(1 for a in apps if a["status"] != "withdrawn")


# -- publishing and expiry ------------------------------------------------------------------


def test_a_draft_is_published_with_a_salary_range(ep: Episode) -> None:
    draft = next(p for p in every(ep, "list_postings", status="draft") if p["salary_min"] is None)
    refused(ep, "publish_posting", "rule_violation", "posting_id", posting_id=draft["id"])
    refused(
        ep,
        "update_posting",
        "rule_violation",
        "salary_max",
        posting_id=draft["id"],
        salary_min=6_000_000,
        salary_max=5_000_000,
    )
    ok(ep, "update_posting", posting_id=draft["id"], salary_min=5_000_000, salary_max=6_000_000)
    live = ok(ep, "publish_posting", posting_id=draft["id"], days=30)
    assert (live["status"], live["expires_on"]) == ("active", "2026-04-01")
    refused(ep, "publish_posting", "rule_violation", "posting_id", posting_id=draft["id"])


def test_run_out_postings_take_no_applications_and_are_swept(ep: Episode) -> None:
    stale = next(p for p in every(ep, "list_postings", status="active") if p["expires_on"] < TODAY)
    seeker = seeker_without(ep, stale["id"])
    refused(ep, "apply_to_posting", "rule_violation", "posting_id", posting_id=stale["id"], email=seeker["email"])
    swept = ok(ep, "expire_postings")
    assert stale["id"] in {p["id"] for p in swept}
    assert all(p["expires_on"] < TODAY and p["status"] == "expired" for p in swept)
    assert ok(ep, "expire_postings") == []


def test_extending_revives_an_expired_posting_within_120_days(ep: Episode) -> None:
    expired = every(ep, "list_postings", status="expired")[0]
    back = ok(ep, "extend_posting", posting_id=expired["id"])
    assert (back["status"], back["expires_on"]) == ("active", "2026-04-01")
    refused(ep, "extend_posting", "rule_violation", "posting_id", posting_id=expired["id"])
    closed = every(ep, "list_postings", status="closed")[0]
    refused(ep, "extend_posting", "rule_violation", "posting_id", posting_id=closed["id"])
    refused(ep, "update_posting", "rule_violation", "posting_id", posting_id=closed["id"], title="Reopened")


def test_pausing_and_resuming(ep: Episode) -> None:
    live = live_posting(ep, sponsored=False)
    assert ok(ep, "pause_posting", posting_id=live["id"])["status"] == "paused"
    assert ok(ep, "resume_posting", posting_id=live["id"])["status"] == "active"
    stale = next(p for p in every(ep, "list_postings", status="active") if p["expires_on"] < TODAY)
    assert ok(ep, "pause_posting", posting_id=stale["id"])["status"] == "paused"
    refused(ep, "resume_posting", "rule_violation", "posting_id", posting_id=stale["id"])
    draft = every(ep, "list_postings", status="draft")[0]
    refused(ep, "pause_posting", "rule_violation", "posting_id", posting_id=draft["id"])


# -- sponsorship ----------------------------------------------------------------------------


def test_sponsorship_needs_a_verified_employer_and_a_minimum_daily_budget(ep: Episode) -> None:
    unverified = every(ep, "list_employers", verified=False)[0]
    post = next(
        p for p in every(ep, "list_postings", employer_id=unverified["id"]) if p["status"] in ("active", "paused")
    )
    if post["status"] == "paused":
        post = ok(ep, "resume_posting", posting_id=post["id"])
    refused(
        ep,
        "sponsor_posting",
        "rule_violation",
        "posting_id",
        posting_id=post["id"],
        daily_budget=1_000,
        total_budget=10_000,
    )
    live = live_posting(ep, sponsored=False)
    refused(
        ep,
        "sponsor_posting",
        "rule_violation",
        "daily_budget",
        posting_id=live["id"],
        daily_budget=499,
        total_budget=10_000,
    )
    refused(
        ep,
        "sponsor_posting",
        "rule_violation",
        "total_budget",
        posting_id=live["id"],
        daily_budget=2_000,
        total_budget=1_000,
    )


def test_the_monthly_cap_limits_the_remaining_budgets(ep: Episode) -> None:
    live = live_posting(ep, sponsored=False)
    perf = ok(ep, "employer_performance", employer_id=live["employer_id"])
    room = perf["monthly_budget_cap"] - perf["committed"]
    msg = refused(
        ep,
        "sponsor_posting",
        "rule_violation",
        "total_budget",
        posting_id=live["id"],
        daily_budget=1_000,
        total_budget=room + 1,
    )
    assert str(room) in msg
    done = ok(ep, "sponsor_posting", posting_id=live["id"], daily_budget=1_000, total_budget=room)
    assert done["sponsored"]
    after = ok(ep, "employer_performance", employer_id=live["employer_id"])
    assert after["committed"] == perf["monthly_budget_cap"]
    refused(
        ep,
        "update_employer",
        "rule_violation",
        "monthly_budget_cap",
        employer_id=live["employer_id"],
        monthly_budget_cap=after["committed"] - 1,
    )


def test_a_sponsored_posting_is_closed_only_after_stopping_it(ep: Episode) -> None:
    live = live_posting(ep, sponsored=True)
    refused(ep, "close_posting", "rule_violation", "posting_id", posting_id=live["id"])
    stopped = ok(ep, "stop_sponsorship", posting_id=live["id"])
    assert (stopped["sponsored"], stopped["total_budget"]) == (False, live["spent"])
    refused(ep, "stop_sponsorship", "rule_violation", "posting_id", posting_id=live["id"])
    assert ok(ep, "close_posting", posting_id=live["id"])["status"] == "closed"


# -- applications ---------------------------------------------------------------------------


def test_applying_once_with_a_resume(ep: Episode) -> None:
    live = next(
        p for p in every(ep, "list_postings", status="active") if p["expires_on"] >= TODAY and p["resume_required"]
    )
    refused(ep, "apply_to_posting", "not_found", "email", posting_id=live["id"], email="ghost@example.org")
    no_cv = seeker_without(ep, live["id"], resume=False)
    refused(ep, "apply_to_posting", "rule_violation", "resume_url", posting_id=live["id"], email=no_cv["email"])
    seeker = seeker_without(ep, live["id"])
    app = ok(ep, "apply_to_posting", posting_id=live["id"], email=seeker["email"], cover_letter="Hello")
    assert (app["status"], app["resume_url"], app["applicant_name"]) == (
        "submitted",
        seeker["resume_url"],
        seeker["name"],
    )
    assert ok(ep, "get_posting", posting_id=live["id"])["applications_count"] == live["applications_count"] + 1
    refused(ep, "apply_to_posting", "conflict", "email", posting_id=live["id"], email=seeker["email"])


def test_dispositions_follow_the_pipeline(ep: Episode) -> None:
    app = every(ep, "list_applications", status="submitted")[0]
    refused(ep, "set_application_status", "rule_violation", "status", application_id=app["id"], status="shortlisted")
    ok(ep, "set_application_status", application_id=app["id"], status="viewed")
    ok(ep, "set_application_status", application_id=app["id"], status="shortlisted")
    hired = ok(ep, "set_application_status", application_id=app["id"], status="hired", note="Offer accepted")
    assert hired["status"] == "hired"
    refused(ep, "set_application_status", "rule_violation", "status", application_id=app["id"], status="rejected")
    refused(
        ep,
        "withdraw_application",
        "rule_violation",
        "application_id",
        application_id=app["id"],
        email=app["applicant_email"],
    )


def test_only_the_applicant_withdraws(ep: Episode) -> None:
    app = every(ep, "list_applications", status="submitted")[0]
    post = ok(ep, "get_posting", posting_id=app["posting_id"])
    refused(
        ep, "withdraw_application", "rule_violation", "email", application_id=app["id"], email="someone@example.org"
    )
    done = ok(ep, "withdraw_application", application_id=app["id"], email=app["applicant_email"])
    assert done["status"] == "withdrawn"
    assert ok(ep, "get_posting", posting_id=post["id"])["applications_count"] == post["applications_count"] - 1
