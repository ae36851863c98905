"""Kilowatt Home Energy: an energy supplier's customer accounts, meters, readings, tariffs, bills and moves.

Modeled on Octopus Energy's customer REST API (``/v1/accounts/{number}/``,
``/v1/products/``, ``/v1/electricity-meter-points/{mpan}/``): an account
(A-1B2C3D4E) holds properties with moved-in and moved-out dates; each property
has electricity meter points (13-digit MPAN) and gas meter points (6-10 digit
MPRN) with a smart or traditional meter; a meter point's supply goes
pending_registration → on_supply → off_supply; agreements put a meter point on a
tariff (``E-1R-VAR-22-11-01-C``) from a date to a date, and switching ends the
current one; Agile, Go and Intelligent tariffs need a smart meter. Meter readings
must not go backwards, must not be dated in the future or before the last one,
and at most 200 kWh a day. A bill charges the consumption between readings at
the unit rate plus the daily standing charge; payments take the balance back
towards credit, and only credit is refunded. Moving out needs a final reading
on every meter, ends the agreements and issues a final bill; an account closes
only when it has no occupied property and a zero balance.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    PersonName,
    Phone,
    PostalAddress,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "utilitybill",
    title="Kilowatt Home Energy",
    category="energy_utilities",
    modeled_on="Octopus Energy customer REST API v1: accounts, properties, electricity and gas meter points "
    "(MPAN/MPRN), meter readings, products and tariffs, agreements, bills, payments, moves in and out",
    description="A household energy supplier: customer accounts and the properties they live in, electricity "
    "and gas meter points with their readings, the tariffs on offer and each meter's agreement, bills from "
    "consumption and standing charges, payments and refunds, and moving home in or out.",
)

AccountId = Annotated[str, IdOf("utilitybill.account")]
PropertyId = Annotated[str, IdOf("utilitybill.property")]
MeterPointId = Annotated[str, IdOf("utilitybill.meter_point")]
ReadingId = Annotated[str, IdOf("utilitybill.reading")]
TariffId = Annotated[str, IdOf("utilitybill.tariff")]
AgreementId = Annotated[str, IdOf("utilitybill.agreement")]
BillId = Annotated[str, IdOf("utilitybill.bill")]
PaymentId = Annotated[str, IdOf("utilitybill.payment")]

Mpxn = Annotated[str, StringConstraints(pattern=r"^\d{6,13}$")]
"""A meter point number: a 13-digit MPAN (electricity) or a 6-10 digit MPRN (gas)."""
TariffCode = Annotated[str, StringConstraints(pattern=r"^[EG]-1R-[A-Z0-9-]{4,40}-[A-P]$")]
"""A tariff code such as E-1R-VAR-22-11-01-C (fuel, register, product code, region)."""
Kwh = Annotated[float, Field(ge=0, le=10**7)]
"""A register reading or an amount of energy in kWh."""
Rate = Annotated[float, Field(ge=0, le=1000)]
"""A price in pence: per kWh for a unit rate, per day for a standing charge."""

Fuel = Literal["electricity", "gas"]
Supply = Literal["pending_registration", "on_supply", "off_supply"]
MeterType = Literal["smart", "traditional"]
AccountStatus = Literal["active", "closed"]
AgreementStatus = Literal["scheduled", "active", "ended"]
ReadingSource = Literal["customer", "smart", "estimated"]
BillStatus = Literal["open", "paid"]
PaymentMethod = Literal["direct_debit", "card", "bank_transfer"]
PaymentStatus = Literal["succeeded", "refunded"]

MAX_KWH_PER_DAY = 200.0
FINAL_READ_DAYS = 3
MOVE_IN_PAST = 28
MOVE_IN_AHEAD = 60


class Account(Record):
    """A customer account (``/v1/accounts/{number}/``)."""

    id: AccountId
    number: Annotated[AccountNumber, Generated("sequence", "A-{n:08X}")]
    """Account number, e.g. A-0000001F."""
    customer_name: PersonName
    """The account holder."""
    email: Email
    """The holder's e-mail (unique)."""
    phone: Phone | None = None
    """The holder's phone."""
    billing_address: PostalAddress
    """Where bills are sent."""
    status: AccountStatus = "active"
    """active or closed."""
    balance: int = 0
    """Balance in pence: positive is credit, negative is owed."""
    direct_debit: bool = False
    """Whether a direct debit collects bills."""
    created_at: Annotated[DateTime, CREATED]
    """When the account was opened."""


class Property(Record):
    """A property supplied under an account."""

    id: PropertyId
    account_id: AccountId
    """The account."""
    address: PostalAddress
    """The supply address."""
    moved_in_at: Date
    """First day of supply."""
    moved_out_at: Date | None = None
    """Last day of supply (none: still lived in)."""


