"""Commons Forum: the company's community forum of categories, topics, posts, likes, flags and solved answers.

Modeled on the Discourse API (categories with group permissions, POST /posts
for topics and replies, PUT /t/{id}/status for closing and pinning, post
actions for likes and flags, the review queue, trust levels set by staff, and
the discourse-solved plugin's accept and unaccept). A staff-only category
takes topics and replies from moderators only, and a category may ask for a
minimum trust level to start topics. New users (trust level 0) may put at most
two links in a post, reply at most three times to a topic, and cannot flag.
A closed topic takes replies only from moderators, and only moderators close,
open, pin or unpin topics. A person likes a post once and not their own. A
person flags a post once and not their own; three flags, or one from a
moderator, hide the post until a moderator reviews it: agreeing keeps it
hidden, disagreeing restores it and dismisses the flags. In a category that
allows solutions, the topic's author or a moderator accepts one reply (not
the first post, not a hidden one) as the answer.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Title
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "forum",
    title="Commons Forum",
    category="community_forum",
    modeled_on="Discourse API (categories, topics, posts, PUT /t/{id}/status, post actions: like and flags, "
    "review queue, admin trust levels) with the discourse-solved plugin",
    description="A community forum for the company's customers: categories with permissions, topics and "
    "replies, likes, flags that hide posts for moderator review, trust levels that limit new users, "
    "moderators closing and pinning topics, and accepted answers.",
)

CategoryId = Annotated[str, IdOf("forum.category")]
UserId = Annotated[str, IdOf("forum.user")]
TopicId = Annotated[str, IdOf("forum.topic")]
PostId = Annotated[str, IdOf("forum.post")]
FlagId = Annotated[str, IdOf("forum.flag")]
Username = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.-]{3,20}$")]
"""A forum username: 3-20 letters, digits, dots, hyphens and underscores."""
Raw = Annotated[str, StringConstraints(min_length=20, max_length=32000)]
"""A post's text (Markdown), at least 20 characters."""

TrustLevel = Annotated[int, Field(ge=0, le=4)]
FlagReason = Literal["spam", "inappropriate", "off_topic", "illegal"]
TopicAction = Literal["close", "open", "pin", "unpin"]

HIDE_AT = 3
"""Flags from distinct users that hide a post."""
NEW_USER_LINKS = 2
NEW_USER_REPLIES = 3
_LINK = re.compile(r"https?://", re.IGNORECASE)


class Category(Created):
    """A forum category and who may post in it."""

    id: CategoryId
    name: Title
    """Category name."""
    slug: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]{2,50}$")]
    """URL slug."""
    staff_only: bool = False
    """Whether only moderators start topics and reply (announcements)."""
    min_trust_to_create: TrustLevel = 0
    """The lowest trust level that may start a topic."""
    allow_solved: bool = False
    """Whether replies can be accepted as the answer."""


class User(Created):
    """A forum member."""

    id: UserId
    username: Username
    """Unique username."""
    name: PersonName
    """Full name."""
    email: Email
    """E-mail address."""
    trust_level: TrustLevel = 0
    """0 new, 1 basic, 2 member, 3 regular, 4 leader."""
    moderator: bool = False
    """Whether they are staff moderating the forum."""
    post_count: int = 0
    """Posts written."""


class Topic(Record):
    """A discussion thread."""

    id: TopicId
    category_id: CategoryId
    """The category."""
    title: Annotated[str, StringConstraints(min_length=15, max_length=255)]
    """The title, at least 15 characters."""
    user_id: UserId
    """Who started it."""
    closed: bool = False
    """Whether it takes no more replies (except from moderators)."""
    pinned: bool = False
    """Whether it stays at the top of its category."""
    posts_count: int = 0
    """Posts in it, the first included."""
    solved_post_id: PostId | None = None
    """The accepted answer."""
    created_at: DateTime
    """When it was started."""
    last_posted_at: DateTime
    """When the latest post came."""


class Post(Record):
    """A post: a topic's first post or a reply."""

    id: PostId
    topic_id: TopicId
    """The topic."""
    user_id: UserId
    """The author."""
    post_number: int
    """Its position in the topic (1 is the first post)."""
    raw: Raw
    """The text."""
    reply_to_post_number: int | None = None
    """The post it answers."""
    like_count: int = 0
    """Likes."""
    hidden: bool = False
    """Whether flags hid it."""
    accepted_answer: bool = False
    """Whether it is the topic's accepted answer."""
    created_at: DateTime
    """When it was written."""


