"""Bazaarly Marketplace: independent sellers' shops, their listings, buyers' orders, reviews and refunds.

Modeled on the Etsy Open API v3 (Shop, ShopListing, ListingInventory, ShopReceipt,
ShopReceiptTransaction, Review, Payment account ledger adjustments) and the
Amazon Selling Partner API (Listings Items, Orders, Finances): many sellers
share one marketplace; a buyer's order is placed with one shop and only for
that shop's active listings, never for more units than a listing has left (a
listing whose last unit sells becomes sold out); a shop on vacation sells
nothing; an order ships with a carrier and tracking number, can be cancelled
only before it ships (its units go back on sale and the buyer is refunded in
full), refunds never exceed what is left of what the buyer paid, the
marketplace's transaction fee is charged on what the buyer keeps paying, and
only the buyer of a delivered order reviews its listings, once each.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Country,
    Currency,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Percent,
    PersonName,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.commerce._shared import merge_quantities
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "marketplace",
    title="Bazaarly Marketplace",
    category="ecommerce",
    modeled_on="Etsy Open API v3 (Shop, ShopListing, ListingInventory, ShopReceipt, Transaction, Review, "
    "ledger adjustments) / Amazon Selling Partner API (Listings Items, Orders, Finances)",
    description="A multi-seller online marketplace: independent sellers' shops, the listings they put on sale "
    "with their stock and price, buyers' orders with one shop, shipping and delivery, cancellations, refunds, "
    "the marketplace's transaction fee and the sellers' payouts, and buyers' reviews.",
)

ShopId = Annotated[str, IdOf("marketplace.shop")]
ListingId = Annotated[str, IdOf("marketplace.listing")]
OrderId = Annotated[str, IdOf("marketplace.order")]
ReviewId = Annotated[str, IdOf("marketplace.review")]
RefundId = Annotated[str, IdOf("marketplace.refund")]
PositiveQuantity = Annotated[Quantity, Field(ge=1)]
Stars = Annotated[int, Field(ge=1, le=5)]
ListingState = Literal["draft", "active", "inactive", "sold_out"]
ListingCategory = Literal["electronics", "office", "home", "outdoor", "apparel", "other"]
WhoMade = Literal["i_did", "collective", "someone_else"]
OrderStatus = Literal["paid", "shipped", "delivered", "cancelled"]
Carrier = Literal["usps", "ups", "fedex", "dhl_express", "royal_mail", "other"]
RefundReason = Literal["cancellation", "damaged", "not_as_described", "not_received", "goodwill", "other"]
CancelReason = Literal["buyer_request", "out_of_stock", "unpaid", "other"]


class Shop(Record):
    """An independent seller's shop on the marketplace."""

    id: ShopId
    name: CompanyName
    """The seller's business name."""
    owner_name: PersonName
    """The person who runs the shop."""
    owner_email: Email
    """The shop owner's e-mail; buyers' messages and sale notices go there."""
    country: Country
    """Country the shop ships from."""
    currency: Currency
    """Currency of the shop's prices, orders and payouts."""
    transaction_fee_percent: Percent = 6.5
    """Marketplace fee, in percent of what the buyer pays for an order (net of refunds)."""
    is_vacation: bool = False
    """Whether the shop is on vacation: its listings stay visible but cannot be bought."""
    vacation_message: Text = ""
    """Message shown to buyers while the shop is on vacation."""
    review_average: Annotated[float, Field(ge=0, le=5)] = 0.0
    """Average star rating of the shop's reviews (0 when it has none)."""
    review_count: Quantity = 0
    """Number of reviews the shop has received."""
    created_at: Annotated[DateTime, CREATED]
    """When the shop opened."""


