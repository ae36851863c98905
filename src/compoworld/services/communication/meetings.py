"""Huddle Meetings: video meetings and webinars hosted by the home company's staff.

Modeled on the Zoom Meetings API v2 (Users, Meetings with join_url, password
and approval_type, meeting Registrants and their status actions, past-meeting
Participants, Cloud Recordings with trash/delete/recover, Webinars): a host
never has two overlapping sessions nor two running at once, only meetings with
registration take registrants, manual-approval registrants wait for the host,
only the host deletes recordings, and an ended meeting is a closed record.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    DateTime,
    Email,
    FileLink,
    FirstName,
    IdOf,
    LastName,
    MeetingLink,
    PersonName,
    Quantity,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import iso_z, utc_at

__all__ = ["service"]

service = Service(
    "meetings",
    title="Huddle Meetings",
    category="video_meetings",
    modeled_on="Zoom Meetings API v2 (Users, Meetings, Meeting Registrants and registrant status, "
    "Past Meeting Participants, Cloud Recordings, Webinars)",
    description="Video meetings and webinars of the home company: hosts, scheduled meetings with join links "
    "and passcodes, registration with host approval, who attended, and cloud recordings.",
)

UserId = Annotated[str, IdOf("meetings.user")]
MeetingId = Annotated[str, IdOf("meetings.meeting")]
WebinarId = Annotated[str, IdOf("meetings.webinar")]
RegistrantId = Annotated[str, IdOf("meetings.registrant")]
ParticipantId = Annotated[str, IdOf("meetings.participant")]
RecordingId = Annotated[str, IdOf("meetings.recording")]
Passcode = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9@_*-]{1,10}$")]
Minutes = Annotated[int, Field(ge=1, le=1440)]
Approval = Literal["automatic", "manual", "none"]
MeetingStatus = Literal["waiting", "started", "ended"]
RegistrantStatus = Literal["pending", "approved", "denied", "canceled"]

BASE = "https://huddle.example"


class User(Created):
    """A Huddle user: an employee of the home company who can host."""

    id: UserId
    email: Email
    """The user's sign-in e-mail (the employee's work address)."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    type: Literal["basic", "licensed"] = "basic"
    """Plan: licensed users may host webinars and record to the cloud."""
    status: Literal["active", "inactive"] = "active"
    """Inactive users cannot host."""
    timezone: Timezone = "UTC"
    """The user's time zone."""
    dept: str = ""
    """Department, free text."""


class Meeting(Record):
    """A scheduled meeting with its join link, passcode and registration settings."""

    id: MeetingId
    host_id: UserId
    """The hosting user."""
    topic: Title
    """Meeting topic."""
    start_time: DateTime
    """Scheduled start (UTC)."""
    duration: Minutes
    """Scheduled length in minutes."""
    timezone: Timezone = "UTC"
    """Time zone the meeting is shown in."""
    agenda: Text = ""
    """Agenda."""
    meeting_number: Annotated[str, StringConstraints(pattern=r"^[0-9]{9,11}$")]
    """The numeric meeting ID people dial in with."""
    passcode: Passcode
    """Passcode needed to join."""
    join_url: MeetingLink
    """Link participants join with."""
    approval_type: Approval = "none"
    """Registration: automatic approval, manual approval by the host, or none (no registration)."""
    waiting_room: bool = True
    """Whether participants wait until admitted."""
    auto_recording: Literal["none", "cloud"] = "none"
    """Whether the meeting is recorded to the cloud."""
    status: MeetingStatus = "waiting"
    """waiting (not started), started (in progress) or ended; ended meetings are immutable."""
    started_at: DateTime | None = None
    """When it actually started."""
    ended_at: DateTime | None = None
    """When it actually ended."""
    created_at: Annotated[DateTime, CREATED]
    """When it was scheduled."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Webinar(Record):
    """A webinar: a broadcast session with panelists, hosted by a licensed user."""

    id: WebinarId
    host_id: UserId
    """The hosting (licensed) user."""
    topic: Title
    """Webinar topic."""
    start_time: DateTime
    """Scheduled start (UTC)."""
    duration: Minutes
    """Scheduled length in minutes."""
    agenda: Text = ""
    """Description shown on the registration page."""
    join_url: MeetingLink
    """Link attendees join with."""
    panelist_emails: tuple[Email, ...] = ()
    """E-mails of the panelists."""
    status: Literal["scheduled", "ended"] = "scheduled"
    """scheduled or ended; ended webinars are immutable."""
    created_at: Annotated[DateTime, CREATED]
    """When it was scheduled."""


class Registrant(Record):
    """A person registered for a meeting, with the host's approval status."""

    id: RegistrantId
    meeting_id: MeetingId
    """The meeting."""
    email: Email
    """The registrant's e-mail; unique per meeting."""
    first_name: FirstName
    """Given name."""
    last_name: LastName | None = None
    """Family name."""
    status: RegistrantStatus = "pending"
    """pending (awaiting the host), approved, denied or canceled."""
    join_url: MeetingLink
    """The registrant's personal join link."""
    created_at: Annotated[DateTime, CREATED]
    """When they registered."""


