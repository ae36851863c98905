"""Sourcewell Procure: suppliers, catalog items, requisitions with approval chains, POs, receipts, supplier invoices.

Modeled on the Coupa Core API (Supplier, Item, Requisition with approvals,
PurchaseOrder, Receiving Transaction, Invoice with three-way match): purchase
orders are issued only from approved requisitions, requisitions above the
second-approval threshold need two distinct approvers, goods received cannot
exceed the ordered quantity, a supplier invoice is approved for payment only
when the PO, the receipts and the invoice agree, and inactive suppliers are
refused everywhere.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Domain,
    Email,
    IdOf,
    InvoiceNumber,
    OrderNumber,
    Quantity,
    Sku,
    Text,
    Title,
)
from compoworld.services.finance._shared import term_days
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "procurement",
    title="Sourcewell Procure",
    category="procurement",
    modeled_on="Coupa Core API (Supplier, Item, Requisition, Approval, PurchaseOrder, ReceivingTransaction, Invoice)",
    description="Procure-to-pay: the suppliers the company buys from, their catalog items, requisitions and "
    "their approval chain, purchase orders, goods receipts and supplier invoices checked by three-way match.",
)

SupplierId = Annotated[str, IdOf("procurement.supplier")]
ItemId = Annotated[str, IdOf("procurement.item")]
RequisitionId = Annotated[str, IdOf("procurement.requisition")]
ApprovalId = Annotated[str, IdOf("procurement.approval")]
PurchaseOrderId = Annotated[str, IdOf("procurement.purchase_order")]
ReceiptId = Annotated[str, IdOf("procurement.receipt")]
InvoiceId = Annotated[str, IdOf("procurement.supplier_invoice")]

SECOND_APPROVAL_OVER = 10_000_00
"""Requisitions whose total exceeds this (cents) need a second, distinct approver."""


class Supplier(Record):
    """A company the home company buys from."""

    id: SupplierId
    number: Annotated[str, Generated("sequence", "SUP-{n:04d}")]
    """Supplier number."""
    name: CompanyName
    """Legal name."""
    domain: Domain
    """The supplier's web domain."""
    contact_email: Email
    """E-mail of the supplier's sales or billing contact."""
    status: Literal["active", "inactive"] = "active"
    """Inactive suppliers get no requisitions, orders or invoices approved."""
    payment_terms: Literal["net_15", "net_30", "net_45", "net_60"] = "net_30"
    """Payment terms of the supplier's invoices."""
    currency: Currency
    """Currency the supplier invoices in."""
    remit_to_account: AccountNumber | None = None
    """Bank account payments go to."""
    created_at: Annotated[DateTime, CREATED]
    """When the supplier was added."""


class Item(Record):
    """A catalog item bought from one supplier at a contract price."""

    id: ItemId
    sku: Sku
    """The product's SKU."""
    name: Title
    """Item name."""
    supplier_id: SupplierId
    """The supplier that sells it."""
    unit_price: Cents
    """Contract price per unit in cents."""
    active: bool = True
    """Inactive items cannot be requested."""


class Line(Value):
    """One line of a requisition, order or invoice."""

    line_num: int = Field(ge=1, description="Position of the line, from 1.")
    sku: Sku = Field(description="SKU of the item.")
    description: Text = Field(description="Item name.")
    quantity: Quantity = Field(description="Number of units.")
    unit_price: Cents = Field(description="Price per unit in cents.")
    amount: Cents = Field(description="quantity × unit_price in cents.")


class LineInput(Value):
    """A catalog item and a quantity to request."""

    item_id: ItemId = Field(description="The catalog item (active, all lines from one supplier).")
    quantity: Annotated[int, Field(ge=1, le=100_000)] = Field(default=1, description="Units wanted, at least 1.")


class InvoiceLineInput(Value):
    """A line as printed on a supplier's invoice."""

    sku: Sku = Field(description="SKU billed.")
    quantity: Annotated[int, Field(ge=1, le=100_000)] = Field(description="Units billed.")
    unit_price: Cents = Field(description="Price per unit billed, in cents.")


class Requisition(Record):
    """An employee's request to buy, routed through the approval chain."""

    id: RequisitionId
    number: Annotated[str, Generated("sequence", "REQ-{n:05d}")]
    """Requisition number."""
    title: Title
    """What is being bought and why."""
    requester_email: Email
    """E-mail of the requesting employee."""
    supplier_id: SupplierId
    """The supplier of every line."""
    lines: list[Line] = Field(min_length=1, max_length=50)
    """Requested lines."""
    total: Cents
    """Sum of the lines in cents."""
    currency: Currency
    """Currency of the amounts."""
    need_by: Date | None = None
    """When the goods are needed."""
    status: Literal["draft", "pending_approval", "approved", "rejected", "ordered"] = "draft"
    """Status; approved requisitions can be ordered once."""
    approvals_required: int = Field(default=1, ge=1, le=2)
    """How many distinct approvals it needs (2 above the threshold)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Approval(Record):
    """One approver's decision on a requisition."""

    id: ApprovalId
    requisition_id: RequisitionId
    """The requisition decided."""
    approver_email: Email
    """E-mail of the approver."""
    step: int = Field(ge=1, le=2)
    """Position in the approval chain."""
    decision: Literal["approved", "rejected"]
    """The decision."""
    comment: Text = ""
    """The approver's comment."""
    decided_at: Annotated[DateTime, CREATED]
    """When it was decided."""


