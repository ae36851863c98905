"""Stockroom WMS: warehouses, bins, stock by SKU per bin, inbound receipts, transfers and counts.

Modeled on the NetSuite inventory records (Location, Bin, InventoryBalance,
InventoryAdjustment, TransferOrder, InventoryCount) and ShipBob's receiving
API (warehouse receiving orders / ASNs): stock never goes negative, a transfer
needs stock at its source and another warehouse as destination, receiving
beyond an ASN's expected quantity needs an over-receipt reason, a cycle count
whose variance is above the threshold waits for a supervisor's approval, and
locked bins cannot be picked from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "warehouse",
    title="Stockroom WMS",
    category="inventory",
    modeled_on="NetSuite SuiteTalk REST (Location, Bin, InventoryBalance, InventoryAdjustment, TransferOrder, "
    "InventoryCount) and ShipBob Receiving API 2.0 (warehouse receiving orders)",
    description="Warehouse management: the company's warehouses and their bins, stock on hand per SKU and bin, "
    "inbound receipts against advance shipping notices, transfers between warehouses, cycle counts and "
    "stock adjustments with reason codes.",
)

WarehouseId = Annotated[str, IdOf("warehouse.warehouse")]
BinId = Annotated[str, IdOf("warehouse.bin")]
StockId = Annotated[str, IdOf("warehouse.stock")]
ReceiptId = Annotated[str, IdOf("warehouse.receipt")]
TransferId = Annotated[str, IdOf("warehouse.transfer")]
CountId = Annotated[str, IdOf("warehouse.cycle_count")]
AdjustmentId = Annotated[str, IdOf("warehouse.adjustment")]

Zone = Literal["receiving", "pick", "reserve", "quarantine"]
AdjustReason = Literal["damaged", "lost", "found", "expired", "correction"]
MovementReason = Literal[
    "damaged",
    "lost",
    "found",
    "expired",
    "correction",
    "picked",
    "received",
    "cycle_count",
    "transfer_out",
    "transfer_in",
]
OverReason = Literal["supplier_overship", "bonus_units", "unit_of_measure_error", "replacement_units"]
VARIANCE_UNITS = 5
"""A cycle count may move stock by up to this many units without approval."""
VARIANCE_PERCENT = 10.0
"""…or by up to this share of the expected quantity."""


class Warehouse(Created):
    """A physical warehouse (a NetSuite location) that holds stock."""

    id: WarehouseId
    code: Annotated[str, Field(min_length=2, max_length=40)]
    """Short warehouse code such as BER-1; unique."""
    name: Title
    """Warehouse name."""
    address: PostalAddress
    """Street address of the building."""
    manager_email: Email
    """E-mail of the employee who runs the warehouse."""
    active: bool = True
    """Inactive warehouses receive no new stock."""


class Bin(Record):
    """A storage location inside a warehouse."""

    id: BinId
    warehouse_id: WarehouseId
    """The warehouse the bin is in."""
    code: Annotated[str, Field(min_length=2, max_length=40)]
    """Bin code such as A-01-03, unique within its warehouse."""
    zone: Zone = "pick"
    """receiving, pick, reserve or quarantine."""
    locked: bool = False
    """Locked bins cannot be picked from or moved out of (e.g. during a count or a recall)."""
    lock_reason: Text | None = None
    """Why the bin is locked."""


class Stock(Record):
    """Units of one SKU on hand in one bin (a NetSuite inventory balance)."""

    id: StockId
    warehouse_id: WarehouseId
    """The warehouse of the bin."""
    bin_id: BinId
    """The bin holding the units."""
    sku: Sku
    """The product's stock keeping unit."""
    on_hand: Quantity
    """Units physically in the bin; never negative."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the quantity last changed."""


class ReceiptLine(Value):
    """One SKU expected on an inbound receipt and how much of it has arrived."""

    sku: Sku = Field(description="The product's stock keeping unit.")
    expected_quantity: Quantity = Field(description="Units the supplier announced.")
    received_quantity: Quantity = Field(default=0, description="Units received so far.")


class ReceiptLineInput(Value):
    """A SKU and quantity to announce on a new receipt."""

    sku: Sku = Field(description="The product's stock keeping unit.")
    expected_quantity: Quantity = Field(description="Units the supplier will ship, at least 1.")


