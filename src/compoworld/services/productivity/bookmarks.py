"""Stash Bookmarks: personal bookmarking and read-later with collections, tags, highlights and sharing.

Modeled on the Raindrop.io REST API v1 (raindrops, collections with nested
parents and public sharing, collaborators with member or viewer roles, tags,
highlights, broken-link and duplicate detection) and Pocket's read-later
states: a bookmark ("raindrop") is saved by a user into one of their
collections or Unsorted, is unread, archived or in the Trash, can be a
favorite ("important"), carries tags and highlights; a URL is saved only once
per user (the same page with tracking parameters, ``www.`` or a trailing
slash is a duplicate); only the collection's owner and its ``member``
collaborators may save into it (``viewer`` only reads); a trashed bookmark
takes no highlights and is deleted permanently only from the Trash; deleting
a collection moves its bookmarks to the Trash and is refused while it has
sub-collections.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title, Url
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "bookmarks",
    title="Stash Bookmarks",
    category="bookmarking",
    modeled_on="Raindrop.io REST API v1 (raindrops, collections, collaborators, tags, highlights, "
    "broken links, duplicates) with Pocket read-later states (unread, archived)",
    description="Each person's bookmarks and read-later list: pages saved into nested collections or "
    "Unsorted, with tags, favorites, highlights and notes; reading moves them to the archive; collections "
    "are shared with collaborators who may add or only view; broken links and duplicates are found and "
    "cleaned up through the Trash.",
)

BookmarkId = Annotated[str, IdOf("bookmarks.bookmark")]
CollectionId = Annotated[str, IdOf("bookmarks.collection")]
CollaboratorId = Annotated[str, IdOf("bookmarks.collaborator")]
HighlightId = Annotated[str, IdOf("bookmarks.highlight")]

Tag = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9 _\-]{0,39}$")]
"""A lower-case tag."""
Status = Literal["unread", "archived", "trashed"]
Kind = Literal["link", "article", "image", "video", "document", "audio"]
Role = Literal["member", "viewer"]
Color = Literal["yellow", "blue", "green", "red", "purple"]

MAX_TAGS = 20
MAX_HIGHLIGHTS = 50
DEAD_HOSTS = ("oldblog.example", "geocities.example", "shutdown.example")
_TRACKING = re.compile(r"^(utm_[a-z]+|fbclid|gclid|ref)=")


class Collection(Record):
    """A folder of bookmarks that belongs to one person, possibly nested and shared."""

    id: CollectionId
    title: Title
    """Its name."""
    owner_email: Email
    """The person whose collection it is."""
    parent_id: CollectionId | None = None
    """The collection it is nested in; none: top level."""
    description: Text = ""
    """What it gathers."""
    public: bool = False
    """Whether anyone with its link may view it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Collaborator(Record):
    """A person a collection is shared with."""

    id: CollaboratorId
    collection_id: CollectionId
    """The shared collection."""
    email: Email
    """The collaborator's e-mail."""
    role: Role = "viewer"
    """member (may add and edit bookmarks) or viewer (read only)."""
    invited_by: Email
    """The owner who shared it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was shared."""


class Bookmark(Record):
    """A saved page ("raindrop")."""

    id: BookmarkId
    link: Url
    """The page's URL."""
    title: Title
    """The page title (or the user's own)."""
    excerpt: Text = ""
    """A short description."""
    note: Text = ""
    """The user's own note."""
    kind: Kind = "link"
    """link, article, image, video, document or audio."""
    site: Annotated[str, StringConstraints(min_length=1, max_length=253)]
    """The host name of the page."""
    owner_email: Email
    """The person who saved it."""
    collection_id: CollectionId | None = None
    """Its collection; none: Unsorted."""
    tags: tuple[Tag, ...] = ()
    """Its tags."""
    status: Status = "unread"
    """unread, archived (read) or trashed."""
    favorite: bool = False
    """Marked important."""
    broken: bool = False
    """The last link check found the page gone."""
    last_checked_at: DateTime | None = None
    """When the link was last checked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was saved."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Highlight(Record):
    """A passage highlighted in a saved page, with an optional note."""

    id: HighlightId
    bookmark_id: BookmarkId
    """The bookmark."""
    text: Annotated[str, StringConstraints(min_length=1, max_length=2000)]
    """The highlighted passage."""
    color: Color = "yellow"
    """yellow, blue, green, red or purple."""
    note: Text = ""
    """The reader's note on it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class TagCount(Value):
    """A tag and how many of a person's bookmarks carry it."""

    tag: str
    """The tag."""
    count: int
    """Bookmarks with it (not counting the Trash)."""


