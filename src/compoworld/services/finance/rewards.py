"""Kudoscard Rewards: digital gift cards and payouts sent as incentives, with approvals and fraud review.

Modeled on the Tremendous API: funding sources (prepaid balance topped up by
ACH, or a credit card with a per-order limit), a catalog of products (gift
cards, prepaid Visa, charity donations) with currencies, countries and
denomination limits, campaigns that choose the products a recipient may pick
from, orders that send one reward per recipient (status PENDING_APPROVAL →
EXECUTED or REJECTED), rewards delivered by e-mail or as a link (DELIVERED,
FAILED, REDEEMED, CANCELED), and fraud reviews that hold suspicious rewards
(FLAGGED) until they are released or blocked.

Rules: an order's total must be covered by a balance source, or be within a
card's limit; the value must fit every campaign product's denominations and
currency; orders of 500 USD or more, and those of campaigns that require it,
wait for an employee other than the requester to approve; rewards to
disposable e-mail domains or to a recipient with three rewards in 30 days are
flagged for fraud review; a redeemed reward cannot be canceled or resent, and
what a canceled, rejected or blocked reward cost returns to its funding
source.
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
from compoworld.engine.types import Cents, Country, Currency, DateTime, Email, IdOf, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "rewards",
    title="Kudoscard Rewards",
    category="rewards_incentives",
    modeled_on="Tremendous API v2 (funding sources, topups, products, campaigns, orders with approvals, rewards, "
    "fraud reviews)",
    description="Digital rewards and incentives: the company's funding sources, the catalog of gift cards and "
    "prepaid cards, campaigns for employee recognition and research incentives, reward orders and their "
    "approvals, the rewards sent to recipients and their delivery and redemption, and fraud reviews.",
)

SourceId = Annotated[str, IdOf("rewards.funding_source")]
ProductId = Annotated[str, IdOf("rewards.product")]
CampaignId = Annotated[str, IdOf("rewards.campaign")]
OrderId = Annotated[str, IdOf("rewards.order")]
RewardId = Annotated[str, IdOf("rewards.reward")]
ReviewId = Annotated[str, IdOf("rewards.fraud_review")]

Method = Literal["EMAIL", "LINK"]
OrderStatus = Literal["PENDING_APPROVAL", "EXECUTED", "REJECTED"]
RewardStatus = Literal["PENDING_APPROVAL", "FLAGGED", "DELIVERED", "FAILED", "REDEEMED", "CANCELED"]
APPROVAL_TOTAL = 50_000
"""Orders of this many cents or more need approval."""
RISKY_DOMAINS = frozenset({"mailinator.com", "guerrillamail.com", "tempmail.dev", "yopmail.com"})
VELOCITY = (3, dt.timedelta(days=30))
"""A recipient with this many rewards within this window is reviewed."""


class FundingSource(Record):
    """Where the money for rewards comes from."""

    id: SourceId
    method: Literal["balance", "credit_card"]
    """balance (prepaid, topped up by ACH) or credit_card."""
    label: Title
    """Its name."""
    balance: Cents = 0
    """Available prepaid funds (balance sources)."""
    order_limit: Cents = 0
    """Largest order it may pay (credit cards)."""
    status: Literal["active", "disabled"] = "active"
    """active or disabled."""


class Product(Record):
    """A reward that can be sent: a gift card, a prepaid card or a donation."""

    id: ProductId
    name: Title
    """E.g. Amazon.com Gift Card."""
    category: Literal["merchant_card", "visa_card", "charity", "cash_app"]
    """merchant_card, visa_card, charity or cash_app."""
    currency: Currency
    """The currency of its values."""
    countries: tuple[Country, ...]
    """Where it can be redeemed."""
    min_value: Cents
    """Smallest value."""
    max_value: Cents
    """Largest value."""
    fee_percent: Annotated[float, Field(ge=0, le=10)] = 0.0
    """Fee on its value."""
    available: bool = True
    """Whether it can be ordered."""


class Campaign(Record):
    """A reward program: the products a recipient may choose from and the message sent."""

    id: CampaignId
    name: Title
    """Its name (unique)."""
    product_ids: tuple[ProductId, ...]
    """The products offered."""
    message: Text = ""
    """The message in the reward e-mail."""
    requires_approval: bool = False
    """Every order needs approval."""
    owner_email: Email
    """The employee running it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Recipient(Value):
    """Who receives a reward."""

    name: PersonName
    email: Email
    country: Country = "US"


