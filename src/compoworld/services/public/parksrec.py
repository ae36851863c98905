"""Greenway Parks & Rec: recreation programs, enrollments with waitlists, and facility rentals.

Modeled on Active Network's ActiveNet (and CivicRec): customers (residents and
non-residents) with a liability waiver, activities with an activity number,
age range, capacity and separate resident and non-resident fees, enrollments
that go on the waitlist when the activity is full and are promoted when a
seat frees up, withdrawals refunded in full until the activity starts, and
facility reservations (pavilions, fields, gyms, rooms) charged by the hour
with a resident discount, approved by staff, never overlapping another
reservation of the same facility and never above the facility's capacity.
An activity takes enrollments only while open, from participants within its
age range on its first day who signed the waiver when it asks for one.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, FirstName, IdOf, LastName, Phone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import age_on, utc_at

__all__ = ["service"]

service = Service(
    "parksrec",
    title="Greenway Parks & Rec",
    category="parks_recreation",
    modeled_on="Active Network ActiveNet and CivicRec: customers with waivers and residency, activities with "
    "age limits, capacity and resident fees, enrollments and waitlists, facility reservations",
    description="The city's parks and recreation department: swim lessons, camps, leagues and classes with "
    "their enrollments and waitlists, and rentals of pavilions, fields, gyms and rooms.",
)

CustomerId = Annotated[str, IdOf("parksrec.customer")]
ActivityId = Annotated[str, IdOf("parksrec.activity")]
EnrollmentId = Annotated[str, IdOf("parksrec.enrollment")]
FacilityId = Annotated[str, IdOf("parksrec.facility")]
ReservationId = Annotated[str, IdOf("parksrec.reservation")]

ActivityNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}-\d{4}$")]
"""The activity number printed in the program guide, e.g. AQ-1204."""
Age = Annotated[int, Field(ge=0, le=99)]

Category = Literal["aquatics", "camps", "sports", "fitness", "arts", "seniors"]
ActivityStatus = Literal["open", "closed", "cancelled"]
EnrollmentStatus = Literal["enrolled", "waitlisted", "withdrawn"]
FacilityKind = Literal["pavilion", "field", "gym", "pool", "room"]
ReservationStatus = Literal["tentative", "approved", "cancelled"]

RESIDENT_RENTAL_DISCOUNT = 25
"""Percent off facility rentals for residents."""
MAX_RENTAL = dt.timedelta(hours=12)
WAIVER_YEARS = 1


class Customer(Timestamped):
    """A customer account (a participant or the adult who rents)."""

    id: CustomerId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Phone."""
    birth_date: Date
    """Date of birth (age limits are checked against it)."""
    resident: bool = False
    """Whether they live in the city (resident fees and rental discount)."""
    waiver_signed_on: Date | None = None
    """When the liability waiver was last signed; it is good for a year."""


class Activity(Timestamped):
    """A program session: a class, camp week, league or lesson series."""

    id: ActivityId
    activity_number: ActivityNumber
    """Its number in the program guide (unique)."""
    name: Title
    """Its name."""
    category: Category
    """aquatics, camps, sports, fitness, arts or seniors."""
    facility_id: FacilityId
    """Where it meets."""
    starts_on: Date
    """First meeting."""
    ends_on: Date
    """Last meeting."""
    min_age: Age = 0
    """Youngest age on the first day."""
    max_age: Age = 99
    """Oldest age on the first day."""
    capacity: Annotated[int, Field(ge=1, le=500)]
    """Seats."""
    enrolled: int = 0
    """Enrolled participants."""
    waitlisted: int = 0
    """Participants on the waitlist."""
    resident_fee_cents: Cents
    """Fee for residents."""
    fee_cents: Cents
    """Fee for non-residents."""
    requires_waiver: bool = False
    """Whether a waiver signed within the year is needed."""
    instructor_email: Email | None = None
    """The staff instructor."""
    status: ActivityStatus = "open"
    """open (taking enrollments), closed or cancelled."""


class Enrollment(Timestamped):
    """A customer's enrollment in an activity."""

    id: EnrollmentId
    activity_id: ActivityId
    """The activity."""
    activity_number: ActivityNumber
    """Its number."""
    customer_id: CustomerId
    """The participant."""
    customer_email: Email
    """The participant's e-mail."""
    status: EnrollmentStatus = "enrolled"
    """enrolled, waitlisted or withdrawn."""
    fee_cents: Cents = 0
    """What was charged (0 while waitlisted)."""
    refund_cents: Cents = 0
    """What was refunded on withdrawal."""


