"""Staylane Partner Hub: hotel properties, room types, rate plans, availability, bookings and cancellation policies.

Modeled on the Booking.com Connectivity APIs (properties, room types, rate
plans, availability and restrictions / closures, reservations) and the Expedia
Partner Central EQC APIs (Availability and Rates, Booking Retrieval and
Confirmation): a stay is sold per night, so every night needs a unit of the
room type that no other booking holds and no closure (stop-sell) covers; rate
plans set the nightly rate, a minimum stay and the cancellation policy
(refundable free until some days before arrival, otherwise the first night is
charged; non-refundable plans charge the whole stay); guests cannot exceed the
room's occupancy; stays last 1 to 30 nights and start today or later; guests
check in from the arrival day, check out after checking in, and a confirmed
booking not checked in by the day after arrival becomes a no-show and pays
the cancellation fee.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Place
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    OrderNumber,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.places._shared import local_address, local_phone

__all__ = ["service"]

service = Service(
    "hotels",
    title="Staylane Partner Hub",
    category="travel",
    modeled_on="Booking.com Connectivity APIs (properties, room types, rate plans, availability and restrictions, "
    "reservations) / Expedia Partner Central EQC (Availability and Rates, Booking Retrieval)",
    description="The hotel supplier's side of online travel: properties with their room types and unit counts, "
    "rate plans with nightly rates, minimum stays and cancellation policies, stop-sell closures, night-by-night "
    "availability, guest bookings with their prices and cancellation fees, arrivals, departures and no-shows.",
)

PropertyId = Annotated[str, IdOf("hotels.property")]
RoomTypeId = Annotated[str, IdOf("hotels.room_type")]
RatePlanId = Annotated[str, IdOf("hotels.rate_plan")]
ClosureId = Annotated[str, IdOf("hotels.closure")]
BookingId = Annotated[str, IdOf("hotels.booking")]
Clock = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]
Guests = Annotated[int, Field(ge=1, le=12)]
BookingStatus = Literal["confirmed", "checked_in", "checked_out", "cancelled", "no_show"]
HOLDING: tuple[str, ...] = ("confirmed", "checked_in")
MAX_NIGHTS = 30


class Property(Record):
    """A hotel connected to the partner hub."""

    id: PropertyId
    name: CompanyName
    """Hotel name."""
    address: PostalAddress
    """Address."""
    star_rating: Annotated[int, Field(ge=1, le=5)]
    """Official stars."""
    currency: Currency
    """Currency rates are loaded in."""
    contact_email: Email
    """The property's reservations desk."""
    phone: Phone
    """Front desk phone."""
    check_in_from: Clock = "15:00"
    """Earliest check-in time."""
    check_out_until: Clock = "11:00"
    """Latest check-out time."""
    city_tax_percent: Percent = 0
    """Tax added to the room price, in percent."""


class RoomType(Record):
    """A kind of room and how many of them the property sells."""

    id: RoomTypeId
    property_id: PropertyId
    """The property."""
    name: Title
    """Room type name."""
    max_occupancy: Guests
    """Most guests (adults and children) in one room."""
    units: Annotated[int, Field(ge=0, le=2000)]
    """Rooms of this type that can be sold each night."""
    bed_type: Literal["single", "double", "twin", "king", "bunk"] = "double"
    """Beds."""


class RatePlan(Record):
    """A price and policy under which a room type is sold."""

    id: RatePlanId
    property_id: PropertyId
    """The property."""
    room_type_id: RoomTypeId
    """The room type it prices."""
    name: Title
    """Rate plan name."""
    nightly_rate: Cents
    """Price per night, before city tax, in cents."""
    refundable: bool = True
    """Whether the guest can cancel for free until the deadline."""
    free_cancellation_days: Annotated[int, Field(ge=0, le=60)] = 1
    """Days before arrival until which cancelling is free (refundable plans)."""
    min_stay_nights: Annotated[int, Field(ge=1, le=MAX_NIGHTS)] = 1
    """Shortest stay sold."""
    meal_plan: Literal["room_only", "breakfast", "half_board"] = "room_only"
    """Meals included."""
    active: bool = True
    """Inactive plans are not sold."""


