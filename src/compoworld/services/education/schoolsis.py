"""Northfield SIS: a school's students, guardians, teachers, terms, class sections, attendance and report cards.

Modeled on the PowerSchool SIS API (students with student numbers and grade
levels, contacts/guardians with custody and portal flags, terms, sections
taught by a teacher in a period, section enrollments (CC), daily attendance
with codes, stored grades and report cards): a section is taught by one
teacher and held in one room per period and term, neither double-booked; a
student joins sections of their grade level with free seats and no period
clash; attendance is taken for school days of the current term, not in the
future; only a custodial guardian excuses an unexcused absence, within 10
days; only the section's teacher enters grades; a report card is issued once
every section of the term is graded, and then the grades are final; a student
keeps at least one custodial guardian.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at
from compoworld.world.population import FIRST_NAMES

__all__ = ["service"]

service = Service(
    "schoolsis",
    title="Northfield SIS",
    category="education",
    modeled_on="PowerSchool SIS API (students, contacts/guardians, terms, sections, section enrollments, "
    "daily attendance, stored grades and report cards)",
    description="The student information system of Northfield Academy, a high school: students and their "
    "guardians, teachers, terms and class sections by period, class enrollment, daily attendance with "
    "guardian-excused absences, grades and report cards with a GPA.",
)

StudentId = Annotated[str, IdOf("schoolsis.student")]
GuardianId = Annotated[str, IdOf("schoolsis.guardian")]
TeacherId = Annotated[str, IdOf("schoolsis.teacher")]
TermId = Annotated[str, IdOf("schoolsis.term")]
SectionId = Annotated[str, IdOf("schoolsis.section")]
EnrollmentId = Annotated[str, IdOf("schoolsis.section_enrollment")]
AttendanceId = Annotated[str, IdOf("schoolsis.attendance")]
GradeId = Annotated[str, IdOf("schoolsis.stored_grade")]
ReportCardId = Annotated[str, IdOf("schoolsis.report_card")]
GradeLevel = Annotated[int, Field(ge=9, le=12)]
Period = Annotated[int, Field(ge=1, le=7)]
Letter = Literal["A", "B", "C", "D", "F"]
AttendanceCode = Literal["present", "tardy", "absent_excused", "absent_unexcused"]
Relationship = Literal["mother", "father", "guardian", "grandparent", "other"]
EXCUSE_DAYS = 10
POINTS: dict[str, float] = {"A": 4.0, "B": 3.0, "C": 2.0, "D": 1.0, "F": 0.0}


class Student(Record):
    """A student of the school."""

    id: StudentId
    student_number: Annotated[str, Generated("sequence", "S{n:06d}")]
    """School-issued student number."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    birth_date: Date
    """Date of birth."""
    grade_level: GradeLevel
    """Grade (9 to 12)."""
    home_address: PostalAddress
    """Home address."""
    enroll_status: Literal["active", "inactive", "transferred", "graduated"] = "active"
    """Only active students attend, enroll in classes and get grades."""
    entry_date: Date
    """When the student entered the school."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the record last changed."""


class Guardian(Record):
    """A parent or guardian of a student."""

    id: GuardianId
    student_id: StudentId
    """The student."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail for school communication and the parent portal."""
    phone: Phone | None = None
    """Phone number."""
    relationship: Relationship
    """How they are related to the student."""
    custodial: bool = True
    """Whether they have custody (may excuse absences and see grades)."""
    emergency_contact: bool = True
    """Whether to call them in an emergency."""
    receives_mail: bool = True
    """Whether school letters and report cards are sent to them."""


class Teacher(Record):
    """A teacher at the school."""

    id: TeacherId
    name: PersonName
    """Full name."""
    email: Email
    """School e-mail; unique."""
    department: Text = ""
    """Subject department."""


class Term(Record):
    """A grading period of the school year."""

    id: TermId
    name: Title
    """Term name, e.g. 2025-26 Semester 2."""
    start_date: Date
    """First school day."""
    end_date: Date
    """Last school day."""


class Section(Record):
    """A class: one course taught by one teacher in one period and room during a term."""

    id: SectionId
    course_name: Title
    """Course name, e.g. Algebra I."""
    term_id: TermId
    """The term."""
    teacher_id: TeacherId
    """The teacher."""
    period: Period
    """Period of the school day (1 to 7)."""
    room: Text
    """Room number."""
    grade_min: GradeLevel = 9
    """Lowest grade level admitted."""
    grade_max: GradeLevel = 12
    """Highest grade level admitted."""
    capacity: Quantity = 28
    """Most students."""


