"""Hive Chat: the company's workspace of channels, direct messages, threads, reactions and pins.

Modeled on the Slack Web API (users, conversations.*, chat.postMessage,
chat.update, chat.delete, reactions.*, pins.*): every employee is a member of
the workspace; channels are public or private, direct messages are
conversations of their own; messages can start threads, carry emoji reactions
and be pinned. Archived channels are read-only, #general can be neither left
nor archived, and only a message's author can edit or delete it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Deleted, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, JobTitle, PersonName, Phone, Quantity, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.world.org import is_lead

__all__ = ["service"]

service = Service(
    "chat",
    title="Hive Chat",
    category="chat",
    modeled_on="Slack Web API (users, conversations.*, chat.postMessage/update/delete, reactions.*, pins.*)",
    description="The company's team chat: workspace members, public and private channels, direct messages, "
    "threaded conversations, emoji reactions and pinned messages.",
)

MemberId = Annotated[str, IdOf("chat.member")]
ChannelId = Annotated[str, IdOf("chat.channel")]
MessageId = Annotated[str, IdOf("chat.message")]
ChannelName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,79}$")]
"""Slack's channel-name rule: lower case letters, digits, hyphens and underscores, at most 80."""
EmojiName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_+-]{1,64}$")]
"""An emoji's short name without colons (``thumbsup``)."""
Kind = Literal["public", "private", "dm"]

MAX_DISTINCT_REACTIONS = 23
"""Slack's limit of distinct emoji on one message."""


class Member(Record):
    """A person in the workspace (an employee of the home company)."""

    id: MemberId
    email: Email
    """Work e-mail address the member signs in with."""
    real_name: PersonName
    """Full name."""
    display_name: str = Field(min_length=1, max_length=80)
    """Short name shown next to the member's messages."""
    title: JobTitle | None = None
    """Job title shown on the profile."""
    phone: Phone | None = None
    """Phone number shown on the profile."""
    timezone: str = "UTC"
    """IANA time zone of the member, e.g. Europe/Berlin."""
    is_admin: bool = False
    """Workspace admins may rename, archive and unarchive any channel."""
    status_text: str = Field(default="", max_length=100)
    """Custom status text, e.g. "In a meeting"."""
    status_emoji: EmojiName | None = None
    """Emoji shown with the status."""


class Channel(Created):
    """A conversation: a public or private channel, or a direct message between members."""

    id: ChannelId
    name: ChannelName | None = None
    """Channel name without the #; direct messages have none."""
    kind: Kind = "public"
    """public: anyone may read and join; private: members only; dm: a direct message."""
    topic: Text = ""
    """What is being discussed right now."""
    purpose: Text = ""
    """What the channel is for."""
    creator_id: MemberId
    """The member who created the channel."""
    is_general: bool = False
    """Whether this is the workspace-wide #general channel everyone belongs to."""
    is_archived: bool = False
    """Archived channels are read-only."""


class Membership(Record):
    """A member's membership of a channel."""

    id: Annotated[str, IdOf("chat.membership")]
    channel_id: ChannelId
    """The channel."""
    member_id: MemberId
    """The member."""
    joined_at: Annotated[DateTime, CREATED]
    """When the member joined."""


class Message(Record):
    """A message in a channel, possibly a reply in a thread."""

    id: MessageId
    channel_id: ChannelId
    """The channel it was posted in."""
    author_id: MemberId
    """The member who posted it."""
    text: Text
    """The message text."""
    thread_parent_id: MessageId | None = None
    """The message this one replies to in a thread; null for a top-level message."""
    reply_count: Quantity = 0
    """Number of replies in the thread this message starts."""
    latest_reply_at: DateTime | None = None
    """When the latest reply was posted."""
    edited_at: DateTime | None = None
    """When the author last edited it."""
    posted_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Reaction(Record):
    """An emoji reaction of one member to one message."""

    id: Annotated[str, IdOf("chat.reaction")]
    message_id: MessageId
    """The message reacted to."""
    member_id: MemberId
    """The member who reacted."""
    name: EmojiName
    """The emoji's short name, e.g. thumbsup."""
    created_at: Annotated[DateTime, CREATED]
    """When the reaction was added."""


class Pin(Record):
    """A message pinned to its channel."""

    id: Annotated[str, IdOf("chat.pin")]
    channel_id: ChannelId
    """The channel."""
    message_id: MessageId
    """The pinned message."""
    pinned_by: MemberId
    """The member who pinned it."""
    pinned_at: Annotated[DateTime, CREATED]
    """When it was pinned."""


class ThreadView(BaseModel):
    """A thread: its parent message and the replies in posting order."""

    parent: Message = Field(description="The message that started the thread.")
    replies: list[Message] = Field(description="Replies, oldest first.")


# -- helpers ----------------------------------------------------------------------------


def _membership(ctx: Ctx, channel_id: str, member_id: str) -> Membership | None:
    return ctx.first(Membership, channel_id=channel_id, member_id=member_id)


def _label(ch: Channel) -> str:
    return f"#{ch.name}" if ch.name else f"direct message {ch.id}"


