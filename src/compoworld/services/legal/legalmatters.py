"""Caseline Practice: a law firm's clients, matters, time and expense entries, bills and client trust accounts.

Modeled on the Clio Manage API v4 (Contacts, Matters, Activities as time and
expense entries, Bills, Trust requests and the trust ledger): a matter is
opened only after a conflict check against the firm's other clients; time is
recorded in tenths of an hour at the timekeeper's rate and never in the
future; billed entries are locked; a bill collects a matter's unbilled
billable entries (or its flat fee once); money leaves a matter's trust account
only to pay that matter's bills or to refund the client, and the trust balance
can never go negative; a matter closes only when nothing is unbilled, unpaid
or held in trust.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "legalmatters",
    title="Caseline Practice",
    category="legal",
    modeled_on="Clio Manage API v4 (Contacts, Matters, Activities: TimeEntry/ExpenseEntry, Bills, Trust requests "
    "and trust ledger)",
    description="Law practice management: the firm's clients and matters with conflict checks, timekeepers' time "
    "and expense entries, bills generated from unbilled work, client trust (retainer) accounts that pay bills, and "
    "matter closing.",
)

ClientId = Annotated[str, IdOf("legalmatters.client")]
UserId = Annotated[str, IdOf("legalmatters.user")]
MatterId = Annotated[str, IdOf("legalmatters.matter")]
ActivityId = Annotated[str, IdOf("legalmatters.activity")]
BillId = Annotated[str, IdOf("legalmatters.bill")]
TrustId = Annotated[str, IdOf("legalmatters.trust_transaction")]

PracticeArea = Literal["corporate", "litigation", "employment", "real_estate", "intellectual_property", "tax"]
BillingMethod = Literal["hourly", "flat_fee", "contingency"]
Minutes = Annotated[int, Field(ge=6, le=1440)]
PAYMENT_DAYS = 30


class Client(Record):
    """A client of the firm: a person or a company."""

    id: ClientId
    type: Literal["person", "company"]
    """person or company."""
    name: PersonName
    """The person, or the company's primary contact."""
    company_name: CompanyName | None = None
    """Name of a company client."""
    email: Email
    """E-mail bills are sent to; unique."""
    phone: Phone | None = None
    """Phone number."""
    address: PostalAddress | None = None
    """Billing address."""
    created_at: Annotated[DateTime, CREATED]
    """When the client was added."""


