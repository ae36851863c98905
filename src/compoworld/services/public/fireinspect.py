"""FireLine Prevention: fire inspections of occupancies, violations and re-inspections, permits, pre-plans, hydrants.

Modeled on First Due (Community Risk Reduction: occupancies, inspections,
violations, operational permits, pre-incident plans, hydrants and flow tests)
and ImageTrend Elite Fire inspections: occupancies (the businesses of the
district) with an IFC occupancy group and a risk level that sets the
inspection cycle (12, 24 or 36 months); inspections (annual, complaint,
permit, re-inspection) that pass, or fail with violations of International
Fire Code sections each due for correction by a date set by its severity
(imminent hazards the next day, major in 14 days, minor in 30), a re-inspection
scheduled at the latest correction date, and a re-inspection that passes only
when every open violation is corrected; operational permits (hot work, LP gas,
assembly, tent, fireworks) issued only to an occupancy with no open major or
imminent violation and a passed inspection within the last year; one
pre-incident plan per occupancy; and hydrants whose flow tests give their
NFPA 291 color class.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, CompanyName, Date, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "fireinspect",
    title="FireLine Prevention",
    category="fire_prevention",
    modeled_on="First Due Community Risk Reduction and ImageTrend Elite Fire inspections: occupancies, "
    "inspections, violations with re-inspection, operational permits, pre-incident plans, hydrant flow tests",
    description="The fire marshal's office: the district's businesses and their inspection cycles, fire "
    "inspections and code violations, re-inspections, operational permits, pre-incident plans for crews, and "
    "hydrant flow tests.",
)

OccupancyId = Annotated[str, IdOf("fireinspect.occupancy")]
InspectionId = Annotated[str, IdOf("fireinspect.inspection")]
ViolationId = Annotated[str, IdOf("fireinspect.violation")]
PermitId = Annotated[str, IdOf("fireinspect.permit")]
PreplanId = Annotated[str, IdOf("fireinspect.preplan")]
HydrantId = Annotated[str, IdOf("fireinspect.hydrant")]
Street = Annotated[str, StringConstraints(min_length=1, max_length=200)]

Group = Literal["A", "B", "E", "F", "M", "R", "S", "H"]
Risk = Literal["low", "moderate", "high"]
Kind = Literal["annual", "complaint", "permit", "reinspection"]
Severity = Literal["minor", "major", "imminent"]
IfcCode = Literal["906.2", "1031.2", "605.4", "1008.3", "901.6", "315.3", "507.5", "5003.9"]
PermitKind = Literal["hot_work", "lp_gas", "assembly", "tent", "fireworks"]
NfpaClass = Literal["AA", "A", "B", "C"]

CYCLE_MONTHS: dict[str, int] = {"low": 36, "moderate": 24, "high": 12}
CORRECT_DAYS: dict[str, int] = {"minor": 30, "major": 14, "imminent": 1}
CODES: dict[str, str] = {
    "906.2": "Portable fire extinguisher missing or not serviced",
    "1031.2": "Means of egress obstructed",
    "605.4": "Extension cord used as permanent wiring",
    "1008.3": "Emergency exit lighting not working",
    "901.6": "Sprinkler system not inspected or maintained",
    "315.3": "Storage within 24 inches of the ceiling",
    "507.5": "Fire hydrant obstructed",
    "5003.9": "Hazardous materials not properly stored",
}
PERMIT_FEES: dict[str, int] = {"hot_work": 7500, "lp_gas": 10000, "assembly": 15000, "tent": 12500, "fireworks": 25000}
PERMIT_MONTHS: dict[str, int] = {"hot_work": 12, "lp_gas": 12, "assembly": 12, "tent": 1, "fireworks": 1}


class Occupancy(Timestamped):
    """A business or building the fire marshal inspects."""

    id: OccupancyId
    name: CompanyName
    """The business name."""
    street: Street
    """Address."""
    city: City
    """City."""
    group: Group
    """IFC occupancy group: A assembly, B business, E educational, F factory, M mercantile, R residential,
    S storage, H hazardous."""
    risk: Risk = "moderate"
    """low, moderate or high: inspected every 36, 24 or 12 months."""
    contact_name: PersonName
    """The responsible person on site."""
    contact_email: Email | None = None
    """Their e-mail, for reports and notices."""
    last_inspected_on: Date | None = None
    """The last passed inspection."""
    next_due_on: Date
    """When the next annual inspection is due."""


class Inspection(Timestamped):
    """A fire inspection visit."""

    id: InspectionId
    occupancy_id: OccupancyId
    """The occupancy."""
    kind: Kind
    """annual, complaint, permit or reinspection."""
    scheduled_on: Date
    """The day."""
    inspector_email: Email
    """The fire inspector."""
    status: Literal["scheduled", "passed", "failed", "cancelled"] = "scheduled"
    """scheduled, passed, failed or cancelled."""
    completed_on: Date | None = None
    """When it was done."""
    notes: Text = ""
    """The inspector's notes."""


