"""Hopper Rides: ride products, upfront fare estimates, ride requests with drivers, trips, receipts and ratings.

Modeled on the Uber Rides API v1.2 (Products, Estimates / fare_id, Requests
with their statuses, Driver, Receipts, Ride history, Rider profile with a
business profile): a fare is estimated upfront from the distance, the
duration and the product's rates with surge and a booking fee, and holds for
two minutes; a ride is requested with that fare, for no more passengers than
the product seats, while the rider has no other ride under way, and is given
to the best-rated available driver of that product; it moves accepted →
arriving → in progress → completed, when a receipt is issued; a rider cancels
for free within two minutes of the driver accepting, after that the product's
cancellation fee is charged, and nobody cancels a ride in progress; each
completed ride is rated once, with an optional tip on the receipt.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person, Place
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Currency,
    DateTime,
    Email,
    FileLink,
    IdOf,
    InvoiceNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.places._shared import world_place
from compoworld.world.geo import haversine_km

__all__ = ["service"]

service = Service(
    "rides",
    title="Hopper Rides",
    category="transportation",
    modeled_on="Uber Rides API v1.2 (Products, Estimates with fare_id, Requests and statuses, Driver, Receipts, "
    "History, Me with business profiles)",
    description="Ride hailing: the ride products of each city with their rates and surge, upfront fare estimates, "
    "ride requests and the drivers who take them, trip progress, cancellations and their fees, receipts for "
    "personal or business rides, ratings and tips.",
)

ProductId = Annotated[str, IdOf("rides.product")]
RiderId = Annotated[str, IdOf("rides.rider")]
DriverId = Annotated[str, IdOf("rides.driver")]
FareId = Annotated[str, IdOf("rides.fare")]
RideId = Annotated[str, IdOf("rides.ride")]
ReceiptId = Annotated[str, IdOf("rides.receipt")]
Plate = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9 -]{3,12}$")]
Km = Annotated[float, Field(ge=0, le=1000)]
Stars = Annotated[int, Field(ge=1, le=5)]
RideStatus = Literal["accepted", "arriving", "in_progress", "completed", "rider_canceled", "driver_canceled"]
ACTIVE: tuple[str, ...] = ("accepted", "arriving", "in_progress")
FARE_TTL = dt.timedelta(minutes=2)
FREE_CANCEL = dt.timedelta(minutes=2)
MAX_KM = 100.0


class Product(Record):
    """A kind of ride offered in a city, with its rates."""

    id: ProductId
    city: City
    """City it runs in."""
    name: Title
    """Product name."""
    description: Text = ""
    """What it is."""
    capacity: Annotated[int, Field(ge=1, le=8)]
    """Most passengers."""
    currency: Currency
    """Currency of the rates."""
    base_fare: Cents
    """Flag fall, in cents."""
    per_km: Cents
    """Rate per km, in cents."""
    per_minute: Cents
    """Rate per minute, in cents."""
    minimum_fare: Cents
    """Least a ride costs before the booking fee, in cents."""
    booking_fee: Cents
    """Added to every ride, in cents."""
    cancellation_fee: Cents
    """Charged for a late rider cancellation, in cents."""
    surge_multiplier: Annotated[float, Field(ge=1, le=5)] = 1.0
    """Current demand multiplier on the time and distance fare."""
    active: bool = True
    """Inactive products take no rides."""


class Rider(Record):
    """A rider account."""

    id: RiderId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; receipts go here; unique."""
    phone: Phone
    """Phone the driver calls."""
    payment_method: Literal["card", "business"] = "card"
    """card (personal) or business (billed to the business profile)."""
    business_profile: CompanyName | None = None
    """Company business rides are billed to."""
    rating: Annotated[float, Field(ge=0, le=5)] = 4.9
    """Rider rating."""
    rides_taken: int = 0
    """Completed rides."""


