"""Yellowline Transport: the district's bus routes, stops, riders, vehicles, drivers, field trips and route changes.

Modeled on Transfinder (Routefinder PLUS, Tripfinder, Viewfinder): vehicles
(bus number, seating capacity, wheelchair lifts, in service or in
maintenance), drivers with a CDL that expires, routes for an AM or PM run
with a vehicle and a driver, stops in sequence with a scheduled time, riders
(students) assigned to a stop of a route for a run, field trip requests from
staff (requested → approved or denied → scheduled with a vehicle and driver →
completed, or cancelled), and the route change log kept whenever a route's
vehicle, driver or stops change. A route's riders never exceed its vehicle's
seats; a rider who uses a wheelchair rides a bus with a lift; a rider has one
stop per run; a vehicle in maintenance runs no route or trip; a driver needs
a CDL valid on the day; a vehicle or driver does one field trip a day.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "schoolbus",
    title="Yellowline Transport",
    category="student_transportation",
    modeled_on="Transfinder Routefinder PLUS / Tripfinder (vehicles, drivers, routes with AM/PM runs, stops, "
    "student riders assigned to stops, field trip requests and scheduling, route change history)",
    description="Student transportation for the district: buses and drivers, AM and PM routes with their stops, "
    "the students who ride them, field trip requests from teachers and their scheduling, and the log of route "
    "changes.",
)

VehicleId = Annotated[str, IdOf("schoolbus.vehicle")]
DriverId = Annotated[str, IdOf("schoolbus.driver")]
RouteId = Annotated[str, IdOf("schoolbus.route")]
StopId = Annotated[str, IdOf("schoolbus.stop")]
RiderId = Annotated[str, IdOf("schoolbus.rider")]
SeatId = Annotated[str, IdOf("schoolbus.rider_assignment")]
TripId = Annotated[str, IdOf("schoolbus.field_trip")]
ChangeId = Annotated[str, IdOf("schoolbus.route_change")]

Run = Literal["am", "pm"]
ClockTime = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
"""A time of day, HH:MM."""
TripStatus = Literal["requested", "approved", "denied", "scheduled", "completed", "cancelled"]
MIN_NOTICE = 7


class Vehicle(Timestamped):
    """A bus."""

    id: VehicleId
    bus_number: Annotated[str, StringConstraints(pattern=r"^[0-9]{1,4}$")]
    """The number painted on it (unique)."""
    capacity: Annotated[int, Field(ge=1, le=90)]
    """Seated riders."""
    wheelchair_lifts: Annotated[int, Field(ge=0, le=4)] = 0
    """Wheelchair positions."""
    status: Literal["in_service", "maintenance", "retired"] = "in_service"
    """in_service, maintenance or retired."""


class Driver(Timestamped):
    """A bus driver."""

    id: DriverId
    name: PersonName
    """Their name."""
    email: Email
    """Their work e-mail."""
    cdl_expires_on: Date
    """When their commercial license expires."""


class Route(Timestamped):
    """A bus route run in the morning or afternoon."""

    id: RouteId
    code: Annotated[str, StringConstraints(pattern=r"^[A-Z]{1,3}-?[0-9]{1,3}$")]
    """Route code (unique per run)."""
    run: Run
    """am or pm."""
    school: Title
    """The school it serves."""
    vehicle_id: VehicleId
    """The bus."""
    driver_id: DriverId
    """The driver."""


class Stop(Created):
    """A stop on a route."""

    id: StopId
    route_id: RouteId
    """The route."""
    sequence: Annotated[int, Field(ge=1)]
    """Order on the route."""
    location: Title
    """Where (street corner or address)."""
    time: ClockTime
    """Scheduled time."""


class Rider(Timestamped):
    """A student who rides."""

    id: RiderId
    name: PersonName
    """The student's name."""
    grade: Annotated[int, Field(ge=0, le=12)]
    """Grade (0: kindergarten)."""
    school: Title
    """Their school."""
    guardian_email: Email
    """Their guardian's e-mail."""
    wheelchair: bool = False
    """Whether they ride in a wheelchair."""