class User(Record):
    """A timekeeper of the firm."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    role: Literal["partner", "associate", "paralegal"]
    """partner, associate or paralegal."""
    hourly_rate: Cents
    """Default rate per hour in cents."""
    active: bool = True
    """Inactive users record no time."""


class Matter(Record):
    """A legal matter the firm handles for a client."""

    id: MatterId
    display_number: Annotated[str, Generated("sequence", "MAT-{n:05d}")]
    """Matter number."""
    client_id: ClientId
    """The client."""
    client_email: Email
    """The client's e-mail."""
    description: Title
    """What the matter is about."""
    practice_area: PracticeArea
    """Practice area."""
    responsible_attorney_id: UserId
    """The partner or associate responsible."""
    billing_method: BillingMethod
    """hourly, flat_fee or contingency."""
    flat_fee: Cents | None = None
    """The fee of a flat-fee matter, in cents."""
    adverse_party: CompanyName | None = None
    """The opposing party, checked for conflicts."""
    status: Literal["open", "pending", "closed"] = "open"
    """open, pending (on hold) or closed."""
    open_date: Date
    """When it was opened."""
    close_date: Date | None = None
    """When it was closed."""
    trust_balance: Cents = 0
    """Client money held in trust for the matter, in cents."""
    currency: Currency
    """Currency."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Activity(Record):
    """A time or expense entry on a matter."""

    id: ActivityId
    matter_id: MatterId
    """The matter."""
    user_id: UserId
    """Who recorded it."""
    kind: Literal["time", "expense"]
    """time or expense."""
    date: Date
    """When the work was done or the cost incurred."""
    minutes: int = 0
    """Time spent (time entries), in minutes."""
    rate: Cents = 0
    """Rate per hour in cents (time entries)."""
    total: Cents
    """Amount in cents."""
    description: Text
    """What was done."""
    billable: bool = True
    """Whether it goes on a bill."""
    bill_id: BillId | None = None
    """The bill it is on; billed entries are locked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class Bill(Record):
    """A bill to a client for a matter."""

    id: BillId
    number: Annotated[InvoiceNumber, Generated("sequence", "LB-{n:05d}")]
    """Bill number."""
    matter_id: MatterId
    """The matter."""
    client_id: ClientId
    """The client."""
    client_email: Email
    """Where it is sent."""
    status: Literal["draft", "awaiting_payment", "paid", "void"] = "draft"
    """draft, awaiting_payment (issued), paid or void."""
    activity_ids: list[ActivityId] = Field(max_length=500)
    """The entries billed."""
    flat_fee: Cents = 0
    """Flat fee billed in cents."""
    total: Cents
    """Total in cents."""
    paid: Cents = 0
    """Paid in cents."""
    balance: Cents
    """Still owed in cents."""
    issue_date: Date | None = None
    """When it was issued."""
    due_date: Date | None = None
    """When it is due."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class TrustTransaction(Record):
    """A movement on a matter's trust account."""

    id: TrustId
    matter_id: MatterId
    """The matter."""
    client_id: ClientId
    """The client whose money it is."""
    kind: Literal["deposit", "bill_payment", "refund"]
    """deposit (from the client), bill_payment (to the firm) or refund (back to the client)."""
    amount: Cents
    """Amount in cents."""
    date: Date
    """Date."""
    bill_id: BillId | None = None
    """The bill a payment settles."""
    reference: Text = ""
    """Reference (check number, wire reference)."""
    balance_after: Cents
    """Trust balance of the matter afterwards, in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


# -- rules ------------------------------------------------------------------------------------


def _matter(ctx: Ctx, matter_id: str, field: str, *, open_only: bool = True) -> Matter:
    m = ctx.get(Matter, matter_id, field=field)
    if open_only and m.status == "closed":
        raise RuleViolation(f"matter {m.display_number} is closed", field=field, hint="closed matters are final")
    return m


def _trust(ctx: Ctx, m: Matter, kind: str, amount: int, **extra: Any) -> TrustTransaction:
    after = m.trust_balance + amount if kind == "deposit" else m.trust_balance - amount
    if after < 0:
        raise RuleViolation(
            f"matter {m.display_number} holds {m.trust_balance} in trust; {amount} would overdraw it",
            field="amount",
            hint="a trust account can never go negative: deposit more with legalmatters__deposit_to_trust, or pay less",
        )
    ctx.update(m, trust_balance=after)
    return ctx.create(
        TrustTransaction,
        matter_id=m.id,
        client_id=m.client_id,
        kind=kind,
        amount=amount,
        date=extra.pop("date", ctx.today()),
        balance_after=after,
        **extra,
    )


def _settle(ctx: Ctx, bill: Bill, amount: int) -> Bill:
    left = bill.balance - amount
    return ctx.update(bill, paid=bill.paid + amount, balance=left, status="paid" if left == 0 else bill.status)


def _payable_bill(ctx: Ctx, bill_id: str, amount: int) -> Bill:
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.status != "awaiting_payment":
        hint = "issue it with legalmatters__issue_bill first" if bill.status == "draft" else "nothing is owed on it"
        raise RuleViolation(f"bill {bill.number} is {bill.status}", field="bill_id", hint=hint)
    if not 0 < amount <= bill.balance:
        raise RuleViolation(
            f"bill {bill.number} owes {bill.balance}; {amount} cannot be applied",
            field="amount",
            hint=f"pay between 1 and {bill.balance}",
        )
    return bill


def _guard_activity(ctx: Ctx, new: Any, old: Any) -> None:
    if old.bill_id is not None:
        bill = ctx.get(Bill, old.bill_id)
        raise RuleViolation(
            f"the entry is on bill {bill.number} and locked",
            field="activity_id",
            hint="void the bill with legalmatters__void_bill to change its entries",
        )


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    if new.type == "company" and new.company_name is None:
        raise RuleViolation("a company client needs its name", field="company_name", hint="give the company name")


def _guard_matter(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "closed":
        raise RuleViolation(
            f"matter {old.display_number} is closed", field="matter_id", hint="closed matters are final"
        )
    if new.responsible_attorney_id != old.responsible_attorney_id:
        _attorney(ctx, new.responsible_attorney_id, "responsible_attorney_id")


def _attorney(ctx: Ctx, user_id: str, field: str) -> User:
    user = ctx.get(User, user_id, field=field)
    if user.role == "paralegal" or not user.active:
        raise RuleViolation(
            f"{user.name} cannot be responsible for a matter",
            field=field,
            hint="pick an active partner or associate",
        )
    return user


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("type", "name", "company_name", "email", "phone", "address"),
    filters=("type", "email", "company_name"),
    search=("name", "company_name", "email"),
    update=("name", "email", "phone", "address"),
    delete=False,
    unique=("email",),
    guard_create=_guard_client,
    title="law firm client",
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("role", "active", "email"),
    search=("name",),
    delete=False,
    title="timekeeper",
)
matters = service.resource(
    Matter,
    name="matter",
    plural="matters",
    prefix="mat",
    create=False,
    filters=("client_id", "client_email", "status", "practice_area", "responsible_attorney_id", "billing_method"),
    search=("description", "display_number", "adverse_party"),
    update=("description", "responsible_attorney_id"),
    delete=False,
    guard_update=_guard_matter,
    title="legal matter",
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    create=False,
    filters=("matter_id", "user_id", "kind", "billable", "bill_id", "date"),
    search=("description",),
    update=("description", "billable"),
    delete=False,
    guard_update=_guard_activity,
    title="time or expense entry",
)
bills = service.resource(
    Bill,
    name="bill",
    plural="bills",
    prefix="bill",
    create=False,
    filters=("matter_id", "client_id", "client_email", "status", "number"),
    delete=False,
    title="client bill",
)
trust = service.resource(
    TrustTransaction,
    name="trust_transaction",
    plural="trust_transactions",
    prefix="trx",
    create=False,
    get=False,
    filters=("matter_id", "client_id", "kind", "bill_id"),
    delete=False,
    title="trust ledger entry",
)


# -- examples ---------------------------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    client = ctx.first(Client, type="company")
    atty = ctx.first(User, role="partner", active=True)
    if client is None or atty is None:
        return None
    return {
        "client_id": client.id,
        "description": "Supplier contract dispute",
        "practice_area": "litigation",
        "responsible_attorney_id": atty.id,
        "billing_method": "hourly",
    }


def _example_time(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Matter, status="open", billing_method="hourly")
    u = ctx.first(User, role="associate", active=True)
    if m is None or u is None:
        return None
    return {"matter_id": m.id, "user_id": u.id, "minutes": 90, "description": "Drafted the reply brief"}


def _example_expense(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Matter, status="open")
    u = ctx.first(User, active=True)
    if m is None or u is None:
        return None
    return {"matter_id": m.id, "user_id": u.id, "amount": 350_00, "description": "Court filing fee"}


def _example_bill_in(status: str) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for b in ctx.where(Bill, status=status):
            if b.paid == 0:
                return {"bill_id": b.id}
        return None

    return example


def _example_trust_pay(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Bill, status="awaiting_payment"):
        m = ctx.get(Matter, b.matter_id)
        if m.trust_balance > 0:
            return {"bill_id": b.id, "amount": min(b.balance, m.trust_balance)}
    return None


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(Matter, status="open"):
        try:
            _check_closable(ctx, m)
        except RuleViolation:
            continue
        return {"matter_id": m.id}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="open a new matter for the client", write=True, example=_example_open)
def open_matter(
    ctx: Ctx,
    client_id: ClientId,
    description: Title,
    practice_area: PracticeArea,
    responsible_attorney_id: UserId,
    billing_method: BillingMethod = "hourly",
    flat_fee: Cents | None = None,
    adverse_party: CompanyName | None = None,
) -> Matter:
    """Open a matter after a conflict check: the adverse party may not be a client with an open matter.

    The responsible attorney is an active partner or associate; a flat-fee
    matter needs its fee, other matters have none.

    Args:
        client_id: The client.
        description: What the matter is about.
        practice_area: corporate, litigation, employment, real_estate, intellectual_property or tax.
        responsible_attorney_id: The responsible partner or associate.
        billing_method: hourly, flat_fee or contingency.
        flat_fee: The fee of a flat-fee matter, in cents.
        adverse_party: The opposing party.
    """
    client = ctx.get(Client, client_id, field="client_id")
    _attorney(ctx, responsible_attorney_id, "responsible_attorney_id")
    if (billing_method == "flat_fee") != (flat_fee is not None):
        raise RuleViolation(
            "a flat fee goes with (and only with) the flat_fee billing method",
            field="flat_fee",
            hint="give flat_fee for flat_fee matters and omit it otherwise",
        )
    if adverse_party is not None:
        if adverse_party == client.company_name:
            raise RuleViolation(
                "a client cannot be its own adverse party", field="adverse_party", hint="check the name"
            )
        for other in ctx.where(Client, company_name=adverse_party):
            live = [m for m in ctx.where(Matter, client_id=other.id) if m.status != "closed"]
            if live:
                raise Conflict(
                    f"conflict of interest: {adverse_party} is a client with open matter {live[0].display_number}",
                    field="adverse_party",
                    hint="the firm cannot act against a current client; decline the matter or get a written waiver",
                )
    return ctx.create(
        Matter,
        client_id=client.id,
        client_email=client.email,
        description=description,
        practice_area=practice_area,
        responsible_attorney_id=responsible_attorney_id,
        billing_method=billing_method,
        flat_fee=flat_fee,
        adverse_party=adverse_party,
        open_date=ctx.today(),
        currency=ctx.population.home.place.currency,
    )


def _timekeeper(ctx: Ctx, user_id: str) -> User:
    user = ctx.get(User, user_id, field="user_id")
    if not user.active:
        raise RuleViolation(f"{user.name} is inactive", field="user_id", hint="record the entry for an active user")
    return user


def _entry_date(ctx: Ctx, date: dt.date | None) -> dt.date:
    day = date or ctx.today()
    if day > ctx.today():
        raise RuleViolation("entries cannot be dated in the future", field="date", hint="record work once it is done")
    return day


@service.tool(intent="record time on the matter", write=True, example=_example_time)
def log_time(
    ctx: Ctx,
    matter_id: MatterId,
    user_id: UserId,
    minutes: Minutes,
    description: Text,
    date: Date | None = None,
    billable: bool = True,
) -> Activity:
    """Record time on an open matter in tenths of an hour (multiples of 6 minutes) at the user's hourly rate.

    Time on flat-fee and contingency matters is recorded as non-billable.

    Args:
        matter_id: The matter.
        user_id: The timekeeper.
        minutes: Minutes worked, a multiple of 6.
        description: What was done.
        date: When; default today, never in the future.
        billable: Whether it is billed (hourly matters only).
    """
    m = _matter(ctx, matter_id, "matter_id")
    user = _timekeeper(ctx, user_id)
    if minutes % 6:
        raise RuleViolation(
            f"{minutes} minutes is not a tenth of an hour", field="minutes", hint="record in multiples of 6 minutes"
        )
    if not description.strip():
        raise RuleViolation("describe the work", field="description", hint="say what was done")
    day = _entry_date(ctx, date)
    return ctx.create(
        Activity,
        matter_id=m.id,
        user_id=user.id,
        kind="time",
        date=day,
        minutes=minutes,
        rate=user.hourly_rate,
        total=user.hourly_rate * minutes // 60,
        description=description,
        billable=billable and m.billing_method == "hourly",
    )


@service.tool(intent="record an expense on the matter", write=True, example=_example_expense)
def log_expense(
    ctx: Ctx,
    matter_id: MatterId,
    user_id: UserId,
    amount: Cents,
    description: Text,
    date: Date | None = None,
    billable: bool = True,
) -> Activity:
    """Record a disbursement (filing fee, courier, expert) on an open matter; expenses are billable on any matter.

    Args:
        matter_id: The matter.
        user_id: Who incurred it.
        amount: Amount in cents.
        description: What it was.
        date: When; default today, never in the future.
        billable: Whether it is passed on to the client.
    """
    m = _matter(ctx, matter_id, "matter_id")
    user = _timekeeper(ctx, user_id)
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="record at least one cent")
    day = _entry_date(ctx, date)
    return ctx.create(
        Activity,
        matter_id=m.id,
        user_id=user.id,
        kind="expense",
        date=day,
        total=amount,
        description=description,
        billable=billable,
    )


@service.tool(
    intent="prepare the client's bill for the matter",
    write=True,
    example=first_example(
        Matter,
        "matter_id",
        where={"status": "open"},
        match=lambda ctx, m: any(a.bill_id is None and a.billable for a in ctx.where(Activity, matter_id=m.id)),
    ),
)
def generate_bill(ctx: Ctx, matter_id: MatterId, through: Date | None = None) -> Bill:
    """Draft a bill of a matter's unbilled billable entries up to a date, plus its flat fee if not billed yet.

    Args:
        matter_id: The matter.
        through: Last day of work to bill; default today.
    """
    m = _matter(ctx, matter_id, "matter_id")
    last = through or ctx.today()
    entries = [a for a in ctx.where(Activity, matter_id=m.id, billable=True) if a.bill_id is None and a.date <= last]
    fee = 0
    if m.billing_method == "flat_fee" and m.flat_fee:
        billed = any(b.flat_fee and b.status != "void" for b in ctx.where(Bill, matter_id=m.id))
        fee = 0 if billed else m.flat_fee
    if not entries and not fee:
        raise RuleViolation(
            f"matter {m.display_number} has nothing unbilled through {last}",
            field="matter_id",
            hint="record time or expenses first, or bill a later date",
        )
    client = ctx.get(Client, m.client_id)
    total = fee + sum(a.total for a in entries)
    bill = ctx.create(
        Bill,
        matter_id=m.id,
        client_id=client.id,
        client_email=client.email,
        activity_ids=[a.id for a in entries],
        flat_fee=fee,
        total=total,
        balance=total,
    )
    for a in entries:
        ctx.update(a, bill_id=bill.id)
    return bill


@service.tool(intent="issue the bill to the client", write=True, example=_example_bill_in("draft"))
def issue_bill(ctx: Ctx, bill_id: BillId) -> Bill:
    """Issue a draft bill: it is dated today and due in 30 days.

    Args:
        bill_id: The draft bill.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.status != "draft":
        raise RuleViolation(f"bill {bill.number} is {bill.status}", field="bill_id", hint="only drafts are issued")
    today = ctx.today()
    return ctx.update(
        bill, status="awaiting_payment", issue_date=today, due_date=today + dt.timedelta(days=PAYMENT_DAYS)
    )


