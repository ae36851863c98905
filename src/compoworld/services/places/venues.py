"""Hallmark Venues: event venue sales with rooms, leads, events, banquet event orders, deposits and room conflicts.

Modeled on the Tripleseat API (``/v1/locations``, ``/rooms``, ``/leads`` with convert, ``/events`` with
status prospect → tentative → definite → closed, or lost / cancelled, ``/bookings``, documents such as
the banquet event order (BEO), payments and payment schedules): a lead is converted into a prospect
event at a venue's rooms; an event holds its rooms tentatively only if no definite event overlaps them
and its guests fit the rooms' capacity; it turns definite only once its deposit is paid and no other
tentative or definite event holds its rooms then; the BEO lists food, beverage, AV and rental items with
the venue's service charge and tax, goes draft → approved, and any later change makes a new draft
version; the payment schedule splits the event total into a deposit due now and a final payment due a
week before the event; payments must match a due instalment; a definite event that is cancelled forfeits
what was paid and voids the rest; an event closes only after it has ended and is paid in full.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.places._shared import local_address, local_phone

__all__ = ["service"]

service = Service(
    "venues",
    title="Hallmark Venues",
    category="venue_management",
    modeled_on="Tripleseat API (locations, rooms, leads and lead conversion, events with prospect / tentative / "
    "definite status, banquet event orders, payments and payment schedules, room availability)",
    description="Event venue sales: venues and their private rooms, inbound leads and their conversion, events "
    "that move from prospect to tentative to definite, room conflict checks, banquet event orders (BEOs) with "
    "menu and AV items, payment schedules with deposits, payments, cancellation and close-out.",
)

VenueId = Annotated[str, IdOf("venues.venue")]
RoomId = Annotated[str, IdOf("venues.room")]
LeadId = Annotated[str, IdOf("venues.lead")]
EventId = Annotated[str, IdOf("venues.event")]
BeoId = Annotated[str, IdOf("venues.beo")]
InstalmentId = Annotated[str, IdOf("venues.instalment")]

Guests = Annotated[int, Field(ge=1, le=5000)]
LeadStatus = Literal["new", "contacted", "converted", "lost"]
EventStatus = Literal["prospect", "tentative", "definite", "closed", "lost", "cancelled"]
ItemCategory = Literal["food", "beverage", "av", "rental", "labor"]
InstalmentKind = Literal["deposit", "final"]
InstalmentStatus = Literal["due", "paid", "void"]

FINAL_DUE = dt.timedelta(days=7)
HOLDING: tuple[str, ...] = ("tentative", "definite")


class Venue(Record):
    """A venue (Tripleseat location)."""

    id: VenueId
    name: CompanyName
    """Venue name."""
    address: PostalAddress
    """Address."""
    phone: Phone
    """Events office phone."""
    timezone: Timezone
    """Time zone."""
    currency: Currency
    """Currency."""
    service_charge_pct: Annotated[float, Field(ge=0, le=40)] = 20.0
    """Service charge on BEO items."""
    tax_pct: Annotated[float, Field(ge=0, le=30)] = 8.0
    """Sales tax on items and service charge."""
    deposit_pct: Annotated[int, Field(ge=0, le=100)] = 30
    """Share of the total due as deposit."""


class Room(Record):
    """A bookable room of a venue."""

    id: RoomId
    venue_id: VenueId
    """The venue."""
    name: Title
    """Room name."""
    seated_capacity: Guests
    """Guests seated."""
    rental_cents: Cents
    """Room rental per event."""


class Lead(Record):
    """An inbound event inquiry."""

    id: LeadId
    contact_name: PersonName
    """Who inquired."""
    contact_email: Email
    """Their e-mail."""
    contact_phone: Phone | None = None
    """Their phone."""
    company_name: CompanyName | None = None
    """Their company."""
    event_description: Title
    """What they plan."""
    event_date: Date
    """Preferred date."""
    guest_count: Guests
    """Expected guests."""
    venue_id: VenueId | None = None
    """Preferred venue."""
    status: LeadStatus = "new"
    """new, contacted, converted or lost."""
    lost_reason: Text = ""
    """Why it was lost."""
    created_at: Annotated[DateTime, CREATED]
    """When it came in."""


class BeoItem(Value):
    """A line of a banquet event order."""

    category: ItemCategory
    """food, beverage, av, rental or labor."""
    description: Title
    """What."""
    quantity: Annotated[int, Field(ge=1, le=100000)]
    """How many."""
    unit_price_cents: Cents
    """Price each."""


class Event(Record):
    """A booked event."""

    id: EventId
    name: Title
    """Event name."""
    venue_id: VenueId
    """The venue."""
    room_ids: tuple[RoomId, ...]
    """Rooms it uses."""
    starts_at: DateTime
    """Start."""
    ends_at: DateTime
    """End."""
    guest_count: Guests
    """Guests."""
    contact_name: PersonName
    """The client contact."""
    contact_email: Email
    """Their e-mail."""
    company_name: CompanyName | None = None
    """The client company."""
    owner_email: Email
    """The venue's event manager (an employee)."""
    lead_id: LeadId | None = None
    """The lead it came from."""
    status: EventStatus = "prospect"
    """prospect, tentative, definite, closed, lost or cancelled."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Beo(Record):
    """An event's banquet event order."""

    id: BeoId
    event_id: EventId
    """The event (one BEO each)."""
    version: int = 1
    """Raised on every change after approval."""
    items: tuple[BeoItem, ...] = ()
    """Items."""
    status: Literal["draft", "approved"] = "draft"
    """draft or approved."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Instalment(Record):
    """A payment due on an event's schedule."""

    id: InstalmentId
    event_id: EventId
    """The event."""
    kind: InstalmentKind
    """deposit or final."""
    amount_cents: Cents
    """Amount due."""
    due_on: Date
    """Due date."""
    status: InstalmentStatus = "due"
    """due, paid or void."""
    paid_at: DateTime | None = None
    """When it was paid."""


