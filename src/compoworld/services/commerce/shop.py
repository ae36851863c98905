"""Storefront: products, variants, inventory, customers, orders, fulfillments and refunds.

Modeled on the Shopify Admin REST API 2024-10 (Product, Variant, Location,
InventoryLevel, Customer, Order, Fulfillment, Refund): an order reserves stock
at one location when it is placed, cannot ask for more than that location has,
gives its unfulfilled stock back when it is cancelled, and cannot be cancelled
once a fulfillment is on its way; a fulfillment records the carrier and the
tracking number of the parcel; a refund can never exceed what the customer paid.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Product as CatalogProduct
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Deleted, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    OrderNumber,
    Phone,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Title,
    TrackingNumber,
    Url,
)
from compoworld.services.commerce._shared import merge_quantities
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world import commerce as links

__all__ = ["service"]

service = Service(
    "shop",
    title="Storefront",
    category="ecommerce",
    modeled_on="Shopify Admin REST API 2024-10 (Product, Variant, Location, InventoryLevel, Customer, Order, "
    "Fulfillment, Refund)",
    description="The home company's online store: the catalogue of products and their variants, stock per "
    "location, the shoppers who buy, their orders, the parcels sent for them and the money given back.",
)

ProductId = Annotated[str, IdOf("shop.product")]
VariantId = Annotated[str, IdOf("shop.variant")]
LocationId = Annotated[str, IdOf("shop.location")]
CustomerId = Annotated[str, IdOf("shop.customer")]
OrderId = Annotated[str, IdOf("shop.order")]
FulfillmentId = Annotated[str, IdOf("shop.fulfillment")]
PositiveQuantity = Annotated[Quantity, Field(ge=1)]
LocationName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
Tags = Annotated[str, StringConstraints(max_length=500)]
ProductType = Literal["electronics", "office", "home", "outdoor", "apparel"]
Carrier = Literal["usps", "ups", "fedex", "dhl_express"]
ShipmentStatus = Literal["confirmed", "in_transit", "out_for_delivery", "delivered", "failure"]
FinancialStatus = Literal["pending", "paid", "partially_refunded", "refunded", "voided"]
CancelReason = Literal["customer", "inventory", "fraud", "declined", "other"]
RefundReason = Literal["customer_request", "damaged", "not_received", "wrong_item", "cancellation", "other"]

SHIPMENT_ORDER: tuple[str, ...] = ("confirmed", "in_transit", "out_for_delivery", "delivered")
"""Progress of a parcel; a fulfillment's shipment status never moves backwards along it."""


class Product(Timestamped):
    """A product in the store's catalogue; what is sold are its variants."""

    id: ProductId
    title: Title
    """Product title shown to shoppers."""
    body: Text = ""
    """Product description (Shopify's body_html, as plain text)."""
    product_type: ProductType
    """Catalogue category of the product."""
    vendor: CompanyName
    """Company that makes or supplies the product."""
    status: Literal["active", "draft", "archived"] = "draft"
    """Only active products can be ordered; new products start as drafts."""
    tags: Tags = ""
    """Comma-separated tags."""


class Variant(Timestamped):
    """One purchasable version of a product (a size, a colour), with its own SKU and price."""

    id: VariantId
    product_id: ProductId
    """The product this is a variant of."""
    title: Title
    """Option value shown to shoppers, e.g. 'M' or 'Default Title'."""
    sku: Sku
    """Stock keeping unit (like Shopify, the store does not force SKUs to be unique)."""
    price: Cents
    """Unit price in cents."""
    compare_at_price: Cents | None = None
    """Former price in cents shown struck through; must be above the price when set."""
    weight_grams: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    """Shipping weight of one unit in grams."""
    requires_shipping: bool = True
    """Whether the variant is a physical good that must be shipped."""
    taxable: bool = True
    """Whether taxes apply to the variant."""


class Location(Record):
    """A warehouse or store where stock is kept and from which orders ship."""

    id: LocationId
    name: LocationName
    """Name of the location."""
    address: PostalAddress
    """Where the location is; parcels ship from here."""
    active: bool = True
    """Inactive locations hold no stock and take no orders."""
    created_at: Annotated[DateTime, CREATED]
    """When the location was added."""


class InventoryLevel(Record):
    """How many units of one variant are available at one location."""

    id: Annotated[str, IdOf("shop.inventory_level")]
    variant_id: VariantId
    """The variant stocked."""
    location_id: LocationId
    """The location stocking it."""
    available: Quantity
    """Units available to sell; orders take from it, cancellations and restocks give back."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the level last changed."""


class Customer(Record):
    """A shopper with an account at the store."""

    id: CustomerId
    email: Email
    """E-mail address; unique among customers."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    phone: Phone | None = None
    """Phone number."""
    default_address: PostalAddress | None = None
    """Address orders ship to unless told otherwise."""
    accepts_marketing: bool = False
    """Whether the customer agreed to receive marketing e-mail."""
    note: Text = ""
    """Staff note about the customer."""
    tags: Tags = ""
    """Comma-separated tags."""
    created_at: Annotated[DateTime, CREATED]
    """When the customer signed up."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the customer last changed."""


class LineItem(Value):
    """One line of an order: a variant, how many, at what price, and what happened to them."""

    variant_id: VariantId = Field(description="The variant ordered.")
    product_id: ProductId = Field(description="The variant's product.")
    sku: Sku = Field(description="SKU of the variant when ordered.")
    title: Title = Field(description="Product and variant title when ordered.")
    quantity: PositiveQuantity = Field(description="Units ordered.")
    price: Cents = Field(description="Unit price in cents when ordered.")
    fulfilled_quantity: Quantity = Field(default=0, description="Units handed to a carrier.")
    refunded_quantity: Quantity = Field(default=0, description="Units refunded.")


class ItemQuantity(Value):
    """A quantity of one variant of an order: what to order, fulfill or refund."""

    variant_id: VariantId = Field(description="The variant.")
    quantity: PositiveQuantity = Field(description="Number of units.")


class Order(Record):
    """A customer's order: its lines, totals, payment and fulfillment state."""

    id: OrderId
    order_number: Annotated[OrderNumber, Generated("sequence", "#1{n:03d}")]
    """Customer-facing order number, e.g. '#1001'."""
    customer_id: CustomerId
    """The customer who placed the order."""
    email: Email
    """E-mail the order confirmation went to."""
    line_items: tuple[LineItem, ...]
    """What was ordered."""
    location_id: LocationId
    """Location whose stock the order takes and ships from."""
    shipping_address: PostalAddress
    """Where the order ships to."""
    currency: Currency
    """Currency of the amounts."""
    subtotal_price: Cents
    """Sum of the lines in cents."""
    shipping_price: Cents = 0
    """Shipping charged in cents."""
    total_price: Cents
    """Subtotal plus shipping in cents: what the customer pays."""
    total_refunded: Cents = 0
    """Amount refunded so far in cents."""
    financial_status: FinancialStatus = "pending"
    """Payment state: pending, paid, partially refunded, refunded or voided."""
    fulfillment_status: Literal["unfulfilled", "partial", "fulfilled"] = "unfulfilled"
    """How much of the order has been handed to carriers."""
    status: Literal["open", "closed", "cancelled"] = "open"
    """Open orders are worked on; closed ones are done; cancelled ones are final."""
    cancel_reason: CancelReason | None = None
    """Why the order was cancelled."""
    cancelled_at: DateTime | None = None
    """When the order was cancelled."""
    note: Text = ""
    """Note on the order."""
    tags: Tags = ""
    """Comma-separated tags."""
    created_at: Annotated[DateTime, CREATED]
    """When the order was placed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the order last changed."""


