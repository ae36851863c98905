"""Frontdesk Inbox: shared team inboxes, conversations with assignees, tags, comments, rules and templates.

Modeled on the Front Core API (``teammates``, ``inboxes``, ``conversations``,
``messages``, ``comments``, ``tags``, ``message_templates``, ``rules``; the
incoming-message import endpoint of a channel): a message to a shared inbox
address opens a conversation (or reopens the sender's archived one), the
inbox's active rules then tag, assign or archive it; teammates assign,
snooze, archive, reopen and trash conversations, reply from the inbox (with
message templates whose ``{{recipient.first_name}}`` is filled in) and
comment internally with @mentions. Front's rules: only teammates with access
to the inbox may be assigned or mentioned; a snooze ends in the future; an
archived or trashed conversation is not replied to until reopened; tag names
are unique; a template is used only in the inboxes it is shared with.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FirstName, IdOf, LastName, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "sharedinbox",
    title="Frontdesk Inbox",
    category="shared_inbox",
    modeled_on="Front Core API (teammates, inboxes, conversations, messages, comments, tags, message_templates, "
    "rules, channel incoming messages)",
    description="Shared team inboxes (support@, billing@, sales@) where customer e-mail becomes conversations "
    "that teammates assign, tag, snooze, comment on internally, answer with templates and archive, with inbox "
    "rules that route incoming mail automatically.",
)

TeammateId = Annotated[str, IdOf("sharedinbox.teammate")]
InboxId = Annotated[str, IdOf("sharedinbox.inbox")]
ConversationId = Annotated[str, IdOf("sharedinbox.conversation")]
MessageId = Annotated[str, IdOf("sharedinbox.message")]
CommentId = Annotated[str, IdOf("sharedinbox.comment")]
TagId = Annotated[str, IdOf("sharedinbox.tag")]
TemplateId = Annotated[str, IdOf("sharedinbox.template")]
RuleId = Annotated[str, IdOf("sharedinbox.rule")]

ConvStatus = Literal["open", "archived", "snoozed", "deleted"]
Highlight = Literal["grey", "pink", "red", "orange", "yellow", "green", "light-blue", "blue", "purple"]
TagName = Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _:/-]{0,48}$")]
Keyword = Annotated[str, Field(min_length=2, max_length=60)]
MENTION = re.compile(r"@([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})")


class Teammate(Record):
    """A teammate (user) of the company's Front account."""

    id: TeammateId
    email: Email
    """Login e-mail."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    is_admin: bool = False
    """Company admin."""
    is_available: bool = True
    """Available for assignment (off: out of office)."""


class Inbox(Record):
    """A shared inbox with its address and the teammates who can access it."""

    id: InboxId
    name: Title
    """Inbox name."""
    address: Email
    """The address mail to it arrives at (unique)."""
    teammate_ids: tuple[TeammateId, ...] = ()
    """Teammates with access."""


class Conversation(Timestamped):
    """A conversation with a customer in an inbox."""

    id: ConversationId
    inbox_id: InboxId
    """The inbox."""
    subject: Title
    """Subject."""
    recipient_email: Email
    """The customer's address."""
    recipient_name: PersonName | None = None
    """The customer's name."""
    status: ConvStatus = "open"
    """open, archived, snoozed or deleted (in trash)."""
    assignee_id: TeammateId | None = None
    """The teammate it is assigned to (none: unassigned)."""
    tag_ids: tuple[TagId, ...] = ()
    """Tags."""
    snoozed_until: DateTime | None = None
    """When a snoozed conversation reopens."""
    last_message_at: DateTime | None = None
    """When the last message came or went."""


class Message(Created):
    """A message in a conversation: inbound from the customer or outbound from a teammate."""

    id: MessageId
    conversation_id: ConversationId
    """The conversation."""
    is_inbound: bool
    """From the customer (true) or sent from the inbox (false)."""
    author_id: TeammateId | None = None
    """The teammate who sent an outbound message."""
    sender_email: Email
    """From address."""
    to_email: Email
    """To address."""
    body: Text
    """Message text."""
    template_id: TemplateId | None = None
    """The template it was written from."""


