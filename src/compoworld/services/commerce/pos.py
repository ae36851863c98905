"""Tillpoint POS: store locations, the catalog of items and variations, register orders, tenders and cash drawers.

Modeled on the Square API 2024 (Locations, Catalog ITEM and ITEM_VARIATION,
Orders, Payments, Refunds, Cash Drawer Shifts): a register order is opened at
an active location with lines priced from the catalog and taxed at the
location's rate; it is paid by one tender (card or cash) that covers its total,
which completes it and sells down the stock of tracked variations; cash is
only taken or given back while a cash drawer shift is open at the location,
and cash tendered must cover the total and tip (the change is computed); one
shift is open per location at a time, its expected cash follows every cash
sale, refund and paid-in/out, a paid-out cannot take more than the drawer
holds, and closing a shift whose count is off by more than the tolerance needs
a note. Refunds never exceed what a payment took.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
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
    OrderNumber,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "pos",
    title="Tillpoint POS",
    category="retail_pos",
    modeled_on="Square API 2024 (Locations, Catalog ITEM / ITEM_VARIATION, Orders, Payments, Refunds, "
    "Cash Drawer Shifts)",
    description="In-store point of sale: the company's store locations and their tax rates, the catalog of items "
    "and their variations with stock, register orders, card and cash tenders with change, refunds, cash drawer "
    "shifts with paid-ins, paid-outs and end-of-shift counts, and daily sales reports.",
)

LocationId = Annotated[str, IdOf("pos.location")]
ItemId = Annotated[str, IdOf("pos.item")]
VariationId = Annotated[str, IdOf("pos.variation")]
OrderId = Annotated[str, IdOf("pos.order")]
PaymentId = Annotated[str, IdOf("pos.payment")]
RefundId = Annotated[str, IdOf("pos.refund")]
ShiftId = Annotated[str, IdOf("pos.shift")]
PositiveQuantity = Annotated[Quantity, Field(ge=1)]
CardLast4 = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
ItemCategory = Literal["electronics", "office", "home", "outdoor", "apparel", "services"]
OrderState = Literal["OPEN", "COMPLETED", "CANCELED"]
SourceType = Literal["CARD", "CASH"]
CardBrand = Literal["VISA", "MASTERCARD", "AMERICAN_EXPRESS", "DISCOVER", "OTHER"]
RefundReason = Literal["returned_goods", "accidental_charge", "damaged", "price_adjustment", "other"]

DISCREPANCY_TOLERANCE = 500
"""A shift may close off by at most this many cents without a note."""


class Location(Record):
    """A store where the register runs."""

    id: LocationId
    name: Title
    """Location name shown on receipts."""
    business_name: CompanyName
    """The business the location belongs to."""
    address: PostalAddress
    """Street address of the store."""
    phone: Phone | None = None
    """The store's phone number."""
    timezone: Timezone
    """The store's time zone."""
    currency: Currency
    """Currency the store sells in."""
    tax_rate: Percent
    """Sales tax added to every order, in percent of the subtotal."""
    status: Literal["ACTIVE", "INACTIVE"] = "ACTIVE"
    """Only active locations take orders."""
    created_at: Annotated[DateTime, CREATED]
    """When the location was added."""


class Item(Record):
    """A catalog item; what the register sells are its variations."""

    id: ItemId
    name: Title
    """Item name."""
    category: ItemCategory
    """Reporting category."""
    description: Text = ""
    """Description."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the item last changed."""


class Variation(Record):
    """A sellable version of an item with its own SKU, price and stock."""

    id: VariationId
    item_id: ItemId
    """The item."""
    name: Title
    """Variation name, e.g. 'Regular' or 'Large'."""
    sku: Sku
    """Stock keeping unit; unique in the catalog."""
    price: Cents
    """Unit price before tax, in cents."""
    track_inventory: bool = True
    """Whether sales take from the stock count; untracked variations never sell out."""
    stock: Quantity = 0
    """Units in stock (for tracked variations)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the variation last changed."""


class LineItem(Value):
    """One line of a register order."""

    variation_id: VariationId = Field(description="The variation sold.")
    sku: Sku = Field(description="Its SKU.")
    name: Title = Field(description="Item and variation name.")
    quantity: PositiveQuantity = Field(description="Units.")
    unit_price: Cents = Field(description="Unit price before tax, in cents.")
    gross: Cents = Field(description="Unit price times quantity, in cents.")


class LineInput(Value):
    """A variation and how many units of it to ring up."""

    variation_id: VariationId = Field(description="The variation.")
    quantity: PositiveQuantity = Field(description="Units.")


