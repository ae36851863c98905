"""Cadence Calendar: calendars, events with attendees, bookable rooms and free/busy.

Modeled on the Google Calendar API v3 (Calendars, Events with attendees,
responseStatus and conferenceData, Freebusy.query) and on the Google Workspace
Admin SDK calendar resources (bookable rooms with a capacity): only the
organizer changes or cancels an event, attendees answer with an RSVP, a room
is never double-booked nor filled beyond its capacity, and free/busy queries
and slot finding look at every attendee's accepted commitments.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, DateTime, Email, IdOf, MeetingLink, PersonName, Quantity, Text, Title
from compoworld.services.kit.records import Created, Timestamped
from compoworld.services.kit.time import iso_z, utc_at

__all__ = ["service"]

service = Service(
    "calendar",
    title="Cadence Calendar",
    category="calendar",
    modeled_on="Google Calendar API v3 (Calendars, Events, attendees, conferenceData, Freebusy) "
    "and Admin SDK Directory calendar resources (rooms)",
    description="The home company's shared calendar: every employee's calendar, meetings with colleagues and "
    "customers, RSVPs, video-conference links, bookable meeting rooms, free/busy lookups and slot finding.",
)

CalendarId = Annotated[str, IdOf("calendar.calendar")]
EventId = Annotated[str, IdOf("calendar.event")]
RoomId = Annotated[str, IdOf("calendar.room")]
AttendeeId = Annotated[str, IdOf("calendar.attendee")]
TimeZone = Annotated[str, StringConstraints(pattern=r"^(UTC|[A-Z][A-Za-z_]+(/[A-Za-z_+-]+){1,2})$", max_length=64)]
EventStatus = Literal["confirmed", "tentative", "cancelled"]
ResponseStatus = Literal["needs_action", "accepted", "tentative", "declined"]
Reply = Literal["accepted", "tentative", "declined"]
Visibility = Literal["default", "public", "private"]
Transparency = Literal["opaque", "transparent"]

MAX_ATTENDEES = 100
MAX_QUERY_DAYS = 92
MAX_SLOT_WINDOW_DAYS = 31
SLOT_STEP = dt.timedelta(minutes=15)
WORK_START = dt.time(9, 0)
WORK_END = dt.time(17, 0)


class Calendar(Created):
    """A calendar owned by one person; the primary one is the person's own."""

    id: CalendarId
    summary: Title
    """Calendar name."""
    owner_email: Email
    """E-mail of the person who owns the calendar; they organize its events."""
    description: Text = ""
    """What the calendar is for."""
    time_zone: TimeZone = "UTC"
    """IANA time zone the calendar is shown in, e.g. Europe/Berlin."""
    primary: bool = False
    """Whether this is the owner's primary calendar, which cannot be deleted."""


class Room(Record):
    """A bookable meeting room (a calendar resource)."""

    id: RoomId
    name: Title
    """Room name as shown in the room finder."""
    email: Email
    """The room's resource e-mail address; free/busy queries accept it like a person's."""
    building: Title
    """Building the room is in."""
    floor: str = ""
    """Floor name or number."""
    city: City
    """City of the office."""
    capacity: Quantity
    """How many people the room seats; an event in it cannot invite more."""
    has_video: bool = False
    """Whether the room has video-conferencing equipment."""
    bookable: bool = True
    """Whether new bookings are accepted (false while the room is out of service)."""


class Event(Timestamped):
    """A meeting or appointment on a calendar."""

    id: EventId
    calendar_id: CalendarId
    """The calendar the event is on."""
    summary: Title
    """Event title."""
    description: Text = ""
    """Agenda or notes."""
    location: str = ""
    """Free-text location (an address or 'online')."""
    start: DateTime
    """When the event starts (UTC)."""
    end: DateTime
    """When the event ends (UTC); always after the start."""
    organizer_email: Email
    """E-mail of the organizer, the owner of the event's calendar; only they may change or cancel it."""
    room_id: RoomId | None = None
    """The booked meeting room, if any."""
    meeting_link: MeetingLink | None = None
    """Video-conference link to join the meeting online."""
    status: EventStatus = "confirmed"
    """Event status; cancelled events keep no time blocked and cannot be changed."""
    visibility: Visibility = "default"
    """Who can see the event's details."""
    transparency: Transparency = "opaque"
    """'opaque' blocks the time in free/busy; 'transparent' does not."""


class Attendee(Record):
    """One guest of one event, with their RSVP."""

    id: AttendeeId
    event_id: EventId
    """The event the guest is invited to."""
    email: Email
    """The guest's e-mail address (a colleague or an outside contact)."""
    display_name: PersonName | None = None
    """The guest's name, when known."""
    response_status: ResponseStatus = "needs_action"
    """The guest's answer; needs_action until they reply."""
    optional: bool = False
    """Whether attendance is optional."""
    organizer: bool = False
    """Whether this guest is the event's organizer."""
    comment: Text = ""
    """The guest's note with their reply."""


# -- helpers -------------------------------------------------------------------------------


