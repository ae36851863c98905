"""Tidemark Treasury: bank accounts across banks and entities, cash positions, forecasts, payments, bank fees.

Modeled on the Kyriba treasury management API (bank accounts, cash balances
and daily cash positions, cash flow forecasts by cash flow code, payments and
intercompany transfers with workflow approval, bank fee analysis on AFP service
codes): accounts belong to one of the group's entities and banks, in one
currency; a payment goes draft → pending_approval → approved → released (or
rejected / cancelled); payments of 25,000.00 or more need two approvals by two
different approvers, and nobody approves a payment they initiated; a release
cannot overdraw the account's available balance and moves today's intraday
cash position; an intercompany transfer moves money between two accounts of
different entities in the same currency; an account closes only at zero
balance with nothing in flight; only bank fees charged above the agreed unit
price can be disputed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Currency,
    Date,
    Email,
    IdOf,
    InvoiceNumber,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.world import finance as links

__all__ = ["service"]

service = Service(
    "treasury",
    title="Tidemark Treasury",
    category="treasury",
    modeled_on="Kyriba treasury management API (bank accounts, cash balances and positions, cash flow "
    "forecasts, payments and intercompany transfers with workflow approval, bank fee analysis)",
    description="Group treasury across banks and entities: the bank accounts of each entity with ledger and "
    "available balances and minimum targets, daily cash positions from bank statements, cash forecasts by "
    "category, vendor payments and intercompany transfers released after one or two approvals, and the "
    "banks' monthly fee statements analysed against the agreed prices.",
)

AccountId = Annotated[str, IdOf("treasury.bank_account")]
UserId = Annotated[str, IdOf("treasury.user")]
PositionId = Annotated[str, IdOf("treasury.cash_position")]
ForecastId = Annotated[str, IdOf("treasury.forecast")]
PaymentId = Annotated[str, IdOf("treasury.payment")]
FeeId = Annotated[str, IdOf("treasury.bank_fee")]

Period = Annotated[str, StringConstraints(pattern=r"^20\d\d-(0[1-9]|1[0-2])$")]
"""A calendar month, YYYY-MM."""
ServiceCode = Annotated[str, StringConstraints(pattern=r"^\d{6}$")]
"""An AFP bank service code (six digits)."""
Entity = Literal["US01", "GB01", "DE01"]
AccountKind = Literal["operating", "payroll", "concentration", "investment"]
UserRole = Literal["treasurer", "approver", "analyst", "viewer"]
PaymentStatus = Literal["draft", "pending_approval", "approved", "released", "rejected", "cancelled"]
PaymentKind = Literal["vendor", "intercompany"]
FlowCategory = Literal[
    "customer_receipts", "vendor_payments", "payroll", "taxes", "debt_service", "intercompany", "other"
]
FeeStatus = Literal["open", "accepted", "disputed"]

DUAL_APPROVAL = 25_000_00
"""Payments of this amount (cents) or more need two approvers."""
ENTITY_CURRENCY: dict[str, str] = {"US01": "USD", "GB01": "GBP", "DE01": "EUR"}
INITIATORS: tuple[UserRole, ...] = ("treasurer", "analyst")
APPROVERS: tuple[UserRole, ...] = ("treasurer", "approver")
IN_FLIGHT: tuple[PaymentStatus, ...] = ("draft", "pending_approval", "approved")


class BankAccount(Record):
    """A bank account of one of the group's entities."""

    id: AccountId
    name: Title
    """Display name."""
    bank_name: Title
    """The bank that holds it."""
    account_number: AccountNumber
    """Account number (IBAN or local); unique."""
    entity: Entity
    """The legal entity that owns it: US01, GB01 or DE01."""
    currency: Currency
    """The account's currency."""
    kind: AccountKind = "operating"
    """operating, payroll, concentration or investment."""
    ledger_balance: int = 0
    """Balance of posted entries, in cents."""
    available_balance: int = 0
    """Ledger balance less payments approved but not released, in cents."""
    minimum_balance: Cents = 0
    """The target floor the forecast warns about, in cents."""
    status: Literal["active", "closed"] = "active"
    """active or closed."""