class DuplicateGroup(Value):
    """Bookmarks of one person that point at the same page."""

    canonical_link: str
    """The URL without scheme, www., tracking parameters or trailing slash."""
    bookmark_ids: list[BookmarkId]
    """The bookmarks, oldest first."""


class LinkCheck(Value):
    """The result of checking a bookmark's link."""

    bookmark_id: BookmarkId
    """The bookmark."""
    link: str
    """Its URL."""
    broken: bool
    """Whether the page is gone."""


# -- rules ------------------------------------------------------------------------------------


def canonical(link: str) -> str:
    """The page a URL points at: no scheme, ``www.``, fragment, tracking parameters or trailing slash."""
    rest = re.sub(r"^https?://", "", link.strip()).split("#", 1)[0]
    rest = rest[4:] if rest.lower().startswith("www.") else rest
    path, _, query = rest.partition("?")
    kept = [q for q in query.split("&") if q and not _TRACKING.match(q)]
    host, _, tail = path.partition("/")
    path = host.lower() + ("/" + tail if tail else "")
    return path.rstrip("/") + ("?" + "&".join(kept) if kept else "")


def _site(link: str) -> str:
    host = re.sub(r"^https?://", "", link).split("/", 1)[0].split("?", 1)[0].lower()
    return host[4:] if host.startswith("www.") else host


def _can_write(ctx: Ctx, col: Collection, email: str, field: str) -> None:
    if col.owner_email == email:
        return
    share = ctx.first(Collaborator, collection_id=col.id, email=email)
    if share is None or share.role != "member":
        raise RuleViolation(
            f"{email} may not add to collection {col.title!r}"
            + (" (viewer only)" if share is not None else " (not shared with them)"),
            field=field,
            hint="ask the owner to share it with the member role, or save to your own collection",
        )


def _duplicate(ctx: Ctx, owner: str, link: str, skip: str | None = None) -> Bookmark | None:
    key = canonical(link)
    for b in ctx.where(Bookmark, owner_email=owner):
        if b.id != skip and b.status != "trashed" and canonical(b.link) == key:
            return b
    return None


