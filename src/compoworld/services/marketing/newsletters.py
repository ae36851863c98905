"""Quill Letters: a creator newsletter with subscribers, tags, forms, sequences, broadcasts and paid tiers.

Modeled on the Kit (formerly ConvertKit) API v4: Subscribers with ``state``
active, inactive (unconfirmed), bounced or cancelled, Tags and tagging,
Custom Fields keyed by a ``key``, Forms (embed or hosted landing pages, with
double opt-in: a form signup starts inactive until confirmed), Sequences with
email steps sent some days apart and their subscriptions, Broadcasts (draft →
scheduled → sent, ``send_at`` in the future, filtered by a tag and by paid
tier), and paid newsletter tiers as in Kit's Paid Newsletter (and beehiiv's
premium tiers). Only active subscribers receive broadcasts or enter sequences,
bounced addresses never come back, cancelled ones only by signing up through a
form again, a broadcast needs a subject and content and at least one
recipient, and a paid-only broadcast goes to paying subscribers only.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Currency, DateTime, Email, FirstName, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "newsletters",
    title="Quill Letters",
    category="newsletter_platform",
    modeled_on="Kit (ConvertKit) API v4: Subscribers, Tags, Custom Fields, Forms, Sequences, Broadcasts; "
    "Kit Paid Newsletter / beehiiv premium tiers",
    description="The home company's creator newsletter: its subscribers and their states, tags and custom "
    "fields, signup forms with double opt-in, automated email sequences, one-off broadcasts and the paid "
    "subscription tiers readers upgrade to.",
)

SubscriberId = Annotated[str, IdOf("newsletters.subscriber")]
TagId = Annotated[str, IdOf("newsletters.tag")]
FieldId = Annotated[str, IdOf("newsletters.custom_field")]
FormId = Annotated[str, IdOf("newsletters.form")]
SequenceId = Annotated[str, IdOf("newsletters.sequence")]
StepId = Annotated[str, IdOf("newsletters.sequence_email")]
EnrolmentId = Annotated[str, IdOf("newsletters.enrolment")]
BroadcastId = Annotated[str, IdOf("newsletters.broadcast")]
TierId = Annotated[str, IdOf("newsletters.tier")]

TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _:-]{0,59}$")]
"""A tag's name."""
FieldKey = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
"""A custom field's key (snake_case)."""

SubscriberState = Literal["active", "inactive", "bounced", "cancelled"]
FormType = Literal["embed", "hosted", "modal"]
FormStatus = Literal["active", "archived"]
SequenceStatus = Literal["draft", "active", "paused"]
EnrolmentState = Literal["active", "completed", "cancelled"]
BroadcastStatus = Literal["draft", "scheduled", "sent"]
TierStatus = Literal["active", "archived"]

MAX_TAGS = 25
MAX_STEPS = 12


class Tier(Created):
    """A subscription tier: free, or paid monthly."""

    id: TierId
    name: Title
    """Name of the tier (Free, Supporter, Founding member)."""
    price_cents: Cents = 0
    """Monthly price; 0 for the free tier."""
    currency: Currency = "USD"
    """Currency of the price."""
    status: TierStatus = "active"
    """active, or archived (no new upgrades)."""


class Subscriber(Record):
    """A reader of the newsletter."""

    id: SubscriberId
    email_address: Email
    """The subscriber's e-mail address (unique)."""
    first_name: FirstName | None = None
    """Given name, used in greetings."""
    state: SubscriberState = "active"
    """active, inactive (awaiting confirmation), bounced or cancelled (unsubscribed: cancel_subscriber)."""
    tags: tuple[TagName, ...] = ()
    """Names of the tags on the subscriber."""
    fields: dict[FieldKey, str] = Field(default_factory=dict)
    """Custom field values by key."""
    tier_id: TierId | None = None
    """The paid tier the subscriber pays for; none: free."""
    form_id: FormId | None = None
    """The form the subscriber signed up through."""
    paid_since: DateTime | None = None
    """When the paid subscription started."""
    created_at: Annotated[DateTime, CREATED]
    """When the subscriber was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the subscriber last changed."""


class Tag(Created):
    """A tag that groups subscribers."""

    id: TagId
    name: TagName
    """The tag's name (unique)."""


class CustomField(Created):
    """A custom field every subscriber may have a value for."""

    id: FieldId
    key: FieldKey
    """Key used in the API and in Liquid (unique)."""
    label: Title
    """Label shown to the creator."""