@service.tool(intent="void the bill", write=True, destructive=True, example=_example_bill_in("awaiting_payment"))
def void_bill(ctx: Ctx, bill_id: BillId) -> Bill:
    """Void an unpaid bill with no payments; its entries become unbilled (and editable) again.

    Args:
        bill_id: The bill.
    """
    bill = ctx.get(Bill, bill_id, field="bill_id")
    if bill.status in ("paid", "void"):
        raise RuleViolation(f"bill {bill.number} is {bill.status}", field="bill_id", hint="it cannot be voided")
    if bill.paid:
        raise RuleViolation(
            f"bill {bill.number} has payments of {bill.paid}",
            field="bill_id",
            hint="a bill with payments cannot be voided",
        )
    for a in ctx.where(Activity, bill_id=bill.id):
        ctx.update(a, bill_id=None)
    return ctx.update(bill, status="void", balance=0)


@service.tool(
    intent="deposit the client's retainer into trust",
    write=True,
    example=first_example(Matter, "matter_id", where={"status": "open"}, amount=5_000_00, reference="Retainer wire"),
)
def deposit_to_trust(
    ctx: Ctx, matter_id: MatterId, amount: Cents, reference: Text = "", date: Date | None = None
) -> TrustTransaction:
    """Deposit client money into a matter's trust account (a retainer).

    Args:
        matter_id: The matter.
        amount: Amount in cents.
        reference: Check number or wire reference.
        date: Date; default today.
    """
    m = _matter(ctx, matter_id, "matter_id")
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="deposit at least one cent")
    return _trust(ctx, m, "deposit", amount, reference=reference, date=_entry_date(ctx, date))


