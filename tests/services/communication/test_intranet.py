"""Hearth: audiences by department, the post lifecycle, required reads and acknowledgements, comments, analytics."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

NET = ServiceTools("intranet")
WORLD = NET.world
ok, refused, every = NET.ok, NET.refused, NET.every
POP = WORLD.population
STAFF = [p.email for p in POP.employees]
DEPT = {p.email: p.department for p in POP.employees}
ME = STAFF[0]
TODAY = WORLD.epoch.date()


def post(ep: Episode, title: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_posts") if p["title"] == title)


def everyone(ep: Episode) -> str:
    return str(next(a for a in every(ep, "list_audiences") if not a["departments"])["id"])


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def test_seeded_reads_and_acks_come_from_each_posts_audience(ep: Episode) -> None:
    auds = {a["id"]: a for a in every(ep, "list_audiences")}
    for p in every(ep, "list_posts"):
        assert p["author_email"] in STAFF
        depts = {d for a in p["audience_ids"] for d in auds[a]["departments"]}
        empty = any(not auds[a]["departments"] for a in p["audience_ids"])
        for r in every(ep, "list_reads", post_id=p["id"]):
            assert empty or DEPT[r["employee_email"]] in depts
            assert r["acknowledged_at"] is None or p["required_read"]
    assert {p["status"] for p in every(ep, "list_posts")} == {"draft", "scheduled", "published", "archived"}


def test_a_post_needs_an_audience_and_a_required_read_needs_a_due_date(ep: Episode) -> None:
    base = {"title": "Hello", "body": "Hi", "author_email": ME}
    refused(ep, "create_post", "rule_violation", "audience_ids", audience_ids=[], **base)
    refused(
        ep, "create_post", "rule_violation", "acknowledge_by", audience_ids=[everyone(ep)], required_read=True, **base
    )
    refused(
        ep,
        "create_post",
        "rule_violation",
        "author_email",
        audience_ids=[everyone(ep)],
        **(base | {"author_email": "x@y.io"}),
    )
    made = ok(ep, "create_post", audience_ids=[everyone(ep)], required_read=True, acknowledge_by=day(7), **base)
    assert made["status"] == "draft"


def test_posts_are_scheduled_in_the_future_published_once_and_archived(ep: Episode) -> None:
    p = ok(
        ep,
        "create_post",
        title="Launch",
        body="News",
        author_email=ME,
        audience_ids=[everyone(ep)],
        required_read=True,
        acknowledge_by=day(3),
    )
    refused(ep, "schedule_post", "rule_violation", "send_at", post_id=p["id"], send_at=day(-1) + "T09:00:00Z")
    refused(ep, "schedule_post", "rule_violation", "send_at", post_id=p["id"], send_at=day(4) + "T09:00:00Z")
    assert ok(ep, "schedule_post", post_id=p["id"], send_at=day(1) + "T09:00:00Z")["status"] == "scheduled"
    live = ok(ep, "publish_post", post_id=p["id"])
    assert (live["status"], live["scheduled_for"]) == ("published", None) and live["published_at"]
    refused(ep, "publish_post", "rule_violation", "post_id", post_id=p["id"])
    assert ok(ep, "archive_post", post_id=p["id"])["status"] == "archived"
    refused(ep, "update_post", "rule_violation", "post_id", post_id=p["id"], title="Edited")


def test_only_the_audience_reads_and_each_reads_once(ep: Episode) -> None:
    p = post(ep, "Security training is due")
    auds = {a["id"]: a for a in every(ep, "list_audiences")}
    depts = set(auds[p["audience_ids"][0]]["departments"])
    outsider = next(e for e in STAFF if DEPT[e] not in depts)
    refused(ep, "mark_read", "rule_violation", "employee_email", post_id=p["id"], employee_email=outsider)
    already = every(ep, "list_reads", post_id=p["id"])[0]["employee_email"]
    refused(ep, "mark_read", "conflict", "employee_email", post_id=p["id"], employee_email=already)
    draft = post(ep, "Team spotlight")
    refused(ep, "mark_read", "rule_violation", "post_id", post_id=draft["id"], employee_email=ME)


def test_acknowledging_a_required_read_once_and_analytics_follow(ep: Episode) -> None:
    p = post(ep, "Updated code of conduct")
    before = ok(ep, "post_analytics", post_id=p["id"])
    assert before["reach"] == len(STAFF)
    who = before["missing_acknowledgements"][0]
    read = ok(ep, "acknowledge_post", post_id=p["id"], employee_email=who)
    assert read["acknowledged_at"] is not None
    refused(ep, "acknowledge_post", "conflict", "employee_email", post_id=p["id"], employee_email=who)
    after = ok(ep, "post_analytics", post_id=p["id"])
    assert after["acknowledged"] == before["acknowledged"] + 1
    assert who not in after["missing_acknowledgements"]
    assert after["acknowledgement_rate"] == round(after["acknowledged"] / after["reach"], 4)
    plain = post(ep, "Welcome to our new intranet")
    refused(ep, "acknowledge_post", "rule_violation", "post_id", post_id=plain["id"], employee_email=who)


def test_a_required_read_past_its_date_is_overdue(ep: Episode) -> None:
    p = post(ep, "Security training is due")
    stats = ok(ep, "post_analytics", post_id=p["id"])
    assert stats["overdue"] is True and stats["missing_acknowledgements"]
    assert ok(ep, "post_analytics", post_id=post(ep, "Updated code of conduct")["id"])["overdue"] is False


def test_comments_need_a_published_post_with_comments_on(ep: Episode) -> None:
    p = post(ep, "Welcome to our new intranet")
    c = ok(ep, "add_comment", post_id=p["id"], author_email=ME, body="Great!")
    assert c["post_id"] == p["id"]
    refused(ep, "add_comment", "rule_violation", "body", post_id=p["id"], author_email=ME, body="  ")
    ok(ep, "update_post", post_id=p["id"], comments_enabled=False)
    refused(ep, "add_comment", "rule_violation", "post_id", post_id=p["id"], author_email=ME, body="More")
    archived = post(ep, "Office closed on Friday")
    refused(ep, "add_comment", "rule_violation", "post_id", post_id=archived["id"], author_email=ME, body="x")


def test_audiences_name_real_departments_and_stay_while_targeted(ep: Episode) -> None:
    refused(ep, "create_audience", "rule_violation", "departments", name="Ghosts", departments=["Nowhere"])
    refused(ep, "create_audience", "conflict", "name", name="All employees")
    dept = next(d for d in DEPT.values() if d)
    assert ok(ep, "create_audience", name="Mine", departments=[dept])["departments"] == [dept]
    refused(ep, "delete_audience", "rule_violation", "audience_id", audience_id=everyone(ep))


def test_campaigns_launch_and_end_in_order_with_valid_dates(ep: Episode) -> None:
    refused(
        ep, "create_campaign", "rule_violation", "ends_on", name="Bad", owner_email=ME, starts_on=day(5), ends_on=day(1)
    )
    c = ok(ep, "create_campaign", name="Launch week", owner_email=ME, starts_on=day(1), ends_on=day(8))
    refused(ep, "end_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    assert ok(ep, "launch_campaign", campaign_id=c["id"])["status"] == "active"
    assert ok(ep, "end_campaign", campaign_id=c["id"])["status"] == "ended"
    required = [p for p in every(ep, "list_posts") if p["required_read"]]
    assert required and all(p["campaign_id"] for p in required)


def test_page_titles_are_unique(ep: Episode) -> None:
    page = every(ep, "list_pages")[0]
    refused(ep, "create_page", "conflict", "title", title=page["title"], body="x", owner_email=ME)
    made = ok(ep, "create_page", title="Parking", body="Level -2", owner_email=ME, audience_id=everyone(ep))
    refused(ep, "update_page", "conflict", "title", page_id=made["id"], title=page["title"])
