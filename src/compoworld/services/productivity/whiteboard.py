"""Canvasly: collaborative whiteboards with sticky notes, shapes and frames, sharing roles, comments and export.

Modeled on the Miro REST API v2: boards owned by an employee, shared with members whose role is viewer,
commenter, editor or owner (the owner cannot be removed or demoted, and there is exactly one); board items of
type sticky_note, shape, text and frame with a position, a size and a parent frame (an item lies inside its
frame, frames do not nest); only editors and owners change items, commenters and up comment, viewers only
read; sharing policy per board (private, team view, team edit); boards copied from templates; and exports
of a board (PDF, PNG, CSV of sticky notes) that go queued → done.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "whiteboard",
    title="Canvasly",
    category="whiteboard",
    modeled_on="Miro REST API v2 (boards, board members and roles, sticky notes, shapes, text, frames, "
    "items' parent frames, comments, copy board from template, board export jobs)",
    description="Collaborative whiteboards for workshops and planning: boards with sticky notes, shapes, text "
    "and frames, shared with colleagues as viewers, commenters or editors, comments on items, boards started "
    "from templates, and exports of a board to PDF, PNG or CSV.",
)

BoardId = Annotated[str, IdOf("whiteboard.board")]
MemberId = Annotated[str, IdOf("whiteboard.member")]
ItemId = Annotated[str, IdOf("whiteboard.item")]
CommentId = Annotated[str, IdOf("whiteboard.comment")]
ExportId = Annotated[str, IdOf("whiteboard.export")]

Coord = Annotated[float, Field(ge=-100000, le=100000)]
"""A board coordinate."""
Size = Annotated[float, Field(gt=0, le=50000)]
"""A width or height."""

Role = Literal["viewer", "commenter", "editor", "owner"]
Policy = Literal["private", "team_view", "team_edit"]
ItemType = Literal["sticky_note", "shape", "text", "frame"]
Color = Literal["yellow", "green", "blue", "pink", "orange", "gray"]
ExportFormat = Literal["pdf", "png", "csv"]
ExportStatus = Literal["queued", "done", "failed"]

RANK: dict[Role, int] = {"viewer": 0, "commenter": 1, "editor": 2, "owner": 3}


class Board(Record):
    """A whiteboard."""

    id: BoardId
    name: Title
    """Its name."""
    description: Text = ""
    """What it is for."""
    owner_email: Email
    """The employee who owns it."""
    policy: Policy = "private"
    """private (members only), team_view (every employee may view) or team_edit (every employee may edit)."""
    is_template: bool = False
    """Whether it is a template others copy."""
    archived: bool = False
    """Whether it is archived (read-only)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Member(Record):
    """Someone a board is shared with, and their role."""

    id: MemberId
    board_id: BoardId
    """The board."""
    email: Email
    """The member's e-mail."""
    role: Role
    """viewer, commenter, editor or owner."""
    created_at: Annotated[DateTime, CREATED]
    """When they were added."""


class Item(Record):
    """A sticky note, shape, text or frame on a board."""

    id: ItemId
    board_id: BoardId
    """The board."""
    type: ItemType
    """sticky_note, shape, text or frame."""
    content: Text = ""
    """Its text (a frame's title)."""
    color: Color = "yellow"
    """Its fill color."""
    x: Coord = 0
    """Left edge."""
    y: Coord = 0
    """Top edge."""
    width: Size = 200
    """Width."""
    height: Size = 200
    """Height."""
    parent_id: ItemId | None = None
    """The frame it is in."""
    created_by: Email
    """Who added it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Comment(Record):
    """A comment on a board, optionally pinned to an item."""

    id: CommentId
    board_id: BoardId
    """The board."""
    item_id: ItemId | None = None
    """The item it is about."""
    author_email: Email
    """Who wrote it."""
    body: Text
    """The comment."""
    resolved: bool = False
    """Whether it is resolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was written."""


class Export(Record):
    """An export job of a board."""

    id: ExportId
    board_id: BoardId
    """The board."""
    format: ExportFormat
    """pdf, png or csv (sticky notes)."""
    requested_by: Email
    """Who asked for it."""
    status: ExportStatus = "queued"
    """queued, done or failed."""
    item_count: int = 0
    """Items it contains."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an employee's e-mail")


