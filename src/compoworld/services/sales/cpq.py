"""Tally Quotes: products, price books, quotes with line items, discount approvals and e-signed acceptance.

Modeled on Salesforce CPQ (SBQQ__Quote__c, SBQQ__QuoteLine__c, Pricebook2 and
PricebookEntry over the REST API v60) and the HubSpot Quotes API v3. A quote
draws its prices from one price book, whose currency it takes; lines can be
added or removed only while it is a draft, only for active products with an
active entry in that price book, each product once. Submitting a draft with
at least one line approves it at once when no line is discounted above 15 %;
deeper discounts (up to the 40 % ceiling) wait in pending_approval for a
sales manager (above 15 %) or for Finance (above 30 %), and nobody approves
their own quote. An approved quote is sent to its buyer contact, who accepts
it by e-signature (only the buyer on the quote may sign) or declines it; a
quote past its expiry date cannot be submitted, sent or accepted and is swept
to expired. Quote numbers come from one sequence (Q-00001 …); a draft or a
quote recalled to draft is the only one that can be edited.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    Percent,
    PersonName,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "cpq",
    title="Tally Quotes",
    category="quoting",
    modeled_on="Salesforce CPQ (SBQQ__Quote__c, SBQQ__QuoteLine__c, Pricebook2, PricebookEntry; REST API v60) "
    "and HubSpot Quotes API v3 (quote status, expiration date, e-signature)",
    description="Configure, price, quote: the company's products and price books by currency, quotes for "
    "customer accounts with line items and discounts, discount approvals, sending to the buyer and "
    "e-signed acceptance, expiry.",
)

ProductId = Annotated[str, IdOf("cpq.product")]
PriceBookId = Annotated[str, IdOf("cpq.price_book")]
EntryId = Annotated[str, IdOf("cpq.price_book_entry")]
QuoteId = Annotated[str, IdOf("cpq.quote")]
LineId = Annotated[str, IdOf("cpq.quote_line")]
QuoteNumber = Annotated[str, StringConstraints(pattern=r"^Q-[0-9]{5,}$")]
"""A quote number from the company's sequence, e.g. Q-00042."""

QuoteStatus = Literal["draft", "pending_approval", "approved", "sent", "accepted", "declined", "expired"]
ApprovalLevel = Literal["none", "manager", "finance"]

AUTO_APPROVE = 15.0
"""The deepest line discount (percent) that needs no approval."""
FINANCE_LEVEL = 30.0
"""Above this line discount (percent) only Finance may approve."""
MAX_DISCOUNT = 40.0
"""No line may be discounted deeper than this (percent)."""
MAX_VALIDITY = dt.timedelta(days=180)
"""How far ahead a quote's expiry date may lie."""
MAX_QUANTITY = 10_000
EUR_RATE = 0.92
"""Euro list prices are the dollar list prices times this, rounded to whole euros."""
OPEN: tuple[str, ...] = ("draft", "pending_approval", "approved", "sent")


class Product(Created):
    """A product the company sells."""

    id: ProductId
    sku: Sku
    """Stock-keeping unit, unique."""
    name: Title
    """Product name as it appears on quotes."""
    family: str
    """Product family (the catalogue category)."""
    active: bool = True
    """Whether it can be added to quotes."""


class PriceBook(Created):
    """A list of prices in one currency."""

    id: PriceBookId
    name: Title
    """Price book name."""
    currency: Currency
    """The currency of every price in it and of every quote priced from it."""
    is_standard: bool = False
    """Whether it is the standard price book."""
    active: bool = True
    """Whether new quotes can use it."""


class PriceBookEntry(Created):
    """A product's list price in one price book."""

    id: EntryId
    price_book_id: PriceBookId
    """The price book."""
    product_id: ProductId
    """The product."""
    sku: Sku
    """The product's SKU."""
    unit_price: Cents
    """List price per unit, in cents of the price book's currency."""
    currency: Currency
    """The price book's currency."""
    active: bool = True
    """Whether the price can be quoted."""