class Receipt(Record):
    """An inbound receipt (advance shipping notice) from a supplier."""

    id: ReceiptId
    number: Annotated[str, Generated("sequence", "ASN-{n:05d}")]
    """Receipt number quoted to the supplier."""
    warehouse_id: WarehouseId
    """Warehouse the goods are delivered to."""
    supplier: CompanyName
    """The shipping supplier."""
    expected_date: Date
    """Expected arrival date."""
    lines: list[ReceiptLine]
    """Expected SKUs and what has arrived."""
    status: Literal["expected", "partially_received", "received", "cancelled"] = "expected"
    """expected, partially_received, received or cancelled."""
    over_receipt_reason: OverReason | None = None
    """Why more than expected was accepted, when it was."""
    created_at: Annotated[DateTime, CREATED]
    """When the receipt was announced."""


class Transfer(Record):
    """A transfer order moving units of one SKU from a bin to a bin in another warehouse."""

    id: TransferId
    number: Annotated[str, Generated("sequence", "TO-{n:05d}")]
    """Transfer order number."""
    sku: Sku
    """The product moved."""
    quantity: Quantity
    """Units moved."""
    from_bin_id: BinId
    """Source bin."""
    from_warehouse_id: WarehouseId
    """Source warehouse."""
    to_bin_id: BinId
    """Destination bin."""
    to_warehouse_id: WarehouseId
    """Destination warehouse."""
    status: Literal["in_transit", "received", "cancelled"] = "in_transit"
    """in_transit (left the source), received or cancelled (units returned to the source)."""
    created_at: Annotated[DateTime, CREATED]
    """When the transfer was shipped."""


class CycleCount(Record):
    """A physical count of one SKU in one bin."""

    id: CountId
    bin_id: BinId
    """The counted bin."""
    sku: Sku
    """The counted product."""
    expected_quantity: Quantity
    """Units on hand according to the system at count time."""
    counted_quantity: Quantity
    """Units physically counted."""
    variance: int
    """counted_quantity - expected_quantity."""
    status: Literal["pending_approval", "posted", "rejected"] = "posted"
    """posted (stock corrected), pending_approval (variance above threshold) or rejected."""
    counted_by: Email
    """E-mail of the employee who counted."""
    approved_by: Email | None = None
    """E-mail of the supervisor who approved a large variance."""
    created_at: Annotated[DateTime, CREATED]
    """When the count was recorded."""


class Adjustment(Record):
    """One signed change to a bin's stock, with its reason (the stock ledger)."""

    id: AdjustmentId
    bin_id: BinId
    """The bin whose stock changed."""
    sku: Sku
    """The product."""
    quantity_change: int
    """Units added (positive) or removed (negative)."""
    reason: MovementReason
    """Reason code."""
    order_number: OrderNumber | None = None
    """Customer order a pick was for."""
    note: Text = ""
    """Free note."""
    created_at: Annotated[DateTime, CREATED]
    """When the change was booked."""


# -- guards ------------------------------------------------------------------------------


def _guard_warehouse_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Bin, warehouse_id=old.id) is not None:
        raise RuleViolation(
            f"warehouse {old.id} still has bins",
            field="warehouse_id",
            hint="delete its bins first, or set active to false",
        )


def _guard_bin(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Warehouse, new.warehouse_id, field="warehouse_id")
    for other in ctx.where(Bin, warehouse_id=new.warehouse_id, code=new.code):
        if other.id != new.id:
            raise Conflict(
                f"warehouse {new.warehouse_id} already has a bin {new.code} ({other.id})",
                field="code",
                hint="choose another bin code",
            )


def _guard_bin_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if any(s.on_hand > 0 for s in ctx.where(Stock, bin_id=old.id)):
        raise RuleViolation(
            f"bin {old.id} still holds stock", field="bin_id", hint="move or adjust its stock to zero first"
        )


