"""Shieldline Comp: workers' compensation insurance for the home company's employees.

Modeled on the Pie Insurance / NEXT Insurance workers' compensation APIs: a
policy is quoted, bound (only with at least one NCCI class code) and active
over its term, or cancelled; each class code carries a rate per $100 of
payroll and an estimated annual payroll, and the premium is payroll / 100 ×
rate. Pay-as-you-go payroll reports are filed per class code and month, only
on an active policy, within its term and once per class code and period. A
premium audit is scheduled at most once per open policy, goes scheduled →
in_progress → completed, and its audited payroll gives the final premium and
the adjustment against the reported premium. A first report of injury (FROI)
names an employee, an injury date not in the future and inside an active
policy's term; a claim is filed once per injury and moves open → accepted or
denied (with a reason) → closed; only accepted claims take indemnity and
medical payments (never above the reserve) and return-to-work status
(off_work → modified_duty → full_duty); a claim closes only when denied or
the employee is back at full duty.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "workerscomp",
    title="Shieldline Comp",
    category="workers_comp",
    modeled_on="Pie Insurance / NEXT Insurance workers' compensation API: policies by NCCI class code, "
    "pay-as-you-go payroll reports, premium audits, first reports of injury, claims with return-to-work",
    description="Workers' compensation for the home company: the policy and its class codes with rates per "
    "$100 of payroll, monthly payroll reports and the premium they bill, year-end premium audits, first "
    "reports of injury by employees, and the claims that follow with payments and return-to-work status.",
)

PolicyId = Annotated[str, IdOf("workerscomp.policy")]
ClassCodeId = Annotated[str, IdOf("workerscomp.class_code")]
ReportId = Annotated[str, IdOf("workerscomp.payroll_report")]
AuditId = Annotated[str, IdOf("workerscomp.audit")]
InjuryId = Annotated[str, IdOf("workerscomp.injury")]
ClaimId = Annotated[str, IdOf("workerscomp.claim")]

NcciCode = Annotated[str, StringConstraints(pattern=r"^\d{4}$")]
"""A four-digit NCCI class code (8810: clerical office employees)."""
Rate = Annotated[float, Field(gt=0, le=100)]
"""Premium rate in dollars per $100 of payroll."""
UsState = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
"""A two-letter US state code."""

PolicyStatus = Literal["quoted", "active", "cancelled", "expired"]
AuditStatus = Literal["scheduled", "in_progress", "completed"]
InjuryType = Literal["strain", "laceration", "fracture", "burn", "contusion", "repetitive_motion", "other"]
BodyPart = Literal["back", "shoulder", "hand", "wrist", "knee", "ankle", "head", "eye", "multiple"]
InjuryStatus = Literal["reported", "claim_filed", "record_only"]
ClaimStatus = Literal["open", "accepted", "denied", "closed"]
WorkStatus = Literal["off_work", "modified_duty", "full_duty"]
PaymentKind = Literal["medical", "indemnity"]

CARRIERS = ("Pie Insurance", "NEXT Insurance", "Employers Holdings", "Hartford")
CLASS_CODES: tuple[tuple[str, str, float], ...] = (
    ("8810", "Clerical office employees", 0.12),
    ("8742", "Salespersons, outside", 0.35),
    ("8601", "Engineers, consulting", 0.28),
    ("7380", "Drivers, chauffeurs and helpers", 4.10),
    ("8018", "Stores, wholesale", 2.05),
)


class Policy(Timestamped):
    """A workers' compensation policy over a term."""

    id: PolicyId
    policy_number: Annotated[str, StringConstraints(pattern=r"^WC-\d{6}$")]
    """The carrier's policy number."""
    carrier: Title
    """The insurance carrier."""
    state: UsState
    """The governing state."""
    effective_date: Date
    """The first day of the term."""
    expiration_date: Date
    """The last day of the term."""
    status: PolicyStatus = "quoted"
    """quoted, active (bound), cancelled or expired."""
    contact_email: Email
    """The employee who administers the policy."""
    cancel_reason: Text | None = None
    """Why it was cancelled."""


