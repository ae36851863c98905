"""Featurely: unique names, typed features, feature services, materialization windows, TTL and pushes."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FS = ServiceTools("featurestore")
WORLD = FS.world
ok, refused, every = FS.ok, FS.refused, FS.every
POP = WORLD.population
NOW = WORLD.epoch


def named(ep: Episode, plural: str, name: str) -> dict[str, Any]:
    return every(ep, f"list_{plural}", name=name)[0]


def at(days: float) -> str:
    return (NOW - dt.timedelta(days=days)).isoformat()


def test_online_values_are_keyed_by_the_worlds_customer_domains(ep: Episode) -> None:
    view = named(ep, "feature_views", "customer_order_stats")
    keys = {v["entity_key"] for v in every(ep, "list_online_values", feature_view_id=view["id"])}
    assert keys and keys <= {c.domain for c in POP.customers}
    rows = ok(ep, "get_online_features", feature_service="churn_model_v2", entity_keys=sorted(keys)[:2])
    assert all(r["values"]["customer_order_stats:orders_90d"] is not None for r in rows)


def test_names_are_unique_and_features_distinct(ep: Episode) -> None:
    refused(ep, "create_entity", "conflict", "name", name="customer", join_key="x")
    ent = named(ep, "entities", "user")
    src = named(ep, "sources", "user_activity")
    base = {"entity_id": ent["id"], "source_id": src["id"]}
    refused(
        ep,
        "create_feature_view",
        "conflict",
        "name",
        name="user_activity_stats",
        features=[{"name": "a", "dtype": "int64"}],
        **base,
    )
    twice = [{"name": "a", "dtype": "int64"}, {"name": "a", "dtype": "float64"}]
    refused(ep, "create_feature_view", "rule_violation", "features", name="v2", features=twice, **base)
    refused(
        ep,
        "create_feature_view",
        "rule_violation",
        "owner_email",
        name="v2",
        features=twice[:1],
        owner_email="x@y.io",
        **base,
    )
    assert ok(ep, "create_feature_view", name="v2", features=twice[:1], **base)["ttl_days"] == 30


def test_feature_services_refer_only_to_existing_features(ep: Episode) -> None:
    refused(ep, "create_feature_service", "rule_violation", "features", name="m", features=["user_activity_stats:nope"])
    refused(
        ep,
        "create_feature_service",
        "rule_violation",
        "features",
        name="m",
        features=["user_activity_stats:sessions_7d"] * 2,
    )
    refused(
        ep,
        "create_feature_service",
        "conflict",
        "name",
        name="churn_model_v2",
        features=["user_activity_stats:sessions_7d"],
    )
    made = ok(ep, "create_feature_service", name="m", features=["user_activity_stats:sessions_7d"])
    assert made["features"] == ["user_activity_stats:sessions_7d"]


def test_materialization_loads_the_latest_row_per_key_in_the_window(ep: Episode) -> None:
    view = named(ep, "feature_views", "user_activity_stats")
    assert every(ep, "list_online_values", feature_view_id=view["id"]) == []
    job = ok(ep, "materialize", feature_view_id=view["id"], start=at(30), end=at(0))
    assert job["rows_written"] == 12
    emails = [p.email for p in POP.consumers[:2]]
    rows = ok(ep, "get_online_features", features=["user_activity_stats:sessions_7d"], entity_keys=emails)
    assert [r["values"]["user_activity_stats:sessions_7d"] for r in rows] == [2, 3]
    assert ok(ep, "get_feature_view", feature_view_id=view["id"])["materialized_until"] is not None


def test_materialization_windows_are_checked(ep: Episode) -> None:
    view = named(ep, "feature_views", "user_activity_stats")
    refused(ep, "materialize", "rule_violation", "end", feature_view_id=view["id"], start=at(3), end=at(-1))
    refused(ep, "materialize", "rule_violation", "start", feature_view_id=view["id"], start=at(1), end=at(2))
    refused(ep, "materialize", "rule_violation", "start", feature_view_id=view["id"], start=at(400), end=at(0))
    push = named(ep, "feature_views", "user_realtime")
    refused(ep, "materialize", "rule_violation", "feature_view_id", feature_view_id=push["id"], start=at(3), end=at(0))
    ok(ep, "update_feature_view", feature_view_id=view["id"], online=False)
    refused(ep, "materialize", "rule_violation", "feature_view_id", feature_view_id=view["id"], start=at(3), end=at(0))


def test_values_older_than_the_ttl_come_back_null(ep: Episode) -> None:
    view = named(ep, "feature_views", "customer_order_stats")
    key = every(ep, "list_online_values", feature_view_id=view["id"])[0]["entity_key"]
    ref = "customer_order_stats:revenue_90d"
    assert ok(ep, "get_online_features", features=[ref], entity_keys=[key])[0]["values"][ref] is not None
    ok(ep, "update_feature_view", feature_view_id=view["id"], ttl_days=1)
    assert ok(ep, "get_online_features", features=[ref], entity_keys=[key, "nobody.example"])[0]["values"][ref] is None
    refused(ep, "get_online_features", "rule_violation", "features", entity_keys=[key])


def test_pushes_must_match_feature_names_and_types(ep: Episode) -> None:
    view = named(ep, "feature_views", "user_realtime")
    who = POP.consumers[0].email
    refused(
        ep, "push_features", "rule_violation", "values", feature_view_id=view["id"], entity_key=who, values={"cart": 1}
    )
    refused(
        ep,
        "push_features",
        "rule_violation",
        "values",
        feature_view_id=view["id"],
        entity_key=who,
        values={"cart_items": "two"},
    )
    refused(
        ep,
        "push_features",
        "rule_violation",
        "values",
        feature_view_id=view["id"],
        entity_key=who,
        values={"cart_items": True},
    )
    ok(ep, "push_features", feature_view_id=view["id"], entity_key=who, values={"cart_items": 2})
    ok(ep, "push_features", feature_view_id=view["id"], entity_key=who, values={"is_logged_in": True})
    row = ok(
        ep,
        "get_online_features",
        features=["user_realtime:cart_items", "user_realtime:is_logged_in"],
        entity_keys=[who],
    )[0]
    assert row["values"] == {"user_realtime:cart_items": 2, "user_realtime:is_logged_in": True}


def test_objects_in_use_cannot_be_deleted(ep: Episode) -> None:
    view = named(ep, "feature_views", "customer_order_stats")
    refused(ep, "delete_feature_view", "conflict", "feature_view_id", feature_view_id=view["id"])
    refused(ep, "delete_entity", "conflict", "entity_id", entity_id=view["entity_id"])
    fs = named(ep, "feature_services", "churn_model_v2")
    ok(ep, "delete_feature_service", feature_service_id=fs["id"])
    ok(ep, "delete_feature_view", feature_view_id=view["id"])
    assert all(v["feature_view_id"] != view["id"] for v in every(ep, "list_online_values"))
    ok(ep, "delete_entity", entity_id=view["entity_id"])