class Driver(Record):
    """A driver and their vehicle."""

    id: DriverId
    name: PersonName
    """Full name."""
    phone: Phone
    """Phone."""
    city: City
    """City they drive in."""
    product_id: ProductId
    """The product they drive for."""
    vehicle: Text
    """Make, model and colour."""
    license_plate: Plate
    """Plate number."""
    rating: Annotated[float, Field(ge=0, le=5)] = 4.8
    """Average rating."""
    ratings_count: int = 0
    """Ratings received."""
    status: Literal["available", "on_trip", "offline"] = "available"
    """available, on_trip or offline."""


class Fare(Record):
    """An upfront fare estimate; request the ride with it within two minutes."""

    id: FareId
    rider_id: RiderId
    """Who asked."""
    product_id: ProductId
    """The product."""
    pickup: PostalAddress
    """Pickup address."""
    dropoff: PostalAddress
    """Destination."""
    distance_km: Km
    """Trip distance."""
    duration_minutes: int
    """Trip duration."""
    surge_multiplier: float
    """Surge applied."""
    fare: Cents
    """Upfront price with booking fee, in cents."""
    currency: Currency
    """Currency."""
    expires_at: DateTime
    """Last moment to request the ride with it."""
    used: bool = False
    """Whether a ride was requested with it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was estimated."""


class Ride(Record):
    """A requested ride."""

    id: RideId
    rider_id: RiderId
    """The rider."""
    product_id: ProductId
    """The product."""
    fare_id: FareId
    """The fare it was requested with."""
    driver_id: DriverId | None = None
    """The driver."""
    pickup: PostalAddress
    """Pickup address."""
    dropoff: PostalAddress
    """Destination."""
    passengers: Annotated[int, Field(ge=1, le=8)] = 1
    """Passengers."""
    status: RideStatus = "accepted"
    """accepted, arriving, in_progress, completed, rider_canceled or driver_canceled."""
    fare: Cents
    """Upfront price, in cents."""
    currency: Currency
    """Currency."""
    cancellation_fee: Cents = 0
    """Charged for a late rider cancellation, in cents."""
    rating: Stars | None = None
    """The rider's rating of the trip."""
    accepted_at: DateTime | None = None
    """When the driver accepted."""
    started_at: DateTime | None = None
    """When the trip started."""
    completed_at: DateTime | None = None
    """When the trip ended."""
    requested_at: Annotated[DateTime, CREATED]
    """When it was requested."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Receipt(Record):
    """The receipt of a completed ride."""

    id: ReceiptId
    receipt_number: Annotated[InvoiceNumber, Generated("sequence", "HR-{n:07d}")]
    """Receipt number."""
    ride_id: RideId
    """The ride."""
    rider_email: Email
    """Where it was e-mailed."""
    rider_name: PersonName
    """The rider."""
    driver_name: PersonName
    """The driver."""
    pickup: PostalAddress
    """From."""
    dropoff: PostalAddress
    """To."""
    distance_km: Km
    """Distance."""
    fare: Cents
    """Trip fare with booking fee, in cents."""
    tip: Cents = 0
    """Tip, in cents."""
    total: Cents
    """Fare plus tip, in cents."""
    currency: Currency
    """Currency."""
    charged_to: Literal["card", "business"]
    """Personal card or business profile."""
    business: CompanyName | None = None
    """Company billed, for business rides."""
    pdf_url: FileLink
    """The receipt document."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was issued."""


# -- geometry and pricing ----------------------------------------------------------------------


def _km(a: PostalAddress, b: PostalAddress) -> float:
    """Road distance: a stable in-town distance within one city, 1.25 x the great circle between cities."""
    if a.city.casefold() == b.city.casefold():
        key = f"{a.street}|{a.postal_code}|{b.street}|{b.postal_code}".casefold()
        h = int(hashlib.sha256(key.encode()).hexdigest()[:8], 16)
        return round(2 + (h % 1800) / 100, 1)
    pa, pb = world_place(a.city), world_place(b.city)
    if pa is None or pb is None:
        return 9999.0
    # A 6371 km Earth, as the fares were set with; rounded, every city pair is as it was.
    return round(1.25 * haversine_km(pa.latitude, pa.longitude, pb.latitude, pb.longitude, radius_km=6371.0), 1)