class ClassCode(Timestamped):
    """A class code on a policy: a kind of work, its rate and estimated payroll."""

    id: ClassCodeId
    policy_id: PolicyId
    """The policy."""
    code: NcciCode
    """The NCCI class code."""
    description: Title
    """What work it covers."""
    rate: Rate
    """Dollars of premium per $100 of payroll."""
    estimated_payroll_cents: Cents = 0
    """Estimated annual payroll under this code."""


class PayrollReport(Timestamped):
    """A pay-as-you-go payroll report for one class code and month, and the premium it bills."""

    id: ReportId
    policy_id: PolicyId
    """The policy."""
    class_code_id: ClassCodeId
    """The class code."""
    period_start: Date
    """The first day of the month reported."""
    payroll_cents: Cents
    """Gross payroll for the period under the code."""
    premium_cents: Cents
    """Premium billed: payroll / 100 × rate."""


class Audit(Timestamped):
    """A premium audit of a policy's payroll."""

    id: AuditId
    policy_id: PolicyId
    """The policy audited."""
    status: AuditStatus = "scheduled"
    """scheduled, in_progress or completed."""
    scheduled_for: Date
    """When the auditor comes."""
    reported_premium_cents: Cents = 0
    """Premium billed by payroll reports (set on completion)."""
    audited_premium_cents: Cents | None = None
    """Premium on audited payroll."""
    adjustment_cents: int | None = None
    """Audited minus reported premium: positive is owed, negative refunded."""


class Injury(Timestamped):
    """A first report of injury (FROI) by an employee."""

    id: InjuryId
    employee_email: Email
    """The injured employee."""
    employee_name: PersonName
    """Their name."""
    injury_date: Date
    """When it happened."""
    injury_type: InjuryType
    """strain, laceration, fracture, burn, contusion, repetitive_motion or other."""
    body_part: BodyPart
    """The body part injured."""
    description: Text
    """What happened."""
    policy_id: PolicyId
    """The policy in force that day."""
    status: InjuryStatus = "reported"
    """reported, claim_filed, or record_only (no claim: first aid only)."""
    reported_late: bool = False
    """Reported more than 3 days after the injury."""


class Claim(Timestamped):
    """A workers' compensation claim following an injury."""

    id: ClaimId
    claim_number: Annotated[str, StringConstraints(pattern=r"^CLM-\d{6}$")]
    """The carrier's claim number."""
    injury_id: InjuryId
    """The injury."""
    policy_id: PolicyId
    """The policy."""
    employee_email: Email
    """The injured employee."""
    status: ClaimStatus = "open"
    """open, accepted, denied or closed."""
    denial_reason: Text | None = None
    """Why it was denied."""
    reserve_cents: Cents
    """Money reserved for the claim."""
    medical_paid_cents: Cents = 0
    """Medical payments made."""
    indemnity_paid_cents: Cents = 0
    """Lost-wage payments made."""
    work_status: WorkStatus = "off_work"
    """off_work, modified_duty or full_duty."""
    return_to_work_date: Date | None = None
    """When the employee returned (modified or full duty)."""
    closed_at: DateTime | None = None
    """When it was closed."""


