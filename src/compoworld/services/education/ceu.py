"""Tracked CE: continuing education compliance — licensees, renewal cycles, required hours, courses, credits, audits.

Modeled on CE Broker (licensees with a profession, licence number, state and
expiry; renewal cycles; the state board's requirements in hours by subject —
general, ethics, pain management, implicit bias, infection control; approved
courses from providers; course completions reported by licensees or
providers; compliance status; board audits): only an approved course's
completion is reported, within the licensee's open cycle, once per course and
cycle, and never in the future; a cycle's compliance counts the accepted
hours per subject against the profession's requirements (extra subject hours
count toward general hours); a licence renews only when the cycle is
compliant, which completes the cycle, opens the next and moves the expiry two
years; an audit selects a completed cycle, may reject credits, and passes
only if the cycle is still compliant without them.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "ceu",
    title="Tracked CE",
    category="continuing_education",
    modeled_on="CE Broker: licensees, licence renewal cycles, board requirements by subject, approved courses, "
    "reported course completions, compliance transcripts, board audits",
    description="Continuing education compliance for licensed professionals: licensees and their licences, "
    "renewal cycles, the hours a board requires by subject, approved courses, completions reported as credits, "
    "each cycle's compliance status, licence renewal and board audits of completed cycles.",
)

LicenseeId = Annotated[str, IdOf("ceu.licensee")]
CourseId = Annotated[str, IdOf("ceu.course")]
CycleId = Annotated[str, IdOf("ceu.cycle")]
CreditId = Annotated[str, IdOf("ceu.credit")]
AuditId = Annotated[str, IdOf("ceu.audit")]
RequirementId = Annotated[str, IdOf("ceu.requirement")]

Profession = Literal["physician", "registered_nurse", "pharmacist", "physical_therapist"]
Subject = Literal["general", "ethics", "pain_management", "implicit_bias", "infection_control"]
CycleStatus = Literal["open", "completed"]
CreditStatus = Literal["accepted", "rejected"]
AuditStatus = Literal["selected", "passed", "failed"]
Hours = Annotated[float, Field(ge=0.5, le=100)]
LicenseNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,3}[0-9]{5,8}$")]
"""A licence number such as RN1234567."""
State = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
"""A two-letter state code."""

REQUIREMENTS: dict[str, tuple[tuple[Subject, float], ...]] = {
    "physician": (("general", 30.0), ("pain_management", 2.0), ("implicit_bias", 2.0)),
    "registered_nurse": (("general", 20.0), ("ethics", 2.0), ("implicit_bias", 1.0)),
    "pharmacist": (("general", 26.0), ("ethics", 2.0), ("infection_control", 2.0)),
    "physical_therapist": (("general", 18.0), ("ethics", 2.0)),
}


class Licensee(Timestamped):
    """A licensed professional."""

    id: LicenseeId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    profession: Profession
    """physician, registered_nurse, pharmacist or physical_therapist."""
    license_number: LicenseNumber
    """Licence number; unique."""
    state: State
    """Licensing state."""
    license_expires_on: Date
    """When the licence expires."""


class Requirement(Record):
    """Hours a board requires of a profession per cycle in a subject."""

    id: RequirementId
    profession: Profession
    """The profession."""
    subject: Subject
    """The subject."""
    hours: float
    """Hours required per cycle."""


class Course(Timestamped):
    """A continuing education course."""

    id: CourseId
    title: Title
    """Course title."""
    provider_name: CompanyName
    """The CE provider."""
    subject: Subject
    """The subject it counts toward."""
    hours: Hours
    """Contact hours."""
    approved: bool = False
    """Whether the board approved it."""


class Cycle(Timestamped):
    """A licensee's renewal cycle."""

    id: CycleId
    licensee_id: LicenseeId
    """The licensee."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day (the licence expiry)."""
    status: CycleStatus = "open"
    """open or completed (renewed)."""


class Credit(Timestamped):
    """A reported course completion."""

    id: CreditId
    licensee_id: LicenseeId
    """The licensee."""
    cycle_id: CycleId
    """The cycle it counts toward."""
    course_id: CourseId
    """The course."""
    subject: Subject
    """The course's subject."""
    hours: float
    """The course's hours."""
    completed_on: Date
    """When the course was completed."""
    status: CreditStatus = "accepted"
    """accepted or rejected (in an audit)."""
    rejection_reason: Text | None = None
    """Why an audit rejected it."""


class Audit(Timestamped):
    """A board audit of a completed cycle."""

    id: AuditId
    licensee_id: LicenseeId
    """The licensee."""
    cycle_id: CycleId
    """The audited cycle."""
    status: AuditStatus = "selected"
    """selected, passed or failed."""