def _writable(ch: Channel, field: str = "channel_id") -> None:
    if ch.is_archived:
        raise RuleViolation(
            f"{_label(ch)} is archived and read-only",
            field=field,
            hint="unarchive the channel with chat__unarchive_channel first",
        )


def _not_dm(ch: Channel, action: str) -> None:
    if ch.kind == "dm":
        raise RuleViolation(
            f"cannot {action} a direct message",
            field="channel_id",
            hint="this works only on public and private channels",
        )


def _require_member(ctx: Ctx, ch: Channel, member_id: str, field: str = "member_id") -> Membership:
    found = _membership(ctx, ch.id, member_id)
    if found is None:
        raise RuleViolation(
            f"member {member_id} is not in {_label(ch)}",
            field=field,
            hint="join the channel (public) or ask a member to invite you (private) first",
        )
    return found


def _require_visible(ctx: Ctx, ch: Channel, member_id: str) -> None:
    if ch.kind != "public":
        _require_member(ctx, ch, member_id)


def _require_manager(ctx: Ctx, ch: Channel, member: Member, action: str) -> None:
    if member.is_admin or _membership(ctx, ch.id, member.id) is not None:
        return
    raise RuleViolation(
        f"member {member.id} can only {action} {_label(ch)} as one of its members or as a workspace admin",
        field="member_id",
        hint="join the channel first or ask a workspace admin",
    )


def _clean_text(text: str) -> str:
    if not text.strip():
        raise RuleViolation("a message needs some text", field="text", hint="write a non-blank message")
    return text


def _refresh_thread(ctx: Ctx, parent_id: str) -> None:
    parent = ctx.find(Message, parent_id)
    if parent is None:
        return
    replies = ctx.where(Message, thread_parent_id=parent_id)
    latest = max((r.posted_at for r in replies), default=None)
    if parent.reply_count != len(replies) or parent.latest_reply_at != latest:
        ctx.update(parent, reply_count=len(replies), latest_reply_at=latest)


def _delete_message_tree(ctx: Ctx, msg: Message) -> None:
    for reply in ctx.where(Message, thread_parent_id=msg.id):
        _delete_message_tree(ctx, reply)
    for reaction in ctx.where(Reaction, message_id=msg.id):
        ctx.delete(reaction)
    for pin in ctx.where(Pin, message_id=msg.id):
        ctx.delete(pin)
    ctx.delete(msg)


def _guard_channel_update(ctx: Ctx, new: Any, old: Any) -> None:
    _writable(old)


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="usr",
    create=False,
    filters=("email", "is_admin", "timezone"),
    search=("real_name", "display_name", "email", "title"),
    update=("display_name", "title", "phone", "status_text", "status_emoji"),
    delete=False,
    unique=("email",),
)
channels = service.resource(
    Channel,
    name="channel",
    plural="channels",
    prefix="ch",
    create=False,
    filters=("kind", "is_archived", "is_general", "creator_id", "name"),
    search=("name", "topic", "purpose"),
    update=("topic", "purpose"),
    delete=False,
    unique=("name",),
    guard_update=_guard_channel_update,
)
memberships = service.resource(
    Membership,
    name="membership",
    plural="memberships",
    prefix="mem",
    create=False,
    get=False,
    filters=("channel_id", "member_id"),
    delete=False,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="cm",
    create=False,
    filters=("channel_id", "author_id", "thread_parent_id"),
    search=("text",),
    delete=False,
)
reactions = service.resource(
    Reaction,
    name="reaction",
    plural="reactions",
    prefix="rxn",
    create=False,
    get=False,
    filters=("message_id", "member_id", "name"),
    delete=False,
)
pins = service.resource(
    Pin,
    name="pin",
    plural="pins",
    prefix="pin",
    create=False,
    get=False,
    filters=("channel_id", "message_id", "pinned_by"),
    delete=False,
)


# -- examples for the conformance suite ---------------------------------------------------


def _open_channels(ctx: Ctx, *, kinds: tuple[str, ...] = ("public", "private")) -> list[Channel]:
    return [c for c in ctx.scan(Channel) if c.kind in kinds and not c.is_archived]


def _members_of(ctx: Ctx, channel_id: str) -> list[str]:
    return [m.member_id for m in ctx.where(Membership, channel_id=channel_id)]


def _example_open_dm(ctx: Ctx) -> dict[str, Any] | None:
    people = [m.id for m in ctx.scan(Member)][:2]
    return {"member_id": people[0], "other_member_id": people[1]} if len(people) == 2 else None


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    everyone = [m.id for m in ctx.scan(Member)]
    for ch in _open_channels(ctx, kinds=("public",)):
        inside = set(_members_of(ctx, ch.id))
        for mid in everyone:
            if mid not in inside:
                return {"channel_id": ch.id, "member_id": mid}
    return None


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    everyone = [m.id for m in ctx.scan(Member)]
    for ch in _open_channels(ctx):
        inside = _members_of(ctx, ch.id)
        outside = [m for m in everyone if m not in set(inside)]
        if inside and outside:
            return {"channel_id": ch.id, "member_id": inside[0], "invitee_id": outside[0]}
    return None


