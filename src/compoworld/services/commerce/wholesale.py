"""Tradeloft Wholesale: a B2B marketplace of brands, retailers on net terms, wholesale orders, payouts and returns.

Modeled on the Faire External API v2 (``/brands``, ``/products`` with wholesale and retail prices and
case packs, ``/retailers``, ``/orders`` with states NEW → PROCESSING → IN_TRANSIT → DELIVERED, or
BACKORDERED / CANCELED, ``/orders/{id}/shipments``, brand payouts and returns) with JOOR's order
minimums and retailer credit: a retailer on net terms orders case packs of a brand's active products;
a first order must reach the brand's opening minimum and a reorder its reorder minimum; net-terms
orders must fit the retailer's remaining credit (prepay retailers pay up front). Accepting reserves
stock (or backorders what is short), shipping needs a tracking number and creates the brand's payout
(order less a 25 % commission on a retailer's first order with the brand, 15 % on reorders), and an
order is canceled only before it ships, releasing stock and credit. Delivered orders may be returned
within 60 days, never for more than was paid.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Quantity,
    Sku,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "wholesale",
    title="Tradeloft Wholesale",
    category="wholesale",
    modeled_on="Faire External API v2 (brands, products, retailers, orders and states, shipments, payouts, "
    "returns) with JOOR order minimums and retailer credit terms",
    description="A wholesale marketplace where brands sell to independent retailers: brand catalogues with "
    "wholesale prices and case packs, retailers on net terms with credit limits, wholesale orders with opening "
    "and reorder minimums, order states from new to delivered, brand payouts after commission, and returns.",
)

BrandId = Annotated[str, IdOf("wholesale.brand")]
ProductId = Annotated[str, IdOf("wholesale.product")]
RetailerId = Annotated[str, IdOf("wholesale.retailer")]
OrderId = Annotated[str, IdOf("wholesale.order")]
PayoutId = Annotated[str, IdOf("wholesale.payout")]
ReturnId = Annotated[str, IdOf("wholesale.return_request")]

OrderState = Literal["new", "processing", "backordered", "in_transit", "delivered", "canceled"]
Terms = Literal["net30", "net60", "prepay"]
FIRST_ORDER_COMMISSION = 25.0
REORDER_COMMISSION = 15.0
RETURN_WINDOW = dt.timedelta(days=60)
OPEN: tuple[OrderState, ...] = ("new", "processing", "backordered")


class Brand(Record):
    """A brand selling on the marketplace."""

    id: BrandId
    name: CompanyName
    """The brand's company."""
    contact_email: Email
    """The brand's wholesale contact."""
    opening_minimum: Cents
    """Minimum wholesale total of a retailer's first order, in cents."""
    reorder_minimum: Cents = 0
    """Minimum of later orders, in cents."""
    lead_time_days: Annotated[int, Field(ge=0, le=120)] = 7
    """Days to ship an accepted order."""
    status: Literal["active", "paused"] = "active"
    """active, or paused (takes no orders)."""


class Product(Record):
    """A brand's product sold in case packs."""

    id: ProductId
    brand_id: BrandId
    """The brand."""
    sku: Sku
    """Stock keeping unit (unique)."""
    name: Title
    """Product name."""
    wholesale_price: Cents
    """Unit price to retailers, in cents."""
    retail_price: Cents
    """Suggested retail price (MSRP), in cents."""
    case_pack: Annotated[int, Field(ge=1, le=500)] = 1
    """Units per case; orders come in whole cases."""
    stock: Quantity = 0
    """Units available."""
    active: bool = True
    """Whether retailers can order it."""


class Retailer(Record):
    """An independent store buying wholesale."""

    id: RetailerId
    name: CompanyName
    """The store's company."""
    contact_email: Email
    """The buyer's e-mail."""
    city: City
    """Where the store is."""
    country: Country
    """Its country."""
    terms: Terms = "net60"
    """net30, net60 or prepay."""
    credit_limit: Cents = 0
    """Net-terms credit in cents."""
    outstanding: Cents = 0
    """Unpaid net-terms orders in cents."""
    status: Literal["active", "suspended"] = "active"
    """active or suspended (cannot order)."""


