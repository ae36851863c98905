"""Meetingpoint Rooms: digital sales rooms with buyer stakeholders, shared content and mutual action plans.

Modeled on Aligned and Dock (deal rooms per opportunity, buyer stakeholders
invited by e-mail with roles, shared assets, mutual action plans of
milestones with owners on both sides, engagement tracking): a room goes
draft → published → won or lost (or archived); it is published only with at
least one invited stakeholder and one milestone; buyers are external people
invited once per room; a milestone is owned by the room's seller or one of
its stakeholders and is completed once; every visit of a stakeholder to the
room or an asset is tracked; a closed room takes no changes.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, FileLink, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "dealrooms",
    title="Meetingpoint Rooms",
    category="digital_sales_room",
    modeled_on="Aligned / Dock digital sales rooms: rooms per opportunity, stakeholders, shared assets, mutual "
    "action plans with milestones and owners, engagement tracking",
    description="Digital sales rooms for open deals: one room per opportunity shared with the buyer's "
    "stakeholders, the proposals and decks shared in it, a mutual action plan of milestones owned by the seller "
    "or the buyer, and who engaged with what.",
)

RoomId = Annotated[str, IdOf("dealrooms.room")]
StakeholderId = Annotated[str, IdOf("dealrooms.stakeholder")]
AssetId = Annotated[str, IdOf("dealrooms.asset")]
MilestoneId = Annotated[str, IdOf("dealrooms.milestone")]

BuyerRole = Literal["champion", "decision_maker", "economic_buyer", "technical_evaluator", "legal", "procurement"]
RoomStatus = Literal["draft", "published", "won", "lost", "archived"]
OPEN: tuple[RoomStatus, ...] = ("draft", "published")


class Room(Timestamped):
    """A digital sales room for one opportunity."""

    id: RoomId
    name: Title
    """The room's title."""
    opportunity_name: Title
    """The CRM opportunity it serves."""
    account_name: CompanyName
    """The buyer's company."""
    owner_email: Email
    """The seller who runs it."""
    status: RoomStatus = "draft"
    """draft, published, won, lost or archived."""
    close_date: Date | None = None
    """Target close date."""
    last_activity_at: DateTime | None = None
    """The last buyer visit."""


class Stakeholder(Timestamped):
    """A buyer invited to a room."""

    id: StakeholderId
    room_id: RoomId
    """The room."""
    email: Email
    """The buyer's e-mail."""
    name: PersonName
    """The buyer's name."""
    role: BuyerRole
    """champion, decision_maker, economic_buyer, technical_evaluator, legal or procurement."""
    status: Literal["invited", "joined", "removed"] = "invited"
    """invited, joined (visited) or removed."""
    visits: int = 0
    """Visits to the room."""


class Asset(Created):
    """Content shared in a room."""

    id: AssetId
    room_id: RoomId
    """The room."""
    title: Title
    """Its title."""
    kind: Literal["proposal", "deck", "pricing", "case_study", "contract", "security_review"]
    """proposal, deck, pricing, case_study, contract or security_review."""
    file_link: FileLink
    """The file."""
    views: int = 0
    """Stakeholder views."""


class Milestone(Timestamped):
    """A step of the room's mutual action plan."""

    id: MilestoneId
    room_id: RoomId
    """The room."""
    title: Title
    """What is to happen."""
    owner_email: Email
    """Who owns it: the seller or a stakeholder."""
    due_date: Date
    """When."""
    status: Literal["open", "done"] = "open"
    """open or done."""
    completed_at: DateTime | None = None
    """When it was done."""


class RoomEngagement(Value):
    """How a room's buyers engage."""

    room_id: RoomId
    """The room."""
    stakeholders: int
    """Stakeholders invited (not removed)."""
    joined: int
    """Stakeholders who visited."""
    visits: int
    """Total visits."""
    asset_views: dict[str, int]
    """Views per asset title."""
    plan_done: int
    """Milestones done."""
    plan_total: int
    """Milestones."""
    overdue: list[MilestoneId]
    """Open milestones past due."""


