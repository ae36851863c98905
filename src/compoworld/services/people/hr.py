"""Roster HR: employees, departments, job history, compensation and time off.

Modeled on the BambooHR API v1: employees with their job information and
compensation tables (dated history rows), time-off types and policies
assigned to employees with balances, time-off requests moving through
requested/approved/denied/canceled, and the "who's out" report. A request
cannot exceed the remaining balance nor overlap another one, only the
employee's manager decides on it, and terminated employees are frozen.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import utc_at
from compoworld.world.org import department_of, is_lead, org_chart

__all__ = ["service"]

service = Service(
    "hr",
    title="Roster HR",
    category="hr",
    modeled_on="BambooHR API v1 (employees, jobInfo and compensation tables, time off types/policies, "
    "balances, requests, whos_out)",
    description="The home company's HR system: the employee directory and reporting lines, departments, "
    "dated job and pay history, time-off policies with per-employee balances, and time-off requests "
    "approved by managers.",
)

EmployeeId = Annotated[str, IdOf("hr.employee")]
DepartmentId = Annotated[str, IdOf("hr.department")]
PolicyId = Annotated[str, IdOf("hr.time_off_policy")]
BalanceId = Annotated[str, IdOf("hr.time_off_balance")]
RequestId = Annotated[str, IdOf("hr.time_off_request")]
DepartmentCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,6}$")]
EmployeeStatus = Literal["active", "on_leave", "terminated"]
EmploymentType = Literal["full_time", "part_time", "contractor"]
PolicyKind = Literal["vacation", "sick", "personal", "learning", "parental"]
RequestStatus = Literal["pending", "approved", "denied", "cancelled"]
PayType = Literal["salary", "hourly"]
PayReason = Literal["new_hire", "promotion", "merit_increase", "market_adjustment", "role_change", "correction"]
TerminationReason = Literal["resignation", "dismissal", "retirement", "contract_end", "other"]

MAX_REQUEST_SPAN_DAYS = 366
MAX_REPORT_DAYS = 92


class Department(Created):
    """An organisational unit employees belong to."""

    id: DepartmentId
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """Department name, e.g. Engineering."""
    code: DepartmentCode | None = None
    """Short upper-case code, e.g. ENG; unique when set."""
    cost_center: Annotated[str, StringConstraints(pattern=r"^CC-[0-9]{3,6}$")] | None = None
    """Finance cost center the department books to, e.g. CC-1200."""
    people_ops: bool = False
    """Whether this is the HR/People team, whose members decide requests of employees without a manager."""


class Employee(Record):
    """A person employed by the home company, current or former."""

    id: EmployeeId
    employee_number: Annotated[str, Generated("sequence", "E{n:04d}")]
    """Company employee number."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    work_email: Email
    """Work e-mail address (the same address as in mail, chat and calendar)."""
    work_phone: Phone | None = None
    """Work phone number."""
    home_address: PostalAddress | None = None
    """Home address."""
    birth_date: Date | None = None
    """Date of birth."""
    hire_date: Date
    """First day of employment."""
    department_id: DepartmentId
    """Current department."""
    job_title: JobTitle
    """Current job title."""
    manager_id: EmployeeId | None = None
    """The employee's manager (reports-to); null at the top of the organisation."""
    location: City
    """City of the office the employee works from."""
    employment_type: EmploymentType = "full_time"
    """Kind of contract."""
    status: EmployeeStatus = "active"
    """Employment status; terminated employees can no longer request time off or change jobs."""
    termination_date: Date | None = None
    """Last day of employment of a terminated employee."""
    termination_reason: TerminationReason | None = None
    """Why a terminated employee left."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the record last changed."""


class TimeOffPolicy(Record):
    """A time-off policy: a kind of leave with a yearly allowance."""

    id: PolicyId
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """Policy name, e.g. Vacation; unique."""
    kind: PolicyKind
    """Kind of leave."""
    annual_days: Quantity
    """Working days granted per year to an employee on the policy."""
    requires_approval: bool = True
    """Whether a manager must approve requests; if false they are approved on submission."""
    carryover_days: Quantity = 0
    """Unused days that may carry over into the next year."""
    active: bool = True
    """Whether new requests and assignments are accepted."""


class TimeOffBalance(Record):
    """One employee's allowance and use under one policy for the current year."""

    id: BalanceId
    employee_id: EmployeeId
    """The employee."""
    policy_id: PolicyId
    """The policy."""
    entitlement_days: Quantity
    """Days granted this year, adjustments and carry-over included."""
    used_days: Quantity = 0
    """Days of approved requests, taken or scheduled."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the balance last changed."""


class TimeOffRequest(Record):
    """A request for time off over a range of dates."""

    id: RequestId
    employee_id: EmployeeId
    """The employee asking."""
    policy_id: PolicyId
    """The policy the days are taken from."""
    start: Date
    """First day off."""
    end: Date
    """Last day off (inclusive)."""
    days: Quantity
    """Working days (Monday to Friday) in the range."""
    status: RequestStatus = "pending"
    """Request status; pending until the manager approves or denies it."""
    note: Text = ""
    """The employee's note."""
    approver_id: EmployeeId | None = None
    """Who approved or denied the request."""
    decision_note: Text = ""
    """The approver's note."""
    decided_at: DateTime | None = None
    """When the request was approved, denied or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When the request was submitted."""


class Compensation(Record):
    """One row of an employee's pay history."""

    id: Annotated[str, IdOf("hr.compensation")]
    employee_id: EmployeeId
    """The employee."""
    effective_date: Date
    """When this pay takes effect."""
    pay_rate: Cents
    """Pay in minor units per year (salary) or per hour (hourly)."""
    currency: Currency
    """Currency of the pay rate."""
    pay_type: PayType
    """'salary' (rate per year) or 'hourly' (rate per hour)."""
    reason: PayReason
    """Why the pay changed."""
    comment: Text = ""
    """Free-text comment."""
    created_at: Annotated[DateTime, CREATED]
    """When the row was entered."""