@service.tool(intent="pay the bill from the client's trust money", write=True, example=_example_trust_pay)
def pay_bill_from_trust(ctx: Ctx, bill_id: BillId, amount: Cents) -> Bill:
    """Pay an issued bill from its own matter's trust account; the trust balance can never go negative.

    Args:
        bill_id: The issued bill.
        amount: Amount in cents.
    """
    bill = _payable_bill(ctx, bill_id, amount)
    m = ctx.get(Matter, bill.matter_id)
    _trust(ctx, m, "bill_payment", amount, bill_id=bill.id, reference=f"Payment of {bill.number}")
    return _settle(ctx, bill, amount)


@service.tool(
    intent="record the client's payment of the bill",
    write=True,
    example=first_example(
        Bill, "bill_id", where={"status": "awaiting_payment"}, fields={"amount": "balance"}, method="check"
    ),
)
def record_payment(ctx: Ctx, bill_id: BillId, amount: Cents, method: Literal["check", "card", "wire"] = "wire") -> Bill:
    """Record a payment the client made directly (not from trust) against an issued bill.

    Args:
        bill_id: The issued bill.
        amount: Amount in cents.
        method: check, card or wire.
    """
    return _settle(ctx, _payable_bill(ctx, bill_id, amount), amount)


@service.tool(
    intent="refund the client's trust money",
    write=True,
    destructive=True,
    example=first_example(
        Matter,
        "matter_id",
        where={"status": "open"},
        match=lambda ctx, m: m.trust_balance > 0,
        fields={"amount": "trust_balance"},
        reference="Unused retainer",
    ),
)
def refund_trust(ctx: Ctx, matter_id: MatterId, amount: Cents, reference: Text = "") -> TrustTransaction:
    """Return money held in a matter's trust account to the client; at most the trust balance.

    Args:
        matter_id: The matter.
        amount: Amount in cents.
        reference: Check number or wire reference.
    """
    m = _matter(ctx, matter_id, "matter_id")
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="refund at least one cent")
    return _trust(ctx, m, "refund", amount, reference=reference)


