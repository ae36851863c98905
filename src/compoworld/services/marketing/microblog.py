"""Chirp: a public microblogging network with posts, replies, likes, reposts, follows, blocks and direct messages.

Modeled on the X (Twitter) API v2 (Users with ``protected``, Posts with
``reply_settings``, ``conversation_id`` and ``public_metrics``, Likes,
Retweets, Follows with follow requests, Blocks, Direct Message events,
reverse-chronological home timeline): a post has at most 280 weighted
characters (links count 23, wide characters 2), the same text is not posted
twice in a day, replies obey the conversation's reply settings, a protected
account's posts are seen and answered only by approved followers and are never
reposted, following a protected account makes a request, blocking cuts follows
both ways and stops likes, replies and messages, and a direct message needs
the recipient to follow the sender or to accept messages from everyone.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    City,
    CompanyName,
    DateTime,
    Email,
    IdOf,
    Language,
    PersonName,
    Quantity,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "microblog",
    title="Chirp",
    category="social_media",
    modeled_on="X (Twitter) API v2 (Users, Posts with reply_settings and public_metrics, Likes, Retweets, "
    "Follows and follow requests, Blocks, Direct Message events, home timeline)",
    description="A public microblogging network of people and brands: short posts, replies in conversations, "
    "likes and reposts, follows with requests for protected accounts, blocks, direct messages and the home "
    "timeline.",
)

UserId = Annotated[str, IdOf("microblog.user")]
PostId = Annotated[str, IdOf("microblog.post")]
Handle = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_]{1,15}$")]
ReplySettings = Literal["everyone", "following", "mentioned_users"]
MAX_WEIGHT = 280
URL_WEIGHT = 23
URL_RE = re.compile(r"https?://\S+")
MENTION_RE = re.compile(r"@([A-Za-z0-9_]{1,15})")
LIGHT = ((0, 4351), (8192, 8205), (8208, 8223), (8242, 8247))
DUPLICATE_WINDOW = dt.timedelta(hours=24)
SITE = "https://chirp.example"


class User(Created):
    """An account: a person or a brand."""

    id: UserId
    handle: Handle
    """@handle without the @; unique, case-insensitively."""
    display_name: Title
    """Name shown on the profile."""
    person_name: PersonName | None = None
    """The person behind a personal account."""
    company_name: CompanyName | None = None
    """The company behind a brand account, or a person's employer."""
    email: Email
    """Sign-in e-mail address (private); unique."""
    bio: Text = ""
    """Profile description."""
    location: City | None = None
    """City shown on the profile."""
    url: Url | None = None
    """Website on the profile."""
    protected: bool = False
    """Protected accounts' posts are visible only to approved followers."""
    dm_open: bool = False
    """Whether anyone may message the account; otherwise only accounts it follows."""
    verified: bool = False
    """Verified badge."""
    followers_count: Quantity = 0
    """Active followers."""
    following_count: Quantity = 0
    """Accounts it follows."""


class Post(Record):
    """A post: an original post, a reply, a quote or a repost."""

    id: PostId
    author_id: UserId
    """Who posted it."""
    text: Text
    """The text (at most 280 weighted characters)."""
    lang: Language = "en"
    """Language of the text."""
    conversation_id: PostId | None = None
    """The first post of the conversation (itself for an original post)."""
    reply_to_id: PostId | None = None
    """The post it replies to."""
    quote_of_id: PostId | None = None
    """The post it quotes."""
    repost_of_id: PostId | None = None
    """The post it reposts."""
    reply_settings: ReplySettings = "everyone"
    """Who may reply: everyone, accounts the author follows, or accounts mentioned in the post."""
    mentions: tuple[Handle, ...] = ()
    """Handles mentioned in the text."""
    like_count: Quantity = 0
    """Likes."""
    reply_count: Quantity = 0
    """Direct replies."""
    repost_count: Quantity = 0
    """Reposts."""
    quote_count: Quantity = 0
    """Quotes."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Like(Created):
    """A user's like of a post."""

    id: Annotated[str, IdOf("microblog.like")]
    user_id: UserId
    """Who liked."""
    post_id: PostId
    """The post."""


class Follow(Created):
    """A follow, or a pending request to follow a protected account."""

    id: Annotated[str, IdOf("microblog.follow")]
    follower_id: UserId
    """Who follows."""
    followee_id: UserId
    """Who is followed."""
    status: Literal["active", "pending"] = "active"
    """active, or pending until a protected account approves."""


