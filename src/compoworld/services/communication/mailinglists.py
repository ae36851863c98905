"""Listhub: mailing lists with members, roles, delivery modes, moderation queues, digests and bans.

Modeled on the Groups.io API (``/creategroup``, ``/getgroup``,
``/updategroup``, ``/directadd``, ``/approvemember``, ``/removemembers``,
``/updatemember`` with ``email_delivery`` single / digest / summary / none,
``mod_status`` and ``user_status``, ``/banmembers``, ``/postmessage``,
``/getpendingmessages``, ``/approvepending``, ``/rejectpending``, topics and
digests): groups with a privacy (open, restricted, private), a message
moderation policy (none, new members, all) and a size limit; members with a
role (owner, moderator, member), a delivery mode and a status (pending or
active); messages that are approved, pending or rejected, threaded in topics;
bans; and digests that gather the approved messages since the last one for
members on digest delivery.

Joining a restricted group waits for a moderator's approval; a banned
address cannot join or post; only active members post, and their messages are
held for moderation when the group moderates all messages, or when it
moderates new members and the member is still moderated. Approving a
member's first pending message lifts their moderation. Only owners and
moderators approve, reject and ban; only owners change roles, and a group
keeps at least one owner. A digest needs new approved messages.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.lists import require_employee

__all__ = ["service"]

service = Service(
    "mailinglists",
    title="Listhub",
    category="mailing_lists",
    modeled_on="Groups.io API: groups (privacy, moderation, limits), members (role, email_delivery, mod_status, "
    "pending approval), bans, post message, pending messages approve/reject, topics, digests",
    description="E-mail discussion lists for communities, customers and teams: groups with privacy and moderation "
    "settings, members with roles and delivery modes, messages and their topics, the moderation queue, digests "
    "and banned addresses.",
)

GroupId = Annotated[str, IdOf("mailinglists.group")]
MemberId = Annotated[str, IdOf("mailinglists.member")]
MessageId = Annotated[str, IdOf("mailinglists.message")]
BanId = Annotated[str, IdOf("mailinglists.ban")]
DigestId = Annotated[str, IdOf("mailinglists.digest")]

GroupName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{1,49}$")]
"""A group's address name (name@lists.domain)."""
Role = Literal["owner", "moderator", "member"]
Delivery = Literal["single", "digest", "summary", "none"]
Moderation = Literal["none", "new_members", "all"]
MessageStatus = Literal["approved", "pending", "rejected"]


class Group(Record):
    """A mailing list."""

    id: GroupId
    name: GroupName
    """Its unique address name."""
    title: Title
    """Its display title."""
    description: Text = ""
    """What it is for."""
    privacy: Literal["open", "restricted", "private"] = "restricted"
    """open (anyone joins), restricted (moderators approve joins) or private (invite only)."""
    moderation: Moderation = "new_members"
    """none, new_members or all."""
    max_message_kb: Annotated[int, Field(ge=10, le=30000)] = 2048
    """Largest message accepted."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Member(Record):
    """A subscription of an address to a group."""

    id: MemberId
    group_id: GroupId
    """The group."""
    email: Email
    """The member's address."""
    name: PersonName
    """Their display name."""
    role: Role = "member"
    """owner, moderator or member."""
    delivery: Delivery = "single"
    """single (each message), digest, summary or none (web only)."""
    status: Literal["pending", "active"] = "active"
    """pending (awaiting approval) or active."""
    moderated: bool = True
    """Whether their messages are held (new members)."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Message(Record):
    """A message posted to a group."""

    id: MessageId
    group_id: GroupId
    """The group."""
    sender_email: Email
    """Who posted it."""
    subject: Title
    """Its subject."""
    body: Text
    """Its text."""
    size_kb: Annotated[int, Field(ge=1, le=30000)] = 4
    """Its size with attachments."""
    topic_id: MessageId | None = None
    """The first message of its topic (none: it starts one)."""
    status: MessageStatus = "approved"
    """approved, pending (in the moderation queue) or rejected."""
    moderator_email: Email | None = None
    """Who approved or rejected it."""
    reject_reason: Text = ""
    """Why it was rejected."""
    digested: bool = False
    """Whether a digest has included it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Ban(Record):
    """An address banned from a group."""

    id: BanId
    group_id: GroupId
    """The group."""
    email: Email
    """The banned address."""
    reason: Text
    """Why."""
    banned_by: Email
    """The moderator who banned it."""
    created_at: Annotated[DateTime, CREATED]
    """When."""


