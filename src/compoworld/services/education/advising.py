"""Compass Advising: student success — advisors, caseloads, appointments, early alerts, cases, notes, success plans.

Modeled on EAB Navigate360 (staff with advising caseloads; appointments with
advising reasons and appointment summaries; progress reports and alerts
raised by instructors; cases opened from alerts, assigned, and closed with an
outcome; advising notes; success plans with to-do steps): a student is
assigned to an advisor who accepts students and has room in the caseload;
an appointment is with an advisor in the future and not overlapping another
of theirs; completing it needs a summary, which is filed as a note; an
instructor (an employee) raises at most one open alert per student, course and
reason, and a second open alert makes the student high-risk; a case is
opened from an open alert and owned by the student's advisor; a case closes
with an outcome only after a note was written on it; a success plan completes
when its last step is done.
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
    "advising",
    title="Compass Advising",
    category="student_success",
    modeled_on="EAB Navigate360: advisors and caseloads, appointments and summaries, instructor alerts, cases "
    "with outcomes, advising notes, success plans",
    description="Student success work at a college: advisors and their caseloads, advising appointments and "
    "their summaries, early alerts instructors raise about attendance or grades, cases opened from alerts and "
    "closed with an outcome, advising notes, and success plans with steps.",
)

AdvisorId = Annotated[str, IdOf("advising.advisor")]
StudentId = Annotated[str, IdOf("advising.student")]
AppointmentId = Annotated[str, IdOf("advising.appointment")]
AlertId = Annotated[str, IdOf("advising.alert")]
CaseId = Annotated[str, IdOf("advising.case")]
NoteId = Annotated[str, IdOf("advising.note")]
PlanId = Annotated[str, IdOf("advising.success_plan")]

CourseCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,4}[0-9]{3}$")]
"""A course code such as CS101."""
Risk = Literal["low", "moderate", "high"]
ApptKind = Literal["academic_advising", "registration", "career", "academic_coaching"]
ApptStatus = Literal["scheduled", "completed", "cancelled", "no_show"]
AlertReason = Literal["attendance", "low_grade", "missing_work", "wellbeing"]
AlertStatus = Literal["open", "in_case", "closed"]
CaseStatus = Literal["open", "closed"]
Outcome = Literal["resolved", "referred", "unreachable"]
PlanStatus = Literal["active", "completed"]
SLOT = dt.timedelta(minutes=30)


class Advisor(Timestamped):
    """An advisor with a caseload."""

    id: AdvisorId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    caseload_cap: Annotated[int, Field(ge=1, le=1000)] = 25
    """Most students assigned."""
    accepting: bool = True
    """Whether new students may be assigned."""


class Student(Timestamped):
    """A student in the success platform."""

    id: StudentId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    program: Title
    """Major or program."""
    gpa: Annotated[float, Field(ge=0, le=4)]
    """Cumulative GPA."""
    risk: Risk = "low"
    """Predicted risk: low, moderate or high."""
    advisor_id: AdvisorId | None = None
    """The assigned advisor."""


class Appointment(Timestamped):
    """An advising appointment."""

    id: AppointmentId
    student_id: StudentId
    """The student."""
    advisor_id: AdvisorId
    """The advisor."""
    kind: ApptKind
    """Reason for the visit."""
    starts_at: DateTime
    """Start (30 minutes)."""
    status: ApptStatus = "scheduled"
    """scheduled, completed, cancelled or no_show."""


class Alert(Timestamped):
    """An early alert raised by an instructor."""

    id: AlertId
    student_id: StudentId
    """The student."""
    raised_by: Email
    """The instructor (an employee)."""
    course_code: CourseCode
    """The course."""
    reason: AlertReason
    """attendance, low_grade, missing_work or wellbeing."""
    comments: Text = ""
    """The instructor's comments."""
    status: AlertStatus = "open"
    """open, in_case or closed."""
    case_id: CaseId | None = None
    """The case it is handled in."""


class Case(Timestamped):
    """A case opened from an alert."""

    id: CaseId
    student_id: StudentId
    """The student."""
    alert_id: AlertId
    """The alert that opened it."""
    owner_id: AdvisorId
    """The advisor who owns it."""
    status: CaseStatus = "open"
    """open or closed."""
    outcome: Outcome | None = None
    """resolved, referred or unreachable."""


