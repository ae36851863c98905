"""Beamcast Live: the company's live-streaming channels, streams, schedule, clips, moderators, bans and subscribers.

Modeled on the Twitch Helix API (Get Users; Get/Modify Channel Information;
Get Streams and the stream.online/offline EventSub events; Get Channel Stream
Schedule and Create/Delete Schedule Segment; Create Clip and Get Clips;
Get/Add/Remove Channel Moderator; Ban User, Unban User and Get Banned Users;
Get Broadcaster Subscriptions and the channel.subscribe EventSub event).
A channel has at most one live stream; a stream goes live once and then
offline for good. Titles are at most 140 characters and only partners set a
broadcast delay (at most 900 seconds). Schedule segments start in the future,
last 30 minutes to 23 hours and do not overlap on a channel. Clips of 5 to 60
seconds come only from a stream that is live or ended within the last 24
hours, from a point it has reached, and not from users banned on the channel.
Nobody moderates or bans the broadcaster; a banned user cannot be made a
moderator and a moderator cannot be banned; a timeout lasts 1 second to 14
days and a new timeout replaces a running one, while a permanent ban stands
until lifted. Only affiliate and partner channels have subscribers; a user has
one active subscription per channel, never to their own, and a gift never goes
to the gifter.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Language, PersonName, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "streamlive",
    title="Beamcast Live",
    category="live_streaming",
    modeled_on="Twitch Helix API (users, channel information, streams with stream.online/offline EventSub, "
    "channel stream schedule segments, clips, channel moderators, bans and timeouts, broadcaster subscriptions)",
    description="The company's live channels on a game-streaming platform: channel settings, going live and "
    "offline, the weekly schedule, viewers' clips, chat moderators, bans and timeouts, and paid subscribers.",
)

UserId = Annotated[str, IdOf("streamlive.user")]
ChannelId = Annotated[str, IdOf("streamlive.channel")]
StreamId = Annotated[str, IdOf("streamlive.stream")]
SegmentId = Annotated[str, IdOf("streamlive.schedule_segment")]
ClipId = Annotated[str, IdOf("streamlive.clip")]
ModeratorId = Annotated[str, IdOf("streamlive.moderator")]
BanId = Annotated[str, IdOf("streamlive.ban")]
SubscriptionId = Annotated[str, IdOf("streamlive.subscription")]

Login = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{4,25}$")]
"""A login name: 4-25 lower-case letters, digits or underscores."""
StreamTitle = Annotated[str, StringConstraints(min_length=1, max_length=140, strip_whitespace=True)]
"""A stream or channel title, at most 140 characters."""
CategoryName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
Reason = Annotated[str, StringConstraints(max_length=500)]
BroadcasterType = Literal["partner", "affiliate", ""]
Tier = Literal["1000", "2000", "3000"]

MAX_DELAY = 900
MAX_TIMEOUT = 1_209_600
"""Fourteen days, the longest timeout, in seconds."""
CLIP_WINDOW = dt.timedelta(hours=24)
SEGMENT_MIN = dt.timedelta(minutes=30)
SEGMENT_MAX = dt.timedelta(hours=23)
SUB_PERIOD = dt.timedelta(days=30)
TIER_PRICE = {"1000": 499, "2000": 999, "3000": 2499}
"""Monthly price of each tier, USD cents."""


class User(Created):
    """A platform account: a viewer or a broadcaster."""

    id: UserId
    login: Login
    """Login name; unique."""
    display_name: Annotated[str, StringConstraints(min_length=1, max_length=25)]
    """Display name."""
    name: PersonName
    """The account holder."""
    email: Email
    """The account's verified e-mail."""


class Channel(Record):
    """One of the company's channels and its settings."""

    id: ChannelId
    broadcaster_id: UserId
    """The account that broadcasts on it."""
    broadcaster_login: Login
    """Its login."""
    broadcaster_email: Email
    """The staff member who runs it."""
    broadcaster_type: BroadcasterType = ""
    """partner, affiliate or "" (neither: no subscriptions)."""
    title: StreamTitle
    """The title shown with streams."""
    category_name: CategoryName
    """Game or category, e.g. Just Chatting or Software and Game Development."""
    broadcaster_language: Language = "en"
    """Language of the streams."""
    delay: Annotated[int, Field(ge=0, le=MAX_DELAY)] = 0
    """Broadcast delay in seconds (partners only)."""
    is_live: bool = False
    """Whether a stream is live now."""


