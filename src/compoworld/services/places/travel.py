"""Waypoint Travel: flight and hotel offers, trips, bookings, approvals and travel policy.

Modeled on the Amadeus Self-Service APIs (Flight Offers Search, Flight Create
Orders, Hotel Search, Hotel Booking) and the Navan (TripActions) corporate
booking API (trips, travelers, policies, approvals): offers are priced
quotes that expire, a booking above the traveler's department policy needs a
reason and the traveler's manager's approval, a flown segment cannot be
cancelled, a traveler cannot hold overlapping flights, and a hotel stay ends
after it starts.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Place
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.services.kit.time import utc_at
from compoworld.services.places._shared import world_place
from compoworld.world.population import PLACES

__all__ = ["service"]

service = Service(
    "travel",
    title="Waypoint Travel",
    category="travel",
    modeled_on="Amadeus Self-Service APIs v2 (Flight Offers Search, Flight Orders, Hotel Offers, Hotel Booking) "
    "and Navan (TripActions) corporate travel API (trips, travelers, policies, approvals)",
    description="Corporate travel booking for the company's employees: search priced flight and hotel offers "
    "between the world's cities, book them on trips, keep bookings inside the department's travel policy "
    "or get the manager's approval, and cancel what has not been used.",
)

TravelerId = Annotated[str, IdOf("travel.traveler")]
PolicyId = Annotated[str, IdOf("travel.policy")]
FlightOfferId = Annotated[str, IdOf("travel.flight_offer")]
HotelOfferId = Annotated[str, IdOf("travel.hotel_offer")]
TripId = Annotated[str, IdOf("travel.trip")]
BookingId = Annotated[str, IdOf("travel.booking")]

Cabin = Literal["economy", "premium_economy", "business", "first"]
CABIN_RANK: dict[str, int] = {"economy": 0, "premium_economy": 1, "business": 2, "first": 3}
CABIN_FACTOR: dict[str, float] = {"economy": 1.0, "premium_economy": 1.6, "business": 3.2, "first": 5.0}
BookingStatus = Literal["pending_approval", "confirmed", "rejected", "cancelled", "used"]
HOLDING: tuple[str, ...] = ("pending_approval", "confirmed", "used")
"""Booking statuses that hold a seat or a room."""
OFFER_TTL = dt.timedelta(minutes=20)
"""How long a searched offer can be booked."""
CARRIERS: tuple[tuple[str, str], ...] = (
    ("LH", "Lufthansa"),
    ("AF", "Air France"),
    ("BA", "British Airways"),
    ("UA", "United Airlines"),
    ("NH", "ANA"),
    ("SQ", "Singapore Airlines"),
    ("QF", "Qantas"),
    ("AC", "Air Canada"),
)
HOTEL_BRANDS: tuple[str, ...] = ("Grand Central Hotel", "Harbor Inn", "Parkside Suites", "City Lodge", "The Meridian")


class Traveler(Record):
    """An employee's traveler profile."""

    id: TravelerId
    email: Email
    """The employee's work e-mail; unique."""
    first_name: FirstName
    """Given name as on the passport."""
    last_name: LastName
    """Family name as on the passport."""
    department: str
    """The employee's department; it selects the travel policy."""
    home_city: City
    """City the traveler usually departs from."""
    home_country: Country
    """Country of the home city."""
    manager_email: Email
    """E-mail of the manager who approves out-of-policy bookings."""


class Policy(Record):
    """A department's travel policy (Navan policy): price caps and the highest cabin allowed."""

    id: PolicyId
    department: str
    """The department it applies to; unique."""
    max_flight_fare: Cents
    """Highest fare per flight, in cents, bookable without approval."""
    max_hotel_nightly_rate: Cents
    """Highest hotel rate per night, in cents, bookable without approval."""
    currency: Currency
    """Currency of the caps (the company's home currency)."""
    max_cabin: Cabin = "economy"
    """Highest cabin bookable without approval."""


