"""Tradelink EDI: the company's EDI trading partner network with its retail customers.

Modeled on SPS Commerce Fulfillment and the Orderful API (trading partners with
ISA identifiers and their document set, transactions with control numbers,
X12 850 purchase orders, 855 acknowledgements, 856 advance ship notices, 810
invoices, 997 functional acknowledgements with validation errors, partner
scorecards): a partner that is live (or in testing) sends 850s whose PO
numbers are unique per partner and whose lines name catalog SKUs; each 850 is
answered by an automatic 997. The company acknowledges a new PO with an 855
(accept or reject) within the partner's window; ships against it with 856s
that carry a carrier SCAC and tracking number and never ship more than was
ordered (partners that require an 855 refuse an ASN before it); and invoices
the shipped, not yet invoiced quantities with an 810 whose invoice number is
unique. The partner's 997 accepts or rejects each outbound document (a
rejection lists its segment errors); a rejected document can be resent under
a new control number. A PO goes new → acknowledged → partially_shipped →
shipped → invoiced, or rejected.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    OrderNumber,
    Quantity,
    Sku,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "edi",
    title="Tradelink EDI",
    category="edi_b2b",
    modeled_on="SPS Commerce Fulfillment / Orderful API (trading partners, transactions with control numbers, "
    "X12 850, 855, 856, 810, 997 with validation errors, scorecards)",
    description="EDI with the company's retail trading partners: partners and their identifiers, the catalog "
    "they order from, inbound purchase orders (850), acknowledgements (855), advance ship notices (856), "
    "invoices (810), the functional acknowledgements (997) that accept or reject each document, and scorecards.",
)

PartnerId = Annotated[str, IdOf("edi.partner")]
ItemId = Annotated[str, IdOf("edi.catalog_item")]
PoId = Annotated[str, IdOf("edi.purchase_order")]
AsnId = Annotated[str, IdOf("edi.ship_notice")]
InvoiceId = Annotated[str, IdOf("edi.invoice")]
TxId = Annotated[str, IdOf("edi.transaction")]

IsaId = Annotated[str, StringConstraints(pattern=r"^(01|08|12|ZZ):[A-Z0-9]{2,15}$")]
"""An interchange id with its qualifier, e.g. ZZ:ACMERETAIL."""
Scac = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,4}$")]
"""A standard carrier alpha code."""
DocType = Literal["850", "855", "856", "810", "997"]
PoStatus = Literal["new", "acknowledged", "partially_shipped", "shipped", "invoiced", "rejected"]
TxStatus = Literal["received", "sent", "accepted", "rejected", "resent"]


class Partner(Record):
    """A retail trading partner that buys from the company over EDI."""

    id: PartnerId
    name: CompanyName
    """The partner company."""
    isa_id: IsaId
    """Its interchange id (unique)."""
    contact_email: Email | None = None
    """Its EDI contact."""
    status: Literal["testing", "live", "paused"] = "live"
    """testing, live or paused (paused partners exchange nothing)."""
    documents: tuple[DocType, ...] = ("850", "855", "856", "810", "997")
    """The documents it exchanges."""
    requires_855: bool = True
    """Whether an 855 must precede any 856."""
    ack_within_hours: Annotated[int, Field(ge=1, le=168)] = 24
    """How soon an 855 is due after an 850."""
    created_at: Annotated[DateTime, CREATED]
    """When it was onboarded."""


class CatalogItem(Record):
    """An item partners may order."""

    id: ItemId
    sku: Sku
    """The company's SKU (unique)."""
    upc: Annotated[str, StringConstraints(pattern=r"^\d{12}$")]
    """The 12-digit UPC."""
    name: Title
    """Its name."""
    unit_price: Cents
    """Wholesale price per unit in cents."""


class PoLine(Value):
    """A line of a purchase order."""

    sku: Sku = Field(description="The SKU ordered.")
    quantity: Quantity = Field(description="Units ordered.")
    unit_price: Cents = Field(description="Price per unit in cents.")
    shipped: Quantity = Field(default=0, description="Units shipped so far.")
    invoiced: Quantity = Field(default=0, description="Units invoiced so far.")


