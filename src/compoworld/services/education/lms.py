"""Quadrant Learn: courses, sections, enrollments, weighted assignment groups, submissions, grading and late policy.

Modeled on the Canvas LMS REST API (Courses with workflow_state, Sections,
Enrollments, Assignment Groups with weights, Assignments, Submissions with
late/missing flags, the course Late Policy, Enrollment grades): only active
students of a published course submit, to a published assignment, before its
lock date, in the assignment's submission type and within its allowed
attempts; a late submission loses the late policy's percent per day late down
to the policy's floor; only the course's teachers and TAs grade; the missing
policy scores unsubmitted work past its due date; a section has a capacity;
assignment group weights add up to at most 100; a concluded course is read-only.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    Percent,
    PersonName,
    Quantity,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "lms",
    title="Quadrant Learn",
    category="education",
    modeled_on="Canvas LMS REST API (Courses, Sections, Enrollments, Assignment Groups, Assignments, Submissions, "
    "Late Policy, enrollment grades)",
    description="A learning management system for a continuing-education school: courses with sections and "
    "enrollments, weighted assignment groups, assignments with due and lock dates, student submissions, "
    "grading with an automatic late and missing policy, and computed course grades.",
)

UserId = Annotated[str, IdOf("lms.user")]
CourseId = Annotated[str, IdOf("lms.course")]
SectionId = Annotated[str, IdOf("lms.section")]
EnrollmentId = Annotated[str, IdOf("lms.enrollment")]
GroupId = Annotated[str, IdOf("lms.assignment_group")]
AssignmentId = Annotated[str, IdOf("lms.assignment")]
SubmissionId = Annotated[str, IdOf("lms.submission")]
CourseCode = Annotated[str, StringConstraints(min_length=2, max_length=24, strip_whitespace=True)]
Points = Annotated[float, Field(ge=0, le=1000)]
CourseState = Literal["unpublished", "available", "completed"]
EnrollmentType = Literal["student", "teacher", "ta"]
EnrollmentState = Literal["active", "invited", "inactive", "completed"]
SubmissionType = Literal["online_text_entry", "online_url", "online_upload", "on_paper", "none"]
SubmissionState = Literal["unsubmitted", "submitted", "graded"]
STAFF: tuple[str, ...] = ("teacher", "ta")


class User(Created):
    """A person with a login: a student, teacher or teaching assistant."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Login e-mail; unique."""


class Course(Record):
    """A course offered in a term, with its late policy."""

    id: CourseId
    name: Title
    """Course name."""
    course_code: CourseCode
    """Course code, e.g. CS101; unique."""
    term: Text = ""
    """Term name, e.g. Spring 2026."""
    start_date: Date
    """First day of the course."""
    end_date: Date
    """Last day of the course."""
    workflow_state: CourseState = "unpublished"
    """unpublished (invisible to students), available or completed (concluded, read-only)."""
    late_deduction_percent: Percent = 10
    """Percent of an assignment's points deducted per day late."""
    late_minimum_percent: Percent = 50
    """A late penalty never takes a score below this percent of the points possible."""
    missing_deduction_percent: Percent = 100
    """Percent of points lost by work marked missing (100 gives zero)."""


class Section(Record):
    """A group of students in a course, with a capacity."""

    id: SectionId
    course_id: CourseId
    """The course."""
    name: Title
    """Section name, e.g. Section A (evenings)."""
    capacity: Quantity = 30
    """Most active students."""


class Enrollment(Record):
    """A user's place in a course section as student, teacher or TA."""

    id: EnrollmentId
    course_id: CourseId
    """The course."""
    section_id: SectionId
    """The section."""
    user_id: UserId
    """The user."""
    type: EnrollmentType = "student"
    """student, teacher or ta."""
    state: EnrollmentState = "active"
    """active, invited, inactive (dropped) or completed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class AssignmentGroup(Record):
    """A weighted category of assignments (homework, quizzes, final project)."""

    id: GroupId
    course_id: CourseId
    """The course."""
    name: Title
    """Group name."""
    weight: Percent
    """Share of the course grade; a course's weights add up to at most 100."""