class Closure(Record):
    """A stop-sell: nights on which a room type is not sold."""

    id: ClosureId
    room_type_id: RoomTypeId
    """The room type closed."""
    start_date: Date
    """First night closed."""
    end_date: Date
    """First night open again (exclusive)."""
    reason: Text = ""
    """Why (renovation, event block …)."""


class Booking(Record):
    """A guest's stay."""

    id: BookingId
    reservation_number: Annotated[OrderNumber, Generated("sequence", "SL-{n:07d}")]
    """Reservation number the guest and the channel quote."""
    property_id: PropertyId
    """The property."""
    room_type_id: RoomTypeId
    """The room type."""
    rate_plan_id: RatePlanId
    """The rate plan."""
    guest_name: PersonName
    """The lead guest."""
    guest_email: Email
    """The guest's e-mail."""
    guest_phone: Phone | None = None
    """The guest's phone."""
    adults: Guests
    """Adults."""
    children: Annotated[int, Field(ge=0, le=10)] = 0
    """Children."""
    check_in: Date
    """Arrival date."""
    check_out: Date
    """Departure date."""
    nights: Annotated[int, Field(ge=1, le=MAX_NIGHTS)]
    """Nights stayed."""
    room_total: Cents
    """Nightly rate times nights, in cents."""
    city_tax: Cents
    """City tax on the room total, in cents."""
    total: Cents
    """Room total plus city tax, in cents."""
    currency: Currency
    """Currency."""
    refundable: bool
    """Whether the rate plan was refundable."""
    free_cancellation_until: Date | None = None
    """Last day cancelling is free; null for non-refundable stays."""
    cancellation_fee: Cents = 0
    """Charged on cancellation or no-show, in cents."""
    status: BookingStatus = "confirmed"
    """confirmed, checked_in, checked_out, cancelled or no_show."""
    channel: Literal["direct", "booking_com", "expedia"] = "direct"
    """Where it was booked."""
    special_requests: Text = ""
    """Requests to the hotel."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules -------------------------------------------------------------------------------------


def _nights(check_in: dt.date, check_out: dt.date) -> list[dt.date]:
    return [check_in + dt.timedelta(days=k) for k in range((check_out - check_in).days)]


def _sold(ctx: Ctx, room_type_id: str, night: dt.date, skip: str | None = None) -> int:
    return sum(
        1
        for b in ctx.where(Booking, room_type_id=room_type_id)
        if b.id != skip and b.status in HOLDING and b.check_in <= night < b.check_out
    )


def _closed(ctx: Ctx, room_type_id: str, night: dt.date) -> Closure | None:
    for c in ctx.where(Closure, room_type_id=room_type_id):
        if c.start_date <= night < c.end_date:
            return c
    return None


def _check_stay(
    ctx: Ctx,
    room: RoomType,
    plan: RatePlan,
    check_in: dt.date,
    check_out: dt.date,
    guests: int,
    skip: str | None,
    field: str,
) -> None:
    if check_out <= check_in:
        raise RuleViolation("check-out must be after check-in", field="check_out", hint="stay at least one night")
    if check_in < ctx.today():
        raise RuleViolation(
            f"arrival {check_in} is in the past", field="check_in", hint=f"arrive on {ctx.today()} or later"
        )
    nights = (check_out - check_in).days
    if nights > MAX_NIGHTS:
        raise RuleViolation(
            f"stays last at most {MAX_NIGHTS} nights", field="check_out", hint="split the stay into two bookings"
        )
    if nights < plan.min_stay_nights:
        raise RuleViolation(
            f"rate plan {plan.name} needs a stay of at least {plan.min_stay_nights} nights",
            field="check_out",
            hint="stay longer or pick another rate plan",
        )
    if guests > room.max_occupancy:
        raise RuleViolation(
            f"{room.name} sleeps at most {room.max_occupancy}",
            field="adults",
            hint="book a larger room type or a second room",
        )
    for night in _nights(check_in, check_out):
        closure = _closed(ctx, room.id, night)
        if closure is not None:
            raise RuleViolation(
                f"{room.name} is closed on {night} ({closure.reason or 'stop-sell'})",
                field=field,
                hint="pick other dates or another room type (hotels__check_availability)",
            )
        if _sold(ctx, room.id, night, skip) >= room.units:
            raise RuleViolation(
                f"{room.name} is sold out on {night}",
                field=field,
                hint="pick other dates or another room type (hotels__check_availability)",
            )


def _price(prop: Property, plan: RatePlan, check_in: dt.date, check_out: dt.date) -> dict[str, Any]:
    nights = (check_out - check_in).days
    room_total = plan.nightly_rate * nights
    tax = round(room_total * prop.city_tax_percent / 100)
    return {
        "nights": nights,
        "room_total": room_total,
        "city_tax": tax,
        "total": room_total + tax,
        "refundable": plan.refundable,
        "free_cancellation_until": check_in - dt.timedelta(days=plan.free_cancellation_days)
        if plan.refundable
        else None,
    }


def _fee(b: Booking, today: dt.date) -> int:
    """What cancelling costs today: nothing before the deadline, else the first night; the whole stay if non-refundable."""
    if not b.refundable:
        return b.total
    if b.free_cancellation_until is not None and today <= b.free_cancellation_until:
        return 0
    return b.total // b.nights


def _guard_rate_plan(ctx: Ctx, new: Any, old: Any) -> None:
    room = ctx.get(RoomType, new.room_type_id, field="room_type_id")
    if old is None:
        ctx.get(Property, new.property_id, field="property_id")
    if room.property_id != new.property_id:
        raise RuleViolation(
            f"room type {room.name} belongs to another property",
            field="room_type_id",
            hint="pick a room type of the same property",
        )
    if not new.refundable and new.free_cancellation_days:
        raise RuleViolation(
            "a non-refundable plan has no free cancellation",
            field="free_cancellation_days",
            hint="set free_cancellation_days to 0, or make the plan refundable",
        )


def _guard_room_type(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Property, new.property_id, field="property_id")
    if old is not None and new.units < old.units:
        for b in ctx.where(Booking, room_type_id=new.id):
            if b.status not in HOLDING:
                continue
            for night in _nights(max(b.check_in, ctx.today()), b.check_out):
                if _sold(ctx, new.id, night) > new.units:
                    raise RuleViolation(
                        f"{_sold(ctx, new.id, night)} rooms are already sold on {night}",
                        field="units",
                        hint="keep at least as many units as are sold on any night",
                    )


def _guard_closure(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(RoomType, new.room_type_id, field="room_type_id")
    if new.end_date <= new.start_date:
        raise RuleViolation("the closure must end after it starts", field="end_date", hint="close at least one night")


properties = service.resource(
    Property,
    name="property",
    plural="properties",
    prefix="prp",
    create=False,
    filters=("currency", "star_rating", "contact_email"),
    search=("name",),
    update=("contact_email", "phone", "check_in_from", "check_out_until", "city_tax_percent"),
    delete=False,
    title="hotel property",
)
room_types = service.resource(
    RoomType,
    name="room_type",
    plural="room_types",
    prefix="rmt",
    create=("property_id", "name", "max_occupancy", "units", "bed_type"),
    filters=("property_id", "bed_type"),
    search=("name",),
    update=("name", "max_occupancy", "units", "bed_type"),
    delete=False,
    guard_create=_guard_room_type,
    guard_update=_guard_room_type,
    title="room type",
)
rate_plans = service.resource(
    RatePlan,
    name="rate_plan",
    plural="rate_plans",
    prefix="rpl",
    create=(
        "property_id",
        "room_type_id",
        "name",
        "nightly_rate",
        "refundable",
        "free_cancellation_days",
        "min_stay_nights",
        "meal_plan",
    ),
    filters=("property_id", "room_type_id", "refundable", "active", "meal_plan"),
    search=("name",),
    update=("name", "nightly_rate", "free_cancellation_days", "min_stay_nights", "meal_plan", "active"),
    delete=False,
    guard_create=_guard_rate_plan,
    guard_update=_guard_rate_plan,
    title="rate plan",
)
closures = service.resource(
    Closure,
    name="closure",
    plural="closures",
    prefix="cls",
    create=("room_type_id", "start_date", "end_date", "reason"),
    get=False,
    filters=("room_type_id",),
    guard_create=_guard_closure,
    title="stop-sell closure",
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bkg",
    create=False,
    filters=("property_id", "room_type_id", "status", "guest_email", "reservation_number", "check_in", "channel"),
    search=("guest_name", "guest_email", "reservation_number"),
    delete=False,
    title="hotel booking",
)


# -- examples ----------------------------------------------------------------------------------


def _bookable(ctx: Ctx) -> tuple[Property, RoomType, RatePlan, dt.date] | None:
    for plan in ctx.where(RatePlan, active=True):
        room = ctx.get(RoomType, plan.room_type_id)
        for offset in range(3, 40, 3):
            start = ctx.today() + dt.timedelta(days=offset)
            end = start + dt.timedelta(days=plan.min_stay_nights)
            nights = _nights(start, end)
            if all(_closed(ctx, room.id, n) is None and _sold(ctx, room.id, n) < room.units for n in nights):
                return ctx.get(Property, plan.property_id), room, plan, start
    return None


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    found = _bookable(ctx)
    if found is None:
        return None
    _, _, plan, start = found
    p = ctx.population.consumers[4]
    return {
        "rate_plan_id": plan.id,
        "guest_name": p.name,
        "guest_email": p.email,
        "guest_phone": p.phone,
        "adults": 1,
        "check_in": start.isoformat(),
        "check_out": (start + dt.timedelta(days=plan.min_stay_nights)).isoformat(),
    }


def _example_availability(ctx: Ctx) -> dict[str, Any] | None:
    prop = ctx.first(Property)
    if prop is None:
        return None
    start = ctx.today() + dt.timedelta(days=10)
    return {
        "property_id": prop.id,
        "check_in": start.isoformat(),
        "check_out": (start + dt.timedelta(days=2)).isoformat(),
        "adults": 2,
    }


_example_upcoming = first_example(
    Booking, "booking_id", where={"status": "confirmed"}, match=lambda ctx, b: b.check_in > ctx.today()
)


def _example_modify(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Booking, status="confirmed"):
        if b.check_in > ctx.today() and b.nights >= 2:
            return {"booking_id": b.id, "check_out": (b.check_out - dt.timedelta(days=1)).isoformat()}
    return None


_example_check_in = first_example(
    Booking, "booking_id", where={"status": "confirmed"}, match=lambda ctx, b: b.check_in == ctx.today()
)
_example_no_show = first_example(
    Booking, "booking_id", where={"status": "confirmed"}, match=lambda ctx, b: b.check_in < ctx.today()
)


def _example_occupancy(ctx: Ctx) -> dict[str, Any] | None:
    prop = ctx.first(Property)
    return None if prop is None else {"property_id": prop.id, "date": ctx.today().isoformat()}


# -- availability and booking ------------------------------------------------------------------


class Offer(BaseModel):
    """A room type and rate plan that can be booked for a stay, with its price."""

    room_type_id: RoomTypeId = Field(description="The room type.")
    room_name: Title = Field(description="Its name.")
    rate_plan_id: RatePlanId = Field(description="The rate plan.")
    rate_name: Title = Field(description="Its name.")
    rooms_left: int = Field(description="Fewest units free on any night of the stay.")
    nightly_rate: Cents = Field(description="Price per night, in cents.")
    total: Cents = Field(description="Price of the stay with city tax, in cents.")
    currency: Currency = Field(description="Currency.")
    refundable: bool = Field(description="Whether it can be cancelled for free until the deadline.")
    free_cancellation_until: Date | None = Field(description="Last day to cancel for free.")
    meal_plan: Literal["room_only", "breakfast", "half_board"] = Field(description="Meals included.")


@service.tool(intent="check which rooms are free for the stay", example=_example_availability)
def check_availability(
    ctx: Ctx, property_id: PropertyId, check_in: Date, check_out: Date, adults: Guests
) -> list[Offer]:
    """List the room types and rate plans of a property that can be booked for a stay, cheapest first.

    Args:
        property_id: The property.
        check_in: Arrival date.
        check_out: Departure date.
        adults: Guests in the room.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    if check_out <= check_in:
        raise RuleViolation("check-out must be after check-in", field="check_out", hint="stay at least one night")
    out: list[Offer] = []
    nights = _nights(check_in, check_out)
    for room in ctx.where(RoomType, property_id=prop.id):
        if room.max_occupancy < adults:
            continue
        if any(_closed(ctx, room.id, n) is not None for n in nights):
            continue
        left = min((room.units - _sold(ctx, room.id, n) for n in nights), default=0)
        if left < 1:
            continue
        for plan in ctx.where(RatePlan, room_type_id=room.id, active=True):
            if len(nights) < plan.min_stay_nights or len(nights) > MAX_NIGHTS:
                continue
            price = _price(prop, plan, check_in, check_out)
            out.append(
                Offer(
                    room_type_id=room.id,
                    room_name=room.name,
                    rate_plan_id=plan.id,
                    rate_name=plan.name,
                    rooms_left=left,
                    nightly_rate=plan.nightly_rate,
                    total=price["total"],
                    currency=prop.currency,
                    refundable=plan.refundable,
                    free_cancellation_until=price["free_cancellation_until"],
                    meal_plan=plan.meal_plan,
                )
            )
    out.sort(key=lambda o: (o.total, o.rate_plan_id))
    return out


