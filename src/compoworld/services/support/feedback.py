"""Echo Board: product feedback boards, posts and their status, votes, merges, comments and the changelog.

Modeled on the Canny REST API v1 (boards, posts with status and ETA,
posts/change_status, posts/merge, votes/create and votes/delete, comments,
entries of the changelog). Customers and staff post ideas to boards; a
private board takes posts and votes from the company's own staff only. The
author's vote is counted when the post is made and each person votes once
per post; the post's score is its vote count. A post moves open →
under_review → planned → in_progress → complete, may skip ahead but not go
back (except that a closed post can be reopened), and can be closed from any
open status; complete, closed and merged posts take no votes. Merging a
duplicate moves its voters onto the target (a person who voted on both counts
once) and closes it; a merged post takes no votes, comments or status change.
Internal comments are for staff. A changelog entry links the posts it ships;
they must be in progress or complete, and publishing the entry completes them.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "feedback",
    title="Echo Board",
    category="product_feedback",
    modeled_on="Canny REST API v1 (boards, posts, posts/change_status, posts/merge, votes, comments, "
    "changelog entries)",
    description="Product feedback: boards of feature requests and bug reports, posts moving from open to "
    "planned to complete, one vote per person, merging duplicates with their votes, comments from customers "
    "and staff, and changelog entries announcing what shipped.",
)

BoardId = Annotated[str, IdOf("feedback.board")]
PostId = Annotated[str, IdOf("feedback.post")]
VoteId = Annotated[str, IdOf("feedback.vote")]
CommentId = Annotated[str, IdOf("feedback.comment")]
EntryId = Annotated[str, IdOf("feedback.changelog_entry")]
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=60)]
"""A board's URL name, e.g. feature-requests."""

PostStatus = Literal["open", "under_review", "planned", "in_progress", "complete", "closed"]
FLOW: tuple[str, ...] = ("open", "under_review", "planned", "in_progress", "complete")
"""The order a post moves through; closed is reachable from any open status."""
NO_VOTES: tuple[str, ...] = ("complete", "closed")


class Board(Created):
    """A feedback board."""

    id: BoardId
    name: Title
    """Board name."""
    url_name: Slug
    """The board's URL name."""
    is_private: bool = False
    """Whether only the company's staff see it, post and vote on it."""


class Post(Record):
    """An idea or request on a board."""

    id: PostId
    board_id: BoardId
    """The board."""
    title: Title
    """Short title."""
    details: Text = ""
    """The request in full."""
    author_email: Email
    """Who posted it."""
    author_name: PersonName
    """Their name."""
    status: PostStatus = "open"
    """open, under_review, planned, in_progress, complete or closed."""
    score: int = 0
    """Number of votes."""
    owner_email: Email | None = None
    """The staff member who owns it."""
    eta: Date | None = None
    """When it is expected to ship."""
    merged_into_id: PostId | None = None
    """The post this duplicate was merged into."""
    created_at: Annotated[DateTime, CREATED]
    """When it was posted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Vote(Created):
    """One person's vote on a post."""

    id: VoteId
    post_id: PostId
    """The post."""
    voter_email: Email
    """Who voted; once per post."""
    voter_name: PersonName
    """Their name."""


class Comment(Created):
    """A comment on a post."""

    id: CommentId
    post_id: PostId
    """The post."""
    author_email: Email
    """Who wrote it."""
    author_name: PersonName
    """Their name."""
    value: Annotated[str, StringConstraints(min_length=1, max_length=5000)]
    """The comment text."""
    internal: bool = False
    """Whether only staff see it."""


