"""Berthline Docks: dock appointment scheduling for the company's warehouses and the carriers that visit them.

Modeled on the Opendock (Loadsmart) API v2: warehouses with a time zone, lead
time and operating hours; docks with the load types they accept; load types
(inbound or outbound, equipment, duration); carrier users by company; and
appointments a carrier books on a dock for a load type, with a reference (PO or
BOL number) unique per warehouse. An appointment goes Requested → Scheduled →
Arrived → InProgress → Completed, or Cancelled (with a reason) before arrival,
or NoShow once its start has passed without arrival. Booking and rescheduling
refuse a slot outside the dock's hours in the warehouse's time zone, inside the
warehouse's lead time, on a dock that does not take the load type or is
inactive, or overlapping another live appointment on the same dock;
availability lists the free slots of a day.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Phone,
    PostalAddress,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "dockyard",
    title="Berthline Docks",
    category="dock_scheduling",
    modeled_on="Opendock API v2 (warehouse, dock, loadtype, carrier users, appointment with refNumber, "
    "statuses Requested/Scheduled/Arrived/InProgress/Completed/Cancelled/NoShow, availability)",
    description="Dock scheduling for the company's warehouses: docks and their hours, load types and their "
    "durations, carriers and their dispatchers, and the appointments they book with PO or BOL references, "
    "from request through check-in, unloading and completion, cancellations and no-shows.",
)

WarehouseId = Annotated[str, IdOf("dockyard.warehouse")]
DockId = Annotated[str, IdOf("dockyard.dock")]
LoadTypeId = Annotated[str, IdOf("dockyard.load_type")]
CarrierId = Annotated[str, IdOf("dockyard.carrier")]
AppointmentId = Annotated[str, IdOf("dockyard.appointment")]

Hour = Annotated[int, Field(ge=0, le=24)]
"""An hour of the day, 0-24."""
Minutes = Annotated[int, Field(ge=15, le=480, multiple_of=15)]
"""A duration in minutes, 15 to 480 in steps of 15."""

Trailer = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{2,20}$")]
"""A trailer number."""
Status = Literal["requested", "scheduled", "arrived", "in_progress", "completed", "cancelled", "no_show"]
LIVE: tuple[Status, ...] = ("requested", "scheduled", "arrived", "in_progress")
Direction = Literal["inbound", "outbound"]
Equipment = Literal["dry_van", "reefer", "flatbed", "container", "box_truck"]


class Warehouse(Record):
    """A warehouse whose docks carriers book."""

    id: WarehouseId
    name: Title
    """The warehouse's name."""
    address: PostalAddress
    """Its street address."""
    timezone: Timezone
    """Its IANA time zone; dock hours are local to it."""
    lead_time_hours: Annotated[int, Field(ge=0, le=168)] = 24
    """How many hours ahead an appointment must be booked."""
    contact_email: Email
    """The employee who runs the yard."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Dock(Record):
    """A dock door of a warehouse."""

    id: DockId
    warehouse_id: WarehouseId
    """The warehouse."""
    name: Title
    """The door's name, unique in its warehouse."""
    load_type_ids: tuple[LoadTypeId, ...] = ()
    """The load types it takes."""
    open_hour: Hour = 6
    """Opens at this local hour."""
    close_hour: Hour = 18
    """Closes at this local hour."""
    open_weekends: bool = False
    """Whether it works on Saturday and Sunday."""
    active: bool = True
    """Inactive docks take no bookings."""


class LoadType(Record):
    """A kind of load and how long it takes at the dock."""

    id: LoadTypeId
    name: Title
    """Its name, e.g. Inbound floor-loaded 53'."""
    direction: Direction
    """inbound (unloading) or outbound (loading)."""
    equipment: Equipment = "dry_van"
    """The trailer type."""
    duration_minutes: Minutes = 60
    """How long the dock is occupied."""


class Carrier(Record):
    """A carrier's dispatcher who books appointments (an Opendock carrier user)."""

    id: CarrierId
    company_name: CompanyName
    """The carrier company."""
    email: Email
    """The dispatcher's e-mail (unique)."""
    phone: Phone | None = None
    """The dispatcher's phone."""
    scac: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,4}$")] | None = None
    """Standard carrier alpha code."""
    created_at: Annotated[DateTime, CREATED]
    """When the carrier registered."""


