"""Fairway Desk: golf course tee sheets, tee-time bookings for up to four players, rate classes, rain checks.

Modeled on the foreUP golf course management API: courses with a tee sheet
(first and last tee time, an interval between times), customers (golfers)
with a price class (Public, Member, Senior, Junior) that sets their 9- and
18-hole green fees, tee-time bookings that hold one to four players on one
slot and go booked → checked_in → completed (or cancelled / no_show), tee
sheet blocks for tournaments, aeration and leagues, and rain checks issued
for holes a checked-in group could not play and redeemed against a later
booking. A tee time starts on the course's interval, inside its hours and
outside any block; a slot takes at most four players, each once; a member
rate needs a member number; a suspended golfer books nothing; check-in is on
the day; a rain check is issued once per booking and expires after 90 days.
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
from compoworld.engine.types import Cents, City, Currency, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "golf",
    title="Fairway Desk",
    category="golf_course",
    modeled_on="foreUP API: courses and tee sheets, tee times/bookings with players, customers with price "
    "classes, check-in, tee sheet blocks, rain checks",
    description="Golf course operations: the tee sheet of each course with its interval and hours, golfers and "
    "their rate class (member, public, senior, junior), tee-time bookings for up to four players with green and "
    "cart fees, check-in at the pro shop, blocks for tournaments and maintenance, and rain checks.",
)

CourseId = Annotated[str, IdOf("golf.course")]
RateClassId = Annotated[str, IdOf("golf.rate_class")]
GolferId = Annotated[str, IdOf("golf.golfer")]
BookingId = Annotated[str, IdOf("golf.booking")]
BlockId = Annotated[str, IdOf("golf.block")]
RainCheckId = Annotated[str, IdOf("golf.rain_check")]

MemberNumber = Annotated[str, StringConstraints(pattern=r"^M-\d{4,6}$")]
"""A club member number such as M-10442."""
Holes = Literal[9, 18]
BookingStatus = Literal["booked", "checked_in", "completed", "cancelled", "no_show"]
MAX_PLAYERS = 4
RAIN_CHECK_DAYS = 90


class Course(Record):
    """A golf course and its tee sheet settings."""

    id: CourseId
    name: Title = Field(description="Its name.")
    city: City = Field(description="Where it is.")
    currency: Currency = Field(description="Its currency.")
    phone: Phone = Field(description="The pro shop.")
    first_tee_hour: Annotated[int, Field(ge=5, le=10)] = Field(7, description="First tee time (hour, UTC).")
    last_tee_hour: Annotated[int, Field(ge=12, le=20)] = Field(17, description="Last tee time (hour, UTC).")
    interval_minutes: Literal[7, 8, 9, 10, 12, 15] = Field(10, description="Minutes between tee times.")
    cart_fee: Cents = Field(2000, description="Cart fee per player.")


class RateClass(Record):
    """A price class that sets a golfer's green fees."""

    id: RateClassId
    name: Title = Field(description="Public, Member, Senior, Junior ...")
    green_fee_18: Cents = Field(description="18-hole green fee.")
    green_fee_9: Cents = Field(description="9-hole green fee.")
    members_only: bool = Field(False, description="Whether it needs a member number.")


class Golfer(Record):
    """A golfer (customer) of the course."""

    id: GolferId
    name: PersonName = Field(description="Their name.")
    email: Email = Field(description="Their e-mail (unique).")
    phone: Phone | None = Field(None, description="Their phone.")
    rate_class_id: RateClassId = Field(description="Their price class.")
    member_number: MemberNumber | None = Field(None, description="Their club member number, if a member.")
    handicap: Annotated[float, Field(ge=-10, le=54)] | None = Field(None, description="Handicap index.")
    status: Literal["active", "suspended"] = Field("active", description="active or suspended.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When they joined.")


