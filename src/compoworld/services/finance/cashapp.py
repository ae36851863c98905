"""Remitly Match: cash application of customer payments to open receivables.

Modeled on HighRadius Cash Application Cloud: bank remittances (ACH, wire,
check, lockbox) with the payer and the remittance advice text; auto-matching
that reads invoice numbers from the advice and proposes applications;
manual applications to open invoices, with short-pays taken as deductions
under a reason code (pricing, damaged goods, short shipment, promotion,
freight, tax); exceptions for unidentified payers, unmatched or overpaid
remittances, assigned to analysts and resolved; unapplied cash put on the
customer's account; and posting batches that send proposed applications to
the ERP. A remittance goes unapplied → partially_applied → applied (or
on_account); an invoice goes open → partially_paid → paid.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, Email, IdOf, InvoiceNumber, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "cashapp",
    title="Remitly Match",
    category="cash_application",
    modeled_on="HighRadius Cash Application Cloud: remittances, auto-match, payment applications, deductions with "
    "reason codes, exceptions, on-account cash, posting batches",
    description="Cash application for accounts receivable: customer payments arriving by ACH, wire, check or "
    "lockbox with their remittance advice, matching them to open invoices, short-pays recorded as deductions "
    "with reason codes, exceptions worked by analysts, and posting the applications to the ERP in batches.",
)

OpenItemId = Annotated[str, IdOf("cashapp.open_invoice")]
RemittanceId = Annotated[str, IdOf("cashapp.remittance")]
ApplicationId = Annotated[str, IdOf("cashapp.application")]
ExceptionId = Annotated[str, IdOf("cashapp.exception")]
BatchId = Annotated[str, IdOf("cashapp.posting_batch")]

Method = Literal["ach", "wire", "check", "lockbox"]
Reason = Literal["pricing", "damaged_goods", "short_shipment", "promotion", "freight", "tax"]
RemitStatus = Literal["unapplied", "partially_applied", "applied", "on_account"]
ExceptionKind = Literal["unidentified_payer", "no_match", "overpayment", "short_pay"]
MAX_DEDUCTION_PCT = 10
_INVOICE_REF = re.compile(r"\b[A-Z]{2,5}-?\d{3,10}\b")


class OpenInvoice(Timestamped):
    """An open receivable of a customer."""

    id: OpenItemId
    invoice_number: InvoiceNumber
    """The invoice number (unique)."""
    customer_name: CompanyName
    """The customer."""
    customer_email: Email
    """The customer's billing contact."""
    amount: Cents
    """Invoice total in cents."""
    open_amount: Cents
    """Still open in cents."""
    deducted: Cents = 0
    """Written off as deductions in cents."""
    due_date: Date
    """Due date."""
    status: Literal["open", "partially_paid", "paid"] = "open"
    """open, partially_paid or paid."""


class Remittance(Timestamped):
    """A customer payment received at the bank, with its remittance advice."""

    id: RemittanceId
    reference: Annotated[str, Generated("sequence", "RMT-{n:06d}")]
    """Remittance reference."""
    payer_name: CompanyName
    """Who paid, as the bank reports it."""
    amount: Cents
    """Amount received in cents."""
    unapplied: Cents = 0
    """Not yet applied in cents."""
    received_on: Date
    """Value date."""
    method: Method
    """ach, wire, check or lockbox."""
    advice: Text = ""
    """Remittance advice text (invoice numbers the payer quoted)."""
    status: RemitStatus = "unapplied"
    """unapplied, partially_applied, applied or on_account."""


class Application(Created):
    """Cash applied from a remittance to an invoice, with any deduction taken."""

    id: ApplicationId
    remittance_id: RemittanceId
    """The remittance."""
    invoice_id: OpenItemId
    """The invoice."""
    invoice_number: InvoiceNumber
    """Its number."""
    amount: Cents
    """Cash applied in cents."""
    deduction: Cents = 0
    """Short-pay taken as a deduction in cents."""
    deduction_reason: Reason | None = None
    """Why the customer paid less."""
    source: Literal["auto", "manual"] = "manual"
    """auto (matched from the advice) or manual."""
    status: Literal["proposed", "posted", "reversed"] = "proposed"
    """proposed, posted (to the ERP) or reversed."""
    batch_id: BatchId | None = None
    """The posting batch."""


