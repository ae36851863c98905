"""BoxClub: subscription boxes, their plans, subscribers, upcoming box contents, skips, swaps and shipments.

Modeled on the Recharge Subscriptions API (2021-11: customers, subscriptions
with order_interval, skip/unskip of a charge, pause with a resume date, cancel
with a cancellation_reason, swap of a product) and Cratejoy's box model (plans
with a billing cycle, a monthly box whose contents are curated ahead, a cutoff
after which the box is locked, shipments with tracking). A box's contents are
planned for each shipment month; until the cutoff, a subscriber may skip the
box or swap one of its items for another in stock; locked boxes ship, which
charges every queued subscriber, takes the items out of stock and gives each
shipment a tracking number. Pausing skips the boxes it covers (at most three
months), cancelling needs a reason, and a subscriber holds one live
subscription per plan.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Quantity,
    Sku,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "subscriptionbox",
    title="BoxClub",
    category="subscription_box",
    modeled_on="Recharge Subscriptions API 2021-11 (customers, subscriptions, skip, pause, cancel, swap) with "
    "Cratejoy's subscription box model (plans with billing cycles, monthly box contents, cutoff, shipments)",
    description="The home company's subscription boxes: box plans with their billing cycle and price, the "
    "subscribers and their subscriptions, each month's curated box and its cutoff, the skips, pauses and item "
    "swaps subscribers make before the cutoff, and the shipments that go out when a box ships.",
)

PlanId = Annotated[str, IdOf("subscriptionbox.plan")]
ItemId = Annotated[str, IdOf("subscriptionbox.item")]
SubscriberId = Annotated[str, IdOf("subscriptionbox.subscriber")]
SubscriptionId = Annotated[str, IdOf("subscriptionbox.subscription")]
BoxId = Annotated[str, IdOf("subscriptionbox.box")]
ShipmentId = Annotated[str, IdOf("subscriptionbox.shipment")]

Month = Annotated[str, StringConstraints(pattern=r"^20\d\d-(0[1-9]|1[0-2])$")]
"""A shipment month, YYYY-MM."""
Interval = Literal[1, 3, 6, 12]
PlanStatus = Literal["active", "archived"]
SubStatus = Literal["active", "paused", "cancelled"]
BoxStatus = Literal["planned", "locked", "shipped"]
ShipmentStatus = Literal["queued", "skipped", "cancelled", "shipped", "delivered"]
CancelReason = Literal["too_expensive", "not_enough_use", "product_quality", "moving", "other"]

MAX_PAUSE_MONTHS = 3


class Plan(Timestamped):
    """A box plan: what a subscriber signs up for, billed every interval_months."""

    id: PlanId
    name: Title
    """The plan's name (unique)."""
    interval_months: Interval = 1
    """Billing cycle: one box every 1, 3, 6 or 12 months."""
    price: Cents
    """Price per box, in cents."""
    box_size: Annotated[int, Field(ge=1, le=12)] = 4
    """How many items a box holds."""
    cutoff_days: Annotated[int, Field(ge=1, le=20)] = 5
    """Days before a box ships after which it is locked."""
    status: PlanStatus = "active"
    """active, or archived (no new subscriptions)."""


class Item(Timestamped):
    """A product that can go into a box."""

    id: ItemId
    sku: Sku
    """Its SKU (unique)."""
    name: Title
    """Its name."""
    stock: Quantity = 0
    """Units on hand."""


class Subscriber(Record):
    """A customer who subscribes to boxes."""

    id: SubscriberId
    email: Email
    """Their e-mail (unique)."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    created_at: Annotated[DateTime, CREATED]
    """When they signed up."""


class Subscription(Timestamped):
    """A subscriber's subscription to a plan."""

    id: SubscriptionId
    subscriber_id: SubscriberId
    """The subscriber."""
    email: Email
    """The subscriber's e-mail."""
    plan_id: PlanId
    """The plan."""
    status: SubStatus = "active"
    """active, paused or cancelled."""
    next_charge_date: Date | None = None
    """When the next box is charged."""
    paused_until: Date | None = None
    """When a paused subscription resumes by itself."""
    cancellation_reason: CancelReason | None = None
    """Why it was cancelled."""
    boxes_shipped: Quantity = 0
    """Boxes shipped so far."""


