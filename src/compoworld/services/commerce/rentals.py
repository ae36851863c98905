"""Hireloop Rentals: the company's rental fleet: products and their stock items, orders, availability, deposits.

Modeled on the Booqable API v1 (products with trackable stock items, customers,
orders moving new → reserved → started → stopped or canceled, availability
and shortages, price per day, deposits, payments, lag time between rentals).
A stock item is booked by at most one reserved or started order at a time:
two orders that hold it cannot overlap, counting the product's lag time after
each rental for cleaning and checks. Reserving books the order's stock items
(the ones named, else the first free ones) and refuses a shortage; a booked
item in maintenance or still out with another customer cannot be handed over,
so starting needs every item at hand; stopping returns them. An order is
priced per started day per unit, carries a deposit per unit, and takes
payments up to what it owes; after the rental the deposit is refunded, less
what damage retains, once and only once. Only new and reserved orders change
period or are canceled.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, DateTime, Email, IdOf, PersonName, Phone, Sku, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "rentals",
    title="Hireloop Rentals",
    category="rental",
    modeled_on="Booqable API v1 (products, trackable stock items, customers, orders with reserve / start / stop / "
    "cancel, availability and shortages, day prices, deposits, payments, lag time)",
    description="Renting out equipment: products and their numbered stock items, customers, rental orders that are "
    "reserved, started (handed over) and stopped (returned), availability over a period without double booking, "
    "day prices, deposits and payments.",
)

CustomerId = Annotated[str, IdOf("rentals.customer")]
ProductId = Annotated[str, IdOf("rentals.product")]
StockItemId = Annotated[str, IdOf("rentals.stock_item")]
OrderId = Annotated[str, IdOf("rentals.order")]

Units = Annotated[int, Field(ge=1, le=100)]
"""How many units of a product."""
Amount = Annotated[int, Field(gt=0, le=10**10)]
"""A positive amount in cents."""
OrderStatus = Literal["new", "reserved", "started", "stopped", "canceled"]
DepositStatus = Literal["none", "held", "refunded"]

HOLDING: tuple[OrderStatus, ...] = ("reserved", "started")
"""Statuses in which an order holds its stock items."""
MAX_DAYS = 365


class Customer(Created):
    """Someone who rents."""

    id: CustomerId
    name: PersonName
    """The customer's name."""
    email: Email
    """Their e-mail (unique)."""
    phone: Phone | None = None
    """Their phone."""
    company_name: CompanyName | None = None
    """The company they rent for."""
    discount_percent: Annotated[int, Field(ge=0, le=50)] = 0
    """A standing discount on rental prices."""


class Product(Record):
    """A rental product."""

    id: ProductId
    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The product's name."""
    sku: Sku
    """Its SKU."""
    price_per_day_cents: Cents
    """Rental price per started day per unit."""
    deposit_cents: Cents = 0
    """Deposit per unit."""
    lag_time_hours: Annotated[int, Field(ge=0, le=168)] = 0
    """Time after a rental before a stock item can go out again (cleaning, checks)."""


class StockItem(Record):
    """One numbered, trackable unit of a product."""

    id: StockItemId
    product_id: ProductId
    """The product."""
    identifier: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{2,32}$")]
    """The serial on its tag."""
    status: Literal["available", "maintenance", "retired"] = "available"
    """available, maintenance (cannot be handed over) or retired (not booked)."""


class OrderLine(Value):
    """A product on an order."""

    product_id: ProductId
    """The product."""
    quantity: Units
    """Units rented."""
    price_per_day_cents: Cents = 0
    """The day price (filled from the product)."""
    total_cents: Cents = 0
    """The line's price for the period, before discount."""


