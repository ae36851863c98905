"""Hivebase Coworking: coworking locations, member companies and members on plans, room bookings with credits.

Modeled on the Nexudus Spaces REST API (coworkers, teams, tariffs, resources, bookings, passes, check-ins,
coworker invoices) and OfficeRnD memberships: a plan (tariff) belongs to one location, gives a desk type and
monthly booking credits; members hold a plan at its location and may belong to a member company billed for
them. A booking holds a room on the quarter hour inside opening hours, never overlapping another confirmed
booking nor above capacity; credits pay first, the rest is charged on the next invoice; cancelling 24 hours
ahead returns the credits. Day passes admit a guest on one day up to the location's daily limit. Members check
in at their location only (multi-location plans anywhere), once at a time. Monthly invoices bill the plan fee
and uninvoiced booking charges, once per member per month.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
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
    InvoiceNumber,
    PersonName,
    PostalAddress,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.places._shared import local_address

__all__ = ["service"]

service = Service(
    "coworking",
    title="Hivebase Coworking",
    category="coworking",
    modeled_on="Nexudus Spaces REST API (coworkers, teams, tariffs, resources, bookings with credits, passes, "
    "check-ins, coworker invoices) and OfficeRnD memberships",
    description="Coworking space management: locations with opening hours, bookable meeting rooms and desks, "
    "membership plans with desk types and monthly booking credits, member companies and their members, room "
    "bookings paid with credits or charged, day passes for guests, check-ins, and monthly member invoices.",
)

LocationId = Annotated[str, IdOf("coworking.location")]
PlanId = Annotated[str, IdOf("coworking.plan")]
CompanyId = Annotated[str, IdOf("coworking.company")]
MemberId = Annotated[str, IdOf("coworking.member")]
ResourceId = Annotated[str, IdOf("coworking.resource")]
BookingId = Annotated[str, IdOf("coworking.booking")]
PassId = Annotated[str, IdOf("coworking.day_pass")]
CheckinId = Annotated[str, IdOf("coworking.checkin")]
InvoiceId = Annotated[str, IdOf("coworking.invoice")]

Hour = Annotated[int, Field(ge=0, le=24)]
Credits = Annotated[int, Field(ge=0, le=10000)]
DeskType = Literal["hot_desk", "dedicated_desk", "private_office", "virtual_office"]
ResourceKind = Literal["meeting_room", "phone_booth", "event_space", "desk"]
MemberStatus = Literal["active", "paused", "cancelled"]
BookingStatus = Literal["confirmed", "cancelled"]
PassStatus = Literal["issued", "used", "cancelled"]
InvoiceStatus = Literal["issued", "paid", "void"]

REFUND_NOTICE = dt.timedelta(hours=24)
MAX_BOOKING = dt.timedelta(hours=8)


class Location(Record):
    """A coworking location with its opening hours and day-pass limit."""

    id: LocationId
    name: CompanyName
    """The location's name."""
    address: PostalAddress
    """Its address."""
    timezone: Timezone
    """Its time zone; opening hours are local."""
    currency: Currency
    """The currency it bills in."""
    opens_hour: Hour = 8
    """Opening hour, local time."""
    closes_hour: Hour = 20
    """Closing hour, local time."""
    day_pass_limit: Annotated[int, Field(ge=0, le=500)] = 10
    """How many day passes it sells for one day."""
    day_pass_price_cents: Cents = 3500
    """Price of a day pass."""


class Plan(Record):
    """A membership plan (tariff) of one location."""

    id: PlanId
    location_id: LocationId
    """The location."""
    name: Title
    """The plan's name."""
    desk_type: DeskType
    """hot_desk, dedicated_desk, private_office or virtual_office."""
    monthly_price_cents: Cents
    """Monthly fee per member."""
    monthly_credits: Credits = 0
    """Booking credits given every month (a credit buys an hour of a small room)."""
    multi_location: bool = False
    """Whether members may check in at every location."""
    active: bool = True
    """Whether new members may join it."""


