"""Sendpath: transactional and broadcast e-mail from verified domains, templates, suppressions, stats.

Modeled on the Postmark API (Servers' message streams, Sender Signatures and
Domains with DKIM/Return-Path DNS records, Templates with ``{{variables}}``,
Email and EmailWithTemplate, Bounces and Suppressions, Webhook events, Stats)
and the SendGrid v3 Mail Send and Suppressions APIs: mail goes out only from a
sender on a verified domain; a template send must supply every variable the
template uses and cannot also pass a subject or body; broadcast mail must carry
an unsubscribe link; recipients on the stream's suppression list are refused; a
hard bounce or a spam complaint suppresses the address (complaints on every
stream, and they can never be reactivated), an unsubscribe only on the
broadcast stream; events follow the message's life (no opens before delivery).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, model_validator

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    DateTime,
    Domain,
    Email,
    IdOf,
    InvoiceNumber,
    OrderNumber,
    Percent,
    PersonName,
    Text,
    Title,
    TrackingNumber,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "transmail",
    title="Sendpath",
    category="email",
    modeled_on="Postmark API (message streams, Domains and Sender Signatures, Templates, Email, "
    "Bounces/Suppressions, webhooks, Stats) / SendGrid v3 Mail Send and Suppressions",
    description="Transactional e-mail delivery for the company's applications: verified sending domains "
    "and sender identities, templates with variables, sends on the transactional and broadcast streams, "
    "delivery events, bounce and complaint suppression lists, and delivery statistics.",
)

DomainId = Annotated[str, IdOf("transmail.sender_domain")]
SenderId = Annotated[str, IdOf("transmail.sender")]
TemplateId = Annotated[str, IdOf("transmail.template")]
MessageId = Annotated[str, IdOf("transmail.message")]
SuppressionId = Annotated[str, IdOf("transmail.suppression")]
Stream = Literal["outbound", "broadcast"]
TemplateName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
Variables = Annotated[dict[str, Annotated[str, StringConstraints(max_length=2000)]], Field(max_length=30)]
Tag = Annotated[str, StringConstraints(min_length=1, max_length=40, strip_whitespace=True)]
EventType = Literal["delivered", "bounce", "open", "click", "spam_complaint", "unsubscribe"]

_VAR = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")


class DnsRecord(Value):
    """A DNS record to publish for a sending domain."""

    type: Literal["TXT", "CNAME"] = Field(description="Record type.")
    host: str = Field(description="Host name of the record.")
    value: str = Field(description="Value to publish.")


class SenderDomain(Record):
    """A domain mail is sent from, authenticated with DKIM and a custom Return-Path."""

    id: DomainId
    domain: Domain
    """The domain; unique."""
    status: Literal["pending", "verified"] = "pending"
    """pending until its DNS records are found, then verified."""
    dns_records: list[DnsRecord] = Field(default_factory=list)
    """The DKIM and Return-Path records to publish."""
    verified_at: DateTime | None = None
    """When it was verified."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Sender(Record):
    """A sender identity: a From address on a sending domain."""

    id: SenderId
    from_email: Email
    """The From address; unique."""
    from_name: Title
    """Display name of the sender."""
    reply_to: Email | None = None
    """Where replies go."""
    domain_id: DomainId
    """The sending domain of the address."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Template(Record):
    """A reusable message with ``{{variable}}`` placeholders."""

    id: TemplateId
    name: TemplateName
    """Template name; unique."""
    alias: Tag
    """Short alias used by applications; unique."""
    subject: Title
    """Subject with placeholders."""
    text_body: Text
    """Body with placeholders."""
    stream: Stream = "outbound"
    """The stream the template is for: outbound (transactional) or broadcast."""
    active: bool = True
    """Inactive templates cannot be sent."""
    variables: tuple[str, ...] = ()
    """Placeholders used by the subject and body (derived)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""

    @model_validator(mode="before")
    @classmethod
    def _derive_variables(cls, data: Any) -> Any:
        if isinstance(data, dict):
            text = f"{data.get('subject', '')}\n{data.get('text_body', '')}"
            data = {**data, "variables": tuple(dict.fromkeys(_VAR.findall(text)))}
        return data


