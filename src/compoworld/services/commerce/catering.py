"""Platter Catering: caterers and their menus, event orders with lead times, changes, cancellations.

Modeled on the ezCater API (GraphQL v2024: caterers and stores with lead times
and delivery hours, menus of per-person packages and serving trays, orders for
events with headcount and delivery time, order modifications, cancellation
fees, order lifecycle events: submitted, confirmed, rejected, delivered). An
order goes to an active caterer at least its lead time ahead, to be delivered
inside the caterer's delivery hours (UTC), for no more guests than it can
serve; the items must be the caterer's, per-person packages need their minimum
number of people, the servings must feed the headcount, and the food must reach
the caterer's minimum order. Orders can be changed until the caterer's change
cutoff before delivery, under the same rules; cancelling is free until the
free-cancellation window and costs the caterer's late fee (a share of the food)
after it; delivered orders cannot be cancelled. A caterer confirms or rejects a
submitted order, and a confirmed order is delivered no earlier than an hour
before its delivery time.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "catering",
    title="Platter Catering",
    category="catering",
    modeled_on="ezCater API (GraphQL, 2024: caterers, menus, orders, order modifications, cancellations, "
    "order lifecycle events)",
    description="Business catering: caterers with lead times, delivery hours and minimums, menus of per-person "
    "packages and trays, event orders with headcount and delivery time, changes until the cutoff, "
    "cancellations with late fees, and the caterer's confirmation and delivery.",
)

CatererId = Annotated[str, IdOf("catering.caterer")]
MenuItemId = Annotated[str, IdOf("catering.menu_item")]
OrderId = Annotated[str, IdOf("catering.order")]
Hour = Annotated[int, Field(ge=0, le=24)]
OrderStatus = Literal["submitted", "confirmed", "rejected", "delivered", "cancelled"]
Dietary = Literal["vegetarian", "vegan", "gluten_free", "dairy_free", "nut_free", "halal", "kosher"]

OPEN: tuple[str, ...] = ("submitted", "confirmed")
EARLY_DELIVERY = dt.timedelta(hours=1)
MAX_LINES = 30


class Caterer(Record):
    """A caterer taking orders on the marketplace."""

    id: CatererId
    name: CompanyName
    """The caterer's business name."""
    address: PostalAddress
    """Its kitchen."""
    phone: Phone
    """Order line."""
    email: Email
    """Where order notices go."""
    lead_time_hours: int = Field(ge=1, le=168)
    """How far ahead an order must be placed, in hours."""
    change_cutoff_hours: int = Field(ge=1, le=168)
    """Changes are accepted until this many hours before delivery."""
    free_cancel_hours: int = Field(ge=1, le=168)
    """Cancelling is free until this many hours before delivery."""
    late_cancel_percent: int = Field(ge=0, le=100)
    """Share of the food subtotal charged for a later cancellation."""
    delivery_start_hour: Hour
    """First hour of the day (UTC) it delivers."""
    delivery_end_hour: Hour
    """Hour of the day (UTC) by which deliveries end."""
    min_order: Cents
    """Smallest food subtotal accepted, in cents."""
    max_headcount: int = Field(ge=1)
    """Most guests it can serve in one order."""
    delivery_fee: Cents
    """Delivery fee per order, in cents."""
    tax_basis_points: int = Field(ge=0, le=2500)
    """Sales tax in basis points (825 = 8.25 %)."""
    active: bool = True
    """Whether it takes orders."""


class MenuItem(Record):
    """A package or tray on a caterer's menu."""

    id: MenuItemId
    caterer_id: CatererId
    """The caterer."""
    name: Title
    """Name on the menu."""
    kind: Literal["per_person", "tray"]
    """per_person: priced and ordered per guest; tray: a tray serving several."""
    price: Cents
    """Price per person or per tray, in cents."""
    serves: int = Field(ge=1, le=100)
    """People one unit feeds (1 for per-person packages)."""
    min_quantity: int = Field(ge=1, le=100)
    """Fewest units that can be ordered."""
    dietary: list[Dietary] = Field(default_factory=list)
    """Dietary labels."""
    available: bool = True
    """Whether it can be ordered."""