class Comment(Created):
    """An internal comment on a conversation, visible to teammates only."""

    id: CommentId
    conversation_id: ConversationId
    """The conversation."""
    author_id: TeammateId
    """The teammate who wrote it."""
    body: Text
    """Text; @email mentions notify teammates."""
    mention_ids: tuple[TeammateId, ...] = ()
    """Teammates mentioned."""


class Tag(Record):
    """A tag for conversations."""

    id: TagId
    name: TagName
    """Tag name (unique)."""
    highlight: Highlight = "grey"
    """Colour."""


class Template(Timestamped):
    """A message template (canned response)."""

    id: TemplateId
    name: Title
    """Template name (unique)."""
    subject: Title | None = None
    """Subject for new messages."""
    body: Text
    """Body; ``{{recipient.first_name}}`` is filled in."""
    inbox_ids: tuple[InboxId, ...] = ()
    """Inboxes it may be used in (empty: all)."""


class InboxRule(Timestamped):
    """A rule that acts on messages arriving in an inbox."""

    id: RuleId
    name: Title
    """Rule name."""
    inbox_id: InboxId
    """The inbox it watches."""
    subject_contains: Keyword | None = None
    """Matches when the subject contains this (case-insensitive)."""
    sender_domain: Annotated[str, Field(pattern=r"^[a-z0-9.-]+\.[a-z]{2,}$")] | None = None
    """Matches mail from this domain."""
    assign_to_id: TeammateId | None = None
    """Assign the conversation to this teammate."""
    add_tag_id: TagId | None = None
    """Tag the conversation."""
    archive: bool = False
    """Archive the conversation."""
    enabled: bool = True
    """Whether it runs."""


# -- rules ------------------------------------------------------------------------------------


def _access(ctx: Ctx, inbox: Inbox, teammate_id: str, field: str) -> Teammate:
    mate = ctx.get(Teammate, teammate_id, field=field)
    if mate.id not in inbox.teammate_ids:
        raise RuleViolation(
            f"{mate.email} has no access to inbox {inbox.name!r}",
            field=field,
            hint="grant access with sharedinbox__grant_inbox_access or pick a teammate of the inbox",
        )
    return mate


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    inbox = ctx.get(Inbox, new.inbox_id, field="inbox_id")
    if new.assign_to_id is not None:
        _access(ctx, inbox, new.assign_to_id, "assign_to_id")
    if new.add_tag_id is not None:
        ctx.get(Tag, new.add_tag_id, field="add_tag_id")
    if new.subject_contains is None and new.sender_domain is None:
        raise RuleViolation("a rule needs a condition", field="subject_contains", hint="give a keyword or a domain")
    if new.assign_to_id is None and new.add_tag_id is None and not new.archive:
        raise RuleViolation("a rule needs an action", field="assign_to_id", hint="assign, tag or archive")


def _guard_template(ctx: Ctx, new: Any, old: Any) -> None:
    for inbox_id in new.inbox_ids:
        ctx.get(Inbox, inbox_id, field="inbox_ids")


teammates = service.resource(
    Teammate,
    name="teammate",
    plural="teammates",
    prefix="tea",
    create=False,
    filters=("email", "is_available", "is_admin"),
    search=("first_name", "last_name", "email"),
    update=("is_available",),
    delete=False,
)
inboxes = service.resource(
    Inbox, name="inbox", plural="inboxes", prefix="inb", create=False, filters=("address",), delete=False
)
conversations = service.resource(
    Conversation,
    name="conversation",
    plural="conversations",
    prefix="cnv",
    create=False,
    filters=("inbox_id", "status", "assignee_id", "recipient_email"),
    search=("subject", "recipient_name", "recipient_email"),
    delete=False,
    transitions={
        "trash": Transition("status", ("open", "archived", "snoozed"), "deleted", "move the conversation to trash"),
    },
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    get=False,
    filters=("conversation_id", "is_inbound"),
    delete=False,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="com",
    create=False,
    get=False,
    filters=("conversation_id", "author_id"),
    delete=False,
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    get=False,
    filters=("highlight",),
    search=("name",),
    update=("name", "highlight"),
    unique=("name",),
)
templates = service.resource(
    Template,
    name="template",
    plural="templates",
    prefix="tpl",
    create=("name", "subject", "body", "inbox_ids"),
    filters=(),
    search=("name", "body"),
    update=("name", "subject", "body", "inbox_ids"),
    unique=("name",),
    guard_create=_guard_template,
    guard_update=_guard_template,
    title="message template",
)
rules = service.resource(
    InboxRule,
    name="rule",
    plural="rules",
    prefix="rul",
    create=("name", "inbox_id", "subject_contains", "sender_domain", "assign_to_id", "add_tag_id", "archive"),
    get=False,
    filters=("inbox_id", "enabled"),
    update=("name", "subject_contains", "sender_domain", "assign_to_id", "add_tag_id", "archive", "enabled"),
    guard_create=_guard_rule,
    guard_update=_guard_rule,
)


