"""Ternline Messaging: the company's SMS numbers, messaging services, messages, opt-outs and usage.

Modeled on the Twilio Programmable Messaging API (IncomingPhoneNumbers, Messaging
Services with their sender pool, Messages with segments, price and status
callbacks, scheduled messages, Advanced Opt-Out keywords): a message body is
split into segments (160 GSM-7 or 70 UCS-2 characters alone, 153 or 67 when
concatenated, at most 10) and each segment is priced by destination country;
only destinations in the account's geo permissions can be reached; a recipient
who replied STOP to a sender gets nothing more from it until they reply START
(HELP and STOP/START get automatic replies); scheduled messages must go through
a messaging service, 15 minutes to 35 days ahead, and only they can be
canceled; a messaging service picks its sender (sticky sender, then a number in
the recipient's country); a number is in at most one service; delivery
receipts move a sent message to delivered, undelivered or failed.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Country, Currency, DateTime, IdOf, Phone, Text, Url
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created
from compoworld.world.commerce import first_order_numbers
from compoworld.world.population import PLACES

__all__ = ["service"]

service = Service(
    "sms",
    title="Ternline Messaging",
    category="messaging",
    modeled_on="Twilio Programmable Messaging API 2010-04-01 (IncomingPhoneNumbers, Messaging Services, "
    "Messages, scheduled messages, Advanced Opt-Out)",
    description="Programmable SMS: the company's phone numbers and messaging services send and receive "
    "text messages; messages are split into priced segments, scheduled, delivered or bounced, and "
    "recipients opt out with STOP and back in with START.",
)

NumberId = Annotated[str, IdOf("sms.phone_number")]
ServiceId = Annotated[str, IdOf("sms.messaging_service")]
MessageId = Annotated[str, IdOf("sms.message")]
FriendlyName = Annotated[str, StringConstraints(min_length=1, max_length=64, strip_whitespace=True)]
MessageStatus = Literal["scheduled", "sent", "delivered", "undelivered", "failed", "received", "canceled"]
UseCase = Literal["notifications", "marketing", "verification", "customer_care", "mixed"]
Encoding = Literal["GSM-7", "UCS-2"]

STOP_WORDS = frozenset({"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"})
START_WORDS = frozenset({"START", "YES", "UNSTOP"})
HELP_WORDS = frozenset({"HELP", "INFO"})
STOP_REPLY = (
    "You have successfully been unsubscribed. You will not receive any more messages from this number. "
    "Reply START to resubscribe."
)
START_REPLY = "You have successfully been re-subscribed to messages from this number. Reply HELP for help."
HELP_REPLY = "Reply STOP to unsubscribe. Msg&Data Rates May Apply."

RATES: dict[str, int] = {
    "US": 1,
    "CA": 1,
    "GB": 4,
    "DE": 9,
    "FR": 8,
    "ES": 7,
    "IT": 8,
    "NL": 10,
    "SE": 6,
    "JP": 8,
    "SG": 5,
    "AU": 5,
    "BR": 6,
}
"""Price of one segment in US cents by destination country: the account's geo permissions."""

MAX_SEGMENTS = 10
ERROR_CODES = {30003: "unreachable handset", 30005: "unknown destination", 30006: "landline", 30007: "carrier filtered"}

_GSM = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
    "¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
_GSM_EXT = set("^{}\\[~]|€\f")
_PREFIXES = sorted(((p.phone_prefix, p.country) for p in PLACES), key=lambda x: -len(x[0]))


def country_of(phone: str) -> str | None:
    """The country of an E.164 number by its calling prefix (the world's known prefixes)."""
    for prefix, country in _PREFIXES:
        if phone.startswith(prefix):
            return country
    if phone.startswith("+1"):
        return "US"
    return None