class FlightOffer(Record):
    """A priced, bookable flight offer; it expires at expires_at."""

    id: FlightOfferId
    origin: City
    """Departure city."""
    origin_country: Country
    """Country of the departure city."""
    destination: City
    """Arrival city."""
    destination_country: Country
    """Country of the arrival city."""
    carrier: str
    """Operating airline."""
    flight_number: str
    """Flight number such as LH 401."""
    departure_at: DateTime
    """Departure time (UTC)."""
    arrival_at: DateTime
    """Arrival time (UTC)."""
    cabin: Cabin
    """Cabin class."""
    price: Cents
    """Total fare in cents."""
    currency: Currency
    """Currency of the fare."""
    seats_left: Quantity
    """Seats still bookable at this fare."""
    expires_at: DateTime
    """After this time the offer cannot be booked; search again."""


class HotelOffer(Record):
    """A priced, bookable hotel room offer for a stay; it expires at expires_at."""

    id: HotelOfferId
    hotel_name: Title
    """Hotel name."""
    city: City
    """City of the hotel."""
    country: Country
    """Country of the hotel."""
    check_in: Date
    """Arrival date."""
    check_out: Date
    """Departure date, after check_in."""
    room_type: Literal["standard", "deluxe", "suite"] = "standard"
    """Room type."""
    nightly_rate: Cents
    """Rate per night in cents."""
    total: Cents
    """Rate for the whole stay in cents."""
    currency: Currency
    """Currency of the rates."""
    expires_at: DateTime
    """After this time the offer cannot be booked; search again."""


class Trip(Created):
    """A business trip of one traveler that groups its bookings."""

    id: TripId
    traveler_id: TravelerId
    """The traveling employee."""
    name: Title
    """Trip name."""
    purpose: Text = ""
    """Business purpose."""
    destination: City
    """Main destination city."""
    start_date: Date
    """First day of the trip."""
    end_date: Date
    """Last day of the trip, on or after start_date."""