class Listing(Timestamped):
    """An item a shop offers, with its price and the units it has left."""

    id: ListingId
    shop_id: ShopId
    """The shop selling it."""
    title: Title
    """Title buyers see."""
    description: Text = ""
    """Description buyers see."""
    sku: Sku
    """The seller's stock keeping unit; unique within the shop."""
    category: ListingCategory
    """Marketplace category (taxonomy node)."""
    who_made: WhoMade = "someone_else"
    """Who made the item: the seller (i_did), a collective, or someone else."""
    price: Cents
    """Price of one unit in the shop's currency, in cents."""
    quantity: Quantity
    """Units left to sell; orders take from it, cancellations give back."""
    shipping_price: Cents = 0
    """Shipping charged once per order line of this listing, in cents."""
    state: ListingState = "draft"
    """draft (new, not on sale), active (on sale), inactive (taken off sale) or sold_out (no units left)."""


class OrderLine(Value):
    """One line of an order: a listing, how many units and at what price."""

    listing_id: ListingId = Field(description="The listing bought.")
    sku: Sku = Field(description="The listing's SKU when ordered.")
    title: Title = Field(description="The listing's title when ordered.")
    quantity: PositiveQuantity = Field(description="Units bought.")
    price: Cents = Field(description="Unit price in cents when ordered.")
    shipping_price: Cents = Field(default=0, description="Shipping charged for this line in cents.")


class ItemQuantity(Value):
    """A listing and a number of units to buy."""

    listing_id: ListingId = Field(description="The listing.")
    quantity: PositiveQuantity = Field(description="Number of units.")


class Order(Record):
    """A buyer's order with one shop (Etsy's receipt): lines, totals, fee, payout and shipping state."""

    id: OrderId
    order_number: Annotated[OrderNumber, Generated("sequence", "BZ-{n:06d}")]
    """Order number the buyer and the seller quote."""
    shop_id: ShopId
    """The shop the order was placed with."""
    buyer_name: PersonName
    """The buyer's full name."""
    buyer_email: Email
    """The buyer's e-mail."""
    shipping_address: PostalAddress
    """Where the order ships to."""
    lines: tuple[OrderLine, ...]
    """What was bought."""
    currency: Currency
    """Currency of every amount (the shop's)."""
    subtotal: Cents
    """Sum of unit price times quantity over the lines, in cents."""
    shipping_cost: Cents
    """Sum of the lines' shipping prices, in cents."""
    total: Cents
    """Subtotal plus shipping: what the buyer paid, in cents."""
    refunded_total: Cents = 0
    """Money given back to the buyer so far, in cents."""
    marketplace_fee: Cents
    """The marketplace's fee: the shop's fee percent of total minus refunds, rounded, in cents."""
    seller_payout: Cents
    """What the seller receives: total minus refunds minus the fee, in cents."""
    status: OrderStatus = "paid"
    """paid (waiting to ship), shipped, delivered, or cancelled (final)."""
    carrier: Carrier | None = None
    """Carrier the order shipped with."""
    tracking_number: TrackingNumber | None = None
    """The carrier's tracking number."""
    shipped_at: DateTime | None = None
    """When the order shipped."""
    delivered_at: DateTime | None = None
    """When the order was delivered."""
    cancel_reason: CancelReason | None = None
    """Why the order was cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When the order was placed and paid."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the order last changed."""


class Review(Record):
    """A buyer's star rating and text for a listing of a delivered order."""

    id: ReviewId
    order_id: OrderId
    """The order the review is about."""
    shop_id: ShopId
    """The shop reviewed."""
    listing_id: ListingId
    """The listing reviewed; one review per order and listing."""
    buyer_email: Email
    """The reviewing buyer."""
    rating: Stars
    """Stars from 1 to 5."""
    review: Text = ""
    """What the buyer wrote."""
    created_at: Annotated[DateTime, CREATED]
    """When the review was left."""


class Refund(Record):
    """Money given back to a buyer on an order."""

    id: RefundId
    order_id: OrderId
    """The order refunded."""
    order_number: OrderNumber
    """The order's number."""
    amount: Cents
    """Amount refunded in cents."""
    currency: Currency
    """Currency of the amount."""
    reason: RefundReason
    """Why the money was given back."""
    note: Text = ""
    """Note from the seller to the buyer."""
    created_at: Annotated[DateTime, CREATED]
    """When the refund was made."""


# -- rules -------------------------------------------------------------------------------------