class Block(Created):
    """A user blocking another."""

    id: Annotated[str, IdOf("microblog.block")]
    blocker_id: UserId
    """Who blocks."""
    blocked_id: UserId
    """Who is blocked."""


class DirectMessage(Record):
    """A direct message event in a one-to-one conversation."""

    id: Annotated[str, IdOf("microblog.direct_message")]
    conversation_key: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+-[a-z0-9_]+$")]
    """The two participants' user ids, sorted and joined by '-'."""
    sender_id: UserId
    """Who sent it."""
    recipient_id: UserId
    """Who it went to."""
    text: Text
    """The message."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sent."""


# -- rules ------------------------------------------------------------------------------------


def weighted_length(text: str) -> int:
    """X's weighted length: links count 23, characters outside the light ranges count 2."""
    n = 0
    for part in URL_RE.split(text):
        n += sum(1 if any(lo <= ord(c) <= hi for lo, hi in LIGHT) else 2 for c in part)
    return n + URL_WEIGHT * len(URL_RE.findall(text))


def _blocked_between(ctx: Ctx, a: str, b: str) -> bool:
    return (
        ctx.first(Block, blocker_id=a, blocked_id=b) is not None
        or ctx.first(Block, blocker_id=b, blocked_id=a) is not None
    )


def _follows(ctx: Ctx, follower: str, followee: str) -> bool:
    return ctx.first(Follow, follower_id=follower, followee_id=followee, status="active") is not None


def _can_see(ctx: Ctx, viewer: str, post: Post) -> bool:
    author = ctx.get(User, post.author_id)
    return not author.protected or viewer == author.id or _follows(ctx, viewer, author.id)


def _recount(ctx: Ctx, user_id: str) -> None:
    user = ctx.get(User, user_id)
    ctx.update(
        user,
        followers_count=len(ctx.where(Follow, followee_id=user_id, status="active")),
        following_count=len(ctx.where(Follow, follower_id=user_id, status="active")),
    )


def _bump(ctx: Ctx, post_id: str, field: str, delta: int) -> None:
    post = ctx.get(Post, post_id)
    ctx.update(post, **{field: max(0, getattr(post, field) + delta)})


def _visible_post(ctx: Ctx, user: User, post_id: str, field: str = "post_id") -> Post:
    post = ctx.get(Post, post_id, field=field)
    if _blocked_between(ctx, user.id, post.author_id):
        raise RuleViolation(
            f"@{user.handle} and the author of post {post.id} block one another",
            field=field,
            hint="blocked accounts cannot interact",
        )
    if not _can_see(ctx, user.id, post):
        raise RuleViolation(
            f"post {post.id} is from a protected account @{user.handle} does not follow",
            field=field,
            hint="follow the account and wait for approval first",
        )
    return post


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="u",
    create=False,
    filters=("handle", "email", "protected", "verified", "company_name"),
    search=("handle", "display_name", "bio"),
    update=("display_name", "bio", "location", "url", "protected", "dm_open"),
    delete=False,
)
posts = service.resource(
    Post,
    name="post",
    plural="posts",
    prefix="p",
    create=False,
    filters=("author_id", "conversation_id", "reply_to_id", "repost_of_id", "lang"),
    search=("text",),
    delete=False,
)
likes = service.resource(
    Like,
    name="like",
    plural="likes",
    prefix="lk",
    create=False,
    get=False,
    filters=("user_id", "post_id"),
    delete=False,
)
follows = service.resource(
    Follow,
    name="follow",
    plural="follows",
    prefix="fw",
    create=False,
    get=False,
    filters=("follower_id", "followee_id", "status"),
    delete=False,
)
blocks = service.resource(
    Block, name="block", plural="blocks", prefix="bk", create=False, get=False, filters=("blocker_id",), delete=False
)
messages = service.resource(
    DirectMessage,
    name="direct_message",
    plural="direct_messages",
    prefix="dm",
    create=False,
    get=False,
    filters=("conversation_key", "sender_id", "recipient_id"),
    search=("text",),
    delete=False,
    title="direct message",
)


# -- examples ---------------------------------------------------------------------------------


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Post, reply_settings="everyone"):
        author = ctx.get(User, post.author_id)
        if author.protected or post.repost_of_id is not None:
            continue
        for user in ctx.scan(User):
            if user.id != author.id and not _blocked_between(ctx, user.id, author.id):
                return {"author_id": user.id, "text": "Great point, thanks for sharing.", "reply_to_id": post.id}
    return None


