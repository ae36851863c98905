"""Rotaline: the company's shift rosters — who works where and when, swaps, and the timesheets that follow.

Modeled on the Deputy API v1 (``resource/Company`` locations, ``resource/OperationalUnit``
areas, ``resource/Employee``, ``resource/Roster`` shifts with publishing and open
shifts, ``supervise/roster/swap`` requests, ``supervise/timesheet/start|end``
clock-in and clock-out, timesheet approval) and the roster rules Deputy
enforces as compliance checks:

* a shift lasts at most 12 hours, and one over 5 hours has at least a 30-minute
  meal break;
* an employee works only in the areas they are trained for, never two
  overlapping shifts, with at least 10 hours' rest between shifts, and not
  beyond their weekly hours (Monday to Sunday);
* draft shifts are published by location and week; only published shifts are
  swapped or claimed; a started shift is not deleted;
* a swap moves a published, future shift to a colleague once a manager
  approves it, re-checking the colleague's roster; one swap per shift is pending;
* an employee clocks in once at a time (on today's shift when there is one),
  clocks out after clocking in, and a completed timesheet is approved once; its
  cost is paid hours × the employee's rate.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
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
    LastName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "shifts",
    title="Rotaline",
    category="workforce_scheduling",
    modeled_on="Deputy API v1 (Company locations, OperationalUnit areas, Employee, Roster with publish and open "
    "shifts, roster swaps, timesheet start/end and approval) with Deputy's roster compliance checks",
    description="Shift scheduling for the company's hourly staff: locations and their areas, employees with the "
    "areas they may work and their weekly hours, draft and published rosters, open shifts to claim, shift swaps "
    "approved by a manager, clock-in and clock-out timesheets, their approval and labour cost.",
)

LocationId = Annotated[str, IdOf("shifts.location")]
AreaId = Annotated[str, IdOf("shifts.area")]
EmployeeId = Annotated[str, IdOf("shifts.employee")]
ShiftId = Annotated[str, IdOf("shifts.shift")]
SwapId = Annotated[str, IdOf("shifts.shift_swap")]
TimesheetId = Annotated[str, IdOf("shifts.timesheet")]
MealBreak = Annotated[int, Field(ge=0, le=120)]

Employment = Literal["full_time", "part_time", "casual"]
ShiftStatus = Literal["draft", "published"]
SwapStatus = Literal["pending", "approved", "declined"]
TimesheetStatus = Literal["in_progress", "completed", "approved"]

MAX_SHIFT = dt.timedelta(hours=12)
BREAK_AFTER = dt.timedelta(hours=5)
MIN_BREAK_MINUTES = 30
MIN_REST = dt.timedelta(hours=10)
WEEKLY_HOURS: dict[str, int] = {"full_time": 40, "part_time": 30, "casual": 20}


# -- records -------------------------------------------------------------------------------


class Location(Record):
    """A workplace (Deputy Company)."""

    id: LocationId
    name: Title
    """The location's name."""
    city: City
    """Where it is."""
    currency: Currency
    """Currency of wages paid there."""


class Area(Record):
    """An area of a location where shifts are worked (Deputy OperationalUnit)."""

    id: AreaId
    location_id: LocationId
    """The location."""
    name: Annotated[str, StringConstraints(min_length=1, max_length=60)]
    """The area's name."""


class Employee(Record):
    """A member of the hourly staff."""

    id: EmployeeId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Work e-mail."""
    phone: Phone
    """Mobile for shift notices."""
    location_id: LocationId
    """Main location."""
    area_ids: tuple[AreaId, ...]
    """Areas they are trained to work in."""
    employment: Employment
    """full_time, part_time or casual."""
    max_hours_per_week: Annotated[int, Field(ge=1, le=60)]
    """The most paid hours they may be rostered in a week (Monday to Sunday)."""
    hourly_rate: Cents
    """Pay per hour, in cents."""
    manager_email: Email | None = None
    """Their manager, who approves swaps and timesheets."""
    active: bool = True
    """Whether they can be rostered."""


class Shift(Timestamped):
    """A rostered shift (Deputy Roster); without an employee it is an open shift."""

    id: ShiftId
    area_id: AreaId
    """Where it is worked."""
    location_id: LocationId
    """The area's location."""
    employee_id: EmployeeId | None = None
    """Who works it; None: an open shift anyone trained may claim once published."""
    start: DateTime
    """When it starts."""
    end: DateTime
    """When it ends."""
    meal_break_minutes: MealBreak = 0
    """Unpaid meal break."""
    status: ShiftStatus = "draft"
    """draft (only managers see it) or published."""
    comment: Text | None = None
    """A note for the employee."""