class Box(Timestamped):
    """The box of one plan for one month: its curated contents, cutoff and ship date."""

    id: BoxId
    plan_id: PlanId
    """The plan."""
    month: Month
    """The shipment month, YYYY-MM (one box per plan and month)."""
    skus: tuple[Sku, ...]
    """The items every subscriber gets unless they swap."""
    ship_date: Date
    """When it ships."""
    cutoff_date: Date
    """The last day subscribers may skip or swap."""
    status: BoxStatus = "planned"
    """planned, locked (past the cutoff) or shipped."""


class Shipment(Timestamped):
    """One subscriber's copy of one box: skipped, or charged and shipped."""

    id: ShipmentId
    box_id: BoxId
    """The box."""
    subscription_id: SubscriptionId
    """The subscription."""
    email: Email
    """The subscriber's e-mail."""
    skus: tuple[Sku, ...]
    """What this subscriber gets (the box's items after swaps)."""
    status: ShipmentStatus = "queued"
    """queued, skipped, cancelled, shipped or delivered."""
    amount: Cents = 0
    """What was charged when it shipped, in cents."""
    tracking_number: TrackingNumber | None = None
    """The parcel's tracking number."""
    shipped_at: DateTime | None = None
    """When it shipped."""


# -- rules ------------------------------------------------------------------------------------


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Plan, name=new.name)
    if other is not None and other.id != new.id:
        raise Conflict(f"plan {other.id} is already called {new.name!r}", field="name", hint="pick another name")


def _guard_subscriber(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and new.email != old.email:
        for sub in ctx.where(Subscription, subscriber_id=new.id):
            ctx.update(sub, email=new.email)


def _guard_item_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for box in ctx.where(Box, status="planned") + ctx.where(Box, status="locked"):
        if old.sku in box.skus:
            raise Conflict(
                f"item {old.sku} is in box {box.id} ({box.month})",
                field="item_id",
                hint="take it out of the box first with subscriptionbox__set_box_contents",
            )


plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="plan",
    create=("name", "interval_months", "price", "box_size", "cutoff_days"),
    filters=("status", "interval_months"),
    search=("name",),
    update=("name", "price", "cutoff_days"),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the box plan")},
    guard_create=_guard_plan,
    guard_update=_guard_plan,
    title="box plan",
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("sku", "name", "stock"),
    filters=("sku",),
    search=("name", "sku"),
    update=("name", "stock"),
    unique=("sku",),
    guard_delete=_guard_item_delete,
)
subscribers = service.resource(
    Subscriber,
    name="subscriber",
    plural="subscribers",
    prefix="cus",
    create=("email", "first_name", "last_name"),
    filters=("email",),
    search=("first_name", "last_name", "email"),
    update=("email", "first_name", "last_name"),
    unique=("email",),
    delete=False,
    guard_update=_guard_subscriber,
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    filters=("subscriber_id", "email", "plan_id", "status"),
    delete=False,
)
boxes = service.resource(
    Box,
    name="box",
    plural="boxes",
    prefix="box",
    create=False,
    filters=("plan_id", "month", "status"),
    delete=False,
    transitions={
        "lock": Transition(
            "status",
            ("planned",),
            "locked",
            "lock the box",
            description="Lock a planned box (done at its cutoff): skips and swaps are no longer taken.",
        )
    },
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="shp",
    create=False,
    filters=("box_id", "subscription_id", "email", "status"),
    delete=False,
    transitions={"deliver": Transition("status", ("shipped",), "delivered", "mark the box shipment delivered")},
)


# -- helpers ----------------------------------------------------------------------------------


def _open_box(ctx: Ctx, shipment_id: str) -> tuple[Shipment, Box]:
    """A queued or skipped shipment whose box is still planned and before its cutoff."""
    ship = ctx.get(Shipment, shipment_id, field="shipment_id")
    box = ctx.get(Box, ship.box_id)
    if box.status != "planned" or ctx.today() > box.cutoff_date:
        raise RuleViolation(
            f"box {box.month} is past its cutoff ({box.cutoff_date})",
            field="shipment_id",
            hint="changes after the cutoff go into next month's box",
        )
    return ship, box


def _queue(ctx: Ctx, sub: Subscription, box: Box) -> Shipment:
    return ctx.create(Shipment, box_id=box.id, subscription_id=sub.id, email=sub.email, skus=box.skus)


def _upcoming(ctx: Ctx, plan_id: str) -> list[Box]:
    today = ctx.today()
    return [b for b in ctx.where(Box, plan_id=plan_id, status="planned") if b.cutoff_date >= today]


