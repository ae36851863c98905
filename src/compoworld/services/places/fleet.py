"""Roadmetric Fleet: vehicles, drivers, trips, maintenance schedules and work orders, fuel logs and vehicle locations.

Modeled on the Samsara API (Vehicles, Drivers with license and hours-of-service
status, Trips, Vehicle locations / stats, Maintenance: DVIR defects and work
orders, Fuel & Energy logs): a trip starts only with an active vehicle that is
not on another trip and has no overdue safety-critical maintenance, and a
driver who is not driving, holds an unexpired license and has driving time left
today (11 hours); ending a trip needs an odometer reading at or above the
start, moves the vehicle's odometer and charges the driving time; a fuel fill
is no larger than the tank, never for an electric vehicle, and its odometer
never goes backwards; a work order sends the vehicle to the shop (not while it
is on a trip), and completing it returns the vehicle to service and resets the
maintenance schedule it was for.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Place
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    Latitude,
    Longitude,
    OrderNumber,
    PersonName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.places._shared import world_place
from compoworld.world.population import PLACES

__all__ = ["service"]

service = Service(
    "fleet",
    title="Roadmetric Fleet",
    category="fleet_telematics",
    modeled_on="Samsara API (Vehicles, Drivers and hours of service, Trips, Vehicle locations, Maintenance work "
    "orders and schedules, Fuel & Energy logs)",
    description="Fleet operations and telematics: the company's vehicles and drivers, trips with odometer and "
    "hours-of-service rules, preventive maintenance schedules and shop work orders with vendor invoices, fuel "
    "purchases, and where each vehicle was last seen.",
)

VehicleId = Annotated[str, IdOf("fleet.vehicle")]
DriverId = Annotated[str, IdOf("fleet.driver")]
TripId = Annotated[str, IdOf("fleet.trip")]
ScheduleId = Annotated[str, IdOf("fleet.maintenance_schedule")]
WorkOrderId = Annotated[str, IdOf("fleet.work_order")]
FuelLogId = Annotated[str, IdOf("fleet.fuel_log")]
LocationId = Annotated[str, IdOf("fleet.vehicle_location")]
Vin = Annotated[str, StringConstraints(pattern=r"^[A-HJ-NPR-Z0-9]{17}$")]
Plate = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9 -]{3,12}$")]
LicenseNumber = Annotated[str, StringConstraints(strip_whitespace=True, min_length=5, max_length=20)]
Km = Annotated[int, Field(ge=0, le=5_000_000)]
Liters = Annotated[float, Field(gt=0, le=2000)]
ServiceKind = Literal["oil_change", "tire_rotation", "brake_inspection", "annual_inspection"]
SAFETY: tuple[str, ...] = ("brake_inspection", "annual_inspection")
HOS_LIMIT = 660
"""Minutes a driver may drive in a day (11 hours)."""


class Vehicle(Record):
    """A vehicle with a telematics gateway."""

    id: VehicleId
    name: Title
    """Fleet name, e.g. 'Van 07'."""
    vin: Vin
    """Vehicle identification number; unique."""
    license_plate: Plate
    """Plate."""
    make: Title
    """Manufacturer."""
    vehicle_model: Title
    """Model name."""
    year: Annotated[int, Field(ge=1990, le=2030)]
    """Model year."""
    fuel_type: Literal["diesel", "gasoline", "electric"]
    """Fuel."""
    tank_capacity_liters: Annotated[int, Field(ge=0, le=2000)]
    """Tank size (0 for electric)."""
    odometer_km: Km
    """Odometer reading."""
    home_terminal: City
    """Depot the vehicle is based at."""
    status: Literal["active", "in_shop", "retired"] = "active"
    """active, in_shop (being serviced) or retired."""
    assigned_driver_id: DriverId | None = None
    """The driver usually assigned."""


class Driver(Record):
    """A driver with their license and hours-of-service state."""

    id: DriverId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    phone: Phone
    """Phone."""
    license_number: LicenseNumber
    """Driver's license number."""
    license_expires: Date
    """When the license expires; an expired license cannot drive."""
    duty_status: Literal["off_duty", "on_duty", "driving"] = "off_duty"
    """Hours-of-service duty status."""
    driving_minutes_today: Annotated[int, Field(ge=0, le=1440)] = 0
    """Minutes driven today; at most 660."""
    home_terminal: City
    """Depot the driver reports to."""