warehouses = service.resource(
    Warehouse,
    name="warehouse",
    plural="warehouses",
    prefix="wh",
    create=("code", "name", "address", "manager_email"),
    filters=("active", "manager_email", "code"),
    search=("name", "code"),
    update=("name", "manager_email", "active"),
    unique=("code",),
    guard_delete=_guard_warehouse_delete,
)
bins = service.resource(
    Bin,
    name="bin",
    plural="bins",
    prefix="bin",
    create=("warehouse_id", "code", "zone"),
    filters=("warehouse_id", "zone", "locked", "code"),
    search=("code",),
    update=("zone",),
    guard_create=_guard_bin,
    guard_delete=_guard_bin_delete,
)
stock = service.resource(
    Stock,
    name="stock",
    plural="stock",
    prefix="stk",
    create=False,
    filters=("warehouse_id", "bin_id", "sku"),
    search=("sku",),
    delete=False,
    title="stock balance",
)
receipts = service.resource(
    Receipt,
    name="receipt",
    plural="receipts",
    prefix="asn",
    create=False,
    filters=("warehouse_id", "status", "supplier"),
    search=("number", "supplier"),
    update=("expected_date",),
    delete=False,
    transitions={
        "cancel": Transition("status", ("expected",), "cancelled", "cancel the inbound receipt", destructive=True),
    },
    title="inbound receipt",
)
transfers = service.resource(
    Transfer,
    name="transfer",
    plural="transfers",
    prefix="to",
    create=False,
    filters=("sku", "from_warehouse_id", "to_warehouse_id", "status"),
    search=("number",),
    delete=False,
    title="transfer order",
)
cycle_counts = service.resource(
    CycleCount,
    name="cycle_count",
    plural="cycle_counts",
    prefix="cc",
    create=False,
    filters=("bin_id", "sku", "status", "counted_by"),
    delete=False,
    transitions={
        "reject": Transition("status", ("pending_approval",), "rejected", "reject the count", destructive=True),
    },
)
adjustments = service.resource(
    Adjustment,
    name="adjustment",
    plural="adjustments",
    prefix="adj",
    create=False,
    filters=("bin_id", "sku", "reason", "order_number"),
    delete=False,
    title="stock adjustment",
)


# -- helpers -----------------------------------------------------------------------------


def _known_sku(ctx: Ctx, sku: str, field: str) -> None:
    if all(p.sku != sku for p in ctx.population.products):
        raise NotFound(f"no product with SKU {sku}", field=field, hint="use the SKU of a catalog product")


def _move(
    ctx: Ctx,
    bin_: Bin,
    sku: str,
    change: int,
    reason: str,
    *,
    field: str = "quantity",
    note: str = "",
    order_number: str | None = None,
) -> Stock:
    """Apply a signed change to a bin's stock of a SKU, log it, and refuse to go negative."""
    row = ctx.first(Stock, bin_id=bin_.id, sku=sku)
    have = row.on_hand if row else 0
    if have + change < 0:
        raise RuleViolation(
            f"bin {bin_.id} has only {have} of {sku}; cannot remove {-change}",
            field=field,
            hint=f"remove at most {have} units, or use another bin (warehouse__list_stock with sku={sku})",
        )
    if row is None:
        row = ctx.create(Stock, warehouse_id=bin_.warehouse_id, bin_id=bin_.id, sku=sku, on_hand=change)
    else:
        row = ctx.update(row, on_hand=have + change)
    ctx.create(
        Adjustment, bin_id=bin_.id, sku=sku, quantity_change=change, reason=reason, note=note, order_number=order_number
    )
    return row


def _not_locked(bin_: Bin, field: str) -> None:
    if bin_.locked:
        raise RuleViolation(
            f"bin {bin_.id} is locked ({bin_.lock_reason or 'no reason given'})",
            field=field,
            hint="unlock the bin with warehouse__unlock_bin or use another bin",
        )


def _stock_example(ctx: Ctx, unlocked: bool = True) -> Stock | None:
    for row in ctx.scan(Stock):
        bin_ = ctx.get(Bin, row.bin_id)
        if row.on_hand >= 2 and (not bin_.locked or not unlocked):
            return row
    return None


# -- domain tools ------------------------------------------------------------------------


