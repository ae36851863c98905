"""Ridgeway Cards: corporate cards with spend limits, card transactions, receipts and merchant category blocks.

Modeled on the Brex Team and Transactions APIs (Users, Cards with spend
controls, card transactions, receipts, lock/unlock/terminate) and Ramp's card
program controls (limit intervals, blocked merchant categories): a purchase is
declined on a locked or terminated card, in a blocked merchant category, or
above what is left of the card's limit for its interval; a physical card needs
a shipping address and a cardholder has one physical card; a limit cannot be
lowered below what was already spent; a settled amount may differ from the
authorization by at most 20% (tips); refunds never exceed what was charged;
terminated cards are final; purchases above the receipt threshold need a
receipt.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    PersonName,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.world.org import department_of, org_chart

__all__ = ["service"]

service = Service(
    "cards",
    title="Ridgeway Cards",
    category="expenses",
    modeled_on="Brex Team & Transactions API (Users, Cards, spend controls, card transactions, receipts, "
    "lock/unlock/terminate) with Ramp card program controls",
    description="Corporate card spend management: employees' virtual and physical cards with spend limits per "
    "interval and blocked merchant categories, card purchases, tips and refunds, receipts and missing-receipt "
    "follow-up.",
)

CardholderId = Annotated[str, IdOf("cards.cardholder")]
CardId = Annotated[str, IdOf("cards.card")]
TransactionId = Annotated[str, IdOf("cards.card_transaction")]

MerchantCategory = Literal[
    "airlines",
    "lodging",
    "restaurants",
    "ground_transport",
    "software",
    "office_supplies",
    "advertising",
    "entertainment",
    "gambling",
    "cash_advance",
    "other",
]
LimitPeriod = Literal["per_transaction", "monthly", "yearly", "one_time"]
CardStatus = Literal["active", "locked", "terminated"]
LastFour = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
RECEIPT_OVER = 75_00
"""Purchases above this amount (cents) need a receipt."""
MAX_LIMIT = 50_000_00
"""The largest limit a single card may have (cents)."""
TIP_TOLERANCE = 0.20
DEFAULT_BLOCKS: tuple[MerchantCategory, ...] = ("gambling", "cash_advance")


class Cardholder(Record):
    """An employee enrolled in the card program."""

    id: CardholderId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    department: Text = ""
    """Department."""
    manager_email: Email | None = None
    """E-mail of their manager, who reviews their spend."""
    status: Literal["active", "disabled"] = "active"
    """Disabled cardholders hold no usable cards."""
    created_at: Annotated[DateTime, CREATED]
    """When they were enrolled."""


class Card(Record):
    """A corporate card and its spend controls."""

    id: CardId
    cardholder_id: CardholderId
    """The cardholder."""
    cardholder_email: Email
    """The cardholder's e-mail."""
    card_name: Title
    """What the card is for (e.g. "Software subscriptions")."""
    card_type: Literal["virtual", "physical"]
    """virtual or physical."""
    last_four: LastFour
    """Last four digits of the card number."""
    status: CardStatus = "active"
    """active, locked (temporarily frozen) or terminated (final)."""
    spend_limit: Cents
    """Limit in cents for each limit period."""
    limit_period: LimitPeriod
    """per_transaction, monthly, yearly or one_time (for the card's life)."""
    spent: Cents = 0
    """Spent in the current period in cents (pending and settled, less refunds)."""
    blocked_categories: list[MerchantCategory] = Field(default_factory=list, max_length=11)
    """Merchant categories the card is declined in."""
    currency: Currency
    """Currency of the limit."""
    shipping_address: PostalAddress | None = None
    """Where a physical card is sent."""
    expiration: Date
    """Expiry date."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class CardTransaction(Record):
    """A purchase made with a card."""

    id: TransactionId
    card_id: CardId
    """The card."""
    cardholder_email: Email
    """The cardholder's e-mail."""
    merchant: CompanyName
    """Merchant name."""
    category: MerchantCategory
    """Merchant category."""
    amount: Cents
    """Amount charged in cents (the authorization while pending)."""
    currency: Currency
    """Currency."""
    status: Literal["pending", "settled", "refunded"]
    """pending (authorized), settled, or refunded (entirely)."""
    refunded_amount: Cents = 0
    """Refunded so far in cents."""
    date: Date
    """Purchase date."""
    receipt_url: FileLink | None = None
    """Link to the receipt."""
    memo: Text = ""
    """What it was for."""
    created_at: Annotated[DateTime, CREATED]
    """When it was authorized."""