class Quote(Value):
    """An event's price."""

    event_id: EventId
    """The event."""
    room_rental_cents: int
    """Room rental."""
    items_cents: int
    """BEO items."""
    service_charge_cents: int
    """Service charge on items."""
    tax_cents: int
    """Tax on items and service charge."""
    total_cents: int
    """Total."""
    paid_cents: int
    """Paid so far."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not on the venue's sales team", field=field, hint="use an employee's e-mail")


def _clashes(ctx: Ctx, event: Event, statuses: tuple[str, ...]) -> list[Event]:
    rooms = set(event.room_ids)
    return [
        e
        for e in ctx.where(Event, venue_id=event.venue_id)
        if e.id != event.id
        and e.status in statuses
        and rooms & set(e.room_ids)
        and e.starts_at < event.ends_at
        and event.starts_at < e.ends_at
    ]


def _check_event(ctx: Ctx, new: Any, old: Any) -> None:
    if new.ends_at <= new.starts_at:
        raise RuleViolation("the event must end after it starts", field="ends_at", hint="pick a later end")
    if not new.room_ids or len(set(new.room_ids)) != len(new.room_ids):
        raise RuleViolation("list each room once", field="room_ids", hint="pick at least one room")
    seats = 0
    for rid in new.room_ids:
        room = ctx.get(Room, rid, field="room_ids")
        if room.venue_id != new.venue_id:
            raise RuleViolation(f"{room.name} is at another venue", field="room_ids", hint="pick rooms of the venue")
        seats += room.seated_capacity
    if new.guest_count > seats:
        raise RuleViolation(f"the rooms seat {seats}", field="guest_count", hint="add a room or cut the guest list")
    if new.status in HOLDING:
        blocking = _clashes(ctx, new, ("definite",) if new.status == "tentative" else HOLDING)
        if blocking:
            b = blocking[0]
            raise Conflict(
                f"{b.name} ({b.status}) holds the room then", field="room_ids", hint="pick other rooms or times"
            )


def _guard_event(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status in ("closed", "lost", "cancelled"):
        raise RuleViolation(f"the event is {old.status}", field="event_id", hint="it can no longer change")
    _check_event(ctx, new, old)
    if new.status == "definite" and old.status != "definite":
        deposit = ctx.first(Instalment, event_id=new.id, kind="deposit", status="paid")
        if deposit is None:
            raise RuleViolation("the deposit is not paid", field="event_id", hint="record the deposit payment first")


venues = service.resource(
    Venue,
    name="venue",
    plural="venues",
    prefix="ven",
    create=False,
    filters=("currency",),
    search=("name",),
    update=("service_charge_pct", "tax_pct", "deposit_pct"),
    delete=False,
)
rooms = service.resource(
    Room,
    name="room",
    plural="rooms",
    prefix="room",
    create=False,
    filters=("venue_id",),
    search=("name",),
    update=("rental_cents", "seated_capacity"),
    delete=False,
)
leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="lead",
    create=(
        "contact_name",
        "contact_email",
        "contact_phone",
        "company_name",
        "event_description",
        "event_date",
        "guest_count",
        "venue_id",
    ),
    filters=("status", "venue_id", "contact_email", "company_name"),
    search=("contact_name", "event_description"),
    update=("guest_count", "event_date", "venue_id"),
    delete=False,
    transitions={"contact": Transition("status", ("new",), "contacted", "mark the lead contacted")},
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("venue_id", "status", "owner_email", "contact_email", "lead_id"),
    search=("name", "company_name"),
    update=("name", "guest_count", "room_ids", "starts_at", "ends_at", "owner_email"),
    delete=False,
    transitions={
        "hold": Transition("status", ("prospect",), "tentative", "place a tentative hold on the event"),
        "confirm": Transition("status", ("tentative",), "definite", "confirm the event as definite"),
        "lose": Transition("status", ("prospect", "tentative"), "lost", "mark the event lost", destructive=True),
    },
    guard_update=_guard_event,
)
beos = service.resource(
    Beo,
    name="beo",
    plural="beos",
    prefix="beo",
    create=False,
    filters=("event_id", "status"),
    delete=False,
    title="banquet event order",
)
instalments = service.resource(
    Instalment,
    name="instalment",
    plural="instalments",
    prefix="pay",
    create=False,
    get=False,
    filters=("event_id", "status", "kind"),
    delete=False,
    title="payment schedule instalment",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_convert(ctx: Ctx) -> dict[str, Any] | None:
    for lead in ctx.scan(Lead):
        if lead.status in ("new", "contacted"):
            venue = ctx.get(Venue, lead.venue_id) if lead.venue_id else ctx.first(Venue)
            if venue is None:
                continue
            room = max(ctx.where(Room, venue_id=venue.id), key=lambda r: r.seated_capacity)
            start = dt.datetime.combine(lead.event_date, dt.time(23), tzinfo=dt.UTC) + dt.timedelta(days=400)
            return {
                "lead_id": lead.id,
                "venue_id": venue.id,
                "room_ids": [room.id],
                "starts_at": start.isoformat(),
                "ends_at": (start + dt.timedelta(hours=4)).isoformat(),
                "owner_email": ctx.population.employees[0].email,
            }
    return None


@service.tool(intent="convert the lead into an event", write=True, example=_example_convert)
def convert_lead(
    ctx: Ctx,
    lead_id: LeadId,
    venue_id: VenueId,
    room_ids: list[RoomId],
    starts_at: DateTime,
    ends_at: DateTime,
    owner_email: Email,
) -> Event:
    """Turn an open lead into a prospect event at a venue's rooms, owned by an event manager.

    Args:
        lead_id: A new or contacted lead.
        venue_id: The venue.
        room_ids: Rooms of the venue that seat the lead's guests.
        starts_at: Start.
        ends_at: End.
        owner_email: The event manager (an employee).
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status not in ("new", "contacted"):
        raise Conflict(f"lead {lead.id} is {lead.status}", field="lead_id", hint="only open leads convert")
    ctx.get(Venue, venue_id, field="venue_id")
    _staff(ctx, owner_email, "owner_email")
    event = ctx.create(
        Event,
        name=lead.event_description,
        venue_id=venue_id,
        room_ids=tuple(room_ids),
        starts_at=starts_at,
        ends_at=ends_at,
        guest_count=lead.guest_count,
        contact_name=lead.contact_name,
        contact_email=lead.contact_email,
        company_name=lead.company_name,
        owner_email=owner_email,
        lead_id=lead.id,
    )
    _check_event(ctx, event, None)
    ctx.update(lead, status="converted")
    return event


