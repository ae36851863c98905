"""Stockline Inventory: items, locations, stock levels with reorder points, transfers, adjustments, allocations.

Modeled on the Cin7 Core (DEAR Inventory) API v2 (Product, Location,
ProductAvailability, StockTransfer, StockAdjustment, Sale allocation) and its
reorder (purchase suggestion) report: every stock level keeps what is on hand,
what is allocated to sales orders and what is available (on hand minus
allocated); sales orders allocate available stock and release or fulfil it; a
multi-line stock transfer is drafted, dispatched (its units leave the source,
which must have them available), received at another location or voided
(in-transit units go back); an adjustment can never take a level below what is
allocated, and values the change at the item's unit cost; a deprecated item
cannot be allocated or moved, and an item with open allocations cannot be
deprecated; levels at or below their reorder point show up on the reorder
report with the supplier to buy from.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.commerce._shared import merge_quantities
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "inventory",
    title="Stockline Inventory",
    category="inventory",
    modeled_on="Cin7 Core (DEAR Inventory) API v2 (Product, Location, ProductAvailability, StockTransfer, "
    "StockAdjustment, sale allocations, reorder report)",
    description="Multi-location inventory management: the item master with costs and suppliers, stock levels per "
    "location (on hand, allocated, available) with reorder points, stock transfers between locations, stock "
    "adjustments with their value, allocations of stock to sales orders, and the reorder report.",
)

ItemId = Annotated[str, IdOf("inventory.item")]
LocationId = Annotated[str, IdOf("inventory.location")]
LevelId = Annotated[str, IdOf("inventory.stock_level")]
TransferId = Annotated[str, IdOf("inventory.transfer")]
AdjustmentId = Annotated[str, IdOf("inventory.adjustment")]
AllocationId = Annotated[str, IdOf("inventory.allocation")]
PositiveQuantity = Annotated[Quantity, Field(ge=1)]
ItemCategory = Literal["electronics", "office", "home", "outdoor", "apparel", "packaging"]
TransferStatus = Literal["draft", "in_transit", "completed", "void"]
AdjustReason = Literal["stocktake", "damaged", "expired", "theft", "found", "other"]


class Item(Record):
    """An item in the item master (a Cin7 product): what is stocked, what it costs and who supplies it."""

    id: ItemId
    sku: Sku
    """Stock keeping unit; unique."""
    name: Title
    """Item name."""
    category: ItemCategory
    """Category."""
    unit_of_measure: Literal["each", "pack", "box"] = "each"
    """Unit the quantities count."""
    unit_cost: Cents
    """Average cost of one unit, in cents; stock is valued at it."""
    supplier: CompanyName
    """Company the item is bought from."""
    supplier_email: Email | None = None
    """Purchasing contact at the supplier."""
    status: Literal["active", "deprecated"] = "active"
    """Deprecated items are kept for history but cannot be allocated or moved."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the item last changed."""


class Location(Record):
    """A place that holds stock: a warehouse, a store or a third-party logistics site."""

    id: LocationId
    name: Title
    """Location name; unique."""
    kind: Literal["warehouse", "store", "3pl"]
    """warehouse, store or 3pl (a logistics partner's site)."""
    address: PostalAddress
    """Street address."""
    operator: CompanyName
    """Company that runs the site."""
    manager_email: Email
    """Who runs the location."""
    active: bool = True
    """Inactive locations take no transfers or allocations."""


class StockLevel(Record):
    """How much of one item one location has: on hand, allocated, available, and when to reorder."""

    id: LevelId
    item_id: ItemId
    """The item."""
    sku: Sku
    """The item's SKU."""
    location_id: LocationId
    """The location."""
    on_hand: Quantity = 0
    """Units physically there."""
    allocated: Quantity = 0
    """Units promised to sales orders (part of on hand)."""
    available: Quantity = 0
    """On hand minus allocated: what can still be promised or moved."""
    reorder_point: Quantity = 0
    """When available falls to this or below, the item is due for reordering here."""
    reorder_quantity: Quantity = 0
    """How many to order when it is."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the level last changed."""


class TransferLine(Value):
    """One item on a stock transfer."""

    item_id: ItemId = Field(description="The item.")
    sku: Sku = Field(description="Its SKU.")
    quantity: PositiveQuantity = Field(description="Units moved.")


class SkuQuantity(Value):
    """A SKU and a number of units."""

    sku: Sku = Field(description="The item's SKU.")
    quantity: PositiveQuantity = Field(description="Units.")


