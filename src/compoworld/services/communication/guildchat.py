"""Guildhall: the home company's community servers, with channels, roles, moderation, threads and webhooks.

Modeled on the Discord API v10 (Guild, Channel types GUILD_TEXT, GUILD_VOICE,
GUILD_CATEGORY, GUILD_ANNOUNCEMENT and GUILD_FORUM, Role with permission
bitsets and positions, Guild Member with nick and communication_disabled_until,
Guild Ban, Message with mentions, reactions, pins and crossposting, Thread,
Invite, Webhook with execute and channel-follower webhooks): people act by their
e-mail as members of a server; what they may do comes from the @everyone role,
their roles and the channel's permission overwrites (ADMINISTRATOR and the
server owner may do everything); a member can only manage, assign or remove a
role strictly below their own highest role and only act on members whose
highest role is below theirs, and cannot grant a permission they lack; managed
(integration) roles are never assigned by hand and @everyone is neither deleted
nor moved; messages are at most 2,000 characters and obey the channel's
slowmode unless the author may manage messages; timed-out members (at most 28
days) cannot send or react; a channel keeps at most 50 pins; forum channels
take posts only as threads and a message starts at most one thread; locked
threads take messages only from thread managers while an archived one wakes up
with a new message; announcement messages are crossposted once to the channels
that follow them; invites run out by age and uses and never admit a banned
person; webhook names may not contain "clyde" or "discord", a channel has at most
15 webhooks, and a webhook posting into a forum names the new post.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Language, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.services.kit.text import strip_accents

__all__ = ["service"]

service = Service(
    "guildchat",
    title="Guildhall",
    category="community_chat",
    modeled_on="Discord API v10 (Guild, Channel, Role permissions and hierarchy, Guild Member, Guild Ban, "
    "Message, Reaction, Pins, Thread, Invite, Webhook)",
    description="Community chat servers where the home company meets its customers: text, voice, "
    "announcement and forum channels in categories, roles with permission bitsets and a hierarchy, "
    "members with nicknames, timeouts and bans, messages with mentions, reactions, pins and crossposts, "
    "threads, invites and webhooks posting into channels.",
)

GuildId = Annotated[str, IdOf("guildchat.guild")]
ChannelId = Annotated[str, IdOf("guildchat.channel")]
RoleId = Annotated[str, IdOf("guildchat.role")]
MemberId = Annotated[str, IdOf("guildchat.member")]
MessageId = Annotated[str, IdOf("guildchat.message")]
ThreadId = Annotated[str, IdOf("guildchat.thread")]
InviteId = Annotated[str, IdOf("guildchat.invite")]
WebhookId = Annotated[str, IdOf("guildchat.webhook")]

Permission = Literal[
    "CREATE_INSTANT_INVITE",
    "KICK_MEMBERS",
    "BAN_MEMBERS",
    "ADMINISTRATOR",
    "MANAGE_CHANNELS",
    "MANAGE_GUILD",
    "ADD_REACTIONS",
    "VIEW_AUDIT_LOG",
    "PRIORITY_SPEAKER",
    "STREAM",
    "VIEW_CHANNEL",
    "SEND_MESSAGES",
    "SEND_TTS_MESSAGES",
    "MANAGE_MESSAGES",
    "EMBED_LINKS",
    "ATTACH_FILES",
    "READ_MESSAGE_HISTORY",
    "MENTION_EVERYONE",
    "USE_EXTERNAL_EMOJIS",
    "VIEW_GUILD_INSIGHTS",
    "CONNECT",
    "SPEAK",
    "MUTE_MEMBERS",
    "DEAFEN_MEMBERS",
    "MOVE_MEMBERS",
    "USE_VAD",
    "CHANGE_NICKNAME",
    "MANAGE_NICKNAMES",
    "MANAGE_ROLES",
    "MANAGE_WEBHOOKS",
    "MANAGE_GUILD_EXPRESSIONS",
    "USE_APPLICATION_COMMANDS",
    "REQUEST_TO_SPEAK",
    "MANAGE_EVENTS",
    "MANAGE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "CREATE_PRIVATE_THREADS",
    "USE_EXTERNAL_STICKERS",
    "SEND_MESSAGES_IN_THREADS",
    "USE_EMBEDDED_ACTIVITIES",
    "MODERATE_MEMBERS",
]
BITS: dict[str, int] = {name: 1 << n for n, name in enumerate(get_args(Permission))}
"""Each permission's bit, as Discord numbers them (CREATE_INSTANT_INVITE = 1 << 0 … MODERATE_MEMBERS = 1 << 40)."""
ALL_BITS = sum(BITS.values())

ChannelType = Literal["text", "voice", "category", "announcement", "forum"]
ThreadType = Literal["public_thread", "announcement_thread"]
ThreadStatus = Literal["active", "archived", "locked"]
ArchiveAfter = Literal[60, 1440, 4320, 10080]
MessageType = Literal["default", "reply", "guild_member_join", "channel_pinned_message"]
VerificationLevel = Literal["none", "low", "medium", "high", "very_high"]

GuildName = Annotated[str, StringConstraints(min_length=2, max_length=100, strip_whitespace=True)]
ChannelName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
RoleName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
ThreadName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
WebhookName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
Nick = Annotated[str, StringConstraints(min_length=1, max_length=32, strip_whitespace=True)]
Username = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.]{2,32}$")]
InviteCode = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]{6,16}$")]
Emoji = Annotated[str, StringConstraints(min_length=1, max_length=64, strip_whitespace=True)]
Color = Annotated[int, Field(ge=0, le=0xFFFFFF)]
Bitset = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,20}$")]
PermissionList = Annotated[list[Permission], Field(max_length=41)]
Mentions = Annotated[list[Email], Field(max_length=50)]
RoleMentions = Annotated[list[RoleId], Field(max_length=20)]

MAX_CONTENT = 2000
MAX_PINS = 50
MAX_REACTIONS = 20
MAX_WEBHOOKS = 15
MAX_ROLES = 250
MAX_CHANNELS = 500
MAX_IN_CATEGORY = 50
MAX_SLOWMODE = 21600
MAX_TIMEOUT = dt.timedelta(days=28)
MAX_INVITE_AGE = 604800
MAX_BAN_PURGE = 604800
TOPIC_LIMIT = {"forum": 4096}
WEBHOOK_FORBIDDEN = ("clyde", "discord")
MODERATION_BYPASS = ("MANAGE_MESSAGES", "MANAGE_CHANNELS")
_CODE_CHARS = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
_NOT_USERNAME = re.compile(r"[^a-z0-9_.]")


def bits_of(names: Iterable[str]) -> int:
    """The bitset of some permissions."""
    out = 0
    for name in names:
        out |= BITS[name]
    return out


def names_of(bits: int) -> tuple[Permission, ...]:
    """The permissions set in a bitset, in Discord's bit order."""
    return tuple(name for name in get_args(Permission) if bits & BITS[name])


DEFAULT_EVERYONE: tuple[Permission, ...] = (
    "CREATE_INSTANT_INVITE",
    "ADD_REACTIONS",
    "STREAM",
    "VIEW_CHANNEL",
    "SEND_MESSAGES",
    "EMBED_LINKS",
    "ATTACH_FILES",
    "READ_MESSAGE_HISTORY",
    "USE_EXTERNAL_EMOJIS",
    "CONNECT",
    "SPEAK",
    "USE_VAD",
    "CHANGE_NICKNAME",
    "USE_APPLICATION_COMMANDS",
    "CREATE_PUBLIC_THREADS",
    "SEND_MESSAGES_IN_THREADS",
)
"""What @everyone may do on a new server."""


class Overwrite(Value):
    """A channel's permission overwrite for one role (@everyone included)."""

    role_id: RoleId = Field(description="The role the overwrite applies to.")
    allow: tuple[Permission, ...] = Field(default=(), description="Permissions granted in the channel.")
    deny: tuple[Permission, ...] = Field(default=(), description="Permissions taken away in the channel.")


class ReactionCount(Value):
    """One emoji on a message and how many members used it."""

    emoji: Emoji = Field(description="The emoji (a Unicode emoji, or name:id for a custom one).")
    count: int = Field(description="Members who reacted with it.")


class Guild(Created):
    """A server (guild): a community with its channels, roles and members."""

    id: GuildId
    name: GuildName
    """Server name."""
    description: Text = ""
    """What the server is for."""
    owner_email: Email
    """E-mail of the employee who owns the server (may do everything)."""
    verification_level: VerificationLevel = "low"
    """What members must have verified before they can talk."""
    community: bool = False
    """Whether it is a Community server (needs a rules and a system channel that cannot be deleted)."""
    preferred_locale: Language = "en"
    """The server's language."""
    system_channel_id: ChannelId | None = None
    """Where join messages are posted."""
    rules_channel_id: ChannelId | None = None
    """The channel with the server rules."""
    member_count: int = 0
    """Members of the server."""


class Channel(Created):
    """A channel of a server: text, voice, a category holding other channels, announcement or forum."""

    id: ChannelId
    guild_id: GuildId
    """The server."""
    type: ChannelType
    """text, voice, category, announcement (can be followed and crossposted) or forum (posts are threads)."""
    name: ChannelName
    """Channel name; text-like channels are lower case with dashes."""
    topic: Text = ""
    """Channel topic (1,024 characters; 4,096 for forums)."""
    position: int = 0
    """Sorting position among its siblings."""
    parent_id: ChannelId | None = None
    """The category it sits in."""
    nsfw: bool = False
    """Whether the channel is age-restricted."""
    rate_limit_per_user: int = 0
    """Slowmode: seconds a member must wait between messages (0 to 21,600); moderators are exempt."""
    bitrate: int | None = None
    """Voice bitrate in bits per second (8,000 to 96,000)."""
    user_limit: int | None = None
    """Most people in a voice channel at once (0 means no limit)."""
    permission_overwrites: tuple[Overwrite, ...] = ()
    """Per-role permission changes in this channel."""


class Role(Record):
    """A role of a server: a set of permissions at a position in the role hierarchy."""

    id: RoleId
    guild_id: GuildId
    """The server."""
    name: RoleName
    """Role name (@everyone for the base role)."""
    color: Color = 0
    """Display colour as an RGB integer (0 = none)."""
    hoist: bool = False
    """Whether members with it are listed separately."""
    mentionable: bool = False
    """Whether anyone may @mention it."""
    position: int
    """Place in the hierarchy: @everyone is 0, higher numbers outrank lower ones."""
    permissions: Bitset
    """The permission bitset as a decimal string, as the API sends it."""
    permission_names: tuple[Permission, ...] = ()
    """The permissions the bitset grants, by name."""
    managed: bool = False
    """Whether an integration manages it (never assigned or deleted by hand)."""
    is_everyone: bool = False
    """Whether it is the server's @everyone role."""


class Member(Record):
    """A person's membership of a server."""

    id: MemberId
    guild_id: GuildId
    """The server."""
    email: Email
    """The person's e-mail."""
    username: Username
    """The person's unique username."""
    global_name: PersonName
    """The person's display name."""
    nick: Nick | None = None
    """Their nickname on this server (up to 32 characters)."""
    role_ids: tuple[RoleId, ...] = ()
    """Roles they have besides @everyone."""
    communication_disabled_until: DateTime | None = None
    """Until when they are timed out (cannot send, react or join voice)."""
    joined_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Thread(Record):
    """A thread: a side conversation in a text or announcement channel, or a post of a forum."""

    id: ThreadId
    guild_id: GuildId
    """The server."""
    channel_id: ChannelId
    """The parent channel."""
    name: ThreadName
    """Thread title."""
    type: ThreadType = "public_thread"
    """public_thread (text channels and forum posts) or announcement_thread."""
    starter_message_id: MessageId | None = None
    """The channel message the thread was started from."""
    member_email: Email | None = None
    """E-mail of the member who started it (null for a post made by a webhook)."""
    status: ThreadStatus = "active"
    """active, archived (a new message reopens it) or locked (only thread managers may post)."""
    auto_archive_duration: ArchiveAfter = 1440
    """Minutes of inactivity after which it archives (60, 1440, 4320 or 10080)."""
    message_count: int = 0
    """Messages in the thread."""
    archive_timestamp: DateTime | None = None
    """When its status last changed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was started."""


class Message(Record):
    """A message in a channel or a thread."""

    id: MessageId
    guild_id: GuildId
    """The server."""
    channel_id: ChannelId
    """The channel (the parent channel for a thread message)."""
    thread_id: ThreadId | None = None
    """The thread it is in."""
    type: MessageType = "default"
    """default, reply, guild_member_join (system) or channel_pinned_message (system)."""
    author_email: Email | None = None
    """E-mail of the member who wrote it; null for webhook messages."""
    author_name: str
    """The name shown: the author's nickname or display name, or the webhook's name."""
    content: Text
    """Message text (up to 2,000 characters)."""
    mentions: tuple[Email, ...] = ()
    """Members @mentioned."""
    mention_roles: tuple[RoleId, ...] = ()
    """Roles @mentioned."""
    mention_everyone: bool = False
    """Whether it pings @everyone."""
    referenced_message_id: MessageId | None = None
    """The message it replies to, or the message it is a crosspost of."""
    pinned: bool = False
    """Whether it is pinned."""
    webhook_id: WebhookId | None = None
    """The webhook that posted it."""
    crossposted: bool = False
    """Whether an announcement was published to its followers."""
    reactions: tuple[ReactionCount, ...] = ()
    """Emoji reactions and their counts."""
    edited_timestamp: DateTime | None = None
    """When it was last edited."""
    timestamp: Annotated[DateTime, CREATED]
    """When it was sent."""


