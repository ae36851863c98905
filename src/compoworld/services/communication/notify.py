"""Pulsewire Push: apps, device and channel subscriptions, segments, topics and notifications with delivery counts.

Modeled on the OneSignal REST API (Apps with platform credentials, Users and
Subscriptions with tags, Segments with filters, Create/Cancel Notification,
View Outcomes) and Firebase Cloud Messaging topics: a notification targets
exactly one audience (segments, a topic, or listed users) on one channel
(push, e-mail or SMS); it reaches only enabled subscriptions of that channel,
push only on platforms whose credentials are configured (others count as
errored), and a notification with nobody to reach is refused; an invalid
device token fails its delivery and unsubscribes the device; e-mail needs a
subject and SMS fits 1,600 characters; scheduled notifications go out later
(up to 30 days) and only they can be canceled; segment filters must fit their
field; a segment used by a scheduled notification cannot be deleted; a click
counts once per delivered notification.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Country, DateTime, Email, IdOf, Language, Phone, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.world.commerce import first_order_numbers
from compoworld.world.org import department_of

__all__ = ["service"]

service = Service(
    "notify",
    title="Pulsewire Push",
    category="messaging",
    modeled_on="OneSignal REST API (Apps, Users and Subscriptions, Segments, Notifications, Outcomes) / "
    "Firebase Cloud Messaging topics",
    description="Customer engagement messaging: apps register devices and e-mail or SMS subscriptions "
    "with tags; segments and topics group them; notifications go to an audience on one channel, now or "
    "scheduled, and report sent, failed, errored and clicked counts per delivery.",
)

AppId = Annotated[str, IdOf("notify.app")]
SubscriptionId = Annotated[str, IdOf("notify.subscription")]
SegmentId = Annotated[str, IdOf("notify.segment")]
TopicId = Annotated[str, IdOf("notify.topic")]
NotificationId = Annotated[str, IdOf("notify.notification")]
DeliveryId = Annotated[str, IdOf("notify.delivery")]

SubType = Literal["ios_push", "android_push", "web_push", "email", "sms"]
Channel = Literal["push", "email", "sms"]
AppName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
TopicName = Annotated[str, StringConstraints(pattern=r"^[a-zA-Z0-9_.~%-]{1,60}$")]
TagKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
Tags = Annotated[dict[TagKey, Annotated[str, StringConstraints(max_length=100)]], Field(max_length=20)]
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9:_-]{16,200}$")]
FilterField = Literal["tag", "country", "language", "type", "session_count", "last_active_days"]
Relation = Literal["=", "!=", ">", "<", "exists", "not_exists"]
PUSH: tuple[str, ...] = ("ios_push", "android_push", "web_push")
MAX_SCHEDULE_DAYS = 30


class App(Created):
    """An app whose users get notifications."""

    id: AppId
    name: AppName
    """App name; unique."""
    apns_configured: bool = False
    """Whether Apple push credentials are set (iOS push works)."""
    fcm_configured: bool = False
    """Whether Firebase credentials are set (Android push works)."""
    web_origin: Url | None = None
    """Site origin for web push; web push works when set."""
    email_from: Email | None = None
    """Sender address for e-mail; e-mail works when set."""
    sms_from: Phone | None = None
    """Sender number for SMS; SMS works when set."""


class Subscription(Created):
    """One way to reach a user: a device's push token, an e-mail address or a phone number."""

    id: SubscriptionId
    app_id: AppId
    """The app."""
    type: SubType
    """ios_push, android_push, web_push, email or sms."""
    token: Token | None = None
    """Push token of the device."""
    email: Email | None = None
    """Address of an e-mail subscription."""
    phone: Phone | None = None
    """Number of an SMS subscription."""
    external_user: Email | None = None
    """The user the subscription belongs to (their account e-mail)."""
    enabled: bool = True
    """Whether it receives notifications (false after opting out or an invalid token)."""
    token_valid: bool = True
    """Whether the provider still accepts the token or address."""
    tags: dict[str, str] = Field(default_factory=dict)
    """Key-value tags for segmentation."""
    topic_ids: tuple[TopicId, ...] = ()
    """Topics it subscribed to."""
    country: Country | None = None
    """Country of the device."""
    language: Language = "en"
    """Language of the user."""
    session_count: int = 0
    """App sessions so far."""
    last_active: DateTime | None = None
    """Last session."""