@service.tool(
    intent="lock the bin",
    write=True,
    example=first_example(Bin, "bin_id", where={"locked": False}, reason="Recall check"),
)
def lock_bin(ctx: Ctx, bin_id: BinId, reason: Text) -> Bin:
    """Lock a bin so nothing can be picked or moved out of it (for a count, a recall or damage).

    Args:
        bin_id: The bin to lock.
        reason: Why it is locked; required.
    """
    bin_ = ctx.get(Bin, bin_id, field="bin_id")
    if bin_.locked:
        raise RuleViolation(f"bin {bin_id} is already locked", field="bin_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("locking a bin needs a reason", field="reason", hint="say why the bin is locked")
    return ctx.update(bin_, locked=True, lock_reason=reason.strip())


@service.tool(
    intent="unlock the bin for picking",
    write=True,
    example=first_example(Bin, "bin_id", where={"locked": True}),
)
def unlock_bin(ctx: Ctx, bin_id: BinId) -> Bin:
    """Unlock a locked bin so it can be picked from again; clears its lock reason.

    Args:
        bin_id: The locked bin.
    """
    bin_ = ctx.get(Bin, bin_id, field="bin_id")
    if not bin_.locked:
        raise RuleViolation(f"bin {bin_id} is not locked", field="bin_id", hint="nothing to do")
    return ctx.update(bin_, locked=False, lock_reason=None)


def _example_receipt(ctx: Ctx) -> dict[str, Any] | None:
    wh = ctx.first(Warehouse, active=True)
    if wh is None:
        return None
    sku = ctx.population.products[0].sku
    return {
        "warehouse_id": wh.id,
        "supplier": "Acme Supply",
        "expected_date": (ctx.today()).isoformat(),
        "lines": [{"sku": sku, "expected_quantity": 20}],
    }


@service.tool(intent="announce an inbound shipment", write=True, example=_example_receipt)
def create_receipt(
    ctx: Ctx, warehouse_id: WarehouseId, supplier: CompanyName, expected_date: Date, lines: list[ReceiptLineInput]
) -> Receipt:
    """Announce an inbound shipment (an ASN) of one or more SKUs to a warehouse.

    Args:
        warehouse_id: The receiving warehouse; it must be active.
        supplier: The supplier shipping the goods.
        expected_date: Expected arrival date.
        lines: The SKUs and quantities announced; each SKU once, each quantity at least 1.
    """
    wh = ctx.get(Warehouse, warehouse_id, field="warehouse_id")
    if not wh.active:
        raise RuleViolation(
            f"warehouse {wh.id} is inactive", field="warehouse_id", hint="receive into an active warehouse"
        )
    if not lines:
        raise RuleViolation("a receipt needs at least one line", field="lines", hint="add the SKUs being shipped")
    seen: set[str] = set()
    for i, line in enumerate(lines):
        _known_sku(ctx, line.sku, f"lines.{i}.sku")
        if line.sku in seen:
            raise RuleViolation(f"SKU {line.sku} is listed twice", field=f"lines.{i}.sku", hint="merge the lines")
        seen.add(line.sku)
        if line.expected_quantity < 1:
            raise RuleViolation(
                "expected quantity must be at least 1", field=f"lines.{i}.expected_quantity", hint="drop the line"
            )
    return ctx.create(
        Receipt,
        warehouse_id=wh.id,
        supplier=supplier,
        expected_date=expected_date,
        lines=[ReceiptLine(sku=ln.sku, expected_quantity=ln.expected_quantity) for ln in lines],
    )


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    for rec in ctx.scan(Receipt):
        if rec.status not in ("expected", "partially_received"):
            continue
        for line in rec.lines:
            left = line.expected_quantity - line.received_quantity
            bin_ = next((b for b in ctx.where(Bin, warehouse_id=rec.warehouse_id) if not b.locked), None)
            if left > 0 and bin_ is not None:
                return {"receipt_id": rec.id, "sku": line.sku, "quantity": left, "bin_id": bin_.id}
    return None


@service.tool(intent="receive the delivered goods", write=True, example=_example_receive)
def receive_receipt(
    ctx: Ctx,
    receipt_id: ReceiptId,
    sku: Sku,
    quantity: Quantity,
    bin_id: BinId,
    over_receipt_reason: OverReason | None = None,
) -> Receipt:
    """Receive units of one SKU of an inbound receipt into a bin of its warehouse.

    Receiving more than the line's expected quantity needs an over-receipt
    reason. The receipt becomes received once every line is complete.

    Args:
        receipt_id: The receipt.
        sku: The SKU received; it must be on the receipt.
        quantity: Units received now, at least 1.
        bin_id: The bin they are put away in; it must be in the receipt's warehouse and unlocked.
        over_receipt_reason: Why more than expected is accepted; required when it is.
    """
    rec = ctx.get(Receipt, receipt_id, field="receipt_id")
    if rec.status not in ("expected", "partially_received"):
        raise RuleViolation(
            f"receipt {rec.number} is {rec.status}", field="receipt_id", hint="only open receipts can be received"
        )
    idx = next((i for i, ln in enumerate(rec.lines) if ln.sku == sku), None)
    if idx is None:
        raise RuleViolation(
            f"SKU {sku} is not on receipt {rec.number}",
            field="sku",
            hint="announce it on a new receipt with warehouse__create_receipt",
        )
    if quantity < 1:
        raise RuleViolation("receive at least 1 unit", field="quantity", hint="pass the units that arrived")
    bin_ = ctx.get(Bin, bin_id, field="bin_id")
    if bin_.warehouse_id != rec.warehouse_id:
        raise RuleViolation(
            f"bin {bin_.id} is not in the receipt's warehouse {rec.warehouse_id}",
            field="bin_id",
            hint=f"choose a bin with warehouse__list_bins warehouse_id={rec.warehouse_id}",
        )
    _not_locked(bin_, "bin_id")
    line = rec.lines[idx]
    total = line.received_quantity + quantity
    if total > line.expected_quantity and over_receipt_reason is None:
        raise RuleViolation(
            f"receiving {quantity} would make {total} of {sku}, above the {line.expected_quantity} expected",
            field="over_receipt_reason",
            hint=f"give an over_receipt_reason, or receive at most {line.expected_quantity - line.received_quantity}",
        )
    _move(ctx, bin_, sku, quantity, "received", note=f"receipt {rec.number}")
    lines = list(rec.lines)
    lines[idx] = line.model_copy(update={"received_quantity": total})
    done = all(ln.received_quantity >= ln.expected_quantity for ln in lines)
    changes: dict[str, Any] = {"lines": lines, "status": "received" if done else "partially_received"}
    if total > line.expected_quantity:
        changes["over_receipt_reason"] = over_receipt_reason
    return ctx.update(rec, **changes)


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    row = _stock_example(ctx)
    if row is None:
        return None
    dest = next((b for b in ctx.scan(Bin) if b.warehouse_id != row.warehouse_id and not b.locked), None)
    if dest is None:
        return None
    return {"sku": row.sku, "quantity": 1, "from_bin_id": row.bin_id, "to_bin_id": dest.id}


@service.tool(intent="move stock to another warehouse", write=True, example=_example_transfer)
def create_transfer(ctx: Ctx, sku: Sku, quantity: Quantity, from_bin_id: BinId, to_bin_id: BinId) -> Transfer:
    """Ship units of a SKU from a bin to a bin in another warehouse (stock leaves the source now).

    Args:
        sku: The product to move.
        quantity: Units to move, at least 1; the source bin must hold them.
        from_bin_id: Source bin; it must not be locked.
        to_bin_id: Destination bin, in a different warehouse.
    """
    src = ctx.get(Bin, from_bin_id, field="from_bin_id")
    dst = ctx.get(Bin, to_bin_id, field="to_bin_id")
    if dst.warehouse_id == src.warehouse_id:
        raise RuleViolation(
            "a transfer must go to a different warehouse",
            field="to_bin_id",
            hint="pick a destination bin in another warehouse; within a warehouse, adjust stock instead",
        )
    if quantity < 1:
        raise RuleViolation("transfer at least 1 unit", field="quantity", hint="pass a positive quantity")
    _not_locked(src, "from_bin_id")
    _move(ctx, src, sku, -quantity, "transfer_out", note="transfer out")
    return ctx.create(
        Transfer,
        sku=sku,
        quantity=quantity,
        from_bin_id=src.id,
        from_warehouse_id=src.warehouse_id,
        to_bin_id=dst.id,
        to_warehouse_id=dst.warehouse_id,
    )


def _open_transfer(ctx: Ctx, transfer_id: str) -> Transfer:
    tr = ctx.get(Transfer, transfer_id, field="transfer_id")
    if tr.status != "in_transit":
        raise RuleViolation(
            f"transfer {tr.number} is already {tr.status}", field="transfer_id", hint="only in-transit transfers"
        )
    return tr


@service.tool(
    intent="receive the transfer at its destination",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "in_transit"}),
)
def receive_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Put an in-transit transfer's units into its destination bin.

    Args:
        transfer_id: The transfer order.
    """
    tr = _open_transfer(ctx, transfer_id)
    _move(ctx, ctx.get(Bin, tr.to_bin_id), tr.sku, tr.quantity, "transfer_in", note=f"transfer {tr.number} in")
    return ctx.update(tr, status="received")


@service.tool(
    intent="cancel the transfer",
    write=True,
    example=first_example(Transfer, "transfer_id", where={"status": "in_transit"}),
)
def cancel_transfer(ctx: Ctx, transfer_id: TransferId) -> Transfer:
    """Cancel an in-transit transfer; its units go back into the source bin.

    Args:
        transfer_id: The transfer order.
    """
    tr = _open_transfer(ctx, transfer_id)
    _move(ctx, ctx.get(Bin, tr.from_bin_id), tr.sku, tr.quantity, "transfer_in", note=f"transfer {tr.number} cancelled")
    return ctx.update(tr, status="cancelled")


def _example_adjust(ctx: Ctx) -> dict[str, Any] | None:
    row = _stock_example(ctx, unlocked=False)
    if row is None:
        return None
    return {"bin_id": row.bin_id, "sku": row.sku, "quantity_change": -1, "reason": "damaged"}


@service.tool(intent="adjust the stock", write=True, example=_example_adjust)
def adjust_stock(
    ctx: Ctx, bin_id: BinId, sku: Sku, quantity_change: int, reason: AdjustReason, note: Text = ""
) -> Adjustment:
    """Add or remove units of a SKU in a bin with a reason code (damage, loss, found units …).

    Args:
        bin_id: The bin.
        sku: The product.
        quantity_change: Units to add (positive) or remove (negative); never below zero on hand.
        reason: Reason code.
        note: Free note.
    """
    bin_ = ctx.get(Bin, bin_id, field="bin_id")
    _known_sku(ctx, sku, "sku")
    if quantity_change == 0:
        raise RuleViolation("quantity_change cannot be 0", field="quantity_change", hint="pass a signed change")
    _move(ctx, bin_, sku, quantity_change, reason, field="quantity_change", note=note)
    found = ctx.where(Adjustment, bin_id=bin_.id, sku=sku)
    return found[-1]


def _example_pick(ctx: Ctx) -> dict[str, Any] | None:
    row = _stock_example(ctx)
    return {"bin_id": row.bin_id, "sku": row.sku, "quantity": 1, "order_number": "#1001"} if row else None


@service.tool(intent="pick the units for the order", write=True, example=_example_pick)
def pick_stock(ctx: Ctx, bin_id: BinId, sku: Sku, quantity: Quantity, order_number: OrderNumber) -> Stock:
    """Pick units of a SKU out of a bin for a customer order.

    Args:
        bin_id: The bin picked from; it must not be locked.
        sku: The product.
        quantity: Units picked, at least 1; the bin must hold them.
        order_number: The customer order the units are for.
    """
    bin_ = ctx.get(Bin, bin_id, field="bin_id")
    _not_locked(bin_, "bin_id")
    if quantity < 1:
        raise RuleViolation("pick at least 1 unit", field="quantity", hint="pass a positive quantity")
    return _move(ctx, bin_, sku, -quantity, "picked", order_number=order_number)


def _example_count(ctx: Ctx) -> dict[str, Any] | None:
    row = _stock_example(ctx, unlocked=False)
    emp = ctx.population.employees[0].email
    return (
        {"bin_id": row.bin_id, "sku": row.sku, "counted_quantity": row.on_hand - 1, "counted_by": emp} if row else None
    )


@service.tool(intent="record the cycle count", write=True, example=_example_count)
def record_cycle_count(ctx: Ctx, bin_id: BinId, sku: Sku, counted_quantity: Quantity, counted_by: Email) -> CycleCount:
    """Record a physical count of a SKU in a bin.

    A variance within 5 units or 10 % of the expected quantity is posted to
    stock at once; a larger one waits for approval (approve_cycle_count).

    Args:
        bin_id: The counted bin.
        sku: The counted product.
        counted_quantity: Units physically found.
        counted_by: E-mail of the employee who counted.
    """
    bin_ = ctx.get(Bin, bin_id, field="bin_id")
    _known_sku(ctx, sku, "sku")
    if ctx.first(CycleCount, bin_id=bin_.id, sku=sku, status="pending_approval") is not None:
        raise Conflict(
            f"a count of {sku} in bin {bin_.id} already awaits approval",
            field="sku",
            hint="approve or reject the pending count first",
        )
    row = ctx.first(Stock, bin_id=bin_.id, sku=sku)
    expected = row.on_hand if row else 0
    variance = counted_quantity - expected
    small = abs(variance) <= VARIANCE_UNITS or abs(variance) * 100 <= VARIANCE_PERCENT * max(expected, 1)
    count = ctx.create(
        CycleCount,
        bin_id=bin_.id,
        sku=sku,
        expected_quantity=expected,
        counted_quantity=counted_quantity,
        variance=variance,
        status="posted" if small else "pending_approval",
        counted_by=counted_by,
    )
    if small and variance:
        _move(ctx, bin_, sku, variance, "cycle_count", note=f"count {count.id}")
    return count


def _example_pending(ctx: Ctx) -> dict[str, Any] | None:
    cc = ctx.first(CycleCount, status="pending_approval")
    if cc is None:
        return None
    approver = next(e.email for e in ctx.population.employees if e.email != cc.counted_by)
    return {"cycle_count_id": cc.id, "approver_email": approver}


@service.tool(intent="approve the count variance", write=True, example=_example_pending)
def approve_cycle_count(ctx: Ctx, cycle_count_id: CountId, approver_email: Email) -> CycleCount:
    """Approve a count whose variance needed approval and post it to stock.

    The counter cannot approve their own count. Stock is set to the counted
    quantity, taking into account movements since the count.

    Args:
        cycle_count_id: The pending count.
        approver_email: E-mail of the approving supervisor.
    """
    cc = ctx.get(CycleCount, cycle_count_id, field="cycle_count_id")
    if cc.status != "pending_approval":
        raise RuleViolation(
            f"count {cc.id} is {cc.status}", field="cycle_count_id", hint="only pending counts are approved"
        )
    if approver_email == cc.counted_by:
        raise RuleViolation(
            "the counter cannot approve their own count",
            field="approver_email",
            hint="ask another employee (a supervisor) to approve",
        )
    if cc.variance:
        _move(ctx, ctx.get(Bin, cc.bin_id), cc.sku, cc.variance, "cycle_count", field="cycle_count_id")
    return ctx.update(cc, status="posted", approved_by=approver_email)


class SkuAvailability(BaseModel):
    """Stock of one SKU in one warehouse."""

    warehouse_id: WarehouseId = Field(description="The warehouse.")
    on_hand: Quantity = Field(description="Units in all its bins.")
    available: Quantity = Field(description="Units in unlocked bins, i.e. pickable.")


@service.tool(
    intent="check where the product is in stock",
    example=first_example(Stock, fields={"sku": "sku"}),
)
def stock_by_sku(ctx: Ctx, sku: Sku) -> list[SkuAvailability]:
    """Total a SKU's stock per warehouse, with what is pickable (not in locked bins).

    Args:
        sku: The product.
    """
    _known_sku(ctx, sku, "sku")
    out: dict[str, list[int]] = {}
    for row in ctx.where(Stock, sku=sku):
        bin_ = ctx.get(Bin, row.bin_id)
        tot = out.setdefault(row.warehouse_id, [0, 0])
        tot[0] += row.on_hand
        if not bin_.locked:
            tot[1] += row.on_hand
    return [SkuAvailability(warehouse_id=w, on_hand=t[0], available=t[1]) for w, t in sorted(out.items())]


# -- seeding -----------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Three warehouses in home-company cities with bins, stock of every product, receipts, transfers, counts."""
    pop = s.population
    ops = pop.staff("Operations")
    warehouses = _seed_warehouses(s, ops)
    bins = _seed_bins(s, warehouses)
    _seed_stock(s, warehouses, bins)
    _seed_receipts(s, warehouses)
    _seed_transfers(s, warehouses, bins)
    _seed_cycle_counts(s, ops)
    _seed_adjustments(s)