class SubjectHours(Value):
    """Hours in one subject against its requirement."""

    subject: Subject
    """The subject."""
    required: float
    """Hours required."""
    earned: float
    """Accepted hours counted."""


class Compliance(Value):
    """A cycle's compliance transcript."""

    cycle_id: CycleId
    """The cycle."""
    by_subject: tuple[SubjectHours, ...]
    """Hours per required subject."""
    hours_short: float
    """Hours still missing in all."""
    compliant: bool
    """Whether every requirement is met."""


licensees = service.resource(
    Licensee,
    name="licensee",
    plural="licensees",
    prefix="lic",
    create=False,
    filters=("profession", "state", "email", "license_number"),
    search=("name",),
    update=("email",),
    delete=False,
)
requirements = service.resource(
    Requirement,
    name="requirement",
    plural="requirements",
    prefix="req",
    create=False,
    get=False,
    filters=("profession", "subject"),
    delete=False,
)
courses = service.resource(
    Course,
    name="course",
    plural="courses",
    prefix="crs",
    create=("title", "provider_name", "subject", "hours"),
    filters=("subject", "approved", "provider_name"),
    search=("title",),
    update=("title", "hours"),
    delete=False,
)
cycles = service.resource(
    Cycle,
    name="cycle",
    plural="cycles",
    prefix="cyc",
    create=False,
    filters=("licensee_id", "status"),
    delete=False,
    title="renewal cycle",
)
credits_ = service.resource(
    Credit,
    name="credit",
    plural="credits",
    prefix="cred",
    create=False,
    filters=("licensee_id", "cycle_id", "course_id", "subject", "status"),
    delete=False,
)
audits = service.resource(
    Audit,
    name="audit",
    plural="audits",
    prefix="aud",
    create=False,
    filters=("licensee_id", "cycle_id", "status"),
    delete=False,
)


def _compliance(ctx: Ctx, cycle: Cycle) -> Compliance:
    lic = ctx.get(Licensee, cycle.licensee_id)
    earned: dict[str, float] = {}
    for c in ctx.where(Credit, cycle_id=cycle.id, status="accepted"):
        earned[c.subject] = earned.get(c.subject, 0.0) + c.hours
    rows: list[SubjectHours] = []
    spill = 0.0
    for subject, need in REQUIREMENTS[lic.profession]:
        if subject != "general":
            got = earned.get(subject, 0.0)
            spill += max(got - need, 0.0)
            rows.append(SubjectHours(subject=subject, required=need, earned=min(got, need)))
    other = sum(h for s, h in earned.items() if s not in {r[0] for r in REQUIREMENTS[lic.profession]})
    general_need = dict(REQUIREMENTS[lic.profession])["general"]
    general = earned.get("general", 0.0) + spill + other
    rows.insert(0, SubjectHours(subject="general", required=general_need, earned=general))
    short = sum(max(r.required - r.earned, 0.0) for r in rows)
    return Compliance(cycle_id=cycle.id, by_subject=tuple(rows), hours_short=round(short, 2), compliant=short == 0)


@service.tool(
    intent="approve the course", write=True, example=first_example(Course, "course_id", where={"approved": False})
)
def approve_course(ctx: Ctx, course_id: CourseId) -> Course:
    """Record the board's approval of a course, so that completions of it count.

    Args:
        course_id: The course.
    """
    course = ctx.get(Course, course_id, field="course_id")
    if course.approved:
        raise Conflict(f"course {course.title!r} is already approved", field="course_id", hint="nothing to do")
    return ctx.update(course, approved=True)


def _example_credit(ctx: Ctx) -> dict[str, Any] | None:
    for cyc in ctx.where(Cycle, status="open"):
        for course in ctx.where(Course, approved=True):
            if ctx.first(Credit, cycle_id=cyc.id, course_id=course.id) is None:
                return {"licensee_id": cyc.licensee_id, "course_id": course.id, "completed_on": ctx.today().isoformat()}
    return None


