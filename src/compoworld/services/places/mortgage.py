"""Keystone Lending: mortgage loan origination from application to funding.

Modeled on the ICE Mortgage Technology Encompass Developer Connect API (Loans
with borrowers, the milestone workflow Started/Processing/Submittal/Approval/
Ready to Close/Funding, underwriting conditions by prior-to category, the
eDisclosures Loan Estimate and Closing Disclosure tracking under TRID, and rate
locks with lock periods and extensions): a loan file moves application →
processing → underwriting → approved → clear_to_close → funded (or denied or
withdrawn before funding), and each step has its gate: processing needs a
borrower and a Loan Estimate, underwriting an appraised value, approval the
program's minimum credit score, maximum LTV and DTI and no open
prior-to-approval condition, clear to close no open prior-to-docs condition, a
live rate lock and a Closing Disclosure, and funding no open prior-to-funding
condition, a lock that has not expired and a Closing Disclosure the borrower
received at least three business days earlier (the TRID waiting period). A
Loan Estimate is due within three business days of the application; a rate
lock runs 15-60 days and may be extended at most twice.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, FirstName, IdOf, LastName, PostalAddress, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "mortgage",
    title="Keystone Lending",
    category="mortgage_lending",
    modeled_on="ICE Mortgage Technology Encompass Developer Connect API: loans, borrowers, milestones, "
    "underwriting conditions, eDisclosures (Loan Estimate, Closing Disclosure), rate locks",
    description="Mortgage loan origination: loan files and their borrowers, the milestones from application to "
    "funding, underwriting conditions, TRID disclosures with their timing rules, and rate locks that expire.",
)

LoanId = Annotated[str, IdOf("mortgage.loan")]
BorrowerId = Annotated[str, IdOf("mortgage.borrower")]
ConditionId = Annotated[str, IdOf("mortgage.condition")]
DisclosureId = Annotated[str, IdOf("mortgage.disclosure")]
LockId = Annotated[str, IdOf("mortgage.lock")]

Rate = Annotated[float, Field(gt=0, le=20)]
"""An interest rate in percent a year."""
CreditScore = Annotated[int, Field(ge=300, le=850)]
"""A FICO score, 300-850."""

Milestone = Literal[
    "application", "processing", "underwriting", "approved", "clear_to_close", "funded", "denied", "withdrawn"
]
Program = Literal["conventional", "fha", "va", "jumbo"]
Purpose = Literal["purchase", "refinance", "cash_out_refinance"]
ConditionCategory = Literal["prior_to_approval", "prior_to_docs", "prior_to_funding"]
ConditionStatus = Literal["open", "received", "cleared", "waived"]
DisclosureKind = Literal["loan_estimate", "closing_disclosure"]
LockStatus = Literal["active", "expired", "cancelled"]

FLOW: tuple[Milestone, ...] = ("application", "processing", "underwriting", "approved", "clear_to_close", "funded")
CLOSED: tuple[Milestone, ...] = ("funded", "denied", "withdrawn")
MIN_SCORE: dict[str, int] = {"conventional": 620, "fha": 580, "va": 580, "jumbo": 700}
MAX_LTV: dict[str, float] = {"conventional": 97.0, "fha": 96.5, "va": 100.0, "jumbo": 80.0}
MAX_DTI: dict[str, float] = {"conventional": 45.0, "fha": 50.0, "va": 50.0, "jumbo": 43.0}
LOCK_DAYS = (15, 30, 45, 60)
EXTENSION_DAYS = (7, 15)
MAX_EXTENSIONS = 2
TRID_DAYS = 3


class Loan(Record):
    """A loan file."""

    id: LoanId
    loan_number: Annotated[str, Generated("sequence", "KL{n:08d}")]
    """The loan number."""
    loan_officer_email: Email
    """The employee originating the loan."""
    purpose: Purpose
    """purchase, refinance or cash_out_refinance."""
    program: Program
    """conventional, fha, va or jumbo."""
    loan_amount: Cents
    """Amount borrowed, in cents."""
    property_value: Cents | None = None
    """Appraised value (or purchase price if lower), in cents; none before the appraisal."""
    property_address: PostalAddress
    """The subject property."""
    term_months: Literal[180, 360] = 360
    """15 or 30 years."""
    note_rate: Rate
    """The quoted rate, until a lock sets it."""
    milestone: Milestone = "application"
    """application → processing → underwriting → approved → clear_to_close → funded; denied or withdrawn."""
    application_date: Date
    """When the application was taken (starts the TRID clock)."""
    closing_date: Date | None = None
    """The scheduled closing."""
    denial_reason: Text | None = None
    """Why it was denied."""
    funded_at: DateTime | None = None
    """When it funded."""
    created_at: Annotated[DateTime, CREATED]
    """When the file was started."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Borrower(Record):
    """A borrower or co-borrower on a loan."""

    id: BorrowerId
    loan_id: LoanId
    """The loan."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail (where eDisclosures go)."""
    annual_income: Cents
    """Gross yearly income, in cents."""
    monthly_debts: Cents = 0
    """Monthly debt payments other than this loan, in cents."""
    credit_score: CreditScore
    """Middle FICO score."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Condition(Record):
    """An underwriting condition the file must satisfy."""

    id: ConditionId
    loan_id: LoanId
    """The loan."""
    title: Title
    """What is needed, e.g. 'Two months of bank statements'."""
    category: ConditionCategory
    """prior_to_approval, prior_to_docs or prior_to_funding."""
    status: ConditionStatus = "open"
    """open → received → cleared; or waived."""
    waiver_reason: Text | None = None
    """Why it was waived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Disclosure(Record):
    """A TRID disclosure sent to the borrowers."""

    id: DisclosureId
    loan_id: LoanId
    """The loan."""
    kind: DisclosureKind
    """loan_estimate or closing_disclosure."""
    version: int = 1
    """1 for the initial one, higher for revised ones."""
    apr: Rate
    """Annual percentage rate disclosed."""
    loan_amount: Cents
    """Loan amount disclosed."""
    sent_on: Date
    """When it was sent."""
    timely: bool = True
    """Whether it met its deadline (a Loan Estimate: within three business days of the application)."""
    received_on: Date | None = None
    """When the borrower received (e-consented and opened) it."""


