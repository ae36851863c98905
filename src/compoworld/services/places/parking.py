"""Curbside Parking: garages and lots to reserve, on-street zones to pay by phone, vehicles and citations.

Modeled on the SpotHero Partner API v2 (facilities with rates and reservable
inventory, quotes, reservations with free cancellation before start, check-in)
and the ParkMobile API (zones with hourly rates and a maximum stay, parking
sessions started, extended and stopped by plate, pay-as-you-go zones,
enforcement citations). A reservation is priced by the hour with a daily
maximum per 24-hour block, must start in the future and last at most 14 days,
and is refused when the facility's reservable spaces are already all taken at
some moment of the window or the vehicle is already booked then. A vehicle
parks in one zone at a time; a session lasts between the zone's minimum and
maximum stay, extensions included, and some zones allow no extension. Stopping
early refunds nothing in prepaid zones and charges only the time used (at
least the minimum) in pay-as-you-go zones. A citation cannot be issued for a
vehicle whose paid session covers it; it can be disputed within 21 days and
costs a late fee once past its due date.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Phone,
    PostalAddress,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "parking",
    title="Curbside Parking",
    category="parking",
    modeled_on="SpotHero Partner API v2 (facilities, rates, quotes, reservations, check-in) and ParkMobile API "
    "(zones, parking sessions start/extend/stop, vehicles by plate, citations)",
    description="Parking: reservable garages and lots with hourly rates and daily maximums, on-street zones paid "
    "by phone with maximum stays, drivers' vehicles by plate, reservations that never overbook a facility, "
    "parking sessions started, extended and stopped, and parking citations with disputes and late fees.",
)

FacilityId = Annotated[str, IdOf("parking.facility")]
ZoneId = Annotated[str, IdOf("parking.zone")]
VehicleId = Annotated[str, IdOf("parking.vehicle")]
ReservationId = Annotated[str, IdOf("parking.reservation")]
SessionId = Annotated[str, IdOf("parking.session")]
CitationId = Annotated[str, IdOf("parking.citation")]
Plate = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{2,8}$")]
"""A licence plate, upper case without spaces or dashes (``7ABC123``)."""
PlateText = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$")]
"""A plate as the driver types it; spaces and dashes are dropped and letters upper-cased."""
Region = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
"""The state or country that issued the plate (``CA``, ``NY``, ``DE``)."""
ZoneCode = Annotated[str, StringConstraints(pattern=r"^[0-9]{4,6}$")]

ReservationStatus = Literal["confirmed", "checked_in", "completed", "cancelled"]
SessionStatus = Literal["active", "stopped", "expired"]
CitationStatus = Literal["issued", "paid", "disputed"]
Violation = Literal["expired_meter", "no_session", "overtime", "no_parking"]

TRANSACTION_FEE = 35
"""Convenience fee per session start or extension, in cents."""
MAX_RESERVATION = dt.timedelta(days=14)
CHECK_IN_EARLY = dt.timedelta(minutes=15)
DISPUTE_WINDOW = dt.timedelta(days=21)
PAYMENT_DUE = dt.timedelta(days=30)
FINES: dict[str, int] = {"expired_meter": 4500, "no_session": 6500, "overtime": 5500, "no_parking": 9500}
"""The fine of each violation, in cents."""
LATE_FEE = 2500
HOLDING = ("confirmed", "checked_in")
"""Reservation statuses that hold a space."""


def price_of(hourly: int, daily_max: int, start: dt.datetime, end: dt.datetime) -> int:
    """A stay's price in cents: each started hour at ``hourly``, each 24-hour block capped at ``daily_max``."""
    minutes = int((end - start).total_seconds() // 60)
    days, rest = divmod(minutes, 1440)
    hours = -(-rest // 60)
    return days * daily_max + min(hours * hourly, daily_max)


class Facility(Created):
    """A garage or lot whose spaces can be reserved ahead."""

    id: FacilityId
    name: Title
    """Display name."""
    operator: CompanyName
    """The company that runs the facility."""
    address: PostalAddress
    """Where it is."""
    kind: Literal["garage", "surface_lot", "valet"]
    """Garage, surface lot or valet stand."""
    capacity: int = Field(ge=1)
    """Total spaces."""
    reservable_spaces: int = Field(ge=0)
    """How many spaces may be held by reservations at the same time."""
    hourly_rate: Cents
    """Price per started hour, in cents."""
    daily_max: Cents
    """Most a 24-hour block costs, in cents."""
    active: bool = True
    """Whether it takes reservations."""


class Zone(Record):
    """An on-street or lot zone paid by phone, identified by the code on its signs."""

    id: ZoneId
    code: ZoneCode
    """The zone number posted on signs and meters."""
    city: City
    """The city the zone is in."""
    description: Title
    """Street or block."""
    hourly_rate: Cents
    """Price per hour, in cents (charged by the minute)."""
    min_minutes: int = Field(ge=1)
    """Shortest session sold, in minutes."""
    max_minutes: int = Field(ge=1)
    """Longest stay, extensions included, in minutes."""
    extensions_allowed: bool = True
    """Whether a running session may be extended."""
    billing: Literal["prepaid", "pay_as_you_go"] = "prepaid"
    """prepaid: the time bought is charged; pay_as_you_go: stopping early charges only the time used."""
    active: bool = True
    """Whether sessions can be started in it."""


class Vehicle(Created):
    """A driver's vehicle, known by its plate."""

    id: VehicleId
    plate: Plate
    """Licence plate."""
    region: Region
    """State or country of the plate."""
    make: str = ""
    """Manufacturer."""
    car_model: str = ""
    """Model name (Civic, Model 3)."""
    color: str = ""
    """Colour."""
    owner_name: PersonName
    """The driver's name."""
    owner_email: Email
    """The driver's e-mail address, where receipts go."""
    owner_phone: Phone | None = None
    """The driver's mobile number."""


class Reservation(Created):
    """A space held at a facility for a vehicle and a time window."""

    id: ReservationId
    facility_id: FacilityId
    """The facility."""
    vehicle_id: VehicleId
    """The vehicle."""
    driver_email: Email
    """Who booked it."""
    starts_at: DateTime
    """Start of the window."""
    ends_at: DateTime
    """End of the window."""
    price: Cents
    """What it costs, in cents."""
    status: ReservationStatus = "confirmed"
    """confirmed → checked_in → completed, or cancelled before the start."""
    refund_amount: Cents = 0
    """What a cancellation refunded, in cents."""
    checked_in_at: DateTime | None = None
    """When the vehicle entered."""


class Session(Created):
    """A pay-by-phone parking session of a vehicle in a zone."""

    id: SessionId
    zone_id: ZoneId
    """The zone."""
    vehicle_id: VehicleId
    """The vehicle."""
    plate: Plate
    """Its plate, as enforcement reads it."""
    started_at: DateTime
    """When parking started."""
    ends_at: DateTime
    """When the paid time ends (or ended)."""
    minutes: int = Field(ge=1)
    """Minutes bought, extensions included."""
    cost: Cents
    """Parking charged, in cents, fees excluded."""
    fees: Cents
    """Transaction fees charged, in cents."""
    extensions: int = 0
    """How many times it was extended."""
    status: SessionStatus = "active"
    """active until stopped or its time runs out."""


class Citation(Created):
    """A parking ticket written by enforcement."""

    id: CitationId
    plate: Plate
    """The plate cited."""
    region: Region
    """The plate's state or country."""
    vehicle_id: VehicleId | None = None
    """The registered vehicle with that plate, if any."""
    zone_id: ZoneId
    """Where it was written."""
    violation: Violation
    """What was wrong."""
    fine: Cents
    """The fine, in cents."""
    issued_at: DateTime
    """When it was written."""
    due_at: DateTime
    """Pay by then to avoid the late fee."""
    status: CitationStatus = "issued"
    """issued → paid, or issued → disputed."""
    amount_paid: Cents = 0
    """What was paid, late fee included, in cents."""
    paid_at: DateTime | None = None
    """When it was paid."""


# -- guards -----------------------------------------------------------------------------------


def _guard_check_in(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != "checked_in":
        return
    now = ctx.now()
    if now < old.starts_at - CHECK_IN_EARLY:
        raise RuleViolation(
            f"reservation {old.id} starts at {old.starts_at}; check-in opens 15 minutes before",
            field="reservation_id",
            hint="come back closer to the start, or park by the hour",
        )
    if now >= old.ends_at:
        raise RuleViolation(
            f"reservation {old.id} ended at {old.ends_at}", field="reservation_id", hint="book a new reservation"
        )
    ctx.update(new, checked_in_at=now)


def _guard_citation(ctx: Ctx, new: Any, old: Any) -> None:
    now = ctx.now()
    if new.status == "disputed" and now - old.issued_at > DISPUTE_WINDOW:
        raise RuleViolation(
            f"citation {old.id} was issued on {old.issued_at:%Y-%m-%d}; disputes close after 21 days",
            field="citation_id",
            hint="pay the citation",
        )
    if new.status == "paid":
        late = LATE_FEE if now > old.due_at else 0
        ctx.update(new, amount_paid=old.fine + late, paid_at=now)


facilities = service.resource(
    Facility,
    name="facility",
    plural="facilities",
    prefix="fac",
    create=False,
    filters=("kind", "operator", "active"),
    search=("name", "operator"),
    delete=False,
)
zones = service.resource(
    Zone,
    name="zone",
    plural="zones",
    prefix="zone",
    create=False,
    get=False,
    filters=("code", "city", "billing", "active"),
    search=("description",),
    delete=False,
    unique=("code",),
)
vehicles = service.resource(
    Vehicle,
    name="vehicle",
    plural="vehicles",
    prefix="veh",
    create=False,
    get=False,
    filters=("plate", "region", "owner_email"),
    search=("owner_name", "make", "car_model"),
    delete=False,
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="res",
    create=False,
    get=False,
    filters=("facility_id", "vehicle_id", "driver_email", "status"),
    delete=False,
    transitions={
        "check_in": Transition(
            "status",
            ("confirmed",),
            "checked_in",
            "check the vehicle in for its reservation",
            description="Scan a reservation at the gate: allowed from 15 minutes before its start until its end.",
        )
    },
    guard_update=_guard_check_in,
)
sessions = service.resource(
    Session,
    name="session",
    plural="sessions",
    prefix="ps",
    create=False,
    get=False,
    filters=("zone_id", "vehicle_id", "plate", "status"),
    delete=False,
    title="parking session",
)
citations = service.resource(
    Citation,
    name="citation",
    plural="citations",
    prefix="cit",
    create=False,
    get=False,
    filters=("plate", "vehicle_id", "zone_id", "status", "violation"),
    delete=False,
    transitions={
        "pay": Transition(
            "status",
            ("issued",),
            "paid",
            "pay the parking ticket",
            description="Pay a citation: its fine, plus the late fee once past its due date.",
        ),
        "dispute": Transition(
            "status",
            ("issued",),
            "disputed",
            "contest the parking ticket",
            description="Contest a citation; only within 21 days of its issue.",
        ),
    },
    guard_update=_guard_citation,
)


# -- rules ------------------------------------------------------------------------------------


def _peak(ctx: Ctx, facility: Facility, start: dt.datetime, end: dt.datetime) -> int:
    """The most reservations holding a space of the facility at one moment of [start, end)."""
    held = [
        r
        for r in ctx.where(Reservation, facility_id=facility.id)
        if r.status in HOLDING and r.starts_at < end and r.ends_at > start
    ]
    moments = sorted({start, *(r.starts_at for r in held if r.starts_at > start)})
    return max((sum(1 for r in held if r.starts_at <= m < r.ends_at) for m in moments), default=0)


def _window(ctx: Ctx, facility: Facility, starts_at: dt.datetime, ends_at: dt.datetime) -> None:
    if not facility.active:
        raise RuleViolation(
            f"{facility.name} takes no reservations", field="facility_id", hint="choose another facility"
        )
    if ends_at <= starts_at:
        raise RuleViolation("ends_at must be after starts_at", field="ends_at", hint="give a later end")
    if starts_at < ctx.now():
        raise RuleViolation(
            "a reservation cannot start in the past", field="starts_at", hint="start a session in a zone instead"
        )
    if ends_at - starts_at > MAX_RESERVATION:
        raise RuleViolation("a reservation lasts at most 14 days", field="ends_at", hint="book a monthly pass")


class Quote(BaseModel):
    """Price and availability of a facility for a window."""

    facility_id: FacilityId = Field(description="The facility.")
    starts_at: DateTime = Field(description="Start of the window.")
    ends_at: DateTime = Field(description="End of the window.")
    price: Cents = Field(description="What a reservation would cost, in cents.")
    spaces_left: int = Field(description="Reservable spaces free through the whole window.")
    available: bool = Field(description="Whether a reservation can be made.")


def _quote_example(ctx: Ctx) -> dict[str, Any] | None:
    fac = ctx.first(Facility, active=True)
    if fac is None:
        return None
    start = ctx.now() + dt.timedelta(days=3)
    return {
        "facility_id": fac.id,
        "starts_at": start.isoformat(),
        "ends_at": (start + dt.timedelta(hours=5)).isoformat(),
    }


def _reserve_example(ctx: Ctx) -> dict[str, Any] | None:
    args = _quote_example(ctx)
    vehicle = next(ctx.scan(Vehicle), None)
    if args is None or vehicle is None:
        return None
    return args | {"vehicle_id": vehicle.id}


def _running(ctx: Ctx, vehicle_id: str) -> Session | None:
    now = ctx.now()
    return next((s for s in ctx.where(Session, vehicle_id=vehicle_id, status="active") if s.ends_at > now), None)


def _start_example(ctx: Ctx) -> dict[str, Any] | None:
    zone = ctx.first(Zone, active=True)
    for vehicle in ctx.scan(Vehicle):
        if zone is not None and _running(ctx, vehicle.id) is None:
            return {"zone_id": zone.id, "vehicle_id": vehicle.id, "minutes": zone.min_minutes}
    return None


def _live(ctx: Ctx, session: Session) -> bool:
    return session.status == "active" and session.ends_at > ctx.now()


def _extendable(ctx: Ctx, session: Session) -> bool:
    zone = ctx.get(Zone, session.zone_id)
    return _live(ctx, session) and zone.extensions_allowed and session.minutes + 15 <= zone.max_minutes


def _issue_example(ctx: Ctx) -> dict[str, Any] | None:
    zone = ctx.first(Zone, active=True)
    if zone is None:
        return None
    return {"zone_id": zone.id, "plate": "ZZ9 PLR", "region": "CA", "violation": "no_session"}


# -- vehicles ---------------------------------------------------------------------------------


def _normal_plate(text: str) -> str:
    normal = text.replace(" ", "").replace("-", "").upper()
    if not 2 <= len(normal) <= 8:
        raise RuleViolation(
            f"plate {text!r} has {len(normal)} letters and digits; plates have 2 to 8",
            field="plate",
            hint="type the plate as printed",
        )
    return normal


def _add_vehicle_example(ctx: Ctx) -> dict[str, Any] | None:
    person = ctx.population.consumers[-1]
    return {
        "plate": "8 XYZ-417",
        "region": "CA",
        "owner_name": person.name,
        "owner_email": person.email,
        "make": "Kia",
        "car_model": "Niro",
    }


@service.tool(intent="add a vehicle to the driver's account", write=True, example=_add_vehicle_example)
def add_vehicle(
    ctx: Ctx,
    plate: PlateText,
    region: Region,
    owner_name: PersonName,
    owner_email: Email,
    owner_phone: Phone | None = None,
    make: str = "",
    car_model: str = "",
    color: str = "",
) -> Vehicle:
    """Register a vehicle by its plate; a plate and region can be registered once.

    Args:
        plate: The plate as written on it (spaces and dashes are dropped, letters upper-cased).
        region: The state or country that issued it.
        owner_name: The driver's name.
        owner_email: The driver's e-mail address.
        owner_phone: The driver's mobile number.
        make: Manufacturer.
        car_model: Model name.
        color: Colour.
    """
    normal = _normal_plate(plate)
    for other in ctx.where(Vehicle, plate=normal, region=region):
        raise Conflict(
            f"plate {region} {normal} is already registered ({other.id})",
            field="plate",
            hint="use the registered vehicle",
        )
    return ctx.create(
        Vehicle,
        plate=normal,
        region=region,
        owner_name=owner_name,
        owner_email=owner_email,
        owner_phone=owner_phone,
        make=make,
        car_model=car_model,
        color=color,
    )


# -- reservations -----------------------------------------------------------------------------


@service.tool(intent="quote a parking reservation", example=_quote_example)
def quote_reservation(ctx: Ctx, facility_id: FacilityId, starts_at: DateTime, ends_at: DateTime) -> Quote:
    """Price a stay at a facility and say whether a space is free for the whole window.

    Args:
        facility_id: The facility.
        starts_at: Start of the stay.
        ends_at: End of the stay.
    """
    fac = ctx.get(Facility, facility_id, field="facility_id")
    _window(ctx, fac, starts_at, ends_at)
    left = max(0, fac.reservable_spaces - _peak(ctx, fac, starts_at, ends_at))
    return Quote(
        facility_id=fac.id,
        starts_at=starts_at,
        ends_at=ends_at,
        price=price_of(fac.hourly_rate, fac.daily_max, starts_at, ends_at),
        spaces_left=left,
        available=left > 0,
    )


@service.tool(intent="reserve a parking space", write=True, example=_reserve_example)
def create_reservation(
    ctx: Ctx, facility_id: FacilityId, vehicle_id: VehicleId, starts_at: DateTime, ends_at: DateTime
) -> Reservation:
    """Reserve a space at a facility for a vehicle.

    The window must start in the future and last at most 14 days; refused when
    all reservable spaces are held at some moment of it, or when the vehicle
    already holds an overlapping reservation.

    Args:
        facility_id: The facility.
        vehicle_id: The vehicle.
        starts_at: Start of the stay.
        ends_at: End of the stay.
    """
    fac = ctx.get(Facility, facility_id, field="facility_id")
    vehicle = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    _window(ctx, fac, starts_at, ends_at)
    for other in ctx.where(Reservation, vehicle_id=vehicle.id):
        if other.status in HOLDING and other.starts_at < ends_at and other.ends_at > starts_at:
            raise Conflict(
                f"{vehicle.plate} already holds reservation {other.id} from {other.starts_at} to {other.ends_at}",
                field="vehicle_id",
                hint="cancel it first or choose another window",
            )
    if _peak(ctx, fac, starts_at, ends_at) >= fac.reservable_spaces:
        raise RuleViolation(
            f"{fac.name} is sold out for part of that window",
            field="starts_at",
            hint="quote another window or another facility",
        )
    return ctx.create(
        Reservation,
        facility_id=fac.id,
        vehicle_id=vehicle.id,
        driver_email=vehicle.owner_email,
        starts_at=starts_at,
        ends_at=ends_at,
        price=price_of(fac.hourly_rate, fac.daily_max, starts_at, ends_at),
    )


@service.tool(
    intent="cancel the parking reservation",
    write=True,
    destructive=True,
    example=first_example(
        Reservation, "reservation_id", where={"status": "confirmed"}, match=lambda c, r: r.starts_at > c.now()
    ),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel a confirmed reservation before it starts, refunding its full price.

    Args:
        reservation_id: The reservation.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.status != "confirmed":
        raise RuleViolation(
            f"reservation {res.id} is {res.status}", field="reservation_id", hint="only confirmed ones can be cancelled"
        )
    if res.starts_at <= ctx.now():
        raise RuleViolation(
            f"reservation {res.id} started at {res.starts_at}; it can no longer be cancelled",
            field="reservation_id",
            hint="contact the facility for a refund",
        )
    return ctx.update(res, status="cancelled", refund_amount=res.price)


# -- sessions ---------------------------------------------------------------------------------


@service.tool(intent="start paying for parking in the zone", write=True, example=_start_example)
def start_session(ctx: Ctx, zone_id: ZoneId, vehicle_id: VehicleId, minutes: int) -> Session:
    """Start a parking session for a vehicle in a zone, paying for ``minutes`` up front.

    Refused while the vehicle has a running session anywhere, or when the
    minutes are outside the zone's minimum and maximum stay.

    Args:
        zone_id: The zone (the code on the sign: list zones by code).
        vehicle_id: The vehicle.
        minutes: Minutes to buy.
    """
    zone = ctx.get(Zone, zone_id, field="zone_id")
    vehicle = ctx.get(Vehicle, vehicle_id, field="vehicle_id")
    if not zone.active:
        raise RuleViolation(f"zone {zone.code} is not in service", field="zone_id", hint="use a nearby zone")
    running = _running(ctx, vehicle.id)
    if running is not None:
        raise Conflict(
            f"{vehicle.plate} is already parked in session {running.id} until {running.ends_at}",
            field="vehicle_id",
            hint="extend or stop that session",
        )
    if not zone.min_minutes <= minutes <= zone.max_minutes:
        raise RuleViolation(
            f"zone {zone.code} sells {zone.min_minutes} to {zone.max_minutes} minutes",
            field="minutes",
            hint=f"buy between {zone.min_minutes} and {zone.max_minutes} minutes",
        )
    now = ctx.now()
    return ctx.create(
        Session,
        zone_id=zone.id,
        vehicle_id=vehicle.id,
        plate=vehicle.plate,
        started_at=now,
        ends_at=now + dt.timedelta(minutes=minutes),
        minutes=minutes,
        cost=_charge(zone, minutes),
        fees=TRANSACTION_FEE,
    )


def _charge(zone: Zone, minutes: int) -> int:
    return (zone.hourly_rate * minutes + 59) // 60


def _live_session(ctx: Ctx, session_id: str) -> Session:
    session = ctx.get(Session, session_id, field="session_id")
    if not _live(ctx, session):
        state = "expired" if session.status == "active" else session.status
        raise RuleViolation(
            f"session {session.id} is {state} (ended {session.ends_at})",
            field="session_id",
            hint="start a new session",
        )
    return session


@service.tool(
    intent="add time to the parking session",
    write=True,
    example=first_example(Session, "session_id", where={"status": "active"}, match=_extendable, minutes=15),
)
def extend_session(ctx: Ctx, session_id: SessionId, minutes: int) -> Session:
    """Buy more time for a running session, up to the zone's maximum stay in all.

    Args:
        session_id: The running session.
        minutes: Minutes to add.
    """
    session = _live_session(ctx, session_id)
    zone = ctx.get(Zone, session.zone_id)
    if not zone.extensions_allowed:
        raise RuleViolation(
            f"zone {zone.code} allows no extensions", field="session_id", hint="move the vehicle before time runs out"
        )
    if minutes < 1 or session.minutes + minutes > zone.max_minutes:
        raise RuleViolation(
            f"zone {zone.code} allows {zone.max_minutes} minutes in all; {session.minutes} are bought",
            field="minutes",
            hint=f"add at most {zone.max_minutes - session.minutes} minutes",
        )
    total = session.minutes + minutes
    return ctx.update(
        session,
        minutes=total,
        ends_at=session.started_at + dt.timedelta(minutes=total),
        cost=_charge(zone, total),
        fees=session.fees + TRANSACTION_FEE,
        extensions=session.extensions + 1,
    )


@service.tool(
    intent="stop the parking session",
    write=True,
    example=first_example(Session, "session_id", where={"status": "active"}, match=_live),
)
def stop_session(ctx: Ctx, session_id: SessionId) -> Session:
    """Stop a running session now. Prepaid zones keep the charge; pay-as-you-go zones charge the time used.

    Args:
        session_id: The running session.
    """
    session = _live_session(ctx, session_id)
    zone = ctx.get(Zone, session.zone_id)
    now = ctx.now()
    cost = session.cost
    if zone.billing == "pay_as_you_go":
        used = max(zone.min_minutes, -(-int((now - session.started_at).total_seconds()) // 60))
        cost = _charge(zone, min(used, session.minutes))
    return ctx.update(session, status="stopped", ends_at=now, cost=cost)


# -- enforcement ------------------------------------------------------------------------------


@service.tool(intent="write a parking ticket", write=True, example=_issue_example)
def issue_citation(ctx: Ctx, zone_id: ZoneId, plate: PlateText, region: Region, violation: Violation) -> Citation:
    """Write a citation for a plate in a zone.

    An expired-meter or no-session citation is refused when the vehicle's
    paid session in that zone covers it now.

    Args:
        zone_id: Where the vehicle is parked.
        plate: Its plate.
        region: The plate's state or country.
        violation: What is wrong.
    """
    zone = ctx.get(Zone, zone_id, field="zone_id")
    plate = _normal_plate(plate)
    vehicle = ctx.first(Vehicle, plate=plate, region=region)
    now = ctx.now()
    if vehicle is not None and violation in ("expired_meter", "no_session"):
        paid = next(
            (s for s in ctx.where(Session, vehicle_id=vehicle.id, zone_id=zone.id) if s.started_at <= now < s.ends_at),
            None,
        )
        if paid is not None:
            raise RuleViolation(
                f"{plate} has paid session {paid.id} in zone {zone.code} until {paid.ends_at}",
                field="plate",
                hint="the vehicle is paid up; no citation",
            )
    return ctx.create(
        Citation,
        plate=plate,
        region=region,
        vehicle_id=vehicle.id if vehicle else None,
        zone_id=zone.id,
        violation=violation,
        fine=FINES[violation],
        issued_at=now,
        due_at=now + PAYMENT_DUE,
    )


# -- seed -------------------------------------------------------------------------------------

_CARS = (
    ("Toyota", "Camry", "silver"),
    ("Honda", "Civic", "blue"),
    ("Ford", "F-150", "black"),
    ("Tesla", "Model 3", "white"),
    ("Subaru", "Outback", "green"),
    ("Volkswagen", "Golf", "red"),
    ("Hyundai", "Tucson", "grey"),
)
_ZONES = (
    ("4521", "Main St 100-300 block", 300, 15, 120, True, "prepaid"),
    ("4522", "Market St meters", 400, 15, 240, True, "pay_as_you_go"),
    ("4530", "Station loading strip", 250, 10, 30, False, "prepaid"),
    ("5010", "Civic Center lot", 200, 30, 600, True, "pay_as_you_go"),
    ("5011", "Riverside Ave", 150, 15, 180, True, "prepaid"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Facilities run by the population's companies, zones, drivers' vehicles, bookings, sessions, citations."""
    pop = s.population
    now = s.now
    facilities = []
    for k, company in enumerate(pop.customers[:5]):
        cap = (40, 120, 12, 300, 60)[k]
        facilities.append(
            s.create(
                Facility,
                name=f"{company.address.street} {('Garage', 'Lot', 'Valet', 'Garage', 'Lot')[k]}",
                operator=company.name,
                address=company.address,
                kind=("garage", "surface_lot", "valet", "garage", "surface_lot")[k],
                capacity=cap,
                reservable_spaces=(3, 40, 4, 100, 20)[k],
                hourly_rate=(600, 400, 1200, 500, 300)[k],
                daily_max=(3200, 2000, 4800, 2800, 1500)[k],
                active=k != 4,
            )
        )
    city = pop.home.address.city
    zones = [
        s.create(
            Zone,
            code=code,
            city=city,
            description=desc,
            hourly_rate=rate,
            min_minutes=lo,
            max_minutes=hi,
            extensions_allowed=ext,
            billing=billing,
        )
        for code, desc, rate, lo, hi, ext, billing in _ZONES
    ]
    drivers = [*pop.consumers[:10], *pop.employees[:4]]
    vehicles = []
    for k, person in enumerate(drivers):
        make, car_model, color = _CARS[k % len(_CARS)]
        vehicles.append(
            s.create(
                Vehicle,
                plate=f"{k + 1}{s.rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}{s.rng.choice('ABCDEFGHJKLMNPRSTUVWXYZ')}"
                f"{s.rng.randint(100, 999)}",
                region=person.place.country if person.place.country != "US" else s.rng.choice(("CA", "NY", "TX")),
                make=make,
                car_model=car_model,
                color=color,
                owner_name=person.name,
                owner_email=person.email,
                owner_phone=person.phone,
            )
        )
    _seed_reservations(s, facilities, vehicles, now)
    _seed_sessions(s, zones, vehicles, now)
    _seed_citations(s, zones, vehicles, now)


def _seed_reservations(s: SeedContext, facilities: list[Facility], vehicles: list[Vehicle], now: dt.datetime) -> None:
    def book(fac: Facility, veh: Vehicle, start: dt.datetime, hours: int, status: ReservationStatus) -> None:
        end = start + dt.timedelta(hours=hours)
        s.create(
            Reservation,
            facility_id=fac.id,
            vehicle_id=veh.id,
            driver_email=veh.owner_email,
            starts_at=start,
            ends_at=end,
            price=price_of(fac.hourly_rate, fac.daily_max, start, end),
            status=status,
            refund_amount=price_of(fac.hourly_rate, fac.daily_max, start, end) if status == "cancelled" else 0,
            checked_in_at=start if status in ("checked_in", "completed") else None,
        )

    small = facilities[0]
    tomorrow = (now + dt.timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
    # The small garage is fully booked tomorrow from 9 to 17.
    for k in range(small.reservable_spaces):
        book(small, vehicles[k], tomorrow, 8, "confirmed")
    book(facilities[1], vehicles[3], now + dt.timedelta(minutes=10), 4, "confirmed")
    book(facilities[1], vehicles[4], now - dt.timedelta(hours=2), 6, "checked_in")
    book(facilities[1], vehicles[5], now - dt.timedelta(days=2), 3, "completed")
    book(facilities[3], vehicles[6], now + dt.timedelta(days=2), 10, "confirmed")
    book(facilities[3], vehicles[7], now + dt.timedelta(days=3), 30, "cancelled")


def _seed_sessions(s: SeedContext, zones: list[Zone], vehicles: list[Vehicle], now: dt.datetime) -> None:
    plan = (
        (0, 8, 30, 60, "active"),
        (1, 9, 20, 120, "active"),
        (2, 10, 5, 30, "active"),
        (0, 11, 200, 60, "expired"),
        (3, 12, 300, 120, "stopped"),
    )
    for z, v, ago, minutes, status in plan:
        zone, veh = zones[z], vehicles[v]
        start = now - dt.timedelta(minutes=ago)
        s.create(
            Session,
            zone_id=zone.id,
            vehicle_id=veh.id,
            plate=veh.plate,
            started_at=start,
            ends_at=start + dt.timedelta(minutes=minutes if status != "stopped" else 45),
            minutes=minutes,
            cost=_charge(zone, minutes if status != "stopped" or zone.billing == "prepaid" else 45),
            fees=TRANSACTION_FEE,
            status=status,
        )


def _seed_citations(s: SeedContext, zones: list[Zone], vehicles: list[Vehicle], now: dt.datetime) -> None:
    plan: tuple[tuple[int, int, Violation, int, CitationStatus], ...] = (
        (0, 11, "expired_meter", 2, "issued"),
        (1, 12, "overtime", 40, "issued"),
        (4, 13, "no_session", 10, "disputed"),
        (2, 2, "no_parking", 60, "paid"),
    )
    for z, v, violation, days, status in plan:
        veh = vehicles[v]
        issued = now - dt.timedelta(days=days)
        s.create(
            Citation,
            plate=veh.plate,
            region=veh.region,
            vehicle_id=veh.id,
            zone_id=zones[z].id,
            violation=violation,
            fine=FINES[violation],
            issued_at=issued,
            due_at=issued + PAYMENT_DUE,
            status=status,
            amount_paid=FINES[violation] + LATE_FEE if status == "paid" else 0,
            paid_at=issued + dt.timedelta(days=35) if status == "paid" else None,
        )