class Assignment(Record):
    """Work students hand in and get graded on."""

    id: AssignmentId
    course_id: CourseId
    """The course."""
    group_id: GroupId
    """The assignment group it counts in."""
    name: Title
    """Assignment name."""
    points_possible: Points
    """Points a perfect submission earns."""
    submission_type: SubmissionType = "online_text_entry"
    """How students submit: online_text_entry, online_url, online_upload, on_paper or none."""
    due_at: DateTime | None = None
    """When it is due; later submissions are late."""
    lock_at: DateTime | None = None
    """After this, no more submissions."""
    allowed_attempts: Annotated[int, Field(ge=1, le=20)] | None = None
    """Most submissions per student; null for unlimited."""
    published: bool = False
    """Whether students see it and can submit."""


class Submission(Record):
    """A student's work on an assignment and its grade."""

    id: SubmissionId
    assignment_id: AssignmentId
    """The assignment."""
    user_id: UserId
    """The student."""
    workflow_state: SubmissionState = "unsubmitted"
    """unsubmitted, submitted (awaiting grading) or graded."""
    attempt: Quantity = 0
    """Number of submissions made."""
    body: Text | None = None
    """Text of an online text entry."""
    url: Url | None = None
    """Link of an online URL submission."""
    attachment: FileLink | None = None
    """Uploaded file of an online upload."""
    submitted_at: DateTime | None = None
    """When it was last submitted."""
    late: bool = False
    """Whether it was submitted after the due date."""
    seconds_late: Quantity = 0
    """How late it was."""
    missing: bool = False
    """Whether the missing policy scored it."""
    raw_score: Points | None = None
    """Score the grader gave, before any penalty."""
    points_deducted: Points = 0
    """Points taken off by the late or missing policy."""
    score: Points | None = None
    """Final score."""
    grader_email: Email | None = None
    """Who graded it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ----------------------------------------------------------------------------------


def _open_course(ctx: Ctx, course_id: str, field: str) -> Course:
    course = ctx.get(Course, course_id, field=field)
    if course.workflow_state == "completed":
        raise RuleViolation(
            f"course {course.course_code} is concluded and read-only",
            field=field,
            hint="concluded courses cannot change; work in a current course",
        )
    return course


def _late_score(course: Course, points: float, raw: float, seconds_late: int) -> float:
    if seconds_late <= 0:
        return raw
    days = math.ceil(seconds_late / 86400)
    deducted = points * course.late_deduction_percent / 100 * days
    floor = points * course.late_minimum_percent / 100
    return round(max(raw - deducted, min(raw, floor)), 2)


def _guard_course(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.workflow_state == "completed":
        raise RuleViolation(
            f"course {old.course_code} is concluded and read-only",
            field="course_id",
            hint="concluded courses cannot change",
        )
    if new.end_date < new.start_date:
        raise RuleViolation("the course ends before it starts", field="end_date", hint="swap the dates")
    if any(c.id != new.id and c.course_code == new.course_code for c in ctx.scan(Course)):
        raise Conflict(f"course code {new.course_code} is taken", field="course_code", hint="pick another code")
    publishing = old is not None and old.workflow_state == "unpublished" and new.workflow_state == "available"
    if publishing and not ctx.where(Enrollment, course_id=new.id, type="teacher", state="active"):
        raise RuleViolation(
            f"course {new.course_code} has no active teacher",
            field="course_id",
            hint="enroll a teacher with lms__enroll_user before publishing",
        )


def _guard_section(ctx: Ctx, new: Any, old: Any) -> None:
    _open_course(ctx, new.course_id, "course_id")


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    _open_course(ctx, new.course_id, "course_id")
    total = sum(g.weight for g in ctx.where(AssignmentGroup, course_id=new.course_id))
    if total > 100:
        raise RuleViolation(
            f"the course's group weights would add up to {total:g}%",
            field="weight",
            hint="keep the weights of a course's assignment groups at 100% or less",
        )


def _guard_assignment(ctx: Ctx, new: Any, old: Any) -> None:
    _open_course(ctx, new.course_id, "course_id" if old is None else "assignment_id")
    group = ctx.get(AssignmentGroup, new.group_id, field="group_id")
    if group.course_id != new.course_id:
        raise RuleViolation(
            "the assignment group belongs to another course",
            field="group_id",
            hint="pick one of the course's assignment groups",
        )
    if new.due_at and new.lock_at and new.lock_at < new.due_at:
        raise RuleViolation("the lock date is before the due date", field="lock_at", hint="lock it after it is due")
    rescaled = old is not None and new.points_possible != old.points_possible
    if rescaled and ctx.first(Submission, assignment_id=old.id, workflow_state="graded") is not None:
        raise RuleViolation(
            "points possible cannot change once submissions are graded",
            field="points_possible",
            hint="create a new assignment instead",
        )


def _guard_enrollment(ctx: Ctx, new: Any, old: Any) -> None:
    _open_course(ctx, new.course_id, "enrollment_id")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="u",
    create=("name", "email"),
    filters=("email",),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
courses = service.resource(
    Course,
    name="course",
    plural="courses",
    prefix="crs",
    create=(
        "name",
        "course_code",
        "term",
        "start_date",
        "end_date",
        "late_deduction_percent",
        "late_minimum_percent",
        "missing_deduction_percent",
    ),
    filters=("workflow_state", "term", "course_code"),
    search=("name", "course_code"),
    update=("name", "end_date", "late_deduction_percent", "late_minimum_percent", "missing_deduction_percent"),
    delete=False,
    transitions={
        "publish": Transition("workflow_state", ("unpublished",), "available", "publish the course"),
        "conclude": Transition("workflow_state", ("available",), "completed", "conclude the course", destructive=True),
    },
    guard_create=_guard_course,
    guard_update=_guard_course,
)
sections = service.resource(
    Section,
    name="section",
    plural="sections",
    prefix="sec",
    get=False,
    filters=("course_id",),
    delete=False,
    guard_create=_guard_section,
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="enr",
    create=False,
    get=False,
    filters=("course_id", "section_id", "user_id", "type", "state"),
    delete=False,
    transitions={
        "drop": Transition("state", ("active", "invited"), "inactive", "drop the enrollment"),
    },
    guard_update=_guard_enrollment,
)
groups = service.resource(
    AssignmentGroup,
    name="assignment_group",
    plural="assignment_groups",
    prefix="ag",
    get=False,
    filters=("course_id",),
    delete=False,
    guard_create=_guard_group,
)
assignments = service.resource(
    Assignment,
    name="assignment",
    plural="assignments",
    prefix="asg",
    create=(
        "course_id",
        "group_id",
        "name",
        "points_possible",
        "submission_type",
        "due_at",
        "lock_at",
        "allowed_attempts",
        "published",
    ),
    filters=("course_id", "group_id", "published", "submission_type"),
    search=("name",),
    update=("name", "points_possible", "due_at", "lock_at", "allowed_attempts", "published"),
    delete=False,
    guard_create=_guard_assignment,
    guard_update=_guard_assignment,
)
submissions = service.resource(
    Submission,
    name="submission",
    plural="submissions",
    prefix="sub",
    create=False,
    get=False,
    filters=("assignment_id", "user_id", "workflow_state", "late", "missing"),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _student_of(ctx: Ctx, course_id: str) -> Enrollment | None:
    return ctx.first(Enrollment, course_id=course_id, type="student", state="active")


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    for course in ctx.where(Course, workflow_state="available"):
        for sec in ctx.where(Section, course_id=course.id):
            taken = len([e for e in ctx.where(Enrollment, section_id=sec.id, type="student") if e.state == "active"])
            if taken >= sec.capacity:
                continue
            inside = {e.user_id for e in ctx.where(Enrollment, course_id=course.id)}
            for user in ctx.scan(User):
                if user.id not in inside:
                    return {"section_id": sec.id, "user_id": user.id, "type": "student"}
    return None


def _submittable(ctx: Ctx) -> tuple[Assignment, Enrollment] | None:
    now = ctx.now()
    for course in ctx.where(Course, workflow_state="available"):
        for a in ctx.where(Assignment, course_id=course.id, published=True):
            if a.submission_type != "online_text_entry" or (a.lock_at and a.lock_at < now):
                continue
            for e in ctx.where(Enrollment, course_id=course.id, type="student", state="active"):
                sub = ctx.first(Submission, assignment_id=a.id, user_id=e.user_id)
                if sub is None or sub.workflow_state != "graded":
                    return a, e
    return None


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    found = _submittable(ctx)
    if found is None:
        return None
    return {"assignment_id": found[0].id, "user_id": found[1].user_id, "body": "My answer to the exercise."}


def _grader_for(ctx: Ctx, course_id: str) -> User | None:
    e = ctx.first(Enrollment, course_id=course_id, type="teacher", state="active")
    return None if e is None else ctx.get(User, e.user_id)


def _example_grade(ctx: Ctx) -> dict[str, Any] | None:
    for sub in ctx.where(Submission, workflow_state="submitted"):
        a = ctx.get(Assignment, sub.assignment_id)
        course = ctx.get(Course, a.course_id)
        grader = _grader_for(ctx, course.id)
        if grader and course.workflow_state == "available":
            return {"submission_id": sub.id, "score": a.points_possible * 0.8, "grader_email": grader.email}
    return None


# -- domain tools ---------------------------------------------------------------------------


@service.tool(intent="enroll the user in the course section", write=True, example=_example_enroll)
def enroll_user(ctx: Ctx, section_id: SectionId, user_id: UserId, type: EnrollmentType = "student") -> Enrollment:
    """Enroll a user in a section of a course as student, teacher or TA.

    Students need a free seat in the section; a user is enrolled once per
    course (a dropped student is re-activated); concluded courses take no one.

    Args:
        section_id: The section.
        user_id: The user.
        type: student, teacher or ta.
    """
    sec = ctx.get(Section, section_id, field="section_id")
    user = ctx.get(User, user_id, field="user_id")
    course = _open_course(ctx, sec.course_id, "section_id")
    existing = ctx.first(Enrollment, course_id=course.id, user_id=user.id)
    if existing is not None and existing.state != "inactive":
        raise Conflict(
            f"{user.name} is already enrolled in {course.course_code} as {existing.type}",
            field="user_id",
            hint="drop the enrollment first to move them to another section",
        )
    if type == "student":
        taken = [e for e in ctx.where(Enrollment, section_id=sec.id, type="student") if e.state == "active"]
        if len(taken) >= sec.capacity:
            raise RuleViolation(
                f"section {sec.name} is full ({sec.capacity} students)",
                field="section_id",
                hint="pick another section of the course (lms__list_sections)",
            )
    if existing is not None:
        return ctx.update(existing, section_id=sec.id, type=type, state="active")
    return ctx.create(Enrollment, course_id=course.id, section_id=sec.id, user_id=user.id, type=type)


@service.tool(intent="submit the assignment", write=True, example=_example_submit)
def submit_assignment(
    ctx: Ctx,
    assignment_id: AssignmentId,
    user_id: UserId,
    body: Text | None = None,
    url: Url | None = None,
    attachment: FileLink | None = None,
) -> Submission:
    """Hand in an assignment as a student, in the assignment's submission type.

    online_text_entry takes a body, online_url a url, online_upload an
    attachment. A submission after the due date is marked late; none is
    accepted after the lock date or beyond the allowed attempts.

    Args:
        assignment_id: The assignment.
        user_id: The student.
        body: Text of an online text entry.
        url: Link of an online URL submission.
        attachment: File link of an online upload.
    """
    a = ctx.get(Assignment, assignment_id, field="assignment_id")
    user = ctx.get(User, user_id, field="user_id")
    course = _open_course(ctx, a.course_id, "assignment_id")
    if course.workflow_state != "available" or not a.published:
        raise RuleViolation(
            "the assignment is not published", field="assignment_id", hint="students only see published work"
        )
    if ctx.first(Enrollment, course_id=course.id, user_id=user.id, type="student", state="active") is None:
        raise RuleViolation(
            f"{user.name} is not an active student of {course.course_code}",
            field="user_id",
            hint="enroll them with lms__enroll_user",
        )
    now = ctx.now()
    if a.lock_at is not None and now > a.lock_at:
        raise RuleViolation(
            f"the assignment locked at {a.lock_at.isoformat()}",
            field="assignment_id",
            hint="ask the teacher to extend lock_at",
        )
    given = {"online_text_entry": body, "online_url": url, "online_upload": attachment}
    if a.submission_type not in given:
        raise RuleViolation(
            f"the assignment is handed in {a.submission_type.replace('_', ' ')}, not online",
            field="assignment_id",
            hint="nothing to submit online",
        )
    field = {"online_text_entry": "body", "online_url": "url", "online_upload": "attachment"}[a.submission_type]
    value = given[a.submission_type]
    if value is None or (isinstance(value, str) and not value.strip()):
        raise RuleViolation(
            f"a {a.submission_type.replace('_', ' ')} submission needs {field}",
            field=field,
            hint=f"pass {field}",
        )
    sub = ctx.first(Submission, assignment_id=a.id, user_id=user.id)
    if sub is not None and sub.workflow_state == "graded":
        raise RuleViolation(
            "the submission is already graded", field="assignment_id", hint="ask the teacher to re-open it"
        )
    attempts = sub.attempt if sub else 0
    if a.allowed_attempts is not None and attempts >= a.allowed_attempts:
        raise RuleViolation(
            f"all {a.allowed_attempts} allowed attempts are used",
            field="assignment_id",
            hint="ask the teacher for another attempt",
        )
    late = max(0, int((now - a.due_at).total_seconds())) if a.due_at else 0
    values = {
        "workflow_state": "submitted",
        "attempt": attempts + 1,
        "body": body,
        "url": url,
        "attachment": attachment,
        "submitted_at": now,
        "late": late > 0,
        "seconds_late": late,
        "missing": False,
    }
    if sub is None:
        return ctx.create(Submission, assignment_id=a.id, user_id=user.id, **values)
    return ctx.update(sub, **values)


@service.tool(intent="grade the submission", write=True, example=_example_grade)
def grade_submission(ctx: Ctx, submission_id: SubmissionId, score: Points, grader_email: Email) -> Submission:
    """Grade a submission; a late one loses the course's late percent per day late, down to its floor.

    Only the course's active teachers and TAs grade, and a score may not
    exceed the assignment's points.

    Args:
        submission_id: The submission.
        score: Points given, before any late penalty.
        grader_email: E-mail of the teacher or TA grading.
    """
    sub = ctx.get(Submission, submission_id, field="submission_id")
    a = ctx.get(Assignment, sub.assignment_id)
    course = _open_course(ctx, a.course_id, "submission_id")
    grader = ctx.first(User, email=grader_email)
    staff = (
        None
        if grader is None
        else next(
            (
                e
                for e in ctx.where(Enrollment, course_id=course.id, user_id=grader.id, state="active")
                if e.type in STAFF
            ),
            None,
        )
    )
    if staff is None:
        raise RuleViolation(
            f"{grader_email} does not teach {course.course_code}",
            field="grader_email",
            hint="grade as one of the course's teachers or TAs",
        )
    if sub.workflow_state == "unsubmitted" and not sub.missing:
        raise RuleViolation(
            "nothing was submitted", field="submission_id", hint="grade submitted work, or apply the missing policy"
        )
    if score > a.points_possible:
        raise RuleViolation(
            f"the assignment is worth {a.points_possible:g} points",
            field="score",
            hint=f"give at most {a.points_possible:g}",
        )
    final = _late_score(course, a.points_possible, score, sub.seconds_late) if sub.late else score
    return ctx.update(
        sub,
        workflow_state="graded",
        raw_score=score,
        points_deducted=round(score - final, 2),
        score=final,
        grader_email=grader_email,
        missing=False,
    )


@service.tool(
    intent="score the missing submissions of the assignment",
    write=True,
    example=first_example(
        Assignment,
        "assignment_id",
        where={"published": True},
        match=lambda ctx, a: (
            a.due_at is not None and a.due_at < ctx.now() and ctx.get(Course, a.course_id).workflow_state == "available"
        ),
    ),
)
def apply_missing_policy(ctx: Ctx, assignment_id: AssignmentId) -> list[Submission]:
    """Mark every active student's unsubmitted work on a past-due assignment as missing and score it.

    The score is the points possible less the course's missing deduction.
    Returns the submissions marked missing by this call.

    Args:
        assignment_id: The assignment.
    """
    a = ctx.get(Assignment, assignment_id, field="assignment_id")
    course = _open_course(ctx, a.course_id, "assignment_id")
    if a.due_at is None or a.due_at >= ctx.now():
        raise RuleViolation(
            "the assignment is not past due", field="assignment_id", hint="apply the policy after the due date"
        )
    if a.submission_type in ("on_paper", "none"):
        raise RuleViolation(
            "the assignment is not handed in online",
            field="assignment_id",
            hint="grade on-paper work directly",
        )
    score = round(a.points_possible * (100 - course.missing_deduction_percent) / 100, 2)
    out = []
    for e in ctx.where(Enrollment, course_id=course.id, type="student", state="active"):
        sub = ctx.first(Submission, assignment_id=a.id, user_id=e.user_id)
        values = {
            "workflow_state": "graded",
            "missing": True,
            "score": score,
            "raw_score": None,
            "points_deducted": round(a.points_possible - score, 2),
        }
        if sub is None:
            out.append(ctx.create(Submission, assignment_id=a.id, user_id=e.user_id, **values))
        elif sub.workflow_state == "unsubmitted" and not sub.missing:
            out.append(ctx.update(sub, **values))
    return out


class StudentGrade(BaseModel):
    """One student's current grade in a course."""

    user_id: UserId = Field(description="The student.")
    name: PersonName = Field(description="Student name.")
    email: Email = Field(description="Student e-mail.")
    current_score: float | None = Field(description="Weighted percent over graded work; null before any grade.")
    letter_grade: Literal["A", "B", "C", "D", "F"] | None = Field(description="Letter for the current score.")
    graded: int = Field(description="Graded submissions counted.")
    missing: int = Field(description="Submissions marked missing.")


