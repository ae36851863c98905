"""Tablewise Reservations: restaurants, tables, guests, reservations with capacity rules, the waitlist and no-shows.

Modeled on the OpenTable Partner APIs (Availability, Booking / Reservation
with confirm, modify and cancel, Guest CRM, Waitlist) and its restaurant-side
rules: a reservation is for a party at a quarter-hour seating time inside the
restaurant's service hours (the last seating half an hour before closing),
holds one table for the restaurant's turn time, and gets a table whose size
fits the party and that no other reservation holds then; parties above the
online limit, guests blocked for repeated no-shows and guests already holding
a reservation at that time are refused; a reservation can be seated from an
hour before its time, cancelled only until its time, and marked a no-show only
once the 15-minute grace period has passed; walk-ins wait on the waitlist with
a quoted wait and are seated at a table that is free for a whole turn.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Timezone,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.places._shared import local_address, local_phone

__all__ = ["service"]

service = Service(
    "reservations",
    title="Tablewise Reservations",
    category="hospitality",
    modeled_on="OpenTable Partner APIs (Availability, Reservation create / modify / cancel, Guest CRM, Waitlist, "
    "seating and no-show states)",
    description="Restaurant table management: restaurants with service hours and turn times, their tables and "
    "sizes, guests with their visit and no-show history, reservations with table assignment and capacity rules, "
    "seating, no-shows, and the walk-in waitlist.",
)

RestaurantId = Annotated[str, IdOf("reservations.restaurant")]
TableId = Annotated[str, IdOf("reservations.table")]
GuestId = Annotated[str, IdOf("reservations.guest")]
ReservationId = Annotated[str, IdOf("reservations.reservation")]
WaitlistId = Annotated[str, IdOf("reservations.waitlist_entry")]
PartySize = Annotated[int, Field(ge=1, le=40)]
Clock = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$")]
TableLabel = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=20)]
Weekday = Literal["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
ResStatus = Literal["booked", "confirmed", "seated", "completed", "cancelled", "no_show"]
DAYS: tuple[Weekday, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
ACTIVE: tuple[str, ...] = ("booked", "confirmed", "seated")
UPCOMING: tuple[str, ...] = ("booked", "confirmed")
GRACE = dt.timedelta(minutes=15)
EARLY_SEATING = dt.timedelta(minutes=60)
LAST_SEATING = 30


class ServicePeriod(Value):
    """One service (lunch, dinner …) on one day of the week, in the restaurant's local time."""

    day: Weekday = Field(description="Day of the week.")
    opens: Clock = Field(description="First seating, HH:MM local time.")
    closes: Clock = Field(description="Closing time, HH:MM local time; the last seating is 30 minutes before.")


class Restaurant(Record):
    """A restaurant taking table reservations."""

    id: RestaurantId
    name: CompanyName
    """Restaurant name."""
    address: PostalAddress
    """Address."""
    phone: Phone
    """Phone for parties above the online limit."""
    timezone: Timezone
    """Time zone of its service hours."""
    hours: tuple[ServicePeriod, ...]
    """Service periods; reservations start within them."""
    turn_minutes: Annotated[int, Field(ge=30, le=300)] = 90
    """How long a table is held for a party."""
    max_online_party: PartySize = 8
    """Largest party that can book online."""
    no_show_limit: Annotated[int, Field(ge=1, le=10)] = 3
    """Guests with this many no-shows cannot book."""


class Table(Record):
    """A table and the party sizes it seats."""

    id: TableId
    restaurant_id: RestaurantId
    """The restaurant."""
    label: TableLabel
    """Table label, e.g. T12."""
    min_party: PartySize = 1
    """Smallest party seated there."""
    max_party: PartySize
    """Largest party seated there."""
    area: Literal["main", "patio", "bar", "private"] = "main"
    """Dining area."""
    active: bool = True
    """Inactive tables take no reservations."""


class Guest(Record):
    """A diner in the restaurant group's guest book."""

    id: GuestId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    phone: Phone | None = None
    """Phone."""
    vip: bool = False
    """VIP guests get a note to the host."""
    visits: int = 0
    """Times seated."""
    no_shows: int = 0
    """Reservations not honoured."""
    notes: Text = ""
    """Allergies, preferences."""