class User(Record):
    """A treasury user and their workflow role."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Login e-mail; unique."""
    role: UserRole
    """treasurer (all), approver (approves payments), analyst (initiates payments) or viewer."""


class CashPosition(Record):
    """One account's cash position on one day, from the bank's statement (or intraday activity today)."""

    id: PositionId
    account_id: AccountId
    """The account."""
    date: Date
    """The value date."""
    opening_balance: int
    """Balance at the start of the day, in cents."""
    inflows: Cents = 0
    """Credits of the day, in cents."""
    outflows: Cents = 0
    """Debits of the day, in cents."""
    closing_balance: int
    """Opening plus inflows less outflows, in cents."""
    source: Literal["prior_day_bai2", "intraday_mt942"] = "prior_day_bai2"
    """prior_day_bai2 (final statement) or intraday_mt942 (today, still moving)."""


class Forecast(Timestamped):
    """An expected cash flow on an account, by cash flow category."""

    id: ForecastId
    account_id: AccountId
    """The account it lands on."""
    category: FlowCategory
    """customer_receipts, vendor_payments, payroll, taxes, debt_service, intercompany or other."""
    direction: Literal["inflow", "outflow"]
    """inflow or outflow."""
    amount: Cents
    """Amount in cents, in the account's currency."""
    value_date: Date
    """When it is expected."""
    description: Title
    """What it is."""
    counterparty: CompanyName | None = None
    """The customer or vendor on the other side."""


class Payment(Created):
    """A vendor payment or an intercompany transfer, released after approval."""

    id: PaymentId
    kind: PaymentKind
    """vendor or intercompany."""
    from_account_id: AccountId
    """The debited account."""
    to_account_id: AccountId | None = None
    """The credited group account (intercompany)."""
    beneficiary_name: CompanyName | None = None
    """The vendor paid (vendor payments)."""
    beneficiary_account: AccountNumber | None = None
    """The vendor's bank account (vendor payments)."""
    amount: Cents
    """Amount in cents, in the account's currency."""
    currency: Currency
    """Currency (the debited account's)."""
    value_date: Date
    """The requested execution date."""
    reference: InvoiceNumber | None = None
    """The invoice or reference the payment settles."""
    memo: Text = ""
    """Free text."""
    initiated_by: Email
    """The user who created it."""
    approvals: tuple[Email, ...] = ()
    """The users who approved it, in order."""
    required_approvals: Annotated[int, Field(ge=1, le=2)] = 1
    """1, or 2 for amounts of 25,000.00 and more."""
    status: PaymentStatus = "draft"
    """draft, pending_approval, approved, released, rejected or cancelled."""
    rejected_by: Email | None = None
    """Who rejected it."""
    rejection_reason: Text | None = None
    """Why it was rejected."""
    released_on: Date | None = None
    """When it was released to the bank."""


class BankFee(Record):
    """A line of a bank's monthly account analysis statement."""

    id: FeeId
    account_id: AccountId
    """The account charged."""
    period: Period
    """The statement month, YYYY-MM."""
    service_code: ServiceCode
    """AFP service code."""
    description: Title
    """The service."""
    volume: Annotated[int, Field(ge=0, le=10**7)]
    """How many units were charged."""
    unit_price: Cents
    """The price charged per unit, in cents."""
    agreed_unit_price: Cents
    """The price agreed with the bank, in cents."""
    amount: Cents
    """volume times unit price, in cents."""
    status: FeeStatus = "open"
    """open, accepted or disputed (with the bank for a credit)."""
    dispute_reason: Text | None = None
    """Why it was disputed."""


class CashForecast(Value):
    """Projected cash of an account over a horizon."""

    account_id: str
    """The account."""
    starting_balance: int
    """Today's ledger balance, in cents."""
    inflows_by_category: dict[str, int]
    """Expected inflows per category, in cents."""
    outflows_by_category: dict[str, int]
    """Expected outflows per category, in cents."""
    projected_balance: int
    """Balance at the end of the horizon, in cents."""
    lowest_balance: int
    """The lowest projected daily balance, in cents."""
    lowest_on: dt.date
    """When the lowest balance is reached."""
    below_minimum: bool
    """Whether the lowest balance falls under the account's minimum."""


