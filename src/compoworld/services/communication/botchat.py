"""Kestrel Bots: the company's messenger bots, the chats they are in, their members, messages and updates.

Modeled on the Telegram Bot API 7.x (getMe/setMyName, getUpdates and
setWebhook/deleteWebhook, Chat and ChatMember, sendMessage/sendPhoto/
sendDocument, forwardMessage, editMessageText,
deleteMessage, pin/unpinChatMessage, ban/unban/restrict/promoteChatMember,
createChatInviteLink/revokeChatInviteLink, approve/declineChatJoinRequest,
leaveChat): a bot can write to a user only after the user started it and as
long as the user has not blocked it (the bot's own status in the private chat
is then "kicked"); in groups the bot must still be a member, and in channels an
administrator allowed to post. Text is 1-4096 characters, captions at most
1024. A bot edits only its own messages (a channel's posts too when it may
edit messages there) and an unchanged edit is refused; a message can be
deleted only within 48 hours of being sent, by its sender in private chats and
groups, otherwise with the right to delete messages. Pinning needs the pin
right in groups and the edit right in channels. Member status moves between
creator, administrator, member, restricted, left and kicked: only an
administrator bot with the right to restrict may ban, unban (supergroups and
channels) or restrict (supergroups) members, the owner and administrators the
bot did not promote are out of its reach, and a bot grants only rights it has.
Invite links need the right to invite; a link asking for approval has no member
limit; expired, revoked or full links admit nobody; a banned user cannot come
back by link. With privacy mode on, a bot that is not an administrator sees
only commands, mentions and replies to it in groups. Updates wait up to 24
hours for getUpdates, which confirms those below its offset and is refused
while a webhook is set; a webhook needs an HTTPS URL on port 443, 80, 88 or
8443.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Deleted, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    DateTime,
    Email,
    FirstName,
    IdOf,
    Language,
    LastName,
    Phone,
    Text,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.text import strip_accents
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "botchat",
    title="Kestrel Bots",
    category="consumer_messaging",
    modeled_on="Telegram Bot API 7.x (getMe, getUpdates/setWebhook, Chat, ChatMember, sendMessage and media, "
    "forwardMessage, editMessageText, deleteMessage, pinChatMessage, ban/unban/restrict/promoteChatMember, "
    "chat invite links and join requests, leaveChat)",
    description="Messenger bots that talk to customers: the company's bots chat privately with the customers who "
    "started them, post to its channel, moderate its community groups (ban, restrict, promote members), manage "
    "invite links and join requests, and receive customers' messages as updates by polling or webhook.",
)

BotId = Annotated[str, IdOf("botchat.bot")]
UserId = Annotated[str, IdOf("botchat.user")]
ChatId = Annotated[str, IdOf("botchat.chat")]
MemberId = Annotated[str, IdOf("botchat.chat_member")]
MessageId = Annotated[str, IdOf("botchat.message")]
InviteLinkId = Annotated[str, IdOf("botchat.invite_link")]
JoinRequestId = Annotated[str, IdOf("botchat.join_request")]
UpdateRecordId = Annotated[str, IdOf("botchat.update")]

BotUsername = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{1,28}[Bb][Oo][Tt]$")]
"""A bot's @username without the @: 5-32 letters, digits or underscores, ending in "bot"."""
Username = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{4,31}$")]
"""A public @username without the @: 5-32 letters, digits or underscores."""
ChatTitle = Annotated[str, StringConstraints(min_length=1, max_length=128, strip_whitespace=True)]
"""A group's or channel's title, 1-128 characters."""
LinkName = Annotated[str, StringConstraints(min_length=1, max_length=32, strip_whitespace=True)]
"""An invite link's name, at most 32 characters."""
FileName = Annotated[str, StringConstraints(min_length=1, max_length=255, strip_whitespace=True)]
"""A file's name."""

ChatType = Literal["private", "group", "supergroup", "channel"]
MemberStatus = Literal["creator", "administrator", "member", "restricted", "left", "kicked"]
BotStatus = Literal["member", "administrator", "left", "kicked"]
AdminRight = Literal[
    "can_change_info",
    "can_delete_messages",
    "can_restrict_members",
    "can_invite_users",
    "can_pin_messages",
    "can_promote_members",
    "can_post_messages",
    "can_edit_messages",
]
MessageKind = Literal["text", "photo", "document", "video", "voice", "sticker", "service"]
MediaType = Literal["photo", "document", "video", "voice", "sticker"]
UpdateType = Literal["message", "channel_post", "my_chat_member", "chat_member", "chat_join_request"]

MAX_TEXT = 4096
MAX_CAPTION = 1024
EDIT_DELETE_WINDOW = dt.timedelta(hours=48)
UPDATE_RETENTION = dt.timedelta(hours=24)
WEBHOOK_PORTS = (443, 80, 88, 8443)
UPLOAD_LIMITS = {"photo": 10_000_000, "document": 50_000_000, "video": 50_000_000, "voice": 50_000_000}
"""Bot API upload limits in bytes by media type (stickers: 512 KB)."""
STICKER_LIMIT = 512_000
CHANNEL_ONLY: frozenset[str] = frozenset({"can_post_messages", "can_edit_messages"})
GROUP_ONLY: frozenset[str] = frozenset({"can_pin_messages"})
UPDATE_BASE = 730_000_000
"""Update ids of the seeded world start here; updates made in an episode follow from UPDATE_BASE + 100000."""


class Bot(Created):
    """A bot of the company (made with the bot father, managed through the Bot API)."""

    id: BotId
    username: BotUsername
    """The bot's @username (without the @)."""
    first_name: Annotated[str, StringConstraints(min_length=1, max_length=64, strip_whitespace=True)]
    """The bot's display name."""
    description: Text = ""
    """What the bot does, shown in an empty chat (at most 512 characters)."""
    short_description: Annotated[str, StringConstraints(max_length=120)] = ""
    """Shown on the bot's profile page (at most 120 characters)."""
    owner_email: Email
    """E-mail of the employee who owns the bot."""
    can_read_all_group_messages: bool = False
    """Privacy mode off: the bot sees every group message, not only commands, mentions and replies to it."""
    webhook_url: Url | None = None
    """Where updates are posted; null while the bot polls with get_updates."""
    max_connections: int = Field(default=40, ge=1, le=100)
    """Simultaneous HTTPS connections to the webhook."""


class User(Record):
    """A messenger user the company's bots know (a customer, or an employee running a group)."""

    id: UserId
    first_name: FirstName
    """Given name."""
    last_name: LastName | None = None
    """Family name."""
    username: Username | None = None
    """Public @username (without the @), if the user has one."""
    language_code: Language | None = None
    """Language of the user's app."""
    phone_number: Phone | None = None
    """Phone number, known only if the user shared their contact with a bot."""
    is_premium: bool = False
    """Whether the user has a premium subscription."""


class Chat(Created):
    """A chat as one bot sees it: a private chat with a user, a group, a supergroup or a channel."""

    id: ChatId
    bot_id: BotId
    """The bot in the chat."""
    type: ChatType
    """private, group, supergroup or channel."""
    title: ChatTitle | None = None
    """Title of a group, supergroup or channel; null for private chats."""
    username: Username | None = None
    """Public @username of a supergroup or channel, or of the other party of a private chat."""
    first_name: FirstName | None = None
    """Given name of the other party of a private chat."""
    last_name: LastName | None = None
    """Family name of the other party of a private chat."""
    description: Annotated[str, StringConstraints(max_length=255)] = ""
    """Description of a group, supergroup or channel (at most 255 characters)."""
    user_id: UserId | None = None
    """The other party of a private chat."""
    bot_status: BotStatus = "member"
    """The bot's own membership: member, administrator, left, or kicked (in a private chat: the user blocked it)."""
    bot_rights: tuple[AdminRight, ...] = ()
    """The administrator rights the bot holds in the chat."""
    has_protected_content: bool = False
    """Whether messages of the chat cannot be forwarded."""


class ChatMember(Record):
    """A user's membership of a group, supergroup or channel."""

    id: MemberId
    chat_id: ChatId
    """The chat."""
    user_id: UserId
    """The user."""
    status: MemberStatus = "member"
    """creator, administrator, member, restricted, left or kicked (banned)."""
    rights: tuple[AdminRight, ...] = ()
    """Administrator rights (the creator holds them all)."""
    can_be_edited: bool = False
    """Whether the bot may change this administrator's rights (it promoted them)."""
    custom_title: Annotated[str, StringConstraints(max_length=16)] | None = None
    """An administrator's custom title."""
    can_send_messages: bool = True
    """Whether a restricted member may send text messages."""
    can_send_media: bool = True
    """Whether a restricted member may send photos, videos, documents and voice notes."""
    until_date: DateTime | None = None
    """When a restriction or ban ends; null: for ever."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the membership last changed."""


