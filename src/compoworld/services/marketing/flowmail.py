"""Lumen Flows: e-commerce marketing automation with consented profiles, events, flows and campaigns.

Modeled on the Klaviyo API (2024-10-15 revision): Profiles with per-channel
``subscriptions`` (email and SMS marketing consent ``SUBSCRIBED``,
``UNSUBSCRIBED``, ``NEVER_SUBSCRIBED``; suppression after a bounce or spam
complaint), Lists with single or double opt-in, Segments defined by a metric
count over a time window, Metrics and Events (``Placed Order``, ``Viewed
Product``, ``Started Checkout`` …; posting an event for an unknown e-mail creates
the profile), Flows triggered by a list, a metric or a segment, with email,
SMS and time-delay actions and a status ``draft``, ``manual`` or ``live`` (only
live flows enrol profiles, and only profiles consented on the action's channel
receive its messages), Campaigns (``Draft`` → ``Scheduled`` → ``Sent``, or
``Cancelled``) to lists and segments with excluded audiences, and Catalog Items
keyed by the shop's SKU. Suppressed or unsubscribed profiles never receive
marketing, a campaign needs an audience and (for email) a subject, and a
flow goes live only with at least one message action.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Country,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Phone,
    Quantity,
    Sku,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "flowmail",
    title="Lumen Flows",
    category="email_marketing",
    modeled_on="Klaviyo API (Profiles and subscriptions, Lists, Segments, Metrics, Events, Flows with "
    "flow actions, Campaigns with send jobs, Catalog Items)",
    description="E-commerce e-mail and SMS marketing for the home company's shop: shopper profiles with "
    "consent per channel, lists and behavioural segments, the events shoppers trigger (viewed a product, "
    "placed an order), automated flows such as welcome series and abandoned-cart reminders, one-off "
    "campaigns, and the product catalog the messages feature.",
)

ProfileId = Annotated[str, IdOf("flowmail.profile")]
ListId = Annotated[str, IdOf("flowmail.list")]
SegmentId = Annotated[str, IdOf("flowmail.segment")]
MetricId = Annotated[str, IdOf("flowmail.metric")]
EventId = Annotated[str, IdOf("flowmail.event")]
FlowId = Annotated[str, IdOf("flowmail.flow")]
CampaignId = Annotated[str, IdOf("flowmail.campaign")]
ItemId = Annotated[str, IdOf("flowmail.catalog_item")]

Consent = Literal["subscribed", "unsubscribed", "never_subscribed"]
Channel = Literal["email", "sms"]
OptIn = Literal["single_opt_in", "double_opt_in"]
FlowStatus = Literal["draft", "manual", "live"]
TriggerType = Literal["list", "metric", "segment"]
ActionType = Literal["send_email", "send_sms", "time_delay"]
CampaignStatus = Literal["draft", "scheduled", "sent", "cancelled"]
MetricName = Annotated[str, StringConstraints(min_length=1, max_length=80)]
Integration = Literal["shopify", "klaviyo", "api"]
Days = Annotated[int, Field(ge=1, le=365)]

MAX_AUDIENCES = 15


class Profile(Timestamped):
    """A shopper or subscriber, with consent per channel."""

    id: ProfileId
    email: Email
    """The profile's e-mail (unique)."""
    phone_number: Phone | None = None
    """Mobile number in E.164 form, for SMS."""
    first_name: FirstName | None = None
    """Given name."""
    last_name: LastName | None = None
    """Family name."""
    city: City | None = None
    """City of the profile's location."""
    country: Country | None = None
    """Country of the profile's location."""
    email_consent: Consent = "never_subscribed"
    """E-mail marketing consent: subscribed, unsubscribed or never_subscribed."""
    sms_consent: Consent = "never_subscribed"
    """SMS marketing consent: subscribed, unsubscribed or never_subscribed."""
    suppressed: bool = False
    """Suppressed after a hard bounce or spam complaint: no e-mail at all."""
    suppression_reason: Literal["hard_bounce", "spam_complaint", "user_suppressed"] | None = None
    """Why the profile is suppressed."""


class MailList(Created):
    """A static list of profiles that people join by signing up or being added."""

    id: ListId
    name: Title
    """The list's name (unique)."""
    opt_in_process: OptIn = "single_opt_in"
    """single_opt_in or double_opt_in: the confirmation setting its sign-up forms use."""
    profile_ids: tuple[ProfileId, ...] = ()
    """The members."""


