"""Furrow Operations: grower organizations, farms, fields with boundaries, crop seasons, work plans and harvests.

Modeled on the John Deere Operations Center API (``/organizations``, ``/farms``, ``/fields`` with
``/boundaries`` and area, ``/cropTypes``, ``/workPlans`` with operations and assigned machines and
operators, ``/machines`` with engine hours, and harvest field operations with yield and moisture): a
field's acreage comes from its boundary polygon; a crop season per field and year moves planned →
planted → harvested; a work plan (tillage, seeding, application, harvest) moves planned →
in_progress → completed or cancelled and needs a machine of the right type (planter, sprayer,
combine, tractor) that is neither in maintenance nor busy on another plan; seeding needs a planned
season and completes it to planted, harvest needs a planted season, and harvest records never cover
more acres than the field has; when they reach 95 % of the field the season is harvested.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, DateTime, Email, IdOf, Latitude, Longitude, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "farmops",
    title="Furrow Operations",
    category="agriculture",
    modeled_on="John Deere Operations Center API: organizations, farms, fields and boundaries, crop types, "
    "work plans with operations, machines, harvest field operations",
    description="Farm management for the growers the company serves: organizations, farms, fields with boundary "
    "polygons and acreage, crop seasons, work plans for tillage, seeding, spraying and harvest with their machines "
    "and operators, the machine fleet, and harvest records with yield and moisture.",
)

OrgId = Annotated[str, IdOf("farmops.organization")]
FarmId = Annotated[str, IdOf("farmops.farm")]
FieldId = Annotated[str, IdOf("farmops.field")]
SeasonId = Annotated[str, IdOf("farmops.season")]
MachineId = Annotated[str, IdOf("farmops.machine")]
PlanId = Annotated[str, IdOf("farmops.work_plan")]
HarvestId = Annotated[str, IdOf("farmops.harvest")]

Crop = Literal["corn", "soybeans", "wheat", "canola", "cotton", "sorghum"]
Operation = Literal["tillage", "seeding", "application", "harvest"]
MachineType = Literal["tractor", "planter", "sprayer", "combine"]
Year = Annotated[int, Field(ge=2000, le=2100)]
Acres = Annotated[float, Field(gt=0, le=100000)]
Vin = Annotated[str, StringConstraints(pattern=r"^1[A-Z0-9]{12}\d{4}$")]
"""A 17-character Deere product identification number."""

NEEDS: dict[Operation, MachineType] = {
    "tillage": "tractor",
    "seeding": "planter",
    "application": "sprayer",
    "harvest": "combine",
}
HARVESTED_SHARE = 0.95
SQ_M_PER_ACRE = 4046.8564


class Point(Value):
    """A corner of a field boundary."""

    lat: Latitude
    """Latitude."""
    lon: Longitude
    """Longitude."""


class Organization(Record):
    """A grower's organization connected to the company."""

    id: OrgId
    name: CompanyName
    """The grower's company."""
    contact_email: Email
    """The grower's main contact."""
    connected: bool = True
    """Whether the organization shares its data with the company."""


class Farm(Record):
    """A farm of an organization."""

    id: FarmId
    org_id: OrgId
    """The organization."""
    name: Title
    """The farm's name."""


class FarmField(Record):
    """A field with its boundary."""

    id: FieldId
    farm_id: FarmId
    """The farm."""
    org_id: OrgId
    """The organization."""
    name: Title
    """The field's name."""
    boundary: tuple[Point, ...]
    """The boundary polygon, corners in order."""
    acres: Acres
    """Area inside the boundary, in acres."""
    status: Literal["active", "archived"] = "active"
    """active or archived."""


class Season(Record):
    """A crop grown on a field in a year."""

    id: SeasonId
    field_id: FieldId
    """The field."""
    year: Year
    """The crop year."""
    crop: Crop
    """The crop."""
    variety: Annotated[str, StringConstraints(min_length=1, max_length=60)] | None = None
    """The seed variety (hybrid)."""
    target_yield: Annotated[float, Field(gt=0, le=400)]
    """Target yield in bushels per acre."""
    status: Literal["planned", "planted", "harvested"] = "planned"
    """planned, planted or harvested."""
    planted_on: Date | None = None
    """When seeding was completed."""


