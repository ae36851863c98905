"""Upskill Academy: corporate courses, learning paths, assignments to employees, completions and certifications.

Modeled on the Docebo Learn API / Workday Learning (courses with passing
scores and prerequisites, learning plans, enrollments with due dates,
completions with attempts, certifications with validity periods and
retraining courses): only published courses are assigned, to active
employees who passed the course's prerequisite and have no open assignment
of it; a sequential path is taken in order; progress only moves forward;
a completion below the passing score is a failed attempt and the third
failure fails the assignment; finishing every course of a path grants its
certification for its validity period, and finishing the certification's
retraining course renews it; only the learner's manager waives an assignment.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    JobTitle,
    Language,
    Percent,
    PersonName,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import add_months, utc_at
from compoworld.world.org import OrgChart, department_of, is_lead, org_chart

__all__ = ["service"]

service = Service(
    "training",
    title="Upskill Academy",
    category="education",
    modeled_on="Docebo Learn API / Workday Learning (courses, learning plans, enrollments with due dates, "
    "completions, certifications with expiry and retraining)",
    description="Corporate learning for the home company's employees: a catalog of e-learning and "
    "instructor-led courses, learning paths, course assignments with due dates and progress, scored "
    "completions, and certifications that expire and are renewed by retraining.",
)

LearnerId = Annotated[str, IdOf("training.learner")]
CourseId = Annotated[str, IdOf("training.course")]
PathId = Annotated[str, IdOf("training.learning_path")]
CertId = Annotated[str, IdOf("training.certification")]
AssignmentId = Annotated[str, IdOf("training.assignment")]
AwardId = Annotated[str, IdOf("training.certification_award")]
Format = Literal["e_learning", "instructor_led", "webinar", "document"]
CourseStatus = Literal["draft", "published", "retired"]
AssignmentStatus = Literal["not_started", "in_progress", "completed", "failed", "waived"]
AwardStatus = Literal["active", "expired", "revoked"]
OPEN: tuple[str, ...] = ("not_started", "in_progress")
MAX_ATTEMPTS = 3


class Learner(Record):
    """An employee who takes training."""

    id: LearnerId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    department: Text = ""
    """Department."""
    job_title: JobTitle
    """Job title."""
    manager_email: Email | None = None
    """E-mail of the learner's manager, who may waive their assignments."""
    active: bool = True
    """Inactive learners (leavers) get no new assignments."""


class Course(Record):
    """A course in the catalog."""

    id: CourseId
    title: Title
    """Course title."""
    format: Format = "e_learning"
    """e_learning, instructor_led, webinar or document."""
    duration_minutes: Quantity = 30
    """Expected time to complete."""
    provider: CompanyName
    """Who made the content (the company itself or a vendor)."""
    language: Language = "en"
    """Language of the content."""
    passing_score: Percent | None = None
    """Score needed to complete, for courses with a final test; null if there is none."""
    prerequisite_id: CourseId | None = None
    """A course that must be completed before this one is assigned."""
    status: CourseStatus = "draft"
    """draft, published (assignable) or retired."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Certification(Record):
    """A certification earned by finishing a learning path and kept by retraining."""

    id: CertId
    name: Title
    """Certification name."""
    validity_months: Annotated[int, Field(ge=1, le=120)]
    """How long an award is valid."""
    renewal_course_id: CourseId | None = None
    """Retraining course whose completion renews an award."""


class LearningPath(Record):
    """An ordered set of courses assigned together."""

    id: PathId
    name: Title
    """Path name."""
    course_ids: list[CourseId] = Field(min_length=1, max_length=12)
    """The courses, in order."""
    sequential: bool = False
    """Whether the courses must be taken in order."""
    certification_id: CertId | None = None
    """Certification granted when every course is completed."""


class Assignment(Record):
    """A course a learner must take by a due date, and how far they got."""

    id: AssignmentId
    learner_id: LearnerId
    """The learner."""
    course_id: CourseId
    """The course."""
    path_id: PathId | None = None
    """The learning path it was assigned through."""
    assigned_by: Email
    """Who assigned it."""
    due_date: Date
    """When it must be completed."""
    status: AssignmentStatus = "not_started"
    """not_started, in_progress, completed, failed (out of attempts) or waived."""
    progress: Percent = 0
    """Share of the course done."""
    attempts: Quantity = 0
    """Final test attempts used."""
    score: Percent | None = None
    """Latest test score."""
    completed_on: Date | None = None
    """When it was completed."""
    waived_by: Email | None = None
    """The manager who waived it."""
    waive_reason: Text = ""
    """Why it was waived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was assigned."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class CertificationAward(Record):
    """A certification held by a learner."""

    id: AwardId
    learner_id: LearnerId
    """The learner."""
    certification_id: CertId
    """The certification."""
    issued_on: Date
    """When it was first issued."""
    renewed_on: Date | None = None
    """When it was last renewed."""
    expires_on: Date
    """When it runs out unless renewed."""
    status: AwardStatus = "active"
    """active, expired or revoked."""