class PremiumSummary(Value):
    """A policy's estimated and billed premium."""

    policy_id: PolicyId
    """The policy."""
    estimated_premium_cents: int
    """Estimated annual premium over its class codes."""
    billed_premium_cents: int
    """Premium billed by payroll reports."""
    reports: int
    """Payroll reports filed."""
    open_claims: int
    """Claims not closed or denied."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str, field: str) -> Any:
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")
    return person


def _premium(payroll_cents: int, rate: float) -> int:
    return round(payroll_cents * rate / 100)


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    _employee(ctx, new.contact_email, "contact_email")


policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=False,
    filters=("status", "carrier", "state", "policy_number"),
    update=("contact_email",),
    delete=False,
    guard_update=_guard_policy,
)
class_codes = service.resource(
    ClassCode,
    name="class_code",
    plural="class_codes",
    prefix="cc",
    create=False,
    filters=("policy_id", "code"),
    search=("description",),
    update=("estimated_payroll_cents",),
    delete=False,
    title="class code",
)
reports = service.resource(
    PayrollReport,
    name="payroll_report",
    plural="payroll_reports",
    prefix="pr",
    create=False,
    filters=("policy_id", "class_code_id", "period_start"),
    delete=False,
    title="payroll report",
)
audits = service.resource(
    Audit,
    name="audit",
    plural="audits",
    prefix="aud",
    create=False,
    filters=("policy_id", "status"),
    delete=False,
    transitions={"start": Transition("status", ("scheduled",), "in_progress", "start the premium audit")},
    title="premium audit",
)
injuries = service.resource(
    Injury,
    name="injury",
    plural="injuries",
    prefix="inj",
    create=False,
    filters=("employee_email", "status", "injury_type", "body_part", "policy_id"),
    search=("description",),
    update=("description",),
    delete=False,
    transitions={
        "record_only": Transition(
            "status",
            ("reported",),
            "record_only",
            "keep the injury as record only",
            description="Keep a reported injury on record without a claim (first aid only).",
        )
    },
    title="first report of injury",
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("status", "employee_email", "policy_id", "work_status", "injury_id"),
    delete=False,
    transitions={"accept": Transition("status", ("open",), "accepted", "accept the claim")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_quote(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "carrier": "NEXT Insurance",
        "state": "CA",
        "effective_date": (ctx.today() + dt.timedelta(days=10)).isoformat(),
        "contact_email": ctx.population.employees[0].email,
    }


@service.tool(intent="quote a workers' compensation policy", write=True, example=_example_quote)
def quote_policy(ctx: Ctx, carrier: Title, state: UsState, effective_date: Date, contact_email: Email) -> Policy:
    """Request a quote: a new policy for a one-year term from the effective date.

    Args:
        carrier: The insurance carrier.
        state: The governing US state (two letters).
        effective_date: The first day of the term (not in the past).
        contact_email: The employee who administers the policy.
    """
    _employee(ctx, contact_email, "contact_email")
    if effective_date < ctx.today():
        raise RuleViolation("effective_date is in the past", field="effective_date", hint="pick today or later")
    n = ctx.next_number(Policy, "policy_number")
    return ctx.create(
        Policy,
        policy_number=f"WC-{710000 + n:06d}",
        carrier=carrier,
        state=state,
        effective_date=effective_date,
        expiration_date=add_months(effective_date, 12) - dt.timedelta(days=1),
        contact_email=contact_email,
    )


@service.tool(
    intent="add a class code to the policy",
    write=True,
    example=first_example(
        Policy, "policy_id", where={"status": "quoted"}, code="8742", description="Salespersons, outside", rate=0.35
    ),
)
def add_class_code(
    ctx: Ctx,
    policy_id: PolicyId,
    code: NcciCode,
    description: Title,
    rate: Rate,
    estimated_payroll_cents: Cents = 0,
) -> ClassCode:
    """Add a class code to a quoted or active policy; each code appears once per policy.

    Args:
        policy_id: The policy.
        code: The four-digit NCCI class code.
        description: What work it covers.
        rate: Dollars of premium per $100 of payroll.
        estimated_payroll_cents: Estimated annual payroll under the code.
    """
    policy = ctx.get(Policy, policy_id, field="policy_id")
    if policy.status not in ("quoted", "active"):
        raise RuleViolation(
            f"policy {policy.policy_number} is {policy.status}", field="policy_id", hint="use a live policy"
        )
    if ctx.first(ClassCode, policy_id=policy.id, code=code) is not None:
        raise Conflict(f"class code {code} is already on the policy", field="code", hint="update its payroll instead")
    return ctx.create(
        ClassCode,
        policy_id=policy.id,
        code=code,
        description=description,
        rate=rate,
        estimated_payroll_cents=estimated_payroll_cents,
    )


@service.tool(
    intent="bind the policy", write=True, example=first_example(Policy, "policy_id", where={"status": "quoted"})
)
def bind_policy(ctx: Ctx, policy_id: PolicyId) -> Policy:
    """Bind a quoted policy: it becomes active. It needs a class code, and no other active policy in its state.

    Args:
        policy_id: The policy.
    """
    policy = ctx.get(Policy, policy_id, field="policy_id")
    if policy.status != "quoted":
        raise RuleViolation(f"policy is {policy.status}, not quoted", field="policy_id", hint="bind a quoted policy")
    if not ctx.where(ClassCode, policy_id=policy.id):
        raise RuleViolation(
            "a policy needs a class code to bind",
            field="policy_id",
            hint="add one with workerscomp__add_class_code",
        )
    for other in ctx.where(Policy, state=policy.state, status="active"):
        if other.effective_date <= policy.expiration_date and policy.effective_date <= other.expiration_date:
            raise Conflict(
                f"policy {other.policy_number} is already active in {policy.state} over that term",
                field="policy_id",
                hint="cancel it first with workerscomp__cancel_policy",
            )
    return ctx.update(policy, status="active")


@service.tool(
    intent="cancel the policy",
    write=True,
    destructive=True,
    example=first_example(Policy, "policy_id", where={"status": "quoted"}, reason="Moved to another carrier."),
)
def cancel_policy(ctx: Ctx, policy_id: PolicyId, reason: Text) -> Policy:
    """Cancel a quoted or active policy; it cannot be cancelled while a claim on it is open or accepted.

    Args:
        policy_id: The policy.
        reason: Why it is cancelled.
    """
    policy = ctx.get(Policy, policy_id, field="policy_id")
    if policy.status not in ("quoted", "active"):
        raise RuleViolation(f"policy is already {policy.status}", field="policy_id", hint="nothing to cancel")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    live = [c for c in ctx.where(Claim, policy_id=policy.id) if c.status in ("open", "accepted")]
    if live:
        raise Conflict(
            f"claim {live[0].claim_number} is still {live[0].status}",
            field="policy_id",
            hint="close its claims first",
        )
    return ctx.update(policy, status="cancelled", cancel_reason=reason.strip())


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    for cc in ctx.scan(ClassCode):
        policy = ctx.get(Policy, cc.policy_id)
        if policy.status != "active":
            continue
        month = ctx.today().replace(day=1)
        if ctx.first(PayrollReport, class_code_id=cc.id, period_start=month) is None:
            return {"class_code_id": cc.id, "period_start": month.isoformat(), "payroll_cents": 4_200_000}
    return None


@service.tool(intent="report payroll for the class code", write=True, example=_example_report)
def report_payroll(ctx: Ctx, class_code_id: ClassCodeId, period_start: Date, payroll_cents: Cents) -> PayrollReport:
    """File a pay-as-you-go payroll report for a month; the premium is payroll / 100 × the code's rate.

    Args:
        class_code_id: The class code on an active policy.
        period_start: The first day of the month reported (inside the policy term, not in the future).
        payroll_cents: Gross payroll for the month under the code.
    """
    cc = ctx.get(ClassCode, class_code_id, field="class_code_id")
    policy = ctx.get(Policy, cc.policy_id)
    if policy.status != "active":
        raise RuleViolation(
            f"policy {policy.policy_number} is {policy.status}",
            field="class_code_id",
            hint="report on an active policy",
        )
    if period_start.day != 1:
        raise RuleViolation(
            "a period starts on the 1st of a month", field="period_start", hint="use the month's first day"
        )
    if (
        period_start > ctx.today()
        or period_start < policy.effective_date.replace(day=1)
        or period_start > policy.expiration_date
    ):
        raise RuleViolation(
            f"{period_start} is outside the policy term or in the future",
            field="period_start",
            hint=f"report a past month between {policy.effective_date} and {policy.expiration_date}",
        )
    if ctx.first(PayrollReport, class_code_id=cc.id, period_start=period_start) is not None:
        raise Conflict(
            f"payroll for {period_start} is already reported", field="period_start", hint="report another month"
        )
    return ctx.create(
        PayrollReport,
        policy_id=policy.id,
        class_code_id=cc.id,
        period_start=period_start,
        payroll_cents=payroll_cents,
        premium_cents=_premium(payroll_cents, cc.rate),
    )


@service.tool(
    intent="schedule a premium audit",
    write=True,
    example=first_example(Policy, "policy_id", where={"status": "expired"}, scheduled_for="2027-01-15"),
)
def schedule_audit(ctx: Ctx, policy_id: PolicyId, scheduled_for: Date) -> Audit:
    """Schedule a premium audit of an active, cancelled or expired policy; one open audit per policy.

    Args:
        policy_id: The policy.
        scheduled_for: When the audit happens (not in the past).
    """
    policy = ctx.get(Policy, policy_id, field="policy_id")
    if policy.status == "quoted":
        raise RuleViolation("a quoted policy has nothing to audit", field="policy_id", hint="bind it first")
    if scheduled_for < ctx.today():
        raise RuleViolation("scheduled_for is in the past", field="scheduled_for", hint="pick today or later")
    if any(a.status != "completed" for a in ctx.where(Audit, policy_id=policy.id)):
        raise Conflict("the policy already has an open audit", field="policy_id", hint="complete it first")
    return ctx.create(Audit, policy_id=policy.id, scheduled_for=scheduled_for)


@service.tool(
    intent="complete the premium audit",
    write=True,
    example=first_example(Audit, "audit_id", where={"status": "in_progress"}, audited_payroll_cents=90_000_000),
)
def complete_audit(ctx: Ctx, audit_id: AuditId, audited_payroll_cents: Cents) -> Audit:
    """Complete an in-progress audit: audited payroll at the policy's average rate gives the final premium.

    Args:
        audit_id: The audit.
        audited_payroll_cents: The payroll the auditor verified for the term.
    """
    audit = ctx.get(Audit, audit_id, field="audit_id")
    if audit.status != "in_progress":
        raise RuleViolation(f"audit is {audit.status}", field="audit_id", hint="start it with workerscomp__start_audit")
    codes = ctx.where(ClassCode, policy_id=audit.policy_id)
    weight = sum(c.estimated_payroll_cents for c in codes)
    rate = (
        sum(c.rate * c.estimated_payroll_cents for c in codes) / weight
        if weight
        else sum(c.rate for c in codes) / max(len(codes), 1)
    )
    reported = sum(r.premium_cents for r in ctx.where(PayrollReport, policy_id=audit.policy_id))
    audited = _premium(audited_payroll_cents, rate)
    return ctx.update(
        audit,
        status="completed",
        reported_premium_cents=reported,
        audited_premium_cents=audited,
        adjustment_cents=audited - reported,
    )


def _example_injury(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "employee_email": ctx.population.employees[2].email,
        "injury_date": (ctx.today() - dt.timedelta(days=1)).isoformat(),
        "injury_type": "strain",
        "body_part": "back",
        "description": "Lifted a box of printer paper in the supply room.",
    }


@service.tool(intent="file a first report of injury", write=True, example=_example_injury)
def report_injury(
    ctx: Ctx,
    employee_email: Email,
    injury_date: Date,
    injury_type: InjuryType,
    body_part: BodyPart,
    description: Text,
) -> Injury:
    """File a first report of injury (FROI) for an employee, under the policy active on the injury date.

    Args:
        employee_email: The injured employee.
        injury_date: When it happened (not in the future).
        injury_type: strain, laceration, fracture, burn, contusion, repetitive_motion or other.
        body_part: The body part injured.
        description: What happened.
    """
    person = _employee(ctx, employee_email, "employee_email")
    if injury_date > ctx.today():
        raise RuleViolation("injury_date is in the future", field="injury_date", hint="give the day it happened")
    if not description.strip():
        raise RuleViolation("a first report needs a description", field="description", hint="say what happened")
    policy = next(
        (p for p in ctx.where(Policy, status="active") if p.effective_date <= injury_date <= p.expiration_date),
        None,
    )
    if policy is None:
        raise RuleViolation(
            f"no active policy covers {injury_date}", field="injury_date", hint="bind a policy that covers the date"
        )
    for other in ctx.where(Injury, employee_email=employee_email, injury_date=injury_date):
        if other.body_part == body_part:
            raise Conflict(f"injury {other.id} already reports this", field="employee_email", hint="update it instead")
    return ctx.create(
        Injury,
        employee_email=employee_email,
        employee_name=person.name,
        injury_date=injury_date,
        injury_type=injury_type,
        body_part=body_part,
        description=description.strip(),
        policy_id=policy.id,
        reported_late=(ctx.today() - injury_date).days > 3,
    )


@service.tool(
    intent="file a claim for the injury",
    write=True,
    example=first_example(Injury, "injury_id", where={"status": "reported"}, reserve_cents=500_000),
)
def file_claim(ctx: Ctx, injury_id: InjuryId, reserve_cents: Cents) -> Claim:
    """Open a claim for a reported injury (one claim per injury) with an initial reserve.

    Args:
        injury_id: The injury.
        reserve_cents: Money reserved for the claim (more than zero).
    """
    injury = ctx.get(Injury, injury_id, field="injury_id")
    if injury.status != "reported":
        raise Conflict(
            f"injury is {injury.status}", field="injury_id", hint="a claim is filed once, for a reported injury"
        )
    if reserve_cents <= 0:
        raise RuleViolation("a reserve must be positive", field="reserve_cents", hint="estimate the claim's cost")
    n = ctx.next_number(Claim, "claim_number")
    ctx.update(injury, status="claim_filed")
    return ctx.create(
        Claim,
        claim_number=f"CLM-{310000 + n:06d}",
        injury_id=injury.id,
        policy_id=injury.policy_id,
        employee_email=injury.employee_email,
        reserve_cents=reserve_cents,
    )


@service.tool(
    intent="deny the claim",
    write=True,
    example=first_example(
        Claim, "claim_id", where={"status": "open"}, reason="Injury did not arise out of employment."
    ),
)
def deny_claim(ctx: Ctx, claim_id: ClaimId, reason: Text) -> Claim:
    """Deny an open claim, with a reason.

    Args:
        claim_id: The claim.
        reason: Why it is denied.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "open":
        raise RuleViolation(f"claim is {claim.status}", field="claim_id", hint="only open claims are denied")
    if not reason.strip():
        raise RuleViolation("a denial needs a reason", field="reason", hint="say why")
    return ctx.update(claim, status="denied", denial_reason=reason.strip())


