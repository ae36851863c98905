"""Counsel Spend: the legal department's e-billing of outside law firms.

Modeled on Thomson Reuters Legal Tracker (the corporate e-billing API with
LEDES 1998B invoice submission and UTBMS task, activity and expense codes):
law firms are vendors with a rate card of approved timekeeper rates; a matter
is handled by one firm under an in-house attorney and a budget; a firm submits
an invoice for an open matter of its own, once per invoice number, with fee
lines (timekeeper, hours in tenths, L-task and A-activity codes) and expense
lines (E-codes), dated inside the billing period. Billing guidelines flag a
line whose rate is above the approved rate, that bills more than 10 hours, or
that is an expense the guidelines disallow; an invoice goes submitted →
in_review → approved → paid, or rejected (the firm may appeal once, back to
in_review); it is approved only once every flagged line is accepted, reduced
or rejected, and only within the matter's budget. A matter closes only when no
invoice is still open.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "legalbilling",
    title="Counsel Spend",
    category="legal_billing",
    modeled_on="Thomson Reuters Legal Tracker e-billing API: vendors (law firms) with rate cards, matters with "
    "budgets, LEDES 1998B invoices with UTBMS task/activity/expense codes, line adjustments, appeals",
    description="Outside-counsel spend management for the legal department: law firms and their approved "
    "timekeeper rates, matters with budgets, LEDES invoices with UTBMS-coded lines checked against billing "
    "guidelines, line reductions, invoice approval, appeals and payment.",
)

FirmId = Annotated[str, IdOf("legalbilling.firm")]
TimekeeperId = Annotated[str, IdOf("legalbilling.timekeeper")]
MatterId = Annotated[str, IdOf("legalbilling.matter")]
InvoiceId = Annotated[str, IdOf("legalbilling.invoice")]
LineId = Annotated[str, IdOf("legalbilling.line")]

TaskCode = Annotated[str, StringConstraints(pattern=r"^L[1-5]\d0$")]
"""A UTBMS litigation task code, L110-L590."""
ActivityCode = Annotated[str, StringConstraints(pattern=r"^A1(0[1-9]|1[01])$")]
"""A UTBMS activity code, A101-A111."""
ExpenseCode = Annotated[str, StringConstraints(pattern=r"^E1(0[1-9]|1\d|2[0-4])$")]
"""A UTBMS expense code, E101-E124."""
LedesNumber = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{3,20}$")]
"""The firm's own invoice number."""

Classification = Literal["partner", "associate", "paralegal"]
InvoiceStatus = Literal["submitted", "in_review", "approved", "rejected", "paid"]
LineStatus = Literal["accepted", "flagged", "adjusted", "rejected"]

MAX_HOURS = 10.0
DISALLOWED_EXPENSES = ("E111", "E124")
"""Meals and 'other' expenses the guidelines do not reimburse."""