class CourseGrades(BaseModel):
    """The gradebook of a course."""

    course_id: CourseId = Field(description="The course.")
    course_code: CourseCode = Field(description="Course code.")
    students: list[StudentGrade] = Field(description="Active and completed students.")


def _letter(score: float | None) -> Literal["A", "B", "C", "D", "F"] | None:
    if score is None:
        return None
    for cut, letter in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if score >= cut:
            return letter  # type: ignore[return-value]
    return "F"


@service.tool(
    intent="compute the course's grades",
    example=first_example(Course, "course_id", where={"workflow_state": "available"}),
)
def course_grades(ctx: Ctx, course_id: CourseId) -> CourseGrades:
    """Compute each student's weighted current score from their graded work.

    Per assignment group, points earned over points possible of graded work,
    weighted by the weights of the groups that have grades.

    Args:
        course_id: The course.
    """
    course = ctx.get(Course, course_id, field="course_id")
    groups = {g.id: g for g in ctx.where(AssignmentGroup, course_id=course.id)}
    work = ctx.where(Assignment, course_id=course.id)
    rows = []
    for e in ctx.where(Enrollment, course_id=course.id, type="student"):
        if e.state not in ("active", "completed"):
            continue
        user = ctx.get(User, e.user_id)
        per_group: dict[str, list[float]] = {}
        graded = missing = 0
        for a in work:
            sub = ctx.first(Submission, assignment_id=a.id, user_id=user.id)
            if sub is None or sub.workflow_state != "graded" or sub.score is None:
                continue
            earned, possible = per_group.setdefault(a.group_id, [0.0, 0.0])
            per_group[a.group_id] = [earned + sub.score, possible + a.points_possible]
            graded += 1
            missing += sub.missing
        weighted = [(groups[g].weight, e_ / p) for g, (e_, p) in per_group.items() if p > 0 and g in groups]
        total_weight = sum(w for w, _ in weighted)
        if weighted and total_weight > 0:
            score: float | None = round(100 * sum(w * r for w, r in weighted) / total_weight, 2)
        elif weighted:
            score = round(100 * sum(r for _, r in weighted) / len(weighted), 2)
        else:
            score = None
        rows.append(
            StudentGrade(
                user_id=user.id,
                name=user.name,
                email=user.email,
                current_score=score,
                letter_grade=_letter(score),
                graded=graded,
                missing=missing,
            )
        )
    return CourseGrades(course_id=course.id, course_code=course.course_code, students=rows)


