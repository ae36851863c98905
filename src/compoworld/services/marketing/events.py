"""Gatherly Events: venues, events, ticket classes with capacity and sales windows, orders, attendees and check-in.

Modeled on the Eventbrite API v3 (Venues, Events with publish and cancel,
Ticket Classes, Capacity, Orders, Attendees with check-in, refund policies):
an event fits its venue, is published only with at least one ticket class, a
future start and ticket quantities within its capacity; tickets sell only
while the event is live and inside each ticket class's sales window, never
more than a class has left or its per-order limit; paid tickets carry a
service fee; an order is refunded only as the event's refund policy allows
and its tickets go back on sale; cancelling an event refunds every order;
attendees check in once, from two hours before the start until the end, and
a ticket can be passed to someone else only until its holder has checked in.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    DateTime,
    Email,
    IdOf,
    MeetingLink,
    OrderNumber,
    PersonName,
    PostalAddress,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "events",
    title="Gatherly Events",
    category="events_ticketing",
    modeled_on="Eventbrite API v3 (Venues, Events with publish and cancel, Ticket Classes, Capacity, Orders, "
    "Attendees and check-in, refund policies)",
    description="Event ticketing: venues and their capacity, events and their publication, ticket classes with "
    "prices, quantities and sales windows, ticket orders with service fees, refunds under the event's policy, "
    "attendees, ticket transfers and door check-in.",
)

VenueId = Annotated[str, IdOf("events.venue")]
EventId = Annotated[str, IdOf("events.event")]
TicketClassId = Annotated[str, IdOf("events.ticket_class")]
OrderId = Annotated[str, IdOf("events.order")]
AttendeeId = Annotated[str, IdOf("events.attendee")]
Capacity = Annotated[int, Field(ge=1, le=100_000)]
PositiveQuantity = Annotated[Quantity, Field(ge=1, le=100)]
EventStatus = Literal["draft", "live", "ended", "canceled"]
RefundPolicy = Literal["no_refunds", "until_1_day", "until_7_days", "until_30_days"]
REFUND_DAYS: dict[str, int] = {"until_1_day": 1, "until_7_days": 7, "until_30_days": 30}
CHECK_IN_OPENS = dt.timedelta(hours=2)
FEE_PERCENT = 3.5
FEE_FIXED = 99


class Venue(Record):
    """A place events are held."""

    id: VenueId
    name: CompanyName
    """Venue name."""
    address: PostalAddress
    """Address."""
    capacity: Capacity
    """Most people it holds."""


class Event(Timestamped):
    """An event with its schedule, capacity and refund policy."""

    id: EventId
    name: Title
    """Event name."""
    description: Text = ""
    """What it is about."""
    organizer: CompanyName
    """The organizing company."""
    organizer_email: Email
    """Contact for attendees."""
    venue_id: VenueId
    """Where it is held."""
    start: DateTime
    """When it starts."""
    end: DateTime
    """When it ends."""
    currency: Currency
    """Currency of the ticket prices."""
    capacity: Capacity
    """Most tickets sold over all classes; at most the venue's capacity."""
    refund_policy: RefundPolicy = "until_7_days"
    """no_refunds, or refunds until 1, 7 or 30 days before the start."""
    online_url: MeetingLink | None = None
    """Stream link for hybrid events."""
    status: EventStatus = "draft"
    """draft, live (on sale), ended or canceled."""


class TicketClass(Record):
    """A kind of ticket for an event: its price, quantity and sales window."""

    id: TicketClassId
    event_id: EventId
    """The event."""
    name: Title
    """Ticket name."""
    price: Cents
    """Price, in cents; 0 for free tickets."""
    quantity_total: Capacity
    """Tickets available in the class."""
    quantity_sold: Quantity = 0
    """Tickets sold (refunds give them back)."""
    sales_start: DateTime
    """When sales open."""
    sales_end: DateTime
    """When sales close; at the latest the event's end."""
    max_per_order: Annotated[int, Field(ge=1, le=100)] = 10
    """Most tickets of the class in one order."""