class MemberCompany(Record):
    """A company (team) whose members' fees it pays."""

    id: CompanyId
    name: CompanyName
    """Company name."""
    location_id: LocationId
    """Its home location."""
    billing_email: Email
    """Where its invoices go."""
    created_at: Annotated[DateTime, CREATED]
    """When it joined."""


class Member(Record):
    """A member (coworker) holding a plan."""

    id: MemberId
    full_name: PersonName
    """The member's name."""
    email: Email
    """The member's e-mail (unique)."""
    location_id: LocationId
    """Home location (the plan's)."""
    plan_id: PlanId
    """The plan."""
    company_id: CompanyId | None = None
    """The member company billed for them, if any."""
    status: MemberStatus = "active"
    """active, paused or cancelled."""
    credit_balance: Credits = 0
    """Booking credits left this month."""
    started_on: Date
    """First day of membership."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Resource(Record):
    """A bookable room or desk."""

    id: ResourceId
    location_id: LocationId
    """The location."""
    name: Title
    """The room's name."""
    kind: ResourceKind
    """meeting_room, phone_booth, event_space or desk."""
    capacity: Annotated[int, Field(ge=1, le=300)]
    """How many people it holds."""
    credits_per_hour: Credits
    """Credits one hour costs."""
    price_per_hour_cents: Cents
    """Price of one hour not covered by credits."""


class Booking(Record):
    """A member's booking of a room."""

    id: BookingId
    resource_id: ResourceId
    """The room."""
    member_id: MemberId
    """The member."""
    starts_at: DateTime
    """Start."""
    ends_at: DateTime
    """End."""
    attendees: Annotated[int, Field(ge=1, le=300)] = 1
    """Expected attendees."""
    status: BookingStatus = "confirmed"
    """confirmed or cancelled."""
    credits_used: Credits = 0
    """Credits spent on it."""
    charge_cents: Cents = 0
    """Amount charged beyond the credits."""
    invoice_id: InvoiceId | None = None
    """The invoice that billed the charge."""
    created_at: Annotated[DateTime, CREATED]
    """When it was booked."""


class DayPass(Record):
    """A day pass sold to a guest."""

    id: PassId
    location_id: LocationId
    """The location."""
    guest_name: PersonName
    """The guest."""
    guest_email: Email
    """The guest's e-mail."""
    valid_on: Date
    """The day it admits."""
    price_cents: Cents
    """What it cost."""
    status: PassStatus = "issued"
    """issued, used or cancelled."""
    created_at: Annotated[DateTime, CREATED]
    """When it was sold."""


class Checkin(Record):
    """A visit: a member or day-pass guest checked in at a location."""

    id: CheckinId
    location_id: LocationId
    """Where."""
    member_id: MemberId | None = None
    """The member."""
    day_pass_id: PassId | None = None
    """The day pass used."""
    checked_in_at: DateTime
    """Arrival."""
    checked_out_at: DateTime | None = None
    """Departure (none: still in)."""


class InvoiceLine(Value):
    """One line of a member invoice."""

    description: Title
    """What is billed."""
    amount_cents: Cents
    """Amount."""


