"""Pipewell: connector setup and sync rules, schedules, tables, re-syncs, pauses, groups and usage."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ETL = ServiceTools("etl")
WORLD = ETL.world
ok, refused, every, first = ETL.ok, ETL.refused, ETL.every, ETL.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
DEV = POP.employees[0].email


def conn(ep: Episode, schema: str) -> dict[str, Any]:
    return first(ep, "connectors", schema_name=schema)


def group(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "groups", name=name)


def test_seeded_connectors_are_consistent_with_their_runs_and_tables(ep: Episode) -> None:
    assert {c["sync_state"] for c in every(ep, "list_connectors")} == {"scheduled", "syncing", "paused"}
    for c in every(ep, "list_connectors"):
        assert c["connected_by"] in STAFF
        assert c["paused"] == (c["sync_state"] == "paused")
        assert (c["daily_sync_time"] is not None) == (c["sync_frequency"] == 1440)
        tables = every(ep, "list_source_tables", connector_id=c["id"])
        assert tables and all(t["enabled"] for t in tables if t["locked"])
        runs = every(ep, "list_sync_runs", connector_id=c["id"])
        assert (c["setup_state"] == "incomplete") == (not runs)
        assert any(r["status"] == "running" for r in runs) == (c["sync_state"] == "syncing")


def test_a_forced_sync_loads_the_enabled_tables_and_records_a_run(ep: Episode) -> None:
    c = conn(ep, "salesforce")
    enabled = every(ep, "list_source_tables", connector_id=c["id"], enabled=True)
    run = ok(ep, "sync_connector", connector_id=c["id"], triggered_by=DEV)
    assert (run["status"], run["kind"], run["triggered_by"]) == ("succeeded", "incremental", DEV)
    assert sorted(run["tables"]) == sorted(t["table_name"] for t in enabled)
    assert run["rows_synced"] == sum(t["rows_per_sync"] for t in enabled)
    for t in enabled:
        after = ok(ep, "get_source_table", source_table_id=t["id"])
        assert after["row_count"] == t["row_count"] + t["rows_per_sync"]
    assert ok(ep, "get_connector", connector_id=c["id"])["succeeded_at"] == run["started_at"]


def test_a_sync_is_refused_when_paused_syncing_broken_or_without_a_connected_destination(ep: Episode) -> None:
    for schema in ("netsuite_erp", "ga4_web", "zendesk_support", "app_db"):
        c = conn(ep, schema)
        etype = "conflict" if c["sync_state"] == "syncing" else "rule_violation"
        refused(ep, "sync_connector", etype, "connector_id", connector_id=c["id"], triggered_by=DEV)
    refused(
        ep,
        "sync_connector",
        "rule_violation",
        "triggered_by",
        connector_id=conn(ep, "stripe")["id"],
        triggered_by="x@y.io",
    )
    sandbox = group(ep, "Product Sandbox")
    made = ok(ep, "create_connector", group_id=sandbox["id"], service="shopify", schema_name="shop", connected_by=DEV)
    assert ok(ep, "test_connector", connector_id=made["id"])["passed"] is True
    refused(ep, "resume_connector", "rule_violation", "connector_id", connector_id=made["id"])
    dest = ok(ep, "create_destination", group_id=sandbox["id"], service="databricks", database="sandbox")
    refused(ep, "create_destination", "conflict", "group_id", group_id=sandbox["id"], service="redshift", database="x")
    assert dest["setup_status"] == "incomplete"
    ok(ep, "test_destination", destination_id=dest["id"])
    ok(ep, "resume_connector", connector_id=made["id"])
    run = ok(ep, "sync_connector", connector_id=made["id"], triggered_by=DEV)
    assert run["status"] == "succeeded"


def test_broken_credentials_fail_setup_tests_until_reauthorized(ep: Episode) -> None:
    c = conn(ep, "zendesk_support")
    result = ok(ep, "test_connector", connector_id=c["id"])
    assert (result["passed"], result["setup_state"]) == (False, "broken") and "401" in result["message"]
    refused(ep, "resume_connector", "rule_violation", "connector_id", connector_id=c["id"])
    ok(ep, "reauthorize_connector", connector_id=c["id"])
    assert ok(ep, "test_connector", connector_id=c["id"])["setup_state"] == "connected"
    assert ok(ep, "resume_connector", connector_id=c["id"])["sync_state"] == "scheduled"
    refused(ep, "resume_connector", "conflict", "connector_id", connector_id=c["id"])


def test_pausing_cancels_the_running_sync(ep: Episode) -> None:
    c = conn(ep, "ga4_web")
    running = first(ep, "sync_runs", connector_id=c["id"], status="running")
    paused = ok(ep, "pause_connector", connector_id=c["id"])
    assert (paused["paused"], paused["sync_state"]) == (True, "paused")
    assert ok(ep, "get_sync_run", sync_run_id=running["id"])["status"] == "cancelled"
    refused(ep, "pause_connector", "conflict", "connector_id", connector_id=c["id"])
    ok(ep, "resume_connector", connector_id=c["id"])
    assert ok(ep, "sync_connector", connector_id=c["id"], triggered_by=DEV)["status"] == "succeeded"


def test_schedules_accept_supported_frequencies_and_daily_times_only_when_daily(ep: Episode) -> None:
    c = conn(ep, "hubspot")
    refused(ep, "update_connector", "rule_violation", "sync_frequency", connector_id=c["id"], sync_frequency=45)
    refused(ep, "update_connector", "rule_violation", "daily_sync_time", connector_id=c["id"], daily_sync_time="03:00")
    done = ok(ep, "update_connector", connector_id=c["id"], sync_frequency=1440, daily_sync_time="03:00")
    assert (done["sync_frequency"], done["daily_sync_time"]) == (1440, "03:00")
    g = group(ep, "Finance Data")
    refused(
        ep,
        "create_connector",
        "rule_violation",
        "sync_frequency",
        group_id=g["id"],
        service="jira",
        schema_name="jira",
        connected_by=DEV,
        sync_frequency=90,
    )


def test_schemas_are_unique_per_group_and_connectors_discover_their_tables(ep: Episode) -> None:
    g = group(ep, "Finance Data")
    args = {"group_id": g["id"], "service": "stripe", "connected_by": DEV}
    refused(ep, "create_connector", "conflict", "schema_name", schema_name="stripe", **args)
    made = ok(ep, "create_connector", schema_name="stripe_eu", **args)
    assert (made["setup_state"], made["paused"], made["is_historical_sync"]) == ("incomplete", True, True)
    tables = every(ep, "list_source_tables", connector_id=made["id"])
    assert {t["table_name"] for t in tables} == {"charge", "customer", "invoice", "refund"}
    other = group(ep, "Product Sandbox")
    ok(ep, "create_connector", group_id=other["id"], service="stripe", schema_name="stripe", connected_by=DEV)


def test_locked_tables_stay_enabled_and_table_resyncs_need_enabled_tables(ep: Episode) -> None:
    c = conn(ep, "salesforce")
    tables = every(ep, "list_source_tables", connector_id=c["id"])
    locked = next(t for t in tables if t["locked"])
    refused(ep, "update_source_table", "rule_violation", "enabled", source_table_id=locked["id"], enabled=False)
    free = next(t for t in tables if not t["locked"])
    ok(ep, "update_source_table", source_table_id=free["id"], enabled=False)
    refused(
        ep,
        "resync_connector",
        "rule_violation",
        "table_ids",
        connector_id=c["id"],
        triggered_by=DEV,
        table_ids=[free["id"]],
    )
    run = ok(ep, "resync_connector", connector_id=c["id"], triggered_by=DEV, table_ids=[locked["id"]])
    assert (run["kind"], run["tables"]) == ("table_resync", [locked["table_name"]])
    full = ok(ep, "resync_connector", connector_id=c["id"], triggered_by=DEV)
    assert full["kind"] == "historical" and free["table_name"] not in full["tables"]


def test_groups_with_connectors_cannot_be_deleted_and_names_are_unique(ep: Episode) -> None:
    g = group(ep, "Marketing Analytics")
    refused(ep, "delete_group", "conflict", "group_id", group_id=g["id"])
    refused(ep, "create_group", "conflict", "name", name="Finance Data")
    empty = group(ep, "Product Sandbox")
    ok(ep, "delete_group", group_id=empty["id"])
    assert not every(ep, "list_groups", name="Product Sandbox")


def test_usage_counts_rows_of_succeeded_syncs_in_the_last_30_days(ep: Episode) -> None:
    c = conn(ep, "stripe")
    before = ok(ep, "connector_usage", connector_id=c["id"])
    runs = [r for r in every(ep, "list_sync_runs", connector_id=c["id"], status="succeeded")]
    assert before["runs"] == len(runs) and before["monthly_active_rows"] == sum(r["rows_synced"] for r in runs)
    run = ok(ep, "sync_connector", connector_id=c["id"], triggered_by=DEV)
    after = ok(ep, "connector_usage", connector_id=c["id"])
    assert after["monthly_active_rows"] == before["monthly_active_rows"] + run["rows_synced"]
    assert after["runs"] == before["runs"] + 1
