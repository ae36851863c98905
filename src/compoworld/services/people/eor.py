"""Borderless Teams: global employment of contractors and employer-of-record (EOR) employees abroad.

Modeled on the Deel REST API v2: contracts (types fixed_rate, pay_as_you_go,
milestone and eor) with a compensation (amount, currency, scale) that go new →
waiting_for_client_sign → waiting_for_contractor_sign → in_progress, then
completed or terminated (or cancelled before they start); the country hiring
guide (EOR availability, currency, minimum salary, probation and notice
periods, employer contributions); milestones on milestone contracts and
timesheets (work submissions) on pay-as-you-go ones that are submitted, then
approved or declined; invoices generated per contract and period from the
fixed rate or what was approved, pending until paid; and off-boarding: a
termination with a reason and a last day that respects the country's notice
period for EOR employees, refused while submitted work awaits review.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Country, Currency, Date, Email, IdOf, JobTitle, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "eor",
    title="Borderless Teams",
    category="global_employment",
    modeled_on="Deel REST API v2: contracts (fixed_rate, pay_as_you_go, milestone, eor), signatures, "
    "milestones, timesheets, invoices, country hiring guides, terminations",
    description="Hiring and paying people abroad: contractor agreements and employer-of-record employment "
    "contracts with their compensation, the country rules that bound them, milestones and timesheets submitted "
    "for approval, the invoices each period produces, and off-boarding with notice periods.",
)

ContractId = Annotated[str, IdOf("eor.contract")]
CountryRuleId = Annotated[str, IdOf("eor.country_rule")]
MilestoneId = Annotated[str, IdOf("eor.milestone")]
TimesheetId = Annotated[str, IdOf("eor.timesheet")]
InvoiceId = Annotated[str, IdOf("eor.invoice")]

ContractType = Literal["fixed_rate", "pay_as_you_go", "milestone", "eor"]
ContractStatus = Literal[
    "new",
    "waiting_for_client_sign",
    "waiting_for_contractor_sign",
    "in_progress",
    "completed",
    "terminated",
    "cancelled",
]
Scale = Literal["hourly", "weekly", "monthly", "annual", "custom"]
SubmissionStatus = Literal["submitted", "approved", "declined"]
InvoiceStatus = Literal["pending", "paid", "void"]
TerminationReason = Literal["end_of_project", "resignation", "performance", "restructuring", "mutual_agreement"]
Period = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
"""A calendar month, YYYY-MM."""
Hours = Annotated[float, Field(gt=0, le=24)]
"""Hours worked on one day."""

ACTIVE: tuple[ContractStatus, ...] = ("in_progress",)
SIGNING: tuple[ContractStatus, ...] = ("new", "waiting_for_client_sign", "waiting_for_contractor_sign")


class CountryRule(Timestamped):
    """The hiring guide for one country: what an EOR employment there must respect."""

    id: CountryRuleId
    country: Country
    """ISO country code."""
    currency: Currency
    """The local payroll currency."""
    eor_available: bool
    """Whether EOR employment is offered there."""
    min_annual_salary_cents: Cents
    """The statutory minimum annual salary in local currency."""
    max_probation_days: Annotated[int, Field(ge=0, le=365)]
    """The longest probation allowed."""
    notice_days: Annotated[int, Field(ge=0, le=180)]
    """The employer's minimum notice period for a termination."""
    employer_cost_percent: Annotated[float, Field(ge=0, le=100)]
    """Employer social contributions on top of salary."""
    paid_leave_days: Annotated[int, Field(ge=0, le=60)]
    """Statutory paid leave per year."""