class Trip(Record):
    """A vehicle's journey with a driver."""

    id: TripId
    vehicle_id: VehicleId
    """The vehicle."""
    driver_id: DriverId
    """The driver."""
    status: Literal["in_progress", "completed"] = "in_progress"
    """in_progress or completed."""
    start_city: City
    """Where it started."""
    end_city: City | None = None
    """Where it ended."""
    start_odometer_km: Km
    """Odometer at the start."""
    end_odometer_km: Km | None = None
    """Odometer at the end."""
    distance_km: Km = 0
    """Distance driven."""
    order_number: OrderNumber | None = None
    """The delivery or sales order the trip serves."""
    purpose: Text = ""
    """Why."""
    started_at: DateTime
    """When it started."""
    ended_at: DateTime | None = None
    """When it ended."""


class MaintenanceSchedule(Record):
    """A recurring service a vehicle is due for every so many km or days."""

    id: ScheduleId
    vehicle_id: VehicleId
    """The vehicle."""
    service: ServiceKind
    """The service."""
    interval_km: Km | None = None
    """Due every this many km."""
    interval_days: Annotated[int, Field(ge=1, le=3650)] | None = None
    """Due every this many days."""
    last_done_odometer_km: Km
    """Odometer when last done."""
    last_done_date: Date
    """When last done."""


class WorkOrder(Record):
    """A shop visit: the vehicle is in the shop until the work order is completed."""

    id: WorkOrderId
    vehicle_id: VehicleId
    """The vehicle."""
    schedule_id: ScheduleId | None = None
    """The scheduled service it performs, if any."""
    description: Text
    """What is to be done."""
    vendor: CompanyName
    """The workshop."""
    status: Literal["open", "completed"] = "open"
    """open or completed."""
    cost: Cents | None = None
    """What it cost, in cents."""
    currency: Currency
    """Currency."""
    invoice_number: InvoiceNumber | None = None
    """The vendor's invoice."""
    odometer_km: Km
    """Odometer when opened."""
    opened_at: Annotated[DateTime, CREATED]
    """When it was opened."""
    completed_at: DateTime | None = None
    """When it was completed."""


class FuelLog(Record):
    """A fuel purchase."""

    id: FuelLogId
    vehicle_id: VehicleId
    """The vehicle."""
    driver_id: DriverId
    """Who filled up."""
    liters: Liters
    """Liters."""
    cost: Cents
    """Amount paid, in cents."""
    currency: Currency
    """Currency."""
    odometer_km: Km
    """Odometer at the pump."""
    station: CompanyName
    """Fuel station brand."""
    city: City
    """Where."""
    filled_at: Annotated[DateTime, CREATED]
    """When."""


class VehicleLocation(Record):
    """A GPS fix of a vehicle."""

    id: LocationId
    vehicle_id: VehicleId
    """The vehicle."""
    latitude: Latitude
    """Latitude."""
    longitude: Longitude
    """Longitude."""
    city: City
    """Nearest city."""
    speed_kmh: Annotated[int, Field(ge=0, le=250)] = 0
    """Speed."""
    recorded_at: DateTime
    """When."""


# -- rules -------------------------------------------------------------------------------------


def _due(s: MaintenanceSchedule, v: Vehicle, today: dt.date) -> tuple[int | None, int | None]:
    """(km left, days left) before the service is due; negative when overdue."""
    km_left = s.last_done_odometer_km + s.interval_km - v.odometer_km if s.interval_km else None
    days_left = (s.last_done_date + dt.timedelta(days=s.interval_days) - today).days if s.interval_days else None
    return km_left, days_left


def _overdue(s: MaintenanceSchedule, v: Vehicle, today: dt.date) -> bool:
    km_left, days_left = _due(s, v, today)
    return (km_left is not None and km_left <= 0) or (days_left is not None and days_left <= 0)


def _locate(ctx: Ctx, vehicle_id: str, city: str, speed: int = 0) -> None:
    place = world_place(city)
    lat, lon = (place.latitude, place.longitude) if place else (0.0, 0.0)
    ctx.create(
        VehicleLocation, vehicle_id=vehicle_id, latitude=lat, longitude=lon, city=city, speed_kmh=speed,
        recorded_at=ctx.now(),
    )  # fmt: skip


def _guard_vehicle(ctx: Ctx, new: Any, old: Any) -> None:
    if new.assigned_driver_id is not None and new.assigned_driver_id != old.assigned_driver_id:
        ctx.get(Driver, new.assigned_driver_id, field="assigned_driver_id")
    if new.status == "retired" and ctx.first(Trip, vehicle_id=new.id, status="in_progress") is not None:
        raise RuleViolation(
            f"vehicle {new.name} is on a trip", field="vehicle_id", hint="end the trip before retiring the vehicle"
        )
    if new.status == "retired" and ctx.first(WorkOrder, vehicle_id=new.id, status="open") is not None:
        raise RuleViolation(f"vehicle {new.name} has an open work order", field="vehicle_id", hint="complete it first")


