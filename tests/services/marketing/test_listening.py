"""Earshot: Boolean queries, mentions and sentiment, tags, alerts to staff, summaries and reports."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

LS = ServiceTools("listening")
WORLD = LS.world
ok, refused, every = LS.ok, LS.refused, LS.every
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in WORLD.population.employees}
ME = WORLD.population.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def test_seeded_queries_are_owned_by_staff_and_mentions_by_world_people(ep: Episode) -> None:
    assert all(q["owner_email"] in STAFF for q in every(ep, "list_queries"))
    names = {p.name for p in WORLD.population.people}
    assert all(a["name"] in names for a in every(ep, "list_authors"))
    assert {m["sentiment"] for m in every(ep, "list_mentions")} == {"positive", "neutral", "negative"}
    for a in every(ep, "list_alerts"):
        assert set(a["recipients"]) <= STAFF


def test_query_strings_must_be_well_formed(ep: Episode) -> None:
    base = {"owner_email": ME}
    refused(ep, "create_query", "rule_violation", "search", name="A", search='("acme" OR acme', **base)
    refused(ep, "create_query", "rule_violation", "search", name="A", search='"acme OR acme', **base)
    refused(ep, "create_query", "rule_violation", "search", name="A", search="acme AND", **base)
    refused(ep, "create_query", "rule_violation", "owner_email", name="A", search="acme", owner_email="x@y.io")
    taken = every(ep, "list_queries")[0]["name"]
    refused(ep, "create_query", "conflict", "name", name=taken, search="acme", **base)
    made = ok(ep, "create_query", name="Launch buzz", search='("acme" OR #acme) NOT jobs', **base)
    assert made["status"] == "active"


def test_tagging_uses_existing_tags_once_and_marks_checked(ep: Episode) -> None:
    m = next(x for x in every(ep, "list_mentions") if not x["tags"])
    refused(ep, "tag_mention", "rule_violation", "tag", mention_id=m["id"], tag="Nope")
    tagged = ok(ep, "tag_mention", mention_id=m["id"], tag="pricing")
    assert tagged["tags"] == ["Pricing"] and tagged["checked"] is True
    refused(ep, "tag_mention", "conflict", "tag", mention_id=m["id"], tag="Pricing")
    refused(ep, "untag_mention", "rule_violation", "tag", mention_id=m["id"], tag="Press")
    assert ok(ep, "untag_mention", mention_id=m["id"], tag="Pricing")["tags"] == []


def test_deleting_a_tag_takes_it_off_every_mention(ep: Episode) -> None:
    tag = every(ep, "list_tags", query="Complaint")[0]
    assert any("Complaint" in m["tags"] for m in every(ep, "list_mentions"))
    refused(ep, "create_tag", "conflict", "name", name="complaint")
    ok(ep, "delete_tag", tag_id=tag["id"])
    assert not any("Complaint" in m["tags"] for m in every(ep, "list_mentions"))


def test_alerts_go_to_staff_with_thresholds_that_fit_their_kind(ep: Episode) -> None:
    q = every(ep, "list_queries")[0]
    base = {"query_id": q["id"], "name": "Watch"}
    refused(ep, "create_alert", "rule_violation", "recipients", kind="keyword", keyword="recall", recipients=[], **base)
    refused(
        ep,
        "create_alert",
        "rule_violation",
        "recipients",
        kind="keyword",
        keyword="recall",
        recipients=["x@agency.io"],
        **base,
    )
    refused(ep, "create_alert", "rule_violation", "keyword", kind="keyword", recipients=[ME], **base)
    refused(
        ep, "create_alert", "rule_violation", "threshold", kind="negative_share", threshold=150, recipients=[ME], **base
    )
    made = ok(ep, "create_alert", kind="volume_spike", threshold=40, recipients=[ME], **base)
    assert ok(ep, "pause_alert", alert_id=made["id"])["status"] == "paused"


def test_a_query_with_active_alerts_is_not_deleted(ep: Episode) -> None:
    q = every(ep, "list_queries", status="active")[0]
    refused(ep, "delete_query", "rule_violation", "query_id", query_id=q["id"])
    for a in every(ep, "list_alerts", query_id=q["id"], status="active"):
        ok(ep, "pause_alert", alert_id=a["id"])
    ok(ep, "delete_query", query_id=q["id"])


def test_summary_counts_sentiment_sources_and_reach(ep: Episode) -> None:
    q = every(ep, "list_queries")[0]
    since = WORLD.epoch - dt.timedelta(days=30)
    found = [
        m
        for m in every(ep, "list_mentions", query_id=q["id"])
        if dt.datetime.fromisoformat(m["published_at"].replace("Z", "+00:00")) >= since
    ]
    summary = ok(ep, "query_summary", query_id=q["id"], days=30)
    assert summary["mentions"] == len(found) > 0
    assert sum(summary["by_sentiment"].values()) == sum(summary["by_source"].values()) == len(found)
    assert summary["total_reach"] == sum(m["reach"] for m in found)
    pos, neg = summary["by_sentiment"]["positive"], summary["by_sentiment"]["negative"]
    assert summary["net_sentiment"] == round(100 * (pos - neg) / len(found))


def test_correcting_sentiment_changes_the_summary(ep: Episode) -> None:
    q = every(ep, "list_queries")[0]
    neg = every(ep, "list_mentions", query_id=q["id"], sentiment="negative")[0]
    before = ok(ep, "query_summary", query_id=q["id"], days=365)["by_sentiment"]
    ok(ep, "update_mention", mention_id=neg["id"], sentiment="positive")
    after = ok(ep, "query_summary", query_id=q["id"], days=365)["by_sentiment"]
    assert (after["negative"], after["positive"]) == (before["negative"] - 1, before["positive"] + 1)


def test_reports_cover_past_periods_and_are_sent_once(ep: Episode) -> None:
    q = every(ep, "list_queries")[0]
    refused(
        ep, "create_report", "rule_violation", "query_ids", name="R", query_ids=[], starts_on=day(-10), ends_on=day(0)
    )
    refused(
        ep,
        "create_report",
        "rule_violation",
        "ends_on",
        name="R",
        query_ids=[q["id"]],
        starts_on=day(-10),
        ends_on=day(5),
    )
    silent = ok(ep, "create_report", name="R", query_ids=[q["id"]], starts_on=day(-10), ends_on=day(0))
    refused(ep, "send_report", "rule_violation", "report_id", report_id=silent["id"])
    rep = ok(
        ep,
        "create_report",
        name="R2",
        query_ids=[q["id"]],
        starts_on=day(-10),
        ends_on=day(0),
        recipients=["cmo@partner.example"],
    )
    assert ok(ep, "send_report", report_id=rep["id"])["status"] == "sent"
    refused(ep, "send_report", "conflict", "report_id", report_id=rep["id"])
