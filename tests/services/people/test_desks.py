"""Deskly: reservation rules (days ahead, desk types, neighborhoods, limits), check-in, auto-release, schedules."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DK = ServiceTools("desks")
WORLD = DK.world
ok, refused, every = DK.ok, DK.refused, DK.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
BY_EMAIL = {p.email: p for p in POP.employees}


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def open_desk(ep: Episode, kind: str, on: str) -> dict[str, Any]:
    open_hoods = {h["id"] for h in every(ep, "list_neighborhoods") if h["department"] is None}
    for d in every(ep, "list_desks", desk_type=kind, status="enabled"):
        if d["neighborhood_id"] in open_hoods and not every(ep, "list_reservations", desk_id=d["id"], date=on):
            return d
    raise AssertionError(f"no free {kind} desk")


def free_person(ep: Episode, on: str, skip: int = 0) -> str:
    busy = {r["employee_email"] for r in every(ep, "list_reservations", date=on)}
    return [p.email for p in POP.employees if p.email not in busy][skip]


def test_seeded_desks_and_reservations_are_consistent(ep: Episode) -> None:
    for d in every(ep, "list_desks"):
        assert (d["desk_type"] == "assigned") == (d["assigned_to"] is not None)
    for r in every(ep, "list_reservations"):
        assert r["employee_email"] in BY_EMAIL
        assert ok(ep, "get_desk", desk_id=r["desk_id"])["floor_id"] == r["floor_id"]
    statuses = {r["status"] for r in every(ep, "list_reservations")}
    assert statuses == {"booked", "checked_in", "completed", "cancelled", "released"}


def test_reservations_are_for_today_up_to_two_weeks_and_hot_desks_same_day(ep: Episode) -> None:
    desk = open_desk(ep, "hoteled", day(5))
    who = free_person(ep, day(5))
    refused(ep, "reserve_desk", "rule_violation", "date", desk_id=desk["id"], employee_email=who, date=day(-1))
    refused(ep, "reserve_desk", "rule_violation", "date", desk_id=desk["id"], employee_email=who, date=day(15))
    refused(
        ep, "reserve_desk", "rule_violation", "employee_email", desk_id=desk["id"], employee_email="x@y.io", date=day(5)
    )
    made = ok(ep, "reserve_desk", desk_id=desk["id"], employee_email=who, date=day(5))
    assert (made["status"], made["floor_id"]) == ("booked", desk["floor_id"])
    hot = open_desk(ep, "hot", day(5))
    refused(
        ep,
        "reserve_desk",
        "rule_violation",
        "date",
        desk_id=hot["id"],
        employee_email=free_person(ep, day(5)),
        date=day(5),
    )


def test_one_desk_per_person_and_one_person_per_desk_a_day(ep: Episode) -> None:
    desk = open_desk(ep, "hoteled", day(6))
    a, b = free_person(ep, day(6)), free_person(ep, day(6), 1)
    ok(ep, "reserve_desk", desk_id=desk["id"], employee_email=a, date=day(6))
    refused(ep, "reserve_desk", "conflict", "desk_id", desk_id=desk["id"], employee_email=b, date=day(6))
    other = open_desk(ep, "hoteled", day(6))
    refused(ep, "reserve_desk", "conflict", "employee_email", desk_id=other["id"], employee_email=a, date=day(6))
    mine = every(ep, "list_reservations", employee_email=a, date=day(6))[0]
    ok(ep, "cancel_reservation", reservation_id=mine["id"])
    assert ok(ep, "reserve_desk", desk_id=desk["id"], employee_email=b, date=day(6))["status"] == "booked"


def test_assigned_disabled_and_department_desks_are_refused_to_others(ep: Episode) -> None:
    assigned = every(ep, "list_desks", desk_type="assigned")[0]
    stranger = next(e for e in BY_EMAIL if e != assigned["assigned_to"])
    refused(
        ep, "reserve_desk", "rule_violation", "desk_id", desk_id=assigned["id"], employee_email=stranger, date=day(0)
    )
    off = every(ep, "list_desks", status="disabled")[0]
    refused(ep, "reserve_desk", "rule_violation", "desk_id", desk_id=off["id"], employee_email=stranger, date=day(1))
    kept = next(h for h in every(ep, "list_neighborhoods") if h["department"])
    desk = every(ep, "list_desks", neighborhood_id=kept["id"], desk_type="hoteled")[0]
    outsider = next(p.email for p in POP.employees if p.department != kept["department"])
    refused(ep, "reserve_desk", "rule_violation", "desk_id", desk_id=desk["id"], employee_email=outsider, date=day(1))
    insider = next((p.email for p in POP.employees if p.department == kept["department"]), None)
    if insider is not None:
        ok(ep, "reserve_desk", desk_id=desk["id"], employee_email=insider, date=day(1))


def test_a_full_floor_refuses_more_reservations(ep: Episode) -> None:
    floor = next(f for f in every(ep, "list_floors") if f["max_daily_reservations"] < 10)
    ok(ep, "update_floor", floor_id=floor["id"], max_daily_reservations=1)
    open_hoods = {h["id"] for h in every(ep, "list_neighborhoods", floor_id=floor["id"]) if h["department"] is None}
    desks = [
        d
        for d in every(ep, "list_desks", floor_id=floor["id"], desk_type="hoteled", status="enabled")
        if d["neighborhood_id"] in open_hoods
    ]
    ok(ep, "reserve_desk", desk_id=desks[0]["id"], employee_email=free_person(ep, day(9)), date=day(9))
    refused(
        ep,
        "reserve_desk",
        "rule_violation",
        "date",
        desk_id=desks[1]["id"],
        employee_email=free_person(ep, day(9)),
        date=day(9),
    )
    occ = ok(ep, "floor_occupancy", floor_id=floor["id"], date=day(9))
    assert (occ["reserved"], occ["limit"]) == (1, 1)


def test_check_in_happens_on_the_day_and_check_out_completes(ep: Episode) -> None:
    future = every(ep, "list_reservations", status="booked", date=day(1))[0]
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=future["id"])
    now = every(ep, "list_reservations", status="booked", date=day(0))[0]
    assert ok(ep, "check_in", reservation_id=now["id"])["status"] == "checked_in"
    refused(ep, "check_in", "rule_violation", "reservation_id", reservation_id=now["id"])
    refused(ep, "cancel_reservation", "rule_violation", "reservation_id", reservation_id=now["id"])
    assert ok(ep, "check_out_reservation", reservation_id=now["id"])["status"] == "completed"


def test_no_shows_are_released_and_free_the_desk(ep: Episode) -> None:
    booked_today = every(ep, "list_reservations", status="booked", date=day(0))
    future = every(ep, "list_reservations", status="booked", date=day(1))
    released = ok(ep, "release_no_shows")
    ids = {r["id"] for r in released}
    late = WORLD.epoch.hour >= 10
    assert all((r["id"] in ids) == late for r in booked_today)
    assert not ids & {r["id"] for r in future}
    assert all(r["status"] == "released" for r in released)
    if late and booked_today:
        desk = booked_today[0]["desk_id"]
        ok(ep, "reserve_desk", desk_id=desk, employee_email=free_person(ep, day(0)), date=day(0))


def test_a_hybrid_schedule_per_employee_with_distinct_days(ep: Episode) -> None:
    have = {s["employee_email"] for s in every(ep, "list_schedules")}
    who = next(p.email for p in POP.employees if p.email not in have)
    refused(ep, "create_schedule", "rule_violation", "office_days", employee_email=who, office_days=[])
    refused(ep, "create_schedule", "rule_violation", "office_days", employee_email=who, office_days=["mon", "mon"])
    refused(ep, "create_schedule", "rule_violation", "employee_email", employee_email="x@y.io", office_days=["mon"])
    made = ok(ep, "create_schedule", employee_email=who, office_days=["tue", "thu"])
    refused(ep, "create_schedule", "conflict", "employee_email", employee_email=who, office_days=["fri"])
    assert ok(ep, "update_schedule", schedule_id=made["id"], office_days=["mon", "wed"])["office_days"] == [
        "mon",
        "wed",
    ]


def test_desk_owners_are_employees_and_types_match(ep: Episode) -> None:
    hot = every(ep, "list_desks", desk_type="hot")[0]
    refused(ep, "update_desk", "rule_violation", "assigned_to", desk_id=hot["id"], assigned_to=POP.employees[0].email)
    refused(
        ep,
        "update_desk",
        "rule_violation",
        "assigned_to",
        desk_id=hot["id"],
        desk_type="assigned",
        assigned_to="x@y.io",
    )
    made = ok(ep, "update_desk", desk_id=hot["id"], desk_type="assigned", assigned_to=POP.employees[0].email)
    assert made["assigned_to"] == POP.employees[0].email
    assert ok(ep, "disable_desk", desk_id=hot["id"])["status"] == "disabled"