class Message(Record):
    """An e-mail sent through the service."""

    id: MessageId
    stream: Stream
    """outbound (transactional) or broadcast."""
    from_email: Email
    """Sender address."""
    from_name: Title
    """Sender display name."""
    to: Email
    """Recipient."""
    to_name: PersonName | None = None
    """Recipient's name."""
    reply_to: Email | None = None
    """Reply-To address."""
    subject: Title
    """Rendered subject."""
    text_body: Text
    """Rendered body."""
    template_id: TemplateId | None = None
    """The template it was rendered from."""
    tag: Tag | None = None
    """Tag for statistics."""
    order_number: OrderNumber | None = None
    """Metadata: the order the message is about."""
    invoice_number: InvoiceNumber | None = None
    """Metadata: the invoice the message is about."""
    tracking_number: TrackingNumber | None = None
    """Metadata: the parcel the message is about."""
    status: Literal["sent", "delivered", "bounced"] = "sent"
    """sent, delivered or bounced."""
    bounce_type: Literal["hard", "soft"] | None = None
    """Type of bounce."""
    open_count: int = 0
    """Times it was opened."""
    click_count: int = 0
    """Times a link in it was clicked."""
    spam_complaint: bool = False
    """Whether the recipient marked it as spam."""
    sent_at: Annotated[DateTime, CREATED]
    """When it was sent."""
    updated_at: Annotated[DateTime, UPDATED]
    """When its last event arrived."""


