"""Spotlight Creators: influencer marketing: creators, campaigns, product seeding, content and payments.

Modeled on GRIN (the creator management platform and its API): creators
(contacts with a social handle, network, followers, engagement rate and a
relationship ``stage``), campaigns with a brief, hashtags, budget and
``status`` draft → active → completed or cancelled, activations that invite a
creator at an agreed fee (invited → accepted or declined), product seeding
shipments (pending → shipped → delivered) to the creator's address, content
deliverables the brand reviews (submitted → approved or rejected with a
reason, then live), and payments (pending → paid, or cancelled). Fees cannot
exceed the campaign's budget; only accepted creators get products, submit
content or get paid; a payment needs approved content and stays within the
agreed fee; a campaign activates only with a brief.
"""

from __future__ import annotations

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
    Currency,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Sku,
    Text,
    Title,
    TrackingNumber,
    Url,
)
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "influencers",
    title="Spotlight Creators",
    category="influencer_marketing",
    modeled_on="GRIN creator management: creators and pipeline stages, campaigns with briefs, activations, "
    "product seeding shipments, content approval, creator payments",
    description="Influencer marketing for the company's products: the creators it works with and their "
    "audiences, campaigns with briefs and budgets, the creators invited at an agreed fee, products "
    "seeded to them, the posts and videos they submit for approval, and their payments.",
)

CreatorId = Annotated[str, IdOf("influencers.creator")]
CampaignId = Annotated[str, IdOf("influencers.campaign")]
ActivationId = Annotated[str, IdOf("influencers.activation")]
ShipmentId = Annotated[str, IdOf("influencers.shipment")]
ContentId = Annotated[str, IdOf("influencers.content")]
PaymentId = Annotated[str, IdOf("influencers.payment")]

Handle = Annotated[str, StringConstraints(pattern=r"^@[A-Za-z0-9_.]{2,30}$")]
"""A social handle, e.g. @jane.doe."""

Network = Literal["instagram", "tiktok", "youtube", "twitch", "pinterest"]
Stage = Literal["prospect", "contacted", "negotiating", "active", "inactive"]
CampaignStatus = Literal["draft", "active", "completed", "cancelled"]
ActivationStatus = Literal["invited", "accepted", "declined"]
ShipmentStatus = Literal["pending", "shipped", "delivered"]
ContentType = Literal["post", "story", "reel", "video", "live"]
ContentStatus = Literal["submitted", "approved", "rejected", "live"]
PaymentStatus = Literal["pending", "paid", "cancelled"]


class Creator(Record):
    """A creator the brand works with or scouts."""

    id: CreatorId
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail (unique)."""
    handle: Handle
    """Their handle on their main network (unique)."""
    network: Network
    """instagram, tiktok, youtube, twitch or pinterest."""
    followers: Annotated[int, Field(ge=0, le=10**10)] = 0
    """Followers on that network."""
    engagement_rate: Annotated[float, Field(ge=0, le=100)] = 0.0
    """Average engagement per post, in percent."""
    country: Country | None = None
    """Where they live."""
    stage: Stage = "prospect"
    """prospect, contacted, negotiating, active or inactive."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Campaign(Record):
    """An influencer campaign with a brief and a budget."""

    id: CampaignId
    name: Title
    """Its name."""
    owner_email: Email
    """The employee managing it."""
    brief: Text = ""
    """What creators are asked to make."""
    hashtags: tuple[Annotated[str, StringConstraints(pattern=r"^#\w{2,40}$")], ...] = ()
    """Hashtags creators must use."""
    product_sku: Sku | None = None
    """The product seeded to creators."""
    budget_cents: Cents
    """The creator fee budget."""
    currency: Currency = "USD"
    """The budget's currency."""
    status: CampaignStatus = "draft"
    """draft, active, completed or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Activation(Record):
    """A creator invited to a campaign at an agreed fee."""

    id: ActivationId
    campaign_id: CampaignId
    """The campaign."""
    creator_id: CreatorId
    """The creator."""
    fee_cents: Cents
    """The agreed fee."""
    status: ActivationStatus = "invited"
    """invited, accepted or declined."""
    created_at: Annotated[DateTime, CREATED]
    """When they were invited."""


class Shipment(Record):
    """A product seeded to a creator."""

    id: ShipmentId
    campaign_id: CampaignId
    """The campaign."""
    creator_id: CreatorId
    """The creator."""
    sku: Sku
    """The product sent."""
    product_name: Title
    """Its name."""
    status: ShipmentStatus = "pending"
    """pending, shipped or delivered."""
    tracking_number: TrackingNumber | None = None
    """The carrier's tracking number, once shipped."""
    created_at: Annotated[DateTime, CREATED]
    """When it was ordered."""


