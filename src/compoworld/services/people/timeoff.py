"""Awayday Leave: leave types with monthly accrual, holiday calendars, blackout periods and leave requests.

Modeled on the Personio Absences API v1 (time-off types, absence periods with
half days, accrual-based balances) and the Timetastic API (leave types,
public-holiday calendars per office, lockout dates, approvers): a request's
length counts only the employee's own working days that are not public
holidays of their calendar (half days count 0.5); it may not overlap another
request, fall into a blackout period of the employee's department, or ask for
more than the balance has left where the leave type tracks a balance;
balances grow by a monthly accrual run that may run once per month; only the
employee's approver decides, and leave already taken cannot be cancelled.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Country, Date, DateTime, Email, IdOf, PersonName, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at
from compoworld.world.org import department_of, org_chart

__all__ = ["service"]

service = Service(
    "timeoff",
    title="Awayday Leave",
    category="hr",
    modeled_on="Personio Absences API v1 (time-off types, absence periods with half days, accrual balances) / "
    "Timetastic API (leave types, holiday calendars, lockout dates, approvers)",
    description="Leave management for the home company's staff: leave types that accrue monthly, public holiday "
    "calendars per country, department blackout periods, and leave requests measured in working days and "
    "decided by each employee's approver.",
)

EmployeeId = Annotated[str, IdOf("timeoff.employee")]
CalendarId = Annotated[str, IdOf("timeoff.holiday_calendar")]
HolidayId = Annotated[str, IdOf("timeoff.holiday")]
LeaveTypeId = Annotated[str, IdOf("timeoff.leave_type")]
BalanceId = Annotated[str, IdOf("timeoff.balance")]
RequestId = Annotated[str, IdOf("timeoff.leave_request")]
BlackoutId = Annotated[str, IdOf("timeoff.blackout")]
AccrualId = Annotated[str, IdOf("timeoff.accrual_run")]
Days = Annotated[float, Field(ge=0, le=1000, multiple_of=0.5)]
Weekday = Annotated[int, Field(ge=0, le=6)]
Month = Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$")]
RequestStatus = Literal["requested", "approved", "declined", "cancelled"]
OPEN: tuple[str, ...] = ("requested", "approved")
WEEKDAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MAX_SPAN_DAYS = 120


class HolidayCalendar(Record):
    """The public holidays observed by employees of one country."""

    id: CalendarId
    name: Title
    """Calendar name, e.g. Germany public holidays; unique."""
    country: Country
    """Country whose holidays it lists (a country may have regional calendars)."""


class Holiday(Record):
    """A public holiday on which nobody on the calendar works."""

    id: HolidayId
    calendar_id: CalendarId
    """The calendar."""
    date: Date
    """The day."""
    name: Title
    """Holiday name."""


class Employee(Record):
    """A person who takes leave: their working pattern, holiday calendar and approver."""

    id: EmployeeId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail address; unique."""
    department: Text = ""
    """Department, which blackout periods may target."""
    office: City
    """City of the employee's office."""
    holiday_calendar_id: CalendarId
    """The public holidays the employee observes."""
    working_days: list[Weekday] = Field(default_factory=lambda: [0, 1, 2, 3, 4], min_length=1, max_length=7)
    """Weekdays the employee works (0 = Monday ... 6 = Sunday); leave counts only these."""
    approver_email: Email | None = None
    """E-mail of the person who decides the employee's requests."""
    active: bool = True
    """Inactive employees (leavers) cannot request leave."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the record last changed."""


class LeaveType(Record):
    """A kind of leave and how its allowance builds up."""

    id: LeaveTypeId
    name: Title
    """Leave type name, e.g. Vacation; unique."""
    accrual_days_per_month: Days = 0
    """Days added to every balance of this type by each monthly accrual run."""
    max_carryover: Days = 0
    """Most unused days kept into a new year."""
    tracks_balance: bool = True
    """Whether requests are limited by a balance (false for unpaid leave)."""
    requires_approval: bool = True
    """Whether the approver must approve; otherwise requests are approved at once."""
    half_days_allowed: bool = True
    """Whether requests may start or end with half a day."""
    active: bool = True
    """Inactive types take no new requests."""


class Balance(Record):
    """One employee's allowance of one leave type this year, and what is taken and requested against it."""

    id: BalanceId
    employee_id: EmployeeId
    """The employee."""
    leave_type_id: LeaveTypeId
    """The leave type."""
    carried_over: Days = 0
    """Days carried over from last year."""
    accrued: Days = 0
    """Days accrued this year by the monthly runs."""
    adjustment: Annotated[float, Field(ge=-100, le=100, multiple_of=0.5)] = 0
    """Manual correction in days (may be negative)."""
    taken: Days = 0
    """Days of approved requests."""
    requested: Days = 0
    """Days of requests awaiting a decision."""
    available: Annotated[float, Field(ge=-1000, le=1000, multiple_of=0.5)] = 0
    """carried_over + accrued + adjustment - taken - requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the balance last changed."""