class FeeAnalysis(Value):
    """A bank account's fees for a month against the agreed prices."""

    account_id: str
    """The account."""
    period: str
    """The month."""
    charged: int
    """Total charged, in cents."""
    expected: int
    """Total at agreed prices, in cents."""
    overcharge: int
    """Charged less expected on overpriced lines, in cents."""
    overpriced_fee_ids: list[str]
    """Lines charged above the agreed price."""


# -- rules ------------------------------------------------------------------------------------


def _user(ctx: Ctx, email: str, field: str, roles: tuple[UserRole, ...]) -> User:
    user = ctx.first(User, email=email)
    if user is None:
        raise NotFound(f"{email} is not a treasury user", field=field, hint="list users with treasury__list_users")
    if user.role not in roles:
        raise RuleViolation(f"{email} is a {user.role}", field=field, hint=f"pick a {' or '.join(roles)}")
    return user


def _active(ctx: Ctx, account_id: str, field: str) -> BankAccount:
    acct = ctx.get(BankAccount, account_id, field=field)
    if acct.status != "active":
        raise RuleViolation(f"account {acct.name} is closed", field=field, hint="use an active account")
    return acct


def _guard_forecast(ctx: Ctx, new: Any, old: Any) -> None:
    _active(ctx, new.account_id, "account_id")
    if new.value_date < ctx.today():
        raise RuleViolation("a forecast cannot be in the past", field="value_date", hint="use today or later")


accounts = service.resource(
    BankAccount,
    name="bank_account",
    plural="bank_accounts",
    prefix="bac",
    create=False,
    filters=("entity", "currency", "bank_name", "kind", "status", "account_number"),
    search=("name", "bank_name"),
    update=("name", "minimum_balance", "kind"),
    delete=False,
    title="bank account",
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("role", "email"),
    search=("name", "email"),
    delete=False,
    title="treasury user",
)
positions = service.resource(
    CashPosition,
    name="cash_position",
    plural="cash_positions",
    prefix="pos",
    create=False,
    get=False,
    filters=("account_id", "date", "source"),
    delete=False,
    title="cash position",
)
forecasts = service.resource(
    Forecast,
    name="forecast",
    plural="forecasts",
    prefix="fc",
    create=("account_id", "category", "direction", "amount", "value_date", "description", "counterparty"),
    filters=("account_id", "category", "direction", "value_date", "counterparty"),
    search=("description", "counterparty"),
    update=("amount", "value_date", "description"),
    guard_create=_guard_forecast,
    guard_update=_guard_forecast,
    title="cash forecast flow",
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    filters=("status", "kind", "from_account_id", "to_account_id", "beneficiary_name", "reference", "initiated_by"),
    search=("memo", "beneficiary_name"),
    delete=False,
    transitions={
        "submit": Transition("status", ("draft",), "pending_approval", "submit the payment for approval"),
        "cancel": Transition(
            "status",
            ("draft", "pending_approval"),
            "cancelled",
            "cancel the payment",
            description="Cancel a payment that is still a draft or waiting for approval.",
            destructive=True,
        ),
    },
    title="treasury payment",
)
fees = service.resource(
    BankFee,
    name="bank_fee",
    plural="bank_fees",
    prefix="fee",
    create=False,
    filters=("account_id", "period", "service_code", "status"),
    search=("description",),
    delete=False,
    transitions={"accept": Transition("status", ("open",), "accepted", "accept the bank fee")},
    title="bank fee",
)


# -- accounts ---------------------------------------------------------------------------------


