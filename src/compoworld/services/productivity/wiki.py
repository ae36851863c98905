"""Folio Wiki: the home company's knowledge base of spaces, page trees, versions, comments and files.

Modeled on the Confluence Cloud REST API v2 (Spaces, Pages with ``version.number``
and ``parentId``, page versions, footer comments, labels, content restrictions,
attachments): page titles are unique within a space, an update must quote the
current version number or it conflicts, a page with children is deleted only
with its subtree, restricted pages are edited only by their listed editors, and
an archived space is read-only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, FileLink, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "wiki",
    title="Folio Wiki",
    category="documents",
    modeled_on="Confluence Cloud REST API v2 (Spaces, Pages with version and parentId, Page Versions, "
    "Footer Comments, Labels, Content Restrictions, Attachments)",
    description="The home company's internal wiki: spaces per team, page trees with version history, "
    "comments, labels, edit restrictions and attached files, written by employees.",
)

SpaceId = Annotated[str, IdOf("wiki.space")]
PageId = Annotated[str, IdOf("wiki.page")]
VersionId = Annotated[str, IdOf("wiki.page_version")]
CommentId = Annotated[str, IdOf("wiki.comment")]
AttachmentId = Annotated[str, IdOf("wiki.attachment")]
SpaceKey = Annotated[str, StringConstraints(pattern=r"^[A-Z][A-Z0-9]{1,9}$")]
Label = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{0,49}$")]
VersionNumber = Annotated[int, Field(ge=1, le=100000)]

MAX_DEPTH = 50


class Space(Created):
    """A space: a team's or a person's area of the wiki."""

    id: SpaceId
    key: SpaceKey
    """Short unique key (uppercase letters and digits), e.g. ENG."""
    name: Title
    """Name of the space."""
    description: Text = ""
    """What the space is for."""
    type: Literal["global", "personal"] = "global"
    """global (team) or personal."""
    status: Literal["current", "archived"] = "current"
    """current, or archived (read-only)."""
    homepage_id: PageId | None = None
    """The space's home page."""
    created_by: Email
    """E-mail of the employee who created it."""


class Page(Timestamped):
    """A wiki page in a space's page tree; every edit makes a new version."""

    id: PageId
    space_id: SpaceId
    """The space the page is in."""
    parent_id: PageId | None = None
    """The parent page; none for a top-level page."""
    title: Title
    """Title, unique within the space."""
    body: Text = ""
    """Page content (storage format)."""
    status: Literal["current", "draft"] = "current"
    """current (published) or draft."""
    version: VersionNumber = 1
    """Current version number; updates must quote it."""
    author_email: Email
    """E-mail of the employee who created the page."""
    last_editor_email: Email
    """E-mail of the employee who made the current version."""
    labels: tuple[Label, ...] = ()
    """Labels on the page."""
    editors: tuple[Email, ...] = ()
    """Edit restriction: if not empty, only these employees may change the page."""


class PageVersion(Record):
    """One saved version of a page."""

    id: VersionId
    page_id: PageId
    """The page."""
    number: VersionNumber
    """Version number."""
    title: Title
    """Title at that version."""
    body: Text = ""
    """Content at that version."""
    author_email: Email
    """Who saved the version."""
    message: Text = ""
    """Version comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was saved."""