class Reaction(Record):
    """One member's emoji reaction on a message."""

    id: Annotated[str, IdOf("guildchat.reaction")]
    message_id: MessageId
    """The message."""
    emoji: Emoji
    """The emoji."""
    email: Email
    """Who reacted."""


class Ban(Record):
    """A person banned from a server."""

    id: Annotated[str, IdOf("guildchat.ban")]
    guild_id: GuildId
    """The server."""
    email: Email
    """E-mail of the banned person."""
    username: Username
    """Their username."""
    reason: Text = ""
    """Why they were banned."""
    banned_by: Email
    """E-mail of the moderator who banned them."""
    created_at: Annotated[DateTime, CREATED]
    """When they were banned."""


class Invite(Record):
    """An invite code that lets people join a server."""

    id: InviteId
    code: InviteCode
    """The code people join with."""
    guild_id: GuildId
    """The server."""
    channel_id: ChannelId
    """The channel new members land in."""
    created_by: Email
    """E-mail of the member who created it."""
    max_age: int = 86400
    """Seconds it is valid for (0 = never expires)."""
    max_uses: int = 0
    """How many people it admits (0 = unlimited)."""
    uses: int = 0
    """How many people joined with it."""
    temporary: bool = False
    """Whether it grants temporary membership."""
    expires_at: DateTime | None = None
    """When it stops working."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Webhook(Record):
    """A webhook that posts into a channel: an incoming one with a token, or one following an announcement channel."""

    id: WebhookId
    guild_id: GuildId
    """The server of the channel it posts into."""
    channel_id: ChannelId
    """The channel it posts into."""
    type: Literal["incoming", "channel_follower"] = "incoming"
    """incoming (executed with its token) or channel_follower (receives crossposts)."""
    name: WebhookName
    """The name its messages show."""
    token: str | None = None
    """The secret an incoming webhook is executed with."""
    source_channel_id: ChannelId | None = None
    """The announcement channel a follower webhook follows."""
    created_by: Email
    """E-mail of the member who created it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