# -- rules ----------------------------------------------------------------------------------


def _completed(ctx: Ctx, learner_id: str, course_id: str) -> bool:
    return ctx.first(Assignment, learner_id=learner_id, course_id=course_id, status="completed") is not None


def _guard_course(ctx: Ctx, new: Any, old: Any) -> None:
    if new.prerequisite_id is not None:
        if new.prerequisite_id == new.id:
            raise RuleViolation(
                "a course cannot be its own prerequisite", field="prerequisite_id", hint="pick another course"
            )
        ctx.get(Course, new.prerequisite_id, field="prerequisite_id")
    if old is not None and old.status == "retired" and new.status == "retired":
        raise RuleViolation(f"course {old.title} is retired", field="course_id", hint="retired courses cannot change")
    if old is not None and old.status == "published" and new.status == "retired":
        open_ = [a for a in ctx.where(Assignment, course_id=new.id) if a.status in OPEN]
        if open_:
            raise RuleViolation(
                f"{len(open_)} learner(s) still have course {new.title} open",
                field="course_id",
                hint="wait for them to finish, or have their managers waive the assignments",
            )


def _guard_path(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.course_ids)) != len(new.course_ids):
        raise RuleViolation("a course is listed twice", field="course_ids", hint="list each course once")
    for k, cid in enumerate(new.course_ids):
        course = ctx.get(Course, cid, field=f"course_ids.{k}")
        if course.status == "retired":
            raise RuleViolation(
                f"course {course.title} is retired", field=f"course_ids.{k}", hint="use published courses"
            )
    if new.certification_id is not None:
        ctx.get(Certification, new.certification_id, field="certification_id")


def _guard_certification(ctx: Ctx, new: Any, old: Any) -> None:
    if new.renewal_course_id is not None:
        ctx.get(Course, new.renewal_course_id, field="renewal_course_id")


learners = service.resource(
    Learner,
    name="learner",
    plural="learners",
    prefix="lrn",
    create=False,
    filters=("email", "manager_email", "active"),
    search=("name", "email", "department", "job_title"),
    delete=False,
    unique=("email",),
)
courses = service.resource(
    Course,
    name="course",
    plural="courses",
    prefix="tc",
    create=("title", "format", "duration_minutes", "provider", "language", "passing_score", "prerequisite_id"),
    filters=("format", "status", "provider", "language"),
    search=("title",),
    update=("title", "duration_minutes", "passing_score", "prerequisite_id"),
    delete=False,
    transitions={
        "publish": Transition("status", ("draft",), "published", "publish the course in the catalog"),
        "retire": Transition("status", ("draft", "published"), "retired", "retire the course", destructive=True),
    },
    guard_create=_guard_course,
    guard_update=_guard_course,
)
certifications = service.resource(
    Certification,
    name="certification",
    plural="certifications",
    prefix="cert",
    get=False,
    filters=("renewal_course_id",),
    search=("name",),
    delete=False,
    guard_create=_guard_certification,
)
paths = service.resource(
    LearningPath,
    name="learning_path",
    plural="learning_paths",
    prefix="lp",
    get=False,
    filters=("certification_id", "sequential"),
    search=("name",),
    delete=False,
    guard_create=_guard_path,
)
assignments = service.resource(
    Assignment,
    name="assignment",
    plural="assignments",
    prefix="ta",
    create=False,
    get=False,
    filters=("learner_id", "course_id", "path_id", "status", "assigned_by", "due_date"),
    delete=False,
)
awards = service.resource(
    CertificationAward,
    name="certification_award",
    plural="certification_awards",
    prefix="caw",
    create=False,
    get=False,
    filters=("learner_id", "certification_id", "status"),
    delete=False,
)