class MeterPoint(Record):
    """An electricity (MPAN) or gas (MPRN) meter point at a property."""

    id: MeterPointId
    property_id: PropertyId
    """The property."""
    account_id: AccountId
    """The account."""
    fuel: Fuel
    """electricity or gas."""
    mpxn: Mpxn
    """MPAN (13 digits) or MPRN (6-10 digits)."""
    meter_serial: Annotated[str, StringConstraints(pattern=r"^[0-9A-Z]{6,14}$")]
    """The meter's serial number."""
    meter_type: MeterType = "traditional"
    """smart or traditional."""
    supply_status: Supply = "pending_registration"
    """pending_registration → on_supply → off_supply."""


class Reading(Record):
    """A register reading of a meter point."""

    id: ReadingId
    meter_point_id: MeterPointId
    """The meter point."""
    value: Kwh
    """The register value in kWh."""
    read_at: Date
    """The day it was read."""
    source: ReadingSource = "customer"
    """customer, smart or estimated."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""


class Tariff(Record):
    """A tariff of a product on offer (``/v1/products/{code}/``)."""

    id: TariffId
    code: TariffCode
    """The tariff code (unique)."""
    display_name: Title
    """The product's name."""
    fuel: Fuel
    """electricity or gas."""
    unit_rate: Rate
    """Pence per kWh (incl. VAT)."""
    standing_charge: Rate
    """Pence per day (incl. VAT)."""
    is_variable: bool = True
    """Whether the price may change (false: fixed)."""
    requires_smart_meter: bool = False
    """Whether a smart meter is needed (time-of-use tariffs)."""
    available: bool = True
    """Whether new agreements can start on it."""


class Agreement(Record):
    """A meter point's agreement to a tariff from a date to a date."""

    id: AgreementId
    meter_point_id: MeterPointId
    """The meter point."""
    tariff_code: TariffCode
    """The tariff."""
    valid_from: Date
    """First day."""
    valid_to: Date | None = None
    """Last day (none: open-ended)."""
    status: AgreementStatus = "active"
    """scheduled, active or ended."""


class Bill(Record):
    """A bill for a period's consumption and standing charges."""

    id: BillId
    number: Annotated[InvoiceNumber, Generated("sequence", "BILL-{n:06d}")]
    """The bill number."""
    account_id: AccountId
    """The account billed."""
    period_from: Date
    """First day billed."""
    period_to: Date
    """Last day billed."""
    kwh: Kwh
    """Energy billed in kWh."""
    amount: Cents
    """Total in pence."""
    outstanding: Cents
    """Still to pay in pence."""
    is_final: bool = False
    """Whether it is the final bill of a move out."""
    status: BillStatus = "open"
    """open or paid."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was issued."""


class Payment(Record):
    """A payment into the account."""

    id: PaymentId
    account_id: AccountId
    """The account."""
    bill_id: BillId | None = None
    """The bill it paid, if any."""
    amount: Cents
    """Amount in pence."""
    method: PaymentMethod = "card"
    """direct_debit, card or bank_transfer."""
    status: PaymentStatus = "succeeded"
    """succeeded or refunded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was taken."""


class Consumption(Value):
    """A meter point's consumption over a period, from its readings."""

    meter_point_id: MeterPointId
    """The meter point."""
    fuel: Fuel
    """electricity or gas."""
    period_from: Date
    """First reading day used."""
    period_to: Date
    """Last reading day used."""
    kwh: float
    """Energy used in kWh."""
    estimated_cost: int
    """Unit cost plus standing charges over the days, in pence, on the current tariff."""


# -- rules ------------------------------------------------------------------------------------


def _active_agreement(ctx: Ctx, mp_id: str) -> Agreement | None:
    return ctx.first(Agreement, meter_point_id=mp_id, status="active") or ctx.first(
        Agreement, meter_point_id=mp_id, status="scheduled"
    )


def _tariff(ctx: Ctx, code: str, field: str) -> Tariff:
    t = ctx.first(Tariff, code=code)
    if t is None:
        raise RuleViolation(f"no tariff {code}", field=field, hint="pick a code from utilitybill__list_tariffs")
    return t


def _check_tariff(ctx: Ctx, code: str, mp_fuel: str, meter_type: str, field: str) -> Tariff:
    t = _tariff(ctx, code, field)
    if not t.available:
        raise RuleViolation(f"tariff {code} is no longer on sale", field=field, hint="pick one with available=true")
    if t.fuel != mp_fuel:
        raise RuleViolation(f"{code} is a {t.fuel} tariff, the meter is {mp_fuel}", field=field, hint="match the fuel")
    if t.requires_smart_meter and meter_type != "smart":
        raise RuleViolation(
            f"{t.display_name} needs a smart meter", field=field, hint="pick a tariff that works with any meter"
        )
    return t


