"""Harbor Leave: FMLA and parental leaves of absence, eligibility, certifications, intermittent usage, return to work.

Modeled on Tilt (formerly Cocoon) and Sedgwick leave management (leave cases
with types and schedules, FMLA eligibility, medical certifications on form
WH-380 with due dates, intermittent usage reporting, return-to-work with
fitness for duty): a case moves submitted → pending_certification → approved →
on_leave → returned, or denied or canceled; eligibility is decided at review
(FMLA: 12 months of service and 1,250 hours worked in the last 12 months); a
certification is due 15 calendar days after it is requested, and an
insufficient one gets a 7-day cure period; a case is approved only when
eligible and every certification is approved, and only if its days fit the
entitlement left in the rolling 12 months (12 weeks, 26 for military
caregiver leave); parental bonding must start within 12 months of the birth
or placement; intermittent leave is reported in hours on approved intermittent
cases within the entitlement; returning from one's own serious health
condition needs a fitness-for-duty certification when the case requires one.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "leavecases",
    title="Harbor Leave",
    category="leave_management",
    modeled_on="Tilt (Cocoon) and Sedgwick leave management (leave cases, FMLA eligibility, WH-380 "
    "certifications with due dates, intermittent usage, return to work)",
    description="Leaves of absence: FMLA, parental and military caregiver cases with their eligibility, "
    "the medical and birth certifications each needs by a due date, approval against the rolling 12-month "
    "entitlement, intermittent absences reported in hours, and the employee's return to work.",
)

CaseId = Annotated[str, IdOf("leavecases.case")]
CertificationId = Annotated[str, IdOf("leavecases.certification")]
UsageId = Annotated[str, IdOf("leavecases.usage")]

LeaveType = Literal["fmla_own_health", "fmla_family_care", "parental_bonding", "military_caregiver"]
Schedule = Literal["continuous", "intermittent", "reduced"]
CaseStatus = Literal["submitted", "pending_certification", "approved", "denied", "on_leave", "returned", "canceled"]
CertKind = Literal["WH-380-E", "WH-380-F", "birth_or_placement", "WH-385", "fitness_for_duty"]
CertStatus = Literal["requested", "received", "approved", "insufficient"]
Hours = Annotated[float, Field(gt=0, le=12)]

CERTS: dict[LeaveType, CertKind] = {
    "fmla_own_health": "WH-380-E",
    "fmla_family_care": "WH-380-F",
    "parental_bonding": "birth_or_placement",
    "military_caregiver": "WH-385",
}
WEEKS: dict[LeaveType, int] = {"military_caregiver": 26}
DUE_DAYS, CURE_DAYS = 15, 7
MIN_HOURS_WORKED = 1250
OPEN: tuple[CaseStatus, ...] = ("submitted", "pending_certification", "approved", "on_leave")


class Case(Record):
    """An employee's leave of absence."""

    id: CaseId
    employee_email: Email
    """The employee on leave."""
    employee_name: PersonName
    """Their name."""
    leave_type: LeaveType
    """fmla_own_health, fmla_family_care, parental_bonding or military_caregiver."""
    schedule: Schedule = "continuous"
    """continuous, intermittent or reduced."""
    start_date: Date
    """First day of leave."""
    expected_end_date: Date
    """Last day of leave expected."""
    event_date: Date | None = None
    """Birth or placement date (parental bonding)."""
    hours_worked_12mo: Annotated[int, Field(ge=0, le=4000)]
    """Hours worked in the 12 months before the leave."""
    eligible: bool | None = None
    """FMLA eligibility, once reviewed."""
    status: CaseStatus = "submitted"
    """submitted, pending_certification, approved, denied, on_leave, returned or canceled."""
    fitness_for_duty_required: bool = False
    """Whether returning needs a fitness-for-duty certification."""
    return_date: Date | None = None
    """The day they came back."""
    specialist_email: Email
    """The leave specialist handling it."""
    denial_reason: Text | None = None
    """Why it was denied."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Certification(Record):
    """A document a case needs: medical certification, proof of birth, fitness for duty."""

    id: CertificationId
    case_id: CaseId
    """The case."""
    kind: CertKind
    """WH-380-E, WH-380-F, birth_or_placement, WH-385 or fitness_for_duty."""
    status: CertStatus = "requested"
    """requested, received, approved or insufficient."""
    due_on: Date
    """When it is due."""
    provider_name: PersonName | None = None
    """The health care provider who signed it."""
    received_on: Date | None = None
    """When it came in."""
    note: Text = ""
    """What is missing when insufficient."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class Usage(Record):
    """Leave taken under a case, in hours on one day."""

    id: UsageId
    case_id: CaseId
    """The case."""
    employee_email: Email
    """The employee."""
    date: Date
    """The day."""
    hours: Hours
    """Hours of leave that day."""