# -- assigning ------------------------------------------------------------------------------


def _assignable(ctx: Ctx, learner: Learner, course: Course, field: str) -> None:
    if not learner.active:
        raise RuleViolation(f"{learner.name} is no longer active", field=field, hint="assign current employees only")
    if course.status != "published":
        raise RuleViolation(
            f"course {course.title} is {course.status}", field="course_id", hint="assign published courses only"
        )
    for a in ctx.where(Assignment, learner_id=learner.id, course_id=course.id):
        if a.status in OPEN:
            raise Conflict(
                f"{learner.name} already has course {course.title} open (due {a.due_date})",
                field=field,
                hint="the existing assignment stands; change nothing or waive it first",
            )
    if course.prerequisite_id is not None and not _completed(ctx, learner.id, course.prerequisite_id):
        pre = ctx.get(Course, course.prerequisite_id)
        raise RuleViolation(
            f"{learner.name} has not completed the prerequisite {pre.title}",
            field=field,
            hint="assign and complete the prerequisite course first",
        )


def _learner_by_email(ctx: Ctx, email: str, field: str) -> Learner:
    learner = ctx.first(Learner, email=email)
    if learner is None:
        raise RuleViolation(
            f"no learner has the e-mail {email}", field=field, hint="list learners to find their e-mails"
        )
    return learner


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for course in ctx.where(Course, status="published"):
        if course.prerequisite_id is not None:
            continue
        for learner in ctx.where(Learner, active=True):
            if not any(a.status in OPEN for a in ctx.where(Assignment, learner_id=learner.id, course_id=course.id)):
                due = ctx.today() + dt.timedelta(days=30)
                return {
                    "course_id": course.id,
                    "learner_emails": [learner.email],
                    "due_date": due.isoformat(),
                    "assigned_by": learner.manager_email or learner.email,
                }
    return None


def _example_path(ctx: Ctx) -> dict[str, Any] | None:
    for path in ctx.scan(LearningPath):
        for learner in ctx.where(Learner, active=True):
            todo = [c for c in path.course_ids if not _completed(ctx, learner.id, c)]
            clash = any(
                a.status in OPEN for c in todo for a in ctx.where(Assignment, learner_id=learner.id, course_id=c)
            )
            if todo and not clash:
                due = ctx.today() + dt.timedelta(days=45)
                return {
                    "learning_path_id": path.id,
                    "learner_email": learner.email,
                    "due_date": due.isoformat(),
                    "assigned_by": learner.manager_email or learner.email,
                }
    return None


def _startable(ctx: Ctx, a: Assignment) -> bool:
    if a.path_id is None:
        return True
    path = ctx.get(LearningPath, a.path_id)
    if not path.sequential or a.course_id not in path.course_ids:
        return True
    before = path.course_ids[: path.course_ids.index(a.course_id)]
    return all(_completed(ctx, a.learner_id, c) for c in before)


def _example_progress(ctx: Ctx) -> dict[str, Any] | None:
    for status in OPEN:
        for a in ctx.where(Assignment, status=status):
            if _startable(ctx, a) and a.progress < 90:
                return {"assignment_id": a.id, "progress": 90.0}
    return None


def _example_complete(ctx: Ctx) -> dict[str, Any] | None:
    for status in OPEN:
        for a in ctx.where(Assignment, status=status):
            if _startable(ctx, a):
                return {"assignment_id": a.id, "score": 95.0}
    return None


def _example_waive(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Assignment, status="not_started"):
        learner = ctx.get(Learner, a.learner_id)
        if learner.manager_email:
            return {"assignment_id": a.id, "manager_email": learner.manager_email, "reason": "Completed externally"}
    return None