def _guard_account(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "closed":
        raise RuleViolation(f"account {old.number} is closed", field="account_id", hint="closed accounts cannot change")
    other = ctx.first(Account, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"{new.email} holds account {other.number}", field="email", hint="use another e-mail")


def _guard_meter(ctx: Ctx, new: Any, old: Any) -> None:
    if new.supply_status == "on_supply" and old.supply_status == "pending_registration":
        for ag in ctx.where(Agreement, meter_point_id=new.id, status="scheduled"):
            ctx.update(ag, status="active", valid_from=max(ag.valid_from, ctx.today()))
    elif new.supply_status == "off_supply" and old.supply_status == "pending_registration":
        for ag in ctx.where(Agreement, meter_point_id=new.id, status="scheduled"):
            ctx.update(ag, status="ended", valid_to=ag.valid_from)


_READ: dict[str, Any] = {"create": False, "delete": False}
"""Records only the service's own tools write."""

accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acct",
    create=False,
    filters=("status", "email", "number", "direct_debit"),
    search=("customer_name", "email"),
    update=("email", "phone", "billing_address", "direct_debit"),
    delete=False,
    guard_update=_guard_account,
)
properties = service.resource(
    Property, name="property", plural="properties", prefix="prop", filters=("account_id", "moved_out_at"), **_READ
)
meter_points = service.resource(
    MeterPoint,
    name="meter_point",
    plural="meter_points",
    prefix="mp",
    create=False,
    filters=("property_id", "account_id", "fuel", "mpxn", "supply_status", "meter_type"),
    delete=False,
    transitions={
        "start_supply": Transition(
            "supply_status",
            ("pending_registration",),
            "on_supply",
            "start supply on the meter point",
            description="Complete the switch of a pending meter point: supply starts and its scheduled agreement "
            "becomes active.",
        ),
        "cancel_registration": Transition(
            "supply_status",
            ("pending_registration",),
            "off_supply",
            "cancel the registration of the meter point",
            description="Cancel a pending switch: the meter point never comes on supply and its agreement ends.",
            destructive=True,
        ),
    },
    guard_update=_guard_meter,
    title="meter point",
)
readings = service.resource(
    Reading,
    name="reading",
    plural="readings",
    prefix="rd",
    get=False,
    filters=("meter_point_id", "source", "read_at"),
    title="meter reading",
    **_READ,
)
tariffs = service.resource(
    Tariff,
    name="tariff",
    plural="tariffs",
    prefix="trf",
    search=("display_name", "code"),
    filters=("fuel", "code", "available", "is_variable", "requires_smart_meter"),
    **_READ,
)
agreements = service.resource(
    Agreement,
    name="agreement",
    plural="agreements",
    prefix="agr",
    get=False,
    filters=("meter_point_id", "tariff_code", "status"),
    **_READ,
)
bills = service.resource(
    Bill, name="bill", plural="bills", prefix="bill", filters=("account_id", "status", "is_final", "number"), **_READ
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    get=False,
    filters=("account_id", "bill_id", "status", "method"),
    **_READ,
)


# -- domain tools -----------------------------------------------------------------------------


def _latest(ctx: Ctx, mp_id: str) -> Reading | None:
    found = ctx.where(Reading, meter_point_id=mp_id)
    return max(found, key=lambda r: (r.read_at, r.id)) if found else None


def _example_reading(ctx: Ctx) -> dict[str, Any] | None:
    for mp in ctx.select(MeterPoint, {"supply_status": "on_supply"}):
        last = _latest(ctx, mp.id)
        if last is not None and last.read_at < ctx.today():
            return {"meter_point_id": mp.id, "value": round(last.value + 25.0, 1), "read_at": ctx.today().isoformat()}
    return None