class PurchaseOrder(Record):
    """A partner's purchase order, received as an 850."""

    id: PoId
    partner_id: PartnerId
    """The partner."""
    po_number: OrderNumber
    """The partner's PO number (unique per partner)."""
    po_date: Date
    """The order date."""
    ship_by: Date
    """The requested ship date."""
    ship_to_store: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{2,12}$")] = "DC-01"
    """The partner's store or distribution center code."""
    lines: tuple[PoLine, ...]
    """The lines."""
    status: PoStatus = "new"
    """new → acknowledged → partially_shipped → shipped → invoiced; rejected."""
    received_at: Annotated[DateTime, CREATED]
    """When the 850 arrived."""
    acknowledged_at: DateTime | None = None
    """When the 855 went out."""


class ShipLine(Value):
    """Units of a SKU in a shipment."""

    sku: Sku = Field(description="The SKU.")
    quantity: Quantity = Field(description="Units shipped.")


class ShipNotice(Record):
    """An advance ship notice (856) for a PO."""

    id: AsnId
    asn_number: Annotated[str, Generated("sequence", "ASN-{n:06d}")]
    """The shipment id."""
    purchase_order_id: PoId
    """The PO."""
    carrier_scac: Scac
    """The carrier."""
    tracking_number: TrackingNumber
    """The carrier's tracking or PRO number."""
    ship_date: Date
    """When it shipped."""
    lines: tuple[ShipLine, ...]
    """What it carries."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


class Invoice(Record):
    """An invoice (810) for shipped units of a PO."""

    id: InvoiceId
    invoice_number: InvoiceNumber
    """The invoice number (unique)."""
    purchase_order_id: PoId
    """The PO."""
    lines: tuple[ShipLine, ...]
    """The units invoiced."""
    total: Cents
    """The amount in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


class SegmentError(Value):
    """A validation error a 997 reports."""

    segment: Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]{1,2}$")] = Field(description="e.g. BSN, TD5.")
    code: Annotated[str, StringConstraints(pattern=r"^[0-9A-Z]{1,3}$")] = Field(description="The X12 error code.")
    message: Annotated[str, StringConstraints(min_length=1, max_length=200)] = Field(description="What is wrong.")


class Transaction(Record):
    """One EDI document exchanged with a partner."""

    id: TxId
    partner_id: PartnerId
    """The partner."""
    doc_type: DocType
    """850, 855, 856, 810 or 997."""
    direction: Literal["inbound", "outbound"]
    """inbound (from the partner) or outbound."""
    control_number: Annotated[int, Field(ge=1, le=999_999_999)]
    """The interchange control number (unique)."""
    po_number: OrderNumber | None = None
    """The PO it concerns."""
    reference_id: str | None = None
    """The id of the PO, ship notice or invoice it carries."""
    status: TxStatus
    """received (inbound); sent → accepted or rejected by the partner's 997; resent."""
    late: bool = False
    """Sent after the partner's deadline (855s)."""
    errors: tuple[SegmentError, ...] = ()
    """Errors the partner's 997 reported."""
    created_at: Annotated[DateTime, CREATED]
    """When it was exchanged."""


# -- rules ------------------------------------------------------------------------------------


def _guard_partner(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.documents)) != len(new.documents) or "850" not in new.documents:
        raise RuleViolation(
            "a partner exchanges each document once and sends 850s", field="documents", hint="list 850 and others"
        )


partners = service.resource(
    Partner,
    name="partner",
    plural="partners",
    prefix="tp",
    create=False,
    filters=("status", "isa_id"),
    search=("name",),
    update=("contact_email", "status", "documents", "requires_855", "ack_within_hours"),
    delete=False,
    unique=("isa_id",),
    guard_update=_guard_partner,
    title="trading partner",
)
catalog = service.resource(
    CatalogItem,
    name="catalog_item",
    plural="catalog_items",
    prefix="ci",
    create=False,
    get=False,
    filters=("sku", "upc"),
    search=("name", "sku"),
    update=("name", "unit_price"),
    delete=False,
    unique=("sku", "upc"),
    title="catalog item",
)
orders = service.resource(
    PurchaseOrder,
    name="purchase_order",
    plural="purchase_orders",
    prefix="po",
    create=False,
    filters=("partner_id", "status", "po_number", "ship_to_store"),
    search=("po_number",),
    delete=False,
    title="purchase order",
)
notices = service.resource(
    ShipNotice,
    name="ship_notice",
    plural="ship_notices",
    prefix="asn",
    create=False,
    get=False,
    filters=("purchase_order_id", "carrier_scac", "tracking_number"),
    delete=False,
    title="ship notice",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    get=False,
    filters=("purchase_order_id", "invoice_number"),
    delete=False,
)
transactions = service.resource(
    Transaction,
    name="transaction",
    plural="transactions",
    prefix="tx",
    create=False,
    filters=("partner_id", "doc_type", "direction", "status", "po_number", "control_number"),
    delete=False,
)