@service.tool(intent="assign the course to the employees", write=True, example=_example_assign)
def assign_course(
    ctx: Ctx,
    course_id: CourseId,
    learner_emails: Annotated[list[Email], Field(min_length=1, max_length=50)],
    due_date: Date,
    assigned_by: Email,
) -> list[Assignment]:
    """Assign a published course to employees, due by a date.

    Each learner must be active, have passed the course's prerequisite and
    have no open assignment of the course; all are assigned or none.

    Args:
        course_id: The course.
        learner_emails: Work e-mails of the learners.
        due_date: When it must be completed; today or later.
        assigned_by: E-mail of the person assigning.
    """
    course = ctx.get(Course, course_id, field="course_id")
    if due_date < ctx.today():
        raise RuleViolation("the due date is in the past", field="due_date", hint="give a date from today on")
    out = []
    for k, email in enumerate(dict.fromkeys(learner_emails)):
        learner = _learner_by_email(ctx, email, f"learner_emails.{k}")
        _assignable(ctx, learner, course, f"learner_emails.{k}")
        out.append(
            ctx.create(
                Assignment, learner_id=learner.id, course_id=course.id, assigned_by=assigned_by, due_date=due_date
            )
        )
    return out


@service.tool(intent="assign the learning path to the employee", write=True, example=_example_path)
def assign_learning_path(
    ctx: Ctx, learning_path_id: PathId, learner_email: Email, due_date: Date, assigned_by: Email
) -> list[Assignment]:
    """Assign every course of a learning path that the learner has not completed yet.

    Args:
        learning_path_id: The path.
        learner_email: The learner's work e-mail.
        due_date: When the whole path must be completed.
        assigned_by: E-mail of the person assigning.
    """
    path = ctx.get(LearningPath, learning_path_id, field="learning_path_id")
    learner = _learner_by_email(ctx, learner_email, "learner_email")
    if due_date < ctx.today():
        raise RuleViolation("the due date is in the past", field="due_date", hint="give a date from today on")
    todo = [ctx.get(Course, c) for c in path.course_ids if not _completed(ctx, learner.id, c)]
    if not todo:
        raise Conflict(
            f"{learner.name} has completed every course of {path.name}", field="learner_email", hint="nothing to assign"
        )
    out = []
    for course in todo:
        if course.prerequisite_id is not None and course.prerequisite_id in path.course_ids:
            # A prerequisite inside the path is taken first in the path itself.
            if course.status != "published":
                raise RuleViolation(
                    f"course {course.title} is {course.status}",
                    field="learning_path_id",
                    hint="publish the path's courses first",
                )
            if any(a.status in OPEN for a in ctx.where(Assignment, learner_id=learner.id, course_id=course.id)):
                raise Conflict(
                    f"{learner.name} already has course {course.title} open",
                    field="learner_email",
                    hint="the existing assignment stands",
                )
        else:
            _assignable(ctx, learner, course, "learner_email")
        out.append(
            ctx.create(
                Assignment,
                learner_id=learner.id,
                course_id=course.id,
                path_id=path.id,
                assigned_by=assigned_by,
                due_date=due_date,
            )
        )
    return out


def _open_assignment(ctx: Ctx, assignment_id: str) -> Assignment:
    a = ctx.get(Assignment, assignment_id, field="assignment_id")
    if a.status not in OPEN:
        raise RuleViolation(
            f"assignment {a.id} is {a.status.replace('_', ' ')}",
            field="assignment_id",
            hint="only not-started or in-progress assignments change",
        )
    if not _startable(ctx, a):
        raise RuleViolation(
            "the learning path is taken in order and an earlier course is not completed",
            field="assignment_id",
            hint="complete the path's earlier courses first",
        )
    return a


@service.tool(intent="record the learner's progress in the course", write=True, example=_example_progress)
def record_progress(
    ctx: Ctx, assignment_id: AssignmentId, progress: Annotated[float, Field(gt=0, lt=100)]
) -> Assignment:
    """Record how much of an assigned course the learner has done; progress never goes back.

    Args:
        assignment_id: The assignment.
        progress: Percent done, below 100 (complete the course to reach 100).
    """
    a = _open_assignment(ctx, assignment_id)
    if progress < a.progress:
        raise RuleViolation(
            f"progress is already {a.progress:g}%", field="progress", hint="progress only moves forward"
        )
    return ctx.update(a, progress=progress, status="in_progress")