class Reservation(Record):
    """A party's reservation of a table at a time."""

    id: ReservationId
    confirmation_number: Annotated[str, Generated("sequence", "TW-{n:06d}")]
    """Confirmation number."""
    restaurant_id: RestaurantId
    """The restaurant."""
    guest_id: GuestId
    """The guest who booked."""
    guest_name: PersonName
    """The guest's name."""
    guest_email: Email | None = None
    """The guest's e-mail (none for walk-ins)."""
    party_size: PartySize
    """Number of diners."""
    start_at: DateTime
    """Seating time."""
    end_at: DateTime
    """When the table is free again (start plus turn time)."""
    table_id: TableId
    """The table held."""
    status: ResStatus = "booked"
    """booked, confirmed, seated, completed, cancelled or no_show."""
    source: Literal["online", "phone", "walk_in"] = "online"
    """How it was made."""
    special_requests: Text = ""
    """Occasion, allergies, seating wishes."""
    seated_at: DateTime | None = None
    """When the party sat down."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class WaitlistEntry(Record):
    """A walk-in party waiting for a table."""

    id: WaitlistId
    restaurant_id: RestaurantId
    """The restaurant."""
    guest_name: PersonName
    """Who is waiting."""
    phone: Phone
    """Phone to text when the table is ready."""
    party_size: PartySize
    """Number of diners."""
    quoted_wait_minutes: int
    """Wait quoted when they arrived."""
    status: Literal["waiting", "seated", "left"] = "waiting"
    """waiting, seated or left."""
    reservation_id: ReservationId | None = None
    """The walk-in reservation made when they were seated."""
    added_at: Annotated[DateTime, CREATED]
    """When they joined the list."""


# -- rules -------------------------------------------------------------------------------------


def _minutes(clock: str) -> int:
    h, m = clock.split(":")
    return int(h) * 60 + int(m)


def _in_service(r: Restaurant, start: dt.datetime) -> bool:
    local = start.astimezone(ZoneInfo(r.timezone))
    day = DAYS[local.weekday()]
    at = local.hour * 60 + local.minute
    return any(h.day == day and _minutes(h.opens) <= at <= _minutes(h.closes) - LAST_SEATING for h in r.hours)


def _busy(ctx: Ctx, table_id: str, start: dt.datetime, end: dt.datetime, skip: str | None = None) -> Reservation | None:
    for other in ctx.where(Reservation, table_id=table_id):
        if other.id != skip and other.status in ACTIVE and other.start_at < end and start < other.end_at:
            return other
    return None


def _fits(t: Table, party: int) -> bool:
    return t.active and t.min_party <= party <= t.max_party


def _free_tables(
    ctx: Ctx, r: Restaurant, party: int, start: dt.datetime, end: dt.datetime, skip: str | None = None
) -> list[Table]:
    tables = [t for t in ctx.where(Table, restaurant_id=r.id) if _fits(t, party)]
    free = [t for t in tables if _busy(ctx, t.id, start, end, skip) is None]
    return sorted(free, key=lambda t: (t.max_party, t.label))


def _check_time(ctx: Ctx, r: Restaurant, start: dt.datetime, field: str) -> None:
    if start < ctx.now():
        raise RuleViolation(f"{start.isoformat()} is in the past", field=field, hint="book a time from now on")
    if start.minute % 15 or start.second or start.microsecond:
        raise RuleViolation(
            "seatings are on the quarter hour", field=field, hint="pick a time ending in :00, :15, :30 or :45"
        )
    if not _in_service(r, start):
        raise RuleViolation(
            f"{r.name} does not seat at {start.isoformat()}",
            field=field,
            hint="pick a time within its service hours (see reservations__find_availability)",
        )


def _pick_table(
    ctx: Ctx,
    r: Restaurant,
    party: int,
    start: dt.datetime,
    table_id: str | None,
    skip: str | None,
    field: str,
) -> Table:
    end = start + dt.timedelta(minutes=r.turn_minutes)
    if table_id is not None:
        t = ctx.get(Table, table_id, field="table_id")
        if t.restaurant_id != r.id:
            raise RuleViolation(
                f"table {t.label} is in another restaurant", field="table_id", hint="pick one of its tables"
            )
        if not _fits(t, party):
            raise RuleViolation(
                f"table {t.label} seats {t.min_party}-{t.max_party}, not {party}",
                field="table_id",
                hint="pick a table that fits the party, or omit table_id",
            )
        clash = _busy(ctx, t.id, start, end, skip)
        if clash is not None:
            raise Conflict(
                f"table {t.label} is held by reservation {clash.confirmation_number} then",
                field="table_id",
                hint="pick another table or time, or omit table_id",
            )
        return t
    free = _free_tables(ctx, r, party, start, end, skip)
    if not free:
        raise RuleViolation(
            f"no table for {party} is free at {start.isoformat()}",
            field=field,
            hint="see reservations__find_availability for free times, or add the party to the waitlist",
        )
    return free[0]


def _guard_table(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Restaurant, new.restaurant_id, field="restaurant_id")
    for other in ctx.where(Table, restaurant_id=new.restaurant_id, label=new.label):
        if other.id != new.id:
            raise Conflict(
                f"the restaurant already has a table {new.label}", field="label", hint="give the table another label"
            )
    if new.min_party > new.max_party:
        raise RuleViolation(
            "min_party is above max_party", field="min_party", hint="the smallest party must not exceed the largest"
        )
    if old is not None:
        for res in ctx.where(Reservation, table_id=new.id):
            if res.status in UPCOMING and (not _fits(new, res.party_size)):
                raise RuleViolation(
                    f"reservation {res.confirmation_number} for {res.party_size} holds this table",
                    field="table_id",
                    hint="move or cancel its reservations first",
                )


def _guard_table_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for res in ctx.where(Reservation, table_id=old.id):
        if res.status in ACTIVE:
            raise RuleViolation(
                f"reservation {res.confirmation_number} holds table {old.label}",
                field="table_id",
                hint="deactivate the table instead, or move its reservations",
            )


def _guard_restaurant(ctx: Ctx, new: Any, old: Any) -> None:
    for i, h in enumerate(new.hours):
        if _minutes(h.closes) - LAST_SEATING < _minutes(h.opens):
            raise RuleViolation(
                f"the {h.day} service must run at least 30 minutes",
                field=f"hours.{i}",
                hint="give a closing time at least 30 minutes after opening",
            )


restaurants = service.resource(
    Restaurant,
    name="restaurant",
    plural="restaurants",
    prefix="rst",
    create=False,
    filters=("timezone",),
    search=("name",),
    update=("phone", "hours", "turn_minutes", "max_online_party", "no_show_limit"),
    delete=False,
    guard_update=_guard_restaurant,
)
tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=("restaurant_id", "label", "min_party", "max_party", "area"),
    filters=("restaurant_id", "area", "active"),
    update=("min_party", "max_party", "area", "active"),
    guard_create=_guard_table,
    guard_update=_guard_table,
    guard_delete=_guard_table_delete,
)
guests = service.resource(
    Guest,
    name="guest",
    plural="guests",
    prefix="gst",
    create=("name", "email", "phone", "vip", "notes"),
    filters=("email", "vip"),
    search=("name", "email", "notes"),
    update=("name", "phone", "vip", "notes"),
    delete=False,
    unique=("email",),
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="res",
    create=False,
    filters=("restaurant_id", "guest_id", "guest_email", "status", "table_id", "confirmation_number"),
    search=("guest_name", "confirmation_number", "special_requests"),
    delete=False,
    transitions={
        "confirm": Transition("status", ("booked",), "confirmed", "confirm the reservation with the guest"),
        "complete": Transition(
            "status",
            ("seated",),
            "completed",
            "close the table after the party leaves",
            description=("Complete a seated reservation when the party has left: sets status to 'completed'."),
        ),
    },
)
waitlist = service.resource(
    WaitlistEntry,
    name="waitlist_entry",
    plural="waitlist_entries",
    prefix="wl",
    create=False,
    get=False,
    filters=("restaurant_id", "status"),
    search=("guest_name",),
    delete=False,
    title="waitlist entry",
)


# -- examples ----------------------------------------------------------------------------------


def _first_slot(ctx: Ctx, r: Restaurant, party: int, days: int = 3) -> dt.datetime | None:
    tz = ZoneInfo(r.timezone)
    now = ctx.now()
    for offset in range(1, days + 1):
        day = (now.astimezone(tz) + dt.timedelta(days=offset)).date()
        for h in r.hours:
            if h.day != DAYS[day.weekday()]:
                continue
            at = dt.datetime.combine(day, dt.time(_minutes(h.opens) // 60, _minutes(h.opens) % 60), tzinfo=tz)
            start = at.astimezone(dt.UTC)
            end = start + dt.timedelta(minutes=r.turn_minutes)
            if _free_tables(ctx, r, party, start, end):
                return start
    return None


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[1]
    for r in ctx.scan(Restaurant):
        start = _first_slot(ctx, r, 2)
        if start is not None:
            return {
                "restaurant_id": r.id,
                "guest_email": p.email,
                "guest_name": p.name,
                "guest_phone": p.phone,
                "party_size": 2,
                "start_at": start.isoformat(),
                "special_requests": "Window table if possible",
            }
    return None


def _example_availability(ctx: Ctx) -> dict[str, Any] | None:
    r = ctx.first(Restaurant)
    if r is None:
        return None
    return {"restaurant_id": r.id, "date": (ctx.today() + dt.timedelta(days=1)).isoformat(), "party_size": 4}


def _example_modify(ctx: Ctx) -> dict[str, Any] | None:
    for res in ctx.scan(Reservation):
        if res.status in UPCOMING and res.start_at > ctx.now() + dt.timedelta(hours=2):
            t = ctx.get(Table, res.table_id)
            if res.party_size + 1 <= t.max_party:
                return {"reservation_id": res.id, "party_size": res.party_size + 1}
    return None


_example_cancel = first_example(
    Reservation, "reservation_id", match=lambda ctx, res: res.status in UPCOMING and res.start_at > ctx.now()
)
_example_seat = first_example(
    Reservation,
    "reservation_id",
    match=lambda ctx, res: res.status in UPCOMING and res.start_at - EARLY_SEATING <= ctx.now() <= res.end_at,
)
_example_no_show = first_example(
    Reservation, "reservation_id", match=lambda ctx, res: res.status in UPCOMING and res.start_at + GRACE <= ctx.now()
)


def _example_waitlist(ctx: Ctx) -> dict[str, Any] | None:
    r = next((x for x in ctx.scan(Restaurant) if _in_service(x, ctx.now())), None)
    p = ctx.population.consumers[2]
    return None if r is None else {"restaurant_id": r.id, "guest_name": p.name, "phone": p.phone, "party_size": 2}


def _example_seat_waiting(ctx: Ctx) -> dict[str, Any] | None:
    now = ctx.now()
    for entry in ctx.where(WaitlistEntry, status="waiting"):
        r = ctx.get(Restaurant, entry.restaurant_id)
        free = _free_tables(ctx, r, entry.party_size, now, now + dt.timedelta(minutes=r.turn_minutes))
        if free:
            return {"waitlist_entry_id": entry.id, "table_id": free[0].id}
    return None


# -- availability and booking ------------------------------------------------------------------


class Slot(BaseModel):
    """A seating time and how many fitting tables are free then."""

    start_at: DateTime = Field(description="Seating time.")
    local_time: str = Field(description="The time in the restaurant's time zone, HH:MM.")
    free_tables: int = Field(description="Tables that fit the party and are free for a whole turn.")


@service.tool(intent="find free tables at the restaurant", example=_example_availability)
def find_availability(ctx: Ctx, restaurant_id: RestaurantId, date: Date, party_size: PartySize) -> list[Slot]:
    """List the half-hourly seating times of a day (local) at which a table for the party is free.

    Args:
        restaurant_id: The restaurant.
        date: The day, in the restaurant's local calendar.
        party_size: Number of diners.
    """
    r = ctx.get(Restaurant, restaurant_id, field="restaurant_id")
    tz = ZoneInfo(r.timezone)
    out: list[Slot] = []
    now = ctx.now()
    for h in sorted((h for h in r.hours if h.day == DAYS[date.weekday()]), key=lambda h: h.opens):
        m = _minutes(h.opens)
        while m <= _minutes(h.closes) - LAST_SEATING:
            local = dt.datetime.combine(date, dt.time(m // 60, m % 60), tzinfo=tz)
            start = local.astimezone(dt.UTC)
            if start >= now:
                free = _free_tables(ctx, r, party_size, start, start + dt.timedelta(minutes=r.turn_minutes))
                if free:
                    out.append(Slot(start_at=start, local_time=f"{m // 60:02d}:{m % 60:02d}", free_tables=len(free)))
            m += 30
    return out


@service.tool(intent="book a table for the guest", write=True, example=_example_book)
def book_reservation(
    ctx: Ctx,
    restaurant_id: RestaurantId,
    guest_email: Email,
    guest_name: PersonName,
    party_size: PartySize,
    start_at: DateTime,
    guest_phone: Phone | None = None,
    table_id: TableId | None = None,
    special_requests: Text = "",
) -> Reservation:
    """Book a table for a party at a quarter-hour time within the restaurant's service hours.

    The guest is found by e-mail or added to the guest book. Parties above the
    online limit, guests with too many no-shows, and guests who already hold a
    reservation at that time are refused. The smallest free table that fits is
    held for the restaurant's turn time unless a table is given.

    Args:
        restaurant_id: The restaurant.
        guest_email: The guest's e-mail.
        guest_name: The guest's name.
        party_size: Number of diners.
        start_at: Seating time.
        guest_phone: The guest's phone.
        table_id: A specific table to hold.
        special_requests: Occasion, allergies, seating wishes.
    """
    r = ctx.get(Restaurant, restaurant_id, field="restaurant_id")
    if party_size > r.max_online_party:
        raise RuleViolation(
            f"{r.name} takes parties of up to {r.max_online_party} online",
            field="party_size",
            hint=f"call the restaurant on {r.phone} for larger parties",
        )
    _check_time(ctx, r, start_at, "start_at")
    guest = ctx.first(Guest, email=guest_email)
    if guest is not None and guest.no_shows >= r.no_show_limit:
        raise RuleViolation(
            f"{guest.name} has {guest.no_shows} no-shows and cannot book online",
            field="guest_email",
            hint=f"the guest must call the restaurant on {r.phone}",
        )
    end = start_at + dt.timedelta(minutes=r.turn_minutes)
    if guest is not None:
        for other in ctx.where(Reservation, guest_id=guest.id):
            if other.status in UPCOMING and other.start_at < end and start_at < other.end_at:
                raise Conflict(
                    f"{guest.name} already holds reservation {other.confirmation_number} at that time",
                    field="start_at",
                    hint="modify that reservation instead of booking another",
                )
    table = _pick_table(ctx, r, party_size, start_at, table_id, None, "start_at")
    if guest is None:
        guest = ctx.create(Guest, name=guest_name, email=guest_email, phone=guest_phone)
    return ctx.create(
        Reservation,
        restaurant_id=r.id,
        guest_id=guest.id,
        guest_name=guest_name,
        guest_email=guest_email,
        party_size=party_size,
        start_at=start_at,
        end_at=end,
        table_id=table.id,
        special_requests=special_requests,
    )


def _upcoming(ctx: Ctx, reservation_id: str) -> Reservation:
    res = ctx.get(Reservation, reservation_id, field="reservation_id")
    if res.status not in UPCOMING:
        raise RuleViolation(
            f"reservation {res.confirmation_number} is {res.status}",
            field="reservation_id",
            hint="only booked or confirmed reservations can change",
        )
    return res


@service.tool(intent="change the reservation's time or party size", write=True, example=_example_modify)
def modify_reservation(
    ctx: Ctx, reservation_id: ReservationId, start_at: DateTime | None = None, party_size: PartySize | None = None
) -> Reservation:
    """Move a booked or confirmed reservation to another time or party size; it keeps its table if that still fits.

    Args:
        reservation_id: The reservation.
        start_at: New seating time.
        party_size: New number of diners.
    """
    res = _upcoming(ctx, reservation_id)
    if start_at is None and party_size is None:
        raise RuleViolation("nothing to change", field="reservation_id", hint="pass start_at or party_size")
    r = ctx.get(Restaurant, res.restaurant_id)
    start = start_at or res.start_at
    party = party_size or res.party_size
    if party > r.max_online_party:
        raise RuleViolation(
            f"{r.name} takes parties of up to {r.max_online_party} online",
            field="party_size",
            hint=f"call the restaurant on {r.phone}",
        )
    if start_at is not None:
        _check_time(ctx, r, start, "start_at")
    end = start + dt.timedelta(minutes=r.turn_minutes)
    current = ctx.get(Table, res.table_id)
    if _fits(current, party) and _busy(ctx, current.id, start, end, skip=res.id) is None:
        table = current
    else:
        table = _pick_table(ctx, r, party, start, None, res.id, "start_at" if start_at else "party_size")
    return ctx.update(res, start_at=start, end_at=end, party_size=party, table_id=table.id)


@service.tool(intent="cancel the reservation", write=True, destructive=True, example=_example_cancel)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel a booked or confirmed reservation before its time; its table is released.

    Args:
        reservation_id: The reservation.
    """
    res = _upcoming(ctx, reservation_id)
    if res.start_at <= ctx.now():
        raise RuleViolation(
            f"reservation {res.confirmation_number} was due at {res.start_at.isoformat()}",
            field="reservation_id",
            hint="seat the party, or mark it a no-show with reservations__mark_no_show",
        )
    return ctx.update(res, status="cancelled")


