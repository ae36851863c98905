"""Hostly: a vacation rental manager's listings, calendars, channel reservations, cleanings and owner statements.

Modeled on the Guesty Open API (``listings``, ``calendar`` blocks,
``reservations`` with ``source`` and ``money``, ``guests``, ``tasks``, owner
statements; Hostaway's ``reservations`` and ``tasks`` use the same objects):
a reservation arrives from a channel (airbnb, vrbo, booking_com or direct) as
an inquiry or confirmed, for at least the listing's minimum nights and at most
its guest count, only while no other booking or calendar block holds those
nights; inquiry → confirmed → checked_in → checked_out, or canceled (the
listing's cancellation policy decides the refund) or declined. Its money is
the nightly fare times nights, the cleaning fee and the channel's commission.
Check-in happens from the arrival day while the listing's cleaning is done;
check-out creates the turnover cleaning task (pending → assigned → done, done
only by the assigned cleaner). Owner statements sum a month's checked-out stays
of an owner's listings: net fare minus the management commission is the owner
payout; a statement is draft → finalized → paid, one per owner and month.
Amounts are cents.
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
from compoworld.engine.types import (
    Cents,
    City,
    Country,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    Percent,
    PersonName,
    Phone,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import add_months

__all__ = ["service"]

service = Service(
    "vacationrental",
    title="Hostly",
    category="vacation_rental",
    modeled_on="Guesty Open API (listings, calendar blocks, reservations with source and money, guests, tasks, "
    "owner statements); Hostaway reservations and tasks",
    description="Managing short-term rental homes for their owners: listings with nightly prices and house "
    "rules, calendar blocks, reservations arriving from Airbnb, Vrbo, Booking.com or direct, guests, turnover "
    "cleanings after each stay, and monthly owner statements with the management commission.",
)

ListingId = Annotated[str, IdOf("vacationrental.listing")]
BlockId = Annotated[str, IdOf("vacationrental.block")]
GuestId = Annotated[str, IdOf("vacationrental.guest")]
ReservationId = Annotated[str, IdOf("vacationrental.reservation")]
TaskId = Annotated[str, IdOf("vacationrental.cleaning_task")]
StatementId = Annotated[str, IdOf("vacationrental.owner_statement")]

Month = Annotated[str, StringConstraints(pattern=r"^\d{4}-(0[1-9]|1[0-2])$")]
"""A calendar month, YYYY-MM."""
Channel = Literal["airbnb", "vrbo", "booking_com", "direct"]
Policy = Literal["flexible", "moderate", "strict"]
ResStatus = Literal["inquiry", "confirmed", "checked_in", "checked_out", "canceled", "declined"]

COMMISSION: dict[str, float] = {"airbnb": 0.15, "vrbo": 0.08, "booking_com": 0.15, "direct": 0.0}
"""The share of the fare each channel keeps."""
FULL_REFUND_DAYS: dict[str, int] = {"flexible": 1, "moderate": 5, "strict": 14}
"""Cancelling at least this many days before arrival refunds everything; later keeps half the fare."""
HOLDING: tuple[str, ...] = ("confirmed", "checked_in")
MAX_NIGHTS = 90


class Listing(Record):
    """A rental home the company manages for its owner."""

    id: ListingId
    nickname: Title = Field(description="The internal name (unique).")
    title: Title = Field(description="The public title on the channels.")
    city: City = Field(description="Where it is.")
    country: Country = Field(description="Its country.")
    bedrooms: Annotated[int, Field(ge=0, le=20)] = Field(description="Bedrooms.")
    max_guests: Annotated[int, Field(ge=1, le=30)] = Field(description="Most guests allowed.")
    base_price: Cents = Field(description="Nightly price in cents.")
    cleaning_fee: Cents = Field(0, description="Cleaning fee per stay in cents.")
    currency: Currency = Field(description="Its currency.")
    min_nights: Annotated[int, Field(ge=1, le=30)] = Field(1, description="Shortest stay.")
    cancellation_policy: Policy = Field("moderate", description="flexible, moderate or strict.")
    owner_name: PersonName = Field(description="The homeowner.")
    owner_email: Email = Field(description="The homeowner's e-mail.")
    commission_pct: Percent = Field(20.0, description="The management commission on the net fare.")
    active: bool = Field(True, description="Whether it takes bookings.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was onboarded.")


class Block(Record):
    """Nights a listing is closed on the calendar (owner stay, maintenance)."""

    id: BlockId
    listing_id: ListingId = Field(description="The listing.")
    start_date: Date = Field(description="First night blocked.")
    end_date: Date = Field(description="The day after the last night blocked.")
    reason: Literal["owner_stay", "maintenance", "other"] = Field(description="owner_stay, maintenance or other.")
    note: Text = Field("", description="Why.")


class Guest(Record):
    """A guest who books a stay."""

    id: GuestId
    full_name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they first booked.")


class Money(Value):
    """What a reservation costs and who keeps what."""

    fare_accommodation: Cents = Field(description="Nightly price times nights.")
    cleaning_fee: Cents = Field(description="The listing's cleaning fee.")
    total_paid: Cents = Field(description="What the guest pays.")
    channel_commission: Cents = Field(description="What the channel keeps of the fare.")
    net_accommodation: Cents = Field(description="Fare minus channel commission.")
    currency: Currency = Field(description="The currency.")


class Reservation(Record):
    """A stay booked through a channel."""

    id: ReservationId
    confirmation_code: Annotated[str, StringConstraints(pattern=r"^HM[A-Z0-9]{8}$")] = Field(description="Its code.")
    listing_id: ListingId = Field(description="The listing.")
    guest_id: GuestId = Field(description="The guest.")
    source: Channel = Field(description="airbnb, vrbo, booking_com or direct.")
    check_in: Date = Field(description="Arrival day.")
    check_out: Date = Field(description="Departure day.")
    nights: Annotated[int, Field(ge=1)] = Field(description="Nights.")
    guests_count: Annotated[int, Field(ge=1, le=30)] = Field(description="Guests.")
    status: ResStatus = Field(description="inquiry, confirmed, checked_in, checked_out, canceled or declined.")
    money: Money = Field(description="The price breakdown.")
    refund: Cents = Field(0, description="What a cancellation refunded.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was booked.")


class CleaningTask(Record):
    """The turnover cleaning after a stay."""

    id: TaskId
    listing_id: ListingId = Field(description="The listing.")
    reservation_id: ReservationId | None = Field(None, description="The stay it follows.")
    due_date: Date = Field(description="When it must be done.")
    cleaner_email: Email | None = Field(None, description="The employee who cleans.")
    status: Literal["pending", "assigned", "done"] = Field("pending", description="pending → assigned → done.")
    completed_at: DateTime | None = Field(None, description="When it was done.")


class OwnerStatement(Record):
    """A month's earnings of an owner's listings."""

    id: StatementId
    owner_email: Email = Field(description="The homeowner.")
    month: Month = Field(description="The month (YYYY-MM).")
    reservation_ids: tuple[ReservationId, ...] = Field(description="Stays checked out that month.")
    net_accommodation: Cents = Field(description="Their fares after channel commission.")
    management_fee: Cents = Field(description="Our commission.")
    owner_payout: Cents = Field(description="What the owner receives.")
    status: Literal["draft", "finalized", "paid"] = Field("draft", description="draft → finalized → paid.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was generated.")


class Quote(Value):
    """The price of a stay, before booking."""

    listing_id: ListingId = Field(description="The listing.")
    nights: int = Field(description="Nights.")
    available: bool = Field(description="Whether every night is free.")
    money: Money = Field(description="The price breakdown for the channel.")


# -- rules ------------------------------------------------------------------------------------


def _guard_listing(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Listing, nickname=new.nickname)
    if other is not None and other.id != new.id:
        raise Conflict(f"nickname {new.nickname!r} is taken", field="nickname", hint="pick another nickname")


def _guard_block(ctx: Ctx, new: Any, old: Any) -> None:
    if new is None:
        return
    if new.end_date <= new.start_date:
        raise RuleViolation("a block ends after it starts", field="end_date", hint="pick a later end date")
    clash = _clash(ctx, new.listing_id, new.start_date, new.end_date, skip=new.id)
    if clash:
        raise Conflict(clash, field="start_date", hint="pick nights no stay holds")


def _guard_guest(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Guest, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"guest {other.id} has e-mail {new.email}", field="email", hint="use that guest")


def _guard_task(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "done" and old.status != "done":
        if new.cleaner_email is None:
            raise RuleViolation("nobody is assigned", field="cleaning_task_id", hint="assign a cleaner first")
        ctx.update(new, completed_at=ctx.now())


def _guard_reservation(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "confirmed" and old.status == "inquiry":
        clash = _clash(ctx, new.listing_id, new.check_in, new.check_out, skip=new.id)
        if clash:
            raise Conflict(clash, field="reservation_id", hint="decline the inquiry instead")


listings = service.resource(
    Listing,
    name="listing",
    plural="listings",
    prefix="lst",
    create=(
        "nickname",
        "title",
        "city",
        "country",
        "bedrooms",
        "max_guests",
        "base_price",
        "cleaning_fee",
        "currency",
        "min_nights",
        "cancellation_policy",
        "owner_name",
        "owner_email",
        "commission_pct",
    ),
    filters=("city", "owner_email", "active", "bedrooms", "cancellation_policy"),
    search=("nickname", "title"),
    update=("title", "base_price", "cleaning_fee", "min_nights", "max_guests", "cancellation_policy", "active"),
    delete=False,
    guard_create=_guard_listing,
    guard_update=_guard_listing,
)
blocks = service.resource(
    Block,
    name="block",
    plural="blocks",
    prefix="blk",
    create=("listing_id", "start_date", "end_date", "reason", "note"),
    get=False,
    filters=("listing_id", "reason"),
    guard_create=_guard_block,
    title="calendar block",
)
guests = service.resource(
    Guest,
    name="guest",
    plural="guests",
    prefix="gst",
    create=("full_name", "email", "phone"),
    filters=("email",),
    search=("full_name", "email"),
    update=("full_name", "phone"),
    delete=False,
    guard_create=_guard_guest,
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="res",
    create=False,
    filters=("listing_id", "guest_id", "status", "source", "check_in", "confirmation_code"),
    delete=False,
    transitions={
        "confirm": Transition("status", ("inquiry",), "confirmed", "confirm the reservation"),
        "decline": Transition("status", ("inquiry",), "declined", "decline the inquiry"),
    },
    guard_update=_guard_reservation,
)
cleaning_tasks = service.resource(
    CleaningTask,
    name="cleaning_task",
    plural="cleaning_tasks",
    prefix="tsk",
    create=False,
    filters=("listing_id", "status", "cleaner_email", "due_date"),
    delete=False,
    transitions={"complete": Transition("status", ("assigned",), "done", "mark the cleaning done")},
    guard_update=_guard_task,
    title="cleaning task",
)
owner_statements = service.resource(
    OwnerStatement,
    name="owner_statement",
    plural="owner_statements",
    prefix="ost",
    create=False,
    filters=("owner_email", "month", "status"),
    delete=False,
    transitions={
        "finalize": Transition("status", ("draft",), "finalized", "finalize the owner statement"),
        "mark_paid": Transition("status", ("finalized",), "paid", "record the owner payout as paid"),
    },
    title="owner statement",
)


# -- domain tools -----------------------------------------------------------------------------


def _clash(ctx: Ctx, listing_id: str, start: dt.date, end: dt.date, *, skip: str | None = None) -> str | None:
    for r in ctx.where(Reservation, listing_id=listing_id):
        if r.id != skip and r.status in HOLDING and r.check_in < end and start < r.check_out:
            return f"reservation {r.confirmation_code} holds {r.check_in} to {r.check_out}"
    for b in ctx.where(Block, listing_id=listing_id):
        if b.id != skip and b.start_date < end and start < b.end_date:
            return f"the calendar is blocked ({b.reason}) from {b.start_date} to {b.end_date}"
    return None


def _money(listing: Listing, nights: int, source: str) -> Money:
    fare = listing.base_price * nights
    commission = round(fare * COMMISSION[source])
    return Money(
        fare_accommodation=fare,
        cleaning_fee=listing.cleaning_fee,
        total_paid=fare + listing.cleaning_fee,
        channel_commission=commission,
        net_accommodation=fare - commission,
        currency=listing.currency,
    )


def _stay(ctx: Ctx, listing: Listing, check_in: dt.date, check_out: dt.date) -> int:
    nights = (check_out - check_in).days
    if nights < 1 or nights > MAX_NIGHTS:
        raise RuleViolation(f"a stay is 1 to {MAX_NIGHTS} nights", field="check_out", hint="pick a later departure")
    if nights < listing.min_nights:
        raise RuleViolation(
            f"{listing.nickname} needs at least {listing.min_nights} nights",
            field="check_out",
            hint=f"stay {listing.min_nights} nights or more",
        )
    return nights


def _example_quote(ctx: Ctx) -> dict[str, Any] | None:
    lst = ctx.first(Listing, active=True)
    if lst is None:
        return None
    start = ctx.today() + dt.timedelta(days=200)
    return {
        "listing_id": lst.id,
        "check_in": start.isoformat(),
        "check_out": (start + dt.timedelta(days=7)).isoformat(),
    }


@service.tool(intent="quote the stay", example=_example_quote)
def quote_stay(ctx: Ctx, listing_id: ListingId, check_in: Date, check_out: Date, source: Channel = "direct") -> Quote:
    """Price a stay and say whether every night is free.

    Args:
        listing_id: The listing.
        check_in: Arrival day.
        check_out: Departure day.
        source: The channel it would come from.
    """
    lst = ctx.get(Listing, listing_id, field="listing_id")
    nights = _stay(ctx, lst, check_in, check_out)
    free = _clash(ctx, lst.id, check_in, check_out) is None
    return Quote(listing_id=lst.id, nights=nights, available=free, money=_money(lst, nights, source))


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    q = _example_quote(ctx)
    g = ctx.first(Guest)
    return None if q is None or g is None else q | {"guest_id": g.id, "guests_count": 2, "source": "airbnb"}


@service.tool(intent="book the stay", write=True, example=_example_book)
def create_reservation(
    ctx: Ctx,
    listing_id: ListingId,
    guest_id: GuestId,
    check_in: Date,
    check_out: Date,
    guests_count: Annotated[int, Field(ge=1, le=30)],
    source: Channel = "direct",
    status: Literal["inquiry", "confirmed"] = "confirmed",
) -> Reservation:
    """Book a stay from a channel, from today on, on free nights of an active listing.

    Args:
        listing_id: The listing.
        guest_id: The guest.
        check_in: Arrival day (today or later).
        check_out: Departure day.
        guests_count: Guests (at most the listing's maximum).
        source: airbnb, vrbo, booking_com or direct.
        status: inquiry (an instant-book request to confirm) or confirmed.
    """
    lst = ctx.get(Listing, listing_id, field="listing_id")
    ctx.get(Guest, guest_id, field="guest_id")
    if not lst.active:
        raise RuleViolation(f"{lst.nickname} is not taking bookings", field="listing_id", hint="activate it first")
    if check_in < ctx.today():
        raise RuleViolation("arrival is in the past", field="check_in", hint="book from today on")
    nights = _stay(ctx, lst, check_in, check_out)
    if guests_count > lst.max_guests:
        raise RuleViolation(
            f"{lst.nickname} sleeps {lst.max_guests}", field="guests_count", hint="pick a bigger listing"
        )
    clash = _clash(ctx, lst.id, check_in, check_out)
    if clash and status == "confirmed":
        raise Conflict(clash, field="check_in", hint="check the calendar with vacationrental__quote_stay")
    n = ctx.next_number(Reservation, "confirmation_code")
    return ctx.create(
        Reservation,
        confirmation_code=f"HMX{n:07d}",
        listing_id=lst.id,
        guest_id=guest_id,
        source=source,
        check_in=check_in,
        check_out=check_out,
        nights=nights,
        guests_count=guests_count,
        status=status,
        money=_money(lst, nights, source),
    )


@service.tool(
    intent="cancel the reservation",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "confirmed"}),
)
def cancel_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Cancel a confirmed stay before arrival; the listing's policy decides the refund.

    Flexible refunds everything up to a day before arrival, moderate five days, strict fourteen; a later
    cancellation keeps half the fare (strict keeps all of it) and refunds the cleaning fee.

    Args:
        reservation_id: The reservation.
    """
    r = ctx.get(Reservation, reservation_id, field="reservation_id")
    if r.status != "confirmed":
        raise RuleViolation(
            f"reservation {r.confirmation_code} is {r.status}",
            field="reservation_id",
            hint="only confirmed stays that have not started are cancelled",
        )
    policy = ctx.get(Listing, r.listing_id).cancellation_policy
    ahead = (r.check_in - ctx.today()).days
    m = r.money
    if ahead >= FULL_REFUND_DAYS[policy]:
        refund = m.total_paid
    else:
        refund = m.cleaning_fee + (0 if policy == "strict" else m.fare_accommodation // 2)
    return ctx.update(r, status="canceled", refund=refund)


def _ready(ctx: Ctx, r: Reservation) -> bool:
    dirty = [t for t in ctx.where(CleaningTask, listing_id=r.listing_id) if t.status != "done"]
    return r.check_in <= ctx.today() < r.check_out and not dirty


@service.tool(
    intent="check the guest in",
    write=True,
    example=first_example(
        Reservation, "reservation_id", where={"status": "confirmed"}, match=lambda ctx, r: _ready(ctx, r)
    ),
)
def check_in_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check a confirmed guest in, from the arrival day, once the listing's last cleaning is done.

    Args:
        reservation_id: The reservation.
    """
    r = ctx.get(Reservation, reservation_id, field="reservation_id")
    if r.status != "confirmed":
        raise RuleViolation(
            f"reservation {r.confirmation_code} is {r.status}", field="reservation_id", hint="confirm it first"
        )
    today = ctx.today()
    if not r.check_in <= today < r.check_out:
        raise RuleViolation(f"arrival is {r.check_in}", field="reservation_id", hint="check in from the arrival day")
    dirty = [t for t in ctx.where(CleaningTask, listing_id=r.listing_id) if t.status != "done"]
    if dirty:
        raise RuleViolation(
            "the home is not cleaned yet", field="reservation_id", hint=f"finish cleaning task {dirty[0].id} first"
        )
    return ctx.update(r, status="checked_in")


@service.tool(
    intent="check the guest out",
    write=True,
    example=first_example(Reservation, "reservation_id", where={"status": "checked_in"}),
)
def check_out_reservation(ctx: Ctx, reservation_id: ReservationId) -> Reservation:
    """Check a guest out; the turnover cleaning task is created, due today.

    Args:
        reservation_id: The reservation.
    """
    r = ctx.get(Reservation, reservation_id, field="reservation_id")
    if r.status != "checked_in":
        raise RuleViolation(
            f"reservation {r.confirmation_code} is {r.status}", field="reservation_id", hint="check the guest in first"
        )
    ctx.create(CleaningTask, listing_id=r.listing_id, reservation_id=r.id, due_date=ctx.today())
    return ctx.update(r, status="checked_out")


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    t = ctx.first(CleaningTask, status="pending")
    return None if t is None else {"cleaning_task_id": t.id, "cleaner_email": ctx.population.employees[0].email}


@service.tool(intent="assign the cleaning", write=True, example=_example_assign)
def assign_cleaning(ctx: Ctx, cleaning_task_id: TaskId, cleaner_email: Email) -> CleaningTask:
    """Give a pending or assigned cleaning task to a cleaner (an employee).

    Args:
        cleaning_task_id: The task.
        cleaner_email: The employee who cleans.
    """
    t = ctx.get(CleaningTask, cleaning_task_id, field="cleaning_task_id")
    if t.status == "done":
        raise RuleViolation("the cleaning is done", field="cleaning_task_id", hint="nothing left to assign")
    if cleaner_email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{cleaner_email} is not on our staff", field="cleaner_email", hint="pick an employee")
    return ctx.update(t, cleaner_email=cleaner_email, status="assigned")


def _totals(mine: dict[str, Listing], done: list[Reservation], month: str) -> dict[str, Any]:
    stays = [r for r in done if r.listing_id in mine and r.check_out.strftime("%Y-%m") == month]
    net = sum(r.money.net_accommodation for r in stays)
    fee = sum(round(r.money.net_accommodation * mine[r.listing_id].commission_pct / 100) for r in stays)
    return {
        "reservation_ids": tuple(r.id for r in stays),
        "net_accommodation": net,
        "management_fee": fee,
        "owner_payout": net - fee,
    }


def _example_statement(ctx: Ctx) -> dict[str, Any] | None:
    month = add_months(ctx.today().replace(day=1), -1).strftime("%Y-%m")
    for lst in ctx.scan(Listing):
        if ctx.first(OwnerStatement, owner_email=lst.owner_email, month=month) is None:
            return {"owner_email": lst.owner_email, "month": month}
    return None


@service.tool(intent="generate the owner statement", write=True, example=_example_statement)
def generate_owner_statement(ctx: Ctx, owner_email: Email, month: Month) -> OwnerStatement:
    """Total an owner's stays checked out in a past month into a draft statement (one per owner and month).

    Args:
        owner_email: The homeowner.
        month: A month before the current one (YYYY-MM).
    """
    mine = {lst.id: lst for lst in ctx.where(Listing, owner_email=owner_email)}
    if not mine:
        raise RuleViolation(f"{owner_email} owns no listing", field="owner_email", hint="pick a listing's owner")
    if month >= ctx.today().strftime("%Y-%m"):
        raise RuleViolation(f"{month} is not over", field="month", hint="statements cover past months")
    if ctx.first(OwnerStatement, owner_email=owner_email, month=month) is not None:
        raise Conflict(f"{owner_email} has a statement for {month}", field="month", hint="open the existing one")
    done = ctx.where(Reservation, status="checked_out")
    return ctx.create(OwnerStatement, owner_email=owner_email, month=month, **_totals(mine, done, month))


# -- seed -------------------------------------------------------------------------------------

HOMES: tuple[tuple[str, str, int, int, int, int, Policy], ...] = (
    ("Harbor Loft", "Sunny loft by the harbor", 1, 2, 14500, 6000, "flexible"),
    ("Pine Cabin", "Cozy cabin with hot tub", 2, 5, 21000, 9000, "moderate"),
    ("Old Town Flat", "Charming flat in the old town", 2, 4, 17500, 7000, "moderate"),
    ("Beach House", "Family beach house, steps to the sand", 4, 9, 42000, 15000, "strict"),
    ("Garden Studio", "Quiet studio with a garden", 0, 2, 9500, 4000, "flexible"),
    ("Lake Villa", "Lakefront villa with dock", 5, 12, 68000, 22000, "strict"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Homes of consumer owners, guests from the population, stays in every state, cleanings and statements."""
    pop = s.population
    owners = list(pop.consumers[-4:])
    people = list(pop.consumers[:14]) + list(pop.contacts[:4])
    today = s.now.date()
    homes: list[Listing] = []
    for k, (nick, title, beds, sleeps, price, clean, policy) in enumerate(HOMES):
        place = (pop.places or (pop.home.place,))[k % max(len(pop.places), 1)]
        owner = owners[k % len(owners)]
        homes.append(
            s.create(
                Listing,
                nickname=nick,
                title=title,
                city=place.city,
                country=place.country,
                bedrooms=beds,
                max_guests=sleeps,
                base_price=price,
                cleaning_fee=clean,
                currency=place.currency,
                min_nights=1 + k % 3,
                cancellation_policy=policy,
                owner_name=owner.name,
                owner_email=owner.email,
                commission_pct=(20.0, 25.0, 18.0)[k % 3],
                active=k != 5,
                created_at=s.ago(days=500 - 30 * k),
            )
        )
    guests = [
        s.create(Guest, full_name=p.name, email=p.email, phone=p.phone, created_at=s.ago(days=200 - 5 * k))
        for k, p in enumerate(people)
    ]
    last_month = add_months(today.replace(day=1), -1)
    n = 0
    for k, home in enumerate(homes[:5]):
        arrive = today - dt.timedelta(days=1) if k % 2 == 0 else today
        plan: list[tuple[dt.date, int, ResStatus]] = [
            (last_month + dt.timedelta(days=2 + k), 3, "checked_out"),
            (today - dt.timedelta(days=5), 3, "checked_out"),
            (arrive, 2, "checked_in" if k % 2 == 0 else "confirmed"),
            (today + dt.timedelta(days=10), 4, "confirmed"),
            (today + dt.timedelta(days=30), 5, "inquiry"),
            (today + dt.timedelta(days=30), 3, "canceled"),
            (today + dt.timedelta(days=60), 5, "confirmed"),
        ]
        for j, (start, nights, status) in enumerate(plan):
            nights = max(nights, home.min_nights)
            source: Channel = ("airbnb", "vrbo", "booking_com", "direct")[(k + j) % 4]
            money = _money(home, nights, source)
            n += 1
            s.create(
                Reservation,
                confirmation_code=f"HM{n:08d}",
                listing_id=home.id,
                guest_id=guests[(3 * k + j) % len(guests)].id,
                source=source,
                check_in=start,
                check_out=start + dt.timedelta(days=nights),
                nights=nights,
                guests_count=min(2 + j % 3, home.max_guests),
                status=status,
                money=money,
                refund=money.total_paid if status == "canceled" else 0,
                created_at=s.ago(days=70 - j),
            )
    _seed_ops(s, homes, last_month)


def _seed_ops(s: SeedContext, homes: list[Listing], last_month: dt.date) -> None:
    today = s.now.date()
    staff = s.population.staff("Operations", "Support", fallback=4)
    for k, r in enumerate(r for r in s.records(Reservation) if r.status == "checked_out"):
        recent = r.check_out >= today - dt.timedelta(days=3)
        status: Any = ("pending" if k == 3 else "assigned" if k == 5 else "done") if recent else "done"
        s.create(
            CleaningTask,
            listing_id=r.listing_id,
            reservation_id=r.id,
            due_date=r.check_out,
            cleaner_email=None if status == "pending" else staff[k % len(staff)].email,
            status=status,
            completed_at=s.ago(days=(today - r.check_out).days) if status == "done" else None,
        )
    s.create(
        Block,
        listing_id=homes[0].id,
        start_date=today + dt.timedelta(days=20),
        end_date=today + dt.timedelta(days=24),
        reason="owner_stay",
        note="Owner family visit",
    )
    s.create(
        Block,
        listing_id=homes[1].id,
        start_date=today + dt.timedelta(days=3),
        end_date=today + dt.timedelta(days=5),
        reason="maintenance",
        note="Hot tub service",
    )
    month = last_month.strftime("%Y-%m")
    done = [r for r in s.records(Reservation) if r.status == "checked_out"]
    for owner, status in ((homes[0].owner_email, "finalized"), (homes[1].owner_email, "draft")):
        mine = {h.id: h for h in homes if h.owner_email == owner}
        totals = _totals(mine, done, month)
        s.create(
            OwnerStatement, owner_email=owner, month=month, status=status, created_at=s.ago(days=today.day), **totals
        )
