"""Splitpay: buy now, pay later for the company's store: checkouts, loan transactions, captures, settlement.

Modeled on the Affirm Checkout and Transactions APIs: the merchant creates a
checkout (items, shipping, tax, its order id), sends the customer the link
(telesales), and once the customer is approved for a financing program the
checkout is confirmed; the merchant then authorizes a transaction from it
(status authorized), captures all or part of it (partially_captured,
captured), voids what is not captured, refunds what was captured
(partially_refunded, refunded) and updates its shipping; every change is a
transaction event. Affirm settles captured money, less its merchant fee and
refunds, in settlement batches; customers' disputes need a response with
evidence before their deadline.

Rules as Affirm applies them: a checkout totals 50 to 30,000 USD and its
order id is unique; only a confirmed checkout is authorized, once, within 30
days of approval; an authorization can be captured for 30 days, never beyond
the authorized amount; refunds never exceed what was captured less earlier
refunds, and none while a dispute is open; a dispute is answered before its
respond-by date.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PersonName,
    Sku,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.finance._shared import percent_of
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "bnpl",
    title="Splitpay",
    category="bnpl",
    modeled_on="Affirm Checkout API and Transactions API v1 (checkouts, authorize, capture, void, refund, update, "
    "transaction events, settlements, disputes)",
    description="Buy now, pay later for the company's online store: financing checkouts for customers' orders, "
    "the loan transactions authorized from them, captures, voids and refunds, shipping updates, the settlement "
    "batches paid to the company and customers' disputes.",
)

CheckoutId = Annotated[str, IdOf("bnpl.checkout")]
TransactionId = Annotated[str, IdOf("bnpl.transaction")]
EventId = Annotated[str, IdOf("bnpl.event")]
SettlementId = Annotated[str, IdOf("bnpl.settlement")]
DisputeId = Annotated[str, IdOf("bnpl.dispute")]

CheckoutStatus = Literal["opened", "confirmed", "authorized", "declined", "expired"]
TxStatus = Literal["authorized", "partially_captured", "captured", "voided", "partially_refunded", "refunded"]
Program = Literal["pay_in_4", "monthly_6_0apr", "monthly_12_10apr", "monthly_24_15apr"]
MIN_TOTAL, MAX_TOTAL = 5_000, 3_000_000
AUTH_DAYS = dt.timedelta(days=30)
MERCHANT_FEE = {"pay_in_4": 5.99, "monthly_6_0apr": 5.99, "monthly_12_10apr": 3.99, "monthly_24_15apr": 2.99}
"""Merchant discount rate (percent of what is captured) per financing program."""


class Item(Value):
    """A line of a checkout."""

    sku: Sku
    display_name: Title
    unit_price: Cents
    qty: Annotated[int, Field(ge=1, le=1000)]


class Checkout(Record):
    """A financing checkout for one order."""

    id: CheckoutId
    order_id: OrderNumber
    """The store's order id (unique)."""
    customer_name: PersonName
    """The shopper."""
    customer_email: Email
    """The shopper's e-mail."""
    items: tuple[Item, ...]
    """What is bought."""
    shipping_amount: Cents = 0
    """Shipping."""
    tax_amount: Cents = 0
    """Tax."""
    total: Cents
    """Items plus shipping and tax."""
    status: CheckoutStatus = "opened"
    """opened, confirmed (customer approved), authorized, declined or expired."""
    financing_program: Program | None = None
    """The plan the customer was approved for."""
    confirmed_at: DateTime | None = None
    """When the customer was approved."""
    links_sent: int = 0
    """Times the checkout link was sent to the customer."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Transaction(Record):
    """A loan transaction authorized from a confirmed checkout."""

    id: TransactionId
    checkout_id: CheckoutId
    """The checkout."""
    order_id: OrderNumber
    """The store's order id."""
    customer_email: Email
    """The customer."""
    financing_program: Program
    """The customer's plan."""
    amount: Cents
    """Authorized amount (less what was voided)."""
    amount_captured: Cents = 0
    """Captured so far."""
    amount_refunded: Cents = 0
    """Refunded so far."""
    status: TxStatus = "authorized"
    """authorized, partially_captured, captured, voided, partially_refunded or refunded."""
    authorization_expiration: DateTime
    """Capture is possible until then."""
    shipping_carrier: Title | None = None
    """Carrier of the shipment."""
    shipping_confirmation: TrackingNumber | None = None
    """Tracking number."""
    created_at: Annotated[DateTime, CREATED]
    """When it was authorized."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Event(Record):
    """One change of a transaction."""

    id: EventId
    transaction_id: TransactionId
    """The transaction."""
    type: Literal["auth", "capture", "partial_capture", "void", "refund", "update"]
    """auth, capture, partial_capture, void, refund or update."""
    amount: Cents = 0
    """Money moved."""
    fee: int = 0
    """Merchant fee (captures) or fee returned (refunds, negative)."""
    settlement_id: SettlementId | None = None
    """The settlement that paid it (captures and refunds)."""
    created_at: Annotated[DateTime, CREATED]
    """When it happened."""


class Settlement(Record):
    """A payout batch of captures less refunds and fees."""

    id: SettlementId
    gross_captures: Cents
    """Captured in the batch."""
    refunds: Cents
    """Refunded in the batch."""
    fees: int
    """Merchant fees (net of fees returned on refunds)."""
    net: int
    """Paid to the company."""
    event_count: int
    """Events in the batch."""
    status: Literal["pending", "paid"] = "pending"
    """pending or paid."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Dispute(Record):
    """A customer's dispute of a transaction."""

    id: DisputeId
    transaction_id: TransactionId
    """The transaction."""
    reason: Literal["item_not_received", "item_not_as_described", "return_not_credited", "fraud"]
    """item_not_received, item_not_as_described, return_not_credited or fraud."""
    amount: Cents
    """Amount disputed."""
    status: Literal["needs_response", "under_review", "won", "lost"] = "needs_response"
    """needs_response, under_review, won or lost."""
    respond_by: Date
    """Last day to respond."""
    evidence: Text = ""
    """The merchant's evidence."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class Summary(Value):
    """The store's BNPL money at a glance."""

    authorized_open: int
    """Authorized, not yet captured nor voided."""
    captured: int
    refunded: int
    unsettled_net: int
    """Captures less refunds and fees not yet settled."""
    open_disputes: int


