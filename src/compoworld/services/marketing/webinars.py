"""Stagecast Webinars: marketing webinars with registration, panelists, live polls, attendance and certificates.

Modeled on the ON24 Webcast API (events, registrants with approval and
capacity, presenters, polls, attendee and engagement reports, certificates)
together with the Zoom Webinars API (registrant status actions, panelists,
personal join links, webinar polls): an event goes draft → scheduled → live →
ended (or cancelled); it is scheduled only with a presenter and started no
more than 30 minutes early; registration beyond the capacity joins a waitlist
and a cancelled seat goes to the first on the waitlist; manual-approval
events approve registrants while seats remain; panelists are not registrants;
only approved registrants join, only attendees vote, once, in launched polls
of a live event; ending an event closes every attendance and awards
certificates to attendees present for the event's threshold share of it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Country,
    DateTime,
    Email,
    IdOf,
    JobTitle,
    MeetingLink,
    Percent,
    PersonName,
    Quantity,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "webinars",
    title="Stagecast Webinars",
    category="video_meetings",
    modeled_on="ON24 Webcast API (events, registrants, presenters, polls, attendee reports, certificates) with "
    "Zoom Webinars API (registrant status, panelists, join links, polls)",
    description="Marketing webinars of the home company: events with capacity and approval, registrants and "
    "waitlists, presenters and moderators, live polls, attendance with minutes watched, engagement reports "
    "and certificates of attendance.",
)

EventId = Annotated[str, IdOf("webinars.event")]
PanelistId = Annotated[str, IdOf("webinars.panelist")]
RegistrantId = Annotated[str, IdOf("webinars.registrant")]
PollId = Annotated[str, IdOf("webinars.poll")]
AttendanceId = Annotated[str, IdOf("webinars.attendance")]
EventStatus = Literal["draft", "scheduled", "live", "ended", "cancelled"]
RegStatus = Literal["pending", "approved", "waitlisted", "denied", "cancelled"]
Option = Annotated[str, StringConstraints(min_length=1, max_length=120, strip_whitespace=True)]
Minutes = Annotated[int, Field(ge=15, le=480)]
EARLY_START = dt.timedelta(minutes=30)
BASE = "https://stagecast.example"


class Event(Created):
    """A webinar event."""

    id: EventId
    title: Title
    """Event title."""
    description: Text = ""
    """What it is about."""
    host_email: Email
    """E-mail of the employee who owns the event."""
    start_time: DateTime
    """Scheduled start."""
    duration_minutes: Minutes
    """Scheduled length in minutes."""
    timezone: Timezone = "UTC"
    """Time zone shown to registrants."""
    status: EventStatus = "draft"
    """draft, scheduled (open for registration), live, ended or cancelled."""
    capacity: Annotated[int, Field(ge=1, le=10000)] = 500
    """Most approved registrants; more join the waitlist."""
    approval: Literal["automatic", "manual"] = "automatic"
    """Whether registrants are approved at once (while seats remain) or by the host."""
    certificate_threshold: Percent | None = None
    """Share of the event an attendee must watch for a certificate, in percent; null: no certificates."""
    audience_url: Url
    """Registration page."""
    on_demand_url: Url | None = None
    """Recording, once the event ended."""
    started_at: DateTime | None = None
    """When it went live."""
    ended_at: DateTime | None = None
    """When it ended."""


class Panelist(Record):
    """A presenter or moderator of an event."""

    id: PanelistId
    event_id: EventId
    """The event."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail address; once per event."""
    company: CompanyName | None = None
    """Company (for guest speakers)."""
    role: Literal["presenter", "moderator"] = "presenter"
    """presenter or moderator."""
    join_url: MeetingLink
    """The panelist's own link into the studio."""


class Registrant(Record):
    """A person registered for an event."""

    id: RegistrantId
    event_id: EventId
    """The event."""
    email: Email
    """E-mail address; once per event."""
    name: PersonName
    """Full name."""
    company: CompanyName | None = None
    """Company."""
    job_title: JobTitle | None = None
    """Job title."""
    country: Country | None = None
    """Country code."""
    status: RegStatus
    """pending (awaiting approval), approved, waitlisted, denied or cancelled."""
    join_url: MeetingLink
    """The registrant's personal join link."""
    registered_at: Annotated[DateTime, CREATED]
    """When they registered."""