class Segment(Created):
    """A dynamic group: profiles who did a metric at least N times in the last days."""

    id: SegmentId
    name: Title
    """The segment's name."""
    metric_id: MetricId
    """The metric counted."""
    min_count: Annotated[int, Field(ge=1, le=1000)] = 1
    """At least this many events."""
    within_days: Days = 30
    """In the last this many days."""
    country: Country | None = None
    """Only profiles located in this country."""


class Metric(Created):
    """A kind of event profiles do, such as Placed Order."""

    id: MetricId
    name: MetricName
    """The metric's name (unique)."""
    integration: Integration = "api"
    """Where its events come from: shopify, klaviyo or api."""


class Event(Created):
    """One activity of one profile on a metric, with its value."""

    id: EventId
    metric_id: MetricId
    """The metric."""
    profile_id: ProfileId
    """Who did it."""
    email: Email
    """The profile's e-mail."""
    value_cents: Cents = 0
    """Monetary value (an order's total)."""
    sku: Sku | None = None
    """The product involved, if any."""
    occurred_at: DateTime
    """When it happened."""


class FlowAction(Value):
    """One step of a flow."""

    action_type: ActionType
    """send_email, send_sms or time_delay."""
    subject: Title | None = None
    """Subject of an e-mail action."""
    body: Text = ""
    """Message text of an e-mail or SMS action."""
    delay_hours: Annotated[int, Field(ge=0, le=8760)] = 0
    """Hours a time_delay waits."""


class Flow(Timestamped):
    """An automated series started by a trigger: joining a list, doing a metric, entering a segment."""

    id: FlowId
    name: Title
    """The flow's name."""
    trigger_type: TriggerType
    """list, metric or segment."""
    trigger_id: str
    """The list, metric or segment id that starts it."""
    actions: tuple[FlowAction, ...] = ()
    """The steps, in order."""
    status: FlowStatus = "draft"
    """draft, manual (paused: no enrolment, no sends) or live."""
    enrolled_profile_ids: tuple[ProfileId, ...] = ()
    """Profiles that entered the flow (each once)."""
    messages_sent: Quantity = 0
    """Messages delivered to consented profiles."""


class Campaign(Timestamped):
    """A one-off e-mail or SMS send to lists and segments."""

    id: CampaignId
    name: Title
    """Internal name."""
    channel: Channel = "email"
    """email or sms."""
    list_ids: tuple[ListId, ...] = ()
    """Lists it goes to."""
    segment_ids: tuple[SegmentId, ...] = ()
    """Segments it goes to."""
    excluded_list_ids: tuple[ListId, ...] = ()
    """Lists whose members are left out."""
    subject: Title | None = None
    """E-mail subject (required to send e-mail)."""
    body: Text = ""
    """The message."""
    from_email: Email | None = None
    """Sender address of an e-mail campaign."""
    status: CampaignStatus = "draft"
    """draft, scheduled, sent or cancelled."""
    send_time: DateTime | None = None
    """When it is scheduled or was sent."""
    recipients: Quantity = 0
    """Profiles it was sent to."""


class CatalogItem(Timestamped):
    """A product of the shop's catalog that messages can feature."""

    id: ItemId
    external_id: Sku
    """The shop's SKU (unique)."""
    title: Title
    """Product title."""
    price_cents: Cents
    """Price in cents."""
    url: Url
    """Product page."""
    inventory_quantity: Quantity = 0
    """Units in stock."""
    published: bool = True
    """Whether messages may feature it."""


# -- rules ------------------------------------------------------------------------------------


def _reachable(p: Profile, channel: str) -> bool:
    if channel == "email":
        return p.email_consent == "subscribed" and not p.suppressed
    return p.sms_consent == "subscribed" and p.phone_number is not None


def _segment_members(ctx: Ctx, seg: Segment) -> list[Profile]:
    since = ctx.now() - dt.timedelta(days=seg.within_days)
    counts: dict[str, int] = {}
    for e in ctx.where(Event, metric_id=seg.metric_id):
        if e.occurred_at >= since:
            counts[e.profile_id] = counts.get(e.profile_id, 0) + 1
    out = []
    for pid, n in sorted(counts.items()):
        p = ctx.find(Profile, pid)
        if p is not None and n >= seg.min_count and (seg.country is None or p.country == seg.country):
            out.append(p)
    return out