class CashException(Timestamped):
    """A remittance the matching could not apply, for an analyst to work."""

    id: ExceptionId
    remittance_id: RemittanceId
    """The remittance."""
    kind: ExceptionKind
    """unidentified_payer, no_match, overpayment or short_pay."""
    assigned_to: Email | None = None
    """The analyst working it."""
    status: Literal["open", "resolved"] = "open"
    """open or resolved."""
    resolution: Text = ""
    """How it was resolved."""


class PostingBatch(Created):
    """Applications posted to the ERP together."""

    id: BatchId
    count: int
    """Applications posted."""
    cash_total: Cents
    """Cash posted in cents."""
    deduction_total: Cents
    """Deductions posted in cents."""
    posted_by: Email
    """The employee who posted it."""


class MatchResult(Value):
    """What auto-matching did with a remittance."""

    remittance_id: RemittanceId
    """The remittance."""
    applications: list[ApplicationId]
    """Applications proposed."""
    unapplied: int
    """Cash left unapplied in cents."""
    exception_id: ExceptionId | None
    """The exception raised, if any."""


# -- rules ------------------------------------------------------------------------------------


def _remit_status(amount: int, unapplied: int) -> RemitStatus:
    return "applied" if unapplied == 0 else ("unapplied" if unapplied == amount else "partially_applied")


def _guard_remittance(ctx: Ctx, new: Any, old: Any) -> None:
    if new.amount <= 0:
        raise RuleViolation("a remittance needs an amount", field="amount", hint="give the amount received in cents")
    if new.received_on > ctx.today():
        raise RuleViolation("received_on is in the future", field="received_on", hint="record money received")
    ctx.update(new, unapplied=new.amount)


invoices = service.resource(
    OpenInvoice,
    name="open_invoice",
    plural="open_invoices",
    prefix="ar",
    create=False,
    filters=("status", "customer_name", "customer_email", "invoice_number"),
    search=("customer_name",),
    delete=False,
    title="open invoice",
)
remittances = service.resource(
    Remittance,
    name="remittance",
    plural="remittances",
    prefix="rmt",
    create=("payer_name", "amount", "received_on", "method", "advice"),
    filters=("status", "payer_name", "method", "received_on", "reference"),
    search=("payer_name", "advice"),
    delete=False,
    guard_create=_guard_remittance,
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("remittance_id", "invoice_id", "status", "deduction_reason", "invoice_number", "batch_id"),
    delete=False,
    title="cash application",
)
exceptions = service.resource(
    CashException,
    name="exception",
    plural="exceptions",
    prefix="exc",
    create=False,
    filters=("remittance_id", "kind", "status", "assigned_to"),
    delete=False,
    title="cash exception",
)
batches = service.resource(
    PostingBatch,
    name="posting_batch",
    plural="posting_batches",
    prefix="pb",
    create=False,
    filters=("posted_by",),
    delete=False,
    title="posting batch",
)


# -- domain tools -----------------------------------------------------------------------------


def _apply(
    ctx: Ctx, remit: Remittance, inv: OpenInvoice, amount: int, deduction: int, reason: str | None, source: str
) -> Application:
    made = ctx.create(
        Application,
        remittance_id=remit.id,
        invoice_id=inv.id,
        invoice_number=inv.invoice_number,
        amount=amount,
        deduction=deduction,
        deduction_reason=reason,
        source=source,
    )
    left = inv.open_amount - amount - deduction
    ctx.update(
        inv, open_amount=left, deducted=inv.deducted + deduction, status="paid" if left == 0 else "partially_paid"
    )
    unapplied = remit.unapplied - amount
    ctx.update(remit, unapplied=unapplied, status=_remit_status(remit.amount, unapplied))
    return made


def _raise_exception(ctx: Ctx, remit: Remittance, kind: ExceptionKind) -> CashException:
    found = ctx.first(CashException, remittance_id=remit.id, status="open")
    return found if found is not None else ctx.create(CashException, remittance_id=remit.id, kind=kind)