def _seed_warehouses(s: SeedContext, ops: Sequence[Person]) -> list[Warehouse]:
    """Distribution centers in the home city and two other cities, and an inactive site; return the active ones."""
    pop = s.population
    places = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:2]]
    warehouses = [
        s.create(
            Warehouse,
            code=f"{place.city[:3].upper()}-{n + 1}",
            name=f"{pop.home.name} {place.city} DC",
            address=pop.home.address
            if n == 0
            else PostalAddress(
                street=f"{10 + n * 7} Depot Road",
                city=place.city,
                postal_code=f"{place.postal_prefix}500",
                country=place.country,
            ),
            manager_email=ops[n % len(ops)].email,
        )
        for n, place in enumerate(places)
    ]
    s.create(
        Warehouse,
        code="NEW-9",
        name=f"{pop.home.name} overflow site",
        address=pop.home.address,
        manager_email=ops[0].email,
        active=False,
    )
    return warehouses


def _seed_bins(s: SeedContext, warehouses: Sequence[Warehouse]) -> dict[str, list[Bin]]:
    """Twelve storage bins (aisle 3 is reserve), a receiving and a quarantine bin per warehouse, by warehouse id.

    The second bin of each warehouse is locked for a cycle count.
    """
    bins: dict[str, list[Bin]] = {}
    for wh in warehouses:
        for aisle in range(1, 4):
            for slot in range(1, 5):
                zone: Zone = "reserve" if aisle == 3 else "pick"
                bins.setdefault(wh.id, []).append(
                    s.create(Bin, warehouse_id=wh.id, code=f"A-{aisle:02d}-{slot:02d}", zone=zone)
                )
        bins[wh.id].append(s.create(Bin, warehouse_id=wh.id, code="RCV-01", zone="receiving"))
        bins[wh.id].append(s.create(Bin, warehouse_id=wh.id, code="QC-01", zone="quarantine"))
    for wh in warehouses:
        bins[wh.id][1] = s.update(bins[wh.id][1], locked=True, lock_reason="Cycle count in progress")
    return bins