@service.tool(
    intent="record a payment on the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "accepted"}, kind="medical", amount_cents=100),
)
def record_payment(ctx: Ctx, claim_id: ClaimId, kind: PaymentKind, amount_cents: Cents) -> Claim:
    """Pay medical or indemnity (lost wages) on an accepted claim; payments never exceed the reserve.

    Args:
        claim_id: The claim.
        kind: medical or indemnity.
        amount_cents: The amount (more than zero).
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "accepted":
        raise RuleViolation(f"claim is {claim.status}", field="claim_id", hint="accept it first")
    if amount_cents <= 0:
        raise RuleViolation("a payment must be positive", field="amount_cents", hint="give an amount")
    paid = claim.medical_paid_cents + claim.indemnity_paid_cents
    if paid + amount_cents > claim.reserve_cents:
        raise RuleViolation(
            f"payments would exceed the reserve ({claim.reserve_cents - paid} cents left)",
            field="amount_cents",
            hint="pay at most what is left of the reserve",
        )
    if kind == "medical":
        return ctx.update(claim, medical_paid_cents=claim.medical_paid_cents + amount_cents)
    return ctx.update(claim, indemnity_paid_cents=claim.indemnity_paid_cents + amount_cents)


ORDER: dict[str, int] = {"off_work": 0, "modified_duty": 1, "full_duty": 2}


@service.tool(
    intent="record the employee's return to work",
    write=True,
    example=first_example(
        Claim, "claim_id", where={"status": "accepted", "work_status": "off_work"}, work_status="modified_duty"
    ),
)
def return_to_work(ctx: Ctx, claim_id: ClaimId, work_status: WorkStatus, on: Date | None = None) -> Claim:
    """Move an accepted claim's employee forward: off_work → modified_duty → full_duty.

    Args:
        claim_id: The claim.
        work_status: modified_duty or full_duty, past the current status.
        on: The day they returned (default today; not in the future, not before the injury).
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "accepted":
        raise RuleViolation(f"claim is {claim.status}", field="claim_id", hint="accept it first")
    if ORDER[work_status] <= ORDER[claim.work_status]:
        raise RuleViolation(
            f"the employee is already {claim.work_status}", field="work_status", hint="move to a later status"
        )
    day = on or ctx.today()
    injury = ctx.get(Injury, claim.injury_id)
    if day > ctx.today() or day < injury.injury_date:
        raise RuleViolation("the return date is in the future or before the injury", field="on", hint="give a real day")
    return ctx.update(claim, work_status=work_status, return_to_work_date=claim.return_to_work_date or day)