def _fmt(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC")


def _overlaps(a_start: dt.datetime, a_end: dt.datetime, b_start: dt.datetime, b_end: dt.datetime) -> bool:
    return a_start < b_end and b_start < a_end


def _check_interval(start: dt.datetime, end: dt.datetime, *, end_field: str = "end") -> None:
    if end <= start:
        raise RuleViolation(
            f"the end {_fmt(end)} is not after the start {_fmt(start)}",
            field=end_field,
            hint="give an end time later than the start time",
        )


def _check_span(start: dt.datetime, end: dt.datetime, days: int, end_field: str) -> None:
    _check_interval(start, end, end_field=end_field)
    if end - start > dt.timedelta(days=days):
        raise RuleViolation(
            f"the interval is longer than {days} days",
            field=end_field,
            hint=f"query at most {days} days at a time",
        )


def _guests(ctx: Ctx, event_id: str) -> list[Attendee]:
    return ctx.where(Attendee, event_id=event_id)


def _check_room(
    ctx: Ctx, room: Room, start: dt.datetime, end: dt.datetime, guests: int, *, exclude: str | None = None
) -> None:
    """Refuse a booking of ``room`` that it cannot take: out of service, too small or already booked."""
    if not room.bookable:
        raise RuleViolation(
            f"room {room.name} ({room.id}) is not bookable",
            field="room_id",
            hint="pick another room with calendar__find_available_rooms",
        )
    if guests > room.capacity:
        raise RuleViolation(
            f"room {room.name} seats {room.capacity} but the event has {guests} guests",
            field="room_id",
            hint="choose a bigger room (calendar__find_available_rooms with min_capacity) or invite fewer people",
        )
    for other in ctx.where(Event, room_id=room.id):
        if other.id == exclude or other.status == "cancelled":
            continue
        if _overlaps(start, end, other.start, other.end):
            raise Conflict(
                f"room {room.name} is already booked from {_fmt(other.start)} to {_fmt(other.end)} "
                f"by event {other.id} ({other.summary})",
                field="room_id",
                hint="pick a free room with calendar__find_available_rooms or another time with "
                "calendar__find_free_slot",
            )


def _names(ctx: Ctx) -> dict[str, str]:
    return {p.email: p.name for p in ctx.population.people}


def _live_event(ctx: Ctx, event_id: str) -> Event:
    event = ctx.get(Event, event_id, field="event_id")
    if event.status == "cancelled":
        raise RuleViolation(
            f"event {event.id} is cancelled",
            field="event_id",
            hint="cancelled events cannot change; create a new event instead",
        )
    return event


def _require_organizer(event: Event, requester_email: str, action: str) -> None:
    if requester_email != event.organizer_email:
        raise RuleViolation(
            f"only the organizer {event.organizer_email} can {action} event {event.id}",
            field="requester_email",
            hint="guests can answer with calendar__respond_to_event; ask the organizer for other changes",
        )


def _busy_events(ctx: Ctx, email: str, start: dt.datetime, end: dt.datetime) -> tuple[bool, list[Event]]:
    """Events that make ``email`` (a person or a room) busy in [start, end), and whether it is known here."""
    room = ctx.first(Room, email=email)
    if room is not None:
        candidates = ctx.where(Event, room_id=room.id)
        known = True
    else:
        invites = ctx.where(Attendee, email=email)
        ids = {a.event_id for a in invites if a.response_status != "declined"}
        candidates = [e for e in (ctx.find(Event, i) for i in sorted(ids)) if e is not None]
        known = bool(invites) or ctx.first(Calendar, owner_email=email) is not None
    busy = [
        e
        for e in candidates
        if e.status != "cancelled" and e.transparency == "opaque" and _overlaps(e.start, e.end, start, end)
    ]
    busy.sort(key=lambda e: (e.start, e.end, e.id))
    return known, busy


def _merge(periods: list[tuple[dt.datetime, dt.datetime]]) -> list[tuple[dt.datetime, dt.datetime]]:
    merged: list[tuple[dt.datetime, dt.datetime]] = []
    for s, e in sorted(periods):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _ceil_step(when: dt.datetime) -> dt.datetime:
    base = when.replace(second=0, microsecond=0)
    if base < when:
        base += dt.timedelta(minutes=1)
    extra = base.minute % 15
    return base + dt.timedelta(minutes=(15 - extra) % 15)


# -- guards on the standard tools ---------------------------------------------------------


def _guard_calendar_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.primary:
        raise RuleViolation(
            f"calendar {old.id} is the primary calendar of {old.owner_email} and cannot be deleted",
            field="calendar_id",
            hint="only secondary calendars can be deleted; cancel unwanted events instead",
        )
    live = [e for e in ctx.where(Event, calendar_id=old.id) if e.status != "cancelled"]
    if live:
        raise RuleViolation(
            f"calendar {old.id} still has {len(live)} event(s) that are not cancelled",
            field="calendar_id",
            hint="cancel its events with calendar__cancel_event first",
        )


def _guard_room_create(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Calendar, owner_email=new.email) is not None or ctx.first(Attendee, email=new.email) is not None:
        raise Conflict(
            f"{new.email} is a person's address and cannot be a room's resource address",
            field="email",
            hint="give the room its own address, e.g. room-<name>@<company domain>",
        )


def _guard_room_update(ctx: Ctx, new: Any, old: Any) -> None:
    if new.capacity >= old.capacity:
        return
    now = ctx.now()
    for event in ctx.where(Event, room_id=new.id):
        if event.status == "cancelled" or event.end <= now:
            continue
        guests = len(_guests(ctx, event.id))
        if guests > new.capacity:
            raise RuleViolation(
                f"event {event.id} on {_fmt(event.start)} has {guests} guests, more than the new capacity "
                f"{new.capacity}",
                field="capacity",
                hint="move that event to a bigger room with calendar__update_event first",
            )


def _guard_room_delete(ctx: Ctx, new: Any, old: Any) -> None:
    now = ctx.now()
    upcoming = [e for e in ctx.where(Event, room_id=old.id) if e.status != "cancelled" and e.end > now]
    if upcoming:
        raise RuleViolation(
            f"room {old.id} has {len(upcoming)} upcoming booking(s), the next {upcoming[0].id}",
            field="room_id",
            hint="set bookable to false with calendar__update_room, or move those events to another room",
        )


calendars = service.resource(
    Calendar,
    name="calendar",
    plural="calendars",
    prefix="cal",
    create=("summary", "owner_email", "description", "time_zone"),
    filters=("owner_email", "primary"),
    search=("summary", "description"),
    update=("summary", "description", "time_zone"),
    guard_delete=_guard_calendar_delete,
)
rooms = service.resource(
    Room,
    name="room",
    plural="rooms",
    prefix="room",
    filters=("city", "building", "bookable", "has_video", "capacity"),
    search=("name", "building"),
    update=("name", "floor", "capacity", "has_video", "bookable"),
    unique=("email",),
    guard_create=_guard_room_create,
    guard_update=_guard_room_update,
    guard_delete=_guard_room_delete,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("calendar_id", "organizer_email", "room_id", "status", "meeting_link"),
    search=("summary", "description", "location"),
    delete=False,
)
attendees = service.resource(
    Attendee,
    name="attendee",
    plural="attendees",
    prefix="att",
    create=False,
    filters=("event_id", "email", "response_status", "optional"),
    delete=False,
)


# -- results -------------------------------------------------------------------------------


class EventDetails(BaseModel):
    """An event with its guest list."""

    event: Event = Field(description="The event.")
    attendees: list[Attendee] = Field(description="Its guests, the organizer included.")


class TimePeriod(BaseModel):
    """A span of time."""

    start: DateTime = Field(description="Start (UTC).")
    end: DateTime = Field(description="End (UTC).")


class FreeBusy(BaseModel):
    """Busy time of one person or room."""

    email: Email = Field(description="The person's or room's e-mail address.")
    found: bool = Field(description="False when the address has no calendar, room or invitation here.")
    busy: list[TimePeriod] = Field(description="Merged busy periods within the queried interval, in order.")


class AgendaItem(BaseModel):
    """One event on a person's agenda."""

    event: Event = Field(description="The event.")
    response_status: ResponseStatus = Field(description="The person's answer to the invitation.")
    is_organizer: bool = Field(description="Whether the person organizes the event.")


# -- examples ------------------------------------------------------------------------------


def _future_live_event(ctx: Ctx, *, roomless: bool = False) -> Event | None:
    now = ctx.now()
    for event in ctx.scan(Event):
        if event.status != "cancelled" and event.start > now and not (roomless and event.room_id):
            return event
    return None


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    cal = ctx.first(Calendar, primary=True)
    if cal is None:
        return None
    guest = next((p.email for p in ctx.population.employees if p.email != cal.owner_email), None)
    start = utc_at(ctx.today() + dt.timedelta(days=40), 14)
    return {
        "calendar_id": cal.id,
        "summary": "Project sync",
        "start": iso_z(start),
        "end": iso_z(start + dt.timedelta(minutes=30)),
        "attendee_emails": [guest] if guest else [],
        "add_conference": True,
    }


def _example_update(ctx: Ctx) -> dict[str, Any] | None:
    event = _future_live_event(ctx)
    if event is None:
        return None
    return {"event_id": event.id, "requester_email": event.organizer_email, "summary": f"{event.summary} (agenda)"}


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    event = _future_live_event(ctx)
    if event is None:
        return None
    return {"event_id": event.id, "requester_email": event.organizer_email}


def _guest_of_live_event(ctx: Ctx) -> Attendee | None:
    for guest in ctx.scan(Attendee):
        if guest.organizer:
            continue
        event = ctx.find(Event, guest.event_id)
        if event is not None and event.status != "cancelled":
            return guest
    return None


def _example_respond(ctx: Ctx) -> dict[str, Any] | None:
    guest = _guest_of_live_event(ctx)
    if guest is None:
        return None
    return {"event_id": guest.event_id, "attendee_email": guest.email, "response": "accepted"}


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    guest = _guest_of_live_event(ctx)
    if guest is None:
        return None
    return {"event_id": guest.event_id, "email": guest.email}


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    event = _future_live_event(ctx, roomless=True)
    if event is None:
        return None
    invited = {a.email for a in _guests(ctx, event.id)}
    email = next((p.email for p in ctx.population.employees if p.email not in invited), None)
    return None if email is None else {"event_id": event.id, "email": email}


def _example_freebusy(ctx: Ctx) -> dict[str, Any]:
    emails = [p.email for p in ctx.population.employees[:3]]
    room = ctx.first(Room, bookable=True)
    if room is not None:
        emails.append(room.email)
    start = ctx.now().replace(hour=0, minute=0)
    return {"emails": emails, "time_min": iso_z(start), "time_max": iso_z(start + dt.timedelta(days=7))}


def _example_slot(ctx: Ctx) -> dict[str, Any]:
    emails = [p.email for p in ctx.population.employees[:3]]
    start = ctx.now()
    return {
        "attendee_emails": emails,
        "duration_minutes": 45,
        "window_start": iso_z(start),
        "window_end": iso_z(start + dt.timedelta(days=14)),
    }


def _example_rooms(ctx: Ctx) -> dict[str, Any]:
    start = utc_at(ctx.today() + dt.timedelta(days=2), 10)
    return {"start": iso_z(start), "end": iso_z(start + dt.timedelta(hours=1)), "min_capacity": 4}


def _example_agenda(ctx: Ctx) -> dict[str, Any]:
    email = ctx.population.employees[0].email
    start = ctx.now().replace(hour=0, minute=0)
    return {"email": email, "time_min": iso_z(start), "time_max": iso_z(start + dt.timedelta(days=14))}


# -- domain tools --------------------------------------------------------------------------


@service.tool(intent="schedule a meeting", write=True, example=_example_create)
def create_event(
    ctx: Ctx,
    calendar_id: CalendarId,
    summary: Title,
    start: DateTime,
    end: DateTime,
    attendee_emails: list[Email] | None = None,
    optional_emails: list[Email] | None = None,
    room_id: RoomId | None = None,
    description: Text = "",
    location: str = "",
    add_conference: bool = False,
    visibility: Visibility = "default",
    transparency: Transparency = "opaque",
) -> EventDetails:
    """Create an event on a calendar and invite its guests.

    The calendar's owner becomes the organizer (and an accepted guest). A
    booked room must be bookable, free for the whole event and seat every
    guest, the organizer included. With add_conference a video-meeting link is
    generated.

    Args:
        calendar_id: The calendar to put the event on; its owner organizes it.
        summary: Event title.
        start: When it starts (ISO 8601; UTC if no offset).
        end: When it ends; must be after the start.
        attendee_emails: E-mail addresses of required guests (colleagues or outside contacts).
        optional_emails: E-mail addresses of optional guests.
        room_id: A meeting room to book, if any.
        description: Agenda or notes.
        location: Free-text location.
        add_conference: Whether to generate a video-conference link.
        visibility: Who can see the event's details.
        transparency: 'opaque' blocks the time in free/busy; 'transparent' does not.
    """
    _check_interval(start, end)
    cal = ctx.get(Calendar, calendar_id, field="calendar_id")
    required = list(dict.fromkeys(attendee_emails or []))
    optional = [e for e in dict.fromkeys(optional_emails or []) if e not in required]
    guests = [e for e in required + optional if e != cal.owner_email]
    if len(guests) + 1 > MAX_ATTENDEES:
        raise RuleViolation(
            f"an event can have at most {MAX_ATTENDEES} guests",
            field="attendee_emails",
            hint="invite a mailing list or split the meeting",
        )
    room = ctx.get(Room, room_id, field="room_id") if room_id else None
    if room is not None:
        _check_room(ctx, room, start, end, len(guests) + 1)
    link = None
    if add_conference:
        letters = "abcdefghijkmnopqrstuvwxyz"
        code = "-".join("".join(ctx.rng.choice(letters) for _ in range(n)) for n in (3, 4, 3))
        link = f"https://meet.{ctx.population.home.domain}/{code}"
    event = ctx.create(
        Event,
        calendar_id=cal.id,
        summary=summary,
        description=description,
        location=location or (room.name if room else ""),
        start=start,
        end=end,
        organizer_email=cal.owner_email,
        room_id=room.id if room else None,
        meeting_link=link,
        visibility=visibility,
        transparency=transparency,
    )
    names = _names(ctx)
    made = [
        ctx.create(
            Attendee,
            event_id=event.id,
            email=cal.owner_email,
            display_name=names.get(cal.owner_email),
            response_status="accepted",
            organizer=True,
        )
    ]
    for email in guests:
        made.append(
            ctx.create(
                Attendee,
                event_id=event.id,
                email=email,
                display_name=names.get(email),
                optional=email in optional,
            )
        )
    return EventDetails(event=event, attendees=made)


@service.tool(intent="change or reschedule the meeting", write=True, idempotent=True, example=_example_update)
def update_event(
    ctx: Ctx,
    event_id: EventId,
    requester_email: Email,
    summary: Title | None = None,
    description: Text | None = None,
    location: str | None = None,
    start: DateTime | None = None,
    end: DateTime | None = None,
    room_id: RoomId | None = None,
    release_room: bool = False,
    visibility: Visibility | None = None,
    transparency: Transparency | None = None,
) -> Event:
    """Change an event (a patch): only the organizer may, and cancelled events cannot change.

    Moving the event in time re-checks its room and resets every other guest's
    answer to needs_action so that they confirm the new time.

    Args:
        event_id: The event.
        requester_email: E-mail of the person making the change; must be the organizer.
        summary: New title; omit to keep.
        description: New agenda or notes; omit to keep.
        location: New free-text location; omit to keep.
        start: New start; omit to keep.
        end: New end; omit to keep. Must stay after the start.
        room_id: A room to book instead of the current one; omit to keep.
        release_room: Whether to give up the booked room.
        visibility: New visibility; omit to keep.
        transparency: New free/busy transparency; omit to keep.
    """
    event = _live_event(ctx, event_id)
    _require_organizer(event, requester_email, "change")
    if room_id is not None and release_room:
        raise RuleViolation(
            "room_id and release_room contradict each other",
            field="release_room",
            hint="either book a room with room_id or release it, not both",
        )
    changes: dict[str, Any] = {
        k: v
        for k, v in {
            "summary": summary,
            "description": description,
            "location": location,
            "start": start,
            "end": end,
            "room_id": room_id,
            "visibility": visibility,
            "transparency": transparency,
        }.items()
        if v is not None and v != getattr(event, k)
    }
    if release_room and event.room_id is not None:
        changes["room_id"] = None
    if not changes:
        raise RuleViolation(
            f"nothing to change on event {event.id}",
            hint="pass at least one field with a new value",
        )
    new_start = changes.get("start", event.start)
    new_end = changes.get("end", event.end)
    _check_interval(new_start, new_end, end_field="end" if "end" in changes else "start")
    new_room = changes.get("room_id", event.room_id)
    if new_room is not None and ({"start", "end", "room_id"} & changes.keys()):
        room = ctx.get(Room, new_room, field="room_id")
        _check_room(ctx, room, new_start, new_end, len(_guests(ctx, event.id)), exclude=event.id)
    updated = ctx.update(event, **changes)
    if "start" in changes or "end" in changes:
        for guest in _guests(ctx, event.id):
            if not guest.organizer and guest.response_status != "needs_action":
                ctx.update(guest, response_status="needs_action")
    return updated


@service.tool(intent="cancel the meeting", write=True, destructive=True, example=_example_cancel)
def cancel_event(ctx: Ctx, event_id: EventId, requester_email: Email) -> Event:
    """Cancel an event: it stays on record with status cancelled and frees its room and its guests' time.

    Only the organizer can cancel; a guest who cannot come declines instead.
    Events that have already ended cannot be cancelled.

    Args:
        event_id: The event.
        requester_email: E-mail of the person cancelling; must be the organizer.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status == "cancelled":
        raise RuleViolation(
            f"event {event.id} is already cancelled",
            field="event_id",
            hint="nothing to do; check it with calendar__get_event",
        )
    _require_organizer(event, requester_email, "cancel")
    if event.end <= ctx.now():
        raise RuleViolation(
            f"event {event.id} ended at {_fmt(event.end)} and cannot be cancelled",
            field="event_id",
            hint="past events stay on the calendar as they happened",
        )
    return ctx.update(event, status="cancelled")


@service.tool(intent="RSVP to the meeting invitation", write=True, idempotent=True, example=_example_respond)
def respond_to_event(
    ctx: Ctx, event_id: EventId, attendee_email: Email, response: Reply, comment: Text = ""
) -> Attendee:
    """Answer an invitation as one of its guests: accept, accept tentatively or decline.

    The organizer cannot decline their own event (they cancel it instead).

    Args:
        event_id: The event.
        attendee_email: E-mail of the guest answering; must be on the guest list.
        response: The answer.
        comment: An optional note to the organizer.
    """
    event = _live_event(ctx, event_id)
    guest = ctx.first(Attendee, event_id=event.id, email=attendee_email)
    if guest is None:
        raise NotFound(
            f"{attendee_email} is not invited to event {event.id}",
            field="attendee_email",
            hint="list the guests with calendar__list_attendees; the organizer can invite with calendar__add_attendee",
        )
    if guest.organizer and response == "declined":
        raise RuleViolation(
            f"{attendee_email} organizes event {event.id} and cannot decline it",
            field="response",
            hint="cancel the event with calendar__cancel_event instead",
        )
    return ctx.update(guest, response_status=response, comment=comment)


@service.tool(intent="invite someone to the meeting", write=True, example=_example_add)
def add_attendee(ctx: Ctx, event_id: EventId, email: Email, optional: bool = False) -> Attendee:
    """Invite one more guest to an event; a booked room must still seat everyone.

    Args:
        event_id: The event.
        email: E-mail of the new guest.
        optional: Whether their attendance is optional.
    """
    event = _live_event(ctx, event_id)
    guests = _guests(ctx, event.id)
    if any(g.email == email for g in guests):
        raise Conflict(
            f"{email} is already invited to event {event.id}",
            field="email",
            hint="nothing to do; list the guests with calendar__list_attendees",
        )
    if len(guests) + 1 > MAX_ATTENDEES:
        raise RuleViolation(
            f"event {event.id} already has {MAX_ATTENDEES} guests", field="email", hint="invite fewer people"
        )
    if event.room_id is not None:
        room = ctx.get(Room, event.room_id, field="event_id")
        if len(guests) + 1 > room.capacity:
            raise RuleViolation(
                f"room {room.name} seats {room.capacity} and event {event.id} already has {len(guests)} guests",
                field="email",
                hint="move the event to a bigger room with calendar__update_event first",
            )
    return ctx.create(Attendee, event_id=event.id, email=email, display_name=_names(ctx).get(email), optional=optional)


class RemovedGuest(BaseModel):
    """A guest taken off an event."""

    event_id: EventId = Field(description="The event.")
    email: Email = Field(description="The removed guest's e-mail address.")
    removed: bool = Field(description="Always true.")


@service.tool(intent="uninvite someone from the meeting", write=True, destructive=True, example=_example_remove)
def remove_attendee(ctx: Ctx, event_id: EventId, email: Email) -> RemovedGuest:
    """Take a guest off an event's guest list; the organizer cannot be removed.

    Args:
        event_id: The event.
        email: E-mail of the guest to remove.
    """
    event = _live_event(ctx, event_id)
    guest = ctx.first(Attendee, event_id=event.id, email=email)
    if guest is None:
        raise NotFound(
            f"{email} is not invited to event {event.id}",
            field="email",
            hint="list the guests with calendar__list_attendees",
        )
    if guest.organizer:
        raise RuleViolation(
            f"{email} organizes event {event.id} and cannot be removed from it",
            field="email",
            hint="cancel the event instead, or create a new one on another person's calendar",
        )
    ctx.delete(guest)
    return RemovedGuest(event_id=event.id, email=email, removed=True)


@service.tool(intent="check when people or rooms are busy", example=_example_freebusy)
def query_freebusy(ctx: Ctx, emails: list[Email], time_min: DateTime, time_max: DateTime) -> list[FreeBusy]:
    """Return the busy periods of people and rooms over an interval (at most 92 days).

    A person is busy during events they organize or were invited to and did
    not decline; a room during the events that book it. Cancelled and
    transparent events do not count.

    Args:
        emails: E-mail addresses of people or rooms (1 to 50).
        time_min: Start of the interval.
        time_max: End of the interval.
    """
    _check_span(time_min, time_max, MAX_QUERY_DAYS, "time_max")
    wanted = list(dict.fromkeys(emails))
    if not 1 <= len(wanted) <= 50:
        raise RuleViolation("give between 1 and 50 e-mail addresses", field="emails", hint="query in batches of 50")
    out = []
    for email in wanted:
        known, busy = _busy_events(ctx, email, time_min, time_max)
        periods = _merge([(max(e.start, time_min), min(e.end, time_max)) for e in busy])
        out.append(FreeBusy(email=email, found=known, busy=[TimePeriod(start=s, end=e) for s, e in periods]))
    return out


@service.tool(intent="find a time when everyone is free", example=_example_slot)
def find_free_slot(
    ctx: Ctx,
    attendee_emails: list[Email],
    duration_minutes: int,
    window_start: DateTime,
    window_end: DateTime,
    working_hours_only: bool = True,
    max_results: int = 3,
) -> list[TimePeriod]:
    """Suggest times when every given person (or room) is free for the whole duration.

    Candidates start on the quarter hour, never in the past, and with
    working_hours_only lie within 09:00-17:00 UTC on weekdays. Returns up to
    max_results non-overlapping slots in order; an empty list means none fits
    the window.

    Args:
        attendee_emails: E-mail addresses of everyone who must attend (1 to 50).
        duration_minutes: Meeting length in minutes (5 to 480).
        window_start: Earliest start to consider.
        window_end: Latest end to consider (at most 31 days after window_start).
        working_hours_only: Whether to keep to 09:00-17:00 UTC, Monday to Friday.
        max_results: How many slots to return (1 to 20).
    """
    _check_span(window_start, window_end, MAX_SLOT_WINDOW_DAYS, "window_end")
    if not 5 <= duration_minutes <= 480:
        raise RuleViolation(
            "duration_minutes must be between 5 and 480", field="duration_minutes", hint="give a length in minutes"
        )
    if not 1 <= max_results <= 20:
        raise RuleViolation("max_results must be between 1 and 20", field="max_results", hint="ask for 1 to 20")
    wanted = list(dict.fromkeys(attendee_emails))
    if not 1 <= len(wanted) <= 50:
        raise RuleViolation(
            "give between 1 and 50 e-mail addresses", field="attendee_emails", hint="list who must attend"
        )
    periods: list[tuple[dt.datetime, dt.datetime]] = []
    for email in wanted:
        periods.extend((e.start, e.end) for e in _busy_events(ctx, email, window_start, window_end)[1])
    busy = _merge(periods)
    length = dt.timedelta(minutes=duration_minutes)
    slots: list[TimePeriod] = []
    cand = _ceil_step(max(window_start, ctx.now()))
    while cand + length <= window_end and len(slots) < max_results:
        if working_hours_only:
            day_start = dt.datetime.combine(cand.date(), WORK_START, tzinfo=dt.UTC)
            day_end = dt.datetime.combine(cand.date(), WORK_END, tzinfo=dt.UTC)
            if cand.weekday() >= 5 or cand + length > day_end:
                cand = day_start + dt.timedelta(days=1)
                continue
            if cand < day_start:
                cand = day_start
                continue
        blocker = next((b for b in busy if _overlaps(cand, cand + length, b[0], b[1])), None)
        if blocker is not None:
            cand = _ceil_step(blocker[1])
            continue
        slots.append(TimePeriod(start=cand, end=cand + length))
        cand = cand + length
    return slots


@service.tool(intent="find a free meeting room", example=_example_rooms)
def find_available_rooms(
    ctx: Ctx, start: DateTime, end: DateTime, min_capacity: Quantity = 1, city: City | None = None
) -> list[Room]:
    """List bookable rooms that seat at least min_capacity people and are free for the whole interval.

    Args:
        start: Start of the meeting.
        end: End of the meeting; must be after the start.
        min_capacity: Number of people the room must seat.
        city: Only rooms in this city.
    """
    _check_interval(start, end)
    found = []
    for room in ctx.where(Room, bookable=True):
        if room.capacity < min_capacity or (city is not None and room.city.casefold() != city.casefold()):
            continue
        taken = any(
            e.status != "cancelled" and _overlaps(start, end, e.start, e.end) for e in ctx.where(Event, room_id=room.id)
        )
        if not taken:
            found.append(room)
    return found


@service.tool(intent="show the person's agenda", example=_example_agenda)
def list_agenda(
    ctx: Ctx, email: Email, time_min: DateTime, time_max: DateTime, include_cancelled: bool = False
) -> list[AgendaItem]:
    """List the events a person organizes or is invited to in an interval (at most 92 days), by start time.

    Args:
        email: The person's e-mail address.
        time_min: Start of the interval.
        time_max: End of the interval.
        include_cancelled: Whether to list cancelled events too.
    """
    _check_span(time_min, time_max, MAX_QUERY_DAYS, "time_max")
    items = []
    for guest in ctx.where(Attendee, email=email):
        event = ctx.find(Event, guest.event_id)
        if event is None or not _overlaps(event.start, event.end, time_min, time_max):
            continue
        if event.status == "cancelled" and not include_cancelled:
            continue
        items.append(AgendaItem(event=event, response_status=guest.response_status, is_organizer=guest.organizer))
    items.sort(key=lambda i: (i.event.start, i.event.id))
    return items


# -- seed ----------------------------------------------------------------------------------

ROOM_NAMES = (
    ("Atlas", 4),
    ("Beacon", 6),
    ("Cove", 2),
    ("Delta", 8),
    ("Ember", 10),
    ("Fjord", 4),
    ("Grove", 12),
    ("Harbor", 20),
    ("Isle", 3),
    ("Juniper", 6),
)

INTERNAL_TOPICS = (
    "Sprint planning",
    "Design review",
    "Budget review",
    "Weekly sync",
    "Project kickoff",
    "Retrospective",
    "Hiring debrief",
    "Roadmap discussion",
    "Onboarding session",
    "Incident review",
)
EXTERNAL_TOPICS = ("Quarterly business review", "Product demo", "Contract negotiation", "Customer call", "Kickoff")


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees' calendars, team calendars, office rooms, and a month of meetings around today."""
    employees = list(s.population.employees)
    primary, teams = _seed_calendars(s, employees)
    rooms = _seed_rooms(s)
    _seed_events(s, employees, primary, teams, rooms)


def _seed_calendars(s: SeedContext, employees: list[Person]) -> tuple[dict[str, Calendar], dict[str, Calendar]]:
    """Every employee's primary calendar (by e-mail) and a team calendar per department (by department)."""
    primary: dict[str, Calendar] = {}
    for p in employees:
        primary[p.email] = s.create(
            Calendar,
            summary=p.name,
            owner_email=p.email,
            description=f"{p.job_title}, {p.department}",
            time_zone=p.place.timezone,
            primary=True,
        )
    teams: dict[str, Calendar] = {}
    for dept in sorted({p.department for p in employees if p.department}):
        lead = next(p for p in employees if p.department == dept)
        teams[dept] = s.create(
            Calendar,
            summary=f"{dept} team",
            owner_email=lead.email,
            description=f"Shared calendar of the {dept} department",
            time_zone=s.population.home.place.timezone,
        )
    return primary, teams


def _seed_rooms(s: SeedContext) -> list[Room]:
    """The rooms of ROOM_NAMES: eight at headquarters, the others at a second office when there is one."""
    pop = s.population
    home = pop.home
    offices = [(home.place.city, "Headquarters")]
    other = next((pl.city for pl in pop.places if pl.city != home.place.city), None)
    if other is not None:
        offices.append((other, f"{other} office"))
    rooms: list[Room] = []
    for n, (rname, cap) in enumerate(ROOM_NAMES):
        city, building = offices[0] if n < 8 or len(offices) == 1 else offices[1]
        rooms.append(
            s.create(
                Room,
                name=rname,
                email=f"room-{rname.lower()}@{home.domain}",
                building=building,
                floor=str(1 + n % 4),
                city=city,
                capacity=cap,
                has_video=cap >= 6,
                bookable=n != 5,
            )
        )
    return rooms


def _weekday(base: dt.datetime, offset: int) -> dt.datetime:
    """``base`` moved by ``offset`` days, then on to the next Monday if that falls on a weekend."""
    day = base + dt.timedelta(days=offset)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def _seed_events(
    s: SeedContext,
    employees: list[Person],
    primary: dict[str, Calendar],
    teams: dict[str, Calendar],
    rooms: list[Room],
) -> None:
    """One to five meetings organised by each employee, and a day working from home for every sixth."""
    base = s.now.replace(hour=0, minute=0, second=0, microsecond=0)
    bookings: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {r.id: [] for r in rooms}
    for i, organizer in enumerate(employees):
        colleagues = [p for p in employees if p.email != organizer.email]
        same_dept = [p for p in colleagues if p.department == organizer.department] or colleagues
        team = teams.get(organizer.department or "")
        for k in range(s.rng.randint(1, 5)):
            # Each team lead puts their first internal meeting on the team calendar.
            shared = team if k == 0 and team is not None and team.owner_email == organizer.email else None
            event, guests = _seed_meeting(
                s, organizer, primary[organizer.email], shared, same_dept, colleagues, rooms, bookings, base
            )
            _seed_attendees(s, event, organizer, guests, late_notes=i % 3 == 0)
        if i % 6 == 0:
            _seed_home_day(s, organizer, primary[organizer.email], base)


def _seed_meeting(
    s: SeedContext,
    organizer: Person,
    calendar: Calendar,
    team_calendar: Calendar | None,
    same_dept: list[Person],
    colleagues: list[Person],
    rooms: list[Room],
    bookings: dict[str, list[tuple[dt.datetime, dt.datetime]]],
    base: dt.datetime,
) -> tuple[Event, list[Person]]:
    """One meeting of ``organizer`` with colleagues (and sometimes a customer); returns it and its guests."""
    pop = s.population
    customers = list(pop.contacts)
    day = _weekday(base, s.rng.randint(-12, 20))
    start = day + dt.timedelta(hours=s.rng.randint(9, 16), minutes=s.rng.choice((0, 30)))
    end = start + dt.timedelta(minutes=s.rng.choice((30, 30, 45, 60, 60, 90)))
    external = bool(customers) and s.rng.random() < 0.25
    pool = same_dept if s.rng.random() < 0.7 else colleagues
    guests = s.rng.sample(pool, min(len(pool), s.rng.randint(1, 5)))
    if external:
        contact = s.rng.choice(customers)
        company = pop.company_of(contact)
        topic = s.rng.choice(EXTERNAL_TOPICS)
        summary = f"{topic}: {company.name if company else contact.last_name}"
        guests.append(contact)
    elif len(guests) == 1 and s.rng.random() < 0.5:
        summary = f"1:1 {organizer.first_name} / {guests[0].first_name}"
    else:
        summary = s.rng.choice(INTERNAL_TOPICS)
    if not external and team_calendar is not None:
        calendar = team_calendar
    room = None
    if not external and s.rng.random() < 0.6:
        room = _seed_room_booking(s, rooms, bookings, start, end, len(guests) + 1)
    roll = s.rng.random()
    status: EventStatus = "cancelled" if roll < 0.08 else "tentative" if roll < 0.15 else "confirmed"
    if status == "cancelled" and room is not None:
        bookings[room.id].pop()
    link = None
    if external or s.rng.random() < 0.4:
        code = "".join(s.rng.choice("abcdefghijkmnopqrstuvwxyz") for _ in range(10))
        link = f"https://meet.{pop.home.domain}/{code[:3]}-{code[3:7]}-{code[7:]}"
    event = s.create(
        Event,
        calendar_id=calendar.id,
        summary=summary,
        description=f"{summary} organised by {organizer.name}.",
        location=room.name if room else ("online" if link else ""),
        start=start,
        end=end,
        organizer_email=organizer.email,
        room_id=room.id if room else None,
        meeting_link=link,
        status=status,
        visibility="private" if summary.startswith("1:1") else "default",
        created_at=start - dt.timedelta(days=s.rng.randint(3, 20)),
        updated_at=start - dt.timedelta(days=s.rng.randint(1, 2)),
    )
    return event, guests


def _seed_room_booking(
    s: SeedContext,
    rooms: list[Room],
    bookings: dict[str, list[tuple[dt.datetime, dt.datetime]]],
    start: dt.datetime,
    end: dt.datetime,
    people: int,
) -> Room | None:
    """A random bookable room seating ``people`` that is free from ``start`` to ``end``, now booked."""
    fitting = [r for r in rooms if r.bookable and r.capacity >= people]
    s.rng.shuffle(fitting)
    for room in fitting:
        if not any(_overlaps(start, end, a, b) for a, b in bookings[room.id]):
            bookings[room.id].append((start, end))
            return room
    return None


def _seed_attendees(s: SeedContext, event: Event, organizer: Person, guests: list[Person], *, late_notes: bool) -> None:
    """The organizer (accepted) and the guests, who answered a past meeting more often than a coming one."""
    s.create(
        Attendee,
        event_id=event.id,
        email=organizer.email,
        display_name=organizer.name,
        response_status="accepted",
        organizer=True,
    )
    past = event.end <= s.now
    for person in guests:
        answer: ResponseStatus = s.rng.choice(
            ("accepted", "accepted", "accepted", "declined", "tentative")
            if past
            else ("accepted", "accepted", "needs_action", "needs_action", "tentative", "declined")
        )
        s.create(
            Attendee,
            event_id=event.id,
            email=person.email,
            display_name=person.name,
            response_status=answer,
            optional=s.rng.random() < 0.15,
            comment="Running late, will join at quarter past" if answer == "tentative" and late_notes else "",
        )


def _seed_home_day(s: SeedContext, person: Person, calendar: Calendar, base: dt.datetime) -> None:
    """A whole-day "Working from home" marker that does not block the person's time."""
    day = _weekday(base, s.rng.randint(0, 6))
    ev = s.create(
        Event,
        calendar_id=calendar.id,
        summary="Working from home",
        start=day,
        end=day + dt.timedelta(days=1),
        organizer_email=person.email,
        transparency="transparent",
        created_at=base - dt.timedelta(days=3),
        updated_at=base - dt.timedelta(days=3),
    )
    s.create(
        Attendee,
        event_id=ev.id,
        email=person.email,
        display_name=person.name,
        response_status="accepted",
        organizer=True,
    )
