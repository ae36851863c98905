"""Skimline Reader: the marketing team's feed reader: sources in folders, entries to read, save and curate.

Modeled on the Feedly Cloud API v3 (feeds and their metadata, subscriptions
with categories, streams/contents with ``count``, ``ranked``, ``unreadOnly``,
``newerThan`` and ``continuation``, markers: markAsRead / keepUnread /
undoMarkAsRead by entries, feeds or categories with ``asOf`` or
``lastReadEntryId``, markAsSaved / markAsUnsaved, unread counts, tags shown as
boards, annotations (notes and highlights), search, and OPML import and
export) on a Pro account: at most 1,000 sources. The account is the
company's market-intelligence reader; its boards are shared with colleagues.

Feeds are the world's: a newsroom for every customer company (appointments
of the people the world knows there, offices, partnerships with other world
companies, results, launches), the home company's blog about its products,
an industry weekly per industry, and review sites per product category. A
feed's entries are drawn from the world once, so they are the same whoever
reads them. Rules: a dead feed cannot be followed and a feed is followed
once; category and board labels are unique (case aside), never ``global.``
names and never contain a slash; marking a feed or category as read needs
exactly one of ``as_of`` (not in the future) and ``last_read_entry_id`` (an
entry of that stream) and a followed stream; only the latest mark-as-read of
a feed or category can be undone, once; entries older than 31 days are read
for good and cannot be kept unread; a highlight must quote the entry; board
owners and editors are employees; an OPML file must be OPML with a
body, without DTDs, and its feeds http(s) URLs.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person, Population
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, IdOf, Language, PersonName, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "feeds",
    title="Skimline Reader",
    category="feeds",
    modeled_on="Feedly Cloud API v3 (feeds, subscriptions, categories, streams/contents, markers, tags/boards, "
    "annotations, search, OPML), Pro plan",
    description="A feed reader: the team follows company newsrooms, industry weeklies, review sites and its own "
    "blog in folders, reads streams of entries, marks them read by entry, feed or folder as of a time, saves "
    "them for later, curates them on shared boards with notes, and imports or exports its sources as OPML.",
)

FeedId = Annotated[str, IdOf("feeds.feed")]
CategoryId = Annotated[str, IdOf("feeds.category")]
SubscriptionId = Annotated[str, IdOf("feeds.subscription")]
EntryId = Annotated[str, IdOf("feeds.entry")]
BoardId = Annotated[str, IdOf("feeds.board")]
OperationId = Annotated[str, IdOf("feeds.read_operation")]
Label = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
Byline = Annotated[str, StringConstraints(min_length=1, max_length=120)]
OpmlText = Annotated[str, StringConstraints(min_length=1, max_length=100_000)]
FeedKind = Literal["newsroom", "blog", "industry", "reviews"]
FeedState = Literal["active", "dormant", "dead"]

SOURCE_LIMIT = 1000
"""Sources a Pro account may follow."""
MAX_MARKERS = 1000
"""Entry ids one markers call takes."""
AUTO_READ_DAYS = 31
"""Entries older than this are read for good (Feedly's unread window)."""
MAX_COUNT = 1000
"""Entries one stream page returns at most."""
MAX_OPML_DEPTH = 16
"""How deeply an OPML file's outlines may nest (folders are flattened to their top level)."""


class Feed(Record):
    """A feed (source) the reader knows: its metadata as the feeds endpoint gives it."""

    id: FeedId
    feed_url: Url
    """The feed's own URL (RSS or Atom)."""
    title: Title
    """Its title."""
    website: Url
    """The site it belongs to."""
    description: Text = ""
    """What it covers."""
    kind: FeedKind
    """newsroom (a company's press releases), blog, industry (a trade weekly) or reviews."""
    company: CompanyName | None = None
    """The company whose newsroom or blog it is."""
    industry: str | None = None
    """The industry it covers."""
    language: Language = "en"
    """Language of its entries."""
    topics: tuple[str, ...] = ()
    """Topics it is listed under."""
    state: FeedState = "active"
    """active, dormant (no new entry for months) or dead (can no longer be fetched)."""
    velocity: float = 0.0
    """Entries per week over the last month."""
    subscribers: int = 0
    """Readers following it."""
    last_updated: DateTime | None = None
    """When its newest entry was published."""


class Category(Created):
    """A folder (category) of subscriptions."""

    id: CategoryId
    label: Label
    """Folder name; unique, case aside."""
    description: Text = ""
    """What goes in it."""


class Subscription(Record):
    """A feed the account follows, with its own title and folders."""

    id: SubscriptionId
    feed_id: FeedId
    """The feed; followed at most once."""
    title: Title
    """The title the account gives it."""
    category_ids: tuple[CategoryId, ...] = ()
    """Its folders (none: uncategorized)."""
    added_at: Annotated[DateTime, CREATED]
    """When it was followed."""


class Entry(Record):
    """An entry (article) of a feed, with the account's read, saved and board state."""

    id: EntryId
    feed_id: FeedId
    """The feed it was published in."""
    title: Title
    """Headline."""
    url: Url
    """The article's address (its alternate link)."""
    author: Byline
    """Byline as the feed gives it."""
    summary: Text = ""
    """Summary or first paragraph."""
    company: CompanyName | None = None
    """The company it is mainly about."""
    keywords: tuple[str, ...] = ()
    """The feed's keywords for it."""
    published: DateTime
    """When it was published."""
    crawled: DateTime
    """When the reader fetched it."""
    unread: bool = True
    """Whether the account has not read it."""
    read_at: DateTime | None = None
    """When it was marked read."""
    saved: bool = False
    """Saved for later (global.saved)."""
    saved_at: DateTime | None = None
    """When it was saved."""
    board_ids: tuple[BoardId, ...] = ()
    """The boards it is on."""


class Board(Created):
    """A board (tag) entries are curated on, shared with colleagues."""

    id: BoardId
    label: Label
    """Board name; unique, case aside."""
    description: Text = ""
    """What it collects."""
    owner_email: Email
    """E-mail of the employee who owns it."""
    editor_emails: tuple[Email, ...] = ()
    """E-mails of the employees it is shared with as editors (they add and take off entries)."""


class ReadOperation(Record):
    """A mark-as-read the account made: which entries it marked, so that it can be undone."""

    id: OperationId
    kind: Literal["entries", "feed", "category"]
    """What was marked: listed entries, a feed or a category."""
    feed_id: FeedId | None = None
    """The feed marked read."""
    category_id: CategoryId | None = None
    """The category marked read."""
    as_of: DateTime | None = None
    """Entries published at or before this time were marked."""
    last_read_entry_id: EntryId | None = None
    """Entries up to this one were marked."""
    entry_ids: tuple[EntryId, ...] = ()
    """The entries it turned from unread to read."""
    status: Literal["applied", "undone"] = "applied"
    """applied, or undone (its entries unread again)."""
    made_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Annotation(Created):
    """A note or highlight a colleague left on an entry."""

    id: Annotated[str, IdOf("feeds.annotation")]
    entry_id: EntryId
    """The entry."""
    author_email: Email
    """E-mail of the employee who wrote it."""
    comment: Text = ""
    """The note."""
    highlight: str | None = None
    """The passage of the entry it highlights."""


# -- guards -----------------------------------------------------------------------------------


def _check_label(ctx: Ctx, model: type[Category] | type[Board], label: str, own_id: str | None, what: str) -> None:
    if label.lower().startswith("global."):
        raise RuleViolation(
            f'"{label}" is a reserved name',
            field="label",
            hint=f"global.* names are the reader's own; name the {what} otherwise",
        )
    if "/" in label:
        raise RuleViolation(
            f'a {what} label cannot contain "/"', field="label", hint="use another separator, such as -"
        )
    for other in ctx.scan(model):
        if other.id != own_id and fold(other.label) == fold(label):
            raise Conflict(
                f'a {what} named "{other.label}" exists ({other.id})', field="label", hint=f"use that {what}"
            )


def _staff(ctx: Ctx, emails: Sequence[str], field: str) -> None:
    staff = {p.email for p in ctx.population.employees}
    for email in emails:
        if email not in staff:
            raise RuleViolation(
                f"{email} is not a member of the team",
                field=field,
                hint="boards are owned by and shared with employees of the company",
            )


def _guard_category(ctx: Ctx, new: Any, old: Any) -> None:
    _check_label(ctx, Category, new.label, new.id, "category")


def _guard_category_delete(ctx: Ctx, new: Any, old: Any) -> None:
    """Deleting a folder leaves its feeds followed: uncategorized if it was their only folder."""
    for sub in ctx.scan(Subscription):
        if old.id in sub.category_ids:
            ctx.update(sub, category_ids=tuple(c for c in sub.category_ids if c != old.id))


def _guard_board(ctx: Ctx, new: Any, old: Any) -> None:
    _check_label(ctx, Board, new.label, new.id, "board")
    _staff(ctx, [new.owner_email], "owner_email")
    _staff(ctx, new.editor_emails, "editor_emails")
    if new.owner_email in new.editor_emails:
        raise RuleViolation(
            "the owner is not also an editor", field="editor_emails", hint="list the other colleagues only"
        )


def _guard_board_delete(ctx: Ctx, new: Any, old: Any) -> None:
    """Deleting a board takes its entries off it."""
    for entry in ctx.scan(Entry):
        if old.id in entry.board_ids:
            ctx.update(entry, board_ids=tuple(b for b in entry.board_ids if b != old.id))


def _guard_entry(ctx: Ctx, new: Any, old: Any) -> None:
    """Saving stamps saved_at; unsaving clears it."""
    if new.saved != old.saved:
        ctx.update(new, saved_at=ctx.now() if new.saved else None)


feeds = service.resource(
    Feed,
    name="feed",
    plural="feeds",
    prefix="feed",
    create=False,
    filters=("company", "kind", "industry", "state", "language", "feed_url"),
    search=("title", "description", "website", "company"),
    delete=False,
)
categories = service.resource(
    Category,
    name="category",
    plural="categories",
    prefix="cat",
    create=("label", "description"),
    get=False,
    filters=("label",),
    search=("label", "description"),
    update=("label", "description"),
    guard_create=_guard_category,
    guard_update=_guard_category,
    guard_delete=_guard_category_delete,
    title="category",
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    filters=("feed_id",),
    search=("title",),
)
entries = service.resource(
    Entry,
    name="entry",
    plural="entries",
    prefix="ent",
    create=False,
    filters=None,
    delete=False,
    guard_update=_guard_entry,
    transitions={
        "save": Transition(
            "saved", (False,), True, "save the article for later", "Save an entry for later (markAsSaved)."
        ),
        "unsave": Transition(
            "saved",
            (True,),
            False,
            "remove the article from saved",
            "Take an entry off saved for later (markAsUnsaved).",
        ),
    },
    title="entry",
)
boards = service.resource(
    Board,
    name="board",
    plural="boards",
    prefix="brd",
    create=("label", "description", "owner_email", "editor_emails"),
    get=False,
    filters=("owner_email", "label"),
    search=("label", "description"),
    update=("label", "description", "owner_email", "editor_emails"),
    guard_create=_guard_board,
    guard_update=_guard_board,
    guard_delete=_guard_board_delete,
)
operations = service.resource(
    ReadOperation,
    name="read_operation",
    plural="read_operations",
    prefix="mk",
    create=False,
    get=False,
    filters=None,
    delete=False,
    title="mark-as-read operation",
)
notes = service.resource(
    Annotation,
    name="annotation",
    plural="annotations",
    prefix="ann",
    create=False,
    get=False,
    filters=("entry_id", "author_email"),
    search=("comment", "highlight"),
)


# -- shared helpers ---------------------------------------------------------------------------


def _followed(ctx: Ctx) -> dict[str, Subscription]:
    """The account's subscriptions by feed id."""
    return {s.feed_id: s for s in ctx.scan(Subscription)}


def _window_start(ctx: Ctx) -> dt.datetime:
    return ctx.now() - dt.timedelta(days=AUTO_READ_DAYS)


def _is_unread(ctx: Ctx, entry: Entry) -> bool:
    """Unread and within the unread window (older entries are read for good)."""
    return entry.unread and entry.published >= _window_start(ctx)


def _newest_first(items: Sequence[Entry]) -> list[Entry]:
    return sorted(items, key=lambda e: (e.published, e.id), reverse=True)


def _feed_entries(ctx: Ctx, feed_id: str) -> list[Entry]:
    return ctx.where(Entry, feed_id=feed_id)


def _category_feeds(ctx: Ctx, category_id: str) -> list[str]:
    return [s.feed_id for s in ctx.scan(Subscription) if category_id in s.category_ids]


def _entries_of(ctx: Ctx, ids: Sequence[str], field: str = "entry_ids") -> list[Entry]:
    if len(ids) > MAX_MARKERS:
        raise RuleViolation(
            f"{len(ids)} entry ids in one call", field=field, hint=f"send at most {MAX_MARKERS} at a time"
        )
    if len(set(ids)) != len(ids):
        raise RuleViolation("an entry id is listed twice", field=field, hint="list each entry once")
    return [ctx.get(Entry, i, field=field) for i in ids]


# -- examples ---------------------------------------------------------------------------------


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    followed = _followed(ctx)
    cat = next(iter(ctx.scan(Category)), None)
    for feed in ctx.select(Feed, {"state": "active"}):
        if feed.id not in followed:
            out: dict[str, Any] = {"feed_id": feed.id, "category_labels": ["Watchlist"]}
            if cat is not None:
                out["category_ids"] = [cat.id]
            return out
    return None


def _example_unread(ctx: Ctx) -> dict[str, Any] | None:
    for entry in _newest_first(list(ctx.scan(Entry))):
        if _is_unread(ctx, entry):
            return {"entry_ids": [entry.id]}
    return None


def _example_keep(ctx: Ctx) -> dict[str, Any] | None:
    for entry in _newest_first(list(ctx.scan(Entry))):
        if not entry.unread and entry.published >= _window_start(ctx):
            return {"entry_ids": [entry.id]}
    return None


def _example_mark_feed(ctx: Ctx) -> dict[str, Any] | None:
    for feed_id in _followed(ctx):
        if any(_is_unread(ctx, e) for e in _feed_entries(ctx, feed_id)):
            return {"feed_id": feed_id, "as_of": ctx.now().isoformat()}
    return None


def _example_mark_category(ctx: Ctx) -> dict[str, Any] | None:
    for cat in ctx.scan(Category):
        feeds_in = _category_feeds(ctx, cat.id)
        if any(_is_unread(ctx, e) for f in feeds_in for e in _feed_entries(ctx, f)):
            return {"category_id": cat.id, "as_of": ctx.now().isoformat()}
    return None


def _example_undo(ctx: Ctx) -> dict[str, Any] | None:
    for op in _newest_ops(ctx):
        followed = op.feed_id in _followed(ctx)
        if op.status == "applied" and op.kind == "feed" and followed and _latest_op(ctx, op.feed_id, None) is op:
            return {"feed_id": op.feed_id}
    return None


def _example_tag(ctx: Ctx) -> dict[str, Any] | None:
    board = next(iter(ctx.scan(Board)), None)
    entry = next((e for e in ctx.scan(Entry) if board is not None and board.id not in e.board_ids), None)
    if board is None or entry is None:
        return None
    return {"board_id": board.id, "entry_ids": [entry.id]}


def _example_untag(ctx: Ctx) -> dict[str, Any] | None:
    for entry in ctx.scan(Entry):
        if entry.board_ids:
            return {"board_id": entry.board_ids[0], "entry_ids": [entry.id]}
    return None


def _example_annotate(ctx: Ctx) -> dict[str, Any] | None:
    board = next(iter(ctx.scan(Board)), None)
    for entry in ctx.scan(Entry):
        if board is not None and board.id in entry.board_ids:
            return {
                "entry_id": entry.id,
                "author_email": board.owner_email,
                "comment": "Worth a call this week.",
                "highlight": entry.title.split()[0],
            }
    return None


def _example_stream(ctx: Ctx) -> dict[str, Any] | None:
    feed_id = next(iter(_followed(ctx)), None)
    return None if feed_id is None else {"feed_id": feed_id, "count": 5, "unread_only": True}


def _example_search(ctx: Ctx) -> dict[str, Any] | None:
    sub = next(iter(ctx.scan(Subscription)), None)
    feed = ctx.find(Feed, sub.feed_id) if sub else None
    return None if feed is None or feed.company is None else {"query": feed.company}


def _example_opml(ctx: Ctx) -> dict[str, Any] | None:
    followed = _followed(ctx)
    new = [f for f in ctx.select(Feed, {"state": "active"}) if f.id not in followed][:2]
    if not new:
        return None
    body = "".join(f'<outline type="rss" text="{_xml(f.title)}" xmlUrl="{_xml(f.feed_url)}"/>' for f in new)
    return {
        "opml": f'<?xml version="1.0"?><opml version="2.0"><head><title>Imports</title></head><body>'
        f'<outline text="Imported">{body}</outline></body></opml>'
    }


# -- profile and feeds ------------------------------------------------------------------------


class Profile(BaseModel):
    """The account: who it belongs to, its plan and how much it follows."""

    owner_email: Email = Field(description="E-mail of the employee whose account it is.")
    owner_name: PersonName = Field(description="Their name.")
    plan: Literal["pro"] = Field(description="The plan.")
    source_limit: int = Field(description="Sources the plan may follow.")
    sources: int = Field(description="Sources followed.")
    categories: int = Field(description="Folders.")
    boards: int = Field(description="Boards.")
    unread: int = Field(description="Unread entries of followed feeds (last 31 days).")


def account_holder(pop: Population) -> Person:
    """The employee whose account this is: the first marketer (or the first employee)."""
    return pop.staff("Marketing", fallback=1)[0]


@service.tool(intent="look up the reader account")
def get_profile(ctx: Ctx) -> Profile:
    """The account's owner, plan and what it follows (GET /v3/profile)."""
    owner = account_holder(ctx.population)
    followed = _followed(ctx)
    return Profile(
        owner_email=owner.email,
        owner_name=owner.name,
        plan="pro",
        source_limit=SOURCE_LIMIT,
        sources=len(followed),
        categories=sum(1 for _ in ctx.scan(Category)),
        boards=sum(1 for _ in ctx.scan(Board)),
        unread=sum(1 for f in followed for e in _feed_entries(ctx, f) if _is_unread(ctx, e)),
    )


# -- subscriptions ----------------------------------------------------------------------------


def _categories_for(ctx: Ctx, ids: Sequence[str], labels: Sequence[str]) -> tuple[str, ...]:
    """Folder ids from ids (which must exist) and labels (found case aside, or created as Feedly does)."""
    out = [ctx.get(Category, i, field="category_ids").id for i in ids]
    for label in labels:
        found = next((c for c in ctx.scan(Category) if fold(c.label) == fold(label)), None)
        if found is None:
            _check_label(ctx, Category, label, None, "category")
            found = ctx.create(Category, label=label.strip())
        out.append(found.id)
    return tuple(dict.fromkeys(out))


def _subscribe(ctx: Ctx, feed: Feed, title: str | None, category_ids: tuple[str, ...], field: str) -> Subscription:
    if feed.state == "dead":
        raise RuleViolation(
            f"{feed.title} is dead: {feed.feed_url} can no longer be fetched",
            field=field,
            hint="follow another source for the same company or topic (list feeds by company or industry)",
        )
    taken = ctx.first(Subscription, feed_id=feed.id)
    if taken is not None:
        raise Conflict(
            f"{feed.title} is already followed ({taken.id})",
            field=field,
            hint="change its title or folders with feeds__update_subscription",
        )
    if len(_followed(ctx)) >= SOURCE_LIMIT:
        raise RuleViolation(
            f"the Pro plan follows at most {SOURCE_LIMIT} sources",
            field=field,
            hint="unfollow a source with feeds__delete_subscription first",
        )
    return ctx.create(Subscription, feed_id=feed.id, title=title or feed.title, category_ids=category_ids)


@service.tool(intent="follow the feed", write=True, example=_example_subscribe)
def create_subscription(
    ctx: Ctx,
    feed_id: FeedId,
    title: Title | None = None,
    category_ids: list[CategoryId] | None = None,
    category_labels: list[Label] | None = None,
) -> Subscription:
    """Follow a feed (POST /v3/subscriptions), in folders given by id or by label.

    A label names an existing folder (case aside) or creates one. Dead feeds
    cannot be followed, a feed is followed once, and the Pro plan follows at
    most 1,000 sources.

    Args:
        feed_id: The feed.
        title: A title of the account's own (default: the feed's).
        category_ids: Existing folders to put it in.
        category_labels: Folders by name; missing ones are created.
    """
    feed = ctx.get(Feed, feed_id, field="feed_id")
    cats = _categories_for(ctx, category_ids or [], category_labels or [])
    return _subscribe(ctx, feed, title, cats, "feed_id")


@service.tool(
    intent="change the followed feed's title or folders",
    write=True,
    example=first_example(Subscription, "subscription_id", title="Renamed source"),
)
def update_subscription(
    ctx: Ctx, subscription_id: SubscriptionId, title: Title | None = None, category_ids: list[CategoryId] | None = None
) -> Subscription:
    """Rename a followed feed or replace its folders (an empty list makes it uncategorized).

    Args:
        subscription_id: The subscription.
        title: Its new title.
        category_ids: Its folders from now on.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if title is None and category_ids is None:
        raise RuleViolation("nothing to change", field="title", hint="give a title or category_ids")
    changes: dict[str, Any] = {}
    if title is not None:
        changes["title"] = title
    if category_ids is not None:
        changes["category_ids"] = _categories_for(ctx, category_ids, [])
    return ctx.update(sub, **changes)


# -- streams ----------------------------------------------------------------------------------


class Stream(BaseModel):
    """A page of a stream's entries (GET /v3/streams/contents)."""

    stream: str = Field(description="The stream: a feed, a category, a board, saved or all.")
    title: str = Field(description="Its title.")
    items: list[Entry] = Field(description="Entries in the ranking asked for.")
    continuation: EntryId | None = Field(description="Pass back to get the next page; null on the last.")


def _stream(
    ctx: Ctx,
    feed_id: str | None,
    category_id: str | None,
    board_id: str | None,
    saved: bool,
) -> tuple[str, str, list[Entry]]:
    chosen = [x for x in (feed_id, category_id, board_id) if x is not None] + (["saved"] if saved else [])
    if len(chosen) > 1:
        raise RuleViolation(
            "name one stream", field="feed_id", hint="give only one of feed_id, category_id, board_id or saved"
        )
    if feed_id is not None:
        feed = ctx.get(Feed, feed_id, field="feed_id")
        return feed.id, feed.title, _feed_entries(ctx, feed.id)
    if category_id is not None:
        cat = ctx.get(Category, category_id, field="category_id")
        return cat.id, cat.label, [e for f in _category_feeds(ctx, cat.id) for e in _feed_entries(ctx, f)]
    if board_id is not None:
        board = ctx.get(Board, board_id, field="board_id")
        return board.id, board.label, [e for e in ctx.scan(Entry) if board.id in e.board_ids]
    if saved:
        return "global.saved", "Saved for later", [e for e in ctx.scan(Entry) if e.saved]
    return "global.all", "All", [e for f in _followed(ctx) for e in _feed_entries(ctx, f)]


@service.tool(intent="read the latest articles", example=_example_stream)
def get_stream_contents(
    ctx: Ctx,
    feed_id: FeedId | None = None,
    category_id: CategoryId | None = None,
    board_id: BoardId | None = None,
    saved: bool = False,
    count: Annotated[int, Field(ge=1, le=MAX_COUNT)] = 20,
    ranked: Literal["newest", "oldest"] = "newest",
    unread_only: bool = False,
    newer_than: DateTime | None = None,
    continuation: EntryId | None = None,
) -> Stream:
    """Page through a stream's entries: a feed, a folder, a board, saved entries, or (none given) all followed feeds.

    Args:
        feed_id: A feed (followed or not).
        category_id: A folder: its followed feeds.
        board_id: A board's entries.
        saved: The entries saved for later.
        count: Entries per page (at most 1,000).
        ranked: newest or oldest first.
        unread_only: Only unread entries (of the last 31 days).
        newer_than: Only entries published after this time.
        continuation: The continuation of the previous page.
    """
    sid, title, items = _stream(ctx, feed_id, category_id, board_id, saved)
    if unread_only:
        items = [e for e in items if _is_unread(ctx, e)]
    if newer_than is not None:
        items = [e for e in items if e.published > newer_than]
    ordered = _newest_first(items)
    if ranked == "oldest":
        ordered.reverse()
    if continuation is not None:
        ids = [e.id for e in ordered]
        if continuation not in ids:
            raise RuleViolation(
                f"{continuation} is not in this stream as asked",
                field="continuation",
                hint="pass the continuation of the previous page with the same stream and filters",
            )
        ordered = ordered[ids.index(continuation) + 1 :]
    page = ordered[:count]
    more = len(ordered) > count
    return Stream(stream=sid, title=title, items=page, continuation=page[-1].id if more else None)


@service.tool(intent="search the followed feeds' articles", example=_example_search)
def search_entries(
    ctx: Ctx,
    query: Annotated[str, StringConstraints(min_length=2, max_length=200)],
    feed_id: FeedId | None = None,
    category_id: CategoryId | None = None,
    unread_only: bool = False,
    count: Annotated[int, Field(ge=1, le=100)] = 20,
) -> list[Entry]:
    """Search entries of the followed feeds (or of one feed or folder) by words, newest first.

    Every word of the query must appear in the title, summary, keywords,
    company or byline (case and accents aside).

    Args:
        query: Words to find.
        feed_id: Only this feed.
        category_id: Only this folder.
        unread_only: Only unread entries.
        count: At most this many.
    """
    _, _, items = _stream(ctx, feed_id, category_id, None, False)
    words = fold(query).split()
    if not words:
        raise RuleViolation("the query has no words", field="query", hint="search for a company, product or topic")
    found = []
    for e in items:
        text = fold(" ".join([e.title, e.summary, e.company or "", e.author, *e.keywords]))
        if all(w in text for w in words) and (not unread_only or _is_unread(ctx, e)):
            found.append(e)
    return _newest_first(found)[:count]


# -- markers ----------------------------------------------------------------------------------


class Marked(BaseModel):
    """What a markers call changed."""

    action: Literal["markAsRead", "keepUnread", "undoMarkAsRead"] = Field(description="The markers action.")
    entry_ids: list[EntryId] = Field(description="Entries whose state changed.")
    unchanged: int = Field(description="Entries named or in range that already were in that state.")
    operation_id: OperationId | None = Field(description="The mark-as-read operation recorded (null if none).")


def _mark(ctx: Ctx, items: Sequence[Entry]) -> list[str]:
    now = ctx.now()
    marked = []
    for e in items:
        if e.unread:
            ctx.update(e, unread=False, read_at=now)
            marked.append(e.id)
    return marked


@service.tool(intent="mark the articles as read", write=True, example=_example_unread)
def mark_entries_as_read(ctx: Ctx, entry_ids: Annotated[list[EntryId], Field(min_length=1)]) -> Marked:
    """Mark entries as read (markers: markAsRead, type entries).

    Args:
        entry_ids: The entries (at most 1,000).
    """
    items = _entries_of(ctx, entry_ids)
    marked = _mark(ctx, items)
    op = ctx.create(ReadOperation, kind="entries", entry_ids=tuple(marked)) if marked else None
    return Marked(action="markAsRead", entry_ids=marked, unchanged=len(items) - len(marked), operation_id=op and op.id)


@service.tool(intent="keep the articles unread", write=True, example=_example_keep)
def keep_entries_unread(ctx: Ctx, entry_ids: Annotated[list[EntryId], Field(min_length=1)]) -> Marked:
    """Make read entries unread again (markers: keepUnread).

    Entries older than 31 days are read for good and are refused.

    Args:
        entry_ids: The entries (at most 1,000).
    """
    items = _entries_of(ctx, entry_ids)
    start = _window_start(ctx)
    for e in items:
        if e.published < start:
            raise RuleViolation(
                f"entry {e.id} was published {e.published:%Y-%m-%d}, more than {AUTO_READ_DAYS} days ago",
                field="entry_ids",
                hint=f"only entries of the last {AUTO_READ_DAYS} days can be kept unread; save it for later instead",
            )
    changed = []
    for e in items:
        if not e.unread:
            ctx.update(e, unread=True, read_at=None)
            changed.append(e.id)
    return Marked(action="keepUnread", entry_ids=changed, unchanged=len(items) - len(changed), operation_id=None)


def _cutoff(
    ctx: Ctx, as_of: dt.datetime | None, last_read_entry_id: str | None, pool: Sequence[Entry], where: str
) -> dt.datetime:
    if (as_of is None) == (last_read_entry_id is None):
        raise RuleViolation(
            "give exactly one of as_of and last_read_entry_id",
            field="as_of",
            hint="as_of marks what was published until then; last_read_entry_id marks up to that entry",
        )
    if as_of is not None:
        if as_of > ctx.now():
            raise RuleViolation(
                f"as_of {as_of.isoformat()} is in the future",
                field="as_of",
                hint=f"give a time at or before {ctx.now().isoformat()}",
            )
        return as_of
    last = ctx.get(Entry, last_read_entry_id or "", field="last_read_entry_id")
    if last.id not in {e.id for e in pool}:
        raise RuleViolation(
            f"entry {last.id} is not in {where}", field="last_read_entry_id", hint=f"give an entry of {where}"
        )
    return last.published


def _mark_stream(
    ctx: Ctx,
    pool: Sequence[Entry],
    cutoff: dt.datetime,
    **op: Any,
) -> Marked:
    in_range = [e for e in pool if e.published <= cutoff]
    marked = _mark(ctx, in_range)
    rec = ctx.create(ReadOperation, entry_ids=tuple(marked), **op) if marked else None
    return Marked(
        action="markAsRead", entry_ids=marked, unchanged=len(in_range) - len(marked), operation_id=rec and rec.id
    )


@service.tool(intent="mark the feed as read", write=True, example=_example_mark_feed)
def mark_feed_as_read(
    ctx: Ctx, feed_id: FeedId, as_of: DateTime | None = None, last_read_entry_id: EntryId | None = None
) -> Marked:
    """Mark a followed feed's entries as read up to a point (markers: markAsRead, type feeds).

    Give exactly one of as_of (entries published at or before it; not in the
    future) and last_read_entry_id (entries up to and including that entry of
    the feed). Newer entries stay unread.

    Args:
        feed_id: A followed feed.
        as_of: Mark entries published at or before this time.
        last_read_entry_id: Mark entries up to this entry of the feed.
    """
    feed = ctx.get(Feed, feed_id, field="feed_id")
    if feed.id not in _followed(ctx):
        raise RuleViolation(
            f"{feed.title} is not followed",
            field="feed_id",
            hint="mark entries of followed feeds, or its entries by id",
        )
    pool = _feed_entries(ctx, feed.id)
    cutoff = _cutoff(ctx, as_of, last_read_entry_id, pool, feed.title)
    return _mark_stream(
        ctx, pool, cutoff, kind="feed", feed_id=feed.id, as_of=as_of, last_read_entry_id=last_read_entry_id
    )


@service.tool(intent="mark the folder as read", write=True, example=_example_mark_category)
def mark_category_as_read(
    ctx: Ctx, category_id: CategoryId, as_of: DateTime | None = None, last_read_entry_id: EntryId | None = None
) -> Marked:
    """Mark the entries of a folder's feeds as read up to a point (markers: markAsRead, type categories).

    Give exactly one of as_of and last_read_entry_id (an entry of one of the
    folder's feeds). A folder without feeds has nothing to mark.

    Args:
        category_id: The folder.
        as_of: Mark entries published at or before this time.
        last_read_entry_id: Mark entries published up to this entry.
    """
    cat = ctx.get(Category, category_id, field="category_id")
    feed_ids = _category_feeds(ctx, cat.id)
    if not feed_ids:
        raise RuleViolation(f"folder {cat.label} has no feeds", field="category_id", hint="add feeds to it first")
    pool = [e for f in feed_ids for e in _feed_entries(ctx, f)]
    cutoff = _cutoff(ctx, as_of, last_read_entry_id, pool, f"folder {cat.label}")
    return _mark_stream(
        ctx, pool, cutoff, kind="category", category_id=cat.id, as_of=as_of, last_read_entry_id=last_read_entry_id
    )


def _newest_ops(ctx: Ctx) -> list[ReadOperation]:
    return sorted(ctx.scan(ReadOperation), key=lambda o: (o.made_at, o.id), reverse=True)


def _latest_op(ctx: Ctx, feed_id: str | None, category_id: str | None) -> ReadOperation | None:
    for op in _newest_ops(ctx):
        if (feed_id is not None and op.feed_id == feed_id) or (
            category_id is not None and op.category_id == category_id
        ):
            return op
    return None


@service.tool(intent="undo marking the feed or folder as read", write=True, example=_example_undo)
def undo_mark_as_read(ctx: Ctx, feed_id: FeedId | None = None, category_id: CategoryId | None = None) -> Marked:
    """Undo the latest mark-as-read of a feed or a folder (markers: undoMarkAsRead).

    The entries it marked that are still read become unread again; only the
    latest operation of that feed or folder can be undone, and only once.

    Args:
        feed_id: The feed.
        category_id: The folder.
    """
    if (feed_id is None) == (category_id is None):
        raise RuleViolation("give exactly one of feed_id and category_id", field="feed_id", hint="name one stream")
    if feed_id is not None:
        name = ctx.get(Feed, feed_id, field="feed_id").title
    else:
        name = ctx.get(Category, category_id or "", field="category_id").label
    field = "feed_id" if feed_id is not None else "category_id"
    op = _latest_op(ctx, feed_id, category_id)
    if op is None:
        raise NotFound(f"{name} was never marked as read", field=field, hint="nothing to undo")
    if op.status == "undone":
        raise RuleViolation(
            f"the latest mark-as-read of {name} ({op.id}) is already undone",
            field=field,
            hint="only the latest operation can be undone, once; keep entries unread by id instead",
        )
    restored = []
    for eid in op.entry_ids:
        e = ctx.find(Entry, eid)
        if e is not None and not e.unread:
            ctx.update(e, unread=True, read_at=None)
            restored.append(e.id)
    ctx.update(op, status="undone")
    return Marked(
        action="undoMarkAsRead", entry_ids=restored, unchanged=len(op.entry_ids) - len(restored), operation_id=op.id
    )


class FeedCount(BaseModel):
    """Unread entries of a stream."""

    id: str = Field(description="The feed or folder id, or global.all.")
    title: str = Field(description="Its title.")
    count: int = Field(description="Unread entries (last 31 days).")
    updated: DateTime | None = Field(description="When its newest entry was published.")


class UnreadCounts(BaseModel):
    """Unread counts of the followed feeds, the folders and the whole account (GET /v3/markers/counts)."""

    total: int = Field(description="Unread entries of all followed feeds.")
    feeds: list[FeedCount] = Field(description="Per followed feed.")
    categories: list[FeedCount] = Field(description="Per folder.")


@service.tool(intent="count the unread articles")
def get_unread_counts(ctx: Ctx) -> UnreadCounts:
    """Unread entries (published in the last 31 days and not read) per followed feed, per folder and in all."""
    per: dict[str, list[Entry]] = {}
    out_feeds = []
    for feed_id, sub in sorted(_followed(ctx).items()):
        items = _feed_entries(ctx, feed_id)
        per[feed_id] = [e for e in items if _is_unread(ctx, e)]
        newest = max((e.published for e in items), default=None)
        out_feeds.append(FeedCount(id=feed_id, title=sub.title, count=len(per[feed_id]), updated=newest))
    out_cats = []
    for cat in ctx.scan(Category):
        in_cat = [f for f in _category_feeds(ctx, cat.id) if f in per]
        newest = max((c.updated for c in out_feeds if c.id in in_cat and c.updated), default=None)
        out_cats.append(FeedCount(id=cat.id, title=cat.label, count=sum(len(per[f]) for f in in_cat), updated=newest))
    return UnreadCounts(total=sum(len(v) for v in per.values()), feeds=out_feeds, categories=out_cats)


# -- boards and annotations -------------------------------------------------------------------


class Tagged(BaseModel):
    """What tagging or untagging changed."""

    board_id: BoardId = Field(description="The board.")
    changed: list[EntryId] = Field(description="Entries put on (or taken off) the board.")
    unchanged: list[EntryId] = Field(description="Entries that already were (or were not) on it.")


@service.tool(intent="put the articles on the board", write=True, example=_example_tag)
def tag_entries(ctx: Ctx, board_id: BoardId, entry_ids: Annotated[list[EntryId], Field(min_length=1)]) -> Tagged:
    """Put entries on a board (PUT /v3/tags/:tagId).

    Args:
        board_id: The board.
        entry_ids: The entries (at most 1,000).
    """
    board = ctx.get(Board, board_id, field="board_id")
    changed, same = [], []
    for e in _entries_of(ctx, entry_ids):
        if board.id in e.board_ids:
            same.append(e.id)
        else:
            ctx.update(e, board_ids=(*e.board_ids, board.id))
            changed.append(e.id)
    return Tagged(board_id=board.id, changed=changed, unchanged=same)


@service.tool(intent="take the articles off the board", write=True, example=_example_untag)
def untag_entries(ctx: Ctx, board_id: BoardId, entry_ids: Annotated[list[EntryId], Field(min_length=1)]) -> Tagged:
    """Take entries off a board (DELETE /v3/tags/:tagId/:entryIds); entries not on it are refused.

    Args:
        board_id: The board.
        entry_ids: The entries (at most 1,000).
    """
    board = ctx.get(Board, board_id, field="board_id")
    items = _entries_of(ctx, entry_ids)
    off = [e.id for e in items if board.id not in e.board_ids]
    if off:
        raise RuleViolation(
            f"{', '.join(off)} {'is' if len(off) == 1 else 'are'} not on board {board.label}",
            field="entry_ids",
            hint="list the board's entries with feeds__get_stream_contents(board_id=…)",
        )
    for e in items:
        ctx.update(e, board_ids=tuple(b for b in e.board_ids if b != board.id))
    return Tagged(board_id=board.id, changed=[e.id for e in items], unchanged=[])


@service.tool(intent="leave a note on the article", write=True, example=_example_annotate)
def create_annotation(
    ctx: Ctx,
    entry_id: EntryId,
    author_email: Email,
    comment: Text = "",
    highlight: Annotated[str, StringConstraints(min_length=1, max_length=2000)] | None = None,
) -> Annotation:
    """Leave a note and/or a highlight on an entry (POST /v3/annotations).

    A highlight must quote the entry's title or summary; an annotation needs
    a comment or a highlight; authors are employees.

    Args:
        entry_id: The entry.
        author_email: E-mail of the employee writing it.
        comment: The note.
        highlight: A passage of the entry to highlight.
    """
    entry = ctx.get(Entry, entry_id, field="entry_id")
    _staff(ctx, [author_email], "author_email")
    if not comment.strip() and highlight is None:
        raise RuleViolation("an annotation needs a comment or a highlight", field="comment", hint="write a note")
    if highlight is not None and fold(highlight) not in fold(f"{entry.title} {entry.summary}"):
        raise RuleViolation(
            "the highlight is not a passage of the entry",
            field="highlight",
            hint="quote words of its title or summary as they are written",
        )
    return ctx.create(Annotation, entry_id=entry.id, author_email=author_email, comment=comment, highlight=highlight)


# -- OPML -------------------------------------------------------------------------------------


class OpmlOutline(BaseModel):
    """A feed of an OPML file and what importing it would do."""

    title: str = Field(description="The outline's title or text.")
    xml_url: str = Field(description="Its xmlUrl.")
    category: str | None = Field(description="The folder it sits in (the top-level outline around it).")
    feed_id: FeedId | None = Field(description="The feed it names, when the reader knows it.")
    status: Literal["new", "already_followed", "duplicate", "unknown_feed", "dead_feed", "invalid_url"] = Field(
        description="new (would be followed), already_followed, duplicate (listed before in the file), unknown_feed, "
        "dead_feed or invalid_url."
    )


class OpmlReport(BaseModel):
    """An OPML file checked against the account."""

    title: str | None = Field(description="The file's head title.")
    outlines: list[OpmlOutline] = Field(description="Every feed outline, in file order.")
    new_feeds: int = Field(description="Feeds an import would follow.")
    new_categories: list[str] = Field(description="Folders an import would create.")


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def _parse_opml(ctx: Ctx, opml: str) -> OpmlReport:
    if re.search(r"<!DOCTYPE|<!ENTITY", opml, re.IGNORECASE):
        raise RuleViolation(
            "OPML with a DTD or entities is refused", field="opml", hint="remove the <!DOCTYPE …> declaration"
        )
    try:
        root = ET.fromstring(opml)  # DTDs and entities are refused above
    except ET.ParseError as exc:
        raise RuleViolation(f"the file is not well-formed XML: {exc}", field="opml", hint="export it again") from exc
    if root.tag != "opml":
        raise RuleViolation(f"the root element is <{root.tag}>, not <opml>", field="opml", hint="give an OPML file")
    if root.get("version") not in ("1.0", "1.1", "2.0"):
        raise RuleViolation(
            f"unsupported OPML version {root.get('version')!r}", field="opml", hint='use version="1.0" or "2.0"'
        )
    body = root.find("body")
    if body is None:
        raise RuleViolation("the OPML file has no <body>", field="opml", hint="put the outlines in <body>")
    head_title = root.findtext("head/title")
    by_url = {f.feed_url: f for f in ctx.scan(Feed)}
    followed = _followed(ctx)
    outlines: list[OpmlOutline] = []
    seen: set[str] = set()

    def visit(node: ET.Element, category: str | None, depth: int) -> None:
        if depth > MAX_OPML_DEPTH:
            raise RuleViolation(
                f"outlines nest more than {MAX_OPML_DEPTH} levels deep",
                field="opml",
                hint="the reader keeps one level of folders: flatten the file",
            )
        for child in node.findall("outline"):
            url = child.get("xmlUrl") or child.get("xmlurl")
            label = child.get("title") or child.get("text") or ""
            if url is None:
                visit(child, category if category is not None else (label.strip() or None), depth + 1)
                continue
            feed = by_url.get(url.strip())
            status: Any
            if not re.match(r"^https?://\S+$", url.strip()):
                status = "invalid_url"
            elif url.strip() in seen:
                status = "duplicate"
            elif feed is None:
                status = "unknown_feed"
            elif feed.state == "dead":
                status = "dead_feed"
            elif feed.id in followed:
                status = "already_followed"
            else:
                status = "new"
            seen.add(url.strip())
            outlines.append(
                OpmlOutline(
                    title=label or url, xml_url=url, category=category, feed_id=feed.id if feed else None, status=status
                )
            )

    visit(body, None, 0)
    if not outlines:
        raise RuleViolation("the OPML file lists no feeds", field="opml", hint="outlines need an xmlUrl attribute")
    known = {fold(c.label) for c in ctx.scan(Category)}
    new_cats: list[str] = []
    for o in outlines:
        if o.status == "new" and o.category and fold(o.category) not in known | {fold(c) for c in new_cats}:
            new_cats.append(o.category)
    return OpmlReport(
        title=head_title,
        outlines=outlines,
        new_feeds=sum(o.status == "new" for o in outlines),
        new_categories=new_cats,
    )


@service.tool(intent="check the OPML file before importing it", example=_example_opml)
def validate_opml(ctx: Ctx, opml: OpmlText) -> OpmlReport:
    """Check an OPML file: its structure and, for each feed outline, what an import would do.

    Args:
        opml: The OPML document.
    """
    return _parse_opml(ctx, opml)


class OpmlImport(BaseModel):
    """What an OPML import did."""

    report: OpmlReport = Field(description="The file as checked.")
    subscriptions: list[Subscription] = Field(description="Feeds followed by the import.")


@service.tool(intent="import the feeds from the OPML file", write=True, example=_example_opml)
def import_opml(ctx: Ctx, opml: OpmlText) -> OpmlImport:
    """Follow the new feeds of an OPML file (POST /v3/opml) in the folders it puts them in.

    Feeds already followed, listed twice, unknown, dead or with an invalid
    URL are skipped (the report says which); a file with nothing new is
    refused, as is one that would take the account past 1,000 sources.

    Args:
        opml: The OPML document.
    """
    report = _parse_opml(ctx, opml)
    new = [o for o in report.outlines if o.status == "new"]
    if not new:
        raise RuleViolation(
            "nothing to import: every feed of the file is followed, unknown, dead or invalid",
            field="opml",
            hint="check the file with feeds__validate_opml",
        )
    if len(_followed(ctx)) + len(new) > SOURCE_LIMIT:
        raise RuleViolation(
            f"importing {len(new)} feeds would pass the {SOURCE_LIMIT}-source limit",
            field="opml",
            hint="unfollow sources first, or import a shorter file",
        )
    subs = []
    for o in new:
        feed = ctx.get(Feed, o.feed_id or "")
        cats = _categories_for(ctx, [], [o.category] if o.category else [])
        subs.append(_subscribe(ctx, feed, o.title, cats, "opml"))
    return OpmlImport(report=report, subscriptions=subs)


@service.tool(intent="export the followed feeds as OPML")
def export_opml(ctx: Ctx) -> str:
    """The followed feeds as an OPML 2.0 document, grouped by folder (GET /v3/opml)."""
    cats = {c.id: c for c in ctx.scan(Category)}
    groups: dict[str | None, list[tuple[Subscription, Feed]]] = {}
    for sub in ctx.scan(Subscription):
        feed = ctx.get(Feed, sub.feed_id)
        for cid in sub.category_ids or (None,):
            groups.setdefault(cid, []).append((sub, feed))

    def line(sub: Subscription, feed: Feed, indent: str) -> str:
        return (
            f'{indent}<outline type="rss" text="{_xml(sub.title)}" title="{_xml(sub.title)}" '
            f'xmlUrl="{_xml(feed.feed_url)}" htmlUrl="{_xml(feed.website)}"/>'
        )

    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<opml version="2.0">']
    owner = account_holder(ctx.population)
    out.append(f"  <head><title>{_xml(owner.name)} subscriptions</title></head>")
    out.append("  <body>")
    for cid in sorted(c for c in groups if c is not None):
        label = _xml(cats[cid].label)
        out.append(f'    <outline text="{label}" title="{label}">')
        out.extend(line(s, f, "      ") for s, f in groups[cid])
        out.append("    </outline>")
    out.extend(line(s, f, "    ") for s, f in groups.get(None, []))
    out.extend(["  </body>", "</opml>"])
    return "\n".join(out)


# -- seed -------------------------------------------------------------------------------------

NEWSROOM = (
    ("{company} appoints {person} as {title}", "{company} named {person} its new {title}, effective this month."),
    ("{company} opens a new office in {city}", "The {industry} company expands with a team in {city}."),
    ("{company} partners with {other}", "{company} and {other} will work together on {industry} projects."),
    ("{company} reports its strongest quarter yet", "Revenue grew on demand for its {industry} services."),
    ("{company} launches a new {industry} platform", "The platform brings {company}'s services together in one place."),
    ("{company} is hiring in {city}", "Open roles across {industry}, operations and sales."),
)
INDUSTRY = (
    ("{a} and {b} lead {industry} hiring this quarter", "Both companies added staff as the {industry} market grew."),
    ("What {a}'s new strategy means for {industry}", "Analysts weigh {a}'s plans against {b}'s."),
    ("{industry} outlook: {a}, {b} and the year ahead", "Our editors look at the companies to watch."),
)
BLOG = (
    ("Introducing the {product}", "Meet the {product}, the newest addition to our {category} range."),
    ("{product}: five ways our customers use it", "Stories from teams who rely on the {product} every day."),
    ("Behind the design of the {product}", "How our {category} team built the {product}."),
)
REVIEWS = (
    ("Review: the {product} from {home}", "We spent two weeks with the {product}. Here is our verdict."),
    ("Best {category} picks this season", "The {product} from {home} makes our shortlist."),
)


def _slug(text: str) -> str:
    return "-".join(fold(text).split())[:80]


@service.seeder
def seed(s: SeedContext) -> None:
    """Feeds from the world's companies, industries and products, their entries, the account's folders and boards."""
    pop = s.population
    all_feeds = _seed_feeds(s)
    cats = {
        label: s.create(Category, label=label, description=desc, created_at=s.ago(days=300))
        for label, desc in (
            ("Customers", "Newsrooms of the companies we sell to."),
            ("Industry", "Trade weeklies of our customers' industries."),
            ("Reviews", "What reviewers say about our products."),
            ("Company", "Our own blog."),
        )
    }
    subs = _seed_subscriptions(s, all_feeds, cats)
    for feed in all_feeds:
        _seed_entries(s, feed, subs.get(feed.id))
    owner = account_holder(pop)
    sales = pop.staff("Sales", fallback=3)
    boards = [
        s.create(
            Board,
            label="Competitive intel",
            description="Moves of companies in our markets.",
            owner_email=owner.email,
            editor_emails=tuple(p.email for p in sales[:2] if p != owner),
            created_at=s.ago(days=200),
        ),
        s.create(
            Board,
            label="Partnership leads",
            description="Customers opening offices or partnering.",
            owner_email=sales[0].email,
            created_at=s.ago(days=120),
        ),
        s.create(
            Board,
            label="Product feedback",
            description="Reviews of our products.",
            owner_email=owner.email,
            created_at=s.ago(days=90),
        ),
    ]
    _seed_curation(s, boards)
    _seed_operations(s, subs)


def _seed_feeds(s: SeedContext) -> list[Feed]:
    """The home blog, a newsroom per customer company (a few dormant, one dead), weeklies and review sites.

    An industry weekly per industry of the customers, a review site per product category.
    """
    pop = s.population
    rng = s.rng
    home = pop.home
    out = [
        s.create(
            Feed,
            feed_url=f"https://blog.{home.domain}/feed.xml",
            title=f"{home.name} Blog",
            website=f"https://blog.{home.domain}",
            description=f"Product news and stories from {home.name}.",
            kind="blog",
            company=home.name,
            industry=home.industry,
            topics=("products", home.industry),
            subscribers=rng.randint(200, 900),
        )
    ]
    for j, company in enumerate(pop.customers):
        state: FeedState = "dead" if j % 13 == 12 else "dormant" if j % 11 == 10 else "active"
        out.append(
            s.create(
                Feed,
                feed_url=f"https://www.{company.domain}/newsroom/rss.xml",
                title=f"{company.name} Newsroom",
                website=f"https://www.{company.domain}/newsroom",
                description=f"Press releases and announcements from {company.name}.",
                kind="newsroom",
                company=company.name,
                industry=company.industry,
                language=company.place.language if company.place.language in ("en", "de", "fr", "es") else "en",
                topics=(company.industry, "company news"),
                state=state,
                subscribers=rng.randint(5, 400),
            )
        )
    for industry in sorted({c.industry for c in pop.customers}):
        name = industry.capitalize()
        out.append(
            s.create(
                Feed,
                feed_url=f"https://{industry}weekly.news/feed",
                title=f"{name} Weekly",
                website=f"https://{industry}weekly.news",
                description=f"News, people and deals of the {industry} industry every week.",
                kind="industry",
                industry=industry,
                topics=(industry, "industry news"),
                subscribers=rng.randint(1000, 20000),
            )
        )
    for category in sorted({p.category for p in pop.products}):
        out.append(
            s.create(
                Feed,
                feed_url=f"https://{category}.gearlab.reviews/rss",
                title=f"Gear Lab: {category.capitalize()}",
                website=f"https://{category}.gearlab.reviews",
                description=f"Hands-on reviews of {category} products.",
                kind="reviews",
                topics=(category, "reviews"),
                subscribers=rng.randint(3000, 50000),
            )
        )
    return out


def _seed_subscriptions(s: SeedContext, all_feeds: list[Feed], cats: dict[str, Category]) -> dict[str, Subscription]:
    """What the account follows: the blog, live newsrooms, three weeklies and two review sites.

    A few newsrooms are in two folders, and one feed is uncategorized.
    """
    subs: dict[str, Subscription] = {}
    newsrooms = [f for f in all_feeds if f.kind == "newsroom" and f.state != "dead"]
    weeklies = [f for f in all_feeds if f.kind == "industry"]
    reviews = [f for f in all_feeds if f.kind == "reviews"]
    plan: list[tuple[Feed, tuple[str, ...]]] = [(all_feeds[0], ("Company",))]
    plan += [(f, ("Customers",) if k % 5 else ("Customers", "Industry")) for k, f in enumerate(newsrooms[:14])]
    plan += [(f, ("Industry",)) for f in weeklies[:3]]
    plan += [(f, ("Reviews",)) for f in reviews[:2]]
    plan.append((newsrooms[14], ()) if len(newsrooms) > 14 else (weeklies[-1], ()))
    for k, (feed, labels) in enumerate(plan):
        if feed.id in subs:
            continue
        subs[feed.id] = s.create(
            Subscription,
            feed_id=feed.id,
            title=feed.title,
            category_ids=tuple(cats[label].id for label in labels),
            added_at=s.ago(days=280 - 3 * k),
        )
    return subs


def _fill(template: tuple[str, str], **values: str) -> tuple[str, str]:
    return template[0].format(**values), template[1].format(**values)


def _seed_entries(s: SeedContext, feed: Feed, sub: Subscription | None) -> None:
    """The feed's entries from the world; a followed feed's recent ones partly read, older ones read for good."""
    pop = s.population
    rng = s.rng
    company = next((c for c in pop.companies if c.name == feed.company), None)
    drafts = _drafts(s, feed, company)
    if feed.state == "active":
        ages = sorted(rng.uniform(0.1, 45) for _ in drafts)
    elif feed.state == "dormant":
        ages = sorted(rng.uniform(95, 240) for _ in drafts)
    else:
        ages = sorted(rng.uniform(300, 600) for _ in drafts)
    newest = None
    for (title, summary, author, about, words), age in zip(drafts, ages, strict=True):
        published = s.now - dt.timedelta(minutes=round(age * 1440))
        newest = newest or published
        recent = age < AUTO_READ_DAYS
        unread = recent and (sub is None or rng.random() < 0.65)
        url = f"{feed.website}/{published:%Y/%m}/{_slug(title)}"
        if any(e.url == url for e in s.records(Entry)):
            url += f"-{len(s.records(Entry)) + 1}"
        s.create(
            Entry,
            feed_id=feed.id,
            title=title,
            url=url,
            author=author,
            summary=summary,
            company=about,
            keywords=words,
            published=published,
            crawled=published + dt.timedelta(minutes=rng.randint(2, 90)),
            unread=unread,
            read_at=None if unread else min(s.now, published + dt.timedelta(hours=rng.randint(1, 40))),
        )
    recent_count = sum(a < 28 for a in ages)
    s.update(feed, velocity=round(recent_count / 4, 2), last_updated=newest)


Draft = tuple[str, str, str, str | None, tuple[str, ...]]
"""title, summary, byline, the company it is about, keywords."""


def _drafts(s: SeedContext, feed: Feed, company: Company | None) -> list[Draft]:
    pop = s.population
    rng = s.rng
    home = pop.home
    out: list[Draft] = []
    if feed.kind == "newsroom" and company is not None:
        people = list(pop.people_at(company))
        others = [c for c in pop.customers if c.key != company.key]
        for template in rng.sample(NEWSROOM, rng.randint(3, 5)):
            person = rng.choice(people) if people else None
            if "{person}" in template[0] and person is None:
                continue
            title, summary = _fill(
                template,
                company=company.name,
                person=person.name if person else "",
                title=person.job_title if person else "",
                city=rng.choice(pop.places).city,
                other=rng.choice(others).name if others else home.name,
                industry=company.industry,
            )
            byline = people[0].name if people and rng.random() < 0.5 else f"{company.name} Communications"
            out.append((title, summary, byline, company.name, (company.industry, "press release")))
    elif feed.kind == "blog":
        authors = pop.staff("Marketing", fallback=2)
        for k, product in enumerate(pop.products[:6]):
            title, summary = _fill(BLOG[k % len(BLOG)], product=product.name, category=product.category)
            out.append((title, summary, authors[k % len(authors)].name, home.name, (product.category, product.sku)))
    elif feed.kind == "industry":
        inds = [c for c in pop.customers if c.industry == feed.industry] or list(pop.customers)
        for template in INDUSTRY:
            a, b = rng.sample(inds, 2) if len(inds) > 1 else (inds[0], home)
            title, summary = _fill(template, a=a.name, b=b.name, industry=feed.industry or "")
            out.append((title, summary, f"{feed.title} staff", a.name, (feed.industry or "", "industry")))
    else:
        cat = feed.topics[0]
        products = [p for p in pop.products if p.category == cat][:3]
        for k, product in enumerate(products):
            title, summary = _fill(REVIEWS[k % len(REVIEWS)], product=product.name, home=home.name, category=cat)
            out.append((title, summary, "Gear Lab review desk", home.name, (cat, product.sku)))
    return out


def _seed_curation(s: SeedContext, boards: list[Board]) -> None:
    """Saved entries, entries on boards by what they are about, and colleagues' notes on some."""
    rng = s.rng
    intel, partners, feedback = boards
    feeds_by_id = {f.id: f for f in s.records(Feed)}
    noted = 0
    for entry in s.records(Entry):
        feed = feeds_by_id[entry.feed_id]
        on: list[str] = []
        if feed.kind == "industry" and rng.random() < 0.5:
            on.append(intel.id)
        if feed.kind == "newsroom" and ("partners" in entry.title or "office" in entry.title) and rng.random() < 0.6:
            on.append(partners.id)
        if feed.kind == "reviews" and rng.random() < 0.7:
            on.append(feedback.id)
        saved = (bool(on) and rng.random() < 0.4) or rng.random() < 0.05
        if not on and not saved:
            continue
        entry = s.update(
            entry,
            board_ids=tuple(on),
            saved=saved,
            saved_at=min(s.now, entry.published + dt.timedelta(hours=rng.randint(1, 30))) if saved else None,
        )
        if on and noted < 6 and rng.random() < 0.5:
            board = next(b for b in boards if b.id == on[0])
            author = rng.choice((board.owner_email, *board.editor_emails))
            s.create(
                Annotation,
                entry_id=entry.id,
                author_email=author,
                comment=rng.choice(
                    ("Worth raising with the account team.", "Share in the Monday update.", "Keep an eye on this one.")
                ),
                highlight=" ".join(entry.title.split()[:3]),
                created_at=min(s.now, entry.published + dt.timedelta(hours=rng.randint(2, 48))),
            )
            noted += 1


def _seed_operations(s: SeedContext, subs: dict[str, Subscription]) -> None:
    """Two feeds marked read as of a few days ago: the entries up to then read, newer ones as they were."""
    done = 0
    for feed_id in subs:
        if done == 2:
            return
        feed_entries = [e for e in s.records(Entry) if e.feed_id == feed_id]
        as_of = s.now - dt.timedelta(days=3 + done)
        hit = [e for e in feed_entries if e.unread and e.published <= as_of]
        if not hit:
            continue
        for e in hit:
            s.update(e, unread=False, read_at=as_of)
        s.create(
            ReadOperation,
            kind="feed",
            feed_id=feed_id,
            as_of=as_of,
            entry_ids=tuple(e.id for e in hit),
            made_at=as_of,
        )
        done += 1