# -- rules ------------------------------------------------------------------------------------


def _tx(ctx: Ctx, transaction_id: str) -> Transaction:
    return ctx.get(Transaction, transaction_id, field="transaction_id")


def _log(ctx: Ctx, tx: Transaction, kind: Any, amount: int = 0, fee: int = 0) -> None:
    ctx.create(Event, transaction_id=tx.id, type=kind, amount=amount, fee=fee)


resources = (
    service.resource(
        Checkout,
        name="checkout",
        plural="checkouts",
        prefix="chk",
        create=False,
        filters=("status", "order_id", "customer_email", "financing_program"),
        search=("customer_name",),
        delete=False,
    ),
    service.resource(
        Transaction,
        name="transaction",
        plural="transactions",
        prefix="tx",
        create=False,
        filters=("status", "order_id", "checkout_id", "customer_email"),
        delete=False,
    ),
    service.resource(
        Event,
        name="event",
        plural="events",
        prefix="evt",
        create=False,
        get=False,
        filters=("transaction_id", "type", "settlement_id"),
        delete=False,
        title="transaction event",
    ),
    service.resource(
        Settlement,
        name="settlement",
        plural="settlements",
        prefix="stl",
        create=False,
        filters=("status",),
        delete=False,
    ),
    service.resource(
        Dispute,
        name="dispute",
        plural="disputes",
        prefix="dsp",
        create=False,
        filters=("transaction_id", "status", "reason"),
        delete=False,
    ),
)


# -- checkouts --------------------------------------------------------------------------------