class OrderLine(Value):
    """Tickets of one class on an order."""

    ticket_class_id: TicketClassId = Field(description="The ticket class.")
    name: Title = Field(description="Its name.")
    quantity: PositiveQuantity = Field(description="Tickets.")
    unit_price: Cents = Field(description="Price of one, in cents.")
    unit_fee: Cents = Field(description="Service fee per ticket, in cents.")


class TicketRequest(Value):
    """How many tickets of a class to buy."""

    ticket_class_id: TicketClassId = Field(description="The ticket class.")
    quantity: PositiveQuantity = Field(description="Tickets.")


class Order(Record):
    """A ticket purchase."""

    id: OrderId
    order_number: Annotated[OrderNumber, Generated("sequence", "GE-{n:07d}")]
    """Order number on the tickets."""
    event_id: EventId
    """The event."""
    buyer_name: PersonName
    """Who bought."""
    buyer_email: Email
    """Where the tickets went."""
    lines: tuple[OrderLine, ...]
    """What was bought."""
    subtotal: Cents
    """Ticket prices, in cents."""
    fees: Cents
    """Service fees: 3.5% plus 0.99 per paid ticket, in cents."""
    total: Cents
    """Subtotal plus fees, in cents."""
    currency: Currency
    """Currency."""
    status: Literal["placed", "refunded"] = "placed"
    """placed or refunded."""
    refunded_amount: Cents = 0
    """Given back, in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When it was placed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Attendee(Record):
    """One ticket and the person holding it."""

    id: AttendeeId
    order_id: OrderId
    """The order."""
    event_id: EventId
    """The event."""
    ticket_class_id: TicketClassId
    """The ticket class."""
    name: PersonName
    """Ticket holder."""
    email: Email
    """Holder's e-mail."""
    barcode: Annotated[str, Field(pattern=r"^[0-9]{12}$")]
    """Barcode scanned at the door."""
    status: Literal["attending", "refunded"] = "attending"
    """attending or refunded."""
    checked_in: bool = False
    """Whether they came in."""
    checked_in_at: DateTime | None = None
    """When they were scanned."""


# -- rules -------------------------------------------------------------------------------------


def _fee(price: int) -> int:
    return 0 if price == 0 else round(price * FEE_PERCENT / 100) + FEE_FIXED


def _classes_total(ctx: Ctx, event_id: str, skip: str | None = None) -> int:
    return sum(t.quantity_total for t in ctx.where(TicketClass, event_id=event_id) if t.id != skip)


def _sold(ctx: Ctx, event_id: str) -> int:
    return sum(t.quantity_sold for t in ctx.where(TicketClass, event_id=event_id))


def _guard_event(ctx: Ctx, new: Any, old: Any) -> None:
    venue = ctx.get(Venue, new.venue_id, field="venue_id")
    if old is not None and old.status in ("ended", "canceled"):
        raise RuleViolation(f"event {old.name} is {old.status}", field="event_id", hint="it can no longer change")
    if new.end <= new.start:
        raise RuleViolation("the event must end after it starts", field="end", hint="give a later end")
    if new.capacity > venue.capacity:
        raise RuleViolation(
            f"{venue.name} holds {venue.capacity}", field="capacity", hint=f"set a capacity of at most {venue.capacity}"
        )
    if (old is None or new.start != old.start) and new.start <= ctx.now():
        raise RuleViolation("the event must start in the future", field="start", hint="give a later start")
    if old is not None:
        sold = _sold(ctx, new.id)
        if new.capacity < sold:
            raise RuleViolation(
                f"{sold} tickets are sold already", field="capacity", hint=f"keep the capacity at {sold} or more"
            )
        if old.status == "draft" and new.status == "live":
            classes = ctx.where(TicketClass, event_id=new.id)
            if not classes:
                raise RuleViolation(
                    f"event {new.name} has no tickets",
                    field="event_id",
                    hint="add a ticket class with events__create_ticket_class first",
                )
            if new.start <= ctx.now():
                raise RuleViolation(
                    f"event {new.name} has already started", field="event_id", hint="move its start to the future"
                )


