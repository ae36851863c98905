"""Plantwise CMMS: work order lifecycle, parts consumption, requests, preventive schedules, meter triggers."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FM = ServiceTools("facilities")
WORLD = FM.world
ok, refused, every = FM.ok, FM.refused, FM.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
TECH = POP.employees[0].email


def part(ep: Episode, number: str) -> dict[str, Any]:
    return every(ep, "list_parts", part_number=number)[0]


def test_seeded_sites_are_the_home_company_and_people_are_staff(ep: Episode) -> None:
    for loc in every(ep, "list_locations"):
        assert loc["name"].startswith(POP.home.name) and loc["manager_email"] in STAFF
    for wo in every(ep, "list_work_orders"):
        assert wo["assignee_email"] is None or wo["assignee_email"] in STAFF
    for req in every(ep, "list_requests"):
        assert req["requested_by"] in STAFF
    down = every(ep, "list_assets", status="down")
    assert down and all(every(ep, "list_work_orders", asset_id=a["id"], status="in_progress") for a in down)


def test_a_work_order_starts_only_when_assigned_and_completion_brings_the_asset_back(ep: Episode) -> None:
    unassigned = next(w for w in every(ep, "list_work_orders", status="open") if w["assignee_email"] is None)
    refused(ep, "start_work_order", "rule_violation", "work_order_id", work_order_id=unassigned["id"])
    refused(ep, "complete_work_order", "rule_violation", "work_order_id", work_order_id=unassigned["id"])
    ok(ep, "update_work_order", work_order_id=unassigned["id"], assignee_email=TECH)
    assert ok(ep, "start_work_order", work_order_id=unassigned["id"])["status"] == "in_progress"
    urgent = every(ep, "list_work_orders", status="in_progress", priority="urgent")[0]
    done = ok(ep, "complete_work_order", work_order_id=urgent["id"], minutes_spent=75)
    assert (done["status"], done["minutes_spent"]) == ("complete", 75) and done["completed_at"] is not None
    assert ok(ep, "get_asset", asset_id=urgent["asset_id"])["status"] == "operational"
    refused(ep, "update_work_order", "rule_violation", "work_order_id", work_order_id=urgent["id"], priority="low")


def test_completing_consumes_parts_and_refuses_when_stock_is_short(ep: Episode) -> None:
    held = every(ep, "list_work_orders", status="on_hold")[0]
    use = held["parts_used"][0]
    stock = ok(ep, "get_part", part_id=use["part_id"])
    ok(ep, "start_work_order", work_order_id=held["id"])
    ok(ep, "update_work_order", work_order_id=held["id"], parts_used=[{"part_id": use["part_id"], "quantity": 99}])
    refused(ep, "complete_work_order", "rule_violation", "work_order_id", work_order_id=held["id"])
    ok(ep, "update_work_order", work_order_id=held["id"], parts_used=[{"part_id": use["part_id"], "quantity": 2}])
    ok(ep, "complete_work_order", work_order_id=held["id"])
    assert ok(ep, "get_part", part_id=use["part_id"])["quantity"] == stock["quantity"] - 2


def test_low_stock_lists_parts_under_their_minimum_and_restocking_clears_them(ep: Episode) -> None:
    alerts = ok(ep, "low_stock_parts")
    low = [p for p in every(ep, "list_parts") if p["quantity"] < p["minimum_quantity"]]
    assert {a["part_id"] for a in alerts} == {p["id"] for p in low} and low
    first = next(a for a in alerts if a["part_id"] == low[0]["id"])
    assert first["reorder_cost"] == (2 * low[0]["minimum_quantity"] - low[0]["quantity"]) * low[0]["unit_cost"]
    ok(ep, "restock_part", part_id=low[0]["id"], quantity=low[0]["minimum_quantity"])
    assert low[0]["id"] not in {a["part_id"] for a in ok(ep, "low_stock_parts")}
    refused(ep, "restock_part", "invalid_arguments", "quantity", part_id=low[0]["id"], quantity=0)


def test_approving_a_request_opens_a_work_order_and_declining_needs_a_reason(ep: Episode) -> None:
    first, second = every(ep, "list_requests", status="pending")[:2]
    refused(ep, "approve_request", "rule_violation", "assignee_email", request_id=first["id"], assignee_email="x@y.io")
    wo = ok(ep, "approve_request", request_id=first["id"], priority="high", assignee_email=TECH)
    assert (wo["title"], wo["priority"], wo["status"], wo["location_id"]) == (
        first["title"],
        "high",
        "open",
        first["location_id"],
    )
    again = ok(ep, "get_request", request_id=first["id"])
    assert (again["status"], again["work_order_id"]) == ("approved", wo["id"])
    refused(ep, "approve_request", "conflict", "request_id", request_id=first["id"])
    refused(ep, "decline_request", "rule_violation", "reason", request_id=second["id"], reason="  ")
    assert ok(ep, "decline_request", request_id=second["id"], reason="Handled by the landlord")["status"] == "declined"


def test_preventive_schedules_generate_due_work_orders_once(ep: Episode) -> None:
    due = [s for s in every(ep, "list_pm_schedules", active=True) if s["next_due"] <= TODAY.isoformat()]
    made = ok(ep, "generate_due_work_orders")
    assert sorted(w["schedule_id"] for w in made) == sorted(s["id"] for s in due)
    for w in made:
        sched = next(s for s in due if s["id"] == w["schedule_id"])
        assert (w["category"], w["due_date"], w["assignee_email"]) == (
            "preventive",
            sched["next_due"],
            sched["assignee_email"],
        )
        moved = every(ep, "list_pm_schedules", asset_id=sched["asset_id"])[0]
        step = dt.date.fromisoformat(sched["next_due"]) + dt.timedelta(days=sched["every_days"])
        assert moved["next_due"] == step.isoformat()
    week = ok(ep, "generate_due_work_orders", within_days=7)
    assert [w["title"] for w in week] == ["Monthly generator test run"]
    assert ok(ep, "generate_due_work_orders", within_days=7) == []


def test_meter_readings_never_go_back_and_crossing_the_threshold_opens_one_work_order(ep: Episode) -> None:
    meter = next(m for m in every(ep, "list_meters") if m["cumulative"] and m["threshold"])
    refused(ep, "add_meter_reading", "rule_violation", "value", meter_id=meter["id"], value=meter["last_reading"] - 1)
    ok(ep, "add_meter_reading", meter_id=meter["id"], value=meter["threshold"] - 1)
    assert not every(ep, "list_work_orders", asset_id=meter["asset_id"], category="meter")
    ok(ep, "add_meter_reading", meter_id=meter["id"], value=meter["threshold"] + 5)
    ok(ep, "add_meter_reading", meter_id=meter["id"], value=meter["threshold"] + 9)
    opened = every(ep, "list_work_orders", asset_id=meter["asset_id"], category="meter")
    assert len(opened) == 1 and opened[0]["priority"] == "high"
    gauge = next(m for m in every(ep, "list_meters") if not m["cumulative"])
    assert ok(ep, "add_meter_reading", meter_id=gauge["id"], value=1.0)["last_reading"] == 1.0


def test_decommissioning_needs_closed_work_orders_and_stops_schedules(ep: Episode) -> None:
    busy = every(ep, "list_assets", status="down")[0]
    refused(ep, "decommission_asset", "rule_violation", "asset_id", asset_id=busy["id"])
    sched = every(ep, "list_pm_schedules", active=True)[0]
    asset = sched["asset_id"]
    for w in every(ep, "list_work_orders", asset_id=asset):
        if w["status"] in ("open", "on_hold"):
            ok(ep, "cancel_work_order", work_order_id=w["id"])
    assert ok(ep, "decommission_asset", asset_id=asset)["status"] == "decommissioned"
    assert every(ep, "list_pm_schedules", asset_id=asset)[0]["active"] is False
    loc = ok(ep, "get_asset", asset_id=asset)["location_id"]
    refused(ep, "create_work_order", "rule_violation", "asset_id", title="Fix", location_id=loc, asset_id=asset)
    refused(ep, "mark_down_asset", "rule_violation", "asset_id", asset_id=asset)


def test_assets_have_unique_serials_and_work_orders_match_their_location(ep: Episode) -> None:
    known = every(ep, "list_assets")[0]
    args = {"location_id": known["location_id"], "name": "Dock door", "category": "safety"}
    refused(ep, "add_asset", "conflict", "serial", serial=known["serial"], **args)
    made = ok(ep, "add_asset", serial="HOR-2024-0042", **args)
    assert made["status"] == "operational"
    other = next(loc for loc in every(ep, "list_locations") if loc["id"] != known["location_id"])
    refused(
        ep, "create_work_order", "rule_violation", "asset_id", title="Fix", location_id=other["id"], asset_id=made["id"]
    )
    wo = ok(ep, "create_work_order", title="Fix", location_id=made["location_id"], asset_id=made["id"])
    assert (wo["status"], wo["number"].startswith("WO-")) == ("open", True)
