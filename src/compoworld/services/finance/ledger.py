"""Keel Ledger: general ledger, manual journals, vendor bills, bill payments and bank reconciliation.

Modeled on the Xero Accounting API 2.0 (Accounts, ManualJournals, Contacts as
suppliers, Invoices of type ACCPAY as bills, Payments, BankStatementLines and
reconciliation, the organisation's period lock date): a journal is posted only
when its debits equal its credits, manual journals cannot touch bank accounts,
nothing dated on or before the lock date is posted, voided or paid, a bill's
total is computed from its lines and approving it posts it to Accounts Payable,
a payment cannot exceed what is still due, a bill with payments cannot be
voided, and a bank statement line reconciles only with a posted entry of the
same account, direction and amount.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    OrderNumber,
    PersonName,
    Phone,
    PostalAddress,
    Sku,
    Text,
    Title,
)
from compoworld.services.finance._shared import term_days
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Value
from compoworld.services.kit.time import utc_at
from compoworld.world import finance as links

__all__ = ["service"]

service = Service(
    "ledger",
    title="Keel Ledger",
    category="accounting",
    modeled_on="Xero Accounting API 2.0 (Accounts, ManualJournals, Contacts, Invoices ACCPAY, Payments, "
    "BankStatementLines reconciliation, Organisation lock date)",
    description="Double-entry bookkeeping: the chart of accounts, manual journals that must balance, supplier "
    "bills posted to accounts payable and paid from bank accounts, bank statement reconciliation, the period lock "
    "date and the trial balance.",
)

AccountId = Annotated[str, IdOf("ledger.account")]
VendorId = Annotated[str, IdOf("ledger.vendor")]
JournalId = Annotated[str, IdOf("ledger.journal_entry")]
BillId = Annotated[str, IdOf("ledger.bill")]
PaymentId = Annotated[str, IdOf("ledger.bill_payment")]
LineId = Annotated[str, IdOf("ledger.statement_line")]
OrgId = Annotated[str, IdOf("ledger.organisation")]

AccountType = Literal[
    "bank", "current_asset", "fixed_asset", "accounts_payable", "current_liability", "equity", "revenue", "expense"
]
AccountCode = Annotated[str, StringConstraints(pattern=r"^[0-9]{3,6}$")]
Terms = Literal["due_on_receipt", "net_15", "net_30", "net_45", "net_60"]
JournalStatus = Literal["draft", "posted", "voided"]
BillStatus = Literal["draft", "awaiting_payment", "paid", "voided"]
Direction = Literal["spent", "received"]
BILLABLE_TYPES: tuple[str, ...] = ("expense", "fixed_asset", "current_asset")
AP_CODE = "800"


class Organisation(Record):
    """The organisation whose books these are, with its period lock date."""

    id: OrgId
    name: CompanyName
    """Legal name."""
    base_currency: Currency
    """Currency the books are kept in."""
    lock_date: Date | None = None
    """Nothing dated on or before this date can be posted, voided or paid."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the settings last changed."""


class Account(Record):
    """An account of the chart of accounts."""

    id: AccountId
    code: AccountCode
    """Unique account code (3 to 6 digits)."""
    name: Title
    """Account name."""
    type: AccountType
    """bank, current_asset, fixed_asset, accounts_payable, current_liability, equity, revenue or expense."""
    description: Text = ""
    """What is booked to it."""
    bank_account_number: AccountNumber | None = None
    """For bank accounts: the account number at the bank."""
    status: Literal["active", "archived"] = "active"
    """Archived accounts take no new entries."""
    system: bool = False
    """System accounts (accounts payable) cannot be archived."""


class Vendor(Record):
    """A supplier the organisation receives bills from."""

    id: VendorId
    name: CompanyName
    """Company name; unique among vendors."""
    email: Email
    """Accounts e-mail address."""
    contact_name: PersonName | None = None
    """Contact person."""
    phone: Phone | None = None
    """Phone number."""
    address: PostalAddress | None = None
    """Postal address."""
    bank_account_number: AccountNumber | None = None
    """Bank account the vendor is paid to."""
    default_account_id: AccountId | None = None
    """Expense account bill lines default to."""
    payment_terms: Terms = "net_30"
    """Default due date of its bills."""
    status: Literal["active", "archived"] = "active"
    """Archived vendors cannot be billed."""


class JournalLine(Value):
    """One line of a journal: an amount debited or credited to one account."""

    account_id: AccountId = Field(description="The account.")
    description: Text = Field(default="", description="What the line is for.")
    debit: Cents = Field(default=0, description="Amount debited in cents (0 for a credit line).")
    credit: Cents = Field(default=0, description="Amount credited in cents (0 for a debit line).")


class JournalEntry(Created):
    """A journal entry: balanced debits and credits on a date."""

    id: JournalId
    number: Annotated[str, Generated("sequence", "MJ-{n:05d}")]
    """Journal number."""
    date: Date
    """Accounting date."""
    narration: Title
    """What the entry records."""
    status: JournalStatus = "draft"
    """draft (editable, may be unbalanced), posted (in the books) or voided."""
    source: Literal["manual", "bill", "bill_payment", "bank"] = "manual"
    """Where the entry came from; only manual entries are voided directly."""
    bill_id: BillId | None = None
    """The bill behind a bill or bill-payment entry."""
    lines: list[JournalLine] = Field(max_length=40)
    """The lines."""
    total_debit: Cents = 0
    """Sum of the debits in cents."""
    total_credit: Cents = 0
    """Sum of the credits in cents."""
    posted_at: DateTime | None = None
    """When it was posted."""


class BillLine(Value):
    """One line of a bill."""

    description: Text = Field(description="What was bought.")
    account_id: AccountId = Field(description="Account the line is booked to.")
    sku: Sku | None = Field(default=None, description="Product code, if the line is for a product.")
    quantity: int = Field(ge=1, le=100_000, description="Quantity.")
    unit_amount: Cents = Field(description="Price per unit in cents.")
    amount: Cents = Field(description="quantity × unit_amount in cents.")


class BillLineInput(Value):
    """A bill line as given: the amount is computed."""

    description: Text = Field(description="What was bought.")
    unit_amount: Cents = Field(description="Price per unit in cents.")
    quantity: int = Field(default=1, ge=1, le=100_000, description="Quantity.")
    account_id: AccountId | None = Field(default=None, description="Account to book to; default: the vendor's.")
    sku: Sku | None = Field(default=None, description="Product code, if any.")