@service.tool(intent="report the course completion", write=True, example=_example_credit)
def report_credit(ctx: Ctx, licensee_id: LicenseeId, course_id: CourseId, completed_on: Date) -> Credit:
    """Report a completed approved course toward the licensee's open cycle, once per course and cycle.

    Args:
        licensee_id: The licensee.
        course_id: The course.
        completed_on: When it was completed (inside the open cycle, not in the future).
    """
    lic = ctx.get(Licensee, licensee_id, field="licensee_id")
    course = ctx.get(Course, course_id, field="course_id")
    if not course.approved:
        raise RuleViolation(f"course {course.title!r} is not approved", field="course_id", hint="pick an approved one")
    cycle = ctx.first(Cycle, licensee_id=lic.id, status="open")
    if cycle is None:
        raise RuleViolation("the licensee has no open cycle", field="licensee_id", hint="renew the licence")
    if completed_on > ctx.today() or not cycle.starts_on <= completed_on <= cycle.ends_on:
        raise RuleViolation(
            f"completion must be in the cycle ({cycle.starts_on} to {cycle.ends_on}) and not in the future",
            field="completed_on",
            hint="check the date",
        )
    if ctx.first(Credit, cycle_id=cycle.id, course_id=course.id) is not None:
        raise Conflict("this course is already reported for the cycle", field="course_id", hint="pick another course")
    return ctx.create(
        Credit,
        licensee_id=lic.id,
        cycle_id=cycle.id,
        course_id=course.id,
        subject=course.subject,
        hours=course.hours,
        completed_on=completed_on,
    )


@service.tool(intent="show the cycle's compliance", example=first_example(Cycle, "cycle_id"))
def compliance_status(ctx: Ctx, cycle_id: CycleId) -> Compliance:
    """The cycle's accepted hours by subject against the profession's requirements.

    Args:
        cycle_id: The cycle.
    """
    return _compliance(ctx, ctx.get(Cycle, cycle_id, field="cycle_id"))


def _renewable(ctx: Ctx, lic: Licensee) -> bool:
    cyc = ctx.first(Cycle, licensee_id=lic.id, status="open")
    return cyc is not None and _compliance(ctx, cyc).compliant


@service.tool(intent="renew the licence", write=True, example=first_example(Licensee, "licensee_id", match=_renewable))
def renew_license(ctx: Ctx, licensee_id: LicenseeId) -> Licensee:
    """Renew a licence whose open cycle is compliant: the cycle completes, the next opens, expiry moves two years.

    Args:
        licensee_id: The licensee.
    """
    lic = ctx.get(Licensee, licensee_id, field="licensee_id")
    cyc = ctx.first(Cycle, licensee_id=lic.id, status="open")
    if cyc is None:
        raise RuleViolation("no open cycle", field="licensee_id", hint="nothing to renew")
    report = _compliance(ctx, cyc)
    if not report.compliant:
        raise RuleViolation(
            f"{report.hours_short} hours short of the requirements", field="licensee_id", hint="report more credits"
        )
    ctx.update(cyc, status="completed")
    end = add_months(cyc.ends_on, 24)
    ctx.create(Cycle, licensee_id=lic.id, starts_on=cyc.ends_on + dt.timedelta(days=1), ends_on=end)
    return ctx.update(lic, license_expires_on=end)


def _auditable(ctx: Ctx, cyc: Cycle) -> bool:
    return ctx.first(Audit, cycle_id=cyc.id) is None


@service.tool(
    intent="select the cycle for audit",
    write=True,
    example=first_example(Cycle, "cycle_id", where={"status": "completed"}, match=_auditable),
)
def select_for_audit(ctx: Ctx, cycle_id: CycleId) -> Audit:
    """Open a board audit of a completed cycle (once per cycle).

    Args:
        cycle_id: The cycle.
    """
    cyc = ctx.get(Cycle, cycle_id, field="cycle_id")
    if cyc.status != "completed":
        raise RuleViolation("only completed cycles are audited", field="cycle_id", hint="pick a renewed cycle")
    if not _auditable(ctx, cyc):
        raise Conflict("the cycle was already audited", field="cycle_id", hint="see ceu__list_audits")
    return ctx.create(Audit, licensee_id=cyc.licensee_id, cycle_id=cyc.id)


def _example_reject(ctx: Ctx) -> dict[str, Any] | None:
    aud = ctx.first(Audit, status="selected")
    cred = None if aud is None else ctx.first(Credit, cycle_id=aud.cycle_id, status="accepted")
    return None if cred is None else {"credit_id": cred.id, "reason": "No certificate of completion."}


@service.tool(intent="reject the credit in the audit", write=True, example=_example_reject)
def reject_credit(ctx: Ctx, credit_id: CreditId, reason: Text) -> Credit:
    """Reject an accepted credit of a cycle under audit (no proof of completion).

    Args:
        credit_id: The credit.
        reason: Why (required).
    """
    cred = ctx.get(Credit, credit_id, field="credit_id")
    if ctx.first(Audit, cycle_id=cred.cycle_id, status="selected") is None:
        raise RuleViolation("credits are rejected only in an open audit", field="credit_id", hint="audit first")
    if cred.status != "accepted":
        raise Conflict("the credit is already rejected", field="credit_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say why")
    return ctx.update(cred, status="rejected", rejection_reason=reason.strip())


