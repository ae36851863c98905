"""Clearpath Title: title and escrow for real-estate closings.

Modeled on the Qualia Core API (orders with buyers, sellers and lender, the
title commitment with its Schedule B-I requirements and Schedule B-II
exceptions, the escrow ledger of receipts and disbursements, closing documents
and e-recording): an order goes open → clear_to_close → closed (or cancelled);
a commitment is issued once per order and lists requirements that must be
cleared and exceptions that may be removed with a reason; receipts go pending →
cleared and disbursements pending → disbursed (either may be voided while
pending); an order is clear to close only with an issued commitment, no open
requirement, every document signed and a ledger that balances to the cent
(cleared receipts equal to the disbursements); closing pays out every
disbursement, and only a closed order's signed deed or deed of trust can be
recorded, once, with its instrument number. Cancelling needs a zero ledger.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, PostalAddress, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "escrow",
    title="Clearpath Title",
    category="title_escrow",
    modeled_on="Qualia Core API: orders, title commitments (Schedule B-I requirements, B-II exceptions), "
    "escrow ledger receipts and disbursements, closing documents, e-recording",
    description="Title and escrow for home purchases and refinances: closing orders with buyers, sellers and "
    "lender, title commitments with requirements and exceptions, the escrow ledger that must balance, "
    "closing documents and their recording with the county.",
)

OrderId = Annotated[str, IdOf("escrow.order")]
CommitmentId = Annotated[str, IdOf("escrow.commitment")]
ItemId = Annotated[str, IdOf("escrow.item")]
EntryId = Annotated[str, IdOf("escrow.entry")]
DocumentId = Annotated[str, IdOf("escrow.document")]

InstrumentNumber = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{6,9}$")]
"""A county recorder's instrument number, e.g. 2026-0012345."""

OrderStatus = Literal["open", "clear_to_close", "closed", "cancelled"]
TransactionType = Literal["purchase", "refinance"]
ItemKind = Literal["requirement", "exception"]
ItemStatus = Literal["open", "cleared", "removed"]
EntryKind = Literal["receipt", "disbursement"]
EntryStatus = Literal["pending", "cleared", "disbursed", "void"]
DocKind = Literal["deed", "deed_of_trust", "settlement_statement", "owner_affidavit", "payoff_letter"]
DocStatus = Literal["draft", "signed", "recorded"]

RECORDABLE: tuple[DocKind, ...] = ("deed", "deed_of_trust")
STANDARD_ITEMS: tuple[tuple[ItemKind, str], ...] = (
    ("requirement", "Payoff and release of the existing deed of trust"),
    ("requirement", "Warranty deed from the seller to the buyer, duly executed and recorded"),
    ("requirement", "Owner's affidavit as to debts, liens and parties in possession"),
    ("exception", "Easements and rights of way of record"),
    ("exception", "General real estate taxes for the current year, a lien not yet due"),
)


class Order(Record):
    """A title and escrow order for one closing."""

    id: OrderId
    file_number: Annotated[str, Generated("sequence", "CPT-{n:05d}")]
    """The file number."""
    transaction_type: TransactionType
    """purchase or refinance."""
    property_address: PostalAddress
    """The property."""
    buyer_name: PersonName
    """The buyer (or the borrower, for a refinance)."""
    buyer_email: Email
    """The buyer's e-mail."""
    seller_name: PersonName | None = None
    """The seller (none for a refinance)."""
    seller_email: Email | None = None
    """The seller's e-mail."""
    lender_name: CompanyName | None = None
    """The new lender, if financed."""
    purchase_price: Cents = 0
    """Sales price in cents (0 for a refinance)."""
    loan_amount: Cents = 0
    """New loan amount in cents."""
    escrow_officer_email: Email
    """The employee closing the file."""
    closing_date: Date
    """The scheduled closing."""
    status: OrderStatus = "open"
    """open → clear_to_close → closed; or cancelled."""
    closed_at: DateTime | None = None
    """When it closed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Commitment(Record):
    """The title commitment issued for an order."""

    id: CommitmentId
    order_id: OrderId
    """The order."""
    effective_date: Date
    """The date the title search runs to."""
    proposed_insured: PersonName
    """Who the owner's policy will insure."""
    policy_amount: Cents
    """Owner's policy amount in cents."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was issued."""


