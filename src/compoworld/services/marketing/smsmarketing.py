"""Pocketline: SMS marketing with keyword opt-in, TCPA consent, quiet hours, campaigns, journeys and coupons.

Modeled on the Attentive API (Subscribers with sign-up source and double opt-in,
Custom Events that trigger Journeys, Coupon pools) and the Postscript API
(Keywords with auto-replies, Campaigns, Subscribers ``pending`` → ``subscribed``
→ ``unsubscribed``, discount code pools): a shopper joins by texting a keyword
or through a checkout/pop-up sign-up that records the TCPA consent language, and
is only subscribed after replying Y; STOP (or UNSUBSCRIBE, CANCEL, END, QUIT)
unsubscribes and only the shopper texting START or a keyword can bring them
back; reserved words cannot be keywords; campaigns carry opt-out language,
reach only subscribed subscribers and hold messages for those in quiet hours
(21:00-08:00 in the subscriber's time zone) until morning; a live welcome journey
enrols each new subscriber once; coupon codes come from a pool, one per
subscriber, and are redeemed once before the pool expires.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Percent,
    Phone,
    Quantity,
    Text,
    Timezone,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "smsmarketing",
    title="Pocketline",
    category="sms_marketing",
    modeled_on="Attentive API (Subscribers, Custom Events, Journeys, Coupons) and Postscript API (Keywords, "
    "Subscribers, Campaigns, discount code pools)",
    description="Text-message marketing for the home company's shop: subscribers who opt in by keyword or at "
    "checkout with recorded TCPA consent and a confirming reply, keywords with auto-replies, campaigns that "
    "respect quiet hours, automated journeys such as welcome and abandoned-cart texts, and unique coupon codes.",
)

SubscriberId = Annotated[str, IdOf("smsmarketing.subscriber")]
KeywordId = Annotated[str, IdOf("smsmarketing.keyword")]
PoolId = Annotated[str, IdOf("smsmarketing.coupon_pool")]
CouponId = Annotated[str, IdOf("smsmarketing.coupon")]
CampaignId = Annotated[str, IdOf("smsmarketing.campaign")]
JourneyId = Annotated[str, IdOf("smsmarketing.journey")]

KeywordText = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,20}$")]
CouponCode = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,32}$")]
Tag = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,39}$")]
SmsBody = Annotated[str, StringConstraints(min_length=1, max_length=1600)]
SubStatus = Literal["pending", "subscribed", "unsubscribed"]
Source = Literal["keyword", "checkout", "popup", "api"]
CampaignStatus = Literal["draft", "scheduled", "sent", "cancelled"]
JourneyTrigger = Literal["welcome", "cart_abandoned", "browse_abandoned", "post_purchase"]
JourneyStatus = Literal["draft", "live", "paused"]

RESERVED = frozenset(
    {"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "START", "UNSTOP", "HELP", "INFO", "YES", "Y"}
)
STOP_WORDS = frozenset({"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"})
QUIET_START, QUIET_END = 21, 8


class Subscriber(Timestamped):
    """A phone number on the marketing program, with how and when it consented."""

    id: SubscriberId
    phone: Phone
    """Mobile number in E.164 form (unique)."""
    email: Email | None = None
    """E-mail, if known."""
    first_name: FirstName | None = None
    """Given name."""
    last_name: LastName | None = None
    """Family name."""
    status: SubStatus = "pending"
    """pending (awaiting the Y reply), subscribed or unsubscribed."""
    source: Source
    """How they signed up: keyword, checkout, popup or api."""
    keyword_id: KeywordId | None = None
    """The keyword they texted, if any."""
    consent_text: Text = ""
    """The TCPA consent language they agreed to."""
    consented_at: DateTime | None = None
    """When they confirmed (replied Y)."""
    unsubscribed_at: DateTime | None = None
    """When they opted out."""
    timezone: Timezone = "America/New_York"
    """Their time zone, for quiet hours."""
    tags: tuple[Tag, ...] = ()
    """Tags for targeting."""


class Keyword(Timestamped):
    """A keyword shoppers text to the short code to join, with its auto-reply."""

    id: KeywordId
    keyword: KeywordText
    """The word, upper case (unique)."""
    reply_message: SmsBody
    """The auto-reply asking them to confirm with Y."""
    coupon_pool_id: PoolId | None = None
    """Coupons given on confirmation, if any."""
    active: bool = True
    """Whether texting it signs people up."""


class CouponPool(Timestamped):
    """A pool of unique single-use discount codes from the shop."""

    id: PoolId
    name: Title
    """The pool's name."""
    prefix: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,10}$")]
    """Prefix of its codes."""
    discount_percent: Percent
    """Discount a code gives."""
    codes_total: Quantity
    """Codes available in all."""
    codes_issued: Quantity = 0
    """Codes handed out."""
    expires_on: Date | None = None
    """Last day codes can be redeemed."""