# -- domain tools -----------------------------------------------------------------------------


def _conv(ctx: Ctx, conversation_id: str) -> tuple[Conversation, Inbox]:
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    return conv, ctx.get(Inbox, conv.inbox_id)


def _apply_rules(ctx: Ctx, conv: Conversation, inbox: Inbox, sender: str) -> Conversation:
    for rule in ctx.where(InboxRule, inbox_id=inbox.id, enabled=True):
        if rule.subject_contains and rule.subject_contains.lower() not in conv.subject.lower():
            continue
        if rule.sender_domain and sender.split("@")[1].lower() != rule.sender_domain:
            continue
        if rule.add_tag_id and rule.add_tag_id not in conv.tag_ids:
            conv = ctx.update(conv, tag_ids=(*conv.tag_ids, rule.add_tag_id))
        if rule.assign_to_id and rule.assign_to_id in inbox.teammate_ids:
            conv = ctx.update(conv, assignee_id=rule.assign_to_id)
        if rule.archive:
            conv = ctx.update(conv, status="archived")
    return conv


def _example_receive(ctx: Ctx) -> dict[str, Any] | None:
    inbox = ctx.first(Inbox)
    person = ctx.population.consumers[0]
    return (
        None
        if inbox is None
        else {
            "inbox_id": inbox.id,
            "sender_email": person.email,
            "sender_name": person.name,
            "subject": "Refund for order",
            "body": "Hello, I would like a refund.",
        }
    )


@service.tool(intent="receive the incoming message in the inbox", write=True, example=_example_receive)
def receive_message(
    ctx: Ctx,
    inbox_id: InboxId,
    sender_email: Email,
    subject: Title,
    body: Text,
    sender_name: PersonName | None = None,
) -> Conversation:
    """Import a customer's e-mail into a shared inbox; then the inbox's enabled rules run on the conversation.

    The mail joins the sender's conversation on the same subject (reopening it if archived or snoozed) or
    starts a new one.

    Args:
        inbox_id: The inbox it was sent to.
        sender_email: The customer's address.
        subject: Subject (a leading "Re:" is ignored when matching).
        body: Message text.
        sender_name: The customer's name.
    """
    inbox = ctx.get(Inbox, inbox_id, field="inbox_id")
    if sender_email.split("@")[1] == ctx.population.home.domain:
        raise RuleViolation("internal mail is not imported", field="sender_email", hint="comment internally instead")
    bare = re.sub(r"^(re|fwd?):\s*", "", subject, flags=re.IGNORECASE)
    conv = next(
        (
            c
            for c in ctx.where(Conversation, inbox_id=inbox.id, recipient_email=sender_email)
            if c.status != "deleted" and c.subject.lower() == bare.lower()
        ),
        None,
    )
    now = ctx.now()
    if conv is None:
        conv = ctx.create(
            Conversation,
            inbox_id=inbox.id,
            subject=bare,
            recipient_email=sender_email,
            recipient_name=sender_name,
            last_message_at=now,
        )
    else:
        conv = ctx.update(conv, status="open", snoozed_until=None, last_message_at=now)
    ctx.create(
        Message, conversation_id=conv.id, is_inbound=True, sender_email=sender_email, to_email=inbox.address, body=body
    )
    return _apply_rules(ctx, conv, inbox, sender_email)


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    for conv in ctx.where(Conversation, status="open"):
        inbox = ctx.get(Inbox, conv.inbox_id)
        if inbox.teammate_ids:
            return {"conversation_id": conv.id, "author_id": inbox.teammate_ids[0], "body": "Thanks, on it."}
    return None