class SkuCount(Value):
    """A SKU and the quantity it should have on hand after an adjustment."""

    sku: Sku = Field(description="The item's SKU.")
    quantity: Quantity = Field(description="Units on hand after the adjustment (e.g. what was counted).")


class Transfer(Record):
    """A stock transfer of one or more items from one location to another."""

    id: TransferId
    number: Annotated[str, Generated("sequence", "TR-{n:05d}")]
    """Transfer number."""
    from_location_id: LocationId
    """Where the units leave from."""
    to_location_id: LocationId
    """Where they arrive."""
    lines: tuple[TransferLine, ...]
    """What is moved."""
    status: TransferStatus = "draft"
    """draft, in_transit (left the source), completed (arrived) or void."""
    requested_by: Email
    """Who asked for it."""
    reference: Text = ""
    """Why it is moved, or the related document."""
    tracking_number: TrackingNumber | None = None
    """Carrier tracking number of the goods in transit."""
    total_cost: Cents = 0
    """Value of the moved units at unit cost, in cents."""
    departed_at: DateTime | None = None
    """When it was dispatched."""
    completed_at: DateTime | None = None
    """When it was received."""
    created_at: Annotated[DateTime, CREATED]
    """When it was drafted."""


class AdjustmentLine(Value):
    """One item's change on an adjustment."""

    item_id: ItemId = Field(description="The item.")
    sku: Sku = Field(description="Its SKU.")
    before: Quantity = Field(description="On hand before.")
    after: Quantity = Field(description="On hand after.")
    change: int = Field(description="after - before.")


class Adjustment(Record):
    """A completed stock adjustment at one location, with the value it added or wrote off."""

    id: AdjustmentId
    number: Annotated[str, Generated("sequence", "SA-{n:05d}")]
    """Adjustment number."""
    location_id: LocationId
    """Where the stock changed."""
    lines: tuple[AdjustmentLine, ...]
    """What changed."""
    reason: AdjustReason
    """Why."""
    value_change: int
    """Value of the change at unit cost, in cents (negative: written off)."""
    adjusted_by: Email
    """Who booked it."""
    note: Text = ""
    """Note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""


class Allocation(Record):
    """Units of an item at a location promised to a sales order."""

    id: AllocationId
    order_number: OrderNumber
    """The sales order."""
    customer: CompanyName | None = None
    """The company the order is for."""
    item_id: ItemId
    """The item."""
    sku: Sku
    """Its SKU."""
    location_id: LocationId
    """Where the units are held."""
    quantity: PositiveQuantity
    """Units allocated."""
    status: Literal["allocated", "fulfilled", "released"] = "allocated"
    """allocated (held), fulfilled (shipped out of on hand) or released (given back to available)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was allocated."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules -------------------------------------------------------------------------------------


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "active" and new.status == "deprecated":
        held = ctx.first(Allocation, item_id=new.id, status="allocated")
        if held is not None:
            raise RuleViolation(
                f"item {new.sku} is allocated to order {held.order_number}",
                field="item_id",
                hint="fulfil or release its allocations first",
            )


def _guard_level(ctx: Ctx, new: Any, old: Any) -> None:
    if new.reorder_quantity == 0 and new.reorder_point > 0:
        raise RuleViolation(
            "a level with a reorder point needs a reorder quantity",
            field="reorder_quantity",
            hint="set how many units to order when the level reaches its reorder point",
        )


items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("sku", "name", "category", "unit_of_measure", "unit_cost", "supplier", "supplier_email"),
    filters=("sku", "category", "supplier", "status"),
    search=("name", "sku", "supplier"),
    update=("name", "category", "unit_cost", "supplier", "supplier_email"),
    delete=False,
    unique=("sku",),
    transitions={
        "deprecate": Transition(
            "status",
            ("active",),
            "deprecated",
            "stop stocking the item",
            description="Deprecate an active item: it can no longer be allocated or moved. Refused while the item "
            "has open allocations.",
        ),
        "reactivate": Transition("status", ("deprecated",), "active", "stock the item again"),
    },
    guard_update=_guard_item,
)
locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("kind", "active", "manager_email"),
    search=("name",),
    delete=False,
    unique=("name",),
)
levels = service.resource(
    StockLevel,
    name="stock_level",
    plural="stock_levels",
    prefix="lvl",
    create=False,
    get=False,
    filters=("item_id", "sku", "location_id"),
    update=("reorder_point", "reorder_quantity"),
    delete=False,
    guard_update=_guard_level,
    title="stock level",
)
transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="trf",
    create=False,
    filters=("status", "from_location_id", "to_location_id", "tracking_number", "requested_by"),
    search=("number", "reference"),
    delete=False,
    title="stock transfer",
)
adjustments = service.resource(
    Adjustment,
    name="adjustment",
    plural="adjustments",
    prefix="adj",
    create=False,
    get=False,
    filters=("location_id", "reason", "adjusted_by"),
    search=("number", "note"),
    delete=False,
    title="stock adjustment",
)
allocations = service.resource(
    Allocation,
    name="allocation",
    plural="allocations",
    prefix="alc",
    create=False,
    get=False,
    filters=("order_number", "item_id", "sku", "location_id", "status"),
    delete=False,
)