class LeaveRequest(Record):
    """A request for leave over a range of dates."""

    id: RequestId
    employee_id: EmployeeId
    """The employee."""
    leave_type_id: LeaveTypeId
    """The leave type."""
    start_date: Date
    """First day of leave."""
    end_date: Date
    """Last day of leave (inclusive)."""
    half_day_start: bool = False
    """Whether the first day is only an afternoon off."""
    half_day_end: bool = False
    """Whether the last day is only a morning off."""
    days: Days
    """Working days the request takes (holidays and non-working days excluded)."""
    status: RequestStatus = "requested"
    """requested, approved, declined or cancelled."""
    note: Text = ""
    """The employee's note."""
    decided_by: Email | None = None
    """Who approved or declined it."""
    decision_note: Text = ""
    """The approver's note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Blackout(Record):
    """A period in which leave cannot be requested (a release, a quarter-end close)."""

    id: BlackoutId
    name: Title
    """What is happening."""
    start_date: Date
    """First blocked day."""
    end_date: Date
    """Last blocked day (inclusive)."""
    department: Text = ""
    """Department it applies to; empty means everyone."""


class AccrualRun(Record):
    """One monthly accrual: days added to every active balance."""

    id: AccrualId
    month: Month
    """The month accrued, YYYY-MM; each month runs once."""
    employees: Quantity
    """Employees whose balances grew."""
    days_added: Annotated[float, Field(ge=0, multiple_of=0.5)]
    """Total days added over every employee (no per-person cap: a large company accrues thousands)."""
    created_at: Annotated[DateTime, CREATED]
    """When it ran."""


# -- rules ----------------------------------------------------------------------------------


def _dates(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=k) for k in range((end - start).days + 1)]


def _count_days(
    ctx: Ctx, emp: Employee, start: dt.date, end: dt.date, half_start: bool, half_end: bool
) -> tuple[float, int]:
    """(leave days, holidays skipped) for the employee over the range."""
    holidays = {h.date for h in ctx.where(Holiday, calendar_id=emp.holiday_calendar_id)}
    days = 0.0
    skipped = 0
    for d in _dates(start, end):
        if d.weekday() not in emp.working_days:
            continue
        if d in holidays:
            skipped += 1
            continue
        days += 1
        if (half_start and d == start) or (half_end and d == end):
            days -= 0.5
    return days, skipped


def _refresh(ctx: Ctx, employee_id: str, leave_type_id: str) -> Balance | None:
    bal = ctx.first(Balance, employee_id=employee_id, leave_type_id=leave_type_id)
    if bal is None:
        return None
    reqs = ctx.where(LeaveRequest, employee_id=employee_id, leave_type_id=leave_type_id)
    taken = sum(r.days for r in reqs if r.status == "approved")
    requested = sum(r.days for r in reqs if r.status == "requested")
    return ctx.update(
        bal,
        taken=taken,
        requested=requested,
        available=bal.carried_over + bal.accrued + bal.adjustment - taken - requested,
    )


def _check_span(start: dt.date, end: dt.date) -> None:
    if end < start:
        raise RuleViolation("the end date is before the start date", field="end_date", hint="swap the dates")
    if (end - start).days > MAX_SPAN_DAYS:
        raise RuleViolation(
            f"a request may span at most {MAX_SPAN_DAYS} days",
            field="end_date",
            hint="split long leave into several requests",
        )


def _guard_blackout(ctx: Ctx, new: Any, old: Any) -> None:
    _check_span(new.start_date, new.end_date)


def _guard_holiday(ctx: Ctx, new: Any, old: Any) -> None:
    if any(h.id != new.id for h in ctx.where(Holiday, calendar_id=new.calendar_id, date=new.date)):
        raise Conflict(
            f"the calendar already has a holiday on {new.date}",
            field="date",
            hint="list the calendar's holidays with timeoff__list_holidays",
        )


def _guard_leave_type(ctx: Ctx, new: Any, old: Any) -> None:
    if any(t.id != new.id and t.name.casefold() == new.name.casefold() for t in ctx.scan(LeaveType)):
        raise Conflict(f"a leave type named {new.name!r} exists already", field="name", hint="pick another name")
    if old is not None and old.tracks_balance != new.tracks_balance:
        raise RuleViolation(
            "whether a type tracks a balance cannot change",
            field="tracks_balance",
            hint="create a new leave type instead",
        )


def _guard_employee(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.working_days)) != len(new.working_days):
        raise RuleViolation("a weekday is listed twice", field="working_days", hint="list each weekday once")
    if new.approver_email is not None:
        if new.approver_email == new.email:
            raise RuleViolation(
                "an employee cannot approve their own leave",
                field="approver_email",
                hint="give the manager's e-mail",
            )
        approver = ctx.first(Employee, email=new.approver_email)
        if approver is None or not approver.active:
            raise RuleViolation(
                f"{new.approver_email} is not a current employee",
                field="approver_email",
                hint="pick an active employee's e-mail (timeoff__list_employees)",
            )


def _guard_holiday_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.date < ctx.today():
        raise RuleViolation(
            f"the holiday on {old.date} is in the past",
            field="holiday_id",
            hint="past holidays are kept because taken leave was counted around them",
        )


calendars = service.resource(
    HolidayCalendar,
    name="holiday_calendar",
    plural="holiday_calendars",
    prefix="hcal",
    get=False,
    filters=("country",),
    search=("name",),
    delete=False,
    unique=("name",),
)
holidays = service.resource(
    Holiday,
    name="holiday",
    plural="holidays",
    prefix="hol",
    get=False,
    filters=("calendar_id", "date"),
    search=("name",),
    guard_create=_guard_holiday,
    guard_delete=_guard_holiday_delete,
)
employees = service.resource(
    Employee,
    name="employee",
    plural="employees",
    prefix="temp",
    create=False,
    filters=("email", "approver_email", "holiday_calendar_id", "office", "active"),
    search=("name", "email", "department"),
    update=("working_days", "approver_email", "holiday_calendar_id"),
    delete=False,
    unique=("email",),
    guard_update=_guard_employee,
)
leave_types = service.resource(
    LeaveType,
    name="leave_type",
    plural="leave_types",
    prefix="lt",
    get=False,
    filters=("tracks_balance", "requires_approval", "active"),
    update=("name", "accrual_days_per_month", "max_carryover", "requires_approval", "active"),
    delete=False,
    guard_create=_guard_leave_type,
    guard_update=_guard_leave_type,
)
balances = service.resource(
    Balance,
    name="balance",
    plural="balances",
    prefix="bal",
    create=False,
    get=False,
    filters=("employee_id", "leave_type_id"),
    delete=False,
)
requests = service.resource(
    LeaveRequest,
    name="leave_request",
    plural="leave_requests",
    prefix="lr",
    create=False,
    filters=("employee_id", "leave_type_id", "status", "decided_by", "start_date"),
    search=("note",),
    delete=False,
)
blackouts = service.resource(
    Blackout,
    name="blackout",
    plural="blackouts",
    prefix="blk",
    get=False,
    filters=("department",),
    search=("name",),
    guard_create=_guard_blackout,
)
accruals = service.resource(
    AccrualRun,
    name="accrual_run",
    plural="accrual_runs",
    prefix="acr",
    create=False,
    get=False,
    filters=("month",),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _free_day(ctx: Ctx, emp: Employee, offset: int) -> dt.date | None:
    busy = [(r.start_date, r.end_date) for r in ctx.where(LeaveRequest, employee_id=emp.id) if r.status in OPEN]
    blocked = [(b.start_date, b.end_date) for b in ctx.scan(Blackout) if b.department in ("", emp.department)]
    holidays = {h.date for h in ctx.where(Holiday, calendar_id=emp.holiday_calendar_id)}
    d = ctx.today() + dt.timedelta(days=offset)
    for _ in range(60):
        free = all(not (a <= d <= b) for a, b in busy + blocked)
        if free and d.weekday() in emp.working_days and d not in holidays:
            return d
        d += dt.timedelta(days=1)
    return None


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    vacation = ctx.first(LeaveType, name="Vacation")
    if vacation is None:
        return None
    for emp in ctx.where(Employee, active=True):
        bal = ctx.first(Balance, employee_id=emp.id, leave_type_id=vacation.id)
        day = _free_day(ctx, emp, 21)
        if bal is not None and bal.available >= 1 and day is not None:
            return {
                "employee_id": emp.id,
                "leave_type_id": vacation.id,
                "start_date": day.isoformat(),
                "end_date": day.isoformat(),
                "note": "Family visit",
            }
    return None


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(LeaveRequest, status="requested"):
        emp = ctx.get(Employee, req.employee_id)
        if emp.approver_email:
            return {"leave_request_id": req.id, "approver_email": emp.approver_email, "note": "Enjoy"}
    return None


def _example_accrual(ctx: Ctx) -> dict[str, Any] | None:
    return {"month": ctx.today().strftime("%Y-%m")}


def _example_count(ctx: Ctx) -> dict[str, Any] | None:
    emp = ctx.first(Employee, active=True)
    if emp is None:
        return None
    start = ctx.today() + dt.timedelta(days=7)
    return {
        "employee_id": emp.id,
        "start_date": start.isoformat(),
        "end_date": (start + dt.timedelta(days=9)).isoformat(),
    }


# -- domain tools ---------------------------------------------------------------------------


@service.tool(intent="request leave", write=True, example=_example_request)
def request_leave(
    ctx: Ctx,
    employee_id: EmployeeId,
    leave_type_id: LeaveTypeId,
    start_date: Date,
    end_date: Date,
    half_day_start: bool = False,
    half_day_end: bool = False,
    note: Text = "",
) -> LeaveRequest:
    """Request leave over a range of dates; types without approval are approved at once.

    The request takes the employee's working days in the range that are not
    public holidays of their calendar (a half day counts 0.5). It may not
    overlap another open request, fall into a blackout period of the
    employee's department, or take more than the balance has left.

    Args:
        employee_id: The employee taking leave.
        leave_type_id: The leave type.
        start_date: First day of leave.
        end_date: Last day of leave (inclusive).
        half_day_start: Whether the first day is only an afternoon off.
        half_day_end: Whether the last day is only a morning off.
        note: A note for the approver.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    ltype = ctx.get(LeaveType, leave_type_id, field="leave_type_id")
    if not emp.active:
        raise RuleViolation(
            f"{emp.name} is no longer active", field="employee_id", hint="only current staff take leave"
        )
    if not ltype.active:
        raise RuleViolation(f"leave type {ltype.name} is retired", field="leave_type_id", hint="pick an active type")
    _check_span(start_date, end_date)
    if (half_day_start or half_day_end) and not ltype.half_days_allowed:
        raise RuleViolation(
            f"{ltype.name} is taken in whole days",
            field="half_day_start" if half_day_start else "half_day_end",
            hint="request whole days",
        )
    if half_day_start and half_day_end and start_date == end_date:
        raise RuleViolation(
            "a one-day request cannot be both an afternoon and a morning",
            field="half_day_end",
            hint="set only half_day_start for a half day",
        )
    days, _ = _count_days(ctx, emp, start_date, end_date, half_day_start, half_day_end)
    if days == 0:
        raise RuleViolation(
            "the range has no working day of the employee",
            field="start_date",
            hint="non-working days and public holidays are already off; pick working days",
        )
    for other in ctx.where(LeaveRequest, employee_id=emp.id):
        if other.status in OPEN and other.start_date <= end_date and start_date <= other.end_date:
            raise Conflict(
                f"the range overlaps request {other.id} ({other.start_date} to {other.end_date}, {other.status})",
                field="start_date",
                hint="pick other dates or cancel the other request first",
            )
    for b in ctx.scan(Blackout):
        if b.department in ("", emp.department) and b.start_date <= end_date and start_date <= b.end_date:
            raise RuleViolation(
                f"leave is blocked from {b.start_date} to {b.end_date} ({b.name})",
                field="start_date",
                hint="pick dates outside the blackout period",
            )
    if ltype.tracks_balance:
        bal = ctx.first(Balance, employee_id=emp.id, leave_type_id=ltype.id)
        if bal is None:
            raise RuleViolation(
                f"{emp.name} has no {ltype.name} balance",
                field="leave_type_id",
                hint="pick a leave type the employee has a balance for (timeoff__get_balance_summary)",
            )
        if days > bal.available:
            raise RuleViolation(
                f"the request takes {days:g} day(s) but only {bal.available:g} {ltype.name} day(s) are available",
                field="end_date",
                hint="request fewer days or use another leave type such as unpaid leave",
            )
    auto = not ltype.requires_approval
    if not auto and emp.approver_email is None:
        raise RuleViolation(
            f"{emp.name} has no approver", field="employee_id", hint="set approver_email with timeoff__update_employee"
        )
    req = ctx.create(
        LeaveRequest,
        employee_id=emp.id,
        leave_type_id=ltype.id,
        start_date=start_date,
        end_date=end_date,
        half_day_start=half_day_start,
        half_day_end=half_day_end,
        days=days,
        status="approved" if auto else "requested",
        note=note,
    )
    _refresh(ctx, emp.id, ltype.id)
    return req