class Order(Record):
    """A register order: its lines, tax and total, and whether it is open, paid or canceled."""

    id: OrderId
    receipt_number: Annotated[OrderNumber, Generated("sequence", "R-{n:06d}")]
    """Number printed on the receipt."""
    location_id: LocationId
    """Where the order was rung up."""
    state: OrderState = "OPEN"
    """OPEN until paid (COMPLETED) or CANCELED."""
    line_items: tuple[LineItem, ...]
    """What is sold."""
    currency: Currency
    """Currency of the amounts."""
    subtotal: Cents
    """Sum of the lines, in cents."""
    total_tax: Cents
    """Tax at the location's rate on the subtotal, rounded, in cents."""
    total: Cents
    """Subtotal plus tax, in cents (tips are recorded on the payment)."""
    employee_email: Email
    """The team member who rang it up."""
    customer_name: PersonName | None = None
    """The customer, if known."""
    customer_email: Email | None = None
    """Where the digital receipt goes, if given."""
    created_at: Annotated[DateTime, CREATED]
    """When the order was opened."""
    closed_at: DateTime | None = None
    """When it was paid or canceled."""


class Payment(Record):
    """The tender that paid an order."""

    id: PaymentId
    order_id: OrderId
    """The order paid."""
    receipt_number: OrderNumber
    """The order's receipt number."""
    location_id: LocationId
    """Where it was taken."""
    source_type: SourceType
    """CARD or CASH."""
    amount: Cents
    """The order total paid, in cents."""
    tip: Cents = 0
    """Tip on top, in cents."""
    currency: Currency
    """Currency."""
    cash_tendered: Cents | None = None
    """Cash the buyer handed over, in cents."""
    change_back: Cents | None = None
    """Change given back, in cents."""
    card_brand: CardBrand | None = None
    """Card brand."""
    card_last4: CardLast4 | None = None
    """Last four digits of the card."""
    shift_id: ShiftId | None = None
    """Cash drawer shift the cash went into."""
    refunded: Cents = 0
    """Refunded so far, in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When it was taken."""


class Refund(Record):
    """Money given back on a payment."""

    id: RefundId
    payment_id: PaymentId
    """The payment refunded."""
    order_id: OrderId
    """Its order."""
    receipt_number: OrderNumber
    """Its receipt number."""
    amount: Cents
    """Amount given back, in cents."""
    source_type: SourceType
    """Given back in cash or to the card."""
    reason: RefundReason
    """Why."""
    shift_id: ShiftId | None = None
    """Drawer shift cash was taken from."""
    created_at: Annotated[DateTime, CREATED]
    """When it was refunded."""


class Shift(Record):
    """A cash drawer shift: the cash in one register's drawer from opening to the end-of-shift count."""

    id: ShiftId
    location_id: LocationId
    """Where the drawer is."""
    opened_by: Email
    """Team member who opened the drawer."""
    state: Literal["OPEN", "CLOSED"] = "OPEN"
    """OPEN while cash moves; CLOSED after the count."""
    opened_at: Annotated[DateTime, CREATED]
    """When the drawer was opened."""
    closed_at: DateTime | None = None
    """When it was counted and closed."""
    opening_cash: Cents
    """Cash in the drawer at opening, in cents."""
    cash_sales: Cents = 0
    """Cash taken for sales and tips, in cents."""
    cash_refunds: Cents = 0
    """Cash given back, in cents."""
    paid_in: Cents = 0
    """Cash put in for other reasons, in cents."""
    paid_out: Cents = 0
    """Cash taken out for other reasons, in cents."""
    expected_cash: Cents
    """Opening cash + sales - refunds + paid in - paid out, in cents."""
    counted_cash: Cents | None = None
    """Cash counted at closing, in cents."""
    discrepancy: int | None = None
    """Counted minus expected, in cents (negative: the drawer is short)."""
    closing_note: Text = ""
    """Explanation of a discrepancy."""


def _guard_variation(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Item, new.item_id, field="item_id")


def _open_lines(ctx: Ctx, variation_ids: set[str]) -> Order | None:
    for order in ctx.where(Order, state="OPEN"):
        if any(line.variation_id in variation_ids for line in order.line_items):
            return order
    return None


