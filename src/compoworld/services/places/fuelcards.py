"""Pumpline: the company's fleet fuel cards, purchase controls, transactions, exceptions, fraud holds, statements.

Modeled on the WEX Fleet / Fleetcor (Fuelman) card APIs: cards issued per
vehicle or per driver (an employee), each with purchase controls (per-purchase
and daily limits, allowed product classes, whether the odometer must be
prompted); authorizations at a merchant are approved or declined against those
controls (declines are kept, with their reason, and raise an exception);
approved ones post later, and a posted one may be disputed. Exceptions (declined
attempts, fills larger than the vehicle's tank, missing odometer) are reviewed:
dismissed, or confirmed as fraud, which puts the card on a fraud hold (card
status held) until the hold is released. A terminated card never comes back.
Monthly statements bill the posted, not yet billed transactions: open → issued
→ paid, paid only for the full balance.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Currency, Date, DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "fuelcards",
    title="Pumpline",
    category="fuel_cards",
    modeled_on="WEX Fleet / Fleetcor Fuelman card APIs: cards and purchase controls, authorizations and "
    "transactions, exceptions, fraud holds, billing statements",
    description="The company's fleet fuel cards: cards per vehicle or driver with purchase controls, fuel "
    "purchases approved or declined at the pump, exceptions to review, fraud holds, and monthly statements.",
)

CardId = Annotated[str, IdOf("fuelcards.card")]
TxnId = Annotated[str, IdOf("fuelcards.transaction")]
ExceptionId = Annotated[str, IdOf("fuelcards.exception")]
HoldId = Annotated[str, IdOf("fuelcards.hold")]
StatementId = Annotated[str, IdOf("fuelcards.statement")]

Plate = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9 -]{3,12}$")]
"""A vehicle's license plate."""
Product = Literal["diesel", "unleaded", "ev_charging", "def_fluid", "car_wash", "maintenance", "merchandise"]
CardStatus = Literal["active", "held", "terminated"]
TxnStatus = Literal["approved", "declined", "posted", "disputed"]
ExceptionKind = Literal["declined_attempt", "tank_overfill", "missing_odometer"]
ExceptionStatus = Literal["open", "dismissed", "fraud"]
HoldStatus = Literal["active", "released"]
StatementStatus = Literal["open", "issued", "paid"]
Liters = Annotated[float, Field(ge=0, le=2000)]

FUEL: tuple[Product, ...] = ("diesel", "unleaded", "ev_charging", "def_fluid")


class Card(Timestamped):
    """A fuel card, issued to a vehicle or a driver, with its purchase controls."""

    id: CardId
    last4: Annotated[str, StringConstraints(pattern=r"^\d{4}$")]
    """The card number's last four digits."""
    vehicle_plate: Plate | None = None
    """The vehicle it is issued to (vehicle cards)."""
    driver_email: Email | None = None
    """The employee it is issued to (driver cards)."""
    tank_liters: Annotated[int, Field(ge=0, le=2000)] = 0
    """The vehicle's tank size (0: not checked)."""
    per_purchase_limit: Cents = 30000
    """The most one purchase may cost, in cents."""
    daily_limit: Cents = 60000
    """The most a day's purchases may cost, in cents."""
    allowed_products: tuple[Product, ...] = ("diesel",)
    """The product classes the card may buy."""
    odometer_prompt: bool = True
    """Whether the pump asks for the odometer."""
    status: CardStatus = "active"
    """active, held (fraud hold) or terminated."""


class Transaction(Timestamped):
    """An authorization at a merchant: approved, declined, then posted or disputed."""

    id: TxnId
    card_id: CardId
    """The card."""
    merchant: CompanyName
    """The merchant (fuel station)."""
    merchant_city: City
    """Its city."""
    product: Product
    """The product bought."""
    liters: Liters = 0.0
    """Fuel volume (0 for non-fuel)."""
    amount: Cents
    """The amount, in cents."""
    currency: Currency
    """The currency."""
    odometer_km: Annotated[int, Field(ge=0, le=5_000_000)] | None = None
    """The odometer entered at the pump."""
    status: TxnStatus
    """approved, declined, posted or disputed."""
    decline_reason: Annotated[str, StringConstraints(max_length=120)] | None = None
    """Why it was declined."""
    dispute_reason: Text | None = None
    """Why it is disputed."""
    statement_id: StatementId | None = None
    """The statement that billed it."""
    authorized_at: DateTime
    """When it was authorized."""


