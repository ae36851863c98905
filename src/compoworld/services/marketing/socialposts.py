"""Postwise: the home company's social media publishing, with channels, posting queues and approvals.

Modeled on the Buffer Publish API (Profiles with posting schedules, Updates
created, ``share``d now, scheduled or added to the queue, ``interactions``
statistics) and Hootsuite's Publishing API (message review: posts by
contributors wait for approval): each network has its own length limit (on X
a link counts as 23 characters), Instagram posts need an image, a channel must
be connected to take posts, two posts of one channel never share a minute,
contributors' posts are approved or rejected by an admin or editor who is not
the author, and a sent post is final.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    FileLink,
    IdOf,
    Percent,
    PersonName,
    Quantity,
    Text,
    Timezone,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "socialposts",
    title="Postwise",
    category="social_media",
    modeled_on="Buffer Publish API (Profiles, posting schedules, Updates: create, share now, schedule, queue, "
    "interactions) with Hootsuite Publishing message review",
    description="Social media publishing for the home company's brand accounts on X, LinkedIn, Facebook, "
    "Instagram and Mastodon: drafts, posting queues and scheduled times, approval of contributors' posts, "
    "publishing and per-post engagement statistics.",
)

ChannelId = Annotated[str, IdOf("socialposts.channel")]
MemberId = Annotated[str, IdOf("socialposts.member")]
PostId = Annotated[str, IdOf("socialposts.post")]
Network = Literal["x", "linkedin", "facebook", "instagram", "mastodon"]
PostStatus = Literal["draft", "pending_approval", "scheduled", "sent", "failed", "rejected"]
Role = Literal["admin", "editor", "contributor"]
SlotTime = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
WEEKDAYS: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
Handle = Annotated[str, StringConstraints(pattern=r"^@?[A-Za-z0-9_.]{2,30}$")]
MediaList = Annotated[list[FileLink], Field(max_length=10)]

LIMITS: dict[str, int] = {"x": 280, "linkedin": 3000, "facebook": 63206, "instagram": 2200, "mastodon": 500}
MAX_MEDIA: dict[str, int] = {"x": 4, "linkedin": 9, "facebook": 10, "instagram": 10, "mastodon": 4}
X_LINK_LENGTH = 23
URL_RE = re.compile(r"https?://\S+")
EDITABLE: tuple[str, ...] = ("draft", "pending_approval", "scheduled", "rejected", "failed")
POST_BASE = {
    "x": "https://x.com/{handle}/status/{n}",
    "linkedin": "https://www.linkedin.com/feed/update/urn:li:activity:{n}",
    "facebook": "https://www.facebook.com/{handle}/posts/{n}",
    "instagram": "https://www.instagram.com/p/C{n}",
    "mastodon": "https://mastodon.social/@{handle}/{n}",
}


class Channel(Record):
    """A connected social account (profile) the team posts to, with its posting schedule."""

    id: ChannelId
    network: Network
    """The social network."""
    handle: Handle
    """Account handle on the network."""
    display_name: CompanyName
    """Name the account posts as."""
    status: Literal["connected", "disconnected"] = "connected"
    """Disconnected channels (expired authorisation) take no new posts until reconnected."""
    timezone: Timezone = "UTC"
    """Time zone the team thinks of the schedule in."""
    posting_times: tuple[SlotTime, ...] = ("09:00", "13:00", "17:00")
    """Queue slots each posting day, HH:MM in UTC."""
    posting_days: tuple[Weekday, ...] = ("mon", "tue", "wed", "thu", "fri")
    """Days the queue posts on."""
    followers: Quantity = 0
    """Followers of the account."""


class Member(Record):
    """A member of the social team and what they may do."""

    id: MemberId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail address; unique."""
    role: Role = "contributor"
    """admin and editor publish and approve; a contributor's posts need approval."""