class Message(Record):
    """A message in a chat."""

    id: MessageId
    chat_id: ChatId
    """The chat it is in."""
    bot_id: BotId
    """The bot whose chat it is."""
    sender_type: Literal["bot", "user", "channel"]
    """bot (sent by the bot), user, or channel (posted on behalf of a channel by its administrators)."""
    from_user_id: UserId | None = None
    """The user who sent it."""
    kind: MessageKind = "text"
    """text, photo, document, video, voice, sticker or service (a chat event such as its creation)."""
    text: Text = ""
    """The text, or a media message's caption."""
    file_name: FileName | None = None
    """The attached file's name."""
    file_size: int | None = None
    """The attached file's size in bytes."""
    reply_to_message_id: MessageId | None = None
    """The message it replies to."""
    forward_from_chat_id: ChatId | None = None
    """The chat a forwarded message came from."""
    is_pinned: bool = False
    """Whether it is pinned in its chat."""
    edit_date: DateTime | None = None
    """When it was last edited."""
    date: Annotated[DateTime, CREATED]
    """When it was sent."""


class InviteLink(Created):
    """An invite link to a group, supergroup or channel."""

    id: InviteLinkId
    chat_id: ChatId
    """The chat it invites to."""
    invite_link: Url
    """The link."""
    name: LinkName | None = None
    """A name for the link."""
    creator_user_id: UserId | None = None
    """The administrator who made it; null when the bot made it."""
    is_primary: bool = False
    """Whether it is the chat's primary link."""
    is_revoked: bool = False
    """Whether it was revoked."""
    creates_join_request: bool = False
    """Whether users joining by it must be approved by an administrator."""
    expire_date: DateTime | None = None
    """When it stops working."""
    member_limit: int | None = Field(default=None, ge=1, le=99999)
    """How many users may join by it."""
    member_count: int = 0
    """How many users joined by it."""
    pending_join_request_count: int = 0
    """Join requests by it awaiting a decision."""


class JoinRequest(Record):
    """A user's request to join a chat by a link that needs approval."""

    id: JoinRequestId
    chat_id: ChatId
    """The chat."""
    user_id: UserId
    """The user asking to join."""
    invite_link_id: InviteLinkId
    """The link they used."""
    status: Literal["pending", "approved", "declined"] = "pending"
    """pending, approved or declined."""
    date: Annotated[DateTime, CREATED]
    """When they asked."""
    decided_at: DateTime | None = None
    """When it was approved or declined."""


class Update(Record):
    """An incoming update for a bot: a message, a membership change or a join request."""

    id: UpdateRecordId
    bot_id: BotId
    """The bot it is for."""
    update_id: int
    """The update's sequence number (increasing)."""
    update_type: UpdateType
    """message, channel_post, my_chat_member (the bot's own status changed), chat_member or chat_join_request."""
    chat_id: ChatId
    """The chat it happened in."""
    user_id: UserId | None = None
    """The user who caused it."""
    message_id: MessageId | None = None
    """The message, for message updates."""
    join_request_id: JoinRequestId | None = None
    """The join request, for chat_join_request updates."""
    status: Literal["pending", "confirmed"] = "pending"
    """pending until get_updates confirms it or the webhook receives it."""
    date: Annotated[DateTime, CREATED]
    """When it happened."""


# -- guards -----------------------------------------------------------------------------------


def _guard_chat(ctx: Ctx, new: Any, old: Any) -> None:
    if new.bot_status != old.bot_status:  # leave_chat
        _not_private(old, "leave")
        ctx.update(new, bot_rights=())
        return
    if old.type == "private":
        raise RuleViolation(
            "a private chat has no title or description", field="chat_id", hint="pick a group or channel"
        )
    _need_right(old, "can_change_info", "change the chat's title or description")


def _guard_pin(ctx: Ctx, new: Any, old: Any) -> None:
    chat = ctx.get(Chat, old.chat_id)
    action = "pin messages" if new.is_pinned else "unpin messages"
    if chat.type == "channel":
        _need_right(chat, "can_edit_messages", action, "message_id")
    elif chat.type in ("group", "supergroup"):
        _need_right(chat, "can_pin_messages", action, "message_id")
    else:
        _can_post(chat, "message_id")
    if old.kind == "service":
        raise RuleViolation("Bad Request: service messages can't be pinned", field="message_id", hint="pick a message")


def _guard_revoke(ctx: Ctx, new: Any, old: Any) -> None:
    chat = ctx.get(Chat, old.chat_id)
    _need_right(chat, "can_invite_users", "revoke invite links", "invite_link_id")
    if old.creator_user_id is not None and not old.is_primary:
        raise RuleViolation(
            f"Bad Request: invite link {old.invite_link} was made by another administrator",
            field="invite_link_id",
            hint="a bot revokes only links it made, or the primary link",
        )
    if old.is_primary:
        ctx.update(new, is_primary=False)
        _new_link(ctx, chat, is_primary=True)


def _guard_join_request(ctx: Ctx, new: Any, old: Any) -> None:
    chat = ctx.get(Chat, old.chat_id)
    _need_right(chat, "can_invite_users", "decide join requests", "join_request_id")
    link = ctx.get(InviteLink, old.invite_link_id)
    pending = max(0, link.pending_join_request_count - 1)
    if new.status == "approved":
        _join(ctx, chat, old.user_id, _member(ctx, chat, old.user_id))
        ctx.update(link, member_count=link.member_count + 1, pending_join_request_count=pending)
    else:
        ctx.update(link, pending_join_request_count=pending)
    ctx.update(new, decided_at=ctx.now())