class Booking(Record):
    """A tee-time booking for one to four players."""

    id: BookingId
    course_id: CourseId = Field(description="The course.")
    start_at: DateTime = Field(description="The tee time.")
    holes: Holes = Field(18, description="9 or 18 holes.")
    booker_id: GolferId = Field(description="Who booked.")
    player_ids: tuple[GolferId, ...] = Field(description="The players (booker included).")
    cart: bool = Field(False, description="Whether they take carts.")
    total: Cents = Field(0, description="Green and cart fees.")
    status: BookingStatus = Field("booked", description="booked, checked_in, completed, cancelled or no_show.")
    rain_check_applied: Cents = Field(0, description="Rain check credit used against the total.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was booked.")


class Block(Record):
    """Tee sheet time closed to bookings."""

    id: BlockId
    course_id: CourseId = Field(description="The course.")
    start_at: DateTime = Field(description="From.")
    end_at: DateTime = Field(description="Until.")
    reason: Literal["tournament", "league", "maintenance", "frost_delay", "event"] = Field(description="Why.")
    note: Text = Field("", description="Details.")
    created_by: Email = Field(description="The staff member who blocked it.")


class RainCheck(Record):
    """Credit for holes a group could not play."""

    id: RainCheckId
    booking_id: BookingId = Field(description="The booking rained out.")
    golfer_id: GolferId = Field(description="Who holds it (the booker).")
    holes_played: Annotated[int, Field(ge=0, le=17)] = Field(description="Holes played before stopping.")
    amount: Cents = Field(description="Credit for the unplayed holes.")
    expires_on: Date = Field(description="Last day it can be redeemed.")
    status: Literal["issued", "redeemed", "void"] = Field("issued", description="issued, redeemed or void.")
    redeemed_on_booking_id: BookingId | None = Field(None, description="The booking it paid toward.")
    created_at: Annotated[DateTime, CREATED] = Field(description="When it was issued.")


class Slot(Value):
    """A tee time on the sheet."""

    start_at: str
    players_booked: int
    spots_left: int
    blocked: bool


# -- rules ------------------------------------------------------------------------------------


def _guard_golfer(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Golfer, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"golfer {other.id} has e-mail {new.email}", field="email", hint="use that golfer")
    rc = ctx.get(RateClass, new.rate_class_id, field="rate_class_id")
    if rc.members_only and new.member_number is None:
        raise RuleViolation(f"{rc.name} is for members", field="rate_class_id", hint="give a member number first")


courses = service.resource(
    Course,
    name="course",
    plural="courses",
    prefix="crs",
    create=False,
    filters=("city",),
    search=("name",),
    update=("cart_fee", "interval_minutes"),
    delete=False,
)
rate_classes = service.resource(
    RateClass,
    name="rate_class",
    plural="rate_classes",
    prefix="rc",
    create=False,
    filters=("members_only",),
    search=("name",),
    update=("green_fee_18", "green_fee_9"),
    delete=False,
    title="rate class",
)
golfers = service.resource(
    Golfer,
    name="golfer",
    plural="golfers",
    prefix="glf",
    create=("name", "email", "phone", "rate_class_id", "member_number", "handicap"),
    filters=("email", "rate_class_id", "status", "member_number"),
    search=("name", "email"),
    update=("phone", "rate_class_id", "member_number", "handicap"),
    delete=False,
    transitions={
        "suspend": Transition("status", ("active",), "suspended", "suspend the golfer"),
        "reinstate": Transition("status", ("suspended",), "active", "reinstate the golfer"),
    },
    guard_create=_guard_golfer,
    guard_update=_guard_golfer,
)
bookings = service.resource(
    Booking,
    name="booking",
    plural="bookings",
    prefix="tt",
    create=False,
    filters=("course_id", "booker_id", "status", "holes"),
    delete=False,
    transitions={
        "complete": Transition("status", ("checked_in",), "completed", "mark the round completed"),
    },
    title="tee time booking",
)
blocks = service.resource(
    Block,
    name="block",
    plural="blocks",
    prefix="blk",
    create=False,
    get=False,
    filters=("course_id", "reason"),
    delete=True,
    title="tee sheet block",
)
rain_checks = service.resource(
    RainCheck,
    name="rain_check",
    plural="rain_checks",
    prefix="rain",
    create=False,
    filters=("golfer_id", "booking_id", "status"),
    delete=False,
    transitions={"void": Transition("status", ("issued",), "void", "void the rain check", destructive=True)},
    title="rain check",
)