def _check_closable(ctx: Ctx, m: Matter) -> None:
    unbilled = [a for a in ctx.where(Activity, matter_id=m.id, billable=True) if a.bill_id is None]
    if unbilled:
        raise RuleViolation(
            f"matter {m.display_number} has {len(unbilled)} unbilled entries",
            field="matter_id",
            hint="bill them with legalmatters__generate_bill, or mark them non-billable",
        )
    unpaid = [b.number for b in ctx.where(Bill, matter_id=m.id) if b.status in ("draft", "awaiting_payment")]
    if unpaid:
        raise RuleViolation(
            f"matter {m.display_number} has open bills: {', '.join(unpaid)}",
            field="matter_id",
            hint="collect or void them first",
        )
    if m.trust_balance:
        raise RuleViolation(
            f"matter {m.display_number} still holds {m.trust_balance} in trust",
            field="matter_id",
            hint="apply it to a bill or refund it with legalmatters__refund_trust first",
        )


@service.tool(intent="close the matter", write=True, example=_example_close)
def close_matter(ctx: Ctx, matter_id: MatterId) -> Matter:
    """Close a matter with nothing unbilled, no open bills and no money left in trust.

    Args:
        matter_id: The matter.
    """
    m = _matter(ctx, matter_id, "matter_id")
    _check_closable(ctx, m)
    return ctx.update(m, status="closed", close_date=ctx.today())


