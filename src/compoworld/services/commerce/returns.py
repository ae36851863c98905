"""Loopback Returns: the shop's return portal: return requests, the return policy, labels, restocking, outcomes.

Modeled on the Loop Returns API (returns with line items and outcomes; the
return policy and its return window; approve, reject, cancel, process/close;
shipping labels; restock; exchange, refund and store-credit outcomes with
bonus credit and handling fees). Delivered orders synced from the shop can be
returned within the policy's window (counted from delivery); final-sale items
and more units than were ordered (less those in other live returns) cannot. A
return is open, then approved (a prepaid label is issued, except for returns
cheap enough to keep, which need no shipping and count as received), received
(each item restocked or not), and closed, when its outcome is settled; an open
return can be rejected, an open or approved one cancelled. Refunds pay the
items less the restocking fee; store credit pays them plus the bonus; an
exchange ships another product that must be in stock, the customer paying a
higher price's difference and getting a lower one's back as store credit.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Sku,
    Text,
    TrackingNumber,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.world.commerce import first_order_number, places_first_order, seeded_tracking_number, tracking_url

__all__ = ["service"]

service = Service(
    "returns",
    title="Loopback Returns",
    category="returns",
    modeled_on="Loop Returns API (returns and their line items, return policy and window, approve / reject / "
    "cancel / close, prepaid labels, restocking, exchange, refund and store-credit outcomes)",
    description="The shop's returns: delivered orders and their return eligibility, return requests with reasons, "
    "the return window and final-sale rules, approval with prepaid labels, receiving and restocking items, and "
    "settling refunds, store credit with bonus, or exchanges for items in stock.",
)

OrderId = Annotated[str, IdOf("returns.order")]
ReturnId = Annotated[str, IdOf("returns.return")]
PolicyId = Annotated[str, IdOf("returns.policy")]
ProductId = Annotated[str, IdOf("returns.product")]

Reason = Literal["too_small", "too_large", "damaged", "defective", "not_as_described", "changed_mind", "wrong_item"]
Outcome = Literal["refund", "store_credit", "exchange"]
Status = Literal["open", "approved", "received", "closed", "rejected", "cancelled"]
Carrier = Literal["ups", "fedex", "usps"]

LIVE: tuple[str, ...] = ("open", "approved", "received", "closed")
"""Statuses whose items count against what an order can still return."""


class OrderLine(Value):
    """A line of a synced order."""

    sku: Sku
    """The product's SKU."""
    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The product's name."""
    quantity: Annotated[int, Field(ge=1, le=1000)]
    """Units bought."""
    price_cents: Cents
    """Unit price paid."""
    final_sale: bool = False
    """Whether it was sold as final sale (not returnable)."""


class Order(Record):
    """An order synced from the shop, with when it was delivered."""

    id: OrderId
    order_number: OrderNumber
    """The shop's order number."""
    customer_email: Email
    """The buyer."""
    customer_name: PersonName
    """The buyer's name."""
    lines: tuple[OrderLine, ...]
    """What was bought."""
    total_cents: Cents
    """What was paid for the items."""
    currency: Literal["USD"] = "USD"
    """The currency."""
    delivered_on: Date | None = None
    """When it was delivered (None: not yet)."""


class Product(Record):
    """A product and its stock, for exchanges and restocking."""

    id: ProductId
    sku: Sku
    """The SKU."""
    name: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """The product's name."""
    price_cents: Cents
    """Its current price."""
    stock: Annotated[int, Field(ge=0)]
    """Units available to ship."""


class Policy(Record):
    """The shop's return policy."""

    id: PolicyId
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    """The policy's name."""
    return_window_days: Annotated[int, Field(ge=1, le=365)] = 30
    """Days after delivery a return can be started."""
    restocking_fee_percent: Annotated[float, Field(ge=0, le=50)] = 0.0
    """What a refund keeps back, in percent of the items (exchanges and store credit pay none)."""
    store_credit_bonus_percent: Annotated[float, Field(ge=0, le=50)] = 0.0
    """Extra credit for choosing store credit, in percent of the items."""
    keep_item_threshold_cents: Annotated[int, Field(ge=0, le=100_000)] = 0
    """Returns worth at most this are not shipped back (keep the item)."""
    exchanges_enabled: bool = True
    """Whether customers may choose an exchange."""


