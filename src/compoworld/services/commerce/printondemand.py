"""Inkwell Print: print-on-demand merch with a product catalog, synced store products, print files and orders.

Modeled on the Printful API: the Catalog (``/products`` and ``/products/variant``:
blank products such as a unisex t-shirt with size/colour variants and a base
price), Sync Products and Sync Variants of the store (a retail price and the
print files placed on a catalog variant), the File Library (files processed
to ``ok`` or ``failed``, at least 150 DPI for print), Orders with a
``status`` of draft, pending, onhold, inprocess, fulfilled or canceled (drafts
are confirmed to pending and then charged; only draft, pending and on-hold
orders can be canceled), ``/shipping/rates`` (STANDARD and EXPRESS by
destination and weight) and ``/orders/estimate-costs``, and reprint/refund
returns for fulfilled orders within 30 days. A variant needs a print file that
processed ``ok``, a discontinued catalog variant cannot be sold, and a retail
price must stay above the base cost.
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
    Country,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    PostalAddress,
    Sku,
    Text,
    Title,
    TrackingNumber,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "printondemand",
    title="Inkwell Print",
    category="print_on_demand",
    modeled_on="Printful API: Catalog products and variants, Sync Products/Variants, File Library, Orders "
    "(confirm, cancel, estimate-costs), Shipping Rates, returns/reprints",
    description="Print-on-demand merchandise for the home company's store: the blank product catalog, the "
    "store's designed products and their print files, customer orders sent to production and shipped, "
    "shipping rates and returns for misprints and damage.",
)

CatalogProductId = Annotated[str, IdOf("printondemand.catalog_product")]
CatalogVariantId = Annotated[str, IdOf("printondemand.catalog_variant")]
SyncProductId = Annotated[str, IdOf("printondemand.sync_product")]
SyncVariantId = Annotated[str, IdOf("printondemand.sync_variant")]
FileId = Annotated[str, IdOf("printondemand.file")]
OrderId = Annotated[str, IdOf("printondemand.order")]
ReturnId = Annotated[str, IdOf("printondemand.return_request")]

OrderStatus = Literal["draft", "pending", "onhold", "inprocess", "fulfilled", "canceled"]
FileStatus = Literal["waiting", "ok", "failed"]
Placement = Literal["front", "back", "sleeve_left", "label_inside"]
ShippingMethod = Literal["STANDARD", "EXPRESS"]
ReturnReason = Literal["misprint", "damaged", "wrong_item", "lost_in_transit"]
ReturnStatus = Literal["pending", "approved", "rejected"]
Resolution = Literal["reprint", "refund"]

MIN_DPI = 150
RETURN_WINDOW = dt.timedelta(days=30)
RATES: dict[ShippingMethod, tuple[int, int, int]] = {"STANDARD": (399, 150, 5), "EXPRESS": (1299, 300, 2)}
"""Method → (first item cents, each further item cents, business days); abroad costs 1.5x."""


class CatalogProduct(Record):
    """A blank product of the print catalog."""

    id: CatalogProductId
    type_name: Title
    """Product type (T-Shirt, Hoodie, Mug, Poster)."""
    title: Title
    """Catalog title (brand and model)."""
    placements: tuple[Placement, ...]
    """Where prints can go."""


class CatalogVariant(Record):
    """A size/colour variant of a catalog product with its base price."""

    id: CatalogVariantId
    product_id: CatalogProductId
    """The catalog product."""
    size: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    """Size (S, M, L, 11oz, 18x24)."""
    color: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """Colour name."""
    price_cents: Cents
    """Base production cost."""
    weight_grams: Annotated[int, Field(ge=1)]
    """Shipping weight."""
    discontinued: bool = False
    """Whether it can no longer be ordered."""


class PrintFile(Created):
    """A design file in the file library."""

    id: FileId
    url: Url
    """Where the file was fetched from."""
    filename: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """File name."""
    dpi: Annotated[int, Field(ge=1, le=1200)]
    """Resolution."""
    status: FileStatus = "ok"
    """waiting, ok (printable) or failed (below 150 DPI or unreadable)."""


class SyncProduct(Timestamped):
    """A product of the store, made of catalog variants with the store's prints."""

    id: SyncProductId
    name: Title
    """Name shown in the store."""
    catalog_product_id: CatalogProductId
    """The blank it is printed on."""
    external_id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,40}$")] | None = None
    """The store platform's product id."""
    is_ignored: bool = False
    """Ignored products are not fulfilled."""