class Order(Record):
    """An order of rewards, one per recipient."""

    id: OrderId
    campaign_id: CampaignId
    """The campaign."""
    funding_source_id: SourceId
    """What pays."""
    value: Cents
    """Each reward's value."""
    currency: Currency
    """The value's currency."""
    reward_count: int
    """How many rewards."""
    total: Cents
    """Values plus fees."""
    status: OrderStatus
    """PENDING_APPROVAL, EXECUTED or REJECTED."""
    external_id: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    """The caller's reference (unique): a repeat is refused."""
    requested_by: Email
    """The employee who placed it."""
    approver_email: Email | None = None
    """Who approved or rejected it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Reward(Record):
    """A reward sent to one recipient."""

    id: RewardId
    order_id: OrderId
    """Its order."""
    recipient_name: PersonName
    """The recipient."""
    recipient_email: Email
    """Where it is delivered."""
    value: Cents
    """Its value."""
    currency: Currency
    """The currency."""
    delivery_method: Method
    """EMAIL or LINK."""
    status: RewardStatus
    """PENDING_APPROVAL, FLAGGED, DELIVERED, FAILED, REDEEMED or CANCELED."""
    link: Url | None = None
    """The redemption link (once delivered)."""
    deliveries: int = 0
    """Times it was sent."""
    redeemed_at: DateTime | None = None
    """When it was redeemed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class FraudReview(Record):
    """A hold on a suspicious reward."""

    id: ReviewId
    reward_id: RewardId
    """The reward held."""
    reasons: tuple[Literal["disposable_email", "reward_velocity", "country_mismatch"], ...]
    """Why it was flagged."""
    status: Literal["flagged", "released", "blocked"] = "flagged"
    """flagged, released (delivered) or blocked (canceled and refunded)."""
    reviewed_by: Email | None = None
    """The employee who decided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was flagged."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a team member", field=field, hint="use an employee's e-mail")


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.product_ids or len(set(new.product_ids)) != len(new.product_ids):
        raise RuleViolation("list each product once, at least one", field="product_ids", hint="pick products")
    for pid in new.product_ids:
        if not ctx.get(Product, pid, field="product_ids").available:
            raise RuleViolation(f"product {pid} is unavailable", field="product_ids", hint="pick available products")
    _staff(ctx, new.owner_email, "owner_email")


def _guard_campaign_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.where(Order, campaign_id=old.id, status="PENDING_APPROVAL"):
        raise Conflict("the campaign has orders awaiting approval", field="campaign_id", hint="decide them first")


def _refund(ctx: Ctx, order: Order, amount: int) -> None:
    src = ctx.get(FundingSource, order.funding_source_id)
    if src.method == "balance":
        ctx.update(src, balance=src.balance + amount)


def _cost(order: Order) -> int:
    """What one reward of the order cost, fees included."""
    return order.total // max(order.reward_count, 1)


def _deliver(ctx: Ctx, reward: Reward) -> Reward:
    link = f"https://rewards.kudoscard.example/r/{reward.id}"
    return ctx.update(reward, status="DELIVERED", link=link, deliveries=reward.deliveries + 1)


def _execute(ctx: Ctx, order: Order) -> None:
    """Deliver an order's rewards, flagging the suspicious ones for review."""
    since = ctx.now() - VELOCITY[1]
    for reward in ctx.where(Reward, order_id=order.id):
        reasons: list[Any] = []
        if reward.recipient_email.rsplit("@", 1)[-1].lower() in RISKY_DOMAINS:
            reasons.append("disposable_email")
        prior = [
            r
            for r in ctx.where(Reward, recipient_email=reward.recipient_email)
            if r.id != reward.id and r.created_at >= since and r.status != "CANCELED"
        ]
        if len(prior) >= VELOCITY[0] - 1:
            reasons.append("reward_velocity")
        if reasons:
            ctx.update(reward, status="FLAGGED")
            ctx.create(FraudReview, reward_id=reward.id, reasons=tuple(reasons))
        else:
            _deliver(ctx, reward)