class ShiftSwap(Timestamped):
    """A request to hand a published shift to a colleague."""

    id: SwapId
    shift_id: ShiftId
    """The shift."""
    from_employee_id: EmployeeId
    """Who gives it away."""
    to_employee_id: EmployeeId
    """Who takes it."""
    reason: Text | None = None
    """Why."""
    status: SwapStatus = "pending"
    """pending, approved (the shift moved) or declined."""


class Timesheet(Timestamped):
    """Time actually worked: clock-in to clock-out."""

    id: TimesheetId
    employee_id: EmployeeId
    """Who worked."""
    shift_id: ShiftId | None = None
    """The shift it was worked against; None when unscheduled."""
    area_id: AreaId
    """Where."""
    start: DateTime
    """Clock-in."""
    end: DateTime | None = None
    """Clock-out."""
    meal_break_minutes: MealBreak = 0
    """Break taken."""
    status: TimesheetStatus = "in_progress"
    """in_progress, completed or approved."""
    paid_hours: float = 0
    """Hours paid (worked less the break)."""
    cost: Cents = 0
    """paid_hours × the hourly rate, in cents."""
    currency: Currency
    """Currency of the cost."""


# -- rules ---------------------------------------------------------------------------------


def _hours(start: dt.datetime, end: dt.datetime, meal: int) -> float:
    return round((end - start).total_seconds() / 3600 - meal / 60, 2)


def _week(day: dt.date) -> tuple[dt.date, dt.date]:
    monday = day - dt.timedelta(days=day.weekday())
    return monday, monday + dt.timedelta(days=6)


def _check_times(start: dt.datetime, end: dt.datetime, meal: int) -> None:
    if end <= start:
        raise RuleViolation("the shift ends before it starts", field="end", hint="give an end after the start")
    if end - start > MAX_SHIFT:
        raise RuleViolation("a shift lasts at most 12 hours", field="end", hint="split it into two shifts")
    if end - start > BREAK_AFTER and meal < MIN_BREAK_MINUTES:
        raise RuleViolation(
            f"a shift over 5 hours needs a meal break of at least {MIN_BREAK_MINUTES} minutes",
            field="meal_break_minutes",
            hint=f"give meal_break_minutes={MIN_BREAK_MINUTES} or more",
        )
    if meal and dt.timedelta(minutes=meal) >= end - start:
        raise RuleViolation("the break is as long as the shift", field="meal_break_minutes", hint="shorten the break")


def _check_fits(
    ctx: Ctx, emp: Employee, area_id: str, start: dt.datetime, end: dt.datetime, meal: int, skip: str | None, field: str
) -> None:
    """Refuse a shift that ``emp`` may not work (``skip``: a shift of theirs to leave out)."""
    _fits(ctx.where(Shift, employee_id=emp.id), emp, area_id, start, end, meal, skip, field)


def _fits(
    theirs: list[Shift],
    emp: Employee,
    area_id: str,
    start: dt.datetime,
    end: dt.datetime,
    meal: int,
    skip: str | None,
    field: str,
) -> None:
    """The rules of :func:`_check_fits` over ``theirs``, the employee's shifts."""
    if not emp.active:
        raise RuleViolation(f"{emp.first_name} {emp.last_name} is inactive", field=field, hint="choose someone else")
    if area_id not in emp.area_ids:
        raise RuleViolation(
            f"{emp.first_name} {emp.last_name} is not trained for this area",
            field=field,
            hint="choose an employee whose area_ids include it",
        )
    monday, sunday = _week(start.date())
    week_hours = 0.0
    for other in theirs:
        if other.id == skip:
            continue
        if other.start < end and start < other.end:
            raise Conflict(
                f"{emp.first_name} {emp.last_name} already works {other.start:%a %H:%M}-{other.end:%H:%M} ({other.id})",
                field=field,
                hint="choose another time or employee",
            )
        gap = start - other.end if other.end <= start else other.start - end
        if gap < MIN_REST:
            raise RuleViolation(
                f"{emp.first_name} {emp.last_name} would rest only {gap.total_seconds() / 3600:.1f} hours after or "
                f"before shift {other.id} (at least 10)",
                field=field,
                hint="leave 10 hours between shifts",
            )
        if monday <= other.start.date() <= sunday:
            week_hours += _hours(other.start, other.end, other.meal_break_minutes)
    total = week_hours + _hours(start, end, meal)
    if total > emp.max_hours_per_week:
        raise RuleViolation(
            f"{emp.first_name} {emp.last_name} would work {total:g} hours in the week of {monday}, more than "
            f"their {emp.max_hours_per_week}",
            field=field,
            hint="choose someone with hours left (shifts__get_weekly_hours)",
        )