class Fulfillment(Timestamped):
    """A parcel sent for some or all of an order's lines, with the carrier's tracking number."""

    id: FulfillmentId
    order_id: OrderId
    """The order fulfilled."""
    location_id: LocationId
    """Location the parcel left from."""
    status: Literal["success", "cancelled"] = "success"
    """Cancelled fulfillments no longer count towards the order."""
    shipment_status: ShipmentStatus = "confirmed"
    """Where the parcel is: label confirmed, in transit, out for delivery, delivered, or failed."""
    tracking_company: Carrier
    """Carrier transporting the parcel."""
    tracking_number: TrackingNumber
    """The carrier's tracking number."""
    tracking_url: Url
    """Page where the shopper can follow the parcel."""
    line_items: tuple[ItemQuantity, ...]
    """Units in the parcel."""
    notify_customer: bool = True
    """Whether the shopper was e-mailed the tracking details."""


class Refund(Record):
    """Money given back on an order, optionally for returned or cancelled units."""

    id: Annotated[str, IdOf("shop.refund")]
    order_id: OrderId
    """The order refunded."""
    amount: Cents
    """Amount refunded in cents."""
    currency: Currency
    """Currency of the amount."""
    reason: RefundReason
    """Why the money was refunded."""
    refund_line_items: tuple[ItemQuantity, ...] = ()
    """Units the refund covers."""
    restock: bool = False
    """Whether the units went back into stock."""
    note: Text = ""
    """Staff note."""
    created_at: Annotated[DateTime, CREATED]
    """When the refund was made."""


# -- helpers ------------------------------------------------------------------------------


def _open_quantity(line: LineItem) -> int:
    """Units of a line still waiting to be fulfilled."""
    return max(0, line.quantity - line.refunded_quantity - line.fulfilled_quantity)


def _fulfillment_status(lines: tuple[LineItem, ...]) -> str:
    if not any(line.fulfilled_quantity for line in lines):
        return "unfulfilled"
    if any(_open_quantity(line) for line in lines):
        return "partial"
    return "fulfilled"


def _merge(items: list[ItemQuantity], field: str) -> dict[str, tuple[int, int]]:
    """Sum quantities per variant: variant id -> (index of first mention, total quantity)."""
    merged = merge_quantities((item.variant_id, item.quantity) for item in items)
    if not merged:
        raise RuleViolation(f"{field} must not be empty", field=field, hint="list at least one variant and quantity")
    return merged


def _line_index(order: Order, variant_id: str, field: str) -> int:
    for i, line in enumerate(order.line_items):
        if line.variant_id == variant_id:
            return i
    raise RuleViolation(
        f"variant {variant_id} is not on order {order.order_number}",
        field=field,
        hint="use the variant ids of the order's line_items",
    )


def _level(ctx: Ctx, variant_id: str, location_id: str) -> InventoryLevel | None:
    return ctx.first(InventoryLevel, variant_id=variant_id, location_id=location_id)


def _restock(ctx: Ctx, variant_id: str, location_id: str, quantity: int) -> None:
    """Put units back on the shelf at a location (stocking it there if it was not)."""
    level = _level(ctx, variant_id, location_id)
    if level is None:
        ctx.create(InventoryLevel, variant_id=variant_id, location_id=location_id, available=quantity)
    else:
        ctx.update(level, available=level.available + quantity)


def _at_active_location(ctx: Ctx, level: InventoryLevel) -> bool:
    """Whether a stock level is at a location that is still active."""
    loc = ctx.find(Location, level.location_id)
    return loc is not None and loc.active


def _active_location(ctx: Ctx, location_id: str, field: str) -> Location:
    loc = ctx.get(Location, location_id, field=field)
    if not loc.active:
        raise RuleViolation(
            f"location {loc.name!r} ({loc.id}) is inactive",
            field=field,
            hint="activate it with shop__activate_location or use an active location",
        )
    return loc


def _has_open_lines(ctx: Ctx, variant_ids: set[str]) -> Order | None:
    """The first open order still waiting to ship any of these variants."""
    for order in ctx.where(Order, status="open"):
        for line in order.line_items:
            if line.variant_id in variant_ids and _open_quantity(line) > 0:
                return order
    return None


# -- guards -------------------------------------------------------------------------------