# -- rules ------------------------------------------------------------------------------------


def _open_room(ctx: Ctx, room_id: str, field: str) -> Room:
    room = ctx.get(Room, room_id, field=field)
    if room.status not in OPEN:
        raise RuleViolation(f"the room is {room.status}", field=field, hint="closed rooms take no changes")
    return room


def _guard_room(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.owner_email, field="owner_email", hint="rooms are run by sellers")
    if old is not None and old.status not in OPEN:
        raise RuleViolation(f"the room is {old.status}", field="room_id", hint="closed rooms take no changes")


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    _open_room(ctx, (new or old).room_id, "room_id" if old is None else "asset_id")


def _guard_milestone(ctx: Ctx, new: Any, old: Any) -> None:
    room = _open_room(ctx, (new or old).room_id, "room_id" if old is None else "milestone_id")
    if new is None:
        return
    buyers = {s.email for s in ctx.where(Stakeholder, room_id=room.id) if s.status != "removed"}
    if new.owner_email != room.owner_email and new.owner_email not in buyers:
        raise RuleViolation(
            f"{new.owner_email} is not in this room",
            field="owner_email",
            hint="assign the seller or an invited stakeholder",
        )
    if old is not None and old.status == "done":
        raise RuleViolation("the milestone is done", field="milestone_id", hint="done milestones stay")


