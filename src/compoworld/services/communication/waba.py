"""Verdant Business Messaging: the company's WhatsApp-style business numbers, templates, contacts and conversations.

Modeled on the WhatsApp Business Platform Cloud API v21.0 (phone numbers with
quality rating, messaging limit tier, register/deregister; message templates
and their review; POST /messages for text, template and media messages;
message status webhooks; media upload; block users; conversation-based pricing
and conversation analytics). A customer's message opens a 24-hour customer
service window on the number it was sent to: free-form text and media go out
only inside it (error 131047 otherwise), approved templates at any time, but
outside the window only to contacts who opted in, and marketing templates to
nobody who stopped promotions. A template is PENDING until reviewed, then
APPROVED or REJECTED; low quality pauses an approved template (3 hours, then 6)
and a third pause disables it; only approved, rejected or paused templates can
be edited, an approved one once a day and ten times in 30 days, without
changing its category, and an edit sends it back to review; a deleted name
cannot be used again for 30 days; sending needs an approved template and the
exact number of parameters. Every message opens or joins a 24-hour
conversation of its category (marketing, utility, authentication, service),
priced by the customer's country; a number reaches in 24 hours at most as
many customers with business-initiated conversations as its tier allows. A RED
quality rating flags a number and, after seven days flagged, lowers its tier;
a deregistered number neither sends nor receives. Statuses move sent →
delivered → read, or to failed with an error code. Users who wrote in the last
24 hours can be blocked; blocked users neither get nor send messages.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Deleted, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, IdOf, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created
from compoworld.world.commerce import first_order_numbers
from compoworld.world.population import PLACES

__all__ = ["service"]

service = Service(
    "waba",
    title="Verdant Business Messaging",
    category="consumer_messaging",
    modeled_on="WhatsApp Business Platform Cloud API v21.0 (phone numbers, message templates, messages, media, "
    "block users, webhooks for statuses and template reviews, conversation-based pricing and analytics)",
    description="Business messaging with customers on their phone's chat app: the company's business numbers, "
    "reviewed message templates, contacts with their opt-in, the 24-hour customer service window, text, "
    "template and media messages with delivery statuses, priced conversations, and blocked users.",
)

PhoneNumberId = Annotated[str, IdOf("waba.phone_number")]
TemplateId = Annotated[str, IdOf("waba.message_template")]
ContactId = Annotated[str, IdOf("waba.contact")]
MessageId = Annotated[str, IdOf("waba.message")]
ConversationId = Annotated[str, IdOf("waba.conversation")]
MediaId = Annotated[str, IdOf("waba.media")]

TemplateName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{1,512}$")]
"""A template's name: lower-case letters, digits and underscores."""
TemplateLanguage = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(_[A-Z]{2})?$")]
"""A template's language and locale, e.g. en_US, pt_BR or es."""
ShortText = Annotated[str, StringConstraints(min_length=1, max_length=60, strip_whitespace=True)]
"""A template header or footer, at most 60 characters."""
Pin = Annotated[str, StringConstraints(pattern=r"^[0-9]{6}$")]
"""A six-digit two-step verification PIN."""

Quality = Literal["GREEN", "YELLOW", "RED"]
Tier = Literal["TIER_50", "TIER_250", "TIER_1K", "TIER_10K", "TIER_100K", "TIER_UNLIMITED"]
NumberStatus = Literal["CONNECTED", "FLAGGED", "DISCONNECTED"]
Category = Literal["MARKETING", "UTILITY", "AUTHENTICATION"]
TemplateStatus = Literal["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED", "DELETED"]
RejectionReason = Literal["NONE", "ABUSIVE_CONTENT", "INVALID_FORMAT", "PROMOTIONAL", "TAG_CONTENT_MISMATCH", "SCAM"]
OptIn = Literal["not_asked", "opted_in", "opted_out"]
OptInSource = Literal["website_form", "checkout", "in_chat", "paper_form"]
ConvCategory = Literal["marketing", "utility", "authentication", "service"]
MessageType = Literal["text", "template", "image", "video", "audio", "document", "sticker"]
MessageStatus = Literal["sent", "delivered", "read", "failed", "received"]
MediaType = Literal["image", "video", "audio", "document", "sticker"]
MimeType = Literal[
    "image/jpeg",
    "image/png",
    "image/webp",
    "video/mp4",
    "video/3gpp",
    "audio/aac",
    "audio/amr",
    "audio/mpeg",
    "audio/mp4",
    "audio/ogg",
    "application/pdf",
    "text/plain",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
]

WINDOW = dt.timedelta(hours=24)
MEDIA_TTL = dt.timedelta(days=30)
NAME_COOLDOWN = dt.timedelta(days=30)
FLAG_GRACE = dt.timedelta(days=7)
PAUSES = (dt.timedelta(hours=3), dt.timedelta(hours=6))
"""How long the first and second quality pause last; the third disables the template."""
MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_BODY = 1024
TIERS: tuple[Tier, ...] = ("TIER_50", "TIER_250", "TIER_1K", "TIER_10K", "TIER_100K", "TIER_UNLIMITED")
TIER_LIMITS: dict[str, int | None] = {
    "TIER_50": 50,
    "TIER_250": 250,
    "TIER_1K": 1000,
    "TIER_10K": 10000,
    "TIER_100K": 100000,
    "TIER_UNLIMITED": None,
}
MEDIA_KINDS: dict[str, tuple[MediaType, int]] = {
    "image/jpeg": ("image", 5_000_000),
    "image/png": ("image", 5_000_000),
    "image/webp": ("sticker", 500_000),
    "video/mp4": ("video", 16_000_000),
    "video/3gpp": ("video", 16_000_000),
    "audio/aac": ("audio", 16_000_000),
    "audio/amr": ("audio", 16_000_000),
    "audio/mpeg": ("audio", 16_000_000),
    "audio/mp4": ("audio", 16_000_000),
    "audio/ogg": ("audio", 16_000_000),
    "application/pdf": ("document", 100_000_000),
    "text/plain": ("document", 100_000_000),
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ("document", 100_000_000),
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ("document", 100_000_000),
}
"""Supported media by MIME type: the message type it makes and its size limit in bytes."""
FAILURE_CODES = {
    131000: "something went wrong",
    131026: "message undeliverable",
    131049: "not delivered to keep engagement healthy",
    131053: "media upload error",
}
RATES: dict[str, tuple[float, float, float]] = {
    "US": (0.0250, 0.0040, 0.0135),
    "CA": (0.0250, 0.0040, 0.0135),
    "BR": (0.0625, 0.0080, 0.0315),
    "GB": (0.0529, 0.0220, 0.0358),
    "DE": (0.1365, 0.0550, 0.0768),
    "FR": (0.0859, 0.0300, 0.0408),
    "ES": (0.0615, 0.0200, 0.0305),
    "IT": (0.0691, 0.0300, 0.0378),
    "NL": (0.1597, 0.0500, 0.0720),
    "AU": (0.0730, 0.0150, 0.0525),
}
"""USD per conversation by the customer's country: marketing, utility, authentication (service ones are free)."""
OTHER_RATES = (0.0604, 0.0077, 0.0424)
"""The rate card's "rest of world" prices."""

CONV_CATEGORY: dict[str, ConvCategory] = {
    "MARKETING": "marketing",
    "UTILITY": "utility",
    "AUTHENTICATION": "authentication",
}
"""The conversation category a template's category opens."""
_PREFIXES = sorted(((p.phone_prefix, p.country) for p in PLACES), key=lambda x: -len(x[0]))
_PARAM = re.compile(r"\{\{\s*(\d+)\s*\}\}")


def country_of(phone: str) -> str | None:
    """The country of an E.164 number by its calling prefix (the world's known prefixes)."""
    for prefix, country in _PREFIXES:
        if phone.startswith(prefix):
            return country
    return "US" if phone.startswith("+1") else None


def price(category: str, phone: str) -> float:
    """What a conversation of ``category`` with a customer at ``phone`` costs, in USD."""
    if category == "service":
        return 0.0
    rates = RATES.get(country_of(phone) or "", OTHER_RATES)
    return rates[("marketing", "utility", "authentication").index(category)]


class PhoneNumber(Created):
    """A business phone number registered on the platform."""

    id: PhoneNumberId
    display_phone_number: Phone
    """The number customers see and write to."""
    verified_name: CompanyName
    """The business display name shown to customers."""
    quality_rating: Quality = "GREEN"
    """GREEN, YELLOW or RED: how customers received the number's recent messages."""
    messaging_limit_tier: Tier = "TIER_1K"
    """How many customers the number may reach with business-initiated conversations in 24 hours."""
    status: NumberStatus = "CONNECTED"
    """CONNECTED, FLAGGED (RED quality: the tier will drop if it stays so) or DISCONNECTED (deregistered)."""
    flagged_at: DateTime | None = None
    """When the number was flagged."""