@service.tool(
    intent="auto-match the remittance",
    write=True,
    example=first_example(Remittance, "remittance_id", where={"status": "unapplied"}),
)
def auto_match(ctx: Ctx, remittance_id: RemittanceId) -> MatchResult:
    """Match a remittance to the open invoices its advice quotes; what cannot be applied raises an exception.

    Invoices of the payer are paid in full in the order quoted while the cash lasts; an unknown payer, an
    advice quoting nothing open, or cash left over raises an exception.

    Args:
        remittance_id: The remittance.
    """
    remit = ctx.get(Remittance, remittance_id, field="remittance_id")
    if remit.status in ("applied", "on_account"):
        raise Conflict(f"remittance {remit.reference} is {remit.status}", field="remittance_id", hint="nothing left")
    made: list[str] = []
    exception = None
    if not ctx.first(OpenInvoice, customer_name=remit.payer_name):
        exception = _raise_exception(ctx, remit, "unidentified_payer").id
    else:
        for number in _INVOICE_REF.findall(remit.advice):
            inv = ctx.first(OpenInvoice, invoice_number=number, customer_name=remit.payer_name)
            remit = ctx.get(Remittance, remit.id)
            if inv is None or inv.status == "paid" or inv.open_amount > remit.unapplied:
                continue
            made.append(_apply(ctx, remit, inv, inv.open_amount, 0, None, "auto").id)
        remit = ctx.get(Remittance, remit.id)
        if remit.unapplied:
            kind: ExceptionKind = "overpayment" if made else "no_match"
            exception = _raise_exception(ctx, remit, kind).id
    remit = ctx.get(Remittance, remit.id)
    return MatchResult(remittance_id=remit.id, applications=made, unapplied=remit.unapplied, exception_id=exception)


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for remit in ctx.where(Remittance, status="unapplied"):
        for inv in ctx.where(OpenInvoice, customer_name=remit.payer_name):
            if inv.status != "paid" and inv.open_amount >= remit.unapplied:
                return {"remittance_id": remit.id, "invoice_id": inv.id, "amount": remit.unapplied}
    return None


@service.tool(intent="apply the payment to the invoice", write=True, example=_example_apply)
def apply_payment(
    ctx: Ctx,
    remittance_id: RemittanceId,
    invoice_id: OpenItemId,
    amount: Cents,
    deduction: Cents = 0,
    deduction_reason: Reason | None = None,
) -> Application:
    """Apply cash from a remittance to one of the payer's open invoices, taking any short-pay as a deduction.

    Args:
        remittance_id: The remittance.
        invoice_id: The invoice.
        amount: Cash applied in cents, at most what is unapplied.
        deduction: Short-pay written off in cents, at most 10% of the invoice.
        deduction_reason: pricing, damaged_goods, short_shipment, promotion, freight or tax (needed with a deduction).
    """
    remit = ctx.get(Remittance, remittance_id, field="remittance_id")
    inv = ctx.get(OpenInvoice, invoice_id, field="invoice_id")
    if remit.status in ("applied", "on_account") or remit.unapplied == 0:
        raise RuleViolation(f"remittance {remit.reference} has nothing unapplied", field="remittance_id", hint="done")
    if inv.customer_name != remit.payer_name:
        raise RuleViolation(
            f"invoice {inv.invoice_number} is {inv.customer_name}'s, not {remit.payer_name}'s",
            field="invoice_id",
            hint="apply to the payer's own invoices (list them by customer_name)",
        )
    if inv.status == "paid":
        raise RuleViolation(f"invoice {inv.invoice_number} is paid", field="invoice_id", hint="pick an open invoice")
    if amount <= 0 or amount > remit.unapplied:
        raise RuleViolation(f"amount must be 1..{remit.unapplied}", field="amount", hint="apply the cash received")
    if amount + deduction > inv.open_amount:
        raise RuleViolation(
            f"invoice {inv.invoice_number} has {inv.open_amount} cents open", field="amount", hint="apply less"
        )
    if deduction and deduction_reason is None:
        raise RuleViolation("a deduction needs a reason code", field="deduction_reason", hint="say why it is short")
    if deduction * 100 > inv.amount * MAX_DEDUCTION_PCT:
        raise RuleViolation(
            f"a deduction over {MAX_DEDUCTION_PCT}% of the invoice needs a dispute",
            field="deduction",
            hint="raise a short_pay exception and work it instead",
        )
    return _apply(ctx, remit, inv, amount, deduction, deduction_reason if deduction else None, "manual")