# -- seed -----------------------------------------------------------------------------------

COURSES = (
    ("Introduction to Python", "CS101", "available", ("Engineering",)),
    ("Data Analysis with SQL", "DA201", "available", ("Engineering", "Finance")),
    ("Digital Marketing Fundamentals", "MK110", "available", ("Marketing",)),
    ("Project Management Essentials", "PM150", "completed", ("Operations",)),
    ("Applied Machine Learning", "ML301", "unpublished", ("Engineering",)),
)
GROUPS = (("Homework", 40.0), ("Quizzes", 20.0), ("Final project", 40.0))
WORK: tuple[tuple[str, int, SubmissionType, int, float], ...] = (
    # name, group index, submission type, days due from now, points
    ("Week 1 exercises", 0, "online_text_entry", -40, 10.0),
    ("Week 3 exercises", 0, "online_upload", -20, 10.0),
    ("Quiz 1", 1, "online_text_entry", -25, 20.0),
    ("Week 6 exercises", 0, "online_url", -3, 10.0),
    ("Quiz 2", 1, "online_text_entry", 6, 20.0),
    ("Final project", 2, "online_upload", 45, 100.0),
    ("In-class presentation", 2, "on_paper", 30, 50.0),
)


def _seed_users(s: SeedContext) -> dict[str, User]:
    """One account per person among the staff, consumers and twenty contacts; by e-mail."""
    pop = s.population
    learners = list(pop.consumers) + list(pop.contacts[:20])
    user_of: dict[str, User] = {}
    for p in list(pop.employees) + learners:
        if p.email not in user_of:
            user_of[p.email] = s.create(User, name=p.name, email=p.email, created_at=s.ago(days=200 + len(user_of)))
    return user_of