def _example_leave(ctx: Ctx) -> dict[str, Any] | None:
    for ch in _open_channels(ctx):
        inside = _members_of(ctx, ch.id)
        if not ch.is_general and len(inside) > 1:
            return {"channel_id": ch.id, "member_id": inside[-1]}
    return None


def _example_remove(ctx: Ctx) -> dict[str, Any] | None:
    for ch in _open_channels(ctx):
        inside = _members_of(ctx, ch.id)
        if not ch.is_general and len(inside) > 1:
            return {"channel_id": ch.id, "member_id": inside[0], "removed_member_id": inside[-1]}
    return None


def _example_archive(ctx: Ctx) -> dict[str, Any] | None:
    for ch in _open_channels(ctx):
        inside = _members_of(ctx, ch.id)
        if not ch.is_general and inside:
            return {"channel_id": ch.id, "member_id": inside[0]}
    return None


def _example_unarchive(ctx: Ctx) -> dict[str, Any] | None:
    for ch in ctx.where(Channel, is_archived=True):
        inside = _members_of(ctx, ch.id)
        if inside:
            return {"channel_id": ch.id, "member_id": inside[0]}
    return None


def _example_rename(ctx: Ctx) -> dict[str, Any] | None:
    for ch in _open_channels(ctx):
        if not ch.is_general:
            return {"channel_id": ch.id, "member_id": ch.creator_id, "name": f"{ch.name}-renamed"[:80]}
    return None


def _example_post(ctx: Ctx) -> dict[str, Any] | None:
    ch = ctx.first(Channel, is_general=True)
    if ch is None:
        return None
    inside = _members_of(ctx, ch.id)
    return {"channel_id": ch.id, "member_id": inside[0], "text": "Hello everyone!"} if inside else None


def _example_own_message(ctx: Ctx) -> dict[str, Any] | None:
    for ch in _open_channels(ctx, kinds=("public", "private", "dm")):
        msg = ctx.first(Message, channel_id=ch.id)
        if msg is not None:
            return {"message_id": msg.id, "member_id": msg.author_id}
    return None