def _guard_shift_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.start <= ctx.now():
        raise RuleViolation(
            f"shift {old.id} has started", field="shift_id", hint="a started shift stays on the roster for the record"
        )
    if ctx.first(ShiftSwap, shift_id=old.id, status="pending") is not None:
        raise RuleViolation("the shift has a pending swap", field="shift_id", hint="decline the swap first")


def _guard_swap(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != "approved":
        return
    shift = ctx.get(Shift, old.shift_id)
    if shift.employee_id != old.from_employee_id or shift.start <= ctx.now():
        raise RuleViolation(
            "the shift has changed hands or started since the swap was asked for",
            field="shift_swap_id",
            hint="decline this swap",
        )
    emp = ctx.get(Employee, old.to_employee_id)
    _check_fits(ctx, emp, shift.area_id, shift.start, shift.end, shift.meal_break_minutes, shift.id, "shift_swap_id")
    ctx.update(shift, employee_id=emp.id)


def _guard_timesheet(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "approved" and old.status != "completed":
        raise RuleViolation("only completed timesheets are approved", field="timesheet_id", hint="clock out first")


locations = service.resource(
    Location, name="location", plural="locations", prefix="loc", create=False, get=False, search=("name",), delete=False
)
areas = service.resource(
    Area, name="area", plural="areas", prefix="area", create=False, get=False, filters=("location_id",), delete=False
)
employees = service.resource(
    Employee,
    name="employee",
    plural="employees",
    prefix="emp",
    create=False,
    get=False,
    filters=("location_id", "employment", "active", "email"),
    search=("first_name", "last_name"),
    delete=False,
)
shifts = service.resource(
    Shift,
    name="shift",
    plural="shifts",
    prefix="sh",
    create=False,
    get=False,
    filters=("employee_id", "area_id", "location_id", "status"),
    guard_delete=_guard_shift_delete,
)
swaps = service.resource(
    ShiftSwap,
    name="shift_swap",
    plural="shift_swaps",
    prefix="swap",
    create=False,
    get=False,
    filters=("shift_id", "from_employee_id", "to_employee_id", "status"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("pending",),
            "approved",
            "approve the shift swap",
            description="Approve a pending swap: the shift moves to the colleague if it still fits their roster "
            "(trained for the area, no overlap, 10 hours' rest, weekly hours).",
        ),
        "decline": Transition("status", ("pending",), "declined", "decline the shift swap"),
    },
    guard_update=_guard_swap,
    title="shift swap",
)
timesheets = service.resource(
    Timesheet,
    name="timesheet",
    plural="timesheets",
    prefix="ts",
    create=False,
    get=False,
    filters=("employee_id", "shift_id", "area_id", "status"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("completed",),
            "approved",
            "approve the timesheet",
            description="Approve a completed timesheet for payroll; approved timesheets are locked.",
        )
    },
    guard_update=_guard_timesheet,
)


# -- roster --------------------------------------------------------------------------------


def _example_shift(ctx: Ctx) -> dict[str, Any] | None:
    day = ctx.today() + dt.timedelta(days=9)
    for emp in ctx.where(Employee, active=True):
        start = dt.datetime.combine(day, dt.time(8), tzinfo=dt.UTC)
        try:
            _check_fits(ctx, emp, emp.area_ids[0], start, start + dt.timedelta(hours=4), 0, None, "employee_id")
        except (RuleViolation, Conflict):
            continue
        return {
            "area_id": emp.area_ids[0],
            "employee_id": emp.id,
            "start": start.isoformat(),
            "end": (start + dt.timedelta(hours=4)).isoformat(),
        }
    return None


