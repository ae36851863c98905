"""Slotwise Scheduling: hosts' event types, weekly availability, bookable times, bookings and invitees.

Modeled on the Calendly API v2 (users, event_types, availability schedules with
weekly rules and date overrides, event_type_available_times, scheduled_events,
invitees, cancellation, no-shows, user_busy_times): invitees book a host's
active event type only inside the host's availability (in the host's time
zone), after the minimum notice and within the daily maximum; a host is never
double-booked, counting each event's buffers before and after; a group event
type fills one event up to its seat limit; in-person types need an address and
phone calls the invitee's number; only future bookings are canceled or
rescheduled (a one-on-one invitee's cancellation cancels the event); a no-show
is marked only after the event has ended.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints, model_validator

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation, ToolFailure
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    MeetingLink,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "booking",
    title="Slotwise Scheduling",
    category="calendar",
    modeled_on="Calendly API v2 (users, event_types, availability schedules, event_type_available_times, "
    "scheduled_events, invitees, cancellations, invitee_no_shows, user_busy_times)",
    description="Appointment scheduling: hosts publish event types with durations, buffers, notice and "
    "daily limits over their weekly availability; invitees book open times without double-booking the "
    "host, and bookings are canceled, rescheduled or marked as no-shows.",
)

HostId = Annotated[str, IdOf("booking.host")]
ScheduleId = Annotated[str, IdOf("booking.availability_schedule")]
EventTypeId = Annotated[str, IdOf("booking.event_type")]
EventId = Annotated[str, IdOf("booking.scheduled_event")]
InviteeId = Annotated[str, IdOf("booking.invitee")]

Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
WEEKDAYS: tuple[Weekday, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ClockTime = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
Duration = Literal[15, 20, 30, 45, 60, 90, 120]
Buffer = Literal[0, 5, 10, 15, 30, 60]
LocationKind = Literal["google_meet", "zoom", "phone", "in_person"]
MAX_RANGE_DAYS = 7


class Interval(Value):
    """Hours of one weekday when the host can be booked."""

    weekday: Weekday = Field(description="Day of the week.")
    start: ClockTime = Field(description="From (HH:MM, host's time zone).")
    end: ClockTime = Field(description="Until (HH:MM, host's time zone), after start.")


class Host(Record):
    """A person whose time can be booked."""

    id: HostId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    timezone: Timezone
    """The host's time zone; availability is in it."""
    scheduling_url: Url
    """The host's public booking page."""


class AvailabilitySchedule(Record):
    """A host's weekly hours and the dates they are away."""

    id: ScheduleId
    host_id: HostId
    """The host."""
    name: Title
    """Schedule name."""
    rules: list[Interval] = Field(default_factory=list, max_length=28)
    """Weekly bookable intervals."""
    blocked_dates: list[Date] = Field(default_factory=list, max_length=60)
    """Dates with no availability (holidays, time off)."""
    is_default: bool = False
    """The host's default schedule."""