def _guard_schedule(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Vehicle, new.vehicle_id, field="vehicle_id")
    if new.interval_km is None and new.interval_days is None:
        raise RuleViolation(
            "a schedule needs an interval", field="interval_km", hint="give interval_km, interval_days or both"
        )
    if new.interval_km is not None and new.interval_km < 500:
        raise RuleViolation("intervals are at least 500 km", field="interval_km", hint="give a realistic interval")
    if old is None:
        for other in ctx.where(MaintenanceSchedule, vehicle_id=new.vehicle_id, service=new.service):
            if other.id != new.id:
                raise Conflict(
                    f"the vehicle already has a {new.service} schedule ({other.id})",
                    field="service",
                    hint="update the existing schedule",
                )


vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    filters=("status", "fuel_type", "home_terminal", "assigned_driver_id", "license_plate", "vin"),
    search=("name", "make", "vehicle_model", "license_plate"),
    update=("name", "license_plate", "assigned_driver_id", "home_terminal"),
    delete=False,
    unique=("vin",),
    transitions={
        "retire": Transition(
            "status",
            ("active", "in_shop"),
            "retired",
            "retire the vehicle from the fleet",
            description="Retire a vehicle for good: sets status to 'retired'. Refused while it is on a trip or "
            "has an open work order.",
            destructive=True,
        )
    },
    guard_update=_guard_vehicle,
)
drivers = service.resource(
    Driver,
    name="driver",
    plural="drivers",
    prefix="drv",
    create=("name", "email", "phone", "license_number", "license_expires", "home_terminal"),
    filters=("email", "duty_status", "home_terminal"),
    search=("name", "email"),
    update=("phone", "license_number", "license_expires", "home_terminal"),
    delete=False,
    unique=("email", "license_number"),
)
trips = service.resource(
    Trip,
    name="trip",
    plural="trips",
    prefix="trp",
    create=False,
    filters=("vehicle_id", "driver_id", "status", "order_number"),
    delete=False,
)
schedules = service.resource(
    MaintenanceSchedule,
    name="maintenance_schedule",
    plural="maintenance_schedules",
    prefix="mnt",
    create=("vehicle_id", "service", "interval_km", "interval_days", "last_done_odometer_km", "last_done_date"),
    get=False,
    filters=("vehicle_id", "service"),
    update=("interval_km", "interval_days"),
    delete=False,
    guard_create=_guard_schedule,
    guard_update=_guard_schedule,
    title="maintenance schedule",
)
work_orders = service.resource(
    WorkOrder,
    name="work_order",
    plural="work_orders",
    prefix="wo",
    create=False,
    get=False,
    filters=("vehicle_id", "status", "vendor", "invoice_number"),
    delete=False,
)
fuel_logs = service.resource(
    FuelLog,
    name="fuel_log",
    plural="fuel_logs",
    prefix="fuel",
    create=False,
    get=False,
    filters=("vehicle_id", "driver_id", "station"),
    delete=False,
)
locations = service.resource(
    VehicleLocation,
    name="vehicle_location",
    plural="vehicle_locations",
    prefix="loc",
    create=False,
    get=False,
    filters=None,
    delete=False,
    title="vehicle location",
)


# -- examples ----------------------------------------------------------------------------------


def _startable(ctx: Ctx) -> tuple[Vehicle, Driver] | None:
    today = ctx.today()
    drivers_ok = [
        d
        for d in ctx.scan(Driver)
        if d.duty_status != "driving" and d.license_expires >= today and d.driving_minutes_today < HOS_LIMIT
    ]
    for v in ctx.where(Vehicle, status="active"):
        if ctx.first(Trip, vehicle_id=v.id, status="in_progress") is not None:
            continue
        if any(s.service in SAFETY and _overdue(s, v, today) for s in ctx.where(MaintenanceSchedule, vehicle_id=v.id)):
            continue
        if drivers_ok:
            return v, drivers_ok[0]
    return None


def _example_start(ctx: Ctx) -> dict[str, Any] | None:
    found = _startable(ctx)
    if found is None:
        return None
    v, d = found
    return {"vehicle_id": v.id, "driver_id": d.id, "start_city": v.home_terminal, "purpose": "Store delivery run"}