class Poll(Record):
    """A poll shown to attendees during a live event."""

    id: PollId
    event_id: EventId
    """The event."""
    question: Title
    """The question."""
    options: Annotated[tuple[Option, ...], Field(min_length=2, max_length=10)]
    """2 to 10 answer options."""
    allow_multiple: bool = False
    """Whether voters may pick several options."""
    status: Literal["draft", "launched", "closed"] = "draft"
    """draft, launched (taking votes while the event is live) or closed."""


class Vote(Record):
    """An attendee's answer to a poll."""

    id: Annotated[str, IdOf("webinars.vote")]
    poll_id: PollId
    """The poll."""
    registrant_id: RegistrantId
    """The voter."""
    choices: tuple[Option, ...]
    """Options picked."""
    voted_at: Annotated[DateTime, CREATED]
    """When."""


class Attendance(Record):
    """A registrant's time in a live event."""

    id: AttendanceId
    event_id: EventId
    """The event."""
    registrant_id: RegistrantId
    """The attendee."""
    email: Email
    """Their e-mail address."""
    joined_at: DateTime
    """When they joined."""
    left_at: DateTime | None = None
    """When they left; null while still in."""
    minutes: Quantity = 0
    """Minutes watched (when they left)."""
    certificate: bool = False
    """Whether they earned the certificate of attendance."""


# -- rules ------------------------------------------------------------------------------------


def _link(kind: str, *parts: str) -> str:
    token = hashlib.sha256(":".join(parts).encode()).hexdigest()[:16]
    return f"{BASE}/{kind}/{token}"


def _editable(event: Event, field: str = "event_id") -> None:
    if event.status in ("ended", "cancelled"):
        raise RuleViolation(
            f"event {event.title} is {event.status}", field=field, hint="ended and cancelled events cannot change"
        )


def _approved(ctx: Ctx, event_id: str) -> int:
    return len(ctx.where(Registrant, event_id=event_id, status="approved"))


def _guard_event(ctx: Ctx, new: Any, old: Any) -> None:
    _editable(old)
    if old.status == "live" and (new.start_time != old.start_time or new.duration_minutes != old.duration_minutes):
        raise RuleViolation("a live event keeps its schedule", field="start_time", hint="end it instead")
    if new.start_time != old.start_time and new.start_time <= ctx.now():
        raise RuleViolation("an event cannot be moved into the past", field="start_time", hint="pick a future time")
    if new.capacity < _approved(ctx, old.id):
        raise RuleViolation(
            f"{_approved(ctx, old.id)} registrants are already approved",
            field="capacity",
            hint="the capacity cannot drop below the approved registrants",
        )


def _guard_poll(ctx: Ctx, new: Any, old: Any) -> None:
    event = ctx.get(Event, new.event_id, field="event_id")
    _editable(event)
    if len({o.casefold() for o in new.options}) != len(new.options):
        raise RuleViolation("options repeat", field="options", hint="list each option once")


def _guard_panelist_delete(ctx: Ctx, new: Any, old: Any) -> None:
    event = ctx.get(Event, old.event_id)
    _editable(event, "panelist_id")
    if event.status in ("scheduled", "live") and old.role == "presenter":
        others = [p for p in ctx.where(Panelist, event_id=event.id, role="presenter") if p.id != old.id]
        if not others:
            raise RuleViolation(
                f"{old.name} is the only presenter of a {event.status} event",
                field="panelist_id",
                hint="add another presenter first",
            )


