"""Movewise Relocation: employee relocations by policy tier, household goods, temporary housing, expenses.

Modeled on the Weichert Workforce Mobility / SIRVA relocation management APIs:
relocation policies by tier (executive, homeowner, renter, lump_sum) cap the
household goods weight, the nights of temporary housing and say whether
expenses are grossed up for tax and how long a repayment agreement runs. A
relocation file moves initiated → approved (only once the repayment agreement
is signed, when the tier has one) → in_progress → completed, or cancelled
before it completes; one live file per employee. A household goods move goes
surveyed → packed → in_transit → delivered, never above the tier's weight
cap. Temporary housing stays are booked within the tier's nights, checked
in and out. Expenses are submitted on an approved or in-progress file,
approved or rejected, then paid; a tier with gross-up adds the tax
assistance (amount × t / (1 − t) at a 30% supplemental rate). A relocation
completes only when its goods are delivered and no stay is open. An employee
who leaves within the agreement's months owes a prorated repayment.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "relocation",
    title="Movewise Relocation",
    category="relocation",
    modeled_on="Weichert Workforce Mobility / SIRVA relocation API: policy tiers, relocation files, household "
    "goods shipments, temporary housing, expense reimbursements with tax gross-up, repayment agreements",
    description="Relocation of the home company's employees: policy tiers and their limits, relocation files "
    "from initiation to completion, household goods moves, temporary housing stays, expense reimbursements "
    "grossed up for tax, and repayment agreements owed when an employee leaves early.",
)

PolicyId = Annotated[str, IdOf("relocation.policy")]
RelocationId = Annotated[str, IdOf("relocation.relocation")]
ShipmentId = Annotated[str, IdOf("relocation.shipment")]
StayId = Annotated[str, IdOf("relocation.stay")]
ExpenseId = Annotated[str, IdOf("relocation.expense")]
AgreementId = Annotated[str, IdOf("relocation.agreement")]

Pounds = Annotated[int, Field(ge=0, le=40000)]
"""A weight in pounds."""

Tier = Literal["executive", "homeowner", "renter", "lump_sum"]
RelocationStatus = Literal["initiated", "approved", "in_progress", "completed", "cancelled"]
ShipmentStatus = Literal["surveyed", "packed", "in_transit", "delivered", "cancelled"]
StayStatus = Literal["booked", "checked_in", "checked_out", "cancelled"]
ExpenseCategory = Literal["travel", "meals", "house_hunting", "storage", "closing_costs", "lease_break", "other"]
ExpenseStatus = Literal["submitted", "approved", "rejected", "paid"]
AgreementStatus = Literal["pending", "signed", "repayment_due", "expired"]

GROSS_UP_RATE = 0.30
LIVE: tuple[RelocationStatus, ...] = ("initiated", "approved", "in_progress")
SPENDING: tuple[RelocationStatus, ...] = ("approved", "in_progress")


class Policy(Timestamped):
    """A relocation policy tier and its limits."""

    id: PolicyId
    name: Title
    """The policy's name."""
    tier: Tier
    """executive, homeowner, renter or lump_sum."""
    household_goods_max_lbs: Pounds
    """Most household goods weight moved (0: none)."""
    temp_housing_nights: Annotated[int, Field(ge=0, le=180)]
    """Most nights of temporary housing."""
    lump_sum_cents: Cents = 0
    """A lump sum paid on approval."""
    gross_up: bool = False
    """Whether reimbursed expenses are grossed up for tax."""
    repayment_months: Annotated[int, Field(ge=0, le=36)] = 0
    """Months an employee must stay or repay (0: no agreement)."""


class Relocation(Timestamped):
    """An employee's relocation file."""

    id: RelocationId
    employee_email: Email
    """The relocating employee."""
    employee_name: PersonName
    """Their name."""
    policy_id: PolicyId
    """The policy tier."""
    origin_city: City
    """Where they move from."""
    destination_city: City
    """Where they move to."""
    report_date: Date
    """Their first day at the new location."""
    status: RelocationStatus = "initiated"
    """initiated, approved, in_progress, completed or cancelled."""
    reimbursed_cents: Cents = 0
    """Expenses paid so far, gross-up included."""
    cancel_reason: Text | None = None
    """Why it was cancelled."""