sources = service.resource(
    FundingSource,
    name="funding_source",
    plural="funding_sources",
    prefix="fs",
    create=False,
    filters=("method", "status"),
    delete=False,
)
products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prod",
    create=False,
    filters=("category", "currency", "available"),
    search=("name",),
    delete=False,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="camp",
    create=("name", "product_ids", "message", "requires_approval", "owner_email"),
    filters=("owner_email", "requires_approval"),
    search=("name",),
    update=("name", "product_ids", "message", "requires_approval"),
    unique=("name",),
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
    guard_delete=_guard_campaign_delete,
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("campaign_id", "funding_source_id", "status", "requested_by", "external_id"),
    delete=False,
)
rewards = service.resource(
    Reward,
    name="reward",
    plural="rewards",
    prefix="rwd",
    create=False,
    filters=("order_id", "recipient_email", "status"),
    search=("recipient_name",),
    delete=False,
)
reviews = service.resource(
    FraudReview,
    name="fraud_review",
    plural="fraud_reviews",
    prefix="fr",
    create=False,
    filters=("reward_id", "status"),
    delete=False,
)


# -- funding ----------------------------------------------------------------------------------


@service.tool(
    intent="top up the rewards balance",
    write=True,
    example=first_example(FundingSource, "funding_source_id", where={"method": "balance"}, amount=100000),
)
def create_topup(
    ctx: Ctx, funding_source_id: SourceId, amount: Annotated[int, Field(ge=1000, le=10**9)]
) -> FundingSource:
    """Add funds to a prepaid balance by ACH (at least 10 USD).

    Args:
        funding_source_id: The balance source.
        amount: Cents.
    """
    src = ctx.get(FundingSource, funding_source_id, field="funding_source_id")
    if src.method != "balance" or src.status != "active":
        why = "only an active prepaid balance can be topped up"
        raise RuleViolation(why, field="funding_source_id", hint="pick the balance funding source")
    return ctx.update(src, balance=src.balance + amount)


# -- orders -----------------------------------------------------------------------------------


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    camp = ctx.first(Campaign, requires_approval=False)
    src = ctx.first(FundingSource, method="balance")
    if camp is None or src is None:
        return None
    people = ctx.population.employees
    return {
        "campaign_id": camp.id,
        "funding_source_id": src.id,
        "value": 2500,
        "requested_by": people[0].email,
        "recipients": [{"name": people[5].name, "email": people[5].email}],
    }


