"""Settle Payables: the company's accounts payable: vendors, bills and their approvals, payments, vendor credits.

Modeled on BILL's v3 API (vendors, bills with line items, approval policies
and approvers, payments with process dates, vendor credits). A bill's amount is
the sum of its line items, its invoice number is unique per vendor and its due
date is not before its invoice date; only active vendors get bills, credits
and payments. Bills go through sequential approval: approvers are assigned
(two at least from 10,000.00 on), each approves in turn, any of them can deny;
editing a bill's amounts sends it back through every approver. Only approved
bills are paid: a payment is scheduled on a business day from today on, by a
user allowed to pay, for at most the bill's balance not already scheduled, so
payments can be partial; scheduled payments can be cancelled until processed,
and processing settles them. A vendor paid by ACH needs its bank account and
routing number, one paid by check a mailing address. Vendor credits reduce a
bill of the same vendor by at most what the credit and the bill have left.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    City,
    CompanyName,
    Country,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    PersonName,
    Phone,
    PostalCode,
    Text,
)
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "billpay",
    title="Settle Payables",
    category="accounts_payable",
    modeled_on="BILL v3 API (accounts payable: vendors, bills with line items, approval policies and approvers, "
    "payments with process dates, vendor credits, organization users and roles)",
    description="Accounts payable: the vendors the company pays, their bills with line items, sequential bill "
    "approvals, scheduled (and partial) payments, cancelling and processing them, and vendor credits applied to bills.",
)

UserId = Annotated[str, IdOf("billpay.user")]
VendorId = Annotated[str, IdOf("billpay.vendor")]
BillId = Annotated[str, IdOf("billpay.bill")]
PaymentId = Annotated[str, IdOf("billpay.payment")]
CreditId = Annotated[str, IdOf("billpay.vendor_credit")]

Amount = Annotated[int, Field(gt=0, le=10**11)]
"""A positive amount in cents."""
Routing = Annotated[str, StringConstraints(pattern=r"^[0-9]{9}$")]
"""A nine-digit ABA routing number."""
Street = Annotated[str, StringConstraints(min_length=1, max_length=120, strip_whitespace=True)]
"""A street address line."""

Role = Literal["ADMINISTRATOR", "ACCOUNTANT", "APPROVER", "CLERK", "PAYER"]
PayBy = Literal["ACH", "CHECK", "VIRTUAL_CARD"]
ApprovalStatus = Literal["UNASSIGNED", "ASSIGNED", "APPROVING", "APPROVED", "DENIED"]
PaymentStatus = Literal["UNPAID", "SCHEDULED", "PARTIAL", "PAID"]
GlAccount = Literal[
    "5000 Cost of goods sold",
    "6100 Office supplies",
    "6200 Software subscriptions",
    "6300 Professional services",
    "6400 Rent",
    "6500 Utilities",
    "6600 Travel",
    "6700 Marketing",
    "6800 Repairs and maintenance",
]

TWO_APPROVERS_FROM = 1_000_000
"""Bills of 10,000.00 or more need at least two approvers (the approval policy)."""
MAX_APPROVERS = 5
MAX_LINES = 100
CREATE_ROLES: frozenset[str] = frozenset({"ADMINISTRATOR", "ACCOUNTANT", "CLERK"})
APPROVE_ROLES: frozenset[str] = frozenset({"ADMINISTRATOR", "ACCOUNTANT", "APPROVER"})
PAY_ROLES: frozenset[str] = frozenset({"ADMINISTRATOR", "PAYER"})


class User(Record):
    """A member of the company's organization and the role that decides what they may do."""

    id: UserId
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail (the login)."""
    role: Role
    """ADMINISTRATOR, ACCOUNTANT, APPROVER, CLERK or PAYER."""
    is_active: bool = True
    """Whether they may still sign in."""


class Vendor(Timestamped):
    """A vendor the company pays."""

    id: VendorId
    name: CompanyName
    """The vendor's name (unique among active vendors)."""
    account_type: Literal["BUSINESS", "PERSON"] = "BUSINESS"
    """BUSINESS or PERSON."""
    email: Email | None = None
    """Where remittance notices go."""
    phone: Phone | None = None
    """The vendor's phone."""
    address_line: Street | None = None
    """Street address (needed to pay by check)."""
    city: City | None = None
    """City."""
    postal_code: PostalCode | None = None
    """Postal code."""
    country: Country | None = None
    """Country."""
    pay_by: PayBy = "ACH"
    """ACH, CHECK or VIRTUAL_CARD."""
    bank_account_number: AccountNumber | None = None
    """The vendor's bank account (needed for ACH)."""
    routing_number: Routing | None = None
    """Its routing number (needed for ACH)."""
    net_terms_days: Annotated[int, Field(ge=0, le=120)] = 30
    """Default days from invoice date to due date."""
    is_active: bool = True
    """False once archived: no new bills, credits or payments."""