def segments_of(body: str) -> tuple[Encoding, int]:
    """The encoding and the number of segments of a message body."""
    enc: Encoding
    if all(ch in _GSM or ch in _GSM_EXT for ch in body):
        units = sum(2 if ch in _GSM_EXT else 1 for ch in body)
        single, multi, enc = 160, 153, "GSM-7"
    else:
        units = len(body.encode("utf-16-le")) // 2
        single, multi, enc = 70, 67, "UCS-2"
    if units <= single:
        return enc, 1
    return enc, -(-units // multi)


class PhoneNumber(Record):
    """A phone number the account owns."""

    id: NumberId
    phone_number: Phone
    """The number in E.164 form."""
    friendly_name: FriendlyName
    """A name for the number."""
    country: Country
    """Country of the number."""
    sms_enabled: bool = True
    """Whether it can send and receive SMS."""
    voice_enabled: bool = True
    """Whether it can take calls."""
    messaging_service_id: ServiceId | None = None
    """The messaging service whose sender pool it is in."""
    monthly_price: Cents
    """Rental price per month in cents."""
    status: Literal["active", "released"] = "active"
    """active, or released (given back; it can no longer send)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was bought."""


class MessagingService(Created):
    """A messaging service: a sender pool of numbers and settings shared by its messages."""

    id: ServiceId
    friendly_name: FriendlyName
    """Name of the service."""
    use_case: UseCase
    """What the service sends."""
    sticky_sender: bool = True
    """Whether a recipient always gets messages from the same number of the pool."""
    geomatch: bool = True
    """Whether to prefer a sender in the recipient's country."""
    inbound_request_url: Url | None = None
    """Where inbound messages to the pool are forwarded."""
    status_callback: Url | None = None
    """Where delivery receipts are posted."""


class Message(Record):
    """An SMS sent or received."""

    id: MessageId
    direction: Literal["outbound-api", "outbound-reply", "inbound"]
    """outbound-api (sent by the account), outbound-reply (automatic reply) or inbound."""
    from_number: Phone
    """Sender."""
    to_number: Phone
    """Recipient."""
    messaging_service_id: ServiceId | None = None
    """The service it was sent through."""
    body: Text
    """Message text."""
    encoding: Encoding
    """GSM-7 or UCS-2."""
    num_segments: int
    """Number of segments billed."""
    price: Cents
    """Price in cents (segments x the destination's rate)."""
    price_unit: Currency = "USD"
    """Currency of the price."""
    status: MessageStatus
    """scheduled, sent, delivered, undelivered, failed, received or canceled."""
    error_code: int | None = None
    """Carrier error for undelivered or failed messages (30003, 30005, 30006, 30007)."""
    send_at: DateTime | None = None
    """When a scheduled message goes out."""
    date_sent: DateTime | None = None
    """When it was sent or received."""
    date_created: Annotated[DateTime, CREATED]
    """When it was created."""
    date_updated: Annotated[DateTime, UPDATED]
    """When it last changed."""


class OptOut(Record):
    """A recipient who replied STOP to a sender (a number, or every number of a service)."""

    id: Annotated[str, IdOf("sms.opt_out")]
    subscriber: Phone
    """The recipient who opted out."""
    messaging_service_id: ServiceId | None = None
    """The service opted out of (all its numbers)."""
    sender: Phone | None = None
    """The number opted out of, when it is in no service."""
    keyword: str = "STOP"
    """The keyword they sent."""
    created_at: Annotated[DateTime, CREATED]
    """When they opted out."""


def _guard_service_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Message, messaging_service_id=old.id, status="scheduled") is not None:
        raise RuleViolation(
            f"messaging service {old.friendly_name} has scheduled messages",
            field="messaging_service_id",
            hint="cancel them with sms__cancel_message first",
        )
    for num in ctx.where(PhoneNumber, messaging_service_id=old.id):
        ctx.update(num, messaging_service_id=None)
    for opt in ctx.where(OptOut, messaging_service_id=old.id):
        ctx.delete(opt)


numbers = service.resource(
    PhoneNumber,
    name="phone_number",
    plural="phone_numbers",
    prefix="pn",
    create=False,
    filters=("phone_number", "country", "messaging_service_id", "status", "sms_enabled"),
    search=("friendly_name",),
    update=("friendly_name",),
    delete=False,
    title="phone number",
)
services = service.resource(
    MessagingService,
    name="messaging_service",
    plural="messaging_services",
    prefix="mg",
    create=("friendly_name", "use_case", "sticky_sender", "geomatch", "inbound_request_url", "status_callback"),
    filters=("use_case",),
    search=("friendly_name",),
    update=("friendly_name", "use_case", "sticky_sender", "geomatch", "inbound_request_url", "status_callback"),
    guard_delete=_guard_service_delete,
    title="messaging service",
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="sm",
    create=False,
    filters=("direction", "from_number", "to_number", "messaging_service_id", "status", "error_code"),
    search=("body",),
    delete=False,
)
opt_outs = service.resource(
    OptOut,
    name="opt_out",
    plural="opt_outs",
    prefix="oo",
    create=False,
    get=False,
    filters=("subscriber", "messaging_service_id", "sender"),
    delete=False,
    title="opt-out",
)


def _owned(ctx: Ctx, phone: str, field: str) -> PhoneNumber:
    num = ctx.first(PhoneNumber, phone_number=phone, status="active")
    if num is None:
        raise NotFound(
            f"the account owns no active number {phone}",
            field=field,
            hint="list phone numbers with status='active' to pick a sender",
        )
    return num