class Appointment(Record):
    """A booked visit of a carrier's truck to a dock."""

    id: AppointmentId
    confirmation_number: Annotated[str, Generated("sequence", "APT-{n:06d}")]
    """The confirmation number."""
    dock_id: DockId
    """The dock."""
    warehouse_id: WarehouseId
    """The dock's warehouse."""
    load_type_id: LoadTypeId
    """The load type."""
    carrier_id: CarrierId
    """The carrier who booked."""
    ref_number: OrderNumber
    """The PO or BOL number of the load; unique per warehouse among live appointments."""
    start: DateTime
    """When the truck is expected."""
    end: DateTime
    """When the dock is free again."""
    status: Status = "requested"
    """requested → scheduled → arrived → in_progress → completed; cancelled; no_show."""
    notes: Text = ""
    """Notes for the dock staff."""
    trailer_number: Trailer | None = None
    """The trailer checked in."""
    arrived_at: DateTime | None = None
    """When the truck checked in."""
    completed_at: DateTime | None = None
    """When loading or unloading finished."""
    cancel_reason: Text | None = None
    """Why it was cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Slot(Value):
    """A free slot on a dock."""

    dock_id: DockId
    start: DateTime
    end: DateTime


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_warehouse(ctx: Ctx, new: Any, old: Any) -> None:
    try:
        ZoneInfo(new.timezone)
    except Exception:
        raise RuleViolation(
            f"unknown time zone {new.timezone}", field="timezone", hint="use an IANA name like Europe/Berlin"
        ) from None
    _staff(ctx, new.contact_email, "contact_email")


def _guard_dock(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Warehouse, new.warehouse_id, field="warehouse_id")
    if new.open_hour >= new.close_hour:
        raise RuleViolation("a dock must open before it closes", field="close_hour", hint="close after open_hour")
    for lt in new.load_type_ids:
        ctx.get(LoadType, lt, field="load_type_ids")
    for other in ctx.where(Dock, warehouse_id=new.warehouse_id):
        if other.id != new.id and other.name.casefold() == new.name.casefold():
            raise Conflict(f"the warehouse already has dock {other.name}", field="name", hint="name it differently")
    if old is not None and old.active and not new.active:
        for a in ctx.where(Appointment, dock_id=new.id):
            if a.status in LIVE:
                raise RuleViolation(
                    f"dock {new.name} has live appointment {a.confirmation_number}",
                    field="active",
                    hint="reschedule or cancel its appointments first",
                )


def _guard_load_type(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.scan(LoadType):
        if other.id != new.id and other.name.casefold() == new.name.casefold():
            raise Conflict(f"load type {other.name} exists", field="name", hint="reuse it or name it differently")


def _local(ctx: Ctx, wh: Warehouse, when: dt.datetime) -> dt.datetime:
    return when.astimezone(ZoneInfo(wh.timezone))


def _check_slot(ctx: Ctx, dock: Dock, load: LoadType, start: dt.datetime, *, ignore: str | None = None) -> dt.datetime:
    """The slot's end; refuses a slot the dock cannot take."""
    wh = ctx.get(Warehouse, dock.warehouse_id)
    if not dock.active:
        raise RuleViolation(f"dock {dock.name} is inactive", field="dock_id", hint="pick an active dock")
    if load.id not in dock.load_type_ids:
        raise RuleViolation(
            f"dock {dock.name} does not take {load.name}",
            field="load_type_id",
            hint="find a dock for this load type with dockyard__get_availability",
        )
    if start < ctx.now() + dt.timedelta(hours=wh.lead_time_hours):
        raise RuleViolation(
            f"{wh.name} needs {wh.lead_time_hours} hours' notice",
            field="start",
            hint=f"book after {ctx.now() + dt.timedelta(hours=wh.lead_time_hours)}",
        )
    end = start + dt.timedelta(minutes=load.duration_minutes)
    ls, le = _local(ctx, wh, start), _local(ctx, wh, end)
    opens = ls.replace(hour=dock.open_hour, minute=0, second=0, microsecond=0)
    closes = opens + dt.timedelta(hours=dock.close_hour - dock.open_hour)
    if ls < opens or le > closes or (ls.weekday() >= 5 and not dock.open_weekends) or ls.minute % 15:
        raise RuleViolation(
            f"dock {dock.name} works {dock.open_hour}:00-{dock.close_hour}:00 {wh.timezone}"
            + ("" if dock.open_weekends else " on weekdays")
            + " in quarter-hour slots",
            field="start",
            hint="list free slots with dockyard__get_availability",
        )
    for a in ctx.where(Appointment, dock_id=dock.id):
        if a.id != ignore and a.status in LIVE and a.start < end and start < a.end:
            raise Conflict(
                f"dock {dock.name} is booked {a.start:%H:%M}-{a.end:%H:%M} UTC by {a.confirmation_number}",
                field="start",
                hint="list free slots with dockyard__get_availability",
            )
    return end