class Violation(Timestamped):
    """A fire code violation found on an inspection."""

    id: ViolationId
    occupancy_id: OccupancyId
    """The occupancy."""
    inspection_id: InspectionId
    """The inspection that found it."""
    code: IfcCode
    """The International Fire Code section."""
    description: str
    """What the section requires."""
    severity: Severity
    """minor, major or imminent (hazard to life)."""
    correct_by: Date
    """The correction deadline."""
    status: Literal["open", "corrected"] = "open"
    """open or corrected."""
    corrected_on: Date | None = None
    """When a re-inspection found it corrected."""


class Permit(Timestamped):
    """An operational permit."""

    id: PermitId
    occupancy_id: OccupancyId
    """The occupancy."""
    kind: PermitKind
    """hot_work, lp_gas, assembly, tent or fireworks."""
    fee_cents: Cents
    """The permit fee."""
    status: Literal["applied", "issued", "revoked"] = "applied"
    """applied, issued or revoked."""
    valid_from: Date | None = None
    """First valid day."""
    valid_to: Date | None = None
    """Last valid day."""


class Preplan(Timestamped):
    """A pre-incident plan crews read en route."""

    id: PreplanId
    occupancy_id: OccupancyId
    """The occupancy (one plan each)."""
    sprinklered: bool = False
    """Whether the building has sprinklers."""
    knox_box: bool = False
    """Whether there is a Knox key box."""
    fdc_location: str = ""
    """Where the fire department connection is."""
    hazards: Text = ""
    """Hazards for crews (chemicals, solar panels, truss roofs)."""


class Hydrant(Timestamped):
    """A fire hydrant."""

    id: HydrantId
    hydrant_number: Annotated[str, StringConstraints(pattern=r"^H-\d{4}$")]
    """The hydrant number."""
    street: Street
    """Nearest address."""
    status: Literal["in_service", "out_of_service"] = "in_service"
    """in_service or out_of_service."""
    flow_gpm: int | None = None
    """Flow at 20 psi residual, from the last test."""
    nfpa_class: NfpaClass | None = None
    """AA (1500+ gpm, light blue), A (1000-1499, green), B (500-999, orange), C (under 500, red)."""
    last_tested_on: Date | None = None
    """The last flow test."""


class Finding(Value):
    """A violation an inspector records."""

    code: IfcCode
    """The fire code section."""
    severity: Severity
    """minor, major or imminent."""


# -- rules ------------------------------------------------------------------------------------


def _guard_preplan(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Occupancy, new.occupancy_id, field="occupancy_id")
    other = ctx.first(Preplan, occupancy_id=new.occupancy_id)
    if other is not None and other.id != new.id:
        raise Conflict(f"{new.occupancy_id} already has plan {other.id}", field="occupancy_id", hint="update it")