def _fee(total: int, refunded: int, percent: float) -> tuple[int, int]:
    """(marketplace fee, seller payout) for what the buyer keeps paying."""
    kept = max(0, total - refunded)
    fee = round(kept * percent / 100)
    return fee, kept - fee


def _guard_listing(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Shop, new.shop_id, field="shop_id")
    if old is None or new.sku != old.sku:
        for other in ctx.where(Listing, shop_id=new.shop_id, sku=new.sku):
            if other.id != new.id:
                raise Conflict(
                    f"the shop already has a listing with SKU {new.sku} ({other.id})",
                    field="sku",
                    hint="give each listing of a shop its own SKU, or update the existing listing",
                )
    if old is not None and old.state != new.state and new.state == "active":
        if new.quantity < 1:
            raise RuleViolation(
                f"listing {new.id} has no units left and cannot go on sale",
                field="listing_id",
                hint="set a quantity with marketplace__update_inventory first",
            )
        if new.price < 1:
            raise RuleViolation(
                f"listing {new.id} has no price",
                field="listing_id",
                hint="set a price with marketplace__update_inventory first",
            )


def _guard_listing_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state not in ("draft", "inactive"):
        raise RuleViolation(
            f"listing {old.id} is {old.state}; only draft or inactive listings can be deleted",
            field="listing_id",
            hint="deactivate the listing with marketplace__deactivate_listing first",
        )


shops = service.resource(
    Shop,
    name="shop",
    plural="shops",
    prefix="shp",
    create=False,
    filters=("country", "currency", "is_vacation", "owner_email"),
    search=("name", "owner_name"),
    update=("name", "owner_email", "vacation_message"),
    delete=False,
    unique=("name",),
    transitions={
        "pause": Transition(
            "is_vacation",
            (False,),
            True,
            "put the shop on vacation",
            description="Put a shop in vacation mode: its listings stay visible but no order can be placed with it "
            "until the vacation ends. Open orders still have to be shipped.",
        ),
        "resume": Transition(
            "is_vacation",
            (True,),
            False,
            "reopen the shop after its vacation",
            description="End a shop's vacation mode: its active listings can be bought again.",
        ),
    },
)
listings = service.resource(
    Listing,
    name="listing",
    plural="listings",
    prefix="lst",
    create=("shop_id", "title", "description", "sku", "category", "who_made", "price", "quantity", "shipping_price"),
    filters=("shop_id", "state", "sku", "category"),
    search=("title", "description", "sku"),
    update=("title", "description", "sku", "category", "who_made", "shipping_price"),
    transitions={
        "activate": Transition(
            "state",
            ("draft", "inactive"),
            "active",
            "put the listing on sale",
            description="Put a draft or inactive listing on sale (state 'active'); it needs at least one unit "
            "and a price.",
        ),
        "deactivate": Transition("state", ("active", "sold_out"), "inactive", "take the listing off sale"),
    },
    guard_create=_guard_listing,
    guard_update=_guard_listing,
    guard_delete=_guard_listing_delete,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("shop_id", "status", "buyer_email", "order_number", "tracking_number"),
    search=("buyer_name", "buyer_email", "order_number"),
    delete=False,
)
reviews = service.resource(
    Review,
    name="review",
    plural="reviews",
    prefix="rev",
    create=False,
    get=False,
    filters=("shop_id", "listing_id", "order_id", "buyer_email", "rating"),
    search=("review",),
    delete=False,
)
refunds = service.resource(
    Refund,
    name="refund",
    plural="refunds",
    prefix="rfd",
    create=False,
    get=False,
    filters=("order_id", "order_number", "reason"),
    delete=False,
)


# -- examples ----------------------------------------------------------------------------------


def _example_place_order(ctx: Ctx) -> dict[str, Any] | None:
    buyer = ctx.population.consumers[0]
    for listing in ctx.where(Listing, state="active"):
        shop = ctx.get(Shop, listing.shop_id)
        if not shop.is_vacation and listing.quantity >= 1:
            return {
                "shop_id": shop.id,
                "buyer_email": buyer.email,
                "buyer_name": buyer.name,
                "shipping_address": buyer.address.model_dump(),
                "items": [{"listing_id": listing.id, "quantity": 1}],
            }
    return None


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(Order, status="delivered"):
        for line in order.lines:
            if ctx.first(Review, order_id=order.id, listing_id=line.listing_id) is None:
                return {
                    "order_id": order.id,
                    "listing_id": line.listing_id,
                    "buyer_email": order.buyer_email,
                    "rating": 5,
                    "review": "Lovely, exactly as pictured.",
                }
    return None