class Booking(Record):
    """A booked flight or hotel stay on a trip."""

    id: BookingId
    confirmation: Annotated[str, Generated("sequence", "WP{n:06d}")]
    """Booking reference (PNR / hotel confirmation)."""
    trip_id: TripId
    """The trip it belongs to."""
    traveler_id: TravelerId
    """The traveler."""
    kind: Literal["flight", "hotel"]
    """flight or hotel."""
    flight_offer_id: FlightOfferId | None = None
    """The booked flight offer (flights)."""
    hotel_offer_id: HotelOfferId | None = None
    """The booked hotel offer (hotels)."""
    summary: Title
    """What was booked, e.g. 'LH 401 Berlin → New York'."""
    starts_at: DateTime
    """Departure or check-in time."""
    ends_at: DateTime
    """Arrival or check-out time."""
    price: Cents
    """Total price in cents."""
    currency: Currency
    """Currency of the price."""
    status: BookingStatus = "confirmed"
    """pending_approval, confirmed, rejected, cancelled or used (flown / stayed)."""
    out_of_policy: bool = False
    """Whether it exceeded the traveler's policy."""
    policy_reason: Text | None = None
    """Why an out-of-policy booking was needed."""
    approved_by: Email | None = None
    """Manager who approved or rejected it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


def _guard_trip(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Traveler, new.traveler_id, field="traveler_id")
    if new.end_date < new.start_date:
        raise RuleViolation(
            "a trip cannot end before it starts", field="end_date", hint="set end_date on or after start_date"
        )


def _guard_trip_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if any(b.status in HOLDING for b in ctx.where(Booking, trip_id=old.id)):
        raise RuleViolation(
            f"trip {old.id} still has active bookings",
            field="trip_id",
            hint="cancel its bookings with travel__cancel_booking first",
        )


travelers = service.resource(
    Traveler,
    name="traveler",
    plural="travelers",
    prefix="trv",
    create=False,
    filters=("email", "department", "home_city", "manager_email"),
    search=("first_name", "last_name", "email"),
    update=("home_city", "home_country", "manager_email"),
    delete=False,
    unique=("email",),
)
policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=False,
    filters=("department",),
    update=("max_flight_fare", "max_hotel_nightly_rate", "max_cabin"),
    delete=False,
    unique=("department",),
    title="travel policy",
)
flight_offers = service.resource(
    FlightOffer,
    name="flight_offer",
    plural="flight_offers",
    prefix="fo",
    create=False,
    filters=("origin", "destination", "cabin", "carrier"),
    search=("flight_number", "origin", "destination"),
    delete=False,
)
hotel_offers = service.resource(
    HotelOffer,
    name="hotel_offer",
    plural="hotel_offers",
    prefix="ho",
    create=False,
    filters=("city", "check_in", "room_type"),
    search=("hotel_name", "city"),
    delete=False,
)
trips = service.resource(
    Trip,
    name="trip",
    plural="trips",
    prefix="trip",
    create=("traveler_id", "name", "purpose", "destination", "start_date", "end_date"),
    filters=("traveler_id", "destination"),
    search=("name", "destination"),
    update=("name", "purpose", "start_date", "end_date"),
    guard_create=_guard_trip,
    guard_update=_guard_trip,
    guard_delete=_guard_trip_delete,
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bkg",
    create=False,
    filters=("trip_id", "traveler_id", "kind", "status", "confirmation"),
    search=("summary", "confirmation"),
    delete=False,
)


# -- helpers -----------------------------------------------------------------------------


def _place(city: str, field: str) -> Place:
    place = world_place(city.strip())
    if place is not None:
        return place
    raise NotFound(
        f"no airport served in {city}",
        field=field,
        hint="use one of: " + ", ".join(p.city for p in PLACES),
    )


def _km(a: Place, b: Place) -> float:
    # Not geo.haversine_km: for some city pairs that differs in the last bit, and a fare is int() of this
    # distance times a random factor, so only this exact formula keeps every fare as it was.
    la1, lo1, la2, lo2 = map(math.radians, (a.latitude, a.longitude, b.latitude, b.longitude))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def _home_currency(ctx: Ctx | SeedContext) -> str:
    return ctx.population.home.place.currency


def _policy_for(ctx: Ctx, traveler: Traveler) -> Policy | None:
    return ctx.first(Policy, department=traveler.department)


def _live_offer_check(ctx: Ctx, expires_at: dt.datetime, field: str) -> None:
    if expires_at <= ctx.now():
        raise RuleViolation(
            f"the offer expired at {expires_at.isoformat()}",
            field=field,
            hint="search again and book the fresh offer before it expires",
        )


def _open_trip(ctx: Ctx, trip_id: str) -> tuple[Trip, Traveler]:
    trip = ctx.get(Trip, trip_id, field="trip_id")
    return trip, ctx.get(Traveler, trip.traveler_id, field="trip_id")


def _policy_gate(over: list[str], policy_reason: str | None) -> str | None:
    if over and not (policy_reason or "").strip():
        raise RuleViolation(
            "this booking is out of policy (" + "; ".join(over) + ")",
            field="policy_reason",
            hint="give a policy_reason; the booking then waits for the traveler's manager to approve it, "
            "or pick a cheaper offer",
        )
    return (policy_reason or "").strip() or None if over else None


# -- search ------------------------------------------------------------------------------


def _example_search_flights(ctx: Ctx) -> dict[str, Any]:
    return {
        "origin": ctx.population.home.place.city,
        "destination": next(p.city for p in PLACES if p.city != ctx.population.home.place.city),
        "departure_date": (ctx.today() + dt.timedelta(days=14)).isoformat(),
    }


@service.tool(intent="search flights", write=True, example=_example_search_flights)
def search_flight_offers(
    ctx: Ctx, origin: City, destination: City, departure_date: Date, cabin: Cabin = "economy"
) -> list[FlightOffer]:
    """Search priced flight offers between two cities on a date; offers can be booked for 20 minutes.

    Args:
        origin: Departure city (a city of the world such as Berlin or New York).
        destination: Arrival city, different from origin.
        departure_date: Day of departure, today or later.
        cabin: Cabin class.
    """
    a = _place(origin, "origin")
    b = _place(destination, "destination")
    if a.city == b.city:
        raise RuleViolation(
            "origin and destination are the same city", field="destination", hint="choose another destination"
        )
    if departure_date < ctx.today():
        raise RuleViolation(
            f"{departure_date.isoformat()} is in the past", field="departure_date", hint="search today or later"
        )
    km = _km(a, b)
    hours = km / 800 + 0.75
    out: list[FlightOffer] = []
    for k in range(3):
        code, _ = CARRIERS[ctx.rng.randrange(len(CARRIERS))]
        dep = utc_at(departure_date, 6 + k * 5, 5 * ctx.rng.randint(0, 11))
        fare = int((4000 + km * 9) * CABIN_FACTOR[cabin] * ctx.rng.uniform(0.85, 1.3))
        out.append(
            ctx.create(
                FlightOffer,
                origin=a.city,
                origin_country=a.country,
                destination=b.city,
                destination_country=b.country,
                carrier=code,
                flight_number=f"{code} {ctx.rng.randint(100, 999)}",
                departure_at=dep,
                arrival_at=dep + dt.timedelta(minutes=int(hours * 60)),
                cabin=cabin,
                price=fare // 100 * 100,
                currency=_home_currency(ctx),
                seats_left=ctx.rng.randint(1, 9),
                expires_at=ctx.now() + OFFER_TTL,
            )
        )
    return out


def _example_search_hotels(ctx: Ctx) -> dict[str, Any]:
    start = ctx.today() + dt.timedelta(days=14)
    return {"city": "London", "check_in": start.isoformat(), "check_out": (start + dt.timedelta(days=3)).isoformat()}


@service.tool(intent="search hotels", write=True, example=_example_search_hotels)
def search_hotel_offers(ctx: Ctx, city: City, check_in: Date, check_out: Date) -> list[HotelOffer]:
    """Search priced hotel offers in a city for a stay; offers can be booked for 20 minutes.

    Args:
        city: City of the stay.
        check_in: Arrival date, today or later.
        check_out: Departure date, after check_in.
    """
    place = _place(city, "city")
    if check_out <= check_in:
        raise RuleViolation("check-out must be after check-in", field="check_out", hint="stay at least one night")
    if check_in < ctx.today():
        raise RuleViolation(f"{check_in.isoformat()} is in the past", field="check_in", hint="search today or later")
    nights = (check_out - check_in).days
    out: list[HotelOffer] = []
    for k, room in enumerate(("standard", "deluxe", "suite")):
        rate = ctx.rng.randint(9, 22) * 1000 * (k + 1)
        out.append(
            ctx.create(
                HotelOffer,
                hotel_name=f"{HOTEL_BRANDS[ctx.rng.randrange(len(HOTEL_BRANDS))]} {place.city}",
                city=place.city,
                country=place.country,
                check_in=check_in,
                check_out=check_out,
                room_type=room,
                nightly_rate=rate,
                total=rate * nights,
                currency=_home_currency(ctx),
                expires_at=ctx.now() + OFFER_TTL,
            )
        )
    return out


# -- booking -----------------------------------------------------------------------------


def _example_book_flight(ctx: Ctx) -> dict[str, Any] | None:
    for trip in ctx.scan(Trip):
        busy = [b for b in ctx.where(Booking, traveler_id=trip.traveler_id, kind="flight") if b.status in HOLDING]
        for offer in ctx.scan(FlightOffer):
            if offer.expires_at <= ctx.now() or offer.seats_left == 0:
                continue
            if any(b.starts_at < offer.arrival_at and offer.departure_at < b.ends_at for b in busy):
                continue
            return {"trip_id": trip.id, "flight_offer_id": offer.id, "policy_reason": "Client meeting"}
    return None


@service.tool(intent="book the flight", write=True, example=_example_book_flight)
def book_flight(
    ctx: Ctx, trip_id: TripId, flight_offer_id: FlightOfferId, policy_reason: Text | None = None
) -> Booking:
    """Book a flight offer for the trip's traveler (Amadeus flight order).

    The offer must not have expired and must have a seat left; the traveler
    cannot hold another flight overlapping it. A fare above the department's
    cap or a cabin above its allowed cabin needs a policy_reason and then waits
    for the manager's approval.

    Args:
        trip_id: The trip to book on.
        flight_offer_id: The offer from search_flight_offers.
        policy_reason: Why an out-of-policy fare is needed; required when it is out of policy.
    """
    trip, traveler = _open_trip(ctx, trip_id)
    offer = ctx.get(FlightOffer, flight_offer_id, field="flight_offer_id")
    _live_offer_check(ctx, offer.expires_at, "flight_offer_id")
    if offer.seats_left == 0:
        raise RuleViolation("no seats left at this fare", field="flight_offer_id", hint="search again")
    for b in ctx.where(Booking, traveler_id=traveler.id, kind="flight"):
        if b.status in HOLDING and b.starts_at < offer.arrival_at and offer.departure_at < b.ends_at:
            raise RuleViolation(
                f"{traveler.email} already has flight {b.summary} ({b.confirmation}) at that time",
                field="flight_offer_id",
                hint="pick a flight that does not overlap, or cancel the other booking",
            )
    policy = _policy_for(ctx, traveler)
    over: list[str] = []
    if policy is not None:
        if offer.price > policy.max_flight_fare:
            over.append(f"fare {offer.price} above the cap of {policy.max_flight_fare}")
        if CABIN_RANK[offer.cabin] > CABIN_RANK[policy.max_cabin]:
            over.append(f"{offer.cabin} above the allowed {policy.max_cabin}")
    reason = _policy_gate(over, policy_reason)
    ctx.update(offer, seats_left=offer.seats_left - 1)
    return ctx.create(
        Booking,
        trip_id=trip.id,
        traveler_id=traveler.id,
        kind="flight",
        flight_offer_id=offer.id,
        summary=f"{offer.flight_number} {offer.origin} → {offer.destination}",
        starts_at=offer.departure_at,
        ends_at=offer.arrival_at,
        price=offer.price,
        currency=offer.currency,
        status="pending_approval" if over else "confirmed",
        out_of_policy=bool(over),
        policy_reason=reason,
    )


def _example_book_hotel(ctx: Ctx) -> dict[str, Any] | None:
    trip = ctx.first(Trip)
    offer = next((o for o in ctx.scan(HotelOffer) if o.expires_at > ctx.now()), None)
    if trip is None or offer is None:
        return None
    return {"trip_id": trip.id, "hotel_offer_id": offer.id, "policy_reason": "Conference hotel"}


@service.tool(intent="book the hotel", write=True, example=_example_book_hotel)
def book_hotel(ctx: Ctx, trip_id: TripId, hotel_offer_id: HotelOfferId, policy_reason: Text | None = None) -> Booking:
    """Book a hotel offer for the trip's traveler.

    The offer must not have expired. A nightly rate above the department's cap
    needs a policy_reason and then waits for the manager's approval.

    Args:
        trip_id: The trip to book on.
        hotel_offer_id: The offer from search_hotel_offers.
        policy_reason: Why an out-of-policy rate is needed; required when it is out of policy.
    """
    trip, traveler = _open_trip(ctx, trip_id)
    offer = ctx.get(HotelOffer, hotel_offer_id, field="hotel_offer_id")
    _live_offer_check(ctx, offer.expires_at, "hotel_offer_id")
    policy = _policy_for(ctx, traveler)
    over: list[str] = []
    if policy is not None and offer.nightly_rate > policy.max_hotel_nightly_rate:
        over.append(f"nightly rate {offer.nightly_rate} above the cap of {policy.max_hotel_nightly_rate}")
    reason = _policy_gate(over, policy_reason)
    return ctx.create(
        Booking,
        trip_id=trip.id,
        traveler_id=traveler.id,
        kind="hotel",
        hotel_offer_id=offer.id,
        summary=f"{offer.hotel_name}, {(offer.check_out - offer.check_in).days} night(s)",
        starts_at=utc_at(offer.check_in, 15),
        ends_at=utc_at(offer.check_out, 11),
        price=offer.total,
        currency=offer.currency,
        status="pending_approval" if over else "confirmed",
        out_of_policy=bool(over),
        policy_reason=reason,
    )


def _example_pending(ctx: Ctx) -> dict[str, Any] | None:
    b = ctx.first(Booking, status="pending_approval")
    if b is None:
        return None
    return {"booking_id": b.id, "approver_email": ctx.get(Traveler, b.traveler_id).manager_email}


def _pending_for_manager(ctx: Ctx, booking_id: str, approver_email: str) -> Booking:
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "pending_approval":
        raise RuleViolation(
            f"booking {b.confirmation} is {b.status}", field="booking_id", hint="only pending bookings are decided"
        )
    manager = ctx.get(Traveler, b.traveler_id).manager_email
    if approver_email != manager:
        raise RuleViolation(
            f"only the traveler's manager ({manager}) can decide on this booking",
            field="approver_email",
            hint=f"ask {manager} to approve",
        )
    return b


@service.tool(intent="approve the out-of-policy booking", write=True, example=_example_pending)
def approve_booking(ctx: Ctx, booking_id: BookingId, approver_email: Email) -> Booking:
    """Approve a booking that waits for approval; only the traveler's manager can.

    Args:
        booking_id: The pending booking.
        approver_email: E-mail of the approving manager.
    """
    b = _pending_for_manager(ctx, booking_id, approver_email)
    return ctx.update(b, status="confirmed", approved_by=approver_email)


@service.tool(intent="reject the out-of-policy booking", write=True, example=_example_pending)
def reject_booking(ctx: Ctx, booking_id: BookingId, approver_email: Email) -> Booking:
    """Reject a booking that waits for approval; only the traveler's manager can. A rejected flight frees its seat.

    Args:
        booking_id: The pending booking.
        approver_email: E-mail of the rejecting manager.
    """
    b = _pending_for_manager(ctx, booking_id, approver_email)
    _release_seat(ctx, b)
    return ctx.update(b, status="rejected", approved_by=approver_email)


def _release_seat(ctx: Ctx, b: Booking) -> None:
    if b.flight_offer_id is not None:
        offer = ctx.find(FlightOffer, b.flight_offer_id)
        if offer is not None:
            ctx.update(offer, seats_left=offer.seats_left + 1)


@service.tool(
    intent="cancel the booking",
    write=True,
    destructive=True,
    example=first_example(Booking, "booking_id", where={"status": "confirmed"}),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a pending or confirmed booking; used (flown or stayed) and already cancelled ones cannot be.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status == "used" or b.ends_at <= ctx.now():
        raise RuleViolation(
            f"booking {b.confirmation} has already been used",
            field="booking_id",
            hint="used segments cannot be cancelled; file an expense correction instead",
        )
    if b.status not in ("pending_approval", "confirmed"):
        raise RuleViolation(
            f"booking {b.confirmation} is already {b.status}", field="booking_id", hint="nothing to cancel"
        )
    _release_seat(ctx, b)
    return ctx.update(b, status="cancelled")


class Itinerary(BaseModel):
    """A trip with its bookings in time order and what it costs."""

    trip: Trip = Field(description="The trip.")
    traveler_email: Email = Field(description="The traveler's e-mail.")
    bookings: list[Booking] = Field(description="Its bookings, earliest first.")
    committed_cost: Cents = Field(description="Sum of confirmed, pending and used bookings, in cents.")
    currency: Currency = Field(description="Currency of the cost.")
    pending_approvals: int = Field(description="Bookings waiting for the manager.")


@service.tool(intent="show the trip's itinerary")
def trip_itinerary(ctx: Ctx, trip_id: TripId) -> Itinerary:
    """Show a trip's bookings in time order with the committed cost.

    Args:
        trip_id: The trip.
    """
    trip, traveler = _open_trip(ctx, trip_id)
    items = sorted(ctx.where(Booking, trip_id=trip.id), key=lambda b: (b.starts_at, b.id))
    return Itinerary(
        trip=trip,
        traveler_email=traveler.email,
        bookings=items,
        committed_cost=sum(b.price for b in items if b.status in HOLDING),
        currency=_home_currency(ctx),
        pending_approvals=sum(1 for b in items if b.status == "pending_approval"),
    )


# -- seeding -----------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """A profile per employee, a policy per department, offers, trips with bookings in every status."""
    travelers = _seed_travelers(s)
    for n, dept in enumerate(sorted({t.department for t in travelers})):
        s.create(
            Policy,
            department=dept,
            max_flight_fare=(60000, 90000, 150000)[n % 3],
            max_hotel_nightly_rate=(18000, 25000)[n % 2],
            currency=_home_currency(s),
            max_cabin="business" if dept == "Sales" else "economy",
        )
    offers = _seed_flight_offers(s)
    _seed_hotel_offers(s)
    _seed_trips(s, travelers, offers)


def _seed_travelers(s: SeedContext) -> list[Traveler]:
    """Every employee; the manager is the department's first member (for whom it is the first employee)."""
    emps = list(s.population.employees)
    heads: dict[str, str] = {}
    for e in emps:
        heads.setdefault(e.department or "General", e.email)
    travelers: list[Traveler] = []
    for e in emps:
        dept = e.department or "General"
        manager = (
            heads[dept] if heads[dept] != e.email else (emps[0].email if e.email != emps[0].email else emps[1].email)
        )
        travelers.append(
            s.create(
                Traveler,
                email=e.email,
                first_name=e.first_name,
                last_name=e.last_name,
                department=dept,
                home_city=e.place.city,
                home_country=e.place.country,
                manager_email=manager,
            )
        )
    return travelers