class Like(Created):
    """A like of a post."""

    id: Annotated[str, IdOf("forum.like")]
    post_id: PostId
    """The post."""
    user_id: UserId
    """Who liked it."""


class Flag(Created):
    """A flag raised on a post, waiting for review or reviewed."""

    id: FlagId
    post_id: PostId
    """The post."""
    user_id: UserId
    """Who flagged it."""
    reason: FlagReason
    """spam, inappropriate, off_topic or illegal."""
    status: Literal["pending", "agreed", "disagreed"] = "pending"
    """pending review, agreed (the post stays hidden) or disagreed (dismissed)."""
    reviewed_by: UserId | None = None
    """The moderator who reviewed it."""


# -- rules ------------------------------------------------------------------------------------


def _mod(ctx: Ctx, user_id: str, field: str = "moderator_id") -> User:
    user = ctx.get(User, user_id, field=field)
    if not user.moderator:
        raise RuleViolation(f"@{user.username} is not a moderator", field=field, hint="ask a moderator")
    return user


def _check_raw(user: User, raw: str) -> None:
    if user.trust_level == 0 and len(_LINK.findall(raw)) > NEW_USER_LINKS:
        raise RuleViolation(
            f"new users may put at most {NEW_USER_LINKS} links in a post",
            field="raw",
            hint="remove links, or earn trust level 1 by reading and taking part",
        )


def _add_post(ctx: Ctx, topic: Topic, user: User, raw: str, reply_to: int | None = None) -> Post:
    number = topic.posts_count + 1
    now = ctx.now()
    post = ctx.create(
        Post,
        topic_id=topic.id,
        user_id=user.id,
        post_number=number,
        raw=raw,
        reply_to_post_number=reply_to,
        created_at=now,
    )
    ctx.update(topic, posts_count=number, last_posted_at=now)
    ctx.update(user, post_count=user.post_count + 1)
    return post


