"""SourceLink Dropship: suppliers' catalogues, imported products with price rules, inventory sync, routed orders.

Modeled on the Spocket and Inventory Source APIs: suppliers (with country and
processing time) publish catalogues of products with wholesale cost, retail
price and stock; the store imports a supplier product as a draft with a price
rule (a percentage markup plus a fixed amount, never below cost), pushes it
live, and an inventory sync copies each supplier's stock and cost onto the
imported products and reprices them (out of stock when the supplier has
none). A customer's store order is routed to the supplier of its products as
a supplier order that goes pending → placed → processing → shipped →
delivered (or cancelled before it ships); placing it takes the supplier's stock
and books the cost, and the supplier sends the tracking number back. A
supplier on pause takes no imports and no orders; an order goes to one
supplier; a store SKU is unique.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Country,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Percent,
    PersonName,
    Quantity,
    Sku,
    Title,
    TrackingNumber,
)
from compoworld.services.commerce._shared import merge_quantities
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "dropship",
    title="SourceLink Dropship",
    category="dropshipping",
    modeled_on="Spocket and Inventory Source APIs (suppliers, supplier catalogue products, product import with "
    "price rules, inventory sync, supplier orders with statuses and tracking)",
    description="Dropshipping for the home company's store: the suppliers and their catalogues, the products "
    "imported from them with markup rules, the sync that keeps stock and cost current, and the customer orders "
    "routed to suppliers, placed, shipped by them and tracked back to the customer.",
)

SupplierId = Annotated[str, IdOf("dropship.supplier")]
CatalogItemId = Annotated[str, IdOf("dropship.catalog_item")]
ImportId = Annotated[str, IdOf("dropship.imported_product")]
OrderId = Annotated[str, IdOf("dropship.order")]

SupplierStatus = Literal["active", "paused"]
ImportStatus = Literal["draft", "live", "out_of_stock", "archived"]
OrderStatus = Literal["pending", "placed", "processing", "shipped", "delivered", "cancelled"]
Carrier = Literal["usps", "ups", "fedex", "dhl_express", "yunexpress"]
StoreSku = Annotated[str, StringConstraints(pattern=r"^DS-[A-Z0-9-]{3,28}$")]
"""The store's SKU of an imported product: DS- and the supplier's code."""
PositiveQuantity = Annotated[Quantity, Field(ge=1)]


class Supplier(Timestamped):
    """A dropshipping supplier with a catalogue."""

    id: SupplierId
    name: CompanyName
    """The supplier's company name."""
    contact_email: Email
    """Where orders and questions go."""
    country: Country
    """Where it ships from."""
    processing_days: Annotated[int, Field(ge=1, le=30)] = 3
    """Days it takes to hand an order to the carrier."""
    status: SupplierStatus = "active"
    """active, or paused (no imports, no orders)."""


class CatalogItem(Timestamped):
    """A product in a supplier's catalogue."""

    id: CatalogItemId
    supplier_id: SupplierId
    """The supplier."""
    supplier_sku: Sku
    """The supplier's SKU."""
    title: Title
    """Product title."""
    cost: Cents
    """Wholesale cost per unit, in cents."""
    msrp: Cents
    """Suggested retail price, in cents."""
    stock: Quantity = 0
    """Units the supplier has."""


class ImportedProduct(Timestamped):
    """A supplier product imported into the store, priced by its rule."""

    id: ImportId
    catalog_item_id: CatalogItemId
    """The supplier's product."""
    supplier_id: SupplierId
    """The supplier."""
    store_sku: StoreSku
    """The store's SKU (unique)."""
    title: Title
    """Title in the store."""
    markup_percent: Percent = 50
    """Percentage added to cost."""
    markup_fixed: Cents = 0
    """Fixed amount added after the percentage, in cents."""
    cost: Cents
    """Cost at the last sync, in cents."""
    price: Cents
    """Store price from the rule, in cents."""
    stock: Quantity = 0
    """Supplier stock at the last sync."""
    status: ImportStatus = "draft"
    """draft, live, out_of_stock (synced at 0) or archived."""
    last_synced: DateTime | None = None
    """When it was last synced."""


class OrderLine(Value):
    """One product of a supplier order."""

    imported_product_id: ImportId
    """The imported product."""
    quantity: PositiveQuantity
    """Units."""
    unit_cost: Cents = 0
    """What the supplier charges per unit."""
    unit_price: Cents = 0
    """What the customer paid per unit."""


