"""SellerDesk: the home company's seller account on a large marketplace, with fulfilment by the marketplace.

Modeled on the Amazon Selling Partner API: Listings Items (seller SKU, ASIN,
attributes, status BUYABLE/DISCOVERABLE, issues with severity ERROR or WARNING
naming the attribute at fault; a listing with an ERROR issue is not buyable
until a patch fixes that attribute), FBA Inventory (fulfillable, inbound,
reserved and unfulfillable units per fulfilment center), Fulfillment Inbound
(shipment plans that go WORKING → SHIPPED → RECEIVING → CLOSED, or CANCELLED
before they are received; receiving never exceeds what was shipped), Orders
(Pending → Unshipped → Shipped, or Canceled; AFN orders ship from FBA stock,
MFN orders need the seller's carrier and tracking), FBA returns (authorized,
then received as sellable or damaged, back into stock) and Reports
(IN_QUEUE → IN_PROGRESS → DONE, or CANCELLED while queued).
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
    PersonName,
    Quantity,
    Sku,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "sellercentral",
    title="SellerDesk",
    category="marketplace_seller",
    modeled_on="Amazon Selling Partner API (Listings Items 2021-08-01, FBA Inventory v1, Fulfillment Inbound v0, "
    "Orders v0, FBA returns, Reports 2021-06-30)",
    description="The home company's seller account on a large online marketplace: its listings and their "
    "issues, stock held at the marketplace's fulfilment centers, inbound shipments that send stock there, the "
    "buyers' orders shipped by the marketplace or by the company, returns coming back, and requested reports.",
)

ListingId = Annotated[str, IdOf("sellercentral.listing")]
InventoryId = Annotated[str, IdOf("sellercentral.inventory")]
InboundId = Annotated[str, IdOf("sellercentral.inbound_shipment")]
OrderId = Annotated[str, IdOf("sellercentral.order")]
ReturnId = Annotated[str, IdOf("sellercentral.return")]
ReportId = Annotated[str, IdOf("sellercentral.report")]

Asin = Annotated[str, StringConstraints(pattern=r"^B0[A-Z0-9]{8}$")]
"""An Amazon Standard Identification Number."""
AmazonOrderId = Annotated[str, StringConstraints(pattern=r"^\d{3}-\d{7}-\d{7}$")]
PositiveQuantity = Annotated[Quantity, Field(ge=1)]
Brand = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=50)]
Center = Literal["PHX7", "ONT8", "BFI4", "MDW2", "EWR4"]
Channel = Literal["AFN", "MFN"]
ListingStatus = Literal["BUYABLE", "DISCOVERABLE", "INACTIVE"]
Attribute = Literal["item_name", "brand", "list_price", "main_image"]
InboundStatus = Literal["WORKING", "SHIPPED", "RECEIVING", "CLOSED", "CANCELLED"]
OrderStatus = Literal["Pending", "Unshipped", "Shipped", "Canceled"]
ReturnStatus = Literal["Authorized", "Received", "Closed"]
ReturnReason = Literal["DEFECTIVE", "NOT_AS_DESCRIBED", "NO_LONGER_NEEDED", "WRONG_ITEM", "DAMAGED_BY_CARRIER"]
Condition = Literal["SELLABLE", "DAMAGED"]
ReportType = Literal[
    "GET_MERCHANT_LISTINGS_ALL_DATA",
    "GET_FBA_MYI_UNSUPPRESSED_INVENTORY_DATA",
    "GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE",
]
ReportStatus = Literal["IN_QUEUE", "IN_PROGRESS", "DONE", "CANCELLED"]
Carrier = Literal["UPS", "USPS", "FedEx", "DHL"]

MIN_PRICE = 100
MAX_REPORT_DAYS = 90


class Issue(Value):
    """A problem the marketplace found with a listing."""

    code: Annotated[str, StringConstraints(pattern=r"^\d{4,6}$")]
    """The issue code."""
    severity: Literal["ERROR", "WARNING"]
    """ERROR (the listing is not buyable) or WARNING."""
    attribute: Attribute
    """The attribute at fault; patching it clears the issue."""
    message: Title
    """What is wrong."""


class Listing(Timestamped):
    """One seller SKU offered on an ASIN."""

    id: ListingId
    sku: Sku
    """The seller's SKU (unique)."""
    asin: Asin
    """The catalogue item it is offered on."""
    item_name: Title
    """The title."""
    brand: Brand
    """The brand."""
    list_price: Cents
    """The price in cents."""
    main_image: bool = True
    """Whether a main image is uploaded."""
    fulfillment_channel: Channel = "AFN"
    """AFN (fulfilled by the marketplace) or MFN (by the seller)."""
    status: ListingStatus = "BUYABLE"
    """BUYABLE, DISCOVERABLE (shown, not buyable: an ERROR issue or no stock) or INACTIVE."""
    issues: tuple[Issue, ...] = ()
    """Open issues."""