class MessageTemplate(Record):
    """A message template (one language of it) and its review state."""

    id: TemplateId
    name: TemplateName
    """The template's name; together with the language it is unique."""
    language: TemplateLanguage
    """Language and locale, e.g. en_US."""
    category: Category
    """MARKETING, UTILITY or AUTHENTICATION."""
    status: TemplateStatus = "PENDING"
    """PENDING (in review), APPROVED, REJECTED, PAUSED (low quality), DISABLED or DELETED."""
    rejected_reason: RejectionReason = "NONE"
    """Why the review rejected it."""
    quality_score: Literal["GREEN", "YELLOW", "RED", "UNKNOWN"] = "UNKNOWN"
    """How customers received it."""
    header_text: ShortText | None = None
    """A header line (no parameters)."""
    body_text: Annotated[str, StringConstraints(min_length=1, max_length=MAX_BODY)]
    """The body with numbered parameters {{1}}, {{2}} …"""
    footer_text: ShortText | None = None
    """A footer line (no parameters)."""
    parameter_count: int = 0
    """How many body parameters a message must fill."""
    pause_count: int = 0
    """How many times low quality paused it."""
    paused_until: DateTime | None = None
    """When the current pause ends."""
    approved_edits: tuple[DateTime, ...] = ()
    """When it was edited while approved (at most once a day and ten times in 30 days)."""
    deleted_at: DateTime | None = None
    """When it was deleted; its name is free again 30 days later."""
    created_at: Annotated[DateTime, CREATED]
    """When it was submitted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Contact(Created):
    """A customer known to one business number, with their consent to be messaged."""

    id: ContactId
    phone_number_id: PhoneNumberId
    """The business number."""
    customer_phone: Phone
    """The customer's number (their chat-app account)."""
    customer_name: PersonName | None = None
    """The name on the customer's profile."""
    opt_in_status: OptIn = "not_asked"
    """not_asked, opted_in (may get templates any time) or opted_out."""
    opt_in_source: OptInSource | None = None
    """Where they opted in."""
    opted_in_at: DateTime | None = None
    """When they opted in."""
    marketing_stopped: bool = False
    """Whether they tapped "Stop promotions": no marketing templates."""
    blocked: bool = False
    """Whether the business blocked them."""
    last_inbound_at: DateTime | None = None
    """When they last wrote; the customer service window is open for 24 hours after it."""


class Conversation(Record):
    """A 24-hour conversation: the unit the platform bills, by category."""

    id: ConversationId
    phone_number_id: PhoneNumberId
    """The business number."""
    contact_id: ContactId
    """The customer."""
    customer_phone: Phone
    """The customer's number."""
    category: ConvCategory
    """marketing, utility, authentication (opened by a template of that category) or service."""
    origin: Literal["business_initiated", "user_initiated"]
    """business_initiated (outside the customer service window) or user_initiated."""
    cost: float
    """Price in USD by the customer's country; service conversations are free."""
    opened_at: Annotated[DateTime, CREATED]
    """When the first message opened it."""
    expires_at: DateTime
    """When it ends (24 hours after it opened)."""


class Message(Record):
    """A message sent to or received from a customer."""

    id: MessageId
    phone_number_id: PhoneNumberId
    """The business number."""
    contact_id: ContactId
    """The customer."""
    direction: Literal["outbound", "inbound"]
    """outbound (sent by the business) or inbound."""
    customer_phone: Phone
    """The customer's number: the recipient of an outbound message, the sender of an inbound one."""
    type: MessageType = "text"
    """text, template, image, video, audio, document or sticker."""
    body: Text = ""
    """The text, the caption, or the template as rendered."""
    template_id: TemplateId | None = None
    """The template a template message used."""
    template_name: TemplateName | None = None
    """Its name."""
    media_id: MediaId | None = None
    """The media a media message carries."""
    reply_to_message_id: MessageId | None = None
    """The message it replies to."""
    conversation_id: ConversationId | None = None
    """The conversation that bills it."""
    status: MessageStatus
    """sent, delivered, read or failed (outbound); received or read (inbound)."""
    error_code: int | None = None
    """Why a message failed (131000, 131026, 131049, 131053)."""
    timestamp: Annotated[DateTime, CREATED]
    """When it was sent or received."""
    updated_at: Annotated[DateTime, UPDATED]
    """When its status last changed."""


class Media(Created):
    """A media file uploaded for sending; it can be used for 30 days."""

    id: MediaId
    phone_number_id: PhoneNumberId
    """The number that uploaded it."""
    media_type: MediaType
    """image, video, audio, document or sticker."""
    mime_type: MimeType
    """The file's MIME type."""
    file_size: int
    """Size in bytes."""
    filename: Annotated[str, StringConstraints(min_length=1, max_length=240)] | None = None
    """A document's file name."""


# -- guards -----------------------------------------------------------------------------------