class SegmentFilter(Value):
    """One condition of a segment."""

    field: FilterField = Field(description="What to compare.")
    key: TagKey | None = Field(default=None, description="The tag key, for field 'tag'.")
    relation: Relation = Field(description="How to compare.")
    value: str | int | None = Field(default=None, description="What to compare with (none for exists/not_exists).")


class Segment(Created):
    """A saved audience: the subscriptions matching all of its filters."""

    id: SegmentId
    app_id: AppId
    """The app."""
    name: AppName
    """Name; unique per app."""
    filters: list[SegmentFilter] = Field(default_factory=list, max_length=10)
    """Conditions that must all hold; none means every subscription."""


class Topic(Created):
    """A topic devices subscribe to (FCM-style)."""

    id: TopicId
    app_id: AppId
    """The app."""
    name: TopicName
    """Name; unique per app."""


class Notification(Timestamped):
    """A message sent (or scheduled) to an audience on one channel."""

    id: NotificationId
    app_id: AppId
    """The app."""
    channel: Channel
    """push, email or sms."""
    headings: Title | None = None
    """Title of a push, or subject of an e-mail."""
    contents: Text
    """Message text."""
    url: Url | None = None
    """What opening it launches."""
    included_segment_ids: tuple[SegmentId, ...] = ()
    """Segments targeted."""
    excluded_segment_ids: tuple[SegmentId, ...] = ()
    """Segments left out."""
    topic_id: TopicId | None = None
    """Topic targeted."""
    external_users: tuple[Email, ...] = ()
    """Users targeted by their account e-mail."""
    status: Literal["scheduled", "sent", "canceled"]
    """scheduled, sent or canceled."""
    send_after: DateTime | None = None
    """When a scheduled notification goes out."""
    recipients: int = 0
    """Subscriptions it was sent to."""
    successful: int = 0
    """Deliveries accepted by the provider."""
    failed: int = 0
    """Deliveries refused (invalid token or address)."""
    errored: int = 0
    """Subscriptions skipped because the platform is not configured."""
    converted: int = 0
    """Deliveries clicked."""


