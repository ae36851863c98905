"""Panelwise Scheduling: interview loops, interviewer pools with load limits, slots, reschedules, self-scheduling.

Modeled on the GoodTime Hire API (interviewers with working hours and weekly
interview load limits, interviewer pools by qualification with a training
path shadow → reverse_shadow → qualified, time-off blocks, interview loops
for a candidate made of sessions, scheduling, rescheduling and cancellation,
candidate self-scheduling links): a session is scheduled only with a
qualified member of its pool, inside the interviewer's working hours on a
weekday, in the future, clear of their other interviews and blocks and under
their weekly limit, and not overlapping the candidate's other sessions; a
session is rescheduled at most three times; a loop moves awaiting_schedule →
scheduled (every session booked) → completed (every session held), or is
cancelled with its sessions; a self-scheduling link expires, is used once and
books every open session back to back with the least-loaded free interviewers.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, JobTitle, MeetingLink, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "interviewsched",
    title="Panelwise Scheduling",
    category="interview_scheduling",
    modeled_on="GoodTime Hire API: interviewers, interviewer pools and training paths, availability and load "
    "limits, interview loops and sessions, reschedules and cancellations, candidate self-scheduling links",
    description="Interview scheduling for the home company's hiring: interviewers with working hours and weekly "
    "load limits, qualification pools with trainees, blocked time, interview loops of sessions for candidates, "
    "booking, rescheduling and cancelling sessions, and links candidates use to book their own loop.",
)

InterviewerId = Annotated[str, IdOf("interviewsched.interviewer")]
PoolId = Annotated[str, IdOf("interviewsched.pool")]
MemberId = Annotated[str, IdOf("interviewsched.pool_member")]
BlockId = Annotated[str, IdOf("interviewsched.block")]
LoopId = Annotated[str, IdOf("interviewsched.loop")]
SessionId = Annotated[str, IdOf("interviewsched.session")]
LinkId = Annotated[str, IdOf("interviewsched.link")]

Hour = Annotated[int, Field(ge=0, le=24)]
"""An hour of the day (UTC)."""
WeeklyLimit = Annotated[int, Field(ge=1, le=20)]
"""Interviews a week at most."""
Minutes = Annotated[int, Field(ge=15, le=240)]
"""A length in minutes."""

Level = Literal["shadow", "reverse_shadow", "qualified"]
LoopStatus = Literal["awaiting_schedule", "scheduled", "completed", "cancelled"]
SessionStatus = Literal["unscheduled", "scheduled", "completed", "cancelled"]
LinkStatus = Literal["active", "used", "revoked", "expired"]

NEXT_LEVEL: dict[str, Level] = {"shadow": "reverse_shadow", "reverse_shadow": "qualified"}
SHADOWS_TO_PROMOTE = 2
MAX_RESCHEDULES = 3
BOOKED: tuple[SessionStatus, ...] = ("scheduled", "completed")


class Interviewer(Timestamped):
    """An employee who interviews candidates."""

    id: InterviewerId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail (unique)."""
    job_title: JobTitle
    """Their job."""
    weekly_limit: WeeklyLimit = 5
    """Interviews a week at most."""
    work_start_hour: Hour = 9
    """Working hours start (UTC, Monday to Friday)."""
    work_end_hour: Hour = 17
    """Working hours end (UTC)."""
    active: bool = True
    """Whether they take interviews."""


class Pool(Timestamped):
    """An interviewer pool: the people qualified for one kind of interview."""

    id: PoolId
    name: Title
    """The interview kind (e.g. System design)."""
    description: Text = ""
    """What the interview assesses."""


class PoolMember(Timestamped):
    """An interviewer in a pool, at a training level."""

    id: MemberId
    pool_id: PoolId
    """The pool."""
    interviewer_id: InterviewerId
    """The interviewer."""
    level: Level = "shadow"
    """shadow, reverse_shadow or qualified (only qualified members lead interviews)."""
    shadowed: int = 0
    """Interviews taken at the current training level."""