def _pending_for(ctx: Ctx, request_id: str, approver_email: str) -> tuple[LeaveRequest, Employee]:
    req = ctx.get(LeaveRequest, request_id, field="leave_request_id")
    if req.status != "requested":
        raise RuleViolation(
            f"request {req.id} is {req.status}, not awaiting a decision",
            field="leave_request_id",
            hint="only requested leave can be approved or declined",
        )
    emp = ctx.get(Employee, req.employee_id)
    if approver_email != emp.approver_email:
        raise RuleViolation(
            f"{approver_email} is not {emp.name}'s approver ({emp.approver_email})",
            field="approver_email",
            hint=f"the request is decided by {emp.approver_email}",
        )
    return req, emp


@service.tool(intent="approve the leave request", write=True, example=_example_decide)
def approve_request(ctx: Ctx, leave_request_id: RequestId, approver_email: Email, note: Text = "") -> LeaveRequest:
    """Approve a requested leave; only the employee's approver may.

    Args:
        leave_request_id: The request.
        approver_email: E-mail of the employee's approver.
        note: Optional note for the employee.
    """
    req, _ = _pending_for(ctx, leave_request_id, approver_email)
    new = ctx.update(req, status="approved", decided_by=approver_email, decision_note=note)
    _refresh(ctx, req.employee_id, req.leave_type_id)
    return new