def _opted_out(ctx: Ctx, subscriber: str, sender: PhoneNumber) -> OptOut | None:
    if sender.messaging_service_id is not None:
        return ctx.first(OptOut, subscriber=subscriber, messaging_service_id=sender.messaging_service_id)
    return ctx.first(OptOut, subscriber=subscriber, sender=sender.phone_number, messaging_service_id=None)


def _price(to: str, body: str, field: str = "to_number") -> tuple[Encoding, int, int]:
    country = country_of(to)
    if country is None or country not in RATES:
        raise RuleViolation(
            f"{to} is in a country the account's geo permissions do not allow",
            field=field,
            hint=f"SMS can go to: {', '.join(sorted(RATES))}",
        )
    enc, n = segments_of(body)
    if n > MAX_SEGMENTS:
        raise RuleViolation(
            f"the body needs {n} segments; at most {MAX_SEGMENTS} are allowed",
            field="body",
            hint="shorten the message (1530 GSM-7 or 670 UCS-2 characters at most)",
        )
    return enc, n, n * RATES[country]


def _pick_sender(ctx: Ctx, svc: MessagingService, to: str) -> PhoneNumber:
    pool = [n for n in ctx.where(PhoneNumber, messaging_service_id=svc.id, status="active") if n.sms_enabled]
    if not pool:
        raise RuleViolation(
            f"messaging service {svc.friendly_name} has no SMS-capable number in its sender pool",
            field="messaging_service_id",
            hint="add a number with sms__add_number_to_service",
        )
    if svc.sticky_sender:
        sent = [m for m in ctx.where(Message, messaging_service_id=svc.id, to_number=to) if m.direction != "inbound"]
        for m in reversed(sent):
            for n in pool:
                if n.phone_number == m.from_number:
                    return n
    if svc.geomatch:
        country = country_of(to)
        for n in pool:
            if n.country == country:
                return n
    return pool[0]


# -- examples ---------------------------------------------------------------------------------


def _recipient(ctx: Ctx, sender: PhoneNumber) -> str:
    for p in ctx.population.people:
        if country_of(p.phone) in RATES and _opted_out(ctx, p.phone, sender) is None:
            return p.phone
    return "+14155550100"


def _sms_number(ctx: Ctx, in_service: bool) -> PhoneNumber:
    for n in ctx.where(PhoneNumber, status="active", sms_enabled=True):
        if (n.messaging_service_id is not None) == in_service:
            return n
    raise LookupError("no number")


def _example_send(ctx: Ctx) -> dict[str, Any]:
    sender = _sms_number(ctx, True)
    return {
        "to_number": _recipient(ctx, sender),
        "body": "Your order has shipped.",
        "messaging_service_id": sender.messaging_service_id,
    }


_example_buy = fixed_example(phone_number="+14155550199", friendly_name="Support line West")
_example_release = first_example(
    PhoneNumber,
    "phone_number_id",
    where={"status": "active"},
    match=lambda ctx, n: ctx.first(Message, from_number=n.phone_number, status="scheduled") is None,
)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    svc = next(iter(ctx.scan(MessagingService)), None)
    for n in ctx.where(PhoneNumber, status="active", sms_enabled=True, messaging_service_id=None):
        if svc is not None:
            return {"messaging_service_id": svc.id, "phone_number_id": n.id}
    return None


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    n = _sms_number(ctx, True)
    return {"messaging_service_id": n.messaging_service_id, "phone_number_id": n.id}


def _example_receive(ctx: Ctx) -> dict[str, Any]:
    n = _sms_number(ctx, True)
    return {"from_number": _recipient(ctx, n), "to_number": n.phone_number, "body": "Thanks!"}


# -- numbers ----------------------------------------------------------------------------------