class Block(Timestamped):
    """Time an interviewer cannot interview (time off, focus time)."""

    id: BlockId
    interviewer_id: InterviewerId
    """The interviewer."""
    start: DateTime
    """When it starts."""
    end: DateTime
    """When it ends."""
    reason: Annotated[str, StringConstraints(min_length=1, max_length=120)] = "Busy"
    """Why."""


class Loop(Timestamped):
    """An interview loop: the sessions a candidate goes through for a job."""

    id: LoopId
    candidate_name: PersonName
    """The candidate."""
    candidate_email: Email
    """The candidate's e-mail."""
    job_title: JobTitle
    """The job."""
    recruiter_email: Email
    """The recruiter coordinating it."""
    status: LoopStatus = "awaiting_schedule"
    """awaiting_schedule, scheduled, completed or cancelled."""
    cancel_reason: Text | None = None
    """Why it was cancelled."""


class Session(Timestamped):
    """One interview of a loop."""

    id: SessionId
    loop_id: LoopId
    """The loop."""
    title: Title
    """What the interview is."""
    pool_id: PoolId
    """The pool its interviewer comes from."""
    duration_minutes: Minutes = 60
    """Its length."""
    interviewer_id: InterviewerId | None = None
    """The interviewer booked."""
    start: DateTime | None = None
    """When it starts."""
    end: DateTime | None = None
    """When it ends."""
    meeting_link: MeetingLink | None = None
    """The video link."""
    status: SessionStatus = "unscheduled"
    """unscheduled, scheduled, completed or cancelled."""
    reschedules: int = 0
    """Times it was moved."""


class Link(Timestamped):
    """A self-scheduling link sent to a candidate."""

    id: LinkId
    loop_id: LoopId
    """The loop."""
    candidate_email: Email
    """Who it was sent to."""
    expires_at: DateTime
    """When it stops working."""
    status: LinkStatus = "active"
    """active, used, revoked or expired."""


class Load(Value):
    """An interviewer's interviews in one week."""

    interviewer_id: InterviewerId
    """The interviewer."""
    week_start: DateTime
    """Monday 00:00 UTC of the week."""
    booked: int
    """Scheduled and completed interviews that week."""
    weekly_limit: int
    """Their limit."""
    remaining: int
    """Interviews still possible that week."""


# -- rules ------------------------------------------------------------------------------------


def _week(at: dt.datetime) -> dt.datetime:
    monday = at.date() - dt.timedelta(days=at.weekday())
    return utc_at(monday)


def _booked(ctx: Ctx, interviewer_id: str, week: dt.datetime, skip: str | None = None) -> int:
    end = week + dt.timedelta(days=7)
    return sum(
        1
        for s in ctx.where(Session, interviewer_id=interviewer_id)
        if s.status in BOOKED and s.id != skip and s.start is not None and week <= s.start < end
    )


def _conflict(ctx: Ctx, who: Interviewer, start: dt.datetime, end: dt.datetime, skip: str | None) -> str | None:
    """Why ``who`` cannot interview from start to end, or None."""
    if not who.active:
        return f"{who.name} is not taking interviews"
    if start.weekday() >= 5 or start.hour < who.work_start_hour or utc_at(start.date(), who.work_end_hour) < end:
        return f"{who.name} works {who.work_start_hour}:00-{who.work_end_hour}:00 UTC, Monday to Friday"
    for b in ctx.where(Block, interviewer_id=who.id):
        if b.start < end and start < b.end:
            return f"{who.name} is blocked ({b.reason}) from {b.start:%Y-%m-%d %H:%M}"
    for s in ctx.where(Session, interviewer_id=who.id, status="scheduled"):
        if s.id != skip and s.start is not None and s.end is not None and s.start < end and start < s.end:
            return f"{who.name} already interviews at {s.start:%Y-%m-%d %H:%M} ({s.id})"
    if _booked(ctx, who.id, _week(start), skip) >= who.weekly_limit:
        return f"{who.name} reached the weekly limit of {who.weekly_limit} interviews"
    return None


def _qualified(ctx: Ctx, pool_id: str, interviewer_id: str) -> bool:
    return ctx.first(PoolMember, pool_id=pool_id, interviewer_id=interviewer_id, level="qualified") is not None