def _partner_for(ctx: Ctx, partner_id: str, doc: str, field: str = "partner_id") -> Partner:
    p = ctx.get(Partner, partner_id, field=field)
    if p.status == "paused":
        raise RuleViolation(f"{p.name} is paused", field=field, hint="set the partner live with edi__update_partner")
    if doc not in p.documents:
        raise RuleViolation(f"{p.name} does not exchange {doc}s", field=field, hint="read the partner's documents")
    return p


def _tx(ctx: Ctx, partner: Partner, doc: str, direction: str, po: PurchaseOrder, ref: str, **extra: Any) -> Transaction:
    n = max((t.control_number for t in ctx.scan(Transaction)), default=100000) + 1
    status = "received" if direction == "inbound" else "sent"
    return ctx.create(
        Transaction,
        partner_id=partner.id,
        doc_type=doc,
        direction=direction,
        control_number=n,
        po_number=po.po_number,
        reference_id=ref,
        status=status,
        **extra,
    )


def _po_in(ctx: Ctx, po_id: str, *statuses: str) -> PurchaseOrder:
    po = ctx.get(PurchaseOrder, po_id, field="purchase_order_id")
    if po.status not in statuses:
        raise RuleViolation(
            f"PO {po.po_number} is {po.status}",
            field="purchase_order_id",
            hint=f"this needs a PO that is {' or '.join(statuses)}",
        )
    return po


def _example_onboard(ctx: Ctx) -> dict[str, Any] | None:
    known = {p.name for p in ctx.scan(Partner)}
    company = next((c for c in ctx.population.customers if c.name not in known), None)
    if company is None:
        return None
    contact = ctx.population.first_contact(company)
    return {"name": company.name, "isa_id": "ZZ:NEWPARTNER01", "contact_email": contact.email if contact else None}


@service.tool(intent="onboard a trading partner", write=True, example=_example_onboard)
def onboard_partner(
    ctx: Ctx,
    name: CompanyName,
    isa_id: IsaId,
    contact_email: Email | None = None,
    documents: list[DocType] | None = None,
    requires_855: bool = True,
    ack_within_hours: Annotated[int, Field(ge=1, le=168)] = 24,
) -> Partner:
    """Add a trading partner in testing; its interchange id is unique.

    Args:
        name: The partner company.
        isa_id: Its interchange id with qualifier, e.g. ZZ:ACMERETAIL.
        contact_email: Its EDI contact.
        documents: The documents it exchanges (850 among them); omit for 850, 855, 856, 810 and 997.
        requires_855: Whether an 855 must precede any 856.
        ack_within_hours: How soon an 855 is due after an 850.
    """
    if ctx.first(Partner, isa_id=isa_id) is not None:
        raise Conflict(f"interchange id {isa_id} is taken", field="isa_id", hint="find the partner by isa_id")
    docs = tuple(documents) if documents is not None else ("850", "855", "856", "810", "997")
    if len(set(docs)) != len(docs) or "850" not in docs:
        raise RuleViolation("a partner exchanges each document once and sends 850s", field="documents", hint="list 850")
    return ctx.create(
        Partner,
        name=name,
        isa_id=isa_id,
        contact_email=contact_email,
        status="testing",
        documents=docs,
        requires_855=requires_855,
        ack_within_hours=ack_within_hours,
    )


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    known = {i.sku for i in ctx.scan(CatalogItem)}
    prod = next((p for p in ctx.population.products if p.sku not in known), None)
    if prod is None:
        return None
    return {"sku": prod.sku, "upc": "840000999990", "name": prod.name, "unit_price": max(100, prod.cost_cents)}


