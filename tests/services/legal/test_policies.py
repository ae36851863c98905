"""Rulebook: policy creation, review by approvers, publication with attestations, revisions, retirement."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PO = ServiceTools("policies")
WORLD = PO.world
ok, refused, every = PO.ok, PO.refused, PO.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]


def policy(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_policies", status=status)[0]


def approvers(owner: str) -> list[str]:
    return [e for e in STAFF if e != owner][:2]


def test_seeded_owners_and_attesters_are_employees(ep: Episode) -> None:
    for p in every(ep, "list_policies"):
        assert p["owner_email"] in STAFF
    for a in every(ep, "list_attestations"):
        assert a["employee_email"] in STAFF
    assert {p["status"] for p in every(ep, "list_policies")} == {"draft", "in_review", "published", "retired"}


def test_create_policy_refuses_duplicates_and_outsiders(ep: Episode) -> None:
    p = policy(ep, "published")
    refused(
        ep, "create_policy", "conflict", "title", title=p["title"], department="Legal", owner_email=STAFF[0], body="x"
    )
    refused(
        ep,
        "create_policy",
        "rule_violation",
        "owner_email",
        title="New",
        department="Legal",
        owner_email="a@b.example",
        body="x",
    )
    made = ok(ep, "create_policy", title="New", department="Legal", owner_email=STAFF[0], body="Text")
    assert [v["number"] for v in every(ep, "list_versions", policy_id=made["id"])] == [1]


def test_the_owner_cannot_approve_and_approvers_are_listed_once(ep: Episode) -> None:
    p = policy(ep, "draft")
    refused(
        ep,
        "submit_for_review",
        "rule_violation",
        "approver_emails",
        policy_id=p["id"],
        approver_emails=[p["owner_email"]],
    )
    other = approvers(p["owner_email"])[0]
    refused(
        ep, "submit_for_review", "rule_violation", "approver_emails", policy_id=p["id"], approver_emails=[other, other]
    )
    assert ok(ep, "submit_for_review", policy_id=p["id"], approver_emails=[other])["status"] == "in_review"
    refused(ep, "submit_for_review", "conflict", "policy_id", policy_id=p["id"], approver_emails=[other])


def test_full_lifecycle_publishes_and_assigns_attestations(ep: Episode) -> None:
    p = policy(ep, "draft")
    ok(ep, "submit_for_review", policy_id=p["id"], approver_emails=approvers(p["owner_email"]))
    refused(ep, "publish_policy", "conflict", "policy_id", policy_id=p["id"])
    v = every(ep, "list_versions", policy_id=p["id"])[0]
    for a in every(ep, "list_approvals", version_id=v["id"]):
        ok(ep, "decide_approval", approval_id=a["id"], decision="approved")
    pub = ok(ep, "publish_policy", policy_id=p["id"])
    assert (pub["status"], pub["current_version"]) == ("published", 1) and pub["next_review_on"]
    pending = every(ep, "list_attestations", policy_id=p["id"], status="pending")
    assert pending
    done = ok(ep, "attest", attestation_id=pending[0]["id"])
    assert done["status"] == "attested"
    refused(ep, "attest", "conflict", "attestation_id", attestation_id=pending[0]["id"])


def test_a_rejection_needs_a_comment_and_returns_the_draft(ep: Episode) -> None:
    p = policy(ep, "in_review")
    a = every(ep, "list_approvals", decision="pending")[0]
    refused(ep, "decide_approval", "rule_violation", "comment", approval_id=a["id"], decision="rejected")
    ok(ep, "decide_approval", approval_id=a["id"], decision="rejected", comment="Section 3 is unclear.")
    v = ok(ep, "get_version", version_id=a["version_id"])
    assert v["status"] == "draft"
    assert ok(ep, "get_policy", policy_id=v["policy_id"])["status"] == "draft"
    refused(ep, "decide_approval", "conflict", "approval_id", approval_id=a["id"], decision="approved")
    assert p["status"] == "in_review"


def test_a_revision_supersedes_the_old_version_and_reassigns_attestations(ep: Episode) -> None:
    p = policy(ep, "published")
    v2 = ok(ep, "revise_policy", policy_id=p["id"], body="New text", change_summary="Tightened rules")
    assert v2["number"] == 2
    refused(ep, "revise_policy", "conflict", "policy_id", policy_id=p["id"], body="x", change_summary="y")
    ok(ep, "submit_for_review", policy_id=p["id"], approver_emails=approvers(p["owner_email"])[:1])
    a = every(ep, "list_approvals", version_id=v2["id"])[0]
    ok(ep, "decide_approval", approval_id=a["id"], decision="approved")
    assert ok(ep, "publish_policy", policy_id=p["id"])["current_version"] == 2
    assert [v["status"] for v in every(ep, "list_versions", policy_id=p["id"], number=1)] == ["superseded"]
    assert not every(ep, "list_attestations", policy_id=p["id"], version=1, status="pending")
    assert every(ep, "list_attestations", policy_id=p["id"], version=2, status="pending")


def test_retiring_cancels_pending_attestations(ep: Episode) -> None:
    p = next(
        x
        for x in every(ep, "list_policies", status="published")
        if every(ep, "list_attestations", policy_id=x["id"], status="pending")
    )
    assert ok(ep, "retire_policy", policy_id=p["id"])["status"] == "retired"
    assert not every(ep, "list_attestations", policy_id=p["id"], status="pending")
    refused(ep, "change_owner", "conflict", "policy_id", policy_id=p["id"], owner_email=STAFF[1])


def test_summary_and_review_schedule(ep: Episode) -> None:
    p = policy(ep, "published")
    s = ok(ep, "attestation_summary", policy_id=p["id"])
    rows = every(ep, "list_attestations", policy_id=p["id"], version=p["current_version"])
    assert s["attested"] + s["pending"] == len(rows)
    due = ok(ep, "due_for_review", within_days=365)
    assert {d["id"] for d in due} <= {x["id"] for x in every(ep, "list_policies", status="published")}
    assert due