def _guard_ticket_class(ctx: Ctx, new: Any, old: Any) -> None:
    ev = ctx.get(Event, new.event_id, field="event_id")
    if ev.status in ("ended", "canceled"):
        raise RuleViolation(f"event {ev.name} is {ev.status}", field="event_id", hint="tickets cannot change now")
    if new.sales_end <= new.sales_start:
        raise RuleViolation("sales must close after they open", field="sales_end", hint="give a later sales_end")
    if new.sales_end > ev.end:
        raise RuleViolation(
            "sales cannot run past the event's end", field="sales_end", hint=f"close sales by {ev.end.isoformat()}"
        )
    if new.quantity_total < new.quantity_sold:
        raise RuleViolation(
            f"{new.quantity_sold} tickets are sold already",
            field="quantity_total",
            hint=f"keep at least {new.quantity_sold}",
        )
    total = _classes_total(ctx, ev.id, skip=new.id) + new.quantity_total
    if total > ev.capacity:
        raise RuleViolation(
            f"the ticket classes would offer {total} tickets; the event holds {ev.capacity}",
            field="quantity_total",
            hint="lower the quantity or raise the event's capacity",
        )
    if old is not None and old.price != new.price and new.quantity_sold:
        raise RuleViolation(
            "the price of a class with sold tickets cannot change",
            field="price",
            hint="add a new ticket class at the new price",
        )


venues = service.resource(
    Venue,
    name="venue",
    plural="venues",
    prefix="ven",
    filters=(),
    search=("name",),
    update=("name", "capacity"),
    delete=False,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("status", "venue_id", "organizer", "organizer_email"),
    search=("name", "description", "organizer"),
    update=("name", "description", "start", "end", "capacity", "refund_policy", "online_url"),
    delete=False,
    transitions={
        "publish": Transition(
            "status",
            ("draft",),
            "live",
            "put the event on sale",
            description="Publish a draft event: it goes live and its tickets can be bought. It needs at least one "
            "ticket class and a start in the future.",
        )
    },
    guard_update=_guard_event,
)
ticket_classes = service.resource(
    TicketClass,
    name="ticket_class",
    plural="ticket_classes",
    prefix="tc",
    create=("event_id", "name", "price", "quantity_total", "sales_start", "sales_end", "max_per_order"),
    get=False,
    filters=("event_id",),
    search=("name",),
    update=("name", "price", "quantity_total", "sales_start", "sales_end", "max_per_order"),
    delete=False,
    guard_create=_guard_ticket_class,
    guard_update=_guard_ticket_class,
    title="ticket class",
)
orders = service.resource(
    Order,
    name="order",
    plural="orders",
    prefix="ord",
    create=False,
    filters=("event_id", "buyer_email", "status", "order_number"),
    search=("buyer_name", "order_number"),
    delete=False,
    title="ticket order",
)
attendees = service.resource(
    Attendee,
    name="attendee",
    plural="attendees",
    prefix="att",
    create=False,
    filters=("event_id", "order_id", "email", "barcode", "checked_in", "status"),
    search=("name", "email"),
    delete=False,
)


# -- examples ----------------------------------------------------------------------------------


def _on_sale(ctx: Ctx) -> TicketClass | None:
    now = ctx.now()
    for ev in ctx.where(Event, status="live"):
        for tc in ctx.where(TicketClass, event_id=ev.id):
            if tc.sales_start <= now <= tc.sales_end and tc.quantity_total - tc.quantity_sold >= 1:
                return tc
    return None


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    tc = _on_sale(ctx)
    if tc is None:
        return None
    p = ctx.population.consumers[-2]
    return {
        "event_id": tc.event_id,
        "buyer_name": p.name,
        "buyer_email": p.email,
        "tickets": [{"ticket_class_id": tc.id, "quantity": 1}],
    }


def _example_refund(ctx: Ctx) -> dict[str, Any] | None:
    for o in ctx.where(Order, status="placed"):
        ev = ctx.get(Event, o.event_id)
        days = REFUND_DAYS.get(ev.refund_policy)
        if ev.status == "live" and days is not None and ctx.now() <= ev.start - dt.timedelta(days=days):
            return {"order_id": o.id}
    return None


def _example_cancel(ctx: Ctx) -> dict[str, Any] | None:
    ev = ctx.first(Event, status="live") or ctx.first(Event, status="draft")
    return None if ev is None else {"event_id": ev.id}