# -- domain tools -----------------------------------------------------------------------------


def _fee(ctx: Ctx, golfer: Golfer, holes: int) -> int:
    rc = ctx.get(RateClass, golfer.rate_class_id)
    return rc.green_fee_18 if holes == 18 else rc.green_fee_9


def _check_slot(ctx: Ctx, course: Course, start: dt.datetime) -> None:
    if start <= ctx.now():
        raise RuleViolation("the tee time has passed", field="start_at", hint="pick a later tee time")
    minutes = start.hour * 60 + start.minute
    first, last = course.first_tee_hour * 60, course.last_tee_hour * 60
    if start.second or (minutes - first) % course.interval_minutes or not first <= minutes <= last:
        raise RuleViolation(
            f"tee times run {course.first_tee_hour}:00-{course.last_tee_hour}:00 every {course.interval_minutes} min",
            field="start_at",
            hint="pick a time on the tee sheet with golf__tee_sheet",
        )
    for b in ctx.where(Block, course_id=course.id):
        if b.start_at <= start < b.end_at:
            raise RuleViolation(f"the tee sheet is blocked ({b.reason})", field="start_at", hint="pick another time")


def _taken(ctx: Ctx, course_id: str, start: dt.datetime) -> list[Booking]:
    live = ("booked", "checked_in", "completed")
    return [b for b in ctx.where(Booking, course_id=course_id, start_at=start) if b.status in live]


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    course = ctx.first(Course)
    public = ctx.first(RateClass, members_only=False)
    golfer = None if public is None else ctx.first(Golfer, status="active", rate_class_id=public.id)
    if course is None or golfer is None:
        return None
    start = utc_at(ctx.today() + dt.timedelta(days=45), 9, 0)
    return {"course_id": course.id, "start_at": start.isoformat(), "booker_id": golfer.id, "holes": 18}


@service.tool(intent="book the tee time", write=True, example=_example_book)
def book_tee_time(
    ctx: Ctx,
    course_id: CourseId,
    start_at: DateTime,
    booker_id: GolferId,
    holes: Holes = 18,
    other_player_ids: tuple[GolferId, ...] = (),
    cart: bool = False,
) -> Booking:
    """Book a tee time for the booker and up to three others, priced by each player's rate class.

    Args:
        course_id: The course.
        start_at: The tee time (on the sheet's interval, inside its hours, not blocked, ahead).
        booker_id: The golfer booking (plays too).
        holes: 9 or 18.
        other_player_ids: The other players (up to three).
        cart: Whether the group takes carts (the cart fee per player).
    """
    course = ctx.get(Course, course_id, field="course_id")
    _check_slot(ctx, course, start_at)
    ids = (booker_id, *other_player_ids)
    if len(set(ids)) != len(ids):
        raise RuleViolation("a player is listed twice", field="other_player_ids", hint="list each golfer once")
    players = [ctx.get(Golfer, g, field="booker_id" if k == 0 else "other_player_ids") for k, g in enumerate(ids)]
    for k, p in enumerate(players):
        if p.status != "active":
            field = "booker_id" if k == 0 else "other_player_ids"
            raise RuleViolation(f"{p.name} is suspended", field=field, hint="reinstate the golfer first")
    there = _taken(ctx, course.id, start_at)
    booked = sum(len(b.player_ids) for b in there)
    if booked + len(ids) > MAX_PLAYERS:
        raise Conflict(
            f"the {start_at:%H:%M} tee time has {MAX_PLAYERS - booked} spots left",
            field="start_at",
            hint="pick another tee time or fewer players",
        )
    already = {g for b in there for g in b.player_ids} & set(ids)
    if already:
        raise Conflict(f"{sorted(already)} already play at this time", field="other_player_ids", hint="drop them")
    total = sum(_fee(ctx, p, holes) + (course.cart_fee if cart else 0) for p in players)
    return ctx.create(
        Booking,
        course_id=course.id,
        start_at=start_at,
        holes=holes,
        booker_id=booker_id,
        player_ids=ids,
        cart=cart,
        total=total,
    )