class Delivery(Record):
    """A notification's delivery to one subscription."""

    id: DeliveryId
    notification_id: NotificationId
    """The notification."""
    subscription_id: SubscriptionId
    """The subscription."""
    external_user: Email | None = None
    """The user it reached."""
    status: Literal["delivered", "failed"]
    """delivered or failed."""
    clicked: bool = False
    """Whether the user clicked it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


# -- rules ------------------------------------------------------------------------------------


def _check_filters(filters: list[SegmentFilter], field: str) -> None:
    for i, f in enumerate(filters):
        where = f"{field}.{i}"
        if (f.field == "tag") != (f.key is not None):
            raise RuleViolation("a key goes with tag filters only", field=f"{where}.key", hint="give key for tags only")
        numeric = f.field in ("session_count", "last_active_days")
        if f.relation in ("exists", "not_exists"):
            if f.field != "tag":
                raise RuleViolation(f"{f.relation} applies to tags only", field=f"{where}.relation", hint="use = or !=")
            if f.value is not None:
                raise RuleViolation(f"{f.relation} takes no value", field=f"{where}.value", hint="omit the value")
            continue
        if f.value is None:
            raise RuleViolation("the filter needs a value", field=f"{where}.value", hint="give a value")
        if f.relation in (">", "<") and not numeric:
            raise RuleViolation(
                f"{f.relation} needs session_count or last_active_days", field=f"{where}.relation", hint="use ="
            )
        if numeric and not isinstance(f.value, int):
            raise RuleViolation(f"{f.field} compares with a number", field=f"{where}.value", hint="give a number")
        if f.field == "last_active_days" and f.relation not in (">", "<"):
            raise RuleViolation("last_active_days uses > or <", field=f"{where}.relation", hint="use > or <")


def _guard_segment(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        for n in ctx.where(Notification, app_id=old.app_id, status="scheduled"):
            if old.id in n.included_segment_ids or old.id in n.excluded_segment_ids:
                raise RuleViolation(
                    f"segment {old.name} is used by scheduled notification {n.id}",
                    field="segment_id",
                    hint="cancel that notification first",
                )
        return
    _check_filters(new.filters, "filters")
    for other in ctx.where(Segment, app_id=new.app_id, name=new.name):
        if other.id != new.id:
            raise Conflict(f"the app already has a segment {new.name}", field="name", hint="pick another name")


def _guard_topic(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Topic, app_id=new.app_id, name=new.name):
        if other.id != new.id:
            raise Conflict(f"the app already has a topic {new.name}", field="name", hint="use it")


apps = service.resource(
    App,
    name="app",
    plural="apps",
    prefix="app",
    create=False,
    filters=("apns_configured", "fcm_configured"),
    search=("name",),
    update=("apns_configured", "fcm_configured", "web_origin", "email_from", "sms_from"),
    delete=False,
    unique=("name",),
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    filters=("app_id", "type", "external_user", "email", "phone", "enabled", "country", "language"),
    update=("enabled", "tags", "language"),
    delete=False,
)
segments = service.resource(
    Segment,
    name="segment",
    plural="segments",
    prefix="seg",
    create=("app_id", "name", "filters"),
    get=False,
    filters=("app_id", "name"),
    guard_create=_guard_segment,
    guard_delete=_guard_segment,
)
topics = service.resource(
    Topic,
    name="topic",
    plural="topics",
    prefix="top",
    create=("app_id", "name"),
    get=False,
    filters=("app_id", "name"),
    delete=False,
    guard_create=_guard_topic,
)
notifications = service.resource(
    Notification,
    name="notification",
    plural="notifications",
    prefix="ntf",
    create=False,
    filters=("app_id", "channel", "status", "topic_id"),
    search=("headings", "contents"),
    delete=False,
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    get=False,
    filters=("notification_id", "subscription_id", "external_user", "status", "clicked"),
    delete=False,
)


def _configured(app: App, sub_type: str) -> bool:
    return {
        "ios_push": app.apns_configured,
        "android_push": app.fcm_configured,
        "web_push": app.web_origin is not None,
        "email": app.email_from is not None,
        "sms": app.sms_from is not None,
    }[sub_type]


def _matches(sub: Subscription, seg: Segment, now: dt.datetime) -> bool:
    for f in seg.filters:
        if f.field == "tag":
            have: Any = sub.tags.get(f.key or "")
        elif f.field == "session_count":
            have = sub.session_count
        elif f.field == "last_active_days":
            have = (now - sub.last_active).days if sub.last_active else 10**6
        else:
            have = getattr(sub, f.field)
        if f.relation == "exists":
            ok = have is not None
        elif f.relation == "not_exists":
            ok = have is None
        elif f.relation == "=":
            ok = have is not None and str(have) == str(f.value)
        elif f.relation == "!=":
            ok = have is None or str(have) != str(f.value)
        elif have is None or not isinstance(f.value, int):
            ok = False
        else:
            ok = have > f.value if f.relation == ">" else have < f.value
        if not ok:
            return False
    return True


def _channel_of(sub_type: str) -> str:
    return "push" if sub_type in PUSH else sub_type


# -- examples ---------------------------------------------------------------------------------


def _app(ctx: Ctx) -> App:
    return next(a for a in ctx.where(App, apns_configured=True))


def _example_subscribe(ctx: Ctx) -> dict[str, Any]:
    app = _app(ctx)
    person = ctx.population.consumers[-1]
    return {
        "app_id": app.id,
        "type": "android_push",
        "token": "fcm:EXAMPLE0123456789abcdef",
        "external_user": person.email,
    }


def _example_topic(ctx: Ctx) -> dict[str, Any] | None:
    for topic in ctx.scan(Topic):
        for sub in ctx.where(Subscription, app_id=topic.app_id, enabled=True):
            if sub.type in PUSH and topic.id not in sub.topic_ids:
                return {"subscription_id": sub.id, "topic_id": topic.id}
    return None


def _example_audience(ctx: Ctx) -> dict[str, Any]:
    seg = next(iter(ctx.where(Segment, app_id=_app(ctx).id)))
    return {"segment_id": seg.id}


def _example_send(ctx: Ctx) -> dict[str, Any]:
    app = _app(ctx)
    seg = next(iter(ctx.where(Segment, app_id=app.id, name="Subscribed Users")))
    return {
        "app_id": app.id,
        "channel": "push",
        "headings": "Spring sale",
        "contents": "20% off everything until Sunday.",
        "included_segment_ids": [seg.id],
    }


# -- subscriptions, topics, segments ----------------------------------------------------------


@service.tool(intent="register a device or channel for notifications", write=True, example=_example_subscribe)
def create_subscription(
    ctx: Ctx,
    app_id: AppId,
    type: SubType,
    token: Token | None = None,
    email: Email | None = None,
    phone: Phone | None = None,
    external_user: Email | None = None,
    tags: Tags | None = None,
    country: Country | None = None,
    language: Language = "en",
) -> Subscription:
    """Register a push device (token), an e-mail address or a phone number with an app.

    Push subscriptions need a token, e-mail ones an address, SMS ones a number;
    the app must be set up for the platform; a token, address or number is
    registered once per app.

    Args:
        app_id: The app.
        type: ios_push, android_push, web_push, email or sms.
        token: Push token (push types).
        email: Address (e-mail type).
        phone: Number (sms type).
        external_user: The user's account e-mail, to target them by it.
        tags: Tags for segmentation.
        country: Country of the device.
        language: Language of the user.
    """
    app = ctx.get(App, app_id, field="app_id")
    if not _configured(app, type):
        raise RuleViolation(
            f"app {app.name} is not set up for {type}",
            field="type",
            hint="configure the platform's credentials with notify__update_app first",
        )
    need = {"email": ("email", email), "sms": ("phone", phone)}.get(type, ("token", token))
    if need[1] is None:
        raise RuleViolation(f"a {type} subscription needs its {need[0]}", field=need[0], hint=f"pass {need[0]}")
    extras = {"token": token, "email": email, "phone": phone}
    for name, value in extras.items():
        if name != need[0] and value is not None:
            raise RuleViolation(f"a {type} subscription takes no {name}", field=name, hint=f"omit {name}")
    other = ctx.first(Subscription, app_id=app.id, **{need[0]: need[1]})
    if other is not None:
        raise Conflict(f"that {need[0]} is already subscription {other.id}", field=need[0], hint="update it instead")
    return ctx.create(
        Subscription,
        app_id=app.id,
        type=type,
        token=token,
        email=email,
        phone=phone,
        external_user=external_user,
        tags=dict(tags or {}),
        country=country,
        language=language,
        session_count=1 if type in PUSH else 0,
        last_active=ctx.now() if type in PUSH else None,
    )


@service.tool(intent="subscribe the device to the topic", write=True, idempotent=True, example=_example_topic)
def set_topic_subscription(
    ctx: Ctx, subscription_id: SubscriptionId, topic_id: TopicId, subscribed: bool = True
) -> Subscription:
    """Subscribe a push device to a topic of its app, or unsubscribe it.

    Args:
        subscription_id: The push subscription.
        topic_id: The topic.
        subscribed: True to subscribe, False to unsubscribe.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    topic = ctx.get(Topic, topic_id, field="topic_id")
    if topic.app_id != sub.app_id:
        raise RuleViolation("the topic belongs to another app", field="topic_id", hint="pick a topic of the same app")
    if sub.type not in PUSH:
        raise RuleViolation("only push devices subscribe to topics", field="subscription_id", hint="pick a device")
    have = set(sub.topic_ids)
    new = have | {topic.id} if subscribed else have - {topic.id}
    return sub if new == have else ctx.update(sub, topic_ids=tuple(sorted(new)))