@service.tool(intent="buy a phone number", write=True, example=_example_buy)
def buy_phone_number(
    ctx: Ctx, phone_number: Phone, friendly_name: FriendlyName, sms_enabled: bool = True, voice_enabled: bool = True
) -> PhoneNumber:
    """Buy a phone number for the account.

    The number must be in a country of the account's geo permissions and not
    already active on the account. Monthly rental: 115 cents in the US and
    Canada, 300 cents elsewhere.

    Args:
        phone_number: The number in E.164 form.
        friendly_name: A name for it.
        sms_enabled: Whether it sends and receives SMS.
        voice_enabled: Whether it takes calls.
    """
    country = country_of(phone_number)
    if country is None or country not in RATES:
        raise RuleViolation(
            f"numbers from {phone_number[:4]}… are not available",
            field="phone_number",
            hint=f"buy a number in one of: {', '.join(sorted(RATES))}",
        )
    if ctx.first(PhoneNumber, phone_number=phone_number, status="active") is not None:
        raise Conflict(f"{phone_number} is already on the account", field="phone_number", hint="use the number")
    if not (sms_enabled or voice_enabled):
        raise RuleViolation("a number needs SMS or voice", field="sms_enabled", hint="enable at least one")
    return ctx.create(
        PhoneNumber,
        phone_number=phone_number,
        friendly_name=friendly_name,
        country=country,
        sms_enabled=sms_enabled,
        voice_enabled=voice_enabled,
        monthly_price=115 if country in ("US", "CA") else 300,
    )


@service.tool(intent="release the phone number", write=True, destructive=True, example=_example_release)
def release_phone_number(ctx: Ctx, phone_number_id: NumberId) -> PhoneNumber:
    """Give a number back; it leaves its messaging service and can no longer send.

    A number with scheduled messages cannot be released.

    Args:
        phone_number_id: The number.
    """
    num = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if num.status == "released":
        raise Conflict(f"{num.phone_number} is already released", field="phone_number_id", hint="nothing to do")
    pending = ctx.where(Message, from_number=num.phone_number, status="scheduled")
    if pending:
        raise RuleViolation(
            f"{num.phone_number} has {len(pending)} scheduled message(s)",
            field="phone_number_id",
            hint="cancel them with sms__cancel_message first",
        )
    return ctx.update(num, status="released", messaging_service_id=None)


@service.tool(intent="add the number to the messaging service", write=True, example=_example_add)
def add_number_to_service(ctx: Ctx, messaging_service_id: ServiceId, phone_number_id: NumberId) -> PhoneNumber:
    """Put an active SMS-capable number into a messaging service's sender pool.

    A number is in at most one service.

    Args:
        messaging_service_id: The service.
        phone_number_id: The number.
    """
    svc = ctx.get(MessagingService, messaging_service_id, field="messaging_service_id")
    num = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if num.status != "active" or not num.sms_enabled:
        raise RuleViolation(
            f"{num.phone_number} is {'released' if num.status != 'active' else 'not SMS-capable'}",
            field="phone_number_id",
            hint="pick an active number with sms_enabled",
        )
    if num.messaging_service_id == svc.id:
        raise Conflict(f"{num.phone_number} is already in {svc.friendly_name}", field="phone_number_id", hint="done")
    if num.messaging_service_id is not None:
        raise Conflict(
            f"{num.phone_number} is in another messaging service ({num.messaging_service_id})",
            field="phone_number_id",
            hint="remove it from that service with sms__remove_number_from_service first",
        )
    return ctx.update(num, messaging_service_id=svc.id)


@service.tool(intent="take the number out of the messaging service", write=True, example=_example_remove)
def remove_number_from_service(ctx: Ctx, messaging_service_id: ServiceId, phone_number_id: NumberId) -> PhoneNumber:
    """Take a number out of a messaging service's sender pool.

    Args:
        messaging_service_id: The service.
        phone_number_id: The number.
    """
    svc = ctx.get(MessagingService, messaging_service_id, field="messaging_service_id")
    num = ctx.get(PhoneNumber, phone_number_id, field="phone_number_id")
    if num.messaging_service_id != svc.id:
        raise RuleViolation(
            f"{num.phone_number} is not in {svc.friendly_name}",
            field="phone_number_id",
            hint="list the service's numbers with sms__list_phone_numbers",
        )
    return ctx.update(num, messaging_service_id=None)


# -- messages ---------------------------------------------------------------------------------


class Estimate(BaseModel):
    """What a message would cost."""

    to_number: Phone = Field(description="The recipient.")
    country: Country = Field(description="The destination country.")
    encoding: Encoding = Field(description="GSM-7 or UCS-2.")
    num_segments: int = Field(description="Segments the body needs.")
    price_per_segment: Cents = Field(description="The destination's price of one segment, in cents.")
    price: Cents = Field(description="Total price in cents.")


@service.tool(intent="estimate what the text message costs")
def estimate_message(ctx: Ctx, to_number: Phone, body: Text) -> Estimate:
    """Work out a message's encoding, segments and price without sending it.

    Args:
        to_number: The recipient.
        body: The message text.
    """
    enc, n, price = _price(to_number, body)
    country = country_of(to_number) or "US"
    return Estimate(
        to_number=to_number,
        country=country,
        encoding=enc,
        num_segments=n,
        price_per_segment=RATES[country],
        price=price,
    )