class Stream(Record):
    """One broadcast: live, then offline."""

    id: StreamId
    channel_id: ChannelId
    """The channel."""
    title: StreamTitle
    """Title at the start."""
    category_name: CategoryName
    """Category at the start."""
    status: Literal["live", "offline"] = "live"
    """live or offline (ended)."""
    started_at: DateTime
    """When it went live."""
    ended_at: DateTime | None = None
    """When it went offline."""
    viewer_count: int = 0
    """Viewers now (live) or at the end."""


class ScheduleSegment(Created):
    """A planned broadcast on the channel's schedule."""

    id: SegmentId
    channel_id: ChannelId
    """The channel."""
    start_time: DateTime
    """Start."""
    end_time: DateTime
    """End."""
    title: StreamTitle
    """What is planned."""
    category_name: CategoryName | None = None
    """The planned category."""


class Clip(Created):
    """A short clip cut from a stream."""

    id: ClipId
    stream_id: StreamId
    """The stream."""
    channel_id: ChannelId
    """Its channel."""
    creator_id: UserId
    """Who clipped it."""
    creator_login: Login
    """Their login."""
    title: StreamTitle
    """Clip title."""
    duration: Annotated[int, Field(ge=5, le=60)]
    """Length in seconds."""
    vod_offset: int
    """Seconds into the stream where the clip ends."""
    url: Url
    """Where it plays."""


class Moderator(Created):
    """A user who moderates a channel's chat."""

    id: ModeratorId
    channel_id: ChannelId
    """The channel."""
    user_id: UserId
    """The moderator."""
    user_login: Login
    """Their login."""


class Ban(Created):
    """A ban or timeout of a user in a channel's chat."""

    id: BanId
    channel_id: ChannelId
    """The channel."""
    user_id: UserId
    """The banned user."""
    user_login: Login
    """Their login."""
    moderator_id: UserId
    """Who banned them (the broadcaster or a moderator)."""
    reason: Reason = ""
    """Why."""
    expires_at: DateTime | None = None
    """When a timeout ends (None: a permanent ban)."""
    status: Literal["active", "lifted"] = "active"
    """active or lifted (unbanned)."""


class Subscription(Created):
    """A paid subscription of a user to a channel."""

    id: SubscriptionId
    channel_id: ChannelId
    """The channel."""
    user_id: UserId
    """The subscriber."""
    user_login: Login
    """Their login."""
    user_email: Email
    """Their e-mail."""
    tier: Tier
    """1000, 2000 or 3000 (tiers 1-3)."""
    price_cents: int
    """Monthly price, USD cents."""
    is_gift: bool = False
    """Whether someone else paid for it."""
    gifter_id: UserId | None = None
    """Who gifted it."""
    ends_at: DateTime
    """When the paid period ends."""


# -- guards -----------------------------------------------------------------------------------


def _guard_channel(ctx: Ctx, new: Any, old: Any) -> None:
    if new.delay and new.broadcaster_type != "partner":
        raise RuleViolation(
            f"only partners set a broadcast delay; {new.broadcaster_login} is {new.broadcaster_type or 'neither'}",
            field="delay",
            hint="leave the delay at 0",
        )


def _guard_remove_moderator(ctx: Ctx, new: Any, old: Any) -> None:
    channel = ctx.get(Channel, old.channel_id)
    if channel.is_live and len(ctx.where(Moderator, channel_id=old.channel_id)) == 1:
        raise RuleViolation(
            f"{old.user_login} is the only moderator of a live channel",
            field="moderator_id",
            hint="add another moderator first, or wait until the stream ends",
        )


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="u",
    create=False,
    get=False,
    filters=("login", "email"),
    search=("display_name", "name"),
    delete=False,
)
channels = service.resource(
    Channel,
    name="channel",
    plural="channels",
    prefix="ch",
    create=False,
    get=False,
    filters=("broadcaster_login", "broadcaster_type", "is_live"),
    search=("title", "category_name"),
    update=("title", "category_name", "broadcaster_language", "delay"),
    delete=False,
    guard_update=_guard_channel,
)
streams = service.resource(
    Stream,
    name="stream",
    plural="streams",
    prefix="st",
    create=False,
    get=False,
    filters=("channel_id", "status"),
    delete=False,
)
segments = service.resource(
    ScheduleSegment,
    name="schedule_segment",
    plural="schedule_segments",
    prefix="seg",
    create=False,
    get=False,
    filters=("channel_id",),
    search=("title",),
    delete=False,
)
clips = service.resource(
    Clip,
    name="clip",
    plural="clips",
    prefix="clip",
    create=False,
    get=False,
    filters=("channel_id", "stream_id", "creator_id"),
    search=("title",),
    delete=False,
)
moderators = service.resource(
    Moderator,
    name="moderator",
    plural="moderators",
    prefix="mod",
    create=False,
    get=False,
    filters=("channel_id", "user_id"),
    delete=True,
    guard_delete=_guard_remove_moderator,
)
bans = service.resource(
    Ban,
    name="ban",
    plural="bans",
    prefix="ban",
    create=False,
    get=False,
    filters=("channel_id", "user_id", "status"),
    delete=False,
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    get=False,
    filters=("channel_id", "user_id", "tier", "is_gift"),
    delete=False,
)