class SyncVariant(Record):
    """A sellable variant of a store product."""

    id: SyncVariantId
    sync_product_id: SyncProductId
    """The store product."""
    catalog_variant_id: CatalogVariantId
    """The catalog variant it is printed on."""
    sku: Sku
    """The store's SKU (unique)."""
    retail_price_cents: Cents
    """Price the store sells it for."""
    file_ids: tuple[FileId, ...]
    """Print files."""
    placement: Placement = "front"
    """Where the main print goes."""


class OrderItem(Value):
    """A line of an order."""

    sync_variant_id: SyncVariantId
    """The store variant."""
    sku: Sku
    """Its SKU."""
    quantity: Annotated[int, Field(ge=1, le=100)]
    """How many."""
    retail_price_cents: Cents
    """Retail price each."""
    cost_cents: Cents
    """Production cost each."""


class Order(Timestamped):
    """An order sent for production and shipping to a recipient."""

    id: OrderId
    external_id: OrderNumber | None = None
    """The store's order number."""
    recipient_name: PersonName
    """Recipient."""
    recipient_email: Email | None = None
    """Recipient e-mail for shipping notices."""
    address: PostalAddress
    """Shipping address."""
    items: tuple[OrderItem, ...]
    """Lines."""
    shipping: ShippingMethod = "STANDARD"
    """STANDARD or EXPRESS."""
    status: OrderStatus = "draft"
    """draft, pending, onhold, inprocess, fulfilled or canceled."""
    subtotal_cents: Cents = 0
    """Production cost of the items."""
    shipping_cents: Cents = 0
    """Shipping cost."""
    total_cents: Cents = 0
    """What the store is charged."""
    tracking_number: TrackingNumber | None = None
    """Carrier tracking number once shipped."""
    shipped_at: DateTime | None = None
    """When it shipped."""
    hold_reason: Text = ""
    """Why it is on hold."""


