"""Haulwise: a moving company's leads, in-home surveys with inventories, estimates, booked jobs and claims.

Modeled on the SmartMoving API: leads (customer, move date, origin and
destination, move size, referral source) that go new → contacted →
survey_scheduled → estimated → booked or lost; in-home or virtual surveys
with an inventory of items and their cubic feet; estimates (binding,
non-binding, hourly) priced from the inventory's volume and weight (7 lb per
cubic foot), crew size and hours, that go draft → sent → accepted or
declined; accepting books a job (booked → dispatched → completed, or
cancelled) to which crew members and trucks are assigned; and damage claims
filed within 60 days of a completed move, capped by its valuation (released
value at $0.60 per pound, or full value protection), that go submitted →
approved or denied. A truck serves one job a day and the trucks' capacity
must hold the job's volume; a job is dispatched on its day with a crew of at
least the estimate's size. Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "moving",
    title="Haulwise",
    category="moving_services",
    modeled_on="SmartMoving API: leads/opportunities, surveys with inventory, estimates (binding, non-binding, "
    "hourly), jobs with crews and trucks, valuation and claims",
    description="A moving company's office: incoming leads and their move details, in-home and virtual surveys "
    "that build an inventory, estimates priced by volume, weight, crew and hours, booked jobs with crews and "
    "trucks assigned and dispatched on move day, and damage claims against the move's valuation.",
)

LeadId = Annotated[str, IdOf("moving.lead")]
SurveyId = Annotated[str, IdOf("moving.survey")]
EstimateId = Annotated[str, IdOf("moving.estimate")]
TruckId = Annotated[str, IdOf("moving.truck")]
JobId = Annotated[str, IdOf("moving.job")]
ClaimId = Annotated[str, IdOf("moving.claim")]

MoveSize = Literal["studio", "1_bedroom", "2_bedroom", "3_bedroom", "4_bedroom_plus", "office"]
LeadStatus = Literal["new", "contacted", "survey_scheduled", "estimated", "booked", "lost"]
LB_PER_CUFT = 7
HOURLY_PER_MOVER = 6500
RELEASED_PER_LB = 60
CLAIM_DAYS = 60


class Item(Value):
    """An inventory line."""

    name: Annotated[str, Field(min_length=1, max_length=80)]
    """e.g. Sofa, 3-seat."""
    quantity: Annotated[int, Field(ge=1, le=200)]
    """How many."""
    cubic_feet: Annotated[float, Field(gt=0, le=500)]
    """Volume of one."""


class Lead(Record):
    """A prospective move."""

    id: LeadId
    customer_name: PersonName = Field(description="The customer.")
    email: Email = Field(description="Their e-mail.")
    phone: Phone | None = Field(None, description="Their phone.")
    move_date: Date = Field(description="Requested move day.")
    origin_city: City = Field(description="Moving from.")
    destination_city: City = Field(description="Moving to.")
    move_size: MoveSize = Field(description="Home size.")
    source: Literal["website", "referral", "yelp", "google", "repeat"] = Field("website", description="Lead source.")
    sales_rep_email: Email | None = Field(None, description="The salesperson.")
    status: LeadStatus = Field("new", description="new, contacted, survey_scheduled, estimated, booked or lost.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it came in.")


class Survey(Record):
    """An in-home or virtual walkthrough."""

    id: SurveyId
    lead_id: LeadId = Field(description="The lead.")
    kind: Literal["in_home", "virtual"] = Field(description="in_home or virtual.")
    surveyor_email: Email = Field(description="The estimator.")
    scheduled_at: DateTime = Field(description="When.")
    inventory: tuple[Item, ...] = Field((), description="Items found.")
    total_cubic_feet: float = Field(0, description="Inventory volume.")
    status: Literal["scheduled", "completed", "cancelled"] = Field("scheduled", description="Its state.")


class Estimate(Record):
    """A priced quote."""

    id: EstimateId
    lead_id: LeadId = Field(description="The lead.")
    kind: Literal["binding", "non_binding", "hourly"] = Field(description="binding, non_binding or hourly.")
    cubic_feet: float = Field(description="Volume.")
    weight_lbs: int = Field(description="Estimated weight.")
    crew_size: Annotated[int, Field(ge=2, le=8)] = Field(description="Movers.")
    trucks: Annotated[int, Field(ge=1, le=4)] = Field(description="Trucks.")
    hours: Annotated[float, Field(gt=0, le=24)] = Field(description="Estimated hours.")
    materials: Cents = Field(0, description="Boxes and wrap.")
    valuation: Literal["released", "full_value"] = Field("released", description="Liability coverage.")
    declared_value: Cents = Field(0, description="Declared value for full value protection.")
    total: Cents = Field(description="Quoted total.")
    status: Literal["draft", "sent", "accepted", "declined"] = Field("draft", description="Its state.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was made.")


class Truck(Record):
    """A truck in the fleet."""

    id: TruckId
    name: Title = Field(description="e.g. Truck 12 (26 ft).")
    capacity_cubic_feet: Annotated[int, Field(ge=200, le=3000)] = Field(description="Cargo volume.")
    status: Literal["available", "maintenance"] = Field("available", description="available or maintenance.")


class Job(Record):
    """A booked move."""

    id: JobId
    lead_id: LeadId = Field(description="The lead.")
    estimate_id: EstimateId = Field(description="The accepted estimate.")
    customer_name: PersonName = Field(description="The customer.")
    customer_email: Email = Field(description="The customer's e-mail.")
    move_date: Date = Field(description="Move day.")
    crew_emails: tuple[Email, ...] = Field((), description="Movers assigned (staff).")
    truck_ids: tuple[TruckId, ...] = Field((), description="Trucks assigned.")
    status: Literal["booked", "dispatched", "completed", "cancelled"] = Field("booked", description="Its state.")
    final_amount: Cents = Field(0, description="What was billed at completion.")
    completed_on: Date | None = Field(None, description="When it was completed.")


class Claim(Record):
    """A damage or loss claim."""

    id: ClaimId
    job_id: JobId = Field(description="The move.")
    item: Title = Field(description="What was damaged or lost.")
    weight_lbs: Annotated[int, Field(ge=1, le=2000)] = Field(description="The item's weight.")
    amount_claimed: Cents = Field(description="Amount claimed.")
    amount_approved: Cents = Field(0, description="Amount approved.")
    description: Text = Field("", description="What happened.")
    status: Literal["submitted", "approved", "denied"] = Field("submitted", description="Its state.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was filed.")


class _Quote(Value):
    cubic_feet: float
    weight_lbs: int
    total: int


# -- rules ------------------------------------------------------------------------------------


leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="lead",
    create=("customer_name", "email", "phone", "move_date", "origin_city", "destination_city", "move_size", "source"),
    filters=("status", "email", "move_size", "sales_rep_email", "move_date"),
    search=("customer_name", "email"),
    update=("phone", "move_date", "move_size", "sales_rep_email"),
    delete=False,
    transitions={
        "contact": Transition("status", ("new",), "contacted", "mark the lead contacted"),
        "lose": Transition(
            "status",
            ("new", "contacted", "survey_scheduled", "estimated"),
            "lost",
            "mark the lead lost",
            destructive=True,
        ),
    },
)
surveys = service.resource(
    Survey,
    name="survey",
    plural="surveys",
    prefix="srv",
    create=False,
    filters=("lead_id", "status", "surveyor_email"),
    delete=False,
)
estimates = service.resource(
    Estimate,
    name="estimate",
    plural="estimates",
    prefix="est",
    create=False,
    filters=("lead_id", "status", "kind"),
    delete=False,
    transitions={
        "send": Transition("status", ("draft",), "sent", "send the estimate to the customer"),
        "decline": Transition("status", ("sent",), "declined", "record that the customer declined"),
    },
)
trucks = service.resource(
    Truck,
    name="truck",
    plural="trucks",
    prefix="trk",
    create=False,
    filters=("status",),
    search=("name",),
    delete=False,
    transitions={
        "service": Transition("status", ("available",), "maintenance", "send the truck to maintenance"),
        "return": Transition("status", ("maintenance",), "available", "return the truck to service"),
    },
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    filters=("status", "move_date", "customer_email", "lead_id"),
    search=("customer_name",),
    delete=False,
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("job_id", "status"),
    search=("item", "description"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _lead(ctx: Ctx, lead_id: str, *states: str) -> Lead:
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status not in states:
        raise RuleViolation(f"the lead is {lead.status}", field="lead_id", hint=f"only {' or '.join(states)} leads")
    return lead


def _example_survey(ctx: Ctx) -> dict[str, Any] | None:
    lead = ctx.first(Lead, status="contacted")
    return (
        None
        if lead is None
        else {
            "lead_id": lead.id,
            "kind": "virtual",
            "surveyor_email": ctx.population.employees[0].email,
            "scheduled_at": utc_at(ctx.today() + dt.timedelta(days=2), 15).isoformat(),
        }
    )


@service.tool(intent="schedule the moving survey", write=True, example=_example_survey)
def schedule_survey(
    ctx: Ctx, lead_id: LeadId, kind: Literal["in_home", "virtual"], surveyor_email: Email, scheduled_at: DateTime
) -> Survey:
    """Book an in-home or virtual survey for a new or contacted lead, before the move day.

    Args:
        lead_id: The lead.
        kind: in_home or virtual.
        surveyor_email: The estimator (staff).
        scheduled_at: When (ahead, before the move day).
    """
    lead = _lead(ctx, lead_id, "new", "contacted")
    require_employee(ctx, surveyor_email, field="surveyor_email", hint="surveys are done by our estimators")
    if scheduled_at <= ctx.now() or scheduled_at.date() >= lead.move_date:
        raise RuleViolation(
            "the survey must be ahead and before the move",
            field="scheduled_at",
            hint=f"pick a time before {lead.move_date}",
        )
    ctx.update(lead, status="survey_scheduled")
    return ctx.create(Survey, lead_id=lead.id, kind=kind, surveyor_email=surveyor_email, scheduled_at=scheduled_at)


@service.tool(
    intent="record the survey's inventory",
    write=True,
    example=first_example(
        Survey,
        "survey_id",
        where={"status": "scheduled"},
        inventory=[
            {"name": "Sofa, 3-seat", "quantity": 1, "cubic_feet": 50},
            {"name": "Medium box", "quantity": 20, "cubic_feet": 3},
        ],
    ),
)
def complete_survey(ctx: Ctx, survey_id: SurveyId, inventory: tuple[Item, ...]) -> Survey:
    """Complete a scheduled survey with the inventory found; its volume feeds the estimate.

    Args:
        survey_id: The survey.
        inventory: The items (at least one).
    """
    sv = ctx.get(Survey, survey_id, field="survey_id")
    if sv.status != "scheduled":
        raise RuleViolation(f"the survey is {sv.status}", field="survey_id", hint="only scheduled surveys")
    if not inventory:
        raise RuleViolation("the inventory is empty", field="inventory", hint="list what is moving")
    total = round(sum(i.quantity * i.cubic_feet for i in inventory), 1)
    return ctx.update(sv, status="completed", inventory=inventory, total_cubic_feet=total)


def _price(kind: str, cuft: float, crew: int, trucks_: int, hours: float, materials: int) -> _Quote:
    weight = round(cuft * LB_PER_CUFT)
    labour = round(crew * hours * HOURLY_PER_MOVER)
    truck_fee = 15000 * trucks_
    base = labour + truck_fee + materials
    total = base if kind == "hourly" else round(base * (1.1 if kind == "binding" else 1.0))
    return _Quote(cubic_feet=cuft, weight_lbs=weight, total=total)


def _example_estimate(ctx: Ctx) -> dict[str, Any] | None:
    for sv in ctx.where(Survey, status="completed"):
        if ctx.get(Lead, sv.lead_id).status in ("survey_scheduled", "estimated"):
            return {"lead_id": sv.lead_id, "kind": "binding", "crew_size": 3, "trucks": 1, "hours": 6}
    return None


@service.tool(intent="prepare the moving estimate", write=True, example=_example_estimate)
def create_estimate(
    ctx: Ctx,
    lead_id: LeadId,
    kind: Literal["binding", "non_binding", "hourly"],
    crew_size: Annotated[int, Field(ge=2, le=8)],
    trucks: Annotated[int, Field(ge=1, le=4)],
    hours: Annotated[float, Field(gt=0, le=24)],
    materials: Cents = 0,
    valuation: Literal["released", "full_value"] = "released",
    declared_value: Cents = 0,
) -> Estimate:
    """Price a draft estimate from the lead's completed survey: crew hours, trucks, materials (binding +10%).

    Args:
        lead_id: The lead (with a completed survey).
        kind: binding, non_binding or hourly.
        crew_size: Movers.
        trucks: Trucks.
        hours: Estimated hours.
        materials: Boxes and wrap.
        valuation: released ($0.60/lb) or full_value (needs a declared value).
        declared_value: Declared value of the shipment for full value protection.
    """
    lead = _lead(ctx, lead_id, "survey_scheduled", "estimated")
    done = [s for s in ctx.where(Survey, lead_id=lead.id) if s.status == "completed"]
    if not done:
        raise RuleViolation("no completed survey", field="lead_id", hint="complete the survey's inventory first")
    if valuation == "full_value" and declared_value <= 0:
        raise RuleViolation(
            "full value protection needs a declared value", field="declared_value", hint="declare the shipment's value"
        )
    q = _price(kind, done[-1].total_cubic_feet, crew_size, trucks, hours, materials)
    ctx.update(lead, status="estimated")
    return ctx.create(
        Estimate,
        lead_id=lead.id,
        kind=kind,
        cubic_feet=q.cubic_feet,
        weight_lbs=q.weight_lbs,
        crew_size=crew_size,
        trucks=trucks,
        hours=hours,
        materials=materials,
        valuation=valuation,
        declared_value=declared_value if valuation == "full_value" else 0,
        total=q.total,
    )


@service.tool(
    intent="book the move from the accepted estimate",
    write=True,
    example=first_example(Estimate, "estimate_id", where={"status": "sent"}),
)
def accept_estimate(ctx: Ctx, estimate_id: EstimateId) -> Job:
    """Record the customer's acceptance of a sent estimate: the lead is booked and a job created for the move day.

    Args:
        estimate_id: The estimate (sent).
    """
    est = ctx.get(Estimate, estimate_id, field="estimate_id")
    if est.status != "sent":
        raise RuleViolation(f"the estimate is {est.status}", field="estimate_id", hint="send it first")
    lead = _lead(ctx, est.lead_id, "estimated")
    if lead.move_date < ctx.today():
        raise RuleViolation("the move day has passed", field="estimate_id", hint="update the lead's move date")
    for other in ctx.where(Estimate, lead_id=lead.id, status="sent"):
        if other.id != est.id:
            ctx.update(other, status="declined")
    ctx.update(est, status="accepted")
    ctx.update(lead, status="booked")
    return ctx.create(
        Job,
        lead_id=lead.id,
        estimate_id=est.id,
        customer_name=lead.customer_name,
        customer_email=lead.email,
        move_date=lead.move_date,
    )


def _job(ctx: Ctx, job_id: str, *states: str) -> Job:
    job = ctx.get(Job, job_id, field="job_id")
    if job.status not in states:
        raise RuleViolation(f"the job is {job.status}", field="job_id", hint=f"only {' or '.join(states)} jobs")
    return job


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    job = ctx.first(Job, status="booked")
    if job is None:
        return None
    est = ctx.get(Estimate, job.estimate_id)
    busy = {t for j in ctx.where(Job, move_date=job.move_date) if j.id != job.id for t in j.truck_ids}
    free = [t for t in ctx.where(Truck, status="available") if t.id not in busy]
    free.sort(key=lambda t: -t.capacity_cubic_feet)
    crew = [p.email for p in ctx.population.employees[: est.crew_size]]
    return {"job_id": job.id, "crew_emails": crew, "truck_ids": [t.id for t in free[: est.trucks]]}


@service.tool(intent="assign the crew and trucks to the move", write=True, example=_example_assign)
def assign_crew(ctx: Ctx, job_id: JobId, crew_emails: tuple[Email, ...], truck_ids: tuple[TruckId, ...]) -> Job:
    """Assign movers and trucks to a booked job: trucks in service, free that day, holding the volume.

    Args:
        job_id: The job (booked).
        crew_emails: The movers (staff, at least the estimate's crew size, each once).
        truck_ids: The trucks (each once).
    """
    job = _job(ctx, job_id, "booked")
    est = ctx.get(Estimate, job.estimate_id)
    if len(set(crew_emails)) != len(crew_emails) or len(crew_emails) < est.crew_size:
        raise RuleViolation(
            f"the move needs {est.crew_size} distinct movers",
            field="crew_emails",
            hint="assign the estimate's crew size",
        )
    for e in crew_emails:
        require_employee(ctx, e, field="crew_emails", hint="crews are our movers")
    if not truck_ids or len(set(truck_ids)) != len(truck_ids):
        raise RuleViolation("list each truck once", field="truck_ids", hint="assign one or more trucks")
    busy = {
        t
        for j in ctx.where(Job, move_date=job.move_date)
        if j.id != job.id and j.status != "cancelled"
        for t in j.truck_ids
    }
    room = 0
    for tid in truck_ids:
        t = ctx.get(Truck, tid, field="truck_ids")
        if t.status != "available" or t.id in busy:
            raise Conflict(f"{t.name} is not free on {job.move_date}", field="truck_ids", hint="pick another truck")
        room += t.capacity_cubic_feet
    if room < est.cubic_feet:
        raise RuleViolation(f"{room} cu ft cannot hold {est.cubic_feet}", field="truck_ids", hint="add a truck")
    return ctx.update(job, crew_emails=crew_emails, truck_ids=truck_ids)


@service.tool(
    intent="dispatch the crew",
    write=True,
    example=first_example(
        Job, "job_id", where={"status": "booked"}, match=lambda c, j: j.move_date == c.today() and bool(j.truck_ids)
    ),
)
def dispatch_job(ctx: Ctx, job_id: JobId) -> Job:
    """Send out a booked job's crew on the move day; it needs its crew and trucks assigned.

    Args:
        job_id: The job.
    """
    job = _job(ctx, job_id, "booked")
    if not job.crew_emails or not job.truck_ids:
        raise RuleViolation("no crew or trucks assigned", field="job_id", hint="assign them with moving__assign_crew")
    if job.move_date != ctx.today():
        raise RuleViolation(f"the move is on {job.move_date}", field="job_id", hint="dispatch on the move day")
    return ctx.update(job, status="dispatched")


@service.tool(
    intent="complete the move",
    write=True,
    example=first_example(Job, "job_id", where={"status": "dispatched"}, actual_hours=7.5),
)
def complete_job(ctx: Ctx, job_id: JobId, actual_hours: Annotated[float, Field(gt=0, le=24)]) -> Job:
    """Complete a dispatched move: binding estimates bill the quote, others the hours actually worked.

    Args:
        job_id: The job.
        actual_hours: Hours worked.
    """
    job = _job(ctx, job_id, "dispatched")
    est = ctx.get(Estimate, job.estimate_id)
    final = (
        est.total
        if est.kind == "binding"
        else _price(est.kind, est.cubic_feet, est.crew_size, est.trucks, actual_hours, est.materials).total
    )
    return ctx.update(job, status="completed", final_amount=final, completed_on=ctx.today())


@service.tool(
    intent="cancel the move",
    write=True,
    destructive=True,
    example=first_example(Job, "job_id", where={"status": "booked"}),
)
def cancel_job(ctx: Ctx, job_id: JobId) -> Job:
    """Cancel a booked job; its trucks and crew are released.

    Args:
        job_id: The job.
    """
    return ctx.update(_job(ctx, job_id, "booked"), status="cancelled", truck_ids=(), crew_emails=())


@service.tool(
    intent="file the damage claim",
    write=True,
    example=first_example(
        Job, "job_id", where={"status": "completed"}, item="Dining table", weight_lbs=80, amount_claimed=3000
    ),
)
def file_claim(
    ctx: Ctx,
    job_id: JobId,
    item: Title,
    weight_lbs: Annotated[int, Field(ge=1, le=2000)],
    amount_claimed: Cents,
    description: Text = "",
) -> Claim:
    """File a damage or loss claim on a completed move, within 60 days of it.

    Args:
        job_id: The move (completed).
        item: What was damaged or lost.
        weight_lbs: The item's weight.
        amount_claimed: Amount claimed (above zero).
        description: What happened.
    """
    job = _job(ctx, job_id, "completed")
    if job.completed_on is not None and (ctx.today() - job.completed_on).days > CLAIM_DAYS:
        raise RuleViolation(f"claims are filed within {CLAIM_DAYS} days", field="job_id", hint="the window closed")
    if amount_claimed <= 0:
        raise RuleViolation("claim an amount above zero", field="amount_claimed", hint="say what it is worth")
    return ctx.create(
        Claim, job_id=job.id, item=item, weight_lbs=weight_lbs, amount_claimed=amount_claimed, description=description
    )


@service.tool(
    intent="settle the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "submitted"}, approve=True),
)
def decide_claim(ctx: Ctx, claim_id: ClaimId, approve: bool) -> Claim:
    """Approve or deny a submitted claim; approval pays up to the valuation's cap.

    Released value pays $0.60 per pound of the item; full value protection pays the claim up to the declared value.

    Args:
        claim_id: The claim.
        approve: True to approve, False to deny.
    """
    c = ctx.get(Claim, claim_id, field="claim_id")
    if c.status != "submitted":
        raise RuleViolation(f"the claim is {c.status}", field="claim_id", hint="only submitted claims")
    if not approve:
        return ctx.update(c, status="denied")
    est = ctx.get(Estimate, ctx.get(Job, c.job_id).estimate_id)
    paid_before = sum(x.amount_approved for x in ctx.where(Claim, job_id=c.job_id, status="approved"))
    cap = c.weight_lbs * RELEASED_PER_LB if est.valuation == "released" else est.declared_value - paid_before
    return ctx.update(c, status="approved", amount_approved=max(0, min(c.amount_claimed, cap)))


# -- seed -------------------------------------------------------------------------------------

INVENTORY: tuple[Item, ...] = (
    Item(name="Sofa, 3-seat", quantity=1, cubic_feet=50),
    Item(name="Queen bed", quantity=1, cubic_feet=65),
    Item(name="Dresser", quantity=2, cubic_feet=30),
    Item(name="Dining table", quantity=1, cubic_feet=30),
    Item(name="Medium box", quantity=40, cubic_feet=3),
    Item(name="Washer", quantity=1, cubic_feet=25),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Trucks, leads from consumers in every status with surveys, estimates, jobs in every state and claims."""
    pop = s.population
    reps = pop.staff("Sales", fallback=2)
    crew = pop.staff("Operations", fallback=4)
    fleet = [
        s.create(
            Truck,
            name=f"Truck {10 + k} ({ft} ft)",
            capacity_cubic_feet=cap,
            status="maintenance" if k == 3 else "available",
        )
        for k, (ft, cap) in enumerate(((26, 1700), (26, 1700), (20, 1000), (16, 800), (20, 1000)))
    ]
    today = s.now.date()
    cities = [p.city for p in pop.places] or [pop.home.place.city]
    plan: tuple[tuple[LeadStatus, int, str], ...] = (
        ("new", 40, ""),
        ("contacted", 30, ""),
        ("survey_scheduled", 25, "scheduled"),
        ("estimated", 21, "draft"),
        ("estimated", 20, "sent"),
        ("booked", 0, "booked"),
        ("booked", 6, "booked"),
        ("booked", -3, "done"),
        ("booked", -1, "dispatched"),
        ("lost", 12, ""),
    )
    for k, (status, days, stage) in enumerate(plan):
        p = pop.consumers[k + 20 if len(pop.consumers) > 30 else k]
        move = today + dt.timedelta(days=days)
        lead = s.create(
            Lead,
            customer_name=p.name,
            email=p.email,
            phone=p.phone,
            move_date=move,
            origin_city=p.place.city,
            destination_city=cities[(k + 1) % len(cities)],
            move_size=("studio", "1_bedroom", "2_bedroom", "3_bedroom")[k % 4],
            source=("website", "referral", "yelp", "google")[k % 4],
            sales_rep_email=reps[k % len(reps)].email,
            status=status,
            created_at=s.ago(days=30 - k),
        )
        if not stage:
            continue
        done = stage != "scheduled"
        inv = INVENTORY[: 3 + k % 4] if done else ()
        cuft = round(sum(i.quantity * i.cubic_feet for i in inv), 1)
        s.create(
            Survey,
            lead_id=lead.id,
            kind="in_home" if k % 2 else "virtual",
            surveyor_email=reps[0].email,
            scheduled_at=s.ago(days=5) if done else utc_at(today + dt.timedelta(days=3), 10),
            inventory=inv,
            total_cubic_feet=cuft,
            status="completed" if done else "scheduled",
        )
        if stage in ("scheduled", "completed"):
            continue
        kind: Any = ("binding", "non_binding", "hourly")[k % 3]
        q = _price(kind, cuft, 3, 1, 6, 8000)
        est = s.create(
            Estimate,
            lead_id=lead.id,
            kind=kind,
            cubic_feet=cuft,
            weight_lbs=q.weight_lbs,
            crew_size=3,
            trucks=1,
            hours=6,
            materials=8000,
            valuation="full_value" if k == 7 else "released",
            declared_value=2_000_000 if k == 7 else 0,
            total=q.total,
            status=stage if stage in ("sent", "draft") else "accepted",
            created_at=s.ago(days=4),
        )
        if stage in ("sent", "draft"):
            continue
        state: Any = "completed" if stage == "done" else "dispatched" if days < 0 else "booked"
        assigned = days <= 0 or k == 6
        s.create(
            Job,
            lead_id=lead.id,
            estimate_id=est.id,
            customer_name=p.name,
            customer_email=p.email,
            move_date=move,
            crew_emails=tuple(c.email for c in crew[:3]) if assigned else (),
            truck_ids=(fleet[k % 3].id,) if assigned else (),
            status=state,
            final_amount=q.total if state == "completed" else 0,
            completed_on=move if state == "completed" else None,
        )
    done_job = next(j for j in s.records(Job) if j.status == "completed")
    s.create(
        Claim,
        job_id=done_job.id,
        item="Dresser",
        weight_lbs=120,
        amount_claimed=45000,
        description="Drawer front cracked in transit.",
        created_at=s.ago(days=1),
    )