def _example_update_message(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_own_message(ctx)
    return None if found is None else {**found, "text": "Edited: see the updated numbers."}


def _example_add_reaction(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_own_message(ctx)
    return None if found is None else {**found, "name": "sparkles"}


_example_remove_reaction = first_example(
    Reaction,
    match=lambda ctx, r: not ctx.get(Channel, ctx.get(Message, r.message_id).channel_id).is_archived,
    fields={"message_id": "message_id", "member_id": "member_id", "name": "name"},
)


def _example_pin(ctx: Ctx) -> dict[str, Any] | None:
    for ch in _open_channels(ctx, kinds=("public", "private", "dm")):
        for msg in ctx.where(Message, channel_id=ch.id):
            if ctx.first(Pin, message_id=msg.id) is None and _membership(ctx, ch.id, msg.author_id):
                return {"message_id": msg.id, "member_id": msg.author_id}
    return None


def _example_unpin(ctx: Ctx) -> dict[str, Any] | None:
    for pin in ctx.scan(Pin):
        ch = ctx.get(Channel, pin.channel_id)
        inside = _members_of(ctx, ch.id)
        if not ch.is_archived and inside:
            return {"message_id": pin.message_id, "member_id": inside[0]}
    return None


_example_thread = first_example(Message, "message_id", match=lambda ctx, m: bool(m.reply_count))


# -- conversations ----------------------------------------------------------------------


@service.tool(
    intent="create a channel",
    write=True,
    example=first_example(Member, "member_id", name="project-phoenix", purpose="Launch"),
)
def create_channel(
    ctx: Ctx,
    member_id: MemberId,
    name: ChannelName,
    is_private: bool = False,
    topic: Text = "",
    purpose: Text = "",
) -> Channel:
    """Create a public or private channel; its creator becomes its first member.

    Names are unique across the workspace, archived channels included.

    Args:
        member_id: The member creating the channel.
        name: Channel name without the #: lower case letters, digits, - and _ (at most 80).
        is_private: Whether only invited members may see the channel.
        topic: Initial topic.
        purpose: What the channel is for.
    """
    ctx.get(Member, member_id, field="member_id")
    channel = ctx.create(
        Channel,
        name=name,
        kind="private" if is_private else "public",
        topic=topic,
        purpose=purpose,
        creator_id=member_id,
    )
    ctx.create(Membership, channel_id=channel.id, member_id=member_id)
    return channel


@service.tool(intent="open a direct message", write=True, idempotent=True, example=_example_open_dm)
def open_direct_message(ctx: Ctx, member_id: MemberId, other_member_id: MemberId) -> Channel:
    """Open the direct-message conversation between two members, or return it if it exists.

    Args:
        member_id: The member opening the conversation.
        other_member_id: The member to talk to (the same id opens a note-to-self).
    """
    ctx.get(Member, member_id, field="member_id")
    ctx.get(Member, other_member_id, field="other_member_id")
    wanted = {member_id, other_member_id}
    for mem in ctx.where(Membership, member_id=member_id):
        ch = ctx.get(Channel, mem.channel_id)
        if ch.kind == "dm" and set(_members_of(ctx, ch.id)) == wanted:
            return ch
    channel = ctx.create(Channel, kind="dm", creator_id=member_id)
    for mid in sorted(wanted):
        ctx.create(Membership, channel_id=channel.id, member_id=mid)
    return channel


@service.tool(intent="join the channel", write=True, example=_example_join)
def join_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId) -> Membership:
    """Join a public channel. Private channels need an invitation from one of their members.

    Args:
        channel_id: The public channel.
        member_id: The member joining.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    ctx.get(Member, member_id, field="member_id")
    _not_dm(ch, "join")
    if ch.kind == "private":
        raise RuleViolation(
            f"{_label(ch)} is private and cannot be joined",
            field="channel_id",
            hint="ask a member of the channel to invite you with chat__invite_to_channel",
        )
    _writable(ch)
    if _membership(ctx, ch.id, member_id) is not None:
        raise Conflict(f"member {member_id} is already in {_label(ch)}", field="member_id", hint="nothing to do")
    return ctx.create(Membership, channel_id=ch.id, member_id=member_id)


@service.tool(intent="add someone to the channel", write=True, example=_example_invite)
def invite_to_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId, invitee_id: MemberId) -> Membership:
    """Add a member to a channel; only its members can invite.

    Args:
        channel_id: The channel.
        member_id: The member inviting (must be in the channel).
        invitee_id: The member to add.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    ctx.get(Member, member_id, field="member_id")
    ctx.get(Member, invitee_id, field="invitee_id")
    _not_dm(ch, "invite to")
    _writable(ch)
    _require_member(ctx, ch, member_id)
    if invitee_id == member_id:
        raise RuleViolation("members cannot invite themselves", field="invitee_id", hint="name another member")
    if _membership(ctx, ch.id, invitee_id) is not None:
        raise Conflict(f"member {invitee_id} is already in {_label(ch)}", field="invitee_id", hint="nothing to do")
    return ctx.create(Membership, channel_id=ch.id, member_id=invitee_id)


@service.tool(intent="leave the channel", write=True, example=_example_leave)
def leave_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId) -> Deleted:
    """Leave a channel. Nobody can leave #general, and the last member cannot leave a private channel.

    Args:
        channel_id: The channel.
        member_id: The member leaving.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    ctx.get(Member, member_id, field="member_id")
    _not_dm(ch, "leave")
    if ch.is_general:
        raise RuleViolation("nobody can leave #general", field="channel_id", hint="#general holds the whole workspace")
    mem = _require_member(ctx, ch, member_id)
    if ch.kind == "private" and len(_members_of(ctx, ch.id)) == 1:
        raise RuleViolation(
            f"member {member_id} is the last member of private {_label(ch)} and cannot leave it",
            field="member_id",
            hint="archive the channel instead, or invite someone first",
        )
    ctx.delete(mem)
    return Deleted(id=mem.id)


@service.tool(intent="remove someone from the channel", write=True, destructive=False, example=_example_remove)
def remove_from_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId, removed_member_id: MemberId) -> Deleted:
    """Remove another member from a channel (conversations.kick). Nobody can be removed from #general.

    Args:
        channel_id: The channel.
        member_id: The member doing the removal (a member of the channel or a workspace admin).
        removed_member_id: The member to remove.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    actor = ctx.get(Member, member_id, field="member_id")
    ctx.get(Member, removed_member_id, field="removed_member_id")
    _not_dm(ch, "remove people from")
    if ch.is_general:
        raise RuleViolation(
            "nobody can be removed from #general", field="channel_id", hint="#general holds the whole workspace"
        )
    _writable(ch)
    if removed_member_id == member_id:
        raise RuleViolation(
            "members cannot remove themselves", field="removed_member_id", hint="use chat__leave_channel"
        )
    _require_manager(ctx, ch, actor, "remove people from")
    mem = _require_member(ctx, ch, removed_member_id, field="removed_member_id")
    ctx.delete(mem)
    return Deleted(id=mem.id)


@service.tool(intent="archive the channel", write=True, example=_example_archive)
def archive_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId) -> Channel:
    """Archive a channel: it stays readable but nobody can post, react or pin in it. #general cannot be archived.

    Args:
        channel_id: The channel.
        member_id: The member archiving it (a member of the channel or a workspace admin).
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    actor = ctx.get(Member, member_id, field="member_id")
    _not_dm(ch, "archive")
    if ch.is_general:
        raise RuleViolation(
            "#general cannot be archived",
            field="channel_id",
            hint="#general holds the whole workspace; archive other channels",
        )
    if ch.is_archived:
        raise RuleViolation(f"{_label(ch)} is already archived", field="channel_id", hint="nothing to do")
    _require_manager(ctx, ch, actor, "archive")
    return ctx.update(ch, is_archived=True)


@service.tool(intent="unarchive the channel", write=True, example=_example_unarchive)
def unarchive_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId) -> Channel:
    """Bring an archived channel back into use.

    Args:
        channel_id: The archived channel.
        member_id: The member unarchiving it (a member of the channel or a workspace admin).
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    actor = ctx.get(Member, member_id, field="member_id")
    if not ch.is_archived:
        raise RuleViolation(f"{_label(ch)} is not archived", field="channel_id", hint="nothing to do")
    _require_manager(ctx, ch, actor, "unarchive")
    return ctx.update(ch, is_archived=False)


