"""Plantwise CMMS: the company's sites, equipment, work orders, preventive maintenance, spare parts and meters.

Modeled on the UpKeep API v2 (``/locations``, ``/assets``, ``/work-orders``,
``/preventive-maintenance``, ``/parts``, ``/meters`` and ``/meters/{id}/readings``,
``/requests``): work orders go open → in_progress ↔ on_hold → complete (or
cancelled), need an assignee to start, and completing one consumes the parts it
used from stock (refused when stock is short) and brings a down asset back to
operational; decommissioned assets take no new work orders. Work requests from
staff are pending → approved (which opens a work order) or declined. Preventive
maintenance schedules recur every N days and generate a work order when due,
never a second while one is still open. Meters record readings; a cumulative
meter never goes down, and a reading past the meter's threshold opens a
work order. Parts below their minimum quantity show as low stock.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    PostalAddress,
    Quantity,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "facilities",
    title="Plantwise CMMS",
    category="facilities_maintenance",
    modeled_on="UpKeep API v2: locations, assets, work orders, work requests, preventive maintenance schedules, "
    "parts inventory, meters and readings",
    description="Maintenance management for the company's buildings and equipment: sites, assets with their "
    "status, work orders assigned to technicians, work requests from staff, preventive maintenance schedules, "
    "the spare parts store and equipment meters that trigger work when a threshold is crossed.",
)

LocationId = Annotated[str, IdOf("facilities.location")]
AssetId = Annotated[str, IdOf("facilities.asset")]
WorkOrderId = Annotated[str, IdOf("facilities.work_order")]
RequestId = Annotated[str, IdOf("facilities.request")]
ScheduleId = Annotated[str, IdOf("facilities.pm_schedule")]
PartId = Annotated[str, IdOf("facilities.part")]
MeterId = Annotated[str, IdOf("facilities.meter")]

AssetStatus = Literal["operational", "down", "decommissioned"]
AssetCategory = Literal["hvac", "electrical", "plumbing", "production", "safety", "vehicle"]
Priority = Literal["low", "medium", "high", "urgent"]
WoStatus = Literal["open", "in_progress", "on_hold", "complete", "cancelled"]
WoCategory = Literal["corrective", "preventive", "inspection", "safety", "meter"]
RequestStatus = Literal["pending", "approved", "declined"]
SerialNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,32}$")]
"""A manufacturer's serial number."""
LIVE_WO: tuple[WoStatus, ...] = ("open", "in_progress", "on_hold")


class PartUse(Value):
    """Parts a work order used."""

    part_id: PartId = Field(description="The part.")
    quantity: Annotated[int, Field(ge=1, le=10000)] = Field(description="How many.")


class Location(Record):
    """A site or building the team maintains."""

    id: LocationId
    name: Title
    """Its name (unique)."""
    address: PostalAddress
    """Where it is."""
    manager_email: Email
    """The employee in charge of the site."""


class Asset(Record):
    """A piece of equipment at a location."""

    id: AssetId
    name: Title
    """Its name."""
    location_id: LocationId
    """Where it is."""
    category: AssetCategory
    """hvac, electrical, plumbing, production, safety or vehicle."""
    serial: SerialNumber
    """Its serial number (unique)."""
    vendor_name: CompanyName | None = None
    """The contractor that services it."""
    status: AssetStatus = "operational"
    """operational, down or decommissioned."""
    warranty_expires: Date | None = None
    """When the manufacturer's warranty ends."""


