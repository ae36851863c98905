"""Clockwise Time: assignments gate time, bill_by rates, timers, locked weeks, approvals, budgets, billing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TT = ServiceTools("timetracking")
WORLD = TT.world
ok, refused, every = TT.ok, TT.refused, TT.every
POP = WORLD.population
TODAY = "2026-03-02"


def project(ep: Episode, bill_by: str, hard: bool | None = None) -> dict[str, Any]:
    for p in every(ep, "list_projects", bill_by=bill_by, is_active=True):
        if hard is None or p["hard_budget"] == hard:
            return dict(p)
    raise AssertionError(f"no {bill_by} project")


def member_of(ep: Episode, project_id: str, free_week: bool = True) -> dict[str, Any]:
    """A user assigned to the project whose current week is open and has no running timer."""
    for ua in every(ep, "list_user_assignments", project_id=project_id):
        user = next(u for u in every(ep, "list_users") if u["id"] == ua["user_id"])
        week = every(ep, "list_time_entries", user_id=user["id"], spent_date=TODAY)
        if user["is_active"] and (not free_week or not any(e["is_running"] for e in week)):
            return user
    raise AssertionError("no member")


def a_task(ep: Episode, project_id: str) -> dict[str, Any]:
    return dict(every(ep, "list_task_assignments", project_id=project_id)[0])


def log(ep: Episode, user: dict[str, Any], prj: dict[str, Any], hours: float = 2.0, day: str = TODAY) -> dict[str, Any]:
    ta = a_task(ep, prj["id"])
    return dict(
        ok(
            ep,
            "log_time",
            user_id=user["id"],
            project_id=prj["id"],
            task_id=ta["task_id"],
            spent_date=day,
            hours=hours,
        )
    )


# -- the world ------------------------------------------------------------------------------


def test_clients_are_customer_companies_and_users_are_staff() -> None:
    ep = Episode(WORLD)
    companies = {c.name: c for c in POP.customers}
    for client in every(ep, "list_clients"):
        assert client["name"] in companies
        assert client["currency"] == companies[client["name"]].place.currency
    staff = {p.email: p.name for p in POP.employees}
    assert all(staff[u["email"]] == u["name"] for u in every(ep, "list_users"))


def test_seeded_time_follows_assignments() -> None:
    ep = Episode(WORLD)
    assigned = {(ua["project_id"], ua["user_id"]) for ua in every(ep, "list_user_assignments")}
    tasks = {(ta["project_id"], ta["task_id"]) for ta in every(ep, "list_task_assignments")}
    for e in every(ep, "list_time_entries"):
        assert (e["project_id"], e["user_id"]) in assigned
        assert (e["project_id"], e["task_id"]) in tasks


# -- logging time ---------------------------------------------------------------------------


def test_the_billable_rate_follows_bill_by(ep: Episode) -> None:
    prj = project(ep, "project")
    entry = log(ep, member_of(ep, prj["id"]), prj)
    assert (entry["billable"], entry["billable_rate"], entry["status"]) == (True, prj["hourly_rate"], "unsubmitted")
    by_task = project(ep, "tasks")
    ta = a_task(ep, by_task["id"])
    entry = log(ep, member_of(ep, by_task["id"]), by_task, hours=1.0)
    assert entry["billable_rate"] == ta["hourly_rate"]
    retainer = project(ep, "people", hard=False)
    user = member_of(ep, retainer["id"])
    ua = every(ep, "list_user_assignments", project_id=retainer["id"], user_id=user["id"])[0]
    entry = log(ep, user, retainer, hours=1.0)
    assert entry["billable_rate"] == (ua["hourly_rate"] or user["default_hourly_rate"])


def test_only_assigned_people_and_tasks_take_time(ep: Episode) -> None:
    prj = project(ep, "project")
    assigned = {ua["user_id"] for ua in every(ep, "list_user_assignments", project_id=prj["id"])}
    outsider = next(u for u in every(ep, "list_users", is_active=True) if u["id"] not in assigned)
    ta = a_task(ep, prj["id"])
    args = dict(project_id=prj["id"], task_id=ta["task_id"], spent_date=TODAY, hours=1.0)
    refused(ep, "log_time", "rule_violation", "user_id", user_id=outsider["id"], **args)
    user = member_of(ep, prj["id"])
    on_project = {t["task_id"] for t in every(ep, "list_task_assignments", project_id=prj["id"])}
    other_task = next(t for t in every(ep, "list_tasks", is_active=True) if t["id"] not in on_project)
    refused(ep, "log_time", "rule_violation", "task_id", user_id=user["id"], **{**args, "task_id": other_task["id"]})
    log(ep, user, prj, hours=20.0)
    refused(ep, "log_time", "rule_violation", "hours", user_id=user["id"], **{**args, "hours": 5.0})


def test_archived_projects_take_no_time(ep: Episode) -> None:
    archived = every(ep, "list_projects", is_active=False)[0]
    ua = every(ep, "list_user_assignments", project_id=archived["id"])[0]
    ta = a_task(ep, archived["id"])
    refused(
        ep,
        "log_time",
        "rule_violation",
        "project_id",
        user_id=ua["user_id"],
        project_id=archived["id"],
        task_id=ta["task_id"],
        spent_date=TODAY,
        hours=1.0,
    )


# -- timers ---------------------------------------------------------------------------------


def test_starting_a_timer_stops_the_running_one(ep: Episode) -> None:
    running = every(ep, "list_time_entries", is_running=True)[0]
    ta = every(ep, "list_task_assignments", project_id=running["project_id"])[-1]
    new = ok(
        ep,
        "start_timer",
        user_id=running["user_id"],
        project_id=running["project_id"],
        task_id=ta["task_id"],
        notes="Deploy",
    )
    assert new["is_running"] and new["spent_date"] == TODAY
    old = next(e for e in every(ep, "list_time_entries", user_id=running["user_id"]) if e["id"] == running["id"])
    assert not old["is_running"] and old["hours"] >= 0.75  # started 45 minutes before the episode began
    stopped = ok(ep, "stop_timer", time_entry_id=new["id"])
    assert not stopped["is_running"]
    refused(ep, "stop_timer", "rule_violation", "time_entry_id", time_entry_id=new["id"])


# -- timesheets -----------------------------------------------------------------------------


def test_a_week_with_a_running_timer_cannot_be_submitted(ep: Episode) -> None:
    running = every(ep, "list_time_entries", is_running=True)[0]
    refused(ep, "submit_timesheet", "rule_violation", "week_of", user_id=running["user_id"], week_of=TODAY)
    refused(ep, "submit_timesheet", "rule_violation", "week_of", user_id=running["user_id"], week_of="2026-03-03")
    ok(ep, "stop_timer", time_entry_id=running["id"])
    sheet = ok(ep, "submit_timesheet", user_id=running["user_id"], week_of=TODAY)
    assert sheet["status"] == "submitted" and sheet["hours"] == sum(e["hours"] for e in sheet["entries"])
    refused(ep, "submit_timesheet", "conflict", "week_of", user_id=running["user_id"], week_of=TODAY)
    entry = sheet["entries"][0]
    refused(ep, "update_time_entry", "rule_violation", "time_entry_id", time_entry_id=entry["id"], hours=1.0)
    refused(ep, "delete_time_entry", "rule_violation", "time_entry_id", time_entry_id=entry["id"])
    ta = a_task(ep, entry["project_id"])
    refused(
        ep,
        "log_time",
        "rule_violation",
        "spent_date",
        user_id=entry["user_id"],
        project_id=entry["project_id"],
        task_id=ta["task_id"],
        spent_date="2026-03-04",
        hours=1.0,
    )


def submitted_week(ep: Episode) -> tuple[str, list[dict[str, Any]]]:
    entries = every(ep, "list_time_entries", status="submitted")
    user_id = entries[0]["user_id"]
    monday = dt.date.fromisoformat(entries[0]["spent_date"])
    monday -= dt.timedelta(days=monday.weekday())
    mine = [
        e
        for e in every(ep, "list_time_entries", user_id=user_id)
        if monday.isoformat() <= e["spent_date"] < (monday + dt.timedelta(days=7)).isoformat()
    ]
    return user_id, mine


def test_approval_needs_an_administrator_or_the_projects_manager(ep: Episode) -> None:
    user_id, mine = submitted_week(ep)
    monday = dt.date.fromisoformat(mine[0]["spent_date"])
    week = (monday - dt.timedelta(days=monday.weekday())).isoformat()
    projects = {e["project_id"] for e in mine}
    member = next(u for u in every(ep, "list_users", role="member", is_active=True) if u["id"] != user_id)
    refused(
        ep,
        "approve_timesheet",
        "rule_violation",
        "approver_email",
        user_id=user_id,
        week_of=week,
        approver_email=member["email"],
    )
    for mgr in every(ep, "list_users", role="manager", is_active=True):
        managed = {
            ua["project_id"] for ua in every(ep, "list_user_assignments", user_id=mgr["id"], is_project_manager=True)
        }
        if mgr["id"] != user_id and not projects <= managed:
            refused(
                ep,
                "approve_timesheet",
                "rule_violation",
                "approver_email",
                user_id=user_id,
                week_of=week,
                approver_email=mgr["email"],
            )
            break
    admin = every(ep, "list_users", role="administrator")[0]
    assert admin["id"] != user_id
    refused(
        ep,
        "approve_timesheet",
        "rule_violation",
        "approver_email",
        user_id=user_id,
        week_of=week,
        approver_email=admin["email"].replace("@", "x@"),
    )
    sheet = ok(ep, "approve_timesheet", user_id=user_id, week_of=week, approver_email=admin["email"])
    assert {e["status"] for e in sheet["entries"]} == {"approved"}
    refused(
        ep,
        "approve_timesheet",
        "rule_violation",
        "week_of",
        user_id=user_id,
        week_of=week,
        approver_email=admin["email"],
    )


def test_rejecting_reopens_the_week(ep: Episode) -> None:
    user_id, mine = submitted_week(ep)
    monday = dt.date.fromisoformat(mine[0]["spent_date"])
    week = (monday - dt.timedelta(days=monday.weekday())).isoformat()
    admin = every(ep, "list_users", role="administrator")[0]
    refused(
        ep,
        "reject_timesheet",
        "rule_violation",
        "reason",
        user_id=user_id,
        week_of=week,
        approver_email=admin["email"],
        reason="",
    )
    sheet = ok(ep, "reject_timesheet", user_id=user_id, week_of=week, approver_email=admin["email"], reason="Split it")
    assert {e["status"] for e in sheet["entries"]} == {"unsubmitted"}
    changed = ok(ep, "update_time_entry", time_entry_id=mine[0]["id"], notes="Client workshop")
    assert changed["notes"] == "Client workshop"


# -- budgets and billing --------------------------------------------------------------------


def test_the_budget_report_sums_the_projects_time(ep: Episode) -> None:
    prj = project(ep, "project")
    entries = every(ep, "list_time_entries", project_id=prj["id"])
    report = ok(ep, "project_budget_report", project_id=prj["id"])
    assert report["hours_spent"] == round(sum(e["hours"] for e in entries), 2)
    assert report["billable_amount"] == sum(round(e["hours"] * e["billable_rate"]) for e in entries if e["billable"])
    assert report["budget"] == prj["budget_hours"]
    assert report["budget_spent_percent"] == round(100 * report["hours_spent"] / prj["budget_hours"], 1)


def test_a_hard_budget_refuses_time_beyond_it(ep: Episode) -> None:
    prj = project(ep, "tasks", hard=True)
    used = ok(ep, "project_budget_report", project_id=prj["id"])["billable_amount"]
    ok(ep, "update_project", project_id=prj["id"], budget_fees=used + 10_000)
    user = member_of(ep, prj["id"])
    ta = a_task(ep, prj["id"])
    refused(
        ep,
        "log_time",
        "rule_violation",
        "hours",
        user_id=user["id"],
        project_id=prj["id"],
        task_id=ta["task_id"],
        spent_date=TODAY,
        hours=8.0,
    )


def test_only_approved_time_is_billed_once(ep: Episode) -> None:
    prj = project(ep, "project")
    todo = [
        e
        for e in every(ep, "list_time_entries", project_id=prj["id"], status="approved", is_billed=False)
        if e["billable"]
    ]
    bill = ok(ep, "mark_time_billed", project_id=prj["id"], invoice_number="INV-00042", through=TODAY)
    assert bill["entries"] == len(todo)
    assert bill["amount"] == sum(round(e["hours"] * e["billable_rate"]) for e in todo)
    assert all(e["invoice_number"] == "INV-00042" for e in every(ep, "list_time_entries", is_billed=True))
    refused(
        ep,
        "mark_time_billed",
        "rule_violation",
        "project_id",
        project_id=prj["id"],
        invoice_number="INV-00043",
        through=TODAY,
    )
    assert ok(ep, "project_budget_report", project_id=prj["id"])["uninvoiced_amount"] == 0


def test_project_and_client_rules(ep: Episode) -> None:
    client = every(ep, "list_clients", is_active=True)[0]
    refused(
        ep,
        "create_project",
        "rule_violation",
        "hourly_rate",
        client_id=client["id"],
        name="Audit",
        bill_by="project",
    )
    refused(ep, "update_client", "rule_violation", "is_active", client_id=client["id"], is_active=False)
    archived = every(ep, "list_clients", is_active=False)[0]
    refused(ep, "create_project", "rule_violation", "client_id", client_id=archived["id"], name="Audit", bill_by="none")
    created = ok(ep, "create_project", client_id=client["id"], name="Audit", bill_by="project", hourly_rate=15_000)
    assert created["is_active"]
