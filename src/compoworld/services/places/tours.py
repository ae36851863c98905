"""Tourdesk: a tour operator's activities, dated availabilities with capacity, bookings, cancellations, check-in.

Modeled on the FareHarbor External API (``items`` with ``customer_prototypes``
and ``customer_type_rates``, ``availabilities`` with capacity, ``bookings`` with
a contact and a list of customers, booking cancellation and rebooking,
check-in status per customer) and the Viator Supplier API (bookings from
resellers with a voucher, cancellation cut-offs). A booking takes seats on an
open availability that has not started, never beyond its capacity, for the
item's customer types only, with at least one adult for any child or infant
and at least one paying customer; it is booked → cancelled (a full refund up
to the item's cut-off before the start, none after), or moved to another open
availability of the same item, or checked in (from two hours before the start
to its end, at most its seats). An availability can be closed to sales and
reopened, its capacity never below the seats sold; cancelling it cancels its
bookings with full refunds. A guide is never on two overlapping
availabilities. Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, City, Currency, DateTime, Email, IdOf, PersonName, Phone, SemanticType, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "tours",
    title="Tourdesk",
    category="tours_activities",
    modeled_on="FareHarbor External API (items, customer type rates, availabilities, bookings, cancel/rebook, "
    "check-in) and Viator Supplier API (reseller bookings with vouchers, cancellation cut-offs)",
    description="Selling a tour operator's activities: tours with prices per customer type, dated departures "
    "with capacity and a guide, bookings from the website and resellers such as Viator and GetYourGuide, "
    "cancellations with cut-offs, rebooking to another departure, and check-in at the meeting point.",
)

ItemId = Annotated[str, IdOf("tours.item")]
AvailabilityId = Annotated[str, IdOf("tours.availability")]
BookingId = Annotated[str, IdOf("tours.booking")]

CustomerType = Literal["adult", "child", "senior", "student", "infant"]
Channel = Literal["direct", "viator", "getyourguide", "expedia"]
CHECKIN_EARLY = dt.timedelta(hours=2)


class Rate(Value):
    """A price for one customer type."""

    customer_type: CustomerType = Field(description="adult, child, senior, student or infant.")
    price: Cents = Field(description="Price per person in cents.")


class Seats(Value):
    """How many customers of one type a booking holds."""

    customer_type: CustomerType = Field(description="The customer type.")
    count: Annotated[int, Field(ge=1, le=100)] = Field(description="How many.")


class Item(Record):
    """A tour or activity the operator sells."""

    id: ItemId
    name: Title = Field(description="Its name (unique).")
    city: City = Field(description="Where it runs.")
    meeting_point: Annotated[str, StringConstraints(min_length=1, max_length=200)] = Field(description="Where to meet.")
    duration_minutes: Annotated[int, Field(ge=15, le=1440)] = Field(description="How long it lasts.")
    currency: Currency = Field(description="Its currency.")
    rates: tuple[Rate, ...] = Field(description="Prices per customer type (each type once).")
    cancel_cutoff_hours: Annotated[int, Field(ge=0, le=168)] = Field(24, description="Free cancellation until then.")
    active: bool = Field(True, description="Whether it is on sale.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was added.")


class Availability(Record):
    """A dated departure of an item."""

    id: AvailabilityId
    item_id: ItemId = Field(description="The item.")
    start_at: DateTime = Field(description="When it starts.")
    end_at: DateTime = Field(description="When it ends.")
    capacity: Annotated[int, Field(ge=1, le=500)] = Field(description="Seats.")
    booked: Annotated[int, Field(ge=0)] = Field(0, description="Seats sold.")
    guide_email: Email | None = Field(None, description="The guide (an employee).")
    status: Literal["open", "closed", "cancelled"] = Field("open", description="open, closed to sales, or cancelled.")


# The number a customer quotes for their booking (on the voucher, in their e-mails to support): an order's number.
Voucher = Annotated[str, SemanticType("order_number", kind="ref"), StringConstraints(pattern=r"^[A-Z]{2}-\d{6,8}$")]


class Booking(Record):
    """Seats on an availability, for one contact."""

    id: BookingId
    voucher: Voucher = Field(description="Voucher number.")
    availability_id: AvailabilityId = Field(description="The departure.")
    item_id: ItemId = Field(description="The item.")
    contact_name: PersonName = Field(description="Who booked.")
    contact_email: Email = Field(description="Their e-mail.")
    contact_phone: Phone | None = Field(None, description="Their phone.")
    customers: tuple[Seats, ...] = Field(description="Seats per customer type.")
    seats: Annotated[int, Field(ge=1)] = Field(description="Total seats.")
    total: Cents = Field(description="What was charged.")
    channel: Channel = Field("direct", description="direct, viator, getyourguide or expedia.")
    status: Literal["booked", "cancelled"] = Field("booked", description="booked or cancelled.")
    checked_in: Annotated[int, Field(ge=0)] = Field(0, description="Customers checked in.")
    refund: Cents = Field(0, description="What a cancellation refunded.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was booked.")


class Manifest(Value):
    """A departure's passenger list."""

    availability_id: AvailabilityId = Field(description="The departure.")
    capacity: int = Field(description="Seats.")
    booked: int = Field(description="Seats sold.")
    remaining: int = Field(description="Seats left.")
    checked_in: int = Field(description="Customers checked in.")
    by_type: dict[str, int] = Field(description="Seats sold per customer type.")
    contacts: list[str] = Field(description="Contact names of live bookings.")