def _role(ctx: Ctx, board: Board, email: str) -> Role | None:
    m = ctx.first(Member, board_id=board.id, email=email)
    if m is not None:
        return m.role
    staff = email in {p.email for p in ctx.population.employees}
    if staff and board.policy == "team_edit":
        return "editor"
    if staff and board.policy == "team_view":
        return "viewer"
    return None


def _need(ctx: Ctx, board: Board, email: str, role: Role, field: str) -> None:
    have = _role(ctx, board, email)
    if have is None or RANK[have] < RANK[role]:
        raise RuleViolation(
            f"{email} is {have or 'not a member'} on board {board.id}; this needs {role}",
            field=field,
            hint="an owner can share the board with a higher role via whiteboard__share_board",
        )
    if board.archived and RANK[role] >= RANK["commenter"]:
        raise RuleViolation(f"board {board.id} is archived", field="board_id", hint="unarchive it first")


def _check_parent(ctx: Ctx, board_id: str, kind: str, parent_id: str | None) -> None:
    if parent_id is None:
        return
    parent = ctx.get(Item, parent_id, field="parent_id")
    if parent.board_id != board_id or parent.type != "frame":
        raise RuleViolation("the parent must be a frame on the same board", field="parent_id", hint="pick a frame")
    if kind == "frame":
        raise RuleViolation("frames do not nest", field="parent_id", hint="omit parent_id for frames")


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    if new.parent_id != old.parent_id:
        _check_parent(ctx, new.board_id, new.type, new.parent_id)
    if ctx.get(Board, new.board_id).archived:
        raise RuleViolation("the board is archived", field="item_id", hint="unarchive it first")


def _guard_item_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for child in ctx.where(Item, parent_id=old.id):
        ctx.update(child, parent_id=None)


def _guard_board(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived and new.archived and new.name != old.name:
        raise RuleViolation("the board is archived", field="board_id", hint="unarchive it first")


def _guard_board_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for model in (Item, Member, Comment, Export):
        for r in ctx.where(model, board_id=old.id):
            ctx.delete(r)


boards = service.resource(
    Board,
    name="board",
    plural="boards",
    prefix="brd",
    create=False,
    filters=("owner_email", "policy", "is_template", "archived"),
    search=("name", "description"),
    update=("name", "description", "policy", "is_template", "archived"),
    guard_update=_guard_board,
    guard_delete=_guard_board_delete,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="bm",
    create=False,
    get=False,
    filters=("board_id", "email", "role"),
    delete=False,
)
items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    filters=("board_id", "type", "parent_id", "color", "created_by"),
    search=("content",),
    update=("content", "color", "x", "y", "width", "height", "parent_id"),
    guard_update=_guard_item,
    guard_delete=_guard_item_delete,
)
comments = service.resource(
    Comment,
    name="comment",
    plural="comments",
    prefix="bc",
    create=False,
    filters=("board_id", "item_id", "author_email", "resolved"),
    search=("body",),
    delete=True,
    transitions={"resolve": Transition("resolved", (False,), True, "resolve the comment")},
)
exports = service.resource(
    Export,
    name="export",
    plural="exports",
    prefix="exp",
    create=False,
    filters=("board_id", "status", "format"),
    delete=False,
    transitions={"finish": Transition("status", ("queued",), "done", "finish the export")},
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the board",
    write=True,
    example=first_example(Board, None, fields={"owner_email": "owner_email"}, name="Retro"),
)
def create_board(
    ctx: Ctx,
    name: Title,
    owner_email: Email,
    description: Text = "",
    policy: Policy = "private",
    template_id: BoardId | None = None,
) -> Board:
    """Create a board owned by an employee, empty or copied from a template board (its items come along).

    Args:
        name: Its name.
        owner_email: The employee who owns it.
        description: What it is for.
        policy: private, team_view or team_edit.
        template_id: A template board to copy.
    """
    _staff(ctx, owner_email, "owner_email")
    template = None
    if template_id is not None:
        template = ctx.get(Board, template_id, field="template_id")
        if not template.is_template:
            raise RuleViolation(f"board {template.id} is not a template", field="template_id", hint="pick a template")
    board = ctx.create(Board, name=name, owner_email=owner_email, description=description, policy=policy)
    ctx.create(Member, board_id=board.id, email=owner_email, role="owner")
    if template is not None:
        frames: dict[str, str] = {}
        for it in sorted(ctx.where(Item, board_id=template.id), key=lambda i: i.type != "frame"):
            copy = ctx.create(
                Item,
                board_id=board.id,
                type=it.type,
                content=it.content,
                color=it.color,
                x=it.x,
                y=it.y,
                width=it.width,
                height=it.height,
                parent_id=frames.get(it.parent_id) if it.parent_id else None,
                created_by=owner_email,
            )
            frames[it.id] = copy.id
    return board