events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="ev",
    create=False,
    filters=("status", "host_email", "approval"),
    search=("title", "description"),
    update=("title", "description", "start_time", "duration_minutes", "capacity", "certificate_threshold"),
    delete=False,
    guard_update=_guard_event,
    title="webinar",
)
panelists = service.resource(
    Panelist,
    name="panelist",
    plural="panelists",
    prefix="pan",
    create=False,
    get=False,
    filters=("event_id", "email", "role"),
    guard_delete=_guard_panelist_delete,
)
registrants = service.resource(
    Registrant,
    name="registrant",
    plural="registrants",
    prefix="reg",
    create=False,
    get=False,
    filters=("event_id", "email", "status", "company"),
    search=("name", "email", "company"),
    delete=False,
    title="webinar registrant",
)
polls = service.resource(
    Poll,
    name="poll",
    plural="polls",
    prefix="poll",
    create=("event_id", "question", "options", "allow_multiple"),
    get=False,
    filters=("event_id", "status"),
    delete=False,
    guard_create=_guard_poll,
)
votes = service.resource(
    Vote,
    name="vote",
    plural="votes",
    prefix="vote",
    create=False,
    get=False,
    filters=("poll_id", "registrant_id"),
    delete=False,
)
attendances = service.resource(
    Attendance,
    name="attendance",
    plural="attendances",
    prefix="att",
    create=False,
    get=False,
    filters=("event_id", "registrant_id", "email", "certificate"),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    host = ctx.population.employees[0]
    start = (ctx.now() + dt.timedelta(days=10)).replace(minute=0, second=0, microsecond=0)
    return {
        "title": "Product update",
        "host_email": host.email,
        "start_time": start.isoformat(),
        "duration_minutes": 45,
    }


_example_panelist = first_example(
    Event,
    "event_id",
    match=lambda ctx, e: e.status in ("draft", "scheduled"),
    name="Guest Speaker",
    email="guest.speaker@example.org",
)
_example_schedule = first_example(
    Event,
    "event_id",
    where={"status": "draft"},
    match=lambda ctx, e: ctx.first(Panelist, event_id=e.id, role="presenter") is not None,
)
_example_decide = first_example(
    Registrant,
    "registrant_id",
    where={"status": "pending"},
    match=lambda ctx, r: _approved(ctx, r.event_id) < ctx.get(Event, r.event_id).capacity,
    decision="approve",
)
_example_cancel_reg = first_example(
    Registrant,
    "registrant_id",
    where={"status": "approved"},
    match=lambda ctx, r: ctx.get(Event, r.event_id).status == "scheduled",
)


def _example_event_status(status: str) -> Any:
    return first_example(
        Event,
        "event_id",
        where={"status": status},
        match=lambda ctx, e: status != "scheduled" or e.start_time - EARLY_START <= ctx.now(),
    )


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(Event, status="live"):
        for r in ctx.where(Registrant, event_id=e.id, status="approved"):
            if not any(a.left_at is None for a in ctx.where(Attendance, event_id=e.id, registrant_id=r.id)):
                return {"registrant_id": r.id}
    return None


def _example_poll(status: str) -> Any:
    return first_example(
        Poll, "poll_id", where={"status": status}, match=lambda ctx, p: ctx.get(Event, p.event_id).status == "live"
    )


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Poll, status="launched"):
        for a in ctx.where(Attendance, event_id=p.event_id):
            if ctx.first(Vote, poll_id=p.id, registrant_id=a.registrant_id) is None:
                return {"poll_id": p.id, "registrant_id": a.registrant_id, "choices": [p.options[0]]}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="create a webinar", write=True, example=_example_create)
def create_event(
    ctx: Ctx,
    title: Title,
    host_email: Email,
    start_time: DateTime,
    duration_minutes: Minutes,
    description: Text = "",
    timezone: Timezone = "UTC",
    capacity: Annotated[int, Field(ge=1, le=10000)] = 500,
    approval: Literal["automatic", "manual"] = "automatic",
    certificate_threshold: Percent | None = None,
) -> Event:
    """Create a draft webinar starting in the future; add a presenter, then schedule it.

    Args:
        title: Event title.
        host_email: E-mail of the employee hosting it.
        start_time: Start, in the future.
        duration_minutes: Length (15 to 480 minutes).
        description: What it is about.
        timezone: Time zone shown to registrants.
        capacity: Most approved registrants.
        approval: automatic or manual approval of registrants.
        certificate_threshold: Percent of the event to watch for a certificate.
    """
    if start_time <= ctx.now():
        raise RuleViolation("a webinar must start in the future", field="start_time", hint="pick a later time")
    staff = {p.email for p in ctx.population.employees}
    if host_email not in staff:
        raise RuleViolation(
            f"{host_email} is not an employee", field="host_email", hint="webinars are hosted by the company's staff"
        )
    made = ctx.create(
        Event,
        title=title,
        host_email=host_email,
        start_time=start_time,
        duration_minutes=duration_minutes,
        description=description,
        timezone=timezone,
        capacity=capacity,
        approval=approval,
        certificate_threshold=certificate_threshold,
        audience_url=f"{BASE}/pending",
    )
    return ctx.update(made, audience_url=f"{BASE}/register/{made.id.replace('_', '')}")


