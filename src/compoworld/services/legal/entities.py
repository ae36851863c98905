"""Charter Registry: legal entity management for the company's subsidiaries, officers and filings.

Modeled on Diligent Entities (formerly Blueprint OneWorld) and CSC Entity Management: legal entities by
jurisdiction with a file number, a type (corporation, llc, lp, branch, nonprofit) and a status that goes
active → dormant ↔ active → dissolved; ownership from a parent entity by percent (no cycles, at most 100%);
officers and directors appointed and resigned (one active holder per officer title); registered agents
assigned per jurisdiction; annual report and franchise tax filings that go due → filed → accepted or
rejected, and good standing that is lost while a filing is overdue and back once it is accepted. An
entity dissolves only once it has no active subsidiary and no filing left open.
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
from compoworld.engine.types import Cents, CompanyName, Country, Date, DateTime, Email, IdOf, PersonName
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "entities",
    title="Charter Registry",
    category="entity_management",
    modeled_on="Diligent Entities / CSC Entity Management: entities, officers and directors, registered "
    "agents, annual report filings, good standing, ownership",
    description="The company's legal entity register: subsidiaries by jurisdiction and their ownership, "
    "officers and directors, registered agents, and the annual report and tax filings that keep each "
    "entity in good standing.",
)

EntityId = Annotated[str, IdOf("entities.entity")]
OfficerId = Annotated[str, IdOf("entities.officer")]
AgentId = Annotated[str, IdOf("entities.agent")]
FilingId = Annotated[str, IdOf("entities.filing")]

EntityType = Literal["corporation", "llc", "lp", "branch", "nonprofit"]
EntityStatus = Literal["active", "dormant", "dissolved"]
Standing = Literal["good", "not_in_good_standing"]
OfficerTitle = Literal["director", "chair", "president", "secretary", "treasurer", "ceo", "cfo"]
OfficerStatus = Literal["active", "resigned"]
FilingKind = Literal["annual_report", "franchise_tax", "beneficial_ownership"]
FilingStatus = Literal["due", "filed", "accepted", "rejected"]
Ownership = Annotated[float, Field(gt=0, le=100)]
Region = Annotated[str, StringConstraints(min_length=1, max_length=60)]
"""A state or province within the country, e.g. Delaware."""
SOLE_TITLES: tuple[OfficerTitle, ...] = ("chair", "president", "secretary", "treasurer", "ceo", "cfo")
OPEN_FILINGS: tuple[FilingStatus, ...] = ("due", "filed", "rejected")


class Entity(Record):
    """A legal entity of the group."""

    id: EntityId
    name: CompanyName
    """Its registered name (unique)."""
    entity_type: EntityType
    """corporation, llc, lp, branch or nonprofit."""
    country: Country
    """The country of formation."""
    region: Region
    """The state or province of formation."""
    formation_date: Date
    """When it was formed."""
    status: EntityStatus = "active"
    """active, dormant or dissolved."""
    good_standing: Standing = "good"
    """good, or not_in_good_standing while a filing is overdue."""
    parent_id: EntityId | None = None
    """The entity that owns it."""
    ownership_percent: Ownership | None = None
    """The parent's share."""
    agent_id: AgentId | None = None
    """Its registered agent."""
    dissolved_on: Date | None = None
    """When it was dissolved."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Officer(Record):
    """An officer or director appointment at an entity."""

    id: OfficerId
    entity_id: EntityId
    """The entity."""
    name: PersonName
    """The person."""
    email: Email
    """Their e-mail."""
    title: OfficerTitle
    """director, chair, president, secretary, treasurer, ceo or cfo."""
    appointed_on: Date
    """When they were appointed."""
    status: OfficerStatus = "active"
    """active or resigned."""
    resigned_on: Date | None = None
    """When they resigned."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class Agent(Record):
    """A registered agent that accepts service of process for entities in a jurisdiction."""

    id: AgentId
    name: CompanyName
    """The agent firm."""
    country: Country
    """Its country."""
    region: Region
    """The state or province it serves."""
    email: Email
    """Its contact e-mail."""
    created_at: Annotated[DateTime, CREATED]
    """When it was added."""


