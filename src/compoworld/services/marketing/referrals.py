"""Kinship Referrals: customer referral programs: advocates, referral codes, referred purchases, rewards.

Modeled on the Friendbuy Merchant API (and ReferralCandy): referral campaigns
(``status`` draft → live ↔ paused → ended) with an advocate reward, a friend
incentive and a minimum order; advocates (existing customers) enrolled with
a personal referral code and share link; referred purchases tracked by
``trackPurchase`` with the friend's e-mail and the order, run through fraud
checks (self-referral, a friend who was already a customer or already
referred, a blocked advocate) that flag the purchase for review instead of
rewarding it; rewards issued to the advocate (store credit) and the friend
(coupon), capped per advocate, redeemed or voided, and voided when the
purchase is refunded.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Currency, DateTime, Email, IdOf, OrderNumber, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "referrals",
    title="Kinship Referrals",
    category="referral_marketing",
    modeled_on="Friendbuy Merchant API / ReferralCandy: campaigns, advocates with referral codes and links, "
    "trackPurchase with fraud checks, advocate and friend rewards issued, redeemed or voided",
    description="The company's refer-a-friend program: campaigns and their incentives, customers enrolled "
    "as advocates with a code and share link, purchases made by referred friends and the fraud checks "
    "they pass, and the credits and coupons rewarded to both.",
)

CampaignId = Annotated[str, IdOf("referrals.campaign")]
AdvocateId = Annotated[str, IdOf("referrals.advocate")]
PurchaseId = Annotated[str, IdOf("referrals.purchase")]
RewardId = Annotated[str, IdOf("referrals.reward")]

Code = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4,16}$")]
"""A referral or coupon code."""

CampaignStatus = Literal["draft", "live", "paused", "ended"]
AdvocateStatus = Literal["active", "blocked"]
PurchaseStatus = Literal["approved", "flagged", "rejected", "refunded"]
FraudFlag = Literal["self_referral", "existing_customer", "already_referred", "blocked_advocate", "below_minimum"]
RewardStatus = Literal["issued", "redeemed", "voided"]
Recipient = Literal["advocate", "friend"]


class Campaign(Record):
    """A referral campaign and its incentives."""

    id: CampaignId
    name: Title
    """Its name."""
    advocate_reward_cents: Cents
    """Store credit the advocate earns per approved referral."""
    friend_discount_percent: Annotated[int, Field(ge=1, le=90)] = 15
    """The friend's discount on their first order, in percent."""
    min_order_cents: Cents = 0
    """The smallest order that qualifies."""
    max_rewards_per_advocate: Annotated[int, Field(ge=1, le=1000)] = 10
    """How many referral rewards one advocate may earn."""
    currency: Currency = "USD"
    """The rewards' currency."""
    status: CampaignStatus = "draft"
    """draft, live, paused or ended."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Advocate(Record):
    """A customer who refers friends, with their code and share link."""

    id: AdvocateId
    campaign_id: CampaignId
    """The campaign."""
    email: Email
    """The customer's e-mail."""
    name: PersonName
    """The customer's name."""
    referral_code: Code
    """Their personal code (unique)."""
    share_url: Url
    """Their personal share link."""
    status: AdvocateStatus = "active"
    """active or blocked (for fraud)."""
    link_clicks: int = 0
    """Clicks on their link."""
    created_at: Annotated[DateTime, CREATED]
    """When they enrolled."""