@service.tool(intent="book the hotel room for the guest", write=True, example=_example_book)
def create_booking(
    ctx: Ctx,
    rate_plan_id: RatePlanId,
    guest_name: PersonName,
    guest_email: Email,
    adults: Guests,
    check_in: Date,
    check_out: Date,
    children: Annotated[int, Field(ge=0, le=10)] = 0,
    guest_phone: Phone | None = None,
    channel: Literal["direct", "booking_com", "expedia"] = "direct",
    special_requests: Text = "",
) -> Booking:
    """Book a room of a rate plan's room type for a stay, priced night by night with city tax.

    Every night needs a free unit and no closure; the stay must respect the
    plan's minimum stay and the room's occupancy, last 1 to 30 nights and
    start today or later.

    Args:
        rate_plan_id: The active rate plan (it names the room type).
        guest_name: The lead guest.
        guest_email: The guest's e-mail.
        adults: Adults.
        check_in: Arrival date.
        check_out: Departure date.
        children: Children.
        guest_phone: The guest's phone.
        channel: Where the booking comes from.
        special_requests: Requests to the hotel.
    """
    plan = ctx.get(RatePlan, rate_plan_id, field="rate_plan_id")
    if not plan.active:
        raise RuleViolation(f"rate plan {plan.name} is not sold", field="rate_plan_id", hint="pick an active rate plan")
    room = ctx.get(RoomType, plan.room_type_id)
    prop = ctx.get(Property, plan.property_id)
    _check_stay(ctx, room, plan, check_in, check_out, adults + children, None, "check_in")
    for other in ctx.where(Booking, property_id=prop.id, guest_email=guest_email):
        if other.status in HOLDING and other.check_in < check_out and check_in < other.check_out:
            raise Conflict(
                f"{guest_email} already has booking {other.reservation_number} here for overlapping nights",
                field="guest_email",
                hint="modify that booking instead, or give another guest's details for a second room",
            )
    return ctx.create(
        Booking,
        property_id=prop.id,
        room_type_id=room.id,
        rate_plan_id=plan.id,
        guest_name=guest_name,
        guest_email=guest_email,
        guest_phone=guest_phone,
        adults=adults,
        children=children,
        check_in=check_in,
        check_out=check_out,
        currency=prop.currency,
        channel=channel,
        special_requests=special_requests,
        **_price(prop, plan, check_in, check_out),
    )