class Invoice(Record):
    """A monthly member invoice."""

    id: InvoiceId
    number: Annotated[InvoiceNumber, Generated("sequence", "HB-{n:05d}")]
    """Invoice number."""
    member_id: MemberId
    """The member billed."""
    bill_to_email: Email
    """Who receives it: the member company's billing e-mail, else the member's."""
    period: Annotated[str, Field(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
    """The month billed, YYYY-MM."""
    lines: tuple[InvoiceLine, ...]
    """Plan fee and booking charges."""
    total_cents: Cents
    """Total."""
    currency: Currency
    """Currency."""
    status: InvoiceStatus = "issued"
    """issued, paid or void."""
    created_at: Annotated[DateTime, CREATED]
    """When it was issued."""


# -- rules ------------------------------------------------------------------------------------


def _active_member(ctx: Ctx, member_id: str) -> Member:
    m = ctx.get(Member, member_id, field="member_id")
    if m.status != "active":
        raise RuleViolation(f"member {m.full_name} is {m.status}", field="member_id", hint="reactivate them first")
    return m


def _guard_member(ctx: Ctx, new: Any, old: Any) -> None:
    plan = ctx.get(Plan, new.plan_id, field="plan_id")
    if (old is None or old.plan_id != new.plan_id) and not plan.active:
        raise RuleViolation(f"plan {plan.name!r} is closed to new members", field="plan_id", hint="pick an active plan")
    if plan.location_id != new.location_id:
        raise RuleViolation(f"plan {plan.id} is for another location", field="plan_id", hint="use the location's")
    if new.company_id is not None:
        company = ctx.get(MemberCompany, new.company_id, field="company_id")
        if company.location_id != new.location_id:
            raise RuleViolation(f"{company.name} is at another location", field="company_id", hint="pick one here")


def _guard_company(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Location, new.location_id, field="location_id")
    for other in ctx.where(MemberCompany, name=new.name, location_id=new.location_id):
        if other.id != new.id:
            raise Conflict(f"{new.name} is already a member company here", field="name", hint=f"use {other.id}")


locations = service.resource(
    Location,
    name="location",
    plural="locations",
    prefix="loc",
    create=False,
    filters=("currency",),
    search=("name",),
    delete=False,
)
plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="plan",
    create=("location_id", "name", "desk_type", "monthly_price_cents", "monthly_credits", "multi_location"),
    filters=("location_id", "desk_type", "active"),
    search=("name",),
    update=("monthly_price_cents", "monthly_credits", "active"),
    delete=False,
    guard_create=lambda ctx, new, old: ctx.get(Location, new.location_id, field="location_id"),
)
companies = service.resource(
    MemberCompany,
    name="company",
    plural="companies",
    prefix="team",
    create=("name", "location_id", "billing_email"),
    filters=("location_id", "billing_email"),
    search=("name",),
    update=("billing_email",),
    guard_create=_guard_company,
    delete=False,
    title="member company",
)
members = service.resource(
    Member,
    name="member",
    plural="members",
    prefix="mem",
    create=False,
    filters=("location_id", "plan_id", "company_id", "status", "email"),
    search=("full_name", "email"),
    update=("plan_id", "company_id"),
    delete=False,
    unique=("email",),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the membership"),
        "reactivate": Transition("status", ("paused",), "active", "reactivate the membership"),
    },
    guard_update=_guard_member,
)
resources = service.resource(
    Resource,
    name="resource",
    plural="resources",
    prefix="res",
    create=False,
    filters=("location_id", "kind"),
    search=("name",),
    delete=False,
    title="bookable room",
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="bk",
    create=False,
    filters=("resource_id", "member_id", "status", "invoice_id"),
    delete=False,
)
passes = service.resource(
    DayPass,
    name="day_pass",
    plural="day_passes",
    prefix="pass",
    create=False,
    filters=("location_id", "valid_on", "status", "guest_email"),
    search=("guest_name",),
    delete=False,
    title="day pass",
)
checkins = service.resource(
    Checkin,
    name="checkin",
    plural="checkins",
    prefix="chk",
    create=False,
    get=False,
    filters=("location_id", "member_id", "day_pass_id"),
    delete=False,
    title="check-in",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("member_id", "status", "period", "bill_to_email"),
    delete=False,
    transitions={"pay": Transition("status", ("issued",), "paid", "record the invoice as paid")},
    title="member invoice",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_join(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(Plan, active=True)
    if plan is None:
        return None
    return {"full_name": "Noor Haddad", "email": "noor.haddad@example.net", "plan_id": plan.id}


@service.tool(intent="sign up the member", write=True, example=_example_join)
def join(ctx: Ctx, full_name: PersonName, email: Email, plan_id: PlanId, company_id: CompanyId | None = None) -> Member:
    """Sign up a member on a plan at the plan's location; they get the plan's monthly credits.

    Args:
        full_name: The member's name.
        email: Their e-mail; one membership per e-mail.
        plan_id: An active plan.
        company_id: The member company that pays for them (same location).
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    other = ctx.first(Member, email=email)
    if other is not None:
        raise Conflict(f"{email} is already member {other.id}", field="email", hint="update that membership")
    made = ctx.create(
        Member,
        full_name=full_name,
        email=email,
        plan_id=plan.id,
        location_id=plan.location_id,
        company_id=company_id,
        credit_balance=plan.monthly_credits,
        started_on=ctx.today(),
    )
    _guard_member(ctx, made, None)
    return made


@service.tool(
    intent="cancel the membership",
    write=True,
    destructive=True,
    example=first_example(Member, "member_id", where={"status": "active"}),
)
def cancel_membership(ctx: Ctx, member_id: MemberId) -> Member:
    """Cancel a membership: its future bookings are cancelled and its credits lapse.

    Args:
        member_id: The member (active or paused).
    """
    m = ctx.get(Member, member_id, field="member_id")
    if m.status == "cancelled":
        raise Conflict(f"member {m.full_name} is already cancelled", field="member_id", hint="nothing to do")
    for b in ctx.where(Booking, member_id=m.id, status="confirmed"):
        if b.starts_at > ctx.now():
            ctx.update(b, status="cancelled", credits_used=0, charge_cents=0)
    return ctx.update(m, status="cancelled", credit_balance=0)


def _local_hours(loc: Location, start: dt.datetime, end: dt.datetime) -> bool:
    tz = ZoneInfo(loc.timezone)
    local = start.astimezone(tz)
    closes = dt.datetime.combine(local.date(), dt.time(0), tzinfo=tz) + dt.timedelta(hours=loc.closes_hour)
    return local.hour >= loc.opens_hour and end <= closes


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(Member, status="active"):
        room = ctx.first(Resource, location_id=m.location_id, kind="meeting_room")
        if room is None:
            continue
        loc = ctx.get(Location, room.location_id)
        day = (ctx.now() + dt.timedelta(days=9)).astimezone(ZoneInfo(loc.timezone)).date()
        start = dt.datetime.combine(day, dt.time(loc.opens_hour + 2), tzinfo=ZoneInfo(loc.timezone))
        return {
            "resource_id": room.id,
            "member_id": m.id,
            "starts_at": start.astimezone(dt.UTC).isoformat(),
            "ends_at": (start + dt.timedelta(hours=1)).astimezone(dt.UTC).isoformat(),
            "attendees": 2,
        }
    return None


@service.tool(intent="book the room", write=True, example=_example_book)
def book_room(
    ctx: Ctx,
    resource_id: ResourceId,
    member_id: MemberId,
    starts_at: DateTime,
    ends_at: DateTime,
    attendees: Annotated[int, Field(ge=1, le=300)] = 1,
) -> Booking:
    """Book a room for an active member; credits pay first and the rest is charged on the next invoice.

    Args:
        resource_id: The room, at a location the member may use.
        member_id: The member.
        starts_at: Start, in the future, on the quarter hour.
        ends_at: End, after the start, at most 8 hours later, within opening hours.
        attendees: Expected attendees, at most the room's capacity.
    """
    room = ctx.get(Resource, resource_id, field="resource_id")
    m = _active_member(ctx, member_id)
    plan = ctx.get(Plan, m.plan_id)
    if room.location_id != m.location_id and not plan.multi_location:
        raise RuleViolation(
            f"{room.name} is at another location than {m.full_name}'s plan",
            field="resource_id",
            hint="book a room of the member's location",
        )
    if starts_at <= ctx.now():
        raise RuleViolation("a booking must start in the future", field="starts_at", hint="pick a later time")
    if starts_at.minute % 15 or starts_at.second or ends_at.minute % 15 or ends_at.second:
        raise RuleViolation("bookings run in quarter hours", field="starts_at", hint="start and end on :00/:15/:30/:45")
    if ends_at <= starts_at or ends_at - starts_at > MAX_BOOKING:
        raise RuleViolation("a booking lasts up to 8 hours", field="ends_at", hint="end after the start, within 8h")
    loc = ctx.get(Location, room.location_id)
    if not _local_hours(loc, starts_at, ends_at):
        raise RuleViolation(
            f"{loc.name} is open {loc.opens_hour}:00-{loc.closes_hour}:00 local time",
            field="starts_at",
            hint="book within opening hours",
        )
    if attendees > room.capacity:
        raise RuleViolation(f"{room.name} holds {room.capacity}", field="attendees", hint="pick a larger room")
    for b in ctx.where(Booking, resource_id=room.id, status="confirmed"):
        if b.starts_at < ends_at and starts_at < b.ends_at:
            raise Conflict(
                f"{room.name} is booked {b.starts_at:%H:%M}-{b.ends_at:%H:%M} UTC by {b.id}",
                field="starts_at",
                hint="pick another time or room",
            )
    quarters = int((ends_at - starts_at) / dt.timedelta(minutes=15))
    cost = -(-room.credits_per_hour * quarters // 4)
    used = min(cost, m.credit_balance)
    rest_quarters = 0 if cost == 0 else quarters * (cost - used) // cost
    charge = room.price_per_hour_cents * rest_quarters // 4
    ctx.update(m, credit_balance=m.credit_balance - used)
    return ctx.create(
        Booking,
        resource_id=room.id,
        member_id=m.id,
        starts_at=starts_at,
        ends_at=ends_at,
        attendees=attendees,
        credits_used=used,
        charge_cents=charge,
    )


@service.tool(
    intent="cancel the booking",
    write=True,
    example=first_example(
        Booking, "booking_id", where={"status": "confirmed"}, match=lambda c, b: b.starts_at > c.now()
    ),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a future booking; at least 24 hours ahead its credits return and its charge is dropped.

    Args:
        booking_id: The booking.
    """
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status != "confirmed":
        raise Conflict(f"booking {b.id} is already {b.status}", field="booking_id", hint="nothing to do")
    if b.starts_at <= ctx.now():
        raise RuleViolation("the booking has already started", field="booking_id", hint="past bookings stay billed")
    if b.starts_at - ctx.now() >= REFUND_NOTICE:
        m = ctx.get(Member, b.member_id)
        if m.status != "cancelled":
            ctx.update(m, credit_balance=m.credit_balance + b.credits_used)
        return ctx.update(b, status="cancelled", credits_used=0, charge_cents=0)
    return ctx.update(b, status="cancelled")


def _example_pass(ctx: Ctx) -> dict[str, Any] | None:
    loc = ctx.first(Location)
    if loc is None:
        return None
    when = (ctx.today() + dt.timedelta(days=3)).isoformat()
    return {"location_id": loc.id, "guest_name": "Ines Moreau", "guest_email": "ines@example.org", "valid_on": when}


@service.tool(intent="sell the day pass", write=True, example=_example_pass)
def sell_day_pass(
    ctx: Ctx, location_id: LocationId, guest_name: PersonName, guest_email: Email, valid_on: Date
) -> DayPass:
    """Sell a guest a day pass for today or a later day, within the location's daily limit.

    Args:
        location_id: The location.
        guest_name: The guest.
        guest_email: The guest's e-mail.
        valid_on: The day it admits.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    if valid_on < ctx.today():
        raise RuleViolation("valid_on is in the past", field="valid_on", hint="pick today or a later day")
    sold = [p for p in ctx.where(DayPass, location_id=loc.id, valid_on=valid_on) if p.status != "cancelled"]
    if len(sold) >= loc.day_pass_limit:
        raise RuleViolation(
            f"{loc.name} has sold all {loc.day_pass_limit} day passes for {valid_on}",
            field="valid_on",
            hint="pick another day or location",
        )
    if any(p.guest_email == guest_email for p in sold):
        raise Conflict(f"{guest_email} already has a pass that day", field="guest_email", hint="use that pass")
    return ctx.create(
        DayPass,
        location_id=loc.id,
        guest_name=guest_name,
        guest_email=guest_email,
        valid_on=valid_on,
        price_cents=loc.day_pass_price_cents,
    )


def _example_checkin(ctx: Ctx) -> dict[str, Any] | None:
    for m in ctx.where(Member, status="active"):
        if not any(c.checked_out_at is None for c in ctx.where(Checkin, member_id=m.id)):
            return {"location_id": m.location_id, "member_id": m.id}
    return None


@service.tool(intent="check in at the location", write=True, example=_example_checkin)
def check_in(
    ctx: Ctx, location_id: LocationId, member_id: MemberId | None = None, day_pass_id: PassId | None = None
) -> Checkin:
    """Check a member, or a guest with today's day pass, in at a location.

    Args:
        location_id: The location.
        member_id: The member (active; their location unless the plan allows all).
        day_pass_id: Or the guest's day pass, valid today at this location.
    """
    loc = ctx.get(Location, location_id, field="location_id")
    if (member_id is None) == (day_pass_id is None):
        raise RuleViolation("give a member or a day pass", field="member_id", hint="pass exactly one of the two")
    if member_id is not None:
        m = _active_member(ctx, member_id)
        if m.location_id != loc.id and not ctx.get(Plan, m.plan_id).multi_location:
            raise RuleViolation(f"the plan does not cover {loc.name}", field="location_id", hint="sell a day pass")
        if any(c.checked_out_at is None for c in ctx.where(Checkin, member_id=m.id)):
            raise Conflict(f"{m.full_name} is already checked in", field="member_id", hint="check out first")
        return ctx.create(Checkin, location_id=loc.id, member_id=m.id, checked_in_at=ctx.now())
    p = ctx.get(DayPass, str(day_pass_id), field="day_pass_id")
    if p.status != "issued" or p.valid_on != ctx.today() or p.location_id != loc.id:
        raise RuleViolation(
            f"pass {p.id} is {p.status}, for {p.valid_on} at {p.location_id}",
            field="day_pass_id",
            hint="an unused pass admits on its day at its location only",
        )
    ctx.update(p, status="used")
    return ctx.create(Checkin, location_id=loc.id, day_pass_id=p.id, checked_in_at=ctx.now())


@service.tool(
    intent="check out of the location",
    write=True,
    example=first_example(Checkin, "checkin_id", where={"checked_out_at": None}),
)
def check_out(ctx: Ctx, checkin_id: CheckinId) -> Checkin:
    """Check a visitor out.

    Args:
        checkin_id: The open check-in.
    """
    c = ctx.get(Checkin, checkin_id, field="checkin_id")
    if c.checked_out_at is not None:
        raise Conflict(f"{c.id} already checked out", field="checkin_id", hint="nothing to do")
    return ctx.update(c, checked_out_at=ctx.now())


def _period(day: dt.date) -> str:
    return f"{day.year:04d}-{day.month:02d}"


@service.tool(
    intent="issue the member's monthly invoice",
    write=True,
    example=first_example(
        Member,
        "member_id",
        match=lambda c, m: (
            m.status != "cancelled" and c.first(Invoice, member_id=m.id, period=_period(c.today())) is None
        ),
    ),
)
def issue_invoice(ctx: Ctx, member_id: MemberId) -> Invoice:
    """Issue this month's invoice: the plan fee and every uninvoiced booking charge; once per month.

    Args:
        member_id: The member (not cancelled).
    """
    m = ctx.get(Member, member_id, field="member_id")
    if m.status == "cancelled":
        raise RuleViolation(f"member {m.full_name} is cancelled", field="member_id", hint="nothing to bill")
    period = _period(ctx.today())
    for inv in ctx.where(Invoice, member_id=m.id, period=period):
        if inv.status != "void":
            raise Conflict(f"{inv.number} already bills {period}", field="member_id", hint="void it to reissue")
    plan = ctx.get(Plan, m.plan_id)
    lines = [InvoiceLine(description=f"{plan.name} ({period})", amount_cents=plan.monthly_price_cents)]
    charged = [b for b in ctx.where(Booking, member_id=m.id, invoice_id=None) if b.charge_cents > 0]
    for b in charged:
        room = ctx.get(Resource, b.resource_id)
        lines.append(InvoiceLine(description=f"{room.name} {b.starts_at:%Y-%m-%d %H:%M}", amount_cents=b.charge_cents))
    bill_to = m.email if m.company_id is None else ctx.get(MemberCompany, m.company_id).billing_email
    inv = ctx.create(
        Invoice,
        member_id=m.id,
        bill_to_email=bill_to,
        period=period,
        lines=tuple(lines),
        total_cents=sum(line.amount_cents for line in lines),
        currency=ctx.get(Location, m.location_id).currency,
    )
    for b in charged:
        ctx.update(b, invoice_id=inv.id)
    return inv


@service.tool(
    intent="void the invoice", write=True, example=first_example(Invoice, "invoice_id", where={"status": "issued"})
)
def void_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Void an unpaid invoice; its booking charges wait for the next invoice.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "issued":
        raise RuleViolation(f"{inv.number} is {inv.status}", field="invoice_id", hint="only unpaid invoices are voided")
    for b in ctx.where(Booking, invoice_id=inv.id):
        ctx.update(b, invoice_id=None)
    return ctx.update(inv, status="void")


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[str, DeskType, int, int, bool], ...] = (
    ("Hot Desk", "hot_desk", 29000, 4, False),
    ("Dedicated Desk", "dedicated_desk", 45000, 8, False),
    ("Private Office", "private_office", 120000, 20, True),
    ("Virtual Office", "virtual_office", 9000, 2, False),
)
ROOMS: tuple[tuple[str, ResourceKind, int, int, int], ...] = (
    ("Boardroom", "meeting_room", 12, 4, 6000),
    ("Huddle Room", "meeting_room", 4, 1, 2500),
    ("Phone Booth", "phone_booth", 1, 0, 0),
    ("Event Hall", "event_space", 60, 10, 25000),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Locations in the home city and one more, plans, rooms, member companies and freelancers, activity."""
    pop = s.population
    cities = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:1]]
    locs: list[Location] = []
    for k, place in enumerate(cities):
        locs.append(
            s.create(
                Location,
                name=f"Hivebase {place.city}",
                address=local_address(s.rng, place, "Market Street" if k == 0 else "Canal Road", 200),
                timezone=place.timezone,
                currency=place.currency,
                opens_hour=7 if k == 0 else 8,
                closes_hour=22 if k == 0 else 20,
                day_pass_limit=8 if k == 0 else 2,
            )
        )
    plan_of: dict[tuple[str, DeskType], Plan] = {}
    for loc in locs:
        for name, desk, price, credits, multi in PLANS:
            plan_of[(loc.id, desk)] = s.create(
                Plan,
                location_id=loc.id,
                name=name,
                desk_type=desk,
                monthly_price_cents=price,
                monthly_credits=credits,
                multi_location=multi,
                active=desk != "virtual_office" or loc is locs[0],
            )
        for name, kind, cap, cph, price in ROOMS:
            s.create(
                Resource,
                location_id=loc.id,
                name=name,
                kind=kind,
                capacity=cap,
                credits_per_hour=cph,
                price_per_hour_cents=price,
            )
    made: list[Member] = []
    for k, co in enumerate(pop.customers[:4]):
        loc = locs[k % len(locs)]
        people = pop.people_at(co)[:3]
        if not people:
            continue
        team = s.create(
            MemberCompany, name=co.name, location_id=loc.id, billing_email=people[0].email, created_at=s.ago(days=300)
        )
        for j, p in enumerate(people):
            plan = plan_of[(loc.id, "private_office" if j == 0 else "dedicated_desk")]
            made.append(_seed_member(s, p.name, p.email, plan, team.id, 200 - 10 * k))
    for k, p in enumerate(pop.consumers[:8]):
        plan = plan_of[(locs[0].id, "hot_desk" if k % 3 else "dedicated_desk")]
        made.append(_seed_member(s, p.name, p.email, plan, None, 150 - 9 * k))
    s.update(made[-1], status="paused")
    s.update(made[-2], status="cancelled", credit_balance=0)
    _seed_activity(s, locs, made)


