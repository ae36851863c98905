"""Ledgerline Books: customers, items, invoices, payments and credit memos.

Modeled on the QuickBooks Online Accounting API v3 (Customer, Item, Invoice,
Payment, CreditMemo): an invoice's totals are computed from its lines, a
payment or credit cannot exceed what is still owed, a paid invoice cannot be
voided, and customers and items are made inactive rather than deleted.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
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
    Percent,
    Phone,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Title,
)
from compoworld.services.finance._shared import percent_of, term_days
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "invoicing",
    title="Ledgerline Books",
    category="accounting",
    modeled_on="QuickBooks Online Accounting API v3 (Customer, Item, Invoice, Payment, CreditMemo)",
    description="Small-business accounting receivables: the customers the company bills, the items it sells, "
    "invoices with line items and due dates, the payments received against them and credit memos.",
)

CustomerId = Annotated[str, IdOf("invoicing.customer")]
ItemId = Annotated[str, IdOf("invoicing.item")]
InvoiceId = Annotated[str, IdOf("invoicing.invoice")]
PaymentId = Annotated[str, IdOf("invoicing.payment")]
CreditMemoId = Annotated[str, IdOf("invoicing.credit_memo")]

Terms = Literal["due_on_receipt", "net_15", "net_30", "net_60"]
InvoiceStatus = Literal["draft", "sent", "partially_paid", "paid", "voided"]
PaymentMethodKind = Literal["cash", "check", "credit_card", "bank_transfer"]
CreditReason = Literal["returned_goods", "pricing_error", "service_issue", "goodwill"]


class Customer(Created):
    """A company the home company invoices, with its billing contact."""

    id: CustomerId
    company_name: CompanyName
    """Company name as printed on invoices; unique among customers."""
    given_name: FirstName | None = None
    """Given name of the billing contact."""
    family_name: LastName | None = None
    """Family name of the billing contact."""
    email: Email
    """Billing e-mail address invoices are sent to."""
    phone: Phone | None = None
    """Main phone number."""
    billing_address: PostalAddress
    """Address printed on invoices."""
    currency: Currency
    """Currency the customer is invoiced in."""
    terms: Terms = "net_30"
    """Payment terms; they set an invoice's default due date."""
    active: bool = True
    """Inactive customers cannot be invoiced or credited."""
    notes: Text = ""
    """Internal notes about the customer."""


class Item(Record):
    """A product or service the company sells, with its sales price."""

    id: ItemId
    name: Title
    """Item name shown on invoice lines."""
    sku: Sku
    """Stock keeping unit; unique among items."""
    type: Literal["inventory", "non_inventory", "service"] = "inventory"
    """Kind of item."""
    unit_price: Cents
    """Sales price per unit in cents, in the company's home currency."""
    purchase_cost: Cents = 0
    """What one unit costs the company, in cents."""
    taxable: bool = True
    """Whether the invoice's tax rate applies to lines of this item."""
    description: Text = ""
    """Default description of invoice lines."""
    active: bool = True
    """Inactive items cannot be put on invoices."""


class InvoiceLine(Value):
    """One line of an invoice: an item, a quantity and a price."""

    line_num: int = Field(ge=1, description="Position of the line, from 1.")
    item_id: ItemId = Field(description="The item sold.")
    sku: Sku = Field(description="The item's SKU when the line was written.")
    description: Text = Field(description="Line description.")
    quantity: Quantity = Field(description="Number of units.")
    unit_price: Cents = Field(description="Price per unit in cents.")
    amount: Cents = Field(description="quantity × unit_price, in cents.")
    taxable: bool = Field(description="Whether the invoice's tax rate applies to this line.")


class LineInput(Value):
    """A line to put on an invoice."""

    item_id: ItemId = Field(description="The item to sell (an active item).")
    quantity: Quantity = Field(default=1, description="Number of units, at least 1.")
    unit_price: Cents | None = Field(
        default=None, description="Price per unit in cents; omit to use the item's sales price."
    )
    description: Text | None = Field(default=None, description="Line description; omit to use the item's.")


class Invoice(Timestamped):
    """A bill sent to a customer; its totals are computed from its lines."""

    id: InvoiceId
    doc_number: Annotated[InvoiceNumber, Generated("sequence", "INV-{n:05d}")]
    """Customer-facing invoice number."""
    customer_id: CustomerId
    """The customer billed."""
    bill_email: Email
    """E-mail address the invoice is sent to."""
    billing_address: PostalAddress
    """Billing address printed on the invoice."""
    currency: Currency
    """Currency of every amount on the invoice."""
    lines: list[InvoiceLine]
    """The line items."""
    subtotal: Cents
    """Sum of the line amounts, in cents."""
    tax_rate: Percent = 0
    """Sales tax rate applied to taxable lines, in percent."""
    tax_amount: Cents = 0
    """Sales tax in cents."""
    total: Cents
    """subtotal + tax_amount, in cents."""
    amount_paid: Cents = 0
    """Sum of the payments applied, in cents."""
    amount_credited: Cents = 0
    """Sum of the credit memos applied, in cents."""
    balance: Cents
    """What is still owed, in cents (0 once paid or voided)."""
    txn_date: Date
    """Invoice date."""
    due_date: Date
    """Date payment is due."""
    status: InvoiceStatus = "draft"
    """draft, sent, partially_paid, paid or voided; voided is final."""
    memo: Text = ""
    """Message to the customer printed on the invoice."""
    sent_at: DateTime | None = None
    """When the invoice was last e-mailed."""