class LedgerLine(BaseModel):
    """One trust movement with the running balance."""

    date: Date = Field(description="Date.")
    kind: Literal["deposit", "bill_payment", "refund"] = Field(description="Kind.")
    amount: Cents = Field(description="Amount in cents.")
    bill_number: InvoiceNumber | None = Field(description="The bill paid.")
    reference: Text = Field(description="Reference.")
    balance: Cents = Field(description="Balance afterwards in cents.")


class TrustLedger(BaseModel):
    """A matter's trust account."""

    matter_id: MatterId = Field(description="The matter.")
    client_email: Email = Field(description="The client's e-mail.")
    lines: list[LedgerLine] = Field(description="Movements, oldest first.")
    deposits: Cents = Field(description="Deposited in cents.")
    withdrawals: Cents = Field(description="Paid out (bills and refunds) in cents.")
    balance: Cents = Field(description="Held now in cents.")


@service.tool(
    intent="show the matter's trust ledger", example=first_example(TrustTransaction, fields={"matter_id": "matter_id"})
)
def trust_ledger(ctx: Ctx, matter_id: MatterId) -> TrustLedger:
    """The trust account of a matter, movement by movement, with running balances.

    Args:
        matter_id: The matter.
    """
    m = ctx.get(Matter, matter_id, field="matter_id")
    moves = sorted(ctx.where(TrustTransaction, matter_id=m.id), key=lambda t: (t.created_at, t.id))
    lines = []
    for t in moves:
        bill = ctx.find(Bill, t.bill_id) if t.bill_id else None
        lines.append(
            LedgerLine(
                date=t.date,
                kind=t.kind,
                amount=t.amount,
                bill_number=bill.number if bill else None,
                reference=t.reference,
                balance=t.balance_after,
            )
        )
    deposits = sum(t.amount for t in moves if t.kind == "deposit")
    return TrustLedger(
        matter_id=m.id,
        client_email=m.client_email,
        lines=lines,
        deposits=deposits,
        withdrawals=deposits - m.trust_balance,
        balance=m.trust_balance,
    )


