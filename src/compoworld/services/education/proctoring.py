"""Watchpoint Proctoring: online exam proctoring — exams, booked sessions, ID checks, flagged incidents, accommodations.

Modeled on ProctorU / Honorlock (exams synced from the LMS with their window,
duration, permitted resources and service level — live, record+ or automated;
test-taker reservations; identity verification with photo ID and face match;
sessions launched, in progress and ended; incidents flagged by the AI or the
proctor and reviewed by the instructor; testing accommodations such as extra
time): an exam takes bookings once published, within its window and with the
test taker's accommodated duration ending before it closes; live proctoring
is booked at least 24 hours ahead; one open reservation per student and exam;
a session starts only after identity is verified (face match 0.80 or more, a
lower score fails the check) and no earlier than 15 minutes before its time;
incidents are flagged only during or after a session and reviewed once by an
employee; a confirmed high-severity incident makes the session a violation.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "proctoring",
    title="Watchpoint Proctoring",
    category="exam_proctoring",
    modeled_on="ProctorU / Honorlock: exams with windows and permitted resources, reservations, ID verification, "
    "sessions, AI and proctor incident flags with instructor review, testing accommodations",
    description="Online proctoring of course exams: exams with their windows, durations, permitted resources and "
    "service levels, sessions students book, identity checks before launch, incidents flagged during a session "
    "and reviewed by instructors, and accommodations such as extra time.",
)

ExamId = Annotated[str, IdOf("proctoring.exam")]
SessionId = Annotated[str, IdOf("proctoring.session")]
IncidentId = Annotated[str, IdOf("proctoring.incident")]
AccommodationId = Annotated[str, IdOf("proctoring.accommodation")]

CourseCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,4}[0-9]{3}$")]
"""A course code such as CS101."""
Minutes = Annotated[int, Field(ge=5, le=600)]
ServiceLevel = Literal["live", "record_plus", "automated"]
Resource = Literal["calculator", "notes", "scratch_paper", "textbook", "second_monitor"]
ExamStatus = Literal["draft", "published", "closed"]
SessionStatus = Literal["scheduled", "id_verified", "id_failed", "in_progress", "completed", "cancelled", "no_show"]
IdType = Literal["passport", "drivers_license", "student_id", "national_id"]
IncidentKind = Literal[
    "multiple_faces", "left_frame", "phone_detected", "browser_switch", "voices_detected", "unauthorized_resource"
]
Severity = Literal["low", "medium", "high"]
IncidentStatus = Literal["flagged", "no_violation", "confirmed"]
AccommodationStatus = Literal["active", "revoked"]
Integrity = Literal["clean", "review_pending", "violation"]

FACE_MATCH = 0.80
LIVE_LEAD = dt.timedelta(hours=24)
EARLY_START = dt.timedelta(minutes=15)


class Exam(Timestamped):
    """A proctored exam of a course."""

    id: ExamId
    course_code: CourseCode
    """The course in the LMS."""
    title: Title
    """Exam title."""
    instructor_email: Email
    """The instructor (an employee) who reviews incidents."""
    duration_minutes: Minutes
    """Time allowed."""
    opens_at: DateTime
    """Start of the window."""
    closes_at: DateTime
    """End of the window: every session must end by then."""
    service_level: ServiceLevel = "record_plus"
    """live, record_plus or automated."""
    allowed_resources: tuple[Resource, ...] = ()
    """What test takers may use."""
    status: ExamStatus = "draft"
    """draft, published or closed."""


class Accommodation(Timestamped):
    """A testing accommodation for a student."""

    id: AccommodationId
    student_email: Email
    """The student."""
    exam_id: ExamId | None = None
    """Only this exam; none: every exam."""
    extra_time_percent: Annotated[int, Field(ge=0, le=200)] = 0
    """Extra time, percent of the exam's duration."""
    extra_resources: tuple[Resource, ...] = ()
    """Resources allowed beyond the exam's."""
    approved_by: Email
    """The employee (disability services) who approved it."""
    status: AccommodationStatus = "active"
    """active or revoked."""