class Entitlement(Value):
    """An employee's FMLA entitlement in the rolling 12 months."""

    employee_email: Email
    """The employee."""
    entitled_hours: float
    """Hours available in 12 months (480; 1,040 with military caregiver leave)."""
    used_hours: float
    """Hours taken in the last 12 months."""
    remaining_hours: float
    """Hours left."""


# -- rules ------------------------------------------------------------------------------------


def _weekdays(start: dt.date, end: dt.date) -> list[dt.date]:
    return [
        start + dt.timedelta(days=i)
        for i in range((end - start).days + 1)
        if (start + dt.timedelta(days=i)).weekday() < 5
    ]


def _entitled(leave_type: LeaveType) -> float:
    return WEEKS.get(leave_type, 12) * 40.0


def _used(ctx: Ctx, email: str) -> float:
    since = ctx.today() - dt.timedelta(days=365)
    return sum(u.hours for u in ctx.where(Usage, employee_email=email) if u.date > since)


def _booked(ctx: Ctx, email: str, skip: str | None = None) -> float:
    """Hours of approved continuous leave not yet logged as usage."""
    total = 0.0
    for c in ctx.where(Case, employee_email=email):
        if c.id != skip and c.status in ("approved", "on_leave") and c.schedule != "intermittent":
            total += 8.0 * len(_weekdays(c.start_date, c.expected_end_date))
    return total


def _guard_case(ctx: Ctx, new: Any, old: Any) -> None:
    if new.expected_end_date != old.expected_end_date and new.expected_end_date < new.start_date:
        raise RuleViolation("the leave ends before it starts", field="expected_end_date", hint="pick a later date")