def _free_slots(ctx: Ctx, dock: Dock, load: LoadType, day: dt.date) -> list[Slot]:
    wh = ctx.get(Warehouse, dock.warehouse_id)
    tz = ZoneInfo(wh.timezone)
    if not dock.active or load.id not in dock.load_type_ids or (day.weekday() >= 5 and not dock.open_weekends):
        return []
    step = dt.timedelta(minutes=load.duration_minutes)
    t = dt.datetime.combine(day, dt.time(dock.open_hour), tzinfo=tz).astimezone(dt.UTC)
    close = dt.datetime.combine(day, dt.time(0), tzinfo=tz).astimezone(dt.UTC) + dt.timedelta(hours=dock.close_hour)
    earliest = ctx.now() + dt.timedelta(hours=wh.lead_time_hours)
    busy = [(a.start, a.end) for a in ctx.where(Appointment, dock_id=dock.id) if a.status in LIVE]
    out: list[Slot] = []
    while t + step <= close:
        if t >= earliest and not any(s < t + step and t < e for s, e in busy):
            out.append(Slot(dock_id=dock.id, start=t, end=t + step))
        t += step
    return out


def _carrier_ref(ctx: Ctx, warehouse_id: str, ref: str, ignore: str | None = None) -> None:
    for a in ctx.where(Appointment, warehouse_id=warehouse_id, ref_number=ref):
        if a.id != ignore and a.status in LIVE:
            raise Conflict(
                f"reference {ref} is already booked as {a.confirmation_number}",
                field="ref_number",
                hint="reschedule that appointment with dockyard__reschedule_appointment instead",
            )


warehouses = service.resource(
    Warehouse,
    name="warehouse",
    plural="warehouses",
    prefix="wh",
    create=("name", "address", "timezone", "lead_time_hours", "contact_email"),
    filters=("timezone", "contact_email"),
    search=("name",),
    update=("name", "lead_time_hours", "contact_email"),
    delete=False,
    guard_create=_guard_warehouse,
    guard_update=_guard_warehouse,
)
docks = service.resource(
    Dock,
    name="dock",
    plural="docks",
    prefix="dock",
    create=("warehouse_id", "name", "load_type_ids", "open_hour", "close_hour", "open_weekends"),
    filters=("warehouse_id", "active"),
    search=("name",),
    update=("name", "load_type_ids", "open_hour", "close_hour", "open_weekends", "active"),
    delete=False,
    guard_create=_guard_dock,
    guard_update=_guard_dock,
)
load_types = service.resource(
    LoadType,
    name="load_type",
    plural="load_types",
    prefix="lt",
    create=("name", "direction", "equipment", "duration_minutes"),
    filters=("direction", "equipment"),
    search=("name",),
    update=("name", "duration_minutes"),
    delete=False,
    guard_create=_guard_load_type,
    guard_update=_guard_load_type,
    title="load type",
)
carriers = service.resource(
    Carrier,
    name="carrier",
    plural="carriers",
    prefix="car",
    create=("company_name", "email", "phone", "scac"),
    filters=("company_name", "email", "scac"),
    search=("company_name", "email"),
    update=("phone", "scac"),
    delete=False,
    unique=("email",),
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="appt",
    create=False,
    filters=("warehouse_id", "dock_id", "carrier_id", "load_type_id", "status", "ref_number", "confirmation_number"),
    search=("ref_number", "confirmation_number", "notes"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("requested",),
            "scheduled",
            "approve the appointment request",
            description="Approve a requested appointment: it is scheduled.",
        ),
        "start": Transition(
            "status",
            ("arrived",),
            "in_progress",
            "start loading or unloading the truck",
            description="Start work on an arrived truck: the appointment is in progress.",
        ),
    },
)


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    carrier = ctx.first(Carrier)
    for dock in ctx.where(Dock, active=True):
        for lt_id in dock.load_type_ids:
            load = ctx.get(LoadType, lt_id)
            for days in range(2, 9):
                slots = _free_slots(ctx, dock, load, ctx.today() + dt.timedelta(days=days))
                if slots and carrier is not None:
                    return {
                        "dock_id": dock.id,
                        "load_type_id": load.id,
                        "carrier_id": carrier.id,
                        "ref_number": "PO-99120",
                        "start": slots[0].start.isoformat(),
                    }
    return None