def _example_check_in(ctx: Ctx) -> dict[str, Any] | None:
    now = ctx.now()
    for ev in ctx.where(Event, status="live"):
        if ev.start - CHECK_IN_OPENS <= now <= ev.end:
            a = ctx.first(Attendee, event_id=ev.id, status="attending", checked_in=False)
            if a is not None:
                return {"attendee_id": a.id}
    return None


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    a = ctx.first(Attendee, status="attending", checked_in=False)
    p = ctx.population.consumers[-3]
    return None if a is None else {"attendee_id": a.id, "name": p.name, "email": p.email}


# -- domain tools ------------------------------------------------------------------------------


def _example_create_event(ctx: Ctx) -> dict[str, Any] | None:
    venue = ctx.first(Venue)
    if venue is None:
        return None
    start = (ctx.now() + dt.timedelta(days=14)).replace(hour=18, minute=0)
    return {
        "name": "Autumn Product Briefing",
        "organizer": ctx.population.home.name,
        "organizer_email": ctx.population.employees[0].email,
        "venue_id": venue.id,
        "start": start.isoformat(),
        "end": (start + dt.timedelta(hours=3)).isoformat(),
        "currency": ctx.population.home.place.currency,
        "capacity": min(venue.capacity, 100),
    }


@service.tool(intent="create an event", write=True, example=_example_create_event)
def create_event(
    ctx: Ctx,
    name: Title,
    organizer: CompanyName,
    organizer_email: Email,
    venue_id: VenueId,
    start: DateTime,
    end: DateTime,
    currency: Currency,
    capacity: Capacity,
    description: Text = "",
    refund_policy: RefundPolicy = "until_7_days",
    online_url: MeetingLink | None = None,
) -> Event:
    """Create a draft event at a venue; it starts in the future, ends after it starts and fits the venue.

    Add ticket classes, then publish it with events__publish_event.

    Args:
        name: Event name.
        organizer: The organizing company.
        organizer_email: Contact for attendees.
        venue_id: The venue.
        start: When it starts.
        end: When it ends.
        currency: Currency of the ticket prices.
        capacity: Most tickets sold; at most the venue's capacity.
        description: What it is about.
        refund_policy: no_refunds, or refunds until 1, 7 or 30 days before the start.
        online_url: Stream link for hybrid events.
    """
    ctx.get(Venue, venue_id, field="venue_id")
    ev = ctx.create(
        Event,
        name=name,
        description=description,
        organizer=organizer,
        organizer_email=organizer_email,
        venue_id=venue_id,
        start=start,
        end=end,
        currency=currency,
        capacity=capacity,
        refund_policy=refund_policy,
        online_url=online_url,
    )
    _guard_event(ctx, ev, None)
    return ev