class PurchaseOrder(Record):
    """A purchase order issued to a supplier from an approved requisition."""

    id: PurchaseOrderId
    po_number: Annotated[OrderNumber, Generated("sequence", "PO-{n:05d}")]
    """Purchase order number the supplier quotes."""
    requisition_id: RequisitionId
    """The requisition it came from."""
    supplier_id: SupplierId
    """The supplier."""
    lines: list[Line] = Field(min_length=1)
    """Ordered lines."""
    total: Cents
    """Order total in cents."""
    currency: Currency
    """Currency of the amounts."""
    status: Literal["issued", "cancelled", "closed"] = "issued"
    """Issued orders take receipts and invoices; cancelled and closed ones are final."""
    created_at: Annotated[DateTime, CREATED]
    """When the order was issued."""


class Receipt(Record):
    """Goods received against one line of a purchase order."""

    id: ReceiptId
    purchase_order_id: PurchaseOrderId
    """The order received against."""
    sku: Sku
    """SKU received."""
    quantity: Quantity
    """Units received."""
    received_by_email: Email
    """E-mail of the employee who received the goods."""
    received_at: Annotated[DateTime, CREATED]
    """When the goods arrived."""


class SupplierInvoice(Record):
    """An invoice a supplier sent against a purchase order."""

    id: InvoiceId
    invoice_number: InvoiceNumber
    """The supplier's invoice number."""
    supplier_id: SupplierId
    """The supplier that billed."""
    purchase_order_id: PurchaseOrderId
    """The purchase order billed."""
    lines: list[Line] = Field(min_length=1)
    """Billed lines."""
    total: Cents
    """Invoice total in cents."""
    currency: Currency
    """Currency of the amounts."""
    invoice_date: Date
    """Date on the invoice."""
    due_date: Date
    """When payment is due (the supplier's terms)."""
    status: Literal["pending", "approved", "disputed", "paid"] = "pending"
    """pending until matched; approved for payment after a three-way match; paid is final."""
    dispute_reason: Text | None = None
    """Why the invoice was disputed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was entered."""


def _active_supplier(ctx: Ctx, supplier_id: str, field: str) -> Supplier:
    sup = ctx.get(Supplier, supplier_id, field=field)
    if sup.status != "active":
        raise RuleViolation(
            f"supplier {sup.name} ({sup.number}) is inactive",
            field=field,
            hint="pick an active supplier or reactivate this one with procurement__activate_supplier",
        )
    return sup


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _active_supplier(ctx, new.supplier_id, "supplier_id")
    for other in ctx.where(Item, sku=new.sku, supplier_id=new.supplier_id):
        if other.id != new.id:
            raise Conflict(
                f"supplier already sells {new.sku} as item {other.id}",
                field="sku",
                hint="update the existing item's price instead",
            )


def _guard_supplier_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for model in (Requisition, PurchaseOrder, SupplierInvoice, Item):
        if ctx.first(model, supplier_id=old.id) is not None:
            raise RuleViolation(
                f"supplier {old.number} has {model.__name__} records and cannot be deleted",
                field="supplier_id",
                hint="deactivate the supplier instead with procurement__deactivate_supplier",
            )


suppliers = service.resource(
    Supplier,
    name="supplier",
    plural="suppliers",
    prefix="sup",
    create=("name", "domain", "contact_email", "payment_terms", "currency", "remit_to_account"),
    filters=("status", "domain", "number", "payment_terms"),
    search=("name", "domain", "number"),
    update=("name", "contact_email", "payment_terms", "remit_to_account"),
    transitions={
        "deactivate": Transition("status", ("active",), "inactive", "stop buying from the supplier"),
        "activate": Transition("status", ("inactive",), "active", "reactivate the supplier"),
    },
    unique=("domain",),
    guard_delete=_guard_supplier_delete,
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("sku", "name", "supplier_id", "unit_price"),
    filters=("sku", "supplier_id", "active"),
    search=("name", "sku"),
    update=("name", "unit_price", "active"),
    delete=False,
    guard_create=_guard_item,
    guard_update=_guard_item,
)
requisitions = service.resource(
    Requisition,
    name="requisition",
    plural="requisitions",
    prefix="rq",
    create=False,
    filters=("status", "requester_email", "supplier_id", "number"),
    search=("title", "number"),
    delete=False,
)
approvals = service.resource(
    Approval,
    name="approval",
    plural="approvals",
    prefix="apr",
    create=False,
    get=False,
    filters=("requisition_id", "approver_email", "decision"),
    delete=False,
)
purchase_orders = service.resource(
    PurchaseOrder,
    name="purchase_order",
    plural="purchase_orders",
    prefix="po",
    create=False,
    filters=("status", "supplier_id", "requisition_id", "po_number"),
    search=("po_number",),
    delete=False,
    title="purchase order",
)
receipts = service.resource(
    Receipt,
    name="receipt",
    plural="receipts",
    prefix="rcv",
    create=False,
    filters=("purchase_order_id", "sku", "received_by_email"),
    delete=False,
)
supplier_invoices = service.resource(
    SupplierInvoice,
    name="supplier_invoice",
    plural="supplier_invoices",
    prefix="sinv",
    create=False,
    filters=("status", "supplier_id", "purchase_order_id", "invoice_number"),
    search=("invoice_number",),
    delete=False,
    title="supplier invoice",
)