@service.tool(
    intent="close the bank account",
    write=True,
    destructive=True,
    example=first_example(BankAccount, "bank_account_id", where={"status": "active", "ledger_balance": 0}),
)
def close_bank_account(ctx: Ctx, bank_account_id: AccountId) -> BankAccount:
    """Close an account: its balance must be zero and no payment from or to it may be in flight.

    Args:
        bank_account_id: The account.
    """
    acct = _active(ctx, bank_account_id, "bank_account_id")
    if acct.ledger_balance != 0:
        raise RuleViolation(f"{acct.name} is not empty", field="bank_account_id", hint="move its balance out first")
    for p in ctx.scan(Payment):
        if p.status in IN_FLIGHT and bank_account_id in (p.from_account_id, p.to_account_id):
            raise RuleViolation(f"payment {p.id} is {p.status}", field="bank_account_id", hint="release or cancel it")
    return ctx.update(acct, status="closed")


@service.tool(
    intent="forecast the account's cash",
    example=first_example(BankAccount, "bank_account_id", where={"status": "active"}, days=30),
)
def forecast_cash(ctx: Ctx, bank_account_id: AccountId, days: Annotated[int, Field(ge=1, le=365)] = 30) -> CashForecast:
    """Project an account's balance from today's ledger balance and its forecast flows over the next days.

    Args:
        bank_account_id: The account.
        days: The horizon in days (1-365).
    """
    acct = ctx.get(BankAccount, bank_account_id, field="bank_account_id")
    today = ctx.today()
    end = today + dt.timedelta(days=days)
    flows = sorted(
        (f for f in ctx.where(Forecast, account_id=acct.id) if today <= f.value_date <= end), key=lambda f: f.value_date
    )
    ins: dict[str, int] = {}
    outs: dict[str, int] = {}
    balance = lowest = acct.ledger_balance
    lowest_on = today
    for f in flows:
        book = ins if f.direction == "inflow" else outs
        book[f.category] = book.get(f.category, 0) + f.amount
        balance += f.amount if f.direction == "inflow" else -f.amount
        if balance < lowest:
            lowest, lowest_on = balance, f.value_date
    return CashForecast(
        account_id=acct.id,
        starting_balance=acct.ledger_balance,
        inflows_by_category=ins,
        outflows_by_category=outs,
        projected_balance=balance,
        lowest_balance=lowest,
        lowest_on=lowest_on,
        below_minimum=lowest < acct.minimum_balance,
    )


# -- payments ---------------------------------------------------------------------------------


def _needed(amount: int) -> int:
    return 2 if amount >= DUAL_APPROVAL else 1


def _draft(ctx: Ctx, src: BankAccount, amount: int, value_date: dt.date, initiated_by: str, **fields: Any) -> Payment:
    _user(ctx, initiated_by, "initiated_by", INITIATORS)
    if value_date < ctx.today():
        raise RuleViolation("value_date is in the past", field="value_date", hint="use today or a later date")
    return ctx.create(
        Payment,
        from_account_id=src.id,
        amount=amount,
        currency=src.currency,
        value_date=value_date,
        initiated_by=initiated_by,
        required_approvals=_needed(amount),
        **fields,
    )


def _example_vendor_payment(ctx: Ctx) -> dict[str, Any] | None:
    acct = ctx.first(BankAccount, entity="US01", kind="operating", status="active")
    analyst = ctx.first(User, role="analyst")
    sup = links.suppliers(ctx.population)
    if acct is None or analyst is None or not sup:
        return None
    return {
        "from_account_id": acct.id,
        "beneficiary_name": sup[0].company.name,
        "beneficiary_account": sup[0].remit_account,
        "amount": 4_800_00,
        "value_date": ctx.today().isoformat(),
        "initiated_by": analyst.email,
        "reference": "INV-40017",
    }