class Participant(Record):
    """Someone who attended an ended meeting."""

    id: ParticipantId
    meeting_id: MeetingId
    """The meeting."""
    name: PersonName
    """Display name."""
    user_email: Email | None = None
    """E-mail, if known."""
    join_time: DateTime
    """When they joined."""
    leave_time: DateTime
    """When they left."""
    duration_minutes: Quantity
    """Minutes attended."""


class Recording(Record):
    """One file of a meeting's cloud recording."""

    id: RecordingId
    meeting_id: MeetingId
    """The recorded meeting."""
    host_id: UserId
    """The meeting's host, who owns the recording."""
    recording_type: Literal["shared_screen_with_speaker_view", "audio_only", "audio_transcript", "chat_file"]
    """What the file holds."""
    file_type: Literal["MP4", "M4A", "TRANSCRIPT", "CHAT"]
    """File format."""
    file_size: Quantity
    """Size in bytes."""
    download_url: FileLink
    """Link to download the file."""
    play_url: Url
    """Link to play it in the browser."""
    recording_start: DateTime
    """When recording started."""
    recording_end: DateTime
    """When recording ended."""
    status: Literal["completed", "trashed"] = "completed"
    """completed, or trashed (recoverable)."""


# -- rules ------------------------------------------------------------------------------------


def _end(start: dt.datetime, minutes: int) -> dt.datetime:
    return start + dt.timedelta(minutes=minutes)


def _check_overlap(
    ctx: Ctx, host_id: str, start: dt.datetime, duration: int, *, skip: str = "", field: str = "start_time"
) -> None:
    end = _end(start, duration)
    busy: list[tuple[str, str, dt.datetime, int]] = [
        (m.id, m.topic, m.start_time, m.duration)
        for m in ctx.where(Meeting, host_id=host_id)
        if m.status != "ended" and m.id != skip
    ]
    busy += [
        (w.id, w.topic, w.start_time, w.duration)
        for w in ctx.where(Webinar, host_id=host_id)
        if w.status != "ended" and w.id != skip
    ]
    for oid, topic, s, d in busy:
        if s < end and start < _end(s, d):
            raise Conflict(
                f"the host already has {oid} ({topic!r}) from {s.isoformat()} for {d} minutes",
                field=field,
                hint="pick a time that does not overlap the host's other sessions "
                "(meetings__check_host_availability), or another host",
            )


def _active_host(ctx: Ctx, host_id: str, field: str = "host_id") -> User:
    host = ctx.get(User, host_id, field=field)
    if host.status != "active":
        raise RuleViolation(
            f"user {host.email} is inactive and cannot host", field=field, hint="activate the user or pick another host"
        )
    return host


def _not_ended(m: Meeting, field: str = "meeting_id") -> None:
    if m.status == "ended":
        raise RuleViolation(
            f"meeting {m.id} has ended and can no longer change",
            field=field,
            hint="ended meetings are kept as they were; schedule a new meeting",
        )


def _future(ctx: Ctx, start: dt.datetime, field: str = "start_time") -> None:
    if start <= ctx.now():
        raise RuleViolation(
            f"start time {start.isoformat()} is not in the future",
            field=field,
            hint=f"schedule it after {ctx.now().isoformat()}",
        )


def _guard_meeting_update(ctx: Ctx, new: Any, old: Any) -> None:
    _not_ended(old)
    if (new.start_time, new.duration) != (old.start_time, old.duration):
        if old.status == "started":
            raise RuleViolation(
                f"meeting {old.id} is in progress; its time cannot change",
                field="start_time",
                hint="end it, or schedule a new meeting",
            )
        if new.start_time != old.start_time:
            _future(ctx, new.start_time)
        _check_overlap(ctx, new.host_id, new.start_time, new.duration, skip=new.id)
    if new.approval_type == "none" and old.approval_type != "none":
        live = [r for r in ctx.where(Registrant, meeting_id=old.id) if r.status in ("pending", "approved")]
        if live:
            raise RuleViolation(
                f"meeting {old.id} has {len(live)} registrant(s); registration cannot be turned off",
                field="approval_type",
                hint="cancel or deny its registrants first (meetings__update_registrant_status)",
            )