@service.tool(intent="add the item to the EDI catalog", write=True, example=_example_item)
def add_catalog_item(
    ctx: Ctx, sku: Sku, upc: Annotated[str, StringConstraints(pattern=r"^\d{12}$")], name: Title, unit_price: Cents
) -> CatalogItem:
    """Add an item partners may order; SKU and UPC are unique.

    Args:
        sku: The company's SKU.
        upc: The 12-digit UPC.
        name: Its name.
        unit_price: Wholesale price per unit in cents, at least 1.
    """
    for field, value in (("sku", sku), ("upc", upc)):
        if ctx.first(CatalogItem, **{field: value}) is not None:
            raise Conflict(f"{field} {value} is already in the catalog", field=field, hint="update that item")
    if unit_price < 1:
        raise RuleViolation("an item needs a price", field="unit_price", hint="give a price in cents")
    return ctx.create(CatalogItem, sku=sku, upc=upc, name=name, unit_price=unit_price)


# -- 850 / 855 --------------------------------------------------------------------------------


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    p, item = ctx.first(Partner, status="live"), ctx.first(CatalogItem)
    if p is None or item is None:
        return None
    day = ctx.today()
    return {
        "partner_id": p.id,
        "po_number": "PO-880001",
        "po_date": day.isoformat(),
        "ship_by": (day + dt.timedelta(days=7)).isoformat(),
        "lines": [{"sku": item.sku, "quantity": 24}],
    }


class OrderedLine(Value):
    """A line as the partner's 850 sends it."""

    sku: Sku = Field(description="The SKU ordered.")
    quantity: Quantity = Field(description="Units, at least 1.")


@service.tool(intent="receive the partner's purchase order", write=True, example=_example_receive)
def receive_purchase_order(
    ctx: Ctx,
    partner_id: PartnerId,
    po_number: OrderNumber,
    po_date: Date,
    ship_by: Date,
    lines: list[OrderedLine],
    ship_to_store: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{2,12}$")] = "DC-01",
) -> PurchaseOrder:
    """Take in a partner's 850: the PO is created at catalog prices and a 997 accepts it.

    The PO number is unique per partner; every SKU must be in the catalog, once.

    Args:
        partner_id: The partner (live or testing, sending 850s).
        po_number: The partner's PO number.
        po_date: The order date.
        ship_by: The requested ship date, not before the order date.
        lines: SKUs and quantities.
        ship_to_store: The partner's store or DC code.
    """
    partner = _partner_for(ctx, partner_id, "850")
    if ctx.first(PurchaseOrder, partner_id=partner.id, po_number=po_number) is not None:
        raise Conflict(f"PO {po_number} was already received", field="po_number", hint="it is a duplicate 850")
    if ship_by < po_date:
        raise RuleViolation("ship_by is before po_date", field="ship_by", hint="ship on or after the order date")
    skus = [line.sku for line in lines]
    if not lines or len(set(skus)) != len(skus) or any(line.quantity < 1 for line in lines):
        raise RuleViolation("a PO lists each SKU once with a quantity", field="lines", hint="fix the lines")
    made: list[PoLine] = []
    for line in lines:
        item = ctx.first(CatalogItem, sku=line.sku)
        if item is None:
            raise RuleViolation(
                f"{line.sku} is not in the catalog", field="lines", hint="add it with edi__create_catalog_item"
            )
        made.append(PoLine(sku=line.sku, quantity=line.quantity, unit_price=item.unit_price))
    po = ctx.create(
        PurchaseOrder,
        partner_id=partner.id,
        po_number=po_number,
        po_date=po_date,
        ship_by=ship_by,
        ship_to_store=ship_to_store,
        lines=tuple(made),
    )
    tx = _tx(ctx, partner, "850", "inbound", po, po.id)
    _tx(ctx, partner, "997", "outbound", po, tx.id)
    return po


@service.tool(
    intent="acknowledge the purchase order",
    write=True,
    example=first_example(PurchaseOrder, "purchase_order_id", where={"status": "new"}, decision="accept"),
)
def acknowledge_purchase_order(ctx: Ctx, purchase_order_id: PoId, decision: Literal["accept", "reject"]) -> Transaction:
    """Send the 855 for a new PO: accept it or reject it; late when past the partner's window.

    Args:
        purchase_order_id: The new PO.
        decision: accept or reject.
    """
    po = _po_in(ctx, purchase_order_id, "new")
    partner = _partner_for(ctx, po.partner_id, "855", "purchase_order_id")
    late = ctx.now() > po.received_at + dt.timedelta(hours=partner.ack_within_hours)
    ctx.update(po, status="acknowledged" if decision == "accept" else "rejected", acknowledged_at=ctx.now())
    return _tx(ctx, partner, "855", "outbound", po, po.id, late=late)