class Firm(Record):
    """An outside law firm (a vendor)."""

    id: FirmId
    name: CompanyName
    """The firm's name."""
    billing_email: Email
    """Where billing questions go."""
    active: bool = True
    """Whether it may submit invoices."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Timekeeper(Record):
    """A lawyer or paralegal of a firm, with the approved hourly rate."""

    id: TimekeeperId
    firm_id: FirmId
    """The firm."""
    name: PersonName
    """Full name."""
    classification: Classification
    """partner, associate or paralegal."""
    approved_rate: Cents
    """The approved hourly rate in cents."""


class Matter(Record):
    """A legal matter handled by an outside firm."""

    id: MatterId
    name: Title
    """The matter's name."""
    firm_id: FirmId
    """The firm handling it."""
    attorney_email: Email
    """The in-house attorney responsible (an employee)."""
    budget: Cents
    """Approved budget in cents."""
    spent: Cents = 0
    """Approved invoice totals so far, in cents."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class Invoice(Record):
    """A LEDES invoice a firm submitted."""

    id: InvoiceId
    firm_id: FirmId
    """The firm."""
    matter_id: MatterId
    """The matter."""
    invoice_number: LedesNumber
    """The firm's invoice number (unique per firm)."""
    period_start: Date
    """First day billed."""
    period_end: Date
    """Last day billed."""
    status: InvoiceStatus = "submitted"
    """submitted → in_review → approved → paid; or rejected (appealable once)."""
    total_billed: Cents
    """What the firm billed, in cents."""
    total_approved: Cents = 0
    """What the reviewers allowed, in cents."""
    rejection_reason: Text | None = None
    """Why it was rejected."""
    appealed: bool = False
    """Whether the firm appealed a rejection."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Line(Record):
    """A fee or expense line of an invoice."""

    id: LineId
    invoice_id: InvoiceId
    """The invoice."""
    date: Date
    """When the work or expense happened."""
    timekeeper_id: TimekeeperId | None = None
    """Who worked (fee lines)."""
    task_code: TaskCode | None = None
    """UTBMS task code (fee lines)."""
    activity_code: ActivityCode | None = None
    """UTBMS activity code (fee lines)."""
    expense_code: ExpenseCode | None = None
    """UTBMS expense code (expense lines)."""
    hours: float = 0
    """Hours billed, in tenths (fee lines)."""
    rate: Cents = 0
    """Hourly rate billed, in cents (fee lines)."""
    amount: Cents
    """What the firm billed, in cents."""
    approved_amount: Cents
    """What is allowed, in cents."""
    description: Text
    """The narrative."""
    flags: tuple[str, ...] = ()
    """Billing guideline violations found at submission."""
    status: LineStatus = "accepted"
    """accepted, flagged (awaiting review), adjusted (reduced) or rejected."""
    note: Text | None = None
    """The reviewer's reason."""


class LineInput(BaseModel):
    """A line of a submitted invoice."""

    date: Date = Field(description="When the work or expense happened.")
    description: Text = Field(description="The narrative.")
    timekeeper_id: TimekeeperId | None = Field(None, description="Who worked (fee lines).")
    hours: float = Field(0, ge=0, le=24, description="Hours in tenths (fee lines).")
    rate: Cents = Field(0, description="Hourly rate in cents (fee lines).")
    task_code: TaskCode | None = Field(None, description="UTBMS task code, e.g. L120 (fee lines).")
    activity_code: ActivityCode | None = Field(None, description="UTBMS activity code, e.g. A104 (fee lines).")
    expense_code: ExpenseCode | None = Field(None, description="UTBMS expense code, e.g. E101 (expense lines).")
    amount: Cents = Field(0, description="Amount in cents (expense lines; fee lines are hours × rate).")


class Spend(Value):
    """A matter's spend against its budget."""

    matter_id: MatterId
    """The matter."""
    budget: Cents
    """The budget."""
    approved: Cents
    """Approved and paid invoices."""
    pending: Cents
    """Billed on invoices not yet decided."""
    remaining: int
    """Budget minus approved (negative: over)."""


# -- rules ------------------------------------------------------------------------------------


def _open_invoice(ctx: Ctx, invoice_id: str, *allowed: str, field: str = "invoice_id") -> Invoice:
    inv = ctx.get(Invoice, invoice_id, field=field)
    if inv.status not in allowed:
        raise RuleViolation(
            f"invoice {inv.invoice_number} is {inv.status}",
            field=field,
            hint=f"this needs an invoice that is {' or '.join(allowed)}",
        )
    return inv


def _guard_timekeeper(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Firm, new.firm_id, field="firm_id")
    if new.approved_rate <= 0:
        raise RuleViolation("the approved rate must be more than 0", field="approved_rate", hint="give cents")