def _guard_thread(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != old.status:
        ctx.update(new, archive_timestamp=ctx.now())


guilds = service.resource(
    Guild,
    name="guild",
    plural="guilds",
    prefix="gld",
    create=False,
    get=False,
    filters=("owner_email", "community"),
    search=("name", "description"),
    delete=False,
    title="server",
)
channels = service.resource(
    Channel,
    name="channel",
    plural="channels",
    prefix="chn",
    create=False,
    get=False,
    filters=("guild_id", "type", "parent_id", "name"),
    search=("name", "topic"),
    delete=False,
)
roles = service.resource(
    Role,
    name="role",
    plural="roles",
    prefix="rol",
    create=False,
    get=False,
    filters=("guild_id", "name", "managed", "mentionable", "is_everyone"),
    search=("name",),
    delete=False,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    get=False,
    filters=("guild_id", "email", "username"),
    search=("global_name", "nick", "username", "email"),
    delete=False,
    title="server member",
)
threads = service.resource(
    Thread,
    name="thread",
    plural="threads",
    prefix="thr",
    create=False,
    get=False,
    filters=("guild_id", "channel_id", "status", "type", "member_email", "starter_message_id"),
    search=("name",),
    delete=False,
    transitions={
        "archive": Transition("status", ("active",), "archived", "archive the thread"),
        "unarchive": Transition(
            "status",
            ("archived", "locked"),
            "active",
            "reopen the thread",
            description="Reopen an archived or locked thread (as a thread manager): sets status to 'active'.",
        ),
        "lock": Transition(
            "status",
            ("active", "archived"),
            "locked",
            "lock the thread",
            description="Lock a thread: it is archived and only members who manage threads may post or reopen it.",
        ),
    },
    guard_update=_guard_thread,
)
messages = service.resource(
    Message,
    name="message",
    plural="messages",
    prefix="msg",
    create=False,
    filters=(
        "guild_id",
        "channel_id",
        "thread_id",
        "author_email",
        "type",
        "pinned",
        "webhook_id",
        "referenced_message_id",
    ),
    search=("content", "author_name"),
    delete=False,
)
reactions = service.resource(
    Reaction, name="reaction", plural="reactions", prefix="rxn", create=False, get=False, filters=None, delete=False
)
bans = service.resource(
    Ban,
    name="ban",
    plural="bans",
    prefix="ban",
    create=False,
    get=False,
    filters=("guild_id", "email", "banned_by"),
    search=("username", "reason"),
    delete=False,
)
invites = service.resource(
    Invite,
    name="invite",
    plural="invites",
    prefix="inv",
    create=False,
    get=False,
    filters=("guild_id", "channel_id", "code", "created_by"),
    delete=False,
)
webhooks = service.resource(
    Webhook,
    name="webhook",
    plural="webhooks",
    prefix="whk",
    create=False,
    get=False,
    filters=("guild_id", "channel_id", "type", "source_channel_id"),
    search=("name",),
    delete=False,
)


# -- people and permissions -------------------------------------------------------------------


def _person(ctx: Ctx, email: str, field: str) -> Person:
    for p in ctx.population.people:
        if p.email == email:
            return p
    raise NotFound(
        f"nobody with e-mail {email} has an account",
        field=field,
        hint="use the e-mail of a known person (a customer, contact or employee)",
    )


def username_of(email: str) -> str:
    """A username from an e-mail's local part (lower case letters, digits, dots and underscores)."""
    local = _NOT_USERNAME.sub("", strip_accents(email.split("@", 1)[0]).lower())[:32]
    return local if len(local) >= 2 else f"user{local}"


def _guild(ctx: Ctx, guild_id: str, field: str = "guild_id") -> Guild:
    return ctx.get(Guild, guild_id, field=field)


def _membership(ctx: Ctx, guild_id: str, email: str) -> Member | None:
    return ctx.first(Member, guild_id=guild_id, email=email)


def _member(ctx: Ctx, guild: Guild, email: str, field: str) -> Member:
    m = _membership(ctx, guild.id, email)
    if m is None:
        raise RuleViolation(
            f"{email} is not a member of {guild.name}",
            field=field,
            hint="act as a member of the server (guildchat__list_members)",
        )
    return m


def _everyone(ctx: Ctx, guild_id: str) -> Role:
    role = ctx.first(Role, guild_id=guild_id, is_everyone=True)
    assert role is not None, f"server {guild_id} has no @everyone role"
    return role


def _roles_of(ctx: Ctx, member: Member) -> list[Role]:
    found = (ctx.find(Role, rid) for rid in member.role_ids)
    return [r for r in found if r is not None]


def _top(ctx: Ctx, guild: Guild, member: Member) -> int:
    """The position of the member's highest role (the owner outranks every role)."""
    if member.email == guild.owner_email:
        return 1 << 30
    return max((r.position for r in _roles_of(ctx, member)), default=0)


def _timed_out(ctx: Ctx, member: Member) -> bool:
    until = member.communication_disabled_until
    return until is not None and until > ctx.now()


def _base_bits(ctx: Ctx, guild: Guild, member: Member) -> int:
    if member.email == guild.owner_email:
        return ALL_BITS
    bits = int(_everyone(ctx, guild.id).permissions)
    for role in _roles_of(ctx, member):
        bits |= int(role.permissions)
    return ALL_BITS if bits & BITS["ADMINISTRATOR"] else bits


def _channel_bits(ctx: Ctx, guild: Guild, member: Member, channel: Channel | None) -> int:
    """The member's permissions in a channel: server permissions with @everyone's, then the roles' overwrites."""
    bits = _base_bits(ctx, guild, member)
    if channel is None or bits & BITS["ADMINISTRATOR"]:
        return bits
    overwrites = {o.role_id: o for o in channel.permission_overwrites}
    everyone = overwrites.get(_everyone(ctx, guild.id).id)
    if everyone is not None:
        bits = (bits & ~bits_of(everyone.deny)) | bits_of(everyone.allow)
    allow = deny = 0
    for rid in member.role_ids:
        o = overwrites.get(rid)
        if o is not None:
            allow |= bits_of(o.allow)
            deny |= bits_of(o.deny)
    bits = (bits & ~deny) | allow
    return bits if bits & BITS["VIEW_CHANNEL"] else 0


def _require(ctx: Ctx, guild: Guild, member: Member, channel: Channel | None, field: str, *needed: Permission) -> int:
    bits = _channel_bits(ctx, guild, member, channel)
    missing = [p for p in needed if not bits & BITS[p]]
    if missing:
        where = f" in #{channel.name}" if channel is not None else ""
        raise RuleViolation(
            f"Missing Permissions: {member.email} lacks {', '.join(missing)}{where}",
            field=field,
            hint="act as a member whose roles grant it (a moderator or the server owner)",
        )
    return bits


def _outranks(ctx: Ctx, guild: Guild, actor: Member, target: Member, field: str) -> None:
    if target.email == guild.owner_email:
        raise RuleViolation(
            f"{target.email} owns {guild.name}; nobody can act on the owner",
            field=field,
            hint="the server owner cannot be moderated",
        )
    if actor.email != guild.owner_email and _top(ctx, guild, target) >= _top(ctx, guild, actor):
        raise RuleViolation(
            f"{target.email}'s highest role is not below {actor.email}'s highest role",
            field=field,
            hint="a member can only act on members whose highest role is lower than theirs; ask someone higher",
        )


def _below(ctx: Ctx, guild: Guild, actor: Member, role: Role, field: str) -> None:
    if actor.email != guild.owner_email and role.position >= _top(ctx, guild, actor):
        raise RuleViolation(
            f"role {role.name} (position {role.position}) is at or above {actor.email}'s highest role",
            field=field,
            hint="you can only manage roles below your own highest role; ask a member with a higher role",
        )


def _grantable(ctx: Ctx, guild: Guild, actor: Member, perms: Iterable[str], field: str) -> None:
    have = _base_bits(ctx, guild, actor)
    lacking = [p for p in perms if not have & BITS[p]]
    if lacking:
        raise RuleViolation(
            f"{actor.email} cannot grant permissions they do not have: {', '.join(lacking)}",
            field=field,
            hint="leave those permissions out, or act as an administrator",
        )


def _shown_name(member: Member) -> str:
    return member.nick or member.global_name


def _channel_of(ctx: Ctx, channel_id: str, field: str = "channel_id") -> tuple[Channel, Guild]:
    ch = ctx.get(Channel, channel_id, field=field)
    return ch, ctx.get(Guild, ch.guild_id)


def _text_name(kind: str, name: str) -> str:
    """Text-like channel names are lower case with dashes for spaces, as the client shows them."""
    if kind in ("voice", "category"):
        return name
    return re.sub(r"\s+", "-", name.strip().lower())


def _check_content(content: str) -> None:
    if not content.strip():
        raise RuleViolation("Cannot send an empty message", field="content", hint="write some text")
    if len(content) > MAX_CONTENT:
        raise RuleViolation(
            f"the message is {len(content)} characters; at most {MAX_CONTENT} are allowed",
            field="content",
            hint="shorten it or split it into several messages",
        )


def _check_webhook_name(name: str, field: str) -> None:
    low = name.casefold()
    for word in WEBHOOK_FORBIDDEN:
        if word in low:
            raise RuleViolation(
                f"webhook names cannot contain {word!r}", field=field, hint=f"pick a name without {word!r}"
            )


# -- examples ---------------------------------------------------------------------------------


def _moderator(ctx: Ctx, guild: Guild, *needed: Permission, channel: Channel | None = None) -> Member | None:
    """A member other than the owner who has the permissions (the owner when nobody else does)."""
    owner = None
    for m in ctx.where(Member, guild_id=guild.id):
        if m.email == guild.owner_email:
            owner = m
            continue
        bits = _channel_bits(ctx, guild, m, channel)
        if all(bits & BITS[p] for p in needed) and not _timed_out(ctx, m):
            return m
    return owner


def _first_guild(ctx: Ctx) -> Guild:
    return next(iter(ctx.scan(Guild)))


def _plain_member(ctx: Ctx, guild: Guild) -> Member | None:
    """A member with no roles who is not timed out."""
    for m in ctx.where(Member, guild_id=guild.id):
        if not m.role_ids and m.email != guild.owner_email and not _timed_out(ctx, m):
            return m
    return None


def _example_text_channel(ctx: Ctx) -> tuple[Guild, Channel, Member]:
    guild = _first_guild(ctx)
    for ch in ctx.where(Channel, guild_id=guild.id, type="text"):
        if ch.rate_limit_per_user == 0 and not ch.permission_overwrites:
            m = _plain_member(ctx, guild)
            if m is not None:
                return guild, ch, m
    raise LookupError("no open text channel")


def _example_send(ctx: Ctx) -> dict[str, Any]:
    _, ch, m = _example_text_channel(ctx)
    return {"channel_id": ch.id, "author_email": m.email, "content": "Thanks for the quick fix, it works now!"}


def _example_create_channel(ctx: Ctx) -> dict[str, Any]:
    guild = _first_guild(ctx)
    mod = _moderator(ctx, guild, "MANAGE_CHANNELS")
    assert mod is not None
    return {"guild_id": guild.id, "actor_email": mod.email, "name": "Release Chat", "type": "text"}


def _example_modify_channel(ctx: Ctx) -> dict[str, Any]:
    guild, ch, _ = _example_text_channel(ctx)
    mod = _moderator(ctx, guild, "MANAGE_CHANNELS", channel=ch)
    assert mod is not None
    return {"channel_id": ch.id, "actor_email": mod.email, "rate_limit_per_user": 30}


def _example_delete_channel(ctx: Ctx) -> dict[str, Any] | None:
    guild = _first_guild(ctx)
    for ch in ctx.where(Channel, guild_id=guild.id, type="voice"):
        mod = _moderator(ctx, guild, "MANAGE_CHANNELS", channel=ch)
        if mod is not None:
            return {"channel_id": ch.id, "actor_email": mod.email}
    return None


def _example_create_role(ctx: Ctx) -> dict[str, Any]:
    guild = _first_guild(ctx)
    mod = _moderator(ctx, guild, "MANAGE_ROLES")
    assert mod is not None
    return {"guild_id": guild.id, "actor_email": mod.email, "name": "Event Hosts", "permissions": ["MANAGE_EVENTS"]}


def _assignable(ctx: Ctx, guild: Guild, mod: Member) -> Role | None:
    top = _top(ctx, guild, mod)
    for role in sorted(ctx.where(Role, guild_id=guild.id), key=lambda r: r.position):
        if not role.is_everyone and not role.managed and role.position < top:
            return role
    return None


def _example_modify_role(ctx: Ctx) -> dict[str, Any] | None:
    guild = _first_guild(ctx)
    mod = _moderator(ctx, guild, "MANAGE_ROLES")
    role = _assignable(ctx, guild, mod) if mod is not None else None
    if mod is None or role is None:
        return None
    return {"role_id": role.id, "actor_email": mod.email, "color": 0xE67E22}


def _example_delete_role(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_modify_role(ctx)
    return None if args is None else {"role_id": args["role_id"], "actor_email": args["actor_email"]}


def _example_add_role(ctx: Ctx) -> dict[str, Any] | None:
    guild = _first_guild(ctx)
    mod = _moderator(ctx, guild, "MANAGE_ROLES")
    role = _assignable(ctx, guild, mod) if mod is not None else None
    target = _plain_member(ctx, guild)
    if mod is None or role is None or target is None:
        return None
    return {"guild_id": guild.id, "actor_email": mod.email, "email": target.email, "role_id": role.id}


def _example_remove_role(ctx: Ctx) -> dict[str, Any] | None:
    guild = _first_guild(ctx)
    mod = _moderator(ctx, guild, "MANAGE_ROLES")
    if mod is None:
        return None
    top = _top(ctx, guild, mod)
    for m in ctx.where(Member, guild_id=guild.id):
        for role in _roles_of(ctx, m):
            if not role.managed and role.position < top and m.email != guild.owner_email:
                return {"guild_id": guild.id, "actor_email": mod.email, "email": m.email, "role_id": role.id}
    return None


def _example_moderate(*needed: Permission) -> Any:
    def example(ctx: Ctx) -> dict[str, Any] | None:
        guild = _first_guild(ctx)
        mod = _moderator(ctx, guild, *needed)
        target = _plain_member(ctx, guild)
        if mod is None or target is None:
            return None
        return {"guild_id": guild.id, "actor_email": mod.email, "email": target.email}

    return example


def _example_nickname(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_moderate("MANAGE_NICKNAMES")(ctx)
    return None if args is None else {**args, "nick": "Helpful Human"}


def _example_timeout(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_moderate("MODERATE_MEMBERS")(ctx)
    until = (ctx.now() + dt.timedelta(hours=1)).isoformat()
    return None if args is None else {**args, "until": until, "reason": "Cooling off after spam"}


def _example_ban(ctx: Ctx) -> dict[str, Any] | None:
    args = _example_moderate("BAN_MEMBERS")(ctx)
    return None if args is None else {**args, "reason": "Repeated spam links"}


def _example_unban(ctx: Ctx) -> dict[str, Any] | None:
    for ban in ctx.scan(Ban):
        guild = ctx.get(Guild, ban.guild_id)
        mod = _moderator(ctx, guild, "BAN_MEMBERS")
        if mod is not None:
            return {"guild_id": guild.id, "actor_email": mod.email, "email": ban.email}
    return None


def _live_message(ctx: Ctx, pinned: bool = False) -> Message | None:
    for msg in ctx.where(Message, type="default", pinned=pinned):
        if msg.author_email is None or msg.thread_id is not None:
            continue
        guild = ctx.get(Guild, msg.guild_id)
        m = _membership(ctx, guild.id, msg.author_email)
        if m is not None and not _timed_out(ctx, m):
            return msg
    return None


def _example_edit(ctx: Ctx) -> dict[str, Any] | None:
    msg = _live_message(ctx)
    if msg is None:
        return None
    return {"message_id": msg.id, "author_email": msg.author_email, "content": "Edited: see the pinned FAQ."}


def _example_message_mod(ctx: Ctx, pinned: bool = False) -> dict[str, Any] | None:
    msg = _live_message(ctx, pinned=pinned)
    if msg is None:
        return None
    guild = ctx.get(Guild, msg.guild_id)
    mod = _moderator(ctx, guild, "MANAGE_MESSAGES", channel=ctx.get(Channel, msg.channel_id))
    return None if mod is None else {"message_id": msg.id, "actor_email": mod.email}


def _example_reaction(ctx: Ctx) -> dict[str, Any] | None:
    msg = _live_message(ctx)
    if msg is None:
        return None
    guild = ctx.get(Guild, msg.guild_id)
    for m in ctx.where(Member, guild_id=guild.id):
        if m.email in (msg.author_email, guild.owner_email) or _timed_out(ctx, m):
            continue
        if ctx.first(Reaction, message_id=msg.id, email=m.email, emoji="🎉") is None:
            return {"message_id": msg.id, "actor_email": m.email, "emoji": "🎉"}
    return None


def _example_crosspost(ctx: Ctx) -> dict[str, Any] | None:
    for ch in ctx.where(Channel, type="announcement"):
        for msg in ctx.where(Message, channel_id=ch.id, crossposted=False, type="default"):
            if msg.author_email is not None and msg.thread_id is None:
                return {"message_id": msg.id, "actor_email": msg.author_email}
    return None


def _example_thread(ctx: Ctx) -> dict[str, Any] | None:
    guild = _first_guild(ctx)
    for ch in ctx.where(Channel, guild_id=guild.id, type="forum"):
        m = _plain_member(ctx, guild)
        if m is not None and _channel_bits(ctx, guild, m, ch) & BITS["CREATE_PUBLIC_THREADS"]:
            return {
                "channel_id": ch.id,
                "author_email": m.email,
                "name": "Export to CSV drops the last row",
                "content": "When I export a report to CSV the last row is missing. Anyone else?",
            }
    return None


def _example_invite(ctx: Ctx) -> dict[str, Any]:
    guild = _first_guild(ctx)
    ch = ctx.get(Channel, guild.system_channel_id) if guild.system_channel_id else None
    ch = ch or next(iter(ctx.where(Channel, guild_id=guild.id, type="text")))
    mod = _moderator(ctx, guild, "CREATE_INSTANT_INVITE", channel=ch)
    assert mod is not None
    return {"channel_id": ch.id, "actor_email": mod.email, "max_age": 86400, "max_uses": 10}


def _example_accept(ctx: Ctx) -> dict[str, Any] | None:
    for inv in ctx.scan(Invite):
        if (inv.max_uses and inv.uses >= inv.max_uses) or (inv.expires_at and inv.expires_at <= ctx.now()):
            continue
        for p in ctx.population.consumers:
            if (
                _membership(ctx, inv.guild_id, p.email) is None
                and ctx.first(Ban, guild_id=inv.guild_id, email=p.email) is None
            ):
                return {"code": inv.code, "email": p.email}
    return None


def _example_webhook(ctx: Ctx) -> dict[str, Any] | None:
    guild = _first_guild(ctx)
    for ch in ctx.where(Channel, guild_id=guild.id, type="text"):
        mod = _moderator(ctx, guild, "MANAGE_WEBHOOKS", channel=ch)
        if mod is not None:
            return {"channel_id": ch.id, "actor_email": mod.email, "name": "Deploy notices"}
    return None


def _example_execute(ctx: Ctx) -> dict[str, Any] | None:
    for hook in ctx.where(Webhook, type="incoming"):
        if ctx.get(Channel, hook.channel_id).type != "forum":
            return {"webhook_id": hook.id, "token": hook.token, "content": "Version 4.2 is out: faster exports."}
    return None


# -- channels ---------------------------------------------------------------------------------


def _check_parent(ctx: Ctx, guild: Guild, kind: str, parent_id: str | None, moving: str | None = None) -> None:
    if parent_id is None:
        return
    if kind == "category":
        raise RuleViolation("categories cannot be nested", field="parent_id", hint="omit parent_id for a category")
    parent = ctx.get(Channel, parent_id, field="parent_id")
    if parent.guild_id != guild.id or parent.type != "category":
        raise RuleViolation(
            f"{parent.name} is not a category of {guild.name}",
            field="parent_id",
            hint="pass a channel of type 'category' on the same server",
        )
    inside = [c for c in ctx.where(Channel, parent_id=parent.id) if c.id != moving]
    if len(inside) >= MAX_IN_CATEGORY:
        raise RuleViolation(
            f"category {parent.name} already holds {MAX_IN_CATEGORY} channels",
            field="parent_id",
            hint="put the channel in another category",
        )


def _check_channel_settings(
    kind: str, topic: str | None, rate_limit: int | None, bitrate: int | None, user_limit: int | None
) -> None:
    if topic:
        if kind in ("voice", "category"):
            raise RuleViolation(f"{kind} channels have no topic", field="topic", hint="omit the topic")
        limit = TOPIC_LIMIT.get(kind, 1024)
        if len(topic) > limit:
            raise RuleViolation(f"the topic is over {limit} characters", field="topic", hint="shorten it")
    if rate_limit:
        if kind in ("category", "announcement"):
            raise RuleViolation(
                f"{kind} channels have no slowmode", field="rate_limit_per_user", hint="set slowmode on a text channel"
            )
        if not 0 <= rate_limit <= MAX_SLOWMODE:
            raise RuleViolation(
                f"slowmode must be 0 to {MAX_SLOWMODE} seconds", field="rate_limit_per_user", hint="six hours at most"
            )
    if (bitrate is not None or user_limit is not None) and kind != "voice":
        raise RuleViolation(
            "bitrate and user_limit apply to voice channels only",
            field="bitrate" if bitrate is not None else "user_limit",
            hint="omit them",
        )
    if bitrate is not None and not 8000 <= bitrate <= 96000:
        raise RuleViolation("bitrate must be 8,000 to 96,000", field="bitrate", hint="64,000 is the default")
    if user_limit is not None and not 0 <= user_limit <= 99:
        raise RuleViolation("user_limit must be 0 to 99", field="user_limit", hint="0 means no limit")


@service.tool(intent="create a channel on the server", write=True, example=_example_create_channel)
def create_channel(
    ctx: Ctx,
    guild_id: GuildId,
    actor_email: Email,
    name: ChannelName,
    type: ChannelType = "text",
    topic: Text = "",
    parent_id: ChannelId | None = None,
    rate_limit_per_user: int = 0,
    nsfw: bool = False,
    bitrate: int | None = None,
    user_limit: int | None = None,
) -> Channel:
    """Create a channel (needs MANAGE_CHANNELS); it goes last among its siblings.

    Text, announcement and forum names are lower-cased with dashes for spaces.
    Categories cannot be nested and hold at most 50 channels; a server has at
    most 500 channels. Slowmode (0 to 21,600 seconds) is for text, voice and
    forum channels; bitrate and user limit for voice channels only.

    Args:
        guild_id: The server.
        actor_email: E-mail of the member creating it.
        name: Channel name (1 to 100 characters).
        type: text, voice, category, announcement or forum.
        topic: Channel topic.
        parent_id: The category to put it in.
        rate_limit_per_user: Slowmode seconds.
        nsfw: Whether it is age-restricted.
        bitrate: Voice bitrate in bits per second.
        user_limit: Most people in a voice channel (0 = no limit).
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "MANAGE_CHANNELS")
    siblings = ctx.where(Channel, guild_id=guild.id)
    if len(siblings) >= MAX_CHANNELS:
        raise RuleViolation(
            f"{guild.name} has {MAX_CHANNELS} channels", field="guild_id", hint="delete unused channels first"
        )
    _check_parent(ctx, guild, type, parent_id)
    _check_channel_settings(type, topic, rate_limit_per_user, bitrate, user_limit)
    position = 1 + max((c.position for c in siblings if c.parent_id == parent_id), default=-1)
    return ctx.create(
        Channel,
        guild_id=guild.id,
        type=type,
        name=_text_name(type, name),
        topic=topic,
        position=position,
        parent_id=parent_id,
        nsfw=nsfw,
        rate_limit_per_user=rate_limit_per_user,
        bitrate=(bitrate or 64000) if type == "voice" else None,
        user_limit=(user_limit or 0) if type == "voice" else None,
    )


@service.tool(intent="change the channel's settings", write=True, idempotent=True, example=_example_modify_channel)
def modify_channel(
    ctx: Ctx,
    channel_id: ChannelId,
    actor_email: Email,
    name: ChannelName | None = None,
    topic: Text | None = None,
    parent_id: ChannelId | None = None,
    rate_limit_per_user: int | None = None,
    nsfw: bool | None = None,
    bitrate: int | None = None,
    user_limit: int | None = None,
) -> Channel:
    """Change a channel's name, topic, category, slowmode or voice settings (needs MANAGE_CHANNELS there).

    Omitted settings keep their values; rate_limit_per_user 0 turns slowmode off.
    The same limits as on creation apply.

    Args:
        channel_id: The channel.
        actor_email: E-mail of the member making the change.
        name: New name.
        topic: New topic ("" clears it).
        parent_id: Category to move it into.
        rate_limit_per_user: Slowmode seconds (0 turns it off).
        nsfw: Whether it is age-restricted.
        bitrate: Voice bitrate.
        user_limit: Voice user limit.
    """
    ch, guild = _channel_of(ctx, channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, ch, "actor_email", "MANAGE_CHANNELS")
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = _text_name(ch.type, name)
    if topic is not None:
        changes["topic"] = topic
    if parent_id is not None and parent_id != ch.parent_id:
        _check_parent(ctx, guild, ch.type, parent_id, moving=ch.id)
        changes["parent_id"] = parent_id
    if rate_limit_per_user is not None:
        changes["rate_limit_per_user"] = rate_limit_per_user
    if nsfw is not None:
        changes["nsfw"] = nsfw
    if bitrate is not None:
        changes["bitrate"] = bitrate
    if user_limit is not None:
        changes["user_limit"] = user_limit
    if not changes:
        raise RuleViolation(
            "nothing to change",
            field=None,
            hint="pass a name, topic, parent_id, rate_limit_per_user or another setting",
        )
    _check_channel_settings(ch.type, topic, rate_limit_per_user, bitrate, user_limit)
    return ctx.update(ch, **changes)


class ChannelDeletion(BaseModel):
    """A deleted channel and what went with it."""

    channel_id: ChannelId = Field(description="The deleted channel.")
    deleted_messages: int = Field(description="Messages deleted with it.")
    deleted_threads: int = Field(description="Threads deleted with it.")
    uncategorized_channel_ids: list[ChannelId] = Field(description="Channels of a deleted category, now in none.")


@service.tool(intent="delete the channel", write=True, destructive=True, example=_example_delete_channel)
def delete_channel(ctx: Ctx, channel_id: ChannelId, actor_email: Email) -> ChannelDeletion:
    """Delete a channel with its messages, threads, invites and webhooks (needs MANAGE_CHANNELS there).

    Deleting a category moves its channels out of it. A Community server's
    rules and system channels cannot be deleted.

    Args:
        channel_id: The channel.
        actor_email: E-mail of the member deleting it.
    """
    ch, guild = _channel_of(ctx, channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, ch, "actor_email", "MANAGE_CHANNELS")
    if guild.community and ch.id in (guild.rules_channel_id, guild.system_channel_id):
        raise RuleViolation(
            f"#{ch.name} is required for Community servers",
            field="channel_id",
            hint="point the server's rules or system channel elsewhere first",
        )
    if guild.system_channel_id == ch.id:
        ctx.update(guild, system_channel_id=None)
    if guild.rules_channel_id == ch.id:
        ctx.update(ctx.get(Guild, guild.id), rules_channel_id=None)
    moved = []
    for child in ctx.where(Channel, parent_id=ch.id):
        ctx.update(child, parent_id=None)
        moved.append(child.id)
    n_msgs = 0
    for msg in ctx.where(Message, channel_id=ch.id):
        for r in ctx.where(Reaction, message_id=msg.id):
            ctx.delete(r)
        ctx.delete(msg)
        n_msgs += 1
    thr = ctx.where(Thread, channel_id=ch.id)
    for t in thr:
        ctx.delete(t)
    for inv in ctx.where(Invite, channel_id=ch.id):
        ctx.delete(inv)
    for hook in ctx.where(Webhook, channel_id=ch.id) + ctx.where(Webhook, source_channel_id=ch.id):
        ctx.delete(hook)
    ctx.delete(ch)
    return ChannelDeletion(
        channel_id=ch.id, deleted_messages=n_msgs, deleted_threads=len(thr), uncategorized_channel_ids=moved
    )


# -- roles ------------------------------------------------------------------------------------


def _shift(ctx: Ctx, guild_id: str, skip: str, start: int, step: int, stop: int | None = None) -> None:
    """Move every role with start <= position (< stop) by ``step``, except ``skip``."""
    for r in ctx.where(Role, guild_id=guild_id):
        if r.id != skip and not r.is_everyone and r.position >= start and (stop is None or r.position < stop):
            ctx.update(r, position=r.position + step)


@service.tool(intent="create a role on the server", write=True, example=_example_create_role)
def create_role(
    ctx: Ctx,
    guild_id: GuildId,
    actor_email: Email,
    name: RoleName,
    permissions: PermissionList | None = None,
    color: Color = 0,
    hoist: bool = False,
    mentionable: bool = False,
) -> Role:
    """Create a role (needs MANAGE_ROLES); it is placed just above @everyone.

    Nobody can grant permissions they do not have themselves (administrators
    and the owner have all). A server has at most 250 roles.

    Args:
        guild_id: The server.
        actor_email: E-mail of the member creating it.
        name: Role name.
        permissions: Permissions it grants.
        color: Display colour as an RGB integer.
        hoist: Whether its members are listed separately.
        mentionable: Whether anyone may @mention it.
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "MANAGE_ROLES")
    if len(ctx.where(Role, guild_id=guild.id)) >= MAX_ROLES:
        raise RuleViolation(f"{guild.name} has {MAX_ROLES} roles", field="guild_id", hint="delete unused roles first")
    if name.casefold() == "@everyone":
        raise RuleViolation("@everyone is reserved", field="name", hint="pick another role name")
    perms = list(dict.fromkeys(permissions or []))
    _grantable(ctx, guild, actor, perms, "permissions")
    bits = bits_of(perms)
    role = ctx.create(
        Role,
        guild_id=guild.id,
        name=name,
        color=color,
        hoist=hoist,
        mentionable=mentionable,
        position=1,
        permissions=str(bits),
        permission_names=names_of(bits),
    )
    _shift(ctx, guild.id, role.id, 1, 1)
    return ctx.get(Role, role.id)


@service.tool(intent="change the role", write=True, idempotent=True, example=_example_modify_role)
def modify_role(
    ctx: Ctx,
    role_id: RoleId,
    actor_email: Email,
    name: RoleName | None = None,
    permissions: PermissionList | None = None,
    color: Color | None = None,
    hoist: bool | None = None,
    mentionable: bool | None = None,
    position: int | None = None,
) -> Role:
    """Change a role below one's own highest role (needs MANAGE_ROLES).

    permissions replaces the role's permissions; added ones must be the
    actor's own. position moves it in the hierarchy (1 up to just below the
    actor's highest role) and shifts the roles in between. @everyone keeps
    its name and position 0.

    Args:
        role_id: The role.
        actor_email: E-mail of the member changing it.
        name: New name.
        permissions: The complete new list of permissions.
        color: New colour.
        hoist: Whether its members are listed separately.
        mentionable: Whether anyone may @mention it.
        position: New place in the hierarchy.
    """
    role = ctx.get(Role, role_id, field="role_id")
    guild = _guild(ctx, role.guild_id, "role_id")
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "MANAGE_ROLES")
    _below(ctx, guild, actor, role, "role_id")
    changes: dict[str, Any] = {}
    if name is not None:
        if role.is_everyone:
            raise RuleViolation("@everyone cannot be renamed", field="name", hint="rename another role")
        changes["name"] = name
    if permissions is not None:
        bits = bits_of(permissions)
        added = names_of(bits & ~int(role.permissions))
        _grantable(ctx, guild, actor, added, "permissions")
        changes.update(permissions=str(bits), permission_names=names_of(bits))
    for key, value in (("color", color), ("hoist", hoist), ("mentionable", mentionable)):
        if value is not None:
            changes[key] = value
    if position is not None and position != role.position:
        top = _top(ctx, guild, actor)
        highest = len(ctx.where(Role, guild_id=guild.id)) - 1
        if role.is_everyone:
            raise RuleViolation("@everyone always stays at position 0", field="position", hint="move another role")
        if not 1 <= position <= highest or position >= top:
            raise RuleViolation(
                f"position {position} is out of reach",
                field="position",
                hint=f"pick a position from 1 to {min(highest, top - 1)} (below your highest role)",
            )
        if position > role.position:
            _shift(ctx, guild.id, role.id, role.position + 1, -1, position + 1)
        else:
            _shift(ctx, guild.id, role.id, position, 1, role.position)
        changes["position"] = position
    if not changes:
        raise RuleViolation("nothing to change", field=None, hint="pass a name, permissions, colour or position")
    return ctx.update(ctx.get(Role, role.id), **changes)


class RoleDeletion(BaseModel):
    """A deleted role."""

    role_id: RoleId = Field(description="The deleted role.")
    members_affected: int = Field(description="Members who lost it.")


@service.tool(intent="delete the role", write=True, destructive=True, example=_example_delete_role)
def delete_role(ctx: Ctx, role_id: RoleId, actor_email: Email) -> RoleDeletion:
    """Delete a role below one's own highest role (needs MANAGE_ROLES); members lose it.

    @everyone and integration-managed roles cannot be deleted.

    Args:
        role_id: The role.
        actor_email: E-mail of the member deleting it.
    """
    role = ctx.get(Role, role_id, field="role_id")
    guild = _guild(ctx, role.guild_id, "role_id")
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "MANAGE_ROLES")
    if role.is_everyone or role.managed:
        raise RuleViolation(
            f"{role.name} is {'the base role' if role.is_everyone else 'managed by an integration'}",
            field="role_id",
            hint="remove the integration to drop a managed role" if role.managed else "delete another role",
        )
    _below(ctx, guild, actor, role, "role_id")
    n = 0
    for m in ctx.where(Member, guild_id=guild.id):
        if role.id in m.role_ids:
            ctx.update(m, role_ids=tuple(r for r in m.role_ids if r != role.id))
            n += 1
    for ch in ctx.where(Channel, guild_id=guild.id):
        kept = tuple(o for o in ch.permission_overwrites if o.role_id != role.id)
        if kept != ch.permission_overwrites:
            ctx.update(ch, permission_overwrites=kept)
    ctx.delete(role)
    _shift(ctx, guild.id, role.id, role.position + 1, -1)
    return RoleDeletion(role_id=role.id, members_affected=n)


# -- members ----------------------------------------------------------------------------------


def _assign_check(ctx: Ctx, guild_id: str, actor_email: str, email: str, role_id: str) -> tuple[Member, Role]:
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "MANAGE_ROLES")
    target = _member(ctx, guild, email, "email")
    role = ctx.get(Role, role_id, field="role_id")
    if role.guild_id != guild.id:
        raise RuleViolation(
            f"role {role.name} belongs to another server", field="role_id", hint="list this server's roles"
        )
    if role.is_everyone:
        raise RuleViolation("every member has @everyone", field="role_id", hint="pick another role")
    if role.managed:
        raise RuleViolation(
            f"{role.name} is managed by an integration",
            field="role_id",
            hint="integration roles are not assigned by hand",
        )
    _below(ctx, guild, actor, role, "role_id")
    return target, role