def _example_checkout(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[-1]
    item = {"sku": "BIKE-E-500", "display_name": "E-bike 500", "unit_price": 189900, "qty": 1}
    return {
        "order_id": f"SO-{ctx.rng.randint(10**5, 10**6)}",
        "customer_name": p.name,
        "customer_email": p.email,
        "items": [item],
        "shipping_amount": 4900,
        "tax_amount": 15200,
    }


@service.tool(intent="start the financing checkout", write=True, example=_example_checkout)
def create_checkout(
    ctx: Ctx,
    order_id: OrderNumber,
    customer_name: PersonName,
    customer_email: Email,
    items: Annotated[list[Item], Field(min_length=1, max_length=50)],
    shipping_amount: Cents = 0,
    tax_amount: Cents = 0,
) -> Checkout:
    """Create a checkout for an order; the customer applies for financing through its link.

    Args:
        order_id: The store's order id (unique).
        customer_name: The shopper's name.
        customer_email: The shopper's e-mail.
        items: The order lines (sku, display_name, unit_price, qty).
        shipping_amount: Shipping in cents.
        tax_amount: Tax in cents.
    """
    if ctx.first(Checkout, order_id=order_id) is not None:
        raise Conflict(f"order {order_id} already has a checkout", field="order_id", hint="use that checkout")
    total = sum(i.unit_price * i.qty for i in items) + shipping_amount + tax_amount
    if not MIN_TOTAL <= total <= MAX_TOTAL:
        why = f"financing is offered for totals of {MIN_TOTAL}-{MAX_TOTAL} cents, not {total}"
        raise RuleViolation(why, field="items", hint="offer another payment method for this order")
    return ctx.create(
        Checkout,
        order_id=order_id,
        customer_name=customer_name,
        customer_email=customer_email,
        items=tuple(items),
        shipping_amount=shipping_amount,
        tax_amount=tax_amount,
        total=total,
    )


@service.tool(
    intent="send the checkout link to the customer",
    write=True,
    example=first_example(Checkout, "checkout_id", where={"status": "opened"}, channel="email"),
)
def send_checkout_link(ctx: Ctx, checkout_id: CheckoutId, channel: Literal["email", "sms"] = "email") -> Checkout:
    """Send an opened checkout's application link to the customer (at most 5 times).

    Args:
        checkout_id: The checkout.
        channel: email or sms.
    """
    chk = ctx.get(Checkout, checkout_id, field="checkout_id")
    if chk.status != "opened":
        raise RuleViolation(f"the checkout is {chk.status}", field="checkout_id", hint="only opened checkouts")
    if chk.links_sent >= 5:
        raise RuleViolation("the link was sent 5 times", field="checkout_id", hint="call the customer instead")
    return ctx.update(chk, links_sent=chk.links_sent + 1)


# -- transactions -----------------------------------------------------------------------------


@service.tool(
    intent="authorize the financing",
    write=True,
    example=first_example(Checkout, "checkout_id", where={"status": "confirmed"}),
)
def authorize_transaction(ctx: Ctx, checkout_id: CheckoutId) -> Transaction:
    """Authorize the loan of a confirmed checkout (once, within 30 days of the customer's approval).

    Args:
        checkout_id: The confirmed checkout.
    """
    chk = ctx.get(Checkout, checkout_id, field="checkout_id")
    if chk.status == "authorized":
        raise Conflict("the checkout is already authorized", field="checkout_id", hint="use its transaction")
    if chk.status != "confirmed" or chk.confirmed_at is None or chk.financing_program is None:
        why = f"the checkout is {chk.status}"
        raise RuleViolation(why, field="checkout_id", hint="the customer must be approved first")
    if ctx.now() > chk.confirmed_at + AUTH_DAYS:
        why = "the approval is older than 30 days"
        raise RuleViolation(why, field="checkout_id", hint="create a new checkout for the customer")
    ctx.update(chk, status="authorized")
    tx = ctx.create(
        Transaction,
        checkout_id=chk.id,
        order_id=chk.order_id,
        customer_email=chk.customer_email,
        financing_program=chk.financing_program,
        amount=chk.total,
        authorization_expiration=ctx.now() + AUTH_DAYS,
    )
    _log(ctx, tx, "auth", chk.total)
    return tx


@service.tool(
    intent="capture the payment",
    write=True,
    example=first_example(Transaction, "transaction_id", where={"status": "authorized"}),
)
def capture_transaction(ctx: Ctx, transaction_id: TransactionId, amount: Cents | None = None) -> Transaction:
    """Capture all or part of what remains authorized (usually when the order ships).

    Args:
        transaction_id: The transaction.
        amount: Cents to capture; omit for everything remaining.
    """
    tx = _tx(ctx, transaction_id)
    if tx.status not in ("authorized", "partially_captured"):
        why = f"the transaction is {tx.status}"
        raise RuleViolation(why, field="transaction_id", hint="only authorized amounts are captured")
    if ctx.now() > tx.authorization_expiration:
        raise RuleViolation("the authorization expired", field="transaction_id", hint="start a new checkout")
    left = tx.amount - tx.amount_captured
    take = left if amount is None else amount
    if not 0 < take <= left:
        raise RuleViolation(f"{left} cents remain to capture", field="amount", hint="capture at most what remains")
    done = tx.amount_captured + take
    _log(
        ctx,
        tx,
        "capture" if done == tx.amount else "partial_capture",
        take,
        percent_of(take, MERCHANT_FEE[tx.financing_program]),
    )
    return ctx.update(tx, amount_captured=done, status="captured" if done == tx.amount else "partially_captured")


@service.tool(
    intent="void the authorization",
    write=True,
    destructive=True,
    example=first_example(Transaction, "transaction_id", where={"status": "authorized"}),
)
def void_transaction(ctx: Ctx, transaction_id: TransactionId) -> Transaction:
    """Void what remains authorized and uncaptured (the whole loan when nothing was captured).

    Args:
        transaction_id: The transaction.
    """
    tx = _tx(ctx, transaction_id)
    if tx.status not in ("authorized", "partially_captured"):
        why = f"the transaction is {tx.status}"
        raise RuleViolation(why, field="transaction_id", hint="refund captured money instead")
    _log(ctx, tx, "void", tx.amount - tx.amount_captured)
    if tx.amount_captured == 0:
        return ctx.update(tx, status="voided")
    return ctx.update(tx, amount=tx.amount_captured, status="captured")


@service.tool(
    intent="refund the customer",
    write=True,
    example=first_example(Transaction, "transaction_id", where={"status": "captured"}, amount=1000),
)
def refund_transaction(ctx: Ctx, transaction_id: TransactionId, amount: Cents | None = None) -> Transaction:
    """Refund captured money (all that remains by default); the loan balance is reduced for the customer.

    Args:
        transaction_id: The transaction.
        amount: Cents to refund; omit for everything refundable.
    """
    tx = _tx(ctx, transaction_id)
    left = tx.amount_captured - tx.amount_refunded
    if left <= 0:
        why = f"nothing captured remains to refund ({tx.status})"
        raise RuleViolation(why, field="transaction_id", hint="void an uncaptured authorization instead")
    if any(d.status in ("needs_response", "under_review") for d in ctx.where(Dispute, transaction_id=tx.id)):
        raise RuleViolation("the transaction is disputed", field="transaction_id", hint="resolve the dispute first")
    give = left if amount is None else amount
    if not 0 < give <= left:
        raise RuleViolation(f"{left} cents can be refunded", field="amount", hint="refund at most what remains")
    fee_back = -percent_of(give, MERCHANT_FEE[tx.financing_program])
    _log(ctx, tx, "refund", give, fee_back)
    refunded = tx.amount_refunded + give
    return ctx.update(
        tx, amount_refunded=refunded, status="refunded" if refunded == tx.amount_captured else "partially_refunded"
    )


@service.tool(
    intent="add the shipping details",
    write=True,
    example=first_example(
        Transaction,
        "transaction_id",
        where={"status": "authorized"},
        shipping_carrier="UPS",
        shipping_confirmation="1Z999AA10123456784",
    ),
)
def update_transaction(
    ctx: Ctx,
    transaction_id: TransactionId,
    shipping_carrier: Title | None = None,
    shipping_confirmation: TrackingNumber | None = None,
    order_id: OrderNumber | None = None,
) -> Transaction:
    """Add shipment tracking or correct the order id of a transaction that is not voided.

    Args:
        transaction_id: The transaction.
        shipping_carrier: The carrier (e.g. UPS).
        shipping_confirmation: The tracking number.
        order_id: A corrected order id.
    """
    tx = _tx(ctx, transaction_id)
    if tx.status == "voided":
        raise RuleViolation("the transaction is voided", field="transaction_id", hint="nothing to update")
    changes = {
        k: v
        for k, v in (
            ("shipping_carrier", shipping_carrier),
            ("shipping_confirmation", shipping_confirmation),
            ("order_id", order_id),
        )
        if v is not None
    }
    if not changes:
        raise RuleViolation("nothing to update", field="shipping_carrier", hint="give a carrier, tracking or order id")
    _log(ctx, tx, "update")
    return ctx.update(tx, **changes)


# -- disputes, settlement, summary ------------------------------------------------------------


def _open_dispute(ctx: Ctx, dispute_id: str) -> Dispute:
    d = ctx.get(Dispute, dispute_id, field="dispute_id")
    if d.status != "needs_response":
        raise Conflict(f"the dispute is {d.status}", field="dispute_id", hint="it no longer needs a response")
    if ctx.today() > d.respond_by:
        raise RuleViolation(f"the deadline was {d.respond_by}", field="dispute_id", hint="it can no longer be answered")
    return d


@service.tool(
    intent="respond to the dispute",
    write=True,
    example=first_example(
        Dispute,
        "dispute_id",
        where={"status": "needs_response"},
        evidence="Delivered 2026-02-20, signed for by the customer (UPS proof attached).",
    ),
)
def respond_to_dispute(ctx: Ctx, dispute_id: DisputeId, evidence: Text) -> Dispute:
    """Answer a dispute with evidence before its respond-by date; it goes under review.

    Args:
        dispute_id: The dispute.
        evidence: Proof of delivery, correspondence, the return policy.
    """
    d = _open_dispute(ctx, dispute_id)
    if len(evidence.strip()) < 20:
        raise RuleViolation("evidence must say what proves the charge", field="evidence", hint="describe the proof")
    return ctx.update(d, status="under_review", evidence=evidence.strip())


@service.tool(
    intent="accept the dispute",
    write=True,
    destructive=True,
    example=first_example(Dispute, "dispute_id", where={"status": "needs_response"}),
)
def accept_dispute(ctx: Ctx, dispute_id: DisputeId) -> Dispute:
    """Accept a dispute: it is lost and the disputed amount is refunded to the customer.

    Args:
        dispute_id: The dispute.
    """
    d = _open_dispute(ctx, dispute_id)
    d = ctx.update(d, status="lost")
    tx = _tx(ctx, d.transaction_id)
    give = min(d.amount, tx.amount_captured - tx.amount_refunded)
    if give > 0:
        refund_transaction(ctx, tx.id, give)
    return d


@service.tool(intent="settle the captured payments", write=True, example=lambda ctx: {})
def run_settlement(ctx: Ctx) -> Settlement:
    """Batch every unsettled capture and refund before today into a settlement paid to the company."""
    cutoff = dt.datetime.combine(ctx.today(), dt.time(), tzinfo=dt.UTC)
    due = [
        e
        for e in ctx.where(Event, settlement_id=None)
        if e.type in ("capture", "partial_capture", "refund") and e.created_at < cutoff
    ]
    if not due:
        raise RuleViolation("nothing to settle before today", field=None, hint="captures settle the next day")
    gross = sum(e.amount for e in due if e.type != "refund")
    refunds = sum(e.amount for e in due if e.type == "refund")
    fees = sum(e.fee for e in due)
    stl = ctx.create(
        Settlement, gross_captures=gross, refunds=refunds, fees=fees, net=gross - refunds - fees, event_count=len(due)
    )
    for e in due:
        ctx.update(e, settlement_id=stl.id)
    return stl


@service.tool(intent="show the BNPL balances", example=lambda ctx: {})
def get_summary(ctx: Ctx) -> Summary:
    """What is authorized and open, captured, refunded, not yet settled, and how many disputes are open."""
    txs = list(ctx.scan(Transaction))
    open_auth = sum(t.amount - t.amount_captured for t in txs if t.status in ("authorized", "partially_captured"))
    pending = [e for e in ctx.where(Event, settlement_id=None) if e.type != "update"]
    unsettled = sum(
        (-e.amount if e.type == "refund" else e.amount) - e.fee
        for e in pending
        if e.type in ("capture", "partial_capture", "refund")
    )
    disputes = sum(d.status in ("needs_response", "under_review") for d in ctx.scan(Dispute))
    return Summary(
        authorized_open=open_auth,
        captured=sum(t.amount_captured for t in txs),
        refunded=sum(t.amount_refunded for t in txs),
        unsettled_net=unsettled,
        open_disputes=disputes,
    )


# -- seed -------------------------------------------------------------------------------------

# (checkout status, financing program, transaction status or None, days ago)
PLAN: tuple[tuple[CheckoutStatus, Program | None, TxStatus | None, int], ...] = (
    ("authorized", "pay_in_4", "captured", 40),
    ("authorized", "monthly_12_10apr", "partially_refunded", 35),
    ("authorized", "monthly_6_0apr", "captured", 12),
    ("authorized", "pay_in_4", "partially_captured", 6),
    ("authorized", "monthly_24_15apr", "authorized", 2),
    ("authorized", "pay_in_4", "voided", 9),
    ("confirmed", "pay_in_4", None, 1),
    ("confirmed", "monthly_12_10apr", None, 3),
    ("confirmed", "monthly_6_0apr", None, 45),
    ("opened", None, None, 0),
    ("declined", None, None, 5),
    ("expired", None, None, 60),
)


def _seed_tx(s: SeedContext, chk: Checkout, program: Program, status: TxStatus, when: dt.datetime) -> Transaction:
    """A transaction in ``status`` with the events that led there."""
    captured = {"authorized": 0, "voided": 0, "partially_captured": chk.total // 2}.get(status, chk.total)
    refunded = chk.total // 4 if status == "partially_refunded" else 0
    tx = s.create(
        Transaction,
        checkout_id=chk.id,
        order_id=chk.order_id,
        customer_email=chk.customer_email,
        financing_program=program,
        amount=chk.total,
        amount_captured=captured,
        amount_refunded=refunded,
        status=status,
        authorization_expiration=when + AUTH_DAYS,
        created_at=when,
        updated_at=when,
    )
    rate = MERCHANT_FEE[program]
    steps: list[tuple[Any, int, int]] = [("auth", chk.total, 0)]
    if captured:
        steps.append(("capture" if captured == chk.total else "partial_capture", captured, percent_of(captured, rate)))
    if refunded:
        steps.append(("refund", refunded, -percent_of(refunded, rate)))
    if status == "voided":
        steps.append(("void", chk.total, 0))
    for k, (kind, amount, fee) in enumerate(steps):
        s.create(Event, transaction_id=tx.id, type=kind, amount=amount, fee=fee, created_at=when + dt.timedelta(days=k))
    return tx


@service.seeder
def seed(s: SeedContext) -> None:
    """Checkouts in every status for consumers' orders, transactions with their events, a settlement, disputes."""
    products = s.population.products
    txs = []
    for k, (status, program, tx_status, days) in enumerate(PLAN):
        p = s.population.consumers[k]
        picks = [products[(3 * k + j) % len(products)] for j in range(1 + k % 3)]
        items = tuple(
            Item(sku=i.sku, display_name=i.name, unit_price=i.price_cents, qty=1 + (k + j) % 2)
            for j, i in enumerate(picks)
        )
        sub = sum(i.unit_price * i.qty for i in items)
        ship, tax = 1500, percent_of(sub, 8.25)
        total = max(sub + ship + tax, MIN_TOTAL)
        when = s.ago(days=days)
        chk = s.create(
            Checkout,
            order_id=f"SO-{48100 + k}",
            customer_name=p.name,
            customer_email=p.email,
            items=items,
            shipping_amount=ship,
            tax_amount=total - sub - ship,
            total=total,
            status=status,
            financing_program=program,
            confirmed_at=when if program else None,
            links_sent=1 if status != "declined" else 2,
            created_at=when - dt.timedelta(hours=2),
        )
        if tx_status is not None and program is not None:
            txs.append(_seed_tx(s, chk, program, tx_status, when))
    old = [e for e in s.records(Event) if e.type in ("capture", "refund") and e.created_at < s.ago(days=20)]
    gross = sum(e.amount for e in old if e.type == "capture")
    refunds = sum(e.amount for e in old if e.type == "refund")
    fees = sum(e.fee for e in old)
    stl = s.create(
        Settlement,
        gross_captures=gross,
        refunds=refunds,
        fees=fees,
        net=gross - refunds - fees,
        event_count=len(old),
        status="paid",
        created_at=s.ago(days=19),
    )
    for e in old:
        s.update(e, settlement_id=stl.id)
    s.create(
        Dispute,
        transaction_id=txs[0].id,
        reason="item_not_as_described",
        amount=txs[0].amount // 2,
        respond_by=(s.now + dt.timedelta(days=9)).date(),
        created_at=s.ago(days=5),
    )
    s.create(
        Dispute,
        transaction_id=txs[1].id,
        reason="item_not_received",
        amount=txs[1].amount // 2,
        status="under_review",
        respond_by=(s.now + dt.timedelta(days=2)).date(),
        created_at=s.ago(days=8),
        evidence="UPS tracking shows delivery to the front door on the promised day.",
    )