def _quote(p: Product, km: float) -> tuple[int, int]:
    """(duration in minutes, upfront fare in cents) of a trip."""
    minutes = round(4 + 2.2 * km)
    metered = max(p.minimum_fare, p.base_fare + round(p.per_km * km) + p.per_minute * minutes)
    return minutes, round(metered * p.surge_multiplier) + p.booking_fee


def _guard_driver(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "on_trip":
        raise RuleViolation(f"driver {old.name} is on a trip", field="driver_id", hint="wait until the ride ends")


products = service.resource(
    Product,
    name="product",
    plural="products",
    prefix="prd",
    create=False,
    filters=("city", "active", "capacity"),
    search=("name", "city"),
    delete=False,
    title="ride product",
)
riders = service.resource(
    Rider,
    name="rider",
    plural="riders",
    prefix="rdr",
    create=("name", "email", "phone", "payment_method", "business_profile"),
    filters=("email", "payment_method", "business_profile"),
    search=("name", "email"),
    update=("name", "phone", "payment_method", "business_profile"),
    delete=False,
    unique=("email",),
)
drivers = service.resource(
    Driver,
    name="driver",
    plural="drivers",
    prefix="drv",
    create=False,
    filters=("city", "product_id", "status"),
    search=("name", "license_plate"),
    delete=False,
    transitions={
        "go_offline": Transition("status", ("available",), "offline", "take the driver off the road"),
        "go_online": Transition("status", ("offline",), "available", "put the driver on the road"),
    },
    guard_update=_guard_driver,
)
fares = service.resource(
    Fare,
    name="fare",
    plural="fares",
    prefix="fare",
    create=False,
    filters=None,
    delete=False,
    title="fare estimate",
)
rides = service.resource(
    Ride,
    name="ride",
    plural="rides",
    prefix="ride",
    create=False,
    filters=("rider_id", "driver_id", "status", "product_id"),
    delete=False,
)
receipts = service.resource(
    Receipt,
    name="receipt",
    plural="receipts",
    prefix="rcpt",
    create=False,
    filters=("ride_id", "rider_email", "charged_to", "business", "receipt_number"),
    delete=False,
    title="ride receipt",
)


# -- examples ----------------------------------------------------------------------------------


def _example_estimate(ctx: Ctx) -> dict[str, Any] | None:
    for rider in ctx.scan(Rider):
        person = next((p for p in ctx.population.people if p.email == rider.email), None)
        if person is None:
            continue
        product = ctx.first(Product, city=person.address.city, active=True)
        if product is not None:
            other = next(
                (p for p in ctx.population.people if p.address.city == person.address.city and p.key != person.key),
                None,
            )
            if other is not None:
                return {
                    "rider_id": rider.id,
                    "product_id": product.id,
                    "pickup": person.address.model_dump(),
                    "dropoff": other.address.model_dump(),
                }
    return None


_example_request = first_example(
    Fare, "fare_id", match=lambda ctx, f: not f.used and f.expires_at >= ctx.now(), passengers=1
)


def _example_status(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Ride, status="accepted")
    if r is not None:
        return {"ride_id": r.id, "status": "arriving"}
    r = ctx.first(Ride, status="arriving")
    return None if r is None else {"ride_id": r.id, "status": "in_progress"}


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Ride, status="accepted") or ctx.first(Ride, status="arriving")
    return None if r is None else {"ride_id": r.id, "canceled_by": "rider"}


_example_rate = first_example(
    Ride, "ride_id", where={"status": "completed"}, match=lambda ctx, r: r.rating is None, rating=5, tip=200
)
_example_history = first_example(Rider, fields={"rider_email": "email"})


# -- domain tools ------------------------------------------------------------------------------