def _seed_flight_offers(s: SeedContext) -> list[FlightOffer]:
    """Thirty quotes between the home city and the others, around today; a third of them stale."""
    home = s.population.home.place
    others = [p for p in PLACES if p.city != home.city]
    offers: list[FlightOffer] = []
    for n in range(30):
        dest = others[n % len(others)]
        a, b = (home, dest) if n % 2 == 0 else (dest, home)
        day = s.now.date() + dt.timedelta(days=(n % 10) - 3)
        dep = utc_at(day, 7 + n % 12)
        km = _km(a, b)
        cabin: Cabin = ("economy", "economy", "premium_economy", "business")[n % 4]
        code = CARRIERS[n % len(CARRIERS)][0]
        offers.append(
            s.create(
                FlightOffer,
                origin=a.city,
                origin_country=a.country,
                destination=b.city,
                destination_country=b.country,
                carrier=code,
                flight_number=f"{code} {100 + n * 7}",
                departure_at=dep,
                arrival_at=dep + dt.timedelta(minutes=int((km / 800 + 0.75) * 60)),
                cabin=cabin,
                price=int((4000 + km * 9) * CABIN_FACTOR[cabin]) // 100 * 100,
                currency=_home_currency(s),
                seats_left=s.rng.randint(0, 9),
                # A third of the quotes are stale; the rest stay bookable for two days.
                expires_at=s.now - dt.timedelta(hours=1) if n % 3 == 2 else s.now + dt.timedelta(days=2),
            )
        )
    return offers