@service.tool(intent="send a text message", write=True, example=_example_send)
def send_message(
    ctx: Ctx,
    to_number: Phone,
    body: Text,
    from_number: Phone | None = None,
    messaging_service_id: ServiceId | None = None,
    send_at: DateTime | None = None,
) -> Message:
    """Send (or schedule) an SMS from one of the account's numbers or through a messaging service.

    Give exactly one of from_number and messaging_service_id. A service picks
    the sender: the number the recipient last heard from (sticky sender), else
    one in their country, else the first of its pool. Recipients who replied
    STOP to the sender are refused. A scheduled message (send_at) needs a
    messaging service and must be 15 minutes to 35 days ahead.

    Args:
        to_number: The recipient.
        body: Message text (at most 10 segments).
        from_number: One of the account's active SMS numbers.
        messaging_service_id: A messaging service to send through.
        send_at: When to send it; omit to send now.
    """
    if (from_number is None) == (messaging_service_id is None):
        raise RuleViolation(
            "give exactly one of from_number and messaging_service_id",
            field="from_number",
            hint="send from a number, or through a messaging service",
        )
    if not body.strip():
        raise RuleViolation("the message body is empty", field="body", hint="write a message")
    svc = None
    if messaging_service_id is not None:
        svc = ctx.get(MessagingService, messaging_service_id, field="messaging_service_id")
    if send_at is not None:
        if svc is None:
            raise RuleViolation(
                "scheduled messages must go through a messaging service",
                field="messaging_service_id",
                hint="pass messaging_service_id instead of from_number",
            )
        ahead = send_at - ctx.now()
        if not dt.timedelta(minutes=15) <= ahead <= dt.timedelta(days=35):
            raise RuleViolation(
                "send_at must be between 15 minutes and 35 days from now",
                field="send_at",
                hint=f"pick a time after {(ctx.now() + dt.timedelta(minutes=15)).isoformat()}",
            )
    enc, n, price = _price(to_number, body)
    if svc is not None:
        sender = _pick_sender(ctx, svc, to_number)
    else:
        sender = _owned(ctx, from_number or "", "from_number")
        if not sender.sms_enabled:
            raise RuleViolation(
                f"{sender.phone_number} cannot send SMS", field="from_number", hint="use an SMS-capable number"
            )
    if to_number == sender.phone_number:
        raise RuleViolation("a number cannot text itself", field="to_number", hint="pick another recipient")
    if _opted_out(ctx, to_number, sender) is not None:
        raise RuleViolation(
            f"{to_number} replied STOP to this sender and is unsubscribed",
            field="to_number",
            hint="they must reply START before they can be messaged again",
        )
    return ctx.create(
        Message,
        direction="outbound-api",
        from_number=sender.phone_number,
        to_number=to_number,
        messaging_service_id=sender.messaging_service_id,
        body=body,
        encoding=enc,
        num_segments=n,
        price=price,
        status="scheduled" if send_at is not None else "sent",
        send_at=send_at,
        date_sent=None if send_at is not None else ctx.now(),
    )