# -- helpers ----------------------------------------------------------------------------------


def _received(ctx: Ctx, po_id: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in ctx.where(Receipt, purchase_order_id=po_id):
        out[r.sku] = out.get(r.sku, 0) + r.quantity
    return out


def _billed(ctx: Ctx, po_id: str, exclude: str | None = None) -> dict[str, int]:
    out: dict[str, int] = {}
    for inv in ctx.where(SupplierInvoice, purchase_order_id=po_id):
        if inv.id == exclude or inv.status == "disputed":
            continue
        for line in inv.lines:
            out[line.sku] = out.get(line.sku, 0) + line.quantity
    return out


class MatchLine(BaseModel):
    """The three-way match of one SKU."""

    sku: Sku = Field(description="The SKU.")
    ordered: int = Field(description="Units on the purchase order.")
    received: int = Field(description="Units received so far.")
    invoiced: int = Field(description="Units on this invoice.")
    previously_invoiced: int = Field(description="Units on the order's other approved or paid invoices.")
    po_unit_price: Cents = Field(description="Unit price on the order in cents.")
    invoice_unit_price: Cents = Field(description="Unit price on the invoice in cents.")
    problems: list[str] = Field(description="Why this line does not match; empty when it does.")


class MatchResult(BaseModel):
    """The three-way match of a supplier invoice against its PO and receipts."""

    invoice_id: InvoiceId = Field(description="The supplier invoice.")
    purchase_order_id: PurchaseOrderId = Field(description="Its purchase order.")
    matched: bool = Field(description="Whether every line matches and the totals agree.")
    invoice_total: Cents = Field(description="Invoice total in cents.")
    po_total: Cents = Field(description="Purchase order total in cents.")
    lines: list[MatchLine] = Field(description="Per-SKU comparison.")
    problems: list[str] = Field(description="Every reason the match fails.")


def _match(ctx: Ctx, inv: SupplierInvoice) -> MatchResult:
    po = ctx.get(PurchaseOrder, inv.purchase_order_id)
    received = _received(ctx, po.id)
    before = _billed(ctx, po.id, exclude=inv.id)
    ordered = {line.sku: line for line in po.lines}
    rows: list[MatchLine] = []
    problems: list[str] = []
    for line in inv.lines:
        pol = ordered.get(line.sku)
        issues: list[str] = []
        if pol is None:
            issues.append(f"{line.sku} is not on {po.po_number}")
        else:
            if line.unit_price != pol.unit_price:
                issues.append(f"billed at {line.unit_price}, ordered at {pol.unit_price}")
            if before.get(line.sku, 0) + line.quantity > received.get(line.sku, 0):
                issues.append(
                    f"billed {line.quantity} (+{before.get(line.sku, 0)} before) but only "
                    f"{received.get(line.sku, 0)} received"
                )
            if before.get(line.sku, 0) + line.quantity > pol.quantity:
                issues.append(f"billed more than the {pol.quantity} ordered")
        rows.append(
            MatchLine(
                sku=line.sku,
                ordered=pol.quantity if pol else 0,
                received=received.get(line.sku, 0),
                invoiced=line.quantity,
                previously_invoiced=before.get(line.sku, 0),
                po_unit_price=pol.unit_price if pol else 0,
                invoice_unit_price=line.unit_price,
                problems=issues,
            )
        )
        problems.extend(f"{line.sku}: {p}" for p in issues)
    if inv.total != sum(line.amount for line in inv.lines):
        problems.append("the invoice total is not the sum of its lines")
    if inv.currency != po.currency:
        problems.append(f"invoice currency {inv.currency} differs from the order's {po.currency}")
    return MatchResult(
        invoice_id=inv.id,
        purchase_order_id=po.id,
        matched=not problems,
        invoice_total=inv.total,
        po_total=po.total,
        lines=rows,
        problems=problems,
    )


def _employee_emails(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _check_employee(ctx: Ctx, email: str, field: str) -> None:
    if email not in _employee_emails(ctx):
        raise RuleViolation(
            f"{email} is not an employee of {ctx.population.home.name}",
            field=field,
            hint="use the work e-mail of an employee",
        )


# -- examples ---------------------------------------------------------------------------------


def _example_create_req(ctx: Ctx) -> dict[str, Any] | None:
    for sup in ctx.where(Supplier, status="active"):
        item = ctx.first(Item, supplier_id=sup.id, active=True)
        if item is not None:
            return {
                "title": "Restock for the office",
                "requester_email": ctx.population.employees[0].email,
                "lines": [{"item_id": item.id, "quantity": 2}],
            }
    return None


def _example_req(status: str) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for req in ctx.where(Requisition, status=status):
            if ctx.get(Supplier, req.supplier_id).status == "active":
                return {"requisition_id": req.id}
        return None

    return example


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(Requisition, status="pending_approval"):
        done = {a.approver_email for a in ctx.where(Approval, requisition_id=req.id)}
        for p in ctx.population.employees:
            if p.email != req.requester_email and p.email not in done:
                return {"requisition_id": req.id, "approver_email": p.email, "comment": "OK"}
    return None


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    for po in ctx.where(PurchaseOrder, status="issued"):
        got = _received(ctx, po.id)
        for line in po.lines:
            if got.get(line.sku, 0) < line.quantity:
                return {
                    "purchase_order_id": po.id,
                    "sku": line.sku,
                    "quantity": 1,
                    "received_by_email": ctx.population.employees[0].email,
                }
    return None


def _example_invoice(ctx: Ctx) -> dict[str, Any] | None:
    for po in ctx.where(PurchaseOrder, status="issued"):
        got = _received(ctx, po.id)
        billed = _billed(ctx, po.id)
        prices = {line.sku: line.unit_price for line in po.lines}
        for sku, qty in got.items():
            if qty > billed.get(sku, 0):
                return {
                    "purchase_order_id": po.id,
                    "invoice_number": f"INV-X{po.po_number[3:]}-{len(billed) + 1}",
                    "invoice_date": ctx.today().isoformat(),
                    "lines": [{"sku": sku, "quantity": qty - billed.get(sku, 0), "unit_price": prices[sku]}],
                }
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="request to buy catalog items", write=True, example=_example_create_req)
def create_requisition(
    ctx: Ctx,
    title: Title,
    requester_email: Email,
    lines: Annotated[list[LineInput], Field(min_length=1, max_length=50)],
    need_by: Date | None = None,
) -> Requisition:
    """Create a draft requisition for catalog items, all from one active supplier.

    Prices come from the catalog; a total above the second-approval threshold
    (10,000.00) makes the requisition need two distinct approvers.

    Args:
        title: What is being bought and why.
        requester_email: E-mail of the requesting employee.
        lines: Items and quantities.
        need_by: When the goods are needed.
    """
    _check_employee(ctx, requester_email, "requester_email")
    built: list[Line] = []
    supplier: Supplier | None = None
    for n, li in enumerate(lines):
        item = ctx.get(Item, li.item_id, field=f"lines.{n}.item_id")
        if not item.active:
            raise RuleViolation(
                f"item {item.sku} is inactive", field=f"lines.{n}.item_id", hint="request an active catalog item"
            )
        if supplier is None:
            supplier = _active_supplier(ctx, item.supplier_id, f"lines.{n}.item_id")
        elif item.supplier_id != supplier.id:
            raise RuleViolation(
                "all lines of a requisition must come from one supplier",
                field=f"lines.{n}.item_id",
                hint="split the request into one requisition per supplier",
            )
        built.append(
            Line(
                line_num=n + 1,
                sku=item.sku,
                description=item.name,
                quantity=li.quantity,
                unit_price=item.unit_price,
                amount=li.quantity * item.unit_price,
            )
        )
    assert supplier is not None
    total = sum(line.amount for line in built)
    return ctx.create(
        Requisition,
        title=title,
        requester_email=requester_email,
        supplier_id=supplier.id,
        lines=built,
        total=total,
        currency=supplier.currency,
        need_by=need_by,
        approvals_required=2 if total > SECOND_APPROVAL_OVER else 1,
    )


@service.tool(intent="send the requisition for approval", write=True, example=_example_req("draft"))
def submit_requisition(ctx: Ctx, requisition_id: RequisitionId) -> Requisition:
    """Send a draft (or rejected, revised) requisition into the approval chain.

    Args:
        requisition_id: The requisition.
    """
    req = ctx.get(Requisition, requisition_id, field="requisition_id")
    if req.status not in ("draft", "rejected"):
        raise RuleViolation(
            f"requisition {req.number} is {req.status}",
            field="requisition_id",
            hint="only draft or rejected requisitions can be submitted",
        )
    _active_supplier(ctx, req.supplier_id, "requisition_id")
    for a in ctx.where(Approval, requisition_id=req.id):
        ctx.delete(a)  # a resubmitted requisition starts the chain again
    return ctx.update(req, status="pending_approval")


def _pending(ctx: Ctx, requisition_id: str, approver_email: str) -> tuple[Requisition, list[Approval]]:
    req = ctx.get(Requisition, requisition_id, field="requisition_id")
    if req.status != "pending_approval":
        raise RuleViolation(
            f"requisition {req.number} is {req.status}, not pending approval",
            field="requisition_id",
            hint="submit it with procurement__submit_requisition first",
        )
    _check_employee(ctx, approver_email, "approver_email")
    if approver_email == req.requester_email:
        raise RuleViolation(
            "a requester cannot approve their own requisition",
            field="approver_email",
            hint="ask another employee (e.g. the requester's manager) to approve",
        )
    done = ctx.where(Approval, requisition_id=req.id)
    if any(a.approver_email == approver_email for a in done):
        raise Conflict(
            f"{approver_email} already approved requisition {req.number}",
            field="approver_email",
            hint="the second approval must come from a different approver",
        )
    return req, done


@service.tool(intent="approve the requisition", write=True, example=_example_approve)
def approve_requisition(
    ctx: Ctx, requisition_id: RequisitionId, approver_email: Email, comment: Text = ""
) -> Requisition:
    """Record an approval; the requisition is approved once it has all the approvals it needs.

    Requisitions above the threshold need two approvals from distinct
    approvers; requesters cannot approve their own.

    Args:
        requisition_id: The pending requisition.
        approver_email: E-mail of the approving employee.
        comment: Optional comment.
    """
    req, done = _pending(ctx, requisition_id, approver_email)
    ctx.create(
        Approval,
        requisition_id=req.id,
        approver_email=approver_email,
        step=len(done) + 1,
        decision="approved",
        comment=comment,
    )
    if len(done) + 1 >= req.approvals_required:
        return ctx.update(req, status="approved")
    return ctx.update(req, status="pending_approval")


@service.tool(intent="reject the requisition", write=True, example=_example_approve)
def reject_requisition(ctx: Ctx, requisition_id: RequisitionId, approver_email: Email, comment: Text) -> Requisition:
    """Reject a pending requisition; the requester may revise and resubmit it.

    Args:
        requisition_id: The pending requisition.
        approver_email: E-mail of the rejecting approver.
        comment: Why it is rejected.
    """
    req, done = _pending(ctx, requisition_id, approver_email)
    if not comment.strip():
        raise RuleViolation("a rejection needs a comment", field="comment", hint="say why it is rejected")
    ctx.create(
        Approval,
        requisition_id=req.id,
        approver_email=approver_email,
        step=len(done) + 1,
        decision="rejected",
        comment=comment.strip(),
    )
    return ctx.update(req, status="rejected")


@service.tool(intent="issue a purchase order for the requisition", write=True, example=_example_req("approved"))
def create_purchase_order(ctx: Ctx, requisition_id: RequisitionId) -> PurchaseOrder:
    """Issue a purchase order to the supplier from an approved requisition (once per requisition).

    Args:
        requisition_id: The approved requisition.
    """
    req = ctx.get(Requisition, requisition_id, field="requisition_id")
    if req.status != "approved":
        raise RuleViolation(
            f"requisition {req.number} is {req.status}; purchase orders come only from approved requisitions",
            field="requisition_id",
            hint="get the requisition approved first"
            if req.status != "ordered"
            else "it was already ordered; see procurement__list_purchase_orders",
        )
    sup = _active_supplier(ctx, req.supplier_id, "requisition_id")
    ctx.update(req, status="ordered")
    return ctx.create(
        PurchaseOrder,
        requisition_id=req.id,
        supplier_id=sup.id,
        lines=req.lines,
        total=req.total,
        currency=req.currency,
    )


@service.tool(
    intent="cancel the purchase order",
    write=True,
    destructive=True,
    example=first_example(
        PurchaseOrder, "purchase_order_id", where={"status": "issued"}, match=lambda ctx, po: not _received(ctx, po.id)
    ),
)
def cancel_purchase_order(ctx: Ctx, purchase_order_id: PurchaseOrderId) -> PurchaseOrder:
    """Cancel an issued purchase order on which nothing has been received or invoiced.

    Args:
        purchase_order_id: The purchase order.
    """
    po = ctx.get(PurchaseOrder, purchase_order_id, field="purchase_order_id")
    if po.status != "issued":
        raise RuleViolation(
            f"purchase order {po.po_number} is {po.status}", field="purchase_order_id", hint="it is already final"
        )
    if _received(ctx, po.id) or ctx.first(SupplierInvoice, purchase_order_id=po.id) is not None:
        raise RuleViolation(
            f"goods were received or invoiced on {po.po_number}; it cannot be cancelled",
            field="purchase_order_id",
            hint="receive the rest and close it, or dispute the invoice",
        )
    return ctx.update(po, status="cancelled")


@service.tool(intent="record goods received on the purchase order", write=True, example=_example_receive)
def receive_goods(
    ctx: Ctx,
    purchase_order_id: PurchaseOrderId,
    sku: Sku,
    quantity: Annotated[int, Field(ge=1, le=100_000)],
    received_by_email: Email,
) -> Receipt:
    """Record units of one ordered SKU received; the total received cannot exceed the ordered quantity.

    Args:
        purchase_order_id: The issued purchase order.
        sku: SKU received (a line of the order).
        quantity: Units received now.
        received_by_email: E-mail of the receiving employee.
    """
    po = ctx.get(PurchaseOrder, purchase_order_id, field="purchase_order_id")
    if po.status != "issued":
        raise RuleViolation(
            f"purchase order {po.po_number} is {po.status}",
            field="purchase_order_id",
            hint="goods are received only on issued orders",
        )
    line = next((ln for ln in po.lines if ln.sku == sku), None)
    if line is None:
        raise RuleViolation(
            f"{sku} is not on purchase order {po.po_number}",
            field="sku",
            hint=f"receive one of: {', '.join(ln.sku for ln in po.lines)}",
        )
    _check_employee(ctx, received_by_email, "received_by_email")
    already = _received(ctx, po.id).get(sku, 0)
    if already + quantity > line.quantity:
        raise RuleViolation(
            f"{already} of {line.quantity} units of {sku} are already received; {quantity} more is too many",
            field="quantity",
            hint=f"receive at most {line.quantity - already} units; return the surplus to the supplier",
        )
    return ctx.create(Receipt, purchase_order_id=po.id, sku=sku, quantity=quantity, received_by_email=received_by_email)


@service.tool(intent="enter the supplier's invoice", write=True, example=_example_invoice)
def create_supplier_invoice(
    ctx: Ctx,
    purchase_order_id: PurchaseOrderId,
    invoice_number: InvoiceNumber,
    invoice_date: Date,
    lines: Annotated[list[InvoiceLineInput], Field(min_length=1, max_length=50)],
) -> SupplierInvoice:
    """Enter an invoice the PO's supplier sent; it is pending until approved by three-way match.

    The supplier must be active and its invoice numbers unique.

    Args:
        purchase_order_id: The purchase order billed.
        invoice_number: The supplier's invoice number.
        invoice_date: Date on the invoice.
        lines: Billed lines as printed.
    """
    po = ctx.get(PurchaseOrder, purchase_order_id, field="purchase_order_id")
    if po.status == "cancelled":
        raise RuleViolation(
            f"purchase order {po.po_number} is cancelled", field="purchase_order_id", hint="nothing can be billed"
        )
    sup = _active_supplier(ctx, po.supplier_id, "purchase_order_id")
    for other in ctx.where(SupplierInvoice, supplier_id=sup.id, invoice_number=invoice_number):
        raise Conflict(
            f"{sup.name} already has invoice {invoice_number} ({other.id})",
            field="invoice_number",
            hint="this invoice was entered already; check it with procurement__get_supplier_invoice",
        )
    built = [
        Line(
            line_num=n + 1,
            sku=li.sku,
            description=next((ln.description for ln in po.lines if ln.sku == li.sku), li.sku),
            quantity=li.quantity,
            unit_price=li.unit_price,
            amount=li.quantity * li.unit_price,
        )
        for n, li in enumerate(lines)
    ]
    days = term_days(sup.payment_terms)
    return ctx.create(
        SupplierInvoice,
        invoice_number=invoice_number,
        supplier_id=sup.id,
        purchase_order_id=po.id,
        lines=built,
        total=sum(line.amount for line in built),
        currency=po.currency,
        invoice_date=invoice_date,
        due_date=invoice_date + dt.timedelta(days=days),
    )


@service.tool(intent="check the invoice against its purchase order and receipts")
def three_way_match(ctx: Ctx, invoice_id: InvoiceId) -> MatchResult:
    """Compare a supplier invoice with its purchase order and the goods received, line by line.

    Args:
        invoice_id: The supplier invoice.
    """
    return _match(ctx, ctx.get(SupplierInvoice, invoice_id, field="invoice_id"))


@service.tool(
    intent="approve the supplier invoice for payment",
    write=True,
    example=first_example(
        SupplierInvoice, "invoice_id", where={"status": "pending"}, match=lambda ctx, inv: _match(ctx, inv).matched
    ),
)
def approve_invoice_for_payment(ctx: Ctx, invoice_id: InvoiceId) -> SupplierInvoice:
    """Approve a pending supplier invoice for payment; it must pass the three-way match.

    Every billed SKU must be on the order at the ordered unit price and
    billed units (with earlier invoices) must not exceed the units received.
    When the order is fully received and billed it closes.

    Args:
        invoice_id: The pending supplier invoice.
    """
    inv = ctx.get(SupplierInvoice, invoice_id, field="invoice_id")
    if inv.status != "pending":
        raise RuleViolation(
            f"invoice {inv.invoice_number} is {inv.status}",
            field="invoice_id",
            hint="only pending invoices are approved",
        )
    _active_supplier(ctx, inv.supplier_id, "invoice_id")
    match = _match(ctx, inv)
    if not match.matched:
        raise RuleViolation(
            f"invoice {inv.invoice_number} fails the three-way match: {'; '.join(match.problems)}",
            field="invoice_id",
            hint="receive the missing goods, or dispute the invoice with procurement__dispute_supplier_invoice",
        )
    inv = ctx.update(inv, status="approved")
    po = ctx.get(PurchaseOrder, inv.purchase_order_id)
    got, billed = _received(ctx, po.id), _billed(ctx, po.id)
    if all(got.get(ln.sku, 0) >= ln.quantity and billed.get(ln.sku, 0) >= ln.quantity for ln in po.lines):
        ctx.update(po, status="closed")
    return inv


@service.tool(
    intent="dispute the supplier invoice",
    write=True,
    example=first_example(
        SupplierInvoice, "invoice_id", where={"status": "pending"}, reason="Billed units not yet received"
    ),
)
def dispute_supplier_invoice(ctx: Ctx, invoice_id: InvoiceId, reason: Text) -> SupplierInvoice:
    """Dispute a pending supplier invoice, e.g. when it fails the three-way match.

    Args:
        invoice_id: The pending supplier invoice.
        reason: What is wrong with it.
    """
    inv = ctx.get(SupplierInvoice, invoice_id, field="invoice_id")
    if inv.status != "pending":
        raise RuleViolation(
            f"invoice {inv.invoice_number} is {inv.status}",
            field="invoice_id",
            hint="only pending invoices are disputed",
        )
    if not reason.strip():
        raise RuleViolation("a dispute needs a reason", field="reason", hint="say what is wrong with the invoice")
    return ctx.update(inv, status="disputed", dispute_reason=reason.strip())


@service.tool(
    intent="pay the approved supplier invoice",
    write=True,
    destructive=True,
    example=first_example(SupplierInvoice, "invoice_id", where={"status": "approved"}),
)
def pay_supplier_invoice(ctx: Ctx, invoice_id: InvoiceId) -> SupplierInvoice:
    """Mark an approved supplier invoice paid; paid invoices are final.

    Args:
        invoice_id: The approved supplier invoice.
    """
    inv = ctx.get(SupplierInvoice, invoice_id, field="invoice_id")
    if inv.status != "approved":
        raise RuleViolation(
            f"invoice {inv.invoice_number} is {inv.status}; only approved invoices are paid",
            field="invoice_id",
            hint="approve it for payment first (it must pass the three-way match)",
        )
    return ctx.update(inv, status="paid")


# -- seed -------------------------------------------------------------------------------------


REQUISITION_STATUSES = (
    "draft",
    "pending_approval",
    "approved",
    "rejected",
    "ordered",
    "ordered",
    "ordered",
    "pending_approval",
)
"""The status of the k-th seeded requisition, in turn."""


def _seed_suppliers(s: SeedContext) -> list[Supplier]:
    """Two thirds of the customer companies as suppliers, then a few still being onboarded; returns the former."""
    pop = s.population
    cur = pop.home.place.currency
    sups: list[Supplier] = []
    companies = [(c, p) for c in pop.customers if (p := pop.first_contact(c)) is not None]
    for i, (company, contact) in enumerate(companies[: max(4, len(companies) * 2 // 3)]):
        sups.append(
            s.create(
                Supplier,
                name=company.name,
                domain=company.domain,
                contact_email=contact.email,
                status="inactive" if i % 7 == 6 else "active",
                payment_terms=("net_30", "net_45", "net_15", "net_60")[i % 4],
                currency=cur,
                remit_to_account=f"ACCT-{company.key.upper()}-{1000 + i}",
            )
        )
    # Suppliers still being onboarded: no catalog yet, so nothing refers to them.
    rest = companies[max(4, len(companies) * 2 // 3) :]
    for i, (company, contact) in enumerate(rest[:3]):
        s.create(
            Supplier,
            name=company.name,
            domain=company.domain,
            contact_email=contact.email,
            payment_terms="net_30",
            currency=cur,
            remit_to_account=None if i else f"ACCT-{company.key.upper()}-9000",
        )
    return sups


def _seed_items(s: SeedContext, sups: list[Supplier]) -> dict[str, list[Item]]:
    """Every product in the catalogs of two suppliers; returns the items by supplier id."""
    items_of: dict[str, list[Item]] = {}
    for j, product in enumerate(s.population.products):
        for sup in (sups[j % len(sups)], sups[(j + 3) % len(sups)]):
            if any(it.sku == product.sku for it in items_of.get(sup.id, [])):
                continue
            items_of.setdefault(sup.id, []).append(
                s.create(
                    Item,
                    sku=product.sku,
                    name=product.name,
                    supplier_id=sup.id,
                    unit_price=product.cost_cents,
                    active=j % 11 != 10,
                )
            )
    return items_of


def _seed_requisition(s: SeedContext, k: int, sup: Supplier, items: list[Item], status: str) -> Requisition:
    """The k-th requisition, from ``sup``'s catalog, with the approvals its status implies."""
    staff = list(s.population.employees)
    catalog = [it for it in items if it.active] or items
    picked = catalog[: 1 + k % min(3, len(catalog))]
    qty_base = 40 if k % 5 == 4 else 2  # every fifth is a large order needing two approvals
    lines = [
        Line(
            line_num=n + 1,
            sku=it.sku,
            description=it.name,
            quantity=qty_base + n,
            unit_price=it.unit_price,
            amount=(qty_base + n) * it.unit_price,
        )
        for n, it in enumerate(picked)
    ]
    total = sum(ln.amount for ln in lines)
    need = 2 if total > SECOND_APPROVAL_OVER else 1
    requester = staff[(k * 5) % len(staff)]
    approvers = [p for p in staff if p.email != requester.email]
    req = s.create(
        Requisition,
        title=f"{picked[0].name} for {('the office', 'the warehouse', 'the new team', 'a client project')[k % 4]}",
        requester_email=requester.email,
        supplier_id=sup.id,
        lines=lines,
        total=total,
        currency=s.population.home.place.currency,
        need_by=s.now.date() + dt.timedelta(days=7 + k % 20),
        status=status,
        approvals_required=need,
    )
    n_approvals = {"approved": need, "ordered": need, "rejected": 1}.get(status, 0)
    if status == "pending_approval" and need == 2:
        n_approvals = 1
    for step in range(n_approvals):
        s.create(
            Approval,
            requisition_id=req.id,
            approver_email=approvers[(k + step * 7) % len(approvers)].email,
            step=step + 1,
            decision="rejected" if status == "rejected" else "approved",
            comment="Over budget this quarter" if status == "rejected" else "",
        )
    return req


def _seed_supplier_invoice(s: SeedContext, k: int, sup: Supplier, po: PurchaseOrder, inv_n: int, paid: bool) -> None:
    """The ``inv_n``-th supplier invoice, for a received order; some overbill and fail the three-way match."""
    overbilled = inv_n % 3 == 0
    billed = [
        ln.model_copy(update={"unit_price": ln.unit_price + 500, "amount": ln.quantity * (ln.unit_price + 500)})
        if overbilled and n == 0
        else ln
        for n, ln in enumerate(po.lines)
    ]
    inv_date = s.now.date() - dt.timedelta(days=2 + k % 10)
    inv_status = "pending"
    if not overbilled and paid:
        inv_status = "paid"
    elif not overbilled and inv_n % 4 == 1 and inv_n > 1:
        inv_status = "approved"
    elif overbilled and inv_n % 2 == 0:
        inv_status = "disputed"
    s.create(
        SupplierInvoice,
        invoice_number=f"{sup.number.replace('SUP', 'SI')}-{1000 + inv_n}",
        supplier_id=sup.id,
        purchase_order_id=po.id,
        lines=billed,
        total=sum(ln.amount for ln in billed),
        currency=po.currency,
        invoice_date=inv_date,
        due_date=inv_date + dt.timedelta(days=term_days(sup.payment_terms)),
        status=inv_status,
        dispute_reason="Unit price above the contract price" if inv_status == "disputed" else None,
    )
    if inv_status in ("approved", "paid"):
        s.update(po, status="closed")


def _seed_requisitions(s: SeedContext, sups: list[Supplier], items_of: dict[str, list[Item]]) -> None:
    """Requisitions in every state; the ordered ones go on through orders, receipts, invoices and payment."""
    buyers = s.population.staff("Operations", "Finance")
    active = [sp for sp in sups if sp.status == "active" and items_of.get(sp.id)]
    inv_n = 0
    po_n = 0
    for k in range(max(12, len(active) * 2)):
        sup = active[k % len(active)]
        status = REQUISITION_STATUSES[k % len(REQUISITION_STATUSES)]
        req = _seed_requisition(s, k, sup, items_of[sup.id], status)
        if status != "ordered":
            continue
        po = s.create(
            PurchaseOrder,
            requisition_id=req.id,
            supplier_id=sup.id,
            lines=req.lines,
            total=req.total,
            currency=req.currency,
            status="issued",
        )
        po_n += 1
        phase = po_n % 4  # 0: nothing received; 1: partly received; 2: received + invoice; 3: received, billed, paid
        if phase == 0:
            continue
        receiver = buyers[k % len(buyers)].email
        for ln in req.lines:
            got = ln.quantity if phase >= 2 else max(1, ln.quantity // 2)
            s.create(Receipt, purchase_order_id=po.id, sku=ln.sku, quantity=got, received_by_email=receiver)
        if phase == 1:
            continue
        inv_n += 1
        _seed_supplier_invoice(s, k, sup, po, inv_n, paid=phase == 3)


@service.seeder
def seed(s: SeedContext) -> None:
    """Suppliers from the population's companies, their catalog of products, the procure-to-pay chain."""
    sups = _seed_suppliers(s)
    _seed_requisitions(s, sups, _seed_items(s, sups))