@service.tool(intent="add a presenter or moderator to the webinar", write=True, example=_example_panelist)
def add_panelist(
    ctx: Ctx,
    event_id: EventId,
    name: PersonName,
    email: Email,
    role: Literal["presenter", "moderator"] = "presenter",
    company: CompanyName | None = None,
) -> Panelist:
    """Add a panelist (presenter or moderator) to a draft, scheduled or live event; panelists do not register.

    Args:
        event_id: The event.
        name: Full name.
        email: E-mail address.
        role: presenter or moderator.
        company: Company of a guest speaker.
    """
    event = ctx.get(Event, event_id, field="event_id")
    _editable(event)
    if ctx.first(Panelist, event_id=event.id, email=email) is not None:
        raise Conflict(f"{email} is already a panelist", field="email", hint="nothing to do")
    reg = ctx.first(Registrant, event_id=event.id, email=email)
    if reg is not None and reg.status in ("pending", "approved", "waitlisted"):
        raise RuleViolation(
            f"{email} is registered as an attendee",
            field="email",
            hint="cancel their registration first; panelists join through their own link",
        )
    return ctx.create(
        Panelist,
        event_id=event.id,
        name=name,
        email=email,
        role=role,
        company=company,
        join_url=_link("studio", event.id, email),
    )


@service.tool(intent="schedule the webinar and open registration", write=True, example=_example_schedule)
def schedule_event(ctx: Ctx, event_id: EventId) -> Event:
    """Schedule a draft event, opening registration; it needs a presenter and a start in the future.

    Args:
        event_id: The draft event.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status != "draft":
        raise RuleViolation(
            f"event {event.title} is {event.status}", field="event_id", hint="only drafts are scheduled"
        )
    if ctx.first(Panelist, event_id=event.id, role="presenter") is None:
        raise RuleViolation(
            f"event {event.title} has no presenter", field="event_id", hint="add one with webinars__add_panelist"
        )
    if event.start_time <= ctx.now():
        raise RuleViolation("its start has passed", field="event_id", hint="move start_time later first")
    return ctx.update(event, status="scheduled")


class Cancelled(BaseModel):
    """A cancelled event and whom to tell."""

    event: Event = Field(description="The cancelled event.")
    notify_emails: list[Email] = Field(description="Registrants whose registration was cancelled with it.")


@service.tool(intent="cancel the webinar", write=True, destructive=True, example=_example_event_status("scheduled"))
def cancel_event(ctx: Ctx, event_id: EventId) -> Cancelled:
    """Cancel a draft or scheduled event; every registration is cancelled and the registrants are listed.

    Args:
        event_id: The event.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status not in ("draft", "scheduled"):
        raise RuleViolation(
            f"event {event.title} is {event.status}",
            field="event_id",
            hint="live events are ended, not cancelled" if event.status == "live" else "it is over already",
        )
    emails: list[str] = []
    for r in ctx.where(Registrant, event_id=event.id):
        if r.status in ("pending", "approved", "waitlisted"):
            ctx.update(r, status="cancelled")
            emails.append(r.email)
    return Cancelled(event=ctx.update(event, status="cancelled"), notify_emails=emails)


@service.tool(intent="start the webinar", write=True, example=_example_event_status("scheduled"))
def start_event(ctx: Ctx, event_id: EventId) -> Event:
    """Go live with a scheduled event, at most 30 minutes before its start.

    Args:
        event_id: The scheduled event.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status != "scheduled":
        raise RuleViolation(
            f"event {event.title} is {event.status}", field="event_id", hint="only scheduled events go live"
        )
    if ctx.now() < event.start_time - EARLY_START:
        raise RuleViolation(
            f"event {event.title} starts at {event.start_time.isoformat()}; it can go live 30 minutes before",
            field="event_id",
            hint="wait, or move start_time earlier",
        )
    return ctx.update(event, status="live", started_at=ctx.now())


def _close(ctx: Ctx, event: Event, att: Attendance, when: dt.datetime) -> Attendance:
    minutes = max(0, int((when - att.joined_at).total_seconds() // 60))
    total = minutes + sum(
        a.minutes for a in ctx.where(Attendance, event_id=event.id, registrant_id=att.registrant_id) if a.id != att.id
    )
    cert = (
        event.certificate_threshold is not None and total * 100 >= event.certificate_threshold * event.duration_minutes
    )
    return ctx.update(att, left_at=when, minutes=minutes, certificate=cert)


class Ended(BaseModel):
    """An ended event and its attendance."""

    event: Event = Field(description="The ended event.")
    attendees: int = Field(description="Distinct attendees.")
    certificates: list[Email] = Field(description="Attendees who earned the certificate.")


@service.tool(intent="end the live webinar", write=True, example=_example_event_status("live"))
def end_event(ctx: Ctx, event_id: EventId) -> Ended:
    """End a live event: open attendances close now, launched polls close, certificates are awarded.

    Args:
        event_id: The live event.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status != "live":
        raise RuleViolation(f"event {event.title} is {event.status}", field="event_id", hint="only live events end")
    now = ctx.now()
    for a in ctx.where(Attendance, event_id=event.id):
        if a.left_at is None:
            _close(ctx, event, a, now)
    for p in ctx.where(Poll, event_id=event.id, status="launched"):
        ctx.update(p, status="closed")
    event = ctx.update(event, status="ended", ended_at=now, on_demand_url=f"{BASE}/watch/{event.id.replace('_', '')}")
    atts = ctx.where(Attendance, event_id=event.id)
    certs = sorted({a.email for a in atts if a.certificate})
    return Ended(event=event, attendees=len({a.registrant_id for a in atts}), certificates=certs)