# -- 856 / 810 --------------------------------------------------------------------------------


def _example_asn(ctx: Ctx) -> dict[str, Any] | None:
    for po in ctx.scan(PurchaseOrder):
        if po.status in ("acknowledged", "partially_shipped"):
            line = next((x for x in po.lines if x.shipped < x.quantity), None)
            if line is not None:
                return {
                    "purchase_order_id": po.id,
                    "carrier_scac": "UPSN",
                    "tracking_number": "1Z999AA10123456784",
                    "lines": [{"sku": line.sku, "quantity": line.quantity - line.shipped}],
                }
    return None


@service.tool(intent="send the advance ship notice", write=True, example=_example_asn)
def send_ship_notice(
    ctx: Ctx, purchase_order_id: PoId, carrier_scac: Scac, tracking_number: TrackingNumber, lines: list[ShipLine]
) -> ShipNotice:
    """Send an 856 for units shipped today against a PO; never more than ordered.

    Partners that require an 855 refuse an ASN for a PO not yet acknowledged.

    Args:
        purchase_order_id: The PO (acknowledged or partially shipped; new when no 855 is required).
        carrier_scac: The carrier's SCAC.
        tracking_number: The tracking or PRO number.
        lines: SKUs and units shipped.
    """
    po = ctx.get(PurchaseOrder, purchase_order_id, field="purchase_order_id")
    partner = _partner_for(ctx, po.partner_id, "856", "purchase_order_id")
    allowed = ("acknowledged", "partially_shipped") + (() if partner.requires_855 else ("new",))
    if po.status not in allowed:
        hint = "send the 855 with edi__acknowledge_purchase_order first" if po.status == "new" else "nothing to ship"
        raise RuleViolation(f"PO {po.po_number} is {po.status}", field="purchase_order_id", hint=hint)
    if ctx.first(ShipNotice, tracking_number=tracking_number) is not None:
        raise Conflict(f"tracking {tracking_number} is on another ASN", field="tracking_number", hint="use the new one")
    by_sku = {x.sku: x for x in po.lines}
    updated = dict(by_sku)
    if not lines or len({x.sku for x in lines}) != len(lines):
        raise RuleViolation("an ASN lists each SKU once", field="lines", hint="fix the lines")
    for line in lines:
        ordered = by_sku.get(line.sku)
        if ordered is None or line.quantity < 1 or ordered.shipped + line.quantity > ordered.quantity:
            left = 0 if ordered is None else ordered.quantity - ordered.shipped
            raise RuleViolation(
                f"{line.sku}: {left} units left to ship", field="lines", hint="ship at most what is left on the PO"
            )
        updated[line.sku] = ordered.model_copy(update={"shipped": ordered.shipped + line.quantity})
    new_lines = tuple(updated.values())
    full = all(x.shipped == x.quantity for x in new_lines)
    ctx.update(po, lines=new_lines, status="shipped" if full else "partially_shipped")
    asn = ctx.create(
        ShipNotice,
        purchase_order_id=po.id,
        carrier_scac=carrier_scac,
        tracking_number=tracking_number,
        ship_date=ctx.today(),
        lines=tuple(lines),
    )
    _tx(ctx, partner, "856", "outbound", po, asn.id)
    return asn


def _example_invoice(ctx: Ctx) -> dict[str, Any] | None:
    for po in ctx.scan(PurchaseOrder):
        if any(x.shipped > x.invoiced for x in po.lines):
            return {"purchase_order_id": po.id, "invoice_number": f"INV-{po.po_number[-6:]}-9"}
    return None