class BillLine(Value):
    """One line of a bill."""

    description: Annotated[str, StringConstraints(min_length=1, max_length=200, strip_whitespace=True)]
    """What was bought."""
    amount: Amount
    """The line's amount in cents."""
    gl_account: GlAccount = "6300 Professional services"
    """The expense account it is booked to."""


class Bill(Timestamped):
    """A vendor's invoice to be approved and paid."""

    id: BillId
    vendor_id: VendorId
    """The vendor."""
    vendor_name: CompanyName
    """The vendor's name."""
    invoice_number: InvoiceNumber
    """The vendor's invoice number (unique per vendor)."""
    invoice_date: Date
    """The invoice's date."""
    due_date: Date
    """When it is due."""
    line_items: tuple[BillLine, ...]
    """Its lines; the amount is their sum."""
    amount: Cents
    """The bill's total in cents."""
    currency: Literal["USD"] = "USD"
    """Bills are paid in US dollars."""
    paid_amount: Cents = 0
    """What processed payments settled."""
    credit_applied: Cents = 0
    """What vendor credits settled."""
    scheduled_amount: Cents = 0
    """What scheduled, not yet processed payments will settle."""
    balance: Cents
    """What is still owed (amount less payments and credits)."""
    payment_status: PaymentStatus = "UNPAID"
    """UNPAID, SCHEDULED, PARTIAL or PAID."""
    approval_status: ApprovalStatus = "UNASSIGNED"
    """UNASSIGNED, ASSIGNED, APPROVING, APPROVED or DENIED."""
    approvers: tuple[Email, ...] = ()
    """Who approves it, in order."""
    approved_by: tuple[Email, ...] = ()
    """Who approved it so far."""
    denied_reason: str | None = None
    """Why it was denied."""
    created_by_email: Email
    """Who entered it."""
    description: Text = ""
    """A note."""


class Payment(Created):
    """A payment of a bill, scheduled for a process date."""

    id: PaymentId
    bill_id: BillId
    """The bill."""
    vendor_id: VendorId
    """The vendor paid."""
    amount: Amount
    """The amount in cents."""
    process_date: Date
    """When the money leaves the funding account."""
    pay_by: PayBy
    """How the vendor is paid."""
    status: Literal["SCHEDULED", "PAID", "CANCELED"] = "SCHEDULED"
    """SCHEDULED, PAID (processed) or CANCELED."""
    created_by_email: Email
    """Who scheduled it."""
    paid_at: DateTime | None = None
    """When it was processed."""


class CreditApplication(Value):
    """A part of a credit applied to a bill."""

    bill_id: BillId
    """The bill."""
    amount: Amount
    """How much of the credit went to it."""


class VendorCredit(Created):
    """A credit a vendor granted (a refund or a credit memo) that reduces its bills."""

    id: CreditId
    vendor_id: VendorId
    """The vendor."""
    ref_number: InvoiceNumber
    """The vendor's credit memo number (unique per vendor)."""
    credit_date: Date
    """Its date."""
    amount: Amount
    """Its amount in cents."""
    applied_amount: Cents = 0
    """How much was applied to bills."""
    status: Literal["OPEN", "PARTIALLY_APPLIED", "FULLY_APPLIED"] = "OPEN"
    """OPEN, PARTIALLY_APPLIED or FULLY_APPLIED."""
    applications: tuple[CreditApplication, ...] = ()
    """Where it was applied."""
    memo: Text = ""
    """Why it was granted."""


class ProcessedPayments(Value):
    """What a processing run settled."""

    payment_ids: tuple[PaymentId, ...]
    """The payments now PAID."""
    total: Cents
    """Their total in cents."""


# -- rules ------------------------------------------------------------------------------------


def _money(cents: int) -> str:
    return f"{cents / 100:,.2f}"


def _user(ctx: Ctx, email: str, roles: frozenset[str], field: str, what: str) -> User:
    user = ctx.first(User, email=email)
    if user is None or not user.is_active or user.role not in roles:
        allowed = sorted(u.email for u in ctx.where(User, is_active=True) if u.role in roles)
        have = "not a user" if user is None else ("inactive" if not user.is_active else f"a {user.role}")
        raise RuleViolation(
            f"{email} may not {what}: {have}; it needs the role {' or '.join(sorted(roles))}",
            field=field,
            hint=f"use one of: {', '.join(allowed)}",
        )
    return user


def _status(amount: int, paid: int, credit: int, scheduled: int) -> PaymentStatus:
    if paid + credit >= amount:
        return "PAID"
    if paid + credit > 0:
        return "PARTIAL"
    return "SCHEDULED" if scheduled else "UNPAID"