class SupplierOrder(Record):
    """A customer's store order routed to the supplier who ships it."""

    id: OrderId
    order_number: OrderNumber
    """The store order's number."""
    supplier_id: SupplierId
    """The supplier."""
    customer_email: Email
    """The customer."""
    customer_name: PersonName
    """The customer's name."""
    lines: tuple[OrderLine, ...]
    """What is ordered."""
    status: OrderStatus = "pending"
    """pending, placed, processing, shipped, delivered or cancelled."""
    total_cost: Cents = 0
    """What the supplier charges, in cents."""
    total_price: Cents = 0
    """What the customer paid, in cents."""
    carrier: Carrier | None = None
    """The carrier the supplier used."""
    tracking_number: TrackingNumber | None = None
    """The parcel's tracking number."""
    placed_at: DateTime | None = None
    """When it was placed with the supplier."""
    created_at: Annotated[DateTime, CREATED]
    """When it was routed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class SyncResult(Value):
    """What an inventory sync changed."""

    supplier_id: SupplierId
    """The supplier."""
    synced: int
    """Imported products synced."""
    repriced: int
    """Whose price changed."""
    out_of_stock: int
    """Now out of stock."""
    back_in_stock: int
    """Live again."""


# -- rules ------------------------------------------------------------------------------------


def _price(cost: int, percent: float, fixed: int) -> int:
    return round(cost * (1 + percent / 100)) + fixed


def _guard_import(ctx: Ctx, new: Any, old: Any) -> None:
    price = _price(new.cost, new.markup_percent, new.markup_fixed)
    if price != new.price:
        ctx.update(new, price=price)


def _guard_import_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for status in ("pending", "placed", "processing"):
        for order in ctx.where(SupplierOrder, supplier_id=old.supplier_id, status=status):
            if any(line.imported_product_id == old.id for line in order.lines):
                raise Conflict(
                    f"open order {order.order_number} has {old.store_sku}",
                    field="imported_product_id",
                    hint="archive it instead, or wait until the order ships",
                )


def _active(ctx: Ctx, supplier_id: str, field: str) -> Supplier:
    supplier = ctx.get(Supplier, supplier_id, field=field)
    if supplier.status != "active":
        raise RuleViolation(f"supplier {supplier.name} is paused", field=field, hint="resume the supplier first")
    return supplier


suppliers = service.resource(
    Supplier,
    name="supplier",
    plural="suppliers",
    prefix="sup",
    create=("name", "contact_email", "country", "processing_days"),
    filters=("status", "country"),
    search=("name",),
    update=("contact_email", "processing_days"),
    delete=False,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the supplier"),
        "resume": Transition("status", ("paused",), "active", "resume the supplier"),
    },
)
catalog = service.resource(
    CatalogItem,
    name="catalog_item",
    plural="catalog_items",
    prefix="cat",
    create=False,
    filters=("supplier_id", "supplier_sku"),
    search=("title",),
    update=("cost", "msrp", "stock"),
    delete=False,
    title="supplier catalogue product",
)
imported = service.resource(
    ImportedProduct,
    name="imported_product",
    plural="imported_products",
    prefix="imp",
    create=False,
    filters=("supplier_id", "catalog_item_id", "store_sku", "status"),
    search=("title",),
    update=("title", "markup_percent", "markup_fixed"),
    unique=("store_sku",),
    transitions={
        "archive": Transition("status", ("draft", "live", "out_of_stock"), "archived", "archive the imported product")
    },
    guard_update=_guard_import,
    guard_delete=_guard_import_delete,
)
orders = service.resource(
    SupplierOrder,
    name="order",
    plural="orders",
    prefix="dso",
    create=False,
    filters=("supplier_id", "order_number", "customer_email", "status"),
    delete=False,
    transitions={
        "process": Transition("status", ("placed",), "processing", "mark the supplier order processing"),
        "deliver": Transition("status", ("shipped",), "delivered", "mark the supplier order delivered"),
    },
    title="supplier order",
)


# -- catalogue and sync -----------------------------------------------------------------------


def _example_import(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(CatalogItem):
        supplier = ctx.get(Supplier, item.supplier_id)
        if supplier.status == "active" and ctx.first(ImportedProduct, catalog_item_id=item.id) is None:
            return {"catalog_item_id": item.id, "store_sku": f"DS-{item.supplier_sku}", "markup_percent": 60}
    return None


@service.tool(intent="import the supplier's product into the store", write=True, example=_example_import)
def import_product(
    ctx: Ctx,
    catalog_item_id: CatalogItemId,
    store_sku: StoreSku,
    markup_percent: Percent = 50,
    markup_fixed: Cents = 0,
    title: Title | None = None,
) -> ImportedProduct:
    """Import a product of an active supplier as a draft, priced at cost plus the markup; once per product.

    Args:
        catalog_item_id: The supplier's product.
        store_sku: The store's SKU, DS-... (unique).
        markup_percent: Percentage added to cost.
        markup_fixed: Fixed amount added after the percentage, in cents.
        title: Title in the store (default: the supplier's).
    """
    item = ctx.get(CatalogItem, catalog_item_id, field="catalog_item_id")
    _active(ctx, item.supplier_id, "catalog_item_id")
    done = ctx.first(ImportedProduct, catalog_item_id=item.id)
    if done is not None:
        raise Conflict(f"{item.title} is already imported as {done.store_sku}", field="catalog_item_id", hint="edit it")
    if ctx.first(ImportedProduct, store_sku=store_sku) is not None:
        raise Conflict(f"store SKU {store_sku} is taken", field="store_sku", hint="pick another SKU")
    return ctx.create(
        ImportedProduct,
        catalog_item_id=item.id,
        supplier_id=item.supplier_id,
        store_sku=store_sku,
        title=title or item.title,
        markup_percent=markup_percent,
        markup_fixed=markup_fixed,
        cost=item.cost,
        price=_price(item.cost, markup_percent, markup_fixed),
        stock=item.stock,
        last_synced=ctx.now(),
    )


@service.tool(
    intent="push the imported product live",
    write=True,
    example=first_example(ImportedProduct, "imported_product_id", where={"status": "draft"}),
)
def push_live(ctx: Ctx, imported_product_id: ImportId) -> ImportedProduct:
    """Publish a draft imported product in the store; its supplier must be active and have stock.

    Args:
        imported_product_id: The imported product.
    """
    product = ctx.get(ImportedProduct, imported_product_id, field="imported_product_id")
    if product.status != "draft":
        raise RuleViolation(
            f"{product.store_sku} is {product.status}", field="imported_product_id", hint="only drafts go live"
        )
    _active(ctx, product.supplier_id, "imported_product_id")
    if product.stock <= 0:
        raise RuleViolation(
            f"the supplier has no stock of {product.store_sku}",
            field="imported_product_id",
            hint="sync the supplier's inventory first",
        )
    return ctx.update(product, status="live")


@service.tool(
    intent="sync the supplier's inventory",
    write=True,
    example=first_example(Supplier, "supplier_id", where={"status": "active"}),
)
def sync_inventory(ctx: Ctx, supplier_id: SupplierId) -> SyncResult:
    """Copy an active supplier's stock and cost onto its imported products and reprice them by their rules.

    Live products without stock become out_of_stock; out-of-stock ones with stock again go live.

    Args:
        supplier_id: The supplier.
    """
    supplier = _active(ctx, supplier_id, "supplier_id")
    synced = repriced = gone = back = 0
    for product in ctx.where(ImportedProduct, supplier_id=supplier.id):
        if product.status == "archived":
            continue
        item = ctx.get(CatalogItem, product.catalog_item_id)
        price = _price(item.cost, product.markup_percent, product.markup_fixed)
        status = product.status
        if status == "live" and item.stock == 0:
            status, gone = "out_of_stock", gone + 1
        elif status == "out_of_stock" and item.stock > 0:
            status, back = "live", back + 1
        repriced += price != product.price
        synced += 1
        ctx.update(product, cost=item.cost, price=price, stock=item.stock, status=status, last_synced=ctx.now())
    return SyncResult(supplier_id=supplier.id, synced=synced, repriced=repriced, out_of_stock=gone, back_in_stock=back)


# -- orders -----------------------------------------------------------------------------------


def _example_route(ctx: Ctx) -> dict[str, Any] | None:
    product = ctx.first(ImportedProduct, status="live")
    who = ctx.population.consumers[0]
    return (
        None
        if product is None
        else {
            "order_number": "SO-50001",
            "customer_email": who.email,
            "customer_name": who.name,
            "lines": [{"imported_product_id": product.id, "quantity": 1}],
        }
    )


@service.tool(intent="route the store order to its supplier", write=True, example=_example_route)
def route_order(
    ctx: Ctx, order_number: OrderNumber, customer_email: Email, customer_name: PersonName, lines: list[OrderLine]
) -> SupplierOrder:
    """Route a customer's order of live imported products to their supplier, as a pending supplier order.

    All lines must come from one active supplier; a store order is routed to a supplier once.

    Args:
        order_number: The store order's number.
        customer_email: The customer's e-mail.
        customer_name: The customer's name.
        lines: imported_product_id and quantity of each product (unit cost and price are filled in).
    """
    if not lines:
        raise RuleViolation("an order needs at least one line", field="lines", hint="list the products")
    merged = merge_quantities((line.imported_product_id, line.quantity) for line in lines)
    made: list[OrderLine] = []
    supplier_ids: set[str] = set()
    for pid, (i, quantity) in merged.items():
        product = ctx.get(ImportedProduct, pid, field=f"lines[{i}].imported_product_id")
        if product.status != "live":
            raise RuleViolation(
                f"{product.store_sku} is {product.status}",
                field=f"lines[{i}].imported_product_id",
                hint="only live products can be ordered",
            )
        supplier_ids.add(product.supplier_id)
        made.append(
            OrderLine(imported_product_id=pid, quantity=quantity, unit_cost=product.cost, unit_price=product.price)
        )
    if len(supplier_ids) > 1:
        raise RuleViolation("the lines come from several suppliers", field="lines", hint="route one order per supplier")
    supplier = _active(ctx, supplier_ids.pop(), "lines")
    if ctx.first(SupplierOrder, order_number=order_number, supplier_id=supplier.id) is not None:
        raise Conflict(
            f"order {order_number} is already routed to {supplier.name}", field="order_number", hint="list_orders"
        )
    return ctx.create(
        SupplierOrder,
        order_number=order_number,
        supplier_id=supplier.id,
        customer_email=customer_email,
        customer_name=customer_name,
        lines=tuple(made),
        total_cost=sum(x.unit_cost * x.quantity for x in made),
        total_price=sum(x.unit_price * x.quantity for x in made),
    )


@service.tool(
    intent="place the order with the supplier",
    write=True,
    example=first_example(SupplierOrder, "order_id", where={"status": "pending"}),
)
def place_order(ctx: Ctx, order_id: OrderId) -> SupplierOrder:
    """Place a pending order with its supplier: the supplier's stock is taken and the cost is booked.

    Args:
        order_id: The supplier order.
    """
    order = ctx.get(SupplierOrder, order_id, field="order_id")
    if order.status != "pending":
        raise RuleViolation(f"order {order.id} is {order.status}", field="order_id", hint="only pending orders")
    _active(ctx, order.supplier_id, "order_id")
    for line in order.lines:
        product = ctx.get(ImportedProduct, line.imported_product_id)
        item = ctx.get(CatalogItem, product.catalog_item_id)
        if item.stock < line.quantity:
            raise RuleViolation(
                f"the supplier has {item.stock} of {product.store_sku}, {line.quantity} ordered",
                field="order_id",
                hint="sync the inventory and cancel, or wait for a restock",
            )
        ctx.update(item, stock=item.stock - line.quantity)
    return ctx.update(order, status="placed", placed_at=ctx.now())


@service.tool(
    intent="add the supplier's tracking number",
    write=True,
    example=first_example(
        SupplierOrder, "order_id", where={"status": "processing"}, carrier="ups", tracking_number="1Z999AA10123456784"
    ),
)
def add_tracking(ctx: Ctx, order_id: OrderId, carrier: Carrier, tracking_number: TrackingNumber) -> SupplierOrder:
    """Record the carrier and tracking number the supplier sent back: the order is shipped.

    Args:
        order_id: The supplier order (placed or processing).
        carrier: usps, ups, fedex, dhl_express or yunexpress.
        tracking_number: The parcel's tracking number (unique).
    """
    order = ctx.get(SupplierOrder, order_id, field="order_id")
    if order.status not in ("placed", "processing"):
        raise RuleViolation(
            f"order {order.id} is {order.status}", field="order_id", hint="only placed or processing orders ship"
        )
    other = ctx.first(SupplierOrder, tracking_number=tracking_number)
    if other is not None:
        raise Conflict(f"order {other.id} already has {tracking_number}", field="tracking_number", hint="check it")
    return ctx.update(order, status="shipped", carrier=carrier, tracking_number=tracking_number)


@service.tool(
    intent="cancel the supplier order",
    write=True,
    destructive=True,
    example=first_example(SupplierOrder, "order_id", where={"status": "pending"}),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> SupplierOrder:
    """Cancel an order that has not shipped; a placed order's units go back to the supplier's stock.

    Args:
        order_id: The supplier order.
    """
    order = ctx.get(SupplierOrder, order_id, field="order_id")
    if order.status not in ("pending", "placed", "processing"):
        raise RuleViolation(
            f"order {order.id} is {order.status}", field="order_id", hint="shipped orders go through returns"
        )
    if order.status != "pending":
        for line in order.lines:
            item = ctx.get(CatalogItem, ctx.get(ImportedProduct, line.imported_product_id).catalog_item_id)
            ctx.update(item, stock=item.stock + line.quantity)
    return ctx.update(order, status="cancelled")


# -- seed -------------------------------------------------------------------------------------

COUNTRIES = ("US", "CN", "GB", "DE", "CA")


@service.seeder
def seed(s: SeedContext) -> None:
    """Suppliers from the world's companies, catalogues from its products, imports, and orders in every state."""
    pop = s.population
    made: list[Supplier] = []
    for k, company in enumerate(pop.customers[:4]):
        contact = pop.first_contact(company)
        made.append(
            s.create(
                Supplier,
                name=company.name,
                contact_email=contact.email if contact else f"orders@{company.domain}",
                country=COUNTRIES[k % len(COUNTRIES)],
                processing_days=2 + k,
                status="paused" if k == 3 else "active",
                created_at=s.ago(days=300),
                updated_at=s.ago(days=5),
            )
        )
    items: list[CatalogItem] = []
    for k, p in enumerate(pop.products[:24]):
        supplier = made[k % len(made)]
        items.append(
            s.create(
                CatalogItem,
                supplier_id=supplier.id,
                supplier_sku=p.sku,
                title=p.name,
                cost=round(p.cost_cents * 0.8),
                msrp=p.price_cents,
                stock=0 if k % 7 == 5 else 20 + 9 * (k % 6),
                created_at=s.ago(days=200),
                updated_at=s.ago(days=1),
            )
        )
    products: list[ImportedProduct] = []
    for k, item in enumerate(items[:16]):
        percent, fixed = (50.0, 0) if k % 2 else (35.0, 499)
        status: ImportStatus = "draft" if k % 5 == 4 else "out_of_stock" if item.stock == 0 else "live"
        products.append(
            s.create(
                ImportedProduct,
                catalog_item_id=item.id,
                supplier_id=item.supplier_id,
                store_sku=f"DS-{item.supplier_sku}",
                title=item.title,
                markup_percent=percent,
                markup_fixed=fixed,
                cost=item.cost,
                price=_price(item.cost, percent, fixed),
                stock=item.stock,
                status=status,
                last_synced=s.ago(hours=12),
                created_at=s.ago(days=120),
                updated_at=s.ago(hours=12),
            )
        )
    live = [p for p in products if p.status == "live" and p.supplier_id != made[3].id]
    plan: tuple[OrderStatus, ...] = ("pending", "pending", "placed", "processing", "shipped", "delivered", "cancelled")
    for k, state in enumerate(plan):
        imp = live[k % len(live)]
        who = pop.consumers[k]
        qty = 1 + k % 2
        s.create(
            SupplierOrder,
            order_number=f"SO-{20100 + k}",
            supplier_id=imp.supplier_id,
            customer_email=who.email,
            customer_name=who.name,
            lines=(OrderLine(imported_product_id=imp.id, quantity=qty, unit_cost=imp.cost, unit_price=imp.price),),
            status=state,
            total_cost=imp.cost * qty,
            total_price=imp.price * qty,
            carrier="ups" if state in ("shipped", "delivered") else None,
            tracking_number=f"1Z{20100 + k}US0{k}" if state in ("shipped", "delivered") else None,
            placed_at=s.ago(days=6 - k % 3) if state not in ("pending", "cancelled") else None,
            created_at=s.ago(days=8 - k % 3),
            updated_at=s.ago(days=1),
        )