def _grant(ctx: Ctx, learner_id: str, course_id: str) -> None:
    today = ctx.today()
    for cert in ctx.where(Certification, renewal_course_id=course_id):
        held = ctx.first(CertificationAward, learner_id=learner_id, certification_id=cert.id)
        if held is not None and held.status != "revoked":
            start = max(held.expires_on, today) if held.status == "active" else today
            ctx.update(held, renewed_on=today, expires_on=add_months(start, cert.validity_months), status="active")
    for path in ctx.scan(LearningPath):
        if path.certification_id is None or course_id not in path.course_ids:
            continue
        if not all(_completed(ctx, learner_id, c) for c in path.course_ids):
            continue
        cert = ctx.get(Certification, path.certification_id)
        held = ctx.first(CertificationAward, learner_id=learner_id, certification_id=cert.id)
        expires = add_months(today, cert.validity_months)
        if held is None:
            ctx.create(
                CertificationAward,
                learner_id=learner_id,
                certification_id=cert.id,
                issued_on=today,
                expires_on=expires,
            )
        elif held.status != "active" or held.expires_on < expires:
            ctx.update(held, renewed_on=today, expires_on=expires, status="active")


@service.tool(intent="record the learner's completion of the course", write=True, example=_example_complete)
def complete_course(ctx: Ctx, assignment_id: AssignmentId, score: Percent | None = None) -> Assignment:
    """Record that the learner finished the course, with the final test score if it has one.

    A score below the passing score is a failed attempt (the third one fails
    the assignment). A completion may grant the certification of a finished
    learning path, or renew the certification this course retrains.

    Args:
        assignment_id: The assignment.
        score: Final test score in percent; required when the course has a passing score.
    """
    a = _open_assignment(ctx, assignment_id)
    course = ctx.get(Course, a.course_id)
    if course.passing_score is not None:
        if score is None:
            raise RuleViolation(
                f"course {course.title} ends with a test", field="score", hint="give the learner's test score"
            )
        if score < course.passing_score:
            attempts = a.attempts + 1
            return ctx.update(
                a,
                attempts=attempts,
                score=score,
                status="failed" if attempts >= MAX_ATTEMPTS else "in_progress",
            )
    done = ctx.update(
        a,
        status="completed",
        progress=100,
        score=score,
        attempts=a.attempts + (score is not None),
        completed_on=ctx.today(),
    )
    _grant(ctx, a.learner_id, a.course_id)
    return done


@service.tool(intent="waive the training assignment", write=True, example=_example_waive)
def waive_assignment(ctx: Ctx, assignment_id: AssignmentId, manager_email: Email, reason: Text) -> Assignment:
    """Waive an open assignment; only the learner's manager may, with a reason.

    Args:
        assignment_id: The assignment.
        manager_email: E-mail of the learner's manager.
        reason: Why it is waived.
    """
    a = ctx.get(Assignment, assignment_id, field="assignment_id")
    if a.status not in OPEN:
        raise RuleViolation(
            f"assignment {a.id} is {a.status.replace('_', ' ')}",
            field="assignment_id",
            hint="only open ones are waived",
        )
    learner = ctx.get(Learner, a.learner_id)
    if manager_email != learner.manager_email:
        raise RuleViolation(
            f"{manager_email} is not {learner.name}'s manager",
            field="manager_email",
            hint=f"the learner's manager is {learner.manager_email}",
        )
    if not reason.strip():
        raise RuleViolation("a waiver needs a reason", field="reason", hint="say why")
    return ctx.update(a, status="waived", waived_by=manager_email, waive_reason=reason.strip())


class TranscriptLine(BaseModel):
    """One assignment on a learner's transcript."""

    assignment_id: AssignmentId = Field(description="The assignment.")
    course_title: Title = Field(description="Course title.")
    status: AssignmentStatus = Field(description="Assignment status.")
    due_date: Date = Field(description="Due date.")
    overdue: bool = Field(description="Whether it is open and past due.")
    completed_on: Date | None = Field(description="When it was completed.")
    score: float | None = Field(description="Latest score.")


class HeldCertification(BaseModel):
    """A certification on a learner's transcript."""

    certification: Title = Field(description="Certification name.")
    status: AwardStatus = Field(description="Status.")
    expires_on: Date = Field(description="Expiry date.")
    days_left: int = Field(description="Days until it expires (negative once expired).")


class Transcript(BaseModel):
    """A learner's training record."""

    learner_id: LearnerId = Field(description="The learner.")
    name: PersonName = Field(description="Full name.")
    email: Email = Field(description="Work e-mail.")
    manager_email: Email | None = Field(description="Manager.")
    assignments: list[TranscriptLine] = Field(description="Every assignment.")
    overdue: int = Field(description="Open assignments past due.")
    certifications: list[HeldCertification] = Field(description="Certifications held.")


