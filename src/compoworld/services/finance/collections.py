"""Duecraft Collections: accounts-receivable follow-up: dunning workflows, promises to pay, disputes, payment plans.

Modeled on the Upflow API (with Tesorio's concepts): customers synced from
accounting with their AR contact and the collector who owns them, their open
invoices (amount due, due date, status open / partially_paid / paid /
disputed / written_off), dunning workflows made of steps (an e-mail, a call
task or a letter a number of days before or after the due date), the
reminders a dunning run schedules, promises to pay (pending → kept or
broken), disputes that pause dunning until resolved (rejected, or credited
with a credit that lowers the amount due), and payment plans that split
invoices into instalments.

Rules: payments never exceed what is due; a promise is for an open,
undisputed invoice, at most its amount due, within 60 days and one at a time;
one open dispute per invoice; an invoice in a payment plan, disputed or under
a pending promise is not dunned; a plan's invoices belong to one customer and
to no other active plan; an invoice is written off only when 90 days overdue;
a workflow's steps have distinct day offsets, and a workflow in use cannot be
deleted.
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
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, InvoiceNumber, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "collections",
    title="Duecraft Collections",
    category="accounts_receivable",
    modeled_on="Upflow API (customers, invoices, payments, workflows and reminders, promises to pay, disputes, "
    "payment plans), with Tesorio's collections concepts",
    description="Accounts-receivable collections: the customers who owe the company, their open invoices and "
    "payments, the dunning workflows that remind them, the reminders each run schedules, promises to pay, "
    "invoice disputes, payment plans and the aging of what is overdue.",
)

CustomerId = Annotated[str, IdOf("collections.customer")]
InvoiceId = Annotated[str, IdOf("collections.invoice")]
WorkflowId = Annotated[str, IdOf("collections.workflow")]
ReminderId = Annotated[str, IdOf("collections.reminder")]
PromiseId = Annotated[str, IdOf("collections.promise")]
DisputeId = Annotated[str, IdOf("collections.dispute")]
PlanId = Annotated[str, IdOf("collections.payment_plan")]

InvoiceStatus = Literal["open", "partially_paid", "paid", "disputed", "written_off"]
Action = Literal["email", "call", "letter"]
DisputeReason = Literal["pricing", "quantity", "quality", "not_received", "duplicate", "other"]
UNPAID: tuple[InvoiceStatus, ...] = ("open", "partially_paid")
PROMISE_DAYS = 60
WRITE_OFF_DAYS = 90


class Step(Value):
    """One step of a dunning workflow."""

    day_offset: Annotated[int, Field(ge=-30, le=180)]
    """Days from the due date (negative: before it)."""
    action: Action
    """email, call (a task for the collector) or letter."""
    template: Title
    """The message or script used."""


class Workflow(Record):
    """A dunning workflow: the reminders sent as an invoice ages."""

    id: WorkflowId
    name: Title
    """Its name (unique)."""
    steps: tuple[Step, ...]
    """Its steps."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Customer(Record):
    """A customer who owes the company money."""

    id: CustomerId
    name: CompanyName
    """The company."""
    ar_contact_email: Email
    """Who receives reminders (their accounts-payable contact)."""
    owner_email: Email
    """The collector (employee) who owns the account."""
    workflow_id: WorkflowId | None = None
    """The dunning workflow it follows (none: not dunned)."""
    credit_limit: Cents = 0
    """Credit limit (0: none)."""


class Invoice(Record):
    """An invoice synced from accounting."""

    id: InvoiceId
    customer_id: CustomerId
    """The customer."""
    number: InvoiceNumber
    """The invoice number (unique)."""
    issue_date: Date
    """When it was issued."""
    due_date: Date
    """When it is due."""
    amount: Cents
    """Invoiced total."""
    amount_due: Cents
    """What is still owed."""
    status: InvoiceStatus = "open"
    """open, partially_paid, paid, disputed or written_off."""
    plan_id: PlanId | None = None
    """The payment plan covering it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Reminder(Record):
    """A dunning step scheduled for an invoice by a run."""

    id: ReminderId
    invoice_id: InvoiceId
    """The invoice."""
    customer_id: CustomerId
    """The customer."""
    day_offset: int
    """The workflow step's offset."""
    action: Action
    """email, call or letter."""
    template: Title
    """What is sent or said."""
    to_email: Email
    """The customer contact reminded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was scheduled."""


