"""Pinboard: kanban boards with lists, cards, labels, checklists and board members.

Modeled on the Trello REST API v1 (Members, Boards with ``closed`` and
``prefs.permissionLevel``, Board memberships, Lists with ``pos`` and
``closed``, Cards with ``idList``, ``idLabels``, ``idMembers``, ``due``,
``dueComplete`` and check-item badges, Labels, Checklists and CheckItems):
a new board gets the default lists To Do, Doing and Done and its creator as
admin; only board members can be put on cards or check items; labels belong
to one board and are dropped when a card moves to another board; a list with
open cards is archived only together with them; archived cards and closed
boards are read-only until restored or reopened; a card's due date can be
marked complete only when it has one and every check item is ticked.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, DateTime, Email, FileLink, IdOf, PersonName, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "kanban",
    title="Pinboard",
    category="project_tracking",
    modeled_on="Trello REST API v1 (Member, Board, Board membership, List, Card, Label, Checklist, CheckItem)",
    description="Visual kanban boards for the company's teams: boards of lists whose cards move left to right, "
    "with members, due dates, coloured labels, checklists and file attachments.",
)

MemberId = Annotated[str, IdOf("kanban.member")]
BoardId = Annotated[str, IdOf("kanban.board")]
MembershipId = Annotated[str, IdOf("kanban.board_membership")]
ListId = Annotated[str, IdOf("kanban.list")]
CardId = Annotated[str, IdOf("kanban.card")]
LabelId = Annotated[str, IdOf("kanban.label")]
ChecklistId = Annotated[str, IdOf("kanban.checklist")]
CheckItemId = Annotated[str, IdOf("kanban.check_item")]

Username = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]{3,40}$")]
ListName = Annotated[str, StringConstraints(min_length=1, max_length=80, strip_whitespace=True)]
LabelName = Annotated[str, StringConstraints(max_length=40, strip_whitespace=True)]
Visibility = Literal["private", "workspace", "public"]
BoardRole = Literal["admin", "normal", "observer"]
Color = Literal["green", "yellow", "orange", "red", "purple", "blue", "sky", "lime", "pink", "black"]
CheckState = Literal["complete", "incomplete"]
Position = Literal["top", "bottom"]

DEFAULT_LISTS: tuple[str, ...] = ("To Do", "Doing", "Done")
STEP = 65536.0
"""Distance between positions, as Trello spaces ``pos`` values."""


class Member(Record):
    """A workspace member: an employee who can be added to boards."""

    id: MemberId
    full_name: PersonName
    """Full name."""
    email: Email
    """Work e-mail address; unique."""
    username: Username
    """@-handle; unique."""
    initials: Annotated[str, StringConstraints(min_length=1, max_length=4)]
    """Initials shown on card avatars."""


class Board(Created):
    """A board: lists of cards a team works through."""

    id: BoardId
    name: Title
    """Board name."""
    desc: Text = ""
    """What the board is for."""
    visibility: Visibility = "workspace"
    """private (board members only), workspace or public."""
    owner_email: Email
    """E-mail of the member who created it (an admin of the board)."""
    closed: bool = False
    """Closed boards are read-only until reopened."""


class BoardMembership(Record):
    """A member's role on a board; only board members can be put on its cards."""

    id: MembershipId
    board_id: BoardId
    """The board."""
    member_email: Email
    """E-mail of the member."""
    role: BoardRole = "normal"
    """admin (manages the board), normal (edits cards) or observer (reads and comments only)."""
    created_at: Annotated[DateTime, CREATED]
    """When the member joined the board."""


class CardList(Record):
    """A column of a board, such as To Do, Doing or Done."""

    id: ListId
    board_id: BoardId
    """The board."""
    name: ListName
    """List name."""
    pos: float = 0.0
    """Position on the board, left to right (ascending)."""
    closed: bool = False
    """Archived lists take no cards."""