class Item(Record):
    """A Schedule B-I requirement or a Schedule B-II exception of a commitment."""

    id: ItemId
    commitment_id: CommitmentId
    """The commitment."""
    order_id: OrderId
    """The order."""
    kind: ItemKind
    """requirement (must be cleared to close) or exception (stays on the policy unless removed)."""
    description: Text
    """What it says."""
    status: ItemStatus = "open"
    """open → cleared (requirements) or removed (exceptions)."""
    note: Text | None = None
    """How it was satisfied or why it was removed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Entry(Record):
    """A line of the escrow ledger: money received or to be paid out."""

    id: EntryId
    order_id: OrderId
    """The order."""
    kind: EntryKind
    """receipt or disbursement."""
    party: Annotated[str, StringConstraints(min_length=1, max_length=160)]
    """Who paid it in (receipts) or who is paid (disbursements)."""
    amount: Cents
    """Amount in cents."""
    memo: Text
    """What it is for, e.g. 'Earnest money' or 'Seller proceeds'."""
    status: EntryStatus = "pending"
    """receipts: pending → cleared; disbursements: pending → disbursed; void while pending."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Document(Record):
    """A closing document."""

    id: DocumentId
    order_id: OrderId
    """The order."""
    kind: DocKind
    """deed, deed_of_trust, settlement_statement, owner_affidavit or payoff_letter."""
    status: DocStatus = "draft"
    """draft → signed → recorded (deeds and deeds of trust only)."""
    instrument_number: InstrumentNumber | None = None
    """The recorder's instrument number once recorded."""
    recorded_on: Date | None = None
    """When it was recorded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was prepared."""