class Content(Record):
    """A deliverable a creator submitted for a campaign."""

    id: ContentId
    campaign_id: CampaignId
    """The campaign."""
    creator_id: CreatorId
    """The creator."""
    content_type: ContentType
    """post, story, reel, video or live."""
    url: Url
    """Where the draft or post is."""
    caption: Text = ""
    """Its caption."""
    status: ContentStatus = "submitted"
    """submitted, approved, rejected or live."""
    feedback: Text = ""
    """Why it was rejected."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Payment(Record):
    """A payment to a creator for a campaign."""

    id: PaymentId
    campaign_id: CampaignId
    """The campaign."""
    creator_id: CreatorId
    """The creator."""
    amount_cents: Cents
    """The amount."""
    currency: Currency = "USD"
    """Its currency."""
    status: PaymentStatus = "pending"
    """pending, paid or cancelled."""
    paid_at: DateTime | None = None
    """When it was paid."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the account", field=field, hint="use an employee's e-mail")


def _activation(ctx: Ctx, campaign_id: str, creator_id: str, field: str = "creator_id") -> Activation:
    act = ctx.first(Activation, campaign_id=campaign_id, creator_id=creator_id)
    if act is None or act.status != "accepted":
        raise RuleViolation(
            f"creator {creator_id} has not accepted campaign {campaign_id}",
            field=field,
            hint="invite the creator and have them accept first",
        )
    return act


def _committed(ctx: Ctx, campaign_id: str) -> int:
    return sum(a.fee_cents for a in ctx.where(Activation, campaign_id=campaign_id) if a.status != "declined")


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "active" and old.status == "draft" and not new.brief.strip():
        raise RuleViolation(
            "a campaign needs a brief before it goes live",
            field="campaign_id",
            hint="write the brief with influencers__update_campaign",
        )
    if old.status in ("completed", "cancelled") and new.status == old.status:
        raise RuleViolation(f"campaign is {old.status}", field="campaign_id", hint="create a new campaign")
    if new.budget_cents < _committed(ctx, new.id):
        raise RuleViolation(
            f"agreed fees of {_committed(ctx, new.id)} exceed the budget",
            field="budget_cents",
            hint="raise the budget or remove creators",
        )


def _guard_creator_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Activation, creator_id=old.id) is not None:
        raise Conflict(
            f"creator {old.handle} has campaign history",
            field="creator_id",
            hint="set their stage to inactive instead",
        )


def _guard_content(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "live" and old.status != "approved":
        raise RuleViolation("only approved content can go live", field="content_id", hint="approve it first")


creators = service.resource(
    Creator,
    name="creator",
    plural="creators",
    prefix="cr",
    create=False,
    filters=("network", "stage", "country", "email", "handle"),
    search=("name", "handle"),
    update=("stage", "followers", "engagement_rate"),
    guard_delete=_guard_creator_delete,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=False,
    filters=("status", "owner_email", "product_sku"),
    search=("name", "brief"),
    update=("name", "brief", "hashtags", "budget_cents", "product_sku"),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft",), "active", "launch the campaign"),
        "complete": Transition("status", ("active",), "completed", "complete the campaign"),
        "cancel": Transition("status", ("draft", "active"), "cancelled", "cancel the campaign", destructive=True),
    },
    guard_update=_guard_campaign,
)
activations = service.resource(
    Activation,
    name="activation",
    plural="activations",
    prefix="act",
    create=False,
    get=False,
    filters=("campaign_id", "creator_id", "status"),
    delete=False,
    transitions={
        "accept": Transition("status", ("invited",), "accepted", "record that the creator accepted"),
        "decline": Transition("status", ("invited",), "declined", "record that the creator declined"),
    },
)
shipments = service.resource(
    Shipment,
    name="shipment",
    plural="shipments",
    prefix="shp",
    create=False,
    get=False,
    filters=("campaign_id", "creator_id", "status", "sku"),
    delete=False,
    transitions={"deliver": Transition("status", ("shipped",), "delivered", "mark the seeding shipment delivered")},
)
contents = service.resource(
    Content,
    name="content",
    plural="contents",
    prefix="cnt",
    create=False,
    filters=("campaign_id", "creator_id", "status", "content_type"),
    search=("caption",),
    delete=False,
    transitions={"publish": Transition("status", ("approved",), "live", "mark the content live")},
    guard_update=_guard_content,
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("campaign_id", "creator_id", "status"),
    delete=False,
    transitions={"cancel": Transition("status", ("pending",), "cancelled", "cancel the payment")},
)