def _book(ctx: Ctx, session: Session, interviewer_id: str, start: dt.datetime, field: str) -> Session:
    loop = ctx.get(Loop, session.loop_id)
    if loop.status in ("completed", "cancelled"):
        raise RuleViolation(f"loop {loop.id} is {loop.status}", field="session_id", hint="only open loops are booked")
    who = ctx.get(Interviewer, interviewer_id, field="interviewer_id")
    if not _qualified(ctx, session.pool_id, who.id):
        raise RuleViolation(
            f"{who.name} is not a qualified member of the session's pool",
            field="interviewer_id",
            hint="pick one with interviewsched__find_interviewers",
        )
    if start <= ctx.now():
        raise RuleViolation("the start is not in the future", field=field, hint="pick a later time")
    end = start + dt.timedelta(minutes=session.duration_minutes)
    why = _conflict(ctx, who, start, end, session.id)
    if why is not None:
        raise Conflict(why, field=field, hint="pick another time or interviewer with interviewsched__find_interviewers")
    for other in ctx.where(Session, loop_id=loop.id, status="scheduled"):
        if other.id != session.id and other.start and other.end and other.start < end and start < other.end:
            raise Conflict(
                f"the candidate is in session {other.id} then", field=field, hint="book the sessions one after another"
            )
    link = f"https://meet.panelwise.io/{session.id.replace('_', '-')}"
    done = ctx.update(session, interviewer_id=who.id, start=start, end=end, status="scheduled", meeting_link=link)
    _sync_loop(ctx, loop)
    return done


def _sync_loop(ctx: Ctx, loop: Loop) -> None:
    live = [s for s in ctx.where(Session, loop_id=loop.id) if s.status != "cancelled"]
    if not live or loop.status == "cancelled":
        return
    if all(s.status == "completed" for s in live):
        status: LoopStatus = "completed"
    elif all(s.status in BOOKED for s in live):
        status = "scheduled"
    else:
        status = "awaiting_schedule"
    if status != loop.status:
        ctx.update(loop, status=status)


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Pool, new.pool_id, field="pool_id")
        ctx.get(Interviewer, new.interviewer_id, field="interviewer_id")
        if len(ctx.where(PoolMember, pool_id=new.pool_id, interviewer_id=new.interviewer_id)) > 1:
            raise Conflict(
                "the interviewer is already in this pool", field="interviewer_id", hint="promote them instead"
            )


def _guard_block(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Interviewer, new.interviewer_id, field="interviewer_id")
    if new.end <= new.start:
        raise RuleViolation("a block ends after it starts", field="end", hint="give an end after the start")


def _guard_session(ctx: Ctx, new: Any, old: Any) -> None:
    loop = ctx.get(Loop, new.loop_id, field="loop_id")
    ctx.get(Pool, new.pool_id, field="pool_id")
    if loop.status in ("completed", "cancelled"):
        raise RuleViolation(f"loop {loop.id} is {loop.status}", field="loop_id", hint="add sessions to open loops")
    _sync_loop(ctx, loop)


def _guard_interviewer(ctx: Ctx, new: Any, old: Any) -> None:
    if new.work_end_hour <= new.work_start_hour:
        raise RuleViolation("working hours end before they start", field="work_end_hour", hint="give a later end hour")