def _guard_meeting_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "waiting":
        raise RuleViolation(
            f"meeting {old.id} is {old.status} and cannot be deleted",
            field="meeting_id",
            hint="only meetings that have not started can be deleted; end a running meeting instead",
        )


def _guard_webinar_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "ended":
        raise RuleViolation(
            f"webinar {old.id} has ended and can no longer change",
            field="webinar_id",
            hint="schedule a new webinar",
        )
    if new.status == "scheduled" and (new.start_time, new.duration) != (old.start_time, old.duration):
        if new.start_time != old.start_time:
            _future(ctx, new.start_time)
        _check_overlap(ctx, new.host_id, new.start_time, new.duration, skip=new.id)


def _guard_webinar_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "ended":
        raise RuleViolation(
            f"webinar {old.id} has ended and is kept on record", field="webinar_id", hint="nothing to cancel"
        )


def _guard_user_update(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "inactive" and old.status == "active":
        live = ctx.first(Meeting, host_id=old.id, status="started")
        if live is not None:
            raise RuleViolation(
                f"user {old.email} is hosting meeting {live.id} right now",
                field="user_id",
                hint="end the running meeting first",
            )
    if new.type == "basic" and old.type == "licensed":
        booked = [w for w in ctx.where(Webinar, host_id=old.id) if w.status == "scheduled"]
        if booked:
            raise RuleViolation(
                f"user {old.email} hosts {len(booked)} scheduled webinar(s), which need a license",
                field="type",
                hint="delete or hand over the webinars first",
            )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=("email", "first_name", "last_name", "type", "timezone", "dept"),
    filters=("email", "type", "status", "dept"),
    search=("email", "first_name", "last_name"),
    update=("first_name", "last_name", "type", "timezone", "dept"),
    delete=False,
    transitions={
        "deactivate": Transition("status", ("active",), "inactive", "deactivate the user"),
        "activate": Transition("status", ("inactive",), "active", "reactivate the user"),
    },
    unique=("email",),
    guard_update=_guard_user_update,
)
meetings = service.resource(
    Meeting,
    name="meeting",
    plural="meetings",
    prefix="mtg",
    create=False,
    filters=("host_id", "status", "approval_type", "meeting_number"),
    search=("topic", "agenda"),
    update=("topic", "start_time", "duration", "agenda", "approval_type", "waiting_room", "auto_recording"),
    guard_update=_guard_meeting_update,
    guard_delete=_guard_meeting_delete,
)
webinars = service.resource(
    Webinar,
    name="webinar",
    plural="webinars",
    prefix="web",
    create=False,
    filters=("host_id", "status"),
    search=("topic", "agenda"),
    update=("topic", "start_time", "duration", "agenda", "panelist_emails"),
    transitions={"end": Transition("status", ("scheduled",), "ended", "end the webinar", destructive=True)},
    guard_update=_guard_webinar_update,
    guard_delete=_guard_webinar_delete,
)
registrants = service.resource(
    Registrant,
    name="registrant",
    plural="registrants",
    prefix="reg",
    create=False,
    filters=("meeting_id", "email", "status"),
    search=("email", "first_name", "last_name"),
    delete=False,
)
participants = service.resource(
    Participant,
    name="participant",
    plural="participants",
    prefix="par",
    create=False,
    filters=("meeting_id", "user_email"),
    search=("name",),
    delete=False,
)
recordings = service.resource(
    Recording,
    name="recording",
    plural="recordings",
    prefix="rec",
    create=False,
    filters=("meeting_id", "host_id", "file_type", "status"),
    delete=False,
)


# -- scheduling -------------------------------------------------------------------------------


def _token(ctx: Ctx, n: int) -> str:
    alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(ctx.rng.choice(alphabet) for _ in range(n))


def _free_slot(ctx: Ctx, host: User, minutes: int = 30) -> dt.datetime:
    start = ctx.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(days=1)
    for _ in range(24 * 60):
        try:
            _check_overlap(ctx, host.id, start, minutes)
            return start
        except Conflict:
            start += dt.timedelta(hours=1)
    return start