@service.tool(
    intent="register for the webinar",
    write=True,
    example=first_example(
        Event, "event_id", where={"status": "scheduled"}, email="new.attendee@example.org", name="New Attendee"
    ),
)
def register(
    ctx: Ctx,
    event_id: EventId,
    email: Email,
    name: PersonName,
    company: CompanyName | None = None,
    job_title: JobTitle | None = None,
    country: Country | None = None,
) -> Registrant:
    """Register a person for a scheduled or live event.

    Automatic-approval events approve while seats remain and waitlist the
    rest; manual-approval events put registrants up for the host's decision.

    Args:
        event_id: The event.
        email: E-mail address.
        name: Full name.
        company: Company.
        job_title: Job title.
        country: Country code.
    """
    event = ctx.get(Event, event_id, field="event_id")
    if event.status not in ("scheduled", "live"):
        raise RuleViolation(
            f"event {event.title} is {event.status}; registration is closed",
            field="event_id",
            hint="register for a scheduled event",
        )
    existing = ctx.first(Registrant, event_id=event.id, email=email)
    if existing is not None and existing.status != "cancelled":
        raise Conflict(f"{email} is already registered ({existing.status})", field="email", hint="nothing to do")
    if ctx.first(Panelist, event_id=event.id, email=email) is not None:
        raise RuleViolation(f"{email} is a panelist of the event", field="email", hint="panelists do not register")
    status: RegStatus
    if event.approval == "manual":
        status = "pending"
    else:
        status = "approved" if _approved(ctx, event.id) < event.capacity else "waitlisted"
    fields = dict(name=name, company=company, job_title=job_title, country=country, status=status)
    if existing is not None:
        return ctx.update(existing, **fields)
    return ctx.create(Registrant, event_id=event.id, email=email, join_url=_link("join", event.id, email), **fields)


@service.tool(intent="approve or deny the registration", write=True, example=_example_decide)
def decide_registration(ctx: Ctx, registrant_id: RegistrantId, decision: Literal["approve", "deny"]) -> Registrant:
    """Approve or deny a pending or waitlisted registrant; approving needs a free seat.

    Args:
        registrant_id: The registrant.
        decision: approve or deny.
    """
    reg = ctx.get(Registrant, registrant_id, field="registrant_id")
    event = ctx.get(Event, reg.event_id)
    _editable(event, "registrant_id")
    if reg.status not in ("pending", "waitlisted"):
        raise RuleViolation(
            f"registrant {reg.email} is {reg.status}",
            field="registrant_id",
            hint="only pending or waitlisted registrants",
        )
    if decision == "deny":
        return ctx.update(reg, status="denied")
    if _approved(ctx, event.id) >= event.capacity:
        raise Conflict(
            f"event {event.title} is full ({event.capacity} approved)",
            field="decision",
            hint="raise the capacity with webinars__update_event, or wait for a cancellation",
        )
    return ctx.update(reg, status="approved")


class RegistrationCancelled(BaseModel):
    """A cancelled registration and who got the seat."""

    registrant: Registrant = Field(description="The cancelled registration.")
    promoted: Registrant | None = Field(description="The waitlisted registrant who got the seat, if any.")


@service.tool(intent="cancel the registration", write=True, example=_example_cancel_reg)
def cancel_registration(ctx: Ctx, registrant_id: RegistrantId) -> RegistrationCancelled:
    """Cancel a registration; on automatic-approval events the first waitlisted registrant gets the seat.

    Args:
        registrant_id: The registrant.
    """
    reg = ctx.get(Registrant, registrant_id, field="registrant_id")
    event = ctx.get(Event, reg.event_id)
    _editable(event, "registrant_id")
    if reg.status in ("cancelled", "denied"):
        raise RuleViolation(f"registrant {reg.email} is {reg.status}", field="registrant_id", hint="nothing to cancel")
    freed = reg.status == "approved"
    reg = ctx.update(reg, status="cancelled")
    promoted = None
    if freed and event.approval == "automatic":
        waiting = sorted(
            ctx.where(Registrant, event_id=event.id, status="waitlisted"), key=lambda r: (r.registered_at, r.id)
        )
        if waiting:
            promoted = ctx.update(waiting[0], status="approved")
    return RegistrationCancelled(registrant=reg, promoted=promoted)


