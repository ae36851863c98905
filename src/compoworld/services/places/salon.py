"""Chairside: salon and spa booking, with deposits, no-show fees, memberships and group classes.

Modeled on the Boulevard Admin API (locations, staff, services with
deposits, clients, appointments booked → confirmed → arrived → completed, or
cancelled / no_show, with cancellation and no-show policies) and the Mindbody
Public API (memberships with class credits, class schedules and class
bookings). An appointment is for one service with one staff member qualified
for it at that location, inside opening hours (09:00-19:00), never
overlapping another of that staff member's appointments; a service with a
deposit needs a card on file and collects the deposit at booking. Cancelling
inside the location's window (or a no-show) keeps the deposit and, for a
no-show, charges the no-show fee. Completing charges the price less the
membership discount and the deposit. A class booking takes one credit of the
client's active membership (or is paid at the drop-in price), never beyond the
class's capacity and never twice; a late cancellation keeps the credit.
Amounts are cents.
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
from compoworld.engine.types import Cents, City, Currency, DateTime, Email, IdOf, Percent, PersonName, Phone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "salon",
    title="Chairside",
    category="salon_spa",
    modeled_on="Boulevard Admin API (locations, staff, services, clients, appointments with deposits and "
    "cancellation policy) and Mindbody Public API (memberships, classes, class bookings)",
    description="Booking for a salon and day spa: locations and their staff, the service menu with prices and "
    "deposits, clients with a card on file, appointments from booking to checkout with late-cancel and no-show "
    "fees, memberships that discount services and carry class credits, and group classes with capacity.",
)

LocationId = Annotated[str, IdOf("salon.location")]
StaffId = Annotated[str, IdOf("salon.staff")]
MenuServiceId = Annotated[str, IdOf("salon.menu_service")]
ClientId = Annotated[str, IdOf("salon.client")]
AppointmentId = Annotated[str, IdOf("salon.appointment")]
MembershipId = Annotated[str, IdOf("salon.membership")]
ClassId = Annotated[str, IdOf("salon.class_session")]
BookingId = Annotated[str, IdOf("salon.class_booking")]

Role = Literal["stylist", "colorist", "nail_tech", "esthetician", "massage_therapist", "instructor"]
ApptStatus = Literal["booked", "confirmed", "arrived", "completed", "cancelled", "no_show"]
OPEN_HOUR, CLOSE_HOUR = 9, 19
LIVE: tuple[str, ...] = ("booked", "confirmed", "arrived")
PLANS: dict[str, tuple[int, float, int]] = {"essential": (4900, 10.0, 4), "premium": (9900, 20.0, 10)}
"""Membership plans: monthly price, service discount and class credits per month."""


class Location(Record):
    """A salon location."""

    id: LocationId
    name: Title = Field(description="Its name.")
    city: City = Field(description="Where it is.")
    currency: Currency = Field(description="Its currency.")
    cancel_window_hours: Annotated[int, Field(ge=0, le=72)] = Field(24, description="Free cancellation until then.")
    no_show_fee: Cents = Field(2500, description="Charged for a no-show.")


class Staff(Record):
    """A staff member who takes appointments or teaches classes."""

    id: StaffId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their work e-mail.")
    role: Role = Field(description="What they do.")
    location_id: LocationId = Field(description="Where they work.")
    active: bool = Field(True, description="Whether they take bookings.")


class MenuService(Record):
    """A service on the menu."""

    id: MenuServiceId
    name: Title = Field(description="Its name (unique).")
    category: Literal["hair", "color", "nails", "skin", "massage"] = Field(description="Its menu category.")
    role: Role = Field(description="The role that performs it.")
    duration_minutes: Annotated[int, Field(ge=15, le=300)] = Field(description="How long it takes.")
    price: Cents = Field(description="Its price.")
    deposit: Cents = Field(0, description="Collected at booking (needs a card on file).")
    active: bool = Field(True, description="Whether it can be booked.")


class Client(Record):
    """A client of the salon."""

    id: ClientId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    card_on_file: bool = Field(False, description="Whether a card is stored for deposits and fees.")
    no_shows: Annotated[int, Field(ge=0)] = Field(0, description="No-shows so far.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they joined.")


class Appointment(Record):
    """An appointment for one service with one staff member."""

    id: AppointmentId
    client_id: ClientId = Field(description="The client.")
    location_id: LocationId = Field(description="The location.")
    staff_id: StaffId = Field(description="Who performs it.")
    menu_service_id: MenuServiceId = Field(description="The service.")
    start_at: DateTime = Field(description="When it starts.")
    end_at: DateTime = Field(description="When it ends.")
    status: ApptStatus = Field("booked", description="booked, confirmed, arrived, completed, cancelled or no_show.")
    deposit_collected: Cents = Field(0, description="Deposit taken at booking.")
    fee_charged: Cents = Field(0, description="Late-cancel or no-show fee charged.")
    amount_charged: Cents = Field(0, description="What checkout charged (after discount and deposit).")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was booked.")


class Membership(Record):
    """A client's membership plan."""

    id: MembershipId
    client_id: ClientId = Field(description="The member.")
    plan: Literal["essential", "premium"] = Field(description="essential or premium.")
    monthly_price: Cents = Field(description="What it costs a month.")
    discount_pct: Percent = Field(description="Discount on services.")
    credits: Annotated[int, Field(ge=0)] = Field(description="Class credits left this month.")
    status: Literal["active", "paused", "cancelled"] = Field("active", description="active, paused or cancelled.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it started.")