class Digest(Record):
    """A digest e-mail of a group's recent messages."""

    id: DigestId
    group_id: GroupId
    """The group."""
    message_ids: tuple[MessageId, ...]
    """The messages it gathers."""
    recipients: tuple[Email, ...]
    """Members on digest delivery it went to."""
    sent_at: DateTime
    """When it went out."""


# -- rules ------------------------------------------------------------------------------------


def _role_of(ctx: Ctx, group_id: str, email: str) -> str | None:
    m = ctx.first(Member, group_id=group_id, email=email)
    return None if m is None or m.status != "active" else m.role


def _mod(ctx: Ctx, group_id: str, email: str, field: str) -> None:
    if _role_of(ctx, group_id, email) not in ("owner", "moderator"):
        raise RuleViolation(f"{email} is not a moderator of the group", field=field, hint="ask an owner or moderator")


def _guard_member_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.role == "owner" and len(ctx.where(Member, group_id=old.group_id, role="owner")) == 1:
        raise RuleViolation("a group keeps one owner", field="member_id", hint="make another member owner first")


groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=False,
    filters=("name", "privacy", "moderation"),
    search=("name", "title", "description"),
    update=("title", "description", "privacy", "moderation", "max_message_kb"),
    delete=False,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    filters=("group_id", "email", "role", "delivery", "status"),
    search=("name", "email"),
    update=("delivery", "name"),
    guard_delete=_guard_member_delete,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=("group_id", "sender_email", "status", "topic_id"),
    search=("subject", "body"),
    delete=False,
)
bans = service.resource(
    Ban, name="ban", plural="bans", prefix="ban", create=False, get=False, filters=("group_id", "email")
)
digests = service.resource(
    Digest, name="digest", plural="digests", prefix="dig", create=False, filters=("group_id",), delete=False
)


# -- domain tools -----------------------------------------------------------------------------


def _example_group(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "beta-testers", "title": "Beta testers", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create the mailing list", write=True, example=_example_group)
def create_group(
    ctx: Ctx,
    name: GroupName,
    title: Title,
    owner_email: Email,
    description: Text = "",
    privacy: Literal["open", "restricted", "private"] = "restricted",
    moderation: Moderation = "new_members",
) -> Group:
    """Create a group with a unique address name; the employee creating it becomes its owner.

    Args:
        name: Its address name: lower-case letters, digits and hyphens.
        title: Its display title.
        owner_email: The employee who owns it.
        description: What it is for.
        privacy: open, restricted or private.
        moderation: none, new_members or all.
    """
    owner = require_employee(ctx, owner_email, field="owner_email", hint="groups are created by staff")
    if ctx.first(Group, name=name) is not None:
        raise Conflict(f"group {name} exists", field="name", hint="pick another name")
    g = ctx.create(Group, name=name, title=title, description=description, privacy=privacy, moderation=moderation)
    ctx.create(Member, group_id=g.id, email=owner_email, name=owner.name, role="owner", moderated=False)
    return g


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Group, privacy="restricted")
    if g is None:
        return None
    taken = {m.email for m in ctx.where(Member, group_id=g.id)} | {b.email for b in ctx.where(Ban, group_id=g.id)}
    p = next((p for p in ctx.population.consumers if p.email not in taken), None)
    return None if p is None else {"group_id": g.id, "email": p.email, "name": p.name}


@service.tool(intent="join the mailing list", write=True, example=_example_join)
def join_group(ctx: Ctx, group_id: GroupId, email: Email, name: PersonName, delivery: Delivery = "single") -> Member:
    """Subscribe an address: active at once in open groups, pending a moderator in restricted ones.

    Args:
        group_id: The group.
        email: The address subscribing.
        name: Their display name.
        delivery: single, digest, summary or none.
    """
    g = ctx.get(Group, group_id, field="group_id")
    if g.privacy == "private":
        raise RuleViolation("the group is invitation only", field="group_id", hint="ask a moderator to add you")
    if ctx.first(Ban, group_id=g.id, email=email) is not None:
        raise RuleViolation(f"{email} is banned from {g.name}", field="email", hint="contact the group owner")
    if ctx.first(Member, group_id=g.id, email=email) is not None:
        raise Conflict(f"{email} is already subscribed", field="email", hint="change the delivery instead")
    status = "active" if g.privacy == "open" else "pending"
    return ctx.create(Member, group_id=g.id, email=email, name=name, delivery=delivery, status=status)


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Group, privacy="private")
    owner = None if g is None else ctx.first(Member, group_id=g.id, role="owner")
    if g is None or owner is None:
        return None
    taken = {m.email for m in ctx.where(Member, group_id=g.id)}
    p = next((p for p in ctx.population.employees if p.email not in taken), None)
    return None if p is None else {"group_id": g.id, "email": p.email, "name": p.name, "added_by": owner.email}