interviewers = service.resource(
    Interviewer,
    name="interviewer",
    plural="interviewers",
    prefix="ivr",
    create=False,
    filters=("active", "email", "job_title"),
    search=("name", "email"),
    update=("weekly_limit", "work_start_hour", "work_end_hour", "active"),
    delete=False,
    guard_update=_guard_interviewer,
)
pools = service.resource(
    Pool,
    name="pool",
    plural="pools",
    prefix="pool",
    create=("name", "description"),
    filters=(),
    search=("name",),
    update=("name", "description"),
    delete=False,
    unique=("name",),
    title="interviewer pool",
)
members = service.resource(
    PoolMember,
    name="pool_member",
    plural="pool_members",
    prefix="pmem",
    create=("pool_id", "interviewer_id", "level"),
    get=False,
    filters=("pool_id", "interviewer_id", "level"),
    delete=True,
    guard_create=_guard_member,
)
blocks = service.resource(
    Block,
    name="block",
    plural="blocks",
    prefix="blk",
    create=("interviewer_id", "start", "end", "reason"),
    get=False,
    filters=("interviewer_id",),
    delete=True,
    guard_create=_guard_block,
    title="blocked time",
)
loops = service.resource(
    Loop,
    name="loop",
    plural="loops",
    prefix="loop",
    create=False,
    filters=("status", "candidate_email", "recruiter_email"),
    search=("candidate_name", "job_title"),
    delete=False,
    title="interview loop",
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="sess",
    create=("loop_id", "title", "pool_id", "duration_minutes"),
    filters=("loop_id", "interviewer_id", "pool_id", "status"),
    search=("title",),
    delete=False,
    guard_create=_guard_session,
    title="interview session",
)
links = service.resource(
    Link,
    name="link",
    plural="links",
    prefix="link",
    create=False,
    get=False,
    filters=("loop_id", "status", "candidate_email"),
    delete=False,
    transitions={"revoke": Transition("status", ("active",), "revoked", "revoke the self-scheduling link")},
    title="self-scheduling link",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    known = {i.email for i in ctx.scan(Interviewer)}
    p = next((p for p in ctx.population.employees if p.email not in known), None)
    return None if p is None else {"email": p.email, "weekly_limit": 4}


@service.tool(intent="add the employee as an interviewer", write=True, example=_example_add)
def add_interviewer(ctx: Ctx, email: Email, weekly_limit: WeeklyLimit = 5) -> Interviewer:
    """Make an employee an interviewer (name and job from the directory), once.

    Args:
        email: The employee's work e-mail.
        weekly_limit: Interviews a week at most.
    """
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field="email", hint="use an employee's work e-mail")
    other = ctx.first(Interviewer, email=email)
    if other is not None:
        raise Conflict(f"{email} is interviewer {other.id}", field="email", hint="update that interviewer instead")
    return ctx.create(Interviewer, name=person.name, email=email, job_title=person.job_title, weekly_limit=weekly_limit)


def _example_loop(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "candidate_name": "Ines Duarte",
        "candidate_email": "ines.duarte@example.net",
        "job_title": "Backend Engineer",
        "recruiter_email": ctx.population.staff("People", fallback=1)[0].email,
    }


@service.tool(intent="create the interview loop for the candidate", write=True, example=_example_loop)
def create_loop(
    ctx: Ctx, candidate_name: PersonName, candidate_email: Email, job_title: JobTitle, recruiter_email: Email
) -> Loop:
    """Open an interview loop for a candidate; one open loop per candidate and job.

    Args:
        candidate_name: The candidate.
        candidate_email: The candidate's e-mail.
        job_title: The job.
        recruiter_email: The coordinating recruiter (an employee).
    """
    if recruiter_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{recruiter_email} is not an employee", field="recruiter_email", hint="use a recruiter")
    for other in ctx.where(Loop, candidate_email=candidate_email, job_title=job_title):
        if other.status in ("awaiting_schedule", "scheduled"):
            raise Conflict(
                f"loop {other.id} for {candidate_email} is {other.status}",
                field="candidate_email",
                hint="add sessions to it instead",
            )
    return ctx.create(
        Loop,
        candidate_name=candidate_name,
        candidate_email=candidate_email,
        job_title=job_title,
        recruiter_email=recruiter_email,
    )


def _free_start(ctx: Ctx, days: int = 2, hour: int = 13) -> str:
    day = ctx.today() + dt.timedelta(days=days)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return utc_at(day, hour).isoformat()


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Session, status="unscheduled"):
        if ctx.get(Loop, s.loop_id).status != "awaiting_schedule":
            continue
        for d in range(3, 12):
            start = dt.datetime.fromisoformat(_free_start(ctx, d, 10))
            end = start + dt.timedelta(minutes=s.duration_minutes)
            for m in ctx.where(PoolMember, pool_id=s.pool_id, level="qualified"):
                who = ctx.get(Interviewer, m.interviewer_id)
                if _conflict(ctx, who, start, end, s.id) is None:
                    return {"session_id": s.id, "interviewer_id": who.id, "start": start.isoformat()}
    return None