@service.tool(intent="buy tickets for the event", write=True, example=_example_order)
def place_order(
    ctx: Ctx,
    event_id: EventId,
    buyer_name: PersonName,
    buyer_email: Email,
    tickets: Annotated[list[TicketRequest], Field(min_length=1, max_length=10)],
) -> Order:
    """Buy tickets for a live event; one attendee (the buyer) per ticket, each with a barcode.

    Each class must belong to the event and be inside its sales window; no
    class sells more than it has left or than its per-order limit. Paid
    tickets carry a 3.5% + 0.99 service fee.

    Args:
        event_id: The live event.
        buyer_name: Who buys.
        buyer_email: Where the tickets go.
        tickets: Ticket classes and quantities.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    if ev.status != "live":
        raise RuleViolation(
            f"event {ev.name} is {ev.status}, not on sale",
            field="event_id",
            hint="tickets are sold for live events only (events__publish_event)",
        )
    now = ctx.now()
    wanted: dict[str, tuple[int, int]] = {}
    for i, t in enumerate(tickets):
        first, qty = wanted.get(t.ticket_class_id, (i, 0))
        wanted[t.ticket_class_id] = (first, qty + t.quantity)
    lines: list[OrderLine] = []
    for tcid, (i, qty) in wanted.items():
        tc = ctx.get(TicketClass, tcid, field=f"tickets.{i}.ticket_class_id")
        if tc.event_id != ev.id:
            raise RuleViolation(
                f"ticket class {tc.name} is for another event",
                field=f"tickets.{i}.ticket_class_id",
                hint="pick the event's ticket classes (events__list_ticket_classes)",
            )
        if not tc.sales_start <= now <= tc.sales_end:
            when = "have not opened" if now < tc.sales_start else "have closed"
            raise RuleViolation(
                f"sales of {tc.name} {when} (open {tc.sales_start.isoformat()} to {tc.sales_end.isoformat()})",
                field=f"tickets.{i}.ticket_class_id",
                hint="pick a ticket class on sale now",
            )
        if qty > tc.max_per_order:
            raise RuleViolation(
                f"at most {tc.max_per_order} {tc.name} tickets per order",
                field=f"tickets.{i}.quantity",
                hint=f"buy at most {tc.max_per_order}",
            )
        left = tc.quantity_total - tc.quantity_sold
        if qty > left:
            raise RuleViolation(
                f"only {left} {tc.name} tickets are left",
                field=f"tickets.{i}.quantity",
                hint=f"buy at most {left}, or another ticket class",
            )
        ctx.update(tc, quantity_sold=tc.quantity_sold + qty)
        lines.append(
            OrderLine(ticket_class_id=tc.id, name=tc.name, quantity=qty, unit_price=tc.price, unit_fee=_fee(tc.price))
        )
    subtotal = sum(line.unit_price * line.quantity for line in lines)
    fees = sum(line.unit_fee * line.quantity for line in lines)
    order = ctx.create(
        Order,
        event_id=ev.id,
        buyer_name=buyer_name,
        buyer_email=buyer_email,
        lines=tuple(lines),
        subtotal=subtotal,
        fees=fees,
        total=subtotal + fees,
        currency=ev.currency,
    )
    for line in lines:
        for _ in range(line.quantity):
            n = ctx.next_number(Attendee, "barcode")
            ctx.create(
                Attendee,
                order_id=order.id,
                event_id=ev.id,
                ticket_class_id=line.ticket_class_id,
                name=buyer_name,
                email=buyer_email,
                barcode=f"{900000000000 + n:012d}",
            )
    return order


def _refund(ctx: Ctx, order: Order) -> Order:
    for a in ctx.where(Attendee, order_id=order.id):
        ctx.update(a, status="refunded")
    for line in order.lines:
        tc = ctx.get(TicketClass, line.ticket_class_id)
        ctx.update(tc, quantity_sold=max(0, tc.quantity_sold - line.quantity))
    return ctx.update(order, status="refunded", refunded_amount=order.total)


@service.tool(intent="refund the ticket order", write=True, example=_example_refund)
def refund_order(ctx: Ctx, order_id: OrderId) -> Order:
    """Refund a whole order as the event's refund policy allows; its tickets go back on sale.

    Args:
        order_id: The placed order.
    """
    o = ctx.get(Order, order_id, field="order_id")
    if o.status == "refunded":
        raise Conflict(f"order {o.order_number} is already refunded", field="order_id", hint="nothing to do")
    ev = ctx.get(Event, o.event_id)
    if any(a.checked_in for a in ctx.where(Attendee, order_id=o.id)):
        raise RuleViolation(
            f"a ticket of order {o.order_number} was used at the door", field="order_id", hint="used tickets are final"
        )
    days = REFUND_DAYS.get(ev.refund_policy)
    if days is None:
        raise RuleViolation(
            f"event {ev.name} does not refund tickets",
            field="order_id",
            hint="the ticket can be passed to someone else with events__transfer_ticket",
        )
    deadline = ev.start - dt.timedelta(days=days)
    if ctx.now() > deadline:
        raise RuleViolation(
            f"refunds for {ev.name} closed at {deadline.isoformat()}",
            field="order_id",
            hint="the ticket can be passed to someone else with events__transfer_ticket",
        )
    return _refund(ctx, o)


@service.tool(intent="cancel the event and refund everyone", write=True, destructive=True, example=_example_cancel)
def cancel_event(ctx: Ctx, event_id: EventId) -> Event:
    """Cancel a draft or live event; every placed order is refunded in full.

    Args:
        event_id: The event.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    if ev.status not in ("draft", "live"):
        raise RuleViolation(
            f"event {ev.name} is {ev.status}", field="event_id", hint="only upcoming events are canceled"
        )
    if ev.start <= ctx.now():
        raise RuleViolation(
            f"event {ev.name} has started", field="event_id", hint="an event under way cannot be canceled"
        )
    for o in ctx.where(Order, event_id=ev.id, status="placed"):
        _refund(ctx, o)
    return ctx.update(ev, status="canceled")


