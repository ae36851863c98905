"""Hearthstone Realty CRM: buyers and sellers by stage, agents, listings, deals, showings, action plans and tasks.

Modeled on the Follow Up Boss API v1 (people with stages and assigned agents,
users, deals in a pipeline with price and commission, appointments, action
plans applied to people, tasks). A person's stage moves freely between lead,
prospect, active client, past client and trash, but under contract and closed
are set only by their deals. A deal ties a person to a property on the buying
or listing side, with a price and a commission of at most 10 %; a buyer-side
deal needs a buyer and a property still for sale, and a property carries one
live deal per side. A deal goes offer → under contract (the property turns
pending) → closed (sold, commission earned, the person closed), or falls
through (a pending property is for sale again). A showing needs a property for
sale, a future slot and an agent free at that time; trashed people get no
showings, deals or action plans. Applying an action plan creates its tasks for
the person's agent, due on each step's day; a plan runs once per person at a
time, and pausing or trashing stops it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Percent,
    Phone,
    PostalAddress,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "realtycrm",
    title="Hearthstone Realty CRM",
    category="real_estate_crm",
    modeled_on="Follow Up Boss API v1 (people, users, deals, appointments, action plans, tasks)",
    description="Real-estate CRM for a brokerage: buyers and sellers moving through stages, their assigned "
    "agents, listed properties, deals with price and commission from offer to closing, showings, and action "
    "plans that create follow-up tasks.",
)

AgentId = Annotated[str, IdOf("realtycrm.agent")]
PersonId = Annotated[str, IdOf("realtycrm.person")]
PropertyId = Annotated[str, IdOf("realtycrm.property")]
DealId = Annotated[str, IdOf("realtycrm.deal")]
AppointmentId = Annotated[str, IdOf("realtycrm.appointment")]
PlanId = Annotated[str, IdOf("realtycrm.action_plan")]
EnrollmentId = Annotated[str, IdOf("realtycrm.enrollment")]
TaskId = Annotated[str, IdOf("realtycrm.task")]

Stage = Literal["lead", "prospect", "active_client", "under_contract", "closed", "past_client", "trash"]
DEAL_STAGES: tuple[str, ...] = ("under_contract", "closed")
"""Stages only a deal sets."""
DealStage = Literal["offer", "under_contract", "closed", "fell_through"]
LIVE_DEAL: tuple[str, ...] = ("offer", "under_contract")
TaskType = Literal["call", "email", "text", "showing", "follow_up"]
MAX_COMMISSION = 10.0


class Agent(Record):
    """A user of the brokerage: an agent, an inside sales agent or the broker."""

    id: AgentId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Work e-mail address."""
    phone: Phone
    """Mobile number."""
    role: Literal["agent", "isa", "broker"]
    """agent, isa (inside sales agent) or broker."""
    active: bool = True
    """Whether people can be assigned to them."""


class Person(Timestamped):
    """A buyer or seller the brokerage works with."""

    id: PersonId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail address."""
    phone: Phone | None = None
    """Phone number."""
    kind: Literal["buyer", "seller", "buyer_and_seller"]
    """Whether they buy, sell or both."""
    stage: Stage = "lead"
    """Where they are; under_contract and closed follow their deals."""
    assigned_agent_id: AgentId | None = None
    """The agent who owns the relationship."""
    source: Literal["website", "zillow", "realtor_com", "referral", "open_house", "sign_call"] = "website"
    """Where the lead came from."""
    price_min: Cents | None = None
    """Lowest price they look at, in cents."""
    price_max: Cents | None = None
    """Highest price they look at, in cents."""


class Property(Record):
    """A home on the market or sold."""

    id: PropertyId
    mls_number: Annotated[str, Field(pattern=r"^ML[0-9]{7}$")]
    """MLS listing number."""
    address: PostalAddress
    """Where it is."""
    list_price: Cents
    """Asking price, in cents."""
    bedrooms: int = Field(ge=0, le=20)
    """Bedrooms."""
    bathrooms: float = Field(ge=0, le=20)
    """Bathrooms."""
    status: Literal["active", "pending", "sold"] = "active"
    """active (for sale), pending (under contract) or sold."""
    seller_id: PersonId | None = None
    """The seller, when the brokerage lists it."""


class Deal(Timestamped):
    """A transaction: a person buying or selling a property."""

    id: DealId
    person_id: PersonId
    """The client."""
    property_id: PropertyId
    """The property."""
    agent_id: AgentId
    """The agent on the deal."""
    side: Literal["buyer", "listing"]
    """buyer: the client buys; listing: the client sells."""
    price: Cents
    """Offer or sale price, in cents."""
    commission_percent: Percent
    """The brokerage's commission rate."""
    commission: Cents = 0
    """Commission earned at closing, in cents."""
    stage: DealStage = "offer"
    """offer → under_contract → closed, or fell_through."""
    close_date: Date | None = None
    """Expected or actual closing date."""