class Promise(Record):
    """A customer's promise to pay an invoice by a date."""

    id: PromiseId
    invoice_id: InvoiceId
    """The invoice."""
    amount: Cents
    """Amount promised."""
    promised_date: Date
    """When they will pay."""
    status: Literal["pending", "kept", "broken"] = "pending"
    """pending, kept or broken."""
    note: Text = ""
    """What was agreed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was logged."""


class Dispute(Record):
    """A customer's dispute of an invoice; it pauses dunning."""

    id: DisputeId
    invoice_id: InvoiceId
    """The invoice."""
    reason: DisputeReason
    """pricing, quantity, quality, not_received, duplicate or other."""
    description: Text
    """What the customer says."""
    status: Literal["open", "rejected", "credited"] = "open"
    """open, rejected (the invoice stands) or credited."""
    credit_amount: Cents = 0
    """Credit granted (credited disputes)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was raised."""


class Installment(Value):
    """One instalment of a payment plan."""

    due_date: Date
    amount: int
    """Cents."""


class PaymentPlan(Record):
    """Invoices of one customer split into instalments."""

    id: PlanId
    customer_id: CustomerId
    """The customer."""
    invoice_ids: tuple[InvoiceId, ...]
    """The invoices it covers."""
    total: Cents
    """What it collects."""
    installments: tuple[Installment, ...]
    """The schedule."""
    status: Literal["active", "completed", "canceled"] = "active"
    """active, completed (all paid) or canceled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was agreed."""


class Aging(Value):
    """What a customer owes by how overdue it is."""

    customer_id: CustomerId
    current: int
    """Not yet due."""
    days_1_30: int
    days_31_60: int
    days_61_90: int
    days_over_90: int
    total_due: int
    disputed: int
    """Due on disputed invoices (in the buckets too)."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user", field=field, hint="use an employee's e-mail")


def _guard_workflow(ctx: Ctx, new: Any, old: Any) -> None:
    offsets = [s.day_offset for s in new.steps]
    if not offsets or len(set(offsets)) != len(offsets):
        why = "a workflow needs steps with distinct day offsets"
        raise RuleViolation(why, field="steps", hint="give each step its own day_offset")


def _guard_workflow_delete(ctx: Ctx, new: Any, old: Any) -> None:
    users = ctx.where(Customer, workflow_id=old.id)
    if users:
        why = f"{len(users)} customers follow this workflow"
        raise Conflict(why, field="workflow_id", hint="move them to another workflow first")


def _guard_customer(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    if new.workflow_id is not None:
        ctx.get(Workflow, new.workflow_id, field="workflow_id")


def _unpaid(ctx: Ctx, invoice_id: str, field: str = "invoice_id") -> Invoice:
    inv = ctx.get(Invoice, invoice_id, field=field)
    if inv.status not in UNPAID:
        raise RuleViolation(f"invoice {inv.number} is {inv.status}", field=field, hint="pick an unpaid invoice")
    return inv


workflows = service.resource(
    Workflow,
    name="workflow",
    plural="workflows",
    prefix="wf",
    create=("name", "steps"),
    filters=(),
    search=("name",),
    update=("name", "steps"),
    unique=("name",),
    guard_create=_guard_workflow,
    guard_update=_guard_workflow,
    guard_delete=_guard_workflow_delete,
    title="dunning workflow",
)
customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cust",
    create=False,
    filters=("owner_email", "workflow_id", "ar_contact_email"),
    search=("name",),
    update=("owner_email", "workflow_id", "ar_contact_email", "credit_limit"),
    delete=False,
    guard_update=_guard_customer,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("customer_id", "status", "number", "plan_id"),
    delete=False,
)
reminders = service.resource(
    Reminder,
    name="reminder",
    plural="reminders",
    prefix="rem",
    create=False,
    get=False,
    filters=("invoice_id", "customer_id", "action"),
    delete=False,
)
promises = service.resource(
    Promise,
    name="promise",
    plural="promises",
    prefix="ptp",
    create=False,
    filters=("invoice_id", "status"),
    delete=False,
    title="promise to pay",
)
disputes = service.resource(
    Dispute,
    name="dispute",
    plural="disputes",
    prefix="dsp",
    create=False,
    filters=("invoice_id", "status", "reason"),
    delete=False,
)
plans = service.resource(
    PaymentPlan,
    name="payment_plan",
    plural="payment_plans",
    prefix="plan",
    create=False,
    filters=("customer_id", "status"),
    delete=False,
)


# -- payments and write-offs ------------------------------------------------------------------


def _settle_plan(ctx: Ctx, plan_id: str | None) -> None:
    if plan_id is None:
        return
    plan = ctx.get(PaymentPlan, plan_id)
    if plan.status == "active" and all(ctx.get(Invoice, i).status == "paid" for i in plan.invoice_ids):
        ctx.update(plan, status="completed")


@service.tool(
    intent="record the customer's payment",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "open"}, amount=10000),
)
def record_payment(ctx: Ctx, invoice_id: InvoiceId, amount: Annotated[int, Field(ge=1, le=10**11)]) -> Invoice:
    """Apply a customer payment to an unpaid invoice; a pending promise it fulfils is kept.

    Args:
        invoice_id: The invoice.
        amount: Cents paid (at most the amount due).
    """
    inv = _unpaid(ctx, invoice_id)
    if amount > inv.amount_due:
        raise RuleViolation(f"only {inv.amount_due} cents are due", field="amount", hint="pay at most the amount due")
    due = inv.amount_due - amount
    inv = ctx.update(inv, amount_due=due, status="paid" if due == 0 else "partially_paid")
    paid = inv.amount - due
    for p in ctx.where(Promise, invoice_id=inv.id, status="pending"):
        if due == 0 or paid >= p.amount:
            ctx.update(p, status="kept")
    _settle_plan(ctx, inv.plan_id)
    return inv


@service.tool(
    intent="write off the invoice",
    write=True,
    destructive=True,
    example=first_example(
        Invoice, "invoice_id", where={"status": "open"}, match=lambda ctx, i: (ctx.today() - i.due_date).days > 90
    ),
)
def write_off_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Write off an unpaid invoice more than 90 days overdue as bad debt.

    Args:
        invoice_id: The invoice.
    """
    inv = _unpaid(ctx, invoice_id)
    late = (ctx.today() - inv.due_date).days
    if late <= WRITE_OFF_DAYS:
        why = f"the invoice is {max(late, 0)} days overdue"
        raise RuleViolation(why, field="invoice_id", hint=f"write off only after {WRITE_OFF_DAYS} days overdue")
    if inv.plan_id is not None:
        raise RuleViolation("the invoice is in a payment plan", field="invoice_id", hint="cancel the plan first")
    for p in ctx.where(Promise, invoice_id=inv.id, status="pending"):
        ctx.update(p, status="broken")
    return ctx.update(inv, status="written_off")


