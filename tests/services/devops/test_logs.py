"""Sift Logs: routing to the first matching index, quotas, retention-bounded search, queries, alert rules."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.devops.logs import parse_query
from tests.services.helpers import ServiceTools

LOGS = ServiceTools("logs")
WORLD = LOGS.world
ok, refused, every, items, first = LOGS.ok, LOGS.refused, LOGS.every, LOGS.items, LOGS.first
POP = WORLD.population
NOW = WORLD.epoch


def iso(delta: dt.timedelta) -> str:
    return (NOW + delta).isoformat()


def search(ep: Episode, query: str, hours: int = 48, **extra: Any) -> dict[str, Any]:
    return dict(
        ok(
            ep,
            "search_logs",
            query=query,
            from_time=iso(dt.timedelta(hours=-hours)),
            to_time=iso(dt.timedelta()),
            limit=100,
            **extra,
        )
    )


def log(**extra: Any) -> dict[str, Any]:
    return {"service": "checkout", "host": "web-9", "status": "info", "message": "hello", **extra}


# -- the seeded world -----------------------------------------------------------------------


def test_every_seeded_log_sits_in_the_first_index_whose_filter_matches() -> None:
    ep = Episode(WORLD)
    indexes = sorted(every(ep, "list_indexes"), key=lambda i: i["position"])
    routes = [(i["id"], parse_query(i["filter_query"])) for i in indexes]
    for rec in LOGS.records("logs"):
        assert rec.index_id == next(iid for iid, match in routes if match(rec))
    assert {i["name"] for i in indexes if any(r.index_id == i["id"] for r in LOGS.records("logs"))} == {
        "security",
        "errors",
        "main",
        "staging",
    }
    customers = {p.email for p in POP.consumers}
    assert {x["user_email"] for x in LOGS.seeded("logs") if x["user_email"]} <= customers


# -- ingesting ------------------------------------------------------------------------------


def test_logs_are_routed_to_the_first_matching_index(ep: Episode) -> None:
    res = ok(ep, "ingest_logs", logs=[log(), log(status="error"), log(service="auth"), log(env="staging")])
    assert res["by_index"] == {"main": 1, "errors": 1, "security": 1, "staging": 1}
    assert res["accepted"] == 4 and len(res["log_ids"]) == 4


def test_a_full_daily_quota_drops_logs(ep: Episode) -> None:
    staging = first(ep, "indexes", name="staging")
    ok(ep, "update_index", index_id=staging["id"], daily_limit=1)
    res = ok(ep, "ingest_logs", logs=[log(env="staging"), log(env="staging", message="again")])
    assert (res["accepted"], res["dropped_over_quota"]) == (0, 2)  # seeded logs already used today's quota
    ok(ep, "update_index", index_id=staging["id"], filter_query="env:nowhere")
    res = ok(ep, "ingest_logs", logs=[log(env="staging")])
    assert res["unrouted"] == 1 and res["accepted"] == 0


def test_old_or_future_logs_are_refused(ep: Episode) -> None:
    refused(ep, "ingest_logs", "rule_violation", "logs.0.timestamp", logs=[log(timestamp=iso(dt.timedelta(hours=-19)))])
    refused(
        ep,
        "ingest_logs",
        "rule_violation",
        "logs.1.timestamp",
        logs=[log(), log(timestamp=iso(dt.timedelta(minutes=5)))],
    )


# -- searching ------------------------------------------------------------------------------


def test_query_terms_combine_and_negate() -> None:
    ep = Episode(WORLD)
    every_log = LOGS.seeded("logs")
    assert search(ep, "")["total"] == len(every_log)
    both = search(ep, "service:checkout status:error")
    assert both["total"] == sum(1 for x in every_log if x["service"] == "checkout" and x["status"] == "error")
    either = search(ep, "status:error status:critical")
    assert either["total"] == sum(1 for x in every_log if x["status"] in ("error", "critical"))
    not_api = search(ep, "-service:api")
    assert not_api["total"] == sum(1 for x in every_log if x["service"] != "api")
    text = search(ep, '"login failed"')
    assert text["total"] == sum(1 for x in every_log if "login failed" in x["message"])
    colon = search(ep, '"login failed: bad password"')  # a quoted phrase is text even with a colon
    assert colon["total"] == text["total"]
    codes = search(ep, "http_status:>=500")
    assert codes["total"] == sum(1 for x in every_log if (x["http_status"] or 0) >= 500) > 0
    newest = search(ep, "")["logs"]
    assert newest == sorted(newest, key=lambda x: x["timestamp"], reverse=True)


def test_bad_queries_and_ranges_beyond_retention_are_refused(ep: Episode) -> None:
    args = {"from_time": iso(dt.timedelta(hours=-1)), "to_time": iso(dt.timedelta())}
    refused(ep, "search_logs", "rule_violation", "query", query="colour:red", **args)
    refused(ep, "search_logs", "rule_violation", "query", query='"unclosed', **args)
    far = {"from_time": iso(dt.timedelta(days=-5)), "to_time": iso(dt.timedelta())}
    refused(ep, "search_logs", "rule_violation", "from_time", query="", **far)  # staging keeps 3 days
    assert ok(ep, "search_logs", query="", index_names=["main", "security"], **far)["total"] > 0
    refused(ep, "search_logs", "not_found", "index_names", query="", index_names=["nope"], **args)


def test_aggregation_counts_add_up_to_the_search() -> None:
    ep = Episode(WORLD)
    args = {"query": "env:production", "from_time": iso(dt.timedelta(hours=-48)), "to_time": iso(dt.timedelta())}
    agg = ok(ep, "aggregate_logs", group_by="service", **args)
    assert agg["total"] == sum(b["count"] for b in agg["buckets"]) == ok(ep, "search_logs", **args)["total"]
    checkout = next(b for b in agg["buckets"] if b["key"] == "checkout")
    assert checkout["errors"] == search(ep, "env:production service:checkout status:error status:critical")["total"]


def test_a_saved_view_runs_its_query_on_its_indexes(ep: Episode) -> None:
    view = first(ep, "saved_views", query="Checkout failures")
    res = ok(ep, "run_saved_view", saved_view_id=view["id"], hours=24)
    direct = search(ep, view["query"], hours=24, index_names=view["index_names"])
    assert res["total"] == direct["total"] > 0
    refused(ep, "create_saved_view", "conflict", "name", name=view["name"], query="", owner_email=view["owner_email"])
    refused(
        ep,
        "create_saved_view",
        "rule_violation",
        "index_names",
        name="Mine",
        query="",
        owner_email=view["owner_email"],
        index_names=["nope"],
    )


# -- indexes and alert rules ----------------------------------------------------------------


def test_index_retention_must_be_an_available_period(ep: Episode) -> None:
    main = first(ep, "indexes", name="main")
    refused(ep, "update_index", "rule_violation", "retention_days", index_id=main["id"], retention_days=10)
    refused(ep, "create_index", "conflict", "name", name="main")
    new = ok(ep, "create_index", name="audit", filter_query="service:billing", retention_days=360)
    assert new["position"] == max(i["position"] for i in items(ep, "indexes"))


def test_an_alert_rule_fires_once_and_notifies_unless_muted(ep: Episode) -> None:
    rule = first(ep, "alert_rules", query="Checkout error spike")
    count = ok(ep, "evaluate_alert_rule", alert_rule_id=rule["id"])["count"]
    ok(ep, "update_alert_rule", alert_rule_id=rule["id"], threshold=max(0, count - 1))
    fired = ok(ep, "evaluate_alert_rule", alert_rule_id=rule["id"])
    assert (fired["state"], fired["changed"], fired["notified"]) == ("alert", True, rule["notify_emails"])
    again = ok(ep, "evaluate_alert_rule", alert_rule_id=rule["id"])
    assert (again["state"], again["changed"], again["notified"]) == ("alert", False, [])
    assert ok(ep, "get_alert_rule", alert_rule_id=rule["id"])["state"] == "alert"
    assert len(items(ep, "evaluations", rule_id=rule["id"])) == 3


def test_a_muted_rule_changes_state_silently(ep: Episode) -> None:
    muted = first(ep, "alert_rules", muted=True)
    res = ok(ep, "evaluate_alert_rule", alert_rule_id=muted["id"])
    assert res["changed"] and res["notified"] == []


def test_an_alert_window_cannot_outlast_the_index_retention(ep: Episode) -> None:
    staging = first(ep, "indexes", name="staging")
    refused(
        ep,
        "create_alert_rule",
        "rule_violation",
        "window_minutes",
        name="Weekly",
        index_id=staging["id"],
        query="",
        threshold=1,
        window_minutes=7 * 24 * 60,
    )
    refused(
        ep,
        "create_alert_rule",
        "rule_violation",
        "query",
        name="Bad",
        index_id=staging["id"],
        query="colour:red",
        threshold=1,
    )
