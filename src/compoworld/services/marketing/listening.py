"""Earshot: social listening for the company's brand: queries, mentions, sentiment, tags, alerts and reports.

Modeled on the Brandwatch Consumer Research API: queries (a Boolean search
string with languages, active or paused) that collect mentions from X,
Reddit, news, blogs, forums, Instagram and review sites; mentions with
author, reach and a sentiment (positive, neutral, negative) an analyst can
correct, tags applied to mentions, authors with their follower counts,
alerts on a query (a volume spike, negative sentiment share or a keyword)
sent to staff recipients, and reports over a date range of queries that are
drafted then sent. A query string needs balanced parentheses and quotes and
no dangling Boolean operator; names of queries and tags are unique; deleting
a tag takes it off every mention; paused queries collect nothing new and
their alerts do not fire.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, Language, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "listening",
    title="Earshot",
    category="social_listening",
    modeled_on="Brandwatch Consumer Research API (queries with Boolean search strings, mentions with sentiment "
    "and tags, authors, alerts, reports)",
    description="Social listening for the company's brand and products: Boolean search queries, the mentions "
    "they collect across social networks, news and reviews with sentiment and reach, tags analysts apply, "
    "alerts to staff on spikes and negative sentiment, and reports.",
)

QueryId = Annotated[str, IdOf("listening.query")]
MentionId = Annotated[str, IdOf("listening.mention")]
AuthorId = Annotated[str, IdOf("listening.author")]
TagId = Annotated[str, IdOf("listening.tag")]
AlertId = Annotated[str, IdOf("listening.alert")]
ReportId = Annotated[str, IdOf("listening.report")]

Source = Literal["x", "reddit", "news", "blog", "forum", "instagram", "reviews"]
Sentiment = Literal["positive", "neutral", "negative"]
AlertKind = Literal["volume_spike", "negative_share", "keyword"]
TagName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 _-]{0,39}$")]
"""A tag name."""
Handle = Annotated[str, StringConstraints(pattern=r"^@?[A-Za-z0-9_.]{2,40}$")]
"""An author handle."""


class Query(Timestamped):
    """A Boolean search query that collects mentions."""

    id: QueryId
    name: Title
    """Its name (unique)."""
    search: Annotated[str, StringConstraints(min_length=1, max_length=4096)]
    """The Boolean search string."""
    languages: tuple[Language, ...] = ("en",)
    """Languages collected."""
    owner_email: Email
    """The analyst who owns it."""
    status: Literal["active", "paused"] = "active"
    """active or paused."""


class Author(Timestamped):
    """Someone whose posts were collected."""

    id: AuthorId
    handle: Handle
    """Their handle on the source."""
    name: PersonName
    """Display name."""
    source: Source
    """Where they post."""
    followers: Annotated[int, Field(ge=0)] = 0
    """Follower count."""


class Mention(Timestamped):
    """A post, article or review that matched a query."""

    id: MentionId
    query_id: QueryId
    """The query that found it."""
    author_id: AuthorId
    """Who wrote it."""
    source: Source
    """Where."""
    snippet: Text
    """Its text."""
    url: Url
    """Link."""
    sentiment: Sentiment = "neutral"
    """positive, neutral or negative."""
    reach: Annotated[int, Field(ge=0)] = 0
    """Estimated reach."""
    tags: tuple[str, ...] = ()
    """Tag names applied."""
    checked: bool = False
    """Whether an analyst reviewed it."""
    published_at: DateTime
    """When it was published."""


class Tag(Timestamped):
    """A tag analysts apply to mentions."""

    id: TagId
    name: TagName
    """Unique name."""
    color: Literal["red", "orange", "yellow", "green", "blue", "purple", "grey"] = "blue"
    """Display color."""


class Alert(Timestamped):
    """A notification rule on a query."""

    id: AlertId
    query_id: QueryId
    """The query watched."""
    name: Title
    """Its name."""
    kind: AlertKind
    """volume_spike, negative_share or keyword."""
    threshold: Annotated[float, Field(ge=0)] = 0
    """Mentions per hour (volume_spike) or percent negative (negative_share)."""
    keyword: str = ""
    """The word watched (keyword alerts)."""
    recipients: tuple[Email, ...]
    """Staff who get it."""
    status: Literal["active", "paused"] = "active"
    """active or paused."""
    last_fired_at: DateTime | None = None
    """When it last fired."""


class Report(Timestamped):
    """A report over some queries and dates."""

    id: ReportId
    name: Title
    """Its name."""
    query_ids: tuple[QueryId, ...]
    """Queries covered."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day."""
    recipients: tuple[Email, ...] = ()
    """Who it is sent to."""
    status: Literal["draft", "sent"] = "draft"
    """draft or sent."""
    sent_at: DateTime | None = None
    """When it was sent."""