class Comment(Record):
    """A footer comment on a page, possibly replying to another."""

    id: CommentId
    page_id: PageId
    """The page commented on."""
    parent_comment_id: CommentId | None = None
    """The comment this one replies to."""
    author_email: Email
    """E-mail of the employee who wrote it."""
    body: Text
    """Comment text."""
    resolved: bool = False
    """Whether the discussion is resolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Attachment(Record):
    """A file attached to a page."""

    id: AttachmentId
    page_id: PageId
    """The page the file is attached to."""
    title: Title
    """File name, unique on the page."""
    media_type: Literal["application/pdf", "image/png", "image/jpeg", "text/csv", "application/zip", "text/plain"]
    """MIME type."""
    file_size: Quantity
    """Size in bytes."""
    download_link: FileLink
    """Link to download the file."""
    created_by: Email
    """E-mail of the employee who uploaded it."""
    comment: Text = ""
    """Upload comment."""
    created_at: Annotated[DateTime, CREATED]
    """When it was uploaded."""


# -- rules ------------------------------------------------------------------------------------


def _employee(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(
            f"{email} is not an employee of {ctx.population.home.name}",
            field=field,
            hint="wiki content is written by employees; use a colleague's work e-mail",
        )


def _writable_space(ctx: Ctx, space_id: str, field: str) -> Space:
    space = ctx.get(Space, space_id, field=field)
    if space.status == "archived":
        raise RuleViolation(
            f"space {space.key} is archived and read-only",
            field=field,
            hint="restore the space with wiki__restore_space first",
        )
    return space


def _may_edit(page: Page, who: str, field: str) -> None:
    if page.editors and who not in page.editors:
        raise RuleViolation(
            f"page {page.id} is restricted; {who} is not one of its editors",
            field=field,
            hint=f"ask one of its editors ({', '.join(page.editors[:3])}) to make the change or to add you",
        )


def _title_free(ctx: Ctx, space_id: str, title: str, skip: str = "", field: str = "title") -> None:
    for other in ctx.where(Page, space_id=space_id, title=title):
        if other.id != skip:
            raise Conflict(
                f"a page titled {title!r} already exists in this space ({other.id})",
                field=field,
                hint="choose another title or edit the existing page",
            )


def _children(ctx: Ctx, page_id: str) -> list[Page]:
    return ctx.where(Page, parent_id=page_id)


def _descendants(ctx: Ctx, page_id: str) -> list[Page]:
    out: list[Page] = []
    todo = [page_id]
    while todo:
        for child in _children(ctx, todo.pop()):
            out.append(child)
            todo.append(child.id)
    return out


def _ancestors(ctx: Ctx, page: Page) -> list[Page]:
    out: list[Page] = []
    cur = page
    while cur.parent_id is not None and len(out) < MAX_DEPTH:
        parent = ctx.find(Page, cur.parent_id)
        if parent is None:
            break
        out.append(parent)
        cur = parent
    out.reverse()
    return out


def _page_in_writable_space(ctx: Ctx, page_id: str, field: str) -> Page:
    page = ctx.get(Page, page_id, field=field)
    _writable_space(ctx, page.space_id, field)
    return page


def _guard_space_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "archived" and new.status == "archived":
        raise RuleViolation(
            f"space {old.key} is archived and read-only",
            field="space_id",
            hint="restore the space with wiki__restore_space first",
        )
    if new.homepage_id is not None and new.homepage_id != old.homepage_id:
        home = ctx.get(Page, new.homepage_id, field="homepage_id")
        if home.space_id != old.id:
            raise RuleViolation(
                f"page {home.id} is in another space",
                field="homepage_id",
                hint="pick a page of this space as its home page",
            )


def _guard_space_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Page, space_id=old.id) is not None:
        raise RuleViolation(
            f"space {old.key} still has pages",
            field="space_id",
            hint="delete its pages first (wiki__delete_page with cascade), or archive the space instead",
        )


def _guard_comment_create(ctx: Ctx, new: Any, old: Any) -> None:
    _page_in_writable_space(ctx, new.page_id, "page_id")
    _employee(ctx, new.author_email, "author_email")
    if new.parent_comment_id is not None:
        parent = ctx.get(Comment, new.parent_comment_id, field="parent_comment_id")
        if parent.page_id != new.page_id:
            raise RuleViolation(
                f"comment {parent.id} is on another page",
                field="parent_comment_id",
                hint="reply to a comment of the same page",
            )


def _guard_comment_change(ctx: Ctx, new: Any, old: Any) -> None:
    _page_in_writable_space(ctx, old.page_id, "comment_id")


def _guard_comment_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _page_in_writable_space(ctx, old.page_id, "comment_id")
    if ctx.first(Comment, parent_comment_id=old.id) is not None:
        raise RuleViolation(
            f"comment {old.id} has replies", field="comment_id", hint="delete the replies first, or resolve it"
        )


def _guard_attachment_create(ctx: Ctx, new: Any, old: Any) -> None:
    page = _page_in_writable_space(ctx, new.page_id, "page_id")
    _employee(ctx, new.created_by, "created_by")
    _may_edit(page, new.created_by, "created_by")
    for other in ctx.where(Attachment, page_id=page.id, title=new.title):
        if other.id != new.id:
            raise Conflict(
                f"page {page.id} already has a file named {new.title!r} ({other.id})",
                field="title",
                hint="rename the file or delete the old attachment first",
            )


def _guard_attachment_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _page_in_writable_space(ctx, old.page_id, "attachment_id")


spaces = service.resource(
    Space,
    name="space",
    plural="spaces",
    prefix="spc",
    create=False,
    filters=("key", "type", "status", "created_by"),
    search=("name", "key", "description"),
    update=("name", "description", "homepage_id"),
    transitions={
        "archive": Transition(
            "status",
            ("current",),
            "archived",
            "archive the space",
            "Archive a space: its pages, comments and files become read-only until it is restored.",
        ),
        "restore": Transition("status", ("archived",), "current", "restore the archived space"),
    },
    unique=("key",),
    guard_update=_guard_space_update,
    guard_delete=_guard_space_delete,
)
pages = service.resource(
    Page,
    name="page",
    plural="pages",
    prefix="pg",
    create=False,
    filters=("space_id", "parent_id", "status", "title", "author_email"),
    search=("title", "body"),
    delete=False,
)
page_versions = service.resource(
    PageVersion,
    name="page_version",
    plural="page_versions",
    prefix="ver",
    create=False,
    filters=("page_id", "number", "author_email"),
    search=("message",),
    delete=False,
    title="page version",
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="cmt",
    create=("page_id", "author_email", "body", "parent_comment_id"),
    filters=("page_id", "author_email", "parent_comment_id", "resolved"),
    search=("body",),
    update=("body",),
    transitions={
        "resolve": Transition("resolved", (False,), True, "resolve the comment"),
        "reopen": Transition("resolved", (True,), False, "reopen the comment"),
    },
    guard_create=_guard_comment_create,
    guard_update=_guard_comment_change,
    guard_delete=_guard_comment_delete,
)
attachments = service.resource(
    Attachment,
    name="attachment",
    plural="attachments",
    prefix="att",
    create=("page_id", "title", "media_type", "file_size", "download_link", "created_by", "comment"),
    filters=("page_id", "media_type", "created_by"),
    search=("title", "comment"),
    guard_create=_guard_attachment_create,
    guard_delete=_guard_attachment_delete,
)


# -- spaces -----------------------------------------------------------------------------------


def _example_create_space(ctx: Ctx) -> dict[str, Any] | None:
    for key in ("OPS", "DOCS", "HANDBOOK", "LEGAL", "TEAMX"):
        if ctx.first(Space, key=key) is None:
            return {"key": key, "name": f"{key.title()} space", "created_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="create a wiki space", write=True, example=_example_create_space)
def create_space(
    ctx: Ctx,
    key: SpaceKey,
    name: Title,
    created_by: Email,
    description: Text = "",
    type: Literal["global", "personal"] = "global",
) -> Space:
    """Create a space with an empty home page named after it.

    Args:
        key: Unique key, 2 to 10 uppercase letters or digits starting with a letter.
        name: Name of the space.
        created_by: E-mail of the employee creating it.
        description: What the space is for.
        type: global (team) or personal.
    """
    _employee(ctx, created_by, "created_by")
    space = ctx.create(Space, key=key, name=name, created_by=created_by, description=description, type=type)
    home = _new_page(ctx, space, f"{name} Home", "", created_by, None, "current")
    return ctx.update(space, homepage_id=home.id)


# -- pages ------------------------------------------------------------------------------------


def _new_page(ctx: Ctx, space: Space, title: str, body: str, author: str, parent_id: str | None, status: str) -> Page:
    page = ctx.create(
        Page,
        space_id=space.id,
        parent_id=parent_id,
        title=title,
        body=body,
        status=status,
        author_email=author,
        last_editor_email=author,
    )
    ctx.create(PageVersion, page_id=page.id, number=1, title=title, body=body, author_email=author, message="")
    return page


@service.tool(
    intent="write a new wiki page",
    write=True,
    example=first_example(
        Space,
        "space_id",
        where={"status": "current"},
        fields={"author_email": "created_by", "parent_id": "homepage_id"},
        title="Runbook: conformance",
        body="<p>Steps</p>",
    ),
)
def create_page(
    ctx: Ctx,
    space_id: SpaceId,
    title: Title,
    author_email: Email,
    body: Text = "",
    parent_id: PageId | None = None,
    status: Literal["current", "draft"] = "current",
) -> Page:
    """Create a page (version 1) in a space, optionally under a parent page of the same space.

    Titles are unique within a space. Archived spaces take no new pages, and a
    restricted parent only takes children from its editors.

    Args:
        space_id: The space.
        title: Page title, unique in the space.
        author_email: E-mail of the employee writing it.
        body: Content.
        parent_id: Parent page in the same space; omit for a top-level page.
        status: current (published) or draft.
    """
    space = _writable_space(ctx, space_id, "space_id")
    _employee(ctx, author_email, "author_email")
    if parent_id is not None:
        parent = ctx.get(Page, parent_id, field="parent_id")
        if parent.space_id != space.id:
            raise RuleViolation(
                f"parent page {parent.id} is in another space",
                field="parent_id",
                hint="pick a parent in the same space, or move the page afterwards",
            )
        _may_edit(parent, author_email, "author_email")
    _title_free(ctx, space.id, title)
    return _new_page(ctx, space, title, body, author_email, parent_id, status)


def _example_update_page(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if space is None or space.status != "current":
            continue
        editor = page.editors[0] if page.editors else page.author_email
        return {"page_id": page.id, "version_number": page.version, "editor_email": editor, "body": "<p>Updated</p>"}
    return None


@service.tool(intent="edit the wiki page", write=True, example=_example_update_page)
def update_page(
    ctx: Ctx,
    page_id: PageId,
    version_number: VersionNumber,
    editor_email: Email,
    title: Title | None = None,
    body: Text | None = None,
    status: Literal["current", "draft"] | None = None,
    message: Text = "",
) -> Page:
    """Save a new version of a page.

    ``version_number`` must be the page's current version: if someone saved
    since, the update conflicts and nothing changes (read the page again and
    redo the edit). Restricted pages are edited only by their editors; pages of
    archived spaces not at all; the title stays unique in the space. A
    published page cannot go back to draft.

    Args:
        page_id: The page.
        version_number: The page's current version number, as last read.
        editor_email: E-mail of the employee editing.
        title: New title; omit to keep.
        body: New content; omit to keep.
        status: Publish a draft with current; omit to keep.
        message: Version comment.
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    if version_number != page.version:
        raise Conflict(
            f"page {page.id} is at version {page.version}, not {version_number}",
            field="version_number",
            hint="someone changed the page since you read it; get it again, reapply your edit and "
            "pass the current version number",
        )
    _employee(ctx, editor_email, "editor_email")
    _may_edit(page, editor_email, "editor_email")
    if title is None and body is None and status is None:
        raise RuleViolation("nothing to change", field="body", hint="pass a new title, body or status")
    if status == "draft" and page.status == "current":
        raise RuleViolation(
            f"page {page.id} is published and cannot become a draft again",
            field="status",
            hint="keep it current; edit it in place",
        )
    new_title = title if title is not None else page.title
    if new_title != page.title:
        _title_free(ctx, page.space_id, new_title)
    return _save_version(ctx, page, new_title, body if body is not None else page.body, editor_email, message, status)


