"""Streamyard: topic limits, schema compatibility, offset resets, ACL-gated connectors."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ES = ServiceTools("eventstreams")
WORLD = ES.world
ok, refused, every = ES.ok, ES.refused, ES.every
POP = WORLD.population
ME = POP.employees[0].email


def cluster(ep: Episode, kind: str = "standard") -> dict[str, Any]:
    return every(ep, "list_clusters", type=kind)[0]


def topic(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_topics", name=name)[0]


def account(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_service_accounts", name=name)[0]


def test_seeded_world_is_consistent(ep: Episode) -> None:
    for c in every(ep, "list_clusters"):
        assert c["owner_email"] in {p.email for p in POP.employees}
    for sub in every(ep, "list_subjects"):
        versions = every(ep, "list_schema_versions", subject_id=sub["id"])
        assert sorted(v["version"] for v in versions) == list(range(1, sub["latest_version"] + 1))
    for con in every(ep, "list_connectors"):
        assert {ok(ep, "get_topic", topic_id=t)["cluster_id"] for t in con["topic_ids"]} == {con["cluster_id"]}


def test_topics_are_unique_per_cluster_and_respect_the_partition_limit(ep: Episode) -> None:
    prod = cluster(ep)
    refused(ep, "create_topic", "conflict", "name", cluster_id=prod["id"], name="orders.created")
    refused(ep, "create_topic", "rule_violation", "partitions", cluster_id=prod["id"], name="big", partitions=490)
    made = ok(ep, "create_topic", cluster_id=prod["id"], name="invoices.paid", partitions=3)
    assert (made["partitions"], made["cleanup_policy"]) == (3, "delete")
    dev = cluster(ep, "basic")
    assert ok(ep, "create_topic", cluster_id=dev["id"], name="orders.created", partitions=100)["partitions"] == 100


def test_partitions_only_grow(ep: Episode) -> None:
    t = topic(ep, "orders.shipped")
    refused(ep, "update_topic", "rule_violation", "partitions", topic_id=t["id"], partitions=t["partitions"] - 1)
    assert ok(ep, "update_topic", topic_id=t["id"], partitions=t["partitions"] + 6)["partitions"] == t["partitions"] + 6
    refused(ep, "update_topic", "rule_violation", "partitions", topic_id=t["id"], partitions=4000)


def test_backward_compatibility_refuses_new_required_fields(ep: Episode) -> None:
    subj = "orders.created-value"
    base = ["order_id", "customer_email", "total_cents"]
    refused(ep, "register_schema", "rule_violation", "required", subject=subj, required=[*base, "warehouse"])
    v3 = ok(ep, "register_schema", subject=subj, required=base, optional=["coupon", "warehouse"])
    assert v3["version"] == 3
    refused(
        ep, "register_schema", "conflict", "required", subject=subj, required=base, optional=["coupon", "warehouse"]
    )
    assert ok(ep, "register_schema", subject=subj, required=base[:2])["version"] == 4


def test_forward_and_full_refuse_dropping_required_fields(ep: Episode) -> None:
    refused(
        ep,
        "register_schema",
        "rule_violation",
        "required",
        subject="payments.settled-value",
        required=["payment_id", "amount_cents"],
    )
    refused(
        ep,
        "register_schema",
        "rule_violation",
        "required",
        subject="customers.profile-value",
        required=["customer_id", "email", "tier"],
    )
    sub = every(ep, "list_subjects", name="customers.profile-value")[0]
    ok(ep, "update_subject", subject_id=sub["id"], compatibility="NONE")
    assert ok(ep, "register_schema", subject="customers.profile-value", required=["customer_id"])["version"] == 2
    new = ok(ep, "register_schema", subject="invoices.paid-value", required=["invoice_id"])
    assert new["version"] == 1


def test_offsets_reset_only_for_empty_groups(ep: Episode) -> None:
    stable = every(ep, "list_consumer_groups", state="stable")[0]
    refused(ep, "reset_offsets", "rule_violation", "consumer_group_id", consumer_group_id=stable["id"], to="latest")
    empty = every(ep, "list_consumer_groups", state="empty")[0]
    assert ok(ep, "reset_offsets", consumer_group_id=empty["id"], to="latest")["lag"] == 0
    back = ok(ep, "reset_offsets", consumer_group_id=empty["id"], to="earliest")
    assert back["lag"] == sum(ok(ep, "get_topic", topic_id=t)["messages"] for t in empty["topic_ids"])


def test_connectors_need_the_right_acl_on_every_topic(ep: Episode) -> None:
    prod = cluster(ep)
    shipped = topic(ep, "orders.shipped")
    sa = account(ep, "sa-s3-archiver")
    args = {
        "cluster_id": prod["id"],
        "name": "Shipped to S3",
        "plugin": "S3_SINK",
        "topic_ids": [shipped["id"]],
        "service_account_id": sa["id"],
    }
    refused(ep, "create_connector", "rule_violation", "service_account_id", kind="sink", **args)
    ok(
        ep,
        "create_acl",
        cluster_id=prod["id"],
        service_account_id=sa["id"],
        resource_type="topic",
        resource_name="orders.shipped",
        operation="READ",
    )
    assert ok(ep, "create_connector", kind="sink", **args)["status"] == "running"
    writer = account(ep, "sa-orders-api")
    src = ok(ep, "create_connector", kind="source", **(args | {"service_account_id": writer["id"], "name": "CDC"}))
    assert src["kind"] == "source"
    refused(
        ep,
        "create_acl",
        "conflict",
        "operation",
        cluster_id=prod["id"],
        service_account_id=sa["id"],
        resource_type="topic",
        resource_name="orders.shipped",
        operation="READ",
    )


def test_a_deny_acl_overrides_an_allow(ep: Episode) -> None:
    prod = cluster(ep)
    writer = account(ep, "sa-orders-api")
    ok(
        ep,
        "create_acl",
        cluster_id=prod["id"],
        service_account_id=writer["id"],
        resource_type="topic",
        resource_name="orders.shipped",
        operation="WRITE",
        permission="DENY",
    )
    refused(
        ep,
        "create_connector",
        "rule_violation",
        "service_account_id",
        cluster_id=prod["id"],
        name="CDC",
        plugin="PostgresCdcSource",
        kind="source",
        topic_ids=[topic(ep, "orders.shipped")["id"]],
        service_account_id=writer["id"],
    )


def test_failed_connectors_restart_and_used_topics_cannot_be_deleted(ep: Episode) -> None:
    failed = every(ep, "list_connectors", status="failed")[0]
    assert ok(ep, "restart_connector", connector_id=failed["id"])["status"] == "running"
    refused(ep, "restart_connector", "rule_violation", "connector_id", connector_id=failed["id"])
    refused(ep, "delete_topic", "conflict", "topic_id", topic_id=topic(ep, "orders.created")["id"])
    ok(ep, "delete_topic", topic_id=topic(ep, "customers.profile")["id"])
    refused(ep, "create_service_account", "conflict", "name", name="sa-warehouse", owner_email=ME)
    refused(ep, "create_service_account", "rule_violation", "owner_email", name="sa-new", owner_email="x@y.io")