@service.tool(intent="submit the meter reading", write=True, example=_example_reading)
def submit_reading(ctx: Ctx, meter_point_id: MeterPointId, value: Kwh, read_at: Date) -> Reading:
    """Submit a customer meter reading; it must not go backwards or be dated before the last one.

    Args:
        meter_point_id: The meter point read.
        value: The register value in kWh.
        read_at: The day it was read (not in the future).
    """
    mp = ctx.get(MeterPoint, meter_point_id, field="meter_point_id")
    if mp.supply_status != "on_supply":
        raise RuleViolation(
            f"meter point {mp.mpxn} is {mp.supply_status}",
            field="meter_point_id",
            hint="only supplied meters take reads",
        )
    if read_at > ctx.today():
        raise RuleViolation("a reading cannot be dated in the future", field="read_at", hint="use the day it was read")
    last = _latest(ctx, mp.id)
    if last is not None:
        if read_at == last.read_at:
            raise Conflict(f"a reading for {read_at} exists ({last.id})", field="read_at", hint="one reading a day")
        if read_at < last.read_at:
            raise RuleViolation(
                f"the last reading is dated {last.read_at}", field="read_at", hint="submit readings in date order"
            )
        if value < last.value:
            raise RuleViolation(
                f"{value} kWh is lower than the last reading ({last.value} on {last.read_at})",
                field="value",
                hint="check the digits; registers only count up",
            )
        per_day = (value - last.value) / (read_at - last.read_at).days
        if per_day > MAX_KWH_PER_DAY:
            raise RuleViolation(
                f"{per_day:.0f} kWh a day since the last reading looks too high",
                field="value",
                hint=f"check the digits; at most {MAX_KWH_PER_DAY:.0f} kWh a day is accepted",
            )
    return ctx.create(Reading, meter_point_id=mp.id, value=value, read_at=read_at, source="customer")


def _usage(ctx: Ctx, mp: MeterPoint, start: dt.date, end: dt.date) -> tuple[float, dt.date, dt.date]:
    """The kWh between the last reading on or before ``start`` (else the first after) and the last on or before ``end``."""
    found = sorted(ctx.where(Reading, meter_point_id=mp.id), key=lambda r: (r.read_at, r.id))
    before = [r for r in found if r.read_at <= start] or [r for r in found if r.read_at <= end][:1]
    upto = [r for r in found if r.read_at <= end]
    if not before or not upto:
        return 0.0, start, start
    return round(upto[-1].value - before[-1].value, 1), before[-1].read_at, upto[-1].read_at


def _cost(ctx: Ctx, mp: MeterPoint, kwh: float, days: int) -> int:
    ag = _active_agreement(ctx, mp.id)
    if ag is None:
        last = [a for a in ctx.where(Agreement, meter_point_id=mp.id)]
        ag = max(last, key=lambda a: a.valid_from) if last else None
    if ag is None:
        return 0
    t = _tariff(ctx, ag.tariff_code, "meter_point_id")
    return round(kwh * t.unit_rate + days * t.standing_charge)


def _issue_bill(ctx: Ctx, account: Account, end: dt.date, final: bool) -> Bill:
    previous = ctx.where(Bill, account_id=account.id)
    props = ctx.where(Property, account_id=account.id)
    start = max(b.period_to for b in previous) if previous else min((p.moved_in_at for p in props), default=end)
    if end < start or (end == start and not final):
        raise RuleViolation(
            f"account {account.number} is billed up to {start}",
            field="account_id",
            hint="submit newer meter readings first",
        )
    kwh, amount = 0.0, 0
    for mp in ctx.where(MeterPoint, account_id=account.id):
        used, _, _ = _usage(ctx, mp, start, end)
        kwh += used
        amount += _cost(ctx, mp, used, (end - start).days)
    if not final and kwh == 0:
        raise RuleViolation(
            f"no consumption read since {start}", field="account_id", hint="submit meter readings before billing"
        )
    bill = ctx.create(
        Bill,
        account_id=account.id,
        period_from=start,
        period_to=end,
        kwh=round(kwh, 1),
        amount=amount,
        outstanding=amount,
        is_final=final,
        status="paid" if amount == 0 else "open",
    )
    ctx.update(account, balance=account.balance - amount)
    return bill


def _live(ctx: Ctx, account_id: str) -> Account:
    account = ctx.get(Account, account_id, field="account_id")
    if account.status == "closed":
        raise RuleViolation(f"account {account.number} is closed", field="account_id", hint="pick an active account")
    return account


def _example_bill(ctx: Ctx) -> dict[str, Any] | None:
    for account in ctx.select(Account, {"status": "active"}):
        billed = max((b.period_to for b in ctx.where(Bill, account_id=account.id)), default=None)
        for mp in ctx.where(MeterPoint, account_id=account.id):
            last = _latest(ctx, mp.id)
            if last is not None and billed is not None and last.read_at > billed:
                return {"account_id": account.id}
    return None


@service.tool(intent="issue a bill for the account", write=True, example=_example_bill)
def generate_bill(ctx: Ctx, account_id: AccountId) -> Bill:
    """Bill an account from its last bill to its latest meter reading, at each meter's current tariff.

    Args:
        account_id: The account.
    """
    account = _live(ctx, account_id)
    ends = [r.read_at for mp in ctx.where(MeterPoint, account_id=account.id) for r in [_latest(ctx, mp.id)] if r]
    if not ends:
        raise RuleViolation("the account has no meter readings", field="account_id", hint="submit a reading first")
    return _issue_bill(ctx, account, max(ends), final=False)


