"""Forkful Eats: restaurants with store hours, menus, eaters' carts, and food orders through their delivery statuses.

Modeled on the Uber Eats Marketplace APIs (Store API with store status and
holiday-free regular hours, Menu API with item suspension, Order API with
accept / deny / cancel and order status) plus the eater's cart and checkout:
an eater's cart holds items of one restaurant (switching restaurants replaces
it only when asked); checkout needs the restaurant online and open at that
moment in its own time zone, every item still available, the restaurant's
minimum order reached and a drop-off in its city; the order is priced with the
delivery fee, a 10% service fee and the tip; the restaurant accepts or denies
a new order; accepted orders move through preparing, ready, picked up and
delivered one step at a time; an eater can cancel only until the kitchen starts
preparing, and gets everything back.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "fooddelivery",
    title="Forkful Eats",
    category="food_delivery",
    modeled_on="Uber Eats Marketplace APIs (Store API: status and hours; Menu API: items and suspension; "
    "Order API: accept, deny, cancel, status) with the eater's cart and checkout",
    description="Restaurant food delivery: restaurants with their store hours and online status, their menus and "
    "sold-out items, eaters' carts, checkout with delivery, service fee and tip, and orders from acceptance "
    "through the kitchen to the eater's door.",
)

RestaurantId = Annotated[str, IdOf("fooddelivery.restaurant")]
MenuItemId = Annotated[str, IdOf("fooddelivery.menu_item")]
CartId = Annotated[str, IdOf("fooddelivery.cart")]
OrderId = Annotated[str, IdOf("fooddelivery.order")]
PositiveQuantity = Annotated[Quantity, Field(ge=1, le=50)]
Clock = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$")]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
Cuisine = Literal["italian", "japanese", "indian", "mexican", "american", "vegan", "bakery", "thai"]
MenuCategory = Literal["starters", "mains", "sides", "desserts", "drinks"]
OrderStatus = Literal[
    "created", "accepted", "denied", "preparing", "ready_for_pickup", "picked_up", "delivered", "cancelled"
]
DAYS: tuple[Weekday, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
KITCHEN: tuple[str, ...] = ("accepted", "preparing", "ready_for_pickup", "picked_up", "delivered")
"""The order a accepted order moves in."""
SERVICE_FEE_PERCENT = 10


class OpeningHours(Value):
    """One opening period on one day of the week, in the restaurant's local time."""

    day: Weekday = Field(description="Day of the week.")
    opens: Clock = Field(description="Opening time, HH:MM local time.")
    closes: Clock = Field(description="Closing time, HH:MM local time (24:00 for midnight); after opens.")


class Restaurant(Record):
    """A restaurant (an Uber Eats store) taking delivery orders."""

    id: RestaurantId
    name: CompanyName
    """Restaurant name."""
    cuisine: Cuisine
    """Kind of food."""
    address: PostalAddress
    """Where the kitchen is; it delivers within its city."""
    phone: Phone
    """The restaurant's phone."""
    timezone: Timezone
    """Time zone its hours are in."""
    currency: Currency
    """Currency of its prices."""
    hours: tuple[OpeningHours, ...]
    """Regular opening hours; outside them no order can be placed."""
    status: Literal["online", "paused"] = "online"
    """online (taking orders) or paused (temporarily not)."""
    min_order: Cents = 0
    """Smallest subtotal accepted, in cents."""
    delivery_fee: Cents
    """Delivery fee charged per order, in cents."""
    prep_time_minutes: Annotated[int, Field(ge=5, le=120)] = 20
    """Usual preparation time."""
    rating: Annotated[float, Field(ge=0, le=5)] = 4.5
    """Eaters' rating."""


class MenuItem(Record):
    """A dish or drink on a restaurant's menu."""

    id: MenuItemId
    restaurant_id: RestaurantId
    """The restaurant."""
    title: Title
    """Name on the menu."""
    description: Text = ""
    """Description."""
    category: MenuCategory
    """Menu section."""
    price: Cents
    """Price, in cents."""
    available: bool = True
    """False while the item is suspended (sold out); it cannot be ordered."""