@service.tool(intent="rename the channel", write=True, idempotent=True, example=_example_rename)
def rename_channel(ctx: Ctx, channel_id: ChannelId, member_id: MemberId, name: ChannelName) -> Channel:
    """Rename a channel; only its creator or a workspace admin may, and the name must be free.

    Args:
        channel_id: The channel.
        member_id: The member renaming it.
        name: The new name without the #.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    actor = ctx.get(Member, member_id, field="member_id")
    _not_dm(ch, "rename")
    _writable(ch)
    if actor.id != ch.creator_id and not actor.is_admin:
        raise RuleViolation(
            f"only the creator of {_label(ch)} or a workspace admin can rename it",
            field="member_id",
            hint="ask the channel's creator or a workspace admin",
        )
    if name == ch.name:
        return ch
    return ctx.update(ch, name=name)


# -- messages ---------------------------------------------------------------------------


@service.tool(intent="post a message", write=True, example=_example_post)
def post_message(
    ctx: Ctx,
    channel_id: ChannelId,
    member_id: MemberId,
    text: Text,
    thread_parent_id: MessageId | None = None,
) -> Message:
    """Post a message to a channel or direct message, or reply in a thread.

    Archived channels take no messages; private channels and direct messages
    only take messages from their members. A thread reply names the
    top-level message that started the thread.

    Args:
        channel_id: The channel or direct message.
        member_id: The member posting.
        text: The message text.
        thread_parent_id: The top-level message to reply to; omit for a new message.
    """
    ch = ctx.get(Channel, channel_id, field="channel_id")
    ctx.get(Member, member_id, field="member_id")
    _writable(ch)
    _require_visible(ctx, ch, member_id)
    _clean_text(text)
    if thread_parent_id is not None:
        parent = ctx.get(Message, thread_parent_id, field="thread_parent_id")
        if parent.channel_id != ch.id:
            raise RuleViolation(
                f"message {parent.id} is in another channel ({parent.channel_id})",
                field="thread_parent_id",
                hint="reply in the channel the thread is in",
            )
        if parent.thread_parent_id is not None:
            raise RuleViolation(
                f"message {parent.id} is itself a reply",
                field="thread_parent_id",
                hint=f"reply to the thread's first message, {parent.thread_parent_id}",
            )
    msg = ctx.create(Message, channel_id=ch.id, author_id=member_id, text=text, thread_parent_id=thread_parent_id)
    if thread_parent_id is not None:
        _refresh_thread(ctx, thread_parent_id)
    return msg


@service.tool(intent="edit the message", write=True, idempotent=True, example=_example_update_message)
def update_message(ctx: Ctx, message_id: MessageId, member_id: MemberId, text: Text) -> Message:
    """Change the text of a message; only its author can, and not in an archived channel.

    Args:
        message_id: The message.
        member_id: The member editing (must be the author).
        text: The new text.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ctx.get(Member, member_id, field="member_id")
    if msg.author_id != member_id:
        raise RuleViolation(
            f"only the author ({msg.author_id}) can edit message {msg.id}",
            field="member_id",
            hint="ask the author to edit it, or reply in a thread",
        )
    _writable(ctx.get(Channel, msg.channel_id), field="message_id")
    _clean_text(text)
    if text == msg.text:
        return msg
    return ctx.update(msg, text=text, edited_at=ctx.now())


@service.tool(intent="delete the message", write=True, destructive=True, example=_example_own_message)
def delete_message(ctx: Ctx, message_id: MessageId, member_id: MemberId) -> Deleted:
    """Delete a message with its reactions and pin; deleting a thread's first message deletes its replies.

    Only the author can delete a message, and not in an archived channel.

    Args:
        message_id: The message.
        member_id: The member deleting (must be the author).
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ctx.get(Member, member_id, field="member_id")
    if msg.author_id != member_id:
        raise RuleViolation(
            f"only the author ({msg.author_id}) can delete message {msg.id}",
            field="member_id",
            hint="ask the author to delete it",
        )
    _writable(ctx.get(Channel, msg.channel_id), field="message_id")
    _delete_message_tree(ctx, msg)
    if msg.thread_parent_id is not None:
        _refresh_thread(ctx, msg.thread_parent_id)
    return Deleted(id=msg.id)


@service.tool(intent="read the thread", example=_example_thread)
def get_thread(ctx: Ctx, message_id: MessageId) -> ThreadView:
    """Read a thread: the message that started it and all replies (conversations.replies).

    Args:
        message_id: The thread's first message, or any reply in it.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    parent = ctx.get(Message, msg.thread_parent_id) if msg.thread_parent_id else msg
    return ThreadView(parent=parent, replies=ctx.where(Message, thread_parent_id=parent.id))


