"""Quorum Boards: board and committee management, meetings with board books, resolutions and minutes.

Modeled on Diligent Boards and BoardEffect: boards and their committees with a quorum; members (directors,
chair, secretary, observers) whose access ends when they are removed; meetings that go draft → published
(the board book is published to members, only with an agenda) → held (attendance recorded, quorum of voting
members required) → minutes approved, or cancelled; resolutions that go draft → voting → passed or failed
(or withdrawn), voted once per voting member (observers do not vote), and closed only when a quorum of the
board has voted; passed when votes for outnumber votes against.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "boardportal",
    title="Quorum Boards",
    category="board_management",
    modeled_on="Diligent Boards / BoardEffect: boards, committees, members, meetings, agendas, board books, "
    "resolutions with votes, minutes approval",
    description="The board portal of the company: the board and its committees, directors and their access, "
    "meetings with agendas and published board books, attendance and minutes, and resolutions put to a vote.",
)

BoardId = Annotated[str, IdOf("boardportal.board")]
MemberId = Annotated[str, IdOf("boardportal.member")]
MeetingId = Annotated[str, IdOf("boardportal.meeting")]
ItemId = Annotated[str, IdOf("boardportal.agenda_item")]
ResolutionId = Annotated[str, IdOf("boardportal.resolution")]
VoteId = Annotated[str, IdOf("boardportal.vote")]

BoardKind = Literal["board", "committee"]
MemberRole = Literal["chair", "director", "secretary", "observer"]
MemberStatus = Literal["active", "removed"]
MeetingStatus = Literal["draft", "published", "held", "minutes_approved", "cancelled"]
ResolutionStatus = Literal["draft", "voting", "passed", "failed", "withdrawn"]
Choice = Literal["for", "against", "abstain"]
QuorumPercent = Annotated[int, Field(ge=1, le=100)]
Minutes = Annotated[int, Field(ge=5, le=240)]
VOTING: tuple[MemberRole, ...] = ("chair", "director")


class Board(Record):
    """A board of directors or one of its committees."""

    id: BoardId
    name: Title
    """Its name."""
    kind: BoardKind = "board"
    """board or committee."""
    parent_id: BoardId | None = None
    """The board a committee belongs to."""
    quorum_percent: QuorumPercent = 50
    """The share of voting members needed for a quorum."""
    created_at: Annotated[DateTime, CREATED]
    """When it was set up."""


class Member(Record):
    """A person's seat and portal access on a board."""

    id: MemberId
    board_id: BoardId
    """The board."""
    name: PersonName
    """The member."""
    email: Email
    """Their portal login."""
    role: MemberRole = "director"
    """chair, director, secretary or observer (chair and directors vote)."""
    status: MemberStatus = "active"
    """active, or removed (access revoked)."""
    created_at: Annotated[DateTime, CREATED]
    """When they joined."""


class Meeting(Record):
    """A board meeting."""

    id: MeetingId
    board_id: BoardId
    """The board."""
    title: Title
    """Its title."""
    starts_at: DateTime
    """When it starts."""
    location: Annotated[str, StringConstraints(max_length=200)] = "Boardroom"
    """Where, or a video link."""
    status: MeetingStatus = "draft"
    """draft, published (board book out), held, minutes_approved or cancelled."""
    book_published_at: DateTime | None = None
    """When the board book was published."""
    attendee_ids: tuple[MemberId, ...] = ()
    """Members present."""
    minutes: Text = ""
    """The draft or approved minutes."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class AgendaItem(Record):
    """An item on a meeting's agenda."""

    id: ItemId
    meeting_id: MeetingId
    """The meeting."""
    position: int
    """Its order, from 1."""
    title: Title
    """The item."""
    presenter_email: Email | None = None
    """Who presents it."""
    minutes_allotted: Minutes = 15
    """Time allotted."""