class CartLine(Value):
    """One item in a cart or an order."""

    menu_item_id: MenuItemId = Field(description="The menu item.")
    title: Title = Field(description="Its name.")
    quantity: PositiveQuantity = Field(description="How many.")
    unit_price: Cents = Field(description="Price of one, in cents.")
    special_instructions: Text = Field(default="", description="Instructions for the kitchen.")


class Cart(Record):
    """An eater's basket with one restaurant, before checkout."""

    id: CartId
    customer_email: Email
    """The eater."""
    customer_name: PersonName
    """The eater's name."""
    restaurant_id: RestaurantId
    """The restaurant all items come from."""
    items: tuple[CartLine, ...] = ()
    """What is in the cart."""
    subtotal: Cents = 0
    """Sum of the lines, in cents."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Order(Record):
    """A food order placed by an eater."""

    id: OrderId
    order_number: Annotated[OrderNumber, Generated("sequence", "FK-{n:06d}")]
    """Order number."""
    restaurant_id: RestaurantId
    """The restaurant."""
    restaurant_name: CompanyName
    """Its name."""
    customer_name: PersonName
    """The eater."""
    customer_email: Email
    """The eater's e-mail."""
    customer_phone: Phone
    """Phone the courier calls."""
    delivery_address: PostalAddress
    """Where it is delivered."""
    items: tuple[CartLine, ...]
    """What was ordered."""
    subtotal: Cents
    """Sum of the lines, in cents."""
    delivery_fee: Cents
    """Delivery fee, in cents."""
    service_fee: Cents
    """10% of the subtotal, rounded, in cents."""
    tip: Cents = 0
    """Tip for the courier, in cents."""
    total: Cents
    """Subtotal + delivery fee + service fee + tip, in cents."""
    refunded: Cents = 0
    """Given back to the eater, in cents."""
    currency: Currency
    """Currency."""
    status: OrderStatus = "created"
    """created, accepted, denied, preparing, ready_for_pickup, picked_up, delivered or cancelled."""
    estimated_ready_at: DateTime | None = None
    """When the kitchen expects it ready."""
    deny_reason: Text | None = None
    """Why the restaurant denied it."""
    cancel_reason: Text | None = None
    """Why the eater cancelled it."""
    placed_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- hours -------------------------------------------------------------------------------------


def _minutes(clock: str) -> int:
    h, m = clock.split(":")
    return int(h) * 60 + int(m)


def _local(r: Restaurant, when: dt.datetime) -> str:
    local = when.astimezone(ZoneInfo(r.timezone))
    return f"{DAYS[local.weekday()]} {local.hour:02d}:{local.minute:02d}"


def _is_open(r: Restaurant, when: dt.datetime) -> bool:
    local = when.astimezone(ZoneInfo(r.timezone))
    day = DAYS[local.weekday()]
    now = local.hour * 60 + local.minute
    return any(h.day == day and _minutes(h.opens) <= now < _minutes(h.closes) for h in r.hours)