@service.tool(intent="schedule the interview session", write=True, example=_example_schedule)
def schedule_session(ctx: Ctx, session_id: SessionId, interviewer_id: InterviewerId, start: DateTime) -> Session:
    """Book an unscheduled session with a qualified interviewer who is free and under their weekly limit.

    Args:
        session_id: An unscheduled session.
        interviewer_id: A qualified member of the session's pool.
        start: When it starts (future, within the interviewer's working hours).
    """
    session = ctx.get(Session, session_id, field="session_id")
    if session.status != "unscheduled":
        raise RuleViolation(
            f"session {session.id} is {session.status}", field="session_id", hint="reschedule a scheduled session"
        )
    return _book(ctx, session, interviewer_id, start, "start")


def _example_reschedule(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Session, status="scheduled"):
        if s.reschedules >= MAX_RESCHEDULES or s.interviewer_id is None or s.start is None or s.start <= ctx.now():
            continue
        who = ctx.get(Interviewer, s.interviewer_id)
        for d in range(3, 12):
            start = dt.datetime.fromisoformat(_free_start(ctx, d, 15))
            if _conflict(ctx, who, start, start + dt.timedelta(minutes=s.duration_minutes), s.id) is None:
                return {"session_id": s.id, "start": start.isoformat(), "reason": "Candidate asked to move it."}
    return None


@service.tool(intent="reschedule the interview session", write=True, example=_example_reschedule)
def reschedule_session(
    ctx: Ctx, session_id: SessionId, start: DateTime, reason: Text, interviewer_id: InterviewerId | None = None
) -> Session:
    """Move a scheduled session (at most three times), with the same or another qualified interviewer.

    Args:
        session_id: A scheduled session.
        start: The new start.
        reason: Why it moves (required).
        interviewer_id: Another qualified interviewer; omit to keep the current one.
    """
    session = ctx.get(Session, session_id, field="session_id")
    if session.status != "scheduled" or session.interviewer_id is None:
        raise RuleViolation(f"session {session.id} is {session.status}", field="session_id", hint="schedule it first")
    if session.reschedules >= MAX_RESCHEDULES:
        raise RuleViolation(
            f"session {session.id} was moved {MAX_RESCHEDULES} times", field="session_id", hint="cancel and rebook it"
        )
    if not reason.strip():
        raise RuleViolation("a reschedule needs a reason", field="reason", hint="say why it moves")
    booked = _book(ctx, session, interviewer_id or session.interviewer_id, start, "start")
    return ctx.update(booked, reschedules=session.reschedules + 1)


@service.tool(
    intent="cancel the interview session",
    write=True,
    example=first_example(Session, "session_id", where={"status": "scheduled"}, reason="Interviewer is ill."),
)
def cancel_session(ctx: Ctx, session_id: SessionId, reason: Text) -> Session:
    """Cancel an unscheduled or scheduled session; the loop no longer waits for it.

    Args:
        session_id: The session.
        reason: Why (required).
    """
    session = ctx.get(Session, session_id, field="session_id")
    if session.status not in ("unscheduled", "scheduled"):
        raise RuleViolation(f"session {session.id} is {session.status}", field="session_id", hint="nothing to cancel")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    done = ctx.update(session, status="cancelled")
    _sync_loop(ctx, ctx.get(Loop, session.loop_id))
    return done


@service.tool(
    intent="mark the interview held",
    write=True,
    example=first_example(
        Session,
        "session_id",
        where={"status": "scheduled"},
        match=lambda c, s: s.start is not None and s.start <= c.now(),
    ),
)
def complete_session(ctx: Ctx, session_id: SessionId) -> Session:
    """Mark a scheduled session held once it has started; trainees in its pool who shadowed count it.

    Args:
        session_id: A scheduled session that has started.
    """
    session = ctx.get(Session, session_id, field="session_id")
    if session.status != "scheduled" or session.start is None:
        raise RuleViolation(f"session {session.id} is {session.status}", field="session_id", hint="schedule it first")
    if session.start > ctx.now():
        raise RuleViolation(
            f"session {session.id} starts at {session.start:%Y-%m-%d %H:%M}", field="session_id", hint="wait until then"
        )
    done = ctx.update(session, status="completed")
    _sync_loop(ctx, ctx.get(Loop, session.loop_id))
    return done


