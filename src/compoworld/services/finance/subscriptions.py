"""Tempo Billing: plans, add-ons, customers, subscriptions with trials and proration, and their invoices.

Modeled on the Chargebee API v2 (Plans and Addons as item prices, Customers,
Subscriptions, Estimates, Invoices, promotional credits): a subscription starts
in trial when its plan has one (no invoice) or active with an invoice for the
first term; changing the plan mid-term invoices the prorated difference of an
upgrade and credits the prorated difference of a downgrade; an add-on must be
applicable to the plan; cancelling at the end of the term keeps the
subscription running (non_renewing) until then; customer credits are applied
to new invoices first; a payment cannot exceed what an invoice still owes.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    InvoiceNumber,
    LastName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "subscriptions",
    title="Tempo Billing",
    category="billing",
    modeled_on="Chargebee API v2 (Plans/Addons item prices, Customers, Subscriptions, Estimates, Invoices, "
    "promotional credits)",
    description="Recurring billing for a software business: priced plans and add-ons, subscriber accounts with "
    "credit balances, subscriptions with free trials, mid-term plan changes with proration, scheduled "
    "cancellations, and the invoices they raise.",
)

PlanId = Annotated[str, IdOf("subscriptions.plan")]
AddonId = Annotated[str, IdOf("subscriptions.addon")]
CustomerId = Annotated[str, IdOf("subscriptions.customer")]
SubscriptionId = Annotated[str, IdOf("subscriptions.subscription")]
InvoiceId = Annotated[str, IdOf("subscriptions.invoice")]

Period = Literal["month", "year"]
SubStatus = Literal["in_trial", "active", "non_renewing", "paused", "cancelled"]
LIVE: tuple[str, ...] = ("in_trial", "active", "non_renewing", "paused")
Seats = Annotated[int, Field(ge=1, le=10_000)]


class Plan(Record):
    """A priced plan customers subscribe to."""

    id: PlanId
    name: Title
    """Plan name."""
    description: Text = ""
    """What the plan includes."""
    price: Cents
    """Price per seat per billing period in cents."""
    currency: Currency
    """Currency of the price."""
    period: Period = "month"
    """Billing period: month or year."""
    trial_days: Annotated[int, Field(ge=0, le=90)] = 0
    """Length of the free trial in days; 0 for none."""
    status: Literal["active", "archived"] = "active"
    """Archived plans take no new subscriptions or plan changes."""


class Addon(Record):
    """A recurring extra charged on top of a plan."""

    id: AddonId
    name: Title
    """Add-on name."""
    price: Cents
    """Price per unit per billing period in cents."""
    currency: Currency
    """Currency of the price."""
    period: Period = "month"
    """Billing period; must match the plan's."""
    applicable_plan_ids: list[PlanId] = Field(default_factory=list, max_length=20)
    """Plans it can be added to; empty means every plan of the same currency and period."""
    status: Literal["active", "archived"] = "active"
    """Archived add-ons cannot be added."""


class Customer(Created):
    """A subscriber account."""

    id: CustomerId
    first_name: FirstName
    """Given name of the billing contact."""
    last_name: LastName
    """Family name of the billing contact."""
    email: Email
    """Billing e-mail; unique."""
    company: CompanyName | None = None
    """Company subscribed, for business customers."""
    phone: Phone | None = None
    """Phone number."""
    billing_address: PostalAddress | None = None
    """Billing address."""
    credit_balance: Cents = 0
    """Credits in cents, applied to the next invoices first."""


class SubscribedAddon(Value):
    """An add-on on a subscription."""

    addon_id: AddonId = Field(description="The add-on.")
    quantity: Seats = Field(default=1, description="Units.")


