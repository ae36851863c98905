"""Awayday Leave: working-day counting, balances and accrual, blackouts, approvers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools, service_world

TIMEOFF = ServiceTools("timeoff")
WORLD = TIMEOFF.world
ok, refused, every = TIMEOFF.ok, TIMEOFF.refused, TIMEOFF.every
POP = WORLD.population


def leave_type(ep: Episode, name: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_leave_types") if t["name"] == name)


def balance(ep: Episode, emp_id: str, type_id: str) -> dict[str, Any]:
    return dict(every(ep, "list_balances", employee_id=emp_id, leave_type_id=type_id)[0])


def free_employee(ep: Episode, department: str | None = None, days: list[int] | None = None) -> dict[str, Any]:
    """An active full-time employee with an approver and nothing requested after mid-April."""
    for emp in every(ep, "list_employees", active=True):
        if emp["approver_email"] is None or (department and emp["department"] != department):
            continue
        if (days or [0, 1, 2, 3, 4]) != emp["working_days"]:
            continue
        if all(r["end_date"] < "2026-04-20" for r in every(ep, "list_leave_requests", employee_id=emp["id"])):
            return emp
    raise AssertionError("no free employee")


def top_up(ep: Episode, emp: dict[str, Any], days: float = 20) -> dict[str, Any]:
    vac = leave_type(ep, "Vacation")
    bal = balance(ep, emp["id"], vac["id"])
    return dict(ok(ep, "adjust_balance", balance_id=bal["id"], days=days, reason="Carry-over correction"))


# -- the world ------------------------------------------------------------------------------


def test_employees_are_the_home_staff_with_the_same_reporting_lines_as_expenses() -> None:
    world = service_world("timeoff", "expenses")
    ep = Episode(world)
    staff = {p.email: p for p in world.population.employees}
    emps = TIMEOFF.every(ep, "list_employees")
    assert {e["email"] for e in emps} == set(staff)
    managers = {e["email"]: e["manager_email"] for e in ServiceTools("expenses").every(ep, "list_employees")}
    for e in emps:
        assert e["name"] == staff[e["email"]].name
        assert e["office"] == staff[e["email"]].place.city
        if managers[e["email"]] is not None:
            assert e["approver_email"] == managers[e["email"]]
        else:
            assert e["approver_email"] in staff  # the top of the company is approved by People


def test_balances_add_up_from_their_requests() -> None:
    ep = Episode(WORLD)
    reqs = every(ep, "list_leave_requests")
    for bal in every(ep, "list_balances"):
        mine = [r for r in reqs if (r["employee_id"], r["leave_type_id"]) == (bal["employee_id"], bal["leave_type_id"])]
        assert bal["taken"] == sum(r["days"] for r in mine if r["status"] == "approved")
        assert bal["requested"] == sum(r["days"] for r in mine if r["status"] == "requested")
        assert (
            bal["available"]
            == bal["carried_over"] + bal["accrued"] + bal["adjustment"] - bal["taken"] - bal["requested"]
        )
        assert bal["available"] >= 0


# -- counting days --------------------------------------------------------------------------


def test_public_holidays_and_non_working_days_are_not_counted(ep: Episode) -> None:
    emp = free_employee(ep)
    hols = every(ep, "list_holidays", calendar_id=emp["holiday_calendar_id"])
    good_friday = next(h for h in hols if h["date"] == "2026-04-03")
    assert good_friday["name"]
    # Monday 30 March to Tuesday 7 April: 7 weekdays, minus Good Friday (and Easter Monday where observed).
    count = ok(ep, "count_leave_days", employee_id=emp["id"], start_date="2026-03-30", end_date="2026-04-07")
    observed = {h["date"] for h in hols} & {"2026-04-03", "2026-04-06"}
    assert count["holidays_skipped"] == len(observed)
    assert count["days"] == 7 - len(observed)
    top_up(ep, emp)
    req = ok(
        ep,
        "request_leave",
        employee_id=emp["id"],
        leave_type_id=leave_type(ep, "Vacation")["id"],
        start_date="2026-03-30",
        end_date="2026-04-07",
        half_day_end=True,
    )
    assert req["days"] == count["days"] - 0.5 and req["status"] == "requested"


def test_a_part_timer_takes_only_their_working_days(ep: Episode) -> None:
    emp = free_employee(ep, days=[0, 1, 2, 3])
    count = ok(ep, "count_leave_days", employee_id=emp["id"], start_date="2026-05-11", end_date="2026-05-17")
    assert count["days"] == 4
    refused(
        ep,
        "request_leave",
        "rule_violation",
        "start_date",
        employee_id=emp["id"],
        leave_type_id=leave_type(ep, "Vacation")["id"],
        start_date="2026-05-15",
        end_date="2026-05-17",
    )


def test_half_days_follow_the_leave_type(ep: Episode) -> None:
    emp = free_employee(ep)
    unpaid = leave_type(ep, "Unpaid leave")
    refused(
        ep,
        "request_leave",
        "rule_violation",
        "half_day_start",
        employee_id=emp["id"],
        leave_type_id=unpaid["id"],
        start_date="2026-05-12",
        end_date="2026-05-13",
        half_day_start=True,
    )
    refused(
        ep,
        "request_leave",
        "rule_violation",
        "half_day_end",
        employee_id=emp["id"],
        leave_type_id=leave_type(ep, "Vacation")["id"],
        start_date="2026-05-12",
        end_date="2026-05-12",
        half_day_start=True,
        half_day_end=True,
    )


# -- balances -------------------------------------------------------------------------------


def test_no_request_beyond_the_balance_but_unpaid_leave_has_none(ep: Episode) -> None:
    emp = free_employee(ep)
    vac = leave_type(ep, "Vacation")
    bal = balance(ep, emp["id"], vac["id"])
    msg = refused(
        ep,
        "request_leave",
        "rule_violation",
        "end_date",
        employee_id=emp["id"],
        leave_type_id=vac["id"],
        start_date="2026-06-01",
        end_date="2026-06-26",
    )
    assert f"{bal['available']:g}" in msg
    unpaid = ok(
        ep,
        "request_leave",
        employee_id=emp["id"],
        leave_type_id=leave_type(ep, "Unpaid leave")["id"],
        start_date="2026-06-01",
        end_date="2026-06-26",
    )
    assert unpaid["days"] == 20
    assert balance(ep, emp["id"], vac["id"]) == bal


def test_requests_may_not_overlap(ep: Episode) -> None:
    emp = free_employee(ep)
    top_up(ep, emp)
    vac = leave_type(ep, "Vacation")["id"]
    ok(ep, "request_leave", employee_id=emp["id"], leave_type_id=vac, start_date="2026-05-04", end_date="2026-05-08")
    refused(
        ep,
        "request_leave",
        "conflict",
        "start_date",
        employee_id=emp["id"],
        leave_type_id=vac,
        start_date="2026-05-08",
        end_date="2026-05-12",
    )


def test_blackouts_block_their_department_only(ep: Episode) -> None:
    finance = free_employee(ep, department="Finance")
    other = free_employee(ep, department="Engineering")
    vac = leave_type(ep, "Vacation")["id"]
    msg = refused(
        ep,
        "request_leave",
        "rule_violation",
        "start_date",
        employee_id=finance["id"],
        leave_type_id=vac,
        start_date="2026-03-26",
        end_date="2026-03-26",
    )
    assert "Quarter-end" in msg
    top_up(ep, other)
    ok(ep, "request_leave", employee_id=other["id"], leave_type_id=vac, start_date="2026-03-26", end_date="2026-03-26")
    refused(
        ep,
        "request_leave",
        "rule_violation",
        "start_date",
        employee_id=other["id"],
        leave_type_id=vac,
        start_date="2026-04-15",
        end_date="2026-04-15",
    )


# -- decisions ------------------------------------------------------------------------------


def test_only_the_approver_decides_and_approval_moves_days_to_taken(ep: Episode) -> None:
    req = every(ep, "list_leave_requests", status="requested")[0]
    emp = ok(ep, "get_employee", employee_id=req["employee_id"])
    outsider = next(p.email for p in POP.employees if p.email not in (emp["approver_email"], emp["email"]))
    refused(
        ep,
        "approve_request",
        "rule_violation",
        "approver_email",
        leave_request_id=req["id"],
        approver_email=outsider,
    )
    refused(
        ep,
        "decline_request",
        "rule_violation",
        "note",
        leave_request_id=req["id"],
        approver_email=emp["approver_email"],
        note=" ",
    )
    before = balance(ep, emp["id"], req["leave_type_id"])
    done = ok(ep, "approve_request", leave_request_id=req["id"], approver_email=emp["approver_email"])
    assert (done["status"], done["decided_by"]) == ("approved", emp["approver_email"])
    after = balance(ep, emp["id"], req["leave_type_id"])
    assert after["taken"] == before["taken"] + req["days"]
    assert after["requested"] == before["requested"] - req["days"]
    assert after["available"] == before["available"]
    refused(
        ep,
        "approve_request",
        "rule_violation",
        "leave_request_id",
        leave_request_id=req["id"],
        approver_email=emp["approver_email"],
    )


def test_sick_leave_is_approved_at_once(ep: Episode) -> None:
    emp = free_employee(ep)
    sick = leave_type(ep, "Sick leave")
    req = ok(
        ep,
        "request_leave",
        employee_id=emp["id"],
        leave_type_id=sick["id"],
        start_date="2026-03-03",
        end_date="2026-03-03",
    )
    assert req["status"] == "approved"
    assert balance(ep, emp["id"], sick["id"])["taken"] >= 1


def test_cancelling_returns_days_but_taken_leave_stays(ep: Episode) -> None:
    req = every(ep, "list_leave_requests", status="requested")[0]
    before = balance(ep, req["employee_id"], req["leave_type_id"])
    ok(ep, "cancel_request", leave_request_id=req["id"])
    after = balance(ep, req["employee_id"], req["leave_type_id"])
    assert after["available"] == before["available"] + req["days"]
    past = next(r for r in every(ep, "list_leave_requests", status="approved") if r["start_date"] <= "2026-03-02")
    refused(ep, "cancel_request", "rule_violation", "leave_request_id", leave_request_id=past["id"])
    refused(ep, "cancel_request", "rule_violation", "leave_request_id", leave_request_id=req["id"])


def test_the_monthly_accrual_runs_once_per_month(ep: Episode) -> None:
    emp = free_employee(ep)
    vac = leave_type(ep, "Vacation")
    before = balance(ep, emp["id"], vac["id"])
    refused(ep, "run_monthly_accrual", "conflict", "month", month="2026-02")
    refused(ep, "run_monthly_accrual", "rule_violation", "month", month="2026-04")
    run = ok(ep, "run_monthly_accrual", month="2026-03")
    active = len(every(ep, "list_employees", active=True))
    assert (run["employees"], run["days_added"]) == (active, 3.0 * active)
    after = balance(ep, emp["id"], vac["id"])
    assert (after["accrued"], after["available"]) == (before["accrued"] + 2, before["available"] + 2)


def test_adjustments_cannot_take_more_than_is_left(ep: Episode) -> None:
    emp = free_employee(ep)
    bal = balance(ep, emp["id"], leave_type(ep, "Vacation")["id"])
    refused(
        ep, "adjust_balance", "rule_violation", "days", balance_id=bal["id"], days=-(bal["available"] + 1), reason="Fix"
    )
    out = ok(ep, "adjust_balance", balance_id=bal["id"], days=1.5, reason="Worked a Saturday")
    assert out["available"] == bal["available"] + 1.5


def test_employee_settings_are_checked(ep: Episode) -> None:
    emp = free_employee(ep)
    refused(ep, "update_employee", "rule_violation", "working_days", employee_id=emp["id"], working_days=[0, 0, 1])
    refused(
        ep, "update_employee", "rule_violation", "approver_email", employee_id=emp["id"], approver_email=emp["email"]
    )
    hol = every(ep, "list_holidays", date="2026-01-01")[0]
    refused(ep, "delete_holiday", "rule_violation", "holiday_id", holiday_id=hol["id"])
    refused(
        ep, "create_holiday", "conflict", "date", calendar_id=hol["calendar_id"], date="2026-01-01", name="New Year"
    )
