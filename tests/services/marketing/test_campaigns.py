"""Beacon Campaigns: consent states, segments, sending rules, schedules and immutable sent campaigns."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CAMPAIGNS = ServiceTools("campaigns")
WORLD = CAMPAIGNS.world
ok, refused, every = CAMPAIGNS.ok, CAMPAIGNS.refused, CAMPAIGNS.every
POP = WORLD.population


def campaign(ep: Episode, status: str, **extra: Any) -> dict[str, Any]:
    for c in every(ep, "list_campaigns", status=status):
        if all(c[k] == v for k, v in extra.items()):
            return c
    raise AssertionError(f"no {status} campaign with {extra}")


def member(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_members", status=status)[0]


# -- the world ------------------------------------------------------------------------------


def test_members_are_the_population_consumers_and_contacts_in_every_status() -> None:
    ep = Episode(WORLD)
    members = every(ep, "list_members")
    people = {p.email for p in POP.consumers} | {p.email for p in POP.contacts}
    assert {m["email"] for m in members} <= people
    assert {p.email for p in POP.consumers} <= {m["email"] for m in members}
    assert {m["status"] for m in members} == {"subscribed", "unsubscribed", "pending", "cleaned", "transactional"}
    assert {c["status"] for c in every(ep, "list_campaigns")} == {"save", "schedule", "sent", "canceled"}
    for c in every(ep, "list_campaigns", status="sent"):
        report = ok(ep, "get_campaign_report", campaign_id=c["id"])
        assert report["emails_sent"] == c["emails_sent"] > 0


# -- members and consent --------------------------------------------------------------------


def test_adding_to_a_double_opt_in_audience_makes_the_member_pending(ep: Episode) -> None:
    beta = every(ep, "list_audiences", double_optin=True)[0]
    person = next(p for p in POP.consumers if not every(ep, "list_members", audience_id=beta["id"], email=p.email))
    m = ok(ep, "add_member", audience_id=beta["id"], email=person.email, first_name=person.first_name, tags=["beta"])
    assert (m["status"], m["tags"]) == ("pending", ["beta"])
    assert ep.diff().counts() == {"campaigns.members": {"added": 1, "updated": 0, "removed": 0}}
    confirmed = ok(ep, "confirm_member", member_id=m["id"])
    assert confirmed["status"] == "subscribed"


def test_an_address_already_in_the_audience_is_a_conflict(ep: Episode) -> None:
    m = member(ep, "unsubscribed")
    msg = refused(ep, "add_member", "conflict", "email", audience_id=m["audience_id"], email=m["email"])
    assert "unsubscribed" in msg


def test_an_unsubscribed_member_cannot_be_subscribed_without_reconfirmation(ep: Episode) -> None:
    m = member(ep, "unsubscribed")
    refused(ep, "set_member_status", "rule_violation", "status", member_id=m["id"], status="subscribed")
    back = ok(ep, "resubscribe_member", member_id=m["id"])
    assert back["status"] == "pending"
    assert back["unsubscribe_reason"] is None
    [change] = ep.diff().tables["campaigns.members"].updated
    assert change.id == m["id"] and "status" in change.changed
    assert ok(ep, "confirm_member", member_id=m["id"])["status"] == "subscribed"


def test_a_pending_member_must_confirm_rather_than_be_subscribed_by_hand(ep: Episode) -> None:
    m = member(ep, "pending")
    refused(ep, "set_member_status", "rule_violation", "status", member_id=m["id"], status="subscribed")


def test_a_cleaned_address_cannot_be_resubscribed(ep: Episode) -> None:
    m = member(ep, "cleaned")
    refused(ep, "resubscribe_member", "rule_violation", "member_id", member_id=m["id"])
    refused(ep, "set_member_status", "rule_violation", "member_id", member_id=m["id"], status="pending")


def test_unsubscribing_keeps_the_reason(ep: Episode) -> None:
    m = member(ep, "subscribed")
    out = ok(ep, "set_member_status", member_id=m["id"], status="unsubscribed", reason="Moved away")
    assert (out["status"], out["unsubscribe_reason"]) == ("unsubscribed", "Moved away")


def test_tags_are_added_and_removed_and_counted_per_audience(ep: Episode) -> None:
    m = member(ep, "subscribed")
    out = ok(ep, "tag_member", member_id=m["id"], add=["spring-sale"], remove=m["tags"][:1])
    assert "spring-sale" in out["tags"] and m["tags"][0] not in out["tags"]
    counts = {c["tag"]: c for c in ok(ep, "list_audience_tags", audience_id=m["audience_id"])}
    assert counts["spring-sale"]["members"] == 1
    refused(ep, "tag_member", "rule_violation", "remove", member_id=m["id"], add=["x"], remove=["x"])


# -- campaigns ------------------------------------------------------------------------------


def test_sending_a_campaign_reaches_the_subscribed_members_of_its_segment_and_reports(ep: Episode) -> None:
    c = campaign(ep, "save", title="Spring sale")
    preview = ok(ep, "preview_recipients", campaign_id=c["id"])
    subscribed = every(ep, "list_members", audience_id=c["audience_id"], status="subscribed")
    assert preview["recipient_count"] == len(subscribed) > 0
    sent = ok(ep, "send_campaign", campaign_id=c["id"])
    assert (sent["status"], sent["emails_sent"]) == ("sent", len(subscribed))
    report = ok(ep, "get_campaign_report", campaign_id=c["id"])
    assert report["emails_sent"] == len(subscribed)
    assert ep.diff().counts() == {
        "campaigns.campaigns": {"added": 0, "updated": 1, "removed": 0},
        "campaigns.reports": {"added": 1, "updated": 0, "removed": 0},
    }


def test_a_campaign_without_content_cannot_be_sent(ep: Episode) -> None:
    c = campaign(ep, "save", title="Untitled draft")
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    ok(ep, "set_campaign_content", campaign_id=c["id"], html="<p>Hello <b>there</b></p>")
    assert ok(ep, "get_campaign", campaign_id=c["id"])["plain_text"] == "Hello there"
    assert ok(ep, "send_campaign", campaign_id=c["id"])["status"] == "sent"


def test_a_campaign_whose_segment_matches_nobody_cannot_be_sent_or_scheduled(ep: Episode) -> None:
    c = campaign(ep, "save", title="Discontinued line clearance")
    assert ok(ep, "preview_recipients", campaign_id=c["id"])["recipient_count"] == 0
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    refused(
        ep,
        "schedule_campaign",
        "rule_violation",
        "campaign_id",
        campaign_id=c["id"],
        schedule_time="2026-03-10T10:00:00Z",
    )


def test_a_schedule_must_be_in_the_future_and_on_a_quarter_hour(ep: Episode) -> None:
    c = campaign(ep, "save", title="Spring sale")
    refused(
        ep,
        "schedule_campaign",
        "rule_violation",
        "schedule_time",
        campaign_id=c["id"],
        schedule_time="2026-03-01T10:00:00Z",
    )
    refused(
        ep,
        "schedule_campaign",
        "rule_violation",
        "schedule_time",
        campaign_id=c["id"],
        schedule_time="2026-03-05T10:07:00Z",
    )
    out = ok(ep, "schedule_campaign", campaign_id=c["id"], schedule_time="2026-03-05T10:15:00Z")
    assert (out["status"], out["send_time"]) == ("schedule", "2026-03-05T10:15:00Z")
    assert ok(ep, "unschedule_campaign", campaign_id=c["id"])["status"] == "save"


def test_a_sent_campaign_is_immutable_and_can_only_be_replicated(ep: Episode) -> None:
    c = campaign(ep, "sent")
    refused(ep, "update_campaign", "rule_violation", "campaign_id", campaign_id=c["id"], subject_line="Oops")
    refused(ep, "set_campaign_content", "rule_violation", "campaign_id", campaign_id=c["id"], html="<p>x</p>")
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    refused(ep, "delete_campaign", "rule_violation", "campaign_id", campaign_id=c["id"])
    copy = ok(ep, "replicate_campaign", campaign_id=c["id"])
    assert (copy["status"], copy["content_html"], copy["audience_id"]) == ("save", c["content_html"], c["audience_id"])


def test_a_campaign_segment_must_belong_to_its_audience(ep: Episode) -> None:
    c = campaign(ep, "save", title="Spring sale")
    other = next(s for s in every(ep, "list_segments") if s["audience_id"] != c["audience_id"])
    refused(ep, "update_campaign", "rule_violation", "segment_id", campaign_id=c["id"], segment_id=other["id"])


def test_a_draft_has_no_report_and_a_used_segment_cannot_be_deleted(ep: Episode) -> None:
    c = campaign(ep, "save", title="Webinar invitation")
    refused(ep, "get_campaign_report", "rule_violation", "campaign_id", campaign_id=c["id"])
    refused(ep, "delete_segment", "rule_violation", "segment_id", segment_id=c["segment_id"])