@service.tool(intent="get an upfront fare for the ride", write=True, example=_example_estimate)
def estimate_fare(
    ctx: Ctx, rider_id: RiderId, product_id: ProductId, pickup: PostalAddress, dropoff: PostalAddress
) -> Fare:
    """Estimate the upfront fare of a trip with a product; request the ride with it within two minutes.

    The pickup must be in the product's city and the trip at most 100 km. The
    fare is the larger of the minimum fare and base + per km + per minute,
    times the surge, plus the booking fee.

    Args:
        rider_id: The rider.
        product_id: The ride product.
        pickup: Pickup address.
        dropoff: Destination.
    """
    rider = ctx.get(Rider, rider_id, field="rider_id")
    p = ctx.get(Product, product_id, field="product_id")
    if not p.active:
        raise RuleViolation(f"{p.name} is not running", field="product_id", hint="pick an active product")
    if pickup.city.casefold() != p.city.casefold():
        raise RuleViolation(
            f"{p.name} picks up in {p.city}, not {pickup.city}",
            field="pickup",
            hint=f"list the products of {pickup.city} with rides__list_products",
        )
    km = _km(pickup, dropoff)
    if km > MAX_KM:
        raise RuleViolation(
            f"the trip is {km} km; rides go at most {MAX_KM} km",
            field="dropoff",
            hint="book a train or a flight for long trips",
        )
    minutes, fare = _quote(p, km)
    return ctx.create(
        Fare,
        rider_id=rider.id,
        product_id=p.id,
        pickup=pickup,
        dropoff=dropoff,
        distance_km=km,
        duration_minutes=minutes,
        surge_multiplier=p.surge_multiplier,
        fare=fare,
        currency=p.currency,
        expires_at=ctx.now() + FARE_TTL,
    )


@service.tool(intent="request the ride", write=True, example=_example_request)
def request_ride(ctx: Ctx, fare_id: FareId, passengers: Annotated[int, Field(ge=1, le=8)] = 1) -> Ride:
    """Request a ride at an upfront fare; the best-rated available driver of the product takes it.

    The fare must be unused and less than two minutes old, the product must
    seat the passengers, and the rider must have no other ride under way.

    Args:
        fare_id: The fare estimate.
        passengers: Passengers.
    """
    f = ctx.get(Fare, fare_id, field="fare_id")
    if f.used:
        raise Conflict(f"fare {f.id} was already used", field="fare_id", hint="estimate a new fare")
    if ctx.now() > f.expires_at:
        raise RuleViolation(
            f"fare {f.id} expired at {f.expires_at.isoformat()}",
            field="fare_id",
            hint="estimate a new fare with rides__estimate_fare and request within two minutes",
        )
    p = ctx.get(Product, f.product_id)
    if passengers > p.capacity:
        raise RuleViolation(
            f"{p.name} seats {p.capacity}", field="passengers", hint="pick a larger product (e.g. an XL) or two rides"
        )
    for status in ACTIVE:
        busy = ctx.first(Ride, rider_id=f.rider_id, status=status)
        if busy is not None:
            raise Conflict(
                f"the rider already has ride {busy.id} {status}",
                field="fare_id",
                hint="finish or cancel that ride first",
            )
    free = ctx.where(Driver, product_id=p.id, status="available")
    if not free:
        raise RuleViolation(
            f"no {p.name} driver is available in {p.city}",
            field="fare_id",
            hint="try another product, or estimate again later",
        )
    driver = max(free, key=lambda d: (d.rating, d.id))
    ctx.update(f, used=True)
    ctx.update(driver, status="on_trip")
    now = ctx.now()
    return ctx.create(
        Ride,
        rider_id=f.rider_id,
        product_id=p.id,
        fare_id=f.id,
        driver_id=driver.id,
        pickup=f.pickup,
        dropoff=f.dropoff,
        passengers=passengers,
        fare=f.fare,
        currency=f.currency,
        accepted_at=now,
    )