class Shipment(Timestamped):
    """A household goods move."""

    id: ShipmentId
    relocation_id: RelocationId
    """The relocation."""
    carrier: Title
    """The van line."""
    estimated_weight_lbs: Pounds
    """Weight estimated at the survey."""
    pack_date: Date
    """When the crew packs."""
    status: ShipmentStatus = "surveyed"
    """surveyed, packed, in_transit, delivered or cancelled."""


class Stay(Timestamped):
    """A temporary housing stay."""

    id: StayId
    relocation_id: RelocationId
    """The relocation."""
    property_name: Title
    """The corporate apartment or hotel."""
    check_in: Date
    """First night."""
    nights: Annotated[int, Field(ge=1, le=180)]
    """Nights booked."""
    nightly_rate_cents: Cents
    """Rate per night."""
    status: StayStatus = "booked"
    """booked, checked_in, checked_out or cancelled."""


class Expense(Timestamped):
    """An expense submitted for reimbursement."""

    id: ExpenseId
    relocation_id: RelocationId
    """The relocation."""
    category: ExpenseCategory
    """travel, meals, house_hunting, storage, closing_costs, lease_break or other."""
    description: Text
    """What it was."""
    amount_cents: Cents
    """The amount spent."""
    incurred_on: Date
    """When."""
    status: ExpenseStatus = "submitted"
    """submitted, approved, rejected or paid."""
    gross_up_cents: Cents = 0
    """Tax assistance added when paid under a gross-up tier."""
    reject_reason: Text | None = None
    """Why it was rejected."""