class Note(Timestamped):
    """An advising note."""

    id: NoteId
    student_id: StudentId
    """The student."""
    advisor_id: AdvisorId
    """The author."""
    case_id: CaseId | None = None
    """The case it belongs to."""
    appointment_id: AppointmentId | None = None
    """The appointment it summarizes."""
    body: Text
    """The note."""


class Step(Value):
    """A step of a success plan."""

    title: Title
    """What to do."""
    done: bool = False
    """Whether it is done."""


class SuccessPlan(Timestamped):
    """A success plan with steps."""

    id: PlanId
    student_id: StudentId
    """The student."""
    title: Title
    """Plan title."""
    steps: tuple[Step, ...]
    """Its steps."""
    status: PlanStatus = "active"
    """active or completed."""


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use a staff e-mail")


advisors = service.resource(
    Advisor,
    name="advisor",
    plural="advisors",
    prefix="adv",
    create=False,
    filters=("accepting", "email"),
    search=("name",),
    update=("caseload_cap", "accepting"),
    delete=False,
)
students = service.resource(
    Student,
    name="student",
    plural="students",
    prefix="stu",
    create=False,
    filters=("risk", "advisor_id", "email", "program"),
    search=("name", "email"),
    update=("gpa", "risk", "program"),
    delete=False,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="appt",
    create=False,
    filters=("student_id", "advisor_id", "status", "kind"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the appointment"),
        "mark_no_show": Transition("status", ("scheduled",), "no_show", "mark the appointment a no-show"),
    },
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alrt",
    create=False,
    get=False,
    filters=("student_id", "raised_by", "course_code", "reason", "status"),
    delete=False,
)
cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="case",
    create=False,
    filters=("student_id", "owner_id", "status", "outcome"),
    delete=False,
)
notes = service.resource(
    Note,
    name="note",
    plural="notes",
    prefix="note",
    create=False,
    get=False,
    filters=("student_id", "case_id"),
    search=("body",),
    delete=False,
)
plans = service.resource(
    SuccessPlan,
    name="success_plan",
    plural="success_plans",
    prefix="plan",
    create=False,
    get=False,
    filters=("student_id", "status"),
    delete=False,
)


def _has_room(ctx: Ctx, adv: Advisor) -> bool:
    return adv.accepting and len(ctx.where(Student, advisor_id=adv.id)) < adv.caseload_cap


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    stu = ctx.first(Student, advisor_id=None)
    adv = next((a for a in ctx.where(Advisor) if _has_room(ctx, a)), None)
    return None if stu is None or adv is None else {"student_id": stu.id, "advisor_id": adv.id}


@service.tool(intent="assign the student to an advisor", write=True, example=_example_assign)
def assign_advisor(ctx: Ctx, student_id: StudentId, advisor_id: AdvisorId) -> Student:
    """Put a student on an advisor's caseload; the advisor must accept students and have room.

    Args:
        student_id: The student.
        advisor_id: The advisor.
    """
    stu = ctx.get(Student, student_id, field="student_id")
    adv = ctx.get(Advisor, advisor_id, field="advisor_id")
    if stu.advisor_id == adv.id:
        raise Conflict(f"{stu.name} is already {adv.name}'s", field="advisor_id", hint="nothing to do")
    if not adv.accepting:
        raise RuleViolation(f"{adv.name} is not accepting students", field="advisor_id", hint="pick another")
    if not _has_room(ctx, adv):
        raise RuleViolation(f"{adv.name}'s caseload is full", field="advisor_id", hint="raise caseload_cap")
    return ctx.update(stu, advisor_id=adv.id)


def _example_appt(ctx: Ctx) -> dict[str, Any] | None:
    stu = next((s for s in ctx.where(Student) if s.advisor_id), None)
    when = (ctx.now() + dt.timedelta(days=6)).replace(hour=14, minute=0, second=0, microsecond=0)
    return (
        None
        if stu is None
        else {"student_id": stu.id, "advisor_id": stu.advisor_id, "kind": "registration", "starts_at": when.isoformat()}
    )