class Post(Timestamped):
    """A social post (update) for one channel, from draft to sent."""

    id: PostId
    channel_id: ChannelId
    """The channel it goes to."""
    text: Text
    """The post's text."""
    link: Url | None = None
    """Link shared with the post (counted in the text length on X)."""
    media: tuple[FileLink, ...] = ()
    """Links to attached images or videos."""
    author_email: Email
    """E-mail of the team member who wrote it."""
    status: PostStatus = "draft"
    """draft, pending_approval, scheduled, sent (final), failed or rejected."""
    scheduled_at: DateTime | None = None
    """When it is (or was to be) published."""
    approver_email: Email | None = None
    """Who approved or rejected it."""
    rejection_reason: Text | None = None
    """Why it was rejected."""
    sent_at: DateTime | None = None
    """When it was published."""
    post_url: Url | None = None
    """Link to the published post on the network."""
    impressions: Quantity = 0
    """Times it was seen (sent posts)."""
    likes: Quantity = 0
    """Likes or reactions."""
    comments: Quantity = 0
    """Comments or replies."""
    shares: Quantity = 0
    """Reposts or shares."""
    clicks: Quantity = 0
    """Link clicks."""


# -- rules ------------------------------------------------------------------------------------


def _length(network: str, text: str, link: str | None) -> int:
    if network != "x":
        return len(text) + (len(link) + 1 if link and link not in text else 0)
    counted = URL_RE.sub("x" * X_LINK_LENGTH, text)
    if link and link not in text:
        counted += " " + "x" * X_LINK_LENGTH
    return len(counted)


def _content_problem(network: str, text: str, link: str | None, media: tuple[str, ...]) -> tuple[str, str] | None:
    """(field, message) of the first way a post breaks its network's rules, or None."""
    n = _length(network, text, link)
    if n > LIMITS[network]:
        return "text", f"the post is {n} characters; {network} allows {LIMITS[network]}"
    if not text.strip() and not media:
        return "text", "a post needs text or media"
    if network == "instagram" and not media:
        return "media", "Instagram posts need at least one image or video"
    if len(media) > MAX_MEDIA[network]:
        return "media", f"{network} takes at most {MAX_MEDIA[network]} attachments, not {len(media)}"
    return None


def _check_content(network: str, text: str, link: str | None, media: tuple[str, ...]) -> None:
    problem = _content_problem(network, text, link, media)
    if problem is not None:
        field, msg = problem
        raise RuleViolation(msg, field=field, hint="shorten the text, or fix the attachments for this network")


def _member(ctx: Ctx, email: str, field: str) -> Member:
    found = ctx.first(Member, email=email)
    if found is None:
        raise NotFound(
            f"{email} is not a member of the social team",
            field=field,
            hint="use the e-mail of a team member (socialposts__list_members)",
        )
    return found


def _connected(ctx: Ctx, channel_id: str, field: str) -> Channel:
    channel = ctx.get(Channel, channel_id, field=field)
    if channel.status != "connected":
        raise RuleViolation(
            f"channel {channel.network}:{channel.handle} is disconnected",
            field=field,
            hint="reconnect it with socialposts__reconnect_channel first",
        )
    return channel


