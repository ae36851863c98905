"""Access Ride: ADA paratransit: rider eligibility, trip booking, runs and manifests, no-shows and suspensions.

Modeled on Trapeze PASS (and its PASS-WEB rider portal): riders certified
for ADA complementary paratransit (unconditional, conditional or temporary
eligibility with an expiry date, a mobility aid, whether a personal care
attendant rides along), trip requests booked one to seven days ahead (no
same-day booking) with a 30-minute pickup window around the requested time,
runs (a vehicle and a driver for a service day) whose manifest lists the
trips in pickup order, scheduling that respects a vehicle's ambulatory seats
and wheelchair positions for trips within an hour of each other, trip
outcomes (performed, no-show, cancelled, late-cancelled within two hours of
the window), and the no-show policy: three no-shows or late cancellations
within 30 days suspend the rider for seven days, with booking refused while
suspended.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Date, DateTime, Email, FirstName, IdOf, LastName, Phone
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "paratransit",
    title="Access Ride",
    category="paratransit",
    modeled_on="Trapeze PASS and PASS-WEB: client eligibility, trip booking with pickup windows, runs and "
    "manifests, vehicle capacity by space type, no-shows, late cancellations and suspensions",
    description="The transit agency's ADA paratransit service: certified riders and their eligibility, trips "
    "booked a day or more ahead, the vehicles and runs that carry them, drivers' manifests, and the no-show "
    "policy that suspends riders.",
)

RiderId = Annotated[str, IdOf("paratransit.rider")]
TripId = Annotated[str, IdOf("paratransit.trip")]
RunId = Annotated[str, IdOf("paratransit.run")]
VehicleId = Annotated[str, IdOf("paratransit.vehicle")]
SuspensionId = Annotated[str, IdOf("paratransit.suspension")]
Street = Annotated[str, StringConstraints(min_length=1, max_length=200)]

Eligibility = Literal["unconditional", "conditional", "temporary"]
Aid = Literal["none", "walker", "wheelchair", "scooter", "service_animal"]
Space = Literal["ambulatory", "wheelchair"]
TripStatus = Literal["requested", "scheduled", "performed", "no_show", "cancelled", "late_cancelled"]
Outcome = Literal["performed", "no_show"]

FARE_CENTS = 350
WINDOW = dt.timedelta(minutes=15)
NEAR = dt.timedelta(hours=1)
LATE_CANCEL = dt.timedelta(hours=2)
STRIKES, STRIKE_DAYS, SUSPEND_DAYS = 3, 30, 7
WHEELED: frozenset[str] = frozenset({"wheelchair", "scooter"})


class Rider(Timestamped):
    """A rider certified for paratransit."""

    id: RiderId
    client_number: Annotated[str, StringConstraints(pattern=r"^C\d{6}$")]
    """The rider's client number (unique)."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email | None = None
    """E-mail for trip reminders."""
    phone: Phone | None = None
    """Phone for the driver's call-out."""
    home_street: Street
    """Home address."""
    city: City
    """City."""
    eligibility: Eligibility
    """unconditional, conditional or temporary."""
    eligible_until: Date
    """When the certification expires."""
    mobility_aid: Aid = "none"
    """none, walker, wheelchair, scooter or service_animal."""
    pca: bool = False
    """Whether a personal care attendant rides free with them."""
    status: Literal["active", "suspended", "inactive"] = "active"
    """active, suspended (no-show policy) or inactive."""


class Vehicle(Timestamped):
    """A paratransit van or cutaway bus."""

    id: VehicleId
    vehicle_number: Annotated[str, StringConstraints(pattern=r"^V\d{3}$")]
    """The fleet number."""
    ambulatory_seats: Annotated[int, Field(ge=0, le=20)]
    """Seats."""
    wheelchair_positions: Annotated[int, Field(ge=0, le=6)]
    """Wheelchair tie-down positions."""
    status: Literal["in_service", "out_of_service"] = "in_service"
    """in_service or out_of_service."""