class Inventory(Record):
    """FBA stock of one SKU at one fulfilment center."""

    id: InventoryId
    sku: Sku
    """The seller SKU."""
    fulfillment_center: Center
    """The fulfilment center."""
    fulfillable: Quantity = 0
    """Units that can be sold."""
    inbound: Quantity = 0
    """Units shipped to the center, not received yet."""
    reserved: Quantity = 0
    """Units held for pending orders."""
    unfulfillable: Quantity = 0
    """Damaged units."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class InboundItem(Value):
    """One SKU of an inbound shipment."""

    sku: Sku
    """The seller SKU."""
    quantity_shipped: PositiveQuantity
    """Units sent."""
    quantity_received: Quantity = 0
    """Units the center has received."""


class InboundShipment(Timestamped):
    """A shipment of stock to a fulfilment center."""

    id: InboundId
    name: Title
    """The shipment's name."""
    destination: Center
    """The fulfilment center."""
    items: tuple[InboundItem, ...]
    """What it holds."""
    status: InboundStatus = "WORKING"
    """WORKING, SHIPPED, RECEIVING, CLOSED or CANCELLED."""
    carrier: Carrier | None = None
    """The carrier taking it to the center."""
    tracking_number: TrackingNumber | None = None
    """The carrier's tracking number."""


class OrderItem(Value):
    """One SKU of an order."""

    sku: Sku
    """The seller SKU."""
    quantity: PositiveQuantity
    """Units."""
    item_price: Cents
    """Price per unit in cents."""


class Order(Timestamped):
    """A buyer's order."""

    id: OrderId
    amazon_order_id: AmazonOrderId
    """The marketplace's order id."""
    buyer_email: Email
    """The buyer's (proxy) e-mail."""
    buyer_name: PersonName
    """The buyer's name."""
    items: tuple[OrderItem, ...]
    """What was bought."""
    order_total: Cents
    """Total in cents."""
    fulfillment_channel: Channel
    """AFN or MFN."""
    fulfillment_center: Center | None = None
    """Where an AFN order ships from."""
    status: OrderStatus = "Unshipped"
    """Pending, Unshipped, Shipped or Canceled."""
    carrier: Carrier | None = None
    """The carrier of an MFN order."""
    tracking_number: TrackingNumber | None = None
    """Its tracking number."""
    purchase_date: DateTime
    """When it was bought."""


class Return(Timestamped):
    """A buyer's return of units of an order."""

    id: ReturnId
    order_id: OrderId
    """The order."""
    sku: Sku
    """The SKU returned."""
    quantity: PositiveQuantity
    """Units returned."""
    reason: ReturnReason
    """Why."""
    status: ReturnStatus = "Authorized"
    """Authorized, Received or Closed."""
    condition: Condition | None = None
    """SELLABLE or DAMAGED, once received."""