def _guard_permit(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "issued" and old.status != "issued":
        _permit_ready(ctx, new)
        today = ctx.today()
        ctx.update(new, valid_from=today, valid_to=add_months(today, PERMIT_MONTHS[new.kind]) - dt.timedelta(days=1))


def _permit_ready(ctx: Ctx, permit: Any) -> None:
    bad = [v for v in ctx.where(Violation, occupancy_id=permit.occupancy_id, status="open") if v.severity != "minor"]
    if bad:
        raise RuleViolation(
            f"{len(bad)} major or imminent violations are open", field="permit_id", hint="correct them first"
        )
    year_ago = add_months(ctx.today(), -12)
    passed = [
        i
        for i in ctx.where(Inspection, occupancy_id=permit.occupancy_id, status="passed")
        if i.completed_on is not None and i.completed_on >= year_ago
    ]
    if not passed:
        raise RuleViolation(
            "no passed inspection in the last 12 months", field="permit_id", hint="schedule a permit inspection"
        )


occupancies = service.resource(
    Occupancy,
    name="occupancy",
    plural="occupancies",
    prefix="occ",
    create=False,
    filters=("name", "group", "risk", "contact_email", "city"),
    search=("name", "street"),
    update=("risk", "contact_name", "contact_email"),
    delete=False,
    title="occupancy",
)
inspections = service.resource(
    Inspection,
    name="inspection",
    plural="inspections",
    prefix="fi",
    create=False,
    filters=("occupancy_id", "kind", "status", "inspector_email", "scheduled_on"),
    delete=False,
    transitions={"cancel": Transition("status", ("scheduled",), "cancelled", "cancel the fire inspection")},
)
violations = service.resource(
    Violation,
    name="violation",
    plural="violations",
    prefix="fv",
    create=False,
    filters=("occupancy_id", "inspection_id", "code", "severity", "status"),
    delete=False,
)
permits = service.resource(
    Permit,
    name="permit",
    plural="permits",
    prefix="fp",
    create=False,
    filters=("occupancy_id", "kind", "status"),
    delete=False,
    transitions={
        "issue": Transition("status", ("applied",), "issued", "issue the operational permit"),
        "revoke": Transition("status", ("issued",), "revoked", "revoke the operational permit", destructive=True),
    },
    guard_update=_guard_permit,
    title="operational permit",
)
preplans = service.resource(
    Preplan,
    name="preplan",
    plural="preplans",
    prefix="pp",
    create=("occupancy_id", "sprinklered", "knox_box", "fdc_location", "hazards"),
    filters=("occupancy_id", "sprinklered", "knox_box"),
    search=("hazards", "fdc_location"),
    update=("sprinklered", "knox_box", "fdc_location", "hazards"),
    delete=False,
    guard_create=_guard_preplan,
    title="pre-incident plan",
)
hydrants = service.resource(
    Hydrant,
    name="hydrant",
    plural="hydrants",
    prefix="hyd",
    create=False,
    filters=("hydrant_number", "status", "nfpa_class", "street"),
    delete=False,
    transitions={
        "take_out_of_service": Transition(
            "status", ("in_service",), "out_of_service", "take the hydrant out of service"
        ),
        "return_to_service": Transition("status", ("out_of_service",), "in_service", "return the hydrant to service"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for occ in ctx.scan(Occupancy):
        if not ctx.where(Inspection, occupancy_id=occ.id, status="scheduled"):
            return {
                "occupancy_id": occ.id,
                "kind": "annual",
                "scheduled_on": (ctx.today() + dt.timedelta(days=5)).isoformat(),
                "inspector_email": ctx.population.employees[0].email,
            }
    return None


@service.tool(intent="schedule a fire inspection", write=True, example=_example_schedule)
def schedule_inspection(
    ctx: Ctx, occupancy_id: OccupancyId, kind: Kind, scheduled_on: Date, inspector_email: Email
) -> Inspection:
    """Schedule an inspection of an occupancy; one scheduled visit at a time; re-inspections need open violations.

    Args:
        occupancy_id: The occupancy.
        kind: annual, complaint, permit or reinspection.
        scheduled_on: The day (today or later).
        inspector_email: The fire inspector (staff).
    """
    occ = ctx.get(Occupancy, occupancy_id, field="occupancy_id")
    require_employee(ctx, inspector_email, field="inspector_email", hint="inspections are done by fire inspectors")
    if scheduled_on < ctx.today():
        raise RuleViolation("inspections are scheduled ahead", field="scheduled_on", hint="pick today or later")
    if ctx.where(Inspection, occupancy_id=occ.id, status="scheduled"):
        raise Conflict(f"{occ.name} already has a scheduled inspection", field="occupancy_id", hint="reschedule it")
    if kind == "reinspection" and not ctx.where(Violation, occupancy_id=occ.id, status="open"):
        raise RuleViolation("nothing to re-inspect", field="kind", hint="schedule an annual inspection")
    return ctx.create(
        Inspection, occupancy_id=occ.id, kind=kind, scheduled_on=scheduled_on, inspector_email=inspector_email
    )


@service.tool(
    intent="complete the fire inspection",
    write=True,
    example=first_example(Inspection, "inspection_id", where={"status": "scheduled", "kind": "annual"}, findings=[]),
)
def complete_inspection(ctx: Ctx, inspection_id: InspectionId, findings: list[Finding], notes: Text = "") -> Inspection:
    """Record a visit: findings become violations and fail it (a re-inspection is booked); none passes it.

    On a re-inspection, open violations not found again are corrected.

    Args:
        inspection_id: The scheduled inspection (on or after its day).
        findings: The violations found (code and severity); empty when all is in order.
        notes: The inspector's notes.
    """
    ins = ctx.get(Inspection, inspection_id, field="inspection_id")
    if ins.status != "scheduled":
        raise Conflict(f"inspection {ins.id} is {ins.status}", field="inspection_id", hint="schedule a new one")
    today = ctx.today()
    if today < ins.scheduled_on:
        raise RuleViolation(f"the inspection is on {ins.scheduled_on}", field="inspection_id", hint="wait for it")
    occ = ctx.get(Occupancy, ins.occupancy_id)
    found = {f.code: f for f in findings}
    for v in ctx.where(Violation, occupancy_id=occ.id, status="open"):
        if v.code in found:
            found.pop(v.code)  # still there: it stays open with its deadline
        elif ins.kind == "reinspection":
            ctx.update(v, status="corrected", corrected_on=today)
    due: list[dt.date] = []
    for f in found.values():
        by = today + dt.timedelta(days=CORRECT_DAYS[f.severity])
        due.append(by)
        ctx.create(
            Violation,
            occupancy_id=occ.id,
            inspection_id=ins.id,
            code=f.code,
            description=CODES[f.code],
            severity=f.severity,
            correct_by=by,
        )
    still_open = ctx.where(Violation, occupancy_id=occ.id, status="open")
    if not still_open:
        ctx.update(occ, last_inspected_on=today, next_due_on=add_months(today, CYCLE_MONTHS[occ.risk]))
        return ctx.update(ins, status="passed", completed_on=today, notes=notes)
    ctx.create(
        Inspection,
        occupancy_id=occ.id,
        kind="reinspection",
        scheduled_on=max([v.correct_by for v in still_open] + due),
        inspector_email=ins.inspector_email,
    )
    return ctx.update(ins, status="failed", completed_on=today, notes=notes)


def _example_permit(ctx: Ctx) -> dict[str, Any] | None:
    for occ in ctx.scan(Occupancy):
        if ctx.first(Permit, occupancy_id=occ.id, kind="hot_work") is None:
            return {"occupancy_id": occ.id, "kind": "hot_work"}
    return None


@service.tool(intent="apply for an operational permit", write=True, example=_example_permit)
def apply_permit(ctx: Ctx, occupancy_id: OccupancyId, kind: PermitKind) -> Permit:
    """Apply for an operational permit; assembly permits are for group A occupancies; one live permit per kind.

    Args:
        occupancy_id: The occupancy.
        kind: hot_work, lp_gas, assembly, tent or fireworks.
    """
    occ = ctx.get(Occupancy, occupancy_id, field="occupancy_id")
    if kind == "assembly" and occ.group != "A":
        raise RuleViolation("assembly permits are for group A occupancies", field="kind", hint="pick another kind")
    today = ctx.today()
    for p in ctx.where(Permit, occupancy_id=occ.id, kind=kind):
        live = p.status == "applied" or (p.status == "issued" and p.valid_to is not None and p.valid_to >= today)
        if live:
            raise Conflict(f"{kind} permit {p.id} is {p.status}", field="kind", hint="it is still valid")
    return ctx.create(Permit, occupancy_id=occ.id, kind=kind, fee_cents=PERMIT_FEES[kind])


def _example_flow(ctx: Ctx) -> dict[str, Any] | None:
    h = ctx.first(Hydrant, status="in_service")
    return None if h is None else {"hydrant_number": h.hydrant_number, "flow_gpm": 1250}


@service.tool(intent="record the hydrant flow test", write=True, example=_example_flow)
def record_flow_test(
    ctx: Ctx,
    hydrant_number: Annotated[str, StringConstraints(pattern=r"^H-\d{4}$")],
    flow_gpm: Annotated[int, Field(ge=0, le=10000)],
) -> Hydrant:
    """Record an in-service hydrant's flow test at 20 psi residual; the NFPA 291 class follows.

    Args:
        hydrant_number: The hydrant, e.g. H-0104.
        flow_gpm: Gallons per minute at 20 psi residual.
    """
    h = ctx.first(Hydrant, hydrant_number=hydrant_number)
    if h is None:
        raise RuleViolation(f"no hydrant {hydrant_number}", field="hydrant_number", hint="list the hydrants")
    if h.status != "in_service":
        raise RuleViolation(f"{hydrant_number} is out of service", field="hydrant_number", hint="repair it first")
    return ctx.update(h, flow_gpm=flow_gpm, nfpa_class=_nfpa(flow_gpm), last_tested_on=ctx.today())


def _nfpa(gpm: int) -> NfpaClass:
    return "AA" if gpm >= 1500 else "A" if gpm >= 1000 else "B" if gpm >= 500 else "C"


@service.tool(
    intent="list the occupancies due for inspection",
    example=first_example(Occupancy, None, days_ahead=30),
)
def due_for_inspection(ctx: Ctx, days_ahead: Annotated[int, Field(ge=0, le=365)] = 30) -> list[Occupancy]:
    """Occupancies whose next annual inspection is due within the days ahead (overdue first) and not scheduled.

    Args:
        days_ahead: How far ahead to look.
    """
    limit = ctx.today() + dt.timedelta(days=days_ahead)
    due = [
        o
        for o in ctx.scan(Occupancy)
        if o.next_due_on <= limit and not ctx.where(Inspection, occupancy_id=o.id, status="scheduled")
    ]
    return sorted(due, key=lambda o: (o.next_due_on, o.id))


# -- seed -------------------------------------------------------------------------------------

GROUPS: tuple[tuple[Group, Risk], ...] = (
    ("B", "low"),
    ("M", "moderate"),
    ("A", "high"),
    ("S", "moderate"),
    ("F", "high"),
    ("E", "high"),
    ("H", "high"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The world's companies as occupancies, inspections passed and failed, open violations, permits, hydrants."""
    pop = s.population
    today = s.now.date()
    inspectors = pop.staff("Operations", "Support", fallback=3)
    for k, co in enumerate(pop.companies[:14]):
        group, risk = GROUPS[k % len(GROUPS)]
        contact = pop.first_contact(co)
        last = today - dt.timedelta(days=40 + 61 * k)
        occ = s.create(
            Occupancy,
            name=co.name,
            street=co.address.street,
            city=co.address.city,
            group=group,
            risk=risk,
            contact_name=contact.name if contact else "Facilities Manager",
            contact_email=contact.email if contact else None,
            last_inspected_on=last,
            next_due_on=add_months(last, CYCLE_MONTHS[risk]),
            created_at=s.ago(days=1500),
            updated_at=s.ago(days=40),
        )
        who = inspectors[k % len(inspectors)].email
        s.create(
            Inspection,
            occupancy_id=occ.id,
            kind="annual",
            scheduled_on=last,
            inspector_email=who,
            status="passed",
            completed_on=last,
            created_at=s.ago(days=(today - last).days + 10),
            updated_at=s.ago(days=(today - last).days),
        )
        if k % 4 == 1:
            visit = s.create(
                Inspection,
                occupancy_id=occ.id,
                kind="complaint",
                scheduled_on=today - dt.timedelta(days=6),
                inspector_email=who,
                status="failed",
                completed_on=today - dt.timedelta(days=6),
                notes="Complaint of blocked exits verified.",
                created_at=s.ago(days=8),
                updated_at=s.ago(days=6),
            )
            for code, sev in (("1031.2", "major"), ("906.2", "minor")):
                s.create(
                    Violation,
                    occupancy_id=occ.id,
                    inspection_id=visit.id,
                    code=code,
                    description=CODES[code],
                    severity=sev,
                    correct_by=today - dt.timedelta(days=6 - CORRECT_DAYS[sev]),
                    created_at=s.ago(days=6),
                    updated_at=s.ago(days=6),
                )
            s.create(
                Inspection,
                occupancy_id=occ.id,
                kind="reinspection",
                scheduled_on=today,
                inspector_email=who,
                created_at=s.ago(days=6),
                updated_at=s.ago(days=6),
            )
        elif k % 4 == 2:
            s.create(
                Inspection,
                occupancy_id=occ.id,
                kind="annual",
                scheduled_on=today + dt.timedelta(days=k),
                inspector_email=who,
                created_at=s.ago(days=3),
                updated_at=s.ago(days=3),
            )
        if k % 3 == 0:
            s.create(
                Permit,
                occupancy_id=occ.id,
                kind="assembly" if group == "A" else "hot_work",
                fee_cents=PERMIT_FEES["hot_work"],
                status="issued" if k % 2 == 0 else "applied",
                valid_from=last if k % 2 == 0 else None,
                valid_to=add_months(last, 12) - dt.timedelta(days=1) if k % 2 == 0 else None,
                created_at=s.ago(days=(today - last).days + 5),
                updated_at=s.ago(days=(today - last).days),
            )
        if k % 2 == 0:
            s.create(
                Preplan,
                occupancy_id=occ.id,
                sprinklered=group in ("A", "E", "H", "S"),
                knox_box=k % 4 == 0,
                fdc_location="Front of building, left of the main entrance",
                hazards="Truss roof" if group == "S" else "",
                created_at=s.ago(days=300),
                updated_at=s.ago(days=100),
            )
    for k in range(10):
        gpm = (1700, 1200, 800, 450, 1550)[k % 5] if k % 4 else None
        s.create(
            Hydrant,
            hydrant_number=f"H-{101 + 7 * k:04d}",
            street=pop.consumers[k].address.street,
            status="out_of_service" if k == 9 else "in_service",
            flow_gpm=gpm,
            nfpa_class=None if gpm is None else _nfpa(gpm),
            last_tested_on=today - dt.timedelta(days=100 + 30 * k) if gpm else None,
            created_at=s.ago(days=2000),
            updated_at=s.ago(days=100),
        )
