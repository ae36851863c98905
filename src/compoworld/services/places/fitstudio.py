"""Pulse Studio: a fitness studio's class schedule, bookings with waitlists, passes and late-cancel fees.

Modeled on the Mindbody Public API (site v6): class descriptions (types) and
scheduled classes with a teacher, room and capacity; clients; pricing options
sold as client services (intro offer, class packs with a count and an
expiration, monthly unlimited with a visits-per-day limit); visits (class
bookings) that are booked or waitlisted, then signed in (checked in),
cancelled, late-cancelled or marked no-show. A booking draws on an active,
unexpired pass of the client's (a pack's session on booking, given back on an
early cancel); a full class puts the client on the waitlist and the first
waitlisted client moves into a freed spot. A cancel inside 12 hours of the
class is late: the session is forfeited and a late-cancel fee is charged, and a
no-show is charged more. An intro offer is sold once per client; a cancelled
class releases every booking. Amounts are cents.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "fitstudio",
    title="Pulse Studio",
    category="fitness_studio",
    modeled_on="Mindbody Public API v6: class descriptions, classes, clients, pricing options/client services "
    "(class packs, unlimited memberships, intro offers), visits with waitlist, sign-in, late cancel, no-show",
    description="A boutique fitness studio: the weekly class schedule with teachers, rooms and capacity, clients "
    "and the passes they buy (intro offer, class packs, monthly unlimited), class bookings with a waitlist that "
    "moves up, check-in at the front desk, and late-cancel and no-show fees.",
)

ClassTypeId = Annotated[str, IdOf("fitstudio.class_type")]
TeacherId = Annotated[str, IdOf("fitstudio.teacher")]
ClassId = Annotated[str, IdOf("fitstudio.scheduled_class")]
ClientId = Annotated[str, IdOf("fitstudio.client")]
PassId = Annotated[str, IdOf("fitstudio.pass")]
BookingId = Annotated[str, IdOf("fitstudio.booking")]

PassOption = Literal["intro_week", "pack_5", "pack_10", "monthly_unlimited"]
OPTIONS: dict[str, tuple[int | None, int, int]] = {
    "intro_week": (None, 7, 4000),
    "pack_5": (5, 90, 11000),
    "pack_10": (10, 180, 20000),
    "monthly_unlimited": (None, 30, 16900),
}
"""Pricing options: sessions (None: unlimited), days valid, price."""
BookingStatus = Literal["booked", "waitlisted", "checked_in", "cancelled", "late_cancelled", "no_show"]
SEATED: tuple[str, ...] = ("booked", "checked_in")
LATE_WINDOW = dt.timedelta(hours=12)
LATE_CANCEL_FEE, NO_SHOW_FEE = 1500, 2000
ROOMS = Literal["Studio A", "Studio B", "Cycle Room"]


class ClassType(Record):
    """A class description on the studio's menu."""

    id: ClassTypeId
    name: Title = Field(description="Its name (unique).")
    category: Literal["yoga", "cycle", "pilates", "hiit", "barre", "strength"] = Field(description="Its kind.")
    duration_minutes: Annotated[int, Field(ge=30, le=120)] = Field(description="How long a class lasts.")
    description: Text = Field("", description="What to expect.")
    active: bool = Field(True, description="Whether it can be scheduled.")


class Teacher(Record):
    """An instructor (staff)."""

    id: TeacherId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their work e-mail.")
    specialties: tuple[str, ...] = Field((), description="Class categories they teach.")


class ScheduledClass(Record):
    """A class on the schedule."""

    id: ClassId
    class_type_id: ClassTypeId = Field(description="The class description.")
    name: Title = Field(description="The class name.")
    teacher_id: TeacherId = Field(description="Who teaches.")
    room: ROOMS = Field(description="Where.")
    start_at: DateTime = Field(description="When it starts.")
    end_at: DateTime = Field(description="When it ends.")
    capacity: Annotated[int, Field(ge=1, le=60)] = Field(description="Spots.")
    booked: Annotated[int, Field(ge=0)] = Field(0, description="Spots taken.")
    waitlisted: Annotated[int, Field(ge=0)] = Field(0, description="Clients on the waitlist.")
    status: Literal["scheduled", "cancelled"] = Field("scheduled", description="scheduled or cancelled.")


class Client(Record):
    """A client of the studio."""

    id: ClientId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    account_balance: int = Field(0, description="Fees owed (cents, positive: owed).")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they signed up.")