class Contract(Timestamped):
    """A contractor agreement or an EOR employment contract with one worker."""

    id: ContractId
    title: Title
    """The contract's name."""
    contract_type: ContractType
    """fixed_rate, pay_as_you_go, milestone or eor."""
    worker_name: PersonName
    """The worker's full name."""
    worker_email: Email
    """The worker's e-mail."""
    job_title: JobTitle
    """The role."""
    country: Country
    """Where the worker lives and works."""
    currency: Currency
    """The compensation currency."""
    rate_cents: Cents
    """The compensation amount per scale unit (milestone contracts: 0)."""
    scale: Scale
    """hourly, weekly, monthly, annual or custom (milestones)."""
    start_date: Date
    """The first day of work."""
    end_date: Date | None = None
    """The last day (fixed-term), if any."""
    probation_days: Annotated[int, Field(ge=0, le=365)] = 0
    """The probation period (EOR)."""
    scope: Text = ""
    """The scope of work."""
    manager_email: Email
    """The employee who manages the worker."""
    status: ContractStatus = "new"
    """new, waiting_for_client_sign, waiting_for_contractor_sign, in_progress, completed, terminated, cancelled."""
    client_signed_at: Date | None = None
    """When the company signed."""
    worker_signed_at: Date | None = None
    """When the worker signed."""
    termination_reason: TerminationReason | None = None
    """Why it was terminated."""
    last_day: Date | None = None
    """The last working day after off-boarding."""


class Milestone(Timestamped):
    """A deliverable of a milestone contract, paid once approved."""

    id: MilestoneId
    contract_id: ContractId
    """The milestone contract."""
    title: Title
    """The deliverable."""
    amount_cents: Annotated[int, Field(ge=1, le=10**10)]
    """What it pays, in the contract's currency."""
    status: SubmissionStatus = "submitted"
    """submitted, approved or declined."""
    invoice_id: InvoiceId | None = None
    """The invoice that bills it."""


class Timesheet(Timestamped):
    """Hours a pay-as-you-go contractor submitted for one day."""

    id: TimesheetId
    contract_id: ContractId
    """The pay-as-you-go contract."""
    work_date: Date
    """The day worked."""
    hours: Hours
    """Hours worked."""
    description: Text = ""
    """What was done."""
    status: SubmissionStatus = "submitted"
    """submitted, approved or declined."""
    invoice_id: InvoiceId | None = None
    """The invoice that bills it."""


class Invoice(Timestamped):
    """What a contract bills for a month: the fixed rate, or the approved milestones and hours."""

    id: InvoiceId
    contract_id: ContractId
    """The contract."""
    worker_email: Email
    """The worker paid."""
    period: Period
    """The month billed."""
    currency: Currency
    """The currency."""
    amount_cents: Cents
    """The total."""
    status: InvoiceStatus = "pending"
    """pending, paid or void."""
    due_date: Date
    """When payment is due."""