class SectionEnrollment(Record):
    """A student's place in a section."""

    id: EnrollmentId
    student_id: StudentId
    """The student."""
    section_id: SectionId
    """The section."""
    date_enrolled: Date
    """When they joined."""
    date_left: Date | None = None
    """When they dropped it, if they did."""


class Attendance(Record):
    """A student's attendance on one school day."""

    id: AttendanceId
    student_id: StudentId
    """The student."""
    date: Date
    """The school day."""
    code: AttendanceCode
    """present, tardy, absent_excused or absent_unexcused."""
    comment: Text = ""
    """Note, e.g. the excuse given."""
    excused_by: Email | None = None
    """The guardian who excused the absence."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it was last recorded."""


class StoredGrade(Record):
    """A student's grade in a section for its term."""

    id: GradeId
    student_id: StudentId
    """The student."""
    section_id: SectionId
    """The section."""
    term_id: TermId
    """The term."""
    percent: Percent
    """Score in percent."""
    letter: Letter
    """Letter grade from the percent (A from 90, B from 80, C from 70, D from 60)."""
    comment: Text = ""
    """Teacher's comment."""
    final: bool = False
    """Whether the grade is on an issued report card (then it cannot change)."""
    entered_by: Email
    """The teacher who entered it."""


class ReportCard(Record):
    """A student's issued report card for a term."""

    id: ReportCardId
    student_id: StudentId
    """The student."""
    term_id: TermId
    """The term."""
    gpa: Annotated[float, Field(ge=0, le=4)]
    """Grade point average (A=4 to F=0) over the term's sections."""
    sections: Quantity
    """Sections graded."""
    days_absent: Quantity
    """Days absent in the term."""
    days_tardy: Quantity
    """Days tardy in the term."""
    mailed_to: list[Email] = Field(default_factory=list)
    """Guardians it was sent to."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was issued."""


# -- rules ----------------------------------------------------------------------------------


def _letter(percent: float) -> Letter:
    for cut, letter in ((90, "A"), (80, "B"), (70, "C"), (60, "D")):
        if percent >= cut:
            return letter  # type: ignore[return-value]
    return "F"


def _current_term(ctx: Ctx) -> Term | None:
    today = ctx.today()
    return next((t for t in ctx.scan(Term) if t.start_date <= today <= t.end_date), None)


def _active(ctx: Ctx, student_id: str, field: str) -> Student:
    st = ctx.get(Student, student_id, field=field)
    if st.enroll_status != "active":
        raise RuleViolation(
            f"student {st.student_number} is {st.enroll_status}",
            field=field,
            hint="only active students attend classes",
        )
    return st


def _live(ctx: Ctx, student_id: str, term_id: str) -> list[tuple[SectionEnrollment, Section]]:
    out = []
    for e in ctx.where(SectionEnrollment, student_id=student_id):
        sec = ctx.get(Section, e.section_id)
        if sec.term_id == term_id and e.date_left is None:
            out.append((e, sec))
    return out


def _guard_section(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Teacher, new.teacher_id, field="teacher_id")
    term = ctx.get(Term, new.term_id, field="term_id")
    if term.end_date < ctx.today():
        raise RuleViolation(
            f"term {term.name} is over", field="term_id", hint="add sections to a current or future term"
        )
    if new.grade_min > new.grade_max:
        raise RuleViolation("grade_min is above grade_max", field="grade_max", hint="swap them")
    for other in ctx.where(Section, term_id=new.term_id, period=new.period):
        if other.id == new.id:
            continue
        if other.teacher_id == new.teacher_id:
            raise Conflict(
                f"the teacher already teaches {other.course_name} in period {new.period}",
                field="period",
                hint="pick another period or teacher",
            )
        if other.room.strip().casefold() == new.room.strip().casefold():
            raise Conflict(
                f"room {new.room} is taken by {other.course_name} in period {new.period}",
                field="room",
                hint="pick another room or period",
            )