def _settle(ctx: Ctx, bill: Bill, *, paid: int = 0, credit: int = 0, scheduled: int = 0) -> Bill:
    p, c, s = bill.paid_amount + paid, bill.credit_applied + credit, bill.scheduled_amount + scheduled
    return ctx.update(
        bill,
        paid_amount=p,
        credit_applied=c,
        scheduled_amount=s,
        balance=bill.amount - p - c,
        payment_status=_status(bill.amount, p, c, s),
    )


def _active_vendor(ctx: Ctx, vendor_id: str, field: str = "vendor_id") -> Vendor:
    vendor = ctx.get(Vendor, vendor_id, field=field)
    if not vendor.is_active:
        raise RuleViolation(
            f"vendor {vendor.name} is archived", field=field, hint="archived vendors get no bills, credits or payments"
        )
    return vendor


def _check_lines(lines: list[BillLine], amount: int) -> None:
    if not 1 <= len(lines) <= MAX_LINES:
        raise RuleViolation(
            f"a bill has 1 to {MAX_LINES} line items", field="line_items", hint="list what the invoice charges"
        )
    total = sum(line.amount for line in lines)
    if total != amount:
        raise RuleViolation(
            f"the amount {_money(amount)} does not match the line items, which add up to {_money(total)}",
            field="amount",
            hint=f"give amount {total} (cents), or correct the lines",
        )


def _check_invoice(ctx: Ctx, vendor: Vendor, number: str, bill_id: str | None) -> None:
    for other in ctx.where(Bill, vendor_id=vendor.id, invoice_number=number):
        if other.id != bill_id:
            raise Conflict(
                f"{vendor.name} already has a bill with invoice number {number} ({other.id})",
                field="invoice_number",
                hint="this looks like a duplicate: open that bill instead, or check the number",
            )


def _payable(bill: Bill) -> int:
    return bill.balance - bill.scheduled_amount


# -- guards -----------------------------------------------------------------------------------


def _guard_vendor(ctx: Ctx, new: Any, old: Any) -> None:
    if new.pay_by == "ACH" and (new.bank_account_number is None or new.routing_number is None):
        raise RuleViolation(
            "an ACH vendor needs its bank account and routing number",
            field="bank_account_number",
            hint="add bank_account_number and routing_number, or pay by CHECK",
        )
    if new.pay_by == "CHECK" and None in (new.address_line, new.city, new.postal_code, new.country):
        raise RuleViolation(
            "a vendor paid by check needs a full mailing address",
            field="address_line",
            hint="add address_line, city, postal_code and country",
        )
    if new.pay_by == "VIRTUAL_CARD" and new.email is None:
        raise RuleViolation(
            "virtual card payments are e-mailed to the vendor", field="email", hint="add the vendor's e-mail"
        )
    for other in ctx.where(Vendor, name=new.name, is_active=True):
        if other.id != new.id and new.is_active:
            raise Conflict(
                f"an active vendor named {new.name} exists ({other.id})",
                field="name",
                hint="use that vendor, or archive it first",
            )
    if old is not None and old.is_active and not new.is_active:
        pending = [p for p in ctx.where(Payment, vendor_id=new.id, status="SCHEDULED")]
        if pending:
            raise RuleViolation(
                f"vendor {new.name} has {len(pending)} scheduled payment(s)",
                field="vendor_id",
                hint="cancel them with billpay__cancel_payment or let them process first",
            )


def _guard_credit(ctx: Ctx, new: Any, old: Any) -> None:
    vendor = _active_vendor(ctx, new.vendor_id)
    for other in ctx.where(VendorCredit, vendor_id=vendor.id, ref_number=new.ref_number):
        if other.id != new.id:
            raise Conflict(
                f"{vendor.name} already has credit {new.ref_number} ({other.id})",
                field="ref_number",
                hint="that credit is recorded: apply it with billpay__apply_vendor_credit",
            )


vendors = service.resource(
    Vendor,
    name="vendor",
    plural="vendors",
    prefix="vnd",
    create=False,
    get=False,
    filters=("is_active", "pay_by", "country", "email"),
    search=("name",),
    update=(
        "email",
        "phone",
        "address_line",
        "city",
        "postal_code",
        "country",
        "pay_by",
        "bank_account_number",
        "routing_number",
        "net_terms_days",
    ),
    delete=False,
    transitions={
        "archive": Transition(
            "is_active",
            (True,),
            False,
            "archive the vendor",
            description="Archive a vendor: it gets no new bills, credits or payments. Refused while payments to it "
            "are scheduled.",
        ),
    },
    guard_update=_guard_vendor,
)
users = service.resource(
    User, name="user", plural="users", prefix="usr", create=False, get=False, filters=None, delete=False
)
bills = service.resource(
    Bill,
    name="bill",
    plural="bills",
    prefix="bil",
    create=False,
    filters=("vendor_id", "invoice_number", "payment_status", "approval_status", "due_date", "created_by_email"),
    search=("vendor_name", "invoice_number", "description"),
    delete=False,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pmt",
    create=False,
    get=False,
    filters=("bill_id", "vendor_id", "status", "process_date"),
    delete=False,
)
credits = service.resource(
    VendorCredit,
    name="vendor_credit",
    plural="vendor_credits",
    prefix="vcr",
    create=("vendor_id", "ref_number", "credit_date", "amount", "memo"),
    get=False,
    filters=("vendor_id", "status"),
    search=("ref_number", "memo"),
    delete=False,
    guard_create=_guard_credit,
    title="vendor credit",
)