def _next_opening(r: Restaurant, when: dt.datetime) -> dt.datetime | None:
    tz = ZoneInfo(r.timezone)
    local = when.astimezone(tz)
    for offset in range(8):
        d = local.date() + dt.timedelta(days=offset)
        starts = sorted(_minutes(h.opens) for h in r.hours if h.day == DAYS[d.weekday()])
        for start in starts:
            at = dt.datetime.combine(d, dt.time(start // 60, start % 60), tzinfo=tz)
            if at > local:
                return at.astimezone(dt.UTC)
    return None


def _guard_restaurant(ctx: Ctx, new: Any, old: Any) -> None:
    for i, h in enumerate(new.hours):
        if _minutes(h.opens) >= _minutes(h.closes):
            raise RuleViolation(
                f"on {h.day} the restaurant would close ({h.closes}) before it opens ({h.opens})",
                field=f"hours.{i}",
                hint="give a closing time after the opening time; split periods that pass midnight",
            )
        for j, other in enumerate(new.hours[:i]):
            if (
                other.day == h.day
                and _minutes(h.opens) < _minutes(other.closes)
                and _minutes(other.opens) < _minutes(h.closes)
            ):
                raise RuleViolation(
                    f"two opening periods overlap on {h.day} (entries {j} and {i})",
                    field=f"hours.{i}",
                    hint="merge the overlapping periods",
                )


def _guard_menu_item(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Restaurant, new.restaurant_id, field="restaurant_id")


restaurants = service.resource(
    Restaurant,
    name="restaurant",
    plural="restaurants",
    prefix="rst",
    create=False,
    filters=("cuisine", "status", "currency"),
    search=("name",),
    update=("phone", "hours", "min_order", "delivery_fee", "prep_time_minutes"),
    delete=False,
    transitions={
        "pause": Transition(
            "status",
            ("online",),
            "paused",
            "stop taking orders at the restaurant for now",
            description="Pause a restaurant: it takes no new orders until resumed; orders already placed carry on.",
        ),
        "resume": Transition("status", ("paused",), "online", "start taking orders at the restaurant again"),
    },
    guard_update=_guard_restaurant,
)
menu_items = service.resource(
    MenuItem,
    name="menu_item",
    plural="menu_items",
    prefix="itm",
    create=("restaurant_id", "title", "description", "category", "price"),
    filters=("restaurant_id", "category", "available"),
    search=("title", "description"),
    update=("title", "description", "category", "price"),
    transitions={
        "suspend": Transition(
            "available", (True,), False, "mark the dish as sold out", description="Mark a menu item as sold out."
        ),
        "unsuspend": Transition("available", (False,), True, "put the dish back on the menu"),
    },
    guard_create=_guard_menu_item,
)
carts = service.resource(
    Cart,
    name="cart",
    plural="carts",
    prefix="crt",
    create=False,
    filters=("customer_email", "restaurant_id"),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("restaurant_id", "status", "customer_email", "order_number"),
    search=("customer_name", "order_number"),
    delete=False,
    title="food order",
)


# -- examples ----------------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    item = ctx.first(MenuItem, available=True)
    if item is None:
        return None
    p = ctx.population.consumers[-1]
    return {"customer_email": p.email, "customer_name": p.name, "menu_item_id": item.id, "quantity": 2}


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    for cart in ctx.scan(Cart):
        if cart.items:
            return {"cart_id": cart.id, "menu_item_id": cart.items[0].menu_item_id}
    return None


def _checkout_ready(ctx: Ctx, cart: Cart) -> bool:
    r = ctx.get(Restaurant, cart.restaurant_id)
    items_ok = all(ctx.get(MenuItem, line.menu_item_id).available for line in cart.items)
    return (
        bool(cart.items)
        and r.status == "online"
        and _is_open(r, ctx.now())
        and items_ok
        and (cart.subtotal >= r.min_order)
    )


def _example_checkout(ctx: Ctx) -> dict[str, Any] | None:
    for cart in ctx.scan(Cart):
        if _checkout_ready(ctx, cart):
            r = ctx.get(Restaurant, cart.restaurant_id)
            person = next((p for p in ctx.population.consumers if p.email == cart.customer_email), None)
            if person is None or person.address.city != r.address.city:
                continue
            return {"cart_id": cart.id, "delivery_address": person.address.model_dump(), "customer_phone": person.phone}
    return None


def _example_advance(ctx: Ctx) -> dict[str, Any] | None:
    for status in KITCHEN[:-1]:
        o = ctx.first(Order, status=status)
        if o is not None:
            return {"order_id": o.id, "status": KITCHEN[KITCHEN.index(status) + 1]}
    return None


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    o = ctx.first(Order, status="accepted") or ctx.first(Order, status="created")
    return None if o is None else {"order_id": o.id, "reason": "Ordered by mistake"}


# -- cart and checkout -------------------------------------------------------------------------


def _subtotal(lines: tuple[CartLine, ...]) -> int:
    return sum(line.unit_price * line.quantity for line in lines)


@service.tool(intent="add the dish to the eater's cart", write=True, example=_example_add)
def add_to_cart(
    ctx: Ctx,
    customer_email: Email,
    customer_name: PersonName,
    menu_item_id: MenuItemId,
    quantity: PositiveQuantity = 1,
    special_instructions: Text = "",
    replace_cart: bool = False,
) -> Cart:
    """Add a menu item to the eater's cart, starting one if needed.

    A cart holds items of one restaurant: adding an item of another restaurant
    is refused unless replace_cart is true, which empties the cart first.

    Args:
        customer_email: The eater's e-mail.
        customer_name: The eater's name.
        menu_item_id: The item to add.
        quantity: How many.
        special_instructions: Instructions for the kitchen.
        replace_cart: Empty a cart of another restaurant and start over with this one.
    """
    item = ctx.get(MenuItem, menu_item_id, field="menu_item_id")
    if not item.available:
        raise RuleViolation(
            f"{item.title} is sold out", field="menu_item_id", hint="pick another item from the restaurant's menu"
        )
    line = CartLine(
        menu_item_id=item.id,
        title=item.title,
        quantity=quantity,
        unit_price=item.price,
        special_instructions=special_instructions,
    )
    cart = ctx.first(Cart, customer_email=customer_email)
    if cart is None:
        return ctx.create(
            Cart,
            customer_email=customer_email,
            customer_name=customer_name,
            restaurant_id=item.restaurant_id,
            items=(line,),
            subtotal=_subtotal((line,)),
        )
    if cart.restaurant_id != item.restaurant_id and cart.items:
        if not replace_cart:
            current = ctx.get(Restaurant, cart.restaurant_id).name
            raise Conflict(
                f"the cart already holds items from {current}",
                field="menu_item_id",
                hint="check out that cart first, or pass replace_cart=true to empty it and start over",
            )
        lines: tuple[CartLine, ...] = (line,)
    else:
        merged = False
        out: list[CartLine] = []
        for existing in cart.items:
            if existing.menu_item_id == item.id and existing.special_instructions == special_instructions:
                total = existing.quantity + quantity
                if total > 50:
                    raise RuleViolation(
                        f"at most 50 of {item.title} per order", field="quantity", hint="order 50 or fewer"
                    )
                existing = existing.model_copy(update={"quantity": total})
                merged = True
            out.append(existing)
        if not merged:
            out.append(line)
        lines = tuple(out)
    return ctx.update(
        cart, restaurant_id=item.restaurant_id, items=lines, subtotal=_subtotal(lines), customer_name=customer_name
    )


@service.tool(intent="take the dish out of the cart", write=True, example=_example_remove)
def remove_from_cart(ctx: Ctx, cart_id: CartId, menu_item_id: MenuItemId) -> Cart:
    """Remove every line of a menu item from a cart.

    Args:
        cart_id: The cart.
        menu_item_id: The item to take out.
    """
    cart = ctx.get(Cart, cart_id, field="cart_id")
    kept = tuple(line for line in cart.items if line.menu_item_id != menu_item_id)
    if len(kept) == len(cart.items):
        raise RuleViolation(
            f"menu item {menu_item_id} is not in the cart", field="menu_item_id", hint="see the cart's items"
        )
    return ctx.update(cart, items=kept, subtotal=_subtotal(kept))


@service.tool(intent="check out the cart and place the food order", write=True, example=_example_checkout)
def checkout_cart(
    ctx: Ctx, cart_id: CartId, delivery_address: PostalAddress, customer_phone: Phone, tip: Cents = 0
) -> Order:
    """Place the order in a cart; the cart is emptied.

    The restaurant must be online and open now (in its time zone), every item
    still available, the subtotal at least the restaurant's minimum order, and
    the delivery address in the restaurant's city. The total is the subtotal,
    the delivery fee, a 10% service fee and the tip.

    Args:
        cart_id: The cart.
        delivery_address: Where to deliver.
        customer_phone: Phone the courier can call.
        tip: Tip for the courier, in cents.
    """
    cart = ctx.get(Cart, cart_id, field="cart_id")
    if not cart.items:
        raise RuleViolation("the cart is empty", field="cart_id", hint="add items with fooddelivery__add_to_cart")
    r = ctx.get(Restaurant, cart.restaurant_id)
    if r.status != "online":
        raise RuleViolation(
            f"{r.name} is paused and takes no orders right now",
            field="cart_id",
            hint="order from another restaurant, or try again when it is back online",
        )
    now = ctx.now()
    if not _is_open(r, now):
        nxt = _next_opening(r, now)
        raise RuleViolation(
            f"{r.name} is closed now",
            field="cart_id",
            hint=f"it opens again at {nxt.isoformat()}" if nxt else "it has no opening hours",
        )
    for i, line in enumerate(cart.items):
        if not ctx.get(MenuItem, line.menu_item_id).available:
            raise RuleViolation(
                f"{line.title} has sold out since it was added",
                field="cart_id",
                hint=f"remove it with fooddelivery__remove_from_cart (line {i + 1}) and check out again",
            )
    if cart.subtotal < r.min_order:
        raise RuleViolation(
            f"the subtotal {cart.subtotal} is below {r.name}'s minimum order of {r.min_order}",
            field="cart_id",
            hint=f"add at least {r.min_order - cart.subtotal} more",
        )
    if delivery_address.city.casefold() != r.address.city.casefold():
        raise RuleViolation(
            f"{r.name} delivers within {r.address.city} only",
            field="delivery_address",
            hint="order from a restaurant in the delivery city",
        )
    service_fee = round(cart.subtotal * SERVICE_FEE_PERCENT / 100)
    order = ctx.create(
        Order,
        restaurant_id=r.id,
        restaurant_name=r.name,
        customer_name=cart.customer_name,
        customer_email=cart.customer_email,
        customer_phone=customer_phone,
        delivery_address=delivery_address,
        items=cart.items,
        subtotal=cart.subtotal,
        delivery_fee=r.delivery_fee,
        service_fee=service_fee,
        tip=tip,
        total=cart.subtotal + r.delivery_fee + service_fee + tip,
        currency=r.currency,
    )
    ctx.update(cart, items=(), subtotal=0)
    return order


# -- the restaurant's side ---------------------------------------------------------------------


def _new_order(ctx: Ctx, order_id: str) -> Order:
    o = ctx.get(Order, order_id, field="order_id")
    if o.status != "created":
        raise RuleViolation(
            f"order {o.order_number} is {o.status}; only new orders are accepted or denied",
            field="order_id",
            hint="see the order's status with fooddelivery__get_order",
        )
    return o


@service.tool(
    intent="accept the food order", write=True, example=first_example(Order, "order_id", where={"status": "created"})
)
def accept_order(
    ctx: Ctx, order_id: OrderId, prep_time_minutes: Annotated[int, Field(ge=5, le=120)] | None = None
) -> Order:
    """Accept a new order in the restaurant; it is expected ready after the preparation time.

    Args:
        order_id: The new order.
        prep_time_minutes: Minutes to prepare it; omit for the restaurant's usual time.
    """
    o = _new_order(ctx, order_id)
    r = ctx.get(Restaurant, o.restaurant_id)
    minutes = prep_time_minutes or r.prep_time_minutes
    return ctx.update(o, status="accepted", estimated_ready_at=ctx.now() + dt.timedelta(minutes=minutes))


@service.tool(
    intent="deny the food order",
    write=True,
    example=first_example(Order, "order_id", where={"status": "created"}, reason="Kitchen closing early"),
)
def deny_order(ctx: Ctx, order_id: OrderId, reason: Text) -> Order:
    """Deny a new order; the eater gets everything back.

    Args:
        order_id: The new order.
        reason: Why the restaurant cannot make it.
    """
    o = _new_order(ctx, order_id)
    if not reason.strip():
        raise RuleViolation("say why the order is denied", field="reason", hint="e.g. 'Out of ingredients'")
    return ctx.update(o, status="denied", deny_reason=reason.strip(), refunded=o.total)


@service.tool(intent="move the food order to its next status", write=True, example=_example_advance)
def update_order_status(
    ctx: Ctx, order_id: OrderId, status: Literal["preparing", "ready_for_pickup", "picked_up", "delivered"]
) -> Order:
    """Move an accepted order one step on: preparing, ready_for_pickup, picked_up, delivered.

    Args:
        order_id: The order.
        status: Its next status.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status not in KITCHEN[:-1]:
        raise RuleViolation(
            f"order {o.order_number} is {o.status}",
            field="order_id",
            hint="accept a new order first; delivered, denied and cancelled orders are final",
        )
    expected = KITCHEN[KITCHEN.index(o.status) + 1]
    if status != expected:
        raise RuleViolation(
            f"order {o.order_number} is {o.status}; its next status is {expected}, not {status}",
            field="status",
            hint=f"move it to {expected} first",
        )
    return ctx.update(o, status=status)


@service.tool(intent="cancel the food order", write=True, destructive=True, example=_example_cancel)
def cancel_order(ctx: Ctx, order_id: OrderId, reason: Text) -> Order:
    """Cancel an order for the eater before the kitchen starts preparing it; everything is refunded.

    Args:
        order_id: The order.
        reason: Why the eater cancels.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status not in ("created", "accepted"):
        raise RuleViolation(
            f"order {o.order_number} is {o.status} and can no longer be cancelled",
            field="order_id",
            hint="orders can be cancelled only until the kitchen starts preparing them",
        )
    return ctx.update(o, status="cancelled", cancel_reason=reason.strip() or None, refunded=o.total)


class StoreStatus(BaseModel):
    """Whether a restaurant takes orders now."""

    restaurant_id: RestaurantId = Field(description="The restaurant.")
    name: CompanyName = Field(description="Its name.")
    status: Literal["online", "paused"] = Field(description="Online status.")
    open_now: bool = Field(description="Whether it is within its opening hours now.")
    accepting_orders: bool = Field(description="Online and open: whether an order can be placed now.")
    local_time: str = Field(description="Now in the restaurant's time zone, as 'weekday HH:MM'.")
    next_opening: DateTime | None = Field(description="When it next opens, if it is closed.")
    open_orders: int = Field(description="Orders accepted or in the kitchen.")


@service.tool(
    intent="check whether the restaurant is taking orders", example=first_example(Restaurant, "restaurant_id")
)
def store_status(ctx: Ctx, restaurant_id: RestaurantId) -> StoreStatus:
    """Tell whether a restaurant is online and open now, and when it next opens.

    Args:
        restaurant_id: The restaurant.
    """
    r = ctx.get(Restaurant, restaurant_id, field="restaurant_id")
    now = ctx.now()
    open_now = _is_open(r, now)
    busy = sum(1 for o in ctx.where(Order, restaurant_id=r.id) if o.status in KITCHEN[:-2])
    return StoreStatus(
        restaurant_id=r.id,
        name=r.name,
        status=r.status,
        open_now=open_now,
        accepting_orders=open_now and r.status == "online",
        local_time=_local(r, now),
        next_opening=None if open_now else _next_opening(r, now),
        open_orders=busy,
    )


# -- seed --------------------------------------------------------------------------------------

KITCHENS: tuple[tuple[str, Cuisine, tuple[tuple[str, MenuCategory, int], ...]], ...] = (
    ("Trattoria Verde", "italian", (("Bruschetta", "starters", 650), ("Margherita Pizza", "mains", 1190),
     ("Tagliatelle al Ragu", "mains", 1450), ("Tiramisu", "desserts", 690), ("San Pellegrino", "drinks", 320))),
    ("Noodle Bar 88", "japanese", (("Gyoza", "starters", 590), ("Tonkotsu Ramen", "mains", 1390),
     ("Chicken Katsu Curry", "mains", 1290), ("Mochi", "desserts", 450), ("Green Tea", "drinks", 290))),
    ("Cafe Lumen", "bakery", (("Croissant", "sides", 280), ("Avocado Toast", "mains", 890),
     ("Granola Bowl", "mains", 750), ("Cheesecake", "desserts", 520), ("Flat White", "drinks", 380))),
    ("Spice Route", "indian", (("Samosa", "starters", 550), ("Butter Chicken", "mains", 1490),
     ("Chana Masala", "mains", 1190), ("Garlic Naan", "sides", 350), ("Mango Lassi", "drinks", 420))),
    ("Casa Taco", "mexican", (("Nachos", "starters", 690), ("Carnitas Tacos", "mains", 1190),
     ("Veggie Burrito", "mains", 1090), ("Churros", "desserts", 550), ("Horchata", "drinks", 350))),
    ("Green Fork", "vegan", (("Hummus Plate", "starters", 620), ("Buddha Bowl", "mains", 1250),
     ("Lentil Burger", "mains", 1190), ("Sweet Potato Fries", "sides", 450), ("Kombucha", "drinks", 390))),
)  # fmt: skip
LUNCH_DINNER = (("11:30", "14:30"), ("17:30", "22:30"))


@service.seeder
def seed(s: SeedContext) -> None:
    """Restaurants in the consumers' cities with menus and hours, consumers' carts and orders in every status."""
    kitchens = _seed_restaurants(s)
    _seed_orders(s, kitchens)


_Kitchens = dict[str, list[tuple[Restaurant, list[MenuItem]]]]
"""Seeded restaurants with their menus, by city."""


def _seed_restaurants(s: SeedContext) -> _Kitchens:
    """Restaurants in the first nine cities consumers live in, two in the first three, each with its menu."""
    rng = s.rng
    cities: list[str] = []
    for p in s.population.consumers:
        if p.place.city not in cities:
            cities.append(p.place.city)
    places = {p.city: p for p in s.population.places}
    by_city: _Kitchens = {}
    for k, city in enumerate(cities[:9]):
        place = places[city]
        for m in range(2 if k < 3 else 1):
            name, cuisine, dishes = KITCHENS[(k + 2 * m) % len(KITCHENS)]
            r = s.create(
                Restaurant,
                name=f"{name} {city}",
                cuisine=cuisine,
                address=PostalAddress(
                    street=f"{rng.randint(1, 200)} {('Market Square', 'Canal Street', 'High Street')[m]}",
                    city=city,
                    postal_code=f"{place.postal_prefix}{rng.randint(100, 999)}",
                    country=place.country,
                ),
                phone=place.phone_prefix + "".join(str(rng.randint(0, 9)) for _ in range(7)),
                timezone=place.timezone,
                currency=place.currency,
                hours=_opening_hours(k, m, cuisine),
                status="paused" if k == 4 else "online",
                min_order=(0, 1000, 1500)[k % 3],
                delivery_fee=(199, 299, 399)[(k + m) % 3],
                prep_time_minutes=(15, 20, 25, 30)[k % 4],
                rating=round(4.0 + rng.randint(0, 9) / 10, 1),
            )
            items = [
                s.create(
                    MenuItem,
                    restaurant_id=r.id,
                    title=title,
                    description=f"{title} from {name}.",
                    category=cat,
                    price=price,
                    available=not (j == 2 and k % 4 == 3),
                )
                for j, (title, cat, price) in enumerate(dishes)
            ]
            by_city.setdefault(city, []).append((r, items))
    return by_city


def _opening_hours(k: int, m: int, cuisine: Cuisine) -> tuple[OpeningHours, ...]:
    """Hours of restaurant ``m`` of the ``k``-th city: round the clock, breakfast to late, or lunch and dinner."""
    if (k == 0 and m == 0) or cuisine == "bakery":
        return tuple(OpeningHours(day=d, opens="00:00", closes="24:00") for d in DAYS)
    if k % 3 == 1:  # breakfast-to-late kitchens
        return tuple(OpeningHours(day=d, opens="07:00", closes="23:00") for d in DAYS)
    return tuple(
        OpeningHours(day=d, opens=a, closes=b) for d in DAYS if d != "monday" or k % 2 for a, b in LUNCH_DINNER
    )


def _seed_orders(s: SeedContext, kitchens: _Kitchens) -> None:
    """An order in every status from consumers living where restaurants are; every fifth only filled a cart."""
    plans: tuple[OrderStatus, ...] = (
        "delivered", "created", "accepted", "preparing", "delivered", "cancelled", "ready_for_pickup",
        "delivered", "denied", "picked_up",
    )  # fmt: skip
    n = 0
    for i, p in enumerate(s.population.consumers):
        options = kitchens.get(p.place.city)
        if not options or p.address.city != p.place.city:
            continue
        r, items = options[i % len(options)]
        onsale = [it for it in items if it.available]
        lines = tuple(
            CartLine(menu_item_id=it.id, title=it.title, quantity=1 + (i + j) % 2, unit_price=it.price)
            for j, it in enumerate(onsale[i % 2 : i % 2 + 2 + i % 2])
        )
        if i % 5 == 4:
            s.create(
                Cart,
                customer_email=p.email,
                customer_name=p.name,
                restaurant_id=r.id,
                items=lines,
                subtotal=_subtotal(lines),
            )
            continue
        plan = plans[n % len(plans)]
        n += 1
        _seed_order(s, n, plan, p, r, lines)


def _seed_order(
    s: SeedContext, n: int, plan: OrderStatus, p: Person, r: Restaurant, lines: tuple[CartLine, ...]
) -> None:
    """The ``n``-th order (from 1), in status ``plan``: recent while open, a day or more old once finished."""
    placed = (
        s.ago(minutes=25 + 9 * n)
        if plan not in ("delivered", "cancelled", "denied")
        else s.ago(days=1 + n % 6, hours=n % 5)
    )
    subtotal = _subtotal(lines)
    service_fee = round(subtotal * SERVICE_FEE_PERCENT / 100)
    tip = (0, 150, 300)[n % 3]
    total = subtotal + r.delivery_fee + service_fee + tip
    s.create(
        Order,
        restaurant_id=r.id,
        restaurant_name=r.name,
        customer_name=p.name,
        customer_email=p.email,
        customer_phone=p.phone,
        delivery_address=p.address,
        items=lines,
        subtotal=subtotal,
        delivery_fee=r.delivery_fee,
        service_fee=service_fee,
        tip=tip,
        total=total,
        refunded=total if plan in ("cancelled", "denied") else 0,
        currency=r.currency,
        status=plan,
        estimated_ready_at=placed + dt.timedelta(minutes=r.prep_time_minutes)
        if plan not in ("created", "denied")
        else None,
        deny_reason="Out of ingredients" if plan == "denied" else None,
        cancel_reason="Ordered from the wrong account" if plan == "cancelled" else None,
        placed_at=placed,
        updated_at=placed + dt.timedelta(minutes=10),
    )