# -- helpers -----------------------------------------------------------------------------------


def _item_by_sku(ctx: Ctx, sku: str, field: str, moving: bool = True) -> Item:
    item = ctx.first(Item, sku=sku)
    if item is None:
        raise NotFound(f"no item with SKU {sku}", field=field, hint="list items with inventory__list_items")
    if moving and item.status != "active":
        raise RuleViolation(
            f"item {sku} is deprecated", field=field, hint="reactivate it with inventory__reactivate_item first"
        )
    return item


def _active_location(ctx: Ctx, location_id: str, field: str) -> Location:
    loc = ctx.get(Location, location_id, field=field)
    if not loc.active:
        raise RuleViolation(f"location {loc.name} is inactive", field=field, hint="pick an active location")
    return loc


def _level(ctx: Ctx, item: Item, location_id: str) -> StockLevel:
    """The item's level at the location, created empty if it has none yet."""
    lv = ctx.first(StockLevel, item_id=item.id, location_id=location_id)
    if lv is None:
        lv = ctx.create(StockLevel, item_id=item.id, sku=item.sku, location_id=location_id)
    return lv


def _set(ctx: Ctx, lv: StockLevel, on_hand: int | None = None, allocated: int | None = None) -> StockLevel:
    oh = lv.on_hand if on_hand is None else on_hand
    al = lv.allocated if allocated is None else allocated
    return ctx.update(lv, on_hand=oh, allocated=al, available=oh - al)


# -- examples ----------------------------------------------------------------------------------


def _stocked(ctx: Ctx, minimum: int = 1) -> StockLevel | None:
    for lv in ctx.scan(StockLevel):
        item = ctx.get(Item, lv.item_id)
        if lv.available >= minimum and item.status == "active" and ctx.get(Location, lv.location_id).active:
            return lv
    return None


def _example_create_transfer(ctx: Ctx) -> dict[str, Any] | None:
    lv = _stocked(ctx)
    if lv is None:
        return None
    dest = next((loc for loc in ctx.where(Location, active=True) if loc.id != lv.location_id), None)
    if dest is None:
        return None
    return {
        "from_location_id": lv.location_id,
        "to_location_id": dest.id,
        "lines": [{"sku": lv.sku, "quantity": 1}],
        "requested_by": ctx.population.employees[0].email,
        "reference": "Store replenishment",
    }


def _source_has_stock(ctx: Ctx, t: Transfer) -> bool:
    """Whether the transfer's source location has every line's quantity available."""
    return all(
        (lv := ctx.first(StockLevel, item_id=line.item_id, location_id=t.from_location_id)) is not None
        and lv.available >= line.quantity
        for line in t.lines
    )


def _example_void(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Transfer, status="draft") or ctx.first(Transfer, status="in_transit")
    return None if t is None else {"transfer_id": t.id}


def _example_adjust(ctx: Ctx) -> dict[str, Any] | None:
    lv = _stocked(ctx)
    if lv is None:
        return None
    return {
        "location_id": lv.location_id,
        "lines": [{"sku": lv.sku, "quantity": lv.on_hand - 1}],
        "reason": "damaged",
        "adjusted_by": ctx.population.employees[0].email,
    }


def _example_allocate(ctx: Ctx) -> dict[str, Any] | None:
    lv = _stocked(ctx, 2)
    if lv is None:
        return None
    return {"order_number": "SO-20991", "location_id": lv.location_id, "sku": lv.sku, "quantity": 2}


# -- transfers ---------------------------------------------------------------------------------