@service.tool(intent="seat the party", write=True, example=_example_seat)
def seat_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Seat a party that has arrived, from an hour before its time; the guest's visit count goes up.

    Args:
        reservation_id: The booked or confirmed reservation.
    """
    res = _upcoming(ctx, reservation_id)
    now = ctx.now()
    if now < res.start_at - EARLY_SEATING:
        raise RuleViolation(
            f"reservation {res.confirmation_number} is for {res.start_at.isoformat()}",
            field="reservation_id",
            hint="parties are seated from an hour before their time",
        )
    occupied = next(
        (o for o in ctx.where(Reservation, table_id=res.table_id, status="seated")),
        None,
    )
    if occupied is not None:
        raise Conflict(
            f"table {ctx.get(Table, res.table_id).label} is still occupied by {occupied.confirmation_number}",
            field="reservation_id",
            hint="complete the seated reservation first, or move this one with reservations__modify_reservation",
        )
    guest = ctx.get(Guest, res.guest_id)
    ctx.update(guest, visits=guest.visits + 1)
    return ctx.update(res, status="seated", seated_at=now)


@service.tool(intent="mark the reservation a no-show", write=True, example=_example_no_show)
def mark_no_show(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Mark a reservation whose party never came as a no-show, after the 15-minute grace period.

    Args:
        reservation_id: The booked or confirmed reservation.
    """
    res = _upcoming(ctx, reservation_id)
    if ctx.now() < res.start_at + GRACE:
        raise RuleViolation(
            f"the party of {res.confirmation_number} is not late yet",
            field="reservation_id",
            hint="wait until 15 minutes after the reservation's time",
        )
    guest = ctx.get(Guest, res.guest_id)
    ctx.update(guest, no_shows=guest.no_shows + 1)
    return ctx.update(res, status="no_show")