@service.tool(intent="give the member a role", write=True, example=_example_add_role)
def add_member_role(ctx: Ctx, guild_id: GuildId, actor_email: Email, email: Email, role_id: RoleId) -> Member:
    """Give a member a role (needs MANAGE_ROLES; the role must be below the actor's highest role).

    Args:
        guild_id: The server.
        actor_email: E-mail of the member assigning it.
        email: E-mail of the member who gets it.
        role_id: The role.
    """
    target, role = _assign_check(ctx, guild_id, actor_email, email, role_id)
    if role.id in target.role_ids:
        raise Conflict(f"{email} already has {role.name}", field="role_id", hint="nothing to do")
    return ctx.update(target, role_ids=(*target.role_ids, role.id))


@service.tool(intent="take the role from the member", write=True, example=_example_remove_role)
def remove_member_role(ctx: Ctx, guild_id: GuildId, actor_email: Email, email: Email, role_id: RoleId) -> Member:
    """Take a role from a member (needs MANAGE_ROLES; the role must be below the actor's highest role).

    Args:
        guild_id: The server.
        actor_email: E-mail of the member removing it.
        email: E-mail of the member who loses it.
        role_id: The role.
    """
    target, role = _assign_check(ctx, guild_id, actor_email, email, role_id)
    if role.id not in target.role_ids:
        raise RuleViolation(f"{email} does not have {role.name}", field="role_id", hint="list the member's role_ids")
    return ctx.update(target, role_ids=tuple(r for r in target.role_ids if r != role.id))


@service.tool(intent="change the member's nickname", write=True, idempotent=True, example=_example_nickname)
def set_member_nickname(
    ctx: Ctx, guild_id: GuildId, actor_email: Email, email: Email, nick: Nick | None = None
) -> Member:
    """Set or clear a member's nickname on the server.

    Members change their own with CHANGE_NICKNAME; changing someone else's
    needs MANAGE_NICKNAMES and a higher role than theirs (never the owner's).

    Args:
        guild_id: The server.
        actor_email: E-mail of the member making the change.
        email: E-mail of the member whose nickname changes.
        nick: The nickname (up to 32 characters); omit to clear it.
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    target = _member(ctx, guild, email, "email")
    if actor.id == target.id:
        _require(ctx, guild, actor, None, "actor_email", "CHANGE_NICKNAME")
    else:
        _require(ctx, guild, actor, None, "actor_email", "MANAGE_NICKNAMES")
        _outranks(ctx, guild, actor, target, "email")
    return ctx.update(target, nick=nick)


@service.tool(intent="time out the member", write=True, example=_example_timeout)
def timeout_member(
    ctx: Ctx, guild_id: GuildId, actor_email: Email, email: Email, until: DateTime | None = None, reason: Text = ""
) -> Member:
    """Time a member out until a time at most 28 days ahead, or lift their timeout (needs MODERATE_MEMBERS).

    Timed-out members cannot send messages, react or start threads. The
    target's highest role must be below the actor's; administrators and the
    owner cannot be timed out.

    Args:
        guild_id: The server.
        actor_email: E-mail of the moderator.
        email: E-mail of the member.
        until: When the timeout ends; omit to lift it.
        reason: Why (for the audit log).
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "MODERATE_MEMBERS")
    target = _member(ctx, guild, email, "email")
    _outranks(ctx, guild, actor, target, "email")
    if until is None:
        if not _timed_out(ctx, target):
            raise RuleViolation(f"{email} is not timed out", field="email", hint="pass until to time them out")
        return ctx.update(target, communication_disabled_until=None)
    if _base_bits(ctx, guild, target) & BITS["ADMINISTRATOR"]:
        raise RuleViolation(f"{email} is an administrator", field="email", hint="administrators cannot be timed out")
    now = ctx.now()
    if not now < until <= now + MAX_TIMEOUT:
        raise RuleViolation(
            "a timeout must end in the future and at most 28 days from now",
            field="until",
            hint=f"pick a time before {(now + MAX_TIMEOUT).isoformat()}",
        )
    return ctx.update(target, communication_disabled_until=until)