@service.tool(intent="list the member's channels")
def list_member_channels(ctx: Ctx, member_id: MemberId, include_archived: bool = False) -> list[Channel]:
    """List the channels and direct messages a member belongs to (users.conversations).

    Args:
        member_id: The member.
        include_archived: Whether to include archived channels.
    """
    ctx.get(Member, member_id, field="member_id")
    found = [ctx.get(Channel, m.channel_id) for m in ctx.where(Membership, member_id=member_id)]
    return sorted((c for c in found if include_archived or not c.is_archived), key=lambda c: c.id)


# -- reactions and pins -----------------------------------------------------------------


@service.tool(intent="react to the message", write=True, example=_example_add_reaction)
def add_reaction(ctx: Ctx, message_id: MessageId, member_id: MemberId, name: EmojiName) -> Reaction:
    """Add an emoji reaction to a message.

    A member reacts with each emoji at most once; a message carries at most 23
    different emoji; archived channels take no reactions.

    Args:
        message_id: The message.
        member_id: The member reacting.
        name: The emoji's short name without colons, e.g. thumbsup.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ctx.get(Member, member_id, field="member_id")
    ch = ctx.get(Channel, msg.channel_id)
    _writable(ch, field="message_id")
    _require_visible(ctx, ch, member_id)
    existing = ctx.where(Reaction, message_id=msg.id)
    if any(r.member_id == member_id and r.name == name for r in existing):
        raise Conflict(
            f"member {member_id} already reacted with :{name}: to message {msg.id}",
            field="name",
            hint="nothing to do, or remove it with chat__remove_reaction",
        )
    distinct = {r.name for r in existing}
    if name not in distinct and len(distinct) >= MAX_DISTINCT_REACTIONS:
        raise RuleViolation(
            f"message {msg.id} already has {MAX_DISTINCT_REACTIONS} different emoji",
            field="name",
            hint="react with one of the emoji already on the message",
        )
    return ctx.create(Reaction, message_id=msg.id, member_id=member_id, name=name)


@service.tool(intent="remove the reaction", write=True, example=_example_remove_reaction)
def remove_reaction(ctx: Ctx, message_id: MessageId, member_id: MemberId, name: EmojiName) -> Deleted:
    """Remove a member's own emoji reaction from a message.

    Args:
        message_id: The message.
        member_id: The member whose reaction to remove.
        name: The emoji's short name.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ctx.get(Member, member_id, field="member_id")
    _writable(ctx.get(Channel, msg.channel_id), field="message_id")
    found = ctx.first(Reaction, message_id=msg.id, member_id=member_id, name=name)
    if found is None:
        raise NotFound(
            f"member {member_id} has no :{name}: reaction on message {msg.id}",
            field="name",
            hint="list the message's reactions with chat__list_reactions",
        )
    ctx.delete(found)
    return Deleted(id=found.id)


@service.tool(intent="pin the message", write=True, example=_example_pin)
def pin_message(ctx: Ctx, message_id: MessageId, member_id: MemberId) -> Pin:
    """Pin a message to its channel; only members of the channel can pin.

    Args:
        message_id: The message.
        member_id: The member pinning it.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ctx.get(Member, member_id, field="member_id")
    ch = ctx.get(Channel, msg.channel_id)
    _writable(ch, field="message_id")
    _require_member(ctx, ch, member_id)
    pinned = ctx.first(Pin, message_id=msg.id)
    if pinned is not None:
        raise Conflict(f"message {msg.id} is already pinned ({pinned.id})", field="message_id", hint="nothing to do")
    return ctx.create(Pin, channel_id=ch.id, message_id=msg.id, pinned_by=member_id)


@service.tool(intent="unpin the message", write=True, example=_example_unpin)
def unpin_message(ctx: Ctx, message_id: MessageId, member_id: MemberId) -> Deleted:
    """Unpin a message from its channel; only members of the channel can unpin.

    Args:
        message_id: The pinned message.
        member_id: The member unpinning it.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ctx.get(Member, member_id, field="member_id")
    ch = ctx.get(Channel, msg.channel_id)
    _writable(ch, field="message_id")
    _require_member(ctx, ch, member_id)
    pinned = ctx.first(Pin, message_id=msg.id)
    if pinned is None:
        raise NotFound(
            f"message {msg.id} is not pinned", field="message_id", hint="list pinned messages with chat__list_pins"
        )
    ctx.delete(pinned)
    return Deleted(id=pinned.id)


# -- seeding ----------------------------------------------------------------------------