cases = service.resource(
    Case,
    name="case",
    plural="cases",
    prefix="lv",
    create=False,
    filters=(
        "employee_email",
        "leave_type",
        "schedule",
        "status",
        "specialist_email",
        "eligible",
        "fitness_for_duty_required",
    ),
    search=("employee_name",),
    update=("expected_end_date", "fitness_for_duty_required"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("submitted", "pending_certification", "approved"),
            "canceled",
            "cancel the leave",
            description="Cancel a leave that has not started (the employee no longer needs it).",
        )
    },
    guard_update=_guard_case,
    title="leave case",
)
certifications = service.resource(
    Certification,
    name="certification",
    plural="certifications",
    prefix="cert",
    create=False,
    filters=("case_id", "kind", "status"),
    delete=False,
)
usages = service.resource(
    Usage,
    name="usage",
    plural="usages",
    prefix="use",
    create=False,
    filters=("case_id", "employee_email", "date"),
    delete=False,
    title="leave usage",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    busy = {c.employee_email for c in ctx.scan(Case) if c.status in OPEN}
    p = next((p for p in ctx.population.employees if p.email not in busy), None)
    start = ctx.today() + dt.timedelta(days=14)
    return (
        None
        if p is None
        else {
            "employee_email": p.email,
            "employee_name": p.name,
            "leave_type": "fmla_family_care",
            "start_date": start.isoformat(),
            "expected_end_date": (start + dt.timedelta(days=27)).isoformat(),
            "hours_worked_12mo": 1900,
            "specialist_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="open the leave case", write=True, example=_example_open)
def open_case(
    ctx: Ctx,
    employee_email: Email,
    employee_name: PersonName,
    leave_type: LeaveType,
    start_date: Date,
    expected_end_date: Date,
    hours_worked_12mo: Annotated[int, Field(ge=0, le=4000)],
    specialist_email: Email,
    schedule: Schedule = "continuous",
    event_date: Date | None = None,
) -> Case:
    """Open a leave case for an employee (one open case at a time).

    Args:
        employee_email: The employee.
        employee_name: Their name.
        leave_type: fmla_own_health, fmla_family_care, parental_bonding or military_caregiver.
        start_date: First day of leave.
        expected_end_date: Last day expected.
        hours_worked_12mo: Hours worked in the last 12 months (from payroll).
        specialist_email: The leave specialist.
        schedule: continuous, intermittent or reduced.
        event_date: Birth or placement date (parental bonding).
    """
    staff = {p.email for p in ctx.population.employees}
    for email, field in ((employee_email, "employee_email"), (specialist_email, "specialist_email")):
        if email not in staff:
            raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")
    if specialist_email == employee_email:
        raise RuleViolation("a specialist cannot handle their own leave", field="specialist_email", hint="reassign")
    if expected_end_date < start_date:
        raise RuleViolation("the leave ends before it starts", field="expected_end_date", hint="pick a later date")
    if leave_type == "parental_bonding":
        if event_date is None:
            raise RuleViolation("bonding leave needs the birth or placement date", field="event_date", hint="add it")
        if start_date > add_months(event_date, 12) - dt.timedelta(days=1) or start_date < event_date:
            raise RuleViolation(
                "bonding leave starts within 12 months after the birth or placement",
                field="start_date",
                hint=f"start between {event_date} and {add_months(event_date, 12)}",
            )
    for c in ctx.where(Case, employee_email=employee_email):
        if c.status in OPEN:
            raise Conflict(f"{employee_email} already has open case {c.id}", field="employee_email", hint="use it")
    return ctx.create(
        Case,
        employee_email=employee_email,
        employee_name=employee_name,
        leave_type=leave_type,
        schedule=schedule,
        start_date=start_date,
        expected_end_date=expected_end_date,
        event_date=event_date,
        hours_worked_12mo=hours_worked_12mo,
        specialist_email=specialist_email,
    )


def _case(ctx: Ctx, case_id: str, *allowed: CaseStatus) -> Case:
    case = ctx.get(Case, case_id, field="case_id")
    if case.status not in allowed:
        raise RuleViolation(
            f"case {case.id} is {case.status}", field="case_id", hint=f"it must be {' or '.join(allowed)}"
        )
    return case


@service.tool(
    intent="review the leave eligibility",
    write=True,
    example=first_example(Case, "case_id", where={"status": "submitted"}),
)
def review_eligibility(ctx: Ctx, case_id: CaseId) -> Case:
    """Decide FMLA eligibility (12 months of service, 1,250 hours worked in the last 12 months).

    An eligible case gets its certification requested, due in 15 days; an ineligible one is denied.

    Args:
        case_id: A submitted case.
    """
    case = _case(ctx, case_id, "submitted")
    person = next((p for p in ctx.population.employees if p.email == case.employee_email), None)
    hired = person.hire_date if person is not None else None
    tenure = hired is not None and add_months(hired, 12) <= case.start_date
    eligible = tenure and case.hours_worked_12mo >= MIN_HOURS_WORKED
    if not eligible:
        why = "under 12 months of service" if not tenure else f"under {MIN_HOURS_WORKED} hours worked"
        return ctx.update(case, eligible=False, status="denied", denial_reason=f"Not FMLA eligible: {why}.")
    ctx.create(
        Certification, case_id=case.id, kind=CERTS[case.leave_type], due_on=ctx.today() + dt.timedelta(days=DUE_DAYS)
    )
    return ctx.update(case, eligible=True, status="pending_certification")


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Certification, status="requested")
    return None if c is None else {"certification_id": c.id, "provider_name": "Dr. Ana Ruiz"}


@service.tool(intent="record the certification as received", write=True, example=_example_receive)
def receive_certification(
    ctx: Ctx, certification_id: CertificationId, provider_name: PersonName | None = None
) -> Certification:
    """Record that a requested (or insufficient) certification came in.

    Args:
        certification_id: The certification.
        provider_name: The provider who signed it (medical forms).
    """
    cert = ctx.get(Certification, certification_id, field="certification_id")
    if cert.status not in ("requested", "insufficient"):
        raise RuleViolation(f"certification {cert.id} is {cert.status}", field="certification_id", hint="no upload")
    if cert.kind.startswith("WH-380") and not provider_name:
        raise RuleViolation("a medical certification names its provider", field="provider_name", hint="add it")
    return ctx.update(cert, status="received", provider_name=provider_name, received_on=ctx.today())


@service.tool(
    intent="review the certification",
    write=True,
    example=first_example(Certification, "certification_id", where={"status": "received"}, sufficient=True),
)
def review_certification(
    ctx: Ctx, certification_id: CertificationId, sufficient: bool, note: Text = ""
) -> Certification:
    """Approve a received certification, or mark it insufficient with a 7-day cure period.

    Args:
        certification_id: The received certification.
        sufficient: Whether it supports the leave.
        note: What is missing (required when insufficient).
    """
    cert = ctx.get(Certification, certification_id, field="certification_id")
    if cert.status != "received":
        raise RuleViolation(f"certification {cert.id} is {cert.status}", field="certification_id", hint="wait")
    if sufficient:
        return ctx.update(cert, status="approved")
    if not note.strip():
        raise RuleViolation("say what is missing", field="note", hint="e.g. 'frequency of flare-ups not stated'")
    return ctx.update(cert, status="insufficient", note=note, due_on=ctx.today() + dt.timedelta(days=CURE_DAYS))


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Case, status="pending_certification"):
        if all(x.status == "approved" for x in ctx.where(Certification, case_id=c.id)):
            return {"case_id": c.id}
    return None


@service.tool(intent="approve the leave", write=True, example=_example_approve)
def approve_case(ctx: Ctx, case_id: CaseId) -> Case:
    """Approve an eligible case whose certifications are all approved, if its days fit the entitlement left.

    Args:
        case_id: A case pending certification.
    """
    case = _case(ctx, case_id, "pending_certification")
    open_certs = [c.kind for c in ctx.where(Certification, case_id=case.id) if c.status != "approved"]
    if open_certs:
        raise RuleViolation(
            f"certification not approved: {', '.join(open_certs)}",
            field="case_id",
            hint="review it with leavecases__review_certification",
        )
    if case.schedule != "intermittent":
        need = 8.0 * len(_weekdays(case.start_date, case.expected_end_date))
        left = _entitled(case.leave_type) - _used(ctx, case.employee_email) - _booked(ctx, case.employee_email)
        if need > left:
            raise RuleViolation(
                f"the leave needs {need:g} hours; {max(left, 0):g} are left in the rolling 12 months",
                field="case_id",
                hint="shorten it with leavecases__update_case",
            )
    return ctx.update(case, status="approved")


@service.tool(
    intent="deny the leave",
    write=True,
    destructive=True,
    example=first_example(
        Case, "case_id", where={"status": "pending_certification"}, reason="Certification not returned."
    ),
)
def deny_case(ctx: Ctx, case_id: CaseId, reason: Text) -> Case:
    """Deny a case under review, e.g. when the certification is not returned by its due date.

    Args:
        case_id: A submitted case or one pending certification.
        reason: Why.
    """
    case = _case(ctx, case_id, "submitted", "pending_certification")
    if not reason.strip():
        raise RuleViolation("a denial needs a reason", field="reason", hint="the employee is told why")
    return ctx.update(case, status="denied", denial_reason=reason)


@service.tool(
    intent="start the leave",
    write=True,
    example=first_example(Case, "case_id", where={"status": "approved", "schedule": "continuous"}),
)
def start_leave(ctx: Ctx, case_id: CaseId) -> Case:
    """Mark an approved continuous or reduced-schedule leave as started.

    Args:
        case_id: The approved case.
    """
    case = _case(ctx, case_id, "approved")
    if case.schedule == "intermittent":
        raise RuleViolation("intermittent leave is reported day by day", field="case_id", hint="log usage instead")
    return ctx.update(case, status="on_leave")


def _example_usage(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Case, status="approved", schedule="intermittent")
    return None if c is None else {"case_id": c.id, "date": max(c.start_date, ctx.today()).isoformat(), "hours": 4}


@service.tool(intent="log the intermittent leave", write=True, example=_example_usage)
def log_usage(ctx: Ctx, case_id: CaseId, date: Date, hours: Hours) -> Usage:
    """Report hours of intermittent leave taken on a day of an approved intermittent case.

    Args:
        case_id: The approved intermittent case.
        date: The day, within the case's dates.
        hours: Hours taken (up to 12).
    """
    case = _case(ctx, case_id, "approved")
    if case.schedule != "intermittent":
        raise RuleViolation("only intermittent cases log usage", field="case_id", hint="continuous leave is counted")
    if not case.start_date <= date <= case.expected_end_date:
        raise RuleViolation("the day is outside the case's dates", field="date", hint="extend the case first")
    if ctx.first(Usage, case_id=case.id, date=date) is not None:
        raise Conflict(f"usage on {date} is already logged", field="date", hint="one entry per day")
    left = _entitled(case.leave_type) - _used(ctx, case.employee_email) - _booked(ctx, case.employee_email)
    if hours > left:
        raise RuleViolation(f"only {max(left, 0):g} hours of entitlement are left", field="hours", hint="log fewer")
    return ctx.create(Usage, case_id=case.id, employee_email=case.employee_email, date=date, hours=hours)


def _example_return(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Case, status="on_leave"):
        if not c.fitness_for_duty_required:
            return {"case_id": c.id, "return_date": max(ctx.today(), c.start_date + dt.timedelta(days=1)).isoformat()}
    return None


@service.tool(intent="record the return to work", write=True, example=_example_return)
def record_return(ctx: Ctx, case_id: CaseId, return_date: Date) -> Case:
    """Record that the employee is back; the leave days taken are counted against the entitlement.

    An intermittent case simply ends. Returning from one's own serious health condition needs an approved
    fitness-for-duty certification when the case requires one.

    Args:
        case_id: A case on leave, or an approved intermittent case.
        return_date: The first day back at work.
    """
    case = _case(ctx, case_id, "on_leave", "approved")
    if case.status == "approved" and case.schedule != "intermittent":
        raise RuleViolation("the leave has not started", field="case_id", hint="start it, or cancel the case")
    if return_date <= case.start_date:
        raise RuleViolation("the return is not after the start", field="return_date", hint="check the date")
    if case.fitness_for_duty_required and not ctx.first(
        Certification, case_id=case.id, kind="fitness_for_duty", status="approved"
    ):
        raise RuleViolation(
            "a fitness-for-duty certification is required",
            field="case_id",
            hint="request it with leavecases__request_fitness_for_duty",
        )
    if case.schedule != "intermittent":
        for day in _weekdays(case.start_date, return_date - dt.timedelta(days=1)):
            ctx.create(Usage, case_id=case.id, employee_email=case.employee_email, date=day, hours=8.0)
    return ctx.update(case, status="returned", return_date=return_date)


@service.tool(
    intent="request the fitness-for-duty certification",
    write=True,
    example=first_example(Case, "case_id", where={"status": "on_leave", "fitness_for_duty_required": True}),
)
def request_fitness_for_duty(ctx: Ctx, case_id: CaseId) -> Certification:
    """Ask for the fitness-for-duty certification a return needs (own health leaves), due in 15 days.

    Args:
        case_id: An own-health case on leave.
    """
    case = _case(ctx, case_id, "on_leave")
    if case.leave_type != "fmla_own_health":
        raise RuleViolation("only own-health leaves need it", field="case_id", hint="record the return directly")
    if ctx.first(Certification, case_id=case.id, kind="fitness_for_duty") is not None:
        raise Conflict("it is already requested", field="case_id", hint="track that certification")
    ctx.update(case, fitness_for_duty_required=True)
    return ctx.create(
        Certification, case_id=case.id, kind="fitness_for_duty", due_on=ctx.today() + dt.timedelta(days=DUE_DAYS)
    )


@service.tool(
    intent="show the leave entitlement", example=lambda ctx: {"employee_email": ctx.population.employees[0].email}
)
def entitlement(ctx: Ctx, employee_email: Email, leave_type: LeaveType = "fmla_own_health") -> Entitlement:
    """An employee's FMLA hours used and left in the rolling 12 months.

    Args:
        employee_email: The employee.
        leave_type: The type (military caregiver leave has 26 weeks, the rest 12).
    """
    used = _used(ctx, employee_email)
    total = _entitled(leave_type)
    return Entitlement(
        employee_email=employee_email, entitled_hours=total, used_hours=used, remaining_hours=max(0.0, total - used)
    )


@service.tool(
    intent="extend the certification due date",
    write=True,
    example=first_example(Certification, "certification_id", where={"status": "requested"}, days=7),
)
def extend_certification(
    ctx: Ctx, certification_id: CertificationId, days: Annotated[int, Field(ge=1, le=DUE_DAYS)]
) -> Certification:
    """Give more time for a certification the employee is diligently trying to obtain (once, up to 15 days).

    Args:
        certification_id: A requested or insufficient certification.
        days: Days added to the due date.
    """
    cert = ctx.get(Certification, certification_id, field="certification_id")
    if cert.status not in ("requested", "insufficient"):
        raise RuleViolation(f"certification {cert.id} is {cert.status}", field="certification_id", hint="not due")
    if "extended" in cert.note:
        raise Conflict("the due date was already extended", field="certification_id", hint="deny the case instead")
    note = (cert.note + " " if cert.note else "") + f"(extended {days} days)"
    return ctx.update(cert, due_on=cert.due_on + dt.timedelta(days=days), note=note)


@service.tool(
    intent="remove the usage entry",
    write=True,
    destructive=True,
    example=first_example(Usage, "usage_id", match=lambda c, u: c.get(Case, u.case_id).status == "approved"),
)
def remove_usage(ctx: Ctx, usage_id: UsageId) -> Case:
    """Remove an intermittent usage entry reported by mistake (only while the case is approved).

    Args:
        usage_id: The usage entry.
    """
    use = ctx.get(Usage, usage_id, field="usage_id")
    case = ctx.get(Case, use.case_id)
    if case.status != "approved" or case.schedule != "intermittent":
        raise RuleViolation(f"case {case.id} is {case.status}", field="usage_id", hint="closed leave stays counted")
    ctx.delete(use)
    return case


class CaseSummary(Value):
    """Where a case stands."""

    case_id: CaseId
    """The case."""
    status: CaseStatus
    """Its status."""
    certifications_open: int
    """Certifications not yet approved."""
    next_due_on: dt.date | None
    """The earliest due date of an open certification."""
    hours_used: float
    """Hours of leave logged under the case."""
    entitlement_left_hours: float
    """The employee's entitlement left in the rolling 12 months."""


@service.tool(intent="summarize the leave case", example=first_example(Case, "case_id"))
def case_summary(ctx: Ctx, case_id: CaseId) -> CaseSummary:
    """A case's status, open certifications with the next due date, hours used and entitlement left.

    Args:
        case_id: The case.
    """
    case = ctx.get(Case, case_id, field="case_id")
    pending = [c for c in ctx.where(Certification, case_id=case.id) if c.status != "approved"]
    return CaseSummary(
        case_id=case.id,
        status=case.status,
        certifications_open=len(pending),
        next_due_on=min((c.due_on for c in pending), default=None),
        hours_used=sum(u.hours for u in ctx.where(Usage, case_id=case.id)),
        entitlement_left_hours=max(0.0, _entitled(case.leave_type) - _used(ctx, case.employee_email)),
    )


# -- seed -------------------------------------------------------------------------------------

PLAN: tuple[tuple[LeaveType, Schedule, CaseStatus, int, int], ...] = (
    ("fmla_own_health", "continuous", "on_leave", -20, 30),
    ("parental_bonding", "continuous", "approved", 10, 70),
    ("fmla_family_care", "intermittent", "approved", -60, 120),
    ("fmla_own_health", "continuous", "pending_certification", 7, 20),
    ("fmla_family_care", "continuous", "submitted", 21, 14),
    ("parental_bonding", "continuous", "returned", -200, 55),
    ("fmla_own_health", "reduced", "denied", -30, 40),
    ("military_caregiver", "continuous", "pending_certification", 30, 90),
    ("fmla_family_care", "continuous", "canceled", -10, 10),
    ("fmla_own_health", "continuous", "on_leave", -5, 25),
    ("fmla_family_care", "intermittent", "pending_certification", 5, 90),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Employees' leave cases in every status with certifications, intermittent usage and past leave taken."""
    pop = s.population
    specialists = pop.staff("People", fallback=2)
    others = [p for p in pop.employees if p not in specialists]
    today = s.now.date()
    for k, (ltype, sched, status, offset, length) in enumerate(PLAN):
        p = others[(k * 3) % len(others)]
        start = today + dt.timedelta(days=offset)
        end = start + dt.timedelta(days=length)
        created = s.ago(days=max(1, 14 - offset))
        reviewed = status not in ("submitted", "canceled")
        case = s.create(
            Case,
            employee_email=p.email,
            employee_name=p.name,
            leave_type=ltype,
            schedule=sched,
            start_date=start,
            expected_end_date=end,
            event_date=start - dt.timedelta(days=5) if ltype == "parental_bonding" else None,
            hours_worked_12mo=900 if status == "denied" else 1700 + 20 * k,
            eligible=(status != "denied") if reviewed else None,
            status=status,
            fitness_for_duty_required=k == 0,
            return_date=end + dt.timedelta(days=1) if status == "returned" else None,
            specialist_email=specialists[k % len(specialists)].email,
            denial_reason="Not FMLA eligible: under 1250 hours worked." if status == "denied" else None,
            created_at=created,
            updated_at=created,
        )
        _seed_certs(s, case, k, created)
        if status == "returned":
            for day in _weekdays(start, end):
                s.create(Usage, case_id=case.id, employee_email=p.email, date=day, hours=8.0)
        if sched == "intermittent" and status == "approved":
            for j in range(6):
                s.create(
                    Usage,
                    case_id=case.id,
                    employee_email=p.email,
                    date=_weekdays(start, today)[j * 5],
                    hours=(4.0, 8.0, 2.0)[j % 3],
                )


def _seed_certs(s: SeedContext, case: Case, k: int, created: dt.datetime) -> None:
    if case.status in ("submitted", "denied", "canceled"):
        return
    asked = created.date() + dt.timedelta(days=1)
    status: CertStatus = "approved"
    if case.status == "pending_certification":
        status = "received" if k == 3 else ("approved" if k == 7 else "requested")
    medical = CERTS[case.leave_type].startswith("WH-380")
    s.create(
        Certification,
        case_id=case.id,
        kind=CERTS[case.leave_type],
        status=status,
        due_on=asked + dt.timedelta(days=DUE_DAYS),
        provider_name=("Dr. Priya Natarajan" if medical else None) if status != "requested" else None,
        received_on=asked + dt.timedelta(days=6) if status != "requested" else None,
        created_at=created,
    )