class Machine(Record):
    """A machine of the fleet."""

    id: MachineId
    name: Title
    """Its name (e.g. 8R 410)."""
    machine_type: MachineType
    """tractor, planter, sprayer or combine."""
    vin: Vin
    """Product identification number (unique)."""
    engine_hours: Annotated[float, Field(ge=0, le=100000)] = 0.0
    """Engine hours."""
    status: Literal["available", "maintenance"] = "available"
    """available, or in maintenance (cannot be assigned)."""


class WorkPlan(Record):
    """A planned field operation with its machine and operator."""

    id: PlanId
    field_id: FieldId
    """The field."""
    season_id: SeasonId
    """The crop season."""
    operation: Operation
    """tillage, seeding, application or harvest."""
    machine_id: MachineId
    """The assigned machine."""
    operator_email: Email
    """The assigned operator (employee)."""
    planned_date: Date
    """When it should happen."""
    instructions: Text = ""
    """Products, rates and notes."""
    status: Literal["planned", "in_progress", "completed", "cancelled"] = "planned"
    """planned, in_progress, completed or cancelled."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Harvest(Record):
    """A harvest operation's result on part of a field."""

    id: HarvestId
    field_id: FieldId
    """The field."""
    season_id: SeasonId
    """The season."""
    acres: Acres
    """Acres harvested."""
    total_bushels: Annotated[float, Field(ge=0, le=10**8)]
    """Dry bushels harvested."""
    moisture: Annotated[float, Field(ge=5, le=40)]
    """Average grain moisture in percent."""
    yield_per_acre: float
    """Bushels per acre."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class FieldSummary(Value):
    """A field's season at a glance."""

    field_id: FieldId
    """The field."""
    acres: float
    """Its acres."""
    crop: Crop | None
    """The latest season's crop."""
    season_status: str | None
    """The latest season's status."""
    harvested_acres: float
    """Acres harvested in that season."""
    average_yield: float
    """Bushels per harvested acre (0 when none)."""
    open_plans: int
    """Planned or in-progress work plans."""


# -- rules ------------------------------------------------------------------------------------


def acres_of(points: tuple[Point, ...] | list[Point]) -> float:
    """The area of a small lat/lon polygon in acres (local equirectangular projection)."""
    lat0 = math.radians(sum(p.lat for p in points) / len(points))
    xy = [(p.lon * 111_320 * math.cos(lat0), p.lat * 110_540) for p in points]
    area = 0.0
    for (x1, y1), (x2, y2) in zip(xy, xy[1:] + xy[:1], strict=True):
        area += x1 * y2 - x2 * y1
    return round(abs(area) / 2 / SQ_M_PER_ACRE, 2)


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a staff operator", field=field, hint="use an employee's e-mail")


def _plan(ctx: Ctx, plan_id: str, allowed: tuple[str, ...], verb: str) -> WorkPlan:
    plan = ctx.get(WorkPlan, plan_id, field="work_plan_id")
    if plan.status not in allowed:
        raise RuleViolation(
            f"work plan {plan.id} is {plan.status}; only a {' or '.join(allowed)} plan can be {verb}",
            field="work_plan_id",
            hint="check it with farmops__get_work_plan",
        )
    return plan


def _busy(ctx: Ctx, machine_id: str, but: str | None = None) -> WorkPlan | None:
    return next((p for p in ctx.where(WorkPlan, machine_id=machine_id, status="in_progress") if p.id != but), None)