class Pass(Record):
    """A pricing option a client bought (a client service)."""

    id: PassId
    client_id: ClientId = Field(description="The client.")
    option: PassOption = Field(description="intro_week, pack_5, pack_10 or monthly_unlimited.")
    price: Cents = Field(description="What it cost.")
    sessions_remaining: Annotated[int, Field(ge=0)] | None = Field(
        None, description="Left on a pack (None: unlimited)."
    )
    active_from: Date = Field(description="First day it is valid.")
    expires_on: Date = Field(description="Last day it is valid.")
    status: Literal["active", "suspended", "cancelled"] = Field("active", description="active, suspended, cancelled.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was sold.")


class Booking(Record):
    """A client's visit to a class."""

    id: BookingId
    class_id: ClassId = Field(description="The class.")
    client_id: ClientId = Field(description="The client.")
    pass_id: PassId = Field(description="The pass it draws on.")
    status: BookingStatus = Field("booked", description="booked, waitlisted, checked_in, cancelled, ...")
    waitlist_position: int | None = Field(None, description="Place on the waitlist.")
    fee_charged: Cents = Field(0, description="Late-cancel or no-show fee.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was made.")


# -- rules ------------------------------------------------------------------------------------


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Client, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"client {other.id} has e-mail {new.email}", field="email", hint="use that client")


def _guard_type(ctx: Ctx, new: Any, old: Any) -> None:
    for t in ctx.where(ClassType, name=new.name):
        if t.id != new.id:
            raise Conflict(f"{new.name!r} is already a class", field="name", hint="pick another name")