class Session(Timestamped):
    """A student's reservation and proctored attempt."""

    id: SessionId
    exam_id: ExamId
    """The exam."""
    student_name: PersonName
    """The test taker."""
    student_email: Email
    """The test taker's e-mail."""
    starts_at: DateTime
    """Reserved start."""
    duration_minutes: Minutes
    """Time allowed, with any accommodation."""
    status: SessionStatus = "scheduled"
    """scheduled, id_verified, id_failed, in_progress, completed, cancelled or no_show."""
    id_type: IdType | None = None
    """The ID shown."""
    face_match_score: Annotated[float, Field(ge=0, le=1)] | None = None
    """Face match of the ID photo and the webcam."""
    started_at: DateTime | None = None
    """When the exam was launched."""
    ended_at: DateTime | None = None
    """When it was submitted."""


class Incident(Timestamped):
    """Something flagged during a session."""

    id: IncidentId
    session_id: SessionId
    """The session."""
    kind: IncidentKind
    """What was detected."""
    severity: Severity
    """low, medium or high."""
    at_minute: Annotated[int, Field(ge=0, le=900)]
    """Minutes into the session."""
    status: IncidentStatus = "flagged"
    """flagged, no_violation or confirmed."""
    reviewed_by: Email | None = None
    """Who reviewed it."""
    review_notes: Text | None = None
    """The reviewer's notes."""