class Order(Timestamped):
    """A rental order."""

    id: OrderId
    number: int
    """The order number."""
    customer_id: CustomerId
    """The customer."""
    customer_email: Email
    """The customer's e-mail."""
    starts_at: DateTime
    """When the rental starts (pick-up)."""
    stops_at: DateTime
    """When it ends (return)."""
    status: OrderStatus = "new"
    """new, reserved, started, stopped or canceled."""
    lines: tuple[OrderLine, ...]
    """What is rented."""
    stock_item_ids: tuple[StockItemId, ...] = ()
    """The stock items it holds (booked when reserved)."""
    days: int
    """Started days charged."""
    price_cents: Cents
    """The rental price after the customer's discount."""
    deposit_cents: Cents
    """The deposit owed."""
    paid_cents: Cents = 0
    """Payments received (price and deposit)."""
    deposit_status: DepositStatus = "none"
    """none (not paid), held, or refunded."""
    deposit_refunded_cents: Cents = 0
    """What was given back of the deposit."""
    deposit_retained_cents: Cents = 0
    """What damage kept of it."""
    note: Text = ""
    """A note."""


class ProductAvailability(Value):
    """How many units of a product are free over a period."""

    product_id: ProductId
    """The product."""
    stock_count: int
    """Units that can be booked (not retired)."""
    booked: int
    """Units held by overlapping reserved or started orders (lag time included)."""
    available: int
    """Units still free."""
    free_stock_item_ids: tuple[StockItemId, ...]
    """Which ones."""


# -- rules ------------------------------------------------------------------------------------


def _days(starts: dt.datetime, stops: dt.datetime) -> int:
    return max(1, math.ceil((stops - starts).total_seconds() / 86400))


def _check_period(starts: dt.datetime, stops: dt.datetime) -> None:
    if stops <= starts:
        raise RuleViolation("the rental stops before it starts", field="stops_at", hint="give a later stops_at")
    if _days(starts, stops) > MAX_DAYS:
        raise RuleViolation(
            f"a rental lasts at most {MAX_DAYS} days", field="stops_at", hint="split it into several orders"
        )


def _overlaps(ctx: Ctx, order: Order, starts: dt.datetime, stops: dt.datetime, lag: dt.timedelta) -> bool:
    return order.starts_at < stops + lag and starts < order.stops_at + lag


def _holders(ctx: Ctx, item: StockItem, starts: dt.datetime, stops: dt.datetime, skip: str | None) -> list[Order]:
    """Reserved or started orders that hold ``item`` over a period overlapping ``starts``-``stops``."""
    lag = dt.timedelta(hours=ctx.get(Product, item.product_id).lag_time_hours)
    out = []
    for status in HOLDING:
        for order in ctx.where(Order, status=status):
            if order.id != skip and item.id in order.stock_item_ids and _overlaps(ctx, order, starts, stops, lag):
                out.append(order)
    return out


def _free_items(
    ctx: Ctx, product: Product, starts: dt.datetime, stops: dt.datetime, skip: str | None = None
) -> list[StockItem]:
    return [
        item
        for item in ctx.where(StockItem, product_id=product.id)
        if item.status != "retired" and not _holders(ctx, item, starts, stops, skip)
    ]


def _availability(
    ctx: Ctx, product: Product, starts: dt.datetime, stops: dt.datetime, skip: str | None = None
) -> ProductAvailability:
    bookable = [i for i in ctx.where(StockItem, product_id=product.id) if i.status != "retired"]
    free = _free_items(ctx, product, starts, stops, skip)
    return ProductAvailability(
        product_id=product.id,
        stock_count=len(bookable),
        booked=len(bookable) - len(free),
        available=len(free),
        free_stock_item_ids=tuple(i.id for i in free),
    )