class Payment(Record):
    """Money received from a customer against one invoice."""

    id: PaymentId
    customer_id: CustomerId
    """The paying customer."""
    invoice_id: InvoiceId
    """The invoice the payment is applied to."""
    amount: Cents
    """Amount received, in cents."""
    currency: Currency
    """Currency of the amount (the invoice's)."""
    method: PaymentMethodKind
    """How the customer paid."""
    reference: str = ""
    """Check number or the payment processor's transaction reference (free text)."""
    txn_date: Date
    """Date the payment was received."""
    status: Literal["completed", "voided"] = "completed"
    """Voided payments no longer count against the invoice."""
    memo: Text = ""
    """Internal memo."""
    created_at: Annotated[DateTime, CREATED]
    """When the payment was recorded."""


class CreditApplication(Value):
    """Part of a credit memo applied to an invoice."""

    invoice_id: InvoiceId = Field(description="The invoice credited.")
    amount: Cents = Field(description="Amount applied, in cents.")
    applied_on: Date = Field(description="Date it was applied.")


class CreditMemo(Created):
    """Credit owed to a customer, to be applied to its invoices."""

    id: CreditMemoId
    doc_number: Annotated[str, Generated("sequence", "CM-{n:05d}")]
    """Credit memo number."""
    customer_id: CustomerId
    """The customer credited."""
    amount: Cents
    """Amount of credit, in cents."""
    remaining: Cents
    """Credit not yet applied to invoices, in cents."""
    currency: Currency
    """Currency of the credit (the customer's)."""
    reason: CreditReason
    """Why credit was given."""
    memo: Text = ""
    """Note printed on the credit memo."""
    txn_date: Date
    """Date of the credit memo."""
    status: Literal["open", "partially_applied", "applied"] = "open"
    """open (nothing applied), partially_applied or applied (nothing left)."""
    applications: list[CreditApplication] = Field(default_factory=list)
    """Where the credit was applied."""


# -- rules shared by tools and guards -----------------------------------------------------


def _home_currency(ctx: Ctx) -> str:
    return ctx.population.home.place.currency


def _settled(inv: Invoice, *, amount_paid: int, amount_credited: int, total: int | None = None) -> dict[str, Any]:
    """Balance and status of an invoice after its payments or credits changed."""
    total = inv.total if total is None else total
    balance = total - amount_paid - amount_credited
    status: str
    if balance == 0:
        status = "paid"
    elif amount_paid or amount_credited:
        status = "partially_paid"
    else:
        status = "sent" if inv.sent_at is not None else "draft"
    return {"amount_paid": amount_paid, "amount_credited": amount_credited, "balance": balance, "status": status}


def _active_customer(ctx: Ctx, customer_id: str, field: str = "customer_id") -> Customer:
    customer = ctx.get(Customer, customer_id, field=field)
    if not customer.active:
        raise RuleViolation(
            f"customer {customer.id} ({customer.company_name}) is inactive",
            field=field,
            hint="reactivate the customer with invoicing__reactivate_customer first",
        )
    return customer


def _build_lines(ctx: Ctx, customer: Customer, lines: list[LineInput]) -> list[InvoiceLine]:
    if not lines:
        raise RuleViolation("an invoice needs at least one line", field="lines", hint="add a line with an item_id")
    if len(lines) > 100:
        raise RuleViolation("an invoice has at most 100 lines", field="lines", hint="split it into several invoices")
    foreign = customer.currency != _home_currency(ctx)
    out: list[InvoiceLine] = []
    for n, line in enumerate(lines):
        where = f"lines.{n}"
        item = ctx.find(Item, line.item_id)
        if item is None:
            raise NotFound(
                f"no item with id {line.item_id!r}",
                field=f"{where}.item_id",
                hint="find items with invoicing__list_items",
            )
        if not item.active:
            raise RuleViolation(
                f"item {item.id} ({item.name}) is inactive",
                field=f"{where}.item_id",
                hint="reactivate it with invoicing__reactivate_item or choose another item",
            )
        if line.quantity < 1:
            raise RuleViolation(
                "a line's quantity must be at least 1", field=f"{where}.quantity", hint="remove the line instead"
            )
        if line.unit_price is None and foreign:
            raise RuleViolation(
                f"item prices are in {_home_currency(ctx)} but the customer is invoiced in {customer.currency}",
                field=f"{where}.unit_price",
                hint=f"give every line a unit_price in {customer.currency}",
            )
        unit_price = item.unit_price if line.unit_price is None else line.unit_price
        out.append(
            InvoiceLine(
                line_num=n + 1,
                item_id=item.id,
                sku=item.sku,
                description=line.description if line.description is not None else (item.description or item.name),
                quantity=line.quantity,
                unit_price=unit_price,
                amount=line.quantity * unit_price,
                taxable=item.taxable,
            )
        )
    return out


def _totals(lines: list[InvoiceLine], tax_rate: float) -> dict[str, Any]:
    subtotal = sum(line.amount for line in lines)
    tax = percent_of(sum(line.amount for line in lines if line.taxable), tax_rate)
    total = subtotal + tax
    if total == 0:
        raise RuleViolation(
            "an invoice's total cannot be 0", field="lines", hint="give at least one line a non-zero price"
        )
    return {"lines": lines, "subtotal": subtotal, "tax_rate": tax_rate, "tax_amount": tax, "total": total}