class Audience(BaseModel):
    """Who a segment reaches."""

    segment_id: SegmentId = Field(description="The segment.")
    total: int = Field(description="Subscriptions matching the filters.")
    reachable: int = Field(description="Of those, enabled with a valid token on a configured platform.")
    by_type: dict[str, int] = Field(description="Reachable subscriptions per type.")
    external_users: list[Email] = Field(description="Distinct users reachable, by account e-mail (first 50).")


@service.tool(intent="estimate who the segment reaches", example=_example_audience)
def estimate_audience(ctx: Ctx, segment_id: SegmentId) -> Audience:
    """Count the subscriptions a segment matches and how many of them can be reached now.

    Args:
        segment_id: The segment.
    """
    seg = ctx.get(Segment, segment_id, field="segment_id")
    app = ctx.get(App, seg.app_id)
    matching = [s for s in ctx.where(Subscription, app_id=app.id) if _matches(s, seg, ctx.now())]
    live = [s for s in matching if s.enabled and s.token_valid and _configured(app, s.type)]
    by_type: dict[str, int] = {}
    for s in live:
        by_type[s.type] = by_type.get(s.type, 0) + 1
    users = sorted({s.external_user for s in live if s.external_user})
    return Audience(
        segment_id=seg.id, total=len(matching), reachable=len(live), by_type=by_type, external_users=users[:50]
    )