@service.tool(intent="draft a stock transfer between locations", write=True, example=_example_create_transfer)
def create_transfer(
    ctx: Ctx,
    from_location_id: LocationId,
    to_location_id: LocationId,
    lines: Annotated[list[SkuQuantity], Field(min_length=1, max_length=50)],
    requested_by: Email,
    reference: Text = "",
) -> Transfer:
    """Draft a transfer of one or more items from one active location to another.

    Nothing moves until it is dispatched; repeated SKUs are summed.

    Args:
        from_location_id: Where the units leave from.
        to_location_id: Where they go; another location.
        lines: SKUs and quantities.
        requested_by: Who asks for the transfer.
        reference: Why, or the related document.
    """
    src = _active_location(ctx, from_location_id, "from_location_id")
    dst = _active_location(ctx, to_location_id, "to_location_id")
    if src.id == dst.id:
        raise RuleViolation(
            "a transfer must go to another location", field="to_location_id", hint="pick a different destination"
        )
    out: list[TransferLine] = []
    cost = 0
    for sku, (i, qty) in merge_quantities((line.sku, line.quantity) for line in lines).items():
        item = _item_by_sku(ctx, sku, f"lines.{i}.sku")
        out.append(TransferLine(item_id=item.id, sku=sku, quantity=qty))
        cost += item.unit_cost * qty
    return ctx.create(
        Transfer,
        from_location_id=src.id,
        to_location_id=dst.id,
        lines=tuple(out),
        requested_by=requested_by,
        reference=reference,
        total_cost=cost,
    )


def _transfer_in(ctx: Ctx, transfer_id: str, allowed: tuple[str, ...], hint: str) -> Transfer:
    t = ctx.get(Transfer, transfer_id, field="transfer_id")
    if t.status not in allowed:
        raise RuleViolation(
            f"transfer {t.number} is {t.status}; this needs a transfer that is {' or '.join(allowed)}",
            field="transfer_id",
            hint=hint,
        )
    return t


@service.tool(
    intent="dispatch the stock transfer",
    write=True,
    example=first_example(
        Transfer,
        "transfer_id",
        where={"status": "draft"},
        match=_source_has_stock,
        tracking_number="1Z999AA10123456784",
    ),
)
def dispatch_transfer(ctx: Ctx, transfer_id: TransferId, tracking_number: TrackingNumber | None = None) -> Transfer:
    """Send a draft transfer on its way: its units leave the source's on-hand stock.

    The source must have every line available (on hand and not allocated).

    Args:
        transfer_id: The draft transfer.
        tracking_number: Carrier tracking number of the goods, if shipped by carrier.
    """
    t = _transfer_in(ctx, transfer_id, ("draft",), "only draft transfers are dispatched")
    for n, line in enumerate(t.lines):
        item = ctx.get(Item, line.item_id)
        if item.status != "active":
            raise RuleViolation(
                f"item {line.sku} is deprecated", field="transfer_id", hint="void the transfer or reactivate the item"
            )
        lv = ctx.first(StockLevel, item_id=line.item_id, location_id=t.from_location_id)
        have = lv.available if lv else 0
        if lv is None or have < line.quantity:
            raise RuleViolation(
                f"line {n + 1}: only {have} unit(s) of {line.sku} are available at the source; "
                f"{line.quantity} are to move",
                field="transfer_id",
                hint="void the transfer and draft a smaller one, or release allocations at the source",
            )
        _set(ctx, lv, on_hand=lv.on_hand - line.quantity)
    return ctx.update(t, status="in_transit", departed_at=ctx.now(), tracking_number=tracking_number)


@service.tool(
    intent="receive the stock transfer at its destination",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "in_transit"}),
)
def receive_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Receive an in-transit transfer: its units are added to the destination's on-hand stock.

    Args:
        transfer_id: The in-transit transfer.
    """
    t = _transfer_in(ctx, transfer_id, ("in_transit",), "dispatch the transfer with inventory__dispatch_transfer first")
    for line in t.lines:
        lv = _level(ctx, ctx.get(Item, line.item_id), t.to_location_id)
        _set(ctx, lv, on_hand=lv.on_hand + line.quantity)
    return ctx.update(t, status="completed", completed_at=ctx.now())


@service.tool(intent="void the stock transfer", write=True, destructive=True, example=_example_void)
def void_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Void a draft or in-transit transfer; units in transit go back to the source.

    Args:
        transfer_id: The transfer.
    """
    t = _transfer_in(ctx, transfer_id, ("draft", "in_transit"), "completed transfers are final; transfer back instead")
    if t.status == "in_transit":
        for line in t.lines:
            lv = _level(ctx, ctx.get(Item, line.item_id), t.from_location_id)
            _set(ctx, lv, on_hand=lv.on_hand + line.quantity)
    return ctx.update(t, status="void")