class WorkOrder(Record):
    """A job for the maintenance team."""

    id: WorkOrderId
    number: Annotated[OrderNumber, Generated("sequence", "WO-{n:05d}")]
    """The work order number."""
    title: Title
    """What to do."""
    description: Text = ""
    """Details."""
    asset_id: AssetId | None = None
    """The asset worked on."""
    location_id: LocationId
    """Where."""
    category: WoCategory = "corrective"
    """corrective, preventive, inspection, safety or meter."""
    priority: Priority = "medium"
    """low, medium, high or urgent."""
    status: WoStatus = "open"
    """open → in_progress ↔ on_hold → complete; or cancelled."""
    assignee_email: Email | None = None
    """The technician."""
    due_date: Date | None = None
    """When it must be done."""
    schedule_id: ScheduleId | None = None
    """The preventive schedule that generated it."""
    parts_used: tuple[PartUse, ...] = ()
    """Parts consumed on completion."""
    minutes_spent: Annotated[int, Field(ge=0, le=100000)] = 0
    """Labour time logged."""
    completed_at: DateTime | None = None
    """When it was completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Request(Record):
    """A work request from a member of staff."""

    id: RequestId
    title: Title
    """What is wrong."""
    description: Text = ""
    """Details."""
    location_id: LocationId
    """Where."""
    asset_id: AssetId | None = None
    """The asset, if known."""
    requested_by: Email
    """The employee asking."""
    status: RequestStatus = "pending"
    """pending → approved (a work order opens) or declined."""
    work_order_id: WorkOrderId | None = None
    """The work order it became."""
    decline_reason: Text | None = None
    """Why it was declined."""
    created_at: Annotated[DateTime, CREATED]
    """When it was filed."""


class PmSchedule(Record):
    """A preventive maintenance schedule: recurring work on an asset."""

    id: ScheduleId
    title: Title
    """The recurring work."""
    asset_id: AssetId
    """The asset."""
    every_days: Annotated[int, Field(ge=1, le=3650)]
    """How often, in days."""
    next_due: Date
    """When the next work order is due."""
    assignee_email: Email | None = None
    """Who does it."""
    active: bool = True
    """Whether it still generates work orders."""


class Part(Record):
    """A spare part kept in the store."""

    id: PartId
    name: Title
    """Its name."""
    part_number: Sku
    """Its part number (unique)."""
    quantity: Quantity
    """Units in stock."""
    minimum_quantity: Quantity = 0
    """Reorder below this."""
    unit_cost: Cents
    """Cost per unit in cents."""
    vendor_name: CompanyName | None = None
    """Who supplies it."""
    location_id: LocationId
    """The store it sits in."""


class Meter(Record):
    """A meter on an asset: run hours, distance, pressure, temperature or cycles."""

    id: MeterId
    asset_id: AssetId
    """The asset."""
    name: Title
    """What it measures."""
    unit: Literal["hours", "km", "psi", "celsius", "cycles"]
    """Its unit."""
    cumulative: bool = True
    """Whether readings only go up (hours, km, cycles)."""
    last_reading: float | None = None
    """The latest value."""
    last_read_at: DateTime | None = None
    """When it was last read."""
    threshold: float | None = None
    """A reading above this opens a work order."""


class StockAlert(Value):
    """A part below its minimum."""

    part_id: PartId
    """The part."""
    part_number: Sku
    """Its number."""
    quantity: int
    """In stock."""
    minimum_quantity: int
    """Its minimum."""
    reorder_cost: int
    """Cost in cents of topping it up to twice the minimum."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use a team member's e-mail")


def _usable_asset(ctx: Ctx, asset_id: str | None, location_id: str | None) -> None:
    if asset_id is None:
        return
    asset = ctx.get(Asset, asset_id, field="asset_id")
    if asset.status == "decommissioned":
        raise RuleViolation(f"asset {asset.name} is decommissioned", field="asset_id", hint="pick a live asset")
    if location_id is not None and asset.location_id != location_id:
        raise RuleViolation("the asset is at another location", field="asset_id", hint="use the asset's location")


def _guard_wo(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Location, new.location_id, field="location_id")
        _usable_asset(ctx, new.asset_id, new.location_id)
    _staff(ctx, new.assignee_email, "assignee_email")
    if old is not None and old.status in ("complete", "cancelled"):
        raise RuleViolation(f"work order {old.number} is {old.status}", field="work_order_id", hint="open a new one")
    if new.status == "in_progress" and new.assignee_email is None:
        raise RuleViolation("nobody is assigned", field="work_order_id", hint="assign a technician first")