class Card(Record):
    """A card: one piece of work on a list."""

    id: CardId
    board_id: BoardId
    """The board the card is on (its list's board)."""
    list_id: ListId
    """The list the card is in."""
    name: Title
    """Card title."""
    desc: Text = ""
    """Description."""
    pos: float = 0.0
    """Position in the list, top to bottom (ascending)."""
    member_emails: tuple[Email, ...] = ()
    """E-mails of the board members on the card."""
    label_ids: tuple[LabelId, ...] = ()
    """Labels of the card's board that the card carries."""
    start: DateTime | None = None
    """When work starts; not after the due date."""
    due: DateTime | None = None
    """When the card is due."""
    due_complete: bool = False
    """Whether the due date is marked complete; needs a due date and every check item ticked."""
    customer_company: CompanyName | None = None
    """The customer company the card is about, if any."""
    attachments: tuple[FileLink, ...] = ()
    """Links to attached files."""
    check_items: Quantity = 0
    """Number of check items on the card's checklists."""
    check_items_checked: Quantity = 0
    """Number of those that are complete."""
    closed: bool = False
    """Archived cards are read-only until restored."""
    updated_at: Annotated[DateTime, UPDATED]
    """Date of the last activity on the card."""


class Label(Record):
    """A coloured label of a board."""

    id: LabelId
    board_id: BoardId
    """The board the label belongs to."""
    name: LabelName = ""
    """Label text; may be empty (colour only). Unique per board when not empty."""
    color: Color
    """Colour."""


class Checklist(Record):
    """A named checklist on a card."""

    id: ChecklistId
    card_id: CardId
    """The card."""
    name: Title
    """Checklist name."""


class CheckItem(Record):
    """One item of a checklist."""

    id: CheckItemId
    checklist_id: ChecklistId
    """The checklist."""
    card_id: CardId
    """The card of the checklist."""
    name: Title
    """What to do."""
    state: CheckState = "incomplete"
    """complete or incomplete."""
    member_email: Email | None = None
    """Board member responsible for the item."""
    due: DateTime | None = None
    """When the item is due."""
    pos: float = 0.0
    """Position in the checklist."""


# -- rules ------------------------------------------------------------------------------------


def _open_board(ctx: Ctx, board_id: str, field: str) -> Board:
    board = ctx.get(Board, board_id, field=field)
    if board.closed:
        raise RuleViolation(
            f"board {board.name!r} is closed and read-only",
            field=field,
            hint="reopen it with kanban__reopen_board first",
        )
    return board


def _is_board_member(ctx: Ctx, board_id: str, email: str) -> bool:
    return ctx.first(BoardMembership, board_id=board_id, member_email=email) is not None


def _require_board_members(ctx: Ctx, board_id: str, emails: Any, field: str) -> None:
    for email in emails:
        if not _is_board_member(ctx, board_id, email):
            raise RuleViolation(
                f"{email} is not a member of the board",
                field=field,
                hint="add them with kanban__add_board_member first",
            )


def _open_list(ctx: Ctx, list_id: str, field: str) -> CardList:
    lst = ctx.get(CardList, list_id, field=field)
    if lst.closed:
        raise RuleViolation(
            f"list {lst.name!r} is archived and takes no cards",
            field=field,
            hint="pick an open list of the board (kanban__list_lists with closed=false)",
        )
    _open_board(ctx, lst.board_id, field)
    return lst


def _editable_card(ctx: Ctx, card_id: str, field: str) -> Card:
    card = ctx.get(Card, card_id, field=field)
    if card.closed:
        raise RuleViolation(
            f"card {card.name!r} is archived", field=field, hint="restore it with kanban__restore_card first"
        )
    _open_board(ctx, card.board_id, field)
    return card


def _bottom(ctx: Ctx, model: Any, **where: Any) -> float:
    return max((r.pos for r in ctx.where(model, **where)), default=0.0) + STEP


def _top(ctx: Ctx, model: Any, **where: Any) -> float:
    return min((r.pos for r in ctx.where(model, **where)), default=2 * STEP) / 2


def _recount(ctx: Ctx, card_id: str) -> Card:
    card = ctx.get(Card, card_id)
    items = ctx.where(CheckItem, card_id=card_id)
    done = sum(1 for i in items if i.state == "complete")
    changes: dict[str, Any] = {"check_items": len(items), "check_items_checked": done}
    if done < len(items):
        changes["due_complete"] = False
    return ctx.update(card, **changes)