@service.tool(intent="check the attendee in at the door", write=True, example=_example_check_in)
def check_in_attendee(ctx: Ctx, attendee_id: AttendeeId) -> Attendee:
    """Scan an attendee in, from two hours before the event starts until it ends; once per ticket.

    Args:
        attendee_id: The attendee.
    """
    a = ctx.get(Attendee, attendee_id, field="attendee_id")
    if a.status != "attending":
        raise RuleViolation(
            f"the ticket of {a.name} was {a.status}", field="attendee_id", hint="refunded tickets are not valid"
        )
    if a.checked_in:
        raise Conflict(
            f"{a.name} was already checked in at {a.checked_in_at.isoformat() if a.checked_in_at else '?'}",
            field="attendee_id",
            hint="each ticket is scanned once",
        )
    ev = ctx.get(Event, a.event_id)
    now = ctx.now()
    if ev.status != "live" or not ev.start - CHECK_IN_OPENS <= now <= ev.end:
        raise RuleViolation(
            f"check-in for {ev.name} is not open",
            field="attendee_id",
            hint="doors open two hours before the start and close at the end",
        )
    return ctx.update(a, checked_in=True, checked_in_at=now)


@service.tool(intent="pass the ticket to someone else", write=True, example=_example_transfer)
def transfer_ticket(ctx: Ctx, attendee_id: AttendeeId, name: PersonName, email: Email) -> Attendee:
    """Put a ticket in someone else's name, until it is used.

    Args:
        attendee_id: The ticket's attendee record.
        name: The new holder.
        email: The new holder's e-mail.
    """
    a = ctx.get(Attendee, attendee_id, field="attendee_id")
    if a.status != "attending":
        raise RuleViolation(f"the ticket was {a.status}", field="attendee_id", hint="refunded tickets are not valid")
    if a.checked_in:
        raise RuleViolation("the ticket was already used", field="attendee_id", hint="used tickets cannot be passed on")
    ev = ctx.get(Event, a.event_id)
    if ev.status != "live":
        raise RuleViolation(
            f"event {ev.name} is {ev.status}", field="attendee_id", hint="tickets of past events are final"
        )
    return ctx.update(a, name=name, email=email)


class ClassSales(BaseModel):
    """One ticket class's sales."""

    ticket_class_id: TicketClassId = Field(description="The ticket class.")
    name: Title = Field(description="Its name.")
    sold: int = Field(description="Tickets sold.")
    remaining: int = Field(description="Tickets left.")
    gross: Cents = Field(description="Price times sold, in cents.")


class SalesSummary(BaseModel):
    """An event's ticket sales and attendance."""

    event_id: EventId = Field(description="The event.")
    name: Title = Field(description="Its name.")
    currency: Currency = Field(description="Currency.")
    capacity: int = Field(description="Event capacity.")
    classes: list[ClassSales] = Field(description="Per ticket class.")
    tickets_sold: int = Field(description="Tickets sold over all classes.")
    gross: Cents = Field(description="Ticket revenue of placed orders, in cents.")
    fees: Cents = Field(description="Service fees of placed orders, in cents.")
    refunded: Cents = Field(description="Refunded, in cents.")
    checked_in: int = Field(description="Attendees scanned in.")


