"""Inspectly: home inspection scheduling, agreements and payments, defect reports and repair request lists.

Modeled on the Spectora inspection software API: inspections at a property
with a client and the buyer's agent, the services ordered (home inspection,
radon, wood-destroying insect, sewer scope, pool) and their fees, an
inspector, an inspection agreement the client signs and payments; the
inspection goes scheduled → confirmed → in_progress → completed → published
(or cancelled). Report items (defects) sit in report sections with a severity
(maintenance, recommendation, safety, major defect), and a repair request
list (Spectora's Repair Request Builder) built by the buyer's agent from the
published report's defects goes draft → sent. An inspector does one job at a
time within 07:00-19:00; a job is confirmed only once the agreement is signed;
it starts on its day; defects are added only while it is in progress or
completed; the report is published only when the agreement is signed and the
fee paid in full. Amounts are cents.
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
from compoworld.engine.types import Cents, City, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "homeinspect",
    title="Inspectly",
    category="home_inspection",
    modeled_on="Spectora API: inspections (services, fees, agreement, payment, status), inspectors, report "
    "sections and defects by severity, repair request lists, payments",
    description="A home inspection company's back office: booking inspections with the services a buyer orders, "
    "assigning inspectors, collecting the signed agreement and the fee, writing up defects by report section "
    "and severity, publishing the report, and the repair request list the buyer's agent builds from it.",
)

InspectorId = Annotated[str, IdOf("homeinspect.inspector")]
InspectionId = Annotated[str, IdOf("homeinspect.inspection")]
DefectId = Annotated[str, IdOf("homeinspect.defect")]
RepairRequestId = Annotated[str, IdOf("homeinspect.repair_request")]
PaymentId = Annotated[str, IdOf("homeinspect.payment")]

Offering = Literal["home_inspection", "radon", "wdi", "sewer_scope", "pool"]
PRICES: dict[str, tuple[int, int]] = {
    "home_inspection": (42500, 180),
    "radon": (15000, 20),
    "wdi": (9500, 30),
    "sewer_scope": (17500, 45),
    "pool": (12500, 40),
}
"""Each service's fee and minutes on site."""
Section = Literal["Roof", "Exterior", "Structure", "Electrical", "Plumbing", "HVAC", "Interior", "Attic"]
Severity = Literal["maintenance", "recommendation", "safety", "major_defect"]
InspStatus = Literal["scheduled", "confirmed", "in_progress", "completed", "published", "cancelled"]
LIVE: tuple[str, ...] = ("scheduled", "confirmed", "in_progress")
DAY_START, DAY_END = 7, 19


class Inspector(Record):
    """An inspector on staff."""

    id: InspectorId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their work e-mail.")
    license_number: Title = Field(description="State license.")
    services: tuple[Offering, ...] = Field(description="Services they are certified for.")


class Inspection(Record):
    """An inspection job."""

    id: InspectionId
    address: Title = Field(description="The property's street address.")
    city: City = Field(description="Its city.")
    square_feet: Annotated[int, Field(ge=200, le=20000)] = Field(description="Living area.")
    client_name: PersonName = Field(description="The client (home buyer).")
    client_email: Email = Field(description="The client's e-mail.")
    agent_email: Email | None = Field(None, description="The buyer's agent.")
    inspector_id: InspectorId = Field(description="Who inspects.")
    services: tuple[Offering, ...] = Field(description="Services ordered.")
    start_at: DateTime = Field(description="When it starts.")
    end_at: DateTime = Field(description="When it ends.")
    fee: Cents = Field(description="Total fee.")
    paid: Cents = Field(0, description="Paid so far.")
    agreement_signed_at: DateTime | None = Field(None, description="When the client signed the agreement.")
    status: InspStatus = Field("scheduled", description="scheduled, confirmed, in_progress, completed, published, ...")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was booked.")


class Defect(Record):
    """A report item."""

    id: DefectId
    inspection_id: InspectionId = Field(description="The inspection.")
    section: Section = Field(description="Report section.")
    title: Title = Field(description="Short title.")
    severity: Severity = Field(description="maintenance, recommendation, safety or major_defect.")
    location: Title | None = Field(None, description="Where in the house.")
    description: Text = Field("", description="What was found and what to do.")
    estimated_cost: Cents = Field(0, description="Rough repair cost.")