def _priced(
    ctx: Ctx, customer: Customer, lines: list[OrderLine], starts: dt.datetime, stops: dt.datetime
) -> dict[str, Any]:
    days = _days(starts, stops)
    seen: set[str] = set()
    priced = []
    deposit = 0
    for line in lines:
        if line.product_id in seen:
            raise RuleViolation(
                f"product {line.product_id} is listed twice", field="lines", hint="give one line per product"
            )
        seen.add(line.product_id)
        product = ctx.get(Product, line.product_id, field="lines")
        total = product.price_per_day_cents * line.quantity * days
        priced.append(
            line.model_copy(update={"price_per_day_cents": product.price_per_day_cents, "total_cents": total})
        )
        deposit += product.deposit_cents * line.quantity
    gross = sum(li.total_cents for li in priced)
    price = gross - round(gross * customer.discount_percent / 100)
    return {"lines": tuple(priced), "days": days, "price_cents": price, "deposit_cents": deposit}


def _owed(order: Order) -> int:
    return order.price_cents + order.deposit_cents - order.paid_cents


def _book(ctx: Ctx, order: Order, chosen: list[str] | None) -> tuple[str, ...]:
    """The stock items the order will hold: the named ones (checked) or the first free ones of each product."""
    booked: list[str] = []
    named = list(chosen or [])
    if len(set(named)) != len(named):
        raise RuleViolation("a stock item is named twice", field="stock_item_ids", hint="name each item once")
    for line in order.lines:
        product = ctx.get(Product, line.product_id)
        free = _free_items(ctx, product, order.starts_at, order.stops_at, skip=order.id)
        mine = [ctx.get(StockItem, i, field="stock_item_ids") for i in named]
        mine = [i for i in mine if i.product_id == product.id]
        if named:
            if len(mine) != line.quantity:
                raise RuleViolation(
                    f"the order rents {line.quantity} × {product.name} but names {len(mine)} of its stock items",
                    field="stock_item_ids",
                    hint="name one stock item per unit, or leave stock_item_ids out to book the first free ones",
                )
            for item in mine:
                if item.status == "retired" or item not in free:
                    holder = _holders(ctx, item, order.starts_at, order.stops_at, order.id)
                    raise RuleViolation(
                        f"stock item {item.identifier} is "
                        + (f"booked by order {holder[0].number}" if holder else item.status)
                        + " in that period",
                        field="stock_item_ids",
                        hint=f"free ones: {', '.join(i.identifier for i in free) or 'none'}",
                    )
            booked.extend(i.id for i in mine)
        else:
            if len(free) < line.quantity:
                raise RuleViolation(
                    f"shortage: {product.name} has {len(free)} unit(s) free from {order.starts_at} to "
                    f"{order.stops_at}, the order needs {line.quantity}",
                    field="order_id",
                    hint="lower the quantity, move the period with rentals__reschedule_order, or check "
                    "rentals__check_availability",
                )
            booked.extend(i.id for i in free[: line.quantity])
    stray = set(named) - set(booked)
    if stray:
        raise RuleViolation(
            f"stock items {', '.join(sorted(stray))} are not of the order's products",
            field="stock_item_ids",
            hint="name items of the rented products only",
        )
    return tuple(booked)


# -- resources --------------------------------------------------------------------------------


def _guard_customer(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Customer, email=new.email):
        if other.id != new.id:
            raise Conflict(
                f"{new.email} is already customer {other.name} ({other.id})",
                field="email",
                hint="use that customer",
            )