# -- examples ---------------------------------------------------------------------------------


def _first_user(ctx: Ctx, roles: frozenset[str]) -> User | None:
    return next((u for u in ctx.where(User, is_active=True) if u.role in roles), None)


def _example_bill(ctx: Ctx) -> dict[str, Any] | None:
    vendor, clerk = ctx.first(Vendor, is_active=True), _first_user(ctx, CREATE_ROLES)
    if vendor is None or clerk is None:
        return None
    return {
        "vendor_id": vendor.id,
        "invoice_number": "INV-EX-1001",
        "invoice_date": ctx.today().isoformat(),
        "amount": 45000,
        "line_items": [
            {"description": "Consulting, March", "amount": 40000},
            {"description": "Travel", "amount": 5000, "gl_account": "6600 Travel"},
        ],
        "created_by_email": clerk.email,
    }


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    bill = ctx.first(Bill, approval_status="UNASSIGNED")
    approvers = [u.email for u in ctx.where(User, is_active=True) if u.role in APPROVE_ROLES][:2]
    return None if bill is None or len(approvers) < 2 else {"bill_id": bill.id, "approvers": approvers}


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for status in ("ASSIGNED", "APPROVING"):
        for bill in ctx.where(Bill, approval_status=status):
            return {"bill_id": bill.id, "approver_email": bill.approvers[len(bill.approved_by)]}
    return None