@service.tool(
    intent="get the employee's training transcript",
    example=first_example(Learner, None, where={"active": True}, fields={"email": "email"}),
)
def learner_transcript(ctx: Ctx, email: Email) -> Transcript:
    """Show a learner's assignments (flagging overdue ones) and certifications, by work e-mail.

    Args:
        email: The learner's work e-mail.
    """
    learner = _learner_by_email(ctx, email, "email")
    today = ctx.today()
    lines = []
    for a in ctx.where(Assignment, learner_id=learner.id):
        lines.append(
            TranscriptLine(
                assignment_id=a.id,
                course_title=ctx.get(Course, a.course_id).title,
                status=a.status,
                due_date=a.due_date,
                overdue=a.status in OPEN and a.due_date < today,
                completed_on=a.completed_on,
                score=a.score,
            )
        )
    certs = [
        HeldCertification(
            certification=ctx.get(Certification, w.certification_id).name,
            status=w.status,
            expires_on=w.expires_on,
            days_left=(w.expires_on - today).days,
        )
        for w in ctx.where(CertificationAward, learner_id=learner.id)
    ]
    return Transcript(
        learner_id=learner.id,
        name=learner.name,
        email=learner.email,
        manager_email=learner.manager_email,
        assignments=lines,
        overdue=sum(1 for line in lines if line.overdue),
        certifications=certs,
    )


class ExpiringAward(BaseModel):
    """A certification award running out soon."""

    award_id: AwardId = Field(description="The award.")
    learner_name: PersonName = Field(description="Learner.")
    learner_email: Email = Field(description="Learner's e-mail.")
    manager_email: Email | None = Field(description="Learner's manager.")
    certification: Title = Field(description="Certification.")
    expires_on: Date = Field(description="Expiry date.")
    renewal_course_id: CourseId | None = Field(description="Course that renews it.")


@service.tool(intent="list certifications about to expire")
def expiring_certifications(ctx: Ctx, within_days: Annotated[int, Field(ge=1, le=365)] = 30) -> list[ExpiringAward]:
    """List active certification awards that expire within the given number of days, soonest first.

    Args:
        within_days: Look-ahead in days.
    """
    today = ctx.today()
    horizon = today + dt.timedelta(days=within_days)
    out = []
    for w in ctx.where(CertificationAward, status="active"):
        if w.expires_on <= horizon:
            learner = ctx.get(Learner, w.learner_id)
            cert = ctx.get(Certification, w.certification_id)
            out.append(
                ExpiringAward(
                    award_id=w.id,
                    learner_name=learner.name,
                    learner_email=learner.email,
                    manager_email=learner.manager_email,
                    certification=cert.name,
                    expires_on=w.expires_on,
                    renewal_course_id=cert.renewal_course_id,
                )
            )
    out.sort(key=lambda e: (e.expires_on, e.award_id))
    return out


# -- seed -----------------------------------------------------------------------------------