class JobInfo(Record):
    """One row of an employee's job history: title, department, manager and location from a date."""

    id: Annotated[str, IdOf("hr.job_info")]
    employee_id: EmployeeId
    """The employee."""
    effective_date: Date
    """When this job information takes effect."""
    job_title: JobTitle
    """Job title."""
    department_id: DepartmentId
    """Department."""
    manager_id: EmployeeId | None = None
    """Reports-to."""
    location: City
    """Office city."""
    created_at: Annotated[DateTime, CREATED]
    """When the row was entered."""


# -- helpers -------------------------------------------------------------------------------


def _workdays(start: dt.date, end: dt.date) -> int:
    days = (end - start).days + 1
    full, rest = divmod(days, 7)
    count = full * 5
    for k in range(rest):
        if (start + dt.timedelta(days=full * 7 + k)).weekday() < 5:
            count += 1
    return count


def _name(emp: Employee) -> str:
    return f"{emp.first_name} {emp.last_name}"


def _active(emp: Employee, field: str, action: str) -> None:
    if emp.status == "terminated":
        raise RuleViolation(
            f"employee {emp.id} ({_name(emp)}) was terminated on {emp.termination_date} and cannot {action}",
            field=field,
            hint="only current employees can do this; check the status with hr__get_employee",
        )


def _pending_days(ctx: Ctx, employee_id: str, policy_id: str, exclude: str | None = None) -> int:
    return sum(
        r.days
        for r in ctx.where(TimeOffRequest, employee_id=employee_id, policy_id=policy_id)
        if r.status == "pending" and r.id != exclude
    )


def _balance(ctx: Ctx, employee_id: str, policy_id: str) -> TimeOffBalance | None:
    return ctx.first(TimeOffBalance, employee_id=employee_id, policy_id=policy_id)


def _check_manager(ctx: Ctx, employee_id: str | None, manager_id: str) -> Employee:
    """Refuse a manager who has left, is the employee, or reports (indirectly) to the employee."""
    manager = ctx.get(Employee, manager_id, field="manager_id")
    if manager.status == "terminated":
        raise RuleViolation(
            f"{_name(manager)} ({manager.id}) has left the company and cannot manage anyone",
            field="manager_id",
            hint="pick a current employee as manager",
        )
    if manager.id == employee_id:
        raise RuleViolation(
            "an employee cannot be their own manager", field="manager_id", hint="pick someone else as manager"
        )
    seen: set[str] = set()
    current = manager
    while current.manager_id is not None and current.manager_id not in seen:
        if current.manager_id == employee_id:
            raise RuleViolation(
                f"{_name(manager)} reports (indirectly) to this employee; the reporting line would loop",
                field="manager_id",
                hint="pick a manager outside the employee's own reporting chain",
            )
        seen.add(current.id)
        nxt = ctx.find(Employee, current.manager_id)
        if nxt is None:
            break
        current = nxt
    return manager


def _check_decider(ctx: Ctx, request: TimeOffRequest, approver_id: str) -> Employee:
    """Only the employee's manager (or the People team, for someone without one) decides a request."""
    employee = ctx.get(Employee, request.employee_id, field="request_id")
    approver = ctx.get(Employee, approver_id, field="approver_id")
    if approver.id == employee.id:
        raise RuleViolation(
            "an employee cannot decide on their own time-off request",
            field="approver_id",
            hint="the request goes to the employee's manager (manager_id on hr__get_employee)",
        )
    _active(approver, "approver_id", "decide on time-off requests")
    if employee.manager_id is not None:
        if approver.id != employee.manager_id:
            manager = ctx.find(Employee, employee.manager_id)
            who = f"{_name(manager)} ({manager.id})" if manager else employee.manager_id
            raise RuleViolation(
                f"only {_name(employee)}'s manager {who} can decide on this request",
                field="approver_id",
                hint=f"call again with approver_id {employee.manager_id}",
            )
    else:
        dept = ctx.find(Department, approver.department_id)
        if dept is None or not dept.people_ops:
            raise RuleViolation(
                f"{_name(employee)} has no manager, so only a member of the People team can decide",
                field="approver_id",
                hint="find the People team with hr__list_departments (people_ops true) and use one of its members",
            )
    return approver


def _pending(ctx: Ctx, request_id: str) -> TimeOffRequest:
    req = ctx.get(TimeOffRequest, request_id, field="request_id")
    if req.status != "pending":
        raise RuleViolation(
            f"request {req.id} is {req.status}, not pending",
            field="request_id",
            hint="only pending requests can be approved or denied",
        )
    return req


def _latest(rows: list[Any]) -> Any:
    return max(rows, key=lambda r: (r.effective_date, r.id)) if rows else None


def _check_effective(ctx: Ctx, emp: Employee, when: dt.date, rows: list[Any], what: str) -> None:
    if when < emp.hire_date:
        raise RuleViolation(
            f"{when} is before {_name(emp)}'s hire date {emp.hire_date}",
            field="effective_date",
            hint="use a date on or after the hire date",
        )
    last = _latest(rows)
    if last is not None and when < last.effective_date:
        raise RuleViolation(
            f"a newer {what} entry takes effect on {last.effective_date}",
            field="effective_date",
            hint=f"history rows are dated in order; use a date on or after {last.effective_date}",
        )
    if when > ctx.today() + dt.timedelta(days=365):
        raise RuleViolation(
            "changes can be scheduled at most one year ahead",
            field="effective_date",
            hint="enter the change closer to the date",
        )


def _restore_days(ctx: Ctx, req: TimeOffRequest) -> None:
    bal = _balance(ctx, req.employee_id, req.policy_id)
    if bal is not None:
        ctx.update(bal, used_days=max(0, bal.used_days - req.days))


# -- guards on the standard tools ---------------------------------------------------------


def _guard_department_delete(ctx: Ctx, new: Any, old: Any) -> None:
    staff = [e for e in ctx.where(Employee, department_id=old.id) if e.status != "terminated"]
    if staff:
        raise RuleViolation(
            f"department {old.name} still has {len(staff)} employee(s)",
            field="department_id",
            hint="move them to another department with hr__change_job first",
        )


def _guard_department_write(ctx: Ctx, new: Any, old: Any) -> None:
    other = next((d for d in ctx.where(Department, name=new.name) if d.id != new.id), None)
    if other is not None:
        raise Conflict(
            f"a department named {new.name} already exists ({other.id})",
            field="name",
            hint="use the existing department or choose another name",
        )