CHANNEL_TEXTS: dict[str, tuple[str, ...]] = {
    "general": (
        "Welcome to {home}, everyone! Please say hi to {colleague}, who joined us this week.",
        "Reminder: the all-hands meeting is on Thursday at 4pm.",
        "The office will be closed on Monday for the public holiday.",
        "Big congratulations to the {dept} team for a great quarter!",
        "Please submit your expense reports by the end of the month.",
    ),
    "random": (
        "Anyone up for lunch at the new place around the corner?",
        "Who left a {product} in the kitchen? 😄",
        "The coffee machine is fixed!",
        "Friday playlist thread 🎶",
    ),
    "engineering": (
        "The deploy of the billing service is done; please watch the dashboards.",
        "Code freeze starts Wednesday for the release.",
        "Can someone review my PR for the {product} inventory sync?",
        "The incident postmortem draft is in the shared folder.",
    ),
    "sales": (
        "Just closed the renewal with {company}! 🎉",
        "{company} wants a demo of the {product} next week.",
        "Pipeline review moved to Friday.",
        "Does anyone have a contact at {company}?",
    ),
    "support": (
        "The ticket backlog is down to 12, great work.",
        "{company} reported issues with the {product}; escalating.",
        "The new macro for return requests is live.",
        "Who can take the late shift on Saturday?",
    ),
    "finance": (
        "Month-end close starts tomorrow.",
        "The invoice run for {company} is done.",
        "Reminder: please approve the pending purchase orders.",
    ),
    "people": (
        "Open enrollment for benefits ends Friday.",
        "We are hiring a {title}; referrals welcome!",
        "The performance review cycle kicks off next week.",
    ),
    "operations": (
        "The shipment of {product} arrived at the warehouse.",
        "The new courier contract starts next month.",
        "The office supplies order goes out Thursday.",
    ),
    "marketing": (
        "The campaign for the {product} launches Monday.",
        "The case study with {company} is live on the blog.",
        "Newsletter open rate was 41% this week.",
    ),
    "customer-escalations": (
        "{company} escalated a problem with their {product} order.",
        "Heads-up: {company} is threatening to churn; can sales and support sync today?",
    ),
    "leadership": (
        "The board deck draft is ready for review.",
        "The Q3 headcount plan is in the shared drive.",
    ),
    "deals-desk": (
        "Need approval for a 15% discount for {company}.",
        "Non-standard payment terms requested by {company}: net 60.",
    ),
    "hiring-committee": (
        "The shortlist for the {title} role is ready.",
        "Interview feedback for Tuesday's candidates is due tomorrow.",
    ),
    "offsite-2025": ("The offsite agenda is final!", "Bus leaves at 8am sharp from the office."),
    "launch-war-room": ("The launch of the {product} went smoothly.", "Rollback plan is documented in the runbook."),
    "dm": ("Hey, do you have a minute?", "Can you look at the doc I shared?", "Thanks for the help earlier!"),
}
REPLY_TEXTS = (
    "Thanks!",
    "On it.",
    "Great news!",
    "+1",
    "I can help with that.",
    "Let's discuss at standup.",
    "Done ✅",
)
EMOJI = ("thumbsup", "tada", "eyes", "white_check_mark", "heart", "raised_hands", "rocket", "joy", "pray", "100")
STATUSES = (("In a meeting", "calendar"), ("On vacation", "palm_tree"), ("Working remotely", "house_with_garden"))


@service.seeder
def seed(s: SeedContext) -> None:
    """Members for the employees, channels by team, memberships, messages with threads, reactions and pins."""
    everyone, by_dept = _seed_members(s)
    seen_dms: set[frozenset[str]] = set()
    for name, kind, group, purpose, archived in _seed_plan(s, everyone, by_dept):
        group = list(dict.fromkeys(group))
        if not group:
            continue
        if kind == "dm":
            key = frozenset(m.id for m in group)
            if key in seen_dms:
                continue
            seen_dms.add(key)
        _seed_channel(s, name, kind, group, purpose, archived, everyone, by_dept)


ChannelPlan = tuple[str, Kind, list[Member], str, bool]
"""A channel to seed: name (the key of its texts), kind, members, purpose and whether archived."""


def _pick(s: SeedContext, group: list[Member], k: int) -> list[Member]:
    return s.rng.sample(group, k=min(k, len(group)))


def _ago(s: SeedContext, days: float) -> dt.datetime:
    return s.now - dt.timedelta(minutes=round(days * 24 * 60))


def _seed_members(s: SeedContext) -> tuple[list[Member], dict[str, list[Member]]]:
    """A member per employee, some with a status; returns them in employee order and by department."""
    employees = s.population.employees
    admin_titles = ("People Operations Manager", "Operations Manager", "Engineering Manager")
    people: dict[str, Member] = {}
    for i, p in enumerate(employees):
        status = s.rng.choice(STATUSES) if s.rng.random() < 0.2 else ("", None)
        people[p.key] = s.create(
            Member,
            email=p.email,
            real_name=p.name,
            display_name=f"{p.first_name} {p.last_name[0]}.",
            title=p.job_title,
            phone=p.phone,
            timezone=p.place.timezone,
            is_admin=i == 0 or p.job_title in admin_titles,
            status_text=status[0],
            status_emoji=status[1],
        )
    by_dept: dict[str, list[Member]] = {}
    for p in employees:
        by_dept.setdefault(p.department or "", []).append(people[p.key])
    return [people[p.key] for p in employees], by_dept