def _guard_board_create(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Member, email=new.owner_email) is None:
        raise NotFound(
            f"{new.owner_email} is not a member of the workspace",
            field="owner_email",
            hint="list workspace members with kanban__list_members",
        )
    ctx.create(BoardMembership, board_id=new.id, member_email=new.owner_email, role="admin")
    for k, name in enumerate(DEFAULT_LISTS, start=1):
        ctx.create(CardList, board_id=new.id, name=name, pos=k * STEP)


def _guard_board_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.closed and new.closed:
        raise RuleViolation(
            f"board {old.name!r} is closed and read-only", field="board_id", hint="reopen it with kanban__reopen_board"
        )


def _guard_card(ctx: Ctx, new: Any, old: Any) -> None:
    if old.closed and new.closed:
        raise RuleViolation(
            f"card {old.name!r} is archived and read-only",
            field="card_id",
            hint="restore it with kanban__restore_card first",
        )
    if old.closed and not new.closed:  # restoring
        _open_list(ctx, new.list_id, "card_id")
        return
    _open_board(ctx, new.board_id, "card_id")
    if new.member_emails != old.member_emails:
        _require_board_members(ctx, new.board_id, new.member_emails, "member_emails")
    for label_id in new.label_ids:
        label = ctx.find(Label, label_id)
        if label is None or label.board_id != new.board_id:
            raise RuleViolation(
                f"label {label_id} is not a label of the card's board",
                field="label_ids",
                hint="list the board's labels with kanban__list_labels",
            )
    if new.start is not None and new.due is not None and new.start > new.due:
        raise RuleViolation("the start is after the due date", field="start", hint="start on or before the due date")
    if new.due_complete and not old.due_complete:
        if new.due is None:
            raise RuleViolation(
                f"card {new.name!r} has no due date to complete", field="due_complete", hint="set a due date first"
            )
        if new.check_items_checked < new.check_items:
            raise RuleViolation(
                f"{new.check_items - new.check_items_checked} check item(s) of the card are not complete",
                field="due_complete",
                hint="tick them with kanban__set_check_item_state first",
            )


def _guard_label(ctx: Ctx, new: Any, old: Any) -> None:
    _open_board(ctx, new.board_id, "board_id")
    if new.name and any(lb.id != new.id and lb.name == new.name for lb in ctx.where(Label, board_id=new.board_id)):
        raise Conflict(
            f"the board already has a label named {new.name!r}",
            field="name",
            hint="use the existing label (kanban__list_labels) or pick another name",
        )


def _guard_checklist(ctx: Ctx, new: Any, old: Any) -> None:
    _editable_card(ctx, new.card_id, "card_id")


members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mbr",
    create=False,
    get=False,
    filters=("email", "username"),
    search=("full_name", "email", "username"),
    delete=False,
    unique=("email", "username"),
    title="workspace member",
)
boards = service.resource(
    Board,
    name="board",
    plural="boards",
    prefix="brd",
    create=("name", "desc", "visibility", "owner_email"),
    filters=("owner_email", "visibility", "closed"),
    search=("name", "desc"),
    update=("name", "desc", "visibility"),
    delete=False,
    transitions={
        "close": Transition("closed", (False,), True, "close the board"),
        "reopen": Transition("closed", (True,), False, "reopen the closed board"),
    },
    guard_create=_guard_board_create,
    guard_update=_guard_board_update,
)
memberships = service.resource(
    BoardMembership,
    name="board_membership",
    plural="board_memberships",
    prefix="bm",
    create=False,
    get=False,
    filters=("board_id", "member_email", "role"),
    delete=False,
    title="board membership",
)
lists = service.resource(
    CardList,
    name="list",
    plural="lists",
    prefix="lst",
    create=False,
    get=False,
    filters=("board_id", "closed", "name"),
    delete=False,
)
cards = service.resource(
    Card,
    name="card",
    plural="cards",
    prefix="crd",
    create=False,
    filters=("board_id", "list_id", "closed", "due_complete", "customer_company"),
    search=("name", "desc"),
    update=(
        "name",
        "desc",
        "member_emails",
        "label_ids",
        "start",
        "due",
        "due_complete",
        "customer_company",
        "attachments",
    ),
    delete=False,
    transitions={
        "archive": Transition("closed", (False,), True, "archive the card"),
        "restore": Transition("closed", (True,), False, "restore the archived card"),
    },
    guard_update=_guard_card,
)
labels = service.resource(
    Label,
    name="label",
    plural="labels",
    prefix="lbl",
    create=("board_id", "name", "color"),
    get=False,
    filters=("board_id", "color", "name"),
    delete=False,
    guard_create=_guard_label,
)
checklists = service.resource(
    Checklist,
    name="checklist",
    plural="checklists",
    prefix="chk",
    create=("card_id", "name"),
    get=False,
    filters=("card_id",),
    delete=False,
    guard_create=_guard_checklist,
)
check_items = service.resource(
    CheckItem,
    name="check_item",
    plural="check_items",
    prefix="ci",
    create=False,
    get=False,
    filters=("checklist_id", "card_id", "state", "member_email"),
    search=("name",),
    delete=False,
    title="check item",
)