class EventType(Record):
    """Something a host can be booked for (a 30-minute call, a demo, a workshop)."""

    id: EventTypeId
    host_id: HostId
    """The host."""
    name: Title
    """Name shown to invitees; unique per host."""
    slug: str = ""
    """URL slug derived from the name."""
    description: Text = ""
    """What the meeting is about."""
    duration: Duration = 30
    """Length in minutes."""
    kind: Literal["one_on_one", "group"] = "one_on_one"
    """one_on_one or group (several invitees in one event)."""
    max_invitees: int = Field(default=1, ge=1, le=100)
    """Seats per event: 1 for one-on-one, at least 2 for group."""
    location_kind: LocationKind = "google_meet"
    """google_meet, zoom, phone (the host calls the invitee) or in_person."""
    location_address: PostalAddress | None = None
    """Where an in-person meeting takes place."""
    buffer_before: Buffer = 0
    """Free minutes kept before each event."""
    buffer_after: Buffer = 0
    """Free minutes kept after each event."""
    min_notice_minutes: int = Field(default=240, ge=0, le=60 * 24 * 30)
    """How far ahead a booking must be made."""
    max_per_day: int | None = Field(default=None, ge=1, le=50)
    """Most events of this type per day; null for no limit."""
    schedule_id: ScheduleId | None = None
    """The availability schedule used; null for the host's default."""
    price: Cents | None = None
    """Price an invitee pays, in cents; null when free."""
    currency: Currency | None = None
    """Currency of the price."""
    active: bool = True
    """Inactive event types cannot be booked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""

    @model_validator(mode="before")
    @classmethod
    def _derive_slug(cls, data: Any) -> Any:
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            slug = re.sub(r"[^a-z0-9]+", "-", data["name"].lower()).strip("-")
            data = {**data, "slug": slug or "event"}
        return data


class ScheduledEvent(Record):
    """A booked meeting."""

    id: EventId
    event_type_id: EventTypeId
    """What was booked."""
    host_id: HostId
    """The host."""
    name: Title
    """The event type's name."""
    start_time: DateTime
    """Start."""
    end_time: DateTime
    """End."""
    buffer_before: Buffer = 0
    """Buffer kept before it, in minutes."""
    buffer_after: Buffer = 0
    """Buffer kept after it, in minutes."""
    status: Literal["active", "canceled"] = "active"
    """active or canceled."""
    location_kind: LocationKind
    """How the meeting happens."""
    join_url: MeetingLink | None = None
    """Link to join an online meeting."""
    location_address: PostalAddress | None = None
    """Address of an in-person meeting."""
    invitees_count: int = 0
    """Active invitees."""
    canceled_by: Email | None = None
    """Who canceled it."""
    cancel_reason: Text | None = None
    """Why it was canceled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""


class Invitee(Record):
    """A person booked into a scheduled event."""

    id: InviteeId
    scheduled_event_id: EventId
    """The event."""
    name: PersonName
    """Invitee's name."""
    email: Email
    """Invitee's e-mail."""
    phone: Phone | None = None
    """Number the host calls (phone events)."""
    company_name: CompanyName | None = None
    """Invitee's company, from the booking form."""
    notes: Text = ""
    """What the invitee wants to discuss."""
    status: Literal["active", "canceled"] = "active"
    """active or canceled."""
    rescheduled: bool = False
    """Whether the booking was canceled by rescheduling it."""
    new_invitee_id: InviteeId | None = None
    """The booking that replaced this one when rescheduled."""
    cancel_reason: Text | None = None
    """Why the invitee canceled."""
    no_show: bool = False
    """Whether the invitee did not show up."""
    created_at: Annotated[DateTime, CREATED]
    """When they booked."""


# -- rules ------------------------------------------------------------------------------------


def _minutes(clock: str) -> int:
    h, m = clock.split(":")
    return int(h) * 60 + int(m)


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    by_day: dict[str, list[tuple[int, int]]] = {}
    for i, iv in enumerate(new.rules):
        a, b = _minutes(iv.start), _minutes(iv.end)
        if b <= a:
            raise RuleViolation(
                f"rule {i} ends before it starts", field=f"rules.{i}.end", hint="the end must be after the start"
            )
        for c, d in by_day.get(iv.weekday, []):
            if a < d and c < b:
                raise RuleViolation(
                    f"rule {i} overlaps another {iv.weekday} interval",
                    field=f"rules.{i}",
                    hint="merge overlapping intervals into one",
                )
        by_day.setdefault(iv.weekday, []).append((a, b))