class Form(Timestamped):
    """A signup form or landing page."""

    id: FormId
    name: Title
    """Name of the form."""
    type: FormType = "embed"
    """embed (on a website), hosted (landing page) or modal."""
    double_optin: bool = True
    """Whether signups must confirm (they start inactive)."""
    tag_name: TagName | None = None
    """A tag given to everyone who signs up."""
    sequence_id: SequenceId | None = None
    """A sequence signups enter once active."""
    status: FormStatus = "active"
    """active, or archived (takes no signups)."""
    signups: Quantity = 0
    """Signups through the form."""


class Sequence(Timestamped):
    """An automated series of e-mails a subscriber receives days apart."""

    id: SequenceId
    name: Title
    """Name of the sequence."""
    status: SequenceStatus = "draft"
    """draft, active (enrols and sends) or paused."""
    send_hour: Annotated[int, Field(ge=0, le=23)] = 9
    """Hour of day (UTC) emails go out."""


class SequenceEmail(Created):
    """One e-mail step of a sequence."""

    id: StepId
    sequence_id: SequenceId
    """The sequence."""
    position: Annotated[int, Field(ge=1, le=MAX_STEPS)]
    """Its place in the sequence, from 1."""
    subject: Title
    """Subject line."""
    content: Text
    """Body of the e-mail."""
    delay_days: Annotated[int, Field(ge=0, le=365)] = 0
    """Days after the previous step (or enrolment) it is sent."""


class Enrolment(Record):
    """A subscriber's subscription to a sequence."""

    id: EnrolmentId
    sequence_id: SequenceId
    """The sequence."""
    subscriber_id: SubscriberId
    """The subscriber."""
    email_address: Email
    """The subscriber's e-mail."""
    state: EnrolmentState = "active"
    """active, completed or cancelled."""
    next_position: int = 1
    """The next step to send."""
    enrolled_at: Annotated[DateTime, CREATED]
    """When the subscriber entered the sequence."""


class Broadcast(Timestamped):
    """A one-off e-mail to the subscribers, optionally to one tag or paying readers only."""

    id: BroadcastId
    subject: Title
    """Subject line."""
    content: Text = ""
    """Body; a broadcast cannot be scheduled or sent without it."""
    preview_text: Text = ""
    """Preview text shown in inboxes."""
    tag_name: TagName | None = None
    """Only subscribers with this tag; none: everyone active."""
    paid_only: bool = False
    """Only subscribers on a paid tier (premium post)."""
    status: BroadcastStatus = "draft"
    """draft, scheduled or sent; sent broadcasts are immutable."""
    send_at: DateTime | None = None
    """When it is scheduled or was sent."""
    recipients: Quantity = 0
    """Subscribers it went to."""
    public: bool = False
    """Whether it is also published to the web archive."""


# -- rules ------------------------------------------------------------------------------------


def _tag_exists(ctx: Ctx, name: str | None, field: str) -> None:
    if name is not None and ctx.first(Tag, name=name) is None:
        raise RuleViolation(f"no tag named {name!r}", field=field, hint="create it with newsletters__create_tag")


def _audience(ctx: Ctx, b: Broadcast) -> list[Subscriber]:
    out = []
    for s in ctx.where(Subscriber, state="active"):
        if b.tag_name is not None and b.tag_name not in s.tags:
            continue
        if b.paid_only and s.tier_id is None:
            continue
        out.append(s)
    return out


def _sendable(ctx: Ctx, b: Broadcast, field: str) -> list[Subscriber]:
    if b.status == "sent":
        raise Conflict(f"broadcast {b.id} was already sent", field=field, hint="create a new broadcast")
    if not b.content.strip():
        raise RuleViolation("the broadcast has no content", field=field, hint="write it with update_broadcast")
    who = _audience(ctx, b)
    if not who:
        raise RuleViolation(
            "no active subscriber matches the broadcast's filter",
            field=field,
            hint="change its tag_name or paid_only",
        )
    return who


