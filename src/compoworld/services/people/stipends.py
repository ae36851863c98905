"""Perkwell Stipends: lifestyle spending accounts for the home company's employees.

Modeled on the Forma lifestyle benefits API: stipend programs (wellness,
learning, remote_work, family, commuter) give an allowance per period
(monthly, quarterly or annual) for eligible categories, optionally rolling
unused money into the next period; a program goes draft → active → archived
and enrolls employees (once each, only of its departments when it names
some) only while active. Claims are submitted by an enrolled employee for a
purchase in an eligible category, not in the future nor before enrollment,
with a receipt above $75, once per merchant, amount and day; they move
submitted → approved → reimbursed, or info_requested (then resubmitted with a
receipt), or rejected with a reason. A claim is approved only while the
period of its purchase has that much balance left; the balance is the
allowance (plus last period's unused allowance when the program rolls over)
minus the approved and reimbursed claims of the period.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, Email, FileLink, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "stipends",
    title="Perkwell Stipends",
    category="lifestyle_benefits",
    modeled_on="Forma lifestyle benefits API: stipend programs with allowances per period and eligible "
    "categories, enrollments, claims with receipts, approvals, reimbursements, unused balances and rollover",
    description="Lifestyle spending accounts for the home company's employees: stipend programs for wellness, "
    "learning, remote work, family and commuting with an allowance per period, employee enrollments, claims "
    "with receipts that are approved and reimbursed, and the balance left in each period.",
)

ProgramId = Annotated[str, IdOf("stipends.program")]
EnrollmentId = Annotated[str, IdOf("stipends.enrollment")]
ClaimId = Annotated[str, IdOf("stipends.claim")]

Department = Annotated[str, StringConstraints(min_length=2, max_length=60)]
"""A department of the company."""

ProgramKind = Literal["wellness", "learning", "remote_work", "family", "commuter"]
Period = Literal["monthly", "quarterly", "annual"]
ProgramStatus = Literal["draft", "active", "archived"]
Category = Literal[
    "gym",
    "fitness_equipment",
    "mental_health",
    "books",
    "courses",
    "conferences",
    "home_office",
    "internet",
    "childcare",
    "transit",
    "parking",
    "meals",
]
EnrollmentStatus = Literal["active", "removed"]
ClaimStatus = Literal["submitted", "info_requested", "approved", "reimbursed", "rejected"]
Payout = Literal["payroll", "direct_deposit"]

RECEIPT_OVER_CENTS = 7_500
COUNTED: tuple[ClaimStatus, ...] = ("approved", "reimbursed")
MONTHS: dict[str, int] = {"monthly": 1, "quarterly": 3, "annual": 12}


def period_start(day: dt.date, period: str) -> dt.date:
    """The first day of the period (month, quarter or year) that holds ``day``."""
    if period == "annual":
        return day.replace(month=1, day=1)
    if period == "quarterly":
        return day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
    return day.replace(day=1)


class Program(Timestamped):
    """A stipend program."""

    id: ProgramId
    name: Title
    """The program's name."""
    kind: ProgramKind
    """wellness, learning, remote_work, family or commuter."""
    allowance_cents: Cents
    """Allowance per period."""
    period: Period
    """monthly, quarterly or annual."""
    categories: tuple[Category, ...]
    """Eligible spending categories."""
    rollover: bool = False
    """Unused allowance rolls into the next period."""
    departments: tuple[Department, ...] = ()
    """Departments eligible (empty: everyone)."""
    status: ProgramStatus = "draft"
    """draft, active or archived."""


class Enrollment(Timestamped):
    """An employee enrolled in a program."""

    id: EnrollmentId
    program_id: ProgramId
    """The program."""
    employee_email: Email
    """The employee."""
    employee_name: PersonName
    """Their name."""
    enrolled_on: Date
    """When they joined."""
    status: EnrollmentStatus = "active"
    """active or removed."""