class Coupon(Timestamped):
    """One code issued to one subscriber."""

    id: CouponId
    pool_id: PoolId
    """The pool."""
    code: CouponCode
    """The code (unique)."""
    subscriber_id: SubscriberId
    """Who got it."""
    redeemed_at: DateTime | None = None
    """When it was used at checkout."""


class Campaign(Timestamped):
    """A one-off text to subscribed subscribers, optionally those with a tag."""

    id: CampaignId
    name: Title
    """Internal name."""
    body: SmsBody
    """The message; must tell recipients how to opt out (STOP)."""
    media_url: Url | None = None
    """An image, making it an MMS."""
    audience_tag: Tag | None = None
    """Only subscribers with this tag; none: everyone subscribed."""
    status: CampaignStatus = "draft"
    """draft, scheduled, sent or cancelled."""
    send_at: DateTime | None = None
    """When it is scheduled or was sent."""
    delivered: Quantity = 0
    """Texts delivered at send time."""
    held_for_quiet_hours: Quantity = 0
    """Texts held until 08:00 in the recipient's time zone."""
    segments_per_message: Quantity = 0
    """SMS segments per text (160 characters each, 153 when split)."""


class JourneyStep(Value):
    """A text a journey sends, after a delay."""

    delay_minutes: Annotated[int, Field(ge=0, le=43200)]
    """Minutes after the previous step."""
    body: SmsBody
    """The text."""


class Journey(Timestamped):
    """An automated series of texts started by a trigger."""

    id: JourneyId
    name: Title
    """The journey's name."""
    trigger: JourneyTrigger
    """welcome (new subscriber), cart_abandoned, browse_abandoned or post_purchase."""
    steps: tuple[JourneyStep, ...] = ()
    """The texts, in order."""
    status: JourneyStatus = "draft"
    """draft, live or paused."""
    enrolled_subscriber_ids: tuple[SubscriberId, ...] = ()
    """Who entered it (each once)."""


# -- rules ------------------------------------------------------------------------------------


def _segments(body: str) -> int:
    per = 160 if body.isascii() else 70
    return 1 if len(body) <= per else math.ceil(len(body) / (153 if body.isascii() else 67))


def _quiet(sub: Subscriber, when: dt.datetime) -> bool:
    hour = when.astimezone(ZoneInfo(sub.timezone)).hour
    return hour >= QUIET_START or hour < QUIET_END


def _enrol(ctx: Ctx, trigger: str, sub: Subscriber) -> list[Journey]:
    out = []
    for j in ctx.where(Journey, trigger=trigger, status="live"):
        if sub.id not in j.enrolled_subscriber_ids:
            out.append(ctx.update(j, enrolled_subscriber_ids=(*j.enrolled_subscriber_ids, sub.id)))
    return out


def _confirm(ctx: Ctx, sub: Subscriber) -> Subscriber:
    sub = ctx.update(sub, status="subscribed", consented_at=ctx.now(), unsubscribed_at=None)
    _enrol(ctx, "welcome", sub)
    kw = ctx.find(Keyword, sub.keyword_id) if sub.keyword_id else None
    if kw is not None and kw.coupon_pool_id is not None:
        pool = ctx.get(CouponPool, kw.coupon_pool_id)
        if pool.codes_issued < pool.codes_total and ctx.first(Coupon, pool_id=pool.id, subscriber_id=sub.id) is None:
            _issue(ctx, pool, sub)
    return sub