@service.tool(
    intent="reverse the cash application",
    write=True,
    example=first_example(Application, "application_id", where={"status": "proposed"}),
)
def reverse_application(ctx: Ctx, application_id: ApplicationId) -> Application:
    """Undo a proposed (not yet posted) application: the invoice reopens and the cash is unapplied again.

    Args:
        application_id: The application.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "proposed":
        raise RuleViolation(f"the application is {app.status}", field="application_id", hint="only proposed ones")
    inv, remit = ctx.get(OpenInvoice, app.invoice_id), ctx.get(Remittance, app.remittance_id)
    opened = inv.open_amount + app.amount + app.deduction
    ctx.update(
        inv,
        open_amount=opened,
        deducted=inv.deducted - app.deduction,
        status="open" if opened == inv.amount else "partially_paid",
    )
    unapplied = remit.unapplied + app.amount
    ctx.update(remit, unapplied=unapplied, status=_remit_status(remit.amount, unapplied))
    return ctx.update(app, status="reversed")


@service.tool(
    intent="put the unapplied cash on account",
    write=True,
    example=first_example(Remittance, "remittance_id", where={"status": "partially_applied"}),
)
def put_on_account(ctx: Ctx, remittance_id: RemittanceId) -> Remittance:
    """Leave a remittance's unapplied cash on the payer's account as a credit; its open exceptions are resolved.

    Args:
        remittance_id: The remittance.
    """
    remit = ctx.get(Remittance, remittance_id, field="remittance_id")
    if remit.unapplied == 0 or remit.status == "on_account":
        raise Conflict(f"remittance {remit.reference} has nothing unapplied", field="remittance_id", hint="done")
    if not ctx.first(OpenInvoice, customer_name=remit.payer_name):
        raise RuleViolation(
            f"{remit.payer_name} is not a known customer", field="remittance_id", hint="identify the payer first"
        )
    for exc in ctx.where(CashException, remittance_id=remit.id, status="open"):
        ctx.update(exc, status="resolved", resolution="Unapplied cash left on account.")
    return ctx.update(remit, status="on_account")


@service.tool(
    intent="assign the cash exception",
    write=True,
    example=lambda ctx: next(
        (
            {"exception_id": e.id, "assigned_to": ctx.population.employees[0].email}
            for e in ctx.where(CashException, status="open")
        ),
        None,
    ),
)
def assign_exception(ctx: Ctx, exception_id: ExceptionId, assigned_to: Email) -> CashException:
    """Assign an open exception to an analyst.

    Args:
        exception_id: The exception.
        assigned_to: The analyst's e-mail.
    """
    exc = ctx.get(CashException, exception_id, field="exception_id")
    if exc.status != "open":
        raise RuleViolation("the exception is resolved", field="exception_id", hint="nothing to work")
    require_employee(ctx, assigned_to, field="assigned_to", hint="exceptions are worked by AR analysts")
    return ctx.update(exc, assigned_to=assigned_to)


@service.tool(
    intent="resolve the cash exception",
    write=True,
    example=first_example(CashException, "exception_id", where={"status": "open"}, resolution="Payer confirmed."),
)
def resolve_exception(ctx: Ctx, exception_id: ExceptionId, resolution: Text) -> CashException:
    """Close an exception with what was done; the remittance must have no cash left that is neither applied nor on account.

    Args:
        exception_id: The exception.
        resolution: What was done.
    """
    exc = ctx.get(CashException, exception_id, field="exception_id")
    if exc.status != "open":
        raise Conflict("the exception is already resolved", field="exception_id", hint="nothing to do")
    if not resolution.strip():
        raise RuleViolation("a resolution is needed", field="resolution", hint="say what was done")
    return ctx.update(exc, status="resolved", resolution=resolution.strip())


@service.tool(
    intent="post the proposed applications to the ERP",
    write=True,
    example=lambda ctx: (
        {"posted_by": ctx.population.employees[0].email} if ctx.first(Application, status="proposed") else None
    ),
)
def post_batch(ctx: Ctx, posted_by: Email) -> PostingBatch:
    """Post every proposed application to the ERP in one batch.

    Args:
        posted_by: The employee posting.
    """
    require_employee(ctx, posted_by, field="posted_by", hint="batches are posted by AR staff")
    due = ctx.where(Application, status="proposed")
    if not due:
        raise RuleViolation("no proposed application to post", field="posted_by", hint="apply some cash first")
    batch = ctx.create(
        PostingBatch,
        count=len(due),
        cash_total=sum(a.amount for a in due),
        deduction_total=sum(a.deduction for a in due),
        posted_by=posted_by,
    )
    for app in due:
        ctx.update(app, status="posted", batch_id=batch.id)
    return batch


class CustomerCash(Value):
    """A customer's receivables and cash in the cash application."""

    customer_name: CompanyName
    """The customer."""
    open_invoices: int
    """Invoices not fully paid."""
    open_amount: int
    """Still owed in cents."""
    deductions: int
    """Deductions taken in cents."""
    unapplied_cash: int
    """Cash received but not applied or on account, in cents."""
    on_account: int
    """Cash left on account, in cents."""


