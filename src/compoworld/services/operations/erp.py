"""Ledgerline ERP: partners, products, sale and purchase orders, stock pickings and customer invoices.

Modeled on Odoo's external JSON-RPC API (v17: ``res.partner``, ``product.product``,
``sale.order``, ``purchase.order``, ``stock.picking``, ``account.move``): a quotation
moves draft → sent → sale → done (or cancel); confirming it reserves stock of storable
products and creates a delivery; validating a picking moves stock; an invoice is drafted
from a confirmed order, posted only with lines, and paid only when its residual is 0.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    OrderNumber,
    Phone,
    Quantity,
    Sku,
    Title,
)

__all__ = ["service"]

service = Service(
    "erp",
    title="Ledgerline ERP",
    category="erp",
    modeled_on="Odoo 17 external JSON-RPC API (res.partner, product.product, sale.order, purchase.order, "
    "stock.picking, account.move)",
    description="Enterprise resource planning: customers and vendors, the product catalogue with stock, "
    "quotations and sale orders, purchase orders, deliveries and receipts, and customer invoices.",
)

PartnerId = Annotated[str, IdOf("erp.partner")]
ProductId = Annotated[str, IdOf("erp.product")]
SaleOrderId = Annotated[str, IdOf("erp.sale_order")]
PurchaseOrderId = Annotated[str, IdOf("erp.purchase_order")]
PickingId = Annotated[str, IdOf("erp.picking")]
InvoiceId = Annotated[str, IdOf("erp.invoice")]

SaleState = Literal["draft", "sent", "sale", "done", "cancel"]
PAYMENT_TERM_DAYS = 30
MAX_LINES = 50


class Partner(Record):
    """A company the home company sells to or buys from (``res.partner``)."""

    id: PartnerId
    name: CompanyName
    """Company name."""
    email: Email
    """Main e-mail address; unique."""
    phone: Phone | None = None
    """Main phone number."""
    kind: Literal["customer", "vendor", "both"] = "customer"
    """Whether the partner buys from us, sells to us, or both."""
    currency: Currency = "USD"
    """Currency the partner is invoiced or billed in."""


class Product(Record):
    """A product or service the company sells or buys (``product.product``)."""

    id: ProductId
    default_code: Sku
    """Internal reference (SKU); unique."""
    name: Title
    """Product name."""
    type: Literal["product", "service"] = "product"
    """``product``: storable, stock is tracked; ``service``: no stock."""
    list_price: Cents
    """Sales price in cents."""
    standard_price: Cents
    """Cost in cents, the default purchase price."""
    qty_on_hand: Quantity = 0
    """Units in the warehouse (storable products only)."""
    qty_reserved: Quantity = 0
    """Units reserved for confirmed sale orders not yet delivered."""


class OrderLine(BaseModel):
    """One line of an order or invoice."""

    product_id: ProductId = Field(description="The product.")
    description: Title = Field(description="Line label (the product name).")
    quantity: Quantity = Field(description="Units ordered.")
    price_unit: Cents = Field(description="Unit price in cents.")
    subtotal: Cents = Field(description="quantity × price_unit, in cents.")


class SaleOrder(Record):
    """A quotation or sale order (``sale.order``)."""

    id: SaleOrderId
    name: Annotated[OrderNumber, Generated("sequence", "S{n:05d}")]
    """Order reference, e.g. S00012."""
    partner_id: PartnerId
    """The customer."""
    salesperson_email: Email
    """E-mail of the salesperson (an employee) responsible."""
    state: SaleState = "draft"
    """draft (quotation) → sent → sale (confirmed) → done (delivered and paid); cancel from any but done."""
    lines: list[OrderLine] = Field(default_factory=list)
    """Order lines."""
    amount_total: Cents = 0
    """Sum of the line subtotals in cents."""
    confirmed_at: DateTime | None = None
    """When the order was confirmed."""
    delivered: bool = False
    """Whether the delivery has been validated."""
    created_at: Annotated[DateTime, CREATED]
    """When the quotation was created."""


class PurchaseOrder(Record):
    """A confirmed purchase order to a vendor (``purchase.order``)."""

    id: PurchaseOrderId
    name: Annotated[OrderNumber, Generated("sequence", "P{n:05d}")]
    """Order reference, e.g. P00003."""
    partner_id: PartnerId
    """The vendor."""
    state: Literal["purchase", "done", "cancel"] = "purchase"
    """purchase (confirmed, awaiting receipt) → done (received)."""
    lines: list[OrderLine]
    """Order lines."""
    amount_total: Cents
    """Sum of the line subtotals in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When the order was confirmed."""


class Move(BaseModel):
    """Stock moved by a picking."""

    product_id: ProductId = Field(description="The product.")
    quantity: Quantity = Field(description="Units moved.")


class Picking(Record):
    """A delivery to a customer or a receipt from a vendor (``stock.picking``)."""

    id: PickingId
    name: Annotated[str, Generated("sequence", "WH/PICK/{n:05d}")]
    """Transfer reference."""
    picking_type: Literal["outgoing", "incoming"]
    """outgoing: delivery to a customer; incoming: receipt from a vendor."""
    partner_id: PartnerId
    """The customer or vendor."""
    sale_order_id: SaleOrderId | None = None
    """The sale order delivered, for a delivery."""
    purchase_order_id: PurchaseOrderId | None = None
    """The purchase order received, for a receipt."""
    state: Literal["assigned", "done", "cancel"] = "assigned"
    """assigned (ready) → done (validated) or cancel."""
    moves: list[Move]
    """What is moved."""
    date_done: DateTime | None = None
    """When it was validated."""


class Invoice(Record):
    """A customer invoice (``account.move`` of type out_invoice)."""

    id: InvoiceId
    name: InvoiceNumber | None = None
    """Invoice number, assigned when posted (INV-2026-00001)."""
    partner_id: PartnerId
    """The customer billed."""
    sale_order_id: SaleOrderId
    """The sale order invoiced."""
    state: Literal["draft", "posted", "cancel"] = "draft"
    """draft → posted; cancel."""
    payment_state: Literal["not_paid", "partial", "paid"] = "not_paid"
    """Payment status of a posted invoice."""
    lines: list[OrderLine]
    """Invoice lines."""
    amount_total: Cents
    """Total in cents."""
    amount_residual: Cents
    """Amount still due in cents."""
    invoice_date: Date | None = None
    """Date of posting."""
    due_date: Date | None = None
    """Payment due date (30 days after posting)."""


def _guard_order_partner(ctx: Ctx, new: Any, old: Any) -> None:
    partner = ctx.get(Partner, new.partner_id, field="partner_id")
    if partner.kind == "vendor":
        raise RuleViolation(
            f"partner {partner.id} is a vendor only and cannot be sold to",
            field="partner_id",
            hint="choose a partner of kind customer or both",
        )


partners = service.resource(
    Partner,
    name="partner",
    plural="partners",
    prefix="part",
    get=False,
    filters=("kind", "email"),
    search=("name", "email"),
    delete=False,
    unique=("email",),
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prod",
    create=("default_code", "name", "type", "list_price", "standard_price"),
    get=False,
    filters=("type", "default_code"),
    search=("name", "default_code"),
    delete=False,
    unique=("default_code",),
)
sale_orders = service.resource(
    SaleOrder,
    name="sale_order",
    plural="sale_orders",
    prefix="so",
    create=("partner_id", "salesperson_email"),
    get=False,
    filters=("partner_id", "state", "salesperson_email", "name"),
    search=("name",),
    delete=False,
    guard_create=_guard_order_partner,
    title="sale order",
)
purchase_orders = service.resource(
    PurchaseOrder,
    name="purchase_order",
    plural="purchase_orders",
    prefix="po",
    create=False,
    get=False,
    filters=("partner_id", "state"),
    delete=False,
    title="purchase order",
)
pickings = service.resource(
    Picking,
    name="picking",
    plural="pickings",
    prefix="pick",
    create=False,
    get=False,
    filters=("picking_type", "state", "sale_order_id", "purchase_order_id", "partner_id"),
    delete=False,
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    get=False,
    filters=("partner_id", "sale_order_id", "state", "payment_state"),
    delete=False,
)


# -- helpers ---------------------------------------------------------------------------------


def _line(product: Product, quantity: int, price_unit: int | None) -> OrderLine:
    price = product.list_price if price_unit is None else price_unit
    return OrderLine(
        product_id=product.id,
        description=product.name,
        quantity=quantity,
        price_unit=price,
        subtotal=quantity * price,
    )


def _needs(lines: list[OrderLine], ctx: Ctx) -> dict[str, int]:
    """Units of storable products the lines need, per product."""
    out: dict[str, int] = {}
    for line in lines:
        if ctx.get(Product, line.product_id).type == "product":
            out[line.product_id] = out.get(line.product_id, 0) + line.quantity
    return out


def _available(p: Product) -> int:
    return p.qty_on_hand - p.qty_reserved


def _maybe_done(ctx: Ctx, order: SaleOrder) -> None:
    """A confirmed order is done once its delivery is validated and its invoice fully paid."""
    if order.state != "sale" or not order.delivered:
        return
    inv = next((i for i in ctx.where(Invoice, sale_order_id=order.id) if i.state == "posted"), None)
    if inv is not None and inv.payment_state == "paid":
        ctx.update(order, state="done")


def _open_order(ctx: Ctx, sale_order_id: str) -> SaleOrder:
    order = ctx.get(SaleOrder, sale_order_id, field="sale_order_id")
    if order.state not in ("draft", "sent"):
        raise RuleViolation(
            f"sale order {order.name} is {order.state}; only quotations (draft or sent) can change",
            field="sale_order_id",
            hint="create a new quotation for further changes",
        )
    return order


# -- example providers -----------------------------------------------------------------------


def _example_add_line(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(SaleOrder, state="draft")
    product = ctx.first(Product, type="product")
    if order is None or product is None:
        return None
    return {"sale_order_id": order.id, "product_id": product.id, "quantity": 1}


def _example_confirm(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.scan(SaleOrder):
        if order.state in ("draft", "sent") and order.lines:
            needs = _needs(order.lines, ctx)
            if all(_available(ctx.get(Product, pid)) >= qty for pid, qty in needs.items()):
                return {"sale_order_id": order.id}
    return None


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(SaleOrder, state="draft"):
        if order.lines:
            return {"sale_order_id": order.id}
    return None


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(SaleOrder, state="sent")
    return None if order is None else {"sale_order_id": order.id}


def _example_purchase(ctx: Ctx) -> dict[str, Any] | None:
    vendor = ctx.first(Partner, kind="vendor")
    product = ctx.first(Product, type="product")
    if vendor is None or product is None:
        return None
    return {"partner_id": vendor.id, "lines": [{"product_id": product.id, "quantity": 10}]}


def _example_validate(ctx: Ctx) -> dict[str, Any] | None:
    picking = ctx.first(Picking, state="assigned")
    return None if picking is None else {"picking_id": picking.id}


def _example_invoice(ctx: Ctx) -> dict[str, Any] | None:
    for order in ctx.where(SaleOrder, state="sale"):
        if not [i for i in ctx.where(Invoice, sale_order_id=order.id) if i.state != "cancel"]:
            return {"sale_order_id": order.id}
    return None


def _example_post(ctx: Ctx) -> dict[str, Any] | None:
    inv = ctx.first(Invoice, state="draft")
    return None if inv is None else {"invoice_id": inv.id}


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.where(Invoice, state="posted"):
        if inv.amount_residual > 0:
            return {"invoice_id": inv.id, "amount": inv.amount_residual, "payment_date": ctx.today().isoformat()}
    return None


# -- domain tools ----------------------------------------------------------------------------


@service.tool(intent="add a product line to the quotation", write=True, example=_example_add_line)
def add_sale_order_line(
    ctx: Ctx, sale_order_id: SaleOrderId, product_id: ProductId, quantity: Quantity, price_unit: Cents | None = None
) -> SaleOrder:
    """Add a product line to a quotation (draft or sent) and recompute its total.

    Args:
        sale_order_id: The quotation.
        product_id: The product sold.
        quantity: Units, at least 1.
        price_unit: Unit price in cents (default: the product's sales price).
    """
    order = _open_order(ctx, sale_order_id)
    product = ctx.get(Product, product_id, field="product_id")
    if quantity < 1:
        raise RuleViolation("quantity must be at least 1", field="quantity", hint="order one unit or more")
    if len(order.lines) >= MAX_LINES:
        raise RuleViolation(
            f"sale order {order.name} already has {MAX_LINES} lines",
            field="sale_order_id",
            hint="split the order into a second quotation",
        )
    lines = [*order.lines, _line(product, quantity, price_unit)]
    return ctx.update(order, lines=lines, amount_total=sum(line.subtotal for line in lines))


@service.tool(intent="mark the quotation as sent to the customer", write=True, example=_example_send)
def send_quotation(ctx: Ctx, sale_order_id: SaleOrderId) -> SaleOrder:
    """Mark a draft quotation as sent to the customer (``action_quotation_sent``).

    A quotation without lines cannot be sent.

    Args:
        sale_order_id: The quotation, in state draft.
    """
    order = ctx.get(SaleOrder, sale_order_id, field="sale_order_id")
    if order.state != "draft":
        raise RuleViolation(
            f"sale order {order.name} is {order.state}, not draft",
            field="sale_order_id",
            hint="only draft quotations can be sent",
        )
    if not order.lines:
        raise RuleViolation(
            f"quotation {order.name} has no lines",
            field="sale_order_id",
            hint="add lines with erp__add_sale_order_line first",
        )
    return ctx.update(order, state="sent")


@service.tool(intent="confirm the quotation into a sale order", write=True, example=_example_confirm)
def confirm_sale_order(ctx: Ctx, sale_order_id: SaleOrderId) -> SaleOrder:
    """Confirm a quotation (``action_confirm``): reserve stock and create the delivery.

    Every storable product on it must have enough unreserved stock (on hand minus
    reserved); the reservation and a ready delivery are created together.

    Args:
        sale_order_id: The quotation, in state draft or sent.
    """
    order = _open_order(ctx, sale_order_id)
    if not order.lines:
        raise RuleViolation(
            f"quotation {order.name} has no lines",
            field="sale_order_id",
            hint="add lines with erp__add_sale_order_line first",
        )
    needs = _needs(order.lines, ctx)
    for pid, qty in needs.items():
        product = ctx.get(Product, pid)
        if _available(product) < qty:
            raise RuleViolation(
                f"not enough stock of {product.default_code}: {qty} needed, {_available(product)} available",
                field="sale_order_id",
                hint="receive more stock with erp__create_purchase_order, or reduce the quantity",
            )
    for pid, qty in needs.items():
        product = ctx.get(Product, pid)
        ctx.update(product, qty_reserved=product.qty_reserved + qty)
    if needs:
        ctx.create(
            Picking,
            picking_type="outgoing",
            partner_id=order.partner_id,
            sale_order_id=order.id,
            moves=[Move(product_id=pid, quantity=qty) for pid, qty in needs.items()],
        )
    return ctx.update(order, state="sale", confirmed_at=ctx.now(), delivered=not needs)


@service.tool(intent="cancel the sale order", write=True, destructive=True, example=_example_cancel)
def cancel_sale_order(ctx: Ctx, sale_order_id: SaleOrderId) -> SaleOrder:
    """Cancel a quotation or sale order (``action_cancel``), releasing its reserved stock.

    Done orders, orders whose delivery is already validated, and orders with a
    posted invoice cannot be cancelled; a draft invoice of the order is cancelled with it.

    Args:
        sale_order_id: The order.
    """
    order = ctx.get(SaleOrder, sale_order_id, field="sale_order_id")
    if order.state in ("done", "cancel"):
        raise RuleViolation(
            f"sale order {order.name} is {order.state} and cannot be cancelled",
            field="sale_order_id",
            hint="done and cancelled orders are final",
        )
    invs = [i for i in ctx.where(Invoice, sale_order_id=order.id) if i.state != "cancel"]
    if any(i.state == "posted" for i in invs):
        raise RuleViolation(
            f"sale order {order.name} has a posted invoice",
            field="sale_order_id",
            hint="issue a credit note for the invoice before cancelling the order",
        )
    pickings_ = ctx.where(Picking, sale_order_id=order.id)
    if any(p.state == "done" for p in pickings_):
        raise RuleViolation(
            f"the delivery of sale order {order.name} is already validated",
            field="sale_order_id",
            hint="create a return instead of cancelling",
        )
    for picking in pickings_:
        if picking.state == "assigned":
            for move in picking.moves:
                product = ctx.get(Product, move.product_id)
                ctx.update(product, qty_reserved=max(0, product.qty_reserved - move.quantity))
            ctx.update(picking, state="cancel")
    for inv in invs:
        ctx.update(inv, state="cancel")
    return ctx.update(order, state="cancel")


class PurchaseLineIn(BaseModel):
    """A line of a new purchase order."""

    product_id: ProductId = Field(description="The product bought.")
    quantity: Quantity = Field(description="Units, at least 1.")
    price_unit: Cents | None = Field(default=None, description="Unit cost in cents (default: the product's cost).")


@service.tool(intent="order stock from the vendor", write=True, example=_example_purchase)
def create_purchase_order(ctx: Ctx, partner_id: PartnerId, lines: list[PurchaseLineIn]) -> PurchaseOrder:
    """Create and confirm a purchase order to a vendor, with a receipt for its storable products.

    Args:
        partner_id: The vendor (kind vendor or both).
        lines: What to buy, 1 to 50 lines; a product may appear once.
    """
    vendor = ctx.get(Partner, partner_id, field="partner_id")
    if vendor.kind == "customer":
        raise RuleViolation(
            f"partner {vendor.id} is not a vendor", field="partner_id", hint="choose a partner of kind vendor or both"
        )
    if not 1 <= len(lines) <= MAX_LINES:
        raise RuleViolation(f"a purchase order needs 1 to {MAX_LINES} lines", field="lines", hint="list what to buy")
    seen: set[str] = set()
    out: list[OrderLine] = []
    for n, line in enumerate(lines):
        product = ctx.get(Product, line.product_id, field=f"lines[{n}].product_id")
        if line.product_id in seen:
            raise RuleViolation(
                f"product {product.default_code} appears twice", field=f"lines[{n}].product_id", hint="merge the lines"
            )
        if line.quantity < 1:
            raise RuleViolation("quantity must be at least 1", field=f"lines[{n}].quantity", hint="buy one or more")
        seen.add(line.product_id)
        price = product.standard_price if line.price_unit is None else line.price_unit
        out.append(_line(product, line.quantity, price))
    order = ctx.create(PurchaseOrder, partner_id=vendor.id, lines=out, amount_total=sum(x.subtotal for x in out))
    needs = _needs(out, ctx)
    if needs:
        ctx.create(
            Picking,
            picking_type="incoming",
            partner_id=vendor.id,
            purchase_order_id=order.id,
            moves=[Move(product_id=pid, quantity=qty) for pid, qty in needs.items()],
        )
    else:
        order = ctx.update(order, state="done")
    return order


@service.tool(intent="validate the transfer", write=True, example=_example_validate)
def validate_picking(ctx: Ctx, picking_id: PickingId) -> Picking:
    """Validate a ready delivery or receipt (``button_validate``), moving the stock.

    A delivery takes its units off hand and out of reservation; a receipt adds
    them to hand and completes its purchase order.

    Args:
        picking_id: The transfer, in state assigned.
    """
    picking = ctx.get(Picking, picking_id, field="picking_id")
    if picking.state != "assigned":
        raise RuleViolation(
            f"transfer {picking.name} is {picking.state}",
            field="picking_id",
            hint="only ready transfers can be validated",
        )
    for move in picking.moves:
        product = ctx.get(Product, move.product_id)
        if picking.picking_type == "outgoing":
            ctx.update(
                product,
                qty_on_hand=max(0, product.qty_on_hand - move.quantity),
                qty_reserved=max(0, product.qty_reserved - move.quantity),
            )
        else:
            ctx.update(product, qty_on_hand=product.qty_on_hand + move.quantity)
    done = ctx.update(picking, state="done", date_done=ctx.now())
    if picking.sale_order_id is not None:
        order = ctx.update(ctx.get(SaleOrder, picking.sale_order_id), delivered=True)
        _maybe_done(ctx, order)
    if picking.purchase_order_id is not None:
        ctx.update(ctx.get(PurchaseOrder, picking.purchase_order_id), state="done")
    return done


@service.tool(intent="invoice the sale order", write=True, example=_example_invoice)
def create_invoice(ctx: Ctx, sale_order_id: SaleOrderId) -> Invoice:
    """Create the draft customer invoice of a confirmed sale order (``_create_invoices``).

    An order is invoiced once: a second invoice is refused unless the first was cancelled.

    Args:
        sale_order_id: The sale order, in state sale.
    """
    order = ctx.get(SaleOrder, sale_order_id, field="sale_order_id")
    if order.state != "sale":
        raise RuleViolation(
            f"sale order {order.name} is {order.state}; only confirmed orders are invoiced",
            field="sale_order_id",
            hint="confirm the quotation with erp__confirm_sale_order first",
        )
    if [i for i in ctx.where(Invoice, sale_order_id=order.id) if i.state != "cancel"]:
        raise RuleViolation(
            f"sale order {order.name} is already invoiced",
            field="sale_order_id",
            hint="find its invoice with erp__list_invoices",
        )
    return ctx.create(
        Invoice,
        partner_id=order.partner_id,
        sale_order_id=order.id,
        lines=order.lines,
        amount_total=order.amount_total,
        amount_residual=order.amount_total,
    )


@service.tool(intent="post the invoice", write=True, example=_example_post)
def post_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Post a draft invoice (``action_post``): number it, date it and set its due date.

    An invoice without lines or with a total of 0 cannot be posted.

    Args:
        invoice_id: The invoice, in state draft.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.state != "draft":
        raise RuleViolation(
            f"invoice {inv.id} is {inv.state}", field="invoice_id", hint="only draft invoices can be posted"
        )
    if not inv.lines or inv.amount_total == 0:
        raise RuleViolation(
            f"invoice {inv.id} has no lines to post",
            field="invoice_id",
            hint="an invoice needs at least one line with an amount",
        )
    today = ctx.today()
    number = f"INV-{today.year}-{ctx.next_number(Invoice, 'number'):05d}"
    return ctx.update(
        inv,
        state="posted",
        name=number,
        invoice_date=today,
        due_date=today + dt.timedelta(days=PAYMENT_TERM_DAYS),
    )


@service.tool(intent="record the customer's payment of the invoice", write=True, example=_example_pay)
def register_payment(ctx: Ctx, invoice_id: InvoiceId, amount: Cents, payment_date: Date) -> Invoice:
    """Register a payment against a posted invoice (``account.payment.register``).

    The amount must be positive and at most the residual; the invoice is paid when the
    residual reaches 0, and a delivered order whose invoice is paid becomes done.

    Args:
        invoice_id: The posted invoice.
        amount: Amount paid in cents.
        payment_date: Date of the payment; not before the invoice date.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.state != "posted":
        raise RuleViolation(
            f"invoice {inv.id} is {inv.state}", field="invoice_id", hint="post the invoice before registering payments"
        )
    if inv.amount_residual == 0:
        raise RuleViolation(f"invoice {inv.name} is already paid", field="invoice_id", hint="nothing is due")
    if amount == 0 or amount > inv.amount_residual:
        raise RuleViolation(
            f"amount must be between 1 and the residual {inv.amount_residual}",
            field="amount",
            hint=f"pay at most {inv.amount_residual} cents",
        )
    if inv.invoice_date is not None and payment_date < inv.invoice_date:
        raise RuleViolation(
            f"payment date {payment_date} is before the invoice date {inv.invoice_date}",
            field="payment_date",
            hint="use the date the money was received",
        )
    residual = inv.amount_residual - amount
    paid = ctx.update(inv, amount_residual=residual, payment_state="paid" if residual == 0 else "partial")
    _maybe_done(ctx, ctx.get(SaleOrder, inv.sale_order_id))
    return paid


# -- seeding ---------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Customers and vendors from the population's companies, its products with stock, and orders in every state."""
    pop = s.population
    reps = pop.staff("Sales")
    customers: list[Partner] = []
    vendors: list[Partner] = []
    for n, company in enumerate(pop.customers):
        contact = pop.first_contact(company)
        kind = ("customer", "customer", "vendor", "both")[n % 4]
        partner = s.create(
            Partner,
            name=company.name,
            email=contact.email if contact else f"info@{company.domain}",
            phone=company.phone,
            kind=kind,
            currency=company.place.currency,
        )
        (vendors if kind == "vendor" else customers).append(partner)
        if kind == "both":
            vendors.append(partner)
    prods: list[Product] = []
    for n, item in enumerate(pop.products):
        prods.append(
            s.create(
                Product,
                default_code=item.sku,
                name=item.name,
                type="service" if n % 7 == 6 else "product",
                list_price=item.price_cents,
                standard_price=item.cost_cents,
                qty_on_hand=0 if n % 5 == 4 else s.rng.randint(5, 80),
            )
        )
    stocked = [p for p in prods if p.type == "product" and p.qty_on_hand > 0]
    states = ("draft", "sent", "sale", "sale_invoiced", "sale_posted", "done", "cancel")
    live = {p.id: p for p in prods}
    for n, customer in enumerate(customers[: len(states) * 2]):
        how = states[n % len(states)]
        _seed_sale(s, live, customer, s.rng.choice(reps).email, stocked[n % len(stocked)].id, how)


def _seed_sale(s: SeedContext, live: dict[str, Product], customer: Partner, rep: str, pid: str, how: str) -> None:
    product = live[pid]
    qty = 1 + s.rng.randint(0, 2)
    line = _line(product, qty, None)
    state = {"sale_invoiced": "sale", "sale_posted": "sale"}.get(how, how)
    order = s.create(
        SaleOrder,
        partner_id=customer.id,
        salesperson_email=rep,
        state=state,
        lines=[line],
        amount_total=line.subtotal,
        confirmed_at=s.ago(days=s.rng.randint(1, 40)) if state in ("sale", "done") else None,
        delivered=how == "done",
    )
    if state in ("sale", "done"):
        picking_state = "done" if how == "done" else "assigned"
        s.create(
            Picking,
            picking_type="outgoing",
            partner_id=customer.id,
            sale_order_id=order.id,
            moves=[Move(product_id=product.id, quantity=qty)],
            state=picking_state,
            date_done=s.ago(days=1) if picking_state == "done" else None,
        )
        if picking_state == "assigned":
            live[pid] = s.update(product, qty_reserved=product.qty_reserved + qty)
    if how in ("sale_invoiced", "sale_posted", "done"):
        posted = how != "sale_invoiced"
        day = s.now.date() - dt.timedelta(days=5)
        residual = 0 if how == "done" else line.subtotal
        s.create(
            Invoice,
            name=f"INV-{day.year}-9{order.id[-4:]}" if posted else None,
            partner_id=customer.id,
            sale_order_id=order.id,
            state="posted" if posted else "draft",
            payment_state="paid" if how == "done" else "not_paid",
            lines=[line],
            amount_total=line.subtotal,
            amount_residual=residual,
            invoice_date=day if posted else None,
            due_date=day + dt.timedelta(days=PAYMENT_TERM_DAYS) if posted else None,
        )