def _guard_request(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Location, new.location_id, field="location_id")
    _usable_asset(ctx, new.asset_id, new.location_id)
    _staff(ctx, new.requested_by, "requested_by")


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _usable_asset(ctx, new.asset_id, None)
    _staff(ctx, new.assignee_email, "assignee_email")


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "decommissioned":
        raise RuleViolation("the asset is decommissioned", field="asset_id", hint="decommissioning is final")
    if new.status == "decommissioned":
        live = [w for w in ctx.where(WorkOrder, asset_id=new.id) if w.status in LIVE_WO]
        if live:
            raise RuleViolation(
                f"work order {live[0].number} is still {live[0].status}", field="asset_id", hint="close it first"
            )
        for sched in ctx.where(PmSchedule, asset_id=new.id, active=True):
            ctx.update(sched, active=False)


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("manager_email",),
    search=("name",),
    delete=False,
    unique=("name",),
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=False,
    filters=("location_id", "category", "status", "vendor_name"),
    search=("name", "serial"),
    update=("name", "vendor_name", "warranty_expires"),
    delete=False,
    unique=("serial",),
    transitions={
        "mark_down": Transition("status", ("operational",), "down", "mark the asset down"),
        "decommission": Transition(
            "status",
            ("operational", "down"),
            "decommissioned",
            "decommission the asset",
            description="Retire an asset with no open work order; its preventive schedules stop.",
            destructive=True,
        ),
    },
    guard_update=_guard_asset,
)
work_orders = service.resource(
    WorkOrder,
    name="work_order",
    plural="work_orders",
    prefix="wo",
    create=("title", "description", "asset_id", "location_id", "category", "priority", "assignee_email", "due_date"),
    filters=("status", "asset_id", "location_id", "assignee_email", "priority", "category", "schedule_id"),
    search=("title", "description"),
    update=("title", "description", "priority", "assignee_email", "due_date", "parts_used", "minutes_spent"),
    delete=False,
    transitions={
        "start": Transition("status", ("open", "on_hold"), "in_progress", "start the work order"),
        "hold": Transition("status", ("in_progress",), "on_hold", "put the work order on hold"),
        "cancel": Transition("status", ("open", "on_hold"), "cancelled", "cancel the work order"),
    },
    guard_create=_guard_wo,
    guard_update=_guard_wo,
    title="work order",
)
requests = service.resource(
    Request,
    name="request",
    plural="requests",
    prefix="req",
    create=("title", "description", "location_id", "asset_id", "requested_by"),
    filters=("status", "location_id", "requested_by", "asset_id"),
    search=("title",),
    delete=False,
    guard_create=_guard_request,
    title="work request",
)
schedules = service.resource(
    PmSchedule,
    name="pm_schedule",
    plural="pm_schedules",
    prefix="pm",
    create=("title", "asset_id", "every_days", "next_due", "assignee_email"),
    get=False,
    filters=("asset_id", "active", "assignee_email"),
    update=("title", "every_days", "next_due", "assignee_email", "active"),
    delete=False,
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
    title="preventive maintenance schedule",
)
parts = service.resource(
    Part,
    name="part",
    plural="parts",
    prefix="prt",
    create=("name", "part_number", "quantity", "minimum_quantity", "unit_cost", "vendor_name", "location_id"),
    filters=("part_number", "vendor_name", "location_id"),
    search=("name", "part_number"),
    update=("name", "minimum_quantity", "unit_cost", "vendor_name"),
    delete=False,
    unique=("part_number",),
)
meters = service.resource(
    Meter,
    name="meter",
    plural="meters",
    prefix="mtr",
    create=False,
    get=False,
    filters=("asset_id", "unit"),
    update=("threshold",),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="add the asset",
    write=True,
    example=first_example(
        Location,
        "location_id",
        name="Loading dock door",
        category="safety",
        serial="HOR-2024-0042",
        vendor_name="Hormann",
    ),
)
def add_asset(
    ctx: Ctx,
    location_id: LocationId,
    name: Title,
    category: AssetCategory,
    serial: SerialNumber,
    vendor_name: CompanyName | None = None,
    warranty_expires: Date | None = None,
) -> Asset:
    """Add a piece of equipment to a location; serial numbers are unique.

    Args:
        location_id: Where it is.
        name: Its name.
        category: hvac, electrical, plumbing, production, safety or vehicle.
        serial: Its serial number.
        vendor_name: Who services it.
        warranty_expires: When the manufacturer's warranty ends.
    """
    ctx.get(Location, location_id, field="location_id")
    other = ctx.first(Asset, serial=serial)
    if other is not None:
        raise Conflict(f"asset {other.name} has serial {serial}", field="serial", hint="check the nameplate")
    return ctx.create(
        Asset,
        location_id=location_id,
        name=name,
        category=category,
        serial=serial,
        vendor_name=vendor_name,
        warranty_expires=warranty_expires,
    )


