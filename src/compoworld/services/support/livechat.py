"""Tandem Messenger: customer conversations in the web messenger and by e-mail, worked by teammates.

Modeled on the Intercom REST API 2.x (Admins, Teams, Contacts with role user or
lead, Conversations with parts, reply/assign/snooze/close/open actions, Tags,
Notes): a conversation is open, snoozed (until a future time) or closed; a
customer's reply reopens it and marks it waiting; a closed conversation must be
reopened before a teammate replies in it (notes are always allowed); a
conversation waiting on the customer's last message cannot be closed without a
closing reply; away teammates are not assigned conversations and a team
assignee must belong to the team. Users need a unique e-mail, leads may be
anonymous, and converting a lead whose e-mail belongs to a user merges it into
that user. Contacts unsubscribed from e-mail get no outbound e-mail messages.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    Country,
    DateTime,
    Email,
    IdOf,
    JobTitle,
    OrderNumber,
    PersonName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.records import Created
from compoworld.world import commerce

__all__ = ["service"]

service = Service(
    "livechat",
    title="Tandem Messenger",
    category="customer_messaging",
    modeled_on="Intercom REST API 2.x (Admins, Teams, Contacts, Conversations and conversation parts, Tags, Notes)",
    description="Conversational customer support and engagement: customers and leads chat with the "
    "company's teammates in the messenger or by e-mail; conversations are assigned to teammates and "
    "teams, snoozed, closed and reopened, tagged, and annotated with internal notes.",
)

AdminId = Annotated[str, IdOf("livechat.admin")]
TeamId = Annotated[str, IdOf("livechat.team")]
ContactId = Annotated[str, IdOf("livechat.contact")]
ConversationId = Annotated[str, IdOf("livechat.conversation")]
PartId = Annotated[str, IdOf("livechat.conversation_part")]
TagId = Annotated[str, IdOf("livechat.tag")]
NoteId = Annotated[str, IdOf("livechat.note")]

TagName = Annotated[str, StringConstraints(min_length=1, max_length=40, strip_whitespace=True)]
TeamName = Annotated[str, StringConstraints(min_length=1, max_length=60, strip_whitespace=True)]
ConvState = Literal["open", "snoozed", "closed"]
Channel = Literal["chat", "email"]
PartType = Literal["comment", "note", "assignment", "snoozed", "close", "open"]


class Admin(Record):
    """A teammate who answers conversations."""

    id: AdminId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    job_title: JobTitle
    """Job title."""
    away_mode: bool = False
    """Whether the teammate is away; away teammates are not assigned conversations."""


class Team(Record):
    """A team of teammates that conversations are assigned to."""

    id: TeamId
    name: TeamName
    """Team name; unique."""
    admin_ids: tuple[AdminId, ...] = ()
    """Members of the team."""


class Contact(Created):
    """A customer: a user (signed up, with an e-mail) or a lead (a visitor, possibly anonymous)."""

    id: ContactId
    role: Literal["user", "lead"]
    """user or lead."""
    name: PersonName | None = None
    """Full name, if known."""
    email: Email | None = None
    """E-mail; users must have one, unique among live contacts."""
    phone: Phone | None = None
    """Phone number."""
    company_name: CompanyName | None = None
    """The company the contact works for."""
    city: City | None = None
    """City the contact was last seen in."""
    country: Country | None = None
    """Country the contact was last seen in."""
    unsubscribed_from_emails: bool = False
    """Whether the contact opted out of e-mail messages."""
    archived: bool = False
    """Archived contacts cannot write or be messaged."""
    signed_up_at: DateTime | None = None
    """When a user signed up."""


class Conversation(Record):
    """A conversation between a contact and the team."""

    id: ConversationId
    contact_id: ContactId
    """The contact in the conversation."""
    contact_email: Email | None = None
    """The contact's e-mail when the conversation started."""
    subject: Title | None = None
    """Subject (e-mail conversations) or title."""
    channel: Channel = "chat"
    """chat (messenger) or email."""
    started_by: Literal["contact", "admin"] = "contact"
    """Who wrote the first message."""
    state: ConvState = "open"
    """open, snoozed or closed."""
    snoozed_until: DateTime | None = None
    """When a snoozed conversation wakes up."""
    admin_assignee_id: AdminId | None = None
    """The teammate it is assigned to."""
    team_assignee_id: TeamId | None = None
    """The team it is assigned to."""
    priority: bool = False
    """Whether it is marked as priority."""
    order_number: OrderNumber | None = None
    """The customer's order the conversation is about."""
    tags: tuple[TagName, ...] = ()
    """Tags on the conversation."""
    waiting_since: DateTime | None = None
    """Since when the contact's last message awaits a reply; null when answered."""
    part_count: int = 0
    """Number of conversation parts."""
    created_at: Annotated[DateTime, CREATED]
    """When it started."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class ConversationPart(Record):
    """One entry of a conversation: a message, an internal note or an action."""

    id: PartId
    conversation_id: ConversationId
    """The conversation."""
    part_type: PartType
    """comment (visible message), note (internal), assignment, snoozed, close or open."""
    author_type: Literal["admin", "contact", "bot"]
    """Who wrote it."""
    author_admin_id: AdminId | None = None
    """The teammate, for admin parts."""
    body: Text = ""
    """Message text."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Tag(Record):
    """A tag teammates put on conversations."""

    id: TagId
    name: TagName
    """Tag name; unique."""