def _seed_roster(
    s: SeedContext, c: int, course: Course, depts: tuple[str, ...], user_of: dict[str, User]
) -> tuple[Person, list[User]]:
    """The c-th course's sections, teacher, TA and students (some dropped); returns the teacher and active students."""
    pop = s.population
    staff = list(pop.employees)
    learners = list(pop.consumers) + list(pop.contacts[:20])
    state = course.workflow_state
    done = state == "completed"
    secs = [
        s.create(Section, course_id=course.id, name=f"Section {chr(65 + k)}", capacity=(12, 10)[k])
        for k in range(2 if c < 3 else 1)
    ]
    teachers = [p for p in staff if p.department in depts]
    teacher = teachers[c % len(teachers)]
    s.create(
        Enrollment,
        course_id=course.id,
        section_id=secs[0].id,
        user_id=user_of[teacher.email].id,
        type="teacher",
        state="completed" if done else "active",
    )
    ta = teachers[(c + 1) % len(teachers)]
    if ta.key != teacher.key and c < 3:
        s.create(
            Enrollment,
            course_id=course.id,
            section_id=secs[-1].id,
            user_id=user_of[ta.email].id,
            type="ta",
            state="active",
        )
    students: list[User] = []
    n = 0 if state == "unpublished" else (len(secs) * 10 - 1 if c == 0 else 14)
    for k in range(n):
        p = learners[(c * 7 + k * 3) % len(learners)]
        u = user_of[p.email]
        if u in students:
            continue
        sec = secs[k % len(secs)] if c != 0 else secs[0 if k < secs[0].capacity else 1]
        drop = k % 11 == 10
        s.create(
            Enrollment,
            course_id=course.id,
            section_id=sec.id,
            user_id=u.id,
            type="student",
            state="completed" if done else "inactive" if drop else "active",
        )
        if not drop:
            students.append(u)
    return teacher, students