@service.tool(intent="join the live webinar", write=True, example=_example_join)
def join_event(ctx: Ctx, registrant_id: RegistrantId) -> Attendance:
    """Let an approved registrant into a live event (again after leaving).

    Args:
        registrant_id: The registrant.
    """
    reg = ctx.get(Registrant, registrant_id, field="registrant_id")
    event = ctx.get(Event, reg.event_id)
    if event.status != "live":
        raise RuleViolation(
            f"event {event.title} is {event.status}, not live", field="registrant_id", hint="join once it is live"
        )
    if reg.status != "approved":
        raise RuleViolation(
            f"registrant {reg.email} is {reg.status}", field="registrant_id", hint="only approved registrants join"
        )
    if any(a.left_at is None for a in ctx.where(Attendance, event_id=event.id, registrant_id=reg.id)):
        raise Conflict(f"{reg.email} is already in the event", field="registrant_id", hint="nothing to do")
    return ctx.create(Attendance, event_id=event.id, registrant_id=reg.id, email=reg.email, joined_at=ctx.now())


def _live_poll(ctx: Ctx, poll_id: str) -> tuple[Poll, Event]:
    poll = ctx.get(Poll, poll_id, field="poll_id")
    event = ctx.get(Event, poll.event_id)
    if event.status != "live":
        raise RuleViolation(f"event {event.title} is not live", field="poll_id", hint="polls run during the live event")
    return poll, event


@service.tool(intent="launch the poll to attendees", write=True, example=_example_poll("draft"))
def launch_poll(ctx: Ctx, poll_id: PollId) -> Poll:
    """Show a draft poll to the attendees of the live event.

    Args:
        poll_id: The draft poll.
    """
    poll, _ = _live_poll(ctx, poll_id)
    if poll.status != "draft":
        raise RuleViolation(f"poll is {poll.status}", field="poll_id", hint="only draft polls are launched")
    return ctx.update(poll, status="launched")


@service.tool(intent="vote in the poll", write=True, example=_example_vote)
def vote_in_poll(
    ctx: Ctx,
    poll_id: PollId,
    registrant_id: RegistrantId,
    choices: Annotated[list[Option], Field(min_length=1, max_length=10)],
) -> Vote:
    """Record an attendee's answer to a launched poll of the live event; each attendee votes once.

    Args:
        poll_id: The launched poll.
        registrant_id: The attendee.
        choices: Options picked (one unless the poll allows several).
    """
    poll, event = _live_poll(ctx, poll_id)
    reg = ctx.get(Registrant, registrant_id, field="registrant_id")
    if poll.status != "launched":
        raise RuleViolation(f"poll is {poll.status}", field="poll_id", hint="vote while the poll is launched")
    if reg.event_id != event.id or ctx.first(Attendance, event_id=event.id, registrant_id=reg.id) is None:
        raise RuleViolation(f"{reg.email} has not joined this event", field="registrant_id", hint="only attendees vote")
    if ctx.first(Vote, poll_id=poll.id, registrant_id=reg.id) is not None:
        raise Conflict(f"{reg.email} has already voted", field="registrant_id", hint="each attendee votes once")
    picked = tuple(dict.fromkeys(choices))
    if len(picked) > 1 and not poll.allow_multiple:
        raise RuleViolation("this poll takes one choice", field="choices", hint="pick one option")
    bad = [c for c in picked if c not in poll.options]
    if bad:
        raise RuleViolation(f"{bad[0]!r} is not an option", field="choices", hint=f"choose from {list(poll.options)}")
    return ctx.create(Vote, poll_id=poll.id, registrant_id=reg.id, choices=picked)


class AttendeeLine(BaseModel):
    """One approved registrant in the attendance report."""

    registrant_id: RegistrantId = Field(description="The registrant.")
    email: Email = Field(description="E-mail address.")
    name: PersonName = Field(description="Full name.")
    company: CompanyName | None = Field(description="Company.")
    attended: bool = Field(description="Whether they joined.")
    minutes: int = Field(description="Minutes watched.")
    polls_answered: int = Field(description="Polls they voted in.")
    certificate: bool = Field(description="Whether they earned the certificate.")