@service.tool(intent="update the ride's progress", write=True, example=_example_status)
def update_ride_status(ctx: Ctx, ride_id: RideId, status: Literal["arriving", "in_progress"]) -> Ride:
    """Move a ride on: accepted → arriving (driver at the pickup) → in_progress (rider on board).

    Args:
        ride_id: The ride.
        status: arriving or in_progress.
    """
    r = ctx.get(Ride, ride_id, field="ride_id")
    expected = {"accepted": "arriving", "arriving": "in_progress"}.get(r.status)
    if expected is None:
        raise RuleViolation(
            f"ride {r.id} is {r.status}", field="ride_id", hint="only accepted or arriving rides move on this way"
        )
    if status != expected:
        raise RuleViolation(
            f"ride {r.id} is {r.status}; it goes to {expected} next", field="status", hint=f"set {expected}"
        )
    return ctx.update(r, status=status, started_at=ctx.now() if status == "in_progress" else r.started_at)


@service.tool(
    intent="finish the trip and issue the receipt",
    write=True,
    example=first_example(Ride, "ride_id", where={"status": "in_progress"}),
)
def complete_ride(ctx: Ctx, ride_id: RideId) -> Receipt:
    """Complete a ride in progress: the driver is free again and the receipt is issued at the upfront fare.

    Args:
        ride_id: The ride in progress.
    """
    r = ctx.get(Ride, ride_id, field="ride_id")
    if r.status != "in_progress":
        raise RuleViolation(
            f"ride {r.id} is {r.status}",
            field="ride_id",
            hint="a ride is completed once it is in progress (rides__update_ride_status)",
        )
    rider = ctx.get(Rider, r.rider_id)
    driver = ctx.get(Driver, r.driver_id) if r.driver_id else None
    ctx.update(r, status="completed", completed_at=ctx.now())
    ctx.update(rider, rides_taken=rider.rides_taken + 1)
    if driver is not None:
        ctx.update(driver, status="available")
    business = rider.payment_method == "business" and rider.business_profile is not None
    n = ctx.next_number(Receipt, "pdf")
    return ctx.create(
        Receipt,
        ride_id=r.id,
        rider_email=rider.email,
        rider_name=rider.name,
        driver_name=driver.name if driver else rider.name,
        pickup=r.pickup,
        dropoff=r.dropoff,
        distance_km=ctx.get(Fare, r.fare_id).distance_km,
        fare=r.fare,
        total=r.fare,
        currency=r.currency,
        charged_to="business" if business else "card",
        business=rider.business_profile if business else None,
        pdf_url=f"https://receipts.hopper.example/{r.id}-{n}.pdf",
    )


@service.tool(intent="cancel the ride", write=True, destructive=True, example=_example_cancel)
def cancel_ride(ctx: Ctx, ride_id: RideId, canceled_by: Literal["rider", "driver"] = "rider") -> Ride:
    """Cancel a ride before the trip starts.

    A rider cancels for free within two minutes of the driver accepting; later
    the product's cancellation fee is charged. A driver's cancellation is free.

    Args:
        ride_id: The ride.
        canceled_by: rider or driver.
    """
    r = ctx.get(Ride, ride_id, field="ride_id")
    if r.status == "in_progress":
        raise RuleViolation(
            f"ride {r.id} is in progress", field="ride_id", hint="a trip under way is ended with rides__complete_ride"
        )
    if r.status not in ("accepted", "arriving"):
        raise RuleViolation(f"ride {r.id} is {r.status}", field="ride_id", hint="it is already over")
    fee = 0
    if canceled_by == "rider" and r.accepted_at is not None and ctx.now() - r.accepted_at > FREE_CANCEL:
        fee = ctx.get(Product, r.product_id).cancellation_fee
    if r.driver_id is not None:
        ctx.update(ctx.get(Driver, r.driver_id), status="available")
    return ctx.update(r, status=f"{canceled_by}_canceled", cancellation_fee=fee)