# -- domain tools -----------------------------------------------------------------------------


def _example_creator(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Mia Lindqvist",
        "email": "mia.lindqvist@creatormail.example",
        "handle": "@mia.makes",
        "network": "tiktok",
        "followers": 48200,
    }


@service.tool(intent="add the creator", write=True, example=_example_creator)
def create_creator(
    ctx: Ctx,
    name: PersonName,
    email: Email,
    handle: Handle,
    network: Network,
    followers: Annotated[int, Field(ge=0, le=10**10)] = 0,
    country: Country | None = None,
) -> Creator:
    """Add a creator as a prospect; e-mails and handles are unique.

    Args:
        name: Their name.
        email: Their e-mail.
        handle: Their handle, e.g. @jane.doe.
        network: instagram, tiktok, youtube, twitch or pinterest.
        followers: Their followers.
        country: ISO country code of where they live.
    """
    for fname, value in (("email", email), ("handle", handle)):
        other = ctx.first(Creator, **{fname: value})
        if other is not None:
            raise Conflict(f"creator {other.id} has {fname} {value}", field=fname, hint="update that creator")
    return ctx.create(
        Creator, name=name, email=email, handle=handle, network=network, followers=followers, country=country
    )


def _example_campaign(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "Autumn launch", "owner_email": ctx.population.employees[0].email, "budget_cents": 1_500_000}


@service.tool(intent="create the influencer campaign", write=True, example=_example_campaign)
def create_campaign(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    budget_cents: Cents,
    brief: Text = "",
    product_sku: Sku | None = None,
    currency: Currency = "USD",
) -> Campaign:
    """Create a campaign as a draft.

    Args:
        name: Its name.
        owner_email: The employee managing it.
        budget_cents: The budget for creator fees, in cents.
        brief: What creators are asked to make.
        product_sku: A product of the catalog to seed to creators.
        currency: The budget's currency.
    """
    _staff(ctx, owner_email, "owner_email")
    if product_sku is not None and all(p.sku != product_sku for p in ctx.population.products):
        raise RuleViolation(f"no product {product_sku}", field="product_sku", hint="use a SKU of the catalog")
    return ctx.create(
        Campaign,
        name=name,
        owner_email=owner_email,
        budget_cents=budget_cents,
        brief=brief,
        product_sku=product_sku,
        currency=currency,
    )


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Campaign, status="active"):
        for cr in ctx.where(Creator, stage="contacted"):
            if ctx.first(Activation, campaign_id=c.id, creator_id=cr.id) is None:
                return {"campaign_id": c.id, "creator_id": cr.id, "fee_cents": 10_000}
    return None


