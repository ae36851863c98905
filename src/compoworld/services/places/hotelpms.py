"""Frontdesk PMS: a hotel's rooms and their housekeeping state, guests, reservations from booking to check-out, bills.

Modeled on the Mews Connector API (``resources/getAll`` and ``resources/update``
for rooms and their state, ``resourceCategories``, ``customers/add``,
``reservations/add|start|process|cancel``, ``reservations/updateResource`` for
room assignment, ``orders/add`` for posted charges, ``payments/addExternal`` and
``bills/getAll``). Where the channel-manager service sells stays to the booking
sites, this is the hotel's own front desk:

* a reservation is Confirmed → Started (checked in) → Processed (checked out),
  or Canceled while Confirmed; it books a room category for 1 to 30 nights from
  today on, for no more guests than the category sleeps, and only while the
  category has a room free every night;
* a room of the booked category is assigned only if it is in service and no
  other reservation holds it on those nights;
* check-in happens from the arrival day to the last night, with a room assigned
  that is Clean or Inspected (not Dirty, not out of service); it posts the stay's
  nightly rates and the city tax (per guest and night) to the bill;
* extras are posted only to a started reservation; payments never exceed the
  balance; check-out needs a balanced bill and leaves the room Dirty;
* housekeeping moves a room Dirty → Clean → Inspected; an occupied room cannot
  be put out of service, and one back in service is Dirty;
* cancelling on the day before arrival or later charges the first night.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped

__all__ = ["service"]

service = Service(
    "hotelpms",
    title="Frontdesk PMS",
    category="hospitality",
    modeled_on="Mews Connector API (resources and resource categories with housekeeping state, customers, "
    "reservations add/start/process/cancel and room assignment, orders, external payments, bills)",
    description="The hotel's property management system: room categories and rooms with their housekeeping "
    "state, guest profiles, reservations with availability, room assignment, check-in and check-out, charges "
    "and payments on the guest's bill, which must balance before the guest leaves.",
)

CategoryId = Annotated[str, IdOf("hotelpms.room_category")]
RoomId = Annotated[str, IdOf("hotelpms.room")]
CustomerId = Annotated[str, IdOf("hotelpms.customer")]
ReservationId = Annotated[str, IdOf("hotelpms.reservation")]
ChargeId = Annotated[str, IdOf("hotelpms.charge")]
PaymentId = Annotated[str, IdOf("hotelpms.payment")]
ConfirmationNumber = Annotated[str, StringConstraints(pattern=r"^[0-9]{6}$")]

RoomState = Literal["Dirty", "Clean", "Inspected", "OutOfService"]
ReservationState = Literal["Confirmed", "Started", "Processed", "Canceled"]
ChargeType = Literal["Accommodation", "CityTax", "Breakfast", "Minibar", "Parking", "Spa", "CancellationFee"]
PaymentMethod = Literal["CreditCard", "Cash", "BankTransfer", "Invoice"]

MAX_NIGHTS = 30
CITY_TAX = 300
"""City tax per guest and night, in cents."""
HOUSEKEEPING: dict[str, tuple[str, ...]] = {
    "Dirty": ("Clean", "OutOfService"),
    "Clean": ("Inspected", "Dirty", "OutOfService"),
    "Inspected": ("Dirty", "OutOfService"),
    "OutOfService": ("Dirty",),
}
"""The room states each state may move to."""


# -- records -------------------------------------------------------------------------------


class RoomCategory(Record):
    """A room type (Mews resource category)."""

    id: CategoryId
    name: Title
    """Its name."""
    capacity: Annotated[int, Field(ge=1, le=10)]
    """How many guests it sleeps."""
    nightly_rate: Cents
    """Price per night, in cents."""
    currency: Currency
    """Currency of the rate."""


class Room(Record):
    """A room (Mews resource)."""

    id: RoomId
    number: Annotated[str, StringConstraints(pattern=r"^[0-9]{3}$")]
    """Room number."""
    category_id: CategoryId
    """Its category."""
    floor: Annotated[int, Field(ge=0, le=50)]
    """Floor."""
    state: RoomState = "Inspected"
    """Dirty, Clean, Inspected or OutOfService."""
    out_of_service_reason: str | None = None
    """Why it is out of service."""


class Customer(Timestamped):
    """A guest profile (Mews customer)."""

    id: CustomerId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail; unique."""
    phone: Phone | None = None
    """Phone."""
    nationality: Country | None = None
    """Country of nationality."""
    notes: Text | None = None
    """Preferences the front desk should know."""