# -- notifications ----------------------------------------------------------------------------


@service.tool(intent="send a notification", write=True, example=_example_send)
def send_notification(
    ctx: Ctx,
    app_id: AppId,
    channel: Channel,
    contents: Text,
    headings: Title | None = None,
    url: Url | None = None,
    included_segment_ids: Annotated[list[SegmentId], Field(max_length=10)] | None = None,
    excluded_segment_ids: Annotated[list[SegmentId], Field(max_length=10)] | None = None,
    topic_id: TopicId | None = None,
    external_users: Annotated[list[Email], Field(max_length=200)] | None = None,
    send_after: DateTime | None = None,
) -> Notification:
    """Send a notification now, or schedule it, to exactly one audience on one channel.

    The audience is segments (minus excluded segments), a topic (push only), or
    users by account e-mail. Only enabled subscriptions of the channel count;
    push to platforms without credentials is errored; an invalid token fails
    and unsubscribes the device. E-mail needs headings (the subject); SMS
    fits 1,600 characters. A notification that reaches nobody is refused.
    send_after schedules it up to 30 days ahead.

    Args:
        app_id: The app.
        channel: push, email or sms.
        contents: Message text.
        headings: Push title or e-mail subject.
        url: What opening it launches.
        included_segment_ids: Segments to target.
        excluded_segment_ids: Segments to leave out.
        topic_id: Topic to target (push).
        external_users: Users to target, by account e-mail.
        send_after: When to send it; omit to send now.
    """
    app = ctx.get(App, app_id, field="app_id")
    modes = [m for m, v in (("segments", included_segment_ids), ("topic", topic_id), ("users", external_users)) if v]
    if len(modes) != 1:
        raise RuleViolation(
            "target exactly one audience", field="included_segment_ids", hint="give segments, a topic or users"
        )
    if not contents.strip():
        raise RuleViolation("the message is empty", field="contents", hint="write the message")
    if channel == "email" and headings is None:
        raise RuleViolation("an e-mail needs a subject", field="headings", hint="pass headings")
    if channel == "sms" and len(contents) > 1600:
        raise RuleViolation("SMS fits 1600 characters", field="contents", hint="shorten the message")
    if topic_id is not None:
        topic = ctx.get(Topic, topic_id, field="topic_id")
        if topic.app_id != app.id or channel != "push":
            raise RuleViolation("topics are push topics of the same app", field="topic_id", hint="check the topic")
    segs: dict[str, list[Segment]] = {"in": [], "out": []}
    for key, ids, field in (("in", included_segment_ids, "included"), ("out", excluded_segment_ids, "excluded")):
        for i, sid in enumerate(ids or []):
            seg = ctx.get(Segment, sid, field=f"{field}_segment_ids.{i}")
            if seg.app_id != app.id:
                raise RuleViolation(
                    f"segment {seg.name} belongs to another app", field=f"{field}_segment_ids.{i}", hint="pick another"
                )
            segs[key].append(seg)
    if send_after is not None:
        ahead = send_after - ctx.now()
        if ahead <= dt.timedelta(0) or ahead > dt.timedelta(days=MAX_SCHEDULE_DAYS):
            raise RuleViolation(
                f"send_after must be in the next {MAX_SCHEDULE_DAYS} days", field="send_after", hint="pick a time"
            )
    wanted = set(external_users or [])
    audience = []
    for sub in ctx.where(Subscription, app_id=app.id, enabled=True):
        if _channel_of(sub.type) != channel:
            continue
        if topic_id is not None and topic_id not in sub.topic_ids:
            continue
        if wanted and sub.external_user not in wanted:
            continue
        if segs["in"] and not any(_matches(sub, s, ctx.now()) for s in segs["in"]):
            continue
        if any(_matches(sub, s, ctx.now()) for s in segs["out"]):
            continue
        audience.append(sub)
    reachable = [s for s in audience if _configured(app, s.type)]
    if not reachable:
        raise RuleViolation(
            "no subscribed recipients: the audience has no enabled subscription on a configured platform",
            field="included_segment_ids"
            if modes[0] == "segments"
            else ("topic_id" if modes[0] == "topic" else "external_users"),
            hint="target another audience or channel, or configure the platform",
        )
    note = ctx.create(
        Notification,
        app_id=app.id,
        channel=channel,
        headings=headings,
        contents=contents,
        url=url,
        included_segment_ids=tuple(s.id for s in segs["in"]),
        excluded_segment_ids=tuple(s.id for s in segs["out"]),
        topic_id=topic_id,
        external_users=tuple(sorted(wanted)),
        status="scheduled" if send_after else "sent",
        send_after=send_after,
    )
    if send_after is not None:
        return note
    ok = bad = 0
    for sub in reachable:
        good = sub.token_valid
        ctx.create(
            Delivery,
            notification_id=note.id,
            subscription_id=sub.id,
            external_user=sub.external_user,
            status="delivered" if good else "failed",
        )
        if good:
            ok += 1
        else:
            bad += 1
            ctx.update(sub, enabled=False)
    return ctx.update(note, recipients=len(audience), successful=ok, failed=bad, errored=len(audience) - len(reachable))