def _guard_item_delete(ctx: Ctx, new: Any, old: Any) -> None:
    variations = ctx.where(Variation, item_id=old.id)
    busy = _open_lines(ctx, {v.id for v in variations})
    if busy is not None:
        raise RuleViolation(
            f"open order {busy.receipt_number} sells this item",
            field="item_id",
            hint="pay or cancel the open orders first",
        )
    for v in variations:
        ctx.delete(v)


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("status", "currency"),
    search=("name",),
    delete=False,
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("name", "category", "description"),
    filters=("category",),
    search=("name", "description"),
    update=("name", "category", "description"),
    guard_delete=_guard_item_delete,
    title="catalog item",
)
variations = service.resource(
    Variation,
    name="variation",
    plural="variations",
    prefix="var",
    create=("item_id", "name", "sku", "price", "track_inventory", "stock"),
    filters=("item_id", "sku", "track_inventory"),
    search=("name", "sku"),
    update=("name", "price", "track_inventory", "stock"),
    delete=False,
    unique=("sku",),
    guard_create=_guard_variation,
    title="item variation",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("location_id", "state", "receipt_number", "employee_email", "customer_email"),
    search=("customer_name", "receipt_number"),
    delete=False,
    title="register order",
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    filters=("order_id", "location_id", "source_type", "shift_id", "receipt_number"),
    delete=False,
)
refunds = service.resource(
    Refund,
    name="refund",
    plural="refunds",
    prefix="rfd",
    create=False,
    get=False,
    filters=("payment_id", "order_id", "shift_id"),
    delete=False,
)
shifts = service.resource(
    Shift,
    name="shift",
    plural="shifts",
    prefix="cds",
    create=False,
    get=False,
    filters=("location_id", "state", "opened_by"),
    delete=False,
    title="cash drawer shift",
)


# -- helpers -----------------------------------------------------------------------------------


def _open_shift_at(ctx: Ctx, location_id: str) -> Shift | None:
    return ctx.first(Shift, location_id=location_id, state="OPEN")


def _move_cash(ctx: Ctx, shift: Shift, **deltas: int) -> Shift:
    values = {k: getattr(shift, k) + v for k, v in deltas.items()}
    merged = {
        k: values.get(k, getattr(shift, k))
        for k in ("opening_cash", "cash_sales", "cash_refunds", "paid_in", "paid_out")
    }
    expected = (
        merged["opening_cash"] + merged["cash_sales"] - merged["cash_refunds"] + merged["paid_in"] - merged["paid_out"]
    )
    return ctx.update(shift, expected_cash=expected, **values)


def _require_shift(ctx: Ctx, location: Location, field: str) -> Shift:
    shift = _open_shift_at(ctx, location.id)
    if shift is None:
        raise RuleViolation(
            f"no cash drawer is open at {location.name}",
            field=field,
            hint="open a cash drawer shift with pos__open_shift first, or take a card",
        )
    return shift


# -- examples ----------------------------------------------------------------------------------


def _example_create_order(ctx: Ctx) -> dict[str, Any] | None:
    loc = ctx.first(Location, status="ACTIVE")
    for v in ctx.scan(Variation):
        if not v.track_inventory or v.stock >= 1:
            return {
                "location_id": loc.id if loc else "",
                "line_items": [{"variation_id": v.id, "quantity": 1}],
                "employee_email": ctx.population.employees[0].email,
            }
    return None


def _payable(ctx: Ctx, cash: bool) -> Order | None:
    for order in ctx.where(Order, state="OPEN"):
        if cash and _open_shift_at(ctx, order.location_id) is None:
            continue
        if all(
            not (v := ctx.get(Variation, line.variation_id)).track_inventory or v.stock >= line.quantity
            for line in order.line_items
        ):
            return order
    return None


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    order = _payable(ctx, cash=False)
    if order is None:
        return None
    return {"order_id": order.id, "source_type": "CARD", "card_brand": "VISA", "card_last4": "4242", "tip": 200}


def _example_open_shift(ctx: Ctx) -> dict[str, Any] | None:
    for loc in ctx.where(Location, status="ACTIVE"):
        if _open_shift_at(ctx, loc.id) is None:
            return {"location_id": loc.id, "employee_email": ctx.population.employees[1].email, "opening_cash": 10_000}
    return None


def _example_sales(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Payment)
    return None if p is None else {"location_id": p.location_id, "date": p.created_at.date().isoformat()}


# -- domain tools ------------------------------------------------------------------------------


