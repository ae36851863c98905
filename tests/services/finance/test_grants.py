"""Keystone Grants: deadlines, conflicts of interest, scores, awards within the budget, tranches in order."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.finance.grants import split
from tests.services.helpers import ServiceTools

GRANTS = ServiceTools("grants")
WORLD = GRANTS.world
ok, refused, every = GRANTS.ok, GRANTS.refused, GRANTS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def program(ep: Episode, name: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_programs") if p["name"] == name)


def draft(ep: Episode, prog: dict[str, Any], requested: int, k: int = 0) -> dict[str, Any]:
    org = POP.customers[-1 - k]
    person = POP.first_contact(org)
    assert person is not None
    made = ok(
        ep,
        "create_application",
        program_id=prog["id"],
        organization_name=org.name,
        contact_name=person.name,
        contact_email=person.email,
        title="Repair café",
        summary="",
        requested_cents=requested,
    )
    return dict(made)


def reviewed(ep: Episode, scored: int) -> dict[str, Any]:
    for app in every(ep, "list_applications", status="under_review"):
        done = every(ep, "list_reviews", application_id=app["id"], status="completed")
        if len(done) == scored:
            return app
    raise AssertionError(f"no application with {scored} scores")


def test_applicants_are_the_populations_organisations_and_money_adds_up() -> None:
    ep = Episode(WORLD)
    orgs = {c.name for c in POP.customers}
    for app in every(ep, "list_applications"):
        assert app["organization_name"] in orgs
        person = next(p for p in POP.people if p.email == app["contact_email"])
        assert POP.company_of(person) is not None and POP.company_of(person).name == app["organization_name"]  # type: ignore[union-attr]
    staff = {p.email for p in POP.employees}
    assert all(p["officer_email"] in staff for p in every(ep, "list_programs"))
    for app in every(ep, "list_applications", status="awarded"):
        assert (
            sum(t["amount_cents"] for t in every(ep, "list_tranches", application_id=app["id"])) == app["awarded_cents"]
        )
    for prog in every(ep, "list_programs"):
        budget = ok(ep, "program_budget", program_id=prog["id"])
        assert budget["remaining_cents"] == prog["budget_cents"] - budget["awarded_cents"] >= 0


def test_drafts_are_submitted_by_the_deadline_within_the_largest_award(ep: Episode) -> None:
    fund = program(ep, "Community Innovation Fund")
    app = draft(ep, fund, fund["max_award_cents"])
    assert app["status"] == "draft"
    submitted = ok(ep, "submit_application", application_id=app["id"])
    assert submitted["status"] == "submitted" and submitted["submitted_at"] is not None
    refused(ep, "submit_application", "conflict", "application_id", application_id=app["id"])
    big = draft(ep, fund, fund["max_award_cents"] + 1, k=1)
    refused(ep, "submit_application", "rule_violation", "application_id", application_id=big["id"])
    stem = program(ep, "STEM Education Grants")
    assert stem["deadline"] < TODAY.isoformat()
    late = next(a for a in every(ep, "list_applications", program_id=stem["id"], status="draft"))
    refused(ep, "submit_application", "rule_violation", "application_id", application_id=late["id"])


def test_closed_programs_take_no_applications_and_programs_need_a_sane_largest_award(ep: Episode) -> None:
    arts = program(ep, "Arts Micro-grants 2025")
    org = POP.customers[-1]
    person = POP.first_contact(org)
    assert person is not None
    refused(
        ep,
        "create_application",
        "rule_violation",
        "program_id",
        program_id=arts["id"],
        organization_name=org.name,
        contact_name=person.name,
        contact_email=person.email,
        title="Mural",
        summary="",
        requested_cents=100_000,
    )
    officer = POP.employees[0].email
    refused(
        ep,
        "create_program",
        "rule_violation",
        "max_award_cents",
        name="Tiny fund",
        officer_email=officer,
        budget_cents=1_000,
        max_award_cents=2_000,
        deadline=TODAY.isoformat(),
    )
    fresh = ok(
        ep,
        "create_program",
        name="Tiny fund",
        officer_email=officer,
        budget_cents=1_000_000,
        max_award_cents=200_000,
        deadline=TODAY.isoformat(),
    )
    assert ok(ep, "close_program", program_id=fresh["id"])["status"] == "closed"


def test_nobody_reviews_their_own_organisations_application(ep: Episode) -> None:
    apps = every(ep, "list_applications", status="under_review")
    by_email = {r["email"]: r for r in every(ep, "list_reviewers")}
    own = next(a for a in apps if a["contact_email"] in by_email)
    conflicted = by_email[own["contact_email"]]
    refused(
        ep, "assign_reviewer", "rule_violation", "reviewer_id", application_id=own["id"], reviewer_id=conflicted["id"]
    )
    taken = {r["reviewer_id"] for r in every(ep, "list_reviews", application_id=own["id"])}
    free = next(
        r for r in by_email.values() if r["id"] not in taken and r["organization_name"] != own["organization_name"]
    )
    review = ok(ep, "assign_reviewer", application_id=own["id"], reviewer_id=free["id"])
    assert (review["status"], review["reviewer_email"]) == ("assigned", free["email"])
    refused(ep, "assign_reviewer", "conflict", "reviewer_id", application_id=own["id"], reviewer_id=free["id"])
    waiting = every(ep, "list_applications", status="submitted")[0]
    refused(
        ep, "assign_reviewer", "rule_violation", "application_id", application_id=waiting["id"], reviewer_id=free["id"]
    )


def test_a_reviewer_scores_once_from_one_to_ten(ep: Episode) -> None:
    review = every(ep, "list_reviews", status="assigned")[0]
    refused(ep, "submit_score", "invalid_arguments", "score", review_id=review["id"], score=11)
    scored = ok(ep, "submit_score", review_id=review["id"], score=7, comment="Good reach")
    assert (scored["status"], scored["score"]) == ("completed", 7)
    refused(ep, "submit_score", "conflict", "review_id", review_id=review["id"], score=8)


def test_an_award_needs_two_completed_reviews_and_stays_within_request_and_budget(ep: Episode) -> None:
    thin = reviewed(ep, 1)
    refused(ep, "award_application", "rule_violation", "application_id", application_id=thin["id"], amount_cents=1000)
    ready = reviewed(ep, 2)
    refused(
        ep,
        "award_application",
        "rule_violation",
        "amount_cents",
        application_id=ready["id"],
        amount_cents=ready["requested_cents"] + 1,
    )
    awarded = ok(ep, "award_application", application_id=ready["id"], amount_cents=ready["requested_cents"], tranches=3)
    assert (awarded["status"], awarded["awarded_cents"]) == ("awarded", ready["requested_cents"])
    parts = every(ep, "list_tranches", application_id=ready["id"])
    assert [t["amount_cents"] for t in parts] == split(ready["requested_cents"], 3)
    assert parts[0]["due_on"] == TODAY.isoformat() and parts[0]["payee_name"] == ready["organization_name"]
    refused(ep, "award_application", "rule_violation", "application_id", application_id=ready["id"], amount_cents=1)


def test_awards_cannot_exceed_the_programs_remaining_budget(ep: Episode) -> None:
    fund = program(ep, "Community Innovation Fund")
    left = ok(ep, "program_budget", program_id=fund["id"])["remaining_cents"]
    reviewers = every(ep, "list_reviewers")
    last = None
    k = 0
    while left > 0:
        ask = min(fund["max_award_cents"], left)
        app = draft(ep, fund, fund["max_award_cents"], k=k % 3)
        ok(ep, "submit_application", application_id=app["id"])
        ok(ep, "review_application", application_id=app["id"])
        for r in [r for r in reviewers if r["organization_name"] != app["organization_name"]][:2]:
            review = ok(ep, "assign_reviewer", application_id=app["id"], reviewer_id=r["id"])
            ok(ep, "submit_score", review_id=review["id"], score=9)
        if ask < fund["max_award_cents"]:
            refused(
                ep,
                "award_application",
                "rule_violation",
                "amount_cents",
                application_id=app["id"],
                amount_cents=ask + 1,
            )
        ok(ep, "award_application", application_id=app["id"], amount_cents=ask)
        left -= ask
        last = app
        k += 1
    assert last is not None
    assert ok(ep, "program_budget", program_id=fund["id"])["remaining_cents"] == 0


def test_tranches_are_paid_in_order(ep: Episode) -> None:
    for t in every(ep, "list_tranches", status="scheduled"):
        siblings = {e["number"]: e for e in every(ep, "list_tranches", application_id=t["application_id"])}
        if t["number"] > 1 and siblings[t["number"] - 1]["status"] == "scheduled":
            blocked, before = t, siblings[t["number"] - 1]
            break
    else:
        raise AssertionError("no tranche waiting on an earlier one")
    refused(ep, "pay_tranche", "rule_violation", "tranche_id", tranche_id=blocked["id"])
    if before["number"] > 1:
        assert siblings[before["number"] - 1]["status"] == "paid"
    assert ok(ep, "pay_tranche", tranche_id=before["id"])["status"] == "paid"
    refused(ep, "pay_tranche", "conflict", "tranche_id", tranche_id=before["id"])
    paid = ok(ep, "pay_tranche", tranche_id=blocked["id"])
    assert (paid["status"], paid["paid_on"]) == ("paid", TODAY.isoformat())


def test_declining_ends_the_review_and_the_budget_counts_applications(ep: Episode) -> None:
    app = every(ep, "list_applications", status="under_review")[0]
    prog_before = ok(ep, "program_budget", program_id=app["program_id"])
    assert ok(ep, "decline_application", application_id=app["id"])["status"] == "declined"
    refused(ep, "review_application", "rule_violation", "application_id", application_id=app["id"])
    after = ok(ep, "program_budget", program_id=app["program_id"])
    assert after["applications_by_status"]["declined"] == prog_before["applications_by_status"].get("declined", 0) + 1
    assert after["remaining_cents"] == prog_before["remaining_cents"]