def _seed_submissions(
    s: SeedContext,
    c: int,
    w: int,
    course: Course,
    a: Assignment,
    due: dt.datetime,
    teacher: Person,
    students: list[User],
) -> None:
    """Submissions to an assignment already due: most on time, some late, a few missing or not graded yet."""
    rng = s.rng
    kind = a.submission_type
    points = a.points_possible
    for j, u in enumerate(students):
        fate = (j + w * 3 + c) % 9
        if fate == 8:
            continue  # not handed in; the missing policy has not run
        late_s = 0 if fate < 6 else rng.randint(2, 60) * 3600
        submitted = due - dt.timedelta(hours=rng.randint(1, 48)) if not late_s else due + dt.timedelta(seconds=late_s)
        submitted = min(submitted, s.ago(hours=1))
        late_s = max(0, int((submitted - due).total_seconds()))
        graded = fate != 5 and submitted < s.ago(days=2)
        raw = round(points * rng.choice((0.6, 0.7, 0.8, 0.85, 0.9, 1.0)), 2)
        final = _late_score(course, points, raw, late_s) if graded and late_s else raw
        s.create(
            Submission,
            assignment_id=a.id,
            user_id=u.id,
            workflow_state="graded" if graded else "submitted",
            attempt=1,
            body="See my answers below." if kind == "online_text_entry" else None,
            url=f"https://notebooks.example.com/{u.id}/{a.id}" if kind == "online_url" else None,
            attachment=f"https://files.quadrant-learn.example/{a.id}/{u.id}.pdf" if kind == "online_upload" else None,
            submitted_at=submitted,
            late=late_s > 0,
            seconds_late=late_s,
            raw_score=raw if graded else None,
            points_deducted=round(raw - final, 2) if graded else 0,
            score=final if graded else None,
            grader_email=teacher.email if graded else None,
            updated_at=submitted + dt.timedelta(days=1) if graded else submitted,
        )