def _guard_stock_item(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == old.status:
        return
    out = [o for o in ctx.where(Order, status="started") if new.id in o.stock_item_ids]
    if out:
        raise RuleViolation(
            f"stock item {new.identifier} is out with order {out[0].number}",
            field="status",
            hint="stop that order (the item comes back) first",
        )
    if new.status == "retired":
        held = [o for o in ctx.where(Order, status="reserved") if new.id in o.stock_item_ids]
        if held:
            raise RuleViolation(
                f"stock item {new.identifier} is booked by reserved order {held[0].number}",
                field="status",
                hint="reschedule or cancel that order first",
            )


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("name", "email", "phone", "company_name", "discount_percent"),
    get=False,
    filters=("email", "company_name"),
    search=("name", "company_name"),
    delete=False,
    guard_create=_guard_customer,
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prd",
    create=False,
    get=False,
    filters=("sku",),
    search=("name",),
    delete=False,
)
stock_items = service.resource(
    StockItem,
    name="stock_item",
    plural="stock_items",
    prefix="itm",
    create=False,
    get=False,
    filters=("product_id", "status", "identifier"),
    update=("status",),
    delete=False,
    guard_update=_guard_stock_item,
    title="stock item",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("customer_id", "customer_email", "status", "deposit_status"),
    search=("note",),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _future(ctx: Ctx, days: int) -> dt.datetime:
    return utc_at(ctx.today() + dt.timedelta(days=days), 9)


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    customer, product = ctx.first(Customer), ctx.first(Product)
    if customer is None or product is None:
        return None
    return {
        "customer_id": customer.id,
        "starts_at": _future(ctx, 60).isoformat(),
        "stops_at": _future(ctx, 62).isoformat(),
        "lines": [{"product_id": product.id, "quantity": 1}],
    }


def _example_availability(ctx: Ctx) -> dict[str, Any] | None:
    product = ctx.first(Product)
    if product is None:
        return None
    return {
        "product_id": product.id,
        "starts_at": _future(ctx, 1).isoformat(),
        "stops_at": _future(ctx, 4).isoformat(),
    }


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(Order, status="reserved"):
        items = [ctx.get(StockItem, i) for i in order.stock_item_ids]
        out = {i for o in ctx.where(Order, status="started") for i in o.stock_item_ids}
        if all(i.status == "available" and i.id not in out for i in items):
            return {"order_id": order.id}
    return None


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for status in ("reserved", "new", "started"):
        for order in ctx.where(Order, status=status):
            if _owed(order) > 0:
                return {"order_id": order.id, "amount_cents": _owed(order)}
    return None


def _example_release(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(Order, status="stopped", deposit_status="held"):
        return {"order_id": order.id, "retained_cents": 0}
    return None


def _example_reschedule(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(Order, status="new")
    if order is None:
        return None
    return {
        "order_id": order.id,
        "starts_at": _future(ctx, 90).isoformat(),
        "stops_at": _future(ctx, 91).isoformat(),
    }


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="check the product's availability", example=_example_availability)
def check_availability(ctx: Ctx, product_id: ProductId, starts_at: DateTime, stops_at: DateTime) -> ProductAvailability:
    """How many units of a product are free over a period, and which stock items (lag time counted).

    Args:
        product_id: The product.
        starts_at: Start of the period.
        stops_at: End of the period.
    """
    product = ctx.get(Product, product_id, field="product_id")
    _check_period(starts_at, stops_at)
    return _availability(ctx, product, starts_at, stops_at)


@service.tool(intent="create a rental order", write=True, example=_example_create)
def create_order(
    ctx: Ctx,
    customer_id: CustomerId,
    starts_at: DateTime,
    stops_at: DateTime,
    lines: list[OrderLine],
    note: Text = "",
) -> Order:
    """Create a new (concept) order: priced per started day per unit, less the customer's discount, with a deposit.

    It books nothing yet: reserve it to hold stock items.

    Args:
        customer_id: The customer.
        starts_at: Pick-up time (not in the past).
        stops_at: Return time.
        lines: Products and quantities (one line per product).
        note: A note.
    """
    customer = ctx.get(Customer, customer_id, field="customer_id")
    _check_period(starts_at, stops_at)
    if starts_at < ctx.now() - dt.timedelta(hours=1):
        raise RuleViolation("the rental cannot start in the past", field="starts_at", hint="give a future start")
    if not lines:
        raise RuleViolation("an order rents at least one product", field="lines", hint="add a line")
    priced = _priced(ctx, customer, lines, starts_at, stops_at)
    return ctx.create(
        Order,
        number=max((o.number for o in ctx.scan(Order)), default=1000) + 1,
        customer_id=customer.id,
        customer_email=customer.email,
        starts_at=starts_at,
        stops_at=stops_at,
        note=note,
        **priced,
    )


@service.tool(intent="reserve the order", write=True, example=first_example(Order, "order_id", where={"status": "new"}))
def reserve_order(ctx: Ctx, order_id: OrderId, stock_item_ids: list[StockItemId] | None = None) -> Order:
    """Reserve a new order: it books one stock item per unit (the ones named, else the first free ones).

    Refused on a shortage, or when a named item is retired or booked by an
    overlapping order (lag time counted).

    Args:
        order_id: The order.
        stock_item_ids: The stock items to book.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "new":
        raise Conflict(f"order {order.number} is {order.status}", field="order_id", hint="only new orders are reserved")
    return ctx.update(order, status="reserved", stock_item_ids=_book(ctx, order, stock_item_ids))


@service.tool(intent="hand over the order's items", write=True, example=_example_start)
def start_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Start a reserved order: its stock items go out to the customer.

    Every booked item must be at hand: not in maintenance or retired, and not
    still out with another started order.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "reserved":
        raise RuleViolation(
            f"order {order.number} is {order.status}; only reserved orders start",
            field="order_id",
            hint="reserve it first" if order.status == "new" else "nothing to start",
        )
    for item_id in order.stock_item_ids:
        item = ctx.get(StockItem, item_id)
        if item.status != "available":
            raise RuleViolation(
                f"stock item {item.identifier} is in {item.status}",
                field="order_id",
                hint="set it available when it is fixed, or cancel and re-reserve the order with other items",
            )
        out = [o for o in ctx.where(Order, status="started") if item.id in o.stock_item_ids]
        if out:
            raise RuleViolation(
                f"stock item {item.identifier} is still out with order {out[0].number}",
                field="order_id",
                hint="stop that order when the item is back",
            )
    return ctx.update(order, status="started")


@service.tool(
    intent="take back the order's items",
    write=True,
    example=first_example(Order, "order_id", where={"status": "started"}),
)
def stop_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Stop a started order: its stock items are back and free for the next rental after the lag time.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "started":
        raise RuleViolation(
            f"order {order.number} is {order.status}; only started orders stop",
            field="order_id",
            hint="start it first" if order.status == "reserved" else "nothing to stop",
        )
    return ctx.update(order, status="stopped")


@service.tool(
    intent="cancel the order",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"status": "reserved"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel a new or reserved order: its stock items are free again.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in ("new", "reserved"):
        raise RuleViolation(
            f"order {order.number} is {order.status} and cannot be canceled",
            field="order_id",
            hint="stop a started order when the items are back",
        )
    return ctx.update(order, status="canceled", stock_item_ids=())


@service.tool(intent="change the rental period", write=True, example=_example_reschedule)
def reschedule_order(ctx: Ctx, order_id: OrderId, starts_at: DateTime, stops_at: DateTime) -> Order:
    """Move a new or reserved order to another period; it is priced again.

    A reserved order keeps its stock items, which must be free in the new period.

    Args:
        order_id: The order.
        starts_at: The new start.
        stops_at: The new end.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in ("new", "reserved"):
        raise RuleViolation(
            f"order {order.number} is {order.status}; its period is fixed",
            field="order_id",
            hint="only new and reserved orders move",
        )
    _check_period(starts_at, stops_at)
    customer = ctx.get(Customer, order.customer_id)
    priced = _priced(ctx, customer, list(order.lines), starts_at, stops_at)
    if order.paid_cents > priced["price_cents"] + priced["deposit_cents"]:
        raise RuleViolation(
            "the order was paid more than the new period costs",
            field="stops_at",
            hint="keep a period at least as long",
        )
    moved = ctx.update(order, starts_at=starts_at, stops_at=stops_at, **priced)
    if order.status == "reserved":
        for item_id in order.stock_item_ids:
            item = ctx.get(StockItem, item_id)
            holder = _holders(ctx, item, starts_at, stops_at, order.id)
            if holder:
                raise RuleViolation(
                    f"stock item {item.identifier} is booked by order {holder[0].number} in the new period",
                    field="starts_at",
                    hint="pick another period (see rentals__check_availability), or cancel and re-reserve",
                )
    return moved


@service.tool(intent="record a payment for the order", write=True, example=_example_pay)
def record_payment(ctx: Ctx, order_id: OrderId, amount_cents: Amount) -> Order:
    """Record a payment towards an order's price and deposit; at most what it still owes.

    Once the payments cover the price and the deposit, the deposit is held.

    Args:
        order_id: The order.
        amount_cents: The amount paid.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status in ("canceled", "stopped"):
        raise RuleViolation(
            f"order {order.number} is {order.status}", field="order_id", hint="payments go to open orders"
        )
    owed = _owed(order)
    if amount_cents > owed:
        raise RuleViolation(
            f"order {order.number} owes {owed / 100:.2f}",
            field="amount_cents",
            hint=f"pay at most {owed} cents" if owed else "it is paid in full",
        )
    paid = order.paid_cents + amount_cents
    held = order.deposit_cents > 0 and paid >= order.price_cents + order.deposit_cents
    return ctx.update(order, paid_cents=paid, deposit_status="held" if held else order.deposit_status)


@service.tool(intent="refund the deposit", write=True, example=_example_release)
def release_deposit(ctx: Ctx, order_id: OrderId, retained_cents: Cents = 0, reason: Text = "") -> Order:
    """Refund a stopped order's held deposit, keeping back what damage costs (with a reason); done once.

    Args:
        order_id: The order.
        retained_cents: What is kept for damage (at most the deposit).
        reason: Why something is kept.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "stopped":
        raise RuleViolation(
            f"order {order.number} is {order.status}; deposits are settled after the return",
            field="order_id",
            hint="stop the order first",
        )
    if order.deposit_status != "held":
        raise Conflict(
            f"order {order.number}'s deposit is {order.deposit_status}",
            field="order_id",
            hint="nothing to refund" if order.deposit_status == "refunded" else "no deposit was paid",
        )
    if retained_cents > order.deposit_cents:
        raise RuleViolation(
            f"the deposit is {order.deposit_cents / 100:.2f}",
            field="retained_cents",
            hint=f"retain at most {order.deposit_cents} cents",
        )
    if retained_cents and not reason.strip():
        raise RuleViolation("say why part of the deposit is kept", field="reason", hint="describe the damage")
    note = f"{order.note}\nDeposit retained: {reason.strip()}".strip() if retained_cents else order.note
    return ctx.update(
        order,
        deposit_status="refunded",
        deposit_retained_cents=retained_cents,
        deposit_refunded_cents=order.deposit_cents - retained_cents,
        note=note,
    )


# -- seed -------------------------------------------------------------------------------------

CATALOG: tuple[tuple[str, str, int, int, int, int], ...] = (
    ("Mirrorless camera kit", "CAM-MLK", 4_500, 50_000, 4, 24),
    ("Cinema lens set", "LENS-CIN", 6_000, 80_000, 2, 24),
    ("4K projector", "PROJ-4K", 3_500, 30_000, 3, 12),
    ("PA speaker pair", "PA-SPK", 5_500, 40_000, 3, 12),
    ("Electric cargo bike", "EBIKE-CRG", 7_500, 60_000, 5, 24),
    ("Camping tent, 4 persons", "TENT-4P", 2_500, 15_000, 6, 48),
    ("Pressure washer", "PWASH-PRO", 3_000, 20_000, 2, 4),
    ("Drone with 4K camera", "DRONE-4K", 8_000, 100_000, 1, 24),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Rental products with numbered stock items, the population's people as customers, orders in every state."""
    pop = s.population
    made: list[Product] = []
    for name, sku, price, deposit, count, lag in CATALOG:
        product = s.create(
            Product, name=name, sku=sku, price_per_day_cents=price, deposit_cents=deposit, lag_time_hours=lag
        )
        made.append(product)
        for n in range(count):
            s.create(
                StockItem,
                product_id=product.id,
                identifier=f"{sku}-{n + 1:03d}",
                status="maintenance" if (sku, n) in (("PA-SPK", 2), ("TENT-4P", 5)) else "available",
            )
    people = list(pop.consumers[:14]) + [p for p in pop.contacts[:6]]
    clients: list[Customer] = []
    for k, p in enumerate(people):
        company = pop.company_of(p)
        clients.append(
            s.create(
                Customer,
                name=p.name,
                email=p.email,
                phone=p.phone,
                company_name=company.name if company else None,
                discount_percent=10 if company else 0,
                created_at=s.now - dt.timedelta(days=120 - 4 * k),
            )
        )
    items = {p.id: [i for i in s.records(StockItem) if i.product_id == p.id] for p in made}
    day = s.now.date()
    # (customer, product, units, start offset days, length days, status, paid)
    plan: tuple[tuple[int, int, int, int, int, OrderStatus, str], ...] = (
        (0, 0, 2, -3, 5, "started", "full"),
        (1, 4, 1, -2, 3, "started", "full"),
        (2, 2, 1, 2, 2, "reserved", "price"),
        (3, 0, 1, 4, 3, "reserved", "none"),
        (4, 7, 1, 5, 2, "reserved", "full"),
        (5, 5, 3, 9, 4, "new", "none"),
        (6, 3, 2, -10, 2, "stopped", "full"),
        (7, 1, 1, -8, 3, "stopped", "full"),
        (8, 6, 1, -20, 1, "stopped", "refunded"),
        (9, 4, 2, 6, 2, "canceled", "none"),
        (14, 3, 2, 12, 3, "new", "none"),
        (15, 0, 1, 1, 2, "reserved", "none"),
    )
    counters: dict[str, int] = {}
    for n, (c, which, units, offset, length, status, paid) in enumerate(plan):
        customer, product = clients[c % len(clients)], made[which]
        starts = utc_at(day + dt.timedelta(days=offset), 9)
        stops = starts + dt.timedelta(days=length)
        gross = product.price_per_day_cents * units * length
        price = gross - round(gross * customer.discount_percent / 100)
        deposit = product.deposit_cents * units
        used = counters.get(product.id, 0)
        held: tuple[str, ...] = ()
        if status in ("reserved", "started", "stopped"):
            pool = [i for i in items[product.id] if i.status == "available"]
            held = tuple(i.id for i in pool[used : used + units])
            counters[product.id] = used + units if status != "stopped" else used
        extra: dict[str, Any] = {}
        if paid in ("full", "refunded"):
            extra = {"paid_cents": price + deposit, "deposit_status": "held"}
        elif paid == "price":
            extra = {"paid_cents": price}
        if paid == "refunded":
            extra.update(deposit_status="refunded", deposit_refunded_cents=deposit)
        s.create(
            Order,
            number=1001 + n,
            customer_id=customer.id,
            customer_email=customer.email,
            starts_at=starts,
            stops_at=stops,
            status=status,
            lines=(
                OrderLine(
                    product_id=product.id,
                    quantity=units,
                    price_per_day_cents=product.price_per_day_cents,
                    total_cents=gross,
                ),
            ),
            stock_item_ids=held,
            days=length,
            price_cents=price,
            deposit_cents=deposit,
            note="",
            created_at=s.now - dt.timedelta(days=15 - n),
            updated_at=s.now - dt.timedelta(days=12 - n),
            **extra,
        )