class Facility(Timestamped):
    """A rentable facility."""

    id: FacilityId
    name: Title
    """Its name."""
    park: Title
    """The park or center it is in."""
    kind: FacilityKind
    """pavilion, field, gym, pool or room."""
    capacity: Annotated[int, Field(ge=1, le=5000)]
    """Most people allowed."""
    hourly_rate_cents: Cents
    """Rental rate per hour (residents get 25% off)."""
    rentable: bool = True
    """Whether it is open for rentals."""


class Reservation(Timestamped):
    """A facility rental."""

    id: ReservationId
    facility_id: FacilityId
    """The facility."""
    customer_email: Email
    """The renter's e-mail."""
    event_name: Title
    """What it is for."""
    starts_at: DateTime
    """Start."""
    ends_at: DateTime
    """End."""
    attendees: Annotated[int, Field(ge=1, le=5000)]
    """Expected attendance."""
    fee_cents: Cents
    """Rental fee."""
    status: ReservationStatus = "tentative"
    """tentative (awaiting approval), approved or cancelled."""


class Quote(Value):
    """The fee of a prospective rental."""

    facility_id: FacilityId
    """The facility."""
    hours: float
    """Hours booked."""
    resident: bool
    """Whether the resident discount applies."""
    fee_cents: int
    """The fee."""
    available: bool
    """Whether the facility is free then."""


# -- rules ------------------------------------------------------------------------------------


