"""Clockwise Time: clients, projects with budgets, tasks, assignments, time entries, timers and timesheet approval.

Modeled on the Harvest API v2 (Clients, Projects with bill_by/budget_by,
Tasks, Task Assignments, User Assignments, Users, Time Entries with running
timers, timesheet approval): time is logged only by people assigned to the
project on tasks assigned to it, never more than 24 hours a day; the billable
rate follows the project's bill_by setting (project, task or person rate);
starting a timer stops the user's running one; a week is submitted as a whole
(no running timers), approved by an administrator or a manager of every
project in it, and submitted or approved time is locked; projects with a hard
budget refuse time beyond it; only approved billable time is marked as billed
on an invoice.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    PersonName,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "timetracking",
    title="Clockwise Time",
    category="time_tracking",
    modeled_on="Harvest API v2 (Clients, Projects, Tasks, Task Assignments, User Assignments, Users, Time Entries "
    "with timers, timesheet approvals)",
    description="Time tracking for client work: clients and their projects with hourly or fee budgets, the tasks "
    "and people assigned to each project, time entries and running timers, weekly timesheet approval, budget "
    "reports and marking approved time as invoiced.",
)

ClientId = Annotated[str, IdOf("timetracking.client")]
ProjectId = Annotated[str, IdOf("timetracking.project")]
TaskId = Annotated[str, IdOf("timetracking.task")]
TaskAssignmentId = Annotated[str, IdOf("timetracking.task_assignment")]
UserId = Annotated[str, IdOf("timetracking.user")]
UserAssignmentId = Annotated[str, IdOf("timetracking.user_assignment")]
EntryId = Annotated[str, IdOf("timetracking.time_entry")]
Hours = Annotated[float, Field(ge=0, le=24)]
ProjectCode = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{2,16}$")]
BillBy = Literal["project", "tasks", "people", "none"]
BudgetBy = Literal["none", "hours", "fees"]
Role = Literal["member", "manager", "administrator"]
EntryStatus = Literal["unsubmitted", "submitted", "approved"]
MAX_DAY_HOURS = 24.0


class Client(Record):
    """A customer the company does billable work for."""

    id: ClientId
    name: CompanyName
    """Client company name; unique."""
    currency: Currency
    """Currency the client is billed in."""
    address: PostalAddress | None = None
    """Billing address."""
    is_active: bool = True
    """Archived clients take no new projects or time."""


class Project(Record):
    """A piece of client work that time is tracked against."""

    id: ProjectId
    client_id: ClientId
    """The client."""
    name: Title
    """Project name."""
    code: ProjectCode | None = None
    """Short project code, e.g. ACME-WEB."""
    is_billable: bool = True
    """Whether time on the project is billed to the client."""
    bill_by: BillBy = "project"
    """Which hourly rate applies: the project's, each task's, each person's, or none."""
    hourly_rate: Cents | None = None
    """Project hourly rate in cents (bill_by 'project')."""
    budget_by: BudgetBy = "none"
    """Whether the budget is in hours, in fees, or there is none."""
    budget_hours: Annotated[float, Field(ge=0, le=100000)] | None = None
    """Budget in hours (budget_by 'hours')."""
    budget_fees: Cents | None = None
    """Budget in cents of billable amount (budget_by 'fees')."""
    hard_budget: bool = False
    """Whether time beyond the budget is refused."""
    starts_on: Date | None = None
    """First day time may be logged."""
    ends_on: Date | None = None
    """Last day time may be logged."""
    is_active: bool = True
    """Archived projects take no time."""


class Task(Record):
    """A kind of work (design, development, meetings) that can be assigned to projects."""

    id: TaskId
    name: Title
    """Task name."""
    default_hourly_rate: Cents = 0
    """Rate used when a project bills by task and the assignment sets none."""
    billable_by_default: bool = True
    """Whether new assignments of the task are billable."""
    is_active: bool = True
    """Archived tasks cannot be assigned."""


class TaskAssignment(Record):
    """A task made available on a project."""

    id: TaskAssignmentId
    project_id: ProjectId
    """The project."""
    task_id: TaskId
    """The task."""
    billable: bool = True
    """Whether time on this task is billable."""
    hourly_rate: Cents | None = None
    """Rate for this task on this project (bill_by 'tasks'); null uses the task's default."""