class Appointment(Created):
    """A showing or meeting with a client."""

    id: AppointmentId
    person_id: PersonId
    """The client."""
    agent_id: AgentId
    """The agent attending."""
    property_id: PropertyId | None = None
    """The property shown, for a showing."""
    title: Title
    """What it is."""
    starts_at: DateTime
    """Start."""
    ends_at: DateTime
    """End."""
    outcome: Literal["scheduled", "completed", "no_show", "cancelled"] = "scheduled"
    """How it went."""


class PlanStep(Value):
    """One step of an action plan."""

    day: int = Field(ge=0, le=365, description="Days after the plan is applied that the task is due.")
    type: TaskType = Field(description="What kind of task.")
    title: Title = Field(description="The task's title.")


class ActionPlan(Record):
    """A sequence of follow-up tasks applied to a person."""

    id: PlanId
    name: Title
    """The plan's name."""
    steps: list[PlanStep]
    """The tasks it creates."""
    active: bool = True
    """Whether it can be applied."""


class Enrollment(Created):
    """An action plan applied to a person."""

    id: EnrollmentId
    plan_id: PlanId
    """The plan."""
    person_id: PersonId
    """The person."""
    status: Literal["running", "paused", "finished"] = "running"
    """running, paused or finished."""


class Task(Created):
    """A to-do for an agent about a person."""

    id: TaskId
    person_id: PersonId
    """The person."""
    agent_id: AgentId
    """Who does it."""
    type: TaskType
    """What kind."""
    title: Title
    """What to do."""
    due_date: Date
    """When it is due."""
    completed: bool = False
    """Whether it is done."""
    enrollment_id: EnrollmentId | None = None
    """The action plan run that created it."""


# -- guards -----------------------------------------------------------------------------------


def _guard_person(ctx: Ctx, new: Any, old: Any) -> None:
    if new.stage != (old.stage if old is not None else "lead") and new.stage in DEAL_STAGES:
        raise RuleViolation(
            f"the {new.stage} stage follows the person's deals",
            field="stage",
            hint="advance their deal with realtycrm__advance_deal",
        )
    if new.assigned_agent_id is not None:
        agent = ctx.get(Agent, new.assigned_agent_id, field="assigned_agent_id")
        if not agent.active:
            raise RuleViolation(
                f"{agent.first_name} {agent.last_name} is inactive",
                field="assigned_agent_id",
                hint="assign an active agent",
            )
    if new.price_min is not None and new.price_max is not None and new.price_min > new.price_max:
        raise RuleViolation("price_min is above price_max", field="price_min", hint="swap the bounds")
    if old is not None and new.stage == "trash" and old.stage != "trash":
        for run in ctx.where(Enrollment, person_id=old.id, status="running"):
            ctx.update(run, status="paused")