@service.tool(
    intent="cancel the interview loop",
    write=True,
    destructive=True,
    example=first_example(Loop, "loop_id", where={"status": "awaiting_schedule"}, reason="Candidate withdrew."),
)
def cancel_loop(ctx: Ctx, loop_id: LoopId, reason: Text) -> Loop:
    """Cancel an open loop: its open sessions are cancelled and its active links revoked.

    Args:
        loop_id: An open loop.
        reason: Why (required).
    """
    loop = ctx.get(Loop, loop_id, field="loop_id")
    if loop.status in ("completed", "cancelled"):
        raise RuleViolation(f"loop {loop.id} is {loop.status}", field="loop_id", hint="only open loops are cancelled")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    for s in ctx.where(Session, loop_id=loop.id):
        if s.status in ("unscheduled", "scheduled"):
            ctx.update(s, status="cancelled")
    for link in ctx.where(Link, loop_id=loop.id, status="active"):
        ctx.update(link, status="revoked")
    return ctx.update(loop, status="cancelled", cancel_reason=reason.strip())


@service.tool(
    intent="promote the trainee interviewer",
    write=True,
    example=first_example(
        PoolMember, "pool_member_id", match=lambda c, m: m.level != "qualified" and m.shadowed >= SHADOWS_TO_PROMOTE
    ),
)
def promote_member(ctx: Ctx, pool_member_id: MemberId) -> PoolMember:
    """Move a trainee one step (shadow → reverse_shadow → qualified) after two interviews at their level.

    Args:
        pool_member_id: The pool member.
    """
    member = ctx.get(PoolMember, pool_member_id, field="pool_member_id")
    if member.level == "qualified":
        raise RuleViolation("already qualified", field="pool_member_id", hint="nothing to promote")
    if member.shadowed < SHADOWS_TO_PROMOTE:
        raise RuleViolation(
            f"{member.shadowed} of {SHADOWS_TO_PROMOTE} training interviews done",
            field="pool_member_id",
            hint="log training interviews with interviewsched__log_training",
        )
    return ctx.update(member, level=NEXT_LEVEL[member.level], shadowed=0)


@service.tool(
    intent="log a training interview for the trainee",
    write=True,
    example=first_example(PoolMember, "pool_member_id", match=lambda c, m: m.level != "qualified"),
)
def log_training(ctx: Ctx, pool_member_id: MemberId) -> PoolMember:
    """Count one interview a trainee shadowed (or led under observation) in their pool.

    Args:
        pool_member_id: A trainee member.
    """
    member = ctx.get(PoolMember, pool_member_id, field="pool_member_id")
    if member.level == "qualified":
        raise RuleViolation("qualified members do not train", field="pool_member_id", hint="pick a trainee")
    return ctx.update(member, shadowed=member.shadowed + 1)


class Candidate(Value):
    """An interviewer who could take a session at a time."""

    interviewer_id: InterviewerId
    """The interviewer."""
    name: PersonName
    """Their name."""
    booked_this_week: int
    """Interviews already that week."""
    free: bool
    """Whether they can take it."""
    reason: str | None
    """Why not, when not."""


@service.tool(
    intent="find interviewers for the session",
    example=lambda ctx: _example_find(ctx),
)
def find_interviewers(ctx: Ctx, session_id: SessionId, start: DateTime) -> list[Candidate]:
    """The qualified members of a session's pool and whether each could take it at ``start``, least loaded first.

    Args:
        session_id: The session.
        start: The time asked about.
    """
    session = ctx.get(Session, session_id, field="session_id")
    end = start + dt.timedelta(minutes=session.duration_minutes)
    out = []
    for m in ctx.where(PoolMember, pool_id=session.pool_id, level="qualified"):
        who = ctx.get(Interviewer, m.interviewer_id)
        why = _conflict(ctx, who, start, end, session.id)
        out.append(
            Candidate(
                interviewer_id=who.id,
                name=who.name,
                booked_this_week=_booked(ctx, who.id, _week(start)),
                free=why is None,
                reason=why,
            )
        )
    return sorted(out, key=lambda c: (not c.free, c.booked_this_week, c.interviewer_id))