def _booking(ctx: Ctx, booking_id: str, *states: str) -> Booking:
    b = ctx.get(Booking, booking_id, field="booking_id")
    if b.status not in states:
        raise RuleViolation(f"the booking is {b.status}", field="booking_id", hint=f"only {' or '.join(states)} ones")
    return b


@service.tool(
    intent="check the group in at the pro shop",
    write=True,
    example=first_example(
        Booking, "booking_id", where={"status": "booked"}, match=lambda c, b: b.start_at.date() == c.today()
    ),
)
def check_in(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Check in a booked group on the day of its tee time.

    Args:
        booking_id: The booking.
    """
    b = _booking(ctx, booking_id, "booked")
    if b.start_at.date() != ctx.today():
        raise RuleViolation(f"the tee time is on {b.start_at.date()}", field="booking_id", hint="check in on the day")
    return ctx.update(b, status="checked_in")


@service.tool(
    intent="cancel the tee time",
    write=True,
    example=first_example(Booking, "booking_id", where={"status": "booked"}, match=lambda c, b: b.start_at > c.now()),
)
def cancel_booking(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Cancel a booked tee time before it starts; its spots return to the sheet.

    Args:
        booking_id: The booking.
    """
    b = _booking(ctx, booking_id, "booked")
    if b.start_at <= ctx.now():
        raise RuleViolation("the tee time has passed", field="booking_id", hint="mark it a no-show instead")
    for rc in ctx.where(RainCheck, redeemed_on_booking_id=b.id):
        ctx.update(rc, status="issued", redeemed_on_booking_id=None)
    return ctx.update(b, status="cancelled", rain_check_applied=0)


@service.tool(
    intent="mark the tee time a no-show",
    write=True,
    example=first_example(Booking, "booking_id", where={"status": "booked"}, match=lambda c, b: b.start_at <= c.now()),
)
def mark_no_show(ctx: Ctx, booking_id: BookingId) -> Booking:
    """Mark a booked group that did not show up after its tee time passed.

    Args:
        booking_id: The booking.
    """
    b = _booking(ctx, booking_id, "booked")
    if b.start_at > ctx.now():
        raise RuleViolation("the tee time is still ahead", field="booking_id", hint="wait for the tee time")
    return ctx.update(b, status="no_show")


@service.tool(
    intent="show the tee sheet",
    example=lambda ctx: (
        None if (c := ctx.first(Course)) is None else {"course_id": c.id, "day": ctx.today().isoformat()}
    ),
)
def tee_sheet(ctx: Ctx, course_id: CourseId, day: Date) -> list[Slot]:
    """The course's tee times on a day with players booked, spots left and blocks.

    Args:
        course_id: The course.
        day: The day.
    """
    course = ctx.get(Course, course_id, field="course_id")
    out: list[Slot] = []
    t = utc_at(day, course.first_tee_hour)
    end = utc_at(day, course.last_tee_hour)
    blocks_ = ctx.where(Block, course_id=course.id)
    while t <= end:
        n = sum(len(b.player_ids) for b in _taken(ctx, course.id, t))
        blocked = any(b.start_at <= t < b.end_at for b in blocks_)
        out.append(
            Slot(
                start_at=t.isoformat(), players_booked=n, spots_left=0 if blocked else MAX_PLAYERS - n, blocked=blocked
            )
        )
        t += dt.timedelta(minutes=course.interval_minutes)
    return out


@service.tool(
    intent="issue a rain check for the round",
    write=True,
    example=first_example(Booking, "booking_id", where={"status": "checked_in"}, holes_played=4),
)
def issue_rain_check(ctx: Ctx, booking_id: BookingId, holes_played: Annotated[int, Field(ge=0, le=17)]) -> RainCheck:
    """Issue the booker a rain check for the holes a checked-in or completed group could not play.

    Args:
        booking_id: The booking rained out.
        holes_played: Holes played before stopping (fewer than the booking's holes).
    """
    b = _booking(ctx, booking_id, "checked_in", "completed")
    if holes_played >= b.holes:
        raise RuleViolation(f"the round was {b.holes} holes", field="holes_played", hint="nothing is owed")
    if ctx.where(RainCheck, booking_id=b.id):
        raise Conflict("this booking already has a rain check", field="booking_id", hint="one per booking")
    green = sum(_fee(ctx, ctx.get(Golfer, g), b.holes) for g in b.player_ids)
    amount = round(green * (b.holes - holes_played) / b.holes)
    return ctx.create(
        RainCheck,
        booking_id=b.id,
        golfer_id=b.booker_id,
        holes_played=holes_played,
        amount=amount,
        expires_on=ctx.today() + dt.timedelta(days=RAIN_CHECK_DAYS),
    )


def _example_redeem(ctx: Ctx) -> dict[str, Any] | None:
    for rc in ctx.where(RainCheck, status="issued"):
        for b in ctx.where(Booking, booker_id=rc.golfer_id, status="booked"):
            if b.rain_check_applied == 0 and rc.expires_on >= ctx.today():
                return {"rain_check_id": rc.id, "booking_id": b.id}
    return None


@service.tool(intent="redeem the rain check", write=True, example=_example_redeem)
def redeem_rain_check(ctx: Ctx, rain_check_id: RainCheckId, booking_id: BookingId) -> Booking:
    """Apply an issued, unexpired rain check to a later booking of its holder; the credit lowers the total.

    Args:
        rain_check_id: The rain check.
        booking_id: A booked tee time of the same golfer with no rain check applied yet.
    """
    rc = ctx.get(RainCheck, rain_check_id, field="rain_check_id")
    if rc.status != "issued":
        raise RuleViolation(f"the rain check is {rc.status}", field="rain_check_id", hint="only issued ones")
    if rc.expires_on < ctx.today():
        raise RuleViolation(f"it expired on {rc.expires_on}", field="rain_check_id", hint="rain checks last 90 days")
    b = _booking(ctx, booking_id, "booked")
    if b.booker_id != rc.golfer_id:
        raise RuleViolation("the booking is another golfer's", field="booking_id", hint="use the holder's booking")
    if b.rain_check_applied:
        raise Conflict("a rain check is already applied", field="booking_id", hint="one per booking")
    credit = min(rc.amount, b.total)
    ctx.update(rc, status="redeemed", redeemed_on_booking_id=b.id)
    return ctx.update(b, rain_check_applied=credit)


def _example_block(ctx: Ctx) -> dict[str, Any] | None:
    course = ctx.first(Course)
    day = ctx.today() + dt.timedelta(days=30)
    return (
        None
        if course is None
        else {
            "course_id": course.id,
            "start_at": utc_at(day, 6).isoformat(),
            "end_at": utc_at(day, 9).isoformat(),
            "reason": "maintenance",
            "created_by": ctx.population.employees[0].email,
        }
    )


@service.tool(intent="block the tee sheet", write=True, example=_example_block)
def block_tee_sheet(
    ctx: Ctx,
    course_id: CourseId,
    start_at: DateTime,
    end_at: DateTime,
    reason: Literal["tournament", "league", "maintenance", "frost_delay", "event"],
    created_by: Email,
    note: Text = "",
) -> Block:
    """Close part of a course's tee sheet to bookings (tournament, league, aeration); no booked group may be inside.

    Args:
        course_id: The course.
        start_at: From.
        end_at: Until (after the start).
        reason: tournament, league, maintenance, frost_delay or event.
        created_by: The staff member blocking it.
        note: Details.
    """
    course = ctx.get(Course, course_id, field="course_id")
    if end_at <= start_at:
        raise RuleViolation("a block ends after it starts", field="end_at", hint="pick a later end")
    require_employee(ctx, created_by, field="created_by", hint="tee sheet blocks are made by course staff")
    for b in ctx.where(Booking, course_id=course.id, status="booked"):
        if start_at <= b.start_at < end_at:
            raise Conflict(f"booking {b.id} is at {b.start_at:%H:%M}", field="start_at", hint="move or cancel it")
    return ctx.create(
        Block, course_id=course.id, start_at=start_at, end_at=end_at, reason=reason, note=note, created_by=created_by
    )


# -- seed -------------------------------------------------------------------------------------

RATES: tuple[tuple[str, int, int, bool], ...] = (
    ("Public", 8500, 4800, False),
    ("Member", 0, 0, True),
    ("Senior", 6500, 3800, False),
    ("Junior", 3000, 1800, False),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two courses, four rate classes, golfers from consumers, bookings in every state, a block, rain checks."""
    pop = s.population
    places = [pop.home.place, *[p for p in pop.places if p.city != pop.home.place.city][:1]]
    made = [
        s.create(
            Course,
            name=f"{place.city} {'Links' if k else 'Country Club'}",
            city=place.city,
            currency=place.currency,
            phone=place.phone_prefix + f"{5550140 + k:07d}",
            interval_minutes=10 if k == 0 else 9,
        )
        for k, place in enumerate(places)
    ]
    rates = [s.create(RateClass, name=n, green_fee_18=f18, green_fee_9=f9, members_only=m) for n, f18, f9, m in RATES]
    golfers: list[Golfer] = []
    for k, p in enumerate(pop.consumers[:16]):
        rc = rates[k % 4]
        golfers.append(
            s.create(
                Golfer,
                name=p.name,
                email=p.email,
                phone=p.phone,
                rate_class_id=rc.id,
                member_number=f"M-{10400 + k}" if rc.members_only else None,
                handicap=round(s.rng.uniform(2, 30), 1),
                status="suspended" if k == 15 else "active",
                created_at=s.ago(days=500 - 20 * k),
            )
        )
    course = made[0]
    today = s.now.date()
    plan: tuple[tuple[int, int, int, int, BookingStatus], ...] = (
        (-1, 8, 0, 4, "completed"),
        (-1, 9, 4, 2, "no_show"),
        (-1, 10, 10, 2, "booked"),
        (0, 7, 1, 3, "checked_in"),
        (0, 15, 5, 2, "booked"),
        (1, 8, 2, 4, "booked"),
        (2, 10, 6, 1, "booked"),
        (3, 11, 8, 2, "cancelled"),
        (4, 9, 0, 3, "booked"),
    )
    for day, hour, g, n, status in plan:
        players = tuple(golfers[(g + j) % 15] for j in range(n))
        holes: Holes = 9 if hour >= 15 else 18
        s.create(
            Booking,
            course_id=course.id,
            start_at=utc_at(today + dt.timedelta(days=day), hour),
            holes=holes,
            booker_id=players[0].id,
            player_ids=tuple(p.id for p in players),
            cart=g % 2 == 0,
            total=sum(
                (rates[golfers.index(p) % 4].green_fee_18 if holes == 18 else rates[golfers.index(p) % 4].green_fee_9)
                + (course.cart_fee if g % 2 == 0 else 0)
                for p in players
            ),
            status=status,
            created_at=s.ago(days=7),
        )
    s.create(
        Block,
        course_id=course.id,
        start_at=utc_at(today + dt.timedelta(days=5), 7),
        end_at=utc_at(today + dt.timedelta(days=5), 13),
        reason="tournament",
        note="Member-guest shotgun start",
        created_by=pop.staff("Operations", fallback=2)[0].email,
    )
    done = next(b for b in s.records(Booking) if b.status == "completed")
    s.create(
        RainCheck,
        booking_id=done.id,
        golfer_id=done.booker_id,
        holes_played=9,
        amount=round(done.total / 4),
        expires_on=today + dt.timedelta(days=RAIN_CHECK_DAYS - 1),
        created_at=s.ago(days=1),
    )