class Suppression(Record):
    """An address the service will not send to on a stream."""

    id: SuppressionId
    email: Email
    """The suppressed address."""
    stream: Stream
    """The stream it applies to."""
    reason: Literal["hard_bounce", "spam_complaint", "unsubscribe", "manual"]
    """Why it is suppressed; spam complaints can never be reactivated."""
    origin_message_id: MessageId | None = None
    """The message whose event caused it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Template, alias=new.alias):
        if other.id != new.id:
            raise Conflict(f"alias {new.alias} is taken by {other.name}", field="alias", hint="pick another alias")
    if new.stream == "broadcast" and "unsubscribe" not in new.text_body.lower():
        raise RuleViolation(
            "broadcast templates must contain an unsubscribe link",
            field="text_body",
            hint="add a line such as 'Unsubscribe: {{unsubscribe_url}}'",
        )


def _guard_suppression(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        if old.reason == "spam_complaint":
            raise RuleViolation(
                f"{old.email} complained about spam and cannot be reactivated",
                field="suppression_id",
                hint="spam complaints are permanent; the address must not be mailed again",
            )
        return
    dupes = [s for s in ctx.where(Suppression, email=new.email, stream=new.stream) if s.id != new.id]
    if dupes:
        raise Conflict(f"{new.email} is already suppressed on {new.stream}", field="email", hint="nothing to do")
    if new.reason != "manual":
        raise RuleViolation(
            "only manual suppressions can be added by hand",
            field="reason",
            hint="bounces, complaints and unsubscribes come from delivery events",
        )


def _guard_domain_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for snd in ctx.where(Sender, domain_id=old.id):
        ctx.delete(snd)


domains = service.resource(
    SenderDomain,
    name="sender_domain",
    plural="sender_domains",
    prefix="dom",
    create=False,
    filters=("domain", "status"),
    search=("domain",),
    guard_delete=_guard_domain_delete,
    title="sending domain",
)
senders = service.resource(
    Sender,
    name="sender",
    plural="senders",
    prefix="snd",
    create=False,
    get=False,
    filters=("from_email", "domain_id"),
    search=("from_email", "from_name"),
    unique=("from_email",),
    title="sender identity",
)
templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=("name", "alias", "subject", "text_body", "stream"),
    filters=("alias", "stream", "active"),
    search=("name", "subject"),
    update=("name", "subject", "text_body", "active"),
    unique=("name",),
    guard_create=_guard_template,
    guard_update=_guard_template,
    title="e-mail template",
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=(
        "stream",
        "from_email",
        "to",
        "template_id",
        "tag",
        "status",
        "order_number",
        "invoice_number",
        "tracking_number",
    ),
    search=("subject", "text_body"),
    delete=False,
    title="sent e-mail",
)
suppressions = service.resource(
    Suppression,
    name="suppression",
    plural="suppressions",
    prefix="sup",
    create=("email", "stream", "reason"),
    get=False,
    filters=("email", "stream", "reason"),
    guard_create=_guard_suppression,
    guard_delete=_guard_suppression,
)


def _dns_for(domain: str) -> list[DnsRecord]:
    h = hashlib.sha256(domain.encode()).hexdigest()
    return [
        DnsRecord(type="TXT", host=f"{h[:8]}pm._domainkey.{domain}", value=f"k=rsa;p=MIGfMA0GCSq{h[8:40]}"),
        DnsRecord(type="CNAME", host=f"pm-bounces.{domain}", value="pm.mtasv.sendpath.net"),
    ]


def _owned_domain(ctx: Ctx, domain: str) -> bool:
    home = ctx.population.home.domain
    return domain == home or domain.endswith("." + home)


def _render(text: str, values: dict[str, str]) -> str:
    return _VAR.sub(lambda m: values.get(m.group(1), ""), text)


def _suppressed(ctx: Ctx, email: str, stream: str) -> Suppression | None:
    return ctx.first(Suppression, email=email, stream=stream)


# -- examples ---------------------------------------------------------------------------------


def _verified_sender(ctx: Ctx) -> Sender:
    for snd in ctx.scan(Sender):
        if ctx.get(SenderDomain, snd.domain_id).status == "verified":
            return snd
    raise LookupError("no verified sender")


def _clean_recipient(ctx: Ctx) -> str:
    for p in ctx.population.consumers:
        if _suppressed(ctx, p.email, "outbound") is None:
            return p.email
    raise LookupError("everyone suppressed")


def _example_add_domain(ctx: Ctx) -> dict[str, Any]:
    return {"domain": f"notify.{ctx.population.home.domain}"}


_example_verify = first_example(
    SenderDomain, "sender_domain_id", where={"status": "pending"}, match=lambda ctx, d: _owned_domain(ctx, d.domain)
)


def _example_sender(ctx: Ctx) -> dict[str, Any]:
    dom = next(d for d in ctx.where(SenderDomain, status="verified"))
    return {"from_email": f"receipts@{dom.domain}", "from_name": "Receipts"}


def _example_send(ctx: Ctx) -> dict[str, Any]:
    return {
        "from_email": _verified_sender(ctx).from_email,
        "to": _clean_recipient(ctx),
        "subject": "Your receipt",
        "text_body": "Thanks for your purchase.",
        "tag": "receipt",
    }


def _example_preview(ctx: Ctx) -> dict[str, Any] | None:
    tpl = ctx.first(Template, active=True)
    if tpl is None:
        return None
    return {"template_id": tpl.id, "variables": {v: "x" for v in tpl.variables}}


# -- domains and senders ----------------------------------------------------------------------


@service.tool(intent="add a sending domain", write=True, example=_example_add_domain)
def add_sender_domain(ctx: Ctx, domain: Domain) -> SenderDomain:
    """Add a domain to send from; it stays pending until its DNS records are verified.

    Args:
        domain: The domain (e.g. mail.example.com).
    """
    if ctx.first(SenderDomain, domain=domain) is not None:
        raise Conflict(f"domain {domain} is already added", field="domain", hint="verify or use the existing one")
    return ctx.create(SenderDomain, domain=domain, dns_records=_dns_for(domain))


@service.tool(intent="verify the sending domain", write=True, example=_example_verify)
def verify_sender_domain(ctx: Ctx, sender_domain_id: DomainId) -> SenderDomain:
    """Check a pending domain's DKIM and Return-Path records and mark it verified.

    Only domains whose records are published verify: those of the company
    (its domain and its subdomains).

    Args:
        sender_domain_id: The domain.
    """
    dom = ctx.get(SenderDomain, sender_domain_id, field="sender_domain_id")
    if dom.status == "verified":
        raise Conflict(f"{dom.domain} is already verified", field="sender_domain_id", hint="nothing to do")
    if not _owned_domain(ctx, dom.domain):
        raise RuleViolation(
            f"the DNS records of {dom.domain} were not found",
            field="sender_domain_id",
            hint="publish its dns_records at the domain's DNS provider, then verify again",
        )
    return ctx.update(dom, status="verified", verified_at=ctx.now())


@service.tool(intent="add a sender identity", write=True, example=_example_sender)
def create_sender(ctx: Ctx, from_email: Email, from_name: Title, reply_to: Email | None = None) -> Sender:
    """Add a From address; its domain must be an added sending domain.

    Args:
        from_email: The From address.
        from_name: Display name.
        reply_to: Where replies go.
    """
    domain = from_email.rsplit("@", 1)[1]
    dom = ctx.first(SenderDomain, domain=domain)
    if dom is None:
        raise RuleViolation(
            f"{domain} is not a sending domain", field="from_email", hint="add it with transmail__add_sender_domain"
        )
    if ctx.first(Sender, from_email=from_email) is not None:
        raise Conflict(f"sender {from_email} exists", field="from_email", hint="use the existing sender")
    return ctx.create(Sender, from_email=from_email, from_name=from_name, reply_to=reply_to, domain_id=dom.id)


# -- templates and sending --------------------------------------------------------------------


class Rendered(BaseModel):
    """A template rendered with variables."""

    subject: Title = Field(description="The rendered subject.")
    text_body: Text = Field(description="The rendered body.")
    missing_variables: list[str] = Field(description="Variables the template uses that were not given.")


def _render_template(tpl: Template, variables: dict[str, str]) -> Rendered:
    return Rendered(
        subject=_render(tpl.subject, variables) or tpl.name,
        text_body=_render(tpl.text_body, variables),
        missing_variables=[v for v in tpl.variables if v not in variables],
    )


@service.tool(intent="preview the e-mail template", example=_example_preview)
def preview_template(ctx: Ctx, template_id: TemplateId, variables: Variables | None = None) -> Rendered:
    """Render a template with variables without sending, listing the variables still missing.

    Args:
        template_id: The template.
        variables: Values of the template's placeholders.
    """
    return _render_template(ctx.get(Template, template_id, field="template_id"), variables or {})


@service.tool(intent="send an e-mail", write=True, example=_example_send)
def send_email(
    ctx: Ctx,
    from_email: Email,
    to: Email,
    subject: Title | None = None,
    text_body: Text | None = None,
    template_id: TemplateId | None = None,
    variables: Variables | None = None,
    stream: Stream = "outbound",
    to_name: PersonName | None = None,
    tag: Tag | None = None,
    order_number: OrderNumber | None = None,
    invoice_number: InvoiceNumber | None = None,
    tracking_number: TrackingNumber | None = None,
) -> Message:
    """Send one e-mail, written out or rendered from a template.

    The sender must be a sender identity on a verified domain. With a template
    every variable it uses must be given, and no subject or body may be passed;
    without one, subject and body are required. The template's stream must
    match. Broadcast mail must contain an unsubscribe link. Addresses
    suppressed on the stream are refused.

    Args:
        from_email: A sender identity's address.
        to: Recipient.
        subject: Subject (without a template).
        text_body: Body (without a template).
        template_id: Template to render.
        variables: Values of the template's placeholders.
        stream: outbound (transactional) or broadcast.
        to_name: Recipient's name.
        tag: Tag for statistics.
        order_number: Metadata: the order the mail is about.
        invoice_number: Metadata: the invoice the mail is about.
        tracking_number: Metadata: the parcel the mail is about.
    """
    snd = ctx.first(Sender, from_email=from_email)
    if snd is None:
        raise NotFound(
            f"{from_email} is not a sender identity",
            field="from_email",
            hint="add it with transmail__create_sender, or list senders",
        )
    dom = ctx.get(SenderDomain, snd.domain_id)
    if dom.status != "verified":
        raise RuleViolation(
            f"the domain {dom.domain} is not verified",
            field="from_email",
            hint="verify it with transmail__verify_sender_domain first",
        )
    tpl = None
    if template_id is not None:
        tpl = ctx.get(Template, template_id, field="template_id")
        if subject is not None or text_body is not None:
            raise RuleViolation(
                "a template send takes no subject or body", field="subject", hint="omit subject and text_body"
            )
        if not tpl.active:
            raise RuleViolation(f"template {tpl.name} is inactive", field="template_id", hint="activate it first")
        if tpl.stream != stream:
            raise RuleViolation(
                f"template {tpl.name} is for the {tpl.stream} stream", field="stream", hint=f"send on {tpl.stream}"
            )
        rendered = _render_template(tpl, variables or {})
        if rendered.missing_variables:
            raise RuleViolation(
                f"template {tpl.name} needs variables: {', '.join(rendered.missing_variables)}",
                field="variables",
                hint="pass a value for every variable (see transmail__preview_template)",
            )
        subj, body = rendered.subject, rendered.text_body
    else:
        if subject is None or text_body is None or not text_body.strip():
            raise RuleViolation(
                "subject and body are required without a template",
                field="subject" if subject is None else "text_body",
                hint="pass subject and text_body, or a template_id",
            )
        subj, body = subject, text_body
    if stream == "broadcast" and "unsubscribe" not in body.lower():
        raise RuleViolation(
            "broadcast mail must contain an unsubscribe link", field="text_body", hint="add an unsubscribe link"
        )
    sup = _suppressed(ctx, to, stream)
    if sup is not None:
        hint = (
            "spam complaints are permanent; do not mail this address"
            if sup.reason == "spam_complaint"
            else "delete the suppression with transmail__delete_suppression if the address works again"
        )
        raise RuleViolation(f"{to} is suppressed on {stream} ({sup.reason})", field="to", hint=hint)
    return ctx.create(
        Message,
        stream=stream,
        from_email=snd.from_email,
        from_name=snd.from_name,
        to=to,
        to_name=to_name,
        reply_to=snd.reply_to,
        subject=subj,
        text_body=body,
        template_id=tpl.id if tpl else None,
        tag=tag,
        order_number=order_number,
        invoice_number=invoice_number,
        tracking_number=tracking_number,
    )


class EventResult(BaseModel):
    """A delivery event applied to a message."""

    message: Message = Field(description="The message after the event.")
    suppression: Suppression | None = Field(description="The suppression the event created, if any.")


@service.tool(
    intent="record a delivery event for the e-mail",
    write=True,
    example=first_example(Message, "message_id", where={"status": "sent"}, event="delivered"),
)
def record_event(
    ctx: Ctx, message_id: MessageId, event: EventType, bounce_type: Literal["hard", "soft"] | None = None
) -> EventResult:
    """Apply a webhook event (delivered, bounce, open, click, spam_complaint, unsubscribe) to a message.

    delivered and bounce apply to sent messages; a bounce needs its type, and a
    hard bounce suppresses the address on the stream. open and click need a
    delivered message. A spam complaint suppresses the address on both
    streams; an unsubscribe only applies to broadcast mail.

    Args:
        message_id: The message.
        event: The event.
        bounce_type: hard or soft, for a bounce.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if (bounce_type is not None) != (event == "bounce"):
        raise RuleViolation(
            "bounce_type goes with bounce events only", field="bounce_type", hint="pass it for a bounce alone"
        )
    sup = None
    if event in ("delivered", "bounce"):
        if msg.status != "sent":
            raise RuleViolation(
                f"message {msg.id} is already {msg.status}", field="message_id", hint="only sent mail is delivered"
            )
        if event == "delivered":
            return EventResult(message=ctx.update(msg, status="delivered"), suppression=None)
        msg = ctx.update(msg, status="bounced", bounce_type=bounce_type)
        if bounce_type == "hard" and _suppressed(ctx, msg.to, msg.stream) is None:
            sup = ctx.create(
                Suppression, email=msg.to, stream=msg.stream, reason="hard_bounce", origin_message_id=msg.id
            )
        return EventResult(message=msg, suppression=sup)
    if msg.status != "delivered":
        raise RuleViolation(
            f"message {msg.id} is {msg.status}; {event} events need a delivered message",
            field="message_id",
            hint="record its delivery first",
        )
    if event == "open":
        return EventResult(message=ctx.update(msg, open_count=msg.open_count + 1), suppression=None)
    if event == "click":
        return EventResult(
            message=ctx.update(msg, click_count=msg.click_count + 1, open_count=max(msg.open_count, 1)),
            suppression=None,
        )
    if event == "unsubscribe":
        if msg.stream != "broadcast":
            raise RuleViolation(
                "transactional mail has no unsubscribe", field="event", hint="unsubscribes come from broadcast mail"
            )
        existing = _suppressed(ctx, msg.to, "broadcast")
        if existing is None:
            sup = ctx.create(
                Suppression, email=msg.to, stream="broadcast", reason="unsubscribe", origin_message_id=msg.id
            )
        return EventResult(message=msg, suppression=sup)
    if msg.spam_complaint:
        raise Conflict("the complaint is already recorded", field="message_id", hint="nothing to do")
    msg = ctx.update(msg, spam_complaint=True)
    for stream in ("outbound", "broadcast"):
        existing = _suppressed(ctx, msg.to, stream)
        if existing is not None and existing.reason != "spam_complaint":
            ctx.delete(existing)
            existing = None
        if existing is None:
            made = ctx.create(
                Suppression, email=msg.to, stream=stream, reason="spam_complaint", origin_message_id=msg.id
            )
            if stream == msg.stream:
                sup = made
    return EventResult(message=msg, suppression=sup)