class Report(Record):
    """A requested report."""

    id: ReportId
    report_type: ReportType
    """What it reports."""
    data_start: Date
    """First day covered."""
    data_end: Date
    """Last day covered."""
    status: ReportStatus = "IN_QUEUE"
    """IN_QUEUE, IN_PROGRESS, DONE or CANCELLED."""
    row_count: int | None = None
    """Rows in the document, once done."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


# -- helpers ----------------------------------------------------------------------------------


def _stock(ctx: Ctx, sku: str, center: str) -> Inventory:
    row = ctx.first(Inventory, sku=sku, fulfillment_center=center)
    return row if row is not None else ctx.create(Inventory, sku=sku, fulfillment_center=center)


def _listing(ctx: Ctx, sku: str, field: str) -> Listing:
    listing = ctx.first(Listing, sku=sku)
    if listing is None:
        raise RuleViolation(f"no listing has SKU {sku}", field=field, hint="list listings for the seller SKUs")
    return listing


def _status(ctx: Ctx, listing: Listing) -> ListingStatus:
    if listing.status == "INACTIVE":
        return "INACTIVE"
    if any(i.severity == "ERROR" for i in listing.issues):
        return "DISCOVERABLE"
    if listing.fulfillment_channel == "AFN" and not any(r.fulfillable for r in ctx.where(Inventory, sku=listing.sku)):
        return "DISCOVERABLE"
    return "BUYABLE"


def _refresh(ctx: Ctx, sku: str) -> None:
    listing = ctx.first(Listing, sku=sku)
    if listing is not None and _status(ctx, listing) != listing.status:
        ctx.update(listing, status=_status(ctx, listing))


def _guard_listing_delete(ctx: Ctx, new: Any, old: Any) -> None:
    held = sum(r.fulfillable + r.inbound + r.reserved for r in ctx.where(Inventory, sku=old.sku))
    if held:
        raise Conflict(
            f"{held} units of {old.sku} are at or on their way to fulfilment centers",
            field="listing_id",
            hint="set the listing INACTIVE with sellercentral__deactivate_listing instead",
        )


listings = service.resource(
    Listing,
    name="listing",
    plural="listings",
    prefix="lst",
    create=False,
    filters=("sku", "asin", "status", "fulfillment_channel"),
    search=("item_name", "sku"),
    guard_delete=_guard_listing_delete,
    transitions={
        "deactivate": Transition("status", ("BUYABLE", "DISCOVERABLE"), "INACTIVE", "deactivate the listing"),
    },
)
inventory = service.resource(
    Inventory,
    name="inventory",
    plural="inventory",
    prefix="inv",
    create=False,
    filters=("sku", "fulfillment_center"),
    delete=False,
    title="FBA inventory",
)
inbound = service.resource(
    InboundShipment,
    name="inbound_shipment",
    plural="inbound_shipments",
    prefix="FBA",
    create=False,
    filters=("destination", "status"),
    search=("name",),
    delete=False,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("amazon_order_id", "buyer_email", "status", "fulfillment_channel"),
    delete=False,
)
returns = service.resource(
    Return,
    name="return",
    plural="returns",
    prefix="ret",
    create=False,
    filters=("order_id", "sku", "status", "reason"),
    delete=False,
    transitions={"close": Transition("status", ("Received",), "Closed", "close the return")},
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    filters=("report_type", "status"),
    delete=False,
    transitions={"cancel": Transition("status", ("IN_QUEUE",), "CANCELLED", "cancel the report")},
)


# -- listings ---------------------------------------------------------------------------------


def _example_put(ctx: Ctx) -> dict[str, Any] | None:
    return {"sku": "NEW-SKU-001", "asin": "B0NEWITEM1", "item_name": "Travel Mug", "brand": "Acme", "list_price": 1999}


@service.tool(intent="create a listing", write=True, example=_example_put)
def put_listing(
    ctx: Ctx,
    sku: Sku,
    asin: Asin,
    item_name: Title,
    brand: Brand,
    list_price: Cents,
    fulfillment_channel: Channel = "AFN",
) -> Listing:
    """Offer a new seller SKU on an ASIN; an AFN listing is discoverable until stock reaches a center.

    Args:
        sku: The seller SKU (unique).
        asin: The catalogue item.
        item_name: The title.
        brand: The brand.
        list_price: The price in cents (at least 100).
        fulfillment_channel: AFN (the marketplace ships) or MFN (the seller ships).
    """
    if ctx.first(Listing, sku=sku) is not None:
        raise Conflict(f"SKU {sku} is already listed", field="sku", hint="patch the existing listing")
    if list_price < MIN_PRICE:
        raise RuleViolation(f"list_price must be at least {MIN_PRICE}", field="list_price", hint="price in cents")
    listing = ctx.create(
        Listing,
        sku=sku,
        asin=asin,
        item_name=item_name,
        brand=brand,
        list_price=list_price,
        fulfillment_channel=fulfillment_channel,
    )
    return ctx.update(listing, status=_status(ctx, listing))


@service.tool(
    intent="patch the listing",
    write=True,
    example=first_example(
        Listing, "listing_id", match=lambda ctx, r: bool(r.issues), fields={"list_price": "list_price"}
    ),
)
def patch_listing(
    ctx: Ctx,
    listing_id: ListingId,
    item_name: Title | None = None,
    brand: Brand | None = None,
    list_price: Cents | None = None,
    main_image: bool | None = None,
) -> Listing:
    """Change a listing's attributes; issues on a patched attribute clear, and its status is recomputed.

    Args:
        listing_id: The listing.
        item_name: A new title.
        brand: A new brand.
        list_price: A new price in cents (at least 100).
        main_image: Whether a main image is uploaded.
    """
    listing = ctx.get(Listing, listing_id, field="listing_id")
    changes: dict[str, Any] = {
        k: v
        for k, v in (("item_name", item_name), ("brand", brand), ("list_price", list_price), ("main_image", main_image))
        if v is not None
    }
    if not changes:
        raise RuleViolation("nothing to patch", field="listing_id", hint="give at least one attribute")
    if list_price is not None and list_price < MIN_PRICE:
        raise RuleViolation(f"list_price must be at least {MIN_PRICE}", field="list_price", hint="price in cents")
    if main_image is False:
        raise RuleViolation("a listing needs a main image", field="main_image", hint="upload one")
    issues = tuple(i for i in listing.issues if i.attribute not in changes)
    listing = ctx.update(listing, issues=issues, **changes)
    return ctx.update(listing, status=_status(ctx, listing))


@service.tool(
    intent="reactivate the listing",
    write=True,
    example=first_example(Listing, "listing_id", where={"status": "INACTIVE"}),
)
def reactivate_listing(ctx: Ctx, listing_id: ListingId) -> Listing:
    """Reactivate an INACTIVE listing; it is buyable again if it has no ERROR issue and has stock.

    Args:
        listing_id: The listing.
    """
    listing = ctx.get(Listing, listing_id, field="listing_id")
    if listing.status != "INACTIVE":
        raise RuleViolation(f"{listing.sku} is {listing.status}", field="listing_id", hint="only INACTIVE listings")
    listing = ctx.update(listing, status="BUYABLE")
    return ctx.update(listing, status=_status(ctx, listing))


# -- inbound ----------------------------------------------------------------------------------


def _example_inbound(ctx: Ctx) -> dict[str, Any] | None:
    listing = ctx.first(Listing, fulfillment_channel="AFN")
    return (
        None
        if listing is None
        else {"name": "Spring restock", "destination": "PHX7", "items": [{"sku": listing.sku, "quantity_shipped": 24}]}
    )


@service.tool(intent="create an inbound shipment", write=True, example=_example_inbound)
def create_inbound_shipment(ctx: Ctx, name: Title, destination: Center, items: list[InboundItem]) -> InboundShipment:
    """Plan a shipment of AFN stock to a fulfilment center; it starts WORKING.

    Args:
        name: The shipment's name.
        destination: The fulfilment center.
        items: sku and quantity_shipped of each SKU, each SKU once.
    """
    if not items:
        raise RuleViolation("a shipment needs items", field="items", hint="list the SKUs to send")
    seen: set[str] = set()
    for k, item in enumerate(items):
        listing = _listing(ctx, item.sku, f"items[{k}].sku")
        if listing.fulfillment_channel != "AFN":
            raise RuleViolation(
                f"{item.sku} is fulfilled by the seller (MFN)", field=f"items[{k}].sku", hint="only AFN SKUs go to FBA"
            )
        if item.sku in seen:
            raise RuleViolation(f"{item.sku} is listed twice", field=f"items[{k}].sku", hint="list each SKU once")
        seen.add(item.sku)
    cleaned = tuple(InboundItem(sku=i.sku, quantity_shipped=i.quantity_shipped) for i in items)
    return ctx.create(InboundShipment, name=name, destination=destination, items=cleaned)


@service.tool(
    intent="mark the inbound shipment shipped",
    write=True,
    example=first_example(
        InboundShipment,
        "inbound_shipment_id",
        where={"status": "WORKING"},
        carrier="UPS",
        tracking_number="1Z4F6A0301234567",
    ),
)
def ship_inbound(
    ctx: Ctx, inbound_shipment_id: InboundId, carrier: Carrier, tracking_number: TrackingNumber
) -> InboundShipment:
    """Hand a WORKING shipment to its carrier: its units become inbound at the destination.

    Args:
        inbound_shipment_id: The inbound shipment.
        carrier: UPS, USPS, FedEx or DHL.
        tracking_number: The carrier's tracking number.
    """
    ship = ctx.get(InboundShipment, inbound_shipment_id, field="inbound_shipment_id")
    if ship.status != "WORKING":
        raise RuleViolation(f"shipment {ship.id} is {ship.status}", field="inbound_shipment_id", hint="only WORKING")
    for item in ship.items:
        row = _stock(ctx, item.sku, ship.destination)
        ctx.update(row, inbound=row.inbound + item.quantity_shipped)
    return ctx.update(ship, status="SHIPPED", carrier=carrier, tracking_number=tracking_number)


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    for ship in ctx.where(InboundShipment, status="SHIPPED") + ctx.where(InboundShipment, status="RECEIVING"):
        for item in ship.items:
            if item.quantity_received < item.quantity_shipped:
                return {"inbound_shipment_id": ship.id, "sku": item.sku, "quantity": 1}
    return None


@service.tool(intent="receive units of the inbound shipment", write=True, example=_example_receive)
def receive_inbound(ctx: Ctx, inbound_shipment_id: InboundId, sku: Sku, quantity: PositiveQuantity) -> InboundShipment:
    """Record units the center received: inbound becomes fulfillable; never more than were shipped.

    Args:
        inbound_shipment_id: The SHIPPED or RECEIVING shipment.
        sku: The SKU received.
        quantity: Units received now.
    """
    ship = ctx.get(InboundShipment, inbound_shipment_id, field="inbound_shipment_id")
    if ship.status not in ("SHIPPED", "RECEIVING"):
        raise RuleViolation(
            f"shipment {ship.id} is {ship.status}", field="inbound_shipment_id", hint="only shipped shipments"
        )
    item = next((i for i in ship.items if i.sku == sku), None)
    if item is None:
        raise RuleViolation(f"{sku} is not in shipment {ship.id}", field="sku", hint="pick a SKU of the shipment")
    if item.quantity_received + quantity > item.quantity_shipped:
        raise RuleViolation(
            f"only {item.quantity_shipped - item.quantity_received} units of {sku} are left to receive",
            field="quantity",
            hint="receive at most what was shipped",
        )
    row = _stock(ctx, sku, ship.destination)
    ctx.update(row, inbound=max(0, row.inbound - quantity), fulfillable=row.fulfillable + quantity)
    _refresh(ctx, sku)
    updated = tuple(
        i.model_copy(update={"quantity_received": i.quantity_received + quantity}) if i.sku == sku else i
        for i in ship.items
    )
    return ctx.update(ship, items=updated, status="RECEIVING")


@service.tool(
    intent="close the inbound shipment",
    write=True,
    example=first_example(InboundShipment, "inbound_shipment_id", where={"status": "RECEIVING"}),
)
def close_inbound(ctx: Ctx, inbound_shipment_id: InboundId) -> InboundShipment:
    """Close a RECEIVING shipment: units never received stop counting as inbound.

    Args:
        inbound_shipment_id: The inbound shipment.
    """
    ship = ctx.get(InboundShipment, inbound_shipment_id, field="inbound_shipment_id")
    if ship.status != "RECEIVING":
        raise RuleViolation(f"shipment {ship.id} is {ship.status}", field="inbound_shipment_id", hint="receive first")
    for item in ship.items:
        row = _stock(ctx, item.sku, ship.destination)
        ctx.update(row, inbound=max(0, row.inbound - (item.quantity_shipped - item.quantity_received)))
    return ctx.update(ship, status="CLOSED")


@service.tool(
    intent="cancel the inbound shipment",
    write=True,
    example=first_example(InboundShipment, "inbound_shipment_id", where={"status": "WORKING"}),
)
def cancel_inbound(ctx: Ctx, inbound_shipment_id: InboundId) -> InboundShipment:
    """Cancel a WORKING or SHIPPED shipment; a shipped one's units stop counting as inbound.

    Args:
        inbound_shipment_id: The inbound shipment.
    """
    ship = ctx.get(InboundShipment, inbound_shipment_id, field="inbound_shipment_id")
    if ship.status not in ("WORKING", "SHIPPED"):
        raise RuleViolation(
            f"shipment {ship.id} is {ship.status}", field="inbound_shipment_id", hint="receiving has started"
        )
    if ship.status == "SHIPPED":
        for item in ship.items:
            row = _stock(ctx, item.sku, ship.destination)
            ctx.update(row, inbound=max(0, row.inbound - item.quantity_shipped))
    return ctx.update(ship, status="CANCELLED")


# -- orders and returns -----------------------------------------------------------------------


@service.tool(
    intent="confirm the shipment of the order",
    write=True,
    example=first_example(
        Order,
        "order_id",
        where={"status": "Unshipped", "fulfillment_channel": "MFN"},
        carrier="USPS",
        tracking_number="9400111899223344556677",
    ),
)
def confirm_shipment(ctx: Ctx, order_id: OrderId, carrier: Carrier, tracking_number: TrackingNumber) -> Order:
    """Confirm that the seller shipped an Unshipped MFN order, with carrier and tracking.

    Args:
        order_id: The order.
        carrier: UPS, USPS, FedEx or DHL.
        tracking_number: The parcel's tracking number.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.fulfillment_channel != "MFN":
        raise RuleViolation("the marketplace ships AFN orders", field="order_id", hint="only MFN orders are confirmed")
    if order.status != "Unshipped":
        raise RuleViolation(f"order {order.amazon_order_id} is {order.status}", field="order_id", hint="only Unshipped")
    return ctx.update(order, status="Shipped", carrier=carrier, tracking_number=tracking_number)