class Purchase(Record):
    """A purchase by a referred friend."""

    id: PurchaseId
    campaign_id: CampaignId
    """The campaign."""
    advocate_id: AdvocateId
    """The advocate whose code was used."""
    order_number: OrderNumber
    """The shop's order number (unique)."""
    customer_email: Email
    """The friend's e-mail."""
    amount_cents: Cents
    """The order total."""
    new_customer: bool = True
    """Whether the shop says it is the customer's first order."""
    status: PurchaseStatus = "approved"
    """approved (rewarded), flagged (held for review), rejected or refunded."""
    fraud_flags: tuple[FraudFlag, ...] = ()
    """Why it was flagged."""
    created_at: Annotated[DateTime, CREATED]
    """When it was tracked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Reward(Record):
    """A reward: store credit for the advocate or a coupon for the friend."""

    id: RewardId
    campaign_id: CampaignId
    """The campaign."""
    purchase_id: PurchaseId
    """The referred purchase that earned it."""
    recipient: Recipient
    """advocate or friend."""
    recipient_email: Email
    """Who gets it."""
    amount_cents: Cents = 0
    """Store credit (advocate rewards)."""
    discount_percent: int = 0
    """Discount (friend coupons)."""
    coupon_code: Code
    """The code to redeem it with."""
    status: RewardStatus = "issued"
    """issued, redeemed or voided."""
    void_reason: Text = ""
    """Why it was voided."""
    created_at: Annotated[DateTime, CREATED]
    """When it was issued."""


# -- rules ------------------------------------------------------------------------------------


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "ended" and new.status == "ended":
        raise RuleViolation("the campaign has ended", field="campaign_id", hint="create a new campaign")


def _guard_advocate(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "active" and old.status == "blocked":
        flagged = [p for p in ctx.where(Purchase, advocate_id=new.id) if p.status == "flagged"]
        if flagged:
            raise RuleViolation(
                f"{len(flagged)} purchase(s) of the advocate await fraud review",
                field="advocate_id",
                hint="approve or reject them with referrals__review_purchase first",
            )


campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="rc",
    create=("name", "advocate_reward_cents", "friend_discount_percent", "min_order_cents", "max_rewards_per_advocate"),
    filters=("status",),
    search=("name",),
    update=("name", "advocate_reward_cents", "friend_discount_percent", "min_order_cents", "max_rewards_per_advocate"),
    delete=False,
    transitions={
        "launch": Transition("status", ("draft", "paused"), "live", "launch the referral campaign"),
        "pause": Transition("status", ("live",), "paused", "pause the referral campaign"),
        "end": Transition("status", ("live", "paused"), "ended", "end the referral campaign", destructive=True),
    },
    guard_update=_guard_campaign,
)
advocates = service.resource(
    Advocate,
    name="advocate",
    plural="advocates",
    prefix="adv",
    create=False,
    filters=("campaign_id", "status", "email", "referral_code"),
    search=("name", "email"),
    delete=False,
    transitions={
        "block": Transition("status", ("active",), "blocked", "block the advocate for fraud"),
        "unblock": Transition("status", ("blocked",), "active", "unblock the advocate"),
    },
    guard_update=_guard_advocate,
)
purchases = service.resource(
    Purchase,
    name="purchase",
    plural="purchases",
    prefix="rp",
    create=False,
    filters=("campaign_id", "advocate_id", "status", "customer_email", "order_number"),
    delete=False,
)
rewards = service.resource(
    Reward,
    name="reward",
    plural="rewards",
    prefix="rw",
    create=False,
    filters=("campaign_id", "purchase_id", "recipient", "recipient_email", "status", "coupon_code"),
    delete=False,
    transitions={"redeem": Transition("status", ("issued",), "redeemed", "mark the reward redeemed")},
)


# -- domain tools -----------------------------------------------------------------------------


def _code(*parts: str) -> str:
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:8].upper()


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    camp = ctx.first(Campaign, status="live")
    for p in ctx.population.consumers:
        if camp is not None and ctx.first(Advocate, campaign_id=camp.id, email=p.email) is None:
            return {"campaign_id": camp.id, "email": p.email, "name": p.name}
    return None


@service.tool(intent="enroll the customer as an advocate", write=True, example=_example_enroll)
def enroll_advocate(ctx: Ctx, campaign_id: CampaignId, email: Email, name: PersonName) -> Advocate:
    """Enroll a customer in a live campaign: they get a referral code and share link.

    Args:
        campaign_id: The campaign (live).
        email: The customer's e-mail.
        name: The customer's name.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "live":
        raise Conflict(f"campaign is {camp.status}", field="campaign_id", hint="launch it or use a live campaign")
    if ctx.first(Advocate, campaign_id=campaign_id, email=email) is not None:
        raise Conflict(f"{email} is already an advocate", field="email", hint="look up their code instead")
    code = _code(campaign_id, email)
    return ctx.create(
        Advocate,
        campaign_id=campaign_id,
        email=email,
        name=name,
        referral_code=code,
        share_url=f"https://refer.{ctx.population.home.domain}/{code.lower()}",
    )