@service.tool(
    intent="complete the work order",
    write=True,
    example=first_example(WorkOrder, "work_order_id", where={"status": "in_progress"}, minutes_spent=45),
)
def complete_work_order(ctx: Ctx, work_order_id: WorkOrderId, minutes_spent: int | None = None) -> WorkOrder:
    """Complete a work order in progress: its parts leave stock and a down asset is operational again.

    Args:
        work_order_id: The work order.
        minutes_spent: Labour time to log (default: what is logged already).
    """
    wo = ctx.get(WorkOrder, work_order_id, field="work_order_id")
    if wo.status != "in_progress":
        raise RuleViolation(
            f"work order {wo.number} is {wo.status}", field="work_order_id", hint="start it before completing it"
        )
    if minutes_spent is not None and minutes_spent < 0:
        raise RuleViolation("minutes_spent is negative", field="minutes_spent", hint="log 0 or more minutes")
    for use in wo.parts_used:
        part = ctx.get(Part, use.part_id, field="work_order_id")
        if part.quantity < use.quantity:
            raise RuleViolation(
                f"only {part.quantity} of {part.part_number} in stock, {use.quantity} used",
                field="work_order_id",
                hint="restock the part with facilities__restock_part first",
            )
        ctx.update(part, quantity=part.quantity - use.quantity)
    if wo.asset_id is not None:
        asset = ctx.get(Asset, wo.asset_id)
        if asset.status == "down":
            ctx.update(asset, status="operational")
    return ctx.update(
        wo,
        status="complete",
        completed_at=ctx.now(),
        minutes_spent=wo.minutes_spent if minutes_spent is None else minutes_spent,
    )