class Run(Timestamped):
    """A vehicle and driver for one service day."""

    id: RunId
    run_code: Annotated[str, StringConstraints(pattern=r"^R\d{3}$")]
    """The run's code (unique per day)."""
    service_date: Date
    """The day."""
    vehicle_id: VehicleId
    """The vehicle."""
    driver_email: Email
    """The driver."""
    status: Literal["planned", "dispatched", "completed"] = "planned"
    """planned, dispatched (on the road) or completed."""


class Trip(Timestamped):
    """A one-way trip."""

    id: TripId
    rider_id: RiderId
    """The rider."""
    client_number: str
    """The rider's client number."""
    rider_email: Email | None = None
    """The rider's e-mail."""
    pickup_street: Street
    """Pickup address."""
    dropoff_street: Street
    """Drop-off address."""
    requested_at: DateTime
    """The requested pickup time."""
    window_start: DateTime
    """Start of the 30-minute pickup window."""
    window_end: DateTime
    """End of the pickup window."""
    space: Space
    """ambulatory or wheelchair."""
    companions: Annotated[int, Field(ge=0, le=3)] = 0
    """Fare-paying companions."""
    fare_cents: Cents
    """Fare (rider and companions; the care attendant rides free)."""
    status: TripStatus = "requested"
    """requested, scheduled, performed, no_show, cancelled or late_cancelled."""
    run_id: RunId | None = None
    """The run carrying it."""


class Suspension(Timestamped):
    """A suspension under the no-show policy."""

    id: SuspensionId
    rider_id: RiderId
    """The rider."""
    starts_on: Date
    """First day."""
    ends_on: Date
    """Last day."""
    strikes: int
    """No-shows and late cancellations that led to it."""
    status: Literal["active", "lifted", "served"] = "active"
    """active, lifted on appeal, or served."""


# -- rules ------------------------------------------------------------------------------------


def _rider(ctx: Ctx, client_number: str) -> Rider:
    found = ctx.first(Rider, client_number=client_number)
    if found is None:
        raise RuleViolation(f"no rider {client_number}", field="client_number", hint="look the rider up by name")
    return found


def _strike(ctx: Ctx, trip: Trip) -> None:
    """Count the rider's strikes in the last 30 days and suspend at three."""
    since = ctx.now() - dt.timedelta(days=STRIKE_DAYS)
    strikes = [
        t
        for t in ctx.where(Trip, rider_id=trip.rider_id)
        if t.status in ("no_show", "late_cancelled") and t.requested_at >= since
    ]
    rider = ctx.get(Rider, trip.rider_id)
    if len(strikes) >= STRIKES and rider.status == "active":
        today = ctx.today()
        ctx.create(
            Suspension,
            rider_id=rider.id,
            starts_on=today,
            ends_on=today + dt.timedelta(days=SUSPEND_DAYS - 1),
            strikes=len(strikes),
        )
        ctx.update(rider, status="suspended")
        for t in ctx.where(Trip, rider_id=rider.id):
            if t.status in ("requested", "scheduled") and t.requested_at.date() < today + dt.timedelta(
                days=SUSPEND_DAYS
            ):
                ctx.update(t, status="cancelled", run_id=None)