def _example_inventory(ctx: Ctx) -> dict[str, Any] | None:
    listing = ctx.first(Listing, state="sold_out") or ctx.first(Listing)
    return None if listing is None else {"listing_id": listing.id, "quantity": 12}


# -- domain tools ------------------------------------------------------------------------------


@service.tool(intent="change the listing's stock and price", write=True, idempotent=True, example=_example_inventory)
def update_inventory(ctx: Ctx, listing_id: ListingId, quantity: Quantity, price: Cents | None = None) -> Listing:
    """Set how many units of a listing are left and, optionally, its price.

    An active listing whose quantity becomes 0 turns sold out; a sold-out
    listing that gets units back goes on sale again.

    Args:
        listing_id: The listing.
        quantity: Units left to sell.
        price: New unit price in cents; omit to keep the price.
    """
    listing = ctx.get(Listing, listing_id, field="listing_id")
    new_price = listing.price if price is None else price
    if new_price < 1 and listing.state in ("active", "sold_out"):
        raise RuleViolation(
            "a listing on sale needs a price of at least 1 cent",
            field="price",
            hint="give a positive price, or deactivate the listing first",
        )
    state = listing.state
    if state == "active" and quantity == 0:
        state = "sold_out"
    elif state == "sold_out" and quantity > 0:
        state = "active"
    return ctx.update(listing, quantity=quantity, price=new_price, state=state)


@service.tool(intent="buy the items from the shop", write=True, example=_example_place_order)
def place_order(
    ctx: Ctx,
    shop_id: ShopId,
    buyer_email: Email,
    buyer_name: PersonName,
    shipping_address: PostalAddress,
    items: Annotated[list[ItemQuantity], Field(min_length=1, max_length=20)],
) -> Order:
    """Place and pay a buyer's order with one shop, taking the units from its listings.

    Every listing must belong to the shop and be on sale (active), the shop must
    not be on vacation, and no listing can sell more units than it has left; a
    listing whose last unit sells becomes sold out. Totals, the marketplace fee
    and the seller's payout are computed from the lines.

    Args:
        shop_id: The shop to buy from.
        buyer_email: The buyer's e-mail.
        buyer_name: The buyer's full name.
        shipping_address: Where to ship the order.
        items: Listings and quantities; repeated listings are summed.
    """
    shop = ctx.get(Shop, shop_id, field="shop_id")
    if shop.is_vacation:
        raise RuleViolation(
            f"shop {shop.name} is on vacation and takes no orders",
            field="shop_id",
            hint="the shop must end its vacation first (marketplace__resume_shop), or buy from another shop",
        )
    lines: list[OrderLine] = []
    for lid, (i, qty) in merge_quantities((item.listing_id, item.quantity) for item in items).items():
        listing = ctx.get(Listing, lid, field=f"items.{i}.listing_id")
        if listing.shop_id != shop.id:
            raise RuleViolation(
                f"listing {lid} belongs to another shop ({listing.shop_id})",
                field=f"items.{i}.listing_id",
                hint="an order is placed with one shop; order the other shop's listings separately",
            )
        if listing.state != "active":
            raise RuleViolation(
                f"listing {lid} is {listing.state} and cannot be bought",
                field=f"items.{i}.listing_id",
                hint="only active listings are on sale",
            )
        if qty > listing.quantity:
            raise RuleViolation(
                f"listing {lid} has {listing.quantity} unit(s) left; {qty} were ordered",
                field=f"items.{i}.quantity",
                hint=f"order at most {listing.quantity}",
            )
        left = listing.quantity - qty
        ctx.update(listing, quantity=left, state="sold_out" if left == 0 else "active")
        lines.append(
            OrderLine(
                listing_id=lid,
                sku=listing.sku,
                title=listing.title,
                quantity=qty,
                price=listing.price,
                shipping_price=listing.shipping_price,
            )
        )
    subtotal = sum(line.price * line.quantity for line in lines)
    shipping = sum(line.shipping_price for line in lines)
    fee, payout = _fee(subtotal + shipping, 0, shop.transaction_fee_percent)
    return ctx.create(
        Order,
        shop_id=shop.id,
        buyer_name=buyer_name,
        buyer_email=buyer_email,
        shipping_address=shipping_address,
        lines=tuple(lines),
        currency=shop.currency,
        subtotal=subtotal,
        shipping_cost=shipping,
        total=subtotal + shipping,
        marketplace_fee=fee,
        seller_payout=payout,
    )