def _confirmed(ctx: Ctx, booking_id: str) -> Booking:
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "confirmed":
        raise RuleViolation(
            f"booking {b.reservation_number} is {b.status}",
            field="booking_id",
            hint="only confirmed bookings that have not started can change",
        )
    return b


@service.tool(intent="change the dates of the hotel booking", write=True, example=_example_modify)
def modify_booking(
    ctx: Ctx, booking_id: BookingId, check_in: Date | None = None, check_out: Date | None = None
) -> Booking:
    """Move a confirmed booking to other dates; it is re-checked and re-priced at its rate plan.

    Args:
        booking_id: The confirmed booking.
        check_in: New arrival date.
        check_out: New departure date.
    """
    b = _confirmed(ctx, booking_id)
    if check_in is None and check_out is None:
        raise RuleViolation("nothing to change", field="booking_id", hint="pass check_in or check_out")
    plan = ctx.get(RatePlan, b.rate_plan_id)
    room = ctx.get(RoomType, b.room_type_id)
    prop = ctx.get(Property, b.property_id)
    start = check_in or b.check_in
    end = check_out or b.check_out
    _check_stay(ctx, room, plan, start, end, b.adults + b.children, b.id, "check_in" if check_in else "check_out")
    return ctx.update(b, check_in=start, check_out=end, **_price(prop, plan, start, end))