@service.tool(
    intent="approve the work request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "pending"}, priority="high"),
)
def approve_request(
    ctx: Ctx, request_id: RequestId, priority: Priority = "medium", assignee_email: Email | None = None
) -> WorkOrder:
    """Approve a pending work request: a corrective work order opens for it.

    Args:
        request_id: The request.
        priority: low, medium, high or urgent.
        assignee_email: The technician to assign.
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status != "pending":
        raise Conflict(f"the request is already {req.status}", field="request_id", hint="only pending requests")
    _staff(ctx, assignee_email, "assignee_email")
    _usable_asset(ctx, req.asset_id, None)
    wo = ctx.create(
        WorkOrder,
        title=req.title,
        description=req.description,
        asset_id=req.asset_id,
        location_id=req.location_id,
        priority=priority,
        assignee_email=assignee_email,
    )
    ctx.update(req, status="approved", work_order_id=wo.id)
    return wo


@service.tool(
    intent="decline the work request",
    write=True,
    example=first_example(Request, "request_id", where={"status": "pending"}, reason="Duplicate of an open order."),
)
def decline_request(ctx: Ctx, request_id: RequestId, reason: Text) -> Request:
    """Decline a pending work request, saying why.

    Args:
        request_id: The request.
        reason: Why (required).
    """
    req = ctx.get(Request, request_id, field="request_id")
    if req.status != "pending":
        raise Conflict(f"the request is already {req.status}", field="request_id", hint="only pending requests")
    if not reason.strip():
        raise RuleViolation("declining needs a reason", field="reason", hint="tell the requester why")
    return ctx.update(req, status="declined", decline_reason=reason.strip())


@service.tool(intent="generate the preventive work orders that are due", write=True, example=fixed_example())
def generate_due_work_orders(ctx: Ctx, within_days: Annotated[int, Field(ge=0, le=90)] = 0) -> list[WorkOrder]:
    """Open a preventive work order for every active schedule due within the days, and move it to its next date.

    A schedule whose previous work order is still open is skipped.

    Args:
        within_days: Also generate for schedules due this many days ahead.
    """
    horizon = ctx.today() + dt.timedelta(days=within_days)
    made: list[WorkOrder] = []
    for sched in ctx.where(PmSchedule, active=True):
        if sched.next_due > horizon:
            continue
        if any(w.status in LIVE_WO for w in ctx.where(WorkOrder, schedule_id=sched.id)):
            continue
        asset = ctx.get(Asset, sched.asset_id)
        made.append(
            ctx.create(
                WorkOrder,
                title=sched.title,
                asset_id=asset.id,
                location_id=asset.location_id,
                category="preventive",
                assignee_email=sched.assignee_email,
                due_date=sched.next_due,
                schedule_id=sched.id,
            )
        )
        ctx.update(sched, next_due=sched.next_due + dt.timedelta(days=sched.every_days))
    return made


def _example_reading(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(Meter, cumulative=True)
    return None if m is None else {"meter_id": m.id, "value": (m.last_reading or 0) + 5}


@service.tool(intent="record a meter reading", write=True, example=_example_reading)
def add_meter_reading(ctx: Ctx, meter_id: MeterId, value: float) -> Meter:
    """Record a meter reading; a cumulative meter never goes down, and a value past the threshold opens a work order.

    Args:
        meter_id: The meter.
        value: The reading, in the meter's unit.
    """
    meter = ctx.get(Meter, meter_id, field="meter_id")
    asset = ctx.get(Asset, meter.asset_id)
    if asset.status == "decommissioned":
        raise RuleViolation("the asset is decommissioned", field="meter_id", hint="its meters are no longer read")
    if meter.cumulative and meter.last_reading is not None and value < meter.last_reading:
        raise RuleViolation(
            f"{meter.name} last read {meter.last_reading} {meter.unit}",
            field="value",
            hint="a cumulative meter only counts up; check the value",
        )
    crossed = meter.threshold is not None and value > meter.threshold
    already = any(w.status in LIVE_WO for w in ctx.where(WorkOrder, asset_id=asset.id, category="meter"))
    if crossed and not already:
        ctx.create(
            WorkOrder,
            title=f"{meter.name} above {meter.threshold} {meter.unit} on {asset.name}",
            asset_id=asset.id,
            location_id=asset.location_id,
            category="meter",
            priority="high",
        )
    return ctx.update(meter, last_reading=value, last_read_at=ctx.now())


@service.tool(
    intent="restock the part",
    write=True,
    example=first_example(Part, "part_id", quantity=10),
)
def restock_part(ctx: Ctx, part_id: PartId, quantity: Annotated[int, Field(ge=1, le=100000)]) -> Part:
    """Add received units of a part to stock.

    Args:
        part_id: The part.
        quantity: Units received (at least 1).
    """
    part = ctx.get(Part, part_id, field="part_id")
    return ctx.update(part, quantity=part.quantity + quantity)


@service.tool(intent="list the parts low on stock", example=fixed_example())
def low_stock_parts(ctx: Ctx) -> list[StockAlert]:
    """Parts below their minimum quantity, with what topping them up to twice the minimum costs."""
    return [
        StockAlert(
            part_id=p.id,
            part_number=p.part_number,
            quantity=p.quantity,
            minimum_quantity=p.minimum_quantity,
            reorder_cost=(2 * p.minimum_quantity - p.quantity) * p.unit_cost,
        )
        for p in ctx.scan(Part)
        if p.quantity < p.minimum_quantity
    ]


# -- seed -------------------------------------------------------------------------------------

ASSETS: tuple[tuple[str, AssetCategory, str], ...] = (
    ("Rooftop AC unit", "hvac", "Carrier"),
    ("Air handling unit", "hvac", "Trane"),
    ("Main switchboard", "electrical", "Schneider"),
    ("Backup generator", "electrical", "Cummins"),
    ("Hot water boiler", "plumbing", "Viessmann"),
    ("Passenger lift", "safety", "Otis"),
    ("Fire alarm panel", "safety", "Honeywell"),
    ("Forklift", "vehicle", "Toyota"),
)
PARTS: tuple[tuple[str, str, int, int, int], ...] = (
    ("Air filter 24x24 MERV 13", "FLT-2424-M13", 18, 10, 2400),
    ("V-belt A42", "BLT-A42", 3, 4, 1150),
    ("Contactor 40A", "ELC-CT40", 6, 2, 5400),
    ("Boiler ignition electrode", "BLR-IGN-02", 1, 2, 3900),
    ("Hydraulic oil 20 L", "OIL-HYD-20", 5, 2, 8900),
    ("Smoke detector head", "FIR-SD-100", 12, 6, 4500),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's sites with equipment, parts, meters, schedules, requests and work orders in every state."""
    pop = s.population
    home = pop.home
    techs = pop.staff("Operations", "Facilities", fallback=4)
    staff = pop.employees
    today = s.now.date()
    vendors = pop.customers[-6:] or (home,)
    sites = [
        s.create(Location, name=f"{home.name} HQ", address=home.address, manager_email=techs[0].email),
        s.create(
            Location,
            name=f"{home.name} Warehouse",
            address=home.address.model_copy(update={"street": "Unit 4, Riverside Industrial Estate"}),
            manager_email=techs[-1].email,
        ),
    ]
    made: list[Asset] = []
    for k, (name, cat, vendor) in enumerate(ASSETS):
        made.append(
            s.create(
                Asset,
                name=name,
                location_id=sites[1 if cat == "vehicle" or k == 3 else 0].id,
                category=cat,
                serial=f"{vendor[:3].upper()}-{2019 + k % 5}-{4100 + 37 * k}",
                vendor_name=vendors[k % len(vendors)].name,
                status="down" if k == 1 else "operational",
                warranty_expires=today + dt.timedelta(days=-200 + 180 * k),
            )
        )
    for name, number, qty, minimum, cost in PARTS:
        s.create(
            Part,
            name=name,
            part_number=number,
            quantity=qty,
            minimum_quantity=minimum,
            unit_cost=cost,
            vendor_name=vendors[(qty + minimum) % len(vendors)].name,
            location_id=sites[1].id,
        )
    s.create(
        Meter,
        asset_id=made[3].id,
        name="Run hours",
        unit="hours",
        last_reading=1840.0,
        threshold=2000.0,
        last_read_at=s.ago(days=7),
    )
    s.create(
        Meter,
        asset_id=made[7].id,
        name="Engine hours",
        unit="hours",
        last_reading=5120.0,
        threshold=5250.0,
        last_read_at=s.ago(days=3),
    )
    s.create(
        Meter,
        asset_id=made[4].id,
        name="Supply pressure",
        unit="psi",
        cumulative=False,
        last_reading=18.0,
        threshold=30.0,
        last_read_at=s.ago(days=1),
    )
    for k, (title, idx, every, due) in enumerate(
        (
            ("Quarterly filter change", 0, 90, -2),
            ("Monthly generator test run", 3, 30, 5),
            ("Annual lift inspection", 5, 365, 40),
            ("Boiler service", 4, 180, 0),
        )
    ):
        s.create(
            PmSchedule,
            title=title,
            asset_id=made[idx].id,
            every_days=every,
            next_due=today + dt.timedelta(days=due),
            assignee_email=techs[k % len(techs)].email,
        )
    orders: tuple[tuple[str, int, WoStatus, Priority, bool], ...] = (
        ("AHU fan not spinning", 1, "in_progress", "urgent", True),
        ("Replace worn belt on AHU", 1, "on_hold", "high", True),
        ("Leaking valve in boiler room", 4, "open", "medium", False),
        ("Emergency lighting test", 6, "complete", "low", True),
        ("Forklift horn broken", 7, "open", "low", True),
        ("Relabel switchboard circuits", 2, "cancelled", "low", False),
    )
    for k, (title, idx, status, prio, assigned) in enumerate(orders):
        asset = made[idx]
        s.create(
            WorkOrder,
            title=title,
            asset_id=asset.id,
            location_id=asset.location_id,
            priority=prio,
            status=status,
            assignee_email=techs[k % len(techs)].email if assigned else None,
            due_date=today + dt.timedelta(days=3 - k),
            parts_used=(PartUse(part_id=s.records(Part)[1].id, quantity=1),) if k == 1 else (),
            minutes_spent=90 if status == "complete" else 0,
            completed_at=s.ago(days=2) if status == "complete" else None,
            created_at=s.ago(days=10 - k),
            updated_at=s.ago(days=1),
        )
    for k, title in enumerate(("Meeting room 3 too warm", "Kitchen sink blocked", "Flickering light in stairwell")):
        s.create(
            Request,
            title=title,
            location_id=sites[0].id,
            asset_id=made[0].id if k == 0 else None,
            requested_by=staff[(5 * k + 3) % len(staff)].email,
            created_at=s.ago(hours=20 - 5 * k),
        )