@service.tool(
    intent="see the event's ticket sales",
    example=first_example(Event, "event_id", where={"status": "live"}),
)
def event_sales_summary(ctx: Ctx, event_id: EventId) -> SalesSummary:
    """Sum an event's ticket sales per class, its revenue, refunds and check-ins.

    Args:
        event_id: The event.
    """
    ev = ctx.get(Event, event_id, field="event_id")
    classes = ctx.where(TicketClass, event_id=ev.id)
    placed = ctx.where(Order, event_id=ev.id, status="placed")
    return SalesSummary(
        event_id=ev.id,
        name=ev.name,
        currency=ev.currency,
        capacity=ev.capacity,
        classes=[
            ClassSales(
                ticket_class_id=tc.id,
                name=tc.name,
                sold=tc.quantity_sold,
                remaining=tc.quantity_total - tc.quantity_sold,
                gross=tc.price * tc.quantity_sold,
            )
            for tc in classes
        ],
        tickets_sold=sum(tc.quantity_sold for tc in classes),
        gross=sum(o.subtotal for o in placed),
        fees=sum(o.fees for o in placed),
        refunded=sum(o.refunded_amount for o in ctx.where(Order, event_id=ev.id)),
        checked_in=len(ctx.where(Attendee, event_id=ev.id, checked_in=True)),
    )


# -- seed --------------------------------------------------------------------------------------

VENUES: tuple[tuple[str, int], ...] = (
    ("Harbor Conference Center", 1200),
    ("The Foundry Hall", 400),
    ("Skyline Rooftop", 150),
    ("Old Mill Theatre", 600),
    ("Riverside Pavilion", 250),
)
EVENTS: tuple[tuple[str, str, int, int, EventStatus, RefundPolicy], ...] = (
    # name, about, days from now, hours long, status, refund policy
    ("Customer Summit", "Our yearly summit for customers and partners", 0, 8, "live", "until_7_days"),
    ("Supply Chain Forum", "Panels on resilient logistics", 21, 6, "live", "until_7_days"),
    ("Product Launch Night", "Meet the new product line", 5, 4, "live", "no_refunds"),
    ("Data & AI Meetup", "Talks and networking", 40, 3, "live", "until_1_day"),
    ("Design Workshop", "Hands-on workshop", 60, 5, "draft", "until_30_days"),
    ("Spring Networking Mixer", "Drinks and introductions", -10, 3, "ended", "until_1_day"),
    ("Charity Gala", "Dinner and auction", 30, 5, "canceled", "until_30_days"),
    ("Founders Breakfast", "Morning talks", 3, 2, "live", "until_1_day"),
)


HOUR = dt.timedelta(hours=1)


@service.seeder
def seed(s: SeedContext) -> None:
    """Venues in the population's cities, events by the home company and its partners, orders, attendees, check-ins."""
    pop = s.population
    venues_made = _seed_venues(s)
    organizers = [(pop.home, pop.employees[k % len(pop.employees)]) for k in range(3)]
    organizers += [(c, p) for c in pop.customers if (p := pop.first_contact(c)) is not None][:5]
    buyers = itertools.cycle(list(pop.consumers) + list(pop.contacts))
    for k, (name, about, days, hours, status, policy) in enumerate(EVENTS):
        company, contact = organizers[k % len(organizers)]
        venue = venues_made[k % len(venues_made)]
        # An event due today is under way: its doors are open.
        start = s.now - HOUR if days == 0 else (s.now + dt.timedelta(days=days)).replace(hour=17 if hours <= 4 else 9)
        ev = s.create(
            Event,
            name=f"{company.name} {name}" if company.home else f"{name} by {company.name}",
            description=about,
            organizer=company.name,
            organizer_email=contact.email,
            venue_id=venue.id,
            start=start,
            end=start + hours * HOUR,
            currency=company.place.currency,
            capacity=min(venue.capacity, (300, 120, 80, 200, 60, 100, 140, 50)[k]),
            refund_policy=policy,
            online_url=f"https://meet.gatherly.example/{k + 1:03d}-stream" if k % 3 == 1 else None,
            status=status,
            created_at=s.now - (50 + k) * dt.timedelta(days=1),
            updated_at=s.now - (5 + k) * dt.timedelta(days=1),
        )
        made = _seed_ticket_classes(s, ev, k)
        if status != "draft":
            _seed_orders(s, ev, made, k, days == 0, buyers)