class Claim(Timestamped):
    """A reimbursement claim for a purchase."""

    id: ClaimId
    enrollment_id: EnrollmentId
    """The enrollment."""
    program_id: ProgramId
    """The program."""
    employee_email: Email
    """The employee."""
    category: Category
    """The spending category."""
    merchant: Title
    """Where they bought it."""
    amount_cents: Cents
    """The amount."""
    purchased_on: Date
    """When."""
    receipt_url: FileLink | None = None
    """The receipt (required above $75)."""
    status: ClaimStatus = "submitted"
    """submitted, info_requested, approved, reimbursed or rejected."""
    note: Text | None = None
    """Why info was requested or the claim rejected."""
    payout: Payout | None = None
    """How it was reimbursed."""


class Balance(Value):
    """An enrollment's balance in one period."""

    enrollment_id: EnrollmentId
    """The enrollment."""
    period_start: Date
    """The period's first day."""
    allowance_cents: int
    """The period's allowance."""
    rolled_over_cents: int
    """Unused allowance carried from the previous period."""
    spent_cents: int
    """Approved and reimbursed claims in the period."""
    available_cents: int
    """What is left."""


# -- rules ------------------------------------------------------------------------------------


def _used(ctx: Ctx, enrollment_id: str, start: dt.date, period: str) -> int:
    end = add_months(start, MONTHS[period])
    return sum(
        c.amount_cents
        for c in ctx.where(Claim, enrollment_id=enrollment_id)
        if c.status in COUNTED and start <= c.purchased_on < end
    )


def _balance(ctx: Ctx, enr: Enrollment, day: dt.date) -> Balance:
    program = ctx.get(Program, enr.program_id)
    start = period_start(day, program.period)
    rolled = 0
    prev = add_months(start, -MONTHS[program.period])
    if program.rollover and prev >= period_start(enr.enrolled_on, program.period):
        rolled = max(program.allowance_cents - _used(ctx, enr.id, prev, program.period), 0)
    spent = _used(ctx, enr.id, start, program.period)
    return Balance(
        enrollment_id=enr.id,
        period_start=start,
        allowance_cents=program.allowance_cents,
        rolled_over_cents=rolled,
        spent_cents=spent,
        available_cents=program.allowance_cents + rolled - spent,
    )