@service.tool(intent="invite the creator to the campaign", write=True, example=_example_invite)
def invite_creator(ctx: Ctx, campaign_id: CampaignId, creator_id: CreatorId, fee_cents: Cents) -> Activation:
    """Invite a creator to a draft or active campaign at a fee; fees together stay within the budget.

    Args:
        campaign_id: The campaign.
        creator_id: The creator (not inactive).
        fee_cents: The agreed fee, in cents.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status not in ("draft", "active"):
        raise Conflict(f"campaign is {camp.status}", field="campaign_id", hint="use a draft or active campaign")
    creator = ctx.get(Creator, creator_id, field="creator_id")
    if creator.stage == "inactive":
        raise RuleViolation(f"{creator.handle} is inactive", field="creator_id", hint="reactivate them first")
    if ctx.first(Activation, campaign_id=campaign_id, creator_id=creator_id) is not None:
        raise Conflict(f"{creator.handle} is already in the campaign", field="creator_id", hint="nothing to do")
    left = camp.budget_cents - _committed(ctx, campaign_id)
    if fee_cents > left:
        raise RuleViolation(
            f"fee {fee_cents} exceeds the {left} left in the budget",
            field="fee_cents",
            hint="lower the fee or raise the campaign budget",
        )
    if creator.stage in ("prospect", "contacted"):
        ctx.update(creator, stage="negotiating")
    return ctx.create(Activation, campaign_id=campaign_id, creator_id=creator_id, fee_cents=fee_cents)


def _example_seed(ctx: Ctx) -> dict[str, Any] | None:
    for act in ctx.where(Activation, status="accepted"):
        camp = ctx.get(Campaign, act.campaign_id)
        if camp.status == "active" and camp.product_sku:
            return {"campaign_id": camp.id, "creator_id": act.creator_id}
    return None


@service.tool(intent="seed the product to the creator", write=True, example=_example_seed)
def seed_product(ctx: Ctx, campaign_id: CampaignId, creator_id: CreatorId, sku: Sku | None = None) -> Shipment:
    """Order a product shipment to an accepted creator of an active campaign.

    Args:
        campaign_id: The campaign.
        creator_id: The creator.
        sku: The product; omit for the campaign's product.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "active":
        raise Conflict(f"campaign is {camp.status}", field="campaign_id", hint="activate it first")
    _activation(ctx, campaign_id, creator_id)
    sku = sku or camp.product_sku
    product = next((p for p in ctx.population.products if p.sku == sku), None)
    if product is None:
        raise RuleViolation(f"no product {sku}", field="sku", hint="give a SKU of the catalog")
    for s in ctx.where(Shipment, campaign_id=campaign_id, creator_id=creator_id, sku=product.sku):
        raise Conflict(f"{product.sku} was already sent ({s.id})", field="sku", hint="track that shipment")
    return ctx.create(
        Shipment, campaign_id=campaign_id, creator_id=creator_id, sku=product.sku, product_name=product.name
    )


@service.tool(
    intent="mark the seeding shipment shipped",
    write=True,
    example=first_example(Shipment, "shipment_id", where={"status": "pending"}, tracking_number="1Z999AA10123456784"),
)
def ship_shipment(ctx: Ctx, shipment_id: ShipmentId, tracking_number: TrackingNumber) -> Shipment:
    """Record that a pending shipment left the warehouse, with its tracking number.

    Args:
        shipment_id: The shipment.
        tracking_number: The carrier's tracking number.
    """
    shp = ctx.get(Shipment, shipment_id, field="shipment_id")
    if shp.status != "pending":
        raise Conflict(f"shipment is already {shp.status}", field="shipment_id", hint="nothing to do")
    return ctx.update(shp, status="shipped", tracking_number=tracking_number)


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    for act in ctx.where(Activation, status="accepted"):
        if ctx.get(Campaign, act.campaign_id).status == "active":
            return {
                "campaign_id": act.campaign_id,
                "creator_id": act.creator_id,
                "content_type": "reel",
                "url": "https://www.instagram.com/reel/Cx1a2b3c4d/",
            }
    return None