@service.tool(intent="roster a shift", write=True, example=_example_shift)
def create_shift(
    ctx: Ctx,
    area_id: AreaId,
    start: DateTime,
    end: DateTime,
    employee_id: EmployeeId | None = None,
    meal_break_minutes: MealBreak = 0,
    comment: Text | None = None,
) -> Shift:
    """Add a draft shift to the roster (``POST resource/Roster``); without an employee it is an open shift.

    At most 12 hours, with a 30-minute break when over 5; it cannot end in the
    past. An employee must be trained for the area, free at that time, rested 10
    hours since their last shift and within their weekly hours.

    Args:
        area_id: Where it is worked.
        start: When it starts.
        end: When it ends.
        employee_id: Who works it; omit for an open shift.
        meal_break_minutes: Unpaid break.
        comment: A note for the employee.
    """
    area = ctx.get(Area, area_id, field="area_id")
    _check_times(start, end, meal_break_minutes)
    if end <= ctx.now():
        raise RuleViolation("the shift is over already", field="start", hint="roster shifts that are still ahead")
    if employee_id is not None:
        emp = ctx.get(Employee, employee_id, field="employee_id")
        _check_fits(ctx, emp, area.id, start, end, meal_break_minutes, None, "employee_id")
    return ctx.create(
        Shift,
        area_id=area.id,
        location_id=area.location_id,
        employee_id=employee_id,
        start=start,
        end=end,
        meal_break_minutes=meal_break_minutes,
        comment=comment,
    )


class Published(BaseModel):
    """The shifts a publish made visible."""

    location_id: LocationId = Field(description="The location.")
    week_start: Date = Field(description="The Monday of the week.")
    shift_ids: list[ShiftId] = Field(description="The shifts published, by start.")
    open_shifts: int = Field(description="How many of them have no employee yet.")


def _example_publish(ctx: Ctx) -> dict[str, Any] | None:
    shift = ctx.first(Shift, status="draft")
    if shift is None:
        return None
    return {"location_id": shift.location_id, "week_start": _week(shift.start.date())[0].isoformat()}


@service.tool(intent="publish the week's roster", write=True, example=_example_publish)
def publish_roster(ctx: Ctx, location_id: LocationId, week_start: Date) -> Published:
    """Publish every draft shift of a location in the week starting on ``week_start`` (a Monday).

    Args:
        location_id: The location.
        week_start: The Monday of the week.
    """
    ctx.get(Location, location_id, field="location_id")
    if week_start.weekday() != 0:
        raise RuleViolation(f"{week_start} is not a Monday", field="week_start", hint="weeks start on Monday")
    end = week_start + dt.timedelta(days=6)
    drafts = sorted(
        (s for s in ctx.where(Shift, location_id=location_id, status="draft") if week_start <= s.start.date() <= end),
        key=lambda s: (s.start, s.id),
    )
    if not drafts:
        raise Conflict(
            f"no draft shifts at this location in the week of {week_start}",
            field="week_start",
            hint="roster shifts first, or see list_shifts",
        )
    for s in drafts:
        ctx.update(s, status="published")
    return Published(
        location_id=location_id,
        week_start=week_start,
        shift_ids=[s.id for s in drafts],
        open_shifts=sum(1 for s in drafts if s.employee_id is None),
    )


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    for shift in ctx.where(Shift, status="published", employee_id=None):
        for emp in ctx.where(Employee, active=True):
            try:
                args = (shift.area_id, shift.start, shift.end, shift.meal_break_minutes)
                _check_fits(ctx, emp, *args, None, "employee_id")
            except (RuleViolation, Conflict):
                continue
            return {"shift_id": shift.id, "employee_id": emp.id}
    return None


@service.tool(intent="take the open shift", write=True, example=_example_claim)
def claim_open_shift(ctx: Ctx, shift_id: ShiftId, employee_id: EmployeeId) -> Shift:
    """An employee takes a published open shift, if it fits their roster.

    Args:
        shift_id: The open shift.
        employee_id: Who takes it.
    """
    shift = ctx.get(Shift, shift_id, field="shift_id")
    if shift.employee_id is not None:
        raise Conflict("the shift is not open", field="shift_id", hint="ask for a swap instead")
    if shift.status != "published":
        raise RuleViolation("the shift is not published yet", field="shift_id", hint="wait for the roster")
    if shift.start <= ctx.now():
        raise RuleViolation("the shift has started", field="shift_id", hint="claim shifts that are still ahead")
    emp = ctx.get(Employee, employee_id, field="employee_id")
    _check_fits(ctx, emp, shift.area_id, shift.start, shift.end, shift.meal_break_minutes, None, "employee_id")
    return ctx.update(shift, employee_id=emp.id)