@service.tool(intent="decline the leave request", write=True, example=_example_decide)
def decline_request(ctx: Ctx, leave_request_id: RequestId, approver_email: Email, note: Text) -> LeaveRequest:
    """Decline a requested leave with a reason; only the employee's approver may.

    Args:
        leave_request_id: The request.
        approver_email: E-mail of the employee's approver.
        note: Why it is declined.
    """
    req, _ = _pending_for(ctx, leave_request_id, approver_email)
    if not note.strip():
        raise RuleViolation("declining needs a reason", field="note", hint="tell the employee why")
    new = ctx.update(req, status="declined", decided_by=approver_email, decision_note=note.strip())
    _refresh(ctx, req.employee_id, req.leave_type_id)
    return new


@service.tool(
    intent="cancel the leave request",
    write=True,
    example=first_example(LeaveRequest, "leave_request_id", where={"status": "requested"}),
)
def cancel_request(ctx: Ctx, leave_request_id: RequestId) -> LeaveRequest:
    """Cancel a requested or approved leave that has not started; its days return to the balance.

    Args:
        leave_request_id: The request.
    """
    req = ctx.get(LeaveRequest, leave_request_id, field="leave_request_id")
    if req.status not in OPEN:
        raise RuleViolation(
            f"request {req.id} is {req.status}",
            field="leave_request_id",
            hint="only requested or approved leave can be cancelled",
        )
    if req.status == "approved" and req.start_date <= ctx.today():
        raise RuleViolation(
            f"the leave started on {req.start_date} and cannot be cancelled",
            field="leave_request_id",
            hint="leave already taken stays; correct the balance with timeoff__adjust_balance",
        )
    new = ctx.update(req, status="cancelled")
    _refresh(ctx, req.employee_id, req.leave_type_id)
    return new