class Removal(BaseModel):
    """A member removed from a server."""

    guild_id: GuildId = Field(description="The server.")
    email: Email = Field(description="Who was removed.")
    member_count: int = Field(description="Members left on the server.")


def _drop_member(ctx: Ctx, guild: Guild, target: Member) -> int:
    ctx.delete(target)
    count = max(0, guild.member_count - 1)
    ctx.update(ctx.get(Guild, guild.id), member_count=count)
    return count


@service.tool(
    intent="remove the member from the server",
    write=True,
    destructive=True,
    example=_example_moderate("KICK_MEMBERS"),
)
def remove_guild_member(ctx: Ctx, guild_id: GuildId, actor_email: Email, email: Email, reason: Text = "") -> Removal:
    """Kick a member off the server (needs KICK_MEMBERS and a higher role); they may rejoin with an invite.

    Args:
        guild_id: The server.
        actor_email: E-mail of the moderator.
        email: E-mail of the member.
        reason: Why (for the audit log).
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "KICK_MEMBERS")
    target = _member(ctx, guild, email, "email")
    _outranks(ctx, guild, actor, target, "email")
    return Removal(guild_id=guild.id, email=email, member_count=_drop_member(ctx, guild, target))


class BanResult(BaseModel):
    """A ban and what it did."""

    ban: Ban = Field(description="The ban.")
    removed_member: bool = Field(description="Whether the person was a member and was removed.")
    deleted_messages: int = Field(description="Their recent messages that were deleted.")


@service.tool(intent="ban the person from the server", write=True, destructive=True, example=_example_ban)
def ban_member(
    ctx: Ctx,
    guild_id: GuildId,
    actor_email: Email,
    email: Email,
    reason: Text = "",
    delete_message_seconds: int = 0,
) -> BanResult:
    """Ban a person (needs BAN_MEMBERS): a member is removed, and no invite lets them back in.

    A member's highest role must be below the actor's. Their messages of the
    last delete_message_seconds (up to 604,800, seven days) are deleted.

    Args:
        guild_id: The server.
        actor_email: E-mail of the moderator.
        email: E-mail of the person.
        reason: Why.
        delete_message_seconds: How far back to delete their messages.
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "BAN_MEMBERS")
    if not 0 <= delete_message_seconds <= MAX_BAN_PURGE:
        raise RuleViolation(
            f"delete_message_seconds must be 0 to {MAX_BAN_PURGE}",
            field="delete_message_seconds",
            hint="seven days at most",
        )
    if ctx.first(Ban, guild_id=guild.id, email=email) is not None:
        raise Conflict(f"{email} is already banned from {guild.name}", field="email", hint="nothing to do")
    person = _person(ctx, email, "email")
    target = _membership(ctx, guild.id, email)
    if target is not None:
        _outranks(ctx, guild, actor, target, "email")
        _drop_member(ctx, guild, target)
    deleted = 0
    if delete_message_seconds:
        since = ctx.now() - dt.timedelta(seconds=delete_message_seconds)
        for msg in ctx.where(Message, guild_id=guild.id, author_email=email):
            if msg.timestamp >= since:
                _remove_message(ctx, msg)
                deleted += 1
    ban = ctx.create(
        Ban, guild_id=guild.id, email=email, username=username_of(person.email), reason=reason, banned_by=actor_email
    )
    return BanResult(ban=ban, removed_member=target is not None, deleted_messages=deleted)


@service.tool(intent="lift the person's ban", write=True, example=_example_unban)
def unban_member(ctx: Ctx, guild_id: GuildId, actor_email: Email, email: Email) -> Ban:
    """Lift a ban (needs BAN_MEMBERS); the person may join again with an invite.

    Args:
        guild_id: The server.
        actor_email: E-mail of the moderator.
        email: E-mail of the banned person.
    """
    guild = _guild(ctx, guild_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, None, "actor_email", "BAN_MEMBERS")
    ban = ctx.first(Ban, guild_id=guild.id, email=email)
    if ban is None:
        raise NotFound(f"{email} is not banned from {guild.name}", field="email", hint="list the server's bans")
    ctx.delete(ban)
    return ban


# -- messages ---------------------------------------------------------------------------------


def _remove_message(ctx: Ctx, msg: Message) -> None:
    for r in ctx.where(Reaction, message_id=msg.id):
        ctx.delete(r)
    if msg.thread_id is not None:
        t = ctx.find(Thread, msg.thread_id)
        if t is not None:
            ctx.update(t, message_count=max(0, t.message_count - 1))
    ctx.delete(msg)


def _can_talk(ctx: Ctx, member: Member, field: str) -> None:
    if _timed_out(ctx, member):
        until = member.communication_disabled_until
        raise RuleViolation(
            f"{member.email} is timed out until {until.isoformat() if until else ''}",
            field=field,
            hint="wait for the timeout to end, or have a moderator lift it with guildchat__timeout_member",
        )


def _thread_in(ctx: Ctx, ch: Channel, thread_id: str) -> Thread:
    thread = ctx.get(Thread, thread_id, field="thread_id")
    if thread.channel_id != ch.id:
        raise RuleViolation(
            f"thread {thread.name} is not in #{ch.name}", field="thread_id", hint="pass the thread's own channel_id"
        )
    return thread


def _check_slowmode(ctx: Ctx, ch: Channel, thread_id: str | None, author: Member, bits: int) -> None:
    wait = ch.rate_limit_per_user
    if not wait or any(bits & BITS[p] for p in MODERATION_BYPASS):
        return
    since = ctx.now() - dt.timedelta(seconds=wait)
    for msg in ctx.where(Message, channel_id=ch.id, author_email=author.email):
        if msg.thread_id == thread_id and msg.type in ("default", "reply") and msg.timestamp > since:
            left = int((msg.timestamp - since).total_seconds())
            raise RuleViolation(
                f"#{ch.name} is in slowmode: one message every {wait} seconds",
                field="channel_id",
                hint=f"wait {left} more seconds before posting again",
            )