class Resolution(Record):
    """A resolution put to a board."""

    id: ResolutionId
    board_id: BoardId
    """The board."""
    meeting_id: MeetingId | None = None
    """The meeting it is tabled at; none: by written consent."""
    title: Title
    """Its title."""
    text: Text = ""
    """RESOLVED, that ..."""
    status: ResolutionStatus = "draft"
    """draft, voting, passed, failed or withdrawn."""
    votes_for: int = 0
    """Votes for, once closed."""
    votes_against: int = 0
    """Votes against, once closed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Vote(Record):
    """A member's vote on a resolution."""

    id: VoteId
    resolution_id: ResolutionId
    """The resolution."""
    member_id: MemberId
    """The voter."""
    choice: Choice
    """for, against or abstain."""
    cast_at: Annotated[DateTime, CREATED]
    """When it was cast."""


def _voters(ctx: Ctx, board_id: str) -> list[Member]:
    return [m for m in ctx.where(Member, board_id=board_id, status="active") if m.role in VOTING]


def _quorum(ctx: Ctx, board_id: str) -> int:
    board = ctx.get(Board, board_id)
    n = len(_voters(ctx, board_id))
    return max(1, -(-n * board.quorum_percent // 100))


def _guard_board(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None and (new.kind == "committee") != (new.parent_id is not None):
        raise RuleViolation(
            "a committee, and only a committee, has a parent board", field="parent_id", hint="match kind"
        )
    if new.parent_id is not None and ctx.get(Board, new.parent_id, field="parent_id").kind != "board":
        raise RuleViolation("a committee belongs to a board", field="parent_id", hint="pick a board")


def _guard_meeting(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None and new.starts_at <= ctx.now():
        raise RuleViolation("starts_at is in the past", field="starts_at", hint="pick a future time")
    if old is not None and old.status not in ("draft", "published") and new.starts_at != old.starts_at:
        raise Conflict(f"meeting is {old.status}", field="starts_at", hint="only upcoming meetings move")


boards = service.resource(
    Board,
    name="board",
    plural="boards",
    prefix="brd",
    create=("name", "kind", "parent_id", "quorum_percent"),
    filters=("kind", "parent_id"),
    search=("name",),
    update=("name", "quorum_percent"),
    delete=False,
    guard_create=_guard_board,
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mbr",
    create=False,
    filters=("board_id", "email", "role", "status"),
    search=("name",),
    delete=False,
    transitions={"remove": Transition("status", ("active",), "removed", "remove the member and revoke access")},
)
meetings = service.resource(
    Meeting,
    name="meeting",
    plural="meetings",
    prefix="mtg",
    create=("board_id", "title", "starts_at", "location"),
    filters=("board_id", "status"),
    search=("title",),
    update=("title", "starts_at", "location"),
    delete=False,
    transitions={"cancel": Transition("status", ("draft", "published"), "cancelled", "cancel the meeting")},
    guard_create=_guard_meeting,
    guard_update=_guard_meeting,
)
items = service.resource(
    AgendaItem,
    name="agenda_item",
    plural="agenda_items",
    prefix="itm",
    create=False,
    get=False,
    filters=("meeting_id", "presenter_email"),
    search=("title",),
    delete=False,
)
resolutions = service.resource(
    Resolution,
    name="resolution",
    plural="resolutions",
    prefix="res",
    create=("board_id", "meeting_id", "title", "text"),
    filters=("board_id", "meeting_id", "status"),
    search=("title", "text"),
    delete=False,
    transitions={
        "open_voting": Transition("status", ("draft",), "voting", "open voting on the resolution"),
        "withdraw": Transition("status", ("draft", "voting"), "withdrawn", "withdraw the resolution"),
    },
)
votes = service.resource(
    Vote,
    name="vote",
    plural="votes",
    prefix="vote",
    create=False,
    get=False,
    filters=("resolution_id", "member_id", "choice"),
    delete=False,
)


def _example_member(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Board, kind="committee")
    taken = {m.email for m in ctx.where(Member, board_id=b.id)} if b else set()
    p = next((p for p in ctx.population.employees if p.email not in taken), None)
    return None if b is None or p is None else {"board_id": b.id, "name": p.name, "email": p.email, "role": "observer"}


@service.tool(intent="add the member to the board", write=True, example=_example_member)
def add_member(ctx: Ctx, board_id: BoardId, name: PersonName, email: Email, role: MemberRole = "director") -> Member:
    """Seat a person on a board and give them portal access; one seat per person, one chair per board.

    Args:
        board_id: The board.
        name: The person.
        email: Their portal login.
        role: chair, director, secretary or observer.
    """
    board = ctx.get(Board, board_id, field="board_id")
    for m in ctx.where(Member, board_id=board.id, status="active"):
        if m.email == email:
            raise Conflict(f"{email} already sits on {board.name}", field="email", hint="update the seat instead")
        if role == "chair" and m.role == "chair":
            raise Conflict(f"{m.name} already chairs {board.name}", field="role", hint="remove the chair first")
    return ctx.create(Member, board_id=board.id, name=name, email=email, role=role)


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Meeting, status="draft")
    return None if m is None else {"meeting_id": m.id, "title": "Approval of prior minutes", "minutes_allotted": 10}


@service.tool(intent="add the item to the meeting's agenda", write=True, example=_example_item)
def add_agenda_item(
    ctx: Ctx, meeting_id: MeetingId, title: Title, presenter_email: Email | None = None, minutes_allotted: Minutes = 15
) -> AgendaItem:
    """Append an item to an upcoming meeting's agenda (not after the meeting was held).

    Args:
        meeting_id: The meeting.
        title: The item.
        presenter_email: Who presents it.
        minutes_allotted: Time allotted, 5-240.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    if m.status not in ("draft", "published"):
        raise Conflict(f"meeting is {m.status}", field="meeting_id", hint="agendas change only before the meeting")
    n = len(ctx.where(AgendaItem, meeting_id=m.id))
    return ctx.create(
        AgendaItem,
        meeting_id=m.id,
        position=n + 1,
        title=title,
        presenter_email=presenter_email,
        minutes_allotted=minutes_allotted,
    )


@service.tool(
    intent="publish the board book", write=True, example=first_example(Meeting, "meeting_id", where={"status": "draft"})
)
def publish_book(ctx: Ctx, meeting_id: MeetingId) -> Meeting:
    """Publish a draft meeting's board book to its members; it needs an agenda.

    Args:
        meeting_id: The meeting.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    if m.status != "draft":
        raise Conflict(f"meeting is {m.status}", field="meeting_id", hint="only draft meetings publish")
    if not ctx.where(AgendaItem, meeting_id=m.id):
        raise RuleViolation("the board book has no agenda", field="meeting_id", hint="add agenda items first")
    return ctx.update(m, status="published", book_published_at=ctx.now())


def _example_hold(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Meeting, status="published")
    return None if m is None else {"meeting_id": m.id, "attendee_ids": [v.id for v in _voters(ctx, m.board_id)]}


@service.tool(intent="record the meeting as held", write=True, example=_example_hold)
def hold_meeting(ctx: Ctx, meeting_id: MeetingId, attendee_ids: list[MemberId]) -> Meeting:
    """Record a published meeting as held with its attendance; a quorum of voting members must attend.

    Args:
        meeting_id: The meeting.
        attendee_ids: The members present.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    if m.status != "published":
        raise Conflict(f"meeting is {m.status}", field="meeting_id", hint="publish the board book first")
    voting = {v.id for v in _voters(ctx, m.board_id)}
    for mid in attendee_ids:
        member = ctx.get(Member, mid, field="attendee_ids")
        if member.board_id != m.board_id or member.status != "active":
            raise RuleViolation(
                f"{member.name} is not an active member", field="attendee_ids", hint="list the board's members"
            )
    need = _quorum(ctx, m.board_id)
    present = len(voting & set(attendee_ids))
    if present < need:
        raise RuleViolation(
            f"{present} voting members present, quorum is {need}", field="attendee_ids", hint="no quorum"
        )
    return ctx.update(m, status="held", attendee_ids=tuple(dict.fromkeys(attendee_ids)))


@service.tool(
    intent="record the meeting's minutes",
    write=True,
    example=first_example(Meeting, "meeting_id", where={"status": "held"}, minutes="Quorum present; items discussed."),
)
def record_minutes(
    ctx: Ctx, meeting_id: MeetingId, minutes: Annotated[str, StringConstraints(min_length=10)]
) -> Meeting:
    """Write the draft minutes of a held meeting (not once approved).

    Args:
        meeting_id: The meeting.
        minutes: The minutes text.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    if m.status != "held":
        raise Conflict(f"meeting is {m.status}", field="meeting_id", hint="only held meetings, before approval")
    return ctx.update(m, minutes=minutes)


@service.tool(
    intent="approve the meeting's minutes",
    write=True,
    example=first_example(Meeting, "meeting_id", where={"status": "held"}),
)
def approve_minutes(ctx: Ctx, meeting_id: MeetingId) -> Meeting:
    """Approve a held meeting's minutes; they must be written first.

    Args:
        meeting_id: The meeting.
    """
    m = ctx.get(Meeting, meeting_id, field="meeting_id")
    if m.status != "held":
        raise Conflict(f"meeting is {m.status}", field="meeting_id", hint="only held meetings")
    if not m.minutes.strip():
        raise RuleViolation(
            "no minutes recorded", field="meeting_id", hint="record them with boardportal__record_minutes"
        )
    return ctx.update(m, status="minutes_approved")


def _example_vote(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Resolution, status="voting"):
        done = {v.member_id for v in ctx.where(Vote, resolution_id=r.id)}
        for m in _voters(ctx, r.board_id):
            if m.id not in done:
                return {"resolution_id": r.id, "member_id": m.id, "choice": "for"}
    return None


@service.tool(intent="cast the member's vote", write=True, example=_example_vote)
def cast_vote(ctx: Ctx, resolution_id: ResolutionId, member_id: MemberId, choice: Choice) -> Vote:
    """Cast a voting member's vote on a resolution open for voting; once per member.

    Args:
        resolution_id: The resolution.
        member_id: The voter (chair or director of the board).
        choice: for, against or abstain.
    """
    r = ctx.get(Resolution, resolution_id, field="resolution_id")
    if r.status != "voting":
        raise Conflict(f"resolution is {r.status}", field="resolution_id", hint="open voting first")
    m = ctx.get(Member, member_id, field="member_id")
    if m.board_id != r.board_id or m.status != "active" or m.role not in VOTING:
        raise RuleViolation(f"{m.name} has no vote on this board", field="member_id", hint="pick an active director")
    if ctx.first(Vote, resolution_id=r.id, member_id=m.id) is not None:
        raise Conflict(f"{m.name} already voted", field="member_id", hint="one vote per member")
    return ctx.create(Vote, resolution_id=r.id, member_id=m.id, choice=choice)


@service.tool(
    intent="close voting on the resolution",
    write=True,
    example=first_example(Resolution, "resolution_id", where={"status": "voting"}),
)
def close_voting(ctx: Ctx, resolution_id: ResolutionId) -> Resolution:
    """Close voting once a quorum has voted: passed when votes for outnumber votes against, else failed.

    Args:
        resolution_id: The resolution.
    """
    r = ctx.get(Resolution, resolution_id, field="resolution_id")
    if r.status != "voting":
        raise Conflict(f"resolution is {r.status}", field="resolution_id", hint="only resolutions in voting")
    cast = ctx.where(Vote, resolution_id=r.id)
    need = _quorum(ctx, r.board_id)
    if len(cast) < need:
        raise RuleViolation(f"{len(cast)} votes cast, quorum is {need}", field="resolution_id", hint="wait for votes")
    yes = sum(v.choice == "for" for v in cast)
    no = sum(v.choice == "against" for v in cast)
    return ctx.update(r, status="passed" if yes > no else "failed", votes_for=yes, votes_against=no)


@service.seeder
def seed(s: SeedContext) -> None:
    """The board and two committees seated from senior staff, past and upcoming meetings, resolutions."""
    pop = s.population
    people = list(pop.employees[:9])
    board = s.create(Board, name=f"{pop.home.name} Board of Directors", quorum_percent=50, created_at=s.ago(days=900))
    audit = s.create(
        Board,
        name="Audit Committee",
        kind="committee",
        parent_id=board.id,
        quorum_percent=67,
        created_at=s.ago(days=800),
    )
    comp = s.create(
        Board, name="Compensation Committee", kind="committee", parent_id=board.id, created_at=s.ago(days=800)
    )
    seats: dict[str, list[Member]] = {}
    for b, group, roles in (
        (board, people[:7], ("chair", "director", "director", "director", "director", "secretary", "observer")),
        (audit, people[1:4], ("chair", "director", "director")),
        (comp, people[3:6], ("chair", "director", "secretary")),
    ):
        seats[b.id] = [
            s.create(Member, board_id=b.id, name=p.name, email=p.email, role=r, created_at=s.ago(days=700))
            for p, r in zip(group, roles, strict=True)
        ]
    past = s.create(
        Meeting,
        board_id=board.id,
        title="Q3 Board Meeting",
        starts_at=s.ago(days=60),
        status="minutes_approved",
        book_published_at=s.ago(days=67),
        attendee_ids=tuple(m.id for m in seats[board.id][:5]),
        minutes="Quorum present. Q3 results reviewed. Budget resolution passed.",
        updated_at=s.ago(days=30),
    )
    held = s.create(
        Meeting,
        board_id=audit.id,
        title="Audit Committee: year-end review",
        starts_at=s.ago(days=3),
        status="held",
        book_published_at=s.ago(days=10),
        attendee_ids=tuple(m.id for m in seats[audit.id]),
        minutes="Draft: auditor report received; no material weaknesses.",
        updated_at=s.ago(days=3),
    )
    nxt = s.create(
        Meeting,
        board_id=board.id,
        title="Q4 Board Meeting",
        starts_at=s.now + dt.timedelta(days=20),
        status="published",
        book_published_at=s.ago(days=1),
        updated_at=s.ago(days=1),
    )
    draft = s.create(
        Meeting,
        board_id=comp.id,
        title="Compensation Committee: annual grants",
        starts_at=s.now + dt.timedelta(days=35),
        updated_at=s.ago(days=2),
    )
    for m, titles in (
        (past, ("Call to order", "Q3 financials", "Budget")),
        (held, ("External auditor report",)),
        (nxt, ("Q4 financials", "CEO report", "Equity plan")),
        (draft, ("Annual equity grants",)),
    ):
        for k, t in enumerate(titles):
            s.create(
                AgendaItem,
                meeting_id=m.id,
                position=k + 1,
                title=t,
                presenter_email=people[k].email,
                minutes_allotted=30,
            )
    s.create(
        Resolution,
        board_id=board.id,
        meeting_id=past.id,
        title="Approve FY budget",
        text="RESOLVED, that the budget is approved.",
        status="passed",
        votes_for=4,
        votes_against=1,
        updated_at=s.ago(days=60),
    )
    open_r = s.create(
        Resolution,
        board_id=board.id,
        title="Approve equity plan amendment (written consent)",
        text="RESOLVED, that the plan reserve is increased.",
        status="voting",
        updated_at=s.ago(days=2),
    )
    for k, choice in enumerate(("for", "for", "against")):
        s.create(Vote, resolution_id=open_r.id, member_id=seats[board.id][k].id, choice=choice, cast_at=s.ago(days=1))
    s.create(Resolution, board_id=board.id, meeting_id=nxt.id, title="Appoint new auditors", updated_at=s.ago(days=1))