@service.tool(intent="cancel the hotel booking", write=True, destructive=True, example=_example_upcoming)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a confirmed booking under its policy: free until the deadline, then the first night; non-refundable stays pay in full.

    Args:
        booking_id: The confirmed booking.
    """
    b = _confirmed(ctx, booking_id)
    return ctx.update(b, status="cancelled", cancellation_fee=_fee(b, ctx.today()))


@service.tool(intent="check the guest in", write=True, example=_example_check_in)
def check_in_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Check the guest of a confirmed booking in, on or after the arrival day and before departure.

    Args:
        booking_id: The confirmed booking.
    """
    b = _confirmed(ctx, booking_id)
    today = ctx.today()
    if today < b.check_in:
        raise RuleViolation(
            f"booking {b.reservation_number} arrives on {b.check_in}",
            field="booking_id",
            hint="guests check in from their arrival day; move the booking to arrive today instead",
        )
    if today >= b.check_out:
        raise RuleViolation(
            f"booking {b.reservation_number} ended on {b.check_out}",
            field="booking_id",
            hint="mark it a no-show with hotels__mark_no_show",
        )
    return ctx.update(b, status="checked_in")


@service.tool(
    intent="check the guest out",
    write=True,
    example=first_example(Booking, "booking_id", where={"status": "checked_in"}),
)
def check_out_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Check a checked-in guest out.

    Args:
        booking_id: The checked-in booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "checked_in":
        raise RuleViolation(
            f"booking {b.reservation_number} is {b.status}", field="booking_id", hint="check the guest in first"
        )
    return ctx.update(b, status="checked_out")