class Agreement(Timestamped):
    """A repayment agreement: leave within the months and repay a prorated share."""

    id: AgreementId
    relocation_id: RelocationId
    """The relocation."""
    employee_email: Email
    """The employee."""
    amount_cents: Cents
    """Benefit value covered."""
    months: Annotated[int, Field(ge=1, le=36)]
    """Months the employee must stay after the report date."""
    status: AgreementStatus = "pending"
    """pending, signed, repayment_due or expired."""
    signed_on: Date | None = None
    """When the employee signed."""
    owed_cents: Cents = 0
    """Repayment owed after an early departure."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str, field: str) -> Any:
    person = next((p for p in ctx.population.employees if p.email == email), None)
    if person is None:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")
    return person


def _spending(ctx: Ctx, relocation_id: str) -> Relocation:
    rel = ctx.get(Relocation, relocation_id, field="relocation_id")
    if rel.status not in SPENDING:
        raise RuleViolation(
            f"relocation is {rel.status}", field="relocation_id", hint="it must be approved or in progress"
        )
    return rel


def _guard_shipment(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.status != old.status and new.status in ("packed", "in_transit"):
        _spending(ctx, new.relocation_id)


policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="rpol",
    create=False,
    filters=("tier",),
    delete=False,
    title="relocation policy",
)
relocations = service.resource(
    Relocation,
    name="relocation",
    plural="relocations",
    prefix="rel",
    create=False,
    filters=("employee_email", "status", "policy_id", "destination_city"),
    search=("employee_name", "destination_city", "origin_city"),
    update=("report_date", "destination_city"),
    delete=False,
    transitions={"start": Transition("status", ("approved",), "in_progress", "start the relocation")},
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="hhg",
    create=False,
    filters=("relocation_id", "status"),
    delete=False,
    transitions={
        "pack": Transition("status", ("surveyed",), "packed", "record the goods packed"),
        "dispatch": Transition("status", ("packed",), "in_transit", "dispatch the shipment"),
        "deliver": Transition("status", ("in_transit",), "delivered", "record the goods delivered"),
    },
    guard_update=_guard_shipment,
    title="household goods shipment",
)
stays = service.resource(
    Stay,
    name="stay",
    plural="stays",
    prefix="stay",
    create=False,
    filters=("relocation_id", "status"),
    delete=False,
    transitions={
        "check_in": Transition("status", ("booked",), "checked_in", "check in to the stay"),
        "check_out": Transition("status", ("checked_in",), "checked_out", "check out of the stay"),
        "cancel": Transition("status", ("booked",), "cancelled", "cancel the stay"),
    },
    title="temporary housing stay",
)
expenses = service.resource(
    Expense,
    name="expense",
    plural="expenses",
    prefix="rexp",
    create=False,
    filters=("relocation_id", "status", "category"),
    search=("description",),
    delete=False,
    transitions={"approve": Transition("status", ("submitted",), "approved", "approve the expense")},
)
agreements = service.resource(
    Agreement,
    name="agreement",
    plural="agreements",
    prefix="agr",
    create=False,
    filters=("relocation_id", "employee_email", "status"),
    delete=False,
    title="repayment agreement",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_initiate(ctx: Ctx) -> dict[str, Any] | None:
    policy = ctx.first(Policy, tier="homeowner")
    for p in ctx.population.employees:
        if policy and not any(r.status in LIVE for r in ctx.where(Relocation, employee_email=p.email)):
            return {
                "employee_email": p.email,
                "policy_id": policy.id,
                "origin_city": "Chicago",
                "destination_city": "Austin",
                "report_date": (ctx.today() + dt.timedelta(days=60)).isoformat(),
            }
    return None


@service.tool(intent="initiate a relocation", write=True, example=_example_initiate)
def initiate_relocation(
    ctx: Ctx, employee_email: Email, policy_id: PolicyId, origin_city: City, destination_city: City, report_date: Date
) -> Relocation:
    """Open a relocation file for an employee under a policy tier; one live file per employee.

    A tier with a repayment period also gets a pending repayment agreement to sign.

    Args:
        employee_email: The relocating employee.
        policy_id: The policy tier.
        origin_city: Where they move from.
        destination_city: Where they move to (another city).
        report_date: Their first day at the new location (after today).
    """
    person = _employee(ctx, employee_email, "employee_email")
    policy = ctx.get(Policy, policy_id, field="policy_id")
    if origin_city.strip().lower() == destination_city.strip().lower():
        raise RuleViolation("origin and destination are the same", field="destination_city", hint="name the new city")
    if report_date <= ctx.today():
        raise RuleViolation("report_date must be after today", field="report_date", hint="pick a future date")
    live = [r for r in ctx.where(Relocation, employee_email=employee_email) if r.status in LIVE]
    if live:
        raise Conflict(f"relocation {live[0].id} is already {live[0].status}", field="employee_email", hint="use it")
    rel = ctx.create(
        Relocation,
        employee_email=employee_email,
        employee_name=person.name,
        policy_id=policy.id,
        origin_city=origin_city,
        destination_city=destination_city,
        report_date=report_date,
    )
    if policy.repayment_months:
        value = policy.lump_sum_cents + policy.temp_housing_nights * 15_000 + policy.household_goods_max_lbs * 150
        ctx.create(
            Agreement,
            relocation_id=rel.id,
            employee_email=employee_email,
            amount_cents=value,
            months=policy.repayment_months,
        )
    return rel


@service.tool(
    intent="sign the repayment agreement",
    write=True,
    example=first_example(Agreement, "agreement_id", where={"status": "pending"}),
)
def sign_agreement(ctx: Ctx, agreement_id: AgreementId) -> Agreement:
    """The employee signs a pending repayment agreement.

    Args:
        agreement_id: The agreement.
    """
    agr = ctx.get(Agreement, agreement_id, field="agreement_id")
    if agr.status != "pending":
        raise RuleViolation(f"agreement is {agr.status}", field="agreement_id", hint="only a pending one is signed")
    return ctx.update(agr, status="signed", signed_on=ctx.today())


@service.tool(
    intent="approve the relocation",
    write=True,
    example=first_example(
        Relocation,
        "relocation_id",
        where={"status": "initiated"},
        match=lambda ctx, r: not ctx.where(Agreement, relocation_id=r.id, status="pending"),
    ),
)
def approve_relocation(ctx: Ctx, relocation_id: RelocationId) -> Relocation:
    """Approve an initiated relocation; a tier with a repayment period needs the agreement signed first.

    Args:
        relocation_id: The relocation.
    """
    rel = ctx.get(Relocation, relocation_id, field="relocation_id")
    if rel.status != "initiated":
        raise RuleViolation(f"relocation is {rel.status}", field="relocation_id", hint="approve an initiated one")
    for agr in ctx.where(Agreement, relocation_id=rel.id):
        if agr.status == "pending":
            raise RuleViolation(
                "the repayment agreement is not signed",
                field="relocation_id",
                hint="have the employee sign it with relocation__sign_agreement",
            )
    return ctx.update(rel, status="approved")


@service.tool(
    intent="cancel the relocation",
    write=True,
    destructive=True,
    example=first_example(Relocation, "relocation_id", where={"status": "initiated"}, reason="Offer declined."),
)
def cancel_relocation(ctx: Ctx, relocation_id: RelocationId, reason: Text) -> Relocation:
    """Cancel a live relocation: booked stays and unshipped goods are cancelled with it.

    Args:
        relocation_id: The relocation.
        reason: Why.
    """
    rel = ctx.get(Relocation, relocation_id, field="relocation_id")
    if rel.status not in LIVE:
        raise RuleViolation(f"relocation is {rel.status}", field="relocation_id", hint="only a live one is cancelled")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    if any(s.status in ("packed", "in_transit") for s in ctx.where(Shipment, relocation_id=rel.id)):
        raise Conflict("household goods are already packed", field="relocation_id", hint="deliver them first")
    for s in ctx.where(Shipment, relocation_id=rel.id, status="surveyed"):
        ctx.update(s, status="cancelled")
    for stay in ctx.where(Stay, relocation_id=rel.id, status="booked"):
        ctx.update(stay, status="cancelled")
    return ctx.update(rel, status="cancelled", cancel_reason=reason.strip())


@service.tool(
    intent="complete the relocation",
    write=True,
    example=first_example(
        Relocation,
        "relocation_id",
        where={"status": "in_progress"},
        match=lambda ctx, r: all(x.status == "delivered" for x in ctx.where(Shipment, relocation_id=r.id)),
    ),
)
def complete_relocation(ctx: Ctx, relocation_id: RelocationId) -> Relocation:
    """Complete an in-progress relocation once its goods are delivered and no stay is open.

    Args:
        relocation_id: The relocation.
    """
    rel = ctx.get(Relocation, relocation_id, field="relocation_id")
    if rel.status != "in_progress":
        raise RuleViolation(f"relocation is {rel.status}", field="relocation_id", hint="start it first")
    if any(s.status in ("surveyed", "packed", "in_transit") for s in ctx.where(Shipment, relocation_id=rel.id)):
        raise RuleViolation("household goods are not delivered", field="relocation_id", hint="deliver them first")
    if any(s.status in ("booked", "checked_in") for s in ctx.where(Stay, relocation_id=rel.id)):
        raise RuleViolation("a temporary housing stay is open", field="relocation_id", hint="check out or cancel it")
    return ctx.update(rel, status="completed")


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for rel in ctx.where(Relocation, status="approved"):
        if not ctx.where(Shipment, relocation_id=rel.id):
            return {
                "relocation_id": rel.id,
                "carrier": "Atlas Van Lines",
                "estimated_weight_lbs": 4000,
                "pack_date": (ctx.today() + dt.timedelta(days=10)).isoformat(),
            }
    return None


@service.tool(intent="schedule the household goods move", write=True, example=_example_move)
def schedule_move(
    ctx: Ctx, relocation_id: RelocationId, carrier: Title, estimated_weight_lbs: Pounds, pack_date: Date
) -> Shipment:
    """Book a surveyed household goods move within the tier's weight cap; one live move per relocation.

    Args:
        relocation_id: The approved or in-progress relocation.
        carrier: The van line.
        estimated_weight_lbs: Weight estimated at the survey.
        pack_date: When the crew packs (not in the past).
    """
    rel = _spending(ctx, relocation_id)
    policy = ctx.get(Policy, rel.policy_id)
    if estimated_weight_lbs > policy.household_goods_max_lbs:
        raise RuleViolation(
            f"the {policy.tier} tier moves at most {policy.household_goods_max_lbs} lbs",
            field="estimated_weight_lbs",
            hint="reduce the shipment or pay the excess privately",
        )
    if pack_date < ctx.today():
        raise RuleViolation("pack_date is in the past", field="pack_date", hint="pick today or later")
    if any(s.status != "cancelled" for s in ctx.where(Shipment, relocation_id=rel.id)):
        raise Conflict("a household goods move is already booked", field="relocation_id", hint="see its shipment")
    return ctx.create(
        Shipment,
        relocation_id=rel.id,
        carrier=carrier,
        estimated_weight_lbs=estimated_weight_lbs,
        pack_date=pack_date,
    )


def _example_stay(ctx: Ctx) -> dict[str, Any] | None:
    rel = ctx.first(Relocation, status="approved")
    if rel is None:
        return None
    return {
        "relocation_id": rel.id,
        "property_name": "Oakwood Corporate Suites",
        "nights": 5,
        "check_in": (ctx.today() + dt.timedelta(days=20)).isoformat(),
        "nightly_rate_cents": 18_500,
    }


@service.tool(intent="book temporary housing", write=True, example=_example_stay)
def book_stay(
    ctx: Ctx, relocation_id: RelocationId, property_name: Title, check_in: Date, nights: int, nightly_rate_cents: Cents
) -> Stay:
    """Book a temporary housing stay; all stays of a relocation stay within the tier's nights.

    Args:
        relocation_id: The approved or in-progress relocation.
        property_name: The corporate apartment or hotel.
        check_in: The first night (not in the past).
        nights: Nights (at least 1).
        nightly_rate_cents: Rate per night.
    """
    rel = _spending(ctx, relocation_id)
    policy = ctx.get(Policy, rel.policy_id)
    if check_in < ctx.today():
        raise RuleViolation("check_in is in the past", field="check_in", hint="pick today or later")
    used = sum(s.nights for s in ctx.where(Stay, relocation_id=rel.id) if s.status != "cancelled")
    if nights < 1 or used + nights > policy.temp_housing_nights:
        raise RuleViolation(
            f"the {policy.tier} tier covers {policy.temp_housing_nights} nights, {used} already booked",
            field="nights",
            hint=f"book at most {max(policy.temp_housing_nights - used, 0)} nights",
        )
    return ctx.create(
        Stay,
        relocation_id=rel.id,
        property_name=property_name,
        check_in=check_in,
        nights=nights,
        nightly_rate_cents=nightly_rate_cents,
    )


def _example_expense(ctx: Ctx) -> dict[str, Any] | None:
    rel = ctx.first(Relocation, status="in_progress")
    if rel is None:
        return None
    return {
        "relocation_id": rel.id,
        "category": "travel",
        "description": "Flight to the new city",
        "amount_cents": 42_000,
        "incurred_on": ctx.today().isoformat(),
    }


@service.tool(intent="submit a relocation expense", write=True, example=_example_expense)
def submit_expense(
    ctx: Ctx,
    relocation_id: RelocationId,
    category: ExpenseCategory,
    description: Text,
    amount_cents: Cents,
    incurred_on: Date,
) -> Expense:
    """Submit an expense for reimbursement; lump-sum tiers reimburse nothing.

    Args:
        relocation_id: The approved or in-progress relocation.
        category: travel, meals, house_hunting, storage, closing_costs, lease_break or other.
        description: What it was.
        amount_cents: The amount (more than zero).
        incurred_on: When (not in the future).
    """
    rel = _spending(ctx, relocation_id)
    if ctx.get(Policy, rel.policy_id).tier == "lump_sum":
        raise RuleViolation(
            "a lump-sum tier reimburses no expenses", field="relocation_id", hint="the lump sum covers it"
        )
    if amount_cents <= 0:
        raise RuleViolation("an expense must be positive", field="amount_cents", hint="give the amount")
    if incurred_on > ctx.today():
        raise RuleViolation("incurred_on is in the future", field="incurred_on", hint="submit after spending")
    return ctx.create(
        Expense,
        relocation_id=rel.id,
        category=category,
        description=description,
        amount_cents=amount_cents,
        incurred_on=incurred_on,
    )


@service.tool(
    intent="reject the expense",
    write=True,
    example=first_example(Expense, "expense_id", where={"status": "submitted"}, reason="No receipt."),
)
def reject_expense(ctx: Ctx, expense_id: ExpenseId, reason: Text) -> Expense:
    """Reject a submitted expense, with a reason.

    Args:
        expense_id: The expense.
        reason: Why.
    """
    exp = ctx.get(Expense, expense_id, field="expense_id")
    if exp.status != "submitted":
        raise RuleViolation(f"expense is {exp.status}", field="expense_id", hint="only a submitted one is rejected")
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say why")
    return ctx.update(exp, status="rejected", reject_reason=reason.strip())


@service.tool(
    intent="pay the expense", write=True, example=first_example(Expense, "expense_id", where={"status": "approved"})
)
def pay_expense(ctx: Ctx, expense_id: ExpenseId) -> Expense:
    """Pay an approved expense; a gross-up tier adds tax assistance of amount × 0.30 / 0.70.

    Args:
        expense_id: The expense.
    """
    exp = ctx.get(Expense, expense_id, field="expense_id")
    if exp.status != "approved":
        raise RuleViolation(f"expense is {exp.status}", field="expense_id", hint="approve it first")
    rel = ctx.get(Relocation, exp.relocation_id)
    policy = ctx.get(Policy, rel.policy_id)
    gross = round(exp.amount_cents * GROSS_UP_RATE / (1 - GROSS_UP_RATE)) if policy.gross_up else 0
    ctx.update(rel, reimbursed_cents=rel.reimbursed_cents + exp.amount_cents + gross)
    return ctx.update(exp, status="paid", gross_up_cents=gross)


@service.tool(
    intent="enforce the repayment agreement",
    write=True,
    example=first_example(Agreement, "agreement_id", where={"status": "signed"}, separation_date="2027-01-15"),
)
def enforce_repayment(ctx: Ctx, agreement_id: AgreementId, separation_date: Date) -> Agreement:
    """The employee leaves: within the agreement's months they owe the unserved share, else it expires.

    Args:
        agreement_id: The signed agreement.
        separation_date: Their last day.
    """
    agr = ctx.get(Agreement, agreement_id, field="agreement_id")
    if agr.status != "signed":
        raise RuleViolation(f"agreement is {agr.status}", field="agreement_id", hint="only a signed one applies")
    rel = ctx.get(Relocation, agr.relocation_id)
    end = add_months(rel.report_date, agr.months)
    if separation_date >= end:
        return ctx.update(agr, status="expired")
    months = (separation_date.year - rel.report_date.year) * 12 + separation_date.month - rel.report_date.month
    served = max(0, months - (separation_date.day < rel.report_date.day))
    owed = round(agr.amount_cents * (agr.months - served) / agr.months)
    return ctx.update(agr, status="repayment_due", owed_cents=owed)


# -- seed -------------------------------------------------------------------------------------

TIERS: tuple[tuple[str, Tier, int, int, int, bool, int], ...] = (
    ("Executive Full Package", "executive", 18000, 90, 1_000_000, True, 24),
    ("Homeowner Core", "homeowner", 12000, 60, 500_000, True, 12),
    ("Renter Core", "renter", 6000, 30, 250_000, False, 12),
    ("Intern Lump Sum", "lump_sum", 0, 0, 300_000, False, 0),
)
CITIES = ("Austin", "Chicago", "Denver", "Seattle", "Boston", "Atlanta", "Raleigh", "San Diego")
SEED_FILES: tuple[tuple[int, RelocationStatus], ...] = (
    (1, "initiated"),
    (0, "approved"),
    (1, "in_progress"),
    (2, "in_progress"),
    (1, "completed"),
    (2, "cancelled"),
    (2, "approved"),
    (3, "initiated"),
    (0, "approved"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Four tiers; files in every state with agreements, moves, stays and expenses to match."""
    made = [
        s.create(
            Policy,
            name=n,
            tier=t,
            household_goods_max_lbs=w,
            temp_housing_nights=nights,
            lump_sum_cents=lump,
            gross_up=g,
            repayment_months=m,
            created_at=s.ago(days=700),
        )
        for n, t, w, nights, lump, g, m in TIERS
    ]
    today = s.now.date()
    for k, (p, (tier, status)) in enumerate(zip(s.population.employees[4:], SEED_FILES, strict=False)):
        policy = made[tier]
        report = today + dt.timedelta(days=30 - 25 * k)
        rel = s.create(
            Relocation,
            employee_email=p.email,
            employee_name=p.name,
            policy_id=policy.id,
            origin_city=CITIES[k % 8],
            destination_city=CITIES[(k + 3) % 8],
            report_date=report,
            status=status,
            cancel_reason="Role filled locally." if status == "cancelled" else None,
            created_at=s.ago(days=40 + 9 * k),
        )
        if policy.repayment_months:
            s.create(
                Agreement,
                relocation_id=rel.id,
                employee_email=p.email,
                amount_cents=policy.lump_sum_cents + 900_000,
                months=policy.repayment_months,
                status="pending" if status in ("initiated", "cancelled") else "signed",
                signed_on=None if status in ("initiated", "cancelled") else today - dt.timedelta(days=20),
            )
        if status in ("in_progress", "completed"):
            ship: ShipmentStatus = "delivered" if status == "completed" or k == 3 else "in_transit"
            s.create(
                Shipment,
                relocation_id=rel.id,
                carrier="Atlas Van Lines",
                pack_date=report - dt.timedelta(days=7),
                estimated_weight_lbs=min(5000, policy.household_goods_max_lbs),
                status=ship,
            )
            stay: StayStatus = "checked_out" if status == "completed" or k == 3 else "checked_in"
            s.create(
                Stay,
                relocation_id=rel.id,
                property_name="Oakwood Corporate Suites",
                nights=20,
                check_in=report - dt.timedelta(days=5),
                nightly_rate_cents=17_500,
                status=stay,
            )
            for j, (cat, amount, est) in enumerate(
                (("travel", 48_000, "paid"), ("meals", 9_500, "approved"), ("storage", 32_000, "submitted"))
            ):
                gross = round(amount * GROSS_UP_RATE / (1 - GROSS_UP_RATE)) if policy.gross_up and est == "paid" else 0
                s.create(
                    Expense,
                    relocation_id=rel.id,
                    category=cat,
                    description=f"{cat.replace('_', ' ')} on the move",
                    amount_cents=amount,
                    incurred_on=today - dt.timedelta(days=3 + j),
                    status=est,
                    gross_up_cents=gross,
                )
                if est == "paid":
                    s.update(rel, reimbursed_cents=amount + gross)
        elif status == "approved" and k in (1, 6):
            s.create(
                Shipment,
                relocation_id=rel.id,
                carrier="Mayflower",
                pack_date=report - dt.timedelta(days=10),
                estimated_weight_lbs=policy.household_goods_max_lbs // 2,
                status="packed" if k == 1 else "surveyed",
            )
            s.create(
                Stay,
                relocation_id=rel.id,
                property_name="Residence Inn Downtown",
                nights=10,
                check_in=report,
                nightly_rate_cents=16_000,
            )