class Balance(Value):
    """The escrow ledger of an order in sum."""

    order_id: OrderId
    """The order."""
    received: Cents
    """Cleared receipts, in cents."""
    pending_receipts: Cents
    """Receipts not yet cleared."""
    disbursed: Cents
    """Disbursements paid out."""
    pending_disbursements: Cents
    """Disbursements still to pay."""
    balance: int
    """Cleared receipts minus all disbursements (0: balanced)."""
    balanced: bool
    """Whether it balances to the cent."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an escrow officer's e-mail")


def _open_order(ctx: Ctx, order_id: str, field: str = "order_id") -> Order:
    order = ctx.get(Order, order_id, field=field)
    if order.status not in ("open", "clear_to_close"):
        raise RuleViolation(f"order {order.file_number} is {order.status}", field=field, hint="open a new order")
    return order


def _reopen(ctx: Ctx, order: Order) -> None:
    """A change to the ledger or the documents takes a clear-to-close order back to open."""
    if order.status == "clear_to_close":
        ctx.update(order, status="open")


def _sum(entries: list[Entry], kind: str, *status: str) -> int:
    return sum(e.amount for e in entries if e.kind == kind and e.status in status)


def _balance(ctx: Ctx, order: Order) -> Balance:
    lines = ctx.where(Entry, order_id=order.id)
    got, out = _sum(lines, "receipt", "cleared"), _sum(lines, "disbursement", "disbursed")
    owed = _sum(lines, "disbursement", "pending")
    return Balance(
        order_id=order.id,
        received=got,
        pending_receipts=_sum(lines, "receipt", "pending"),
        disbursed=out,
        pending_disbursements=owed,
        balance=got - out - owed,
        balanced=got == out + owed,
    )


def _guard_order(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != old.status:
        return
    _open_order(ctx, old.id)
    if old.status == "clear_to_close" and (new.purchase_price, new.loan_amount) != (
        old.purchase_price,
        old.loan_amount,
    ):
        raise RuleViolation(
            "the ledger was balanced for these amounts",
            field="order_id",
            hint="the order is clear to close; post ledger changes first, which reopens it",
        )


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        commitment = ctx.get(Commitment, new.commitment_id, field="commitment_id")
        _open_order(ctx, commitment.order_id, "commitment_id")
        if new.order_id != commitment.order_id:
            raise RuleViolation("the commitment is of another order", field="order_id", hint="use its own order")
    elif new.status == "cleared" and new.kind != "requirement":
        raise RuleViolation("only requirements are cleared", field="item_id", hint="remove an exception instead")


orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("status", "transaction_type", "escrow_officer_email", "buyer_email", "seller_email", "file_number"),
    search=("buyer_name", "seller_name", "file_number"),
    update=("purchase_price", "loan_amount", "closing_date", "lender_name"),
    delete=False,
    guard_update=_guard_order,
)
commitments = service.resource(
    Commitment,
    name="commitment",
    plural="commitments",
    prefix="cmt",
    create=False,
    filters=("order_id",),
    delete=False,
    title="title commitment",
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=("commitment_id", "order_id", "kind", "description"),
    get=False,
    filters=("order_id", "commitment_id", "kind", "status"),
    search=("description",),
    delete=False,
    guard_create=_guard_item,
    guard_update=_guard_item,
    title="commitment item",
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="ent",
    create=False,
    get=False,
    filters=("order_id", "kind", "status"),
    search=("party", "memo"),
    delete=False,
    title="ledger entry",
)
documents = service.resource(
    Document,
    name="document",
    plural="documents",
    prefix="cdoc",
    create=False,
    filters=("order_id", "kind", "status"),
    delete=False,
    transitions={"sign": Transition("status", ("draft",), "signed", "record the document as signed")},
    title="closing document",
)


# -- orders and commitments -------------------------------------------------------------------


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    buyer, seller = ctx.population.consumers[-1], ctx.population.consumers[-2]
    return {
        "transaction_type": "purchase",
        "property_address": seller.address.model_dump(),
        "buyer_name": buyer.name,
        "buyer_email": buyer.email,
        "seller_name": seller.name,
        "seller_email": seller.email,
        "purchase_price": 41_500_000,
        "loan_amount": 33_200_000,
        "escrow_officer_email": ctx.population.employees[0].email,
        "closing_date": (ctx.today() + dt.timedelta(days=30)).isoformat(),
    }


@service.tool(intent="open the title and escrow order", write=True, example=_example_order)
def open_order(
    ctx: Ctx,
    transaction_type: TransactionType,
    property_address: PostalAddress,
    buyer_name: PersonName,
    buyer_email: Email,
    escrow_officer_email: Email,
    closing_date: Date,
    seller_name: PersonName | None = None,
    seller_email: Email | None = None,
    lender_name: CompanyName | None = None,
    purchase_price: Cents = 0,
    loan_amount: Cents = 0,
) -> Order:
    """Open an order; a purchase needs a seller and a price; one live order per property.

    Args:
        transaction_type: purchase or refinance.
        property_address: The property.
        buyer_name: The buyer or borrower.
        buyer_email: Their e-mail.
        escrow_officer_email: The employee closing the file.
        closing_date: The scheduled closing (today or later).
        seller_name: The seller (purchases).
        seller_email: The seller's e-mail.
        lender_name: The new lender, if financed.
        purchase_price: Sales price in cents (purchases).
        loan_amount: New loan amount in cents.
    """
    _staff(ctx, escrow_officer_email, "escrow_officer_email")
    if transaction_type == "purchase" and (seller_name is None or purchase_price <= 0):
        raise RuleViolation("a purchase needs a seller and a price", field="seller_name", hint="give both")
    if transaction_type == "refinance" and loan_amount <= 0:
        raise RuleViolation("a refinance needs a loan amount", field="loan_amount", hint="give the new loan amount")
    if closing_date < ctx.today():
        raise RuleViolation("closing_date is in the past", field="closing_date", hint="pick today or later")
    for other in ctx.where(Order, property_address=property_address):
        if other.status in ("open", "clear_to_close"):
            raise Conflict(
                f"order {other.file_number} is open on this property",
                field="property_address",
                hint="work on that order",
            )
    return ctx.create(
        Order,
        transaction_type=transaction_type,
        property_address=property_address,
        buyer_name=buyer_name,
        buyer_email=buyer_email,
        seller_name=seller_name,
        seller_email=seller_email,
        lender_name=lender_name,
        purchase_price=purchase_price,
        loan_amount=loan_amount,
        escrow_officer_email=escrow_officer_email,
        closing_date=closing_date,
    )


def _issue(ctx: Ctx | SeedContext, order: Order, effective: dt.date) -> Commitment:
    amount = order.purchase_price or order.loan_amount
    made = ctx.create(
        Commitment, order_id=order.id, effective_date=effective, proposed_insured=order.buyer_name, policy_amount=amount
    )
    for kind, text in STANDARD_ITEMS:
        if order.transaction_type == "purchase" or "seller" not in text:
            ctx.create(Item, commitment_id=made.id, order_id=order.id, kind=kind, description=text)
    return made


def _uncommitted(ctx: Ctx, o: Order) -> bool:
    return o.status == "open" and not ctx.where(Commitment, order_id=o.id)


@service.tool(
    intent="issue the title commitment", write=True, example=first_example(Order, "order_id", match=_uncommitted)
)
def issue_commitment(ctx: Ctx, order_id: OrderId) -> Commitment:
    """Issue the title commitment with the standard requirements and exceptions; once per order.

    Args:
        order_id: The open order.
    """
    order = _open_order(ctx, order_id)
    if ctx.where(Commitment, order_id=order.id):
        raise Conflict(
            f"order {order.file_number} already has a commitment",
            field="order_id",
            hint="add items to it with escrow__create_item",
        )
    return _issue(ctx, order, ctx.today() - dt.timedelta(days=1))


def _item(ctx: Ctx, item_id: str, kind: str) -> Item:
    item = ctx.get(Item, item_id, field="item_id")
    _open_order(ctx, item.order_id, "item_id")
    if item.kind != kind:
        raise RuleViolation(f"item {item.id} is an {item.kind}", field="item_id", hint=f"pick an open {kind}")
    if item.status != "open":
        raise Conflict(f"item {item.id} is already {item.status}", field="item_id", hint="nothing to do")
    return item


@service.tool(
    intent="clear the title requirement",
    write=True,
    example=first_example(Item, "item_id", where={"kind": "requirement", "status": "open"}, note="Recorded release."),
)
def clear_requirement(ctx: Ctx, item_id: ItemId, note: Text) -> Item:
    """Mark a Schedule B-I requirement satisfied, saying how.

    Args:
        item_id: The open requirement.
        note: How it was satisfied.
    """
    item = _item(ctx, item_id, "requirement")
    if not note.strip():
        raise RuleViolation("say how the requirement was met", field="note", hint="e.g. 'payoff letter received'")
    return ctx.update(item, status="cleared", note=note.strip())


@service.tool(
    intent="remove the title exception",
    write=True,
    example=first_example(Item, "item_id", where={"kind": "exception", "status": "open"}, note="Survey provided."),
)
def remove_exception(ctx: Ctx, item_id: ItemId, note: Text) -> Item:
    """Remove a Schedule B-II exception from the policy, with the reason (e.g. a survey was provided).

    Args:
        item_id: The open exception.
        note: Why it can be removed.
    """
    item = _item(ctx, item_id, "exception")
    if not note.strip():
        raise RuleViolation("say why the exception is removed", field="note", hint="e.g. 'survey provided'")
    return ctx.update(item, status="removed", note=note.strip())


# -- ledger -----------------------------------------------------------------------------------


def _example_entry(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(Order, status="open")
    return (
        None
        if order is None
        else {"order_id": order.id, "party": order.buyer_name, "amount": 1_000_000, "memo": "Additional earnest money"}
    )


@service.tool(intent="post the receipt to the escrow ledger", write=True, example=_example_entry)
def add_receipt(
    ctx: Ctx, order_id: OrderId, party: Annotated[str, StringConstraints(min_length=1)], amount: Cents, memo: Text
) -> Entry:
    """Post money received into escrow (earnest money, buyer funds, the lender's wire); it starts pending.

    Args:
        order_id: The open order.
        party: Who paid it.
        amount: Amount in cents (more than 0).
        memo: What it is for.
    """
    order = _open_order(ctx, order_id)
    if amount <= 0:
        raise RuleViolation("amount must be more than 0", field="amount", hint="give the amount in cents")
    made = ctx.create(Entry, order_id=order.id, kind="receipt", party=party, amount=amount, memo=memo)
    _reopen(ctx, order)
    return made


@service.tool(intent="post the disbursement to the escrow ledger", write=True, example=_example_entry)
def add_disbursement(
    ctx: Ctx, order_id: OrderId, party: Annotated[str, StringConstraints(min_length=1)], amount: Cents, memo: Text
) -> Entry:
    """Post a payment due at closing (seller proceeds, payoff, commission, title premium, recording fee).

    Args:
        order_id: The open order.
        party: Who is paid.
        amount: Amount in cents (more than 0).
        memo: What it is for.
    """
    order = _open_order(ctx, order_id)
    if amount <= 0:
        raise RuleViolation("amount must be more than 0", field="amount", hint="give the amount in cents")
    made = ctx.create(Entry, order_id=order.id, kind="disbursement", party=party, amount=amount, memo=memo)
    _reopen(ctx, order)
    return made


def _pending(ctx: Ctx, entry_id: str, kind: str | None = None) -> Entry:
    entry = ctx.get(Entry, entry_id, field="entry_id")
    order = _open_order(ctx, entry.order_id, "entry_id")
    if entry.status != "pending" or (kind is not None and entry.kind != kind):
        raise RuleViolation(
            f"entry {entry.id} is a {entry.status} {entry.kind}",
            field="entry_id",
            hint=f"pick a pending {kind or 'entry'}",
        )
    _reopen(ctx, order)
    return entry


@service.tool(
    intent="clear the receipt",
    write=True,
    example=first_example(Entry, "entry_id", where={"kind": "receipt", "status": "pending"}),
)
def clear_receipt(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Mark a pending receipt's funds cleared (good funds) in the escrow account.

    Args:
        entry_id: The pending receipt.
    """
    return ctx.update(_pending(ctx, entry_id, "receipt"), status="cleared")


@service.tool(
    intent="void the ledger entry",
    write=True,
    destructive=True,
    example=first_example(Entry, "entry_id", where={"status": "pending"}),
)
def void_entry(ctx: Ctx, entry_id: EntryId) -> Entry:
    """Void a pending receipt or disbursement posted in error.

    Args:
        entry_id: The pending entry.
    """
    return ctx.update(_pending(ctx, entry_id), status="void")


@service.tool(intent="show the escrow balance", example=first_example(Order, "order_id"))
def ledger_balance(ctx: Ctx, order_id: OrderId) -> Balance:
    """An order's cleared and pending receipts and disbursements, and whether the ledger balances.

    Args:
        order_id: The order.
    """
    return _balance(ctx, ctx.get(Order, order_id, field="order_id"))


# -- closing ----------------------------------------------------------------------------------


def _example_document(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(Order, status="open")
    return None if order is None else {"order_id": order.id, "kind": "owner_affidavit"}


@service.tool(intent="prepare the closing document", write=True, example=_example_document)
def create_document(ctx: Ctx, order_id: OrderId, kind: DocKind) -> Document:
    """Prepare a closing document for an open order (one of each kind), as a draft to be signed.

    Args:
        order_id: The open order.
        kind: deed, deed_of_trust, settlement_statement, owner_affidavit or payoff_letter.
    """
    order = _open_order(ctx, order_id)
    if ctx.where(Document, order_id=order.id, kind=kind):
        raise Conflict(f"the order already has a {kind}", field="kind", hint="use that document")
    made = ctx.create(Document, order_id=order.id, kind=kind)
    _reopen(ctx, order)
    return made


def _ctc_problem(ctx: Ctx, order: Order) -> str | None:
    if not ctx.where(Commitment, order_id=order.id):
        return "no title commitment is issued; issue it with escrow__issue_commitment"
    if ctx.where(Item, order_id=order.id, kind="requirement", status="open"):
        return "requirements are still open; clear them with escrow__clear_requirement"
    docs = ctx.where(Document, order_id=order.id)
    if not any(d.kind == "settlement_statement" for d in docs):
        return "no settlement statement; prepare it with escrow__create_document"
    if any(d.status == "draft" for d in docs):
        return "documents are unsigned; sign them with escrow__sign_document"
    bal = _balance(ctx, order)
    if bal.pending_receipts or not bal.balanced:
        return f"the ledger does not balance: {bal.balance} cents difference, {bal.pending_receipts} pending receipts"
    return None


def _ctc_ready(ctx: Ctx, o: Order) -> bool:
    return o.status == "open" and _ctc_problem(ctx, o) is None


@service.tool(
    intent="mark the order clear to close", write=True, example=first_example(Order, "order_id", match=_ctc_ready)
)
def clear_to_close(ctx: Ctx, order_id: OrderId) -> Order:
    """Mark an open order clear to close: commitment issued, requirements cleared, documents signed, ledger balanced.

    Args:
        order_id: The open order.
    """
    order = _open_order(ctx, order_id)
    if order.status != "open":
        raise Conflict(f"order {order.file_number} is already clear to close", field="order_id", hint="close it")
    why = _ctc_problem(ctx, order)
    if why is not None:
        raise RuleViolation(f"order {order.file_number} is not clear to close: {why}", field="order_id", hint=why)
    return ctx.update(order, status="clear_to_close")


@service.tool(
    intent="close the order and disburse the funds",
    write=True,
    destructive=True,
    example=first_example(Order, "order_id", where={"status": "clear_to_close"}),
)
def close_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Close a clear-to-close order on or after its closing date: every pending disbursement is paid out.

    Args:
        order_id: The clear-to-close order.
    """
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "clear_to_close":
        raise RuleViolation(
            f"order {order.file_number} is {order.status}",
            field="order_id",
            hint="mark it clear to close with escrow__clear_to_close first",
        )
    if ctx.today() < order.closing_date:
        raise RuleViolation(
            f"the closing is set for {order.closing_date}",
            field="order_id",
            hint="move closing_date with escrow__update_order to close early",
        )
    for e in ctx.where(Entry, order_id=order.id, kind="disbursement", status="pending"):
        ctx.update(e, status="disbursed")
    return ctx.update(order, status="closed", closed_at=ctx.now())


@service.tool(
    intent="cancel the order",
    write=True,
    destructive=True,
    example=first_example(
        Order, "order_id", where={"status": "open"}, match=lambda c, o: not c.where(Entry, order_id=o.id)
    ),
)
def cancel_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Cancel an order whose ledger holds nothing (refund and void entries first).

    Args:
        order_id: The open order.
    """
    order = _open_order(ctx, order_id)
    lines = [e for e in ctx.where(Entry, order_id=order.id) if e.status != "void"]
    held = _sum(lines, "receipt", "cleared") - _sum(lines, "disbursement", "disbursed")
    if held or any(e.status == "pending" for e in lines):
        raise RuleViolation(
            f"the ledger still holds {held} cents or pending entries",
            field="order_id",
            hint="refund with a disbursement and void pending entries first",
        )
    return ctx.update(order, status="cancelled")


def _recordable(ctx: Ctx, d: Document) -> bool:
    return d.status == "signed" and d.kind in RECORDABLE and ctx.get(Order, d.order_id).status == "closed"


@service.tool(
    intent="record the document with the county",
    write=True,
    example=first_example(Document, "document_id", match=_recordable, instrument_number="2026-0044871"),
)
def record_document(ctx: Ctx, document_id: DocumentId, instrument_number: InstrumentNumber) -> Document:
    """Record a closed order's signed deed or deed of trust; instrument numbers are unique.

    Args:
        document_id: The signed deed or deed of trust.
        instrument_number: The recorder's instrument number, e.g. 2026-0012345.
    """
    doc = ctx.get(Document, document_id, field="document_id")
    if doc.kind not in RECORDABLE:
        raise RuleViolation(f"a {doc.kind} is not recorded", field="document_id", hint="record deeds only")
    if doc.status != "signed":
        raise RuleViolation(f"the {doc.kind} is {doc.status}", field="document_id", hint="record a signed document")
    order = ctx.get(Order, doc.order_id)
    if order.status != "closed":
        raise RuleViolation(
            f"order {order.file_number} is {order.status}", field="document_id", hint="record only after closing"
        )
    if ctx.first(Document, instrument_number=instrument_number) is not None:
        raise Conflict(
            f"instrument {instrument_number} is already recorded",
            field="instrument_number",
            hint="check the number the recorder returned",
        )
    return ctx.update(doc, status="recorded", instrument_number=instrument_number, recorded_on=ctx.today())


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Orders at every status for the world's consumers, with commitments, ledgers and documents."""
    pop = s.population
    officers, people, today = pop.staff("Finance", "Operations", fallback=3), pop.consumers, s.now.date()
    # status, type, price, loan, days to closing
    plan: tuple[tuple[OrderStatus, TransactionType, int, int, int], ...] = (
        ("open", "purchase", 41_000_000, 32_800_000, 25),
        ("open", "purchase", 52_500_000, 42_000_000, 0),
        ("open", "refinance", 0, 30_000_000, 10),
        ("clear_to_close", "purchase", 38_000_000, 30_400_000, 0),
        ("closed", "purchase", 45_000_000, 36_000_000, -12),
        ("cancelled", "purchase", 29_900_000, 0, 5),
        ("open", "purchase", 61_000_000, 48_800_000, 18),
    )
    for k, (status, kind, price, loan, days) in enumerate(plan):
        buyer, seller = people[(2 * k) % len(people)], people[(2 * k + 1) % len(people)]
        sells = kind == "purchase"
        order = s.create(
            Order,
            transaction_type=kind,
            property_address=(seller if sells else buyer).address,
            buyer_name=buyer.name,
            buyer_email=buyer.email,
            seller_name=seller.name if sells else None,
            seller_email=seller.email if sells else None,
            lender_name=pop.customers[k % len(pop.customers)].name if loan else None,
            purchase_price=price,
            loan_amount=loan,
            escrow_officer_email=officers[k % len(officers)].email,
            closing_date=today + dt.timedelta(days=days),
            created_at=s.ago(days=40),
        )
        if k == 0 or status == "cancelled":
            s.update(order, status=status)
            continue
        _seed_file(s, order, buyer.name, seller.name, k, status)


def _seed_file(s: SeedContext, order: Order, buyer: str, seller: str, k: int, status: OrderStatus) -> None:
    """A commitment, ledger and documents for one order, as far along as its status."""
    done = status in ("clear_to_close", "closed")
    _issue(s, order, s.now.date() - dt.timedelta(days=30))
    for item in s.records(Item):
        if item.order_id == order.id and item.kind == "requirement" and (done or k in (1, 2)):
            s.update(item, status="cleared", note="Satisfied")
    price, loan = order.purchase_price, order.loan_amount
    receipts = [("Buyer", price - loan, "Buyer funds to close")] if price else []
    receipts += [(order.lender_name or "Lender", loan, "Lender wire")] if loan else []
    payoff = loan * 3 // 4 if not price else price * 11 // 20
    fees = (price or loan) // 100
    payouts = [("Title premium", fees, "Owner's and lender's policies"), ("County recorder", 25_000, "Recording fees")]
    if price:
        payouts.append((seller, price - payoff - fees - 25_000, "Seller proceeds"))
    payouts.append(("Prior lender", payoff if price else loan - fees - 25_000, "Payoff of existing loan"))
    for party, amount, memo in receipts:
        e = s.create(Entry, order_id=order.id, kind="receipt", party=party, amount=amount, memo=memo)
        s.update(e, status="cleared" if done or k in (1, 2) else "pending")
    for party, amount, memo in payouts:
        e = s.create(Entry, order_id=order.id, kind="disbursement", party=party, amount=amount, memo=memo)
        s.update(e, status="disbursed" if status == "closed" else "pending")
    kinds: tuple[DocKind, ...] = (
        ("settlement_statement", "deed", "deed_of_trust") if price else ("settlement_statement", "deed_of_trust")
    )
    for kind in kinds:
        doc = s.create(Document, order_id=order.id, kind=kind)
        s.update(doc, status="signed" if done or k == 2 or (k == 1 and kind != "deed") else "draft")
    if status != "open":
        s.update(order, status=status, closed_at=s.ago(days=12) if status == "closed" else None)