@service.tool(
    intent="mark the lead lost",
    write=True,
    example=first_example(Lead, "lead_id", where={"status": "new"}, reason="Chose another venue"),
)
def lose_lead(ctx: Ctx, lead_id: LeadId, reason: Text) -> Lead:
    """Mark an open lead lost, with the reason.

    Args:
        lead_id: A new or contacted lead.
        reason: Why (required).
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status not in ("new", "contacted"):
        raise Conflict(f"lead {lead.id} is {lead.status}", field="lead_id", hint="only open leads can be lost")
    if not reason.strip():
        raise RuleViolation("say why the lead was lost", field="reason", hint="give a reason")
    return ctx.update(lead, status="lost", lost_reason=reason.strip())


def _example_avail(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Event, status="definite")
    return (
        None
        if e is None
        else {"room_id": e.room_ids[0], "starts_at": e.starts_at.isoformat(), "ends_at": e.ends_at.isoformat()}
    )


@service.tool(intent="check the room's availability", example=_example_avail)
def room_availability(ctx: Ctx, room_id: RoomId, starts_at: DateTime, ends_at: DateTime) -> list[Event]:
    """Tentative and definite events that hold a room in a time window (empty: the room is free).

    Args:
        room_id: The room.
        starts_at: Window start.
        ends_at: Window end.
    """
    room = ctx.get(Room, room_id, field="room_id")
    if ends_at <= starts_at:
        raise RuleViolation("the window must end after it starts", field="ends_at", hint="pick a later end")
    return [
        e
        for e in ctx.where(Event, venue_id=room.venue_id)
        if e.status in HOLDING and room.id in e.room_ids and e.starts_at < ends_at and starts_at < e.ends_at
    ]


def _open_event(ctx: Ctx, event_id: str) -> Event:
    e = ctx.get(Event, event_id, field="event_id")
    if e.status not in ("prospect", "tentative", "definite"):
        raise RuleViolation(f"the event is {e.status}", field="event_id", hint="only open events change")
    return e


@service.tool(
    intent="add the item to the banquet event order",
    write=True,
    example=first_example(
        Event,
        "event_id",
        where={"status": "tentative"},
        category="food",
        description="Plated dinner, three courses",
        quantity=80,
        unit_price_cents=6500,
    ),
)
def add_beo_item(
    ctx: Ctx,
    event_id: EventId,
    category: ItemCategory,
    description: Title,
    quantity: Annotated[int, Field(ge=1, le=100000)],
    unit_price_cents: Cents,
) -> Beo:
    """Add an item to an open event's BEO (created on first use); an approved BEO becomes a new draft version.

    Args:
        event_id: A prospect, tentative or definite event.
        category: food, beverage, av, rental or labor.
        description: What.
        quantity: How many.
        unit_price_cents: Price each.
    """
    e = _open_event(ctx, event_id)
    item = BeoItem(category=category, description=description, quantity=quantity, unit_price_cents=unit_price_cents)
    beo = ctx.first(Beo, event_id=e.id)
    if beo is None:
        return ctx.create(Beo, event_id=e.id, items=(item,))
    version = beo.version + 1 if beo.status == "approved" else beo.version
    return ctx.update(beo, items=(*beo.items, item), status="draft", version=version)


@service.tool(
    intent="approve the banquet event order",
    write=True,
    example=first_example(Beo, "beo_id", where={"status": "draft"}),
)
def approve_beo(ctx: Ctx, beo_id: BeoId) -> Beo:
    """Approve a draft BEO with at least one item, for an open event.

    Args:
        beo_id: The BEO.
    """
    beo = ctx.get(Beo, beo_id, field="beo_id")
    _open_event(ctx, beo.event_id)
    if beo.status == "approved":
        raise Conflict(f"version {beo.version} is already approved", field="beo_id", hint="nothing to do")
    if not beo.items:
        raise RuleViolation("the BEO has no items", field="beo_id", hint="add items first")
    return ctx.update(beo, status="approved")


def _quote(ctx: Ctx, e: Event) -> Quote:
    venue = ctx.get(Venue, e.venue_id)
    rental = sum(ctx.get(Room, r).rental_cents for r in e.room_ids)
    beo = ctx.first(Beo, event_id=e.id)
    items = sum(i.quantity * i.unit_price_cents for i in beo.items) if beo else 0
    service_charge = round(items * venue.service_charge_pct / 100)
    tax = round((items + service_charge) * venue.tax_pct / 100)
    paid = sum(i.amount_cents for i in ctx.where(Instalment, event_id=e.id, status="paid"))
    return Quote(
        event_id=e.id,
        room_rental_cents=rental,
        items_cents=items,
        service_charge_cents=service_charge,
        tax_cents=tax,
        total_cents=rental + items + service_charge + tax,
        paid_cents=paid,
    )


@service.tool(intent="price the event", example=first_example(Event, "event_id"))
def event_quote(ctx: Ctx, event_id: EventId) -> Quote:
    """The event's total: room rental, BEO items, service charge and tax, and what is paid.

    Args:
        event_id: The event.
    """
    return _quote(ctx, ctx.get(Event, event_id, field="event_id"))


@service.tool(
    intent="build the payment schedule",
    write=True,
    example=first_example(
        Event,
        "event_id",
        where={"status": "tentative"},
        match=lambda c, e: c.first(Instalment, event_id=e.id, status="paid") is None,
    ),
)
def build_payment_schedule(ctx: Ctx, event_id: EventId) -> list[Instalment]:
    """Split a tentative event's total into a deposit due today and a final payment due 7 days before it.

    Args:
        event_id: A tentative event with nothing paid yet.
    """
    e = ctx.get(Event, event_id, field="event_id")
    if e.status != "tentative":
        raise RuleViolation(f"the event is {e.status}", field="event_id", hint="place a tentative hold first")
    if ctx.first(Instalment, event_id=e.id, status="paid") is not None:
        raise Conflict("payments were already taken", field="event_id", hint="keep the current schedule")
    for old in ctx.where(Instalment, event_id=e.id, status="due"):
        ctx.update(old, status="void")
    total = _quote(ctx, e).total_cents
    deposit = round(total * ctx.get(Venue, e.venue_id).deposit_pct / 100)
    final_due = max(ctx.today(), (e.starts_at - FINAL_DUE).date())
    return [
        ctx.create(Instalment, event_id=e.id, kind="deposit", amount_cents=deposit, due_on=ctx.today()),
        ctx.create(Instalment, event_id=e.id, kind="final", amount_cents=total - deposit, due_on=final_due),
    ]


@service.tool(
    intent="record the event payment",
    write=True,
    example=first_example(
        Instalment, "instalment_id", where={"status": "due", "kind": "deposit"}, fields={"amount_cents": "amount_cents"}
    ),
)
def record_payment(ctx: Ctx, instalment_id: InstalmentId, amount_cents: Cents) -> Instalment:
    """Record payment of a due instalment, in its exact amount; the deposit comes before the final payment.

    Args:
        instalment_id: A due instalment of an open event.
        amount_cents: The amount paid (must equal the instalment).
    """
    inst = ctx.get(Instalment, instalment_id, field="instalment_id")
    if inst.status != "due":
        raise Conflict(f"instalment {inst.id} is {inst.status}", field="instalment_id", hint="nothing is due on it")
    _open_event(ctx, inst.event_id)
    if amount_cents != inst.amount_cents:
        raise RuleViolation(f"{inst.amount_cents} is due", field="amount_cents", hint="pay the instalment in full")
    if inst.kind == "final" and ctx.first(Instalment, event_id=inst.event_id, kind="deposit", status="due"):
        raise RuleViolation("the deposit is still due", field="instalment_id", hint="pay the deposit first")
    return ctx.update(inst, status="paid", paid_at=ctx.now())


@service.tool(
    intent="cancel the definite event",
    write=True,
    destructive=True,
    example=first_example(Event, "event_id", where={"status": "definite"}),
)
def cancel_event(ctx: Ctx, event_id: EventId) -> Event:
    """Cancel a definite event before it starts: paid instalments are forfeited, due ones voided.

    Args:
        event_id: A definite event.
    """
    e = ctx.get(Event, event_id, field="event_id")
    if e.status != "definite":
        raise RuleViolation(f"the event is {e.status}", field="event_id", hint="mark prospects and holds lost")
    if e.starts_at <= ctx.now():
        raise RuleViolation("the event has started", field="event_id", hint="close it after it ends")
    for inst in ctx.where(Instalment, event_id=e.id, status="due"):
        ctx.update(inst, status="void")
    return ctx.update(e, status="cancelled")


@service.tool(
    intent="close out the event",
    write=True,
    example=first_example(Event, "event_id", where={"status": "definite"}, match=lambda c, e: e.ends_at <= c.now()),
)
def close_event(ctx: Ctx, event_id: EventId) -> Event:
    """Close a definite event after it has ended, once it is paid in full.

    Args:
        event_id: A definite event that has ended.
    """
    e = ctx.get(Event, event_id, field="event_id")
    if e.status != "definite" or e.ends_at > ctx.now():
        raise RuleViolation(
            f"the event is {e.status}, ending {e.ends_at}",
            field="event_id",
            hint="close definite events after they end",
        )
    q = _quote(ctx, e)
    if q.paid_cents < q.total_cents:
        raise RuleViolation(f"{q.total_cents - q.paid_cents} is still owed", field="event_id", hint="collect it first")
    return ctx.update(e, status="closed")


# -- seed -------------------------------------------------------------------------------------

ROOMS: tuple[tuple[str, int, int], ...] = (
    ("Grand Ballroom", 300, 500000),
    ("Terrace", 80, 150000),
    ("Library", 24, 60000),
    ("Boardroom", 14, 40000),
)
MENU: tuple[tuple[ItemCategory, str, int], ...] = (
    ("food", "Plated dinner, three courses", 7200),
    ("beverage", "Hosted bar, four hours", 3800),
    ("av", "Projector and screen package", 45000),
    ("rental", "Dance floor", 60000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two venues with rooms, leads from customers and consumers, events in every status with BEOs and payments."""
    pop = s.population
    team = pop.staff("Sales", fallback=3)
    places = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:1]]
    for k, place in enumerate(places):
        v = s.create(
            Venue,
            name=f"Hallmark {place.city}",
            address=local_address(s.rng, place, "Park Avenue", 400),
            phone=local_phone(s.rng, place),
            timezone=place.timezone,
            currency=place.currency,
            deposit_pct=30 if k == 0 else 50,
        )
        for name, seats, rent in ROOMS:
            s.create(Room, venue_id=v.id, name=name, seated_capacity=seats, rental_cents=rent)
    venue_ids = [v.id for v in s.records(Venue)]
    people = [(c, pop.first_contact(c)) for c in pop.customers[:8]]
    for k, (co, who) in enumerate(people):
        if who is None:
            continue
        s.create(
            Lead,
            contact_name=who.name,
            contact_email=who.email,
            contact_phone=who.phone,
            company_name=co.name,
            event_description=("Annual gala", "Product launch", "Board dinner", "Holiday party")[k % 4],
            event_date=(s.now + dt.timedelta(days=40 + 9 * k)).date(),
            guest_count=(120, 60, 12, 70)[k % 4],
            venue_id=venue_ids[k % 2],
            status=("new", "contacted", "converted", "lost")[k % 4],
            lost_reason="Budget cut" if k % 4 == 3 else "",
            created_at=s.ago(days=30 - k),
        )
    _seed_events(s, team)