class ClassSession(Record):
    """A scheduled group class."""

    id: ClassId
    name: Title = Field(description="The class.")
    location_id: LocationId = Field(description="Where.")
    instructor_id: StaffId = Field(description="Who teaches.")
    start_at: DateTime = Field(description="When it starts.")
    capacity: Annotated[int, Field(ge=1, le=60)] = Field(description="Spots.")
    booked: Annotated[int, Field(ge=0)] = Field(0, description="Spots taken.")
    drop_in_price: Cents = Field(description="Price without a credit.")


class ClassBooking(Record):
    """A client's spot in a class."""

    id: BookingId
    class_id: ClassId = Field(description="The class.")
    client_id: ClientId = Field(description="The client.")
    paid_with: Literal["credit", "drop_in"] = Field(description="A membership credit or the drop-in price.")
    status: Literal["booked", "cancelled", "late_cancelled", "attended"] = Field("booked", description="Its state.")


# -- rules ------------------------------------------------------------------------------------


def _guard_service(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(MenuService, name=new.name)
    if other is not None and other.id != new.id:
        raise Conflict(f"{new.name!r} is already on the menu", field="name", hint="pick another name")
    if new.deposit > new.price:
        raise RuleViolation("the deposit exceeds the price", field="deposit", hint="lower the deposit")


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Client, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"client {other.id} has e-mail {new.email}", field="email", hint="use that client")


def _guard_staff(ctx: Ctx, new: Any, old: Any) -> None:
    if old.active and not new.active:
        ahead = [a for a in ctx.where(Appointment, staff_id=new.id) if a.status in LIVE and a.start_at > ctx.now()]
        if ahead:
            raise RuleViolation(
                f"{new.name} has {len(ahead)} upcoming appointments",
                field="active",
                hint="move or cancel them first",
            )


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("city",),
    search=("name",),
    update=("cancel_window_hours", "no_show_fee"),
    delete=False,
)
staff = service.resource(
    Staff,
    name="staff",
    plural="staff_members",
    prefix="stf",
    create=False,
    filters=("location_id", "role", "active", "email"),
    search=("name",),
    update=("active",),
    delete=False,
    guard_update=_guard_staff,
    title="staff member",
)
menu_services = service.resource(
    MenuService,
    name="menu_service",
    plural="menu_services",
    prefix="svc",
    create=("name", "category", "role", "duration_minutes", "price", "deposit"),
    filters=("category", "role", "active"),
    search=("name",),
    update=("price", "deposit", "duration_minutes", "active"),
    delete=False,
    guard_create=_guard_service,
    guard_update=_guard_service,
    title="menu service",
)
clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cli",
    create=("name", "email", "phone", "card_on_file"),
    filters=("email", "card_on_file"),
    search=("name", "email"),
    update=("name", "phone", "card_on_file"),
    delete=False,
    guard_create=_guard_client,
    guard_update=_guard_client,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="apt",
    create=False,
    filters=("client_id", "staff_id", "location_id", "menu_service_id", "status"),
    delete=False,
    transitions={
        "confirm": Transition("status", ("booked",), "confirmed", "confirm the appointment"),
        "arrive": Transition("status", ("booked", "confirmed"), "arrived", "check the client in"),
    },
)
memberships = service.resource(
    Membership,
    name="membership",
    plural="memberships",
    prefix="mem",
    create=False,
    filters=("client_id", "plan", "status"),
    delete=False,
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the membership"),
        "resume": Transition("status", ("paused",), "active", "resume the membership"),
        "cancel": Transition("status", ("active", "paused"), "cancelled", "cancel the membership", destructive=True),
    },
)
class_sessions = service.resource(
    ClassSession,
    name="class_session",
    plural="class_sessions",
    prefix="cls",
    create=False,
    filters=("location_id", "instructor_id", "name"),
    delete=False,
    title="class",
)
class_bookings = service.resource(
    ClassBooking,
    name="class_booking",
    plural="class_bookings",
    prefix="cbk",
    create=False,
    get=False,
    filters=("class_id", "client_id", "status", "paid_with"),
    delete=False,
    title="class booking",
)