# -- rules ------------------------------------------------------------------------------------


def _active_ban(ctx: Ctx, channel_id: str, user_id: str) -> Ban | None:
    for ban in ctx.where(Ban, channel_id=channel_id, user_id=user_id, status="active"):
        if ban.expires_at is None or ban.expires_at > ctx.now():
            return ban
    return None


def _active_sub(ctx: Ctx, channel_id: str, user_id: str) -> Subscription | None:
    return next(
        (s for s in ctx.where(Subscription, channel_id=channel_id, user_id=user_id) if s.ends_at > ctx.now()), None
    )


def _clippable(ctx: Ctx, stream: Stream) -> bool:
    return stream.status == "live" or (stream.ended_at is not None and ctx.now() - stream.ended_at <= CLIP_WINDOW)


def _stream_length(ctx: Ctx, stream: Stream) -> int:
    return int(((stream.ended_at or ctx.now()) - stream.started_at).total_seconds())


def _broadcaster_or_mod(ctx: Ctx, channel: Channel, user_id: str) -> bool:
    return user_id == channel.broadcaster_id or ctx.first(Moderator, channel_id=channel.id, user_id=user_id) is not None


# -- examples ---------------------------------------------------------------------------------


def _viewer_for(ctx: Ctx, channel: Channel, free: Callable[[Ctx, Channel, User], bool]) -> User | None:
    broadcasters = {c.broadcaster_id for c in ctx.scan(Channel)}
    return next((u for u in ctx.scan(User) if u.id not in broadcasters and free(ctx, channel, u)), None)


def _unbanned(ctx: Ctx, channel: Channel, user: User) -> bool:
    return _active_ban(ctx, channel.id, user.id) is None


def _plain_viewer(ctx: Ctx, channel: Channel, user: User) -> bool:
    return _unbanned(ctx, channel, user) and not _broadcaster_or_mod(ctx, channel, user.id)


def _unsubscribed(ctx: Ctx, channel: Channel, user: User) -> bool:
    return _active_sub(ctx, channel.id, user.id) is None


def _example_segment(ctx: Ctx) -> dict[str, Any] | None:
    channel = ctx.first(Channel, broadcaster_type="partner")
    if channel is None:
        return None
    start = ctx.now().replace(minute=0, second=0, microsecond=0) + dt.timedelta(days=40)
    return {
        "channel_id": channel.id,
        "start_time": start.isoformat(),
        "duration_minutes": 120,
        "title": "Community game night",
        "category_name": "Just Chatting",
    }


def _example_clip(ctx: Ctx) -> dict[str, Any] | None:
    for stream in ctx.where(Stream, status="live"):
        channel = ctx.get(Channel, stream.channel_id)
        viewer = _viewer_for(ctx, channel, _unbanned)
        if viewer is not None:
            return {"stream_id": stream.id, "creator_id": viewer.id, "title": "What a play", "duration": 30}
    return None


def _example_mod(ctx: Ctx) -> dict[str, Any] | None:
    for channel in ctx.scan(Channel):
        viewer = _viewer_for(ctx, channel, _plain_viewer)
        if viewer is not None:
            return {"channel_id": channel.id, "user_id": viewer.id}
    return None