@service.tool(intent="book a dock appointment", write=True, example=_example_book)
def book_appointment(
    ctx: Ctx,
    dock_id: DockId,
    load_type_id: LoadTypeId,
    carrier_id: CarrierId,
    ref_number: OrderNumber,
    start: DateTime,
    notes: Text = "",
) -> Appointment:
    """Request an appointment on a dock; it ends after the load type's duration.

    The slot must be free, within the dock's local hours, after the warehouse's
    lead time, and the reference not already booked at the warehouse.

    Args:
        dock_id: The dock.
        load_type_id: The load type; the dock must take it.
        carrier_id: The carrier booking.
        ref_number: The PO or BOL number of the load.
        start: When the truck arrives (UTC, on a quarter hour).
        notes: Notes for the dock staff.
    """
    dock = ctx.get(Dock, dock_id, field="dock_id")
    load = ctx.get(LoadType, load_type_id, field="load_type_id")
    ctx.get(Carrier, carrier_id, field="carrier_id")
    end = _check_slot(ctx, dock, load, start)
    _carrier_ref(ctx, dock.warehouse_id, ref_number)
    return ctx.create(
        Appointment,
        dock_id=dock.id,
        warehouse_id=dock.warehouse_id,
        load_type_id=load.id,
        carrier_id=carrier_id,
        ref_number=ref_number,
        start=start,
        end=end,
        notes=notes,
    )


def _example_reschedule(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Appointment, status="scheduled"):
        dock, load = ctx.get(Dock, a.dock_id), ctx.get(LoadType, a.load_type_id)
        for days in range(2, 9):
            slots = _free_slots(ctx, dock, load, ctx.today() + dt.timedelta(days=days))
            if slots:
                return {"appointment_id": a.id, "start": slots[-1].start.isoformat()}
    return None


@service.tool(intent="reschedule the appointment", write=True, example=_example_reschedule)
def reschedule_appointment(
    ctx: Ctx, appointment_id: AppointmentId, start: DateTime, dock_id: DockId | None = None
) -> Appointment:
    """Move a requested or scheduled appointment to another time (and dock); the same slot rules apply.

    Args:
        appointment_id: The appointment.
        start: The new start (UTC).
        dock_id: Another dock of the same warehouse; omit to keep the dock.
    """
    a = _appointment_in(ctx, appointment_id, "requested", "scheduled")
    dock = ctx.get(Dock, dock_id or a.dock_id, field="dock_id")
    if dock.warehouse_id != a.warehouse_id:
        raise RuleViolation(
            "the dock is in another warehouse", field="dock_id", hint="pick a dock of the same warehouse"
        )
    end = _check_slot(ctx, dock, ctx.get(LoadType, a.load_type_id), start, ignore=a.id)
    return ctx.update(a, dock_id=dock.id, start=start, end=end)


def _appointment_in(ctx: Ctx, appointment_id: str, *statuses: str) -> Appointment:
    a = ctx.get(Appointment, appointment_id, field="appointment_id")
    if a.status not in statuses:
        raise RuleViolation(
            f"appointment {a.confirmation_number} is {a.status}",
            field="appointment_id",
            hint=f"this needs an appointment that is {' or '.join(statuses)}",
        )
    return a


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Appointment, status="scheduled"):
        if a.start.date() == ctx.today():
            return {"appointment_id": a.id, "trailer_number": "TRL-4410"}
    return None