@service.tool(intent="reply to the conversation", write=True, example=_example_reply)
def reply(
    ctx: Ctx,
    conversation_id: ConversationId,
    author_id: TeammateId,
    body: Text = "",
    template_id: TemplateId | None = None,
    archive: bool = False,
) -> Message:
    """Send a reply to the customer from the conversation's inbox, written or from a template; optionally archive.

    Args:
        conversation_id: An open or snoozed conversation.
        author_id: The teammate sending it (with access to the inbox).
        body: The text (appended after the template's, if both).
        template_id: A message template shared with this inbox.
        archive: Archive the conversation once sent ("send and archive").
    """
    conv, inbox = _conv(ctx, conversation_id)
    if conv.status in ("archived", "deleted"):
        raise RuleViolation(
            f"the conversation is {conv.status}",
            field="conversation_id",
            hint="reopen it with sharedinbox__reopen_conversation first",
        )
    _access(ctx, inbox, author_id, "author_id")
    text = body.strip()
    if template_id is not None:
        tpl = ctx.get(Template, template_id, field="template_id")
        if tpl.inbox_ids and inbox.id not in tpl.inbox_ids:
            raise RuleViolation(
                f"template {tpl.name!r} is not shared with {inbox.name!r}",
                field="template_id",
                hint="share it with the inbox via update_template or pick another",
            )
        first = (conv.recipient_name or "there").split()[0]
        text = (tpl.body.replace("{{recipient.first_name}}", first) + ("\n\n" + text if text else "")).strip()
    if not text:
        raise RuleViolation("a reply needs a body or a template", field="body", hint="write the reply")
    msg = ctx.create(
        Message,
        conversation_id=conv.id,
        is_inbound=False,
        author_id=author_id,
        sender_email=inbox.address,
        to_email=conv.recipient_email,
        body=text,
        template_id=template_id,
    )
    ctx.update(
        conv,
        status="archived" if archive else "open",
        snoozed_until=None,
        last_message_at=ctx.now(),
        assignee_id=conv.assignee_id or author_id,
    )
    return msg


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for conv in ctx.where(Conversation, status="open", assignee_id=None):
        inbox = ctx.get(Inbox, conv.inbox_id)
        if inbox.teammate_ids:
            return {"conversation_id": conv.id, "assignee_id": inbox.teammate_ids[-1]}
    return None


@service.tool(intent="assign the conversation", write=True, example=_example_assign)
def assign_conversation(ctx: Ctx, conversation_id: ConversationId, assignee_id: TeammateId) -> Conversation:
    """Assign a conversation to an available teammate who has access to its inbox.

    Args:
        conversation_id: The conversation (not in trash).
        assignee_id: The teammate.
    """
    conv, inbox = _conv(ctx, conversation_id)
    if conv.status == "deleted":
        raise RuleViolation("the conversation is in trash", field="conversation_id", hint="restore it first")
    mate = _access(ctx, inbox, assignee_id, "assignee_id")
    if not mate.is_available:
        raise RuleViolation(f"{mate.email} is unavailable", field="assignee_id", hint="pick an available teammate")
    if conv.assignee_id == mate.id:
        raise Conflict(f"already assigned to {mate.email}", field="assignee_id", hint="nothing to do")
    return ctx.update(conv, assignee_id=mate.id)