# -- rules ------------------------------------------------------------------------------------


def _guard_item(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Item, name=new.name)
    if other is not None and other.id != new.id:
        raise Conflict(f"{new.name!r} exists", field="name", hint="pick another name")


def _guard_availability(ctx: Ctx, new: Any, old: Any) -> None:
    if new.capacity < new.booked:
        raise RuleViolation(
            f"{new.booked} seats are sold", field="capacity", hint=f"keep the capacity at {new.booked} or more"
        )
    if old.status == "cancelled":
        raise RuleViolation("the departure is cancelled", field="availability_id", hint="create a new departure")


items = service.resource(
    Item,
    name="item",
    plural="items",
    prefix="itm",
    create=False,
    filters=("city", "active"),
    search=("name", "meeting_point"),
    update=("meeting_point", "cancel_cutoff_hours", "active"),
    delete=False,
    guard_update=_guard_item,
    title="tour",
)
availabilities = service.resource(
    Availability,
    name="availability",
    plural="availabilities",
    prefix="avl",
    create=False,
    filters=("item_id", "status", "guide_email"),
    update=("capacity",),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the departure to sales"),
        "reopen": Transition("status", ("closed",), "open", "reopen the departure for sales"),
    },
    guard_update=_guard_availability,
    title="departure",
)