# -- waitlist ----------------------------------------------------------------------------------


@service.tool(intent="put the walk-in party on the waitlist", write=True, example=_example_waitlist)
def add_to_waitlist(
    ctx: Ctx, restaurant_id: RestaurantId, guest_name: PersonName, phone: Phone, party_size: PartySize
) -> WaitlistEntry:
    """Add a walk-in party to a restaurant's waitlist with a quoted wait (15 minutes per party ahead, at least 10).

    Args:
        restaurant_id: The restaurant.
        guest_name: Who is waiting.
        phone: Phone to text.
        party_size: Number of diners.
    """
    r = ctx.get(Restaurant, restaurant_id, field="restaurant_id")
    if not _in_service(r, ctx.now()):
        raise RuleViolation(
            f"{r.name} is not seating now", field="restaurant_id", hint="walk-ins wait only while the restaurant seats"
        )
    if not any(_fits(t, party_size) for t in ctx.where(Table, restaurant_id=r.id)):
        raise RuleViolation(
            f"{r.name} has no table for {party_size}", field="party_size", hint="split the party over tables"
        )
    if ctx.first(WaitlistEntry, restaurant_id=r.id, phone=phone, status="waiting") is not None:
        raise Conflict(f"{phone} is already waiting", field="phone", hint="the party keeps its place")
    ahead = len(ctx.where(WaitlistEntry, restaurant_id=r.id, status="waiting"))
    return ctx.create(
        WaitlistEntry,
        restaurant_id=r.id,
        guest_name=guest_name,
        phone=phone,
        party_size=party_size,
        quoted_wait_minutes=max(10, 15 * ahead),
    )