@service.tool(
    intent="cancel the scheduled text message",
    write=True,
    example=first_example(Message, "message_id", where={"status": "scheduled"}),
)
def cancel_message(ctx: Ctx, message_id: MessageId) -> Message:
    """Cancel a scheduled message before it goes out.

    Args:
        message_id: The scheduled message.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.status != "scheduled":
        raise RuleViolation(
            f"message {msg.id} is {msg.status}; only scheduled messages can be canceled",
            field="message_id",
            hint="a message that was sent cannot be recalled",
        )
    return ctx.update(msg, status="canceled")


class Inbound(BaseModel):
    """A received message and what it triggered."""

    message: Message = Field(description="The inbound message.")
    keyword: Literal["stop", "start", "help"] | None = Field(description="The opt-out keyword it carried, if any.")
    subscribed: bool = Field(description="Whether the sender may be messaged by this number afterwards.")
    auto_reply: Message | None = Field(description="The automatic reply sent back, if any.")


@service.tool(intent="receive a text message", write=True, example=_example_receive)
def receive_message(ctx: Ctx, from_number: Phone, to_number: Phone, body: Text) -> Inbound:
    """Record an inbound SMS to one of the account's numbers and apply opt-out keywords.

    STOP (STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT) unsubscribes the sender from
    the number, or from every number of its messaging service; START (YES,
    UNSTOP) resubscribes; HELP (INFO) gets the help text. Each gets an
    automatic reply.

    Args:
        from_number: The person texting in.
        to_number: The account's number they texted.
        body: Message text.
    """
    num = _owned(ctx, to_number, "to_number")
    if not num.sms_enabled:
        raise RuleViolation(f"{to_number} does not receive SMS", field="to_number", hint="text an SMS number")
    enc, n = segments_of(body)
    msg = ctx.create(
        Message,
        direction="inbound",
        from_number=from_number,
        to_number=to_number,
        messaging_service_id=num.messaging_service_id,
        body=body,
        encoding=enc,
        num_segments=n,
        price=0,
        status="received",
        date_sent=ctx.now(),
    )
    word = body.strip().upper()
    existing = _opted_out(ctx, from_number, num)
    keyword: Literal["stop", "start", "help"] | None = None
    reply_text = None
    if word in STOP_WORDS:
        keyword, reply_text = "stop", STOP_REPLY
        if existing is None:
            in_svc = num.messaging_service_id is not None
            existing = ctx.create(
                OptOut,
                subscriber=from_number,
                messaging_service_id=num.messaging_service_id,
                sender=None if in_svc else num.phone_number,
                keyword=word,
            )
    elif word in START_WORDS:
        keyword, reply_text = "start", START_REPLY
        if existing is not None:
            ctx.delete(existing)
            existing = None
    elif word in HELP_WORDS:
        keyword, reply_text = "help", HELP_REPLY
    reply = None
    if reply_text is not None:
        enc2, n2 = segments_of(reply_text)
        country = country_of(from_number)
        reply = ctx.create(
            Message,
            direction="outbound-reply",
            from_number=num.phone_number,
            to_number=from_number,
            messaging_service_id=num.messaging_service_id,
            body=reply_text,
            encoding=enc2,
            num_segments=n2,
            price=n2 * RATES.get(country or "", 0),
            status="sent",
            date_sent=ctx.now(),
        )
    return Inbound(message=msg, keyword=keyword, subscribed=existing is None, auto_reply=reply)


@service.tool(
    intent="record the delivery receipt",
    write=True,
    example=first_example(Message, "message_id", where={"status": "sent"}, status="delivered"),
)
def update_message_status(
    ctx: Ctx,
    message_id: MessageId,
    status: Literal["delivered", "undelivered", "failed"],
    error_code: Literal[30003, 30005, 30006, 30007] | None = None,
) -> Message:
    """Apply a carrier delivery receipt to a sent message.

    Only sent outbound messages get receipts. undelivered and failed need an
    error code (30003 unreachable handset, 30005 unknown destination, 30006
    landline, 30007 carrier filtered); delivered takes none.

    Args:
        message_id: The message.
        status: delivered, undelivered or failed.
        error_code: The carrier's error code.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.status != "sent" or msg.direction == "inbound":
        raise RuleViolation(
            f"message {msg.id} is {msg.status}; receipts apply only to sent outbound messages",
            field="message_id",
            hint="list messages with status='sent'",
        )
    if status == "delivered" and error_code is not None:
        raise RuleViolation("a delivered message has no error code", field="error_code", hint="omit error_code")
    if status != "delivered" and error_code is None:
        raise RuleViolation(f"an {status} message needs an error code", field="error_code", hint="pass error_code")
    return ctx.update(msg, status=status, error_code=error_code)


class CountryUsage(BaseModel):
    """Usage to one destination country."""

    country: Country = Field(description="Destination country.")
    messages: int = Field(description="Outbound messages sent.")
    segments: int = Field(description="Segments billed.")
    price: Cents = Field(description="Cost in cents.")


class Usage(BaseModel):
    """Messaging usage and cost."""

    messaging_service_id: ServiceId | None = Field(description="The service, or null for the whole account.")
    outbound: int = Field(description="Outbound messages sent (not scheduled nor canceled).")
    inbound: int = Field(description="Inbound messages received.")
    segments: int = Field(description="Outbound segments billed.")
    total_price: Cents = Field(description="Cost of outbound messages in cents.")
    price_unit: Currency = Field(description="Currency of the prices.")
    delivered: int = Field(description="Messages confirmed delivered.")
    undelivered_or_failed: int = Field(description="Messages that bounced.")
    delivery_rate: float = Field(description="delivered / (delivered + undelivered or failed), 0 when none.")
    by_country: list[CountryUsage] = Field(description="Outbound usage per destination country.")