class Quote(Record):
    """A priced offer to a customer account, with its approval and signature state."""

    id: QuoteId
    quote_number: Annotated[QuoteNumber, Generated("sequence", "Q-{n:05d}")]
    """The quote number (Q-00001 …), assigned in sequence."""
    name: Title
    """Quote title."""
    account_name: CompanyName
    """The customer company the quote is for."""
    buyer_name: PersonName
    """The buyer contact who receives and signs the quote."""
    buyer_email: Email
    """The buyer contact's e-mail; only this address may sign."""
    owner_email: Email
    """The sales rep (a company employee) who owns the quote."""
    price_book_id: PriceBookId
    """The price book its prices come from."""
    currency: Currency = "USD"
    """The quote's currency (the price book's)."""
    status: QuoteStatus = "draft"
    """draft, pending_approval, approved, sent, accepted, declined or expired."""
    expiration_date: Date
    """The last day the buyer may accept it."""
    subtotal: Cents = 0
    """Sum of quantity × list price over the lines, in cents."""
    discount_total: Cents = 0
    """Sum of the lines' discounts, in cents."""
    total: Cents = 0
    """What the buyer pays: subtotal less discounts, in cents."""
    max_discount_percent: Percent = 0.0
    """The deepest line discount."""
    approval_level: ApprovalLevel = "none"
    """Who must approve it: none (15 % or less), manager (up to 30 %) or finance (above)."""
    approver_email: Email | None = None
    """Who approved it."""
    approval_note: Text = ""
    """The approver's or rejecter's comment."""
    sent_at: DateTime | None = None
    """When it was sent to the buyer."""
    signer_name: PersonName | None = None
    """Who e-signed the acceptance."""
    signer_email: Email | None = None
    """The e-mail the acceptance was signed with."""
    accepted_at: DateTime | None = None
    """When it was accepted."""
    decline_reason: Text = ""
    """Why the buyer declined."""
    notes: Text = ""
    """Terms and notes printed on the quote."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class QuoteLine(Created):
    """One product on a quote, priced from the quote's price book."""

    id: LineId
    quote_id: QuoteId
    """The quote."""
    product_id: ProductId
    """The product."""
    sku: Sku
    """The product's SKU."""
    product_name: Title
    """The product's name."""
    quantity: int
    """Units, 1 to 10,000."""
    unit_price: Cents
    """List price per unit from the price book, in cents."""
    discount_percent: Percent = 0.0
    """Discount on this line, at most 40 %."""
    net_total: Cents
    """quantity × unit price less the discount, in cents."""


# -- rules ------------------------------------------------------------------------------------


def _staff_emails(ctx: Ctx, *departments: str) -> set[str]:
    people = ctx.population.employees
    return {p.email for p in people if not departments or p.department in departments}


def _validity(ctx: Ctx, day: dt.date, field: str) -> None:
    today = ctx.today()
    if day < today:
        raise RuleViolation(f"expiration date {day} is in the past", field=field, hint=f"pick a day from {today} on")
    if day > today + MAX_VALIDITY:
        raise RuleViolation(
            f"a quote may be valid for at most 180 days ({today + MAX_VALIDITY})",
            field=field,
            hint="pick an earlier expiration date",
        )


def _guard_quote_create(ctx: Ctx, new: Any, old: Any) -> None:
    book = ctx.get(PriceBook, new.price_book_id, field="price_book_id")
    if not book.active:
        raise RuleViolation(
            f"price book {book.name} is inactive", field="price_book_id", hint="price the quote from an active book"
        )
    if new.owner_email not in _staff_emails(ctx):
        raise RuleViolation(
            f"{new.owner_email} is not a company employee", field="owner_email", hint="a sales rep must own the quote"
        )
    if new.buyer_email in _staff_emails(ctx):
        raise RuleViolation(
            f"{new.buyer_email} is a company employee, not a buyer",
            field="buyer_email",
            hint="address the quote to the customer's contact",
        )
    _validity(ctx, new.expiration_date, "expiration_date")
    ctx.update(new, currency=book.currency)