@service.tool(intent="rate the trip and tip the driver", write=True, example=_example_rate)
def rate_ride(ctx: Ctx, ride_id: RideId, rating: Stars, tip: Cents = 0) -> Receipt:
    """Rate a completed ride once, optionally with a tip added to its receipt; the driver's average follows.

    Args:
        ride_id: The completed ride.
        rating: Stars from 1 to 5.
        tip: Tip for the driver, in cents.
    """
    r = ctx.get(Ride, ride_id, field="ride_id")
    if r.status != "completed":
        raise RuleViolation(f"ride {r.id} is {r.status}", field="ride_id", hint="only completed rides are rated")
    if r.rating is not None:
        raise Conflict(f"ride {r.id} was already rated {r.rating}", field="ride_id", hint="a ride is rated once")
    receipt = ctx.first(Receipt, ride_id=r.id)
    if receipt is None:
        raise NotFound(f"ride {r.id} has no receipt", field="ride_id", hint="complete the ride first")
    ctx.update(r, rating=rating)
    if r.driver_id is not None:
        d = ctx.get(Driver, r.driver_id)
        count = d.ratings_count + 1
        ctx.update(d, ratings_count=count, rating=round((d.rating * d.ratings_count + rating) / count, 2))
    return ctx.update(receipt, tip=receipt.tip + tip, total=receipt.total + tip)


class History(BaseModel):
    """A rider's rides and what they cost."""

    rider_id: RiderId = Field(description="The rider.")
    rider_name: PersonName = Field(description="Their name.")
    rides: list[Ride] = Field(description="Their rides, newest first.")
    completed: int = Field(description="Completed rides.")
    spent: Cents = Field(description="Receipt totals plus cancellation fees, in cents.")
    business_spent: Cents = Field(description="Of that, billed to the business profile, in cents.")


@service.tool(intent="see the rider's ride history", example=_example_history)
def ride_history(ctx: Ctx, rider_email: Email) -> History:
    """List a rider's rides, newest first, with what they spent.

    Args:
        rider_email: The rider's e-mail.
    """
    rider = ctx.first(Rider, email=rider_email)
    if rider is None:
        raise NotFound(f"no rider with e-mail {rider_email}", field="rider_email", hint="list riders to find them")
    mine = sorted(ctx.where(Ride, rider_id=rider.id), key=lambda r: (r.requested_at, r.id), reverse=True)
    bills = ctx.where(Receipt, rider_email=rider.email)
    return History(
        rider_id=rider.id,
        rider_name=rider.name,
        rides=mine,
        completed=sum(1 for r in mine if r.status == "completed"),
        spent=sum(b.total for b in bills) + sum(r.cancellation_fee for r in mine),
        business_spent=sum(b.total for b in bills if b.charged_to == "business"),
    )


# -- seed --------------------------------------------------------------------------------------

LINEUP: tuple[tuple[str, int, int, int, int, int, str], ...] = (
    # name, seats, base, per km, per min, minimum, description
    ("HopX", 4, 250, 110, 25, 700, "Affordable everyday rides"),
    ("Hop XL", 6, 400, 170, 35, 1000, "Rides for groups up to 6"),
    ("Hop Black", 4, 800, 260, 50, 1800, "Premium rides in luxury cars"),
)
LEVEL = {"SEK": 10.0, "JPY": 1.5, "BRL": 4.0}
CARS = ("Toyota Prius, silver", "Kia Niro, white", "VW Touran, grey", "Mercedes E-Class, black", "Tesla Model 3, blue")


@service.seeder
def seed(s: SeedContext) -> None:
    """Products in the home city and the consumers' cities, people as riders and drivers, trips and receipts."""
    lineup = _seed_products(s)
    riders = _seed_riders(s, list(lineup))
    drivers_of = _seed_drivers(s, lineup, riders)
    _seed_rides(s, riders, lineup, drivers_of)
    _seed_open_fare(s, riders, lineup)


