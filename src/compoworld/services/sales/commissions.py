"""Quotient Commissions: plans with tiered rates, quotas, credited deals, statements, disputes and payouts.

Modeled on CaptivateIQ's API (plans, periods, quota attainment, payout statements with
draft → published → approved, inquiries/disputes, payouts locked when the period closes)
and Spiff's (commission plans with rate tables, credited deal splits, statement approvals):
a plan's rate table pays each slice of the credited amount at the rate of the attainment tier
it falls in (accelerators above 100 %). A rep needs a quota under an active plan for a period
before a deal is credited to them there; splits of one deal never exceed 100 %. A statement is
calculated as a draft from the period's credits, published to the rep, and approved by Finance
(not the rep, never while a dispute is open); a resolved dispute adds its adjustment and sends
the statement back to draft. An approved statement gets one payout; closing a period needs every
statement in it approved, locks its payouts and refuses further credits.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "commissions",
    title="Quotient Commissions",
    category="sales_commissions",
    modeled_on="CaptivateIQ API (plans, periods, payout statements, inquiries, payouts) and Spiff "
    "(commission plans with rate tables, credited deals and splits, statement approvals)",
    description="Sales commissions: commission plans with tiered rate tables, quotas per rep and period, deals "
    "credited to reps with splits, monthly statements from draft to published to approved, disputes about them, "
    "and payouts that lock when the period closes.",
)

PlanId = Annotated[str, IdOf("commissions.plan")]
PeriodId = Annotated[str, IdOf("commissions.period")]
QuotaId = Annotated[str, IdOf("commissions.quota")]
CreditId = Annotated[str, IdOf("commissions.credit")]
StatementId = Annotated[str, IdOf("commissions.statement")]
DisputeId = Annotated[str, IdOf("commissions.dispute")]
PayoutId = Annotated[str, IdOf("commissions.payout")]

Rate = Annotated[float, Field(ge=0, le=50)]
"""A commission rate in percent of the credited amount."""
Attainment = Annotated[float, Field(ge=0, le=1000)]
"""Quota attainment in percent."""
PeriodName = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
"""A calendar month, YYYY-MM."""
StatementStatus = Literal["draft", "published", "approved"]


class Tier(Value):
    """One row of a rate table: from this attainment on, this rate."""

    from_attainment: Attainment
    """Attainment (percent of quota) where the tier starts."""
    rate: Rate
    """Rate in percent for the slice of credited amount in this tier."""


class Plan(Record):
    """A commission plan with its rate table."""

    id: PlanId
    name: Title
    """The plan's name."""
    tiers: tuple[Tier, ...]
    """The rate table, by ascending attainment; the first starts at 0."""
    status: Literal["draft", "active", "archived"] = "draft"
    """draft, active (quotas may use it) or archived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Period(Record):
    """A commission period (a calendar month)."""

    id: PeriodId
    name: PeriodName
    """The month, YYYY-MM (unique)."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day."""
    status: Literal["open", "closed"] = "open"
    """open, or closed (payouts locked, no more credits)."""
    closed_at: DateTime | None = None
    """When it was closed."""


class Quota(Record):
    """A rep's quota for a period under a plan."""

    id: QuotaId
    rep_email: Email
    """The rep (a Sales employee)."""
    period_id: PeriodId
    """The period."""
    plan_id: PlanId
    """The plan that pays it."""
    amount: Annotated[int, Field(ge=1, le=10**12)]
    """The quota in cents."""


class Credit(Record):
    """A closed-won deal (or a split of one) credited to a rep in a period."""

    id: CreditId
    deal_ref: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{3,40}$")]
    """The CRM deal's id."""
    company_name: CompanyName
    """The customer."""
    rep_email: Email
    """The rep credited."""
    period_id: PeriodId
    """The period it counts in."""
    deal_amount: Cents
    """The deal's full amount in cents."""
    split: Annotated[float, Field(gt=0, le=100)] = 100.0
    """The rep's share of the deal in percent."""
    amount: Cents
    """The credited amount (deal amount × split)."""
    closed_on: Date
    """When the deal closed."""
    status: Literal["active", "reversed"] = "active"
    """active, or reversed (clawed back)."""