def _guard_quote_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft" and new.status == old.status:
        raise RuleViolation(
            f"quote {old.quote_number} is {old.status}; only drafts can be edited",
            field="quote_id",
            hint="recall it to draft with cpq__recall_quote first"
            if old.status in ("pending_approval", "approved")
            else "create a new quote",
        )
    if new.status == old.status and new.expiration_date != old.expiration_date:
        _validity(ctx, new.expiration_date, "expiration_date")
    if new.status == "draft" and old.status != "draft":
        ctx.update(new, approver_email=None, approval_level="none", approval_note="recalled to draft")


def _draft(ctx: Ctx, quote_id: str) -> Quote:
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "draft":
        raise RuleViolation(
            f"quote {quote.quote_number} is {quote.status}; lines change only on drafts",
            field="quote_id",
            hint="recall it to draft with cpq__recall_quote"
            if quote.status in ("pending_approval", "approved")
            else "create a new quote",
        )
    return quote


def _not_expired(ctx: Ctx, quote: Quote) -> None:
    if quote.expiration_date < ctx.today():
        raise RuleViolation(
            f"quote {quote.quote_number} expired on {quote.expiration_date}",
            field="quote_id",
            hint="sweep it with cpq__expire_quotes and create a new quote"
            if quote.status != "draft"
            else "move its expiration date with cpq__update_quote",
        )


def _net(quantity: int, unit_price: int, discount: float) -> tuple[int, int]:
    gross = quantity * unit_price
    off = round(gross * discount / 100)
    return gross, off


def _level(discount: float) -> ApprovalLevel:
    if discount <= AUTO_APPROVE:
        return "none"
    return "manager" if discount <= FINANCE_LEVEL else "finance"


def _retotal(ctx: Ctx, quote: Quote) -> Quote:
    lines = ctx.where(QuoteLine, quote_id=quote.id)
    subtotal = off = 0
    for line in lines:
        gross, cut = _net(line.quantity, line.unit_price, line.discount_percent)
        subtotal += gross
        off += cut
    deepest = max((line.discount_percent for line in lines), default=0.0)
    return ctx.update(quote, subtotal=subtotal, discount_total=off, total=subtotal - off, max_discount_percent=deepest)


products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prod",
    create=False,
    get=False,
    filters=("sku", "family", "active"),
    search=("name", "sku"),
    delete=False,
)
price_books = service.resource(
    PriceBook,
    name="price_book",
    plural="price_books",
    prefix="pb",
    create=False,
    get=False,
    filters=("currency", "active", "is_standard"),
    search=("name",),
    delete=False,
    title="price book",
)
entries = service.resource(
    PriceBookEntry,
    name="price_book_entry",
    plural="price_book_entries",
    prefix="pbe",
    create=False,
    get=False,
    filters=("price_book_id", "product_id", "sku", "active"),
    delete=False,
    title="price book entry",
)
quotes = service.resource(
    Quote,
    name="quote",
    plural="quotes",
    prefix="qt",
    create=(
        "name",
        "account_name",
        "buyer_name",
        "buyer_email",
        "owner_email",
        "price_book_id",
        "expiration_date",
        "notes",
    ),
    filters=(
        "status",
        "approval_level",
        "quote_number",
        "account_name",
        "buyer_email",
        "owner_email",
        "price_book_id",
        "currency",
    ),
    search=("name", "account_name", "quote_number"),
    update=("name", "buyer_name", "buyer_email", "expiration_date", "notes"),
    delete=False,
    transitions={
        "recall": Transition(
            "status",
            ("pending_approval", "approved"),
            "draft",
            "recall the quote to draft",
            description="Recall a quote waiting for approval or approved but not yet sent back to draft, so that "
            "its lines and terms can change; its approval is dropped and it must be submitted again.",
        )
    },
    guard_create=_guard_quote_create,
    guard_update=_guard_quote_update,
)
lines = service.resource(
    QuoteLine,
    name="quote_line",
    plural="quote_lines",
    prefix="ql",
    create=False,
    get=False,
    filters=("quote_id", "product_id", "sku"),
    delete=False,
    title="quote line",
)


# -- examples ---------------------------------------------------------------------------------