def _example_share(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Board, archived=False)
    if b is None:
        return None
    taken = {m.email for m in ctx.where(Member, board_id=b.id)}
    who = next((p.email for p in ctx.population.employees if p.email not in taken), None)
    return None if who is None else {"board_id": b.id, "by_email": b.owner_email, "email": who, "role": "editor"}


@service.tool(intent="share the board", write=True, example=_example_share)
def share_board(
    ctx: Ctx, board_id: BoardId, by_email: Email, email: Email, role: Literal["viewer", "commenter", "editor"]
) -> Member:
    """Share a board with an employee (or change their role); editors share up to editor, only owners change roles.

    Args:
        board_id: The board.
        by_email: Who shares (editor or owner).
        email: The employee to share with.
        role: viewer, commenter or editor.
    """
    board = ctx.get(Board, board_id, field="board_id")
    _need(ctx, board, by_email, "editor", "by_email")
    _staff(ctx, email, "email")
    m = ctx.first(Member, board_id=board.id, email=email)
    if m is None:
        return ctx.create(Member, board_id=board.id, email=email, role=role)
    if m.role == "owner":
        raise RuleViolation("the owner's role cannot change", field="email", hint="transfer ownership instead")
    if m.role == role:
        raise Conflict(f"{email} is already {role}", field="role", hint="nothing to do")
    _need(ctx, board, by_email, "owner", "by_email")
    return ctx.update(m, role=role)


@service.tool(
    intent="remove the member from the board",
    write=True,
    example=first_example(Member, "member_id", where={"role": "viewer"}),
)
def remove_member(ctx: Ctx, member_id: MemberId) -> Member:
    """Remove someone's access to a board (never the owner).

    Args:
        member_id: The board member.
    """
    m = ctx.get(Member, member_id, field="member_id")
    if m.role == "owner":
        raise RuleViolation("the owner cannot be removed", field="member_id", hint="transfer ownership first")
    ctx.delete(m)
    return m


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Member, role="editor")
    return None if m is None else {"board_id": m.board_id, "new_owner_email": m.email}


@service.tool(intent="transfer the board's ownership", write=True, example=_example_transfer)
def transfer_ownership(ctx: Ctx, board_id: BoardId, new_owner_email: Email) -> Board:
    """Make a member of a board its owner; the old owner becomes an editor.

    Args:
        board_id: The board.
        new_owner_email: A member of the board.
    """
    board = ctx.get(Board, board_id, field="board_id")
    new = ctx.first(Member, board_id=board.id, email=new_owner_email)
    if new is None:
        raise RuleViolation("the new owner must be a member", field="new_owner_email", hint="share the board first")
    if new.role == "owner":
        raise Conflict("they already own it", field="new_owner_email", hint="nothing to do")
    old = ctx.first(Member, board_id=board.id, role="owner")
    if old is not None:
        ctx.update(old, role="editor")
    ctx.update(new, role="owner")
    return ctx.update(board, owner_email=new_owner_email)


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Board, archived=False)
    return (
        None if b is None else {"board_id": b.id, "by_email": b.owner_email, "type": "sticky_note", "content": "Idea"}
    )


@service.tool(intent="add the item to the board", write=True, example=_example_item)
def add_item(
    ctx: Ctx,
    board_id: BoardId,
    by_email: Email,
    type: ItemType,
    content: Text = "",
    color: Color = "yellow",
    x: Coord = 0,
    y: Coord = 0,
    width: Size = 200,
    height: Size = 200,
    parent_id: ItemId | None = None,
) -> Item:
    """Add a sticky note, shape, text or frame (editors and owners); an item may sit in a frame of the board.

    Args:
        board_id: The board.
        by_email: Who adds it.
        type: sticky_note, shape, text or frame.
        content: Its text.
        color: Its color.
        x: Left edge.
        y: Top edge.
        width: Width.
        height: Height.
        parent_id: The frame to put it in.
    """
    board = ctx.get(Board, board_id, field="board_id")
    _need(ctx, board, by_email, "editor", "by_email")
    _check_parent(ctx, board.id, type, parent_id)
    return ctx.create(
        Item,
        board_id=board.id,
        type=type,
        content=content,
        color=color,
        x=x,
        y=y,
        width=width,
        height=height,
        parent_id=parent_id,
        created_by=by_email,
    )