def _guard_post(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _member(ctx, new.author_email, "author_email")
        _connected(ctx, new.channel_id, "channel_id")
    elif old.status not in EDITABLE:
        raise RuleViolation(
            f"post {old.id} was {old.status} and is final", field="post_id", hint="create a new post instead"
        )
    channel = ctx.get(Channel, new.channel_id)
    _check_content(channel.network, new.text, new.link, new.media)


def _guard_post_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "sent":
        raise RuleViolation(
            f"post {old.id} was published and cannot be deleted here",
            field="post_id",
            hint="delete it on the network itself; sent posts stay for analytics",
        )


def _guard_channel(ctx: Ctx, new: Any, old: Any) -> None:
    if not new.posting_times or not new.posting_days:
        raise RuleViolation(
            "a posting schedule needs at least one time and one day",
            field="posting_times" if not new.posting_times else "posting_days",
            hint="give times like '09:00' and days like 'mon'",
        )
    if len(set(new.posting_times)) != len(new.posting_times):
        raise RuleViolation("posting times repeat", field="posting_times", hint="list each time once")


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    if old.role == "admin" and new.role != "admin" and not any(m.id != old.id for m in ctx.where(Member, role="admin")):
        raise RuleViolation(
            f"{old.name} is the team's last admin", field="role", hint="make another member admin first"
        )


channels = service.resource(
    Channel,
    name="channel",
    plural="channels",
    prefix="ch",
    create=False,
    filters=("network", "status"),
    search=("handle", "display_name"),
    update=("timezone", "posting_times", "posting_days"),
    delete=False,
    transitions={
        "reconnect": Transition("status", ("disconnected",), "connected", "reconnect the social channel"),
    },
    guard_update=_guard_channel,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=("name", "email", "role"),
    get=False,
    filters=("email", "role"),
    search=("name", "email"),
    update=("name", "role"),
    delete=False,
    unique=("email",),
    guard_update=_guard_member,
    title="team member",
)
posts = service.resource(
    Post,
    name="post",
    plural="posts",
    prefix="post",
    create=("channel_id", "text", "link", "media", "author_email"),
    filters=("channel_id", "status", "author_email", "approver_email"),
    search=("text",),
    update=("text", "link", "media"),
    guard_create=_guard_post,
    guard_update=_guard_post,
    guard_delete=_guard_post_delete,
)


# -- scheduling -------------------------------------------------------------------------------


def _taken(ctx: Ctx, channel_id: str, except_id: str | None = None) -> set[dt.datetime]:
    return {
        p.scheduled_at.replace(second=0, microsecond=0)
        for p in ctx.where(Post, channel_id=channel_id)
        if p.scheduled_at is not None and p.status in ("scheduled", "pending_approval") and p.id != except_id
    }


def _slots(channel: Channel, after: dt.datetime, n: int, taken: set[dt.datetime]) -> list[dt.datetime]:
    out: list[dt.datetime] = []
    day = after.date()
    for _ in range(60):
        if WEEKDAYS[day.weekday()] in channel.posting_days:
            for t in sorted(channel.posting_times):
                hh, mm = (int(x) for x in t.split(":"))
                when = utc_at(day, hh, mm)
                if when > after and when not in taken:
                    out.append(when)
                    if len(out) == n:
                        return out
        day += dt.timedelta(days=1)
    return out


def _place(ctx: Ctx, post: Post, when: dt.datetime) -> Post:
    """Schedule the post at ``when``, or put it up for approval when its author is a contributor."""
    author = _member(ctx, post.author_email, "post_id")
    status: PostStatus = "pending_approval" if author.role == "contributor" else "scheduled"
    return ctx.update(post, status=status, scheduled_at=when, approver_email=None, rejection_reason=None)


def _schedulable(ctx: Ctx, post_id: str) -> tuple[Post, Channel]:
    post = ctx.get(Post, post_id, field="post_id")
    if post.status in ("pending_approval", "sent"):
        hint = {
            "pending_approval": "it waits for approval (socialposts__approve_post or socialposts__reject_post)",
            "sent": "sent posts are final",
        }[post.status]
        raise RuleViolation(f"post {post.id} is {post.status}", field="post_id", hint=hint)
    channel = _connected(ctx, post.channel_id, "post_id")
    return post, channel


# -- examples ---------------------------------------------------------------------------------


_example_post = first_example(
    Post,
    "post_id",
    where={"status": "draft"},
    match=lambda ctx, p: ctx.get(Channel, p.channel_id).status == "connected",
)


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_post(ctx)
    if found is None:
        return None
    return {**found, "scheduled_at": (ctx.now() + dt.timedelta(days=3, minutes=7)).isoformat()}


def _example_decide(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Post, status="pending_approval"):
        for m in ctx.scan(Member):
            if m.role != "contributor" and m.email != post.author_email:
                return {"post_id": post.id, "approver_email": m.email}
    return None


def _example_reject(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_decide(ctx)
    return None if found is None else {**found, "reason": "Off-brand tone"}


def _example_crosspost(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Post, status="draft"):
        src = ctx.get(Channel, post.channel_id)
        for ch in ctx.where(Channel, status="connected"):
            if ch.id != src.id and _content_problem(ch.network, post.text, post.link, post.media) is None:
                return {"post_id": post.id, "channel_ids": [ch.id]}
    return None


def _example_analytics(ctx: Ctx) -> dict[str, Any] | None:
    post = ctx.first(Post, status="sent")
    if post is None:
        return None
    return {"channel_id": post.channel_id, "start_date": str(ctx.today() - dt.timedelta(days=30))}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="schedule the social post for a time", write=True, example=_example_schedule)
def schedule_post(ctx: Ctx, post_id: PostId, scheduled_at: DateTime) -> Post:
    """Schedule a draft (or reschedule a scheduled, failed or rejected post) for a future time.

    Posts by contributors go to pending_approval at that time instead; no two
    posts of a channel may be scheduled for the same minute.

    Args:
        post_id: The post.
        scheduled_at: When to publish (in the future).
    """
    post, channel = _schedulable(ctx, post_id)
    if scheduled_at <= ctx.now():
        raise RuleViolation(
            "the time is not in the future", field="scheduled_at", hint="use socialposts__share_now to post now"
        )
    minute = scheduled_at.replace(second=0, microsecond=0)
    if minute in _taken(ctx, channel.id, except_id=post.id):
        raise Conflict(
            f"channel {channel.handle} already has a post at {minute.isoformat()}",
            field="scheduled_at",
            hint="pick another minute, or socialposts__add_to_queue for the next free slot",
        )
    return _place(ctx, post, minute)


@service.tool(intent="add the social post to the channel's queue", write=True, example=_example_post)
def add_to_queue(ctx: Ctx, post_id: PostId) -> Post:
    """Schedule a draft (or a scheduled, failed or rejected post) in the next free slot of its channel's schedule.

    Posts by contributors go to pending_approval in that slot instead.

    Args:
        post_id: The draft post.
    """
    post, channel = _schedulable(ctx, post_id)
    slots = _slots(channel, ctx.now(), 1, _taken(ctx, channel.id, except_id=post.id))
    if not slots:
        raise RuleViolation(
            f"the queue of {channel.handle} has no free slot in the next 60 days",
            field="post_id",
            hint="add posting times with socialposts__update_channel, or schedule the post for a set time",
        )
    return _place(ctx, post, slots[0])


def _publish(ctx: Ctx, post: Post, channel: Channel) -> Post:
    n = 1_780_000_000_000_000_000 + ctx.next_number(Post, "published")
    url = POST_BASE[channel.network].format(handle=channel.handle.lstrip("@"), n=n)
    return ctx.update(post, status="sent", sent_at=ctx.now(), scheduled_at=post.scheduled_at or ctx.now(), post_url=url)


@service.tool(intent="publish the social post now", write=True, example=_example_post)
def share_now(ctx: Ctx, post_id: PostId) -> Post:
    """Publish a post immediately; contributors' posts must have been approved (scheduled) first.

    Args:
        post_id: A draft, scheduled or failed post.
    """
    post, channel = _schedulable(ctx, post_id)
    author = _member(ctx, post.author_email, "post_id")
    if author.role == "contributor" and post.status != "scheduled":
        raise RuleViolation(
            f"post {post.id} is by a contributor and has not been approved",
            field="post_id",
            hint="schedule or queue it so an editor can approve it, then publish",
        )
    return _publish(ctx, post, channel)


def _decide(ctx: Ctx, post_id: str, approver_email: str) -> Post:
    post = ctx.get(Post, post_id, field="post_id")
    if post.status != "pending_approval":
        raise RuleViolation(
            f"post {post.id} is {post.status}, not pending approval",
            field="post_id",
            hint="only posts waiting for approval are approved or rejected",
        )
    approver = _member(ctx, approver_email, "approver_email")
    if approver.role == "contributor":
        raise RuleViolation(
            f"{approver.name} is a contributor and cannot approve posts",
            field="approver_email",
            hint="an admin or editor approves",
        )
    if approver.email == post.author_email:
        raise RuleViolation(
            "authors cannot approve their own posts", field="approver_email", hint="ask another admin or editor"
        )
    return post


@service.tool(intent="approve the contributor's post", write=True, example=_example_decide)
def approve_post(ctx: Ctx, post_id: PostId, approver_email: Email) -> Post:
    """Approve a post waiting for approval: it is scheduled at its time, or the next free slot if that has passed.

    Args:
        post_id: The post waiting for approval.
        approver_email: E-mail of the admin or editor approving (not the author).
    """
    post = _decide(ctx, post_id, approver_email)
    channel = _connected(ctx, post.channel_id, "post_id")
    when = post.scheduled_at
    if when is None or when <= ctx.now():
        slots = _slots(channel, ctx.now(), 1, _taken(ctx, channel.id, except_id=post.id))
        if not slots:
            raise RuleViolation(
                "the channel's queue has no free slot", field="post_id", hint="add posting times to the channel"
            )
        when = slots[0]
    return ctx.update(post, status="scheduled", scheduled_at=when, approver_email=approver_email)


@service.tool(intent="reject the contributor's post", write=True, example=_example_reject)
def reject_post(ctx: Ctx, post_id: PostId, approver_email: Email, reason: Text) -> Post:
    """Reject a post waiting for approval, saying why; the author edits it and schedules it again.

    Args:
        post_id: The post waiting for approval.
        approver_email: E-mail of the admin or editor rejecting (not the author).
        reason: What the author should change.
    """
    post = _decide(ctx, post_id, approver_email)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="tell the author what to change")
    return ctx.update(post, status="rejected", approver_email=approver_email, rejection_reason=reason.strip())