class Note(Record):
    """An internal note about a contact."""

    id: NoteId
    contact_id: ContactId
    """The contact."""
    admin_id: AdminId
    """The teammate who wrote it."""
    body: Text
    """The note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


# -- rules ------------------------------------------------------------------------------------


def _live_email_taken(ctx: Ctx, email: str | None, me: str | None) -> Contact | None:
    if email is None:
        return None
    for c in ctx.where(Contact, email=email, archived=False):
        if c.id != me:
            return c
    return None


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.archived and new.archived:
        raise RuleViolation(
            f"contact {old.id} is archived", field="contact_id", hint="archived contacts cannot be changed"
        )
    if not new.archived:
        other = _live_email_taken(ctx, new.email, new.id)
        if other is not None:
            raise Conflict(
                f"contact {other.id} already has e-mail {new.email}",
                field="email",
                hint="use that contact, or convert a lead with livechat__convert_lead to merge them",
            )
    if new.archived and (old is None or not old.archived):
        busy = [c.id for c in ctx.where(Conversation, contact_id=new.id) if c.state != "closed"]
        if busy:
            raise RuleViolation(
                f"contact {new.id} has {len(busy)} conversation(s) not closed",
                field="contact_id",
                hint="close their conversations with livechat__close_conversation first",
            )


def _guard_note(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.body.strip():
        raise RuleViolation("a note needs text", field="body", hint="write the note")
    contact = ctx.get(Contact, new.contact_id, field="contact_id")
    if contact.archived:
        raise RuleViolation(f"contact {contact.id} is archived", field="contact_id", hint="pick a live contact")


def _guard_conversation(ctx: Ctx, new: Any, old: Any) -> None:
    if old.state == "closed":
        raise RuleViolation(
            f"conversation {old.id} is closed",
            field="conversation_id",
            hint="reopen it with livechat__open_conversation first",
        )


admins = service.resource(
    Admin,
    name="admin",
    plural="admins",
    prefix="adm",
    create=False,
    get=False,
    filters=("email", "away_mode"),
    search=("name", "email", "job_title"),
    update=("away_mode", "job_title"),
    delete=False,
    unique=("email",),
    title="teammate",
)
teams = service.resource(
    Team,
    name="team",
    plural="teams",
    prefix="team",
    create=False,
    get=False,
    filters=(),
    search=("name",),
    delete=False,
    unique=("name",),
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="ct",
    create=False,
    filters=("role", "email", "company_name", "country", "archived", "unsubscribed_from_emails"),
    search=("name", "email", "company_name"),
    update=("name", "email", "phone", "company_name", "city", "country", "unsubscribed_from_emails"),
    delete=False,
    transitions={
        "archive": Transition(
            "archived",
            (False,),
            True,
            "archive the contact",
            description="Archive a contact whose conversations are all closed; archived contacts cannot write "
            "or be messaged.",
        )
    },
    guard_update=_guard_contact,
)
conversations = service.resource(
    Conversation,
    name="conversation",
    plural="conversations",
    prefix="conv",
    create=False,
    filters=(
        "contact_id",
        "contact_email",
        "state",
        "channel",
        "admin_assignee_id",
        "team_assignee_id",
        "priority",
        "order_number",
    ),
    search=("subject",),
    update=("subject", "priority", "order_number"),
    delete=False,
    guard_update=_guard_conversation,
)
parts = service.resource(
    ConversationPart,
    name="conversation_part",
    plural="conversation_parts",
    prefix="part",
    create=False,
    get=False,
    filters=("conversation_id", "part_type", "author_type", "author_admin_id"),
    search=("body",),
    delete=False,
    title="conversation part",
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=("name",),
    get=False,
    filters=("name",),
    delete=False,
    unique=("name",),
)
notes = service.resource(
    Note,
    name="note",
    plural="notes",
    prefix="note",
    create=("contact_id", "admin_id", "body"),
    get=False,
    filters=("contact_id", "admin_id"),
    search=("body",),
    delete=False,
    guard_create=_guard_note,
    title="contact note",
)


def _part(ctx: Ctx, conv: Conversation, part_type: str, author: str, admin_id: str | None, body: str = "") -> None:
    ctx.create(
        ConversationPart,
        conversation_id=conv.id,
        part_type=part_type,
        author_type=author,
        author_admin_id=admin_id,
        body=body,
    )


def _assignable(ctx: Ctx, admin_id: str, field: str) -> Admin:
    admin = ctx.get(Admin, admin_id, field=field)
    if admin.away_mode:
        raise RuleViolation(
            f"teammate {admin.name} is away",
            field=field,
            hint="assign someone who is not away, or assign the team only",
        )
    return admin


def _live_contact(ctx: Ctx, contact: Contact, field: str) -> Contact:
    if contact.archived:
        raise RuleViolation(
            f"contact {contact.id} is archived",
            field=field,
            hint="archived contacts cannot write or be messaged",
        )
    return contact


def _contact_by_email(ctx: Ctx, email: str) -> Contact | None:
    return ctx.first(Contact, email=email, archived=False)


# -- examples ---------------------------------------------------------------------------------


def _admin(ctx: Ctx) -> Admin:
    return next(a for a in ctx.where(Admin, away_mode=False))


def _example_convert(ctx: Ctx) -> dict[str, Any] | None:
    for lead in ctx.where(Contact, role="lead", archived=False):
        return {"contact_id": lead.id, "email": lead.email or f"lead.{lead.id}@mailbox.net"}
    return None


def _example_start(ctx: Ctx) -> dict[str, Any]:
    user = next(c for c in ctx.where(Contact, role="user", archived=False) if c.email)
    return {"contact_email": user.email, "body": "Hi, my parcel has not arrived yet."}


def _example_send(ctx: Ctx) -> dict[str, Any]:
    user = next(c for c in ctx.where(Contact, role="user", archived=False, unsubscribed_from_emails=False) if c.email)
    return {
        "admin_id": _admin(ctx).id,
        "contact_email": user.email,
        "body": "Your replacement ships today.",
        "channel": "email",
        "subject": "Your replacement",
    }


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, state="open")
    if conv is None:
        return None
    return {"conversation_id": conv.id, "body": "Thanks, checking now.", "admin_id": _admin(ctx).id}


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, state="open")
    if conv is None:
        return None
    return {"conversation_id": conv.id, "admin_id": _admin(ctx).id, "assignee_id": _admin(ctx).id}


def _example_snooze(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, state="open")
    if conv is None:
        return None
    until = ctx.now() + dt.timedelta(days=1)
    return {"conversation_id": conv.id, "admin_id": _admin(ctx).id, "snoozed_until": until.isoformat()}


def _example_close(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, state="open")
    if conv is None:
        return None
    return {"conversation_id": conv.id, "admin_id": _admin(ctx).id, "body": "Glad we could help!"}


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, state="closed")
    return None if conv is None else {"conversation_id": conv.id, "admin_id": _admin(ctx).id}


def _example_tag(ctx: Ctx) -> dict[str, Any] | None:
    conv = ctx.first(Conversation, state="open")
    tag = next(iter(ctx.scan(Tag)), None)
    if conv is None or tag is None:
        return None
    return {"conversation_id": conv.id, "admin_id": _admin(ctx).id, "tag_name": tag.name}


# -- contacts ---------------------------------------------------------------------------------


@service.tool(
    intent="add a customer contact",
    write=True,
    example=fixed_example(role="lead", name="Visitor From Pricing", city="Lyon", country="FR"),
)
def create_contact(
    ctx: Ctx,
    role: Literal["user", "lead"],
    email: Email | None = None,
    name: PersonName | None = None,
    phone: Phone | None = None,
    company_name: CompanyName | None = None,
    city: City | None = None,
    country: Country | None = None,
) -> Contact:
    """Create a user or a lead.

    A user needs an e-mail address; a lead may be anonymous. No two live
    contacts share an e-mail.

    Args:
        role: user (signed up) or lead (a visitor or prospect).
        email: E-mail address; required for users.
        name: Full name.
        phone: Phone number.
        company_name: The company the contact works for.
        city: City.
        country: Country code.
    """
    if role == "user" and email is None:
        raise RuleViolation("a user needs an e-mail address", field="email", hint="pass email, or create a lead")
    other = _live_email_taken(ctx, email, None)
    if other is not None:
        raise Conflict(
            f"contact {other.id} already has e-mail {email}",
            field="email",
            hint="update that contact instead of creating another",
        )
    return ctx.create(
        Contact,
        role=role,
        email=email,
        name=name,
        phone=phone,
        company_name=company_name,
        city=city,
        country=country,
        signed_up_at=ctx.now() if role == "user" else None,
    )


class Conversion(BaseModel):
    """A lead turned into a user."""

    contact: Contact = Field(description="The resulting user.")
    merged: bool = Field(description="Whether the lead was merged into an existing user with that e-mail.")
    moved_conversation_ids: list[ConversationId] = Field(description="The lead's conversations now on the user.")


@service.tool(intent="convert the lead into a user", write=True, example=_example_convert)
def convert_lead(ctx: Ctx, contact_id: ContactId, email: Email) -> Conversion:
    """Turn a lead into a user with the given e-mail.

    If a live user already has that e-mail, the lead is merged into them: its
    conversations and notes move to the user and the lead is archived.

    Args:
        contact_id: The lead.
        email: The user's e-mail address.
    """
    lead = _live_contact(ctx, ctx.get(Contact, contact_id, field="contact_id"), "contact_id")
    if lead.role != "lead":
        raise RuleViolation(f"contact {lead.id} is already a user", field="contact_id", hint="only leads convert")
    other = _live_email_taken(ctx, email, lead.id)
    if other is not None and other.role == "lead":
        raise Conflict(
            f"lead {other.id} also has e-mail {email}",
            field="email",
            hint="convert that lead first, then merge this one into it",
        )
    if other is None:
        user = ctx.update(lead, role="user", email=email, signed_up_at=ctx.now())
        moved = [c.id for c in ctx.where(Conversation, contact_id=lead.id)]
        return Conversion(contact=user, merged=False, moved_conversation_ids=moved)
    moved = []
    for conv in ctx.where(Conversation, contact_id=lead.id):
        ctx.update(conv, contact_id=other.id, contact_email=email)
        moved.append(conv.id)
    for note in ctx.where(Note, contact_id=lead.id):
        ctx.update(note, contact_id=other.id)
    ctx.update(lead, archived=True)
    user = ctx.update(
        other,
        name=other.name or lead.name,
        phone=other.phone or lead.phone,
        company_name=other.company_name or lead.company_name,
    )
    return Conversion(contact=user, merged=True, moved_conversation_ids=moved)


# -- conversations ----------------------------------------------------------------------------


@service.tool(intent="start a conversation as the customer", write=True, example=_example_start)
def start_conversation(
    ctx: Ctx,
    contact_email: Email,
    body: Text,
    contact_name: PersonName | None = None,
    subject: Title | None = None,
    order_number: OrderNumber | None = None,
) -> Conversation:
    """A customer writes in through the messenger; an unknown e-mail becomes a new lead.

    Args:
        contact_email: E-mail of the customer writing in.
        body: The customer's message.
        contact_name: Name for a new lead when no contact has that e-mail.
        subject: Title of the conversation.
        order_number: The order the customer asks about.
    """
    if not body.strip():
        raise RuleViolation("the message is empty", field="body", hint="write a message")
    contact = _contact_by_email(ctx, contact_email)
    if contact is None:
        if ctx.first(Contact, email=contact_email) is not None:
            raise RuleViolation(
                f"the contact with e-mail {contact_email} is archived",
                field="contact_email",
                hint="archived contacts cannot write",
            )
        contact = ctx.create(Contact, role="lead", email=contact_email, name=contact_name)
    conv = ctx.create(
        Conversation,
        contact_id=contact.id,
        contact_email=contact_email,
        subject=subject,
        channel="chat",
        started_by="contact",
        order_number=order_number,
        waiting_since=ctx.now(),
        part_count=1,
    )
    _part(ctx, conv, "comment", "contact", None, body)
    return conv


@service.tool(intent="message the customer", write=True, example=_example_send)
def send_message(
    ctx: Ctx,
    admin_id: AdminId,
    contact_email: Email,
    body: Text,
    channel: Channel = "chat",
    subject: Title | None = None,
) -> Conversation:
    """A teammate starts a conversation with a contact, in the messenger or by e-mail.

    E-mail messages need a subject and go only to contacts who did not
    unsubscribe from e-mails. The conversation is assigned to the sender.

    Args:
        admin_id: The teammate sending it.
        contact_email: E-mail of the contact.
        body: The message.
        channel: chat or email.
        subject: Subject line; required for e-mail.
    """
    admin = ctx.get(Admin, admin_id, field="admin_id")
    contact = _contact_by_email(ctx, contact_email)
    if contact is None:
        raise NotFound(
            f"no live contact with e-mail {contact_email}",
            field="contact_email",
            hint="create the contact with livechat__create_contact first",
        )
    if not body.strip():
        raise RuleViolation("the message is empty", field="body", hint="write a message")
    if channel == "email":
        if contact.unsubscribed_from_emails:
            raise RuleViolation(
                f"{contact_email} unsubscribed from e-mails",
                field="contact_email",
                hint="send an in-app chat message instead (channel='chat')",
            )
        if subject is None:
            raise RuleViolation("an e-mail message needs a subject", field="subject", hint="pass a subject")
    conv = ctx.create(
        Conversation,
        contact_id=contact.id,
        contact_email=contact_email,
        subject=subject,
        channel=channel,
        started_by="admin",
        admin_assignee_id=admin.id,
        part_count=1,
    )
    _part(ctx, conv, "comment", "admin", admin.id, body)
    return conv


@service.tool(intent="reply in the conversation", write=True, example=_example_reply)
def reply_to_conversation(
    ctx: Ctx,
    conversation_id: ConversationId,
    body: Text,
    admin_id: AdminId | None = None,
    message_type: Literal["comment", "note"] = "comment",
) -> Conversation:
    """Add a message from a teammate (comment or internal note) or, without admin_id, from the contact.

    A contact's reply reopens a snoozed or closed conversation and marks it
    waiting; a teammate's comment answers it. A teammate cannot comment in a
    closed conversation (reopen it first) but can always add a note.

    Args:
        conversation_id: The conversation.
        body: The message.
        admin_id: The teammate writing; omit when the contact replies.
        message_type: comment (visible to the contact) or note (internal; teammates only).
    """
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    if not body.strip():
        raise RuleViolation("the message is empty", field="body", hint="write a message")
    count = conv.part_count + 1
    if admin_id is None:
        if message_type == "note":
            raise RuleViolation("contacts cannot write notes", field="message_type", hint="pass admin_id for a note")
        _live_contact(ctx, ctx.get(Contact, conv.contact_id), "conversation_id")
        _part(ctx, conv, "comment", "contact", None, body)
        return ctx.update(
            conv, state="open", snoozed_until=None, waiting_since=conv.waiting_since or ctx.now(), part_count=count
        )
    admin = ctx.get(Admin, admin_id, field="admin_id")
    if message_type == "note":
        _part(ctx, conv, "note", "admin", admin.id, body)
        return ctx.update(conv, part_count=count)
    if conv.state == "closed":
        raise RuleViolation(
            f"conversation {conv.id} is closed",
            field="conversation_id",
            hint="reopen it with livechat__open_conversation, or add a note instead",
        )
    _part(ctx, conv, "comment", "admin", admin.id, body)
    return ctx.update(conv, waiting_since=None, part_count=count)


@service.tool(intent="assign the conversation", write=True, example=_example_assign)
def assign_conversation(
    ctx: Ctx,
    conversation_id: ConversationId,
    admin_id: AdminId,
    assignee_id: AdminId | None = None,
    team_id: TeamId | None = None,
) -> Conversation:
    """Assign a conversation to a teammate, a team, or both.

    Away teammates cannot be assigned; a teammate assigned along with a team
    must be a member of it. Closed conversations cannot be assigned.

    Args:
        conversation_id: The conversation.
        admin_id: The teammate making the assignment.
        assignee_id: The teammate to assign.
        team_id: The team to assign.
    """
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    ctx.get(Admin, admin_id, field="admin_id")
    if assignee_id is None and team_id is None:
        raise RuleViolation("nobody to assign", field="assignee_id", hint="pass assignee_id, team_id or both")
    if conv.state == "closed":
        raise RuleViolation(
            f"conversation {conv.id} is closed",
            field="conversation_id",
            hint="reopen it with livechat__open_conversation first",
        )
    assignee = _assignable(ctx, assignee_id, "assignee_id") if assignee_id else None
    team = ctx.get(Team, team_id, field="team_id") if team_id else None
    if team is not None and assignee is not None and assignee.id not in team.admin_ids:
        raise RuleViolation(
            f"{assignee.name} is not a member of team {team.name}",
            field="assignee_id",
            hint="assign a member of the team, or assign the team alone",
        )
    changes: dict[str, Any] = {"part_count": conv.part_count + 1}
    if team is not None:
        changes["team_assignee_id"] = team.id
        changes["admin_assignee_id"] = assignee.id if assignee else None
    else:
        changes["admin_assignee_id"] = assignee.id if assignee else conv.admin_assignee_id
    body = f"Assigned to {assignee.name if assignee else ''}{' / ' if assignee and team else ''}{team.name if team else ''}"
    _part(ctx, conv, "assignment", "admin", admin_id, body)
    return ctx.update(conv, **changes)


@service.tool(intent="snooze the conversation", write=True, example=_example_snooze)
def snooze_conversation(
    ctx: Ctx, conversation_id: ConversationId, admin_id: AdminId, snoozed_until: DateTime
) -> Conversation:
    """Snooze an open conversation until a future time.

    Args:
        conversation_id: The conversation.
        admin_id: The teammate snoozing it.
        snoozed_until: When it wakes up; must be in the future.
    """
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    ctx.get(Admin, admin_id, field="admin_id")
    if conv.state != "open":
        raise RuleViolation(
            f"conversation {conv.id} is {conv.state}; only open conversations are snoozed",
            field="conversation_id",
            hint="reopen it first" if conv.state == "closed" else "it is already snoozed",
        )
    if snoozed_until <= ctx.now():
        raise RuleViolation("snooze until a future time", field="snoozed_until", hint="pick a later time")
    _part(ctx, conv, "snoozed", "admin", admin_id, f"Snoozed until {snoozed_until.isoformat()}")
    return ctx.update(conv, state="snoozed", snoozed_until=snoozed_until, part_count=conv.part_count + 1)


@service.tool(intent="close the conversation", write=True, example=_example_close)
def close_conversation(
    ctx: Ctx, conversation_id: ConversationId, admin_id: AdminId, body: Text | None = None
) -> Conversation:
    """Close an open or snoozed conversation, optionally with a closing reply.

    A conversation whose customer is waiting for an answer needs a closing reply.

    Args:
        conversation_id: The conversation.
        admin_id: The teammate closing it.
        body: A closing reply to the contact.
    """
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    ctx.get(Admin, admin_id, field="admin_id")
    if conv.state == "closed":
        raise Conflict(f"conversation {conv.id} is already closed", field="conversation_id", hint="nothing to do")
    reply = (body or "").strip()
    if conv.waiting_since is not None and not reply:
        raise RuleViolation(
            f"the customer is waiting for an answer in conversation {conv.id}",
            field="body",
            hint="close with a reply in body, or answer first",
        )
    count = conv.part_count
    if reply:
        _part(ctx, conv, "comment", "admin", admin_id, reply)
        count += 1
    _part(ctx, conv, "close", "admin", admin_id)
    return ctx.update(
        conv,
        state="closed",
        snoozed_until=None,
        waiting_since=None,
        part_count=count + 1,
        admin_assignee_id=conv.admin_assignee_id or admin_id,
    )


@service.tool(intent="reopen the conversation", write=True, example=_example_open)
def open_conversation(ctx: Ctx, conversation_id: ConversationId, admin_id: AdminId) -> Conversation:
    """Reopen a closed conversation or wake a snoozed one.

    Args:
        conversation_id: The conversation.
        admin_id: The teammate opening it.
    """
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    ctx.get(Admin, admin_id, field="admin_id")
    if conv.state == "open":
        raise RuleViolation(f"conversation {conv.id} is already open", field="conversation_id", hint="nothing to do")
    _part(ctx, conv, "open", "admin", admin_id)
    return ctx.update(conv, state="open", snoozed_until=None, part_count=conv.part_count + 1)


@service.tool(intent="tag the conversation", write=True, idempotent=True, example=_example_tag)
def tag_conversation(
    ctx: Ctx, conversation_id: ConversationId, admin_id: AdminId, tag_name: TagName, remove: bool = False
) -> Conversation:
    """Add an existing tag to a conversation, or remove it.

    Args:
        conversation_id: The conversation.
        admin_id: The teammate tagging.
        tag_name: Name of the tag (create it with livechat__create_tag first).
        remove: True to remove the tag instead.
    """
    conv = ctx.get(Conversation, conversation_id, field="conversation_id")
    ctx.get(Admin, admin_id, field="admin_id")
    if ctx.first(Tag, name=tag_name) is None:
        raise NotFound(f"no tag named {tag_name!r}", field="tag_name", hint="create it with livechat__create_tag")
    current = set(conv.tags)
    new = current - {tag_name} if remove else current | {tag_name}
    if new == current:
        return conv
    return ctx.update(conv, tags=tuple(sorted(new)))


class Workload(BaseModel):
    """One teammate's share of an inbox."""

    admin_id: AdminId | None = Field(description="The teammate; null for unassigned conversations.")
    email: Email | None = Field(description="The teammate's e-mail.")
    open: int = Field(description="Open conversations.")
    snoozed: int = Field(description="Snoozed conversations.")
    waiting: int = Field(description="Open conversations whose customer awaits an answer.")