class OrderLine(Value):
    """A menu item on an order."""

    menu_item_id: MenuItemId = Field(description="The menu item.")
    quantity: int = Field(ge=1, le=1000, description="People (per-person packages) or trays.")
    name: Title | None = Field(default=None, description="The item's name (filled in).")
    unit_price: Cents | None = Field(default=None, description="Price per unit in cents (filled in).")
    total: Cents | None = Field(default=None, description="unit_price × quantity in cents (filled in).")
    special_instructions: str = Field(default="", max_length=500, description="A note for the caterer.")


class Order(Timestamped):
    """A catering order for an event."""

    id: OrderId
    order_number: Annotated[str, Generated("sequence", "EZ-{n:06d}")]
    """The order number the caterer and the customer quote."""
    caterer_id: CatererId
    """The caterer."""
    event_name: Title
    """What the food is for."""
    contact_name: PersonName
    """Who ordered and receives the food."""
    contact_email: Email
    """Their e-mail address."""
    contact_phone: Phone
    """Their phone number for the driver."""
    delivery_address: PostalAddress
    """Where to deliver."""
    delivery_at: DateTime
    """When the food must arrive."""
    headcount: int = Field(ge=1, le=5000)
    """Guests to feed."""
    lines: list[OrderLine]
    """The items."""
    subtotal: Cents
    """Food, in cents."""
    delivery_fee: Cents
    """Delivery, in cents."""
    tax: Cents
    """Sales tax on food and delivery, in cents."""
    tip: Cents = 0
    """Tip for the driver, in cents."""
    total: Cents
    """Everything, in cents."""
    status: OrderStatus = "submitted"
    """submitted → confirmed → delivered; rejected; cancelled."""
    changes: int = 0
    """How many times it was changed."""
    cancellation_fee: Cents = 0
    """What cancelling cost, in cents."""
    cancelled_at: DateTime | None = None
    """When it was cancelled."""
    notes: Text = ""
    """Setup notes for the caterer."""


# -- guards -----------------------------------------------------------------------------------


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "delivered" and old.status == "confirmed" and ctx.now() < old.delivery_at - EARLY_DELIVERY:
        raise RuleViolation(
            f"order {old.order_number} is due at {old.delivery_at}; it cannot be marked delivered over an hour early",
            field="order_id",
            hint="mark it delivered when the food arrives",
        )


caterers = service.resource(
    Caterer,
    name="caterer",
    plural="caterers",
    prefix="cat",
    create=False,
    filters=("active",),
    search=("name",),
    delete=False,
)
menu = service.resource(
    MenuItem,
    name="menu_item",
    plural="menu_items",
    prefix="mi",
    create=False,
    get=False,
    filters=("caterer_id", "kind", "available"),
    search=("name",),
    delete=False,
    title="menu item",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="co",
    create=False,
    filters=("caterer_id", "status", "contact_email", "order_number"),
    search=("event_name", "contact_name"),
    delete=False,
    transitions={
        "confirm": Transition(
            "status",
            ("submitted",),
            "confirmed",
            "confirm the catering order",
            description="The caterer accepts a submitted order.",
        ),
        "reject": Transition(
            "status",
            ("submitted",),
            "rejected",
            "reject the catering order",
            description="The caterer declines a submitted order (no charge).",
        ),
        "deliver": Transition(
            "status",
            ("confirmed",),
            "delivered",
            "mark the catering order delivered",
            description="Record that a confirmed order's food arrived; not earlier than an hour before its time.",
        ),
    },
    guard_update=_guard_order,
    title="catering order",
)


# -- pricing and rules ------------------------------------------------------------------------


class Priced(BaseModel):
    """An order's lines and money, checked against the caterer's rules."""

    lines: list[OrderLine] = Field(description="The lines with names and prices.")
    servings: int = Field(description="People the items feed.")
    subtotal: Cents = Field(description="Food, in cents.")
    delivery_fee: Cents = Field(description="Delivery, in cents.")
    tax: Cents = Field(description="Sales tax, in cents.")
    tip: Cents = Field(description="Tip, in cents.")
    total: Cents = Field(description="Everything, in cents.")