@service.tool(intent="copy the post to other channels as drafts", write=True, example=_example_crosspost)
def crosspost(
    ctx: Ctx, post_id: PostId, channel_ids: Annotated[list[ChannelId], Field(min_length=1, max_length=10)]
) -> list[Post]:
    """Copy a post's text, link and media to other channels as new drafts by the same author.

    Every target must be connected and the content must fit each network's rules.

    Args:
        post_id: The post to copy.
        channel_ids: The channels to copy it to.
    """
    post = ctx.get(Post, post_id, field="post_id")
    out: list[Post] = []
    for k, cid in enumerate(dict.fromkeys(channel_ids)):
        field = f"channel_ids.{k}"
        channel = _connected(ctx, cid, field)
        if cid == post.channel_id:
            raise RuleViolation("a post is not copied to its own channel", field=field, hint="pick other channels")
        problem = _content_problem(channel.network, post.text, post.link, post.media)
        if problem is not None:
            raise RuleViolation(
                f"cannot copy to {channel.network}: {problem[1]}",
                field=field,
                hint="edit the copy after crossposting to the other channels, or leave this one out",
            )
        out.append(
            ctx.create(
                Post,
                channel_id=cid,
                text=post.text,
                link=post.link,
                media=post.media,
                author_email=post.author_email,
            )
        )
    return out