@service.tool(
    intent="adjust the leave balance",
    write=True,
    example=first_example(Balance, "balance_id", days=1.0, reason="Overtime compensation"),
)
def adjust_balance(
    ctx: Ctx, balance_id: BalanceId, days: Annotated[float, Field(ge=-30, le=30, multiple_of=0.5)], reason: Text
) -> Balance:
    """Add days to (or, negative, take days from) a balance, for example for overtime or a correction.

    The balance may not fall below what is already taken and requested.

    Args:
        balance_id: The balance.
        days: Days to add, in half days; negative to take away.
        reason: Why the balance changes.
    """
    bal = ctx.get(Balance, balance_id, field="balance_id")
    if days == 0:
        raise RuleViolation("the adjustment is zero", field="days", hint="give a non-zero number of days")
    if not reason.strip():
        raise RuleViolation("an adjustment needs a reason", field="reason", hint="say why the balance changes")
    new_adjustment = bal.adjustment + days
    if abs(new_adjustment) > 100:
        raise RuleViolation("adjustments may total at most 100 days", field="days", hint="adjust by less")
    if bal.available + days < 0:
        raise RuleViolation(
            f"the balance has only {bal.available:g} day(s) left to take away",
            field="days",
            hint="cancel requests first or take away fewer days",
        )
    ctx.update(bal, adjustment=new_adjustment)
    out = _refresh(ctx, bal.employee_id, bal.leave_type_id)
    assert out is not None
    return out