class AttendanceReport(BaseModel):
    """Who came and how engaged they were."""

    event_id: EventId = Field(description="The event.")
    approved: int = Field(description="Approved registrants.")
    attendees: int = Field(description="Approved registrants who joined.")
    attendance_rate: Percent = Field(description="Attendees per approved registrant, in percent.")
    average_minutes: float = Field(description="Average minutes watched per attendee.")
    lines: list[AttendeeLine] = Field(description="Per approved registrant.")


@service.tool(intent="get the webinar's attendance report")
def attendance_report(ctx: Ctx, event_id: EventId) -> AttendanceReport:
    """Report attendance and engagement per approved registrant: minutes watched, polls answered, certificates.

    Args:
        event_id: The event.
    """
    event = ctx.get(Event, event_id, field="event_id")
    poll_ids = {p.id for p in ctx.where(Poll, event_id=event.id)}
    lines: list[AttendeeLine] = []
    for r in ctx.where(Registrant, event_id=event.id, status="approved"):
        atts = ctx.where(Attendance, event_id=event.id, registrant_id=r.id)
        lines.append(
            AttendeeLine(
                registrant_id=r.id,
                email=r.email,
                name=r.name,
                company=r.company,
                attended=bool(atts),
                minutes=sum(a.minutes for a in atts),
                polls_answered=sum(1 for v in ctx.where(Vote, registrant_id=r.id) if v.poll_id in poll_ids),
                certificate=any(a.certificate for a in atts),
            )
        )
    came = [ln for ln in lines if ln.attended]
    return AttendanceReport(
        event_id=event.id,
        approved=len(lines),
        attendees=len(came),
        attendance_rate=round(100 * len(came) / len(lines), 1) if lines else 0.0,
        average_minutes=round(sum(ln.minutes for ln in came) / len(came), 1) if came else 0.0,
        lines=lines,
    )


# -- seed -------------------------------------------------------------------------------------

