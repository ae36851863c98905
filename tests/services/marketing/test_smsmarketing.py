"""Pocketline: keyword and checkout opt-in with TCPA consent, STOP/START, quiet hours, journeys, coupons."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from compoworld import Episode
from tests.services.helpers import ServiceTools

SMS = ServiceTools("smsmarketing")
WORLD = SMS.world
ok, refused, every, first = SMS.ok, SMS.refused, SMS.every, SMS.first
POP = WORLD.population
NEW = "+15550001111"
CONSENT = "I agree to receive recurring automated marketing texts."


def keyword(ep: Episode, word: str) -> dict[str, Any]:
    return first(ep, "keywords", query=word)


def test_subscribers_are_the_worlds_consumers_with_recorded_consent(ep: Episode) -> None:
    people = {p.phone: p for p in POP.consumers}
    subs = every(ep, "list_subscribers")
    assert {s["status"] for s in subs} == {"pending", "subscribed", "unsubscribed"}
    for s in subs:
        person = people[s["phone"]]
        assert (s["email"], s["timezone"]) == (person.email, person.place.timezone)
        assert s["consent_text"]
        assert (s["consented_at"] is None) == (s["status"] == "pending")
    for pool in every(ep, "list_coupon_pools"):
        assert pool["codes_issued"] == len(every(ep, "list_coupons", pool_id=pool["id"]))


def test_texting_a_keyword_then_y_subscribes_enrols_and_gives_a_code(ep: Episode) -> None:
    join = keyword(ep, "JOIN")
    welcome = first(ep, "journeys", trigger="welcome", status="live")
    pending = ok(ep, "receive_inbound_message", phone=NEW, body=" join ")
    assert (pending["status"], pending["source"], pending["keyword_id"]) == ("pending", "keyword", join["id"])
    refused(
        ep,
        "issue_coupon",
        "rule_violation",
        "subscriber_id",
        pool_id=join["coupon_pool_id"],
        subscriber_id=pending["id"],
    )
    done = ok(ep, "receive_inbound_message", phone=NEW, body="Y")
    assert done["status"] == "subscribed" and done["consented_at"] is not None
    assert done["id"] in ok(ep, "get_journey", journey_id=welcome["id"])["enrolled_subscriber_ids"]
    [code] = every(ep, "list_coupons", subscriber_id=done["id"])
    assert code["pool_id"] == join["coupon_pool_id"]
    refused(ep, "receive_inbound_message", "conflict", "phone", phone=NEW, body="JOIN")
    refused(ep, "receive_inbound_message", "rule_violation", "body", phone=NEW, body="HOLIDAY")


def test_stop_unsubscribes_and_only_the_shopper_can_come_back(ep: Episode) -> None:
    sub = first(ep, "subscribers", status="subscribed")
    out = ok(ep, "receive_inbound_message", phone=sub["phone"], body="stop")
    assert (out["status"], out["unsubscribed_at"] is not None) == ("unsubscribed", True)
    refused(ep, "receive_inbound_message", "rule_violation", "phone", phone=sub["phone"], body="STOP")
    refused(ep, "create_subscriber", "rule_violation", "phone", phone=sub["phone"], source="api", consent_text=CONSENT)
    back = ok(ep, "receive_inbound_message", phone=sub["phone"], body="START")
    assert back["status"] == "pending"
    assert ok(ep, "receive_inbound_message", phone=sub["phone"], body="yes")["status"] == "subscribed"


def test_checkout_sign_up_needs_consent_language_and_a_unique_number(ep: Episode) -> None:
    refused(ep, "create_subscriber", "rule_violation", "consent_text", phone=NEW, source="checkout", consent_text="  ")
    known = first(ep, "subscribers", status="subscribed")
    refused(ep, "create_subscriber", "conflict", "phone", phone=known["phone"], source="checkout", consent_text=CONSENT)
    made = ok(ep, "create_subscriber", phone=NEW, source="checkout", consent_text=CONSENT, timezone="Europe/Berlin")
    assert (made["status"], made["consented_at"]) == ("pending", None)
    refused(ep, "receive_inbound_message", "rule_violation", "body", phone="+15550002222", body="Y")


def test_reserved_and_duplicate_keywords_are_refused(ep: Episode) -> None:
    refused(ep, "create_keyword", "rule_violation", "keyword", keyword="help", reply_message="x")
    refused(ep, "create_keyword", "conflict", "keyword", keyword="join", reply_message="x")
    refused(ep, "create_keyword", "rule_violation", "keyword", keyword="big sale", reply_message="x")
    made = ok(ep, "create_keyword", keyword="summer24", reply_message="Reply Y to join.")
    assert made["keyword"] == "SUMMER24"
    refused(
        ep,
        "create_keyword",
        "not_found",
        "coupon_pool_id",
        keyword="FALL",
        reply_message="x",
        coupon_pool_id="pool_999999",
    )


def test_campaigns_need_opt_out_language_and_hold_texts_in_quiet_hours(ep: Episode) -> None:
    drafts = every(ep, "list_campaigns", status="draft")
    bad = next(c for c in drafts if "STOP" not in c["body"])
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=bad["id"])
    good = next(c for c in drafts if "STOP" in c["body"])
    sent = ok(ep, "send_campaign", campaign_id=good["id"])
    subs = every(ep, "list_subscribers", status="subscribed")
    now = WORLD.epoch
    quiet = [s for s in subs if not 8 <= now.astimezone(ZoneInfo(s["timezone"])).hour < 21]
    assert (sent["delivered"], sent["held_for_quiet_hours"]) == (len(subs) - len(quiet), len(quiet))
    assert sent["segments_per_message"] == 1
    refused(ep, "update_campaign", "rule_violation", "campaign_id", campaign_id=good["id"], name="Again")


def test_tagged_campaigns_and_schedules(ep: Episode) -> None:
    made = ok(ep, "create_campaign", name="Nobody", body="Hi! Reply STOP to opt out.", audience_tag="no-such-tag")
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=made["id"])
    ok(ep, "update_campaign", campaign_id=made["id"], audience_tag="vip")
    past = (WORLD.epoch - dt.timedelta(hours=1)).isoformat()
    refused(ep, "schedule_campaign", "rule_violation", "send_at", campaign_id=made["id"], send_at=past)
    later = (WORLD.epoch + dt.timedelta(days=1)).isoformat()
    assert ok(ep, "schedule_campaign", campaign_id=made["id"], send_at=later)["status"] == "scheduled"
    vips = [s for s in every(ep, "list_subscribers", status="subscribed") if "vip" in s["tags"]]
    sent = ok(ep, "send_campaign", campaign_id=made["id"])
    assert vips and sent["delivered"] + sent["held_for_quiet_hours"] == len(vips)


def test_journeys_enrol_each_subscriber_once_and_need_steps_to_go_live(ep: Episode) -> None:
    sub = first(ep, "subscribers", status="subscribed")
    [cart] = ok(ep, "trigger_journey", subscriber_id=sub["id"], trigger="cart_abandoned")
    assert sub["id"] in cart["enrolled_subscriber_ids"]
    refused(ep, "trigger_journey", "conflict", "subscriber_id", subscriber_id=sub["id"], trigger="cart_abandoned")
    refused(ep, "trigger_journey", "rule_violation", "trigger", subscriber_id=sub["id"], trigger="browse_abandoned")
    gone = first(ep, "subscribers", status="unsubscribed")
    refused(
        ep, "trigger_journey", "rule_violation", "subscriber_id", subscriber_id=gone["id"], trigger="cart_abandoned"
    )
    empty = first(ep, "journeys", status="draft")
    refused(ep, "activate_journey", "rule_violation", "journey_id", journey_id=empty["id"])


def test_coupon_codes_are_unique_per_subscriber_single_use_and_expire(ep: Episode) -> None:
    pools = {p["prefix"]: p for p in every(ep, "list_coupon_pools")}
    sub = next(
        s
        for s in every(ep, "list_subscribers", status="subscribed")
        if not every(ep, "list_coupons", subscriber_id=s["id"], pool_id=pools["WELCOME"]["id"])
    )
    code = ok(ep, "issue_coupon", pool_id=pools["WELCOME"]["id"], subscriber_id=sub["id"])
    assert code["code"] == f"WELCOME-{pools['WELCOME']['codes_issued'] + 1:05d}"
    refused(ep, "issue_coupon", "conflict", "subscriber_id", pool_id=pools["WELCOME"]["id"], subscriber_id=sub["id"])
    refused(ep, "issue_coupon", "rule_violation", "pool_id", pool_id=pools["BF"]["id"], subscriber_id=sub["id"])
    assert ok(ep, "redeem_coupon", code=code["code"].lower())["redeemed_at"] is not None
    refused(ep, "redeem_coupon", "conflict", "code", code=code["code"])
    refused(ep, "redeem_coupon", "rule_violation", "code", code="NOPE-0001")