def _seed_stock(s: SeedContext, warehouses: Sequence[Warehouse], bins: dict[str, list[Bin]]) -> None:
    """Every product in a storage bin of two of the three warehouses."""
    for i, product in enumerate(s.population.products):
        for w, wh in enumerate(warehouses):
            if (i + w) % 3 == 2:
                continue
            b = bins[wh.id][(i + w) % 12]
            s.create(Stock, warehouse_id=wh.id, bin_id=b.id, sku=product.sku, on_hand=s.rng.randint(5, 120))


def _seed_receipts(s: SeedContext, warehouses: Sequence[Warehouse]) -> None:
    """Twelve inbound receipts from wholesale and manufacturing suppliers, in every status."""
    pop = s.population
    suppliers = [c for c in pop.customers if c.industry in ("wholesale", "manufacturing")] or list(pop.customers)
    statuses = ("expected", "expected", "partially_received", "received", "cancelled")
    for n in range(12):
        status = statuses[n % len(statuses)]
        lines = []
        for k in range(1 + n % 3):
            product = pop.products[(n * 3 + k) % len(pop.products)]
            exp = s.rng.randint(2, 10) * 10
            got = {"received": exp, "partially_received": exp // 2 if k == 0 else 0}.get(status, 0)
            lines.append(ReceiptLine(sku=product.sku, expected_quantity=exp, received_quantity=got))
        s.create(
            Receipt,
            warehouse_id=warehouses[n % len(warehouses)].id,
            supplier=suppliers[n % len(suppliers)].name,
            expected_date=s.now.date().replace(day=1 + n),
            lines=lines,
            status=status,
        )


def _seed_transfers(s: SeedContext, warehouses: Sequence[Warehouse], bins: dict[str, list[Bin]]) -> None:
    """Six transfers of two units from a stocked bin to the first bin of another warehouse."""
    stocks = s.records(Stock)
    for n in range(6):
        row = stocks[n * 7 % len(stocks)]
        dest_wh = next(w for w in warehouses if w.id != row.warehouse_id)
        s.create(
            Transfer,
            sku=row.sku,
            quantity=2,
            from_bin_id=row.bin_id,
            from_warehouse_id=row.warehouse_id,
            to_bin_id=bins[dest_wh.id][0].id,
            to_warehouse_id=dest_wh.id,
            status=("in_transit", "received", "cancelled")[n % 3],
        )


def _seed_cycle_counts(s: SeedContext, ops: Sequence[Person]) -> None:
    """Eight counts of stocked bins; the pending ones found 30 units more than booked."""
    stocks = s.records(Stock)
    for n in range(8):
        row = stocks[(n * 5 + 3) % len(stocks)]
        pending = n % 4 == 0
        counted = row.on_hand + (30 if pending else 0)
        s.create(
            CycleCount,
            bin_id=row.bin_id,
            sku=row.sku,
            expected_quantity=row.on_hand,
            counted_quantity=counted,
            variance=counted - row.on_hand,
            status="pending_approval" if pending else ("posted" if n % 4 != 3 else "rejected"),
            counted_by=ops[n % len(ops)].email,
        )


def _seed_adjustments(s: SeedContext) -> None:
    """Stock taken out of the first twenty stocked bins: damaged, lost, expired or picked for a shop order."""
    for n, row in enumerate(s.records(Stock)[:20]):
        s.create(
            Adjustment,
            bin_id=row.bin_id,
            sku=row.sku,
            quantity_change=-(1 + n % 3),
            reason=("damaged", "lost", "expired", "picked")[n % 4],
            order_number=f"#1{n + 1:03d}" if n % 4 == 3 else None,
        )