def _example_find(ctx: Ctx) -> dict[str, Any] | None:
    s = ctx.first(Session, status="unscheduled")
    return None if s is None else {"session_id": s.id, "start": _free_start(ctx)}


@service.tool(intent="show the interviewer's weekly load", example=lambda ctx: _example_load(ctx))
def interviewer_load(ctx: Ctx, interviewer_id: InterviewerId, week_of: DateTime) -> Load:
    """Interviews booked in the week (Monday to Sunday, UTC) containing ``week_of`` against the weekly limit.

    Args:
        interviewer_id: The interviewer.
        week_of: Any time in the week.
    """
    who = ctx.get(Interviewer, interviewer_id, field="interviewer_id")
    week = _week(week_of)
    booked = _booked(ctx, who.id, week)
    return Load(
        interviewer_id=who.id,
        week_start=week,
        booked=booked,
        weekly_limit=who.weekly_limit,
        remaining=max(0, who.weekly_limit - booked),
    )


def _example_load(ctx: Ctx) -> dict[str, Any] | None:
    who = ctx.first(Interviewer)
    return None if who is None else {"interviewer_id": who.id, "week_of": ctx.now().isoformat()}


@service.tool(
    intent="send the candidate a self-scheduling link",
    write=True,
    example=first_example(
        Loop,
        "loop_id",
        where={"status": "awaiting_schedule"},
        match=lambda c, lp: not c.where(Link, loop_id=lp.id, status="active"),
        valid_days=5,
    ),
)
def send_link(ctx: Ctx, loop_id: LoopId, valid_days: Annotated[int, Field(ge=1, le=14)] = 7) -> Link:
    """Send the candidate a link to book the loop's open sessions; one active link per loop.

    Args:
        loop_id: A loop awaiting scheduling.
        valid_days: Days until the link expires.
    """
    loop = ctx.get(Loop, loop_id, field="loop_id")
    if loop.status != "awaiting_schedule":
        raise RuleViolation(f"loop {loop.id} is {loop.status}", field="loop_id", hint="only loops awaiting scheduling")
    if not ctx.where(Session, loop_id=loop.id, status="unscheduled"):
        raise RuleViolation("the loop has no open session", field="loop_id", hint="add sessions first")
    active = ctx.first(Link, loop_id=loop.id, status="active")
    if active is not None:
        raise Conflict(f"link {active.id} is still active", field="loop_id", hint="revoke it first")
    return ctx.create(
        Link,
        loop_id=loop.id,
        candidate_email=loop.candidate_email,
        expires_at=ctx.now() + dt.timedelta(days=valid_days),
    )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    link = ctx.first(Link, status="active")
    return None if link is None else {"link_id": link.id, "start": _free_start(ctx, 4, 9)}


@service.tool(intent="book the loop through the candidate's link", write=True, example=_example_book)
def book_via_link(ctx: Ctx, link_id: LinkId, start: DateTime) -> list[Session]:
    """The candidate picks a start: open sessions are booked back to back with the least-loaded free interviewers.

    Args:
        link_id: An active link.
        start: When the first open session starts.
    """
    link = ctx.get(Link, link_id, field="link_id")
    if link.status != "active":
        raise RuleViolation(f"link {link.id} is {link.status}", field="link_id", hint="send a new link")
    if link.expires_at <= ctx.now():
        raise RuleViolation(f"link {link.id} expired", field="link_id", hint="send a new link")
    at, booked = start, []
    for s in ctx.where(Session, loop_id=link.loop_id, status="unscheduled"):
        choices = [c for c in find_interviewers(ctx, s.id, at) if c.free]
        if not choices:
            raise Conflict(
                f"no qualified interviewer is free for {s.title!r} at {at:%Y-%m-%d %H:%M}",
                field="start",
                hint="pick another time",
            )
        booked.append(_book(ctx, s, choices[0].interviewer_id, at, "start"))
        at += dt.timedelta(minutes=s.duration_minutes)
    ctx.update(link, status="used")
    return booked