def _guard_subscriber(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.state == "bounced" and new.state != "bounced":
        raise RuleViolation("a bounced address cannot be reactivated", field="subscriber_id", hint="add a new address")


def _guard_broadcast(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "sent":
        raise Conflict(f"broadcast {old.id} was already sent", field="broadcast_id", hint="sent broadcasts are final")
    _tag_exists(ctx, new.tag_name, "tag_name")


def _guard_broadcast_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "draft":
        raise Conflict(
            f"broadcast {old.id} is {old.status}",
            field="broadcast_id",
            hint="only drafts can be deleted; unschedule it first",
        )


def _guard_form(ctx: Ctx, new: Any, old: Any) -> None:
    _tag_exists(ctx, new.tag_name, "tag_name")
    if new.sequence_id is not None:
        ctx.get(Sequence, new.sequence_id, field="sequence_id")


def _guard_sequence(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "active" and not ctx.where(SequenceEmail, sequence_id=new.id):
        raise RuleViolation("a sequence needs an email before it is activated", field="sequence_id", hint="add one")


subscribers = service.resource(
    Subscriber,
    name="subscriber",
    plural="subscribers",
    prefix="sub",
    create=("email_address", "first_name"),
    filters=("state", "tier_id", "form_id", "email_address"),
    search=("email_address", "first_name"),
    update=("first_name",),
    delete=False,
    unique=("email_address",),
    transitions={
        "confirm": Transition("state", ("inactive",), "active", "confirm the subscription"),
    },
    guard_update=_guard_subscriber,
)
tags = service.resource(
    Tag, name="tag", plural="tags", prefix="tag", create=("name",), get=False, delete=False, unique=("name",)
)
custom_fields = service.resource(
    CustomField,
    name="custom_field",
    plural="custom_fields",
    prefix="fld",
    create=False,
    get=False,
    delete=False,
    unique=("key",),
    title="custom field",
)
forms = service.resource(
    Form,
    name="form",
    plural="forms",
    prefix="form",
    create=("name", "type", "double_optin", "tag_name", "sequence_id"),
    get=False,
    filters=("status", "type"),
    search=("name",),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the form")},
    guard_create=_guard_form,
)
sequences = service.resource(
    Sequence,
    name="sequence",
    plural="sequences",
    prefix="seq",
    create=("name", "send_hour"),
    get=False,
    filters=("status",),
    search=("name",),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft", "paused"), "active", "activate the sequence"),
    },
    guard_update=_guard_sequence,
)
sequence_emails = service.resource(
    SequenceEmail,
    name="sequence_email",
    plural="sequence_emails",
    prefix="step",
    create=False,
    get=False,
    filters=("sequence_id",),
    delete=False,
    title="sequence email",
)
enrolments = service.resource(
    Enrolment,
    name="enrolment",
    plural="enrolments",
    prefix="enr",
    create=False,
    get=False,
    filters=("sequence_id", "subscriber_id", "state", "email_address"),
    delete=False,
    title="sequence subscription",
)
broadcasts = service.resource(
    Broadcast,
    name="broadcast",
    plural="broadcasts",
    prefix="bc",
    create=("subject", "content", "preview_text", "tag_name", "paid_only", "public"),
    filters=("status", "tag_name", "paid_only"),
    search=("subject",),
    update=("subject", "content", "preview_text", "tag_name", "paid_only", "public"),
    transitions={
        "unschedule": Transition(
            "status",
            ("scheduled",),
            "draft",
            "unschedule the broadcast",
            description="Take a scheduled broadcast back to draft; it keeps its content.",
        )
    },
    guard_create=_guard_broadcast,
    guard_update=_guard_broadcast,
    guard_delete=_guard_broadcast_delete,
)
tiers = service.resource(Tier, name="tier", plural="tiers", prefix="tier", create=False, get=False, delete=False)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="create the custom field", write=True, example=lambda ctx: {"key": "plan", "label": "Plan"})
def create_custom_field(ctx: Ctx, key: FieldKey, label: Title) -> CustomField:
    """Add a custom field subscribers can have a value for; keys are unique snake_case.

    Args:
        key: The key (snake_case, e.g. job_title).
        label: The label shown to the creator.
    """
    if ctx.first(CustomField, key=key) is not None:
        raise Conflict(f"custom field {key!r} exists", field="key", hint="set values with set_custom_field")
    return ctx.create(CustomField, key=key, label=label)


def _leave_sequences(ctx: Ctx, sub: Subscriber) -> None:
    for e in ctx.where(Enrolment, subscriber_id=sub.id, state="active"):
        ctx.update(e, state="cancelled")


@service.tool(
    intent="tag the subscriber",
    write=True,
    example=first_example(
        Subscriber,
        "subscriber_id",
        where={"state": "active"},
        match=lambda c, s: "Workshop" not in s.tags,
        tag_name="Workshop",
    ),
)
def tag_subscriber(ctx: Ctx, subscriber_id: SubscriberId, tag_name: TagName) -> Subscriber:
    """Add a tag to a subscriber (the tag must exist; a subscriber has at most 25 tags).

    Args:
        subscriber_id: The subscriber.
        tag_name: The tag's name.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    _tag_exists(ctx, tag_name, "tag_name")
    if tag_name in sub.tags:
        raise Conflict(f"{sub.email_address} already has tag {tag_name!r}", field="tag_name", hint="nothing to do")
    if len(sub.tags) >= MAX_TAGS:
        raise RuleViolation(f"a subscriber has at most {MAX_TAGS} tags", field="tag_name", hint="remove one first")
    return ctx.update(sub, tags=(*sub.tags, tag_name))


@service.tool(
    intent="remove the tag from the subscriber",
    write=True,
    example=first_example(Subscriber, "subscriber_id", match=lambda c, s: "Customer" in s.tags, tag_name="Customer"),
)
def untag_subscriber(ctx: Ctx, subscriber_id: SubscriberId, tag_name: TagName) -> Subscriber:
    """Remove a tag from a subscriber.

    Args:
        subscriber_id: The subscriber.
        tag_name: The tag's name.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if tag_name not in sub.tags:
        raise RuleViolation(f"{sub.email_address} has no tag {tag_name!r}", field="tag_name", hint="see its tags")
    return ctx.update(sub, tags=tuple(t for t in sub.tags if t != tag_name))


@service.tool(
    intent="set the subscriber's custom field",
    write=True,
    example=first_example(Subscriber, "subscriber_id", key="company", value="Acme"),
)
def set_custom_field(
    ctx: Ctx, subscriber_id: SubscriberId, key: FieldKey, value: Annotated[str, StringConstraints(max_length=500)]
) -> Subscriber:
    """Set (or with an empty value, clear) a custom field of a subscriber; the field must exist.

    Args:
        subscriber_id: The subscriber.
        key: The custom field's key.
        value: The value; empty clears it.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if ctx.first(CustomField, key=key) is None:
        raise RuleViolation(f"no custom field {key!r}", field="key", hint="create it with create_custom_field")
    fields = dict(sub.fields)
    if value.strip():
        fields[key] = value.strip()
    else:
        fields.pop(key, None)
    return ctx.update(sub, fields=fields)


def _example_signup(ctx: Ctx) -> dict[str, Any] | None:
    form = ctx.first(Form, status="active")
    return (
        None if form is None else {"form_id": form.id, "email_address": "new.reader@example.org", "first_name": "Ana"}
    )


@service.tool(intent="sign the reader up through the form", write=True, example=_example_signup)
def subscribe_via_form(
    ctx: Ctx, form_id: FormId, email_address: Email, first_name: FirstName | None = None
) -> Subscriber:
    """Sign a reader up through a form; a cancelled reader comes back, bounced ones cannot.

    New readers start inactive on a double opt-in form (active otherwise); the form's tag applies,
    and its sequence once they are active.

    Args:
        form_id: The form.
        email_address: The reader's e-mail.
        first_name: Their given name.
    """
    form = ctx.get(Form, form_id, field="form_id")
    if form.status != "active":
        raise Conflict(f"form {form.name!r} is archived", field="form_id", hint="use an active form")
    sub = ctx.first(Subscriber, email_address=email_address)
    state: SubscriberState = "inactive" if form.double_optin else "active"
    if sub is None:
        sub = ctx.create(Subscriber, email_address=email_address, first_name=first_name, state=state, form_id=form.id)
    elif sub.state == "bounced":
        raise RuleViolation(f"{email_address} bounced", field="email_address", hint="ask for another address")
    elif sub.state in ("active", "inactive"):
        raise Conflict(f"{email_address} is already subscribed ({sub.state})", field="email_address", hint="tag them")
    else:
        sub = ctx.update(sub, state=state, form_id=form.id, first_name=first_name or sub.first_name)
    if form.tag_name is not None and form.tag_name not in sub.tags:
        sub = ctx.update(sub, tags=(*sub.tags, form.tag_name))
    ctx.update(form, signups=form.signups + 1)
    if form.sequence_id is not None and sub.state == "active":
        seq = ctx.get(Sequence, form.sequence_id)
        if seq.status == "active" and not ctx.first(
            Enrolment, sequence_id=seq.id, subscriber_id=sub.id, state="active"
        ):
            ctx.create(Enrolment, sequence_id=seq.id, subscriber_id=sub.id, email_address=sub.email_address)
    return sub


def _example_step(ctx: Ctx) -> dict[str, Any] | None:
    seq = ctx.first(Sequence, status="draft")
    return (
        None if seq is None else {"sequence_id": seq.id, "subject": "Welcome!", "content": "Hi there", "delay_days": 0}
    )


@service.tool(intent="add an email to the sequence", write=True, example=_example_step)
def add_sequence_email(
    ctx: Ctx,
    sequence_id: SequenceId,
    subject: Title,
    content: Text,
    delay_days: Annotated[int, Field(ge=0, le=365)] = 1,
) -> SequenceEmail:
    """Append an e-mail step to a sequence (at most 12); it goes out delay_days after the previous one.

    Args:
        sequence_id: The sequence.
        subject: Subject line.
        content: Body of the e-mail (not empty).
        delay_days: Days after the previous step.
    """
    seq = ctx.get(Sequence, sequence_id, field="sequence_id")
    steps = ctx.where(SequenceEmail, sequence_id=seq.id)
    if len(steps) >= MAX_STEPS:
        raise RuleViolation(f"a sequence has at most {MAX_STEPS} emails", field="sequence_id", hint="start another")
    if not content.strip():
        raise RuleViolation("an email needs content", field="content", hint="write the body")
    return ctx.create(
        SequenceEmail,
        sequence_id=seq.id,
        position=len(steps) + 1,
        subject=subject,
        content=content,
        delay_days=delay_days,
    )


def _example_enrol(ctx: Ctx) -> dict[str, Any] | None:
    for seq in ctx.where(Sequence, status="active"):
        for sub in ctx.where(Subscriber, state="active"):
            if not ctx.first(Enrolment, sequence_id=seq.id, subscriber_id=sub.id):
                return {"sequence_id": seq.id, "subscriber_id": sub.id}
    return None


@service.tool(intent="add the subscriber to the sequence", write=True, example=_example_enrol)
def enrol_subscriber(ctx: Ctx, sequence_id: SequenceId, subscriber_id: SubscriberId) -> Enrolment:
    """Add an active subscriber to an active sequence they are not already in.

    Args:
        sequence_id: The sequence.
        subscriber_id: The subscriber.
    """
    seq = ctx.get(Sequence, sequence_id, field="sequence_id")
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if seq.status != "active":
        raise Conflict(f"sequence {seq.name!r} is {seq.status}", field="sequence_id", hint="activate it first")
    if sub.state != "active":
        raise RuleViolation(
            f"{sub.email_address} is {sub.state}", field="subscriber_id", hint="only active subscribers are sent to"
        )
    if ctx.first(Enrolment, sequence_id=seq.id, subscriber_id=sub.id, state="active"):
        raise Conflict(f"{sub.email_address} is already in {seq.name!r}", field="subscriber_id", hint="nothing to do")
    return ctx.create(Enrolment, sequence_id=seq.id, subscriber_id=sub.id, email_address=sub.email_address)


@service.tool(
    intent="schedule the broadcast",
    write=True,
    example=first_example(Broadcast, "broadcast_id", where={"status": "draft"}, match=lambda c, b: bool(b.content)),
)
def schedule_broadcast(ctx: Ctx, broadcast_id: BroadcastId, send_at: DateTime | None = None) -> Broadcast:
    """Schedule a draft broadcast to go out at a future time (default: in one hour).

    Args:
        broadcast_id: The broadcast.
        send_at: When to send it; after now.
    """
    b = ctx.get(Broadcast, broadcast_id, field="broadcast_id")
    if b.status == "scheduled":
        raise Conflict(f"broadcast {b.id} is already scheduled", field="broadcast_id", hint="unschedule it first")
    _sendable(ctx, b, "broadcast_id")
    when = send_at or ctx.now() + dt.timedelta(hours=1)
    if when <= ctx.now():
        raise RuleViolation("send_at must be in the future", field="send_at", hint="pick a later time")
    return ctx.update(b, status="scheduled", send_at=when)


@service.tool(
    intent="send the broadcast now",
    write=True,
    example=first_example(Broadcast, "broadcast_id", where={"status": "scheduled"}),
)
def send_broadcast(ctx: Ctx, broadcast_id: BroadcastId) -> Broadcast:
    """Send a draft or scheduled broadcast now to the active subscribers its filter matches.

    Args:
        broadcast_id: The broadcast.
    """
    b = ctx.get(Broadcast, broadcast_id, field="broadcast_id")
    who = _sendable(ctx, b, "broadcast_id")
    return ctx.update(b, status="sent", send_at=ctx.now(), recipients=len(who))


def _example_upgrade(ctx: Ctx) -> dict[str, Any] | None:
    tier = next((t for t in ctx.where(Tier, status="active") if t.price_cents > 0), None)
    sub = next((s for s in ctx.where(Subscriber, state="active") if s.tier_id is None), None)
    return None if tier is None or sub is None else {"subscriber_id": sub.id, "tier_id": tier.id}


@service.tool(intent="upgrade the subscriber to a paid tier", write=True, example=_example_upgrade)
def start_paid_subscription(ctx: Ctx, subscriber_id: SubscriberId, tier_id: TierId) -> Subscriber:
    """Put an active subscriber on a paid tier (or move them to another one).

    Args:
        subscriber_id: The subscriber.
        tier_id: An active paid tier.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    tier = ctx.get(Tier, tier_id, field="tier_id")
    if tier.status != "active" or tier.price_cents == 0:
        raise RuleViolation(f"tier {tier.name!r} is not an active paid tier", field="tier_id", hint="list tiers")
    if sub.state != "active":
        raise RuleViolation(f"{sub.email_address} is {sub.state}", field="subscriber_id", hint="confirm them first")
    if sub.tier_id == tier.id:
        raise Conflict(f"{sub.email_address} is already on {tier.name!r}", field="tier_id", hint="nothing to do")
    return ctx.update(sub, tier_id=tier.id, paid_since=sub.paid_since if sub.tier_id else ctx.now())


@service.tool(
    intent="cancel the subscriber's paid subscription",
    write=True,
    example=first_example(Subscriber, "subscriber_id", match=lambda c, s: s.tier_id is not None),
)
def cancel_paid_subscription(ctx: Ctx, subscriber_id: SubscriberId) -> Subscriber:
    """End a subscriber's paid tier; they stay subscribed on the free newsletter.

    Args:
        subscriber_id: The subscriber.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if sub.tier_id is None:
        raise RuleViolation(f"{sub.email_address} is not on a paid tier", field="subscriber_id", hint="nothing to do")
    return ctx.update(sub, tier_id=None, paid_since=None)


@service.tool(
    intent="unsubscribe the reader and leave their sequences",
    write=True,
    example=first_example(Subscriber, "subscriber_id", where={"state": "active"}),
)
def cancel_subscriber(ctx: Ctx, subscriber_id: SubscriberId) -> Subscriber:
    """Unsubscribe a reader everywhere: state cancelled, their sequences and paid tier end.

    Args:
        subscriber_id: The subscriber.
    """
    sub = ctx.get(Subscriber, subscriber_id, field="subscriber_id")
    if sub.state not in ("active", "inactive"):
        raise Conflict(f"{sub.email_address} is already {sub.state}", field="subscriber_id", hint="nothing to do")
    _leave_sequences(ctx, sub)
    return ctx.update(sub, state="cancelled", tier_id=None, paid_since=None)


# -- seed -------------------------------------------------------------------------------------

TAGS = ("Customer", "Workshop", "Podcast listener", "Early access", "Lead magnet: checklist")
FIELDS = (("company", "Company"), ("city", "City"), ("role", "Role"))


@service.seeder
def seed(s: SeedContext) -> None:
    """Consumers and business contacts as readers in every state, a free and two paid tiers, forms, sequences, broadcasts."""
    pop = s.population
    for t in TAGS:
        s.create(Tag, name=t, created_at=s.ago(days=300))
    for key, label in FIELDS:
        s.create(CustomField, key=key, label=label, created_at=s.ago(days=300))
    free = s.create(Tier, name="Free", price_cents=0, created_at=s.ago(days=400))
    supporter = s.create(Tier, name="Supporter", price_cents=800, created_at=s.ago(days=200))
    s.create(Tier, name="Founding member", price_cents=3000, status="archived", created_at=s.ago(days=380))
    del free
    welcome = s.create(
        Sequence, name="Welcome series", status="active", created_at=s.ago(days=250), updated_at=s.ago(days=30)
    )
    for k, (subject, delay) in enumerate((("Welcome aboard", 0), ("Our best posts", 2), ("Going deeper", 5))):
        s.create(
            SequenceEmail,
            sequence_id=welcome.id,
            position=k + 1,
            subject=subject,
            content=f"{subject}: thanks for reading the {pop.home.name} letter.",
            delay_days=delay,
            created_at=s.ago(days=250),
        )
    s.create(Sequence, name="Workshop follow-up", status="draft", created_at=s.ago(days=10), updated_at=s.ago(days=10))
    onboarding = s.create(
        Sequence, name="Customer onboarding", status="paused", created_at=s.ago(days=90), updated_at=s.ago(days=20)
    )
    s.create(
        SequenceEmail,
        sequence_id=onboarding.id,
        position=1,
        subject="Getting started",
        content="Here is how to get the most out of your purchase.",
        created_at=s.ago(days=90),
    )
    home = s.create(
        Form,
        name="Homepage signup",
        type="embed",
        sequence_id=welcome.id,
        created_at=s.ago(days=250),
        updated_at=s.ago(days=1),
    )
    workshop = s.create(
        Form,
        name="Workshop landing page",
        type="hosted",
        tag_name="Workshop",
        created_at=s.ago(days=60),
        updated_at=s.ago(days=5),
    )
    s.create(
        Form,
        name="Old popup",
        type="modal",
        double_optin=False,
        status="archived",
        created_at=s.ago(days=500),
        updated_at=s.ago(days=200),
    )
    states: tuple[SubscriberState, ...] = ("active",) * 6 + ("inactive", "cancelled", "bounced")
    made: list[Subscriber] = []
    for k, p in enumerate(pop.consumers[:30]):
        state = states[k % len(states)]
        form = workshop if k % 5 == 4 else home
        tagset = tuple(t for i, t in enumerate(TAGS[1:4]) if (k + i) % 4 == 0)
        tagset = (*tagset, "Workshop") if form is workshop and "Workshop" not in tagset else tagset
        made.append(
            s.create(
                Subscriber,
                email_address=p.email,
                first_name=p.first_name,
                state=state,
                tags=tagset,
                fields={"city": p.place.city},
                tier_id=supporter.id if state == "active" and k % 4 == 0 else None,
                paid_since=s.ago(days=40 + k) if state == "active" and k % 4 == 0 else None,
                form_id=form.id,
                created_at=s.ago(days=200 - 5 * k),
                updated_at=s.ago(days=3),
            )
        )
    for k, p in enumerate(pop.contacts[:12]):
        company = pop.company_of(p)
        made.append(
            s.create(
                Subscriber,
                email_address=p.email,
                first_name=p.first_name,
                state="active" if k % 6 else "inactive",
                tags=("Customer",),
                fields={"company": company.name if company else "", "role": p.job_title},
                form_id=home.id,
                created_at=s.ago(days=150 - 4 * k),
                updated_at=s.ago(days=2),
            )
        )
    s.update(home, signups=sum(m.form_id == home.id for m in made))
    s.update(workshop, signups=sum(m.form_id == workshop.id for m in made))
    for k, m in enumerate(x for x in made if x.state == "active" and x.form_id == home.id):
        s.create(
            Enrolment,
            sequence_id=welcome.id,
            subscriber_id=m.id,
            email_address=m.email_address,
            state="completed" if k % 3 else "active",
            next_position=4 if k % 3 else 2,
            enrolled_at=s.ago(days=30 + k),
        )
    active = [m for m in made if m.state == "active"]
    for subject, status, days, tag, paid in (
        ("Issue #41: what we learned this quarter", "sent", -14, None, False),
        ("Supporters only: behind the scenes", "sent", -7, None, True),
        ("Issue #42: spring roundup", "scheduled", 3, None, False),
        ("Workshop recording is live", "draft", 0, "Workshop", False),
        ("Untitled draft", "draft", 0, None, False),
    ):
        n = sum(1 for m in active if (tag is None or tag in m.tags) and (not paid or m.tier_id))
        s.create(
            Broadcast,
            subject=subject,
            content="" if subject == "Untitled draft" else f"<p>{subject}</p>",
            tag_name=tag,
            paid_only=paid,
            status=status,
            send_at=s.now + dt.timedelta(days=days) if status != "draft" else None,
            recipients=n if status == "sent" else 0,
            public=not paid,
            created_at=s.ago(days=20),
            updated_at=s.ago(days=max(1, -days)),
        )
