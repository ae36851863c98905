"""Lumen Flows: consent per channel, suppression, list-triggered and metric-triggered flows, campaigns."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FLOW = ServiceTools("flowmail")
WORLD = FLOW.world
ok, refused, every, first = FLOW.ok, FLOW.refused, FLOW.every, FLOW.first
POP = WORLD.population
SENDER = POP.employees[0].email


def metric(ep: Episode, name: str) -> dict[str, Any]:
    return next(m for m in every(ep, "list_metrics") if m["name"] == name)


def test_profiles_are_the_worlds_shoppers_and_segments_count_orders(ep: Episode) -> None:
    people = {p.email: p for p in POP.people}
    for prof in every(ep, "list_profiles"):
        person = people[prof["email"]]
        assert (prof["first_name"], prof["last_name"], prof["country"]) == (
            person.first_name,
            person.last_name,
            person.address.country,
        )
    skus = {i["external_id"] for i in every(ep, "list_catalog_items")}
    assert skus <= {p.sku for p in POP.products}
    seg = first(ep, "segments")
    members = ok(ep, "get_segment_profiles", segment_id=seg["id"])
    orders = every(ep, "list_events", metric_id=seg["metric_id"])
    assert members
    for m in members:
        assert sum(e["profile_id"] == m["id"] for e in orders) >= seg["min_count"]


def test_a_profile_email_is_unique_and_starts_without_consent(ep: Episode) -> None:
    known = first(ep, "profiles")
    refused(ep, "create_profile", "conflict", "email", email=known["email"])
    made = ok(ep, "create_profile", email="quinn.ng@inbox.io", first_name="Quinn")
    assert (made["email_consent"], made["sms_consent"], made["suppressed"]) == (
        "never_subscribed",
        "never_subscribed",
        False,
    )
    refused(ep, "subscribe_profile", "rule_violation", "channel", profile_id=made["id"], channel="sms")
    assert ok(ep, "subscribe_profile", profile_id=made["id"], channel="email")["email_consent"] == "subscribed"


def test_unsubscribing_needs_consent_and_suppression_blocks_email(ep: Episode) -> None:
    p = first(ep, "profiles", email_consent="subscribed", suppressed=False)
    assert ok(ep, "unsubscribe_profile", profile_id=p["id"], channel="email")["email_consent"] == "unsubscribed"
    refused(ep, "unsubscribe_profile", "rule_violation", "channel", profile_id=p["id"], channel="email")
    bounced = first(ep, "profiles", suppressed=True, email_consent="never_subscribed")
    if bounced["suppression_reason"] == "user_suppressed":
        bounced = next(
            x for x in every(ep, "list_profiles", suppressed=True) if x["suppression_reason"] != "user_suppressed"
        )
    refused(ep, "subscribe_profile", "rule_violation", "profile_id", profile_id=bounced["id"], channel="email")
    refused(ep, "unsuppress_profile", "rule_violation", "profile_id", profile_id=bounced["id"])


def test_a_manual_suppression_can_be_lifted(ep: Episode) -> None:
    p = first(ep, "profiles", suppressed=False)
    done = ok(ep, "suppress_profile", profile_id=p["id"], reason="user_suppressed")
    assert (done["suppressed"], done["suppression_reason"]) == (True, "user_suppressed")
    refused(ep, "suppress_profile", "conflict", "profile_id", profile_id=p["id"], reason="hard_bounce")
    assert ok(ep, "unsuppress_profile", profile_id=p["id"])["suppressed"] is False


def test_joining_a_list_enrols_the_profile_in_its_live_flow_once(ep: Episode) -> None:
    welcome = first(ep, "flows", status="live", trigger_type="list")
    lst = ok(ep, "get_list", list_id=welcome["trigger_id"])
    new = ok(ep, "create_profile", email="sol.reyes@postbox.org")
    ok(ep, "subscribe_profile", profile_id=new["id"], channel="email", list_id=lst["id"])
    after = ok(ep, "get_flow", flow_id=welcome["id"])
    assert after["enrolled_profile_ids"][-1] == new["id"]
    emails = sum(a["action_type"] == "send_email" for a in welcome["actions"])
    assert after["messages_sent"] == welcome["messages_sent"] + emails
    ok(ep, "add_profiles_to_list", list_id=lst["id"], profile_ids=[new["id"]])
    assert ok(ep, "get_flow", flow_id=welcome["id"])["enrolled_profile_ids"].count(new["id"]) == 1
    held = first(ep, "flows", status="manual", trigger_type="list")
    ok(ep, "add_profiles_to_list", list_id=held["trigger_id"], profile_ids=[new["id"]])
    assert new["id"] not in ok(ep, "get_flow", flow_id=held["id"])["enrolled_profile_ids"]
    refused(ep, "add_profiles_to_list", "not_found", "profile_ids", list_id=lst["id"], profile_ids=["prof_999999"])
    refused(ep, "add_profiles_to_list", "rule_violation", "profile_ids", list_id=lst["id"], profile_ids=[])


def test_an_event_creates_missing_profiles_and_triggers_metric_flows(ep: Episode) -> None:
    cart = first(ep, "flows", status="live", trigger_type="metric")
    item = first(ep, "catalog_items")
    refused(ep, "create_event", "rule_violation", "sku", metric_name="Started Checkout", email="a@b.io", sku="NOPE-1")
    ev = ok(ep, "create_event", metric_name="Started Checkout", email="new.cart@inbox.io", sku=item["external_id"])
    prof = ok(ep, "get_profile", profile_id=ev["profile_id"])
    assert prof["email"] == "new.cart@inbox.io" and ev["metric_id"] == cart["trigger_id"]
    after = ok(ep, "get_flow", flow_id=cart["id"])
    assert ev["profile_id"] in after["enrolled_profile_ids"]
    assert after["messages_sent"] == cart["messages_sent"]  # no consent: enrolled but nothing delivered
    custom = ok(ep, "create_event", metric_name="Left Review", email=prof["email"])
    assert metric(ep, "Left Review")["id"] == custom["metric_id"]


def test_a_flow_goes_live_only_with_a_message_action(ep: Episode) -> None:
    order = metric(ep, "Placed Order")
    refused(
        ep,
        "create_flow",
        "not_found",
        "trigger_id",
        name="X",
        trigger_type="list",
        trigger_id=order["id"],
        actions=[{"action_type": "send_sms", "body": "Hi"}],
    )
    refused(
        ep,
        "create_flow",
        "rule_violation",
        "actions",
        name="X",
        trigger_type="metric",
        trigger_id=order["id"],
        actions=[{"action_type": "send_email", "body": "no subject"}],
    )
    wait = ok(
        ep,
        "create_flow",
        name="Only waits",
        trigger_type="metric",
        trigger_id=order["id"],
        actions=[{"action_type": "time_delay", "delay_hours": 24}],
    )
    assert wait["status"] == "draft"
    refused(ep, "activate_flow", "rule_violation", "flow_id", flow_id=wait["id"])
    assert ok(ep, "hold_flow", flow_id=wait["id"])["status"] == "manual"


def test_a_campaign_reaches_only_consented_unexcluded_profiles(ep: Episode) -> None:
    lists = {x["name"]: x for x in every(ep, "list_lists")}
    news = lists["Newsletter"]
    camp = ok(
        ep,
        "create_campaign",
        name="Autumn",
        list_ids=[news["id"]],
        excluded_list_ids=[lists["VIP Customers"]["id"]],
        subject="Autumn arrivals",
        body="New in.",
        from_email=SENDER,
    )
    sent = ok(ep, "send_campaign", campaign_id=camp["id"])
    vip = set(lists["VIP Customers"]["profile_ids"])
    expected = [
        pid
        for pid in news["profile_ids"]
        if pid not in vip
        and (p := ok(ep, "get_profile", profile_id=pid))["email_consent"] == "subscribed"
        and not p["suppressed"]
    ]
    assert (sent["status"], sent["recipients"]) == ("sent", len(expected))
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"])
    refused(ep, "update_campaign", "rule_violation", "campaign_id", campaign_id=camp["id"], name="Renamed")


def test_a_campaign_needs_audience_subject_and_future_schedule(ep: Episode) -> None:
    news = first(ep, "lists", opt_in_process="double_opt_in")
    bare = ok(ep, "create_campaign", name="Empty", body="Hi", from_email=SENDER, subject="Hi")
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=bare["id"])
    nosub = ok(ep, "create_campaign", name="No subject", list_ids=[news["id"]], body="Hi", from_email=SENDER)
    refused(ep, "send_campaign", "rule_violation", "campaign_id", campaign_id=nosub["id"])
    refused(ep, "create_campaign", "not_found", "list_ids", name="Ghost", list_ids=["list_999999"])
    draft = first(ep, "campaigns", status="draft")
    refused(
        ep,
        "schedule_campaign",
        "rule_violation",
        "send_time",
        campaign_id=draft["id"],
        send_time="2020-01-01T00:00:00Z",
    )
    done = ok(ep, "schedule_campaign", campaign_id=draft["id"], send_time="2031-05-01T09:00:00Z")
    assert done["status"] == "scheduled"
    assert ok(ep, "cancel_campaign", campaign_id=draft["id"])["status"] == "cancelled"
    refused(ep, "cancel_campaign", "rule_violation", "campaign_id", campaign_id=draft["id"])