class Subscription(Record):
    """A customer's subscription to a plan."""

    id: SubscriptionId
    customer_id: CustomerId
    """The subscriber."""
    customer_email: Email
    """The subscriber's billing e-mail."""
    plan_id: PlanId
    """The current plan."""
    plan_quantity: Seats = 1
    """Seats."""
    addons: list[SubscribedAddon] = Field(default_factory=list, max_length=10)
    """Add-ons."""
    status: SubStatus
    """in_trial, active, non_renewing (cancels at term end), paused or cancelled (final)."""
    currency: Currency
    """Currency of the charges."""
    trial_end: Date | None = None
    """Last day of the trial."""
    current_term_start: Date
    """First day of the current billing term."""
    current_term_end: Date
    """Day the current term ends (and renews, unless non_renewing)."""
    mrr: Cents = 0
    """Monthly recurring revenue in cents (yearly charges / 12; 0 in trial, paused or cancelled)."""
    cancel_reason: Text | None = None
    """Why it was (or will be) cancelled."""
    cancelled_at: DateTime | None = None
    """When it was cancelled."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class InvoiceLine(Value):
    """A charge or credit on an invoice."""

    description: Text = Field(description="What is charged.")
    kind: Literal["plan", "addon", "proration"] = Field(description="Kind of charge.")
    amount: Cents = Field(description="Amount in cents.")


class Invoice(Record):
    """An invoice raised by a subscription."""

    id: InvoiceId
    number: Annotated[InvoiceNumber, Generated("sequence", "TB-{n:05d}")]
    """Invoice number."""
    customer_id: CustomerId
    """The customer billed."""
    customer_email: Email
    """Where the invoice is sent."""
    company: CompanyName | None = None
    """The customer's company."""
    subscription_id: SubscriptionId
    """The subscription that raised it."""
    date: Date
    """Invoice date."""
    currency: Currency
    """Currency."""
    lines: list[InvoiceLine] = Field(max_length=20)
    """The charges."""
    sub_total: Cents
    """Sum of the lines in cents."""
    credits_applied: Cents = 0
    """Customer credits used in cents."""
    amount_paid: Cents = 0
    """Paid in cents."""
    amount_due: Cents = 0
    """Still owed in cents."""
    status: Literal["paid", "payment_due", "voided"]
    """paid, payment_due or voided."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ------------------------------------------------------------------------------------


def _add_period(day: dt.date, period: str, n: int = 1) -> dt.date:
    """``day`` moved by ``n`` billing periods (``period``: month or year)."""
    return add_months(day, n if period == "month" else 12 * n)


def _charge(ctx: Ctx, plan: Plan, seats: int, addons: list[SubscribedAddon]) -> int:
    total = plan.price * seats
    for a in addons:
        total += ctx.get(Addon, a.addon_id).price * a.quantity
    return total


def _mrr(plan: Plan, charge: int, status: str) -> int:
    if status not in ("active", "non_renewing"):
        return 0
    return charge if plan.period == "month" else charge // 12


def _check_addons(ctx: Ctx, plan: Plan, addons: list[SubscribedAddon], field: str) -> None:
    seen: set[str] = set()
    for k, a in enumerate(addons):
        addon = ctx.get(Addon, a.addon_id, field=f"{field}.{k}.addon_id")
        if a.addon_id in seen:
            raise RuleViolation(
                f"add-on {addon.name} is listed twice",
                field=f"{field}.{k}",
                hint="give each add-on once with a quantity",
            )
        seen.add(a.addon_id)
        if addon.status != "active":
            raise RuleViolation(
                f"add-on {addon.name} is archived", field=f"{field}.{k}.addon_id", hint="pick an active add-on"
            )
        if addon.currency != plan.currency or addon.period != plan.period:
            raise RuleViolation(
                f"add-on {addon.name} is billed per {addon.period} in {addon.currency}, the plan per "
                f"{plan.period} in {plan.currency}",
                field=f"{field}.{k}.addon_id",
                hint="pick an add-on with the plan's currency and period",
            )
        if addon.applicable_plan_ids and plan.id not in addon.applicable_plan_ids:
            raise RuleViolation(
                f"add-on {addon.name} is not available on plan {plan.name}",
                field=f"{field}.{k}.addon_id",
                hint="pick an add-on applicable to the plan, or remove it",
            )


def _active_plan(ctx: Ctx, plan_id: str, field: str) -> Plan:
    plan = ctx.get(Plan, plan_id, field=field)
    if plan.status != "active":
        raise RuleViolation(f"plan {plan.name} is archived", field=field, hint="pick an active plan")
    return plan


def _raise_invoice(ctx: Ctx, sub: Subscription, lines: list[InvoiceLine]) -> Invoice:
    customer = ctx.get(Customer, sub.customer_id)
    sub_total = sum(ln.amount for ln in lines)
    credits = min(customer.credit_balance, sub_total)
    if credits:
        ctx.update(customer, credit_balance=customer.credit_balance - credits)
    due = sub_total - credits
    return ctx.create(
        Invoice,
        customer_id=customer.id,
        customer_email=customer.email,
        company=customer.company,
        subscription_id=sub.id,
        date=ctx.today(),
        currency=sub.currency,
        lines=lines,
        sub_total=sub_total,
        credits_applied=credits,
        amount_due=due,
        status="paid" if due == 0 else "payment_due",
    )


def _term_lines(ctx: Ctx, plan: Plan, seats: int, addons: list[SubscribedAddon]) -> list[InvoiceLine]:
    lines = [InvoiceLine(description=f"{plan.name} × {seats}", kind="plan", amount=plan.price * seats)]
    for a in addons:
        addon = ctx.get(Addon, a.addon_id)
        lines.append(
            InvoiceLine(description=f"{addon.name} × {a.quantity}", kind="addon", amount=addon.price * a.quantity)
        )
    return lines


def _guard_addon(ctx: Ctx, new: Any, old: Any) -> None:
    for k, pid in enumerate(new.applicable_plan_ids):
        plan = ctx.get(Plan, pid, field=f"applicable_plan_ids.{k}")
        if plan.currency != new.currency or plan.period != new.period:
            raise RuleViolation(
                f"plan {plan.name} is billed per {plan.period} in {plan.currency}",
                field=f"applicable_plan_ids.{k}",
                hint="an add-on applies only to plans of its own currency and period",
            )


plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="plan",
    create=("name", "description", "price", "currency", "period", "trial_days"),
    filters=("status", "period", "currency"),
    search=("name", "description"),
    update=("name", "description", "trial_days"),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "retire the plan")},
)
addons = service.resource(
    Addon,
    name="addon",
    plural="addons",
    prefix="addon",
    create=("name", "price", "currency", "period", "applicable_plan_ids"),
    filters=("status", "period", "currency"),
    search=("name",),
    delete=False,
    guard_create=_guard_addon,
    title="add-on",
)
customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("first_name", "last_name", "email", "company", "phone", "billing_address"),
    filters=("email", "company"),
    search=("first_name", "last_name", "email", "company"),
    update=("first_name", "last_name", "email", "company", "phone", "billing_address"),
    delete=False,
    unique=("email",),
    title="subscriber",
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    filters=("customer_id", "customer_email", "plan_id", "status", "current_term_end"),
    delete=False,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("customer_id", "customer_email", "subscription_id", "status", "number"),
    search=("number", "company"),
    delete=False,
    title="subscription invoice",
)


# -- examples ---------------------------------------------------------------------------------


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    live = {(s.customer_id, s.plan_id) for s in ctx.scan(Subscription) if s.status in LIVE}
    plan = next(p for p in ctx.where(Plan, status="active") if p.trial_days)
    for c in ctx.scan(Customer):
        if (c.id, plan.id) not in live:
            return {"customer_id": c.id, "plan_id": plan.id, "plan_quantity": 3}
    return None


def _example_change(ctx: Ctx) -> dict[str, Any] | None:
    for sub in ctx.where(Subscription, status="active"):
        plan = ctx.get(Plan, sub.plan_id)
        for other in ctx.where(Plan, status="active", period=plan.period, currency=plan.currency):
            if other.id != plan.id and other.price > plan.price:
                try:
                    _check_addons(ctx, other, sub.addons, "addons")
                except RuleViolation:
                    continue
                return {"subscription_id": sub.id, "plan_id": other.id}
    return None


def _example_in_status(status: str) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        sub = ctx.first(Subscription, status=status)
        return None if sub is None else {"subscription_id": sub.id}

    return example


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="subscribe the customer to the plan", write=True, example=_example_subscribe)
def create_subscription(
    ctx: Ctx,
    customer_id: CustomerId,
    plan_id: PlanId,
    plan_quantity: Seats = 1,
    addons: Annotated[list[SubscribedAddon], Field(max_length=10)] | None = None,
    skip_trial: bool = False,
) -> Subscription:
    """Subscribe a customer to an active plan, with optional add-ons.

    If the plan has a trial (and skip_trial is false) the subscription starts
    in_trial and nothing is invoiced until the trial ends; otherwise it starts
    active and the first term is invoiced at once (the customer's credits are
    applied first). A customer cannot hold two live subscriptions to one plan.

    Args:
        customer_id: The subscriber.
        plan_id: The plan.
        plan_quantity: Seats.
        addons: Add-ons applicable to the plan, each with a quantity.
        skip_trial: Start active and invoice now even if the plan has a trial.
    """
    customer = ctx.get(Customer, customer_id, field="customer_id")
    plan = _active_plan(ctx, plan_id, "plan_id")
    extras = list(addons or [])
    _check_addons(ctx, plan, extras, "addons")
    for other in ctx.where(Subscription, customer_id=customer.id, plan_id=plan.id):
        if other.status in LIVE:
            raise Conflict(
                f"{customer.email} already has a {other.status} subscription to {plan.name} ({other.id})",
                field="plan_id",
                hint="change that subscription's seats or plan with subscriptions__change_plan instead",
            )
    today = ctx.today()
    trial = plan.trial_days > 0 and not skip_trial
    charge = _charge(ctx, plan, plan_quantity, extras)
    status: SubStatus = "in_trial" if trial else "active"
    trial_end = today + dt.timedelta(days=plan.trial_days) if trial else None
    start = (trial_end + dt.timedelta(days=1)) if trial_end else today
    sub = ctx.create(
        Subscription,
        customer_id=customer.id,
        customer_email=customer.email,
        plan_id=plan.id,
        plan_quantity=plan_quantity,
        addons=extras,
        status=status,
        currency=plan.currency,
        trial_end=trial_end,
        current_term_start=today,
        current_term_end=trial_end if trial_end else _add_period(start, plan.period),
        mrr=_mrr(plan, charge, status),
    )
    if not trial:
        _raise_invoice(ctx, sub, _term_lines(ctx, plan, plan_quantity, extras))
    return sub


class PlanChangeEstimate(BaseModel):
    """What a plan change would cost now."""

    subscription_id: SubscriptionId = Field(description="The subscription.")
    current_charge: Cents = Field(description="Charge per term now, in cents.")
    new_charge: Cents = Field(description="Charge per term after the change, in cents.")
    days_left: int = Field(description="Days left in the current term.")
    term_days: int = Field(description="Days in the current term.")
    prorated_charge: Cents = Field(description="Invoiced now for an upgrade, in cents.")
    prorated_credit: Cents = Field(description="Credited to the customer for a downgrade, in cents.")
    new_mrr: Cents = Field(description="Monthly recurring revenue after the change, in cents.")


def _estimate(
    ctx: Ctx, sub: Subscription, plan_id: str | None, seats: int | None, field: str
) -> tuple[PlanChangeEstimate, Plan]:
    if sub.status == "cancelled":
        raise RuleViolation(
            f"subscription {sub.id} is cancelled", field="subscription_id", hint="start a new subscription instead"
        )
    old = ctx.get(Plan, sub.plan_id)
    new = _active_plan(ctx, plan_id, field) if plan_id else old
    qty = seats or sub.plan_quantity
    if new.id == old.id and qty == sub.plan_quantity:
        raise RuleViolation(
            f"the subscription is already on {old.name} with {qty} seat(s)",
            field=field,
            hint="pick another plan or seat count",
        )
    if new.period != old.period or new.currency != old.currency:
        raise RuleViolation(
            f"plan {new.name} is billed per {new.period} in {new.currency}, the subscription per {old.period} "
            f"in {old.currency}",
            field=field,
            hint="cancel at the end of the term and subscribe to the new plan",
        )
    _check_addons(ctx, new, sub.addons, "plan_id")
    cur, nxt = _charge(ctx, old, sub.plan_quantity, sub.addons), _charge(ctx, new, qty, sub.addons)
    term = max(1, (sub.current_term_end - sub.current_term_start).days)
    left = max(0, min(term, (sub.current_term_end - ctx.today()).days))
    prorate = sub.status in ("active", "non_renewing")
    diff = (nxt - cur) * left // term if prorate else 0
    status = sub.status
    est = PlanChangeEstimate(
        subscription_id=sub.id,
        current_charge=cur,
        new_charge=nxt,
        days_left=left,
        term_days=term,
        prorated_charge=max(0, diff),
        prorated_credit=max(0, -diff),
        new_mrr=_mrr(new, nxt, status),
    )
    return est, new


@service.tool(intent="estimate what the plan change would cost", example=_example_change)
def preview_plan_change(
    ctx: Ctx, subscription_id: SubscriptionId, plan_id: PlanId | None = None, plan_quantity: Seats | None = None
) -> PlanChangeEstimate:
    """Estimate a plan or seat change without making it: the prorated charge or credit for the rest of the term.

    Args:
        subscription_id: The subscription.
        plan_id: The new plan; omit to keep the plan.
        plan_quantity: The new seat count; omit to keep it.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    return _estimate(ctx, sub, plan_id, plan_quantity, "plan_id")[0]