@service.tool(intent="run the monthly leave accrual", write=True, example=_example_accrual)
def run_monthly_accrual(ctx: Ctx, month: Month) -> AccrualRun:
    """Add each accruing leave type's monthly days to the balances of every active employee.

    Each month accrues once, and not before it has begun.

    Args:
        month: The month to accrue, YYYY-MM.
    """
    if month > ctx.today().strftime("%Y-%m"):
        raise RuleViolation(f"{month} has not begun", field="month", hint="accrue the current or a past month")
    if ctx.first(AccrualRun, month=month) is not None:
        raise Conflict(f"{month} was already accrued", field="month", hint="list accrual runs to see the months done")
    rates = {t.id: t.accrual_days_per_month for t in ctx.where(LeaveType, active=True) if t.accrual_days_per_month}
    people = 0
    added = 0.0
    for emp in ctx.where(Employee, active=True):
        grew = False
        for bal in ctx.where(Balance, employee_id=emp.id):
            rate = rates.get(bal.leave_type_id)
            if rate:
                ctx.update(bal, accrued=bal.accrued + rate, available=bal.available + rate)
                added += rate
                grew = True
        people += grew
    return ctx.create(AccrualRun, month=month, employees=people, days_added=added)


class BalanceLine(BaseModel):
    """One leave type's balance of an employee."""

    balance_id: BalanceId = Field(description="The balance.")
    leave_type_id: LeaveTypeId = Field(description="The leave type.")
    leave_type: Title = Field(description="Leave type name.")
    available: float = Field(description="Days that can still be requested.")
    taken: float = Field(description="Days of approved leave.")
    requested: float = Field(description="Days awaiting a decision.")


class BalanceSummary(BaseModel):
    """An employee's leave balances."""

    employee_id: EmployeeId = Field(description="The employee.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work e-mail.")
    approver_email: Email | None = Field(description="Who decides their requests.")
    balances: list[BalanceLine] = Field(description="One line per leave type with a balance.")


@service.tool(
    intent="see the employee's leave balances", example=first_example(Employee, "employee_id", where={"active": True})
)
def get_balance_summary(ctx: Ctx, employee_id: EmployeeId) -> BalanceSummary:
    """List an employee's balances with the days available, taken and requested.

    Args:
        employee_id: The employee.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    lines = []
    for bal in ctx.where(Balance, employee_id=emp.id):
        ltype = ctx.get(LeaveType, bal.leave_type_id)
        lines.append(
            BalanceLine(
                balance_id=bal.id,
                leave_type_id=ltype.id,
                leave_type=ltype.name,
                available=bal.available,
                taken=bal.taken,
                requested=bal.requested,
            )
        )
    return BalanceSummary(
        employee_id=emp.id, name=emp.name, email=emp.email, approver_email=emp.approver_email, balances=lines
    )


class DayCount(BaseModel):
    """How many leave days a range of dates would take."""

    employee_id: EmployeeId = Field(description="The employee.")
    start_date: Date = Field(description="First day.")
    end_date: Date = Field(description="Last day.")
    days: float = Field(description="Working days the range takes.")
    holidays_skipped: int = Field(description="Public holidays on working days in the range, not counted.")


@service.tool(intent="count the leave days of a date range", example=_example_count)
def count_leave_days(
    ctx: Ctx,
    employee_id: EmployeeId,
    start_date: Date,
    end_date: Date,
    half_day_start: bool = False,
    half_day_end: bool = False,
) -> DayCount:
    """Count the working days a leave over the range would take for the employee, without requesting it.

    Args:
        employee_id: The employee.
        start_date: First day.
        end_date: Last day (inclusive).
        half_day_start: Whether the first day is only an afternoon off.
        half_day_end: Whether the last day is only a morning off.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    _check_span(start_date, end_date)
    days, skipped = _count_days(ctx, emp, start_date, end_date, half_day_start, half_day_end)
    return DayCount(
        employee_id=emp.id, start_date=start_date, end_date=end_date, days=max(0.0, days), holidays_skipped=skipped
    )


# -- seed -----------------------------------------------------------------------------------