def _guard_vehicle(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "out_of_service" and old.status != "out_of_service":
        for run in ctx.where(Run, vehicle_id=new.id, status="dispatched"):
            raise RuleViolation(f"run {run.run_code} is on the road", field="vehicle_id", hint="complete it first")


riders = service.resource(
    Rider,
    name="rider",
    plural="riders",
    prefix="rdr",
    create=False,
    filters=("client_number", "email", "last_name", "eligibility", "status", "mobility_aid"),
    search=("first_name", "last_name", "home_street"),
    update=("email", "phone", "home_street", "mobility_aid", "pca"),
    delete=False,
)
vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    filters=("vehicle_number", "status"),
    delete=False,
    transitions={
        "take_out_of_service": Transition(
            "status", ("in_service",), "out_of_service", "take the vehicle out of service"
        ),
        "return_to_service": Transition("status", ("out_of_service",), "in_service", "return the vehicle to service"),
    },
    guard_update=_guard_vehicle,
)
runs = service.resource(
    Run,
    name="run",
    plural="runs",
    prefix="run",
    create=False,
    filters=("service_date", "status", "driver_email", "vehicle_id", "run_code"),
    delete=False,
    transitions={
        "dispatch": Transition("status", ("planned",), "dispatched", "dispatch the run"),
        "complete": Transition("status", ("dispatched",), "completed", "complete the run"),
    },
)
trips = service.resource(
    Trip,
    name="trip",
    plural="trips",
    prefix="trip",
    create=False,
    filters=("rider_id", "client_number", "rider_email", "status", "run_id", "space"),
    search=("pickup_street", "dropoff_street"),
    delete=False,
)
suspensions = service.resource(
    Suspension,
    name="suspension",
    plural="suspensions",
    prefix="susp",
    create=False,
    filters=("rider_id", "status"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_certify(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "first_name": "Walter",
        "last_name": "Ng",
        "home_street": "19 Harbor View Rd",
        "city": ctx.population.home.address.city,
        "eligibility": "temporary",
        "months": 6,
        "mobility_aid": "walker",
    }


@service.tool(intent="certify the rider for paratransit", write=True, example=_example_certify)
def certify_rider(
    ctx: Ctx,
    first_name: FirstName,
    last_name: LastName,
    home_street: Street,
    city: City,
    eligibility: Eligibility,
    months: Annotated[int, Field(ge=1, le=60)],
    mobility_aid: Aid = "none",
    pca: bool = False,
    email: Email | None = None,
    phone: Phone | None = None,
) -> Rider:
    """Certify a new rider after the eligibility assessment; temporary eligibility lasts at most 12 months.

    Args:
        first_name: First name.
        last_name: Last name.
        home_street: Home address.
        city: City.
        eligibility: unconditional, conditional or temporary.
        months: How long the certification lasts (temporary: up to 12).
        mobility_aid: none, walker, wheelchair, scooter or service_animal.
        pca: Whether a personal care attendant rides along.
        email: E-mail for reminders.
        phone: Phone.
    """
    if eligibility == "temporary" and months > 12:
        raise RuleViolation("temporary eligibility lasts up to 12 months", field="months", hint="certify 12 or fewer")
    if email is not None and ctx.first(Rider, email=email) is not None:
        raise Conflict(f"a rider already uses {email}", field="email", hint="update that rider")
    return ctx.create(
        Rider,
        client_number=f"C{400000 + ctx.next_number(Rider, 'number'):06d}",
        first_name=first_name,
        last_name=last_name,
        email=email,
        phone=phone,
        home_street=home_street,
        city=city,
        eligibility=eligibility,
        eligible_until=ctx.today() + dt.timedelta(days=30 * months),
        mobility_aid=mobility_aid,
        pca=pca,
    )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Rider, status="active")
    if r is None:
        return None
    at = utc_at(ctx.today() + dt.timedelta(days=3), 10, 30)
    return {
        "client_number": r.client_number,
        "pickup_at": at.isoformat(),
        "pickup_street": r.home_street,
        "dropoff_street": "1500 Medical Center Dr",
    }


@service.tool(intent="book a paratransit trip for the rider", write=True, example=_example_book)
def book_trip(
    ctx: Ctx,
    client_number: Annotated[str, StringConstraints(pattern=r"^C\d{6}$")],
    pickup_at: DateTime,
    pickup_street: Street,
    dropoff_street: Street,
    companions: Annotated[int, Field(ge=0, le=3)] = 0,
) -> Trip:
    """Book a trip one to seven days ahead for an active, eligible rider; no two trips within an hour.

    Args:
        client_number: The rider's client number.
        pickup_at: The requested pickup time.
        pickup_street: Where to pick up.
        dropoff_street: Where to drop off.
        companions: Fare-paying companions (a care attendant rides free and is not counted).
    """
    rider = _rider(ctx, client_number)
    if rider.status != "active":
        raise RuleViolation(f"rider {client_number} is {rider.status}", field="client_number", hint="no booking now")
    day = pickup_at.date()
    today = ctx.today()
    if not today + dt.timedelta(days=1) <= day <= today + dt.timedelta(days=7):
        raise RuleViolation(
            "trips are booked one to seven days ahead", field="pickup_at", hint="no same-day trips; pick a later day"
        )
    if day > rider.eligible_until:
        raise RuleViolation(
            f"eligibility ends {rider.eligible_until}", field="pickup_at", hint="the rider must recertify first"
        )
    for t in ctx.where(Trip, rider_id=rider.id):
        if t.status in ("requested", "scheduled") and abs(t.requested_at - pickup_at) < NEAR:
            raise Conflict(f"trip {t.id} is at {t.requested_at:%H:%M}", field="pickup_at", hint="book another time")
    return ctx.create(
        Trip,
        rider_id=rider.id,
        client_number=rider.client_number,
        rider_email=rider.email,
        pickup_street=pickup_street,
        dropoff_street=dropoff_street,
        requested_at=pickup_at,
        window_start=pickup_at - WINDOW,
        window_end=pickup_at + WINDOW,
        space="wheelchair" if rider.mobility_aid in WHEELED else "ambulatory",
        companions=companions,
        fare_cents=FARE_CENTS * (1 + companions),
    )


def _load(ctx: Ctx, run: Run, trip: Trip) -> int:
    """Trips of the same space type on the run within an hour of this one."""
    return sum(
        1
        for t in ctx.where(Trip, run_id=run.id, status="scheduled")
        if t.space == trip.space and abs(t.requested_at - trip.requested_at) < NEAR and t.id != trip.id
    )


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for trip in ctx.where(Trip, status="requested"):
        for run in ctx.where(Run, service_date=trip.requested_at.date(), status="planned"):
            return {"trip_id": trip.id, "run_id": run.id}
    return None


@service.tool(intent="schedule the trip on a run", write=True, example=_example_schedule)
def schedule_trip(ctx: Ctx, trip_id: TripId, run_id: RunId) -> Trip:
    """Put a requested (or move a scheduled) trip on a run of its day with room for its space type.

    Args:
        trip_id: The trip.
        run_id: The run (planned or dispatched, on the trip's day).
    """
    trip = ctx.get(Trip, trip_id, field="trip_id")
    if trip.status not in ("requested", "scheduled"):
        raise Conflict(f"trip {trip.id} is {trip.status}", field="trip_id", hint="book a new trip")
    run = ctx.get(Run, run_id, field="run_id")
    if run.service_date != trip.requested_at.date() or run.status == "completed":
        raise RuleViolation(
            f"run {run.run_code} is {run.status} on {run.service_date}",
            field="run_id",
            hint="pick a run of the trip's day",
        )
    vehicle = ctx.get(Vehicle, run.vehicle_id)
    room = vehicle.wheelchair_positions if trip.space == "wheelchair" else vehicle.ambulatory_seats
    if _load(ctx, run, trip) >= room:
        raise RuleViolation(
            f"{vehicle.vehicle_number} has no {trip.space} space near {trip.requested_at:%H:%M}",
            field="run_id",
            hint="pick another run",
        )
    return ctx.update(trip, status="scheduled", run_id=run.id)


@service.tool(
    intent="cancel the trip",
    write=True,
    example=first_example(Trip, "trip_id", where={"status": "requested"}),
)
def cancel_trip(ctx: Ctx, trip_id: TripId) -> Trip:
    """Cancel a trip; within two hours of its pickup window it is a late cancellation and counts as a strike.

    Args:
        trip_id: The trip.
    """
    trip = ctx.get(Trip, trip_id, field="trip_id")
    if trip.status not in ("requested", "scheduled"):
        raise Conflict(f"trip {trip.id} is {trip.status}", field="trip_id", hint="nothing to cancel")
    late = trip.window_start - ctx.now() < LATE_CANCEL
    done = ctx.update(trip, status="late_cancelled" if late else "cancelled", run_id=None if not late else trip.run_id)
    if late:
        _strike(ctx, done)
    return ctx.get(Trip, trip.id)


@service.tool(
    intent="record the trip outcome",
    write=True,
    example=first_example(
        Trip,
        "trip_id",
        where={"status": "scheduled"},
        match=lambda ctx, t: t.window_start <= ctx.now(),
        outcome="performed",
    ),
)
def record_outcome(ctx: Ctx, trip_id: TripId, outcome: Outcome) -> Trip:
    """Record whether a scheduled trip was performed or the rider was a no-show (after its window opened).

    Args:
        trip_id: The scheduled trip.
        outcome: performed or no_show (the driver waited five minutes inside the window).
    """
    trip = ctx.get(Trip, trip_id, field="trip_id")
    if trip.status != "scheduled":
        raise Conflict(f"trip {trip.id} is {trip.status}", field="trip_id", hint="only scheduled trips")
    if ctx.now() < trip.window_start:
        raise RuleViolation("the pickup window has not opened", field="trip_id", hint="record it after the pickup")
    done = ctx.update(trip, status=outcome)
    if outcome == "no_show":
        _strike(ctx, done)
    return ctx.get(Trip, trip.id)


@service.tool(
    intent="lift the rider's suspension",
    write=True,
    example=first_example(Suspension, "suspension_id", where={"status": "active"}),
)
def lift_suspension(ctx: Ctx, suspension_id: SuspensionId) -> Suspension:
    """Lift an active suspension on appeal (the no-shows were beyond the rider's control); the rider is active.

    Args:
        suspension_id: The suspension.
    """
    sus = ctx.get(Suspension, suspension_id, field="suspension_id")
    if sus.status != "active":
        raise Conflict(f"suspension {sus.id} is {sus.status}", field="suspension_id", hint="nothing to lift")
    ctx.update(ctx.get(Rider, sus.rider_id), status="active")
    return ctx.update(sus, status="lifted")


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    v = ctx.first(Vehicle, status="in_service")
    return (
        None
        if v is None
        else {
            "run_code": "R901",
            "service_date": (ctx.today() + dt.timedelta(days=2)).isoformat(),
            "vehicle_id": v.id,
            "driver_email": ctx.population.employees[-1].email,
        }
    )


@service.tool(intent="plan a run", write=True, example=_example_run)
def create_run(
    ctx: Ctx,
    run_code: Annotated[str, StringConstraints(pattern=r"^R\d{3}$")],
    service_date: Date,
    vehicle_id: VehicleId,
    driver_email: Email,
) -> Run:
    """Plan a run: an in-service vehicle and a staff driver, each on one run a day; codes unique per day.

    Args:
        run_code: The run's code, e.g. R104.
        service_date: The day (today or later).
        vehicle_id: The vehicle.
        driver_email: The driver.
    """
    if service_date < ctx.today():
        raise RuleViolation("runs are planned ahead", field="service_date", hint="pick today or later")
    v = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    if v.status != "in_service":
        raise RuleViolation(f"{v.vehicle_number} is out of service", field="vehicle_id", hint="pick another vehicle")
    require_employee(ctx, driver_email, field="driver_email", hint="drivers are agency staff")
    for r in ctx.where(Run, service_date=service_date):
        for taken, value, fname in (
            (r.run_code, run_code, "run_code"),
            (r.vehicle_id, vehicle_id, "vehicle_id"),
            (r.driver_email, driver_email, "driver_email"),
        ):
            if taken == value:
                raise Conflict(
                    f"run {r.run_code} already has that {fname} on {service_date}", field=fname, hint="pick another"
                )
    return ctx.create(Run, run_code=run_code, service_date=service_date, vehicle_id=v.id, driver_email=driver_email)


@service.tool(intent="show the run's manifest", example=first_example(Run, "run_id"))
def run_manifest(ctx: Ctx, run_id: RunId) -> list[Trip]:
    """The driver's manifest: the run's scheduled and performed trips in pickup order.

    Args:
        run_id: The run.
    """
    run = ctx.get(Run, run_id, field="run_id")
    return sorted(ctx.where(Trip, run_id=run.id), key=lambda t: (t.requested_at, t.id))


# -- seed -------------------------------------------------------------------------------------

AIDS: tuple[Aid, ...] = ("none", "wheelchair", "walker", "none", "scooter", "service_animal", "none", "wheelchair")
PLACES = ("1500 Medical Center Dr", "200 Dialysis Way", "48 Senior Center Ln", "900 Main St", "12 Library Plaza")


@service.seeder
def seed(s: SeedContext) -> None:
    """Riders from the world's residents, a fleet, today's and tomorrow's runs with trips, strikes and a suspension."""
    pop = s.population
    today = s.now.date()
    drivers = pop.staff("Operations", "Support", fallback=4)
    fleet = [
        s.create(
            Vehicle,
            vehicle_number=f"V{201 + k:03d}",
            ambulatory_seats=seats,
            wheelchair_positions=chairs,
            status="out_of_service" if k == 4 else "in_service",
            created_at=s.ago(days=900),
            updated_at=s.ago(days=20),
        )
        for k, (seats, chairs) in enumerate(((8, 2), (6, 3), (10, 1), (4, 2), (8, 2)))
    ]
    runs_by_day: dict[int, list[Run]] = {}
    for d in (0, 1):
        runs_by_day[d] = [
            s.create(
                Run,
                run_code=f"R{101 + k:03d}",
                service_date=today + dt.timedelta(days=d),
                vehicle_id=fleet[k].id,
                driver_email=drivers[k % len(drivers)].email,
                status="dispatched" if d == 0 else "planned",
                created_at=s.ago(days=2),
                updated_at=s.ago(hours=3),
            )
            for k in range(3)
        ]
    riders_made = []
    for k, p in enumerate(pop.consumers[:18]):
        kind: Eligibility = ("unconditional", "conditional", "temporary")[k % 3]
        riders_made.append(
            s.create(
                Rider,
                client_number=f"C{100000 + 313 * (k + 1):06d}",
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                home_street=p.address.street,
                city=p.address.city,
                eligibility=kind,
                eligible_until=today + dt.timedelta(days=4 if k == 5 else 90 + 40 * k),
                mobility_aid=AIDS[k % len(AIDS)],
                pca=k % 5 == 0,
                status="suspended" if k == 17 else "active",
                created_at=s.ago(days=700 - 20 * k),
                updated_at=s.ago(days=10),
            )
        )
    for k, r in enumerate(riders_made[:14]):
        d = k % 2
        at = utc_at(today + dt.timedelta(days=d), 8 + k % 9, 30 if k % 2 else 0)
        status: TripStatus = "scheduled" if k < 12 else "requested"
        if d == 0 and at < s.now - dt.timedelta(hours=1) and status == "scheduled":
            status = "performed"
        run = runs_by_day[d][k % 3].id if status != "requested" else None
        _seed_trip(s, r, at, PLACES[k % len(PLACES)], status, run, s.ago(days=3))
    strikes = (riders_made[0], riders_made[0], riders_made[17], riders_made[17], riders_made[17])
    for k, r in enumerate(strikes):
        at = s.now - dt.timedelta(days=5 + 6 * k)
        _seed_trip(s, r, at, PLACES[k % len(PLACES)], "no_show" if k != 3 else "late_cancelled", None, at)
    s.create(
        Suspension,
        rider_id=riders_made[17].id,
        starts_on=today - dt.timedelta(days=2),
        ends_on=today + dt.timedelta(days=4),
        strikes=3,
        created_at=s.ago(days=2),
        updated_at=s.ago(days=2),
    )


def _seed_trip(
    s: SeedContext, r: Rider, at: dt.datetime, dropoff: str, status: TripStatus, run: str | None, made: dt.datetime
) -> None:
    s.create(
        Trip,
        rider_id=r.id,
        client_number=r.client_number,
        rider_email=r.email,
        pickup_street=r.home_street,
        dropoff_street=dropoff,
        requested_at=at,
        window_start=at - WINDOW,
        window_end=at + WINDOW,
        space="wheelchair" if r.mobility_aid in WHEELED else "ambulatory",
        fare_cents=FARE_CENTS,
        status=status,
        run_id=run,
        created_at=made - dt.timedelta(days=2),
        updated_at=min(at, s.now),
    )
