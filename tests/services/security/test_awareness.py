"""Lighthouse Awareness: groups, campaign enrollment and scoring, closing, phishing tests and their event order."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

AW = ServiceTools("awareness")
WORLD = AW.world
ok, refused, every = AW.ok, AW.refused, AW.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def group(ep: Episode, name: str) -> dict[str, Any]:
    return next(g for g in every(ep, "list_groups") if g["name"] == name)


def campaign(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_campaigns", status=status)[0]


def pst(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_phishing_tests", status=status)[0]


def test_seeded_users_are_the_staff_in_their_department_groups(ep: Episode) -> None:
    staff = {p.email: p for p in POP.employees}
    users = every(ep, "list_users")
    assert {u["email"] for u in users} == set(staff)
    for u in users:
        assert u["name"] == staff[u["email"]].name
        assert group(ep, staff[u["email"]].department or "General")["id"] in u["group_ids"]
    archived = {u["id"] for u in every(ep, "list_users", status="archived")}
    assert archived
    for e in every(ep, "list_enrollments") + every(ep, "list_recipients"):
        assert e["user_id"] not in archived


def test_groups_have_unique_names_and_take_active_users_once(ep: Episode) -> None:
    refused(ep, "create_group", "conflict", "name", name="All staff")
    fresh = ok(ep, "create_group", name="Executives")
    user = every(ep, "list_users", status="active")[0]
    assert fresh["id"] in ok(ep, "add_user_to_group", group_id=fresh["id"], user_id=user["id"])["group_ids"]
    refused(ep, "add_user_to_group", "conflict", "user_id", group_id=fresh["id"], user_id=user["id"])
    gone = every(ep, "list_users", status="archived")[0]
    refused(ep, "add_user_to_group", "rule_violation", "user_id", group_id=fresh["id"], user_id=gone["id"])


def test_starting_a_campaign_enrolls_active_group_members_once(ep: Episode) -> None:
    camp = campaign(ep, "created")
    started = ok(ep, "start_campaign", campaign_id=camp["id"])
    assert started["status"] == "in_progress"
    enrolled = [e["user_id"] for e in every(ep, "list_enrollments", campaign_id=camp["id"])]
    assert sorted(enrolled) == sorted(u["id"] for u in every(ep, "list_users", status="active"))
    refused(ep, "start_campaign", "conflict", "campaign_id", campaign_id=camp["id"])
    empty = ok(ep, "create_group", name="Contractors")
    day = (TODAY + dt.timedelta(days=30)).isoformat()
    lonely = ok(ep, "create_campaign", name="Contractor basics", module="Basics", group_ids=[empty["id"]], due_date=day)
    refused(ep, "start_campaign", "rule_violation", "campaign_id", campaign_id=lonely["id"])
    late = ok(ep, "create_campaign", name="Late", module="Basics", group_ids=[empty["id"]], due_date=TODAY.isoformat())
    refused(ep, "start_campaign", "rule_violation", "campaign_id", campaign_id=late["id"])
    refused(
        ep, "create_campaign", "rule_violation", "group_ids", name="None", module="Basics", group_ids=[], due_date=day
    )


def test_a_score_below_the_passing_score_is_only_an_attempt(ep: Episode) -> None:
    camp = campaign(ep, "in_progress")
    e = every(ep, "list_enrollments", campaign_id=camp["id"], status="not_started")[0]
    low = ok(ep, "record_training_score", enrollment_id=e["id"], score=camp["passing_score"] - 1)
    assert (low["status"], low["attempts"], low["completed_at"]) == ("in_progress", 1, None)
    high = ok(ep, "record_training_score", enrollment_id=e["id"], score=camp["passing_score"])
    assert (high["status"], high["attempts"], high["score"]) == ("passed", 2, camp["passing_score"])
    refused(ep, "record_training_score", "conflict", "enrollment_id", enrollment_id=e["id"], score=100)


def test_closing_a_campaign_makes_unfinished_enrollments_past_due(ep: Episode) -> None:
    camp = campaign(ep, "in_progress")
    before = every(ep, "list_enrollments", campaign_id=camp["id"])
    ok(ep, "close_campaign", campaign_id=camp["id"])
    after = {e["id"]: e["status"] for e in every(ep, "list_enrollments", campaign_id=camp["id"])}
    for e in before:
        assert after[e["id"]] == ("passed" if e["status"] == "passed" else "past_due")
    pending = next(e for e in before if e["status"] != "passed")
    refused(ep, "record_training_score", "rule_violation", "enrollment_id", enrollment_id=pending["id"], score=95)


def test_launching_a_phishing_test_delivers_it_to_active_members(ep: Episode) -> None:
    test = pst(ep, "scheduled")
    assert ok(ep, "launch_phishing_test", pst_id=test["id"])["status"] == "running"
    got = every(ep, "list_recipients", pst_id=test["id"])
    assert len(got) == len(every(ep, "list_users", status="active"))
    assert all(r["opened_at"] is None and r["delivered_at"] for r in got)
    refused(ep, "launch_phishing_test", "conflict", "pst_id", pst_id=test["id"])


def test_phishing_events_follow_the_emails_path_once_each(ep: Episode) -> None:
    running = pst(ep, "running")
    fresh = next(r for r in every(ep, "list_recipients", pst_id=running["id"]) if r["opened_at"] is None)
    refused(ep, "record_phish_event", "rule_violation", "event", recipient_id=fresh["id"], event="clicked")
    ok(ep, "record_phish_event", recipient_id=fresh["id"], event="opened")
    refused(ep, "record_phish_event", "rule_violation", "event", recipient_id=fresh["id"], event="data_entered")
    ok(ep, "record_phish_event", recipient_id=fresh["id"], event="clicked")
    refused(ep, "record_phish_event", "conflict", "event", recipient_id=fresh["id"], event="clicked")
    done = ok(ep, "record_phish_event", recipient_id=fresh["id"], event="data_entered")
    assert done["opened_at"] and done["clicked_at"] and done["data_entered_at"]
    closed = pst(ep, "closed")
    old = every(ep, "list_recipients", pst_id=closed["id"])[0]
    refused(ep, "record_phish_event", "rule_violation", "recipient_id", recipient_id=old["id"], event="reported")


def test_phish_prone_percentage_is_clicks_over_deliveries(ep: Episode) -> None:
    rows = every(ep, "list_recipients")
    active = {u["id"] for u in every(ep, "list_users", status="active")}
    mine = [r for r in rows if r["user_id"] in active]
    report = ok(ep, "phish_prone_report")
    expected = round(100 * sum(r["clicked_at"] is not None for r in mine) / len(mine), 1)
    assert report["phish_prone_percentage"] == expected and report["users"] == len(active)
    top = report["riskiest"][0]
    own = [r for r in rows if r["user_id"] == top["user_id"]]
    assert top["phish_prone_percentage"] == round(100 * sum(r["clicked_at"] is not None for r in own) / len(own), 1)
    grp = group(ep, POP.employees[0].department or "General")
    assert ok(ep, "phish_prone_report", group_id=grp["id"])["users"] <= report["users"]