def _guard_product(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "active" and ctx.first(Variant, product_id=new.id) is None:
        raise RuleViolation(
            f"product {new.id} has no variants and cannot be active",
            field="product_id",
            hint="add a variant with shop__create_variant first",
        )


def _guard_variant(ctx: Ctx, new: Any, old: Any) -> None:
    if new.compare_at_price is not None and new.compare_at_price <= new.price:
        raise RuleViolation(
            f"compare_at_price {new.compare_at_price} must be above the price {new.price}",
            field="compare_at_price",
            hint="set a higher former price, or leave compare_at_price empty",
        )


def _guard_location(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.active or not old.active:
        return
    stocked = sum(lv.available for lv in ctx.where(InventoryLevel, location_id=new.id))
    if stocked:
        raise RuleViolation(
            f"location {new.name!r} still holds {stocked} units and cannot be deactivated",
            field="location_id",
            hint="move its stock with shop__transfer_inventory first",
        )
    if not any(loc.active for loc in ctx.scan(Location)):
        raise RuleViolation(
            "the store needs at least one active location", field="location_id", hint="activate another first"
        )
    for order in ctx.where(Order, location_id=new.id, status="open"):
        if any(_open_quantity(line) for line in order.line_items):
            raise RuleViolation(
                f"order {order.order_number} still has to ship from {new.name!r}",
                field="location_id",
                hint="fulfill or cancel its open orders first",
            )


def _guard_customer_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Order, customer_id=old.id) is not None:
        raise RuleViolation(
            f"customer {old.id} has orders and cannot be deleted",
            field="customer_id",
            hint="customers with orders are kept for the record; update or tag them instead",
        )


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "cancelled" and (new.shipping_address != old.shipping_address or new.email != old.email):
        raise RuleViolation(
            f"order {old.order_number} is cancelled; only its note and tags can change",
            field="order_id",
            hint="place a new order instead",
        )
    if new.shipping_address != old.shipping_address and any(li.fulfilled_quantity for li in old.line_items):
        raise RuleViolation(
            f"order {old.order_number} has already shipped; its shipping address cannot change",
            field="shipping_address",
            hint="cancel the fulfillment first if the carrier does not have the parcel yet",
        )


def _guard_fulfillment(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "cancelled":
        raise RuleViolation(
            f"fulfillment {old.id} is cancelled and cannot be edited",
            field="fulfillment_id",
            hint="create a new fulfillment",
        )
    if new.shipment_status == old.shipment_status:
        return
    if old.shipment_status in ("delivered", "failure") or (
        new.shipment_status in SHIPMENT_ORDER
        and SHIPMENT_ORDER.index(new.shipment_status) < SHIPMENT_ORDER.index(old.shipment_status)
    ):
        raise RuleViolation(
            f"shipment status cannot go from {old.shipment_status} back to {new.shipment_status}",
            field="shipment_status",
            hint="shipment status only moves forward: confirmed, in_transit, out_for_delivery, delivered",
        )


# -- resources ----------------------------------------------------------------------------

products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prod",
    create=("title", "body", "product_type", "vendor", "tags"),
    filters=("status", "product_type", "vendor"),
    search=("title", "tags"),
    update=("title", "body", "product_type", "vendor", "tags"),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft", "archived"), "active", "put the product on sale"),
        "archive": Transition("status", ("active", "draft"), "archived", "take the product off sale"),
    },
    guard_update=_guard_product,
)
variants = service.resource(
    Variant,
    name="variant",
    plural="variants",
    prefix="var",
    filters=("product_id", "sku"),
    search=("title", "sku"),
    update=("title", "price", "compare_at_price", "weight_grams", "requires_shipping", "taxable"),
    delete=False,
    guard_create=_guard_variant,
    guard_update=_guard_variant,
)
locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=("name", "address"),
    filters=("active",),
    search=("name",),
    update=("name", "address"),
    delete=False,
    transitions={
        "deactivate": Transition("active", (True,), False, "close the location"),
        "activate": Transition("active", (False,), True, "reopen the location"),
    },
    guard_update=_guard_location,
)
inventory_levels = service.resource(
    InventoryLevel,
    name="inventory_level",
    plural="inventory_levels",
    prefix="inv",
    create=False,
    filters=("variant_id", "location_id"),
    delete=False,
    title="inventory level",
)
customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("email", "first_name", "last_name", "phone", "default_address", "accepts_marketing", "note", "tags"),
    filters=("email", "last_name", "accepts_marketing"),
    search=("first_name", "last_name", "email", "tags"),
    update=("email", "first_name", "last_name", "phone", "default_address", "accepts_marketing", "note", "tags"),
    unique=("email",),
    guard_delete=_guard_customer_delete,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=(
        "order_number",
        "customer_id",
        "email",
        "status",
        "financial_status",
        "fulfillment_status",
        "location_id",
    ),
    search=("order_number", "email", "note", "tags"),
    update=("email", "shipping_address", "note", "tags"),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the order as done"),
        "reopen": Transition("status", ("closed",), "open", "reopen the closed order"),
        "mark_paid": Transition("financial_status", ("pending",), "paid", "record the order's payment as received"),
    },
    guard_update=_guard_order,
)
fulfillments = service.resource(
    Fulfillment,
    name="fulfillment",
    plural="fulfillments",
    prefix="ful",
    create=False,
    filters=("order_id", "status", "shipment_status", "tracking_company", "tracking_number"),
    search=("tracking_number",),
    update=("shipment_status",),
    delete=False,
    guard_update=_guard_fulfillment,
)
refunds = service.resource(
    Refund,
    name="refund",
    plural="refunds",
    prefix="ref",
    create=False,
    filters=("order_id", "reason"),
    search=("note",),
    delete=False,
)


# -- orders -------------------------------------------------------------------------------


def _pick_location(ctx: Ctx, wanted: dict[str, tuple[int, int]]) -> Location:
    """The first active location (in id order) that has every wanted variant in stock."""
    actives = [loc for loc in ctx.scan(Location) if loc.active]
    for loc in actives:
        if all(
            (lv := _level(ctx, vid, loc.id)) is not None and lv.available >= qty for vid, (_, qty) in wanted.items()
        ):
            return loc
    for vid, (i, qty) in wanted.items():
        best = max((lv.available for lv in ctx.where(InventoryLevel, variant_id=vid)), default=0)
        if best < qty:
            sku = ctx.get(Variant, vid).sku
            raise RuleViolation(
                f"only {best} units of {sku} are available at any one location; {qty} were ordered",
                field=f"line_items.{i}.quantity",
                hint=f"order at most {best}, or restock {sku} first",
            )
    raise RuleViolation(
        "no single active location has every line in stock",
        field="line_items",
        hint="split the order, or pass location_id and order only what it has",
    )


def _example_create_order(ctx: Ctx) -> dict[str, Any] | None:
    customer = ctx.first(Customer)
    if customer is None:
        return None
    for level in ctx.scan(InventoryLevel):
        if level.available < 1:
            continue
        loc = ctx.find(Location, level.location_id)
        variant = ctx.find(Variant, level.variant_id)
        product = ctx.find(Product, variant.product_id) if variant else None
        if loc and loc.active and product and product.status == "active":
            return {
                "customer_id": customer.id,
                "line_items": [{"variant_id": level.variant_id, "quantity": 1}],
                "location_id": loc.id,
            }
    return None


@service.tool(intent="place an order for the customer", write=True, example=_example_create_order)
def create_order(
    ctx: Ctx,
    customer_id: CustomerId,
    line_items: Annotated[list[ItemQuantity], Field(min_length=1, max_length=50)],
    location_id: LocationId | None = None,
    shipping_address: PostalAddress | None = None,
    shipping_price: Cents = 0,
    financial_status: Literal["pending", "paid"] = "paid",
    note: Text = "",
) -> Order:
    """Place an order for a customer, taking the ordered units out of one location's stock.

    Every variant must belong to an active product, and the location must have
    every line in stock: an order never asks for more units than are available.
    The order number is assigned by the store (#1001, #1002 …).

    Args:
        ctx: The call's context.
        customer_id: The customer placing the order.
        line_items: Variants and quantities to order; repeated variants are summed.
        location_id: Active location to take the stock from; omit to use the first one that has it all.
        shipping_address: Where to ship; omit to use the customer's default address.
        shipping_price: Shipping charged to the customer in cents.
        financial_status: 'paid' when payment was captured at checkout, 'pending' when it is still due.
        note: Note on the order.
    """
    customer = ctx.get(Customer, customer_id, field="customer_id")
    address = shipping_address or customer.default_address
    if address is None:
        raise RuleViolation(
            f"customer {customer.id} has no default address",
            field="shipping_address",
            hint="pass shipping_address, or set the customer's default_address",
        )
    wanted = _merge(line_items, "line_items")
    lines: list[LineItem] = []
    for vid, (i, qty) in wanted.items():
        variant = ctx.find(Variant, vid)
        if variant is None:
            raise NotFound(
                f"no variant with id {vid!r}",
                field=f"line_items.{i}.variant_id",
                hint="list variants with shop__list_variants",
            )
        product = ctx.get(Product, variant.product_id)
        if product.status != "active":
            raise RuleViolation(
                f"{product.title!r} is {product.status} and cannot be ordered",
                field=f"line_items.{i}.variant_id",
                hint="only variants of active products can be ordered; activate the product first",
            )
        title = product.title if variant.title == "Default Title" else f"{product.title} - {variant.title}"
        lines.append(
            LineItem(
                variant_id=vid, product_id=product.id, sku=variant.sku, title=title, quantity=qty, price=variant.price
            )
        )
    if location_id is not None:
        loc = _active_location(ctx, location_id, "location_id")
        for vid, (i, qty) in wanted.items():
            level = _level(ctx, vid, loc.id)
            have = level.available if level else 0
            if have < qty:
                raise RuleViolation(
                    f"only {have} units of {ctx.get(Variant, vid).sku} are available at {loc.name!r}; "
                    f"{qty} were ordered",
                    field=f"line_items.{i}.quantity",
                    hint=f"order at most {have}, pick another location, or restock first",
                )
    else:
        loc = _pick_location(ctx, wanted)
    for vid, (_, qty) in wanted.items():
        level = _level(ctx, vid, loc.id)
        assert level is not None
        ctx.update(level, available=level.available - qty)
    subtotal = sum(line.price * line.quantity for line in lines)
    return ctx.create(
        Order,
        customer_id=customer.id,
        email=customer.email,
        line_items=tuple(lines),
        location_id=loc.id,
        shipping_address=address,
        currency=ctx.population.home.place.currency,
        subtotal_price=subtotal,
        shipping_price=shipping_price,
        total_price=subtotal + shipping_price,
        financial_status=financial_status,
        note=note,
    )


