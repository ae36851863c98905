"""Deskly: desk booking in the home company's offices for hybrid work.

Modeled on the Robin / Envoy Desks APIs: floors with an occupancy limit per
day, neighborhoods that may be reserved for one department, desks (hot,
hoteled or assigned to one employee) with amenities, enabled or disabled;
reservations for a day up to 14 days ahead, one per employee and one per
desk a day, only of an enabled desk, only by its owner when assigned, only by
the neighborhood's department when it has one, never above the floor's
limit. A reservation goes booked → checked_in (on its day) → completed, or is
cancelled, or auto-released when nobody checked in by 10:00 UTC on its day.
Hybrid schedules say which weekdays each employee is in the office.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "desks",
    title="Deskly",
    category="desk_booking",
    modeled_on="Robin / Envoy Desks API: floors, neighborhoods, desks with amenities, reservations with "
    "check-in and auto-release, hybrid work schedules",
    description="Desk booking in the home company's office: floors and their daily occupancy limits, "
    "neighborhoods kept for departments, hot, hoteled and assigned desks with amenities, day reservations "
    "with check-in and auto-release of no-shows, and employees' hybrid office schedules.",
)

FloorId = Annotated[str, IdOf("desks.floor")]
NeighborhoodId = Annotated[str, IdOf("desks.neighborhood")]
DeskId = Annotated[str, IdOf("desks.desk")]
ReservationId = Annotated[str, IdOf("desks.reservation")]
ScheduleId = Annotated[str, IdOf("desks.schedule")]

Department = Annotated[str, StringConstraints(min_length=2, max_length=60)]
"""A department of the company."""
Weekday = Literal["mon", "tue", "wed", "thu", "fri"]
DeskType = Literal["hot", "hoteled", "assigned"]
Amenity = Literal["monitor", "dual_monitor", "standing", "dock", "window", "quiet"]
DeskStatus = Literal["enabled", "disabled"]
ReservationStatus = Literal["booked", "checked_in", "completed", "cancelled", "released"]

AHEAD_DAYS = 14
RELEASE_HOUR = 10
HOLDING: tuple[ReservationStatus, ...] = ("booked", "checked_in", "completed")
WEEKDAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri")


class Floor(Timestamped):
    """A floor of an office building."""

    id: FloorId
    building: Title
    """The building."""
    name: Title
    """The floor's name."""
    level: Annotated[int, Field(ge=-5, le=200)]
    """Its level."""
    max_daily_reservations: Annotated[int, Field(ge=1, le=2000)]
    """Most reservations a day (occupancy limit)."""


class Neighborhood(Timestamped):
    """A zone of desks on a floor, possibly kept for one department."""

    id: NeighborhoodId
    floor_id: FloorId
    """The floor."""
    name: Title
    """Its name."""
    department: Department | None = None
    """The only department that may book here (none: anyone)."""


class Desk(Timestamped):
    """A desk."""

    id: DeskId
    neighborhood_id: NeighborhoodId
    """The neighborhood."""
    floor_id: FloorId
    """The floor."""
    name: Annotated[str, StringConstraints(pattern=r"^[0-9A-Z]{1,3}-[A-Z]-\d{1,3}$")]
    """Its label, like 3-A-12."""
    desk_type: DeskType = "hot"
    """hot (same-day), hoteled (book ahead) or assigned (one owner)."""
    assigned_to: Email | None = None
    """The owner of an assigned desk."""
    amenities: tuple[Amenity, ...] = ()
    """monitor, dual_monitor, standing, dock, window, quiet."""
    status: DeskStatus = "enabled"
    """enabled or disabled."""


class Reservation(Timestamped):
    """A desk reserved for a day."""

    id: ReservationId
    desk_id: DeskId
    """The desk."""
    floor_id: FloorId
    """Its floor."""
    employee_email: Email
    """Who sits there."""
    date: Date
    """The day."""
    status: ReservationStatus = "booked"
    """booked, checked_in, completed, cancelled or released (no-show)."""


class Schedule(Timestamped):
    """An employee's hybrid office schedule."""

    id: ScheduleId
    employee_email: Email
    """The employee."""
    office_days: tuple[Weekday, ...]
    """Weekdays in the office."""
    floor_id: FloorId | None = None
    """Their usual floor."""


class Occupancy(Value):
    """A floor's reservations on a day."""

    floor_id: FloorId
    """The floor."""
    date: Date
    """The day."""
    reserved: int
    """Reservations holding a desk."""
    checked_in: int
    """Of which checked in."""
    limit: int
    """The floor's daily limit."""
    free_desks: int
    """Enabled desks not reserved."""


# -- rules ------------------------------------------------------------------------------------


def _person(ctx: Ctx, email: str, field: str) -> Any:
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")
    return person