@service.tool(intent="seat the waiting party", write=True, example=_example_seat_waiting)
def seat_from_waitlist(ctx: Ctx, waitlist_entry_id: WaitlistId, table_id: TableId) -> Reservation:
    """Seat a waiting walk-in party at a table that fits and is free for a whole turn from now.

    Args:
        waitlist_entry_id: The waiting party.
        table_id: The table.
    """
    entry = ctx.get(WaitlistEntry, waitlist_entry_id, field="waitlist_entry_id")
    if entry.status != "waiting":
        raise RuleViolation(
            f"the party of {entry.guest_name} is {entry.status}", field="waitlist_entry_id", hint="pick a waiting party"
        )
    r = ctx.get(Restaurant, entry.restaurant_id)
    now = ctx.now()
    table = _pick_table(ctx, r, entry.party_size, now, table_id, None, "table_id")
    guest = ctx.first(Guest, phone=entry.phone)
    if guest is None:
        n = ctx.next_number(Guest, "walk_in")
        guest = ctx.create(Guest, name=entry.guest_name, email=f"walkin{n}@guests.tablewise.example", phone=entry.phone)
    ctx.update(guest, visits=guest.visits + 1)
    res = ctx.create(
        Reservation,
        restaurant_id=r.id,
        guest_id=guest.id,
        guest_name=entry.guest_name,
        party_size=entry.party_size,
        start_at=now,
        end_at=now + dt.timedelta(minutes=r.turn_minutes),
        table_id=table.id,
        status="seated",
        source="walk_in",
        seated_at=now,
    )
    ctx.update(entry, status="seated", reservation_id=res.id)
    return res