class QuerySummary(Value):
    """A query's volume and sentiment over a period."""

    query_id: QueryId
    """The query."""
    mentions: int
    """Mentions found."""
    by_sentiment: dict[str, int]
    """Mentions per sentiment."""
    by_source: dict[str, int]
    """Mentions per source."""
    net_sentiment: int
    """Percent positive minus percent negative."""
    total_reach: int
    """Summed reach."""
    top_author_ids: list[AuthorId]
    """Authors with the most reach, up to five."""


# -- rules ------------------------------------------------------------------------------------


def _check_search(search: str) -> None:
    depth = 0
    for ch in search.replace('\\"', ""):
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
    words = search.replace("(", " ").replace(")", " ").split()
    problem = ""
    if depth != 0:
        problem = "unbalanced parentheses"
    elif search.count('"') % 2:
        problem = "an unclosed quote"
    elif not words:
        problem = "no search terms"
    elif words[0] in ("AND", "OR") or words[-1] in ("AND", "OR", "NOT"):
        problem = "a dangling AND/OR/NOT"
    if problem:
        raise RuleViolation(f"the search string has {problem}", field="search", hint='e.g. ("acme" OR #acme) NOT jobs')


def _guard_query(ctx: Ctx, new: Any, old: Any) -> None:
    _check_search(new.search)
    require_employee(ctx, new.owner_email, field="owner_email", hint="queries are owned by analysts on staff")
    for other in ctx.where(Query, name=new.name):
        if other.id != new.id:
            raise Conflict(f"query {other.id} is already named {new.name!r}", field="name", hint="pick another")


def _guard_query_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.where(Alert, query_id=old.id, status="active"):
        raise RuleViolation("the query has active alerts", field="query_id", hint="pause or delete them first")