def _example_swap(ctx: Ctx) -> dict[str, Any] | None:
    for shift in ctx.where(Shift, status="published"):
        if shift.employee_id is None or shift.start <= ctx.now():
            continue
        if ctx.first(ShiftSwap, shift_id=shift.id, status="pending") is not None:
            continue
        for emp in ctx.where(Employee, active=True):
            if emp.id != shift.employee_id and shift.area_id in emp.area_ids:
                return {"shift_id": shift.id, "to_employee_id": emp.id, "reason": "Family event"}
    return None


@service.tool(intent="ask to hand the shift to a colleague", write=True, example=_example_swap)
def request_shift_swap(
    ctx: Ctx, shift_id: ShiftId, to_employee_id: EmployeeId, reason: Text | None = None
) -> ShiftSwap:
    """Ask to hand a published, future shift to a colleague; a manager approves or declines it.

    The colleague must be active and trained for the area; one swap per shift
    may be pending.

    Args:
        shift_id: The shift, which has an employee.
        to_employee_id: The colleague.
        reason: Why.
    """
    shift = ctx.get(Shift, shift_id, field="shift_id")
    if shift.employee_id is None:
        raise RuleViolation("an open shift is claimed, not swapped", field="shift_id", hint="use claim_open_shift")
    if shift.status != "published" or shift.start <= ctx.now():
        raise RuleViolation(
            "only published shifts that have not started can be swapped", field="shift_id", hint="choose another"
        )
    if to_employee_id == shift.employee_id:
        raise RuleViolation("the shift is already theirs", field="to_employee_id", hint="choose a colleague")
    emp = ctx.get(Employee, to_employee_id, field="to_employee_id")
    if not emp.active or shift.area_id not in emp.area_ids:
        raise RuleViolation(
            f"{emp.first_name} {emp.last_name} cannot work this area",
            field="to_employee_id",
            hint="choose an active colleague trained for it",
        )
    pending = ctx.first(ShiftSwap, shift_id=shift.id, status="pending")
    if pending is not None:
        raise Conflict(f"swap {pending.id} is already pending", field="shift_id", hint="wait for the manager")
    return ctx.create(
        ShiftSwap, shift_id=shift.id, from_employee_id=shift.employee_id, to_employee_id=emp.id, reason=reason
    )


# -- timesheets ----------------------------------------------------------------------------


def _example_clock_in(ctx: Ctx) -> dict[str, Any] | None:
    busy = {t.employee_id for t in ctx.where(Timesheet, status="in_progress")}
    for emp in ctx.where(Employee, active=True):
        if emp.id not in busy:
            return {"employee_id": emp.id, "area_id": emp.area_ids[0]}
    return None