HOLIDAYS: dict[str, tuple[tuple[str, str], ...]] = {
    "DE": (
        ("01-01", "New Year's Day"),
        ("04-03", "Good Friday"),
        ("04-06", "Easter Monday"),
        ("05-01", "Labour Day"),
        ("05-14", "Ascension Day"),
        ("10-03", "German Unity Day"),
        ("12-25", "Christmas Day"),
        ("12-26", "Second Day of Christmas"),
    ),
    "FR": (
        ("01-01", "New Year's Day"),
        ("04-06", "Easter Monday"),
        ("05-01", "Labour Day"),
        ("05-08", "Victory in Europe Day"),
        ("07-14", "Bastille Day"),
        ("12-25", "Christmas Day"),
    ),
    "GB": (
        ("01-01", "New Year's Day"),
        ("04-03", "Good Friday"),
        ("04-06", "Easter Monday"),
        ("05-04", "Early May bank holiday"),
        ("05-25", "Spring bank holiday"),
        ("12-25", "Christmas Day"),
    ),
    "US": (
        ("01-01", "New Year's Day"),
        ("01-19", "Martin Luther King Jr. Day"),
        ("05-25", "Memorial Day"),
        ("07-03", "Independence Day (observed)"),
        ("09-07", "Labor Day"),
        ("11-26", "Thanksgiving"),
        ("12-25", "Christmas Day"),
    ),
}
DEFAULT_HOLIDAYS = (
    ("01-01", "New Year's Day"),
    ("04-03", "Good Friday"),
    ("05-01", "Labour Day"),
    ("12-25", "Christmas Day"),
)
COUNTRY_NAMES = {
    "DE": "Germany",
    "FR": "France",
    "GB": "United Kingdom",
    "US": "United States",
    "ES": "Spain",
    "IT": "Italy",
    "NL": "Netherlands",
    "SE": "Sweden",
    "CA": "Canada",
    "JP": "Japan",
    "SG": "Singapore",
    "AU": "Australia",
    "BR": "Brazil",
}
_NOTES = ("Family trip", "Moving house", "Wedding", "", "Long weekend", "Visiting parents")
"""Notes on seeded leave requests, in turn."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Holiday calendars, leave types, the home staff with approvers, balances accrued for Jan-Feb, requests."""
    calendars = _seed_holiday_calendars(s)
    types = _seed_leave_types(s)
    _seed_blackouts(s)
    employees = _seed_employees(s, calendars)
    _seed_accrual_runs(s, employees)
    for i, emp in enumerate(employees):
        _seed_leave(s, i, emp, types, calendars[emp.holiday_calendar_id][1])


def _seed_holiday_calendars(s: SeedContext) -> dict[str, tuple[HolidayCalendar, set[dt.date]]]:
    """A public holiday calendar for each country staff work in, with this year's holidays.

    Returns:
        Each calendar with its holidays, by calendar id.
    """
    year = s.now.year
    calendars: dict[str, tuple[HolidayCalendar, set[dt.date]]] = {}
    for country in sorted({p.place.country for p in s.population.employees}):
        cal = s.create(HolidayCalendar, name=f"{COUNTRY_NAMES.get(country, country)} public holidays", country=country)
        days: set[dt.date] = set()
        for md, name in HOLIDAYS.get(country, DEFAULT_HOLIDAYS):
            day = dt.date.fromisoformat(f"{year}-{md}")
            s.create(Holiday, calendar_id=cal.id, date=day, name=name)
            days.add(day)
        calendars[cal.id] = (cal, days)
    return calendars


@dataclass(frozen=True, slots=True)
class _LeaveTypes:
    """The leave types staff have requested."""

    vacation: LeaveType
    sick: LeaveType
    unpaid: LeaveType


def _seed_leave_types(s: SeedContext) -> _LeaveTypes:
    """Accruing vacation and sick leave, unpaid leave, and a retired sabbatical."""
    vacation = s.create(LeaveType, name="Vacation", accrual_days_per_month=2.0, max_carryover=5)
    sick = s.create(LeaveType, name="Sick leave", accrual_days_per_month=1.0, requires_approval=False)
    unpaid = s.create(LeaveType, name="Unpaid leave", tracks_balance=False, half_days_allowed=False)
    s.create(LeaveType, name="Sabbatical", tracks_balance=False, half_days_allowed=False, active=False)
    return _LeaveTypes(vacation, sick, unpaid)


def _quarter_end(year: int) -> tuple[dt.date, dt.date]:
    """First and last day of Finance's quarter-end close, when Finance staff take no leave."""
    return dt.date(year, 3, 25), dt.date(year, 3, 31)


def _summit(year: int) -> tuple[dt.date, dt.date]:
    """First and last day of the company summit, when nobody takes leave."""
    return dt.date(year, 4, 14), dt.date(year, 4, 16)


def _seed_blackouts(s: SeedContext) -> None:
    close, summit = _quarter_end(s.now.year), _summit(s.now.year)
    s.create(Blackout, name="Quarter-end close", start_date=close[0], end_date=close[1], department="Finance")
    s.create(Blackout, name="Company summit", start_date=summit[0], end_date=summit[1])


def _seed_employees(s: SeedContext, calendars: dict[str, tuple[HolidayCalendar, set[dt.date]]]) -> list[Employee]:
    """The staff with HR's reporting lines as approvers; the top of the company is approved by People ops."""
    staff = s.population.employees
    chart = org_chart(staff)
    people_ops = next((p for p in staff if department_of(p) == "People" and p.key != chart.top.key), None)
    calendar_of = {cal.country: cal for cal, _ in calendars.values()}
    employees: list[Employee] = []
    for i, p in enumerate(staff):
        manager = chart.manager_of(p) if p.key != chart.top.key else people_ops
        employees.append(
            s.create(
                Employee,
                name=p.name,
                email=p.email,
                department=department_of(p),
                office=p.place.city,
                holiday_calendar_id=calendar_of[p.place.country].id,
                working_days=[0, 1, 2, 3] if i % 9 == 4 else [0, 1, 2, 3, 4],
                approver_email=manager.email if manager else None,
                active=i % 19 != 18,
            )
        )
    return employees