# -- adjustments and allocations ---------------------------------------------------------------


@service.tool(intent="correct the stock on hand", write=True, example=_example_adjust)
def adjust_stock(
    ctx: Ctx,
    location_id: LocationId,
    lines: Annotated[list[SkuCount], Field(min_length=1, max_length=50)],
    reason: AdjustReason,
    adjusted_by: Email,
    note: Text = "",
) -> Adjustment:
    """Set the on-hand quantity of items at a location (e.g. after a stocktake) and book the value change.

    A level can never go below what is allocated to sales orders.

    Args:
        location_id: The location.
        lines: SKUs and the quantity each should have on hand afterwards.
        reason: Why the stock changes.
        adjusted_by: Who books the adjustment.
        note: Note.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    seen: set[str] = set()
    out: list[AdjustmentLine] = []
    value = 0
    for i, line in enumerate(lines):
        if line.sku in seen:
            raise RuleViolation(f"SKU {line.sku} is listed twice", field=f"lines.{i}.sku", hint="list each SKU once")
        seen.add(line.sku)
        item = _item_by_sku(ctx, line.sku, f"lines.{i}.sku", moving=False)
        lv = _level(ctx, item, loc.id)
        if line.quantity < lv.allocated:
            raise RuleViolation(
                f"{lv.allocated} unit(s) of {line.sku} are allocated here; on hand cannot go below that",
                field=f"lines.{i}.quantity",
                hint="release allocations with inventory__release_allocation first",
            )
        out.append(
            AdjustmentLine(
                item_id=item.id, sku=item.sku, before=lv.on_hand, after=line.quantity, change=line.quantity - lv.on_hand
            )
        )
        value += (line.quantity - lv.on_hand) * item.unit_cost
        _set(ctx, lv, on_hand=line.quantity)
    if all(line.change == 0 for line in out):
        raise RuleViolation(
            "nothing changes: every quantity is already on hand",
            field="lines",
            hint="give the quantities that should be on hand",
        )
    return ctx.create(
        Adjustment,
        location_id=loc.id,
        lines=tuple(out),
        reason=reason,
        value_change=value,
        adjusted_by=adjusted_by,
        note=note,
    )


@service.tool(intent="allocate stock to the sales order", write=True, example=_example_allocate)
def allocate_stock(
    ctx: Ctx,
    order_number: OrderNumber,
    location_id: LocationId,
    sku: Sku,
    quantity: PositiveQuantity,
    customer: CompanyName | None = None,
) -> Allocation:
    """Promise available units of an item at a location to a sales order.

    Args:
        order_number: The sales order.
        location_id: The active location to hold the units.
        sku: The item's SKU.
        quantity: Units to allocate.
        customer: The company the order is for.
    """
    loc = _active_location(ctx, location_id, "location_id")
    item = _item_by_sku(ctx, sku, "sku")
    lv = _level(ctx, item, loc.id)
    if lv.available < quantity:
        raise RuleViolation(
            f"only {lv.available} unit(s) of {sku} are available at {loc.name}; {quantity} were asked for",
            field="quantity",
            hint="allocate what is available, or transfer stock here first (inventory__item_availability)",
        )
    _set(ctx, lv, allocated=lv.allocated + quantity)
    return ctx.create(
        Allocation,
        order_number=order_number,
        customer=customer,
        item_id=item.id,
        sku=sku,
        location_id=loc.id,
        quantity=quantity,
    )


def _held(ctx: Ctx, allocation_id: str) -> Allocation:
    a = ctx.get(Allocation, allocation_id, field="allocation_id")
    if a.status != "allocated":
        raise RuleViolation(
            f"allocation {a.id} for order {a.order_number} is already {a.status}",
            field="allocation_id",
            hint="only allocations still held can be released or fulfilled",
        )
    return a


@service.tool(
    intent="release the allocated stock",
    write=True,
    example=first_example(Allocation, "allocation_id", where={"status": "allocated"}),
)
def release_allocation(ctx: Ctx, allocation_id: AllocationId) -> Allocation:
    """Give a held allocation's units back to available stock (the order no longer needs them).

    Args:
        allocation_id: The held allocation.
    """
    a = _held(ctx, allocation_id)
    lv = _level(ctx, ctx.get(Item, a.item_id), a.location_id)
    _set(ctx, lv, allocated=lv.allocated - a.quantity)
    return ctx.update(a, status="released")


@service.tool(
    intent="ship the allocated stock to the customer",
    write=True,
    example=first_example(Allocation, "allocation_id", where={"status": "allocated"}),
)
def fulfil_allocation(ctx: Ctx, allocation_id: AllocationId) -> Allocation:
    """Ship a held allocation: its units leave on-hand stock.

    Args:
        allocation_id: The held allocation.
    """
    a = _held(ctx, allocation_id)
    lv = _level(ctx, ctx.get(Item, a.item_id), a.location_id)
    _set(ctx, lv, on_hand=lv.on_hand - a.quantity, allocated=lv.allocated - a.quantity)
    return ctx.update(a, status="fulfilled")


# -- reports -----------------------------------------------------------------------------------


class LocationStock(BaseModel):
    """One location's stock of an item."""

    location_id: LocationId = Field(description="The location.")
    location_name: Title = Field(description="Its name.")
    on_hand: Quantity = Field(description="Units on hand.")
    allocated: Quantity = Field(description="Units allocated.")
    available: Quantity = Field(description="Units available.")
    incoming: Quantity = Field(description="Units in transit to it.")