@service.tool(intent="submit the content for review", write=True, example=_example_submit)
def submit_content(
    ctx: Ctx,
    campaign_id: CampaignId,
    creator_id: CreatorId,
    content_type: ContentType,
    url: Url,
    caption: Text = "",
) -> Content:
    """Submit a creator's draft for an active campaign; seeded products must have arrived first.

    Args:
        campaign_id: The campaign.
        creator_id: The creator (accepted).
        content_type: post, story, reel, video or live.
        url: Where the draft is.
        caption: Its caption.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    if camp.status != "active":
        raise Conflict(f"campaign is {camp.status}", field="campaign_id", hint="only active campaigns take content")
    _activation(ctx, campaign_id, creator_id)
    if any(s.status != "delivered" for s in ctx.where(Shipment, campaign_id=campaign_id, creator_id=creator_id)):
        raise RuleViolation(
            "the creator's product has not been delivered yet",
            field="creator_id",
            hint="wait for the seeding shipment to be delivered",
        )
    return ctx.create(
        Content, campaign_id=campaign_id, creator_id=creator_id, content_type=content_type, url=url, caption=caption
    )


def _review(ctx: Ctx, content_id: str) -> Content:
    cnt = ctx.get(Content, content_id, field="content_id")
    if cnt.status != "submitted":
        raise Conflict(f"content is {cnt.status}", field="content_id", hint="only submitted content is reviewed")
    return cnt


@service.tool(
    intent="approve the content",
    write=True,
    example=first_example(Content, "content_id", where={"status": "submitted"}),
)
def approve_content(ctx: Ctx, content_id: ContentId) -> Content:
    """Approve submitted content; it must carry the campaign's hashtags in its caption.

    Args:
        content_id: The content.
    """
    cnt = _review(ctx, content_id)
    camp = ctx.get(Campaign, cnt.campaign_id)
    missing = [h for h in camp.hashtags if h.lower() not in cnt.caption.lower()]
    if missing:
        raise RuleViolation(
            f"the caption lacks {', '.join(missing)}",
            field="content_id",
            hint="reject it with feedback asking for the hashtags",
        )
    return ctx.update(cnt, status="approved", feedback="")


@service.tool(
    intent="reject the content",
    write=True,
    example=first_example(Content, "content_id", where={"status": "submitted"}, feedback="Please show the product."),
)
def reject_content(ctx: Ctx, content_id: ContentId, feedback: Text) -> Content:
    """Reject submitted content with feedback for the creator.

    Args:
        content_id: The content.
        feedback: What to change (required).
    """
    cnt = _review(ctx, content_id)
    if not feedback.strip():
        raise RuleViolation("a rejection needs feedback", field="feedback", hint="say what to change")
    return ctx.update(cnt, status="rejected", feedback=feedback.strip())


def _example_payment(ctx: Ctx) -> dict[str, Any] | None:
    for cnt in ctx.where(Content, status="approved"):
        act = ctx.first(Activation, campaign_id=cnt.campaign_id, creator_id=cnt.creator_id)
        if act is not None and _paid(ctx, act) < act.fee_cents:
            return {"campaign_id": cnt.campaign_id, "creator_id": cnt.creator_id, "amount_cents": 1000}
    return None


def _paid(ctx: Ctx, act: Activation) -> int:
    found = ctx.where(Payment, campaign_id=act.campaign_id, creator_id=act.creator_id)
    return sum(p.amount_cents for p in found if p.status != "cancelled")


@service.tool(intent="create the creator payment", write=True, example=_example_payment)
def create_payment(ctx: Ctx, campaign_id: CampaignId, creator_id: CreatorId, amount_cents: Cents) -> Payment:
    """Create a pending payment for a creator with approved content, within the agreed fee.

    Args:
        campaign_id: The campaign.
        creator_id: The creator.
        amount_cents: The amount, in cents.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    act = _activation(ctx, campaign_id, creator_id)
    done = [
        c
        for c in ctx.where(Content, campaign_id=campaign_id, creator_id=creator_id)
        if c.status in ("approved", "live")
    ]
    if not done:
        raise RuleViolation(
            "the creator has no approved content", field="creator_id", hint="approve a deliverable first"
        )
    left = act.fee_cents - _paid(ctx, act)
    if amount_cents <= 0 or amount_cents > left:
        raise RuleViolation(
            f"amount must be between 1 and the {left} left of the agreed fee",
            field="amount_cents",
            hint="pay at most what remains of the fee",
        )
    return ctx.create(
        Payment, campaign_id=campaign_id, creator_id=creator_id, amount_cents=amount_cents, currency=camp.currency
    )