agents = service.resource(
    Agent,
    name="agent",
    plural="agents",
    prefix="usr",
    create=False,
    get=False,
    filters=("role", "active", "email"),
    search=("first_name", "last_name"),
    delete=False,
)
people = service.resource(
    Person,
    name="person",
    plural="people",
    prefix="per",
    create=(
        "first_name",
        "last_name",
        "email",
        "phone",
        "kind",
        "assigned_agent_id",
        "source",
        "price_min",
        "price_max",
    ),
    get=False,
    filters=("stage", "kind", "assigned_agent_id", "source", "email"),
    search=("first_name", "last_name", "email"),
    update=("first_name", "last_name", "phone", "stage", "assigned_agent_id", "price_min", "price_max"),
    delete=False,
    unique=("email",),
    guard_create=_guard_person,
    guard_update=_guard_person,
)
properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="prop",
    create=False,
    get=False,
    filters=("status", "mls_number", "seller_id", "bedrooms"),
    delete=False,
    unique=("mls_number",),
    title="property",
)
deals = service.resource(
    Deal,
    name="deal",
    plural="deals",
    prefix="deal",
    create=False,
    get=False,
    filters=("person_id", "property_id", "agent_id", "stage", "side"),
    delete=False,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="appt",
    create=False,
    get=False,
    filters=("person_id", "agent_id", "property_id", "outcome"),
    search=("title",),
    delete=False,
)
plans = service.resource(
    ActionPlan,
    name="action_plan",
    plural="action_plans",
    prefix="ap",
    create=False,
    get=False,
    filters=("active",),
    search=("name",),
    delete=False,
    title="action plan",
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="apr",
    create=False,
    get=False,
    filters=("plan_id", "person_id", "status"),
    delete=False,
    transitions={
        "pause": Transition(
            "status",
            ("running",),
            "paused",
            "pause the action plan for the person",
            description="Stop a running action plan for a person (its tasks stay).",
        )
    },
    title="action plan enrollment",
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="tsk",
    create=False,
    get=False,
    filters=("person_id", "agent_id", "type", "completed", "due_date", "enrollment_id"),
    search=("title",),
    delete=False,
    transitions={"complete": Transition("completed", (False,), True, "mark the follow-up task done")},
)


# -- rules ------------------------------------------------------------------------------------


def _client(ctx: Ctx, person_id: str) -> Person:
    person = ctx.get(Person, person_id, field="person_id")
    if person.stage == "trash":
        raise RuleViolation(
            f"{person.first_name} {person.last_name} is in the trash",
            field="person_id",
            hint="restore them to a stage first",
        )
    return person


def _agent(ctx: Ctx, agent_id: str) -> Agent:
    agent = ctx.get(Agent, agent_id, field="agent_id")
    if not agent.active:
        raise RuleViolation(
            f"{agent.first_name} {agent.last_name} is inactive", field="agent_id", hint="choose an active agent"
        )
    return agent


def _deal_example(ctx: Ctx) -> dict[str, Any] | None:
    agent = ctx.first(Agent, active=True, role="agent")
    for person in ctx.where(Person, kind="buyer", stage="active_client"):
        for prop in ctx.where(Property, status="active"):
            if agent and not any(
                d.side == "buyer" and d.stage in LIVE_DEAL for d in ctx.where(Deal, property_id=prop.id)
            ):
                return {
                    "person_id": person.id,
                    "property_id": prop.id,
                    "agent_id": agent.id,
                    "side": "buyer",
                    "price": prop.list_price,
                    "commission_percent": 2.5,
                }
    return None


@service.tool(intent="open a real-estate deal", write=True, example=_deal_example)
def create_deal(
    ctx: Ctx,
    person_id: PersonId,
    property_id: PropertyId,
    agent_id: AgentId,
    side: Literal["buyer", "listing"],
    price: Cents,
    commission_percent: Percent,
    close_date: Date | None = None,
) -> Deal:
    """Open a deal at the offer stage for a client on a property.

    A buyer-side deal needs a buyer and a property still for sale; a listing
    needs a seller and a property not sold; a property has one live deal per
    side; the commission is at most 10 %.

    Args:
        person_id: The client.
        property_id: The property.
        agent_id: The agent on the deal.
        side: buyer or listing.
        price: Offer or list price, in cents.
        commission_percent: The brokerage's commission rate.
        close_date: Expected closing date.
    """
    person = _client(ctx, person_id)
    prop = ctx.get(Property, property_id, field="property_id")
    _agent(ctx, agent_id)
    wants = "buyer" if side == "buyer" else "seller"
    if person.kind not in (wants, "buyer_and_seller"):
        raise RuleViolation(
            f"{person.first_name} {person.last_name} is a {person.kind}, not a {wants}",
            field="side",
            hint=f"use the {'listing' if side == 'buyer' else 'buyer'} side or change the person's kind",
        )
    if prop.status == "sold" or (side == "buyer" and prop.status != "active"):
        raise RuleViolation(
            f"property {prop.mls_number} is {prop.status}", field="property_id", hint="choose a property for sale"
        )
    if price == 0:
        raise RuleViolation("a deal needs a price", field="price", hint="give the offer or list price")
    if commission_percent > MAX_COMMISSION:
        raise RuleViolation(
            f"commission is capped at {MAX_COMMISSION:g} %", field="commission_percent", hint="check the agreement"
        )
    for other in ctx.where(Deal, property_id=prop.id, side=side):
        if other.stage in LIVE_DEAL:
            raise Conflict(
                f"property {prop.mls_number} already has live {side} deal {other.id}",
                field="property_id",
                hint="advance or close that deal first",
            )
    if person.stage in ("lead", "prospect"):
        ctx.update(person, stage="active_client")
    return ctx.create(
        Deal,
        person_id=person.id,
        property_id=prop.id,
        agent_id=agent_id,
        side=side,
        price=price,
        commission_percent=commission_percent,
        close_date=close_date,
    )