class Queue(BaseModel):
    """A channel's upcoming posts and free queue slots."""

    channel_id: ChannelId = Field(description="The channel.")
    upcoming: list[Post] = Field(description="Scheduled and pending posts, soonest first.")
    next_free_slots: list[DateTime] = Field(description="The next five free slots of the posting schedule.")


@service.tool(intent="show the channel's posting queue")
def channel_queue(ctx: Ctx, channel_id: ChannelId) -> Queue:
    """List a channel's scheduled and pending posts and its next free queue slots.

    Args:
        channel_id: The channel.
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    now = ctx.now()
    upcoming = [
        p
        for p in ctx.where(Post, channel_id=channel.id)
        if p.status in ("scheduled", "pending_approval") and p.scheduled_at is not None and p.scheduled_at > now
    ]
    upcoming.sort(key=lambda p: (p.scheduled_at or now, p.id))
    return Queue(
        channel_id=channel.id, upcoming=upcoming, next_free_slots=_slots(channel, now, 5, _taken(ctx, channel.id))
    )


class ChannelStats(BaseModel):
    """Engagement of a channel's posts sent in a period."""

    channel_id: ChannelId = Field(description="The channel.")
    posts_sent: int = Field(description="Posts sent in the period.")
    impressions: int = Field(description="Their impressions.")
    engagements: int = Field(description="Their likes, comments, shares and clicks together.")
    engagement_rate: Percent = Field(description="Engagements per impression, in percent.")
    top_post_id: PostId | None = Field(description="The post with the most engagements.")
    top_post_url: Url | None = Field(description="Its link on the network.")