# -- domain tools -----------------------------------------------------------------------------


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    for plan in ctx.where(Plan, status="active"):
        for s in ctx.where(Subscriber):
            live = [x for x in ctx.where(Subscription, subscriber_id=s.id, plan_id=plan.id) if x.status != "cancelled"]
            if not live:
                return {"subscriber_id": s.id, "plan_id": plan.id}
    return None


@service.tool(intent="subscribe the customer to the box plan", write=True, example=_example_subscribe)
def subscribe(ctx: Ctx, subscriber_id: SubscriberId, plan_id: PlanId) -> Subscription:
    """Start a subscription to an active plan; the subscriber is queued for every box still before its cutoff.

    Args:
        subscriber_id: The subscriber.
        plan_id: The plan.
    """
    who = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if plan.status != "active":
        raise RuleViolation(f"plan {plan.name!r} is archived", field="plan_id", hint="pick an active plan")
    for sub in ctx.where(Subscription, subscriber_id=who.id, plan_id=plan.id):
        if sub.status != "cancelled":
            raise Conflict(
                f"{who.email} already has {sub.status} subscription {sub.id} to {plan.name!r}",
                field="plan_id",
                hint="resume that subscription instead" if sub.status == "paused" else "one subscription per plan",
            )
    boxes_ahead = _upcoming(ctx, plan.id)
    first = min((b.ship_date for b in boxes_ahead), default=ctx.today() + dt.timedelta(days=1))
    sub = ctx.create(Subscription, subscriber_id=who.id, email=who.email, plan_id=plan.id, next_charge_date=first)
    for box in boxes_ahead:
        _queue(ctx, sub, box)
    return sub


@service.tool(
    intent="skip the box",
    write=True,
    example=first_example(
        Shipment, "shipment_id", where={"status": "queued"}, match=lambda ctx, s: _upcoming_ok(ctx, s)
    ),
)
def skip_shipment(ctx: Ctx, shipment_id: ShipmentId) -> Shipment:
    """Skip one month's box before its cutoff: it is neither charged nor shipped.

    Args:
        shipment_id: The subscriber's shipment of that box.
    """
    ship, _ = _open_box(ctx, shipment_id)
    if ship.status != "queued":
        raise RuleViolation(f"shipment {ship.id} is {ship.status}", field="shipment_id", hint="only queued boxes skip")
    return ctx.update(ship, status="skipped")


def _upcoming_ok(ctx: Ctx, ship: Shipment) -> bool:
    box = ctx.get(Box, ship.box_id)
    return box.status == "planned" and box.cutoff_date >= ctx.today()


@service.tool(
    intent="unskip the box",
    write=True,
    example=first_example(Shipment, "shipment_id", where={"status": "skipped"}, match=_upcoming_ok),
)
def unskip_shipment(ctx: Ctx, shipment_id: ShipmentId) -> Shipment:
    """Take back a skip before the cutoff; the subscription must be active.

    Args:
        shipment_id: The skipped shipment.
    """
    ship, _ = _open_box(ctx, shipment_id)
    if ship.status != "skipped":
        raise RuleViolation(f"shipment {ship.id} is {ship.status}", field="shipment_id", hint="only skipped boxes")
    sub = ctx.get(Subscription, ship.subscription_id)
    if sub.status != "active":
        raise RuleViolation(
            f"subscription {sub.id} is {sub.status}", field="shipment_id", hint="resume the subscription first"
        )
    return ctx.update(ship, status="queued")


def _example_swap(ctx: Ctx) -> dict[str, Any] | None:
    for ship in ctx.where(Shipment, status="queued"):
        if _upcoming_ok(ctx, ship):
            for item in ctx.where(Item):
                if item.stock > 0 and item.sku not in ship.skus:
                    return {"shipment_id": ship.id, "remove_sku": ship.skus[0], "add_sku": item.sku}
    return None


@service.tool(intent="swap an item in the box", write=True, example=_example_swap)
def swap_item(ctx: Ctx, shipment_id: ShipmentId, remove_sku: Sku, add_sku: Sku) -> Shipment:
    """Swap one item of a queued box for another item in stock, before the cutoff.

    Args:
        shipment_id: The subscriber's shipment.
        remove_sku: The item to take out; it must be in the box.
        add_sku: The item to put in; it must be in stock and not already in the box.
    """
    ship, _ = _open_box(ctx, shipment_id)
    if ship.status != "queued":
        raise RuleViolation(f"shipment {ship.id} is {ship.status}", field="shipment_id", hint="unskip it first")
    if remove_sku not in ship.skus:
        raise RuleViolation(f"{remove_sku} is not in this box", field="remove_sku", hint=f"pick one of {ship.skus}")
    item = ctx.first(Item, sku=add_sku)
    if item is None or item.stock <= 0:
        raise RuleViolation(f"{add_sku} is not an item in stock", field="add_sku", hint="list items with stock above 0")
    if add_sku in ship.skus:
        raise Conflict(f"{add_sku} is already in the box", field="add_sku", hint="pick a different item")
    return ctx.update(ship, skus=tuple(add_sku if s == remove_sku else s for s in ship.skus))