def _seed_venues(s: SeedContext) -> list[Venue]:
    """A venue per name in ``VENUES``, the first in the home company's city."""
    pop = s.population
    rng = s.rng
    venues_made = []
    for k, (name, cap) in enumerate(VENUES):
        place = pop.places[(k * 4) % len(pop.places)] if k else pop.home.place
        venues_made.append(
            s.create(
                Venue,
                name=f"{name} {place.city}",
                address=PostalAddress(
                    street=f"{rng.randint(1, 90)} {('Harbor Road', 'Mill Lane', 'King Street')[k % 3]}",
                    city=place.city,
                    postal_code=f"{place.postal_prefix}{rng.randint(100, 999)}",
                    country=place.country,
                ),
                capacity=cap,
            )
        )
    return venues_made


def _seed_ticket_classes(s: SeedContext, ev: Event, k: int) -> list[TicketClass]:
    """Early bird, general admission and VIP tickets of the ``k``-th event, on sale from a day after its creation."""
    opened = ev.created_at + dt.timedelta(days=1)
    capacity, start, end = ev.capacity, ev.start, ev.end
    classes = [
        ("Early bird", (0, 4_900, 2_500, 0, 9_000, 1_500, 12_000, 0)[k], capacity // 4, opened, s.now - 2 * dt.timedelta(days=1)),
        ("General admission", (9_900, 8_900, 4_500, 0, 14_900, 2_500, 18_000, 1_900)[k], capacity // 2, opened, end - HOUR),
        ("VIP", (24_900, 19_900, 9_900, 2_000, 29_900, 5_000, 40_000, 4_900)[k], capacity // 8, opened, start - HOUR),
    ]  # fmt: skip
    made: list[TicketClass] = []
    for cname, price, qty, s_start, s_end in classes:
        if s_end <= s_start:
            s_end = s_start + HOUR
        made.append(
            s.create(
                TicketClass,
                event_id=ev.id,
                name=cname,
                price=price,
                quantity_total=max(1, qty),
                sales_start=s_start,
                sales_end=min(s_end, end),
                max_per_order=(4, 10, 2)[len(made)],
            )
        )
    return made


def _seed_orders(
    s: SeedContext, ev: Event, made: list[TicketClass], k: int, under_way: bool, buyers: Iterator[Person]
) -> None:
    """The ``k``-th event's orders and attendees; refunds give tickets back, and who came to a running event is in."""
    for j in range((12, 6, 5, 4, 0, 8, 4, 5)[k]):
        person = next(buyers)
        tc = made[(j * 2) % len(made)] if j % 3 else made[1]
        qty = min(1 + j % 2, tc.max_per_order, tc.quantity_total - tc.quantity_sold)
        if qty < 1:
            continue
        idx = made.index(tc)
        tc = s.update(tc, quantity_sold=tc.quantity_sold + qty)
        made[idx] = tc
        line = OrderLine(
            ticket_class_id=tc.id, name=tc.name, quantity=qty, unit_price=tc.price, unit_fee=_fee(tc.price)
        )
        refunded = ev.status == "canceled" or (j == 3 and ev.refund_policy != "no_refunds")
        total = qty * (line.unit_price + line.unit_fee)
        order = s.create(
            Order,
            event_id=ev.id,
            buyer_name=person.name,
            buyer_email=person.email,
            lines=(line,),
            subtotal=qty * line.unit_price,
            fees=qty * line.unit_fee,
            total=total,
            currency=ev.currency,
            status="refunded" if refunded else "placed",
            refunded_amount=total if refunded else 0,
            created_at=ev.created_at + dt.timedelta(days=2 + j),
            updated_at=ev.created_at + dt.timedelta(days=3 + j),
        )
        if refunded:
            made[idx] = s.update(tc, quantity_sold=tc.quantity_sold - qty)
        for q in range(qty):
            came = not refunded and (ev.status == "ended" or (under_way and (j + q) % 3 != 2))
            s.create(
                Attendee,
                order_id=order.id,
                event_id=ev.id,
                ticket_class_id=tc.id,
                name=person.name,
                email=person.email,
                barcode=f"{100000000000 + s.rng.randint(0, 799_999_999_999):012d}",
                status="refunded" if refunded else "attending",
                checked_in=came,
                checked_in_at=(ev.start - dt.timedelta(minutes=30 - 3 * j)) if came else None,
            )