_NEXT: dict[str, tuple[str, ...]] = {
    "offer": ("under_contract", "fell_through"),
    "under_contract": ("closed", "fell_through"),
}


@service.tool(
    intent="move the real-estate deal to its next stage",
    write=True,
    example=first_example(Deal, "deal_id", where={"stage": "offer", "side": "buyer"}, stage="fell_through"),
)
def advance_deal(ctx: Ctx, deal_id: DealId, stage: Literal["under_contract", "closed", "fell_through"]) -> Deal:
    """Move a deal forward: offer → under_contract → closed, or to fell_through.

    Under contract makes the property pending and the client under contract;
    closing sells the property, earns the commission and closes the client; a
    deal that falls through puts a pending property back on the market.

    Args:
        deal_id: The deal.
        stage: The next stage.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    allowed = _NEXT.get(deal.stage, ())
    if stage not in allowed:
        raise RuleViolation(
            f"deal {deal.id} is {deal.stage} and cannot move to {stage}",
            field="stage",
            hint=f"next stages: {', '.join(allowed) or 'none (final)'}",
        )
    prop = ctx.get(Property, deal.property_id)
    person = ctx.get(Person, deal.person_id)
    if stage == "under_contract":
        if prop.status != "active":
            raise RuleViolation(
                f"property {prop.mls_number} is already {prop.status}",
                field="deal_id",
                hint="let this deal fall through",
            )
        ctx.update(prop, status="pending")
        ctx.update(person, stage="under_contract")
        return ctx.update(deal, stage=stage)
    if stage == "closed":
        ctx.update(prop, status="sold")
        ctx.update(person, stage="closed")
        commission = int(deal.price * deal.commission_percent / 100)
        return ctx.update(deal, stage=stage, commission=commission, close_date=ctx.today())
    if deal.stage == "under_contract":
        ctx.update(prop, status="active")
        ctx.update(person, stage="active_client")
    return ctx.update(deal, stage=stage)


def _showing_example(ctx: Ctx) -> dict[str, Any] | None:
    agent = ctx.first(Agent, active=True, role="agent")
    person = ctx.first(Person, kind="buyer", stage="active_client")
    prop = ctx.first(Property, status="active")
    if agent is None or person is None or prop is None:
        return None
    start = dt.datetime.combine(ctx.today() + dt.timedelta(days=20), dt.time(15), tzinfo=dt.UTC)
    return {"person_id": person.id, "property_id": prop.id, "agent_id": agent.id, "starts_at": start.isoformat()}


@service.tool(intent="schedule a property showing", write=True, example=_showing_example)
def schedule_showing(
    ctx: Ctx, person_id: PersonId, property_id: PropertyId, agent_id: AgentId, starts_at: DateTime, minutes: int = 30
) -> Appointment:
    """Book a showing of a property for a client with an agent.

    The property must be for sale, the slot in the future, and the agent free
    for its length.

    Args:
        person_id: The client.
        property_id: The property.
        agent_id: The agent showing it.
        starts_at: Start of the showing.
        minutes: Length, 15 to 180 minutes.
    """
    person = _client(ctx, person_id)
    prop = ctx.get(Property, property_id, field="property_id")
    agent = _agent(ctx, agent_id)
    if prop.status != "active":
        raise RuleViolation(
            f"property {prop.mls_number} is {prop.status}", field="property_id", hint="show a property for sale"
        )
    if starts_at <= ctx.now():
        raise RuleViolation("a showing must be in the future", field="starts_at", hint="pick a later time")
    if not 15 <= minutes <= 180:
        raise RuleViolation("a showing lasts 15 to 180 minutes", field="minutes", hint="give a length in that range")
    ends_at = starts_at + dt.timedelta(minutes=minutes)
    for other in ctx.where(Appointment, agent_id=agent.id, outcome="scheduled"):
        if other.starts_at < ends_at and other.ends_at > starts_at:
            raise Conflict(
                f"{agent.first_name} {agent.last_name} has {other.title!r} from {other.starts_at} to {other.ends_at}",
                field="starts_at",
                hint="pick another time or another agent",
            )
    return ctx.create(
        Appointment,
        person_id=person.id,
        agent_id=agent.id,
        property_id=prop.id,
        title=f"Showing: {prop.address.street}",
        starts_at=starts_at,
        ends_at=ends_at,
    )


class Applied(BaseModel):
    """An action plan applied to a person, with the tasks it created."""

    enrollment: Enrollment = Field(description="The plan's run for the person.")
    tasks: list[Task] = Field(description="The tasks created, in step order.")


def _apply_example(ctx: Ctx) -> dict[str, Any] | None:
    for plan in ctx.where(ActionPlan, active=True):
        for person in ctx.scan(Person):
            if (
                person.stage != "trash"
                and person.assigned_agent_id
                and not ctx.where(Enrollment, plan_id=plan.id, person_id=person.id, status="running")
            ):
                return {"person_id": person.id, "plan_id": plan.id}
    return None


@service.tool(intent="start an action plan for the person", write=True, example=_apply_example)
def apply_action_plan(ctx: Ctx, person_id: PersonId, plan_id: PlanId) -> Applied:
    """Apply an action plan to a person: its tasks are created for the person's agent.

    Args:
        person_id: The person (not trashed, with an assigned agent).
        plan_id: The active plan.
    """
    person = _client(ctx, person_id)
    plan = ctx.get(ActionPlan, plan_id, field="plan_id")
    if not plan.active:
        raise RuleViolation(f"action plan {plan.name!r} is inactive", field="plan_id", hint="choose an active plan")
    if person.assigned_agent_id is None:
        raise RuleViolation(
            f"{person.first_name} {person.last_name} has no assigned agent",
            field="person_id",
            hint="assign an agent with realtycrm__update_person first",
        )
    if ctx.where(Enrollment, plan_id=plan.id, person_id=person.id, status="running"):
        raise Conflict(
            f"{plan.name!r} is already running for {person.first_name} {person.last_name}",
            field="plan_id",
            hint="pause it before applying it again",
        )
    run = ctx.create(Enrollment, plan_id=plan.id, person_id=person.id)
    today = ctx.today()
    made = [
        ctx.create(
            Task,
            person_id=person.id,
            agent_id=person.assigned_agent_id,
            type=step.type,
            title=step.title,
            due_date=today + dt.timedelta(days=step.day),
            enrollment_id=run.id,
        )
        for step in plan.steps
    ]
    return Applied(enrollment=run, tasks=made)


# -- seed -------------------------------------------------------------------------------------

_PLANS = (
    (
        "New buyer lead — 7 day",
        (
            (0, "call", "Call new lead within 5 minutes"),
            (0, "text", "Text intro and ask about timeline"),
            (2, "email", "Send matching listings"),
            (7, "call", "Check in on pre-approval"),
        ),
    ),
    (
        "Seller listing prep",
        (
            (0, "call", "Schedule listing appointment"),
            (3, "follow_up", "Send comparative market analysis"),
            (10, "showing", "Walk-through for staging"),
        ),
    ),
    ("Past client nurture", ((30, "email", "Home anniversary note"), (90, "call", "Annual check-in"))),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The brokerage's agents, buyers and sellers from the population, listings, deals, showings, plans, tasks."""
    pop = s.population
    sales = pop.staff("Sales", fallback=0)
    team = [*sales, *(p for p in pop.employees if p.key not in {q.key for q in sales})]
    agents = [
        s.create(
            Agent,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            role="broker" if k == 0 else "isa" if k == 1 else "agent",
            active=k != 5,
        )
        for k, p in enumerate(team[:6])
    ]
    working = [a for a in agents if a.active and a.role == "agent"] or agents
    stages: tuple[Stage, ...] = ("lead", "prospect", "active_client", "active_client", "past_client", "trash")
    people: list[Person] = []
    for k, p in enumerate(pop.consumers[:18]):
        kind = "seller" if k % 4 == 3 else "buyer_and_seller" if k % 9 == 8 else "buyer"
        people.append(
            s.create(
                Person,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                kind=kind,
                stage=stages[k % len(stages)],
                assigned_agent_id=working[k % len(working)].id if k % 5 else None,
                source=("website", "zillow", "realtor_com", "referral", "open_house", "sign_call")[k % 6],
                price_min=s.rng.randint(20, 40) * 1_000_000 if kind != "seller" else None,
                price_max=s.rng.randint(45, 90) * 1_000_000 if kind != "seller" else None,
            )
        )
    sellers = [p for p in people if p.kind != "buyer"]
    homes = [pp for pp in pop.consumers[18:30]]
    props: list[Property] = []
    for k, owner in enumerate(homes):
        seller = sellers[k] if k < len(sellers) else None
        props.append(
            s.create(
                Property,
                mls_number=f"ML{4_100_000 + k * 137:07d}",
                address=owner.address,
                list_price=s.rng.randint(25, 95) * 1_000_000,
                bedrooms=s.rng.randint(1, 5),
                bathrooms=float(s.rng.randint(2, 7)) / 2,
                status="sold" if k == 11 else "active",
                seller_id=seller.id if seller else None,
            )
        )
    _seed_activity(s, agents, working, people, props)