@service.tool(
    intent="cancel the scheduled notification",
    write=True,
    example=first_example(Notification, "notification_id", where={"status": "scheduled"}),
)
def cancel_notification(ctx: Ctx, notification_id: NotificationId) -> Notification:
    """Cancel a scheduled notification before it goes out; sent ones cannot be recalled.

    Args:
        notification_id: The notification.
    """
    note = ctx.get(Notification, notification_id, field="notification_id")
    if note.status != "scheduled":
        raise RuleViolation(
            f"notification {note.id} is {note.status}", field="notification_id", hint="only scheduled ones are canceled"
        )
    return ctx.update(note, status="canceled")


@service.tool(
    intent="record a click on the notification",
    write=True,
    example=first_example(Delivery, "delivery_id", where={"status": "delivered", "clicked": False}),
)
def record_click(ctx: Ctx, delivery_id: DeliveryId) -> Notification:
    """Record that a user clicked a delivered notification (once per delivery).

    Args:
        delivery_id: The delivery.
    """
    d = ctx.get(Delivery, delivery_id, field="delivery_id")
    if d.status != "delivered":
        raise RuleViolation("a failed delivery cannot be clicked", field="delivery_id", hint="pick a delivered one")
    if d.clicked:
        raise Conflict("the click is already recorded", field="delivery_id", hint="clicks count once per delivery")
    ctx.update(d, clicked=True)
    note = ctx.get(Notification, d.notification_id)
    return ctx.update(note, converted=note.converted + 1)