class Filing(Record):
    """A statutory filing an entity owes its jurisdiction."""

    id: FilingId
    entity_id: EntityId
    """The entity."""
    kind: FilingKind
    """annual_report, franchise_tax or beneficial_ownership."""
    due_on: Date
    """The due date."""
    fee: Cents = 0
    """The state fee in cents."""
    status: FilingStatus = "due"
    """due, filed, accepted or rejected."""
    filed_on: Date | None = None
    """When it was filed."""
    filed_by: Email | None = None
    """The employee who filed it."""
    rejection_reason: str | None = None
    """Why the state rejected it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class OwnershipLink(Value):
    """One step of an entity's ownership chain."""

    entity_id: EntityId
    """The entity."""
    name: CompanyName
    """Its name."""
    ownership_percent: float | None
    """Its parent's share."""
    effective_percent: float
    """The top entity's indirect share of the starting entity through this step."""


class StandingReport(Value):
    """An entity's standing check."""

    entity_id: EntityId
    """The entity."""
    good_standing: Standing
    """The result."""
    overdue_filing_ids: list[FilingId]
    """The overdue filings."""
    active_officers: int
    """Active officers and directors."""
    has_agent: bool
    """Whether a registered agent is assigned."""


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the container", field=field, hint="use an employee's e-mail")


def _live(ctx: Ctx, entity_id: str, field: str = "entity_id") -> Entity:
    e = ctx.get(Entity, entity_id, field=field)
    if e.status == "dissolved":
        raise Conflict(f"entity {e.name!r} is dissolved", field=field, hint="pick an active or dormant entity")
    return e


def _guard_entity(ctx: Ctx, new: Any, old: Any) -> None:
    if new.agent_id is not None and new.agent_id != (old.agent_id if old else None):
        agent = ctx.get(Agent, new.agent_id, field="agent_id")
        if (agent.country, agent.region) != (new.country, new.region):
            raise RuleViolation(
                f"agent {agent.name!r} serves {agent.region}, {agent.country}, not {new.region}, {new.country}",
                field="agent_id",
                hint="pick an agent of the entity's jurisdiction",
            )


entities = service.resource(
    Entity,
    name="entity",
    plural="entities",
    prefix="ent",
    create=False,
    filters=("entity_type", "country", "region", "status", "good_standing", "parent_id", "agent_id"),
    search=("name",),
    update=("agent_id",),
    delete=False,
    transitions={
        "mark_dormant": Transition("status", ("active",), "dormant", "mark the entity dormant"),
        "reactivate": Transition("status", ("dormant",), "active", "reactivate the entity"),
    },
    guard_update=_guard_entity,
    title="legal entity",
)
officers = service.resource(
    Officer,
    name="officer",
    plural="officers",
    prefix="off",
    create=False,
    filters=("entity_id", "email", "title", "status"),
    search=("name",),
    delete=False,
)
agents = service.resource(
    Agent,
    name="agent",
    plural="agents",
    prefix="agt",
    create=("name", "country", "region", "email"),
    filters=("country", "region"),
    search=("name",),
    delete=False,
    title="registered agent",
)
filings = service.resource(
    Filing,
    name="filing",
    plural="filings",
    prefix="fil",
    create=False,
    filters=("entity_id", "kind", "status", "filed_by"),
    update=("fee",),
    delete=False,
)


def _example_form(ctx: Ctx) -> dict[str, Any] | None:
    parent = ctx.first(Entity, status="active", parent_id=None)
    return {
        "name": f"{ctx.population.home.name} Holdings Ireland Limited",
        "entity_type": "corporation",
        "country": "IE",
        "region": "Dublin",
        "formation_date": ctx.today().isoformat(),
        "parent_id": parent.id if parent else None,
        "ownership_percent": 100.0 if parent else None,
    }


@service.tool(intent="form the legal entity", write=True, example=_example_form)
def form_entity(
    ctx: Ctx,
    name: CompanyName,
    entity_type: EntityType,
    country: Country,
    region: Region,
    formation_date: Date,
    parent_id: EntityId | None = None,
    ownership_percent: Ownership | None = None,
) -> Entity:
    """Register a newly formed entity; names are unique and an owned entity states the parent's share.

    Args:
        name: Its registered name.
        entity_type: corporation, llc, lp, branch or nonprofit.
        country: The country of formation.
        region: The state or province of formation.
        formation_date: When it was formed (not in the future).
        parent_id: The owning entity.
        ownership_percent: The parent's share, above 0 and at most 100.
    """
    if ctx.first(Entity, name=name) is not None:
        raise Conflict(f"an entity named {name!r} exists", field="name", hint="pick another name")
    if formation_date > ctx.today():
        raise RuleViolation("formation_date is in the future", field="formation_date", hint="use today or earlier")
    if (parent_id is None) != (ownership_percent is None):
        raise RuleViolation(
            "parent_id and ownership_percent go together",
            field="ownership_percent",
            hint="give both or neither",
        )
    if parent_id is not None:
        _live(ctx, parent_id, "parent_id")
    return ctx.create(
        Entity,
        name=name,
        entity_type=entity_type,
        country=country,
        region=region,
        formation_date=formation_date,
        parent_id=parent_id,
        ownership_percent=ownership_percent,
    )