def _seed_member(s: SeedContext, name: str, email: str, plan: Plan, team: str | None, days: int) -> Member:
    return s.create(
        Member,
        full_name=name,
        email=email,
        location_id=plan.location_id,
        plan_id=plan.id,
        company_id=team,
        credit_balance=max(0, plan.monthly_credits - days % 3),
        started_on=(s.now - dt.timedelta(days=days)).date(),
        created_at=s.ago(days=days),
        updated_at=s.ago(days=days),
    )


def _seed_activity(s: SeedContext, locs: list[Location], made: list[Member]) -> None:
    rooms = s.records(Resource)
    active = [m for m in made if m.status == "active"]
    for k, m in enumerate(active[:8]):
        room = next(r for r in rooms if r.location_id == m.location_id and r.kind == "meeting_room")
        tz = ZoneInfo(locs[0].timezone if m.location_id == locs[0].id else locs[-1].timezone)
        day = (s.now + dt.timedelta(days=k - 3)).astimezone(tz).date()
        start = dt.datetime.combine(day, dt.time(9 + k % 6), tzinfo=tz).astimezone(dt.UTC)
        hours = 1 + k % 2
        charge = room.price_per_hour_cents if k % 4 == 1 else 0
        s.create(
            Booking,
            resource_id=room.id,
            member_id=m.id,
            starts_at=start,
            ends_at=start + dt.timedelta(hours=hours),
            attendees=min(room.capacity, 1 + k % 4),
            credits_used=room.credits_per_hour * hours - (room.credits_per_hour if charge else 0),
            charge_cents=charge,
            created_at=s.ago(days=10),
        )
    today = s.now.date()
    for k, p in enumerate(s.population.consumers[10:13]):
        s.create(
            DayPass,
            location_id=locs[0].id,
            guest_name=p.name,
            guest_email=p.email,
            valid_on=today + dt.timedelta(days=k),
            price_cents=locs[0].day_pass_price_cents,
            created_at=s.ago(days=2),
        )
    for j, m in enumerate(active[:4]):
        out = s.ago(days=1) if j == 3 else None
        s.create(
            Checkin,
            location_id=m.location_id,
            member_id=m.id,
            checked_in_at=s.ago(hours=2 if out is None else 30),
            checked_out_at=out,
        )
    last = today.replace(day=1) - dt.timedelta(days=1)
    for k, m in enumerate(active[:6]):
        plan = next(p for p in s.records(Plan) if p.id == m.plan_id)
        team = next((c for c in s.records(MemberCompany) if c.id == m.company_id), None)
        s.create(
            Invoice,
            member_id=m.id,
            bill_to_email=m.email if team is None else team.billing_email,
            period=_period(last),
            lines=(InvoiceLine(description=f"{plan.name} ({_period(last)})", amount_cents=plan.monthly_price_cents),),
            total_cents=plan.monthly_price_cents,
            currency=next(loc.currency for loc in locs if loc.id == m.location_id),
            status="paid" if k % 3 else "issued",
            created_at=s.ago(days=today.day + 1),
        )