def _guard_guardian(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None and len(ctx.where(Guardian, student_id=new.student_id)) > 4:
        raise RuleViolation("a student has at most 4 guardians on file", field="student_id", hint="update one instead")
    if any(g.id != new.id and g.email == new.email for g in ctx.where(Guardian, student_id=new.student_id)):
        raise Conflict(
            f"{new.email} is already a guardian of the student", field="email", hint="update that guardian instead"
        )
    if old is not None and old.custodial and not new.custodial:
        _keep_custodian(ctx, old, "custodial")


def _keep_custodian(ctx: Ctx, leaving: Guardian, field: str) -> None:
    others = [g for g in ctx.where(Guardian, student_id=leaving.student_id, custodial=True) if g.id != leaving.id]
    if not others:
        raise RuleViolation(
            f"{leaving.name} is the student's only custodial guardian",
            field=field,
            hint="add another custodial guardian first",
        )


def _guard_guardian_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.custodial:
        _keep_custodian(ctx, old, "guardian_id")


def _guard_student(ctx: Ctx, new: Any, old: Any) -> None:
    age = (ctx.today() - new.birth_date).days // 365
    if not 12 <= age <= 21:
        raise RuleViolation(
            f"a high-school student aged {age} is out of range", field="birth_date", hint="check the date of birth"
        )
    if old is not None and new.grade_level < old.grade_level:
        raise RuleViolation(
            "grade level cannot go down", field="grade_level", hint="students are promoted, not demoted"
        )
    if old is not None and old.enroll_status == "active" and new.enroll_status != "active":
        for e in ctx.where(SectionEnrollment, student_id=new.id):
            if e.date_left is None:
                ctx.update(e, date_left=ctx.today())


students = service.resource(
    Student,
    name="student",
    plural="students",
    prefix="stu",
    create=("first_name", "last_name", "birth_date", "grade_level", "home_address", "entry_date"),
    filters=("grade_level", "enroll_status", "student_number", "last_name"),
    search=("first_name", "last_name", "student_number"),
    update=("grade_level", "home_address", "enroll_status"),
    delete=False,
    guard_create=_guard_student,
    guard_update=_guard_student,
)
guardians = service.resource(
    Guardian,
    name="guardian",
    plural="guardians",
    prefix="gdn",
    get=False,
    create=("student_id", "name", "email", "phone", "relationship", "custodial", "emergency_contact", "receives_mail"),
    filters=("student_id", "email", "custodial"),
    search=("name", "email"),
    update=("phone", "custodial", "emergency_contact", "receives_mail"),
    guard_create=_guard_guardian,
    guard_update=_guard_guardian,
    guard_delete=_guard_guardian_delete,
)
teachers = service.resource(
    Teacher,
    name="teacher",
    plural="teachers",
    prefix="tch",
    create=False,
    get=False,
    filters=("email", "department"),
    search=("name", "department"),
    delete=False,
)
terms = service.resource(
    Term, name="term", plural="terms", prefix="trm", create=False, get=False, filters=(), delete=False
)
sections = service.resource(
    Section,
    name="section",
    plural="sections",
    prefix="sec",
    create=("course_name", "term_id", "teacher_id", "period", "room", "grade_min", "grade_max", "capacity"),
    filters=("term_id", "teacher_id", "period"),
    search=("course_name", "room"),
    delete=False,
    guard_create=_guard_section,
)
section_enrollments = service.resource(
    SectionEnrollment,
    name="section_enrollment",
    plural="section_enrollments",
    prefix="cc",
    create=False,
    get=False,
    filters=("student_id", "section_id"),
    delete=False,
)
attendance = service.resource(
    Attendance,
    name="attendance",
    plural="attendance",
    prefix="att",
    create=False,
    get=False,
    filters=("student_id", "date", "code"),
    delete=False,
)
stored_grades = service.resource(
    StoredGrade,
    name="stored_grade",
    plural="stored_grades",
    prefix="sg",
    create=False,
    get=False,
    filters=("student_id", "section_id", "term_id", "letter", "final"),
    delete=False,
)
report_cards = service.resource(
    ReportCard,
    name="report_card",
    plural="report_cards",
    prefix="rc",
    create=False,
    get=False,
    filters=("student_id", "term_id"),
    delete=False,
)


# -- examples -------------------------------------------------------------------------------


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    term = _current_term(ctx)
    if term is None:
        return None
    for st in ctx.where(Student, enroll_status="active"):
        busy = {sec.period for _, sec in _live(ctx, st.id, term.id)}
        for sec in ctx.where(Section, term_id=term.id):
            seats = len([e for e in ctx.where(SectionEnrollment, section_id=sec.id) if e.date_left is None])
            if sec.period not in busy and sec.grade_min <= st.grade_level <= sec.grade_max and seats < sec.capacity:
                return {"student_id": st.id, "section_id": sec.id}
    return None


def _example_drop(ctx: Ctx) -> dict[str, Any] | None:
    term = _current_term(ctx)
    for e in ctx.scan(SectionEnrollment):
        sec = ctx.get(Section, e.section_id)
        current = e.date_left is None and term is not None and sec.term_id == term.id
        if current and ctx.first(StoredGrade, student_id=e.student_id, section_id=sec.id, final=True) is None:
            return {"student_id": e.student_id, "section_id": sec.id}
    return None


def _school_day(ctx: Ctx) -> dt.date:
    d = ctx.today()
    while d.weekday() >= 5:
        d -= dt.timedelta(days=1)
    return d


def _example_attendance(ctx: Ctx) -> dict[str, Any] | None:
    st = ctx.first(Student, enroll_status="active")
    return None if st is None else {"student_id": st.id, "date": _school_day(ctx).isoformat(), "code": "tardy"}


def _example_excuse(ctx: Ctx) -> dict[str, Any] | None:
    limit = ctx.today() - dt.timedelta(days=EXCUSE_DAYS)
    for a in ctx.where(Attendance, code="absent_unexcused"):
        g = ctx.first(Guardian, student_id=a.student_id, custodial=True)
        if g is not None and a.date >= limit:
            return {"attendance_id": a.id, "guardian_email": g.email, "reason": "Doctor's appointment"}
    return None


def _example_grade(ctx: Ctx) -> dict[str, Any] | None:
    term = _current_term(ctx)
    if term is None:
        return None
    for sec in ctx.where(Section, term_id=term.id):
        teacher = ctx.get(Teacher, sec.teacher_id)
        for e in ctx.where(SectionEnrollment, section_id=sec.id):
            if e.date_left is None:
                return {
                    "section_id": sec.id,
                    "student_id": e.student_id,
                    "percent": 87.5,
                    "teacher_email": teacher.email,
                }
    return None


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    for st in ctx.where(Student, enroll_status="active"):
        for term in ctx.scan(Term):
            if ctx.first(ReportCard, student_id=st.id, term_id=term.id) is not None:
                continue
            live = _live(ctx, st.id, term.id)
            if live and all(ctx.first(StoredGrade, student_id=st.id, section_id=s.id) for _, s in live):
                return {"student_id": st.id, "term_id": term.id}
    return None


# -- domain tools ---------------------------------------------------------------------------


@service.tool(intent="enroll the student in the class", write=True, example=_example_enroll)
def enroll_in_section(ctx: Ctx, student_id: StudentId, section_id: SectionId) -> SectionEnrollment:
    """Put an active student in a section of the current or a future term.

    The section must admit the student's grade level and have a free seat, and
    the student may not have another section in the same period that term.

    Args:
        student_id: The student.
        section_id: The section.
    """
    st = _active(ctx, student_id, "student_id")
    sec = ctx.get(Section, section_id, field="section_id")
    term = ctx.get(Term, sec.term_id)
    if term.end_date < ctx.today():
        raise RuleViolation(f"term {term.name} is over", field="section_id", hint="pick a section of the current term")
    if not sec.grade_min <= st.grade_level <= sec.grade_max:
        raise RuleViolation(
            f"{sec.course_name} is for grades {sec.grade_min}-{sec.grade_max}; the student is in grade {st.grade_level}",
            field="section_id",
            hint="pick a section for the student's grade",
        )
    for _, other in _live(ctx, st.id, term.id):
        if other.id == sec.id:
            raise Conflict("the student is already in this section", field="section_id", hint="nothing to do")
        if other.period == sec.period:
            raise Conflict(
                f"the student has {other.course_name} in period {sec.period}",
                field="section_id",
                hint="drop that section first or pick a section in a free period",
            )
    seats = [e for e in ctx.where(SectionEnrollment, section_id=sec.id) if e.date_left is None]
    if len(seats) >= sec.capacity:
        raise RuleViolation(
            f"{sec.course_name} (period {sec.period}) is full", field="section_id", hint="pick another section"
        )
    return ctx.create(
        SectionEnrollment, student_id=st.id, section_id=sec.id, date_enrolled=max(ctx.today(), term.start_date)
    )


@service.tool(intent="drop the student from the class", write=True, example=_example_drop)
def drop_section(ctx: Ctx, student_id: StudentId, section_id: SectionId) -> SectionEnrollment:
    """Take a student out of a section they attend; not once its grade is final.

    Args:
        student_id: The student.
        section_id: The section.
    """
    st = ctx.get(Student, student_id, field="student_id")
    sec = ctx.get(Section, section_id, field="section_id")
    e = next(
        (x for x in ctx.where(SectionEnrollment, student_id=st.id, section_id=sec.id) if x.date_left is None), None
    )
    if e is None:
        raise RuleViolation(
            "the student is not in this section", field="section_id", hint="list the student's section enrollments"
        )
    if ctx.first(StoredGrade, student_id=st.id, section_id=sec.id, final=True) is not None:
        raise RuleViolation(
            "the section's grade is on an issued report card", field="section_id", hint="final grades stay"
        )
    return ctx.update(e, date_left=ctx.today())


@service.tool(intent="record the student's attendance", write=True, idempotent=True, example=_example_attendance)
def record_attendance(
    ctx: Ctx, student_id: StudentId, date: Date, code: AttendanceCode, comment: Text = ""
) -> Attendance:
    """Record (or correct) an active student's attendance on a school day of the current term.

    The day must be a weekday of the current term and not in the future. An
    absence already excused by a guardian is not overwritten.

    Args:
        student_id: The student.
        date: The school day.
        code: present, tardy, absent_excused or absent_unexcused.
        comment: Note.
    """
    st = _active(ctx, student_id, "student_id")
    term = _current_term(ctx)
    if term is None or not term.start_date <= date <= ctx.today():
        raise RuleViolation(
            f"{date} is not a day of the current term up to today",
            field="date",
            hint="attendance is taken for past or present days of the current term",
        )
    if date.weekday() >= 5:
        raise RuleViolation(f"{date} is a weekend day", field="date", hint="give a school day")
    rec = ctx.first(Attendance, student_id=st.id, date=date)
    if rec is None:
        return ctx.create(Attendance, student_id=st.id, date=date, code=code, comment=comment)
    if rec.excused_by is not None and code != "absent_excused":
        raise RuleViolation(
            f"{rec.excused_by} excused this absence", field="code", hint="excused absences are not overwritten"
        )
    return ctx.update(rec, code=code, comment=comment or rec.comment)


@service.tool(intent="excuse the student's absence", write=True, example=_example_excuse)
def excuse_absence(ctx: Ctx, attendance_id: AttendanceId, guardian_email: Email, reason: Text) -> Attendance:
    """Excuse an unexcused absence as a custodial guardian, within 10 days of it.

    Args:
        attendance_id: The absence.
        guardian_email: E-mail of a custodial guardian of the student.
        reason: Why the student was absent.
    """
    rec = ctx.get(Attendance, attendance_id, field="attendance_id")
    if rec.code != "absent_unexcused":
        raise RuleViolation(
            f"the record is {rec.code.replace('_', ' ')}",
            field="attendance_id",
            hint="only unexcused absences are excused",
        )
    g = ctx.first(Guardian, student_id=rec.student_id, email=guardian_email)
    if g is None or not g.custodial:
        raise RuleViolation(
            f"{guardian_email} is not a custodial guardian of the student",
            field="guardian_email",
            hint="a custodial guardian on file must excuse the absence",
        )
    if ctx.today() - rec.date > dt.timedelta(days=EXCUSE_DAYS):
        raise RuleViolation(
            f"absences are excused within {EXCUSE_DAYS} days; this one was on {rec.date}",
            field="attendance_id",
            hint="ask the school office to correct it",
        )
    if not reason.strip():
        raise RuleViolation("an excuse needs a reason", field="reason", hint="say why the student was absent")
    return ctx.update(rec, code="absent_excused", excused_by=guardian_email, comment=reason.strip())


@service.tool(intent="enter the student's grade for the class", write=True, idempotent=True, example=_example_grade)
def enter_grade(
    ctx: Ctx, section_id: SectionId, student_id: StudentId, percent: Percent, teacher_email: Email, comment: Text = ""
) -> StoredGrade:
    """Enter or change a student's grade in a section; only the section's teacher, and not once final.

    Args:
        section_id: The section.
        student_id: The student.
        percent: Score in percent; the letter follows from it.
        teacher_email: E-mail of the section's teacher.
        comment: Comment for the report card.
    """
    sec = ctx.get(Section, section_id, field="section_id")
    st = ctx.get(Student, student_id, field="student_id")
    teacher = ctx.get(Teacher, sec.teacher_id)
    if teacher_email != teacher.email:
        raise RuleViolation(
            f"{teacher_email} does not teach this section",
            field="teacher_email",
            hint=f"grades are entered by {teacher.name} ({teacher.email})",
        )
    if not any(e.date_left is None for e in ctx.where(SectionEnrollment, student_id=st.id, section_id=sec.id)):
        raise RuleViolation("the student is not in this section", field="student_id", hint="grade enrolled students")
    grade = ctx.first(StoredGrade, student_id=st.id, section_id=sec.id)
    if grade is not None and grade.final:
        raise RuleViolation("the grade is on an issued report card", field="section_id", hint="final grades stay")
    values = {"percent": percent, "letter": _letter(percent), "comment": comment, "entered_by": teacher_email}
    if grade is None:
        return ctx.create(StoredGrade, student_id=st.id, section_id=sec.id, term_id=sec.term_id, **values)
    return ctx.update(grade, **values)


def _absences(ctx: Ctx, student_id: str, term: Term) -> tuple[int, int, int]:
    recs = [a for a in ctx.where(Attendance, student_id=student_id) if term.start_date <= a.date <= term.end_date]
    absent = sum(1 for a in recs if a.code.startswith("absent"))
    tardy = sum(1 for a in recs if a.code == "tardy")
    return len(recs), absent, tardy


@service.tool(intent="issue the student's report card", write=True, example=_example_report)
def issue_report_card(ctx: Ctx, student_id: StudentId, term_id: TermId) -> ReportCard:
    """Issue a student's report card for a term once every section they attend is graded.

    The grades become final; the GPA averages the letters (A=4 to F=0); the
    card is mailed to the guardians who receive mail.

    Args:
        student_id: The student.
        term_id: The term.
    """
    st = ctx.get(Student, student_id, field="student_id")
    term = ctx.get(Term, term_id, field="term_id")
    if ctx.first(ReportCard, student_id=st.id, term_id=term.id) is not None:
        raise Conflict("the report card was already issued", field="term_id", hint="list the student's report cards")
    live = _live(ctx, st.id, term.id)
    if not live:
        raise RuleViolation(
            "the student attends no section in this term", field="term_id", hint="pick a term the student attended"
        )
    grades = []
    for _, sec in live:
        g = ctx.first(StoredGrade, student_id=st.id, section_id=sec.id)
        if g is None:
            raise RuleViolation(
                f"{sec.course_name} (period {sec.period}) has no grade yet",
                field="term_id",
                hint="have the teacher enter it with schoolsis__enter_grade",
            )
        grades.append(g)
    for g in grades:
        ctx.update(g, final=True)
    _, absent, tardy = _absences(ctx, st.id, term)
    mail = sorted(g.email for g in ctx.where(Guardian, student_id=st.id) if g.receives_mail)
    return ctx.create(
        ReportCard,
        student_id=st.id,
        term_id=term.id,
        gpa=round(sum(POINTS[g.letter] for g in grades) / len(grades), 2),
        sections=len(grades),
        days_absent=absent,
        days_tardy=tardy,
        mailed_to=mail,
    )


class AttendanceSummary(BaseModel):
    """A student's attendance in the current term."""

    student_id: StudentId = Field(description="The student.")
    student_number: str = Field(description="Student number.")
    name: PersonName = Field(description="Student name.")
    days_recorded: int = Field(description="School days with attendance taken.")
    days_absent: int = Field(description="Days absent, excused or not.")
    unexcused: int = Field(description="Unexcused absences.")
    days_tardy: int = Field(description="Days tardy.")
    attendance_rate: float = Field(description="Percent of recorded days not absent.")
    guardian_emails: list[Email] = Field(description="Custodial guardians to contact.")


@service.tool(
    intent="summarize the student's attendance",
    example=first_example(Student, "student_id", where={"enroll_status": "active"}),
)
def attendance_summary(ctx: Ctx, student_id: StudentId) -> AttendanceSummary:
    """Count a student's recorded, absent, unexcused and tardy days in the current term.

    Args:
        student_id: The student.
    """
    st = ctx.get(Student, student_id, field="student_id")
    term = _current_term(ctx)
    if term is None:
        raise NotFound("no term is in session", field="student_id", hint="attendance is summarized during a term")
    days, absent, tardy = _absences(ctx, st.id, term)
    unexcused = sum(
        1
        for a in ctx.where(Attendance, student_id=st.id, code="absent_unexcused")
        if term.start_date <= a.date <= term.end_date
    )
    return AttendanceSummary(
        student_id=st.id,
        student_number=st.student_number,
        name=f"{st.first_name} {st.last_name}",
        days_recorded=days,
        days_absent=absent,
        unexcused=unexcused,
        days_tardy=tardy,
        attendance_rate=round(100 * (days - absent) / days, 1) if days else 100.0,
        guardian_emails=sorted(g.email for g in ctx.where(Guardian, student_id=st.id, custodial=True)),
    )


# -- seed -----------------------------------------------------------------------------------

TEACHERS = (
    ("English", "Margaret Ellison"),
    ("English", "Daniel Okoro"),
    ("Mathematics", "Helen Brightwater"),
    ("Mathematics", "Victor Lindahl"),
    ("Science", "Priya Raman"),
    ("Science", "Tomas Ferreira"),
    ("History", "Grace Whitfield"),
    ("Languages", "Lucia Moreno"),
    ("Physical Education", "Sam Kowal"),
    ("Arts", "Nina Castellanos"),
)
# course, department, grade_min, grade_max, period
COURSES = (
    ("English 9", "English", 9, 9, 1),
    ("English 10", "English", 10, 10, 2),
    ("English 11", "English", 11, 12, 3),
    ("Algebra I", "Mathematics", 9, 10, 2),
    ("Geometry", "Mathematics", 9, 11, 3),
    ("Pre-Calculus", "Mathematics", 11, 12, 1),
    ("Biology", "Science", 9, 10, 4),
    ("Chemistry", "Science", 10, 12, 5),
    ("World History", "History", 9, 12, 5),
    ("Spanish I", "Languages", 9, 12, 6),
    ("Physical Education", "Physical Education", 9, 12, 4),
    ("Studio Art", "Arts", 9, 12, 6),
)


def _seed_sections(s: SeedContext, terms: tuple[Term, Term]) -> tuple[dict[str, Teacher], dict[str, list[Section]]]:
    """The teachers and every course's section in both terms; returns the teachers by id and the sections by term id."""
    staff: dict[str, list[Teacher]] = {}
    for dept, name in TEACHERS:
        first, last = name.split()
        t = s.create(Teacher, name=name, email=f"{first}.{last}@northfield-academy.example".lower(), department=dept)
        staff.setdefault(dept, []).append(t)
    secs: dict[str, list[Section]] = {term.id: [] for term in terms}
    for term in terms:
        for k, (course, dept, lo, hi, period) in enumerate(COURSES):
            team = staff[dept]
            secs[term.id].append(
                s.create(
                    Section,
                    course_name=course,
                    term_id=term.id,
                    teacher_id=team[k % len(team)].id,
                    period=period,
                    room=f"{100 + 10 * (k % 4) + period}",
                    grade_min=lo,
                    grade_max=hi,
                    capacity=24 if course != "Physical Education" else 40,
                )
            )
    return {t.id: t for team in staff.values() for t in team}, secs


def _seed_guardians(s: SeedContext, i: int, parent: Person, st: Student) -> None:
    """The i-th parent as the student's guardian; some students also have a second parent or a grandparent."""
    pop = s.population
    s.create(
        Guardian,
        student_id=st.id,
        name=parent.name,
        email=parent.email,
        phone=parent.phone,
        relationship="mother" if i % 2 else "father",
    )
    if i % 3 == 1:
        other = pop.consumers[(i * 7 + 3) % len(pop.consumers)]
        s.create(
            Guardian,
            student_id=st.id,
            name=f"{other.first_name} {parent.last_name}",
            email=f"{other.first_name}.{parent.last_name}.{i}@postbox.org".lower(),
            phone=other.phone,
            relationship="father" if i % 2 else "mother",
            custodial=i % 2 == 0,
            receives_mail=i % 2 == 0,
        )
    if i % 5 == 2:
        s.create(
            Guardian,
            student_id=st.id,
            name=f"{s.rng.choice(FIRST_NAMES)} {parent.last_name}",
            email=f"grandparent.{parent.last_name}.{i}@inbox.io".lower(),
            relationship="grandparent",
            custodial=False,
            receives_mail=False,
        )


def _seed_students(s: SeedContext) -> list[Student]:
    """Consumers old enough to have a teenager as parents, each with one or two students at the school."""
    today = s.now.date()
    parents = [p for p in s.population.consumers if 35 <= (today - p.birth_date).days // 365 <= 60][:22]
    students: list[Student] = []
    for i, parent in enumerate(parents):
        for k in range(1 + (i % 4 == 0)):
            grade = 9 + (i + 2 * k) % 4
            birth = dt.date(2026 - 15 - (grade - 9), 1 + (i * 5 + k) % 12, 1 + (i * 7 + k) % 28)
            st = s.create(
                Student,
                first_name=s.rng.choice(FIRST_NAMES),
                last_name=parent.last_name,
                birth_date=birth,
                grade_level=grade,
                home_address=parent.address,
                enroll_status="active" if (i + k) % 19 != 18 else "transferred",
                entry_date=dt.date(2025 - (grade - 9), 8, 25),
            )
            students.append(st)
            _seed_guardians(s, i, parent, st)
    return students


def _seed_schedules(
    s: SeedContext, term: Term, first: bool, secs: list[Section], students: list[Student], teachers: dict[str, Teacher]
) -> None:
    """Each student's sections of the term, one in each period 1-6 their grade fits, with their grades.

    The first term has a final grade in every section; the second (current) one a
    progress grade in some, a free sixth period for some students and none for
    students who left.
    """
    rng = s.rng
    seats: dict[str, int] = {}
    for j, st in enumerate(students):
        if not first and st.enroll_status != "active":
            continue
        for period in range(1, 7):
            if not first and period == 6 and j % 3 == 0:
                continue  # a free period (study hall) this semester
            options = [
                x
                for x in secs
                if x.period == period
                and x.grade_min <= st.grade_level <= x.grade_max
                and seats.get(x.id, 0) < x.capacity
            ]
            if not options:
                continue
            sec = options[j % len(options)]
            seats[sec.id] = seats.get(sec.id, 0) + 1
            s.create(SectionEnrollment, student_id=st.id, section_id=sec.id, date_enrolled=term.start_date)
            teacher = teachers[sec.teacher_id]
            if first:
                pct = float(rng.randint(55, 99))
                s.create(
                    StoredGrade,
                    student_id=st.id,
                    section_id=sec.id,
                    term_id=term.id,
                    percent=pct,
                    letter=_letter(pct),
                    final=True,
                    entered_by=teacher.email,
                )
            elif j % 4 == 0 and (period != 6 or j % 8 == 0):
                pct = float(rng.randint(60, 98))
                s.create(
                    StoredGrade,
                    student_id=st.id,
                    section_id=sec.id,
                    term_id=term.id,
                    percent=pct,
                    letter=_letter(pct),
                    comment="Progress grade",
                    entered_by=teacher.email,
                )


def _seed_report_cards(s: SeedContext, term: Term, students: list[Student]) -> None:
    """The term's report card for every student with grades, mailed to the guardians who receive mail."""
    for st in students:
        grades = [g for g in s.records(StoredGrade) if g.student_id == st.id and g.term_id == term.id]
        if grades:
            mail = sorted(g.email for g in s.records(Guardian) if g.student_id == st.id and g.receives_mail)
            s.create(
                ReportCard,
                student_id=st.id,
                term_id=term.id,
                gpa=round(sum(POINTS[g.letter] for g in grades) / len(grades), 2),
                sections=len(grades),
                days_absent=s.rng.randint(0, 6),
                days_tardy=s.rng.randint(0, 4),
                mailed_to=mail,
                issued_at=dt.datetime(2026, 1, 23, 12, tzinfo=dt.UTC),
            )


def _seed_attendance(s: SeedContext, students: list[Student]) -> None:
    """Daily attendance of the active students over the last two weeks; a custodial guardian excused absences."""
    today = s.now.date()
    days = [today - dt.timedelta(days=d) for d in range(1, 15) if (today - dt.timedelta(days=d)).weekday() < 5]
    for j, st in enumerate(students):
        if st.enroll_status != "active":
            continue
        for d, day in enumerate(sorted(days)):
            roll = (j * 3 + d * 7) % 23
            code: AttendanceCode = (
                "absent_unexcused"
                if roll == 0
                else "absent_excused"
                if roll == 1
                else "tardy"
                if roll == 2
                else "present"
            )
            guardian = next((g for g in s.records(Guardian) if g.student_id == st.id and g.custodial), None)
            s.create(
                Attendance,
                student_id=st.id,
                date=day,
                code=code,
                comment="Flu" if code == "absent_excused" else "",
                excused_by=guardian.email if code == "absent_excused" and guardian else None,
                updated_at=utc_at(day, 8, 30),
            )


@service.seeder
def seed(s: SeedContext) -> None:
    """Terms, teachers and sections, consumers' children as students with their parents as guardians."""
    s1 = s.create(Term, name="2025-26 Semester 1", start_date=dt.date(2025, 8, 25), end_date=dt.date(2026, 1, 16))
    s2 = s.create(Term, name="2025-26 Semester 2", start_date=dt.date(2026, 1, 20), end_date=dt.date(2026, 6, 12))
    teachers, secs = _seed_sections(s, (s1, s2))
    students = _seed_students(s)
    _seed_schedules(s, s1, True, secs[s1.id], students, teachers)
    _seed_schedules(s, s2, False, secs[s2.id], students, teachers)
    _seed_report_cards(s, s1, students)
    _seed_attendance(s, students)