def _guard_booking(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "booked":
        raise RuleViolation("the booking is cancelled", field="booking_id", hint="nothing to change")


bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bkg",
    create=False,
    filters=("availability_id", "item_id", "status", "channel", "voucher", "contact_email"),
    search=("contact_name",),
    update=("contact_name", "contact_email", "contact_phone"),
    delete=False,
    guard_update=_guard_booking,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_item(ctx: Ctx) -> dict[str, Any] | None:
    place = ctx.population.home.place
    return {
        "name": "Sunset Kayak Paddle",
        "city": place.city,
        "meeting_point": "Marina boat ramp",
        "duration_minutes": 150,
        "currency": place.currency,
        "rates": [{"customer_type": "adult", "price": 6900}, {"customer_type": "child", "price": 4900}],
    }


@service.tool(intent="add the tour", write=True, example=_example_item)
def create_item(
    ctx: Ctx,
    name: Title,
    city: City,
    meeting_point: Annotated[str, StringConstraints(min_length=1, max_length=200)],
    duration_minutes: Annotated[int, Field(ge=15, le=1440)],
    currency: Currency,
    rates: list[Rate],
    cancel_cutoff_hours: Annotated[int, Field(ge=0, le=168)] = 24,
) -> Item:
    """Add a tour with a price per customer type (each type once, an adult rate always).

    Args:
        name: Its name (unique).
        city: Where it runs.
        meeting_point: Where to meet.
        duration_minutes: How long it lasts.
        currency: Its currency.
        rates: Prices per customer type.
        cancel_cutoff_hours: Free cancellation until this many hours before the start.
    """
    if ctx.first(Item, name=name) is not None:
        raise Conflict(f"{name!r} exists", field="name", hint="pick another name")
    kinds = [r.customer_type for r in rates]
    if len(set(kinds)) != len(kinds) or "adult" not in kinds:
        raise RuleViolation("rates need an adult rate and each type once", field="rates", hint="fix the rate list")
    return ctx.create(
        Item,
        name=name,
        city=city,
        meeting_point=meeting_point,
        duration_minutes=duration_minutes,
        currency=currency,
        rates=tuple(rates),
        cancel_cutoff_hours=cancel_cutoff_hours,
    )


def _guide(ctx: Ctx, email: str, start: dt.datetime, end: dt.datetime, skip: str | None = None) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not one of our guides", field="guide_email", hint="pick an employee")
    for a in ctx.where(Availability, guide_email=email):
        if a.id != skip and a.status != "cancelled" and a.start_at < end and start < a.end_at:
            raise Conflict(
                f"{email} guides another departure from {a.start_at:%H:%M}",
                field="guide_email",
                hint="pick another guide or time",
            )


def _example_avl(ctx: Ctx) -> dict[str, Any] | None:
    it = ctx.first(Item, active=True)
    start = utc_at(ctx.today() + dt.timedelta(days=45), 7)
    return None if it is None else {"item_id": it.id, "start_at": start.isoformat(), "capacity": 12}


@service.tool(intent="schedule the departure", write=True, example=_example_avl)
def create_availability(
    ctx: Ctx,
    item_id: ItemId,
    start_at: DateTime,
    capacity: Annotated[int, Field(ge=1, le=500)],
    guide_email: Email | None = None,
) -> Availability:
    """Schedule a departure of an active tour, ahead of now; it ends after the tour's duration.

    Args:
        item_id: The tour.
        start_at: When it starts.
        capacity: Seats.
        guide_email: The guide (an employee free at that time).
    """
    it = ctx.get(Item, item_id, field="item_id")
    if not it.active:
        raise RuleViolation(f"{it.name} is not on sale", field="item_id", hint="reactivate the tour first")
    if start_at <= ctx.now():
        raise RuleViolation("the start has passed", field="start_at", hint="schedule ahead")
    end = start_at + dt.timedelta(minutes=it.duration_minutes)
    if guide_email is not None:
        _guide(ctx, guide_email, start_at, end)
    return ctx.create(
        Availability, item_id=it.id, start_at=start_at, end_at=end, capacity=capacity, guide_email=guide_email
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Availability, status="open", guide_email=None)
    if a is None:
        return None
    busy = {x.guide_email for x in ctx.scan(Availability) if x.start_at < a.end_at and a.start_at < x.end_at}
    p = next((p for p in ctx.population.employees if p.email not in busy), None)
    return None if p is None else {"availability_id": a.id, "guide_email": p.email}


@service.tool(intent="assign the guide", write=True, example=_example_assign)
def assign_guide(ctx: Ctx, availability_id: AvailabilityId, guide_email: Email) -> Availability:
    """Put a guide on a departure that is not cancelled; they must be free for its whole time.

    Args:
        availability_id: The departure.
        guide_email: The guide (an employee).
    """
    a = ctx.get(Availability, availability_id, field="availability_id")
    if a.status == "cancelled":
        raise RuleViolation("the departure is cancelled", field="availability_id", hint="pick a live departure")
    _guide(ctx, guide_email, a.start_at, a.end_at, skip=a.id)
    return ctx.update(a, guide_email=guide_email)


def _open(ctx: Ctx, availability_id: str, seats: int, field: str = "availability_id") -> Availability:
    a = ctx.get(Availability, availability_id, field=field)
    if a.status != "open":
        raise RuleViolation(f"the departure is {a.status}", field=field, hint="pick an open departure")
    if a.start_at <= ctx.now():
        raise RuleViolation("the departure has started", field=field, hint="pick a later departure")
    if a.booked + seats > a.capacity:
        raise RuleViolation(
            f"only {a.capacity - a.booked} seats left", field=field, hint="pick another departure or fewer seats"
        )
    return a


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Availability, status="open"):
        if a.start_at > ctx.now() and a.capacity - a.booked >= 2:
            p = ctx.population.consumers[0]
            return {
                "availability_id": a.id,
                "contact_name": p.name,
                "contact_email": p.email,
                "customers": [{"customer_type": "adult", "count": 2}],
            }
    return None


