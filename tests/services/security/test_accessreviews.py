"""Recertify: campaign launch snapshots grants, reviewer-only decisions with justification, sign-off, revocations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.org import org_chart
from tests.services.helpers import ServiceTools

AR = ServiceTools("accessreviews")
WORLD = AR.world
ok, refused, every = AR.ok, AR.refused, AR.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
CHART = org_chart(list(POP.employees))


def campaign(ep: Episode, name: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_campaigns") if c["name"] == name)


def app(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_apps", name=name)[0]


def test_seeded_apps_are_owned_by_department_heads_and_grants_by_staff(ep: Episode) -> None:
    heads = {p.email for p in CHART.heads.values()}
    for a in every(ep, "list_apps"):
        assert a["owner_email"] in heads
    for g in every(ep, "list_grants"):
        assert g["user_email"] in STAFF and g["username"] == g["user_email"].split("@")[0]
    assert {c["status"] for c in every(ep, "list_campaigns")} == {"draft", "active", "completed"}


def test_launch_snapshots_every_active_grant_for_a_reviewer_other_than_the_user(ep: Episode) -> None:
    draft = campaign(ep, "Q1 privileged access review")
    launched = ok(ep, "launch_campaign", campaign_id=draft["id"])
    assert launched["status"] == "active"
    found = every(ep, "list_review_items", campaign_id=draft["id"])
    expected = [g for a in draft["app_ids"] for g in every(ep, "list_grants", app_id=a, status="active")]
    assert sorted(i["grant_id"] for i in found) == sorted(g["id"] for g in expected)
    by_email = {p.email: p for p in POP.employees}
    for i in found:
        assert i["reviewer_email"] != i["user_email"]
        boss = CHART.manager_of(by_email[i["user_email"]])
        if boss is not None:
            assert i["reviewer_email"] == boss.email
    refused(ep, "launch_campaign", "conflict", "campaign_id", campaign_id=draft["id"])


def test_campaigns_need_apps_a_future_due_date_and_grants_to_review(ep: Episode) -> None:
    owner = POP.employees[0].email
    wiki, crm = app(ep, "Legacy Wiki"), app(ep, "CRM")
    due = (TODAY + dt.timedelta(days=10)).isoformat()
    refused(ep, "create_campaign", "rule_violation", "app_ids", name="X", app_ids=[], owner_email=owner, due_date=due)
    refused(
        ep,
        "create_campaign",
        "rule_violation",
        "due_date",
        name="X",
        app_ids=[crm["id"]],
        owner_email=owner,
        due_date=TODAY.isoformat(),
    )
    empty = ok(ep, "create_campaign", name="Wiki", app_ids=[wiki["id"]], owner_email=owner, due_date=due)
    refused(ep, "launch_campaign", "rule_violation", "campaign_id", campaign_id=empty["id"])
    ok(ep, "update_campaign", campaign_id=empty["id"], app_ids=[wiki["id"], crm["id"]])
    assert ok(ep, "launch_campaign", campaign_id=empty["id"])["status"] == "active"
    refused(ep, "update_campaign", "conflict", "app_ids", campaign_id=empty["id"], app_ids=[wiki["id"]])
    refused(ep, "delete_campaign", "conflict", "campaign_id", campaign_id=empty["id"])


def test_only_the_assigned_reviewer_decides_and_justifies(ep: Episode) -> None:
    c = campaign(ep, "Q4 SOX access review")
    item = every(ep, "list_review_items", campaign_id=c["id"], decision="pending", privileged=True)[0]
    other = next(e for e in sorted(STAFF) if e not in (item["reviewer_email"], item["user_email"]))
    refused(
        ep,
        "decide_item",
        "rule_violation",
        "reviewer_email",
        item_id=item["id"],
        decision="keep",
        reviewer_email=other,
        comment="ok",
    )
    refused(
        ep,
        "decide_item",
        "rule_violation",
        "comment",
        item_id=item["id"],
        decision="keep",
        reviewer_email=item["reviewer_email"],
    )
    refused(
        ep,
        "decide_item",
        "rule_violation",
        "comment",
        item_id=item["id"],
        decision="revoke",
        reviewer_email=item["reviewer_email"],
        comment="  ",
    )
    kept = ok(
        ep,
        "decide_item",
        item_id=item["id"],
        decision="keep",
        reviewer_email=item["reviewer_email"],
        comment="Release manager",
    )
    assert kept["decision"] == "keep" and kept["decided_at"] is not None
    changed = ok(
        ep,
        "decide_item",
        item_id=item["id"],
        decision="revoke",
        reviewer_email=item["reviewer_email"],
        comment="Moved teams",
    )
    assert changed["decision"] == "revoke"


def test_reassigning_never_gives_users_their_own_access(ep: Episode) -> None:
    c = campaign(ep, "Q4 SOX access review")
    item = every(ep, "list_review_items", campaign_id=c["id"], decision="pending")[0]
    refused(
        ep, "reassign_item", "rule_violation", "reviewer_email", item_id=item["id"], reviewer_email=item["user_email"]
    )
    refused(
        ep, "reassign_item", "conflict", "reviewer_email", item_id=item["id"], reviewer_email=item["reviewer_email"]
    )
    to = next(e for e in sorted(STAFF) if e not in (item["reviewer_email"], item["user_email"]))
    assert ok(ep, "reassign_item", item_id=item["id"], reviewer_email=to)["reviewer_email"] == to
    decided = every(ep, "list_review_items", campaign_id=c["id"], decision="keep")[0]
    refused(ep, "reassign_item", "conflict", "item_id", item_id=decided["id"], reviewer_email=to)


def test_sign_off_needs_every_item_decided_and_the_owner(ep: Episode) -> None:
    half = campaign(ep, "Q4 SOX access review")
    refused(
        ep,
        "sign_off_campaign",
        "rule_violation",
        "campaign_id",
        campaign_id=half["id"],
        signed_off_by=half["owner_email"],
    )
    ready = campaign(ep, "Monitoring tools review")
    other = next(e for e in sorted(STAFF) if e != ready["owner_email"])
    refused(ep, "sign_off_campaign", "rule_violation", "signed_off_by", campaign_id=ready["id"], signed_off_by=other)
    done = ok(ep, "sign_off_campaign", campaign_id=ready["id"], signed_off_by=ready["owner_email"])
    assert done["status"] == "completed" and done["signed_off_at"] is not None
    item = every(ep, "list_review_items", campaign_id=ready["id"])[0]
    refused(
        ep,
        "decide_item",
        "conflict",
        "item_id",
        item_id=item["id"],
        decision="keep",
        reviewer_email=item["reviewer_email"],
        comment="late",
    )
    refused(ep, "cancel_campaign", "rule_violation", "campaign_id", campaign_id=ready["id"])


def test_revocations_open_at_sign_off_and_revoke_the_grant_when_done(ep: Episode) -> None:
    c = campaign(ep, "Monitoring tools review")
    item = every(ep, "list_review_items", campaign_id=c["id"])[0]
    ok(ep, "decide_item", item_id=item["id"], decision="revoke", reviewer_email=item["reviewer_email"], comment="Left")
    assert every(ep, "list_revocation_tasks", campaign_id=c["id"]) == []
    ok(ep, "sign_off_campaign", campaign_id=c["id"], signed_off_by=c["owner_email"])
    task = every(ep, "list_revocation_tasks", campaign_id=c["id"])
    assert [t["grant_id"] for t in task] == [item["grant_id"]] and task[0]["status"] == "open"
    assert task[0]["assignee_email"] == ok(ep, "get_app", app_id=item["app_id"])["owner_email"]
    stranger = next(e for e in sorted(STAFF) if e != task[0]["assignee_email"])
    refused(ep, "complete_revocation", "rule_violation", "completed_by", task_id=task[0]["id"], completed_by=stranger)
    ok(ep, "complete_revocation", task_id=task[0]["id"], completed_by=task[0]["assignee_email"])
    assert ok(ep, "get_grant", grant_id=item["grant_id"])["status"] == "revoked"
    refused(
        ep, "complete_revocation", "conflict", "task_id", task_id=task[0]["id"], completed_by=task[0]["assignee_email"]
    )


def test_progress_counts_decisions_per_reviewer(ep: Episode) -> None:
    c = campaign(ep, "Q4 SOX access review")
    found = every(ep, "list_review_items", campaign_id=c["id"])
    p = ok(ep, "campaign_progress", campaign_id=c["id"])
    assert (p["total"], p["pending"], p["kept"], p["revoked"]) == (
        len(found),
        sum(i["decision"] == "pending" for i in found),
        sum(i["decision"] == "keep" for i in found),
        0,
    )
    assert sum(p["pending_by_reviewer"].values()) == p["pending"] > 0


def test_apps_with_grants_or_open_reviews_stay_and_grants_are_not_duplicated(ep: Episode) -> None:
    crm = app(ep, "CRM")
    refused(ep, "delete_app", "conflict", "app_id", app_id=crm["id"])
    g = every(ep, "list_grants", app_id=crm["id"], status="active")[0]
    refused(
        ep, "grant_access", "conflict", "user_email", entitlement_id=g["entitlement_id"], user_email=g["user_email"]
    )
    refused(ep, "create_app", "conflict", "name", name="CRM", owner_email=crm["owner_email"])
    ok(ep, "delete_app", app_id=app(ep, "Legacy Wiki")["id"])
