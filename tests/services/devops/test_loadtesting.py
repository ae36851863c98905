"""Surgeload: test options and plan limits, runs with thresholds, aborts, baselines, schedules, deletions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

LT = ServiceTools("loadtesting")
WORLD = LT.world
ok, refused, every, first = LT.ok, LT.refused, LT.every, LT.first
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
DEV = POP.employees[0].email
SCENARIO = {"name": "main", "executor": "constant-vus", "vus": 10, "duration_s": 60}


def load_test(ep: Episode, name: str) -> dict[str, Any]:
    return first(ep, "load_tests", name=name)


def new_test(ep: Episode, **extra: Any) -> dict[str, Any]:
    project = first(ep, "projects", name="Storefront")
    args = {
        "project_id": project["id"],
        "name": "Cart",
        "target_url": "https://shop.example.com/cart",
        "scenarios": [SCENARIO],
        "created_by": DEV,
    }
    return dict(ok(ep, "create_load_test", **args | extra))


def test_seeded_runs_match_their_tests(ep: Episode) -> None:
    for t in every(ep, "list_load_tests"):
        assert t["created_by"] in STAFF
        runs = every(ep, "list_test_runs", load_test_id=t["id"])
        assert sum(r["status"] in ("queued", "running") for r in runs) <= 1
        if t["baseline_run_id"] is not None:
            base = ok(ep, "get_test_run", test_run_id=t["baseline_run_id"])
            assert base["status"] == "completed" and base["load_test_id"] == t["id"]
        for r in runs:
            if r["threshold_results"]:
                assert (r["result"] == "passed") == all(x["passed"] for x in r["threshold_results"])


def test_options_respect_the_plan_and_metric_statistics(ep: Episode) -> None:
    big = SCENARIO | {"vus": 500}
    p = first(ep, "projects", name="Storefront")
    args = {"project_id": p["id"], "name": "X", "target_url": "https://x.io", "created_by": DEV}
    refused(
        ep,
        "create_load_test",
        "rule_violation",
        "scenarios",
        scenarios=[big, big | {"name": "b"}, big | {"name": "c"}],
        **args,
    )
    refused(ep, "create_load_test", "rule_violation", "scenarios", scenarios=[SCENARIO, SCENARIO], **args)
    bad = {"metric": "http_req_failed", "stat": "p95", "operator": "<", "value": 0.01}
    refused(ep, "create_load_test", "rule_violation", "thresholds", scenarios=[SCENARIO], thresholds=[bad], **args)
    pct = {"metric": "checks", "stat": "rate", "operator": ">", "value": 99}
    refused(ep, "create_load_test", "rule_violation", "thresholds", scenarios=[SCENARIO], thresholds=[pct], **args)
    refused(ep, "create_load_test", "conflict", "name", scenarios=[SCENARIO], **args | {"name": "Checkout API spike"})
    made = new_test(ep)
    refused(ep, "update_load_test", "rule_violation", "thresholds", load_test_id=made["id"], thresholds=[bad])


def test_a_run_evaluates_thresholds_and_passes_only_if_all_hold(ep: Episode) -> None:
    smoke = load_test(ep, "Checkout API smoke")
    run = ok(ep, "start_test_run", load_test_id=smoke["id"], started_by=DEV)
    assert (run["status"], run["result"], run["started_by"]) == ("completed", "passed", DEV)
    p95 = next(m["value"] for m in run["metrics"] if m["stat"] == "p95")
    tight = {"metric": "http_req_duration", "stat": "p95", "operator": "<", "value": p95 - 1}
    ok(ep, "update_load_test", load_test_id=smoke["id"], thresholds=[tight])
    failed = ok(ep, "start_test_run", load_test_id=smoke["id"], started_by=DEV)
    assert (failed["status"], failed["result"]) == ("completed", "failed")
    assert failed["threshold_results"][0]["actual"] == p95


def test_latency_grows_with_virtual_users(ep: Episode) -> None:
    low = new_test(ep, name="Low")
    high = new_test(ep, name="High", scenarios=[SCENARIO | {"vus": 400}])
    a = ok(ep, "start_test_run", load_test_id=low["id"], started_by=DEV)
    b = ok(ep, "start_test_run", load_test_id=high["id"], started_by=DEV)
    p95 = {r["id"]: next(m["value"] for m in r["metrics"] if m["stat"] == "p95") for r in (a, b)}
    assert p95[b["id"]] > p95[a["id"]]


def test_a_failed_abort_on_fail_threshold_aborts_the_run(ep: Episode) -> None:
    made = new_test(
        ep,
        thresholds=[{"metric": "http_req_duration", "stat": "p95", "operator": "<", "value": 1, "abort_on_fail": True}],
    )
    run = ok(ep, "start_test_run", load_test_id=made["id"], started_by=DEV)
    assert (run["status"], run["aborted_reason"], run["result"]) == ("aborted", "by_threshold", "failed")
    refused(ep, "set_baseline", "rule_violation", "test_run_id", test_run_id=run["id"])


def test_one_active_run_per_test_and_users_abort_it(ep: Episode) -> None:
    running = first(ep, "test_runs", status="running")
    test = running["load_test_id"]
    refused(ep, "start_test_run", "conflict", "load_test_id", load_test_id=test, started_by=DEV)
    refused(
        ep,
        "start_test_run",
        "rule_violation",
        "started_by",
        load_test_id=load_test(ep, "Login soak")["id"],
        started_by="q@q.io",
    )
    refused(ep, "delete_load_test", "conflict", "load_test_id", load_test_id=test)
    aborted = ok(ep, "abort_test_run", test_run_id=running["id"])
    assert (aborted["status"], aborted["aborted_reason"]) == ("aborted", "by_user")
    refused(ep, "abort_test_run", "conflict", "test_run_id", test_run_id=running["id"])
    assert ok(ep, "start_test_run", load_test_id=test, started_by=DEV)["status"] == "completed"
    queued = first(ep, "test_runs", status="queued")
    assert ok(ep, "abort_test_run", test_run_id=queued["id"])["status"] == "aborted"


def test_runs_compare_against_the_baseline(ep: Episode) -> None:
    smoke = load_test(ep, "Checkout API smoke")
    run = ok(ep, "start_test_run", load_test_id=smoke["id"], started_by=DEV)
    refused(ep, "compare_to_baseline", "rule_violation", "test_run_id", test_run_id=run["id"])
    ok(ep, "set_baseline", test_run_id=run["id"])
    refused(ep, "set_baseline", "conflict", "test_run_id", test_run_id=run["id"])
    ok(ep, "update_load_test", load_test_id=smoke["id"], scenarios=[SCENARIO | {"vus": 200}])
    heavier = ok(ep, "start_test_run", load_test_id=smoke["id"], started_by=DEV)
    cmp = ok(ep, "compare_to_baseline", test_run_id=heavier["id"])
    assert cmp["baseline_run_id"] == run["id"]
    assert next(d["value"] for d in cmp["deltas"] if d["stat"] == "p95") > 0


def test_a_test_has_one_schedule_that_starts_in_the_future(ep: Episode) -> None:
    spike = load_test(ep, "Checkout API spike")
    refused(
        ep, "create_schedule", "conflict", "load_test_id", load_test_id=spike["id"], frequency="daily", created_by=DEV
    )
    smoke = load_test(ep, "Checkout API smoke")
    refused(
        ep,
        "create_schedule",
        "rule_violation",
        "starts",
        load_test_id=smoke["id"],
        frequency="daily",
        created_by=DEV,
        starts="2020-01-01T00:00:00Z",
    )
    sch = ok(ep, "create_schedule", load_test_id=smoke["id"], frequency="hourly", created_by=DEV)
    assert sch["active"] is True
    assert ok(ep, "deactivate_schedule", schedule_id=sch["id"])["active"] is False
    refused(ep, "deactivate_schedule", "rule_violation", "schedule_id", schedule_id=sch["id"])


def test_projects_with_tests_cannot_be_deleted(ep: Episode) -> None:
    store = first(ep, "projects", name="Storefront")
    refused(ep, "delete_project", "conflict", "project_id", project_id=store["id"])
    refused(ep, "create_project", "conflict", "name", name="Identity")
    made = new_test(ep)
    ok(ep, "create_schedule", load_test_id=made["id"], frequency="daily", created_by=DEV)
    ok(ep, "delete_load_test", load_test_id=made["id"])
    assert all(x["load_test_id"] != made["id"] for x in every(ep, "list_schedules"))
    ok(ep, "delete_project", project_id=first(ep, "projects", name="Partner API")["id"])