@service.tool(intent="invoice the shipped units", write=True, example=_example_invoice)
def send_invoice(ctx: Ctx, purchase_order_id: PoId, invoice_number: InvoiceNumber) -> Invoice:
    """Send an 810 for the units shipped but not yet invoiced, at the PO's prices.

    Args:
        purchase_order_id: The PO.
        invoice_number: The invoice number (unique).
    """
    po = ctx.get(PurchaseOrder, purchase_order_id, field="purchase_order_id")
    partner = _partner_for(ctx, po.partner_id, "810", "purchase_order_id")
    due = [(x, x.shipped - x.invoiced) for x in po.lines if x.shipped > x.invoiced]
    if not due:
        raise RuleViolation(
            f"PO {po.po_number} has no shipped units to invoice",
            field="purchase_order_id",
            hint="send an 856 with edi__send_ship_notice first",
        )
    if ctx.first(Invoice, invoice_number=invoice_number) is not None:
        raise Conflict(f"invoice {invoice_number} exists", field="invoice_number", hint="use a new number")
    lines = tuple(x.model_copy(update={"invoiced": x.shipped}) for x in po.lines)
    done = all(x.invoiced == x.quantity for x in lines)
    ctx.update(po, lines=lines, status="invoiced" if done else po.status)
    inv = ctx.create(
        Invoice,
        invoice_number=invoice_number,
        purchase_order_id=po.id,
        lines=tuple(ShipLine(sku=x.sku, quantity=q) for x, q in due),
        total=sum(x.unit_price * q for x, q in due),
    )
    _tx(ctx, partner, "810", "outbound", po, inv.id)
    return inv


# -- 997 and resends --------------------------------------------------------------------------