class CardException(Timestamped):
    """A transaction that breaks the fleet's policy, to review."""

    id: ExceptionId
    transaction_id: TxnId
    """The transaction."""
    card_id: CardId
    """Its card."""
    kind: ExceptionKind
    """declined_attempt, tank_overfill or missing_odometer."""
    status: ExceptionStatus = "open"
    """open, dismissed or fraud (confirmed)."""
    reviewed_by: Email | None = None
    """The employee who reviewed it."""


class Hold(Timestamped):
    """A fraud hold on a card."""

    id: HoldId
    card_id: CardId
    """The card."""
    reason: Text
    """Why."""
    status: HoldStatus = "active"
    """active or released."""
    placed_by: Email
    """The employee who placed it."""


class Statement(Timestamped):
    """A monthly bill of posted transactions."""

    id: StatementId
    period_start: Date
    """The first day billed."""
    period_end: Date
    """The last day billed."""
    transaction_count: int
    """How many transactions it bills."""
    total: Cents
    """The amount due, in cents."""
    currency: Currency
    """The currency."""
    due_date: Date
    """When payment is due."""
    status: StatementStatus = "open"
    """open, issued or paid."""


class Spend(Value):
    """A card's spending on one day against its daily limit."""

    card_id: CardId
    """The card."""
    day: Date
    """The day."""
    spent: int
    """Approved, posted and disputed purchases that day, in cents."""
    daily_limit: int
    """The card's daily limit, in cents."""
    remaining: int
    """What is left today, in cents."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _guard_card(ctx: Ctx, new: Any, old: Any) -> None:
    if new.per_purchase_limit > new.daily_limit:
        raise RuleViolation(
            "the per-purchase limit exceeds the daily limit", field="per_purchase_limit", hint="lower it"
        )
    if not new.allowed_products:
        raise RuleViolation("a card must allow a product", field="allowed_products", hint="allow diesel or unleaded")


def _spent(ctx: Ctx, card_id: str, day: dt.date) -> int:
    return sum(
        t.amount
        for t in ctx.where(Transaction, card_id=card_id)
        if t.status != "declined" and t.authorized_at.date() == day
    )


cards = service.resource(
    Card,
    name="card",
    plural="cards",
    prefix="card",
    create=False,
    filters=("status", "vehicle_plate", "driver_email", "last4"),
    update=("per_purchase_limit", "daily_limit", "allowed_products", "odometer_prompt", "tank_liters"),
    delete=False,
    transitions={
        "terminate": Transition(
            "status",
            ("active", "held"),
            "terminated",
            "terminate the fuel card",
            description="Terminate a card for good (lost, vehicle sold, driver left); it cannot be used again.",
            destructive=True,
        ),
    },
    guard_update=_guard_card,
    title="fuel card",
)
transactions = service.resource(
    Transaction,
    name="transaction",
    plural="transactions",
    prefix="txn",
    create=False,
    filters=("card_id", "status", "product", "statement_id", "merchant_city"),
    search=("merchant",),
    delete=False,
    transitions={
        "post": Transition("status", ("approved",), "posted", "post the fuel transaction"),
    },
)
exceptions = service.resource(
    CardException,
    name="exception",
    plural="exceptions",
    prefix="exc",
    create=False,
    filters=("card_id", "transaction_id", "kind", "status"),
    delete=False,
    title="transaction exception",
)
holds = service.resource(
    Hold,
    name="hold",
    plural="holds",
    prefix="hold",
    create=False,
    get=False,
    filters=("card_id", "status"),
    delete=False,
)
statements = service.resource(
    Statement,
    name="statement",
    plural="statements",
    prefix="stmt",
    create=False,
    filters=("status",),
    delete=False,
    transitions={"issue": Transition("status", ("open",), "issued", "issue the fuel statement")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_issue(ctx: Ctx) -> dict[str, Any] | None:
    return {"vehicle_plate": "FC 9001", "tank_liters": 80, "allowed_products": ["diesel", "def_fluid"]}


@service.tool(intent="issue the fuel card", write=True, example=_example_issue)
def issue_card(
    ctx: Ctx,
    vehicle_plate: Plate | None = None,
    driver_email: Email | None = None,
    tank_liters: Annotated[int, Field(ge=0, le=2000)] = 0,
    allowed_products: tuple[Product, ...] = ("diesel",),
    per_purchase_limit: Cents = 30000,
    daily_limit: Cents = 60000,
) -> Card:
    """Issue a card to a vehicle or to a driver; one live card per vehicle and per driver.

    Args:
        vehicle_plate: The vehicle's plate (vehicle card).
        driver_email: The employee (driver card).
        tank_liters: The vehicle's tank size, liters (0: not checked).
        allowed_products: The product classes it may buy.
        per_purchase_limit: The most one purchase may cost, in cents.
        daily_limit: The most a day's purchases may cost, in cents.
    """
    if (vehicle_plate is None) == (driver_email is None):
        raise RuleViolation("give a vehicle or a driver", field="vehicle_plate", hint="set exactly one of the two")
    _staff(ctx, driver_email, "driver_email")
    for c in ctx.scan(Card):
        if c.status != "terminated" and (
            (vehicle_plate is not None and c.vehicle_plate == vehicle_plate)
            or (driver_email is not None and c.driver_email == driver_email)
        ):
            raise Conflict(
                f"card {c.id} is already live for it",
                field="vehicle_plate" if vehicle_plate else "driver_email",
                hint="update that card's controls, or terminate it first",
            )
    if per_purchase_limit > daily_limit:
        raise RuleViolation(
            "the per-purchase limit exceeds the daily limit", field="per_purchase_limit", hint="lower it"
        )
    if not allowed_products:
        raise RuleViolation("a card must allow a product", field="allowed_products", hint="allow diesel or unleaded")
    n = ctx.next_number(Card, "last4")
    return ctx.create(
        Card,
        last4=f"{(7300 + n * 37) % 10000:04d}",
        vehicle_plate=vehicle_plate,
        driver_email=driver_email,
        tank_liters=tank_liters,
        allowed_products=tuple(allowed_products),
        per_purchase_limit=per_purchase_limit,
        daily_limit=daily_limit,
    )


def _example_auth(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Card, status="active")
    if c is None:
        return None
    return {
        "card_id": c.id,
        "merchant": "Shell",
        "merchant_city": ctx.population.home.place.city,
        "product": c.allowed_products[0],
        "amount": 4000,
        "liters": 20.0,
        "odometer_km": 50000,
    }


@service.tool(intent="authorize the fuel purchase", write=True, example=_example_auth)
def authorize_purchase(
    ctx: Ctx,
    card_id: CardId,
    merchant: CompanyName,
    merchant_city: City,
    product: Product,
    amount: Cents,
    liters: Liters = 0.0,
    odometer_km: Annotated[int, Field(ge=0, le=5_000_000)] | None = None,
) -> Transaction:
    """Run a purchase at the pump against the card's controls: it is approved or declined (and kept).

    A decline, a fill above the vehicle's tank and a missing odometer each open an exception.

    Args:
        card_id: The card (active; held and terminated cards are refused).
        merchant: The fuel station.
        merchant_city: Its city.
        product: The product bought.
        amount: The amount, in cents (above zero).
        liters: Fuel volume (0 for non-fuel products).
        odometer_km: The odometer entered at the pump.
    """
    card = ctx.get(Card, card_id, field="card_id")
    if card.status != "active":
        raise Conflict(f"the card is {card.status}", field="card_id", hint="use an active card")
    if amount <= 0:
        raise RuleViolation("an amount must be above zero", field="amount", hint="give the purchase amount")
    reason = None
    if product not in card.allowed_products:
        reason = f"product {product} not allowed"
    elif amount > card.per_purchase_limit:
        reason = "over the per-purchase limit"
    elif _spent(ctx, card.id, ctx.today()) + amount > card.daily_limit:
        reason = "over the daily limit"
    txn = ctx.create(
        Transaction,
        card_id=card.id,
        merchant=merchant,
        merchant_city=merchant_city,
        product=product,
        liters=liters,
        amount=amount,
        currency=ctx.population.home.place.currency,
        odometer_km=odometer_km,
        status="declined" if reason else "approved",
        decline_reason=reason,
        authorized_at=ctx.now(),
    )
    kinds: list[ExceptionKind] = []
    if reason:
        kinds.append("declined_attempt")
    elif card.tank_liters and liters > card.tank_liters:
        kinds.append("tank_overfill")
    if not reason and card.odometer_prompt and product in FUEL and odometer_km is None:
        kinds.append("missing_odometer")
    for kind in kinds:
        ctx.create(CardException, transaction_id=txn.id, card_id=card.id, kind=kind)
    return txn


@service.tool(
    intent="dispute the fuel transaction",
    write=True,
    example=first_example(Transaction, "transaction_id", where={"status": "posted"}, reason="Card was not used."),
)
def dispute_transaction(ctx: Ctx, transaction_id: TxnId, reason: Text) -> Transaction:
    """Dispute a posted transaction with the issuer.

    Args:
        transaction_id: The posted transaction.
        reason: Why it is disputed.
    """
    txn = ctx.get(Transaction, transaction_id, field="transaction_id")
    if txn.status != "posted":
        raise Conflict(f"the transaction is {txn.status}", field="transaction_id", hint="only posted ones")
    if not reason.strip():
        raise RuleViolation("a dispute needs a reason", field="reason", hint="say what is wrong")
    return ctx.update(txn, status="disputed", dispute_reason=reason.strip())


def _reviewer(ctx: Ctx) -> str:
    return ctx.population.employees[0].email


@service.tool(
    intent="dismiss the transaction exception",
    write=True,
    example=first_example(CardException, "exception_id", where={"status": "open"}, reviewed_by=None),
)
def dismiss_exception(ctx: Ctx, exception_id: ExceptionId, reviewed_by: Email | None = None) -> CardException:
    """Close an open exception as legitimate.

    Args:
        exception_id: The open exception.
        reviewed_by: The employee reviewing it.
    """
    exc = ctx.get(CardException, exception_id, field="exception_id")
    if exc.status != "open":
        raise Conflict(f"the exception is {exc.status}", field="exception_id", hint="only open ones are reviewed")
    _staff(ctx, reviewed_by, "reviewed_by")
    return ctx.update(exc, status="dismissed", reviewed_by=reviewed_by)


def _hold(ctx: Ctx, card: Card, reason: str, by: str) -> Hold:
    if card.status != "active":
        raise Conflict(f"the card is {card.status}", field="card_id", hint="only active cards are held")
    ctx.update(card, status="held")
    return ctx.create(Hold, card_id=card.id, reason=reason, placed_by=by)


def _example_fraud(ctx: Ctx) -> dict[str, Any] | None:
    for e in ctx.where(CardException, status="open"):
        if ctx.get(Card, e.card_id).status == "active":
            return {"exception_id": e.id, "reviewed_by": _reviewer(ctx)}
    return None


@service.tool(intent="confirm the exception as fraud", write=True, example=_example_fraud)
def confirm_fraud(ctx: Ctx, exception_id: ExceptionId, reviewed_by: Email) -> Hold:
    """Confirm an open exception as fraud: its card goes on a fraud hold.

    Args:
        exception_id: The open exception.
        reviewed_by: The employee confirming it.
    """
    exc = ctx.get(CardException, exception_id, field="exception_id")
    if exc.status != "open":
        raise Conflict(f"the exception is {exc.status}", field="exception_id", hint="only open ones are reviewed")
    _staff(ctx, reviewed_by, "reviewed_by")
    card = ctx.get(Card, exc.card_id)
    if card.status != "active":
        raise Conflict(f"the card is {card.status}", field="exception_id", hint="dismiss the exception instead")
    ctx.update(exc, status="fraud", reviewed_by=reviewed_by)
    return _hold(ctx, card, f"Confirmed fraud on {exc.transaction_id} ({exc.kind})", reviewed_by)


def _example_place(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Card, status="active")
    return None if c is None else {"card_id": c.id, "reason": "Card reported lost.", "placed_by": _reviewer(ctx)}


@service.tool(intent="place a fraud hold on the card", write=True, example=_example_place)
def place_hold(ctx: Ctx, card_id: CardId, reason: Text, placed_by: Email) -> Hold:
    """Put an active card on a fraud hold: every purchase is refused until released.

    Args:
        card_id: The active card.
        reason: Why.
        placed_by: The employee placing it.
    """
    card = ctx.get(Card, card_id, field="card_id")
    if not reason.strip():
        raise RuleViolation("a hold needs a reason", field="reason", hint="say why")
    _staff(ctx, placed_by, "placed_by")
    return _hold(ctx, card, reason.strip(), placed_by)


@service.tool(
    intent="release the fraud hold",
    write=True,
    example=first_example(Hold, "hold_id", where={"status": "active"}),
)
def release_hold(ctx: Ctx, hold_id: HoldId) -> Hold:
    """Release an active hold: the card is active again (unless terminated meanwhile).

    Args:
        hold_id: The hold.
    """
    hold = ctx.get(Hold, hold_id, field="hold_id")
    if hold.status != "active":
        raise Conflict("the hold is already released", field="hold_id", hint="nothing to do")
    card = ctx.get(Card, hold.card_id)
    if card.status == "held":
        ctx.update(card, status="active")
    return ctx.update(hold, status="released")


def _example_generate(ctx: Ctx) -> dict[str, Any] | None:
    return {"period_start": (ctx.today() - dt.timedelta(days=30)).isoformat(), "period_end": ctx.today().isoformat()}


@service.tool(intent="generate the fuel statement", write=True, example=_example_generate)
def generate_statement(ctx: Ctx, period_start: Date, period_end: Date) -> Statement:
    """Bill the posted transactions of a period not yet on a statement; due 15 days after the period.

    Args:
        period_start: The first day.
        period_end: The last day (not in the future, at most 31 days after the first).
    """
    if period_end > ctx.today() or period_end < period_start or (period_end - period_start).days > 31:
        raise RuleViolation(
            "the period must end by today and last at most 31 days", field="period_end", hint="fix the dates"
        )
    found = [
        t
        for t in ctx.where(Transaction, status="posted", statement_id=None)
        if period_start <= t.authorized_at.date() <= period_end
    ]
    if not found:
        raise RuleViolation("no unbilled posted transaction in the period", field="period_start", hint="widen it")
    stmt = ctx.create(
        Statement,
        period_start=period_start,
        period_end=period_end,
        transaction_count=len(found),
        total=sum(t.amount for t in found),
        currency=found[0].currency,
        due_date=period_end + dt.timedelta(days=15),
    )
    for t in found:
        ctx.update(t, statement_id=stmt.id)
    return stmt


@service.tool(
    intent="pay the fuel statement",
    write=True,
    example=first_example(Statement, "statement_id", where={"status": "issued"}, fields={"amount": "total"}),
)
def pay_statement(ctx: Ctx, statement_id: StatementId, amount: Cents) -> Statement:
    """Pay an issued statement in full.

    Args:
        statement_id: The issued statement.
        amount: The payment, in cents; it must equal the total.
    """
    stmt = ctx.get(Statement, statement_id, field="statement_id")
    if stmt.status != "issued":
        raise Conflict(f"the statement is {stmt.status}", field="statement_id", hint="issue it first")
    if amount != stmt.total:
        raise RuleViolation(f"the balance is {stmt.total}", field="amount", hint=f"pay exactly {stmt.total}")
    return ctx.update(stmt, status="paid")


@service.tool(intent="show the card's spending today", example=first_example(Card, "card_id"))
def card_spend(ctx: Ctx, card_id: CardId) -> Spend:
    """What a card spent today against its daily limit.

    Args:
        card_id: The card.
    """
    card = ctx.get(Card, card_id, field="card_id")
    spent = _spent(ctx, card.id, ctx.today())
    return Spend(
        card_id=card.id,
        day=ctx.today(),
        spent=spent,
        daily_limit=card.daily_limit,
        remaining=max(card.daily_limit - spent, 0),
    )


# -- seed -------------------------------------------------------------------------------------

_STATIONS = ("Shell", "BP", "Esso", "TotalEnergies", "Circle K")


@service.seeder
def seed(s: SeedContext) -> None:
    """Vehicle and driver cards, a month of posted purchases, declines with exceptions, a hold, statements."""
    pop = s.population
    city = pop.home.place.city
    currency = pop.home.place.currency
    drivers = pop.staff("Operations", "Logistics", fallback=4)
    made: list[Card] = []
    for k in range(6):
        made.append(
            s.create(
                Card,
                last4=f"{(7300 + k * 37) % 10000:04d}",
                vehicle_plate=f"FL {100 + k}",
                tank_liters=(300, 80, 60)[k % 3],
                allowed_products=("diesel", "def_fluid") if k % 3 == 0 else ("diesel",),
                per_purchase_limit=(80000, 20000, 15000)[k % 3],
                daily_limit=(160000, 40000, 30000)[k % 3],
            )
        )
    for k, p in enumerate(drivers[:3]):
        made.append(
            s.create(
                Card,
                last4=f"{(8100 + k * 53) % 10000:04d}",
                driver_email=p.email,
                allowed_products=("unleaded", "car_wash", "ev_charging"),
                per_purchase_limit=12000,
                daily_limit=25000,
                odometer_prompt=False,
            )
        )
    for k, card in enumerate(made):
        for d in range(4):
            product = card.allowed_products[0]
            liters = float(min(card.tank_liters or 40, 40 + 7 * d))
            s.create(
                Transaction,
                card_id=card.id,
                merchant=_STATIONS[(k + d) % len(_STATIONS)],
                merchant_city=city,
                product=product,
                liters=liters,
                amount=round(liters * 175),
                currency=currency,
                odometer_km=40000 + 900 * d + 5000 * k if card.odometer_prompt else None,
                status="posted" if d else "approved",
                authorized_at=s.ago(days=25 - 6 * d, hours=k) if d else s.ago(hours=2 + k),
            )
    for k, card in enumerate(made[:3]):
        txn = s.create(
            Transaction,
            card_id=card.id,
            merchant="Roadside Mart",
            merchant_city=city,
            product="merchandise",
            amount=4500 + 100 * k,
            currency=currency,
            status="declined",
            decline_reason="product merchandise not allowed",
            authorized_at=s.ago(days=3 + k),
        )
        s.create(CardException, transaction_id=txn.id, card_id=card.id, kind="declined_attempt")
    old = [
        s.create(
            Transaction,
            card_id=card.id,
            merchant=_STATIONS[k],
            merchant_city=city,
            product=card.allowed_products[0],
            liters=50.0,
            amount=8750,
            currency=currency,
            odometer_km=30000 + 100 * k,
            status="posted",
            authorized_at=s.ago(days=45 + k),
        )
        for k, card in enumerate(made[:2])
    ]
    end = s.now.date() - dt.timedelta(days=35)
    for t, status in zip(old, ("issued", "open"), strict=True):
        stmt = s.create(
            Statement,
            period_start=end - dt.timedelta(days=30),
            period_end=end,
            transaction_count=1,
            total=t.amount,
            currency=currency,
            due_date=end + dt.timedelta(days=15),
            status=status,
        )
        s.update(t, statement_id=stmt.id)
    held = made[4]
    s.update(held, status="held")
    s.create(Hold, card_id=held.id, reason="Driver reported the card stolen.", placed_by=drivers[0].email)