class User(Record):
    """A person who tracks time."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    role: Role = "member"
    """member (tracks time), manager (also approves their projects' time) or administrator (approves any)."""
    weekly_capacity_hours: Annotated[float, Field(ge=0, le=80)] = 40
    """Hours the person is expected to work per week."""
    default_hourly_rate: Cents = 0
    """Rate used when a project bills by person and the assignment sets none."""
    cost_rate: Cents = 0
    """What an hour of the person costs the company, in cents."""
    is_active: bool = True
    """Deactivated users cannot track time."""


class UserAssignment(Record):
    """A person assigned to a project."""

    id: UserAssignmentId
    project_id: ProjectId
    """The project."""
    user_id: UserId
    """The person."""
    is_project_manager: bool = False
    """Whether the person manages the project (and approves its time)."""
    hourly_rate: Cents | None = None
    """Rate for this person on this project (bill_by 'people'); null uses their default."""


class TimeEntry(Timestamped):
    """Time one person spent on one task of one project on one day."""

    id: EntryId
    user_id: UserId
    """Who worked."""
    project_id: ProjectId
    """The project."""
    task_id: TaskId
    """The task."""
    spent_date: Date
    """The day worked."""
    hours: Hours
    """Hours worked (running timers count up when stopped)."""
    notes: Text = ""
    """What was done."""
    billable: bool = True
    """Whether the time is billable."""
    billable_rate: Cents | None = None
    """Hourly rate billed, from the project's bill_by setting."""
    is_running: bool = False
    """Whether a timer is running on the entry."""
    timer_started_at: DateTime | None = None
    """When the running timer started."""
    status: EntryStatus = "unsubmitted"
    """unsubmitted (editable), submitted or approved (both locked)."""
    is_billed: bool = False
    """Whether the time was put on an invoice."""
    invoice_number: InvoiceNumber | None = None
    """The invoice the time was billed on."""


# -- rules ----------------------------------------------------------------------------------


def _monday(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=day.weekday())


def _amount(entry: TimeEntry) -> int:
    return round(entry.hours * (entry.billable_rate or 0)) if entry.billable else 0


def _rate(ctx: Ctx, project: Project, task: TaskAssignment, user_id: str) -> int | None:
    if project.bill_by == "project":
        return project.hourly_rate
    if project.bill_by == "tasks":
        return task.hourly_rate if task.hourly_rate is not None else ctx.get(Task, task.task_id).default_hourly_rate
    if project.bill_by == "people":
        ua = ctx.first(UserAssignment, project_id=project.id, user_id=user_id)
        if ua is not None and ua.hourly_rate is not None:
            return ua.hourly_rate
        return ctx.get(User, user_id).default_hourly_rate
    return None


def _day_hours(ctx: Ctx, user_id: str, day: dt.date, exclude: str | None = None) -> float:
    return sum(e.hours for e in ctx.where(TimeEntry, user_id=user_id, spent_date=day) if e.id != exclude)


def _project_usage(ctx: Ctx, project_id: str) -> tuple[float, int]:
    entries = ctx.where(TimeEntry, project_id=project_id)
    return round(sum(e.hours for e in entries), 2), sum(_amount(e) for e in entries)


def _check_budget(ctx: Ctx, project: Project, extra_hours: float, extra_fees: int, field: str) -> None:
    if not project.hard_budget or project.budget_by == "none":
        return
    hours, fees = _project_usage(ctx, project.id)
    if project.budget_by == "hours" and project.budget_hours is not None and hours + extra_hours > project.budget_hours:
        raise RuleViolation(
            f"project {project.name} would use {hours + extra_hours:g} of its {project.budget_hours:g} budgeted hours",
            field=field,
            hint="the project has a hard budget; log fewer hours or ask a manager to raise budget_hours",
        )
    if project.budget_by == "fees" and project.budget_fees is not None and fees + extra_fees > project.budget_fees:
        raise RuleViolation(
            f"project {project.name} would bill {fees + extra_fees} of its {project.budget_fees} budget",
            field=field,
            hint="the project has a hard budget; log fewer hours or ask a manager to raise budget_fees",
        )


def _trackable(
    ctx: Ctx, user_id: str, project_id: str, task_id: str, day: dt.date
) -> tuple[User, Project, TaskAssignment]:
    user = ctx.get(User, user_id, field="user_id")
    project = ctx.get(Project, project_id, field="project_id")
    ctx.get(Task, task_id, field="task_id")
    if not user.is_active:
        raise RuleViolation(f"{user.name} is deactivated", field="user_id", hint="only active users track time")
    client = ctx.get(Client, project.client_id)
    if not project.is_active or not client.is_active:
        raise RuleViolation(f"project {project.name} is archived", field="project_id", hint="pick an active project")
    if ctx.first(UserAssignment, project_id=project.id, user_id=user.id) is None:
        raise RuleViolation(
            f"{user.name} is not assigned to project {project.name}",
            field="user_id",
            hint="assign them with timetracking__create_user_assignment first",
        )
    ta = ctx.first(TaskAssignment, project_id=project.id, task_id=task_id)
    if ta is None:
        raise RuleViolation(
            f"the task is not assigned to project {project.name}",
            field="task_id",
            hint="pick one of the project's tasks (timetracking__list_task_assignments)",
        )
    if (project.starts_on and day < project.starts_on) or (project.ends_on and day > project.ends_on):
        raise RuleViolation(
            f"project {project.name} runs from {project.starts_on} to {project.ends_on}",
            field="spent_date",
            hint="log time within the project's dates",
        )
    if day > ctx.today() + dt.timedelta(days=7):
        raise RuleViolation("time cannot be logged more than a week ahead", field="spent_date", hint="log past work")
    week = [e for e in ctx.where(TimeEntry, user_id=user.id) if _monday(e.spent_date) == _monday(day)]
    if any(e.status != "unsubmitted" for e in week):
        raise RuleViolation(
            f"the timesheet of the week of {_monday(day)} is submitted and locked",
            field="spent_date",
            hint="ask the approver to reject the timesheet (timetracking__reject_timesheet) to reopen it",
        )
    return user, project, ta


def _guard_entry_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "unsubmitted":
        raise RuleViolation(
            f"time entry {old.id} is {old.status} and locked",
            field="time_entry_id",
            hint="ask the approver to reject the timesheet to reopen it",
        )
    if new.spent_date != old.spent_date:
        _trackable(ctx, new.user_id, new.project_id, new.task_id, new.spent_date)
    if _day_hours(ctx, new.user_id, new.spent_date) > MAX_DAY_HOURS:
        raise RuleViolation(
            f"more than {MAX_DAY_HOURS:g} hours on {new.spent_date}", field="hours", hint="log fewer hours"
        )
    if new.hours > old.hours:
        _check_budget(ctx, ctx.get(Project, new.project_id), 0, 0, "hours")  # the new hours are already counted


def _guard_entry_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "unsubmitted" or old.is_billed:
        raise RuleViolation(
            f"time entry {old.id} is {'billed' if old.is_billed else old.status} and locked",
            field="time_entry_id",
            hint="only unsubmitted time can be deleted",
        )


def _guard_project(ctx: Ctx, new: Any, old: Any) -> None:
    client = ctx.get(Client, new.client_id, field="client_id")
    if old is None and not client.is_active:
        raise RuleViolation(f"client {client.name} is archived", field="client_id", hint="reactivate the client first")
    if new.bill_by == "project" and new.is_billable and new.hourly_rate is None:
        raise RuleViolation(
            "a project billed by project rate needs an hourly_rate",
            field="hourly_rate",
            hint="give the hourly rate in cents, or bill by tasks or people",
        )
    if new.budget_by == "hours" and new.budget_hours is None:
        raise RuleViolation("an hours budget needs budget_hours", field="budget_hours", hint="give the budget in hours")
    if new.budget_by == "fees" and new.budget_fees is None:
        raise RuleViolation("a fees budget needs budget_fees", field="budget_fees", hint="give the budget in cents")
    if new.starts_on and new.ends_on and new.ends_on < new.starts_on:
        raise RuleViolation("the project ends before it starts", field="ends_on", hint="swap the dates")
    for p in ctx.where(Project, client_id=new.client_id):
        if p.id != new.id and p.code is not None and p.code == new.code:
            raise Conflict(f"project code {new.code} is taken", field="code", hint="pick another code")


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.is_active and not new.is_active:
        live = [p for p in ctx.where(Project, client_id=new.id) if p.is_active]
        if live:
            raise RuleViolation(
                f"client {new.name} has {len(live)} active project(s)",
                field="is_active",
                hint="archive the client's projects first",
            )


def _guard_task_assignment(ctx: Ctx, new: Any, old: Any) -> None:
    task = ctx.get(Task, new.task_id, field="task_id")
    ctx.get(Project, new.project_id, field="project_id")
    if not task.is_active:
        raise RuleViolation(f"task {task.name} is archived", field="task_id", hint="pick an active task")
    if len(ctx.where(TaskAssignment, project_id=new.project_id, task_id=new.task_id)) > 1:
        raise Conflict("the task is already assigned to the project", field="task_id", hint="nothing to do")


def _guard_user_assignment(ctx: Ctx, new: Any, old: Any) -> None:
    user = ctx.get(User, new.user_id, field="user_id")
    if not user.is_active:
        raise RuleViolation(f"{user.name} is deactivated", field="user_id", hint="assign an active user")
    if len(ctx.where(UserAssignment, project_id=new.project_id, user_id=new.user_id)) > 1:
        raise Conflict(f"{user.name} is already assigned to the project", field="user_id", hint="nothing to do")


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    get=False,
    filters=("name", "currency", "is_active"),
    search=("name",),
    update=("address", "is_active"),
    delete=False,
    unique=("name",),
    guard_update=_guard_client,
)
projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="prj",
    create=(
        "client_id",
        "name",
        "code",
        "is_billable",
        "bill_by",
        "hourly_rate",
        "budget_by",
        "budget_hours",
        "budget_fees",
        "hard_budget",
        "starts_on",
        "ends_on",
    ),
    filters=("client_id", "is_active", "bill_by", "code"),
    search=("name", "code"),
    update=("name", "hourly_rate", "budget_hours", "budget_fees", "hard_budget", "ends_on", "is_active"),
    delete=False,
    guard_create=_guard_project,
    guard_update=_guard_project,
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="tsk",
    get=False,
    filters=("is_active",),
    search=("name",),
    delete=False,
)
task_assignments = service.resource(
    TaskAssignment,
    name="task_assignment",
    plural="task_assignments",
    prefix="tas",
    get=False,
    filters=("project_id", "task_id"),
    delete=False,
    guard_create=_guard_task_assignment,
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "role", "is_active"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
user_assignments = service.resource(
    UserAssignment,
    name="user_assignment",
    plural="user_assignments",
    prefix="uas",
    get=False,
    filters=("project_id", "user_id", "is_project_manager"),
    delete=False,
    guard_create=_guard_user_assignment,
)
entries = service.resource(
    TimeEntry,
    name="time_entry",
    plural="time_entries",
    prefix="te",
    create=False,
    get=False,
    filters=("user_id", "project_id", "task_id", "spent_date", "status", "is_running", "is_billed"),
    search=("notes",),
    guard_delete=_guard_entry_delete,
)


# -- examples -------------------------------------------------------------------------------


def _assignable(ctx: Ctx) -> tuple[User, Project, TaskAssignment] | None:
    for ua in ctx.scan(UserAssignment):
        user = ctx.get(User, ua.user_id)
        project = ctx.get(Project, ua.project_id)
        if not (user.is_active and project.is_active and not project.hard_budget):
            continue
        ta = ctx.first(TaskAssignment, project_id=project.id)
        week = [e for e in ctx.where(TimeEntry, user_id=user.id) if _monday(e.spent_date) == _monday(ctx.today())]
        if ta is not None and all(e.status == "unsubmitted" for e in week) and not any(e.is_running for e in week):
            return user, project, ta
    return None


def _example_log(ctx: Ctx) -> dict[str, Any] | None:
    found = _assignable(ctx)
    if found is None:
        return None
    user, project, ta = found
    return {
        "user_id": user.id,
        "project_id": project.id,
        "task_id": ta.task_id,
        "spent_date": ctx.today().isoformat(),
        "hours": 1.5,
        "notes": "Sprint planning",
    }


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    found = _assignable(ctx)
    if found is None:
        return None
    user, project, ta = found
    return {"user_id": user.id, "project_id": project.id, "task_id": ta.task_id, "notes": "Bug fixing"}


def _submittable(ctx: Ctx) -> tuple[User, dt.date] | None:
    for e in ctx.where(TimeEntry, status="unsubmitted"):
        week = _monday(e.spent_date)
        mine = [x for x in ctx.where(TimeEntry, user_id=e.user_id) if _monday(x.spent_date) == week]
        if not any(x.is_running or x.status != "unsubmitted" for x in mine):
            return ctx.get(User, e.user_id), week
    return None


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    found = _submittable(ctx)
    return None if found is None else {"user_id": found[0].id, "week_of": found[1].isoformat()}


def _approver_for(ctx: Ctx, week_entries: list[TimeEntry], user_id: str) -> User | None:
    for cand in ctx.scan(User):
        if cand.id != user_id and cand.is_active and _may_approve(ctx, cand, week_entries):
            return cand
    return None


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(TimeEntry, status="submitted"):
        week = _monday(e.spent_date)
        mine = [x for x in ctx.where(TimeEntry, user_id=e.user_id) if _monday(x.spent_date) == week]
        approver = _approver_for(ctx, mine, e.user_id)
        if approver is not None:
            return {"user_id": e.user_id, "week_of": week.isoformat(), "approver_email": approver.email}
    return None


def _example_reject(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_approve(ctx)
    return None if args is None else {**args, "reason": "Please split the meeting time by project"}


def _example_bill(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(TimeEntry, status="approved", is_billed=False):
        if e.billable:
            return {"project_id": e.project_id, "invoice_number": "INV-09001", "through": ctx.today().isoformat()}
    return None


# -- domain tools ---------------------------------------------------------------------------


@service.tool(intent="log time on the project", write=True, example=_example_log)
def log_time(
    ctx: Ctx,
    user_id: UserId,
    project_id: ProjectId,
    task_id: TaskId,
    spent_date: Date,
    hours: Annotated[float, Field(gt=0, le=24)],
    notes: Text = "",
) -> TimeEntry:
    """Record hours a person worked on a task of a project on a day.

    The person and the task must be assigned to the project, the day's total may
    not pass 24 hours, and the week must not be submitted. The billable rate
    follows the project's bill_by setting.

    Args:
        user_id: Who worked.
        project_id: The project.
        task_id: The task (assigned to the project).
        spent_date: The day worked.
        hours: Hours worked (decimal, e.g. 1.5).
        notes: What was done.
    """
    user, project, ta = _trackable(ctx, user_id, project_id, task_id, spent_date)
    hours = round(hours, 2)
    if _day_hours(ctx, user.id, spent_date) + hours > MAX_DAY_HOURS:
        raise RuleViolation(
            f"{user.name} would log more than {MAX_DAY_HOURS:g} hours on {spent_date}",
            field="hours",
            hint="check the day's entries with timetracking__list_time_entries",
        )
    rate = _rate(ctx, project, ta, user.id)
    billable = project.is_billable and ta.billable and project.bill_by != "none"
    _check_budget(ctx, project, hours, round(hours * (rate or 0)) if billable else 0, "hours")
    return ctx.create(
        TimeEntry,
        user_id=user.id,
        project_id=project.id,
        task_id=task_id,
        spent_date=spent_date,
        hours=hours,
        notes=notes,
        billable=billable,
        billable_rate=rate if billable else None,
    )


@service.tool(
    intent="edit the time entry",
    write=True,
    idempotent=True,
    example=first_example(
        TimeEntry,
        "time_entry_id",
        where={"status": "unsubmitted", "is_running": False},
        notes="Workshop with the client",
    ),
)
def update_time_entry(
    ctx: Ctx,
    time_entry_id: EntryId,
    hours: Hours | None = None,
    notes: Text | None = None,
    spent_date: Date | None = None,
) -> TimeEntry:
    """Change the hours, notes or day of an unsubmitted time entry; omitted fields keep their values.

    The day's total may not pass 24 hours, a new day must be open for time,
    and a hard project budget may not be exceeded.

    Args:
        time_entry_id: The entry.
        hours: New hours (decimal); omit to keep.
        notes: New notes; omit to keep.
        spent_date: New day; omit to keep.
    """
    entry = ctx.get(TimeEntry, time_entry_id, field="time_entry_id")
    changes = {
        k: v
        for k, v in (
            ("hours", None if hours is None else round(hours, 2)),
            ("notes", notes),
            ("spent_date", spent_date),
        )
        if v is not None
    }
    if not changes:
        raise RuleViolation(
            f"nothing to change on time entry {entry.id}", hint="pass at least one of hours, notes, spent_date"
        )
    new = ctx.update(entry, **changes)
    _guard_entry_update(ctx, new, entry)
    return new


@service.tool(intent="start a timer", write=True, example=_example_start)
def start_timer(ctx: Ctx, user_id: UserId, project_id: ProjectId, task_id: TaskId, notes: Text = "") -> TimeEntry:
    """Start a running timer for today; the person's running timer, if any, is stopped first.

    Args:
        user_id: Who is working.
        project_id: The project.
        task_id: The task (assigned to the project).
        notes: What is being done.
    """
    today = ctx.today()
    user, project, ta = _trackable(ctx, user_id, project_id, task_id, today)
    for running in ctx.where(TimeEntry, user_id=user.id, is_running=True):
        _stop(ctx, running)
    rate = _rate(ctx, project, ta, user.id)
    billable = project.is_billable and ta.billable and project.bill_by != "none"
    return ctx.create(
        TimeEntry,
        user_id=user.id,
        project_id=project.id,
        task_id=task_id,
        spent_date=today,
        hours=0.0,
        notes=notes,
        billable=billable,
        billable_rate=rate if billable else None,
        is_running=True,
        timer_started_at=ctx.now(),
    )


def _stop(ctx: Ctx, entry: TimeEntry) -> TimeEntry:
    started = entry.timer_started_at or ctx.now()
    elapsed = max(0.0, (ctx.now() - started).total_seconds() / 3600)
    hours = min(MAX_DAY_HOURS, round(entry.hours + elapsed, 2))
    return ctx.update(entry, hours=hours, is_running=False, timer_started_at=None)


@service.tool(
    intent="stop the running timer",
    write=True,
    example=first_example(TimeEntry, "time_entry_id", where={"is_running": True}),
)
def stop_timer(ctx: Ctx, time_entry_id: EntryId) -> TimeEntry:
    """Stop a running timer; the time since it started is added to the entry's hours.

    Args:
        time_entry_id: The running entry.
    """
    entry = ctx.get(TimeEntry, time_entry_id, field="time_entry_id")
    if not entry.is_running:
        raise RuleViolation(
            f"no timer is running on time entry {entry.id}",
            field="time_entry_id",
            hint="find running timers with timetracking__list_time_entries(is_running=true)",
        )
    return _stop(ctx, entry)


class Timesheet(BaseModel):
    """One person's week of time."""

    user_id: UserId = Field(description="The person.")
    email: Email = Field(description="Their work e-mail.")
    week_of: Date = Field(description="Monday of the week.")
    status: EntryStatus = Field(description="Status of the week's entries.")
    hours: float = Field(description="Total hours of the week.")
    billable_hours: float = Field(description="Billable hours of the week.")
    entries: list[TimeEntry] = Field(description="The week's entries, by day.")


def _week(ctx: Ctx, user_id: str, week_of: dt.date) -> tuple[User, list[TimeEntry]]:
    user = ctx.get(User, user_id, field="user_id")
    if week_of.weekday() != 0:
        raise RuleViolation(
            f"{week_of} is not a Monday", field="week_of", hint=f"give the week's Monday, {_monday(week_of)}"
        )
    mine = [e for e in ctx.where(TimeEntry, user_id=user.id) if _monday(e.spent_date) == week_of]
    if not mine:
        raise RuleViolation(
            f"{user.name} has no time in the week of {week_of}", field="week_of", hint="pick a week with entries"
        )
    mine.sort(key=lambda e: (e.spent_date, e.id))
    return user, mine


def _sheet(user: User, week_of: dt.date, mine: list[TimeEntry]) -> Timesheet:
    return Timesheet(
        user_id=user.id,
        email=user.email,
        week_of=week_of,
        status=mine[0].status,
        hours=round(sum(e.hours for e in mine), 2),
        billable_hours=round(sum(e.hours for e in mine if e.billable), 2),
        entries=mine,
    )


@service.tool(intent="submit the weekly timesheet for approval", write=True, example=_example_submit)
def submit_timesheet(ctx: Ctx, user_id: UserId, week_of: Date) -> Timesheet:
    """Submit all of a person's time in one week for approval; the entries become locked.

    No timer may be running in the week.

    Args:
        user_id: The person.
        week_of: Monday of the week.
    """
    user, mine = _week(ctx, user_id, week_of)
    if any(e.status != "unsubmitted" for e in mine):
        raise Conflict(
            f"the week of {week_of} is already {mine[0].status}",
            field="week_of",
            hint="nothing to submit; the approver can reject it to reopen the week",
        )
    running = next((e for e in mine if e.is_running), None)
    if running is not None:
        raise RuleViolation(
            f"a timer is still running on entry {running.id}",
            field="week_of",
            hint="stop it with timetracking__stop_timer first",
        )
    return _sheet(user, week_of, [ctx.update(e, status="submitted") for e in mine])


def _may_approve(ctx: Ctx, approver: User, mine: list[TimeEntry]) -> bool:
    if approver.role == "administrator":
        return True
    if approver.role != "manager":
        return False
    managed = {ua.project_id for ua in ctx.where(UserAssignment, user_id=approver.id, is_project_manager=True)}
    return all(e.project_id in managed for e in mine)


def _decide(ctx: Ctx, user_id: str, week_of: dt.date, approver_email: str) -> tuple[User, list[TimeEntry]]:
    user, mine = _week(ctx, user_id, week_of)
    if any(e.status != "submitted" for e in mine):
        raise RuleViolation(
            f"the week of {week_of} is not submitted",
            field="week_of",
            hint="only submitted timesheets are approved or rejected",
        )
    approver = ctx.first(User, email=approver_email)
    if approver is None or not approver.is_active:
        raise RuleViolation(
            f"{approver_email} is not an active user", field="approver_email", hint="give an approver's e-mail"
        )
    if approver.id == user.id:
        raise RuleViolation(
            "nobody approves their own time", field="approver_email", hint="ask a project manager or administrator"
        )
    if not _may_approve(ctx, approver, mine):
        raise RuleViolation(
            f"{approver.name} does not manage every project in this timesheet",
            field="approver_email",
            hint="an administrator or a manager of all the week's projects must approve",
        )
    return user, mine


@service.tool(intent="approve the weekly timesheet", write=True, example=_example_approve)
def approve_timesheet(ctx: Ctx, user_id: UserId, week_of: Date, approver_email: Email) -> Timesheet:
    """Approve a person's submitted week; an administrator or a manager of every project in it may.

    Args:
        user_id: The person whose time it is.
        week_of: Monday of the week.
        approver_email: E-mail of the approving user.
    """
    user, mine = _decide(ctx, user_id, week_of, approver_email)
    return _sheet(user, week_of, [ctx.update(e, status="approved") for e in mine])


@service.tool(intent="reject the weekly timesheet", write=True, example=_example_reject)
def reject_timesheet(ctx: Ctx, user_id: UserId, week_of: Date, approver_email: Email, reason: Text) -> Timesheet:
    """Send a submitted week back to the person: its entries become editable again.

    Args:
        user_id: The person whose time it is.
        week_of: Monday of the week.
        approver_email: E-mail of the rejecting approver.
        reason: What to fix.
    """
    if not reason.strip():
        raise RuleViolation("rejecting needs a reason", field="reason", hint="say what to fix")
    user, mine = _decide(ctx, user_id, week_of, approver_email)
    return _sheet(user, week_of, [ctx.update(e, status="unsubmitted") for e in mine])


class BudgetReport(BaseModel):
    """How much of a project's budget is used."""

    project_id: ProjectId = Field(description="The project.")
    project_name: Title = Field(description="Project name.")
    client_name: CompanyName = Field(description="Client.")
    budget_by: BudgetBy = Field(description="Kind of budget.")
    hours_spent: float = Field(description="Hours logged.")
    billable_amount: Cents = Field(description="Billable amount of the logged time, in cents.")
    uninvoiced_amount: Cents = Field(description="Approved billable amount not yet billed, in cents.")
    budget: float | None = Field(description="Budget in hours or cents; null without a budget.")
    budget_spent_percent: float | None = Field(description="Share of the budget used, in percent.")
    over_budget: bool = Field(description="Whether the budget is exceeded.")
    currency: Currency = Field(description="Currency of the amounts (the client's).")


@service.tool(
    intent="report on the project's budget", example=first_example(Project, "project_id", where={"is_active": True})
)
def project_budget_report(ctx: Ctx, project_id: ProjectId) -> BudgetReport:
    """Sum a project's logged hours and billable amounts and compare them with its budget.

    Args:
        project_id: The project.
    """
    project = ctx.get(Project, project_id, field="project_id")
    client = ctx.get(Client, project.client_id)
    hours, fees = _project_usage(ctx, project.id)
    uninvoiced = sum(
        _amount(e) for e in ctx.where(TimeEntry, project_id=project.id, status="approved") if not e.is_billed
    )
    budget: float | None = None
    used: float | None = None
    if project.budget_by == "hours" and project.budget_hours is not None:
        budget, used = project.budget_hours, hours
    elif project.budget_by == "fees" and project.budget_fees is not None:
        budget, used = float(project.budget_fees), float(fees)
    percent = round(100 * used / budget, 1) if budget and used is not None else None
    return BudgetReport(
        project_id=project.id,
        project_name=project.name,
        client_name=client.name,
        budget_by=project.budget_by,
        hours_spent=hours,
        billable_amount=fees,
        uninvoiced_amount=uninvoiced,
        budget=budget,
        budget_spent_percent=percent,
        over_budget=budget is not None and used is not None and used > budget,
        currency=client.currency,
    )


class Billing(BaseModel):
    """Approved time put on one invoice."""

    project_id: ProjectId = Field(description="The project.")
    client_name: CompanyName = Field(description="The client billed.")
    invoice_number: InvoiceNumber = Field(description="The invoice.")
    entries: int = Field(description="Time entries marked billed.")
    hours: float = Field(description="Hours billed.")
    amount: Cents = Field(description="Amount billed, in cents.")
    currency: Currency = Field(description="The client's currency.")


@service.tool(intent="mark the project's approved time as billed on the invoice", write=True, example=_example_bill)
def mark_time_billed(ctx: Ctx, project_id: ProjectId, invoice_number: InvoiceNumber, through: Date) -> Billing:
    """Mark a project's approved, billable, unbilled time up to a date as billed on an invoice.

    Args:
        project_id: The project.
        invoice_number: Number of the invoice the time goes on.
        through: Last day of time to include.
    """
    project = ctx.get(Project, project_id, field="project_id")
    client = ctx.get(Client, project.client_id)
    todo = [
        e
        for e in ctx.where(TimeEntry, project_id=project.id, status="approved", is_billed=False)
        if e.billable and e.spent_date <= through
    ]
    if not todo:
        waiting = [e for e in ctx.where(TimeEntry, project_id=project.id, is_billed=False) if e.billable]
        raise RuleViolation(
            f"project {project.name} has no approved unbilled billable time through {through}",
            field="project_id",
            hint="have the timesheets approved first"
            if waiting
            else "nothing to bill; check the project's time entries",
        )
    for e in todo:
        ctx.update(e, is_billed=True, invoice_number=invoice_number)
    return Billing(
        project_id=project.id,
        client_name=client.name,
        invoice_number=invoice_number,
        entries=len(todo),
        hours=round(sum(e.hours for e in todo), 2),
        amount=sum(_amount(e) for e in todo),
        currency=client.currency,
    )


# -- seed -----------------------------------------------------------------------------------

TASKS = (
    ("Design", 14_000, True),
    ("Development", 15_000, True),
    ("Project Management", 12_000, True),
    ("Meetings", 10_000, True),
    ("Quality Assurance", 11_000, True),
    ("Internal training", 0, False),
)
PROJECT_KINDS = (
    ("Website redesign", "WEB", "project", "hours"),
    ("Data platform migration", "DATA", "tasks", "fees"),
    ("Support retainer", "RET", "people", "none"),
    ("Mobile app", "APP", "project", "hours"),
)
NOTES = ("Wireframes", "API integration", "Client call", "Code review", "Bug fixing", "Status report", "Testing")
TRACKING_DEPARTMENTS = ("Engineering", "Marketing", "Operations")


@service.seeder
def seed(s: SeedContext) -> None:
    """Tasks, clients from the customer companies, projects with assignments, four weeks of timesheets."""
    tasks = _seed_tasks(s)
    users = _seed_users(s)
    projects = _seed_projects(s, tasks, users)
    _seed_time_entries(s, tasks, users, projects)


def _seed_tasks(s: SeedContext) -> list[Task]:
    """The active tasks of TASKS, and one archived task that is never assigned."""
    made = [s.create(Task, name=n, default_hourly_rate=r, billable_by_default=b, is_active=True) for n, r, b in TASKS]
    s.create(Task, name="Legacy support", default_hourly_rate=9_000, is_active=False)
    return made


def _seed_users(s: SeedContext) -> list[User]:
    """The staff of TRACKING_DEPARTMENTS: the first is the administrator, managers and leads manage."""
    users: list[User] = []
    people = s.population.staff(*TRACKING_DEPARTMENTS, fallback=0)
    for i, p in enumerate(people):
        lead = any(w in p.job_title for w in ("Manager", "Lead"))
        users.append(
            s.create(
                User,
                name=p.name,
                email=p.email,
                role="administrator" if i == 0 else "manager" if lead else "member",
                weekly_capacity_hours=32 if i % 6 == 5 else 40,
                default_hourly_rate=(110 + 10 * (i % 5)) * 100,
                cost_rate=(50 + 5 * (i % 4)) * 100,
                is_active=i % 13 != 12,
            )
        )
    return users


_Staffed = tuple[Project, list[User], list[TaskAssignment]]
"""A seeded project with its team (manager first) and its task assignments."""


def _seed_projects(s: SeedContext, tasks: list[Task], users: list[User]) -> list[_Staffed]:
    """Up to eight clients (the last one archived) with one or two staffed projects each."""
    pop = s.population
    managers = [u for u in users if u.role == "manager" and u.is_active] or [users[0]]
    members = [u for u in users if u.role == "member" and u.is_active]
    n_clients = min(8, len(pop.customers))
    staffed: list[_Staffed] = []
    for c, company in enumerate(pop.customers[:n_clients]):
        client = s.create(
            Client,
            name=company.name,
            currency=company.place.currency,
            address=company.address,
            is_active=c != n_clients - 1,
        )
        for k in range(1 + c % 2):
            project, tas = _seed_project(s, client, c, k, tasks)
            pm = managers[(c + k) % len(managers)]
            team = [pm] + [members[(c * 3 + k + j) % len(members)] for j in range(3)] if members else [pm]
            team = list(dict.fromkeys(team))
            for j, u in enumerate(team):
                s.create(
                    UserAssignment,
                    project_id=project.id,
                    user_id=u.id,
                    is_project_manager=j == 0,
                    hourly_rate=u.default_hourly_rate + 500 if project.bill_by == "people" and j == 1 else None,
                )
            staffed.append((project, team, tas))
    return staffed


def _seed_project(
    s: SeedContext, client: Client, c: int, k: int, tasks: list[Task]
) -> tuple[Project, list[TaskAssignment]]:
    """The ``k``-th project of the ``c``-th client, of the kind PROJECT_KINDS gives, with its task assignments."""
    today = s.now.date()
    name, code, bill_by, budget_by = PROJECT_KINDS[(c + k) % len(PROJECT_KINDS)]
    rate = (140 + 10 * (c % 4)) * 100
    project = s.create(
        Project,
        client_id=client.id,
        name=name,
        code=f"{client.name.split()[0].upper()[:6]}-{code}",
        is_billable=True,
        bill_by=bill_by,
        hourly_rate=rate if bill_by == "project" else None,
        budget_by=budget_by,
        budget_hours=float(120 + 40 * (c % 3)) if budget_by == "hours" else None,
        budget_fees=(25_000 + 5_000 * (c % 4)) * 100 if budget_by == "fees" else None,
        hard_budget=c == 1,
        starts_on=today - dt.timedelta(days=90 + 10 * c),
        ends_on=today + dt.timedelta(days=60 + 15 * c),
        is_active=client.is_active,
    )
    tas = [
        s.create(
            TaskAssignment,
            project_id=project.id,
            task_id=t.id,
            billable=t.billable_by_default,
            hourly_rate=t.default_hourly_rate + 1_000 * (c % 3) if bill_by == "tasks" else None,
        )
        for t in tasks[: 3 + (c + k) % 3]
    ]
    return project, tas


def _week_status(w: int, ui: int) -> EntryStatus:
    """The state of the ``ui``-th user's timesheet ``w`` weeks back."""
    if w >= 3:
        return "approved"
    if w >= 1:
        return "submitted" if (ui + w) % 3 != 0 else "approved" if w == 2 else "unsubmitted"
    return "unsubmitted"


def _seed_time_entries(s: SeedContext, tasks: list[Task], users: list[User], staffed: list[_Staffed]) -> None:
    """Four weeks back and this one: the oldest two approved, then mostly submitted, this week open."""
    ua_rates = {
        (ua.project_id, ua.user_id): ua.hourly_rate for ua in s.records(UserAssignment) if ua.hourly_rate is not None
    }
    task_rates = {t.id: t.default_hourly_rate for t in tasks}
    this_monday = _monday(s.now.date())
    for w in range(4, -1, -1):
        monday = this_monday - dt.timedelta(days=7 * w)
        for ui, u in enumerate(users):
            if not u.is_active:
                continue
            mine = [(p, tas) for p, team, tas in staffed if u in team and p.is_active]
            if not mine:
                continue
            status = _week_status(w, ui)
            for d in range(5) if w else range(1):
                day = monday + dt.timedelta(days=d)
                project, tas = mine[(d + ui) % len(mine)]
                ta = tas[(d * 2 + ui) % len(tas)]
                hours = float(s.rng.choice((4, 5, 6, 7, 7.5, 8))) if w else 2.0
                if project.hard_budget:
                    hours = 1.0
                bill_rate: int | None
                if project.bill_by == "project":
                    bill_rate = project.hourly_rate
                elif project.bill_by == "tasks":
                    bill_rate = ta.hourly_rate if ta.hourly_rate is not None else task_rates[ta.task_id]
                elif project.bill_by == "people":
                    bill_rate = ua_rates.get((project.id, u.id), u.default_hourly_rate)
                else:
                    bill_rate = None
                billable = project.is_billable and ta.billable and project.bill_by != "none"
                running = w == 0 and ui % 4 == 1
                logged = utc_at(day, 17) if w else s.now
                s.create(
                    TimeEntry,
                    user_id=u.id,
                    project_id=project.id,
                    task_id=ta.task_id,
                    spent_date=day,
                    hours=0.0 if running else hours,
                    notes=NOTES[(d + ui + w) % len(NOTES)],
                    billable=billable,
                    billable_rate=bill_rate if billable else None,
                    is_running=running,
                    timer_started_at=s.ago(minutes=45) if running else None,
                    status=status,
                    created_at=logged,
                    updated_at=logged,
                )