def _example_add_line(ctx: Ctx) -> dict[str, Any] | None:
    for quote in ctx.where(Quote, status="draft"):
        if quote.expiration_date < ctx.today():
            continue
        taken = {line.product_id for line in ctx.where(QuoteLine, quote_id=quote.id)}
        for entry in ctx.where(PriceBookEntry, price_book_id=quote.price_book_id, active=True):
            product = ctx.get(Product, entry.product_id)
            if product.active and product.id not in taken:
                return {"quote_id": quote.id, "product_id": product.id, "quantity": 3, "discount_percent": 10.0}
    return None


def _example_remove_line(ctx: Ctx) -> dict[str, Any] | None:
    for quote in ctx.where(Quote, status="draft"):
        line = ctx.first(QuoteLine, quote_id=quote.id)
        if line is not None:
            return {"quote_line_id": line.id}
    return None


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for quote in ctx.where(Quote, status="draft"):
        if quote.expiration_date >= ctx.today() and ctx.first(QuoteLine, quote_id=quote.id) is not None:
            return {"quote_id": quote.id}
    return None


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for quote in ctx.where(Quote, status="pending_approval"):
        pool = _staff_emails(ctx, "Finance") if quote.approval_level == "finance" else _staff_emails(ctx)
        for email in sorted(pool - {quote.owner_email}):
            return {"quote_id": quote.id, "approver_email": email, "note": "Multi-year commitment justifies it."}
    return None


def _example_reject(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_approve(ctx)
    return None if found is None else {**found, "note": "Discount too deep for a one-year term."}


def _example_live(status: str, **extra: Any) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        for quote in ctx.where(Quote, status=status):
            if quote.expiration_date >= ctx.today():
                return {"quote_id": quote.id, **extra}
        return None

    return example


def _example_accept(ctx: Ctx) -> dict[str, Any] | None:
    for quote in ctx.where(Quote, status="sent"):
        if quote.expiration_date >= ctx.today():
            return {"quote_id": quote.id, "signer_name": quote.buyer_name, "signer_email": quote.buyer_email}
    return None


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="add a product to the quote", write=True, example=_example_add_line)
def add_quote_line(
    ctx: Ctx, quote_id: QuoteId, product_id: ProductId, quantity: int, discount_percent: Percent = 0.0
) -> QuoteLine:
    """Add a product to a draft quote at its list price in the quote's price book.

    The product must be active and have an active entry in the quote's price
    book; each product appears once per quote; quantity is 1 to 10,000; no
    line may be discounted above 40 %. The quote's totals are recomputed.

    Args:
        quote_id: The draft quote.
        product_id: The product.
        quantity: Units.
        discount_percent: Discount on the line, 0 to 40.
    """
    quote = _draft(ctx, quote_id)
    product = ctx.get(Product, product_id, field="product_id")
    if not product.active:
        raise RuleViolation(f"product {product.sku} is inactive", field="product_id", hint="quote an active product")
    entry = ctx.first(PriceBookEntry, price_book_id=quote.price_book_id, product_id=product.id)
    if entry is None or not entry.active:
        raise RuleViolation(
            f"product {product.sku} has no active price in the quote's price book",
            field="product_id",
            hint="list cpq__list_price_book_entries for the quote's price book",
        )
    if not 1 <= quantity <= MAX_QUANTITY:
        raise RuleViolation("quantity must be 1 to 10,000", field="quantity", hint="quote at least one unit")
    if discount_percent > MAX_DISCOUNT:
        raise RuleViolation(
            f"a line discount may be at most {MAX_DISCOUNT:.0f} %",
            field="discount_percent",
            hint="lower the discount; deeper deals need a custom price book",
        )
    existing = ctx.first(QuoteLine, quote_id=quote.id, product_id=product.id)
    if existing is not None:
        raise Conflict(
            f"product {product.sku} is already on quote {quote.quote_number} ({existing.id})",
            field="product_id",
            hint="remove that line with cpq__remove_quote_line and add it again with the new quantity",
        )
    gross, off = _net(quantity, entry.unit_price, discount_percent)
    line = ctx.create(
        QuoteLine,
        quote_id=quote.id,
        product_id=product.id,
        sku=product.sku,
        product_name=product.name,
        quantity=quantity,
        unit_price=entry.unit_price,
        discount_percent=discount_percent,
        net_total=gross - off,
    )
    _retotal(ctx, quote)
    return line