class CostEstimate(Value):
    """What an EOR employee costs the company per year in one country."""

    country: str
    """The country."""
    currency: str
    """Local currency."""
    annual_salary_cents: int
    """The gross salary."""
    employer_contributions_cents: int
    """Employer social contributions."""
    total_annual_cost_cents: int
    """Salary plus contributions."""
    monthly_cost_cents: int
    """The total over twelve months, rounded."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _rule(ctx: Ctx, country: str, field: str = "country") -> CountryRule:
    rule = ctx.first(CountryRule, country=country)
    if rule is None:
        raise RuleViolation(f"no hiring guide for {country}", field=field, hint="see eor__list_country_rules")
    return rule


def _guard_contract(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.status == old.status and old.status not in SIGNING + ACTIVE:
        raise RuleViolation(
            f"contract {new.id} is {old.status}", field="contract_id", hint="only live contracts are edited"
        )
    if new.end_date is not None and new.end_date < new.start_date:
        raise RuleViolation("the end date is before the start", field="end_date", hint="pick a later end date")


country_rules = service.resource(
    CountryRule,
    name="country_rule",
    plural="country_rules",
    prefix="cg",
    create=False,
    filters=("country", "eor_available", "currency"),
    update=(),
    delete=False,
    title="country hiring guide",
)
contracts = service.resource(
    Contract,
    name="contract",
    plural="contracts",
    prefix="ctr",
    create=False,
    filters=("status", "contract_type", "country", "worker_email", "manager_email"),
    search=("title", "worker_name", "job_title"),
    update=("title", "scope", "end_date", "manager_email"),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            SIGNING,
            "cancelled",
            "cancel the contract",
            description="Cancel a contract that has not started (still being signed).",
        ),
        "complete": Transition(
            "status",
            ACTIVE,
            "completed",
            "complete the contract",
            description="Mark a fixed-term contractor agreement completed at its end.",
        ),
    },
    guard_update=_guard_contract,
)
milestones = service.resource(
    Milestone,
    name="milestone",
    plural="milestones",
    prefix="ms",
    create=False,
    filters=("contract_id", "status", "invoice_id"),
    search=("title",),
    delete=False,
    transitions={
        "approve": Transition("status", ("submitted",), "approved", "approve the milestone"),
        "decline": Transition("status", ("submitted",), "declined", "decline the milestone"),
    },
)
timesheets = service.resource(
    Timesheet,
    name="timesheet",
    plural="timesheets",
    prefix="ts",
    create=False,
    filters=("contract_id", "status", "work_date", "invoice_id"),
    delete=False,
    transitions={
        "approve": Transition("status", ("submitted",), "approved", "approve the timesheet"),
        "decline": Transition("status", ("submitted",), "declined", "decline the timesheet"),
    },
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("contract_id", "worker_email", "status", "period"),
    delete=False,
    transitions={
        "pay": Transition("status", ("pending",), "paid", "pay the invoice"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_contract(ctx: Ctx) -> dict[str, Any] | None:
    taken = {c.worker_email for c in ctx.scan(Contract)}
    guides = {g.country for g in ctx.scan(CountryRule)}
    p = next((p for p in ctx.population.contacts if p.email not in taken and p.place.country in guides), None)
    if p is None:
        return None
    return {
        "title": f"Design services - {p.name}",
        "contract_type": "fixed_rate",
        "worker_name": p.name,
        "worker_email": p.email,
        "job_title": "Product Designer",
        "country": p.place.country,
        "currency": p.place.currency,
        "rate_cents": 600000,
        "scale": "monthly",
        "start_date": (ctx.today() + dt.timedelta(days=14)).isoformat(),
        "manager_email": ctx.population.employees[0].email,
    }


@service.tool(intent="create the contract", write=True, example=_example_contract)
def create_contract(
    ctx: Ctx,
    title: Title,
    contract_type: ContractType,
    worker_name: PersonName,
    worker_email: Email,
    job_title: JobTitle,
    country: Country,
    currency: Currency,
    rate_cents: Cents,
    scale: Scale,
    start_date: Date,
    manager_email: Email,
    end_date: Date | None = None,
    probation_days: Annotated[int, Field(ge=0, le=365)] = 0,
    scope: Text = "",
) -> Contract:
    """Draft a contract (status new); EOR contracts must meet the country's rules.

    Args:
        title: The contract's name.
        contract_type: fixed_rate, pay_as_you_go (hourly), milestone or eor (employment).
        worker_name: The worker's full name.
        worker_email: The worker's e-mail; one live contract per worker.
        job_title: The role.
        country: Where the worker works (must have a hiring guide).
        currency: Compensation currency (EOR: the country's currency).
        rate_cents: Amount per scale unit (EOR: annual salary at least the country minimum; milestone: 0).
        scale: hourly, weekly, monthly, annual or custom.
        start_date: First day of work (not in the past).
        manager_email: The employee who manages the worker.
        end_date: Last day of a fixed term, if any.
        probation_days: Probation (EOR; at most the country's maximum).
        scope: Scope of work.
    """
    rule = _rule(ctx, country)
    _staff(ctx, manager_email, "manager_email")
    if start_date < ctx.today():
        raise RuleViolation("a contract cannot start in the past", field="start_date", hint="start today or later")
    for other in ctx.where(Contract, worker_email=worker_email):
        if other.status in SIGNING + ACTIVE:
            raise Conflict(
                f"{worker_email} already has live contract {other.id}",
                field="worker_email",
                hint="amend or terminate that contract instead",
            )
    if contract_type == "eor":
        if not rule.eor_available:
            raise RuleViolation(f"EOR is not offered in {country}", field="country", hint="hire as a contractor")
        if currency != rule.currency:
            raise RuleViolation(
                f"EOR salaries in {country} are paid in {rule.currency}", field="currency", hint=f"use {rule.currency}"
            )
        if scale != "annual" or rate_cents < rule.min_annual_salary_cents:
            raise RuleViolation(
                f"an EOR salary is annual and at least {rule.min_annual_salary_cents} cents in {country}",
                field="rate_cents",
                hint="give the annual gross salary with scale annual",
            )
        if probation_days > rule.max_probation_days:
            raise RuleViolation(
                f"probation in {country} is at most {rule.max_probation_days} days",
                field="probation_days",
                hint="shorten it",
            )
    elif probation_days:
        raise RuleViolation("contractors have no probation", field="probation_days", hint="pass 0")
    if contract_type == "milestone" and (rate_cents or scale != "custom"):
        raise RuleViolation("milestone contracts pay per milestone", field="rate_cents", hint="pass 0 and custom")
    if contract_type != "milestone" and rate_cents <= 0:
        raise RuleViolation("the contract needs a rate", field="rate_cents", hint="give the amount per scale unit")
    if contract_type == "pay_as_you_go" and scale != "hourly":
        raise RuleViolation("pay-as-you-go contracts are hourly", field="scale", hint="use hourly")
    if end_date is not None and end_date < start_date:
        raise RuleViolation("the end date is before the start", field="end_date", hint="pick a later end date")
    return ctx.create(
        Contract,
        title=title,
        contract_type=contract_type,
        worker_name=worker_name,
        worker_email=worker_email,
        job_title=job_title,
        country=country,
        currency=currency,
        rate_cents=rate_cents,
        scale=scale,
        start_date=start_date,
        end_date=end_date,
        probation_days=probation_days,
        scope=scope,
        manager_email=manager_email,
    )


@service.tool(
    intent="sign the contract",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "new"}),
)
def sign_contract(ctx: Ctx, contract_id: ContractId) -> Contract:
    """The company signs a new contract, or countersigns one the worker has signed; the worker signs next.

    A contract moves new → waiting_for_client_sign → (company signs) → waiting_for_contractor_sign;
    once the worker signs (eor__record_worker_signature) it is in_progress.

    Args:
        contract_id: The contract.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status not in ("new", "waiting_for_client_sign"):
        raise Conflict(f"contract {c.id} is {c.status}", field="contract_id", hint="the company has already signed")
    return ctx.update(c, status="waiting_for_contractor_sign", client_signed_at=ctx.today())


@service.tool(
    intent="record the worker's signature",
    write=True,
    example=first_example(Contract, "contract_id", where={"status": "waiting_for_contractor_sign"}),
)
def record_worker_signature(ctx: Ctx, contract_id: ContractId) -> Contract:
    """Record that the worker signed a contract the company signed: it is in progress.

    Args:
        contract_id: The contract waiting for the worker.
    """
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "waiting_for_contractor_sign":
        raise Conflict(
            f"contract {c.id} is {c.status}", field="contract_id", hint="the company signs first (eor__sign_contract)"
        )
    return ctx.update(c, status="in_progress", worker_signed_at=ctx.today())


def _live(ctx: Ctx, contract_id: str, kind: ContractType | None = None) -> Contract:
    c = ctx.get(Contract, contract_id, field="contract_id")
    if c.status != "in_progress":
        raise Conflict(f"contract {c.id} is {c.status}", field="contract_id", hint="only in-progress contracts")
    if kind is not None and c.contract_type != kind:
        raise RuleViolation(
            f"contract {c.id} is {c.contract_type}, not {kind}", field="contract_id", hint=f"pick a {kind} contract"
        )
    return c


@service.tool(
    intent="amend the contract's rate",
    write=True,
    example=first_example(
        Contract, "contract_id", where={"status": "in_progress", "contract_type": "fixed_rate"}, rate_cents=900000
    ),
)
def amend_rate(ctx: Ctx, contract_id: ContractId, rate_cents: Cents) -> Contract:
    """Amend the compensation of an in-progress contract (EOR: never below the country minimum).

    Args:
        contract_id: The contract.
        rate_cents: The new amount per scale unit.
    """
    c = _live(ctx, contract_id)
    if c.contract_type == "milestone":
        raise RuleViolation("milestone contracts have no rate", field="contract_id", hint="add milestones instead")
    if rate_cents <= 0 or rate_cents == c.rate_cents:
        raise RuleViolation("give a new, positive rate", field="rate_cents", hint=f"it is now {c.rate_cents}")
    if c.contract_type == "eor":
        floor = _rule(ctx, c.country, "contract_id").min_annual_salary_cents
        if rate_cents < floor:
            raise RuleViolation(f"below the minimum of {floor} cents", field="rate_cents", hint="raise the salary")
    return ctx.update(c, rate_cents=rate_cents)


def _example_milestone(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contract, contract_type="milestone", status="in_progress")
    return None if c is None else {"contract_id": c.id, "title": "Final handover", "amount_cents": 150000}


@service.tool(intent="submit the milestone", write=True, example=_example_milestone)
def submit_milestone(
    ctx: Ctx, contract_id: ContractId, title: Title, amount_cents: Annotated[int, Field(ge=1, le=10**10)]
) -> Milestone:
    """Submit a deliverable of an in-progress milestone contract for approval; titles are unique per contract.

    Args:
        contract_id: The milestone contract.
        title: The deliverable.
        amount_cents: What it pays.
    """
    c = _live(ctx, contract_id, "milestone")
    if any(m.title.lower() == title.lower() for m in ctx.where(Milestone, contract_id=c.id)):
        raise Conflict(f"milestone {title!r} already exists", field="title", hint="name the deliverable differently")
    return ctx.create(Milestone, contract_id=c.id, title=title, amount_cents=amount_cents)


def _example_timesheet(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contract, contract_type="pay_as_you_go", status="in_progress")
    day = ctx.today().isoformat()
    return None if c is None else {"contract_id": c.id, "work_date": day, "hours": 6, "description": "API work"}


@service.tool(intent="submit the timesheet", write=True, example=_example_timesheet)
def submit_timesheet(
    ctx: Ctx, contract_id: ContractId, work_date: Date, hours: Hours, description: Text = ""
) -> Timesheet:
    """Submit hours for one day of an in-progress pay-as-you-go contract; at most 24 hours a day in all.

    Args:
        contract_id: The pay-as-you-go contract.
        work_date: The day (from the contract's start, not in the future).
        hours: Hours worked.
        description: What was done.
    """
    c = _live(ctx, contract_id, "pay_as_you_go")
    if work_date > ctx.today() or work_date < c.start_date:
        raise RuleViolation(
            "the day is outside the contract's past", field="work_date", hint="pick a worked day up to today"
        )
    same = ctx.where(Timesheet, contract_id=c.id, work_date=work_date)
    logged = sum(t.hours for t in same if t.status != "declined")
    if logged + hours > 24:
        raise RuleViolation(f"{logged} hours are already logged that day", field="hours", hint="log fewer hours")
    return ctx.create(Timesheet, contract_id=c.id, work_date=work_date, hours=hours, description=description)


def _period_bounds(period: str) -> tuple[dt.date, dt.date]:
    first = dt.date(int(period[:4]), int(period[5:]), 1)
    return first, add_months(first, 1) - dt.timedelta(days=1)


def _example_invoice(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contract, contract_type="fixed_rate", status="in_progress")
    return None if c is None else {"contract_id": c.id, "period": ctx.today().strftime("%Y-%m")}


@service.tool(intent="generate the invoice", write=True, example=_example_invoice)
def generate_invoice(ctx: Ctx, contract_id: ContractId, period: Period) -> Invoice:
    """Bill a month of an in-progress contract: the fixed rate, or the approved, unbilled milestones or hours.

    Args:
        contract_id: The contract (not EOR: EOR salaries run through local payroll).
        period: The month, YYYY-MM (not after the current month).
    """
    c = _live(ctx, contract_id)
    if c.contract_type == "eor":
        raise RuleViolation("EOR employees are paid by payroll", field="contract_id", hint="invoice contractors only")
    first, last = _period_bounds(period)
    if first > ctx.today() or last < c.start_date:
        raise RuleViolation(
            f"{period} is outside the contract's worked months", field="period", hint="bill a month already worked"
        )
    if any(i.status != "void" for i in ctx.where(Invoice, contract_id=c.id, period=period)):
        raise Conflict(f"{period} is already invoiced", field="period", hint="see eor__list_invoices")
    miles: list[Milestone] = []
    hours: list[Timesheet] = []
    if c.contract_type == "fixed_rate":
        amount = c.rate_cents * {"weekly": 4, "annual": 1}.get(c.scale, 1) // (12 if c.scale == "annual" else 1)
    elif c.contract_type == "milestone":
        miles = [m for m in ctx.where(Milestone, contract_id=c.id, status="approved") if m.invoice_id is None]
        amount = sum(m.amount_cents for m in miles)
    else:
        hours = [
            t
            for t in ctx.where(Timesheet, contract_id=c.id, status="approved")
            if t.invoice_id is None and first <= t.work_date <= last
        ]
        amount = round(sum(t.hours for t in hours) * c.rate_cents)
    if amount <= 0:
        raise RuleViolation(
            "nothing approved to bill", field="contract_id", hint="approve milestones or timesheets first"
        )
    inv = ctx.create(
        Invoice,
        contract_id=c.id,
        worker_email=c.worker_email,
        period=period,
        currency=c.currency,
        amount_cents=amount,
        due_date=ctx.today() + dt.timedelta(days=7),
    )
    for m in miles:
        ctx.update(m, invoice_id=inv.id)
    for t in hours:
        ctx.update(t, invoice_id=inv.id)
    return inv


@service.tool(
    intent="void the invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "pending"}),
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void a pending invoice: what it billed can be billed again.

    Args:
        invoice_id: The pending invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "pending":
        raise Conflict(f"invoice {inv.id} is {inv.status}", field="invoice_id", hint="only pending ones are voided")
    for m in ctx.where(Milestone, invoice_id=inv.id):
        ctx.update(m, invoice_id=None)
    for t in ctx.where(Timesheet, invoice_id=inv.id):
        ctx.update(t, invoice_id=None)
    return ctx.update(inv, status="void")


def _example_terminate(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Contract, status="in_progress", contract_type="eor"):
        rule = ctx.first(CountryRule, country=c.country)
        if rule is not None:
            day = ctx.today() + dt.timedelta(days=rule.notice_days + 1)
            return {"contract_id": c.id, "reason": "restructuring", "last_day": day.isoformat()}
    return None


@service.tool(intent="terminate the contract", write=True, destructive=True, example=_example_terminate)
def terminate_contract(ctx: Ctx, contract_id: ContractId, reason: TerminationReason, last_day: Date) -> Contract:
    """Off-board a worker: end an in-progress contract on a last day that respects the notice period.

    EOR employees get at least the country's notice unless they resign or agree otherwise (and none
    during probation); submitted work must be reviewed first.

    Args:
        contract_id: The in-progress contract.
        reason: end_of_project, resignation, performance, restructuring or mutual_agreement.
        last_day: The last working day (today or later).
    """
    c = _live(ctx, contract_id)
    today = ctx.today()
    if last_day < today:
        raise RuleViolation("the last day cannot be in the past", field="last_day", hint="pick today or later")
    pending = [m.id for m in ctx.where(Milestone, contract_id=c.id, status="submitted")]
    pending += [t.id for t in ctx.where(Timesheet, contract_id=c.id, status="submitted")]
    if pending:
        raise Conflict(
            f"submitted work awaits review: {', '.join(pending[:5])}",
            field="contract_id",
            hint="approve or decline it first",
        )
    if c.contract_type == "eor" and reason not in ("resignation", "mutual_agreement"):
        rule = _rule(ctx, c.country, "contract_id")
        on_probation = today < c.start_date + dt.timedelta(days=c.probation_days)
        notice = 0 if on_probation else rule.notice_days
        if last_day < today + dt.timedelta(days=notice):
            raise RuleViolation(
                f"{c.country} requires {notice} days' notice",
                field="last_day",
                hint=f"pick {today + dt.timedelta(days=notice)} or later",
            )
    return ctx.update(c, status="terminated", termination_reason=reason, last_day=last_day)


@service.tool(
    intent="estimate the employment cost", example=lambda ctx: {"country": "DE", "annual_salary_cents": 7000000}
)
def estimate_employment_cost(ctx: Ctx, country: Country, annual_salary_cents: Cents) -> CostEstimate:
    """The yearly cost of an EOR employee in a country: salary plus employer contributions.

    Args:
        country: Where the employee would work (EOR must be offered there).
        annual_salary_cents: The gross annual salary in local currency (at least the minimum).
    """
    rule = _rule(ctx, country)
    if not rule.eor_available:
        raise RuleViolation(f"EOR is not offered in {country}", field="country", hint="hire as a contractor")
    if annual_salary_cents < rule.min_annual_salary_cents:
        raise RuleViolation(
            f"below the minimum of {rule.min_annual_salary_cents} cents", field="annual_salary_cents", hint="raise it"
        )
    extra = round(annual_salary_cents * rule.employer_cost_percent / 100)
    total = annual_salary_cents + extra
    return CostEstimate(
        country=country,
        currency=rule.currency,
        annual_salary_cents=annual_salary_cents,
        employer_contributions_cents=extra,
        total_annual_cost_cents=total,
        monthly_cost_cents=round(total / 12),
    )


# -- seed -------------------------------------------------------------------------------------

GUIDES: tuple[tuple[str, str, bool, int, int, int, float, int], ...] = (
    # country, currency, eor, min annual salary (cents), max probation, notice, employer %, leave days
    ("AU", "AUD", True, 4_700_000, 180, 28, 12.5, 20),
    ("BR", "BRL", True, 1_900_000, 90, 30, 35.8, 30),
    ("CA", "CAD", True, 3_400_000, 90, 14, 11.0, 10),
    ("DE", "EUR", True, 2_600_000, 180, 28, 21.0, 20),
    ("ES", "EUR", True, 1_600_000, 180, 15, 31.0, 22),
    ("FR", "EUR", True, 2_100_000, 120, 30, 45.0, 25),
    ("GB", "GBP", True, 2_200_000, 180, 7, 15.0, 28),
    ("IT", "EUR", True, 1_800_000, 180, 30, 30.0, 26),
    ("JP", "JPY", True, 220_000_000, 180, 30, 15.5, 10),
    ("NL", "EUR", True, 2_500_000, 60, 30, 19.0, 20),
    ("SE", "SEK", True, 30_000_000, 180, 30, 31.4, 25),
    ("SG", "SGD", True, 2_000_000, 180, 7, 17.0, 7),
    ("US", "USD", False, 1_500_000, 90, 0, 10.0, 0),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Country guides; contractor agreements with contacts abroad and EOR contracts for staff abroad."""
    pop = s.population
    today = s.now.date()
    for c, cur, eor, floor, prob, notice, pct, leave in GUIDES:
        s.create(
            CountryRule,
            country=c,
            currency=cur,
            eor_available=eor,
            min_annual_salary_cents=floor,
            max_probation_days=prob,
            notice_days=notice,
            employer_cost_percent=pct,
            paid_leave_days=leave,
            created_at=s.ago(days=900),
        )
    guides = {g[0]: g for g in GUIDES}
    managers = pop.staff("Engineering", "Product", "Marketing", fallback=4)
    home = pop.home.place.country
    abroad = [p for p in pop.employees if p.place.country != home and guides.get(p.place.country, GUIDES[0])[2]]
    statuses: tuple[ContractStatus, ...] = ("in_progress", "in_progress", "waiting_for_contractor_sign", "terminated")
    for k, p in enumerate(abroad[:4]):
        g = guides[p.place.country]
        start = today - dt.timedelta(days=400 - 90 * k) if k != 2 else today + dt.timedelta(days=20)
        st = statuses[k]
        s.create(
            Contract,
            title=f"Employment agreement - {p.name}",
            contract_type="eor",
            worker_name=p.name,
            worker_email=p.email,
            job_title=p.job_title,
            country=p.place.country,
            currency=g[1],
            rate_cents=g[3] * 2 + 100_000 * k,
            scale="annual",
            start_date=start,
            probation_days=min(90, g[4]),
            manager_email=next(m.email for m in managers[k % len(managers) :] + managers if m.email != p.email),
            status=st,
            client_signed_at=start - dt.timedelta(days=10),
            worker_signed_at=None if st == "waiting_for_contractor_sign" else start - dt.timedelta(days=8),
            termination_reason="resignation" if st == "terminated" else None,
            last_day=today - dt.timedelta(days=15) if st == "terminated" else None,
            created_at=s.ago(days=430 - 90 * k if k != 2 else 5),
        )
    _seed_contractors(s, managers[0].email)


CONTRACTORS: tuple[tuple[ContractType, str, int, Scale, ContractStatus], ...] = (
    ("fixed_rate", "Brand Designer", 650_000, "monthly", "in_progress"),
    ("pay_as_you_go", "Backend Developer", 9_500, "hourly", "in_progress"),
    ("milestone", "Technical Writer", 0, "custom", "in_progress"),
    ("fixed_rate", "Data Analyst", 520_000, "monthly", "new"),
    ("pay_as_you_go", "QA Tester", 4_500, "hourly", "waiting_for_client_sign"),
    ("fixed_rate", "Localization Lead", 480_000, "monthly", "completed"),
    ("milestone", "Illustrator", 0, "custom", "cancelled"),
)


def _seed_contractors(s: SeedContext, manager: str) -> None:
    today = s.now.date()
    people = [p for p in s.population.contacts if p.place.country in {g[0] for g in GUIDES}]
    for k, (kind, role, rate, scale, st) in enumerate(CONTRACTORS):
        p = people[(k * 5) % len(people)]
        start = today - dt.timedelta(days=120 - 10 * k) if st not in ("new", "waiting_for_client_sign") else today
        c = s.create(
            Contract,
            title=f"{role} services - {p.name}",
            contract_type=kind,
            worker_name=p.name,
            worker_email=p.email,
            job_title=role,
            country=p.place.country,
            currency=p.place.currency,
            rate_cents=rate,
            scale=scale,
            start_date=start,
            end_date=today - dt.timedelta(days=5) if st == "completed" else None,
            scope=f"{role} work as agreed with the team.",
            manager_email=manager,
            status=st,
            client_signed_at=start - dt.timedelta(days=3) if st in (*ACTIVE, "completed") else None,
            worker_signed_at=start - dt.timedelta(days=2) if st in (*ACTIVE, "completed") else None,
            created_at=s.ago(days=130 - 10 * k),
        )
        if st != "in_progress":
            continue
        if kind == "milestone":
            for j, (title, amount, ms) in enumerate(
                (
                    ("Style guide", 180_000, "approved"),
                    ("API reference", 240_000, "approved"),
                    ("Onboarding tutorial", 120_000, "submitted"),
                    ("Glossary", 40_000, "declined"),
                )
            ):
                s.create(
                    Milestone,
                    contract_id=c.id,
                    title=title,
                    amount_cents=amount,
                    status=ms,
                    created_at=s.ago(days=60 - 15 * j),
                )
        elif kind == "pay_as_you_go":
            for j in range(8):
                day = today - dt.timedelta(days=2 + j * 3)
                ts: SubmissionStatus = "submitted" if j < 3 else ("declined" if j == 5 else "approved")
                s.create(
                    Timesheet,
                    contract_id=c.id,
                    work_date=day,
                    hours=6 + j % 3,
                    status=ts,
                    description="Feature work and code review.",
                    created_at=s.ago(days=1 + j * 3),
                )
        else:
            for j, month in enumerate((add_months(today, -2), add_months(today, -1))):
                s.create(
                    Invoice,
                    contract_id=c.id,
                    worker_email=c.worker_email,
                    period=month.strftime("%Y-%m"),
                    currency=c.currency,
                    amount_cents=rate,
                    status="paid" if j == 0 else "pending",
                    due_date=today + dt.timedelta(days=7 * j - 20),
                    created_at=s.ago(days=40 - 30 * j),
                )