@service.tool(intent="schedule the advising appointment", write=True, example=_example_appt)
def schedule_appointment(
    ctx: Ctx, student_id: StudentId, advisor_id: AdvisorId, kind: ApptKind, starts_at: DateTime
) -> Appointment:
    """Book a 30-minute appointment in the future that overlaps none of the advisor's or the student's.

    Args:
        student_id: The student.
        advisor_id: The advisor.
        kind: academic_advising, registration, career or academic_coaching.
        starts_at: Start.
    """
    stu = ctx.get(Student, student_id, field="student_id")
    adv = ctx.get(Advisor, advisor_id, field="advisor_id")
    if starts_at <= ctx.now():
        raise RuleViolation("the appointment must be in the future", field="starts_at", hint="pick a later time")
    for field, who in (("advisor_id", adv.id), ("student_id", stu.id)):
        for a in ctx.where(Appointment, **{field: who}, status="scheduled"):
            if abs(a.starts_at - starts_at) < SLOT:
                raise Conflict(f"{field} is booked at {a.starts_at} ({a.id})", field="starts_at", hint="pick another")
    return ctx.create(Appointment, student_id=stu.id, advisor_id=adv.id, kind=kind, starts_at=starts_at)


@service.tool(
    intent="complete the appointment with a summary",
    write=True,
    example=first_example(
        Appointment,
        "appointment_id",
        where={"status": "scheduled"},
        match=lambda c, a: a.starts_at <= c.now(),
        summary="Planned spring courses.",
    ),
)
def complete_appointment(ctx: Ctx, appointment_id: AppointmentId, summary: Text) -> Appointment:
    """Mark an appointment that has started completed; the summary is filed as a note.

    Args:
        appointment_id: The appointment.
        summary: The appointment summary (required).
    """
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status != "scheduled":
        raise Conflict(f"appointment {appt.id} is {appt.status}", field="appointment_id", hint="only scheduled ones")
    if appt.starts_at > ctx.now():
        raise RuleViolation("the appointment has not started", field="appointment_id", hint="wait for it")
    if not summary.strip():
        raise RuleViolation("a summary is required", field="summary", hint="say what was discussed")
    ctx.create(
        Note, student_id=appt.student_id, advisor_id=appt.advisor_id, appointment_id=appt.id, body=summary.strip()
    )
    return ctx.update(appt, status="completed")


def _example_alert(ctx: Ctx) -> dict[str, Any] | None:
    stu = ctx.first(Student, risk="low")
    return (
        None
        if stu is None
        else {
            "student_id": stu.id,
            "raised_by": ctx.population.employees[1].email,
            "course_code": "CS101",
            "reason": "missing_work",
        }
    )


@service.tool(intent="raise an early alert", write=True, example=_example_alert)
def raise_alert(
    ctx: Ctx, student_id: StudentId, raised_by: Email, course_code: CourseCode, reason: AlertReason, comments: Text = ""
) -> Alert:
    """An instructor flags a student; one open alert per course and reason, and a second open alert makes them high-risk.

    Args:
        student_id: The student.
        raised_by: The instructor (an employee).
        course_code: The course.
        reason: attendance, low_grade, missing_work or wellbeing.
        comments: Details.
    """
    stu = ctx.get(Student, student_id, field="student_id")
    _staff(ctx, raised_by, "raised_by")
    live = [a for a in ctx.where(Alert, student_id=stu.id) if a.status != "closed"]
    for a in live:
        if (a.course_code, a.reason) == (course_code, reason):
            raise Conflict(f"alert {a.id} is already open", field="reason", hint="add to the existing case")
    alert = ctx.create(
        Alert, student_id=stu.id, raised_by=raised_by, course_code=course_code, reason=reason, comments=comments
    )
    if live and stu.risk != "high":
        ctx.update(stu, risk="high")
    return alert