def _pair(ctx: Ctx, pred: Any) -> tuple[User, Post] | None:
    for post in ctx.where(Post, repost_of_id=None):
        author = ctx.get(User, post.author_id)
        if author.protected:
            continue
        for user in ctx.scan(User):
            if user.id != author.id and not _blocked_between(ctx, user.id, author.id) and pred(user, post):
                return user, post
    return None


def _example_like(ctx: Ctx) -> dict[str, Any] | None:
    found = _pair(ctx, lambda u, p: ctx.first(Like, user_id=u.id, post_id=p.id) is None)
    return None if found is None else {"user_id": found[0].id, "post_id": found[1].id}


_example_unlike = first_example(Like, fields={"user_id": "user_id", "post_id": "post_id"})


def _example_repost(ctx: Ctx) -> dict[str, Any] | None:
    found = _pair(ctx, lambda u, p: ctx.first(Post, author_id=u.id, repost_of_id=p.id) is None)
    return None if found is None else {"user_id": found[0].id, "post_id": found[1].id}


def _example_follow(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.scan(User):
        for b in ctx.scan(User):
            if (
                a.id != b.id
                and ctx.first(Follow, follower_id=a.id, followee_id=b.id) is None
                and not _blocked_between(ctx, a.id, b.id)
            ):
                return {"user_id": a.id, "target_user_id": b.id}
    return None


_example_unfollow = first_example(
    Follow, where={"status": "active"}, fields={"user_id": "follower_id", "target_user_id": "followee_id"}
)
_example_approve = first_example(
    Follow, where={"status": "pending"}, fields={"user_id": "followee_id", "requester_id": "follower_id"}
)


def _example_block(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.scan(User):
        for b in ctx.scan(User):
            if a.id != b.id and ctx.first(Block, blocker_id=a.id, blocked_id=b.id) is None:
                return {"user_id": a.id, "target_user_id": b.id}
    return None


_example_unblock = first_example(Block, fields={"user_id": "blocker_id", "target_user_id": "blocked_id"})
_example_dm = first_example(
    Follow,
    where={"status": "active"},
    match=lambda ctx, f: not _blocked_between(ctx, f.follower_id, f.followee_id),
    fields={"sender_id": "followee_id", "recipient_id": "follower_id"},
    text="Thanks for the follow!",
)
_example_delete = first_example(Post, "post_id", fields={"user_id": "author_id"})


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="post on the microblog", write=True, example=_example_reply)
def create_post(
    ctx: Ctx,
    author_id: UserId,
    text: Text,
    reply_to_id: PostId | None = None,
    quote_of_id: PostId | None = None,
    reply_settings: ReplySettings = "everyone",
    lang: Language = "en",
) -> Post:
    """Publish a post, a reply or a quote as a user.

    At most 280 weighted characters (a link counts 23, wide characters 2);
    the same text is not accepted twice from one author within 24 hours. A
    reply must be allowed by the conversation's reply settings, and neither a
    reply nor a quote may target a blocked account or a protected account the
    author is not an approved follower of.

    Args:
        author_id: The posting user.
        text: The text.
        reply_to_id: The post to reply to.
        quote_of_id: The post to quote.
        reply_settings: Who may reply to this post.
        lang: ISO 639-1 language of the text.
    """
    author = ctx.get(User, author_id, field="author_id")
    weight = weighted_length(text)
    if not text.strip():
        raise RuleViolation("a post needs text", field="text", hint="write something")
    if weight > MAX_WEIGHT:
        raise RuleViolation(
            f"the text weighs {weight} characters; posts take at most {MAX_WEIGHT}",
            field="text",
            hint="shorten it (links count 23 characters, wide characters 2)",
        )
    for prior in ctx.where(Post, author_id=author.id, repost_of_id=None):
        if prior.text.strip() == text.strip() and ctx.now() - prior.created_at < DUPLICATE_WINDOW:
            raise Conflict(
                f"@{author.handle} posted the same text within the last 24 hours ({prior.id})",
                field="text",
                hint="change the text; duplicate posts are refused",
            )
    conversation = None
    if reply_to_id is not None:
        parent = _visible_post(ctx, author, reply_to_id, "reply_to_id")
        if parent.repost_of_id is not None:
            raise RuleViolation("a repost cannot be replied to", field="reply_to_id", hint="reply to the original post")
        root = ctx.get(Post, parent.conversation_id or parent.id)
        if root.author_id != author.id:
            if root.reply_settings == "following" and not _follows(ctx, root.author_id, author.id):
                raise RuleViolation(
                    "only accounts the conversation's author follows may reply",
                    field="reply_to_id",
                    hint="the author limited replies to people they follow",
                )
            if root.reply_settings == "mentioned_users" and author.handle.lower() not in {
                m.lower() for m in root.mentions
            }:
                raise RuleViolation(
                    "only accounts mentioned in the conversation's first post may reply",
                    field="reply_to_id",
                    hint="the author limited replies to the accounts they mentioned",
                )
        conversation = root.id
    if quote_of_id is not None:
        quoted = _visible_post(ctx, author, quote_of_id, "quote_of_id")
        if ctx.get(User, quoted.author_id).protected:
            raise RuleViolation(
                "posts of protected accounts cannot be quoted", field="quote_of_id", hint="reply instead"
            )
    post = ctx.create(
        Post,
        author_id=author.id,
        text=text.strip(),
        lang=lang,
        reply_to_id=reply_to_id,
        quote_of_id=quote_of_id,
        reply_settings=reply_settings,
        mentions=tuple(dict.fromkeys(MENTION_RE.findall(text))),
    )
    post = ctx.update(post, conversation_id=conversation or post.id)
    if reply_to_id is not None:
        _bump(ctx, reply_to_id, "reply_count", 1)
    if quote_of_id is not None:
        _bump(ctx, quote_of_id, "quote_count", 1)
    return post


class Done(BaseModel):
    """The outcome of a relationship or engagement action."""

    user_id: UserId = Field(description="The acting user.")
    post_id: PostId | None = Field(default=None, description="The post acted on, for likes and deletions.")
    target_user_id: UserId | None = Field(default=None, description="The account acted on, for follows and blocks.")
    state: Literal["liked", "unliked", "following", "requested", "unfollowed", "blocked", "unblocked", "deleted"] = (
        Field(description="What holds now.")
    )


@service.tool(intent="delete the user's own post", write=True, destructive=True, example=_example_delete)
def delete_post(ctx: Ctx, user_id: UserId, post_id: PostId) -> Done:
    """Delete one of the user's own posts; its likes go with it and replies stay in the conversation.

    Args:
        user_id: The author.
        post_id: The post.
    """
    user = ctx.get(User, user_id, field="user_id")
    post = ctx.get(Post, post_id, field="post_id")
    if post.author_id != user.id:
        raise RuleViolation(
            f"post {post.id} is not by @{user.handle}", field="post_id", hint="users delete only their own posts"
        )
    for like in ctx.where(Like, post_id=post.id):
        ctx.delete(like)
    for ref, field in (
        (post.reply_to_id, "reply_count"),
        (post.quote_of_id, "quote_count"),
        (post.repost_of_id, "repost_count"),
    ):
        if ref is not None and ctx.find(Post, ref) is not None:
            _bump(ctx, ref, field, -1)
    ctx.delete(post)
    return Done(user_id=user.id, post_id=post.id, state="deleted")


@service.tool(intent="like the post", write=True, example=_example_like)
def like_post(ctx: Ctx, user_id: UserId, post_id: PostId) -> Done:
    """Like a post as a user.

    Args:
        user_id: The user.
        post_id: The post.
    """
    user = ctx.get(User, user_id, field="user_id")
    post = _visible_post(ctx, user, post_id)
    if ctx.first(Like, user_id=user.id, post_id=post.id) is not None:
        raise Conflict(f"@{user.handle} already likes post {post.id}", field="post_id", hint="nothing to do")
    ctx.create(Like, user_id=user.id, post_id=post.id)
    _bump(ctx, post.id, "like_count", 1)
    return Done(user_id=user.id, post_id=post.id, state="liked")


@service.tool(intent="remove the like from the post", write=True, example=_example_unlike)
def unlike_post(ctx: Ctx, user_id: UserId, post_id: PostId) -> Done:
    """Take back a user's like of a post.

    Args:
        user_id: The user.
        post_id: The post.
    """
    user = ctx.get(User, user_id, field="user_id")
    post = ctx.get(Post, post_id, field="post_id")
    like = ctx.first(Like, user_id=user.id, post_id=post.id)
    if like is None:
        raise RuleViolation(f"@{user.handle} does not like post {post.id}", field="post_id", hint="nothing to undo")
    ctx.delete(like)
    _bump(ctx, post.id, "like_count", -1)
    return Done(user_id=user.id, post_id=post.id, state="unliked")


@service.tool(intent="repost the post", write=True, example=_example_repost)
def repost(ctx: Ctx, user_id: UserId, post_id: PostId) -> Post:
    """Repost (retweet) a post to the user's followers; protected accounts' posts cannot be reposted.

    Args:
        user_id: The user.
        post_id: The post (an original, reply or quote; not a repost).
    """
    user = ctx.get(User, user_id, field="user_id")
    post = _visible_post(ctx, user, post_id)
    original = ctx.get(Post, post.repost_of_id) if post.repost_of_id else post
    author = ctx.get(User, original.author_id)
    if author.protected:
        raise RuleViolation(
            f"@{author.handle} is protected; their posts cannot be reposted", field="post_id", hint="like it instead"
        )
    if ctx.first(Post, author_id=user.id, repost_of_id=original.id) is not None:
        raise Conflict(f"@{user.handle} already reposted post {original.id}", field="post_id", hint="nothing to do")
    made = ctx.create(Post, author_id=user.id, text=original.text, lang=original.lang, repost_of_id=original.id)
    made = ctx.update(made, conversation_id=original.conversation_id or original.id)
    _bump(ctx, original.id, "repost_count", 1)
    return made


def _pair_users(ctx: Ctx, user_id: str, target_user_id: str) -> tuple[User, User]:
    user = ctx.get(User, user_id, field="user_id")
    target = ctx.get(User, target_user_id, field="target_user_id")
    if user.id == target.id:
        raise RuleViolation("a user cannot do that to themselves", field="target_user_id", hint="pick another user")
    return user, target


@service.tool(intent="follow the account", write=True, example=_example_follow)
def follow_user(ctx: Ctx, user_id: UserId, target_user_id: UserId) -> Done:
    """Follow an account; following a protected account sends a request it must approve.

    Args:
        user_id: The user who follows.
        target_user_id: The account to follow.
    """
    user, target = _pair_users(ctx, user_id, target_user_id)
    if _blocked_between(ctx, user.id, target.id):
        raise RuleViolation(
            f"@{user.handle} and @{target.handle} block one another", field="target_user_id", hint="unblock first"
        )
    existing = ctx.first(Follow, follower_id=user.id, followee_id=target.id)
    if existing is not None:
        raise Conflict(
            f"@{user.handle} already {'follows' if existing.status == 'active' else 'asked to follow'} @{target.handle}",
            field="target_user_id",
            hint="nothing to do",
        )
    status: Literal["active", "pending"] = "pending" if target.protected else "active"
    ctx.create(Follow, follower_id=user.id, followee_id=target.id, status=status)
    _recount(ctx, user.id)
    _recount(ctx, target.id)
    return Done(user_id=user.id, target_user_id=target.id, state="requested" if status == "pending" else "following")


@service.tool(intent="unfollow the account", write=True, example=_example_unfollow)
def unfollow_user(ctx: Ctx, user_id: UserId, target_user_id: UserId) -> Done:
    """Stop following an account, or withdraw a pending follow request.

    Args:
        user_id: The follower.
        target_user_id: The followed account.
    """
    user, target = _pair_users(ctx, user_id, target_user_id)
    existing = ctx.first(Follow, follower_id=user.id, followee_id=target.id)
    if existing is None:
        raise RuleViolation(
            f"@{user.handle} does not follow @{target.handle}", field="target_user_id", hint="nothing to undo"
        )
    ctx.delete(existing)
    _recount(ctx, user.id)
    _recount(ctx, target.id)
    return Done(user_id=user.id, target_user_id=target.id, state="unfollowed")


@service.tool(intent="approve the follow request", write=True, example=_example_approve)
def approve_follow_request(ctx: Ctx, user_id: UserId, requester_id: UserId) -> Done:
    """Approve a pending request to follow a protected account.

    Args:
        user_id: The protected account.
        requester_id: The account that asked to follow.
    """
    user = ctx.get(User, user_id, field="user_id")
    requester = ctx.get(User, requester_id, field="requester_id")
    req = ctx.first(Follow, follower_id=requester.id, followee_id=user.id, status="pending")
    if req is None:
        raise RuleViolation(
            f"@{requester.handle} has no pending request to follow @{user.handle}",
            field="requester_id",
            hint="list pending requests with microblog__list_follows (followee_id, status=pending)",
        )
    ctx.update(req, status="active")
    _recount(ctx, user.id)
    _recount(ctx, requester.id)
    return Done(user_id=requester.id, target_user_id=user.id, state="following")


@service.tool(intent="block the account", write=True, example=_example_block)
def block_user(ctx: Ctx, user_id: UserId, target_user_id: UserId) -> Done:
    """Block an account: follows between the two end in both directions and the blocked account cannot interact.

    Args:
        user_id: The user who blocks.
        target_user_id: The account to block.
    """
    user, target = _pair_users(ctx, user_id, target_user_id)
    if ctx.first(Block, blocker_id=user.id, blocked_id=target.id) is not None:
        raise Conflict(f"@{user.handle} already blocks @{target.handle}", field="target_user_id", hint="nothing to do")
    ctx.create(Block, blocker_id=user.id, blocked_id=target.id)
    for a, b in ((user.id, target.id), (target.id, user.id)):
        f = ctx.first(Follow, follower_id=a, followee_id=b)
        if f is not None:
            ctx.delete(f)
    _recount(ctx, user.id)
    _recount(ctx, target.id)
    return Done(user_id=user.id, target_user_id=target.id, state="blocked")


@service.tool(intent="unblock the account", write=True, example=_example_unblock)
def unblock_user(ctx: Ctx, user_id: UserId, target_user_id: UserId) -> Done:
    """Lift a block; follows that the block ended do not come back.

    Args:
        user_id: The user who blocked.
        target_user_id: The blocked account.
    """
    user, target = _pair_users(ctx, user_id, target_user_id)
    block = ctx.first(Block, blocker_id=user.id, blocked_id=target.id)
    if block is None:
        raise RuleViolation(
            f"@{user.handle} does not block @{target.handle}", field="target_user_id", hint="nothing to undo"
        )
    ctx.delete(block)
    return Done(user_id=user.id, target_user_id=target.id, state="unblocked")


@service.tool(intent="send a direct message", write=True, example=_example_dm)
def send_direct_message(ctx: Ctx, sender_id: UserId, recipient_id: UserId, text: Text) -> DirectMessage:
    """Send a direct message; the recipient must follow the sender or accept messages from everyone.

    Args:
        sender_id: The sending user.
        recipient_id: The receiving user.
        text: The message (at most 10,000 characters).
    """
    sender = ctx.get(User, sender_id, field="sender_id")
    recipient = ctx.get(User, recipient_id, field="recipient_id")
    if sender.id == recipient.id:
        raise RuleViolation("users cannot message themselves", field="recipient_id", hint="pick another user")
    if not text.strip() or len(text) > 10_000:
        raise RuleViolation("a message has 1 to 10,000 characters", field="text", hint="write a shorter message")
    if _blocked_between(ctx, sender.id, recipient.id):
        raise RuleViolation(
            f"@{sender.handle} and @{recipient.handle} block one another", field="recipient_id", hint="they cannot talk"
        )
    if not recipient.dm_open and not _follows(ctx, recipient.id, sender.id):
        raise RuleViolation(
            f"@{recipient.handle} only accepts messages from accounts they follow",
            field="recipient_id",
            hint="reply to them publicly or ask them to follow you first",
        )
    key = "-".join(sorted((sender.id, recipient.id)))
    return ctx.create(DirectMessage, conversation_key=key, sender_id=sender.id, recipient_id=recipient.id, text=text)


class Timeline(BaseModel):
    """A user's home timeline."""

    user_id: UserId = Field(description="The user.")
    posts: list[Post] = Field(
        description="Posts and reposts of the accounts the user follows, and their own, newest first."
    )


@service.tool(intent="read the user's home timeline")
def home_timeline(ctx: Ctx, user_id: UserId, limit: Annotated[int, Field(ge=1, le=100)] = 20) -> Timeline:
    """The user's reverse-chronological home timeline: their own posts and those of accounts they follow.

    Args:
        user_id: The user.
        limit: How many posts (1 to 100).
    """
    user = ctx.get(User, user_id, field="user_id")
    authors = {f.followee_id for f in ctx.where(Follow, follower_id=user.id, status="active")} | {user.id}
    found = [p for a in sorted(authors) for p in ctx.where(Post, author_id=a)]
    found.sort(key=lambda p: (p.created_at, p.id), reverse=True)
    return Timeline(user_id=user.id, posts=found[:limit])


# -- seed -------------------------------------------------------------------------------------

BRAND_POSTS = (
    "Say hello to the {product}. Now in our shop: {url}",
    "Our team is packing {product} orders all weekend. Thanks for the support!",
    "Question for you: where do you use your {product}?",
    "Service update: deliveries in {city} may be delayed today due to weather.",
)
PEOPLE_POSTS = (
    "Finally got my {product} and it's great.",
    "Anyone else in {city} waiting for a parcel today?",
    "Hot take: a good {product} beats a fancy one.",
    "Morning coffee and a long list of tasks. Let's go.",
    "Three weeks with the {product}: solid, quiet, no regrets.",
)
REPLIES = ("Totally agree!", "Same here.", "Thanks for sharing.", "Where can I get one?", "Great news!")


def _handle(name: str, used: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_]", "", name)[:12] or "user"
    h, n = base, 2
    while h.lower() in used:
        h = f"{base[:12]}{n}"
        n += 1
    used.add(h.lower())
    return h


@service.seeder
def seed(s: SeedContext) -> None:
    """Brand accounts of the home company and some customers, staff and consumers, posts, follows, likes, DMs."""
    brands, accounts = _seed_users(s)
    follows, blocked = _seed_follows(s, brands, accounts)
    made, recs, counts = _seed_posts(s, brands, accounts, blocked)
    _seed_likes_and_reposts(s, made, brands, accounts, blocked, counts)
    for pid, c in counts.items():
        s.update(recs[pid], **c)
    for k, (src, dst) in enumerate(sorted(follows)[:12]):
        key = "-".join(sorted((src, dst)))
        s.create(
            DirectMessage,
            conversation_key=key,
            sender_id=dst,
            recipient_id=src,
            text=("Thanks for the follow!", "Did your parcel arrive?", "Loved your post yesterday.")[k % 3],
            created_at=s.now - dt.timedelta(days=1, minutes=k),
        )


def _seed_users(s: SeedContext) -> tuple[list[User], list[User]]:
    """Brand accounts of the home company and five customers, and personal accounts of staff and consumers."""
    pop = s.population
    used: set[str] = set()
    brands: list[User] = []
    for k, company in enumerate([pop.home, *pop.customers[:5]]):
        brands.append(
            s.create(
                User,
                handle=_handle(company.name.replace(" ", ""), used),
                display_name=company.name,
                company_name=company.name,
                email=f"social@{company.domain}",
                bio=f"Official account of {company.name}.",
                location=company.place.city,
                url=f"https://www.{company.domain}",
                verified=k == 0,
                dm_open=True,
                created_at=s.now - dt.timedelta(days=900 - k),
            )
        )
    accounts: list[User] = []
    for i, p in enumerate(list(pop.employees[::3]) + list(pop.consumers[:30])):
        employer = pop.company_of(p)
        accounts.append(
            s.create(
                User,
                handle=_handle(f"{p.first_name}{p.last_name[0]}", used),
                display_name=p.name,
                person_name=p.name,
                company_name=employer.name if employer else None,
                email=p.email,
                bio=f"{p.job_title} at {employer.name}" if employer else "Coffee, parcels and opinions.",
                location=p.place.city,
                protected=i % 9 == 4,
                dm_open=i % 4 == 0,
                created_at=s.now - dt.timedelta(days=s.rng.randint(40, 800)),
            )
        )
    return brands, accounts


def _seed_follows(
    s: SeedContext, brands: list[User], accounts: list[User]
) -> tuple[set[tuple[str, str]], tuple[str, str]]:
    """Follows and requests, one block that cut them, and the counts; returns the active follows and the block."""
    everyone = brands + accounts
    follows: set[tuple[str, str]] = set()
    pending: set[tuple[str, str]] = set()
    for i, u in enumerate(accounts):
        targets = [brands[0], *s.rng.sample(everyone, 6)]
        for t in targets:
            if t.id == u.id or (u.id, t.id) in follows or (u.id, t.id) in pending:
                continue
            if t.protected and (i + len(follows)) % 3 == 0:
                pending.add((u.id, t.id))
            else:
                follows.add((u.id, t.id))
    for other in brands[1:]:
        follows.add((brands[0].id, other.id))
    blocked = (accounts[3].id, accounts[7].id)
    follows.discard(blocked)
    follows.discard((blocked[1], blocked[0]))
    pending.discard((blocked[1], blocked[0]))
    for src, dst in sorted(follows):
        s.create(Follow, follower_id=src, followee_id=dst, created_at=s.now - dt.timedelta(days=30))
    for src, dst in sorted(pending):
        s.create(Follow, follower_id=src, followee_id=dst, status="pending", created_at=s.now - dt.timedelta(days=2))
    s.create(Block, blocker_id=blocked[0], blocked_id=blocked[1], created_at=s.now - dt.timedelta(days=10))
    for u in everyone:
        s.update(
            u,
            followers_count=sum(1 for _, dst in follows if dst == u.id),
            following_count=sum(1 for src, _ in follows if src == u.id),
        )
    return follows, blocked


PostCounts = dict[str, dict[str, int]]
"""Likes, replies, reposts and quotes counted per post id while seeding, written once at the end."""


def _zero_counts() -> dict[str, int]:
    return {"like_count": 0, "reply_count": 0, "repost_count": 0, "quote_count": 0}


def _seed_posts(
    s: SeedContext, brands: list[User], accounts: list[User], blocked: tuple[str, str]
) -> tuple[list[Post], dict[str, Post], PostCounts]:
    """Seventy original posts over the last days, every third followed by a reply to an earlier one if allowed."""
    pop = s.population
    rng = s.rng
    everyone = brands + accounts
    made: list[Post] = []
    recs: dict[str, Post] = {}
    counts: PostCounts = {}
    for k in range(70):
        brand = k % 4 == 0
        author = brands[(k // 4) % len(brands)] if brand else accounts[(k * 7) % len(accounts)]
        product = pop.products[k % len(pop.products)]
        city = rng.choice(pop.places).city
        template = BRAND_POSTS[k % len(BRAND_POSTS)] if brand else PEOPLE_POSTS[k % len(PEOPLE_POSTS)]
        text = template.format(
            product=product.name, city=city, url=f"https://www.{pop.home.domain}/p/{product.sku.lower()}"
        )
        when = s.now - dt.timedelta(hours=3 * (70 - k) + rng.randint(0, 2))
        settings: ReplySettings = "following" if k % 13 == 5 else "everyone"
        post = s.create(Post, author_id=author.id, text=text, reply_settings=settings, created_at=when)
        post = s.update(post, conversation_id=post.id)
        made.append(post)
        recs[post.id] = post
        counts[post.id] = _zero_counts()
        if k % 3 == 1 and made:
            parent = made[rng.randrange(len(made))]
            parent_author = next(u for u in everyone if u.id == parent.author_id)
            replier = accounts[(k * 5 + 1) % len(accounts)]
            if (
                replier.id != parent.author_id
                and parent.reply_settings == "everyone"
                and not parent_author.protected
                and {replier.id, parent.author_id} != set(blocked)
            ):
                reply = s.create(
                    Post,
                    author_id=replier.id,
                    text=f"@{parent_author.handle} {REPLIES[k % len(REPLIES)]}",
                    reply_to_id=parent.id,
                    conversation_id=parent.conversation_id,
                    mentions=(parent_author.handle,),
                    created_at=when + dt.timedelta(minutes=40),
                )
                recs[reply.id] = reply
                counts[reply.id] = _zero_counts()
                counts[parent.id]["reply_count"] += 1
    return made, recs, counts


def _seed_likes_and_reposts(
    s: SeedContext,
    made: list[Post],
    brands: list[User],
    accounts: list[User],
    blocked: tuple[str, str],
    counts: PostCounts,
) -> None:
    """Likes of visible original posts, and a repost of every sixth one by a brand."""
    everyone = brands + accounts
    liked: set[tuple[str, str]] = set()
    for k, post in enumerate(made):
        author = next(u for u in everyone if u.id == post.author_id)
        if author.protected:
            continue
        for j in range(k % 5):
            fan = accounts[(k * 3 + j * 11) % len(accounts)]
            if fan.id == author.id or (fan.id, post.id) in liked or {fan.id, author.id} == set(blocked):
                continue
            liked.add((fan.id, post.id))
            s.create(Like, user_id=fan.id, post_id=post.id, created_at=post.created_at + dt.timedelta(hours=1))
            counts[post.id]["like_count"] += 1
        if k % 6 == 0 and author in brands:
            fan = accounts[k % len(accounts)]
            s.create(
                Post,
                author_id=fan.id,
                text=post.text,
                repost_of_id=post.id,
                conversation_id=post.id,
                created_at=post.created_at + dt.timedelta(hours=2),
            )
            counts[post.id]["repost_count"] += 1