def _order_in(ctx: Ctx, order_id: str, allowed: tuple[str, ...], hint: str) -> Order:
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in allowed:
        raise RuleViolation(
            f"order {order.order_number} is {order.status}; this needs an order that is {' or '.join(allowed)}",
            field="order_id",
            hint=hint,
        )
    return order


@service.tool(
    intent="mark the order as shipped with its tracking number",
    write=True,
    example=first_example(
        Order, "order_id", where={"status": "paid"}, carrier="ups", tracking_number="1Z999AA10123456784"
    ),
)
def ship_order(ctx: Ctx, order_id: OrderId, carrier: Carrier, tracking_number: TrackingNumber) -> Order:
    """Record that a paid order left the seller with a carrier (Etsy's createReceiptShipment).

    Args:
        order_id: The paid order.
        carrier: The carrier transporting it.
        tracking_number: The carrier's tracking number.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status in ("shipped", "delivered"):
        raise Conflict(
            f"order {order.order_number} already shipped with tracking number {order.tracking_number}",
            field="order_id",
            hint="an order ships once; look it up with marketplace__get_order",
        )
    order = _order_in(ctx, order_id, ("paid",), "cancelled orders are final")
    return ctx.update(order, status="shipped", carrier=carrier, tracking_number=tracking_number, shipped_at=ctx.now())


@service.tool(
    intent="confirm the order was delivered",
    write=True,
    example=first_example(Order, "order_id", where={"status": "shipped"}),
)
def confirm_delivery(ctx: Ctx, order_id: OrderId) -> Order:
    """Record that a shipped order reached the buyer; the buyer can then review it.

    Args:
        order_id: The shipped order.
    """
    order = _order_in(ctx, order_id, ("shipped",), "ship the order with marketplace__ship_order first")
    return ctx.update(order, status="delivered", delivered_at=ctx.now())


def _add_refund(ctx: Ctx, order: Order, amount: int, reason: str, note: str, **changes: Any) -> Refund:
    shop = ctx.get(Shop, order.shop_id)
    refunded = order.refunded_total + amount
    fee, payout = _fee(order.total, refunded, shop.transaction_fee_percent)
    ctx.update(order, refunded_total=refunded, marketplace_fee=fee, seller_payout=payout, **changes)
    return ctx.create(
        Refund,
        order_id=order.id,
        order_number=order.order_number,
        amount=amount,
        currency=order.currency,
        reason=reason,
        note=note,
    )


@service.tool(
    intent="cancel the order and refund the buyer",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"status": "paid"}, reason="buyer_request"),
)
def cancel_order(ctx: Ctx, order_id: OrderId, reason: CancelReason = "buyer_request") -> Order:
    """Cancel an order that has not shipped: its units go back on sale and the buyer is refunded in full.

    Args:
        order_id: The paid, unshipped order.
        reason: Why it is cancelled.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status in ("shipped", "delivered"):
        raise RuleViolation(
            f"order {order.order_number} has already shipped and cannot be cancelled",
            field="order_id",
            hint="refund the buyer with marketplace__refund_order instead",
        )
    order = _order_in(ctx, order_id, ("paid",), "cancelled orders are final")
    for line in order.lines:
        listing = ctx.find(Listing, line.listing_id)
        if listing is not None:
            state = "active" if listing.state == "sold_out" else listing.state
            ctx.update(listing, quantity=listing.quantity + line.quantity, state=state)
    left = order.total - order.refunded_total
    if left > 0:
        _add_refund(ctx, order, left, "cancellation", "Order cancelled", status="cancelled", cancel_reason=reason)
    else:
        ctx.update(order, status="cancelled", cancel_reason=reason)
    return ctx.get(Order, order.id)