def _trigger_exists(ctx: Ctx, trigger_type: str, trigger_id: str) -> None:
    model: Any = {"list": MailList, "metric": Metric, "segment": Segment}[trigger_type]
    ctx.get(model, trigger_id, field="trigger_id")


def _enrol(ctx: Ctx, trigger_type: str, trigger_id: str, profile: Profile) -> None:
    """Enter a profile into every live flow with this trigger, and deliver its messages where consented."""
    for flow in ctx.where(Flow, trigger_type=trigger_type, trigger_id=trigger_id, status="live"):
        if profile.id in flow.enrolled_profile_ids:
            continue
        sent = sum(
            1
            for a in flow.actions
            if (a.action_type == "send_email" and _reachable(profile, "email"))
            or (a.action_type == "send_sms" and _reachable(profile, "sms"))
        )
        ctx.update(
            flow,
            enrolled_profile_ids=(*flow.enrolled_profile_ids, profile.id),
            messages_sent=flow.messages_sent + sent,
        )


def _guard_flow(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _trigger_exists(ctx, new.trigger_type, new.trigger_id)
        for a in new.actions:
            if a.action_type == "send_email" and not a.subject:
                raise RuleViolation("an e-mail action needs a subject", field="actions", hint="give each a subject")
    if new.status == "live" and not any(a.action_type != "time_delay" for a in new.actions):
        raise RuleViolation(
            f"flow {new.name!r} has no message action to send",
            field="flow_id" if old is not None else "status",
            hint="add a send_email or send_sms action before setting the flow live",
        )


def _audience_ids(ctx: Ctx, c: Campaign) -> None:
    if len(c.list_ids) + len(c.segment_ids) > MAX_AUDIENCES:
        raise RuleViolation(f"at most {MAX_AUDIENCES} audiences", field="list_ids", hint="send to fewer lists")
    for lid in c.list_ids:
        ctx.get(MailList, lid, field="list_ids")
    for lid in c.excluded_list_ids:
        ctx.get(MailList, lid, field="excluded_list_ids")
    for sid in c.segment_ids:
        ctx.get(Segment, sid, field="segment_ids")


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status in ("sent", "cancelled"):
        raise RuleViolation(
            f"campaign {old.name!r} is {old.status} and cannot change",
            field="campaign_id",
            hint="create a new campaign",
        )
    _audience_ids(ctx, new)
    if new.from_email is not None and new.channel == "sms":
        raise RuleViolation("an SMS campaign has no sender e-mail", field="from_email", hint="leave it empty")


profiles = service.resource(
    Profile,
    name="profile",
    plural="profiles",
    prefix="prof",
    create=False,
    filters=("email", "email_consent", "sms_consent", "suppressed", "country", "city"),
    search=("email", "first_name", "last_name"),
    update=("first_name", "last_name", "phone_number", "city", "country"),
    delete=False,
    unique=("email",),
)
lists = service.resource(
    MailList,
    name="list",
    plural="lists",
    prefix="list",
    create=("name", "opt_in_process"),
    filters=("opt_in_process",),
    search=("name",),
    delete=False,
    unique=("name",),
)
segments = service.resource(
    Segment,
    name="segment",
    plural="segments",
    prefix="seg",
    create=("name", "metric_id", "min_count", "within_days", "country"),
    get=False,
    filters=("metric_id", "country"),
    search=("name",),
    delete=False,
)
metrics = service.resource(
    Metric,
    name="metric",
    plural="metrics",
    prefix="met",
    create=False,
    get=False,
    filters=("integration",),
    search=("name",),
    delete=False,
    unique=("name",),
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    get=False,
    filters=("metric_id", "profile_id", "email", "sku"),
    delete=False,
)
flows = service.resource(
    Flow,
    name="flow",
    plural="flows",
    prefix="flow",
    create=False,
    filters=("status", "trigger_type", "trigger_id"),
    search=("name",),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft", "manual"), "live", "set the flow live"),
        "hold": Transition(
            "status",
            ("live", "draft"),
            "manual",
            "set the flow to manual",
            description="Set a flow to manual: it stops enrolling profiles and sending until it is set live again.",
        ),
    },
    guard_update=_guard_flow,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("name", "channel", "list_ids", "segment_ids", "excluded_list_ids", "subject", "body", "from_email"),
    filters=("status", "channel"),
    search=("name", "subject"),
    update=("name", "list_ids", "segment_ids", "excluded_list_ids", "subject", "body"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("draft", "scheduled"), "cancelled", "cancel the campaign", destructive=True),
    },
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
)
items = service.resource(
    CatalogItem,
    name="catalog_item",
    plural="catalog_items",
    prefix="item",
    create=("external_id", "title", "price_cents", "url", "inventory_quantity", "published"),
    filters=("external_id", "published"),
    get=False,
    search=("title",),
    update=("title", "price_cents", "url", "inventory_quantity", "published"),
    delete=False,
    unique=("external_id",),
    title="catalog item",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_profile(ctx: Ctx) -> dict[str, Any] | None:
    return {"email": "new.shopper@inbox.io", "first_name": "Noa", "last_name": "Lindqvist", "country": "SE"}


@service.tool(intent="create the profile", write=True, example=_example_profile)
def create_profile(
    ctx: Ctx,
    email: Email,
    first_name: FirstName | None = None,
    last_name: LastName | None = None,
    phone_number: Phone | None = None,
    city: City | None = None,
    country: Country | None = None,
) -> Profile:
    """Create a profile; it starts without marketing consent on either channel.

    Args:
        email: The profile's e-mail (unique).
        first_name: Given name.
        last_name: Family name.
        phone_number: Mobile number in E.164 form.
        city: City.
        country: ISO country code.
    """
    other = ctx.first(Profile, email=email)
    if other is not None:
        raise Conflict(
            f"profile {other.id} already has e-mail {email}",
            field="email",
            hint="update it with flowmail__update_profile",
        )
    return ctx.create(
        Profile,
        email=email,
        first_name=first_name,
        last_name=last_name,
        phone_number=phone_number,
        city=city,
        country=country,
    )


@service.tool(
    intent="subscribe the profile to marketing",
    write=True,
    example=first_example(Profile, "profile_id", where={"email_consent": "never_subscribed"}, channel="email"),
)
def subscribe_profile(ctx: Ctx, profile_id: ProfileId, channel: Channel, list_id: ListId | None = None) -> Profile:
    """Record marketing consent on a channel, optionally adding the profile to a list (which may start flows).

    Args:
        profile_id: The profile.
        channel: email or sms.
        list_id: A list to add the profile to as well.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if channel == "email" and p.suppressed:
        raise RuleViolation(
            f"{p.email} is suppressed ({p.suppression_reason})",
            field="profile_id",
            hint="unsuppress it with flowmail__unsuppress_profile first",
        )
    if channel == "sms" and p.phone_number is None:
        raise RuleViolation("SMS consent needs a phone number", field="channel", hint="set the phone number first")
    p = ctx.update(p, **{f"{channel}_consent": "subscribed"})
    if list_id is not None:
        _add(ctx, ctx.get(MailList, list_id, field="list_id"), [p])
    return p


@service.tool(
    intent="unsubscribe the profile",
    write=True,
    example=first_example(Profile, "profile_id", where={"email_consent": "subscribed"}, channel="email"),
)
def unsubscribe_profile(ctx: Ctx, profile_id: ProfileId, channel: Channel) -> Profile:
    """Withdraw a profile's marketing consent on a channel.

    Args:
        profile_id: The profile.
        channel: email or sms.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if getattr(p, f"{channel}_consent") != "subscribed":
        raise RuleViolation(
            f"{p.email} is not subscribed to {channel}", field="channel", hint="nothing to withdraw on that channel"
        )
    return ctx.update(p, **{f"{channel}_consent": "unsubscribed"})


@service.tool(
    intent="suppress the profile",
    write=True,
    example=first_example(Profile, "profile_id", where={"suppressed": False}, reason="user_suppressed"),
)
def suppress_profile(
    ctx: Ctx, profile_id: ProfileId, reason: Literal["hard_bounce", "spam_complaint", "user_suppressed"]
) -> Profile:
    """Suppress a profile from all e-mail (after a bounce or complaint, or by hand).

    Args:
        profile_id: The profile.
        reason: hard_bounce, spam_complaint or user_suppressed.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if p.suppressed:
        raise Conflict(f"{p.email} is already suppressed", field="profile_id", hint="nothing to do")
    return ctx.update(p, suppressed=True, suppression_reason=reason)


@service.tool(
    intent="unsuppress the profile",
    write=True,
    example=first_example(Profile, "profile_id", where={"suppression_reason": "user_suppressed"}),
)
def unsuppress_profile(ctx: Ctx, profile_id: ProfileId) -> Profile:
    """Lift a manual suppression; bounces and spam complaints cannot be lifted.

    Args:
        profile_id: The profile.
    """
    p = ctx.get(Profile, profile_id, field="profile_id")
    if not p.suppressed:
        raise RuleViolation(f"{p.email} is not suppressed", field="profile_id", hint="nothing to lift")
    if p.suppression_reason != "user_suppressed":
        raise RuleViolation(
            f"{p.email} was suppressed for a {p.suppression_reason}",
            field="profile_id",
            hint="only manual suppressions can be lifted",
        )
    return ctx.update(p, suppressed=False, suppression_reason=None)


def _add(ctx: Ctx, lst: MailList, found: list[Profile]) -> MailList:
    new = [p for p in found if p.id not in lst.profile_ids]
    lst = ctx.update(lst, profile_ids=(*lst.profile_ids, *(p.id for p in new)))
    for p in new:
        _enrol(ctx, "list", lst.id, p)
    return lst


@service.tool(
    intent="add the profiles to the list",
    write=True,
    example=first_example(MailList, "list_id", fields={}, profile_ids=["prof_000001"]),
)
def add_profiles_to_list(ctx: Ctx, list_id: ListId, profile_ids: list[ProfileId]) -> MailList:
    """Add profiles to a list; live flows triggered by the list enrol the new members.

    Args:
        list_id: The list.
        profile_ids: The profiles to add (members already in it are skipped).
    """
    lst = ctx.get(MailList, list_id, field="list_id")
    if not profile_ids or len(profile_ids) > 100:
        raise RuleViolation("give 1-100 profiles", field="profile_ids", hint="split larger imports")
    found = [ctx.get(Profile, pid, field="profile_ids") for pid in profile_ids]
    return _add(ctx, lst, found)


def _example_flow(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Metric, name="Placed Order")
    return (
        None
        if m is None
        else {
            "name": "Post-purchase thank you",
            "trigger_type": "metric",
            "trigger_id": m.id,
            "actions": [
                {"action_type": "send_email", "subject": "Thank you for your order", "body": "We hope you love it."}
            ],
        }
    )


@service.tool(intent="create the flow", write=True, example=_example_flow)
def create_flow(ctx: Ctx, name: Title, trigger_type: TriggerType, trigger_id: str, actions: list[FlowAction]) -> Flow:
    """Create a draft flow started by a list, a metric or a segment.

    Args:
        name: The flow's name.
        trigger_type: list, metric or segment.
        trigger_id: The id of the list, metric or segment that starts it.
        actions: The steps in order; each send_email needs a subject.
    """
    flow = ctx.create(Flow, name=name, trigger_type=trigger_type, trigger_id=trigger_id, actions=tuple(actions))
    _guard_flow(ctx, flow, None)
    return flow


def _example_event(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Profile, email_consent="subscribed")
    return None if p is None else {"metric_name": "Placed Order", "email": p.email, "value_cents": 4999}


@service.tool(intent="track the event", write=True, example=_example_event)
def create_event(
    ctx: Ctx,
    metric_name: MetricName,
    email: Email,
    value_cents: Cents = 0,
    sku: Sku | None = None,
) -> Event:
    """Track an activity of a shopper; an unknown e-mail creates a profile, an unknown name a metric.

    Live flows triggered by the metric enrol the profile; a product event must name a catalog SKU.

    Args:
        metric_name: The metric, e.g. Placed Order, Viewed Product, Started Checkout.
        email: The shopper's e-mail.
        value_cents: Monetary value in cents.
        sku: The product's SKU (must be in the catalog).
    """
    if sku is not None and ctx.first(CatalogItem, external_id=sku) is None:
        raise RuleViolation(
            f"no catalog item with SKU {sku}", field="sku", hint="add it with flowmail__create_catalog_item"
        )
    metric = ctx.first(Metric, name=metric_name) or ctx.create(Metric, name=metric_name, integration="api")
    p = ctx.first(Profile, email=email) or ctx.create(Profile, email=email)
    ev = ctx.create(
        Event,
        metric_id=metric.id,
        profile_id=p.id,
        email=p.email,
        value_cents=value_cents,
        sku=sku,
        occurred_at=ctx.now(),
    )
    _enrol(ctx, "metric", metric.id, p)
    return ev


@service.tool(intent="list the segment's profiles", example=first_example(Segment, "segment_id"))
def get_segment_profiles(ctx: Ctx, segment_id: SegmentId) -> list[Profile]:
    """The profiles in a segment now (who did its metric often enough lately).

    Args:
        segment_id: The segment.
    """
    return _segment_members(ctx, ctx.get(Segment, segment_id, field="segment_id"))


def _audience(ctx: Ctx, c: Campaign) -> list[str]:
    members: dict[str, Profile] = {}
    for lid in c.list_ids:
        for pid in ctx.get(MailList, lid, field="list_ids").profile_ids:
            p = ctx.find(Profile, pid)
            if p is not None:
                members[p.id] = p
    for sid in c.segment_ids:
        for p in _segment_members(ctx, ctx.get(Segment, sid, field="segment_ids")):
            members[p.id] = p
    excluded = {pid for lid in c.excluded_list_ids for pid in ctx.get(MailList, lid).profile_ids}
    reach = sorted(pid for pid, p in members.items() if pid not in excluded and _reachable(p, c.channel))
    return reach


def _ready(ctx: Ctx, c: Campaign) -> list[str]:
    if c.status != "draft" and c.status != "scheduled":
        raise RuleViolation(f"campaign {c.name!r} is {c.status}", field="campaign_id", hint="clone it to send again")
    if not c.list_ids and not c.segment_ids:
        raise RuleViolation("the campaign has no audience", field="campaign_id", hint="add a list or segment")
    if c.channel == "email" and (not c.subject or c.from_email is None):
        raise RuleViolation(
            "an e-mail campaign needs a subject and a sender", field="campaign_id", hint="set subject and from_email"
        )
    if not c.body.strip():
        raise RuleViolation("the campaign has no content", field="campaign_id", hint="write its body first")
    aud = _audience(ctx, c)
    if not aud:
        raise RuleViolation(
            "nobody in the audience is consented on this channel", field="campaign_id", hint="pick another audience"
        )
    return aud


@service.tool(
    intent="schedule the campaign",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "draft"}, send_time="2030-01-15T09:00:00Z"),
)
def schedule_campaign(ctx: Ctx, campaign_id: CampaignId, send_time: DateTime) -> Campaign:
    """Schedule a ready draft campaign for a future time.

    Args:
        campaign_id: The campaign.
        send_time: When to send (in the future).
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    if c.status != "draft":
        raise RuleViolation(f"campaign {c.name!r} is {c.status}", field="campaign_id", hint="only drafts are scheduled")
    _ready(ctx, c)
    if send_time <= ctx.now():
        raise RuleViolation("send_time must be in the future", field="send_time", hint="pick a later time")
    return ctx.update(c, status="scheduled", send_time=send_time)


@service.tool(
    intent="send the campaign now",
    write=True,
    example=first_example(Campaign, "campaign_id", where={"status": "draft"}),
)
def send_campaign(ctx: Ctx, campaign_id: CampaignId) -> Campaign:
    """Send a draft or scheduled campaign now to its consented audience.

    Args:
        campaign_id: The campaign.
    """
    c = ctx.get(Campaign, campaign_id, field="campaign_id")
    aud = _ready(ctx, c)
    return ctx.update(c, status="sent", send_time=ctx.now(), recipients=len(aud))


# -- seed -------------------------------------------------------------------------------------

METRICS: tuple[tuple[str, Integration], ...] = (
    ("Placed Order", "shopify"),
    ("Viewed Product", "shopify"),
    ("Started Checkout", "shopify"),
    ("Opened Email", "klaviyo"),
    ("Clicked Email", "klaviyo"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Consumer and contact profiles with mixed consent, lists, metrics with events, flows and campaigns."""
    pop = s.population
    domain = pop.home.domain
    sender = pop.staff("Marketing", "Sales", fallback=2)[0].email
    for prod in pop.products[:12]:
        slug = "".join(ch if ch.isalnum() else "-" for ch in prod.name.lower()).strip("-")
        s.create(
            CatalogItem,
            external_id=prod.sku,
            title=prod.name,
            price_cents=prod.price_cents,
            url=f"https://shop.{domain}/products/{slug}",
            inventory_quantity=s.rng.randint(0, 200),
            published=s.rng.random() > 0.1,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=20),
        )
    people = list(pop.consumers[:30]) + list(pop.contacts[:6])
    made: list[Profile] = []
    for k, p in enumerate(people):
        email_c: Consent = ("subscribed", "subscribed", "unsubscribed", "never_subscribed")[k % 4]
        sms_c: Consent = "subscribed" if k % 3 == 0 else "never_subscribed"
        bad = k in (7, 19)
        made.append(
            s.create(
                Profile,
                email=p.email,
                phone_number=p.phone,
                first_name=p.first_name,
                last_name=p.last_name,
                city=p.address.city,
                country=p.address.country,
                email_consent=email_c,
                sms_consent=sms_c,
                suppressed=bad or k == 11,
                suppression_reason=("hard_bounce" if k == 7 else "spam_complaint")
                if bad
                else ("user_suppressed" if k == 11 else None),
                created_at=s.ago(days=400 - 8 * k),
                updated_at=s.ago(days=10 + k),
            )
        )
    newsletter = s.create(
        MailList,
        name="Newsletter",
        opt_in_process="double_opt_in",
        profile_ids=tuple(p.id for p in made[::2]),
        created_at=s.ago(days=500),
    )
    vip = s.create(
        MailList, name="VIP Customers", profile_ids=tuple(p.id for p in made[:24:3]), created_at=s.ago(days=300)
    )
    s.create(
        MailList, name="Unengaged (exclude)", profile_ids=tuple(p.id for p in made[30:]), created_at=s.ago(days=90)
    )
    met = {name: s.create(Metric, name=name, integration=src, created_at=s.ago(days=600)) for name, src in METRICS}
    cat = s.records(CatalogItem)
    for k, prof in enumerate(made[:30]):
        done = [("Placed Order", s.ago(days=3 + 11 * j + k % 7)) for j in range(k % 4)]
        for j, (metric_name, when) in enumerate(
            done + ([("Started Checkout", s.ago(hours=6 + k))] if k % 5 == 1 else [])
        ):
            item = cat[(k + j) % len(cat)]
            s.create(
                Event,
                metric_id=met[metric_name].id,
                profile_id=prof.id,
                email=prof.email,
                value_cents=item.price_cents,
                sku=item.external_id,
                occurred_at=when,
                created_at=when,
            )
    repeat = s.create(
        Segment,
        name="Repeat buyers (2+ orders in 60 days)",
        metric_id=met["Placed Order"].id,
        min_count=2,
        within_days=60,
        created_at=s.ago(days=120),
    )
    welcome = (
        FlowAction(action_type="send_email", subject=f"Welcome to {pop.home.name}", body="Here is 10% off."),
        FlowAction(action_type="time_delay", delay_hours=72),
        FlowAction(action_type="send_email", subject="Our bestsellers", body="Shoppers love these."),
    )
    cart = (
        FlowAction(action_type="time_delay", delay_hours=4),
        FlowAction(action_type="send_email", subject="You left something behind", body="Your cart is waiting."),
        FlowAction(action_type="send_sms", body="Still thinking it over? Your cart is saved."),
    )
    for name, ttype, tid, acts, status, enrolled in (
        ("Welcome series", "list", newsletter.id, welcome, "live", newsletter.profile_ids[:6]),
        ("Abandoned cart", "metric", met["Started Checkout"].id, cart, "live", ()),
        ("VIP early access", "list", vip.id, welcome[:1], "manual", ()),
        ("Win-back", "segment", repeat.id, (), "draft", ()),
    ):
        s.create(
            Flow,
            name=name,
            trigger_type=ttype,
            trigger_id=tid,
            actions=acts,
            status=status,
            enrolled_profile_ids=enrolled,
            messages_sent=2 * len(enrolled),
            created_at=s.ago(days=200),
            updated_at=s.ago(days=30),
        )
    for name, subject, lids, sids, status, send_at, n in (
        ("Spring sale", "Spring sale: 20% off everything", (newsletter.id,), (), "sent", s.ago(days=40), 9),
        ("Thank you, repeat buyers", "A gift for you", (), (repeat.id,), "scheduled", s.ago(days=-3), 0),
        ("Summer lookbook", "The summer lookbook is here", (newsletter.id, vip.id), (), "draft", None, 0),
        ("Flash sale (cancelled)", "24 hours only", (vip.id,), (), "cancelled", None, 0),
    ):
        s.create(
            Campaign,
            name=name,
            channel="email",
            list_ids=lids,
            segment_ids=sids,
            subject=subject,
            body="Shop the collection before it's gone.",
            from_email=sender,
            status=status,
            send_time=send_at,
            recipients=n,
            created_at=s.ago(days=60),
            updated_at=s.ago(days=2),
        )