class InboxSummary(BaseModel):
    """Open work in an inbox (the whole workspace or one team's)."""

    team_id: TeamId | None = Field(description="The team, or null for every conversation.")
    open: int = Field(description="Open conversations.")
    snoozed: int = Field(description="Snoozed conversations.")
    waiting: int = Field(description="Open conversations awaiting an answer.")
    longest_wait_minutes: int = Field(description="How long the longest-waiting customer has waited.")
    longest_waiting_conversation_id: ConversationId | None = Field(description="That conversation.")
    by_admin: list[Workload] = Field(description="Open and snoozed work per assignee, unassigned first.")


@service.tool(intent="summarise the inbox")
def inbox_summary(ctx: Ctx, team_id: TeamId | None = None) -> InboxSummary:
    """Count open, snoozed and waiting conversations, per assignee, for the workspace or one team.

    Args:
        team_id: Only conversations assigned to this team.
    """
    convs = ctx.where(Conversation, team_assignee_id=team_id) if team_id else list(ctx.scan(Conversation))
    now = ctx.now()
    per: dict[str | None, list[int]] = {}
    longest = -1
    longest_id: str | None = None
    totals = [0, 0, 0]
    for c in convs:
        if c.state == "closed":
            continue
        row = per.setdefault(c.admin_assignee_id, [0, 0, 0])
        k = 0 if c.state == "open" else 1
        row[k] += 1
        totals[k] += 1
        if c.state == "open" and c.waiting_since is not None:
            row[2] += 1
            totals[2] += 1
            wait = int((now - c.waiting_since).total_seconds() // 60)
            if wait > longest:
                longest, longest_id = wait, c.id
    rows = []
    for aid in sorted(per, key=lambda a: (a is not None, a or "")):
        email = ctx.get(Admin, aid).email if aid else None
        o, s, w = per[aid]
        rows.append(Workload(admin_id=aid, email=email, open=o, snoozed=s, waiting=w))
    return InboxSummary(
        team_id=team_id,
        open=totals[0],
        snoozed=totals[1],
        waiting=totals[2],
        longest_wait_minutes=max(longest, 0),
        longest_waiting_conversation_id=longest_id,
        by_admin=rows,
    )


# -- seed -------------------------------------------------------------------------------------

TAGS = ("vip", "billing", "bug", "feature request", "order issue", "churn risk", "shipping")
OPENERS = (
    ("Where is my order?", "Hi! My order {order} still hasn't arrived. Can you check?", "shipping"),
    ("Wrong size", "I received the wrong size in order {order}. How do I exchange it?", "order issue"),
    ("Invoice question", "Could you resend the invoice for my last purchase?", "billing"),
    ("App keeps crashing", "The app crashes whenever I open my account page.", "bug"),
    ("Dark mode?", "Any plans for a dark mode? Would love it.", "feature request"),
    ("Cancel my account", "I'd like to cancel, the price went up too much.", "churn risk"),
)
REPLIES = (
    "Thanks for reaching out! Let me look into that for you.",
    "I've checked with the warehouse, it's on its way.",
    "Sorry about that - I've started an exchange for you.",
    "I've passed this to our product team.",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Support and Sales staff as teammates, customers and prospects as contacts, conversations in every state."""
    adms, support, team_support = _seed_teammates(s)
    for name in TAGS:
        s.create(Tag, name=name)
    people = _seed_contacts(s)
    present = [a for a in support if not a.away_mode] or adms
    plan: tuple[ConvState, ...] = ("open", "open", "closed", "snoozed", "closed", "open", "closed")
    for k in range(48):
        contact, order = people[(k * 5) % len(people)]
        state = plan[k % len(plan)]
        assignee = None if (state == "open" and k % 3 == 0) else present[k % len(present)]
        _seed_conversation(s, k, contact, order, state, assignee, team_support)


def _seed_teammates(s: SeedContext) -> tuple[list[Admin], list[Admin], Team]:
    """Support and Sales staff (every sixth away) in their teams; every admin, the support ones, their team."""
    pop = s.population
    staff = pop.staff("Support", "Sales", fallback=8)
    adms = [
        s.create(Admin, name=p.name, email=p.email, job_title=p.job_title, away_mode=i % 6 == 5)
        for i, p in enumerate(staff)
    ]
    support = [a for a, p in zip(adms, staff, strict=True) if p.department == "Support"] or adms
    sales = [a for a, p in zip(adms, staff, strict=True) if p.department == "Sales"] or adms
    team_support = s.create(Team, name="Customer Support", admin_ids=tuple(a.id for a in support))
    s.create(Team, name="Sales", admin_ids=tuple(a.id for a in sales))
    s.create(Team, name="Billing", admin_ids=tuple(a.id for a in support[::2]))
    return adms, support, team_support


def _seed_contacts(s: SeedContext) -> list[tuple[Contact, str | None]]:
    """Consumers as users, business contacts as users or leads, and a few anonymous visitors.

    Returns:
        The consumers' contacts, each with the number of their first shop order, if they placed one.
    """
    pop, now = s.population, s.now
    orders = commerce.first_order_numbers(pop)
    people: list[tuple[Contact, str | None]] = []
    for i, p in enumerate(pop.consumers):
        c = s.create(
            Contact,
            role="user",
            name=p.name,
            email=p.email,
            phone=p.phone if i % 3 else None,
            city=p.place.city,
            country=p.place.country,
            unsubscribed_from_emails=i % 7 == 3,
            signed_up_at=now - dt.timedelta(days=30 + 11 * i),
            created_at=now - dt.timedelta(days=30 + 11 * i),
        )
        people.append((c, orders.get(p.email)))
    for i, p in enumerate(pop.contacts):
        company = pop.company_of(p)
        s.create(
            Contact,
            role="lead" if i % 3 == 0 else "user",
            name=p.name,
            email=p.email,
            phone=p.phone,
            company_name=company.name if company else None,
            city=p.place.city,
            country=p.place.country,
            signed_up_at=None if i % 3 == 0 else now - dt.timedelta(days=90 + i),
            created_at=now - dt.timedelta(days=90 + i),
        )
    for k, place in enumerate(pop.places[:4]):
        s.create(
            Contact, role="lead", city=place.city, country=place.country, created_at=now - dt.timedelta(hours=k + 1)
        )
    return people


def _seed_conversation(
    s: SeedContext,
    k: int,
    contact: Contact,
    order: str | None,
    state: ConvState,
    assignee: Admin | None,
    team_support: Team,
) -> None:
    """The k-th conversation: the customer's opener, the assignee's reply and close, sometimes a note."""
    now = s.now
    subject, body, tag = OPENERS[k % len(OPENERS)]
    if order is None and "{order}" in body:
        subject, body, tag = OPENERS[2]
    created = s.ago(hours=s.rng.randint(2, 24 * 20))
    answered = state != "open" or k % 2 == 0
    n_parts = 1
    conv = s.create(
        Conversation,
        contact_id=contact.id,
        contact_email=contact.email,
        subject=subject,
        channel="chat" if k % 4 else "email",
        started_by="contact",
        state=state,
        snoozed_until=now + dt.timedelta(hours=6 + k) if state == "snoozed" else None,
        admin_assignee_id=assignee.id if assignee else None,
        team_assignee_id=team_support.id if assignee or k % 2 else None,
        priority=k % 9 == 0,
        order_number=order if "{order}" in body else None,
        tags=(tag,) if k % 2 == 0 else (),
        waiting_since=None if answered else created,
        created_at=created,
        updated_at=created + dt.timedelta(minutes=20),
    )
    s.create(
        ConversationPart,
        conversation_id=conv.id,
        part_type="comment",
        author_type="contact",
        body=body.format(order=order or ""),
        created_at=created,
    )
    if answered and assignee is not None:
        n_parts += 1
        s.create(
            ConversationPart,
            conversation_id=conv.id,
            part_type="comment",
            author_type="admin",
            author_admin_id=assignee.id,
            body=REPLIES[k % len(REPLIES)],
            created_at=created + dt.timedelta(minutes=15),
        )
    if state == "closed" and assignee is not None:
        n_parts += 1
        s.create(
            ConversationPart,
            conversation_id=conv.id,
            part_type="close",
            author_type="admin",
            author_admin_id=assignee.id,
            created_at=created + dt.timedelta(minutes=20),
        )
    s.update(conv, part_count=n_parts)
    if k % 6 == 1 and assignee is not None:
        s.create(
            Note,
            contact_id=contact.id,
            admin_id=assignee.id,
            body="Long-time customer; offer a goodwill voucher if needed.",
            created_at=created + dt.timedelta(minutes=30),
        )