def _example_create_meeting(ctx: Ctx) -> dict[str, Any] | None:
    host = ctx.first(User, status="active")
    if host is None:
        return None
    when = _free_slot(ctx, host, 45)
    return {"host_id": host.id, "topic": "Quarterly review", "start_time": iso_z(when), "duration": 45}


@service.tool(intent="schedule a video meeting", write=True, example=_example_create_meeting)
def create_meeting(
    ctx: Ctx,
    host_id: UserId,
    topic: Title,
    start_time: DateTime,
    duration: Minutes = 30,
    agenda: Text = "",
    approval_type: Approval = "none",
    passcode: Passcode | None = None,
    waiting_room: bool = True,
    auto_recording: Literal["none", "cloud"] = "none",
    timezone: Timezone | None = None,
) -> Meeting:
    """Schedule a meeting for a host; it gets a meeting number, a passcode and a join link.

    The host must be active and free: a host cannot have two overlapping
    meetings or webinars. The start must be in the future. Cloud recording needs
    a licensed host.

    Args:
        host_id: The host.
        topic: Meeting topic.
        start_time: Start (UTC), in the future.
        duration: Length in minutes.
        agenda: Agenda.
        approval_type: Registration: automatic, manual (host approves) or none.
        passcode: Passcode (default: a random 6-character one).
        waiting_room: Whether participants wait until admitted.
        auto_recording: Record to the cloud (licensed hosts only).
        timezone: Time zone shown to invitees (default: the host's).
    """
    host = _active_host(ctx, host_id)
    _future(ctx, start_time)
    if auto_recording == "cloud" and host.type != "licensed":
        raise RuleViolation(
            f"{host.email} has a basic plan, which cannot record to the cloud",
            field="auto_recording",
            hint="use auto_recording none, or license the user first",
        )
    _check_overlap(ctx, host.id, start_time, duration)
    number = str(ctx.rng.randint(10**9, 10**11 - 1))
    code = passcode or _token(ctx, 6)
    return ctx.create(
        Meeting,
        host_id=host.id,
        topic=topic,
        start_time=start_time,
        duration=duration,
        timezone=timezone or host.timezone,
        agenda=agenda,
        meeting_number=number,
        passcode=code,
        join_url=f"{BASE}/j/{number}?pwd={_token(ctx, 16)}",
        approval_type=approval_type,
        waiting_room=waiting_room,
        auto_recording=auto_recording,
    )


def _example_create_webinar(ctx: Ctx) -> dict[str, Any] | None:
    host = ctx.first(User, type="licensed", status="active")
    if host is None:
        return None
    return {"host_id": host.id, "topic": "Product launch webinar", "start_time": iso_z(_free_slot(ctx, host, 60))}


@service.tool(intent="schedule a webinar", write=True, example=_example_create_webinar)
def create_webinar(
    ctx: Ctx,
    host_id: UserId,
    topic: Title,
    start_time: DateTime,
    duration: Minutes = 60,
    agenda: Text = "",
    panelist_emails: list[Email] | None = None,
) -> Webinar:
    """Schedule a webinar. Only active licensed users host webinars, and not over their other sessions.

    Args:
        host_id: The host (a licensed user).
        topic: Webinar topic.
        start_time: Start (UTC), in the future.
        duration: Length in minutes.
        agenda: Description for the registration page.
        panelist_emails: E-mails of the panelists.
    """
    host = _active_host(ctx, host_id)
    if host.type != "licensed":
        raise RuleViolation(
            f"{host.email} has a basic plan and cannot host webinars",
            field="host_id",
            hint="pick a licensed user (meetings__list_users with type licensed)",
        )
    _future(ctx, start_time)
    _check_overlap(ctx, host.id, start_time, duration)
    number = str(ctx.rng.randint(10**9, 10**11 - 1))
    return ctx.create(
        Webinar,
        host_id=host.id,
        topic=topic,
        start_time=start_time,
        duration=duration,
        agenda=agenda,
        join_url=f"{BASE}/w/{number}?tk={_token(ctx, 16)}",
        panelist_emails=tuple(dict.fromkeys(panelist_emails or [])),
    )


class Availability(BaseModel):
    """Whether a host is free for a slot, and what is in the way."""

    host_id: UserId = Field(description="The host.")
    free: bool = Field(description="Whether the slot is free.")
    conflicts: list[str] = Field(description="Ids of the host's sessions overlapping the slot.")