@service.tool(intent="check the truck in at the gate", write=True, example=_example_check_in)
def check_in(ctx: Ctx, appointment_id: AppointmentId, trailer_number: Trailer | None = None) -> Appointment:
    """Check in a scheduled appointment's truck on its day (scheduled → arrived).

    Args:
        appointment_id: The appointment.
        trailer_number: The trailer's number.
    """
    a = _appointment_in(ctx, appointment_id, "scheduled")
    wh = ctx.get(Warehouse, a.warehouse_id)
    if _local(ctx, wh, a.start).date() != _local(ctx, wh, ctx.now()).date():
        raise RuleViolation(
            f"appointment {a.confirmation_number} is on {a.start:%Y-%m-%d}",
            field="appointment_id",
            hint="check in on the appointment's day, or reschedule it",
        )
    return ctx.update(a, status="arrived", arrived_at=ctx.now(), trailer_number=trailer_number)


@service.tool(
    intent="complete the appointment",
    write=True,
    example=first_example(Appointment, "appointment_id", where={"status": "in_progress"}),
)
def complete_appointment(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Finish loading or unloading (in_progress → completed); the dock is free.

    Args:
        appointment_id: The appointment in progress.
    """
    a = _appointment_in(ctx, appointment_id, "in_progress")
    return ctx.update(a, status="completed", completed_at=ctx.now())


@service.tool(
    intent="cancel the appointment",
    write=True,
    destructive=True,
    example=first_example(Appointment, "appointment_id", where={"status": "requested"}, reason="Load not ready"),
)
def cancel_appointment(ctx: Ctx, appointment_id: AppointmentId, reason: Text) -> Appointment:
    """Cancel a requested or scheduled appointment, with a reason; its slot is freed.

    Args:
        appointment_id: The appointment.
        reason: Why (required).
    """
    a = _appointment_in(ctx, appointment_id, "requested", "scheduled")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    return ctx.update(a, status="cancelled", cancel_reason=reason.strip())


def _example_no_show(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Appointment, status="scheduled"):
        if a.start < ctx.now():
            return {"appointment_id": a.id}
    return None


@service.tool(intent="mark the appointment a no-show", write=True, example=_example_no_show)
def mark_no_show(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Mark a scheduled appointment whose start has passed without the truck as a no-show.

    Args:
        appointment_id: The appointment.
    """
    a = _appointment_in(ctx, appointment_id, "scheduled")
    if a.start > ctx.now():
        raise RuleViolation(
            f"appointment {a.confirmation_number} starts at {a.start:%Y-%m-%d %H:%M} UTC",
            field="appointment_id",
            hint="wait until its start has passed",
        )
    return ctx.update(a, status="no_show")


def _example_availability(ctx: Ctx) -> dict[str, Any] | None:
    dock = ctx.first(Dock, active=True)
    if dock is None or not dock.load_type_ids:
        return None
    return {
        "warehouse_id": dock.warehouse_id,
        "load_type_id": dock.load_type_ids[0],
        "date": (ctx.today() + dt.timedelta(days=3)).isoformat(),
    }


@service.tool(intent="find free dock slots", example=_example_availability)
def get_availability(ctx: Ctx, warehouse_id: WarehouseId, load_type_id: LoadTypeId, date: Date) -> list[Slot]:
    """The free slots of a day for a load type on the warehouse's active docks that take it.

    Args:
        warehouse_id: The warehouse.
        load_type_id: The load type.
        date: The local day.
    """
    ctx.get(Warehouse, warehouse_id, field="warehouse_id")
    load = ctx.get(LoadType, load_type_id, field="load_type_id")
    out: list[Slot] = []
    for dock in ctx.where(Dock, warehouse_id=warehouse_id):
        out.extend(_free_slots(ctx, dock, load, date))
    return sorted(out, key=lambda s: (s.start, s.dock_id))


# -- seed -------------------------------------------------------------------------------------

LOADS: tuple[tuple[str, Direction, Equipment, int], ...] = (
    ("Inbound palletized 53ft", "inbound", "dry_van", 60),
    ("Inbound floor-loaded container", "inbound", "container", 180),
    ("Inbound refrigerated", "inbound", "reefer", 90),
    ("Outbound LTL pickup", "outbound", "box_truck", 30),
    ("Outbound full truckload", "outbound", "dry_van", 90),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two warehouses of the home company, docks and load types, carriers from the world's companies, appointments."""
    pop = s.population
    yard = pop.staff("Operations", "Logistics", fallback=3)
    loads = [s.create(LoadType, name=n, direction=d, equipment=e, duration_minutes=m) for n, d, e, m in LOADS]
    away = [c for c in pop.customers if c.place.city != pop.home.place.city][:1]
    whs: list[Warehouse] = []
    docks_made: list[Dock] = []
    for k, site in enumerate([pop.home, *away]):
        place = site.place
        addr = site.address if k == 0 else site.address.model_copy(update={"street": "4 Logistics Park Road"})
        wh = s.create(
            Warehouse,
            name=f"{place.city} Distribution Center",
            address=addr,
            timezone=place.timezone,
            lead_time_hours=24 if k == 0 else 48,
            contact_email=yard[k % len(yard)].email,
            created_at=s.ago(days=500),
        )
        whs.append(wh)
        for d in range(3):
            kinds = (loads[0].id, loads[1].id, loads[2].id) if d == 0 else (loads[0].id, loads[3].id, loads[4].id)
            docks_made.append(
                s.create(
                    Dock,
                    warehouse_id=wh.id,
                    name=f"Door {d + 1}",
                    load_type_ids=kinds,
                    open_hour=6,
                    close_hour=22 if d == 0 else 18,
                    open_weekends=d == 0,
                    active=d != 2 or k != 0,
                )
            )
    carriers_made = []
    for k, company in enumerate(pop.customers[:6]):
        contact = pop.first_contact(company)
        carriers_made.append(
            s.create(
                Carrier,
                company_name=company.name,
                email=contact.email if contact else f"dispatch@{company.domain}",
                phone=contact.phone if contact else None,
                scac="".join(ch for ch in company.name.upper() if ch.isalpha())[:4] or None,
                created_at=s.ago(days=300 - k),
            )
        )
    plan: tuple[tuple[Status, int, int], ...] = (
        ("completed", -3, 8),
        ("completed", -2, 10),
        ("no_show", -1, 9),
        ("cancelled", 2, 11),
        ("in_progress", 0, -2),
        ("arrived", 0, -1),
        ("scheduled", 0, 2),
        ("scheduled", 0, -3),
        ("scheduled", 3, 9),
        ("requested", 4, 13),
        ("requested", 5, 10),
    )
    for n, (status, days, hour) in enumerate(plan):
        dock = docks_made[0] if days == 0 else docks_made[(n % 2) * 3 + (n % 2)]
        wh = next(w for w in whs if w.id == dock.warehouse_id)
        load = next(lt for lt in loads if lt.id in dock.load_type_ids and lt.duration_minutes <= 90)
        if days == 0:
            start = s.now.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=hour)
        else:
            local_day = (s.now + dt.timedelta(days=days)).astimezone(ZoneInfo(wh.timezone)).date()
            while local_day.weekday() >= 5 and not dock.open_weekends:
                local_day += dt.timedelta(days=1)
            start = dt.datetime.combine(local_day, dt.time(hour), tzinfo=ZoneInfo(wh.timezone)).astimezone(dt.UTC)
        s.create(
            Appointment,
            dock_id=dock.id,
            warehouse_id=dock.warehouse_id,
            load_type_id=load.id,
            carrier_id=carriers_made[n % len(carriers_made)].id,
            ref_number=f"PO-{41000 + 17 * n}",
            start=start,
            end=start + dt.timedelta(minutes=load.duration_minutes),
            status=status,
            trailer_number=f"TRL-{300 + n}" if status in ("arrived", "in_progress", "completed") else None,
            arrived_at=start - dt.timedelta(minutes=10) if status in ("arrived", "in_progress", "completed") else None,
            completed_at=start + dt.timedelta(minutes=load.duration_minutes) if status == "completed" else None,
            cancel_reason="Carrier capacity" if status == "cancelled" else None,
            created_at=s.ago(days=7),
            updated_at=s.ago(hours=2),
        )