@service.tool(
    intent="pause the subscription",
    write=True,
    example=first_example(Subscription, "subscription_id", where={"status": "active"}, months=1),
)
def pause_subscription(ctx: Ctx, subscription_id: SubscriptionId, months: Annotated[int, Field(ge=1)]) -> Subscription:
    """Pause an active subscription for 1-3 months: boxes shipping before it resumes are skipped.

    Args:
        subscription_id: The subscription.
        months: How many months to pause (1-3).
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "active":
        raise RuleViolation(f"subscription {sub.id} is {sub.status}", field="subscription_id", hint="only active ones")
    if months > MAX_PAUSE_MONTHS:
        raise RuleViolation(
            f"a pause lasts at most {MAX_PAUSE_MONTHS} months", field="months", hint="cancel instead, or pause less"
        )
    until = add_months(ctx.today(), months)
    for ship in ctx.where(Shipment, subscription_id=sub.id, status="queued"):
        box = ctx.get(Box, ship.box_id)
        if box.status == "planned" and box.ship_date < until:
            ctx.update(ship, status="skipped")
    return ctx.update(sub, status="paused", paused_until=until, next_charge_date=until)


@service.tool(
    intent="resume the subscription",
    write=True,
    example=first_example(Subscription, "subscription_id", where={"status": "paused"}),
)
def resume_subscription(ctx: Ctx, subscription_id: SubscriptionId) -> Subscription:
    """Resume a paused subscription now; it is queued again for boxes still before their cutoff.

    Args:
        subscription_id: The subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status != "paused":
        raise RuleViolation(f"subscription {sub.id} is {sub.status}", field="subscription_id", hint="only paused ones")
    ahead = _upcoming(ctx, sub.plan_id)
    for box in ahead:
        ship = ctx.first(Shipment, subscription_id=sub.id, box_id=box.id)
        if ship is None:
            _queue(ctx, sub, box)
        elif ship.status == "skipped":
            ctx.update(ship, status="queued")
    first = min((b.ship_date for b in ahead), default=ctx.today() + dt.timedelta(days=1))
    return ctx.update(sub, status="active", paused_until=None, next_charge_date=first)


@service.tool(
    intent="cancel the subscription",
    write=True,
    destructive=True,
    example=first_example(Subscription, "subscription_id", where={"status": "active"}, reason="too_expensive"),
)
def cancel_subscription(ctx: Ctx, subscription_id: SubscriptionId, reason: CancelReason) -> Subscription:
    """Cancel an active or paused subscription with a reason; its boxes not yet shipped are cancelled.

    Args:
        subscription_id: The subscription.
        reason: too_expensive, not_enough_use, product_quality, moving or other.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if sub.status == "cancelled":
        raise Conflict(f"subscription {sub.id} is already cancelled", field="subscription_id", hint="nothing to do")
    for status in ("queued", "skipped"):
        for ship in ctx.where(Shipment, subscription_id=sub.id, status=status):
            ctx.update(ship, status="cancelled")
    return ctx.update(sub, status="cancelled", cancellation_reason=reason, next_charge_date=None, paused_until=None)


def _example_plan_box(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(Plan, status="active")
    if plan is None:
        return None
    month = add_months(ctx.today(), 3)
    skus = [i.sku for i in ctx.where(Item) if i.stock > 0][: plan.box_size]
    return {
        "plan_id": plan.id,
        "month": f"{month:%Y-%m}",
        "skus": skus,
        "ship_date": month.replace(day=15).isoformat(),
    }


@service.tool(intent="plan a box", write=True, example=_example_plan_box)
def plan_box(ctx: Ctx, plan_id: PlanId, month: Month, skus: list[Sku], ship_date: Date) -> Box:
    """Plan an active plan's box for a month: its items and ship date; every active subscriber is queued.

    Args:
        plan_id: The plan.
        month: The shipment month, YYYY-MM (one box per plan and month).
        skus: The items, at most the plan's box size, each once, each a known item.
        ship_date: When it ships: in that month, after the cutoff days from today.
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if plan.status != "active":
        raise RuleViolation(f"plan {plan.name!r} is archived", field="plan_id", hint="pick an active plan")
    other = ctx.first(Box, plan_id=plan.id, month=month)
    if other is not None:
        raise Conflict(f"box {other.id} is already planned for {month}", field="month", hint="pick another month")
    if not skus or len(skus) > plan.box_size or len(set(skus)) != len(skus):
        raise RuleViolation(
            f"a {plan.name!r} box holds 1 to {plan.box_size} different items",
            field="skus",
            hint="list each item once",
        )
    for sku in skus:
        if ctx.first(Item, sku=sku) is None:
            raise RuleViolation(f"no item has SKU {sku}", field="skus", hint="create the item first")
    cutoff = ship_date - dt.timedelta(days=plan.cutoff_days)
    if f"{ship_date:%Y-%m}" != month or cutoff < ctx.today():
        raise RuleViolation(
            f"ship_date must fall in {month} and leave {plan.cutoff_days} days before the cutoff from today",
            field="ship_date",
            hint=f"pick a day in {month} after {ctx.today() + dt.timedelta(days=plan.cutoff_days)}",
        )
    box = ctx.create(Box, plan_id=plan.id, month=month, skus=tuple(skus), ship_date=ship_date, cutoff_date=cutoff)
    for sub in ctx.where(Subscription, plan_id=plan.id, status="active"):
        _queue(ctx, sub, box)
    return box