@service.tool(
    intent="open a case from the alert",
    write=True,
    example=first_example(
        Alert,
        "alert_id",
        where={"status": "open"},
        match=lambda c, a: c.get(Student, a.student_id).advisor_id is not None,
    ),
)
def open_case(ctx: Ctx, alert_id: AlertId) -> Case:
    """Open a case for an open alert, owned by the student's advisor.

    Args:
        alert_id: The alert.
    """
    alert = ctx.get(Alert, alert_id, field="alert_id")
    if alert.status != "open":
        raise Conflict(f"alert {alert.id} is {alert.status}", field="alert_id", hint="it is already handled")
    stu = ctx.get(Student, alert.student_id)
    if stu.advisor_id is None:
        raise RuleViolation(f"{stu.name} has no advisor", field="alert_id", hint="use advising__assign_advisor first")
    case = ctx.create(Case, student_id=stu.id, alert_id=alert.id, owner_id=stu.advisor_id)
    ctx.update(alert, status="in_case", case_id=case.id)
    return case


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    case = ctx.first(Case, status="open")
    return (
        None
        if case is None
        else {
            "student_id": case.student_id,
            "case_id": case.id,
            "advisor_id": case.owner_id,
            "body": "Called the student; tutoring referral made.",
        }
    )


@service.tool(intent="add an advising note", write=True, example=_example_note)
def add_note(ctx: Ctx, student_id: StudentId, advisor_id: AdvisorId, body: Text, case_id: CaseId | None = None) -> Note:
    """Write a note on a student, optionally on one of their open cases.

    Args:
        student_id: The student.
        advisor_id: The author.
        body: The note (required).
        case_id: An open case of the student.
    """
    stu = ctx.get(Student, student_id, field="student_id")
    adv = ctx.get(Advisor, advisor_id, field="advisor_id")
    if not body.strip():
        raise RuleViolation("a note needs text", field="body", hint="write something")
    if case_id is not None:
        case = ctx.get(Case, case_id, field="case_id")
        if case.student_id != stu.id or case.status != "open":
            raise RuleViolation("not an open case of this student", field="case_id", hint="pick the student's case")
    return ctx.create(Note, student_id=stu.id, advisor_id=adv.id, case_id=case_id, body=body.strip())


@service.tool(
    intent="close the case",
    write=True,
    example=first_example(
        Case,
        "case_id",
        where={"status": "open"},
        match=lambda c, k: bool(c.where(Note, case_id=k.id)),
        outcome="resolved",
    ),
)
def close_case(ctx: Ctx, case_id: CaseId, outcome: Outcome) -> Case:
    """Close an open case with an outcome; a note must have been written on it; its alert closes too.

    Args:
        case_id: The case.
        outcome: resolved, referred or unreachable.
    """
    case = ctx.get(Case, case_id, field="case_id")
    if case.status != "open":
        raise Conflict(f"case {case.id} is closed", field="case_id", hint="nothing to do")
    if not ctx.where(Note, case_id=case.id):
        raise RuleViolation("a case closes only after a note", field="case_id", hint="use advising__add_note")
    ctx.update(ctx.get(Alert, case.alert_id), status="closed")
    return ctx.update(case, status="closed", outcome=outcome)


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    stu = ctx.first(Student, risk="high")
    return (
        None
        if stu is None
        else {"student_id": stu.id, "title": "Get back on track", "steps": ["Meet tutor weekly", "Attend all classes"]}
    )


@service.tool(intent="create the success plan", write=True, example=_example_plan)
def create_success_plan(ctx: Ctx, student_id: StudentId, title: Title, steps: list[Title]) -> SuccessPlan:
    """Give a student a plan of distinct steps; one active plan at a time.

    Args:
        student_id: The student.
        title: Plan title.
        steps: The steps, in order (at least one, no repeats).
    """
    stu = ctx.get(Student, student_id, field="student_id")
    if not steps or len(set(steps)) != len(steps):
        raise RuleViolation("a plan needs distinct steps", field="steps", hint="list each step once")
    if ctx.first(SuccessPlan, student_id=stu.id, status="active") is not None:
        raise Conflict(f"{stu.name} already has an active plan", field="student_id", hint="finish it first")
    return ctx.create(SuccessPlan, student_id=stu.id, title=title, steps=tuple(Step(title=t) for t in steps))