def _issue(ctx: Ctx, pool: CouponPool, sub: Subscriber) -> Coupon:
    n = pool.codes_issued + 1
    ctx.update(pool, codes_issued=n)
    return ctx.create(Coupon, pool_id=pool.id, code=f"{pool.prefix}-{n:05d}", subscriber_id=sub.id)


def _guard_keyword(ctx: Ctx, new: Any, old: Any) -> None:
    if new.keyword in RESERVED:
        raise RuleViolation(
            f"{new.keyword} is a reserved carrier keyword", field="keyword", hint="pick another word, e.g. JOIN or VIP"
        )
    if new.coupon_pool_id is not None:
        ctx.get(CouponPool, new.coupon_pool_id, field="coupon_pool_id")


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status in ("sent", "cancelled"):
        raise RuleViolation(f"campaign {old.name!r} is {old.status}", field="campaign_id", hint="create a new one")


def _guard_journey(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "live" and not new.steps:
        raise RuleViolation("a journey without steps cannot go live", field="journey_id", hint="add steps first")


subscribers = service.resource(
    Subscriber,
    name="subscriber",
    plural="subscribers",
    prefix="sub",
    create=False,
    filters=("status", "source", "keyword_id", "phone", "email", "timezone"),
    search=("phone", "email", "first_name", "last_name"),
    update=("email", "first_name", "last_name", "tags"),
    delete=False,
    unique=("phone",),
)
keywords = service.resource(
    Keyword,
    name="keyword",
    plural="keywords",
    prefix="kw",
    create=False,
    filters=("active", "coupon_pool_id"),
    search=("keyword",),
    update=("reply_message", "coupon_pool_id", "active"),
    unique=("keyword",),
    guard_update=_guard_keyword,
)
pools = service.resource(
    CouponPool,
    name="coupon_pool",
    plural="coupon_pools",
    prefix="pool",
    create=False,
    filters=("prefix",),
    search=("name",),
    delete=False,
    unique=("prefix",),
    title="coupon pool",
)
coupons = service.resource(
    Coupon,
    name="coupon",
    plural="coupons",
    prefix="cpn",
    create=False,
    get=False,
    filters=("pool_id", "subscriber_id", "code"),
    delete=False,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("name", "body", "media_url", "audience_tag"),
    filters=("status", "audience_tag"),
    search=("name", "body"),
    update=("name", "body", "media_url", "audience_tag"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("draft", "scheduled"), "cancelled", "cancel the campaign", destructive=True)
    },
    guard_update=_guard_campaign,
)
journeys = service.resource(
    Journey,
    name="journey",
    plural="journeys",
    prefix="jrn",
    create=("name", "trigger", "steps"),
    filters=("trigger", "status"),
    search=("name",),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft", "paused"), "live", "set the journey live"),
        "pause": Transition("status", ("live",), "paused", "pause the journey"),
    },
    guard_update=_guard_journey,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the keyword",
    write=True,
    example=lambda ctx: {
        "keyword": "summer",
        "reply_message": "Reply Y to join our summer list. Msg&data rates apply.",
    },
)
def create_keyword(
    ctx: Ctx,
    keyword: Annotated[str, StringConstraints(min_length=2, max_length=20)],
    reply_message: SmsBody,
    coupon_pool_id: PoolId | None = None,
) -> Keyword:
    """Create a sign-up keyword (letters and digits, stored upper case) with its confirmation auto-reply.

    Args:
        keyword: The word shoppers text, e.g. JOIN; carrier words such as STOP or HELP are reserved.
        reply_message: The auto-reply asking them to confirm with Y.
        coupon_pool_id: Give a code of this pool on confirmation.
    """
    word = keyword.strip().upper()
    if not word.isascii() or not word.isalnum():
        raise RuleViolation(f"{keyword!r} must be letters and digits only", field="keyword", hint="e.g. JOIN or VIP20")
    made = ctx.create(Keyword, keyword=word, reply_message=reply_message, coupon_pool_id=coupon_pool_id)
    _guard_keyword(ctx, made, None)
    return made