def _seed_accrual_runs(s: SeedContext, employees: Sequence[Employee]) -> None:
    """The monthly accruals run so far this year (January and February by the seed date)."""
    year = s.now.year
    active = sum(e.active for e in employees)
    for m in range(1, s.now.month):
        s.create(
            AccrualRun,
            month=f"{year}-{m:02d}",
            employees=active,
            days_added=3.0 * active,
            created_at=dt.datetime(year, m, 28, 2, 0, tzinfo=dt.UTC),
        )


def _seed_leave(s: SeedContext, i: int, emp: Employee, types: _LeaveTypes, holidays: set[dt.date]) -> None:
    """The ``i``-th employee's leave requests and their vacation and sick balances.

    Requests that would overlap an earlier one, fall in a blackout or overdraw
    the balance are left out.
    """
    today = s.now.date()
    months = today.month - 1  # the months accrued so far
    carried = float(min(5, i % 7)) if emp.active else 0.0
    vac = {"carried": carried, "accrued": 2.0 * months, "taken": 0.0, "requested": 0.0}
    sk = {"carried": 0.0, "accrued": 1.0 * months, "taken": 0.0, "requested": 0.0}
    busy: list[tuple[dt.date, dt.date]] = []
    close, summit = _quarter_end(today.year), _summit(today.year)
    for ltype, offset, length, status in _leave_plans(i, emp, types):
        start = today + dt.timedelta(days=offset)
        while start.weekday() not in emp.working_days or start in holidays:
            start += dt.timedelta(days=1)
        end = start + dt.timedelta(days=length - 1)
        days = float(sum(1 for d in _dates(start, end) if d.weekday() in emp.working_days and d not in holidays))
        if days == 0 or any(a <= end and start <= b for a, b in busy):
            continue
        if emp.department == "Finance" and start <= close[1] and end >= close[0]:
            continue
        if summit[0] <= end and start <= summit[1]:
            continue
        bucket = vac if ltype.id == types.vacation.id else sk if ltype.id == types.sick.id else None
        if bucket is not None and status in OPEN:
            left = bucket["carried"] + bucket["accrued"] - bucket["taken"] - bucket["requested"]
            if days > left:
                continue
            bucket["taken" if status == "approved" else "requested"] += days
        if status in OPEN:
            busy.append((start, end))
        decided = status in ("approved", "declined") and ltype.requires_approval
        created = min(
            utc_at(start, 9) - dt.timedelta(days=s.rng.randint(5, 25)),
            s.ago(hours=4 + i),
        )
        s.create(
            LeaveRequest,
            employee_id=emp.id,
            leave_type_id=ltype.id,
            start_date=start,
            end_date=end,
            days=days,
            status=status,
            note=_NOTES[i % len(_NOTES)] if ltype.id != types.sick.id else "",
            decided_by=emp.approver_email if decided else None,
            decision_note="Release week; please pick other dates" if status == "declined" else "",
            created_at=created,
            updated_at=created + dt.timedelta(hours=3 if decided or status == "cancelled" else 0),
        )
    for ltype, b in ((types.vacation, vac), (types.sick, sk)):
        s.create(
            Balance,
            employee_id=emp.id,
            leave_type_id=ltype.id,
            carried_over=b["carried"],
            accrued=b["accrued"] if emp.active else 0.0,
            taken=b["taken"],
            requested=b["requested"],
            available=b["carried"] + (b["accrued"] if emp.active else 0.0) - b["taken"] - b["requested"],
        )


def _leave_plans(i: int, emp: Employee, types: _LeaveTypes) -> list[tuple[LeaveType, int, int, RequestStatus]]:
    """(leave type, days from today, length in days, status) of the requests the ``i``-th employee made."""
    plans: list[tuple[LeaveType, int, int, RequestStatus]] = []
    if not emp.active:
        return plans
    if i % 2 == 0:
        plans.append((types.vacation, -40 + i % 20, 1 + i % 3, "approved"))
    if i % 3 == 0:
        plans.append((types.vacation, 10 + i % 30, 2 + i % 4, "requested"))
    if i % 5 == 1:
        plans.append((types.sick, -20 + i % 9, 1, "approved"))
    if i % 7 == 2:
        plans.append((types.vacation, 25 + i % 10, 1, "declined"))
    if i % 11 == 3:
        plans.append((types.unpaid, 45, 5, "requested"))
    if i % 8 == 5:
        plans.append((types.vacation, 30 + i % 12, 2, "cancelled"))
    return plans