@service.tool(
    intent="unassign the conversation",
    write=True,
    example=first_example(Conversation, "conversation_id", match=lambda c, r: r.assignee_id is not None),
)
def unassign_conversation(ctx: Ctx, conversation_id: ConversationId) -> Conversation:
    """Remove a conversation's assignee so it goes back to the team's unassigned queue.

    Args:
        conversation_id: The conversation.
    """
    conv, _ = _conv(ctx, conversation_id)
    if conv.assignee_id is None:
        raise Conflict("the conversation is unassigned", field="conversation_id", hint="nothing to do")
    return ctx.update(conv, assignee_id=None)


@service.tool(
    intent="archive the conversation",
    write=True,
    example=first_example(Conversation, "conversation_id", where={"status": "open"}),
)
def archive_conversation(ctx: Ctx, conversation_id: ConversationId) -> Conversation:
    """Archive an open or snoozed conversation (done for now; a new inbound message reopens it).

    Args:
        conversation_id: The conversation.
    """
    conv, _ = _conv(ctx, conversation_id)
    if conv.status not in ("open", "snoozed"):
        raise RuleViolation(f"the conversation is {conv.status}", field="conversation_id", hint="nothing to archive")
    return ctx.update(conv, status="archived", snoozed_until=None)


@service.tool(
    intent="reopen the conversation",
    write=True,
    example=first_example(Conversation, "conversation_id", where={"status": "archived"}),
)
def reopen_conversation(ctx: Ctx, conversation_id: ConversationId) -> Conversation:
    """Reopen an archived, snoozed or trashed conversation.

    Args:
        conversation_id: The conversation.
    """
    conv, _ = _conv(ctx, conversation_id)
    if conv.status == "open":
        raise Conflict("the conversation is already open", field="conversation_id", hint="nothing to do")
    return ctx.update(conv, status="open", snoozed_until=None)


def _example_snooze(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, status="open")
    until = (ctx.now() + dt.timedelta(days=2)).replace(microsecond=0).isoformat()
    return None if conv is None else {"conversation_id": conv.id, "until": until}


@service.tool(intent="snooze the conversation", write=True, example=_example_snooze)
def snooze_conversation(ctx: Ctx, conversation_id: ConversationId, until: DateTime) -> Conversation:
    """Snooze an open conversation until a time in the next 90 days; it reopens then, or when the customer writes.

    Args:
        conversation_id: The conversation.
        until: When it reopens.
    """
    conv, _ = _conv(ctx, conversation_id)
    if conv.status != "open":
        raise RuleViolation(f"the conversation is {conv.status}", field="conversation_id", hint="only open ones snooze")
    if not ctx.now() < until <= ctx.now() + dt.timedelta(days=90):
        raise RuleViolation("until must be in the next 90 days", field="until", hint="pick a later time")
    return ctx.update(conv, status="snoozed", snoozed_until=until)


def _example_tag(ctx: Ctx) -> dict[str, Any] | None:
    conv, tag = ctx.first(Conversation, status="open"), ctx.first(Tag)
    if conv is None or tag is None or tag.id in conv.tag_ids:
        return None
    return {"conversation_id": conv.id, "tag_id": tag.id}


@service.tool(intent="tag the conversation", write=True, example=_example_tag)
def tag_conversation(ctx: Ctx, conversation_id: ConversationId, tag_id: TagId) -> Conversation:
    """Add a tag to a conversation.

    Args:
        conversation_id: The conversation.
        tag_id: The tag.
    """
    conv, _ = _conv(ctx, conversation_id)
    tag = ctx.get(Tag, tag_id, field="tag_id")
    if tag.id in conv.tag_ids:
        raise Conflict(f"already tagged {tag.name!r}", field="tag_id", hint="nothing to do")
    return ctx.update(conv, tag_ids=(*conv.tag_ids, tag.id))


@service.tool(
    intent="remove the tag from the conversation",
    write=True,
    example=first_example(Conversation, "conversation_id", match=lambda c, r: bool(r.tag_ids)),
)
def untag_conversation(ctx: Ctx, conversation_id: ConversationId, tag_id: TagId | None = None) -> Conversation:
    """Remove a tag (or, with none given, every tag) from a conversation.

    Args:
        conversation_id: The conversation.
        tag_id: The tag to remove; omit to remove all.
    """
    conv, _ = _conv(ctx, conversation_id)
    if tag_id is not None and tag_id not in conv.tag_ids:
        raise RuleViolation("the conversation does not have this tag", field="tag_id", hint="list its tag_ids")
    return ctx.update(conv, tag_ids=() if tag_id is None else tuple(t for t in conv.tag_ids if t != tag_id))


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    base = _example_reply(ctx)
    return None if base is None else base | {"body": "Checking with billing before we answer."}