class ReturnRequest(Record):
    """A claim on a fulfilled order: reprint or refund for misprints, damage, wrong or lost items."""

    id: ReturnId
    order_id: OrderId
    """The order."""
    reason: ReturnReason
    """misprint, damaged, wrong_item or lost_in_transit."""
    resolution: Resolution = "reprint"
    """reprint or refund."""
    notes: Text = ""
    """Details and photos description."""
    status: ReturnStatus = "pending"
    """pending, approved or rejected."""
    reprint_order_id: OrderId | None = None
    """The free reprint order, once approved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was filed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Rate(Value):
    """A shipping rate."""

    method: ShippingMethod
    """STANDARD or EXPRESS."""
    rate_cents: Cents
    """Cost."""
    min_delivery_days: int
    """Fastest business days."""
    max_delivery_days: int
    """Slowest business days."""


# -- rules ------------------------------------------------------------------------------------


def _ship_cost(method: ShippingMethod, count: int, country: str, home: str) -> int:
    first, more, _ = RATES[method]
    base = first + more * max(0, count - 1)
    return base if country == home else round(base * 1.5)


def _costs(ctx: Ctx, items: tuple[OrderItem, ...], method: ShippingMethod, country: str) -> dict[str, int]:
    sub = sum(i.cost_cents * i.quantity for i in items)
    ship = _ship_cost(method, sum(i.quantity for i in items), country, ctx.population.home.place.country)
    return {"subtotal_cents": sub, "shipping_cents": ship, "total_cents": sub + ship}


def _printable(ctx: Ctx, sv: SyncVariant, field: str) -> CatalogVariant:
    cv = ctx.get(CatalogVariant, sv.catalog_variant_id)
    if cv.discontinued:
        raise RuleViolation(f"{sv.sku} is printed on a discontinued variant", field=field, hint="pick another variant")
    prod = ctx.get(SyncProduct, sv.sync_product_id)
    if prod.is_ignored:
        raise RuleViolation(f"{prod.name!r} is ignored", field=field, hint="stop ignoring it first")
    for fid in sv.file_ids:
        if ctx.get(PrintFile, fid).status != "ok":
            raise RuleViolation(f"{sv.sku} has a print file that is not ok", field=field, hint="replace the file")
    return cv


def _guard_variant(ctx: Ctx, new: Any, old: Any) -> None:
    cv = ctx.get(CatalogVariant, new.catalog_variant_id)
    if new.retail_price_cents <= cv.price_cents:
        raise RuleViolation(
            f"retail price must exceed the base cost {cv.price_cents}",
            field="retail_price_cents",
            hint="raise the price",
        )


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status != "draft" and (new.address != old.address or new.shipping != old.shipping):
        raise Conflict(f"order {old.id} is {old.status}", field="order_id", hint="only drafts can be changed")
    if new.status == "draft":
        costs = _costs(ctx, new.items, new.shipping, new.address.country)
        if any(getattr(new, k) != v for k, v in costs.items()):
            ctx.update(new, **costs)


catalog_products = service.resource(
    CatalogProduct,
    name="catalog_product",
    plural="catalog_products",
    prefix="cp",
    create=False,
    get=False,
    search=("type_name", "title"),
    delete=False,
    title="catalog product",
)
catalog_variants = service.resource(
    CatalogVariant,
    name="catalog_variant",
    plural="catalog_variants",
    prefix="cv",
    create=False,
    get=False,
    filters=("product_id", "size", "color", "discontinued"),
    delete=False,
    title="catalog variant",
)
files = service.resource(
    PrintFile,
    name="file",
    plural="files",
    prefix="file",
    create=False,
    filters=("status",),
    search=("filename",),
    delete=False,
)
sync_products = service.resource(
    SyncProduct,
    name="sync_product",
    plural="sync_products",
    prefix="sp",
    create=("name", "catalog_product_id", "external_id"),
    filters=("catalog_product_id", "is_ignored", "external_id"),
    search=("name",),
    update=("name", "is_ignored"),
    delete=False,
    title="store product",
)
sync_variants = service.resource(
    SyncVariant,
    name="sync_variant",
    plural="sync_variants",
    prefix="sv",
    create=False,
    get=False,
    filters=("sync_product_id", "catalog_variant_id", "sku"),
    update=("retail_price_cents",),
    delete=False,
    guard_update=_guard_variant,
    title="store variant",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("status", "external_id", "recipient_email", "shipping", "tracking_number"),
    search=("recipient_name",),
    update=("shipping", "address"),
    delete=False,
    transitions={
        "hold": Transition("status", ("pending",), "onhold", "put the order on hold"),
        "release": Transition("status", ("onhold",), "pending", "release the held order"),
        "cancel": Transition(
            "status",
            ("draft", "pending", "onhold"),
            "canceled",
            "cancel the order",
            description="Cancel a draft, pending or on-hold order; orders in production or shipped cannot be.",
            destructive=True,
        ),
    },
    guard_update=_guard_order,
)
returns = service.resource(
    ReturnRequest,
    name="return_request",
    plural="return_requests",
    prefix="ret",
    create=False,
    get=False,
    filters=("order_id", "status", "reason"),
    delete=False,
    transitions={"reject": Transition("status", ("pending",), "rejected", "reject the return claim")},
    title="return claim",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_file(ctx: Ctx) -> dict[str, Any] | None:
    return {"url": f"https://{ctx.population.home.domain}/designs/logo-2026.png", "dpi": 300}


@service.tool(intent="add a print file to the library", write=True, example=_example_file)
def add_file(ctx: Ctx, url: Url, dpi: Annotated[int, Field(ge=1, le=1200)]) -> PrintFile:
    """Add a design file; below 150 DPI it processes as failed and cannot be printed.

    Args:
        url: Public URL of the PNG/PDF file.
        dpi: Its resolution.
    """
    name = url.rstrip("/").rsplit("/", 1)[-1][:120] or "file"
    return ctx.create(PrintFile, url=url, filename=name, dpi=dpi, status="ok" if dpi >= MIN_DPI else "failed")


def _example_variant(ctx: Ctx) -> dict[str, Any] | None:
    sp = ctx.first(SyncProduct, is_ignored=False)
    f = ctx.first(PrintFile, status="ok")
    if sp is None or f is None:
        return None
    used = {v.catalog_variant_id for v in ctx.where(SyncVariant, sync_product_id=sp.id)}
    cv = next((v for v in ctx.where(CatalogVariant, product_id=sp.catalog_product_id) if v.id not in used), None)
    if cv is None:
        return None
    return {
        "sync_product_id": sp.id,
        "catalog_variant_id": cv.id,
        "sku": "MERCH-NEW-01",
        "retail_price_cents": cv.price_cents + 1500,
        "file_ids": [f.id],
    }


@service.tool(intent="add a variant to the store product", write=True, example=_example_variant)
def add_sync_variant(
    ctx: Ctx,
    sync_product_id: SyncProductId,
    catalog_variant_id: CatalogVariantId,
    sku: Sku,
    retail_price_cents: Cents,
    file_ids: Annotated[list[FileId], Field(min_length=1, max_length=4)],
    placement: Placement = "front",
) -> SyncVariant:
    """Add a sellable variant: a catalog variant of the product's blank, with print files that processed ok.

    Args:
        sync_product_id: The store product.
        catalog_variant_id: A catalog variant of the same blank, not discontinued and not yet used.
        sku: The store's SKU (unique).
        retail_price_cents: Retail price; above the base cost.
        file_ids: Print files (status ok).
        placement: Where the print goes; one the blank allows.
    """
    sp = ctx.get(SyncProduct, sync_product_id, field="sync_product_id")
    cv = ctx.get(CatalogVariant, catalog_variant_id, field="catalog_variant_id")
    if cv.product_id != sp.catalog_product_id:
        raise RuleViolation(
            "the variant belongs to another blank", field="catalog_variant_id", hint="list its variants"
        )
    if cv.discontinued:
        raise RuleViolation("the catalog variant is discontinued", field="catalog_variant_id", hint="pick another")
    if ctx.first(SyncVariant, sync_product_id=sp.id, catalog_variant_id=cv.id):
        raise Conflict("the product already has that variant", field="catalog_variant_id", hint="update it")
    if ctx.first(SyncVariant, sku=sku):
        raise Conflict(f"SKU {sku} is taken", field="sku", hint="pick another SKU")
    if placement not in ctx.get(CatalogProduct, cv.product_id).placements:
        raise RuleViolation(f"the blank has no {placement} placement", field="placement", hint="see the catalog")
    for fid in file_ids:
        if ctx.get(PrintFile, fid, field="file_ids").status != "ok":
            raise RuleViolation(f"file {fid} did not process ok", field="file_ids", hint=f"upload at {MIN_DPI}+ DPI")
    if retail_price_cents <= cv.price_cents:
        raise RuleViolation(f"retail price must exceed {cv.price_cents}", field="retail_price_cents", hint="raise it")
    return ctx.create(
        SyncVariant,
        sync_product_id=sp.id,
        catalog_variant_id=cv.id,
        sku=sku,
        retail_price_cents=retail_price_cents,
        file_ids=tuple(dict.fromkeys(file_ids)),
        placement=placement,
    )


def _lines(ctx: Ctx, items: list[LineInput]) -> tuple[OrderItem, ...]:
    out: list[OrderItem] = []
    for it in items:
        sv = ctx.get(SyncVariant, it.sync_variant_id, field="items")
        cv = _printable(ctx, sv, "items")
        if any(o.sync_variant_id == sv.id for o in out):
            raise RuleViolation(f"{sv.sku} is listed twice", field="items", hint="raise its quantity")
        out.append(
            OrderItem(
                sync_variant_id=sv.id,
                sku=sv.sku,
                quantity=it.quantity,
                retail_price_cents=sv.retail_price_cents,
                cost_cents=cv.price_cents,
            )
        )
    return tuple(out)


class LineInput(Value):
    """A line to order."""

    sync_variant_id: SyncVariantId
    """The store variant."""
    quantity: Annotated[int, Field(ge=1, le=100)] = 1
    """How many."""


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    for sv in ctx.scan(SyncVariant):
        if (
            not ctx.get(CatalogVariant, sv.catalog_variant_id).discontinued
            and not ctx.get(SyncProduct, sv.sync_product_id).is_ignored
        ):
            c = ctx.population.consumers[0]
            return {
                "recipient_name": c.name,
                "recipient_email": c.email,
                "address": c.address.model_dump(),
                "items": [{"sync_variant_id": sv.id, "quantity": 2}],
            }
    return None


@service.tool(intent="create the print order", write=True, example=_example_order)
def create_order(
    ctx: Ctx,
    recipient_name: PersonName,
    address: PostalAddress,
    items: Annotated[list[LineInput], Field(min_length=1, max_length=50)],
    recipient_email: Email | None = None,
    shipping: ShippingMethod = "STANDARD",
    external_id: OrderNumber | None = None,
    confirm: bool = False,
) -> Order:
    """Create an order as a draft (or confirmed to pending at once); costs are computed from the variants.

    Args:
        recipient_name: Who receives it.
        address: Shipping address.
        items: Store variants and quantities (each printable: files ok, blank not discontinued).
        recipient_email: Recipient e-mail for shipping notices.
        shipping: STANDARD or EXPRESS.
        external_id: The store's order number (unique).
        confirm: Confirm for production immediately.
    """
    if external_id is not None and ctx.first(Order, external_id=external_id):
        raise Conflict(f"an order for {external_id} exists", field="external_id", hint="update that order")
    lines = _lines(ctx, items)
    return ctx.create(
        Order,
        external_id=external_id,
        recipient_name=recipient_name,
        recipient_email=recipient_email,
        address=address,
        items=lines,
        shipping=shipping,
        status="pending" if confirm else "draft",
        **_costs(ctx, lines, shipping, address.country),
    )


@service.tool(
    intent="confirm the draft order", write=True, example=first_example(Order, "order_id", where={"status": "draft"})
)
def confirm_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Confirm a draft order for production (pending); its items must still be printable.

    Args:
        order_id: The order.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status != "draft":
        raise Conflict(f"order {o.id} is {o.status}", field="order_id", hint="only drafts are confirmed")
    for it in o.items:
        _printable(ctx, ctx.get(SyncVariant, it.sync_variant_id), "order_id")
    return ctx.update(o, status="pending")


def _tracking(o: Order) -> str:
    return "1Z" + "".join(ch for ch in o.id.upper() if ch.isalnum()).rjust(14, "0")


@service.tool(
    intent="ship the order", write=True, example=first_example(Order, "order_id", where={"status": "inprocess"})
)
def fulfill_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Record that a pending or in-process order was printed and shipped, with its tracking number.

    Args:
        order_id: The order.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status not in ("pending", "inprocess"):
        raise Conflict(f"order {o.id} is {o.status}", field="order_id", hint="only confirmed orders ship")
    return ctx.update(o, status="fulfilled", tracking_number=_tracking(o), shipped_at=ctx.now())


@service.tool(
    intent="get shipping rates",
    example=lambda ctx: {"country": ctx.population.home.place.country, "item_count": 2},
)
def shipping_rates(ctx: Ctx, country: Country, item_count: Annotated[int, Field(ge=1, le=500)] = 1) -> list[Rate]:
    """Shipping rates to a country for a number of items (abroad costs half again as much).

    Args:
        country: Destination country.
        item_count: Items in the parcel.
    """
    home = ctx.population.home.place.country
    out = []
    for m, (_, _, days) in RATES.items():
        extra = 0 if country == home else 3
        out.append(
            Rate(
                method=m,
                rate_cents=_ship_cost(m, item_count, country, home),
                min_delivery_days=days + extra,
                max_delivery_days=days + extra + 3,
            )
        )
    return out


def _example_return(ctx: Ctx) -> dict[str, Any] | None:
    for o in ctx.where(Order, status="fulfilled"):
        if o.shipped_at and ctx.now() - o.shipped_at <= RETURN_WINDOW and not ctx.first(ReturnRequest, order_id=o.id):
            return {"order_id": o.id, "reason": "misprint", "notes": "Print is smudged on the front."}
    return None


@service.tool(intent="file a return claim for the order", write=True, example=_example_return)
def create_return(
    ctx: Ctx, order_id: OrderId, reason: ReturnReason, resolution: Resolution = "reprint", notes: Text = ""
) -> ReturnRequest:
    """File a claim on a fulfilled order within 30 days of shipping; one open claim per order.

    Args:
        order_id: The fulfilled order.
        reason: misprint, damaged, wrong_item or lost_in_transit.
        resolution: reprint (free new order) or refund.
        notes: Details.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status != "fulfilled" or o.shipped_at is None:
        raise RuleViolation(f"order {o.id} is {o.status}", field="order_id", hint="only shipped orders can be claimed")
    if ctx.now() - o.shipped_at > RETURN_WINDOW:
        raise RuleViolation("claims are filed within 30 days of shipping", field="order_id", hint="too late")
    if any(r.status != "rejected" for r in ctx.where(ReturnRequest, order_id=o.id)):
        raise Conflict(f"order {o.id} already has a claim", field="order_id", hint="see list_return_requests")
    return ctx.create(ReturnRequest, order_id=o.id, reason=reason, resolution=resolution, notes=notes)