class RepairRequest(Record):
    """A repair request list built from a published report."""

    id: RepairRequestId
    inspection_id: InspectionId = Field(description="The inspection.")
    requested_by: Email = Field(description="The agent or client who built it.")
    defect_ids: tuple[DefectId, ...] = Field(description="Defects the seller is asked to fix.")
    credit_requested: Cents = Field(0, description="Credit asked for instead of repairs.")
    status: Literal["draft", "sent"] = Field("draft", description="draft or sent.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was made.")


class Payment(Record):
    """A payment toward an inspection fee."""

    id: PaymentId
    inspection_id: InspectionId = Field(description="The inspection.")
    amount: Cents = Field(description="Amount.")
    method: Literal["card", "ach", "check", "pay_at_close"] = Field(description="How it was paid.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When.")


# -- rules ------------------------------------------------------------------------------------


def _guard_defect(ctx: Ctx, new: Any, old: Any) -> None:
    insp = ctx.get(Inspection, (new or old).inspection_id, field="inspection_id")
    if insp.status not in ("in_progress", "completed"):
        raise RuleViolation(
            f"the inspection is {insp.status}",
            field="inspection_id",
            hint="defects are written while inspecting, before the report is published",
        )


inspectors = service.resource(
    Inspector,
    name="inspector",
    plural="inspectors",
    prefix="ins",
    create=False,
    filters=("email",),
    search=("name",),
    delete=False,
)
inspections = service.resource(
    Inspection,
    name="inspection",
    plural="inspections",
    prefix="job",
    create=False,
    filters=("status", "inspector_id", "client_email", "agent_email", "city"),
    search=("address", "client_name"),
    delete=False,
    transitions={
        "start": Transition("status", ("confirmed",), "in_progress", "start the inspection"),
        "complete": Transition("status", ("in_progress",), "completed", "finish the inspection on site"),
    },
)
defects = service.resource(
    Defect,
    name="defect",
    plural="defects",
    prefix="dfc",
    create=("inspection_id", "section", "title", "severity", "location", "description", "estimated_cost"),
    filters=("inspection_id", "section", "severity"),
    search=("title", "description"),
    update=("title", "severity", "description", "estimated_cost"),
    delete=True,
    guard_create=_guard_defect,
    guard_update=_guard_defect,
    guard_delete=_guard_defect,
)
repair_requests = service.resource(
    RepairRequest,
    name="repair_request",
    plural="repair_requests",
    prefix="rrl",
    create=False,
    filters=("inspection_id", "status", "requested_by"),
    delete=False,
    title="repair request list",
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("inspection_id", "method"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _slot(ctx: Ctx, inspector: Inspector, services: tuple[str, ...], start: dt.datetime, skip: str = "") -> dt.datetime:
    if start <= ctx.now():
        raise RuleViolation("the time has passed", field="start_at", hint="book a time ahead")
    end = start + dt.timedelta(minutes=sum(PRICES[s][1] for s in services))
    if start.hour < DAY_START or end > utc_at(start.date(), DAY_END):
        raise RuleViolation(f"jobs run {DAY_START}:00-{DAY_END}:00", field="start_at", hint="book inside the day")
    for j in ctx.where(Inspection, inspector_id=inspector.id):
        if j.id != skip and j.status in LIVE and j.start_at < end and start < j.end_at:
            raise Conflict(
                f"{inspector.name} is at {j.address} {j.start_at:%H:%M}-{j.end_at:%H:%M}",
                field="start_at",
                hint="pick another time or inspector",
            )
    return end


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    who = ctx.first(Inspector)
    buyer = ctx.population.consumers[0]
    start = utc_at(ctx.today() + dt.timedelta(days=50), 9)
    return (
        None
        if who is None
        else {
            "address": "48 Birch Way",
            "city": ctx.population.home.place.city,
            "square_feet": 2100,
            "client_name": buyer.name,
            "client_email": buyer.email,
            "inspector_id": who.id,
            "services": ["home_inspection"],
            "start_at": start.isoformat(),
        }
    )


@service.tool(intent="schedule the inspection", write=True, example=_example_schedule)
def schedule_inspection(
    ctx: Ctx,
    address: Title,
    city: City,
    square_feet: Annotated[int, Field(ge=200, le=20000)],
    client_name: PersonName,
    client_email: Email,
    inspector_id: InspectorId,
    services: tuple[Offering, ...],
    start_at: DateTime,
    agent_email: Email | None = None,
) -> Inspection:
    """Book an inspection with a certified, free inspector; the fee adds $50 per 1,000 sq ft above 3,000.

    Args:
        address: The property's street address.
        city: Its city.
        square_feet: Living area.
        client_name: The client (home buyer).
        client_email: The client's e-mail.
        inspector_id: The inspector (certified for every service ordered).
        services: home_inspection, radon, wdi, sewer_scope, pool (each once).
        start_at: When (ahead, inside 07:00-19:00 with time for every service).
        agent_email: The buyer's agent.
    """
    who = ctx.get(Inspector, inspector_id, field="inspector_id")
    if not services or len(set(services)) != len(services):
        raise RuleViolation("order each service once", field="services", hint="list the services wanted")
    missing = [s for s in services if s not in who.services]
    if missing:
        raise RuleViolation(
            f"{who.name} is not certified for {', '.join(missing)}",
            field="inspector_id",
            hint="pick a certified inspector",
        )
    end = _slot(ctx, who, services, start_at)
    fee = sum(PRICES[s][0] for s in services) + 5000 * max(0, -(-(square_feet - 3000) // 1000))
    return ctx.create(
        Inspection,
        address=address,
        city=city,
        square_feet=square_feet,
        client_name=client_name,
        client_email=client_email,
        agent_email=agent_email,
        inspector_id=who.id,
        services=services,
        start_at=start_at,
        end_at=end,
        fee=fee,
    )


def _job(ctx: Ctx, inspection_id: str, *states: str) -> Inspection:
    j = ctx.get(Inspection, inspection_id, field="inspection_id")
    if j.status not in states:
        raise RuleViolation(f"the inspection is {j.status}", field="inspection_id", hint=f"only {' or '.join(states)}")
    return j


@service.tool(
    intent="reschedule the inspection",
    write=True,
    example=first_example(Inspection, "inspection_id", where={"status": "scheduled"}, start_at="2099-03-03T08:00:00Z"),
)
def reschedule_inspection(ctx: Ctx, inspection_id: InspectionId, start_at: DateTime) -> Inspection:
    """Move a scheduled or confirmed inspection to another time with the same inspector.

    Args:
        inspection_id: The inspection.
        start_at: The new start.
    """
    j = _job(ctx, inspection_id, "scheduled", "confirmed")
    end = _slot(ctx, ctx.get(Inspector, j.inspector_id), j.services, start_at, skip=j.id)
    return ctx.update(j, start_at=start_at, end_at=end)


@service.tool(
    intent="record the client's signed agreement",
    write=True,
    example=first_example(Inspection, "inspection_id", where={"status": "scheduled", "agreement_signed_at": None}),
)
def sign_agreement(ctx: Ctx, inspection_id: InspectionId) -> Inspection:
    """Record that the client signed the inspection agreement.

    Args:
        inspection_id: The inspection (not cancelled).
    """
    j = _job(ctx, inspection_id, "scheduled", "confirmed", "in_progress", "completed")
    if j.agreement_signed_at is not None:
        raise Conflict("the agreement is already signed", field="inspection_id", hint="nothing to do")
    return ctx.update(j, agreement_signed_at=ctx.now())


@service.tool(
    intent="confirm the inspection",
    write=True,
    example=first_example(
        Inspection, "inspection_id", where={"status": "scheduled"}, match=lambda c, j: j.agreement_signed_at is not None
    ),
)
def confirm_inspection(ctx: Ctx, inspection_id: InspectionId) -> Inspection:
    """Confirm a scheduled inspection whose agreement the client has signed.

    Args:
        inspection_id: The inspection.
    """
    j = _job(ctx, inspection_id, "scheduled")
    if j.agreement_signed_at is None:
        raise RuleViolation("the agreement is not signed", field="inspection_id", hint="have the client sign it first")
    return ctx.update(j, status="confirmed")


@service.tool(
    intent="cancel the inspection",
    write=True,
    destructive=True,
    example=first_example(Inspection, "inspection_id", where={"status": "scheduled"}),
)
def cancel_inspection(ctx: Ctx, inspection_id: InspectionId) -> Inspection:
    """Cancel a scheduled or confirmed inspection; whatever was paid is refunded.

    Args:
        inspection_id: The inspection.
    """
    return ctx.update(_job(ctx, inspection_id, "scheduled", "confirmed"), status="cancelled", paid=0)


@service.tool(
    intent="take payment for the inspection",
    write=True,
    example=first_example(
        Inspection,
        "inspection_id",
        where={"status": "completed"},
        match=lambda c, j: j.paid < j.fee,
        amount=100,
        method="card",
    ),
)
def record_payment(
    ctx: Ctx, inspection_id: InspectionId, amount: Cents, method: Literal["card", "ach", "check", "pay_at_close"]
) -> Payment:
    """Take a payment toward an inspection's fee, never more than what is still owed.

    Args:
        inspection_id: The inspection (not cancelled).
        amount: Amount (above zero).
        method: card, ach, check or pay_at_close.
    """
    j = _job(ctx, inspection_id, "scheduled", "confirmed", "in_progress", "completed", "published")
    owed = j.fee - j.paid
    if amount <= 0 or amount > owed:
        raise RuleViolation(f"{owed} is owed", field="amount", hint="pay at most the balance")
    ctx.update(j, paid=j.paid + amount)
    return ctx.create(Payment, inspection_id=j.id, amount=amount, method=method)


@service.tool(
    intent="publish the inspection report",
    write=True,
    example=first_example(
        Inspection,
        "inspection_id",
        where={"status": "completed"},
        match=lambda c, j: j.paid >= j.fee and j.agreement_signed_at is not None,
    ),
)
def publish_report(ctx: Ctx, inspection_id: InspectionId) -> Inspection:
    """Release the report of a completed inspection to the client and agent: agreement signed and fee paid.

    Args:
        inspection_id: The inspection.
    """
    j = _job(ctx, inspection_id, "completed")
    if j.agreement_signed_at is None:
        raise RuleViolation("the agreement is not signed", field="inspection_id", hint="reports need the agreement")
    if j.paid < j.fee:
        raise RuleViolation(f"{j.fee - j.paid} is unpaid", field="inspection_id", hint="take payment first")
    return ctx.update(j, status="published")


def _example_rrl(ctx: Ctx) -> dict[str, Any] | None:
    for j in ctx.where(Inspection, status="published"):
        found = ctx.where(Defect, inspection_id=j.id)
        if found and j.agent_email:
            return {"inspection_id": j.id, "requested_by": j.agent_email, "defect_ids": [found[0].id]}
    return None


@service.tool(intent="build the repair request list", write=True, example=_example_rrl)
def create_repair_request(
    ctx: Ctx,
    inspection_id: InspectionId,
    requested_by: Email,
    defect_ids: tuple[DefectId, ...],
    credit_requested: Cents = 0,
) -> RepairRequest:
    """Build a repair request list from a published report's defects, by the client or their agent.

    Args:
        inspection_id: The inspection (published).
        requested_by: The client's or buyer's agent's e-mail.
        defect_ids: Defects of that report (each once).
        credit_requested: Credit asked for instead of repairs.
    """
    j = _job(ctx, inspection_id, "published")
    if requested_by not in (j.client_email, j.agent_email):
        raise RuleViolation(
            f"{requested_by} is not the client or agent",
            field="requested_by",
            hint="the buyer or their agent builds the list",
        )
    if not defect_ids or len(set(defect_ids)) != len(defect_ids):
        raise RuleViolation("list each defect once", field="defect_ids", hint="pick defects from the report")
    for did in defect_ids:
        if ctx.get(Defect, did, field="defect_ids").inspection_id != j.id:
            raise RuleViolation(f"{did} is from another report", field="defect_ids", hint="pick this report's")
    return ctx.create(
        RepairRequest,
        inspection_id=j.id,
        requested_by=requested_by,
        defect_ids=defect_ids,
        credit_requested=credit_requested,
    )


@service.tool(
    intent="send the repair request list",
    write=True,
    example=first_example(RepairRequest, "repair_request_id", where={"status": "draft"}),
)
def send_repair_request(ctx: Ctx, repair_request_id: RepairRequestId) -> RepairRequest:
    """Send a draft repair request list to the listing side.

    Args:
        repair_request_id: The list.
    """
    r = ctx.get(RepairRequest, repair_request_id, field="repair_request_id")
    if r.status != "draft":
        raise Conflict("the list was already sent", field="repair_request_id", hint="build a new one")
    return ctx.update(r, status="sent")


# -- seed -------------------------------------------------------------------------------------

FINDINGS: tuple[tuple[Section, str, Severity, str, int], ...] = (
    ("Roof", "Missing shingles at north slope", "recommendation", "Roof, north slope", 60000),
    ("Electrical", "Double-tapped breaker in main panel", "safety", "Garage panel", 25000),
    ("Plumbing", "Active leak at kitchen sink trap", "major_defect", "Kitchen", 30000),
    ("HVAC", "Furnace filter dirty", "maintenance", "Basement", 2000),
    ("Exterior", "Negative grading at foundation", "recommendation", "East side", 80000),
    ("Attic", "Insufficient insulation", "recommendation", "Attic", 150000),
    ("Interior", "GFCI missing at bathroom outlet", "safety", "Hall bath", 15000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Inspectors from staff, jobs for consumers with agents from contacts in every state, defects, a list."""
    pop = s.population
    staff = pop.staff("Operations", fallback=3)[:3]
    certs: tuple[tuple[Offering, ...], ...] = (
        ("home_inspection", "radon", "wdi"),
        ("home_inspection", "sewer_scope", "pool"),
        ("home_inspection", "radon", "wdi", "sewer_scope", "pool"),
    )
    who = [
        s.create(Inspector, name=p.name, email=p.email, license_number=f"HI-{40211 + k}", services=certs[k % 3])
        for k, p in enumerate(staff)
    ]
    today = s.now.date()
    plan: tuple[tuple[int, int, InspStatus, bool, bool], ...] = (
        (-6, 9, "published", True, True),
        (-3, 8, "completed", True, True),
        (-2, 13, "completed", True, False),
        (0, 7, "in_progress", True, False),
        (0, 13, "confirmed", True, False),
        (2, 9, "scheduled", True, False),
        (4, 10, "scheduled", False, False),
        (5, 8, "cancelled", False, False),
    )
    for k, (day, hour, status, signed, paid) in enumerate(plan):
        buyer, agent = pop.consumers[k + 3], pop.contacts[k % len(pop.contacts)]
        offer: tuple[Offering, ...] = ("home_inspection", "radon") if k % 2 == 0 else ("home_inspection",)
        start = utc_at(today + dt.timedelta(days=day), hour)
        fee = sum(PRICES[o][0] for o in offer)
        job = s.create(
            Inspection,
            address=f"{100 + 17 * k} {('Oak', 'Pine', 'Walnut', 'Spruce')[k % 4]} St",
            city=pop.home.place.city,
            square_feet=1800 + 250 * k,
            client_name=buyer.name,
            client_email=buyer.email,
            agent_email=agent.email,
            inspector_id=who[k % len(who)].id,
            services=offer,
            start_at=start,
            end_at=start + dt.timedelta(minutes=sum(PRICES[o][1] for o in offer)),
            fee=fee,
            paid=fee if paid else 0,
            agreement_signed_at=s.ago(days=10) if signed else None,
            status=status,
            created_at=s.ago(days=14),
        )
        if paid:
            s.create(Payment, inspection_id=job.id, amount=fee, method="card", created_at=s.ago(days=day * -1 or 1))
        if status in ("published", "completed", "in_progress"):
            for sec, title, sev, loc, cost in FINDINGS[k % 3 : k % 3 + 4]:
                s.create(
                    Defect,
                    inspection_id=job.id,
                    section=sec,
                    title=title,
                    severity=sev,
                    location=loc,
                    estimated_cost=cost,
                )
        if status == "published":
            picked = tuple(d.id for d in s.records(Defect) if d.inspection_id == job.id)[:2]
            s.create(
                RepairRequest,
                inspection_id=job.id,
                requested_by=agent.email,
                defect_ids=picked,
                credit_requested=50000,
                status="draft",
                created_at=s.ago(days=3),
            )
