"""Furrow Operations: boundaries give acres, seasons, work plans with the right machines, harvest limits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FARM = ServiceTools("farmops")
WORLD = FARM.world
ok, refused, every = FARM.ok, FARM.refused, FARM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
OPERATOR = POP.employees[0].email
SQUARE = [
    {"lat": 42.0, "lon": -93.5},
    {"lat": 42.0, "lon": -93.49},
    {"lat": 42.01, "lon": -93.49},
    {"lat": 42.01, "lon": -93.5},
]


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def machine(ep: Episode, kind: str) -> dict[str, Any]:
    return every(ep, "list_machines", machine_type=kind, status="available")[-1]


def plan(ep: Episode, season: dict[str, Any], op: str, kind: str) -> Any:
    return ok(
        ep,
        "create_work_plan",
        season_id=season["id"],
        operation=op,
        machine_id=machine(ep, kind)["id"],
        operator_email=OPERATOR,
        planned_date=day(5),
    )


def test_seeded_fields_belong_to_customer_growers_and_acres_match_boundaries(ep: Episode) -> None:
    customers = {c.name for c in POP.customers}
    orgs = {o["id"]: o for o in every(ep, "list_organizations")}
    assert {o["name"] for o in orgs.values()} <= customers
    for f in every(ep, "list_fields"):
        farm = ok(ep, "get_farm", farm_id=f["farm_id"])
        assert farm["org_id"] == f["org_id"] in orgs
        assert 50 < f["acres"] < 400
    for s in every(ep, "list_seasons", status="harvested"):
        cut = sum(h["acres"] for h in every(ep, "list_harvests", season_id=s["id"]))
        assert abs(cut - ok(ep, "get_field", field_id=s["field_id"])["acres"]) < 0.05


def test_a_field_gets_its_acres_from_the_boundary(ep: Episode) -> None:
    farm = every(ep, "list_farms")[0]
    made = ok(ep, "create_field", farm_id=farm["id"], name="Test square", boundary=SQUARE)
    assert 220 < made["acres"] < 232  # 0.01° × 0.01° at 42° N ≈ 0.827 km × 1.105 km ≈ 0.914 km² ≈ 226 acres
    refused(ep, "create_field", "conflict", "name", farm_id=farm["id"], name="test square", boundary=SQUARE)
    line = [SQUARE[0], SQUARE[1], {"lat": 42.0, "lon": -93.48}]
    refused(ep, "create_field", "rule_violation", "boundary", farm_id=farm["id"], name="Line", boundary=line)


def test_one_season_per_field_and_year(ep: Episode) -> None:
    season = every(ep, "list_seasons", year=TODAY.year)[0]
    args = {"field_id": season["field_id"], "crop": "corn", "target_yield": 190}
    refused(ep, "plan_season", "conflict", "year", year=TODAY.year, **args)
    refused(ep, "plan_season", "rule_violation", "year", year=TODAY.year - 2, **args)
    made = ok(ep, "plan_season", year=TODAY.year + 1, **args)
    assert made["status"] == "planned"


def test_work_plans_need_the_right_available_machine(ep: Episode) -> None:
    season = every(ep, "list_seasons", status="planned")[0]
    base = {"season_id": season["id"], "operator_email": OPERATOR, "planned_date": day(5)}
    refused(
        ep,
        "create_work_plan",
        "rule_violation",
        "machine_id",
        operation="seeding",
        machine_id=machine(ep, "sprayer")["id"],
        **base,
    )
    broken = every(ep, "list_machines", status="maintenance")[0]
    refused(
        ep, "create_work_plan", "rule_violation", "machine_id", operation="harvest", machine_id=broken["id"], **base
    )
    refused(
        ep,
        "create_work_plan",
        "rule_violation",
        "season_id",
        operation="harvest",
        machine_id=machine(ep, "combine")["id"],
        **base,
    )
    refused(
        ep,
        "create_work_plan",
        "rule_violation",
        "operator_email",
        operation="seeding",
        machine_id=machine(ep, "planter")["id"],
        **(base | {"operator_email": "x@y.io"}),
    )
    made = plan(ep, season, "seeding", "planter")
    assert made["status"] == "planned" and made["field_id"] == season["field_id"]


def test_completing_seeding_plants_the_season_and_adds_machine_hours(ep: Episode) -> None:
    season = every(ep, "list_seasons", status="planned")[0]
    wp = plan(ep, season, "seeding", "planter")
    refused(ep, "complete_work_plan", "rule_violation", "work_plan_id", work_plan_id=wp["id"], hours=5)
    ok(ep, "start_work_plan", work_plan_id=wp["id"])
    before = ok(ep, "get_machine", machine_id=wp["machine_id"])["engine_hours"]
    ok(ep, "complete_work_plan", work_plan_id=wp["id"], hours=7.5)
    assert ok(ep, "get_machine", machine_id=wp["machine_id"])["engine_hours"] == before + 7.5
    planted = ok(ep, "get_season", season_id=season["id"])
    assert (planted["status"], planted["planted_on"]) == ("planted", TODAY.isoformat())
    refused(
        ep,
        "create_work_plan",
        "rule_violation",
        "season_id",
        season_id=season["id"],
        operation="seeding",
        machine_id=wp["machine_id"],
        operator_email=OPERATOR,
        planned_date=day(9),
    )


def test_a_machine_works_one_plan_at_a_time_and_not_in_maintenance(ep: Episode) -> None:
    busy = every(ep, "list_work_plans", status="in_progress")[0]
    waiting = next(p for p in every(ep, "list_work_plans", status="planned") if p["machine_id"] == busy["machine_id"])
    refused(ep, "start_work_plan", "conflict", "work_plan_id", work_plan_id=waiting["id"])
    refused(ep, "service_machine", "conflict", "machine_id", machine_id=busy["machine_id"])
    ok(ep, "complete_work_plan", work_plan_id=busy["id"], hours=3)
    ok(ep, "service_machine", machine_id=busy["machine_id"])
    refused(ep, "start_work_plan", "rule_violation", "work_plan_id", work_plan_id=waiting["id"])
    refused(ep, "update_machine", "rule_violation", "engine_hours", machine_id=busy["machine_id"], engine_hours=1)


def test_harvest_never_exceeds_the_field_and_completes_the_season_at_95_percent(ep: Episode) -> None:
    season = every(ep, "list_seasons", status="planted")[0]
    acres = ok(ep, "get_field", field_id=season["field_id"])["acres"]
    refused(
        ep,
        "record_harvest",
        "rule_violation",
        "acres",
        season_id=season["id"],
        acres=acres + 1,
        total_bushels=100,
        moisture=14,
    )
    first = ok(ep, "record_harvest", season_id=season["id"], acres=round(acres / 2, 2), total_bushels=3000, moisture=14)
    assert first["yield_per_acre"] == round(3000 / round(acres / 2, 2), 1)
    assert ok(ep, "get_season", season_id=season["id"])["status"] == "planted"
    ok(ep, "record_harvest", season_id=season["id"], acres=round(acres * 0.46, 2), total_bushels=2800, moisture=13.5)
    assert ok(ep, "get_season", season_id=season["id"])["status"] == "harvested"
    refused(
        ep,
        "record_harvest",
        "rule_violation",
        "season_id",
        season_id=season["id"],
        acres=0.5,
        total_bushels=10,
        moisture=14,
    )


def test_fields_with_open_plans_cannot_be_archived(ep: Episode) -> None:
    wp = every(ep, "list_work_plans", status="planned")[0]
    refused(ep, "archive_field", "conflict", "field_id", field_id=wp["field_id"])
    ok(ep, "cancel_work_plan", work_plan_id=wp["id"])
    others = [p for p in every(ep, "list_work_plans", field_id=wp["field_id"]) if p["status"] == "planned"]
    for p in others:
        ok(ep, "cancel_work_plan", work_plan_id=p["id"])
    assert ok(ep, "archive_field", field_id=wp["field_id"])["status"] == "archived"
    refused(
        ep,
        "plan_season",
        "rule_violation",
        "field_id",
        field_id=wp["field_id"],
        year=TODAY.year + 1,
        crop="corn",
        target_yield=180,
    )


def test_field_summary_reports_the_latest_season(ep: Episode) -> None:
    season = every(ep, "list_seasons", status="planted")[0]
    ok(ep, "record_harvest", season_id=season["id"], acres=10, total_bushels=750, moisture=13)
    summary = ok(ep, "field_summary", field_id=season["field_id"])
    assert (summary["crop"], summary["season_status"], summary["harvested_acres"]) == (season["crop"], "planted", 10)
    assert summary["average_yield"] == 75.0