# -- dunning ----------------------------------------------------------------------------------


def _dunnable(ctx: Ctx, inv: Invoice) -> bool:
    return (
        inv.status in UNPAID
        and inv.plan_id is None
        and not ctx.where(Promise, invoice_id=inv.id, status="pending")
        and not ctx.where(Dispute, invoice_id=inv.id, status="open")
    )


@service.tool(intent="run the dunning", write=True, example=first_example(Customer, "customer_id"))
def run_dunning(ctx: Ctx, customer_id: CustomerId | None = None) -> list[Reminder]:
    """Schedule the workflow steps that are due today or earlier and not yet scheduled, for dunnable invoices.

    Invoices that are disputed, under a pending promise or in a payment plan are skipped.

    Args:
        customer_id: Only this customer; omit for all.
    """
    targets = [ctx.get(Customer, customer_id, field="customer_id")] if customer_id else list(ctx.scan(Customer))
    made = []
    for cus in targets:
        if cus.workflow_id is None:
            continue
        flow = ctx.get(Workflow, cus.workflow_id)
        for inv in ctx.where(Invoice, customer_id=cus.id):
            if not _dunnable(ctx, inv):
                continue
            done = {r.day_offset for r in ctx.where(Reminder, invoice_id=inv.id)}
            for step in flow.steps:
                when = inv.due_date + dt.timedelta(days=step.day_offset)
                if when <= ctx.today() and step.day_offset not in done:
                    made.append(
                        ctx.create(
                            Reminder,
                            invoice_id=inv.id,
                            customer_id=cus.id,
                            day_offset=step.day_offset,
                            action=step.action,
                            template=step.template,
                            to_email=cus.ar_contact_email,
                        )
                    )
    return made