@service.tool(intent="ring up a register order", write=True, example=_example_create_order)
def create_order(
    ctx: Ctx,
    location_id: LocationId,
    line_items: Annotated[list[LineInput], Field(min_length=1, max_length=50)],
    employee_email: Email,
    customer_name: PersonName | None = None,
    customer_email: Email | None = None,
) -> Order:
    """Open a register order at an active location, priced from the catalog and taxed at the location's rate.

    Tracked variations must have the units in stock (they are taken when the
    order is paid). Repeated variations are summed.

    Args:
        location_id: The active location ringing it up.
        line_items: Variations and quantities.
        employee_email: The team member ringing it up.
        customer_name: The customer's name, if known.
        customer_email: Where to send the digital receipt.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    if loc.status != "ACTIVE":
        raise RuleViolation(
            f"location {loc.name} is inactive", field="location_id", hint="ring orders up at an active location"
        )
    wanted: dict[str, tuple[int, int]] = {}
    for i, li in enumerate(line_items):
        first, qty = wanted.get(li.variation_id, (i, 0))
        wanted[li.variation_id] = (first, qty + li.quantity)
    lines: list[LineItem] = []
    for vid, (i, qty) in wanted.items():
        v = ctx.get(Variation, vid, field=f"line_items.{i}.variation_id")
        if v.track_inventory and v.stock < qty:
            raise RuleViolation(
                f"only {v.stock} unit(s) of {v.sku} are in stock; {qty} were rung up",
                field=f"line_items.{i}.quantity",
                hint=f"sell at most {v.stock}, or recount the stock with pos__update_variation",
            )
        item = ctx.get(Item, v.item_id)
        lines.append(
            LineItem(
                variation_id=vid,
                sku=v.sku,
                name=f"{item.name} ({v.name})",
                quantity=qty,
                unit_price=v.price,
                gross=v.price * qty,
            )
        )
    subtotal = sum(line.gross for line in lines)
    tax = round(subtotal * loc.tax_rate / 100)
    return ctx.create(
        Order,
        location_id=loc.id,
        line_items=tuple(lines),
        currency=loc.currency,
        subtotal=subtotal,
        total_tax=tax,
        total=subtotal + tax,
        employee_email=employee_email,
        customer_name=customer_name,
        customer_email=customer_email,
    )


@service.tool(intent="take payment for the order", write=True, example=_example_pay)
def pay_order(
    ctx: Ctx,
    order_id: OrderId,
    source_type: SourceType,
    tip: Cents = 0,
    cash_tendered: Cents | None = None,
    card_brand: CardBrand | None = None,
    card_last4: CardLast4 | None = None,
) -> Payment:
    """Pay an open order with one card or cash tender; the order completes and tracked stock is sold down.

    Cash needs an open cash drawer shift at the order's location and enough
    cash tendered for the total and tip; the change is computed and the cash
    goes into the drawer. A card needs its last four digits.

    Args:
        order_id: The open order.
        source_type: CARD or CASH.
        tip: Tip on top of the total, in cents.
        cash_tendered: For cash: what the buyer handed over, in cents.
        card_brand: For a card: its brand.
        card_last4: For a card: its last four digits.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.state == "COMPLETED":
        raise Conflict(
            f"order {order.receipt_number} is already paid",
            field="order_id",
            hint="look the payment up with pos__list_payments",
        )
    if order.state != "OPEN":
        raise RuleViolation(
            f"order {order.receipt_number} is canceled", field="order_id", hint="ring up a new order instead"
        )
    due = order.total + tip
    shift: Shift | None = None
    if source_type == "CASH":
        shift = _require_shift(ctx, ctx.get(Location, order.location_id), "source_type")
        if cash_tendered is None or cash_tendered < due:
            raise RuleViolation(
                f"cash tendered ({cash_tendered or 0}) does not cover the total and tip ({due})",
                field="cash_tendered",
                hint=f"take at least {due} in cash",
            )
    elif card_last4 is None:
        raise RuleViolation(
            "a card payment needs the card's last four digits", field="card_last4", hint="pass card_last4"
        )
    for i, line in enumerate(order.line_items):
        v = ctx.get(Variation, line.variation_id)
        if v.track_inventory:
            if v.stock < line.quantity:
                raise RuleViolation(
                    f"line {i + 1} ({v.sku}) needs {line.quantity} unit(s) but {v.stock} are in stock",
                    field="order_id",
                    hint="cancel the order and ring up what is in stock",
                )
            ctx.update(v, stock=v.stock - line.quantity)
    if shift is not None:
        shift = _move_cash(ctx, shift, cash_sales=due)
    ctx.update(order, state="COMPLETED", closed_at=ctx.now())
    return ctx.create(
        Payment,
        order_id=order.id,
        receipt_number=order.receipt_number,
        location_id=order.location_id,
        source_type=source_type,
        amount=order.total,
        tip=tip,
        currency=order.currency,
        cash_tendered=cash_tendered if source_type == "CASH" else None,
        change_back=(cash_tendered or 0) - due if source_type == "CASH" else None,
        card_brand=(card_brand or "OTHER") if source_type == "CARD" else None,
        card_last4=card_last4 if source_type == "CARD" else None,
        shift_id=shift.id if shift else None,
    )