@service.tool(intent="add a member to the mailing list", write=True, example=_example_add)
def add_member(
    ctx: Ctx, group_id: GroupId, email: Email, name: PersonName, added_by: Email, role: Role = "member"
) -> Member:
    """Add an address directly as an active member (moderators; owners only for owner or moderator roles).

    Args:
        group_id: The group.
        email: The address.
        name: Their display name.
        added_by: A moderator or owner.
        role: owner, moderator or member.
    """
    g = ctx.get(Group, group_id, field="group_id")
    _mod(ctx, g.id, added_by, "added_by")
    if role != "member" and _role_of(ctx, g.id, added_by) != "owner":
        raise RuleViolation("only owners grant roles", field="role", hint="add as member")
    if ctx.first(Ban, group_id=g.id, email=email) is not None:
        raise RuleViolation(f"{email} is banned", field="email", hint="unban it first")
    if ctx.first(Member, group_id=g.id, email=email) is not None:
        raise Conflict(f"{email} is already a member", field="email", hint="nothing to do")
    return ctx.create(Member, group_id=g.id, email=email, name=name, role=role, moderated=role == "member")


def _example_approve_member(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, status="pending")
    mod = None if m is None else ctx.first(Member, group_id=m.group_id, role="moderator")
    return None if m is None or mod is None else {"member_id": m.id, "moderator_email": mod.email}


@service.tool(intent="approve the pending member", write=True, example=_example_approve_member)
def approve_member(ctx: Ctx, member_id: MemberId, moderator_email: Email) -> Member:
    """Approve a pending subscription (moderators and owners).

    Args:
        member_id: The pending member.
        moderator_email: A moderator or owner of the group.
    """
    m = ctx.get(Member, member_id, field="member_id")
    _mod(ctx, m.group_id, moderator_email, "moderator_email")
    if m.status != "pending":
        raise Conflict(f"{m.email} is already active", field="member_id", hint="nothing to approve")
    return ctx.update(m, status="active")


def _example_role(ctx: Ctx) -> dict[str, Any] | None:
    owner = ctx.first(Member, role="owner")
    m = None if owner is None else ctx.first(Member, group_id=owner.group_id, role="member", status="active")
    return None if owner is None or m is None else {"member_id": m.id, "role": "moderator", "owner_email": owner.email}


@service.tool(intent="change the member's role", write=True, example=_example_role)
def set_role(ctx: Ctx, member_id: MemberId, role: Role, owner_email: Email) -> Member:
    """Make an active member owner, moderator or plain member (owners only; one owner must remain).

    Args:
        member_id: The member.
        role: owner, moderator or member.
        owner_email: An owner of the group.
    """
    m = ctx.get(Member, member_id, field="member_id")
    if _role_of(ctx, m.group_id, owner_email) != "owner":
        raise RuleViolation(f"{owner_email} is not an owner", field="owner_email", hint="ask an owner")
    if m.status != "active":
        raise RuleViolation("approve the member first", field="member_id", hint="pending members get no role")
    if m.role == role:
        raise Conflict(f"{m.email} is already {role}", field="role", hint="nothing to do")
    if m.role == "owner" and len(ctx.where(Member, group_id=m.group_id, role="owner")) == 1:
        raise RuleViolation("a group keeps one owner", field="role", hint="make another member owner first")
    return ctx.update(m, role=role, moderated=False if role != "member" else m.moderated)


def _example_post(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, status="active", role="member")
    return (
        None if m is None else {"group_id": m.group_id, "sender_email": m.email, "subject": "Hello", "body": "Hi all"}
    )