# -- domain tools -----------------------------------------------------------------------------


def _member(ctx: Ctx, client_id: str) -> Membership | None:
    return ctx.first(Membership, client_id=client_id, status="active")


def _slot(ctx: Ctx, staff: Staff, svc: MenuService, start: dt.datetime, skip: str | None = None) -> dt.datetime:
    end = start + dt.timedelta(minutes=svc.duration_minutes)
    if start <= ctx.now():
        raise RuleViolation("the time has passed", field="start_at", hint="book a time ahead")
    if start.hour < OPEN_HOUR or end > utc_at(start.date(), CLOSE_HOUR):
        raise RuleViolation(f"open {OPEN_HOUR}:00-{CLOSE_HOUR}:00", field="start_at", hint="book inside opening hours")
    for a in ctx.where(Appointment, staff_id=staff.id):
        if a.id != skip and a.status in LIVE and a.start_at < end and start < a.end_at:
            raise Conflict(
                f"{staff.name} is booked {a.start_at:%H:%M}-{a.end_at:%H:%M}",
                field="start_at",
                hint="pick another time or staff member",
            )
    return end


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    svc = ctx.first(MenuService, role="stylist", deposit=0)
    st = ctx.first(Staff, role="stylist", active=True)
    cl = ctx.first(Client)
    if svc is None or st is None or cl is None:
        return None
    start = utc_at(ctx.today() + dt.timedelta(days=40), 10)
    return {"client_id": cl.id, "staff_id": st.id, "menu_service_id": svc.id, "start_at": start.isoformat()}


@service.tool(intent="book the appointment", write=True, example=_example_book)
def book_appointment(
    ctx: Ctx, client_id: ClientId, staff_id: StaffId, menu_service_id: MenuServiceId, start_at: DateTime
) -> Appointment:
    """Book a service with a qualified staff member at their location; a deposit needs a card on file.

    Args:
        client_id: The client.
        staff_id: The staff member (active, with the service's role).
        menu_service_id: The service (active).
        start_at: When it starts (ahead, inside opening hours, free for the staff member).
    """
    client = ctx.get(Client, client_id, field="client_id")
    st = ctx.get(Staff, staff_id, field="staff_id")
    svc = ctx.get(MenuService, menu_service_id, field="menu_service_id")
    if not svc.active:
        raise RuleViolation(f"{svc.name} is off the menu", field="menu_service_id", hint="pick an active service")
    if not st.active or st.role != svc.role:
        raise RuleViolation(
            f"{st.name} does not perform {svc.name}", field="staff_id", hint=f"pick an active {svc.role}"
        )
    end = _slot(ctx, st, svc, start_at)
    if svc.deposit and not client.card_on_file:
        raise RuleViolation(
            f"{svc.name} needs a {svc.deposit} deposit", field="client_id", hint="store a card on the client first"
        )
    return ctx.create(
        Appointment,
        client_id=client.id,
        location_id=st.location_id,
        staff_id=st.id,
        menu_service_id=svc.id,
        start_at=start_at,
        end_at=end,
        deposit_collected=svc.deposit,
    )