def _guard_matter(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "closed" and old.status != "closed":
        for inv in ctx.where(Invoice, matter_id=new.id):
            if inv.status in ("submitted", "in_review", "approved"):
                raise RuleViolation(
                    f"invoice {inv.invoice_number} is still {inv.status}",
                    field="matter_id",
                    hint="decide and pay its invoices first",
                )


firms = service.resource(
    Firm,
    name="firm",
    plural="firms",
    prefix="firm",
    create=False,
    filters=("active",),
    search=("name",),
    update=("billing_email", "active"),
    delete=False,
    title="law firm",
)
timekeepers = service.resource(
    Timekeeper,
    name="timekeeper",
    plural="timekeepers",
    prefix="tk",
    create=True,
    get=False,
    filters=("firm_id", "classification"),
    search=("name",),
    update=("approved_rate",),
    delete=False,
    guard_create=_guard_timekeeper,
    guard_update=_guard_timekeeper,
)
matters = service.resource(
    Matter,
    name="matter",
    plural="matters",
    prefix="lm",
    create=False,
    filters=("firm_id", "attorney_email", "status"),
    search=("name",),
    update=("budget",),
    delete=False,
    transitions={"close": Transition("status", ("open",), "closed", "close the matter (no open invoice left)")},
    guard_update=_guard_matter,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="linv",
    create=False,
    filters=("firm_id", "matter_id", "status", "invoice_number"),
    delete=False,
    transitions={"review": Transition("status", ("submitted",), "in_review", "start reviewing the invoice")},
)
lines = service.resource(
    Line,
    name="line",
    plural="lines",
    prefix="ln",
    create=False,
    get=False,
    filters=("invoice_id", "status", "task_code", "timekeeper_id"),
    delete=False,
    title="invoice line",
)


# -- matters and invoices ---------------------------------------------------------------------


def _example_matter(ctx: Ctx) -> dict[str, Any] | None:
    firm = ctx.first(Firm, active=True)
    return (
        None
        if firm is None
        else {
            "name": "Trademark opposition",
            "firm_id": firm.id,
            "budget": 5_000_000,
            "attorney_email": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="open the matter with outside counsel", write=True, example=_example_matter)
def open_matter(ctx: Ctx, name: Title, firm_id: FirmId, attorney_email: Email, budget: Cents) -> Matter:
    """Open a matter with an active firm under an in-house attorney and a budget.

    Args:
        name: The matter's name.
        firm_id: The active law firm.
        attorney_email: The responsible in-house attorney (an employee).
        budget: Budget in cents (more than 0).
    """
    firm = ctx.get(Firm, firm_id, field="firm_id")
    if not firm.active:
        raise RuleViolation(f"{firm.name} is inactive", field="firm_id", hint="engage an active firm")
    if attorney_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{attorney_email} is not an employee", field="attorney_email", hint="use in-house staff")
    if budget <= 0:
        raise RuleViolation("a matter needs a budget", field="budget", hint="give the budget in cents")
    return ctx.create(Matter, name=name, firm_id=firm.id, attorney_email=attorney_email, budget=budget)


def _make_line(ctx: Ctx | SeedContext, inv: Invoice, item: LineInput, rates: dict[str, Timekeeper]) -> Line:
    flags: list[str] = []
    if item.expense_code is None:
        tk = rates[item.timekeeper_id or ""]
        amount = round(item.hours * item.rate)
        if item.rate > tk.approved_rate:
            flags.append(f"rate {item.rate} above approved {tk.approved_rate}")
        if item.hours > MAX_HOURS:
            flags.append(f"more than {MAX_HOURS:g} hours in one entry")
    else:
        amount = item.amount
        if item.expense_code in DISALLOWED_EXPENSES:
            flags.append(f"expense {item.expense_code} is not reimbursable")
    return ctx.create(
        Line,
        invoice_id=inv.id,
        date=item.date,
        timekeeper_id=item.timekeeper_id,
        task_code=item.task_code,
        activity_code=item.activity_code,
        expense_code=item.expense_code,
        hours=item.hours,
        rate=item.rate,
        amount=amount,
        approved_amount=amount,
        description=item.description,
        flags=tuple(flags),
        status="flagged" if flags else "accepted",
    )


def _check_line(ctx: Ctx, k: int, item: LineInput, firm: Firm, start: Any, end: Any) -> None:
    where = f"line {k + 1}"
    if not start <= item.date <= end:
        raise RuleViolation(f"{where} is dated outside the billing period", field="lines", hint="bill it next period")
    if item.expense_code is None:
        if item.timekeeper_id is None or item.task_code is None or item.activity_code is None or item.hours <= 0:
            raise RuleViolation(
                f"{where}: a fee line needs a timekeeper, hours, a task and an activity code",
                field="lines",
                hint="give timekeeper_id, hours, task_code and activity_code",
            )
        tk = ctx.get(Timekeeper, item.timekeeper_id, field="lines")
        if tk.firm_id != firm.id:
            raise RuleViolation(f"{where}: {tk.name} is not of {firm.name}", field="lines", hint="bill own staff")
        if round(item.hours * 10) != item.hours * 10:
            raise RuleViolation(f"{where}: hours are billed in tenths", field="lines", hint="round to 0.1 hours")
    elif item.amount <= 0 or item.timekeeper_id is not None:
        raise RuleViolation(
            f"{where}: an expense line needs an amount and no timekeeper", field="lines", hint="give amount in cents"
        )


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    matter = ctx.first(Matter, status="open")
    if matter is None:
        return None
    tk = ctx.first(Timekeeper, firm_id=matter.firm_id)
    day = ctx.today().replace(day=1).isoformat()
    fee = {
        "date": day,
        "description": "Draft motion to compel",
        "timekeeper_id": tk.id if tk else None,
        "hours": 2.5,
        "rate": tk.approved_rate if tk else 0,
        "task_code": "L350",
        "activity_code": "A103",
    }
    return {
        "matter_id": matter.id,
        "invoice_number": "NEW-0001",
        "period_start": day,
        "period_end": ctx.today().isoformat(),
        "lines": [fee],
    }


@service.tool(intent="submit the LEDES invoice", write=True, example=_example_submit)
def submit_invoice(
    ctx: Ctx,
    matter_id: MatterId,
    invoice_number: LedesNumber,
    period_start: Date,
    period_end: Date,
    lines: Annotated[list[LineInput], Field(min_length=1, max_length=200)],
) -> Invoice:
    """Submit a firm's LEDES invoice for its open matter; billing guidelines flag lines for review.

    Args:
        matter_id: The open matter (the invoice is the handling firm's).
        invoice_number: The firm's invoice number, unique per firm.
        period_start: First day billed.
        period_end: Last day billed, not in the future.
        lines: Fee lines (timekeeper, hours, rate, task and activity codes) and expense lines (code, amount).
    """
    matter = ctx.get(Matter, matter_id, field="matter_id")
    firm = ctx.get(Firm, matter.firm_id)
    if matter.status != "open" or not firm.active:
        raise RuleViolation(f"matter {matter.name!r} is {matter.status}", field="matter_id", hint="bill open matters")
    if ctx.where(Invoice, firm_id=firm.id, invoice_number=invoice_number):
        raise Conflict(
            f"{firm.name} already submitted invoice {invoice_number}",
            field="invoice_number",
            hint="each invoice number is submitted once; appeal a rejection instead",
        )
    if period_start > period_end or period_end > ctx.today():
        raise RuleViolation("the billing period is not a past range", field="period_end", hint="bill work done")
    for k, item in enumerate(lines):
        _check_line(ctx, k, item, firm, period_start, period_end)
    rates = {t.id: t for t in ctx.where(Timekeeper, firm_id=firm.id)}
    inv = ctx.create(
        Invoice,
        firm_id=firm.id,
        matter_id=matter.id,
        invoice_number=invoice_number,
        period_start=period_start,
        period_end=period_end,
        total_billed=0,
    )
    made = [_make_line(ctx, inv, item, rates) for item in lines]
    return ctx.update(inv, total_billed=sum(x.amount for x in made))


def _review_line(ctx: Ctx, line_id: str) -> Line:
    line = ctx.get(Line, line_id, field="line_id")
    _open_invoice(ctx, line.invoice_id, "in_review", field="line_id")
    return line


def _reason(note: str, field: str = "note") -> str:
    if not note.strip():
        raise RuleViolation("a reviewer's decision needs a reason", field=field, hint="cite the billing guideline")
    return note.strip()


_EX_FLAGGED = first_example(
    Line, "line_id", where={"status": "flagged"}, match=lambda c, x: c.get(Invoice, x.invoice_id).status == "in_review"
)


@service.tool(intent="reduce the invoice line", write=True, example=_EX_FLAGGED)
def adjust_line(ctx: Ctx, line_id: LineId, approved_amount: Cents, note: Text = "Reduced to the approved rate") -> Line:
    """Reduce a line of an invoice in review to a lower allowed amount, with the reason.

    Args:
        line_id: The line.
        approved_amount: The allowed amount in cents, below what was billed.
        note: Why (the guideline applied).
    """
    line = _review_line(ctx, line_id)
    if approved_amount >= line.amount:
        raise RuleViolation(
            f"{approved_amount} is not below the billed {line.amount}",
            field="approved_amount",
            hint="adjustments only reduce; accept the line to allow it in full",
        )
    return ctx.update(line, approved_amount=approved_amount, status="adjusted", note=_reason(note))


@service.tool(intent="reject the invoice line", write=True, example=_EX_FLAGGED)
def reject_line(ctx: Ctx, line_id: LineId, note: Text = "Not billable under the guidelines") -> Line:
    """Reject a line of an invoice in review: nothing of it is paid.

    Args:
        line_id: The line.
        note: Why.
    """
    line = _review_line(ctx, line_id)
    return ctx.update(line, approved_amount=0, status="rejected", note=_reason(note))


@service.tool(intent="accept the flagged invoice line", write=True, example=_EX_FLAGGED)
def accept_line(ctx: Ctx, line_id: LineId, note: Text = "Approved as billed") -> Line:
    """Accept a flagged line of an invoice in review in full, overriding the guideline flag.

    Args:
        line_id: The flagged line.
        note: Why the exception is allowed.
    """
    line = _review_line(ctx, line_id)
    if line.status != "flagged":
        raise Conflict(f"line {line.id} is {line.status}", field="line_id", hint="only flagged lines need accepting")
    return ctx.update(line, approved_amount=line.amount, status="accepted", note=_reason(note))


def _approvable(ctx: Ctx, inv: Invoice) -> bool:
    return inv.status == "in_review" and not ctx.where(Line, invoice_id=inv.id, status="flagged")


@service.tool(intent="approve the invoice", write=True, example=first_example(Invoice, "invoice_id", match=_approvable))
def approve_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Approve an invoice in review once no line is flagged, within the matter's budget.

    Args:
        invoice_id: The invoice in review.
    """
    inv = _open_invoice(ctx, invoice_id, "in_review")
    flagged = ctx.where(Line, invoice_id=inv.id, status="flagged")
    if flagged:
        raise RuleViolation(
            f"{len(flagged)} lines are flagged",
            field="invoice_id",
            hint="accept, adjust or reject each flagged line first",
        )
    total = sum(x.approved_amount for x in ctx.where(Line, invoice_id=inv.id))
    matter = ctx.get(Matter, inv.matter_id)
    if matter.spent + total > matter.budget:
        raise RuleViolation(
            f"approving {total} takes matter {matter.name!r} over its budget of {matter.budget}",
            field="invoice_id",
            hint="raise the budget with legalbilling__update_matter first",
        )
    ctx.update(matter, spent=matter.spent + total)
    return ctx.update(inv, status="approved", total_approved=total)


@service.tool(
    intent="reject the invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "in_review"}, reason="Missing UTBMS codes."),
)
def reject_invoice(ctx: Ctx, invoice_id: InvoiceId, reason: Text) -> Invoice:
    """Reject a whole invoice in review back to the firm, with the reason.

    Args:
        invoice_id: The invoice in review.
        reason: Why.
    """
    inv = _open_invoice(ctx, invoice_id, "in_review")
    return ctx.update(inv, status="rejected", rejection_reason=_reason(reason, "reason"))


@service.tool(
    intent="appeal the rejected invoice",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "rejected", "appealed": False}),
)
def appeal_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """The firm appeals a rejected invoice: it returns to review; an invoice is appealed once.

    Args:
        invoice_id: The rejected invoice.
    """
    inv = _open_invoice(ctx, invoice_id, "rejected")
    if inv.appealed:
        raise Conflict(
            f"invoice {inv.invoice_number} was already appealed",
            field="invoice_id",
            hint="the firm submits a corrected invoice under a new number",
        )
    return ctx.update(inv, status="in_review", appealed=True)


@service.tool(
    intent="mark the invoice paid",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "approved"}),
)
def pay_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Mark an approved invoice paid (its approved total goes to the firm).

    Args:
        invoice_id: The approved invoice.
    """
    return ctx.update(_open_invoice(ctx, invoice_id, "approved"), status="paid")


@service.tool(intent="show the matter's spend against budget", example=first_example(Matter, "matter_id"))
def matter_spend(ctx: Ctx, matter_id: MatterId) -> Spend:
    """A matter's budget, approved spend, billed amounts awaiting a decision and what remains.

    Args:
        matter_id: The matter.
    """
    m = ctx.get(Matter, matter_id, field="matter_id")
    pending = sum(i.total_billed for i in ctx.where(Invoice, matter_id=m.id) if i.status in ("submitted", "in_review"))
    return Spend(matter_id=m.id, budget=m.budget, approved=m.spent, pending=pending, remaining=m.budget - m.spent)


# -- seed -------------------------------------------------------------------------------------

TIMEKEEPERS: tuple[tuple[Classification, int], ...] = (
    ("partner", 85_000),
    ("associate", 52_000),
    ("paralegal", 22_000),
)
WORK = (
    ("L110", "A104", "Review complaint and assess claims"),
    ("L210", "A103", "Draft answer and defenses"),
    ("L310", "A106", "Prepare initial disclosures"),
    ("L330", "A101", "Plan deposition strategy"),
)
# status, whether a line breaks the rate card
INVOICES: tuple[tuple[InvoiceStatus, bool], ...] = (
    ("paid", False),
    ("approved", False),
    ("in_review", True),
    ("in_review", False),
    ("submitted", True),
    ("rejected", False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three firms with rate cards, four matters and invoices in every status."""
    pop = s.population
    legal, today = pop.staff("Legal", fallback=3), s.now.date()
    made: list[Matter] = []
    for k, company in enumerate(pop.customers[:3]):
        contact = next((p for p in pop.contacts if p.company_key == company.key), None)
        firm = s.create(
            Firm, name=company.name, billing_email=contact.email if contact else f"billing@{company.domain}"
        )
        people = [p for p in pop.contacts if p.company_key == company.key] or list(pop.consumers[3 * k : 3 * k + 3])
        for j, (cls, rate) in enumerate(TIMEKEEPERS):
            s.create(
                Timekeeper,
                firm_id=firm.id,
                name=people[j % len(people)].name,
                classification=cls,
                approved_rate=rate + 5_000 * k,
            )
        for name in ("Supplier contract dispute", "Employment claim") if k == 0 else (f"{company.name} advice",):
            made.append(
                s.create(
                    Matter,
                    name=name,
                    firm_id=firm.id,
                    attorney_email=legal[len(made) % len(legal)].email,
                    budget=20_000_000 if k != 2 else 3_000_000,
                )
            )
    for n, (status, flagged) in enumerate(INVOICES):
        matter = made[n % 2]
        start = today.replace(day=1) - dt.timedelta(days=30 * (len(INVOICES) - n))
        _seed_invoice(s, matter, n, status, flagged, start, start + dt.timedelta(days=27))


def _seed_invoice(
    s: SeedContext, matter: Matter, n: int, status: InvoiceStatus, flagged: bool, start: dt.date, end: dt.date
) -> None:
    tks = [t for t in s.records(Timekeeper) if t.firm_id == matter.firm_id]
    inv = s.create(
        Invoice,
        firm_id=matter.firm_id,
        matter_id=matter.id,
        invoice_number=f"INV-{2400 + n}",
        period_start=start,
        period_end=end,
        total_billed=0,
    )
    items = [
        LineInput(
            date=start.replace(day=3 + 5 * j),
            description=text,
            timekeeper_id=tks[j % 3].id,
            hours=1.5 + j,
            rate=tks[j % 3].approved_rate,
            task_code=task,
            activity_code=act,
        )
        for j, (task, act, text) in enumerate(WORK)
    ]
    if flagged:
        items[0] = items[0].model_copy(update={"rate": tks[0].approved_rate + 10_000})
    items.append(
        LineInput(date=start.replace(day=20), description="Court filing fee", expense_code="E112", amount=40_500)
    )
    rows = [_make_line(s, inv, item, {t.id: t for t in tks}) for item in items]
    total = sum(r.amount for r in rows)
    inv = s.update(
        inv,
        total_billed=total,
        status=status,
        appealed=False,
        total_approved=total if status in ("approved", "paid") else 0,
        rejection_reason="Block billing on several entries." if status == "rejected" else None,
    )
    if status in ("approved", "paid"):
        current = next(m for m in s.records(Matter) if m.id == matter.id)
        s.update(current, spent=current.spent + total)