def _guard_customer(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.active and not new.active:
        owed = [i for i in ctx.where(Invoice, customer_id=old.id) if i.status != "voided" and i.balance > 0]
        if owed:
            raise RuleViolation(
                f"customer {old.id} has {len(owed)} unpaid invoice(s) and cannot be made inactive",
                field="customer_id",
                hint="record payments, apply credits or void the open invoices first",
            )


def _guard_invoice_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status in ("voided", "paid"):
        raise RuleViolation(
            f"invoice {old.doc_number} is {old.status} and cannot be edited",
            field="invoice_id",
            hint="a voided or paid invoice is final; issue a credit memo or a new invoice instead",
        )
    if new.due_date < new.txn_date:
        raise RuleViolation(
            f"due date {new.due_date} is before the invoice date {new.txn_date}",
            field="due_date",
            hint="choose a due date on or after the invoice date",
        )


def _guard_invoice_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"invoice {old.doc_number} is {old.status}; only draft invoices can be deleted",
            field="invoice_id",
            hint="void a sent invoice with invoicing__void_invoice instead",
        )


def _guard_payment_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "voided":
        raise RuleViolation(
            f"payment {old.id} is voided and cannot be edited", field="payment_id", hint="record a new payment"
        )


def _guard_credit_memo_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.remaining != old.amount:
        raise RuleViolation(
            f"credit memo {old.doc_number} has been applied to invoices and cannot be deleted",
            field="credit_memo_id",
            hint="only credit memos with nothing applied can be deleted",
        )


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cust",
    create=False,
    filters=("email", "active", "terms", "currency"),
    search=("company_name", "email", "given_name", "family_name"),
    update=("company_name", "given_name", "family_name", "email", "phone", "billing_address", "terms", "notes"),
    delete=False,
    transitions={
        "deactivate": Transition(
            "active",
            (True,),
            False,
            "make the customer inactive",
            "Make a customer inactive so it can no longer be invoiced; refused while it has unpaid invoices.",
        ),
        "reactivate": Transition("active", (False,), True, "make the customer active again"),
    },
    unique=("company_name",),
    guard_update=_guard_customer,
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="item",
    create=False,
    filters=("type", "active", "sku", "taxable"),
    search=("name", "sku", "description"),
    update=("name", "unit_price", "purchase_cost", "taxable", "description"),
    delete=False,
    transitions={
        "deactivate": Transition("active", (True,), False, "stop selling the item"),
        "reactivate": Transition("active", (False,), True, "sell the item again"),
    },
    unique=("sku",),
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("customer_id", "status", "doc_number", "currency", "due_date"),
    search=("doc_number", "memo", "bill_email"),
    update=("due_date", "memo", "bill_email"),
    guard_update=_guard_invoice_update,
    guard_delete=_guard_invoice_delete,
    unique=("doc_number",),
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pmt",
    create=False,
    filters=("customer_id", "invoice_id", "method", "status", "txn_date"),
    search=("reference", "memo"),
    update=("reference", "memo"),
    delete=False,
    guard_update=_guard_payment_update,
)
credit_memos = service.resource(
    CreditMemo,
    name="credit_memo",
    plural="credit_memos",
    prefix="cm",
    create=False,
    filters=("customer_id", "status", "reason"),
    search=("doc_number", "memo"),
    update=("memo",),
    guard_delete=_guard_credit_memo_delete,
    title="credit memo",
)


# -- customers and items --------------------------------------------------------------------


def _example_create_customer(ctx: Ctx) -> dict[str, Any] | None:
    for person in ctx.population.consumers:
        if ctx.first(Customer, company_name=person.name) is None:
            return {
                "company_name": person.name,
                "email": person.email,
                "given_name": person.first_name,
                "family_name": person.last_name,
                "billing_address": person.address.model_dump(),
                "terms": "due_on_receipt",
            }
    return None


@service.tool(intent="add a customer", write=True, example=_example_create_customer)
def create_customer(
    ctx: Ctx,
    company_name: CompanyName,
    email: Email,
    billing_address: PostalAddress,
    given_name: FirstName | None = None,
    family_name: LastName | None = None,
    phone: Phone | None = None,
    currency: Currency | None = None,
    terms: Terms = "net_30",
    notes: Text = "",
) -> Customer:
    """Create a customer to invoice. The company name must not be taken by another customer.

    Args:
        company_name: Company name printed on invoices, or the person's full name for an individual.
        email: Billing e-mail address invoices are sent to.
        billing_address: Address printed on invoices.
        given_name: Given name of the billing contact.
        family_name: Family name of the billing contact.
        phone: Main phone number.
        currency: Currency to invoice in (default: the company's home currency).
        terms: Payment terms, which set the default due date of its invoices.
        notes: Internal notes.
    """
    return ctx.create(
        Customer,
        company_name=company_name,
        email=email,
        billing_address=billing_address,
        given_name=given_name,
        family_name=family_name,
        phone=phone,
        currency=currency or _home_currency(ctx),
        terms=terms,
        notes=notes,
    )


def _example_create_item(ctx: Ctx) -> dict[str, Any] | None:
    for n in range(1, 100):
        sku = f"SVC-TRAIN-{n}"
        if ctx.first(Item, sku=sku) is None:
            return {"name": "On-site training session", "sku": sku, "type": "service", "unit_price": 12000}
    return None