class Availability(BaseModel):
    """An item's stock everywhere."""

    sku: Sku = Field(description="The item's SKU.")
    name: Title = Field(description="The item's name.")
    locations: list[LocationStock] = Field(description="Per location.")
    on_hand: Quantity = Field(description="Total on hand.")
    available: Quantity = Field(description="Total available.")
    stock_value: Cents = Field(description="On hand times unit cost, in cents.")


@service.tool(intent="see where the item is in stock")
def item_availability(ctx: Ctx, sku: Sku) -> Availability:
    """Show an item's on-hand, allocated, available and incoming stock at every location.

    Args:
        sku: The item's SKU.
    """
    item = _item_by_sku(ctx, sku, "sku", moving=False)
    incoming: dict[str, int] = {}
    for t in ctx.where(Transfer, status="in_transit"):
        for line in t.lines:
            if line.item_id == item.id:
                incoming[t.to_location_id] = incoming.get(t.to_location_id, 0) + line.quantity
    rows = []
    for lv in ctx.where(StockLevel, item_id=item.id):
        loc = ctx.get(Location, lv.location_id)
        rows.append(
            LocationStock(
                location_id=loc.id,
                location_name=loc.name,
                on_hand=lv.on_hand,
                allocated=lv.allocated,
                available=lv.available,
                incoming=incoming.get(loc.id, 0),
            )
        )
    on_hand = sum(r.on_hand for r in rows)
    return Availability(
        sku=item.sku,
        name=item.name,
        locations=rows,
        on_hand=on_hand,
        available=sum(r.available for r in rows),
        stock_value=on_hand * item.unit_cost,
    )


class ReorderLine(BaseModel):
    """An item due for reordering at a location."""

    sku: Sku = Field(description="The item's SKU.")
    name: Title = Field(description="The item's name.")
    location_id: LocationId = Field(description="The location.")
    available: Quantity = Field(description="Units available there.")
    reorder_point: Quantity = Field(description="Its reorder point.")
    order_quantity: Quantity = Field(description="Suggested quantity to order.")
    supplier: CompanyName = Field(description="Who to order from.")
    supplier_email: Email | None = Field(description="The supplier's purchasing contact.")
    estimated_cost: Cents = Field(description="Order quantity times unit cost, in cents.")