# -- seed --------------------------------------------------------------------------------------

NAMES = ("Harborview Bistro", "The Copper Pot", "Maison Lumiere", "Osteria del Ponte", "Sakura House", "Blue Fig")
LAYOUT: tuple[tuple[str, int, int, str], ...] = (
    ("T1", 1, 2, "main"), ("T2", 1, 2, "main"), ("T3", 1, 2, "bar"), ("T4", 2, 4, "main"),
    ("T5", 2, 4, "main"), ("T6", 2, 4, "patio"), ("T7", 4, 6, "main"), ("P1", 6, 10, "private"),
)  # fmt: skip


@service.seeder
def seed(s: SeedContext) -> None:
    """Restaurants in the home city and the consumers' cities, their tables, guests, and past, present and future bookings."""
    pop = s.population
    made = _seed_restaurants(s)
    tables_of = {
        r.id: [
            s.create(Table, restaurant_id=r.id, label=label, min_party=lo, max_party=hi, area=area)
            for label, lo, hi, area in LAYOUT
        ]
        for r in made
    }
    people = list(pop.consumers[:30]) + list(pop.employees[:10])
    guest_of = _seed_guests(s, people)
    _seed_reservations(s, made, tables_of, people, guest_of)
    _seed_waitlist(s, made)


def _seed_restaurants(s: SeedContext) -> list[Restaurant]:
    """One restaurant in the home city and in each consumers' city, up to ``len(NAMES)``; every other one all-day."""
    pop = s.population
    rng = s.rng
    places = {p.city: p for p in pop.places}
    cities = [pop.home.place.city]
    for p in pop.consumers:
        if p.place.city not in cities and len(cities) < len(NAMES):
            cities.append(p.place.city)
    made: list[Restaurant] = []
    for k, city in enumerate(cities):
        place = places[city]
        if k % 2 == 0:  # all-day brasseries
            hours = tuple(ServicePeriod(day=d, opens="08:00", closes="23:00") for d in DAYS)
        else:  # lunch and dinner, closed on Mondays
            hours = tuple(
                ServicePeriod(day=d, opens=a, closes=b)
                for d in DAYS[1:]
                for a, b in (("12:00", "15:00"), ("18:00", "23:00"))
            )
        made.append(
            s.create(
                Restaurant,
                name=NAMES[k],
                address=local_address(rng, place, ("River Road", "Bridge Street", "Garden Row")[k % 3], 120),
                phone=local_phone(rng, place),
                timezone=place.timezone,
                hours=hours,
                turn_minutes=(90, 120)[k % 2],
                max_online_party=(8, 6)[k % 2],
            )
        )
    return made