# -- promises and disputes --------------------------------------------------------------------


def _example_promise(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.where(Invoice, status="open"):
        if _dunnable(ctx, inv):
            day = ctx.today() + dt.timedelta(days=14)
            return {"invoice_id": inv.id, "amount": inv.amount_due, "promised_date": day.isoformat()}
    return None


@service.tool(intent="log the promise to pay", write=True, example=_example_promise)
def create_promise(
    ctx: Ctx,
    invoice_id: InvoiceId,
    amount: Annotated[int, Field(ge=1, le=10**11)],
    promised_date: Date,
    note: Text = "",
) -> Promise:
    """Log a customer's promise to pay an invoice by a date; dunning pauses while it is pending.

    Args:
        invoice_id: The invoice (unpaid and not disputed).
        amount: Cents promised (at most the amount due).
        promised_date: When they will pay: after today, within 60 days.
        note: What was agreed.
    """
    inv = _unpaid(ctx, invoice_id)
    if ctx.where(Dispute, invoice_id=inv.id, status="open"):
        raise RuleViolation("the invoice is disputed", field="invoice_id", hint="resolve the dispute first")
    if ctx.where(Promise, invoice_id=inv.id, status="pending"):
        raise Conflict("a promise is already pending", field="invoice_id", hint="wait for it to be kept or broken")
    if amount > inv.amount_due:
        raise RuleViolation(f"only {inv.amount_due} cents are due", field="amount", hint="promise the amount due")
    if not ctx.today() < promised_date <= ctx.today() + dt.timedelta(days=PROMISE_DAYS):
        why = f"the date must be after today and within {PROMISE_DAYS} days"
        raise RuleViolation(why, field="promised_date", hint="offer a payment plan for longer terms")
    return ctx.create(Promise, invoice_id=inv.id, amount=amount, promised_date=promised_date, note=note)


@service.tool(intent="check promises that came due", write=True, example=lambda ctx: {})
def review_promises(ctx: Ctx) -> list[Promise]:
    """Mark pending promises whose date has passed without payment as broken (dunning resumes)."""
    return [
        ctx.update(p, status="broken") for p in ctx.where(Promise, status="pending") if p.promised_date < ctx.today()
    ]


def _example_dispute(ctx: Ctx) -> dict[str, Any] | None:
    inv = ctx.first(Invoice, status="open")
    return (
        None
        if inv is None
        else {
            "invoice_id": inv.id,
            "reason": "pricing",
            "description": "Billed at list price instead of the contract rate.",
        }
    )


@service.tool(intent="open the dispute", write=True, example=_example_dispute)
def open_dispute(ctx: Ctx, invoice_id: InvoiceId, reason: DisputeReason, description: Text) -> Dispute:
    """Record a customer's dispute of an unpaid invoice: the invoice becomes disputed and is not dunned.

    Args:
        invoice_id: The invoice.
        reason: pricing, quantity, quality, not_received, duplicate or other.
        description: What the customer says.
    """
    inv = _unpaid(ctx, invoice_id)
    if not description.strip():
        raise RuleViolation("a dispute needs a description", field="description", hint="say what is contested")
    for p in ctx.where(Promise, invoice_id=inv.id, status="pending"):
        ctx.update(p, status="broken")
    ctx.update(inv, status="disputed")
    return ctx.create(Dispute, invoice_id=inv.id, reason=reason, description=description.strip())


@service.tool(
    intent="resolve the dispute",
    write=True,
    example=first_example(Dispute, "dispute_id", where={"status": "open"}, outcome="rejected"),
)
def resolve_dispute(
    ctx: Ctx, dispute_id: DisputeId, outcome: Literal["rejected", "credited"], credit_amount: Cents = 0
) -> Dispute:
    """Resolve an open dispute: rejected (the invoice is due again) or credited (the credit lowers the amount due).

    Args:
        dispute_id: The dispute.
        outcome: rejected or credited.
        credit_amount: Cents credited (credited only; at most the amount due).
    """
    disp = ctx.get(Dispute, dispute_id, field="dispute_id")
    if disp.status != "open":
        raise Conflict(f"the dispute is {disp.status}", field="dispute_id", hint="only open disputes are resolved")
    inv = ctx.get(Invoice, disp.invoice_id)
    if outcome == "credited" and not 0 < credit_amount <= inv.amount_due:
        why = f"a credit must be between 1 and the {inv.amount_due} cents due"
        raise RuleViolation(why, field="credit_amount", hint="give the amount credited")
    if outcome == "rejected" and credit_amount:
        raise RuleViolation("a rejected dispute grants no credit", field="credit_amount", hint="omit credit_amount")
    due = inv.amount_due - credit_amount
    status: InvoiceStatus = "paid" if due == 0 else ("open" if due == inv.amount else "partially_paid")
    ctx.update(inv, amount_due=due, status=status)
    return ctx.update(disp, status=outcome, credit_amount=credit_amount)


# -- payment plans and aging ------------------------------------------------------------------


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.where(Invoice, status="open"):
        if _dunnable(ctx, inv):
            start = ctx.today() + dt.timedelta(days=7)
            return {"invoice_ids": [inv.id], "installments": 3, "first_due_date": start.isoformat()}
    return None


@service.tool(intent="set up the payment plan", write=True, example=_example_plan)
def create_payment_plan(
    ctx: Ctx,
    invoice_ids: Annotated[list[InvoiceId], Field(min_length=1, max_length=20)],
    installments: Annotated[int, Field(ge=2, le=12)],
    first_due_date: Date,
) -> PaymentPlan:
    """Split one customer's unpaid invoices into monthly instalments (the last one takes the rounding).

    Args:
        invoice_ids: The invoices (one customer's, unpaid, undisputed, in no other plan).
        installments: How many monthly instalments (2-12).
        first_due_date: The first instalment's date (after today).
    """
    found = [_unpaid(ctx, i, "invoice_ids") for i in dict.fromkeys(invoice_ids)]
    if len({i.customer_id for i in found}) > 1:
        raise RuleViolation("the invoices belong to several customers", field="invoice_ids", hint="plan per customer")
    for inv in found:
        if inv.plan_id is not None or (not _dunnable(ctx, inv) and inv.plan_id is None):
            why = f"invoice {inv.number} is already in a plan, disputed or promised"
            raise RuleViolation(why, field="invoice_ids", hint="leave it out of the plan")
    if first_due_date <= ctx.today():
        raise RuleViolation("the first instalment must be after today", field="first_due_date", hint="pick a date")
    total = sum(i.amount_due for i in found)
    each = total // installments
    sched = tuple(
        Installment(
            due_date=first_due_date + dt.timedelta(days=30 * k),
            amount=each if k < installments - 1 else total - each * (installments - 1),
        )
        for k in range(installments)
    )
    plan = ctx.create(
        PaymentPlan,
        customer_id=found[0].customer_id,
        invoice_ids=tuple(i.id for i in found),
        total=total,
        installments=sched,
    )
    for inv in found:
        ctx.update(inv, plan_id=plan.id)
    return plan


@service.tool(
    intent="cancel the payment plan",
    write=True,
    example=first_example(PaymentPlan, "plan_id", where={"status": "active"}),
)
def cancel_payment_plan(ctx: Ctx, plan_id: PlanId) -> PaymentPlan:
    """Cancel an active plan: its invoices leave it and are dunned again.

    Args:
        plan_id: The plan.
    """
    plan = ctx.get(PaymentPlan, plan_id, field="plan_id")
    if plan.status != "active":
        raise Conflict(f"the plan is {plan.status}", field="plan_id", hint="only active plans can be canceled")
    for i in plan.invoice_ids:
        ctx.update(ctx.get(Invoice, i), plan_id=None)
    return ctx.update(plan, status="canceled")


@service.tool(intent="show the customer's aging", example=first_example(Customer, "customer_id"))
def customer_aging(ctx: Ctx, customer_id: CustomerId) -> Aging:
    """What a customer owes, bucketed by days overdue (current, 1-30, 31-60, 61-90, over 90).

    Args:
        customer_id: The customer.
    """
    cus = ctx.get(Customer, customer_id, field="customer_id")
    buckets = [0, 0, 0, 0, 0]
    disputed = 0
    for inv in ctx.where(Invoice, customer_id=cus.id):
        if inv.status in ("paid", "written_off"):
            continue
        late = (ctx.today() - inv.due_date).days
        buckets[0 if late <= 0 else min(4, 1 + (late - 1) // 30)] += inv.amount_due
        disputed += inv.amount_due if inv.status == "disputed" else 0
    return Aging(
        customer_id=cus.id,
        current=buckets[0],
        days_1_30=buckets[1],
        days_31_60=buckets[2],
        days_61_90=buckets[3],
        days_over_90=buckets[4],
        total_due=sum(buckets),
        disputed=disputed,
    )


# -- seed -------------------------------------------------------------------------------------

FLOWS = (
    (
        "Standard net 30",
        (
            (-3, "email", "Friendly pre-due reminder"),
            (1, "email", "Invoice now due"),
            (15, "call", "Collector call: confirm payment date"),
            (45, "letter", "Formal notice"),
        ),
    ),
    ("Key accounts", ((7, "email", "Gentle check-in on open balance"), (30, "call", "Account manager call"))),
    ("Public sector (draft)", ((10, "letter", "Statement of account"), (60, "letter", "Second statement"))),
)
# (days before today it was issued, net days, amount, state)
INVOICES = (
    (10, 30, 480000, "open"),
    (45, 30, 125000, "open"),
    (80, 30, 310000, "partially_paid"),
    (140, 30, 95000, "open"),
    (60, 30, 220000, "paid"),
    (50, 30, 150000, "disputed"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Customers with collectors and workflows, invoices of every age and status, reminders, promises, a plan."""
    flows = [
        s.create(
            Workflow,
            name=n,
            steps=tuple(Step(day_offset=d, action=a, template=t) for d, a, t in steps),
            created_at=s.ago(days=400),
        )
        for n, steps in FLOWS
    ]
    staff = s.population.staff("Finance", "Accounting", fallback=3)
    today = s.now.date()
    for k, company in enumerate(s.population.customers[:8]):
        contact = s.population.first_contact(company)
        cus = s.create(
            Customer,
            name=company.name,
            owner_email=staff[k % len(staff)].email,
            ar_contact_email=contact.email if contact else f"ap@{company.domain}",
            workflow_id=None if k == 7 else flows[k % 3 == 2].id,
            credit_limit=1_000_000 * (1 + k % 3),
        )
        for j, (ago, net, amount, state) in enumerate(INVOICES[: 3 + k % 4]):
            issued = today - dt.timedelta(days=ago + 3 * k)
            due = {"paid": 0, "partially_paid": amount // 2}.get(state, amount)
            inv = s.create(
                Invoice,
                customer_id=cus.id,
                number=f"INV-{2026_000 + 10 * k + j}",
                issue_date=issued,
                due_date=issued + dt.timedelta(days=net),
                amount=amount,
                amount_due=due,
                status=state,
                updated_at=s.ago(days=2),
            )
            if state == "disputed":
                s.create(
                    Dispute,
                    invoice_id=inv.id,
                    reason="quantity",
                    created_at=s.ago(days=12),
                    description="Received 40 units, invoiced for 50.",
                )
            flow = flows[k % 3 == 2] if cus.workflow_id else None
            for step in flow.steps if flow and state in UNPAID else ():
                if inv.due_date + dt.timedelta(days=step.day_offset) <= today - dt.timedelta(days=2):
                    s.create(
                        Reminder,
                        invoice_id=inv.id,
                        customer_id=cus.id,
                        day_offset=step.day_offset,
                        action=step.action,
                        template=step.template,
                        to_email=cus.ar_contact_email,
                        created_at=s.ago(days=2),
                    )
        if k in (1, 3):
            inv = next(i for i in s.records(Invoice) if i.customer_id == cus.id and i.status == "open")
            status: Any = "pending" if k == 1 else "broken"
            s.create(
                Promise,
                invoice_id=inv.id,
                amount=inv.amount_due,
                status=status,
                note="Agreed on the phone.",
                promised_date=today + dt.timedelta(days=10 if k == 1 else -5),
                created_at=s.ago(days=20),
            )
        if k == 2:
            inv = [i for i in s.records(Invoice) if i.customer_id == cus.id and i.status == "open"][-1]
            sched = tuple(
                Installment(due_date=today + dt.timedelta(days=30 * n - 20), amount=inv.amount_due // 4)
                for n in range(4)
            )
            plan = s.create(
                PaymentPlan,
                customer_id=cus.id,
                invoice_ids=(inv.id,),
                total=inv.amount_due,
                installments=sched,
                created_at=s.ago(days=25),
            )
            s.update(inv, plan_id=plan.id)