def _guard_program(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.categories or len(set(new.categories)) != len(new.categories):
        raise RuleViolation("list each eligible category once", field="categories", hint="name at least one")
    if old is not None and new.status == "active" and old.status == "draft" and new.allowance_cents <= 0:
        raise RuleViolation("an active program needs an allowance", field="program_id", hint="set allowance_cents")


programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prg",
    create=("name", "kind", "allowance_cents", "period", "categories", "rollover", "departments"),
    filters=("status", "kind", "period"),
    search=("name",),
    update=("name", "allowance_cents", "categories", "rollover"),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft",), "active", "activate the program"),
        "archive": Transition("status", ("draft", "active"), "archived", "archive the program"),
    },
    guard_create=_guard_program,
    guard_update=_guard_program,
    title="stipend program",
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="enr",
    create=False,
    filters=("program_id", "employee_email", "status"),
    delete=False,
    transitions={"remove": Transition("status", ("active",), "removed", "remove the employee from the program")},
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("status", "employee_email", "program_id", "enrollment_id", "category"),
    search=("merchant",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    for program in ctx.where(Program, status="active"):
        for p in ctx.population.employees:
            if program.departments and p.department not in program.departments:
                continue
            if ctx.first(Enrollment, program_id=program.id, employee_email=p.email) is None:
                return {"program_id": program.id, "employee_email": p.email}
    return None


@service.tool(intent="enroll the employee in the program", write=True, example=_example_enroll)
def enroll(ctx: Ctx, program_id: ProgramId, employee_email: Email) -> Enrollment:
    """Enroll an employee in an active program (once; only of its departments when it names some).

    Args:
        program_id: The program.
        employee_email: The employee.
    """
    program = ctx.get(Program, program_id, field="program_id")
    if program.status != "active":
        raise RuleViolation(f"program is {program.status}", field="program_id", hint="activate it first")
    person = next((p for p in ctx.population.employees if p.email == employee_email), None)
    if person is None:
        raise RuleViolation(f"{employee_email} is not an employee", field="employee_email", hint="use an employee")
    if program.departments and person.department not in program.departments:
        raise RuleViolation(
            f"the program is for {', '.join(program.departments)}", field="employee_email", hint="pick another program"
        )
    if ctx.first(Enrollment, program_id=program.id, employee_email=employee_email, status="active") is not None:
        raise Conflict("the employee is already enrolled", field="employee_email", hint="see their enrollment")
    return ctx.create(
        Enrollment,
        program_id=program.id,
        employee_email=employee_email,
        employee_name=person.name,
        enrolled_on=ctx.today(),
    )


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    for enr in ctx.where(Enrollment, status="active"):
        program = ctx.get(Program, enr.program_id)
        if program.status == "active":
            return {
                "enrollment_id": enr.id,
                "category": program.categories[0],
                "merchant": "Local Merchant",
                "amount_cents": 2_500,
                "purchased_on": ctx.today().isoformat(),
            }
    return None


@service.tool(intent="submit a stipend claim", write=True, example=_example_claim)
def submit_claim(
    ctx: Ctx,
    enrollment_id: EnrollmentId,
    category: Category,
    merchant: Title,
    amount_cents: Cents,
    purchased_on: Date,
    receipt_url: FileLink | None = None,
) -> Claim:
    """Submit a purchase for reimbursement under an active enrollment.

    Args:
        enrollment_id: The enrollment.
        category: The spending category (eligible under the program).
        merchant: Where it was bought.
        amount_cents: The amount (more than zero).
        purchased_on: When (not in the future, not before enrollment).
        receipt_url: The receipt (required above $75).
    """
    enr = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    program = ctx.get(Program, enr.program_id)
    if enr.status != "active" or program.status != "active":
        raise RuleViolation("the enrollment is not active", field="enrollment_id", hint="enroll in an active program")
    if category not in program.categories:
        raise RuleViolation(
            f"{category} is not eligible under {program.name}",
            field="category",
            hint=f"eligible: {', '.join(program.categories)}",
        )
    if amount_cents <= 0:
        raise RuleViolation("a claim must be positive", field="amount_cents", hint="give the amount")
    if purchased_on > ctx.today() or purchased_on < enr.enrolled_on:
        raise RuleViolation(
            f"the purchase must be between {enr.enrolled_on} and today", field="purchased_on", hint="check the date"
        )
    if amount_cents > RECEIPT_OVER_CENTS and receipt_url is None:
        raise RuleViolation("a claim over $75 needs a receipt", field="receipt_url", hint="attach the receipt")
    for other in ctx.where(Claim, enrollment_id=enr.id, purchased_on=purchased_on):
        if other.merchant == merchant and other.amount_cents == amount_cents and other.status != "rejected":
            raise Conflict(f"claim {other.id} already covers this purchase", field="merchant", hint="no duplicates")
    return ctx.create(
        Claim,
        enrollment_id=enr.id,
        program_id=program.id,
        employee_email=enr.employee_email,
        category=category,
        merchant=merchant,
        amount_cents=amount_cents,
        purchased_on=purchased_on,
        receipt_url=receipt_url,
    )


def _claim_in(ctx: Ctx, claim_id: str, *states: ClaimStatus) -> Claim:
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status not in states:
        raise RuleViolation(f"claim is {claim.status}", field="claim_id", hint=f"it must be {' or '.join(states)}")
    return claim


@service.tool(
    intent="approve the claim", write=True, example=first_example(Claim, "claim_id", where={"status": "submitted"})
)
def approve_claim(ctx: Ctx, claim_id: ClaimId) -> Claim:
    """Approve a submitted claim if the period of its purchase has that much balance left.

    Args:
        claim_id: The claim.
    """
    claim = _claim_in(ctx, claim_id, "submitted")
    left = _balance(ctx, ctx.get(Enrollment, claim.enrollment_id), claim.purchased_on).available_cents
    if claim.amount_cents > left:
        raise RuleViolation(
            f"only {max(left, 0)} cents are left in the period",
            field="claim_id",
            hint="reject it, or ask the employee to claim less",
        )
    return ctx.update(claim, status="approved", note=None)


@service.tool(
    intent="ask for more information on the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "submitted"}, note="Please attach an itemized receipt."),
)
def request_info(ctx: Ctx, claim_id: ClaimId, note: Text) -> Claim:
    """Send a submitted claim back to the employee for a receipt or details.

    Args:
        claim_id: The claim.
        note: What is needed.
    """
    claim = _claim_in(ctx, claim_id, "submitted")
    if not note.strip():
        raise RuleViolation("say what information is needed", field="note", hint="e.g. an itemized receipt")
    return ctx.update(claim, status="info_requested", note=note.strip())


@service.tool(
    intent="resubmit the claim",
    write=True,
    example=first_example(
        Claim, "claim_id", where={"status": "info_requested"}, receipt_url="https://files.example.com/r/123.pdf"
    ),
)
def resubmit_claim(ctx: Ctx, claim_id: ClaimId, receipt_url: FileLink) -> Claim:
    """The employee answers an info request with a receipt; the claim is submitted again.

    Args:
        claim_id: The claim.
        receipt_url: The receipt.
    """
    claim = _claim_in(ctx, claim_id, "info_requested")
    return ctx.update(claim, status="submitted", receipt_url=receipt_url)


@service.tool(
    intent="reject the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "submitted"}, reason="Not an eligible expense."),
)
def reject_claim(ctx: Ctx, claim_id: ClaimId, reason: Text) -> Claim:
    """Reject a submitted or info-requested claim, with a reason.

    Args:
        claim_id: The claim.
        reason: Why.
    """
    claim = _claim_in(ctx, claim_id, "submitted", "info_requested")
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say why")
    return ctx.update(claim, status="rejected", note=reason.strip())


@service.tool(
    intent="reimburse the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "approved"}, payout="payroll"),
)
def reimburse_claim(ctx: Ctx, claim_id: ClaimId, payout: Payout) -> Claim:
    """Pay an approved claim through payroll (taxable) or by direct deposit.

    Args:
        claim_id: The claim.
        payout: payroll or direct_deposit.
    """
    claim = _claim_in(ctx, claim_id, "approved")
    return ctx.update(claim, status="reimbursed", payout=payout)


@service.tool(intent="show the stipend balance", example=first_example(Enrollment, "enrollment_id"))
def get_balance(ctx: Ctx, enrollment_id: EnrollmentId, on: Date | None = None) -> Balance:
    """An enrollment's allowance, rollover, spending and what is left in the period holding a day.

    Args:
        enrollment_id: The enrollment.
        on: A day of the period (default today).
    """
    enr = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    return _balance(ctx, enr, on or ctx.today())


@service.tool(intent="list unused stipend balances", example=first_example(Program, "program_id"))
def unused_balances(ctx: Ctx, program_id: ProgramId) -> list[Balance]:
    """The current-period balance of every active enrollment of a program that has money left.

    Args:
        program_id: The program.
    """
    program = ctx.get(Program, program_id, field="program_id")
    out = [_balance(ctx, e, ctx.today()) for e in ctx.where(Enrollment, program_id=program.id, status="active")]
    return [b for b in out if b.available_cents > 0]


# -- seed -------------------------------------------------------------------------------------

PROGRAMS: tuple[tuple[str, ProgramKind, int, Period, tuple[Category, ...], bool, ProgramStatus], ...] = (
    ("Wellness Stipend", "wellness", 10_000, "monthly", ("gym", "fitness_equipment", "mental_health"), True, "active"),
    ("Learning & Development", "learning", 150_000, "annual", ("books", "courses", "conferences"), False, "active"),
    ("Remote Work Setup", "remote_work", 30_000, "quarterly", ("home_office", "internet"), False, "active"),
    ("Commuter Benefit", "commuter", 12_000, "monthly", ("transit", "parking"), False, "draft"),
    ("Family Care 2025", "family", 50_000, "quarterly", ("childcare", "meals"), False, "archived"),
)
MERCHANTS: dict[str, str] = {
    "gym": "Equinox",
    "fitness_equipment": "Peloton",
    "mental_health": "Headspace",
    "books": "Bookshop.org",
    "courses": "Coursera",
    "conferences": "PyCon US",
    "home_office": "Herman Miller",
    "internet": "Comcast",
}


def _claim(
    s: SeedContext,
    enr: Enrollment,
    cat: Category,
    amount: int,
    day: dt.date,
    status: ClaimStatus,
    receipt: str | None = None,
) -> None:
    """Seed one claim on an enrollment, with the payout or note its status implies."""
    s.create(
        Claim,
        enrollment_id=enr.id,
        program_id=enr.program_id,
        employee_email=enr.employee_email,
        category=cat,
        merchant=MERCHANTS[cat],
        amount_cents=amount,
        purchased_on=day,
        receipt_url=receipt,
        status=status,
        payout="payroll" if status == "reimbursed" else None,
        note="Receipt is not itemized." if status in ("info_requested", "rejected") else None,
    )


@service.seeder
def seed(s: SeedContext) -> None:
    """Programs in every state, most employees enrolled, claims in every state this period and last.

    The first twelve employees are in two or three programs with two claims each; newer hires in one, with one claim.
    """
    today = s.now.date()
    made = [
        s.create(
            Program,
            name=n,
            kind=k,
            allowance_cents=a,
            period=p,
            categories=c,
            rollover=r,
            status=st,
            created_at=s.ago(days=400),
        )
        for n, k, a, p, c, r, st in PROGRAMS
    ]
    states: tuple[ClaimStatus, ...] = ("reimbursed", "approved", "submitted", "info_requested", "rejected")
    n = 0
    for k, person in enumerate(s.population.employees[:12]):
        for program in made[:3]:
            if (k + len(program.name)) % 4 == 0:
                continue
            enr = s.create(
                Enrollment,
                program_id=program.id,
                employee_email=person.email,
                employee_name=person.name,
                enrolled_on=today - dt.timedelta(days=200 + k),
                created_at=s.ago(days=200 + k),
            )
            for j in range(2):
                status = states[(n + j) % len(states)]
                cat = program.categories[(k + j) % len(program.categories)]
                amount = min(program.allowance_cents // 3, 9_000) - 100 * j
                day = (
                    today - dt.timedelta(days=j * 3)
                    if j == 0
                    else period_start(today, program.period) - dt.timedelta(days=2)
                )
                receipt = f"https://files.perkwell.com/receipts/{enr.id}-{j}.pdf" if amount > 7_500 else None
                _claim(s, enr, cat, amount, day, status, receipt)
            n += 1
    # Newer hires have joined one program so far, with one claim in: their enrollment and claim are the ones
    # their e-mail finds.
    for k, person in enumerate(s.population.employees[12:20], start=12):
        program = made[k % 3]
        enr = s.create(
            Enrollment,
            program_id=program.id,
            employee_email=person.email,
            employee_name=person.name,
            enrolled_on=today - dt.timedelta(days=k * 3),
            created_at=s.ago(days=k * 3),
        )
        cat = program.categories[k % len(program.categories)]
        amount = min(program.allowance_cents // 4, 6_000)
        _claim(s, enr, cat, amount, today - dt.timedelta(days=k % 5), "submitted" if k % 2 else "info_requested")