@service.tool(intent="send the rewards", write=True, example=_example_order)
def create_order(
    ctx: Ctx,
    campaign_id: CampaignId,
    funding_source_id: SourceId,
    value: Annotated[int, Field(ge=100, le=10**8)],
    recipients: Annotated[list[Recipient], Field(min_length=1, max_length=50)],
    requested_by: Email,
    delivery_method: Method = "EMAIL",
    external_id: Annotated[str, Field(min_length=1, max_length=64)] | None = None,
) -> Order:
    """Order one reward per recipient from a campaign; it is sent at once unless it needs approval.

    Args:
        campaign_id: The campaign (its products set what values and countries are possible).
        funding_source_id: What pays.
        value: Each reward's value, in cents of the campaign products' currency.
        recipients: Who receives a reward (name, email, country).
        requested_by: The employee placing the order.
        delivery_method: EMAIL (sent to the recipient) or LINK (a link you pass on).
        external_id: Your reference; an order with the same reference is refused.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    src = ctx.get(FundingSource, funding_source_id, field="funding_source_id")
    _staff(ctx, requested_by, "requested_by")
    if external_id is not None and ctx.first(Order, external_id=external_id) is not None:
        raise Conflict(f"an order with external_id {external_id} exists", field="external_id", hint="do not resend")
    prods = [ctx.get(Product, p) for p in camp.product_ids]
    if len({p.currency for p in prods}) != 1 or any(not p.available for p in prods):
        why = "the campaign's products are unavailable or in several currencies"
        raise RuleViolation(why, field="campaign_id", hint="update the campaign's products")
    low, high = max(p.min_value for p in prods), min(p.max_value for p in prods)
    if not low <= value <= high:
        raise RuleViolation(f"the value must be {low}-{high} cents", field="value", hint="pick a value in range")
    for r in recipients:
        if not any(r.country in p.countries for p in prods):
            why = f"no campaign product is redeemable in {r.country}"
            raise RuleViolation(why, field="recipients", hint="pick a campaign with a product for that country")
    fee = round(value * max(p.fee_percent for p in prods) / 100)
    total = (value + fee) * len(recipients)
    if src.status != "active":
        raise RuleViolation("the funding source is disabled", field="funding_source_id", hint="pick another one")
    if src.method == "balance" and total > src.balance:
        why = f"the order costs {total} cents, the balance has {src.balance}"
        raise RuleViolation(why, field="funding_source_id", hint="top up the balance first")
    if src.method == "credit_card" and total > src.order_limit:
        why = f"the order costs {total} cents, above the card's {src.order_limit} limit"
        raise RuleViolation(why, field="funding_source_id", hint="split the order or pay from the balance")
    pending = camp.requires_approval or total >= APPROVAL_TOTAL
    order = ctx.create(
        Order,
        campaign_id=camp.id,
        funding_source_id=src.id,
        value=value,
        currency=prods[0].currency,
        reward_count=len(recipients),
        total=total,
        external_id=external_id,
        requested_by=requested_by,
        status="PENDING_APPROVAL" if pending else "EXECUTED",
    )
    if src.method == "balance":
        ctx.update(src, balance=src.balance - total)
    for r in recipients:
        ctx.create(
            Reward,
            order_id=order.id,
            recipient_name=r.name,
            recipient_email=r.email,
            value=value,
            currency=order.currency,
            delivery_method=delivery_method,
            status="PENDING_APPROVAL",
        )
    if not pending:
        _execute(ctx, order)
    return order


def _pending(ctx: Ctx, order_id: str, approver_email: str) -> Order:
    order = ctx.get(Order, order_id, field="order_id")
    if order.status != "PENDING_APPROVAL":
        raise Conflict(f"the order is {order.status}", field="order_id", hint="only pending orders are decided")
    _staff(ctx, approver_email, "approver_email")
    if approver_email == order.requested_by:
        raise RuleViolation(
            "requesters cannot decide their own order", field="approver_email", hint="ask another team member"
        )
    return order


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    order = ctx.first(Order, status="PENDING_APPROVAL")
    if order is None:
        return None
    other = next(p.email for p in ctx.population.employees if p.email != order.requested_by)
    return {"order_id": order.id, "approver_email": other}


@service.tool(intent="approve the reward order", write=True, example=_example_decide)
def approve_order(ctx: Ctx, order_id: OrderId, approver_email: Email) -> Order:
    """Approve a pending order: its rewards are sent (suspicious ones go to fraud review).

    Args:
        order_id: The order.
        approver_email: A team member other than the requester.
    """
    order = ctx.update(_pending(ctx, order_id, approver_email), status="EXECUTED", approver_email=approver_email)
    _execute(ctx, order)
    return order


@service.tool(intent="reject the reward order", write=True, example=_example_decide)
def reject_order(ctx: Ctx, order_id: OrderId, approver_email: Email) -> Order:
    """Reject a pending order: its rewards are canceled and the funds return to the source.

    Args:
        order_id: The order.
        approver_email: A team member other than the requester.
    """
    order = _pending(ctx, order_id, approver_email)
    for r in ctx.where(Reward, order_id=order.id):
        ctx.update(r, status="CANCELED")
    _refund(ctx, order, order.total)
    return ctx.update(order, status="REJECTED", approver_email=approver_email)


# -- rewards and fraud review -----------------------------------------------------------------


@service.tool(
    intent="resend the reward",
    write=True,
    example=first_example(Reward, "reward_id", where={"status": "DELIVERED"}),
)
def resend_reward(ctx: Ctx, reward_id: RewardId, recipient_email: Email | None = None) -> Reward:
    """Send a delivered or failed, unredeemed reward again, optionally to a corrected e-mail.

    Args:
        reward_id: The reward.
        recipient_email: A corrected address; omit to resend to the same one.
    """
    reward = ctx.get(Reward, reward_id, field="reward_id")
    if reward.status not in ("DELIVERED", "FAILED"):
        why = f"the reward is {reward.status}"
        raise RuleViolation(why, field="reward_id", hint="only delivered or failed, unredeemed rewards are resent")
    if recipient_email is not None:
        reward = ctx.update(reward, recipient_email=recipient_email)
    return _deliver(ctx, reward)


@service.tool(
    intent="cancel the reward",
    write=True,
    destructive=True,
    example=first_example(Reward, "reward_id", where={"status": "DELIVERED"}),
)
def cancel_reward(ctx: Ctx, reward_id: RewardId) -> Reward:
    """Cancel an unredeemed reward (delivered or failed): its cost returns to the funding source.

    Args:
        reward_id: The reward.
    """
    reward = ctx.get(Reward, reward_id, field="reward_id")
    if reward.status not in ("DELIVERED", "FAILED"):
        why = f"the reward is {reward.status}"
        raise RuleViolation(why, field="reward_id", hint="redeemed rewards cannot be canceled; decide pending ones")
    order = ctx.get(Order, reward.order_id)
    _refund(ctx, order, _cost(order))
    return ctx.update(reward, status="CANCELED")


def _flagged(ctx: Ctx, review_id: str, reviewed_by: str) -> FraudReview:
    review = ctx.get(FraudReview, review_id, field="fraud_review_id")
    if review.status != "flagged":
        raise Conflict(f"the review is {review.status}", field="fraud_review_id", hint="it was already decided")
    _staff(ctx, reviewed_by, "reviewed_by")
    return review


def _review_example(ctx: Ctx) -> dict[str, Any] | None:
    review = ctx.first(FraudReview, status="flagged")
    return None if review is None else {"fraud_review_id": review.id, "reviewed_by": ctx.population.employees[0].email}


@service.tool(intent="release the flagged reward", write=True, example=_review_example)
def release_fraud_review(ctx: Ctx, fraud_review_id: ReviewId, reviewed_by: Email) -> FraudReview:
    """Release a flagged reward after review: it is delivered.

    Args:
        fraud_review_id: The review.
        reviewed_by: The employee deciding.
    """
    review = _flagged(ctx, fraud_review_id, reviewed_by)
    _deliver(ctx, ctx.get(Reward, review.reward_id))
    return ctx.update(review, status="released", reviewed_by=reviewed_by)


@service.tool(intent="block the flagged reward", write=True, destructive=True, example=_review_example)
def block_fraud_review(ctx: Ctx, fraud_review_id: ReviewId, reviewed_by: Email) -> FraudReview:
    """Block a flagged reward: it is canceled and its cost returns to the funding source.

    Args:
        fraud_review_id: The review.
        reviewed_by: The employee deciding.
    """
    review = _flagged(ctx, fraud_review_id, reviewed_by)
    reward = ctx.get(Reward, review.reward_id)
    order = ctx.get(Order, reward.order_id)
    _refund(ctx, order, _cost(order))
    ctx.update(reward, status="CANCELED")
    return ctx.update(review, status="blocked", reviewed_by=reviewed_by)


# -- seed -------------------------------------------------------------------------------------

CATALOG: tuple[tuple[str, Any, str, tuple[str, ...], int, int, float], ...] = (
    ("Amazon.com Gift Card", "merchant_card", "USD", ("US",), 100, 200_000, 0.0),
    ("Visa Prepaid Card", "visa_card", "USD", ("US", "CA", "GB", "DE", "FR", "BR", "IN", "JP"), 500, 100_000, 2.0),
    ("Target Gift Card", "merchant_card", "USD", ("US",), 500, 100_000, 0.0),
    ("Donation to Doctors Without Borders", "charity", "USD", ("US", "CA", "GB", "DE", "FR"), 100, 500_000, 0.0),
    ("Amazon.de Gutschein", "merchant_card", "EUR", ("DE",), 100, 100_000, 0.0),
    ("Cash App Payment", "cash_app", "USD", ("US",), 100, 50_000, 1.0),
)
CAMPAIGNS = (
    ("Spot bonus", (0, 1, 2), "Thank you for going above and beyond!", True),
    ("Customer research incentive", (0, 1, 3), "Thanks for taking part in our research study.", False),
    ("Referral thank-you", (0, 2), "Thanks for referring a friend.", False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Funding sources, the catalog, campaigns, executed and pending orders, rewards in every state, reviews."""
    s.create(FundingSource, method="balance", label="Prepaid balance", balance=1_250_000)
    s.create(FundingSource, method="credit_card", label="Corporate Amex ending 1005", order_limit=200_000)
    s.create(FundingSource, method="credit_card", label="Old Visa ending 4242", order_limit=100_000, status="disabled")
    src = s.records(FundingSource)[0]
    for name, cat, cur, countries, low, high, fee in CATALOG:
        s.create(
            Product,
            name=name,
            category=cat,
            currency=cur,
            countries=countries,
            min_value=low,
            max_value=high,
            fee_percent=fee,
            available=name != "Cash App Payment",
        )
    prods = s.records(Product)
    staff = s.population.staff("People", "Human Resources", "Marketing", fallback=4)
    camps = [
        s.create(
            Campaign,
            name=n,
            product_ids=tuple(prods[i].id for i in idx),
            message=msg,
            requires_approval=appr,
            owner_email=staff[k % len(staff)].email,
            created_at=s.ago(days=200),
        )
        for k, (n, idx, msg, appr) in enumerate(CAMPAIGNS)
    ]
    employees, consumers = s.population.employees, s.population.consumers
    plan: list[tuple[Campaign, int, list[Any], OrderStatus, float]] = [
        (camps[0], 10_000, [employees[3], employees[8]], "EXECUTED", 40),
        (camps[1], 5_000, list(consumers[:6]), "EXECUTED", 20),
        (camps[2], 2_500, [consumers[7]], "EXECUTED", 9),
        (camps[1], 5_000, [consumers[7], consumers[8]], "EXECUTED", 3),
        (camps[0], 25_000, [employees[10]], "PENDING_APPROVAL", 1),
    ]
    states: list[RewardStatus] = ["REDEEMED", "DELIVERED", "FAILED"]
    for n, (camp, value, people, status, days) in enumerate(plan):
        fee = round(value * max(prods[k].fee_percent for k in CAMPAIGNS[camps.index(camp)][1]) / 100)
        total = (value + fee) * len(people)
        when = s.ago(days=days)
        order = s.create(
            Order,
            campaign_id=camp.id,
            funding_source_id=src.id,
            value=value,
            currency="USD",
            reward_count=len(people),
            total=total,
            status=status,
            external_id=f"seed-{n}",
            requested_by=staff[0].email,
            created_at=when,
            updated_at=when,
            approver_email=staff[1 % len(staff)].email if camp.requires_approval and n == 0 else None,
        )
        for j, p in enumerate(people):
            st: RewardStatus = "PENDING_APPROVAL" if status != "EXECUTED" else states[(n + j) % 3]
            if n == 3 and j == 0:
                st = "FLAGGED"
            r = s.create(
                Reward,
                order_id=order.id,
                recipient_name=p.name,
                recipient_email=p.email,
                value=value,
                currency="USD",
                delivery_method="EMAIL" if j % 4 else "LINK",
                status=st,
                link=f"https://rewards.kudoscard.example/r/{n}-{j}" if st in ("DELIVERED", "REDEEMED") else None,
                deliveries=int(st in ("DELIVERED", "REDEEMED", "FAILED")),
                created_at=when,
                redeemed_at=when + dt.timedelta(days=1) if st == "REDEEMED" else None,
            )
            if st == "FLAGGED":
                s.create(FraudReview, reward_id=r.id, reasons=("reward_velocity",), created_at=when)
