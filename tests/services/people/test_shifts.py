"""Rotaline: shift rules (length, breaks, training, overlap, rest, weekly hours), publishing, swaps, timesheets."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SH = ServiceTools("shifts")
WORLD = SH.world
ok, refused, every = SH.ok, SH.refused, SH.every
POP = WORLD.population


def emp(ep: Episode, k: int) -> dict[str, Any]:
    return every(ep, "list_employees")[k]


def at(day: int, hour: int) -> str:
    return f"2026-03-{day:02d}T{hour:02d}:00:00Z"


def test_shift_length_breaks_and_time_rules(ep: Episode) -> None:
    e = emp(ep, 0)
    area = e["area_ids"][0]
    base = {"area_id": area, "employee_id": e["id"]}
    refused(ep, "create_shift", "rule_violation", "end", start=at(12, 10), end=at(12, 9), **base)
    refused(ep, "create_shift", "rule_violation", "end", start=at(12, 6), end=at(12, 19), meal_break_minutes=30, **base)
    refused(ep, "create_shift", "rule_violation", "meal_break_minutes", start=at(12, 8), end=at(12, 14), **base)
    refused(
        ep, "create_shift", "rule_violation", "start", start="2026-03-01T08:00:00Z", end="2026-03-01T12:00:00Z", **base
    )
    made = ok(ep, "create_shift", start=at(14, 8), end=at(14, 14), meal_break_minutes=30, **base)
    assert (made["status"], made["location_id"]) == ("draft", e["location_id"])


def test_training_overlap_rest_and_weekly_hours(ep: Episode) -> None:
    casual = emp(ep, 2)  # trained for one area only, 20 hours a week
    other_area = next(
        a for a in every(ep, "list_areas", location_id=casual["location_id"]) if a["id"] not in casual["area_ids"]
    )
    refused(
        ep,
        "create_shift",
        "rule_violation",
        "employee_id",
        area_id=other_area["id"],
        employee_id=casual["id"],
        start=at(14, 8),
        end=at(14, 12),
    )
    worker = emp(ep, 0)  # works 08:00-16:00 today
    args = {"area_id": worker["area_ids"][0], "employee_id": worker["id"]}
    refused(ep, "create_shift", "conflict", "employee_id", start=at(2, 15), end=at(2, 18), **args)
    refused(ep, "create_shift", "rule_violation", "employee_id", start=at(2, 20), end=at(2, 23), **args)
    area = casual["area_ids"][0]
    week = ok(ep, "get_weekly_hours", employee_id=casual["id"], week_start="2026-03-09")
    left = week["hours_left"]
    assert week["max_hours"] == 20 and week["rostered_hours"] == 20 - left
    refused(
        ep,
        "create_shift",
        "rule_violation",
        "employee_id",
        area_id=area,
        employee_id=casual["id"],
        start=at(14, 8),
        end=at(14, 8 + int(left) + 1),
        meal_break_minutes=30,
    )
    ok(
        ep,
        "create_shift",
        area_id=area,
        employee_id=casual["id"],
        start=at(14, 8),
        end=at(14, 8 + int(left)),
        meal_break_minutes=30,
    )


def test_publishing_a_week_and_claiming_an_open_shift(ep: Episode) -> None:
    loc = every(ep, "list_locations")[0]["id"]
    draft_open = next(s for s in every(ep, "list_shifts", location_id=loc, status="draft") if s["employee_id"] is None)
    someone = emp(ep, 0)["id"]
    refused(ep, "claim_open_shift", "rule_violation", "shift_id", shift_id=draft_open["id"], employee_id=someone)
    refused(ep, "publish_roster", "rule_violation", "week_start", location_id=loc, week_start="2026-03-10")
    out = ok(ep, "publish_roster", location_id=loc, week_start="2026-03-09")
    assert draft_open["id"] in out["shift_ids"] and out["open_shifts"] == 5
    refused(ep, "publish_roster", "conflict", "week_start", location_id=loc, week_start="2026-03-09")
    free = next(
        e
        for e in every(ep, "list_employees", location_id=loc, active=True)
        if draft_open["area_id"] in e["area_ids"]
        and not [
            s for s in every(ep, "list_shifts", employee_id=e["id"]) if s["start"][:10] == draft_open["start"][:10]
        ]
        and ep.call("shifts__claim_open_shift", {"shift_id": draft_open["id"], "employee_id": e["id"]}).ok
    )
    assert ok(ep, "list_shifts", employee_id=free["id"], limit=100)["items"]
    refused(ep, "claim_open_shift", "conflict", "shift_id", shift_id=draft_open["id"], employee_id=someone)


def test_a_swap_moves_the_shift_once_approved(ep: Episode) -> None:
    swap = every(ep, "list_shift_swaps", status="pending")[0]
    refused(
        ep,
        "request_shift_swap",
        "conflict",
        "shift_id",
        shift_id=swap["shift_id"],
        to_employee_id=swap["to_employee_id"],
    )
    approved = ok(ep, "approve_shift_swap", shift_swap_id=swap["id"])
    assert approved["status"] == "approved"
    shift = every(ep, "list_shifts", employee_id=swap["to_employee_id"])
    assert swap["shift_id"] in [s["id"] for s in shift]
    refused(ep, "decline_shift_swap", "rule_violation", "shift_swap_id", shift_swap_id=swap["id"])


def test_swap_requests_and_their_recheck_at_approval(ep: Episode) -> None:
    swap = every(ep, "list_shift_swaps", status="pending")[0]
    shift = next(s for s in every(ep, "list_shifts") if s["id"] == swap["shift_id"])
    refused(
        ep,
        "request_shift_swap",
        "rule_violation",
        "to_employee_id",
        shift_id=shift["id"],
        to_employee_id=shift["employee_id"],
    )
    target = next(e for e in every(ep, "list_employees") if e["id"] == swap["to_employee_id"])
    ok(ep, "create_shift", area_id=target["area_ids"][0], employee_id=target["id"], start=shift["start"], end=at(2, 16))
    refused(ep, "approve_shift_swap", "conflict", "shift_swap_id", shift_swap_id=swap["id"])
    assert ok(ep, "decline_shift_swap", shift_swap_id=swap["id"])["status"] == "declined"
    started = next(
        s for s in every(ep, "list_shifts", status="published") if s["start"] == at(2, 8) and s["employee_id"]
    )
    refused(ep, "request_shift_swap", "rule_violation", "shift_id", shift_id=started["id"], to_employee_id=target["id"])


def test_clocking_in_and_out_costs_the_timesheet(ep: Episode) -> None:
    running = every(ep, "list_timesheets", status="in_progress")[0]
    refused(ep, "clock_in", "conflict", "employee_id", employee_id=running["employee_id"])
    refused(ep, "approve_timesheet", "rule_violation", "timesheet_id", timesheet_id=running["id"])
    done = ok(ep, "clock_out", timesheet_id=running["id"], meal_break_minutes=0)
    worker = next(e for e in every(ep, "list_employees") if e["id"] == running["employee_id"])
    assert done["paid_hours"] == 1.0 and done["cost"] == worker["hourly_rate"]
    refused(ep, "clock_out", "conflict", "timesheet_id", timesheet_id=running["id"])
    assert ok(ep, "approve_timesheet", timesheet_id=running["id"])["status"] == "approved"
    refused(ep, "approve_timesheet", "rule_violation", "timesheet_id", timesheet_id=running["id"])


def test_clocking_in_without_a_shift_needs_an_area(ep: Episode) -> None:
    off = emp(ep, 2)  # off today
    refused(ep, "clock_in", "rule_violation", "area_id", employee_id=off["id"])
    ts = ok(ep, "clock_in", employee_id=off["id"], area_id=off["area_ids"][0])
    assert (ts["shift_id"], ts["status"]) == (None, "in_progress")
    refused(
        ep,
        "clock_in",
        "rule_violation",
        "employee_id",
        employee_id=emp(ep, 11)["id"],
        area_id=emp(ep, 11)["area_ids"][0],
    )


def test_started_shifts_and_shifts_with_a_pending_swap_are_not_deleted(ep: Episode) -> None:
    started = next(s for s in every(ep, "list_shifts") if s["start"] == at(2, 8))
    refused(ep, "delete_shift", "rule_violation", "shift_id", shift_id=started["id"])
    swap = every(ep, "list_shift_swaps", status="pending")[0]
    refused(ep, "delete_shift", "rule_violation", "shift_id", shift_id=swap["shift_id"])
    future = every(ep, "list_shifts", status="draft")[0]
    ok(ep, "delete_shift", shift_id=future["id"])


def test_weekly_hours_report_worked_and_cost(ep: Episode) -> None:
    e = emp(ep, 0)
    last = ok(ep, "get_weekly_hours", employee_id=e["id"], week_start="2026-02-23")
    sheets = [t for t in every(ep, "list_timesheets", employee_id=e["id"]) if t["start"] < "2026-03-02"]
    assert last["worked_hours"] == round(sum(t["paid_hours"] for t in sheets), 2) > 0
    assert last["cost"] == sum(t["cost"] for t in sheets)
    refused(ep, "get_weekly_hours", "rule_violation", "week_start", employee_id=e["id"], week_start="2026-02-24")


def test_seeded_staff_are_the_companys_employees() -> None:
    emps = SH.seeded("employees")
    staff = {p.email for p in POP.employees}
    assert emps and all(e["email"] in staff for e in emps)
    managed = [e for e in emps if e["manager_email"]]
    assert len(managed) == len(emps) - 1 and {e["manager_email"] for e in managed} <= staff