class Lock(Record):
    """A rate lock."""

    id: LockId
    loan_id: LoanId
    """The loan."""
    rate: Rate
    """The locked rate."""
    lock_days: int
    """Lock period in days."""
    locked_on: Date
    """When it was locked."""
    expires_on: Date
    """Its last day."""
    extensions: Annotated[int, Field(ge=0, le=MAX_EXTENSIONS)] = 0
    """Extensions so far."""
    status: LockStatus = "active"
    """active, expired or cancelled."""


class Qualification(Value):
    """How a loan measures against its program's limits."""

    loan_id: LoanId
    """The loan."""
    monthly_payment: Cents
    """Principal and interest per month, in cents."""
    ltv: float | None
    """Loan-to-value in percent (none before the appraisal)."""
    dti: float | None
    """Back-end debt-to-income in percent (none without income)."""
    min_credit_score: int | None
    """The lowest borrower score (none without borrowers)."""
    eligible: bool
    """Whether every limit is met."""
    problems: list[str]
    """What fails."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use a loan officer's e-mail")


def _open_loan(ctx: Ctx, loan_id: str, field: str = "loan_id") -> Loan:
    loan = ctx.get(Loan, loan_id, field=field)
    if loan.milestone in CLOSED:
        raise RuleViolation(f"loan {loan.loan_number} is {loan.milestone}", field=field, hint="start a new loan file")
    return loan


def business_days_after(day: dt.date, n: int) -> dt.date:
    """The n-th business day (Monday-Friday) after ``day``."""
    while n > 0:
        day += dt.timedelta(days=1)
        n -= day.weekday() < 5
    return day


def _guard_borrower(ctx: Ctx, new: Any, old: Any) -> None:
    _open_loan(ctx, new.loan_id, "borrower_id")


def _guard_condition(ctx: Ctx, new: Any, old: Any) -> None:
    _open_loan(ctx, new.loan_id)


def _guard_loan(ctx: Ctx, new: Any, old: Any) -> None:
    if new.closing_date is not None and new.closing_date < new.application_date:
        raise RuleViolation("closing_date is before the application", field="closing_date", hint="pick a later day")
    if new.property_value is not None and new.loan_amount > new.property_value * 2:
        raise RuleViolation("loan amount is more than twice the value", field="loan_amount", hint="check the amount")


loans = service.resource(
    Loan,
    name="loan",
    plural="loans",
    prefix="loan",
    create=False,
    filters=("milestone", "loan_officer_email", "program", "purpose", "loan_number"),
    search=("loan_number",),
    update=("loan_amount", "property_value", "closing_date", "note_rate"),
    delete=False,
    guard_update=_guard_loan,
    title="loan file",
)
borrowers = service.resource(
    Borrower,
    name="borrower",
    plural="borrowers",
    prefix="bor",
    create=False,
    filters=("loan_id", "email"),
    search=("first_name", "last_name", "email"),
    update=("annual_income", "monthly_debts", "credit_score"),
    delete=False,
    guard_update=_guard_borrower,
)
conditions = service.resource(
    Condition,
    name="condition",
    plural="conditions",
    prefix="cond",
    create=("loan_id", "title", "category"),
    get=False,
    filters=("loan_id", "category", "status"),
    search=("title",),
    delete=False,
    transitions={
        "receive": Transition("status", ("open",), "received", "mark the condition's documents received"),
        "clear": Transition("status", ("received",), "cleared", "clear the condition"),
    },
    guard_create=_guard_condition,
    title="underwriting condition",
)
disclosures = service.resource(
    Disclosure,
    name="disclosure",
    plural="disclosures",
    prefix="disc",
    create=False,
    get=False,
    filters=("loan_id", "kind"),
    delete=False,
)
locks = service.resource(
    Lock,
    name="lock",
    plural="locks",
    prefix="lock",
    create=False,
    get=False,
    filters=("loan_id", "status"),
    delete=False,
    title="rate lock",
)


# -- helpers ----------------------------------------------------------------------------------


def _live_lock(ctx: Ctx, loan: Loan) -> Lock | None:
    return next((k for k in ctx.where(Lock, loan_id=loan.id, status="active") if k.expires_on >= ctx.today()), None)


def _payment(amount: int, rate: float, months: int) -> int:
    r = rate / 1200
    return round(amount * r / (1 - (1 + r) ** -months))


def _qualify(ctx: Ctx, loan: Loan) -> Qualification:
    lock = _live_lock(ctx, loan)
    pay = _payment(loan.loan_amount, lock.rate if lock else loan.note_rate, loan.term_months)
    people = ctx.where(Borrower, loan_id=loan.id)
    income = sum(b.annual_income for b in people) / 12
    ltv = None if not loan.property_value else round(100 * loan.loan_amount / loan.property_value, 2)
    dti = None if not income else round(100 * (pay + sum(b.monthly_debts for b in people)) / income, 2)
    score = min((b.credit_score for b in people), default=None)
    problems = []
    if score is None or score < MIN_SCORE[loan.program]:
        problems.append(f"credit score {score} is below the {loan.program} minimum {MIN_SCORE[loan.program]}")
    if ltv is None or ltv > MAX_LTV[loan.program]:
        problems.append(f"LTV {ltv} is above the {loan.program} maximum {MAX_LTV[loan.program]}")
    if dti is None or dti > MAX_DTI[loan.program]:
        problems.append(f"DTI {dti} is above the {loan.program} maximum {MAX_DTI[loan.program]}")
    return Qualification(
        loan_id=loan.id,
        monthly_payment=pay,
        ltv=ltv,
        dti=dti,
        min_credit_score=score,
        eligible=not problems,
        problems=problems,
    )


def _open_conditions(ctx: Ctx, loan: Loan, category: str) -> list[Condition]:
    return [c for c in ctx.where(Condition, loan_id=loan.id, category=category) if c.status in ("open", "received")]


def _latest(ctx: Ctx, loan: Loan, kind: str) -> Disclosure | None:
    return max(ctx.where(Disclosure, loan_id=loan.id, kind=kind), key=lambda d: d.version, default=None)


def _gate(ctx: Ctx, loan: Loan, target: str) -> str | None:
    """Why the loan cannot move to ``target`` (None: it can)."""
    if target == "processing":
        if not ctx.where(Borrower, loan_id=loan.id):
            return "the loan has no borrower; add one with mortgage__add_borrower"
        if _latest(ctx, loan, "loan_estimate") is None:
            return "no Loan Estimate was sent; send it with mortgage__send_disclosure"
    elif target == "underwriting" and not loan.property_value:
        return "no appraised value; record it with mortgage__update_loan (property_value)"
    elif target == "approved":
        q = _qualify(ctx, loan)
        if q.problems:
            return "; ".join(q.problems)
        if _open_conditions(ctx, loan, "prior_to_approval"):
            return "prior-to-approval conditions are still open; clear or waive them"
    elif target == "clear_to_close":
        if _open_conditions(ctx, loan, "prior_to_docs"):
            return "prior-to-docs conditions are still open; clear or waive them"
        if _live_lock(ctx, loan) is None:
            return "the rate is not locked; lock it with mortgage__lock_rate"
        if _latest(ctx, loan, "closing_disclosure") is None:
            return "no Closing Disclosure was sent; send it with mortgage__send_disclosure"
    elif target == "funded":
        return _funding_gate(ctx, loan)
    return None


def _funding_gate(ctx: Ctx, loan: Loan) -> str | None:
    if _open_conditions(ctx, loan, "prior_to_funding"):
        return "prior-to-funding conditions are still open; clear them"
    if _live_lock(ctx, loan) is None:
        return "the rate lock has expired; extend it with mortgage__extend_lock or relock"
    cd = _latest(ctx, loan, "closing_disclosure")
    if cd is None or cd.received_on is None:
        return "the borrower has not received the Closing Disclosure; record it with mortgage__receive_disclosure"
    earliest = business_days_after(cd.received_on, TRID_DAYS)
    if ctx.today() < earliest:
        return f"TRID waiting period: the Closing Disclosure was received {cd.received_on}; fund on {earliest} or later"
    return None


# -- tools ------------------------------------------------------------------------------------


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    addr = ctx.population.consumers[0].address.model_dump()
    return {
        "loan_officer_email": ctx.population.employees[0].email,
        "purpose": "purchase",
        "program": "fha",
        "loan_amount": 28_950_000,
        "note_rate": 6.25,
        "property_address": addr,
    }


@service.tool(intent="start the loan file", write=True, example=_example_start)
def start_loan(
    ctx: Ctx,
    loan_officer_email: Email,
    purpose: Purpose,
    program: Program,
    loan_amount: Cents,
    note_rate: Rate,
    property_address: PostalAddress,
    term_months: Literal[180, 360] = 360,
) -> Loan:
    """Start a loan file at the application milestone; today is the application date.

    Args:
        loan_officer_email: The employee originating it.
        purpose: purchase, refinance or cash_out_refinance.
        program: conventional, fha, va or jumbo.
        loan_amount: Amount to borrow, in cents (at least 10,000.00).
        note_rate: The quoted rate in percent.
        property_address: The subject property.
        term_months: 180 or 360.
    """
    _staff(ctx, loan_officer_email, "loan_officer_email")
    if loan_amount < 1_000_000:
        raise RuleViolation("the loan amount is below 10,000.00", field="loan_amount", hint="give the amount in cents")
    for other in ctx.where(Loan, property_address=property_address):
        if other.milestone not in CLOSED:
            raise Conflict(
                f"loan {other.loan_number} is already open on this property",
                field="property_address",
                hint="work on that loan file",
            )
    return ctx.create(
        Loan,
        loan_officer_email=loan_officer_email,
        purpose=purpose,
        program=program,
        loan_amount=loan_amount,
        note_rate=note_rate,
        property_address=property_address,
        term_months=term_months,
        application_date=ctx.today(),
    )


def _example_borrower(ctx: Ctx) -> dict[str, Any] | None:
    loan = ctx.first(Loan, milestone="application")
    p = ctx.population.consumers[-1]
    return (
        None
        if loan is None
        else {
            "loan_id": loan.id,
            "first_name": p.first_name,
            "last_name": p.last_name,
            "email": p.email,
            "annual_income": 9_000_000,
            "credit_score": 701,
        }
    )


@service.tool(intent="add the borrower to the loan", write=True, example=_example_borrower)
def add_borrower(
    ctx: Ctx,
    loan_id: LoanId,
    first_name: FirstName,
    last_name: LastName,
    email: Email,
    annual_income: Cents,
    credit_score: CreditScore,
    monthly_debts: Cents = 0,
) -> Borrower:
    """Add a borrower or co-borrower to an open loan; one e-mail appears once per loan.

    Args:
        loan_id: The open loan.
        first_name: First name.
        last_name: Last name.
        email: E-mail, where eDisclosures go.
        annual_income: Gross yearly income in cents.
        credit_score: Middle FICO score.
        monthly_debts: Monthly debt payments in cents.
    """
    loan = _open_loan(ctx, loan_id)
    if ctx.where(Borrower, loan_id=loan.id, email=email):
        raise Conflict(f"{email} is already a borrower on this loan", field="email", hint="update that borrower")
    return ctx.create(
        Borrower,
        loan_id=loan.id,
        first_name=first_name,
        last_name=last_name,
        email=email,
        annual_income=annual_income,
        monthly_debts=monthly_debts,
        credit_score=credit_score,
    )


def _example_advance(ctx: Ctx) -> dict[str, Any] | None:
    for loan in ctx.scan(Loan):
        if loan.milestone in FLOW[:-1] and _gate(ctx, loan, FLOW[FLOW.index(loan.milestone) + 1]) is None:
            return {"loan_id": loan.id}
    return None


@service.tool(intent="move the loan to its next milestone", write=True, example=_example_advance)
def advance_milestone(ctx: Ctx, loan_id: LoanId) -> Loan:
    """Move a loan to its next milestone when that milestone's requirements are met.

    Args:
        loan_id: The loan.
    """
    loan = _open_loan(ctx, loan_id)
    target = FLOW[FLOW.index(loan.milestone) + 1]
    why = _gate(ctx, loan, target)
    if why is not None:
        raise RuleViolation(f"loan {loan.loan_number} cannot move to {target}: {why}", field="loan_id", hint=why)
    return ctx.update(loan, milestone=target, funded_at=ctx.now() if target == "funded" else None)


@service.tool(
    intent="deny the loan",
    write=True,
    destructive=True,
    example=first_example(Loan, "loan_id", where={"milestone": "underwriting"}, reason="DTI above program limits."),
)
def deny_loan(ctx: Ctx, loan_id: LoanId, reason: Text) -> Loan:
    """Deny a loan in underwriting (adverse action); a reason is required.

    Args:
        loan_id: The loan in underwriting.
        reason: The principal reason for the denial.
    """
    loan = _open_loan(ctx, loan_id)
    if loan.milestone != "underwriting":
        raise RuleViolation(
            f"loan {loan.loan_number} is in {loan.milestone}",
            field="loan_id",
            hint="only underwriting denies a loan; withdraw it otherwise",
        )
    if not reason.strip():
        raise RuleViolation("a denial needs a reason", field="reason", hint="state the adverse-action reason")
    return ctx.update(loan, milestone="denied", denial_reason=reason.strip())


@service.tool(
    intent="withdraw the loan application",
    write=True,
    destructive=True,
    example=first_example(Loan, "loan_id", where={"milestone": "application"}),
)
def withdraw_loan(ctx: Ctx, loan_id: LoanId) -> Loan:
    """Withdraw a loan at the borrower's request before it funds.

    Args:
        loan_id: The loan.
    """
    return ctx.update(_open_loan(ctx, loan_id), milestone="withdrawn")


@service.tool(intent="check the loan against its program limits", example=first_example(Loan, "loan_id"))
def qualify_loan(ctx: Ctx, loan_id: LoanId) -> Qualification:
    """Monthly payment, LTV, DTI and lowest credit score against the program's limits.

    Args:
        loan_id: The loan.
    """
    return _qualify(ctx, ctx.get(Loan, loan_id, field="loan_id"))


def _example_waive(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Condition):
        live = c.status in ("open", "received") and ctx.get(Loan, c.loan_id).milestone not in CLOSED
        if live and c.category != "prior_to_funding":
            return {"condition_id": c.id, "reason": "Compensating factor: 12 months of reserves."}
    return None


@service.tool(intent="waive the underwriting condition", write=True, example=_example_waive)
def waive_condition(ctx: Ctx, condition_id: ConditionId, reason: Text) -> Condition:
    """Waive an open or received condition with a reason; prior-to-funding conditions cannot be waived.

    Args:
        condition_id: The condition.
        reason: Why it is waived.
    """
    cond = ctx.get(Condition, condition_id, field="condition_id")
    _open_loan(ctx, cond.loan_id, "condition_id")
    if cond.status not in ("open", "received"):
        raise Conflict(f"condition {cond.id} is already {cond.status}", field="condition_id", hint="nothing to do")
    if cond.category == "prior_to_funding":
        raise RuleViolation(
            "prior-to-funding conditions cannot be waived",
            field="condition_id",
            hint="obtain the item and clear the condition",
        )
    if not reason.strip():
        raise RuleViolation("a waiver needs a reason", field="reason", hint="state the compensating factor")
    return ctx.update(cond, status="waived", waiver_reason=reason.strip())


def _example_disclose(ctx: Ctx) -> dict[str, Any] | None:
    for loan in ctx.scan(Loan):
        if loan.milestone in ("application", "processing", "underwriting"):
            return {"loan_id": loan.id, "kind": "loan_estimate"}
        if loan.milestone in ("approved", "clear_to_close"):
            return {"loan_id": loan.id, "kind": "closing_disclosure"}
    return None


@service.tool(intent="send the disclosure to the borrowers", write=True, example=_example_disclose)
def send_disclosure(ctx: Ctx, loan_id: LoanId, kind: DisclosureKind) -> Disclosure:
    """Send a Loan Estimate (before approval) or a Closing Disclosure (once approved); a resend is a revision.

    Args:
        loan_id: The loan.
        kind: loan_estimate or closing_disclosure.
    """
    loan = _open_loan(ctx, loan_id)
    stage = FLOW.index(loan.milestone)
    if kind == "loan_estimate" and stage >= FLOW.index("approved"):
        raise RuleViolation(
            "the loan is approved: disclose with a Closing Disclosure",
            field="kind",
            hint="send kind closing_disclosure",
        )
    if kind == "closing_disclosure" and stage < FLOW.index("approved"):
        raise RuleViolation(
            f"a Closing Disclosure needs an approved loan; it is in {loan.milestone}",
            field="kind",
            hint="send a Loan Estimate, or get the loan approved first",
        )
    if not ctx.where(Borrower, loan_id=loan.id):
        raise RuleViolation("the loan has no borrower to disclose to", field="loan_id", hint="add a borrower first")
    prev = _latest(ctx, loan, kind)
    lock = _live_lock(ctx, loan)
    today = ctx.today()
    timely = kind != "loan_estimate" or prev is not None or today <= business_days_after(loan.application_date, 3)
    return ctx.create(
        Disclosure,
        loan_id=loan.id,
        kind=kind,
        version=1 if prev is None else prev.version + 1,
        apr=round((lock.rate if lock else loan.note_rate) + 0.12, 3),
        loan_amount=loan.loan_amount,
        sent_on=today,
        timely=timely,
    )


@service.tool(
    intent="record that the borrower received the disclosure",
    write=True,
    example=first_example(Disclosure, "disclosure_id", match=lambda ctx, d: d.received_on is None),
)
def receive_disclosure(ctx: Ctx, disclosure_id: DisclosureId) -> Disclosure:
    """Record that the borrowers received (e-consented to and opened) a disclosure today.

    Args:
        disclosure_id: The disclosure.
    """
    disc = ctx.get(Disclosure, disclosure_id, field="disclosure_id")
    if disc.received_on is not None:
        raise Conflict(f"it was received on {disc.received_on}", field="disclosure_id", hint="nothing to do")
    return ctx.update(disc, received_on=ctx.today())


def _example_lock(ctx: Ctx) -> dict[str, Any] | None:
    for loan in ctx.scan(Loan):
        if loan.milestone not in CLOSED and _live_lock(ctx, loan) is None:
            return {"loan_id": loan.id, "rate": 6.375, "lock_days": 30}
    return None


@service.tool(intent="lock the loan's rate", write=True, example=_example_lock)
def lock_rate(ctx: Ctx, loan_id: LoanId, rate: Rate, lock_days: Literal[15, 30, 45, 60]) -> Lock:
    """Lock a rate for 15, 30, 45 or 60 days; a loan has one live lock at a time.

    Args:
        loan_id: The open loan.
        rate: The rate to lock, in percent.
        lock_days: The lock period.
    """
    loan = _open_loan(ctx, loan_id)
    live = _live_lock(ctx, loan)
    if live is not None:
        raise Conflict(
            f"lock {live.id} is live until {live.expires_on}",
            field="loan_id",
            hint="extend it with mortgage__extend_lock instead",
        )
    for old in ctx.where(Lock, loan_id=loan.id, status="active"):
        ctx.update(old, status="expired")
    today = ctx.today()
    return ctx.create(
        Lock,
        loan_id=loan.id,
        rate=rate,
        lock_days=lock_days,
        locked_on=today,
        expires_on=today + dt.timedelta(days=lock_days),
    )


def _example_extend(ctx: Ctx) -> dict[str, Any] | None:
    for lock in ctx.where(Lock, status="active"):
        if lock.expires_on >= ctx.today() and lock.extensions < MAX_EXTENSIONS:
            return {"lock_id": lock.id, "days": 15}
    return None


@service.tool(intent="extend the rate lock", write=True, example=_example_extend)
def extend_lock(ctx: Ctx, lock_id: LockId, days: Literal[7, 15]) -> Lock:
    """Extend a live lock by 7 or 15 days, at most twice; an expired lock cannot be extended.

    Args:
        lock_id: The lock.
        days: 7 or 15.
    """
    lock = ctx.get(Lock, lock_id, field="lock_id")
    _open_loan(ctx, lock.loan_id, "lock_id")
    if lock.status != "active" or lock.expires_on < ctx.today():
        raise RuleViolation(
            f"lock {lock.id} expired on {lock.expires_on}",
            field="lock_id",
            hint="lock the rate again with mortgage__lock_rate",
        )
    if lock.extensions >= MAX_EXTENSIONS:
        raise RuleViolation(
            f"lock {lock.id} was already extended {MAX_EXTENSIONS} times",
            field="lock_id",
            hint="let it expire and relock",
        )
    return ctx.update(lock, expires_on=lock.expires_on + dt.timedelta(days=days), extensions=lock.extensions + 1)


# -- seed -------------------------------------------------------------------------------------

CONDITIONS: tuple[tuple[str, ConditionCategory], ...] = (
    ("Two months of bank statements", "prior_to_approval"),
    ("Verification of employment", "prior_to_approval"),
    ("Homeowners insurance declaration page", "prior_to_docs"),
    ("Final verbal verification of employment", "prior_to_funding"),
)
CLEAR_AT: dict[str, int] = {"prior_to_approval": 3, "prior_to_docs": 4, "prior_to_funding": 5}
"""The milestone index by which a seeded file has cleared each category (one earlier for files ready to move)."""
# milestone, program, purpose, amount, appraised value, rate, credit score, income
FILES: tuple[tuple[Milestone, Program, Purpose, int, int | None, float, int, int], ...] = (
    ("application", "conventional", "purchase", 36_000_000, None, 6.5, 742, 14_500_000),
    ("processing", "fha", "purchase", 28_950_000, None, 6.25, 661, 9_800_000),
    ("underwriting", "conventional", "refinance", 41_000_000, 52_000_000, 6.375, 705, 16_000_000),
    ("underwriting", "jumbo", "purchase", 96_000_000, 110_000_000, 6.875, 688, 30_000_000),
    ("approved", "va", "purchase", 45_000_000, 45_500_000, 6.0, 690, 15_500_000),
    ("clear_to_close", "conventional", "purchase", 38_000_000, 47_500_000, 6.5, 760, 18_000_000),
    ("clear_to_close", "fha", "refinance", 25_000_000, 31_000_000, 6.125, 640, 9_000_000),
    ("funded", "conventional", "cash_out_refinance", 30_000_000, 50_000_000, 6.75, 780, 20_000_000),
    ("withdrawn", "conventional", "purchase", 33_000_000, None, 6.5, 730, 12_000_000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Loan files at every milestone for the world's consumers, with conditions, disclosures and locks."""
    pop = s.population
    officers = pop.staff("Sales", "Finance", fallback=4)
    today = s.now.date()
    for k, (ms, program, purpose, amount, value, rate, score, income) in enumerate(FILES):
        person = pop.consumers[k % len(pop.consumers)]
        stage = FLOW.index(ms) if ms in FLOW else 0
        applied = today - dt.timedelta(days=6 + 9 * stage)
        loan = s.create(
            Loan,
            loan_officer_email=officers[k % len(officers)].email,
            purpose=purpose,
            program=program,
            loan_amount=amount,
            property_value=value,
            property_address=person.address,
            note_rate=rate,
            application_date=applied,
            closing_date=today + dt.timedelta(days=12 - 2 * stage),
            milestone=ms,
            funded_at=s.ago(days=1) if ms == "funded" else None,
        )
        s.create(
            Borrower,
            loan_id=loan.id,
            first_name=person.first_name,
            last_name=person.last_name,
            email=person.email,
            annual_income=income,
            monthly_debts=income // 60,
            credit_score=score,
        )
        if stage >= 1:
            s.create(
                Disclosure,
                loan_id=loan.id,
                kind="loan_estimate",
                apr=rate + 0.12,
                loan_amount=amount,
                sent_on=business_days_after(applied, 2),
                received_on=None if k == 1 else business_days_after(applied, 3),
            )
        for title, cat in CONDITIONS if stage >= 2 else ():
            cleared = stage + (k in (2, 4, 6)) >= CLEAR_AT[cat]
            status: ConditionStatus = "cleared" if cleared else ("received" if k % 2 else "open")
            s.create(Condition, loan_id=loan.id, title=title, category=cat, status=status)
        if stage >= 3:
            live = k != 6
            locked = today - dt.timedelta(days=20 if live else 50)
            s.create(
                Lock,
                loan_id=loan.id,
                rate=rate,
                lock_days=45,
                locked_on=locked,
                expires_on=locked + dt.timedelta(days=45),
                status="active" if live else "expired",
            )
        if stage >= 4:
            received = today - dt.timedelta(days=7) if k != 5 else today
            s.create(
                Disclosure,
                loan_id=loan.id,
                kind="closing_disclosure",
                apr=rate + 0.12,
                loan_amount=amount,
                sent_on=received,
                received_on=received,
            )
