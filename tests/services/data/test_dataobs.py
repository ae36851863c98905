"""Signalgrid Data: monitor thresholds, runs that open or join incidents, mutes, lineage and incident closing."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

OBS = ServiceTools("dataobs")
WORLD = OBS.world
ok, refused, every, first = OBS.ok, OBS.refused, OBS.every, OBS.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
DEV = POP.employees[0].email


def table(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "tables", full_table_id=f"analytics-prod:{name}")


def monitor(ep: Episode, name: str, kind: str) -> dict[str, Any]:
    return first(ep, "monitors", table_id=table(ep, name)["id"], monitor_type=kind)


def test_seeded_incidents_follow_lineage_and_owners(ep: Episode) -> None:
    for inc in every(ep, "list_incidents"):
        lineage = ok(ep, "table_lineage", table_id=inc["table_id"])
        assert set(inc["downstream_table_ids"]) == set(lineage["downstream"])
        assert inc["owner_email"] in STAFF
        assert (inc["closed_at"] is None) == (inc["status"] in ("no_status", "investigating"))
    for m in every(ep, "list_monitors"):
        assert m["created_by"] in STAFF


def test_a_breach_opens_an_incident_with_downstream_impact(ep: Episode) -> None:
    m = monitor(ep, "raw.salesforce_opportunities", "freshness")
    run = ok(ep, "run_monitor", monitor_id=m["id"])
    assert run["result"] == "breach" and "30 h" in run["detail"]
    inc = ok(ep, "get_incident", incident_id=run["incident_id"])
    t = table(ep, "raw.salesforce_opportunities")
    assert (inc["severity"], inc["status"], inc["owner_email"]) == (m["severity"], "no_status", t["owner_email"])
    assert inc["downstream_table_ids"] == [table(ep, "marts.pipeline_weekly")["id"]]
    assert ok(ep, "get_monitor", monitor_id=m["id"])["last_result"] == "breach"


def test_a_passing_run_opens_nothing(ep: Episode) -> None:
    m = monitor(ep, "raw.stripe_charges", "freshness")
    before = len(every(ep, "list_incidents"))
    run = ok(ep, "run_monitor", monitor_id=m["id"])
    assert (run["result"], run["incident_id"]) == ("pass", None)
    assert len(every(ep, "list_incidents")) == before


def test_a_repeated_breach_joins_the_open_incident_until_it_is_closed(ep: Episode) -> None:
    m = monitor(ep, "staging.orders_enriched", "volume")
    inc = first(ep, "incidents", monitor_id=m["id"], status="investigating")
    run = ok(ep, "run_monitor", monitor_id=m["id"])
    assert (run["result"], run["incident_id"]) == ("joined_incident", inc["id"])
    assert ok(ep, "get_incident", incident_id=inc["id"])["events"] == inc["events"] + 1
    ok(ep, "set_incident_status", incident_id=inc["id"], status="expected")
    again = ok(ep, "run_monitor", monitor_id=m["id"])
    assert again["result"] == "breach" and again["incident_id"] != inc["id"]


def test_muted_tables_and_paused_monitors_open_no_incidents(ep: Episode) -> None:
    m = first(ep, "monitors", status="paused")
    refused(ep, "run_monitor", "rule_violation", "monitor_id", monitor_id=m["id"])
    ok(ep, "resume_monitor", monitor_id=m["id"])
    run = ok(ep, "run_monitor", monitor_id=m["id"])
    assert (run["result"], run["incident_id"]) == ("breach_muted", None)
    mute = first(ep, "mutes", table_id=m["table_id"])
    refused(ep, "mute_table", "conflict", "table_id", table_id=m["table_id"], hours=2, reason="x", muted_by=DEV)
    ok(ep, "delete_mute", mute_id=mute["id"])
    assert ok(ep, "run_monitor", monitor_id=m["id"])["result"] == "breach"


def test_monitors_take_the_thresholds_of_their_type(ep: Episode) -> None:
    t = table(ep, "marts.customer_ltv")
    base = {"table_id": t["id"], "created_by": DEV}
    refused(ep, "create_monitor", "rule_violation", "max_hours_stale", monitor_type="freshness", **base)
    refused(
        ep,
        "create_monitor",
        "rule_violation",
        "min_rows",
        monitor_type="freshness",
        max_hours_stale=4,
        min_rows=10,
        **base,
    )
    refused(ep, "create_monitor", "rule_violation", "column", monitor_type="field_health", max_null_rate=1.0, **base)
    refused(
        ep,
        "create_monitor",
        "rule_violation",
        "column",
        monitor_type="field_health",
        column="nope",
        max_null_rate=1.0,
        **base,
    )
    refused(
        ep, "create_monitor", "rule_violation", "created_by", monitor_type="schema", **base | {"created_by": "a@b.io"}
    )
    made = ok(ep, "create_monitor", monitor_type="field_health", column="ltv", max_null_rate=1.0, **base)
    refused(
        ep,
        "create_monitor",
        "conflict",
        "monitor_type",
        monitor_type="field_health",
        column="ltv",
        max_null_rate=3.0,
        **base,
    )
    assert ok(ep, "run_monitor", monitor_id=made["id"])["result"] == "breach"
    refused(ep, "update_monitor", "rule_violation", "min_rows", monitor_id=made["id"], min_rows=5)


def test_a_schema_monitor_catches_column_changes_once(ep: Episode) -> None:
    m = monitor(ep, "raw.salesforce_opportunities", "schema")
    first_run = ok(ep, "run_monitor", monitor_id=m["id"])
    assert first_run["result"] == "breach"
    assert ok(ep, "run_monitor", monitor_id=m["id"])["result"] == "pass"


def test_incidents_close_as_fixed_only_with_an_owner_and_can_reopen(ep: Episode) -> None:
    m = monitor(ep, "marts.pipeline_weekly", "freshness")
    t = table(ep, "marts.pipeline_weekly")
    assert t["owner_email"] is None
    ok(ep, "resume_monitor", monitor_id=m["id"])
    ok(ep, "delete_mute", mute_id=first(ep, "mutes", table_id=t["id"])["id"])
    inc = ok(ep, "get_incident", incident_id=ok(ep, "run_monitor", monitor_id=m["id"])["incident_id"])
    refused(ep, "set_incident_status", "rule_violation", "status", incident_id=inc["id"], status="fixed")
    refused(ep, "update_incident", "rule_violation", "owner_email", incident_id=inc["id"], owner_email="x@y.io")
    ok(ep, "update_incident", incident_id=inc["id"], owner_email=DEV)
    fixed = ok(ep, "set_incident_status", incident_id=inc["id"], status="fixed")
    assert fixed["closed_at"] is not None
    refused(ep, "set_incident_status", "conflict", "status", incident_id=inc["id"], status="fixed")
    assert ok(ep, "set_incident_status", incident_id=inc["id"], status="investigating")["closed_at"] is None


def test_lineage_edges_never_loop(ep: Episode) -> None:
    raw, mart = table(ep, "raw.app_orders"), table(ep, "marts.revenue_daily")
    assert raw["id"] in ok(ep, "table_lineage", table_id=mart["id"])["upstream"]
    refused(
        ep,
        "add_lineage_edge",
        "rule_violation",
        "downstream_table_id",
        upstream_table_id=mart["id"],
        downstream_table_id=raw["id"],
    )
    refused(
        ep,
        "add_lineage_edge",
        "rule_violation",
        "downstream_table_id",
        upstream_table_id=raw["id"],
        downstream_table_id=raw["id"],
    )
    staged = table(ep, "staging.orders_enriched")
    refused(
        ep,
        "add_lineage_edge",
        "conflict",
        "downstream_table_id",
        upstream_table_id=raw["id"],
        downstream_table_id=staged["id"],
    )
    ltv = table(ep, "marts.customer_ltv")
    ok(ep, "add_lineage_edge", upstream_table_id=mart["id"], downstream_table_id=ltv["id"])
    assert ltv["id"] in ok(ep, "table_lineage", table_id=raw["id"])["downstream"]