def _example_ban(ctx: Ctx) -> dict[str, Any] | None:
    for channel in ctx.scan(Channel):
        viewer = _viewer_for(ctx, channel, _plain_viewer)
        if viewer is not None:
            return {
                "channel_id": channel.id,
                "user_id": viewer.id,
                "moderator_id": channel.broadcaster_id,
                "reason": "Spam links",
                "duration": 600,
            }
    return None


def _example_unban(ctx: Ctx) -> dict[str, Any] | None:
    for ban in ctx.where(Ban, status="active"):
        if _active_ban(ctx, ban.channel_id, ban.user_id) is not None:
            channel = ctx.get(Channel, ban.channel_id)
            return {"channel_id": ban.channel_id, "user_id": ban.user_id, "moderator_id": channel.broadcaster_id}
    return None


def _example_sub(ctx: Ctx) -> dict[str, Any] | None:
    channel = ctx.first(Channel, broadcaster_type="partner")
    if channel is None:
        return None
    viewer = _viewer_for(ctx, channel, _unsubscribed)
    return None if viewer is None else {"channel_id": channel.id, "user_id": viewer.id, "tier": "1000"}


# -- streams ----------------------------------------------------------------------------------


@service.tool(
    intent="go live on the channel",
    write=True,
    example=first_example(Channel, "channel_id", where={"is_live": False}),
)
def start_stream(ctx: Ctx, channel_id: ChannelId) -> Stream:
    """Go live (the stream.online event) with the channel's current title and category.

    Args:
        channel_id: The channel.
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    if channel.is_live:
        raise Conflict(f"{channel.broadcaster_login} is already live", field="channel_id", hint="end that stream first")
    ctx.update(channel, is_live=True)
    return ctx.create(
        Stream,
        channel_id=channel.id,
        title=channel.title,
        category_name=channel.category_name,
        started_at=ctx.now(),
    )


@service.tool(
    intent="end the live stream",
    write=True,
    example=first_example(Stream, "stream_id", where={"status": "live"}),
)
def end_stream(ctx: Ctx, stream_id: StreamId) -> Stream:
    """Go offline (the stream.offline event); an ended stream cannot go live again.

    Args:
        stream_id: The live stream.
    """
    stream = ctx.get(Stream, stream_id, field="stream_id")
    if stream.status != "live":
        raise Conflict(f"the stream ended at {stream.ended_at}", field="stream_id", hint="start a new stream")
    ctx.update(ctx.get(Channel, stream.channel_id), is_live=False)
    return ctx.update(stream, status="offline", ended_at=ctx.now())


@service.tool(intent="add a segment to the stream schedule", write=True, example=_example_segment)
def create_schedule_segment(
    ctx: Ctx,
    channel_id: ChannelId,
    start_time: DateTime,
    duration_minutes: Annotated[int, Field(ge=30, le=1380)],
    title: StreamTitle,
    category_name: CategoryName | None = None,
) -> ScheduleSegment:
    """Plan a broadcast: it starts in the future, lasts 30-1380 minutes and overlaps no other segment of the channel.

    Args:
        channel_id: The channel.
        start_time: Start (RFC 3339).
        duration_minutes: Length in minutes (30-1380).
        title: What is planned.
        category_name: The planned category.
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    if start_time <= ctx.now():
        raise RuleViolation("a segment starts in the future", field="start_time", hint="pick a later start")
    end = start_time + dt.timedelta(minutes=duration_minutes)
    for seg in ctx.where(ScheduleSegment, channel_id=channel.id):
        if seg.start_time < end and start_time < seg.end_time:
            raise Conflict(
                f"the segment overlaps '{seg.title}' ({seg.start_time} to {seg.end_time})",
                field="start_time",
                hint="pick a time outside the channel's other segments",
            )
    return ctx.create(
        ScheduleSegment,
        channel_id=channel.id,
        start_time=start_time,
        end_time=end,
        title=title,
        category_name=category_name,
    )