class RiderAssignment(Created):
    """A rider's stop on a route for a run."""

    id: SeatId
    rider_id: RiderId
    """The rider."""
    route_id: RouteId
    """The route."""
    stop_id: StopId
    """The stop."""
    run: Run
    """am or pm."""


class FieldTrip(Timestamped):
    """A field trip request."""

    id: TripId
    requester_email: Email
    """The teacher asking."""
    destination: Title
    """Where to."""
    trip_date: Date
    """The day."""
    depart: ClockTime
    """Departure."""
    return_time: ClockTime
    """Return."""
    passengers: Annotated[int, Field(ge=1, le=300)]
    """Students and chaperones."""
    status: TripStatus = "requested"
    """requested, approved, denied, scheduled, completed or cancelled."""
    vehicle_id: VehicleId | None = None
    """The bus scheduled."""
    driver_id: DriverId | None = None
    """The driver scheduled."""


class RouteChange(Created):
    """An entry of a route's change log."""

    id: ChangeId
    route_id: RouteId
    """The route."""
    kind: Literal["vehicle", "driver", "stop_added"]
    """What changed."""
    description: Text
    """Old and new."""


class Roster(Value):
    """A route's riders by stop."""

    route_id: RouteId
    """The route."""
    riders: int
    """Riders assigned."""
    seats: int
    """The bus's seats."""
    wheelchair_riders: int
    """Riders in wheelchairs."""
    by_stop: dict[str, list[str]]
    """Rider names per stop location."""


# -- rules ------------------------------------------------------------------------------------


def _running(ctx: Ctx, vehicle_id: str, field: str) -> Vehicle:
    bus = ctx.get(Vehicle, vehicle_id, field=field)
    if bus.status != "in_service":
        raise RuleViolation(f"bus {bus.bus_number} is {bus.status}", field=field, hint="pick a bus in service")
    return bus


def _licensed(ctx: Ctx, driver_id: str, day: dt.date, field: str) -> Driver:
    d = ctx.get(Driver, driver_id, field=field)
    if d.cdl_expires_on < day:
        raise RuleViolation(f"{d.name}'s CDL expired on {d.cdl_expires_on}", field=field, hint="pick another driver")
    return d


def _fits(ctx: Ctx, route_id: str, bus: Vehicle, field: str, extra: int = 0, chair: int = 0) -> None:
    seats = ctx.where(RiderAssignment, route_id=route_id)
    chairs = sum(ctx.get(Rider, s.rider_id).wheelchair for s in seats) + chair
    if len(seats) + extra > bus.capacity or chairs > bus.wheelchair_lifts:
        raise RuleViolation(
            f"bus {bus.bus_number} seats {bus.capacity} with {bus.wheelchair_lifts} lifts",
            field=field,
            hint="use a larger bus or another route",
        )


def _log(ctx: Ctx, route: Route, kind: str, text: str) -> None:
    ctx.create(RouteChange, route_id=route.id, kind=kind, description=text)