def _clean_tags(tags: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    out = tuple(dict.fromkeys(t.strip().lower() for t in tags))
    if len(out) > MAX_TAGS:
        raise RuleViolation(f"at most {MAX_TAGS} tags per bookmark", field="tags", hint="drop some tags")
    return out


def _guard_collection(ctx: Ctx, new: Any, old: Any) -> None:
    if new.parent_id is None:
        return
    parent = ctx.get(Collection, new.parent_id, field="parent_id")
    if parent.owner_email != new.owner_email:
        raise RuleViolation(
            "a collection nests only under its owner's collections",
            field="parent_id",
            hint="pick one of your own collections",
        )
    seen: set[str] = {new.id}
    cur: Collection | None = parent
    while cur is not None:
        if cur.id in seen:
            raise RuleViolation("a collection cannot nest under itself", field="parent_id", hint="pick another parent")
        seen.add(cur.id)
        cur = ctx.find(Collection, cur.parent_id) if cur.parent_id else None


def _guard_bookmark(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        return
    if old.status == "trashed" and new.status == "trashed":
        raise RuleViolation(
            "a bookmark in the Trash cannot change", field="bookmark_id", hint="restore it with restore_bookmark"
        )
    if new.tags != old.tags:
        _clean_tags(new.tags)
    if new.link != old.link:
        other = _duplicate(ctx, new.owner_email, new.link, skip=new.id)
        if other is not None:
            raise Conflict(f"bookmark {other.id} already saves this page", field="link", hint="keep that one")
        ctx.update(new, site=_site(new.link), broken=False)


def _guard_bookmark_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "trashed":
        raise RuleViolation(
            "only a bookmark in the Trash is deleted permanently",
            field="bookmark_id",
            hint="move it to the Trash first with bookmarks__trash_bookmark",
        )
    for h in ctx.where(Highlight, bookmark_id=old.id):
        ctx.delete(h)


collections = service.resource(
    Collection,
    name="collection",
    plural="collections",
    prefix="col",
    create=("title", "owner_email", "parent_id", "description", "public"),
    filters=("owner_email", "parent_id", "public"),
    search=("title", "description"),
    update=("title", "description", "public", "parent_id"),
    delete=False,
    guard_create=_guard_collection,
    guard_update=_guard_collection,
)
collaborators = service.resource(
    Collaborator,
    name="collaborator",
    plural="collaborators",
    prefix="collab",
    create=False,
    get=False,
    filters=("collection_id", "email", "role"),
    update=("role",),
    delete=True,
)
bookmarks = service.resource(
    Bookmark,
    name="bookmark",
    plural="bookmarks",
    prefix="rd",
    create=False,
    filters=("owner_email", "collection_id", "status", "favorite", "broken", "kind", "site"),
    search=("title", "excerpt", "note", "link"),
    update=("title", "excerpt", "note", "tags", "kind"),
    delete=True,
    transitions={
        "archive": Transition("status", ("unread",), "archived", "archive the bookmark as read"),
        "unarchive": Transition("status", ("archived",), "unread", "put the bookmark back on the reading list"),
        "trash": Transition("status", ("unread", "archived"), "trashed", "move the bookmark to the Trash"),
        "restore": Transition("status", ("trashed",), "unread", "restore the bookmark from the Trash"),
        "favorite": Transition("favorite", (False,), True, "mark the bookmark as a favorite"),
        "unfavorite": Transition("favorite", (True,), False, "remove the bookmark from favorites"),
    },
    guard_update=_guard_bookmark,
    guard_delete=_guard_bookmark_delete,
)
highlights = service.resource(
    Highlight,
    name="highlight",
    plural="highlights",
    prefix="hl",
    create=False,
    get=False,
    filters=("bookmark_id", "color"),
    search=("text", "note"),
    update=("color", "note"),
    delete=True,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_save(ctx: Ctx) -> dict[str, Any] | None:
    owner = ctx.population.employees[0].email
    col = ctx.first(Collection, owner_email=owner)
    return {
        "link": "https://www.rfc-editor.org/rfc/rfc9110.html",
        "owner_email": owner,
        "title": "RFC 9110: HTTP Semantics",
        "collection_id": None if col is None else col.id,
        "tags": ["http", "standards"],
        "kind": "document",
    }


@service.tool(intent="save the page as a bookmark", write=True, example=_example_save)
def save_bookmark(
    ctx: Ctx,
    link: Url,
    owner_email: Email,
    title: Title,
    collection_id: CollectionId | None = None,
    tags: list[Tag] | None = None,
    excerpt: Text = "",
    kind: Kind = "link",
) -> Bookmark:
    """Save a page for a person, into a collection they may add to or into Unsorted; a page is saved once.

    Args:
        link: The page's URL.
        owner_email: The person saving it.
        title: Its title.
        collection_id: The collection (owned, or shared with the member role); omit for Unsorted.
        tags: Tags to put on it.
        excerpt: A short description.
        kind: link, article, image, video, document or audio.
    """
    if collection_id is not None:
        _can_write(ctx, ctx.get(Collection, collection_id, field="collection_id"), owner_email, "collection_id")
    other = _duplicate(ctx, owner_email, link)
    if other is not None:
        raise Conflict(
            f"{owner_email} already saved this page as bookmark {other.id}",
            field="link",
            hint="update or move the existing bookmark instead",
        )
    return ctx.create(
        Bookmark,
        link=link,
        title=title,
        excerpt=excerpt,
        kind=kind,
        site=_site(link),
        owner_email=owner_email,
        collection_id=collection_id,
        tags=_clean_tags(tags or []),
    )


@service.tool(
    intent="move the bookmark to another collection",
    write=True,
    example=first_example(Bookmark, "bookmark_id", where={"status": "unread", "collection_id": None}),
)
def move_bookmark(ctx: Ctx, bookmark_id: BookmarkId, collection_id: CollectionId | None = None) -> Bookmark:
    """Move a bookmark into a collection its owner may add to, or back to Unsorted.

    Args:
        bookmark_id: The bookmark.
        collection_id: The target collection; omit for Unsorted.
    """
    b = ctx.get(Bookmark, bookmark_id, field="bookmark_id")
    if b.status == "trashed":
        raise RuleViolation("the bookmark is in the Trash", field="bookmark_id", hint="restore it first")
    if collection_id is not None:
        _can_write(ctx, ctx.get(Collection, collection_id, field="collection_id"), b.owner_email, "collection_id")
    return ctx.update(b, collection_id=collection_id)


@service.tool(
    intent="delete the collection",
    write=True,
    destructive=True,
    example=first_example(Collection, "collection_id", match=lambda c, r: not c.where(Collection, parent_id=r.id)),
)
def delete_collection(ctx: Ctx, collection_id: CollectionId) -> Collection:
    """Delete a collection without sub-collections: its bookmarks go to the Trash, its sharing ends.

    Args:
        collection_id: The collection.
    """
    col = ctx.get(Collection, collection_id, field="collection_id")
    children = ctx.where(Collection, parent_id=col.id)
    if children:
        raise RuleViolation(
            f"collection {col.title!r} has {len(children)} sub-collection(s)",
            field="collection_id",
            hint="delete or move its sub-collections first",
        )
    for b in ctx.where(Bookmark, collection_id=col.id):
        ctx.update(b, collection_id=None, status="trashed")
    for share in ctx.where(Collaborator, collection_id=col.id):
        ctx.delete(share)
    ctx.delete(col)
    return col


def _example_share(ctx: Ctx) -> dict[str, Any] | None:
    col = ctx.first(Collection)
    if col is None:
        return None
    taken = {c.email for c in ctx.where(Collaborator, collection_id=col.id)} | {col.owner_email}
    other = next(p.email for p in ctx.population.employees if p.email not in taken)
    return {"collection_id": col.id, "email": other, "role": "member"}


@service.tool(intent="share the collection with a collaborator", write=True, example=_example_share)
def share_collection(ctx: Ctx, collection_id: CollectionId, email: Email, role: Role = "viewer") -> Collaborator:
    """Share a top-level collection with a person as member (may add) or viewer (read only).

    Args:
        collection_id: The collection.
        email: The person to share it with.
        role: member or viewer.
    """
    col = ctx.get(Collection, collection_id, field="collection_id")
    if col.parent_id is not None:
        raise RuleViolation(
            "only top-level collections are shared", field="collection_id", hint="share its top-level collection"
        )
    if email == col.owner_email:
        raise RuleViolation("the owner already has the collection", field="email", hint="share it with someone else")
    if ctx.first(Collaborator, collection_id=col.id, email=email) is not None:
        raise Conflict(
            f"{email} is already a collaborator", field="email", hint="change their role with update_collaborator"
        )
    return ctx.create(Collaborator, collection_id=col.id, email=email, role=role, invited_by=col.owner_email)


@service.tool(
    intent="highlight a passage of the bookmark",
    write=True,
    example=first_example(Bookmark, "bookmark_id", where={"status": "unread"}, text="The key takeaway."),
)
def add_highlight(
    ctx: Ctx,
    bookmark_id: BookmarkId,
    text: Annotated[str, StringConstraints(min_length=1, max_length=2000)],
    color: Color = "yellow",
    note: Text = "",
) -> Highlight:
    """Highlight a passage of a saved page (not one in the Trash), with an optional note.

    Args:
        bookmark_id: The bookmark.
        text: The passage.
        color: yellow, blue, green, red or purple.
        note: A note on it.
    """
    b = ctx.get(Bookmark, bookmark_id, field="bookmark_id")
    if b.status == "trashed":
        raise RuleViolation("the bookmark is in the Trash", field="bookmark_id", hint="restore it first")
    made = ctx.where(Highlight, bookmark_id=b.id)
    if len(made) >= MAX_HIGHLIGHTS:
        raise RuleViolation(
            f"at most {MAX_HIGHLIGHTS} highlights per bookmark", field="bookmark_id", hint="delete some"
        )
    if any(h.text == text for h in made):
        raise Conflict("this passage is already highlighted", field="text", hint="change that highlight's note")
    return ctx.create(Highlight, bookmark_id=b.id, text=text, color=color, note=note)


def _owner_example(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Bookmark)
    return None if b is None else {"owner_email": b.owner_email}


@service.tool(intent="list the person's tags", example=_owner_example)
def list_tags(ctx: Ctx, owner_email: Email) -> list[TagCount]:
    """A person's tags with how many bookmarks (outside the Trash) carry each, most used first.

    Args:
        owner_email: The person.
    """
    counts: dict[str, int] = {}
    for b in ctx.where(Bookmark, owner_email=owner_email):
        if b.status != "trashed":
            for t in b.tags:
                counts[t] = counts.get(t, 0) + 1
    return [TagCount(tag=t, count=n) for t, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def _example_rename(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.scan(Bookmark):
        if b.tags:
            return {"owner_email": b.owner_email, "tag": b.tags[0], "new_tag": "renamed-tag"}
    return None


@service.tool(intent="rename or merge the tag", write=True, example=_example_rename)
def rename_tag(ctx: Ctx, owner_email: Email, tag: Tag, new_tag: Tag) -> list[TagCount]:
    """Rename a tag on all of a person's bookmarks; renaming to an existing tag merges the two.

    Args:
        owner_email: The person.
        tag: The tag to rename.
        new_tag: Its new name.
    """
    if tag == new_tag:
        raise RuleViolation("the new name is the same", field="new_tag", hint="pick a different name")
    tagged = [b for b in ctx.where(Bookmark, owner_email=owner_email) if tag in b.tags]
    if not tagged:
        raise RuleViolation(
            f"{owner_email} has no bookmark tagged {tag!r}", field="tag", hint="list tags with bookmarks__list_tags"
        )
    for b in tagged:
        ctx.update(b, tags=tuple(dict.fromkeys(new_tag if t == tag else t for t in b.tags)))
    return list_tags(ctx, owner_email)


@service.tool(intent="find duplicate bookmarks", example=_owner_example)
def find_duplicates(ctx: Ctx, owner_email: Email) -> list[DuplicateGroup]:
    """Groups of a person's bookmarks (outside the Trash) that save the same page.

    Args:
        owner_email: The person.
    """
    groups: dict[str, list[str]] = {}
    for b in ctx.where(Bookmark, owner_email=owner_email):
        if b.status != "trashed":
            groups.setdefault(canonical(b.link), []).append(b.id)
    return [DuplicateGroup(canonical_link=k, bookmark_ids=v) for k, v in sorted(groups.items()) if len(v) > 1]


@service.tool(
    intent="check the bookmark's link",
    write=True,
    idempotent=True,
    example=first_example(Bookmark, "bookmark_id", where={"status": "unread"}),
)
def check_link(ctx: Ctx, bookmark_id: BookmarkId) -> LinkCheck:
    """Check whether a bookmark's page still answers; the bookmark is flagged broken when it is gone.

    Args:
        bookmark_id: The bookmark.
    """
    b = ctx.get(Bookmark, bookmark_id, field="bookmark_id")
    gone = b.site.endswith(DEAD_HOSTS) or "/removed/" in b.link
    ctx.update(b, broken=gone, last_checked_at=ctx.now())
    return LinkCheck(bookmark_id=b.id, link=b.link, broken=gone)


# -- seed -------------------------------------------------------------------------------------

READS: tuple[tuple[str, str, Kind, tuple[str, ...]], ...] = (
    ("https://martinfowler.com/articles/microservices.html", "Microservices", "article", ("architecture",)),
    ("https://www.nngroup.com/articles/ten-usability-heuristics/", "10 Usability Heuristics", "article", ("ux",)),
    ("https://www.youtube.com/watch?v=8aGhZQkoFbQ", "What the heck is the event loop?", "video", ("javascript",)),
    ("https://hbr.org/2016/01/collaborative-overload", "Collaborative Overload", "article", ("management",)),
    ("https://arxiv.org/pdf/1706.03762", "Attention Is All You Need", "document", ("ml", "papers")),
    ("https://oldblog.example/posts/2014/remote-work", "Remote work, ten years in", "article", ("remote",)),
    ("https://www.postgresql.org/docs/current/indexes.html", "PostgreSQL: Indexes", "document", ("databases",)),
    ("https://geocities.example/~dev/tips.html", "Old dev tips", "link", ("archive",)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff's collections (one shared per team lead), reading lists in every state, highlights and duplicates."""
    pop = s.population
    staff = list(pop.employees[:12])
    partners = list(pop.companies[1:9])
    for k, p in enumerate(staff):
        when = s.ago(days=300 - 11 * k)
        reading = s.create(Collection, title="Reading list", owner_email=p.email, created_at=when, updated_at=when)
        research = s.create(
            Collection,
            title="Partners and vendors",
            owner_email=p.email,
            description="Websites of the companies we work with.",
            public=k % 4 == 0,
            created_at=when,
            updated_at=when,
        )
        sub = None
        if k % 3 == 0:
            sub = s.create(
                Collection, title="Papers", owner_email=p.email, parent_id=reading.id, created_at=when, updated_at=when
            )
        for j in range(4):
            link, title, kind, tags = READS[(k + j) % len(READS)]
            status: Any = ("unread", "archived", "unread", "trashed")[(k + j) % 4] if j else "unread"
            b = s.create(
                Bookmark,
                link=link,
                title=title,
                kind=kind,
                site=_site(link),
                owner_email=p.email,
                collection_id=(sub.id if sub and kind == "document" else reading.id) if j % 3 else None,
                tags=tags,
                status=status,
                favorite=j == 1,
                broken=_site(link).endswith(DEAD_HOSTS) and k % 2 == 0,
                last_checked_at=s.ago(days=3) if k % 2 == 0 else None,
                created_at=s.ago(days=200 - 9 * k - j),
                updated_at=s.ago(days=100 - 5 * k - j),
            )
            if status != "trashed" and j % 2 == 0:
                s.create(
                    Highlight,
                    bookmark_id=b.id,
                    text=f"Key point {j + 1} of {title}.",
                    color=("yellow", "blue", "green")[k % 3],
                    note="Share with the team." if k % 2 else "",
                    created_at=s.ago(days=90 - 5 * k),
                )
        for j, co in enumerate(partners[k % 4 : k % 4 + 3]):
            s.create(
                Bookmark,
                link=f"https://{co.domain}/",
                title=co.name,
                excerpt=f"{co.name} — {co.industry}.",
                site=co.domain,
                owner_email=p.email,
                collection_id=research.id,
                tags=("partners", co.industry.lower().replace(" ", "-")[:40]),
                created_at=s.ago(days=150 - 7 * k - j),
                updated_at=s.ago(days=150 - 7 * k - j),
            )
        if k % 4 == 1:
            link, title, kind, tags = READS[k % len(READS)]
            s.create(
                Bookmark,
                link=link.replace("https://", "http://") + "?utm_source=newsletter",
                title=title,
                kind=kind,
                site=_site(link),
                owner_email=p.email,
                tags=tags,
                created_at=s.ago(days=20),
                updated_at=s.ago(days=20),
            )
        if k % 3 == 0:
            for n, other in enumerate(staff[k + 1 : k + 3]):
                s.create(
                    Collaborator,
                    collection_id=research.id,
                    email=other.email,
                    role="member" if n == 0 else "viewer",
                    invited_by=p.email,
                    created_at=s.ago(days=60),
                )