@service.tool(intent="report the channel's engagement", example=_example_analytics)
def channel_analytics(
    ctx: Ctx,
    channel_id: ChannelId,
    start_date: Date,
    end_date: Date | None = None,
) -> ChannelStats:
    """Sum the engagement of a channel's posts sent between two dates.

    Args:
        channel_id: The channel.
        start_date: First day (YYYY-MM-DD).
        end_date: Last day (default: today).
    """
    channel = ctx.get(Channel, channel_id, field="channel_id")
    last = end_date or ctx.today()
    if last < start_date:
        raise RuleViolation("the period ends before it starts", field="end_date", hint="swap the dates")
    sent = [
        p
        for p in ctx.where(Post, channel_id=channel.id, status="sent")
        if p.sent_at is not None and start_date <= p.sent_at.date() <= last
    ]

    def eng(p: Post) -> int:
        return p.likes + p.comments + p.shares + p.clicks

    impressions = sum(p.impressions for p in sent)
    engagements = sum(eng(p) for p in sent)
    top = max(sent, key=lambda p: (eng(p), p.id), default=None)
    return ChannelStats(
        channel_id=channel.id,
        posts_sent=len(sent),
        impressions=impressions,
        engagements=engagements,
        engagement_rate=min(100.0, round(100 * engagements / impressions, 2)) if impressions else 0.0,
        top_post_id=top.id if top else None,
        top_post_url=top.post_url if top else None,
    )


# -- seed -------------------------------------------------------------------------------------