@service.tool(intent="book the tour", write=True, example=_example_book)
def create_booking(
    ctx: Ctx,
    availability_id: AvailabilityId,
    contact_name: PersonName,
    contact_email: Email,
    customers: list[Seats],
    contact_phone: Phone | None = None,
    channel: Channel = "direct",
) -> Booking:
    """Book seats on an open departure that has not started; priced by the tour's customer type rates.

    Args:
        availability_id: The departure.
        contact_name: Who books.
        contact_email: Their e-mail.
        customers: Seats per customer type (each type once; a child or infant comes with an adult or senior).
        contact_phone: Their phone.
        channel: direct, viator, getyourguide or expedia.
    """
    seats = sum(c.count for c in customers)
    a = _open(ctx, availability_id, seats)
    it = ctx.get(Item, a.item_id)
    prices = {r.customer_type: r.price for r in it.rates}
    kinds = [c.customer_type for c in customers]
    if not customers or len(set(kinds)) != len(kinds):
        raise RuleViolation("list each customer type once", field="customers", hint="merge the counts per type")
    unknown = [k for k in kinds if k not in prices]
    if unknown:
        raise RuleViolation(f"{it.name} has no {unknown[0]} rate", field="customers", hint=f"use {', '.join(prices)}")
    if ({"child", "infant"} & set(kinds)) and not ({"adult", "senior"} & set(kinds)):
        raise RuleViolation("children come with an adult", field="customers", hint="add an adult or senior")
    total = sum(prices[c.customer_type] * c.count for c in customers)
    if total == 0:
        raise RuleViolation("nobody pays", field="customers", hint="add a paying customer")
    ctx.update(a, booked=a.booked + seats)
    n = ctx.next_number(Booking, "voucher")
    return ctx.create(
        Booking,
        voucher=f"{channel[:2].upper()}-{700000 + n}",
        availability_id=a.id,
        item_id=it.id,
        contact_name=contact_name,
        contact_email=contact_email,
        contact_phone=contact_phone,
        customers=tuple(customers),
        seats=seats,
        total=total,
        channel=channel,
    )


def _live(ctx: Ctx, booking_id: str) -> Booking:
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "booked":
        raise RuleViolation("the booking is cancelled", field="booking_id", hint="nothing to change")
    return b