def _example_end(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(Trip, status="in_progress")
    if t is None:
        return None
    return {"trip_id": t.id, "end_city": t.start_city, "end_odometer_km": t.start_odometer_km + 42}


def _example_fuel(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.where(Vehicle, status="active"):
        if v.fuel_type != "electric":
            d = ctx.first(Driver)
            if d is None:
                return None
            return {
                "vehicle_id": v.id,
                "driver_id": d.id,
                "liters": min(40.0, float(v.tank_capacity_liters)),
                "cost": 7_200,
                "odometer_km": v.odometer_km + 5,
                "station": "Northway Fuel",
                "city": v.home_terminal,
            }
    return None


_example_open_wo = first_example(
    Vehicle,
    "vehicle_id",
    where={"status": "active"},
    match=lambda ctx, v: ctx.first(Trip, vehicle_id=v.id, status="in_progress") is None,
    description="Replace wiper blades",
    vendor="Granite Manufacturing",
)


# -- trips -------------------------------------------------------------------------------------


@service.tool(intent="start a trip with the vehicle", write=True, example=_example_start)
def start_trip(
    ctx: Ctx,
    vehicle_id: VehicleId,
    driver_id: DriverId,
    start_city: City,
    purpose: Text = "",
    order_number: OrderNumber | None = None,
) -> Trip:
    """Start a trip: the driver starts driving the vehicle from a city.

    The vehicle must be active, not on another trip and have no overdue
    brake or annual inspection; the driver must not be driving, must hold an
    unexpired license and have driving time left today (11 hours a day).

    Args:
        vehicle_id: The vehicle.
        driver_id: The driver.
        start_city: Where the trip starts.
        purpose: Why.
        order_number: The delivery or sales order it serves.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    d = ctx.get(Driver, driver_id, field="driver_id")
    if v.status != "active":
        raise RuleViolation(
            f"vehicle {v.name} is {v.status}", field="vehicle_id", hint="pick an active vehicle (not in the shop)"
        )
    running = ctx.first(Trip, vehicle_id=v.id, status="in_progress")
    if running is not None:
        raise Conflict(f"vehicle {v.name} is on trip {running.id}", field="vehicle_id", hint="end that trip first")
    today = ctx.today()
    for s in ctx.where(MaintenanceSchedule, vehicle_id=v.id):
        if s.service in SAFETY and _overdue(s, v, today):
            raise RuleViolation(
                f"vehicle {v.name} is overdue for its {s.service.replace('_', ' ')}",
                field="vehicle_id",
                hint="open a work order with fleet__open_work_order and complete it first",
            )
    if d.duty_status == "driving":
        raise Conflict(f"{d.name} is already driving", field="driver_id", hint="end the driver's current trip first")
    if d.license_expires < today:
        raise RuleViolation(
            f"{d.name}'s license expired on {d.license_expires}",
            field="driver_id",
            hint="renew the license (fleet__update_driver) or pick another driver",
        )
    if d.driving_minutes_today >= HOS_LIMIT:
        raise RuleViolation(
            f"{d.name} has used the 11 hours of driving allowed today",
            field="driver_id",
            hint="pick another driver",
        )
    ctx.update(d, duty_status="driving")
    _locate(ctx, v.id, start_city, speed=20)
    return ctx.create(
        Trip,
        vehicle_id=v.id,
        driver_id=d.id,
        start_city=start_city,
        start_odometer_km=v.odometer_km,
        order_number=order_number,
        purpose=purpose,
        started_at=ctx.now(),
    )


@service.tool(intent="end the trip", write=True, example=_example_end)
def end_trip(ctx: Ctx, trip_id: TripId, end_city: City, end_odometer_km: Km) -> Trip:
    """End a trip with the odometer reading; the vehicle's odometer and the driver's driving time follow.

    Args:
        trip_id: The trip in progress.
        end_city: Where it ended.
        end_odometer_km: Odometer at the end; at least the start reading.
    """
    t = ctx.get(Trip, trip_id, field="trip_id")
    if t.status != "in_progress":
        raise RuleViolation(f"trip {t.id} already ended", field="trip_id", hint="start a new trip instead")
    if end_odometer_km < t.start_odometer_km:
        raise RuleViolation(
            f"the odometer read {t.start_odometer_km} km at the start; {end_odometer_km} is lower",
            field="end_odometer_km",
            hint="give the reading on the dashboard now",
        )
    v = ctx.get(Vehicle, t.vehicle_id)
    d = ctx.get(Driver, t.driver_id)
    now = ctx.now()
    minutes = max(1, int((now - t.started_at).total_seconds() // 60))
    ctx.update(v, odometer_km=max(v.odometer_km, end_odometer_km))
    ctx.update(d, duty_status="on_duty", driving_minutes_today=min(1440, d.driving_minutes_today + minutes))
    _locate(ctx, v.id, end_city)
    return ctx.update(
        t,
        status="completed",
        end_city=end_city,
        end_odometer_km=end_odometer_km,
        distance_km=end_odometer_km - t.start_odometer_km,
        ended_at=now,
    )


# -- fuel and maintenance ----------------------------------------------------------------------


@service.tool(intent="log a fuel purchase", write=True, example=_example_fuel)
def log_fuel(
    ctx: Ctx,
    vehicle_id: VehicleId,
    driver_id: DriverId,
    liters: Liters,
    cost: Cents,
    odometer_km: Km,
    station: CompanyName,
    city: City,
) -> FuelLog:
    """Log a fuel fill: no more than the tank holds, never for an electric vehicle, odometer never backwards.

    Args:
        vehicle_id: The vehicle.
        driver_id: Who filled up.
        liters: Liters.
        cost: Amount paid, in cents.
        odometer_km: Odometer at the pump.
        station: Station brand.
        city: Where.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    ctx.get(Driver, driver_id, field="driver_id")
    if v.fuel_type == "electric":
        raise RuleViolation(
            f"vehicle {v.name} is electric", field="vehicle_id", hint="electric vehicles are charged, not fuelled"
        )
    if liters > v.tank_capacity_liters:
        raise RuleViolation(
            f"{liters} l is more than the {v.tank_capacity_liters} l tank of {v.name}",
            field="liters",
            hint="check the receipt; a fill cannot exceed the tank",
        )
    if odometer_km < v.odometer_km:
        raise RuleViolation(
            f"the odometer already reads {v.odometer_km} km", field="odometer_km", hint="give the current reading"
        )
    ctx.update(v, odometer_km=odometer_km)
    home = next((p for p in PLACES if p.city == v.home_terminal), None)
    return ctx.create(
        FuelLog,
        vehicle_id=v.id,
        driver_id=driver_id,
        liters=liters,
        cost=cost,
        currency=home.currency if home else ctx.population.home.place.currency,
        odometer_km=odometer_km,
        station=station,
        city=city,
    )


@service.tool(intent="send the vehicle to the workshop", write=True, example=_example_open_wo)
def open_work_order(
    ctx: Ctx, vehicle_id: VehicleId, description: Text, vendor: CompanyName, schedule_id: ScheduleId | None = None
) -> WorkOrder:
    """Open a work order at a workshop; the vehicle goes to the shop and cannot take trips until it is completed.

    Args:
        vehicle_id: The vehicle.
        description: What is to be done.
        vendor: The workshop.
        schedule_id: The scheduled service it performs, if any.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    if v.status == "retired":
        raise RuleViolation(
            f"vehicle {v.name} is retired", field="vehicle_id", hint="retired vehicles are not serviced"
        )
    if ctx.first(Trip, vehicle_id=v.id, status="in_progress") is not None:
        raise RuleViolation(
            f"vehicle {v.name} is on a trip", field="vehicle_id", hint="end the trip before sending it to the shop"
        )
    if schedule_id is not None:
        s = ctx.get(MaintenanceSchedule, schedule_id, field="schedule_id")
        if s.vehicle_id != v.id:
            raise RuleViolation(
                "the schedule is another vehicle's", field="schedule_id", hint="pick one of this vehicle's schedules"
            )
    if not description.strip():
        raise RuleViolation("describe the work", field="description", hint="e.g. 'Annual inspection'")
    ctx.update(v, status="in_shop")
    home = next((p for p in PLACES if p.city == v.home_terminal), None)
    return ctx.create(
        WorkOrder,
        vehicle_id=v.id,
        schedule_id=schedule_id,
        description=description.strip(),
        vendor=vendor,
        currency=home.currency if home else ctx.population.home.place.currency,
        odometer_km=v.odometer_km,
    )


@service.tool(
    intent="close the work order with the vendor's invoice",
    write=True,
    example=first_example(WorkOrder, "work_order_id", where={"status": "open"}, cost=24_000, invoice_number="WS-88121"),
)
def complete_work_order(ctx: Ctx, work_order_id: WorkOrderId, cost: Cents, invoice_number: InvoiceNumber) -> WorkOrder:
    """Complete an open work order with its cost and invoice; the vehicle returns to service and its schedule resets.

    Args:
        work_order_id: The open work order.
        cost: What the work cost, in cents.
        invoice_number: The vendor's invoice number.
    """
    wo = ctx.get(WorkOrder, work_order_id, field="work_order_id")
    if wo.status != "open":
        raise Conflict(f"work order {wo.id} is already completed", field="work_order_id", hint="nothing to do")
    v = ctx.get(Vehicle, wo.vehicle_id)
    if wo.schedule_id is not None:
        s = ctx.get(MaintenanceSchedule, wo.schedule_id)
        ctx.update(s, last_done_odometer_km=v.odometer_km, last_done_date=ctx.today())
    if ctx.first(WorkOrder, vehicle_id=v.id, status="open") is not None and v.status == "in_shop":
        others = [w for w in ctx.where(WorkOrder, vehicle_id=v.id, status="open") if w.id != wo.id]
        if not others:
            ctx.update(v, status="active")
    return ctx.update(wo, status="completed", cost=cost, invoice_number=invoice_number, completed_at=ctx.now())


class DueService(BaseModel):
    """A scheduled service and how soon it is due."""

    schedule_id: ScheduleId = Field(description="The schedule.")
    vehicle_id: VehicleId = Field(description="The vehicle.")
    vehicle_name: Title = Field(description="Its name.")
    service: ServiceKind = Field(description="The service.")
    km_left: int | None = Field(description="Km until due (negative: overdue).")
    days_left: int | None = Field(description="Days until due (negative: overdue).")
    overdue: bool = Field(description="Whether it is due now.")
    blocks_trips: bool = Field(description="Overdue safety inspections keep the vehicle off the road.")


@service.tool(intent="list the maintenance that is due")
def maintenance_due(
    ctx: Ctx, vehicle_id: VehicleId | None = None, within_km: Km = 1000, within_days: int = 30
) -> list[DueService]:
    """List scheduled services due within a distance or time, or overdue, most urgent first.

    Args:
        vehicle_id: Only this vehicle; omit for the whole fleet.
        within_km: Include services due within this many km.
        within_days: Include services due within this many days.
    """
    if vehicle_id is not None:
        ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    today = ctx.today()
    out: list[DueService] = []
    rows = ctx.where(MaintenanceSchedule, vehicle_id=vehicle_id) if vehicle_id else list(ctx.scan(MaintenanceSchedule))
    for s in rows:
        v = ctx.get(Vehicle, s.vehicle_id)
        if v.status == "retired":
            continue
        km_left, days_left = _due(s, v, today)
        soon = (km_left is not None and km_left <= within_km) or (days_left is not None and days_left <= within_days)
        if not soon:
            continue
        overdue = _overdue(s, v, today)
        out.append(
            DueService(
                schedule_id=s.id,
                vehicle_id=v.id,
                vehicle_name=v.name,
                service=s.service,
                km_left=km_left,
                days_left=days_left,
                overdue=overdue,
                blocks_trips=overdue and s.service in SAFETY,
            )
        )
    out.sort(key=lambda d: (not d.overdue, min(x for x in (d.km_left, d.days_left) if x is not None), d.schedule_id))
    return out


class Whereabouts(BaseModel):
    """Where a vehicle is and what it is doing."""

    vehicle_id: VehicleId = Field(description="The vehicle.")
    name: Title = Field(description="Its name.")
    latitude: Latitude = Field(description="Last latitude.")
    longitude: Longitude = Field(description="Last longitude.")
    city: City = Field(description="Nearest city.")
    recorded_at: DateTime = Field(description="When the fix was taken.")
    status: Literal["active", "in_shop", "retired"] = Field(description="Vehicle status.")
    on_trip: TripId | None = Field(description="The trip under way, if any.")
    driver_name: PersonName | None = Field(description="Who is driving, if on a trip.")
    odometer_km: Km = Field(description="Odometer.")


@service.tool(intent="find where the vehicle is", example=first_example(Vehicle, "vehicle_id"))
def vehicle_location(ctx: Ctx, vehicle_id: VehicleId) -> Whereabouts:
    """Show a vehicle's last GPS fix, and its trip and driver if it is on the road.

    Args:
        vehicle_id: The vehicle.
    """
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    fixes = ctx.where(VehicleLocation, vehicle_id=v.id)
    if not fixes:
        raise NotFound(f"vehicle {v.name} has reported no location", field="vehicle_id", hint="check its gateway")
    last = max(fixes, key=lambda f: (f.recorded_at, f.id))
    trip = ctx.first(Trip, vehicle_id=v.id, status="in_progress")
    return Whereabouts(
        vehicle_id=v.id,
        name=v.name,
        latitude=last.latitude,
        longitude=last.longitude,
        city=last.city,
        recorded_at=last.recorded_at,
        status=v.status,
        on_trip=trip.id if trip else None,
        driver_name=ctx.get(Driver, trip.driver_id).name if trip else None,
        odometer_km=v.odometer_km,
    )


# -- seed --------------------------------------------------------------------------------------

MODELS: tuple[tuple[str, str, str, str, int], ...] = (
    ("Van", "Ford", "Transit", "diesel", 80),
    ("Van", "Mercedes-Benz", "Sprinter", "diesel", 93),
    ("Truck", "Volvo", "FH16", "diesel", 400),
    ("Van", "Renault", "Kangoo E-Tech", "electric", 0),
    ("Truck", "Scania", "R450", "diesel", 500),
    ("Car", "Toyota", "Corolla", "gasoline", 50),
)
STATIONS = ("Northway Fuel", "Bluepoint Energy", "Roadstar Fuels")
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


@service.seeder
def seed(s: SeedContext) -> None:
    """The home company's vehicles and its operations staff as drivers, schedules, shop visits, trips and fuel."""
    home = s.population.home.place
    drivers = _seed_drivers(s, home)
    vehicles = _seed_vehicles(s, home, drivers)
    _seed_schedules_and_locations(s, home, vehicles)
    _seed_work_orders(s, home, vehicles)
    _seed_trips(s, home, vehicles, drivers)
    _seed_fuel_logs(s, home, vehicles, drivers)


def _seed_drivers(s: SeedContext, home: Place) -> list[Driver]:
    """Up to ten operations, sales and support staff; one with an expired license, one out of driving time."""
    today, day = s.now.date(), dt.timedelta(days=1)
    ops = s.population.staff("Operations", "Sales", "Support", fallback=0)
    return [
        s.create(
            Driver,
            name=p.name,
            email=p.email,
            phone=p.phone,
            license_number=f"{p.place.country}-{s.rng.randint(10_000_000, 99_999_999)}",
            license_expires=today - 20 * day if i == 3 else today + (200 + 90 * i) * day,
            driving_minutes_today=HOS_LIMIT if i == 5 else (0, 95, 240)[i % 3],
            duty_status="on_duty" if i % 2 else "off_duty",
            home_terminal=home.city,
        )
        for i, p in enumerate(ops[:10])
    ]


def _seed_vehicles(s: SeedContext, home: Place, drivers: list[Driver]) -> list[Vehicle]:
    """Ten vehicles at the home terminal, the first eight assigned a driver and the last retired."""
    vehicles: list[Vehicle] = []
    for k in range(10):
        kind, make, model, fuel, tank = MODELS[k % len(MODELS)]
        vehicles.append(
            s.create(
                Vehicle,
                name=f"{kind} {k + 1:02d}",
                vin="".join(s.rng.choice(VIN_CHARS) for _ in range(17)),
                license_plate=f"{home.country}-{s.rng.randint(1000, 9999)}-{chr(65 + k)}",
                make=make,
                vehicle_model=model,
                year=2016 + k % 8,
                fuel_type=fuel,
                tank_capacity_liters=tank,
                odometer_km=s.rng.randint(20_000, 240_000),
                home_terminal=home.city,
                status="retired" if k == 9 else "active",
                assigned_driver_id=drivers[k % len(drivers)].id if drivers and k < 8 else None,
            )
        )
    return vehicles


def _seed_schedules_and_locations(s: SeedContext, home: Place, vehicles: list[Vehicle]) -> None:
    """Each vehicle's maintenance plans (Truck 03's inspection and Van 05's oil change overdue) and last position."""
    today, day = s.now.date(), dt.timedelta(days=1)
    for k, v in enumerate(vehicles):
        plans: list[tuple[ServiceKind, int | None, int | None]] = [
            ("oil_change", 15_000, 365),
            ("annual_inspection", None, 365),
        ]
        if v.name.startswith("Truck"):
            plans.append(("brake_inspection", 40_000, None))
        for service_kind, every_km, every_days in plans:
            km_ago = (every_km or 10_000) * ((30 + 13 * k) % 90) // 100
            days_ago = (every_days or 365) * ((20 + 17 * k) % 85) // 100
            if k == 2 and service_kind == "annual_inspection":
                days_ago = 372  # overdue: keeps Truck 03 off the road
            if k == 4 and service_kind == "oil_change":
                km_ago = 15_400  # overdue oil change (not safety-critical)
            s.create(
                MaintenanceSchedule,
                vehicle_id=v.id,
                service=service_kind,
                interval_km=every_km,
                interval_days=every_days,
                last_done_odometer_km=max(0, v.odometer_km - km_ago),
                last_done_date=today - days_ago * day,
            )
        s.create(
            VehicleLocation,
            vehicle_id=v.id,
            latitude=round(home.latitude + (k - 5) * 0.004, 4),
            longitude=round(home.longitude + (k - 5) * 0.004, 4),
            city=home.city,
            recorded_at=s.now - dt.timedelta(hours=2 + k),
        )


def _seed_work_orders(s: SeedContext, home: Place, vehicles: list[Vehicle]) -> None:
    """Invoiced past shop visits of the first five vehicles; Van 06 is in the shop now (updated in ``vehicles``)."""
    customers = s.population.customers
    workshops = [c.name for c in customers if c.industry in ("manufacturing", "logistics", "hardware")] or [
        c.name for c in customers[:3]
    ]
    day = dt.timedelta(days=1)
    for k, v in enumerate(vehicles[:6]):
        opened = s.now - (40 - 5 * k) * day
        open_now = k == 5
        s.create(
            WorkOrder,
            vehicle_id=v.id,
            description=(
                "Oil and filter change",
                "Replace front tyres",
                "Brake pads",
                "Battery check",
                "Windscreen repair",
                "Gearbox noise",
            )[k],
            vendor=workshops[k % len(workshops)],
            status="open" if open_now else "completed",
            cost=None if open_now else s.rng.randint(120, 1400) * 100,
            currency=home.currency,
            invoice_number=None if open_now else f"WS-{70_000 + 37 * k}",
            odometer_km=v.odometer_km - 500 * (6 - k),
            opened_at=opened,
            completed_at=None if open_now else opened + 2 * day,
        )
        if open_now:
            vehicles[k] = s.update(v, status="in_shop")


def _seed_trips(s: SeedContext, home: Place, vehicles: list[Vehicle], drivers: list[Driver]) -> None:
    """Fourteen completed trips and two under way now (their drivers are updated in ``drivers``)."""
    now = s.now
    for t in range(14):
        v = vehicles[t % 5]
        d = drivers[t % len(drivers)]
        start = now - (t + 1) * dt.timedelta(hours=7)
        dist = s.rng.randint(15, 320)
        dest = PLACES[(t * 3) % len(PLACES)].city if dist > 200 else home.city
        s.create(
            Trip,
            vehicle_id=v.id,
            driver_id=d.id,
            status="completed",
            start_city=home.city,
            end_city=dest,
            start_odometer_km=v.odometer_km - dist - 50 * t,
            end_odometer_km=v.odometer_km - 50 * t,
            distance_km=dist,
            order_number=f"SO-{20001 + t}" if t % 2 == 0 else None,
            purpose=("Customer deliveries", "Warehouse transfer", "Supplier pickup")[t % 3],
            started_at=start,
            ended_at=start + dt.timedelta(hours=2 + dist // 80),
        )
    for t, (vi, di) in enumerate(((0, 1), (6, 6))):
        if vi >= len(vehicles) or di >= len(drivers):
            continue
        v, d = vehicles[vi], drivers[di]
        s.create(
            Trip,
            vehicle_id=v.id,
            driver_id=d.id,
            start_city=home.city,
            start_odometer_km=v.odometer_km,
            order_number=f"SO-{20100 + t}",
            purpose="Morning delivery round",
            started_at=now - dt.timedelta(minutes=50 + 20 * t),
        )
        drivers[di] = s.update(d, duty_status="driving")


def _seed_fuel_logs(s: SeedContext, home: Place, vehicles: list[Vehicle], drivers: list[Driver]) -> None:
    """A fill a day for the combustion vehicles among the first six."""
    day = dt.timedelta(days=1)
    for f in range(12):
        v = vehicles[f % 6]
        if v.fuel_type == "electric":
            continue
        liters = round(min(v.tank_capacity_liters, 30 + 7 * f) * 1.0, 1)
        s.create(
            FuelLog,
            vehicle_id=v.id,
            driver_id=drivers[f % len(drivers)].id,
            liters=liters,
            cost=int(liters * 185),
            currency=home.currency,
            odometer_km=v.odometer_km - 120 * (f + 1),
            station=STATIONS[f % 3],
            city=home.city,
            filled_at=s.now - (f + 1) * day,
        )