# -- seed -------------------------------------------------------------------------------------


def _token(kind: str, key: str) -> str:
    h = hashlib.sha256(f"{kind}:{key}".encode()).hexdigest()
    return f"{kind[:3]}:{h[:48]}"


@service.seeder
def seed(s: SeedContext) -> None:
    """A shop app and a staff app, customers' devices, e-mail and SMS subscriptions, segments, topics, sends."""
    now = s.now
    home = s.population.home
    shop = s.create(
        App,
        name=f"{home.name} Shop",
        apns_configured=True,
        fcm_configured=True,
        web_origin=f"https://shop.{home.domain}",
        email_from=f"news@{home.domain}",
        sms_from=f"{home.place.phone_prefix}5550100"[:16],
        created_at=now - dt.timedelta(days=500),
    )
    staff_app = s.create(App, name=f"{home.name} Staff", fcm_configured=True, created_at=now - dt.timedelta(days=300))
    subs = _seed_shop_subscriptions(s, shop)
    _seed_staff_subscriptions(s, staff_app)
    seg = _seed_segments_and_topics(s, shop, staff_app, subs)
    _seed_sent(s, shop, seg[(shop.id, "Gold tier")], "A thank-you for our gold members", "Free shipping all week.", 12)
    _seed_sent(s, shop, seg[(shop.id, "German speakers")], "Neu im Shop", "Die Frühjahrskollektion ist da.", 5)
    _seed_sent(
        s, staff_app, seg[(staff_app.id, "Subscribed Users")], "Office closed Friday", "Enjoy the long weekend!", 3
    )
    s.create(
        Notification,
        app_id=shop.id,
        channel="push",
        headings="Weekend deals",
        contents="Up to 30% off this weekend.",
        included_segment_ids=(seg[(shop.id, "Active Users")].id,),
        excluded_segment_ids=(seg[(shop.id, "Gold tier")].id,),
        status="scheduled",
        send_after=now + dt.timedelta(days=2),
        created_at=now - dt.timedelta(hours=3),
        updated_at=now - dt.timedelta(hours=3),
    )
    s.create(
        Notification,
        app_id=shop.id,
        channel="email",
        headings="We miss you",
        contents="Come back for 10% off your next order.",
        included_segment_ids=(seg[(shop.id, "Inactive Users")].id,),
        status="canceled",
        send_after=now + dt.timedelta(days=1),
        created_at=now - dt.timedelta(days=1),
        updated_at=now - dt.timedelta(hours=20),
    )


def _seed_shop_subscriptions(s: SeedContext, shop: App) -> list[Subscription]:
    """Every consumer's device (returned), and some consumers' e-mail and SMS, tagged with tier and first order."""
    pop = s.population
    now = s.now
    orders = first_order_numbers(pop)
    subs: list[Subscription] = []
    kinds: tuple[SubType, ...] = ("ios_push", "android_push", "web_push")
    for i, p in enumerate(pop.consumers):
        tags = {"tier": ("gold", "silver", "bronze")[i % 3]}
        if p.email in orders:
            tags["first_order"] = orders[p.email]
        kind = kinds[i % 3]
        subs.append(
            s.create(
                Subscription,
                app_id=shop.id,
                type=kind,
                token=_token(kind, p.key),
                external_user=p.email,
                enabled=i % 11 != 10,
                token_valid=i % 13 != 6,
                tags=tags,
                country=p.place.country,
                language=p.place.language,
                session_count=1 + (i * 7) % 40,
                last_active=now - dt.timedelta(days=(i * 5) % 60, hours=i % 24),
                created_at=now - dt.timedelta(days=100 + i),
            )
        )
        if i % 3 == 0:
            s.create(
                Subscription,
                app_id=shop.id,
                type="email",
                email=p.email,
                external_user=p.email,
                enabled=i % 9 != 3,
                tags=tags,
                country=p.place.country,
                language=p.place.language,
                created_at=now - dt.timedelta(days=100 + i),
            )
        if i % 5 == 0:
            s.create(
                Subscription,
                app_id=shop.id,
                type="sms",
                phone=p.phone,
                external_user=p.email,
                tags=tags,
                country=p.place.country,
                language=p.place.language,
                created_at=now - dt.timedelta(days=90 + i),
            )
    return subs