@service.tool(
    intent="change the entity's parent",
    write=True,
    example=first_example(Entity, "entity_id", where={"status": "dormant"}),
)
def transfer_ownership(ctx: Ctx, entity_id: EntityId, parent_id: EntityId, ownership_percent: Ownership) -> Entity:
    """Move an entity under another parent with a share; an entity cannot own itself, even indirectly.

    Args:
        entity_id: The entity.
        parent_id: The new owner.
        ownership_percent: The new owner's share.
    """
    e = _live(ctx, entity_id)
    parent = _live(ctx, parent_id, "parent_id")
    cur: Entity | None = parent
    while cur is not None:
        if cur.id == e.id:
            raise RuleViolation("that would make an ownership cycle", field="parent_id", hint="pick an entity above")
        cur = ctx.get(Entity, cur.parent_id) if cur.parent_id else None
    return ctx.update(e, parent_id=parent.id, ownership_percent=ownership_percent)


@service.tool(
    intent="dissolve the entity",
    write=True,
    example=first_example(Entity, "entity_id", where={"status": "dormant"}),
)
def dissolve_entity(ctx: Ctx, entity_id: EntityId) -> Entity:
    """Dissolve an entity that has no active subsidiary and no open filing; its officers resign.

    Args:
        entity_id: The entity.
    """
    e = _live(ctx, entity_id)
    kids = [k for k in ctx.where(Entity, parent_id=e.id) if k.status != "dissolved"]
    if kids:
        raise Conflict(
            f"{len(kids)} subsidiaries are not dissolved", field="entity_id", hint="dissolve or transfer them first"
        )
    open_ = [f for f in ctx.where(Filing, entity_id=e.id) if f.status in OPEN_FILINGS]
    if open_:
        raise Conflict(
            f"filing {open_[0].id} is still {open_[0].status}",
            field="entity_id",
            hint="file it and get it accepted first",
        )
    for o in ctx.where(Officer, entity_id=e.id, status="active"):
        ctx.update(o, status="resigned", resigned_on=ctx.today())
    return ctx.update(e, status="dissolved", dissolved_on=ctx.today())


def _example_appoint(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Entity, status="active")
    p = ctx.population.employees[-1]
    return None if e is None else {"entity_id": e.id, "name": p.name, "email": p.email, "title": "director"}


@service.tool(intent="appoint the officer", write=True, example=_example_appoint)
def appoint_officer(ctx: Ctx, entity_id: EntityId, name: PersonName, email: Email, title: OfficerTitle) -> Officer:
    """Appoint an officer or director; a person holds a title once, and officer titles have one holder.

    Args:
        entity_id: The entity.
        name: The person.
        email: Their e-mail.
        title: director, chair, president, secretary, treasurer, ceo or cfo.
    """
    e = _live(ctx, entity_id)
    for o in ctx.where(Officer, entity_id=e.id, title=title, status="active"):
        if o.email == email or title in SOLE_TITLES:
            raise Conflict(
                f"{o.name} is already {title} of {e.name}",
                field="title",
                hint="resign the current holder with entities__resign_officer first",
            )
    return ctx.create(Officer, entity_id=e.id, name=name, email=email, title=title, appointed_on=ctx.today())


@service.tool(
    intent="record the officer's resignation",
    write=True,
    example=first_example(Officer, "officer_id", where={"status": "active"}),
)
def resign_officer(ctx: Ctx, officer_id: OfficerId) -> Officer:
    """Record an active officer's resignation.

    Args:
        officer_id: The appointment.
    """
    o = ctx.get(Officer, officer_id, field="officer_id")
    if o.status != "active":
        raise Conflict(f"{o.name} already resigned", field="officer_id", hint="nothing to do")
    return ctx.update(o, status="resigned", resigned_on=ctx.today())


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Entity, status="active")
    return (
        None
        if e is None
        else {
            "entity_id": e.id,
            "kind": "beneficial_ownership",
            "due_on": (ctx.today() + dt.timedelta(days=90)).isoformat(),
        }
    )