@service.tool(intent="list the items that need reordering")
def reorder_report(ctx: Ctx, location_id: LocationId | None = None) -> list[ReorderLine]:
    """List active items whose available stock is at or below their reorder point, with what to order from whom.

    Units in transit to the location count as available.

    Args:
        location_id: Only this location; omit for every location.
    """
    if location_id is not None:
        ctx.get(Location, location_id, field="location_id")
    incoming: dict[tuple[str, str], int] = {}
    for t in ctx.where(Transfer, status="in_transit"):
        for line in t.lines:
            key = (line.item_id, t.to_location_id)
            incoming[key] = incoming.get(key, 0) + line.quantity
    out: list[ReorderLine] = []
    levels_ = ctx.where(StockLevel, location_id=location_id) if location_id else list(ctx.scan(StockLevel))
    for lv in levels_:
        if lv.reorder_quantity == 0:
            continue
        have = lv.available + incoming.get((lv.item_id, lv.location_id), 0)
        item = ctx.get(Item, lv.item_id)
        if have > lv.reorder_point or item.status != "active":
            continue
        out.append(
            ReorderLine(
                sku=item.sku,
                name=item.name,
                location_id=lv.location_id,
                available=lv.available,
                reorder_point=lv.reorder_point,
                order_quantity=lv.reorder_quantity,
                supplier=item.supplier,
                supplier_email=item.supplier_email,
                estimated_cost=lv.reorder_quantity * item.unit_cost,
            )
        )
    return out


# -- seed --------------------------------------------------------------------------------------

_DAY = dt.timedelta(days=1)


@service.seeder
def seed(s: SeedContext) -> None:
    """The population's products as items bought from its companies, four sites, levels, transfers, allocations."""
    pop = s.population
    ops = pop.staff("Operations")
    sites = _seed_locations(s, ops)
    items = _seed_items(s)
    levels = _seed_levels(s, items, sites)
    _seed_allocations(s, items, sites[0], levels)
    _seed_transfers(s, items, sites, levels, ops)
    _seed_adjustments(s, items, sites, levels, ops)


_Levels = dict[tuple[str, str], StockLevel]
"""Seeded stock levels by (item id, location id); steps that change a level store the new record."""


def _seed_locations(s: SeedContext, ops: Sequence[Person]) -> list[Location]:
    """The distribution center, a store, a 3PL site at a logistics customer and an inactive unit, in that order."""
    pop = s.population
    home = pop.home
    place = home.place
    logistics = next((c for c in pop.customers if c.industry == "logistics"), pop.customers[0])

    def addr(n: int) -> PostalAddress:
        return PostalAddress(
            street=f"{20 + n * 11} Industrial Way",
            city=place.city,
            postal_code=f"{place.postal_prefix}{400 + n}",
            country=place.country,
        )

    return [
        s.create(
            Location,
            name="Main distribution center",
            kind="warehouse",
            address=home.address,
            operator=home.name,
            manager_email=ops[0].email,
        ),
        s.create(
            Location,
            name=f"{place.city} store",
            kind="store",
            address=addr(1),
            operator=home.name,
            manager_email=ops[1 % len(ops)].email,
        ),
        s.create(
            Location,
            name=f"{logistics.name} fulfilment site",
            kind="3pl",
            address=logistics.address,
            operator=logistics.name,
            manager_email=ops[2 % len(ops)].email,
        ),
        s.create(
            Location,
            name="Old overflow unit",
            kind="warehouse",
            address=addr(2),
            operator=home.name,
            manager_email=ops[0].email,
            active=False,
        ),
    ]


def _seed_items(s: SeedContext) -> list[Item]:
    """Every product as an item, bought from a wholesale or manufacturing customer (any with people, else)."""
    pop = s.population
    with_contact = [(c, contact) for c in pop.customers if (contact := pop.first_contact(c)) is not None]
    suppliers = [pair for pair in with_contact if pair[0].industry in ("wholesale", "manufacturing")] or with_contact
    items: list[Item] = []
    for j, p in enumerate(pop.products):
        supplier, contact = suppliers[j % len(suppliers)]
        items.append(
            s.create(
                Item,
                sku=p.sku,
                name=p.name,
                category=p.category,
                unit_of_measure="pack" if p.category == "office" and j % 3 == 0 else "each",
                unit_cost=p.cost_cents,
                supplier=supplier.name,
                supplier_email=contact.email,
                status="deprecated" if j % 13 == 12 else "active",
                updated_at=s.ago(days=40 + j),
            )
        )
    return items


def _seed_levels(s: SeedContext, items: Sequence[Item], sites: Sequence[Location]) -> _Levels:
    """Every item at the first two sites and every other item at the 3PL; every fifth runs low."""
    levels: _Levels = {}
    for j, item in enumerate(items):
        for k, site in enumerate(sites[:3]):
            if k == 2 and j % 2:
                continue
            on_hand = s.rng.randint(0, 12) if j % 5 == 3 else s.rng.randint(10, 120)
            point = (0, 15, 8)[k] if j % 4 else 25
            levels[(item.id, site.id)] = s.create(
                StockLevel,
                item_id=item.id,
                sku=item.sku,
                location_id=site.id,
                on_hand=on_hand,
                available=on_hand,
                reorder_point=point,
                reorder_quantity=point * 3,
                updated_at=s.ago(days=1 + j % 9),
            )
    return levels