def _seed_products(s: SeedContext) -> dict[str, list[Product]]:
    """The lineup in the home city and up to five consumers' cities (the last city's premium product inactive)."""
    pop = s.population
    cities: list[Place] = [pop.home.place]
    for p in pop.consumers:
        if all(p.place.city != c.city for c in cities) and len(cities) < 6:
            cities.append(p.place)
    lineup: dict[str, list[Product]] = {}
    for k, place in enumerate(cities):
        lvl = LEVEL.get(place.currency, 1.0)
        for j, (name, seats, base, per_km, per_min, minimum, desc) in enumerate(LINEUP):
            lineup.setdefault(place.city, []).append(
                s.create(
                    Product,
                    city=place.city,
                    name=name,
                    description=desc,
                    capacity=seats,
                    currency=place.currency,
                    base_fare=int(base * lvl),
                    per_km=int(per_km * lvl),
                    per_minute=int(per_min * lvl),
                    minimum_fare=int(minimum * lvl),
                    booking_fee=int(150 * lvl),
                    cancellation_fee=int(500 * lvl),
                    surge_multiplier=(1.0, 1.4, 1.0, 1.2)[(k + j) % 4],
                    active=not (k == len(cities) - 1 and j == 2),
                )
            )
    return lineup


def _seed_riders(s: SeedContext, city_names: list[str]) -> list[tuple[Rider, Person]]:
    """Employees (on the business profile) and consumers who live in a served city."""
    pop = s.population
    riders: list[tuple[Rider, Person]] = []
    for i, p in enumerate(list(pop.employees[:12]) + list(pop.consumers)):
        if p.address.city not in city_names:
            continue
        business = p.role == "employee"
        rider = s.create(
            Rider,
            name=p.name,
            email=p.email,
            phone=p.phone,
            payment_method="business" if business else "card",
            business_profile=pop.home.name if business else None,
            rating=round(4.5 + (i % 5) / 10, 1),
        )
        riders.append((rider, p))
    return riders


def _seed_drivers(
    s: SeedContext, lineup: dict[str, list[Product]], riders: list[tuple[Rider, Person]]
) -> dict[str, list[Driver]]:
    """Two drivers per product, consumers who are not riders first; every seventh offline."""
    rng = s.rng
    consumers = s.population.consumers
    rider_keys = {p.key for _, p in riders}
    pool = [p for p in consumers if p.key not in rider_keys] + [p for p in consumers if p.key in rider_keys]
    drivers_of: dict[str, list[Driver]] = {}
    n = 0
    for city, products in lineup.items():
        for product in products:
            for _ in range(2):
                p = pool[n % len(pool)]
                n += 1
                letters = "".join(chr(65 + rng.randint(0, 25)) for _ in range(2))
                drivers_of.setdefault(product.id, []).append(
                    s.create(
                        Driver,
                        name=p.name,
                        phone=p.phone,
                        city=city,
                        product_id=product.id,
                        vehicle=CARS[(n + (2 if product.name == "Hop Black" else 0)) % len(CARS)],
                        license_plate=f"{letters} {rng.randint(100, 9999)}",
                        rating=round(4.6 + rng.randint(0, 4) / 10, 1),
                        ratings_count=rng.randint(50, 900),
                        status="offline" if n % 7 == 0 else "available",
                    )
                )
    return drivers_of


def _seed_rides(
    s: SeedContext,
    riders: list[tuple[Rider, Person]],
    lineup: dict[str, list[Product]],
    drivers_of: dict[str, list[Driver]],
) -> None:
    """A trip per rider to a neighbour in their city: most completed, some canceled, some under way now."""
    plans: tuple[RideStatus, ...] = ("completed", "completed", "rider_canceled", "completed", "in_progress", "accepted")
    for i, (rider, person) in enumerate(riders):
        city = person.address.city
        others = [q for _, q in riders if q.address.city == city and q.key != person.key]
        if not others:
            continue
        product = lineup[city][i % 2]
        dest = others[i % len(others)].address
        riders[i] = (
            _seed_ride(s, i, plans[i % len(plans)], rider, person, product, dest, drivers_of[product.id]),
            person,
        )