@service.tool(
    intent="close the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "denied"}),
)
def close_claim(ctx: Ctx, claim_id: ClaimId) -> Claim:
    """Close a denied claim, or an accepted one whose employee is back at full duty.

    Args:
        claim_id: The claim.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status == "accepted" and claim.work_status != "full_duty":
        raise RuleViolation(
            f"the employee is still {claim.work_status}",
            field="claim_id",
            hint="record full duty with workerscomp__return_to_work first",
        )
    if claim.status not in ("accepted", "denied"):
        raise RuleViolation(f"claim is {claim.status}", field="claim_id", hint="accept or deny it first")
    return ctx.update(claim, status="closed", closed_at=ctx.now())


@service.tool(intent="show the policy's premium", example=first_example(Policy, "policy_id"))
def premium_summary(ctx: Ctx, policy_id: PolicyId) -> PremiumSummary:
    """A policy's estimated annual premium, premium billed by reports, and its open claims.

    Args:
        policy_id: The policy.
    """
    policy = ctx.get(Policy, policy_id, field="policy_id")
    codes = ctx.where(ClassCode, policy_id=policy.id)
    filed = ctx.where(PayrollReport, policy_id=policy.id)
    return PremiumSummary(
        policy_id=policy.id,
        estimated_premium_cents=sum(_premium(c.estimated_payroll_cents, c.rate) for c in codes),
        billed_premium_cents=sum(r.premium_cents for r in filed),
        reports=len(filed),
        open_claims=sum(c.status in ("open", "accepted") for c in ctx.where(Claim, policy_id=policy.id)),
    )


# -- seed -------------------------------------------------------------------------------------

INJURIES: tuple[tuple[InjuryType, BodyPart, str], ...] = (
    ("strain", "back", "Lifted a server chassis in the data room without help."),
    ("repetitive_motion", "wrist", "Wrist pain from months of data entry."),
    ("laceration", "hand", "Cut by a box cutter while unpacking deliveries."),
    ("contusion", "knee", "Slipped on a wet floor in the kitchen."),
    ("fracture", "ankle", "Fell from a step ladder in the stock room."),
    ("burn", "hand", "Burned by the break room kettle."),
    ("strain", "shoulder", "Shoulder strain moving a filing cabinet."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """An active policy with class codes and monthly reports, a quoted and a cancelled one, audits, injuries, claims."""
    admin = s.population.staff("HR", "People", "Finance", fallback=3)[0].email
    start = (s.now - dt.timedelta(days=200)).date().replace(day=1)
    old_start = add_months(start, -12)
    terms: tuple[tuple[str, PolicyStatus, dt.date, int], ...] = (
        ("CA", "active", start, 215),
        ("CA", "cancelled", old_start, 580),
        ("NY", "quoted", (s.now + dt.timedelta(days=30)).date(), 3),
        ("TX", "expired", add_months(start, -24), 950),
    )
    active, cancelled, quoted, _expired = (
        s.create(
            Policy,
            policy_number=f"WC-{700001 + k:06d}",
            carrier=CARRIERS[(0, 2, 1, 3)[k]],
            state=state,
            effective_date=begin,
            expiration_date=add_months(begin, 12) - dt.timedelta(days=1),
            status=status,
            contact_email=admin,
            cancel_reason="Replaced by a pay-as-you-go policy." if status == "cancelled" else None,
            created_at=s.ago(days=age),
        )
        for k, (state, status, begin, age) in enumerate(terms)
    )
    s.create(ClassCode, policy_id=quoted.id, code="8810", description="Clerical office employees", rate=0.15)
    for code, desc, rate in CLASS_CODES:
        payroll = s.rng.randint(20, 300) * 1_000_000
        cc = s.create(
            ClassCode, policy_id=active.id, code=code, description=desc, rate=rate, estimated_payroll_cents=payroll
        )
        month = start
        while month < s.now.date().replace(day=1):
            pay = payroll // 12 + s.rng.randint(-50, 50) * 10_000
            s.create(
                PayrollReport,
                policy_id=active.id,
                class_code_id=cc.id,
                period_start=month,
                payroll_cents=pay,
                premium_cents=_premium(pay, rate),
            )
            month = (month + dt.timedelta(days=32)).replace(day=1)
    s.create(
        Audit,
        policy_id=cancelled.id,
        status="completed",
        scheduled_for=start + dt.timedelta(days=40),
        reported_premium_cents=1_250_000,
        audited_premium_cents=1_410_000,
        adjustment_cents=160_000,
    )
    s.create(Audit, policy_id=active.id, status="in_progress", scheduled_for=s.now.date())
    s.create(Audit, policy_id=cancelled.id, scheduled_for=(s.now + dt.timedelta(days=14)).date())
    _seed_injuries(s, active)


def _seed_injuries(s: SeedContext, policy: Policy) -> None:
    people = s.population.employees[3 : 3 + len(INJURIES)]
    outcomes: tuple[tuple[InjuryStatus, ClaimStatus | None, WorkStatus], ...] = (
        ("claim_filed", "open", "off_work"),
        ("claim_filed", "accepted", "off_work"),
        ("claim_filed", "accepted", "modified_duty"),
        ("claim_filed", "closed", "full_duty"),
        ("claim_filed", "denied", "off_work"),
        ("record_only", None, "full_duty"),
        ("reported", None, "off_work"),
    )
    for k, (p, (kind, part, text), (istatus, cstatus, work)) in enumerate(
        zip(people, INJURIES, outcomes, strict=False)
    ):
        day = (s.now - dt.timedelta(days=12 + 17 * k if k < 6 else 1)).date()
        injury = s.create(
            Injury,
            employee_email=p.email,
            employee_name=p.name,
            injury_date=day,
            injury_type=kind,
            body_part=part,
            description=text,
            policy_id=policy.id,
            status=istatus,
            reported_late=k == 4,
            created_at=s.ago(days=11 + 17 * k if k < 6 else 0),
        )
        if cstatus is None:
            continue
        paid = 0 if cstatus in ("open", "denied") else 150_000 * (k + 1)
        s.create(
            Claim,
            claim_number=f"CLM-{300001 + k:06d}",
            injury_id=injury.id,
            policy_id=policy.id,
            employee_email=p.email,
            status=cstatus,
            denial_reason="Injury happened off the premises, outside work hours." if cstatus == "denied" else None,
            reserve_cents=2_500_000,
            medical_paid_cents=paid,
            indemnity_paid_cents=paid // 2,
            work_status=work,
            return_to_work_date=day + dt.timedelta(days=9) if work != "off_work" else None,
            closed_at=s.ago(days=20) if cstatus == "closed" else None,
            created_at=s.ago(days=10 + 17 * k),
        )