@service.tool(
    intent="cancel the order",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"status": "Unshipped"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel a Pending or Unshipped order; units reserved for an AFN order become fulfillable again.

    Args:
        order_id: The order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status not in ("Pending", "Unshipped"):
        raise RuleViolation(
            f"order {order.amazon_order_id} is {order.status}", field="order_id", hint="shipped orders are returned"
        )
    if order.fulfillment_channel == "AFN" and order.fulfillment_center is not None:
        for item in order.items:
            row = _stock(ctx, item.sku, order.fulfillment_center)
            ctx.update(row, reserved=max(0, row.reserved - item.quantity), fulfillable=row.fulfillable + item.quantity)
            _refresh(ctx, item.sku)
    return ctx.update(order, status="Canceled")


def _example_return(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(Order, status="Shipped", fulfillment_channel="AFN"):
        item = order.items[0]
        if sum(r.quantity for r in ctx.where(Return, order_id=order.id, sku=item.sku)) < item.quantity:
            return {"order_id": order.id, "sku": item.sku, "quantity": 1, "reason": "NO_LONGER_NEEDED"}
    return None


@service.tool(intent="authorize a return", write=True, example=_example_return)
def authorize_return(ctx: Ctx, order_id: OrderId, sku: Sku, quantity: PositiveQuantity, reason: ReturnReason) -> Return:
    """Authorize the return of units of a Shipped order; never more than were bought and not returned yet.

    Args:
        order_id: The order.
        sku: The SKU returned.
        quantity: Units.
        reason: DEFECTIVE, NOT_AS_DESCRIBED, NO_LONGER_NEEDED, WRONG_ITEM or DAMAGED_BY_CARRIER.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "Shipped":
        raise RuleViolation(f"order {order.amazon_order_id} is {order.status}", field="order_id", hint="only Shipped")
    bought = sum(i.quantity for i in order.items if i.sku == sku)
    if not bought:
        raise RuleViolation(f"{sku} is not in the order", field="sku", hint="pick a SKU of the order")
    done = sum(r.quantity for r in ctx.where(Return, order_id=order.id, sku=sku))
    if done + quantity > bought:
        raise RuleViolation(
            f"{bought - done} units of {sku} are left to return",
            field="quantity",
            hint="return at most what was bought",
        )
    return ctx.create(Return, order_id=order.id, sku=sku, quantity=quantity, reason=reason)


@service.tool(
    intent="receive the returned units",
    write=True,
    example=first_example(Return, "return_id", where={"status": "Authorized"}, condition="SELLABLE"),
)
def receive_return(ctx: Ctx, return_id: ReturnId, condition: Condition) -> Return:
    """Receive an authorized return: sellable units go back to fulfillable stock, damaged ones to unfulfillable.

    Args:
        return_id: The return.
        condition: SELLABLE or DAMAGED.
    """
    ret = ctx.get(Return, return_id, field="return_id")
    if ret.status != "Authorized":
        raise RuleViolation(f"return {ret.id} is {ret.status}", field="return_id", hint="only Authorized returns")
    order = ctx.get(Order, ret.order_id)
    if order.fulfillment_center is not None:
        row = _stock(ctx, ret.sku, order.fulfillment_center)
        if condition == "SELLABLE":
            ctx.update(row, fulfillable=row.fulfillable + ret.quantity)
        else:
            ctx.update(row, unfulfillable=row.unfulfillable + ret.quantity)
        _refresh(ctx, ret.sku)
    return ctx.update(ret, status="Received", condition=condition)


# -- reports ----------------------------------------------------------------------------------


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    return {
        "report_type": "GET_FLAT_FILE_ALL_ORDERS_DATA_BY_ORDER_DATE",
        "data_start": (today - dt.timedelta(days=30)).isoformat(),
        "data_end": today.isoformat(),
    }


@service.tool(intent="request a report", write=True, example=_example_report)
def create_report(ctx: Ctx, report_type: ReportType, data_start: Date, data_end: Date) -> Report:
    """Request a report over a period of at most 90 days ending today or earlier; it is produced at once.

    Args:
        report_type: Listings, FBA inventory or orders by order date.
        data_start: First day covered.
        data_end: Last day covered.
    """
    if data_end < data_start or data_end > ctx.today():
        raise RuleViolation(
            "the period must end on or after its start, and not after today", field="data_end", hint="fix the dates"
        )
    if (data_end - data_start).days > MAX_REPORT_DAYS:
        raise RuleViolation(
            f"a report covers at most {MAX_REPORT_DAYS} days", field="data_start", hint="request several reports"
        )
    if report_type == "GET_MERCHANT_LISTINGS_ALL_DATA":
        rows = len(ctx.where(Listing))
    elif report_type == "GET_FBA_MYI_UNSUPPRESSED_INVENTORY_DATA":
        rows = len(ctx.where(Inventory))
    else:
        rows = sum(data_start <= o.purchase_date.date() <= data_end for o in ctx.where(Order))
    return ctx.create(
        Report, report_type=report_type, data_start=data_start, data_end=data_end, status="DONE", row_count=rows
    )


# -- seed -------------------------------------------------------------------------------------

CENTERS: tuple[Center, ...] = ("PHX7", "ONT8", "BFI4", "MDW2", "EWR4")


@service.seeder
def seed(s: SeedContext) -> None:
    """Listings of the home company's products with issues, FBA stock, inbound shipments, orders, returns, reports."""
    pop = s.population
    today = s.now.date()
    made: list[Listing] = []
    for k, p in enumerate(pop.products[:14]):
        issues: tuple[Issue, ...] = ()
        if k % 6 == 2:
            issues = (Issue(code="8541", severity="ERROR", attribute="brand", message="Brand name not approved"),)
        elif k % 6 == 4:
            issues = (
                Issue(code="18027", severity="WARNING", attribute="item_name", message="Title exceeds 200 bytes"),
            )
        made.append(
            s.create(
                Listing,
                sku=p.sku,
                asin=f"B0{k:02d}{p.sku[-4:]}XY",
                item_name=p.name,
                brand=pop.home.name[:50],
                list_price=p.price_cents,
                fulfillment_channel="MFN" if k % 5 == 3 else "AFN",
                status="INACTIVE" if k == 13 else "BUYABLE",
                issues=issues,
                created_at=s.ago(days=300),
                updated_at=s.ago(days=2),
            )
        )
    for k, listing in enumerate(made):
        if listing.fulfillment_channel == "AFN" and k % 7 != 6:
            s.create(
                Inventory,
                sku=listing.sku,
                fulfillment_center=CENTERS[k % 3],
                fulfillable=30 + 5 * k,
                reserved=2,
                unfulfillable=k % 3,
                updated_at=s.ago(hours=3),
            )
    for listing in made:
        if listing.status != "INACTIVE":
            has = any(r.fulfillable for r in s.records(Inventory) if r.sku == listing.sku)
            error = any(i.severity == "ERROR" for i in listing.issues)
            late = error or (listing.fulfillment_channel == "AFN" and not has)
            s.update(listing, status="DISCOVERABLE" if late else "BUYABLE")
    afn = [x for x in made if x.fulfillment_channel == "AFN"]
    mfn = [x for x in made if x.fulfillment_channel == "MFN"]
    for k, (status, sent) in enumerate((("WORKING", 0), ("SHIPPED", 0), ("RECEIVING", 10), ("CLOSED", 24))):
        sku = afn[k].sku
        center = CENTERS[k % 3]
        s.create(
            InboundShipment,
            name=f"Restock {today:%B} #{k + 1}",
            destination=center,
            items=(InboundItem(sku=sku, quantity_shipped=24, quantity_received=sent),),
            status=status,
            carrier=None if status == "WORKING" else "UPS",
            tracking_number=None if status == "WORKING" else f"1Z4F6A03{k:08d}",
            created_at=s.ago(days=20 - k),
            updated_at=s.ago(days=3 - k * 0.5),
        )
        if status in ("SHIPPED", "RECEIVING"):
            row = next((r for r in s.records(Inventory) if r.sku == sku and r.fulfillment_center == center), None)
            if row is None:
                s.create(Inventory, sku=sku, fulfillment_center=center, inbound=24 - sent, updated_at=s.ago(hours=3))
            else:
                s.update(row, inbound=row.inbound + 24 - sent)
    plan = (
        ("Shipped", "AFN"),
        ("Shipped", "AFN"),
        ("Unshipped", "AFN"),
        ("Unshipped", "MFN"),
        ("Shipped", "MFN"),
        ("Canceled", "AFN"),
        ("Pending", "AFN"),
    )
    for k, (status, channel) in enumerate(plan):
        listing = (afn if channel == "AFN" else mfn)[k % len(afn if channel == "AFN" else mfn)]
        row = next((r for r in s.records(Inventory) if r.sku == listing.sku), None)
        who = pop.consumers[k]
        qty = 1 + k % 2
        s.create(
            Order,
            amazon_order_id=f"11{k + 1}-{4827301 + k * 13:07d}-{6209114 + k * 71:07d}",
            buyer_email=f"{who.first_name.lower()}{k}@marketplace.amazon.com",
            buyer_name=who.name,
            items=(OrderItem(sku=listing.sku, quantity=qty, item_price=listing.list_price),),
            order_total=listing.list_price * qty,
            fulfillment_channel=channel,
            fulfillment_center=row.fulfillment_center if channel == "AFN" and row else None,
            status=status,
            carrier="USPS" if channel == "MFN" and status == "Shipped" else None,
            tracking_number=f"94001118992233{k:08d}" if channel == "MFN" and status == "Shipped" else None,
            purchase_date=s.ago(days=10 - k),
            created_at=s.ago(days=10 - k),
            updated_at=s.ago(days=5 - k * 0.5),
        )
    for k, order in enumerate(o for o in s.records(Order) if o.status == "Shipped" and o.fulfillment_channel == "AFN"):
        s.create(
            Return,
            order_id=order.id,
            sku=order.items[0].sku,
            quantity=1,
            reason="DEFECTIVE" if k else "NO_LONGER_NEEDED",
            status="Authorized" if k else "Received",
            condition=None if k else "SELLABLE",
            created_at=s.ago(days=2),
            updated_at=s.ago(days=1),
        )
    for k, (rtype, rstatus) in enumerate(
        (("GET_MERCHANT_LISTINGS_ALL_DATA", "DONE"), ("GET_FBA_MYI_UNSUPPRESSED_INVENTORY_DATA", "IN_QUEUE"))
    ):
        s.create(
            Report,
            report_type=rtype,
            data_start=today - dt.timedelta(days=30),
            data_end=today - dt.timedelta(days=1),
            status=rstatus,
            row_count=len(made) if rstatus == "DONE" else None,
            created_at=s.ago(days=1 + k),
        )
