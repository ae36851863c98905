"""Orgplan Headcount: the org chart, vacancies and backfills, openings approved against the active scenario."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.org import org_chart
from tests.services.helpers import ServiceTools

HC = ServiceTools("headcount")
WORLD = HC.world
ok, refused, every = HC.ok, HC.refused, HC.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
CHART = org_chart(POP.employees)


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def top(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_positions", holder_email=CHART.top.email)[0]


def new_opening(ep: Episode, cost: int = 5_000_000, **over: Any) -> dict[str, Any]:
    boss = top(ep)
    args = {
        "kind": "new",
        "title": "Data Engineer",
        "department": boss["department"],
        "manager_position_id": boss["id"],
        "country": boss["country"],
        "annual_cost_cents": cost,
        "target_start": day(30),
        "requested_by": boss["holder_email"],
    }
    return dict(ok(ep, "request_opening", **(args | over)))


def approver(opening: dict[str, Any]) -> str:
    return next(e for e in sorted(STAFF) if e != opening["requested_by"])


def test_the_org_chart_mirrors_the_company_s_reporting_lines(ep: Episode) -> None:
    for pos in every(ep, "list_positions", status="filled"):
        person = next(p for p in POP.employees if p.email == pos["holder_email"])
        mgr = CHART.manager_of(person)
        if mgr is None:
            assert pos["manager_position_id"] is None
        else:
            boss = ok(ep, "get_position", position_id=pos["manager_position_id"])
            assert boss["holder_email"] == mgr.email
    view = ok(ep, "org_view", position_id=top(ep)["id"])
    live = every(ep, "list_positions", status="filled") + every(ep, "list_positions", status="open")
    assert view["total_reports"] == len(live) - 1
    assert view["open_positions"] == len(every(ep, "list_positions", status="open"))


def test_a_reporting_loop_is_refused(ep: Episode) -> None:
    boss = top(ep)
    report = every(ep, "list_positions", manager_position_id=boss["id"], status="filled")[0]
    refused(
        ep,
        "update_position",
        "rule_violation",
        "manager_position_id",
        position_id=boss["id"],
        manager_position_id=report["id"],
    )
    other = every(ep, "list_positions", manager_position_id=boss["id"], status="filled")[1]
    moved = ok(ep, "update_position", position_id=report["id"], manager_position_id=other["id"])
    assert moved["manager_position_id"] == other["id"]


def test_openings_need_a_known_department_a_live_manager_and_a_future_start(ep: Episode) -> None:
    boss = top(ep)
    base = {
        "kind": "new",
        "title": "Analyst",
        "department": boss["department"],
        "manager_position_id": boss["id"],
        "country": "US",
        "annual_cost_cents": 100,
        "target_start": day(10),
        "requested_by": CHART.top.email,
    }
    refused(ep, "request_opening", "rule_violation", "department", **(base | {"department": "Nowhere"}))
    refused(ep, "request_opening", "rule_violation", "target_start", **(base | {"target_start": day(0)}))
    refused(ep, "request_opening", "rule_violation", "requested_by", **(base | {"requested_by": "a@b.io"}))
    vacant = every(ep, "list_positions", status="open")[0]
    refused(ep, "request_opening", "rule_violation", "backfill_of", **(base | {"backfill_of": vacant["id"]}))
    refused(ep, "request_opening", "rule_violation", "backfill_of", **(base | {"kind": "backfill"}))
    assert ok(ep, "request_opening", **base)["status"] == "draft"


def test_approval_creates_an_open_position_and_nobody_approves_their_own(ep: Episode) -> None:
    o = new_opening(ep)
    refused(ep, "approve_opening", "conflict", "opening_id", opening_id=o["id"], approver_email=approver(o))
    ok(ep, "submit_opening", opening_id=o["id"])
    refused(
        ep, "approve_opening", "rule_violation", "approver_email", opening_id=o["id"], approver_email=o["requested_by"]
    )
    done = ok(ep, "approve_opening", opening_id=o["id"], approver_email=approver(o))
    active = every(ep, "list_scenarios", status="active")[0]
    assert (done["status"], done["scenario_id"]) == ("approved", active["id"])
    pos = ok(ep, "get_position", position_id=done["position_id"])
    assert (pos["status"], pos["opening_id"], pos["manager_position_id"]) == ("open", o["id"], o["manager_position_id"])


def test_approval_must_fit_the_active_scenario_budget(ep: Episode) -> None:
    active = every(ep, "list_scenarios", status="active")[0]
    left = ok(ep, "scenario_budget", scenario_id=active["id"])["remaining_cents"]
    big = new_opening(ep, cost=left + 1)
    ok(ep, "submit_opening", opening_id=big["id"])
    refused(ep, "approve_opening", "rule_violation", "opening_id", opening_id=big["id"], approver_email=approver(big))
    ok(ep, "update_scenario", scenario_id=active["id"], budget_cents=active["budget_cents"] + 1)
    assert ok(ep, "approve_opening", opening_id=big["id"], approver_email=approver(big))["status"] == "approved"
    after = ok(ep, "scenario_budget", scenario_id=active["id"])
    assert after["remaining_cents"] == 0


def test_one_scenario_is_active_and_it_must_cover_filled_positions(ep: Episode) -> None:
    draft = every(ep, "list_scenarios", status="draft")[0]
    old = every(ep, "list_scenarios", status="active")[0]
    filled = ok(ep, "scenario_budget", scenario_id=draft["id"])["filled_cents"]
    ok(ep, "update_scenario", scenario_id=draft["id"], budget_cents=filled - 1)
    refused(ep, "activate_scenario", "rule_violation", "scenario_id", scenario_id=draft["id"])
    ok(ep, "update_scenario", scenario_id=draft["id"], budget_cents=filled)
    assert ok(ep, "activate_scenario", scenario_id=draft["id"])["status"] == "active"
    assert ok(ep, "get_scenario", scenario_id=old["id"])["status"] == "archived"
    refused(ep, "update_scenario", "rule_violation", "scenario_id", scenario_id=old["id"], name="Again")
    refused(ep, "activate_scenario", "conflict", "scenario_id", scenario_id=old["id"])


def test_a_backfill_replaces_a_vacated_position_once_and_is_filled_by_a_hire(ep: Episode) -> None:
    pending = every(ep, "list_openings", kind="backfill", status="pending_approval")[0]
    boss = ok(ep, "get_position", position_id=pending["manager_position_id"])
    again = {
        "kind": "backfill",
        "title": "Again",
        "department": boss["department"],
        "manager_position_id": boss["id"],
        "country": "US",
        "annual_cost_cents": 100,
        "target_start": day(10),
        "requested_by": CHART.top.email,
        "backfill_of": pending["backfill_of"],
    }
    refused(ep, "request_opening", "conflict", "backfill_of", **again)
    refused(ep, "close_position", "conflict", "position_id", position_id=pending["backfill_of"])
    ok(ep, "approve_opening", opening_id=pending["id"], approver_email=approver(pending))
    holders = {p["holder_email"] for p in every(ep, "list_positions", status="filled")}
    held = next(iter(holders))
    refused(ep, "assign_person", "conflict", "employee_email", position_id=pending["backfill_of"], employee_email=held)
    refused(
        ep,
        "assign_person",
        "rule_violation",
        "employee_email",
        position_id=pending["backfill_of"],
        employee_email="new@hire.io",
    )
    free = next(e for e in sorted(STAFF) if e not in holders)
    pos = ok(ep, "assign_person", position_id=pending["backfill_of"], employee_email=free)
    assert (pos["status"], pos["holder_email"]) == ("filled", free)
    assert ok(ep, "get_opening", opening_id=pending["id"])["status"] == "filled"


def test_vacating_and_closing_positions(ep: Episode) -> None:
    boss = top(ep)
    leaf = next(
        p
        for p in every(ep, "list_positions", status="filled")
        if p["manager_position_id"] and not every(ep, "list_positions", manager_position_id=p["id"])
    )
    refused(ep, "close_position", "conflict", "position_id", position_id=leaf["id"])
    vac = ok(ep, "vacate_position", position_id=leaf["id"])
    assert (vac["status"], vac["holder_email"]) == ("open", None)
    refused(ep, "vacate_position", "conflict", "position_id", position_id=leaf["id"])
    assert ok(ep, "close_position", position_id=leaf["id"])["status"] == "closed"
    refused(ep, "update_position", "rule_violation", "position_id", position_id=leaf["id"], title="Back")
    ok(ep, "vacate_position", position_id=boss["id"])
    refused(ep, "close_position", "rule_violation", "position_id", position_id=boss["id"])


def test_cancelling_an_approved_opening_closes_its_unfilled_position(ep: Episode) -> None:
    approved = every(ep, "list_openings", status="approved")[0]
    assert ok(ep, "cancel_opening", opening_id=approved["id"])["status"] == "cancelled"
    assert ok(ep, "get_position", position_id=approved["position_id"])["status"] == "closed"
    refused(ep, "cancel_opening", "conflict", "opening_id", opening_id=approved["id"])
    rejected = every(ep, "list_openings", status="rejected")[0]
    refused(ep, "submit_opening", "conflict", "opening_id", opening_id=rejected["id"])
