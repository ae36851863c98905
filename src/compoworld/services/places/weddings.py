"""Vowline: wedding and event planning with checklists, vendor contracts and payments, budgets, guests and seating.

Modeled on Aisle Planner (planner workspace: events, checklists with due dates,
vendor team with contracts and payment schedules, budget, guest list with RSVPs
and meal choices, seating chart). An event has a planner on staff, a date ahead
and a budget; a new event gets the standard checklist timed back from its date.
Vendors are booked by category (one venue, caterer, photographer, officiant)
as proposed, then contracted (signed) or cancelled; contracted amounts may not
exceed the budget, and payments go only to contracted vendors up to the
contract amount. Guests (with a party size) RSVP accepted or declined with a
meal choice; accepted seats may not exceed the guest cap; only accepted
guests are seated, at tables whose capacity holds their parties. Amounts are
cents.
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
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "weddings",
    title="Vowline",
    category="event_planning",
    modeled_on="Aisle Planner: events, checklists with due dates, vendor team with contracts and payment "
    "schedules, budget tracker, guest list with RSVPs and meals, seating chart",
    description="A wedding planner's workspace: each couple's event with its date, venue and budget, the planning "
    "checklist, vendors booked under contract with their payments, the budget against what is committed, and "
    "the guest list with RSVPs, meal choices and the seating chart.",
)

EventId = Annotated[str, IdOf("weddings.event")]
TaskId = Annotated[str, IdOf("weddings.task")]
VendorId = Annotated[str, IdOf("weddings.vendor_booking")]
PaymentId = Annotated[str, IdOf("weddings.payment")]
GuestId = Annotated[str, IdOf("weddings.guest")]
TableId = Annotated[str, IdOf("weddings.table")]

VendorCategory = Literal["venue", "caterer", "photographer", "florist", "dj", "officiant", "baker", "planner_fee"]
EXCLUSIVE: frozenset[str] = frozenset({"venue", "caterer", "photographer", "officiant"})
Meal = Literal["beef", "fish", "vegetarian", "kids"]
CHECKLIST: tuple[tuple[str, int], ...] = (
    ("Book the venue", 330),
    ("Book the photographer", 270),
    ("Send save-the-dates", 180),
    ("Order the cake", 90),
    ("Send invitations", 60),
    ("Final guest count to caterer", 14),
)
"""The standard checklist: task and days before the event it is due."""


class Event(Record):
    """A wedding (or other celebration)."""

    id: EventId
    name: Title = Field(description="e.g. Ava & Noah's Wedding.")
    couple_names: Title = Field(description="The couple.")
    client_email: Email = Field(description="The couple's e-mail.")
    event_date: Date = Field(description="The day.")
    venue_name: Title | None = Field(None, description="Where (once booked).")
    budget_total: Cents = Field(description="The budget.")
    guest_cap: Annotated[int, Field(ge=2, le=1000)] = Field(description="Most guests (seats).")
    planner_email: Email = Field(description="The lead planner.")
    status: Literal["planning", "completed", "cancelled"] = Field("planning", description="Its state.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was set up.")


class Task(Record):
    """A checklist item."""

    id: TaskId
    event_id: EventId = Field(description="The event.")
    title: Title = Field(description="What to do.")
    due_date: Date = Field(description="When.")
    completed: bool = Field(False, description="Whether it is done.")


class VendorBooking(Record):
    """A vendor on the event's team."""

    id: VendorId
    event_id: EventId = Field(description="The event.")
    category: VendorCategory = Field(description="What they provide.")
    company: CompanyName = Field(description="The vendor.")
    contact_name: PersonName = Field(description="Their contact.")
    contact_email: Email = Field(description="Their e-mail.")
    amount: Cents = Field(description="Contract amount.")
    paid: Cents = Field(0, description="Paid so far.")
    status: Literal["proposed", "contracted", "cancelled"] = Field("proposed", description="Its state.")
    signed_at: DateTime | None = Field(None, description="When the contract was signed.")


class Payment(Record):
    """A payment to a vendor."""

    id: PaymentId
    vendor_booking_id: VendorId = Field(description="The vendor booking.")
    amount: Cents = Field(description="Amount.")
    paid_on: Date = Field(description="When.")
    note: Title | None = Field(None, description="e.g. Deposit.")


class Guest(Record):
    """An invited party."""

    id: GuestId
    event_id: EventId = Field(description="The event.")
    name: PersonName = Field(description="The guest.")
    email: Email = Field(description="Their e-mail (once per event).")
    party_size: Annotated[int, Field(ge=1, le=8)] = Field(1, description="Seats (guest plus companions).")
    rsvp: Literal["pending", "accepted", "declined"] = Field("pending", description="Their answer.")
    meal: Meal | None = Field(None, description="Meal choice (accepted guests).")
    table_id: TableId | None = Field(None, description="Their table.")