@service.tool(
    intent="create the coupon pool",
    write=True,
    example=lambda ctx: {"name": "Summer 10%", "prefix": "summer", "discount_percent": 10, "codes_total": 300},
)
def create_coupon_pool(
    ctx: Ctx,
    name: Title,
    prefix: Annotated[str, StringConstraints(min_length=2, max_length=10)],
    discount_percent: Percent,
    codes_total: Annotated[int, Field(ge=1, le=100000)],
    expires_on: Date | None = None,
) -> CouponPool:
    """Upload a pool of unique discount codes (PREFIX-00001 …) from the shop.

    Args:
        name: The pool's name.
        prefix: Code prefix, letters and digits (stored upper case, unique).
        discount_percent: Discount a code gives.
        codes_total: How many codes the pool holds.
        expires_on: Last day codes can be redeemed (not in the past).
    """
    word = prefix.strip().upper()
    if not word.isascii() or not word.isalnum():
        raise RuleViolation(f"{prefix!r} must be letters and digits only", field="prefix", hint="e.g. SPRING")
    if expires_on is not None and expires_on < ctx.today():
        raise RuleViolation("expires_on is in the past", field="expires_on", hint="pick a later day")
    return ctx.create(
        CouponPool,
        name=name,
        prefix=word,
        discount_percent=discount_percent,
        codes_total=codes_total,
        expires_on=expires_on,
    )


def _example_inbound(ctx: Ctx) -> dict[str, Any] | None:
    kw = ctx.first(Keyword, active=True)
    return None if kw is None else {"phone": "+15551230987", "body": kw.keyword.lower()}


@service.tool(intent="process an inbound text", write=True, example=_example_inbound)
def receive_inbound_message(
    ctx: Ctx, phone: Phone, body: Annotated[str, StringConstraints(max_length=160)]
) -> Subscriber:
    """Process a text a shopper sent to the short code: a keyword joins, Y confirms, STOP leaves, START rejoins.

    Args:
        phone: The sender's number.
        body: What they texted (case and spaces do not matter).
    """
    word = body.strip().upper()
    sub = ctx.first(Subscriber, phone=phone)
    if word in STOP_WORDS:
        if sub is None or sub.status == "unsubscribed":
            raise RuleViolation(f"{phone} is not subscribed", field="phone", hint="nothing to opt out of")
        return ctx.update(sub, status="unsubscribed", unsubscribed_at=ctx.now())
    if word in ("Y", "YES"):
        if sub is None or sub.status != "pending":
            raise RuleViolation(f"{phone} has no pending sign-up", field="body", hint="text a keyword first")
        return _confirm(ctx, sub)
    kw = ctx.first(Keyword, keyword=word, active=True) if word not in ("START", "UNSTOP") else None
    if kw is None and word not in ("START", "UNSTOP"):
        raise RuleViolation(f"{word!r} is not an active keyword", field="body", hint="list keywords to find one")
    if sub is not None and sub.status == "subscribed":
        raise Conflict(f"{phone} is already subscribed", field="phone", hint="nothing to join")
    consent = "Texted keyword to join recurring automated marketing texts; consent not a condition of purchase."
    if sub is None:
        if kw is None:
            raise RuleViolation(f"{phone} never subscribed", field="phone", hint="text a keyword to join")
        return ctx.create(Subscriber, phone=phone, source="keyword", keyword_id=kw.id, consent_text=consent)
    return ctx.update(sub, status="pending", keyword_id=kw.id if kw else sub.keyword_id, consent_text=consent)


def _example_signup(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "phone": "+15557654321",
        "source": "checkout",
        "consent_text": "By checking this box you agree to receive recurring automated marketing texts.",
        "email": "new.buyer@inbox.io",
    }