def _example_ack(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.where(Transaction, status="sent"):
        if t.doc_type != "997":
            return {"transaction_id": t.id, "accepted": True}
    return None


@service.tool(intent="record the partner's functional acknowledgement", write=True, example=_example_ack)
def record_functional_ack(
    ctx: Ctx, transaction_id: TxId, accepted: bool, errors: list[SegmentError] | None = None
) -> Transaction:
    """Record the partner's 997 for a sent document: accepted, or rejected with its segment errors.

    Args:
        transaction_id: The outbound document (not a 997).
        accepted: Whether the partner accepted it.
        errors: The errors (required for a rejection, none for an acceptance).
    """
    t = ctx.get(Transaction, transaction_id, field="transaction_id")
    if t.direction != "outbound" or t.doc_type == "997":
        raise RuleViolation("only outbound documents get a 997", field="transaction_id", hint="pick an 855, 856 or 810")
    if t.status != "sent":
        raise Conflict(f"transaction {t.control_number} is already {t.status}", field="transaction_id", hint="done")
    if accepted == bool(errors):
        raise RuleViolation(
            "a rejection lists errors and an acceptance none", field="errors", hint="match errors to the decision"
        )
    return ctx.update(t, status="accepted" if accepted else "rejected", errors=tuple(errors or ()))


@service.tool(
    intent="resend the rejected document",
    write=True,
    example=first_example(Transaction, "transaction_id", where={"status": "rejected"}),
)
def resend_transaction(ctx: Ctx, transaction_id: TxId) -> Transaction:
    """Resend a rejected document under a new control number; the rejected one is marked resent.

    Args:
        transaction_id: The rejected document.
    """
    t = ctx.get(Transaction, transaction_id, field="transaction_id")
    if t.status != "rejected":
        raise RuleViolation(
            f"transaction {t.control_number} is {t.status}", field="transaction_id", hint="resend rejects"
        )
    partner = _partner_for(ctx, t.partner_id, t.doc_type, "transaction_id")
    ctx.update(t, status="resent")
    po = ctx.first(PurchaseOrder, partner_id=t.partner_id, po_number=t.po_number)
    assert po is not None
    return _tx(ctx, partner, t.doc_type, "outbound", po, t.reference_id or po.id)


class Scorecard(Value):
    """A partner's compliance scorecard."""

    partner_id: PartnerId
    purchase_orders: int
    late_acknowledgements: int
    rejected_documents: int
    unacknowledged_orders: int
    fill_rate: float


@service.tool(intent="show the partner's scorecard", example=first_example(Partner, "partner_id"))
def partner_scorecard(ctx: Ctx, partner_id: PartnerId) -> Scorecard:
    """A partner's POs, late 855s, documents its 997s rejected, POs still without an 855, and fill rate.

    Args:
        partner_id: The partner.
    """
    p = ctx.get(Partner, partner_id, field="partner_id")
    pos = ctx.where(PurchaseOrder, partner_id=p.id)
    txs = ctx.where(Transaction, partner_id=p.id)
    ordered = sum(x.quantity for po in pos if po.status != "rejected" for x in po.lines)
    shipped = sum(x.shipped for po in pos for x in po.lines)
    return Scorecard(
        partner_id=p.id,
        purchase_orders=len(pos),
        late_acknowledgements=sum(t.late for t in txs if t.doc_type == "855"),
        rejected_documents=sum(t.status in ("rejected", "resent") for t in txs),
        unacknowledged_orders=sum(po.status == "new" for po in pos),
        fill_rate=round(shipped / ordered, 3) if ordered else 0.0,
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Retail partners from the world's companies, the catalogue's products, POs in every state with their documents."""
    pop = s.population
    items = [
        s.create(
            CatalogItem,
            sku=p.sku,
            upc=f"{840000000000 + 7919 * k:012d}",
            name=p.name,
            unit_price=max(100, p.cost_cents),
        )
        for k, p in enumerate(pop.products[:10])
    ]
    partners_made: list[Partner] = []
    for k, c in enumerate(pop.customers[:4]):
        contact = pop.first_contact(c)
        tag = "".join(ch for ch in c.name.upper() if ch.isalnum())[:12] or f"TP{k}"
        partners_made.append(
            s.create(
                Partner,
                name=c.name,
                isa_id=f"ZZ:{tag}{k}",
                contact_email=contact.email if contact else None,
                status=("live", "live", "testing", "paused")[k],
                requires_855=k != 1,
                ack_within_hours=(24, 48, 24, 24)[k],
                created_at=s.ago(days=300 - 40 * k),
            )
        )
    counter = [100000]

    def tx(p: Partner, doc: DocType, direction: str, po: PurchaseOrder, ref: str, status: TxStatus, **x: Any) -> None:
        counter[0] += 1
        s.create(
            Transaction,
            partner_id=p.id,
            doc_type=doc,
            direction=direction,
            control_number=counter[0],
            po_number=po.po_number,
            reference_id=ref,
            status=status,
            created_at=po.received_at,
            **x,
        )

    plan: tuple[PoStatus, ...] = ("new", "new", "acknowledged", "partially_shipped", "shipped", "invoiced", "rejected")
    for n, status in enumerate(plan):
        p = partners_made[n % 2]
        picks = [items[(n + j) % len(items)] for j in range(2)]
        qty = [12 * (1 + (n + j) % 3) for j in range(2)]
        shipped = (
            [0, 0]
            if status in ("new", "acknowledged", "rejected")
            else qty
            if status != "partially_shipped"
            else [qty[0], 0]
        )
        lines = tuple(
            PoLine(
                sku=it.sku,
                quantity=q,
                unit_price=it.unit_price,
                shipped=sh,
                invoiced=sh if status == "invoiced" else 0,
            )
            for it, q, sh in zip(picks, qty, shipped, strict=True)
        )
        po = s.create(
            PurchaseOrder,
            partner_id=p.id,
            po_number=f"{4500000 + 37 * n}",
            po_date=(s.now - dt.timedelta(days=10 - n)).date(),
            ship_by=(s.now + dt.timedelta(days=n)).date(),
            ship_to_store=f"DC-{n % 3 + 1:02d}",
            lines=lines,
            status=status,
            received_at=s.ago(days=10 - n) if n else s.ago(hours=60),
            acknowledged_at=None if status == "new" else s.ago(days=9 - n),
        )
        tx(p, "850", "inbound", po, po.id, "received")
        tx(p, "997", "outbound", po, po.id, "sent")
        if status != "new":
            tx(p, "855", "outbound", po, po.id, "accepted", late=n == 3)
        if any(shipped):
            asn = s.create(
                ShipNotice,
                purchase_order_id=po.id,
                carrier_scac="FDEG",
                tracking_number=f"7946{n:02d}{s.rng.randint(10**7, 10**8 - 1)}",
                ship_date=(s.now - dt.timedelta(days=2)).date(),
                lines=tuple(ShipLine(sku=x.sku, quantity=x.shipped) for x in lines if x.shipped),
            )
            tx(
                p,
                "856",
                "outbound",
                po,
                asn.id,
                "rejected" if n == 4 else "accepted",
                errors=(
                    (SegmentError(segment="TD5", code="7", message="Carrier SCAC not on routing guide"),)
                    if n == 4
                    else ()
                ),
            )
        if status == "invoiced":
            inv = s.create(
                Invoice,
                invoice_number=f"INV-{4500000 + 37 * n}",
                purchase_order_id=po.id,
                lines=tuple(ShipLine(sku=x.sku, quantity=x.invoiced) for x in lines),
                total=sum(x.unit_price * x.invoiced for x in lines),
            )
            tx(p, "810", "outbound", po, inv.id, "sent")