@service.tool(intent="remove the line from the quote", write=True, destructive=True, example=_example_remove_line)
def remove_quote_line(ctx: Ctx, quote_line_id: LineId) -> Quote:
    """Remove a line from a draft quote and recompute its totals.

    Args:
        quote_line_id: The line.
    """
    line = ctx.get(QuoteLine, quote_line_id, field="quote_line_id")
    quote = ctx.get(Quote, line.quote_id)
    if quote.status != "draft":
        raise RuleViolation(
            f"quote {quote.quote_number} is {quote.status}; lines change only on drafts",
            field="quote_line_id",
            hint="recall the quote to draft with cpq__recall_quote first",
        )
    ctx.delete(line)
    return _retotal(ctx, quote)


@service.tool(intent="submit the quote for approval", write=True, example=_example_submit)
def submit_quote(ctx: Ctx, quote_id: QuoteId) -> Quote:
    """Submit a draft: approved at once when no line is discounted above 15 %, else pending approval.

    Discounts above 15 % need a sales manager's approval, above 30 % Finance's.
    A quote needs at least one line and an expiration date not yet passed.

    Args:
        quote_id: The draft quote.
    """
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "draft":
        raise Conflict(
            f"quote {quote.quote_number} is already {quote.status}",
            field="quote_id",
            hint="only drafts are submitted",
        )
    if ctx.first(QuoteLine, quote_id=quote.id) is None:
        raise RuleViolation(
            f"quote {quote.quote_number} has no lines", field="quote_id", hint="add products with cpq__add_quote_line"
        )
    _not_expired(ctx, quote)
    level = _level(quote.max_discount_percent)
    status: QuoteStatus = "approved" if level == "none" else "pending_approval"
    return ctx.update(quote, status=status, approval_level=level, approver_email=None, approval_note="")


def _pending(ctx: Ctx, quote_id: str, approver_email: str) -> Quote:
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "pending_approval":
        raise RuleViolation(
            f"quote {quote.quote_number} is {quote.status}, not pending approval",
            field="quote_id",
            hint="submit it with cpq__submit_quote first" if quote.status == "draft" else "nothing to decide",
        )
    if approver_email == quote.owner_email:
        raise RuleViolation(
            f"{approver_email} owns quote {quote.quote_number} and cannot decide on it",
            field="approver_email",
            hint="another manager must approve",
        )
    if approver_email not in _staff_emails(ctx):
        raise RuleViolation(
            f"{approver_email} is not a company employee", field="approver_email", hint="a manager must approve"
        )
    if quote.approval_level == "finance" and approver_email not in _staff_emails(ctx, "Finance"):
        raise RuleViolation(
            f"a {quote.max_discount_percent:g} % discount needs Finance's approval",
            field="approver_email",
            hint="ask someone in the Finance department",
        )
    return quote


@service.tool(intent="approve the discounted quote", write=True, example=_example_approve)
def approve_quote(ctx: Ctx, quote_id: QuoteId, approver_email: Email, note: Text = "") -> Quote:
    """Approve a quote waiting for discount approval.

    The approver is a company employee other than the quote's owner; above
    30 % the approver must work in Finance.

    Args:
        quote_id: The quote.
        approver_email: The approving employee's e-mail.
        note: A comment.
    """
    quote = _pending(ctx, quote_id, approver_email)
    return ctx.update(quote, status="approved", approver_email=approver_email, approval_note=note)


@service.tool(
    intent="reject the discounted quote",
    write=True,
    example=_example_reject,
)
def reject_quote(ctx: Ctx, quote_id: QuoteId, approver_email: Email, note: Text) -> Quote:
    """Reject a quote waiting for approval: it goes back to draft with the reason.

    Args:
        quote_id: The quote.
        approver_email: The rejecting employee's e-mail (not the owner).
        note: Why, so the rep can rework the discount.
    """
    if not note.strip():
        raise RuleViolation("a rejection needs a reason", field="note", hint="say what to change")
    quote = _pending(ctx, quote_id, approver_email)
    return ctx.update(quote, status="draft", approval_level="none", approver_email=None, approval_note=note)


