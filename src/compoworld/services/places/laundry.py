"""Freshfold: laundry pickup and delivery with route windows, bags weighed by the pound, and refunds.

Modeled on the Cents laundromat and delivery platform (and Curbside Laundries):
customers with an address, preferences and account credit; route windows (a
weekday, hours, a zone and a stop capacity); pickup-and-delivery orders for
wash-and-fold, dry cleaning or mixed that go scheduled → picked_up → weighed →
processing → ready → out_for_delivery → delivered (or cancelled), with bags
counted and weighed, priced per pound with a minimum charge, an express
surcharge and a delivery fee; and refunds to card or as account credit.
A pickup goes into a window on its weekday, ahead, with a stop left; only a
scheduled order is moved or cancelled; an order is priced when weighed and
charged on delivery (account credit first); refunds go only to delivered
orders and never beyond what was charged. Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "laundry",
    title="Freshfold",
    category="laundry_service",
    modeled_on="Cents / Curbside Laundries: customers, route windows, pickup and delivery orders (wash and fold, "
    "dry cleaning), bags and weights, per-pound pricing with minimums, order statuses, refunds and credits",
    description="A laundry pickup and delivery service: customers and their preferences, route windows with a "
    "number of stops, pickup orders from scheduling through weighing, washing and delivery, per-pound pricing "
    "with minimums and express surcharges, and refunds to card or as account credit.",
)

CustomerId = Annotated[str, IdOf("laundry.customer")]
WindowId = Annotated[str, IdOf("laundry.window")]
OrderId = Annotated[str, IdOf("laundry.order")]
RefundId = Annotated[str, IdOf("laundry.refund")]

ServiceKind = Literal["wash_fold", "dry_clean", "mixed"]
RATES: dict[str, int] = {"wash_fold": 195, "dry_clean": 450, "mixed": 275}
"""Price per pound."""
MINIMUM, DELIVERY_FEE, EXPRESS = 3000, 499, 1.5
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
OrderStatus = Literal[
    "scheduled", "picked_up", "weighed", "processing", "ready", "out_for_delivery", "delivered", "cancelled"
]


class Customer(Record):
    """A laundry customer."""

    id: CustomerId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    street: Title = Field(description="Pickup street address.")
    city: City = Field(description="City.")
    zone: Literal["north", "south", "east", "west"] = Field(description="Route zone.")
    detergent: Literal["standard", "hypoallergenic", "unscented"] = Field("standard", description="Preference.")
    notes: Text = Field("", description="Instructions (fold, hang, gate code).")
    credit: Cents = Field(0, description="Account credit.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they signed up.")


class Window(Record):
    """A recurring route window."""

    id: WindowId
    weekday: Weekday = Field(description="Day of the week.")
    zone: Literal["north", "south", "east", "west"] = Field(description="Zone served.")
    start_hour: Annotated[int, Field(ge=6, le=20)] = Field(description="From (hour).")
    end_hour: Annotated[int, Field(ge=7, le=22)] = Field(description="Until (hour).")
    capacity: Annotated[int, Field(ge=1, le=100)] = Field(description="Stops per day.")


class Order(Record):
    """A pickup-and-delivery order."""

    id: OrderId
    customer_id: CustomerId = Field(description="The customer.")
    service_kind: ServiceKind = Field(description="wash_fold, dry_clean or mixed.")
    express: bool = Field(False, description="Next-day turnaround (+50%).")
    window_id: WindowId = Field(description="The pickup window.")
    pickup_date: Date = Field(description="Pickup day.")
    bags: Annotated[int, Field(ge=0, le=20)] = Field(0, description="Bags collected.")
    weight_lbs: Annotated[float, Field(ge=0, le=400)] = Field(0, description="Weight on the scale.")
    subtotal: Cents = Field(0, description="Laundry charge (after the minimum and express).")
    total: Cents = Field(0, description="Subtotal plus delivery fee.")
    credit_applied: Cents = Field(0, description="Account credit used.")
    charged: Cents = Field(0, description="Charged to the card on delivery.")
    refunded: Cents = Field(0, description="Refunded so far.")
    status: OrderStatus = Field("scheduled", description="scheduled, picked_up, weighed, processing, ready, ...")
    delivered_at: DateTime | None = Field(None, description="When it was delivered.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was placed.")


class Refund(Record):
    """Money given back on an order."""

    id: RefundId
    order_id: OrderId = Field(description="The order.")
    amount: Cents = Field(description="Amount.")
    method: Literal["card", "credit"] = Field(description="Back to the card or as account credit.")
    reason: Literal["missing_item", "damaged_item", "late_delivery", "quality", "other"] = Field(description="Why.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When.")


class Quote(Value):
    """A price for a load."""

    subtotal: int
    delivery_fee: int
    total: int


# -- rules ------------------------------------------------------------------------------------


def _guard_customer(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Customer, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"customer {other.id} has e-mail {new.email}", field="email", hint="use that customer")


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("name", "email", "phone", "street", "city", "zone", "detergent", "notes"),
    filters=("email", "zone", "city"),
    search=("name", "email", "street"),
    update=("phone", "street", "zone", "detergent", "notes"),
    delete=False,
    guard_create=_guard_customer,
    guard_update=_guard_customer,
)
windows = service.resource(
    Window,
    name="window",
    plural="windows",
    prefix="win",
    create=False,
    filters=("weekday", "zone"),
    delete=False,
    title="route window",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("customer_id", "status", "pickup_date", "window_id", "service_kind"),
    delete=False,
    transitions={
        "start_processing": Transition("status", ("weighed",), "processing", "start washing the order"),
        "mark_ready": Transition("status", ("processing",), "ready", "mark the order ready"),
        "dispatch": Transition("status", ("ready",), "out_for_delivery", "send the order out for delivery"),
    },
)
refunds = service.resource(
    Refund,
    name="refund",
    plural="refunds",
    prefix="ref",
    create=False,
    filters=("order_id", "reason", "method"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _price(kind: str, weight: float, express: bool) -> Quote:
    sub = max(round(weight * RATES[kind]), MINIMUM)
    sub = round(sub * EXPRESS) if express else sub
    return Quote(subtotal=sub, delivery_fee=DELIVERY_FEE, total=sub + DELIVERY_FEE)


@service.tool(intent="quote the laundry price", example=lambda ctx: {"service_kind": "wash_fold", "weight_lbs": 18.5})
def quote_price(
    ctx: Ctx, service_kind: ServiceKind, weight_lbs: Annotated[float, Field(gt=0, le=400)], express: bool = False
) -> Quote:
    """What a load would cost: per pound with the $30 minimum, +50% for express, plus delivery.

    Args:
        service_kind: wash_fold, dry_clean or mixed.
        weight_lbs: Weight.
        express: Next-day turnaround.
    """
    return _price(service_kind, weight_lbs, express)


def _slot(ctx: Ctx, customer: Customer, window: Window, day: dt.date, skip: str = "") -> None:
    if day <= ctx.today():
        raise RuleViolation("pickups are booked from tomorrow", field="pickup_date", hint="pick a later day")
    if DAYS[day.weekday()] != window.weekday:
        raise RuleViolation(f"the window runs on {window.weekday}s", field="pickup_date", hint="pick a matching day")
    if window.zone != customer.zone:
        raise RuleViolation(
            f"the window serves the {window.zone} zone", field="window_id", hint=f"pick a {customer.zone} window"
        )
    stops = [
        o for o in ctx.where(Order, window_id=window.id, pickup_date=day) if o.status != "cancelled" and o.id != skip
    ]
    if len(stops) >= window.capacity:
        raise Conflict(f"the {window.weekday} window is full on {day}", field="window_id", hint="pick another window")


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(Customer):
        for w in ctx.where(Window, zone=c.zone):
            base = ctx.today() + dt.timedelta(days=14)
            day = base + dt.timedelta(days=(DAYS.index(w.weekday) - base.weekday()) % 7)
            return {"customer_id": c.id, "window_id": w.id, "pickup_date": day.isoformat(), "service_kind": "wash_fold"}
    return None


@service.tool(intent="schedule the laundry pickup", write=True, example=_example_schedule)
def schedule_pickup(
    ctx: Ctx,
    customer_id: CustomerId,
    window_id: WindowId,
    pickup_date: Date,
    service_kind: ServiceKind,
    express: bool = False,
) -> Order:
    """Schedule a pickup in a route window of the customer's zone, on its weekday, with a stop left.

    Args:
        customer_id: The customer.
        window_id: The route window.
        pickup_date: The day (after today, the window's weekday).
        service_kind: wash_fold, dry_clean or mixed.
        express: Next-day turnaround (+50%).
    """
    c = ctx.get(Customer, customer_id, field="customer_id")
    w = ctx.get(Window, window_id, field="window_id")
    _slot(ctx, c, w, pickup_date)
    return ctx.create(
        Order, customer_id=c.id, service_kind=service_kind, express=express, window_id=w.id, pickup_date=pickup_date
    )


def _order(ctx: Ctx, order_id: str, *states: str) -> Order:
    o = ctx.get(Order, order_id, field="order_id")
    if o.status not in states:
        raise RuleViolation(f"the order is {o.status}", field="order_id", hint=f"only {' or '.join(states)} orders")
    return o


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for o in ctx.where(Order, status="scheduled"):
        w = ctx.get(Window, o.window_id)
        base = ctx.today() + dt.timedelta(days=21)
        day = base + dt.timedelta(days=(DAYS.index(w.weekday) - base.weekday()) % 7)
        if w.zone == ctx.get(Customer, o.customer_id).zone:
            return {"order_id": o.id, "window_id": w.id, "pickup_date": day.isoformat()}
    return None


@service.tool(intent="move the pickup", write=True, example=_example_move)
def reschedule_pickup(ctx: Ctx, order_id: OrderId, window_id: WindowId, pickup_date: Date) -> Order:
    """Move a scheduled pickup to another window or day.

    Args:
        order_id: The order (scheduled).
        window_id: The route window.
        pickup_date: The new day.
    """
    o = _order(ctx, order_id, "scheduled")
    w = ctx.get(Window, window_id, field="window_id")
    _slot(ctx, ctx.get(Customer, o.customer_id), w, pickup_date, skip=o.id)
    return ctx.update(o, window_id=w.id, pickup_date=pickup_date)


@service.tool(
    intent="cancel the pickup",
    write=True,
    example=first_example(Order, "order_id", where={"status": "scheduled"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an order that has not been picked up.

    Args:
        order_id: The order (scheduled).
    """
    return ctx.update(_order(ctx, order_id, "scheduled"), status="cancelled")


@service.tool(
    intent="record the pickup",
    write=True,
    example=first_example(Order, "order_id", where={"status": "scheduled"}, bags=2),
)
def record_pickup(ctx: Ctx, order_id: OrderId, bags: Annotated[int, Field(ge=1, le=20)]) -> Order:
    """Record that the driver collected a scheduled order's bags (on or after the pickup day).

    Args:
        order_id: The order.
        bags: Bags collected.
    """
    o = _order(ctx, order_id, "scheduled")
    if o.pickup_date > ctx.today():
        raise RuleViolation(f"the pickup is on {o.pickup_date}", field="order_id", hint="collect on the pickup day")
    return ctx.update(o, status="picked_up", bags=bags)


@service.tool(
    intent="weigh the order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "picked_up"}, weight_lbs=16.4),
)
def weigh_order(ctx: Ctx, order_id: OrderId, weight_lbs: Annotated[float, Field(gt=0, le=400)]) -> Order:
    """Weigh a picked-up order's bags; it is priced per pound with the minimum, express and delivery fee.

    Args:
        order_id: The order.
        weight_lbs: Weight on the scale.
    """
    o = _order(ctx, order_id, "picked_up")
    q = _price(o.service_kind, weight_lbs, o.express)
    return ctx.update(o, status="weighed", weight_lbs=weight_lbs, subtotal=q.subtotal, total=q.total)


@service.tool(
    intent="deliver the order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "out_for_delivery"}),
)
def deliver_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Complete delivery of an order out for delivery: account credit is used first, the rest is charged.

    Args:
        order_id: The order.
    """
    o = _order(ctx, order_id, "out_for_delivery")
    c = ctx.get(Customer, o.customer_id)
    used = min(c.credit, o.total)
    if used:
        ctx.update(c, credit=c.credit - used)
    return ctx.update(o, status="delivered", credit_applied=used, charged=o.total - used, delivered_at=ctx.now())


def _example_refund(ctx: Ctx) -> dict[str, Any] | None:
    o = next((x for x in ctx.where(Order, status="delivered") if x.total > x.refunded), None)
    return None if o is None else {"order_id": o.id, "amount": 500, "method": "credit", "reason": "late_delivery"}


@service.tool(intent="refund the laundry order", write=True, example=_example_refund)
def issue_refund(
    ctx: Ctx,
    order_id: OrderId,
    amount: Cents,
    method: Literal["card", "credit"],
    reason: Literal["missing_item", "damaged_item", "late_delivery", "quality", "other"],
) -> Refund:
    """Refund part or all of a delivered order, to the card (up to what was charged) or as account credit.

    Args:
        order_id: The order (delivered).
        amount: Amount (above zero, at most the total not yet refunded).
        method: card or credit.
        reason: missing_item, damaged_item, late_delivery, quality or other.
    """
    o = _order(ctx, order_id, "delivered")
    left = o.total - o.refunded
    if amount <= 0 or amount > left:
        raise RuleViolation(f"{left} can still be refunded", field="amount", hint="refund at most that")
    card_left = o.charged - sum(r.amount for r in ctx.where(Refund, order_id=o.id, method="card"))
    if method == "card" and amount > card_left:
        raise RuleViolation(f"only {card_left} went on the card", field="method", hint="refund the rest as credit")
    if method == "credit":
        c = ctx.get(Customer, o.customer_id)
        ctx.update(c, credit=c.credit + amount)
    ctx.update(o, refunded=o.refunded + amount)
    return ctx.create(Refund, order_id=o.id, amount=amount, method=method, reason=reason)


# -- seed -------------------------------------------------------------------------------------

ZONES: tuple[Any, ...] = ("north", "south", "east", "west")


@service.seeder
def seed(s: SeedContext) -> None:
    """Route windows, customers from consumers, orders in every status, a credit and a refund."""
    pop = s.population
    city = pop.home.place.city
    wins = [
        s.create(
            Window,
            weekday=DAYS[d],
            zone=ZONES[z],
            start_hour=8 if d % 2 else 17,
            end_hour=11 if d % 2 else 20,
            capacity=3 if (d, z) == (1, 0) else 12,
        )
        for d in range(6)
        for z in range(4)
        if (d + z) % 2 == 0 or d == 1
    ]
    custs = [
        s.create(
            Customer,
            name=p.name,
            email=p.email,
            phone=p.phone,
            street=p.address.street,
            city=city,
            zone=ZONES[k % 4],
            detergent=("standard", "hypoallergenic", "unscented")[k % 3],
            credit=1500 if k == 2 else 0,
            created_at=s.ago(days=300 - 10 * k),
        )
        for k, p in enumerate(pop.consumers[12:24])
    ]
    today = s.now.date()
    plan: tuple[tuple[int, OrderStatus, float], ...] = (
        (-6, "delivered", 14.0),
        (-3, "delivered", 22.5),
        (-1, "out_for_delivery", 11.0),
        (-1, "ready", 18.0),
        (0, "processing", 25.0),
        (0, "weighed", 9.0),
        (0, "picked_up", 0),
        (0, "scheduled", 0),
        (1, "scheduled", 0),
        (3, "scheduled", 0),
        (2, "cancelled", 0),
    )
    for k, (offset, status, weight) in enumerate(plan):
        c = custs[k % len(custs)]
        day = today + dt.timedelta(days=offset)
        w = next((x for x in wins if x.zone == c.zone and x.weekday == DAYS[day.weekday()]), None)
        w = w or next(x for x in wins if x.zone == c.zone)
        kind: ServiceKind = ("wash_fold", "wash_fold", "dry_clean", "mixed")[k % 4]
        q = _price(kind, weight, k == 3) if weight else None
        delivered = status == "delivered"
        s.create(
            Order,
            customer_id=c.id,
            service_kind=kind,
            express=k == 3,
            window_id=w.id,
            pickup_date=day,
            bags=0 if status in ("scheduled", "cancelled") else 1 + k % 3,
            weight_lbs=weight,
            subtotal=q.subtotal if q else 0,
            total=q.total if q else 0,
            charged=q.total if q and delivered else 0,
            status=status,
            delivered_at=s.ago(days=-offset - 2) if delivered else None,
            created_at=s.ago(days=-offset + 2),
        )
    first_done = next(o for o in s.records(Order) if o.status == "delivered")
    s.create(
        Refund, order_id=first_done.id, amount=500, method="card", reason="late_delivery", created_at=s.ago(days=3)
    )
    s.update(first_done, refunded=500)