class Reservation(Timestamped):
    """A stay (Mews reservation)."""

    id: ReservationId
    number: Annotated[ConfirmationNumber, Generated("sequence", "{n:06d}")]
    """Confirmation number."""
    customer_id: CustomerId
    """The booking guest."""
    category_id: CategoryId
    """The booked room category."""
    room_id: RoomId | None = None
    """The assigned room."""
    start_date: Date
    """Arrival date."""
    end_date: Date
    """Departure date."""
    adult_count: Annotated[int, Field(ge=1, le=10)]
    """Guests."""
    nightly_rate: Cents
    """Rate per night, in cents."""
    currency: Currency
    """Currency of the bill."""
    state: ReservationState = "Confirmed"
    """Confirmed, Started (in house), Processed (checked out) or Canceled."""
    checked_in_at: DateTime | None = None
    """When the guest checked in."""
    checked_out_at: DateTime | None = None
    """When the guest checked out."""
    cancellation_reason: Text | None = None
    """Why it was canceled."""


class Charge(Record):
    """A charge posted to a reservation's bill (Mews order item)."""

    id: ChargeId
    reservation_id: ReservationId
    """The reservation."""
    type: ChargeType
    """Accommodation, CityTax, Breakfast, Minibar, Parking, Spa or CancellationFee."""
    description: str
    """What it is for."""
    amount: Cents
    """Gross amount, in cents."""
    currency: Currency
    """Currency."""
    posted_at: Annotated[DateTime, CREATED]
    """When it was posted."""


class Payment(Record):
    """A payment on a reservation's bill (Mews external payment)."""

    id: PaymentId
    reservation_id: ReservationId
    """The reservation."""
    amount: Cents
    """Amount, in cents."""
    currency: Currency
    """Currency."""
    method: PaymentMethod
    """CreditCard, Cash, BankTransfer or Invoice."""
    received_at: Annotated[DateTime, CREATED]
    """When it was taken."""


categories = service.resource(
    RoomCategory,
    name="room_category",
    plural="room_categories",
    prefix="cat",
    create=False,
    get=False,
    search=("name",),
    delete=False,
    title="room category",
)
rooms = service.resource(
    Room,
    name="room",
    plural="rooms",
    prefix="room",
    create=False,
    get=False,
    filters=("category_id", "state", "number", "floor"),
    delete=False,
)
customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("first_name", "last_name", "email", "phone", "nationality", "notes"),
    get=False,
    filters=("email", "nationality"),
    search=("first_name", "last_name"),
    delete=False,
    unique=("email",),
    title="guest",
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="res",
    create=False,
    get=False,
    filters=("customer_id", "category_id", "room_id", "state", "start_date", "end_date", "number"),
    delete=False,
)
charges = service.resource(
    Charge, name="charge", plural="charges", prefix="chg", create=False, get=False, filters=None, delete=False
)
payments = service.resource(
    Payment, name="payment", plural="payments", prefix="pay", create=False, get=False, filters=None, delete=False
)


# -- rules ---------------------------------------------------------------------------------


def _overlaps(r: Reservation, start: dt.date, end: dt.date) -> bool:
    return r.state in ("Confirmed", "Started") and r.start_date < end and start < r.end_date