def _tracking(box: Box, k: int) -> str:
    return f"1Z{box.id.replace('_', '').upper()}{k:06d}"


@service.tool(
    intent="ship the box",
    write=True,
    example=first_example(Box, "box_id", where={"status": "locked"}),
)
def ship_box(ctx: Ctx, box_id: BoxId) -> Box:
    """Ship a locked box: every queued shipment is charged the plan price, stock is taken and tracking assigned.

    Args:
        box_id: The box.
    """
    box = ctx.get(Box, box_id, field="box_id")
    if box.status != "locked":
        raise RuleViolation(
            f"box {box.id} is {box.status}", field="box_id", hint="lock it with subscriptionbox__lock_box first"
        )
    plan = ctx.get(Plan, box.plan_id)
    queued = ctx.where(Shipment, box_id=box.id, status="queued")
    need: dict[str, int] = {}
    for ship in queued:
        for sku in ship.skus:
            need[sku] = need.get(sku, 0) + 1
    for sku, count in sorted(need.items()):
        item = ctx.first(Item, sku=sku)
        if item is None or item.stock < count:
            raise RuleViolation(
                f"{sku}: {count} needed, {0 if item is None else item.stock} in stock",
                field="box_id",
                hint=f"restock {sku} with subscriptionbox__update_item",
            )
    for sku, count in need.items():
        item = ctx.first(Item, sku=sku)
        if item is not None:
            ctx.update(item, stock=item.stock - count)
    for k, ship in enumerate(queued):
        ctx.update(ship, status="shipped", amount=plan.price, tracking_number=_tracking(box, k), shipped_at=ctx.now())
        sub = ctx.get(Subscription, ship.subscription_id)
        ctx.update(
            sub,
            boxes_shipped=sub.boxes_shipped + 1,
            next_charge_date=add_months(box.ship_date, plan.interval_months),
        )
    return ctx.update(box, status="shipped")