@service.tool(intent="comment on the conversation", write=True, example=_example_comment)
def add_comment(ctx: Ctx, conversation_id: ConversationId, author_id: TeammateId, body: Text) -> Comment:
    """Add an internal comment; @email mentions must name teammates with access to the inbox.

    Args:
        conversation_id: The conversation.
        author_id: The teammate writing it.
        body: The comment; mention teammates as @their-email.
    """
    conv, inbox = _conv(ctx, conversation_id)
    _access(ctx, inbox, author_id, "author_id")
    if not body.strip():
        raise RuleViolation("a comment needs text", field="body", hint="write the comment")
    mentioned: list[str] = []
    for email in MENTION.findall(body):
        mate = ctx.first(Teammate, email=email)
        if mate is None or mate.id not in inbox.teammate_ids:
            raise RuleViolation(
                f"@{email} is not a teammate of inbox {inbox.name!r}",
                field="body",
                hint="mention teammates who can see the inbox",
            )
        mentioned.append(mate.id)
    return ctx.create(Comment, conversation_id=conv.id, author_id=author_id, body=body, mention_ids=tuple(mentioned))


def _example_grant(ctx: Ctx) -> dict[str, Any] | None:
    for inbox in ctx.scan(Inbox):
        for mate in ctx.scan(Teammate):
            if mate.id not in inbox.teammate_ids:
                return {"inbox_id": inbox.id, "teammate_id": mate.id}
    return None


@service.tool(intent="give the teammate access to the inbox", write=True, example=_example_grant)
def grant_inbox_access(ctx: Ctx, inbox_id: InboxId, teammate_id: TeammateId) -> Inbox:
    """Give a teammate access to a shared inbox.

    Args:
        inbox_id: The inbox.
        teammate_id: The teammate.
    """
    inbox = ctx.get(Inbox, inbox_id, field="inbox_id")
    mate = ctx.get(Teammate, teammate_id, field="teammate_id")
    if mate.id in inbox.teammate_ids:
        raise Conflict(f"{mate.email} already has access", field="teammate_id", hint="nothing to do")
    return ctx.update(inbox, teammate_ids=(*inbox.teammate_ids, mate.id))


# -- seed -------------------------------------------------------------------------------------

