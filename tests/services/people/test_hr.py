"""Roster HR: time-off rules and approvals, job and pay history, hiring and termination."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

HR = ServiceTools("hr")
WORLD = HR.world
ok, refused, records = HR.ok, HR.refused, HR.records
EMPLOYEES: dict[str, Any] = dict(WORLD.tables["hr.employees"].records)
POLICIES = {p.kind: p for p in records("time_off_policies") if p.active}
DEPARTMENTS: dict[str, Any] = dict(WORLD.tables["hr.departments"].records)
VACATION = POLICIES["vacation"].id
SICK = POLICIES["sick"].id


def has_reports(emp_id: str) -> bool:
    return any(e.manager_id == emp_id and e.status != "terminated" for e in EMPLOYEES.values())


def worker() -> Any:
    """An active employee with an active manager and no reports of their own."""
    return next(
        e
        for e in sorted(EMPLOYEES.values(), key=lambda e: e.id)
        if e.status == "active"
        and e.manager_id is not None
        and EMPLOYEES[e.manager_id].status == "active"
        and EMPLOYEES[e.manager_id].manager_id is not None
        and not has_reports(e.id)
    )


EMP = worker()
MANAGER = EMPLOYEES[EMP.manager_id]
TOP = next(e for e in EMPLOYEES.values() if e.manager_id is None)
PEOPLE_DEPT = next(d for d in DEPARTMENTS.values() if d.people_ops)
PEOPLE_MEMBER = next(
    e for e in EMPLOYEES.values() if e.department_id == PEOPLE_DEPT.id and e.status == "active" and e.id != TOP.id
)
OUTSIDER = next(
    e
    for e in EMPLOYEES.values()
    if e.status == "active" and e.id not in (EMP.id, MANAGER.id) and e.department_id != PEOPLE_DEPT.id
)
LEAVER = next(e for e in EMPLOYEES.values() if e.status == "terminated")


def balance(ep: Episode, emp_id: str, policy_id: str) -> dict[str, Any]:
    items = ok(ep, "list_time_off_balances", employee_id=emp_id, policy_id=policy_id)["items"]
    assert len(items) == 1
    return dict(items[0])


def request(ep: Episode, start: str, end: str, policy_id: str = VACATION, emp_id: str | None = None) -> dict[str, Any]:
    out = ok(ep, "request_time_off", employee_id=emp_id or EMP.id, policy_id=policy_id, start=start, end=end)
    return dict(out)


# -- seed --------------------------------------------------------------------------------


def test_seeded_balances_match_the_approved_requests_and_every_status_is_present() -> None:
    requests = list(records("time_off_requests"))
    for bal in records("time_off_balances"):
        approved = sum(
            r.days
            for r in requests
            if r.employee_id == bal.employee_id and r.policy_id == bal.policy_id and r.status == "approved"
        )
        assert bal.used_days == approved
        assert bal.used_days <= bal.entitlement_days
    assert {r.status for r in requests} == {"pending", "approved", "denied", "cancelled"}
    assert {e.status for e in EMPLOYEES.values()} == {"active", "on_leave", "terminated"}


def test_every_employee_is_a_home_employee_and_reporting_lines_have_no_loops() -> None:
    emails = {p.email for p in WORLD.population.employees}
    assert {e.work_email for e in EMPLOYEES.values()} == emails
    for emp in EMPLOYEES.values():
        seen: set[str] = set()
        cur = emp
        while cur.manager_id is not None:
            assert cur.id not in seen
            seen.add(cur.id)
            cur = EMPLOYEES[cur.manager_id]


# -- request_time_off ----------------------------------------------------------------------


def test_a_request_is_pending_counts_working_days_and_changes_only_the_requests() -> None:
    ep = Episode(WORLD)
    out = request(ep, "2026-09-04", "2026-09-09")  # Fri to Wed: 4 working days
    assert (out["status"], out["days"]) == ("pending", 4)
    assert ep.diff().counts() == {"hr.time_off_requests": {"added": 1, "updated": 0, "removed": 0}}
    summary = {s["policy_id"]: s for s in ok(ep, "get_time_off_summary", employee_id=EMP.id)}
    assert summary[VACATION]["pending_days"] >= 4


def test_a_request_above_the_remaining_balance_is_refused_and_changes_nothing() -> None:
    ep = Episode(WORLD)
    message = refused(
        ep,
        "request_time_off",
        "rule_violation",
        "end",
        employee_id=EMP.id,
        policy_id=VACATION,
        start="2026-09-01",
        end="2026-12-18",
    )
    assert "remain" in message


def test_pending_days_count_against_the_balance_of_the_next_request() -> None:
    ep = Episode(WORLD)
    bal = balance(ep, EMP.id, VACATION)
    summary = {s["policy_id"]: s for s in ok(ep, "get_time_off_summary", employee_id=EMP.id)}
    available = summary[VACATION]["available_days"]
    assert available == bal["entitlement_days"] - bal["used_days"] - summary[VACATION]["pending_days"]
    if available != 10:
        ok(ep, "adjust_time_off_balance", balance_id=bal["id"], days=10 - available, note="Test setup")
    request(ep, "2026-09-07", "2026-09-18")  # 10 working days: everything left
    refused(
        ep,
        "request_time_off",
        "rule_violation",
        "end",
        employee_id=EMP.id,
        policy_id=VACATION,
        start="2026-10-05",
        end="2026-10-05",
    )


def test_overlapping_requests_are_refused() -> None:
    ep = Episode(WORLD)
    first = request(ep, "2026-09-07", "2026-09-09")
    message = refused(
        ep,
        "request_time_off",
        "conflict",
        "start",
        employee_id=EMP.id,
        policy_id=SICK,
        start="2026-09-09",
        end="2026-09-10",
    )
    assert first["id"] in message


def test_terminated_employees_cannot_request_time_off() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "request_time_off",
        "rule_violation",
        "employee_id",
        employee_id=LEAVER.id,
        policy_id=VACATION,
        start="2026-09-07",
        end="2026-09-07",
    )


def test_a_request_ending_before_it_starts_or_covering_only_a_weekend_is_refused() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "request_time_off",
        "rule_violation",
        "end",
        employee_id=EMP.id,
        policy_id=VACATION,
        start="2026-09-09",
        end="2026-09-07",
    )
    refused(
        ep,
        "request_time_off",
        "rule_violation",
        "start",
        employee_id=EMP.id,
        policy_id=VACATION,
        start="2026-09-05",
        end="2026-09-06",
    )


def test_sick_leave_needs_no_approval_and_is_booked_at_once() -> None:
    ep = Episode(WORLD)
    before = balance(ep, EMP.id, SICK)
    out = request(ep, "2026-09-14", "2026-09-15", policy_id=SICK)
    assert out["status"] == "approved"
    assert balance(ep, EMP.id, SICK)["used_days"] == before["used_days"] + 2


# -- approve / deny / cancel -----------------------------------------------------------------


def test_an_employee_cannot_approve_their_own_request() -> None:
    ep = Episode(WORLD)
    req = request(ep, "2026-09-07", "2026-09-08")
    refused(ep, "approve_time_off", "rule_violation", "approver_id", request_id=req["id"], approver_id=EMP.id)


def test_only_the_manager_approves_and_approval_moves_the_days_to_used() -> None:
    ep = Episode(WORLD)
    req = request(ep, "2026-09-07", "2026-09-08")
    message = refused(
        ep, "approve_time_off", "rule_violation", "approver_id", request_id=req["id"], approver_id=OUTSIDER.id
    )
    assert MANAGER.id in message
    before_bal = balance(ep, EMP.id, VACATION)
    snap = ep.snapshot()
    out = ok(ep, "approve_time_off", request_id=req["id"], approver_id=MANAGER.id, note="Enjoy")
    assert (out["status"], out["approver_id"]) == ("approved", MANAGER.id)
    diff = ep.diff(snap)
    assert diff.counts() == {
        "hr.time_off_balances": {"added": 0, "updated": 1, "removed": 0},
        "hr.time_off_requests": {"added": 0, "updated": 1, "removed": 0},
    }
    assert balance(ep, EMP.id, VACATION)["used_days"] == before_bal["used_days"] + 2
    refused(ep, "approve_time_off", "rule_violation", "request_id", request_id=req["id"], approver_id=MANAGER.id)


def test_someone_without_a_manager_is_approved_by_the_people_team() -> None:
    ep = Episode(WORLD)
    req = request(ep, "2026-09-07", "2026-09-07", emp_id=TOP.id)
    other = next(
        e for e in EMPLOYEES.values() if e.status == "active" and e.department_id != PEOPLE_DEPT.id and e.id != TOP.id
    )
    refused(ep, "approve_time_off", "rule_violation", "approver_id", request_id=req["id"], approver_id=other.id)
    ok(ep, "approve_time_off", request_id=req["id"], approver_id=PEOPLE_MEMBER.id)


def test_a_denial_needs_a_note_and_leaves_the_balance_alone() -> None:
    ep = Episode(WORLD)
    req = request(ep, "2026-09-07", "2026-09-08")
    refused(ep, "deny_time_off", "rule_violation", "note", request_id=req["id"], approver_id=MANAGER.id, note=" ")
    snap = ep.snapshot()
    out = ok(ep, "deny_time_off", request_id=req["id"], approver_id=MANAGER.id, note="Release week")
    assert out["status"] == "denied"
    assert list(ep.diff(snap).tables) == ["hr.time_off_requests"]


def test_cancelling_approved_future_time_off_gives_the_days_back() -> None:
    ep = Episode(WORLD)
    req = request(ep, "2026-09-07", "2026-09-09")
    ok(ep, "approve_time_off", request_id=req["id"], approver_id=MANAGER.id)
    used = balance(ep, EMP.id, VACATION)["used_days"]
    out = ok(ep, "cancel_time_off", request_id=req["id"], note="Trip cancelled")
    assert out["status"] == "cancelled"
    assert balance(ep, EMP.id, VACATION)["used_days"] == used - 3
    refused(ep, "cancel_time_off", "rule_violation", "request_id", request_id=req["id"])


def test_approved_time_off_that_already_started_cannot_be_cancelled() -> None:
    ep = Episode(WORLD)
    today = WORLD.epoch.date()
    started = next(r for r in records("time_off_requests") if r.status == "approved" and r.start <= today)
    refused(ep, "cancel_time_off", "rule_violation", "request_id", request_id=started.id)


# -- balances and policies -------------------------------------------------------------------


def test_a_balance_cannot_be_adjusted_below_the_days_used_or_pending() -> None:
    ep = Episode(WORLD)
    bal = balance(ep, EMP.id, VACATION)
    request(ep, "2026-09-07", "2026-09-08")
    committed = bal["used_days"] + next(
        s["pending_days"] for s in ok(ep, "get_time_off_summary", employee_id=EMP.id) if s["policy_id"] == VACATION
    )
    too_many = committed - bal["entitlement_days"] - 1
    refused(ep, "adjust_time_off_balance", "rule_violation", "days", balance_id=bal["id"], days=too_many, note="Fix")
    out = ok(ep, "adjust_time_off_balance", balance_id=bal["id"], days=3, note="Overtime")
    assert out["entitlement_days"] == bal["entitlement_days"] + 3


def test_assigning_a_policy_twice_is_a_conflict_and_retired_policies_cannot_be_assigned() -> None:
    ep = Episode(WORLD)
    refused(ep, "assign_time_off_policy", "conflict", "policy_id", employee_id=EMP.id, policy_id=VACATION)
    retired = next(p for p in records("time_off_policies") if not p.active)
    refused(ep, "assign_time_off_policy", "rule_violation", "policy_id", employee_id=EMP.id, policy_id=retired.id)
    out = ok(ep, "assign_time_off_policy", employee_id=EMP.id, policy_id=POLICIES["parental"].id)
    assert out["entitlement_days"] == 70 * 10 // 12  # March to December
    assert ep.diff().counts() == {"hr.time_off_balances": {"added": 1, "updated": 0, "removed": 0}}


# -- jobs and pay --------------------------------------------------------------------------


def test_a_manager_cannot_report_to_someone_in_their_own_chain() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "change_job",
        "rule_violation",
        "manager_id",
        employee_id=TOP.id,
        effective_date="2026-03-02",
        manager_id=EMP.id,
    )
    refused(
        ep,
        "change_job",
        "rule_violation",
        "manager_id",
        employee_id=EMP.id,
        effective_date="2026-03-02",
        manager_id=EMP.id,
    )


def test_a_job_change_adds_a_history_row_and_updates_the_employee() -> None:
    ep = Episode(WORLD)
    new_dept = next(d.id for d in DEPARTMENTS.values() if d.id != EMP.department_id)
    out = ok(
        ep,
        "change_job",
        employee_id=EMP.id,
        effective_date="2026-04-01",
        job_title="Team Lead",
        department_id=new_dept,
        manager_id=TOP.id,
    )
    assert (out["employee"]["department_id"], out["employee"]["manager_id"]) == (new_dept, TOP.id)
    counts = ep.diff().counts()
    assert counts == {
        "hr.employees": {"added": 0, "updated": 1, "removed": 0},
        "hr.job_infos": {"added": 1, "updated": 0, "removed": 0},
    }
    refused(
        ep,
        "change_job",
        "rule_violation",
        "effective_date",
        employee_id=EMP.id,
        effective_date="2026-03-15",
        job_title="Other",
    )


def test_a_merit_increase_cannot_lower_pay_and_a_raise_is_recorded() -> None:
    ep = Episode(WORLD)
    pay_rows = [c for c in records("compensations") if c.employee_id == EMP.id]
    current = max(pay_rows, key=lambda c: (c.effective_date, c.id))
    refused(
        ep,
        "change_compensation",
        "rule_violation",
        "reason",
        employee_id=EMP.id,
        pay_rate=current.pay_rate - 100_000,
        effective_date="2026-04-01",
        reason="merit_increase",
    )
    refused(
        ep,
        "change_compensation",
        "rule_violation",
        "effective_date",
        employee_id=EMP.id,
        pay_rate=current.pay_rate + 100_000,
        effective_date=str(EMP.hire_date.replace(year=EMP.hire_date.year - 1)),
        reason="merit_increase",
    )
    out = ok(
        ep,
        "change_compensation",
        employee_id=EMP.id,
        pay_rate=current.pay_rate + 100_000,
        effective_date="2026-04-01",
        reason="merit_increase",
    )
    assert (out["currency"], out["pay_type"]) == (current.currency, current.pay_type)
    assert ep.diff().counts() == {"hr.compensations": {"added": 1, "updated": 0, "removed": 0}}


# -- hire and terminate ------------------------------------------------------------------------


def test_terminating_a_manager_with_reports_is_refused() -> None:
    ep = Episode(WORLD)
    refused(
        ep,
        "terminate_employee",
        "rule_violation",
        "employee_id",
        employee_id=MANAGER.id,
        termination_date="2026-03-31",
        reason="resignation",
    )


def test_termination_cancels_pending_and_future_time_off_and_gives_days_back() -> None:
    ep = Episode(WORLD)
    pending = request(ep, "2026-09-07", "2026-09-08")
    approved = request(ep, "2026-10-05", "2026-10-06")
    ok(ep, "approve_time_off", request_id=approved["id"], approver_id=MANAGER.id)
    used = balance(ep, EMP.id, VACATION)["used_days"]
    out = ok(ep, "terminate_employee", employee_id=EMP.id, termination_date="2026-08-31", reason="resignation")
    assert out["employee"]["status"] == "terminated"
    cancelled = {r["id"] for r in out["cancelled_requests"]}
    assert {pending["id"], approved["id"]} <= cancelled
    assert balance(ep, EMP.id, VACATION)["used_days"] == used - 2
    refused(
        ep,
        "request_time_off",
        "rule_violation",
        "employee_id",
        employee_id=EMP.id,
        policy_id=SICK,
        start="2026-05-04",
        end="2026-05-04",
    )


def test_hiring_needs_a_company_address_and_creates_the_whole_employee_file() -> None:
    ep = Episode(WORLD)
    domain = WORLD.population.home.domain
    args: dict[str, Any] = {
        "first_name": "Robin",
        "last_name": "Hale",
        "work_email": "robin.hale@example.org",
        "department_id": EMP.department_id,
        "job_title": "Software Engineer",
        "hire_date": "2026-05-01",
        "location": EMP.location,
        "pay_rate": 7_000_000,
        "manager_id": MANAGER.id,
    }
    refused(ep, "hire_employee", "rule_violation", "work_email", **args)
    refused(ep, "hire_employee", "conflict", "work_email", **{**args, "work_email": EMP.work_email})
    out = ok(ep, "hire_employee", **{**args, "work_email": f"robin.hale@{domain}"})
    assert out["employee"]["status"] == "active"
    assert {b["entitlement_days"] for b in out["balances"] if b["policy_id"] == VACATION} == {25 * 8 // 12}
    assert ep.diff().counts() == {
        "hr.compensations": {"added": 1, "updated": 0, "removed": 0},
        "hr.employees": {"added": 1, "updated": 0, "removed": 0},
        "hr.job_infos": {"added": 1, "updated": 0, "removed": 0},
        "hr.time_off_balances": {"added": 4, "updated": 0, "removed": 0},
    }


def test_whos_out_lists_approved_time_off_in_the_range() -> None:
    ep = Episode(WORLD)
    req = request(ep, "2026-09-07", "2026-09-08")
    assert req["id"] not in [a["request_id"] for a in ok(ep, "whos_out", start="2026-09-01", end="2026-09-30")]
    ok(ep, "approve_time_off", request_id=req["id"], approver_id=MANAGER.id)
    out = ok(ep, "whos_out", start="2026-09-01", end="2026-09-30", department_id=EMP.department_id)
    assert [a["work_email"] for a in out if a["request_id"] == req["id"]] == [EMP.work_email]


def test_a_department_with_staff_cannot_be_deleted_but_an_empty_one_can() -> None:
    ep = Episode(WORLD)
    refused(ep, "delete_department", "rule_violation", "department_id", department_id=EMP.department_id)
    empty = next(d for d in DEPARTMENTS.values() if not any(e.department_id == d.id for e in EMPLOYEES.values()))
    ok(ep, "delete_department", department_id=empty.id)
    assert ep.diff().counts() == {"hr.departments": {"added": 0, "updated": 0, "removed": 1}}