class Table(Record):
    """A reception table."""

    id: TableId
    event_id: EventId = Field(description="The event.")
    name: Title = Field(description="e.g. Table 4.")
    capacity: Annotated[int, Field(ge=2, le=20)] = Field(description="Seats.")


class Budget(Value):
    """The event's budget against its vendors."""

    event_id: str
    budget_total: int
    contracted: int
    proposed: int
    paid: int
    remaining: int
    by_category: dict[str, int]


# -- rules ------------------------------------------------------------------------------------


def _live(ctx: Ctx, event_id: str, field: str = "event_id") -> Event:
    ev = ctx.get(Event, event_id, field=field)
    if ev.status != "planning":
        raise RuleViolation(f"the event is {ev.status}", field=field, hint="only events being planned change")
    return ev


def _guard_event(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.planner_email, field="planner_email", hint="events are led by our planners")
    committed = sum(v.amount for v in ctx.where(VendorBooking, event_id=new.id, status="contracted"))
    if new.budget_total < committed:
        raise RuleViolation(f"{committed} is already contracted", field="budget_total", hint="keep the budget above it")


def _guard_task(ctx: Ctx, new: Any, old: Any) -> None:
    _live(ctx, new.event_id)


events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("status", "planner_email", "client_email", "event_date"),
    search=("name", "couple_names"),
    update=("venue_name", "budget_total", "guest_cap", "planner_email"),
    delete=False,
    transitions={
        "complete": Transition("status", ("planning",), "completed", "mark the event completed"),
        "cancel": Transition("status", ("planning",), "cancelled", "cancel the event", destructive=True),
    },
    guard_update=_guard_event,
)
tasks = service.resource(
    Task,
    name="task",
    plural="tasks",
    prefix="tsk",
    create=("event_id", "title", "due_date"),
    get=False,
    filters=("event_id", "completed"),
    search=("title",),
    update=("title", "due_date"),
    delete=False,
    transitions={"complete": Transition("completed", (False,), True, "complete the task")},
    guard_create=_guard_task,
    guard_update=_guard_task,
    title="checklist task",
)
vendors = service.resource(
    VendorBooking,
    name="vendor_booking",
    plural="vendor_bookings",
    prefix="vnd",
    create=False,
    filters=("event_id", "category", "status", "contact_email"),
    search=("company", "contact_name"),
    delete=False,
    title="vendor booking",
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("vendor_booking_id",),
    delete=False,
    title="vendor payment",
)
guests = service.resource(
    Guest,
    name="guest",
    plural="guests",
    prefix="gst",
    create=False,
    filters=("event_id", "rsvp", "email", "table_id"),
    search=("name", "email"),
    update=("name", "party_size"),
    delete=True,
)
tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=False,
    get=False,
    filters=("event_id",),
    delete=False,
    title="reception table",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_event(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.population.consumers[0]
    return {
        "couple_names": f"{p.first_name} & Sam",
        "client_email": p.email,
        "event_date": (ctx.today() + dt.timedelta(days=400)).isoformat(),
        "budget_total": 4_500_000,
        "guest_cap": 120,
        "planner_email": ctx.population.employees[0].email,
    }


@service.tool(intent="set up the wedding", write=True, example=_example_event)
def create_event(
    ctx: Ctx,
    couple_names: Title,
    client_email: Email,
    event_date: Date,
    budget_total: Cents,
    guest_cap: Annotated[int, Field(ge=2, le=1000)],
    planner_email: Email,
) -> Event:
    """Set up an event with a staff planner; the standard checklist is added, timed back from the date.

    Args:
        couple_names: The couple, e.g. Ava & Noah.
        client_email: The couple's e-mail.
        event_date: The day (ahead).
        budget_total: The budget.
        guest_cap: Most guests.
        planner_email: The lead planner (staff).
    """
    if event_date <= ctx.today():
        raise RuleViolation("the date must be ahead", field="event_date", hint="pick a future date")
    require_employee(ctx, planner_email, field="planner_email", hint="events are led by our planners")
    ev = ctx.create(
        Event,
        name=f"{couple_names}'s Wedding",
        couple_names=couple_names,
        client_email=client_email,
        event_date=event_date,
        budget_total=budget_total,
        guest_cap=guest_cap,
        planner_email=planner_email,
    )
    for title, days in CHECKLIST:
        ctx.create(Task, event_id=ev.id, title=title, due_date=max(event_date - dt.timedelta(days=days), ctx.today()))
    return ev


def _example_vendor(ctx: Ctx) -> dict[str, Any] | None:
    ev = ctx.first(Event, status="planning")
    c = ctx.population.contacts[-1]
    return (
        None
        if ev is None
        else {
            "event_id": ev.id,
            "category": "florist",
            "company": "Petal & Stem",
            "contact_name": c.name,
            "contact_email": c.email,
            "amount": 250_000,
        }
    )


@service.tool(intent="add the vendor to the event", write=True, example=_example_vendor)
def book_vendor(
    ctx: Ctx,
    event_id: EventId,
    category: VendorCategory,
    company: CompanyName,
    contact_name: PersonName,
    contact_email: Email,
    amount: Cents,
) -> VendorBooking:
    """Add a proposed vendor; a venue, caterer, photographer or officiant is booked once per event.

    Args:
        event_id: The event (being planned).
        category: venue, caterer, photographer, florist, dj, officiant, baker or planner_fee.
        company: The vendor company.
        contact_name: Their contact.
        contact_email: Their e-mail.
        amount: Proposed contract amount.
    """
    ev = _live(ctx, event_id)
    if category in EXCLUSIVE:
        for v in ctx.where(VendorBooking, event_id=ev.id, category=category):
            if v.status != "cancelled":
                raise Conflict(f"{v.company} is already the {category}", field="category", hint="cancel them first")
    return ctx.create(
        VendorBooking,
        event_id=ev.id,
        category=category,
        company=company,
        contact_name=contact_name,
        contact_email=contact_email,
        amount=amount,
    )


def _vendor(ctx: Ctx, vendor_booking_id: str, state: str) -> VendorBooking:
    v = ctx.get(VendorBooking, vendor_booking_id, field="vendor_booking_id")
    if v.status != state:
        raise RuleViolation(f"the booking is {v.status}", field="vendor_booking_id", hint=f"only {state} bookings")
    _live(ctx, v.event_id, "vendor_booking_id")
    return v


@service.tool(
    intent="sign the vendor contract",
    write=True,
    example=first_example(VendorBooking, "vendor_booking_id", where={"status": "proposed"}),
)
def sign_vendor_contract(ctx: Ctx, vendor_booking_id: VendorId) -> VendorBooking:
    """Sign a proposed vendor's contract; contracted amounts may not exceed the event's budget.

    A signed venue contract sets the event's venue.

    Args:
        vendor_booking_id: The vendor booking.
    """
    v = _vendor(ctx, vendor_booking_id, "proposed")
    ev = ctx.get(Event, v.event_id)
    committed = sum(x.amount for x in ctx.where(VendorBooking, event_id=ev.id, status="contracted"))
    if committed + v.amount > ev.budget_total:
        raise RuleViolation(
            f"that takes contracts to {committed + v.amount}, over the {ev.budget_total} budget",
            field="vendor_booking_id",
            hint="raise the budget or negotiate the amount",
        )
    if v.category == "venue":
        ctx.update(ev, venue_name=v.company)
    return ctx.update(v, status="contracted", signed_at=ctx.now())


@service.tool(
    intent="release the vendor",
    write=True,
    destructive=True,
    example=first_example(VendorBooking, "vendor_booking_id", where={"status": "proposed"}),
)
def cancel_vendor(ctx: Ctx, vendor_booking_id: VendorId) -> VendorBooking:
    """Cancel a proposed or contracted vendor that has not been paid.

    Args:
        vendor_booking_id: The vendor booking.
    """
    v = ctx.get(VendorBooking, vendor_booking_id, field="vendor_booking_id")
    _live(ctx, v.event_id, "vendor_booking_id")
    if v.status == "cancelled":
        raise RuleViolation("the booking is already cancelled", field="vendor_booking_id", hint="nothing to do")
    if v.paid:
        raise RuleViolation(f"{v.paid} was already paid", field="vendor_booking_id", hint="settle it with the vendor")
    return ctx.update(v, status="cancelled")


@service.tool(
    intent="pay the vendor",
    write=True,
    example=first_example(
        VendorBooking,
        "vendor_booking_id",
        where={"status": "contracted"},
        match=lambda c, v: v.paid < v.amount and c.get(Event, v.event_id).status == "planning",
        amount=1000,
        note="Deposit",
    ),
)
def pay_vendor(ctx: Ctx, vendor_booking_id: VendorId, amount: Cents, note: Title | None = None) -> Payment:
    """Record a payment to a contracted vendor, up to what is left on the contract.

    Args:
        vendor_booking_id: The vendor booking (contracted).
        amount: Amount (above zero).
        note: e.g. Deposit, Final payment.
    """
    v = _vendor(ctx, vendor_booking_id, "contracted")
    if amount <= 0 or v.paid + amount > v.amount:
        raise RuleViolation(f"{v.amount - v.paid} is left on the contract", field="amount", hint="pay at most that")
    ctx.update(v, paid=v.paid + amount)
    return ctx.create(Payment, vendor_booking_id=v.id, amount=amount, paid_on=ctx.today(), note=note)


@service.tool(intent="show the event budget", example=first_example(Event, "event_id"))
def budget_summary(ctx: Ctx, event_id: EventId) -> Budget:
    """The event's budget against contracted and proposed vendors, what is paid and what is left.

    Args:
        event_id: The event.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    live = [v for v in ctx.where(VendorBooking, event_id=ev.id) if v.status != "cancelled"]
    contracted = sum(v.amount for v in live if v.status == "contracted")
    by: dict[str, int] = {}
    for v in live:
        by[v.category] = by.get(v.category, 0) + v.amount
    return Budget(
        event_id=ev.id,
        budget_total=ev.budget_total,
        contracted=contracted,
        proposed=sum(v.amount for v in live if v.status == "proposed"),
        paid=sum(v.paid for v in live),
        remaining=ev.budget_total - contracted,
        by_category=by,
    )


def _example_guest(ctx: Ctx) -> dict[str, Any] | None:
    ev = ctx.first(Event, status="planning")
    p = ctx.population.consumers[-2]
    return None if ev is None else {"event_id": ev.id, "name": p.name, "email": p.email, "party_size": 2}


@service.tool(intent="invite the guest", write=True, example=_example_guest)
def add_guest(
    ctx: Ctx, event_id: EventId, name: PersonName, email: Email, party_size: Annotated[int, Field(ge=1, le=8)] = 1
) -> Guest:
    """Put a party on the guest list (RSVP pending); each e-mail once per event.

    Args:
        event_id: The event.
        name: The guest.
        email: Their e-mail.
        party_size: Seats for them and companions.
    """
    ev = _live(ctx, event_id)
    if ctx.first(Guest, event_id=ev.id, email=email) is not None:
        raise Conflict(f"{email} is already invited", field="email", hint="update that guest")
    return ctx.create(Guest, event_id=ev.id, name=name, email=email, party_size=party_size)


@service.tool(
    intent="record the guest's RSVP",
    write=True,
    example=first_example(Guest, "guest_id", where={"rsvp": "pending"}, rsvp="accepted", meal="fish"),
)
def record_rsvp(ctx: Ctx, guest_id: GuestId, rsvp: Literal["accepted", "declined"], meal: Meal | None = None) -> Guest:
    """Record a guest's answer: accepting needs a meal choice and a seat under the guest cap; declining unseats.

    Args:
        guest_id: The guest.
        rsvp: accepted or declined.
        meal: beef, fish, vegetarian or kids (required to accept).
    """
    g = ctx.get(Guest, guest_id, field="guest_id")
    ev = _live(ctx, g.event_id, "guest_id")
    if rsvp == "declined":
        return ctx.update(g, rsvp="declined", meal=None, table_id=None)
    if meal is None:
        raise RuleViolation(
            "an accepted RSVP needs a meal choice", field="meal", hint="pick beef, fish, vegetarian or kids"
        )
    seats = sum(x.party_size for x in ctx.where(Guest, event_id=ev.id, rsvp="accepted") if x.id != g.id)
    if seats + g.party_size > ev.guest_cap:
        raise RuleViolation(
            f"{seats} of {ev.guest_cap} seats are taken",
            field="guest_id",
            hint="raise the guest cap or wait-list the guest",
        )
    return ctx.update(g, rsvp="accepted", meal=meal)


@service.tool(
    intent="add a reception table",
    write=True,
    example=first_example(Event, "event_id", where={"status": "planning"}, name="Sweetheart Table", capacity=2),
)
def add_table(ctx: Ctx, event_id: EventId, name: Title, capacity: Annotated[int, Field(ge=2, le=20)]) -> Table:
    """Add a table to an event's seating chart; table names are unique per event.

    Args:
        event_id: The event (being planned).
        name: e.g. Table 7.
        capacity: Seats.
    """
    ev = _live(ctx, event_id)
    if ctx.first(Table, event_id=ev.id, name=name) is not None:
        raise Conflict(f"{name} already exists", field="name", hint="name it differently")
    return ctx.create(Table, event_id=ev.id, name=name, capacity=capacity)


def _example_seat(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.where(Guest, rsvp="accepted", table_id=None):
        for t in ctx.where(Table, event_id=g.event_id):
            used = sum(x.party_size for x in ctx.where(Guest, table_id=t.id))
            if used + g.party_size <= t.capacity:
                return {"guest_id": g.id, "table_id": t.id}
    return None


@service.tool(intent="seat the guest", write=True, example=_example_seat)
def seat_guest(ctx: Ctx, guest_id: GuestId, table_id: TableId) -> Guest:
    """Seat an accepted guest's party at a table of the same event with room for all of them.

    Args:
        guest_id: The guest (accepted).
        table_id: The table.
    """
    g = ctx.get(Guest, guest_id, field="guest_id")
    _live(ctx, g.event_id, "guest_id")
    if g.rsvp != "accepted":
        raise RuleViolation(f"the RSVP is {g.rsvp}", field="guest_id", hint="only accepted guests are seated")
    t = ctx.get(Table, table_id, field="table_id")
    if t.event_id != g.event_id:
        raise RuleViolation("the table is at another event", field="table_id", hint="pick this event's table")
    used = sum(x.party_size for x in ctx.where(Guest, table_id=t.id) if x.id != g.id)
    if used + g.party_size > t.capacity:
        raise Conflict(f"{t.name} has {t.capacity - used} seats left", field="table_id", hint="pick another table")
    return ctx.update(g, table_id=t.id)


# -- seed -------------------------------------------------------------------------------------

VENDORS: tuple[tuple[VendorCategory, str, int, str], ...] = (
    ("venue", "Rosewood Estate", 1_800_000, "contracted"),
    ("caterer", "Saffron & Sage Catering", 1_200_000, "contracted"),
    ("photographer", "Golden Hour Studio", 450_000, "contracted"),
    ("florist", "Petal & Stem", 300_000, "proposed"),
    ("dj", "Nightfall Entertainment", 180_000, "proposed"),
    ("baker", "Sugar Bloom Bakery", 90_000, "cancelled"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three events (one completed), checklists, vendors from contacts in every state, guests, tables, seating."""
    pop = s.population
    planners = pop.staff("Sales", "Marketing", fallback=2)
    today = s.now.date()
    for k, (days, status) in enumerate(((120, "planning"), (300, "planning"), (-20, "completed"))):
        a, b = pop.consumers[30 + 2 * k], pop.consumers[31 + 2 * k]
        couple = f"{a.first_name} & {b.first_name}"
        date = today + dt.timedelta(days=days)
        ev = s.create(
            Event,
            name=f"{couple}'s Wedding",
            couple_names=couple,
            client_email=a.email,
            event_date=date,
            venue_name="Rosewood Estate" if k != 1 else None,
            budget_total=4_500_000 - 500_000 * k,
            guest_cap=100 if k else 12,
            planner_email=planners[k % len(planners)].email,
            status=status,
            created_at=s.ago(days=200),
        )
        for title, before in CHECKLIST:
            due = date - dt.timedelta(days=before)
            s.create(Task, event_id=ev.id, title=title, due_date=due, completed=due < today)
        for j, (cat, company, amount, vstatus) in enumerate(VENDORS if k != 1 else VENDORS[3:5]):
            c = pop.contacts[(3 * k + j) % len(pop.contacts)]
            paid = amount // 4 if vstatus == "contracted" else 0
            vb = s.create(
                VendorBooking,
                event_id=ev.id,
                category=cat,
                company=company,
                contact_name=c.name,
                contact_email=c.email,
                amount=amount,
                paid=paid,
                status=vstatus,
                signed_at=s.ago(days=150) if vstatus == "contracted" else None,
            )
            if paid:
                s.create(
                    Payment,
                    vendor_booking_id=vb.id,
                    amount=paid,
                    paid_on=today - dt.timedelta(days=150),
                    note="Deposit",
                )
        if k == 0:
            t1 = s.create(Table, event_id=ev.id, name="Table 1", capacity=8)
            s.create(Table, event_id=ev.id, name="Table 2", capacity=6)
            for j, p in enumerate(pop.consumers[40:48]):
                answer: Any = ("accepted", "accepted", "pending", "declined")[j % 4]
                s.create(
                    Guest,
                    event_id=ev.id,
                    name=p.name,
                    email=p.email,
                    party_size=2 if j % 3 == 0 else 1,
                    rsvp=answer,
                    meal=("beef", "fish", "vegetarian")[j % 3] if answer == "accepted" else None,
                    table_id=t1.id if answer == "accepted" and j < 2 else None,
                )