def _guard_tag(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.scan(Tag):
        if other.id != new.id and other.name.lower() == new.name.lower():
            raise Conflict(f"tag {new.name!r} exists ({other.id})", field="name", hint="use the existing tag")


def _guard_tag_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for m in ctx.scan(Mention):
        if old.name in m.tags:
            ctx.update(m, tags=tuple(t for t in m.tags if t != old.name))


def _guard_alert(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Query, new.query_id, field="query_id")
    if not new.recipients:
        raise RuleViolation("an alert needs a recipient", field="recipients", hint="list staff e-mails")
    for email in new.recipients:
        require_employee(ctx, email, field="recipients", hint="alerts go to staff")
    if new.kind == "keyword" and not new.keyword.strip():
        raise RuleViolation("a keyword alert needs a keyword", field="keyword", hint="give the word to watch")
    if new.kind == "negative_share" and not 0 < new.threshold <= 100:
        raise RuleViolation("a negative share is a percent above 0", field="threshold", hint="e.g. 30")
    if new.kind == "volume_spike" and new.threshold < 1:
        raise RuleViolation("a volume spike is at least 1 mention an hour", field="threshold", hint="e.g. 50")


queries = service.resource(
    Query,
    name="query",
    plural="queries",
    prefix="qry",
    create=("name", "search", "languages", "owner_email"),
    filters=("owner_email", "status", "name"),
    search=("name", "search"),
    update=("name", "search", "languages"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the query"),
        "resume": Transition("status", ("paused",), "active", "resume the query"),
    },
    guard_create=_guard_query,
    guard_update=_guard_query,
    guard_delete=_guard_query_delete,
    title="search query",
)
authors = service.resource(
    Author,
    name="author",
    plural="authors",
    prefix="ath",
    create=False,
    filters=("source", "handle"),
    search=("name", "handle"),
    delete=False,
)
mentions = service.resource(
    Mention,
    name="mention",
    plural="mentions",
    prefix="men",
    create=False,
    filters=("query_id", "author_id", "source", "sentiment", "checked"),
    search=("snippet",),
    update=("sentiment", "checked"),
    delete=False,
)
tags = service.resource(
    Tag,
    name="tag",
    plural="tags",
    prefix="tag",
    create=("name", "color"),
    filters=("color",),
    search=("name",),
    update=("color",),
    guard_create=_guard_tag,
    guard_delete=_guard_tag_delete,
)
alerts = service.resource(
    Alert,
    name="alert",
    plural="alerts",
    prefix="alr",
    create=("query_id", "name", "kind", "threshold", "keyword", "recipients"),
    filters=("query_id", "kind", "status"),
    search=("name",),
    update=("name", "threshold", "keyword", "recipients"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the alert"),
        "resume": Transition("status", ("paused",), "active", "resume the alert"),
    },
    guard_create=_guard_alert,
    guard_update=_guard_alert,
)
reports = service.resource(
    Report,
    name="report",
    plural="reports",
    prefix="rpt",
    create=False,
    filters=("status",),
    search=("name",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="tag the mention",
    write=True,
    example=first_example(Mention, "mention_id", match=lambda c, m: "Complaint" not in m.tags, tag="Complaint"),
)
def tag_mention(ctx: Ctx, mention_id: MentionId, tag: TagName) -> Mention:
    """Apply an existing tag to a mention (once); the mention counts as checked.

    Args:
        mention_id: The mention.
        tag: The tag's name.
    """
    mention = ctx.get(Mention, mention_id, field="mention_id")
    found = next((t for t in ctx.scan(Tag) if t.name.lower() == tag.lower()), None)
    if found is None:
        raise RuleViolation(f"no tag named {tag!r}", field="tag", hint="create it with listening__create_tag first")
    if found.name in mention.tags:
        raise Conflict(f"the mention is already tagged {found.name!r}", field="tag", hint="nothing to do")
    return ctx.update(mention, tags=(*mention.tags, found.name), checked=True)


@service.tool(
    intent="remove the tag from the mention",
    write=True,
    example=first_example(Mention, "mention_id", match=lambda c, m: bool(m.tags)),
)
def untag_mention(ctx: Ctx, mention_id: MentionId, tag: TagName | None = None) -> Mention:
    """Take a tag (or every tag) off a mention.

    Args:
        mention_id: The mention.
        tag: The tag's name; omit to remove all.
    """
    mention = ctx.get(Mention, mention_id, field="mention_id")
    if tag is not None and tag not in mention.tags:
        raise RuleViolation(f"the mention is not tagged {tag!r}", field="tag", hint=f"its tags: {mention.tags}")
    return ctx.update(mention, tags=() if tag is None else tuple(t for t in mention.tags if t != tag))


@service.tool(
    intent="summarise the query's mentions",
    example=first_example(Query, "query_id", days=30),
)
def query_summary(ctx: Ctx, query_id: QueryId, days: Annotated[int, Field(ge=1, le=365)] = 30) -> QuerySummary:
    """Volume, sentiment, sources, reach and top authors of a query's mentions over the last days.

    Args:
        query_id: The query.
        days: How many days back.
    """
    q = ctx.get(Query, query_id, field="query_id")
    since = ctx.now() - dt.timedelta(days=days)
    found = [m for m in ctx.where(Mention, query_id=q.id) if m.published_at >= since]
    sent: dict[str, int] = {"positive": 0, "neutral": 0, "negative": 0}
    src: dict[str, int] = {}
    reach: dict[str, int] = {}
    for m in found:
        sent[m.sentiment] += 1
        src[m.source] = src.get(m.source, 0) + 1
        reach[m.author_id] = reach.get(m.author_id, 0) + m.reach
    n = len(found)
    net = round(100 * (sent["positive"] - sent["negative"]) / n) if n else 0
    top = sorted(reach, key=lambda a: (-reach[a], a))[:5]
    return QuerySummary(
        query_id=q.id,
        mentions=n,
        by_sentiment=sent,
        by_source=src,
        net_sentiment=net,
        total_reach=sum(reach.values()),
        top_author_ids=top,
    )


def _example_report(ctx: Ctx) -> dict[str, Any] | None:
    q = ctx.first(Query)
    return (
        None
        if q is None
        else {
            "name": "Monthly brand health",
            "query_ids": [q.id],
            "starts_on": (ctx.today() - dt.timedelta(days=30)).isoformat(),
            "ends_on": ctx.today().isoformat(),
            "recipients": [ctx.population.employees[0].email],
        }
    )


@service.tool(intent="create a listening report", write=True, example=_example_report)
def create_report(
    ctx: Ctx,
    name: Title,
    query_ids: list[QueryId],
    starts_on: Date,
    ends_on: Date,
    recipients: list[Email] | None = None,
) -> Report:
    """Draft a report over queries and a date range of at most a year, not in the future.

    Args:
        name: Its name.
        query_ids: The queries (at least one, each once).
        starts_on: First day.
        ends_on: Last day (not after today).
        recipients: Who gets it (anyone's e-mail).
    """
    if not query_ids or len(set(query_ids)) != len(query_ids):
        raise RuleViolation("list one or more queries, each once", field="query_ids", hint="pick queries")
    for qid in query_ids:
        ctx.get(Query, qid, field="query_ids")
    if ends_on < starts_on or (ends_on - starts_on).days > 366 or ends_on > ctx.today():
        raise RuleViolation(
            "the period runs forward, at most a year, up to today",
            field="ends_on",
            hint="pick past dates within a year",
        )
    return ctx.create(
        Report,
        name=name,
        query_ids=tuple(query_ids),
        starts_on=starts_on,
        ends_on=ends_on,
        recipients=tuple(recipients or ()),
    )


@service.tool(
    intent="send the report",
    write=True,
    example=first_example(Report, "report_id", where={"status": "draft"}, match=lambda c, r: bool(r.recipients)),
)
def send_report(ctx: Ctx, report_id: ReportId) -> Report:
    """Send a draft report to its recipients.

    Args:
        report_id: The report.
    """
    rep = ctx.get(Report, report_id, field="report_id")
    if rep.status == "sent":
        raise Conflict(f"report {rep.id} was sent at {rep.sent_at}", field="report_id", hint="create a new one")
    if not rep.recipients:
        raise RuleViolation("the report has no recipients", field="report_id", hint="create it with recipients")
    return ctx.update(rep, status="sent", sent_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

SNIPPETS: tuple[tuple[str, Sentiment], ...] = (
    ("Really impressed with {b}'s support team today, fixed my issue in minutes.", "positive"),
    ("Is anyone else seeing outages with {b} this morning?", "negative"),
    ("{b} announced a new partnership, details in the press release.", "neutral"),
    ("Switched to {b} last month and the onboarding was smooth.", "positive"),
    ("Waited two weeks for a refund from {b}. Not great.", "negative"),
    ("Comparing {b} with two competitors for our team, thoughts?", "neutral"),
    ("Love the new {b} dashboard!", "positive"),
    ("{b} pricing went up again, considering alternatives.", "negative"),
)
SOURCES: tuple[Source, ...] = ("x", "reddit", "news", "blog", "forum", "instagram", "reviews")


@service.seeder
def seed(s: SeedContext) -> None:
    """Brand and competitor queries, authors from the world's people, a month of mentions, tags, alerts, reports."""
    pop = s.population
    brand = pop.home.name
    staff = pop.staff("Marketing", "Support", fallback=3)
    rival = pop.customers[0].name if pop.customers else "Rival Co"
    qs = [
        s.create(
            Query,
            name=f"{brand} brand",
            search=f'("{brand}" OR #{brand.split()[0].lower()}) NOT jobs',
            owner_email=staff[0].email,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=20),
        ),
        s.create(
            Query,
            name="Competitor watch",
            search=f'"{rival}" AND (pricing OR outage)',
            owner_email=staff[1 % len(staff)].email,
            status="paused",
            created_at=s.ago(days=150),
            updated_at=s.ago(days=10),
        ),
    ]
    people = list(pop.consumers[:8]) or list(pop.contacts[:8])
    made = []
    for k, p in enumerate(people):
        handle = "".join(
            c for c in f"{p.first_name}_{p.last_name}".lower() if c.isascii() and (c.isalnum() or c == "_")
        )
        made.append(
            s.create(
                Author,
                handle=f"@{handle[:38] or 'user'}",
                name=p.name,
                source=SOURCES[k % 7],
                followers=120 * (k + 1) ** 2,
                created_at=s.ago(days=60),
                updated_at=s.ago(days=2),
            )
        )
    for name, color in (("Complaint", "red"), ("Praise", "green"), ("Pricing", "orange"), ("Press", "purple")):
        s.create(Tag, name=name, color=color, created_at=s.ago(days=100), updated_at=s.ago(days=100))
    for k in range(24):
        text, mood = SNIPPETS[k % len(SNIPPETS)]
        author = made[k % len(made)]
        tags = ("Complaint",) if mood == "negative" and k % 2 else ("Praise",) if mood == "positive" and k < 8 else ()
        s.create(
            Mention,
            query_id=qs[0 if k % 4 else 1].id,
            author_id=author.id,
            source=author.source,
            snippet=text.format(b=brand if k % 4 else rival),
            url=f"https://social.example/{author.source}/{k}",
            sentiment=mood,
            reach=author.followers * (1 + k % 3),
            tags=tags,
            checked=bool(tags),
            published_at=s.ago(days=(k * 37) % 45, hours=k),
            created_at=s.ago(days=(k * 37) % 45),
            updated_at=s.ago(days=1),
        )
    s.create(
        Alert,
        query_id=qs[0].id,
        name="Negative spike",
        kind="negative_share",
        threshold=30,
        recipients=(staff[0].email,),
        last_fired_at=s.ago(days=6),
        created_at=s.ago(days=90),
        updated_at=s.ago(days=6),
    )
    s.create(
        Alert,
        query_id=qs[0].id,
        name="Outage chatter",
        kind="keyword",
        keyword="outage",
        recipients=tuple(p.email for p in staff[:2]),
        created_at=s.ago(days=80),
        updated_at=s.ago(days=8),
    )
    s.create(
        Alert,
        query_id=qs[1].id,
        name="Competitor volume",
        kind="volume_spike",
        threshold=50,
        recipients=(staff[-1].email,),
        status="paused",
        created_at=s.ago(days=70),
        updated_at=s.ago(days=9),
    )
    today = s.now.date()
    s.create(
        Report,
        name="Q3 brand health",
        query_ids=(qs[0].id,),
        starts_on=today - dt.timedelta(days=120),
        ends_on=today - dt.timedelta(days=30),
        recipients=(staff[0].email,),
        status="sent",
        sent_at=s.ago(days=28),
        created_at=s.ago(days=29),
        updated_at=s.ago(days=28),
    )
    s.create(
        Report,
        name="Competitor pricing",
        query_ids=(qs[1].id,),
        starts_on=today - dt.timedelta(days=30),
        ends_on=today,
        recipients=(staff[-1].email,),
        created_at=s.ago(days=1),
        updated_at=s.ago(days=1),
    )