def _issue(ctx: Ctx, camp: Campaign, adv: Advocate, purchase: Purchase) -> None:
    earned = [
        r
        for r in ctx.where(Reward, campaign_id=camp.id, recipient="advocate", recipient_email=adv.email)
        if r.status != "voided"
    ]
    if len(earned) < camp.max_rewards_per_advocate:
        ctx.create(
            Reward,
            campaign_id=camp.id,
            purchase_id=purchase.id,
            recipient="advocate",
            recipient_email=adv.email,
            amount_cents=camp.advocate_reward_cents,
            coupon_code=_code(purchase.id, "advocate"),
        )
    ctx.create(
        Reward,
        campaign_id=camp.id,
        purchase_id=purchase.id,
        recipient="friend",
        recipient_email=purchase.customer_email,
        discount_percent=camp.friend_discount_percent,
        coupon_code=_code(purchase.id, "friend"),
    )


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    adv = ctx.first(Advocate, status="active")
    return (
        None
        if adv is None
        else {
            "referral_code": adv.referral_code,
            "order_number": "WEB-90001",
            "customer_email": "new.friend@example.org",
            "amount_cents": 12_000,
        }
    )


@service.tool(intent="track the referred purchase", write=True, example=_example_track)
def track_purchase(
    ctx: Ctx,
    referral_code: Code,
    order_number: OrderNumber,
    customer_email: Email,
    amount_cents: Cents,
    new_customer: bool = True,
) -> Purchase:
    """Track a friend's purchase made with a referral code; clean ones are rewarded, suspicious ones flagged.

    Args:
        referral_code: The advocate's code the friend used.
        order_number: The shop's order number.
        customer_email: The friend's e-mail.
        amount_cents: The order total, in cents.
        new_customer: Whether it is the friend's first order with the shop.
    """
    adv = ctx.first(Advocate, referral_code=referral_code)
    if adv is None:
        raise RuleViolation(f"no advocate has code {referral_code}", field="referral_code", hint="check the code")
    camp = ctx.get(Campaign, adv.campaign_id)
    if camp.status != "live":
        raise Conflict(f"campaign {camp.name!r} is {camp.status}", field="referral_code", hint="no rewards now")
    if ctx.first(Purchase, order_number=order_number) is not None:
        raise Conflict(f"order {order_number} was already tracked", field="order_number", hint="nothing to do")
    flags: list[FraudFlag] = []
    if customer_email.lower() == adv.email.lower():
        flags.append("self_referral")
    if not new_customer:
        flags.append("existing_customer")
    if ctx.first(Purchase, customer_email=customer_email) is not None:
        flags.append("already_referred")
    if adv.status == "blocked":
        flags.append("blocked_advocate")
    if amount_cents < camp.min_order_cents:
        flags.append("below_minimum")
    purchase = ctx.create(
        Purchase,
        campaign_id=camp.id,
        advocate_id=adv.id,
        order_number=order_number,
        customer_email=customer_email,
        amount_cents=amount_cents,
        new_customer=new_customer,
        status="flagged" if flags else "approved",
        fraud_flags=tuple(flags),
    )
    if not flags:
        _issue(ctx, camp, adv, purchase)
    return purchase


@service.tool(
    intent="review the flagged referral purchase",
    write=True,
    example=first_example(Purchase, "purchase_id", where={"status": "flagged"}, approve=False),
)
def review_purchase(ctx: Ctx, purchase_id: PurchaseId, approve: bool) -> Purchase:
    """Decide a flagged purchase: approve it (rewards are issued) or reject it (none are).

    Args:
        purchase_id: The purchase.
        approve: True to approve, False to reject.
    """
    p = ctx.get(Purchase, purchase_id, field="purchase_id")
    if p.status != "flagged":
        raise Conflict(f"purchase is {p.status}", field="purchase_id", hint="only flagged purchases are reviewed")
    if not approve:
        return ctx.update(p, status="rejected")
    adv = ctx.get(Advocate, p.advocate_id)
    if "self_referral" in p.fraud_flags or adv.status == "blocked":
        raise RuleViolation(
            "self-referrals and purchases of blocked advocates cannot be approved",
            field="approve",
            hint="reject it",
        )
    p = ctx.update(p, status="approved")
    _issue(ctx, ctx.get(Campaign, p.campaign_id), adv, p)
    return p


def _void(ctx: Ctx, reward: Reward, reason: str) -> Reward:
    return ctx.update(reward, status="voided", void_reason=reason)


@service.tool(
    intent="refund the referred purchase",
    write=True,
    destructive=True,
    example=first_example(Purchase, "purchase_id", where={"status": "approved"}),
)
def refund_purchase(ctx: Ctx, purchase_id: PurchaseId) -> Purchase:
    """Record that an approved purchase was refunded: its unredeemed rewards are voided.

    Args:
        purchase_id: The purchase.
    """
    p = ctx.get(Purchase, purchase_id, field="purchase_id")
    if p.status != "approved":
        raise Conflict(f"purchase is {p.status}", field="purchase_id", hint="only approved purchases are refunded")
    for r in ctx.where(Reward, purchase_id=p.id, status="issued"):
        _void(ctx, r, f"order {p.order_number} refunded")
    return ctx.update(p, status="refunded")