class SessionReport(Value):
    """A session's integrity report."""

    session_id: SessionId
    """The session."""
    status: SessionStatus
    """The session's status."""
    incidents: int
    """Incidents flagged."""
    pending_review: int
    """Incidents not yet reviewed."""
    confirmed: int
    """Incidents confirmed."""
    integrity: Integrity
    """clean, review_pending or violation."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use a staff e-mail")


def _guard_exam(ctx: Ctx, new: Any, old: Any) -> None:
    if new.closes_at - new.opens_at < dt.timedelta(minutes=new.duration_minutes):
        raise RuleViolation("the window is shorter than the exam", field="duration_minutes", hint="shorten it")


exams = service.resource(
    Exam,
    name="exam",
    plural="exams",
    prefix="exam",
    create=False,
    filters=("status", "course_code", "instructor_email", "service_level"),
    search=("title",),
    update=("duration_minutes", "allowed_resources", "service_level"),
    delete=False,
    transitions={
        "publish": Transition("status", ("draft",), "published", "publish the exam"),
        "close": Transition("status", ("published",), "closed", "close the exam"),
    },
    guard_update=_guard_exam,
)
accommodations = service.resource(
    Accommodation,
    name="accommodation",
    plural="accommodations",
    prefix="acc",
    create=False,
    get=False,
    filters=("student_email", "exam_id", "status"),
    delete=False,
    transitions={"revoke": Transition("status", ("active",), "revoked", "revoke the accommodation")},
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="ses",
    create=False,
    filters=("exam_id", "student_email", "status"),
    search=("student_name",),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the reservation"),
        "mark_no_show": Transition("status", ("scheduled", "id_verified"), "no_show", "mark the session a no-show"),
    },
    title="proctored session",
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    get=False,
    filters=("session_id", "kind", "severity", "status"),
    delete=False,
)


def _example_exam(ctx: Ctx) -> dict[str, Any] | None:
    start = (ctx.now() + dt.timedelta(days=7)).replace(minute=0, second=0, microsecond=0)
    return {
        "course_code": "CS101",
        "title": "Final exam",
        "instructor_email": ctx.population.employees[0].email,
        "duration_minutes": 90,
        "opens_at": start.isoformat(),
        "closes_at": (start + dt.timedelta(days=2)).isoformat(),
        "allowed_resources": ["scratch_paper"],
    }


@service.tool(intent="create the exam", write=True, example=_example_exam)
def create_exam(
    ctx: Ctx,
    course_code: CourseCode,
    title: Title,
    instructor_email: Email,
    duration_minutes: Minutes,
    opens_at: DateTime,
    closes_at: DateTime,
    service_level: ServiceLevel = "record_plus",
    allowed_resources: list[Resource] | None = None,
) -> Exam:
    """Set up a draft exam; its window must hold the exam and close in the future.

    Args:
        course_code: The LMS course.
        title: Exam title.
        instructor_email: The instructor (an employee).
        duration_minutes: Time allowed.
        opens_at: Start of the window.
        closes_at: End of the window.
        service_level: live, record_plus or automated.
        allowed_resources: Permitted resources.
    """
    _staff(ctx, instructor_email, "instructor_email")
    if closes_at <= ctx.now():
        raise RuleViolation("the window must close in the future", field="closes_at", hint="pick a later date")
    if closes_at - opens_at < dt.timedelta(minutes=duration_minutes):
        raise RuleViolation("the window is shorter than the exam", field="closes_at", hint="widen the window")
    if ctx.first(Exam, course_code=course_code, title=title) is not None:
        raise Conflict(f"{course_code} already has an exam {title!r}", field="title", hint="pick another title")
    return ctx.create(
        Exam,
        course_code=course_code,
        title=title,
        instructor_email=instructor_email,
        duration_minutes=duration_minutes,
        opens_at=opens_at,
        closes_at=closes_at,
        service_level=service_level,
        allowed_resources=tuple(dict.fromkeys(allowed_resources or ())),
    )


def _extra(ctx: Ctx, exam: Exam, email: str) -> int:
    best = 0
    for acc in ctx.where(Accommodation, student_email=email, status="active"):
        if acc.exam_id in (None, exam.id):
            best = max(best, acc.extra_time_percent)
    return best


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    exam = ctx.first(Exam, status="published", service_level="record_plus")
    if exam is None:
        return None
    when = max(exam.opens_at, ctx.now() + dt.timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
    return {
        "exam_id": exam.id,
        "student_name": "Robin Vale",
        "student_email": "robin.vale@example.org",
        "starts_at": (when + dt.timedelta(hours=1)).isoformat(),
    }


@service.tool(intent="book the proctored session", write=True, example=_example_book)
def book_session(
    ctx: Ctx, exam_id: ExamId, student_name: PersonName, student_email: Email, starts_at: DateTime
) -> Session:
    """Reserve a session: published exam, inside its window with the accommodated time, live 24 h ahead, one per student.

    Args:
        exam_id: The exam.
        student_name: The test taker.
        student_email: The test taker's e-mail.
        starts_at: When the session starts.
    """
    exam = ctx.get(Exam, exam_id, field="exam_id")
    if exam.status != "published":
        raise Conflict(f"exam {exam.title!r} is {exam.status}", field="exam_id", hint="book a published exam")
    minutes = exam.duration_minutes * (100 + _extra(ctx, exam, student_email)) // 100
    if starts_at < exam.opens_at or starts_at + dt.timedelta(minutes=minutes) > exam.closes_at:
        raise RuleViolation(
            f"a {minutes}-minute session must fit between {exam.opens_at} and {exam.closes_at}",
            field="starts_at",
            hint="pick a time inside the window",
        )
    lead = LIVE_LEAD if exam.service_level == "live" else dt.timedelta(0)
    if starts_at < ctx.now() + lead:
        raise RuleViolation(
            "live proctoring is booked 24 hours ahead" if lead else "the start is in the past",
            field="starts_at",
            hint="pick a later time",
        )
    for other in ctx.where(Session, exam_id=exam.id, student_email=student_email):
        if other.status in ("scheduled", "id_verified", "in_progress", "completed"):
            raise Conflict(f"{student_email} already has session {other.id}", field="student_email", hint="one each")
    return ctx.create(
        Session,
        exam_id=exam.id,
        student_name=student_name,
        student_email=student_email,
        starts_at=starts_at,
        duration_minutes=min(minutes, 600),
    )


@service.tool(
    intent="verify the test taker's identity",
    write=True,
    example=first_example(
        Session, "session_id", where={"status": "scheduled"}, id_type="student_id", face_match_score=0.93
    ),
)
def verify_identity(ctx: Ctx, session_id: SessionId, id_type: IdType, face_match_score: float) -> Session:
    """Check the photo ID against the webcam: a face match of 0.80 or more verifies, a lower one fails the session.

    Args:
        session_id: The session.
        id_type: passport, drivers_license, student_id or national_id.
        face_match_score: Face match, 0-1.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    if ses.status != "scheduled":
        raise Conflict(f"session {ses.id} is {ses.status}", field="session_id", hint="only scheduled sessions")
    if not 0 <= face_match_score <= 1:
        raise RuleViolation("the score is between 0 and 1", field="face_match_score", hint="check the value")
    status = "id_verified" if face_match_score >= FACE_MATCH else "id_failed"
    return ctx.update(ses, status=status, id_type=id_type, face_match_score=face_match_score)


def _startable(ctx: Ctx, ses: Session) -> bool:
    return ctx.now() >= ses.starts_at - EARLY_START