class ChangelogEntry(Record):
    """A changelog entry announcing shipped work."""

    id: EntryId
    title: Title
    """Headline."""
    details: Text = ""
    """What changed."""
    kind: Literal["new", "improved", "fixed"] = "new"
    """new, improved or fixed."""
    post_ids: tuple[PostId, ...] = ()
    """The posts it ships."""
    status: Literal["draft", "published"] = "draft"
    """draft or published."""
    published_at: DateTime | None = None
    """When it was published."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _live(ctx: Ctx, post_id: str, field: str = "post_id") -> Post:
    post = ctx.get(Post, post_id, field=field)
    if post.merged_into_id is not None:
        raise RuleViolation(
            f"post {post.id} was merged into {post.merged_into_id}",
            field=field,
            hint=f"act on post {post.merged_into_id} instead",
        )
    return post


def _may_use_board(ctx: Ctx, board_id: str, email: str, field: str) -> None:
    board = ctx.get(Board, board_id)
    if board.is_private and email not in _staff(ctx):
        raise RuleViolation(
            f"board {board.name} is private to staff; {email} cannot use it",
            field=field,
            hint="post on a public board",
        )


def _guard_post_create(ctx: Ctx, new: Any, old: Any) -> None:
    _may_use_board(ctx, new.board_id, new.author_email, "author_email")
    for other in ctx.where(Post, board_id=new.board_id, title=new.title):
        if other.id != new.id and other.merged_into_id is None:
            raise Conflict(
                f"post {other.id} on this board already has this title",
                field="title",
                hint="vote on that post instead",
            )
    ctx.create(Vote, post_id=new.id, voter_email=new.author_email, voter_name=new.author_name)
    ctx.update(new, score=1)


def _guard_post_update(ctx: Ctx, new: Any, old: Any) -> None:
    _live(ctx, old.id)
    if new.owner_email is not None and new.owner_email not in _staff(ctx):
        raise RuleViolation(
            f"{new.owner_email} is not on the company's staff", field="owner_email", hint="assign a staff member"
        )


def _guard_vote_create(ctx: Ctx, new: Any, old: Any) -> None:
    post = _live(ctx, new.post_id)
    if post.status in NO_VOTES:
        raise RuleViolation(
            f"post {post.id} is {post.status} and takes no votes", field="post_id", hint="vote on an open post"
        )
    _may_use_board(ctx, post.board_id, new.voter_email, "voter_email")
    for other in ctx.where(Vote, post_id=post.id, voter_email=new.voter_email):
        if other.id != new.id:
            raise Conflict(
                f"{new.voter_email} already voted on post {post.id}", field="voter_email", hint="one vote per person"
            )
    ctx.update(post, score=post.score + 1)


def _guard_vote_delete(ctx: Ctx, new: Any, old: Any) -> None:
    post = _live(ctx, old.post_id, field="vote_id")
    if post.status in NO_VOTES:
        raise RuleViolation(
            f"post {post.id} is {post.status}; its votes are final", field="vote_id", hint="nothing to change"
        )
    ctx.update(post, score=max(post.score - 1, 0))


def _guard_comment(ctx: Ctx, new: Any, old: Any) -> None:
    post = _live(ctx, new.post_id)
    _may_use_board(ctx, post.board_id, new.author_email, "author_email")
    if new.internal and new.author_email not in _staff(ctx):
        raise RuleViolation("only staff write internal comments", field="internal", hint="post it as a public comment")


def _guard_entry_create(ctx: Ctx, new: Any, old: Any) -> None:
    if len(set(new.post_ids)) != len(new.post_ids):
        raise RuleViolation("a post is linked twice", field="post_ids", hint="list each post once")
    for pid in new.post_ids:
        post = _live(ctx, pid, field="post_ids")
        if post.status not in ("in_progress", "complete"):
            raise RuleViolation(
                f"post {pid} is {post.status}; a changelog ships posts in progress or complete",
                field="post_ids",
                hint="move it to in_progress with feedback__change_post_status first",
            )


def _guard_entry_publish(ctx: Ctx, new: Any, old: Any) -> None:
    if not old.post_ids and not old.details.strip():
        raise RuleViolation(
            f"changelog entry {old.id} is empty", field="changelog_entry_id", hint="describe what changed first"
        )
    for pid in old.post_ids:
        post = ctx.get(Post, pid)
        if post.status != "complete":
            ctx.update(post, status="complete")
    ctx.update(new, published_at=ctx.now())


boards = service.resource(
    Board,
    name="board",
    plural="boards",
    prefix="brd",
    create=False,
    get=False,
    filters=("url_name", "is_private"),
    search=("name",),
    delete=False,
)
posts = service.resource(
    Post,
    name="post",
    plural="posts",
    prefix="post",
    create=("board_id", "title", "details", "author_email", "author_name"),
    filters=("board_id", "status", "author_email", "owner_email", "merged_into_id"),
    search=("title", "details"),
    update=("title", "details", "owner_email", "eta"),
    delete=False,
    guard_create=_guard_post_create,
    guard_update=_guard_post_update,
)
votes = service.resource(
    Vote,
    name="vote",
    plural="votes",
    prefix="vote",
    create=("post_id", "voter_email", "voter_name"),
    get=False,
    filters=("post_id", "voter_email"),
    guard_create=_guard_vote_create,
    guard_delete=_guard_vote_delete,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=("post_id", "author_email", "author_name", "value", "internal"),
    get=False,
    filters=("post_id", "author_email", "internal"),
    search=("value",),
    delete=False,
    guard_create=_guard_comment,
)
entries = service.resource(
    ChangelogEntry,
    name="changelog_entry",
    plural="changelog_entries",
    prefix="chg",
    create=("title", "details", "kind", "post_ids"),
    get=False,
    filters=("status", "kind"),
    search=("title", "details"),
    delete=False,
    transitions={
        "publish": Transition(
            "status",
            ("draft",),
            "published",
            "publish the changelog entry",
            description="Publish a draft changelog entry: every post it links is marked complete.",
        )
    },
    guard_create=_guard_entry_create,
    guard_update=_guard_entry_publish,
    title="changelog entry",
)


# -- examples ---------------------------------------------------------------------------------


def _example_status(ctx: Ctx) -> dict[str, Any] | None:
    for post in ctx.where(Post, status="open"):
        if post.merged_into_id is None:
            return {"post_id": post.id, "status": "planned", "changer_email": _first_staff(ctx)}
    return None


def _first_staff(ctx: Ctx) -> str:
    return ctx.population.staff("Engineering", fallback=1)[0].email


def _example_merge(ctx: Ctx) -> dict[str, Any] | None:
    live = [p for p in ctx.scan(Post) if p.merged_into_id is None and p.status not in NO_VOTES]
    for a in live:
        for b in live:
            if a.id != b.id and a.board_id == b.board_id:
                return {"post_id": a.id, "into_post_id": b.id}
    return None


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="change the post's status", write=True, example=_example_status)
def change_post_status(ctx: Ctx, post_id: PostId, status: PostStatus, changer_email: Email, comment: Text = "") -> Post:
    """Move a post along open → under_review → planned → in_progress → complete, or close it.

    A post may skip ahead but not go back; any open status can be closed; a
    closed post can only be reopened (open); complete is final. The changer is
    a staff member; a comment is posted on the post as theirs.

    Args:
        post_id: The post.
        status: The new status.
        changer_email: The staff member making the change.
        comment: A note to the voters.
    """
    post = _live(ctx, post_id)
    if changer_email not in _staff(ctx):
        raise RuleViolation(
            f"{changer_email} is not on the company's staff", field="changer_email", hint="staff change statuses"
        )
    if status == post.status:
        raise Conflict(f"post {post.id} is already {status}", field="status", hint="nothing to change")
    if post.status == "complete":
        raise RuleViolation(f"post {post.id} is complete", field="post_id", hint="post a new request for more work")
    if post.status == "closed" and status != "open":
        raise RuleViolation(f"post {post.id} is closed", field="status", hint="reopen it (status open) first")
    if post.status != "closed" and status != "closed" and FLOW.index(status) < FLOW.index(post.status):
        raise RuleViolation(
            f"post {post.id} cannot move back from {post.status} to {status}",
            field="status",
            hint=f"pick a later status than {post.status}, or close it",
        )
    if comment.strip():
        author = next(p for p in ctx.population.employees if p.email == changer_email)
        ctx.create(Comment, post_id=post.id, author_email=changer_email, author_name=author.name, value=comment)
    return ctx.update(post, status=status)


class Merge(BaseModel):
    """What merging a duplicate did."""

    merged: Post = Field(description="The duplicate, now closed and merged.")
    target: Post = Field(description="The post it was merged into, with its new score.")
    votes_moved: int = Field(description="Votes moved onto the target.")
    duplicates_dropped: int = Field(description="Votes dropped because the person had voted on the target too.")


@service.tool(intent="merge the duplicate post into another", write=True, destructive=True, example=_example_merge)
def merge_post(ctx: Ctx, post_id: PostId, into_post_id: PostId) -> Merge:
    """Merge a duplicate post into another on the same board, moving its votes.

    Each voter of the duplicate gets a vote on the target unless they already
    have one; the duplicate is closed and points at the target. Neither may be
    merged already; the target must still take votes.

    Args:
        post_id: The duplicate.
        into_post_id: The post to keep.
    """
    dup = _live(ctx, post_id)
    target = _live(ctx, into_post_id, field="into_post_id")
    if dup.id == target.id:
        raise RuleViolation("a post cannot be merged into itself", field="into_post_id", hint="pick another post")
    if dup.board_id != target.board_id:
        raise RuleViolation(
            "posts of different boards cannot be merged", field="into_post_id", hint="merge within one board"
        )
    if target.status in NO_VOTES:
        raise RuleViolation(
            f"post {target.id} is {target.status} and takes no votes",
            field="into_post_id",
            hint="merge into an open post",
        )
    have = {v.voter_email for v in ctx.where(Vote, post_id=target.id)}
    moved = dropped = 0
    for vote in ctx.where(Vote, post_id=dup.id):
        if vote.voter_email in have:
            dropped += 1
            ctx.delete(vote)
        else:
            moved += 1
            have.add(vote.voter_email)
            ctx.update(vote, post_id=target.id)
    target = ctx.update(target, score=len(have))
    dup = ctx.update(dup, merged_into_id=target.id, status="closed", score=0)
    return Merge(merged=dup, target=target, votes_moved=moved, duplicates_dropped=dropped)


class Ranking(BaseModel):
    """A board's open posts by votes."""

    board_id: BoardId = Field(description="The board.")
    posts: list[Post] = Field(description="Open (not complete, closed or merged) posts, most votes first.")
    total_votes: int = Field(description="Votes on those posts.")