def _guard_event_type(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(EventType, host_id=new.host_id, slug=new.slug):
        if other.id != new.id:
            raise Conflict(
                f"the host already has an event type named {other.name}", field="name", hint="pick another name"
            )
    if (new.location_kind == "in_person") != (new.location_address is not None):
        raise RuleViolation(
            "in-person event types need an address, and only they",
            field="location_address",
            hint="give location_address with location_kind 'in_person', or omit it",
        )
    if new.kind == "one_on_one" and new.max_invitees != 1:
        raise RuleViolation("one-on-one events have one seat", field="max_invitees", hint="set max_invitees to 1")
    if new.kind == "group" and new.max_invitees < 2:
        raise RuleViolation("group events need at least 2 seats", field="max_invitees", hint="raise max_invitees")
    if (new.price is None) != (new.currency is None):
        raise RuleViolation("a price needs a currency", field="currency", hint="give both price and currency")
    if new.schedule_id is not None:
        sched = ctx.get(AvailabilitySchedule, new.schedule_id, field="schedule_id")
        if sched.host_id != new.host_id:
            raise RuleViolation(
                "the schedule belongs to another host", field="schedule_id", hint="use one of the host's schedules"
            )


hosts = service.resource(
    Host,
    name="host",
    plural="hosts",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "timezone"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
schedules = service.resource(
    AvailabilitySchedule,
    name="availability_schedule",
    plural="availability_schedules",
    prefix="sch",
    create=False,
    get=False,
    filters=("host_id", "is_default"),
    update=("name", "rules", "blocked_dates"),
    delete=False,
    guard_update=_guard_schedule,
    title="availability schedule",
)
event_types = service.resource(
    EventType,
    name="event_type",
    plural="event_types",
    prefix="et",
    create=(
        "host_id",
        "name",
        "description",
        "duration",
        "kind",
        "max_invitees",
        "location_kind",
        "location_address",
        "buffer_before",
        "buffer_after",
        "min_notice_minutes",
        "max_per_day",
        "schedule_id",
        "price",
        "currency",
    ),
    filters=("host_id", "kind", "location_kind", "active", "slug"),
    search=("name", "description"),
    update=(
        "name",
        "description",
        "duration",
        "buffer_before",
        "buffer_after",
        "min_notice_minutes",
        "max_per_day",
        "schedule_id",
        "price",
        "currency",
    ),
    delete=False,
    transitions={
        "activate": Transition("active", (False,), True, "turn the event type on"),
        "deactivate": Transition("active", (True,), False, "turn the event type off"),
    },
    guard_create=_guard_event_type,
    guard_update=_guard_event_type,
    title="event type",
)
events = service.resource(
    ScheduledEvent,
    name="scheduled_event",
    plural="scheduled_events",
    prefix="ev",
    create=False,
    filters=("event_type_id", "host_id", "status", "location_kind"),
    search=("name",),
    delete=False,
    title="scheduled event",
)
invitees = service.resource(
    Invitee,
    name="invitee",
    plural="invitees",
    prefix="inv",
    create=False,
    get=False,
    filters=("scheduled_event_id", "email", "status", "no_show", "company_name"),
    search=("name", "email", "notes"),
    delete=False,
)


# -- availability -----------------------------------------------------------------------------


def _schedule_of(ctx: Ctx, et: EventType) -> AvailabilitySchedule:
    if et.schedule_id is not None:
        return ctx.get(AvailabilitySchedule, et.schedule_id)
    found = ctx.first(AvailabilitySchedule, host_id=et.host_id, is_default=True)
    if found is None:
        raise RuleViolation("the host has no availability", field="event_type_id", hint="give the host a schedule")
    return found


def _padded(start: dt.datetime, end: dt.datetime, before: int, after: int) -> tuple[dt.datetime, dt.datetime]:
    return start - dt.timedelta(minutes=before), end + dt.timedelta(minutes=after)


def _check_slot(ctx: Ctx, et: EventType, start: dt.datetime, exclude: str | None = None) -> ScheduledEvent | None:
    """Raise why ``start`` cannot be booked; return the group event it would join, if any."""
    host = ctx.get(Host, et.host_id)
    tz = ZoneInfo(host.timezone)
    end = start + dt.timedelta(minutes=et.duration)
    if start < ctx.now() + dt.timedelta(minutes=et.min_notice_minutes):
        raise RuleViolation(
            f"{et.name} must be booked at least {et.min_notice_minutes} minutes ahead",
            field="start_time",
            hint="pick a later time from booking__available_times",
        )
    local_start, local_end = start.astimezone(tz), end.astimezone(tz)
    sched = _schedule_of(ctx, et)
    day = local_start.date()
    inside = local_end.date() == day and day not in sched.blocked_dates
    if inside:
        a = local_start.hour * 60 + local_start.minute
        b = local_end.hour * 60 + local_end.minute
        weekday = WEEKDAYS[day.weekday()]
        inside = any(r.weekday == weekday and _minutes(r.start) <= a and b <= _minutes(r.end) for r in sched.rules)
    if not inside:
        raise RuleViolation(
            f"{host.name} is not available {local_start.strftime('%A %H:%M')}-{local_end.strftime('%H:%M')} "
            f"({host.timezone})",
            field="start_time",
            hint="pick a time from booking__available_times",
        )
    mine = [e for e in ctx.where(ScheduledEvent, host_id=host.id, status="active") if e.id != exclude]
    joined = None
    if et.kind == "group":
        for e in mine:
            if e.event_type_id == et.id and e.start_time == start:
                if e.invitees_count >= et.max_invitees:
                    raise Conflict(
                        f"the {et.name} at {start.isoformat()} is full ({et.max_invitees} seats)",
                        field="start_time",
                        hint="pick another time",
                    )
                joined = e
    if joined is None:
        if et.max_per_day is not None:
            same_day = [e for e in mine if e.event_type_id == et.id and e.start_time.astimezone(tz).date() == day]
            if len(same_day) >= et.max_per_day:
                raise RuleViolation(
                    f"{host.name} takes at most {et.max_per_day} {et.name} per day",
                    field="start_time",
                    hint="pick another day",
                )
        a0, b0 = _padded(start, end, et.buffer_before, et.buffer_after)
        for e in mine:
            a1, b1 = _padded(e.start_time, e.end_time, e.buffer_before, e.buffer_after)
            if a0 < b1 and a1 < b0:
                raise Conflict(
                    f"{host.name} is busy with {e.name} at {e.start_time.isoformat()} (buffers included)",
                    field="start_time",
                    hint="pick a time from booking__available_times",
                )
    return joined


class Slot(BaseModel):
    """A time that can be booked."""

    start_time: DateTime = Field(description="Start of the slot (UTC).")
    end_time: DateTime = Field(description="End of the slot (UTC).")
    seats_left: int = Field(description="Seats still free (1 for one-on-one).")


def _example_available(ctx: Ctx) -> dict[str, Any] | None:
    et = next((e for e in ctx.scan(EventType) if e.active), None)
    if et is None:
        return None
    first = ctx.now().date()
    return {
        "event_type_id": et.id,
        "start_date": first.isoformat(),
        "end_date": (first + dt.timedelta(days=6)).isoformat(),
    }


@service.tool(intent="find open times for the event type", example=_example_available)
def available_times(ctx: Ctx, event_type_id: EventTypeId, start_date: Date, end_date: Date) -> list[Slot]:
    """List the times an event type can be booked between two dates (at most 7 days).

    Slots start every 30 minutes (15 for shorter events) inside the host's
    weekly hours in their time zone, skip blocked dates, respect the minimum
    notice and the daily maximum, and leave room for every event's buffers.

    Args:
        event_type_id: The event type.
        start_date: First day (host's calendar).
        end_date: Last day, at most 7 days after the first.
    """
    et = ctx.get(EventType, event_type_id, field="event_type_id")
    if not et.active:
        raise RuleViolation(f"{et.name} is inactive", field="event_type_id", hint="activate it first")
    if end_date < start_date or (end_date - start_date).days >= MAX_RANGE_DAYS:
        raise RuleViolation(
            f"the range must run forward and span at most {MAX_RANGE_DAYS} days",
            field="end_date",
            hint="ask for a week at a time",
        )
    tz = ZoneInfo(ctx.get(Host, et.host_id).timezone)
    sched = _schedule_of(ctx, et)
    step = 15 if et.duration < 30 else 30
    out: list[Slot] = []
    day = start_date
    while day <= end_date:
        weekday = WEEKDAYS[day.weekday()]
        for rule in sorted((r for r in sched.rules if r.weekday == weekday), key=lambda r: r.start):
            t = _minutes(rule.start)
            while t + et.duration <= _minutes(rule.end):
                local = dt.datetime(day.year, day.month, day.day, t // 60, t % 60, tzinfo=tz)
                start = local.astimezone(dt.UTC)
                t += step
                try:
                    joined = _check_slot(ctx, et, start)
                except ToolFailure:
                    continue
                seats = et.max_invitees - (joined.invitees_count if joined else 0)
                out.append(Slot(start_time=start, end_time=start + dt.timedelta(minutes=et.duration), seats_left=seats))
        day += dt.timedelta(days=1)
    return out


def _join_url(kind: str, event_id: str) -> str | None:
    digits = str(int(hashlib.sha256(event_id.encode()).hexdigest(), 16))[:10]
    if kind == "zoom":
        return f"https://zoom.us/j/{digits}"
    if kind == "google_meet":
        code = hashlib.sha256(event_id.encode()).hexdigest()
        return f"https://meet.google.com/{code[:3]}-{code[3:7]}-{code[7:10]}"
    return None


def _book(
    ctx: Ctx,
    et: EventType,
    start: dt.datetime,
    name: str,
    email: str,
    phone: str | None,
    company: str | None,
    notes: str,
    exclude: str | None = None,
) -> Invitee:
    if not et.active:
        raise RuleViolation(f"{et.name} is inactive", field="event_type_id", hint="book an active event type")
    if et.location_kind == "phone" and phone is None:
        raise RuleViolation(f"{et.name} is a phone call", field="invitee_phone", hint="give the invitee's number")
    host = ctx.get(Host, et.host_id)
    if email == host.email:
        raise RuleViolation("hosts cannot book themselves", field="invitee_email", hint="book as the invitee")
    event = _check_slot(ctx, et, start, exclude)
    if event is not None:
        if ctx.first(Invitee, scheduled_event_id=event.id, email=email, status="active") is not None:
            raise Conflict(f"{email} is already booked into this event", field="invitee_email", hint="nothing to do")
        event = ctx.update(event, invitees_count=event.invitees_count + 1)
    else:
        event = ctx.create(
            ScheduledEvent,
            event_type_id=et.id,
            host_id=host.id,
            name=et.name,
            start_time=start,
            end_time=start + dt.timedelta(minutes=et.duration),
            buffer_before=et.buffer_before,
            buffer_after=et.buffer_after,
            location_kind=et.location_kind,
            location_address=et.location_address,
            invitees_count=1,
        )
        url = _join_url(et.location_kind, event.id)
        if url is not None:
            event = ctx.update(event, join_url=url)
    return ctx.create(
        Invitee,
        scheduled_event_id=event.id,
        name=name,
        email=email,
        phone=phone,
        company_name=company,
        notes=notes,
    )


class Booking(BaseModel):
    """A booked invitee and their event."""

    invitee: Invitee = Field(description="The invitee's booking.")
    scheduled_event: ScheduledEvent = Field(description="The event they are booked into.")


def _future_active(ctx: Ctx, inv: Invitee, field: str) -> ScheduledEvent:
    if inv.status != "active":
        raise RuleViolation(f"booking {inv.id} is already canceled", field=field, hint="nothing to do")
    event = ctx.get(ScheduledEvent, inv.scheduled_event_id)
    if event.start_time <= ctx.now():
        raise RuleViolation(
            "the event has already started", field=field, hint="only future bookings can change; mark no-shows instead"
        )
    return event


# -- examples ---------------------------------------------------------------------------------


def _bookable(ctx: Ctx) -> tuple[EventType, dt.datetime] | None:
    for et in ctx.where(EventType, active=True, location_kind="google_meet"):
        start = ctx.today() + dt.timedelta(days=1)
        for k in range(0, 21, 7):
            slots = available_times(ctx, et.id, start + dt.timedelta(days=k), start + dt.timedelta(days=k + 6))
            if slots:
                return et, slots[0].start_time
    return None


def _someone(ctx: Ctx) -> Any:
    return ctx.population.contacts[0]


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    found = _bookable(ctx)
    if found is None:
        return None
    et, start = found
    p = _someone(ctx)
    return {
        "event_type_id": et.id,
        "start_time": start.isoformat(),
        "invitee_name": p.name,
        "invitee_email": p.email,
    }


def _future_invitee(ctx: Ctx) -> Invitee | None:
    for inv in ctx.where(Invitee, status="active"):
        ev = ctx.get(ScheduledEvent, inv.scheduled_event_id)
        if ev.start_time > ctx.now() and ev.status == "active":
            return inv
    return None


def _example_cancel_event(ctx: Ctx) -> dict[str, Any] | None:
    inv = _future_invitee(ctx)
    if inv is None:
        return None
    ev = ctx.get(ScheduledEvent, inv.scheduled_event_id)
    host = ctx.get(Host, ev.host_id)
    return {"scheduled_event_id": ev.id, "canceled_by": host.email, "reason": "Host is ill."}


def _example_cancel_invitee(ctx: Ctx) -> dict[str, Any] | None:
    inv = _future_invitee(ctx)
    return None if inv is None else {"invitee_id": inv.id, "reason": "Something came up."}


def _example_reschedule(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.where(Invitee, status="active"):
        ev = ctx.get(ScheduledEvent, inv.scheduled_event_id)
        if ev.start_time <= ctx.now():
            continue
        et = ctx.get(EventType, ev.event_type_id)
        if not et.active:
            continue
        day = ctx.today() + dt.timedelta(days=1)
        for k in range(0, 21, 7):
            for slot in available_times(ctx, et.id, day + dt.timedelta(days=k), day + dt.timedelta(days=k + 6)):
                if slot.start_time != ev.start_time:
                    return {"invitee_id": inv.id, "new_start_time": slot.start_time.isoformat()}
    return None


def _example_busy(ctx: Ctx) -> dict[str, Any]:
    host = next(iter(ctx.scan(Host)))
    start = ctx.now()
    return {"host_id": host.id, "start_time": start.isoformat(), "end_time": (start + dt.timedelta(days=7)).isoformat()}


# -- bookings ---------------------------------------------------------------------------------


@service.tool(intent="book a meeting with the host", write=True, example=_example_book)
def book_event(
    ctx: Ctx,
    event_type_id: EventTypeId,
    start_time: DateTime,
    invitee_name: PersonName,
    invitee_email: Email,
    invitee_phone: Phone | None = None,
    company_name: CompanyName | None = None,
    notes: Text = "",
) -> Booking:
    """Book an invitee into an event type at a start time.

    The time must be open (see booking__available_times): inside the host's
    hours, after the minimum notice, under the daily maximum, and clear of the
    host's other events and their buffers. A group event type adds the
    invitee to the event already at that time while seats are left. Phone
    events need the invitee's number.

    Args:
        event_type_id: The event type.
        start_time: Start of the meeting.
        invitee_name: Invitee's full name.
        invitee_email: Invitee's e-mail.
        invitee_phone: Invitee's phone number (required for phone events).
        company_name: Invitee's company.
        notes: What the invitee wants to discuss.
    """
    et = ctx.get(EventType, event_type_id, field="event_type_id")
    inv = _book(ctx, et, start_time, invitee_name, invitee_email, invitee_phone, company_name, notes)
    return Booking(invitee=inv, scheduled_event=ctx.get(ScheduledEvent, inv.scheduled_event_id))


@service.tool(intent="cancel the meeting", write=True, destructive=True, example=_example_cancel_event)
def cancel_event(ctx: Ctx, scheduled_event_id: EventId, canceled_by: Email, reason: Text = "") -> ScheduledEvent:
    """Cancel a future event for everyone booked into it.

    The host or one of its invitees may cancel; past events cannot be canceled.

    Args:
        scheduled_event_id: The event.
        canceled_by: E-mail of the host or an invitee canceling.
        reason: Why it is canceled.
    """
    ev = ctx.get(ScheduledEvent, scheduled_event_id, field="scheduled_event_id")
    if ev.status == "canceled":
        raise Conflict("the event is already canceled", field="scheduled_event_id", hint="nothing to do")
    if ev.start_time <= ctx.now():
        raise RuleViolation("the event has already started", field="scheduled_event_id", hint="it cannot be canceled")
    host = ctx.get(Host, ev.host_id)
    booked = ctx.where(Invitee, scheduled_event_id=ev.id, status="active")
    if canceled_by != host.email and all(i.email != canceled_by for i in booked):
        raise RuleViolation(
            f"{canceled_by} is neither the host nor an invitee", field="canceled_by", hint=f"the host is {host.email}"
        )
    for inv in booked:
        ctx.update(inv, status="canceled", cancel_reason=reason or "Event canceled")
    return ctx.update(ev, status="canceled", canceled_by=canceled_by, cancel_reason=reason, invitees_count=0)


@service.tool(intent="cancel the invitee's booking", write=True, example=_example_cancel_invitee)
def cancel_invitee(ctx: Ctx, invitee_id: InviteeId, reason: Text = "") -> Booking:
    """Cancel one invitee's future booking; a one-on-one event (or an emptied group event) is canceled too.

    Args:
        invitee_id: The booking.
        reason: Why they cancel.
    """
    inv = ctx.get(Invitee, invitee_id, field="invitee_id")
    ev = _future_active(ctx, inv, "invitee_id")
    inv = ctx.update(inv, status="canceled", cancel_reason=reason or "Canceled by invitee")
    left = ev.invitees_count - 1
    if left <= 0:
        ev = ctx.update(ev, status="canceled", canceled_by=inv.email, cancel_reason=reason, invitees_count=0)
    else:
        ev = ctx.update(ev, invitees_count=left)
    return Booking(invitee=inv, scheduled_event=ev)


@service.tool(intent="move the booking to another time", write=True, example=_example_reschedule)
def reschedule_invitee(ctx: Ctx, invitee_id: InviteeId, new_start_time: DateTime) -> Booking:
    """Move a future booking to another open time of the same event type.

    The old booking is canceled as rescheduled and points to the new one.

    Args:
        invitee_id: The booking.
        new_start_time: The new start.
    """
    inv = ctx.get(Invitee, invitee_id, field="invitee_id")
    ev = _future_active(ctx, inv, "invitee_id")
    if new_start_time == ev.start_time:
        raise RuleViolation("the booking is already at that time", field="new_start_time", hint="pick another time")
    et = ctx.get(EventType, ev.event_type_id)
    exclude = ev.id if ev.invitees_count <= 1 else None
    try:
        new = _book(ctx, et, new_start_time, inv.name, inv.email, inv.phone, inv.company_name, inv.notes, exclude)
    except ToolFailure as exc:
        if exc.field == "start_time":
            exc.field = "new_start_time"
        raise
    ctx.update(inv, status="canceled", rescheduled=True, new_invitee_id=new.id, cancel_reason="Rescheduled")
    left = ev.invitees_count - 1
    if left <= 0:
        ctx.update(ev, status="canceled", canceled_by=inv.email, cancel_reason="Rescheduled", invitees_count=0)
    else:
        ctx.update(ev, invitees_count=left)
    return Booking(invitee=new, scheduled_event=ctx.get(ScheduledEvent, new.scheduled_event_id))


@service.tool(
    intent="mark the invitee as a no-show",
    write=True,
    example=first_example(
        Invitee,
        "invitee_id",
        where={"status": "active", "no_show": False},
        match=lambda ctx, inv: ctx.get(ScheduledEvent, inv.scheduled_event_id).end_time <= ctx.now(),
    ),
)
def mark_no_show(ctx: Ctx, invitee_id: InviteeId) -> Invitee:
    """Record that an invitee did not attend; only once the event has ended.

    Args:
        invitee_id: The booking.
    """
    inv = ctx.get(Invitee, invitee_id, field="invitee_id")
    if inv.status != "active":
        raise RuleViolation("a canceled booking cannot be a no-show", field="invitee_id", hint="pick an active one")
    if inv.no_show:
        raise Conflict("already marked as a no-show", field="invitee_id", hint="nothing to do")
    ev = ctx.get(ScheduledEvent, inv.scheduled_event_id)
    if ev.end_time > ctx.now():
        raise RuleViolation(
            "the event has not ended yet", field="invitee_id", hint=f"wait until {ev.end_time.isoformat()}"
        )
    return ctx.update(inv, no_show=True)


class BusyTime(BaseModel):
    """A time the host is booked."""

    scheduled_event_id: EventId = Field(description="The event.")
    name: Title = Field(description="The event's name.")
    start_time: DateTime = Field(description="Start.")
    end_time: DateTime = Field(description="End.")
    buffered_start_time: DateTime = Field(description="Start including the buffer before.")
    buffered_end_time: DateTime = Field(description="End including the buffer after.")


@service.tool(intent="see when the host is busy", example=_example_busy)
def list_busy_times(ctx: Ctx, host_id: HostId, start_time: DateTime, end_time: DateTime) -> list[BusyTime]:
    """List a host's active events (with buffers) overlapping a window of at most 7 days.

    Args:
        host_id: The host.
        start_time: Window start.
        end_time: Window end.
    """
    ctx.get(Host, host_id, field="host_id")
    if end_time <= start_time or end_time - start_time > dt.timedelta(days=MAX_RANGE_DAYS):
        raise RuleViolation("the window must run forward, 7 days at most", field="end_time", hint="narrow it")
    out = []
    for e in ctx.where(ScheduledEvent, host_id=host_id, status="active"):
        a, b = _padded(e.start_time, e.end_time, e.buffer_before, e.buffer_after)
        if a < end_time and start_time < b:
            out.append(
                BusyTime(
                    scheduled_event_id=e.id,
                    name=e.name,
                    start_time=e.start_time,
                    end_time=e.end_time,
                    buffered_start_time=a,
                    buffered_end_time=b,
                )
            )
    out.sort(key=lambda b: (b.start_time, b.scheduled_event_id))
    return out


# -- seed -------------------------------------------------------------------------------------

TYPES: dict[str, tuple[dict[str, Any], ...]] = {
    "Sales": (
        {"name": "Product demo", "duration": 45, "location_kind": "zoom", "buffer_after": 15, "max_per_day": 4},
        {"name": "Intro call", "duration": 15, "location_kind": "phone", "min_notice_minutes": 60},
        {"name": "On-site visit", "duration": 90, "location_kind": "in_person", "min_notice_minutes": 2880},
    ),
    "Support": (
        {"name": "Onboarding workshop", "duration": 60, "kind": "group", "max_invitees": 8, "location_kind": "zoom"},
        {"name": "Support session", "duration": 30, "buffer_before": 5, "buffer_after": 5},
    ),
    "People": (
        {"name": "Candidate interview", "duration": 45, "buffer_after": 15, "max_per_day": 3},
        {"name": "Office hours", "duration": 20, "active": False},
    ),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Sales, Support and People staff as hosts with weekly hours, event types, past and future bookings."""
    pop = s.population
    now = s.now
    staff = pop.staff(*TYPES, fallback=0)
    outside = list(pop.contacts) + list(pop.consumers)
    bookings: list[tuple[EventType, Host, AvailabilitySchedule]] = []
    for i, p in enumerate(staff):
        host = s.create(
            Host,
            name=p.name,
            email=p.email,
            timezone=p.place.timezone,
            scheduling_url=f"https://slotwise.example/{p.first_name.lower()}-{p.last_name.lower()}-{i + 1}",
        )
        weekdays = WEEKDAYS[:5]
        rules = [Interval(weekday=d, start="09:00", end="12:00") for d in weekdays]
        rules += [Interval(weekday=d, start="13:00", end="17:00") for d in weekdays if d != "friday"]
        blocked = [now.date() + dt.timedelta(days=3 + i % 5)] if i % 3 == 0 else []
        sched = s.create(
            AvailabilitySchedule,
            host_id=host.id,
            name="Working hours",
            rules=rules,
            blocked_dates=blocked,
            is_default=True,
        )
        for spec in TYPES[p.department or ""]:
            values = dict(spec)
            if values.get("location_kind") == "in_person":
                values["location_address"] = pop.home.address
            et = s.create(EventType, host_id=host.id, updated_at=s.ago(days=60), **values)
            if et.active:
                bookings.append((et, host, sched))
    # Past and future bookings, placed on the hosts' open hours without overlaps.
    taken: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}
    for k, (et, host, sched) in enumerate(bookings * 3):
        tz = ZoneInfo(host.timezone)
        offset = (k % 11) - 4  # days from today: some past, most future
        day = now.date() + dt.timedelta(days=offset)
        weekday = WEEKDAYS[day.weekday()]
        rules = [r for r in sched.rules if r.weekday == weekday]
        if not rules or day in sched.blocked_dates:
            continue
        rule = rules[k % len(rules)]
        first = _minutes(rule.start) + 30 * (k % 3)
        if first + et.duration > _minutes(rule.end):
            continue
        start = dt.datetime(day.year, day.month, day.day, first // 60, first % 60, tzinfo=tz).astimezone(dt.UTC)
        end = start + dt.timedelta(minutes=et.duration)
        if offset > 0 and start < now + dt.timedelta(minutes=et.min_notice_minutes):
            continue
        a, b = _padded(start, end, et.buffer_before, et.buffer_after)
        if any(a < y and x < b for x, y in taken.get(host.id, [])):
            continue
        taken.setdefault(host.id, []).append((a, b))
        seats = min(et.max_invitees, 1 + k % 4)
        canceled = k % 9 == 4 and start > now
        ev = s.create(
            ScheduledEvent,
            event_type_id=et.id,
            host_id=host.id,
            name=et.name,
            start_time=start,
            end_time=end,
            buffer_before=et.buffer_before,
            buffer_after=et.buffer_after,
            status="canceled" if canceled else "active",
            location_kind=et.location_kind,
            location_address=et.location_address,
            invitees_count=0 if canceled else seats,
            canceled_by=host.email if canceled else None,
            cancel_reason="Host unavailable" if canceled else None,
            created_at=min(start, now) - dt.timedelta(days=2),
        )
        url = _join_url(et.location_kind, ev.id)
        if url is not None:
            s.update(ev, join_url=url)
        for j in range(seats):
            person = outside[(k * 7 + j * 13) % len(outside)]
            company = pop.company_of(person)
            s.create(
                Invitee,
                scheduled_event_id=ev.id,
                name=person.name,
                email=person.email,
                phone=person.phone if et.location_kind == "phone" else None,
                company_name=company.name if company else None,
                notes=("Interested in volume pricing", "Need help with setup", "")[(k + j) % 3],
                status="canceled" if canceled else "active",
                cancel_reason="Event canceled" if canceled else None,
                no_show=end < now and (k + j) % 7 == 3,
                created_at=min(start, now) - dt.timedelta(days=2),
            )