@service.tool(intent="send the quote to the buyer", write=True, example=_example_live("approved"))
def send_quote(ctx: Ctx, quote_id: QuoteId) -> Quote:
    """Send an approved quote to its buyer contact for e-signature.

    Args:
        quote_id: The approved quote.
    """
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "approved":
        raise RuleViolation(
            f"quote {quote.quote_number} is {quote.status}; only approved quotes are sent",
            field="quote_id",
            hint="submit it with cpq__submit_quote" if quote.status == "draft" else "it cannot be sent now",
        )
    _not_expired(ctx, quote)
    return ctx.update(quote, status="sent", sent_at=ctx.now())


@service.tool(intent="accept the quote by e-signature as the buyer", write=True, example=_example_accept)
def accept_quote(ctx: Ctx, quote_id: QuoteId, signer_name: PersonName, signer_email: Email) -> Quote:
    """Record the buyer's e-signed acceptance of a sent quote.

    Only the buyer contact on the quote may sign, on or before the expiration date.

    Args:
        quote_id: The sent quote.
        signer_name: The signer's full name.
        signer_email: The signer's e-mail; must be the quote's buyer e-mail.
    """
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "sent":
        raise RuleViolation(
            f"quote {quote.quote_number} is {quote.status}; only sent quotes can be accepted",
            field="quote_id",
            hint="send it with cpq__send_quote" if quote.status == "approved" else "it cannot be accepted",
        )
    if signer_email.lower() != quote.buyer_email.lower():
        raise RuleViolation(
            f"{signer_email} is not the buyer on quote {quote.quote_number}",
            field="signer_email",
            hint=f"only {quote.buyer_email} may sign",
        )
    _not_expired(ctx, quote)
    return ctx.update(
        quote, status="accepted", signer_name=signer_name, signer_email=signer_email, accepted_at=ctx.now()
    )


@service.tool(
    intent="decline the quote as the buyer",
    write=True,
    example=first_example(Quote, "quote_id", where={"status": "sent"}, reason="Budget moved to next year."),
)
def decline_quote(ctx: Ctx, quote_id: QuoteId, reason: Text) -> Quote:
    """Record that the buyer declined a sent quote.

    Args:
        quote_id: The sent quote.
        reason: Why the buyer declined.
    """
    quote = ctx.get(Quote, quote_id, field="quote_id")
    if quote.status != "sent":
        raise RuleViolation(
            f"quote {quote.quote_number} is {quote.status}; only sent quotes can be declined",
            field="quote_id",
            hint="recall an unsent quote with cpq__recall_quote instead",
        )
    if not reason.strip():
        raise RuleViolation("a decline needs a reason", field="reason", hint="say why the buyer declined")
    return ctx.update(quote, status="declined", decline_reason=reason)


class Expired(BaseModel):
    """What an expiry sweep changed."""

    as_of: Date = Field(description="The day of the sweep.")
    expired: list[Quote] = Field(description="Quotes moved to expired.")


@service.tool(intent="expire quotes past their expiration date", write=True, example=fixed_example())
def expire_quotes(ctx: Ctx) -> Expired:
    """Move every approved, pending or sent quote whose expiration date has passed to expired."""
    today = ctx.today()
    gone = [
        ctx.update(q, status="expired")
        for status in ("pending_approval", "approved", "sent")
        for q in ctx.where(Quote, status=status)
        if q.expiration_date < today
    ]
    return Expired(as_of=today, expired=sorted(gone, key=lambda q: q.id))


# -- seeding ----------------------------------------------------------------------------------

PLAN: tuple[tuple[QuoteStatus, float, int], ...] = (
    ("draft", 10.0, 30),
    ("pending_approval", 25.0, 20),
    ("pending_approval", 35.0, 25),
    ("approved", 5.0, 40),
    ("sent", 12.0, 14),
    ("sent", 0.0, -3),
    ("accepted", 10.0, 10),
    ("declined", 20.0, 20),
    ("expired", 0.0, -20),
    ("draft", 0.0, 60),
)
"""Per customer account in turn: status, line discount and days until expiry."""