def _seed_guests(s: SeedContext, people: list[Person]) -> dict[str, Guest]:
    """A guest profile per person, by e-mail; a few VIPs and a few with no-shows."""
    return {
        p.email: s.create(
            Guest,
            name=p.name,
            email=p.email,
            phone=p.phone,
            vip=i % 11 == 3,
            visits=(i * 3) % 9,
            no_shows=3 if i in (5, 17) else (1 if i % 7 == 2 else 0),
            notes=("Nut allergy", "Prefers the patio", "", "")[i % 4],
        )
        for i, p in enumerate(people)
    }


def _seed_reservations(
    s: SeedContext,
    made: list[Restaurant],
    tables_of: dict[str, list[Table]],
    people: list[Person],
    guest_of: dict[str, Guest],
) -> None:
    """A booking per person, past or future, and where breakfast is served now, three due this morning."""
    now = s.now
    taken: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}

    def book(i: int, r: Restaurant, p: Person, start: dt.datetime, status: ResStatus, party: int) -> None:
        _seed_reservation(s, taken, tables_of[r.id], guest_of[p.email], i, r, start, status, party)

    def at(r: Restaurant, days: int, hh: int, mm: int = 0) -> dt.datetime:
        tz = ZoneInfo(r.timezone)
        d = now.astimezone(tz).date() + dt.timedelta(days=days)
        return dt.datetime.combine(d, dt.time(hh, mm), tzinfo=tz).astimezone(dt.UTC)

    for i, p in enumerate(people):
        r = made[i % len(made)]
        party = 2 + i % 5
        if i % 6 == 0:
            book(i, r, p, at(r, -2, 19), "completed", party)
        elif i % 6 == 1:
            book(i, r, p, at(r, -1, 19, 30), "no_show" if i % 4 == 1 else "completed", party)
        elif i % 6 == 2:
            book(i, r, p, at(r, 2, 20), "cancelled", party)
        elif i % 6 == 3:
            book(i, r, p, at(r, 1, 19, 15 * (i % 4)), "confirmed", party)
        else:
            book(i, r, p, at(r, 3 + i % 3, 18, 30), "booked", party)
    # Due this morning where breakfast is served now: one running late, one arriving, one at the table.
    start_of_day = now.replace(minute=0)
    for k, r in enumerate(made):
        if not all(_in_service(r, t) for t in (now - dt.timedelta(minutes=45), now + dt.timedelta(minutes=15))):
            continue
        book(k, r, people[(3 * k + 1) % len(people)], start_of_day - dt.timedelta(minutes=30), "confirmed", 2)
        book(k, r, people[(3 * k + 2) % len(people)], now + dt.timedelta(minutes=15), "booked", 2)
        book(k, r, people[(3 * k + 4) % len(people)], now - dt.timedelta(minutes=45), "seated", 3)