def _guard_machine(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "maintenance" and old.status != "maintenance" and _busy(ctx, new.id) is not None:
        raise Conflict(f"machine {new.name} is working", field="machine_id", hint="complete its work plan first")
    if new.engine_hours < old.engine_hours:
        raise RuleViolation("engine hours never go down", field="engine_hours", hint=f"at least {old.engine_hours}")


def _guard_field(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "archived" and any(
        p.status in ("planned", "in_progress") for p in ctx.where(WorkPlan, field_id=new.id)
    ):
        raise Conflict("the field has open work plans", field="field_id", hint="complete or cancel them first")


organizations = service.resource(
    Organization,
    name="organization",
    plural="organizations",
    prefix="org",
    create=False,
    filters=("connected",),
    search=("name",),
    delete=False,
)
farms = service.resource(
    Farm,
    name="farm",
    plural="farms",
    prefix="farm",
    create=("org_id", "name"),
    filters=("org_id",),
    search=("name",),
    update=("name",),
    delete=False,
)
fields = service.resource(
    FarmField,
    name="field",
    plural="fields",
    prefix="fld",
    create=False,
    filters=("farm_id", "org_id", "status"),
    search=("name",),
    update=("name",),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the field")},
    guard_update=_guard_field,
)
seasons = service.resource(
    Season,
    name="season",
    plural="seasons",
    prefix="ssn",
    create=False,
    filters=("field_id", "year", "crop", "status"),
    update=("variety", "target_yield"),
    delete=False,
    title="crop season",
)
machines = service.resource(
    Machine,
    name="machine",
    plural="machines",
    prefix="mch",
    create=False,
    filters=("machine_type", "status"),
    search=("name",),
    update=("name", "engine_hours"),
    delete=False,
    transitions={
        "service": Transition("status", ("available",), "maintenance", "send the machine to maintenance"),
        "release": Transition("status", ("maintenance",), "available", "return the machine from maintenance"),
    },
    guard_update=_guard_machine,
)
work_plans = service.resource(
    WorkPlan,
    name="work_plan",
    plural="work_plans",
    prefix="wp",
    create=False,
    filters=("field_id", "season_id", "operation", "machine_id", "operator_email", "status"),
    search=("instructions",),
    delete=False,
)
harvests = service.resource(
    Harvest,
    name="harvest",
    plural="harvests",
    prefix="hv",
    create=False,
    get=False,
    filters=("field_id", "season_id"),
    delete=False,
    title="harvest record",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_field(ctx: Ctx) -> dict[str, Any] | None:
    farm = ctx.first(Farm)
    corners = [(41.90, -93.60), (41.90, -93.59), (41.907, -93.59), (41.907, -93.60)]
    return (
        None
        if farm is None
        else {
            "farm_id": farm.id,
            "name": "North 80",
            "boundary": [{"lat": a, "lon": b} for a, b in corners],
        }
    )


@service.tool(intent="add the field with its boundary", write=True, example=_example_field)
def create_field(
    ctx: Ctx, farm_id: FarmId, name: Title, boundary: Annotated[list[Point], Field(min_length=3, max_length=200)]
) -> FarmField:
    """Add a field to a farm from its boundary polygon; its acres are computed from the boundary.

    Args:
        farm_id: The farm.
        name: The field's name (unique on the farm).
        boundary: Corners of the boundary in order (at least 3).
    """
    farm = ctx.get(Farm, farm_id, field="farm_id")
    if any(f.name.lower() == name.lower() for f in ctx.where(FarmField, farm_id=farm.id)):
        raise Conflict(f"farm {farm.name} already has a field {name!r}", field="name", hint="pick another name")
    acres = acres_of(boundary)
    if acres < 0.1:
        raise RuleViolation("the boundary encloses no area", field="boundary", hint="list the corners in order")
    return ctx.create(FarmField, farm_id=farm.id, org_id=farm.org_id, name=name, boundary=tuple(boundary), acres=acres)


def _example_season(ctx: Ctx) -> dict[str, Any] | None:
    for f in ctx.where(FarmField, status="active"):
        year = ctx.today().year + 1
        if not ctx.where(Season, field_id=f.id, year=year):
            return {"field_id": f.id, "year": year, "crop": "soybeans", "target_yield": 58.0}
    return None


@service.tool(intent="plan the crop season", write=True, example=_example_season)
def plan_season(
    ctx: Ctx,
    field_id: FieldId,
    year: Year,
    crop: Crop,
    target_yield: Annotated[float, Field(gt=0, le=400)],
    variety: Annotated[str, StringConstraints(min_length=1, max_length=60)] | None = None,
) -> Season:
    """Plan the crop of an active field for a year (one season per field and year, not in the past).

    Args:
        field_id: The field.
        year: The crop year.
        crop: The crop.
        target_yield: Target bushels per acre.
        variety: The seed variety.
    """
    fld = ctx.get(FarmField, field_id, field="field_id")
    if fld.status != "active":
        raise RuleViolation(f"field {fld.name} is archived", field="field_id", hint="plan an active field")
    if year < ctx.today().year:
        raise RuleViolation(f"{year} is past", field="year", hint="plan this year or later")
    if ctx.where(Season, field_id=fld.id, year=year):
        raise Conflict(f"field {fld.name} already has a {year} season", field="year", hint="update that season")
    return ctx.create(Season, field_id=fld.id, year=year, crop=crop, target_yield=target_yield, variety=variety)


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "R4045 sprayer", "machine_type": "sprayer", "vin": "1N04045RXPD012345", "engine_hours": 120.0}


@service.tool(intent="register the machine", write=True, example=_example_register)
def register_machine(
    ctx: Ctx,
    name: Title,
    machine_type: MachineType,
    vin: Vin,
    engine_hours: Annotated[float, Field(ge=0, le=100000)] = 0.0,
) -> Machine:
    """Add a machine to the fleet; product identification numbers are unique.

    Args:
        name: Its name.
        machine_type: tractor, planter, sprayer or combine.
        vin: The 17-character product identification number.
        engine_hours: Current engine hours.
    """
    if ctx.first(Machine, vin=vin) is not None:
        raise Conflict(f"{vin} is already registered", field="vin", hint="update that machine instead")
    return ctx.create(Machine, name=name, machine_type=machine_type, vin=vin, engine_hours=engine_hours)


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Season, status="planned"):
        for m in ctx.where(Machine, machine_type="planter", status="available"):
            return {
                "season_id": s.id,
                "operation": "seeding",
                "machine_id": m.id,
                "operator_email": ctx.population.employees[0].email,
                "planned_date": (ctx.today() + dt.timedelta(days=20)).isoformat(),
            }
    return None


@service.tool(intent="create the work plan", write=True, example=_example_plan)
def create_work_plan(
    ctx: Ctx,
    season_id: SeasonId,
    operation: Operation,
    machine_id: MachineId,
    operator_email: Email,
    planned_date: Date,
    instructions: Text = "",
) -> WorkPlan:
    """Plan a field operation for a season with a machine of the right type and an operator.

    Args:
        season_id: The crop season.
        operation: tillage, seeding (season planned), application or harvest (season planted).
        machine_id: A tractor, planter, sprayer or combine, as the operation needs, not in maintenance.
        operator_email: The operator (employee).
        planned_date: When (today or later).
        instructions: Products, rates and notes.
    """
    season = ctx.get(Season, season_id, field="season_id")
    machine = ctx.get(Machine, machine_id, field="machine_id")
    if machine.machine_type != NEEDS[operation]:
        raise RuleViolation(
            f"{operation} needs a {NEEDS[operation]}, not a {machine.machine_type}",
            field="machine_id",
            hint=f"assign a {NEEDS[operation]}",
        )
    if machine.status != "available":
        raise RuleViolation(f"machine {machine.name} is in maintenance", field="machine_id", hint="pick another")
    if season.status == "harvested" or (operation == "seeding" and season.status != "planned"):
        raise RuleViolation(f"the season is {season.status}", field="season_id", hint="plan a season still to do")
    if operation == "harvest" and season.status != "planted":
        raise RuleViolation("harvest needs a planted season", field="season_id", hint="complete seeding first")
    _staff(ctx, operator_email, "operator_email")
    if planned_date < ctx.today():
        raise RuleViolation("planned_date is past", field="planned_date", hint="plan today or later")
    return ctx.create(
        WorkPlan,
        field_id=season.field_id,
        season_id=season.id,
        operation=operation,
        machine_id=machine.id,
        operator_email=operator_email,
        planned_date=planned_date,
        instructions=instructions,
    )


@service.tool(
    intent="start the work plan",
    write=True,
    example=first_example(
        WorkPlan, "work_plan_id", where={"status": "planned"}, match=lambda c, p: _busy(c, p.machine_id) is None
    ),
)
def start_work_plan(ctx: Ctx, work_plan_id: PlanId) -> WorkPlan:
    """Start a planned operation; its machine must be available and not busy on another plan.

    Args:
        work_plan_id: The work plan.
    """
    plan = _plan(ctx, work_plan_id, ("planned",), "started")
    machine = ctx.get(Machine, plan.machine_id)
    if machine.status != "available":
        raise RuleViolation(f"machine {machine.name} is in maintenance", field="work_plan_id", hint="reassign it")
    other = _busy(ctx, machine.id, plan.id)
    if other is not None:
        raise Conflict(
            f"machine {machine.name} is busy on work plan {other.id}", field="work_plan_id", hint="finish that first"
        )
    return ctx.update(plan, status="in_progress")


@service.tool(
    intent="complete the work plan",
    write=True,
    example=first_example(WorkPlan, "work_plan_id", where={"status": "in_progress"}, hours=6.5),
)
def complete_work_plan(ctx: Ctx, work_plan_id: PlanId, hours: Annotated[float, Field(gt=0, le=200)]) -> WorkPlan:
    """Complete an operation in progress, adding its hours to the machine; completed seeding plants the season.

    Args:
        work_plan_id: The work plan.
        hours: Engine hours the operation took.
    """
    plan = _plan(ctx, work_plan_id, ("in_progress",), "completed")
    machine = ctx.get(Machine, plan.machine_id)
    ctx.update(machine, engine_hours=round(machine.engine_hours + hours, 1))
    if plan.operation == "seeding":
        season = ctx.get(Season, plan.season_id)
        if season.status == "planned":
            ctx.update(season, status="planted", planted_on=ctx.today())
    return ctx.update(plan, status="completed")


@service.tool(
    intent="cancel the work plan",
    write=True,
    example=first_example(WorkPlan, "work_plan_id", where={"status": "planned"}),
)
def cancel_work_plan(ctx: Ctx, work_plan_id: PlanId) -> WorkPlan:
    """Cancel a planned or in-progress operation.

    Args:
        work_plan_id: The work plan.
    """
    plan = _plan(ctx, work_plan_id, ("planned", "in_progress"), "cancelled")
    return ctx.update(plan, status="cancelled")


def _example_harvest(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Season, status="planted"):
        fld = ctx.get(FarmField, s.field_id)
        done = sum(h.acres for h in ctx.where(Harvest, season_id=s.id))
        if fld.acres - done >= 1:
            return {"season_id": s.id, "acres": 1.0, "total_bushels": 180.0, "moisture": 17.5}
    return None


@service.tool(intent="record the harvest", write=True, example=_example_harvest)
def record_harvest(
    ctx: Ctx,
    season_id: SeasonId,
    acres: Acres,
    total_bushels: Annotated[float, Field(ge=0, le=10**8)],
    moisture: Annotated[float, Field(ge=5, le=40)],
) -> Harvest:
    """Record harvest on part of a planted season's field; at 95 % of the field the season is harvested.

    Args:
        season_id: The planted season.
        acres: Acres harvested (together never more than the field).
        total_bushels: Dry bushels.
        moisture: Grain moisture in percent.
    """
    season = ctx.get(Season, season_id, field="season_id")
    if season.status != "planted":
        raise RuleViolation(f"the season is {season.status}", field="season_id", hint="harvest a planted season")
    fld = ctx.get(FarmField, season.field_id)
    done = sum(h.acres for h in ctx.where(Harvest, season_id=season.id))
    if done + acres > fld.acres + 0.01:
        raise RuleViolation(
            f"only {fld.acres - done:.2f} of {fld.acres} acres are left", field="acres", hint="record what is left"
        )
    made = ctx.create(
        Harvest,
        field_id=fld.id,
        season_id=season.id,
        acres=acres,
        total_bushels=total_bushels,
        moisture=moisture,
        yield_per_acre=round(total_bushels / acres, 1),
    )
    if done + acres >= HARVESTED_SHARE * fld.acres:
        ctx.update(season, status="harvested")
    return made


@service.tool(intent="summarize the field's season", example=first_example(FarmField, "field_id"))
def field_summary(ctx: Ctx, field_id: FieldId) -> FieldSummary:
    """A field's acres, latest season, harvested acres and yield, and open work plans.

    Args:
        field_id: The field.
    """
    fld = ctx.get(FarmField, field_id, field="field_id")
    latest = max(ctx.where(Season, field_id=fld.id), key=lambda s: s.year, default=None)
    cut = [] if latest is None else ctx.where(Harvest, season_id=latest.id)
    acres = sum(h.acres for h in cut)
    return FieldSummary(
        field_id=fld.id,
        acres=fld.acres,
        crop=None if latest is None else latest.crop,
        season_status=None if latest is None else latest.status,
        harvested_acres=round(acres, 2),
        average_yield=round(sum(h.total_bushels for h in cut) / acres, 1) if acres else 0.0,
        open_plans=sum(p.status in ("planned", "in_progress") for p in ctx.where(WorkPlan, field_id=fld.id)),
    )


# -- seed -------------------------------------------------------------------------------------

FLEET: tuple[tuple[str, MachineType, str], ...] = (
    ("8R 410 tractor", "tractor", "1RW8410RXMD010101"),
    ("DB60 planter", "planter", "1A0DB60XXLM020202"),
    ("1775NT planter", "planter", "1A01775NTKM030303"),
    ("R4045 sprayer", "sprayer", "1N04045RXND040404"),
    ("S780 combine", "combine", "1H0S780XXMC050505"),
    ("X9 1100 combine", "combine", "1H0X911XXPC060606"),
)
CROPS: tuple[tuple[Crop, float], ...] = (("corn", 200.0), ("soybeans", 60.0), ("wheat", 75.0))


@service.seeder
def seed(s: SeedContext) -> None:
    """Grower organizations from customers, farms and rectangular fields in Iowa, last year's harvest, this year's plans."""
    pop = s.population
    year = s.now.year
    ops = pop.staff("Operations", fallback=3)
    fleet = [
        s.create(
            Machine,
            name=n,
            machine_type=t,
            vin=v,
            engine_hours=800.0 + 350 * k,
            status="maintenance" if k == 5 else "available",
        )
        for k, (n, t, v) in enumerate(FLEET)
    ]
    n = 0
    for k, company in enumerate(pop.customers[:6]):
        contact = pop.first_contact(company)
        if contact is None:
            continue
        org = s.create(Organization, name=company.name, contact_email=contact.email, connected=k != 5)
        for j in range(1 + k % 2):
            farm = s.create(Farm, org_id=org.id, name=f"{contact.last_name} Home Farm" if j == 0 else "River Bottom")
            for f in range(2):
                lat, lon = 41.8 + 0.05 * n, -93.9 + 0.04 * (k + f)
                dlat, dlon = 0.006 + 0.002 * (n % 3), 0.008 + 0.003 * (n % 2)
                corners = ((lat, lon), (lat, lon + dlon), (lat + dlat, lon + dlon), (lat + dlat, lon))
                pts = tuple(Point(lat=round(a, 5), lon=round(b, 5)) for a, b in corners)
                fld = s.create(
                    FarmField,
                    farm_id=farm.id,
                    org_id=org.id,
                    name=("North", "South")[f] + f" {40 + 40 * f}",
                    boundary=pts,
                    acres=acres_of(pts),
                )
                _seed_seasons(s, fld, n, year, fleet, ops)
                n += 1


def _seed_seasons(s: SeedContext, fld: FarmField, n: int, year: int, fleet: list[Machine], ops: list[Any]) -> None:
    crop, target = CROPS[n % 3]
    last = s.create(
        Season,
        field_id=fld.id,
        year=year - 1,
        crop=crop,
        target_yield=target,
        status="harvested",
        variety=f"P{1000 + 17 * n}",
        planted_on=dt.date(year - 1, 5, 1 + n % 20),
    )
    share = 0.5 if n % 2 else 1.0
    for part in (share, 1.0 - share):
        if part:
            acres = round(fld.acres * part, 2)
            bushels = round(acres * target * (0.9 + 0.05 * (n % 4)), 1)
            s.create(
                Harvest,
                field_id=fld.id,
                season_id=last.id,
                acres=acres,
                total_bushels=bushels,
                moisture=15.5 + n % 4,
                yield_per_acre=round(bushels / acres, 1),
                created_at=s.ago(days=150 - n),
            )
    nxt, nxt_target = CROPS[(n + 1) % 3]
    status: Any = "planted" if nxt == "wheat" else "planned"
    season = s.create(
        Season,
        field_id=fld.id,
        year=year,
        crop=nxt,
        target_yield=nxt_target,
        status=status,
        planted_on=dt.date(year - 1, 10, 5) if status == "planted" else None,
    )
    if n % 4 == 3:  # nothing scheduled yet on this field
        return
    op: Operation = "application" if status == "planted" else ("seeding" if n % 2 else "tillage")
    machine = next(m for m in fleet if m.machine_type == NEEDS[op])
    s.create(
        WorkPlan,
        field_id=fld.id,
        season_id=season.id,
        operation=op,
        machine_id=machine.id,
        operator_email=ops[n % len(ops)].email,
        planned_date=(s.now + dt.timedelta(days=10 + n)).date(),
        instructions="Follow the agronomist's prescription.",
        status="in_progress" if n == 1 else "planned",
        updated_at=s.ago(days=2),
    )