@service.tool(
    intent="show the customer's open items and cash",
    example=lambda ctx: next(({"customer_name": i.customer_name} for i in ctx.scan(OpenInvoice)), None),
)
def customer_cash(ctx: Ctx, customer_name: CompanyName) -> CustomerCash:
    """A customer's open invoices and deductions, with its unapplied and on-account cash.

    Args:
        customer_name: The customer's company name.
    """
    found = ctx.where(OpenInvoice, customer_name=customer_name)
    if not found:
        raise RuleViolation(f"no invoices of {customer_name}", field="customer_name", hint="check the name")
    remits = ctx.where(Remittance, payer_name=customer_name)
    return CustomerCash(
        customer_name=customer_name,
        open_invoices=sum(i.status != "paid" for i in found),
        open_amount=sum(i.open_amount for i in found),
        deductions=sum(i.deducted for i in found),
        unapplied_cash=sum(r.unapplied for r in remits if r.status != "on_account"),
        on_account=sum(r.unapplied for r in remits if r.status == "on_account"),
    )


@service.tool(
    intent="identify the payer of the remittance",
    write=True,
    example=lambda ctx: next(
        (
            {"remittance_id": e.remittance_id, "customer_name": i.customer_name}
            for e in ctx.where(CashException, kind="unidentified_payer", status="open")
            for i in ctx.scan(OpenInvoice)
        ),
        None,
    ),
)
def identify_payer(ctx: Ctx, remittance_id: RemittanceId, customer_name: CompanyName) -> Remittance:
    """Name the customer behind an unidentified payment; its unidentified-payer exception is resolved.

    Args:
        remittance_id: The remittance.
        customer_name: The customer who paid.
    """
    remit = ctx.get(Remittance, remittance_id, field="remittance_id")
    if remit.status != "unapplied":
        raise RuleViolation(f"remittance {remit.reference} is {remit.status}", field="remittance_id", hint="done")
    if not ctx.first(OpenInvoice, customer_name=customer_name):
        raise RuleViolation(f"{customer_name} has no receivables", field="customer_name", hint="name a customer")
    for exc in ctx.where(CashException, remittance_id=remit.id, kind="unidentified_payer", status="open"):
        ctx.update(exc, status="resolved", resolution=f"Payer identified as {customer_name}.")
    return ctx.update(remit, payer_name=customer_name)