@service.tool(intent="add a product or service to sell", write=True, example=_example_create_item)
def create_item(
    ctx: Ctx,
    name: Title,
    sku: Sku,
    unit_price: Cents,
    type: Literal["inventory", "non_inventory", "service"] = "inventory",
    purchase_cost: Cents = 0,
    taxable: bool = True,
    description: Text = "",
) -> Item:
    """Create an item to put on invoices. The SKU must not be taken by another item.

    Args:
        name: Item name shown on invoice lines.
        sku: Stock keeping unit, unique among items.
        unit_price: Sales price per unit in cents, in the company's home currency.
        type: Kind of item.
        purchase_cost: What one unit costs the company, in cents.
        taxable: Whether invoice tax rates apply to it.
        description: Default description of invoice lines.
    """
    return ctx.create(
        Item,
        name=name,
        sku=sku,
        type=type,
        unit_price=unit_price,
        purchase_cost=purchase_cost,
        taxable=taxable,
        description=description,
    )


# -- invoices -------------------------------------------------------------------------------


def _example_create_invoice(ctx: Ctx) -> dict[str, Any] | None:
    home = _home_currency(ctx)
    customer = next((c for c in ctx.where(Customer, active=True) if c.currency == home), None)
    item = ctx.first(Item, active=True)
    if customer is None or item is None:
        return None
    return {"customer_id": customer.id, "lines": [{"item_id": item.id, "quantity": 2}], "tax_rate": 8.5}


@service.tool(intent="invoice the customer", write=True, example=_example_create_invoice)
def create_invoice(
    ctx: Ctx,
    customer_id: CustomerId,
    lines: list[LineInput],
    txn_date: Date | None = None,
    due_date: Date | None = None,
    tax_rate: Percent = 0,
    memo: Text = "",
    bill_email: Email | None = None,
) -> Invoice:
    """Create a draft invoice for a customer; totals are computed from the lines.

    Each line's amount is quantity × unit price (the item's sales price unless
    given); the tax rate applies to taxable items. The due date defaults from
    the customer's payment terms. Inactive customers and items cannot be used.

    Args:
        customer_id: The customer to bill (an active customer).
        lines: The line items, at least one.
        txn_date: Invoice date (default: today).
        due_date: Due date, on or after the invoice date (default: invoice date plus the customer's terms).
        tax_rate: Sales tax rate in percent applied to taxable lines.
        memo: Message to the customer printed on the invoice.
        bill_email: Address to send the invoice to (default: the customer's e-mail).
    """
    customer = _active_customer(ctx, customer_id)
    built = _build_lines(ctx, customer, lines)
    totals = _totals(built, tax_rate)
    day = txn_date or ctx.today()
    due = due_date or day + dt.timedelta(days=term_days(customer.terms))
    if due < day:
        raise RuleViolation(
            f"due date {due} is before the invoice date {day}",
            field="due_date",
            hint="choose a due date on or after the invoice date",
        )
    return ctx.create(
        Invoice,
        customer_id=customer.id,
        bill_email=bill_email or customer.email,
        billing_address=customer.billing_address,
        currency=customer.currency,
        balance=totals["total"],
        txn_date=day,
        due_date=due,
        memo=memo,
        **totals,
    )