@service.tool(
    intent="cancel the order",
    write=True,
    destructive=True,
    example=first_example(
        Order,
        "order_id",
        where={"status": "open", "fulfillment_status": "unfulfilled"},
        match=lambda ctx, o: ctx.first(Fulfillment, order_id=o.id, status="success") is None,
        reason="customer",
    ),
)
def cancel_order(ctx: Ctx, order_id: OrderId, reason: CancelReason = "customer", restock: bool = True) -> Order:
    """Cancel an open order that has not shipped, refunding what was paid and restocking its units.

    An order with an active fulfillment cannot be cancelled: the parcel is with
    the carrier. Cancel that fulfillment first (possible only before the carrier
    picked it up) or refund the order instead. A paid order is refunded in full
    of what remains; an unpaid one is voided.

    Args:
        ctx: The call's context.
        order_id: The order to cancel.
        reason: Why the order is cancelled.
        restock: Whether to put the unshipped units back into the location's stock.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status == "cancelled":
        raise RuleViolation(
            f"order {order.order_number} is already cancelled",
            field="order_id",
            hint="nothing to do; check the order with shop__get_order",
        )
    if order.status == "closed":
        raise RuleViolation(
            f"order {order.order_number} is closed", field="order_id", hint="reopen it with shop__reopen_order first"
        )
    shipped = ctx.first(Fulfillment, order_id=order.id, status="success")
    if shipped is not None:
        raise RuleViolation(
            f"order {order.order_number} has been fulfilled ({shipped.tracking_company} {shipped.tracking_number}, "
            f"{shipped.shipment_status}) and cannot be cancelled",
            field="order_id",
            hint="cancel the fulfillment first if it is still only confirmed, or refund the order with "
            "shop__create_refund",
        )
    back: list[ItemQuantity] = []
    for line in order.line_items:
        qty = line.quantity - line.refunded_quantity
        if restock and qty > 0 and ctx.find(Variant, line.variant_id) is not None:
            _restock(ctx, line.variant_id, order.location_id, qty)
            back.append(ItemQuantity(variant_id=line.variant_id, quantity=qty))
    financial = order.financial_status
    refunded = order.total_refunded
    if financial in ("paid", "partially_refunded"):
        remaining = order.total_price - order.total_refunded
        if remaining > 0:
            ctx.create(
                Refund,
                order_id=order.id,
                amount=remaining,
                currency=order.currency,
                reason="cancellation",
                refund_line_items=tuple(back),
                restock=restock,
                note=f"Order cancelled ({reason})",
            )
        financial, refunded = "refunded", order.total_price
    elif financial == "pending":
        financial = "voided"
    return ctx.update(
        order,
        status="cancelled",
        cancel_reason=reason,
        cancelled_at=ctx.now(),
        financial_status=financial,
        total_refunded=refunded,
    )


# -- fulfillments -------------------------------------------------------------------------


def _example_create_fulfillment(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(Order, status="open"):
        if any(_open_quantity(line) for line in order.line_items):
            n = int(order.id.rsplit("_", 1)[-1])
            return {"order_id": order.id, "tracking_company": "ups", "tracking_number": f"1ZEXAMPLE{n:09d}"}
    return None


@service.tool(intent="ship the order's items", write=True, example=_example_create_fulfillment)
def create_fulfillment(
    ctx: Ctx,
    order_id: OrderId,
    tracking_company: Carrier,
    tracking_number: TrackingNumber,
    line_items: Annotated[list[ItemQuantity], Field(max_length=50)] | None = None,
    tracking_url: Url | None = None,
    notify_customer: bool = True,
) -> Fulfillment:
    """Record that a parcel with some or all of an order's unshipped units was handed to a carrier.

    The order must be open; each quantity must not exceed what is still to
    ship on that line; a tracking number belongs to one parcel only.

    Args:
        ctx: The call's context.
        order_id: The order to fulfill.
        tracking_company: Carrier transporting the parcel.
        tracking_number: The carrier's tracking number of the parcel (from the shipping label).
        line_items: Variants and quantities in the parcel; omit to ship everything still open.
        tracking_url: Tracking page; omit to use the carrier's standard page.
        notify_customer: Whether to e-mail the shopper the tracking details.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "open":
        raise RuleViolation(
            f"order {order.order_number} is {order.status} and cannot be fulfilled",
            field="order_id",
            hint="only open orders can be fulfilled" + ("; reopen it first" if order.status == "closed" else ""),
        )
    taken = ctx.first(Fulfillment, tracking_number=tracking_number, status="success")
    if taken is not None:
        raise Conflict(
            f"tracking number {tracking_number} is already on fulfillment {taken.id}",
            field="tracking_number",
            hint="each parcel has its own tracking number; buy a label for this parcel",
        )
    lines = list(order.line_items)
    if line_items is None:
        shipped = [
            ItemQuantity(variant_id=line.variant_id, quantity=_open_quantity(line))
            for line in lines
            if _open_quantity(line)
        ]
        if not shipped:
            raise RuleViolation(
                f"order {order.order_number} has nothing left to ship",
                field="order_id",
                hint="every unit is already fulfilled or refunded",
            )
    else:
        shipped = []
        for vid, (i, qty) in _merge(line_items, "line_items").items():
            k = _line_index(order, vid, f"line_items.{i}.variant_id")
            left = _open_quantity(lines[k])
            if qty > left:
                raise RuleViolation(
                    f"only {left} units of {lines[k].sku} are left to ship on order {order.order_number}",
                    field=f"line_items.{i}.quantity",
                    hint=f"ship at most {left}",
                )
            shipped.append(ItemQuantity(variant_id=vid, quantity=qty))
    for item in shipped:
        k = _line_index(order, item.variant_id, "line_items")
        lines[k] = lines[k].model_copy(update={"fulfilled_quantity": lines[k].fulfilled_quantity + item.quantity})
    ctx.update(order, line_items=tuple(lines), fulfillment_status=_fulfillment_status(tuple(lines)))
    return ctx.create(
        Fulfillment,
        order_id=order.id,
        location_id=order.location_id,
        tracking_company=tracking_company,
        tracking_number=tracking_number,
        tracking_url=tracking_url or links.tracking_url(tracking_company, tracking_number),
        line_items=tuple(shipped),
        notify_customer=notify_customer,
    )