class Line(Value):
    """One line of a wholesale order."""

    product_id: ProductId
    """The product."""
    sku: Sku
    """Its SKU."""
    quantity: Annotated[int, Field(ge=1, le=100000)]
    """Units (whole cases)."""
    unit_price: Cents
    """Wholesale unit price in cents."""
    subtotal: Cents
    """quantity × unit_price."""


class Order(Record):
    """A retailer's wholesale order from one brand."""

    id: OrderId
    display_id: Annotated[OrderNumber, Generated("sequence", "WS-{n:05d}")]
    """Order number, e.g. WS-00042."""
    brand_id: BrandId
    """The brand."""
    retailer_id: RetailerId
    """The retailer."""
    lines: tuple[Line, ...]
    """The lines."""
    total: Cents
    """Wholesale total in cents."""
    is_reorder: bool
    """Whether the retailer ordered from the brand before."""
    terms: Terms
    """Payment terms of the order."""
    state: OrderState = "new"
    """new, processing, backordered, in_transit, delivered or canceled."""
    tracking_number: TrackingNumber | None = None
    """The shipment's tracking number."""
    delivered_at: DateTime | None = None
    """When it was delivered."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Payout(Record):
    """What the marketplace pays a brand for a shipped order."""

    id: PayoutId
    brand_id: BrandId
    """The brand."""
    order_id: OrderId
    """The order."""
    gross: Cents
    """Order total in cents."""
    commission_rate: float
    """Commission in percent (25 first order, 15 reorder)."""
    amount: int
    """Net amount in cents (negative for a return deduction)."""
    status: Literal["pending", "paid"] = "pending"
    """pending or paid."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class ReturnRequest(Record):
    """A retailer's request to return goods of a delivered order."""

    id: ReturnId
    order_id: OrderId
    """The order."""
    retailer_id: RetailerId
    """The retailer."""
    amount: Annotated[int, Field(ge=1, le=10**12)]
    """Wholesale value returned, in cents."""
    reason: Text
    """Why."""
    status: Literal["requested", "approved", "rejected"] = "requested"
    """requested, approved or rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


# -- rules ------------------------------------------------------------------------------------


def _order(ctx: Ctx, order_id: str, allowed: tuple[OrderState, ...], verb: str) -> Order:
    order = ctx.get(Order, order_id, field="order_id")
    if order.state not in allowed:
        raise RuleViolation(
            f"order {order.display_id} is {order.state}; only a {' or '.join(allowed)} order can be {verb}",
            field="order_id",
            hint="check its state with wholesale__get_order",
        )
    return order


def _guard_product(ctx: Ctx, new: Any, old: Any) -> None:
    if new.retail_price < new.wholesale_price:
        raise RuleViolation("retail price is below wholesale", field="retail_price", hint="MSRP ≥ wholesale price")
    if old is None:
        ctx.get(Brand, new.brand_id, field="brand_id")


def _guard_retailer(ctx: Ctx, new: Any, old: Any) -> None:
    if new.terms == "prepay" and new.credit_limit:
        raise RuleViolation("prepay retailers get no credit", field="credit_limit", hint="set it to 0 or use net terms")
    if new.credit_limit < new.outstanding:
        raise RuleViolation(
            f"{new.outstanding} cents are outstanding", field="credit_limit", hint="the limit cannot go below it"
        )


brands = service.resource(
    Brand,
    name="brand",
    plural="brands",
    prefix="b",
    create=False,
    filters=("status",),
    search=("name",),
    update=("opening_minimum", "reorder_minimum", "lead_time_days", "contact_email"),
    delete=False,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the brand's shop"),
        "resume": Transition("status", ("paused",), "active", "reopen the brand's shop"),
    },
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="p",
    create=("brand_id", "sku", "name", "wholesale_price", "retail_price", "case_pack", "stock"),
    filters=("brand_id", "sku", "active"),
    search=("name", "sku"),
    update=("name", "wholesale_price", "retail_price", "case_pack", "stock", "active"),
    delete=False,
    unique=("sku",),
    guard_create=_guard_product,
    guard_update=_guard_product,
)
retailers = service.resource(
    Retailer,
    name="retailer",
    plural="retailers",
    prefix="r",
    create=False,
    filters=("status", "terms", "country"),
    search=("name", "city"),
    update=("terms", "credit_limit", "contact_email"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the retailer"),
        "reinstate": Transition("status", ("suspended",), "active", "reinstate the retailer"),
    },
    guard_update=_guard_retailer,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="o",
    create=False,
    filters=("brand_id", "retailer_id", "state", "is_reorder", "display_id"),
    delete=False,
)
payouts = service.resource(
    Payout,
    name="payout",
    plural="payouts",
    prefix="po",
    create=False,
    get=False,
    filters=("brand_id", "order_id", "status"),
    delete=False,
    transitions={"pay": Transition("status", ("pending",), "paid", "pay the brand payout")},
)
returns = service.resource(
    ReturnRequest,
    name="return_request",
    plural="return_requests",
    prefix="ret",
    create=False,
    get=False,
    filters=("order_id", "retailer_id", "status"),
    delete=False,
    title="return",
)


# -- domain tools -----------------------------------------------------------------------------


class LineIn(Value):
    """A product and how many units to order."""

    product_id: ProductId
    """The product."""
    quantity: Annotated[int, Field(ge=1, le=100000)]
    """Units, a multiple of its case pack."""


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Retailer, status="active", terms="prepay"):
        for b in ctx.where(Brand, status="active"):
            items = [p for p in ctx.where(Product, brand_id=b.id, active=True)]
            if items:
                p = items[0]
                cases = max(1, -(-b.opening_minimum // (p.wholesale_price * p.case_pack)))
                return {
                    "retailer_id": r.id,
                    "brand_id": b.id,
                    "lines": [{"product_id": p.id, "quantity": cases * p.case_pack}],
                }
    return None


@service.tool(intent="place the wholesale order", write=True, example=_example_order)
def place_order(
    ctx: Ctx,
    retailer_id: RetailerId,
    brand_id: BrandId,
    lines: Annotated[list[LineIn], Field(min_length=1, max_length=100)],
) -> Order:
    """A retailer orders whole case packs of a brand's active products, above the brand's minimum and within credit.

    Args:
        retailer_id: The active retailer.
        brand_id: The active brand.
        lines: Products and units (multiples of each case pack, each product once).
    """
    retailer = ctx.get(Retailer, retailer_id, field="retailer_id")
    if retailer.status != "active":
        raise RuleViolation(f"retailer {retailer.name} is suspended", field="retailer_id", hint="reinstate it first")
    brand = ctx.get(Brand, brand_id, field="brand_id")
    if brand.status != "active":
        raise RuleViolation(f"brand {brand.name} is paused", field="brand_id", hint="order from an active brand")
    made: list[Line] = []
    for k, line in enumerate(lines):
        p = ctx.get(Product, line.product_id, field=f"lines[{k}].product_id")
        if p.brand_id != brand.id or not p.active:
            raise RuleViolation(
                f"{p.sku} is not an active product of {brand.name}",
                field=f"lines[{k}].product_id",
                hint="list the brand's products with wholesale__list_products",
            )
        if line.quantity % p.case_pack:
            raise RuleViolation(
                f"{p.sku} comes in cases of {p.case_pack}",
                field=f"lines[{k}].quantity",
                hint=f"order a multiple of {p.case_pack}",
            )
        if any(m.product_id == p.id for m in made):
            raise RuleViolation(f"{p.sku} is listed twice", field=f"lines[{k}].product_id", hint="merge the lines")
        made.append(
            Line(
                product_id=p.id,
                sku=p.sku,
                quantity=line.quantity,
                unit_price=p.wholesale_price,
                subtotal=line.quantity * p.wholesale_price,
            )
        )
    total = sum(m.subtotal for m in made)
    reorder = any(o.state != "canceled" for o in ctx.where(Order, retailer_id=retailer.id, brand_id=brand.id))
    minimum = brand.reorder_minimum if reorder else brand.opening_minimum
    if total < minimum:
        raise RuleViolation(
            f"the {'reorder' if reorder else 'opening order'} minimum of {brand.name} is {minimum} cents; "
            f"this order is {total}",
            field="lines",
            hint="add cases to reach the minimum",
        )
    if retailer.terms != "prepay":
        if retailer.outstanding + total > retailer.credit_limit:
            raise RuleViolation(
                f"the order exceeds {retailer.name}'s remaining credit of {retailer.credit_limit - retailer.outstanding}"
                " cents",
                field="lines",
                hint="order less, or pay outstanding invoices first",
            )
        ctx.update(retailer, outstanding=retailer.outstanding + total)
    return ctx.create(
        Order,
        brand_id=brand.id,
        retailer_id=retailer.id,
        lines=tuple(made),
        total=total,
        is_reorder=reorder,
        terms=retailer.terms,
    )


@service.tool(
    intent="accept the wholesale order", write=True, example=first_example(Order, "order_id", where={"state": "new"})
)
def accept_order(ctx: Ctx, order_id: OrderId) -> Order:
    """The brand accepts a new order: stock is reserved, or the order is backordered when any line is short.

    Args:
        order_id: The new order.
    """
    order = _order(ctx, order_id, ("new", "backordered"), "accepted")
    items = [ctx.get(Product, line.product_id) for line in order.lines]
    if any(p.stock < line.quantity for p, line in zip(items, order.lines, strict=True)):
        return ctx.update(order, state="backordered")
    for p, line in zip(items, order.lines, strict=True):
        ctx.update(p, stock=p.stock - line.quantity)
    return ctx.update(order, state="processing")


@service.tool(
    intent="ship the wholesale order",
    write=True,
    example=first_example(Order, "order_id", where={"state": "processing"}, tracking_number="1Z999AA10123456784"),
)
def ship_order(ctx: Ctx, order_id: OrderId, tracking_number: TrackingNumber) -> Payout:
    """Ship a processing order with its tracking number; the brand's payout is created after commission.

    Args:
        order_id: The processing order.
        tracking_number: The carrier's tracking number.
    """
    order = _order(ctx, order_id, ("processing",), "shipped")
    ctx.update(order, state="in_transit", tracking_number=tracking_number)
    rate = REORDER_COMMISSION if order.is_reorder else FIRST_ORDER_COMMISSION
    return ctx.create(
        Payout,
        brand_id=order.brand_id,
        order_id=order.id,
        gross=order.total,
        commission_rate=rate,
        amount=round(order.total * (100 - rate) / 100),
    )


@service.tool(
    intent="mark the wholesale order delivered",
    write=True,
    example=first_example(Order, "order_id", where={"state": "in_transit"}),
)
def mark_delivered(ctx: Ctx, order_id: OrderId) -> Order:
    """Record delivery of an order in transit; the return window opens.

    Args:
        order_id: The order in transit.
    """
    order = _order(ctx, order_id, ("in_transit",), "delivered")
    return ctx.update(order, state="delivered", delivered_at=ctx.now())


@service.tool(
    intent="cancel the wholesale order",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"state": "new"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an order that has not shipped: reserved stock and used credit are released.

    Args:
        order_id: The order.
    """
    order = _order(ctx, order_id, OPEN, "canceled")
    if order.state == "processing":
        for line in order.lines:
            p = ctx.get(Product, line.product_id)
            ctx.update(p, stock=p.stock + line.quantity)
    if order.terms != "prepay":
        r = ctx.get(Retailer, order.retailer_id)
        ctx.update(r, outstanding=max(0, r.outstanding - order.total))
    return ctx.update(order, state="canceled")