def _guard_approve(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.update(new, rejected_reason="NONE", quality_score="UNKNOWN", paused_until=None)


def _guard_contact_create(ctx: Ctx, new: Any, old: Any) -> None:
    number = ctx.get(PhoneNumber, new.phone_number_id, field="phone_number_id")
    if new.customer_phone == number.display_phone_number:
        raise RuleViolation(
            "the business number cannot be its own contact", field="customer_phone", hint="add the customer's number"
        )
    for other in ctx.where(Contact, phone_number_id=new.phone_number_id, customer_phone=new.customer_phone):
        if other.id != new.id:
            raise Conflict(
                f"{new.customer_phone} is already a contact of {number.display_phone_number} ({other.id})",
                field="customer_phone",
                hint="use that contact; record an opt-in with waba__opt_in_contact",
            )
    if new.opt_in_status == "opted_in":
        if new.opt_in_source is None:
            raise RuleViolation(
                "an opt-in needs its source", field="opt_in_source", hint="say where the customer opted in"
            )
        ctx.update(new, opted_in_at=ctx.now())


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    if new.opt_in_status == "opted_in":
        if old.blocked:
            raise RuleViolation(
                f"{old.customer_phone} is blocked",
                field="contact_id",
                hint="unblock them with waba__unblock_user first",
            )
        ctx.update(new, opted_in_at=ctx.now(), opt_in_source=old.opt_in_source or "in_chat")


numbers = service.resource(
    PhoneNumber,
    name="phone_number",
    plural="phone_numbers",
    prefix="pn",
    create=False,
    filters=("display_phone_number", "status", "quality_rating", "messaging_limit_tier"),
    search=("verified_name",),
    delete=False,
    title="business phone number",
)
templates = service.resource(
    MessageTemplate,
    name="message_template",
    plural="message_templates",
    prefix="tpl",
    create=False,
    filters=("name", "language", "category", "status"),
    search=("name", "body_text"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("PENDING",),
            "APPROVED",
            "approve the message template",
            description="The review approves a pending template (the template status webhook): it can be sent.",
        )
    },
    guard_update=_guard_approve,
    title="message template",
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="wac",
    create=("phone_number_id", "customer_phone", "customer_name", "opt_in_status", "opt_in_source"),
    filters=("phone_number_id", "customer_phone", "opt_in_status", "blocked", "marketing_stopped"),
    search=("customer_name",),
    delete=False,
    transitions={
        "opt_in": Transition(
            "opt_in_status",
            ("not_asked", "opted_out"),
            "opted_in",
            "record the contact's opt-in",
            description="Record that the customer agreed to get messages from the number: templates may then reach "
            "them outside the customer service window. Blocked contacts cannot opt in.",
        ),
        "opt_out": Transition(
            "opt_in_status",
            ("not_asked", "opted_in"),
            "opted_out",
            "record the contact's opt-out",
            description="Record that the customer asked for no more messages: no template reaches them outside a "
            "window they open by writing.",
        ),
    },
    guard_create=_guard_contact_create,
    guard_update=_guard_contact,
)
conversations = service.resource(
    Conversation,
    name="conversation",
    plural="conversations",
    prefix="conv",
    create=False,
    get=False,
    filters=("phone_number_id", "contact_id", "customer_phone", "category", "origin"),
    delete=False,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="wamid",
    create=False,
    filters=(
        "phone_number_id",
        "contact_id",
        "direction",
        "customer_phone",
        "type",
        "status",
        "template_name",
        "conversation_id",
    ),
    search=("body",),
    delete=False,
)
media = service.resource(
    Media,
    name="media",
    plural="media",
    prefix="media",
    create=False,
    get=False,
    filters=("phone_number_id", "media_type", "mime_type"),
    search=("filename",),
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def _sender(ctx: Ctx, phone_number_id: str) -> PhoneNumber:
    number = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if number.status == "DISCONNECTED":
        raise RuleViolation(
            f"{number.display_phone_number} is deregistered and can neither send nor receive",
            field="phone_number_id",
            hint="register it again with waba__register_phone_number",
        )
    return number


def _contact(ctx: Ctx, number: PhoneNumber, phone: str) -> Contact | None:
    return ctx.first(Contact, phone_number_id=number.id, customer_phone=phone)


def _window_open(ctx: Ctx, contact: Contact | None) -> bool:
    return bool(contact and contact.last_inbound_at and ctx.now() < contact.last_inbound_at + WINDOW)


def _reachable(ctx: Ctx, number: PhoneNumber, to: str) -> Contact | None:
    if to == number.display_phone_number:
        raise RuleViolation(
            "error 131021: the recipient cannot be the sender", field="to", hint="send to the customer's number"
        )
    contact = _contact(ctx, number, to)
    if contact is not None and contact.blocked:
        raise RuleViolation(
            f"{to} is blocked on {number.display_phone_number}",
            field="to",
            hint="unblock them with waba__unblock_user first",
        )
    return contact


def _need_window(ctx: Ctx, number: PhoneNumber, contact: Contact | None, to: str) -> Contact:
    if contact is None or not _window_open(ctx, contact):
        last = contact.last_inbound_at.isoformat() if contact and contact.last_inbound_at else "never"
        raise RuleViolation(
            f"error 131047 re-engagement message: {to} last wrote to {number.display_phone_number} {last}; "
            "free-form messages need an open 24-hour customer service window",
            field="to",
            hint="send an approved template with waba__send_template_message instead",
        )
    return contact


def _open_conversation(ctx: Ctx, number: PhoneNumber, contact: Contact, category: str) -> Conversation:
    """The open conversation of this category with the customer, or a new one (checked against the tier)."""
    now = ctx.now()
    for conv in ctx.where(Conversation, phone_number_id=number.id, contact_id=contact.id, category=category):
        if conv.expires_at > now:
            return conv
    origin = "user_initiated" if _window_open(ctx, contact) else "business_initiated"
    if origin == "business_initiated":
        limit = TIER_LIMITS[number.messaging_limit_tier]
        reached = {
            c.contact_id
            for c in ctx.where(Conversation, phone_number_id=number.id, origin="business_initiated")
            if c.opened_at > now - WINDOW
        }
        if limit is not None and contact.id not in reached and len(reached) >= limit:
            raise RuleViolation(
                f"{number.display_phone_number} reached its messaging limit: {len(reached)} customers in "
                f"business-initiated conversations in 24 hours ({number.messaging_limit_tier})",
                field="phone_number_id",
                hint="wait until earlier conversations age out, send from a number of a higher tier, "
                "or reach customers who wrote in the last 24 hours",
            )
    return ctx.create(
        Conversation,
        phone_number_id=number.id,
        contact_id=contact.id,
        customer_phone=contact.customer_phone,
        category=category,
        origin=origin,
        cost=price(category, contact.customer_phone),
        expires_at=now + WINDOW,
    )


def _outbound(ctx: Ctx, number: PhoneNumber, contact: Contact, conv: Conversation, **fields: Any) -> Message:
    return ctx.create(
        Message,
        phone_number_id=number.id,
        contact_id=contact.id,
        direction="outbound",
        customer_phone=contact.customer_phone,
        conversation_id=conv.id,
        status="sent",
        **fields,
    )


def _reply_target(ctx: Ctx, number: PhoneNumber, contact: Contact, message_id: str | None) -> None:
    if message_id is None:
        return
    msg = ctx.get(Message, message_id, field="reply_to_message_id")
    if msg.phone_number_id != number.id or msg.contact_id != contact.id:
        raise RuleViolation(
            f"message {message_id} is not part of the chat with {contact.customer_phone}",
            field="reply_to_message_id",
            hint="reply to a message of the same customer on the same number",
        )


def _parameters(text: str) -> list[int]:
    return [int(m) for m in _PARAM.findall(text)]


def _check_template(category: str, body: str, header: str | None, footer: str | None) -> int:
    """The number of body parameters, after the review's format rules."""
    params = _parameters(body)
    count = max(params, default=0)
    if sorted(set(params)) != list(range(1, count + 1)):
        raise RuleViolation(
            f"parameters must be numbered {{{{1}}}} to {{{{{count}}}}} without gaps, found {sorted(set(params))}",
            field="body_text",
            hint="number the body's parameters 1, 2, 3 … in order",
        )
    for name, text in (("header_text", header), ("footer_text", footer)):
        if text and _PARAM.search(text):
            raise RuleViolation(f"the {name.split('_')[0]} takes no parameters", field=name, hint="use fixed text")
    if category == "AUTHENTICATION":
        if count != 1 or "http" in body.lower() or header:
            raise RuleViolation(
                "an authentication template has exactly one parameter (the code), no links and no header",
                field="body_text",
                hint="use a body such as '{{1}} is your verification code.'",
            )
        return count
    stripped = body.strip()
    if count and (stripped.startswith("{{") or stripped.endswith("}}")):
        raise RuleViolation(
            "INVALID_FORMAT: the body cannot start or end with a parameter",
            field="body_text",
            hint="put fixed words before the first and after the last parameter",
        )
    return count


def _free_name(ctx: Ctx, name: str, language: str) -> None:
    for tpl in ctx.where(MessageTemplate, name=name, language=language):
        if tpl.status != "DELETED":
            raise Conflict(
                f"template {name} already exists in {language} ({tpl.status})",
                field="name",
                hint="edit it with waba__edit_message_template, or choose another name",
            )
        if tpl.deleted_at is not None and ctx.now() < tpl.deleted_at + NAME_COOLDOWN:
            raise RuleViolation(
                f"template name {name} was deleted on {tpl.deleted_at.date()} and cannot be reused for 30 days",
                field="name",
                hint=f"choose another name, or wait until {(tpl.deleted_at + NAME_COOLDOWN).date()}",
            )


def _media_expired(ctx: Ctx, item: Media) -> bool:
    return ctx.now() >= item.created_at + MEDIA_TTL


# -- examples ---------------------------------------------------------------------------------


def _open_window_contact(ctx: Ctx) -> Contact | None:
    for contact in ctx.where(Contact, blocked=False):
        number = ctx.get(PhoneNumber, contact.phone_number_id)
        if number.status != "DISCONNECTED" and _window_open(ctx, contact):
            return contact
    return None


def _example_text(ctx: Ctx) -> dict[str, Any] | None:
    c = _open_window_contact(ctx)
    return (
        None
        if c is None
        else {"phone_number_id": c.phone_number_id, "to": c.customer_phone, "body": "Your refund is done."}
    )


def _example_template(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(MessageTemplate, name="order_confirmation", language="en_US", status="APPROVED")
    for c in ctx.where(Contact, opt_in_status="opted_in", blocked=False):
        number = ctx.get(PhoneNumber, c.phone_number_id)
        if tpl is not None and number.status == "CONNECTED":
            params = [c.customer_name or "there", "TS-10001"]
            return {
                "phone_number_id": number.id,
                "to": c.customer_phone,
                "template_name": tpl.name,
                "language": tpl.language,
                "parameters": params,
            }
    return None


def _example_media(ctx: Ctx) -> dict[str, Any] | None:
    c = _open_window_contact(ctx)
    if c is None:
        return None
    for item in ctx.where(Media, phone_number_id=c.phone_number_id, media_type="image"):
        if not _media_expired(ctx, item):
            return {
                "phone_number_id": c.phone_number_id,
                "to": c.customer_phone,
                "media_id": item.id,
                "caption": "Label",
            }
    return None


def _example_first_number(**extra: Any) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        number = ctx.first(PhoneNumber, status="CONNECTED")
        return None if number is None else {"phone_number_id": number.id, **extra}

    return example


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    number = ctx.first(PhoneNumber, status="CONNECTED")
    if number is None:
        return None
    for p in ctx.population.consumers:
        c = _contact(ctx, number, p.phone)
        if c is None or not c.blocked:
            return {"phone_number_id": number.id, "customer_phone": p.phone, "body": "Hi, is my order on its way?"}
    return None


def _example_new_contact(ctx: Ctx) -> dict[str, Any] | None:
    number = ctx.first(PhoneNumber, status="CONNECTED")
    if number is None:
        return None
    for p in ctx.population.consumers:
        if _contact(ctx, number, p.phone) is None:
            return {
                "phone_number_id": number.id,
                "customer_phone": p.phone,
                "customer_name": p.name,
                "opt_in_status": "opted_in",
                "opt_in_source": "checkout",
            }
    return None


def _example_block(ctx: Ctx) -> dict[str, Any] | None:
    c = _open_window_contact(ctx)
    return None if c is None else {"phone_number_id": c.phone_number_id, "customer_phone": c.customer_phone}


def _example_unblock(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Contact, blocked=True)
    return None if c is None else {"phone_number_id": c.phone_number_id, "customer_phone": c.customer_phone}


def _example_window(ctx: Ctx) -> dict[str, Any] | None:
    c = next(iter(ctx.scan(Contact)), None)
    return None if c is None else {"phone_number_id": c.phone_number_id, "customer_phone": c.customer_phone}


def _example_unpause(ctx: Ctx) -> dict[str, Any] | None:
    for tpl in ctx.where(MessageTemplate, status="PAUSED"):
        if tpl.paused_until is not None and tpl.paused_until <= ctx.now():
            return {"template_id": tpl.id}
    return None


def _example_delete_template(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(MessageTemplate, status="APPROVED")
    return None if tpl is None else {"name": tpl.name}


# -- phone numbers ----------------------------------------------------------------------------


@service.tool(
    intent="register the business number",
    write=True,
    example=first_example(PhoneNumber, "phone_number_id", where={"status": "DISCONNECTED"}, pin="482913"),
)
def register_phone_number(ctx: Ctx, phone_number_id: PhoneNumberId, pin: Pin) -> PhoneNumber:
    """Register a deregistered number for messaging again, with its six-digit two-step verification PIN.

    Args:
        phone_number_id: The number.
        pin: The six-digit PIN.
    """
    number = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if number.status != "DISCONNECTED":
        raise Conflict(
            f"{number.display_phone_number} is already registered ({number.status})",
            field="phone_number_id",
            hint="nothing to do",
        )
    status: NumberStatus = "FLAGGED" if number.quality_rating == "RED" else "CONNECTED"
    return ctx.update(number, status=status, flagged_at=ctx.now() if status == "FLAGGED" else None)


@service.tool(
    intent="deregister the business number",
    write=True,
    destructive=True,
    example=first_example(PhoneNumber, "phone_number_id", where={"status": "CONNECTED"}),
)
def deregister_phone_number(ctx: Ctx, phone_number_id: PhoneNumberId) -> PhoneNumber:
    """Deregister a number: it stops sending and receiving messages until registered again.

    Args:
        phone_number_id: The number.
    """
    number = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if number.status == "DISCONNECTED":
        raise Conflict(f"{number.display_phone_number} is already deregistered", field="phone_number_id", hint="done")
    return ctx.update(number, status="DISCONNECTED", flagged_at=None)


@service.tool(
    intent="record the number's new quality rating",
    write=True,
    example=_example_first_number(quality_rating="YELLOW"),
)
def update_quality_rating(ctx: Ctx, phone_number_id: PhoneNumberId, quality_rating: Quality) -> PhoneNumber:
    """Apply a quality rating update (the phone number quality webhook).

    RED flags a connected number; a number still RED after seven days flagged
    drops one messaging limit tier (and stays flagged); GREEN or YELLOW clears
    the flag.

    Args:
        phone_number_id: The number.
        quality_rating: GREEN, YELLOW or RED.
    """
    number = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    now = ctx.now()
    if quality_rating != "RED":
        if number.quality_rating == quality_rating:
            raise Conflict(
                f"{number.display_phone_number} is already {quality_rating}", field="quality_rating", hint="no change"
            )
        status = "CONNECTED" if number.status == "FLAGGED" else number.status
        return ctx.update(number, quality_rating=quality_rating, status=status, flagged_at=None)
    if number.status == "DISCONNECTED":
        return ctx.update(number, quality_rating="RED")
    if number.status == "FLAGGED" and number.flagged_at is not None and now - number.flagged_at >= FLAG_GRACE:
        tier = TIERS[max(0, TIERS.index(number.messaging_limit_tier) - 1)]
        return ctx.update(number, quality_rating="RED", messaging_limit_tier=tier, flagged_at=now)
    if number.status == "FLAGGED":
        raise Conflict(
            f"{number.display_phone_number} is already flagged RED since {number.flagged_at}",
            field="quality_rating",
            hint="its tier drops after seven days flagged",
        )
    return ctx.update(number, quality_rating="RED", status="FLAGGED", flagged_at=now)


# -- templates --------------------------------------------------------------------------------


@service.tool(
    intent="submit a new message template",
    write=True,
    example=fixed_example(
        name="return_received",
        language="en_US",
        category="UTILITY",
        body_text="Hi {{1}}, we received your return for order {{2}}. Your refund follows within 5 days.",
    ),
)
def create_message_template(
    ctx: Ctx,
    name: TemplateName,
    language: TemplateLanguage,
    category: Category,
    body_text: Text,
    header_text: ShortText | None = None,
    footer_text: ShortText | None = None,
) -> MessageTemplate:
    """Submit a template for review; it is PENDING until approved or rejected.

    A name and language pair is unique; a deleted name is blocked for 30 days.
    The body (at most 1024 characters) numbers its parameters {{1}}, {{2}} …
    without gaps and neither starts nor ends with one; header and footer take
    none. An authentication template has exactly one parameter (the code), no
    link and no header.

    Args:
        name: Lower-case letters, digits and underscores.
        language: Language and locale, e.g. en_US.
        category: MARKETING, UTILITY or AUTHENTICATION.
        body_text: The body.
        header_text: A header line.
        footer_text: A footer line.
    """
    body = body_text.strip()
    if not body or len(body) > MAX_BODY:
        raise RuleViolation("the body must be 1-1024 characters", field="body_text", hint="write or shorten the body")
    _free_name(ctx, name, language)
    count = _check_template(category, body, header_text, footer_text)
    return ctx.create(
        MessageTemplate,
        name=name,
        language=language,
        category=category,
        body_text=body,
        header_text=header_text,
        footer_text=footer_text,
        parameter_count=count,
    )


@service.tool(
    intent="edit the message template",
    write=True,
    example=first_example(
        MessageTemplate,
        "template_id",
        where={"status": "REJECTED"},
        category="MARKETING",
        body_text="We miss you, {{1}}! Take {{2}} off your next order this week.",
    ),
)
def edit_message_template(
    ctx: Ctx,
    template_id: TemplateId,
    body_text: Text | None = None,
    category: Category | None = None,
    header_text: ShortText | None = None,
    footer_text: ShortText | None = None,
) -> MessageTemplate:
    """Edit a template and send it back to review (PENDING).

    Only APPROVED, REJECTED and PAUSED templates can be edited. An approved
    template keeps its category and can be edited once in 24 hours and ten
    times in 30 days.

    Args:
        template_id: The template.
        body_text: The new body.
        category: The new category (not for approved templates).
        header_text: The new header.
        footer_text: The new footer.
    """
    tpl = ctx.get(MessageTemplate, template_id, field="template_id")
    if tpl.status not in ("APPROVED", "REJECTED", "PAUSED"):
        raise RuleViolation(
            f"template {tpl.name} ({tpl.language}) is {tpl.status}; only approved, rejected or paused ones can be edited",
            field="template_id",
            hint="wait for the review of a pending template; create a new template instead of a disabled one",
        )
    if body_text is None and category is None and header_text is None and footer_text is None:
        raise RuleViolation("nothing to edit", field="body_text", hint="pass a new body, category, header or footer")
    now = ctx.now()
    edits = tpl.approved_edits
    if tpl.status == "APPROVED":
        if category is not None and category != tpl.category:
            raise RuleViolation(
                f"the category of approved template {tpl.name} cannot change",
                field="category",
                hint="create a new template in the other category",
            )
        recent = [t for t in edits if t > now - dt.timedelta(days=30)]
        if any(t > now - dt.timedelta(days=1) for t in recent):
            raise RuleViolation(
                f"approved template {tpl.name} was already edited in the last 24 hours",
                field="template_id",
                hint="an approved template can be edited once a day; try again tomorrow",
            )
        if len(recent) >= 10:
            raise RuleViolation(
                f"approved template {tpl.name} was edited ten times in 30 days",
                field="template_id",
                hint="create a new template instead",
            )
        edits = (*recent, now)
    new_category = category or tpl.category
    body = (body_text if body_text is not None else tpl.body_text).strip()
    if not body or len(body) > MAX_BODY:
        raise RuleViolation("the body must be 1-1024 characters", field="body_text", hint="write or shorten the body")
    header = header_text if header_text is not None else tpl.header_text
    footer = footer_text if footer_text is not None else tpl.footer_text
    count = _check_template(new_category, body, header, footer)
    return ctx.update(
        tpl,
        body_text=body,
        category=new_category,
        header_text=header,
        footer_text=footer,
        parameter_count=count,
        status="PENDING",
        rejected_reason="NONE",
        paused_until=None,
        approved_edits=edits,
    )


class DeletedTemplates(BaseModel):
    """What deleting a template name removed."""

    name: TemplateName = Field(description="The template name.")
    deleted: list[MessageTemplate] = Field(description="Its languages, now DELETED.")


@service.tool(intent="delete the message template", write=True, destructive=True, example=_example_delete_template)
def delete_message_template(ctx: Ctx, name: TemplateName) -> DeletedTemplates:
    """Delete a template name in every language; the name cannot be used again for 30 days.

    Args:
        name: The template name.
    """
    live = [t for t in ctx.where(MessageTemplate, name=name) if t.status != "DELETED"]
    if not live:
        raise NotFound(f"no template named {name}", field="name", hint="list templates to find its name")
    now = ctx.now()
    gone = [ctx.update(t, status="DELETED", deleted_at=now, paused_until=None) for t in live]
    return DeletedTemplates(name=name, deleted=gone)


@service.tool(
    intent="reject the message template",
    write=True,
    example=first_example(MessageTemplate, "template_id", where={"status": "PENDING"}, reason="PROMOTIONAL"),
)
def reject_message_template(
    ctx: Ctx,
    template_id: TemplateId,
    reason: Literal["ABUSIVE_CONTENT", "INVALID_FORMAT", "PROMOTIONAL", "TAG_CONTENT_MISMATCH", "SCAM"],
) -> MessageTemplate:
    """The review rejects a pending template (the template status webhook), with its reason.

    Args:
        template_id: The template.
        reason: Why it was rejected.
    """
    tpl = ctx.get(MessageTemplate, template_id, field="template_id")
    if tpl.status != "PENDING":
        raise RuleViolation(
            f"template {tpl.name} ({tpl.language}) is {tpl.status}; only pending templates are reviewed",
            field="template_id",
            hint="edit it to send it back to review",
        )
    return ctx.update(tpl, status="REJECTED", rejected_reason=reason)


@service.tool(
    intent="pause the message template for low quality",
    write=True,
    example=first_example(MessageTemplate, "template_id", where={"status": "APPROVED"}),
)
def pause_message_template(ctx: Ctx, template_id: TemplateId) -> MessageTemplate:
    """Low quality pauses an approved template: 3 hours the first time, 6 the second; the third pause disables it.

    Args:
        template_id: The template.
    """
    tpl = ctx.get(MessageTemplate, template_id, field="template_id")
    if tpl.status != "APPROVED":
        raise RuleViolation(
            f"template {tpl.name} ({tpl.language}) is {tpl.status}; only approved templates are paused",
            field="template_id",
            hint="list APPROVED templates",
        )
    count = tpl.pause_count + 1
    if count > len(PAUSES):
        return ctx.update(tpl, status="DISABLED", pause_count=count, quality_score="RED", paused_until=None)
    return ctx.update(
        tpl, status="PAUSED", pause_count=count, quality_score="RED", paused_until=ctx.now() + PAUSES[count - 1]
    )


@service.tool(intent="reinstate the paused template after its pause", write=True, example=_example_unpause)
def unpause_message_template(ctx: Ctx, template_id: TemplateId) -> MessageTemplate:
    """Reinstate a paused template once its pause is over; it is APPROVED again.

    Args:
        template_id: The template.
    """
    tpl = ctx.get(MessageTemplate, template_id, field="template_id")
    if tpl.status != "PAUSED":
        raise RuleViolation(
            f"template {tpl.name} ({tpl.language}) is {tpl.status}, not paused",
            field="template_id",
            hint="nothing to do",
        )
    if tpl.paused_until is not None and ctx.now() < tpl.paused_until:
        raise RuleViolation(
            f"template {tpl.name} is paused until {tpl.paused_until.isoformat()}",
            field="template_id",
            hint="wait for the pause to end, or edit the template to send it back to review",
        )
    return ctx.update(tpl, status="APPROVED", paused_until=None, quality_score="YELLOW")


# -- sending ----------------------------------------------------------------------------------


@service.tool(intent="send a text message on the chat app", write=True, example=_example_text)
def send_text_message(
    ctx: Ctx, phone_number_id: PhoneNumberId, to: Phone, body: Text, reply_to_message_id: MessageId | None = None
) -> Message:
    """Send a free-form text message; only inside the customer's 24-hour service window.

    Args:
        phone_number_id: The business number to send from.
        to: The customer's number.
        body: The text (1-4096 characters).
        reply_to_message_id: A message of the same chat to quote.
    """
    number = _sender(ctx, phone_number_id)
    contact = _need_window(ctx, number, _reachable(ctx, number, to), to)
    text = body.strip()
    if not text or len(text) > MAX_TEXT:
        raise RuleViolation("the text must be 1-4096 characters", field="body", hint="write or shorten the text")
    _reply_target(ctx, number, contact, reply_to_message_id)
    conv = _open_conversation(ctx, number, contact, "service")
    return _outbound(ctx, number, contact, conv, type="text", body=text, reply_to_message_id=reply_to_message_id)


@service.tool(intent="send a template message on the chat app", write=True, example=_example_template)
def send_template_message(
    ctx: Ctx,
    phone_number_id: PhoneNumberId,
    to: Phone,
    template_name: TemplateName,
    language: TemplateLanguage,
    parameters: list[Annotated[str, StringConstraints(max_length=1024)]],
) -> Message:
    """Send an approved template, filling its body parameters in order.

    Outside the customer service window the customer must have opted in;
    marketing templates never reach customers who stopped promotions. The
    template must be APPROVED (not paused or disabled) and get exactly its
    number of parameters, without new lines, tabs or more than four
    consecutive spaces; an authentication code is at most 15 characters.

    Args:
        phone_number_id: The business number to send from.
        to: The customer's number.
        template_name: The template.
        language: The template's language, e.g. en_US.
        parameters: The values of {{1}}, {{2}} … in order.
    """
    number = _sender(ctx, phone_number_id)
    contact = _reachable(ctx, number, to)
    tpl = next(
        (t for t in ctx.where(MessageTemplate, name=template_name, language=language) if t.status != "DELETED"), None
    )
    if tpl is None:
        raise NotFound(
            f"error 132001: template {template_name} does not exist in {language}",
            field="template_name",
            hint="list templates with waba__list_message_templates",
        )
    if tpl.status != "APPROVED":
        code = {"PAUSED": 132015, "DISABLED": 132016}.get(tpl.status, 132001)
        until = f" until {tpl.paused_until.isoformat()}" if tpl.paused_until else ""
        raise RuleViolation(
            f"error {code}: template {template_name} ({language}) is {tpl.status}{until}",
            field="template_name",
            hint="send an APPROVED template",
        )
    if len(parameters) != tpl.parameter_count:
        raise RuleViolation(
            f"error 132000: template {template_name} takes {tpl.parameter_count} parameter(s), got {len(parameters)}",
            field="parameters",
            hint=f"pass exactly {tpl.parameter_count} values for {{{{1}}}} …",
        )
    for value in parameters:
        if not value.strip() or "\n" in value or "\t" in value or "     " in value:
            raise RuleViolation(
                "parameter text cannot be empty or have new lines, tabs or more than 4 consecutive spaces",
                field="parameters",
                hint="put each value on one line",
            )
    if tpl.category == "AUTHENTICATION" and len(parameters[0]) > 15:
        raise RuleViolation("a verification code is at most 15 characters", field="parameters", hint="shorten it")
    if contact is None or not (_window_open(ctx, contact) or contact.opt_in_status == "opted_in"):
        state = "has no contact record" if contact is None else f"is {contact.opt_in_status}"
        raise RuleViolation(
            f"{to} {state} on {number.display_phone_number}: business-initiated messages need an opt-in",
            field="to",
            hint="record the customer's opt-in (waba__create_contact or waba__opt_in_contact), "
            "or wait for them to write",
        )
    if tpl.category == "MARKETING" and contact.marketing_stopped:
        raise RuleViolation(
            f"error 131050: {to} stopped marketing messages from this business",
            field="to",
            hint="send them utility or service messages only",
        )
    conv = _open_conversation(ctx, number, contact, CONV_CATEGORY[tpl.category])
    rendered = _PARAM.sub(lambda m: parameters[int(m.group(1)) - 1], tpl.body_text)
    return _outbound(
        ctx, number, contact, conv, type="template", body=rendered, template_id=tpl.id, template_name=tpl.name
    )


@service.tool(intent="send a photo, video, audio or document on the chat app", write=True, example=_example_media)
def send_media_message(
    ctx: Ctx, phone_number_id: PhoneNumberId, to: Phone, media_id: MediaId, caption: Text | None = None
) -> Message:
    """Send uploaded media inside the customer service window.

    The media must be uploaded by the same number less than 30 days ago;
    captions (at most 1024 characters) go with images, videos and documents
    only.

    Args:
        phone_number_id: The business number to send from.
        to: The customer's number.
        media_id: The uploaded media.
        caption: Text under an image, video or document.
    """
    number = _sender(ctx, phone_number_id)
    contact = _need_window(ctx, number, _reachable(ctx, number, to), to)
    item = ctx.get(Media, media_id, field="media_id")
    if item.phone_number_id != number.id:
        raise RuleViolation(
            f"media {item.id} was uploaded by another number", field="media_id", hint="upload it from this number"
        )
    if _media_expired(ctx, item):
        raise RuleViolation(
            f"error 131053: media {item.id} expired 30 days after its upload",
            field="media_id",
            hint="upload the file again with waba__upload_media",
        )
    if caption and item.media_type not in ("image", "video", "document"):
        raise RuleViolation(
            f"{item.media_type} messages take no caption", field="caption", hint="send the text as a separate message"
        )
    if caption and len(caption) > MAX_CAPTION:
        raise RuleViolation("a caption is at most 1024 characters", field="caption", hint="shorten it")
    conv = _open_conversation(ctx, number, contact, "service")
    return _outbound(ctx, number, contact, conv, type=item.media_type, body=caption or "", media_id=item.id)


@service.tool(
    intent="upload a file for sending",
    write=True,
    example=_example_first_number(mime_type="application/pdf", file_size=240_000, filename="invoice.pdf"),
)
def upload_media(
    ctx: Ctx,
    phone_number_id: PhoneNumberId,
    mime_type: MimeType,
    file_size: int,
    filename: Annotated[str, StringConstraints(min_length=1, max_length=240)] | None = None,
) -> Media:
    """Upload media to send within 30 days.

    Images (JPEG, PNG) up to 5 MB, video and audio up to 16 MB, documents up
    to 100 MB, WebP stickers up to 500 KB.

    Args:
        phone_number_id: The number that will send it.
        mime_type: The file's MIME type.
        file_size: Size in bytes.
        filename: A document's file name.
    """
    number = _sender(ctx, phone_number_id)
    kind, limit = MEDIA_KINDS[mime_type]
    if not 0 < file_size <= limit:
        raise RuleViolation(
            f"a {kind} of type {mime_type} must be 1 to {limit} bytes, not {file_size}",
            field="file_size",
            hint="compress the file or send a link in a text message",
        )
    return ctx.create(
        Media,
        phone_number_id=number.id,
        media_type=kind,
        mime_type=mime_type,
        file_size=file_size,
        filename=filename if kind == "document" else None,
    )


@service.tool(
    intent="delete the uploaded file",
    write=True,
    destructive=True,
    example=first_example(Media, "media_id"),
)
def delete_media(ctx: Ctx, media_id: MediaId) -> Deleted:
    """Delete uploaded media; messages that carried it keep their record.

    Args:
        media_id: The media.
    """
    item = ctx.get(Media, media_id, field="media_id")
    ctx.delete(item)
    return Deleted(id=item.id)


@service.tool(
    intent="mark the customer's message as read",
    write=True,
    example=first_example(Message, "message_id", where={"status": "received"}),
)
def mark_message_as_read(ctx: Ctx, message_id: MessageId) -> Message:
    """Mark a received message as read (blue ticks); earlier messages of the same chat are marked read too.

    Args:
        message_id: The received message.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.direction != "inbound":
        raise RuleViolation(
            f"message {msg.id} was sent by the business",
            field="message_id",
            hint="only received messages are marked read",
        )
    if msg.status == "read":
        raise Conflict(f"message {msg.id} is already read", field="message_id", hint="nothing to do")
    for earlier in ctx.where(Message, contact_id=msg.contact_id, direction="inbound", status="received"):
        if earlier.timestamp <= msg.timestamp and earlier.id != msg.id:
            ctx.update(earlier, status="read")
    return ctx.update(msg, status="read")


_NEXT: dict[str, tuple[str, ...]] = {"sent": ("delivered", "read", "failed"), "delivered": ("read",)}


@service.tool(
    intent="record the message's delivery status",
    write=True,
    example=first_example(Message, "message_id", where={"direction": "outbound", "status": "sent"}, status="delivered"),
)
def update_message_status(
    ctx: Ctx,
    message_id: MessageId,
    status: Literal["delivered", "read", "failed"],
    error_code: Literal[131000, 131026, 131049, 131053] | None = None,
) -> Message:
    """Apply a status webhook to a sent message: sent → delivered → read, or sent → failed.

    Statuses only move forward; failed needs an error code (131000 something
    went wrong, 131026 undeliverable, 131049 held back to keep engagement
    healthy, 131053 media error) and the others take none.

    Args:
        message_id: The outbound message.
        status: delivered, read or failed.
        error_code: Why it failed.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.direction != "outbound":
        raise RuleViolation(
            f"message {msg.id} was received", field="message_id", hint="status webhooks apply to sent messages"
        )
    if status not in _NEXT.get(msg.status, ()):
        raise RuleViolation(
            f"message {msg.id} is {msg.status} and cannot become {status}",
            field="status",
            hint="statuses move sent → delivered → read, or sent → failed",
        )
    if (status == "failed") != (error_code is not None):
        raise RuleViolation(
            "a failed message needs an error code, and only a failed one",
            field="error_code",
            hint="pass error_code with status failed, omit it otherwise",
        )
    return ctx.update(msg, status=status, error_code=error_code)


# -- customers --------------------------------------------------------------------------------


class Inbound(BaseModel):
    """A customer's message and what it changed."""

    message: Message = Field(description="The received message.")
    contact: Contact = Field(description="The contact after the message (created on a first message).")
    window_expires_at: DateTime = Field(description="When the customer service window it opened closes.")
    keyword: Literal["stop", "start", "stop_promotions"] | None = Field(description="The opt-out keyword it carried.")


STOP_WORDS = frozenset({"STOP", "UNSUBSCRIBE"})
START_WORDS = frozenset({"START", "SUBSCRIBE"})
STOP_PROMOTIONS = "STOP PROMOTIONS"


@service.tool(intent="write to the business as the customer", write=True, example=_example_receive)
def receive_message(
    ctx: Ctx,
    phone_number_id: PhoneNumberId,
    customer_phone: Phone,
    body: Text,
    customer_name: PersonName | None = None,
    reply_to_message_id: MessageId | None = None,
) -> Inbound:
    """A customer writes to a business number (the messages webhook): it opens a 24-hour service window.

    A first message creates the contact. STOP or UNSUBSCRIBE opts out, START
    or SUBSCRIBE opts in, and the "Stop promotions" button stops marketing.
    Blocked customers cannot write; a deregistered number receives nothing.

    Args:
        phone_number_id: The business number.
        customer_phone: The customer's number.
        body: What they write.
        customer_name: The name on their profile (default: as known).
        reply_to_message_id: A message of the chat they reply to.
    """
    number = _sender(ctx, phone_number_id)
    text = body.strip()
    if not text:
        raise RuleViolation("the message is empty", field="body", hint="write something")
    if customer_phone == number.display_phone_number:
        raise RuleViolation("a number cannot write to itself", field="customer_phone", hint="write from another number")
    contact = _contact(ctx, number, customer_phone)
    if contact is not None and contact.blocked:
        raise RuleViolation(
            f"{customer_phone} is blocked by {number.display_phone_number}; their messages are not delivered",
            field="customer_phone",
            hint="the business must unblock them with waba__unblock_user",
        )
    now = ctx.now()
    if contact is None:
        known = next((p.name for p in ctx.population.people if p.phone == customer_phone), None)
        contact = ctx.create(
            Contact, phone_number_id=number.id, customer_phone=customer_phone, customer_name=customer_name or known
        )
    _reply_target(ctx, number, contact, reply_to_message_id)
    word = " ".join(text.upper().split())
    keyword: Literal["stop", "start", "stop_promotions"] | None = None
    changes: dict[str, Any] = {"last_inbound_at": now}
    if customer_name:
        changes["customer_name"] = customer_name
    if word in STOP_WORDS:
        keyword = "stop"
        changes["opt_in_status"] = "opted_out"
    elif word in START_WORDS:
        keyword = "start"
        if contact.opt_in_status != "opted_in":
            changes.update(opt_in_status="opted_in", opt_in_source="in_chat", opted_in_at=now)
    elif word == STOP_PROMOTIONS:
        keyword = "stop_promotions"
        changes["marketing_stopped"] = True
    contact = ctx.update(contact, **changes)
    msg = ctx.create(
        Message,
        phone_number_id=number.id,
        contact_id=contact.id,
        direction="inbound",
        customer_phone=customer_phone,
        body=text,
        reply_to_message_id=reply_to_message_id,
        status="received",
    )
    return Inbound(message=msg, contact=contact, window_expires_at=now + WINDOW, keyword=keyword)


def _known(ctx: Ctx, phone_number_id: str, customer_phone: str) -> tuple[PhoneNumber, Contact]:
    number = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    contact = _contact(ctx, number, customer_phone)
    if contact is None:
        raise NotFound(
            f"{customer_phone} never wrote to {number.display_phone_number}",
            field="customer_phone",
            hint="list the number's contacts with waba__list_contacts",
        )
    return number, contact


@service.tool(intent="block the customer", write=True, example=_example_block)
def block_user(ctx: Ctx, phone_number_id: PhoneNumberId, customer_phone: Phone) -> Contact:
    """Block a customer on a number: they can no longer write to it or get messages from it.

    Only customers who wrote in the last 24 hours can be blocked.

    Args:
        phone_number_id: The business number.
        customer_phone: The customer's number.
    """
    number, contact = _known(ctx, phone_number_id, customer_phone)
    if contact.blocked:
        raise Conflict(f"{customer_phone} is already blocked", field="customer_phone", hint="nothing to do")
    if not _window_open(ctx, contact):
        raise RuleViolation(
            f"{customer_phone} last wrote to {number.display_phone_number} more than 24 hours ago"
            if contact.last_inbound_at
            else f"{customer_phone} never wrote to {number.display_phone_number}",
            field="customer_phone",
            hint="only customers who wrote in the last 24 hours can be blocked",
        )
    return ctx.update(contact, blocked=True)


@service.tool(intent="unblock the customer", write=True, example=_example_unblock)
def unblock_user(ctx: Ctx, phone_number_id: PhoneNumberId, customer_phone: Phone) -> Contact:
    """Unblock a customer on a number.

    Args:
        phone_number_id: The business number.
        customer_phone: The customer's number.
    """
    _, contact = _known(ctx, phone_number_id, customer_phone)
    if not contact.blocked:
        raise Conflict(f"{customer_phone} is not blocked", field="customer_phone", hint="nothing to do")
    return ctx.update(contact, blocked=False)


class Window(BaseModel):
    """What the business may send a customer right now."""

    customer_phone: Phone = Field(description="The customer's number.")
    contact_id: ContactId | None = Field(description="The contact, if the customer is known to the number.")
    window_open: bool = Field(description="Whether the 24-hour customer service window is open.")
    window_expires_at: DateTime | None = Field(description="When the window closes (or closed).")
    free_form_allowed: bool = Field(description="Whether text and media may be sent.")
    template_allowed: bool = Field(description="Whether an approved template may be sent.")
    marketing_allowed: bool = Field(description="Whether a marketing template may be sent.")
    reason: str = Field(description="Why not, when something is not allowed.")
    open_conversations: list[Conversation] = Field(description="Conversations still open with the customer.")


@service.tool(intent="check what may be sent to the customer", example=_example_window)
def get_messaging_window(ctx: Ctx, phone_number_id: PhoneNumberId, customer_phone: Phone) -> Window:
    """Say whether free-form messages, templates and marketing may reach a customer now, and why not.

    Args:
        phone_number_id: The business number.
        customer_phone: The customer's number.
    """
    number = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    contact = _contact(ctx, number, customer_phone)
    is_open = _window_open(ctx, contact)
    expires = contact.last_inbound_at + WINDOW if contact and contact.last_inbound_at else None
    reason = ""
    if number.status == "DISCONNECTED":
        reason = "the number is deregistered"
    elif contact is not None and contact.blocked:
        reason = "the customer is blocked"
    elif not is_open and (contact is None or contact.opt_in_status != "opted_in"):
        reason = "no open service window and no opt-in"
    elif not is_open:
        reason = "no open service window: templates only"
    sendable = number.status != "DISCONNECTED" and not (contact is not None and contact.blocked)
    templates_ok = sendable and (is_open or (contact is not None and contact.opt_in_status == "opted_in"))
    marketing_ok = templates_ok and not (contact is not None and contact.marketing_stopped)
    if templates_ok and not marketing_ok:
        reason = (reason + "; " if reason else "") + "the customer stopped promotions"
    convs = [c for c in ctx.where(Conversation, contact_id=contact.id) if c.expires_at > ctx.now()] if contact else []
    return Window(
        customer_phone=customer_phone,
        contact_id=contact.id if contact else None,
        window_open=is_open,
        window_expires_at=expires,
        free_form_allowed=sendable and is_open,
        template_allowed=templates_ok,
        marketing_allowed=marketing_ok,
        reason=reason,
        open_conversations=convs,
    )


class CategoryCost(BaseModel):
    """Conversations of one category."""

    category: ConvCategory = Field(description="The category.")
    conversations: int = Field(description="How many were opened.")
    cost: float = Field(description="Their cost in USD.")


class Analytics(BaseModel):
    """Conversations opened and what they cost."""

    phone_number_id: PhoneNumberId | None = Field(description="The number, or null for every number.")
    start: DateTime = Field(description="Start of the period.")
    end: DateTime = Field(description="End of the period.")
    conversations: int = Field(description="Conversations opened.")
    business_initiated: int = Field(description="Of which opened by the business outside a service window.")
    cost: float = Field(description="Total cost in USD.")
    currency: Literal["USD"] = Field(description="Currency of the costs.")
    by_category: list[CategoryCost] = Field(description="Per category.")


@service.tool(intent="report conversations and their cost")
def conversation_analytics(ctx: Ctx, phone_number_id: PhoneNumberId | None = None, days: int = 30) -> Analytics:
    """Count the conversations opened in the last days and total their cost, per category.

    Args:
        phone_number_id: Only this number's conversations.
        days: How many days back (1-90).
    """
    if not 1 <= days <= 90:
        raise RuleViolation("days must be 1-90", field="days", hint="pick 1 to 90")
    if phone_number_id is not None:
        ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    end = ctx.now()
    start = end - dt.timedelta(days=days)
    convs = (
        ctx.where(Conversation, phone_number_id=phone_number_id) if phone_number_id else list(ctx.scan(Conversation))
    )
    chosen = [c for c in convs if start <= c.opened_at <= end]
    per: dict[ConvCategory, list[float]] = {}
    for c in chosen:
        row = per.setdefault(c.category, [0, 0.0])
        row[0] += 1
        row[1] += c.cost
    return Analytics(
        phone_number_id=phone_number_id,
        start=start,
        end=end,
        conversations=len(chosen),
        business_initiated=sum(c.origin == "business_initiated" for c in chosen),
        cost=round(sum(c.cost for c in chosen), 4),
        currency="USD",
        by_category=[
            CategoryCost(category=k, conversations=int(v[0]), cost=round(v[1], 4)) for k, v in sorted(per.items())
        ],
    )


# -- seed -------------------------------------------------------------------------------------

TEMPLATES: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "order_confirmation",
        "en_US",
        "UTILITY",
        "APPROVED",
        "Hi {{1}}, thanks for your order {{2}}. We will let you know when it ships.",
    ),
    (
        "order_confirmation",
        "pt_BR",
        "UTILITY",
        "APPROVED",
        "Olá {{1}}, obrigado pelo seu pedido {{2}}. Avisaremos quando for enviado.",
    ),
    (
        "shipping_update",
        "en_US",
        "UTILITY",
        "APPROVED",
        "Good news {{1}}: order {{2}} has shipped with tracking number {{3}}. Track it in our app.",
    ),
    (
        "payment_reminder",
        "es",
        "UTILITY",
        "APPROVED",
        "Hola {{1}}, tu factura {{2}} vence el {{3}}. Gracias por tu confianza.",
    ),
    (
        "appointment_reminder",
        "en_US",
        "UTILITY",
        "APPROVED",
        "Hi {{1}}, this is a reminder of your installation appointment on {{2}}. Reply to reschedule.",
    ),
    (
        "verification_code",
        "en_US",
        "AUTHENTICATION",
        "APPROVED",
        "{{1}} is your verification code. For your security, do not share this code.",
    ),
    (
        "spring_sale",
        "en_US",
        "MARKETING",
        "APPROVED",
        "Hi {{1}}, our spring sale is on: {{2}} off everything until Sunday. Reply STOP to opt out.",
    ),
    (
        "delivery_delay",
        "en_US",
        "UTILITY",
        "PENDING",
        "Hi {{1}}, your order {{2}} is delayed by {{3}} days. We are sorry for the wait.",
    ),
    (
        "review_request",
        "en_US",
        "MARKETING",
        "PENDING",
        "Hi {{1}}, how did you like {{2}}? Leave a review and get 10% off your next order.",
    ),
    (
        "winback_offer",
        "en_US",
        "UTILITY",
        "REJECTED",
        "We miss you {{1}}! Come back and take {{2}} off your next order.",
    ),
    (
        "summer_launch",
        "en_US",
        "MARKETING",
        "PAUSED",
        "Hi {{1}}, the summer collection is here. Be the first to shop it today.",
    ),
    (
        "back_to_school",
        "en_US",
        "MARKETING",
        "PAUSED",
        "Hi {{1}}, get ready for school: notebooks from {{2}} this week only.",
    ),
    (
        "holiday_promo_2024",
        "en_US",
        "MARKETING",
        "DISABLED",
        "Hi {{1}}, our holiday deals end tonight. Shop now and save.",
    ),
    ("black_friday_2025", "en_US", "MARKETING", "DELETED", "Hi {{1}}, Black Friday starts now: {{2}} off storewide."),
)
INBOUND = (
    "Hi, where is my order {order}?",
    "Can I change the delivery address for {order}?",
    "The parcel for {order} arrived damaged.",
    "Do you have the docking station in stock?",
    "How do I return an item?",
)
REPLIES = (
    "Hi {first}, order {order} is with the carrier and arrives tomorrow.",
    "Sure, {first}: send us the new address and we will update {order}.",
    "Sorry about that, {first}. We are sending a replacement for {order} today.",
    "Yes, it is back in stock and ships within 24 hours.",
    "You can return any item within 30 days: reply RETURN and we send a label.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Business numbers in every state, reviewed templates, contacts with consent, chats, conversations, media."""
    pop = s.population
    support, orders, promos, pilot = _seed_numbers(s)
    by_name = _seed_templates(s)
    consumers = list(pop.consumers)
    refs = first_order_numbers(pop)
    for k, p in enumerate(consumers[:30]):
        _seed_support_chat(s, support, p, k, refs.get(p.email) or f"TS-{10000 + k}")
    for k, p in enumerate(consumers[20:45]):
        _seed_order_notice(s, orders, p, k, refs.get(p.email) or f"TS-{20000 + k}", by_name)
    for k, p in enumerate(consumers[40:55]):
        _seed_promotion(s, promos, p, k, by_name["spring_sale"])
    for k, p in enumerate(consumers[:3]):
        contact = s.create(
            Contact,
            phone_number_id=pilot.id,
            customer_phone=p.phone,
            customer_name=p.name,
            opt_in_status="opted_in",
            opt_in_source="website_form",
            opted_in_at=_ago(s, 24 * (3 + k)),
            created_at=_ago(s, 24 * (3 + k)),
        )
        _seed_template_message(
            s, pilot, contact, by_name["order_confirmation"], [p.first_name, f"TS-3000{k}"], _ago(s, 5 + k), "delivered"
        )
    _seed_media(s, support, orders)


def _ago(s: SeedContext, hours: float) -> dt.datetime:
    return s.now - dt.timedelta(hours=hours)


def _seed_numbers(s: SeedContext) -> tuple[PhoneNumber, PhoneNumber, PhoneNumber, PhoneNumber]:
    """A support number, an orders number, a flagged promotions number, a new pilot and a deregistered one."""
    pop = s.population
    used = {p.phone for p in pop.people}

    def fresh(prefix: str) -> str:
        while True:
            cand = prefix + "".join(str(s.rng.randint(0, 9)) for _ in range(12 - len(prefix) + 1))
            if cand not in used:
                used.add(cand)
                return cand

    home = pop.home.place.phone_prefix
    plan: tuple[tuple[str, Quality, Tier, NumberStatus, int], ...] = (
        (home, "GREEN", "TIER_10K", "CONNECTED", 500),
        ("+1415", "YELLOW", "TIER_1K", "CONNECTED", 380),
        (home, "RED", "TIER_250", "FLAGGED", 200),
        (home, "GREEN", "TIER_50", "CONNECTED", 6),
        ("+1206", "GREEN", "TIER_250", "DISCONNECTED", 700),
    )
    made = [
        s.create(
            PhoneNumber,
            display_phone_number=fresh(prefix),
            verified_name=pop.home.name,
            quality_rating=quality,
            messaging_limit_tier=tier,
            status=status,
            flagged_at=_ago(s, 24 * 8) if status == "FLAGGED" else None,
            created_at=_ago(s, 24 * age),
        )
        for prefix, quality, tier, status, age in plan
    ]
    return made[0], made[1], made[2], made[3]


def _seed_templates(s: SeedContext) -> dict[str, MessageTemplate]:
    by_name: dict[str, MessageTemplate] = {}
    for k, (name, language, category, status, body) in enumerate(TEMPLATES):
        created = _ago(s, 24 * (200 - 9 * k))
        extra: dict[str, Any] = {}
        if status == "REJECTED":
            extra = {"rejected_reason": "PROMOTIONAL"}
        elif status == "PAUSED":
            first = name == "summer_launch"
            extra = {
                "pause_count": 1 if first else 2,
                "paused_until": _ago(s, -2) if first else _ago(s, 1),
                "quality_score": "RED",
            }
        elif status == "DISABLED":
            extra = {"pause_count": 3, "quality_score": "RED"}
        elif status == "DELETED":
            extra = {"deleted_at": _ago(s, 24 * 10)}
        elif status == "APPROVED":
            extra = {"quality_score": "GREEN" if k % 3 else "YELLOW"}
        if name == "shipping_update":
            extra["approved_edits"] = (_ago(s, 24 * 12), _ago(s, 3))
        tpl = s.create(
            MessageTemplate,
            name=name,
            language=language,
            category=category,
            status=status,
            body_text=body,
            footer_text=s.population.home.name if category == "MARKETING" else None,
            parameter_count=max(_parameters(body), default=0),
            created_at=created,
            updated_at=created + dt.timedelta(days=1),
            **extra,
        )
        by_name.setdefault(name, tpl)
    return by_name


def _seed_conv(
    s: SeedContext, number: PhoneNumber, contact: Contact, category: ConvCategory, when: dt.datetime, origin: str
) -> Conversation:
    return s.create(
        Conversation,
        phone_number_id=number.id,
        contact_id=contact.id,
        customer_phone=contact.customer_phone,
        category=category,
        origin=origin,
        cost=price(category, contact.customer_phone),
        opened_at=when,
        expires_at=when + WINDOW,
    )


def _seed_message(
    s: SeedContext,
    number: PhoneNumber,
    contact: Contact,
    direction: str,
    body: str,
    when: dt.datetime,
    status: MessageStatus,
    **extra: Any,
) -> Message:
    return s.create(
        Message,
        phone_number_id=number.id,
        contact_id=contact.id,
        direction=direction,
        customer_phone=contact.customer_phone,
        body=body,
        status=status,
        timestamp=when,
        updated_at=when + dt.timedelta(minutes=3 if status in ("delivered", "read", "failed") else 0),
        **extra,
    )


def _seed_template_message(
    s: SeedContext,
    number: PhoneNumber,
    contact: Contact,
    tpl: MessageTemplate,
    params: list[str],
    when: dt.datetime,
    status: MessageStatus,
    **extra: Any,
) -> Message:
    conv = _seed_conv(s, number, contact, CONV_CATEGORY[tpl.category], when, "business_initiated")
    body = _PARAM.sub(lambda m: params[int(m.group(1)) - 1], tpl.body_text)
    return _seed_message(
        s,
        number,
        contact,
        "outbound",
        body,
        when,
        status,
        type="template",
        template_id=tpl.id,
        template_name=tpl.name,
        conversation_id=conv.id,
        **extra,
    )


def _seed_support_chat(s: SeedContext, number: PhoneNumber, p: Person, k: int, order: str) -> None:
    """A customer who wrote to support: a third of them in the last day (window open), some unanswered."""
    opt: OptIn = "not_asked" if k % 5 == 0 else ("opted_out" if k % 7 == 3 else "opted_in")
    wrote = _ago(s, 1 + 0.5 * k) if k % 3 == 0 else _ago(s, 24 * (2 + k))
    contact = s.create(
        Contact,
        phone_number_id=number.id,
        customer_phone=p.phone,
        customer_name=p.name,
        opt_in_status=opt,
        opt_in_source="website_form" if opt == "opted_in" else None,
        opted_in_at=_ago(s, 24 * (60 + k)) if opt == "opted_in" else None,
        marketing_stopped=k % 6 == 4,
        blocked=k == 11,
        last_inbound_at=wrote,
        created_at=wrote - dt.timedelta(days=k % 4),
    )
    fill = {"order": order, "first": p.first_name}
    question = _seed_message(
        s, number, contact, "inbound", INBOUND[k % len(INBOUND)].format(**fill), wrote, "read" if k % 4 else "received"
    )
    if k % 4 == 0 and k % 3 == 0:
        return  # still unanswered
    reply_at = wrote + dt.timedelta(minutes=4)
    conv = _seed_conv(s, number, contact, "service", reply_at, "user_initiated")
    status: MessageStatus = "read" if k % 2 else "delivered"
    _seed_message(
        s,
        number,
        contact,
        "outbound",
        REPLIES[k % len(REPLIES)].format(**fill),
        reply_at,
        status,
        conversation_id=conv.id,
        reply_to_message_id=question.id,
    )


def _seed_order_notice(
    s: SeedContext, number: PhoneNumber, p: Person, k: int, order: str, by_name: dict[str, MessageTemplate]
) -> None:
    """An opted-in customer (from checkout) told of their order; a few bounced or still unconfirmed."""
    opted = _ago(s, 24 * (30 + k))
    contact = s.create(
        Contact,
        phone_number_id=number.id,
        customer_phone=p.phone,
        customer_name=p.name,
        opt_in_status="opted_out" if k % 9 == 8 else "opted_in",
        opt_in_source="checkout",
        opted_in_at=opted,
        created_at=opted,
    )
    tpl = by_name["shipping_update"] if k % 2 else by_name["order_confirmation"]
    params = [p.first_name, order] + ([f"1Z{9_000_000 + 37 * k}"] if tpl.parameter_count == 3 else [])
    when = _ago(s, 3 + 7 * k)
    status: MessageStatus = "read" if k % 3 == 0 else "delivered"
    extra: dict[str, Any] = {}
    if k % 10 == 7:
        status, extra = "failed", {"error_code": 131026}
    elif k % 8 == 2:
        status = "sent"
    _seed_template_message(s, number, contact, tpl, params, when, status, **extra)


def _seed_promotion(s: SeedContext, number: PhoneNumber, p: Person, k: int, tpl: MessageTemplate) -> None:
    """A promotion to an opted-in customer; some tapped "Stop promotions"."""
    contact = s.create(
        Contact,
        phone_number_id=number.id,
        customer_phone=p.phone,
        customer_name=p.name,
        opt_in_status="opted_in",
        opt_in_source="paper_form" if k % 2 else "website_form",
        opted_in_at=_ago(s, 24 * (90 + k)),
        created_at=_ago(s, 24 * (90 + k)),
    )
    when = _ago(s, 20 + 9 * k)
    _seed_template_message(s, number, contact, tpl, [p.first_name, "20%"], when, "read" if k % 2 else "delivered")
    if k % 5 == 2:
        stop_at = when + dt.timedelta(hours=2)
        _seed_message(s, number, contact, "inbound", "Stop promotions", stop_at, "read")
        s.update(contact, marketing_stopped=True, last_inbound_at=stop_at)


def _seed_media(s: SeedContext, support: PhoneNumber, orders: PhoneNumber) -> None:
    """Fresh uploads of both numbers and a brochure uploaded long enough ago to have expired."""
    for number, mime, size, name, days in (
        (support, "image/jpeg", 820_000, None, 2),
        (support, "application/pdf", 240_000, "returns-guide.pdf", 5),
        (support, "audio/ogg", 90_000, None, 1),
        (orders, "image/png", 1_200_000, None, 3),
        (orders, "application/pdf", 3_400_000, "spring-catalog.pdf", 45),
    ):
        kind, _ = MEDIA_KINDS[mime]
        s.create(
            Media,
            phone_number_id=number.id,
            media_type=kind,
            mime_type=mime,
            file_size=size,
            filename=name,
            created_at=_ago(s, 24 * days),
        )