@service.tool(
    intent="close the audit", write=True, example=first_example(Audit, "audit_id", where={"status": "selected"})
)
def close_audit(ctx: Ctx, audit_id: AuditId) -> Audit:
    """Close an open audit: it passes if the cycle is still compliant with its accepted credits, else fails.

    Args:
        audit_id: The audit.
    """
    aud = ctx.get(Audit, audit_id, field="audit_id")
    if aud.status != "selected":
        raise Conflict(f"the audit already {aud.status}", field="audit_id", hint="nothing to do")
    ok = _compliance(ctx, ctx.get(Cycle, aud.cycle_id)).compliant
    return ctx.update(aud, status="passed" if ok else "failed")


# -- seed -------------------------------------------------------------------------------------

COURSES: tuple[tuple[str, str, Subject, float, bool], ...] = (
    ("Clinical update in primary care", "Medscape Education", "general", 10.0, True),
    ("Advances in diabetes care", "Medscape Education", "general", 12.0, True),
    ("Sepsis recognition and management", "NetCE", "general", 8.0, True),
    ("Professional ethics for clinicians", "NetCE", "ethics", 2.0, True),
    ("Safe opioid prescribing and pain management", "Pri-Med", "pain_management", 2.0, True),
    ("Implicit bias in healthcare", "Pri-Med", "implicit_bias", 2.0, True),
    ("Infection control and prevention", "CEUfast", "infection_control", 2.0, True),
    ("Wellness retreat workshop", "CEUfast", "general", 6.0, False),
)
PROFS: tuple[Profession, ...] = (
    "physician",
    "registered_nurse",
    "physician",
    "pharmacist",
    "registered_nurse",
    "physical_therapist",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The practice's clinicians as licensees with cycles (compliant, short, renewed), courses, credits and an audit."""
    pop = s.population
    today = s.now.date()
    for prof, rules in REQUIREMENTS.items():
        for subject, hours in rules:
            s.create(Requirement, profession=prof, subject=subject, hours=hours)
    made = [
        s.create(
            Course,
            title=t,
            provider_name=p,
            subject=sub,
            hours=h,
            approved=a,
            created_at=s.ago(days=400),
            updated_at=s.ago(days=400),
        )
        for t, p, sub, h, a in COURSES
    ]
    for k, (person, _site) in enumerate(clinicians(pop)):
        prof = PROFS[k]
        ends = today + dt.timedelta(days=40 + 90 * k)
        lic = s.create(
            Licensee,
            name=person.name,
            email=person.email,
            profession=prof,
            license_number=f"{('MD', 'RN', 'MD', 'PH', 'RN', 'PT')[k]}{4100000 + 7919 * k}",
            state=("CA", "NY", "TX", "CA", "WA", "OR")[k],
            license_expires_on=ends,
            created_at=s.ago(days=900),
            updated_at=s.ago(days=30),
        )
        start = add_months(ends, -24) + dt.timedelta(days=1)
        prev = s.create(
            Cycle,
            licensee_id=lic.id,
            starts_on=add_months(start, -24),
            ends_on=start - dt.timedelta(days=1),
            status="completed",
            created_at=s.ago(days=900),
            updated_at=s.ago(days=700),
        )
        cyc = s.create(
            Cycle,
            licensee_id=lic.id,
            starts_on=start,
            ends_on=ends,
            created_at=s.ago(days=700),
            updated_at=s.ago(days=700),
        )
        need = {sub for sub, _ in REQUIREMENTS[prof]}
        full = k % 2 == 0
        for n, course in enumerate(made[:7]):
            if course.subject not in need and course.subject != "general":
                continue
            for target in (prev, cyc) if full else (prev,):
                s.create(
                    Credit,
                    licensee_id=lic.id,
                    cycle_id=target.id,
                    course_id=course.id,
                    subject=course.subject,
                    hours=course.hours,
                    completed_on=target.starts_on + dt.timedelta(days=30 + 20 * n),
                    created_at=s.ago(days=100),
                    updated_at=s.ago(days=100),
                )
            if not full and n == 0:
                s.create(
                    Credit,
                    licensee_id=lic.id,
                    cycle_id=cyc.id,
                    course_id=course.id,
                    subject=course.subject,
                    hours=course.hours,
                    completed_on=start + dt.timedelta(days=30),
                    created_at=s.ago(days=100),
                    updated_at=s.ago(days=100),
                )
        if k == 1:
            s.create(Audit, licensee_id=lic.id, cycle_id=prev.id, created_at=s.ago(days=10), updated_at=s.ago(days=10))
