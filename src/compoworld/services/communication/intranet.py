"""Hearth: the employee intranet, with news posts to audiences, pages, required reads and campaigns.

Modeled on the Staffbase API (and Simpplr's required reads): audiences (user groups) defined by department,
news posts that go draft → scheduled → published → archived to one or more audiences, optionally as a
required read with an acknowledgement due date; employees outside a post's audiences cannot read,
acknowledge or comment on it; reads and acknowledgements are recorded once per employee; comments only
while a published post allows them; campaigns that group posts around a goal between two dates
(planned → active → ended); pages for evergreen content; and post analytics: reach, reads and the
acknowledgement rate with who is still missing.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "intranet",
    title="Hearth",
    category="intranet",
    modeled_on="Staffbase API (users/groups, news channels and posts, pages, comments, campaigns, "
    "analytics) with Simpplr-style required reads and acknowledgements",
    description="The company's employee intranet: internal communications publish news to audiences by "
    "department, mark important posts as required reads that employees must acknowledge by a date, run "
    "campaigns, keep evergreen pages, and follow reach, reads and acknowledgements.",
)

AudienceId = Annotated[str, IdOf("intranet.audience")]
PostId = Annotated[str, IdOf("intranet.post")]
PageId = Annotated[str, IdOf("intranet.page")]
CampaignId = Annotated[str, IdOf("intranet.campaign")]
ReadId = Annotated[str, IdOf("intranet.read")]
CommentId = Annotated[str, IdOf("intranet.comment")]

PostStatus = Literal["draft", "scheduled", "published", "archived"]
CampaignStatus = Literal["planned", "active", "ended"]


class Audience(Record):
    """A group of employees posts can target, by department (none: everyone)."""

    id: AudienceId
    name: Title
    """Its name (unique)."""
    departments: tuple[Title, ...] = ()
    """The departments in it; empty: every employee."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Campaign(Record):
    """A communication campaign grouping posts around a goal."""

    id: CampaignId
    name: Title
    """Its name."""
    goal: Text = ""
    """What it should achieve."""
    owner_email: Email
    """The employee running it."""
    starts_on: Date
    """Its first day."""
    ends_on: Date
    """Its last day."""
    status: CampaignStatus = "planned"
    """planned, active or ended."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Post(Record):
    """A news post."""

    id: PostId
    title: Title
    """Its headline."""
    body: Text
    """Its content."""
    author_email: Email
    """The employee who wrote it."""
    audience_ids: tuple[AudienceId, ...]
    """Who it is for."""
    campaign_id: CampaignId | None = None
    """The campaign it belongs to."""
    status: PostStatus = "draft"
    """draft, scheduled, published or archived."""
    scheduled_for: DateTime | None = None
    """When a scheduled post goes out."""
    published_at: DateTime | None = None
    """When it went out."""
    required_read: bool = False
    """Whether its audience must acknowledge it."""
    acknowledge_by: Date | None = None
    """The acknowledgement due date of a required read."""
    comments_enabled: bool = True
    """Whether readers may comment."""
    pinned: bool = False
    """Whether it stays on top of the feed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was drafted."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Read(Record):
    """An employee's read of a post and, for required reads, their acknowledgement."""

    id: ReadId
    post_id: PostId
    """The post."""
    employee_email: Email
    """The reader."""
    read_at: Annotated[DateTime, CREATED]
    """When they read it."""
    acknowledged_at: DateTime | None = None
    """When they acknowledged it (required reads)."""