# -- seed -------------------------------------------------------------------------------------

MATTERS: tuple[tuple[str, PracticeArea, BillingMethod], ...] = (
    ("Supplier contract dispute", "litigation", "hourly"),
    ("Series A financing", "corporate", "hourly"),
    ("Trademark registration", "intellectual_property", "flat_fee"),
    ("Wrongful dismissal claim", "employment", "contingency"),
    ("Office lease renewal", "real_estate", "flat_fee"),
    ("Sales tax audit defence", "tax", "hourly"),
    ("Patent infringement defence", "litigation", "hourly"),
    ("Employee handbook review", "employment", "hourly"),
)
WORK = (
    "Reviewed documents from the client",
    "Call with the client",
    "Drafted correspondence to opposing counsel",
    "Legal research",
    "Prepared the filing",
    "Revised the agreement",
)
EXPENSES = (("Court filing fee", 350_00), ("Courier", 45_00), ("Expert report", 2_400_00), ("Registry search", 80_00))


def _seed_users(s: SeedContext) -> list[User]:
    """The ten longest-serving employees as partners, associates and paralegals (one inactive)."""
    staff = sorted(s.population.employees, key=lambda p: (p.hire_date, p.key))[:10]
    users_: list[User] = []
    for i, p in enumerate(staff):
        role = "partner" if i < 3 else ("associate" if i < 7 else "paralegal")
        rate = {"partner": 450_00, "associate": 280_00, "paralegal": 120_00}[role] + 10_00 * (i % 3)
        users_.append(s.create(User, name=p.name, email=p.email, role=role, hourly_rate=rate, active=i != 6))
    return users_


def _seed_clients(s: SeedContext) -> list[Client]:
    """Customer companies (through a contact) and consumers as clients."""
    pop = s.population
    clients_: list[Client] = []
    for company in pop.customers[:14]:
        contact = pop.first_contact(company)
        if contact is None:
            continue
        clients_.append(
            s.create(
                Client,
                type="company",
                name=contact.name,
                company_name=company.name,
                email=contact.email,
                phone=company.phone,
                address=company.address,
                created_at=s.ago(days=400),
            )
        )
    for person in pop.consumers[:10]:
        clients_.append(
            s.create(
                Client,
                type="person",
                name=person.name,
                email=person.email,
                phone=person.phone,
                address=person.address,
                created_at=s.ago(days=200),
            )
        )
    return clients_


def _seed_activities(s: SeedContext, k: int, n: int, matter: Matter, atty: User, users_: list[User]) -> list[Activity]:
    """Time entries by the attorney and a paralegal, and for every other matter an expense."""
    today = s.now.date()
    opened = matter.open_date
    entries: list[Activity] = []
    for m in range(3 + n % 5):
        helpers = users_[7:] or users_
        u = [atty, helpers[m % len(helpers)]][m % 2]
        if not u.active:
            u = atty
        day = min(today - dt.timedelta(days=1), opened + dt.timedelta(days=2 + m * 4))
        mins = 6 * s.rng.randint(2, 40)
        entries.append(
            s.create(
                Activity,
                matter_id=matter.id,
                user_id=u.id,
                kind="time",
                date=day,
                minutes=mins,
                rate=u.hourly_rate,
                total=u.hourly_rate * mins // 60,
                description=WORK[m % len(WORK)],
                billable=matter.billing_method == "hourly",
                created_at=utc_at(day, 18),
            )
        )
    if n % 2 == 0:
        label, amount = EXPENSES[k % len(EXPENSES)]
        day = min(today - dt.timedelta(days=1), opened + dt.timedelta(days=5))
        entries.append(
            s.create(
                Activity,
                matter_id=matter.id,
                user_id=atty.id,
                kind="expense",
                date=day,
                total=amount,
                description=label,
                created_at=utc_at(day, 18, 30),
            )
        )
    return entries


def _refund_retainer(s: SeedContext, matter: Matter, balance: int) -> None:
    s.create(
        TrustTransaction,
        matter_id=matter.id,
        client_id=matter.client_id,
        kind="refund",
        amount=balance,
        date=s.now.date() - dt.timedelta(days=4),
        reference="Unused retainer",
        balance_after=0,
        created_at=s.ago(days=4),
    )