def _free_rooms(ctx: Ctx, category_id: str, start: dt.date, end: dt.date, skip: str | None = None) -> int:
    """The fewest rooms of the category free on any night of [start, end)."""
    in_service = [r for r in ctx.where(Room, category_id=category_id) if r.state != "OutOfService"]
    booked = [r for r in ctx.where(Reservation, category_id=category_id) if r.id != skip and _overlaps(r, start, end)]
    fewest = len(in_service)
    night = start
    while night < end:
        taken = sum(1 for r in booked if r.start_date <= night < r.end_date)
        fewest = min(fewest, len(in_service) - taken)
        night += dt.timedelta(days=1)
    return fewest


def _room_taken(ctx: Ctx, room: Room, start: dt.date, end: dt.date, skip: str) -> Reservation | None:
    return next((r for r in ctx.where(Reservation, room_id=room.id) if r.id != skip and _overlaps(r, start, end)), None)


def _balance(ctx: Ctx, reservation_id: str) -> int:
    charged = sum(c.amount for c in ctx.where(Charge, reservation_id=reservation_id))
    paid = sum(p.amount for p in ctx.where(Payment, reservation_id=reservation_id))
    return charged - paid


def _guest(ctx: Ctx, res: Reservation) -> str:
    c = ctx.get(Customer, res.customer_id)
    return f"{c.first_name} {c.last_name}"


# -- rooms ---------------------------------------------------------------------------------


def _example_room_state(ctx: Ctx) -> dict[str, Any] | None:
    room = ctx.first(Room, state="Dirty")
    return None if room is None else {"room_id": room.id, "state": "Clean"}


@service.tool(intent="set the room's housekeeping state", write=True, example=_example_room_state)
def update_room_state(ctx: Ctx, room_id: RoomId, state: RoomState, reason: Text | None = None) -> Room:
    """Record housekeeping (``resources/update``): Dirty → Clean → Inspected; out of service and back (as Dirty).

    A room with a guest in house cannot go out of service; taking it out needs a reason.

    Args:
        room_id: The room.
        state: Dirty, Clean, Inspected or OutOfService.
        reason: Why it goes out of service.
    """
    room = ctx.get(Room, room_id, field="room_id")
    if state not in HOUSEKEEPING[room.state]:
        raise RuleViolation(
            f"room {room.number} is {room.state}; it cannot become {state}",
            field="state",
            hint=f"from {room.state}: {', '.join(HOUSEKEEPING[room.state])}",
        )
    if state == "OutOfService":
        if not (reason or "").strip():
            raise RuleViolation("taking a room out of service needs a reason", field="reason", hint="say why")
        if ctx.first(Reservation, room_id=room.id, state="Started") is not None:
            raise RuleViolation(
                f"room {room.number} has a guest in house", field="room_id", hint="move the guest or wait for check-out"
            )
        return ctx.update(room, state=state, out_of_service_reason=reason)
    return ctx.update(room, state=state, out_of_service_reason=None)


# -- reservations --------------------------------------------------------------------------


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    customer = ctx.first(Customer)
    start = ctx.today() + dt.timedelta(days=20)
    for cat in ctx.scan(RoomCategory):
        if customer is not None and _free_rooms(ctx, cat.id, start, start + dt.timedelta(days=2)) > 0:
            return {
                "customer_id": customer.id,
                "category_id": cat.id,
                "start_date": start.isoformat(),
                "end_date": (start + dt.timedelta(days=2)).isoformat(),
                "adult_count": 1,
            }
    return None


