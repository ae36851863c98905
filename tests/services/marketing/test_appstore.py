"""Launchpad Connect: version numbering, review submission rules, release and phased rollout, TestFlight, reviews."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ASC = ServiceTools("appstore")
WORLD = ASC.world
ok, refused, every, first = ASC.ok, ASC.refused, ASC.every, ASC.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def app(ep: Episode, suffix: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_apps") if a["bundle_id"].endswith("." + suffix))


def version(ep: Episode, suffix: str, state: str) -> dict[str, Any]:
    return first(ep, "versions", app_id=app(ep, suffix)["id"], app_store_state=state)


def test_apps_belong_to_the_home_company_and_testers_to_the_world(ep: Episode) -> None:
    reversed_domain = ".".join(reversed(POP.home.domain.split(".")))
    for a in every(ep, "list_apps"):
        assert a["bundle_id"].startswith(reversed_domain) and a["name"].startswith(POP.home.name)
    people = {p.email for p in POP.people}
    internal = {g["id"] for g in every(ep, "list_beta_groups", is_internal=True)}
    for t in every(ep, "list_beta_testers"):
        assert t["email"] in people
        if set(t["group_ids"]) & internal:
            assert t["email"] in STAFF


def test_a_new_version_must_be_higher_and_alone_in_the_works(ep: Episode) -> None:
    refused(ep, "create_version", "conflict", "app_id", app_id=app(ep, "app")["id"], version_string="9.0")
    wallet = app(ep, "wallet")["id"]
    refused(ep, "create_version", "rule_violation", "version_string", app_id=wallet, version_string="1.1.9")
    refused(ep, "create_version", "rule_violation", "version_string", app_id=wallet, version_string="1.2.0")
    made = ok(ep, "create_version", app_id=wallet, version_string="1.3")
    assert (made["app_store_state"], made["build_id"]) == ("PREPARE_FOR_SUBMISSION", None)
    refused(ep, "create_version", "conflict", "app_id", app_id=wallet, version_string="1.4")


def test_a_first_submission_needs_a_matching_build_with_export_compliance(ep: Episode) -> None:
    v = version(ep, "kiosk", "PREPARE_FOR_SUBMISSION")
    refused(ep, "submit_for_review", "rule_violation", "version_id", version_id=v["id"])
    other = first(ep, "builds", app_id=app(ep, "wallet")["id"])
    refused(ep, "attach_build", "rule_violation", "build_id", version_id=v["id"], build_id=other["id"])
    build = first(ep, "builds", app_id=v["app_id"], version=v["version_string"])
    ok(ep, "attach_build", version_id=v["id"], build_id=build["id"])
    refused(ep, "submit_for_review", "rule_violation", "version_id", version_id=v["id"])
    ok(ep, "update_build", build_id=build["id"], uses_non_exempt_encryption=False)
    sent = ok(ep, "submit_for_review", version_id=v["id"])
    assert sent["app_store_state"] == "WAITING_FOR_REVIEW"
    refused(ep, "update_version", "rule_violation", "version_id", version_id=v["id"], whats_new="x")
    assert ok(ep, "cancel_submission", version_id=v["id"])["app_store_state"] == "DEVELOPER_REJECTED"
    assert ok(ep, "update_version", version_id=v["id"], whats_new="First release")["whats_new"] == "First release"


def test_an_update_needs_release_notes_and_a_schedule_needs_a_date(ep: Episode) -> None:
    v = version(ep, "field", "REJECTED")
    assert v["rejection_reason"]
    ok(ep, "update_version", version_id=v["id"], whats_new="   ")
    refused(ep, "submit_for_review", "rule_violation", "version_id", version_id=v["id"])
    refused(
        ep, "update_version", "rule_violation", "earliest_release_date", version_id=v["id"], release_type="SCHEDULED"
    )
    ok(ep, "update_version", version_id=v["id"], whats_new="Fixes the iPad crash.")
    done = ok(ep, "submit_for_review", version_id=v["id"])
    assert (done["app_store_state"], done["rejection_reason"]) == ("WAITING_FOR_REVIEW", "")


def test_releasing_replaces_the_live_version_and_starts_the_phased_rollout(ep: Episode) -> None:
    pending = version(ep, "app", "PENDING_DEVELOPER_RELEASE")
    live = version(ep, "app", "READY_FOR_SALE")
    released = ok(ep, "release_version", version_id=pending["id"])
    assert released["app_store_state"] == "READY_FOR_SALE" and released["released_at"]
    assert ok(ep, "get_version", version_id=live["id"])["app_store_state"] == "REPLACED_WITH_NEW_VERSION"
    [phase] = every(ep, "list_phased_releases", version_id=pending["id"])
    assert (phase["state"], phase["current_day_number"]) == ("ACTIVE", 1)
    refused(ep, "release_version", "rule_violation", "version_id", version_id=pending["id"])
    refused(ep, "create_phased_release", "rule_violation", "version_id", version_id=pending["id"])


def test_a_phased_release_pauses_resumes_and_completes(ep: Episode) -> None:
    active = first(ep, "phased_releases", state="ACTIVE")
    assert ok(ep, "pause_phased_release", phased_release_id=active["id"])["state"] == "PAUSED"
    assert ok(ep, "resume_phased_release", phased_release_id=active["id"])["state"] == "ACTIVE"
    done = ok(ep, "complete_phased_release", phased_release_id=active["id"])
    assert (done["state"], done["current_day_number"]) == ("COMPLETE", 7)
    refused(ep, "pause_phased_release", "rule_violation", "phased_release_id", phased_release_id=active["id"])
    kiosk = version(ep, "kiosk", "PREPARE_FOR_SUBMISSION")
    assert ok(ep, "create_phased_release", version_id=kiosk["id"])["state"] == "INACTIVE"
    refused(ep, "create_phased_release", "conflict", "version_id", version_id=kiosk["id"])


def test_external_groups_only_test_builds_approved_by_beta_review(ep: Episode) -> None:
    main = app(ep, "app")["id"]
    groups = {g["name"]: g for g in every(ep, "list_beta_groups", app_id=main)}
    fresh = first(ep, "builds", app_id=main, beta_review_state="NOT_SUBMITTED", expired=False)
    refused(
        ep,
        "add_build_to_group",
        "rule_violation",
        "build_id",
        beta_group_id=groups["Public beta"]["id"],
        build_id=fresh["id"],
    )
    assert (
        fresh["id"]
        in ok(ep, "add_build_to_group", beta_group_id=groups["Team"]["id"], build_id=fresh["id"])["build_ids"]
    )
    refused(ep, "add_build_to_group", "conflict", "build_id", beta_group_id=groups["Team"]["id"], build_id=fresh["id"])
    assert ok(ep, "submit_beta_review", build_id=fresh["id"])["beta_review_state"] == "WAITING_FOR_REVIEW"
    refused(ep, "submit_beta_review", "conflict", "build_id", build_id=fresh["id"])
    old = first(ep, "builds", app_id=main, expired=True)
    refused(
        ep, "add_build_to_group", "rule_violation", "build_id", beta_group_id=groups["Team"]["id"], build_id=old["id"]
    )
    ok(ep, "expire_build", build_id=fresh["id"])
    refused(ep, "submit_beta_review", "rule_violation", "build_id", build_id=fresh["id"])


def test_internal_groups_take_team_members_and_testers_join_once(ep: Episode) -> None:
    team = first(ep, "beta_groups", is_internal=True)
    public = first(ep, "beta_groups", is_internal=False, app_id=team["app_id"])
    outsider = POP.consumers[-1].email
    refused(ep, "invite_beta_tester", "rule_violation", "email", beta_group_id=team["id"], email=outsider)
    tester = ok(ep, "invite_beta_tester", beta_group_id=public["id"], email=outsider)
    assert (tester["group_ids"], tester["state"]) == ([public["id"]], "INVITED")
    refused(ep, "invite_beta_tester", "conflict", "email", beta_group_id=public["id"], email=outsider)
    staff = POP.employees[-1].email
    both = ok(ep, "invite_beta_tester", beta_group_id=team["id"], email=staff)
    assert ok(ep, "invite_beta_tester", beta_group_id=public["id"], email=staff)["group_ids"] == [
        team["id"],
        public["id"],
    ]
    assert ok(ep, "remove_beta_tester", beta_group_id=team["id"], beta_tester_id=both["id"])["group_ids"] == [
        public["id"]
    ]
    refused(
        ep, "remove_beta_tester", "rule_violation", "beta_group_id", beta_group_id=team["id"], beta_tester_id=both["id"]
    )


def test_a_review_has_one_response_that_can_be_replaced_or_deleted(ep: Episode) -> None:
    answered = first(ep, "customer_reviews", response_state="PUBLISHED")
    assert answered["rating"] <= 2
    bad = next(r for r in every(ep, "list_customer_reviews") if r["response_state"] is None)
    first_reply = ok(ep, "respond_to_review", customer_review_id=bad["id"], response_body="Sorry! Fixed in 2.4.")
    assert first_reply["response_state"] == "PENDING_PUBLISH"
    again = ok(ep, "respond_to_review", customer_review_id=bad["id"], response_body="Update: fixed in 2.4.1.")
    assert again["response_body"] == "Update: fixed in 2.4.1."
    refused(
        ep, "respond_to_review", "rule_violation", "response_body", customer_review_id=bad["id"], response_body="  "
    )
    gone = ok(ep, "delete_review_response", customer_review_id=bad["id"])
    assert (gone["response_body"], gone["response_state"]) == (None, None)
    refused(ep, "delete_review_response", "rule_violation", "customer_review_id", customer_review_id=bad["id"])
