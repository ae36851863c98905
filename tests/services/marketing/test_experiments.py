"""Forkline Experiments: lifecycle, variation weights, start prerequisites, significance-gated winners."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EXP = ServiceTools("experiments")
WORLD = EXP.world
ok, refused, every = EXP.ok, EXP.refused, EXP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
OWNER = POP.employees[0].email
HALF = [{"key": "control", "name": "A", "weight": 5000}, {"key": "treatment", "name": "B", "weight": 5000}]


def by_key(ep: Episode, key: str) -> dict[str, Any]:
    return every(ep, "list_experiments", key=key)[0]


def web(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_projects", platform="web", status="active")[0]


def test_seeded_projects_and_experiments_belong_to_employees_in_every_status(ep: Episode) -> None:
    for p in every(ep, "list_projects"):
        assert p["owner_email"] in STAFF
    exps = every(ep, "list_experiments")
    assert {e["status"] for e in exps} == {"not_started", "running", "paused", "concluded", "archived"}
    for e in exps:
        assert e["owner_email"] in STAFF
        assert sum(v["weight"] for v in e["variations"]) == 10000
        events = {x["id"] for x in every(ep, "list_events", project_id=e["project_id"])}
        assert set(e["metric_ids"]) <= events


def test_creating_an_experiment_checks_weights_keys_and_owner(ep: Episode) -> None:
    p = web(ep)
    base = {"project_id": p["id"], "name": "Trust badges", "owner_email": OWNER}
    bad = [{"key": "control", "name": "A", "weight": 5000}, {"key": "treatment", "name": "B", "weight": 4000}]
    refused(ep, "create_experiment", "rule_violation", "variations", key="trust_badges", variations=bad, **base)
    twice = [{"key": "alpha", "name": "A", "weight": 5000}, {"key": "alpha", "name": "B", "weight": 5000}]
    refused(ep, "create_experiment", "rule_violation", "variations", key="trust_badges", variations=twice, **base)
    refused(
        ep,
        "create_experiment",
        "rule_violation",
        "owner_email",
        key="trust_badges",
        variations=HALF,
        **(base | {"owner_email": "x@y.io"}),
    )
    refused(ep, "create_experiment", "conflict", "key", key="pricing_page_layout", variations=HALF, **base)
    made = ok(ep, "create_experiment", key="trust_badges", variations=HALF, **base)
    assert (made["status"], made["started_at"]) == ("not_started", None)


def test_starting_needs_two_variations_and_a_metric(ep: Episode) -> None:
    p = web(ep)
    one = [{"key": "control", "name": "Only", "weight": 10000}]
    made = ok(ep, "create_experiment", project_id=p["id"], key="solo", name="Solo", owner_email=OWNER, variations=one)
    refused(ep, "start_experiment", "rule_violation", "experiment_id", experiment_id=made["id"])
    ok(ep, "set_variations", experiment_id=made["id"], variations=HALF)
    refused(ep, "start_experiment", "rule_violation", "experiment_id", experiment_id=made["id"])
    ok(ep, "add_metric", experiment_id=made["id"])
    running = ok(ep, "start_experiment", experiment_id=made["id"])
    assert running["status"] == "running" and running["started_at"] is not None
    refused(ep, "start_experiment", "conflict", "experiment_id", experiment_id=made["id"])


def test_variations_are_fixed_once_the_experiment_has_run(ep: Episode) -> None:
    running = every(ep, "list_experiments", status="running")[0]
    refused(ep, "set_variations", "conflict", "experiment_id", experiment_id=running["id"], variations=HALF)
    fresh = every(ep, "list_experiments", status="not_started")[0]
    assert len(ok(ep, "set_variations", experiment_id=fresh["id"], variations=HALF)["variations"]) == 2


def test_pause_resume_and_archive_follow_the_lifecycle(ep: Episode) -> None:
    running = by_key(ep, "checkout_single_page")
    refused(ep, "archive_experiment", "rule_violation", "experiment_id", experiment_id=running["id"])
    refused(ep, "delete_experiment", "conflict", "experiment_id", experiment_id=running["id"])
    paused = ok(ep, "pause_experiment", experiment_id=running["id"])
    assert paused["status"] == "paused"
    again = ok(ep, "start_experiment", experiment_id=running["id"])
    assert (again["status"], again["started_at"]) == ("running", running["started_at"])
    concluded = by_key(ep, "free_shipping_banner")
    refused(ep, "start_experiment", "conflict", "experiment_id", experiment_id=concluded["id"])
    refused(ep, "update_experiment", "rule_violation", "experiment_id", experiment_id=concluded["id"], name="New")
    assert ok(ep, "archive_experiment", experiment_id=concluded["id"])["status"] == "archived"


def test_results_compute_rates_lift_and_significance(ep: Episode) -> None:
    res = ok(ep, "experiment_results", experiment_id=by_key(ep, "pricing_page_layout")["id"])
    base, var = res["variations"]
    assert (base["conversion_rate"], base["lift"], base["significance"]) == (3.0, None, None)
    assert var["conversion_rate"] == round(751 / 20310 * 100, 2)
    assert var["lift"] == round((751 / 20310 - 0.03) / 0.03 * 100, 2)
    assert var["significance"] > 99 and var["is_significant"] and res["leader_key"] == "variant"
    flat = ok(ep, "experiment_results", experiment_id=by_key(ep, "checkout_single_page")["id"])
    assert flat["leader_key"] is None and not flat["variations"][1]["is_significant"]


def test_a_winner_must_be_significant(ep: Episode) -> None:
    flat = by_key(ep, "checkout_single_page")
    refused(ep, "conclude_experiment", "rule_violation", "winner_key", experiment_id=flat["id"], winner_key="variant")
    refused(ep, "conclude_experiment", "rule_violation", "winner_key", experiment_id=flat["id"], winner_key="nope")
    assert ok(ep, "conclude_experiment", experiment_id=flat["id"])["winner_key"] is None
    lead = by_key(ep, "pricing_page_layout")
    done = ok(ep, "conclude_experiment", experiment_id=lead["id"], winner_key="variant")
    assert (done["status"], done["winner_key"]) == ("concluded", "variant") and done["concluded_at"]
    refused(ep, "conclude_experiment", "conflict", "experiment_id", experiment_id=lead["id"])


def test_audiences_and_events_in_use_cannot_be_deleted(ep: Episode) -> None:
    running = next(e for e in every(ep, "list_experiments", status="running") if e["audience_ids"])
    refused(ep, "delete_audience", "conflict", "audience_id", audience_id=running["audience_ids"][0])
    refused(ep, "delete_event", "conflict", "event_id", event_id=running["metric_ids"][0])
    p = web(ep)
    refused(ep, "create_audience", "conflict", "name", project_id=p["id"], name="Mobile visitors", conditions="x")
    aud = ok(ep, "create_audience", project_id=p["id"], name="Tablet visitors", conditions="device = tablet")
    ok(ep, "delete_audience", audience_id=aud["id"])


def test_archived_projects_take_nothing_new(ep: Episode) -> None:
    old = every(ep, "list_projects", status="archived")[0]
    refused(ep, "create_event", "rule_violation", "project_id", project_id=old["id"], key="buy", name="Buy")
    refused(ep, "create_project", "conflict", "name", name=old["name"], owner_email=OWNER)
    p = web(ep)
    refused(ep, "create_event", "conflict", "key", project_id=p["id"], key="purchase", name="Buy")
    made = ok(ep, "create_event", project_id=p["id"], key="wishlist_add", name="Wishlist", event_type="click")
    assert made["event_type"] == "click"


def test_end_to_end_experiment_workflow(ep: Episode) -> None:
    proj = ok(ep, "create_project", name="Onboarding", owner_email=OWNER, platform="custom", confidence_level=95)
    evt = ok(ep, "create_event", project_id=proj["id"], key="activated", name="Activated")
    exp = ok(
        ep,
        "create_experiment",
        project_id=proj["id"],
        key="tour",
        name="Product tour",
        owner_email=OWNER,
        variations=HALF,
        metric_ids=[evt["id"]],
        traffic_allocation=20.0,
    )
    ok(ep, "start_experiment", experiment_id=exp["id"])
    res = ok(ep, "experiment_results", experiment_id=exp["id"])
    assert res["confidence_level"] == 95 and res["leader_key"] is None
    assert ok(ep, "conclude_experiment", experiment_id=exp["id"])["status"] == "concluded"
    ok(ep, "archive_project", project_id=proj["id"])
    refused(ep, "create_event", "rule_violation", "project_id", project_id=proj["id"], key="x_y", name="X")