departments = service.resource(
    Department,
    name="department",
    plural="departments",
    prefix="dept",
    filters=("code", "name", "people_ops"),
    search=("name", "code"),
    update=("name", "code", "cost_center"),
    unique=("code",),
    guard_create=_guard_department_write,
    guard_update=_guard_department_write,
    guard_delete=_guard_department_delete,
)
employees = service.resource(
    Employee,
    name="employee",
    plural="employees",
    prefix="emp",
    create=False,
    filters=("department_id", "manager_id", "status", "employment_type", "work_email", "job_title", "location"),
    search=("first_name", "last_name", "work_email", "job_title"),
    update=("first_name", "last_name", "work_phone", "home_address", "birth_date"),
    delete=False,
    unique=("work_email",),
)
policies = service.resource(
    TimeOffPolicy,
    name="time_off_policy",
    plural="time_off_policies",
    prefix="pol",
    filters=("kind", "active", "requires_approval"),
    search=("name",),
    update=("name", "annual_days", "requires_approval", "carryover_days", "active"),
    delete=False,
    unique=("name",),
    title="time-off policy",
)
balances = service.resource(
    TimeOffBalance,
    name="time_off_balance",
    plural="time_off_balances",
    prefix="bal",
    create=False,
    filters=("employee_id", "policy_id"),
    delete=False,
    title="time-off balance",
)
requests = service.resource(
    TimeOffRequest,
    name="time_off_request",
    plural="time_off_requests",
    prefix="tor",
    create=False,
    filters=("employee_id", "policy_id", "status", "approver_id"),
    search=("note",),
    delete=False,
    title="time-off request",
)
compensations = service.resource(
    Compensation,
    name="compensation",
    plural="compensations",
    prefix="comp",
    create=False,
    filters=("employee_id", "reason", "pay_type"),
    delete=False,
    title="compensation entry",
)
job_infos = service.resource(
    JobInfo,
    name="job_info",
    plural="job_infos",
    prefix="job",
    create=False,
    filters=("employee_id", "department_id", "manager_id"),
    delete=False,
    title="job information entry",
)


# -- results -------------------------------------------------------------------------------


class Hire(BaseModel):
    """Everything a hire created."""

    employee: Employee = Field(description="The new employee.")
    job_info: JobInfo = Field(description="Their first job information row.")
    compensation: Compensation = Field(description="Their starting pay.")
    balances: list[TimeOffBalance] = Field(description="Balances of the active standard policies assigned to them.")


class JobChange(BaseModel):
    """A job change: the new history row and the updated employee."""

    employee: Employee = Field(description="The employee as updated.")
    job_info: JobInfo = Field(description="The new job information row.")


class Termination(BaseModel):
    """A termination and the time off it called off."""

    employee: Employee = Field(description="The employee as terminated.")
    cancelled_requests: list[TimeOffRequest] = Field(description="Pending or future requests that were cancelled.")


class BalanceSummary(BaseModel):
    """Where an employee stands under one policy."""

    balance_id: BalanceId = Field(description="The balance.")
    policy_id: PolicyId = Field(description="The policy.")
    policy_name: str = Field(description="The policy's name.")
    entitlement_days: Quantity = Field(description="Days granted this year.")
    used_days: Quantity = Field(description="Days of approved requests.")
    pending_days: Quantity = Field(description="Days of requests awaiting a decision.")
    available_days: int = Field(description="Days that can still be requested: entitlement - used - pending.")


class Absence(BaseModel):
    """One approved absence in the who's-out report."""

    employee_id: EmployeeId = Field(description="The absent employee.")
    name: PersonName = Field(description="Their name.")
    work_email: Email = Field(description="Their work e-mail.")
    request_id: RequestId = Field(description="The approved request.")
    kind: PolicyKind = Field(description="Kind of leave.")
    start: Date = Field(description="First day off.")
    end: Date = Field(description="Last day off.")


# -- examples ------------------------------------------------------------------------------


def _active_employees(ctx: Ctx) -> list[Employee]:
    return ctx.where(Employee, status="active")


def _free_weekday(ctx: Ctx, employee_id: str, offset_days: int) -> dt.date:
    taken = [r for r in ctx.where(TimeOffRequest, employee_id=employee_id) if r.status in ("pending", "approved")]
    day = ctx.today() + dt.timedelta(days=offset_days)
    while day.weekday() >= 5 or any(r.start <= day <= r.end for r in taken):
        day += dt.timedelta(days=1)
    return day


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    vacation = ctx.first(TimeOffPolicy, kind="vacation", active=True)
    if vacation is None:
        return None
    for emp in _active_employees(ctx):
        bal = _balance(ctx, emp.id, vacation.id)
        if bal and bal.entitlement_days - bal.used_days - _pending_days(ctx, emp.id, vacation.id) >= 1:
            day = _free_weekday(ctx, emp.id, 160)
            return {"employee_id": emp.id, "policy_id": vacation.id, "start": str(day), "end": str(day)}
    return None


def _decidable(ctx: Ctx) -> tuple[TimeOffRequest, str] | None:
    for req in ctx.where(TimeOffRequest, status="pending"):
        emp = ctx.get(Employee, req.employee_id)
        bal = _balance(ctx, req.employee_id, req.policy_id)
        if emp.manager_id is None or bal is None or bal.used_days + req.days > bal.entitlement_days:
            continue
        manager = ctx.get(Employee, emp.manager_id)
        if manager.status != "terminated":
            return req, manager.id
    return None


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    found = _decidable(ctx)
    return None if found is None else {"request_id": found[0].id, "approver_id": found[1]}


def _example_deny(ctx: Ctx) -> dict[str, Any] | None:
    found = _decidable(ctx)
    if found is None:
        return None
    return {"request_id": found[0].id, "approver_id": found[1], "note": "Team is short-staffed that week"}


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for policy in ctx.where(TimeOffPolicy, active=True):
        for emp in _active_employees(ctx):
            if _balance(ctx, emp.id, policy.id) is None:
                return {"employee_id": emp.id, "policy_id": policy.id}
    return None


def _with_manager(ctx: Ctx) -> Employee | None:
    return next((e for e in _active_employees(ctx) if e.manager_id is not None), None)