def _example_payment(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.scan(Retailer):
        if r.outstanding > 0:
            return {"retailer_id": r.id, "amount": min(r.outstanding, 10000)}
    return None


@service.tool(intent="record the retailer's payment", write=True, example=_example_payment)
def record_payment(ctx: Ctx, retailer_id: RetailerId, amount: Annotated[int, Field(ge=1, le=10**12)]) -> Retailer:
    """Record a retailer paying net-terms invoices: their outstanding balance goes down.

    Args:
        retailer_id: The retailer.
        amount: Cents paid (at most what is outstanding).
    """
    r = ctx.get(Retailer, retailer_id, field="retailer_id")
    if amount > r.outstanding:
        raise RuleViolation(f"only {r.outstanding} cents are outstanding", field="amount", hint="pay at most that")
    return ctx.update(r, outstanding=r.outstanding - amount)


def _returnable(ctx: Ctx, o: Order) -> bool:
    return o.delivered_at is not None and ctx.now() - o.delivered_at <= RETURN_WINDOW


@service.tool(
    intent="request the return",
    write=True,
    example=first_example(
        Order, "order_id", where={"state": "delivered"}, match=_returnable, amount=1000, reason="Damaged in transit"
    ),
)
def request_return(
    ctx: Ctx, order_id: OrderId, amount: Annotated[int, Field(ge=1, le=10**12)], reason: Text
) -> ReturnRequest:
    """A retailer asks to return goods of an order delivered in the last 60 days, up to what is not yet returned.

    Args:
        order_id: The delivered order.
        amount: Wholesale value to return, in cents.
        reason: Why (required).
    """
    order = _order(ctx, order_id, ("delivered",), "returned")
    if order.delivered_at is None or ctx.now() - order.delivered_at > RETURN_WINDOW:
        raise RuleViolation("the 60-day return window has closed", field="order_id", hint="contact the brand")
    if not reason.strip():
        raise RuleViolation("a return needs a reason", field="reason", hint="say what is wrong")
    taken = sum(r.amount for r in ctx.where(ReturnRequest, order_id=order.id) if r.status != "rejected")
    if taken + amount > order.total:
        raise RuleViolation(
            f"only {order.total - taken} cents can still be returned",
            field="amount",
            hint="return at most the order's remaining value",
        )
    return ctx.create(ReturnRequest, order_id=order.id, retailer_id=order.retailer_id, amount=amount, reason=reason)


def _decide(ctx: Ctx, return_id: str) -> ReturnRequest:
    ret = ctx.get(ReturnRequest, return_id, field="return_id")
    if ret.status != "requested":
        raise Conflict(f"return {ret.id} is already {ret.status}", field="return_id", hint="nothing to decide")
    return ret


_requested = first_example(ReturnRequest, "return_id", where={"status": "requested"})


@service.tool(intent="approve the return", write=True, example=_requested)
def approve_return(ctx: Ctx, return_id: ReturnId) -> ReturnRequest:
    """Approve a return: the retailer is credited and the brand's payout is reduced by the net value.

    Args:
        return_id: The return.
    """
    ret = _decide(ctx, return_id)
    order = ctx.get(Order, ret.order_id)
    if order.terms != "prepay":
        r = ctx.get(Retailer, ret.retailer_id)
        ctx.update(r, outstanding=max(0, r.outstanding - ret.amount))
    rate = REORDER_COMMISSION if order.is_reorder else FIRST_ORDER_COMMISSION
    ctx.create(
        Payout,
        brand_id=order.brand_id,
        order_id=order.id,
        gross=0,
        commission_rate=rate,
        amount=-round(ret.amount * (100 - rate) / 100),
    )
    return ctx.update(ret, status="approved")


@service.tool(intent="reject the return", write=True, example=_requested)
def reject_return(ctx: Ctx, return_id: ReturnId) -> ReturnRequest:
    """Reject a requested return.

    Args:
        return_id: The return.
    """
    return ctx.update(_decide(ctx, return_id), status="rejected")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Brands (the home company among them) with the world's products, retailers from customers, orders in every state."""
    pop = s.population
    makers = [pop.home, *pop.customers[-4:]]
    brands: list[Brand] = []
    for k, company in enumerate(makers):
        contact = pop.staff("Sales", fallback=1)[0] if company.home else pop.first_contact(company)
        if contact is None:
            continue
        brands.append(
            s.create(
                Brand,
                name=company.name,
                contact_email=contact.email,
                opening_minimum=(100 + 50 * k) * 100,
                reorder_minimum=(50 + 25 * k) * 100,
                lead_time_days=5 + k,
                status="paused" if k == 4 else "active",
            )
        )
    catalog: dict[str, list[Product]] = {b.id: [] for b in brands}
    for n, item in enumerate(pop.products):
        b = brands[n % len(brands)]
        price = max(100, item.price_cents // 2)
        catalog[b.id].append(
            s.create(
                Product,
                brand_id=b.id,
                sku=item.sku,
                name=item.name,
                wholesale_price=price,
                retail_price=item.price_cents if item.price_cents >= price else price * 2,
                case_pack=(1, 2, 4, 6, 12)[(n // 5 + n) % 5],
                stock=60 * (1 + n % 4) if n % 9 else 0,
                active=n % 11 != 10,
            )
        )
    shops = []
    for k, company in enumerate(pop.customers[:14]):
        buyer = pop.first_contact(company)
        if buyer is None:
            continue
        terms: Terms = ("net60", "net30", "prepay")[k % 3]
        shops.append(
            s.create(
                Retailer,
                name=company.name,
                contact_email=buyer.email,
                city=company.place.city,
                country=company.place.country,
                terms=terms,
                credit_limit=0 if terms == "prepay" else 500_000 + 100_000 * k,
                status="suspended" if k == 13 else "active",
            )
        )
    plan: tuple[OrderState, ...] = (
        "delivered",
        "delivered",
        "in_transit",
        "processing",
        "new",
        "backordered",
        "canceled",
    )
    for n, shop in enumerate(shops):
        b = brands[n % 4]
        goods = [p for p in catalog[b.id] if p.active][:2]
        if not goods:
            continue
        for j, state in enumerate(plan[n % 7 : n % 7 + 2]):
            lines = tuple(
                Line(
                    product_id=p.id,
                    sku=p.sku,
                    quantity=p.case_pack * (4 + j),
                    unit_price=p.wholesale_price,
                    subtotal=p.case_pack * (4 + j) * p.wholesale_price,
                )
                for p in goods
            )
            total = sum(x.subtotal for x in lines)
            order = s.create(
                Order,
                brand_id=b.id,
                retailer_id=shop.id,
                lines=lines,
                total=total,
                is_reorder=j > 0,
                terms=shop.terms,
                state=state,
                tracking_number=f"1Z{n:04d}{j}A0123456" if state in ("in_transit", "delivered") else None,
                delivered_at=s.ago(days=10 + n) if state == "delivered" else None,
                created_at=s.ago(days=20 + n - 5 * j),
                updated_at=s.ago(days=2),
            )
            if shop.terms != "prepay" and state not in ("canceled", "delivered"):
                owed = shop.outstanding + total
                shop = s.update(shop, outstanding=owed, credit_limit=max(shop.credit_limit, owed + 100_000))
            if state in ("in_transit", "delivered"):
                rate = REORDER_COMMISSION if j else FIRST_ORDER_COMMISSION
                s.create(
                    Payout,
                    brand_id=b.id,
                    order_id=order.id,
                    gross=total,
                    commission_rate=rate,
                    amount=round(total * (100 - rate) / 100),
                    status="paid" if state == "delivered" else "pending",
                    created_at=s.ago(days=12 + n),
                )
            if state == "delivered" and n % 3 == 0:
                s.create(
                    ReturnRequest,
                    order_id=order.id,
                    retailer_id=shop.id,
                    amount=lines[0].unit_price,
                    reason="One unit arrived broken.",
                    created_at=s.ago(days=3),
                )