@service.tool(intent="create a vendor payment", write=True, example=_example_vendor_payment)
def create_payment(
    ctx: Ctx,
    from_account_id: AccountId,
    beneficiary_name: CompanyName,
    beneficiary_account: AccountNumber,
    amount: Annotated[int, Field(gt=0, le=10**12)],
    value_date: Date,
    initiated_by: Email,
    reference: InvoiceNumber | None = None,
    memo: Text = "",
) -> Payment:
    """Draft a payment to a vendor's bank account; submit it for approval with treasury__submit_payment.

    Payments of 25,000.00 or more need two approvals.

    Args:
        from_account_id: The account debited (its currency is the payment's).
        beneficiary_name: The vendor.
        beneficiary_account: The vendor's bank account number.
        amount: Amount in cents.
        value_date: The execution date (today or later).
        initiated_by: The treasurer or analyst creating it.
        reference: The invoice it settles.
        memo: Free text.
    """
    acct = _active(ctx, from_account_id, "from_account_id")
    if reference is not None:
        for p in ctx.where(Payment, reference=reference, beneficiary_name=beneficiary_name):
            if p.status not in ("rejected", "cancelled"):
                raise Conflict(
                    f"payment {p.id} already pays {reference}", field="reference", hint="cancel it to pay again"
                )
    fields = {"beneficiary_name": beneficiary_name, "beneficiary_account": beneficiary_account}
    return _draft(ctx, acct, amount, value_date, initiated_by, kind="vendor", reference=reference, memo=memo, **fields)


def _example_ic(ctx: Ctx) -> dict[str, Any] | None:
    accts = ctx.where(BankAccount, currency="USD", status="active")
    src = next((a for a in accts if a.entity == "US01" and a.kind == "concentration"), None)
    dst = next((a for a in accts if a.entity != "US01"), None)
    user = ctx.first(User, role="treasurer")
    if src is None or dst is None or user is None:
        return None
    return {
        "from_account_id": src.id,
        "to_account_id": dst.id,
        "amount": 10_000_00,
        "value_date": ctx.today().isoformat(),
        "initiated_by": user.email,
        "memo": "Intercompany funding",
    }


@service.tool(intent="create an intercompany transfer", write=True, example=_example_ic)
def create_intercompany_transfer(
    ctx: Ctx,
    from_account_id: AccountId,
    to_account_id: AccountId,
    amount: Annotated[int, Field(gt=0, le=10**12)],
    value_date: Date,
    initiated_by: Email,
    memo: Text = "",
) -> Payment:
    """Draft a transfer between accounts of two different entities in the same currency.

    Args:
        from_account_id: The debited account.
        to_account_id: The credited account (another entity's, same currency).
        amount: Amount in cents.
        value_date: The execution date (today or later).
        initiated_by: The treasurer or analyst creating it.
        memo: Free text (the intercompany loan or settlement it books).
    """
    src = _active(ctx, from_account_id, "from_account_id")
    dst = _active(ctx, to_account_id, "to_account_id")
    if dst.entity == src.entity:
        raise RuleViolation(f"both accounts are {src.entity}'s", field="to_account_id", hint="pick another entity's")
    if dst.currency != src.currency:
        raise RuleViolation(
            f"{dst.name} holds {dst.currency}", field="to_account_id", hint=f"pick a {src.currency} account"
        )
    return _draft(ctx, src, amount, value_date, initiated_by, kind="intercompany", to_account_id=dst.id, memo=memo)


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Payment, status="pending_approval"):
        acct = ctx.get(BankAccount, p.from_account_id)
        if p.amount > acct.available_balance:
            continue
        for u in ctx.scan(User):
            if u.role in APPROVERS and u.email != p.initiated_by and u.email not in p.approvals:
                return {"payment_id": p.id, "approver_email": u.email}
    return None