def _seed_work(s: SeedContext, c: int, course: Course, teacher: Person, students: list[User]) -> None:
    """The c-th course's assignment groups and assignments, with the submissions to those already due."""
    now = s.now
    state = course.workflow_state
    plan = GROUPS if state != "unpublished" else GROUPS[:2]  # the new course has no final project group yet
    group_recs = [s.create(AssignmentGroup, course_id=course.id, name=g, weight=w) for g, w in plan]
    shift = -130 if state == "completed" else 0
    for w, (aname, gi, kind, due_days, points) in enumerate(WORK):
        if gi >= len(group_recs):
            continue
        due = (now + dt.timedelta(days=due_days + shift)).replace(hour=23, minute=59)
        a = s.create(
            Assignment,
            course_id=course.id,
            group_id=group_recs[gi].id,
            name=aname,
            points_possible=points,
            submission_type=kind,
            due_at=due,
            lock_at=due + dt.timedelta(days=7) if gi != 2 else None,
            allowed_attempts=2 if gi == 1 else None,
            published=state != "unpublished" and due_days < 40,
        )
        if state == "unpublished" or due > now or kind == "on_paper":
            continue
        _seed_submissions(s, c, w, course, a, due, teacher, students)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff as teachers, consumers and contacts as students, courses with sections, graded and late work."""
    today = s.now.date()
    user_of = _seed_users(s)
    for c, (name, code, state, depts) in enumerate(COURSES):
        done = state == "completed"
        start = today - dt.timedelta(days=170 if done else 49)
        course = s.create(
            Course,
            name=name,
            course_code=code,
            term="Fall 2025" if done else "Spring 2026",
            start_date=start,
            end_date=start + dt.timedelta(days=110),
            workflow_state=state,
            late_deduction_percent=(10.0, 5.0, 20.0, 10.0, 10.0)[c],
            late_minimum_percent=(50.0, 60.0, 40.0, 50.0, 50.0)[c],
            missing_deduction_percent=100.0 if c != 1 else 80.0,
        )
        teacher, students = _seed_roster(s, c, course, depts, user_of)
        _seed_work(s, c, course, teacher, students)