@service.tool(
    intent="take a payment on the account",
    write=True,
    example=first_example(Bill, "bill_id", where={"status": "open"}, fields={"account_id": "account_id"}, amount=500),
)
def take_payment(
    ctx: Ctx,
    account_id: AccountId,
    amount: Cents,
    method: PaymentMethod = "card",
    bill_id: BillId | None = None,
) -> Payment:
    """Take a payment into an account, optionally against one open bill (at most what it still owes).

    Args:
        account_id: The account.
        amount: Amount in pence (more than 0).
        method: direct_debit, card or bank_transfer.
        bill_id: The open bill it pays.
    """
    account = _live(ctx, account_id)
    if amount <= 0:
        raise RuleViolation("a payment must be more than 0", field="amount", hint="give the amount in pence")
    if method == "direct_debit" and not account.direct_debit:
        raise RuleViolation(
            f"account {account.number} has no direct debit", field="method", hint="set one up or pay by card"
        )
    if bill_id is not None:
        bill = ctx.get(Bill, bill_id, field="bill_id")
        if bill.account_id != account.id:
            raise RuleViolation(f"bill {bill.number} is not on this account", field="bill_id", hint="pick its bill")
        if bill.status != "open":
            raise Conflict(f"bill {bill.number} is already paid", field="bill_id", hint="pay an open bill")
        if amount > bill.outstanding:
            raise RuleViolation(
                f"bill {bill.number} owes {bill.outstanding}", field="amount", hint=f"pay at most {bill.outstanding}"
            )
        left = bill.outstanding - amount
        ctx.update(bill, outstanding=left, status="paid" if left == 0 else "open")
    ctx.update(account, balance=account.balance + amount)
    return ctx.create(Payment, account_id=account.id, bill_id=bill_id, amount=amount, method=method)