COURSES: tuple[tuple[str, Format, int, str | None, float | None, CourseStatus], ...] = (
    # title, format, minutes, provider (None: the home company), passing score, status
    ("Information Security Awareness", "e_learning", 30, "SecureMind Learning", 80.0, "published"),
    ("Respect at Work", "e_learning", 45, None, 75.0, "published"),
    ("Data Protection Essentials", "e_learning", 40, "SecureMind Learning", 80.0, "published"),
    ("Forklift Safety", "instructor_led", 240, "SafeSite Training", 85.0, "published"),
    ("First Aid Basics", "instructor_led", 180, "SafeSite Training", None, "published"),
    ("Forklift Safety Refresher", "instructor_led", 90, "SafeSite Training", 85.0, "published"),
    ("Running Effective One-on-Ones", "webinar", 60, None, None, "published"),
    ("Giving Feedback", "webinar", 60, None, None, "published"),
    ("Sales Fundamentals", "e_learning", 120, None, 70.0, "published"),
    ("Advanced Negotiation", "instructor_led", 360, "Northbridge Sales Academy", 75.0, "published"),
    ("Python for Analysts", "e_learning", 300, "CodeCraft Online", None, "draft"),
    ("Legacy Code of Conduct", "document", 20, None, None, "retired"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The catalog, paths and certifications, the home staff, compliance assignments and awards."""
    courses = _seed_courses(s)
    certs = _seed_certifications(s, courses)
    paths = _seed_paths(s, courses, certs)
    chart = org_chart(s.population.employees)
    learners = _seed_learners(s, chart)
    people_head = chart.heads.get("People", chart.top)
    for i, (p, learner) in enumerate(zip(s.population.employees, learners, strict=True)):
        if not learner.active:
            continue
        _seed_compliance(s, i, learner, courses, paths.compliance, certs.compliance, people_head.email)
        if learner.department == "Operations":
            _seed_warehouse_safety(s, i, learner, courses, paths.warehouse, certs.forklift, chart.heads["Operations"])
        if is_lead(p) and learner.manager_email:
            _seed_manager_essentials(s, i, learner, courses, paths.managers, learner.manager_email)
        if learner.department == "Sales":
            _seed_assignment(
                s,
                learner,
                courses["Sales Fundamentals"],
                None,
                s.now.date() - dt.timedelta(days=60),
                "completed" if i % 2 else "in_progress",
                learner.manager_email or people_head.email,
                78.0,
            )


@dataclass(frozen=True, slots=True)
class _Certs:
    """The certifications staff are awarded."""

    compliance: Certification
    forklift: Certification


@dataclass(frozen=True, slots=True)
class _Paths:
    """The learning paths staff are assigned."""

    compliance: LearningPath
    managers: LearningPath
    warehouse: LearningPath


def _seed_courses(s: SeedContext) -> dict[str, Course]:
    """The course catalog, by title; Advanced Negotiation needs Sales Fundamentals first."""
    home = s.population.home.name
    courses: dict[str, Course] = {}
    for title, fmt, minutes, provider, passing, status in COURSES:
        courses[title] = s.create(
            Course,
            title=title,
            format=fmt,
            duration_minutes=minutes,
            provider=provider or home,
            passing_score=passing,
            status=status,
        )
    courses["Advanced Negotiation"] = s.update(
        courses["Advanced Negotiation"], prerequisite_id=courses["Sales Fundamentals"].id
    )
    return courses


def _seed_certifications(s: SeedContext, courses: dict[str, Course]) -> _Certs:
    """The yearly compliance certification and the two-year forklift licence."""
    return _Certs(
        compliance=s.create(
            Certification,
            name="Annual Compliance Certified",
            validity_months=12,
            renewal_course_id=courses["Information Security Awareness"].id,
        ),
        forklift=s.create(
            Certification,
            name="Forklift Operator",
            validity_months=24,
            renewal_course_id=courses["Forklift Safety Refresher"].id,
        ),
    )


def _seed_paths(s: SeedContext, courses: dict[str, Course], certs: _Certs) -> _Paths:
    """The compliance, manager, warehouse safety and sales paths; return those assigned to staff."""
    compliance = s.create(
        LearningPath,
        name="New Hire Compliance",
        course_ids=[
            courses[t].id for t in ("Information Security Awareness", "Respect at Work", "Data Protection Essentials")
        ],
        certification_id=certs.compliance.id,
    )
    managers = s.create(
        LearningPath,
        name="Manager Essentials",
        course_ids=[courses["Running Effective One-on-Ones"].id, courses["Giving Feedback"].id],
    )
    warehouse = s.create(
        LearningPath,
        name="Warehouse Safety",
        course_ids=[courses["First Aid Basics"].id, courses["Forklift Safety"].id],
        sequential=True,
        certification_id=certs.forklift.id,
    )
    s.create(
        LearningPath,
        name="Sales Excellence",
        course_ids=[courses["Sales Fundamentals"].id, courses["Advanced Negotiation"].id],
        sequential=True,
    )
    return _Paths(compliance=compliance, managers=managers, warehouse=warehouse)


def _seed_learners(s: SeedContext, chart: OrgChart) -> list[Learner]:
    """Every employee with their manager, in population order."""
    learners: list[Learner] = []
    for i, p in enumerate(s.population.employees):
        manager = chart.manager_of(p)
        learners.append(
            s.create(
                Learner,
                name=p.name,
                email=p.email,
                department=department_of(p),
                job_title=p.job_title,
                manager_email=manager.email if manager else None,
                active=i % 17 != 16,
            )
        )
    return learners


def _seed_assignment(
    s: SeedContext,
    learner: Learner,
    course: Course,
    path: LearningPath | None,
    due: dt.date,
    status: AssignmentStatus,
    by: str,
    score: float | None = None,
) -> None:
    """A course assigned 30 days before it is due; a completed graded course keeps ``score``."""
    done = status == "completed"
    created = utc_at(due - dt.timedelta(days=30), 9)
    s.create(
        Assignment,
        learner_id=learner.id,
        course_id=course.id,
        path_id=path.id if path else None,
        assigned_by=by,
        due_date=due,
        status=status,
        progress=100 if done else 40.0 if status == "in_progress" else 0,
        attempts=1 if done and course.passing_score else 0,
        score=score if done and course.passing_score else None,
        completed_on=min(due - dt.timedelta(days=s.rng.randint(0, 20)), s.now.date()) if done else None,
        created_at=min(created, s.ago(days=1)),
        updated_at=min(created + dt.timedelta(days=10), s.ago(hours=1)),
    )


def _seed_compliance(
    s: SeedContext,
    i: int,
    learner: Learner,
    courses: dict[str, Course],
    path: LearningPath,
    cert: Certification,
    by: str,
) -> None:
    """The yearly compliance path: most finished it (and hold the certification), some are in progress or overdue."""
    today = s.now.date()
    cycle = i % 6
    due = today - dt.timedelta(days=60 + 10 * (i % 30)) if cycle < 4 else today + dt.timedelta(days=10 + i % 20)
    if cycle == 5:
        due = today - dt.timedelta(days=5 + i % 10)  # overdue
    statuses: list[AssignmentStatus]
    if cycle < 4:
        statuses = ["completed"] * 3
    elif cycle == 4:
        statuses = ["completed", "in_progress", "not_started"]
    else:
        statuses = ["completed", "not_started", "not_started"]
    by_id = {c.id: c for c in courses.values()}
    for cid, st in zip(path.course_ids, statuses, strict=True):
        _seed_assignment(s, learner, by_id[cid], path, due, st, by, score=float(s.rng.choice((82, 88, 91, 95, 100))))
    if any(st != "completed" for st in statuses):
        return
    issued = due - dt.timedelta(days=20)
    if i % 13 == 12:  # some awards lapsed a while ago and were never renewed
        issued = issued - dt.timedelta(days=365)
    expires = add_months(issued, 12)
    s.create(
        CertificationAward,
        learner_id=learner.id,
        certification_id=cert.id,
        issued_on=issued,
        expires_on=expires,
        status="active" if expires >= today else "expired",
    )


def _seed_warehouse_safety(
    s: SeedContext,
    i: int,
    learner: Learner,
    courses: dict[str, Course],
    path: LearningPath,
    cert: Certification,
    head: Person,
) -> None:
    """Operations staff take first aid, then forklift safety; two in three passed it and hold a forklift licence."""
    today = s.now.date()
    st_a: AssignmentStatus = "completed"
    st_b: AssignmentStatus = "completed" if i % 3 else "not_started"
    due = today - dt.timedelta(days=300) if st_b == "completed" else today + dt.timedelta(days=25)
    _seed_assignment(s, learner, courses["First Aid Basics"], path, due, st_a, head.email)
    _seed_assignment(s, learner, courses["Forklift Safety"], path, due, st_b, head.email, 90.0)
    if st_b != "completed":
        return
    issued = due - dt.timedelta(days=10) - dt.timedelta(days=365)
    expires = add_months(issued, 24)
    s.create(
        CertificationAward,
        learner_id=learner.id,
        certification_id=cert.id,
        issued_on=issued,
        renewed_on=None,
        expires_on=expires,
        status="active" if expires >= today else "expired",
    )


def _seed_manager_essentials(
    s: SeedContext, i: int, learner: Learner, courses: dict[str, Course], path: LearningPath, manager_email: str
) -> None:
    """A lead's manager path, assigned by their manager; half have started."""
    due = s.now.date() + dt.timedelta(days=20 + i % 15)
    _seed_assignment(
        s,
        learner,
        courses["Running Effective One-on-Ones"],
        path,
        due,
        "completed" if i % 2 else "in_progress",
        manager_email,
    )
    _seed_assignment(s, learner, courses["Giving Feedback"], path, due, "not_started", manager_email)