def _seed_ride(
    s: SeedContext,
    i: int,
    plan: RideStatus,
    rider: Rider,
    person: Person,
    product: Product,
    dest: PostalAddress,
    drivers: list[Driver],
) -> Rider:
    """The ``i``-th rider's trip with its fare (and receipt when completed); returns the rider, updated.

    A trip under way takes the product's first available driver (updated in ``drivers``); with none
    available it is completed instead.
    """
    now = s.now
    km = _km(person.address, dest)
    minutes, fare_amount = _quote(product, km)
    when = (
        now - dt.timedelta(days=1 + i % 12, hours=i % 7)
        if plan in ("completed", "rider_canceled")
        else (now - dt.timedelta(minutes=5 + i % 10))
    )
    fare = s.create(
        Fare,
        rider_id=rider.id,
        product_id=product.id,
        pickup=person.address,
        dropoff=dest,
        distance_km=km,
        duration_minutes=minutes,
        surge_multiplier=product.surge_multiplier,
        fare=fare_amount,
        currency=product.currency,
        expires_at=when + FARE_TTL,
        used=True,
        created_at=when,
    )
    free = [d for d in drivers if d.status == "available"]
    if plan in ("in_progress", "accepted") and not free:
        plan = "completed"
    driver = free[0] if free else drivers[0]
    if plan in ("in_progress", "accepted"):
        busy = s.update(driver, status="on_trip")
        drivers[drivers.index(driver)] = busy
        driver = busy
    ride = s.create(
        Ride,
        rider_id=rider.id,
        product_id=product.id,
        fare_id=fare.id,
        driver_id=driver.id,
        pickup=person.address,
        dropoff=dest,
        passengers=1 + i % 2,
        status=plan,
        fare=fare_amount,
        currency=product.currency,
        cancellation_fee=product.cancellation_fee if plan == "rider_canceled" and i % 2 else 0,
        rating=None if plan != "completed" or i % 5 == 0 else (5, 4, 5)[i % 3],
        accepted_at=when + dt.timedelta(minutes=1),
        started_at=when + dt.timedelta(minutes=6) if plan in ("in_progress", "completed") else None,
        completed_at=when + dt.timedelta(minutes=6 + minutes) if plan == "completed" else None,
        requested_at=when + dt.timedelta(minutes=1),
        updated_at=when + dt.timedelta(minutes=6 + minutes),
    )
    if plan != "completed":
        return rider
    tip = (0, 100, 200)[i % 3] if ride.rating is not None else 0
    business = rider.payment_method == "business"
    s.create(
        Receipt,
        ride_id=ride.id,
        rider_email=rider.email,
        rider_name=rider.name,
        driver_name=driver.name,
        pickup=person.address,
        dropoff=dest,
        distance_km=km,
        fare=fare_amount,
        tip=tip,
        total=fare_amount + tip,
        currency=product.currency,
        charged_to="business" if business else "card",
        business=rider.business_profile if business else None,
        pdf_url=f"https://receipts.hopper.example/{ride.id}.pdf",
        issued_at=when + dt.timedelta(minutes=7 + minutes),
    )
    return s.update(rider, rides_taken=rider.rides_taken + 1)


def _seed_open_fare(s: SeedContext, riders: list[tuple[Rider, Person]], lineup: dict[str, list[Product]]) -> None:
    """A fare just estimated for the first rider, still open to request."""
    rider, person = riders[0]
    product = lineup[person.address.city][0]
    others = [q for _, q in riders if q.address.city == person.address.city and q.key != person.key]
    dest = others[0].address if others else person.address
    km = _km(person.address, dest)
    minutes, fare_amount = _quote(product, km)
    s.create(
        Fare,
        rider_id=rider.id,
        product_id=product.id,
        pickup=person.address,
        dropoff=dest,
        distance_km=km,
        duration_minutes=minutes,
        surge_multiplier=product.surge_multiplier,
        fare=fare_amount,
        currency=product.currency,
        expires_at=s.now + dt.timedelta(minutes=1),
        created_at=s.now - dt.timedelta(minutes=1),
    )