def _seed_allocations(s: SeedContext, items: Sequence[Item], site: Location, levels: _Levels) -> None:
    """Sales orders holding stock of every third active item at ``site``; held units leave its available stock."""
    pop = s.population
    customers = [c for c in pop.customers if c.industry in ("retail", "food", "healthcare", "software")]
    n = 0
    for j, item in enumerate(items):
        if item.status != "active" or j % 3:
            continue
        lv = levels[(item.id, site.id)]
        qty = min(lv.on_hand, 2 + j % 5)
        if qty < 1:
            continue
        held = ("allocated", "allocated", "fulfilled", "released")[n % 4]
        s.create(
            Allocation,
            order_number=f"SO-{20001 + n}",
            customer=customers[n % len(customers)].name if customers else None,
            item_id=item.id,
            sku=item.sku,
            location_id=site.id,
            quantity=qty,
            status=held,
            created_at=s.ago(days=3 + n),
            updated_at=s.ago(days=1 + n),
        )
        if held == "allocated":
            levels[(item.id, site.id)] = s.update(lv, allocated=lv.allocated + qty, available=lv.available - qty)
        n += 1


def _seed_transfers(
    s: SeedContext, items: Sequence[Item], sites: Sequence[Location], levels: _Levels, ops: Sequence[Person]
) -> None:
    """Eight transfers to the store or back from the 3PL in every status; units in transit leave the source."""
    statuses: tuple[TransferStatus, ...] = (
        "draft",
        "in_transit",
        "completed",
        "void",
        "completed",
        "in_transit",
        "draft",
        "completed",
    )
    carriers = ("1Z", "")
    for t, status in enumerate(statuses):
        src, dst = (sites[0], sites[1]) if t % 3 else (sites[2], sites[0])
        lines = []
        for item in items[t * 4 : t * 4 + 1 + t % 3]:
            got = levels.get((item.id, src.id))
            if item.status == "active" and got is not None and got.available >= 4:
                lines.append(TransferLine(item_id=item.id, sku=item.sku, quantity=2 + t % 3))
        if not lines:
            continue
        if status == "in_transit":
            for line in lines:
                lv = levels[(line.item_id, src.id)]
                levels[(line.item_id, src.id)] = s.update(
                    lv, on_hand=lv.on_hand - line.quantity, available=lv.available - line.quantity
                )
        created = s.ago(days=10 - t)
        prefix = carriers[t % 2]
        s.create(
            Transfer,
            from_location_id=src.id,
            to_location_id=dst.id,
            lines=tuple(lines),
            status=status,
            requested_by=ops[t % len(ops)].email,
            reference=("Store replenishment", "Return from 3PL", "Seasonal rebalancing")[t % 3],
            tracking_number=(prefix + "".join(str(s.rng.randint(0, 9)) for _ in range(16)))
            if status in ("in_transit", "completed")
            else None,
            total_cost=sum(line.quantity * next(i.unit_cost for i in items if i.id == line.item_id) for line in lines),
            departed_at=created + _DAY if status in ("in_transit", "completed") else None,
            completed_at=created + 2 * _DAY if status == "completed" else None,
            created_at=created,
        )


def _seed_adjustments(
    s: SeedContext, items: Sequence[Item], sites: Sequence[Location], levels: _Levels, ops: Sequence[Person]
) -> None:
    """Up to five past adjustments that led to the current on-hand counts of the first two sites."""
    for a in range(5):
        item = items[(a * 7 + 2) % len(items)]
        lv = levels[(item.id, sites[a % 2].id)]
        change = (-2, -1, 3, -4, 1)[a]
        before = lv.on_hand - change
        if before < 0:
            continue
        s.create(
            Adjustment,
            location_id=lv.location_id,
            lines=(AdjustmentLine(item_id=item.id, sku=item.sku, before=before, after=lv.on_hand, change=change),),
            reason=("damaged", "stocktake", "found", "theft", "stocktake")[a],
            value_change=change * item.unit_cost,
            adjusted_by=ops[a % len(ops)].email,
            note="Booked during the monthly stocktake" if a % 2 else "",
            created_at=s.ago(days=20 - a),
        )