def _guard_customer(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.email != old.email:
        dup = ctx.first(Customer, email=new.email)
        if dup is not None and dup.id != new.id:
            raise Conflict(f"customer {dup.id} already uses {new.email}", field="email", hint="use that account")


def _guard_activity(ctx: Ctx, new: Any, old: Any) -> None:
    if new.capacity < new.enrolled:
        raise RuleViolation(
            f"{new.enrolled} participants are enrolled", field="capacity", hint="capacity cannot go below that"
        )
    if new.status == "cancelled" and old.status != "cancelled":
        raise RuleViolation(
            "cancelling refunds every enrollment", field="activity_id", hint="use parksrec__cancel_activity"
        )


def _customer(ctx: Ctx, email: str, field: str) -> Customer:
    found = ctx.first(Customer, email=email)
    if found is None:
        raise RuleViolation(
            f"no customer account for {email}", field=field, hint="create one with parksrec__create_customer"
        )
    return found


customers = service.resource(
    Customer,
    name="customer",
    plural="customers",
    prefix="cus",
    create=("first_name", "last_name", "email", "phone", "birth_date", "resident"),
    filters=("email", "last_name", "resident"),
    search=("first_name", "last_name"),
    update=("email", "phone", "resident"),
    delete=False,
    guard_create=_guard_customer,
    guard_update=_guard_customer,
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    create=False,
    filters=("activity_number", "category", "status", "facility_id", "instructor_email"),
    search=("name",),
    update=("capacity", "instructor_email", "resident_fee_cents", "fee_cents"),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the activity for enrollment"),
        "reopen": Transition("status", ("closed",), "open", "reopen the activity for enrollment"),
    },
    guard_update=_guard_activity,
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="enr",
    create=False,
    filters=("activity_id", "activity_number", "customer_id", "customer_email", "status"),
    delete=False,
)
facilities = service.resource(
    Facility,
    name="facility",
    plural="facilities",
    prefix="fac",
    create=False,
    filters=("kind", "park", "rentable"),
    search=("name", "park"),
    update=("hourly_rate_cents", "rentable", "capacity"),
    delete=False,
    title="facility",
)
reservations = service.resource(
    Reservation,
    name="reservation",
    plural="reservations",
    prefix="rsv",
    create=False,
    filters=("facility_id", "customer_email", "status"),
    search=("event_name",),
    delete=False,
    transitions={
        "approve": Transition("status", ("tentative",), "approved", "approve the facility reservation"),
        "cancel": Transition("status", ("tentative", "approved"), "cancelled", "cancel the facility reservation"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="record the customer's signed waiver",
    write=True,
    example=first_example(Customer, None, where={"waiver_signed_on": None}, fields={"email": "email"}),
)
def sign_waiver(ctx: Ctx, email: Email) -> Customer:
    """Record that a customer signed the liability waiver today (good for a year).

    Args:
        email: The customer's e-mail.
    """
    return ctx.update(_customer(ctx, email, "email"), waiver_signed_on=ctx.today())


def _example_activity(ctx: Ctx) -> dict[str, Any] | None:
    fac = ctx.first(Facility, kind="room")
    start = ctx.today() + dt.timedelta(days=21)
    return (
        None
        if fac is None
        else {
            "activity_number": "AR-7001",
            "name": "Watercolor for Beginners",
            "category": "arts",
            "facility_id": fac.id,
            "starts_on": start.isoformat(),
            "weeks": 6,
            "capacity": 12,
            "resident_fee_cents": 6000,
            "fee_cents": 8000,
            "min_age": 16,
        }
    )


@service.tool(intent="add the activity to the program guide", write=True, example=_example_activity)
def create_activity(
    ctx: Ctx,
    activity_number: ActivityNumber,
    name: Title,
    category: Category,
    facility_id: FacilityId,
    starts_on: Date,
    weeks: Annotated[int, Field(ge=1, le=52)],
    capacity: Annotated[int, Field(ge=1, le=500)],
    resident_fee_cents: Cents,
    fee_cents: Cents,
    min_age: Age = 0,
    max_age: Age = 99,
    requires_waiver: bool = False,
    instructor_email: Email | None = None,
) -> Activity:
    """Add an activity open for enrollment; the non-resident fee is at least the resident fee.

    Args:
        activity_number: Its number (two letters, a dash, four digits; unique).
        name: Its name.
        category: aquatics, camps, sports, fitness, arts or seniors.
        facility_id: Where it meets.
        starts_on: First meeting (in the future).
        weeks: How many weekly meetings.
        capacity: Seats.
        resident_fee_cents: Fee for residents.
        fee_cents: Fee for non-residents.
        min_age: Youngest age on the first day.
        max_age: Oldest age on the first day.
        requires_waiver: Whether a signed waiver is needed.
        instructor_email: The staff instructor.
    """
    if ctx.first(Activity, activity_number=activity_number) is not None:
        raise Conflict(f"activity {activity_number} exists", field="activity_number", hint="pick another number")
    ctx.get(Facility, facility_id, field="facility_id")
    if starts_on <= ctx.today():
        raise RuleViolation("an activity starts in the future", field="starts_on", hint="pick a later date")
    if min_age > max_age:
        raise RuleViolation("min_age is above max_age", field="min_age", hint="swap the ages")
    if fee_cents < resident_fee_cents:
        raise RuleViolation("non-residents never pay less", field="fee_cents", hint="raise the non-resident fee")
    return ctx.create(
        Activity,
        activity_number=activity_number,
        name=name,
        category=category,
        facility_id=facility_id,
        starts_on=starts_on,
        ends_on=starts_on + dt.timedelta(weeks=weeks - 1),
        min_age=min_age,
        max_age=max_age,
        capacity=capacity,
        resident_fee_cents=resident_fee_cents,
        fee_cents=fee_cents,
        requires_waiver=requires_waiver,
        instructor_email=instructor_email,
    )


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Activity, status="open", requires_waiver=False):
        for c in ctx.scan(Customer):
            fits = a.min_age <= age_on(c.birth_date, a.starts_on) <= a.max_age
            if fits and ctx.first(Enrollment, activity_id=a.id, customer_id=c.id) is None:
                return {"activity_number": a.activity_number, "email": c.email}
    return None


@service.tool(intent="enroll the customer in the activity", write=True, example=_example_enroll)
def enroll(ctx: Ctx, activity_number: ActivityNumber, email: Email) -> Enrollment:
    """Enroll a customer in an open activity, or put them on its waitlist when it is full.

    Args:
        activity_number: The activity's number.
        email: The participant's e-mail.
    """
    act = ctx.first(Activity, activity_number=activity_number)
    if act is None:
        raise RuleViolation(f"no activity {activity_number}", field="activity_number", hint="search the activities")
    if act.status != "open":
        raise RuleViolation(f"activity {activity_number} is {act.status}", field="activity_number", hint="pick another")
    cust = _customer(ctx, email, "email")
    age = age_on(cust.birth_date, act.starts_on)
    if not act.min_age <= age <= act.max_age:
        raise RuleViolation(
            f"{act.name} is for ages {act.min_age}-{act.max_age}; the participant will be {age}",
            field="email",
            hint="pick an activity for the participant's age",
        )
    if act.requires_waiver and (
        cust.waiver_signed_on is None
        or cust.waiver_signed_on.replace(year=cust.waiver_signed_on.year + 1) < ctx.today()
    ):
        raise RuleViolation(
            "this activity needs a liability waiver signed within the year",
            field="email",
            hint="record the waiver with parksrec__sign_waiver first",
        )
    for e in ctx.where(Enrollment, activity_id=act.id, customer_id=cust.id):
        if e.status != "withdrawn":
            raise Conflict(f"{email} is already {e.status} ({e.id})", field="email", hint="nothing to do")
    fee = act.resident_fee_cents if cust.resident else act.fee_cents
    if act.enrolled < act.capacity:
        ctx.update(act, enrolled=act.enrolled + 1)
        status: EnrollmentStatus = "enrolled"
    else:
        ctx.update(act, waitlisted=act.waitlisted + 1)
        status, fee = "waitlisted", 0
    return ctx.create(
        Enrollment,
        activity_id=act.id,
        activity_number=act.activity_number,
        customer_id=cust.id,
        customer_email=cust.email,
        status=status,
        fee_cents=fee,
    )


def _leave(ctx: Ctx, act: Activity, e: Enrollment, refund: int) -> Enrollment:
    done = ctx.update(e, status="withdrawn", refund_cents=refund)
    if e.status == "waitlisted":
        ctx.update(act, waitlisted=act.waitlisted - 1)
        return done
    act = ctx.update(act, enrolled=act.enrolled - 1)
    waiting = ctx.where(Enrollment, activity_id=act.id, status="waitlisted")
    if waiting and act.status == "open":
        nxt = waiting[0]
        cust = ctx.get(Customer, nxt.customer_id)
        ctx.update(nxt, status="enrolled", fee_cents=act.resident_fee_cents if cust.resident else act.fee_cents)
        ctx.update(act, enrolled=act.enrolled + 1, waitlisted=act.waitlisted - 1)
    return done


@service.tool(
    intent="withdraw the enrollment",
    write=True,
    example=first_example(Enrollment, "enrollment_id", where={"status": "enrolled"}),
)
def withdraw(ctx: Ctx, enrollment_id: EnrollmentId) -> Enrollment:
    """Withdraw an enrollment: refunded in full before the activity starts; the first waitlisted moves up.

    Args:
        enrollment_id: The enrollment.
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status == "withdrawn":
        raise Conflict(f"enrollment {e.id} is already withdrawn", field="enrollment_id", hint="nothing to do")
    act = ctx.get(Activity, e.activity_id)
    refund = e.fee_cents if ctx.today() < act.starts_on else 0
    return _leave(ctx, act, e, refund)


@service.tool(
    intent="cancel the activity",
    write=True,
    example=first_example(Activity, "activity_id", where={"status": "open"}),
)
def cancel_activity(ctx: Ctx, activity_id: ActivityId) -> Activity:
    """Cancel an activity that has not ended: every enrollment is withdrawn and refunded in full.

    Args:
        activity_id: The activity.
    """
    act = ctx.get(Activity, activity_id, field="activity_id")
    if act.status == "cancelled" or act.ends_on < ctx.today():
        raise Conflict(
            f"activity {act.activity_number} is {act.status if act.status == 'cancelled' else 'over'}",
            field="activity_id",
            hint="nothing to cancel",
        )
    for e in ctx.where(Enrollment, activity_id=act.id):
        if e.status != "withdrawn":
            ctx.update(e, status="withdrawn", refund_cents=e.fee_cents)
    return ctx.update(act, status="cancelled", enrolled=0, waitlisted=0)


def _rental_fee(fac: Facility, hours: float, resident: bool) -> int:
    fee = round(fac.hourly_rate_cents * hours)
    return fee * (100 - RESIDENT_RENTAL_DISCOUNT) // 100 if resident else fee


def _clash(ctx: Ctx, facility_id: str, start: dt.datetime, end: dt.datetime) -> Reservation | None:
    for r in ctx.where(Reservation, facility_id=facility_id):
        if r.status != "cancelled" and r.starts_at < end and start < r.ends_at:
            return r
    return None


def _window(ctx: Ctx, facility_id: str, starts_at: dt.datetime, hours: float) -> tuple[Facility, dt.datetime]:
    fac = ctx.get(Facility, facility_id, field="facility_id")
    if not fac.rentable:
        raise RuleViolation(f"{fac.name} is not open for rentals", field="facility_id", hint="pick another facility")
    end = starts_at + dt.timedelta(hours=hours)
    if hours <= 0 or end - starts_at > MAX_RENTAL:
        raise RuleViolation("a rental lasts up to 12 hours", field="hours", hint="book a shorter time")
    if starts_at <= ctx.now():
        raise RuleViolation("a rental starts in the future", field="starts_at", hint="pick a later time")
    return fac, end


@service.tool(
    intent="quote the facility rental",
    example=first_example(Facility, "facility_id", where={"rentable": True}, starts_at="2031-06-01T15:00:00Z", hours=3),
)
def quote_rental(
    ctx: Ctx, facility_id: FacilityId, starts_at: DateTime, hours: float, email: Email | None = None
) -> Quote:
    """The fee of renting a facility, with the resident discount for a resident's e-mail, and if it is free.

    Args:
        facility_id: The facility.
        starts_at: Start.
        hours: Hours (up to 12).
        email: The renter's e-mail (residents get 25% off).
    """
    fac, end = _window(ctx, facility_id, starts_at, hours)
    cust = ctx.first(Customer, email=email) if email else None
    resident = cust is not None and cust.resident
    return Quote(
        facility_id=fac.id,
        hours=hours,
        resident=resident,
        fee_cents=_rental_fee(fac, hours, resident),
        available=_clash(ctx, fac.id, starts_at, end) is None,
    )


def _example_reserve(ctx: Ctx) -> dict[str, Any] | None:
    fac = ctx.first(Facility, kind="pavilion", rentable=True)
    cust = ctx.first(Customer, resident=True)
    if fac is None or cust is None:
        return None
    start = utc_at(ctx.today() + dt.timedelta(days=200), 14)
    return {
        "facility_id": fac.id,
        "email": cust.email,
        "event_name": "Family reunion picnic",
        "starts_at": start.isoformat(),
        "hours": 4,
        "attendees": min(40, fac.capacity),
    }


@service.tool(intent="reserve the facility", write=True, example=_example_reserve)
def reserve_facility(
    ctx: Ctx,
    facility_id: FacilityId,
    email: Email,
    event_name: Title,
    starts_at: DateTime,
    hours: float,
    attendees: Annotated[int, Field(ge=1, le=5000)],
) -> Reservation:
    """Request a facility rental (tentative until approved); it may not overlap another or exceed capacity.

    Args:
        facility_id: The facility.
        email: The renter's customer e-mail.
        event_name: What it is for.
        starts_at: Start (in the future).
        hours: Hours (up to 12).
        attendees: Expected attendance.
    """
    fac, end = _window(ctx, facility_id, starts_at, hours)
    cust = _customer(ctx, email, "email")
    if attendees > fac.capacity:
        raise RuleViolation(f"{fac.name} holds {fac.capacity}", field="attendees", hint="pick a larger facility")
    other = _clash(ctx, fac.id, starts_at, end)
    if other is not None:
        raise Conflict(
            f"{fac.name} is reserved {other.starts_at:%Y-%m-%d %H:%M}-{other.ends_at:%H:%M} ({other.id})",
            field="starts_at",
            hint="quote another time with parksrec__quote_rental",
        )
    return ctx.create(
        Reservation,
        facility_id=fac.id,
        customer_email=cust.email,
        event_name=event_name,
        starts_at=starts_at,
        ends_at=end,
        attendees=attendees,
        fee_cents=_rental_fee(fac, hours, cust.resident),
    )


# -- seed -------------------------------------------------------------------------------------

FACILITIES: tuple[tuple[str, str, FacilityKind, int, int], ...] = (
    ("Lakeside Pavilion", "Riverside Park", "pavilion", 120, 4500),
    ("Diamond 2", "Riverside Park", "field", 60, 3500),
    ("Main Gym", "Eastgate Recreation Center", "gym", 200, 7500),
    ("Craft Room", "Eastgate Recreation Center", "room", 25, 2500),
    ("Natatorium", "Westbrook Aquatic Center", "pool", 150, 12000),
)
ACTIVITIES: tuple[tuple[str, str, Category, int, int, int, int, int, bool, int], ...] = (
    # number, name, category, facility, min, max, capacity, resident fee, waiver, days until start
    ("AQ-1204", "Learn to Swim Level 2", "aquatics", 4, 5, 8, 8, 6500, True, 12),
    ("CA-2210", "Summer Adventure Camp Week 1", "camps", 0, 6, 12, 4, 18500, True, 30),
    ("SP-3105", "Adult Coed Softball League", "sports", 1, 18, 99, 14, 9500, True, 20),
    ("FT-4001", "Sunrise Yoga", "fitness", 3, 16, 99, 15, 5500, False, -14),
    ("AR-5050", "Pottery Wheel Basics", "arts", 3, 14, 99, 10, 7200, False, 9),
    ("SN-6020", "Senior Walking Club", "seniors", 2, 55, 99, 30, 0, False, 5),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Facilities, the world's people as customers, a program guide with enrollments and waitlists, rentals."""
    pop = s.population
    today = s.now.date()
    facs = [
        s.create(
            Facility,
            name=name,
            park=park,
            kind=kind,
            capacity=cap,
            hourly_rate_cents=rate,
            created_at=s.ago(days=900),
            updated_at=s.ago(days=60),
        )
        for name, park, kind, cap, rate in FACILITIES
    ]
    people = list(pop.consumers[:30]) + list(pop.employees[:8])
    custs = [
        s.create(
            Customer,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            resident=k % 3 != 2,
            waiver_signed_on=today - dt.timedelta(days=20 + 9 * k) if k % 4 else None,
            created_at=s.ago(days=700 - 11 * k),
            updated_at=s.ago(days=30),
        )
        for k, p in enumerate(people)
    ]
    staff = pop.staff("People", "Support", fallback=3)
    for n, (num, name, cat, fac, lo, hi, cap, fee, waiver, days) in enumerate(ACTIVITIES):
        start = today + dt.timedelta(days=days)
        act = s.create(
            Activity,
            activity_number=num,
            name=name,
            category=cat,
            facility_id=facs[fac].id,
            starts_on=start,
            ends_on=start + dt.timedelta(weeks=7),
            min_age=lo,
            max_age=hi,
            capacity=cap,
            resident_fee_cents=fee,
            fee_cents=fee + fee // 4,
            requires_waiver=waiver,
            instructor_email=staff[n % len(staff)].email,
            status="closed" if days < 0 else "open",
            created_at=s.ago(days=60),
            updated_at=s.ago(days=10),
        )
        enrolled = waitlisted = 0
        for c in custs:
            if not lo <= age_on(c.birth_date, start) <= hi or (waiver and c.waiver_signed_on is None):
                continue
            if enrolled + waitlisted >= cap + 2 or s.rng.random() < 0.5:
                continue
            full = enrolled >= cap
            s.create(
                Enrollment,
                activity_id=act.id,
                activity_number=num,
                customer_id=c.id,
                customer_email=c.email,
                status="waitlisted" if full else "enrolled",
                fee_cents=0 if full else (fee if c.resident else fee + fee // 4),
                created_at=s.ago(days=25),
                updated_at=s.ago(days=25),
            )
            if full:
                waitlisted += 1
            else:
                enrolled += 1
        s.update(act, enrolled=enrolled, waitlisted=waitlisted)
    for k, (fac, days, hours, status) in enumerate(
        ((0, 10, 4, "approved"), (0, 17, 5, "tentative"), (2, 6, 3, "approved"), (1, 12, 2, "cancelled"))
    ):
        c = custs[k * 3]
        start = utc_at(today + dt.timedelta(days=days), 11)
        s.create(
            Reservation,
            facility_id=facs[fac].id,
            customer_email=c.email,
            event_name=("Birthday party", "Church picnic", "Charity basketball game", "Pickup softball")[k],
            starts_at=start,
            ends_at=start + dt.timedelta(hours=hours),
            attendees=min(40, FACILITIES[fac][3]),
            fee_cents=_rental_fee(facs[fac], hours, c.resident),
            status=status,
            created_at=s.ago(days=15),
            updated_at=s.ago(days=3),
        )