@service.seeder
def seed(s: SeedContext) -> None:
    """The population's products in a USD and a EUR book, quotes to customers' buyers in every status."""
    pop = s.population
    usd = s.create(PriceBook, name="Standard Price Book", currency="USD", is_standard=True)
    eur = s.create(PriceBook, name="Europe Price Book", currency="EUR")
    s.create(PriceBook, name="Partner Price Book 2024", currency="USD", active=False)
    books: dict[str, dict[str, PriceBookEntry]] = {usd.id: {}, eur.id: {}}
    catalogue: list[Product] = []
    for k, item in enumerate(pop.products):
        product = s.create(Product, sku=item.sku, name=item.name, family=item.category, active=k % 9 != 8)
        catalogue.append(product)
        books[usd.id][product.id] = s.create(
            PriceBookEntry,
            price_book_id=usd.id,
            product_id=product.id,
            sku=product.sku,
            unit_price=item.price_cents,
            currency="USD",
        )
        if k % 4 != 3:
            books[eur.id][product.id] = s.create(
                PriceBookEntry,
                price_book_id=eur.id,
                product_id=product.id,
                sku=product.sku,
                unit_price=round(item.price_cents * EUR_RATE / 100) * 100,
                currency="EUR",
                active=k % 7 != 6,
            )
    reps = pop.staff("Sales", fallback=3)
    finance = pop.staff("Finance", fallback=1)
    for n, company in enumerate(pop.customers):
        buyer = pop.first_contact(company)
        if buyer is None:
            continue
        status, discount, days = PLAN[n % len(PLAN)]
        book = eur if company.place.currency == "EUR" else usd
        owner = reps[n % len(reps)]
        sellable = [p for p in catalogue if p.active and p.id in books[book.id] and books[book.id][p.id].active]
        picked = [sellable[(n * 3 + j * 5) % len(sellable)] for j in range(1 + n % 3)] if sellable else []
        picked = list(dict.fromkeys(picked))
        level = _level(discount)
        approver = None
        if status in ("approved", "sent", "accepted", "declined", "expired") and level != "none":
            approver = next(p.email for p in finance + reps if p.email != owner.email)
        created = s.now - dt.timedelta(days=10 + n % 20)
        quote = s.create(
            Quote,
            name=f"{company.name} {('annual order', 'expansion', 'renewal')[n % 3]}",
            account_name=company.name,
            buyer_name=buyer.name,
            buyer_email=buyer.email,
            owner_email=owner.email,
            price_book_id=book.id,
            currency=book.currency,
            status=status,
            expiration_date=s.now.date() + dt.timedelta(days=days),
            approval_level=level if status != "draft" else "none",
            approver_email=approver,
            sent_at=created + dt.timedelta(days=2) if status in ("sent", "accepted", "declined", "expired") else None,
            signer_name=buyer.name if status == "accepted" else None,
            signer_email=buyer.email if status == "accepted" else None,
            accepted_at=created + dt.timedelta(days=5) if status == "accepted" else None,
            decline_reason="Chose a cheaper offer." if status == "declined" else "",
            created_at=created,
            updated_at=created + dt.timedelta(days=2),
        )
        subtotal = off = 0
        for j, product in enumerate(picked):
            entry = books[book.id][product.id]
            qty = 1 + (n + j) % 12
            gross, cut = _net(qty, entry.unit_price, discount)
            subtotal += gross
            off += cut
            s.create(
                QuoteLine,
                quote_id=quote.id,
                product_id=product.id,
                sku=product.sku,
                product_name=product.name,
                quantity=qty,
                unit_price=entry.unit_price,
                discount_percent=discount,
                net_total=gross - cut,
                created_at=created,
            )
        s.update(
            quote,
            subtotal=subtotal,
            discount_total=off,
            total=subtotal - off,
            max_discount_percent=discount if picked else 0.0,
        )
