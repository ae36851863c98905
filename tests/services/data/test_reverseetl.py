"""Outflow Sync: models and mappings, sync modes per destination, runs with rejected rows, enable/disable."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

RETL = ServiceTools("reverseetl")
WORLD = RETL.world
ok, refused, every = RETL.ok, RETL.refused, RETL.every
POP = WORLD.population


def named(ep: Episode, plural: str, name: str) -> dict[str, Any]:
    return every(ep, f"list_{plural}", name=name)[0]


def test_models_hold_the_worlds_customers(ep: Episode) -> None:
    model = named(ep, "models", "Active customers")
    rows = ok(ep, "preview_model", model_id=model["id"], limit=100)
    assert [r["company_name"] for r in rows] == [c.name for c in POP.customers[:10]]
    contact = POP.first_contact(POP.customers[0])
    assert contact is not None and rows[0]["email"] == contact.email


def test_models_are_select_queries_with_their_key_among_the_columns(ep: Episode) -> None:
    src = named(ep, "sources", "Snowflake production")
    base = {"source_id": src["id"], "columns": ["id", "email"]}
    refused(ep, "create_model", "conflict", "name", name="Active customers", sql="select 1", primary_key="id", **base)
    refused(ep, "create_model", "rule_violation", "sql", name="M", sql="delete from users", primary_key="id", **base)
    refused(
        ep,
        "create_model",
        "rule_violation",
        "primary_key",
        name="M",
        sql="select id, email from t",
        primary_key="user_id",
        **base,
    )
    made = ok(ep, "create_model", name="M", sql="select id, email from t", primary_key="id", **base)
    assert made["columns"] == ["id", "email"]


def test_a_sync_maps_model_columns_into_allowed_objects_and_modes(ep: Episode) -> None:
    model = named(ep, "models", "Active customers")
    braze = named(ep, "destinations", "Braze")
    base = {"model_id": model["id"], "destination_id": braze["id"], "match_column": "email", "match_field": "email"}
    refused(ep, "create_sync", "rule_violation", "object", object="Contact", **base)
    refused(ep, "create_sync", "rule_violation", "mode", object="users", mode="mirror", **base)
    refused(
        ep,
        "create_sync",
        "rule_violation",
        "mappings",
        object="users",
        mappings=[{"from_column": "phone", "to_field": "phone"}],
        **base,
    )
    refused(
        ep,
        "create_sync",
        "rule_violation",
        "mappings",
        object="users",
        mappings=[{"from_column": "company_name", "to_field": "email"}],
        **base,
    )
    made = ok(
        ep, "create_sync", object="users", mappings=[{"from_column": "company_name", "to_field": "company"}], **base
    )
    assert (made["status"], made["state"]) == ("pending", "enabled")


def test_a_run_rejects_rows_with_empty_keys_or_bad_emails(ep: Episode) -> None:
    model = named(ep, "models", "Active customers")
    braze = named(ep, "destinations", "Braze")
    sync = ok(
        ep,
        "create_sync",
        model_id=model["id"],
        destination_id=braze["id"],
        object="users",
        match_column="email",
        match_field="email",
    )
    run = ok(ep, "trigger_sync", sync_id=sync["id"])
    assert run["status"] == "warning" and run["planned_added"] == 8 and run["successful_rows"] == 8
    assert sorted(r["reason"] for r in run["rejected"]) == [
        "email is empty: nothing to match on",
        "invalid e-mail address",
    ]
    again = ok(ep, "trigger_sync", sync_id=sync["id"])
    assert (again["planned_added"], again["planned_changed"]) == (0, 8)
    assert ok(ep, "get_sync", sync_id=sync["id"])["status"] == "warning"


def test_a_clean_model_runs_to_success(ep: Episode) -> None:
    sf_sync = every(ep, "list_syncs", status="success")[0]
    run = ok(ep, "trigger_sync", sync_id=sf_sync["id"])
    assert run["status"] == "success" and run["rejected"] == [] and run["planned_changed"] == 10


def test_update_mode_rejects_rows_missing_in_the_destination(ep: Episode) -> None:
    model = named(ep, "models", "Active customers")
    sf = named(ep, "destinations", "Salesforce")
    sync = ok(
        ep,
        "create_sync",
        model_id=model["id"],
        destination_id=sf["id"],
        object="Contact",
        mode="update",
        match_column="account_id",
        match_field="External_Id__c",
    )
    run = ok(ep, "trigger_sync", sync_id=sync["id"])
    assert run["successful_rows"] == 0 and len(run["rejected"]) == 10


def test_disabled_syncs_and_broken_sources_do_not_run(ep: Episode) -> None:
    off = every(ep, "list_syncs", state="disabled")[0]
    refused(ep, "trigger_sync", "rule_violation", "sync_id", sync_id=off["id"])
    ok(ep, "enable_sync", sync_id=off["id"])
    assert ok(ep, "trigger_sync", sync_id=off["id"])["sync_id"] == off["id"]
    src = named(ep, "sources", "Snowflake production")
    ok(ep, "test_source", source_id=src["id"], credentials_valid=False)
    refused(ep, "trigger_sync", "rule_violation", "sync_id", sync_id=off["id"])
    ok(ep, "test_source", source_id=src["id"])
    assert ok(ep, "trigger_sync", sync_id=off["id"])["status"] in ("success", "warning")


def test_a_run_in_progress_blocks_another_until_cancelled(ep: Episode) -> None:
    busy = every(ep, "list_syncs", status="processing")[0]
    refused(ep, "trigger_sync", "conflict", "sync_id", sync_id=busy["id"])
    run = every(ep, "list_sync_runs", sync_id=busy["id"], status="processing")[0]
    assert ok(ep, "cancel_run", run_id=run["id"])["status"] == "cancelled"
    refused(ep, "cancel_run", "conflict", "run_id", run_id=run["id"])
    assert ok(ep, "get_sync", sync_id=busy["id"])["status"] == "cancelled"
    ok(ep, "trigger_sync", sync_id=busy["id"])


def test_models_with_syncs_cannot_be_deleted(ep: Episode) -> None:
    model = named(ep, "models", "Churn risk accounts")
    refused(ep, "delete_model", "conflict", "model_id", model_id=model["id"])
    for s in every(ep, "list_syncs", model_id=model["id"]):
        ok(ep, "delete_sync", sync_id=s["id"])
    ok(ep, "delete_model", model_id=model["id"])
    assert every(ep, "list_models", name="Churn risk accounts") == []