categories = service.resource(
    Category,
    name="category",
    plural="categories",
    prefix="cat",
    create=False,
    get=False,
    filters=("slug", "staff_only", "allow_solved"),
    search=("name",),
    delete=False,
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    filters=("username", "email", "trust_level", "moderator"),
    search=("username", "name"),
    delete=False,
)
topics = service.resource(
    Topic,
    name="topic",
    plural="topics",
    prefix="tpc",
    create=False,
    filters=("category_id", "user_id", "closed", "pinned"),
    search=("title",),
    delete=False,
)
posts = service.resource(
    Post,
    name="post",
    plural="posts",
    prefix="pst",
    create=False,
    get=False,
    filters=("topic_id", "user_id", "hidden", "accepted_answer"),
    search=("raw",),
    delete=False,
)
likes = service.resource(
    Like,
    name="like",
    plural="likes",
    prefix="lk",
    create=False,
    get=False,
    filters=("post_id", "user_id"),
    delete=False,
)
flags = service.resource(
    Flag,
    name="flag",
    plural="flags",
    prefix="flg",
    create=False,
    get=False,
    filters=("post_id", "user_id", "reason", "status"),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------

_BODY = "Thanks, restarting the sync fixed it for me as well."


def _example_topic(ctx: Ctx) -> dict[str, Any] | None:
    cat = ctx.first(Category, staff_only=False, min_trust_to_create=0)
    user = ctx.first(User, trust_level=1)
    if cat is None or user is None:
        return None
    return {
        "category_id": cat.id,
        "user_id": user.id,
        "title": "How do I export my invoices?",
        "raw": "I need every invoice from last year as PDF. Is there a bulk export?",
    }


def _open_topic(ctx: Ctx) -> Topic | None:
    for topic in ctx.where(Topic, closed=False):
        if not ctx.get(Category, topic.category_id).staff_only:
            return topic
    return None


def _example_reply(ctx: Ctx) -> dict[str, Any] | None:
    topic = _open_topic(ctx)
    user = ctx.first(User, trust_level=2)
    return None if topic is None or user is None else {"topic_id": topic.id, "user_id": user.id, "raw": _BODY}


def _example_like(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Post, hidden=False):
        for user in ctx.where(User, trust_level=2):
            if user.id != post.user_id and ctx.first(Like, post_id=post.id, user_id=user.id) is None:
                return {"post_id": post.id, "user_id": user.id}
    return None


def _example_flag(ctx: Ctx) -> dict[str, Any] | None:
    found = _example_like(ctx)
    return None if found is None else {**found, "reason": "off_topic"}


def _example_status(ctx: Ctx) -> dict[str, Any] | None:
    topic = _open_topic(ctx)
    mod = ctx.first(User, moderator=True)
    return None if topic is None or mod is None else {"topic_id": topic.id, "moderator_id": mod.id, "action": "close"}


def _example_review(ctx: Ctx) -> dict[str, Any] | None:
    flag = ctx.first(Flag, status="pending")
    mod = ctx.first(User, moderator=True)
    return None if flag is None or mod is None else {"post_id": flag.post_id, "moderator_id": mod.id, "agree": True}


def _example_accept(ctx: Ctx) -> dict[str, Any] | None:
    for cat in ctx.where(Category, allow_solved=True):
        for topic in ctx.where(Topic, category_id=cat.id, solved_post_id=None):
            for post in ctx.where(Post, topic_id=topic.id, hidden=False):
                if post.post_number > 1:
                    return {"post_id": post.id, "user_id": topic.user_id}
    return None


def _example_trust(ctx: Ctx) -> dict[str, Any] | None:
    user = ctx.first(User, trust_level=0)
    mod = ctx.first(User, moderator=True)
    return None if user is None or mod is None else {"user_id": user.id, "moderator_id": mod.id, "trust_level": 1}


# -- tools ------------------------------------------------------------------------------------


class NewTopic(BaseModel):
    """A new topic and its first post."""

    topic: Topic = Field(description="The topic.")
    post: Post = Field(description="Its first post.")


@service.tool(intent="start a new forum topic", write=True, example=_example_topic)
def create_topic(ctx: Ctx, category_id: CategoryId, user_id: UserId, title: Title, raw: Raw) -> NewTopic:
    """Start a topic with its first post.

    Staff-only categories take topics from moderators only; a category's
    minimum trust level applies; titles are at least 15 characters and unique
    among open topics of the category.

    Args:
        category_id: The category.
        user_id: The author.
        title: The title (15-255 characters).
        raw: The first post.
    """
    cat = ctx.get(Category, category_id, field="category_id")
    user = ctx.get(User, user_id, field="user_id")
    if cat.staff_only and not user.moderator:
        raise RuleViolation(f"{cat.name} is for staff posts only", field="category_id", hint="pick another category")
    if user.trust_level < cat.min_trust_to_create and not user.moderator:
        raise RuleViolation(
            f"{cat.name} needs trust level {cat.min_trust_to_create} to start topics; @{user.username} is "
            f"{user.trust_level}",
            field="category_id",
            hint="reply to an existing topic or post in another category",
        )
    title = " ".join(title.split())
    if not 15 <= len(title) <= 255:
        raise RuleViolation("a title has 15 to 255 characters", field="title", hint="write a descriptive title")
    for other in ctx.where(Topic, category_id=cat.id, closed=False):
        if other.title.lower() == title.lower():
            raise Conflict(f"topic {other.id} already has this title", field="title", hint="reply there instead")
    _check_raw(user, raw)
    now = ctx.now()
    topic = ctx.create(Topic, category_id=cat.id, title=title, user_id=user.id, created_at=now, last_posted_at=now)
    post = _add_post(ctx, topic, user, raw)
    return NewTopic(topic=ctx.get(Topic, topic.id), post=post)


@service.tool(intent="reply in the forum topic", write=True, example=_example_reply)
def reply_to_topic(
    ctx: Ctx, topic_id: TopicId, user_id: UserId, raw: Raw, reply_to_post_number: int | None = None
) -> Post:
    """Reply in a topic.

    Closed topics and staff-only categories take replies from moderators only;
    new users reply at most three times in one topic.

    Args:
        topic_id: The topic.
        user_id: The author.
        raw: The reply.
        reply_to_post_number: The number of the post it answers.
    """
    topic = ctx.get(Topic, topic_id, field="topic_id")
    user = ctx.get(User, user_id, field="user_id")
    if topic.closed and not user.moderator:
        raise RuleViolation(f"topic {topic.id} is closed", field="topic_id", hint="start a new topic")
    if ctx.get(Category, topic.category_id).staff_only and not user.moderator:
        raise RuleViolation("replies here are for staff only", field="topic_id", hint="start a topic elsewhere")
    if reply_to_post_number is not None and not 1 <= reply_to_post_number <= topic.posts_count:
        raise RuleViolation(
            f"topic {topic.id} has no post {reply_to_post_number}",
            field="reply_to_post_number",
            hint=f"pick 1 to {topic.posts_count}",
        )
    if user.trust_level == 0 and len(ctx.where(Post, topic_id=topic.id, user_id=user.id)) >= NEW_USER_REPLIES:
        raise RuleViolation(
            f"new users reply at most {NEW_USER_REPLIES} times in one topic",
            field="user_id",
            hint="wait for others to answer, or earn trust level 1",
        )
    _check_raw(user, raw)
    return _add_post(ctx, topic, user, raw, reply_to_post_number)


@service.tool(intent="like the forum post", write=True, example=_example_like)
def like_post(ctx: Ctx, post_id: PostId, user_id: UserId) -> Post:
    """Like a post: once per person, never one's own, not a hidden post.

    Args:
        post_id: The post.
        user_id: Who likes it.
    """
    post = ctx.get(Post, post_id, field="post_id")
    if post.user_id == user_id:
        raise RuleViolation("nobody can like their own post", field="user_id", hint="like someone else's post")
    ctx.get(User, user_id, field="user_id")
    if post.hidden:
        raise RuleViolation(f"post {post.id} is hidden", field="post_id", hint="wait for the moderators' review")
    if ctx.first(Like, post_id=post.id, user_id=user_id) is not None:
        raise Conflict(f"post {post.id} is already liked by this user", field="user_id", hint="one like per post")
    ctx.create(Like, post_id=post.id, user_id=user_id)
    return ctx.update(post, like_count=post.like_count + 1)


class Flagged(BaseModel):
    """A flag and what it did to the post."""

    flag: Flag = Field(description="The flag.")
    post: Post = Field(description="The post, hidden when the flags reached the threshold.")
    pending_flags: int = Field(description="Pending flags on the post.")


@service.tool(intent="flag the forum post for moderators", write=True, example=_example_flag)
def flag_post(ctx: Ctx, post_id: PostId, user_id: UserId, reason: FlagReason) -> Flagged:
    """Flag a post for the moderators.

    Trust level 1 is needed; one flag per person per post, never on one's own
    post. Three pending flags, or one from a moderator, hide the post.

    Args:
        post_id: The post.
        user_id: Who flags it.
        reason: spam, inappropriate, off_topic or illegal.
    """
    post = ctx.get(Post, post_id, field="post_id")
    user = ctx.get(User, user_id, field="user_id")
    if post.user_id == user.id:
        raise RuleViolation("nobody can flag their own post", field="user_id", hint="edit or delete it instead")
    if user.trust_level < 1 and not user.moderator:
        raise RuleViolation(
            f"@{user.username} is a new user (trust level 0) and cannot flag",
            field="user_id",
            hint="earn trust level 1 first",
        )
    if ctx.first(Flag, post_id=post.id, user_id=user.id, status="pending") is not None:
        raise Conflict(f"@{user.username} already flagged post {post.id}", field="user_id", hint="wait for review")
    flag = ctx.create(Flag, post_id=post.id, user_id=user.id, reason=reason)
    pending = ctx.where(Flag, post_id=post.id, status="pending")
    if not post.hidden and (user.moderator or len(pending) >= HIDE_AT):
        post = ctx.update(post, hidden=True)
    return Flagged(flag=flag, post=post, pending_flags=len(pending))


@service.tool(intent="review the flags on the post", write=True, example=_example_review)
def review_flags(ctx: Ctx, post_id: PostId, moderator_id: UserId, agree: bool) -> Post:
    """Decide a post's pending flags: agree (it stays or becomes hidden) or disagree (shown, flags dismissed).

    Args:
        post_id: The flagged post.
        moderator_id: The reviewing moderator.
        agree: Whether the flags were right.
    """
    post = ctx.get(Post, post_id, field="post_id")
    mod = _mod(ctx, moderator_id)
    pending = ctx.where(Flag, post_id=post.id, status="pending")
    if not pending:
        raise RuleViolation(f"post {post.id} has no pending flags", field="post_id", hint="nothing to review")
    if mod.id == post.user_id:
        raise RuleViolation(
            "moderators do not review flags on their own posts", field="moderator_id", hint="ask another"
        )
    for flag in pending:
        ctx.update(flag, status="agreed" if agree else "disagreed", reviewed_by=mod.id)
    return ctx.update(post, hidden=agree)


@service.tool(intent="close, open, pin or unpin the topic", write=True, example=_example_status)
def set_topic_status(ctx: Ctx, topic_id: TopicId, moderator_id: UserId, action: TopicAction) -> Topic:
    """Close, open, pin or unpin a topic (moderators only).

    Args:
        topic_id: The topic.
        moderator_id: The moderator.
        action: close, open, pin or unpin.
    """
    topic = ctx.get(Topic, topic_id, field="topic_id")
    _mod(ctx, moderator_id)
    field, value = {"close": ("closed", True), "open": ("closed", False), "pin": ("pinned", True)}.get(
        action, ("pinned", False)
    )
    if getattr(topic, field) == value:
        raise Conflict(f"topic {topic.id} is already {field if value else 'not ' + field}", field="action", hint="done")
    return ctx.update(topic, **{field: value})


@service.tool(intent="accept the reply as the topic's answer", write=True, example=_example_accept)
def accept_answer(ctx: Ctx, post_id: PostId, user_id: UserId) -> Topic:
    """Accept a reply as its topic's solution, replacing any earlier one.

    Only the topic's author or a moderator accepts; the category must allow
    solutions; the first post and hidden posts cannot be the answer.

    Args:
        post_id: The reply.
        user_id: Who accepts it.
    """
    post = ctx.get(Post, post_id, field="post_id")
    user = ctx.get(User, user_id, field="user_id")
    topic = ctx.get(Topic, post.topic_id)
    if not ctx.get(Category, topic.category_id).allow_solved:
        raise RuleViolation("this category does not take accepted answers", field="post_id", hint="like it instead")
    if user.id != topic.user_id and not user.moderator:
        raise RuleViolation(
            "only the topic's author or a moderator accepts an answer", field="user_id", hint="ask the author"
        )
    if post.post_number == 1:
        raise RuleViolation("the question cannot answer itself", field="post_id", hint="accept a reply")
    if post.hidden:
        raise RuleViolation(f"post {post.id} is hidden", field="post_id", hint="accept a visible reply")
    if topic.solved_post_id == post.id:
        raise Conflict(f"post {post.id} is already the answer", field="post_id", hint="done")
    if topic.solved_post_id is not None:
        ctx.update(ctx.get(Post, topic.solved_post_id), accepted_answer=False)
    ctx.update(post, accepted_answer=True)
    return ctx.update(topic, solved_post_id=post.id)


@service.tool(intent="set the member's trust level", write=True, example=_example_trust)
def set_trust_level(ctx: Ctx, user_id: UserId, moderator_id: UserId, trust_level: TrustLevel) -> User:
    """Set a member's trust level (moderators only; nobody changes their own).

    Args:
        user_id: The member.
        moderator_id: The moderator.
        trust_level: 0 to 4.
    """
    user = ctx.get(User, user_id, field="user_id")
    mod = _mod(ctx, moderator_id)
    if mod.id == user.id:
        raise RuleViolation("nobody sets their own trust level", field="user_id", hint="ask another moderator")
    if user.trust_level == trust_level:
        raise Conflict(f"@{user.username} is already at trust level {trust_level}", field="trust_level", hint="done")
    return ctx.update(user, trust_level=trust_level)


# -- seeding ----------------------------------------------------------------------------------

THREADS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (0, "Welcome to the community forum!", ("Please read the guidelines before posting and be kind to each other.",)),
    (
        1,
        "Sync stops after the latest update",
        (
            "Since yesterday's update my data no longer syncs between devices. Anyone else?",
            "Same here. Signing out and back in again fixed it for me.",
            "Restarting the sync from settings worked, thanks everyone!",
        ),
    ),
    (
        1,
        "Cannot change the billing currency",
        (
            "Our company moved to Europe and we need invoices in euros. Where do I switch?",
            "Billing currency is set per subscription; support can migrate it for you.",
        ),
    ),
    (
        2,
        "Idea: keyboard shortcuts for every view",
        (
            "Power users would love shortcuts for moving between views quickly.",
            "Yes please, especially for the search box and the inbox.",
        ),
    ),
    (
        3,
        "Show us your automation setups",
        (
            "Share how you connected the product to the rest of your tools.",
            "We push every new order into a spreadsheet and a chat channel, works great.",
            "Check out my cheap watches at https://spam.example and https://spam.example/deals now",
        ),
    ),
    (
        1,
        "Export to CSV drops accented characters",
        ("Names like Zoë and José come out garbled in the CSV export in Excel.",),
    ),
)
"""(category, title, posts) of the seeded topics."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Four categories; staff as moderators, customers as members of every trust level; topics with replies."""
    pop = s.population
    cats = [
        s.create(Category, name="Announcements", slug="announcements", staff_only=True),
        s.create(Category, name="Support", slug="support", allow_solved=True),
        s.create(Category, name="Feature Ideas", slug="feature-ideas", min_trust_to_create=1),
        s.create(Category, name="Show and Tell", slug="show-and-tell", min_trust_to_create=2),
    ]
    mods = [_user(s, p, 4, True, n) for n, p in enumerate(pop.staff("Support", fallback=2)[:3])]
    members = [_user(s, p, (0, 1, 1, 2, 2, 3)[n % 6], False, n + 10) for n, p in enumerate(pop.consumers[:24])]
    base = s.now - dt.timedelta(days=60)
    counts: dict[str, int] = {}
    for n, (c, title, texts) in enumerate(THREADS):
        author = mods[0] if cats[c].staff_only else members[(3 * n + 3) % len(members)]
        when = base + dt.timedelta(days=7 * n)
        topic = s.create(
            Topic,
            category_id=cats[c].id,
            title=title,
            user_id=author.id,
            pinned=c == 0,
            created_at=when,
            last_posted_at=when,
        )
        made: list[Post] = []
        for k, text in enumerate(texts):
            writer = author if k in (0, 2) else members[(5 * n + k) % len(members)]
            if "spam.example" in text:
                writer = members[0]
            counts[writer.id] = counts.get(writer.id, 0) + 1
            post = s.create(
                Post,
                topic_id=topic.id,
                user_id=writer.id,
                post_number=k + 1,
                raw=text,
                reply_to_post_number=k if k else None,
                created_at=when + dt.timedelta(hours=5 * k),
            )
            fans = {m.id for m in members[n + k : n + k + (n + k) % 4 + 1] if m.id != writer.id}
            for fan in sorted(fans):
                s.create(Like, post_id=post.id, user_id=fan, created_at=post.created_at + dt.timedelta(hours=1))
            made.append(s.update(post, like_count=len(fans)))
        topic = s.update(topic, posts_count=len(made), last_posted_at=made[-1].created_at)
        if title.startswith("Sync stops"):
            made[1] = s.update(made[1], accepted_answer=True)
            s.update(topic, solved_post_id=made[1].id, closed=True)
        if "spam.example" in texts[-1]:
            for m in members[3:5]:
                s.create(Flag, post_id=made[-1].id, user_id=m.id, reason="spam")
    for u in [*mods, *members]:
        s.update(u, post_count=counts.get(u.id, 0))


def _user(s: SeedContext, person: Any, level: int, moderator: bool, n: int) -> User:
    handle = f"{person.first_name}{person.last_name[0]}{n}".lower()
    handle = re.sub(r"[^a-z0-9_.-]", "", handle)[:20]
    return s.create(
        User,
        username=handle if len(handle) >= 3 else f"user{n}",
        name=person.name,
        email=person.email,
        trust_level=level,
        moderator=moderator,
        created_at=s.now - dt.timedelta(days=300 - 5 * n),
    )