@service.tool(
    intent="cancel the open register order",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"state": "OPEN"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an open (unpaid) register order; a paid order is refunded instead.

    Args:
        order_id: The open order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.state != "OPEN":
        raise RuleViolation(
            f"order {order.receipt_number} is {order.state}; only open orders can be canceled",
            field="order_id",
            hint="refund a paid order's payment with pos__refund_payment instead",
        )
    return ctx.update(order, state="CANCELED", closed_at=ctx.now())


@service.tool(
    intent="refund the payment",
    write=True,
    example=first_example(
        Payment,
        "payment_id",
        where={"source_type": "CARD"},
        match=lambda ctx, p: p.amount + p.tip - p.refunded >= 100,
        amount=100,
        reason="price_adjustment",
    ),
)
def refund_payment(
    ctx: Ctx, payment_id: PaymentId, amount: Annotated[Cents, Field(ge=1)], reason: RefundReason
) -> Refund:
    """Give money back on a payment, to the card it came from or in cash from an open drawer.

    A payment's refunds never add up to more than it took (total and tip).

    Args:
        payment_id: The payment.
        amount: Amount to give back, in cents.
        reason: Why.
    """
    p = ctx.get(Payment, payment_id, field="payment_id")
    left = p.amount + p.tip - p.refunded
    if amount > left:
        raise RuleViolation(
            f"only {left} of payment {p.id} can still be refunded",
            field="amount",
            hint=f"refund at most {left}",
        )
    shift: Shift | None = None
    if p.source_type == "CASH":
        shift = _require_shift(ctx, ctx.get(Location, p.location_id), "payment_id")
        if amount > shift.expected_cash:
            raise RuleViolation(
                f"the drawer holds {shift.expected_cash}; it cannot pay back {amount}",
                field="amount",
                hint="refund less in cash, or add cash with pos__record_cash_movement first",
            )
        _move_cash(ctx, shift, cash_refunds=amount)
    ctx.update(p, refunded=p.refunded + amount)
    return ctx.create(
        Refund,
        payment_id=p.id,
        order_id=p.order_id,
        receipt_number=p.receipt_number,
        amount=amount,
        source_type=p.source_type,
        reason=reason,
        shift_id=shift.id if shift else None,
    )


@service.tool(intent="open the cash drawer", write=True, example=_example_open_shift)
def open_shift(ctx: Ctx, location_id: LocationId, employee_email: Email, opening_cash: Cents) -> Shift:
    """Open a cash drawer shift at a location; one drawer is open per location at a time.

    Args:
        location_id: The active location.
        employee_email: The team member opening the drawer.
        opening_cash: Cash in the drawer at opening, in cents.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    if loc.status != "ACTIVE":
        raise RuleViolation(f"location {loc.name} is inactive", field="location_id", hint="pick an active location")
    current = _open_shift_at(ctx, loc.id)
    if current is not None:
        raise Conflict(
            f"cash drawer shift {current.id} is already open at {loc.name}",
            field="location_id",
            hint="close it with pos__close_shift first",
        )
    return ctx.create(
        Shift, location_id=loc.id, opened_by=employee_email, opening_cash=opening_cash, expected_cash=opening_cash
    )


def _open(ctx: Ctx, shift_id: str) -> Shift:
    shift = ctx.get(Shift, shift_id, field="shift_id")
    if shift.state != "OPEN":
        raise RuleViolation(
            f"cash drawer shift {shift.id} is closed", field="shift_id", hint="open a new shift with pos__open_shift"
        )
    return shift


@service.tool(
    intent="record cash put into or taken out of the drawer",
    write=True,
    example=first_example(
        Shift, "shift_id", where={"state": "OPEN"}, kind="paid_in", amount=2_000, description="Float top-up"
    ),
)
def record_cash_movement(
    ctx: Ctx,
    shift_id: ShiftId,
    kind: Literal["paid_in", "paid_out"],
    amount: Annotated[Cents, Field(ge=1)],
    description: Text,
) -> Shift:
    """Record cash put into (paid in) or taken out of (paid out) an open drawer for a reason other than a sale.

    A paid-out cannot take more than the drawer is expected to hold.

    Args:
        shift_id: The open shift.
        kind: paid_in or paid_out.
        amount: Cash moved, in cents.
        description: What the cash was for.
    """
    shift = _open(ctx, shift_id)
    if not description.strip():
        raise RuleViolation("say what the cash was for", field="description", hint="e.g. 'Window cleaner'")
    if kind == "paid_out" and amount > shift.expected_cash:
        raise RuleViolation(
            f"the drawer holds {shift.expected_cash}; {amount} cannot be paid out",
            field="amount",
            hint=f"pay out at most {shift.expected_cash}",
        )
    return _move_cash(ctx, shift, **{kind: amount})


@service.tool(
    intent="count and close the cash drawer",
    write=True,
    example=first_example(Shift, "shift_id", where={"state": "OPEN"}, fields={"counted_cash": "expected_cash"}),
)
def close_shift(ctx: Ctx, shift_id: ShiftId, counted_cash: Cents, note: Text = "") -> Shift:
    """Close an open drawer with the cash counted; the discrepancy against the expected cash is recorded.

    A count off by more than 5.00 needs a note explaining it.

    Args:
        shift_id: The open shift.
        counted_cash: Cash counted in the drawer, in cents.
        note: Explanation of the discrepancy.
    """
    shift = _open(ctx, shift_id)
    diff = counted_cash - shift.expected_cash
    if abs(diff) > DISCREPANCY_TOLERANCE and not note.strip():
        raise RuleViolation(
            f"the count is off by {diff} (expected {shift.expected_cash}); a note is required",
            field="note",
            hint="recount, or explain the discrepancy in note",
        )
    return ctx.update(
        shift,
        state="CLOSED",
        closed_at=ctx.now(),
        counted_cash=counted_cash,
        discrepancy=diff,
        closing_note=note.strip(),
    )


class DailySales(BaseModel):
    """A location's takings on one day."""

    location_id: LocationId = Field(description="The location.")
    date: Date = Field(description="The day (UTC).")
    currency: Currency = Field(description="Currency.")
    payments: int = Field(description="Payments taken.")
    receipts: list[OrderNumber] = Field(description="Receipt numbers of the orders paid.")
    gross_sales: Cents = Field(description="Order subtotals, in cents.")
    tax: Cents = Field(description="Tax collected, in cents.")
    tips: Cents = Field(description="Tips, in cents.")
    card: Cents = Field(description="Taken by card (totals and tips), in cents.")
    cash: Cents = Field(description="Taken in cash (totals and tips), in cents.")
    refunds: Cents = Field(description="Refunded that day, in cents.")
    net: Cents = Field(description="Card plus cash minus refunds, in cents.")


@service.tool(intent="report the day's sales at the location", example=_example_sales)
def daily_sales(ctx: Ctx, location_id: LocationId, date: Date) -> DailySales:
    """Sum a location's payments and refunds of one day.

    Args:
        location_id: The location.
        date: The day (UTC).
    """
    loc = ctx.get(Location, location_id, field="location_id")
    pays = [p for p in ctx.where(Payment, location_id=loc.id) if p.created_at.date() == date]
    refunds_ = [
        r
        for r in ctx.scan(Refund)
        if r.created_at.date() == date and ctx.get(Payment, r.payment_id).location_id == loc.id
    ]
    paid_orders = [ctx.get(Order, p.order_id) for p in pays]
    card = sum(p.amount + p.tip for p in pays if p.source_type == "CARD")
    cash = sum(p.amount + p.tip for p in pays if p.source_type == "CASH")
    back = sum(r.amount for r in refunds_)
    return DailySales(
        location_id=loc.id,
        date=date,
        currency=loc.currency,
        payments=len(pays),
        receipts=[p.receipt_number for p in pays],
        gross_sales=sum(o.subtotal for o in paid_orders),
        tax=sum(o.total_tax for o in paid_orders),
        tips=sum(p.tip for p in pays),
        card=card,
        cash=cash,
        refunds=back,
        net=max(0, card + cash - back),
    )


# -- seed --------------------------------------------------------------------------------------

_ShiftKey = Literal["old", "today", "kiosk"]
"""The seeded drawers: yesterday's and today's at the flagship, yesterday's at the kiosk."""


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's stores, its products as catalog items, yesterday's and today's orders and drawers."""
    pop = s.population
    staff = pop.staff("Sales", "Operations", "Support")
    flagship, kiosk = _seed_locations(s)
    sellable = _seed_catalog(s)
    in_stock = [v for v in sellable if not v.track_inventory or v.stock >= 3]
    shifts = _seed_shifts(s, flagship, kiosk, staff)
    cash_in, cash_back = _seed_sales(s, flagship, kiosk, in_stock, shifts, staff)
    _settle_shifts(s, shifts, cash_in, cash_back)


def _seed_locations(s: SeedContext) -> tuple[Location, Location]:
    """The flagship store, a mall kiosk and a closed pop-up; return the two that sell."""
    home = s.population.home
    place = home.place

    def local_address(n: int) -> PostalAddress:
        return PostalAddress(
            street=f"{10 + 7 * n} {('Market Square', 'Station Road', 'High Street')[n % 3]}",
            city=place.city,
            postal_code=f"{place.postal_prefix}{200 + n}",
            country=place.country,
        )

    flagship = s.create(
        Location,
        name=f"{home.name} Flagship",
        business_name=home.name,
        address=home.address,
        phone=home.phone,
        timezone=place.timezone,
        currency=place.currency,
        tax_rate=8.0,
        created_at=s.ago(days=700),
    )
    kiosk = s.create(
        Location,
        name=f"{place.city} Mall Kiosk",
        business_name=home.name,
        address=local_address(1),
        timezone=place.timezone,
        currency=place.currency,
        tax_rate=8.0,
        created_at=s.ago(days=300),
    )
    s.create(
        Location,
        name="Airport Pop-up",
        business_name=home.name,
        address=local_address(2),
        timezone=place.timezone,
        currency=place.currency,
        tax_rate=0.0,
        status="INACTIVE",
        created_at=s.ago(days=500),
    )
    return flagship, kiosk


def _seed_catalog(s: SeedContext) -> list[Variation]:
    """The first 24 products as items, apparel in two sizes; return every variation."""
    variations: list[Variation] = []
    for j, p in enumerate(s.population.products[:24]):
        item = s.create(
            Item,
            name=p.name,
            category=p.category,
            description=f"{p.name} from the {p.category} range.",
            updated_at=s.ago(days=30 + j),
        )
        options = [("Regular", p.sku)] + ([("Large", f"{p.sku}-L")] if p.category == "apparel" else [])
        for name, sku in options:
            tracked = j % 7 != 6
            variations.append(
                s.create(
                    Variation,
                    item_id=item.id,
                    name=name,
                    sku=sku,
                    price=p.price_cents,
                    track_inventory=tracked,
                    stock=(0 if j % 9 == 4 else s.rng.randint(4, 30)) if tracked else 0,
                    updated_at=s.ago(days=10 + j),
                )
            )
    return variations


def _seed_shifts(
    s: SeedContext, flagship: Location, kiosk: Location, staff: Sequence[Person]
) -> dict[_ShiftKey, Shift]:
    """Yesterday's flagship and kiosk drawers and today's flagship drawer, all open until settled."""
    yesterday = s.ago(days=1)
    return {
        "old": s.create(
            Shift,
            location_id=flagship.id,
            opened_by=staff[0].email,
            opening_cash=20_000,
            expected_cash=20_000,
            opened_at=yesterday.replace(hour=8),
        ),
        "today": s.create(
            Shift,
            location_id=flagship.id,
            opened_by=staff[1 % len(staff)].email,
            opening_cash=20_000,
            expected_cash=20_000,
            opened_at=s.now.replace(hour=8),
        ),
        "kiosk": s.create(
            Shift,
            location_id=kiosk.id,
            opened_by=staff[2 % len(staff)].email,
            opening_cash=10_000,
            expected_cash=10_000,
            opened_at=yesterday.replace(hour=9),
        ),
    }


def _seed_sales(
    s: SeedContext,
    flagship: Location,
    kiosk: Location,
    in_stock: Sequence[Variation],
    shifts: dict[_ShiftKey, Shift],
    staff: Sequence[Person],
) -> tuple[dict[_ShiftKey, int], dict[_ShiftKey, int]]:
    """Thirty orders over yesterday and this morning, paid by card or cash, two partly refunded.

    Returns:
        The cash each drawer took for sales and tips, and the cash it paid back for refunds.
    """
    cash_in: dict[_ShiftKey, int] = {k: 0 for k in shifts}
    cash_back: dict[_ShiftKey, int] = {k: 0 for k in shifts}
    for i in range(30):
        loc = flagship if i % 3 else kiosk
        order = _seed_order(s, i, loc, in_stock, staff)
        if order.state != "COMPLETED":
            continue
        cash = i % 4 == 1 and (loc is flagship or i < 18)
        key: _ShiftKey = "kiosk" if loc is kiosk else ("old" if i < 18 else "today")
        pay = _seed_payment(s, i, order, shifts[key] if cash else None)
        if cash:
            cash_in[key] += pay.amount + pay.tip
        if i in (4, 9):
            amount = order.line_items[0].unit_price
            s.create(
                Refund,
                payment_id=pay.id,
                order_id=order.id,
                receipt_number=order.receipt_number,
                amount=amount,
                source_type=pay.source_type,
                reason="returned_goods",
                shift_id=pay.shift_id,
                created_at=order.created_at + dt.timedelta(hours=3),
            )
            s.update(pay, refunded=amount)
            if cash:
                cash_back[key] += amount
    return cash_in, cash_back


def _seed_order(s: SeedContext, i: int, loc: Location, in_stock: Sequence[Variation], staff: Sequence[Person]) -> Order:
    """The ``i``-th seeded order: the first 18 yesterday, the rest this morning; #7 cancelled, three still open."""
    yesterday = s.ago(days=1)
    when = (yesterday if i < 18 else s.now).replace(hour=9) + dt.timedelta(minutes=17 * i)
    if i >= 18:
        when = s.now.replace(hour=8) + dt.timedelta(minutes=4 * (i - 17))
    picked = [in_stock[(i * 5 + n) % len(in_stock)] for n in range(1 + i % 3)]
    lines = []
    for n, v in enumerate(picked):
        qty = 1 + (i + n) % 2
        item = next(it for it in s.records(Item) if it.id == v.item_id)
        lines.append(
            LineItem(
                variation_id=v.id,
                sku=v.sku,
                name=f"{item.name} ({v.name})",
                quantity=qty,
                unit_price=v.price,
                gross=v.price * qty,
            )
        )
    subtotal = sum(li.gross for li in lines)
    tax = round(subtotal * loc.tax_rate / 100)
    state: OrderState = "CANCELED" if i == 7 else "OPEN" if i in (20, 25, 28) else "COMPLETED"
    consumers = s.population.consumers
    customer = consumers[i % len(consumers)] if i % 2 == 0 else None
    return s.create(
        Order,
        location_id=loc.id,
        state=state,
        line_items=tuple(lines),
        currency=loc.currency,
        subtotal=subtotal,
        total_tax=tax,
        total=subtotal + tax,
        employee_email=staff[i % len(staff)].email,
        customer_name=customer.name if customer else None,
        customer_email=customer.email if customer else None,
        created_at=when,
        closed_at=when + dt.timedelta(minutes=2) if state != "OPEN" else None,
    )


def _seed_payment(s: SeedContext, i: int, order: Order, drawer: Shift | None) -> Payment:
    """Pay the ``i``-th seeded order with a tip: in cash into ``drawer``, rounded up to a note, or by card."""
    tip = (0, 100, 250)[i % 3]
    due = order.total + tip
    cash = drawer is not None
    tendered = ((due + 999) // 1000) * 1000 if cash else None
    return s.create(
        Payment,
        order_id=order.id,
        receipt_number=order.receipt_number,
        location_id=order.location_id,
        source_type="CASH" if cash else "CARD",
        amount=order.total,
        tip=tip,
        currency=order.currency,
        cash_tendered=tendered,
        change_back=(tendered - due) if tendered is not None else None,
        card_brand=None if cash else ("VISA", "MASTERCARD", "AMERICAN_EXPRESS")[i % 3],
        card_last4=None if cash else f"{(i * 2741) % 10000:04d}",
        shift_id=drawer.id if drawer is not None else None,
        created_at=order.created_at + dt.timedelta(minutes=2),
    )


def _settle_shifts(
    s: SeedContext, shifts: dict[_ShiftKey, Shift], cash_in: dict[_ShiftKey, int], cash_back: dict[_ShiftKey, int]
) -> None:
    """Book each drawer's cash; yesterday's are closed, the flagship's 12.50 short."""
    for key, shift in shifts.items():
        expected = shift.opening_cash + cash_in[key] - cash_back[key]
        if key == "today":
            s.update(shift, cash_sales=cash_in[key], cash_refunds=cash_back[key], expected_cash=expected)
            continue
        counted = expected - (1_250 if key == "old" else 0)
        s.update(
            shift,
            state="CLOSED",
            closed_at=s.ago(days=1).replace(hour=20),
            cash_sales=cash_in[key],
            cash_refunds=cash_back[key],
            expected_cash=expected,
            counted_cash=counted,
            discrepancy=counted - expected,
            closing_note="A 12.50 note was given as change twice" if key == "old" else "",
        )