@service.tool(intent="sign up the subscriber", write=True, example=_example_signup)
def create_subscriber(
    ctx: Ctx,
    phone: Phone,
    source: Literal["checkout", "popup", "api"],
    consent_text: Text,
    email: Email | None = None,
    first_name: FirstName | None = None,
    last_name: LastName | None = None,
    timezone: Timezone = "America/New_York",
) -> Subscriber:
    """Sign up a number from checkout or a pop-up; it stays pending until the shopper replies Y.

    Args:
        phone: Mobile number in E.164 form.
        source: checkout, popup or api.
        consent_text: The TCPA consent language the shopper agreed to (required).
        email: Their e-mail.
        first_name: Given name.
        last_name: Family name.
        timezone: Their IANA time zone.
    """
    if not consent_text.strip():
        raise RuleViolation("TCPA needs the consent language shown", field="consent_text", hint="pass the disclosure")
    sub = ctx.first(Subscriber, phone=phone)
    if sub is not None:
        if sub.status == "unsubscribed":
            raise RuleViolation(
                f"{phone} opted out by text",
                field="phone",
                hint="only the subscriber can rejoin, by texting START or a keyword",
            )
        raise Conflict(f"{phone} is already {sub.status} ({sub.id})", field="phone", hint="update that subscriber")
    try:
        ZoneInfo(timezone)
    except Exception as exc:
        raise RuleViolation(f"unknown time zone {timezone}", field="timezone", hint="use an IANA name") from exc
    return ctx.create(
        Subscriber,
        phone=phone,
        email=email,
        first_name=first_name,
        last_name=last_name,
        source=source,
        consent_text=consent_text.strip(),
        timezone=timezone,
    )


@service.tool(
    intent="unsubscribe the subscriber",
    write=True,
    destructive=True,
    example=first_example(Subscriber, "subscriber_id", where={"status": "subscribed"}),
)
def unsubscribe_subscriber(ctx: Ctx, subscriber_id: SubscriberId) -> Subscriber:
    """Opt a subscriber out (as when they ask support); only their own text can bring them back.

    Args:
        subscriber_id: The subscriber.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if sub.status == "unsubscribed":
        raise RuleViolation(f"{sub.phone} is already unsubscribed", field="subscriber_id", hint="nothing to do")
    return ctx.update(sub, status="unsubscribed", unsubscribed_at=ctx.now())


@service.tool(
    intent="issue a coupon code to the subscriber",
    write=True,
    example=lambda ctx: next(
        (
            {"pool_id": p.id, "subscriber_id": s.id}
            for p in ctx.where(CouponPool, prefix="WELCOME")
            for s in ctx.where(Subscriber, status="subscribed")
            if ctx.first(Coupon, pool_id=p.id, subscriber_id=s.id) is None
        ),
        None,
    ),
)
def issue_coupon(ctx: Ctx, pool_id: PoolId, subscriber_id: SubscriberId) -> Coupon:
    """Give a subscribed subscriber the next unique code of a pool (one per subscriber and pool).

    Args:
        pool_id: The coupon pool.
        subscriber_id: The subscriber.
    """
    pool = ctx.get(CouponPool, pool_id, field="pool_id")
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if sub.status != "subscribed":
        raise RuleViolation(f"{sub.phone} is {sub.status}", field="subscriber_id", hint="only subscribers get codes")
    if pool.codes_issued >= pool.codes_total:
        raise RuleViolation(f"pool {pool.name!r} has no codes left", field="pool_id", hint="upload more codes")
    if pool.expires_on is not None and pool.expires_on < ctx.today():
        raise RuleViolation(f"pool {pool.name!r} expired on {pool.expires_on}", field="pool_id", hint="use a live pool")
    held = ctx.first(Coupon, pool_id=pool.id, subscriber_id=sub.id)
    if held is not None:
        raise Conflict(f"{sub.phone} already has code {held.code}", field="subscriber_id", hint="resend that code")
    return _issue(ctx, pool, sub)


@service.tool(
    intent="redeem the coupon code",
    write=True,
    example=first_example(Coupon, None, where={"redeemed_at": None}, fields={"code": "code"}),
)
def redeem_coupon(ctx: Ctx, code: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9-]{4,32}$")]) -> Coupon:
    """Mark a code used at checkout; each code works once, before its pool expires.

    Args:
        code: The coupon code (any case).
    """
    cpn = ctx.first(Coupon, code=code.upper())
    if cpn is None:
        raise RuleViolation(f"no coupon {code}", field="code", hint="check the code")
    if cpn.redeemed_at is not None:
        raise Conflict(f"{code} was redeemed on {cpn.redeemed_at.date()}", field="code", hint="codes work once")
    pool = ctx.get(CouponPool, cpn.pool_id)
    if pool.expires_on is not None and pool.expires_on < ctx.today():
        raise RuleViolation(f"{code} expired on {pool.expires_on}", field="code", hint="issue a current code")
    return ctx.update(cpn, redeemed_at=ctx.now())


def _sendable(ctx: Ctx, c: Campaign) -> list[Subscriber]:
    if c.status not in ("draft", "scheduled"):
        raise RuleViolation(f"campaign {c.name!r} is {c.status}", field="campaign_id", hint="create a new one")
    if "STOP" not in c.body.upper():
        raise RuleViolation(
            "a marketing text must say how to opt out", field="campaign_id", hint="add 'Reply STOP to opt out'"
        )
    subs = [s for s in ctx.where(Subscriber, status="subscribed") if c.audience_tag is None or c.audience_tag in s.tags]
    if not subs:
        raise RuleViolation("no subscribed subscriber in the audience", field="campaign_id", hint="pick another tag")
    return subs


@service.tool(
    intent="schedule the campaign",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "draft"}, send_at="2030-06-01T16:00:00Z"),
)
def schedule_campaign(ctx: Ctx, campaign_id: CampaignId, send_at: DateTime) -> Campaign:
    """Schedule a draft campaign for a future time.

    Args:
        campaign_id: The campaign.
        send_at: When to send (in the future).
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    if c.status != "draft":
        raise RuleViolation(f"campaign {c.name!r} is {c.status}", field="campaign_id", hint="only drafts are scheduled")
    _sendable(ctx, c)
    if send_at <= ctx.now():
        raise RuleViolation("send_at must be in the future", field="send_at", hint="pick a later time")
    return ctx.update(c, status="scheduled", send_at=send_at)