@service.tool(intent="report messaging usage and cost")
def usage_report(ctx: Ctx, messaging_service_id: ServiceId | None = None) -> Usage:
    """Total the account's (or one service's) messages, segments, cost and delivery rate.

    Args:
        messaging_service_id: Only this service's messages.
    """
    msgs = (
        ctx.where(Message, messaging_service_id=messaging_service_id)
        if messaging_service_id
        else list(ctx.scan(Message))
    )
    per: dict[str, list[int]] = {}
    out = inbound = segs = price = delivered = bounced = 0
    for m in msgs:
        if m.direction == "inbound":
            inbound += 1
            continue
        if m.status in ("scheduled", "canceled"):
            continue
        out += 1
        segs += m.num_segments
        price += m.price
        delivered += m.status == "delivered"
        bounced += m.status in ("undelivered", "failed")
        row = per.setdefault(country_of(m.to_number) or "US", [0, 0, 0])
        row[0] += 1
        row[1] += m.num_segments
        row[2] += m.price
    done = delivered + bounced
    return Usage(
        messaging_service_id=messaging_service_id,
        outbound=out,
        inbound=inbound,
        segments=segs,
        total_price=price,
        price_unit="USD",
        delivered=delivered,
        undelivered_or_failed=bounced,
        delivery_rate=round(delivered / done, 4) if done else 0.0,
        by_country=[CountryUsage(country=c, messages=r[0], segments=r[1], price=r[2]) for c, r in sorted(per.items())],
    )


# -- seed -------------------------------------------------------------------------------------