@service.tool(
    intent="refund the buyer",
    write=True,
    example=first_example(
        Order,
        "order_id",
        where={"status": "delivered"},
        match=lambda ctx, o: o.total - o.refunded_total >= 100,
        amount=100,
        reason="goodwill",
    ),
)
def refund_order(
    ctx: Ctx, order_id: OrderId, amount: Annotated[Cents, Field(ge=1)], reason: RefundReason, note: Text = ""
) -> Refund:
    """Give money back to the buyer of an order; the fee and the seller's payout shrink with it.

    The refunds of an order never add up to more than the buyer paid.

    Args:
        order_id: The order.
        amount: Amount to give back in cents.
        reason: Why.
        note: Note to the buyer.
    """
    order = _order_in(ctx, order_id, ("paid", "shipped", "delivered"), "a cancelled order was already refunded in full")
    left = order.total - order.refunded_total
    if amount > left:
        raise RuleViolation(
            f"only {left} of order {order.order_number}'s {order.total} can still be refunded",
            field="amount",
            hint=f"refund at most {left}",
        )
    return _add_refund(ctx, order, amount, reason, note)


@service.tool(intent="review the item bought", write=True, example=_example_review)
def leave_review(
    ctx: Ctx, order_id: OrderId, listing_id: ListingId, buyer_email: Email, rating: Stars, review: Text = ""
) -> Review:
    """Leave the buyer's review of a listing of a delivered order; the shop's average rating follows.

    Only the order's buyer reviews it, only once it is delivered, and once per listing.

    Args:
        order_id: The delivered order.
        listing_id: The listing reviewed; it must be on the order.
        buyer_email: E-mail of the reviewing buyer.
        rating: Stars from 1 to 5.
        review: What the buyer has to say.
    """
    order = ctx.get(Order, order_id, field="order_id")
    ctx.get(Listing, listing_id, field="listing_id")
    if buyer_email != order.buyer_email:
        raise RuleViolation(
            f"{buyer_email} did not buy order {order.order_number}",
            field="buyer_email",
            hint="only the order's buyer can review it",
        )
    if order.status != "delivered":
        raise RuleViolation(
            f"order {order.order_number} is {order.status}; only delivered orders can be reviewed",
            field="order_id",
            hint="confirm the delivery with marketplace__confirm_delivery first",
        )
    if all(line.listing_id != listing_id for line in order.lines):
        raise RuleViolation(
            f"listing {listing_id} is not on order {order.order_number}",
            field="listing_id",
            hint="review one of the order's listings",
        )
    existing = ctx.first(Review, order_id=order.id, listing_id=listing_id)
    if existing is not None:
        raise Conflict(
            f"the buyer already reviewed listing {listing_id} of this order ({existing.id})",
            field="listing_id",
            hint="each listing of an order is reviewed once",
        )
    rev = ctx.create(
        Review,
        order_id=order.id,
        shop_id=order.shop_id,
        listing_id=listing_id,
        buyer_email=buyer_email,
        rating=rating,
        review=review,
    )
    shop = ctx.get(Shop, order.shop_id)
    ratings = [r.rating for r in ctx.where(Review, shop_id=shop.id)]
    ctx.update(shop, review_count=len(ratings), review_average=round(sum(ratings) / len(ratings), 2))
    return rev


class ShopSales(BaseModel):
    """A shop's sales figures over all its orders."""

    shop_id: ShopId = Field(description="The shop.")
    shop_name: CompanyName = Field(description="The shop's name.")
    currency: Currency = Field(description="Currency of the amounts.")
    orders: int = Field(description="Orders placed, cancelled ones included.")
    to_ship: list[OrderNumber] = Field(description="Numbers of paid orders still waiting to ship, oldest first.")
    gross_sales: Cents = Field(description="What buyers paid, in cents.")
    refunded: Cents = Field(description="What was given back, in cents.")
    fees: Cents = Field(description="Marketplace fees, in cents.")
    payout: Cents = Field(description="What the seller receives, in cents.")