def _seed_hotel_offers(s: SeedContext) -> None:
    """Twenty hotel quotes, one in four in the home city; every fifth stale."""
    home = s.population.home.place
    others = [p for p in PLACES if p.city != home.city]
    for n in range(20):
        place = others[n % len(others)] if n % 4 else home
        check_in = s.now.date() + dt.timedelta(days=n % 12 - 2)
        nights = 1 + n % 4
        rate = (12000, 19000, 32000)[n % 3]
        s.create(
            HotelOffer,
            hotel_name=f"{HOTEL_BRANDS[n % len(HOTEL_BRANDS)]} {place.city}",
            city=place.city,
            country=place.country,
            check_in=check_in,
            check_out=check_in + dt.timedelta(days=nights),
            room_type=("standard", "deluxe", "suite")[n % 3],
            nightly_rate=rate,
            total=rate * nights,
            currency=_home_currency(s),
            expires_at=s.now - dt.timedelta(hours=1) if n % 5 == 4 else s.now + dt.timedelta(days=2),
        )


def _seed_trips(s: SeedContext, travelers: list[Traveler], offers: list[FlightOffer]) -> None:
    """Fifteen trips on the offers not departing today, each with its flight booked in some status."""
    statuses: tuple[BookingStatus, ...] = ("confirmed", "used", "pending_approval", "cancelled", "rejected")
    for n, offer in enumerate(o for o in offers if o.departure_at.date() != s.now.date()):
        if n >= 15:
            break
        trv = travelers[(n * 5) % len(travelers)]
        trip = s.create(
            Trip,
            traveler_id=trv.id,
            name=f"{offer.destination} visit",
            purpose="Customer meetings",
            destination=offer.destination,
            start_date=offer.departure_at.date(),
            end_date=offer.departure_at.date() + dt.timedelta(days=3),
        )
        past = offer.arrival_at < s.now
        status = "used" if past else statuses[n % len(statuses)]
        if status == "used" and not past:
            status = "confirmed"
        s.create(
            Booking,
            trip_id=trip.id,
            traveler_id=trv.id,
            kind="flight",
            flight_offer_id=offer.id,
            summary=f"{offer.flight_number} {offer.origin} → {offer.destination}",
            starts_at=offer.departure_at,
            ends_at=offer.arrival_at,
            price=offer.price,
            currency=_home_currency(s),
            status=status,
            out_of_policy=status in ("pending_approval", "rejected"),
            policy_reason="Only direct flight that day" if status in ("pending_approval", "rejected") else None,
            approved_by=trv.manager_email if status == "rejected" else None,
        )