NETWORKS: tuple[tuple[Network, int, bool], ...] = (
    ("x", 18_400, True),
    ("linkedin", 9_200, True),
    ("facebook", 5_600, True),
    ("instagram", 12_700, True),
    ("mastodon", 900, False),
)
TEXTS = (
    "Meet the {product}: built for long days at the desk. {link}",
    "New in our shop: the {product}. Free delivery this week only.",
    "How our customers use the {product} — a short story from the team.",
    "We're hiring! Join the team behind the {product}.",
    "Behind the scenes: packing orders of the {product} at our warehouse.",
    "Our {product} is back in stock. Which colour would you pick?",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's channels, the marketing team, posts sent with statistics, queued, pending and drafts."""
    pop = s.population
    home = pop.home
    handle = home.name.replace(" ", "")[:24]
    chans = [
        s.create(
            Channel,
            network=net,
            handle=handle if net != "mastodon" else handle.lower(),
            display_name=home.name,
            status="connected" if ok else "disconnected",
            timezone=home.place.timezone,
            posting_times=("08:30", "12:00", "16:30") if net in ("x", "mastodon") else ("09:00", "15:00"),
            posting_days=WEEKDAYS[:5] if net != "instagram" else WEEKDAYS,
            followers=f,
        )
        for net, f, ok in NETWORKS
    ]
    team = pop.staff("Marketing", fallback=4)
    roles: tuple[Role, ...] = ("admin", "editor", "contributor", "contributor", "editor")
    mems = [s.create(Member, name=p.name, email=p.email, role=roles[i % len(roles)]) for i, p in enumerate(team)]
    writers = [m for m in mems if m.role != "contributor"]
    contributors = [m for m in mems if m.role == "contributor"] or writers
    numbers = itertools.count(1)  # posts are numbered across channels: texts, images and post URLs follow it
    for ch in chans:
        _seed_sent_posts(s, ch, numbers, writers)
        if ch.status == "connected":
            _seed_planned_posts(s, ch, numbers, writers, contributors)
        else:
            text, link = _seed_text(s, next(numbers), ch)
            s.create(
                Post,
                channel_id=ch.id,
                text=text,
                link=link,
                author_email=writers[0].email,
                status="failed",
                scheduled_at=s.now - dt.timedelta(hours=20),
                created_at=s.now - dt.timedelta(days=2),
                updated_at=s.now - dt.timedelta(hours=20),
            )
    s.create(
        Post,
        channel_id=chans[0].id,
        text="BUY BUY BUY!!! Best prices on the internet, guaranteed!!!",
        author_email=contributors[0].email,
        status="rejected",
        approver_email=writers[0].email,
        rejection_reason="Off-brand tone; no all-caps please.",
        scheduled_at=s.now + dt.timedelta(days=1),
        created_at=s.now - dt.timedelta(days=1),
        updated_at=s.now - dt.timedelta(hours=3),
    )


def _seed_text(s: SeedContext, n: int, channel: Channel) -> tuple[str, str | None]:
    """The ``n``-th post's text about a product, and its link unless the text carries it (on X)."""
    products = s.population.products
    product = products[n % len(products)]
    link = f"https://www.{s.population.home.domain}/products/{product.sku.lower()}"
    text = TEXTS[n % len(TEXTS)].format(product=product.name, link=link if channel.network == "x" else "").strip()
    return text, (None if link in text else link)


def _seed_sent_posts(s: SeedContext, ch: Channel, numbers: Iterator[int], writers: list[Member]) -> None:
    """Posts sent every other day with their statistics: twelve on a connected channel, four before it broke."""
    rng = s.rng
    domain = s.population.home.domain
    media_ok = ch.network == "instagram"
    for d in range(12 if ch.status == "connected" else 4):
        k = next(numbers)
        text, link = _seed_text(s, k, ch)
        when = s.now - dt.timedelta(days=2 * d + 1, hours=rng.randint(0, 6))
        imp = rng.randint(200, 6000) * (3 if ch.network in ("x", "instagram") else 1)
        s.create(
            Post,
            channel_id=ch.id,
            text=text,
            link=link,
            media=(f"https://cdn.{domain}/social/{k}.jpg",) if media_ok or k % 3 == 0 else (),
            author_email=writers[k % len(writers)].email,
            status="sent",
            scheduled_at=when,
            sent_at=when,
            post_url=POST_BASE[ch.network].format(handle=ch.handle.lstrip("@"), n=1_770_000_000_000_000_000 + k),
            impressions=imp,
            likes=imp * rng.randint(1, 6) // 100,
            comments=imp * rng.randint(0, 2) // 200,
            shares=imp * rng.randint(0, 3) // 200,
            clicks=imp * rng.randint(0, 4) // 100 if link else 0,
            created_at=when - dt.timedelta(days=1),
            updated_at=when,
        )


def _seed_planned_posts(
    s: SeedContext, ch: Channel, numbers: Iterator[int], writers: list[Member], contributors: list[Member]
) -> None:
    """Posts in the channel's next four slots (the last one a contributor's, awaiting approval) and two drafts."""
    now = s.now
    domain = s.population.home.domain
    media_ok = ch.network == "instagram"
    for j, when in enumerate(_slots(ch, now, 6, set())[:4]):
        k = next(numbers)
        text, link = _seed_text(s, k, ch)
        authors = contributors if j == 3 else writers
        s.create(
            Post,
            channel_id=ch.id,
            text=text,
            link=link,
            media=(f"https://cdn.{domain}/social/{k}.jpg",) if media_ok else (),
            author_email=authors[k % len(authors)].email,
            status="pending_approval" if j == 3 else "scheduled",
            scheduled_at=when,
            created_at=now - dt.timedelta(days=1),
            updated_at=now - dt.timedelta(days=1),
        )
    for j in range(2):
        k = next(numbers)
        text, link = _seed_text(s, k, ch)
        author = (contributors + writers)[(k + j) % (len(contributors) + len(writers))]
        s.create(
            Post,
            channel_id=ch.id,
            text=text,
            link=link,
            media=(f"https://cdn.{domain}/social/{k}.jpg",) if media_ok else (),
            author_email=author.email,
            created_at=now - dt.timedelta(hours=5 + j),
            updated_at=now - dt.timedelta(hours=5 + j),
        )