@service.tool(
    intent="pay the creator payment",
    write=True,
    example=first_example(Payment, "payment_id", where={"status": "pending"}),
)
def pay_payment(ctx: Ctx, payment_id: PaymentId) -> Payment:
    """Pay a pending payment.

    Args:
        payment_id: The payment.
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status != "pending":
        raise Conflict(f"payment is {pay.status}", field="payment_id", hint="only pending payments are paid")
    return ctx.update(pay, status="paid", paid_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

NETWORKS: tuple[Network, ...] = ("instagram", "tiktok", "youtube", "instagram", "pinterest", "twitch")
STAGES: tuple[Stage, ...] = (
    "active",
    "active",
    "active",
    "negotiating",
    "contacted",
    "contacted",
    "prospect",
    "inactive",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Creators from the world's consumers, campaigns in every status, activations, seeding, content and payments."""
    pop = s.population
    team = pop.staff("Marketing", fallback=3)
    made: list[Creator] = []
    for k, p in enumerate(pop.consumers[:16]):
        base = "".join(
            ch for ch in f"{p.first_name}.{p.last_name}".lower() if ch.isascii() and (ch.isalnum() or ch == ".")
        )
        made.append(
            s.create(
                Creator,
                name=p.name,
                email=p.email,
                handle=f"@{base[:26] or 'creator'}{k}",
                network=NETWORKS[k % len(NETWORKS)],
                followers=s.rng.randint(5_000, 900_000),
                engagement_rate=round(s.rng.uniform(0.8, 9.5), 2),
                country=p.place.country,
                stage=STAGES[k % len(STAGES)],
                created_at=s.ago(days=400 - 10 * k),
            )
        )
    products = pop.products
    plans: tuple[tuple[str, CampaignStatus, int], ...] = (
        ("Spring collection", "active", 3_000_000),
        ("Holiday gift guide", "completed", 2_500_000),
        ("Back to school", "draft", 1_000_000),
        ("Summer festival", "cancelled", 800_000),
    )
    active = [c for c in made if c.stage == "active"]
    for k, (name, status, budget) in enumerate(plans):
        camp = s.create(
            Campaign,
            name=name,
            owner_email=team[k % len(team)].email,
            brief=f"Show how you use our product in everyday life. {name}.",
            hashtags=("#ad", f"#{name.split()[0].lower()}") if status != "draft" else (),
            product_sku=products[k % len(products)].sku if products else None,
            budget_cents=budget,
            currency=pop.home.place.currency,
            status=status,
            created_at=s.ago(days=120 - 20 * k),
            updated_at=s.ago(days=10),
        )
        if status not in ("active", "completed"):
            continue
        for j, cr in enumerate(active):
            act = s.create(
                Activation, campaign_id=camp.id, creator_id=cr.id, fee_cents=250_000 + 50_000 * j, status="accepted"
            )
            if not camp.product_sku:
                continue
            ship: ShipmentStatus = ("delivered", "shipped", "pending")[j % 3] if status == "active" else "delivered"
            s.create(
                Shipment,
                campaign_id=camp.id,
                creator_id=cr.id,
                sku=camp.product_sku,
                product_name=products[k % len(products)].name,
                status=ship,
                tracking_number=None if ship == "pending" else f"1Z{camp.id[-3:]}{cr.id[-3:]}A{j:04d}".upper(),
            )
            if ship != "delivered":
                continue
            state: ContentStatus = "live" if status == "completed" else "approved" if j == 0 else "submitted"
            s.create(
                Content,
                campaign_id=camp.id,
                creator_id=cr.id,
                content_type="reel",
                url=f"https://www.instagram.com/reel/{camp.id[-4:]}{cr.id[-4:]}/",
                caption=" ".join(camp.hashtags) + " loving it",
                status=state,
                created_at=s.ago(days=30),
                updated_at=s.ago(days=20),
            )
            if state != "submitted":
                s.create(
                    Payment,
                    campaign_id=camp.id,
                    creator_id=cr.id,
                    amount_cents=act.fee_cents if state == "live" else act.fee_cents // 2,
                    currency=camp.currency,
                    status="paid" if state == "live" else "pending",
                    paid_at=s.ago(days=15) if state == "live" else None,
                )
        for cr in made:
            if cr.stage == "negotiating" and status == "active":
                s.create(Activation, campaign_id=camp.id, creator_id=cr.id, fee_cents=100_000)