def _example_deny(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_approve(ctx)
    return None if found is None else found | {"reason": "Hours do not match the timesheet."}


def _next_business_day(day: dt.date) -> dt.date:
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return day


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    payer = _first_user(ctx, PAY_ROLES)
    for bill in ctx.where(Bill, approval_status="APPROVED"):
        vendor = ctx.get(Vendor, bill.vendor_id)
        if payer is not None and vendor.is_active and _payable(bill) > 0:
            return {
                "bill_id": bill.id,
                "amount": _payable(bill),
                "process_date": _next_business_day(ctx.today() + dt.timedelta(days=1)).isoformat(),
                "payer_email": payer.email,
            }
    return None


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for credit in ctx.scan(VendorCredit):
        left = credit.amount - credit.applied_amount
        for bill in ctx.where(Bill, vendor_id=credit.vendor_id):
            if left and bill.approval_status != "DENIED" and _payable(bill) > 0:
                return {"vendor_credit_id": credit.id, "bill_id": bill.id, "amount": min(left, _payable(bill))}
    return None


@service.tool(
    intent="add a vendor",
    write=True,
    example=fixed_example(
        name="Northwind Office Supply",
        email="ap@northwind-office.example",
        pay_by="CHECK",
        address_line="12 Harbor Road",
        city="Portland",
        postal_code="97201",
        country="US",
    ),
)
def create_vendor(
    ctx: Ctx,
    name: CompanyName,
    pay_by: PayBy,
    email: Email | None = None,
    phone: Phone | None = None,
    address_line: Street | None = None,
    city: City | None = None,
    postal_code: PostalCode | None = None,
    country: Country | None = None,
    bank_account_number: AccountNumber | None = None,
    routing_number: Routing | None = None,
    net_terms_days: Annotated[int, Field(ge=0, le=120)] = 30,
    account_type: Literal["BUSINESS", "PERSON"] = "BUSINESS",
) -> Vendor:
    """Add a vendor with how it is paid.

    ACH needs the bank account and routing number, CHECK a full mailing address,
    VIRTUAL_CARD an e-mail; the name is unique among active vendors.

    Args:
        name: The vendor's name.
        pay_by: ACH, CHECK or VIRTUAL_CARD.
        email: Where remittance notices go.
        phone: The vendor's phone.
        address_line: Street address.
        city: City.
        postal_code: Postal code.
        country: Country.
        bank_account_number: Bank account (ACH).
        routing_number: Nine-digit routing number (ACH).
        net_terms_days: Default days from invoice date to due date.
        account_type: BUSINESS or PERSON.
    """
    vendor = ctx.create(
        Vendor,
        name=name,
        pay_by=pay_by,
        email=email,
        phone=phone,
        address_line=address_line,
        city=city,
        postal_code=postal_code,
        country=country,
        bank_account_number=bank_account_number,
        routing_number=routing_number,
        net_terms_days=net_terms_days,
        account_type=account_type,
    )
    _guard_vendor(ctx, vendor, None)
    return vendor


# -- bills ------------------------------------------------------------------------------------


@service.tool(intent="enter the vendor's bill", write=True, example=_example_bill)
def create_bill(
    ctx: Ctx,
    vendor_id: VendorId,
    invoice_number: InvoiceNumber,
    invoice_date: Date,
    amount: Amount,
    line_items: list[BillLine],
    created_by_email: Email,
    due_date: Date | None = None,
    description: Text = "",
) -> Bill:
    """Enter a vendor's invoice as a bill; it waits for approvers (UNASSIGNED) and is UNPAID.

    The amount must equal the sum of the line items; the invoice number is
    unique per vendor; the due date (default: invoice date plus the vendor's net
    terms) is not before the invoice date. Only active vendors get bills, and
    only administrators, accountants and clerks enter them.

    Args:
        vendor_id: The vendor.
        invoice_number: The vendor's invoice number.
        invoice_date: The invoice's date.
        amount: The total in cents.
        line_items: The lines (description, amount in cents, expense account).
        created_by_email: Who enters it.
        due_date: When it is due.
        description: A note.
    """
    vendor = _active_vendor(ctx, vendor_id)
    _user(ctx, created_by_email, CREATE_ROLES, "created_by_email", "enter bills")
    _check_lines(line_items, amount)
    _check_invoice(ctx, vendor, invoice_number, None)
    due = due_date or invoice_date + dt.timedelta(days=vendor.net_terms_days)
    if due < invoice_date:
        raise RuleViolation(
            f"the due date {due} is before the invoice date {invoice_date}",
            field="due_date",
            hint="give a due date on or after the invoice date",
        )
    return ctx.create(
        Bill,
        vendor_id=vendor.id,
        vendor_name=vendor.name,
        invoice_number=invoice_number,
        invoice_date=invoice_date,
        due_date=due,
        line_items=tuple(line_items),
        amount=amount,
        balance=amount,
        created_by_email=created_by_email,
        description=description,
    )


@service.tool(
    intent="correct the bill's amounts",
    write=True,
    example=first_example(
        Bill,
        "bill_id",
        where={"approval_status": "APPROVING"},
        amount=150000,
        line_items=[{"description": "Corrected services", "amount": 150000}],
    ),
)
def edit_bill(
    ctx: Ctx,
    bill_id: BillId,
    amount: Amount,
    line_items: list[BillLine],
    due_date: Date | None = None,
) -> Bill:
    """Replace a bill's line items and amount; its approvals start over from the first approver.

    Refused once a payment was scheduled or made or a credit applied.

    Args:
        bill_id: The bill.
        amount: The new total in cents (the sum of the lines).
        line_items: The new lines.
        due_date: A new due date.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.paid_amount or bill.scheduled_amount or bill.credit_applied:
        raise RuleViolation(
            f"bill {bill.invoice_number} has payments or credits ({bill.payment_status}) and cannot be edited",
            field="bill_id",
            hint="cancel its scheduled payments first; a paid bill cannot change",
        )
    _check_lines(line_items, amount)
    due = due_date or bill.due_date
    if due < bill.invoice_date:
        raise RuleViolation("the due date is before the invoice date", field="due_date", hint="give a later due date")
    status: ApprovalStatus = "ASSIGNED" if bill.approvers else "UNASSIGNED"
    return ctx.update(
        bill,
        line_items=tuple(line_items),
        amount=amount,
        balance=amount,
        due_date=due,
        approval_status=status,
        approved_by=(),
        denied_reason=None,
    )


@service.tool(intent="assign the bill's approvers", write=True, example=_example_assign)
def assign_bill_approvers(ctx: Ctx, bill_id: BillId, approvers: list[Email]) -> Bill:
    """Set who approves a bill, in order (1-5 people; at least two from 10,000.00); approval starts over.

    Approvers are active administrators, accountants or approvers. A bill that
    is approved or has payments keeps its approvals.

    Args:
        bill_id: The bill.
        approvers: Their e-mails, in the order they approve.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.approval_status == "APPROVED" or bill.payment_status != "UNPAID":
        raise Conflict(
            f"bill {bill.invoice_number} is already {bill.approval_status.lower()}",
            field="bill_id",
            hint="edit the bill with billpay__edit_bill to send it through approval again",
        )
    if not 1 <= len(approvers) <= MAX_APPROVERS or len(set(approvers)) != len(approvers):
        raise RuleViolation(
            f"name 1 to {MAX_APPROVERS} different approvers", field="approvers", hint="list each approver once"
        )
    need = 2 if bill.amount >= TWO_APPROVERS_FROM else 1
    if len(approvers) < need:
        raise RuleViolation(
            f"the approval policy needs {need} approvers for a bill of {_money(bill.amount)}",
            field="approvers",
            hint="add a second approver",
        )
    for email in approvers:
        _user(ctx, email, APPROVE_ROLES, "approvers", "approve bills")
    return ctx.update(bill, approvers=tuple(approvers), approved_by=(), approval_status="ASSIGNED", denied_reason=None)


def _pending_approver(bill: Bill, email: str) -> None:
    if bill.approval_status not in ("ASSIGNED", "APPROVING"):
        raise RuleViolation(
            f"bill {bill.invoice_number} is not waiting for approval ({bill.approval_status})",
            field="bill_id",
            hint="assign approvers with billpay__assign_bill_approvers"
            if bill.approval_status == "UNASSIGNED"
            else "nothing to approve",
        )
    turn = bill.approvers[len(bill.approved_by)]
    if email != turn:
        raise RuleViolation(
            f"bill {bill.invoice_number} waits for {turn}"
            + (" (already approved by you)" if email in bill.approved_by else ""),
            field="approver_email",
            hint="approvals go in the assigned order",
        )


@service.tool(intent="approve the bill", write=True, example=_example_approve)
def approve_bill(ctx: Ctx, bill_id: BillId, approver_email: Email) -> Bill:
    """Approve a bill as the approver whose turn it is; the last approval makes it APPROVED (payable).

    Args:
        bill_id: The bill.
        approver_email: Who approves.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    _pending_approver(bill, approver_email)
    done = (*bill.approved_by, approver_email)
    status: ApprovalStatus = "APPROVED" if len(done) == len(bill.approvers) else "APPROVING"
    return ctx.update(bill, approved_by=done, approval_status=status)


@service.tool(intent="deny the bill", write=True, example=_example_deny)
def deny_bill(ctx: Ctx, bill_id: BillId, approver_email: Email, reason: Text) -> Bill:
    """Deny a bill as the approver whose turn it is: it is DENIED and cannot be paid until edited or reassigned.

    Args:
        bill_id: The bill.
        approver_email: Who denies it.
        reason: Why.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    _pending_approver(bill, approver_email)
    if not reason.strip():
        raise RuleViolation("say why the bill is denied", field="reason", hint="give a reason")
    return ctx.update(bill, approval_status="DENIED", denied_reason=reason.strip())


# -- payments and credits ---------------------------------------------------------------------


@service.tool(intent="schedule a payment of the bill", write=True, example=_example_pay)
def pay_bill(ctx: Ctx, bill_id: BillId, amount: Amount, process_date: Date, payer_email: Email) -> Payment:
    """Schedule a payment of an approved bill for a business day from today on; it may be partial.

    The amount is at most the bill's balance less what is already scheduled;
    the vendor must be active; only administrators and payers pay.

    Args:
        bill_id: The bill.
        amount: The amount in cents.
        process_date: When the money leaves (a weekday, today or later).
        payer_email: Who schedules it.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.approval_status != "APPROVED":
        raise RuleViolation(
            f"bill {bill.invoice_number} is not approved ({bill.approval_status})",
            field="bill_id",
            hint="get it approved first (billpay__assign_bill_approvers, billpay__approve_bill)",
        )
    if bill.payment_status == "PAID":
        raise Conflict(f"bill {bill.invoice_number} is already paid", field="bill_id", hint="nothing to pay")
    vendor = _active_vendor(ctx, bill.vendor_id, field="bill_id")
    _user(ctx, payer_email, PAY_ROLES, "payer_email", "pay bills")
    left = _payable(bill)
    if amount > left:
        raise RuleViolation(
            f"{_money(amount)} exceeds what is left to pay on {bill.invoice_number}: {_money(left)} "
            f"(balance {_money(bill.balance)}, scheduled {_money(bill.scheduled_amount)})",
            field="amount",
            hint=f"pay at most {left} cents" if left else "the whole balance is already scheduled",
        )
    if process_date < ctx.today() or process_date.weekday() >= 5:
        raise RuleViolation(
            f"the process date {process_date} is not a business day from today on",
            field="process_date",
            hint=f"use {_next_business_day(max(process_date, ctx.today())).isoformat()} or later",
        )
    _settle(ctx, bill, scheduled=amount)
    return ctx.create(
        Payment,
        bill_id=bill.id,
        vendor_id=vendor.id,
        amount=amount,
        process_date=process_date,
        pay_by=vendor.pay_by,
        created_by_email=payer_email,
    )


@service.tool(
    intent="cancel the scheduled payment",
    write=True,
    destructive=True,
    example=first_example(Payment, "payment_id", where={"status": "SCHEDULED"}),
)
def cancel_payment(ctx: Ctx, payment_id: PaymentId) -> Payment:
    """Cancel a scheduled payment before it is processed; the bill's amount is payable again.

    Args:
        payment_id: The payment.
    """
    payment = ctx.get(Payment, payment_id, field="payment_id")
    if payment.status != "SCHEDULED":
        raise Conflict(
            f"payment {payment.id} is {payment.status} and can no longer be cancelled",
            field="payment_id",
            hint="only scheduled payments can be cancelled",
        )
    _settle(ctx, ctx.get(Bill, payment.bill_id), scheduled=-payment.amount)
    return ctx.update(payment, status="CANCELED")


@service.tool(intent="process the payments due", write=True, example=fixed_example())
def process_payments(ctx: Ctx) -> ProcessedPayments:
    """Process every scheduled payment whose process date has come: it is PAID and settles its bill."""
    today = ctx.today()
    done: list[Payment] = []
    for payment in ctx.where(Payment, status="SCHEDULED"):
        if payment.process_date <= today:
            bill = ctx.get(Bill, payment.bill_id)
            _settle(ctx, bill, paid=payment.amount, scheduled=-payment.amount)
            done.append(ctx.update(payment, status="PAID", paid_at=ctx.now()))
    return ProcessedPayments(payment_ids=tuple(p.id for p in done), total=sum(p.amount for p in done))


@service.tool(intent="apply the vendor credit to the bill", write=True, example=_example_apply)
def apply_vendor_credit(ctx: Ctx, vendor_credit_id: CreditId, bill_id: BillId, amount: Amount) -> VendorCredit:
    """Apply part of a vendor credit to a bill of the same vendor; it reduces the bill's balance.

    At most what the credit has left and what the bill has left to pay (balance
    less scheduled payments); denied bills take no credit.

    Args:
        vendor_credit_id: The credit.
        bill_id: The bill.
        amount: How much, in cents.
    """
    credit = ctx.get(VendorCredit, vendor_credit_id, field="vendor_credit_id")
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.vendor_id != credit.vendor_id:
        raise RuleViolation(
            f"credit {credit.ref_number} is from another vendor than bill {bill.invoice_number} ({bill.vendor_name})",
            field="bill_id",
            hint="apply it to a bill of the same vendor",
        )
    _active_vendor(ctx, credit.vendor_id, field="vendor_credit_id")
    if bill.approval_status == "DENIED":
        raise RuleViolation(f"bill {bill.invoice_number} is denied", field="bill_id", hint="edit or reassign it first")
    left = credit.amount - credit.applied_amount
    if amount > left:
        raise RuleViolation(
            f"credit {credit.ref_number} has {_money(left)} left",
            field="amount",
            hint=f"apply at most {left} cents",
        )
    if amount > _payable(bill):
        raise RuleViolation(
            f"bill {bill.invoice_number} has {_money(_payable(bill))} left to pay",
            field="amount",
            hint=f"apply at most {_payable(bill)} cents",
        )
    _settle(ctx, bill, credit=amount)
    applied = credit.applied_amount + amount
    return ctx.update(
        credit,
        applied_amount=applied,
        status="FULLY_APPLIED" if applied == credit.amount else "PARTIALLY_APPLIED",
        applications=(*credit.applications, CreditApplication(bill_id=bill.id, amount=amount)),
    )


# -- seed -------------------------------------------------------------------------------------

ROLES: tuple[Role, ...] = ("ADMINISTRATOR", "ACCOUNTANT", "CLERK", "APPROVER", "APPROVER", "PAYER", "ACCOUNTANT")
LINES: tuple[tuple[str, GlAccount, int], ...] = (
    ("Cloud hosting, monthly plan", "6200 Software subscriptions", 182_000),
    ("Consulting hours", "6300 Professional services", 640_000),
    ("Printer paper and toner", "6100 Office supplies", 23_450),
    ("Office rent, warehouse unit", "6400 Rent", 1_150_000),
    ("Electricity", "6500 Utilities", 41_275),
    ("Trade fair booth", "6700 Marketing", 375_000),
    ("HVAC repair", "6800 Repairs and maintenance", 96_800),
    ("Components for assembly", "5000 Cost of goods sold", 1_480_000),
)
# (approval state, payment plan) per seeded bill
PLANS: tuple[tuple[str, str], ...] = (
    ("UNASSIGNED", "none"),
    ("ASSIGNED", "none"),
    ("APPROVING", "none"),
    ("APPROVED", "none"),
    ("APPROVED", "scheduled"),
    ("APPROVED", "partial"),
    ("APPROVED", "paid"),
    ("DENIED", "none"),
    ("APPROVED", "none"),
    ("UNASSIGNED", "none"),
    ("APPROVED", "paid"),
    ("ASSIGNED", "none"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Finance users with roles, vendors from the population's companies, bills in every state, payments, credits."""
    pop = s.population
    finance = pop.staff("Finance", fallback=7)
    team = [
        s.create(User, name=p.name, email=p.email, role=ROLES[k % len(ROLES)], is_active=k != 6)
        for k, p in enumerate(finance[:7])
    ]
    clerk = next(u for u in team if u.role in CREATE_ROLES)
    eligible = [u for u in team if u.role in APPROVE_ROLES and u.is_active]
    approvers = [u.email for u in sorted(eligible, key=lambda u: (u.role != "APPROVER", u.id))]
    payer = next(u for u in sorted(team, key=lambda u: u.role != "PAYER") if u.role in PAY_ROLES)
    today = s.now.date()
    companies = list(pop.customers[-12:])
    made: list[Vendor] = []
    for k, company in enumerate(companies):
        contact = pop.first_contact(company)
        pay_by: PayBy = ("ACH", "CHECK", "ACH", "VIRTUAL_CARD")[k % 4]
        made.append(
            s.create(
                Vendor,
                name=company.name,
                email=contact.email if contact else f"billing@{company.domain}",
                phone=company.phone,
                address_line=company.address.street,
                city=company.address.city,
                postal_code=company.address.postal_code,
                country=company.address.country,
                pay_by=pay_by,
                bank_account_number=f"{40_000_000 + 7919 * k}" if pay_by == "ACH" else None,
                routing_number=f"0{21_000_021 + 37 * k}" if pay_by == "ACH" else None,
                net_terms_days=(30, 15, 45, 30)[k % 4],
                is_active=k != len(companies) - 1,
                created_at=s.now - dt.timedelta(days=200 - 5 * k),
                updated_at=s.now - dt.timedelta(days=200 - 5 * k),
            )
        )
    for k, (approval, plan) in enumerate(PLANS):
        vendor = made[k % (len(made) - 1)]
        desc, gl, cents = LINES[k % len(LINES)]
        lines: tuple[BillLine, ...] = (BillLine(description=desc, amount=cents, gl_account=gl),)
        if k % 3 == 1:
            lines += (BillLine(description="Delivery", amount=4_500, gl_account="6100 Office supplies"),)
        amount = sum(line.amount for line in lines)
        invoice_date = today - dt.timedelta(days=40 - 3 * k)
        chosen = approvers[:2] if amount >= TWO_APPROVERS_FROM or k % 2 else approvers[:1]
        extra: dict[str, Any] = {}
        if approval != "UNASSIGNED":
            extra = {"approvers": tuple(chosen), "approval_status": approval}
            if approval == "APPROVING":
                extra["approvers"] = tuple(approvers[:2])
                extra["approved_by"] = tuple(approvers[:1])
            elif approval == "APPROVED":
                extra["approved_by"] = tuple(chosen)
            elif approval == "DENIED":
                extra["denied_reason"] = "Duplicate of last month's invoice."
        bill = s.create(
            Bill,
            vendor_id=vendor.id,
            vendor_name=vendor.name,
            invoice_number=f"INV-{2600 + 17 * k}",
            invoice_date=invoice_date,
            due_date=invoice_date + dt.timedelta(days=vendor.net_terms_days),
            line_items=lines,
            amount=amount,
            balance=amount,
            created_by_email=clerk.email,
            created_at=s.now - dt.timedelta(days=38 - 3 * k),
            updated_at=s.now - dt.timedelta(days=30 - 2 * k),
            **extra,
        )
        _seed_payments(s, bill, vendor, plan, payer.email, today, k)
    for k, vendor in enumerate(made[:3]):
        s.create(
            VendorCredit,
            vendor_id=vendor.id,
            ref_number=f"CM-{880 + k}",
            credit_date=today - dt.timedelta(days=10 + k),
            amount=(25_000, 60_000, 12_500)[k],
            memo=("Returned goods", "Service outage refund", "Volume discount")[k],
            created_at=s.now - dt.timedelta(days=10 + k),
        )


def _seed_payments(s: SeedContext, bill: Bill, vendor: Vendor, plan: str, payer: str, today: dt.date, k: int) -> None:
    if plan == "none":
        return
    if plan == "scheduled":
        day = _next_business_day(today + dt.timedelta(days=3))
        s.create(
            Payment,
            bill_id=bill.id,
            vendor_id=vendor.id,
            amount=bill.amount,
            process_date=day,
            pay_by=vendor.pay_by,
            created_by_email=payer,
            created_at=s.now - dt.timedelta(days=1),
        )
        s.update(bill, scheduled_amount=bill.amount, payment_status="SCHEDULED")
        return
    part = bill.amount if plan == "paid" else bill.amount // 2
    day = _next_business_day(today - dt.timedelta(days=12 - k))
    if day > today:
        day = today - dt.timedelta(days=3)
    s.create(
        Payment,
        bill_id=bill.id,
        vendor_id=vendor.id,
        amount=part,
        process_date=day,
        pay_by=vendor.pay_by,
        status="PAID",
        created_by_email=payer,
        paid_at=s.now - dt.timedelta(days=(today - day).days),
        created_at=s.now - dt.timedelta(days=(today - day).days + 2),
    )
    s.update(
        bill,
        paid_amount=part,
        balance=bill.amount - part,
        payment_status="PAID" if part == bill.amount else "PARTIAL",
    )
