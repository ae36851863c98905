"""Maple Grove Senior Living: residents, units, care level assessments, care plans, the MAR, incidents, moves.

Modeled on PointClickCare Senior Living (formerly Caremerge/Eldermark-style
community software: prospects who move in to a unit of their care setting
and later move out; units available, reserved, occupied or out of service;
assessments scoring activities of daily living and cognition (BIMS) that,
once finalized, set the resident's care level (independent, assisted or
memory care) and monthly rate; care plans with focus areas; medication
orders and the electronic medication administration record (eMAR) with
given, refused and held passes; incidents such as falls and medication
errors that are reviewed and closed once the family is notified): a move-in
needs a finalized assessment and an available unit of the resident's care
setting; a resident whose care level changes must transfer to a unit of the
new setting; a dose is recorded once per scheduled pass, only on an active
order of a resident who lives here; moving out discontinues orders and puts
the unit out of service for turnover.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "seniorliving",
    title="Maple Grove Senior Living",
    category="senior_living",
    modeled_on="PointClickCare Senior Living: residents and prospects, units, move-in/move-out, care level "
    "assessments (ADL, BIMS), care plans, medication orders and eMAR passes, incident reports",
    description="A senior living community: prospects and residents, apartments by care setting, assessments that "
    "set care levels and rates, care plans, medication orders and the administration record, incident reports "
    "with family notification, and move-ins, transfers and move-outs.",
)

ResidentId = Annotated[str, IdOf("seniorliving.resident")]
UnitId = Annotated[str, IdOf("seniorliving.unit")]
AssessmentId = Annotated[str, IdOf("seniorliving.assessment")]
PlanId = Annotated[str, IdOf("seniorliving.care_plan")]
OrderId = Annotated[str, IdOf("seniorliving.med_order")]
MarId = Annotated[str, IdOf("seniorliving.mar_entry")]
IncidentId = Annotated[str, IdOf("seniorliving.incident")]

CareLevel = Literal["independent", "assisted", "memory_care"]
ResidentStatus = Literal["prospect", "active", "on_leave", "moved_out"]
UnitType = Literal["studio", "one_bedroom", "two_bedroom", "companion_suite"]
UnitStatus = Literal["available", "reserved", "occupied", "out_of_service"]
Pass = Literal["0800", "1200", "1700", "2100"]
MarStatus = Literal["given", "refused", "held"]
IncidentKind = Literal["fall", "medication_error", "elopement", "behavior", "skin_injury"]
Severity = Literal["minor", "moderate", "major"]
IncidentStatus = Literal["open", "under_review", "closed"]
Focus = Literal["mobility", "bathing", "dressing", "nutrition", "cognition", "continence", "socialization"]

LEVEL_RATE: dict[str, int] = {"independent": 360000, "assisted": 545000, "memory_care": 780000}


def _level(adl: int, bims: int) -> CareLevel:
    """The care level an assessment points to: BIMS 0-7 memory care, ADL dependence 10+ assisted."""
    if bims <= 7:
        return "memory_care"
    return "assisted" if adl >= 10 else "independent"


class Resident(Timestamped):
    """A prospect or resident of the community."""

    id: ResidentId
    name: PersonName
    """Full name."""
    email: Email | None = None
    """E-mail."""
    birth_date: Date
    """Date of birth."""
    responsible_party_email: Email | None = None
    """The family member or agent to notify."""
    care_level: CareLevel | None = None
    """independent, assisted or memory_care (set by a finalized assessment)."""
    monthly_rate_cents: Cents = 0
    """Monthly fee for rent and care."""
    unit_id: UnitId | None = None
    """Where they live."""
    status: ResidentStatus = "prospect"
    """prospect, active, on_leave or moved_out."""
    move_in_date: Date | None = None
    """When they moved in."""
    move_out_date: Date | None = None
    """When they moved out."""


class Unit(Timestamped):
    """An apartment."""

    id: UnitId
    number: Annotated[str, StringConstraints(pattern=r"^[A-Z]-[0-9]{3}$")]
    """Wing and number (e.g. B-214)."""
    unit_type: UnitType
    """studio, one_bedroom, two_bedroom or companion_suite."""
    care_setting: CareLevel
    """The care setting of its wing."""
    base_rent_cents: Cents
    """Base monthly rent."""
    status: UnitStatus = "available"
    """available, reserved, occupied or out_of_service."""


class Assessment(Timestamped):
    """A care assessment: ADL dependence and cognition."""

    id: AssessmentId
    resident_id: ResidentId
    """The resident."""
    assessor_email: Email
    """The nurse who assessed."""
    adl_score: Annotated[int, Field(ge=0, le=30)]
    """ADL dependence, 0 (independent) to 30."""
    bims_score: Annotated[int, Field(ge=0, le=15)]
    """Brief Interview for Mental Status, 0-15 (higher is better)."""
    fall_risk: bool = False
    """Whether they are at risk of falling."""
    recommended_level: CareLevel
    """The care level the scores point to."""
    status: Literal["draft", "finalized"] = "draft"
    """draft or finalized."""


class CarePlan(Timestamped):
    """The services a resident receives."""

    id: PlanId
    resident_id: ResidentId
    """The resident."""
    focus: tuple[Focus, ...]
    """Focus areas."""
    interventions: Text
    """What staff do."""
    review_on: Date
    """Next review."""
    status: Literal["active", "superseded"] = "active"
    """active or superseded."""


class MedOrder(Timestamped):
    """A medication order."""

    id: OrderId
    resident_id: ResidentId
    """The resident."""
    drug: Annotated[str, StringConstraints(min_length=2, max_length=80)]
    """Drug and strength."""
    dose: Annotated[str, StringConstraints(min_length=1, max_length=40)]
    """Dose and route."""
    passes: tuple[Pass, ...]
    """Med passes it is given at."""
    prescriber: PersonName
    """Who ordered it."""
    status: Literal["active", "discontinued"] = "active"
    """active or discontinued."""


class MarEntry(Timestamped):
    """One administration on the eMAR."""

    id: MarId
    order_id: OrderId
    """The order."""
    resident_id: ResidentId
    """The resident."""
    day: Date
    """The day."""
    med_pass: Pass
    """The pass."""
    status: MarStatus
    """given, refused or held."""
    staff_email: Email
    """Who recorded it."""
    note: Text = ""
    """Why refused or held."""


class Incident(Timestamped):
    """An incident report."""

    id: IncidentId
    resident_id: ResidentId
    """The resident."""
    kind: IncidentKind
    """fall, medication_error, elopement, behavior or skin_injury."""
    severity: Severity
    """minor, moderate or major."""
    occurred_at: DateTime
    """When."""
    description: Text
    """What happened."""
    reported_by: Email
    """The staff member reporting."""
    family_notified: bool = False
    """Whether the responsible party was told."""
    status: IncidentStatus = "open"
    """open, under_review or closed."""


# -- rules ------------------------------------------------------------------------------------


def _guard_incident(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "closed" and old.status != "closed" and not new.family_notified:
        raise RuleViolation(
            "the family has not been notified", field="incident_id", hint="notify the responsible party first"
        )


residents = service.resource(
    Resident,
    name="resident",
    plural="residents",
    prefix="res",
    create=("name", "email", "birth_date", "responsible_party_email"),
    filters=("status", "care_level", "unit_id", "email", "responsible_party_email"),
    search=("name",),
    update=("email", "responsible_party_email"),
    delete=False,
    transitions={
        "start_leave": Transition("status", ("active",), "on_leave", "record the resident's leave (hospital stay)"),
        "end_leave": Transition("status", ("on_leave",), "active", "record the resident's return from leave"),
    },
)
units = service.resource(
    Unit,
    name="unit",
    plural="units",
    prefix="unit",
    create=False,
    filters=("status", "care_setting", "unit_type", "number"),
    update=("base_rent_cents",),
    delete=False,
    transitions={
        "return_to_service": Transition("status", ("out_of_service",), "available", "put the unit back in service")
    },
)
assessments = service.resource(
    Assessment,
    name="assessment",
    plural="assessments",
    prefix="asm",
    create=False,
    filters=("resident_id", "status", "recommended_level"),
    delete=False,
)
care_plans = service.resource(
    CarePlan,
    name="care_plan",
    plural="care_plans",
    prefix="cp",
    create=False,
    filters=("resident_id", "status"),
    delete=False,
)
med_orders = service.resource(
    MedOrder,
    name="med_order",
    plural="med_orders",
    prefix="mo",
    create=False,
    filters=("resident_id", "status"),
    search=("drug",),
    delete=False,
    transitions={"discontinue": Transition("status", ("active",), "discontinued", "discontinue the medication")},
    title="medication order",
)
mar = service.resource(
    MarEntry,
    name="mar_entry",
    plural="mar_entries",
    prefix="mar",
    create=False,
    get=False,
    filters=("resident_id", "order_id", "day", "status"),
    delete=False,
    title="medication administration",
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=("resident_id", "kind", "status", "severity"),
    update=("family_notified", "description"),
    delete=False,
    transitions={
        "review": Transition("status", ("open",), "under_review", "start the review of the incident"),
        "close": Transition("status", ("open", "under_review"), "closed", "close the incident"),
    },
    guard_update=_guard_incident,
)


# -- domain tools -----------------------------------------------------------------------------


def _living(ctx: Ctx, resident_id: str) -> Resident:
    r = ctx.get(Resident, resident_id, field="resident_id")
    if r.status not in ("active", "on_leave"):
        raise RuleViolation(f"{r.name} is {r.status}", field="resident_id", hint="this is for current residents")
    return r


def _example_assess(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Resident, status="prospect")
    nurse = ctx.population.employees[0]
    return (
        None if r is None else {"resident_id": r.id, "assessor_email": nurse.email, "adl_score": 12, "bims_score": 13}
    )


@service.tool(intent="assess the resident's care needs", write=True, example=_example_assess)
def assess_resident(
    ctx: Ctx,
    resident_id: ResidentId,
    assessor_email: Email,
    adl_score: Annotated[int, Field(ge=0, le=30)],
    bims_score: Annotated[int, Field(ge=0, le=15)],
    fall_risk: bool = False,
) -> Assessment:
    """Record a draft assessment by a staff nurse; it recommends a care level from the ADL and BIMS scores.

    Args:
        resident_id: A prospect or current resident.
        assessor_email: The staff nurse.
        adl_score: ADL dependence 0-30.
        bims_score: BIMS 0-15.
        fall_risk: At risk of falling.
    """
    r = ctx.get(Resident, resident_id, field="resident_id")
    if r.status == "moved_out":
        raise RuleViolation(f"{r.name} moved out", field="resident_id", hint="assess current residents or prospects")
    require_employee(ctx, assessor_email, field="assessor_email", hint="a staff nurse assesses")
    return ctx.create(
        Assessment,
        resident_id=r.id,
        assessor_email=assessor_email,
        adl_score=adl_score,
        bims_score=bims_score,
        fall_risk=fall_risk,
        recommended_level=_level(adl_score, bims_score),
    )


@service.tool(
    intent="finalize the assessment",
    write=True,
    example=first_example(Assessment, "assessment_id", where={"status": "draft"}),
)
def finalize_assessment(ctx: Ctx, assessment_id: AssessmentId) -> Resident:
    """Finalize a draft assessment: the resident takes its care level and the matching monthly rate.

    A resident living in a unit of another care setting must then be transferred.

    Args:
        assessment_id: A draft assessment.
    """
    a = ctx.get(Assessment, assessment_id, field="assessment_id")
    if a.status != "draft":
        raise RuleViolation(f"assessment {a.id} is finalized", field="assessment_id", hint="assess again instead")
    ctx.update(a, status="finalized")
    r = ctx.get(Resident, a.resident_id)
    rent = ctx.get(Unit, r.unit_id).base_rent_cents if r.unit_id else 0
    return ctx.update(r, care_level=a.recommended_level, monthly_rate_cents=rent + LEVEL_RATE[a.recommended_level])


def _free_unit(ctx: Ctx, unit_id: str, level: str) -> Unit:
    unit = ctx.get(Unit, unit_id, field="unit_id")
    if unit.status not in ("available", "reserved"):
        raise Conflict(f"unit {unit.number} is {unit.status}", field="unit_id", hint="pick an available unit")
    if unit.care_setting != level:
        raise RuleViolation(
            f"unit {unit.number} is in the {unit.care_setting} wing, the resident needs {level}",
            field="unit_id",
            hint=f"pick a {level} unit",
        )
    return unit


def _example_move_in(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.where(Resident, status="prospect"):
        if r.care_level:
            for u in ctx.where(Unit, status="available", care_setting=r.care_level):
                return {"resident_id": r.id, "unit_id": u.id, "move_in_date": ctx.today().isoformat()}
    return None


@service.tool(intent="move the resident in", write=True, example=_example_move_in)
def move_in(ctx: Ctx, resident_id: ResidentId, unit_id: UnitId, move_in_date: Date) -> Resident:
    """Move a prospect with a finalized assessment into an available unit of their care setting.

    Args:
        resident_id: A prospect.
        unit_id: An available (or reserved) unit of the right care setting.
        move_in_date: The move-in day (today or within 60 days).
    """
    r = ctx.get(Resident, resident_id, field="resident_id")
    if r.status != "prospect":
        raise RuleViolation(f"{r.name} is {r.status}", field="resident_id", hint="only prospects move in")
    if r.care_level is None:
        raise RuleViolation(
            f"{r.name} has no finalized assessment", field="resident_id", hint="assess and finalize first"
        )
    if not ctx.today() - dt.timedelta(days=7) <= move_in_date <= ctx.today() + dt.timedelta(days=60):
        raise RuleViolation("the move-in day is out of range", field="move_in_date", hint="within 60 days")
    unit = _free_unit(ctx, unit_id, r.care_level)
    ctx.update(unit, status="occupied")
    return ctx.update(
        r,
        status="active",
        unit_id=unit.id,
        move_in_date=move_in_date,
        monthly_rate_cents=unit.base_rent_cents + LEVEL_RATE[r.care_level],
    )


@service.tool(
    intent="transfer the resident to another unit",
    write=True,
    example=lambda ctx: next(
        (
            {"resident_id": r.id, "unit_id": u.id}
            for r in ctx.where(Resident, status="active")
            if r.care_level
            for u in ctx.where(Unit, status="available", care_setting=r.care_level)
        ),
        None,
    ),
)
def transfer_unit(ctx: Ctx, resident_id: ResidentId, unit_id: UnitId) -> Resident:
    """Move a current resident to an available unit of their (possibly new) care setting; the old unit is turned over.

    Args:
        resident_id: A current resident.
        unit_id: The new unit.
    """
    r = _living(ctx, resident_id)
    if r.care_level is None:
        raise RuleViolation(f"{r.name} has no care level", field="resident_id", hint="assess first")
    unit = _free_unit(ctx, unit_id, r.care_level)
    if r.unit_id:
        ctx.update(ctx.get(Unit, r.unit_id), status="out_of_service")
    ctx.update(unit, status="occupied")
    return ctx.update(r, unit_id=unit.id, monthly_rate_cents=unit.base_rent_cents + LEVEL_RATE[r.care_level])


@service.tool(
    intent="move the resident out",
    write=True,
    destructive=True,
    example=first_example(Resident, "resident_id", where={"status": "on_leave"}),
)
def move_out(ctx: Ctx, resident_id: ResidentId) -> Resident:
    """Move a resident out today: medication orders are discontinued and the unit goes out of service for turnover.

    Args:
        resident_id: A current resident.
    """
    r = _living(ctx, resident_id)
    for order in ctx.where(MedOrder, resident_id=r.id, status="active"):
        ctx.update(order, status="discontinued")
    if r.unit_id:
        ctx.update(ctx.get(Unit, r.unit_id), status="out_of_service")
    return ctx.update(r, status="moved_out", unit_id=None, move_out_date=ctx.today())


@service.tool(
    intent="write a care plan for the resident",
    write=True,
    example=first_example(
        Resident,
        "resident_id",
        where={"status": "active"},
        focus=["mobility", "bathing"],
        interventions="Standby assist with showers twice weekly; walker at all times.",
    ),
)
def create_care_plan(ctx: Ctx, resident_id: ResidentId, focus: list[Focus], interventions: Text) -> CarePlan:
    """Write a resident's care plan; it supersedes the active one and is reviewed in 90 days.

    Args:
        resident_id: A current resident.
        focus: Focus areas (at least one).
        interventions: What staff do (required).
    """
    r = _living(ctx, resident_id)
    if not focus or not interventions.strip():
        raise RuleViolation("a care plan needs focus areas and interventions", field="focus", hint="list both")
    for old in ctx.where(CarePlan, resident_id=r.id, status="active"):
        ctx.update(old, status="superseded")
    return ctx.create(
        CarePlan,
        resident_id=r.id,
        focus=tuple(dict.fromkeys(focus)),
        interventions=interventions.strip(),
        review_on=ctx.today() + dt.timedelta(days=90),
    )


@service.tool(
    intent="enter a medication order for the resident",
    write=True,
    example=first_example(
        Resident,
        "resident_id",
        where={"status": "active"},
        drug="Lisinopril 10 mg tablet",
        dose="1 tab by mouth",
        passes=["0800"],
        prescriber="Dr. Helen Ortiz",
    ),
)
def create_med_order(
    ctx: Ctx,
    resident_id: ResidentId,
    drug: Annotated[str, StringConstraints(min_length=2, max_length=80)],
    dose: Annotated[str, StringConstraints(min_length=1, max_length=40)],
    passes: list[Pass],
    prescriber: PersonName,
) -> MedOrder:
    """Enter a prescriber's order; the same drug cannot be active twice for the resident.

    Args:
        resident_id: A current resident.
        drug: Drug and strength.
        dose: Dose and route.
        passes: The med passes (0800, 1200, 1700, 2100).
        prescriber: The prescriber.
    """
    r = _living(ctx, resident_id)
    if not passes:
        raise RuleViolation("an order is given at one pass at least", field="passes", hint="list the passes")
    for o in ctx.where(MedOrder, resident_id=r.id, status="active"):
        if o.drug.lower() == drug.lower():
            raise Conflict(f"{drug} is already ordered ({o.id})", field="drug", hint="discontinue it first")
    return ctx.create(
        MedOrder, resident_id=r.id, drug=drug, dose=dose, passes=tuple(sorted(set(passes))), prescriber=prescriber
    )


def _example_pass(ctx: Ctx) -> dict[str, Any] | None:
    for o in ctx.where(MedOrder, status="active"):
        r = ctx.get(Resident, o.resident_id)
        if r.status == "active" and not ctx.first(MarEntry, order_id=o.id, day=ctx.today(), med_pass=o.passes[-1]):
            return {
                "order_id": o.id,
                "med_pass": o.passes[-1],
                "status": "given",
                "staff_email": ctx.population.employees[1].email,
            }
    return None


@service.tool(intent="record the medication pass on the MAR", write=True, example=_example_pass)
def record_administration(
    ctx: Ctx, order_id: OrderId, med_pass: Pass, status: MarStatus, staff_email: Email, note: Text = ""
) -> MarEntry:
    """Record today's administration of an active order at one of its passes: given, refused or held.

    Args:
        order_id: An active order of a resident in the building (not on leave).
        med_pass: The pass (one of the order's).
        status: given, refused or held (refused and held need a note).
        staff_email: The staff member (med tech or nurse).
        note: Why refused or held.
    """
    o = ctx.get(MedOrder, order_id, field="order_id")
    if o.status != "active":
        raise RuleViolation(f"order {o.id} is discontinued", field="order_id", hint="give only active orders")
    r = ctx.get(Resident, o.resident_id)
    if r.status != "active":
        raise RuleViolation(f"{r.name} is {r.status}", field="order_id", hint="no passes while away or moved out")
    if med_pass not in o.passes:
        raise RuleViolation(f"{o.drug} is not given at {med_pass}", field="med_pass", hint=f"use {list(o.passes)}")
    require_employee(ctx, staff_email, field="staff_email", hint="staff record passes")
    if status != "given" and not note.strip():
        raise RuleViolation(f"a {status} dose needs a note", field="note", hint="say why")
    if ctx.first(MarEntry, order_id=o.id, day=ctx.today(), med_pass=med_pass) is not None:
        raise Conflict(f"the {med_pass} pass of {o.drug} is already recorded", field="med_pass", hint="check the MAR")
    return ctx.create(
        MarEntry,
        order_id=o.id,
        resident_id=r.id,
        day=ctx.today(),
        med_pass=med_pass,
        status=status,
        staff_email=staff_email,
        note=note.strip(),
    )


@service.tool(
    intent="report an incident involving the resident",
    write=True,
    example=lambda ctx: (
        None
        if (r := ctx.first(Resident, status="active")) is None
        else {
            "resident_id": r.id,
            "kind": "fall",
            "severity": "minor",
            "occurred_at": ctx.now().isoformat(),
            "description": "Found seated on the bathroom floor, no injury.",
            "reported_by": ctx.population.employees[2].email,
        }
    ),
)
def report_incident(
    ctx: Ctx,
    resident_id: ResidentId,
    kind: IncidentKind,
    severity: Severity,
    occurred_at: DateTime,
    description: Text,
    reported_by: Email,
) -> Incident:
    """File an incident report for a current resident (not in the future; a description is required).

    Args:
        resident_id: The resident.
        kind: fall, medication_error, elopement, behavior or skin_injury.
        severity: minor, moderate or major.
        occurred_at: When it happened.
        description: What happened.
        reported_by: The staff member.
    """
    r = _living(ctx, resident_id)
    if occurred_at > ctx.now():
        raise RuleViolation("the incident is dated in the future", field="occurred_at", hint="give when it happened")
    if not description.strip():
        raise RuleViolation("describe the incident", field="description", hint="say what happened")
    require_employee(ctx, reported_by, field="reported_by", hint="staff file incident reports")
    return ctx.create(
        Incident,
        resident_id=r.id,
        kind=kind,
        severity=severity,
        occurred_at=occurred_at,
        description=description.strip(),
        reported_by=reported_by,
    )


# -- seed -------------------------------------------------------------------------------------

WINGS: tuple[tuple[str, CareLevel, int], ...] = (
    ("A", "independent", 310000),
    ("B", "assisted", 290000),
    ("C", "memory_care", 280000),
)
DRUGS = ("Lisinopril 10 mg tablet", "Metformin 500 mg tablet", "Donepezil 10 mg tablet", "Atorvastatin 20 mg tablet")


@service.seeder
def seed(s: SeedContext) -> None:
    """Three wings of units, consumer residents (some prospects), assessments, plans, orders, the MAR, incidents."""
    pop = s.population
    today = s.now.date()
    nurses = pop.staff("Operations", "Support", fallback=4)
    made_units: dict[str, list[Unit]] = {}
    for wing, setting, rent in WINGS:
        for n in range(5):
            made_units.setdefault(setting, []).append(
                s.create(
                    Unit,
                    number=f"{wing}-{101 + n + 100 * (n // 3)}",
                    unit_type=("studio", "one_bedroom", "two_bedroom", "companion_suite", "studio")[n],
                    care_setting=setting,
                    base_rent_cents=rent + 40000 * (n % 3),
                    status="out_of_service" if n == 4 and wing == "A" else "available",
                )
            )
    seniors = sorted(pop.consumers, key=lambda p: p.birth_date)[:12]
    for k, p in enumerate(seniors):
        adl, bims = ((4, 14), (14, 12), (18, 5))[k % 3]
        level = _level(adl, bims)
        family = pop.consumers[-1 - k]
        status: ResidentStatus = "prospect" if k >= 9 else ("on_leave" if k == 7 else "active")
        unit = None
        if status != "prospect":
            pool = made_units[level]
            i = next(i for i, u in enumerate(pool) if u.status == "available")
            unit = pool[i] = s.update(pool[i], status="occupied")
        r = s.create(
            Resident,
            name=p.name,
            email=p.email,
            birth_date=p.birth_date,
            responsible_party_email=family.email,
            care_level=level if k != 10 else None,
            monthly_rate_cents=(unit.base_rent_cents + LEVEL_RATE[level]) if unit else 0,
            unit_id=unit.id if unit else None,
            status=status,
            move_in_date=today - dt.timedelta(days=400 - 30 * k) if unit else None,
            created_at=s.ago(days=420 - 30 * k),
        )
        s.create(
            Assessment,
            resident_id=r.id,
            assessor_email=nurses[k % len(nurses)].email,
            adl_score=adl,
            bims_score=bims,
            fall_risk=adl >= 14,
            recommended_level=level,
            status="draft" if k == 10 else "finalized",
        )
        if status == "prospect":
            continue
        s.create(
            CarePlan,
            resident_id=r.id,
            focus=("mobility", "socialization") if level == "independent" else ("bathing", "dressing", "cognition"),
            interventions="Weekly wellness check; escort to meals as needed.",
            review_on=today + dt.timedelta(days=10 + 9 * k),
        )
        order = s.create(
            MedOrder,
            resident_id=r.id,
            drug=DRUGS[k % len(DRUGS)],
            dose="1 tab by mouth",
            passes=("0800", "2100") if k % 2 else ("0800",),
            prescriber="Dr. Helen Ortiz",
        )
        for d in (1, 2):
            s.create(
                MarEntry,
                order_id=order.id,
                resident_id=r.id,
                day=today - dt.timedelta(days=d),
                med_pass="0800",
                status="given" if (k + d) % 5 else "refused",
                staff_email=nurses[(k + d) % len(nurses)].email,
                note="" if (k + d) % 5 else "Resident declined; will retry at noon.",
            )
        if k % 3 == 2:
            s.create(
                Incident,
                resident_id=r.id,
                kind="fall" if k != 5 else "elopement",
                severity="minor" if k != 5 else "moderate",
                occurred_at=utc_at(today - dt.timedelta(days=k), 3),
                description="Found on the floor beside the bed; vitals stable.",
                reported_by=nurses[0].email,
                family_notified=k == 2,
                status="under_review" if k == 5 else "open",
            )