def _seed_activity(
    s: SeedContext, agents: list[Agent], working: list[Agent], people: list[Person], props: list[Property]
) -> None:
    buyers = [p for p in people if p.kind == "buyer" and p.stage == "active_client"]
    # One buyer under contract on a pending home, one offer, one closed sale.
    s.create(
        Deal,
        person_id=buyers[0].id,
        property_id=props[0].id,
        agent_id=working[0].id,
        side="buyer",
        price=props[0].list_price,
        commission_percent=2.5,
        stage="offer",
    )
    contract = s.update(props[1], status="pending")
    buyer = s.update(buyers[1], stage="under_contract")
    s.create(
        Deal,
        person_id=buyer.id,
        property_id=contract.id,
        agent_id=working[-1].id,
        side="buyer",
        price=contract.list_price - 500_000,
        commission_percent=3.0,
        stage="under_contract",
        close_date=s.now.date() + dt.timedelta(days=30),
    )
    past = next(p for p in people if p.stage == "past_client")
    s.create(
        Deal,
        person_id=past.id,
        property_id=props[11].id,
        agent_id=working[0].id,
        side="buyer",
        price=props[11].list_price,
        commission_percent=2.5,
        commission=props[11].list_price * 25 // 1000,
        stage="closed",
        close_date=s.now.date() - dt.timedelta(days=200),
    )
    start = dt.datetime.combine(s.now.date() + dt.timedelta(days=2), dt.time(16), tzinfo=dt.UTC)
    s.create(
        Appointment,
        person_id=buyers[0].id,
        agent_id=working[0].id,
        property_id=props[2].id,
        title=f"Showing: {props[2].address.street}",
        starts_at=start,
        ends_at=start + dt.timedelta(minutes=45),
    )
    plans = [
        s.create(ActionPlan, name=name, steps=[PlanStep(day=d, type=t, title=title) for d, t, title in steps])
        for name, steps in _PLANS
    ]
    lead = next(p for p in people if p.stage == "lead" and p.assigned_agent_id)
    run = s.create(Enrollment, plan_id=plans[0].id, person_id=lead.id)
    for k, step in enumerate(plans[0].steps):
        s.create(
            Task,
            person_id=lead.id,
            agent_id=lead.assigned_agent_id,
            type=step.type,
            title=step.title,
            due_date=s.now.date() + dt.timedelta(days=step.day - 1),
            completed=k == 0,
            enrollment_id=run.id,
        )