def _guard_vehicle(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != "in_service" and old.status == "in_service" and ctx.where(Route, vehicle_id=new.id):
        raise RuleViolation(
            f"bus {new.bus_number} runs routes", field="vehicle_id", hint="move its routes to another bus first"
        )


vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    filters=("status", "bus_number"),
    update=("capacity", "wheelchair_lifts"),
    delete=False,
    transitions={
        "send_to_maintenance": Transition("status", ("in_service",), "maintenance", "send the bus to maintenance"),
        "return_to_service": Transition("status", ("maintenance",), "in_service", "return the bus to service"),
    },
    guard_update=_guard_vehicle,
    title="bus",
)
drivers = service.resource(
    Driver,
    name="driver",
    plural="drivers",
    prefix="drv",
    create=False,
    filters=("email",),
    search=("name",),
    update=("cdl_expires_on",),
    delete=False,
)
routes = service.resource(
    Route,
    name="route",
    plural="routes",
    prefix="rte",
    create=False,
    filters=("run", "school", "vehicle_id", "driver_id", "code"),
    delete=False,
    title="bus route",
)
stops = service.resource(
    Stop,
    name="stop",
    plural="stops",
    prefix="stp",
    create=False,
    get=False,
    filters=("route_id",),
    search=("location",),
    delete=False,
)
riders = service.resource(
    Rider,
    name="rider",
    plural="riders",
    prefix="rdr",
    create=False,
    filters=("school", "guardian_email", "grade", "wheelchair"),
    search=("name",),
    update=("guardian_email",),
    delete=False,
    title="student rider",
)
seats = service.resource(
    RiderAssignment,
    name="rider_assignment",
    plural="rider_assignments",
    prefix="seat",
    create=False,
    get=False,
    filters=("rider_id", "route_id", "stop_id", "run"),
    title="rider stop assignment",
)
trips = service.resource(
    FieldTrip,
    name="field_trip",
    plural="field_trips",
    prefix="trip",
    create=False,
    filters=("status", "requester_email", "trip_date", "vehicle_id", "driver_id"),
    search=("destination",),
    delete=False,
    transitions={
        "approve": Transition("status", ("requested",), "approved", "approve the field trip"),
        "deny": Transition("status", ("requested",), "denied", "deny the field trip"),
        "complete": Transition("status", ("scheduled",), "completed", "mark the field trip completed"),
        "cancel": Transition("status", ("requested", "approved", "scheduled"), "cancelled", "cancel the field trip"),
    },
)
changes = service.resource(
    RouteChange,
    name="route_change",
    plural="route_changes",
    prefix="chg",
    create=False,
    get=False,
    filters=("route_id", "kind"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_assign_rider(ctx: Ctx) -> dict[str, Any] | None:
    for rider in ctx.where(Rider, wheelchair=False):
        for route in ctx.where(Route, school=rider.school, run="pm"):
            stop = ctx.first(Stop, route_id=route.id)
            if stop and not ctx.where(RiderAssignment, rider_id=rider.id, run="pm"):
                return {"rider_id": rider.id, "stop_id": stop.id}
    return None


@service.tool(intent="assign the rider to a stop", write=True, example=_example_assign_rider)
def assign_rider(ctx: Ctx, rider_id: RiderId, stop_id: StopId) -> RiderAssignment:
    """Assign a student to a stop of a route serving their school, within the bus's seats and lifts.

    Args:
        rider_id: The student.
        stop_id: The stop.
    """
    rider = ctx.get(Rider, rider_id, field="rider_id")
    stop = ctx.get(Stop, stop_id, field="stop_id")
    route = ctx.get(Route, stop.route_id)
    if route.school != rider.school:
        raise RuleViolation(
            f"route {route.code} serves {route.school}", field="stop_id", hint=f"pick a route to {rider.school}"
        )
    if ctx.where(RiderAssignment, rider_id=rider.id, run=route.run):
        raise Conflict(
            f"{rider.name} already has a {route.run} stop", field="rider_id", hint="remove that assignment first"
        )
    _fits(ctx, route.id, ctx.get(Vehicle, route.vehicle_id), "stop_id", extra=1, chair=int(rider.wheelchair))
    return ctx.create(RiderAssignment, rider_id=rider.id, route_id=route.id, stop_id=stop.id, run=route.run)


def _example_vehicle(ctx: Ctx) -> dict[str, Any] | None:
    used = {r.vehicle_id for r in ctx.scan(Route)}
    spare = next((v for v in ctx.where(Vehicle, status="in_service") if v.id not in used and v.capacity >= 40), None)
    route = ctx.first(Route)
    return None if spare is None or route is None else {"route_id": route.id, "vehicle_id": spare.id}


@service.tool(intent="change the route's bus", write=True, example=_example_vehicle)
def assign_vehicle(ctx: Ctx, route_id: RouteId, vehicle_id: VehicleId) -> Route:
    """Put another in-service bus on a route; it must seat the route's riders. The change is logged.

    Args:
        route_id: The route.
        vehicle_id: The bus.
    """
    route = ctx.get(Route, route_id, field="route_id")
    bus = _running(ctx, vehicle_id, "vehicle_id")
    if bus.id == route.vehicle_id:
        raise Conflict(f"bus {bus.bus_number} already runs {route.code}", field="vehicle_id", hint="nothing to do")
    _fits(ctx, route.id, bus, "vehicle_id")
    old = ctx.get(Vehicle, route.vehicle_id)
    _log(ctx, route, "vehicle", f"bus {old.bus_number} -> {bus.bus_number}")
    return ctx.update(route, vehicle_id=bus.id)


@service.tool(
    intent="change the route's driver",
    write=True,
    example=first_example(
        Driver,
        "driver_id",
        match=lambda c, d: not c.where(Route, driver_id=d.id) and d.cdl_expires_on >= c.today(),
        route_id="rte_000001",
    ),
)
def assign_driver(ctx: Ctx, route_id: RouteId, driver_id: DriverId) -> Route:
    """Give a route another driver with a valid CDL; the change is logged.

    Args:
        route_id: The route.
        driver_id: The driver.
    """
    route = ctx.get(Route, route_id, field="route_id")
    d = _licensed(ctx, driver_id, ctx.today(), "driver_id")
    if d.id == route.driver_id:
        raise Conflict(f"{d.name} already drives {route.code}", field="driver_id", hint="nothing to do")
    _log(ctx, route, "driver", f"{ctx.get(Driver, route.driver_id).name} -> {d.name}")
    return ctx.update(route, driver_id=d.id)


@service.tool(
    intent="add a stop to the route",
    write=True,
    example=first_example(Route, "route_id", location="Oak St & 5th Ave", time="07:55"),
)
def add_stop(ctx: Ctx, route_id: RouteId, location: Title, time: ClockTime) -> Stop:
    """Add a stop at the end of a route, after its last stop's time; the change is logged.

    Args:
        route_id: The route.
        location: Where.
        time: Scheduled time, after the current last stop.
    """
    route = ctx.get(Route, route_id, field="route_id")
    existing = ctx.where(Stop, route_id=route.id)
    last = max(existing, key=lambda s: s.sequence, default=None)
    if last is not None and time <= last.time:
        raise RuleViolation(f"the last stop is at {last.time}", field="time", hint="pick a later time")
    if any(s.location.lower() == location.lower() for s in existing):
        raise Conflict(f"{location} is already a stop of {route.code}", field="location", hint="use that stop")
    _log(ctx, route, "stop_added", f"{location} at {time}")
    return ctx.create(
        Stop, route_id=route.id, sequence=(last.sequence + 1) if last else 1, location=location, time=time
    )


def _example_trip(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "requester_email": ctx.population.employees[0].email,
        "destination": "City Science Museum",
        "trip_date": (ctx.today() + dt.timedelta(days=21)).isoformat(),
        "depart": "09:00",
        "return_time": "14:30",
        "passengers": 48,
    }


@service.tool(intent="request a field trip", write=True, example=_example_trip)
def request_field_trip(
    ctx: Ctx,
    requester_email: Email,
    destination: Title,
    trip_date: Date,
    depart: ClockTime,
    return_time: ClockTime,
    passengers: Annotated[int, Field(ge=1, le=300)],
) -> FieldTrip:
    """Request buses for a field trip at least 7 days ahead.

    Args:
        requester_email: The teacher (staff) asking.
        destination: Where to.
        trip_date: The day (7 or more days ahead).
        depart: Departure time.
        return_time: Return time (after departure).
        passengers: Students and chaperones.
    """
    require_employee(ctx, requester_email, field="requester_email", hint="field trips are requested by staff")
    if trip_date < ctx.today() + dt.timedelta(days=MIN_NOTICE):
        raise RuleViolation(
            f"field trips are requested {MIN_NOTICE} days ahead",
            field="trip_date",
            hint=f"pick {ctx.today() + dt.timedelta(days=MIN_NOTICE)} or later",
        )
    if return_time <= depart:
        raise RuleViolation("the return is before departure", field="return_time", hint="fix the times")
    return ctx.create(
        FieldTrip,
        requester_email=requester_email,
        destination=destination,
        trip_date=trip_date,
        depart=depart,
        return_time=return_time,
        passengers=passengers,
    )


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    trip = ctx.first(FieldTrip, status="approved")
    if trip is None:
        return None
    bus = next(
        (
            v
            for v in ctx.where(Vehicle, status="in_service")
            if v.capacity >= trip.passengers and not ctx.where(FieldTrip, vehicle_id=v.id, trip_date=trip.trip_date)
        ),
        None,
    )
    drv = next(
        (
            d
            for d in ctx.scan(Driver)
            if d.cdl_expires_on >= trip.trip_date and not ctx.where(FieldTrip, driver_id=d.id, trip_date=trip.trip_date)
        ),
        None,
    )
    return None if bus is None or drv is None else {"trip_id": trip.id, "vehicle_id": bus.id, "driver_id": drv.id}


@service.tool(intent="schedule the field trip's bus and driver", write=True, example=_example_schedule)
def schedule_field_trip(ctx: Ctx, trip_id: TripId, vehicle_id: VehicleId, driver_id: DriverId) -> FieldTrip:
    """Give an approved trip a bus that seats everyone and a licensed driver, both free that day.

    Args:
        trip_id: The approved trip.
        vehicle_id: The bus.
        driver_id: The driver.
    """
    trip = ctx.get(FieldTrip, trip_id, field="trip_id")
    if trip.status != "approved":
        raise RuleViolation(f"the trip is {trip.status}", field="trip_id", hint="approve it first")
    bus = _running(ctx, vehicle_id, "vehicle_id")
    if bus.capacity < trip.passengers:
        raise RuleViolation(
            f"bus {bus.bus_number} seats {bus.capacity}, the trip has {trip.passengers}",
            field="vehicle_id",
            hint="pick a larger bus",
        )
    d = _licensed(ctx, driver_id, trip.trip_date, "driver_id")
    for other in ctx.where(FieldTrip, trip_date=trip.trip_date, status="scheduled"):
        if other.vehicle_id == bus.id:
            raise Conflict(
                f"bus {bus.bus_number} has trip {other.id} that day", field="vehicle_id", hint="pick another"
            )
        if other.driver_id == d.id:
            raise Conflict(f"{d.name} drives trip {other.id} that day", field="driver_id", hint="pick another")
    return ctx.update(trip, status="scheduled", vehicle_id=bus.id, driver_id=d.id)


@service.tool(intent="show the route's roster", example=first_example(Route, "route_id"))
def route_roster(ctx: Ctx, route_id: RouteId) -> Roster:
    """The riders of a route by stop, against its bus's seats.

    Args:
        route_id: The route.
    """
    route = ctx.get(Route, route_id, field="route_id")
    by_stop: dict[str, list[str]] = {}
    chairs = 0
    rows = ctx.where(RiderAssignment, route_id=route.id)
    for seat in rows:
        rider = ctx.get(Rider, seat.rider_id)
        chairs += rider.wheelchair
        by_stop.setdefault(ctx.get(Stop, seat.stop_id).location, []).append(rider.name)
    return Roster(
        route_id=route.id,
        riders=len(rows),
        seats=ctx.get(Vehicle, route.vehicle_id).capacity,
        wheelchair_riders=chairs,
        by_stop=by_stop,
    )


# -- seed -------------------------------------------------------------------------------------

BUSES: tuple[tuple[str, int, int, str], ...] = (
    ("12", 72, 0, "in_service"),
    ("14", 72, 0, "in_service"),
    ("21", 48, 2, "in_service"),
    ("33", 24, 1, "in_service"),
    ("40", 72, 0, "maintenance"),
    ("41", 54, 0, "in_service"),
)
SCHOOLS = ("Lincoln Elementary", "Roosevelt Middle School")
STREETS = ("Maple Ave & 3rd St", "Pine St & Elm Rd", "Lakeview Dr", "Cedar Ln & 9th St", "Hillcrest Blvd")


@service.seeder
def seed(s: SeedContext) -> None:
    """Buses, staff drivers, AM/PM routes with stops, the world's children as riders, trips, a change log."""
    pop = s.population
    today = s.now.date()
    buses = [
        s.create(
            Vehicle,
            bus_number=n,
            capacity=c,
            wheelchair_lifts=w,
            status=st,
            created_at=s.ago(days=1500),
            updated_at=s.ago(days=20),
        )
        for n, c, w, st in BUSES
    ]
    staff = pop.staff("Operations", fallback=5)
    drivers = [
        s.create(
            Driver,
            name=p.name,
            email=p.email,
            cdl_expires_on=today + dt.timedelta(days=-10 if k == 4 else 200 + 100 * k),
            created_at=s.ago(days=900),
            updated_at=s.ago(days=90),
        )
        for k, p in enumerate(staff[:5])
    ]
    routes = []
    for k, (school, run) in enumerate(((SCHOOLS[0], "am"), (SCHOOLS[0], "pm"), (SCHOOLS[1], "am"), (SCHOOLS[1], "pm"))):
        route = s.create(
            Route,
            code=f"{'LR'[k // 2]}-{10 + k}",
            run=run,
            school=school,
            vehicle_id=buses[(2, 2, 0, 3)[k]].id,
            driver_id=drivers[k % 4].id,
            created_at=s.ago(days=300),
            updated_at=s.ago(days=15),
        )
        routes.append(route)
        base = 7 * 60 + 5 if run == "am" else 15 * 60 + 10
        for j, street in enumerate(STREETS[: 3 + k % 2]):
            minute = base + 7 * j
            s.create(
                Stop,
                route_id=route.id,
                sequence=j + 1,
                location=street,
                time=f"{minute // 60:02d}:{minute % 60:02d}",
                created_at=s.ago(days=300),
            )
    parents = list(pop.consumers[:14]) or list(pop.contacts[:14])
    for k, parent in enumerate(parents):
        school = SCHOOLS[k % 2]
        rider = s.create(
            Rider,
            name=f"{('Ana', 'Ben', 'Cleo', 'Dev', 'Ella', 'Gus', 'Hana')[k % 7]} {parent.last_name}",
            grade=(k * 3) % 13,
            school=school,
            guardian_email=parent.email,
            wheelchair=k == 2,
            created_at=s.ago(days=200),
            updated_at=s.ago(days=10),
        )
        for route in routes:
            if route.school == school and k % 5 != 4:
                stop = [x for x in s.records(Stop) if x.route_id == route.id][k % 3]
                s.create(
                    RiderAssignment,
                    rider_id=rider.id,
                    route_id=route.id,
                    stop_id=stop.id,
                    run=route.run,
                    created_at=s.ago(days=100),
                )
    s.create(RouteChange, route_id=routes[2].id, kind="vehicle", description="bus 40 -> 12", created_at=s.ago(days=15))
    for k, (dest, days, status) in enumerate(
        (
            ("City Science Museum", 20, "requested"),
            ("State Capitol", 12, "approved"),
            ("Riverside Zoo", 9, "scheduled"),
            ("Art Center", -5, "completed"),
        )
    ):
        s.create(
            FieldTrip,
            requester_email=staff[k % len(staff)].email,
            destination=dest,
            trip_date=today + dt.timedelta(days=days),
            depart="09:00",
            return_time="14:00",
            passengers=40 + 5 * k,
            status=status,
            vehicle_id=buses[1].id if status in ("scheduled", "completed") else None,
            driver_id=drivers[0].id if status in ("scheduled", "completed") else None,
            created_at=s.ago(days=30),
            updated_at=s.ago(days=2),
        )