class Stats(BaseModel):
    """Delivery statistics of the messages in a period."""

    stream: Stream | None = Field(description="The stream, or null for both.")
    tag: Tag | None = Field(description="The tag, or null for every tag.")
    sent: int = Field(description="Messages sent.")
    delivered: int = Field(description="Messages delivered.")
    bounced: int = Field(description="Messages bounced.")
    opened: int = Field(description="Delivered messages opened at least once.")
    clicked: int = Field(description="Delivered messages with at least one click.")
    spam_complaints: int = Field(description="Messages marked as spam.")
    bounce_rate: Percent = Field(description="bounced / sent, in percent.")
    open_rate: Percent = Field(description="opened / delivered, in percent.")


def _pct(a: int, b: int) -> float:
    return round(100 * a / b, 2) if b else 0.0


@service.tool(intent="get the e-mail delivery statistics")
def get_stats(
    ctx: Ctx,
    stream: Stream | None = None,
    tag: Tag | None = None,
    since: DateTime | None = None,
    until: DateTime | None = None,
) -> Stats:
    """Count sends, deliveries, bounces, opens, clicks and complaints, with bounce and open rates.

    Args:
        stream: Only this stream.
        tag: Only messages with this tag.
        since: Only messages sent at or after this time.
        until: Only messages sent before this time.
    """
    msgs = [
        m
        for m in ctx.scan(Message)
        if (stream is None or m.stream == stream)
        and (tag is None or m.tag == tag)
        and (since is None or m.sent_at >= since)
        and (until is None or m.sent_at < until)
    ]
    delivered = [m for m in msgs if m.status == "delivered"]
    bounced = sum(m.status == "bounced" for m in msgs)
    opened = sum(m.open_count > 0 for m in delivered)
    return Stats(
        stream=stream,
        tag=tag,
        sent=len(msgs),
        delivered=len(delivered),
        bounced=bounced,
        opened=opened,
        clicked=sum(m.click_count > 0 for m in delivered),
        spam_complaints=sum(m.spam_complaint for m in msgs),
        bounce_rate=_pct(bounced, len(msgs)),
        open_rate=_pct(opened, len(delivered)),
    )