def _guard_desk(ctx: Ctx, new: Any, old: Any) -> None:
    if (new.desk_type == "assigned") != (new.assigned_to is not None):
        raise RuleViolation(
            "an assigned desk has an owner and only an assigned desk has one",
            field="assigned_to",
            hint="set desk_type and assigned_to together",
        )
    if new.assigned_to is not None:
        _person(ctx, new.assigned_to, "assigned_to")


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    _person(ctx, new.employee_email, "employee_email")
    if not new.office_days or len(set(new.office_days)) != len(new.office_days):
        raise RuleViolation("list each office day once", field="office_days", hint="name at least one weekday")
    other = [s for s in ctx.where(Schedule, employee_email=new.employee_email) if s.id != new.id]
    if other:
        raise Conflict("the employee already has a schedule", field="employee_email", hint="update it instead")


floors = service.resource(
    Floor,
    name="floor",
    plural="floors",
    prefix="flr",
    create=False,
    filters=("building",),
    update=("max_daily_reservations",),
    delete=False,
)
neighborhoods = service.resource(
    Neighborhood,
    name="neighborhood",
    plural="neighborhoods",
    prefix="nbh",
    create=False,
    filters=("floor_id", "department"),
    update=("department",),
    delete=False,
)
desks = service.resource(
    Desk,
    name="desk",
    plural="desks",
    prefix="desk",
    create=False,
    filters=("floor_id", "neighborhood_id", "desk_type", "status", "assigned_to"),
    search=("name",),
    update=("desk_type", "assigned_to", "amenities"),
    delete=False,
    transitions={
        "disable": Transition("status", ("enabled",), "disabled", "disable the desk"),
        "enable": Transition("status", ("disabled",), "enabled", "enable the desk"),
    },
    guard_update=_guard_desk,
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="res",
    create=False,
    filters=("desk_id", "floor_id", "employee_email", "date", "status"),
    delete=False,
    transitions={
        "check_out": Transition("status", ("checked_in",), "completed", "check out of the desk"),
        "cancel": Transition("status", ("booked",), "cancelled", "cancel the reservation"),
    },
)
schedules = service.resource(
    Schedule,
    name="schedule",
    plural="schedules",
    prefix="sch",
    create=("employee_email", "office_days", "floor_id"),
    filters=("employee_email", "floor_id"),
    update=("office_days", "floor_id"),
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
    title="hybrid schedule",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_reserve(ctx: Ctx) -> dict[str, Any] | None:
    day = ctx.today() + dt.timedelta(days=2)
    for desk in ctx.where(Desk, status="enabled", desk_type="hoteled"):
        hood = ctx.get(Neighborhood, desk.neighborhood_id)
        if ctx.where(Reservation, desk_id=desk.id, date=day):
            continue
        for p in ctx.population.employees:
            if hood.department and p.department != hood.department:
                continue
            if not ctx.where(Reservation, employee_email=p.email, date=day):
                return {"desk_id": desk.id, "employee_email": p.email, "date": day.isoformat()}
    return None


@service.tool(intent="reserve the desk", write=True, example=_example_reserve)
def reserve_desk(ctx: Ctx, desk_id: DeskId, employee_email: Email, date: Date) -> Reservation:
    """Reserve a desk for a day (today up to 14 days ahead).

    One desk per employee a day and one employee per desk; a disabled desk, another's assigned desk, a
    neighborhood of another department, or a full floor is refused.

    Args:
        desk_id: The desk.
        employee_email: Who sits there.
        date: The day.
    """
    desk = ctx.get(Desk, desk_id, field="desk_id")
    person = _person(ctx, employee_email, "employee_email")
    today = ctx.today()
    if not today <= date <= today + dt.timedelta(days=AHEAD_DAYS):
        raise RuleViolation(f"book from today up to {AHEAD_DAYS} days ahead", field="date", hint="pick another day")
    if desk.status != "enabled":
        raise RuleViolation(f"desk {desk.name} is disabled", field="desk_id", hint="pick another desk")
    if desk.desk_type == "assigned" and desk.assigned_to != employee_email:
        raise RuleViolation(f"desk {desk.name} is assigned to someone else", field="desk_id", hint="pick a hot desk")
    if desk.desk_type == "hot" and date != today:
        raise RuleViolation("a hot desk is booked on the day only", field="date", hint="pick a hoteled desk")
    hood = ctx.get(Neighborhood, desk.neighborhood_id)
    if hood.department and person.department != hood.department:
        raise RuleViolation(
            f"{hood.name} is kept for {hood.department}", field="desk_id", hint="pick a desk in an open neighborhood"
        )
    if any(r.status in HOLDING for r in ctx.where(Reservation, desk_id=desk.id, date=date)):
        raise Conflict(f"desk {desk.name} is taken on {date}", field="desk_id", hint="pick another desk")
    if any(r.status in HOLDING for r in ctx.where(Reservation, employee_email=employee_email, date=date)):
        raise Conflict(f"{employee_email} already has a desk on {date}", field="employee_email", hint="cancel it")
    floor = ctx.get(Floor, desk.floor_id)
    taken = sum(r.status in HOLDING for r in ctx.where(Reservation, floor_id=floor.id, date=date))
    if taken >= floor.max_daily_reservations:
        raise RuleViolation(f"{floor.name} is full on {date}", field="date", hint="pick another floor or day")
    return ctx.create(Reservation, desk_id=desk.id, floor_id=floor.id, employee_email=employee_email, date=date)


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    res = ctx.first(Reservation, status="booked", date=ctx.today())
    return None if res is None else {"reservation_id": res.id}


@service.tool(intent="check in to the desk", write=True, example=_example_check_in)
def check_in(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check in to a booked reservation on its day.

    Args:
        reservation_id: The reservation.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.status != "booked":
        raise RuleViolation(f"reservation is {res.status}", field="reservation_id", hint="check in to a booked one")
    if res.date != ctx.today():
        raise RuleViolation(f"the reservation is for {res.date}", field="reservation_id", hint="check in on the day")
    return ctx.update(res, status="checked_in")


@service.tool(intent="release the no-show reservations", write=True, example=fixed_example())
def release_no_shows(ctx: Ctx) -> list[Reservation]:
    """Auto-release booked reservations nobody checked in to: past days, and today after 10:00 UTC.

    Returns the released reservations.
    """
    now = ctx.now()
    cutoff = now.date() if now >= utc_at(now.date(), RELEASE_HOUR) else now.date() - dt.timedelta(days=1)
    out: list[Reservation] = []
    for res in ctx.where(Reservation, status="booked"):
        if res.date <= cutoff:
            out.append(ctx.update(res, status="released"))
    return out


@service.tool(
    intent="show the floor's occupancy",
    example=first_example(Floor, "floor_id", date="2026-12-07"),
)
def floor_occupancy(ctx: Ctx, floor_id: FloorId, date: Date) -> Occupancy:
    """A floor's reservations, check-ins, limit and free desks on a day.

    Args:
        floor_id: The floor.
        date: The day.
    """
    floor = ctx.get(Floor, floor_id, field="floor_id")
    held = [r for r in ctx.where(Reservation, floor_id=floor.id, date=date) if r.status in HOLDING]
    taken = {r.desk_id for r in held}
    enabled = ctx.where(Desk, floor_id=floor.id, status="enabled")
    return Occupancy(
        floor_id=floor.id,
        date=date,
        reserved=len(held),
        checked_in=sum(r.status == "checked_in" for r in held),
        limit=floor.max_daily_reservations,
        free_desks=sum(d.id not in taken for d in enabled),
    )


# -- seed -------------------------------------------------------------------------------------

HOODS: tuple[tuple[int, str, str | None], ...] = (
    (0, "A", None),
    (0, "B", "Engineering"),
    (1, "A", None),
    (1, "B", "Sales"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two floors, four neighborhoods, hot, hoteled and assigned desks, schedules, reservations around today."""
    building = f"{s.population.home.name} HQ"
    made_floors = [
        s.create(Floor, building=building, name=f"Floor {lvl}", level=lvl, max_daily_reservations=cap)
        for lvl, cap in ((3, 30), (4, 6))
    ]
    people = s.population.employees
    all_desks: list[Desk] = []
    for f, letter, dept in HOODS:
        floor = made_floors[f]
        hood = s.create(Neighborhood, floor_id=floor.id, name=f"{floor.name} {letter} wing", department=dept)
        for n in range(1, 7):
            kind: DeskType = "hot" if n <= 2 else "hoteled" if n <= 5 else "assigned"
            owner = people[(f * 6 + n) % len(people)].email if kind == "assigned" else None
            if owner and dept and next(p for p in people if p.email == owner).department != dept:
                kind, owner = "hoteled", None
            amen: tuple[Amenity, ...] = (("monitor", "dock"), ("dual_monitor", "standing"), ("window", "quiet"))[n % 3]
            all_desks.append(
                s.create(
                    Desk,
                    neighborhood_id=hood.id,
                    floor_id=floor.id,
                    name=f"{floor.level}-{letter}-{n}",
                    desk_type=kind,
                    assigned_to=owner,
                    amenities=amen,
                    status="disabled" if (n == 4 and letter == "A" and f == 1) else "enabled",
                )
            )
    open_desks = [
        d
        for d in all_desks
        if d.status == "enabled"
        and d.desk_type == "hoteled"
        and d.neighborhood_id in {h.id for h in s.records(Neighborhood) if h.department is None}
    ]
    today = s.now.date()
    plan: tuple[tuple[int, ReservationStatus], ...] = (
        (-2, "completed"),
        (-1, "released"),
        (-1, "completed"),
        (0, "booked"),
        (0, "checked_in"),
        (0, "booked"),
        (1, "booked"),
        (2, "cancelled"),
        (3, "booked"),
    )
    for k, (offset, status) in enumerate(plan):
        desk = open_desks[k % len(open_desks)]
        s.create(
            Reservation,
            desk_id=desk.id,
            floor_id=desk.floor_id,
            employee_email=people[k].email,
            date=today + dt.timedelta(days=offset),
            status=status,
        )
    for k, p in enumerate(people[:10]):
        days = tuple(WEEKDAYS[j] for j in range(5) if (j + k) % 5 < 3)
        s.create(Schedule, employee_email=p.email, office_days=days, floor_id=made_floors[k % 2].id)