# -- examples ---------------------------------------------------------------------------------


def _open_boards(ctx: Ctx) -> list[Board]:
    return ctx.where(Board, closed=False)


def _example_add_member(ctx: Ctx) -> dict[str, Any] | None:
    for board in _open_boards(ctx):
        for m in ctx.scan(Member):
            if not _is_board_member(ctx, board.id, m.email):
                return {"board_id": board.id, "email": m.email, "role": "normal"}
    return None


def _example_archive_list(ctx: Ctx) -> dict[str, Any] | None:
    for board in _open_boards(ctx):
        for lst in ctx.where(CardList, board_id=board.id, closed=False):
            return {"list_id": lst.id, "archive_cards": True}
    return None


def _example_create_card(ctx: Ctx) -> dict[str, Any] | None:
    for board in _open_boards(ctx):
        lst = ctx.first(CardList, board_id=board.id, closed=False)
        if lst is not None:
            return {"list_id": lst.id, "name": "Draft the launch checklist", "member_emails": [board.owner_email]}
    return None


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    for board in _open_boards(ctx):
        open_lists = ctx.where(CardList, board_id=board.id, closed=False)
        for card in ctx.where(Card, board_id=board.id, closed=False):
            for lst in open_lists:
                if lst.id != card.list_id:
                    return {"card_id": card.id, "list_id": lst.id, "position": "top"}
    return None


def _example_add_item(ctx: Ctx) -> dict[str, Any] | None:
    for chk in ctx.scan(Checklist):
        card = ctx.get(Card, chk.card_id)
        if not card.closed and not ctx.get(Board, card.board_id).closed:
            return {"checklist_id": chk.id, "name": "Confirm with the customer"}
    return None


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    for item in ctx.where(CheckItem, state="incomplete"):
        card = ctx.get(Card, item.card_id)
        if not card.closed and not ctx.get(Board, card.board_id).closed:
            return {"check_item_id": item.id, "state": "complete"}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="add the person to the board", write=True, example=_example_add_member)
def add_board_member(ctx: Ctx, board_id: BoardId, email: Email, role: BoardRole = "normal") -> BoardMembership:
    """Add a workspace member to a board, so they can be put on its cards.

    Args:
        board_id: The board.
        email: E-mail of the workspace member to add.
        role: admin, normal or observer.
    """
    board = _open_board(ctx, board_id, "board_id")
    if ctx.first(Member, email=email) is None:
        raise NotFound(
            f"{email} is not a member of the workspace",
            field="email",
            hint="only workspace members can join boards; list them with kanban__list_members",
        )
    if _is_board_member(ctx, board.id, email):
        raise Conflict(
            f"{email} is already a member of board {board.name!r}",
            field="email",
            hint="list the board's memberships with kanban__list_board_memberships",
        )
    return ctx.create(BoardMembership, board_id=board.id, member_email=email, role=role)