@service.tool(intent="schedule the filing", write=True, example=_example_schedule)
def schedule_filing(ctx: Ctx, entity_id: EntityId, kind: FilingKind, due_on: Date, fee: Cents = 0) -> Filing:
    """Put a filing on an entity's calendar; one open filing of a kind per entity.

    Args:
        entity_id: The entity.
        kind: annual_report, franchise_tax or beneficial_ownership.
        due_on: The due date (after today).
        fee: The state fee in cents.
    """
    e = _live(ctx, entity_id)
    if due_on <= ctx.today():
        raise RuleViolation("due_on must be after today", field="due_on", hint="pick a future date")
    for f in ctx.where(Filing, entity_id=e.id, kind=kind):
        if f.status in OPEN_FILINGS:
            raise Conflict(f"filing {f.id} of that kind is still {f.status}", field="kind", hint="complete it first")
    return ctx.create(Filing, entity_id=e.id, kind=kind, due_on=due_on, fee=fee)


@service.tool(
    intent="submit the filing", write=True, example=first_example(Filing, "filing_id", where={"status": "due"})
)
def submit_filing(ctx: Ctx, filing_id: FilingId, filed_by: Email) -> Filing:
    """Submit a due or rejected filing to the state; the entity needs a registered agent.

    Args:
        filing_id: The filing.
        filed_by: The employee filing it.
    """
    f = ctx.get(Filing, filing_id, field="filing_id")
    if f.status not in ("due", "rejected"):
        raise Conflict(f"filing {f.id} is {f.status}", field="filing_id", hint="only due or rejected filings")
    _staff(ctx, filed_by, "filed_by")
    e = _live(ctx, f.entity_id, "filing_id")
    if e.agent_id is None:
        raise RuleViolation(
            f"{e.name} has no registered agent", field="filing_id", hint="assign one with entities__update_entity"
        )
    return ctx.update(f, status="filed", filed_on=ctx.today(), filed_by=filed_by, rejection_reason=None)


def _restore(ctx: Ctx, entity_id: str) -> None:
    e = ctx.get(Entity, entity_id)
    today = ctx.today()
    overdue = [f for f in ctx.where(Filing, entity_id=e.id) if f.status in ("due", "rejected") and f.due_on < today]
    standing: Standing = "not_in_good_standing" if overdue else "good"
    if e.good_standing != standing:
        ctx.update(e, good_standing=standing)


@service.tool(
    intent="record the state's acceptance of the filing",
    write=True,
    example=first_example(Filing, "filing_id", where={"status": "filed"}),
)
def accept_filing(ctx: Ctx, filing_id: FilingId) -> Filing:
    """Record that the state accepted a filed filing; good standing returns once nothing is overdue.

    Args:
        filing_id: The filing.
    """
    f = ctx.get(Filing, filing_id, field="filing_id")
    if f.status != "filed":
        raise Conflict(f"filing {f.id} is {f.status}", field="filing_id", hint="submit it first")
    f = ctx.update(f, status="accepted")
    _restore(ctx, f.entity_id)
    return f


@service.tool(
    intent="record the state's rejection of the filing",
    write=True,
    example=first_example(Filing, "filing_id", where={"status": "filed"}),
)
def reject_filing(ctx: Ctx, filing_id: FilingId, reason: Annotated[str, StringConstraints(min_length=3)]) -> Filing:
    """Record that the state rejected a filed filing, with its reason; it can be corrected and resubmitted.

    Args:
        filing_id: The filing.
        reason: The state's reason.
    """
    f = ctx.get(Filing, filing_id, field="filing_id")
    if f.status != "filed":
        raise Conflict(f"filing {f.id} is {f.status}", field="filing_id", hint="only filed filings")
    f = ctx.update(f, status="rejected", rejection_reason=reason)
    _restore(ctx, f.entity_id)
    return f


@service.tool(intent="check the entity's good standing", example=first_example(Entity, "entity_id"))
def check_standing(ctx: Ctx, entity_id: EntityId) -> StandingReport:
    """Whether an entity is in good standing: no overdue filing.

    Args:
        entity_id: The entity.
    """
    e = ctx.get(Entity, entity_id, field="entity_id")
    today = ctx.today()
    overdue = [f.id for f in ctx.where(Filing, entity_id=e.id) if f.status in ("due", "rejected") and f.due_on < today]
    return StandingReport(
        entity_id=e.id,
        good_standing="not_in_good_standing" if overdue else "good",
        overdue_filing_ids=overdue,
        active_officers=len(ctx.where(Officer, entity_id=e.id, status="active")),
        has_agent=e.agent_id is not None,
    )