class Comment(Record):
    """A comment on a post."""

    id: CommentId
    post_id: PostId
    """The post."""
    author_email: Email
    """The employee commenting."""
    body: Text
    """The comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Page(Record):
    """An evergreen intranet page."""

    id: PageId
    title: Title
    """Its title (unique)."""
    body: Text
    """Its content."""
    owner_email: Email
    """The employee who maintains it."""
    audience_id: AudienceId | None = None
    """Who may see it (none: everyone)."""
    published: bool = False
    """Whether it is live."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PostAnalytics(Value):
    """A post's reach and engagement."""

    post_id: PostId
    """The post."""
    reach: int
    """Employees in its audiences."""
    reads: int
    """Employees who read it."""
    acknowledged: int
    """Employees who acknowledged it."""
    acknowledgement_rate: float
    """acknowledged / reach (0-1; 0 for posts that are not required reads)."""
    comments: int
    """Comments on it."""
    missing_acknowledgements: list[Email]
    """Audience members who have not acknowledged a required read."""
    overdue: bool
    """Whether the acknowledgement date has passed with some missing."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _reach(ctx: Ctx, audience_ids: tuple[str, ...]) -> list[str]:
    depts: set[str] = set()
    everyone = False
    for aid in audience_ids:
        a = ctx.get(Audience, aid, field="audience_ids")
        everyone = everyone or not a.departments
        depts.update(a.departments)
    return [p.email for p in ctx.population.employees if everyone or p.department in depts]


def _in_audience(ctx: Ctx, post: Post, email: str, field: str) -> None:
    _staff(ctx, email, field)
    if post.status != "published":
        raise RuleViolation(f"post {post.id} is {post.status}", field="post_id", hint="only published posts are read")
    if email not in _reach(ctx, post.audience_ids):
        raise RuleViolation(
            f"{email} is not in the audience of post {post.id}", field=field, hint="pick someone in its audiences"
        )


def _guard_audience(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.name != old.name:
        other = next((r for r in ctx.where(Audience, name=new.name) if r.id != new.id), None)
        if other is not None and other.id != new.id:
            raise Conflict(f"audience {other.id} is already named {new.name!r}", field="name", hint="pick another")
    known = {p.department for p in ctx.population.employees if p.department}
    for d in new.departments:
        if d not in known:
            raise RuleViolation(f"no department {d!r}", field="departments", hint=f"use one of {sorted(known)}")


def _guard_audience_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for p in ctx.where(Post):
        if old.id in p.audience_ids and p.status in ("scheduled", "published"):
            raise RuleViolation(f"post {p.id} targets it", field="audience_id", hint="archive the post first")


def _guard_post(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _staff(ctx, new.author_email, "author_email")
    if not new.audience_ids:
        raise RuleViolation("a post needs an audience", field="audience_ids", hint="list audience ids")
    _reach(ctx, new.audience_ids)
    if new.required_read and new.acknowledge_by is None:
        raise RuleViolation("a required read needs acknowledge_by", field="acknowledge_by", hint="give a due date")
    if new.campaign_id is not None:
        ctx.get(Campaign, new.campaign_id, field="campaign_id")
    if old is not None and old.status == "archived":
        raise RuleViolation(f"post {new.id} is archived", field="post_id", hint="archived posts are read-only")


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _staff(ctx, new.owner_email, "owner_email")
    if new.ends_on < new.starts_on:
        raise RuleViolation("ends_on is before starts_on", field="ends_on", hint="end on or after the start")


def _guard_page(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _staff(ctx, new.owner_email, "owner_email")
    if old is None or new.title != old.title:
        other = next((r for r in ctx.where(Page, title=new.title) if r.id != new.id), None)
        if other is not None and other.id != new.id:
            raise Conflict(f"page {other.id} is already titled {new.title!r}", field="title", hint="pick another")
    if new.audience_id is not None:
        ctx.get(Audience, new.audience_id, field="audience_id")


audiences = service.resource(
    Audience,
    name="audience",
    plural="audiences",
    prefix="aud",
    create=("name", "departments"),
    filters=(),
    search=("name",),
    update=("name", "departments"),
    guard_create=_guard_audience,
    guard_update=_guard_audience,
    guard_delete=_guard_audience_delete,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="cmp",
    create=("name", "goal", "owner_email", "starts_on", "ends_on"),
    filters=("status", "owner_email"),
    search=("name", "goal"),
    update=("goal", "ends_on"),
    delete=False,
    transitions={
        "launch": Transition("status", ("planned",), "active", "launch the campaign"),
        "end": Transition("status", ("active",), "ended", "end the campaign"),
    },
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
)
posts = service.resource(
    Post,
    name="post",
    plural="posts",
    prefix="post",
    create=("title", "body", "author_email", "audience_ids", "campaign_id", "required_read", "acknowledge_by"),
    filters=("author_email", "status", "campaign_id", "required_read", "pinned"),
    search=("title", "body"),
    update=("title", "body", "audience_ids", "campaign_id", "comments_enabled", "pinned", "acknowledge_by"),
    delete=False,
    transitions={
        "archive": Transition("status", ("published",), "archived", "archive the post"),
    },
    guard_create=_guard_post,
    guard_update=_guard_post,
)
reads = service.resource(
    Read,
    name="read",
    plural="reads",
    prefix="read",
    create=False,
    get=False,
    filters=("post_id", "employee_email"),
    delete=False,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=False,
    filters=("post_id", "author_email"),
    search=("body",),
    delete=True,
)
pages = service.resource(
    Page,
    name="page",
    plural="pages",
    prefix="page",
    create=("title", "body", "owner_email", "audience_id", "published"),
    filters=("owner_email", "audience_id", "published"),
    search=("title", "body"),
    update=("title", "body", "audience_id", "published"),
    guard_create=_guard_page,
    guard_update=_guard_page,
)


# -- domain tools -----------------------------------------------------------------------------


def _sendable(ctx: Ctx, post_id: str) -> Post:
    post = ctx.get(Post, post_id, field="post_id")
    if post.status not in ("draft", "scheduled"):
        raise RuleViolation(
            f"post {post.id} is {post.status}", field="post_id", hint="only drafts and scheduled posts go out"
        )
    if post.required_read and post.acknowledge_by is not None and post.acknowledge_by <= ctx.today():
        raise RuleViolation(
            "the acknowledgement date has passed", field="post_id", hint="move acknowledge_by with update_post"
        )
    return post


@service.tool(
    intent="publish the post",
    write=True,
    example=first_example(Post, "post_id", where={"status": "draft", "required_read": False}),
)
def publish_post(ctx: Ctx, post_id: PostId) -> Post:
    """Publish a draft or scheduled post to its audiences now.

    Args:
        post_id: The post.
    """
    post = _sendable(ctx, post_id)
    return ctx.update(post, status="published", published_at=ctx.now(), scheduled_for=None)


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Post, status="draft", required_read=False)
    return None if p is None else {"post_id": p.id, "send_at": (ctx.now() + dt.timedelta(days=1)).isoformat()}


@service.tool(intent="schedule the post", write=True, example=_example_schedule)
def schedule_post(ctx: Ctx, post_id: PostId, send_at: DateTime) -> Post:
    """Schedule a draft (or reschedule a scheduled post) to go out later.

    Args:
        post_id: The post.
        send_at: When it goes out (in the future, before any acknowledgement date).
    """
    post = _sendable(ctx, post_id)
    if send_at <= ctx.now():
        raise RuleViolation("send_at is not in the future", field="send_at", hint="pick a later time")
    if post.acknowledge_by is not None and send_at.date() >= post.acknowledge_by:
        raise RuleViolation("it would go out after its acknowledgement date", field="send_at", hint="send it earlier")
    return ctx.update(post, status="scheduled", scheduled_for=send_at)


def _reader(ctx: Ctx, post: Post) -> str | None:
    done = {r.employee_email for r in ctx.where(Read, post_id=post.id)}
    return next((e for e in _reach(ctx, post.audience_ids) if e not in done), None)


def _example_read(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Post, status="published"):
        who = _reader(ctx, p)
        if who is not None:
            return {"post_id": p.id, "employee_email": who}
    return None


@service.tool(intent="mark the post read", write=True, example=_example_read)
def mark_read(ctx: Ctx, post_id: PostId, employee_email: Email) -> Read:
    """Record that an employee in a published post's audience read it (once).

    Args:
        post_id: The post.
        employee_email: The reader.
    """
    post = ctx.get(Post, post_id, field="post_id")
    _in_audience(ctx, post, employee_email, "employee_email")
    if ctx.first(Read, post_id=post.id, employee_email=employee_email) is not None:
        raise Conflict(f"{employee_email} already read it", field="employee_email", hint="nothing to do")
    return ctx.create(Read, post_id=post.id, employee_email=employee_email)


def _example_ack(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Post, status="published", required_read=True):
        acked = {r.employee_email for r in ctx.where(Read, post_id=p.id) if r.acknowledged_at}
        who = next((e for e in _reach(ctx, p.audience_ids) if e not in acked), None)
        if who is not None:
            return {"post_id": p.id, "employee_email": who}
    return None


@service.tool(intent="acknowledge the required read", write=True, example=_example_ack)
def acknowledge_post(ctx: Ctx, post_id: PostId, employee_email: Email) -> Read:
    """An employee in the audience acknowledges a published required read (reading it if not yet), once.

    Args:
        post_id: The required-read post.
        employee_email: The employee.
    """
    post = ctx.get(Post, post_id, field="post_id")
    if not post.required_read:
        raise RuleViolation(f"post {post.id} is not a required read", field="post_id", hint="just mark it read")
    _in_audience(ctx, post, employee_email, "employee_email")
    read = ctx.first(Read, post_id=post.id, employee_email=employee_email)
    if read is None:
        read = ctx.create(Read, post_id=post.id, employee_email=employee_email)
    elif read.acknowledged_at is not None:
        raise Conflict(f"{employee_email} already acknowledged it", field="employee_email", hint="nothing to do")
    return ctx.update(read, acknowledged_at=ctx.now())


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Post, status="published", comments_enabled=True)
    if p is None:
        return None
    return {"post_id": p.id, "author_email": _reach(ctx, p.audience_ids)[0], "body": "Thanks for sharing!"}


@service.tool(intent="comment on the post", write=True, example=_example_comment)
def add_comment(ctx: Ctx, post_id: PostId, author_email: Email, body: Text) -> Comment:
    """Comment on a published post that allows comments, as someone in its audience.

    Args:
        post_id: The post.
        author_email: The employee commenting.
        body: The comment.
    """
    post = ctx.get(Post, post_id, field="post_id")
    _in_audience(ctx, post, author_email, "author_email")
    if not post.comments_enabled:
        raise RuleViolation("comments are off on this post", field="post_id", hint="the author can turn them on")
    if not body.strip():
        raise RuleViolation("the comment is empty", field="body", hint="write something")
    return ctx.create(Comment, post_id=post.id, author_email=author_email, body=body.strip())


@service.tool(intent="show the post's analytics", example=first_example(Post, "post_id", where={"status": "published"}))
def post_analytics(ctx: Ctx, post_id: PostId) -> PostAnalytics:
    """A post's reach, reads, acknowledgements, comments and who still has to acknowledge.

    Args:
        post_id: The post.
    """
    post = ctx.get(Post, post_id, field="post_id")
    reach = _reach(ctx, post.audience_ids)
    rs = ctx.where(Read, post_id=post.id)
    acked = {r.employee_email for r in rs if r.acknowledged_at is not None}
    missing = [e for e in reach if e not in acked] if post.required_read else []
    return PostAnalytics(
        post_id=post.id,
        reach=len(reach),
        reads=len(rs),
        acknowledged=len(acked),
        acknowledgement_rate=round(len(acked) / len(reach), 4) if post.required_read and reach else 0.0,
        comments=len(ctx.where(Comment, post_id=post.id)),
        missing_acknowledgements=missing,
        overdue=bool(missing) and post.acknowledge_by is not None and post.acknowledge_by < ctx.today(),
    )


# -- seed -------------------------------------------------------------------------------------

NEWS: tuple[tuple[str, str, bool, PostStatus], ...] = (
    ("Welcome to our new intranet", "Everything you need, in one place.", False, "published"),
    ("Updated code of conduct", "Please read and acknowledge the updated code of conduct.", True, "published"),
    ("Security training is due", "Complete the annual security awareness training.", True, "published"),
    ("Office closed on Friday", "The office is closed for maintenance this Friday.", False, "archived"),
    ("Quarterly town hall", "Join the town hall next week for results and Q&A.", False, "scheduled"),
    ("New expense policy", "Draft of the updated travel and expense policy.", True, "draft"),
    ("Team spotlight", "Meet the team behind our latest launch.", False, "draft"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Audiences by department, a campaign, posts in every status with reads and acknowledgements, pages."""
    pop = s.population
    emps = list(pop.employees)
    depts = sorted({p.department for p in emps if p.department})
    everyone = s.create(Audience, name="All employees", created_at=s.ago(days=400))
    groups = [s.create(Audience, name=f"{d} team", departments=(d,), created_at=s.ago(days=300)) for d in depts[:4]]
    comms = pop.staff("Marketing", "People", "HR", fallback=2)
    camp = s.create(
        Campaign,
        name="Compliance month",
        goal="Every employee acknowledges the updated policies.",
        owner_email=comms[0].email,
        starts_on=(s.now - dt.timedelta(days=10)).date(),
        ends_on=(s.now + dt.timedelta(days=20)).date(),
        status="active",
        created_at=s.ago(days=15),
    )
    s.create(
        Campaign,
        name="Wellbeing week",
        goal="Promote the new wellbeing benefits.",
        owner_email=comms[-1].email,
        starts_on=(s.now + dt.timedelta(days=30)).date(),
        ends_on=(s.now + dt.timedelta(days=37)).date(),
        created_at=s.ago(days=2),
    )
    for k, (title, body, required, status) in enumerate(NEWS):
        aud = (everyone.id,) if k % 3 != 2 or not groups else (groups[k % len(groups)].id,)
        published = s.ago(days=20 - 2 * k) if status in ("published", "archived") else None
        post = s.create(
            Post,
            title=title,
            body=body,
            author_email=comms[k % len(comms)].email,
            audience_ids=aud,
            campaign_id=camp.id if required else None,
            status=status,
            scheduled_for=s.now + dt.timedelta(days=3) if status == "scheduled" else None,
            published_at=published,
            required_read=required,
            acknowledge_by=(s.now + dt.timedelta(days=5 if k != 2 else -1)).date() if required else None,
            pinned=k == 1,
            created_at=s.ago(days=25 - 2 * k),
            updated_at=published or s.ago(days=25 - 2 * k),
        )
        if published is None:
            continue
        depts_in = set(groups[k % len(groups)].departments) if aud != (everyone.id,) else None
        audience = [p.email for p in emps if depts_in is None or p.department in depts_in]
        for j, who in enumerate(audience[: 2 * len(audience) // 3]):
            s.create(
                Read,
                post_id=post.id,
                employee_email=who,
                read_at=published + dt.timedelta(hours=j + 1),
                acknowledged_at=published + dt.timedelta(hours=j + 2) if required and j % 2 == 0 else None,
            )
        if audience:
            s.create(
                Comment,
                post_id=post.id,
                author_email=audience[-1],
                body="Thanks for the update!",
                created_at=published + dt.timedelta(hours=3),
            )
    for k, (title, body) in enumerate(
        (
            ("IT help and equipment", "How to get a laptop, reset a password and reach IT."),
            ("Benefits overview", "Health, pension and leave benefits at a glance."),
            ("Office locations", "Addresses, opening hours and parking."),
        )
    ):
        s.create(
            Page,
            title=title,
            body=body,
            owner_email=comms[k % len(comms)].email,
            published=k != 2,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=30),
        )