@service.tool(
    intent="add a list to the board",
    write=True,
    example=first_example(Board, "board_id", where={"closed": False}, name="Blocked", position="bottom"),
)
def create_list(ctx: Ctx, board_id: BoardId, name: ListName, position: Position = "bottom") -> CardList:
    """Add a list to an open board, left of all others (top) or right of them (bottom).

    Args:
        board_id: The board.
        name: List name.
        position: top (leftmost) or bottom (rightmost).
    """
    board = _open_board(ctx, board_id, "board_id")
    where = {"board_id": board.id}
    pos = _top(ctx, CardList, **where) if position == "top" else _bottom(ctx, CardList, **where)
    return ctx.create(CardList, board_id=board.id, name=name, pos=pos)


class ListArchive(BaseModel):
    """An archived list and the cards archived with it."""

    archived_list: CardList = Field(description="The archived list.")
    archived_card_ids: list[CardId] = Field(description="Open cards of the list archived together with it.")


@service.tool(intent="archive the list", write=True, example=_example_archive_list)
def archive_list(ctx: Ctx, list_id: ListId, archive_cards: bool = False) -> ListArchive:
    """Archive a list, and with archive_cards=true its open cards too.

    A list that still holds open cards is archived only with archive_cards=true;
    otherwise move the cards away first.

    Args:
        list_id: The list.
        archive_cards: Also archive the list's open cards.
    """
    lst = ctx.get(CardList, list_id, field="list_id")
    if lst.closed:
        raise Conflict(f"list {lst.name!r} is already archived", field="list_id", hint="nothing to do")
    _open_board(ctx, lst.board_id, "list_id")
    open_cards = ctx.where(Card, list_id=lst.id, closed=False)
    if open_cards and not archive_cards:
        raise RuleViolation(
            f"list {lst.name!r} still holds {len(open_cards)} open card(s)",
            field="archive_cards",
            hint="move the cards with kanban__move_card, or pass archive_cards=true to archive them too",
        )
    for card in open_cards:
        ctx.update(card, closed=True)
    return ListArchive(archived_list=ctx.update(lst, closed=True), archived_card_ids=[c.id for c in open_cards])


@service.tool(intent="add a card to the list", write=True, example=_example_create_card)
def create_card(
    ctx: Ctx,
    list_id: ListId,
    name: Title,
    desc: Text = "",
    position: Position = "bottom",
    member_emails: list[Email] | None = None,
    label_ids: list[LabelId] | None = None,
    due: DateTime | None = None,
    customer_company: CompanyName | None = None,
    attachments: list[FileLink] | None = None,
) -> Card:
    """Create a card at the top or bottom of an open list of an open board.

    Members must be members of the list's board; labels must be labels of that board.

    Args:
        list_id: The list.
        name: Card title.
        desc: Description.
        position: top or bottom of the list.
        member_emails: E-mails of board members to put on the card.
        label_ids: Labels of the board to put on the card.
        due: When the card is due.
        customer_company: The customer company the card is about.
        attachments: Links to files to attach.
    """
    lst = _open_list(ctx, list_id, "list_id")
    emails = tuple(dict.fromkeys(member_emails or ()))
    _require_board_members(ctx, lst.board_id, emails, "member_emails")
    for label_id in label_ids or ():
        label = ctx.find(Label, label_id)
        if label is None or label.board_id != lst.board_id:
            raise RuleViolation(
                f"label {label_id} is not a label of the list's board",
                field="label_ids",
                hint="list the board's labels with kanban__list_labels",
            )
    pos = _top(ctx, Card, list_id=lst.id) if position == "top" else _bottom(ctx, Card, list_id=lst.id)
    return ctx.create(
        Card,
        board_id=lst.board_id,
        list_id=lst.id,
        name=name,
        desc=desc,
        pos=pos,
        member_emails=emails,
        label_ids=tuple(dict.fromkeys(label_ids or ())),
        due=due,
        customer_company=customer_company,
        attachments=tuple(attachments or ()),
    )