@service.tool(intent="show the entity's ownership chain", example=first_example(Entity, "entity_id"))
def ownership_chain(ctx: Ctx, entity_id: EntityId) -> list[OwnershipLink]:
    """The chain of owners from an entity up to the top, with effective indirect shares.

    Args:
        entity_id: The entity.
    """
    cur: Entity | None = ctx.get(Entity, entity_id, field="entity_id")
    out: list[OwnershipLink] = []
    share = 100.0
    while cur is not None:
        out.append(
            OwnershipLink(
                entity_id=cur.id,
                name=cur.name,
                ownership_percent=cur.ownership_percent,
                effective_percent=round(share, 4),
            )
        )
        share = share * (cur.ownership_percent or 100.0) / 100.0
        cur = ctx.get(Entity, cur.parent_id) if cur.parent_id else None
    return out


# -- seed -------------------------------------------------------------------------------------

JURISDICTIONS: tuple[tuple[str, str, str, EntityType], ...] = (
    ("Inc.", "US", "Delaware", "corporation"),
    ("US Operations LLC", "US", "California", "llc"),
    ("UK Ltd", "GB", "England and Wales", "corporation"),
    ("GmbH", "DE", "Berlin", "corporation"),
    ("Canada ULC", "CA", "Ontario", "corporation"),
    ("Foundation", "US", "Delaware", "nonprofit"),
    ("Ventures LP", "US", "Delaware", "lp"),
)
AGENTS: tuple[tuple[str, str, str], ...] = (
    ("Corporation Service Company", "US", "Delaware"),
    ("CT Corporation System", "US", "California"),
    ("Vistra UK Limited", "GB", "England and Wales"),
    ("Intertrust Germany GmbH", "DE", "Berlin"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The group's entities with agents, officers drawn from the staff, and filings in every state."""
    pop = s.population
    home = pop.home.name
    made_agents = {}
    for name, country, region in AGENTS:
        slug = name.split()[0].lower()
        made_agents[(country, region)] = s.create(
            Agent,
            name=name,
            country=country,
            region=region,
            email=f"service@{slug}.example.com",
            created_at=s.ago(days=900),
        )
    legal = pop.staff("Legal", "Finance", fallback=4)
    top: Entity | None = None
    made: list[Entity] = []
    for k, (suffix, country, region, etype) in enumerate(JURISDICTIONS):
        agent = made_agents.get((country, region))
        status: Any = "dormant" if k == 6 else "active"
        e = s.create(
            Entity,
            name=f"{home} {suffix}",
            entity_type=etype,
            country=country,
            region=region,
            formation_date=(s.now - dt.timedelta(days=3000 - 300 * k)).date(),
            status=status,
            parent_id=top.id if top else None,
            ownership_percent=None if top is None else (100.0 if k != 4 else 80.0),
            agent_id=agent.id if agent else None,
            created_at=s.ago(days=800 - 50 * k),
            updated_at=s.ago(days=30),
        )
        top = top or e
        made.append(e)
    for k, e in enumerate(made):
        for j, title in enumerate(("director", "secretary") if k else ("director", "chair", "ceo", "cfo", "secretary")):
            p = legal[(k + j) % len(legal)] if title != "director" else pop.employees[(3 * k + j) % len(pop.employees)]
            s.create(
                Officer,
                entity_id=e.id,
                name=p.name,
                email=p.email,
                title=title,
                appointed_on=(s.now - dt.timedelta(days=700 - 40 * k)).date(),
                created_at=s.ago(days=700 - 40 * k),
            )
    today = s.now.date()
    for k, e in enumerate(made):
        status_f: Any = ("accepted", "filed", "due", "due", "rejected", "accepted", "accepted")[k]
        due = today + dt.timedelta(days=(-400, 20, 45, -10, 60, -300, -200)[k])
        s.create(
            Filing,
            entity_id=e.id,
            kind="annual_report",
            due_on=due,
            fee=(30000, 2500, 1300, 0, 1200, 5000, 30000)[k],
            status=status_f,
            filed_on=due - dt.timedelta(days=5) if status_f in ("accepted", "filed", "rejected") else None,
            filed_by=legal[0].email if status_f in ("accepted", "filed", "rejected") else None,
            rejection_reason="Officer address missing." if status_f == "rejected" else None,
            updated_at=s.ago(days=3),
        )
        if due < today and status_f in ("due", "rejected"):
            s.update(e, good_standing="not_in_good_standing")