@service.tool(intent="approve the payment", write=True, example=_example_approve)
def approve_payment(ctx: Ctx, payment_id: PaymentId, approver_email: Email) -> Payment:
    """Record an approval; the last required one makes the payment approved and holds its amount.

    The initiator cannot approve, nobody approves twice, and the account must have the funds available.

    Args:
        payment_id: The payment waiting for approval.
        approver_email: The approver or treasurer approving.
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status != "pending_approval":
        raise RuleViolation(f"payment is {pay.status}", field="payment_id", hint="approve submitted payments only")
    _user(ctx, approver_email, "approver_email", APPROVERS)
    if approver_email == pay.initiated_by:
        raise RuleViolation("the initiator cannot approve it", field="approver_email", hint="ask another approver")
    if approver_email in pay.approvals:
        raise Conflict(f"{approver_email} already approved it", field="approver_email", hint="ask another approver")
    acct = ctx.get(BankAccount, pay.from_account_id)
    if pay.amount > acct.available_balance:
        raise RuleViolation(f"{acct.name} lacks the funds", field="payment_id", hint="fund the account or reject it")
    approvals = (*pay.approvals, approver_email)
    if len(approvals) < pay.required_approvals:
        return ctx.update(pay, approvals=approvals)
    ctx.update(acct, available_balance=acct.available_balance - pay.amount)
    return ctx.update(pay, approvals=approvals, status="approved")


@service.tool(
    intent="reject the payment",
    write=True,
    example=first_example(Payment, "payment_id", where={"status": "pending_approval"}, reason="Duplicate invoice"),
)
def reject_payment(ctx: Ctx, payment_id: PaymentId, reason: Text, rejected_by: Email | None = None) -> Payment:
    """Reject a payment waiting for approval, with a reason.

    Args:
        payment_id: The payment.
        reason: Why (required).
        rejected_by: The approver rejecting it.
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status != "pending_approval":
        raise RuleViolation(f"payment is {pay.status}", field="payment_id", hint="only submitted payments are rejected")
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say why")
    if rejected_by is not None:
        _user(ctx, rejected_by, "rejected_by", APPROVERS)
    return ctx.update(pay, status="rejected", rejected_by=rejected_by, rejection_reason=reason.strip())


def _post(ctx: Ctx, acct: BankAccount, delta: int) -> None:
    ctx.update(acct, ledger_balance=acct.ledger_balance + delta)
    today = ctx.today()
    pos = ctx.first(CashPosition, account_id=acct.id, date=today)
    if pos is None:
        ctx.create(
            CashPosition,
            account_id=acct.id,
            date=today,
            opening_balance=acct.ledger_balance,
            inflows=max(delta, 0),
            outflows=max(-delta, 0),
            closing_balance=acct.ledger_balance + delta,
            source="intraday_mt942",
        )
    else:
        ctx.update(
            pos,
            inflows=pos.inflows + max(delta, 0),
            outflows=pos.outflows + max(-delta, 0),
            closing_balance=pos.closing_balance + delta,
        )