class StatementLine(Value):
    """One credit on a statement."""

    credit_id: CreditId
    """The credit."""
    company_name: CompanyName
    """The customer."""
    amount: Cents
    """Credited amount in cents."""


class Statement(Record):
    """A rep's commission statement for a period."""

    id: StatementId
    rep_email: Email
    """The rep."""
    period_id: PeriodId
    """The period."""
    plan_id: PlanId
    """The plan applied."""
    status: StatementStatus = "draft"
    """draft, published (visible to the rep) or approved (by Finance)."""
    lines: tuple[StatementLine, ...] = ()
    """The credits counted."""
    credited: Cents = 0
    """Credited amount in cents."""
    quota: Cents = 0
    """The quota in cents."""
    attainment: Attainment = 0.0
    """Credited over quota, in percent."""
    commission: Cents = 0
    """Commission from the rate table in cents."""
    adjustments: int = 0
    """Adjustments from resolved disputes in cents (may be negative)."""
    total: Cents = 0
    """Commission plus adjustments, in cents."""
    approved_by: Email | None = None
    """The Finance employee who approved it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Dispute(Record):
    """A rep's inquiry about a published statement."""

    id: DisputeId
    statement_id: StatementId
    """The statement."""
    rep_email: Email
    """The rep who raised it."""
    reason: Text
    """What they think is wrong."""
    amount_claimed: Annotated[int, Field(ge=-(10**10), le=10**10)] = 0
    """The difference they claim, in cents."""
    status: Literal["open", "resolved", "rejected"] = "open"
    """open, resolved (with an adjustment) or rejected."""
    resolution: Text = ""
    """How it was settled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""


class Payout(Record):
    """The payment of an approved statement through payroll."""

    id: PayoutId
    statement_id: StatementId
    """The statement."""
    rep_email: Email
    """The rep paid."""
    period_id: PeriodId
    """The period."""
    amount: Cents
    """Amount in cents."""
    status: Literal["scheduled", "paid"] = "scheduled"
    """scheduled or paid."""
    locked: bool = False
    """Whether its period is closed (no more changes)."""
    pay_date: Date
    """When payroll pays it."""


# -- rules ------------------------------------------------------------------------------------


def _sales(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.staff("Sales", fallback=3)}:
        raise RuleViolation(f"{email} is not a sales rep", field=field, hint="use a Sales employee's e-mail")


def _finance(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.staff("Finance", fallback=1)}:
        raise RuleViolation(f"{email} is not in Finance", field=field, hint="a Finance employee approves statements")


def _open_period(ctx: Ctx, period_id: str) -> Period:
    period = ctx.get(Period, period_id, field="period_id")
    if period.status != "open":
        raise RuleViolation(f"period {period.name} is closed", field="period_id", hint="use an open period")
    return period


def commission_for(tiers: tuple[Tier, ...], credited: int, quota: int) -> int:
    """The commission of ``credited`` cents against ``quota``: each slice at its tier's rate."""
    total = 0.0
    for k, tier in enumerate(tiers):
        lo = quota * tier.from_attainment / 100
        hi = quota * tiers[k + 1].from_attainment / 100 if k + 1 < len(tiers) else float("inf")
        if credited > lo:
            total += (min(credited, hi) - lo) * tier.rate / 100
    return round(total)


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    marks = [t.from_attainment for t in new.tiers]
    if not marks or marks[0] != 0 or marks != sorted(set(marks)):
        raise RuleViolation(
            "tiers must start at 0 % attainment and rise strictly",
            field="tiers",
            hint="e.g. 0 % at 8, 100 % at 12, 150 % at 15",
        )
    if old is not None and old.status == "archived" and new.status != "archived":
        raise RuleViolation("an archived plan stays archived", field="plan_id", hint="create a new plan")