def _price(ctx: Ctx, caterer: Caterer, headcount: int, lines: list[OrderLine], tip: int) -> Priced:
    if not 1 <= headcount <= caterer.max_headcount:
        raise RuleViolation(
            f"{caterer.name} serves 1 to {caterer.max_headcount} guests per order",
            field="headcount",
            hint="split the event across caterers or lower the headcount",
        )
    if not lines or len(lines) > MAX_LINES:
        raise RuleViolation(f"an order has 1 to {MAX_LINES} lines", field="lines", hint="list the items to order")
    priced: list[OrderLine] = []
    servings = 0
    for n, line in enumerate(lines):
        item = ctx.get(MenuItem, line.menu_item_id, field=f"lines.{n}.menu_item_id")
        if item.caterer_id != caterer.id or not item.available:
            why = "is not on this caterer's menu" if item.caterer_id != caterer.id else "is not available"
            raise RuleViolation(
                f"{item.name} {why}", field=f"lines.{n}.menu_item_id", hint="list the caterer's menu items"
            )
        if line.quantity < item.min_quantity:
            raise RuleViolation(
                f"{item.name} is ordered for at least {item.min_quantity}",
                field=f"lines.{n}.quantity",
                hint=f"order {item.min_quantity} or more",
            )
        servings += line.quantity * item.serves
        priced.append(
            line.model_copy(update={"name": item.name, "unit_price": item.price, "total": item.price * line.quantity})
        )
    if servings < headcount:
        raise RuleViolation(
            f"the items feed {servings} people; the headcount is {headcount}",
            field="lines",
            hint="add packages or trays so everyone is fed",
        )
    subtotal = sum(line.total or 0 for line in priced)
    if subtotal < caterer.min_order:
        raise RuleViolation(
            f"{caterer.name} needs a food order of at least {caterer.min_order} cents; this is {subtotal}",
            field="lines",
            hint="add items to reach the minimum",
        )
    tax = ((subtotal + caterer.delivery_fee) * caterer.tax_basis_points + 5000) // 10000
    return Priced(
        lines=priced,
        servings=servings,
        subtotal=subtotal,
        delivery_fee=caterer.delivery_fee,
        tax=tax,
        tip=tip,
        total=subtotal + caterer.delivery_fee + tax + tip,
    )


def _check_time(ctx: Ctx, caterer: Caterer, delivery_at: dt.datetime) -> None:
    if delivery_at < ctx.now() + dt.timedelta(hours=caterer.lead_time_hours):
        raise RuleViolation(
            f"{caterer.name} needs {caterer.lead_time_hours} hours' notice",
            field="delivery_at",
            hint=f"deliver at {ctx.now() + dt.timedelta(hours=caterer.lead_time_hours):%Y-%m-%d %H:%M} UTC or later",
        )
    minutes = delivery_at.hour * 60 + delivery_at.minute
    if not caterer.delivery_start_hour * 60 <= minutes <= caterer.delivery_end_hour * 60:
        raise RuleViolation(
            f"{caterer.name} delivers between {caterer.delivery_start_hour}:00 and {caterer.delivery_end_hour}:00 UTC",
            field="delivery_at",
            hint="choose a delivery time inside those hours",
        )


def _active(ctx: Ctx, caterer_id: str) -> Caterer:
    caterer = ctx.get(Caterer, caterer_id, field="caterer_id")
    if not caterer.active:
        raise RuleViolation(f"{caterer.name} is not taking orders", field="caterer_id", hint="choose another caterer")
    return caterer