@service.tool(
    intent="refund the payment",
    write=True,
    destructive=True,
    example=first_example(
        Payment,
        "payment_id",
        where={"status": "succeeded"},
        match=lambda c, p: c.get(Account, p.account_id).balance >= p.amount and p.bill_id is None,
    ),
)
def refund_payment(ctx: Ctx, payment_id: PaymentId) -> Payment:
    """Refund a payment; only credit is refunded, so the account's balance must cover it.

    Args:
        payment_id: The payment.
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status == "refunded":
        raise Conflict("the payment is already refunded", field="payment_id", hint="nothing to do")
    account = ctx.get(Account, pay.account_id)
    if account.balance < pay.amount:
        raise RuleViolation(
            f"account {account.number} has {max(account.balance, 0)} in credit, the payment was {pay.amount}",
            field="payment_id",
            hint="only credit on the account can be refunded",
        )
    ctx.update(account, balance=account.balance - pay.amount)
    return ctx.update(pay, status="refunded")


def _example_switch(ctx: Ctx) -> dict[str, Any] | None:
    for mp in ctx.select(MeterPoint, {"supply_status": "on_supply", "fuel": "electricity"}):
        ag = _active_agreement(ctx, mp.id)
        for t in ctx.select(Tariff, {"fuel": "electricity", "available": True, "requires_smart_meter": False}):
            if ag is not None and t.code != ag.tariff_code:
                return {"meter_point_id": mp.id, "tariff_code": t.code}
    return None


@service.tool(intent="switch the meter point to another tariff", write=True, example=_example_switch)
def switch_tariff(ctx: Ctx, meter_point_id: MeterPointId, tariff_code: TariffCode) -> Agreement:
    """Move a supplied meter point to another tariff from today; the current agreement ends yesterday.

    Args:
        meter_point_id: The meter point.
        tariff_code: The new tariff (on sale, same fuel; time-of-use tariffs need a smart meter).
    """
    mp = ctx.get(MeterPoint, meter_point_id, field="meter_point_id")
    if mp.supply_status != "on_supply":
        raise RuleViolation(
            f"meter point {mp.mpxn} is {mp.supply_status}", field="meter_point_id", hint="only supplied meters switch"
        )
    _check_tariff(ctx, tariff_code, mp.fuel, mp.meter_type, "tariff_code")
    today = ctx.today()
    current = _active_agreement(ctx, mp.id)
    if current is not None:
        if current.tariff_code == tariff_code:
            raise Conflict(f"the meter is already on {tariff_code}", field="tariff_code", hint="pick another tariff")
        if current.valid_from >= today:
            raise Conflict(
                f"the meter switched to {current.tariff_code} today", field="meter_point_id", hint="switch tomorrow"
            )
        ctx.update(current, status="ended", valid_to=today - dt.timedelta(days=1))
    return ctx.create(Agreement, meter_point_id=mp.id, tariff_code=tariff_code, valid_from=today, status="active")


def _example_move_in(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[-1]
    return {
        "customer_name": p.name,
        "email": p.email,
        "address": p.address.model_copy(update={"street": "14 Orchard Lane"}).model_dump(),
        "move_in_date": (ctx.today() + dt.timedelta(days=10)).isoformat(),
        "mpan": "1900012345678",
        "electricity_tariff_code": "E-1R-VAR-22-11-01-C",
    }


@service.tool(intent="move the customer into a new home", write=True, example=_example_move_in)
def move_in(
    ctx: Ctx,
    customer_name: PersonName,
    email: Email,
    address: PostalAddress,
    move_in_date: Date,
    mpan: Mpxn,
    electricity_tariff_code: TariffCode,
    mprn: Mpxn | None = None,
    gas_tariff_code: TariffCode | None = None,
    phone: Phone | None = None,
) -> Property:
    """Start supply at a new home: account (opened if new), property, pending meter points, scheduled agreements.

    Args:
        customer_name: The account holder.
        email: The holder's e-mail; an active account with it gets the property.
        address: The new home's address.
        move_in_date: First day of supply: at most 28 days ago, at most 60 days ahead.
        mpan: The electricity meter point's 13-digit MPAN.
        electricity_tariff_code: The electricity tariff.
        mprn: The gas meter point's MPRN (6-10 digits), if the home has gas.
        gas_tariff_code: The gas tariff (needed with an MPRN).
        phone: The holder's phone.
    """
    today = ctx.today()
    if not today - dt.timedelta(days=MOVE_IN_PAST) <= move_in_date <= today + dt.timedelta(days=MOVE_IN_AHEAD):
        raise RuleViolation(
            f"move_in_date must be between {MOVE_IN_PAST} days ago and {MOVE_IN_AHEAD} days ahead",
            field="move_in_date",
            hint=f"pick a day from {today - dt.timedelta(days=MOVE_IN_PAST)} to {today + dt.timedelta(days=MOVE_IN_AHEAD)}",
        )
    if len(mpan) != 13:
        raise RuleViolation("an MPAN has 13 digits", field="mpan", hint="copy the core MPAN from a bill or the meter")
    if mprn is not None and len(mprn) > 10:
        raise RuleViolation("an MPRN has 6 to 10 digits", field="mprn", hint="copy it from a gas bill")
    if (mprn is None) != (gas_tariff_code is None):
        raise RuleViolation(
            "gas needs both an MPRN and a gas tariff", field="gas_tariff_code", hint="give both or neither"
        )
    points: list[tuple[Fuel, str, str, str]] = [
        ("electricity", mpan, electricity_tariff_code, "electricity_tariff_code")
    ]
    if mprn is not None and gas_tariff_code is not None:
        points.append(("gas", mprn, gas_tariff_code, "gas_tariff_code"))
    for fuel, number, code, field in points:
        _check_tariff(ctx, code, fuel, "traditional", field)
        for mp in ctx.where(MeterPoint, mpxn=number):
            if mp.supply_status != "off_supply":
                raise Conflict(
                    f"meter point {number} is already {mp.supply_status} on another account",
                    field="mpan" if fuel == "electricity" else "mprn",
                    hint="the previous occupant must move out first",
                )
    account = ctx.first(Account, email=email)
    if account is None:
        account = ctx.create(Account, customer_name=customer_name, email=email, phone=phone, billing_address=address)
    elif account.status == "closed":
        raise RuleViolation(
            f"{email} belongs to closed account {account.number}", field="email", hint="use another e-mail"
        )
    prop = ctx.create(Property, account_id=account.id, address=address, moved_in_at=move_in_date)
    for fuel, number, code, _ in points:
        mp = ctx.create(
            MeterPoint,
            property_id=prop.id,
            account_id=account.id,
            fuel=fuel,
            mpxn=number,
            meter_serial=f"{'E' if fuel == 'electricity' else 'G'}{number[-8:]}",
        )
        ctx.create(Agreement, meter_point_id=mp.id, tariff_code=code, valid_from=move_in_date, status="scheduled")
    return prop


def _example_move_out(ctx: Ctx) -> dict[str, Any] | None:
    for prop in ctx.select(Property, {"moved_out_at": None}):
        mps = ctx.where(MeterPoint, property_id=prop.id, supply_status="on_supply")
        lasts = [_latest(ctx, mp.id) for mp in mps]
        if mps and all(r is not None for r in lasts):
            day = min(r.read_at for r in lasts if r is not None)
            if all(r is not None and r.read_at == day for r in lasts):
                return {"property_id": prop.id, "move_out_date": day.isoformat()}
    return None


@service.tool(intent="move the customer out of the property", write=True, destructive=True, example=_example_move_out)
def move_out(ctx: Ctx, property_id: PropertyId, move_out_date: Date) -> Bill:
    """Move out of a property: supply and agreements end and a final bill is issued.

    Every supplied meter needs a reading dated within 3 days before the move-out date.

    Args:
        property_id: The property.
        move_out_date: The last day of supply (not before the move-in, not more than 60 days ahead).
    """
    prop = ctx.get(Property, property_id, field="property_id")
    if prop.moved_out_at is not None:
        raise Conflict(f"moved out on {prop.moved_out_at}", field="property_id", hint="nothing to do")
    if move_out_date <= prop.moved_in_at or move_out_date > ctx.today() + dt.timedelta(days=MOVE_IN_AHEAD):
        raise RuleViolation(
            f"move_out_date must be after {prop.moved_in_at} and at most {MOVE_IN_AHEAD} days ahead",
            field="move_out_date",
            hint="pick the last day you live there",
        )
    mps = ctx.where(MeterPoint, property_id=prop.id)
    for mp in mps:
        if mp.supply_status != "on_supply":
            continue
        last = _latest(ctx, mp.id)
        if last is None or not (move_out_date - dt.timedelta(days=FINAL_READ_DAYS) <= last.read_at <= move_out_date):
            raise RuleViolation(
                f"{mp.fuel} meter {mp.mpxn} has no reading within {FINAL_READ_DAYS} days before {move_out_date}",
                field="move_out_date",
                hint="submit a final reading with utilitybill__submit_reading first",
            )
    account = ctx.get(Account, prop.account_id)
    ctx.update(prop, moved_out_at=move_out_date)
    bill = _issue_bill(ctx, account, move_out_date, final=True)
    for mp in mps:
        for ag in ctx.where(Agreement, meter_point_id=mp.id):
            if ag.status != "ended":
                ctx.update(ag, status="ended", valid_to=move_out_date)
        ctx.update(mp, supply_status="off_supply")
    return bill


@service.tool(
    intent="close the account",
    write=True,
    destructive=True,
    example=first_example(
        Account,
        "account_id",
        where={"status": "active", "balance": 0},
        match=lambda c, a: all(p.moved_out_at is not None for p in c.where(Property, account_id=a.id)),
    ),
)
def close_account(ctx: Ctx, account_id: AccountId) -> Account:
    """Close an account that has moved out of every property and has a zero balance.

    Args:
        account_id: The account.
    """
    account = _live(ctx, account_id)
    occupied = [p for p in ctx.where(Property, account_id=account.id) if p.moved_out_at is None]
    if occupied:
        raise RuleViolation(
            f"the account still supplies {occupied[0].address.street}",
            field="account_id",
            hint="move out with utilitybill__move_out first",
        )
    if account.balance != 0:
        raise RuleViolation(
            f"the balance is {account.balance} pence",
            field="account_id",
            hint="take a payment for what is owed, or refund the credit, first",
        )
    return ctx.update(account, status="closed", direct_debit=False)


@service.tool(
    intent="show the meter point's consumption",
    example=first_example(MeterPoint, "meter_point_id", where={"supply_status": "on_supply"}, period_from="2000-01-01"),
)
def meter_consumption(
    ctx: Ctx, meter_point_id: MeterPointId, period_from: Date, period_to: Date | None = None
) -> Consumption:
    """The kWh a meter point used between two days (from its readings) and what that costs on its tariff.

    Args:
        meter_point_id: The meter point.
        period_from: From this day (the last reading on or before it is the start).
        period_to: Up to this day (default: today).
    """
    mp = ctx.get(MeterPoint, meter_point_id, field="meter_point_id")
    end = period_to or ctx.today()
    if end < period_from:
        raise RuleViolation("period_to is before period_from", field="period_to", hint="swap the days")
    kwh, start, stop = _usage(ctx, mp, period_from, end)
    return Consumption(
        meter_point_id=mp.id,
        fuel=mp.fuel,
        period_from=start,
        period_to=stop,
        kwh=kwh,
        estimated_cost=_cost(ctx, mp, kwh, (stop - start).days),
    )


# -- seed -------------------------------------------------------------------------------------

TARIFFS: tuple[tuple[str, str, Fuel, float, float, bool, bool, bool], ...] = (
    ("E-1R-VAR-22-11-01-C", "Flexible Octopus", "electricity", 24.50, 53.35, True, False, True),
    ("G-1R-VAR-22-11-01-C", "Flexible Octopus", "gas", 6.04, 31.43, True, False, True),
    ("E-1R-OE-FIX-12M-24-09-01-C", "Octopus 12M Fixed", "electricity", 22.89, 47.85, False, False, True),
    ("G-1R-OE-FIX-12M-24-09-01-C", "Octopus 12M Fixed", "gas", 5.71, 29.61, False, False, True),
    ("E-1R-SILVER-23-12-06-C", "Octopus Tracker", "electricity", 21.30, 47.02, True, False, True),
    ("E-1R-AGILE-24-10-01-C", "Agile Octopus", "electricity", 19.80, 46.36, True, True, True),
    ("E-1R-INTELLI-VAR-24-10-29-C", "Intelligent Octopus Go", "electricity", 17.20, 48.70, True, True, True),
    ("E-1R-OE-FIX-12M-23-05-01-C", "Octopus 12M Fixed May 2023", "electricity", 30.10, 46.36, False, False, False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Tariffs; consumers' accounts, meters, monthly readings, agreements, bills and payments; a pending move in."""
    fields = ("code", "display_name", "fuel", "unit_rate", "standing_charge", "is_variable", "requires_smart_meter")
    for row in TARIFFS:
        s.create(Tariff, **dict(zip((*fields, "available"), row, strict=True)))
    today = s.now.date()
    for k, p in enumerate(s.population.consumers[:14]):
        account = s.create(
            Account,
            customer_name=p.name,
            email=p.email,
            phone=p.phone,
            billing_address=p.address,
            direct_debit=k % 3 != 0,
            created_at=s.ago(days=400 + 7 * k),
        )
        moved_in = today - dt.timedelta(days=400 + 7 * k)
        prop = s.create(Property, account_id=account.id, address=p.address, moved_in_at=moved_in)
        pending = k == 12
        fuels: list[Fuel] = ["electricity"] if k % 4 == 3 else ["electricity", "gas"]
        balance = 0
        for fuel in fuels:
            smart = k % 2 == 0
            number = f"19{k:03d}{s.rng.randint(10**7, 10**8 - 1)}" if fuel == "electricity" else f"{7000000 + k * 131}"
            mp = s.create(
                MeterPoint,
                property_id=prop.id,
                account_id=account.id,
                fuel=fuel,
                mpxn=number,
                meter_serial=f"{'E' if fuel == 'electricity' else 'G'}{s.rng.randint(10**7, 10**8 - 1)}",
                meter_type="smart" if smart else "traditional",
                supply_status="pending_registration" if pending else "on_supply",
            )
            code = TARIFFS[(0 if k % 3 else 2) + (1 if fuel == "gas" else 0)][0]
            if pending:
                s.create(
                    Agreement,
                    meter_point_id=mp.id,
                    tariff_code=code,
                    valid_from=today + dt.timedelta(days=5),
                    status="scheduled",
                )
                continue
            s.create(Agreement, meter_point_id=mp.id, tariff_code=code, valid_from=moved_in)
            value = float(s.rng.randint(1000, 40000))
            daily = (8.0 if fuel == "electricity" else 30.0) * (0.7 + s.rng.random() * 0.6)
            for month in range(6, -1, -1):
                day = add_months(today, -month) if month else today - dt.timedelta(days=3)
                s.create(
                    Reading,
                    meter_point_id=mp.id,
                    value=round(value, 1),
                    read_at=day,
                    source="smart" if smart else "customer",
                    created_at=s.ago(days=(today - day).days),
                )
                value += daily * 30
        if pending:
            s.update(prop, moved_in_at=today + dt.timedelta(days=5))
            continue
        for month in range(6, 1, -1):
            start, end = add_months(today, -month), add_months(today, -month + 1)
            amount = round((22000 if len(fuels) == 2 else 9000) * (0.8 + s.rng.random() * 0.4))
            paid = month > 2 or k % 5 != 0
            bill = s.create(
                Bill,
                account_id=account.id,
                period_from=start,
                period_to=end,
                kwh=round(amount / 20, 1),
                amount=amount,
                outstanding=0 if paid else amount,
                status="paid" if paid else "open",
                issued_at=s.ago(days=(today - end).days - 1),
            )
            balance -= amount
            if paid:
                s.create(
                    Payment,
                    account_id=account.id,
                    bill_id=bill.id,
                    amount=amount,
                    method="direct_debit" if account.direct_debit else "card",
                    created_at=s.ago(days=(today - end).days - 6),
                )
                balance += amount
        if k % 7 == 1:
            s.create(Payment, account_id=account.id, amount=3000, method="bank_transfer", created_at=s.ago(days=12))
            balance += 3000
        s.update(account, balance=balance)
        if k == 13:  # moved out after the final bill, balance settled: ready to close
            left = add_months(today, -1)
            s.update(prop, moved_out_at=left)
            for mp in s.records(MeterPoint):
                if mp.property_id == prop.id:
                    s.update(mp, supply_status="off_supply")
                    for ag in s.records(Agreement):
                        if ag.meter_point_id == mp.id:
                            s.update(ag, status="ended", valid_to=left)