def _seed_reservation(
    s: SeedContext,
    taken: dict[str, list[tuple[dt.datetime, dt.datetime]]],
    tables: list[Table],
    g: Guest,
    i: int,
    r: Restaurant,
    start: dt.datetime,
    status: ResStatus,
    party: int,
) -> None:
    """Book the first table that fits the party and is free (``taken`` holds the active bookings); none: skip."""
    end = start + dt.timedelta(minutes=r.turn_minutes)
    fits = [
        t
        for t in tables
        if t.min_party <= party <= t.max_party and all(not (a < end and start < b) for a, b in taken.get(t.id, []))
    ]
    if not fits:
        return
    t = fits[0]
    if status in ACTIVE:
        taken.setdefault(t.id, []).append((start, end))
    s.create(
        Reservation,
        restaurant_id=r.id,
        guest_id=g.id,
        guest_name=g.name,
        guest_email=g.email,
        party_size=party,
        start_at=start,
        end_at=end,
        table_id=t.id,
        status=status,
        source=("online", "phone")[i % 2],
        special_requests=("Birthday", "", "High chair please", "")[i % 4],
        seated_at=start if status in ("seated", "completed") else None,
        created_at=start - dt.timedelta(days=3 + i % 5),
        updated_at=start - dt.timedelta(days=1) if status in UPCOMING else start,
    )


def _seed_waitlist(s: SeedContext, made: list[Restaurant]) -> None:
    """Two walk-in parties waiting at each restaurant open now."""
    consumers = s.population.consumers
    for k, r in enumerate(x for x in made if _in_service(x, s.now)):
        for j in range(2):
            p = consumers[(40 + 2 * k + j) % len(consumers)]
            s.create(
                WaitlistEntry,
                restaurant_id=r.id,
                guest_name=p.name,
                phone=p.phone,
                party_size=2 + j * 2,
                quoted_wait_minutes=max(10, 15 * j),
                added_at=s.now - dt.timedelta(minutes=10 - j),
            )