bots = service.resource(
    Bot,
    name="bot",
    plural="bots",
    prefix="bot",
    create=False,
    filters=("owner_email", "username"),
    search=("username", "first_name"),
    update=("first_name", "description", "short_description"),
    delete=False,
    unique=("username",),
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("username", "phone_number", "language_code"),
    search=("first_name", "last_name", "username"),
    delete=False,
    title="messenger user",
)
chats = service.resource(
    Chat,
    name="chat",
    plural="chats",
    prefix="chat",
    create=False,
    filters=("bot_id", "type", "user_id", "bot_status", "username", "first_name", "last_name"),
    search=("title", "username", "first_name", "last_name"),
    update=("title", "description"),
    delete=False,
    transitions={
        "leave": Transition(
            "bot_status",
            ("member", "administrator"),
            "left",
            "have the bot leave the chat",
            description="Make the bot leave a group, supergroup or channel; it loses its administrator rights "
            "there. Allowed while the bot is a member or an administrator.",
        )
    },
    guard_update=_guard_chat,
)
members = service.resource(
    ChatMember,
    name="chat_member",
    plural="chat_members",
    prefix="cm",
    create=False,
    get=False,
    filters=("chat_id", "user_id", "status"),
    delete=False,
    title="chat member",
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=("chat_id", "bot_id", "sender_type", "from_user_id", "kind", "is_pinned"),
    search=("text",),
    delete=False,
    transitions={
        "pin": Transition(
            "is_pinned",
            (False,),
            True,
            "pin the message in its chat",
            description="Pin a message in its chat. In groups and supergroups the bot needs the pin right, in "
            "channels the edit right; in a private chat it may pin while the user has not blocked it. A chat's "
            "creation notice cannot be pinned.",
        ),
        "unpin": Transition(
            "is_pinned",
            (True,),
            False,
            "unpin the message",
            description="Unpin a pinned message; the rights of pin_message apply.",
        ),
    },
    guard_update=_guard_pin,
)
links = service.resource(
    InviteLink,
    name="invite_link",
    plural="invite_links",
    prefix="link",
    create=False,
    get=False,
    filters=("chat_id", "is_primary", "is_revoked", "creates_join_request"),
    search=("name",),
    delete=False,
    transitions={
        "revoke": Transition(
            "is_revoked",
            (False,),
            True,
            "revoke the invite link",
            description="Revoke an invite link the bot made, or the chat's primary link (a new primary link then "
            "replaces it); nobody can join by a revoked link. The bot needs the invite right.",
            destructive=True,
        )
    },
    guard_update=_guard_revoke,
    title="invite link",
)
join_requests = service.resource(
    JoinRequest,
    name="join_request",
    plural="join_requests",
    prefix="jr",
    create=False,
    get=False,
    filters=("chat_id", "user_id", "status", "invite_link_id"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("pending",),
            "approved",
            "approve the request to join the chat",
            description="Approve a pending join request: the user becomes a member of the chat. The bot needs the "
            "invite right.",
        ),
        "decline": Transition(
            "status",
            ("pending",),
            "declined",
            "decline the request to join the chat",
            description="Decline a pending join request. The bot needs the invite right.",
        ),
    },
    guard_update=_guard_join_request,
    title="join request",
)
updates = service.resource(
    Update,
    name="update",
    plural="updates",
    prefix="upd",
    create=False,
    get=False,
    filters=None,
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def _label(chat: Chat) -> str:
    return f"{chat.type} chat {chat.title or chat.id}"


def _need_right(chat: Chat, right: str, action: str, field: str = "chat_id") -> None:
    """The bot must be an administrator of the chat holding ``right``."""
    if chat.bot_status != "administrator" or right not in chat.bot_rights:
        raise RuleViolation(
            f"the bot needs the {right} administrator right in {_label(chat)} to {action}",
            field=field,
            hint="ask the chat's owner to promote the bot with that right",
        )


def _not_private(chat: Chat, action: str, field: str = "chat_id") -> None:
    if chat.type == "private":
        raise RuleViolation(f"cannot {action} in a private chat", field=field, hint="pick a group or channel")


def _can_post(chat: Chat, field: str = "chat_id") -> None:
    """The bot may send to the chat: started and not blocked, still a member, a posting admin of a channel."""
    if chat.type == "private":
        if chat.bot_status == "kicked":
            raise RuleViolation(
                f"Forbidden: the user of {chat.id} blocked the bot",
                field=field,
                hint="the bot can write again only after the user unblocks it and sends /start",
            )
        return
    if chat.bot_status not in ("member", "administrator"):
        raise RuleViolation(
            f"Forbidden: the bot is not a member of {_label(chat)} (it is {chat.bot_status})",
            field=field,
            hint="an administrator must add the bot back to the chat",
        )
    if chat.type == "channel":
        _need_right(chat, "can_post_messages", "post", field)


def _clean(text: str, limit: int, what: str, field: str, *, empty_ok: bool = False) -> str:
    text = text.strip()
    if not text and not empty_ok:
        raise RuleViolation(f"Bad Request: {what} is empty", field=field, hint=f"write the {what}")
    if len(text) > limit:
        raise RuleViolation(
            f"Bad Request: {what} is too long ({len(text)} characters, at most {limit})",
            field=field,
            hint="shorten it, or split it into several messages",
        )
    return text


def _message_in(ctx: Ctx, message_id: str, chat: Chat, field: str) -> Message:
    msg = ctx.get(Message, message_id, field=field)
    if msg.chat_id != chat.id:
        raise RuleViolation(
            f"message {message_id} is not in {_label(chat)}",
            field=field,
            hint="reply to a message of the same chat",
        )
    return msg


def _member(ctx: Ctx, chat: Chat, user_id: str) -> ChatMember | None:
    return ctx.first(ChatMember, chat_id=chat.id, user_id=user_id)


def _target(ctx: Ctx, chat: Chat, user_id: str, action: str) -> ChatMember | None:
    """The member the bot acts on, refused when the bot cannot touch them (owner, foreign administrator)."""
    ctx.get(User, user_id, field="user_id")
    mem = _member(ctx, chat, user_id)
    if mem is None:
        return None
    if mem.status == "creator":
        raise RuleViolation(
            f"Bad Request: cannot {action} the owner of {_label(chat)}",
            field="user_id",
            hint="nobody can act on the chat's owner",
        )
    if mem.status == "administrator" and not mem.can_be_edited:
        raise RuleViolation(
            f"Bad Request: user {user_id} is an administrator of {_label(chat)} the bot did not promote",
            field="user_id",
            hint="only the administrator who promoted them, or the owner, can act on them",
        )
    return mem


def _until(ctx: Ctx, until: dt.datetime | None) -> dt.datetime | None:
    """A ban or restriction end: less than 30 seconds or more than 366 days ahead means for ever (null)."""
    if until is None:
        return None
    ahead = until - ctx.now()
    if ahead < dt.timedelta(seconds=30) or ahead > dt.timedelta(days=366):
        return None
    return until


def _lapsed(ctx: Ctx, mem: ChatMember) -> bool:
    return mem.until_date is not None and mem.until_date <= ctx.now()


def _new_update(ctx: Ctx, bot: Bot, kind: str, chat: Chat, *, user_id: str | None = None, **refs: Any) -> Update:
    n = ctx.next_number(Update, "update_id")
    return ctx.create(
        Update,
        bot_id=bot.id,
        update_id=UPDATE_BASE + 100_000 + n,
        update_type=kind,
        chat_id=chat.id,
        user_id=user_id,
        status="confirmed" if bot.webhook_url else "pending",
        **refs,
    )


def _link_dead(ctx: Ctx, link: InviteLink) -> str | None:
    if link.is_revoked:
        return "was revoked"
    if link.expire_date is not None and link.expire_date <= ctx.now():
        return "has expired"
    if link.member_limit is not None and link.member_count >= link.member_limit:
        return f"reached its member limit of {link.member_limit}"
    return None


def _new_link(ctx: Ctx, chat: Chat, **fields: Any) -> InviteLink:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    code = "".join(ctx.rng.choice(alphabet) for _ in range(16))
    return ctx.create(InviteLink, chat_id=chat.id, invite_link=f"https://kst.me/+{code}", **fields)


def _join(ctx: Ctx, chat: Chat, user_id: str, mem: ChatMember | None) -> ChatMember:
    if mem is None:
        return ctx.create(ChatMember, chat_id=chat.id, user_id=user_id, status="member")
    return ctx.update(
        mem,
        status="member",
        rights=(),
        can_be_edited=False,
        can_send_messages=True,
        can_send_media=True,
        until_date=None,
    )


# -- examples ---------------------------------------------------------------------------------


def _open_private(ctx: Ctx) -> Chat:
    return next(c for c in ctx.where(Chat, type="private", bot_status="member"))


def _admin_chat(ctx: Ctx, right: str, *types: str) -> Chat | None:
    for chat in ctx.where(Chat, bot_status="administrator"):
        if right in chat.bot_rights and chat.type in types:
            return chat
    return None


def _plain_member(ctx: Ctx, chat: Chat) -> ChatMember | None:
    return ctx.first(ChatMember, chat_id=chat.id, status="member")


def _example_send(ctx: Ctx) -> dict[str, Any]:
    return {"chat_id": _open_private(ctx).id, "text": "Your order is on its way."}


def _example_media(ctx: Ctx) -> dict[str, Any]:
    return {
        "chat_id": _open_private(ctx).id,
        "media_type": "document",
        "file_name": "invoice.pdf",
        "file_size": 180_000,
        "caption": "Your invoice",
    }


def _example_forward(ctx: Ctx) -> dict[str, Any] | None:
    target = _open_private(ctx)
    for chat in ctx.where(Chat, bot_id=target.bot_id, has_protected_content=False):
        if chat.bot_status in ("member", "administrator") and chat.id != target.id:
            for msg in ctx.where(Message, chat_id=chat.id):
                if msg.kind != "service":
                    return {"from_chat_id": chat.id, "message_id": msg.id, "chat_id": target.id}
    return None


def _recent_own(ctx: Ctx, kinds: tuple[str, ...]) -> Message | None:
    for chat in ctx.where(Chat, type="private", bot_status="member"):
        for msg in ctx.where(Message, chat_id=chat.id, sender_type="bot"):
            if msg.kind in kinds and ctx.now() - msg.date < EDIT_DELETE_WINDOW:
                return msg
    return None


def _example_edit_text(ctx: Ctx) -> dict[str, Any] | None:
    msg = _recent_own(ctx, ("text",))
    return None if msg is None else {"message_id": msg.id, "text": msg.text + " (updated)"}


def _example_delete(ctx: Ctx) -> dict[str, Any] | None:
    msg = _recent_own(ctx, ("text", "photo", "document"))
    return None if msg is None else {"message_id": msg.id}


def _example_member_action(status: str, *types: str, **extra: Any) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        chat = _admin_chat(ctx, "can_restrict_members", *types)
        if chat is None:
            return None
        mem = ctx.first(ChatMember, chat_id=chat.id, status=status)
        return None if mem is None else {"chat_id": chat.id, "user_id": mem.user_id, **extra}

    return example


def _example_promote(ctx: Ctx) -> dict[str, Any] | None:
    chat = _admin_chat(ctx, "can_promote_members", "supergroup", "group")
    if chat is None:
        return None
    mem = _plain_member(ctx, chat)
    return None if mem is None else {"chat_id": chat.id, "user_id": mem.user_id, "rights": ["can_delete_messages"]}


def _example_create_link(ctx: Ctx) -> dict[str, Any] | None:
    chat = _admin_chat(ctx, "can_invite_users", "supergroup", "group", "channel")
    return None if chat is None else {"chat_id": chat.id, "name": "Spring fair", "member_limit": 50}


def _example_receive(ctx: Ctx) -> dict[str, Any]:
    chat = _open_private(ctx)
    return {"bot_id": chat.bot_id, "user_id": chat.user_id, "text": "Where is my parcel?"}


def _example_block(ctx: Ctx) -> dict[str, Any]:
    chat = _open_private(ctx)
    return {"bot_id": chat.bot_id, "user_id": chat.user_id}


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    for link in ctx.where(InviteLink, is_revoked=False):
        if _link_dead(ctx, link) is not None:
            continue
        joined = {m.user_id for m in ctx.where(ChatMember, chat_id=link.chat_id)}
        asked = {r.user_id for r in ctx.where(JoinRequest, chat_id=link.chat_id, status="pending")}
        for user in ctx.scan(User):
            if user.id not in joined and user.id not in asked:
                return {"invite_link_id": link.id, "user_id": user.id}
    return None


def _example_set_webhook(ctx: Ctx) -> dict[str, Any] | None:
    bot = ctx.first(Bot, webhook_url=None)
    return None if bot is None else {"bot_id": bot.id, "url": f"https://hooks.{ctx.population.home.domain}/tg/orders"}


def _example_delete_webhook(ctx: Ctx) -> dict[str, Any] | None:
    bot = next((b for b in ctx.scan(Bot) if b.webhook_url is not None), None)
    return None if bot is None else {"bot_id": bot.id}


# -- bot and updates --------------------------------------------------------------------------


@service.tool(intent="point the bot's updates at a webhook", write=True, example=_example_set_webhook)
def set_webhook(
    ctx: Ctx, bot_id: BotId, url: Url, drop_pending_updates: bool = False, max_connections: int = 40
) -> Bot:
    """Have the bot's updates posted to an HTTPS URL instead of polled with get_updates.

    The URL must be HTTPS on port 443, 80, 88 or 8443. Pending updates are
    posted to the new webhook, or dropped with drop_pending_updates.

    Args:
        bot_id: The bot.
        url: The HTTPS endpoint.
        drop_pending_updates: Drop the updates waiting for the bot instead of delivering them.
        max_connections: Simultaneous connections to the webhook (1-100).
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    parts = urlsplit(url)
    if parts.scheme != "https":
        raise RuleViolation(
            "Bad Request: bad webhook: an HTTPS URL must be provided for the webhook",
            field="url",
            hint="use an https:// URL",
        )
    try:
        port = parts.port or 443
    except ValueError:
        port = -1
    if port not in WEBHOOK_PORTS:
        raise RuleViolation(
            f"Bad Request: bad webhook: the webhook can be set up only on ports 80, 88, 443 or 8443, not {port}",
            field="url",
            hint="serve the webhook on port 443, 80, 88 or 8443",
        )
    if not 1 <= max_connections <= 100:
        raise RuleViolation("max_connections must be 1-100", field="max_connections", hint="pick 1 to 100")
    for upd in ctx.where(Update, bot_id=bot.id, status="pending"):
        if drop_pending_updates:
            ctx.delete(upd)
        else:
            ctx.update(upd, status="confirmed")
    return ctx.update(bot, webhook_url=url, max_connections=max_connections)


@service.tool(intent="remove the bot's webhook", write=True, example=_example_delete_webhook)
def delete_webhook(ctx: Ctx, bot_id: BotId, drop_pending_updates: bool = False) -> Bot:
    """Remove the bot's webhook so that it polls for updates with get_updates again.

    Args:
        bot_id: The bot.
        drop_pending_updates: Also drop the updates waiting for the bot.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    if bot.webhook_url is None:
        raise Conflict(f"bot @{bot.username} has no webhook", field="bot_id", hint="it already polls; call get_updates")
    if drop_pending_updates:
        for upd in ctx.where(Update, bot_id=bot.id, status="pending"):
            ctx.delete(upd)
    return ctx.update(bot, webhook_url=None)


@service.tool(
    intent="fetch the bot's new updates",
    write=True,
    idempotent=True,
    example=first_example(Bot, "bot_id", where={"webhook_url": None}),
)
def get_updates(ctx: Ctx, bot_id: BotId, offset: int | None = None, limit: int = 100) -> list[Update]:
    """Poll the bot's pending updates, oldest first.

    Updates with an update_id below offset are confirmed and not returned
    again; updates wait at most 24 hours. Not available while a webhook is set.

    Args:
        bot_id: The bot.
        offset: One more than the last update_id already handled; confirms everything before it.
        limit: How many updates to return (1-100).
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    if bot.webhook_url is not None:
        raise Conflict(
            "Conflict: can't use getUpdates method while webhook is active",
            field="bot_id",
            hint="delete the webhook with botchat__delete_webhook first",
        )
    if not 1 <= limit <= 100:
        raise RuleViolation("limit must be 1-100", field="limit", hint="pick 1 to 100")
    fresh: list[Update] = []
    for upd in ctx.where(Update, bot_id=bot.id, status="pending"):
        if offset is not None and upd.update_id < offset:
            ctx.update(upd, status="confirmed")
        elif ctx.now() - upd.date <= UPDATE_RETENTION:
            fresh.append(upd)
    return sorted(fresh, key=lambda u: u.update_id)[:limit]


# -- messages ---------------------------------------------------------------------------------


@service.tool(intent="send a message from the bot", write=True, example=_example_send)
def send_message(ctx: Ctx, chat_id: ChatId, text: Text, reply_to_message_id: MessageId | None = None) -> Message:
    """Send a text message from the bot to a chat.

    In a private chat the user must have started the bot and not blocked it;
    in a group the bot must still be a member; in a channel it must be an
    administrator that may post. Text is 1-4096 characters.

    Args:
        chat_id: The chat.
        text: The message text.
        reply_to_message_id: A message of the same chat to reply to.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    _can_post(chat)
    body = _clean(text, MAX_TEXT, "message text", "text")
    if reply_to_message_id is not None:
        _message_in(ctx, reply_to_message_id, chat, "reply_to_message_id")
    return ctx.create(
        Message,
        chat_id=chat.id,
        bot_id=chat.bot_id,
        sender_type="bot",
        text=body,
        reply_to_message_id=reply_to_message_id,
    )


@service.tool(intent="send a photo, file or voice message from the bot", write=True, example=_example_media)
def send_media_message(
    ctx: Ctx,
    chat_id: ChatId,
    media_type: MediaType,
    file_name: FileName,
    file_size: int,
    caption: Text = "",
) -> Message:
    """Send a photo, document, video, voice note or sticker from the bot.

    Uploads are at most 10 MB for photos, 50 MB for other files and 512 KB
    for stickers; a caption is at most 1024 characters and stickers take none.
    The chat rules of send_message apply.

    Args:
        chat_id: The chat.
        media_type: photo, document, video, voice or sticker.
        file_name: The file's name.
        file_size: The file's size in bytes.
        caption: Text shown under the media.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    _can_post(chat)
    limit = STICKER_LIMIT if media_type == "sticker" else UPLOAD_LIMITS[media_type]
    if not 0 < file_size <= limit:
        raise RuleViolation(
            f"Bad Request: a {media_type} must be 1 to {limit} bytes, not {file_size}",
            field="file_size",
            hint="compress the file, or send it as a link in a text message",
        )
    if media_type == "sticker" and caption.strip():
        raise RuleViolation("Bad Request: stickers have no caption", field="caption", hint="send the text separately")
    cap = _clean(caption, MAX_CAPTION, "caption", "caption", empty_ok=True)
    return ctx.create(
        Message,
        chat_id=chat.id,
        bot_id=chat.bot_id,
        sender_type="bot",
        kind=media_type,
        text=cap,
        file_name=file_name,
        file_size=file_size,
    )


@service.tool(intent="forward the message to another chat", write=True, example=_example_forward)
def forward_message(ctx: Ctx, from_chat_id: ChatId, message_id: MessageId, chat_id: ChatId) -> Message:
    """Forward a message of one of the bot's chats to another chat of the same bot.

    Messages of chats with protected content and service messages cannot be
    forwarded; the bot must still be in the source chat and may post to the
    target.

    Args:
        from_chat_id: The chat the message is in.
        message_id: The message.
        chat_id: The chat to forward it to.
    """
    source = ctx.get(Chat, from_chat_id, field="from_chat_id")
    target = ctx.get(Chat, chat_id, field="chat_id")
    msg = _message_in(ctx, message_id, source, "message_id")
    if target.bot_id != source.bot_id:
        raise RuleViolation(
            f"{_label(target)} belongs to another bot than the message",
            field="chat_id",
            hint="forward within the chats of the bot that sees the message",
        )
    if source.type != "private" and source.bot_status not in ("member", "administrator"):
        raise RuleViolation(
            f"Bad Request: the bot has no access to {_label(source)} any more",
            field="from_chat_id",
            hint="the bot must be a member of the source chat",
        )
    if source.has_protected_content:
        raise RuleViolation(
            f"Bad Request: messages of {_label(source)} can't be forwarded (protected content)",
            field="from_chat_id",
            hint="send the information as a new message instead",
        )
    if msg.kind == "service":
        raise RuleViolation(
            "Bad Request: service messages can't be forwarded", field="message_id", hint="pick a message"
        )
    _can_post(target)
    return ctx.create(
        Message,
        chat_id=target.id,
        bot_id=target.bot_id,
        sender_type="bot",
        kind=msg.kind,
        text=msg.text,
        file_name=msg.file_name,
        file_size=msg.file_size,
        forward_from_chat_id=source.id,
    )


def _editable(ctx: Ctx, message_id: str) -> tuple[Message, Chat]:
    msg = ctx.get(Message, message_id, field="message_id")
    chat = ctx.get(Chat, msg.chat_id)
    channel_post = chat.type == "channel" and msg.sender_type == "channel"
    if msg.sender_type != "bot" and not (channel_post and "can_edit_messages" in chat.bot_rights):
        raise RuleViolation(
            f"Bad Request: message {msg.id} can't be edited: the bot did not send it",
            field="message_id",
            hint="a bot edits only its own messages (and a channel's posts when it may edit messages there)",
        )
    _can_post(chat, field="message_id")
    return msg, chat


@service.tool(intent="correct the text of the bot's message", write=True, example=_example_edit_text)
def edit_message_text(ctx: Ctx, message_id: MessageId, text: Text) -> Message:
    """Change the text of a text message the bot sent.

    The new text must differ from the current one and be 1-4096 characters;
    only text messages have text to edit.

    Args:
        message_id: The message.
        text: The new text.
    """
    msg, _ = _editable(ctx, message_id)
    if msg.kind != "text":
        raise RuleViolation(
            "Bad Request: there is no text in the message to edit",
            field="message_id",
            hint="a media message's caption stays: send the media again with botchat__send_media_message "
            "and delete the old one with botchat__delete_message",
        )
    body = _clean(text, MAX_TEXT, "message text", "text")
    if body == msg.text:
        raise RuleViolation(
            "Bad Request: message is not modified: the new text is the same as the current one",
            field="text",
            hint="pass the corrected text",
        )
    return ctx.update(msg, text=body, edit_date=ctx.now())


@service.tool(intent="delete the message", write=True, destructive=True, example=_example_delete)
def delete_message(ctx: Ctx, message_id: MessageId) -> Deleted:
    """Delete a message for everyone.

    Only messages sent less than 48 hours ago can be deleted; a chat's
    creation notice never. In private chats the bot deletes any message; in
    groups its own, or any as an administrator (with the delete right in
    supergroups); in channels its own with the post right, or any with the
    delete right.

    Args:
        message_id: The message.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    chat = ctx.get(Chat, msg.chat_id)
    if msg.kind == "service":
        raise RuleViolation(
            "Bad Request: message can't be deleted: the chat's creation notice stays",
            field="message_id",
            hint="delete another message",
        )
    if ctx.now() - msg.date >= EDIT_DELETE_WINDOW:
        raise RuleViolation(
            f"Bad Request: message can't be deleted for everyone: it was sent on {msg.date.isoformat()}, "
            "more than 48 hours ago",
            field="message_id",
            hint="only messages younger than 48 hours can be deleted; send a correction instead",
        )
    if chat.type != "private" and chat.bot_status not in ("member", "administrator"):
        raise RuleViolation(
            f"Forbidden: the bot is not a member of {_label(chat)}", field="message_id", hint="it cannot act there"
        )
    own = msg.sender_type == "bot"
    if not own and (chat.type == "supergroup" or (chat.type == "group" and chat.bot_status != "administrator")):
        _need_right(chat, "can_delete_messages", "delete other users' messages", "message_id")
    elif chat.type == "channel":
        _need_right(chat, "can_post_messages" if own else "can_delete_messages", "delete this post", "message_id")
    for reply in ctx.where(Message, reply_to_message_id=msg.id):
        ctx.update(reply, reply_to_message_id=None)
    for upd in ctx.where(Update, message_id=msg.id):
        ctx.update(upd, message_id=None)
    ctx.delete(msg)
    return Deleted(id=msg.id)


# -- chats and members ------------------------------------------------------------------------


@service.tool(
    intent="ban the member from the chat",
    write=True,
    example=_example_member_action("member", "supergroup", "channel"),
)
def ban_chat_member(ctx: Ctx, chat_id: ChatId, user_id: UserId, until_date: DateTime | None = None) -> ChatMember:
    """Ban a user from a group, supergroup or channel.

    The bot must be an administrator with the restrict right. In supergroups
    and channels the user cannot come back by invite link until unbanned; in
    basic groups they are removed and may rejoin. A ban of less than 30
    seconds or more than 366 days is for ever.

    Args:
        chat_id: The chat.
        user_id: The user.
        until_date: When the ban ends; omit for ever.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    _not_private(chat, "ban members")
    _need_right(chat, "can_restrict_members", "ban members")
    mem = _target(ctx, chat, user_id, "ban")
    status = "left" if chat.type == "group" else "kicked"
    if mem is not None and mem.status == status and status == "kicked":
        raise Conflict(f"user {user_id} is already banned from {_label(chat)}", field="user_id", hint="nothing to do")
    if chat.type == "group" and (mem is None or mem.status == "left"):
        raise RuleViolation(
            f"user {user_id} is not in {_label(chat)}", field="user_id", hint="only members of a group can be removed"
        )
    until = _until(ctx, until_date) if status == "kicked" else None
    fields = {"status": status, "rights": (), "can_be_edited": False, "custom_title": None, "until_date": until}
    if mem is None:
        return ctx.create(ChatMember, chat_id=chat.id, user_id=user_id, **fields)
    return ctx.update(mem, **fields)


@service.tool(
    intent="lift the member's ban",
    write=True,
    example=_example_member_action("kicked", "supergroup", "channel"),
)
def unban_chat_member(ctx: Ctx, chat_id: ChatId, user_id: UserId, only_if_banned: bool = False) -> ChatMember:
    """Unban a user from a supergroup or channel: they may join again (they are not added back).

    Unbanning a current member removes them from the chat, unless
    only_if_banned is set.

    Args:
        chat_id: The chat.
        user_id: The user.
        only_if_banned: Do nothing unless the user is banned.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    if chat.type not in ("supergroup", "channel"):
        raise RuleViolation(
            f"Bad Request: unban is available only for supergroups and channels, not a {chat.type}",
            field="chat_id",
            hint="in a basic group a removed user may simply rejoin",
        )
    _need_right(chat, "can_restrict_members", "unban members")
    mem = _target(ctx, chat, user_id, "unban")
    if mem is None or mem.status == "left":
        raise RuleViolation(f"user {user_id} is not banned from {_label(chat)}", field="user_id", hint="nothing to do")
    if mem.status != "kicked" and only_if_banned:
        return mem
    return ctx.update(mem, status="left", until_date=None, rights=(), can_be_edited=False)


@service.tool(
    intent="restrict what the member may send",
    write=True,
    example=_example_member_action("member", "supergroup", can_send_messages=True, can_send_media=False),
)
def restrict_chat_member(
    ctx: Ctx,
    chat_id: ChatId,
    user_id: UserId,
    can_send_messages: bool,
    can_send_media: bool,
    until_date: DateTime | None = None,
) -> ChatMember:
    """Restrict (or free) a member of a supergroup.

    The bot must be an administrator with the restrict right; administrators
    cannot be restricted. Allowing everything lifts the restriction.

    Args:
        chat_id: The supergroup.
        user_id: The member.
        can_send_messages: Whether they may send text messages.
        can_send_media: Whether they may send photos, videos, documents and voice notes.
        until_date: When the restriction ends; omit for ever.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    if chat.type != "supergroup":
        raise RuleViolation(
            f"Bad Request: members can be restricted only in supergroups, not in a {chat.type}",
            field="chat_id",
            hint="ban the user instead, or restrict them in a supergroup",
        )
    _need_right(chat, "can_restrict_members", "restrict members")
    mem = _target(ctx, chat, user_id, "restrict")
    if mem is None or mem.status not in ("member", "restricted"):
        raise RuleViolation(
            f"user {user_id} is not a member of {_label(chat)}"
            + (f" (they are {mem.status})" if mem is not None else ""),
            field="user_id",
            hint="only current members can be restricted; administrators must be demoted first",
        )
    if can_send_messages and can_send_media:
        return ctx.update(mem, status="member", can_send_messages=True, can_send_media=True, until_date=None)
    return ctx.update(
        mem,
        status="restricted",
        can_send_messages=can_send_messages,
        can_send_media=can_send_media,
        until_date=_until(ctx, until_date),
    )


@service.tool(intent="make the member an administrator", write=True, example=_example_promote)
def promote_chat_member(ctx: Ctx, chat_id: ChatId, user_id: UserId, rights: list[AdminRight]) -> ChatMember:
    """Promote a member to administrator with the given rights, change them, or demote with none.

    The bot needs the promote right and can grant only rights it holds itself;
    channel rights (post, edit) exist only in channels, the pin right only in
    groups. Administrators promoted by someone else cannot be changed.

    Args:
        chat_id: The group, supergroup or channel.
        user_id: The member.
        rights: The administrator rights to give; empty to demote.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    _not_private(chat, "promote members")
    _need_right(chat, "can_promote_members", "promote members")
    mem = _target(ctx, chat, user_id, "promote")
    if mem is None or mem.status in ("left", "kicked"):
        raise RuleViolation(
            f"Bad Request: user {user_id} is not a participant of {_label(chat)}",
            field="user_id",
            hint="the user must join the chat first",
        )
    wanted = tuple(dict.fromkeys(rights))
    wrong = [r for r in wanted if (r in CHANNEL_ONLY) != (chat.type == "channel") and r in CHANNEL_ONLY | GROUP_ONLY]
    if wrong:
        raise RuleViolation(
            f"Bad Request: {', '.join(wrong)} does not apply to a {chat.type}",
            field="rights",
            hint="post and edit rights are for channels, the pin right for groups",
        )
    missing = [r for r in wanted if r not in chat.bot_rights]
    if missing:
        raise RuleViolation(
            f"Bad Request: not enough rights: the bot itself lacks {', '.join(missing)}",
            field="rights",
            hint=f"grant only rights the bot holds: {', '.join(chat.bot_rights)}",
        )
    if not wanted:
        if mem.status != "administrator":
            raise Conflict(f"user {user_id} is not an administrator", field="user_id", hint="nothing to demote")
        return ctx.update(mem, status="member", rights=(), can_be_edited=False, custom_title=None)
    return ctx.update(
        mem,
        status="administrator",
        rights=wanted,
        can_be_edited=True,
        can_send_messages=True,
        can_send_media=True,
        until_date=None,
    )


# -- invite links and join requests -----------------------------------------------------------


@service.tool(intent="create an invite link for the chat", write=True, example=_example_create_link)
def create_chat_invite_link(
    ctx: Ctx,
    chat_id: ChatId,
    name: LinkName | None = None,
    expire_date: DateTime | None = None,
    member_limit: int | None = None,
    creates_join_request: bool = False,
) -> InviteLink:
    """Create an additional invite link to a group, supergroup or channel.

    The bot needs the invite right. A link that asks for approval takes no
    member limit; the limit is 1-99999; the expiry must be ahead.

    Args:
        chat_id: The chat.
        name: A name for the link (at most 32 characters).
        expire_date: When the link stops working.
        member_limit: How many users may join by it (1-99999).
        creates_join_request: Whether joiners must be approved by an administrator.
    """
    chat = ctx.get(Chat, chat_id, field="chat_id")
    _not_private(chat, "create invite links")
    _need_right(chat, "can_invite_users", "create invite links")
    if creates_join_request and member_limit is not None:
        raise RuleViolation(
            "Bad Request: member_limit can't be specified for a link that creates join requests",
            field="member_limit",
            hint="drop member_limit, or set creates_join_request to false",
        )
    if member_limit is not None and not 1 <= member_limit <= 99999:
        raise RuleViolation("member_limit must be 1-99999", field="member_limit", hint="pick 1 to 99999")
    if expire_date is not None and expire_date <= ctx.now():
        raise RuleViolation(
            "Bad Request: expire_date must be in the future", field="expire_date", hint="pick a later date"
        )
    return _new_link(
        ctx,
        chat,
        name=name,
        expire_date=expire_date,
        member_limit=member_limit,
        creates_join_request=creates_join_request,
    )


# -- what customers do ------------------------------------------------------------------------


class Inbound(BaseModel):
    """What a user's message did."""

    delivered_to_bot: bool = Field(description="Whether the bot received it (privacy mode hides other group talk).")
    message: Message | None = Field(description="The message as the bot sees it; null when not delivered.")
    update: Update | None = Field(description="The update it made for the bot; null when not delivered.")
    chat: Chat = Field(description="The chat it was sent in.")


def _is_start(text: str) -> bool:
    first = text.strip().split(" ", 1)[0].lower()
    return first == "/start" or first.startswith("/start@")


@service.tool(intent="write to the bot as the customer", write=True, example=_example_receive)
def receive_message(
    ctx: Ctx,
    bot_id: BotId,
    user_id: UserId,
    text: Text,
    chat_id: ChatId | None = None,
    reply_to_message_id: MessageId | None = None,
) -> Inbound:
    """A user writes to the bot privately (no chat_id) or in a group or channel the bot is in.

    A private chat starts with /start, which also restarts a bot the user had
    blocked. In groups the user must be allowed to write; with privacy mode on,
    a bot that is not an administrator receives only commands, mentions of it
    and replies to its messages. Only administrators post in channels.

    Args:
        bot_id: The bot.
        user_id: The user writing.
        text: What they write.
        chat_id: The group, supergroup or channel; omit for the private chat with the bot.
        reply_to_message_id: A message of the chat they reply to.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    user = ctx.get(User, user_id, field="user_id")
    body = _clean(text, MAX_TEXT, "message text", "text")
    if chat_id is None:
        return _receive_private(ctx, bot, user, body, reply_to_message_id)
    chat = ctx.get(Chat, chat_id, field="chat_id")
    if chat.bot_id != bot.id or chat.type == "private":
        raise RuleViolation(
            f"{_label(chat)} is not a group or channel of @{bot.username}",
            field="chat_id",
            hint="omit chat_id to write to the bot privately",
        )
    if chat.bot_status not in ("member", "administrator"):
        raise RuleViolation(
            f"@{bot.username} is not in {_label(chat)} and receives nothing from it",
            field="chat_id",
            hint="an administrator must add the bot back first",
        )
    mem = _member(ctx, chat, user.id)
    status = mem.status if mem is not None else "left"
    if chat.type == "channel" and status not in ("creator", "administrator"):
        raise RuleViolation(
            f"only administrators post in {_label(chat)}", field="user_id", hint="subscribers can only read a channel"
        )
    if status in ("left", "kicked") or (
        status == "restricted" and mem is not None and not mem.can_send_messages and not _lapsed(ctx, mem)
    ):
        raise RuleViolation(
            f"user {user.id} may not write in {_label(chat)} (they are {status})",
            field="user_id",
            hint="the user must be a member allowed to send messages",
        )
    reply = None
    if reply_to_message_id is not None:
        reply = _message_in(ctx, reply_to_message_id, chat, "reply_to_message_id")
    addressed = (
        body.startswith("/")
        or f"@{bot.username.lower()}" in body.lower()
        or (reply is not None and reply.sender_type == "bot")
    )
    if chat.type != "channel" and not (
        bot.can_read_all_group_messages or chat.bot_status == "administrator" or addressed
    ):
        return Inbound(delivered_to_bot=False, message=None, update=None, chat=chat)
    channel = chat.type == "channel"
    msg = ctx.create(
        Message,
        chat_id=chat.id,
        bot_id=bot.id,
        sender_type="channel" if channel else "user",
        from_user_id=None if channel else user.id,
        text=body,
        reply_to_message_id=reply_to_message_id,
    )
    upd = _new_update(ctx, bot, "channel_post" if channel else "message", chat, user_id=user.id, message_id=msg.id)
    return Inbound(delivered_to_bot=True, message=msg, update=upd, chat=chat)


def _receive_private(ctx: Ctx, bot: Bot, user: User, body: str, reply_to: str | None) -> Inbound:
    chat = ctx.first(Chat, bot_id=bot.id, type="private", user_id=user.id)
    if chat is None or chat.bot_status == "kicked":
        if not _is_start(body):
            state = "has not started" if chat is None else "blocked"
            raise RuleViolation(
                f"user {user.id} {state} @{bot.username}; the app sends /start first",
                field="text",
                hint="the user's first message (or the one that unblocks the bot) is /start",
            )
        if chat is None:
            chat = ctx.create(
                Chat,
                bot_id=bot.id,
                type="private",
                user_id=user.id,
                username=user.username,
                first_name=user.first_name,
                last_name=user.last_name,
            )
        else:
            chat = ctx.update(chat, bot_status="member")
        _new_update(ctx, bot, "my_chat_member", chat, user_id=user.id)
    if reply_to is not None:
        _message_in(ctx, reply_to, chat, "reply_to_message_id")
    msg = ctx.create(
        Message,
        chat_id=chat.id,
        bot_id=bot.id,
        sender_type="user",
        from_user_id=user.id,
        text=body,
        reply_to_message_id=reply_to,
    )
    upd = _new_update(ctx, bot, "message", chat, user_id=user.id, message_id=msg.id)
    return Inbound(delivered_to_bot=True, message=msg, update=upd, chat=chat)


@service.tool(intent="block the bot as the customer", write=True, example=_example_block)
def block_bot(ctx: Ctx, bot_id: BotId, user_id: UserId) -> Chat:
    """A user blocks the bot: the bot's status in their private chat becomes kicked and it can no longer write.

    Args:
        bot_id: The bot.
        user_id: The user.
    """
    bot = ctx.get(Bot, bot_id, field="bot_id")
    ctx.get(User, user_id, field="user_id")
    chat = ctx.first(Chat, bot_id=bot.id, type="private", user_id=user_id)
    if chat is None:
        raise NotFound(
            f"user {user_id} never started @{bot.username}", field="user_id", hint="only a started bot can be blocked"
        )
    if chat.bot_status == "kicked":
        raise Conflict(f"user {user_id} already blocked @{bot.username}", field="user_id", hint="nothing to do")
    chat = ctx.update(chat, bot_status="kicked")
    _new_update(ctx, bot, "my_chat_member", chat, user_id=user_id)
    return chat


class Joined(BaseModel):
    """What following an invite link did."""

    member: ChatMember | None = Field(description="The membership, when the user joined at once.")
    join_request: JoinRequest | None = Field(description="The join request, when the link needs approval.")


@service.tool(intent="join the chat by its invite link as the customer", write=True, example=_example_join)
def join_chat(ctx: Ctx, invite_link_id: InviteLinkId, user_id: UserId) -> Joined:
    """A user follows an invite link: they join, or ask to join when the link needs approval.

    Revoked, expired and full links admit nobody; a user banned from a
    supergroup or channel cannot come back by link.

    Args:
        invite_link_id: The link.
        user_id: The user.
    """
    link = ctx.get(InviteLink, invite_link_id, field="invite_link_id")
    ctx.get(User, user_id, field="user_id")
    chat = ctx.get(Chat, link.chat_id)
    dead = _link_dead(ctx, link)
    if dead is not None:
        raise RuleViolation(
            f"invite link {link.invite_link} {dead}", field="invite_link_id", hint="ask an administrator for a new link"
        )
    mem = _member(ctx, chat, user_id)
    if mem is not None and mem.status == "kicked" and not _lapsed(ctx, mem):
        raise RuleViolation(
            f"user {user_id} is banned from {_label(chat)}",
            field="user_id",
            hint="an administrator must unban them first",
        )
    if mem is not None and mem.status not in ("left", "kicked"):
        raise Conflict(
            f"user {user_id} is already in {_label(chat)} ({mem.status})", field="user_id", hint="nothing to do"
        )
    bot = ctx.get(Bot, chat.bot_id)
    if link.creates_join_request:
        if ctx.first(JoinRequest, chat_id=chat.id, user_id=user_id, status="pending") is not None:
            raise Conflict(
                f"user {user_id} already asked to join {_label(chat)}", field="user_id", hint="wait for the decision"
            )
        req = ctx.create(JoinRequest, chat_id=chat.id, user_id=user_id, invite_link_id=link.id)
        ctx.update(link, pending_join_request_count=link.pending_join_request_count + 1)
        if chat.bot_status == "administrator":
            _new_update(ctx, bot, "chat_join_request", chat, user_id=user_id, join_request_id=req.id)
        return Joined(member=None, join_request=req)
    joined = _join(ctx, chat, user_id, mem)
    ctx.update(link, member_count=link.member_count + 1)
    if chat.bot_status == "administrator":
        _new_update(ctx, bot, "chat_member", chat, user_id=user_id)
    return Joined(member=joined, join_request=None)


# -- seed -------------------------------------------------------------------------------------

GREETING = "Hi {first}! I am {bot}. Ask me about your orders, returns and deliveries."
QUESTIONS = (
    ("Where is my order {order}?", "Your order {order} left our warehouse yesterday and arrives in 2-3 days."),
    ("Can I return the item I bought?", "Yes: returns are free within 30 days. Reply /return to start one."),
    ("Do you ship to {city}?", "We ship to {city} in 3-5 working days."),
    ("My parcel arrived damaged.", "Sorry to hear that, {first}. Please send a photo and we will replace it."),
    ("How do I change my delivery address?", "Reply with the new address and the order number."),
)
GROUP_TALK = (
    "Has anyone tried the new docking station?",
    "Shipping to my city was faster than promised!",
    "Is there a discount code for the spring sale?",
    "Thanks for the quick help with my return.",
    "Which notebook set do you recommend?",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Bots owned by staff, customers and staff as users, private chats, a community, a channel and their traffic."""
    pop = s.population
    support_owner = pop.staff("Support", fallback=1)[0]
    marketing = pop.staff("Marketing", fallback=2)
    domain = pop.home.domain
    short = "".join(ch for ch in strip_accents(pop.home.name) if ch.isalnum())[:16]
    short = short if short[:1].isalpha() else f"Co{short}"[:16]
    support = s.create(
        Bot,
        username=f"{short}SupportBot",
        first_name=f"{pop.home.name} Support",
        description="Answers questions about orders, deliveries and returns.",
        short_description="Customer support",
        owner_email=support_owner.email,
        webhook_url=f"https://hooks.{domain}/telegram/support",
        created_at=s.now - dt.timedelta(days=420),
    )
    orders = s.create(
        Bot,
        username=f"{short}OrdersBot",
        first_name=f"{pop.home.name} Orders",
        description="Sends order and delivery notifications.",
        short_description="Order updates",
        owner_email=support_owner.email,
        created_at=s.now - dt.timedelta(days=300),
    )
    community = s.create(
        Bot,
        username=f"{short}CommunityBot",
        first_name=f"{pop.home.name} Community",
        description="Moderates the community group and posts news to the channel.",
        owner_email=marketing[0].email,
        created_at=s.now - dt.timedelta(days=250),
    )
    staff_users, customer_users = _seed_users(s)
    _seed_private_chats(s, support, orders, customer_users)
    _seed_groups(s, community, staff_users, customer_users)


def _username(person: Person, taken: set[str]) -> str:
    base = "".join(ch if ch.isalnum() else "_" for ch in strip_accents(f"{person.first_name}_{person.last_name}"))
    base = base.lower().strip("_")
    base = (base if base[:1].isalpha() else f"u_{base}")[:28]
    if len(base) < 5:
        base = f"{base}_tg"[:28].ljust(5, "x")
    name, n = base, 1
    while len(name) < 5 or name in taken:
        n += 1
        name = f"{base}{n}"
    taken.add(name)
    return name


def _seed_users(s: SeedContext) -> tuple[list[tuple[User, Person]], list[tuple[User, Person]]]:
    """Six staff who run the community and most consumers; about half of them shared their phone number."""
    pop = s.population
    taken: set[str] = set()
    runners = (pop.staff("Marketing", "Support", fallback=6))[:6]
    out: list[list[tuple[User, Person]]] = [[], []]
    for group, people in ((0, runners), (1, list(pop.consumers)[:44])):
        for k, p in enumerate(people):
            user = s.create(
                User,
                first_name=p.first_name,
                last_name=p.last_name if k % 7 != 3 else None,
                username=_username(p, taken) if k % 5 != 4 else None,
                language_code=p.place.language,
                phone_number=p.phone if group == 0 or k % 2 == 0 else None,
                is_premium=k % 6 == 1,
            )
            out[group].append((user, p))
    return out[0], out[1]


def _ago(s: SeedContext, hours: float) -> dt.datetime:
    return s.now - dt.timedelta(hours=hours)


def _seed_private_chats(s: SeedContext, support: Bot, orders: Bot, customers: list[tuple[User, Person]]) -> None:
    """Support conversations (some recent, some old, three blocked) and order notices, with their updates."""
    orders_by_email = first_order_numbers(s.population)
    counter = [0]
    for k, (user, p) in enumerate(customers[:28]):
        started = _ago(s, 24 * (60 - k) + 5)
        blocked = k % 9 == 8
        chat = s.create(
            Chat,
            bot_id=support.id,
            type="private",
            user_id=user.id,
            username=user.username,
            first_name=user.first_name,
            last_name=user.last_name,
            bot_status="kicked" if blocked else "member",
            created_at=started,
        )
        _seed_msg(s, chat, "user", user, "/start", started)
        _seed_msg(s, chat, "bot", None, GREETING.format(first=p.first_name, bot=support.first_name), started)
        question, answer = QUESTIONS[k % len(QUESTIONS)]
        order = orders_by_email.get(p.email) or f"TS-{10000 + k}"
        fill = {"order": order, "city": p.place.city, "first": p.first_name}
        # Every third conversation is from the last day, the others from earlier weeks.
        asked = _ago(s, 2 + k) if k % 3 == 0 else _ago(s, 24 * (3 + k))
        q = _seed_msg(s, chat, "user", user, question.format(**fill), asked)
        _seed_update(s, support, chat, user, q, asked, counter, confirmed=True)
        a = _seed_msg(s, chat, "bot", None, answer.format(**fill), asked + dt.timedelta(minutes=2), reply_to=q.id)
        if k % 4 == 0:
            _seed_msg(
                s,
                chat,
                "bot",
                None,
                "Here is your invoice.",
                asked + dt.timedelta(minutes=3),
                kind="document",
                file_name=f"invoice-{order}.pdf",
                file_size=150_000 + 1000 * k,
            )
        if k == 3:
            s.update(a, is_pinned=True)
    for k, (user, p) in enumerate(customers[10:34]):
        started = _ago(s, 24 * (40 - k))
        chat = s.create(
            Chat,
            bot_id=orders.id,
            type="private",
            user_id=user.id,
            username=user.username,
            first_name=user.first_name,
            last_name=user.last_name,
            bot_status="kicked" if k % 8 == 5 else "member",
            created_at=started,
        )
        _seed_msg(s, chat, "user", user, "/start", started)
        order = orders_by_email.get(p.email) or f"TS-{20000 + k}"
        when = _ago(s, 6 + 5 * k)
        _seed_msg(s, chat, "bot", None, f"Good news, {p.first_name}: order {order} has shipped.", when)
        if k % 3 == 1:
            reply_at = _ago(s, 2 + k)
            reply = _seed_msg(s, chat, "user", user, "Thanks! Can you deliver it to my office instead?", reply_at)
            _seed_update(s, orders, chat, user, reply, reply_at, counter, confirmed=k % 2 == 0)


def _seed_msg(
    s: SeedContext,
    chat: Chat,
    sender: str,
    user: User | None,
    text: str,
    when: dt.datetime,
    *,
    reply_to: str | None = None,
    **extra: Any,
) -> Message:
    return s.create(
        Message,
        chat_id=chat.id,
        bot_id=chat.bot_id,
        sender_type=sender,
        from_user_id=user.id if user is not None and sender == "user" else None,
        text=text,
        reply_to_message_id=reply_to,
        date=when,
        **extra,
    )


def _seed_update(
    s: SeedContext,
    bot: Bot,
    chat: Chat,
    user: User,
    msg: Message,
    when: dt.datetime,
    counter: list[int],
    *,
    confirmed: bool,
) -> None:
    counter[0] += 1
    s.create(
        Update,
        bot_id=bot.id,
        update_id=UPDATE_BASE + counter[0],
        update_type="message",
        chat_id=chat.id,
        user_id=user.id,
        message_id=msg.id,
        status="confirmed" if confirmed or bot.webhook_url else "pending",
        date=when,
    )


ALL_GROUP_RIGHTS: tuple[AdminRight, ...] = (
    "can_change_info",
    "can_delete_messages",
    "can_restrict_members",
    "can_invite_users",
    "can_pin_messages",
    "can_promote_members",
)
ALL_CHANNEL_RIGHTS: tuple[AdminRight, ...] = (
    "can_change_info",
    "can_delete_messages",
    "can_restrict_members",
    "can_invite_users",
    "can_promote_members",
    "can_post_messages",
    "can_edit_messages",
)


def _seed_groups(
    s: SeedContext, bot: Bot, staff: list[tuple[User, Person]], customers: list[tuple[User, Person]]
) -> None:
    """The community supergroup, the news channel, a deals group, a beta group and a group the bot left."""
    home = s.population.home.name
    slug = "".join(ch for ch in strip_accents(home).lower() if ch.isalnum())[:20] or "company"
    owner = staff[0][0]
    community = s.create(
        Chat,
        bot_id=bot.id,
        type="supergroup",
        title=f"{home} Community",
        username=f"{slug}_community",
        description="Customers helping customers. Be kind; no spam.",
        bot_status="administrator",
        bot_rights=ALL_GROUP_RIGHTS,
        created_at=_ago(s, 24 * 240),
    )
    news = s.create(
        Chat,
        bot_id=bot.id,
        type="channel",
        title=f"{home} News",
        username=f"{slug}_news",
        description="Product news, launches and offers.",
        bot_status="administrator",
        bot_rights=("can_post_messages", "can_edit_messages", "can_invite_users"),
        created_at=_ago(s, 24 * 230),
    )
    deals = s.create(
        Chat,
        bot_id=bot.id,
        type="supergroup",
        title=f"{home} VIP Deals",
        description="Early access to offers for our best customers. Content is protected.",
        bot_status="administrator",
        bot_rights=("can_invite_users", "can_pin_messages", "can_delete_messages"),
        has_protected_content=True,
        created_at=_ago(s, 24 * 120),
    )
    beta = s.create(
        Chat, bot_id=bot.id, type="group", title="Beta testers", bot_status="member", created_at=_ago(s, 24 * 90)
    )
    old = s.create(
        Chat, bot_id=bot.id, type="group", title="Launch week 2025", bot_status="left", created_at=_ago(s, 24 * 400)
    )
    for chat in (community, news, deals, beta, old):
        created = f"{chat.title} was created"
        if chat.type == "channel":
            _seed_msg(s, chat, "channel", None, created, chat.created_at, kind="service")
        else:
            _seed_msg(s, chat, "user", owner, created, chat.created_at, kind="service")
        _seed_staff(s, chat, staff, owner)
    statuses: tuple[MemberStatus, ...] = ("member",) * 6 + ("restricted", "kicked", "left")
    for k, (user, _) in enumerate(customers[:30]):
        status = statuses[k % len(statuses)]
        s.create(
            ChatMember,
            chat_id=community.id,
            user_id=user.id,
            status=status,
            can_send_messages=status != "restricted",
            can_send_media=status != "restricted",
            until_date=_ago(s, -24 * (7 + k)) if status == "restricted" else None,
            updated_at=_ago(s, 24 * (100 - k)),
        )
        if status in ("member", "restricted") and k % 2 == 0:
            when = _ago(s, 1 + 3 * k)
            _seed_msg(s, community, "user", user, GROUP_TALK[k % len(GROUP_TALK)], when)
    for k, (user, _) in enumerate(customers[5:40]):
        s.create(ChatMember, chat_id=news.id, user_id=user.id, status="member", updated_at=_ago(s, 24 * (90 - k)))
    for k, (user, _) in enumerate(customers[20:28]):
        s.create(ChatMember, chat_id=deals.id, user_id=user.id, status="member", updated_at=_ago(s, 24 * (60 - k)))
    for k, (user, _) in enumerate(customers[36:42]):
        s.create(ChatMember, chat_id=beta.id, user_id=user.id, status="member", updated_at=_ago(s, 24 * (80 - k)))
    _seed_posts(s, community, news, deals, beta)
    _seed_links(s, community, news, deals, beta, owner, customers)


def _seed_staff(s: SeedContext, chat: Chat, staff: list[tuple[User, Person]], owner: User) -> None:
    s.create(
        ChatMember,
        chat_id=chat.id,
        user_id=owner.id,
        status="creator",
        rights=ALL_CHANNEL_RIGHTS if chat.type == "channel" else ALL_GROUP_RIGHTS,
        updated_at=chat.created_at,
    )
    for k, (user, _) in enumerate(staff[1:4]):
        s.create(
            ChatMember,
            chat_id=chat.id,
            user_id=user.id,
            status="administrator",
            rights=("can_delete_messages", "can_restrict_members")
            + (("can_post_messages",) if chat.type == "channel" else ("can_pin_messages",)),
            custom_title="Support" if k == 0 else None,
            can_be_edited=k == 2 and chat.bot_status == "administrator",
            updated_at=chat.created_at + dt.timedelta(days=1),
        )


def _seed_posts(s: SeedContext, community: Chat, news: Chat, deals: Chat, beta: Chat) -> None:
    rules = _seed_msg(
        s, community, "bot", None, "Welcome! Read the rules: be kind, no spam, no selling.", _ago(s, 24 * 200)
    )
    s.update(rules, is_pinned=True)
    _seed_msg(s, community, "bot", None, "Reminder: the spring sale starts Monday.", _ago(s, 20))
    for k, text in enumerate(
        (
            "Our spring collection is here. Free shipping on orders over 50.",
            "New: the Deluxe Docking Station is back in stock.",
            "Holiday opening hours: support answers 9-17 on weekdays.",
            "Tip: track every order with our orders bot.",
        )
    ):
        post = _seed_msg(s, news, "bot" if k % 2 == 0 else "channel", None, text, _ago(s, 24 * (30 - 9 * k) - 4))
        if k == 0:
            s.update(post, is_pinned=True)
    _seed_msg(s, news, "bot", None, "Flash sale: 20% off notebooks until midnight.", _ago(s, 10))
    _seed_msg(s, deals, "bot", None, "VIP code SPRING-VIP-25 gives 25% off this week.", _ago(s, 30))
    _seed_msg(s, beta, "bot", None, "Beta build 2.4 is out: please report bugs here.", _ago(s, 24 * 5))


def _seed_links(
    s: SeedContext,
    community: Chat,
    news: Chat,
    deals: Chat,
    beta: Chat,
    owner: User,
    customers: list[tuple[User, Person]],
) -> None:
    """Primary links, bot-made campaign links (one full, one expired, one revoked) and approval links with requests."""
    rng = s.rng
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

    def link(chat: Chat, days: int, **fields: Any) -> InviteLink:
        code = "".join(rng.choice(alphabet) for _ in range(16))
        return s.create(
            InviteLink, chat_id=chat.id, invite_link=f"https://kst.me/+{code}", created_at=_ago(s, 24 * days), **fields
        )

    for chat in (community, news, deals, beta):
        link(chat, 200, is_primary=True, creator_user_id=owner.id, member_count=12)
    link(community, 40, name="Spring campaign", member_limit=500, member_count=37)
    link(community, 60, name="Fair booth", member_limit=25, member_count=25)
    link(community, 90, name="Winter promo", expire_date=_ago(s, 24 * 30), member_count=14)
    link(community, 120, name="Old flyer", is_revoked=True, member_count=3)
    link(news, 20, name="Newsletter footer", member_count=41)
    link(community, 50, name="Partner forum", creator_user_id=owner.id, member_count=8)
    vip = link(deals, 30, name="VIP approval", creates_join_request=True, member_count=8)
    joined = {u.id for u, _ in customers[20:28]}
    candidates = [u for u, _ in customers if u.id not in joined][:7]
    pending = 0
    for k, user in enumerate(candidates):
        status = "pending" if k < 4 else ("approved" if k < 6 else "declined")
        when = _ago(s, 24 * (6 - k) + 3)
        s.create(
            JoinRequest,
            chat_id=deals.id,
            user_id=user.id,
            invite_link_id=vip.id,
            status=status,
            date=when,
            decided_at=None if status == "pending" else when + dt.timedelta(hours=5),
        )
        if status == "approved":
            s.create(ChatMember, chat_id=deals.id, user_id=user.id, status="member", updated_at=when)
        pending += status == "pending"
    s.update(vip, pending_join_request_count=pending, member_count=8 + 2)