@service.tool(
    intent="cancel the fulfillment",
    write=True,
    example=first_example(Fulfillment, "fulfillment_id", where={"status": "success", "shipment_status": "confirmed"}),
)
def cancel_fulfillment(ctx: Ctx, fulfillment_id: FulfillmentId) -> Fulfillment:
    """Cancel a fulfillment whose parcel the carrier has not picked up yet; its units become unshipped again.

    Once the parcel is in transit, out for delivery or delivered the
    fulfillment cannot be cancelled.

    Args:
        ctx: The call's context.
        fulfillment_id: The fulfillment to cancel.
    """
    ful = ctx.get(Fulfillment, fulfillment_id, field="fulfillment_id")
    if ful.status == "cancelled":
        raise RuleViolation(
            f"fulfillment {ful.id} is already cancelled",
            field="fulfillment_id",
            hint="nothing to do; its units are already unshipped",
        )
    if ful.shipment_status != "confirmed":
        raise RuleViolation(
            f"the parcel of fulfillment {ful.id} is {ful.shipment_status} and the fulfillment cannot be cancelled",
            field="fulfillment_id",
            hint="once the carrier has the parcel, refund the order instead",
        )
    order = ctx.get(Order, ful.order_id)
    lines = list(order.line_items)
    for item in ful.line_items:
        for k, line in enumerate(lines):
            if line.variant_id == item.variant_id:
                lines[k] = line.model_copy(
                    update={"fulfilled_quantity": max(0, line.fulfilled_quantity - item.quantity)}
                )
                break
    ctx.update(order, line_items=tuple(lines), fulfillment_status=_fulfillment_status(tuple(lines)))
    return ctx.update(ful, status="cancelled")


def _example_update_tracking(ctx: Ctx) -> dict[str, Any] | None:
    for ful in ctx.where(Fulfillment, status="success"):
        if ful.shipment_status != "delivered":
            n = int(ful.id.rsplit("_", 1)[-1])
            return {"fulfillment_id": ful.id, "tracking_company": "dhl_express", "tracking_number": f"{n:010d}"}
    return None


@service.tool(intent="change the parcel's tracking details", write=True, example=_example_update_tracking)
def update_tracking(
    ctx: Ctx,
    fulfillment_id: FulfillmentId,
    tracking_company: Carrier,
    tracking_number: TrackingNumber,
    tracking_url: Url | None = None,
) -> Fulfillment:
    """Replace the carrier and tracking number of a fulfillment, e.g. after a label was re-bought.

    Cancelled fulfillments and delivered parcels keep their tracking details;
    a tracking number belongs to one parcel only.

    Args:
        ctx: The call's context.
        fulfillment_id: The fulfillment.
        tracking_company: The new carrier.
        tracking_number: The new tracking number.
        tracking_url: Tracking page; omit to use the carrier's standard page.
    """
    ful = ctx.get(Fulfillment, fulfillment_id, field="fulfillment_id")
    if ful.status == "cancelled":
        raise RuleViolation(f"fulfillment {ful.id} is cancelled", field="fulfillment_id", hint="create a new one")
    if ful.shipment_status == "delivered":
        raise RuleViolation(
            f"the parcel of fulfillment {ful.id} is delivered; its tracking details are final",
            field="fulfillment_id",
            hint="a delivered parcel keeps the tracking number it was delivered under",
        )
    taken = ctx.first(Fulfillment, tracking_number=tracking_number, status="success")
    if taken is not None and taken.id != ful.id:
        raise Conflict(
            f"tracking number {tracking_number} is already on fulfillment {taken.id}",
            field="tracking_number",
            hint="each parcel has its own tracking number",
        )
    return ctx.update(
        ful,
        tracking_company=tracking_company,
        tracking_number=tracking_number,
        tracking_url=tracking_url or links.tracking_url(tracking_company, tracking_number),
    )


# -- refunds ------------------------------------------------------------------------------


class RefundableLine(BaseModel):
    """How much of one order line can still be refunded."""

    variant_id: VariantId = Field(description="The variant.")
    sku: Sku = Field(description="Its SKU.")
    refundable_quantity: Quantity = Field(description="Units not refunded yet.")
    unit_price: Cents = Field(description="Unit price paid in cents.")


class RefundCalculation(BaseModel):
    """What a refund of an order may be."""

    order_id: OrderId = Field(description="The order.")
    paid: Cents = Field(description="Amount the customer paid in cents (0 while payment is pending).")
    refunded: Cents = Field(description="Amount already refunded in cents.")
    max_refundable: Cents = Field(description="Most that can still be refunded, in cents.")
    suggested_amount: Cents = Field(
        description="Value of the requested units in cents, capped at max_refundable (or max_refundable if none)."
    )
    lines: list[RefundableLine] = Field(description="Refundable units per line.")


def _paid(order: Order) -> int:
    return order.total_price if order.financial_status in ("paid", "partially_refunded", "refunded") else 0


def _check_refund_lines(order: Order, items: list[ItemQuantity], field: str) -> dict[int, int]:
    """Line index -> units to refund, checked against what is left to refund."""
    out: dict[int, int] = {}
    for vid, (i, qty) in _merge(items, field).items():
        k = _line_index(order, vid, f"{field}.{i}.variant_id")
        line = order.line_items[k]
        left = line.quantity - line.refunded_quantity
        if qty > left:
            raise RuleViolation(
                f"only {left} units of {line.sku} on order {order.order_number} can still be refunded",
                field=f"{field}.{i}.quantity",
                hint=f"refund at most {left} units",
            )
        out[k] = qty
    return out


@service.tool(
    intent="work out how much can be refunded",
    example=first_example(Order, "order_id", where={"financial_status": "paid"}),
)
def calculate_refund(
    ctx: Ctx, order_id: OrderId, refund_line_items: Annotated[list[ItemQuantity], Field(max_length=50)] | None = None
) -> RefundCalculation:
    """Calculate what can still be refunded on an order, and what refunding some units would come to.

    Args:
        ctx: The call's context.
        order_id: The order.
        refund_line_items: Units to price; omit to only see the limits.
    """
    order = ctx.get(Order, order_id, field="order_id")
    paid = _paid(order)
    max_refundable = paid - order.total_refunded
    if refund_line_items:
        picked = _check_refund_lines(order, refund_line_items, "refund_line_items")
        suggested = min(max_refundable, sum(order.line_items[k].price * q for k, q in picked.items()))
    else:
        suggested = max_refundable
    return RefundCalculation(
        order_id=order.id,
        paid=paid,
        refunded=order.total_refunded,
        max_refundable=max_refundable,
        suggested_amount=suggested,
        lines=[
            RefundableLine(
                variant_id=line.variant_id,
                sku=line.sku,
                refundable_quantity=line.quantity - line.refunded_quantity,
                unit_price=line.price,
            )
            for line in order.line_items
        ],
    )


