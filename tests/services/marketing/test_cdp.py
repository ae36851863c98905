"""Tributary Data: tracking-plan validation, blocking, destination filters, profiles, deletion guards."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CDP = ServiceTools("cdp")
WORLD = CDP.world
ok, refused, every = CDP.ok, CDP.refused, CDP.every
POP = WORLD.population
CONSUMERS = {p.email for p in POP.consumers}


def source(ep: Episode, slug: str) -> dict[str, Any]:
    return every(ep, "list_sources", slug=slug)[0]


def violation(ep: Episode, src: str, event: str, vtype: str) -> dict[str, Any] | None:
    found = every(ep, "list_violations", source_id=src, event=event, violation_type=vtype)
    return found[0] if found else None


def test_seeded_profiles_are_the_worlds_consumers_and_sources_have_plans(ep: Episode) -> None:
    profiles = every(ep, "list_profiles")
    assert profiles and all(p["email"] in CONSUMERS for p in profiles)
    for p in profiles:
        person = next(c for c in POP.consumers if c.email == p["email"])
        assert p["traits"]["first_name"] == person.first_name
    assert {s["slug"] for s in every(ep, "list_sources", enabled=True)} == {"website", "ios-app", "backend"}
    assert source(ep, "website")["tracking_plan_id"] is not None
    assert len({s["write_key"] for s in every(ep, "list_sources")}) == len(every(ep, "list_sources"))


def test_a_valid_track_call_reaches_enabled_destinations_except_filtered(ep: Episode) -> None:
    web = source(ep, "website")
    dests = {d["integration"]: d for d in every(ep, "list_destinations", source_id=web["id"])}
    res = ok(ep, "track", source_id=web["id"], user_id="u1000", event="Product Viewed", properties={"product_id": "p1"})
    assert res["accepted"] and res["violations"] == []
    assert dests["mixpanel"]["id"] not in res["delivered_to"]
    assert dests["google_analytics"]["id"] in res["delivered_to"]
    ga = ok(ep, "get_destination", destination_id=dests["google_analytics"]["id"])
    assert ga["events_delivered"] == dests["google_analytics"]["events_delivered"] + 1
    ok(ep, "update_destination", destination_id=dests["bigquery"]["id"], enabled=False)
    res = ok(ep, "track", source_id=web["id"], user_id="u1000", event="Signed Up")
    assert dests["bigquery"]["id"] not in res["delivered_to"] and dests["mixpanel"]["id"] in res["delivered_to"]


def test_violations_are_recorded_and_counted(ep: Episode) -> None:
    web = source(ep, "website")
    before = violation(ep, web["id"], "Order Completed", "missing_required_property")
    assert before is not None
    res = ok(ep, "track", source_id=web["id"], user_id="u1001", event="Order Completed", properties={"order_id": "9"})
    assert res["violations"] == ["missing_required_property:revenue"] and res["accepted"]
    after = violation(ep, web["id"], "Order Completed", "missing_required_property")
    assert after is not None and after["count"] == before["count"] + 1
    props = {"order_id": 9, "revenue": 10.0}
    res = ok(ep, "track", source_id=web["id"], user_id="u1001", event="Order Completed", properties=props)
    assert res["violations"] == ["wrong_type:order_id"]
    assert violation(ep, web["id"], "Order Completed", "wrong_type") is not None


def test_a_blocking_plan_drops_unplanned_events(ep: Episode) -> None:
    ios = source(ep, "ios-app")
    res = ok(ep, "track", source_id=ios["id"], user_id="u1002", event="Cart Abandoned")
    assert (res["accepted"], res["delivered_to"], res["violations"]) == (False, [], ["unplanned_event"])
    assert ok(ep, "get_source", source_id=ios["id"])["events_received"] == ios["events_received"]
    web = source(ep, "website")
    res = ok(ep, "track", source_id=web["id"], user_id="u1002", event="Cart Abandoned")
    assert res["accepted"] and res["delivered_to"]


def test_disabled_sources_refuse_calls(ep: Episode) -> None:
    old = source(ep, "landing-pages")
    refused(ep, "track", "rule_violation", "source_id", source_id=old["id"], user_id="u1", event="Signed Up")
    refused(ep, "identify", "rule_violation", "source_id", source_id=old["id"], user_id="u1")
    ok(ep, "update_source", source_id=old["id"], enabled=True)
    assert ok(ep, "track", source_id=old["id"], user_id="u1", event="Signed Up")["accepted"]


def test_identify_merges_traits_and_keeps_emails_unique(ep: Episode) -> None:
    web = source(ep, "website")
    prof = every(ep, "list_profiles", user_id="u1003")[0]
    merged = ok(ep, "identify", source_id=web["id"], user_id="u1003", traits={"plan": "premium", "city": "Oslo"})
    assert merged["traits"]["plan"] == "premium" and merged["traits"]["city"] == "Oslo"
    assert merged["traits"]["first_name"] == prof["traits"]["first_name"] and merged["email"] == prof["email"]
    refused(ep, "identify", "conflict", "email", source_id=web["id"], user_id="u9999", email=prof["email"])
    new = ok(ep, "identify", source_id=web["id"], user_id="u9999", email="new.buyer@example.org")
    assert new["email"] == "new.buyer@example.org" and new["id"] != prof["id"]


def test_tracking_plan_rules_are_unique_and_editable(ep: Episode) -> None:
    refused(ep, "create_tracking_plan", "conflict", "name", name="Ecommerce spec")
    plan = ok(ep, "create_tracking_plan", name="Web v2")
    ok(ep, "upsert_event_rule", tracking_plan_id=plan["id"], event="Signed Up")
    prop = {"name": "newsletter", "type": "boolean", "required": True}
    refused(
        ep,
        "upsert_event_rule",
        "rule_violation",
        "properties",
        tracking_plan_id=plan["id"],
        event="Signed Up",
        properties=[prop, prop],
    )
    updated = ok(ep, "upsert_event_rule", tracking_plan_id=plan["id"], event="Signed Up", properties=[prop])
    assert len(updated["rules"]) == 1 and updated["rules"][0]["properties"][0]["required"]
    refused(ep, "remove_event_rule", "rule_violation", "event", tracking_plan_id=plan["id"], event="Nope")
    assert ok(ep, "remove_event_rule", tracking_plan_id=plan["id"], event="Signed Up")["rules"] == []


def test_connected_plans_and_sources_with_destinations_cannot_be_deleted(ep: Episode) -> None:
    web = source(ep, "website")
    refused(ep, "delete_tracking_plan", "conflict", "tracking_plan_id", tracking_plan_id=web["tracking_plan_id"])
    refused(ep, "delete_source", "conflict", "source_id", source_id=web["id"])
    ok(ep, "connect_tracking_plan", source_id=web["id"])
    assert ok(ep, "get_source", source_id=web["id"])["tracking_plan_id"] is None
    ok(ep, "delete_tracking_plan", tracking_plan_id=web["tracking_plan_id"])


def test_one_destination_per_integration_and_one_filter_per_event(ep: Episode) -> None:
    web = source(ep, "website")
    refused(
        ep,
        "create_destination",
        "conflict",
        "integration",
        source_id=web["id"],
        name="GA",
        integration="google_analytics",
    )
    mix = every(ep, "list_destinations", integration="mixpanel")[0]
    refused(
        ep,
        "create_destination_filter",
        "conflict",
        "event",
        destination_id=mix["id"],
        title="x",
        event="Product Viewed",
    )
    ok(ep, "create_destination", source_id=web["id"], name="Hooks", integration="webhooks")


def test_new_source_end_to_end(ep: Episode) -> None:
    ws = every(ep, "list_workspaces")[0]
    refused(
        ep, "create_source", "conflict", "slug", workspace_id=ws["id"], name="Web", slug="website", kind="javascript"
    )
    src = ok(ep, "create_source", workspace_id=ws["id"], name="POS", slug="pos", kind="http_api")
    assert len(src["write_key"]) == 32 and src["tracking_plan_id"] is None
    plan = every(ep, "list_tracking_plans", query="Ecommerce")[0]
    ok(ep, "connect_tracking_plan", source_id=src["id"], tracking_plan_id=plan["id"])
    refused(
        ep, "connect_tracking_plan", "conflict", "tracking_plan_id", source_id=src["id"], tracking_plan_id=plan["id"]
    )
    dst = ok(ep, "create_destination", source_id=src["id"], name="Braze", integration="braze")
    res = ok(ep, "track", source_id=src["id"], user_id="u5", event="Signed Up", properties={"newsletter": True})
    assert res["delivered_to"] == [dst["id"]] and res["violations"] == []