@service.tool(intent="clock the employee in", write=True, example=_example_clock_in)
def clock_in(ctx: Ctx, employee_id: EmployeeId, area_id: AreaId | None = None) -> Timesheet:
    """Start a timesheet now (``supervise/timesheet/start``), against today's shift when there is one.

    Args:
        employee_id: Who clocks in.
        area_id: Where; omit for the area of their shift today.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    if not emp.active:
        raise RuleViolation("the employee is inactive", field="employee_id", hint="choose an active employee")
    running = ctx.first(Timesheet, employee_id=emp.id, status="in_progress")
    if running is not None:
        raise Conflict(f"already clocked in ({running.id})", field="employee_id", hint="clock out first")
    now = ctx.now()
    shift = next(
        (
            s
            for s in sorted(ctx.where(Shift, employee_id=emp.id), key=lambda s: s.start)
            if s.status == "published"
            and s.start - dt.timedelta(hours=2) <= now < s.end
            and ctx.first(Timesheet, shift_id=s.id) is None
        ),
        None,
    )
    where = area_id or (shift.area_id if shift else None)
    if where is None:
        raise RuleViolation("no shift now: say where they work", field="area_id", hint="give the area")
    if where not in emp.area_ids:
        raise RuleViolation("the employee is not trained for this area", field="area_id", hint="one of their areas")
    ctx.get(Area, where, field="area_id")
    loc = ctx.get(Location, emp.location_id)
    return ctx.create(
        Timesheet,
        employee_id=emp.id,
        shift_id=shift.id if shift and shift.area_id == where else None,
        area_id=where,
        start=now,
        currency=loc.currency,
    )


@service.tool(
    intent="clock the employee out",
    write=True,
    example=first_example(Timesheet, "timesheet_id", where={"status": "in_progress"}, meal_break_minutes=0),
)
def clock_out(ctx: Ctx, timesheet_id: TimesheetId, meal_break_minutes: MealBreak = 0) -> Timesheet:
    """End a timesheet now (``supervise/timesheet/end``) and cost it: paid hours × the hourly rate.

    Args:
        timesheet_id: The running timesheet.
        meal_break_minutes: Break taken.
    """
    ts = ctx.get(Timesheet, timesheet_id, field="timesheet_id")
    if ts.status != "in_progress":
        raise Conflict(f"the timesheet is {ts.status}", field="timesheet_id", hint="clock in first")
    now = ctx.now()
    worked = (now - ts.start).total_seconds() / 60
    if meal_break_minutes >= worked and meal_break_minutes:
        raise RuleViolation(
            "the break is longer than the time worked", field="meal_break_minutes", hint="give the break taken"
        )
    emp = ctx.get(Employee, ts.employee_id)
    hours = max(0.0, _hours(ts.start, now, meal_break_minutes))
    return ctx.update(
        ts,
        end=now,
        meal_break_minutes=meal_break_minutes,
        status="completed",
        paid_hours=hours,
        cost=round(hours * emp.hourly_rate),
    )


class WeeklyHours(BaseModel):
    """An employee's week: rostered against allowed hours, and worked."""

    employee_id: EmployeeId = Field(description="The employee.")
    email: Email = Field(description="Their work e-mail.")
    week_start: Date = Field(description="The Monday of the week.")
    rostered_hours: float = Field(description="Paid hours of their shifts that week.")
    max_hours: int = Field(description="The most they may be rostered.")
    hours_left: float = Field(description="How many more hours can be rostered.")
    worked_hours: float = Field(description="Paid hours of completed or approved timesheets that week.")
    cost: Cents = Field(description="Cost of those timesheets, in cents.")
    currency: Currency = Field(description="Currency of the cost.")


@service.tool(
    intent="check the employee's hours this week",
    example=first_example(Employee, "employee_id", week_start="2026-03-02"),
)
def get_weekly_hours(ctx: Ctx, employee_id: EmployeeId, week_start: Date) -> WeeklyHours:
    """An employee's rostered, allowed and worked hours in the week starting on a Monday.

    Args:
        employee_id: The employee.
        week_start: The Monday of the week.
    """
    emp = ctx.get(Employee, employee_id, field="employee_id")
    if week_start.weekday() != 0:
        raise RuleViolation(f"{week_start} is not a Monday", field="week_start", hint="weeks start on Monday")
    end = week_start + dt.timedelta(days=6)
    rostered = sum(
        _hours(s.start, s.end, s.meal_break_minutes)
        for s in ctx.where(Shift, employee_id=emp.id)
        if week_start <= s.start.date() <= end
    )
    done = [
        t
        for t in ctx.where(Timesheet, employee_id=emp.id)
        if t.status != "in_progress" and week_start <= t.start.date() <= end
    ]
    loc = ctx.get(Location, emp.location_id)
    return WeeklyHours(
        employee_id=emp.id,
        email=emp.email,
        week_start=week_start,
        rostered_hours=round(rostered, 2),
        max_hours=emp.max_hours_per_week,
        hours_left=round(max(0.0, emp.max_hours_per_week - rostered), 2),
        worked_hours=round(sum(t.paid_hours for t in done), 2),
        cost=sum(t.cost for t in done),
        currency=loc.currency,
    )


# -- seeding -------------------------------------------------------------------------------