@service.tool(intent="see the shop's sales and the orders it must ship")
def shop_sales(ctx: Ctx, shop_id: ShopId) -> ShopSales:
    """Sum a shop's orders: gross sales, refunds, fees, payout, and the orders waiting to ship.

    Args:
        shop_id: The shop.
    """
    shop = ctx.get(Shop, shop_id, field="shop_id")
    mine = ctx.where(Order, shop_id=shop.id)
    waiting = sorted((o for o in mine if o.status == "paid"), key=lambda o: (o.created_at, o.id))
    return ShopSales(
        shop_id=shop.id,
        shop_name=shop.name,
        currency=shop.currency,
        orders=len(mine),
        to_ship=[o.order_number for o in waiting],
        gross_sales=sum(o.total for o in mine),
        refunded=sum(o.refunded_total for o in mine),
        fees=sum(o.marketplace_fee for o in mine),
        payout=sum(o.seller_payout for o in mine),
    )


# -- seed --------------------------------------------------------------------------------------

_DAY = dt.timedelta(days=1)
SELLER_INDUSTRIES = ("retail", "manufacturing", "wholesale", "food", "media")
CARRIERS: tuple[Carrier, ...] = ("ups", "fedex", "dhl_express", "usps")
PLANS: tuple[OrderStatus, ...] = ("paid", "shipped", "delivered", "delivered", "cancelled", "paid", "delivered")


def _tracking(s: SeedContext, carrier: str) -> str:
    digits = "".join(str(s.rng.randint(0, 9)) for _ in range(22))
    if carrier == "ups":
        return "1Z" + digits[:16]
    if carrier == "fedex":
        return digits[:12]
    if carrier == "dhl_express":
        return digits[:10]
    return "9400" + digits[:18]


@service.seeder
def seed(s: SeedContext) -> None:
    """Shops run by the population's companies, listings of the population's products, consumers' orders."""
    shops = _seed_shops(s)
    listings = _seed_listings(s, shops)
    open_shops = [sh for sh in shops if listings.get(sh.id)]
    for i, buyer in enumerate(s.population.consumers[:42]):
        shop = open_shops[i % len(open_shops)]
        _seed_order(s, i, buyer, shop, listings[shop.id])
    _seed_shop_ratings(s, shops)


def _seed_shops(s: SeedContext) -> list[Shop]:
    """Eight shops run by the first person of companies that sell goods (other companies after them)."""
    pop = s.population
    with_owner = [(c, owner) for c in pop.customers if (owner := pop.first_contact(c)) is not None]
    sellers = [pair for pair in with_owner if pair[0].industry in SELLER_INDUSTRIES]
    sellers += [pair for pair in with_owner if pair[0].industry not in SELLER_INDUSTRIES]
    shops: list[Shop] = []
    for k, (company, owner) in enumerate(sellers[:8]):
        shops.append(
            s.create(
                Shop,
                name=company.name,
                owner_name=owner.name,
                owner_email=owner.email,
                country=company.place.country,
                currency=company.place.currency,
                transaction_fee_percent=(6.5, 6.5, 8.0, 5.0)[k % 4],
                is_vacation=k == 5,
                vacation_message="Back in two weeks - orders ship after our break." if k == 5 else "",
                created_at=s.ago(days=200 + 90 * k),
            )
        )
    return shops