class ReturnItem(Value):
    """One returned item."""

    sku: Sku
    """The SKU returned."""
    quantity: Annotated[int, Field(ge=1, le=1000)]
    """Units returned."""
    reason: Reason
    """Why."""
    price_cents: Cents = 0
    """Unit price paid (filled from the order)."""
    restocked: bool | None = None
    """Whether it went back to stock (set when received)."""


class ReturnLabel(Value):
    """A prepaid return label."""

    carrier: Carrier
    """The carrier."""
    tracking_number: TrackingNumber
    """Its tracking number."""
    label_url: Url
    """Where the customer follows the parcel."""


class Return(Record):
    """A return request and how it is settled."""

    id: ReturnId
    order_id: OrderId
    """The order."""
    order_number: OrderNumber
    """Its number."""
    customer_email: Email
    """The customer."""
    items: tuple[ReturnItem, ...]
    """What is returned."""
    outcome: Outcome
    """refund, store_credit or exchange."""
    exchange_sku: Sku | None = None
    """What an exchange ships instead."""
    status: Status = "open"
    """open, approved, received, closed, rejected or cancelled."""
    items_total_cents: Cents
    """The returned items' value."""
    restocking_fee_cents: Cents = 0
    """Kept back from a refund."""
    bonus_cents: Cents = 0
    """Extra store credit."""
    refund_cents: Cents = 0
    """Paid back (set when closed)."""
    store_credit_cents: Cents = 0
    """Given as store credit (set when closed)."""
    upsell_cents: Cents = 0
    """What the customer pays on top for a dearer exchange (set when closed)."""
    keep_item: bool = False
    """Whether the customer keeps the item (no shipping back)."""
    label: ReturnLabel | None = None
    """The prepaid label."""
    customer_note: Text = ""
    """What the customer wrote."""
    rejected_reason: Text | None = None
    """Why it was rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""
    closed_at: DateTime | None = None
    """When it was closed."""


class LineEligibility(Value):
    """Whether a line of an order can be returned."""

    sku: Sku
    """The SKU."""
    returnable_quantity: int
    """Units that can still be returned."""
    reason: str
    """Why not, or 'eligible'."""


class Eligibility(Value):
    """What an order can still return."""

    order_number: OrderNumber
    """The order."""
    within_window: bool
    """Whether the return window is open."""
    window_ends_on: Date | None
    """The last day to start a return."""
    lines: tuple[LineEligibility, ...]
    """Each line."""


# -- rules ------------------------------------------------------------------------------------


def _policy(ctx: Ctx) -> Policy:
    policy = ctx.first(Policy)
    if policy is None:
        raise RuleViolation("the shop has no return policy", field=None, hint="set up a return policy first")
    return policy


def _window_end(order: Order, policy: Policy) -> dt.date | None:
    return None if order.delivered_on is None else order.delivered_on + dt.timedelta(days=policy.return_window_days)


def _returned(ctx: Ctx, order: Order, skip: str | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    for ret in ctx.where(Return, order_id=order.id):
        if ret.status in LIVE and ret.id != skip:
            for item in ret.items:
                out[item.sku] = out.get(item.sku, 0) + item.quantity
    return out


def _eligibility(ctx: Ctx, order: Order) -> Eligibility:
    policy = _policy(ctx)
    end = _window_end(order, policy)
    inside = end is not None and ctx.today() <= end
    taken = _returned(ctx, order)
    lines = []
    for line in order.lines:
        left = line.quantity - taken.get(line.sku, 0)
        why = (
            "final sale"
            if line.final_sale
            else "not delivered yet"
            if end is None
            else "return window closed"
            if not inside
            else "already returned"
            if left <= 0
            else "eligible"
        )
        lines.append(LineEligibility(sku=line.sku, returnable_quantity=left if why == "eligible" else 0, reason=why))
    return Eligibility(order_number=order.order_number, within_window=inside, window_ends_on=end, lines=tuple(lines))


def _money(cents: int) -> str:
    return f"{cents / 100:,.2f}"


def _percent(cents: int, rate: float) -> int:
    return round(cents * rate / 100)


# -- resources --------------------------------------------------------------------------------


def _guard_policy(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.exchanges_enabled:
        pending = [r for r in ctx.where(Return, outcome="exchange") if r.status in ("open", "approved", "received")]
        if pending:
            raise RuleViolation(
                f"{len(pending)} exchange(s) are still in progress",
                field="exchanges_enabled",
                hint="close or cancel them before turning exchanges off",
            )


policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=False,
    filters=None,
    update=(
        "return_window_days",
        "restocking_fee_percent",
        "store_credit_bonus_percent",
        "keep_item_threshold_cents",
        "exchanges_enabled",
    ),
    delete=False,
    guard_update=_guard_policy,
    title="return policy",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    get=False,
    filters=("order_number", "customer_email", "delivered_on"),
    search=("customer_name",),
    delete=False,
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
returns = service.resource(
    Return,
    name="return",
    plural="returns",
    prefix="ret",
    create=False,
    filters=("order_id", "order_number", "customer_email", "status", "outcome"),
    search=("customer_note",),
    delete=False,
    transitions={
        "cancel": Transition(
            "status",
            ("open", "approved"),
            "cancelled",
            "cancel the return",
            description="Cancel a return the customer no longer sends (open or approved, before it is received); "
            "its items can be returned again.",
            destructive=True,
        )
    },
)


# -- examples ---------------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.scan(Order):
        for line in _eligibility(ctx, order).lines:
            if line.returnable_quantity:
                return {
                    "order_id": order.id,
                    "items": [{"sku": line.sku, "quantity": 1, "reason": "too_small"}],
                    "outcome": "store_credit",
                }
    return None


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    ret = ctx.first(Return, status="approved", keep_item=False)
    return None if ret is None else {"return_id": ret.id, "restock_skus": [ret.items[0].sku]}


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="check what the order can return", example=first_example(Order, "order_id"))
def check_eligibility(ctx: Ctx, order_id: OrderId) -> Eligibility:
    """What each line of an order can still return, and until when.

    Args:
        order_id: The order.
    """
    return _eligibility(ctx, ctx.get(Order, order_id, field="order_id"))


@service.tool(intent="start a return", write=True, example=_example_create)
def create_return(
    ctx: Ctx,
    order_id: OrderId,
    items: list[ReturnItem],
    outcome: Outcome,
    exchange_sku: Sku | None = None,
    customer_note: Text = "",
) -> Return:
    """Start a return of items of a delivered order, within the return window; it is open until reviewed.

    Final-sale items cannot be returned, nor more units than were bought less
    those in other live returns. An exchange names a product in stock (and the
    policy must allow exchanges); only exchanges name one.

    Args:
        order_id: The order.
        items: The SKUs, quantities and reasons.
        outcome: refund, store_credit or exchange.
        exchange_sku: The product an exchange ships.
        customer_note: What the customer says.
    """
    order = ctx.get(Order, order_id, field="order_id")
    policy = _policy(ctx)
    check = _eligibility(ctx, order)
    if order.delivered_on is None:
        raise RuleViolation(
            f"order {order.order_number} is not delivered yet", field="order_id", hint="returns open on delivery"
        )
    if not check.within_window:
        raise RuleViolation(
            f"the {policy.return_window_days}-day return window of {order.order_number} closed on "
            f"{check.window_ends_on}",
            field="order_id",
            hint="the order can no longer be returned; offer support through the helpdesk instead",
        )
    if not items:
        raise RuleViolation("name at least one item", field="items", hint="list the SKUs to return")
    by_sku = {line.sku: line for line in order.lines}
    left = {line.sku: line.returnable_quantity for line in check.lines}
    wanted: dict[str, int] = {}
    for item in items:
        wanted[item.sku] = wanted.get(item.sku, 0) + item.quantity
    total = 0
    filled = []
    for item in items:
        line = by_sku.get(item.sku)
        if line is None:
            raise RuleViolation(
                f"{item.sku} is not part of order {order.order_number}",
                field="items",
                hint=f"return one of: {', '.join(by_sku)}",
            )
        if line.final_sale:
            raise RuleViolation(f"{item.sku} was a final sale", field="items", hint="final-sale items are not returned")
        if wanted[item.sku] > left[item.sku]:
            raise RuleViolation(
                f"only {left[item.sku]} unit(s) of {item.sku} can still be returned",
                field="items",
                hint="lower the quantity; other returns already hold the rest",
            )
        filled.append(item.model_copy(update={"price_cents": line.price_cents, "restocked": None}))
        total += line.price_cents * item.quantity
    if outcome == "exchange":
        if not policy.exchanges_enabled:
            raise RuleViolation("the policy offers no exchanges", field="outcome", hint="choose refund or store_credit")
        if exchange_sku is None:
            raise RuleViolation("an exchange names the product to ship", field="exchange_sku", hint="give its SKU")
        product = ctx.first(Product, sku=exchange_sku)
        if product is None or product.stock == 0:
            raise RuleViolation(
                f"{exchange_sku} is {'unknown' if product is None else 'out of stock'}",
                field="exchange_sku",
                hint="pick a product in stock, or choose refund or store_credit",
            )
    elif exchange_sku is not None:
        raise RuleViolation(
            "only an exchange names a product to ship", field="exchange_sku", hint="leave it out or choose exchange"
        )
    fee = _percent(total, policy.restocking_fee_percent) if outcome == "refund" else 0
    bonus = _percent(total, policy.store_credit_bonus_percent) if outcome == "store_credit" else 0
    return ctx.create(
        Return,
        order_id=order.id,
        order_number=order.order_number,
        customer_email=order.customer_email,
        items=tuple(filled),
        outcome=outcome,
        exchange_sku=exchange_sku,
        items_total_cents=total,
        restocking_fee_cents=fee,
        bonus_cents=bonus,
        customer_note=customer_note,
    )


@service.tool(
    intent="approve the return",
    write=True,
    example=first_example(Return, "return_id", where={"status": "open"}, carrier="ups"),
)
def approve_return(ctx: Ctx, return_id: ReturnId, carrier: Carrier = "ups") -> Return:
    """Approve an open return: a prepaid label is issued, or the customer keeps a cheap item.

    A return worth no more than the policy's keep-item threshold is not shipped
    back: the customer keeps the item and the return counts as received.

    Args:
        return_id: The return.
        carrier: The label's carrier.
    """
    ret = ctx.get(Return, return_id, field="return_id")
    if ret.status != "open":
        raise Conflict(f"return {ret.id} is {ret.status}", field="return_id", hint="only open returns are reviewed")
    policy = _policy(ctx)
    if ret.items_total_cents <= policy.keep_item_threshold_cents:
        items = tuple(i.model_copy(update={"restocked": False}) for i in ret.items)
        return ctx.update(ret, status="received", keep_item=True, items=items)
    number = seeded_tracking_number(ctx.rng.randint(0, 10**9), ret.id, carrier)
    label = ReturnLabel(carrier=carrier, tracking_number=number, label_url=tracking_url(carrier, number))
    return ctx.update(ret, status="approved", label=label)


@service.tool(
    intent="reject the return",
    write=True,
    destructive=True,
    example=first_example(Return, "return_id", where={"status": "open"}, reason="Item shows signs of wear."),
)
def reject_return(ctx: Ctx, return_id: ReturnId, reason: Text) -> Return:
    """Reject an open return, saying why; its items can be returned again in a new request.

    Args:
        return_id: The return.
        reason: Why (shown to the customer).
    """
    ret = ctx.get(Return, return_id, field="return_id")
    if ret.status != "open":
        raise Conflict(f"return {ret.id} is {ret.status}", field="return_id", hint="only open returns are reviewed")
    if not reason.strip():
        raise RuleViolation("say why the return is rejected", field="reason", hint="give a reason")
    return ctx.update(ret, status="rejected", rejected_reason=reason.strip())


@service.tool(intent="receive the returned items", write=True, example=_example_receive)
def receive_return(ctx: Ctx, return_id: ReturnId, restock_skus: list[Sku] | None = None) -> Return:
    """Record that an approved return arrived; the SKUs listed go back to stock, the others (damaged) do not.

    Args:
        return_id: The return.
        restock_skus: Returned SKUs fit to sell again.
    """
    ret = ctx.get(Return, return_id, field="return_id")
    if ret.status != "approved":
        raise RuleViolation(
            f"return {ret.id} is {ret.status}; only approved returns arrive",
            field="return_id",
            hint="approve it first" if ret.status == "open" else "nothing to receive",
        )
    restock = set(restock_skus or ())
    unknown = restock - {i.sku for i in ret.items}
    if unknown:
        raise RuleViolation(
            f"{', '.join(sorted(unknown))} is not part of return {ret.id}",
            field="restock_skus",
            hint="list only returned SKUs",
        )
    items = []
    for item in ret.items:
        back = item.sku in restock
        if back:
            product = ctx.first(Product, sku=item.sku)
            if product is not None:
                ctx.update(product, stock=product.stock + item.quantity)
        items.append(item.model_copy(update={"restocked": back}))
    return ctx.update(ret, status="received", items=tuple(items))


@service.tool(
    intent="close the return and settle it",
    write=True,
    example=first_example(Return, "return_id", where={"status": "received"}),
)
def close_return(ctx: Ctx, return_id: ReturnId) -> Return:
    """Close a received return and settle its outcome.

    A refund pays the items less the restocking fee; store credit the items plus
    the bonus; an exchange ships the new product (it must still be in stock):
    a dearer one costs the customer the difference, a cheaper one leaves the
    difference as store credit.

    Args:
        return_id: The return.
    """
    ret = ctx.get(Return, return_id, field="return_id")
    if ret.status != "received":
        raise RuleViolation(
            f"return {ret.id} is {ret.status}; only received returns are closed",
            field="return_id",
            hint="receive it first" if ret.status == "approved" else "nothing to close",
        )
    total = ret.items_total_cents
    if ret.outcome == "refund":
        return ctx.update(ret, status="closed", refund_cents=total - ret.restocking_fee_cents, closed_at=ctx.now())
    if ret.outcome == "store_credit":
        return ctx.update(ret, status="closed", store_credit_cents=total + ret.bonus_cents, closed_at=ctx.now())
    product = ctx.first(Product, sku=ret.exchange_sku or "")
    if product is None or product.stock == 0:
        raise RuleViolation(
            f"{ret.exchange_sku} is out of stock",
            field="return_id",
            hint="restock it, or cancel this return and start one for a refund or store credit",
        )
    ctx.update(product, stock=product.stock - 1)
    diff = product.price_cents - total
    return ctx.update(
        ret,
        status="closed",
        upsell_cents=max(diff, 0),
        store_credit_cents=max(-diff, 0),
        closed_at=ctx.now(),
    )


# -- seed -------------------------------------------------------------------------------------

REASONS: tuple[Reason, ...] = ("too_small", "damaged", "changed_mind", "not_as_described", "too_large", "defective")
NOTES = ("Runs small.", "Arrived with a cracked corner.", "", "Colour differs from the photos.", "", "Stopped working.")


@service.seeder
def seed(s: SeedContext) -> None:
    """The policy, the catalog's products with stock, delivered orders of the population's consumers, returns."""
    pop = s.population
    s.create(
        Policy,
        name="Standard returns",
        return_window_days=30,
        restocking_fee_percent=10.0,
        store_credit_bonus_percent=5.0,
        keep_item_threshold_cents=3000,
        exchanges_enabled=True,
    )
    catalog = list(pop.products)
    for k, p in enumerate(catalog):
        s.create(Product, sku=p.sku, name=p.name, price_cents=p.price_cents, stock=0 if k % 9 == 4 else 5 + k % 20)
    today = s.now.date()
    made: list[Order] = []
    for i, person in enumerate(pop.consumers[:40]):
        if not places_first_order(i):
            continue
        picks = [catalog[(3 * i + j) % len(catalog)] for j in range(1 + i % 3)]
        lines = tuple(
            OrderLine(
                sku=p.sku,
                name=p.name,
                quantity=1 + (i + j) % 2,
                price_cents=p.price_cents,
                final_sale=(i + j) % 7 == 3,
            )
            for j, p in enumerate(picks)
        )
        delivered = None if i % 6 == 5 else today - dt.timedelta(days=2 + (7 * i) % 50)
        made.append(
            s.create(
                Order,
                order_number=first_order_number(i),
                customer_email=person.email,
                customer_name=person.name,
                lines=lines,
                total_cents=sum(li.price_cents * li.quantity for li in lines),
                delivered_on=delivered,
            )
        )
    plan: tuple[tuple[Status, Outcome], ...] = (
        ("open", "refund"),
        ("open", "exchange"),
        ("approved", "store_credit"),
        ("received", "refund"),
        ("closed", "refund"),
        ("closed", "store_credit"),
        ("rejected", "refund"),
        ("cancelled", "exchange"),
        ("open", "store_credit"),
        ("approved", "exchange"),
    )
    inside = [
        o
        for o in made
        if o.delivered_on and (today - o.delivered_on).days <= 30 and any(not li.final_sale for li in o.lines)
    ]
    for k, (status, outcome) in enumerate(plan):
        if k >= len(inside):
            break
        _seed_return(s, inside[k], status, outcome, k, catalog[(5 * k + 1) % len(catalog)].sku)


def _seed_return(s: SeedContext, order: Order, status: Status, outcome: Outcome, k: int, swap: str) -> None:
    line = next((li for li in order.lines if not li.final_sale), None)
    if line is None:
        return
    if outcome == "exchange" and next(p for p in s.records(Product) if p.sku == swap).stock == 0:
        outcome = "store_credit"
    total = line.price_cents
    item = ReturnItem(sku=line.sku, quantity=1, reason=REASONS[k % len(REASONS)], price_cents=total)
    fee = round(total * 0.10) if outcome == "refund" else 0
    bonus = round(total * 0.05) if outcome == "store_credit" else 0
    extra: dict[str, Any] = {}
    keep = total <= 3000
    if keep and status in ("approved", "received", "closed"):
        status = "received" if status == "approved" else status
        extra["keep_item"] = True
    elif status in ("approved", "received", "closed"):
        number = seeded_tracking_number(s.rng.randint(0, 10**9), order.order_number, "ups")
        extra["label"] = ReturnLabel(carrier="ups", tracking_number=number, label_url=tracking_url("ups", number))
    if status in ("received", "closed"):
        item = item.model_copy(update={"restocked": not keep and item.reason not in ("damaged", "defective")})
    if status == "closed":
        extra["closed_at"] = s.now - dt.timedelta(days=1)
        extra["refund_cents" if outcome == "refund" else "store_credit_cents"] = (
            total - fee if outcome == "refund" else total + bonus
        )
    if status == "rejected":
        extra["rejected_reason"] = "The item shows signs of use."
    when = s.now - dt.timedelta(days=6 - k % 5, hours=k)
    s.create(
        Return,
        order_id=order.id,
        order_number=order.order_number,
        customer_email=order.customer_email,
        items=(item,),
        outcome=outcome,
        exchange_sku=swap if outcome == "exchange" else None,
        status=status,
        items_total_cents=total,
        restocking_fee_cents=fee,
        bonus_cents=bonus,
        customer_note=NOTES[k % len(NOTES)],
        created_at=when,
        updated_at=when + dt.timedelta(hours=3),
        **extra,
    )