TAGS: tuple[tuple[str, Highlight], ...] = (
    ("billing", "orange"),
    ("bug", "red"),
    ("feature-request", "purple"),
    ("vip", "yellow"),
    ("refund", "pink"),
    ("spam", "grey"),
)
ASKS = (
    ("Invoice shows the wrong VAT number", "billing", "Our last invoice lists an old VAT number. Can you fix it?"),
    ("Refund for duplicate charge", "refund", "We were charged twice this month; please refund one charge."),
    ("Export to CSV fails", "bug", "The export button spins forever since yesterday."),
    ("Can we get SSO?", "feature-request", "Our IT team asks whether you support SAML single sign-on."),
    ("Order arrived damaged", "refund", "Two units arrived with cracked casings; photos attached."),
    ("Question about our contract", "vip", "Can we move to annual billing at renewal?"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Support and billing teammates, three shared inboxes, tags, templates, rules and conversations in every status."""
    pop = s.population
    domain = pop.home.domain
    team = pop.staff("Support", fallback=4) + pop.staff("Finance", fallback=0)[:2] + pop.staff("Sales", fallback=0)[:1]
    mates = [
        s.create(
            Teammate,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            is_admin=k == 0,
            is_available=k != 2,
        )
        for k, p in enumerate(team)
    ]
    support = [m.id for m, p in zip(mates, team, strict=True) if p.department != "Sales"]
    billing = [m.id for m, p in zip(mates, team, strict=True) if p.department in ("Finance", None)] or support[:2]
    inboxes = [
        s.create(Inbox, name="Support", address=f"support@{domain}", teammate_ids=tuple(support)),
        s.create(Inbox, name="Billing", address=f"billing@{domain}", teammate_ids=tuple(billing + support[:1])),
        s.create(Inbox, name="Sales", address=f"sales@{domain}", teammate_ids=(mates[-1].id, mates[0].id)),
    ]
    tags = {name: s.create(Tag, name=name, highlight=color) for name, color in TAGS}
    s.create(
        Template,
        name="Refund confirmation",
        subject="Your refund",
        body="Hi {{recipient.first_name}},\n\nWe have issued your refund; it shows within 5-10 business days.",
        inbox_ids=(inboxes[0].id, inboxes[1].id),
        created_at=s.ago(days=90),
        updated_at=s.ago(days=30),
    )
    s.create(
        Template,
        name="Bug acknowledged",
        body="Hi {{recipient.first_name}},\n\nThanks for the report; our "
        "engineers are on it and we will update you here.",
        inbox_ids=(inboxes[0].id,),
        created_at=s.ago(days=90),
        updated_at=s.ago(days=90),
    )
    s.create(
        InboxRule,
        name="Invoices to billing team",
        inbox_id=inboxes[1].id,
        subject_contains="invoice",
        assign_to_id=billing[0],
        add_tag_id=tags["billing"].id,
        created_at=s.ago(days=60),
        updated_at=s.ago(days=60),
    )
    s.create(
        InboxRule,
        name="Refund requests",
        inbox_id=inboxes[0].id,
        subject_contains="refund",
        add_tag_id=tags["refund"].id,
        created_at=s.ago(days=50),
        updated_at=s.ago(days=50),
    )
    s.create(
        InboxRule,
        name="Auto-archive newsletters",
        inbox_id=inboxes[0].id,
        subject_contains="newsletter",
        archive=True,
        enabled=False,
        created_at=s.ago(days=40),
        updated_at=s.ago(days=40),
    )
    people = list(pop.contacts[:10]) + list(pop.consumers[:8])
    statuses: tuple[ConvStatus, ...] = ("open", "open", "archived", "snoozed", "open", "archived", "deleted")
    for k, p in enumerate(people):
        subject, tag, body = ASKS[k % len(ASKS)]
        inbox = inboxes[1] if tag == "billing" else inboxes[0]
        _seed_conversation(s, k, p, inbox, subject, body, statuses[k % len(statuses)], tags[tag].id)


def _seed_conversation(
    s: SeedContext, k: int, p: Person, inbox: Inbox, subject: str, body: str, status: ConvStatus, tag: str
) -> None:
    assignee = inbox.teammate_ids[k % len(inbox.teammate_ids)] if k % 3 else None
    when = s.ago(days=1 + k % 9, hours=k)
    conv = s.create(
        Conversation,
        inbox_id=inbox.id,
        subject=subject,
        recipient_email=p.email,
        recipient_name=p.name,
        status=status,
        assignee_id=assignee,
        tag_ids=(tag,),
        last_message_at=when,
        snoozed_until=s.ago(days=-2) if status == "snoozed" else None,
        created_at=when,
        updated_at=when,
    )
    s.create(
        Message,
        conversation_id=conv.id,
        is_inbound=True,
        sender_email=p.email,
        to_email=inbox.address,
        body=body,
        created_at=when,
    )
    if assignee is not None and status != "open":
        s.create(
            Message,
            conversation_id=conv.id,
            is_inbound=False,
            author_id=assignee,
            sender_email=inbox.address,
            to_email=p.email,
            body=f"Hi {p.first_name}, thanks for reaching out; this is sorted now.",
            created_at=when + dt.timedelta(hours=2),
        )
    if assignee is not None and k % 4 == 1:
        s.create(
            Comment,
            conversation_id=conv.id,
            author_id=assignee,
            body="Customer is on the annual plan.",
            created_at=when + dt.timedelta(hours=1),
        )
