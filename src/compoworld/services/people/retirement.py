"""Nestegg 401(k): plan administration, participants, deferral elections, payroll contributions, loans, hardships.

Modeled on the Guideline and Human Interest 401(k) platforms and their payroll
APIs (plan with employer match and eligibility rules, participants with
eligibility and enrollment status, deferral elections in pre-tax and Roth
percentages, contributions per pay date, participant loans and hardship
withdrawals): a participant becomes eligible at the plan's minimum age and months
of service; only an eligible or opted-out participant enrolls, and only an enrolled
one changes the election; pre-tax plus Roth is at most 90% of pay; each pay date
is contributed once, the employee deferral is capped at the IRS 402(g) limit of
the year (plus the age-50 catch-up), and the employer matches a share of the
deferral up to a percentage of pay; a loan is between $1,000 and the lesser of
$50,000 and half the vested balance, one outstanding at a time, over one to five
years; a hardship withdrawal needs a safe-harbor reason and documentation, and
is at most the vested balance less any outstanding loan.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "retirement",
    title="Nestegg 401(k)",
    category="retirement_plans",
    modeled_on="Guideline / Human Interest 401(k) platforms and payroll APIs (plan, participants, "
    "deferral elections, contributions per payroll, loans, hardship withdrawals)",
    description="The company's 401(k) plan: its employer match and eligibility rules, employees as "
    "participants who become eligible, enroll or opt out, their pre-tax and Roth deferral elections, the "
    "contributions each payroll sends within IRS limits, participant loans and hardship withdrawals.",
)

PlanId = Annotated[str, IdOf("retirement.plan")]
ParticipantId = Annotated[str, IdOf("retirement.participant")]
ElectionId = Annotated[str, IdOf("retirement.election")]
ContributionId = Annotated[str, IdOf("retirement.contribution")]
LoanId = Annotated[str, IdOf("retirement.loan")]
WithdrawalId = Annotated[str, IdOf("retirement.withdrawal")]

PlanType = Literal["safe_harbor_401k", "traditional_401k"]
ParticipantStatus = Literal["ineligible", "eligible", "enrolled", "opted_out", "terminated"]
LoanStatus = Literal["requested", "active", "paid_off", "denied"]
HardshipReason = Literal["medical", "home_purchase", "tuition", "eviction_prevention", "funeral", "casualty_loss"]
WithdrawalStatus = Literal["requested", "approved", "denied"]
Pct = Annotated[float, Field(ge=0, le=100)]

LIMIT_402G = {2024: 2_300_000, 2025: 2_350_000, 2026: 2_450_000}
CATCH_UP = {2024: 750_000, 2025: 750_000, 2026: 800_000}
MAX_DEFERRAL_PCT = 90.0
LOAN_MIN, LOAN_MAX = 100_000, 5_000_000


class Plan(Record):
    """The 401(k) plan and its rules."""

    id: PlanId
    name: Title
    """Its name."""
    plan_type: PlanType
    """safe_harbor_401k or traditional_401k."""
    match_percent: Pct = 100.0
    """Share of each deferred dollar the employer matches."""
    match_limit_percent: Annotated[float, Field(ge=0, le=10)] = 4.0
    """Deferral up to this percentage of pay is matched."""
    min_age: Annotated[int, Field(ge=18, le=21)] = 21
    """Age at which employees become eligible."""
    service_months: Annotated[int, Field(ge=0, le=12)] = 0
    """Months of service before eligibility."""
    auto_enroll_percent: Annotated[float, Field(ge=0, le=10)] = 3.0
    """Pre-tax percentage given at enrollment when none is chosen."""
    loans_allowed: bool = True
    """Whether participants may borrow."""
    updated_at: Annotated[DateTime, UPDATED]
    """When its rules last changed."""


class Participant(Record):
    """An employee's account in the plan."""

    id: ParticipantId
    employee_email: Email
    """The employee."""
    name: PersonName
    """Their name."""
    birth_date: Date
    """Date of birth (eligibility, catch-up)."""
    hire_date: Date
    """Date of hire (eligibility)."""
    status: ParticipantStatus = "ineligible"
    """ineligible, eligible, enrolled, opted_out or terminated."""
    eligible_on: Date | None = None
    """When they became eligible."""
    pre_tax_percent: Pct = 0.0
    """Current pre-tax deferral, percent of pay."""
    roth_percent: Pct = 0.0
    """Current Roth deferral, percent of pay."""
    balance_cents: Cents = 0
    """Account balance."""
    vested_balance_cents: Cents = 0
    """The part of the balance they own."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Election(Record):
    """A deferral election, effective from a date."""

    id: ElectionId
    participant_id: ParticipantId
    """The participant."""
    pre_tax_percent: Pct
    """Pre-tax percent of pay."""
    roth_percent: Pct
    """Roth percent of pay."""
    effective_date: Date
    """First pay date it applies to."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Contribution(Record):
    """What one payroll sent to a participant's account."""

    id: ContributionId
    participant_id: ParticipantId
    """The participant."""
    pay_date: Date
    """The pay date."""
    gross_pay_cents: Cents
    """Gross pay of the period."""
    pre_tax_cents: Cents
    """Employee pre-tax deferral."""
    roth_cents: Cents
    """Employee Roth deferral."""
    employer_match_cents: Cents
    """Employer match."""
    capped: bool = False
    """Whether the IRS limit cut the deferral."""


