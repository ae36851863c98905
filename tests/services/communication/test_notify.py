"""Pulsewire Push: subscriptions per platform, segment filters, audiences, delivery counts, scheduling."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world import commerce as links
from tests.services.helpers import ServiceTools

NF = ServiceTools("notify")
WORLD = NF.world
ok, refused, every = NF.ok, NF.refused, NF.every
POP = WORLD.population


def app(ep: Episode, suffix: str) -> dict[str, Any]:
    return next(a for a in every(ep, "list_apps") if a["name"].endswith(suffix))


def segment(ep: Episode, a: dict[str, Any], name: str) -> dict[str, Any]:
    return every(ep, "list_segments", app_id=a["id"], name=name)[0]


def later(**delta: int) -> str:
    return (WORLD.epoch + dt.timedelta(**delta)).isoformat()


# -- the world --------------------------------------------------------------------------------


def test_subscriptions_belong_to_the_worlds_people_and_counts_match_deliveries() -> None:
    ep = Episode(WORLD)
    shop, staff = app(ep, "Shop"), app(ep, "Staff")
    consumers = {p.email: i for i, p in enumerate(POP.consumers)}
    for sub in every(ep, "list_subscriptions", app_id=shop["id"]):
        i = consumers[sub["external_user"]]
        if links.places_first_order(i):
            assert sub["tags"]["first_order"] == links.first_order_number(i)
    staff_users = {s["external_user"] for s in every(ep, "list_subscriptions", app_id=staff["id"])}
    assert staff_users == {p.email for p in POP.employees}
    for note in every(ep, "list_notifications", status="sent"):
        dl = every(ep, "list_deliveries", notification_id=note["id"])
        assert note["successful"] == sum(d["status"] == "delivered" for d in dl)
        assert note["failed"] == sum(d["status"] == "failed" for d in dl)
        assert note["converted"] == sum(d["clicked"] for d in dl)
        assert note["recipients"] == len(dl) + note["errored"]
    for d in every(ep, "list_deliveries", status="failed"):
        assert ok(ep, "get_subscription", subscription_id=d["subscription_id"])["enabled"] is False


# -- subscriptions ----------------------------------------------------------------------------


def test_a_subscription_needs_its_address_and_a_configured_platform(ep: Episode) -> None:
    shop, staff = app(ep, "Shop"), app(ep, "Staff")
    who = POP.consumers[0].email
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "type",
        app_id=staff["id"],
        type="ios_push",
        token="apns-token-000000000001",
    )
    refused(ep, "create_subscription", "rule_violation", "token", app_id=shop["id"], type="ios_push")
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "email",
        app_id=shop["id"],
        type="ios_push",
        token="apns-token-000000000001",
        email=who,
    )
    refused(ep, "create_subscription", "rule_violation", "phone", app_id=shop["id"], type="sms")
    taken = every(ep, "list_subscriptions", app_id=shop["id"], type="email")[0]["email"]
    refused(ep, "create_subscription", "conflict", "email", app_id=shop["id"], type="email", email=taken)
    sub = ok(
        ep,
        "create_subscription",
        app_id=shop["id"],
        type="ios_push",
        token="apns-token-000000000001",
        external_user=who,
        tags={"tier": "gold"},
    )
    assert sub["enabled"] and sub["session_count"] == 1


def test_segment_filters_must_fit_their_field(ep: Episode) -> None:
    shop = app(ep, "Shop")["id"]

    def bad(field: str, *filters: dict[str, Any]) -> None:
        refused(ep, "create_segment", "rule_violation", field, app_id=shop, name="Test", filters=list(filters))

    bad("filters.0.key", {"field": "tag", "relation": "=", "value": "gold"})
    bad("filters.0.relation", {"field": "country", "relation": ">", "value": "DE"})
    bad("filters.0.relation", {"field": "country", "relation": "exists"})
    bad("filters.0.value", {"field": "tag", "key": "tier", "relation": "exists", "value": "x"})
    bad("filters.0.value", {"field": "session_count", "relation": ">", "value": "many"})
    bad("filters.0.relation", {"field": "last_active_days", "relation": "=", "value": 3})
    refused(ep, "create_segment", "conflict", "name", app_id=shop, name="Gold tier", filters=[])
    seg = ok(
        ep,
        "create_segment",
        app_id=shop,
        name="Loyal",
        filters=[{"field": "session_count", "relation": ">", "value": 20}],
    )
    reach = ok(ep, "estimate_audience", segment_id=seg["id"])
    subs = every(ep, "list_subscriptions", app_id=shop)
    assert reach["total"] == sum(s["session_count"] > 20 for s in subs)
    assert reach["reachable"] == sum(s["session_count"] > 20 and s["enabled"] and s["token_valid"] for s in subs)


# -- sending ----------------------------------------------------------------------------------


def test_a_notification_reaches_enabled_subscriptions_of_its_segment(ep: Episode) -> None:
    shop = app(ep, "Shop")
    gold = segment(ep, shop, "Gold tier")
    note = ok(
        ep,
        "send_notification",
        app_id=shop["id"],
        channel="push",
        contents="Gold sale!",
        headings="Sale",
        included_segment_ids=[gold["id"]],
    )
    push = [s for s in every(ep, "list_subscriptions", app_id=shop["id"], enabled=True) if s["type"].endswith("_push")]
    expected = [s for s in push if s["tags"].get("tier") == "gold"]
    assert note["recipients"] == len(expected) and note["errored"] == 0
    assert note["failed"] == sum(not s["token_valid"] for s in expected)
    assert note["successful"] == note["recipients"] - note["failed"]
    for s in expected:
        if not s["token_valid"]:
            assert ok(ep, "get_subscription", subscription_id=s["id"])["enabled"] is False


def test_excluded_segments_and_unconfigured_platforms(ep: Episode) -> None:
    staff = app(ep, "Staff")
    everyone = segment(ep, staff, "Subscribed Users")
    eng = segment(ep, staff, "Engineering")
    note = ok(
        ep,
        "send_notification",
        app_id=staff["id"],
        channel="push",
        contents="Deploy freeze",
        included_segment_ids=[everyone["id"]],
        excluded_segment_ids=[eng["id"]],
    )
    subs = [
        s
        for s in every(ep, "list_subscriptions", app_id=staff["id"], enabled=True)
        if s["tags"]["department"] != "engineering"
    ]
    assert note["recipients"] == len(subs)
    assert note["errored"] == sum(s["type"] == "ios_push" for s in subs) > 0
    assert len(every(ep, "list_deliveries", notification_id=note["id"])) == note["recipients"] - note["errored"]


def test_one_audience_per_notification_and_nobody_to_reach_is_refused(ep: Episode) -> None:
    shop = app(ep, "Shop")
    seg = segment(ep, shop, "Gold tier")["id"]
    topic = every(ep, "list_topics", app_id=shop["id"], name="deals")[0]["id"]
    base = dict(app_id=shop["id"], contents="Hi")
    refused(
        ep,
        "send_notification",
        "rule_violation",
        "included_segment_ids",
        channel="push",
        included_segment_ids=[seg],
        topic_id=topic,
        **base,
    )
    refused(ep, "send_notification", "rule_violation", "included_segment_ids", channel="push", **base)
    refused(
        ep,
        "send_notification",
        "rule_violation",
        "external_users",
        channel="push",
        external_users=["nobody@nowhere.example"],
        **base,
    )
    refused(ep, "send_notification", "rule_violation", "headings", channel="email", included_segment_ids=[seg], **base)
    refused(
        ep,
        "send_notification",
        "rule_violation",
        "contents",
        channel="sms",
        included_segment_ids=[seg],
        app_id=shop["id"],
        contents="x" * 1601,
    )
    refused(
        ep, "send_notification", "rule_violation", "topic_id", channel="email", topic_id=topic, headings="Hi", **base
    )


def test_users_are_targeted_by_their_account_email_on_the_chosen_channel(ep: Episode) -> None:
    shop = app(ep, "Shop")
    sms = every(ep, "list_subscriptions", app_id=shop["id"], type="sms", enabled=True)[0]
    note = ok(
        ep,
        "send_notification",
        app_id=shop["id"],
        channel="sms",
        contents="Your parcel arrives today",
        external_users=[sms["external_user"]],
    )
    dl = every(ep, "list_deliveries", notification_id=note["id"])
    assert [d["subscription_id"] for d in dl] == [sms["id"]] and dl[0]["external_user"] == sms["external_user"]


def test_a_topic_reaches_only_its_subscribed_devices(ep: Episode) -> None:
    shop = app(ep, "Shop")
    topic = every(ep, "list_topics", app_id=shop["id"], name="new-arrivals")[0]
    email_sub = every(ep, "list_subscriptions", app_id=shop["id"], type="email")[0]
    refused(
        ep,
        "set_topic_subscription",
        "rule_violation",
        "subscription_id",
        subscription_id=email_sub["id"],
        topic_id=topic["id"],
    )
    staff_sub = every(ep, "list_subscriptions", app_id=app(ep, "Staff")["id"])[0]
    refused(
        ep,
        "set_topic_subscription",
        "rule_violation",
        "topic_id",
        subscription_id=staff_sub["id"],
        topic_id=topic["id"],
    )
    device = next(
        s for s in every(ep, "list_subscriptions", app_id=shop["id"], enabled=True) if topic["id"] in s["topic_ids"]
    )
    ok(ep, "set_topic_subscription", subscription_id=device["id"], topic_id=topic["id"], subscribed=False)
    note = ok(ep, "send_notification", app_id=shop["id"], channel="push", contents="New in!", topic_id=topic["id"])
    reached = {d["subscription_id"] for d in every(ep, "list_deliveries", notification_id=note["id"])}
    assert device["id"] not in reached and reached


# -- scheduling and clicks --------------------------------------------------------------------


def test_scheduled_notifications_wait_and_only_they_are_canceled(ep: Episode) -> None:
    shop = app(ep, "Shop")
    seg = segment(ep, shop, "Gold tier")["id"]
    refused(
        ep,
        "send_notification",
        "rule_violation",
        "send_after",
        app_id=shop["id"],
        channel="push",
        contents="Hi",
        included_segment_ids=[seg],
        send_after=later(days=31),
    )
    note = ok(
        ep,
        "send_notification",
        app_id=shop["id"],
        channel="push",
        contents="Hi",
        included_segment_ids=[seg],
        send_after=later(days=2),
    )
    assert (note["status"], note["recipients"]) == ("scheduled", 0)
    assert every(ep, "list_deliveries", notification_id=note["id"]) == []
    refused(ep, "delete_segment", "rule_violation", "segment_id", segment_id=seg)
    assert ok(ep, "cancel_notification", notification_id=note["id"])["status"] == "canceled"
    refused(ep, "cancel_notification", "rule_violation", "notification_id", notification_id=note["id"])
    sent = every(ep, "list_notifications", status="sent")[0]
    refused(ep, "cancel_notification", "rule_violation", "notification_id", notification_id=sent["id"])


def test_a_click_counts_once_per_delivered_notification(ep: Episode) -> None:
    d = every(ep, "list_deliveries", status="delivered", clicked=False)[0]
    before = ok(ep, "get_notification", notification_id=d["notification_id"])["converted"]
    assert ok(ep, "record_click", delivery_id=d["id"])["converted"] == before + 1
    refused(ep, "record_click", "conflict", "delivery_id", delivery_id=d["id"])
    failed = every(ep, "list_deliveries", status="failed")[0]
    refused(ep, "record_click", "rule_violation", "delivery_id", delivery_id=failed["id"])