@service.tool(intent="clip the stream", write=True, example=_example_clip)
def create_clip(
    ctx: Ctx,
    stream_id: StreamId,
    creator_id: UserId,
    title: StreamTitle,
    duration: Annotated[int, Field(ge=5, le=60)] = 30,
    vod_offset: Annotated[int, Field(ge=5)] | None = None,
) -> Clip:
    """Clip a live stream or one that ended within 24 hours; banned users cannot clip.

    Args:
        stream_id: The stream.
        creator_id: Who clips.
        title: Clip title.
        duration: Length in seconds (5-60).
        vod_offset: Seconds into the stream where the clip ends (default: now, or the stream's end).
    """
    stream = ctx.get(Stream, stream_id, field="stream_id")
    creator = ctx.get(User, creator_id, field="creator_id")
    if not _clippable(ctx, stream):
        raise RuleViolation(
            f"the stream ended at {stream.ended_at}; clips come from live streams or ones ended within 24 hours",
            field="stream_id",
            hint="clip a live or recent stream",
        )
    if _active_ban(ctx, stream.channel_id, creator.id) is not None:
        raise RuleViolation(
            f"{creator.login} is banned from the channel", field="creator_id", hint="banned users cannot clip"
        )
    length = _stream_length(ctx, stream)
    offset = length if vod_offset is None else vod_offset
    if offset > length or offset < duration:
        raise RuleViolation(
            f"the stream is {length} seconds long; the clip must end between {duration} and {length} seconds in",
            field="vod_offset",
            hint="pick a point the stream has reached",
        )
    made = ctx.create(
        Clip,
        stream_id=stream.id,
        channel_id=stream.channel_id,
        creator_id=creator.id,
        creator_login=creator.login,
        title=title,
        duration=duration,
        vod_offset=offset,
        url="https://clips.beamcast.tv/pending",
    )
    return ctx.update(made, url=f"https://clips.beamcast.tv/{made.id}")


# -- moderation -------------------------------------------------------------------------------


@service.tool(intent="make the user a moderator of the channel", write=True, example=_example_mod)
def add_moderator(ctx: Ctx, channel_id: ChannelId, user_id: UserId) -> Moderator:
    """Make a user a moderator; not the broadcaster, nobody banned, nobody twice.

    Args:
        channel_id: The channel.
        user_id: The user.
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    user = ctx.get(User, user_id, field="user_id")
    if user.id == channel.broadcaster_id:
        raise RuleViolation("the broadcaster cannot be their own moderator", field="user_id", hint="pick a viewer")
    if _active_ban(ctx, channel.id, user.id) is not None:
        raise RuleViolation(
            f"{user.login} is banned from the channel", field="user_id", hint="unban them with streamlive__unban_user"
        )
    if ctx.first(Moderator, channel_id=channel.id, user_id=user.id) is not None:
        raise Conflict(f"{user.login} is already a moderator", field="user_id", hint="nothing to do")
    return ctx.create(Moderator, channel_id=channel.id, user_id=user.id, user_login=user.login)


@service.tool(intent="ban the user from the channel's chat", write=True, example=_example_ban)
def ban_user(
    ctx: Ctx,
    channel_id: ChannelId,
    user_id: UserId,
    moderator_id: UserId,
    reason: Reason = "",
    duration: Annotated[int, Field(ge=1, le=MAX_TIMEOUT)] | None = None,
) -> Ban:
    """Ban a user, or time them out for ``duration`` seconds (1 second to 14 days).

    The moderator must be the broadcaster or a moderator; the broadcaster and
    moderators cannot be banned. A new timeout replaces a running one; a user
    already banned for good stays banned.

    Args:
        channel_id: The channel.
        user_id: The user to ban.
        moderator_id: Who bans (the broadcaster or a moderator).
        reason: Why.
        duration: Timeout in seconds; omit for a permanent ban.
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    user = ctx.get(User, user_id, field="user_id")
    ctx.get(User, moderator_id, field="moderator_id")
    if not _broadcaster_or_mod(ctx, channel, moderator_id):
        raise RuleViolation(
            "only the broadcaster or a moderator bans", field="moderator_id", hint="act as the broadcaster"
        )
    if _broadcaster_or_mod(ctx, channel, user.id):
        raise RuleViolation(
            f"{user.login} is the broadcaster or a moderator and may not be banned",
            field="user_id",
            hint="remove them as moderator first",
        )
    current = _active_ban(ctx, channel.id, user.id)
    if current is not None and current.expires_at is None:
        raise Conflict(f"{user.login} is already banned", field="user_id", hint="nothing to do")
    if current is not None:
        ctx.update(current, status="lifted")
    expires = None if duration is None else ctx.now() + dt.timedelta(seconds=duration)
    return ctx.create(
        Ban,
        channel_id=channel.id,
        user_id=user.id,
        user_login=user.login,
        moderator_id=moderator_id,
        reason=reason,
        expires_at=expires,
    )