_SITES = (("Store", ("Shop floor", "Checkout")), ("Warehouse", ("Picking", "Dispatch")))
_PATTERN = ((8, 16, 30), (12, 20, 30), (9, 13, 0))
"""Shift times: start hour, end hour, meal break."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Two locations with two areas each, hourly staff, last week worked, this week published, next week drafted."""
    pop = s.population
    home = pop.home
    locs, area_rows = [], []
    for name, area_names in _SITES:
        loc = s.create(Location, name=f"{home.name} {name}", city=home.place.city, currency=home.place.currency)
        locs.append(loc)
        area_rows.append([s.create(Area, location_id=loc.id, name=a) for a in area_names])
    staff = list(pop.employees[:12])
    manager = staff[0].email
    emps: list[Employee] = []
    for k, p in enumerate(staff):
        site = k % 2
        kind: Employment = ("full_time", "part_time", "casual")[k % 3]
        trained = area_rows[site] if k % 3 != 2 else area_rows[site][:1]
        emps.append(
            s.create(
                Employee,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                location_id=locs[site].id,
                area_ids=tuple(a.id for a in trained),
                employment=kind,
                max_hours_per_week=WEEKLY_HOURS[kind],
                hourly_rate=1800 + 150 * (k % 5),
                manager_email=manager if k else None,
                active=k != 11,
            )
        )
    monday = _week(s.now.date())[0]
    for week, status in ((-1, "published"), (0, "published"), (1, "draft")):
        for day in range(5):
            date = monday + dt.timedelta(days=7 * week + day)
            for k, emp in enumerate(emps[:10]):
                if (k + day) % 3 == 2:
                    continue
                start_h, end_h, meal = _PATTERN[k % 3]
                start = dt.datetime.combine(date, dt.time(start_h), tzinfo=dt.UTC)
                shift = s.create(
                    Shift,
                    area_id=emp.area_ids[day % len(emp.area_ids)],
                    location_id=emp.location_id,
                    employee_id=emp.id,
                    start=start,
                    end=start + dt.timedelta(hours=end_h - start_h),
                    meal_break_minutes=meal,
                    status=status,
                )
                if week == -1:
                    _seed_timesheet(s, emp, shift, locs, approved=day < 3)
            if week >= 0:
                for site in range(2):
                    start = dt.datetime.combine(date, dt.time(17), tzinfo=dt.UTC)
                    s.create(
                        Shift,
                        area_id=area_rows[site][0].id,
                        location_id=locs[site].id,
                        start=start,
                        end=start + dt.timedelta(hours=4),
                        status=status,
                        comment="Evening cover",
                    )
    _seed_today(s, emps, locs)


def _seed_timesheet(s: SeedContext, emp: Employee, shift: Shift, locs: list[Location], approved: bool) -> None:
    late = dt.timedelta(minutes=7 if shift.id.endswith("3") else 0)
    start, end = shift.start + late, shift.end
    hours = _hours(start, end, shift.meal_break_minutes)
    cur = next(loc.currency for loc in locs if loc.id == emp.location_id)
    s.create(
        Timesheet,
        employee_id=emp.id,
        shift_id=shift.id,
        area_id=shift.area_id,
        start=start,
        end=end,
        meal_break_minutes=shift.meal_break_minutes,
        status="approved" if approved else "completed",
        paid_hours=hours,
        cost=round(hours * emp.hourly_rate),
        currency=cur,
    )


def _seed_today(s: SeedContext, emps: list[Employee], locs: list[Location]) -> None:
    """Who is clocked in on this morning's shifts, and a swap waiting for the manager."""
    today = s.now.date()
    morning = [
        sh
        for sh in s.records(Shift)
        if sh.employee_id and sh.start.date() == today and sh.start <= s.now and sh.status == "published"
    ]
    by_id = {e.id: e for e in emps}
    for sh in morning:
        emp = by_id[sh.employee_id or ""]
        cur = next(loc.currency for loc in locs if loc.id == emp.location_id)
        s.create(
            Timesheet,
            employee_id=emp.id,
            shift_id=sh.id,
            area_id=sh.area_id,
            start=sh.start,
            currency=cur,
        )
    later = [sh for sh in s.records(Shift) if sh.employee_id and sh.status == "published" and sh.start > s.now]
    if later:
        sh = later[0]
        other = next(e for e in emps if e.id != sh.employee_id and _free(s, e, sh))
        s.create(ShiftSwap, shift_id=sh.id, from_employee_id=sh.employee_id or "", to_employee_id=other.id)


def _free(s: SeedContext, emp: Employee, shift: Shift) -> bool:
    theirs = [x for x in s.records(Shift) if x.employee_id == emp.id]
    try:
        _fits(theirs, emp, shift.area_id, shift.start, shift.end, shift.meal_break_minutes, None, "employee_id")
    except (RuleViolation, Conflict):
        return False
    return True