def _seed_events(s: SeedContext, team: list[Any]) -> None:
    """Events: a closed one last month, a definite one that just ended, definite, tentative, prospect and lost."""
    rooms = s.records(Room)
    venue = s.records(Venue)[0]
    ballroom, terrace, library = rooms[0], rooms[1], rooms[2]
    day = s.now.replace(hour=18, minute=0, second=0, microsecond=0)
    plan: tuple[tuple[str, Room, dt.datetime, int, EventStatus], ...] = (
        ("Spring awards dinner", ballroom, day - dt.timedelta(days=30), 180, "closed"),
        ("Client appreciation lunch", terrace, day - dt.timedelta(days=1, hours=6), 50, "definite"),
        ("Summer gala", ballroom, day + dt.timedelta(days=45), 220, "definite"),
        ("Sales kickoff dinner", terrace, day + dt.timedelta(days=20), 70, "tentative"),
        ("Partner summit", ballroom, day + dt.timedelta(days=60), 150, "tentative"),
        ("Investor breakfast", library, day + dt.timedelta(days=12), 20, "prospect"),
        ("Product preview", library, day + dt.timedelta(days=5), 18, "lost"),
    )
    customers = s.population.customers
    for k, (name, room, start, guests, status) in enumerate(plan):
        co = customers[(k + 3) % len(customers)]
        who = s.population.first_contact(co) or team[0]
        e = s.create(
            Event,
            name=name,
            venue_id=venue.id,
            room_ids=(room.id,),
            starts_at=start,
            ends_at=start + dt.timedelta(hours=4),
            guest_count=guests,
            contact_name=who.name,
            contact_email=who.email,
            company_name=co.name,
            owner_email=team[k % len(team)].email,
            status=status,
            updated_at=s.ago(days=3),
        )
        if status == "prospect":
            continue
        items = tuple(
            BeoItem(category=c, description=d, quantity=guests if c in ("food", "beverage") else 1, unit_price_cents=p)
            for c, d, p in MENU[: 2 + k % 3]
        )
        s.create(
            Beo,
            event_id=e.id,
            items=items,
            status="approved" if status != "tentative" else "draft",
            updated_at=s.ago(days=5),
        )
        if status == "lost":
            continue
        sub = sum(i.quantity * i.unit_price_cents for i in items)
        charge = round(sub * venue.service_charge_pct / 100)
        total = room.rental_cents + sub + charge + round((sub + charge) * venue.tax_pct / 100)
        deposit = round(total * venue.deposit_pct / 100)
        paid_final = status == "closed" or k == 1
        for kind, amount, due, paid in (
            ("deposit", deposit, (start - dt.timedelta(days=60)).date(), status != "tentative" or k == 4),
            ("final", total - deposit, (start - FINAL_DUE).date(), paid_final),
        ):
            s.create(
                Instalment,
                event_id=e.id,
                kind=kind,
                amount_cents=amount,
                due_on=due,
                status="paid" if paid else "due",
                paid_at=s.ago(days=2) if paid else None,
            )