@service.tool(intent="post a message to the mailing list", write=True, example=_example_post)
def post_message(
    ctx: Ctx,
    group_id: GroupId,
    sender_email: Email,
    subject: Title,
    body: Text,
    reply_to_message_id: MessageId | None = None,
    size_kb: Annotated[int, Field(ge=1, le=30000)] = 4,
) -> Message:
    """Post as an active, unbanned member; the message is held when the group or the member is moderated.

    Args:
        group_id: The group.
        sender_email: The member posting.
        subject: Its subject.
        body: Its text.
        reply_to_message_id: A message of the group to reply to (joins its topic).
        size_kb: Size with attachments.
    """
    g = ctx.get(Group, group_id, field="group_id")
    if ctx.first(Ban, group_id=g.id, email=sender_email) is not None:
        raise RuleViolation(f"{sender_email} is banned", field="sender_email", hint="contact the group owner")
    m = ctx.first(Member, group_id=g.id, email=sender_email)
    if m is None or m.status != "active":
        raise RuleViolation(
            f"{sender_email} is not an active member", field="sender_email", hint="join the group first"
        )
    if size_kb > g.max_message_kb:
        raise RuleViolation(f"the group takes {g.max_message_kb} KB at most", field="size_kb", hint="drop attachments")
    topic = None
    if reply_to_message_id is not None:
        parent = ctx.get(Message, reply_to_message_id, field="reply_to_message_id")
        if parent.group_id != g.id or parent.status != "approved":
            raise RuleViolation(
                "reply to an approved message of this group",
                field="reply_to_message_id",
                hint="list the group's messages",
            )
        topic = parent.topic_id or parent.id
    held = m.role == "member" and (g.moderation == "all" or (g.moderation == "new_members" and m.moderated))
    return ctx.create(
        Message,
        group_id=g.id,
        sender_email=sender_email,
        subject=subject,
        body=body,
        size_kb=size_kb,
        topic_id=topic,
        status="pending" if held else "approved",
    )


def _example_moderate(ctx: Ctx) -> dict[str, Any] | None:
    msg = ctx.first(Message, status="pending")
    mod = None if msg is None else ctx.first(Member, group_id=msg.group_id, role="moderator")
    return None if msg is None or mod is None else {"message_id": msg.id, "moderator_email": mod.email}


def _pending(ctx: Ctx, message_id: str, moderator_email: str) -> Message:
    msg = ctx.get(Message, message_id, field="message_id")
    _mod(ctx, msg.group_id, moderator_email, "moderator_email")
    if msg.status != "pending":
        raise Conflict(f"the message is {msg.status}", field="message_id", hint="moderate pending messages")
    return msg


@service.tool(intent="approve the pending message", write=True, example=_example_moderate)
def approve_message(ctx: Ctx, message_id: MessageId, moderator_email: Email, unmoderate_sender: bool = True) -> Message:
    """Approve a held message; by default its sender is no longer moderated.

    Args:
        message_id: The pending message.
        moderator_email: A moderator or owner.
        unmoderate_sender: Lift the sender's moderation.
    """
    msg = _pending(ctx, message_id, moderator_email)
    m = ctx.first(Member, group_id=msg.group_id, email=msg.sender_email)
    if unmoderate_sender and m is not None and m.moderated:
        ctx.update(m, moderated=False)
    return ctx.update(msg, status="approved", moderator_email=moderator_email)


@service.tool(intent="reject the pending message", write=True, example=_example_moderate)
def reject_message(ctx: Ctx, message_id: MessageId, moderator_email: Email, reason: Text = "") -> Message:
    """Reject a held message with an optional reason to its sender.

    Args:
        message_id: The pending message.
        moderator_email: A moderator or owner.
        reason: Why.
    """
    msg = _pending(ctx, message_id, moderator_email)
    return ctx.update(msg, status="rejected", moderator_email=moderator_email, reject_reason=reason)


def _example_ban(ctx: Ctx) -> dict[str, Any] | None:
    for mod in ctx.where(Member, role="moderator"):
        target = ctx.first(Member, group_id=mod.group_id, role="member")
        if target is not None:
            return {"group_id": mod.group_id, "email": target.email, "reason": "Spam", "moderator_email": mod.email}
    return None