@service.tool(intent="move the card to another list", write=True, example=_example_move)
def move_card(ctx: Ctx, card_id: CardId, list_id: ListId, position: Position = "bottom") -> Card:
    """Move a card to the top or bottom of another (or the same) list, possibly on another board.

    Moving to another board drops the card's labels (labels belong to a board)
    and takes off the members who are not members of the new board.

    Args:
        card_id: The card.
        list_id: The destination list; must be open, on an open board.
        position: top or bottom of the destination list.
    """
    card = _editable_card(ctx, card_id, "card_id")
    lst = _open_list(ctx, list_id, "list_id")
    others = {"list_id": lst.id}
    pos = _top(ctx, Card, **others) if position == "top" else _bottom(ctx, Card, **others)
    changes: dict[str, Any] = {"list_id": lst.id, "pos": pos}
    if lst.board_id != card.board_id:
        changes["board_id"] = lst.board_id
        changes["label_ids"] = ()
        changes["member_emails"] = tuple(e for e in card.member_emails if _is_board_member(ctx, lst.board_id, e))
    return ctx.update(card, **changes)


@service.tool(intent="add an item to the checklist", write=True, example=_example_add_item)
def add_check_item(
    ctx: Ctx,
    checklist_id: ChecklistId,
    name: Title,
    member_email: Email | None = None,
    due: DateTime | None = None,
) -> CheckItem:
    """Add an incomplete item at the end of a checklist; the card's check-item count goes up.

    Adding an item to a card whose due date is complete makes it incomplete again.

    Args:
        checklist_id: The checklist.
        name: What to do.
        member_email: Board member responsible for the item.
        due: When the item is due.
    """
    chk = ctx.get(Checklist, checklist_id, field="checklist_id")
    card = _editable_card(ctx, chk.card_id, "checklist_id")
    if member_email is not None:
        _require_board_members(ctx, card.board_id, (member_email,), "member_email")
    item = ctx.create(
        CheckItem,
        checklist_id=chk.id,
        card_id=card.id,
        name=name,
        member_email=member_email,
        due=due,
        pos=_bottom(ctx, CheckItem, checklist_id=chk.id),
    )
    _recount(ctx, card.id)
    return item


@service.tool(intent="tick off the checklist item", write=True, idempotent=True, example=_example_check)
def set_check_item_state(ctx: Ctx, check_item_id: CheckItemId, state: CheckState) -> Card:
    """Mark a check item complete or incomplete and return its card with the updated counts.

    Unticking an item of a card whose due date is complete makes the due date incomplete again.

    Args:
        check_item_id: The check item.
        state: complete or incomplete.
    """
    item = ctx.get(CheckItem, check_item_id, field="check_item_id")
    _editable_card(ctx, item.card_id, "check_item_id")
    ctx.update(item, state=state)
    return _recount(ctx, item.card_id)


# -- seed -------------------------------------------------------------------------------------

BOARDS: tuple[tuple[str, str, str, tuple[str, ...], bool], ...] = (
    (
        "Content Calendar",
        "Marketing",
        "Blog posts, newsletters and social campaigns from idea to publication.",
        ("Ideas", "Writing", "Review", "Published"),
        False,
    ),
    (
        "Customer Onboarding",
        "Support",
        "One card per new business customer, from signed contract to go-live.",
        ("New customers", "Kickoff scheduled", "Implementing", "Live"),
        False,
    ),
    ("Office Move", "Operations", "Everything for the move to the new office.", DEFAULT_LISTS, False),
    ("Hiring Q4", "People", "Last quarter's hiring plan (finished).", ("Open roles", "Interviewing", "Filled"), True),
)
CONTENT = (
    "Customer story: {company}",
    "Spring product launch post",
    "Monthly newsletter",
    "Webinar recap",
    "SEO refresh of the pricing page",
    "Case study video script",
    "Release notes digest",
    "Partner spotlight: {company}",
)
OFFICE = (
    "Book the movers",
    "Order new desks",
    "Set up the network",
    "Forward the mail",
    "Plan the opening party",
    "Return the old keys",
)
HIRING = ("Senior engineer", "Support specialist", "Account executive")
LABELS: tuple[tuple[str, Color], ...] = (("Urgent", "red"), ("Blocked", "orange"), ("Quick win", "green"))
ONBOARDING_STEPS = ("Kickoff call held", "Accounts created", "Data imported", "Training delivered")