@service.tool(
    intent="approve the return claim",
    write=True,
    example=first_example(ReturnRequest, "return_request_id", where={"status": "pending"}),
)
def approve_return(ctx: Ctx, return_request_id: ReturnId) -> ReturnRequest:
    """Approve a pending claim; a reprint creates a free pending order of the same items to the same address.

    Args:
        return_request_id: The claim.
    """
    r = ctx.get(ReturnRequest, return_request_id, field="return_request_id")
    if r.status != "pending":
        raise Conflict(f"claim {r.id} is {r.status}", field="return_request_id", hint="only pending claims")
    if r.resolution == "refund":
        return ctx.update(r, status="approved")
    o = ctx.get(Order, r.order_id)
    again = ctx.create(
        Order,
        recipient_name=o.recipient_name,
        recipient_email=o.recipient_email,
        address=o.address,
        items=o.items,
        shipping=o.shipping,
        status="pending",
    )
    return ctx.update(r, status="approved", reprint_order_id=again.id)


# -- seed -------------------------------------------------------------------------------------

BLANKS: tuple[tuple[str, str, tuple[Placement, ...], tuple[str, ...], tuple[str, ...], int, int], ...] = (
    (
        "T-Shirt",
        "Bella + Canvas 3001 Unisex Staple T-Shirt",
        ("front", "back", "sleeve_left", "label_inside"),
        ("S", "M", "L", "XL"),
        ("Black", "White"),
        1095,
        180,
    ),
    ("Hoodie", "Gildan 18500 Unisex Heavy Blend Hoodie", ("front", "back"), ("M", "L", "XL"), ("Navy",), 2450, 600),
    ("Mug", "White Glossy Mug", ("front",), ("11oz", "15oz"), ("White",), 650, 400),
    ("Poster", "Enhanced Matte Paper Poster", ("front",), ("12x18", "18x24"), ("White",), 900, 150),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The blank catalog, the home company's merch in the store, print files, orders of consumers in every status."""
    pop = s.population
    domain = pop.home.domain
    by_type: dict[str, list[CatalogVariant]] = {}
    prods: dict[str, CatalogProduct] = {}
    for type_name, title, places, sizes, colors, price, grams in BLANKS:
        cp = s.create(CatalogProduct, type_name=type_name, title=title, placements=places)
        prods[type_name] = cp
        by_type[type_name] = []
        for color in colors:
            for k, size in enumerate(sizes):
                by_type[type_name].append(
                    s.create(
                        CatalogVariant,
                        product_id=cp.id,
                        size=size,
                        color=color,
                        price_cents=price + 150 * k,
                        weight_grams=grams,
                        discontinued=(type_name, size, color) == ("T-Shirt", "XL", "White"),
                    )
                )
    logo = s.create(
        PrintFile, url=f"https://{domain}/brand/logo.png", filename="logo.png", dpi=300, created_at=s.ago(days=200)
    )
    back = s.create(
        PrintFile,
        url=f"https://{domain}/brand/back-print.png",
        filename="back-print.png",
        dpi=300,
        created_at=s.ago(days=150),
    )
    s.create(
        PrintFile,
        url=f"https://{domain}/brand/old-logo.jpg",
        filename="old-logo.jpg",
        dpi=72,
        status="failed",
        created_at=s.ago(days=300),
    )
    variants: list[SyncVariant] = []
    for k, (name, type_name, files_used) in enumerate(
        (
            ("Logo Tee", "T-Shirt", (logo.id, back.id)),
            ("Team Hoodie", "Hoodie", (logo.id,)),
            ("Logo Mug", "Mug", (logo.id,)),
            ("Launch Poster", "Poster", (back.id,)),
        )
    ):
        sp = s.create(
            SyncProduct,
            name=name,
            catalog_product_id=prods[type_name].id,
            external_id=f"shop-{1001 + k}",
            is_ignored=type_name == "Poster",
            created_at=s.ago(days=180 - 10 * k),
            updated_at=s.ago(days=10),
        )
        for j, cv in enumerate(by_type[type_name][:5]):
            variants.append(
                s.create(
                    SyncVariant,
                    sync_product_id=sp.id,
                    catalog_variant_id=cv.id,
                    sku=f"MERCH-{type_name[:3].upper()}-{j + 1:02d}",
                    retail_price_cents=cv.price_cents * 2 + 99,
                    file_ids=files_used,
                )
            )
    sellable = [v for v in variants if v.sku.startswith(("MERCH-T-S", "MERCH-HOO", "MERCH-MUG"))]
    plan: tuple[tuple[OrderStatus, int], ...] = (
        ("fulfilled", 12),
        ("fulfilled", 45),
        ("fulfilled", 3),
        ("inprocess", 2),
        ("pending", 1),
        ("onhold", 2),
        ("draft", 0),
        ("draft", 0),
        ("canceled", 20),
    )
    home_country = pop.home.place.country
    for k, (status, days) in enumerate(plan):
        c = pop.consumers[k]
        picks = (sellable[k % len(sellable)], sellable[(k + 3) % len(sellable)])
        cvs = {cv.id: cv for cvs in by_type.values() for cv in cvs}
        items = tuple(
            OrderItem(
                sync_variant_id=v.id,
                sku=v.sku,
                quantity=1 + (k + j) % 2,
                retail_price_cents=v.retail_price_cents,
                cost_cents=cvs[v.catalog_variant_id].price_cents,
            )
            for j, v in enumerate(picks)
        )
        sub = sum(i.cost_cents * i.quantity for i in items)
        ship = _ship_cost("STANDARD", sum(i.quantity for i in items), c.address.country, home_country)
        o = s.create(
            Order,
            external_id=f"#{1040 + k}",
            recipient_name=c.name,
            recipient_email=c.email,
            address=c.address,
            items=items,
            status=status,
            subtotal_cents=sub,
            shipping_cents=ship,
            total_cents=sub + ship,
            hold_reason="Address could not be verified." if status == "onhold" else "",
            shipped_at=s.ago(days=days) if status == "fulfilled" else None,
            created_at=s.ago(days=days + 4),
            updated_at=s.ago(days=days),
        )
        if status == "fulfilled":
            s.update(o, tracking_number=_tracking(o))
            if k == 0:
                s.create(
                    ReturnRequest,
                    order_id=o.id,
                    reason="damaged",
                    notes="Mug arrived cracked.",
                    created_at=s.ago(days=5),
                    updated_at=s.ago(days=5),
                )