def _example_change_job(ctx: Ctx) -> dict[str, Any] | None:
    emp = _with_manager(ctx)
    if emp is None:
        return None
    return {"employee_id": emp.id, "effective_date": str(ctx.today()), "job_title": f"Senior {emp.job_title}"[:120]}


def _example_change_pay(ctx: Ctx) -> dict[str, Any] | None:
    emp = _with_manager(ctx)
    if emp is None:
        return None
    current = _latest(ctx.where(Compensation, employee_id=emp.id))
    rate = current.pay_rate * 105 // 100 if current else 5_000_000
    return {"employee_id": emp.id, "pay_rate": rate, "effective_date": str(ctx.today()), "reason": "merit_increase"}


def _example_terminate(ctx: Ctx) -> dict[str, Any] | None:
    for emp in _active_employees(ctx):
        if ctx.first(Employee, manager_id=emp.id) is None:
            return {"employee_id": emp.id, "termination_date": str(ctx.today()), "reason": "resignation"}
    return None


def _example_hire(ctx: Ctx) -> dict[str, Any] | None:
    dept = next(ctx.scan(Department), None)
    manager = _with_manager(ctx)
    if dept is None or manager is None:
        return None
    domain = ctx.population.home.domain
    n = 1
    while ctx.first(Employee, work_email=f"new.hire{n}@{domain}") is not None:
        n += 1
    return {
        "first_name": "Robin",
        "last_name": "Hale",
        "work_email": f"new.hire{n}@{domain}",
        "department_id": dept.id,
        "job_title": "Software Engineer",
        "hire_date": str(ctx.today() + dt.timedelta(days=14)),
        "location": manager.location,
        "pay_rate": 6_500_000,
        "manager_id": manager.id,
    }


def _example_whos_out(ctx: Ctx) -> dict[str, Any]:
    return {"start": str(ctx.today()), "end": str(ctx.today() + dt.timedelta(days=14))}


# -- domain tools: people ------------------------------------------------------------------