def _save_version(
    ctx: Ctx, page: Page, title: str, body: str, editor: str, message: str, status: str | None = None
) -> Page:
    number = page.version + 1
    ctx.create(
        PageVersion, page_id=page.id, number=number, title=title, body=body, author_email=editor, message=message
    )
    return ctx.update(
        page, title=title, body=body, version=number, last_editor_email=editor, status=status or page.status
    )


def _example_restore_version(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if page.version < 2 or space is None or space.status != "current":
            continue
        editor = page.editors[0] if page.editors else page.author_email
        return {"page_id": page.id, "restore_number": 1, "version_number": page.version, "editor_email": editor}
    return None


@service.tool(intent="roll the page back to an earlier version", write=True, example=_example_restore_version)
def restore_page_version(
    ctx: Ctx, page_id: PageId, restore_number: VersionNumber, version_number: VersionNumber, editor_email: Email
) -> Page:
    """Restore an earlier version of a page as a new current version (history is kept).

    Same rules as an update: quote the current version number, be an editor
    of a restricted page, no changes in archived spaces.

    Args:
        page_id: The page.
        restore_number: The earlier version to bring back.
        version_number: The page's current version number, as last read.
        editor_email: E-mail of the employee restoring it.
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    if version_number != page.version:
        raise Conflict(
            f"page {page.id} is at version {page.version}, not {version_number}",
            field="version_number",
            hint="get the page again and pass its current version number",
        )
    _employee(ctx, editor_email, "editor_email")
    _may_edit(page, editor_email, "editor_email")
    if restore_number >= page.version:
        raise RuleViolation(
            f"version {restore_number} is not an earlier version of page {page.id} (current: {page.version})",
            field="restore_number",
            hint="list the page's versions with wiki__list_page_versions",
        )
    old = ctx.first(PageVersion, page_id=page.id, number=restore_number)
    if old is None:
        raise NotFound(
            f"page {page.id} has no version {restore_number}",
            field="restore_number",
            hint="list the page's versions with wiki__list_page_versions",
        )
    if old.title != page.title:
        _title_free(ctx, page.space_id, old.title, skip=page.id, field="restore_number")
    return _save_version(ctx, page, old.title, old.body, editor_email, f"Restored version {restore_number}")


class DeletedPages(BaseModel):
    """What deleting a page removed."""

    page_ids: list[PageId] = Field(description="The deleted page and, with cascade, its descendants.")
    comments_removed: Quantity = Field(description="Comments removed with them.")
    attachments_removed: Quantity = Field(description="Attachments removed with them.")


def _example_delete_page(ctx: Ctx) -> dict[str, Any] | None:
    homes = {s.homepage_id for s in ctx.scan(Space)}
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if space is None or space.status != "current" or page.id in homes or page.editors:
            continue
        return {"page_id": page.id, "requested_by": page.author_email, "cascade": True}
    return None


@service.tool(intent="delete the wiki page", write=True, destructive=True, example=_example_delete_page)
def delete_page(ctx: Ctx, page_id: PageId, requested_by: Email, cascade: bool = False) -> DeletedPages:
    """Delete a page with its versions, comments and attachments.

    A page with child pages is deleted only with ``cascade`` (its whole
    subtree goes). A space's home page, pages in archived spaces and
    restricted pages the requester may not edit cannot be deleted.

    Args:
        page_id: The page.
        requested_by: E-mail of the employee deleting it.
        cascade: Also delete every descendant page.
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    _employee(ctx, requested_by, "requested_by")
    subtree = _descendants(ctx, page.id)
    if subtree and not cascade:
        raise RuleViolation(
            f"page {page.id} has {len(subtree)} descendant page(s)",
            field="cascade",
            hint="pass cascade true to delete the whole subtree, or move the children first (wiki__move_page)",
        )
    doomed = [page, *subtree]
    space = ctx.get(Space, page.space_id, field="page_id")
    for p in doomed:
        _may_edit(p, requested_by, "requested_by")
        if p.id == space.homepage_id:
            raise RuleViolation(
                f"page {p.id} is the home page of space {space.key}",
                field="page_id",
                hint="set another home page with wiki__update_space first",
            )
    n_comments = n_files = 0
    for p in doomed:
        for c in ctx.where(Comment, page_id=p.id):
            ctx.delete(c)
            n_comments += 1
        for a in ctx.where(Attachment, page_id=p.id):
            ctx.delete(a)
            n_files += 1
        for v in ctx.where(PageVersion, page_id=p.id):
            ctx.delete(v)
        ctx.delete(p)
    return DeletedPages(page_ids=[p.id for p in doomed], comments_removed=n_comments, attachments_removed=n_files)


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if page.parent_id is None or page.editors or space is None or space.status != "current":
            continue
        return {"page_id": page.id, "parent_id": None, "requested_by": page.author_email}
    return None


@service.tool(intent="move the page under another page", write=True, example=_example_move)
def move_page(ctx: Ctx, page_id: PageId, parent_id: PageId | None, requested_by: Email) -> Page:
    """Move a page (with its subtree) under another page of the same space, or to the top level.

    A page cannot move under itself or one of its own descendants.

    Args:
        page_id: The page to move.
        parent_id: The new parent in the same space; null for the top level.
        requested_by: E-mail of the employee moving it.
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    _employee(ctx, requested_by, "requested_by")
    _may_edit(page, requested_by, "requested_by")
    if parent_id == page.parent_id:
        raise RuleViolation(f"page {page.id} is already there", field="parent_id", hint="nothing to move")
    if parent_id is not None:
        parent = ctx.get(Page, parent_id, field="parent_id")
        if parent.space_id != page.space_id:
            raise RuleViolation(
                f"page {parent.id} is in another space",
                field="parent_id",
                hint="pages move only within their space",
            )
        if parent.id == page.id or parent.id in {d.id for d in _descendants(ctx, page.id)}:
            raise RuleViolation(
                f"page {parent.id} is the page itself or one of its descendants",
                field="parent_id",
                hint="a page cannot be moved under its own subtree",
            )
        _may_edit(parent, requested_by, "requested_by")
    return ctx.update(page, parent_id=parent_id)


class PageTree(BaseModel):
    """Where a page sits in its space's tree."""

    page_id: PageId = Field(description="The page.")
    ancestors: list[Page] = Field(description="Its ancestors, from the top-level page down to its parent.")
    descendants: list[Page] = Field(description="Every page below it, depth-first.")


@service.tool(intent="see the pages above and below this page")
def get_page_tree(ctx: Ctx, page_id: PageId) -> PageTree:
    """Get a page's ancestors (top-level first) and all its descendants.

    Args:
        page_id: The page.
    """
    page = ctx.get(Page, page_id, field="page_id")
    return PageTree(page_id=page.id, ancestors=_ancestors(ctx, page), descendants=_descendants(ctx, page.id))


def _example_restrict(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if space is None or space.status != "current":
            continue
        who = page.editors[0] if page.editors else page.author_email
        return {"page_id": page.id, "editors": [who], "requested_by": who}
    return None


@service.tool(intent="restrict who can edit the page", write=True, idempotent=True, example=_example_restrict)
def set_page_restrictions(ctx: Ctx, page_id: PageId, editors: list[Email], requested_by: Email) -> Page:
    """Set the edit restriction of a page; an empty list lifts it (anyone may edit).

    Only someone who may edit the page can change it, and a restriction must
    keep the requester among the editors (nobody locks themselves out).

    Args:
        page_id: The page.
        editors: E-mails of the employees who may edit; empty for no restriction.
        requested_by: E-mail of the employee changing the restriction.
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    _employee(ctx, requested_by, "requested_by")
    _may_edit(page, requested_by, "requested_by")
    clean = tuple(dict.fromkeys(editors))
    for i, email in enumerate(clean):
        _employee(ctx, email, f"editors.{i}")
    if clean and requested_by not in clean:
        raise RuleViolation(
            "the restriction would lock out the employee setting it",
            field="editors",
            hint="include requested_by among the editors",
        )
    return ctx.update(page, editors=clean)


def _example_label(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if space is not None and space.status == "current":
            return {"page_id": page.id, "labels": ["reviewed"]}
    return None


@service.tool(intent="label the page", write=True, idempotent=True, example=_example_label)
def add_page_labels(ctx: Ctx, page_id: PageId, labels: list[Label]) -> Page:
    """Add labels to a page; labels it already has are kept once. At most 20 labels per page.

    Args:
        page_id: The page.
        labels: Labels to add (lowercase, no spaces).
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    if not labels:
        raise RuleViolation("no labels given", field="labels", hint="pass at least one label")
    merged = tuple(dict.fromkeys([*page.labels, *labels]))
    if len(merged) > 20:
        raise RuleViolation("a page can have at most 20 labels", field="labels", hint="remove some labels first")
    return ctx.update(page, labels=merged)


def _example_unlabel(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        space = ctx.find(Space, page.space_id)
        if page.labels and space is not None and space.status == "current":
            return {"page_id": page.id, "label": page.labels[0]}
    return None


@service.tool(intent="remove the label from the page", write=True, example=_example_unlabel)
def remove_page_label(ctx: Ctx, page_id: PageId, label: Label) -> Page:
    """Remove one label from a page.

    Args:
        page_id: The page.
        label: The label to remove.
    """
    page = _page_in_writable_space(ctx, page_id, "page_id")
    if label not in page.labels:
        raise NotFound(
            f"page {page.id} has no label {label!r}",
            field="label",
            hint=f"its labels are: {', '.join(page.labels) or 'none'}",
        )
    return ctx.update(page, labels=tuple(x for x in page.labels if x != label))


def _example_by_label(ctx: Ctx) -> dict[str, Any] | None:
    for page in ctx.scan(Page):
        if page.labels:
            return {"label": page.labels[0]}
    return None


@service.tool(intent="find the pages with this label", example=_example_by_label)
def find_pages_by_label(ctx: Ctx, label: Label, space_id: SpaceId | None = None) -> list[Page]:
    """List the pages carrying a label, optionally in one space, in id order (at most 100).

    Args:
        label: The label.
        space_id: Only pages of this space.
    """
    found = [p for p in ctx.scan(Page) if label in p.labels and (space_id is None or p.space_id == space_id)]
    return found[:100]


# -- seed -------------------------------------------------------------------------------------

SPACES: tuple[tuple[str, str, str], ...] = (
    ("ENG", "Engineering", "Engineering"),
    ("SALES", "Sales Playbook", "Sales"),
    ("SUP", "Support Knowledge Base", "Support"),
    ("FIN", "Finance", "Finance"),
    ("PEOPLE", "People & Culture", "People"),
    ("OPS", "Operations", "Operations"),
)
CHILDREN = (
    ("Onboarding guide", ("onboarding", "how-to")),
    ("Team processes", ("process",)),
    ("Meeting notes", ("meeting-notes",)),
    ("Decision log", ("decisions",)),
    ("FAQ", ("faq", "how-to")),
)
FILES: tuple[tuple[str, Any, int], ...] = (
    ("overview.pdf", "application/pdf", 482_133),
    ("architecture.png", "image/png", 120_554),
    ("export.csv", "text/csv", 9_812),
)


def _seed_page(
    where: tuple[SeedContext, str, str, list[Any]],
    counter: list[int],
    title: str,
    parent: Page | None,
    labels: tuple[str, ...],
    versions: int,
) -> Page:
    s, space_id, space_name, team = where
    counter[0] += 1
    k = counter[0]
    author = team[k % len(team)]
    editor = team[(k + 1) % len(team)] if versions > 1 else author
    body = f"<p>{title} of the {space_name} space.</p>"
    p = s.create(
        Page,
        space_id=space_id,
        parent_id=parent.id if parent else None,
        title=title,
        body=body,
        version=versions,
        author_email=author.email,
        last_editor_email=editor.email,
        labels=labels,
        status="draft" if k % 11 == 0 else "current",
    )
    for v in range(1, versions + 1):
        s.create(
            PageVersion,
            page_id=p.id,
            number=v,
            title=title,
            body=body if v == versions else f"<p>{title} (draft {v}).</p>",
            author_email=(author if v == 1 else editor).email,
            message="" if v == 1 else f"Edit {v}",
        )
    return p


@service.seeder
def seed(s: SeedContext) -> None:
    """A space per department (one archived), page trees with history, comments, labels, restrictions and files."""
    pop = s.population
    staff = list(pop.employees)
    counter = [0]
    for n, (key, name, dept) in enumerate(SPACES):
        team = pop.staff(dept)
        owner = team[0]
        space = s.create(
            Space,
            key=key,
            name=name,
            description=f"Everything the {dept} team writes down.",
            created_by=owner.email,
        )

        where = (s, space.id, name, team)
        home = _seed_page(where, counter, f"{name} Home", None, (), 1)
        space = s.update(space, homepage_id=home.id)
        kids: list[Page] = []
        for j, (title, labels) in enumerate(CHILDREN):
            kids.append(_seed_page(where, counter, title, home, labels, 1 + (j + n) % 4))
        for j, kid in enumerate(kids[:3]):
            grand = _seed_page(
                where,
                counter,
                f"{kid.title}: {('2025', '2026', 'archive')[j]}",
                kid,
                ("archive",) if j == 2 else (),
                1 + j,
            )
            if j == 1:
                _seed_page(where, counter, f"{grand.title} notes", grand, (), 1)
        restricted = kids[3]
        s.update(restricted, editors=(restricted.author_email, owner.email))
        for j, kid in enumerate(kids):
            author = team[(j + 2) % len(team)]
            c = s.create(
                Comment,
                page_id=kid.id,
                author_email=author.email,
                body=f"Could we add more detail to {kid.title}?",
                resolved=j % 3 == 2,
            )
            if j % 2 == 0:
                s.create(
                    Comment,
                    page_id=kid.id,
                    parent_comment_id=c.id,
                    author_email=kid.author_email,
                    body="Done, see the latest version.",
                )
        for j, (fname, mtype, size) in enumerate(FILES):
            target = kids[j % len(kids)]
            s.create(
                Attachment,
                page_id=target.id,
                title=fname,
                media_type=mtype,
                file_size=size,
                download_link=f"https://folio.example/download/attachments/{key.lower()}/{fname}",
                created_by=target.author_email,
                comment="",
            )
        if key == "OPS":
            s.update(space, status="archived")
    s.create(
        Space,
        key="SANDBOX",
        name="Sandbox",
        description="An empty space to try things out.",
        type="personal",
        created_by=staff[0].email,
    )