@service.tool(intent="move the subscription to another plan", write=True, example=_example_change)
def change_plan(
    ctx: Ctx, subscription_id: SubscriptionId, plan_id: PlanId | None = None, plan_quantity: Seats | None = None
) -> Subscription:
    """Change a subscription's plan or seats now, prorated for the rest of the term.

    An upgrade invoices the prorated difference at once; a downgrade adds the
    prorated difference to the customer's credit balance. A trial changes
    without charge. The new plan must be active, have the same billing period
    and currency, and accept the subscription's add-ons.

    Args:
        subscription_id: The subscription.
        plan_id: The new plan; omit to keep the plan.
        plan_quantity: The new seat count; omit to keep it.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    est, plan = _estimate(ctx, sub, plan_id, plan_quantity, "plan_id")
    qty = plan_quantity or sub.plan_quantity
    updated = ctx.update(sub, plan_id=plan.id, plan_quantity=qty, mrr=est.new_mrr)
    if est.prorated_charge:
        line = InvoiceLine(
            description=f"Prorated change to {plan.name} × {qty} for {est.days_left} of {est.term_days} days",
            kind="proration",
            amount=est.prorated_charge,
        )
        _raise_invoice(ctx, updated, [line])
    elif est.prorated_credit:
        customer = ctx.get(Customer, sub.customer_id)
        ctx.update(customer, credit_balance=customer.credit_balance + est.prorated_credit)
    return updated


@service.tool(intent="cancel the subscription", write=True, destructive=True, example=_example_in_status("active"))
def cancel_subscription(
    ctx: Ctx, subscription_id: SubscriptionId, end_of_term: bool = True, reason: Text = ""
) -> Subscription:
    """Cancel a subscription at the end of its term (it becomes non_renewing) or at once.

    Cancelling at once credits the customer the unused part of a paid term;
    a trial or paused subscription is always cancelled at once.

    Args:
        subscription_id: The subscription.
        end_of_term: Keep it running until the term ends (default) instead of cancelling now.
        reason: Why the customer leaves.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status == "cancelled":
        raise Conflict(f"subscription {sub.id} is already cancelled", field="subscription_id", hint="nothing to do")
    if end_of_term and sub.status == "active":
        return ctx.update(sub, status="non_renewing", cancel_reason=reason or None)
    if end_of_term and sub.status == "non_renewing":
        raise Conflict(
            f"subscription {sub.id} already cancels on {sub.current_term_end}",
            field="subscription_id",
            hint="pass end_of_term=false to cancel it now",
        )
    if sub.status in ("active", "non_renewing"):
        plan = ctx.get(Plan, sub.plan_id)
        charge = _charge(ctx, plan, sub.plan_quantity, sub.addons)
        term = max(1, (sub.current_term_end - sub.current_term_start).days)
        left = max(0, min(term, (sub.current_term_end - ctx.today()).days))
        unpaid = sum(i.amount_due for i in ctx.where(Invoice, subscription_id=sub.id, status="payment_due"))
        credit = max(0, charge * left // term - unpaid)
        if credit:
            customer = ctx.get(Customer, sub.customer_id)
            ctx.update(customer, credit_balance=customer.credit_balance + credit)
    return ctx.update(sub, status="cancelled", mrr=0, cancel_reason=reason or sub.cancel_reason, cancelled_at=ctx.now())


@service.tool(intent="keep the subscription renewing", write=True, example=_example_in_status("non_renewing"))
def remove_scheduled_cancellation(ctx: Ctx, subscription_id: SubscriptionId) -> Subscription:
    """Undo a cancellation scheduled for the end of the term: the subscription is active again.

    Args:
        subscription_id: The non_renewing subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "non_renewing":
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status}, not scheduled to cancel",
            field="subscription_id",
            hint="only non_renewing subscriptions have a scheduled cancellation",
        )
    return ctx.update(sub, status="active", cancel_reason=None)


@service.tool(intent="end the free trial and start billing", write=True, example=_example_in_status("in_trial"))
def end_trial(ctx: Ctx, subscription_id: SubscriptionId) -> Subscription:
    """End a trial now: the subscription becomes active, a term starts today and is invoiced.

    Args:
        subscription_id: The subscription in trial.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "in_trial":
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status}, not in trial", field="subscription_id", hint="nothing to end"
        )
    plan = ctx.get(Plan, sub.plan_id)
    today = ctx.today()
    charge = _charge(ctx, plan, sub.plan_quantity, sub.addons)
    updated = ctx.update(
        sub,
        status="active",
        trial_end=today,
        current_term_start=today,
        current_term_end=_add_period(today, plan.period),
        mrr=_mrr(plan, charge, "active"),
    )
    _raise_invoice(ctx, updated, _term_lines(ctx, plan, sub.plan_quantity, sub.addons))
    return updated