# -- seed -------------------------------------------------------------------------------------

POOLS = (
    ("Coding interview", "Live coding in the candidate's language of choice."),
    ("System design", "Designing a service end to end."),
    ("Behavioral", "Past behaviour and values."),
    ("Sales role play", "A discovery call with a mock prospect."),
)
SESSION_OF: dict[LoopStatus, SessionStatus] = {
    "awaiting_schedule": "scheduled",
    "scheduled": "scheduled",
    "completed": "completed",
    "cancelled": "cancelled",
}
LOOP_PLANS: tuple[tuple[str, LoopStatus, tuple[int, ...]], ...] = (
    ("Backend Engineer", "awaiting_schedule", (0, 1, 2)),
    ("Backend Engineer", "scheduled", (0, 2)),
    ("Account Executive", "awaiting_schedule", (3, 2)),
    ("Frontend Engineer", "completed", (0, 2)),
    ("Account Executive", "cancelled", (3,)),
    ("Site Reliability Engineer", "scheduled", (1, 2)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Interviewers from the staff, pools with qualified members and trainees, loops in every status for consumers."""
    pop = s.population
    staff = pop.employees[:14]
    old = {"created_at": s.ago(days=300), "updated_at": s.ago(days=30)}
    made = [
        s.create(
            Interviewer,
            name=p.name,
            email=p.email,
            job_title=p.job_title,
            weekly_limit=3 + k % 4,
            work_start_hour=8 + k % 3,
            work_end_hour=17 + k % 2,
            active=k != 13,
            **old,
        )
        for k, p in enumerate(staff)
    ]
    pools = [s.create(Pool, name=n, description=d, **old) for n, d in POOLS]
    for k, ivr in enumerate(made):
        for j, pool in enumerate(pools):
            if not (k + j) % 3:
                level: Level = "qualified" if k % 5 else ("shadow", "reverse_shadow")[j % 2]
                s.create(PoolMember, pool_id=pool.id, interviewer_id=ivr.id, level=level, shadowed=k % 3, **old)
    s.create(Block, interviewer_id=made[0].id, start=s.ago(days=-1), end=s.ago(days=-3), reason="Vacation")
    recruiter = pop.staff("People", fallback=1)[0].email
    today = s.now.date()
    for k, (job, status, kinds) in enumerate(LOOP_PLANS):
        p = pop.consumers[k]
        loop = s.create(
            Loop,
            candidate_name=p.name,
            candidate_email=p.email,
            job_title=job,
            recruiter_email=recruiter,
            status=status,
            cancel_reason="Candidate withdrew." if status == "cancelled" else None,
            created_at=s.ago(days=14 - k),
            updated_at=s.ago(days=3),
        )
        day = today + dt.timedelta(days=(-7 if status == "completed" else -3 if k == 1 else 2 + k))
        while day.weekday() >= 5:
            day += dt.timedelta(days=1)
        for n, kind in enumerate(kinds):
            pool = pools[kind]
            qualified = [
                m.interviewer_id for m in s.records(PoolMember) if m.pool_id == pool.id and m.level == "qualified"
            ]
            st: SessionStatus = "unscheduled" if status == "awaiting_schedule" and n else SESSION_OF[status]
            start = utc_at(day, 10 + n) if st != "unscheduled" and status != "cancelled" else None
            who = qualified[(k + n) % len(qualified)] if start is not None else None
            s.create(
                Session,
                loop_id=loop.id,
                title=pool.name,
                pool_id=pool.id,
                interviewer_id=who,
                start=start,
                end=start + dt.timedelta(hours=1) if start else None,
                status=st,
                meeting_link=f"https://meet.panelwise.io/loop-{k}-{n}" if start else None,
                created_at=loop.created_at,
                updated_at=loop.created_at,
            )
        if k == 2:
            s.create(Link, loop_id=loop.id, candidate_email=p.email, expires_at=s.ago(days=-5))