@service.tool(
    intent="complete a step of the success plan",
    write=True,
    example=first_example(SuccessPlan, "plan_id", where={"status": "active"}, step=1),
)
def complete_step(ctx: Ctx, plan_id: PlanId, step: Annotated[int, Field(ge=1, le=100)]) -> SuccessPlan:
    """Mark a step done (numbered from 1); the plan completes with its last step.

    Args:
        plan_id: The plan.
        step: The step's number.
    """
    plan = ctx.get(SuccessPlan, plan_id, field="plan_id")
    if plan.status != "active":
        raise Conflict("the plan is completed", field="plan_id", hint="nothing to do")
    if step > len(plan.steps):
        raise RuleViolation(f"the plan has {len(plan.steps)} steps", field="step", hint="pick an existing step")
    if plan.steps[step - 1].done:
        raise Conflict(f"step {step} is already done", field="step", hint="pick another step")
    steps = tuple(s.model_copy(update={"done": True}) if i == step - 1 else s for i, s in enumerate(plan.steps))
    return ctx.update(plan, steps=steps, status="completed" if all(s.done for s in steps) else "active")


# -- seed -------------------------------------------------------------------------------------

PROGRAMS = ("Computer Science", "Nursing", "Business Administration", "Psychology", "Biology")


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff advisors, consumers as students (some unassigned), appointments, alerts, cases, notes and plans."""
    pop = s.population
    staff = list(pop.employees)
    advs = [
        s.create(
            Advisor,
            name=p.name,
            email=p.email,
            caseload_cap=(6, 5, 4, 3)[k],
            accepting=k != 3,
            created_at=s.ago(days=400),
            updated_at=s.ago(days=30),
        )
        for k, p in enumerate(staff[6:10])
    ]
    studs = []
    for k, p in enumerate(list(pop.consumers)[:14]):
        gpa = round(1.8 + (k * 0.37) % 2.2, 2)
        studs.append(
            s.create(
                Student,
                name=p.name,
                email=p.email,
                program=PROGRAMS[k % 5],
                gpa=gpa,
                risk="high" if gpa < 2.2 else "moderate" if gpa < 2.8 else "low",
                advisor_id=advs[k % 3].id if k < 12 else None,
                created_at=s.ago(days=300),
                updated_at=s.ago(days=20),
            )
        )
    for k, stu in enumerate(studs[:6]):
        assert stu.advisor_id is not None
        when = s.now + dt.timedelta(hours=(-30, -1, 20, 45, -60, 70)[k])
        status: ApptStatus = ("completed", "scheduled", "scheduled", "scheduled", "no_show", "cancelled")[k]
        appt = s.create(
            Appointment,
            student_id=stu.id,
            advisor_id=stu.advisor_id,
            kind=("registration", "academic_advising", "career", "academic_coaching")[k % 4],
            starts_at=when.replace(minute=0, second=0, microsecond=0),
            status=status,
            created_at=s.ago(days=9),
            updated_at=s.ago(days=2),
        )
        if status == "completed":
            s.create(
                Note,
                student_id=stu.id,
                advisor_id=stu.advisor_id,
                appointment_id=appt.id,
                body="Reviewed degree audit; registered for 15 credits.",
            )
    for k, stu in enumerate(studs[6:10]):
        assert stu.advisor_id is not None
        alert = s.create(
            Alert,
            student_id=stu.id,
            raised_by=staff[k].email,
            course_code=("CS101", "DA201")[k % 2],
            reason=("attendance", "low_grade", "missing_work", "wellbeing")[k],
            comments="Missed three sessions in a row.",
            status="in_case" if k < 2 else "open",
            created_at=s.ago(days=12 - k),
            updated_at=s.ago(days=10 - k),
        )
        if k < 2:
            case = s.create(
                Case,
                student_id=stu.id,
                alert_id=alert.id,
                owner_id=stu.advisor_id,
                created_at=s.ago(days=10),
                updated_at=s.ago(days=10),
            )
            s.update(alert, case_id=case.id)
            if k == 0:
                s.create(
                    Note,
                    student_id=stu.id,
                    advisor_id=stu.advisor_id,
                    case_id=case.id,
                    body="Left a voicemail and sent an e-mail.",
                )
    s.create(
        SuccessPlan,
        student_id=studs[0].id,
        title="Raise GPA above 2.5",
        steps=(Step(title="Meet tutor weekly", done=True), Step(title="Attend office hours")),
        created_at=s.ago(days=20),
        updated_at=s.ago(days=5),
    )