@service.tool(intent="check whether the host is free then")
def check_host_availability(ctx: Ctx, host_id: UserId, start_time: DateTime, duration: Minutes = 30) -> Availability:
    """Check whether a host has no meeting or webinar overlapping a slot.

    Args:
        host_id: The host.
        start_time: Start of the slot (UTC).
        duration: Length of the slot in minutes.
    """
    host = ctx.get(User, host_id, field="host_id")
    end = _end(start_time, duration)
    hits: list[str] = [
        m.id
        for m in ctx.where(Meeting, host_id=host.id)
        if m.status != "ended" and m.start_time < end and start_time < _end(m.start_time, m.duration)
    ]
    hits += [
        w.id
        for w in ctx.where(Webinar, host_id=host.id)
        if w.status != "ended" and w.start_time < end and start_time < _end(w.start_time, w.duration)
    ]
    return Availability(host_id=host.id, free=not hits, conflicts=hits)


# -- running meetings -------------------------------------------------------------------------


def _example_startable(ctx: Ctx) -> dict[str, Any] | None:
    live = {m.host_id for m in ctx.where(Meeting, status="started")}
    for m in ctx.where(Meeting, status="waiting"):
        host = ctx.find(User, m.host_id)
        if host is not None and host.status == "active" and m.host_id not in live:
            return {"meeting_id": m.id}
    return None