@service.tool(intent="pause the subscription", write=True, example=_example_in_status("active"))
def pause_subscription(ctx: Ctx, subscription_id: SubscriptionId) -> Subscription:
    """Pause an active subscription: it stops counting towards recurring revenue until resumed.

    Args:
        subscription_id: The active subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "active":
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status}",
            field="subscription_id",
            hint="only active subscriptions can be paused (remove a scheduled cancellation first)",
        )
    return ctx.update(sub, status="paused", mrr=0)


@service.tool(intent="resume the paused subscription", write=True, example=_example_in_status("paused"))
def resume_subscription(ctx: Ctx, subscription_id: SubscriptionId) -> Subscription:
    """Resume a paused subscription: it is active again and counts towards recurring revenue.

    Args:
        subscription_id: The paused subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "paused":
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status}, not paused", field="subscription_id", hint="nothing to resume"
        )
    plan = ctx.get(Plan, sub.plan_id)
    return ctx.update(sub, status="active", mrr=_mrr(plan, _charge(ctx, plan, sub.plan_quantity, sub.addons), "active"))


@service.tool(
    intent="record the customer's payment of the invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "payment_due"}, fields={"amount": "amount_due"}),
)
def record_payment(
    ctx: Ctx, invoice_id: InvoiceId, amount: Cents, method: Literal["card", "bank_transfer", "check"] = "card"
) -> Invoice:
    """Record a payment against an invoice; it cannot exceed what the invoice still owes.

    Args:
        invoice_id: The invoice.
        amount: Amount paid in cents.
        method: How it was paid.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "payment_due":
        raise RuleViolation(f"invoice {inv.number} is {inv.status}", field="invoice_id", hint="nothing is owed on it")
    if amount <= 0 or amount > inv.amount_due:
        raise RuleViolation(
            f"invoice {inv.number} owes {inv.amount_due}; {amount} cannot be recorded",
            field="amount",
            hint=f"pay between 1 and {inv.amount_due}",
        )
    due = inv.amount_due - amount
    return ctx.update(
        inv, amount_paid=inv.amount_paid + amount, amount_due=due, status="paid" if due == 0 else inv.status
    )


@service.tool(
    intent="void the invoice",
    write=True,
    destructive=True,
    example=first_example(
        Invoice, "invoice_id", where={"status": "payment_due"}, match=lambda ctx, inv: inv.amount_paid == 0
    ),
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void an unpaid invoice with no payments; credits it used go back to the customer.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "payment_due":
        raise RuleViolation(
            f"invoice {inv.number} is {inv.status}", field="invoice_id", hint="only unpaid invoices can be voided"
        )
    if inv.amount_paid:
        raise RuleViolation(
            f"invoice {inv.number} has payments of {inv.amount_paid}",
            field="invoice_id",
            hint="an invoice with payments cannot be voided",
        )
    if inv.credits_applied:
        customer = ctx.get(Customer, inv.customer_id)
        ctx.update(customer, credit_balance=customer.credit_balance + inv.credits_applied)
    return ctx.update(inv, status="voided", amount_due=0)


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[str, str, int, Period, int, bool], ...] = (
    ("Starter", "Core features for small teams", 29_00, "month", 14, True),
    ("Growth", "Automation and integrations", 99_00, "month", 14, True),
    ("Scale", "Advanced security and support", 299_00, "month", 0, True),
    ("Starter Annual", "Starter, billed yearly", 290_00, "year", 14, True),
    ("Growth Annual", "Growth, billed yearly", 990_00, "year", 0, True),
    ("Legacy Basic", "Retired entry plan", 19_00, "month", 0, False),
)


class _Catalog(NamedTuple):
    """The seeded plans and the add-ons subscriptions carry."""

    plans: dict[str, Plan]
    support: Addon
    analytics: Addon


def _seed_catalog(s: SeedContext) -> _Catalog:
    """The plans (one retired) and add-ons (some limited to plans, one annual, one retired)."""
    cur = s.population.home.place.currency
    plan = {
        name: s.create(
            Plan,
            name=name,
            description=desc,
            price=price,
            currency=cur,
            period=period,
            trial_days=trial,
            status="active" if live else "archived",
        )
        for name, desc, price, period, trial, live in PLANS
    }
    support = s.create(
        Addon,
        name="Priority support",
        price=49_00,
        currency=cur,
        applicable_plan_ids=[plan["Growth"].id, plan["Scale"].id],
    )
    analytics = s.create(Addon, name="Advanced analytics", price=79_00, currency=cur)
    s.create(Addon, name="Single sign-on", price=25_00, currency=cur, applicable_plan_ids=[plan["Scale"].id])
    s.create(Addon, name="Priority support (annual)", price=490_00, currency=cur, period="year")
    s.create(Addon, name="Phone support", price=15_00, currency=cur, status="archived")
    return _Catalog(plan, support, analytics)


def _seed_subscription(s: SeedContext, i: int, customer: Customer, catalog: _Catalog, status: SubStatus) -> None:
    """The i-th customer's subscription and, unless it is in trial, the invoice of its current term."""
    cur = s.population.home.place.currency
    support, analytics = catalog.support, catalog.analytics
    live_plans = [p for p in catalog.plans.values() if p.status == "active"]
    p = live_plans[(i * 3) % len(live_plans)]
    if status == "in_trial" and not p.trial_days:
        p = catalog.plans["Growth"]
    seats = 1 + (i * 7) % 12
    extras: list[SubscribedAddon] = []
    if p.period == "month" and i % 3 == 0:
        extras.append(SubscribedAddon(addon_id=analytics.id, quantity=1))
    if p.id in support.applicable_plan_ids and i % 2 == 0:
        extras.append(SubscribedAddon(addon_id=support.id, quantity=1))
    addon_price = {analytics.id: analytics.price, support.id: support.price}
    charge = p.price * seats + sum(addon_price[a.addon_id] * a.quantity for a in extras)
    today = s.now.date()
    if status == "in_trial":
        start = today - dt.timedelta(days=s.rng.randint(1, p.trial_days - 1))
        end = start + dt.timedelta(days=p.trial_days)
        trial_end: dt.date | None = end
    else:
        end = today + dt.timedelta(days=s.rng.randint(3, 27 if p.period == "month" else 300))
        start = _add_period(end, p.period, -1)
        trial_end = None
    sub = s.create(
        Subscription,
        customer_id=customer.id,
        customer_email=customer.email,
        plan_id=p.id,
        plan_quantity=seats,
        addons=extras,
        status=status,
        currency=cur,
        trial_end=trial_end,
        current_term_start=start,
        current_term_end=end,
        mrr=_mrr(p, charge, status),
        cancel_reason={"non_renewing": "Moving to an in-house tool", "cancelled": "Budget cuts"}.get(status),
        cancelled_at=s.ago(days=2) if status == "cancelled" else None,
        updated_at=utc_at(start, 9),
    )
    if status == "in_trial":
        return
    unpaid = status == "active" and i % 4 == 0
    lines = [InvoiceLine(description=f"{p.name} × {seats}", kind="plan", amount=p.price * seats)] + [
        InvoiceLine(
            description=f"{'Advanced analytics' if a.addon_id == analytics.id else 'Priority support'} × 1",
            kind="addon",
            amount=addon_price[a.addon_id],
        )
        for a in extras
    ]
    s.create(
        Invoice,
        customer_id=customer.id,
        customer_email=customer.email,
        company=customer.company,
        subscription_id=sub.id,
        date=start,
        currency=cur,
        lines=lines,
        sub_total=charge,
        amount_paid=0 if unpaid else charge,
        amount_due=charge if unpaid else 0,
        status="payment_due" if unpaid else "paid",
        updated_at=utc_at(start, 9),
    )


@service.seeder
def seed(s: SeedContext) -> None:
    """Plans and add-ons, customer contacts as subscribers, subscriptions in every status with their invoices."""
    pop = s.population
    catalog = _seed_catalog(s)
    statuses: tuple[SubStatus, ...] = ("active", "active", "in_trial", "non_renewing", "active", "paused", "cancelled")
    for i, person in enumerate(pop.contacts):
        company = pop.company_of(person)
        customer = s.create(
            Customer,
            first_name=person.first_name,
            last_name=person.last_name,
            email=person.email,
            company=company.name if company else None,
            phone=person.phone,
            billing_address=company.address if company else person.address,
            credit_balance=(0, 0, 0, 25_00, 0, 110_00)[i % 6],
            created_at=s.ago(days=30 + 11 * i),
        )
        if i % 9 == 8:
            continue  # signed up, never subscribed
        _seed_subscription(s, i, customer, catalog, statuses[i % len(statuses)])