@service.tool(intent="book a room for the guest", write=True, example=_example_book)
def create_reservation(
    ctx: Ctx,
    customer_id: CustomerId,
    category_id: CategoryId,
    start_date: Date,
    end_date: Date,
    adult_count: Annotated[int, Field(ge=1, le=10)],
) -> Reservation:
    """Book a room category for a stay (``reservations/add``), at the category's nightly rate.

    1 to 30 nights from today on, no more guests than the category sleeps, and
    a room of the category free on every night.

    Args:
        customer_id: The guest.
        category_id: The room category.
        start_date: Arrival.
        end_date: Departure.
        adult_count: Guests.
    """
    ctx.get(Customer, customer_id, field="customer_id")
    cat = ctx.get(RoomCategory, category_id, field="category_id")
    if start_date < ctx.today():
        raise RuleViolation("the arrival is in the past", field="start_date", hint="book from today on")
    nights = (end_date - start_date).days
    if not 1 <= nights <= MAX_NIGHTS:
        raise RuleViolation(
            f"a stay lasts 1 to {MAX_NIGHTS} nights, not {nights}", field="end_date", hint="give a later departure"
        )
    if adult_count > cat.capacity:
        raise RuleViolation(
            f"a {cat.name} sleeps {cat.capacity}", field="adult_count", hint="book a larger category or two rooms"
        )
    if _free_rooms(ctx, cat.id, start_date, end_date) < 1:
        raise Conflict(
            f"no {cat.name} is free every night from {start_date} to {end_date}",
            field="category_id",
            hint="choose other dates or another category",
        )
    return ctx.create(
        Reservation,
        customer_id=customer_id,
        category_id=cat.id,
        start_date=start_date,
        end_date=end_date,
        adult_count=adult_count,
        nightly_rate=cat.nightly_rate,
        currency=cat.currency,
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for res in ctx.where(Reservation, state="Confirmed", room_id=None):
        for room in ctx.where(Room, category_id=res.category_id):
            if room.state != "OutOfService" and _room_taken(ctx, room, res.start_date, res.end_date, res.id) is None:
                return {"reservation_id": res.id, "room_id": room.id}
    return None


@service.tool(intent="assign a room to the reservation", write=True, example=_example_assign)
def assign_room(ctx: Ctx, reservation_id: ReservationId, room_id: RoomId) -> Reservation:
    """Assign (or change) the room of a confirmed reservation (``reservations/updateResource``).

    The room must be of the booked category, in service and free on every night
    of the stay.

    Args:
        reservation_id: The confirmed reservation.
        room_id: The room.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    room = ctx.get(Room, room_id, field="room_id")
    if res.state != "Confirmed":
        raise RuleViolation(
            f"reservation {res.number} is {res.state}", field="reservation_id", hint="rooms are assigned before arrival"
        )
    if room.category_id != res.category_id:
        raise RuleViolation(
            f"room {room.number} is not of the booked category", field="room_id", hint="choose a room of that category"
        )
    if room.state == "OutOfService":
        raise RuleViolation(f"room {room.number} is out of service", field="room_id", hint="choose another room")
    other = _room_taken(ctx, room, res.start_date, res.end_date, res.id)
    if other is not None:
        raise Conflict(
            f"room {room.number} is held by reservation {other.number} on those nights",
            field="room_id",
            hint="choose another room",
        )
    return ctx.update(res, room_id=room.id)


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    for res in ctx.where(Reservation, state="Confirmed"):
        if res.room_id and res.start_date <= ctx.today() < res.end_date:
            room = ctx.get(Room, res.room_id)
            if room.state in ("Clean", "Inspected"):
                return {"reservation_id": res.id}
    return None


@service.tool(intent="check the guest in", write=True, example=_example_check_in)
def check_in(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Start a reservation (``reservations/start``): the guest is in house and the stay is charged.

    From the arrival day to the last night, with an assigned room that is Clean
    or Inspected. Posts each night's rate and the city tax to the bill.

    Args:
        reservation_id: The confirmed reservation.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.state != "Confirmed":
        raise Conflict(f"reservation {res.number} is {res.state}", field="reservation_id", hint="only Confirmed ones")
    today = ctx.today()
    if not res.start_date <= today < res.end_date:
        raise RuleViolation(
            f"the stay runs {res.start_date} to {res.end_date}; check-in is from the arrival day",
            field="reservation_id",
            hint="check in on or after the arrival date",
        )
    if res.room_id is None:
        raise RuleViolation("no room is assigned", field="reservation_id", hint="assign a room first (assign_room)")
    room = ctx.get(Room, res.room_id)
    if room.state not in ("Clean", "Inspected"):
        raise RuleViolation(
            f"room {room.number} is {room.state}",
            field="reservation_id",
            hint="have it cleaned, or assign another clean room",
        )
    nights = (res.end_date - res.start_date).days
    for n in range(nights):
        night = res.start_date + dt.timedelta(days=n)
        ctx.create(
            Charge,
            reservation_id=res.id,
            type="Accommodation",
            description=f"Room {room.number}, night of {night}",
            amount=res.nightly_rate,
            currency=res.currency,
        )
    ctx.create(
        Charge,
        reservation_id=res.id,
        type="CityTax",
        description=f"City tax, {res.adult_count} guest(s) × {nights} night(s)",
        amount=CITY_TAX * res.adult_count * nights,
        currency=res.currency,
    )
    return ctx.update(res, state="Started", checked_in_at=ctx.now())


@service.tool(
    intent="post an extra to the guest's bill",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"state": "Started"}, type="Breakfast", amount=2400),
)
def post_charge(
    ctx: Ctx,
    reservation_id: ReservationId,
    type: Literal["Breakfast", "Minibar", "Parking", "Spa"],
    amount: Annotated[Cents, Field(ge=1, le=1_000_000)],
    description: str | None = None,
) -> Charge:
    """Post an extra (``orders/add``) to the bill of a guest in house.

    Args:
        reservation_id: The started reservation.
        type: Breakfast, Minibar, Parking or Spa.
        amount: Gross amount, in cents.
        description: What it is for.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.state != "Started":
        raise RuleViolation(
            f"reservation {res.number} is {res.state}; extras go to guests in house",
            field="reservation_id",
            hint="check the guest in first",
        )
    return ctx.create(
        Charge, reservation_id=res.id, type=type, description=description or type, amount=amount, currency=res.currency
    )


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for res in ctx.scan(Reservation):
        owed = _balance(ctx, res.id)
        if owed > 0:
            return {"reservation_id": res.id, "amount": owed, "method": "CreditCard"}
    return None


@service.tool(intent="take the guest's payment", write=True, example=_example_pay)
def add_payment(
    ctx: Ctx, reservation_id: ReservationId, amount: Annotated[Cents, Field(ge=1)], method: PaymentMethod
) -> Payment:
    """Record a payment on the bill (``payments/addExternal``); it cannot exceed the balance.

    Args:
        reservation_id: The reservation.
        amount: Amount, in cents.
        method: CreditCard, Cash, BankTransfer or Invoice.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    owed = _balance(ctx, res.id)
    if owed <= 0:
        raise RuleViolation("the bill is balanced", field="reservation_id", hint="nothing is owed")
    if amount > owed:
        raise RuleViolation(
            f"{amount} is more than the {owed} owed ({res.currency} cents)", field="amount", hint=f"pay at most {owed}"
        )
    return ctx.create(Payment, reservation_id=res.id, amount=amount, currency=res.currency, method=method)


class Bill(BaseModel):
    """A reservation's bill."""

    reservation: Reservation = Field(description="The reservation.")
    guest_email: Email = Field(description="The guest's e-mail.")
    charges: list[Charge] = Field(description="Charges posted, in order.")
    payments: list[Payment] = Field(description="Payments taken, in order.")
    total_charged: Cents = Field(description="Sum of the charges, in cents.")
    total_paid: Cents = Field(description="Sum of the payments, in cents.")
    balance: Cents = Field(description="What is still owed, in cents.")
    currency: Currency = Field(description="Currency.")
    balanced: bool = Field(description="Whether nothing is owed (the guest may check out).")


@service.tool(
    intent="show the guest's bill", example=first_example(Reservation, "reservation_id", where={"state": "Started"})
)
def get_bill(ctx: Ctx, reservation_id: ReservationId) -> Bill:
    """A reservation's bill: charges, payments and the balance (``bills/getAll``).

    Args:
        reservation_id: The reservation.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    chg = sorted(ctx.where(Charge, reservation_id=res.id), key=lambda c: c.id)
    pay = sorted(ctx.where(Payment, reservation_id=res.id), key=lambda p: p.id)
    charged, paid = sum(c.amount for c in chg), sum(p.amount for p in pay)
    return Bill(
        reservation=res,
        guest_email=ctx.get(Customer, res.customer_id).email,
        charges=chg,
        payments=pay,
        total_charged=charged,
        total_paid=paid,
        balance=charged - paid,
        currency=res.currency,
        balanced=charged == paid,
    )


def _example_check_out(ctx: Ctx) -> dict[str, Any] | None:
    for res in ctx.where(Reservation, state="Started"):
        if _balance(ctx, res.id) == 0:
            return {"reservation_id": res.id}
    return None


@service.tool(intent="check the guest out", write=True, example=_example_check_out)
def check_out(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Process a reservation (``reservations/process``): the guest leaves and the room becomes Dirty.

    The bill must be balanced first.

    Args:
        reservation_id: The started reservation.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.state != "Started":
        raise Conflict(f"reservation {res.number} is {res.state}", field="reservation_id", hint="only guests in house")
    owed = _balance(ctx, res.id)
    if owed != 0:
        raise RuleViolation(
            f"{_guest(ctx, res)} still owes {owed / 100:.2f} {res.currency}",
            field="reservation_id",
            hint="take the payment first (add_payment)",
        )
    if res.room_id is not None:
        ctx.update(ctx.get(Room, res.room_id), state="Dirty")
    return ctx.update(res, state="Processed", checked_out_at=ctx.now())


@service.tool(
    intent="cancel the reservation",
    write=True,
    destructive=True,
    example=first_example(Reservation, "reservation_id", where={"state": "Confirmed"}, reason="Change of plans"),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId, reason: Text) -> Reservation:
    """Cancel a confirmed reservation (``reservations/cancel``); from the day before arrival the first night is charged.

    Args:
        reservation_id: The confirmed reservation.
        reason: Why.
    """
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.state != "Confirmed":
        raise RuleViolation(
            f"reservation {res.number} is {res.state}; only confirmed ones are canceled",
            field="reservation_id",
            hint="a guest in house checks out instead",
        )
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why")
    if (res.start_date - ctx.today()).days <= 1:
        ctx.create(
            Charge,
            reservation_id=res.id,
            type="CancellationFee",
            description="Late cancellation: first night",
            amount=res.nightly_rate,
            currency=res.currency,
        )
    return ctx.update(res, state="Canceled", cancellation_reason=reason, room_id=None)


# -- seeding -------------------------------------------------------------------------------

_CATEGORIES = (("Standard Queen", 2, 12000, 6), ("Deluxe King", 2, 18000, 4), ("Family Suite", 4, 26000, 2))
"""Name, capacity, nightly rate (cents), rooms."""


@service.seeder
def seed(s: SeedContext) -> None:
    """Twelve rooms in three categories, guests from the population, in-house stays, arrivals, future and past stays."""
    pop = s.population
    currency = pop.home.place.currency
    cats: list[RoomCategory] = []
    rooms_by_cat: list[list[Room]] = []
    for floor, (name, cap, rate, count) in enumerate(_CATEGORIES, start=1):
        cat = s.create(RoomCategory, name=name, capacity=cap, nightly_rate=rate, currency=currency)
        cats.append(cat)
        rooms_by_cat.append(
            [s.create(Room, number=f"{floor}{n + 1:02d}", category_id=cat.id, floor=floor) for n in range(count)]
        )
    guests = [
        s.create(
            Customer,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            nationality=p.place.country,
            created_at=s.ago(days=90 - 3 * k),
        )
        for k, p in enumerate(pop.consumers[:20])
    ]
    today = s.now.date()

    def book(
        g: int, c: int, room: int | None, start: int, nights: int, state: ReservationState, **kw: Any
    ) -> Reservation:
        cat = cats[c]
        return s.create(
            Reservation,
            customer_id=guests[g].id,
            category_id=cat.id,
            room_id=rooms_by_cat[c][room].id if room is not None else None,
            start_date=today + dt.timedelta(days=start),
            end_date=today + dt.timedelta(days=start + nights),
            adult_count=min(cat.capacity, 1 + g % 2),
            nightly_rate=cat.nightly_rate,
            currency=currency,
            state=state,
            **kw,
        )

    # In house: charged at check-in, partly paid.
    for g, c, room, start, nights, paid in ((0, 0, 0, -2, 4, 0.5), (1, 1, 0, -1, 2, 1.0), (2, 2, 0, -3, 5, 0.0)):
        res = book(g, c, room, start, nights, "Started", checked_in_at=s.ago(days=-start))
        total = _seed_stay_charges(s, res, cats[c], rooms_by_cat[c][room])
        if g == 1:
            s.create(
                Charge, reservation_id=res.id, type="Minibar", description="Minibar", amount=1850, currency=currency
            )
            total += 1850
        if paid:
            s.create(Payment, reservation_id=res.id, amount=int(total * paid), currency=currency, method="CreditCard")
    # Arrivals today: one with an inspected room, one with a dirty room, one unassigned.
    s.update(rooms_by_cat[0][1], state="Inspected")
    s.update(rooms_by_cat[1][1], state="Dirty")
    book(3, 0, 1, 0, 2, "Confirmed")
    book(4, 1, 1, 0, 3, "Confirmed")
    book(5, 0, None, 0, 1, "Confirmed")
    # Tomorrow and later.
    book(6, 0, 2, 1, 2, "Confirmed")
    book(7, 2, 1, 5, 3, "Confirmed")
    book(8, 1, None, 10, 4, "Confirmed")
    # Checked out and canceled.
    for g, c, room, start in ((9, 0, 3, -6), (10, 1, 2, -5)):
        res = book(
            g, c, room, start, 3, "Processed", checked_in_at=s.ago(days=-start), checked_out_at=s.ago(days=-start - 3)
        )
        total = _seed_stay_charges(s, res, cats[c], rooms_by_cat[c][room])
        s.create(Payment, reservation_id=res.id, amount=total, currency=currency, method="CreditCard")
    book(11, 0, None, 3, 2, "Canceled", cancellation_reason="Flight canceled")
    # Housekeeping: departures of this morning are dirty, one room is out of service.
    s.update(rooms_by_cat[0][3], state="Dirty")
    s.update(rooms_by_cat[0][5], state="OutOfService", out_of_service_reason="Water leak")
    s.update(rooms_by_cat[1][3], state="Clean")


def _seed_stay_charges(s: SeedContext, res: Reservation, cat: RoomCategory, room: Room) -> int:
    nights = (res.end_date - res.start_date).days
    for n in range(nights):
        s.create(
            Charge,
            reservation_id=res.id,
            type="Accommodation",
            description=f"Room {room.number}, night of {res.start_date + dt.timedelta(days=n)}",
            amount=cat.nightly_rate,
            currency=res.currency,
        )
    tax = CITY_TAX * res.adult_count * nights
    s.create(
        Charge,
        reservation_id=res.id,
        type="CityTax",
        description=f"City tax, {res.adult_count} guest(s) × {nights} night(s)",
        amount=tax,
        currency=res.currency,
    )
    return cat.nightly_rate * nights + tax