@service.tool(
    intent="release the payment to the bank",
    write=True,
    example=first_example(Payment, "payment_id", where={"status": "approved"}),
)
def release_payment(ctx: Ctx, payment_id: PaymentId) -> Payment:
    """Send an approved payment to the bank: the debited (and, intercompany, the credited) account posts it.

    Args:
        payment_id: The approved payment.
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status != "approved":
        raise RuleViolation(f"payment is {pay.status}", field="payment_id", hint="approve it first")
    src = ctx.get(BankAccount, pay.from_account_id)
    _post(ctx, src, -pay.amount)
    if pay.to_account_id is not None:
        dst = ctx.get(BankAccount, pay.to_account_id)
        if dst.status != "active":
            raise RuleViolation(f"{dst.name} is closed", field="payment_id", hint="cancel it and transfer elsewhere")
        _post(ctx, dst, pay.amount)
        dst = ctx.get(BankAccount, dst.id)
        ctx.update(dst, available_balance=dst.available_balance + pay.amount)
    return ctx.update(pay, status="released", released_on=ctx.today())


# -- fees -------------------------------------------------------------------------------------


@service.tool(
    intent="dispute the bank fee",
    write=True,
    example=first_example(
        BankFee,
        "bank_fee_id",
        where={"status": "open"},
        match=lambda c, f: f.unit_price > f.agreed_unit_price,
        reason="Charged above the agreed price in our fee schedule.",
    ),
)
def dispute_fee(ctx: Ctx, bank_fee_id: FeeId, reason: Text) -> BankFee:
    """Dispute an open fee line charged above the agreed unit price.

    Args:
        bank_fee_id: The fee line.
        reason: What to tell the bank (required).
    """
    fee = ctx.get(BankFee, bank_fee_id, field="bank_fee_id")
    if fee.unit_price <= fee.agreed_unit_price:
        raise RuleViolation(
            "fee is at the agreed price", field="bank_fee_id", hint="accept it with treasury__accept_bank_fee"
        )
    if fee.status != "open":
        raise Conflict(f"fee is already {fee.status}", field="bank_fee_id", hint="only open fees are disputed")
    if not reason.strip():
        raise RuleViolation("a dispute needs a reason", field="reason", hint="say what is wrong")
    return ctx.update(fee, status="disputed", dispute_reason=reason.strip())


def _example_analysis(ctx: Ctx) -> dict[str, Any] | None:
    fee = ctx.first(BankFee)
    return None if fee is None else {"bank_account_id": fee.account_id, "period": fee.period}


@service.tool(intent="analyse the account's bank fees", example=_example_analysis)
def analyze_bank_fees(ctx: Ctx, bank_account_id: AccountId, period: Period) -> FeeAnalysis:
    """Compare a month's fees on an account with the agreed prices.

    Args:
        bank_account_id: The account.
        period: The statement month, YYYY-MM.
    """
    ctx.get(BankAccount, bank_account_id, field="bank_account_id")
    lines = ctx.where(BankFee, account_id=bank_account_id, period=period)
    over = [f for f in lines if f.unit_price > f.agreed_unit_price]
    return FeeAnalysis(
        account_id=bank_account_id,
        period=period,
        charged=sum(f.amount for f in lines),
        expected=sum(f.volume * f.agreed_unit_price for f in lines),
        overcharge=sum(f.volume * (f.unit_price - f.agreed_unit_price) for f in over),
        overpriced_fee_ids=[f.id for f in over],
    )


# -- seed -------------------------------------------------------------------------------------

ACCOUNTS: tuple[tuple[str, str, Entity, AccountKind, str, int, int], ...] = (
    ("US Operating", "JPMorgan Chase", "US01", "operating", "operating", 412_500_00, 150_000_00),
    ("US Payroll", "JPMorgan Chase", "US01", "payroll", "payroll", 96_000_00, 80_000_00),
    ("US Concentration", "Bank of America", "US01", "concentration", "", 1_250_000_00, 500_000_00),
    ("UK Operating", "Barclays", "GB01", "operating", "", 184_300_00, 50_000_00),
    ("UK USD Collections", "Barclays", "GB01", "operating", "", 62_750_00, 0),
    ("DE Operating", "Deutsche Bank", "DE01", "operating", "", 233_900_00, 60_000_00),
    ("DE Dormant", "Commerzbank", "DE01", "investment", "", 0, 0),
)
FEES: tuple[tuple[str, str, int, int, int], ...] = (
    ("010000", "Account maintenance", 1, 25_00, 25_00),
    ("250201", "ACH origination item", 420, 18, 15),
    ("350100", "Outgoing wire transfer", 36, 30_00, 25_00),
    ("100045", "Deposited item", 210, 12, 12),
    ("400250", "Online banking module", 1, 75_00, 75_00),
)
PLANS: tuple[tuple[PaymentStatus, int, int], ...] = (
    ("draft", 3_200_00, 0),
    ("pending_approval", 8_450_00, 0),
    ("pending_approval", 42_000_00, 1),
    ("approved", 12_600_00, 1),
    ("released", 5_900_00, 1),
    ("rejected", 7_700_00, 0),
    ("cancelled", 1_150_00, 0),
)
"""Seeded vendor payments: status, amount, approvals already given."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Accounts of three entities, Finance users, a week of positions, forecasts, payments in every state, fees."""
    pop = s.population
    finance = pop.staff("Finance", "Accounting")
    finance += [p for p in pop.employees if p not in finance]  # six users at least, the analysts among them
    roles: tuple[UserRole, ...] = ("treasurer", "approver", "approver", "analyst", "analyst", "viewer")
    made_users = [
        s.create(User, name=p.name, email=p.email, role=roles[k % len(roles)]) for k, p in enumerate(finance[:6])
    ]
    by_role = {r: [u.email for u in made_users if u.role == r] for r in roles}
    accts: list[BankAccount] = []
    for k, (name, bank, entity, kind, key, balance, floor) in enumerate(ACCOUNTS):
        number = links.home_account_number(pop, key) if key else f"{entity[:2]}{k + 1:02d}TDM{7000 + 37 * k}"
        currency = "USD" if "USD" in name else ENTITY_CURRENCY[entity]
        money = {"ledger_balance": balance, "available_balance": balance, "minimum_balance": floor}
        accts.append(
            s.create(
                BankAccount,
                name=name,
                bank_name=bank,
                account_number=number,
                entity=entity,
                currency=currency,
                kind=kind,
                **money,
            )
        )
    today = s.now.date()
    for a in accts:
        close = a.ledger_balance
        for d in range(1, 8):
            ins = s.rng.randint(0, 40) * 1_000_00 if close else 0
            outs = s.rng.randint(0, 35) * 1_000_00 if close else 0
            flows = {"inflows": ins, "outflows": outs, "closing_balance": close}
            s.create(
                CashPosition,
                account_id=a.id,
                date=today - dt.timedelta(days=d),
                opening_balance=close - ins + outs,
                **flows,
            )
            close = close - ins + outs
    _seed_forecasts(s, accts)
    analyst = by_role["analyst"][0]
    approvers = by_role["approver"] + by_role["treasurer"]
    sup = links.suppliers(pop)
    for k, (status, amount, n) in enumerate(PLANS):
        link = sup[k % len(sup)]
        rejected = status == "rejected"
        s.create(
            Payment,
            kind="vendor",
            from_account_id=accts[0].id,
            beneficiary_name=link.company.name,
            beneficiary_account=link.remit_account,
            amount=amount,
            currency="USD",
            value_date=today + dt.timedelta(days=k % 3),
            reference=f"INV-{30100 + k}",
            initiated_by=analyst,
            approvals=tuple(approvers[:n]),
            required_approvals=_needed(amount),
            status=status,
            rejected_by=approvers[0] if rejected else None,
            rejection_reason="Bank details do not match the vendor master" if rejected else None,
            released_on=today - dt.timedelta(days=1) if status == "released" else None,
            created_at=s.ago(days=5 - k % 4),
        )
        if status == "approved":
            s.update(accts[0], available_balance=accts[0].available_balance - amount)
    s.create(
        Payment,
        kind="intercompany",
        from_account_id=accts[2].id,
        to_account_id=accts[4].id,
        amount=30_000_00,
        currency="USD",
        value_date=today,
        memo="Intercompany loan to GB01",
        initiated_by=analyst,
        required_approvals=2,
        status="pending_approval",
        created_at=s.ago(days=1),
    )
    month = (today.replace(day=1) - dt.timedelta(days=1)).strftime("%Y-%m")
    for a in accts[:6]:
        for code, desc, vol, price, agreed in FEES:
            volume = vol if vol == 1 else vol + s.rng.randint(-vol // 4, vol // 4) // (1 if a.currency == "USD" else 3)
            prices = {"unit_price": price, "agreed_unit_price": agreed, "amount": volume * price}
            s.create(
                BankFee,
                account_id=a.id,
                period=month,
                service_code=code,
                description=desc,
                volume=volume,
                status="accepted" if price == agreed else "open",
                **prices,
            )


def _seed_forecasts(s: SeedContext, accts: list[BankAccount]) -> None:
    """Twelve flows over the next five weeks: customer receipts in, vendor, payroll and tax payments out."""
    sup = links.suppliers(s.population)
    cust = list(s.population.customers[:6])
    today = s.now.date()
    for k in range(12):
        inflow = k % 3 == 0
        cat: FlowCategory = "customer_receipts" if inflow else ("vendor_payments", "payroll", "taxes")[k % 3 - 1]
        other = None
        if cat == "customer_receipts" and cust:
            other = cust[k % len(cust)].name
        elif cat == "vendor_payments" and sup:
            other = sup[k % len(sup)].company.name
        s.create(
            Forecast,
            account_id=accts[k % 4].id,
            category=cat,
            direction="inflow" if inflow else "outflow",
            amount=(20 + 7 * k) * 1_000_00,
            value_date=today + dt.timedelta(days=2 + 3 * k),
            description=f"{cat.replace('_', ' ').capitalize()} week {k // 2 + 1}",
            counterparty=other,
            created_at=s.ago(days=10),
            updated_at=s.ago(days=3),
        )