def _check_mentions(
    ctx: Ctx, guild: Guild, mentions: list[str], role_ids: list[str], everyone: bool, bits: int
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    for i, email in enumerate(mentions):
        if _membership(ctx, guild.id, email) is None:
            raise RuleViolation(
                f"{email} is not a member of {guild.name} and cannot be mentioned",
                field=f"mentions.{i}",
                hint="mention members of the server only",
            )
    for i, rid in enumerate(role_ids):
        role = ctx.get(Role, rid, field=f"mention_role_ids.{i}")
        if role.guild_id != guild.id or role.is_everyone:
            raise RuleViolation(
                f"{role.name} cannot be mentioned here",
                field=f"mention_role_ids.{i}",
                hint="mention a role of this server",
            )
        if not role.mentionable and not bits & BITS["MENTION_EVERYONE"]:
            raise RuleViolation(
                f"role {role.name} is not mentionable",
                field=f"mention_role_ids.{i}",
                hint="only members with MENTION_EVERYONE can mention it; make it mentionable with guildchat__modify_role",
            )
    if everyone and not bits & BITS["MENTION_EVERYONE"]:
        raise RuleViolation(
            "pinging @everyone needs MENTION_EVERYONE",
            field="mention_everyone",
            hint="leave mention_everyone off or post as a moderator",
        )
    return tuple(dict.fromkeys(mentions)), tuple(dict.fromkeys(role_ids))


def _post(ctx: Ctx, ch: Channel, thread: Thread | None, **fields: Any) -> Message:
    msg = ctx.create(Message, guild_id=ch.guild_id, channel_id=ch.id, thread_id=thread.id if thread else None, **fields)
    if thread is not None:
        t = ctx.get(Thread, thread.id)
        ctx.update(t, message_count=t.message_count + 1)
    return msg


@service.tool(intent="post a message in the channel", write=True, example=_example_send)
def send_message(
    ctx: Ctx,
    channel_id: ChannelId,
    author_email: Email,
    content: Text,
    thread_id: ThreadId | None = None,
    mentions: Mentions | None = None,
    mention_role_ids: RoleMentions | None = None,
    mention_everyone: bool = False,
    reply_to_message_id: MessageId | None = None,
) -> Message:
    """Post a message in a channel, or in one of its threads, as a member who may send there.

    Needs VIEW_CHANNEL and SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a
    thread). Categories take no messages and forums only in their posts
    (threads). Timed-out members cannot post; slowmode applies unless the
    author may manage messages or the channel. A new message reopens an
    archived thread; a locked one takes messages only from thread managers.
    Mentioned members must be on the server, a role must be mentionable
    (or the author have MENTION_EVERYONE), and @everyone needs MENTION_EVERYONE.
    A reply must answer a message of the same channel and thread.

    Args:
        channel_id: The channel.
        author_email: E-mail of the member posting.
        content: The text (up to 2,000 characters).
        thread_id: A thread of the channel to post in.
        mentions: E-mails of members to @mention.
        mention_role_ids: Roles to @mention.
        mention_everyone: Whether to ping @everyone.
        reply_to_message_id: The message this replies to.
    """
    ch, guild = _channel_of(ctx, channel_id)
    author = _member(ctx, guild, author_email, "author_email")
    _check_content(content)
    thread = _thread_in(ctx, ch, thread_id) if thread_id else None
    if ch.type == "category":
        raise RuleViolation("categories hold channels, not messages", field="channel_id", hint="post in a text channel")
    if ch.type == "forum" and thread is None:
        raise RuleViolation(
            f"#{ch.name} is a forum: messages go in its posts",
            field="thread_id",
            hint="pass a post's thread_id, or start a post with guildchat__start_thread",
        )
    bits = _require(
        ctx,
        guild,
        author,
        ch,
        "author_email",
        "VIEW_CHANNEL",
        "SEND_MESSAGES_IN_THREADS" if thread else "SEND_MESSAGES",
    )
    _can_talk(ctx, author, "author_email")
    if thread is not None and thread.status == "locked" and not bits & BITS["MANAGE_THREADS"]:
        raise RuleViolation(
            f"thread {thread.name} is locked", field="thread_id", hint="only members who manage threads can post in it"
        )
    _check_slowmode(ctx, ch, thread_id, author, bits)
    ref = None
    if reply_to_message_id is not None:
        ref = ctx.get(Message, reply_to_message_id, field="reply_to_message_id")
        if ref.channel_id != ch.id or ref.thread_id != thread_id:
            raise RuleViolation(
                "a reply must answer a message in the same channel and thread",
                field="reply_to_message_id",
                hint="reply to a message listed in this channel",
            )
    who, role_ids = _check_mentions(ctx, guild, mentions or [], mention_role_ids or [], mention_everyone, bits)
    if ref is not None and ref.author_email and ref.author_email not in who:
        who = (*who, ref.author_email)
    if thread is not None and thread.status == "archived":
        ctx.update(thread, status="active", archive_timestamp=ctx.now())
    return _post(
        ctx,
        ch,
        thread,
        type="reply" if ref else "default",
        author_email=author_email,
        author_name=_shown_name(author),
        content=content,
        mentions=who,
        mention_roles=role_ids,
        mention_everyone=mention_everyone,
        referenced_message_id=ref.id if ref else None,
    )


@service.tool(intent="edit the message", write=True, idempotent=True, example=_example_edit)
def edit_message(ctx: Ctx, message_id: MessageId, author_email: Email, content: Text) -> Message:
    """Change the text of one's own message (only its author may).

    Args:
        message_id: The message.
        author_email: E-mail of its author.
        content: The new text (up to 2,000 characters).
    """
    msg = ctx.get(Message, message_id, field="message_id")
    if msg.type not in ("default", "reply"):
        raise RuleViolation("system messages cannot be edited", field="message_id", hint="edit a member's message")
    if msg.author_email != author_email:
        raise RuleViolation(
            "Cannot edit a message authored by another user",
            field="author_email",
            hint=f"only {msg.author_email or 'the webhook that posted it'} can edit it",
        )
    _check_content(content)
    if content == msg.content:
        return msg
    return ctx.update(msg, content=content, edited_timestamp=ctx.now())


class MessageDeletion(BaseModel):
    """A deleted message."""

    message_id: MessageId = Field(description="The deleted message.")
    channel_id: ChannelId = Field(description="Its channel.")
    was_pinned: bool = Field(description="Whether it was pinned.")


@service.tool(
    intent="delete the message",
    write=True,
    destructive=True,
    example=lambda ctx: _example_message_mod(ctx),
)
def delete_message(ctx: Ctx, message_id: MessageId, actor_email: Email) -> MessageDeletion:
    """Delete a message with its reactions; its author may, others need MANAGE_MESSAGES in the channel.

    A thread started from it stays.

    Args:
        message_id: The message.
        actor_email: E-mail of the author or of a moderator.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ch, guild = _channel_of(ctx, msg.channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    if msg.author_email != actor_email:
        _require(ctx, guild, actor, ch, "actor_email", "MANAGE_MESSAGES")
    _remove_message(ctx, msg)
    return MessageDeletion(message_id=msg.id, channel_id=ch.id, was_pinned=msg.pinned)


def _reactable(ctx: Ctx, message_id: str, actor_email: str) -> tuple[Message, Channel, Guild, Member, int]:
    msg = ctx.get(Message, message_id, field="message_id")
    ch, guild = _channel_of(ctx, msg.channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    bits = _require(ctx, guild, actor, ch, "actor_email", "VIEW_CHANNEL", "READ_MESSAGE_HISTORY")
    return msg, ch, guild, actor, bits


def _recount(ctx: Ctx, msg: Message) -> Message:
    counts: dict[str, int] = {}
    for r in ctx.where(Reaction, message_id=msg.id):
        counts[r.emoji] = counts.get(r.emoji, 0) + 1
    ordered = [ReactionCount(emoji=e.emoji, count=counts.pop(e.emoji)) for e in msg.reactions if e.emoji in counts]
    ordered += [ReactionCount(emoji=e, count=n) for e, n in counts.items()]
    return ctx.update(msg, reactions=tuple(ordered))


@service.tool(intent="react to the message", write=True, example=_example_reaction)
def add_reaction(ctx: Ctx, message_id: MessageId, actor_email: Email, emoji: Emoji) -> Message:
    """React to a message with an emoji.

    Needs READ_MESSAGE_HISTORY; starting a new emoji on the message also
    needs ADD_REACTIONS (joining an existing one does not). A message carries
    at most 20 different emoji, a member reacts with each once, and timed-out
    members cannot react.

    Args:
        message_id: The message.
        actor_email: E-mail of the member reacting.
        emoji: A Unicode emoji, or name:id for a custom one.
    """
    msg, _, _, actor, bits = _reactable(ctx, message_id, actor_email)
    _can_talk(ctx, actor, "actor_email")
    if ctx.first(Reaction, message_id=msg.id, email=actor_email, emoji=emoji) is not None:
        raise Conflict(f"{actor_email} already reacted with {emoji}", field="emoji", hint="nothing to do")
    present = {r.emoji for r in msg.reactions}
    if emoji not in present:
        if not bits & BITS["ADD_REACTIONS"]:
            raise RuleViolation(
                f"{actor_email} lacks ADD_REACTIONS",
                field="actor_email",
                hint="they can only join reactions already on the message",
            )
        if len(present) >= MAX_REACTIONS:
            raise RuleViolation(
                f"the message already has {MAX_REACTIONS} different reactions",
                field="emoji",
                hint="react with one of the emoji already on it",
            )
    ctx.create(Reaction, message_id=msg.id, emoji=emoji, email=actor_email)
    return _recount(ctx, msg)


@service.tool(
    intent="remove the reaction from the message",
    write=True,
    example=first_example(
        Reaction, None, fields={"message_id": "message_id", "actor_email": "email", "emoji": "emoji"}
    ),
)
def remove_reaction(
    ctx: Ctx, message_id: MessageId, actor_email: Email, emoji: Emoji, email: Email | None = None
) -> Message:
    """Remove one's own reaction, or (with MANAGE_MESSAGES) someone else's.

    Args:
        message_id: The message.
        actor_email: E-mail of the member removing it.
        emoji: The emoji.
        email: Whose reaction to remove; omit for the actor's own.
    """
    msg, ch, guild, actor, _ = _reactable(ctx, message_id, actor_email)
    whose = email or actor_email
    if whose != actor_email:
        _require(ctx, guild, actor, ch, "actor_email", "MANAGE_MESSAGES")
    found = ctx.first(Reaction, message_id=msg.id, email=whose, emoji=emoji)
    if found is None:
        raise NotFound(f"{whose} has no {emoji} reaction on this message", field="emoji", hint="check the reactions")
    ctx.delete(found)
    return _recount(ctx, msg)


@service.tool(intent="pin the message", write=True, example=lambda ctx: _example_message_mod(ctx))
def pin_message(ctx: Ctx, message_id: MessageId, actor_email: Email) -> Message:
    """Pin a message to its channel or thread (needs MANAGE_MESSAGES); at most 50 pins each.

    The channel gets a system message saying who pinned it.

    Args:
        message_id: The message.
        actor_email: E-mail of the member pinning it.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ch, guild = _channel_of(ctx, msg.channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, ch, "actor_email", "MANAGE_MESSAGES")
    if msg.pinned:
        raise Conflict("the message is already pinned", field="message_id", hint="nothing to do")
    if msg.type not in ("default", "reply"):
        raise RuleViolation("system messages cannot be pinned", field="message_id", hint="pin a member's message")
    pinned = [m for m in ctx.where(Message, channel_id=ch.id, pinned=True) if m.thread_id == msg.thread_id]
    if len(pinned) >= MAX_PINS:
        raise RuleViolation(
            f"Maximum number of pins reached ({MAX_PINS})",
            field="message_id",
            hint="unpin an older message with guildchat__unpin_message first",
        )
    done = ctx.update(msg, pinned=True)
    thread = ctx.find(Thread, msg.thread_id) if msg.thread_id else None
    _post(
        ctx,
        ch,
        thread,
        type="channel_pinned_message",
        author_email=actor_email,
        author_name=_shown_name(actor),
        content=f"{_shown_name(actor)} pinned a message to this channel.",
        referenced_message_id=msg.id,
    )
    return done


@service.tool(intent="unpin the message", write=True, example=lambda ctx: _example_message_mod(ctx, pinned=True))
def unpin_message(ctx: Ctx, message_id: MessageId, actor_email: Email) -> Message:
    """Unpin a pinned message (needs MANAGE_MESSAGES).

    Args:
        message_id: The message.
        actor_email: E-mail of the member unpinning it.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ch, guild = _channel_of(ctx, msg.channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    _require(ctx, guild, actor, ch, "actor_email", "MANAGE_MESSAGES")
    if not msg.pinned:
        raise RuleViolation(
            "the message is not pinned", field="message_id", hint="list pinned messages with pinned=true"
        )
    return ctx.update(msg, pinned=False)


class Crosspost(BaseModel):
    """An announcement published to the channels following it."""

    message: Message = Field(description="The announcement, now marked crossposted.")
    copies: list[Message] = Field(description="The copies posted by follower webhooks, one per following channel.")


@service.tool(intent="publish the announcement to its followers", write=True, example=_example_crosspost)
def crosspost_message(ctx: Ctx, message_id: MessageId, actor_email: Email) -> Crosspost:
    """Publish a message of an announcement channel to every channel that follows it.

    Only messages of announcement channels, once each; one's own message needs
    SEND_MESSAGES, someone else's MANAGE_MESSAGES.

    Args:
        message_id: The announcement.
        actor_email: E-mail of the member publishing it.
    """
    msg = ctx.get(Message, message_id, field="message_id")
    ch, guild = _channel_of(ctx, msg.channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    if ch.type != "announcement" or msg.thread_id is not None:
        raise RuleViolation(
            f"#{ch.name} is not an announcement channel",
            field="message_id",
            hint="only messages of announcement channels can be published",
        )
    if msg.crossposted:
        raise Conflict("This message has already been crossposted", field="message_id", hint="nothing to do")
    if msg.type not in ("default", "reply"):
        raise RuleViolation("system messages cannot be published", field="message_id", hint="publish a member's post")
    _require(
        ctx, guild, actor, ch, "actor_email", "SEND_MESSAGES" if msg.author_email == actor_email else "MANAGE_MESSAGES"
    )
    done = ctx.update(msg, crossposted=True)
    copies = []
    for hook in ctx.where(Webhook, source_channel_id=ch.id, type="channel_follower"):
        target = ctx.get(Channel, hook.channel_id)
        copies.append(
            _post(
                ctx,
                target,
                None,
                author_name=f"{guild.name} #{ch.name}",
                content=msg.content,
                webhook_id=hook.id,
                referenced_message_id=msg.id,
            )
        )
    return Crosspost(message=done, copies=copies)


# -- threads ----------------------------------------------------------------------------------


@service.tool(intent="start a thread in the channel", write=True, example=_example_thread)
def start_thread(
    ctx: Ctx,
    channel_id: ChannelId,
    author_email: Email,
    name: ThreadName,
    message_id: MessageId | None = None,
    content: Text | None = None,
    auto_archive_duration: ArchiveAfter = 1440,
) -> Thread:
    """Start a thread from a message, a standalone thread, or a forum post (needs CREATE_PUBLIC_THREADS).

    In a forum a post is a thread whose first message is content; it cannot
    start from a message. In text and announcement channels a thread may start
    from one of the channel's messages (at most one thread per message);
    announcement channels only so. content, when given, is posted as the
    thread's first message. Voice channels and categories have no threads.

    Args:
        channel_id: The parent channel.
        author_email: E-mail of the member starting it.
        name: Thread title.
        message_id: The message to start it from.
        content: The first message (required for a forum post).
        auto_archive_duration: Minutes of inactivity before it archives.
    """
    ch, guild = _channel_of(ctx, channel_id)
    author = _member(ctx, guild, author_email, "author_email")
    if ch.type in ("voice", "category"):
        raise RuleViolation(
            f"{ch.type} channels have no threads", field="channel_id", hint="use a text or forum channel"
        )
    bits = _require(ctx, guild, author, ch, "author_email", "VIEW_CHANNEL", "CREATE_PUBLIC_THREADS")
    _can_talk(ctx, author, "author_email")
    starter = None
    if ch.type == "forum":
        if message_id is not None:
            raise RuleViolation("forum posts do not start from a message", field="message_id", hint="omit message_id")
        if not content or not content.strip():
            raise RuleViolation("a forum post needs a first message", field="content", hint="pass the post's content")
    elif message_id is not None:
        starter = ctx.get(Message, message_id, field="message_id")
        if starter.channel_id != ch.id or starter.thread_id is not None:
            raise RuleViolation(
                "the message is not in this channel",
                field="message_id",
                hint="start the thread in the message's channel",
            )
        if ctx.first(Thread, starter_message_id=starter.id) is not None:
            raise Conflict(
                "A thread has already been created for this message",
                field="message_id",
                hint="post in the existing thread (guildchat__list_threads with starter_message_id)",
            )
    elif ch.type == "announcement":
        raise RuleViolation(
            "threads in announcement channels start from a message", field="message_id", hint="pass message_id"
        )
    if content is not None:
        _check_content(content)
        _check_slowmode(ctx, ch, None, author, bits)
    thread = ctx.create(
        Thread,
        guild_id=guild.id,
        channel_id=ch.id,
        name=name,
        type="announcement_thread" if ch.type == "announcement" else "public_thread",
        starter_message_id=starter.id if starter else None,
        member_email=author.email,
        auto_archive_duration=auto_archive_duration,
    )
    if content:
        _post(ctx, ch, thread, author_email=author_email, author_name=_shown_name(author), content=content)
    return ctx.get(Thread, thread.id)


# -- invites ----------------------------------------------------------------------------------


@service.tool(intent="create an invite to the server", write=True, example=_example_invite)
def create_invite(
    ctx: Ctx,
    channel_id: ChannelId,
    actor_email: Email,
    max_age: int = 86400,
    max_uses: int = 0,
    temporary: bool = False,
) -> Invite:
    """Create an invite code into a channel (needs CREATE_INSTANT_INVITE there).

    Args:
        channel_id: The channel new members land in (not a category).
        actor_email: E-mail of the member creating it.
        max_age: Seconds it stays valid, 0 to 604,800 (0 = never expires).
        max_uses: How many people it admits, 0 to 100 (0 = unlimited).
        temporary: Whether it grants temporary membership.
    """
    ch, guild = _channel_of(ctx, channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    if ch.type == "category":
        raise RuleViolation("invites lead into a channel, not a category", field="channel_id", hint="pick a channel")
    _require(ctx, guild, actor, ch, "actor_email", "CREATE_INSTANT_INVITE")
    if not 0 <= max_age <= MAX_INVITE_AGE:
        raise RuleViolation(f"max_age must be 0 to {MAX_INVITE_AGE} seconds", field="max_age", hint="7 days at most")
    if not 0 <= max_uses <= 100:
        raise RuleViolation("max_uses must be 0 to 100", field="max_uses", hint="0 means unlimited")
    while True:
        code = "".join(ctx.rng.choice(_CODE_CHARS) for _ in range(8))
        if ctx.first(Invite, code=code) is None:
            break
    return ctx.create(
        Invite,
        code=code,
        guild_id=guild.id,
        channel_id=ch.id,
        created_by=actor_email,
        max_age=max_age,
        max_uses=max_uses,
        temporary=temporary,
        expires_at=ctx.now() + dt.timedelta(seconds=max_age) if max_age else None,
    )


@service.tool(intent="join the server with the invite as the customer", write=True, example=_example_accept)
def accept_invite(ctx: Ctx, code: InviteCode, email: Email) -> Member:
    """A person joins a server with an invite code (the community side of an invite).

    The invite must not have expired or run out of uses; banned people and
    members are refused. The server's system channel gets a join message.

    Args:
        code: The invite code.
        email: E-mail of the person joining.
    """
    inv = ctx.first(Invite, code=code)
    if inv is None:
        raise NotFound(f"Unknown Invite {code}", field="code", hint="ask a member for a fresh invite")
    if inv.expires_at is not None and inv.expires_at <= ctx.now():
        raise RuleViolation(f"invite {code} has expired", field="code", hint="ask for a new invite")
    if inv.max_uses and inv.uses >= inv.max_uses:
        raise RuleViolation(
            f"invite {code} has been used {inv.uses} times, its limit", field="code", hint="ask for a new invite"
        )
    guild = ctx.get(Guild, inv.guild_id)
    if ctx.first(Ban, guild_id=guild.id, email=email) is not None:
        raise RuleViolation(
            f"{email} is banned from {guild.name}", field="email", hint="a moderator must lift the ban first"
        )
    if _membership(ctx, guild.id, email) is not None:
        raise Conflict(f"{email} is already a member of {guild.name}", field="email", hint="nothing to do")
    person = _person(ctx, email, "email")
    member = ctx.create(
        Member, guild_id=guild.id, email=email, username=username_of(person.email), global_name=person.name
    )
    ctx.update(inv, uses=inv.uses + 1)
    ctx.update(guild, member_count=guild.member_count + 1)
    if guild.system_channel_id:
        ch = ctx.get(Channel, guild.system_channel_id)
        _post(
            ctx,
            ch,
            None,
            type="guild_member_join",
            author_email=email,
            author_name=person.name,
            content=f"Welcome {person.name}, glad you're here.",
        )
    return member


# -- webhooks ---------------------------------------------------------------------------------


@service.tool(intent="create a webhook for the channel", write=True, example=_example_webhook)
def create_webhook(ctx: Ctx, channel_id: ChannelId, actor_email: Email, name: WebhookName) -> Webhook:
    """Create an incoming webhook that posts into a text, announcement or forum channel (needs MANAGE_WEBHOOKS).

    Names may not contain "clyde" or "discord"; a channel has at most 15 webhooks.

    Args:
        channel_id: The channel it posts into.
        actor_email: E-mail of the member creating it.
        name: The name its messages show.
    """
    ch, guild = _channel_of(ctx, channel_id)
    actor = _member(ctx, guild, actor_email, "actor_email")
    if ch.type not in ("text", "announcement", "forum"):
        raise RuleViolation(f"{ch.type} channels take no webhooks", field="channel_id", hint="use a text channel")
    _require(ctx, guild, actor, ch, "actor_email", "MANAGE_WEBHOOKS")
    _check_webhook_name(name, "name")
    if len(ctx.where(Webhook, channel_id=ch.id)) >= MAX_WEBHOOKS:
        raise RuleViolation(
            f"Maximum number of webhooks reached ({MAX_WEBHOOKS})", field="channel_id", hint="reuse an existing webhook"
        )
    token = "".join(ctx.rng.choice(_CODE_CHARS + "-_") for _ in range(68))
    return ctx.create(Webhook, guild_id=guild.id, channel_id=ch.id, name=name, token=token, created_by=actor_email)


@service.tool(intent="post a message through the webhook", write=True, example=_example_execute)
def execute_webhook(
    ctx: Ctx,
    webhook_id: WebhookId,
    token: str,
    content: Text,
    username: WebhookName | None = None,
    thread_name: ThreadName | None = None,
) -> Message:
    """Post a message through an incoming webhook with its token; slowmode does not apply to webhooks.

    Into a forum channel a webhook starts a new post and must name it
    (thread_name); elsewhere thread_name is not taken. username overrides the
    shown name under the same naming rule.

    Args:
        webhook_id: The webhook.
        token: The webhook's token.
        content: The text (up to 2,000 characters).
        username: Name to show instead of the webhook's.
        thread_name: Title of the forum post to create.
    """
    hook = ctx.get(Webhook, webhook_id, field="webhook_id")
    if hook.type != "incoming":
        raise RuleViolation(
            "channel follower webhooks only relay crossposts", field="webhook_id", hint="use an incoming webhook"
        )
    if token != hook.token:
        raise RuleViolation("Invalid Webhook Token", field="token", hint="use the token listed with the webhook")
    _check_content(content)
    if username is not None:
        _check_webhook_name(username, "username")
    ch = ctx.get(Channel, hook.channel_id)
    thread = None
    if ch.type == "forum":
        if not thread_name:
            raise RuleViolation(
                "webhooks into a forum channel must name the post", field="thread_name", hint="pass thread_name"
            )
        thread = ctx.create(Thread, guild_id=ch.guild_id, channel_id=ch.id, name=thread_name)
    elif thread_name is not None:
        raise RuleViolation(
            "thread_name is only for forum channels", field="thread_name", hint="omit it for this webhook's channel"
        )
    return _post(ctx, ch, thread, author_name=username or hook.name, content=content, webhook_id=hook.id)


# -- seed -------------------------------------------------------------------------------------

MOD_PERMS: tuple[Permission, ...] = (
    "KICK_MEMBERS",
    "BAN_MEMBERS",
    "MANAGE_CHANNELS",
    "VIEW_AUDIT_LOG",
    "MANAGE_MESSAGES",
    "MENTION_EVERYONE",
    "MUTE_MEMBERS",
    "MOVE_MEMBERS",
    "MANAGE_NICKNAMES",
    "MANAGE_ROLES",
    "MANAGE_WEBHOOKS",
    "MANAGE_EVENTS",
    "MANAGE_THREADS",
    "CREATE_PRIVATE_THREADS",
    "MODERATE_MEMBERS",
)
SUPPORT_PERMS: tuple[Permission, ...] = (
    "MANAGE_MESSAGES",
    "MENTION_EVERYONE",
    "MANAGE_NICKNAMES",
    "MANAGE_THREADS",
    "MODERATE_MEMBERS",
    "KICK_MEMBERS",
)
GENERAL_TALK = (
    "Has anyone tried the new dashboard filters? They save me a lot of clicks.",
    "Is there a way to export the monthly report as PDF?",
    "Loving the dark mode, thanks team!",
    "Quick question: does the mobile app support offline mode yet?",
    "Just upgraded to the new plan, setup took five minutes.",
    "Where can I find the API rate limits?",
    "The sync with my calendar stopped working this morning.",
    "Any tips for onboarding a new team onto the workspace?",
)
STAFF_REPLIES = (
    "Thanks for flagging this, we are looking into it now.",
    "Yes! Check the pinned guide in #announcements.",
    "Great question, the docs have a section on exactly that.",
    "That is fixed in the next release, out this week.",
)
HELP_POSTS = (
    ("Login loop after password reset", "After resetting my password the app keeps sending me back to login."),
    ("Invoices show the wrong currency", "My invoices show USD although my account is set to EUR."),
    ("Webhook retries", "How many times do you retry a failed webhook delivery?"),
    ("Cannot invite teammates", "The invite button is greyed out on my workspace."),
    ("CSV import skips rows", "Importing a CSV with 500 rows only created 480 records."),
)
PARTNER_POSTS = (
    ("OAuth scopes for the partner API", "Which scopes does the partner API need to read invoices?"),
    ("Sandbox reset", "Could you reset our sandbox tenant? The test data is stale."),
    ("Webhook signature mismatch", "Our signature check fails since the key rotation on Monday."),
    ("Rate limits for bulk sync", "We hit 429s during the nightly bulk sync. What is the limit?"),
    ("Co-marketing assets", "Where can we download the logo pack for the joint launch?"),
)
PARTNER_TALK = (
    "Our connector now supports the new export API, release notes are in our portal.",
    "Is the v3 API deprecation still planned for the end of the quarter?",
    "We are seeing great adoption of the integration with mid-size customers.",
    "Can we get early access to the new reporting endpoints?",
    "Heads-up: our certificate renews on Friday, no action needed.",
    "Who is the right contact for joint case studies?",
)
FEEDBACK_POSTS = (
    ("Keyboard shortcuts please", "It would be great to have shortcuts for the common actions."),
    ("Bulk edit for tags", "Editing tags one by one is slow; bulk edit would help a lot."),
)
ANNOUNCEMENTS = (
    "Version 4.1 is live: faster search, new export formats and a refreshed settings page.",
    "Scheduled maintenance this Saturday 06:00-08:00 UTC. The API stays read-only meanwhile.",
    "Our community meetup is next month: sign up on the events page and bring your questions!",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """A community server for customers moderated by staff and a partner server for customer contacts."""
    pop = s.population
    staff_pool = pop.staff("Marketing", "Support", fallback=6)
    community = _seed_guild(
        s,
        f"{pop.home.name} Community",
        f"Where customers of {pop.home.name} swap tips, ask for help and hear news first.",
        staff_pool[0],
        community=True,
    )
    c_roles = _seed_roles(
        s,
        community,
        (
            ("Beta Testers", (), 0x2ECC71, False, True, False),
            ("Verified Customer", (), 0x3498DB, True, False, False),
            ("Release Bot", ("VIEW_CHANNEL", "SEND_MESSAGES", "EMBED_LINKS", "MANAGE_WEBHOOKS"), 0, False, False, True),
            ("Support Team", SUPPORT_PERMS, 0x9B59B6, True, True, False),
            ("Moderator", MOD_PERMS, 0xE74C3C, True, True, False),
            ("Admin", ("ADMINISTRATOR",), 0xF1C40F, True, False, False),
        ),
    )
    c_members = _seed_members(s, community, c_roles, _community_people(s))
    c_channels = _seed_channels(
        s,
        community,
        c_roles,
        (
            ("Information", (("welcome", "text", 0), ("rules", "text", 0), ("announcements", "announcement", 0))),
            ("Community", (("general", "text", 0), ("introductions", "text", 3600), ("feedback", "forum", 0))),
            ("Support", (("help", "forum", 0), ("bug-reports", "text", 600))),
            ("Voice", (("Lounge", "voice", 0), ("Office Hours", "voice", 0))),
            ("Staff", (("mod-log", "text", 0), ("staff-chat", "text", 0))),
        ),
    )
    community = s.update(
        community,
        system_channel_id=c_channels["welcome"].id,
        rules_channel_id=c_channels["rules"].id,
        member_count=len(c_members),
    )
    _seed_messages(s, community, c_channels, c_members)
    _seed_threads(s, community, c_channels, c_members)
    _seed_moderation(s, community, c_members)
    _seed_invites(s, community, c_channels, c_members)

    partner_owner = pop.staff("Sales", fallback=3)[0]
    partners = _seed_guild(
        s,
        f"{pop.home.name} Partners",
        "Private server for partner companies and integrators.",
        partner_owner,
        verification_level="medium",
    )
    p_roles = _seed_roles(
        s,
        partners,
        (
            ("Partner", (), 0x1ABC9C, True, True, False),
            ("Partner Manager", MOD_PERMS, 0xE67E22, True, True, False),
        ),
    )
    p_members = _seed_members(s, partners, p_roles, _partner_people(s))
    p_channels = _seed_channels(
        s,
        partners,
        p_roles,
        (
            (
                "Partners",
                (
                    ("partner-news", "announcement", 0),
                    ("integrations", "text", 0),
                    ("partner-support", "forum", 0),
                    ("Partner sync", "voice", 0),
                ),
            ),
        ),
    )
    partners = s.update(partners, system_channel_id=p_channels["integrations"].id, member_count=len(p_members))
    _seed_messages(s, partners, p_channels, p_members)
    _seed_threads(s, partners, p_channels, p_members)
    _seed_invites(s, partners, p_channels, p_members)
    _seed_webhooks(s, community, c_channels, partners, p_channels, c_members, p_members)


RoleSpec = tuple[str, tuple[Permission, ...], int, bool, bool, bool]
"""(name, permissions, colour, hoist, mentionable, managed) of a seeded role."""
People = list[tuple[Person, str]]
"""People with the role each gets: staff, mod, admin, beta, verified, partner, manager or member."""


def _seed_guild(s: SeedContext, name: str, desc: str, owner: Person, **kw: Any) -> Guild:
    """A server owned by an employee, created a year or two ago."""
    created = s.now - dt.timedelta(days=s.rng.randint(300, 700))
    return s.create(Guild, name=name, description=desc, owner_email=owner.email, created_at=created, **kw)


def _seed_roles(s: SeedContext, guild: Guild, specs: tuple[RoleSpec, ...]) -> dict[str, Role]:
    """@everyone at position 0 and the given roles above it, in order."""
    everyone = bits_of(DEFAULT_EVERYONE)
    out = {
        "@everyone": s.create(
            Role,
            guild_id=guild.id,
            name="@everyone",
            position=0,
            permissions=str(everyone),
            permission_names=names_of(everyone),
            is_everyone=True,
        )
    }
    for pos, (name, perms, color, hoist, mentionable, managed) in enumerate(specs, start=1):
        bits = bits_of(perms)
        out[name] = s.create(
            Role,
            guild_id=guild.id,
            name=name,
            color=color,
            hoist=hoist,
            mentionable=mentionable,
            position=pos,
            permissions=str(bits),
            permission_names=names_of(bits),
            managed=managed,
        )
    return out


def _community_people(s: SeedContext) -> People:
    """The owner, an admin, moderators and support staff, then most consumers and a few business contacts."""
    pop = s.population
    staff = pop.staff("Marketing", "Support", fallback=6)
    out: People = [(staff[0], "owner")]
    ranks = ("Admin", "Moderator", "Moderator", "Support Team", "Support Team", "Support Team")
    for p, rank in zip(staff[1:], ranks, strict=False):
        out.append((p, rank))
    consumers = list(pop.consumers)
    keep = consumers[: max(6, len(consumers) * 3 // 4)]
    for k, p in enumerate(keep):
        out.append((p, "Beta Testers" if k % 5 == 1 else "Verified Customer" if k % 3 == 0 else ""))
    for p in pop.contacts[:4]:
        out.append((p, "Verified Customer"))
    return out


def _partner_people(s: SeedContext) -> People:
    """Sales staff as partner managers and the people of the first customer companies as partners."""
    pop = s.population
    sales = pop.staff("Sales", fallback=3)
    out: People = [(sales[0], "owner")]
    out += [(p, "Partner Manager") for p in sales[1:3]]
    for company in pop.customers[:4]:
        out += [(p, "Partner") for p in pop.people_at(company)[:3]]
    return out


def _seed_members(s: SeedContext, guild: Guild, roles: dict[str, Role], people: People) -> list[Member]:
    """Members who joined over the server's life, with their role and a few nicknames."""
    out = []
    span = max(1, (s.now - guild.created_at).days - 1)
    taken: set[str] = set()
    for k, (p, rank) in enumerate(people):
        base = name = username_of(p.email)
        n = 0
        while name in taken:
            n += 1
            name = f"{base[:30]}{n:02d}"
        taken.add(name)
        joined = (
            guild.created_at if rank == "owner" else s.now - dt.timedelta(days=span * (len(people) - k) // len(people))
        )
        out.append(
            s.create(
                Member,
                guild_id=guild.id,
                email=p.email,
                username=name,
                global_name=p.name,
                nick=f"{p.first_name} ({rank})"[:32] if rank in ("Moderator", "Support Team") and k % 2 else None,
                role_ids=(roles[rank].id,) if rank in roles else (),
                joined_at=joined,
            )
        )
    return out


ChannelPlan = tuple[tuple[str, tuple[tuple[str, ChannelType, int], ...]], ...]
"""Categories with their channels: (name, type, slowmode seconds)."""


def _seed_channels(s: SeedContext, guild: Guild, roles: dict[str, Role], plan: ChannelPlan) -> dict[str, Channel]:
    """The categories and their channels; a Staff category is hidden from @everyone and open to staff roles."""
    out: dict[str, Channel] = {}
    staff_roles = [r for name, r in roles.items() if name in ("Moderator", "Support Team", "Partner Manager")]
    for cpos, (cat_name, children) in enumerate(plan):
        overwrites: tuple[Overwrite, ...] = ()
        if cat_name == "Staff":
            overwrites = (
                Overwrite(role_id=roles["@everyone"].id, deny=("VIEW_CHANNEL",)),
                *(Overwrite(role_id=r.id, allow=("VIEW_CHANNEL", "SEND_MESSAGES")) for r in staff_roles),
            )
        cat = s.create(
            Channel,
            guild_id=guild.id,
            type="category",
            name=cat_name,
            position=cpos,
            permission_overwrites=overwrites,
            created_at=guild.created_at,
        )
        for pos, (name, kind, slow) in enumerate(children):
            out[name] = s.create(
                Channel,
                guild_id=guild.id,
                type=kind,
                name=name,
                topic="" if kind == "voice" else f"{name.replace('-', ' ').capitalize()} for {guild.name}.",
                position=pos,
                parent_id=cat.id,
                rate_limit_per_user=slow,
                bitrate=64000 if kind == "voice" else None,
                user_limit=(25 if "Office" in name else 0) if kind == "voice" else None,
                permission_overwrites=overwrites,
                created_at=guild.created_at + dt.timedelta(minutes=5),
            )
    return out


def _is_staff(s: SeedContext, m: Member) -> bool:
    return m.email.endswith("@" + s.population.home.domain)


def _seed_message(s: SeedContext, ch: Channel, author: Member, content: str, when: dt.datetime, **kw: Any) -> Message:
    return s.create(
        Message,
        guild_id=ch.guild_id,
        channel_id=ch.id,
        author_email=author.email,
        author_name=author.nick or author.global_name,
        content=content,
        timestamp=when,
        **kw,
    )


def _react(s: SeedContext, msg: Message, people: list[Member], emoji: str) -> Message:
    for m in people:
        s.create(Reaction, message_id=msg.id, emoji=emoji, email=m.email)
    counts = [*msg.reactions, ReactionCount(emoji=emoji, count=len(people))]
    return s.update(msg, reactions=tuple(counts))


def _seed_messages(s: SeedContext, guild: Guild, chans: dict[str, Channel], mems: list[Member]) -> None:
    """Announcements, rules, chat with staff replies, mentions, reactions and pins, recent join messages."""
    staff = [m for m in mems if _is_staff(s, m)]
    crowd = [m for m in mems if not _is_staff(s, m)] or staff
    news = next((c for c in chans.values() if c.type == "announcement"), None)
    if news is not None:
        for k, text in enumerate(ANNOUNCEMENTS):
            msg = _seed_message(
                s, news, staff[0], text, s.now - dt.timedelta(days=20 - 8 * k), crossposted=k < 2, pinned=k == 0
            )
            _react(s, msg, crowd[k : k + 4], "🎉")
    if "rules" in chans:
        _seed_message(
            s,
            chans["rules"],
            staff[0],
            "1. Be kind. 2. No spam or self-promotion. 3. Keep support questions in #help.",
            guild.created_at + dt.timedelta(hours=1),
            pinned=True,
        )
    talk = chans.get("general") or chans.get("integrations")
    if talk is not None:
        texts = GENERAL_TALK if talk.name == "general" else PARTNER_TALK
        for k in range(min(len(texts), len(crowd))):
            author = crowd[(k * 3) % len(crowd)]
            when = s.now - dt.timedelta(hours=s.rng.randint(3, 24 * 10))
            mention = staff[k % len(staff)]
            msg = _seed_message(
                s, talk, author, texts[k], when, mentions=(mention.email,) if k % 3 == 1 else (), pinned=k == 5
            )
            if k % 2 == 0:
                _react(s, msg, crowd[k + 1 : k + 3], "👍")
            if k % 3 == 1:
                _seed_message(
                    s,
                    talk,
                    mention,
                    STAFF_REPLIES[k % len(STAFF_REPLIES)],
                    when + dt.timedelta(minutes=12),
                    type="reply",
                    referenced_message_id=msg.id,
                    mentions=(author.email,),
                )
    if "bug-reports" in chans:
        author = crowd[-1]
        _seed_message(
            s,
            chans["bug-reports"],
            author,
            "The export button does nothing in Safari 17.",
            s.now - dt.timedelta(minutes=4),
        )
    if "mod-log" in chans and len(staff) > 1:
        _seed_message(
            s, chans["mod-log"], staff[1], "Timed out a member for repeated spam links.", s.now - dt.timedelta(hours=2)
        )
    if "welcome" in chans and guild.system_channel_id == chans["welcome"].id:
        for m in mems[-3:]:
            s.create(
                Message,
                guild_id=guild.id,
                channel_id=chans["welcome"].id,
                type="guild_member_join",
                author_email=m.email,
                author_name=m.global_name,
                content=f"Welcome {m.global_name}, glad you're here.",
                timestamp=m.joined_at,
            )


def _seed_threads(s: SeedContext, guild: Guild, chans: dict[str, Channel], mems: list[Member]) -> None:
    """Forum posts in varied states with staff answers, and a thread from a chat message."""
    staff = [m for m in mems if _is_staff(s, m)]
    crowd = [m for m in mems if not _is_staff(s, m)] or staff
    forums = [c for c in chans.values() if c.type == "forum"]
    states: tuple[ThreadStatus, ...] = ("active", "active", "archived", "locked", "active")
    for f, forum in enumerate(forums):
        posts = {"feedback": FEEDBACK_POSTS, "partner-support": PARTNER_POSTS}.get(forum.name, HELP_POSTS)
        for k, (title, body) in enumerate(posts):
            author = crowd[(k * 5 + f) % len(crowd)]
            when = s.now - dt.timedelta(days=k * 3 + f + 1, hours=s.rng.randint(0, 12))
            status = states[k % len(states)]
            thread = s.create(
                Thread,
                guild_id=guild.id,
                channel_id=forum.id,
                name=title,
                member_email=author.email,
                status=status,
                auto_archive_duration=4320,
                archive_timestamp=when + dt.timedelta(days=2) if status != "active" else None,
                created_at=when,
            )
            _seed_message(s, forum, author, body, when, thread_id=thread.id)
            n = 1
            if k % 2 == 0 or status != "active":
                helper = staff[(k + 1) % len(staff)]
                _seed_message(
                    s,
                    forum,
                    helper,
                    STAFF_REPLIES[k % len(STAFF_REPLIES)],
                    when + dt.timedelta(hours=2),
                    thread_id=thread.id,
                    mentions=(author.email,),
                )
                n = 2
            s.update(thread, message_count=n)
    talk = chans.get("general") or chans.get("integrations")
    if talk is not None:
        first = next(
            (m for m in s.records(Message) if m.channel_id == talk.id and m.type == "default" and m.thread_id is None),
            None,
        )
        if first is not None:
            thread = s.create(
                Thread,
                guild_id=guild.id,
                channel_id=talk.id,
                name=f"Re: {first.content[:40].rstrip(' .?!')}",
                starter_message_id=first.id,
                member_email=first.author_email,
                message_count=1,
                created_at=first.timestamp + dt.timedelta(minutes=30),
            )
            _seed_message(
                s,
                talk,
                crowd[-1],
                "Following this one, I have the same question.",
                first.timestamp + dt.timedelta(minutes=40),
                thread_id=thread.id,
            )


def _seed_moderation(s: SeedContext, guild: Guild, mems: list[Member]) -> None:
    """A member timed out for spam, one whose timeout ended, and people banned who are no longer members."""
    crowd = [m for m in mems if not _is_staff(s, m) and not m.role_ids]
    mods = [m for m in mems if _is_staff(s, m)]
    if len(crowd) >= 2:
        s.update(crowd[2 % len(crowd)], communication_disabled_until=s.now + dt.timedelta(hours=6))
        s.update(crowd[3 % len(crowd)], communication_disabled_until=s.now - dt.timedelta(days=2))
    member_emails = {m.email for m in mems}
    outsiders = [p for p in s.population.consumers if p.email not in member_emails]
    for k, p in enumerate(outsiders[:2]):
        s.create(
            Ban,
            guild_id=guild.id,
            email=p.email,
            username=username_of(p.email),
            reason=("Posting spam links", "Harassing other members")[k],
            banned_by=mods[min(1, len(mods) - 1)].email,
            created_at=s.now - dt.timedelta(days=30 + 11 * k),
        )


def _seed_invites(s: SeedContext, guild: Guild, chans: dict[str, Channel], mems: list[Member]) -> None:
    """A permanent invite, a limited one in use, an expired one and a used-up one."""
    landing = chans.get("welcome") or next(c for c in chans.values() if c.type == "text")
    owner = next(m for m in mems if m.email == guild.owner_email)
    plan = ((0, 0, 57, 400), (604800, 25, 9, 3), (86400, 0, 14, 5), (0, 5, 5, 60))
    for max_age, max_uses, uses, days_ago in plan:
        created = s.now - dt.timedelta(days=days_ago)
        s.create(
            Invite,
            code="".join(s.rng.choice(_CODE_CHARS) for _ in range(8)),
            guild_id=guild.id,
            channel_id=landing.id,
            created_by=owner.email,
            max_age=max_age,
            max_uses=max_uses,
            uses=uses,
            expires_at=created + dt.timedelta(seconds=max_age) if max_age else None,
            created_at=created,
        )


def _seed_webhooks(
    s: SeedContext,
    community: Guild,
    c_chans: dict[str, Channel],
    partners: Guild,
    p_chans: dict[str, Channel],
    c_mems: list[Member],
    p_mems: list[Member],
) -> None:
    """Release notes and bug alerts posted by webhooks; the partners' news channel follows the announcements."""

    def token() -> str:
        return "".join(s.rng.choice(_CODE_CHARS + "-_") for _ in range(68))

    owner = c_mems[0]
    created = s.now - dt.timedelta(days=90)
    notes = s.create(
        Webhook,
        guild_id=community.id,
        channel_id=c_chans["announcements"].id,
        name="Release Notes",
        token=token(),
        created_by=owner.email,
        created_at=created,
    )
    s.create(
        Webhook,
        guild_id=community.id,
        channel_id=c_chans["bug-reports"].id,
        name="Status Alerts",
        token=token(),
        created_by=owner.email,
        created_at=created,
    )
    s.create(
        Webhook,
        guild_id=community.id,
        channel_id=c_chans["help"].id,
        name="Helpdesk Bridge",
        token=token(),
        created_by=owner.email,
        created_at=created,
    )
    follower = s.create(
        Webhook,
        guild_id=partners.id,
        channel_id=p_chans["partner-news"].id,
        type="channel_follower",
        name=f"{community.name} #announcements",
        source_channel_id=c_chans["announcements"].id,
        created_by=p_mems[0].email,
        created_at=created,
    )
    s.create(
        Message,
        guild_id=community.id,
        channel_id=c_chans["announcements"].id,
        author_name=notes.name,
        content="Release 4.0.3: fixes for calendar sync and CSV import.",
        webhook_id=notes.id,
        timestamp=s.now - dt.timedelta(days=2),
    )
    for msg in s.records(Message):
        if msg.channel_id == c_chans["announcements"].id and msg.crossposted:
            s.create(
                Message,
                guild_id=partners.id,
                channel_id=p_chans["partner-news"].id,
                author_name=follower.name,
                content=msg.content,
                webhook_id=follower.id,
                referenced_message_id=msg.id,
                timestamp=msg.timestamp + dt.timedelta(minutes=1),
            )