# -- rules ------------------------------------------------------------------------------------


def _guard_cardholder(ctx: Ctx, new: Any, old: Any) -> None:
    if new.manager_email is not None and new.manager_email == new.email:
        raise RuleViolation(
            "a cardholder cannot be their own manager", field="manager_email", hint="give someone else's e-mail"
        )
    if old is not None and old.status == "active" and new.status == "disabled":
        live = [c for c in ctx.where(Card, cardholder_id=old.id) if c.status != "terminated"]
        if live:
            raise RuleViolation(
                f"{old.email} still holds {len(live)} card(s) that are not terminated",
                field="status",
                hint="terminate their cards with cards__terminate_card first",
            )


def _guard_card(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "terminated":
        raise RuleViolation(f"card {old.card_name} is terminated", field="card_id", hint="terminated cards are final")
    if new.status == "active" and old.status == "locked":
        holder = ctx.get(Cardholder, new.cardholder_id)
        if holder.status != "active":
            raise RuleViolation(
                f"cardholder {holder.email} is disabled", field="card_id", hint="re-enable the cardholder first"
            )
    missing = [c for c in DEFAULT_BLOCKS if c not in new.blocked_categories]
    if missing:
        raise RuleViolation(
            f"{', '.join(missing)} must stay blocked on every card",
            field="blocked_categories",
            hint=f"keep {', '.join(DEFAULT_BLOCKS)} in the list",
        )
    if len(set(new.blocked_categories)) != len(new.blocked_categories):
        raise RuleViolation("a category is blocked twice", field="blocked_categories", hint="list each category once")


def _usable(ctx: Ctx, card_id: str, field: str) -> Card:
    card = ctx.get(Card, card_id, field=field)
    if card.status != "active":
        hint = "unlock it with cards__unlock_card" if card.status == "locked" else "terminated cards are final"
        raise RuleViolation(f"card {card.card_name} (…{card.last_four}) is {card.status}", field=field, hint=hint)
    return card


def _enrolled(ctx: Ctx, cardholder_email: str) -> Cardholder:
    holder = ctx.first(Cardholder, email=cardholder_email)
    if holder is None:
        raise RuleViolation(
            f"{cardholder_email} is not in the card program",
            field="cardholder_email",
            hint="list cardholders with cards__list_cardholders",
        )
    return holder


def _check_limit(spend_limit: int) -> None:
    if not 0 < spend_limit <= MAX_LIMIT:
        raise RuleViolation(
            f"a card limit is between 1 and {MAX_LIMIT}", field="spend_limit", hint="choose a limit in that range"
        )


def _remaining(card: Card) -> int:
    if card.limit_period == "per_transaction":
        return card.spend_limit
    return max(0, card.spend_limit - card.spent)


cardholders = service.resource(
    Cardholder,
    name="cardholder",
    plural="cardholders",
    prefix="usr",
    create=("name", "email", "department", "manager_email"),
    filters=("email", "manager_email", "status"),
    search=("name", "email", "department"),
    update=("department", "manager_email", "status"),
    delete=False,
    unique=("email",),
    guard_create=_guard_cardholder,
    guard_update=_guard_cardholder,
)
cards = service.resource(
    Card,
    name="card",
    plural="cards",
    prefix="card",
    create=False,
    filters=("cardholder_id", "cardholder_email", "status", "card_type", "limit_period", "last_four"),
    search=("card_name",),
    update=("card_name", "blocked_categories"),
    delete=False,
    transitions={
        "lock": Transition("status", ("active",), "locked", "lock the card"),
        "unlock": Transition("status", ("locked",), "active", "unlock the card"),
        "terminate": Transition(
            "status",
            ("active", "locked"),
            "terminated",
            "terminate the card for good",
            description="Terminate a card: sets status to 'terminated'. Terminated cards are final: they cannot be "
            "unlocked, changed or used.",
            destructive=True,
        ),
    },
    guard_update=_guard_card,
    title="corporate card",
)
transactions = service.resource(
    CardTransaction,
    name="card_transaction",
    plural="card_transactions",
    prefix="ctx",
    create=False,
    filters=("card_id", "cardholder_email", "status", "category", "merchant", "date"),
    search=("merchant", "memo"),
    update=("memo",),
    delete=False,
    title="card transaction",
)


# -- examples ---------------------------------------------------------------------------------


def _example_limit(ctx: Ctx) -> dict[str, Any] | None:
    card = ctx.first(Card, status="active", limit_period="monthly")
    return None if card is None else {"card_id": card.id, "spend_limit": card.spend_limit + 500_00}


def _example_refund(ctx: Ctx) -> dict[str, Any] | None:
    tx = ctx.first(CardTransaction, status="settled")
    return None if tx is None else {"card_transaction_id": tx.id, "amount": max(1, tx.amount // 2)}


def _example_receipt(ctx: Ctx) -> dict[str, Any] | None:
    for tx in ctx.where(CardTransaction, status="settled"):
        if tx.receipt_url is None:
            return {"card_transaction_id": tx.id, "receipt_url": f"https://files.example.com/receipts/{tx.id}.pdf"}
    return None


_example_holder_email = first_example(
    CardTransaction,
    match=lambda ctx, t: t.receipt_url is None and t.amount > RECEIPT_OVER,
    fields={"cardholder_email": "cardholder_email"},
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="issue a corporate card to the employee",
    write=True,
    example=first_example(
        Cardholder,
        "cardholder_id",
        where={"status": "active"},
        card_name="Conference travel",
        card_type="virtual",
        spend_limit=2_500_00,
        limit_period="one_time",
    ),
)
def issue_card(
    ctx: Ctx,
    cardholder_id: CardholderId,
    card_name: Title,
    card_type: Literal["virtual", "physical"],
    spend_limit: Cents,
    limit_period: LimitPeriod = "monthly",
    blocked_categories: list[MerchantCategory] | None = None,
    shipping_address: PostalAddress | None = None,
) -> Card:
    """Issue a card to an active cardholder; gambling and cash advances are always blocked.

    A physical card needs a shipping address, and a cardholder holds at most
    one physical card that is not terminated. The limit is positive and at
    most 50,000.00.

    Args:
        cardholder_id: The cardholder.
        card_name: What the card is for.
        card_type: virtual or physical.
        spend_limit: Limit in cents per limit period.
        limit_period: per_transaction, monthly, yearly or one_time.
        blocked_categories: Further merchant categories to decline.
        shipping_address: Where to send a physical card.
    """
    holder = ctx.get(Cardholder, cardholder_id, field="cardholder_id")
    if holder.status != "active":
        raise RuleViolation(
            f"cardholder {holder.email} is disabled", field="cardholder_id", hint="re-enable the cardholder first"
        )
    _check_limit(spend_limit)
    if card_type == "physical":
        if shipping_address is None:
            raise RuleViolation(
                "a physical card needs a shipping address", field="shipping_address", hint="give the address"
            )
        for other in ctx.where(Card, cardholder_id=holder.id, card_type="physical"):
            if other.status != "terminated":
                raise Conflict(
                    f"{holder.email} already has physical card …{other.last_four}",
                    field="card_type",
                    hint="issue a virtual card, or terminate the physical card first",
                )
    blocks = list(dict.fromkeys([*DEFAULT_BLOCKS, *(blocked_categories or [])]))
    n = ctx.next_number(Card, "pan")
    return ctx.create(
        Card,
        cardholder_id=holder.id,
        cardholder_email=holder.email,
        card_name=card_name,
        card_type=card_type,
        last_four=f"{(7919 * n + 4111) % 10_000:04d}",
        spend_limit=spend_limit,
        limit_period=limit_period,
        blocked_categories=blocks,
        currency=ctx.population.home.place.currency,
        shipping_address=shipping_address,
        expiration=ctx.today().replace(day=1) + dt.timedelta(days=3 * 365),
    )


@service.tool(intent="change the card's spend limit", write=True, example=_example_limit)
def set_spend_limit(ctx: Ctx, card_id: CardId, spend_limit: Cents, limit_period: LimitPeriod | None = None) -> Card:
    """Change a card's limit (and optionally its period); it cannot drop below what was already spent.

    Args:
        card_id: The card.
        spend_limit: New limit in cents.
        limit_period: New limit period; omit to keep it.
    """
    card = ctx.get(Card, card_id, field="card_id")
    if card.status == "terminated":
        raise RuleViolation(f"card …{card.last_four} is terminated", field="card_id", hint="terminated cards are final")
    _check_limit(spend_limit)
    period = limit_period or card.limit_period
    if period != "per_transaction" and spend_limit < card.spent:
        raise RuleViolation(
            f"{card.spent} was already spent this period; the limit cannot be {spend_limit}",
            field="spend_limit",
            hint=f"set at least {card.spent}, or lock the card to stop spending",
        )
    return ctx.update(card, spend_limit=spend_limit, limit_period=period)


@service.tool(
    intent="charge a purchase to the card",
    write=True,
    example=first_example(
        Card,
        "card_id",
        where={"status": "active"},
        match=lambda ctx, c: "restaurants" not in c.blocked_categories and _remaining(c) >= 50_00,
        merchant="Cafe Lumen",
        category="restaurants",
        amount=42_50,
    ),
)
def authorize_purchase(
    ctx: Ctx,
    card_id: CardId,
    merchant: CompanyName,
    category: MerchantCategory,
    amount: Cents,
    memo: Text = "",
) -> CardTransaction:
    """Authorize a purchase on a card: it is pending and counts against the limit at once.

    It is declined on a locked or terminated card, in a blocked merchant
    category, or above what is left of the limit (for a per_transaction limit:
    above the limit).

    Args:
        card_id: The card.
        merchant: The merchant.
        category: The merchant's category.
        amount: Amount in cents.
        memo: What it is for.
    """
    card = _usable(ctx, card_id, "card_id")
    if category in card.blocked_categories:
        raise RuleViolation(
            f"declined: {category} merchants are blocked on card …{card.last_four}",
            field="category",
            hint="use another card, or unblock the category with cards__update_card",
        )
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="charge at least one cent")
    left = _remaining(card)
    if amount > left:
        raise RuleViolation(
            f"declined: {amount} is above the {left} left on card …{card.last_four} ({card.limit_period} limit)",
            field="amount",
            hint="raise the limit with cards__set_spend_limit, or use another card",
        )
    ctx.update(card, spent=card.spent + amount)
    return ctx.create(
        CardTransaction,
        card_id=card.id,
        cardholder_email=card.cardholder_email,
        merchant=merchant,
        category=category,
        amount=amount,
        currency=card.currency,
        status="pending",
        date=ctx.today(),
        memo=memo,
    )


@service.tool(
    intent="settle the pending card purchase",
    write=True,
    example=first_example(CardTransaction, "card_transaction_id", where={"status": "pending"}),
)
def settle_transaction(
    ctx: Ctx, card_transaction_id: TransactionId, final_amount: Cents | None = None
) -> CardTransaction:
    """Settle a pending purchase, optionally for a final amount (a tip) within 20% of the authorization.

    Args:
        card_transaction_id: The pending purchase.
        final_amount: The amount the merchant settles in cents; default the authorized amount.
    """
    tx = ctx.get(CardTransaction, card_transaction_id, field="card_transaction_id")
    if tx.status != "pending":
        raise RuleViolation(
            f"the purchase is {tx.status}", field="card_transaction_id", hint="only pending purchases settle"
        )
    final = tx.amount if final_amount is None else final_amount
    if abs(final - tx.amount) > tx.amount * TIP_TOLERANCE:
        raise RuleViolation(
            f"{final} differs from the authorized {tx.amount} by more than 20%",
            field="final_amount",
            hint="settle within 20% of the authorization, or authorize a new purchase",
        )
    if final != tx.amount:
        card = ctx.get(Card, tx.card_id)
        ctx.update(card, spent=max(0, card.spent + final - tx.amount))
    return ctx.update(tx, status="settled", amount=final)


@service.tool(intent="refund the card purchase", write=True, example=_example_refund)
def refund_transaction(ctx: Ctx, card_transaction_id: TransactionId, amount: Cents | None = None) -> CardTransaction:
    """Record a merchant refund of a settled purchase, in full or in part; it frees the card's limit.

    Args:
        card_transaction_id: The settled purchase.
        amount: Refunded amount in cents; default what is left.
    """
    tx = ctx.get(CardTransaction, card_transaction_id, field="card_transaction_id")
    if tx.status != "settled":
        hint = "settle it first" if tx.status == "pending" else "it is already refunded in full"
        raise RuleViolation(f"the purchase is {tx.status}", field="card_transaction_id", hint=hint)
    left = tx.amount - tx.refunded_amount
    refund = left if amount is None else amount
    if not 0 < refund <= left:
        raise RuleViolation(
            f"{refund} cannot be refunded; {left} of the purchase is left",
            field="amount",
            hint=f"refund between 1 and {left}",
        )
    card = ctx.get(Card, tx.card_id)
    ctx.update(card, spent=max(0, card.spent - refund))
    total = tx.refunded_amount + refund
    return ctx.update(tx, refunded_amount=total, status="refunded" if total == tx.amount else "settled")


@service.tool(intent="attach the receipt to the card purchase", write=True, idempotent=True, example=_example_receipt)
def attach_receipt(ctx: Ctx, card_transaction_id: TransactionId, receipt_url: FileLink) -> CardTransaction:
    """Attach a receipt image to a purchase; one receipt cannot serve two purchases.

    Args:
        card_transaction_id: The purchase.
        receipt_url: Link to the stored receipt.
    """
    tx = ctx.get(CardTransaction, card_transaction_id, field="card_transaction_id")
    for other in ctx.where(CardTransaction, receipt_url=receipt_url):
        if other.id != tx.id:
            raise Conflict(
                f"the receipt is already attached to purchase {other.id}",
                field="receipt_url",
                hint="upload the right receipt for this purchase",
            )
    return ctx.update(tx, receipt_url=receipt_url)


class MissingReceipts(BaseModel):
    """Purchases that still need a receipt."""

    cardholder_email: Email = Field(description="The cardholder.")
    manager_email: Email | None = Field(description="Their manager, to escalate to.")
    transactions: list[CardTransaction] = Field(description="Purchases above the threshold without a receipt.")
    total: Cents = Field(description="Sum of those purchases in cents.")


@service.tool(intent="list the cardholder's purchases missing a receipt", example=_example_holder_email)
def missing_receipts(ctx: Ctx, cardholder_email: Email) -> MissingReceipts:
    """List a cardholder's purchases above the receipt threshold (75.00) that have no receipt.

    Args:
        cardholder_email: The cardholder's e-mail.
    """
    holder = _enrolled(ctx, cardholder_email)
    found = [
        t
        for t in ctx.where(CardTransaction, cardholder_email=cardholder_email)
        if t.receipt_url is None and t.amount > RECEIPT_OVER and t.status != "refunded"
    ]
    return MissingReceipts(
        cardholder_email=holder.email,
        manager_email=holder.manager_email,
        transactions=found,
        total=sum(t.amount for t in found),
    )


class CardSpend(BaseModel):
    """One card's spend against its limit."""

    card_id: CardId = Field(description="The card.")
    card_name: Title = Field(description="What it is for.")
    status: CardStatus = Field(description="Card status.")
    spend_limit: Cents = Field(description="Limit in cents.")
    limit_period: LimitPeriod = Field(description="Limit period.")
    spent: Cents = Field(description="Spent this period in cents.")
    remaining: Cents = Field(description="What can still be spent in cents (0 on locked or terminated cards).")


class SpendSummary(BaseModel):
    """A cardholder's cards and spend."""

    cardholder_email: Email = Field(description="The cardholder.")
    name: PersonName = Field(description="Their name.")
    cards: list[CardSpend] = Field(description="Their cards.")
    total_spent: Cents = Field(description="Spent on all their cards this period, in cents.")


@service.tool(intent="see how much the employee has spent on their cards", example=_example_holder_email)
def spend_summary(ctx: Ctx, cardholder_email: Email) -> SpendSummary:
    """Summarise a cardholder's cards: limit, spent and remaining per card.

    Args:
        cardholder_email: The cardholder's e-mail.
    """
    holder = _enrolled(ctx, cardholder_email)
    rows = [
        CardSpend(
            card_id=c.id,
            card_name=c.card_name,
            status=c.status,
            spend_limit=c.spend_limit,
            limit_period=c.limit_period,
            spent=c.spent,
            remaining=_remaining(c) if c.status == "active" else 0,
        )
        for c in ctx.where(Card, cardholder_id=holder.id)
    ]
    return SpendSummary(
        cardholder_email=holder.email, name=holder.name, cards=rows, total_spent=sum(r.spent for r in rows)
    )


# -- seed -------------------------------------------------------------------------------------

PROGRAMS: tuple[tuple[str, LimitPeriod, int, tuple[MerchantCategory, ...]], ...] = (
    ("Software subscriptions", "monthly", 1_500_00, ("entertainment", "lodging", "airlines")),
    ("Travel", "monthly", 6_000_00, ("software", "advertising")),
    ("Team meals", "per_transaction", 400_00, ("airlines", "lodging", "software")),
    ("Office supplies", "monthly", 800_00, ("airlines", "entertainment")),
    ("Ads budget", "yearly", 40_000_00, ("restaurants", "lodging", "entertainment")),
)
MERCHANTS: dict[str, tuple[str, ...]] = {
    "software": ("Cloudware Inc", "Devtools Ltd", "Designly"),
    "airlines": ("Northwind Airways", "Skyline Air"),
    "lodging": ("Harborview Hotel", "Grand Central Suites"),
    "restaurants": ("Cafe Lumen", "Trattoria Verde", "Noodle Bar 88"),
    "office_supplies": ("Paper & Pen Co", "Desk Depot"),
    "advertising": ("Adreach Media", "Searchly Ads"),
    "ground_transport": ("CityCab", "Metro Rail"),
}
PROGRAM_CATEGORIES: dict[str, tuple[MerchantCategory, ...]] = {
    "Software subscriptions": ("software",),
    "Travel": ("airlines", "lodging", "ground_transport", "restaurants"),
    "Team meals": ("restaurants",),
    "Office supplies": ("office_supplies",),
    "Ads budget": ("advertising",),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """The home staff as cardholders (HR's reporting lines), their cards and a month of purchases."""
    pop = s.population
    rng = s.rng
    cur = pop.home.place.currency
    today = s.now.date()
    chart = org_chart(pop.employees)
    pan = 0
    for i, p in enumerate(pop.employees):
        disabled = i % 17 == 16
        manager = chart.manager_of(p)
        holder = s.create(
            Cardholder,
            name=p.name,
            email=p.email,
            department=department_of(p),
            manager_email=manager.email if manager else None,
            status="disabled" if disabled else "active",
            created_at=s.ago(days=200 + i),
        )
        head = chart.is_head(p)
        n_cards = 0 if i % 5 == 4 else 1 + head
        for k in range(n_cards):
            name, period, limit, blocks = PROGRAMS[(i + k * 2) % len(PROGRAMS)]
            physical = k == 0 and head
            pan += 1
            status: CardStatus = "terminated" if disabled else ("locked" if i % 11 == 3 else "active")
            card = s.create(
                Card,
                cardholder_id=holder.id,
                cardholder_email=holder.email,
                card_name=name,
                card_type="physical" if physical else "virtual",
                last_four=f"{(7919 * pan + 1237) % 10_000:04d}",
                status=status,
                spend_limit=limit,
                limit_period=period,
                blocked_categories=[*DEFAULT_BLOCKS, *blocks],
                currency=cur,
                shipping_address=p.address if physical else None,
                expiration=dt.date(today.year + 2 + k, 1 + i % 12, 1),
                updated_at=s.ago(days=30),
            )
            spent = 0
            cap = limit if period == "per_transaction" else limit // 2
            for j in range(rng.randint(1, 5)):
                category = PROGRAM_CATEGORIES[name][j % len(PROGRAM_CATEGORIES[name])]
                amount = rng.randint(8_00, max(9_00, cap // 3))
                if period != "per_transaction" and spent + amount > limit:
                    break
                pending = j == 0 and i % 4 == 0 and status == "active"
                refunded = 0 if pending or j != 2 else amount // 3
                spent += amount - refunded
                s.create(
                    CardTransaction,
                    card_id=card.id,
                    cardholder_email=holder.email,
                    merchant=rng.choice(MERCHANTS[category]),
                    category=category,
                    amount=amount,
                    currency=cur,
                    status="pending" if pending else "settled",
                    refunded_amount=refunded,
                    date=today - dt.timedelta(days=0 if pending else 1 + (i + j) % 27),
                    receipt_url=None
                    if (i + j) % 3 == 0
                    else f"https://files.example.com/card-receipts/{card.id}-{j + 1}.pdf",
                    memo=f"{name}: {category.replace('_', ' ')}",
                    created_at=s.ago(days=0.2 if pending else 1 + (i + j) % 27),
                )
            s.update(card, spent=spent)