@service.tool(
    intent="set the box contents",
    write=True,
    example=first_example(Box, "box_id", where={"status": "planned"}, fields={"skus": "skus"}),
)
def set_box_contents(ctx: Ctx, box_id: BoxId, skus: list[Sku]) -> Box:
    """Replace a planned box's items; queued shipments without swaps follow, swapped ones keep their swap.

    Args:
        box_id: The box.
        skus: The new items, at most the plan's box size, each once.
    """
    box = ctx.get(Box, box_id, field="box_id")
    if box.status != "planned":
        raise RuleViolation(f"box {box.id} is {box.status}", field="box_id", hint="only planned boxes change")
    plan = ctx.get(Plan, box.plan_id)
    if not skus or len(skus) > plan.box_size or len(set(skus)) != len(skus):
        raise RuleViolation(f"the box holds 1 to {plan.box_size} different items", field="skus", hint="list each once")
    for sku in skus:
        if ctx.first(Item, sku=sku) is None:
            raise RuleViolation(f"no item has SKU {sku}", field="skus", hint="create the item first")
    for ship in ctx.where(Shipment, box_id=box.id):
        if ship.skus == box.skus:
            ctx.update(ship, skus=tuple(skus))
    return ctx.update(box, skus=tuple(skus))


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[str, str, Interval, float, int], ...] = (
    ("Office Essentials Box", "office", 1, 0.35, 3),
    ("Home Comforts Box", "home", 1, 0.3, 3),
    ("Outdoor Adventure Quarterly", "outdoor", 3, 0.3, 2),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Plans from the catalogue's categories, consumers subscribed, a shipped box, a locked one and a planned one."""
    pop = s.population
    today = s.now.date()
    made_items = {
        p.sku: s.create(
            Item,
            sku=p.sku,
            name=p.name,
            stock=40 + 7 * (k % 5),
            created_at=s.ago(days=300),
            updated_at=s.ago(days=3),
        )
        for k, p in enumerate(pop.products)
    }
    people = [
        s.create(Subscriber, email=p.email, first_name=p.first_name, last_name=p.last_name, created_at=s.ago(days=200))
        for p in pop.consumers[:18]
    ]
    for k, (name, category, interval, share, size) in enumerate(PLANS):
        skus = [p.sku for p in pop.products if p.category == category and p.sku in made_items]
        price = round(sum(p.price_cents for p in pop.products if p.sku in skus[:size]) * share / 100) * 100
        plan = s.create(
            Plan,
            name=name,
            interval_months=interval,
            price=max(price, 1500),
            box_size=size,
            cutoff_days=5,
            created_at=s.ago(days=365),
            updated_at=s.ago(days=30),
        )
        members = people[k * 6 : k * 6 + 6]
        subs = []
        for j, who in enumerate(members):
            status: SubStatus = "cancelled" if j == 5 else "paused" if j == 4 else "active"
            subs.append(
                s.create(
                    Subscription,
                    subscriber_id=who.id,
                    email=who.email,
                    plan_id=plan.id,
                    status=status,
                    next_charge_date=None if status == "cancelled" else today + dt.timedelta(days=3 if k == 0 else 12),
                    paused_until=add_months(today, 2) if status == "paused" else None,
                    cancellation_reason="too_expensive" if status == "cancelled" else None,
                    boxes_shipped=1,
                    created_at=s.ago(days=120 - j),
                    updated_at=s.ago(days=10),
                )
            )
        _seed_boxes(s, plan, subs, skus, k)


def _seed_boxes(s: SeedContext, plan: Plan, subs: list[Subscription], skus: list[str], k: int) -> None:
    today = s.now.date()
    step = plan.interval_months
    specs: list[tuple[BoxStatus, dt.date]] = [
        ("shipped", add_months(today, -step).replace(day=min(today.day, 28))),
        ("locked" if k == 0 else "planned", today + dt.timedelta(days=3 if k == 0 else 12)),
    ]
    for n, (status, ship_date) in enumerate(specs):
        contents = tuple(skus[n : n + plan.box_size]) or tuple(skus[: plan.box_size])
        box = s.create(
            Box,
            plan_id=plan.id,
            month=f"{ship_date:%Y-%m}",
            skus=contents,
            ship_date=ship_date,
            cutoff_date=ship_date - dt.timedelta(days=plan.cutoff_days),
            status=status,
            created_at=s.ago(days=60),
            updated_at=s.ago(days=1),
        )
        for j, sub in enumerate(subs):
            if status == "shipped":
                ship_status: ShipmentStatus = "delivered" if j % 2 else "shipped"
            elif sub.status == "cancelled":
                continue
            else:
                ship_status = "skipped" if sub.status == "paused" or j == 3 else "queued"
            swapped = contents
            if status != "shipped" and j == 2 and len(skus) > plan.box_size + n:
                swapped = (skus[plan.box_size + n], *contents[1:])
            s.create(
                Shipment,
                box_id=box.id,
                subscription_id=sub.id,
                email=sub.email,
                skus=swapped,
                status=ship_status,
                amount=plan.price if status == "shipped" else 0,
                tracking_number=_tracking(box, j) if status == "shipped" else None,
                shipped_at=s.ago(days=(today - ship_date).days) if status == "shipped" else None,
                created_at=s.ago(days=40),
                updated_at=s.ago(days=1),
            )