def _example_open_unpaid(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.scan(Invoice):
        if inv.status in ("draft", "sent") and inv.amount_paid == 0 and inv.amount_credited == 0:
            return {"invoice_id": inv.id, "lines": [{"item_id": inv.lines[0].item_id, "quantity": 3}]}
    return None


@service.tool(intent="change the invoice's line items", write=True, example=_example_open_unpaid)
def update_invoice_lines(
    ctx: Ctx, invoice_id: InvoiceId, lines: list[LineInput], tax_rate: Percent | None = None
) -> Invoice:
    """Replace an invoice's line items and recompute its totals and balance.

    Voided and paid invoices cannot change; the new total cannot fall below
    what has already been paid or credited on the invoice.

    Args:
        invoice_id: The invoice.
        lines: The new line items, replacing all current ones.
        tax_rate: New sales tax rate in percent; omit to keep the current rate.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status in ("voided", "paid"):
        raise RuleViolation(
            f"invoice {inv.doc_number} is {inv.status} and its lines cannot change",
            field="invoice_id",
            hint="issue a credit memo or a new invoice instead",
        )
    customer = ctx.get(Customer, inv.customer_id, field="invoice_id")
    totals = _totals(_build_lines(ctx, customer, lines), inv.tax_rate if tax_rate is None else tax_rate)
    settled = inv.amount_paid + inv.amount_credited
    if totals["total"] < settled:
        raise RuleViolation(
            f"the new total {totals['total']} is below the {settled} already paid or credited",
            field="lines",
            hint="void payments first, or keep the total at least at the amount already received",
        )
    changes = _settled(inv, amount_paid=inv.amount_paid, amount_credited=inv.amount_credited, total=totals["total"])
    return ctx.update(inv, **totals, **changes)


@service.tool(
    intent="e-mail the invoice to the customer",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "draft"}),
)
def send_invoice(ctx: Ctx, invoice_id: InvoiceId, send_to: Email | None = None) -> Invoice:
    """E-mail an invoice to the customer; a draft becomes sent.

    Sending again re-sends it. A voided invoice cannot be sent.

    Args:
        invoice_id: The invoice.
        send_to: Address to send to; it becomes the invoice's bill e-mail (default: the current bill e-mail).
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status == "voided":
        raise RuleViolation(
            f"invoice {inv.doc_number} is voided and cannot be sent",
            field="invoice_id",
            hint="create a new invoice",
        )
    status = "sent" if inv.status == "draft" else inv.status
    return ctx.update(inv, status=status, sent_at=ctx.now(), bill_email=send_to or inv.bill_email)


@service.tool(
    intent="void the invoice",
    write=True,
    destructive=True,
    example=first_example(Invoice, "invoice_id", where={"status": "sent"}, match=lambda ctx, inv: inv.amount_paid == 0),
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void an invoice: it stays on record but no longer counts as owed.

    A paid invoice cannot be voided, and neither can one with payments
    applied: void those payments first. Credits applied to it go back to
    their credit memos.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status == "voided":
        raise RuleViolation(
            f"invoice {inv.doc_number} is already voided", field="invoice_id", hint="nothing to do; voiding is final"
        )
    if inv.status == "paid":
        raise RuleViolation(
            f"invoice {inv.doc_number} is paid and cannot be voided",
            field="invoice_id",
            hint="issue a credit memo or a refund instead",
        )
    if inv.amount_paid > 0:
        raise RuleViolation(
            f"invoice {inv.doc_number} has payments applied and cannot be voided",
            field="invoice_id",
            hint="void its payments with invoicing__void_payment first",
        )
    if inv.amount_credited:
        for memo in ctx.where(CreditMemo, customer_id=inv.customer_id):
            back = sum(a.amount for a in memo.applications if a.invoice_id == inv.id)
            if back:
                kept = [a for a in memo.applications if a.invoice_id != inv.id]
                remaining = memo.remaining + back
                ctx.update(memo, applications=kept, remaining=remaining, status=_memo_status(memo.amount, remaining))
    return ctx.update(inv, status="voided", balance=0, amount_credited=0)


# -- payments -------------------------------------------------------------------------------


def _example_payable(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.scan(Invoice):
        if inv.status in ("sent", "partially_paid") and inv.balance > 1:
            return {"invoice_id": inv.id, "amount": inv.balance // 2, "method": "check", "reference": "CHK-1042"}
    return None


@service.tool(intent="record the customer's payment of the invoice", write=True, example=_example_payable)
def receive_payment(
    ctx: Ctx,
    invoice_id: InvoiceId,
    amount: Cents,
    method: PaymentMethodKind,
    txn_date: Date | None = None,
    reference: str = "",
    memo: Text = "",
) -> Payment:
    """Record money received against an invoice; partial payments are allowed.

    The amount cannot exceed the invoice's balance. The invoice becomes
    partially_paid, or paid when nothing is left to pay.

    Args:
        invoice_id: The invoice paid.
        amount: Amount received in cents, more than 0 and at most the invoice's balance.
        method: How the customer paid.
        txn_date: Date received, not in the future (default: today).
        reference: Check number or the payment processor's transaction reference.
        memo: Internal memo.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status == "voided":
        raise RuleViolation(
            f"invoice {inv.doc_number} is voided", field="invoice_id", hint="payments go against open invoices"
        )
    if inv.balance == 0:
        raise RuleViolation(
            f"invoice {inv.doc_number} is already paid in full",
            field="invoice_id",
            hint="check the customer's other open invoices with invoicing__get_customer_balance",
        )
    if amount == 0:
        raise RuleViolation(
            "a payment amount must be more than 0", field="amount", hint="give the amount received in cents"
        )
    if amount > inv.balance:
        raise RuleViolation(
            f"payment of {amount} exceeds the balance of {inv.balance} {inv.currency} on invoice {inv.doc_number}",
            field="amount",
            hint=f"record at most {inv.balance}; put any overpayment on another invoice",
        )
    day = txn_date or ctx.today()
    if day > ctx.today():
        raise RuleViolation(
            f"payment date {day} is in the future", field="txn_date", hint="record payments once received"
        )
    payment = ctx.create(
        Payment,
        customer_id=inv.customer_id,
        invoice_id=inv.id,
        amount=amount,
        currency=inv.currency,
        method=method,
        reference=reference,
        txn_date=day,
        memo=memo,
    )
    ctx.update(inv, **_settled(inv, amount_paid=inv.amount_paid + amount, amount_credited=inv.amount_credited))
    return payment


@service.tool(
    intent="void the payment",
    write=True,
    destructive=True,
    example=first_example(Payment, "payment_id", where={"status": "completed"}),
)
def void_payment(ctx: Ctx, payment_id: PaymentId) -> Payment:
    """Void a payment (a bounced check, a reversed transfer): the invoice is owed again.

    Args:
        payment_id: The payment.
    """
    payment = ctx.get(Payment, payment_id, field="payment_id")
    if payment.status == "voided":
        raise RuleViolation(
            f"payment {payment.id} is already voided", field="payment_id", hint="nothing to do; voiding is final"
        )
    inv = ctx.get(Invoice, payment.invoice_id, field="payment_id")
    ctx.update(inv, **_settled(inv, amount_paid=inv.amount_paid - payment.amount, amount_credited=inv.amount_credited))
    return ctx.update(payment, status="voided")


# -- credit memos ---------------------------------------------------------------------------


def _memo_status(amount: int, remaining: int) -> str:
    if remaining == amount:
        return "open"
    return "applied" if remaining == 0 else "partially_applied"


@service.tool(
    intent="give the customer a credit",
    write=True,
    example=first_example(
        Customer, "customer_id", where={"active": True}, amount=2500, reason="goodwill", memo="Late delivery"
    ),
)
def issue_credit_memo(
    ctx: Ctx,
    customer_id: CustomerId,
    amount: Cents,
    reason: CreditReason,
    memo: Text = "",
    txn_date: Date | None = None,
) -> CreditMemo:
    """Issue a credit memo to a customer, to be applied to its invoices later.

    Args:
        customer_id: The customer credited (an active customer).
        amount: Credit in cents, more than 0, in the customer's currency.
        reason: Why credit is given.
        memo: Note printed on the credit memo.
        txn_date: Date of the credit memo (default: today).
    """
    customer = _active_customer(ctx, customer_id)
    if amount == 0:
        raise RuleViolation("a credit memo amount must be more than 0", field="amount", hint="give the credit in cents")
    return ctx.create(
        CreditMemo,
        customer_id=customer.id,
        amount=amount,
        remaining=amount,
        currency=customer.currency,
        reason=reason,
        memo=memo,
        txn_date=txn_date or ctx.today(),
    )


class CreditApplied(BaseModel):
    """A credit memo applied to an invoice."""

    credit_memo: CreditMemo = Field(description="The credit memo after the application.")
    invoice: Invoice = Field(description="The invoice after the application.")
    amount: Cents = Field(description="Amount applied, in cents.")


def _example_apply_credit(ctx: Ctx) -> dict[str, Any] | None:
    for memo in ctx.scan(CreditMemo):
        if memo.remaining == 0:
            continue
        for inv in ctx.where(Invoice, customer_id=memo.customer_id):
            if inv.status in ("sent", "partially_paid", "draft") and inv.balance > 0:
                return {"credit_memo_id": memo.id, "invoice_id": inv.id}
    return None


@service.tool(intent="apply the customer's credit to the invoice", write=True, example=_example_apply_credit)
def apply_credit_memo(
    ctx: Ctx, credit_memo_id: CreditMemoId, invoice_id: InvoiceId, amount: Cents | None = None
) -> CreditApplied:
    """Apply credit from a credit memo to an invoice of the same customer.

    The amount cannot exceed the credit memo's remaining credit nor the
    invoice's balance; voided and paid invoices take no credit.

    Args:
        credit_memo_id: The credit memo.
        invoice_id: The invoice to reduce.
        amount: Amount in cents (default: as much as both allow).
    """
    memo = ctx.get(CreditMemo, credit_memo_id, field="credit_memo_id")
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if memo.remaining == 0:
        raise RuleViolation(
            f"credit memo {memo.doc_number} has no credit left", field="credit_memo_id", hint="issue a new credit memo"
        )
    if memo.customer_id != inv.customer_id:
        raise RuleViolation(
            f"credit memo {memo.doc_number} belongs to another customer than invoice {inv.doc_number}",
            field="invoice_id",
            hint="apply credit only to the same customer's invoices",
        )
    if memo.currency != inv.currency:
        raise RuleViolation(
            f"credit memo is in {memo.currency} but the invoice is in {inv.currency}",
            field="invoice_id",
            hint="apply credit only to invoices in the same currency",
        )
    if inv.status == "voided" or inv.balance == 0:
        raise RuleViolation(
            f"invoice {inv.doc_number} is {inv.status} and has nothing to credit",
            field="invoice_id",
            hint="apply the credit to one of the customer's open invoices",
        )
    applied = min(memo.remaining, inv.balance) if amount is None else amount
    if applied == 0:
        raise RuleViolation(
            "the amount to apply must be more than 0", field="amount", hint="omit amount to apply as much as possible"
        )
    if applied > memo.remaining:
        raise RuleViolation(
            f"{applied} exceeds the {memo.remaining} left on credit memo {memo.doc_number}",
            field="amount",
            hint=f"apply at most {memo.remaining}",
        )
    if applied > inv.balance:
        raise RuleViolation(
            f"{applied} exceeds the balance of {inv.balance} on invoice {inv.doc_number}",
            field="amount",
            hint=f"apply at most {inv.balance}",
        )
    remaining = memo.remaining - applied
    memo = ctx.update(
        memo,
        remaining=remaining,
        status=_memo_status(memo.amount, remaining),
        applications=[*memo.applications, CreditApplication(invoice_id=inv.id, amount=applied, applied_on=ctx.today())],
    )
    inv = ctx.update(inv, **_settled(inv, amount_paid=inv.amount_paid, amount_credited=inv.amount_credited + applied))
    return CreditApplied(credit_memo=memo, invoice=inv, amount=applied)


# -- reports --------------------------------------------------------------------------------


class CustomerBalance(BaseModel):
    """What one customer owes."""

    customer_id: CustomerId = Field(description="The customer.")
    currency: Currency = Field(description="Currency of the amounts.")
    open_balance: Cents = Field(description="Sum of the balances of its open invoices, in cents.")
    overdue_balance: Cents = Field(description="The part of it past its due date, in cents.")
    open_invoices: int = Field(description="Number of invoices with a balance.")
    overdue_invoices: int = Field(description="Number of those past their due date.")
    unapplied_credit: Cents = Field(description="Credit memo amounts not yet applied, in cents.")
    oldest_due_date: Date | None = Field(description="Earliest due date of an open invoice.")


@service.tool(intent="check what the customer owes")
def get_customer_balance(ctx: Ctx, customer_id: CustomerId) -> CustomerBalance:
    """Summarise a customer's open and overdue invoices and unapplied credit.

    Args:
        customer_id: The customer.
    """
    customer = ctx.get(Customer, customer_id, field="customer_id")
    today = ctx.today()
    open_ = [i for i in ctx.where(Invoice, customer_id=customer.id) if i.status != "voided" and i.balance > 0]
    overdue = [i for i in open_ if i.due_date < today]
    return CustomerBalance(
        customer_id=customer.id,
        currency=customer.currency,
        open_balance=sum(i.balance for i in open_),
        overdue_balance=sum(i.balance for i in overdue),
        open_invoices=len(open_),
        overdue_invoices=len(overdue),
        unapplied_credit=sum(m.remaining for m in ctx.where(CreditMemo, customer_id=customer.id)),
        oldest_due_date=min((i.due_date for i in open_), default=None),
    )


class AgingRow(BaseModel):
    """One customer's open balance by how overdue it is."""

    customer_id: CustomerId = Field(description="The customer.")
    company_name: CompanyName = Field(description="The customer's company name.")
    currency: Currency = Field(description="Currency of the amounts.")
    current: Cents = Field(description="Not yet due, in cents.")
    days_1_30: Cents = Field(description="1 to 30 days past due, in cents.")
    days_31_60: Cents = Field(description="31 to 60 days past due, in cents.")
    days_61_90: Cents = Field(description="61 to 90 days past due, in cents.")
    over_90: Cents = Field(description="More than 90 days past due, in cents.")
    total: Cents = Field(description="Total open balance, in cents.")


class AgingReport(BaseModel):
    """Accounts receivable aging."""

    as_of: Date = Field(description="Date the report is computed for.")
    rows: list[AgingRow] = Field(description="One row per customer with an open balance, largest total first.")


@service.tool(intent="see which customers owe money and how overdue it is")
def aging_report(ctx: Ctx, as_of: Date | None = None, min_days_overdue: Quantity = 0) -> AgingReport:
    """Accounts receivable aging: open balances per customer in overdue buckets.

    Args:
        as_of: Date to age the invoices at (default: today).
        min_days_overdue: Only customers with an invoice at least this many days past due (0: all).
    """
    day = as_of or ctx.today()
    buckets: dict[str, list[int]] = {}
    worst: dict[str, int] = {}
    for inv in ctx.scan(Invoice):
        if inv.status == "voided" or inv.balance == 0 or inv.txn_date > day:
            continue
        late = (day - inv.due_date).days
        row = buckets.setdefault(inv.customer_id, [0, 0, 0, 0, 0])
        slot = 0 if late <= 0 else 1 if late <= 30 else 2 if late <= 60 else 3 if late <= 90 else 4
        row[slot] += inv.balance
        worst[inv.customer_id] = max(worst.get(inv.customer_id, 0), late)
    rows: list[AgingRow] = []
    for cid, amounts in buckets.items():
        if min_days_overdue and worst[cid] < min_days_overdue:
            continue
        customer = ctx.get(Customer, cid)
        rows.append(
            AgingRow(
                customer_id=cid,
                company_name=customer.company_name,
                currency=customer.currency,
                current=amounts[0],
                days_1_30=amounts[1],
                days_31_60=amounts[2],
                days_61_90=amounts[3],
                over_90=amounts[4],
                total=sum(amounts),
            )
        )
    rows.sort(key=lambda r: (-r.total, r.customer_id))
    return AgingReport(as_of=day, rows=rows)


# -- seed -----------------------------------------------------------------------------------

SERVICE_ITEMS: tuple[tuple[str, str, str, int, bool], ...] = (
    ("SVC-INSTALL", "Installation service", "service", 9500, True),
    ("SVC-CONSULT", "Consulting hour", "service", 15000, True),
    ("SVC-WARRANTY", "Extended warranty, 1 year", "non_inventory", 4900, True),
    ("SVC-SHIPPING", "Shipping and handling", "service", 1500, False),
)
MEMOS = ("Thank you for your business.", "Please include the invoice number with your payment.", "")


CREDIT_REASONS: tuple[CreditReason, ...] = ("returned_goods", "pricing_error", "service_issue", "goodwill")


def _seed_items(s: SeedContext) -> list[Item]:
    """The product catalog and a few service items; returns the items that can be sold."""
    pop = s.population
    for n, product in enumerate(pop.products):
        s.create(
            Item,
            name=product.name,
            sku=product.sku,
            type="inventory",
            unit_price=product.price_cents,
            purchase_cost=product.cost_cents,
            taxable=True,
            description=f"{product.name} ({product.category})",
            active=n % 13 != min(6, len(pop.products) - 1),
        )
    for sku, name, kind, price, taxable in SERVICE_ITEMS:
        s.create(Item, name=name, sku=sku, type=kind, unit_price=price, taxable=taxable, description=name)
    return [i for i in s.records(Item) if i.active]


def _seed_customers(s: SeedContext) -> list[tuple[dt.date, Customer, str]]:
    """One customer per customer company; returns the invoices to write, as (date, customer, status), by date."""
    pop = s.population
    rng = s.rng
    today = s.now.date()
    plans: list[tuple[dt.date, Customer, str]] = []
    for n, company in enumerate(pop.customers):
        contact = pop.first_contact(company)
        customer = s.create(
            Customer,
            company_name=company.name,
            given_name=contact.first_name if contact else None,
            family_name=contact.last_name if contact else None,
            email=contact.email if contact else f"billing@{company.domain}",
            phone=company.phone,
            billing_address=company.address,
            currency=pop.home.place.currency,
            terms=rng.choice(("due_on_receipt", "net_15", "net_30", "net_30", "net_60")),
            active=n % 11 != min(10, len(pop.customers) - 1),
            created_at=s.ago(days=rng.randint(150, 900)),
        )
        if not customer.active:
            continue
        statuses = ("draft", "sent", "sent", "partially_paid", "paid", "paid", "voided")
        for k in range(rng.randint(1, 4)):
            status = statuses[(n + k) % len(statuses)] if k else rng.choice(statuses)
            age = rng.randint(0, 10) if status == "draft" else rng.randint(5, 140)
            plans.append((today - dt.timedelta(days=age), customer, status))
    plans.sort(key=lambda p: (p[0], p[1].id))
    return plans


def _seed_payments(s: SeedContext, inv: Invoice, paid: int, stamp: dt.datetime) -> None:
    """The payments of ``paid`` on an invoice: one, or two a week apart for some fully paid invoices."""
    rng = s.rng
    parts = [paid] if inv.status == "partially_paid" or rng.random() < 0.7 else [paid // 2, paid - paid // 2]
    for m, part in enumerate(parts):
        method = rng.choice(("check", "bank_transfer", "credit_card", "cash"))
        s.create(
            Payment,
            customer_id=inv.customer_id,
            invoice_id=inv.id,
            amount=part,
            currency=inv.currency,
            method=method,
            reference=f"CHK-{rng.randint(1000, 9999)}" if method == "check" else "",
            txn_date=min(s.now.date(), inv.txn_date + dt.timedelta(days=3 + 7 * m + rng.randint(0, 10))),
            created_at=stamp + dt.timedelta(days=3 + 7 * m),
        )


def _seed_invoices(s: SeedContext, plans: list[tuple[dt.date, Customer, str]], sellable: list[Item]) -> list[Invoice]:
    """The planned invoices with their payments and applied credits; returns those still open (sent or part paid)."""
    rng = s.rng
    sent_invoices: list[Invoice] = []
    credited_paid = 0
    for day, customer, status in plans:
        picked = rng.sample(sellable, k=min(len(sellable), rng.randint(1, 4)))
        lines = [
            InvoiceLine(
                line_num=k + 1,
                item_id=item.id,
                sku=item.sku,
                description=item.description or item.name,
                quantity=q,
                unit_price=item.unit_price,
                amount=q * item.unit_price,
                taxable=item.taxable,
            )
            for k, item in enumerate(picked)
            for q in (rng.randint(1, 10),)
        ]
        totals = _totals(lines, rng.choice((0.0, 0.0, 5.0, 8.25)))
        total = totals["total"]
        stamp = utc_at(day, 10)
        settled = {"paid": total, "partially_paid": total * rng.randint(20, 60) // 100}.get(status, 0)
        # The first two paid invoices were settled partly with a credit memo.
        credited = total // 4 if status == "paid" and credited_paid < 2 else 0
        credited_paid += 1 if credited else 0
        paid = settled - credited
        inv = s.create(
            Invoice,
            customer_id=customer.id,
            bill_email=customer.email,
            billing_address=customer.billing_address,
            currency=customer.currency,
            amount_paid=paid,
            amount_credited=credited,
            balance=0 if status == "voided" else total - settled,
            txn_date=day,
            due_date=day + dt.timedelta(days=term_days(customer.terms)),
            status=status,
            memo=rng.choice(MEMOS),
            sent_at=None if status == "draft" else stamp + dt.timedelta(minutes=30),
            created_at=stamp,
            updated_at=stamp,
            **totals,
        )
        if status in ("sent", "partially_paid"):
            sent_invoices.append(inv)
        if credited:
            # One memo used up exactly, one with credit left over.
            amount = credited if credited_paid == 1 else credited * 2
            s.create(
                CreditMemo,
                customer_id=customer.id,
                amount=amount,
                remaining=amount - credited,
                currency=inv.currency,
                reason=CREDIT_REASONS[credited_paid],
                memo="Volume discount" if credited_paid == 1 else "Returned items",
                txn_date=day,
                status=_memo_status(amount, amount - credited),
                applications=[CreditApplication(invoice_id=inv.id, amount=credited, applied_on=day)],
                created_at=stamp + dt.timedelta(minutes=5),
            )
        if paid:
            _seed_payments(s, inv, paid, stamp)
    return sent_invoices


def _seed_open_credits(s: SeedContext, sent_invoices: list[Invoice]) -> None:
    """Open credit memos for some customers with open invoices."""
    for k, inv in enumerate(sent_invoices[: max(3, len(sent_invoices) // 5)]):
        amount = max(100, inv.balance // s.rng.choice((4, 5, 10)))
        s.create(
            CreditMemo,
            customer_id=inv.customer_id,
            amount=amount,
            remaining=amount,
            currency=inv.currency,
            reason=CREDIT_REASONS[k % len(CREDIT_REASONS)],
            memo="Credit for a damaged delivery" if k % 2 else "Price adjustment",
            txn_date=inv.txn_date + dt.timedelta(days=2),
            created_at=inv.created_at + dt.timedelta(days=2),
        )


@service.seeder
def seed(s: SeedContext) -> None:
    """Items from the product catalog, one customer per customer company, a year of receivables."""
    sellable = _seed_items(s)
    plans = _seed_customers(s)
    _seed_open_credits(s, _seed_invoices(s, plans, sellable))