class Loan(Record):
    """A loan from a participant's account."""

    id: LoanId
    participant_id: ParticipantId
    """The participant."""
    amount_cents: Cents
    """The principal."""
    term_months: Annotated[int, Field(ge=12, le=60)]
    """Repayment term."""
    interest_rate: Annotated[float, Field(ge=0, le=20)]
    """Annual interest, percent (prime + 1)."""
    status: LoanStatus = "requested"
    """requested, active, paid_off or denied."""
    outstanding_cents: Cents = 0
    """Principal still owed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Withdrawal(Record):
    """A hardship withdrawal request."""

    id: WithdrawalId
    participant_id: ParticipantId
    """The participant."""
    amount_cents: Cents
    """Amount requested."""
    reason: HardshipReason
    """The IRS safe-harbor hardship reason."""
    documentation_received: bool = False
    """Whether proof of the hardship was received."""
    status: WithdrawalStatus = "requested"
    """requested, approved or denied."""
    note: Text = ""
    """The administrator's note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


class YearToDate(Value):
    """A participant's deferrals against the IRS limit for a year."""

    participant_id: ParticipantId
    """The participant."""
    year: int
    """The plan year."""
    employee_deferral_cents: int
    """Pre-tax plus Roth this year."""
    employer_match_cents: int
    """Match this year."""
    limit_cents: int
    """402(g) limit including any catch-up."""
    remaining_cents: int
    """Deferral room left."""


# -- rules ------------------------------------------------------------------------------------


def _plan(ctx: Ctx) -> Plan:
    plan = ctx.first(Plan)
    if plan is None:
        raise RuleViolation("the company has no plan", field=None, hint="set up a plan first")
    return plan


def _limit(birth: dt.date, year: int) -> int:
    base = LIMIT_402G.get(year, LIMIT_402G[max(LIMIT_402G)])
    catch = CATCH_UP.get(year, CATCH_UP[max(CATCH_UP)])
    return base + (catch if year - birth.year >= 50 else 0)


def _check_split(pre_tax: float, roth: float) -> None:
    if pre_tax + roth > MAX_DEFERRAL_PCT:
        raise RuleViolation(
            f"pre-tax plus Roth is {pre_tax + roth}%", field="pre_tax_percent", hint="defer at most 90% of pay"
        )


plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="plan",
    create=False,
    filters=("plan_type",),
    update=("match_percent", "match_limit_percent", "auto_enroll_percent", "loans_allowed", "service_months"),
    delete=False,
)
participants = service.resource(
    Participant,
    name="participant",
    plural="participants",
    prefix="ppt",
    create=False,
    filters=("employee_email", "status"),
    search=("name",),
    delete=False,
)
elections = service.resource(
    Election,
    name="election",
    plural="elections",
    prefix="el",
    create=False,
    get=False,
    filters=("participant_id",),
    delete=False,
    title="deferral election",
)
contributions = service.resource(
    Contribution,
    name="contribution",
    plural="contributions",
    prefix="ctb",
    create=False,
    get=False,
    filters=("participant_id", "pay_date", "capped"),
    delete=False,
)
loans = service.resource(
    Loan, name="loan", plural="loans", prefix="loan", create=False, filters=("participant_id", "status"), delete=False
)
withdrawals = service.resource(
    Withdrawal,
    name="withdrawal",
    plural="withdrawals",
    prefix="hw",
    create=False,
    filters=("participant_id", "status", "reason"),
    update=("documentation_received", "note"),
    delete=False,
    title="hardship withdrawal",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    taken = {p.employee_email for p in ctx.scan(Participant)}
    p = next((p for p in ctx.population.employees if p.email not in taken and p.hire_date), None)
    if p is None or p.hire_date is None:
        return None
    return {
        "employee_email": p.email,
        "name": p.name,
        "birth_date": p.birth_date.isoformat(),
        "hire_date": p.hire_date.isoformat(),
    }


@service.tool(intent="add the employee to the plan", write=True, example=_example_add)
def add_participant(
    ctx: Ctx, employee_email: Email, name: PersonName, birth_date: Date, hire_date: Date
) -> Participant:
    """Add an employee as a participant (once); eligibility is checked at once.

    Args:
        employee_email: The employee.
        name: Their name.
        birth_date: Date of birth.
        hire_date: Date of hire.
    """
    if employee_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{employee_email} is not an employee", field="employee_email", hint="employees only")
    if ctx.first(Participant, employee_email=employee_email) is not None:
        raise Conflict(f"{employee_email} is already a participant", field="employee_email", hint="get it")
    if hire_date > ctx.today() or birth_date >= hire_date:
        raise RuleViolation("hire_date must be past and after birth", field="hire_date", hint="check the dates")
    made = ctx.create(Participant, employee_email=employee_email, name=name, birth_date=birth_date, hire_date=hire_date)
    return _eligibility(ctx, made)


def _eligible_on(plan: Plan, p: Participant) -> dt.date:
    by_age = p.birth_date.replace(year=p.birth_date.year + plan.min_age, day=min(p.birth_date.day, 28))
    return max(by_age, add_months(p.hire_date, plan.service_months))


def _eligibility(ctx: Ctx, p: Participant) -> Participant:
    when = _eligible_on(_plan(ctx), p)
    if p.status == "ineligible" and when <= ctx.today():
        return ctx.update(p, status="eligible", eligible_on=when)
    return p


@service.tool(
    intent="check the participant's eligibility",
    write=True,
    idempotent=True,
    example=first_example(Participant, "participant_id", where={"status": "ineligible"}),
)
def check_eligibility(ctx: Ctx, participant_id: ParticipantId) -> Participant:
    """Make an ineligible participant eligible once they meet the plan's age and service rules.

    Args:
        participant_id: The participant.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    return _eligibility(ctx, p)


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Participant, status="eligible")
    return None if p is None else {"participant_id": p.id, "pre_tax_percent": 6.0, "roth_percent": 2.0}


@service.tool(intent="enroll the participant", write=True, example=_example_enroll)
def enroll(
    ctx: Ctx, participant_id: ParticipantId, pre_tax_percent: Pct | None = None, roth_percent: Pct = 0.0
) -> Participant:
    """Enroll an eligible (or opted-out) participant with a deferral election.

    Without percentages, the plan's auto-enrollment rate applies pre-tax.

    Args:
        participant_id: The participant.
        pre_tax_percent: Pre-tax percent of pay (default: the plan's auto-enrollment rate).
        roth_percent: Roth percent of pay.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if p.status not in ("eligible", "opted_out"):
        raise RuleViolation(
            f"participant {p.id} is {p.status}",
            field="participant_id",
            hint="check eligibility first" if p.status == "ineligible" else "change the election instead",
        )
    pre = _plan(ctx).auto_enroll_percent if pre_tax_percent is None else pre_tax_percent
    _check_split(pre, roth_percent)
    ctx.create(
        Election, participant_id=p.id, pre_tax_percent=pre, roth_percent=roth_percent, effective_date=ctx.today()
    )
    return ctx.update(p, status="enrolled", pre_tax_percent=pre, roth_percent=roth_percent)


@service.tool(
    intent="change the deferral election",
    write=True,
    example=first_example(Participant, "participant_id", where={"status": "enrolled"}, pre_tax_percent=8.0),
)
def change_election(
    ctx: Ctx, participant_id: ParticipantId, pre_tax_percent: Pct, roth_percent: Pct = 0.0
) -> Participant:
    """Change an enrolled participant's deferral percentages from today; zero for both stops deferring.

    Args:
        participant_id: The enrolled participant.
        pre_tax_percent: Pre-tax percent of pay.
        roth_percent: Roth percent of pay.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if p.status != "enrolled":
        raise RuleViolation(f"participant {p.id} is {p.status}", field="participant_id", hint="enroll them first")
    _check_split(pre_tax_percent, roth_percent)
    if (pre_tax_percent, roth_percent) == (p.pre_tax_percent, p.roth_percent):
        raise Conflict("the election is unchanged", field="pre_tax_percent", hint="give new percentages")
    ctx.create(
        Election,
        participant_id=p.id,
        pre_tax_percent=pre_tax_percent,
        roth_percent=roth_percent,
        effective_date=ctx.today(),
    )
    return ctx.update(p, pre_tax_percent=pre_tax_percent, roth_percent=roth_percent)


@service.tool(
    intent="opt the participant out",
    write=True,
    example=first_example(Participant, "participant_id", where={"status": "eligible"}),
)
def opt_out(ctx: Ctx, participant_id: ParticipantId) -> Participant:
    """An eligible or enrolled participant declines to defer; deferrals stop.

    Args:
        participant_id: The participant.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if p.status not in ("eligible", "enrolled"):
        raise RuleViolation(f"participant {p.id} is {p.status}", field="participant_id", hint="nothing to opt out of")
    return ctx.update(p, status="opted_out", pre_tax_percent=0.0, roth_percent=0.0)


@service.tool(
    intent="terminate the participant",
    write=True,
    destructive=True,
    example=first_example(Participant, "participant_id", where={"status": "enrolled"}),
)
def terminate_participant(ctx: Ctx, participant_id: ParticipantId) -> Participant:
    """Record that the employee left: deferrals stop; the vested balance stays in the plan.

    Args:
        participant_id: The participant.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if p.status == "terminated":
        raise Conflict(f"participant {p.id} is already terminated", field="participant_id", hint="nothing to do")
    return ctx.update(p, status="terminated", pre_tax_percent=0.0, roth_percent=0.0)


def _ytd(ctx: Ctx, p: Participant, year: int) -> tuple[int, int]:
    rows = [c for c in ctx.where(Contribution, participant_id=p.id) if c.pay_date.year == year]
    return sum(c.pre_tax_cents + c.roth_cents for c in rows), sum(c.employer_match_cents for c in rows)


def _example_contribute(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Participant, status="enrolled")
    return (
        None if p is None else {"participant_id": p.id, "pay_date": ctx.today().isoformat(), "gross_pay_cents": 500_000}
    )


@service.tool(intent="record the payroll contribution", write=True, example=_example_contribute)
def record_contribution(
    ctx: Ctx, participant_id: ParticipantId, pay_date: Date, gross_pay_cents: Cents
) -> Contribution:
    """Record one pay date's deferrals at the current election and the employer match, within the IRS limit.

    Args:
        participant_id: The enrolled participant.
        pay_date: The pay date (once per participant).
        gross_pay_cents: Gross pay of the period, in cents.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if p.status != "enrolled":
        raise RuleViolation(f"participant {p.id} is {p.status}", field="participant_id", hint="only enrolled ones")
    if ctx.first(Contribution, participant_id=p.id, pay_date=pay_date) is not None:
        raise Conflict(f"pay date {pay_date} is already contributed", field="pay_date", hint="one per pay date")
    if pay_date > ctx.today() + dt.timedelta(days=7):
        raise RuleViolation("pay_date is more than a week ahead", field="pay_date", hint="record it when paid")
    plan = _plan(ctx)
    done, _ = _ytd(ctx, p, pay_date.year)
    room = max(0, _limit(p.birth_date, pay_date.year) - done)
    pre = round(gross_pay_cents * p.pre_tax_percent / 100)
    roth = round(gross_pay_cents * p.roth_percent / 100)
    capped = pre + roth > room
    if capped:
        pre, roth = min(pre, room), min(roth, max(0, room - min(pre, room)))
    matched_base = min(pre + roth, round(gross_pay_cents * plan.match_limit_percent / 100))
    match = round(matched_base * plan.match_percent / 100)
    ctx.update(
        p,
        balance_cents=p.balance_cents + pre + roth + match,
        vested_balance_cents=p.vested_balance_cents + pre + roth + match,
    )
    return ctx.create(
        Contribution,
        participant_id=p.id,
        pay_date=pay_date,
        gross_pay_cents=gross_pay_cents,
        pre_tax_cents=pre,
        roth_cents=roth,
        employer_match_cents=match,
        capped=capped,
    )


@service.tool(intent="show the year-to-date deferrals", example=first_example(Participant, "participant_id", year=2026))
def year_to_date(ctx: Ctx, participant_id: ParticipantId, year: Annotated[int, Field(ge=2000, le=2100)]) -> YearToDate:
    """A participant's deferrals and match in a year, and the room left under the IRS limit.

    Args:
        participant_id: The participant.
        year: The plan year.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    own, match = _ytd(ctx, p, year)
    limit = _limit(p.birth_date, year)
    return YearToDate(
        participant_id=p.id,
        year=year,
        employee_deferral_cents=own,
        employer_match_cents=match,
        limit_cents=limit,
        remaining_cents=max(0, limit - own),
    )


def _outstanding(ctx: Ctx, p: Participant) -> int:
    return sum(x.outstanding_cents for x in ctx.where(Loan, participant_id=p.id, status="active"))


def _example_loan(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Participant, status="enrolled"):
        busy = any(x.status in ("requested", "active") for x in ctx.where(Loan, participant_id=p.id))
        if not busy and p.vested_balance_cents >= 2 * LOAN_MIN:
            return {"participant_id": p.id, "amount_cents": LOAN_MIN, "term_months": 24}
    return None


@service.tool(intent="request the loan", write=True, example=_example_loan)
def request_loan(
    ctx: Ctx,
    participant_id: ParticipantId,
    amount_cents: Cents,
    term_months: Annotated[int, Field(ge=12, le=60)],
) -> Loan:
    """Request a loan: $1,000 up to the lesser of $50,000 and half the vested balance; one at a time.

    Args:
        participant_id: The participant (enrolled or opted out, with a balance).
        amount_cents: The principal, in cents.
        term_months: Repayment term, 12-60 months.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if not _plan(ctx).loans_allowed:
        raise RuleViolation("the plan does not allow loans", field="participant_id", hint="consider a hardship")
    if p.status not in ("enrolled", "opted_out"):
        raise RuleViolation(f"participant {p.id} is {p.status}", field="participant_id", hint="active participants")
    if any(x.status in ("requested", "active") for x in ctx.where(Loan, participant_id=p.id)):
        raise Conflict("a loan is already requested or outstanding", field="participant_id", hint="repay it first")
    cap = min(LOAN_MAX, p.vested_balance_cents // 2)
    if amount_cents < LOAN_MIN or amount_cents > cap:
        raise RuleViolation(
            f"a loan is between {LOAN_MIN} and {cap} cents here", field="amount_cents", hint=f"ask for at most {cap}"
        )
    return ctx.create(Loan, participant_id=p.id, amount_cents=amount_cents, term_months=term_months, interest_rate=8.5)


@service.tool(
    intent="review the loan",
    write=True,
    example=first_example(Loan, "loan_id", where={"status": "requested"}, approve=True),
)
def review_loan(ctx: Ctx, loan_id: LoanId, approve: bool) -> Loan:
    """Approve a requested loan (it is disbursed from the balance and becomes active) or deny it.

    Args:
        loan_id: The requested loan.
        approve: True to approve.
    """
    loan = ctx.get(Loan, loan_id, field="loan_id")
    if loan.status != "requested":
        raise RuleViolation(f"loan {loan.id} is {loan.status}", field="loan_id", hint="only requested loans")
    if not approve:
        return ctx.update(loan, status="denied")
    p = ctx.get(Participant, loan.participant_id)
    ctx.update(
        p,
        balance_cents=p.balance_cents - loan.amount_cents,
        vested_balance_cents=p.vested_balance_cents - loan.amount_cents,
    )
    return ctx.update(loan, status="active", outstanding_cents=loan.amount_cents)


@service.tool(
    intent="record the loan repayment",
    write=True,
    example=first_example(Loan, "loan_id", where={"status": "active"}, amount_cents=10_000),
)
def repay_loan(ctx: Ctx, loan_id: LoanId, amount_cents: Annotated[int, Field(ge=1, le=5_000_000)]) -> Loan:
    """Record a repayment of an active loan; repaying the rest pays it off.

    Args:
        loan_id: The active loan.
        amount_cents: The repayment, at most what is outstanding.
    """
    loan = ctx.get(Loan, loan_id, field="loan_id")
    if loan.status != "active":
        raise RuleViolation(f"loan {loan.id} is {loan.status}", field="loan_id", hint="only active loans")
    if amount_cents > loan.outstanding_cents:
        raise RuleViolation(f"only {loan.outstanding_cents} is owed", field="amount_cents", hint="repay at most that")
    p = ctx.get(Participant, loan.participant_id)
    ctx.update(
        p, balance_cents=p.balance_cents + amount_cents, vested_balance_cents=p.vested_balance_cents + amount_cents
    )
    left = loan.outstanding_cents - amount_cents
    return ctx.update(loan, outstanding_cents=left, status="active" if left else "paid_off")


def _example_hardship(ctx: Ctx) -> dict[str, Any] | None:
    p = next((p for p in ctx.where(Participant, status="enrolled") if p.vested_balance_cents > 500_000), None)
    return None if p is None else {"participant_id": p.id, "amount_cents": 300_000, "reason": "medical"}


@service.tool(intent="request the hardship withdrawal", write=True, example=_example_hardship)
def request_hardship(
    ctx: Ctx, participant_id: ParticipantId, amount_cents: Cents, reason: HardshipReason
) -> Withdrawal:
    """Request a hardship withdrawal of at most the vested balance less any outstanding loan.

    Args:
        participant_id: The participant.
        amount_cents: The amount, in cents.
        reason: medical, home_purchase, tuition, eviction_prevention, funeral or casualty_loss.
    """
    p = ctx.get(Participant, participant_id, field="participant_id")
    if p.status in ("ineligible", "eligible"):
        raise RuleViolation(f"participant {p.id} has no account yet", field="participant_id", hint="enroll first")
    if any(w.status == "requested" for w in ctx.where(Withdrawal, participant_id=p.id)):
        raise Conflict("a hardship request is already open", field="participant_id", hint="wait for its review")
    room = p.vested_balance_cents - _outstanding(ctx, p)
    if amount_cents < 1 or amount_cents > room:
        raise RuleViolation(f"at most {max(room, 0)} cents is available", field="amount_cents", hint="ask for less")
    return ctx.create(Withdrawal, participant_id=p.id, amount_cents=amount_cents, reason=reason)


@service.tool(
    intent="review the hardship withdrawal",
    write=True,
    example=first_example(
        Withdrawal, "withdrawal_id", where={"status": "requested", "documentation_received": True}, approve=True
    ),
)
def review_hardship(ctx: Ctx, withdrawal_id: WithdrawalId, approve: bool, note: Text = "") -> Withdrawal:
    """Approve (pay out of the vested balance) or deny a hardship request; approval needs documentation.

    Args:
        withdrawal_id: The requested withdrawal.
        approve: True to approve.
        note: The administrator's note.
    """
    w = ctx.get(Withdrawal, withdrawal_id, field="withdrawal_id")
    if w.status != "requested":
        raise RuleViolation(f"withdrawal {w.id} is {w.status}", field="withdrawal_id", hint="only requested ones")
    if not approve:
        return ctx.update(w, status="denied", note=note)
    if not w.documentation_received:
        raise RuleViolation(
            "no documentation of the hardship", field="withdrawal_id", hint="set documentation_received first"
        )
    p = ctx.get(Participant, w.participant_id)
    if w.amount_cents > p.vested_balance_cents - _outstanding(ctx, p):
        raise RuleViolation("the balance no longer covers it", field="withdrawal_id", hint="deny it")
    ctx.update(
        p, balance_cents=p.balance_cents - w.amount_cents, vested_balance_cents=p.vested_balance_cents - w.amount_cents
    )
    return ctx.update(w, status="approved", note=note)


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """One safe-harbor plan, every employee a participant by status, elections, payroll history, loans, hardships."""
    pop = s.population
    today = s.now.date()
    plan = s.create(
        Plan,
        name=f"{pop.home.name} 401(k) Plan",
        plan_type="safe_harbor_401k",
        service_months=3,
        updated_at=s.ago(days=365),
    )
    made: list[Participant] = []
    for k, person in enumerate(pop.employees[:36]):
        hire = person.hire_date or (today - dt.timedelta(days=400))
        if k % 9 == 8:
            hire = today - dt.timedelta(days=30 + k)
        p = s.create(
            Participant,
            employee_email=person.email,
            name=person.name,
            birth_date=person.birth_date,
            hire_date=hire,
            created_at=s.ago(days=max(1, (today - hire).days)),
        )
        when = _eligible_on(plan, p)
        status: ParticipantStatus = (
            "ineligible"
            if when > today
            else ("enrolled", "enrolled", "enrolled", "eligible", "opted_out", "terminated")[k % 6]
        )
        pre, roth = ((6.0, 0.0), (4.0, 4.0), (10.0, 2.0))[k % 3] if status == "enrolled" else (0.0, 0.0)
        if k == 0:
            pre = 75.0
        bal = 0 if status in ("ineligible", "eligible") else 1_500_000 + 731_000 * (k % 11)
        p = s.update(
            p,
            status=status,
            eligible_on=when if status != "ineligible" else None,
            pre_tax_percent=pre,
            roth_percent=roth,
            balance_cents=bal,
            vested_balance_cents=bal,
        )
        made.append(p)
        if status == "enrolled":
            s.create(
                Election,
                participant_id=p.id,
                pre_tax_percent=pre,
                roth_percent=roth,
                effective_date=max(when, today - dt.timedelta(days=200)),
                created_at=s.ago(days=200),
            )
            added = _seed_payroll(s, plan, p, k)
            s.update(p, balance_cents=bal + added, vested_balance_cents=bal + added)
    enrolled = [p for p in s.records(Participant) if p.status == "enrolled"]
    if len(enrolled) >= 4:
        s.create(
            Loan,
            participant_id=enrolled[1].id,
            amount_cents=500_000,
            term_months=36,
            interest_rate=8.5,
            status="active",
            outstanding_cents=320_000,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=14),
        )
        s.create(
            Loan,
            participant_id=enrolled[2].id,
            amount_cents=400_000,
            term_months=24,
            interest_rate=8.5,
            created_at=s.ago(days=2),
            updated_at=s.ago(days=2),
        )
        s.create(
            Withdrawal,
            participant_id=enrolled[3].id,
            amount_cents=250_000,
            reason="medical",
            documentation_received=True,
            created_at=s.ago(days=3),
        )
        s.create(
            Withdrawal,
            participant_id=enrolled[2].id,
            amount_cents=800_000,
            reason="home_purchase",
            created_at=s.ago(days=5),
        )


def _seed_payroll(s: SeedContext, plan: Plan, p: Participant, k: int) -> int:
    """Pay dates of this year up to today (the 15th and the month end); returns what they added to the balance."""
    gross = 450_000 + 35_000 * (k % 8) if k else 5_000_000
    day = dt.date(s.now.year, 1, 15)
    done = added = 0
    limit = _limit(p.birth_date, day.year)
    while day <= s.now.date():
        pre, roth = round(gross * p.pre_tax_percent / 100), round(gross * p.roth_percent / 100)
        capped = done + pre + roth > limit
        if capped:
            pre, roth = max(0, min(pre, limit - done)), 0
        match = round(min(pre + roth, round(gross * plan.match_limit_percent / 100)) * plan.match_percent / 100)
        done += pre + roth
        added += pre + roth + match
        s.create(
            Contribution,
            participant_id=p.id,
            pay_date=day,
            gross_pay_cents=gross,
            pre_tax_cents=pre,
            roth_cents=roth,
            employer_match_cents=match,
            capped=capped,
        )
        month_end = add_months(day.replace(day=1), 1) - dt.timedelta(days=1)
        day = month_end if day.day == 15 else add_months(day.replace(day=15), 1)
    return added