@service.tool(intent="mark the hotel booking a no-show", write=True, example=_example_no_show)
def mark_no_show(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Mark a confirmed booking whose guest never arrived a no-show, from the day after arrival; the cancellation fee applies.

    Args:
        booking_id: The confirmed booking.
    """
    b = _confirmed(ctx, booking_id)
    if ctx.today() <= b.check_in:
        raise RuleViolation(
            f"booking {b.reservation_number} arrives on {b.check_in}; the guest may still come",
            field="booking_id",
            hint="mark no-shows from the day after arrival",
        )
    fee = b.total if not b.refundable else b.total // b.nights
    return ctx.update(b, status="no_show", cancellation_fee=fee)


class RoomNight(BaseModel):
    """One room type's sales on one night."""

    room_type_id: RoomTypeId = Field(description="The room type.")
    room_name: Title = Field(description="Its name.")
    units: int = Field(description="Rooms of the type.")
    sold: int = Field(description="Rooms sold.")
    closed: bool = Field(description="Whether a closure stops sales.")


class Occupancy(BaseModel):
    """A property's occupancy on one night."""

    property_id: PropertyId = Field(description="The property.")
    date: Date = Field(description="The night.")
    rooms: list[RoomNight] = Field(description="Per room type.")
    units: int = Field(description="Rooms in total.")
    sold: int = Field(description="Rooms sold in total.")
    occupancy_percent: Percent = Field(description="Sold over units, in percent, rounded to one decimal.")
    arrivals: int = Field(description="Confirmed or checked-in bookings arriving that day.")
    departures: int = Field(description="Bookings leaving that day.")


@service.tool(intent="see the hotel's occupancy for the night", example=_example_occupancy)
def occupancy_report(ctx: Ctx, property_id: PropertyId, date: Date) -> Occupancy:
    """Report a property's rooms sold, per room type, on one night, with the day's arrivals and departures.

    Args:
        property_id: The property.
        date: The night.
    """
    prop = ctx.get(Property, property_id, field="property_id")
    rows = []
    for room in ctx.where(RoomType, property_id=prop.id):
        rows.append(
            RoomNight(
                room_type_id=room.id,
                room_name=room.name,
                units=room.units,
                sold=_sold(ctx, room.id, date),
                closed=_closed(ctx, room.id, date) is not None,
            )
        )
    units = sum(r.units for r in rows)
    sold = sum(r.sold for r in rows)
    mine = ctx.where(Booking, property_id=prop.id)
    return Occupancy(
        property_id=prop.id,
        date=date,
        rooms=rows,
        units=units,
        sold=sold,
        occupancy_percent=round(100 * sold / units, 1) if units else 0.0,
        arrivals=sum(1 for b in mine if b.check_in == date and b.status in HOLDING),
        departures=sum(1 for b in mine if b.check_out == date and b.status in (*HOLDING, "checked_out")),
    )


# -- seed --------------------------------------------------------------------------------------

HOTELS: tuple[tuple[str, int, float], ...] = (
    ("Harborview Hotel", 4, 5.0),
    ("Grand Central Suites", 5, 7.5),
    ("Linden Court Inn", 3, 3.0),
    ("Meridian Plaza", 4, 6.0),
    ("Parkside Lodge", 3, 0.0),
    ("Riverside Residences", 4, 4.5),
)
ROOMS: tuple[tuple[str, int, int, str, int], ...] = (
    ("Standard Double", 2, 6, "double", 100),
    ("Twin Room", 2, 4, "twin", 105),
    ("Family Suite", 4, 2, "king", 185),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Hotels in the home city and its partners' cities, rate plans, and guests' stays past, present and future."""
    props, plans_of = _seed_properties(s)
    _seed_bookings(s, props, plans_of)


_Bookable = tuple[RoomType, RatePlan, Property]


def _seed_properties(s: SeedContext) -> tuple[list[Property], dict[str, list[_Bookable]]]:
    """One hotel per entry of ``HOTELS`` in the home and customers' cities, each with its rooms and rate plans."""
    pop = s.population
    rng = s.rng
    chosen: list[Place] = []
    for place in [pop.home.place] + [c.place for c in pop.customers]:
        if place.city not in [p.city for p in chosen]:
            chosen.append(place)
    plans_of: dict[str, list[_Bookable]] = {}
    props: list[Property] = []
    for k, (name, stars, tax) in enumerate(HOTELS):
        place = chosen[k % len(chosen)]
        slug = name.lower().replace(" ", "")
        prop = s.create(
            Property,
            name=f"{name} {place.city}",
            address=local_address(rng, place, ("Harbor Road", "Station Road", "Park Avenue")[k % 3], 300),
            star_rating=stars,
            currency=place.currency,
            contact_email=f"reservations@{slug}.example.com",
            phone=local_phone(rng, place),
            city_tax_percent=tax,
        )
        props.append(prop)
        plans_of[prop.id] = _seed_rooms(s, k, prop, stars)
    return props, plans_of


def _seed_rooms(s: SeedContext, k: int, prop: Property, stars: int) -> list[_Bookable]:
    """The room types of the ``k``-th hotel with their rate plans; returns the bookable flexible and saver plans."""
    day = dt.timedelta(days=1)
    # Price level per currency, in minor units per cent of a dollar (yen have no minor unit).
    base = {"SEK": 10.0, "JPY": 1.5, "BRL": 5.0}
    factor = base.get(prop.currency, 1.0) * (60 + 25 * stars)
    bookable: list[_Bookable] = []
    for j, (room_name, occ, units, bed, pct) in enumerate(ROOMS):
        room = s.create(
            RoomType, property_id=prop.id, name=room_name, max_occupancy=occ, units=units + k % 2, bed_type=bed
        )
        nightly = int(factor * pct)
        flex = s.create(
            RatePlan,
            property_id=prop.id,
            room_type_id=room.id,
            name="Flexible",
            nightly_rate=nightly,
            refundable=True,
            free_cancellation_days=(1, 2, 3)[k % 3],
        )
        saver = s.create(
            RatePlan,
            property_id=prop.id,
            room_type_id=room.id,
            name="Non-refundable saver",
            nightly_rate=nightly * 85 // 100,
            refundable=False,
            free_cancellation_days=0,
            min_stay_nights=2 if j == 2 else 1,
        )
        if j == 0:
            s.create(
                RatePlan,
                property_id=prop.id,
                room_type_id=room.id,
                name="Bed & breakfast",
                nightly_rate=nightly + int(factor * 20),
                meal_plan="breakfast",
                active=k % 3 != 2,
            )
        bookable.extend([(room, flex, prop), (room, saver, prop)])
        if k == 1 and j == 1:
            s.create(
                Closure,
                room_type_id=room.id,
                start_date=s.now.date() + 10 * day,
                end_date=s.now.date() + 14 * day,
                reason="Floor renovation",
            )
    return bookable


def _seed_bookings(s: SeedContext, props: list[Property], plans_of: dict[str, list[_Bookable]]) -> None:
    """Stays of staff and consumers, past, present and future, never overbooking a room type."""
    pop = s.population
    now = s.now
    today = now.date()
    day = dt.timedelta(days=1)
    guests = list(pop.employees[:16]) + list(pop.consumers[:24])
    sold: dict[tuple[str, dt.date], int] = {}
    #  (arrival offset, nights, status)
    stays: tuple[tuple[int, int, BookingStatus], ...] = (
        (-6, 3, "checked_out"),
        (-1, 3, "checked_in"),
        (0, 2, "confirmed"),
        (5, 3, "confirmed"),
        (12, 2, "confirmed"),
        (-2, 2, "no_show"),
        (8, 4, "cancelled"),
        (-1, 2, "confirmed"),
        (20, 5, "confirmed"),
        (1, 1, "confirmed"),
    )
    for i, person in enumerate(guests):
        prop = props[i % len(props)]
        options = plans_of[prop.id]
        room, plan, _ = options[(i * 3) % len(options)]
        offset, nights, status = stays[i % len(stays)]
        nights = max(nights, plan.min_stay_nights)
        start = today + offset * day
        end = start + nights * day
        holds = status in HOLDING
        if holds and any(sold.get((room.id, n), 0) >= room.units for n in _nights(start, end)):
            continue
        if holds:
            for n in _nights(start, end):
                sold[(room.id, n)] = sold.get((room.id, n), 0) + 1
        price = _price(prop, plan, start, end)
        fee = 0
        if status == "no_show":
            fee = price["total"] if not plan.refundable else price["total"] // nights
        elif status == "cancelled":
            fee = 0 if plan.refundable else price["total"]
        s.create(
            Booking,
            property_id=prop.id,
            room_type_id=room.id,
            rate_plan_id=plan.id,
            guest_name=person.name,
            guest_email=person.email,
            guest_phone=person.phone,
            adults=min(room.max_occupancy, 1 + i % 2),
            check_in=start,
            check_out=end,
            currency=prop.currency,
            cancellation_fee=fee,
            status=status,
            channel=("direct", "booking_com", "expedia")[i % 3],
            special_requests=("Late arrival", "", "Quiet room please", "")[i % 4],
            created_at=now - (30 - i % 20) * day,
            updated_at=now - (2 + i % 5) * day,
            **price,
        )