@service.tool(
    intent="start the proctored session",
    write=True,
    example=first_example(Session, "session_id", where={"status": "id_verified"}, match=_startable),
)
def start_session(ctx: Ctx, session_id: SessionId) -> Session:
    """Launch the exam of an ID-verified session, no earlier than 15 minutes before its time.

    Args:
        session_id: The session.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    if ses.status != "id_verified":
        raise Conflict(f"session {ses.id} is {ses.status}", field="session_id", hint="verify identity first")
    if not _startable(ctx, ses):
        raise RuleViolation(f"the session starts at {ses.starts_at}", field="session_id", hint="launch closer to it")
    return ctx.update(ses, status="in_progress", started_at=ctx.now())


@service.tool(
    intent="end the proctored session",
    write=True,
    example=first_example(Session, "session_id", where={"status": "in_progress"}),
)
def end_session(ctx: Ctx, session_id: SessionId) -> Session:
    """Submit the exam of a session in progress.

    Args:
        session_id: The session.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    if ses.status != "in_progress":
        raise Conflict(f"session {ses.id} is {ses.status}", field="session_id", hint="only sessions in progress")
    return ctx.update(ses, status="completed", ended_at=ctx.now())


@service.tool(
    intent="flag an incident in the session",
    write=True,
    example=first_example(
        Session, "session_id", where={"status": "completed"}, kind="browser_switch", severity="medium", at_minute=12
    ),
)
def flag_incident(ctx: Ctx, session_id: SessionId, kind: IncidentKind, severity: Severity, at_minute: int) -> Incident:
    """Flag something seen in a session in progress or completed, at a minute within its duration.

    Args:
        session_id: The session.
        kind: What was detected.
        severity: low, medium or high.
        at_minute: Minutes into the session.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    if ses.status not in ("in_progress", "completed"):
        raise Conflict(f"session {ses.id} is {ses.status}", field="session_id", hint="it has not run")
    if not 0 <= at_minute <= ses.duration_minutes:
        raise RuleViolation(
            f"the session lasts {ses.duration_minutes} minutes", field="at_minute", hint="give a minute within it"
        )
    return ctx.create(Incident, session_id=ses.id, kind=kind, severity=severity, at_minute=at_minute)


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    inc = ctx.first(Incident, status="flagged")
    if inc is None:
        return None
    exam = ctx.get(Exam, ctx.get(Session, inc.session_id).exam_id)
    return {"incident_id": inc.id, "confirmed": False, "reviewed_by": exam.instructor_email, "notes": "Reading aloud."}


@service.tool(intent="review the flagged incident", write=True, example=_example_review)
def review_incident(
    ctx: Ctx, incident_id: IncidentId, confirmed: bool, reviewed_by: Email, notes: Text | None = None
) -> Incident:
    """Review a flagged incident once: confirm it as a violation or clear it.

    Args:
        incident_id: The incident.
        confirmed: True: a violation; False: no violation.
        reviewed_by: The reviewer (an employee).
        notes: Why; required to confirm.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if inc.status != "flagged":
        raise Conflict(f"incident {inc.id} was already reviewed", field="incident_id", hint="nothing to do")
    _staff(ctx, reviewed_by, "reviewed_by")
    if confirmed and not (notes or "").strip():
        raise RuleViolation("confirming a violation needs notes", field="notes", hint="describe the evidence")
    return ctx.update(
        inc, status="confirmed" if confirmed else "no_violation", reviewed_by=reviewed_by, review_notes=notes
    )


def _example_accommodation(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "student_email": "robin.vale@example.org",
        "extra_time_percent": 50,
        "approved_by": ctx.population.employees[0].email,
    }


@service.tool(intent="grant the accommodation", write=True, example=_example_accommodation)
def grant_accommodation(
    ctx: Ctx,
    student_email: Email,
    approved_by: Email,
    extra_time_percent: Annotated[int, Field(ge=0, le=200)] = 0,
    extra_resources: list[Resource] | None = None,
    exam_id: ExamId | None = None,
) -> Accommodation:
    """Record an approved accommodation for one exam or all; it applies to sessions booked afterwards.

    Args:
        student_email: The student.
        approved_by: The approving employee.
        extra_time_percent: Extra time, percent (25, 50, 100 ...).
        extra_resources: Resources allowed beyond the exam's.
        exam_id: Only this exam; omit for every exam.
    """
    if exam_id is not None:
        ctx.get(Exam, exam_id, field="exam_id")
    _staff(ctx, approved_by, "approved_by")
    if not extra_time_percent and not extra_resources:
        raise RuleViolation("an accommodation grants something", field="extra_time_percent", hint="give extra time")
    for acc in ctx.where(Accommodation, student_email=student_email, status="active"):
        if acc.exam_id == exam_id:
            raise Conflict(f"accommodation {acc.id} already applies", field="student_email", hint="revoke it first")
    return ctx.create(
        Accommodation,
        student_email=student_email,
        exam_id=exam_id,
        extra_time_percent=extra_time_percent,
        extra_resources=tuple(dict.fromkeys(extra_resources or ())),
        approved_by=approved_by,
    )