POLLS = (
    ("How do you track your shipments today?", ("Spreadsheets", "Our ERP", "A carrier portal", "We don't")),
    ("Which topics should we cover next?", ("Automation", "Pricing", "Integrations")),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """An ended webinar with attendance and polls, one live now, scheduled ones (one full, one manual), a draft."""
    pop = s.population
    now = s.now
    hosts = pop.staff("Marketing", "Sales")
    contacts = list(pop.contacts)
    consumers = list(pop.consumers)
    _seed_past_event(s, hosts)
    _seed_live_event(s, hosts)
    soon = _seed_event(
        s, hosts, 2, "Office hours: integrations Q&A", now + dt.timedelta(minutes=20), "scheduled", duration=30
    )
    for k, p in enumerate(contacts[26:34]):
        _seed_registrant(s, soon, p, "approved", now - dt.timedelta(days=1, minutes=k))
    full = _seed_event(
        s, hosts, 3, "Masterclass: warehouse automation", now + dt.timedelta(days=6), "scheduled", capacity=12
    )
    for k, p in enumerate(consumers[14:30]):
        _seed_registrant(s, full, p, "approved" if k < 12 else "waitlisted", now - dt.timedelta(days=4, minutes=60 - k))
    vip = _seed_event(
        s, hosts, 4, "Executive roundtable", now + dt.timedelta(days=12), "scheduled", approval="manual", capacity=10
    )
    for k, p in enumerate(contacts[34:44]):
        status: RegStatus = ("approved", "pending", "pending", "denied")[k % 4]
        _seed_registrant(s, vip, p, status, now - dt.timedelta(days=2, hours=k))
    _seed_event(s, hosts, 5, "Spring product launch", now + dt.timedelta(days=30), "draft", capacity=1000)
    gone = _seed_event(s, hosts, 6, "Holiday sales kickoff", now + dt.timedelta(days=3), "cancelled")
    for k, p in enumerate(consumers[30:34]):
        _seed_registrant(s, gone, p, "cancelled", now - dt.timedelta(days=6, hours=k))


def _seed_event(
    s: SeedContext, hosts: list[Person], k: int, title: str, start: dt.datetime, status: EventStatus, **extra: Any
) -> Event:
    """The ``k``-th webinar with a staff presenter, on even ``k`` a customer's guest presenter, and a moderator."""
    pop = s.population
    home = pop.home
    made = s.create(
        Event,
        title=title,
        description=f"A {home.name} webinar.",
        host_email=hosts[k % len(hosts)].email,
        start_time=start,
        duration_minutes=extra.pop("duration", 60),
        timezone=home.place.timezone,
        status=status,
        audience_url=f"{BASE}/pending",
        created_at=s.now - dt.timedelta(days=30 - k),
        **extra,
    )
    made = s.update(made, audience_url=f"{BASE}/register/{made.id.replace('_', '')}")
    speaker = hosts[(k + 1) % len(hosts)]
    s.create(
        Panelist,
        event_id=made.id,
        name=speaker.name,
        email=speaker.email,
        role="presenter",
        join_url=_link("studio", made.id, speaker.email),
    )
    if k % 2 == 0:
        guest = pop.contacts[k]
        company = pop.company_of(guest)
        s.create(
            Panelist,
            event_id=made.id,
            name=guest.name,
            email=guest.email,
            role="presenter",
            company=company.name if company else None,
            join_url=_link("studio", made.id, guest.email),
        )
    mod = hosts[(k + 2) % len(hosts)]
    s.create(
        Panelist,
        event_id=made.id,
        name=mod.name,
        email=mod.email,
        role="moderator",
        join_url=_link("studio", made.id, mod.email),
    )
    return made


def _seed_registrant(s: SeedContext, e: Event, p: Person, status: RegStatus, when: dt.datetime) -> Registrant:
    company = s.population.company_of(p)
    return s.create(
        Registrant,
        event_id=e.id,
        email=p.email,
        name=p.name,
        company=company.name if company else None,
        job_title=p.job_title if company else None,
        country=p.place.country,
        status=status,
        join_url=_link("join", e.id, p.email),
        registered_at=when,
    )


def _seed_past_event(s: SeedContext, hosts: list[Person]) -> None:
    """Last week's webinar with certificates: who registered, who came for how long, and their poll votes."""
    past_start = s.now - dt.timedelta(days=7, hours=2)
    past = _seed_event(
        s,
        hosts,
        0,
        "Shipping smarter in 2026",
        past_start,
        "ended",
        certificate_threshold=75.0,
        started_at=past_start,
        ended_at=past_start + dt.timedelta(minutes=60),
        on_demand_url=f"{BASE}/watch/ev000001",
    )
    past_regs = [
        _seed_registrant(s, past, p, "approved", past_start - dt.timedelta(days=3, hours=k))
        for k, p in enumerate(s.population.contacts[2:26])
    ]
    polls_made = [
        s.create(Poll, event_id=past.id, question=q, options=opts, status="closed", allow_multiple=k == 1)
        for k, (q, opts) in enumerate(POLLS)
    ]
    for k, r in enumerate(past_regs):
        if k % 3 == 2:
            continue  # registered but did not come
        minutes = (60, 52, 45, 30, 15, 58)[k % 6]
        joined = past_start + dt.timedelta(minutes=60 - minutes)
        s.create(
            Attendance,
            event_id=past.id,
            registrant_id=r.id,
            email=r.email,
            joined_at=joined,
            left_at=joined + dt.timedelta(minutes=minutes),
            minutes=minutes,
            certificate=minutes * 100 >= 75 * 60,
        )
        for j, poll in enumerate(polls_made):
            if (k + j) % 2 == 0:
                s.create(
                    Vote,
                    poll_id=poll.id,
                    registrant_id=r.id,
                    choices=(poll.options[(k + j) % len(poll.options)],),
                    voted_at=joined + dt.timedelta(minutes=5 + 10 * j),
                )


def _seed_live_event(s: SeedContext, hosts: list[Person]) -> None:
    """The demo that went live 25 minutes ago, eight of its registrants in the room, one poll launched."""
    now = s.now
    live_start = now - dt.timedelta(minutes=25)
    live = _seed_event(
        s, hosts, 1, "Live demo: the new customer portal", live_start, "live", duration=45, started_at=live_start
    )
    live_regs = [
        _seed_registrant(s, live, p, "approved", now - dt.timedelta(days=2, minutes=k))
        for k, p in enumerate(s.population.consumers[:14])
    ]
    for k, r in enumerate(live_regs[:8]):
        s.create(
            Attendance,
            event_id=live.id,
            registrant_id=r.id,
            email=r.email,
            joined_at=live_start + dt.timedelta(minutes=k),
        )
    s.create(Poll, event_id=live.id, question="Have you used the old portal?", options=("Yes", "No"), status="launched")
    s.create(Poll, event_id=live.id, question="Would you recommend the new portal?", options=("Yes", "Maybe", "No"))