@service.seeder
def seed(s: SeedContext) -> None:
    """Workspace members are the home staff; four team boards with lists, labels, cards and checklists."""
    pop = s.population
    rng = s.rng
    now = s.now
    staff = list(pop.employees)
    for p in staff:
        s.create(
            Member,
            full_name=p.name,
            email=p.email,
            username=p.email.split("@")[0].replace(".", "_").replace("-", "_")[:40],
            initials=(p.first_name[:1] + p.last_name[:1]).upper(),
        )
    customers = list(pop.customers)
    for b, (name, dept, desc, list_names, closed) in enumerate(BOARDS):
        team = pop.staff(dept, fallback=4)
        owner = next((p for p in team if "Manager" in p.job_title or "Lead" in p.job_title), team[0])
        board = s.create(
            Board,
            name=name,
            desc=desc,
            visibility=("workspace", "private")[b % 2],
            owner_email=owner.email,
            closed=closed,
            created_at=s.ago(days=120 - 20 * b),
        )
        helpers = [p for p in staff if p.department != dept][b * 2 : b * 2 + 2]
        board_people = [owner, *[p for p in team if p is not owner], *helpers]
        for k, p in enumerate(board_people):
            role: BoardRole = "admin" if k == 0 else ("observer" if p in helpers and k % 2 else "normal")
            s.create(
                BoardMembership,
                board_id=board.id,
                member_email=p.email,
                role=role,
                created_at=board.created_at + dt.timedelta(hours=k),
            )
        workers = [p.email for p in board_people]
        lsts = [s.create(CardList, board_id=board.id, name=ln, pos=(k + 1) * STEP) for k, ln in enumerate(list_names)]
        if not closed:
            lsts.append(s.create(CardList, board_id=board.id, name="Parked", pos=(len(lsts) + 1) * STEP, closed=True))
        lbls = [s.create(Label, board_id=board.id, name=ln, color=c) for ln, c in LABELS]
        if name == "Content Calendar":
            titles = [t.format(company=customers[k % len(customers)].name) for k, t in enumerate(CONTENT)]
        elif name == "Customer Onboarding":
            titles = [f"Onboard {c.name}" for c in customers[:9]]
        elif name == "Office Move":
            titles = list(OFFICE)
        else:
            titles = list(HIRING)
        done_list = len(list_names) - 1
        for k, title in enumerate(titles):
            col = k % len(list_names)
            company = customers[k].name if name == "Customer Onboarding" else None
            if "{" not in title and name == "Content Calendar" and ":" in title:
                company = title.split(": ", 1)[1]
            due = now + dt.timedelta(days=rng.randint(-10, 30), hours=8) if k % 3 != 2 else None
            archived = (not closed) and k == len(titles) - 1
            card = s.create(
                Card,
                board_id=board.id,
                list_id=lsts[col].id,
                name=title,
                desc=f"{title}. Part of the {name} board.",
                pos=(k // len(list_names) + 1) * STEP,
                member_emails=tuple(rng.sample(workers, k=min(len(workers), 1 + k % 2))),
                label_ids=(lbls[k % len(lbls)].id,) if k % 2 == 0 else (),
                due=due,
                customer_company=company,
                attachments=(f"https://files.example.com/boards/{board.id}/{k + 1}.pdf",) if k % 4 == 1 else (),
                closed=archived,
                updated_at=s.ago(days=rng.randint(1, 20)),
            )
            if name == "Customer Onboarding" or (name == "Office Move" and k < 2):
                steps = ONBOARDING_STEPS if name == "Customer Onboarding" else ("Get quotes", "Sign the order")
                chk = s.create(Checklist, card_id=card.id, name="Go-live steps" if company else "Steps")
                ticked = len(steps) if col == done_list else min(col, len(steps) - 1)
                for j, step in enumerate(steps):
                    s.create(
                        CheckItem,
                        checklist_id=chk.id,
                        card_id=card.id,
                        name=step,
                        state="complete" if j < ticked else "incomplete",
                        member_email=card.member_emails[0] if card.member_emails else None,
                        pos=(j + 1) * STEP,
                    )
                s.update(
                    card,
                    check_items=len(steps),
                    check_items_checked=ticked,
                    due_complete=due is not None and col == done_list,
                )
            elif due is not None and col == done_list:
                s.update(card, due_complete=True)