@service.tool(intent="rank the board's open requests by votes")
def top_posts(ctx: Ctx, board_id: BoardId, limit: int = 10) -> Ranking:
    """The board's open posts with the most votes, ties by age (oldest first), as the roadmap view sorts them.

    Args:
        board_id: The board.
        limit: How many posts, 1 to 50.
    """
    if not 1 <= limit <= 50:
        raise RuleViolation("limit must be 1 to 50", field="limit", hint="ask for at most 50 posts")
    live = [p for p in ctx.where(Post, board_id=board_id) if p.merged_into_id is None and p.status not in NO_VOTES]
    live.sort(key=lambda p: (-p.score, p.created_at, p.id))
    return Ranking(board_id=board_id, posts=live[:limit], total_votes=sum(p.score for p in live))


# -- seeding ----------------------------------------------------------------------------------

IDEAS: tuple[tuple[int, str, PostStatus], ...] = (
    (0, "Dark mode for the dashboard", "planned"),
    (0, "Export reports to CSV", "complete"),
    (0, "Single sign-on with Okta", "in_progress"),
    (0, "Bulk edit records", "under_review"),
    (0, "Mobile app for Android", "open"),
    (0, "Two-factor authentication by SMS", "closed"),
    (0, "Custom fields on contacts", "open"),
    (0, "Slack notifications for new replies", "complete"),
    (1, "Search ignores accented names", "in_progress"),
    (1, "Invoice PDF cuts off long addresses", "open"),
    (1, "Timezone wrong in weekly digest", "planned"),
    (1, "Password reset e-mail arrives late", "complete"),
    (2, "Quarterly hackathon theme: AI assistants", "under_review"),
    (2, "Replace the onboarding checklist", "open"),
)
"""(board, title, status) of the seeded posts."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Two public boards and a private one; posts by customers and staff, votes, comments, a changelog."""
    pop = s.population
    staff = list(pop.employees)
    product = pop.staff("Engineering", "Support", fallback=3)
    public = list(pop.contacts) + list(pop.consumers)
    made = [
        s.create(Board, name="Feature Requests", url_name="feature-requests"),
        s.create(Board, name="Bug Reports", url_name="bug-reports"),
        s.create(Board, name="Internal Ideas", url_name="internal-ideas", is_private=True),
    ]
    by_status: dict[str, list[Post]] = {}
    for n, (b, title, status) in enumerate(IDEAS):
        crowd = staff if made[b].is_private else public
        author = crowd[(n * 7) % len(crowd)]
        created = s.now.replace(hour=9) - _days(120 - 6 * n)
        post = s.create(
            Post,
            board_id=made[b].id,
            title=title,
            details=f"{title}. Requested by {author.first_name}.",
            author_email=author.email,
            author_name=author.name,
            status=status,
            owner_email=product[n % len(product)].email if status != "open" else None,
            eta=(s.now + _days(30 + 10 * n)).date() if status in ("planned", "in_progress") else None,
            created_at=created,
            updated_at=created,
        )
        voters = [author] + [crowd[(n * 7 + 3 * k + 1) % len(crowd)] for k in range(2 + (n * 5) % 9)]
        seen: set[str] = set()
        for k, person in enumerate(voters):
            if person.email not in seen:
                seen.add(person.email)
                s.create(
                    Vote,
                    post_id=post.id,
                    voter_email=person.email,
                    voter_name=person.name,
                    created_at=created + _days(k),
                )
        post = s.update(post, score=len(seen))
        by_status.setdefault(status, []).append(post)
        if n % 2 == 0:
            s.create(
                Comment,
                post_id=post.id,
                author_email=voters[-1].email,
                author_name=voters[-1].name,
                value="We need this too, it would save us hours every week.",
                created_at=created + _days(2),
            )
        if status != "open":
            rep = product[n % len(product)]
            s.create(
                Comment,
                post_id=post.id,
                author_email=rep.email,
                author_name=rep.name,
                value=f"Status: {status.replace('_', ' ')}.",
                internal=n % 3 == 0,
                created_at=created + _days(5),
            )
    _seed_duplicate(s, made[0], public)
    for post in by_status["complete"]:
        s.create(
            ChangelogEntry,
            title=f"Shipped: {post.title}",
            details=f"{post.title} is now available to every account.",
            kind="fixed" if post.board_id == made[1].id else "new",
            post_ids=(post.id,),
            status="published",
            published_at=s.now - _days(10),
            created_at=s.now - _days(12),
        )
    s.create(
        ChangelogEntry,
        title="Coming soon: single sign-on",
        details="Sign in with your company's identity provider.",
        kind="new",
        post_ids=tuple(p.id for p in by_status["in_progress"][:1]),
        created_at=s.now - _days(1),
    )


def _seed_duplicate(s: SeedContext, board: Board, public: list[Any]) -> None:
    """An open duplicate of the dark-mode request, not merged yet, with one shared voter."""
    author = public[-1]
    post = s.create(
        Post,
        board_id=board.id,
        title="Night theme please",
        details="The white screen is too bright in the evening.",
        author_email=author.email,
        author_name=author.name,
        created_at=s.now - _days(20),
        updated_at=s.now - _days(20),
    )
    voters = [author, public[-2], public[0]]
    for person in voters:
        s.create(Vote, post_id=post.id, voter_email=person.email, voter_name=person.name, created_at=s.now - _days(19))
    s.update(post, score=len(voters))


def _days(n: int) -> dt.timedelta:
    return dt.timedelta(days=n)