def _live_appt(ctx: Ctx, appointment_id: str, *states: str) -> Appointment:
    a = ctx.get(Appointment, appointment_id, field="appointment_id")
    if a.status not in states:
        raise RuleViolation(
            f"the appointment is {a.status}", field="appointment_id", hint=f"only {' or '.join(states)} ones"
        )
    return a


@service.tool(
    intent="reschedule the appointment",
    write=True,
    example=first_example(
        Appointment,
        "appointment_id",
        where={"status": "booked"},
        match=lambda ctx, a: a.start_at > ctx.now(),
        start_at="2099-01-05T11:00:00Z",
    ),
)
def reschedule_appointment(ctx: Ctx, appointment_id: AppointmentId, start_at: DateTime) -> Appointment:
    """Move a booked or confirmed appointment to another time with the same staff member.

    Args:
        appointment_id: The appointment.
        start_at: The new start (ahead, inside opening hours, free).
    """
    a = _live_appt(ctx, appointment_id, "booked", "confirmed")
    end = _slot(ctx, ctx.get(Staff, a.staff_id), ctx.get(MenuService, a.menu_service_id), start_at, skip=a.id)
    return ctx.update(a, start_at=start_at, end_at=end, status="booked")


@service.tool(
    intent="cancel the appointment",
    write=True,
    example=first_example(Appointment, "appointment_id", where={"status": "booked"}),
)
def cancel_appointment(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Cancel a booked or confirmed appointment; inside the location's window the deposit is kept as the fee.

    Args:
        appointment_id: The appointment.
    """
    a = _live_appt(ctx, appointment_id, "booked", "confirmed")
    window = dt.timedelta(hours=ctx.get(Location, a.location_id).cancel_window_hours)
    late = a.start_at - ctx.now() < window
    return ctx.update(a, status="cancelled", fee_charged=a.deposit_collected if late else 0)


@service.tool(
    intent="mark the appointment as a no-show",
    write=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "confirmed"}, match=lambda ctx, a: a.start_at <= ctx.now()
    ),
)
def mark_no_show(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Mark a booked or confirmed appointment whose start has passed as a no-show.

    The deposit is kept and the location's no-show fee is charged to the card on file.

    Args:
        appointment_id: The appointment.
    """
    a = _live_appt(ctx, appointment_id, "booked", "confirmed")
    if a.start_at > ctx.now():
        raise RuleViolation("the appointment has not started", field="appointment_id", hint="wait for its start")
    client = ctx.get(Client, a.client_id)
    fee = ctx.get(Location, a.location_id).no_show_fee if client.card_on_file else 0
    ctx.update(client, no_shows=client.no_shows + 1)
    return ctx.update(a, status="no_show", fee_charged=a.deposit_collected + fee)


@service.tool(
    intent="check out the appointment",
    write=True,
    example=first_example(Appointment, "appointment_id", where={"status": "arrived"}),
)
def complete_appointment(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Check out an arrived client: the price less the membership discount, less the deposit, is charged.

    Args:
        appointment_id: The appointment.
    """
    a = _live_appt(ctx, appointment_id, "arrived")
    svc = ctx.get(MenuService, a.menu_service_id)
    m = _member(ctx, a.client_id)
    price = round(svc.price * (1 - (m.discount_pct if m else 0) / 100))
    return ctx.update(a, status="completed", amount_charged=max(price - a.deposit_collected, 0))


def _example_sell(ctx: Ctx) -> dict[str, Any] | None:
    members = {m.client_id for m in ctx.scan(Membership) if m.status != "cancelled"}
    c = next((c for c in ctx.scan(Client) if c.id not in members and c.card_on_file), None)
    return None if c is None else {"client_id": c.id, "plan": "essential"}


@service.tool(intent="sell the membership", write=True, example=_example_sell)
def sell_membership(ctx: Ctx, client_id: ClientId, plan: Literal["essential", "premium"]) -> Membership:
    """Start a membership for a client with a card on file and no other live membership.

    Args:
        client_id: The client.
        plan: essential or premium.
    """
    client = ctx.get(Client, client_id, field="client_id")
    if not client.card_on_file:
        raise RuleViolation("memberships bill a stored card", field="client_id", hint="store a card first")
    for m in ctx.where(Membership, client_id=client.id):
        if m.status != "cancelled":
            raise Conflict(
                f"{client.name} has a {m.status} {m.plan} membership",
                field="client_id",
                hint="resume or cancel it first",
            )
    price, discount, credits = PLANS[plan]
    return ctx.create(
        Membership, client_id=client.id, plan=plan, monthly_price=price, discount_pct=discount, credits=credits
    )


def _example_class(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.scan(ClassSession):
        if c.booked < c.capacity and c.start_at > ctx.now():
            taken = {b.client_id for b in ctx.where(ClassBooking, class_id=c.id) if b.status == "booked"}
            cl = next((x for x in ctx.scan(Client) if x.id not in taken), None)
            if cl is not None:
                return {"class_id": c.id, "client_id": cl.id}
    return None


@service.tool(intent="book the client into the class", write=True, example=_example_class)
def book_class(ctx: Ctx, class_id: ClassId, client_id: ClientId) -> ClassBooking:
    """Book a spot in an upcoming class with a membership credit, or at the drop-in price without one.

    Args:
        class_id: The class.
        client_id: The client (once per class).
    """
    c = ctx.get(ClassSession, class_id, field="class_id")
    ctx.get(Client, client_id, field="client_id")
    if c.start_at <= ctx.now():
        raise RuleViolation("the class has started", field="class_id", hint="pick an upcoming class")
    if c.booked >= c.capacity:
        raise RuleViolation(f"{c.name} is full", field="class_id", hint="pick another class")
    if any(b.status == "booked" for b in ctx.where(ClassBooking, class_id=c.id, client_id=client_id)):
        raise Conflict("the client is already booked", field="client_id", hint="nothing to do")
    m = _member(ctx, client_id)
    paid: Any = "credit" if m is not None and m.credits > 0 else "drop_in"
    if m is not None and paid == "credit":
        ctx.update(m, credits=m.credits - 1)
    ctx.update(c, booked=c.booked + 1)
    return ctx.create(ClassBooking, class_id=c.id, client_id=client_id, paid_with=paid)


@service.tool(
    intent="cancel the class booking",
    write=True,
    example=first_example(ClassBooking, "class_booking_id", where={"status": "booked"}),
)
def cancel_class_booking(ctx: Ctx, class_booking_id: BookingId) -> ClassBooking:
    """Cancel a class booking: the spot frees; up to 12 hours ahead a used credit comes back, later it is kept.

    Args:
        class_booking_id: The booking.
    """
    b = ctx.get(ClassBooking, class_booking_id, field="class_booking_id")
    if b.status != "booked":
        raise RuleViolation(f"the booking is {b.status}", field="class_booking_id", hint="nothing to cancel")
    c = ctx.get(ClassSession, b.class_id)
    late = c.start_at - ctx.now() < dt.timedelta(hours=12)
    ctx.update(c, booked=c.booked - 1)
    m = _member(ctx, b.client_id)
    if b.paid_with == "credit" and not late and m is not None:
        ctx.update(m, credits=m.credits + 1)
    return ctx.update(b, status="late_cancelled" if late else "cancelled")


# -- seed -------------------------------------------------------------------------------------

MENU: tuple[tuple[str, Any, Role, int, int, int], ...] = (
    ("Women's Haircut", "hair", "stylist", 60, 8500, 0),
    ("Men's Haircut", "hair", "stylist", 30, 4500, 0),
    ("Full Highlights", "color", "colorist", 150, 22000, 5000),
    ("Gel Manicure", "nails", "nail_tech", 45, 5000, 0),
    ("Signature Facial", "skin", "esthetician", 60, 12000, 3000),
    ("Deep Tissue Massage", "massage", "massage_therapist", 90, 16000, 4000),
)
ROLES: tuple[Role, ...] = ("stylist", "colorist", "nail_tech", "esthetician", "massage_therapist", "instructor")


@service.seeder
def seed(s: SeedContext) -> None:
    """Two locations, staff from employees, clients from consumers, appointments in every state, classes."""
    pop = s.population
    places = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:1]]
    locs = [
        s.create(
            Location, name=f"Chairside {p.city}", city=p.city, currency=p.currency, cancel_window_hours=24 - 12 * k
        )
        for k, p in enumerate(places)
    ]
    team = [
        s.create(Staff, name=p.name, email=p.email, role=ROLES[k % len(ROLES)], location_id=locs[k % len(locs)].id)
        for k, p in enumerate(pop.staff("Support", "Operations", "Marketing", fallback=12)[:12])
    ]
    menu = [
        s.create(MenuService, name=n, category=c, role=r, duration_minutes=d, price=p, deposit=dep)
        for n, c, r, d, p, dep in MENU
    ]
    clients = [
        s.create(
            Client,
            name=p.name,
            email=p.email,
            phone=p.phone,
            card_on_file=k % 4 != 3,
            created_at=s.ago(days=300 - 9 * k),
        )
        for k, p in enumerate(pop.consumers[:16])
    ]
    for k, cl in enumerate([c for c in clients if c.card_on_file][:6]):
        plan: Any = "premium" if k % 2 else "essential"
        price, discount, credits = PLANS[plan]
        status: Any = ("active", "active", "active", "paused", "active", "cancelled")[k]
        s.create(
            Membership,
            client_id=cl.id,
            plan=plan,
            monthly_price=price,
            discount_pct=discount,
            credits=credits - k % 3,
            status=status,
            created_at=s.ago(days=120 - 10 * k),
        )
    today = s.now.date()
    states: tuple[tuple[int, int, ApptStatus], ...] = (
        (-3, 10, "completed"),
        (-2, 14, "completed"),
        (-1, 11, "no_show"),
        (-1, 15, "cancelled"),
        (0, -2, "confirmed"),
        (0, -1, "arrived"),
        (1, 10, "booked"),
        (2, 13, "confirmed"),
        (5, 11, "booked"),
        (9, 16, "booked"),
    )
    n = 0
    for svc in menu:
        who = [t for t in team if t.role == svc.role]
        for j, (days, hour, st) in enumerate(states):
            if (n + j) % 3:
                continue
            t = who[j % len(who)]
            start = utc_at(today + dt.timedelta(days=days), hour) if hour > 0 else s.now + dt.timedelta(hours=hour)
            start = start.replace(minute=0, second=0, microsecond=0)
            cl = clients[(n + 2 * j) % len(clients)]
            dep = svc.deposit if cl.card_on_file else 0
            s.create(
                Appointment,
                client_id=cl.id,
                location_id=t.location_id,
                staff_id=t.id,
                menu_service_id=svc.id,
                start_at=start,
                end_at=start + dt.timedelta(minutes=svc.duration_minutes),
                status=st,
                deposit_collected=dep,
                created_at=s.ago(days=20),
                fee_charged=dep + (locs[0].no_show_fee if st == "no_show" else 0),
                amount_charged=max(svc.price - dep, 0) if st == "completed" else 0,
            )
        n += 1
    _seed_classes(s, locs, [t for t in team if t.role == "instructor"] or team[:1], clients)


def _seed_classes(s: SeedContext, locs: list[Location], teachers: list[Staff], clients: list[Client]) -> None:
    today = s.now.date()
    for k, (name, days, hour, cap) in enumerate(
        (("Morning Yoga", 1, 9, 12), ("Pilates Mat", 2, 18, 3), ("Sound Bath", 0, 18, 10), ("Yoga Flow", -2, 9, 12))
    ):
        t = teachers[k % len(teachers)]
        c = s.create(
            ClassSession,
            name=name,
            location_id=t.location_id,
            instructor_id=t.id,
            start_at=utc_at(today + dt.timedelta(days=days), hour),
            capacity=cap,
            drop_in_price=2500,
        )
        taken = clients[k : k + min(cap, 3)]
        for cl in taken:
            members = {m.client_id for m in s.records(Membership) if m.status == "active"}
            s.create(
                ClassBooking,
                class_id=c.id,
                client_id=cl.id,
                paid_with="credit" if cl.id in members else "drop_in",
                status="attended" if days < 0 else "booked",
            )
        s.update(c, booked=len(taken))
