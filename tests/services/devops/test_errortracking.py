"""Tripwire (Sentry-style): grouping by fingerprint, regressions, resolve in release, ignore counts, merges."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ET = ServiceTools("errortracking")
WORLD = ET.world
ok, refused, every, items, first = ET.ok, ET.refused, ET.every, ET.items, ET.first
POP = WORLD.population


def project(ep: Episode, slug: str) -> dict[str, Any]:
    return first(ep, "projects", slug=slug)


def ingest(ep: Episode, issue: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "ingest_event",
            project_id=issue["project_id"],
            exception_type=issue["exception_type"],
            culprit=issue["culprit"],
            message="boom",
            **extra,
        )
    )


# -- the seeded world -----------------------------------------------------------------------


def test_members_are_engineers_and_affected_users_are_customers() -> None:
    ep = Episode(WORLD)
    engineers = {p.email for p in POP.employees if p.department == "Engineering"}
    assert {m["email"] for m in every(ep, "list_members")} == engineers
    assert first(ep, "organizations")["name"] == POP.home.name
    customers = {p.email for p in POP.consumers} | {p.email for p in POP.contacts}
    emails = {e["user_email"] for e in every(ep, "list_events") if e["user_email"]}
    assert emails and emails <= customers


def test_seeded_issue_counts_match_their_events() -> None:
    ep = Episode(WORLD)
    for issue in every(ep, "list_issues"):
        evts = every(ep, "list_events", issue_id=issue["id"])
        assert issue["event_count"] == len(evts)
        assert issue["user_count"] == len({e["user_email"] for e in evts if e["user_email"]})
        if issue["resolved_in_release"]:
            newer = [e for e in evts if e["release"] and e["release"] >= issue["resolved_in_release"]]
            assert newer == []


# -- grouping -------------------------------------------------------------------------------


def test_events_with_the_same_fingerprint_group_into_one_issue(ep: Episode) -> None:
    web = project(ep, "web-app")
    args = dict(project_id=web["id"], exception_type="RangeError", culprit="charts/Plot.draw", message="bad range")
    first_ev = ok(ep, "ingest_event", **args, user_email=POP.consumers[0].email)
    assert first_ev["new_issue"] and first_ev["issue"]["short_id"] == f"WEB-APP-{web['last_issue_number'] + 1}"
    second = ok(ep, "ingest_event", **args, user_email=POP.consumers[1].email)
    third = ok(ep, "ingest_event", **args, user_email=POP.consumers[1].email)
    assert not second["new_issue"] and second["issue"]["id"] == first_ev["issue"]["id"]
    assert (third["issue"]["event_count"], third["issue"]["user_count"]) == (3, 2)
    assert third["issue"]["substatus"] == "ongoing"
    seeded = first(ep, "issues", project_id=web["id"])["permalink"]
    assert first_ev["issue"]["permalink"].rsplit("/issues/", 1)[0] == seeded.rsplit("/issues/", 1)[0]
    users = ok(ep, "affected_users", issue_id=third["issue"]["id"])
    assert users["emails"] == [POP.consumers[1].email, POP.consumers[0].email]


def test_an_event_for_an_unknown_release_is_refused(ep: Episode) -> None:
    web = project(ep, "web-app")
    refused(
        ep,
        "ingest_event",
        "not_found",
        "release",
        project_id=web["id"],
        exception_type="E",
        culprit="x",
        message="m",
        release="9.9.9",
    )


# -- resolve, regress, ignore ---------------------------------------------------------------


def test_an_event_of_a_resolved_issue_reopens_it_as_a_regression(ep: Episode) -> None:
    issue = next(i for i in items(ep, "issues", status="resolved") if i["resolved_in_release"] is None)
    res = ingest(ep, issue)
    assert res["regressed"] and (res["issue"]["status"], res["issue"]["substatus"]) == ("unresolved", "regressed")


def test_resolved_in_a_release_ignores_events_of_older_versions(ep: Episode) -> None:
    issue = next(i for i in items(ep, "issues", status="resolved") if i["resolved_in_release"])
    fixed = issue["resolved_in_release"]
    older = ingest(ep, issue, release=issue["first_release"])
    assert not older["regressed"] and older["issue"]["status"] == "resolved"
    assert older["issue"]["event_count"] == issue["event_count"] + 1
    newer = ingest(ep, issue, release=fixed)
    assert newer["regressed"] and newer["issue"]["resolved_in_release"] is None


def test_resolving_in_the_next_release_uses_the_latest_release(ep: Episode) -> None:
    issue = first(ep, "issues", status="unresolved")
    versions = sorted(
        (r["version"] for r in items(ep, "releases", project_id=issue["project_id"])),
        key=lambda v: tuple(int(x) for x in v.split(".")),
    )
    res = ok(ep, "resolve_issue", issue_id=issue["id"], in_next_release=True)
    assert (res["status"], res["resolved_in_release"]) == ("resolved", versions[-1])
    refused(ep, "resolve_issue", "conflict", "issue_id", issue_id=issue["id"])
    other = items(ep, "issues", status="unresolved")[0]
    refused(ep, "resolve_issue", "not_found", "in_release", issue_id=other["id"], in_release="0.0.1")


def test_an_issue_ignored_until_a_count_comes_back_when_it_is_reached(ep: Episode) -> None:
    issue = first(ep, "issues", status="unresolved")
    ok(ep, "ignore_issue", issue_id=issue["id"], until_count=2)
    once = ingest(ep, issue)
    assert once["issue"]["status"] == "ignored" and not once["unignored"]
    twice = ingest(ep, issue)
    assert twice["unignored"] and (twice["issue"]["status"], twice["issue"]["substatus"]) == (
        "unresolved",
        "escalating",
    )
    resolved = first(ep, "issues", status="resolved")
    refused(ep, "ignore_issue", "rule_violation", "issue_id", issue_id=resolved["id"])


def test_unresolving_reopens_and_clears_the_resolution(ep: Episode) -> None:
    issue = next(i for i in items(ep, "issues", status="resolved") if i["resolved_in_release"])
    res = ok(ep, "unresolve_issue", issue_id=issue["id"])
    assert (res["status"], res["resolved_in_release"]) == ("unresolved", None)
    refused(ep, "unresolve_issue", "conflict", "issue_id", issue_id=issue["id"])


# -- assigning and merging ------------------------------------------------------------------


def test_issues_are_assigned_to_members_only(ep: Episode) -> None:
    issue = first(ep, "issues")
    outsider = next(p.email for p in POP.employees if p.department != "Engineering")
    refused(ep, "assign_issue", "not_found", "assignee_email", issue_id=issue["id"], assignee_email=outsider)
    who = first(ep, "members")["email"]
    assert ok(ep, "assign_issue", issue_id=issue["id"], assignee_email=who)["assignee_email"] == who
    assert ok(ep, "assign_issue", issue_id=issue["id"], assignee_email=None)["assignee_email"] is None


def test_merging_moves_events_and_sums_the_counts(ep: Episode) -> None:
    web = project(ep, "web-app")
    a, b, *_ = items(ep, "issues", project_id=web["id"])
    merged = ok(ep, "merge_issues", primary_issue_id=a["id"], other_issue_ids=[b["id"]])
    assert merged["event_count"] == a["event_count"] + b["event_count"]
    assert len(items(ep, "events", issue_id=a["id"])) == merged["event_count"]
    assert items(ep, "issues", short_id=b["short_id"]) == []
    api = project(ep, "api-server")
    foreign = first(ep, "issues", project_id=api["id"])
    refused(
        ep,
        "merge_issues",
        "rule_violation",
        "other_issue_ids",
        primary_issue_id=a["id"],
        other_issue_ids=[foreign["id"]],
    )
    refused(
        ep, "merge_issues", "rule_violation", "other_issue_ids", primary_issue_id=a["id"], other_issue_ids=[a["id"]]
    )


# -- releases -------------------------------------------------------------------------------


def test_a_release_reaches_production_only_through_staging(ep: Episode) -> None:
    web = project(ep, "web-app")
    who = first(ep, "members")["email"]
    rel = ok(ep, "create_release", project_id=web["id"], version="1.0.9")
    refused(ep, "create_release", "conflict", "version", project_id=web["id"], version="1.0.9")
    refused(
        ep,
        "deploy_release",
        "rule_violation",
        "environment",
        release_id=rel["id"],
        environment="production",
        deployed_by_email=who,
    )
    ok(ep, "deploy_release", release_id=rel["id"], environment="staging", deployed_by_email=who)
    ok(ep, "deploy_release", release_id=rel["id"], environment="production", deployed_by_email=who)
    health = ok(ep, "release_health", release_id=rel["id"])
    assert health["deployed_to"] == ["production", "staging"] and health["events"] == 0
    assert first(ep, "releases", project_id=web["id"], version="1.0.9")["date_released"] is not None


def test_release_health_counts_new_issues_and_their_users(ep: Episode) -> None:
    web = project(ep, "web-app")
    rel = first(ep, "releases", project_id=web["id"], version="1.0.1")
    health = ok(ep, "release_health", release_id=rel["id"])
    new = items(ep, "issues", project_id=web["id"], first_release="1.0.1")
    assert health["new_issues"] == [i["id"] for i in new]
    evts = items(ep, "events", project_id=web["id"], release="1.0.1")
    assert health["events"] == len(evts)
    assert health["affected_users"] == sorted({e["user_email"] for e in evts if e["user_email"]})