@service.tool(
    intent="cancel the booking",
    write=True,
    example=first_example(Booking, "booking_id", where={"status": "booked", "checked_in": 0}),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a booking before check-in; up to the tour's cut-off the whole price is refunded, later nothing.

    Args:
        booking_id: The booking.
    """
    b = _live(ctx, booking_id)
    if b.checked_in:
        raise RuleViolation("its customers are checked in", field="booking_id", hint="the tour has happened")
    a = ctx.get(Availability, b.availability_id)
    cutoff = dt.timedelta(hours=ctx.get(Item, b.item_id).cancel_cutoff_hours)
    ctx.update(a, booked=a.booked - b.seats)
    return ctx.update(b, status="cancelled", refund=b.total if a.start_at - ctx.now() >= cutoff else 0)


def _example_rebook(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Booking, status="booked", checked_in=0):
        for a in ctx.where(Availability, item_id=b.item_id, status="open"):
            if a.id != b.availability_id and a.start_at > ctx.now() and a.capacity - a.booked >= b.seats:
                return {"booking_id": b.id, "availability_id": a.id}
    return None


@service.tool(intent="move the booking to another departure", write=True, example=_example_rebook)
def rebook_booking(ctx: Ctx, booking_id: BookingId, availability_id: AvailabilityId) -> Booking:
    """Move a booking, not checked in, to another open departure of the same tour with room for its seats.

    Args:
        booking_id: The booking.
        availability_id: The new departure.
    """
    b = _live(ctx, booking_id)
    if b.checked_in:
        raise RuleViolation("its customers are checked in", field="booking_id", hint="the tour has happened")
    if availability_id == b.availability_id:
        raise RuleViolation("it is already on that departure", field="availability_id", hint="pick another")
    new = _open(ctx, availability_id, b.seats)
    if new.item_id != b.item_id:
        raise RuleViolation("that departure is another tour", field="availability_id", hint="cancel and book anew")
    old = ctx.get(Availability, b.availability_id)
    ctx.update(old, booked=old.booked - b.seats)
    ctx.update(new, booked=new.booked + b.seats)
    return ctx.update(b, availability_id=new.id)


def _example_checkin(ctx: Ctx) -> dict[str, Any] | None:
    for b in ctx.where(Booking, status="booked", checked_in=0):
        a = ctx.get(Availability, b.availability_id)
        if a.start_at - CHECKIN_EARLY <= ctx.now() <= a.end_at:
            return {"booking_id": b.id, "count": b.seats}
    return None


@service.tool(intent="check the customers in", write=True, example=_example_checkin)
def check_in_booking(ctx: Ctx, booking_id: BookingId, count: Annotated[int, Field(ge=1, le=100)]) -> Booking:
    """Check in customers of a booking at the meeting point, from two hours before the start to the end.

    Args:
        booking_id: The booking.
        count: How many more customers arrived (up to its seats).
    """
    b = _live(ctx, booking_id)
    a = ctx.get(Availability, b.availability_id)
    if not a.start_at - CHECKIN_EARLY <= ctx.now() <= a.end_at:
        raise RuleViolation(
            f"check-in opens at {a.start_at - CHECKIN_EARLY:%Y-%m-%d %H:%M}",
            field="booking_id",
            hint="check in on the day, near the start",
        )
    if b.checked_in + count > b.seats:
        raise RuleViolation(f"the booking has {b.seats} seats", field="count", hint="check in no more than booked")
    return ctx.update(b, checked_in=b.checked_in + count)


@service.tool(
    intent="cancel the departure",
    write=True,
    destructive=True,
    example=first_example(Availability, "availability_id", where={"status": "closed"}),
)
def cancel_availability(ctx: Ctx, availability_id: AvailabilityId) -> Availability:
    """Cancel a departure that has not started (weather, guide sick): every booking is cancelled and refunded.

    Args:
        availability_id: The departure.
    """
    a = ctx.get(Availability, availability_id, field="availability_id")
    if a.status == "cancelled" or a.start_at <= ctx.now():
        raise RuleViolation("the departure is cancelled or has started", field="availability_id", hint="nothing to do")
    for b in ctx.where(Booking, availability_id=a.id, status="booked"):
        ctx.update(b, status="cancelled", refund=b.total)
    return ctx.update(a, status="cancelled", booked=0)


class Opening(Value):
    """A departure with seats left."""

    availability_id: AvailabilityId = Field(description="The departure.")
    start_at: DateTime = Field(description="When it starts.")
    remaining: int = Field(description="Seats left.")


def _example_search(ctx: Ctx) -> dict[str, Any] | None:
    it = ctx.first(Item, active=True)
    return None if it is None else {"item_id": it.id, "seats": 2, "days": 14}


@service.tool(intent="find departures with seats", example=_example_search)
def find_openings(
    ctx: Ctx,
    item_id: ItemId,
    seats: Annotated[int, Field(ge=1, le=100)] = 1,
    days: Annotated[int, Field(ge=1, le=90)] = 14,
) -> list[Opening]:
    """Open departures of a tour in the coming days that still have room for the seats, soonest first.

    Args:
        item_id: The tour.
        seats: Seats needed.
        days: How many days ahead to look.
    """
    ctx.get(Item, item_id, field="item_id")
    now = ctx.now()
    found = [
        a
        for a in ctx.where(Availability, item_id=item_id, status="open")
        if now < a.start_at <= now + dt.timedelta(days=days) and a.capacity - a.booked >= seats
    ]
    return [
        Opening(availability_id=a.id, start_at=a.start_at, remaining=a.capacity - a.booked)
        for a in sorted(found, key=lambda a: a.start_at)
    ]


@service.tool(intent="show the departure's manifest", example=first_example(Availability, "availability_id"))
def departure_manifest(ctx: Ctx, availability_id: AvailabilityId) -> Manifest:
    """A departure's seats sold and left, customers checked in, seats per customer type and contacts.

    Args:
        availability_id: The departure.
    """
    a = ctx.get(Availability, availability_id, field="availability_id")
    live = ctx.where(Booking, availability_id=a.id, status="booked")
    by_type: dict[str, int] = {}
    for b in live:
        for c in b.customers:
            by_type[c.customer_type] = by_type.get(c.customer_type, 0) + c.count
    return Manifest(
        availability_id=a.id,
        capacity=a.capacity,
        booked=a.booked,
        remaining=a.capacity - a.booked,
        checked_in=sum(b.checked_in for b in live),
        by_type=by_type,
        contacts=[b.contact_name for b in live],
    )


# -- seed -------------------------------------------------------------------------------------

TOURS: tuple[tuple[str, str, int, int, tuple[tuple[CustomerType, int], ...]], ...] = (
    (
        "Old Town Walking Tour",
        "Fountain in the main square",
        120,
        24,
        (("adult", 2500), ("child", 1200), ("infant", 0)),
    ),
    ("Harbor Sunset Cruise", "Pier 3 ticket booth", 90, 48, (("adult", 4900), ("child", 2900), ("senior", 3900))),
    ("Food Market Tasting", "Market hall east entrance", 180, 24, (("adult", 8900), ("student", 6900))),
    ("Mountain E-Bike Ride", "Bike shop on the river road", 240, 72, (("adult", 11900),)),
    ("Museum Highlights", "Museum lobby", 90, 12, (("adult", 3500), ("child", 1500), ("senior", 2500))),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Tours in the company's city, departures past and ahead, bookings from consumers on every channel."""
    pop = s.population
    place = pop.home.place
    guides = pop.staff("Operations", "Support", "Marketing", fallback=6)[:6]
    people = list(pop.consumers[:20])
    today = s.now.date()
    n = 0
    for k, (name, meet, minutes, cutoff, rates) in enumerate(TOURS):
        it = s.create(
            Item,
            name=name,
            city=place.city,
            meeting_point=meet,
            duration_minutes=minutes,
            currency=place.currency,
            rates=tuple(Rate(customer_type=t, price=p) for t, p in rates),
            cancel_cutoff_hours=cutoff,
            active=k != 4,
            created_at=s.ago(days=400 - 50 * k),
        )
        for d, hour in ((-2, 10), (0, 10), (0, 17), (1, 10), (3, 14), (8, 10)):
            soon = (d, hour) == (0, 10)
            start = s.now + dt.timedelta(hours=1) if soon else utc_at(today + dt.timedelta(days=d), hour)
            cap = 4 if (k, d) == (0, 3) else 10 + 2 * k
            status: Any = "closed" if (k, d) == (1, 8) else "open"
            a = s.create(
                Availability,
                item_id=it.id,
                start_at=start,
                end_at=start + dt.timedelta(minutes=minutes),
                capacity=cap,
                guide_email=guides[(k + d) % len(guides)].email if d != 8 else None,
                status=status,
            )
            sold = 0
            for j in range(3 if cap > 4 else 2):
                p = people[(3 * k + j + d) % len(people)]
                kinds = [t for t, price in rates if price > 0]
                pair = (("adult", 1), (kinds[1], 1)) if j % 2 and len(kinds) > 1 else (("adult", 2),)
                seats = tuple(Seats(customer_type=t, count=c) for t, c in pair)
                prices = dict(rates)
                count = sum(c.count for c in seats)
                n += 1
                channel: Channel = ("direct", "viator", "getyourguide")[(j + k) % 3]
                s.create(
                    Booking,
                    voucher=f"{channel[:2].upper()}-{600000 + n}",
                    availability_id=a.id,
                    item_id=it.id,
                    contact_name=p.name,
                    contact_email=p.email,
                    contact_phone=p.phone,
                    customers=seats,
                    seats=count,
                    total=sum(prices[c.customer_type] * c.count for c in seats),
                    channel=channel,
                    checked_in=count if d < 0 else 0,
                    created_at=s.ago(days=10 + j),
                )
                sold += count
            s.update(a, booked=sold)