@service.tool(
    intent="raise a short-pay exception",
    write=True,
    example=lambda ctx: next(
        (
            {"remittance_id": r.id}
            for r in ctx.where(Remittance, status="unapplied")
            if not ctx.first(CashException, remittance_id=r.id, status="open")
        ),
        None,
    ),
)
def raise_short_pay(ctx: Ctx, remittance_id: RemittanceId) -> CashException:
    """Send a remittance that pays less than its invoices to an analyst as a short-pay exception.

    Args:
        remittance_id: The remittance.
    """
    remit = ctx.get(Remittance, remittance_id, field="remittance_id")
    if remit.status in ("applied", "on_account"):
        raise RuleViolation(f"remittance {remit.reference} is {remit.status}", field="remittance_id", hint="done")
    if ctx.first(CashException, remittance_id=remit.id, status="open"):
        raise Conflict("the remittance already has an open exception", field="remittance_id", hint="work that one")
    return ctx.create(CashException, remittance_id=remit.id, kind="short_pay")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Open invoices of the world's customers, remittances that match, short-pay, overpay or come unidentified."""
    pop = s.population
    today = s.now.date()
    made: list[OpenInvoice] = []
    for k, company in enumerate(pop.customers[:8]):
        contact = pop.first_contact(company)
        for j in range(3):
            n = 3 * k + j
            made.append(
                s.create(
                    OpenInvoice,
                    invoice_number=f"INV-{24100 + n * 13}",
                    customer_name=company.name,
                    customer_email=contact.email if contact else f"ap@{company.domain}",
                    amount=180_000 + 45_500 * ((n * 5) % 9),
                    open_amount=180_000 + 45_500 * ((n * 5) % 9),
                    due_date=today.fromordinal(today.toordinal() - 20 + 9 * j),
                    created_at=s.ago(days=50 - 3 * j),
                    updated_at=s.ago(days=10),
                )
            )
    analyst = pop.staff("Finance", "Accounting", fallback=2)[0].email
    for k in range(6):
        inv, nxt = made[3 * k], made[3 * k + 1]
        plan = (
            (inv.amount + nxt.amount, f"Payment for {inv.invoice_number} and {nxt.invoice_number}"),  # auto
            (inv.amount - 4_500, f"{inv.invoice_number} less freight"),  # short pay
            (inv.amount + 25_000, f"{inv.invoice_number}"),  # over pay
            (inv.amount, "Thank you for your business"),  # no reference
            (inv.amount, f"Inv {inv.invoice_number}"),
            (99_000, "PAYMENT"),
        )[k]
        payer = inv.customer_name if k < 5 else "Unknown Holdings LLC"
        remit = s.create(
            Remittance,
            payer_name=payer,
            amount=plan[0],
            unapplied=plan[0],
            received_on=today.fromordinal(today.toordinal() - 1 - k),
            method=("ach", "wire", "check", "lockbox", "ach", "wire")[k],
            advice=plan[1],
            created_at=s.ago(days=1 + k),
            updated_at=s.ago(days=1 + k),
        )
        if k == 0:
            for item in (inv, nxt):
                s.create(
                    Application,
                    remittance_id=remit.id,
                    invoice_id=item.id,
                    invoice_number=item.invoice_number,
                    amount=item.amount,
                    source="auto",
                    status="proposed",
                    created_at=s.ago(days=1),
                )
                s.update(item, open_amount=0, status="paid")
            s.update(remit, unapplied=0, status="applied")
        elif k == 2:
            s.create(
                Application,
                remittance_id=remit.id,
                invoice_id=inv.id,
                invoice_number=inv.invoice_number,
                amount=inv.amount,
                source="auto",
                created_at=s.ago(days=3),
            )
            s.update(inv, open_amount=0, status="paid")
            s.update(remit, unapplied=25_000, status="partially_applied")
            s.create(
                CashException,
                remittance_id=remit.id,
                kind="overpayment",
                assigned_to=analyst,
                created_at=s.ago(days=3),
                updated_at=s.ago(days=3),
            )
        elif k in (3, 5):
            s.create(
                CashException,
                remittance_id=remit.id,
                kind="no_match" if k == 3 else "unidentified_payer",
                created_at=s.ago(days=1 + k),
                updated_at=s.ago(days=1 + k),
            )
        elif k == 4:
            app = s.create(
                Application,
                remittance_id=remit.id,
                invoice_id=inv.id,
                invoice_number=inv.invoice_number,
                amount=inv.amount,
                source="manual",
                status="posted",
                created_at=s.ago(days=4),
            )
            batch = s.create(
                PostingBatch,
                count=1,
                cash_total=inv.amount,
                deduction_total=0,
                posted_by=analyst,
                created_at=s.ago(days=4),
            )
            s.update(app, batch_id=batch.id)
            s.update(inv, open_amount=0, status="paid")
            s.update(remit, unapplied=0, status="applied")