def _order_example(ctx: Ctx) -> dict[str, Any] | None:
    caterer = ctx.first(Caterer, active=True)
    if caterer is None:
        return None
    items = ctx.where(MenuItem, caterer_id=caterer.id, kind="per_person", available=True)
    if not items:
        return None
    day = (ctx.now() + dt.timedelta(hours=caterer.lead_time_hours + 24)).date()
    when = dt.datetime.combine(day, dt.time(caterer.delivery_start_hour + 1), tzinfo=dt.UTC)
    headcount = max(items[0].min_quantity, 20, -(-caterer.min_order // items[0].price))
    employee = ctx.population.employees[0]
    return {
        "caterer_id": caterer.id,
        "event_name": "Quarterly all-hands lunch",
        "contact_name": employee.name,
        "contact_email": employee.email,
        "contact_phone": employee.phone,
        "delivery_address": ctx.population.home.address.model_dump(),
        "delivery_at": when.isoformat(),
        "headcount": headcount,
        "lines": [{"menu_item_id": items[0].id, "quantity": headcount}],
    }


def _quote_example(ctx: Ctx) -> dict[str, Any] | None:
    args = _order_example(ctx)
    keep = ("caterer_id", "delivery_at", "headcount", "lines")
    return None if args is None else {k: v for k, v in args.items() if k in keep}


@service.tool(intent="price a catering order", example=_quote_example)
def quote_order(
    ctx: Ctx,
    caterer_id: CatererId,
    delivery_at: DateTime,
    headcount: int,
    lines: list[OrderLine],
    tip: Cents = 0,
) -> Priced:
    """Check an order against the caterer's rules and price it, without placing it.

    Args:
        caterer_id: The caterer.
        delivery_at: When the food must arrive.
        headcount: Guests to feed.
        lines: Menu items and quantities.
        tip: Tip for the driver, in cents.
    """
    caterer = _active(ctx, caterer_id)
    _check_time(ctx, caterer, delivery_at)
    return _price(ctx, caterer, headcount, lines, tip)


@service.tool(intent="place a catering order for an event", write=True, example=_order_example)
def place_order(
    ctx: Ctx,
    caterer_id: CatererId,
    event_name: Title,
    contact_name: PersonName,
    contact_email: Email,
    contact_phone: Phone,
    delivery_address: PostalAddress,
    delivery_at: DateTime,
    headcount: int,
    lines: list[OrderLine],
    tip: Cents = 0,
    notes: Text = "",
) -> Order:
    """Place an order with a caterer, at least its lead time ahead and inside its delivery hours.

    Args:
        caterer_id: The caterer.
        event_name: What the food is for.
        contact_name: Who receives the food.
        contact_email: Their e-mail address.
        contact_phone: Their phone number.
        delivery_address: Where to deliver.
        delivery_at: When the food must arrive.
        headcount: Guests to feed.
        lines: Menu items and quantities.
        tip: Tip for the driver, in cents.
        notes: Setup notes.
    """
    caterer = _active(ctx, caterer_id)
    _check_time(ctx, caterer, delivery_at)
    priced = _price(ctx, caterer, headcount, lines, tip)
    return ctx.create(
        Order,
        caterer_id=caterer.id,
        event_name=event_name,
        contact_name=contact_name,
        contact_email=contact_email,
        contact_phone=contact_phone,
        delivery_address=delivery_address,
        delivery_at=delivery_at,
        headcount=headcount,
        notes=notes,
        **priced.model_dump(exclude={"servings"}),
    )


def _changeable(ctx: Ctx, order: Order) -> bool:
    caterer = ctx.get(Caterer, order.caterer_id)
    return order.status in OPEN and ctx.now() <= order.delivery_at - dt.timedelta(hours=caterer.change_cutoff_hours)


def _change_example(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.scan(Order):
        if _changeable(ctx, order):
            return {"order_id": order.id, "tip": order.tip + 500}
    return None


@service.tool(intent="change the catering order", write=True, example=_change_example)
def change_order(
    ctx: Ctx,
    order_id: OrderId,
    headcount: int | None = None,
    lines: list[OrderLine] | None = None,
    delivery_at: DateTime | None = None,
    tip: Cents | None = None,
) -> Order:
    """Change an open order's headcount, items, delivery time or tip, until the caterer's cutoff.

    The changed order must meet the same rules as a new one (a new delivery
    time also needs the lead time); a confirmed order goes back to submitted
    for the caterer to confirm again.

    Args:
        order_id: The order.
        headcount: New headcount.
        lines: New items (replacing all lines).
        delivery_at: New delivery time.
        tip: New tip, in cents.
    """
    order = ctx.get(Order, order_id, field="order_id")
    caterer = ctx.get(Caterer, order.caterer_id)
    if order.status not in OPEN:
        raise RuleViolation(
            f"order {order.order_number} is {order.status}", field="order_id", hint="place a new order instead"
        )
    if not _changeable(ctx, order):
        raise RuleViolation(
            f"{caterer.name} takes changes until {caterer.change_cutoff_hours} hours before delivery",
            field="order_id",
            hint="call the caterer, or cancel (a late fee may apply)",
        )
    if delivery_at is not None and delivery_at != order.delivery_at:
        _check_time(ctx, caterer, delivery_at)
    new_lines = (
        lines
        if lines is not None
        else [
            OrderLine(menu_item_id=ln.menu_item_id, quantity=ln.quantity, special_instructions=ln.special_instructions)
            for ln in order.lines
        ]
    )
    priced = _price(
        ctx,
        caterer,
        order.headcount if headcount is None else headcount,
        new_lines,
        order.tip if tip is None else tip,
    )
    return ctx.update(
        order,
        headcount=order.headcount if headcount is None else headcount,
        delivery_at=delivery_at or order.delivery_at,
        status="submitted",
        changes=order.changes + 1,
        **priced.model_dump(exclude={"servings"}),
    )


def cancellation_fee(caterer: Caterer, order: Order, now: dt.datetime) -> int:
    """What cancelling ``order`` at ``now`` costs: nothing in the free window, else the late share of the food."""
    if now <= order.delivery_at - dt.timedelta(hours=caterer.free_cancel_hours):
        return 0
    return order.subtotal * caterer.late_cancel_percent // 100


@service.tool(
    intent="cancel the catering order",
    write=True,
    destructive=True,
    example=lambda ctx: next(({"order_id": o.id} for o in ctx.scan(Order) if o.status in OPEN), None),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an open order: free until the caterer's free-cancellation window, a late fee after it.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in OPEN:
        raise RuleViolation(
            f"order {order.order_number} is {order.status} and cannot be cancelled",
            field="order_id",
            hint="only submitted or confirmed orders can be cancelled",
        )
    caterer = ctx.get(Caterer, order.caterer_id)
    now = ctx.now()
    return ctx.update(
        order, status="cancelled", cancelled_at=now, cancellation_fee=cancellation_fee(caterer, order, now)
    )


# -- seed -------------------------------------------------------------------------------------

_MENUS: tuple[tuple[tuple[str, str, int, int, int, tuple[Dietary, ...]], ...], ...] = (
    (
        ("Build-Your-Own Taco Bar", "per_person", 1650, 1, 10, ("gluten_free",)),
        ("Veggie Fajita Package", "per_person", 1450, 1, 10, ("vegetarian",)),
        ("Chips & Guacamole Tray", "tray", 4500, 12, 1, ("vegan", "gluten_free")),
    ),
    (
        ("Boxed Sandwich Lunch", "per_person", 1395, 1, 8, ()),
        ("Mediterranean Mezze Platter", "tray", 8900, 10, 1, ("vegetarian",)),
        ("Cookie & Brownie Tray", "tray", 3600, 15, 1, ("vegetarian",)),
        ("Seasonal Fruit Bowl", "tray", 4200, 12, 1, ("vegan", "gluten_free", "nut_free")),
    ),
    (
        ("Hot Breakfast Buffet", "per_person", 1800, 1, 15, ()),
        ("Bagel & Pastry Assortment", "tray", 5200, 12, 1, ("vegetarian",)),
        ("Coffee Traveler (96 oz)", "tray", 2900, 12, 1, ("vegan",)),
    ),
    (
        ("Sushi Party Platter", "tray", 12900, 8, 1, ("dairy_free",)),
        ("Teriyaki Bowl Package", "per_person", 1750, 1, 10, ("dairy_free",)),
    ),
)
_RULES = (
    # lead, cutoff, free cancel, late %, start, end, min order, max guests, delivery fee, tax
    (24, 24, 48, 50, 7, 20, 20000, 200, 2500, 825),
    (12, 12, 24, 25, 6, 18, 15000, 150, 1500, 825),
    (48, 48, 72, 100, 6, 12, 30000, 400, 3500, 900),
    (24, 24, 24, 50, 10, 21, 25000, 80, 2000, 875),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Four caterers run by the population's companies, their menus, and the home company's event orders."""
    pop = s.population
    caterers: list[Caterer] = []
    for k, company in enumerate(pop.customers[:4]):
        lead, cutoff, free, late, start, end, minimum, most, fee, tax = _RULES[k]
        contact = pop.first_contact(company)
        caterer = s.create(
            Caterer,
            name=company.name,
            address=company.address,
            phone=company.phone,
            email=contact.email if contact else f"orders@{company.domain}",
            lead_time_hours=lead,
            change_cutoff_hours=cutoff,
            free_cancel_hours=free,
            late_cancel_percent=late,
            delivery_start_hour=start,
            delivery_end_hour=end,
            min_order=minimum,
            max_headcount=most,
            delivery_fee=fee,
            tax_basis_points=tax,
            active=k != 3,
        )
        caterers.append(caterer)
        for name, kind, price, serves, least, dietary in _MENUS[k]:
            s.create(
                MenuItem,
                caterer_id=caterer.id,
                name=name,
                kind=kind,
                price=price,
                serves=serves,
                min_quantity=least,
                dietary=list(dietary),
                available=name != "Veggie Fajita Package",
            )
    _seed_orders(s, caterers)


def _seed_orders(s: SeedContext, caterers: list[Caterer]) -> None:
    pop = s.population
    staff = pop.staff("Operations", "People", fallback=6)
    events = ("Team offsite lunch", "Board meeting breakfast", "New-hire welcome", "Customer workshop", "Town hall")
    # (caterer, days ahead, hour, headcount, status)
    plans: tuple[tuple[int, float, int, int, OrderStatus], ...] = (
        (0, 5, 12, 30, "confirmed"),
        (0, 1.2, 12, 25, "confirmed"),
        (1, 3, 11, 20, "submitted"),
        (1, 0, 10, 18, "confirmed"),
        (2, -6, 8, 40, "delivered"),
        (0, -2, 13, 15, "cancelled"),
    )
    for k, (c, days, hour, headcount, status) in enumerate(plans):
        caterer = caterers[c]
        person = staff[k % len(staff)]
        day = (s.now + dt.timedelta(days=days)).date()
        when = dt.datetime.combine(day, dt.time(hour), tzinfo=dt.UTC)
        if days == 0:
            when = s.now + dt.timedelta(minutes=30)
        items = [i for i in s.records(MenuItem) if i.caterer_id == caterer.id and i.available]
        package = next(i for i in items if i.kind == "per_person")
        tray = next(i for i in items if i.kind == "tray")
        raw = [OrderLine(menu_item_id=package.id, quantity=headcount), OrderLine(menu_item_id=tray.id, quantity=1)]
        lines = [
            ln.model_copy(update={"name": i.name, "unit_price": i.price, "total": i.price * ln.quantity})
            for ln, i in zip(raw, (package, tray), strict=True)
        ]
        subtotal = sum(ln.total or 0 for ln in lines)
        tax = ((subtotal + caterer.delivery_fee) * caterer.tax_basis_points + 5000) // 10000
        s.create(
            Order,
            caterer_id=caterer.id,
            event_name=events[k % len(events)],
            contact_name=person.name,
            contact_email=person.email,
            contact_phone=person.phone,
            delivery_address=pop.home.address,
            delivery_at=when,
            headcount=headcount,
            lines=lines,
            subtotal=subtotal,
            delivery_fee=caterer.delivery_fee,
            tax=tax,
            tip=subtotal // 10,
            total=subtotal + caterer.delivery_fee + tax + subtotal // 10,
            status=status,
            cancelled_at=s.now - dt.timedelta(days=4) if status == "cancelled" else None,
        )