def _seed_staff_subscriptions(s: SeedContext, staff_app: App) -> None:
    for i, p in enumerate(s.population.employees):
        kind = "ios_push" if i % 4 == 0 else "android_push"
        s.create(
            Subscription,
            app_id=staff_app.id,
            type=kind,
            token=_token(kind, p.key),
            external_user=p.email,
            tags={"department": department_of(p).lower()},
            country=p.place.country,
            language=p.place.language,
            session_count=5 + i % 30,
            last_active=s.now - dt.timedelta(days=i % 10),
            created_at=s.now - dt.timedelta(days=200),
        )


def _seed_segments_and_topics(
    s: SeedContext, shop: App, staff_app: App, subs: list[Subscription]
) -> dict[tuple[str, str], Segment]:
    """Segments of both apps (returned by app id and name), topics, and the shop devices' topic subscriptions."""
    seg_specs: tuple[tuple[App, str, list[SegmentFilter]], ...] = (
        (shop, "Subscribed Users", []),
        (shop, "Active Users", [SegmentFilter(field="last_active_days", relation="<", value=7)]),
        (shop, "Inactive Users", [SegmentFilter(field="last_active_days", relation=">", value=30)]),
        (shop, "Gold tier", [SegmentFilter(field="tag", key="tier", relation="=", value="gold")]),
        (shop, "German speakers", [SegmentFilter(field="language", relation="=", value="de")]),
        (shop, "Never ordered", [SegmentFilter(field="tag", key="first_order", relation="not_exists")]),
        (staff_app, "Subscribed Users", []),
        (staff_app, "Engineering", [SegmentFilter(field="tag", key="department", relation="=", value="engineering")]),
    )
    seg = {(app.id, name): s.create(Segment, app_id=app.id, name=name, filters=f) for app, name, f in seg_specs}
    topics = {name: s.create(Topic, app_id=shop.id, name=name) for name in ("order-updates", "deals", "new-arrivals")}
    s.create(Topic, app_id=staff_app.id, name="outages")
    for i, sub in enumerate(subs):
        chosen = [t.id for k, t in enumerate(topics.values()) if (i + k) % 3 != 2]
        s.update(sub, topic_ids=tuple(sorted(chosen)))
    return seg


def _seed_sent(s: SeedContext, app: App, segment: Segment, heading: str, text: str, days_ago: int) -> None:
    """A push sent to a segment ``days_ago``, its deliveries and clicks; refused tokens unsubscribe their device."""
    when = s.ago(days=days_ago)
    note = s.create(
        Notification,
        app_id=app.id,
        channel="push",
        headings=heading,
        contents=text,
        url=app.web_origin,
        included_segment_ids=(segment.id,),
        status="sent",
        created_at=when,
        updated_at=when,
    )
    okc = bad = clicks = 0
    total = errored = 0
    for sub in s.records(Subscription):
        if sub.app_id != app.id or sub.type not in PUSH or not sub.enabled:
            continue
        if not _matches(sub, segment, s.now):
            continue
        total += 1
        if not _configured(app, sub.type):
            errored += 1
            continue
        clicked = sub.token_valid and s.rng.random() < 0.3
        s.create(
            Delivery,
            notification_id=note.id,
            subscription_id=sub.id,
            external_user=sub.external_user,
            status="delivered" if sub.token_valid else "failed",
            clicked=clicked,
            created_at=when,
        )
        okc += sub.token_valid
        bad += not sub.token_valid
        clicks += clicked
        if not sub.token_valid:
            s.update(sub, enabled=False)  # the provider refused the token: the device is unsubscribed
    s.update(note, recipients=total, successful=okc, failed=bad, errored=errored, converted=clicks)