def _example_create_refund(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(Order, financial_status="paid")
    return {"order_id": order.id, "amount": min(500, order.total_price)} if order else None


@service.tool(intent="refund the customer", write=True, example=_example_create_refund)
def create_refund(
    ctx: Ctx,
    order_id: OrderId,
    amount: Cents | None = None,
    refund_line_items: Annotated[list[ItemQuantity], Field(max_length=50)] | None = None,
    restock: bool = False,
    reason: RefundReason = "customer_request",
    note: Text = "",
) -> Refund:
    """Give money back on a paid order, optionally for units that are returned to stock.

    The refund can never exceed what the customer paid minus what was already
    refunded; units can only be refunded once. Orders whose payment is still
    pending have nothing to refund.

    Args:
        ctx: The call's context.
        order_id: The order to refund.
        amount: Amount to refund in cents; omit to refund the value of refund_line_items.
        refund_line_items: Units the refund is for; omit for a refund of money only (e.g. a goodwill credit).
        restock: Whether the refunded units go back into the order location's stock.
        reason: Why the money is refunded.
        note: Staff note.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.financial_status in ("pending", "voided"):
        raise RuleViolation(
            f"order {order.order_number} is {order.financial_status}: nothing was paid, so nothing can be refunded",
            field="order_id",
            hint="cancel an unpaid order instead, or mark it paid once the payment arrives",
        )
    max_refundable = order.total_price - order.total_refunded
    if max_refundable <= 0:
        raise RuleViolation(
            f"order {order.order_number} is already fully refunded", field="order_id", hint="nothing is left to refund"
        )
    picked = _check_refund_lines(order, refund_line_items, "refund_line_items") if refund_line_items else {}
    value = sum(order.line_items[k].price * q for k, q in picked.items())
    money = value if amount is None else amount
    if money == 0 and not picked:
        raise RuleViolation(
            "nothing to refund", field="amount", hint="pass an amount above 0 or the refund_line_items to refund"
        )
    if money > max_refundable:
        raise RuleViolation(
            f"cannot refund {money} cents: the customer paid {order.total_price} and {order.total_refunded} "
            f"was already refunded",
            field="amount",
            hint=f"refund at most {max_refundable} cents",
        )
    if restock and not picked:
        raise RuleViolation(
            "restock needs refund_line_items", field="restock", hint="list the units going back into stock"
        )
    lines = list(order.line_items)
    for k, q in picked.items():
        line = lines[k]
        if restock:
            if ctx.find(Variant, line.variant_id) is None:
                raise RuleViolation(
                    f"variant {line.variant_id} ({line.sku}) no longer exists and cannot be restocked",
                    field="restock",
                    hint="refund without restock",
                )
            _restock(ctx, line.variant_id, order.location_id, q)
        lines[k] = line.model_copy(update={"refunded_quantity": line.refunded_quantity + q})
    refunded = order.total_refunded + money
    ctx.update(
        order,
        line_items=tuple(lines),
        total_refunded=refunded,
        financial_status="refunded" if refunded >= order.total_price else "partially_refunded",
        fulfillment_status=_fulfillment_status(tuple(lines)),
    )
    return ctx.create(
        Refund,
        order_id=order.id,
        amount=money,
        currency=order.currency,
        reason=reason,
        refund_line_items=tuple(
            ItemQuantity(variant_id=order.line_items[k].variant_id, quantity=q) for k, q in picked.items()
        ),
        restock=restock,
        note=note,
    )


# -- customers ----------------------------------------------------------------------------


class CustomerSummary(BaseModel):
    """A customer's history with the store."""

    customer_id: CustomerId = Field(description="The customer.")
    email: Email = Field(description="The customer's e-mail address.")
    orders_count: int = Field(description="Number of orders, cancelled ones included.")
    open_orders: int = Field(description="Orders still open.")
    total_spent: Cents = Field(description="Paid minus refunded over all orders, in cents.")
    last_order_number: OrderNumber | None = Field(description="Number of the latest order, if any.")


@service.tool(intent="see what the customer has bought")
def customer_summary(ctx: Ctx, customer_id: CustomerId) -> CustomerSummary:
    """Summarise a customer's orders and total spend.

    Args:
        ctx: The call's context.
        customer_id: The customer.
    """
    customer = ctx.get(Customer, customer_id, field="customer_id")
    mine = ctx.where(Order, customer_id=customer.id)
    return CustomerSummary(
        customer_id=customer.id,
        email=customer.email,
        orders_count=len(mine),
        open_orders=sum(1 for o in mine if o.status == "open"),
        total_spent=sum(_paid(o) - o.total_refunded for o in mine),
        last_order_number=mine[-1].order_number if mine else None,
    )


# -- inventory ----------------------------------------------------------------------------


@service.tool(
    intent="correct the stock count",
    write=True,
    example=first_example(
        InventoryLevel,
        match=_at_active_location,
        fields={"variant_id": "variant_id", "location_id": "location_id"},
        adjustment=5,
    ),
)
def adjust_inventory(
    ctx: Ctx,
    variant_id: VariantId,
    location_id: LocationId,
    adjustment: Annotated[int, Field(ge=-1_000_000, le=1_000_000)],
    reason: Literal["received", "correction", "damaged", "shrinkage", "returned"] = "correction",
) -> InventoryLevel:
    """Add units to or take units from a variant's stock at a location where it is stocked.

    Stock can never go below zero.

    Args:
        ctx: The call's context.
        variant_id: The variant.
        location_id: The active location.
        adjustment: Units to add (positive) or remove (negative).
        reason: Why the stock changes.
    """
    _active_location(ctx, location_id, "location_id")
    level = _level(ctx, variant_id, location_id)
    if level is None:
        raise NotFound(
            f"variant {variant_id} is not stocked at location {location_id}",
            field="location_id",
            hint="stock it there first with shop__set_inventory_level",
        )
    if adjustment == 0:
        raise RuleViolation("adjustment must not be 0", field="adjustment", hint="pass a positive or negative count")
    if level.available + adjustment < 0:
        raise RuleViolation(
            f"only {level.available} units are available; cannot remove {-adjustment}",
            field="adjustment",
            hint=f"remove at most {level.available}",
        )
    return ctx.update(level, available=level.available + adjustment)


def _example_set_level(ctx: Ctx) -> dict[str, Any] | None:
    variant = ctx.first(Variant)
    loc = ctx.first(Location, active=True)
    return {"variant_id": variant.id, "location_id": loc.id, "available": 40} if variant and loc else None


@service.tool(intent="set the stock count", write=True, idempotent=True, example=_example_set_level)
def set_inventory_level(
    ctx: Ctx, variant_id: VariantId, location_id: LocationId, available: Quantity
) -> InventoryLevel:
    """Set the number of available units of a variant at an active location, stocking it there if needed.

    Args:
        ctx: The call's context.
        variant_id: The variant.
        location_id: The active location.
        available: The counted number of units available.
    """
    _active_location(ctx, location_id, "location_id")
    level = _level(ctx, variant_id, location_id)
    if level is None:
        return ctx.create(InventoryLevel, variant_id=variant_id, location_id=location_id, available=available)
    if level.available == available:
        return level
    return ctx.update(level, available=available)


class Transfer(BaseModel):
    """Stock at both ends of a transfer, after it."""

    source: InventoryLevel = Field(description="Stock at the location the units left.")
    destination: InventoryLevel = Field(description="Stock at the location the units arrived at.")


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    actives = [loc for loc in ctx.scan(Location) if loc.active]
    for level in ctx.scan(InventoryLevel):
        if level.available < 1:
            continue
        for loc in actives:
            if loc.id != level.location_id and any(a.id == level.location_id for a in actives):
                return {
                    "variant_id": level.variant_id,
                    "from_location_id": level.location_id,
                    "to_location_id": loc.id,
                    "quantity": 1,
                }
    return None


@service.tool(intent="move stock to another location", write=True, example=_example_transfer)
def transfer_inventory(
    ctx: Ctx,
    variant_id: VariantId,
    from_location_id: LocationId,
    to_location_id: LocationId,
    quantity: PositiveQuantity,
) -> Transfer:
    """Move units of a variant from one active location to another.

    Args:
        ctx: The call's context.
        variant_id: The variant.
        from_location_id: Location the units leave.
        to_location_id: Active location the units arrive at.
        quantity: Units to move; at most what the source has available.
    """
    if from_location_id == to_location_id:
        raise RuleViolation(
            "source and destination are the same location", field="to_location_id", hint="pick another location"
        )
    _active_location(ctx, to_location_id, "to_location_id")
    source = _level(ctx, variant_id, from_location_id)
    have = source.available if source else 0
    if source is None or have < quantity:
        raise RuleViolation(
            f"only {have} units are available at {from_location_id}; cannot move {quantity}",
            field="quantity",
            hint=f"move at most {have}",
        )
    source = ctx.update(source, available=have - quantity)
    _restock(ctx, variant_id, to_location_id, quantity)
    dest = _level(ctx, variant_id, to_location_id)
    assert dest is not None
    return Transfer(source=source, destination=dest)


# -- catalogue deletions ------------------------------------------------------------------


@service.tool(
    intent="delete the product",
    write=True,
    destructive=True,
    example=first_example(
        Product,
        "product_id",
        match=lambda ctx, p: (
            p.status != "active" and _has_open_lines(ctx, {v.id for v in ctx.where(Variant, product_id=p.id)}) is None
        ),
    ),
)
def delete_product(ctx: Ctx, product_id: ProductId) -> Deleted:
    """Delete a product with all its variants and their stock records.

    A product whose variants still have to ship on an open order cannot be
    deleted; archive it instead. Past orders keep their lines.

    Args:
        ctx: The call's context.
        product_id: The product to delete.
    """
    product = ctx.get(Product, product_id, field="product_id")
    vs = ctx.where(Variant, product_id=product.id)
    pending = _has_open_lines(ctx, {v.id for v in vs})
    if pending is not None:
        raise RuleViolation(
            f"order {pending.order_number} still has to ship {product.title!r}",
            field="product_id",
            hint="archive the product with shop__archive_product, or fulfill or cancel that order first",
        )
    for v in vs:
        for level in ctx.where(InventoryLevel, variant_id=v.id):
            ctx.delete(level)
        ctx.delete(v)
    ctx.delete(product)
    return Deleted(id=product.id)


def _example_delete_variant(ctx: Ctx) -> dict[str, Any] | None:
    for product in ctx.scan(Product):
        vs = ctx.where(Variant, product_id=product.id)
        if len(vs) >= 2 and _has_open_lines(ctx, {vs[-1].id}) is None:
            return {"variant_id": vs[-1].id}
    return None


@service.tool(intent="delete the variant", write=True, destructive=True, example=_example_delete_variant)
def delete_variant(ctx: Ctx, variant_id: VariantId) -> Deleted:
    """Delete a variant and its stock records.

    An active product must keep at least one variant, and a variant that still
    has to ship on an open order cannot be deleted.

    Args:
        ctx: The call's context.
        variant_id: The variant to delete.
    """
    variant = ctx.get(Variant, variant_id, field="variant_id")
    product = ctx.get(Product, variant.product_id)
    if product.status == "active" and len(ctx.where(Variant, product_id=product.id)) == 1:
        raise RuleViolation(
            f"{variant.sku} is the last variant of the active product {product.title!r}",
            field="variant_id",
            hint="archive the product instead, or add another variant first",
        )
    pending = _has_open_lines(ctx, {variant.id})
    if pending is not None:
        raise RuleViolation(
            f"order {pending.order_number} still has to ship {variant.sku}",
            field="variant_id",
            hint="fulfill or cancel that order first",
        )
    for level in ctx.where(InventoryLevel, variant_id=variant.id):
        ctx.delete(level)
    ctx.delete(variant)
    return Deleted(id=variant.id)


# -- seed ---------------------------------------------------------------------------------

_DAY = dt.timedelta(days=1)

SEEDED_SHIPMENT_STATUS: dict[int, str] = {2: "in_transit", 3: "delivered", 5: "delivered", 6: "confirmed"}
"""Plans (``i % 8`` of consumer ``i``) whose first order has a parcel, and where that parcel is.

The shipping service seeds the labels of these parcels under the same order
numbers and tracking numbers (see :mod:`compoworld.world.commerce`).
"""


@service.seeder
def seed(s: SeedContext) -> None:
    """Locations, the population's products as products and variants with stock, consumers as customers, orders."""
    locations = _seed_locations(s)
    sellable = _seed_products(s, locations)
    customers = _seed_customers(s)
    if not sellable:
        return
    warehouse = locations[0]
    # Consumer i's first order (if links.places_first_order(i)) follows plan i % 8; placed in consumer order
    # before any other, it is numbered links.first_order_number(i), as shipping and helpdesk expect.
    for i, customer in enumerate(customers):
        if links.places_first_order(i):
            _seed_order(s, i, customer, i % 8, sellable, warehouse)
    for i, customer in enumerate(customers):
        if links.places_first_order(i) and s.rng.random() < 0.3:
            _seed_order(s, len(customers) + i, customer, s.rng.choice((0, 1)), sellable, warehouse)


def _seed_locations(s: SeedContext) -> tuple[Location, Location, Location]:
    """The warehouse at the home address and three local shops (one closed).

    Returns:
        The warehouse, the city store and the returns desk: where seeded stock is.
    """
    home = s.population.home
    place = home.place
    rng = s.rng

    def local_address() -> PostalAddress:
        postal = f"{place.postal_prefix}{rng.randint(100, 999)}"
        street = f"{rng.randint(1, 240)} {rng.choice(('Market Square', 'Canal Street', 'Station Road', 'Mill Lane'))}"
        return PostalAddress(street=street, city=place.city, postal_code=postal, country=place.country)

    warehouse = s.create(Location, name="Main warehouse", address=home.address, created_at=s.ago(days=900))
    store = s.create(Location, name=f"{place.city} store", address=local_address(), created_at=s.ago(days=400))
    s.create(Location, name="Pop-up store", address=local_address(), active=False, created_at=s.ago(days=200))
    returns = s.create(Location, name="Returns desk", address=local_address(), created_at=s.ago(days=100))
    return warehouse, store, returns


def _seed_products(s: SeedContext, locations: tuple[Location, Location, Location]) -> list[tuple[Variant, Product]]:
    """The population's products, with one variant per size of apparel; return the active products' variants."""
    home = s.population.home
    sellable: list[tuple[Variant, Product]] = []
    for j, p in enumerate(s.population.products):
        status = "draft" if j % 10 == 7 else "archived" if j % 20 == 13 else "active"
        created = s.ago(days=s.rng.randint(30, 700))
        product = s.create(
            Product,
            title=p.name,
            body=f"The {p.name}, from the {home.name} {p.category} range.",
            product_type=p.category,
            vendor=home.name,
            status=status,
            tags=f"{p.category}, {p.name.split()[0].lower()}",
            created_at=created,
            updated_at=created,
        )
        variants = _seed_variants(s, product, p, locations)
        if status == "active":
            sellable.extend((variant, product) for variant in variants)
    return sellable


def _seed_variants(
    s: SeedContext, product: Product, p: CatalogProduct, locations: tuple[Location, Location, Location]
) -> list[Variant]:
    """The variants of one product, each followed by its stock at the locations."""
    options = (
        [("M", p.sku), ("S", f"{p.sku}-S"), ("L", f"{p.sku}-L")]
        if p.category == "apparel"
        else [("Default Title", p.sku)]
    )
    variants = []
    for title, sku in options:
        variant = s.create(
            Variant,
            product_id=product.id,
            title=title,
            sku=sku,
            price=p.price_cents,
            compare_at_price=p.price_cents * 5 // 4 if s.rng.random() < 0.2 else None,
            weight_grams=p.weight_grams,
            created_at=product.created_at,
            updated_at=product.created_at,
        )
        _seed_levels(s, variant, locations)
        variants.append(variant)
    return variants


def _seed_levels(s: SeedContext, variant: Variant, locations: tuple[Location, Location, Location]) -> None:
    """Stock of a variant: always at the warehouse (sometimes none), often at the store, at times at returns."""
    rng = s.rng
    warehouse, store, returns = locations
    s.create(
        InventoryLevel,
        variant_id=variant.id,
        location_id=warehouse.id,
        available=0 if rng.random() < 0.1 else rng.randint(5, 150),
    )
    if rng.random() < 0.5:
        s.create(InventoryLevel, variant_id=variant.id, location_id=store.id, available=rng.randint(0, 40))
    if rng.random() < 0.2:
        s.create(InventoryLevel, variant_id=variant.id, location_id=returns.id, available=0)


def _seed_customers(s: SeedContext) -> list[Customer]:
    customers: list[Customer] = []
    for person in s.population.consumers:
        since = s.ago(days=s.rng.randint(10, 900))
        customers.append(
            s.create(
                Customer,
                email=person.email,
                first_name=person.first_name,
                last_name=person.last_name,
                phone=person.phone,
                default_address=person.address,
                accepts_marketing=s.rng.random() < 0.4,
                created_at=since,
                updated_at=since,
            )
        )
    return customers


def _seed_order(
    s: SeedContext,
    i: int,
    customer: Customer,
    plan: int,
    sellable: Sequence[tuple[Variant, Product]],
    warehouse: Location,
) -> None:
    """Seed the customer's order number ``i`` (counting from 0) and what followed it, by ``plan``.

    Plans: 0 pending payment, 1 paid, 2 shipped and in transit, 3 delivered
    with one unit refunded, 4 cancelled (refunded or voided), 5 delivered,
    6 partly shipped, 7 paid.
    """
    rng = s.rng
    picked = rng.sample(sellable, min(len(sellable), rng.randint(2 if plan == 6 else 1, 3)))
    lines = [
        LineItem(
            variant_id=v.id,
            product_id=prod.id,
            sku=v.sku,
            title=prod.title if v.title == "Default Title" else f"{prod.title} - {v.title}",
            quantity=rng.randint(1, 3),
            price=v.price,
        )
        for v, prod in picked
    ]
    if plan in (2, 3, 5):
        lines = [li.model_copy(update={"fulfilled_quantity": li.quantity}) for li in lines]
    elif plan == 6:
        lines[0] = lines[0].model_copy(update={"fulfilled_quantity": lines[0].quantity})
    refund_line = None
    if plan == 3:
        lines[0] = lines[0].model_copy(update={"refunded_quantity": 1})
        refund_line = lines[0]
    subtotal = sum(li.price * li.quantity for li in lines)
    shipping = rng.choice((0, 499, 999))
    total = subtotal + shipping
    placed = s.ago(days=rng.randint(20, 60) if plan in (3, 5) else rng.randint(1, 15), minutes=i)
    financial = {0: "pending", 3: "partially_refunded", 4: "refunded" if i % 16 == 4 else "voided"}.get(plan, "paid")
    refunded = refund_line.price if refund_line else total if financial == "refunded" else 0
    order = s.create(
        Order,
        customer_id=customer.id,
        email=customer.email,
        line_items=tuple(lines),
        location_id=warehouse.id,
        shipping_address=customer.default_address,
        currency=s.population.home.place.currency,
        subtotal_price=subtotal,
        shipping_price=shipping,
        total_price=total,
        total_refunded=refunded,
        financial_status=financial,
        fulfillment_status=_fulfillment_status(tuple(lines)),
        status="closed" if plan in (3, 5) else "cancelled" if plan == 4 else "open",
        cancel_reason=rng.choice(("customer", "inventory", "declined")) if plan == 4 else None,
        cancelled_at=placed + dt.timedelta(hours=5) if plan == 4 else None,
        created_at=placed,
        updated_at=placed + 2 * _DAY if plan in (3, 4, 5) else placed,
    )
    if plan in SEEDED_SHIPMENT_STATUS:
        _seed_fulfillment(s, order, i, plan, warehouse)
    if refund_line is not None or financial == "refunded":
        _seed_refund(s, order, refund_line)


def _seed_refund(s: SeedContext, order: Order, damaged: LineItem | None) -> None:
    """A refund of one damaged unit of a delivered order, or of the whole of a cancelled one."""
    if damaged is not None:
        s.create(
            Refund,
            order_id=order.id,
            amount=damaged.price,
            currency=order.currency,
            reason="damaged",
            refund_line_items=(ItemQuantity(variant_id=damaged.variant_id, quantity=1),),
            note="Arrived damaged; customer kept the rest of the order.",
            created_at=order.created_at + 6 * _DAY,
        )
        return
    s.create(
        Refund,
        order_id=order.id,
        amount=order.total_price,
        currency=order.currency,
        reason="cancellation",
        restock=True,
        refund_line_items=tuple(
            ItemQuantity(variant_id=li.variant_id, quantity=li.quantity) for li in order.line_items
        ),
        note="Order cancelled",
        created_at=order.created_at + dt.timedelta(hours=5),
    )


def _seed_fulfillment(s: SeedContext, order: Order, i: int, plan: int, warehouse: Location) -> None:
    """The shipment of an order's fulfilled lines, under the tracking number the shipping service seeds."""
    carriers = links.carriers_from(s.population.home.place.country)
    carrier = carriers[i % len(carriers)]
    number = links.seeded_tracking_number(s.population.seed, order.order_number, carrier)
    placed = order.created_at
    s.create(
        Fulfillment,
        order_id=order.id,
        location_id=warehouse.id,
        shipment_status=SEEDED_SHIPMENT_STATUS[plan],
        tracking_company=carrier,
        tracking_number=number,
        tracking_url=links.tracking_url(carrier, number),
        line_items=tuple(
            ItemQuantity(variant_id=li.variant_id, quantity=li.fulfilled_quantity)
            for li in order.line_items
            if li.fulfilled_quantity
        ),
        created_at=placed + _DAY,
        updated_at=placed + (4 if plan in (3, 5) else 1) * _DAY,
    )