rooms = service.resource(
    Room,
    name="room",
    plural="rooms",
    prefix="room",
    create=("name", "opportunity_name", "account_name", "owner_email", "close_date"),
    filters=("status", "owner_email", "account_name", "opportunity_name"),
    search=("name", "opportunity_name"),
    update=("name", "owner_email", "close_date"),
    delete=False,
    transitions={"archive": Transition("status", ("draft", "published"), "archived", "archive the room")},
    guard_create=_guard_room,
    guard_update=_guard_room,
    title="sales room",
)
stakeholders = service.resource(
    Stakeholder,
    name="stakeholder",
    plural="stakeholders",
    prefix="sth",
    create=False,
    filters=("room_id", "email", "role", "status"),
    delete=False,
    transitions={"remove": Transition("status", ("invited", "joined"), "removed", "remove the stakeholder")},
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=("room_id", "title", "kind", "file_link"),
    get=False,
    filters=("room_id", "kind"),
    search=("title",),
    guard_create=_guard_asset,
    guard_delete=_guard_asset,
    title="shared asset",
)
milestones = service.resource(
    Milestone,
    name="milestone",
    plural="milestones",
    prefix="mst",
    create=("room_id", "title", "owner_email", "due_date"),
    filters=("room_id", "owner_email", "status"),
    update=("title", "owner_email", "due_date"),
    guard_create=_guard_milestone,
    guard_update=_guard_milestone,
    guard_delete=_guard_milestone,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_invite(ctx: Ctx) -> dict[str, Any] | None:
    room = ctx.first(Room, status="draft")
    if room is None:
        return None
    taken = {s.email for s in ctx.where(Stakeholder, room_id=room.id)}
    buyer = next((p for p in ctx.population.contacts if p.email not in taken), None)
    return None if buyer is None else {"room_id": room.id, "email": buyer.email, "name": buyer.name, "role": "champion"}


@service.tool(intent="invite the stakeholder to the room", write=True, example=_example_invite)
def invite_stakeholder(ctx: Ctx, room_id: RoomId, email: Email, name: PersonName, role: BuyerRole) -> Stakeholder:
    """Invite a buyer to an open room (colleagues are not stakeholders; each buyer once).

    Args:
        room_id: The room.
        email: The buyer's e-mail.
        name: The buyer's name.
        role: champion, decision_maker, economic_buyer, technical_evaluator, legal or procurement.
    """
    room = _open_room(ctx, room_id, "room_id")
    if any(p.email == email for p in ctx.population.employees):
        raise RuleViolation("stakeholders are buyers, not colleagues", field="email", hint="invite the buyer")
    for other in ctx.where(Stakeholder, room_id=room.id, email=email):
        if other.status != "removed":
            raise Conflict(f"{email} is already in the room", field="email", hint="they are invited")
    return ctx.create(Stakeholder, room_id=room.id, email=email, name=name, role=role)


@service.tool(
    intent="publish the room to the buyers",
    write=True,
    example=first_example(
        Room,
        "room_id",
        where={"status": "draft"},
        match=lambda c, r: bool(c.where(Stakeholder, room_id=r.id)) and bool(c.where(Milestone, room_id=r.id)),
    ),
)
def publish_room(ctx: Ctx, room_id: RoomId) -> Room:
    """Publish a draft room; it needs an invited stakeholder and a mutual action plan.

    Args:
        room_id: The room.
    """
    room = ctx.get(Room, room_id, field="room_id")
    if room.status != "draft":
        raise Conflict(f"the room is {room.status}", field="room_id", hint="only drafts are published")
    if not [s for s in ctx.where(Stakeholder, room_id=room.id) if s.status != "removed"]:
        raise RuleViolation("the room has no stakeholder", field="room_id", hint="invite the buyer first")
    if not ctx.where(Milestone, room_id=room.id):
        raise RuleViolation("the room has no action plan", field="room_id", hint="add milestones first")
    return ctx.update(room, status="published")


@service.tool(
    intent="record the stakeholder's visit",
    write=True,
    example=lambda ctx: next(
        (
            {"stakeholder_id": s.id}
            for s in ctx.where(Stakeholder, status="joined")
            if ctx.get(Room, s.room_id).status == "published"
        ),
        None,
    ),
)
def record_visit(ctx: Ctx, stakeholder_id: StakeholderId, asset_id: AssetId | None = None) -> Stakeholder:
    """Track a stakeholder's visit to a published room, and to one of its assets if given.

    Args:
        stakeholder_id: The stakeholder.
        asset_id: The asset opened, if any; it must be in the same room.
    """
    who = ctx.get(Stakeholder, stakeholder_id, field="stakeholder_id")
    room = ctx.get(Room, who.room_id)
    if room.status != "published" or who.status == "removed":
        raise RuleViolation("the room is not open to this stakeholder", field="stakeholder_id", hint="publish it")
    if asset_id is not None:
        asset = ctx.get(Asset, asset_id, field="asset_id")
        if asset.room_id != room.id:
            raise RuleViolation("the asset is in another room", field="asset_id", hint="use this room's assets")
        ctx.update(asset, views=asset.views + 1)
    ctx.update(room, last_activity_at=ctx.now())
    return ctx.update(who, visits=who.visits + 1, status="joined")


@service.tool(
    intent="complete the milestone",
    write=True,
    example=first_example(
        Milestone, "milestone_id", where={"status": "open"}, match=lambda c, r: c.get(Room, r.room_id).status in OPEN
    ),
)
def complete_milestone(ctx: Ctx, milestone_id: MilestoneId) -> Milestone:
    """Mark an open milestone of an open room done.

    Args:
        milestone_id: The milestone.
    """
    step = ctx.get(Milestone, milestone_id, field="milestone_id")
    _open_room(ctx, step.room_id, "milestone_id")
    if step.status == "done":
        raise Conflict("the milestone is already done", field="milestone_id", hint="nothing to do")
    return ctx.update(step, status="done", completed_at=ctx.now())


@service.tool(
    intent="close the room as won or lost",
    write=True,
    destructive=True,
    example=first_example(Room, "room_id", where={"status": "published"}, outcome="won"),
)
def close_room(ctx: Ctx, room_id: RoomId, outcome: Literal["won", "lost"]) -> Room:
    """Close a published room with the deal's outcome; it is frozen afterwards.

    Args:
        room_id: The room.
        outcome: won or lost.
    """
    room = ctx.get(Room, room_id, field="room_id")
    if room.status != "published":
        raise RuleViolation(f"the room is {room.status}", field="room_id", hint="only published rooms close")
    return ctx.update(room, status=outcome)


@service.tool(intent="show the room's engagement", example=first_example(Room, "room_id"))
def room_engagement(ctx: Ctx, room_id: RoomId) -> RoomEngagement:
    """Stakeholders, visits, asset views and action-plan progress of a room.

    Args:
        room_id: The room.
    """
    room = ctx.get(Room, room_id, field="room_id")
    people = [s for s in ctx.where(Stakeholder, room_id=room.id) if s.status != "removed"]
    plan = ctx.where(Milestone, room_id=room.id)
    return RoomEngagement(
        room_id=room.id,
        stakeholders=len(people),
        joined=sum(s.status == "joined" for s in people),
        visits=sum(s.visits for s in people),
        asset_views={a.title: a.views for a in ctx.where(Asset, room_id=room.id)},
        plan_done=sum(m.status == "done" for m in plan),
        plan_total=len(plan),
        overdue=[m.id for m in plan if m.status == "open" and m.due_date < ctx.today()],
    )


# -- seed -------------------------------------------------------------------------------------

PLAN = ("Discovery call recap", "Technical validation", "Security review", "Pricing approval", "Contract signature")


@service.seeder
def seed(s: SeedContext) -> None:
    """Rooms for deals with the world's companies, their contacts as stakeholders, assets and action plans."""
    pop = s.population
    sellers = pop.staff("Sales", fallback=3)
    today = s.now.date()
    statuses: tuple[RoomStatus, ...] = ("published", "published", "draft", "won", "lost", "draft")
    for k, company in enumerate(pop.customers[:6]):
        seller = sellers[k % len(sellers)].email
        status = statuses[k]
        room = s.create(
            Room,
            name=f"{company.name} x {pop.home.name}",
            opportunity_name=f"{company.name} - platform",
            account_name=company.name,
            owner_email=seller,
            status=status,
            close_date=today + dt.timedelta(days=30 + 10 * k),
            last_activity_at=s.ago(days=k) if status != "draft" else None,
            created_at=s.ago(days=40 - k),
            updated_at=s.ago(days=k + 1),
        )
        buyers = list(pop.people_at(company))[:3] if k != 5 else []
        for j, person in enumerate(buyers):
            visits = 0 if status == "draft" else (j + k) % 4
            s.create(
                Stakeholder,
                room_id=room.id,
                email=person.email,
                name=person.name,
                role=("champion", "decision_maker", "technical_evaluator")[j],
                visits=visits,
                status="joined" if visits else "invited",
                created_at=s.ago(days=39 - k),
                updated_at=s.ago(days=k + 1),
            )
        for j, (title, kind) in enumerate((("Proposal", "proposal"), ("Pricing", "pricing"))):
            s.create(
                Asset,
                room_id=room.id,
                title=f"{company.name} {title}",
                kind=kind,
                file_link=f"https://files.{pop.home.domain}/rooms/{room.id}/{kind}.pdf",
                views=(k + j) % 5,
                created_at=s.ago(days=38 - k),
            )
        if k == 5:
            continue
        for j, title in enumerate(PLAN):
            done = status in ("won",) or j < k % 3
            owner = buyers[j % len(buyers)].email if buyers and j % 2 else seller
            s.create(
                Milestone,
                room_id=room.id,
                title=title,
                owner_email=owner,
                due_date=today + dt.timedelta(days=-10 + 7 * j),
                status="done" if done else "open",
                completed_at=s.ago(days=5) if done else None,
                created_at=s.ago(days=38 - k),
                updated_at=s.ago(days=2),
            )