@service.tool(intent="hire a new employee", write=True, example=_example_hire)
def hire_employee(
    ctx: Ctx,
    first_name: FirstName,
    last_name: LastName,
    work_email: Email,
    department_id: DepartmentId,
    job_title: JobTitle,
    hire_date: Date,
    location: City,
    pay_rate: Cents,
    manager_id: EmployeeId | None = None,
    pay_type: PayType = "salary",
    employment_type: EmploymentType = "full_time",
    work_phone: Phone | None = None,
) -> Hire:
    """Add a new employee with their first job row, starting pay and the standard time-off balances.

    The work e-mail must be on the company's domain and not taken; the manager
    must be a current employee. Balances of every active policy other than
    parental leave are created, prorated by the months left in the hire year.

    Args:
        first_name: Given name.
        last_name: Family name.
        work_email: Work e-mail address on the company's domain.
        department_id: The department they join.
        job_title: Their job title.
        hire_date: First day of employment (at most one year ahead).
        location: Office city they work from.
        pay_rate: Starting pay in minor units per year (salary) or per hour (hourly).
        manager_id: Who they report to.
        pay_type: 'salary' or 'hourly'.
        employment_type: Kind of contract.
        work_phone: Work phone number.
    """
    domain = ctx.population.home.domain
    if not work_email.endswith(f"@{domain}"):
        raise RuleViolation(
            f"work e-mail {work_email} is not on the company domain {domain}",
            field="work_email",
            hint=f"use an address ending in @{domain}",
        )
    if hire_date > ctx.today() + dt.timedelta(days=365):
        raise RuleViolation(
            "a hire can be entered at most one year ahead", field="hire_date", hint="enter the hire closer to the date"
        )
    if pay_rate == 0:
        raise RuleViolation("the starting pay cannot be 0", field="pay_rate", hint="give the pay in minor units")
    if manager_id is not None:
        _check_manager(ctx, None, manager_id)
    emp = ctx.create(
        Employee,
        first_name=first_name,
        last_name=last_name,
        work_email=work_email,
        work_phone=work_phone,
        hire_date=hire_date,
        department_id=department_id,
        job_title=job_title,
        manager_id=manager_id,
        location=location,
        employment_type=employment_type,
    )
    job = ctx.create(
        JobInfo,
        employee_id=emp.id,
        effective_date=hire_date,
        job_title=job_title,
        department_id=department_id,
        manager_id=manager_id,
        location=location,
    )
    pay = ctx.create(
        Compensation,
        employee_id=emp.id,
        effective_date=hire_date,
        pay_rate=pay_rate,
        currency=ctx.population.home.place.currency,
        pay_type=pay_type,
        reason="new_hire",
    )
    months = 12 - hire_date.month + 1 if hire_date.year == ctx.today().year else 12
    made = [
        ctx.create(TimeOffBalance, employee_id=emp.id, policy_id=p.id, entitlement_days=p.annual_days * months // 12)
        for p in ctx.where(TimeOffPolicy, active=True)
        if p.kind != "parental"
    ]
    return Hire(employee=emp, job_info=job, compensation=pay, balances=made)


@service.tool(intent="change the employee's job, department or manager", write=True, example=_example_change_job)
def change_job(
    ctx: Ctx,
    employee_id: EmployeeId,
    effective_date: Date,
    job_title: JobTitle | None = None,
    department_id: DepartmentId | None = None,
    manager_id: EmployeeId | None = None,
    location: City | None = None,
) -> JobChange:
    """Record a promotion, transfer or new reporting line as a dated job row and apply it to the employee.

    The date cannot precede the hire date or the latest job row; a manager
    must be a current employee outside the employee's own reporting chain.

    Args:
        employee_id: The employee.
        effective_date: When the change takes effect.
        job_title: New job title; omit to keep.
        department_id: New department; omit to keep.
        manager_id: New manager; omit to keep.
        location: New office city; omit to keep.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    _active(emp, "employee_id", "change jobs")
    changes: dict[str, Any] = {
        k: v
        for k, v in {
            "job_title": job_title,
            "department_id": department_id,
            "manager_id": manager_id,
            "location": location,
        }.items()
        if v is not None and v != getattr(emp, k)
    }
    if not changes:
        raise RuleViolation(
            "nothing changes", hint="pass at least one of job_title, department_id, manager_id or location that differs"
        )
    _check_effective(ctx, emp, effective_date, ctx.where(JobInfo, employee_id=emp.id), "job information")
    if "manager_id" in changes:
        _check_manager(ctx, emp.id, changes["manager_id"])
    updated = ctx.update(emp, **changes)
    job = ctx.create(
        JobInfo,
        employee_id=emp.id,
        effective_date=effective_date,
        job_title=updated.job_title,
        department_id=updated.department_id,
        manager_id=updated.manager_id,
        location=updated.location,
    )
    return JobChange(employee=updated, job_info=job)


@service.tool(intent="change the employee's pay", write=True, example=_example_change_pay)
def change_compensation(
    ctx: Ctx,
    employee_id: EmployeeId,
    pay_rate: Cents,
    effective_date: Date,
    reason: PayReason,
    pay_type: PayType | None = None,
    comment: Text = "",
) -> Compensation:
    """Add a dated pay row for an employee (raise, adjustment or correction).

    A promotion or merit increase must raise the pay; the rate must differ
    from the current one; the date cannot precede the latest pay row.

    Args:
        employee_id: The employee.
        pay_rate: New pay in minor units per year (salary) or per hour (hourly).
        effective_date: When the new pay takes effect.
        reason: Why the pay changes (not new_hire).
        pay_type: New pay type; omit to keep the current one.
        comment: Free-text comment.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    _active(emp, "employee_id", "get a pay change")
    if reason == "new_hire":
        raise RuleViolation(
            "new_hire is only for the starting pay", field="reason", hint="use hr__hire_employee for new employees"
        )
    rows = ctx.where(Compensation, employee_id=emp.id)
    current: Compensation | None = _latest(rows)
    _check_effective(ctx, emp, effective_date, rows, "compensation")
    kind = pay_type or (current.pay_type if current else "salary")
    if pay_rate == 0:
        raise RuleViolation("pay cannot be 0", field="pay_rate", hint="use hr__terminate_employee to end employment")
    if current is not None and kind == current.pay_type:
        if pay_rate == current.pay_rate:
            raise RuleViolation(
                f"the pay is already {current.pay_rate} {current.currency}",
                field="pay_rate",
                hint="give a different pay rate",
            )
        if reason in ("promotion", "merit_increase") and pay_rate < current.pay_rate:
            raise RuleViolation(
                f"a {reason.replace('_', ' ')} cannot lower the pay from {current.pay_rate}",
                field="reason",
                hint="use reason market_adjustment or correction for a decrease",
            )
    return ctx.create(
        Compensation,
        employee_id=emp.id,
        effective_date=effective_date,
        pay_rate=pay_rate,
        currency=current.currency if current else ctx.population.home.place.currency,
        pay_type=kind,
        reason=reason,
        comment=comment,
    )


@service.tool(intent="terminate the employee", write=True, destructive=True, example=_example_terminate)
def terminate_employee(
    ctx: Ctx, employee_id: EmployeeId, termination_date: Date, reason: TerminationReason, note: Text = ""
) -> Termination:
    """End an employee's employment.

    Their direct reports must first be moved to another manager. Pending
    requests and approved time off after the last day are cancelled and the
    days given back.

    Args:
        employee_id: The employee.
        termination_date: Last day of employment (not before the hire date).
        reason: Why they leave.
        note: Free-text note kept on the cancelled requests.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    if emp.status == "terminated":
        raise RuleViolation(
            f"employee {emp.id} was already terminated on {emp.termination_date}",
            field="employee_id",
            hint="nothing to do",
        )
    if termination_date < emp.hire_date:
        raise RuleViolation(
            f"{termination_date} is before the hire date {emp.hire_date}",
            field="termination_date",
            hint="use a date on or after the hire date",
        )
    reports = [e for e in ctx.where(Employee, manager_id=emp.id) if e.status != "terminated"]
    if reports:
        raise RuleViolation(
            f"{_name(emp)} still manages {len(reports)} employee(s), e.g. {reports[0].id}",
            field="employee_id",
            hint="move their reports to another manager with hr__change_job first",
        )
    cancelled = []
    for req in ctx.where(TimeOffRequest, employee_id=emp.id):
        if req.status == "pending" or (req.status == "approved" and req.end > termination_date):
            if req.status == "approved":
                _restore_days(ctx, req)
            cancelled.append(
                ctx.update(
                    req,
                    status="cancelled",
                    decision_note=note or "Cancelled on termination",
                    decided_at=ctx.now(),
                )
            )
    updated = ctx.update(emp, status="terminated", termination_date=termination_date, termination_reason=reason)
    return Termination(employee=updated, cancelled_requests=cancelled)


# -- domain tools: time off ----------------------------------------------------------------


@service.tool(intent="give the employee a time-off policy", write=True, example=_example_assign)
def assign_time_off_policy(ctx: Ctx, employee_id: EmployeeId, policy_id: PolicyId) -> TimeOffBalance:
    """Put an employee on a time-off policy, creating their balance for this year.

    The entitlement is the policy's annual days prorated by the months left in
    the year, this month included.

    Args:
        employee_id: The employee.
        policy_id: The policy.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    _active(emp, "employee_id", "be put on a policy")
    policy = ctx.get(TimeOffPolicy, policy_id, field="policy_id")
    if not policy.active:
        raise RuleViolation(
            f"policy {policy.name} is retired", field="policy_id", hint="pick an active policy (active true)"
        )
    existing = _balance(ctx, emp.id, policy.id)
    if existing is not None:
        raise Conflict(
            f"{_name(emp)} is already on policy {policy.name} (balance {existing.id})",
            field="policy_id",
            hint="adjust the existing balance with hr__adjust_time_off_balance instead",
        )
    months = 12 - ctx.today().month + 1
    return ctx.create(
        TimeOffBalance, employee_id=emp.id, policy_id=policy.id, entitlement_days=policy.annual_days * months // 12
    )


@service.tool(
    intent="adjust the employee's time-off balance",
    write=True,
    example=first_example(TimeOffBalance, "balance_id", days=2, note="Overtime compensation"),
)
def adjust_time_off_balance(ctx: Ctx, balance_id: BalanceId, days: int, note: Text) -> TimeOffBalance:
    """Add days to (positive) or remove days from (negative) a balance's entitlement.

    The entitlement cannot drop below the days already used or awaiting a
    decision.

    Args:
        balance_id: The balance.
        days: Days to add (positive) or remove (negative), between -365 and 365, not 0.
        note: Why the balance is adjusted.
    """
    bal = ctx.get(TimeOffBalance, balance_id, field="balance_id")
    if days == 0 or not -365 <= days <= 365:
        raise RuleViolation(
            "days must be a non-zero number between -365 and 365",
            field="days",
            hint="positive adds days, negative removes them",
        )
    if not note.strip():
        raise RuleViolation("an adjustment needs a note", field="note", hint="say why the balance changes")
    committed = bal.used_days + _pending_days(ctx, bal.employee_id, bal.policy_id)
    if bal.entitlement_days + days < committed:
        raise RuleViolation(
            f"the entitlement would be {bal.entitlement_days + days} days but {committed} are used or pending",
            field="days",
            hint=f"remove at most {bal.entitlement_days - committed} days",
        )
    return ctx.update(bal, entitlement_days=bal.entitlement_days + days)


@service.tool(intent="request time off", write=True, example=_example_request)
def request_time_off(
    ctx: Ctx, employee_id: EmployeeId, policy_id: PolicyId, start: Date, end: Date, note: Text = ""
) -> TimeOffRequest:
    """Request time off for a range of dates; policies without approval are approved at once.

    The working days (Monday to Friday) in the range are counted against the
    employee's balance; they cannot exceed what remains after used and pending
    days. Ranges overlapping another pending or approved request are refused,
    and terminated employees cannot request time off.

    Args:
        employee_id: The employee taking time off.
        policy_id: The policy to take the days from.
        start: First day off.
        end: Last day off (inclusive); on or after start.
        note: A note for the manager.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    _active(emp, "employee_id", "request time off")
    if end < start:
        raise RuleViolation(
            f"the end {end} is before the start {start}", field="end", hint="give the last day off, on or after start"
        )
    if (end - start).days >= MAX_REQUEST_SPAN_DAYS:
        raise RuleViolation("a request covers at most a year", field="end", hint="split it into several requests")
    policy = ctx.get(TimeOffPolicy, policy_id, field="policy_id")
    if not policy.active:
        raise RuleViolation(f"policy {policy.name} is retired", field="policy_id", hint="pick an active policy")
    bal = _balance(ctx, emp.id, policy.id)
    if bal is None:
        raise RuleViolation(
            f"{_name(emp)} is not on policy {policy.name}",
            field="policy_id",
            hint="see their policies with hr__get_time_off_summary, or assign one with hr__assign_time_off_policy",
        )
    days = _workdays(start, end)
    if days == 0:
        raise RuleViolation(
            f"{start} to {end} contains no working day", field="start", hint="weekends need no time off"
        )
    for other in ctx.where(TimeOffRequest, employee_id=emp.id):
        if other.status in ("pending", "approved") and other.start <= end and start <= other.end:
            raise Conflict(
                f"overlaps request {other.id} ({other.status}, {other.start} to {other.end})",
                field="start",
                hint="choose other dates, or cancel that request with hr__cancel_time_off first",
            )
    available = bal.entitlement_days - bal.used_days - _pending_days(ctx, emp.id, policy.id)
    if days > available:
        raise RuleViolation(
            f"{days} working days requested but only {max(available, 0)} remain under {policy.name}",
            field="end",
            hint="shorten the request, use another policy, or ask HR to adjust the balance",
        )
    if policy.requires_approval:
        return ctx.create(
            TimeOffRequest, employee_id=emp.id, policy_id=policy.id, start=start, end=end, days=days, note=note
        )
    ctx.update(bal, used_days=bal.used_days + days)
    return ctx.create(
        TimeOffRequest,
        employee_id=emp.id,
        policy_id=policy.id,
        start=start,
        end=end,
        days=days,
        note=note,
        status="approved",
        decision_note="Approved automatically: the policy needs no approval",
        decided_at=ctx.now(),
    )


@service.tool(intent="approve the time-off request", write=True, example=_example_approve)
def approve_time_off(ctx: Ctx, request_id: RequestId, approver_id: EmployeeId, note: Text = "") -> TimeOffRequest:
    """Approve a pending request as the employee's manager; the days move to the balance's used days.

    Employees cannot approve their own requests; someone without a manager is
    approved by a member of the People team.

    Args:
        request_id: The pending request.
        approver_id: The employee approving; must be the requester's manager.
        note: A note to the employee.
    """
    req = _pending(ctx, request_id)
    _check_decider(ctx, req, approver_id)
    bal = _balance(ctx, req.employee_id, req.policy_id)
    if bal is None or bal.used_days + req.days > bal.entitlement_days:
        left = (bal.entitlement_days - bal.used_days) if bal else 0
        raise RuleViolation(
            f"approving would exceed the balance: {req.days} days requested, {max(left, 0)} left",
            field="request_id",
            hint="deny the request, or adjust the balance with hr__adjust_time_off_balance first",
        )
    ctx.update(bal, used_days=bal.used_days + req.days)
    return ctx.update(req, status="approved", approver_id=approver_id, decision_note=note, decided_at=ctx.now())


@service.tool(intent="deny the time-off request", write=True, example=_example_deny)
def deny_time_off(ctx: Ctx, request_id: RequestId, approver_id: EmployeeId, note: Text) -> TimeOffRequest:
    """Deny a pending request as the employee's manager, saying why.

    Args:
        request_id: The pending request.
        approver_id: The employee denying; must be the requester's manager.
        note: Why the request is denied (required).
    """
    req = _pending(ctx, request_id)
    _check_decider(ctx, req, approver_id)
    if not note.strip():
        raise RuleViolation("a denial needs a note", field="note", hint="tell the employee why")
    return ctx.update(req, status="denied", approver_id=approver_id, decision_note=note, decided_at=ctx.now())


@service.tool(
    intent="cancel the time-off request",
    write=True,
    example=first_example(TimeOffRequest, "request_id", where={"status": "pending"}, note="Plans changed"),
)
def cancel_time_off(ctx: Ctx, request_id: RequestId, note: Text = "") -> TimeOffRequest:
    """Cancel a pending request, or an approved one that has not started; approved days return to the balance.

    Args:
        request_id: The request.
        note: Why it is cancelled.
    """
    req = ctx.get(TimeOffRequest, request_id, field="request_id")
    if req.status not in ("pending", "approved"):
        raise RuleViolation(
            f"request {req.id} is already {req.status}", field="request_id", hint="only pending or approved requests"
        )
    if req.status == "approved" and req.start <= ctx.today():
        raise RuleViolation(
            f"the approved time off started on {req.start} and can no longer be cancelled",
            field="request_id",
            hint="ask HR to correct the balance with hr__adjust_time_off_balance",
        )
    if req.status == "approved":
        _restore_days(ctx, req)
    return ctx.update(req, status="cancelled", decision_note=note, decided_at=ctx.now())


@service.tool(
    intent="see the employee's time-off balances",
    example=first_example(Employee, "employee_id", where={"status": "active"}),
)
def get_time_off_summary(ctx: Ctx, employee_id: EmployeeId) -> list[BalanceSummary]:
    """Show an employee's balances under each of their policies, with pending and still-available days.

    Args:
        employee_id: The employee.
    """
    out = []
    for bal in ctx.where(TimeOffBalance, employee_id=employee_id):
        policy = ctx.get(TimeOffPolicy, bal.policy_id)
        pending = _pending_days(ctx, employee_id, bal.policy_id)
        out.append(
            BalanceSummary(
                balance_id=bal.id,
                policy_id=policy.id,
                policy_name=policy.name,
                entitlement_days=bal.entitlement_days,
                used_days=bal.used_days,
                pending_days=pending,
                available_days=bal.entitlement_days - bal.used_days - pending,
            )
        )
    return out


@service.tool(intent="see who is out of office", example=_example_whos_out)
def whos_out(ctx: Ctx, start: Date, end: Date, department_id: DepartmentId | None = None) -> list[Absence]:
    """List approved time off overlapping a date range (at most 92 days), by start date.

    Args:
        start: First day of the range.
        end: Last day of the range (inclusive).
        department_id: Only employees of this department.
    """
    if end < start:
        raise RuleViolation(
            f"the end {end} is before the start {start}", field="end", hint="give end on or after start"
        )
    if (end - start).days > MAX_REPORT_DAYS:
        raise RuleViolation(
            f"the range is longer than {MAX_REPORT_DAYS} days", field="end", hint="ask for a shorter range"
        )
    kinds = {p.id: p.kind for p in ctx.scan(TimeOffPolicy)}
    out = []
    for req in ctx.where(TimeOffRequest, status="approved"):
        if req.end < start or req.start > end:
            continue
        emp = ctx.find(Employee, req.employee_id)
        if emp is None or (department_id is not None and emp.department_id != department_id):
            continue
        out.append(
            Absence(
                employee_id=emp.id,
                name=_name(emp),
                work_email=emp.work_email,
                request_id=req.id,
                kind=kinds[req.policy_id],
                start=req.start,
                end=req.end,
            )
        )
    out.sort(key=lambda a: (a.start, a.employee_id))
    return out


# -- seed ----------------------------------------------------------------------------------

DEPARTMENT_CODES = {
    "Engineering": ("ENG", "CC-1100"),
    "Sales": ("SAL", "CC-1200"),
    "Support": ("SUP", "CC-1300"),
    "Finance": ("FIN", "CC-1400"),
    "People": ("PPL", "CC-1500"),
    "Operations": ("OPS", "CC-1600"),
    "Marketing": ("MKT", "CC-1700"),
}

NEW_DEPARTMENTS = (("Legal", "LGL", "CC-1800"), ("Research", "RND", "CC-1900"))

POLICIES: tuple[tuple[str, PolicyKind, int, bool, int, bool], ...] = (
    ("Vacation", "vacation", 25, True, 5, True),
    ("Sick leave", "sick", 12, False, 0, True),
    ("Personal days", "personal", 3, True, 0, True),
    ("Learning days", "learning", 5, True, 0, True),
    ("Parental leave", "parental", 70, True, 0, True),
    ("Floating holiday 2025", "personal", 1, True, 0, False),
)

BASE_SALARY = {
    "Engineering": 85_000,
    "Sales": 62_000,
    "Support": 48_000,
    "Finance": 66_000,
    "People": 58_000,
    "Operations": 55_000,
    "Marketing": 60_000,
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Departments, the home company's staff with reporting lines, pay and job history, policies and time off."""
    departments = _seed_departments(s)
    employees, on_leave = _seed_employees(s, departments)
    for p in s.population.employees:
        _seed_job_history(s, p, employees[p.key])
    policies = _seed_policies(s)
    people_ops = {d.id for d in departments.values() if d.people_ops}
    people_team = [e for e in employees.values() if e.department_id in people_ops and e.status == "active"]
    for p in s.population.employees:
        emp = employees[p.key]
        if emp.status != "terminated":
            _seed_time_off(s, emp, policies, people_team, on_leave=p.key == on_leave)


def _seed_departments(s: SeedContext) -> dict[str, Department]:
    """The staff's departments by name, and two new ones with nobody in them yet."""
    departments: dict[str, Department] = {}
    for name in sorted({department_of(p) for p in s.population.employees}):
        code, cc = DEPARTMENT_CODES.get(name, (name[:3].upper(), "CC-1900"))
        departments[name] = s.create(Department, name=name, code=code, cost_center=cc, people_ops=name == "People")
    for name, code, cc in NEW_DEPARTMENTS:
        if name not in departments:
            s.create(Department, name=name, code=code, cost_center=cc)
    return departments


def _seed_employees(s: SeedContext, departments: dict[str, Department]) -> tuple[dict[str, Employee], str | None]:
    """The staff, managers before their reports; three who are not heads have left, one is on leave.

    Returns:
        The employees by population key, and the key of the one on parental leave.
    """
    today = s.now.date()
    chart = org_chart(s.population.employees)
    rest = [p for p in s.population.employees if not chart.is_head(p)]
    leavers = {p.key for p in s.rng.sample(rest, min(3, len(rest)))}
    on_leave = next((p.key for p in rest if p.key not in leavers), None)
    order = [chart.top] + [h for h in chart.heads.values() if h.key != chart.top.key] + rest
    employees: dict[str, Employee] = {}
    for p in order:
        manager = chart.manager_of(p)
        hire = p.hire_date or today - dt.timedelta(days=365)
        leaving = p.key in leavers
        end = min(today - dt.timedelta(days=s.rng.randint(3, 40)), hire + dt.timedelta(days=400))
        employees[p.key] = s.create(
            Employee,
            first_name=p.first_name,
            last_name=p.last_name,
            work_email=p.email,
            work_phone=p.phone,
            home_address=p.address,
            birth_date=p.birth_date,
            hire_date=hire,
            department_id=departments[department_of(p)].id,
            job_title=p.job_title,
            manager_id=employees[manager.key].id if manager else None,
            location=p.place.city,
            employment_type="contractor" if s.rng.random() < 0.08 else "full_time",
            status="terminated" if leaving else "on_leave" if p.key == on_leave else "active",
            termination_date=max(end, hire) if leaving else None,
            termination_reason=s.rng.choice(("resignation", "contract_end", "dismissal")) if leaving else None,
        )
    return employees, on_leave


def _seed_job_history(s: SeedContext, p: Person, emp: Employee) -> None:
    """The employee's job on hiring, their starting salary and, for most, a raise a year later."""
    s.create(
        JobInfo,
        employee_id=emp.id,
        effective_date=emp.hire_date,
        job_title=emp.job_title,
        department_id=emp.department_id,
        manager_id=emp.manager_id,
        location=emp.location,
    )
    currency = s.population.home.place.currency
    base = BASE_SALARY.get(department_of(p), 55_000) + s.rng.randint(-6, 12) * 1000
    if is_lead(p):
        base += 20_000
    s.create(
        Compensation,
        employee_id=emp.id,
        effective_date=emp.hire_date,
        pay_rate=base * 100,
        currency=currency,
        pay_type="salary",
        reason="new_hire",
    )
    raise_date = emp.hire_date + dt.timedelta(days=365)
    if raise_date < s.now.date() and emp.status != "terminated" and s.rng.random() < 0.6:
        s.create(
            Compensation,
            employee_id=emp.id,
            effective_date=raise_date,
            pay_rate=base * 100 * s.rng.randint(103, 110) // 100,
            currency=currency,
            pay_type="salary",
            reason=s.rng.choice(("merit_increase", "merit_increase", "market_adjustment")),
            comment="Annual review",
        )


def _seed_policies(s: SeedContext) -> list[TimeOffPolicy]:
    return [
        s.create(TimeOffPolicy, name=n, kind=k, annual_days=d, requires_approval=a, carryover_days=c, active=act)
        for n, k, d, a, c, act in POLICIES
    ]


_LEAVE_LENGTHS = {"vacation": (1, 10), "sick": (1, 3), "personal": (1, 1), "learning": (1, 2), "parental": (20, 60)}
"""Shortest and longest seeded request of each kind of policy, in days."""


def _seed_time_off(
    s: SeedContext,
    emp: Employee,
    policies: Sequence[TimeOffPolicy],
    people_team: Sequence[Employee],
    *,
    on_leave: bool,
) -> None:
    """An employee's entitlements this year, up to three requests (and a parental leave), and their balances.

    Requests that would overlap an earlier one or overdraw the entitlement are
    left out; the manager decides (the People team for the top of the company).
    """
    rng = s.rng
    today = s.now.date()
    standard = [p for p in policies if p.active and p.kind != "parental"]
    parental = next(p for p in policies if p.kind == "parental")
    weights = (standard[0],) * 6 + (standard[1],) * 3 + (standard[2],) + (standard[3],)
    mine = list(standard) + ([parental] if on_leave else [])
    ent: dict[str, int] = {}
    for pol in mine:
        months = 12 - emp.hire_date.month + 1 if emp.hire_date.year == today.year else 12
        ent[pol.id] = pol.annual_days * months // 12 + (rng.randint(0, pol.carryover_days) if pol.carryover_days else 0)
    used = dict.fromkeys(ent, 0)
    pend = dict.fromkeys(ent, 0)
    taken: list[tuple[dt.date, dt.date]] = []
    if emp.manager_id is not None:
        decider = emp.manager_id
    else:
        decider = next((e.id for e in people_team if e.id != emp.id), emp.id)
    plans: list[tuple[TimeOffPolicy, dt.date, int]] = []
    if on_leave:
        plans.append((parental, today - dt.timedelta(days=rng.randint(10, 30)), 0))
    for _ in range(rng.randint(0, 3)):
        plans.append((rng.choice(weights), today + dt.timedelta(days=rng.randint(-55, 120)), 1))
    for pol, first, random_status in plans:
        while first.weekday() >= 5:
            first += dt.timedelta(days=1)
        lo, hi = _LEAVE_LENGTHS[pol.kind]
        last = first + dt.timedelta(days=rng.randint(lo, hi) - 1)
        days = _workdays(first, last)
        if any(a <= last and first <= b for a, b in taken):
            continue
        status: RequestStatus
        if not pol.requires_approval or not random_status:
            status = "approved"
        elif first <= today:
            status = rng.choice(("approved", "approved", "approved", "approved", "denied", "cancelled"))
        else:
            status = rng.choice(("pending", "pending", "pending", "approved", "approved", "denied", "cancelled"))
        if status in ("approved", "pending") and used[pol.id] + pend[pol.id] + days > ent[pol.id]:
            continue
        if status in ("approved", "pending"):
            taken.append((first, last))
            (used if status == "approved" else pend)[pol.id] += days
        created = min(
            utc_at(first, 9) - dt.timedelta(days=rng.randint(5, 30)),
            s.ago(hours=6),
        )
        s.create(
            TimeOffRequest,
            employee_id=emp.id,
            policy_id=pol.id,
            start=first,
            end=last,
            days=days,
            status=status,
            note=rng.choice(("", "Family trip", "Doctor's appointment", "Moving house", "Conference")),
            approver_id=decider if status in ("approved", "denied") and pol.requires_approval else None,
            decision_note="Busy release week" if status == "denied" else "",
            decided_at=created + dt.timedelta(hours=5) if status != "pending" else None,
            created_at=created,
        )
    for pol in mine:
        s.create(
            TimeOffBalance,
            employee_id=emp.id,
            policy_id=pol.id,
            entitlement_days=ent[pol.id],
            used_days=used[pol.id],
        )