def _guard_quota(ctx: Ctx, new: Any, old: Any) -> None:
    _sales(ctx, new.rep_email, "rep_email")
    _open_period(ctx, new.period_id)
    plan = ctx.get(Plan, new.plan_id, field="plan_id")
    if plan.status != "active":
        raise RuleViolation(f"plan {plan.name!r} is {plan.status}", field="plan_id", hint="activate the plan first")
    if len(ctx.where(Quota, rep_email=new.rep_email, period_id=new.period_id)) > 1:
        raise Conflict(
            f"{new.rep_email} already has a quota for this period", field="rep_email", hint="update that quota instead"
        )


plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="plan",
    create=False,
    filters=("status",),
    search=("name",),
    update=("name", "tiers"),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft",), "active", "activate the commission plan"),
        "archive": Transition("status", ("draft", "active"), "archived", "archive the commission plan"),
    },
    guard_create=_guard_plan,
    guard_update=_guard_plan,
)
periods = service.resource(
    Period, name="period", plural="periods", prefix="per", create=False, filters=("status", "name"), delete=False
)
quotas = service.resource(
    Quota,
    name="quota",
    plural="quotas",
    prefix="quo",
    create=False,
    get=False,
    filters=("rep_email", "period_id", "plan_id"),
    update=("amount",),
    delete=False,
    guard_update=_guard_quota,
)
credits = service.resource(
    Credit,
    name="credit",
    plural="credits",
    prefix="cr",
    create=False,
    filters=("rep_email", "period_id", "deal_ref", "status", "company_name"),
    search=("company_name",),
    delete=False,
)
statements = service.resource(
    Statement,
    name="statement",
    plural="statements",
    prefix="st",
    create=False,
    filters=("rep_email", "period_id", "status"),
    delete=False,
)
disputes = service.resource(
    Dispute,
    name="dispute",
    plural="disputes",
    prefix="dsp",
    create=False,
    filters=("statement_id", "status", "rep_email"),
    delete=False,
)
payouts = service.resource(
    Payout,
    name="payout",
    plural="payouts",
    prefix="po",
    create=False,
    get=False,
    filters=("statement_id", "rep_email", "period_id", "status", "locked"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the commission plan",
    write=True,
    example=lambda ctx: {
        "name": "Enterprise AE Plan",
        "tiers": [{"from_attainment": 0, "rate": 9}, {"from_attainment": 100, "rate": 14}],
    },
)
def create_plan(ctx: Ctx, name: Title, tiers: Annotated[list[Tier], Field(min_length=1, max_length=8)]) -> Plan:
    """Create a draft plan with a rate table whose tiers start at 0 % attainment and rise strictly.

    Args:
        name: The plan's name.
        tiers: The rate table: from_attainment (percent of quota) and rate (percent) per tier.
    """
    plan = ctx.create(Plan, name=name, tiers=tuple(tiers))
    _guard_plan(ctx, plan, None)
    return plan


def _example_quota(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(Plan, status="active")
    for period in ctx.where(Period, status="open"):
        for rep in ctx.population.staff("Sales", fallback=3):
            if plan and not ctx.where(Quota, rep_email=rep.email, period_id=period.id):
                return {"rep_email": rep.email, "period_id": period.id, "plan_id": plan.id, "amount": 25_000_000}
    return None


@service.tool(intent="set the rep's quota", write=True, example=_example_quota)
def set_quota(
    ctx: Ctx, rep_email: Email, period_id: PeriodId, plan_id: PlanId, amount: Annotated[int, Field(ge=1, le=10**12)]
) -> Quota:
    """Give a sales rep a quota under an active plan for an open period (one per rep and period).

    Args:
        rep_email: The rep (a Sales employee).
        period_id: The open period.
        plan_id: The active plan that pays it.
        amount: The quota in cents.
    """
    quota = ctx.create(Quota, rep_email=rep_email, period_id=period_id, plan_id=plan_id, amount=amount)
    _guard_quota(ctx, quota, None)
    return quota


def _example_credit(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.scan(Quota):
        period = ctx.get(Period, q.period_id)
        if period.status == "open":
            return {
                "deal_ref": "006ZZ000001",
                "company_name": ctx.population.customers[0].name,
                "rep_email": q.rep_email,
                "period_id": q.period_id,
                "deal_amount": 4_000_000,
                "closed_on": period.starts_on.isoformat(),
            }
    return None


@service.tool(intent="credit the won deal to the rep", write=True, example=_example_credit)
def credit_deal(
    ctx: Ctx,
    deal_ref: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{3,40}$")],
    company_name: CompanyName,
    rep_email: Email,
    period_id: PeriodId,
    deal_amount: Annotated[int, Field(ge=1, le=10**12)],
    closed_on: Date,
    split: Annotated[float, Field(gt=0, le=100)] = 100.0,
) -> Credit:
    """Credit a closed-won deal (or a split of it) to a rep with a quota in an open period.

    Args:
        deal_ref: The CRM deal's id.
        company_name: The customer.
        rep_email: The rep credited.
        period_id: The open period it counts in.
        deal_amount: The deal's amount in cents.
        closed_on: When it closed (within the period).
        split: The rep's share in percent; one deal's splits never exceed 100.
    """
    period = _open_period(ctx, period_id)
    _sales(ctx, rep_email, "rep_email")
    if not ctx.where(Quota, rep_email=rep_email, period_id=period.id):
        raise RuleViolation(
            f"{rep_email} has no quota for {period.name}", field="rep_email", hint="create the quota first"
        )
    if not period.starts_on <= closed_on <= period.ends_on:
        raise RuleViolation(f"{closed_on} is outside {period.name}", field="closed_on", hint="credit it in its month")
    live = ctx.where(Credit, deal_ref=deal_ref, status="active")
    if any(c.rep_email == rep_email for c in live):
        raise Conflict(f"deal {deal_ref} is already credited to {rep_email}", field="deal_ref", hint="reverse it first")
    taken = sum(c.split for c in live)
    if taken + split > 100:
        raise RuleViolation(
            f"deal {deal_ref} is already {taken:g} % credited", field="split", hint=f"split at most {100 - taken:g} %"
        )
    return ctx.create(
        Credit,
        deal_ref=deal_ref,
        company_name=company_name,
        rep_email=rep_email,
        period_id=period.id,
        deal_amount=deal_amount,
        split=split,
        amount=round(deal_amount * split / 100),
        closed_on=closed_on,
    )


def _credit_open(ctx: Ctx, c: Credit) -> bool:
    return ctx.get(Period, c.period_id).status == "open"


@service.tool(
    intent="reverse the credit",
    write=True,
    example=first_example(Credit, "credit_id", where={"status": "active"}, match=_credit_open),
)
def reverse_credit(ctx: Ctx, credit_id: CreditId) -> Credit:
    """Claw back a credit in an open period (the deal was cancelled or mis-credited).

    Args:
        credit_id: The credit.
    """
    credit = ctx.get(Credit, credit_id, field="credit_id")
    if credit.status != "active":
        raise Conflict(f"credit {credit.id} is already reversed", field="credit_id", hint="nothing to do")
    period = ctx.get(Period, credit.period_id)
    if period.status != "open":
        raise RuleViolation(f"period {period.name} is closed", field="credit_id", hint="adjust next period instead")
    return ctx.update(credit, status="reversed")


def _example_calc(ctx: Ctx) -> dict[str, Any] | None:
    for q in ctx.scan(Quota):
        if ctx.get(Period, q.period_id).status == "open":
            st = ctx.first(Statement, rep_email=q.rep_email, period_id=q.period_id)
            if st is None or st.status == "draft":
                return {"rep_email": q.rep_email, "period_id": q.period_id}
    return None


@service.tool(intent="calculate the rep's commission statement", write=True, idempotent=True, example=_example_calc)
def calculate_statement(ctx: Ctx, rep_email: Email, period_id: PeriodId) -> Statement:
    """Calculate (or recalculate) a rep's draft statement for an open period from their active credits.

    Args:
        rep_email: The rep.
        period_id: The open period.
    """
    period = _open_period(ctx, period_id)
    quota = ctx.first(Quota, rep_email=rep_email, period_id=period.id)
    if quota is None:
        raise RuleViolation(f"{rep_email} has no quota for {period.name}", field="rep_email", hint="create it first")
    plan = ctx.get(Plan, quota.plan_id)
    counted = ctx.where(Credit, rep_email=rep_email, period_id=period.id, status="active")
    credited = sum(c.amount for c in counted)
    commission = commission_for(plan.tiers, credited, quota.amount)
    fields = {
        "plan_id": plan.id,
        "lines": tuple(StatementLine(credit_id=c.id, company_name=c.company_name, amount=c.amount) for c in counted),
        "credited": credited,
        "quota": quota.amount,
        "attainment": round(min(credited * 100 / quota.amount, 1000), 2),
        "commission": commission,
    }
    st = ctx.first(Statement, rep_email=rep_email, period_id=period.id)
    if st is None:
        return ctx.create(Statement, rep_email=rep_email, period_id=period.id, total=commission, **fields)
    if st.status != "draft":
        raise RuleViolation(
            f"statement {st.id} is {st.status}", field="period_id", hint="only a draft statement is recalculated"
        )
    return ctx.update(st, total=max(0, commission + st.adjustments), **fields)


@service.tool(
    intent="publish the statement to the rep",
    write=True,
    example=first_example(Statement, "statement_id", where={"status": "draft"}),
)
def publish_statement(ctx: Ctx, statement_id: StatementId) -> Statement:
    """Publish a draft statement so the rep can see (and dispute) it.

    Args:
        statement_id: The draft statement.
    """
    st = ctx.get(Statement, statement_id, field="statement_id")
    if st.status != "draft":
        raise RuleViolation(f"statement {st.id} is {st.status}", field="statement_id", hint="publish a draft")
    return ctx.update(st, status="published")


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    fin = ctx.population.staff("Finance", fallback=1)[0].email
    for st in ctx.where(Statement, status="published"):
        if not ctx.where(Dispute, statement_id=st.id, status="open") and st.rep_email != fin:
            return {"statement_id": st.id, "approver_email": fin}
    return None


@service.tool(intent="approve the commission statement", write=True, example=_example_approve)
def approve_statement(ctx: Ctx, statement_id: StatementId, approver_email: Email) -> Statement:
    """Approve a published statement with no open dispute; the approver is in Finance and is not the rep.

    Args:
        statement_id: The published statement.
        approver_email: The approving Finance employee.
    """
    st = ctx.get(Statement, statement_id, field="statement_id")
    if st.status != "published":
        raise RuleViolation(f"statement {st.id} is {st.status}", field="statement_id", hint="publish it first")
    _finance(ctx, approver_email, "approver_email")
    if approver_email == st.rep_email:
        raise RuleViolation("nobody approves their own statement", field="approver_email", hint="ask Finance")
    if ctx.where(Dispute, statement_id=st.id, status="open"):
        raise Conflict("the statement has an open dispute", field="statement_id", hint="resolve the dispute first")
    return ctx.update(st, status="approved", approved_by=approver_email)


def _example_dispute(ctx: Ctx) -> dict[str, Any] | None:
    st = ctx.first(Statement, status="published")
    return (
        None
        if st is None
        else {
            "statement_id": st.id,
            "rep_email": st.rep_email,
            "reason": "The Q3 renewal split is missing.",
            "amount_claimed": 25000,
        }
    )


@service.tool(intent="dispute the commission statement", write=True, example=_example_dispute)
def open_dispute(
    ctx: Ctx,
    statement_id: StatementId,
    rep_email: Email,
    reason: Text,
    amount_claimed: Annotated[int, Field(ge=-(10**10), le=10**10)] = 0,
) -> Dispute:
    """Raise a dispute about one's own published statement; one open dispute per statement.

    Args:
        statement_id: The published statement.
        rep_email: The rep raising it (the statement's rep).
        reason: What is wrong.
        amount_claimed: The difference claimed in cents.
    """
    st = ctx.get(Statement, statement_id, field="statement_id")
    if st.status != "published":
        raise RuleViolation(
            f"statement {st.id} is {st.status}", field="statement_id", hint="only a published statement is disputed"
        )
    if rep_email != st.rep_email:
        raise RuleViolation("only the statement's rep may dispute it", field="rep_email", hint=f"use {st.rep_email}")
    if not reason.strip():
        raise RuleViolation("a dispute needs a reason", field="reason", hint="say what is wrong")
    if ctx.where(Dispute, statement_id=st.id, status="open"):
        raise Conflict("the statement already has an open dispute", field="statement_id", hint="add to that one")
    return ctx.create(Dispute, statement_id=st.id, rep_email=rep_email, reason=reason, amount_claimed=amount_claimed)


@service.tool(
    intent="resolve the commission dispute",
    write=True,
    example=first_example(Dispute, "dispute_id", where={"status": "open"}, resolution="Split added.", adjustment=1000),
)
def resolve_dispute(
    ctx: Ctx,
    dispute_id: DisputeId,
    resolution: Text,
    adjustment: Annotated[int, Field(ge=-(10**10), le=10**10)] = 0,
) -> Dispute:
    """Settle an open dispute: a non-zero adjustment is added to the statement, which goes back to draft.

    Args:
        dispute_id: The open dispute.
        resolution: How it was settled.
        adjustment: Cents added to (or, negative, taken from) the statement; 0 rejects the dispute.
    """
    d = ctx.get(Dispute, dispute_id, field="dispute_id")
    if d.status != "open":
        raise Conflict(f"dispute {d.id} is already {d.status}", field="dispute_id", hint="nothing to settle")
    if not resolution.strip():
        raise RuleViolation("say how it was settled", field="resolution", hint="write the resolution")
    if adjustment:
        st = ctx.get(Statement, d.statement_id)
        adj = st.adjustments + adjustment
        ctx.update(st, status="draft", adjustments=adj, total=max(0, st.commission + adj))
    return ctx.update(d, status="resolved" if adjustment else "rejected", resolution=resolution)


def _example_payout(ctx: Ctx) -> dict[str, Any] | None:
    for st in ctx.where(Statement, status="approved"):
        if not ctx.where(Payout, statement_id=st.id):
            return {"statement_id": st.id, "pay_date": (ctx.today() + dt.timedelta(days=10)).isoformat()}
    return None


@service.tool(intent="schedule the commission payout", write=True, example=_example_payout)
def schedule_payout(ctx: Ctx, statement_id: StatementId, pay_date: Date) -> Payout:
    """Schedule the payout of an approved statement (one per statement) on a future payroll date.

    Args:
        statement_id: The approved statement.
        pay_date: The payroll date (not in the past).
    """
    st = ctx.get(Statement, statement_id, field="statement_id")
    if st.status != "approved":
        raise RuleViolation(f"statement {st.id} is {st.status}", field="statement_id", hint="approve it first")
    if ctx.where(Payout, statement_id=st.id):
        raise Conflict(f"statement {st.id} already has a payout", field="statement_id", hint="one payout each")
    if pay_date < ctx.today():
        raise RuleViolation("pay_date is in the past", field="pay_date", hint="pick a coming payroll date")
    return ctx.create(
        Payout, statement_id=st.id, rep_email=st.rep_email, period_id=st.period_id, amount=st.total, pay_date=pay_date
    )


@service.tool(
    intent="mark the payout paid", write=True, example=first_example(Payout, "payout_id", where={"status": "scheduled"})
)
def mark_payout_paid(ctx: Ctx, payout_id: PayoutId) -> Payout:
    """Record that payroll paid a scheduled payout.

    Args:
        payout_id: The payout.
    """
    po = ctx.get(Payout, payout_id, field="payout_id")
    if po.status != "scheduled":
        raise Conflict(f"payout {po.id} is already paid", field="payout_id", hint="nothing to do")
    return ctx.update(po, status="paid")


def _closable(ctx: Ctx, p: Period) -> bool:
    return all(s.status == "approved" for s in ctx.where(Statement, period_id=p.id))


@service.tool(
    intent="close the commission period",
    write=True,
    destructive=True,
    example=first_example(Period, "period_id", where={"status": "open"}, match=_closable),
)
def close_period(ctx: Ctx, period_id: PeriodId) -> Period:
    """Close an open period whose statements are all approved: its payouts lock and it takes no more credits.

    Args:
        period_id: The period.
    """
    period = _open_period(ctx, period_id)
    pending = [s for s in ctx.where(Statement, period_id=period.id) if s.status != "approved"]
    if pending:
        raise RuleViolation(
            f"{len(pending)} statements of {period.name} are not approved",
            field="period_id",
            hint="approve them with commissions__approve_statement first",
        )
    for po in ctx.where(Payout, period_id=period.id):
        ctx.update(po, locked=True)
    return ctx.update(period, status="closed", closed_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

AE_TIERS = (Tier(from_attainment=0, rate=8), Tier(from_attainment=100, rate=12), Tier(from_attainment=150, rate=15))
SDR_TIERS = (Tier(from_attainment=0, rate=4), Tier(from_attainment=100, rate=6))


@service.seeder
def seed(s: SeedContext) -> None:
    """Three months: one closed and paid, one approved awaiting close, the current one with drafts and disputes."""
    pop = s.population
    reps = pop.staff("Sales", fallback=3)
    fin = pop.staff("Finance", fallback=1)[0]
    ae = s.create(Plan, name="Account Executive FY Plan", tiers=AE_TIERS, status="active", created_at=s.ago(days=200))
    sdr = s.create(Plan, name="SDR Meetings Plan", tiers=SDR_TIERS, status="active", created_at=s.ago(days=200))
    s.create(Plan, name="Partner Overlay Plan (draft)", tiers=SDR_TIERS, created_at=s.ago(days=20))
    first = add_months(s.now.date().replace(day=1), -2)
    customers = list(pop.customers)
    deal = 0
    for m in range(4):
        start = add_months(first, m)
        end = add_months(start, 1) - dt.timedelta(days=1)
        if m == 3:  # next month: set up ahead, no quotas yet
            s.create(Period, name=start.strftime("%Y-%m"), starts_on=start, ends_on=end)
            break
        closed, settled = m == 0, m < 2
        period = s.create(
            Period,
            name=start.strftime("%Y-%m"),
            starts_on=start,
            ends_on=end,
            status="closed" if closed else "open",
            closed_at=s.ago(days=5 + 30 * (1 - m)) if closed else None,
        )
        for k, rep in enumerate(reps):
            plan = sdr if "Development" in rep.job_title else ae
            target = (30 if plan is ae else 10) * 1_000_000
            s.create(Quota, rep_email=rep.email, period_id=period.id, plan_id=plan.id, amount=target)
            lines = []
            for j in range(1 + (k + m) % 3):
                company = customers[deal % len(customers)]
                deal += 1
                amount = (8 + 5 * ((k + j + m) % 4)) * 1_000_000
                c = s.create(
                    Credit,
                    deal_ref=f"006{deal:08d}",
                    company_name=company.name,
                    rep_email=rep.email,
                    period_id=period.id,
                    deal_amount=amount,
                    amount=amount,
                    closed_on=start + dt.timedelta(days=min(3 + 7 * j, 27)),
                )
                lines.append(StatementLine(credit_id=c.id, company_name=company.name, amount=amount))
            credited = sum(x.amount for x in lines)
            status: StatementStatus = "approved" if settled else ("draft", "published", "published")[k % 3]
            commission = commission_for(plan.tiers, credited, target)
            st = s.create(
                Statement,
                rep_email=rep.email,
                period_id=period.id,
                plan_id=plan.id,
                status=status,
                lines=tuple(lines),
                credited=credited,
                quota=target,
                attainment=round(credited * 100 / target, 2),
                commission=commission,
                total=commission,
                approved_by=fin.email if settled else None,
                updated_at=s.ago(days=3),
            )
            if closed or (settled and k < len(reps) - 1):
                s.create(
                    Payout,
                    statement_id=st.id,
                    rep_email=rep.email,
                    period_id=period.id,
                    amount=commission,
                    status="paid" if closed else "scheduled",
                    locked=closed,
                    pay_date=end + dt.timedelta(days=15) if closed else (s.now + dt.timedelta(days=10)).date(),
                )
            elif not settled and k % 3 == 2:
                s.create(
                    Dispute,
                    statement_id=st.id,
                    rep_email=rep.email,
                    amount_claimed=150000,
                    reason="A renewal I sourced is credited to someone else.",
                    created_at=s.ago(days=1),
                )