def _seed_listings(s: SeedContext, shops: Sequence[Shop]) -> dict[str, list[Listing]]:
    """Six of the population's products listed by each shop, in every state; return them by shop id."""
    rng = s.rng
    products = s.population.products
    by_shop: dict[str, list[Listing]] = {}
    for k, shop in enumerate(shops):
        picked = [products[(k * 5 + j) % len(products)] for j in range(6)]
        for j, p in enumerate(picked):
            state: ListingState = ("active", "active", "active", "draft", "inactive", "sold_out")[(k + j) % 6]
            created = s.ago(days=rng.randint(20, 180))
            by_shop.setdefault(shop.id, []).append(
                s.create(
                    Listing,
                    shop_id=shop.id,
                    title=p.name,
                    description=f"{p.name} in {p.category}, shipped from {shop.name}.",
                    sku=p.sku,
                    category=p.category,
                    who_made=("i_did", "collective", "someone_else")[j % 3],
                    price=p.price_cents * rng.choice((90, 100, 110, 125)) // 100,
                    quantity=0 if state == "sold_out" else rng.randint(3, 40),
                    shipping_price=rng.choice((0, 350, 495, 800)),
                    state=state,
                    created_at=created,
                    updated_at=created,
                )
            )
    return by_shop


def _seed_order(s: SeedContext, i: int, buyer: Person, shop: Shop, listings: Sequence[Listing]) -> None:
    """Consumer ``i``'s order from ``shop``, in status ``PLANS[i % 7]``, with its refund and review if any."""
    onsale = [li for li in listings if li.state in ("active", "sold_out")]
    plan = PLANS[i % len(PLANS)]
    lines = tuple(
        OrderLine(
            listing_id=li.id,
            sku=li.sku,
            title=li.title,
            quantity=1 + (i + n) % 2,
            price=li.price,
            shipping_price=li.shipping_price,
        )
        for n, li in enumerate(onsale[: 1 + i % 2])
    )
    subtotal = sum(li.price * li.quantity for li in lines)
    shipping = sum(li.shipping_price for li in lines)
    total = subtotal + shipping
    refunded = total if plan == "cancelled" else (total // 5 if i % 9 == 2 and plan == "delivered" else 0)
    fee, payout = _fee(total, refunded, shop.transaction_fee_percent)
    placed = s.ago(days=2 + i % 20, hours=i)
    shipped = plan in ("shipped", "delivered")
    carrier = CARRIERS[i % len(CARRIERS)] if shipped else None
    order = s.create(
        Order,
        shop_id=shop.id,
        buyer_name=buyer.name,
        buyer_email=buyer.email,
        shipping_address=buyer.address,
        lines=lines,
        currency=shop.currency,
        subtotal=subtotal,
        shipping_cost=shipping,
        total=total,
        refunded_total=refunded,
        marketplace_fee=fee,
        seller_payout=payout,
        status=plan,
        carrier=carrier,
        tracking_number=_tracking(s, carrier) if carrier else None,
        shipped_at=placed + _DAY if shipped else None,
        delivered_at=placed + 3 * _DAY if plan == "delivered" else None,
        cancel_reason=("buyer_request", "out_of_stock")[i % 2] if plan == "cancelled" else None,
        created_at=placed,
        updated_at=placed + 3 * _DAY if plan != "paid" else placed,
    )
    if refunded:
        s.create(
            Refund,
            order_id=order.id,
            order_number=order.order_number,
            amount=refunded,
            currency=order.currency,
            reason="cancellation" if plan == "cancelled" else "damaged",
            note="Order cancelled" if plan == "cancelled" else "Sorry, the item arrived scratched.",
            created_at=placed + 4 * _DAY,
        )
    if plan == "delivered" and i % 3 != 0:
        s.create(
            Review,
            order_id=order.id,
            shop_id=shop.id,
            listing_id=lines[0].listing_id,
            buyer_email=buyer.email,
            rating=(5, 4, 5, 3, 5, 2)[i % 6],
            review=("Great quality!", "Arrived quickly.", "Nice, as described.", "Packaging was poor.")[i % 4],
            created_at=placed + 5 * _DAY,
        )


def _seed_shop_ratings(s: SeedContext, shops: Sequence[Shop]) -> None:
    """Each reviewed shop's review count and average rating."""
    for shop in shops:
        ratings = [r.rating for r in s.records(Review) if r.shop_id == shop.id]
        if ratings:
            s.update(shop, review_count=len(ratings), review_average=round(sum(ratings) / len(ratings), 2))