@service.tool(intent="start the meeting", write=True, example=_example_startable)
def start_meeting(ctx: Ctx, meeting_id: MeetingId) -> Meeting:
    """Start a meeting that has not started yet. A host runs one meeting at a time.

    Args:
        meeting_id: The meeting.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    _not_ended(m)
    if m.status == "started":
        raise RuleViolation(f"meeting {m.id} is already in progress", field="meeting_id", hint="nothing to do")
    _active_host(ctx, m.host_id, field="meeting_id")
    running = ctx.first(Meeting, host_id=m.host_id, status="started")
    if running is not None:
        raise Conflict(
            f"the host is already running meeting {running.id}",
            field="meeting_id",
            hint="end the running meeting first (meetings__end_meeting)",
        )
    return ctx.update(m, status="started", started_at=ctx.now())


@service.tool(
    intent="end the meeting for everyone",
    write=True,
    destructive=True,
    example=first_example(Meeting, "meeting_id", where={"status": "started"}),
)
def end_meeting(ctx: Ctx, meeting_id: MeetingId) -> Meeting:
    """End a running meeting; it is then immutable.

    The host and the approved registrants are recorded as participants, and a
    cloud-recorded meeting gets its recording files.

    Args:
        meeting_id: The running meeting.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    _not_ended(m)
    if m.status != "started":
        raise RuleViolation(
            f"meeting {m.id} has not started", field="meeting_id", hint="start it first, or delete it to cancel"
        )
    start = m.started_at or m.start_time
    now = ctx.now()
    host = ctx.get(User, m.host_id, field="meeting_id")
    people: list[tuple[str, str | None]] = [(f"{host.first_name} {host.last_name}", host.email)]
    for r in ctx.where(Registrant, meeting_id=m.id, status="approved"):
        people.append((f"{r.first_name} {r.last_name or ''}".strip(), r.email))
    for name, email in people:
        ctx.create(
            Participant,
            meeting_id=m.id,
            name=name,
            user_email=email,
            join_time=start,
            leave_time=now,
            duration_minutes=int((now - start).total_seconds() // 60),
        )
    if m.auto_recording == "cloud":
        _record(ctx, m, start, now)
    return ctx.update(m, status="ended", ended_at=now)


def _record(ctx: Ctx, m: Meeting, start: dt.datetime, end: dt.datetime) -> None:
    seconds = max(60, int((end - start).total_seconds()))
    kinds: tuple[tuple[Any, Any, int], ...] = (
        ("shared_screen_with_speaker_view", "MP4", 220_000),
        ("audio_only", "M4A", 16_000),
        ("audio_transcript", "TRANSCRIPT", 40),
    )
    for rtype, ftype, rate in kinds:
        token = _token(ctx, 20)
        ctx.create(
            Recording,
            meeting_id=m.id,
            host_id=m.host_id,
            recording_type=rtype,
            file_type=ftype,
            file_size=seconds * rate,
            download_url=f"{BASE}/rec/download/{token}",
            play_url=f"{BASE}/rec/play/{token}",
            recording_start=start,
            recording_end=end,
        )


# -- registration -----------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.scan(Meeting):
        if m.approval_type == "none" or m.status == "ended":
            continue
        for p in ctx.population.contacts:
            if ctx.first(Registrant, meeting_id=m.id, email=p.email) is None:
                return {"meeting_id": m.id, "email": p.email, "first_name": p.first_name, "last_name": p.last_name}
    return None


@service.tool(intent="register the person for the meeting", write=True, example=_example_register)
def add_registrant(
    ctx: Ctx, meeting_id: MeetingId, email: Email, first_name: FirstName, last_name: LastName | None = None
) -> Registrant:
    """Register someone for a meeting that has registration enabled.

    With automatic approval the registrant is approved at once; with manual
    approval it is pending until the host approves it. An e-mail registers once
    per meeting; ended meetings take no registrants.

    Args:
        meeting_id: The meeting.
        email: The registrant's e-mail.
        first_name: Given name.
        last_name: Family name.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    if m.approval_type == "none":
        raise RuleViolation(
            f"meeting {m.id} does not have registration enabled",
            field="meeting_id",
            hint="share the join_url instead, or turn registration on with meetings__update_meeting (approval_type)",
        )
    _not_ended(m)
    taken = ctx.first(Registrant, meeting_id=m.id, email=email)
    if taken is not None and taken.status != "canceled":
        raise Conflict(
            f"{email} is already registered for meeting {m.id} ({taken.id}, {taken.status})",
            field="email",
            hint="use the existing registration",
        )
    status: RegistrantStatus = "approved" if m.approval_type == "automatic" else "pending"
    if taken is not None:
        return ctx.update(taken, status=status, first_name=first_name, last_name=last_name)
    return ctx.create(
        Registrant,
        meeting_id=m.id,
        email=email,
        first_name=first_name,
        last_name=last_name,
        status=status,
        join_url=f"{m.join_url}&tk={_token(ctx, 12)}",
    )


ALLOWED_FROM: dict[str, tuple[str, ...]] = {
    "approve": ("pending", "denied"),
    "deny": ("pending",),
    "cancel": ("pending", "approved"),
}
TARGET: dict[str, RegistrantStatus] = {"approve": "approved", "deny": "denied", "cancel": "canceled"}


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Registrant, status="pending"):
        m = ctx.find(Meeting, r.meeting_id)
        if m is not None and m.status != "ended":
            return {"meeting_id": m.id, "action": "approve", "registrant_ids": [r.id]}
    return None


@service.tool(intent="approve or deny the registration", write=True, example=_example_approve)
def update_registrant_status(
    ctx: Ctx,
    meeting_id: MeetingId,
    action: Literal["approve", "deny", "cancel"],
    registrant_ids: list[RegistrantId],
) -> list[Registrant]:
    """Approve, deny or cancel registrations of a meeting, all or none.

    approve works on pending or denied registrants, deny on pending ones,
    cancel on pending or approved ones. Only a manual-approval meeting has
    registrants to approve or deny; ended meetings cannot change.

    Args:
        meeting_id: The meeting.
        action: What to do with the registrants.
        registrant_ids: The registrants, all of this meeting (1 to 30).
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    _not_ended(m)
    if not registrant_ids or len(registrant_ids) > 30:
        raise RuleViolation("pass 1 to 30 registrant ids", field="registrant_ids", hint="split larger batches")
    if action in ("approve", "deny") and m.approval_type != "manual":
        raise RuleViolation(
            f"meeting {m.id} approves registrants {m.approval_type}ly, not by hand"
            if m.approval_type != "none"
            else f"meeting {m.id} has no registration",
            field="action",
            hint="only manual-approval meetings have registrants to approve or deny",
        )
    out: list[Registrant] = []
    for i, rid in enumerate(registrant_ids):
        r = ctx.get(Registrant, rid, field=f"registrant_ids.{i}")
        if r.meeting_id != m.id:
            raise RuleViolation(
                f"registrant {r.id} is registered for meeting {r.meeting_id}, not {m.id}",
                field=f"registrant_ids.{i}",
                hint="list this meeting's registrants with meetings__list_registrants",
            )
        if r.status not in ALLOWED_FROM[action]:
            raise RuleViolation(
                f"cannot {action} registrant {r.id}: it is {r.status}",
                field=f"registrant_ids.{i}",
                hint=f"{action} applies to registrants that are {' or '.join(ALLOWED_FROM[action])}",
            )
        out.append(ctx.update(r, status=TARGET[action]))
    return out


# -- recordings -------------------------------------------------------------------------------


def _recordings_of(ctx: Ctx, meeting_id: str, requested_by: str) -> list[Recording]:
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    who = ctx.get(User, requested_by, field="requested_by")
    if who.id != m.host_id:
        raise RuleViolation(
            f"{who.email} is not the host of meeting {m.id}; only the host manages its recordings",
            field="requested_by",
            hint="ask the meeting's host to do it",
        )
    return ctx.where(Recording, meeting_id=m.id)


class RecordingsChanged(BaseModel):
    """What a recordings action did."""

    meeting_id: MeetingId = Field(description="The meeting.")
    action: str = Field(description="trash, delete or recover.")
    recording_ids: list[RecordingId] = Field(description="The recording files affected.")


@service.tool(
    intent="delete the meeting's cloud recordings",
    write=True,
    destructive=True,
    example=first_example(
        Recording, where={"status": "completed"}, fields={"meeting_id": "meeting_id", "requested_by": "host_id"}
    ),
)
def delete_recordings(
    ctx: Ctx, meeting_id: MeetingId, requested_by: UserId, action: Literal["trash", "delete"] = "trash"
) -> RecordingsChanged:
    """Delete all recording files of a meeting: move them to the trash, or delete them for good.

    Only the meeting's host can delete its recordings.

    Args:
        meeting_id: The recorded meeting.
        requested_by: The user asking; must be the meeting's host.
        action: trash (recoverable) or delete (permanent, also empties the trash).
    """
    recs = _recordings_of(ctx, meeting_id, requested_by)
    targets = recs if action == "delete" else [r for r in recs if r.status == "completed"]
    if not targets:
        raise RuleViolation(
            f"meeting {meeting_id} has no recordings to {action}",
            field="meeting_id",
            hint="list recordings with meetings__list_recordings",
        )
    for r in targets:
        if action == "delete":
            ctx.delete(r)
        else:
            ctx.update(r, status="trashed")
    return RecordingsChanged(meeting_id=meeting_id, action=action, recording_ids=[r.id for r in targets])


@service.tool(
    intent="restore the meeting's recordings from the trash",
    write=True,
    example=first_example(
        Recording, where={"status": "trashed"}, fields={"meeting_id": "meeting_id", "requested_by": "host_id"}
    ),
)
def recover_recordings(ctx: Ctx, meeting_id: MeetingId, requested_by: UserId) -> RecordingsChanged:
    """Recover a meeting's trashed recording files. Only the meeting's host can.

    Args:
        meeting_id: The recorded meeting.
        requested_by: The user asking; must be the meeting's host.
    """
    recs = [r for r in _recordings_of(ctx, meeting_id, requested_by) if r.status == "trashed"]
    if not recs:
        raise RuleViolation(
            f"meeting {meeting_id} has nothing in the trash", field="meeting_id", hint="nothing to recover"
        )
    for r in recs:
        ctx.update(r, status="completed")
    return RecordingsChanged(meeting_id=meeting_id, action="recover", recording_ids=[r.id for r in recs])


# -- seed -------------------------------------------------------------------------------------

TOPICS = (
    "Weekly sync",
    "Sprint planning",
    "Customer onboarding",
    "Quarterly business review",
    "Product demo",
    "1:1",
    "Hiring debrief",
    "Incident retro",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Every employee as a user; past, running and upcoming meetings; registrants, participants, recordings."""
    pop = s.population
    users = [
        s.create(
            User,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            type="licensed" if i % 3 == 0 else "basic",
            status="inactive" if i % 17 == 5 else "active",
            timezone=p.place.timezone,
            dept=p.department or "",
            created_at=utc_at(p.hire_date or s.now.date(), 9),
        )
        for i, p in enumerate(pop.employees)
    ]
    outsiders = list(pop.contacts) + list(pop.consumers)
    hosts = [u for u in users if u.status == "active"]
    k = 0
    for n, host in enumerate(hosts):
        # Per host: one ended meeting in the past, upcoming ones on separate days; every fourth runs now.
        plans: list[tuple[int, int, str]] = [(-3 - n % 5, 10, "ended"), (1 + n % 4, 14, "waiting")]
        if n % 2 == 0:
            plans.append((2 + n % 4, 10, "waiting"))
        if n % 4 == 0:
            plans.append((0, 9, "started"))
        for days, hour, status in plans:
            k += 1
            m = _seed_meeting(s, host, k, s.now.replace(hour=hour, minute=0) + dt.timedelta(days=days), status)
            regs = _seed_registrants(s, m, k, outsiders) if m.approval_type != "none" else []
            if status == "ended":
                _seed_attendance(s, m, k, host, regs, colleague=users[(n + 1) % len(users)], trashed=n % 6 == 3)
    _seed_webinars(s, [u for u in hosts if u.type == "licensed"])


def _seed_meeting(s: SeedContext, host: User, k: int, start: dt.datetime, status: str) -> Meeting:
    """The ``k``-th meeting; a licensed host's ended meetings were recorded to the cloud."""
    duration = (30, 45, 60)[k % 3]
    approval: Approval = ("none", "automatic", "manual")[k % 3]
    number = str(s.rng.randint(10**9, 10**11 - 1))
    recorded = host.type == "licensed" and status == "ended"
    return s.create(
        Meeting,
        host_id=host.id,
        topic=f"{TOPICS[k % len(TOPICS)]}",
        start_time=start,
        duration=duration,
        timezone=host.timezone,
        agenda="",
        meeting_number=number,
        passcode=f"{s.rng.randint(100000, 999999)}",
        join_url=f"{BASE}/j/{number}?pwd=seed{k:04d}",
        approval_type=approval,
        auto_recording="cloud" if recorded else "none",
        status=status,
        started_at=start if status != "waiting" else None,
        ended_at=start + dt.timedelta(minutes=duration) if status == "ended" else None,
        created_at=start - dt.timedelta(days=7),
        updated_at=start - dt.timedelta(days=7),
    )


def _seed_registrants(s: SeedContext, m: Meeting, k: int, outsiders: list[Person]) -> list[Registrant]:
    """Outsiders registered for the ``k``-th meeting: approved at once, or some pending and denied by hand."""
    regs: list[Registrant] = []
    for j in range(2 + k % 3):
        p = outsiders[(k * 5 + j) % len(outsiders)]
        st: RegistrantStatus = (
            "approved" if m.approval_type == "automatic" else ("pending", "approved", "denied", "pending")[j % 4]
        )
        regs.append(
            s.create(
                Registrant,
                meeting_id=m.id,
                email=p.email,
                first_name=p.first_name,
                last_name=p.last_name,
                status=st,
                join_url=f"{m.join_url}&tk=r{k:04d}{j}",
                created_at=m.start_time - dt.timedelta(days=2),
            )
        )
    return regs


def _seed_attendance(
    s: SeedContext, m: Meeting, k: int, host: User, regs: list[Registrant], *, colleague: User, trashed: bool
) -> None:
    """Who took part in the ended ``k``-th meeting (a colleague when nobody registered) and its recordings."""
    start = m.start_time
    end = start + dt.timedelta(minutes=m.duration)
    people = [(f"{host.first_name} {host.last_name}", host.email)]
    people += [(f"{r.first_name} {r.last_name or ''}".strip(), r.email) for r in regs if r.status == "approved"]
    if not regs:
        people.append((f"{colleague.first_name} {colleague.last_name}", colleague.email))
    for name, email in people:
        late = s.rng.randint(0, 5)
        s.create(
            Participant,
            meeting_id=m.id,
            name=name,
            user_email=email,
            join_time=start + dt.timedelta(minutes=late),
            leave_time=end,
            duration_minutes=m.duration - late,
        )
    if m.auto_recording != "cloud":
        return
    for j, (rtype, ftype) in enumerate(
        (("shared_screen_with_speaker_view", "MP4"), ("audio_only", "M4A"), ("chat_file", "CHAT"))
    ):
        s.create(
            Recording,
            meeting_id=m.id,
            host_id=host.id,
            recording_type=rtype,
            file_type=ftype,
            file_size=m.duration * 60 * (220_000, 16_000, 30)[j],
            download_url=f"{BASE}/rec/download/seed{k:04d}{j}",
            play_url=f"{BASE}/rec/play/seed{k:04d}{j}",
            recording_start=start,
            recording_end=end,
            status="trashed" if trashed else "completed",
        )


def _seed_webinars(s: SeedContext, licensed: list[User]) -> None:
    """Webinars of the first six licensed hosts: one ended ten days ago, the others in the coming weeks."""
    for i, host in enumerate(licensed[:6]):
        start = s.now.replace(hour=16, minute=0) + dt.timedelta(days=(-10 if i == 0 else 6 + i))
        number = str(s.rng.randint(10**9, 10**11 - 1))
        s.create(
            Webinar,
            host_id=host.id,
            topic=("Product launch", "Customer masterclass", "Release notes live", "Ask us anything")[i % 4],
            start_time=start,
            duration=60,
            join_url=f"{BASE}/w/{number}?tk=seedweb{i}",
            panelist_emails=tuple(u.email for u in licensed[i + 1 : i + 3]),
            status="ended" if i == 0 else "scheduled",
            created_at=start - dt.timedelta(days=20),
        )