def _example_comment(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Board, archived=False)
    return None if b is None else {"board_id": b.id, "author_email": b.owner_email, "body": "Love this"}


@service.tool(intent="comment on the board", write=True, example=_example_comment)
def add_comment(ctx: Ctx, board_id: BoardId, author_email: Email, body: Text, item_id: ItemId | None = None) -> Comment:
    """Comment on a board or one of its items (commenters, editors and owners).

    Args:
        board_id: The board.
        author_email: Who comments.
        body: The comment.
        item_id: The item it is about.
    """
    board = ctx.get(Board, board_id, field="board_id")
    _need(ctx, board, author_email, "commenter", "author_email")
    if not body.strip():
        raise RuleViolation("the comment is empty", field="body", hint="write something")
    if item_id is not None and ctx.get(Item, item_id, field="item_id").board_id != board.id:
        raise RuleViolation("the item is on another board", field="item_id", hint="pick an item of this board")
    return ctx.create(Comment, board_id=board.id, item_id=item_id, author_email=author_email, body=body.strip())


def _example_export(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Board)
    return None if b is None else {"board_id": b.id, "requested_by": b.owner_email, "format": "pdf"}


@service.tool(intent="export the board", write=True, example=_example_export)
def export_board(ctx: Ctx, board_id: BoardId, requested_by: Email, format: ExportFormat) -> Export:
    """Queue an export of a non-empty board by anyone who can view it (csv needs sticky notes).

    Args:
        board_id: The board.
        requested_by: Who asks.
        format: pdf, png or csv.
    """
    board = ctx.get(Board, board_id, field="board_id")
    _need(ctx, board, requested_by, "viewer", "requested_by")
    found = ctx.where(Item, board_id=board.id)
    if format == "csv":
        found = [i for i in found if i.type == "sticky_note"]
    if not found:
        raise RuleViolation("nothing to export", field="format", hint="add items, or pick pdf or png")
    return ctx.create(Export, board_id=board.id, format=format, requested_by=requested_by, item_count=len(found))


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """A retro template, workshop boards with frames and notes, members with every role, comments, exports."""
    staff = list(s.population.employees[:10])
    colors: tuple[Color, ...] = ("yellow", "green", "blue", "pink")
    for k, (name, policy, template) in enumerate(
        (
            ("Retrospective template", "team_view", True),
            ("Q3 planning workshop", "private", False),
            ("Customer journey map", "team_edit", False),
            ("Old brainstorm", "private", False),
        )
    ):
        owner = staff[k].email
        b = s.create(
            Board,
            name=name,
            owner_email=owner,
            policy=policy,
            is_template=template,
            archived=k == 3,
            created_at=s.ago(days=100 - 10 * k),
            updated_at=s.ago(days=20 - k),
        )
        s.create(Member, board_id=b.id, email=owner, role="owner", created_at=b.created_at)
        for j, role in enumerate(("editor", "commenter", "viewer")):
            s.create(Member, board_id=b.id, email=staff[4 + (k + j) % 6].email, role=role, created_at=b.created_at)
        for f, title in enumerate(("Went well", "To improve", "Actions")):
            frame = s.create(
                Item,
                board_id=b.id,
                type="frame",
                content=title,
                x=f * 1200.0,
                width=1000,
                height=1000,
                created_by=owner,
                created_at=b.created_at,
                updated_at=b.created_at,
            )
            if template:
                continue
            for n in range(2):
                s.create(
                    Item,
                    board_id=b.id,
                    type="sticky_note",
                    content=f"{title} note {n + 1}",
                    color=colors[(f + n) % 4],
                    x=f * 1200.0 + 50 + 250 * n,
                    y=100,
                    parent_id=frame.id,
                    created_by=staff[4 + (k + n) % 6].email,
                    created_at=b.created_at,
                    updated_at=b.created_at,
                )
        if k == 1:
            s.create(Comment, board_id=b.id, author_email=staff[5].email, body="Can we merge these two?")
            s.create(Export, board_id=b.id, format="pdf", requested_by=owner, status="done", item_count=9)
            s.create(Export, board_id=b.id, format="csv", requested_by=owner, item_count=6)