# -- seed -------------------------------------------------------------------------------------

TEMPLATES: tuple[tuple[str, str, str, str, Stream, bool], ...] = (
    (
        "Order confirmation",
        "order-confirmation",
        "Your order {{order_number}} is confirmed",
        "Hi {{first_name}},\n\nthanks for your order {{order_number}}. We'll e-mail you when it ships.",
        "outbound",
        True,
    ),
    (
        "Shipping update",
        "shipping-update",
        "Order {{order_number}} has shipped",
        "Hi {{first_name}},\n\nyour order {{order_number}} is on its way. Track it: {{tracking_url}}",
        "outbound",
        True,
    ),
    (
        "Password reset",
        "password-reset",
        "Reset your password",
        "Hi {{first_name}},\n\nreset your password here: {{reset_url}}\nThe link expires in one hour.",
        "outbound",
        True,
    ),
    (
        "Invoice available",
        "invoice-available",
        "Invoice {{invoice_number}} from {{company}}",
        "Hello {{name}},\n\ninvoice {{invoice_number}} over {{amount}} is ready: {{invoice_url}}",
        "outbound",
        True,
    ),
    (
        "Monthly newsletter",
        "newsletter",
        "What's new this month",
        "Hi {{first_name}},\n\nnew arrivals and stories from the team.\n\nUnsubscribe: {{unsubscribe_url}}",
        "broadcast",
        True,
    ),
    (
        "Holiday promo 2025",
        "holiday-promo",
        "Holiday deals inside",
        "Up to 30% off until Sunday.\n\nUnsubscribe: {{unsubscribe_url}}",
        "broadcast",
        False,
    ),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Verified company domains, senders, templates, order and newsletter mail with events and suppressions."""
    pop = s.population
    now = s.now
    home = pop.home.domain
    orders, noreply, letter = _seed_domains_and_senders(s)
    tpls = {
        alias: s.create(
            Template,
            name=tname,
            alias=alias,
            subject=subject,
            text_body=body,
            stream=stream,
            active=active,
            updated_at=now - dt.timedelta(days=90),
        )
        for tname, alias, subject, body, stream, active in TEMPLATES
    }
    suppressed: set[tuple[str, str]] = set()
    _seed_consumer_mail(s, tpls, orders, noreply, letter, suppressed)
    # A few mails still in flight and one address the team suppressed by hand.
    for p in pop.consumers[-3:]:
        _seed_send(
            s,
            tpls["newsletter"],
            letter,
            p,
            {"first_name": p.first_name, "unsubscribe_url": f"https://news.{home}/u/x"},
            now - dt.timedelta(minutes=20),
        )
    manual = pop.consumers[1]
    if (manual.email, "outbound") not in suppressed:
        s.create(Suppression, email=manual.email, stream="outbound", reason="manual", created_at=now)


def _seed_domains_and_senders(s: SeedContext) -> tuple[Sender, Sender, Sender]:
    """The verified company and newsletter domains, two pending ones, and senders; returns orders, noreply, news."""
    now = s.now
    home = s.population.home.domain
    base = home.split(".")[0]
    main = s.create(
        SenderDomain,
        domain=home,
        status="verified",
        dns_records=_dns_for(home),
        verified_at=now - dt.timedelta(days=400),
        created_at=now - dt.timedelta(days=401),
    )
    news = s.create(
        SenderDomain,
        domain=f"news.{home}",
        status="verified",
        dns_records=_dns_for(f"news.{home}"),
        verified_at=now - dt.timedelta(days=200),
        created_at=now - dt.timedelta(days=201),
    )
    s.create(SenderDomain, domain=f"alerts.{home}", dns_records=_dns_for(f"alerts.{home}"), created_at=now)
    s.create(SenderDomain, domain=f"{base}-deals.com", dns_records=_dns_for(f"{base}-deals.com"), created_at=now)
    name = s.population.home.name
    orders = s.create(
        Sender, from_email=f"orders@{home}", from_name=f"{name} Orders", reply_to=f"support@{home}", domain_id=main.id
    )
    s.create(Sender, from_email=f"billing@{home}", from_name=f"{name} Billing", domain_id=main.id)
    noreply = s.create(Sender, from_email=f"noreply@{home}", from_name=name, domain_id=main.id)
    letter = s.create(Sender, from_email=f"hello@news.{home}", from_name=f"{name} News", domain_id=news.id)
    return orders, noreply, letter


def _seed_send(
    s: SeedContext, tpl: Template, snd: Sender, person: Person, values: dict[str, str], when: dt.datetime, **kw: Any
) -> Message:
    """The template rendered with ``values`` and sent to the person at ``when``."""
    return s.create(
        Message,
        stream=tpl.stream,
        from_email=snd.from_email,
        from_name=snd.from_name,
        to=person.email,
        to_name=person.name,
        reply_to=snd.reply_to,
        subject=_render(tpl.subject, values),
        text_body=_render(tpl.text_body, values),
        template_id=tpl.id,
        tag=tpl.alias,
        sent_at=when,
        updated_at=when + dt.timedelta(minutes=2),
        **kw,
    )


def _seed_suppress(
    s: SeedContext, suppressed: set[tuple[str, str]], email: str, stream: Stream, reason: str, msg: Message
) -> None:
    """Suppress the address on the stream, once, five minutes after the message that caused it."""
    if (email, stream) not in suppressed:
        suppressed.add((email, stream))
        s.create(
            Suppression,
            email=email,
            stream=stream,
            reason=reason,
            origin_message_id=msg.id,
            created_at=msg.sent_at + dt.timedelta(minutes=5),
        )


def _seed_consumer_mail(
    s: SeedContext,
    tpls: dict[str, Template],
    orders: Sender,
    noreply: Sender,
    letter: Sender,
    suppressed: set[tuple[str, str]],
) -> None:
    """Order confirmations (hard bounces suppressed), password resets and the newsletter with its complaints."""
    rng = s.rng
    home = s.population.home.domain
    first_orders = first_order_numbers(s.population)
    for i, p in enumerate(s.population.consumers):
        when = s.now - dt.timedelta(hours=rng.randint(24, 24 * 30))
        order = first_orders.get(p.email)
        if order is not None:
            status = "bounced" if i % 17 == 9 else "delivered"
            msg = _seed_send(
                s,
                tpls["order-confirmation"],
                orders,
                p,
                {"first_name": p.first_name, "order_number": order},
                when,
                order_number=order,
                status=status,
                bounce_type="hard" if status == "bounced" else None,
                open_count=(i % 3) if status == "delivered" else 0,
            )
            if status == "bounced":
                _seed_suppress(s, suppressed, p.email, "outbound", "hard_bounce", msg)
        if i % 5 == 2 and (p.email, "outbound") not in suppressed:
            _seed_send(
                s,
                tpls["password-reset"],
                orders if i % 2 else noreply,
                p,
                {"first_name": p.first_name, "reset_url": f"https://{home}/reset/{rng.randint(10**8, 10**9)}"},
                when + dt.timedelta(days=1),
                status="delivered",
                open_count=1,
                click_count=1,
            )
        if i % 2 == 0:
            msg = _seed_send(
                s,
                tpls["newsletter"],
                letter,
                p,
                {"first_name": p.first_name, "unsubscribe_url": f"https://news.{home}/u/{i}"},
                s.now - dt.timedelta(days=3, hours=i % 12),
                status="delivered",
                open_count=1 if i % 4 == 0 else 0,
                spam_complaint=i % 23 == 8,
            )
            if i % 23 == 8:
                _seed_suppress(s, suppressed, p.email, "broadcast", "spam_complaint", msg)
                _seed_suppress(s, suppressed, p.email, "outbound", "spam_complaint", msg)
            elif i % 6 == 4:
                _seed_suppress(s, suppressed, p.email, "broadcast", "unsubscribe", msg)