def _seed_plan(s: SeedContext, everyone: list[Member], by_dept: dict[str, list[Member]]) -> list[ChannelPlan]:
    """#general, #random, a channel per department, cross-team and private channels, and six direct messages."""
    rng = s.rng
    managers = [m for p, m in zip(s.population.employees, everyone, strict=True) if is_lead(p)]
    plan: list[ChannelPlan] = [
        ("general", "public", everyone, "Company-wide announcements and work-based matters", False),
        (
            "random",
            "public",
            _pick(s, everyone, len(everyone) * 7 // 10),
            "Non-work banter and water cooler talk",
            False,
        ),
    ]
    for dept, staff in sorted(by_dept.items()):
        if dept:
            extra = _pick(s, [m for m in everyone if m not in staff], rng.randint(0, 3))
            plan.append((dept.lower(), "public", staff + extra, f"Everything about the {dept} team", False))
    escalation = by_dept.get("Support", []) + _pick(s, by_dept.get("Sales", []) + by_dept.get("Engineering", []), 4)
    plan += [
        ("customer-escalations", "public", escalation, "Customer issues that need more than one team", False),
        ("leadership", "private", managers or everyone[:3], "Leadership team coordination", False),
        (
            "deals-desk",
            "private",
            by_dept.get("Sales", []) + by_dept.get("Finance", []),
            "Approvals for discounts and non-standard terms",
            False,
        ),
        (
            "hiring-committee",
            "private",
            by_dept.get("People", []) + _pick(s, managers, 3),
            "Hiring decisions and interview feedback",
            False,
        ),
        ("offsite-2025", "public", _pick(s, everyone, 20), "Planning of the 2025 company offsite", True),
        ("launch-war-room", "private", _pick(s, everyone, 6), "Coordination of the spring product launch", True),
    ]
    for _ in range(6):
        a, b = rng.sample(everyone, k=2)
        plan.append(("dm", "dm", [a, b], "", False))
    return plan


def _seed_channel(
    s: SeedContext,
    name: str,
    kind: Kind,
    group: list[Member],
    purpose: str,
    archived: bool,
    everyone: list[Member],
    by_dept: dict[str, list[Member]],
) -> None:
    """A channel, its members and its messages: archived ones fell silent a month ago."""
    rng = s.rng
    start = _ago(s, rng.uniform(40, 400))
    creator = everyone[0] if name == "general" else group[0]
    channel = s.create(
        Channel,
        name=None if kind == "dm" else name,
        kind=kind,
        purpose=purpose,
        topic=rng.choice(("", "", "Weekly sync on Tuesdays")) if kind != "dm" else "",
        creator_id=creator.id,
        is_general=name == "general",
        is_archived=archived,
        created_at=start,
    )
    for m in sorted(group, key=lambda m: m.id):
        s.create(Membership, channel_id=channel.id, member_id=m.id, joined_at=start)
    clock = _ago(s, rng.uniform(10, 14)) if not archived else _ago(s, rng.uniform(30, 39))
    for k in range(rng.randint(3, 7) if kind != "dm" else rng.randint(1, 3)):
        author = rng.choice(group)
        text = _seed_text(s, CHANNEL_TEXTS[name][k % len(CHANNEL_TEXTS[name])], everyone, by_dept)
        clock += dt.timedelta(minutes=rng.randint(30, 24 * 60))
        if clock >= s.now:
            break
        _seed_message(s, channel, group, author, text, clock, pinnable=k == 0 and kind != "dm")


def _seed_text(s: SeedContext, template: str, everyone: list[Member], by_dept: dict[str, list[Member]]) -> str:
    """A message text with random colleagues, departments, products, customers and job titles filled in."""
    pop = s.population
    rng = s.rng
    return template.format(
        home=pop.home.name,
        colleague=rng.choice(everyone).real_name,
        dept=rng.choice(sorted(d for d in by_dept if d)),
        product=rng.choice(pop.products).name,
        company=rng.choice(pop.customers).name,
        title=rng.choice(pop.employees).job_title,
    )


def _seed_message(
    s: SeedContext,
    channel: Channel,
    group: list[Member],
    author: Member,
    text: str,
    posted: dt.datetime,
    *,
    pinnable: bool,
) -> None:
    """A top-level message, sometimes with a thread of replies and reactions, the first of a channel maybe pinned."""
    rng = s.rng
    replies: list[dt.datetime] = []
    n_replies = rng.randint(1, 3) if rng.random() < 0.3 and len(group) > 1 else 0
    for _ in range(n_replies):
        replies.append(min(posted + dt.timedelta(minutes=rng.randint(2, 240)), s.now))
    replies.sort()
    top = s.create(
        Message,
        channel_id=channel.id,
        author_id=author.id,
        text=text,
        reply_count=len(replies),
        latest_reply_at=replies[-1] if replies else None,
        posted_at=posted,
    )
    for at in replies:
        s.create(
            Message,
            channel_id=channel.id,
            author_id=rng.choice([m for m in group if m.id != author.id]).id,
            text=rng.choice(REPLY_TEXTS),
            thread_parent_id=top.id,
            posted_at=at,
        )
    if rng.random() < 0.4:
        for reactor in _pick(s, group, rng.randint(1, 3)):
            for emoji in rng.sample(EMOJI, k=rng.randint(1, 2)):
                s.create(Reaction, message_id=top.id, member_id=reactor.id, name=emoji, created_at=posted)
    if pinnable and rng.random() < 0.5:
        s.create(Pin, channel_id=channel.id, message_id=top.id, pinned_by=author.id, pinned_at=posted)