TEXTS = (
    "Hi {first}, your order {order} has shipped and arrives in 2-3 days.",
    "Your verification code is {code}. It expires in 10 minutes.",
    "{first}, your delivery is out today. Track it in the app.",
    "Spring sale: 20% off everything this weekend only! Reply STOP to opt out.",
    "Reminder: your return for order {order} closes on Friday.",
    "Thanks {first} — how did we do? Reply 1-5 to rate your order {order}.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The company's numbers and services, customer and staff messages, STOP replies and bounces."""
    pop = s.population
    now = s.now
    notify = s.create(
        MessagingService,
        friendly_name="Order notifications",
        use_case="notifications",
        status_callback=f"https://hooks.{pop.home.domain}/sms/status",
        created_at=now - dt.timedelta(days=400),
    )
    verify = s.create(
        MessagingService,
        friendly_name="Login codes",
        use_case="verification",
        sticky_sender=False,
        created_at=now - dt.timedelta(days=380),
    )
    promo = s.create(
        MessagingService,
        friendly_name="Promotions",
        use_case="marketing",
        inbound_request_url=f"https://hooks.{pop.home.domain}/sms/inbound",
        created_at=now - dt.timedelta(days=200),
    )
    nums = _seed_numbers(s, notify, verify, promo)
    pools = {
        svc.id: [n for n in nums if n.messaging_service_id == svc.id and n.sms_enabled]
        for svc in (notify, verify, promo)
    }
    reachable = [p for p in pop.consumers if country_of(p.phone) in RATES]
    _seed_customer_texts(s, pools, reachable, notify, verify, promo)
    for k, p in enumerate(reachable[:6]):
        when = now + dt.timedelta(days=1 + k, hours=3)
        body = f"Hi {p.first_name}, our summer collection launches tomorrow. Reply STOP to opt out."
        status: MessageStatus = "scheduled" if k < 4 else "canceled"
        _seed_message(s, pools, notify, p.phone, body, status, now - dt.timedelta(hours=k), send_at=when)
    staff = [p for p in pop.employees if country_of(p.phone) in RATES][:12]
    for k, p in enumerate(staff):
        when = now - dt.timedelta(hours=3 * k + 1)
        body = f"Your verification code is {s.rng.randint(100000, 999999)}."
        _seed_message(s, pools, verify, p.phone, body, "delivered", when)


Pools = dict[str, list[PhoneNumber]]
"""The SMS numbers of each messaging service, by service id."""


def _seed_numbers(
    s: SeedContext, notify: MessagingService, verify: MessagingService, promo: MessagingService
) -> list[PhoneNumber]:
    """The company's numbers in the services' pools, a spare, a voice-only one (returned) and a released one."""
    pop = s.population
    home = pop.home.place
    used = {p.phone for p in pop.people}

    def number(prefix: str) -> str:
        while True:
            cand = prefix + "".join(str(s.rng.randint(0, 9)) for _ in range(12 - len(prefix) + 1))
            if cand not in used:
                used.add(cand)
                return cand

    places = {p.country: p for p in pop.places}
    plan = (
        (home.phone_prefix, "Main line", notify.id, True),
        ("+1415", "US notifications", notify.id, True),
        (places["GB"].phone_prefix, "UK notifications", notify.id, True),
        ("+1212", "Codes US", verify.id, True),
        (home.phone_prefix, "Codes home", verify.id, True),
        ("+1512", "Promotions US", promo.id, True),
        (home.phone_prefix, "Promotions home", promo.id, True),
        (home.phone_prefix, "Spare number", None, True),
        (home.phone_prefix, "Front desk (voice)", None, False),
    )
    nums: list[PhoneNumber] = []
    for k, (prefix, name, svc_id, sms_ok) in enumerate(plan):
        phone = number(prefix)
        country = country_of(phone) or "US"
        nums.append(
            s.create(
                PhoneNumber,
                phone_number=phone,
                friendly_name=name,
                country=country,
                sms_enabled=sms_ok,
                voice_enabled=True,
                messaging_service_id=svc_id,
                monthly_price=115 if country in ("US", "CA") else 300,
                created_at=s.now - dt.timedelta(days=300 - k),
            )
        )
    s.create(
        PhoneNumber,
        phone_number=number("+1206"),
        friendly_name="Old campaign line",
        country="US",
        monthly_price=115,
        status="released",
        created_at=s.now - dt.timedelta(days=500),
    )
    return nums


def _sender(pools: Pools, svc: MessagingService, to: str) -> PhoneNumber:
    """The service's number in the recipient's country, else its first."""
    pool = pools[svc.id]
    country = country_of(to)
    return next((n for n in pool if n.country == country), pool[0])


def _seed_message(
    s: SeedContext,
    pools: Pools,
    svc: MessagingService,
    to: str,
    body: str,
    status: MessageStatus,
    when: dt.datetime,
    **kw: Any,
) -> None:
    """An outbound message of the service, priced by its segments and the recipient's country."""
    enc, n = segments_of(body)
    country = country_of(to) or "US"
    s.create(
        Message,
        direction="outbound-api",
        from_number=_sender(pools, svc, to).phone_number,
        to_number=to,
        messaging_service_id=svc.id,
        body=body,
        encoding=enc,
        num_segments=n,
        price=n * RATES.get(country, 0),
        status=status,
        date_sent=None if status in ("scheduled", "canceled") else when,
        date_created=when,
        date_updated=when,
        **kw,
    )


def _seed_customer_texts(
    s: SeedContext,
    pools: Pools,
    reachable: list[Person],
    notify: MessagingService,
    verify: MessagingService,
    promo: MessagingService,
) -> None:
    """A text to every reachable consumer over two weeks, some bounced; every fourth promotion answered with STOP."""
    rng = s.rng
    orders = first_order_numbers(s.population)
    for k, p in enumerate(reachable):
        order = orders.get(p.email)
        when = s.now - dt.timedelta(hours=rng.randint(1, 24 * 14))
        text = TEXTS[k % len(TEXTS)]
        if order is None and "{order}" in text:
            text = TEXTS[2]
        body = text.format(first=p.first_name, order=order or "", code=rng.randint(100000, 999999))
        svc = verify if "code" in text else promo if "sale" in text else notify
        status: MessageStatus = "delivered"
        extra: dict[str, Any] = {}
        if k % 11 == 5:
            status, extra = "undelivered", {"error_code": 30003}
        elif k % 13 == 7:
            status, extra = "failed", {"error_code": 30007}
        elif k % 9 == 2:
            status = "sent"
        _seed_message(s, pools, svc, p.phone, body, status, when, **extra)
        if svc is promo and k % 4 == 3:
            _seed_stop(s, _sender(pools, promo, p.phone), promo, p, when + dt.timedelta(minutes=7))


def _seed_stop(s: SeedContext, num: PhoneNumber, promo: MessagingService, p: Person, t: dt.datetime) -> None:
    """The customer answered the promotion with STOP, got the automatic reply and is opted out."""
    s.create(
        Message,
        direction="inbound",
        from_number=p.phone,
        to_number=num.phone_number,
        messaging_service_id=promo.id,
        body="STOP",
        encoding="GSM-7",
        num_segments=1,
        price=0,
        status="received",
        date_sent=t,
        date_created=t,
        date_updated=t,
    )
    enc, n = segments_of(STOP_REPLY)
    s.create(
        Message,
        direction="outbound-reply",
        from_number=num.phone_number,
        to_number=p.phone,
        messaging_service_id=promo.id,
        body=STOP_REPLY,
        encoding=enc,
        num_segments=n,
        price=n * RATES.get(country_of(p.phone) or "", 0),
        status="delivered",
        date_sent=t,
        date_created=t,
        date_updated=t,
    )
    s.create(OptOut, subscriber=p.phone, messaging_service_id=promo.id, keyword="STOP", created_at=t)