@service.tool(intent="ban the address from the mailing list", write=True, example=_example_ban)
def ban_member(ctx: Ctx, group_id: GroupId, email: Email, reason: Text, moderator_email: Email) -> Ban:
    """Ban an address (moderators): it is unsubscribed, its pending messages rejected, and it cannot rejoin.

    Args:
        group_id: The group.
        email: The address to ban.
        reason: Why.
        moderator_email: A moderator or owner.
    """
    g = ctx.get(Group, group_id, field="group_id")
    _mod(ctx, g.id, moderator_email, "moderator_email")
    if ctx.first(Ban, group_id=g.id, email=email) is not None:
        raise Conflict(f"{email} is already banned", field="email", hint="nothing to do")
    m = ctx.first(Member, group_id=g.id, email=email)
    if m is not None:
        if m.role != "member":
            raise RuleViolation("owners and moderators cannot be banned", field="email", hint="change their role first")
        ctx.delete(m)
    for msg in ctx.where(Message, group_id=g.id, sender_email=email, status="pending"):
        ctx.update(msg, status="rejected", moderator_email=moderator_email, reject_reason="banned")
    return ctx.create(Ban, group_id=g.id, email=email, reason=reason, banned_by=moderator_email)


def _example_digest(ctx: Ctx) -> dict[str, Any] | None:
    msg = ctx.first(Message, status="approved", digested=False)
    return None if msg is None else {"group_id": msg.group_id}


@service.tool(intent="send the group's digest", write=True, example=_example_digest)
def send_digest(ctx: Ctx, group_id: GroupId) -> Digest:
    """Gather the approved messages not yet in a digest and send them to members on digest delivery.

    Args:
        group_id: The group.
    """
    g = ctx.get(Group, group_id, field="group_id")
    fresh = ctx.where(Message, group_id=g.id, status="approved", digested=False)
    if not fresh:
        raise RuleViolation("no new messages since the last digest", field="group_id", hint="wait for new messages")
    readers = tuple(m.email for m in ctx.where(Member, group_id=g.id, delivery="digest", status="active"))
    for msg in fresh:
        ctx.update(msg, digested=True)
    return ctx.create(
        Digest, group_id=g.id, message_ids=tuple(m.id for m in fresh), recipients=readers, sent_at=ctx.now()
    )


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """A customer community list, a staff announcements list and a private partner list, with traffic and a ban."""
    pop = s.population
    staff = list(pop.employees)
    specs = (
        ("user-community", f"{pop.home.name} user community", "open", "new_members"),
        ("announcements", "Company announcements", "restricted", "all"),
        ("partners", "Partner programme", "private", "none"),
    )
    for k, (name, title, privacy, moderation) in enumerate(specs):
        g = s.create(
            Group,
            name=name,
            title=title,
            privacy=privacy,
            moderation=moderation,
            created_at=s.ago(days=400 - 90 * k),
            updated_at=s.ago(days=30),
        )
        owner, mod = staff[k], staff[k + 5]
        s.create(
            Member,
            group_id=g.id,
            email=owner.email,
            name=owner.name,
            role="owner",
            moderated=False,
            created_at=g.created_at,
        )
        s.create(
            Member,
            group_id=g.id,
            email=mod.email,
            name=mod.name,
            role="moderator",
            moderated=False,
            created_at=g.created_at,
        )
        if k == 0:
            people = list(pop.consumers[:10])
        elif k == 1:
            people = staff[10:20]
        else:
            people = [p for p in pop.contacts[:6]]
        made = []
        for j, p in enumerate(people):
            made.append(
                s.create(
                    Member,
                    group_id=g.id,
                    email=p.email,
                    name=p.name,
                    delivery=("single", "digest", "summary", "none")[j % 4],
                    status="pending" if (k == 1 and j >= 8) else "active",
                    moderated=j >= 5,
                    created_at=s.ago(days=200 - j),
                )
            )
        first = s.create(
            Message,
            group_id=g.id,
            sender_email=owner.email,
            subject=f"Welcome to {title}",
            body="Introduce yourselves!",
            digested=True,
            created_at=s.ago(days=60),
        )
        readers = tuple(m.email for m in made if m.delivery == "digest" and m.status == "active")
        s.create(Digest, group_id=g.id, message_ids=(first.id,), recipients=readers, sent_at=s.ago(days=59))
        for j, m in enumerate(made[:6]):
            status: MessageStatus = "pending" if m.moderated or k == 1 else "approved"
            if m.status != "active":
                continue
            s.create(
                Message,
                group_id=g.id,
                sender_email=m.email,
                subject=f"Re: Welcome to {title}",
                body=f"Hello from {m.name}.",
                topic_id=first.id,
                status=status,
                created_at=s.ago(days=10 - j),
            )
        if k == 0:
            spam = pop.consumers[20]
            s.create(
                Ban,
                group_id=g.id,
                email=spam.email,
                reason="Repeated spam links.",
                banned_by=mod.email,
                created_at=s.ago(days=40),
            )