class_types = service.resource(
    ClassType,
    name="class_type",
    plural="class_types",
    prefix="ct",
    create=("name", "category", "duration_minutes", "description"),
    filters=("category", "active"),
    search=("name", "description"),
    update=("description", "active", "duration_minutes"),
    delete=False,
    guard_create=_guard_type,
    guard_update=_guard_type,
    title="class description",
)
teachers = service.resource(
    Teacher,
    name="teacher",
    plural="teachers",
    prefix="tch",
    create=False,
    filters=("email",),
    search=("name",),
    delete=False,
)
classes = service.resource(
    ScheduledClass,
    name="scheduled_class",
    plural="scheduled_classes",
    prefix="cls",
    create=False,
    filters=("class_type_id", "teacher_id", "room", "status", "name"),
    delete=False,
    title="class",
)
clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("name", "email", "phone"),
    filters=("email",),
    search=("name", "email"),
    update=("name", "phone"),
    delete=False,
    guard_create=_guard_client,
    guard_update=_guard_client,
)
passes = service.resource(
    Pass,
    name="pass",
    plural="passes",
    prefix="pass",
    create=False,
    filters=("client_id", "option", "status"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the pass"),
        "reactivate": Transition("status", ("suspended",), "active", "reactivate the pass"),
    },
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="vis",
    create=False,
    filters=("class_id", "client_id", "status", "pass_id"),
    delete=False,
    title="class booking",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(ClassType, active=True)
    teacher = ctx.first(Teacher)
    start = utc_at(ctx.today() + dt.timedelta(days=60), 6)
    if t is None or teacher is None:
        return None
    return {"class_type_id": t.id, "teacher_id": teacher.id, "room": "Studio B", "start_at": start.isoformat()}


@service.tool(intent="schedule the class", write=True, example=_example_schedule)
def schedule_class(
    ctx: Ctx,
    class_type_id: ClassTypeId,
    teacher_id: TeacherId,
    room: ROOMS,
    start_at: DateTime,
    capacity: Annotated[int, Field(ge=1, le=60)] = 20,
) -> ScheduledClass:
    """Put a class on the schedule; neither the teacher nor the room may be busy then.

    Args:
        class_type_id: The class description (active).
        teacher_id: The teacher.
        room: Studio A, Studio B or Cycle Room.
        start_at: When it starts (ahead).
        capacity: Spots.
    """
    t = ctx.get(ClassType, class_type_id, field="class_type_id")
    teacher = ctx.get(Teacher, teacher_id, field="teacher_id")
    if not t.active:
        raise RuleViolation(f"{t.name} is retired", field="class_type_id", hint="reactivate it first")
    if start_at <= ctx.now():
        raise RuleViolation("the time has passed", field="start_at", hint="schedule ahead")
    end = start_at + dt.timedelta(minutes=t.duration_minutes)
    for c in ctx.where(ScheduledClass, status="scheduled"):
        if c.start_at < end and start_at < c.end_at and (c.teacher_id == teacher.id or c.room == room):
            who = "teacher_id" if c.teacher_id == teacher.id else "room"
            raise Conflict(f"{c.name} is at {c.start_at:%H:%M} ({c.room})", field=who, hint="pick another time")
    return ctx.create(
        ScheduledClass,
        class_type_id=t.id,
        name=t.name,
        teacher_id=teacher.id,
        room=room,
        start_at=start_at,
        end_at=end,
        capacity=capacity,
    )


@service.tool(
    intent="cancel the class",
    write=True,
    destructive=True,
    example=first_example(
        ScheduledClass, "class_id", where={"status": "scheduled"}, match=lambda c, x: x.start_at > c.now()
    ),
)
def cancel_class(ctx: Ctx, class_id: ClassId) -> ScheduledClass:
    """Cancel an upcoming class: every booking and waitlist spot is released and pack sessions are returned.

    Args:
        class_id: The class.
    """
    c = ctx.get(ScheduledClass, class_id, field="class_id")
    if c.status != "scheduled" or c.start_at <= ctx.now():
        raise RuleViolation("only upcoming scheduled classes can be cancelled", field="class_id", hint="nothing to do")
    for b in ctx.where(Booking, class_id=c.id):
        if b.status in ("booked", "waitlisted"):
            if b.status == "booked":
                _give_back(ctx, b.pass_id)
            ctx.update(b, status="cancelled", waitlist_position=None)
    return ctx.update(c, status="cancelled", booked=0, waitlisted=0)


def _example_sell(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Client)
    return None if c is None else {"client_id": c.id, "option": "pack_10"}


@service.tool(intent="sell the pass", write=True, example=_example_sell)
def sell_pass(ctx: Ctx, client_id: ClientId, option: PassOption, active_from: Date | None = None) -> Pass:
    """Sell a client a pricing option: it is valid from a day for the option's number of days.

    Args:
        client_id: The client.
        option: intro_week (once per client), pack_5, pack_10 or monthly_unlimited.
        active_from: First valid day (default today; not in the past).
    """
    client = ctx.get(Client, client_id, field="client_id")
    start = active_from or ctx.today()
    if start < ctx.today():
        raise RuleViolation("a pass cannot start in the past", field="active_from", hint="start it today or later")
    if option == "intro_week" and ctx.where(Pass, client_id=client.id):
        raise RuleViolation(f"{client.name} is not a new client", field="option", hint="the intro offer is for firsts")
    sessions, days, price = OPTIONS[option]
    return ctx.create(
        Pass,
        client_id=client.id,
        option=option,
        price=price,
        sessions_remaining=sessions,
        active_from=start,
        expires_on=start + dt.timedelta(days=days - 1),
    )


def _give_back(ctx: Ctx, pass_id: str) -> None:
    p = ctx.get(Pass, pass_id)
    if p.sessions_remaining is not None:
        ctx.update(p, sessions_remaining=p.sessions_remaining + 1)


def _usable_pass(ctx: Ctx, client_id: str, c: ScheduledClass) -> Pass:
    day = c.start_at.date()
    for p in ctx.where(Pass, client_id=client_id, status="active"):
        if not p.active_from <= day <= p.expires_on or p.sessions_remaining == 0:
            continue
        if p.sessions_remaining is None:
            same_day = [
                b
                for b in ctx.where(Booking, pass_id=p.id)
                if b.status in ("booked", "waitlisted", "checked_in")
                and ctx.get(ScheduledClass, b.class_id).start_at.date() == day
            ]
            if same_day:
                continue
        return p
    raise RuleViolation(
        "the client has no pass that covers this class",
        field="client_id",
        hint="sell a pass with fitstudio__sell_pass (unlimited passes allow one class a day)",
    )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(ScheduledClass, status="scheduled"):
        if c.start_at <= ctx.now():
            continue
        taken = {b.client_id for b in ctx.where(Booking, class_id=c.id) if b.status in ("booked", "waitlisted")}
        for p in ctx.where(Pass, status="active", option="pack_10"):
            if p.client_id not in taken and p.sessions_remaining and p.expires_on >= c.start_at.date():
                return {"class_id": c.id, "client_id": p.client_id}
    return None


@service.tool(intent="book the client into the class", write=True, example=_example_book)
def book_class(ctx: Ctx, class_id: ClassId, client_id: ClientId) -> Booking:
    """Book a client into an upcoming class on a pass that covers it; a full class puts them on the waitlist.

    Args:
        class_id: The class.
        client_id: The client (once per class).
    """
    c = ctx.get(ScheduledClass, class_id, field="class_id")
    ctx.get(Client, client_id, field="client_id")
    if c.status != "scheduled" or c.start_at <= ctx.now():
        raise RuleViolation("the class is not upcoming", field="class_id", hint="pick a scheduled class ahead")
    for b in ctx.where(Booking, class_id=c.id, client_id=client_id):
        if b.status in ("booked", "waitlisted", "checked_in"):
            raise Conflict(f"the client is already {b.status}", field="client_id", hint="nothing to do")
    p = _usable_pass(ctx, client_id, c)
    if c.booked < c.capacity:
        if p.sessions_remaining is not None:
            ctx.update(p, sessions_remaining=p.sessions_remaining - 1)
        ctx.update(c, booked=c.booked + 1)
        return ctx.create(Booking, class_id=c.id, client_id=client_id, pass_id=p.id)
    ctx.update(c, waitlisted=c.waitlisted + 1)
    return ctx.create(
        Booking,
        class_id=c.id,
        client_id=client_id,
        pass_id=p.id,
        status="waitlisted",
        waitlist_position=c.waitlisted + 1,
    )


def _promote(ctx: Ctx, c: ScheduledClass) -> ScheduledClass:
    waiting = sorted(
        (b for b in ctx.where(Booking, class_id=c.id, status="waitlisted")), key=lambda b: b.waitlist_position or 0
    )
    for b in waiting:
        p = ctx.get(Pass, b.pass_id)
        if p.status == "active" and p.sessions_remaining != 0:
            if p.sessions_remaining is not None:
                ctx.update(p, sessions_remaining=p.sessions_remaining - 1)
            ctx.update(b, status="booked", waitlist_position=None)
            rest = [w for w in waiting if w.id != b.id]
            for k, w in enumerate(rest, start=1):
                ctx.update(w, waitlist_position=k)
            return ctx.update(c, waitlisted=c.waitlisted - 1)
    return ctx.update(c, booked=c.booked - 1)


@service.tool(
    intent="cancel the class booking",
    write=True,
    example=first_example(
        Booking,
        "booking_id",
        where={"status": "booked"},
        match=lambda c, b: c.get(ScheduledClass, b.class_id).start_at > c.now(),
    ),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a booked or waitlisted visit before class; inside 12 hours it is a late cancel with a fee.

    An early cancel gives a pack session back; a late one forfeits it. The first client on the
    waitlist moves into the freed spot.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    c = ctx.get(ScheduledClass, b.class_id)
    if b.status not in ("booked", "waitlisted") or c.start_at <= ctx.now():
        raise RuleViolation(f"the booking is {b.status}", field="booking_id", hint="only upcoming bookings")
    if b.status == "waitlisted":
        for w in ctx.where(Booking, class_id=c.id, status="waitlisted"):
            if (w.waitlist_position or 0) > (b.waitlist_position or 0):
                ctx.update(w, waitlist_position=(w.waitlist_position or 1) - 1)
        ctx.update(c, waitlisted=c.waitlisted - 1)
        return ctx.update(b, status="cancelled", waitlist_position=None)
    late = c.start_at - ctx.now() < LATE_WINDOW
    if late:
        client = ctx.get(Client, b.client_id)
        ctx.update(client, account_balance=client.account_balance + LATE_CANCEL_FEE)
    else:
        _give_back(ctx, b.pass_id)
    _promote(ctx, c)
    return ctx.update(b, status="late_cancelled" if late else "cancelled", fee_charged=LATE_CANCEL_FEE if late else 0)


@service.tool(
    intent="check the client in to class",
    write=True,
    example=first_example(
        Booking,
        "booking_id",
        where={"status": "booked"},
        match=lambda c, b: abs(c.get(ScheduledClass, b.class_id).start_at - c.now()) < dt.timedelta(minutes=30),
    ),
)
def check_in(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Sign a booked client in at the front desk, from 30 minutes before class until it ends.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "booked":
        raise RuleViolation(f"the booking is {b.status}", field="booking_id", hint="only booked clients check in")
    c = ctx.get(ScheduledClass, b.class_id)
    if not c.start_at - dt.timedelta(minutes=30) <= ctx.now() <= c.end_at:
        raise RuleViolation(
            f"class is at {c.start_at:%Y-%m-%d %H:%M}", field="booking_id", hint="check in at class time"
        )
    return ctx.update(b, status="checked_in")


@service.tool(
    intent="mark the client a no-show",
    write=True,
    example=first_example(
        Booking,
        "booking_id",
        where={"status": "booked"},
        match=lambda c, b: c.get(ScheduledClass, b.class_id).end_at <= c.now(),
    ),
)
def mark_no_show(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Mark a booked client who never checked in once the class has ended; the no-show fee is charged.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "booked":
        raise RuleViolation(f"the booking is {b.status}", field="booking_id", hint="only booked clients")
    if ctx.get(ScheduledClass, b.class_id).end_at > ctx.now():
        raise RuleViolation("the class has not ended", field="booking_id", hint="wait until it ends")
    client = ctx.get(Client, b.client_id)
    ctx.update(client, account_balance=client.account_balance + NO_SHOW_FEE)
    return ctx.update(b, status="no_show", fee_charged=NO_SHOW_FEE)


@service.tool(
    intent="settle the client's fees",
    write=True,
    example=first_example(Client, "client_id", match=lambda c, x: x.account_balance > 0),
)
def settle_balance(ctx: Ctx, client_id: ClientId) -> Client:
    """Take payment of the fees a client owes, bringing the balance to zero.

    Args:
        client_id: The client (owing fees).
    """
    client = ctx.get(Client, client_id, field="client_id")
    if client.account_balance <= 0:
        raise RuleViolation(f"{client.name} owes nothing", field="client_id", hint="nothing to settle")
    return ctx.update(client, account_balance=0)


# -- seed -------------------------------------------------------------------------------------

TYPES: tuple[tuple[str, Any, int, Any], ...] = (
    ("Vinyasa Flow", "yoga", 60, "Studio A"),
    ("Rhythm Ride", "cycle", 45, "Cycle Room"),
    ("Reformer Pilates", "pilates", 50, "Studio B"),
    ("HIIT Burn", "hiit", 45, "Studio A"),
    ("Barre Sculpt", "barre", 55, "Studio B"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Teachers from staff, clients from consumers with passes, a week of classes with bookings and a waitlist."""
    pop = s.population
    types = [s.create(ClassType, name=n, category=cat, duration_minutes=d) for n, cat, d, _ in TYPES]
    teachers = [
        s.create(Teacher, name=p.name, email=p.email, specialties=(TYPES[k % 5][1], TYPES[(k + 2) % 5][1]))
        for k, p in enumerate(pop.employees[:4])
    ]
    today = s.now.date()
    clients: list[Client] = []
    for k, person in enumerate(pop.consumers[:14]):
        cl = s.create(
            Client,
            name=person.name,
            email=person.email,
            phone=person.phone,
            created_at=s.ago(days=200 - 10 * k),
            account_balance=LATE_CANCEL_FEE if k == 5 else 0,
        )
        clients.append(cl)
        option: PassOption = ("pack_10", "monthly_unlimited", "pack_5", "intro_week")[k % 4]
        sessions, days, price = OPTIONS[option]
        start = today - dt.timedelta(days=3)
        s.create(
            Pass,
            client_id=cl.id,
            option=option,
            price=price,
            sessions_remaining=sessions,
            status="suspended" if k == 8 else "active",
            active_from=start,
            expires_on=start + dt.timedelta(days=days - 1),
            created_at=s.ago(days=3),
        )
    made: list[ScheduledClass] = []
    for k, (day, hour) in enumerate(((-1, 7), (0, 9), (0, 17), (1, 7), (1, 18), (2, 12), (3, 7), (4, 18))):
        name, _, minutes, room = TYPES[k % 5]
        start = utc_at(today + dt.timedelta(days=day), hour)
        made.append(
            s.create(
                ScheduledClass,
                class_type_id=types[k % 5].id,
                name=name,
                teacher_id=teachers[k % 4].id,
                room=room,
                start_at=start,
                end_at=start + dt.timedelta(minutes=minutes),
                capacity=4 if k == 3 else 12,
            )
        )
    passes_ = {p.client_id: p for p in s.records(Pass)}
    for k, c in enumerate(made):
        n = 6 if k == 3 else 3
        for j in range(n):
            cl = clients[(k * 3 + j) % len(clients)]
            p = passes_[cl.id]
            full = k == 3 and j >= c.capacity
            status: BookingStatus = "waitlisted" if full else ("checked_in" if k == 0 and j else "booked")
            if k == 0 and j == 0:
                status = "booked"
            s.create(
                Booking,
                class_id=c.id,
                client_id=cl.id,
                pass_id=p.id,
                status=status,
                waitlist_position=j - c.capacity + 1 if full else None,
                created_at=s.ago(days=2),
            )
            if p.sessions_remaining is not None and not full:
                passes_[cl.id] = s.update(p, sessions_remaining=max(p.sessions_remaining - 1, 0))
        seated = min(n, c.capacity)
        s.update(c, booked=seated, waitlisted=n - seated)