@service.tool(intent="show the session's integrity report", example=first_example(Session, "session_id"))
def session_report(ctx: Ctx, session_id: SessionId) -> SessionReport:
    """A session's incidents, how many await review or were confirmed, and its integrity.

    Args:
        session_id: The session.
    """
    ses = ctx.get(Session, session_id, field="session_id")
    found = ctx.where(Incident, session_id=ses.id)
    pending = sum(i.status == "flagged" for i in found)
    confirmed = [i for i in found if i.status == "confirmed"]
    integrity: Integrity = (
        "violation" if any(i.severity == "high" for i in confirmed) else "review_pending" if pending else "clean"
    )
    return SessionReport(
        session_id=ses.id,
        status=ses.status,
        incidents=len(found),
        pending_review=pending,
        confirmed=len(confirmed),
        integrity=integrity,
    )


# -- seed -------------------------------------------------------------------------------------

EXAMS: tuple[tuple[str, str, int, ServiceLevel, ExamStatus, int], ...] = (
    ("CS101", "Midterm exam", 75, "record_plus", "published", -1),
    ("DA201", "SQL certification exam", 120, "live", "published", 3),
    ("MK110", "Final exam", 60, "automated", "draft", 10),
    ("PM150", "Final exam", 90, "record_plus", "closed", -40),
)
PLAN: tuple[SessionStatus, ...] = (
    "completed",
    "completed",
    "in_progress",
    "id_verified",
    "scheduled",
    "scheduled",
    "id_failed",
    "cancelled",
    "no_show",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The LMS courses' exams with staff instructors; students' sessions in every status, incidents, accommodations."""
    pop = s.population
    staff = list(pop.employees)
    learners = list(pop.consumers)[:12]
    made = []
    for k, (code, title, minutes, level, status, offset) in enumerate(EXAMS):
        opens = (s.now + dt.timedelta(days=offset)).replace(hour=8, minute=0, second=0, microsecond=0)
        made.append(
            s.create(
                Exam,
                course_code=code,
                title=title,
                instructor_email=staff[k].email,
                duration_minutes=minutes,
                opens_at=opens,
                closes_at=opens + dt.timedelta(days=5),
                service_level=level,
                allowed_resources=(("scratch_paper",), ("calculator", "notes"), (), ("scratch_paper",))[k],
                status=status,
                created_at=s.ago(days=60),
                updated_at=s.ago(days=30),
            )
        )
    s.create(
        Accommodation,
        student_email=learners[0].email,
        extra_time_percent=50,
        extra_resources=("scratch_paper",),
        approved_by=staff[5].email,
        created_at=s.ago(days=90),
        updated_at=s.ago(days=90),
    )
    mid = made[0]
    for k, sst in enumerate(PLAN):
        p = learners[k]
        minutes = mid.duration_minutes * (150 if k == 0 else 100) // 100
        began = sst in ("completed", "in_progress")
        start = s.now - dt.timedelta(hours=3 - k) if began else s.now + dt.timedelta(minutes=5 + 120 * (k - 3))
        ses = s.create(
            Session,
            exam_id=mid.id,
            student_name=p.name,
            student_email=p.email,
            starts_at=max(start, mid.opens_at),
            duration_minutes=minutes,
            status=sst,
            id_type="student_id" if began or sst in ("id_verified", "id_failed") else None,
            face_match_score=0.62 if sst == "id_failed" else 0.9 if began or sst == "id_verified" else None,
            started_at=max(start, mid.opens_at) if began else None,
            ended_at=max(start, mid.opens_at) + dt.timedelta(minutes=minutes - 5) if sst == "completed" else None,
            created_at=s.ago(days=3),
            updated_at=s.ago(hours=1),
        )
        if sst == "completed":
            s.create(
                Incident,
                session_id=ses.id,
                kind=("phone_detected", "browser_switch")[k],
                severity=("high", "low")[k],
                at_minute=20 + k,
                status="flagged" if k == 0 else "no_violation",
                reviewed_by=None if k == 0 else mid.instructor_email,
                created_at=s.ago(hours=1),
                updated_at=s.ago(hours=1),
            )