@service.tool(intent="unban the user", write=True, example=_example_unban)
def unban_user(ctx: Ctx, channel_id: ChannelId, user_id: UserId, moderator_id: UserId) -> Ban:
    """Lift a user's ban or running timeout.

    Args:
        channel_id: The channel.
        user_id: The banned user.
        moderator_id: Who lifts it (the broadcaster or a moderator).
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    ctx.get(User, user_id, field="user_id")
    ctx.get(User, moderator_id, field="moderator_id")
    if not _broadcaster_or_mod(ctx, channel, moderator_id):
        raise RuleViolation(
            "only the broadcaster or a moderator unbans", field="moderator_id", hint="act as the broadcaster"
        )
    ban = _active_ban(ctx, channel.id, user_id)
    if ban is None:
        raise RuleViolation("the user is not banned", field="user_id", hint="nothing to lift")
    return ctx.update(ban, status="lifted")


# -- subscriptions ----------------------------------------------------------------------------


@service.tool(intent="subscribe the user to the channel", write=True, example=_example_sub)
def create_subscription(
    ctx: Ctx, channel_id: ChannelId, user_id: UserId, tier: Tier = "1000", gifter_id: UserId | None = None
) -> Subscription:
    """Record a new (or gifted) subscription for 30 days (the channel.subscribe event).

    Args:
        channel_id: An affiliate or partner channel.
        user_id: The subscriber.
        tier: 1000, 2000 or 3000.
        gifter_id: Who gifts it, if someone else pays.
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    user = ctx.get(User, user_id, field="user_id")
    if not channel.broadcaster_type:
        raise RuleViolation(
            f"{channel.broadcaster_login} is neither affiliate nor partner",
            field="channel_id",
            hint="only affiliate and partner channels have subscriptions",
        )
    if user.id == channel.broadcaster_id:
        raise RuleViolation(
            "a broadcaster cannot subscribe to their own channel", field="user_id", hint="pick a viewer"
        )
    if gifter_id is not None:
        ctx.get(User, gifter_id, field="gifter_id")
        if gifter_id == user.id:
            raise RuleViolation("a gift goes to someone else", field="gifter_id", hint="leave gifter_id empty")
    current = _active_sub(ctx, channel.id, user.id)
    if current is not None:
        raise Conflict(
            f"{user.login} is subscribed until {current.ends_at}", field="user_id", hint="one active subscription"
        )
    return ctx.create(
        Subscription,
        channel_id=channel.id,
        user_id=user.id,
        user_login=user.login,
        user_email=user.email,
        tier=tier,
        price_cents=TIER_PRICE[tier],
        is_gift=gifter_id is not None,
        gifter_id=gifter_id,
        ends_at=ctx.now() + SUB_PERIOD,
    )


# -- seed -------------------------------------------------------------------------------------

CHANNELS: tuple[tuple[str, BroadcasterType, str, str], ...] = (
    ("official", "partner", "Launch week live: new features and Q&A", "Science & Technology"),
    ("devstream", "affiliate", "Building the API live, bring questions", "Software and Game Development"),
    ("support", "", "Office hours with the support team", "Just Chatting"),
)


def _login(name: str, taken: set[str]) -> str:
    base = fold(name).replace(" ", "_")[:20] or "user"
    base = base if len(base) >= 4 else f"{base}_tv"
    login, n = base, 1
    while login in taken:
        n += 1
        login = f"{base}{n}"
    taken.add(login)
    return login


@service.seeder
def seed(s: SeedContext) -> None:
    """Three company channels run by staff, viewers from the population, streams, schedule, clips, moderation, subs."""
    pop = s.population
    taken: set[str] = set()
    hosts = pop.staff("Marketing", "Engineering", "Support", fallback=3)[:3]
    home = fold(pop.home.name).replace(" ", "")[:12]
    chans: list[Channel] = []
    for k, (suffix, kind, title, category) in enumerate(CHANNELS):
        host = hosts[k % len(hosts)]
        login = _login(f"{home}_{suffix}", taken)
        account = s.create(
            User,
            login=login,
            display_name=login[:25],
            name=host.name,
            email=host.email,
            created_at=s.now - dt.timedelta(days=900 - 100 * k),
        )
        chans.append(
            s.create(
                Channel,
                broadcaster_id=account.id,
                broadcaster_login=login,
                broadcaster_email=host.email,
                broadcaster_type=kind,
                title=title,
                category_name=category,
                delay=30 if kind == "partner" else 0,
            )
        )
    viewers = [
        s.create(
            User,
            login=(login := _login(p.first_name + " " + p.last_name, taken)),
            display_name=login[:25],
            name=p.name,
            email=p.email,
            created_at=s.now - dt.timedelta(days=600 - 11 * k),
        )
        for k, p in enumerate(pop.consumers[:30])
    ]
    _seed_streams(s, chans, viewers)
    _seed_moderation(s, chans, viewers)