@service.tool(
    intent="send the campaign now",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "draft"}),
)
def send_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """Send a campaign now; recipients in quiet hours (21:00-08:00 their time) get it at 08:00.

    Args:
        campaign_id: The campaign.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    subs = _sendable(ctx, c)
    now = ctx.now()
    held = sum(_quiet(s, now) for s in subs)
    return ctx.update(
        c,
        status="sent",
        send_at=now,
        delivered=len(subs) - held,
        held_for_quiet_hours=held,
        segments_per_message=_segments(c.body),
    )


@service.tool(
    intent="trigger the journey for the subscriber",
    write=True,
    example=first_example(Subscriber, "subscriber_id", where={"status": "subscribed"}, trigger="cart_abandoned"),
)
def trigger_journey(ctx: Ctx, subscriber_id: SubscriberId, trigger: JourneyTrigger) -> list[Journey]:
    """Send a custom event (cart abandoned, product browsed, order placed) that enrols a subscriber in live journeys.

    Args:
        subscriber_id: The subscriber.
        trigger: cart_abandoned, browse_abandoned, post_purchase or welcome.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if sub.status != "subscribed":
        raise RuleViolation(f"{sub.phone} is {sub.status}", field="subscriber_id", hint="only subscribers get texts")
    live = ctx.where(Journey, trigger=trigger, status="live")
    if not live:
        raise RuleViolation(f"no live {trigger} journey", field="trigger", hint="set one live first")
    done = _enrol(ctx, trigger, sub)
    if not done:
        raise Conflict(
            f"{sub.phone} already went through every live {trigger} journey",
            field="subscriber_id",
            hint="each subscriber enters once",
        )
    return done


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Consumers subscribed by keyword and checkout, pending and opted-out numbers, campaigns, journeys, coupons."""
    pop = s.population
    brand = pop.home.name
    pools = [
        s.create(
            CouponPool,
            name=name,
            prefix=prefix,
            discount_percent=pct,
            codes_total=total,
            expires_on=(s.now + dt.timedelta(days=days)).date(),
            created_at=s.ago(days=90),
            updated_at=s.ago(days=90),
        )
        for name, prefix, pct, total, days in (
            ("Welcome 15%", "WELCOME", 15, 500, 180),
            ("VIP 25%", "VIP", 25, 40, 60),
            ("Black Friday 30%", "BF", 30, 200, -90),
        )
    ]
    kws = [
        s.create(
            Keyword,
            keyword=word,
            reply_message=f"{brand}: Reply Y to get recurring autodialed marketing texts. Msg&data rates may apply.",
            coupon_pool_id=pool,
            active=active,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=200),
        )
        for word, pool, active in (("JOIN", pools[0].id, True), ("VIP", pools[1].id, True), ("HOLIDAY", None, False))
    ]
    people = pop.consumers[:28]
    issued: dict[str, int] = {}
    for k, p in enumerate(people):
        status: SubStatus = "unsubscribed" if k % 7 == 6 else ("pending" if k % 9 == 4 else "subscribed")
        by_kw = k % 2 == 0
        sub = s.create(
            Subscriber,
            phone=p.phone,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            status=status,
            source="keyword" if by_kw else ("checkout", "popup")[k % 4 // 2],
            keyword_id=kws[k % 4 // 2].id if by_kw else None,
            consent_text="Texted keyword to join recurring automated marketing texts."
            if by_kw
            else "Checked the SMS box at checkout: recurring automated marketing texts; consent not required.",
            consented_at=None if status == "pending" else s.ago(days=150 - 4 * k),
            unsubscribed_at=s.ago(days=10 + k) if status == "unsubscribed" else None,
            timezone=p.place.timezone,
            tags=("vip",) if k % 5 == 0 else (),
            created_at=s.ago(days=150 - 4 * k),
            updated_at=s.ago(days=5),
        )
        if by_kw and status != "pending":
            pool = pools[k % 4 // 2]
            issued[pool.id] = issued.get(pool.id, 0) + 1
            s.create(
                Coupon,
                pool_id=pool.id,
                code=f"{pool.prefix}-{issued[pool.id]:05d}",
                subscriber_id=sub.id,
                redeemed_at=s.ago(days=20) if k % 3 == 0 else None,
                created_at=s.ago(days=100),
                updated_at=s.ago(days=20),
            )
    for pool in pools:
        s.update(pool, codes_issued=issued.get(pool.id, 0))
    opt_out = "Reply STOP to opt out."
    for name, trigger, steps, jstatus in (
        ("Welcome series", "welcome", ((0, f"Welcome to {brand}! Here is your code. {opt_out}"),), "live"),
        ("Abandoned cart", "cart_abandoned", ((60, "You left items in your cart."), (1440, "Still there?")), "live"),
        ("Browse follow-up", "browse_abandoned", ((120, "Saw something you liked?"),), "paused"),
        ("Post-purchase review ask", "post_purchase", (), "draft"),
    ):
        s.create(
            Journey,
            name=name,
            trigger=trigger,
            steps=tuple(JourneyStep(delay_minutes=d, body=b) for d, b in steps),
            status=jstatus,
            enrolled_subscriber_ids=tuple(x.id for x in s.records(Subscriber)[:6:2]) if trigger == "welcome" else (),
            created_at=s.ago(days=120),
            updated_at=s.ago(days=30),
        )
    for name, body, tag, cstatus, when, delivered in (
        ("Spring drop", f"{brand}: the spring collection is live! {opt_out}", None, "sent", s.ago(days=20), 18),
        ("VIP early access", f"{brand} VIPs shop first tonight. {opt_out}", "vip", "scheduled", s.ago(days=-2), 0),
        ("Weekend sale", f"{brand}: 20% off all weekend. {opt_out}", None, "draft", None, 0),
        ("Payday promo", f"{brand}: payday deals inside.", None, "draft", None, 0),
        ("Flash sale", f"{brand}: 2 hours only! {opt_out}", None, "cancelled", None, 0),
    ):
        s.create(
            Campaign,
            name=name,
            body=body,
            audience_tag=tag,
            status=cstatus,
            send_at=when,
            delivered=delivered,
            segments_per_message=_segments(body) if cstatus == "sent" else 0,
            created_at=s.ago(days=30),
            updated_at=s.ago(days=3),
        )