@service.tool(
    intent="void the reward",
    write=True,
    destructive=True,
    example=first_example(Reward, "reward_id", where={"status": "issued"}, reason="Issued by mistake."),
)
def void_reward(ctx: Ctx, reward_id: RewardId, reason: Text) -> Reward:
    """Void an issued reward so it can no longer be redeemed.

    Args:
        reward_id: The reward.
        reason: Why (required).
    """
    r = ctx.get(Reward, reward_id, field="reward_id")
    if r.status != "issued":
        raise Conflict(f"reward is {r.status}", field="reward_id", hint="only issued rewards can be voided")
    if not reason.strip():
        raise RuleViolation("voiding needs a reason", field="reason", hint="say why")
    return _void(ctx, r, reason.strip())


@service.tool(
    intent="record a click on the advocate's share link",
    write=True,
    example=first_example(Advocate, "advocate_id", where={"status": "active"}),
)
def record_click(ctx: Ctx, advocate_id: AdvocateId) -> Advocate:
    """Count a click on an advocate's share link.

    Args:
        advocate_id: The advocate.
    """
    adv = ctx.get(Advocate, advocate_id, field="advocate_id")
    if adv.status != "active":
        raise RuleViolation("the advocate is blocked", field="advocate_id", hint="clicks of blocked links do not count")
    return ctx.update(adv, link_clicks=adv.link_clicks + 1)


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Campaigns in every status, customer advocates, clean and flagged purchases, rewards in every state."""
    pop = s.population
    cur = pop.home.place.currency
    live = s.create(
        Campaign,
        name="Give 15%, get 20",
        advocate_reward_cents=2000,
        friend_discount_percent=15,
        min_order_cents=5000,
        max_rewards_per_advocate=3,
        currency=cur,
        status="live",
        created_at=s.ago(days=200),
        updated_at=s.ago(days=100),
    )
    for name, status in (
        ("Holiday double rewards", "ended"),
        ("Summer referral push", "paused"),
        ("VIP program", "draft"),
    ):
        s.create(
            Campaign,
            name=name,
            advocate_reward_cents=4000,
            currency=cur,
            status=status,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=30),
        )
    people = list(pop.consumers)
    advs: list[Advocate] = []
    for k, person in enumerate(people[:8]):
        code = _code(live.id, person.email)
        advs.append(
            s.create(
                Advocate,
                campaign_id=live.id,
                email=person.email,
                name=person.name,
                referral_code=code,
                share_url=f"https://refer.{pop.home.domain}/{code.lower()}",
                status="blocked" if k == 7 else "active",
                link_clicks=s.rng.randint(0, 60),
                created_at=s.ago(days=150 - k),
            )
        )
    friends = people[8:20]
    for k, friend in enumerate(friends):
        adv = advs[k % 4]
        flags: tuple[FraudFlag, ...] = ("existing_customer",) if k in (5, 9) else ()
        buy = s.create(
            Purchase,
            campaign_id=live.id,
            advocate_id=adv.id,
            order_number=f"WEB-{20000 + 37 * k}",
            customer_email=friend.email,
            amount_cents=s.rng.randint(60, 300) * 100,
            new_customer=not flags,
            status="flagged" if flags else ("refunded" if k == 3 else "approved"),
            fraud_flags=flags,
            created_at=s.ago(days=90 - 5 * k),
            updated_at=s.ago(days=80 - 5 * k),
        )
        if flags:
            continue
        for who, email in (("advocate", adv.email), ("friend", friend.email)):
            state: RewardStatus = "voided" if k == 3 else ("redeemed" if k % 3 == 0 else "issued")
            s.create(
                Reward,
                campaign_id=live.id,
                purchase_id=buy.id,
                recipient=who,
                recipient_email=email,
                amount_cents=live.advocate_reward_cents if who == "advocate" else 0,
                discount_percent=0 if who == "advocate" else live.friend_discount_percent,
                coupon_code=_code(buy.id, who),
                status=state,
                void_reason=f"order {buy.order_number} refunded" if k == 3 else "",
                created_at=s.ago(days=89 - 5 * k),
            )