def _seed_streams(s: SeedContext, chans: list[Channel], viewers: list[User]) -> None:
    """The official channel is live; each channel has a recent and an old stream, clips and a schedule."""
    for k, channel in enumerate(chans):
        plan = [(-26 * 24 - 3 * k, 3), (-5 - k, 2)] + ([(-2, None)] if k == 0 else [])
        for n, (hours, length) in enumerate(plan):
            start = s.now + dt.timedelta(hours=hours)
            stream = s.create(
                Stream,
                channel_id=channel.id,
                title=channel.title,
                category_name=channel.category_name,
                status="offline" if length else "live",
                started_at=start,
                ended_at=start + dt.timedelta(hours=length) if length else None,
                viewer_count=120 * (3 - k) + 17 * n,
            )
            for j in range(2):
                v = viewers[(4 * k + 2 * n + j) % len(viewers)]
                s.create(
                    Clip,
                    stream_id=stream.id,
                    channel_id=channel.id,
                    creator_id=v.id,
                    creator_login=v.login,
                    title=("Clutch moment", "Live demo fail", "Big announcement")[(k + n + j) % 3],
                    duration=30,
                    vod_offset=1800 + 600 * j,
                    url=f"https://clips.beamcast.tv/seed-{k}-{n}-{j}",
                    created_at=start + dt.timedelta(minutes=30 + 10 * j),
                )
        if k == 0:
            s.update(channel, is_live=True)
        for d in range(3):
            start = (s.now + dt.timedelta(days=2 + 7 * d)).replace(hour=18 + k, minute=0, second=0, microsecond=0)
            s.create(
                ScheduleSegment,
                channel_id=channel.id,
                start_time=start,
                end_time=start + dt.timedelta(hours=2),
                title=f"{channel.title[:100]} (week {d + 1})",
                category_name=channel.category_name,
                created_at=s.now - dt.timedelta(days=3),
            )


def _seed_moderation(s: SeedContext, chans: list[Channel], viewers: list[User]) -> None:
    """Two moderators per channel, a permanent ban, a running timeout and an expired one; subscribers."""
    for k, channel in enumerate(chans):
        mods = [viewers[k], viewers[k + 3]]
        for v in mods:
            s.create(
                Moderator,
                channel_id=channel.id,
                user_id=v.id,
                user_login=v.login,
                created_at=s.now - dt.timedelta(days=90),
            )
        for n, (offset, expires) in enumerate(((-40, None), (-0.5, 1.0), (-72, -71))):
            v = viewers[10 + 3 * k + n]
            when = s.now + dt.timedelta(hours=offset)
            s.create(
                Ban,
                channel_id=channel.id,
                user_id=v.id,
                user_login=v.login,
                moderator_id=mods[n % 2].id,
                reason=("Spam links", "Harassment in chat", "Spoilers")[n],
                expires_at=None if expires is None else s.now + dt.timedelta(hours=expires),
                created_at=when,
            )
        if not channel.broadcaster_type:
            continue
        for n in range(8):
            v = viewers[(20 + 2 * k + n) % len(viewers)]
            tier: Tier = ("1000", "1000", "2000", "1000", "3000", "1000", "1000", "2000")[n]
            started = s.now - dt.timedelta(days=3 * n + 2 * k + (25 if n == 7 else 0))
            gifter = viewers[(20 + 2 * k + n + 1) % len(viewers)] if n == 5 else None
            s.create(
                Subscription,
                channel_id=channel.id,
                user_id=v.id,
                user_login=v.login,
                user_email=v.email,
                tier=tier,
                price_cents=TIER_PRICE[tier],
                is_gift=gifter is not None,
                gifter_id=gifter.id if gifter else None,
                ends_at=started + SUB_PERIOD,
                created_at=started,
            )