class Bill(Record):
    """A supplier's invoice to the organisation (accounts payable)."""

    id: BillId
    vendor_id: VendorId
    """The supplier."""
    vendor_name: CompanyName
    """The supplier's name."""
    bill_number: InvoiceNumber
    """The supplier's invoice number; unique per supplier."""
    order_number: OrderNumber | None = None
    """Our purchase order the bill is for."""
    date: Date
    """Invoice date."""
    due_date: Date
    """When payment is due."""
    status: BillStatus = "draft"
    """draft, awaiting_payment (approved and posted), paid or voided."""
    currency: Currency
    """Currency (the books' currency)."""
    lines: list[BillLine] = Field(max_length=50)
    """The lines."""
    total: Cents = 0
    """Sum of the lines in cents."""
    amount_paid: Cents = 0
    """Paid so far in cents."""
    amount_due: Cents = 0
    """Still owed in cents."""
    journal_entry_id: JournalId | None = None
    """The entry that posted the bill to accounts payable."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class BillPayment(Record):
    """A payment of a bill from a bank account."""

    id: PaymentId
    bill_id: BillId
    """The bill paid."""
    vendor_id: VendorId
    """The supplier paid."""
    bank_account_id: AccountId
    """The bank account paid from."""
    amount: Cents
    """Amount in cents."""
    date: Date
    """Payment date."""
    pay_to_account: AccountNumber | None = None
    """The supplier's bank account."""
    reference: Text = ""
    """Payment reference."""
    journal_entry_id: JournalId
    """The entry that posted the payment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class StatementLine(Record):
    """A line of a bank statement imported from the bank feed."""

    id: LineId
    account_id: AccountId
    """The bank account."""
    date: Date
    """Transaction date at the bank."""
    direction: Direction
    """spent (money out) or received (money in)."""
    amount: Cents
    """Amount in cents."""
    payee: CompanyName | None = None
    """Counterparty as the bank reports it."""
    reference: Text = ""
    """Bank reference."""
    status: Literal["unreconciled", "reconciled"] = "unreconciled"
    """Whether it is matched to an entry in the books."""
    journal_entry_id: JournalId | None = None
    """The entry it is reconciled with."""


# -- helpers --------------------------------------------------------------------------------


def _org(ctx: Ctx) -> Organisation:
    org = ctx.first(Organisation)
    assert org is not None, "the ledger is seeded with its organisation"
    return org


def _check_unlocked(ctx: Ctx, day: dt.date, field: str, what: str) -> None:
    lock = _org(ctx).lock_date
    if lock is not None and day <= lock:
        raise RuleViolation(
            f"{what} is dated {day}, on or before the lock date {lock}",
            field=field,
            hint=f"use a date after {lock}, or move the lock date back with ledger__set_lock_date",
        )


def _after_lock(ctx: Ctx, day: dt.date) -> bool:
    """Whether ``day`` is after the lock date (any day when the books are not locked)."""
    return day > (_org(ctx).lock_date or dt.date.min)


def _active_account(ctx: Ctx, account_id: str, field: str) -> Account:
    acct = ctx.get(Account, account_id, field=field)
    if acct.status != "active":
        raise RuleViolation(
            f"account {acct.code} {acct.name} is archived", field=field, hint="book to an active account"
        )
    return acct


def _bank_account(ctx: Ctx, account_id: str, field: str) -> Account:
    acct = _active_account(ctx, account_id, field)
    if acct.type != "bank":
        raise RuleViolation(
            f"account {acct.code} {acct.name} is not a bank account",
            field=field,
            hint="pick an account of type 'bank' (ledger__list_accounts with type='bank')",
        )
    return acct


def _ap_account(ctx: Ctx) -> Account:
    acct = ctx.first(Account, code=AP_CODE)
    assert acct is not None, "the chart of accounts has accounts payable"
    return acct


def _post(
    ctx: Ctx, *, day: dt.date, narration: str, lines: list[JournalLine], source: str, bill_id: str | None
) -> JournalEntry:
    return ctx.create(
        JournalEntry,
        date=day,
        narration=narration,
        status="posted",
        source=source,
        bill_id=bill_id,
        lines=lines,
        total_debit=sum(ln.debit for ln in lines),
        total_credit=sum(ln.credit for ln in lines),
        posted_at=ctx.now(),
    )


def _guard_account_update(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "archived" and old.status != "archived":
        if old.system:
            raise RuleViolation(
                f"account {old.code} {old.name} is a system account", field="account_id", hint="it cannot be archived"
            )
        v = ctx.first(Vendor, default_account_id=old.id, status="active")
        if v is not None:
            raise RuleViolation(
                f"account {old.code} is the default account of vendor {v.name}",
                field="account_id",
                hint="give the vendor another default account with ledger__update_vendor first",
            )
    if new.bank_account_number is not None and new.type != "bank":
        raise RuleViolation(
            "only bank accounts have a bank account number",
            field="bank_account_number",
            hint="leave it empty for this account",
        )


def _guard_vendor(ctx: Ctx, new: Any, old: Any) -> None:
    if new.default_account_id is not None and (old is None or new.default_account_id != old.default_account_id):
        acct = _active_account(ctx, new.default_account_id, "default_account_id")
        if acct.type not in BILLABLE_TYPES:
            raise RuleViolation(
                f"account {acct.code} {acct.name} is a {acct.type} account",
                field="default_account_id",
                hint="bills are booked to expense or asset accounts",
            )


def _guard_journal_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise RuleViolation(
            f"journal {old.number} is {old.status}; only drafts can be deleted",
            field="journal_entry_id",
            hint="void a posted manual journal with ledger__void_journal_entry instead",
        )


organisations = service.resource(
    Organisation,
    name="organisation",
    plural="organisations",
    prefix="org",
    create=False,
    get=False,
    filters=None,
    delete=False,
)
accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acc",
    create=False,
    filters=("type", "status", "code", "bank_account_number"),
    search=("name", "code", "description"),
    update=("name", "description", "bank_account_number", "status"),
    delete=False,
    guard_update=_guard_account_update,
    title="ledger account",
)
vendors = service.resource(
    Vendor,
    name="vendor",
    plural="vendors",
    prefix="ven",
    create=(
        "name",
        "email",
        "contact_name",
        "phone",
        "address",
        "bank_account_number",
        "default_account_id",
        "payment_terms",
    ),
    filters=("status", "email", "payment_terms", "bank_account_number"),
    search=("name", "email", "contact_name"),
    update=(
        "email",
        "contact_name",
        "phone",
        "address",
        "bank_account_number",
        "default_account_id",
        "payment_terms",
        "status",
    ),
    delete=False,
    unique=("name",),
    guard_create=_guard_vendor,
    guard_update=_guard_vendor,
)
journals = service.resource(
    JournalEntry,
    name="journal_entry",
    plural="journal_entries",
    prefix="mj",
    create=False,
    filters=("status", "source", "date", "bill_id", "number"),
    search=("narration", "number"),
    guard_delete=_guard_journal_delete,
    title="journal entry",
)
bills = service.resource(
    Bill,
    name="bill",
    plural="bills",
    prefix="bill",
    create=False,
    filters=("status", "vendor_id", "bill_number", "order_number", "due_date"),
    search=("vendor_name", "bill_number"),
    delete=False,
    title="supplier bill",
)
payments = service.resource(
    BillPayment,
    name="bill_payment",
    plural="bill_payments",
    prefix="bp",
    create=False,
    get=False,
    filters=("bill_id", "vendor_id", "bank_account_id", "date"),
    delete=False,
    title="bill payment",
)
statement_lines = service.resource(
    StatementLine,
    name="statement_line",
    plural="statement_lines",
    prefix="sl",
    create=False,
    get=False,
    filters=("account_id", "status", "direction", "date", "amount"),
    search=("payee", "reference"),
    delete=False,
    title="bank statement line",
)


# -- examples -------------------------------------------------------------------------------


def _accounts_of(ctx: Ctx, type_: str) -> list[Account]:
    return ctx.where(Account, type=type_, status="active")


def _example_journal(ctx: Ctx) -> dict[str, Any]:
    exp = _accounts_of(ctx, "expense")[0]
    liab = _accounts_of(ctx, "current_liability")[0]
    return {
        "date": ctx.today().isoformat(),
        "narration": "Accrued audit fee",
        "lines": [
            {"account_id": exp.id, "debit": 1_800_00, "description": "Audit fee"},
            {"account_id": liab.id, "credit": 1_800_00, "description": "Accrual"},
        ],
        "post": True,
    }


def _example_bill(ctx: Ctx) -> dict[str, Any] | None:
    vendor = next((v for v in ctx.where(Vendor, status="active") if v.default_account_id), None)
    if vendor is None:
        return None
    return {
        "vendor_id": vendor.id,
        "bill_number": "INV-77120",
        "date": ctx.today().isoformat(),
        "lines": [{"description": "Consulting, February", "unit_amount": 95_00, "quantity": 12}],
    }


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    bill = ctx.first(Bill, status="awaiting_payment")
    bank = _accounts_of(ctx, "bank")
    if bill is None or not bank:
        return None
    return {"bill_id": bill.id, "bank_account_id": bank[0].id, "amount": bill.amount_due, "reference": "Supplier run"}


def _example_reconcile(ctx: Ctx) -> dict[str, Any] | None:
    for line in ctx.where(StatementLine, status="unreconciled"):
        match = _find_match(ctx, line)
        if match is not None:
            return {"statement_line_id": line.id, "journal_entry_id": match.id}
    return None


def _find_match(ctx: Ctx, line: StatementLine) -> JournalEntry | None:
    taken = {sl.journal_entry_id for sl in ctx.where(StatementLine, status="reconciled")}
    for je in ctx.where(JournalEntry, status="posted"):
        if je.id not in taken and _bank_amount(je, line.account_id, line.direction) == line.amount:
            return je
    return None


def _bank_amount(je: JournalEntry, account_id: str, direction: str) -> int:
    side = "debit" if direction == "received" else "credit"
    return sum(getattr(ln, side) for ln in je.lines if ln.account_id == account_id)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add an account to the chart of accounts",
    write=True,
    example=fixed_example(code="4999", name="Team events", type="expense", description="Offsites and team dinners"),
)
def create_account(
    ctx: Ctx,
    code: AccountCode,
    name: Title,
    type: AccountType,
    description: Text = "",
    bank_account_number: AccountNumber | None = None,
) -> Account:
    """Add an account to the chart of accounts; codes are unique and bank accounts need their account number.

    Args:
        code: Unique account code (3 to 6 digits).
        name: Account name.
        type: bank, current_asset, fixed_asset, current_liability, equity, revenue or expense.
        description: What is booked to it.
        bank_account_number: For a bank account: its number at the bank.
    """
    clash = ctx.first(Account, code=code)
    if clash is not None:
        raise Conflict(f"account code {code} is taken by {clash.name}", field="code", hint="choose an unused code")
    if type == "accounts_payable":
        raise RuleViolation(
            "the organisation has one accounts payable account", field="type", hint=f"use account {AP_CODE}"
        )
    if type == "bank" and bank_account_number is None:
        raise RuleViolation(
            "a bank account needs its account number", field="bank_account_number", hint="pass the bank's number"
        )
    if type != "bank" and bank_account_number is not None:
        raise RuleViolation(
            "only bank accounts have a bank account number",
            field="bank_account_number",
            hint="leave it empty or use type 'bank'",
        )
    if bank_account_number is not None and ctx.first(Account, bank_account_number=bank_account_number):
        raise Conflict(
            f"bank account {bank_account_number} is already in the chart",
            field="bank_account_number",
            hint="each bank account is added once",
        )
    return ctx.create(
        Account, code=code, name=name, type=type, description=description, bank_account_number=bank_account_number
    )


class JournalLineInput(Value):
    """A journal line as given."""

    account_id: AccountId = Field(description="The account.")
    debit: Cents = Field(default=0, description="Amount to debit in cents (leave 0 for a credit line).")
    credit: Cents = Field(default=0, description="Amount to credit in cents (leave 0 for a debit line).")
    description: Text = Field(default="", description="What the line is for.")


def _check_balanced(total_debit: int, total_credit: int, field: str) -> None:
    if total_debit != total_credit:
        raise RuleViolation(
            f"debits ({total_debit}) do not equal credits ({total_credit})",
            field=field,
            hint=f"adjust the lines so both sides total the same (difference {abs(total_debit - total_credit)})",
        )


@service.tool(intent="record a manual journal", write=True, example=_example_journal)
def create_journal_entry(
    ctx: Ctx,
    date: Date,
    narration: Title,
    lines: Annotated[list[JournalLineInput], Field(min_length=2, max_length=40)],
    post: bool = False,
) -> JournalEntry:
    """Record a manual journal as a draft, or post it at once.

    Every line debits or credits (not both) a positive amount to an active,
    non-bank account (bank accounts move only through payments and
    reconciliation). A draft may be unbalanced; a posted journal must balance
    and be dated after the lock date.

    Args:
        date: Accounting date.
        narration: What the journal records.
        lines: At least two lines.
        post: Post it now instead of saving a draft.
    """
    out: list[JournalLine] = []
    for k, ln in enumerate(lines):
        field = f"lines.{k}"
        acct = _active_account(ctx, ln.account_id, f"{field}.account_id")
        if acct.type == "bank":
            raise RuleViolation(
                f"manual journals cannot use bank account {acct.code} {acct.name}",
                field=f"{field}.account_id",
                hint="record bank movements with ledger__pay_bill or ledger__reconcile_statement_line",
            )
        if (ln.debit > 0) == (ln.credit > 0):
            raise RuleViolation(
                f"line {k + 1} must debit or credit a positive amount, not both",
                field=field,
                hint="give exactly one of debit and credit",
            )
        out.append(JournalLine(account_id=acct.id, description=ln.description, debit=ln.debit, credit=ln.credit))
    debit, credit = sum(ln.debit for ln in out), sum(ln.credit for ln in out)
    if post:
        _check_balanced(debit, credit, "lines")
        _check_unlocked(ctx, date, "date", "the journal")
    return ctx.create(
        JournalEntry,
        date=date,
        narration=narration,
        lines=out,
        total_debit=debit,
        total_credit=credit,
        status="posted" if post else "draft",
        posted_at=ctx.now() if post else None,
    )


@service.tool(
    intent="post the draft journal to the books",
    write=True,
    example=first_example(
        JournalEntry,
        "journal_entry_id",
        where={"status": "draft"},
        match=lambda ctx, je: je.total_debit == je.total_credit and _after_lock(ctx, je.date),
    ),
)
def post_journal_entry(ctx: Ctx, journal_entry_id: JournalId) -> JournalEntry:
    """Post a draft journal: its debits must equal its credits and its date must be after the lock date.

    Args:
        journal_entry_id: The draft journal.
    """
    je = ctx.get(JournalEntry, journal_entry_id, field="journal_entry_id")
    if je.status != "draft":
        raise RuleViolation(
            f"journal {je.number} is {je.status}", field="journal_entry_id", hint="only draft journals are posted"
        )
    _check_balanced(je.total_debit, je.total_credit, "journal_entry_id")
    _check_unlocked(ctx, je.date, "journal_entry_id", f"journal {je.number}")
    for ln in je.lines:
        _active_account(ctx, ln.account_id, "journal_entry_id")
    return ctx.update(je, status="posted", posted_at=ctx.now())


@service.tool(
    intent="void the posted journal",
    write=True,
    destructive=True,
    example=first_example(
        JournalEntry,
        "journal_entry_id",
        where={"status": "posted", "source": "manual"},
        match=lambda ctx, je: _after_lock(ctx, je.date),
    ),
)
def void_journal_entry(ctx: Ctx, journal_entry_id: JournalId) -> JournalEntry:
    """Void a posted manual journal; bill and payment entries are voided through their bill.

    Args:
        journal_entry_id: The posted manual journal.
    """
    je = ctx.get(JournalEntry, journal_entry_id, field="journal_entry_id")
    if je.status != "posted":
        raise RuleViolation(
            f"journal {je.number} is {je.status}",
            field="journal_entry_id",
            hint="only posted journals are voided; delete a draft with ledger__delete_journal_entry",
        )
    if je.source != "manual":
        raise RuleViolation(
            f"journal {je.number} was posted by a {je.source.replace('_', ' ')}",
            field="journal_entry_id",
            hint="void the bill with ledger__void_bill instead",
        )
    _check_unlocked(ctx, je.date, "journal_entry_id", f"journal {je.number}")
    if ctx.first(StatementLine, journal_entry_id=je.id) is not None:
        raise RuleViolation(
            f"journal {je.number} is reconciled with a bank statement line",
            field="journal_entry_id",
            hint="reconciled entries cannot be voided",
        )
    return ctx.update(je, status="voided")


@service.tool(intent="enter the supplier's bill", write=True, example=_example_bill)
def create_bill(
    ctx: Ctx,
    vendor_id: VendorId,
    bill_number: InvoiceNumber,
    date: Date,
    lines: Annotated[list[BillLineInput], Field(min_length=1, max_length=50)],
    due_date: Date | None = None,
    order_number: OrderNumber | None = None,
) -> Bill:
    """Enter a supplier's invoice as a draft bill; its total is the sum of its lines.

    Lines without an account are booked to the vendor's default account. A
    supplier's invoice number can be entered once. The due date defaults to
    the vendor's payment terms and cannot be before the bill date.

    Args:
        vendor_id: The supplier.
        bill_number: The supplier's invoice number.
        date: Invoice date.
        lines: The lines (description, unit amount, quantity, optional account and SKU).
        due_date: When payment is due; default from the vendor's terms.
        order_number: Our purchase order number the bill is for.
    """
    vendor = ctx.get(Vendor, vendor_id, field="vendor_id")
    if vendor.status != "active":
        raise RuleViolation(f"vendor {vendor.name} is archived", field="vendor_id", hint="reactivate the vendor first")
    for b in ctx.where(Bill, vendor_id=vendor.id, bill_number=bill_number):
        if b.status != "voided":
            raise Conflict(
                f"{vendor.name}'s invoice {bill_number} is already entered ({b.id})",
                field="bill_number",
                hint="a supplier invoice is entered once; look it up with ledger__list_bills",
            )
    out: list[BillLine] = []
    for k, ln in enumerate(lines):
        account_id = ln.account_id or vendor.default_account_id
        if account_id is None:
            raise RuleViolation(
                f"line {k + 1} has no account and {vendor.name} has no default account",
                field=f"lines.{k}.account_id",
                hint="give the line an expense account",
            )
        acct = _active_account(ctx, account_id, f"lines.{k}.account_id")
        if acct.type not in BILLABLE_TYPES:
            raise RuleViolation(
                f"account {acct.code} {acct.name} is a {acct.type} account",
                field=f"lines.{k}.account_id",
                hint="book bill lines to expense or asset accounts",
            )
        out.append(
            BillLine(
                description=ln.description,
                account_id=acct.id,
                sku=ln.sku,
                quantity=ln.quantity,
                unit_amount=ln.unit_amount,
                amount=ln.quantity * ln.unit_amount,
            )
        )
    due = due_date or date + dt.timedelta(days=term_days(vendor.payment_terms))
    if due < date:
        raise RuleViolation("the due date is before the bill date", field="due_date", hint="pass a later due date")
    total = sum(ln.amount for ln in out)
    if total == 0:
        raise RuleViolation("a bill must have a positive total", field="lines", hint="give the lines amounts")
    return ctx.create(
        Bill,
        vendor_id=vendor.id,
        vendor_name=vendor.name,
        bill_number=bill_number,
        order_number=order_number,
        date=date,
        due_date=due,
        currency=_org(ctx).base_currency,
        lines=out,
        total=total,
        amount_due=total,
    )


@service.tool(
    intent="approve the bill for payment",
    write=True,
    example=first_example(Bill, "bill_id", where={"status": "draft"}, match=lambda ctx, b: _after_lock(ctx, b.date)),
)
def approve_bill(ctx: Ctx, bill_id: BillId) -> Bill:
    """Approve a draft bill: it is posted to accounts payable (debiting its lines' accounts) and awaits payment.

    Args:
        bill_id: The draft bill.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.status != "draft":
        raise RuleViolation(
            f"bill {bill.bill_number} is {bill.status}", field="bill_id", hint="only drafts are approved"
        )
    _check_unlocked(ctx, bill.date, "bill_id", f"bill {bill.bill_number}")
    for ln in bill.lines:
        _active_account(ctx, ln.account_id, "bill_id")
    ap = _ap_account(ctx)
    lines = [JournalLine(account_id=ln.account_id, description=ln.description, debit=ln.amount) for ln in bill.lines]
    lines.append(JournalLine(account_id=ap.id, description=f"{bill.vendor_name} {bill.bill_number}", credit=bill.total))
    je = _post(
        ctx,
        day=bill.date,
        narration=f"Bill {bill.bill_number} from {bill.vendor_name}",
        lines=lines,
        source="bill",
        bill_id=bill.id,
    )
    return ctx.update(bill, status="awaiting_payment", journal_entry_id=je.id)


@service.tool(intent="pay the supplier's bill", write=True, example=_example_pay)
def pay_bill(
    ctx: Ctx,
    bill_id: BillId,
    bank_account_id: AccountId,
    amount: Cents,
    date: Date | None = None,
    reference: Text = "",
) -> BillPayment:
    """Pay an approved bill, in full or in part, from a bank account; the payment is posted.

    The amount cannot exceed what is still due; the bill becomes paid when
    nothing is left. The date (default today) must be after the lock date and
    not before the bill date.

    Args:
        bill_id: The bill.
        bank_account_id: The bank account paid from.
        amount: Amount in cents.
        date: Payment date; default today.
        reference: Payment reference.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.status != "awaiting_payment":
        hint = "approve it with ledger__approve_bill first" if bill.status == "draft" else "nothing is left to pay"
        raise RuleViolation(f"bill {bill.bill_number} is {bill.status}", field="bill_id", hint=hint)
    bank = _bank_account(ctx, bank_account_id, "bank_account_id")
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="pay at least one cent")
    if amount > bill.amount_due:
        raise RuleViolation(
            f"{amount} is more than the {bill.amount_due} still due on bill {bill.bill_number}",
            field="amount",
            hint=f"pay at most {bill.amount_due}",
        )
    day = date or ctx.today()
    if day < bill.date:
        raise RuleViolation("a bill cannot be paid before its date", field="date", hint=f"pay on or after {bill.date}")
    _check_unlocked(ctx, day, "date", "the payment")
    ap = _ap_account(ctx)
    je = _post(
        ctx,
        day=day,
        narration=f"Payment of {bill.bill_number} to {bill.vendor_name}",
        lines=[
            JournalLine(account_id=ap.id, description=bill.bill_number, debit=amount),
            JournalLine(account_id=bank.id, description=reference or bill.vendor_name, credit=amount),
        ],
        source="bill_payment",
        bill_id=bill.id,
    )
    due = bill.amount_due - amount
    ctx.update(bill, amount_paid=bill.amount_paid + amount, amount_due=due, status="paid" if due == 0 else bill.status)
    vendor = ctx.get(Vendor, bill.vendor_id)
    return ctx.create(
        BillPayment,
        bill_id=bill.id,
        vendor_id=vendor.id,
        bank_account_id=bank.id,
        amount=amount,
        date=day,
        pay_to_account=vendor.bank_account_number,
        reference=reference,
        journal_entry_id=je.id,
    )


@service.tool(
    intent="void the bill",
    write=True,
    destructive=True,
    example=first_example(
        Bill,
        "bill_id",
        match=lambda ctx, b: (
            b.status in ("draft", "awaiting_payment") and b.amount_paid == 0 and _after_lock(ctx, b.date)
        ),
    ),
)
def void_bill(ctx: Ctx, bill_id: BillId) -> Bill:
    """Void a draft or approved bill that has no payments; its posting is voided too.

    Args:
        bill_id: The bill.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.status == "voided":
        raise Conflict(f"bill {bill.bill_number} is already voided", field="bill_id", hint="nothing to do")
    if bill.amount_paid > 0:
        raise RuleViolation(
            f"bill {bill.bill_number} has payments of {bill.amount_paid}",
            field="bill_id",
            hint="a bill with payments cannot be voided; enter a vendor credit as a manual journal instead",
        )
    _check_unlocked(ctx, bill.date, "bill_id", f"bill {bill.bill_number}")
    if bill.journal_entry_id is not None:
        ctx.update(ctx.get(JournalEntry, bill.journal_entry_id), status="voided")
    return ctx.update(bill, status="voided", amount_due=0)


@service.tool(intent="reconcile the bank statement line", write=True, example=_example_reconcile)
def reconcile_statement_line(
    ctx: Ctx,
    statement_line_id: LineId,
    journal_entry_id: JournalId | None = None,
    account_id: AccountId | None = None,
    narration: Title | None = None,
) -> StatementLine:
    """Reconcile a bank statement line: match it to a posted entry, or create the entry for it.

    To match, give journal_entry_id: a posted entry, not yet matched, that
    moves exactly the line's amount on the line's bank account in the same
    direction (money out is a credit to the bank, money in a debit). To create,
    give account_id instead: a posted entry between the bank account and that
    account is created on the line's date (which must be after the lock date).

    Args:
        statement_line_id: The unreconciled line.
        journal_entry_id: A posted entry to match the line with.
        account_id: The account to code the line to, creating a new entry.
        narration: Narration of a created entry; default the line's payee and reference.
    """
    line = ctx.get(StatementLine, statement_line_id, field="statement_line_id")
    if line.status == "reconciled":
        raise Conflict(
            "the statement line is already reconciled", field="statement_line_id", hint="pick an unreconciled line"
        )
    if (journal_entry_id is None) == (account_id is None):
        raise RuleViolation(
            "give either journal_entry_id (match) or account_id (create), not both or neither",
            field="journal_entry_id",
            hint="match an existing entry, or code the line to an account",
        )
    if journal_entry_id is not None:
        je = ctx.get(JournalEntry, journal_entry_id, field="journal_entry_id")
        if je.status != "posted":
            raise RuleViolation(
                f"journal {je.number} is {je.status}", field="journal_entry_id", hint="match posted entries only"
            )
        other = ctx.first(StatementLine, journal_entry_id=je.id)
        if other is not None:
            raise Conflict(
                f"journal {je.number} is already matched to another statement line",
                field="journal_entry_id",
                hint="each entry reconciles one line",
            )
        moved = _bank_amount(je, line.account_id, line.direction)
        if moved != line.amount:
            side = "credits" if line.direction == "spent" else "debits"
            raise RuleViolation(
                f"journal {je.number} {side} {moved} to the bank account, the line is {line.amount}",
                field="journal_entry_id",
                hint="match an entry of the same account, direction and amount, or create one with account_id",
            )
    else:
        assert account_id is not None
        acct = _active_account(ctx, account_id, "account_id")
        if acct.type == "bank" or acct.id == line.account_id:
            raise RuleViolation(
                "code the line to a non-bank account", field="account_id", hint="pick the income or expense account"
            )
        _check_unlocked(ctx, line.date, "statement_line_id", "the statement line")
        bank_side = {"debit": line.amount} if line.direction == "received" else {"credit": line.amount}
        other_side = {"credit": line.amount} if line.direction == "received" else {"debit": line.amount}
        text = line.reference or (line.payee or "Bank transaction")
        je = _post(
            ctx,
            day=line.date,
            narration=narration or f"{line.payee or 'Bank'}: {text}"[:200],
            lines=[
                JournalLine(account_id=line.account_id, description=text, **bank_side),
                JournalLine(account_id=acct.id, description=text, **other_side),
            ],
            source="bank",
            bill_id=None,
        )
    return ctx.update(line, status="reconciled", journal_entry_id=je.id)


@service.tool(
    intent="close the books up to this date", write=True, idempotent=True, example=fixed_example(lock_date=None)
)
def set_lock_date(ctx: Ctx, lock_date: Date | None) -> Organisation:
    """Set (or clear with null) the period lock date: nothing dated on or before it can change afterwards.

    The lock date cannot be in the future, and cannot be set while a draft
    journal or draft bill dated on or before it is still open.

    Args:
        lock_date: The last locked day, or null to unlock every period.
    """
    org = _org(ctx)
    if lock_date is not None:
        if lock_date >= ctx.today():
            raise RuleViolation(
                f"the lock date {lock_date} is not in the past", field="lock_date", hint="lock only past periods"
            )
        open_ = [je.number for je in ctx.where(JournalEntry, status="draft") if je.date <= lock_date]
        open_ += [b.bill_number for b in ctx.where(Bill, status="draft") if b.date <= lock_date]
        if open_:
            raise RuleViolation(
                f"drafts dated on or before {lock_date} are still open: {', '.join(open_[:5])}",
                field="lock_date",
                hint="post, approve, delete or void those drafts first",
            )
    return ctx.update(org, lock_date=lock_date)


class TrialBalanceRow(BaseModel):
    """One account's totals."""

    account_id: AccountId = Field(description="The account.")
    code: AccountCode = Field(description="Account code.")
    name: Title = Field(description="Account name.")
    type: AccountType = Field(description="Account type.")
    debit: Cents = Field(description="Total debits in cents.")
    credit: Cents = Field(description="Total credits in cents.")
    balance: int = Field(description="Debits minus credits in cents (negative: a credit balance).")


class TrialBalance(BaseModel):
    """Every account's posted totals up to a date."""

    as_of: Date = Field(description="Last day included.")
    rows: list[TrialBalanceRow] = Field(description="Accounts with postings, by code.")
    total_debit: Cents = Field(description="Sum of debits in cents.")
    total_credit: Cents = Field(description="Sum of credits in cents.")
    balanced: bool = Field(description="Whether debits equal credits (they always should).")


@service.tool(intent="run the trial balance")
def trial_balance(ctx: Ctx, as_of: Date | None = None, account_type: AccountType | None = None) -> TrialBalance:
    """Total the posted journals per account up to a date.

    Args:
        as_of: Last day to include; default today.
        account_type: Only accounts of this type (the totals still cover every account).
    """
    day = as_of or ctx.today()
    debit: dict[str, int] = {}
    credit: dict[str, int] = {}
    for je in ctx.where(JournalEntry, status="posted"):
        if je.date > day:
            continue
        for ln in je.lines:
            debit[ln.account_id] = debit.get(ln.account_id, 0) + ln.debit
            credit[ln.account_id] = credit.get(ln.account_id, 0) + ln.credit
    rows = []
    for acct in sorted(ctx.scan(Account), key=lambda a: a.code):
        if acct.id not in debit or (account_type is not None and acct.type != account_type):
            continue
        d, c = debit[acct.id], credit[acct.id]
        rows.append(
            TrialBalanceRow(
                account_id=acct.id, code=acct.code, name=acct.name, type=acct.type, debit=d, credit=c, balance=d - c
            )
        )
    td, tc = sum(debit.values()), sum(credit.values())
    return TrialBalance(as_of=day, rows=rows, total_debit=td, total_credit=tc, balanced=td == tc)


class AgedBill(BaseModel):
    """An unpaid bill and how overdue it is."""

    bill_id: BillId = Field(description="The bill.")
    vendor_name: CompanyName = Field(description="The supplier.")
    bill_number: InvoiceNumber = Field(description="The supplier's invoice number.")
    vendor_email: Email = Field(description="The supplier's accounts e-mail.")
    due_date: Date = Field(description="Due date.")
    amount_due: Cents = Field(description="Still owed in cents.")
    days_overdue: int = Field(description="Days past the due date (0 if not yet due).")


class AgedPayables(BaseModel):
    """What the organisation owes its suppliers."""

    as_of: Date = Field(description="The day the ages are counted to.")
    bills: list[AgedBill] = Field(description="Approved unpaid bills, most overdue first.")
    total_due: Cents = Field(description="Sum still owed in cents.")
    overdue: Cents = Field(description="Sum of the overdue part in cents.")


@service.tool(intent="see which supplier bills are due or overdue")
def aged_payables(ctx: Ctx, vendor_id: VendorId | None = None) -> AgedPayables:
    """List approved, unpaid bills with how many days they are overdue.

    Args:
        vendor_id: Only this supplier's bills.
    """
    today = ctx.today()
    out: list[AgedBill] = []
    for b in ctx.where(Bill, status="awaiting_payment"):
        if vendor_id is not None and b.vendor_id != vendor_id:
            continue
        vendor = ctx.get(Vendor, b.vendor_id)
        out.append(
            AgedBill(
                bill_id=b.id,
                vendor_name=b.vendor_name,
                bill_number=b.bill_number,
                vendor_email=vendor.email,
                due_date=b.due_date,
                amount_due=b.amount_due,
                days_overdue=max(0, (today - b.due_date).days),
            )
        )
    out.sort(key=lambda a: (-a.days_overdue, a.bill_id))
    return AgedPayables(
        as_of=today,
        bills=out,
        total_due=sum(a.amount_due for a in out),
        overdue=sum(a.amount_due for a in out if a.days_overdue > 0),
    )


# -- seed -----------------------------------------------------------------------------------

CHART: tuple[tuple[str, str, AccountType, str], ...] = (
    ("120", "Accounts Receivable", "current_asset", "Invoices customers have not paid yet"),
    ("130", "Prepayments", "current_asset", "Expenses paid in advance"),
    ("710", "Office Equipment", "fixed_asset", "Computers, furniture and fittings"),
    ("720", "Accumulated Depreciation", "fixed_asset", "Depreciation of office equipment"),
    (AP_CODE, "Accounts Payable", "accounts_payable", "Supplier bills not paid yet"),
    ("820", "Sales Tax Payable", "current_liability", "Sales tax collected and owed"),
    ("825", "Accrued Liabilities", "current_liability", "Expenses incurred, not yet billed"),
    ("960", "Retained Earnings", "equity", "Profits kept in the business"),
    ("970", "Owner Funds Introduced", "equity", "Capital paid in"),
    ("200", "Sales", "revenue", "Income from products sold"),
    ("260", "Other Revenue", "revenue", "Interest, refunds and other income"),
    ("310", "Cost of Goods Sold", "expense", "Purchases of goods for resale"),
    ("400", "Advertising", "expense", "Ads and sponsorships"),
    ("404", "Bank Fees", "expense", "Account and transfer fees"),
    ("412", "Consulting & Accounting", "expense", "Outside advisers"),
    ("429", "General Expenses", "expense", "Anything not booked elsewhere"),
    ("445", "Utilities", "expense", "Light, power and heating"),
    ("461", "Printing & Stationery", "expense", "Office supplies"),
    ("469", "Rent", "expense", "Office rent"),
    ("485", "Subscriptions", "expense", "Software and memberships"),
    ("489", "Telephone & Internet", "expense", "Phones and connectivity"),
    ("493", "Travel", "expense", "Business travel"),
    ("499", "Freight & Courier", "expense", "Shipping costs (archived: now Cost of Goods Sold)"),
)


def _journal(
    s: SeedContext,
    day: dt.date,
    narration: str,
    lines: list[JournalLine],
    *,
    status: str = "posted",
    source: str = "manual",
    bill_id: str | None = None,
) -> JournalEntry:
    return s.create(
        JournalEntry,
        date=day,
        narration=narration,
        status=status,
        source=source,
        bill_id=bill_id,
        lines=lines,
        total_debit=sum(ln.debit for ln in lines),
        total_credit=sum(ln.credit for ln in lines),
        posted_at=utc_at(day, 16) if status != "draft" else None,
        created_at=utc_at(day, 16),
    )


def _seed_accounts(s: SeedContext) -> tuple[dict[str, Account], dict[str, Account]]:
    """The home bank accounts (by key) and the chart of accounts (by code)."""
    bank: dict[str, Account] = {}
    for home in links.HOME_ACCOUNTS:
        bank[home.key] = s.create(
            Account,
            code=home.ledger_code,
            name=home.name,
            type="bank",
            description=f"{home.name} at the company's bank",
            bank_account_number=links.home_account_number(s.population, home.key),
        )
    acct: dict[str, Account] = {}
    for code, name, type_, desc in CHART:
        acct[code] = s.create(
            Account,
            code=code,
            name=name,
            type=type_,
            description=desc,
            system=code == AP_CODE,
            status="archived" if code == "499" else "active",
        )
    return bank, acct


def _seed_journals(s: SeedContext, bank: dict[str, Account], acct: dict[str, Account]) -> None:
    """Opening balances, monthly depreciation and a few manual entries in every state."""
    today = s.now.date()
    opening = [
        JournalLine(account_id=bank[h.key].id, description="Opening balance", debit=h.opening)
        for h in links.HOME_ACCOUNTS
    ]
    total_open = sum(h.opening for h in links.HOME_ACCOUNTS)
    opening += [
        JournalLine(account_id=acct["710"].id, description="Opening balance", debit=48_000_00),
        JournalLine(account_id=acct["970"].id, description="Capital", credit=500_000_00),
        JournalLine(account_id=acct["960"].id, description="Prior years", credit=total_open + 48_000_00 - 500_000_00),
    ]
    _journal(s, dt.date(today.year, 1, 1) - dt.timedelta(days=1), "Opening balances", opening)
    for m in range(1, today.month):
        day = dt.date(today.year, m + 1, 1) - dt.timedelta(days=1)
        _journal(
            s,
            day,
            f"Depreciation {day:%B %Y}",
            [
                JournalLine(account_id=acct["429"].id, description="Depreciation", debit=800_00),
                JournalLine(account_id=acct["720"].id, description="Depreciation", credit=800_00),
            ],
        )
    _journal(
        s,
        today - dt.timedelta(days=1),
        "Accrued utilities",
        [
            JournalLine(account_id=acct["445"].id, description="February estimate", debit=1_250_00),
            JournalLine(account_id=acct["825"].id, description="February estimate", credit=1_250_00),
        ],
    )
    _journal(
        s,
        today - dt.timedelta(days=2),
        "Prepaid insurance",
        [
            JournalLine(account_id=acct["130"].id, description="Annual policy", debit=6_000_00),
            JournalLine(account_id=acct["429"].id, description="Annual policy", credit=6_000_00),
        ],
        status="voided",
    )
    _journal(
        s,
        today,
        "Reclass stationery to subscriptions",
        [
            JournalLine(account_id=acct["485"].id, description="Design tool licence", debit=240_00),
            JournalLine(account_id=acct["461"].id, description="Design tool licence", credit=240_00),
        ],
        status="draft",
    )
    _journal(
        s,
        today,
        "Payroll accrual (incomplete)",
        [
            JournalLine(account_id=acct["429"].id, description="Bonus accrual", debit=5_000_00),
            JournalLine(account_id=acct["825"].id, description="Bonus accrual", credit=4_500_00),
        ],
        status="draft",
    )


def _seed_vendors(s: SeedContext, acct: dict[str, Account]) -> list[Vendor]:
    """The procurement suppliers as vendors, each with a default expense account."""
    expense_codes = ("310", "412", "461", "469", "485", "489", "400", "493")
    return [
        s.create(
            Vendor,
            name=sup.company.name,
            email=sup.contact.email,
            contact_name=sup.contact.name,
            phone=sup.company.phone,
            address=sup.company.address,
            bank_account_number=sup.remit_account,
            default_account_id=acct[expense_codes[sup.index % len(expense_codes)]].id,
            payment_terms=sup.terms,
            status="active" if sup.active else "archived",
        )
        for sup in links.suppliers(s.population)
    ]


def _seed_bill_payment(
    s: SeedContext, bill: Bill, vendor: Vendor, paid: int, ap: Account, operating: Account
) -> BillPayment:
    """A payment of ``paid`` on the bill from the operating account, 3 to 20 days after it, with its journal."""
    pay_day = min(s.now.date() - dt.timedelta(days=1), bill.date + dt.timedelta(days=s.rng.randint(3, 20)))
    pje = _journal(
        s,
        pay_day,
        f"Payment of {bill.bill_number} to {vendor.name}",
        [
            JournalLine(account_id=ap.id, description=bill.bill_number, debit=paid),
            JournalLine(account_id=operating.id, description=vendor.name, credit=paid),
        ],
        source="bill_payment",
        bill_id=bill.id,
    )
    return s.create(
        BillPayment,
        bill_id=bill.id,
        vendor_id=vendor.id,
        bank_account_id=operating.id,
        amount=paid,
        date=pay_day,
        pay_to_account=vendor.bank_account_number,
        reference=f"Supplier run {pay_day:%d %b}",
        journal_entry_id=pje.id,
        created_at=utc_at(pay_day, 16),
    )


def _seed_bills(
    s: SeedContext, vendors: list[Vendor], acct: dict[str, Account], operating: Account
) -> list[tuple[BillPayment, str]]:
    """Bills of the active vendors in every state, their journals and payments; returns (payment, payee) pairs."""
    rng = s.rng
    today = s.now.date()
    ap = acct[AP_CODE]
    active = [v for v in vendors if v.status == "active"]
    statuses: tuple[BillStatus, ...] = ("paid", "awaiting_payment", "draft", "paid", "awaiting_payment", "voided")
    paid_lines: list[tuple[BillPayment, str]] = []
    for k in range(min(24, len(active) * 3)):
        vendor = active[k % len(active)]
        status = statuses[k % len(statuses)]
        products = rng.sample(list(s.population.products), k=2)
        account_id = vendor.default_account_id or acct["429"].id
        lines = [
            BillLine(
                description=p.name,
                account_id=account_id,
                sku=p.sku,
                quantity=q,
                unit_amount=p.cost_cents,
                amount=q * p.cost_cents,
            )
            for p in products
            for q in (rng.randint(1, 8),)
        ]
        total = sum(ln.amount for ln in lines)
        age = rng.randint(2, 25) if status == "draft" else rng.randint(5, 75)
        day = today - dt.timedelta(days=age)
        partial = status == "awaiting_payment" and k % 4 == 1
        paid = total if status == "paid" else (total // 3 if partial else 0)
        bill = s.create(
            Bill,
            vendor_id=vendor.id,
            vendor_name=vendor.name,
            bill_number=f"INV-{20_000 + k * 37}",
            order_number=f"PO-{k + 1:05d}" if k % 3 == 0 else None,
            date=day,
            due_date=day + dt.timedelta(days=term_days(vendor.payment_terms)),
            status=status,
            currency=s.population.home.place.currency,
            lines=lines,
            total=total,
            amount_paid=paid,
            amount_due=0 if status in ("paid", "voided") else total - paid,
            updated_at=utc_at(day, 16),
        )
        if status == "draft":
            continue
        je = _journal(
            s,
            day,
            f"Bill {bill.bill_number} from {vendor.name}",
            [JournalLine(account_id=ln.account_id, description=ln.description, debit=ln.amount) for ln in lines]
            + [JournalLine(account_id=ap.id, description=f"{vendor.name} {bill.bill_number}", credit=total)],
            status="voided" if status == "voided" else "posted",
            source="bill",
            bill_id=bill.id,
        )
        s.update(bill, journal_entry_id=je.id)
        if paid:
            paid_lines.append((_seed_bill_payment(s, bill, vendor, paid, ap, operating), vendor.name))
    return paid_lines


def _seed_bank_feed(s: SeedContext, bank: dict[str, Account], paid_lines: list[tuple[BillPayment, str]]) -> None:
    """The supplier payments (older ones reconciled), customer receipts and fees still to code."""
    today = s.now.date()
    operating = bank["operating"]
    for n, (pay, name) in enumerate(paid_lines):
        done = n % 2 == 0
        s.create(
            StatementLine,
            account_id=operating.id,
            date=pay.date,
            direction="spent",
            amount=pay.amount,
            payee=name,
            reference=pay.reference,
            status="reconciled" if done else "unreconciled",
            journal_entry_id=pay.journal_entry_id if done else None,
        )
    for n, company in enumerate(s.population.customers[:6]):
        s.create(
            StatementLine,
            account_id=operating.id,
            date=today - dt.timedelta(days=1 + n * 3),
            direction="received",
            amount=s.rng.randint(800, 9_000) * 100,
            payee=company.name,
            reference=f"Customer payment {company.name}",
        )
    for n in range(3):
        s.create(
            StatementLine,
            account_id=bank[("operating", "payroll", "reserve")[n]].id,
            date=today - dt.timedelta(days=4 + n * 6),
            direction="spent" if n < 2 else "received",
            amount=(25_00, 12_50, 310_40)[n],
            reference=("Monthly account fee", "Wire fee", "Interest")[n],
        )


@service.seeder
def seed(s: SeedContext) -> None:
    """The chart of accounts, the procurement suppliers as vendors, journals, bills, payments and the bank feed."""
    today = s.now.date()
    lock = dt.date(today.year, today.month, 1) - dt.timedelta(days=1)
    lock = lock.replace(day=1) - dt.timedelta(days=1)  # the month before last is closed
    s.create(Organisation, name=s.population.home.name, base_currency=s.population.home.place.currency, lock_date=lock)
    bank, acct = _seed_accounts(s)
    _seed_journals(s, bank, acct)
    vendors = _seed_vendors(s, acct)
    paid_lines = _seed_bills(s, vendors, acct, bank["operating"])
    _seed_bank_feed(s, bank, paid_lines)