def _seed_billing(s: SeedContext, k: int, n: int, matter: Matter, client: Client, entries: list[Activity]) -> None:
    """The matter's retainer, its bill for the older work (paid from trust first) and a closed matter's refund."""
    today = s.now.date()
    opened = matter.open_date
    closed = matter.status == "closed"
    balance = 0
    if matter.billing_method != "contingency" and n % 3 != 2:
        balance = (5_000_00, 10_000_00, 2_500_00)[k % 3]
        s.create(
            TrustTransaction,
            matter_id=matter.id,
            client_id=client.id,
            kind="deposit",
            amount=balance,
            date=opened,
            reference="Retainer",
            balance_after=balance,
            created_at=utc_at(opened, 12),
        )
    billable = [a for a in entries if a.billable]
    # Older work is billed: closed matters entirely, open ones up to the first half.
    to_bill = billable if closed else billable[: len(billable) // 2]
    bill_fee = matter.flat_fee or 0
    if not to_bill and not bill_fee:
        if closed and balance:
            _refund_retainer(s, matter, balance)
            balance = 0
        s.update(matter, trust_balance=balance)
        return
    total = bill_fee + sum(a.total for a in to_bill)
    issued = opened + dt.timedelta(days=30)
    issued = min(issued, today - dt.timedelta(days=2))
    state = "paid" if closed or n % 4 == 0 else ("draft" if n % 4 == 1 else "awaiting_payment")
    # Paid bills drew on the retainer first; issued ones only half of it so far.
    from_trust = {"paid": min(balance, total), "awaiting_payment": min(balance, total) // 2}.get(state, 0)
    paid = total if state == "paid" else from_trust
    if paid == total and state != "draft":
        state = "paid"
    bill = s.create(
        Bill,
        matter_id=matter.id,
        client_id=client.id,
        client_email=client.email,
        status=state,
        activity_ids=[a.id for a in to_bill],
        flat_fee=bill_fee,
        total=total,
        paid=paid,
        balance=total - paid,
        issue_date=None if state == "draft" else issued,
        due_date=None if state == "draft" else issued + dt.timedelta(days=PAYMENT_DAYS),
        updated_at=utc_at(issued, 9),
    )
    for a in to_bill:
        s.update(a, bill_id=bill.id)
    if from_trust:
        balance -= from_trust
        s.create(
            TrustTransaction,
            matter_id=matter.id,
            client_id=client.id,
            kind="bill_payment",
            amount=from_trust,
            date=issued,
            bill_id=bill.id,
            reference=f"Payment of {bill.number}",
            balance_after=balance,
            created_at=utc_at(issued, 12),
        )
    if closed and balance:
        _refund_retainer(s, matter, balance)
        balance = 0
    s.update(matter, trust_balance=balance)


@service.seeder
def seed(s: SeedContext) -> None:
    """Timekeepers from the staff, company and private clients, matters with time, bills and trust money."""
    pop = s.population
    today = s.now.date()
    users_ = _seed_users(s)
    lawyers = [u for u in users_ if u.role != "paralegal" and u.active]
    clients_ = _seed_clients(s)
    client_names = {c.company_name for c in clients_ if c.company_name}
    outsiders = [c.name for c in pop.customers if c.name not in client_names]
    for k, client in enumerate(clients_):
        for j in range(1 + (k % 3 == 0)):
            desc, area, method = MATTERS[(k + j * 3) % len(MATTERS)]
            closed = (k + j) % 6 == 5
            atty = lawyers[(k + j) % len(lawyers)]
            matter = s.create(
                Matter,
                client_id=client.id,
                client_email=client.email,
                description=desc,
                practice_area=area,
                responsible_attorney_id=atty.id,
                billing_method=method,
                flat_fee=(1_500_00, 3_000_00)[k % 2] if method == "flat_fee" else None,
                adverse_party=outsiders[(k + j) % len(outsiders)] if area == "litigation" and outsiders else None,
                status="closed" if closed else ("pending" if (k + j) % 11 == 7 else "open"),
                open_date=today - dt.timedelta(days=20 + (k * 13 + j * 40) % 300),
                close_date=today - dt.timedelta(days=3) if closed else None,
                currency=pop.home.place.currency,
                updated_at=s.ago(days=2),
            )
            entries = _seed_activities(s, k, k + j, matter, atty, users_)
            _seed_billing(s, k, k + j, matter, client, entries)
