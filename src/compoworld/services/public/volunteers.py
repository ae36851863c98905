"""Helping Hands Volunteer Hub: volunteers, opportunities and their shifts, sign-ups, attendance and hours.

Modeled on the VolunteerHub API v2 (users with custom form answers and
waivers, events with slots and capacity, registrations with waitlists,
attendance, and volunteer hours with approval) and the Golden volunteer
management API (opportunities, shifts, sign-ups, hour logs). Opportunities are
drafts until published and take no sign-ups once closed. A shift lasts at most
twelve hours and starts in the future. A sign-up needs an active volunteer, a
shift that has not started, the opportunity's minimum age on the shift's day,
a liability waiver signed within the year before the shift when the
opportunity asks for one, a cleared background check when it asks for one, and
no other confirmed shift of the volunteer overlapping it; a volunteer signs up
for a shift once. A full shift puts sign-ups on its waitlist (or refuses them)
and a cancellation promotes the first waitlisted volunteer. Attendance is
recorded once the shift has started; hours are logged once per attended
sign-up, never more than the shift lasted, and wait for a coordinator's
approval.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import City, Date, DateTime, Email, FirstName, IdOf, LastName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value
from compoworld.services.kit.time import age_on, utc_at

__all__ = ["service"]

service = Service(
    "volunteers",
    title="Helping Hands Volunteer Hub",
    category="volunteer_management",
    modeled_on="VolunteerHub API v2 (users, waivers, events with slots and capacity, registrations with "
    "waitlists, attendance, volunteer hours approval) and the Golden volunteer management API (opportunities, "
    "shifts, sign-ups, hour logs)",
    description="The community volunteering program: volunteer profiles with waivers and background checks, "
    "opportunities with shifts and capacity, sign-ups with waitlists, attendance, and logged hours that "
    "coordinators approve.",
)

VolunteerId = Annotated[str, IdOf("volunteers.volunteer")]
OpportunityId = Annotated[str, IdOf("volunteers.opportunity")]
ShiftId = Annotated[str, IdOf("volunteers.shift")]
SignupId = Annotated[str, IdOf("volunteers.signup")]
HourEntryId = Annotated[str, IdOf("volunteers.hour_entry")]

Check = Literal["none", "pending", "cleared", "failed"]
SignupStatus = Literal["confirmed", "waitlisted", "cancelled", "attended", "no_show"]
Summary = Annotated[str, StringConstraints(min_length=1, max_length=2000, strip_whitespace=True)]

WAIVER_VALIDITY = dt.timedelta(days=365)
MAX_SHIFT = dt.timedelta(hours=12)
BUSY: frozenset[str] = frozenset({"confirmed", "attended"})


class Volunteer(Timestamped):
    """A volunteer's profile."""

    id: VolunteerId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail; unique among volunteers."""
    phone: Phone | None = None
    """Mobile phone for shift reminders."""
    birth_date: Date
    """Date of birth (minimum ages are checked against it)."""
    status: Literal["active", "inactive"] = "active"
    """active or inactive (no sign-ups)."""
    waiver_signed_on: Date | None = None
    """When the liability waiver was last signed; it covers shifts within a year."""
    background_check: Check = "none"
    """none, pending, cleared or failed."""
    city: City | None = None
    """Where they live."""


class Opportunity(Timestamped):
    """A volunteer opportunity (an event or ongoing role) that has shifts."""

    id: OpportunityId
    title: Title
    """What volunteers do."""
    description: Text = ""
    """Details for volunteers."""
    city: City
    """Where it happens."""
    coordinator_email: Email
    """The staff coordinator who approves hours."""
    min_age: Annotated[int, Field(ge=0, le=21)] = 0
    """Minimum age on the shift's day."""
    requires_waiver: bool = False
    """Whether a liability waiver signed within the year is needed."""
    requires_background_check: bool = False
    """Whether a cleared background check is needed (work with minors or patients)."""
    status: Literal["draft", "published", "closed"] = "draft"
    """draft, published (open for sign-ups) or closed."""


class Shift(Created):
    """A time slot of an opportunity with a capacity."""

    id: ShiftId
    opportunity_id: OpportunityId
    """The opportunity."""
    starts_at: DateTime
    """Start."""
    ends_at: DateTime
    """End."""
    capacity: Annotated[int, Field(ge=1, le=500)]
    """How many volunteers it takes."""
    confirmed_count: int = 0
    """Confirmed (or attended) volunteers."""
    waitlist_count: int = 0
    """Volunteers on its waitlist."""


class Signup(Timestamped):
    """A volunteer's sign-up for a shift."""

    id: SignupId
    shift_id: ShiftId
    """The shift."""
    volunteer_id: VolunteerId
    """The volunteer."""
    opportunity_id: OpportunityId
    """The shift's opportunity."""
    volunteer_email: Email
    """The volunteer's e-mail."""
    status: SignupStatus = "confirmed"
    """confirmed, waitlisted, cancelled, attended or no_show."""
    waitlist_position: int | None = None
    """Place on the waitlist (1 first)."""


class HourEntry(Created):
    """Hours a volunteer served on an attended shift, waiting for approval."""

    id: HourEntryId
    signup_id: SignupId
    """The attended sign-up."""
    volunteer_id: VolunteerId
    """The volunteer."""
    opportunity_id: OpportunityId
    """The opportunity."""
    served_on: Date
    """The shift's day."""
    hours: float
    """Hours served."""
    note: Text = ""
    """What they did."""
    status: Literal["pending", "approved", "rejected"] = "pending"
    """pending, approved or rejected."""
    reviewed_on: Date | None = None
    """When a coordinator approved or rejected it."""


class HoursSummary(Value):
    """A volunteer's service record."""

    volunteer_id: VolunteerId
    """The volunteer."""
    email: Email
    """Their e-mail."""
    approved_hours: float
    """Approved hours."""
    pending_hours: float
    """Hours waiting for approval."""
    shifts_attended: int
    """Shifts attended."""
    no_shows: int
    """Shifts missed."""
    upcoming_shifts: int
    """Confirmed shifts ahead."""


# -- guards -----------------------------------------------------------------------------------


def _guard_volunteer(ctx: Ctx, new: Any, old: Any) -> None:
    for other in ctx.where(Volunteer, email=new.email):
        if other.id != new.id:
            raise Conflict(
                f"{new.email} is already a volunteer ({other.id})", field="email", hint="use the existing profile"
            )
    if new.birth_date >= ctx.today():
        raise RuleViolation("the birth date must be in the past", field="birth_date", hint="check the date")


def _guard_opportunity(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "published" and old.status == "draft" and not ctx.where(Shift, opportunity_id=new.id):
        raise RuleViolation(
            f"{new.title} has no shifts", field="opportunity_id", hint="add one with volunteers__create_shift first"
        )


def _guard_hours(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status != old.status:
        ctx.update(new, reviewed_on=ctx.today())


volunteers = service.resource(
    Volunteer,
    name="volunteer",
    plural="volunteers",
    prefix="vol",
    create=("first_name", "last_name", "email", "phone", "birth_date", "city"),
    get=False,
    filters=("email", "status", "background_check", "city"),
    search=("first_name", "last_name"),
    delete=False,
    guard_create=_guard_volunteer,
)
opportunities = service.resource(
    Opportunity,
    name="opportunity",
    plural="opportunities",
    prefix="opp",
    create=(
        "title",
        "description",
        "city",
        "coordinator_email",
        "min_age",
        "requires_waiver",
        "requires_background_check",
    ),
    get=False,
    filters=("status", "city", "coordinator_email"),
    search=("title", "description"),
    delete=False,
    transitions={
        "publish": Transition(
            "status",
            ("draft",),
            "published",
            "publish the opportunity",
            description="Open a draft opportunity (with at least one shift) for sign-ups.",
        ),
        "close": Transition(
            "status",
            ("draft", "published"),
            "closed",
            "close the opportunity",
            description="Close the opportunity: it takes no more sign-ups or shifts.",
            destructive=True,
        ),
    },
    guard_update=_guard_opportunity,
)
shifts = service.resource(
    Shift,
    name="shift",
    plural="shifts",
    prefix="shf",
    create=False,
    get=False,
    filters=("opportunity_id",),
    delete=False,
)
signups = service.resource(
    Signup,
    name="signup",
    plural="signups",
    prefix="sgn",
    create=False,
    get=False,
    filters=("shift_id", "volunteer_id", "opportunity_id", "volunteer_email", "status"),
    delete=False,
)
hour_entries = service.resource(
    HourEntry,
    name="hour_entry",
    plural="hour_entries",
    prefix="hrs",
    create=False,
    get=False,
    filters=("volunteer_id", "opportunity_id", "status", "signup_id"),
    delete=False,
    transitions={
        "approve": Transition(
            "status", ("pending",), "approved", "approve the volunteer hours", description="Approve logged hours."
        ),
        "reject": Transition(
            "status", ("pending",), "rejected", "reject the volunteer hours", description="Reject logged hours."
        ),
    },
    guard_update=_guard_hours,
)


# -- rules ------------------------------------------------------------------------------------


def _duration_hours(shift: Shift) -> float:
    return (shift.ends_at - shift.starts_at).total_seconds() / 3600


def _overlap(ctx: Ctx, volunteer: Volunteer, shift: Shift) -> Shift | None:
    for s in ctx.where(Signup, volunteer_id=volunteer.id):
        if s.status in BUSY and s.shift_id != shift.id:
            other = ctx.get(Shift, s.shift_id)
            if other.starts_at < shift.ends_at and shift.starts_at < other.ends_at:
                return other
    return None


def _eligible(ctx: Ctx, volunteer: Volunteer, shift: Shift, opp: Opportunity) -> None:
    """Refuse a sign-up the opportunity's requirements rule out."""
    if volunteer.status != "active":
        raise RuleViolation(
            f"{volunteer.email} is inactive", field="volunteer_id", hint="only active volunteers sign up"
        )
    day = shift.starts_at.date()
    age = age_on(volunteer.birth_date, day)
    if age < opp.min_age:
        raise RuleViolation(
            f"{opp.title} needs volunteers aged {opp.min_age}+; {volunteer.email} is {age} on {day}",
            field="volunteer_id",
            hint="pick an opportunity without that minimum age",
        )
    signed = volunteer.waiver_signed_on
    if opp.requires_waiver and (signed is None or signed > day or day - signed > WAIVER_VALIDITY):
        raise RuleViolation(
            f"{opp.title} needs a liability waiver signed within the year before {day}; "
            f"{volunteer.email} signed {signed or 'none'}",
            field="volunteer_id",
            hint="have them sign it with volunteers__sign_waiver",
        )
    if opp.requires_background_check and volunteer.background_check != "cleared":
        raise RuleViolation(
            f"{opp.title} needs a cleared background check; {volunteer.email}'s is {volunteer.background_check}",
            field="volunteer_id",
            hint="wait until their background check clears",
        )


# -- examples ---------------------------------------------------------------------------------


def _upcoming(ctx: Ctx) -> list[tuple[Shift, Opportunity]]:
    out: list[tuple[Shift, Opportunity]] = []
    for opp in ctx.where(Opportunity, status="published"):
        out.extend((s, opp) for s in ctx.where(Shift, opportunity_id=opp.id) if s.starts_at > ctx.now())
    return out


def _example_signup(ctx: Ctx) -> dict[str, Any] | None:
    for shift, opp in _upcoming(ctx):
        if shift.confirmed_count >= shift.capacity:
            continue
        for vol in ctx.where(Volunteer, status="active"):
            if ctx.first(Signup, shift_id=shift.id, volunteer_id=vol.id) or _overlap(ctx, vol, shift):
                continue
            try:
                _eligible(ctx, vol, shift, opp)
            except RuleViolation:
                continue
            return {"shift_id": shift.id, "volunteer_id": vol.id, "join_waitlist": False}
    return None


def _example_shift(ctx: Ctx) -> dict[str, Any] | None:
    opp = ctx.first(Opportunity, status="published")
    if opp is None:
        return None
    start = utc_at(ctx.today() + dt.timedelta(days=20), 9)
    return {
        "opportunity_id": opp.id,
        "starts_at": start.isoformat(),
        "ends_at": (start + dt.timedelta(hours=3)).isoformat(),
        "capacity": 8,
    }


def _started(ctx: Ctx, signup: Signup) -> bool:
    return ctx.get(Shift, signup.shift_id).starts_at <= ctx.now()


def _example_log(ctx: Ctx) -> dict[str, Any] | None:
    for s in ctx.where(Signup, status="attended"):
        if ctx.first(HourEntry, signup_id=s.id) is None:
            return {"signup_id": s.id, "hours": 1.5, "note": "Sorted donations"}
    return None


# -- tools ------------------------------------------------------------------------------------


@service.tool(
    intent="record the volunteer's signed waiver",
    write=True,
    example=first_example(Volunteer, "volunteer_id", where={"waiver_signed_on": None}),
)
def sign_waiver(ctx: Ctx, volunteer_id: VolunteerId) -> Volunteer:
    """Record that the volunteer signed the liability waiver today; it covers shifts for a year.

    Args:
        volunteer_id: The volunteer.
    """
    vol = ctx.get(Volunteer, volunteer_id, field="volunteer_id")
    if vol.waiver_signed_on == ctx.today():
        raise Conflict(f"{vol.email} already signed the waiver today", field="volunteer_id", hint="nothing to do")
    return ctx.update(vol, waiver_signed_on=ctx.today())


@service.tool(intent="add a shift to the opportunity", write=True, example=_example_shift)
def create_shift(
    ctx: Ctx,
    opportunity_id: OpportunityId,
    starts_at: DateTime,
    ends_at: DateTime,
    capacity: Annotated[int, Field(ge=1, le=500)],
) -> Shift:
    """Add a shift to a draft or published opportunity: it starts in the future and lasts at most 12 hours.

    Args:
        opportunity_id: The opportunity.
        starts_at: Start (RFC 3339).
        ends_at: End, after the start.
        capacity: How many volunteers it takes (1-500).
    """
    opp = ctx.get(Opportunity, opportunity_id, field="opportunity_id")
    if opp.status == "closed":
        raise RuleViolation(f"{opp.title} is closed", field="opportunity_id", hint="pick an open opportunity")
    if starts_at <= ctx.now():
        raise RuleViolation("a shift starts in the future", field="starts_at", hint="pick a later start")
    if not dt.timedelta(0) < ends_at - starts_at <= MAX_SHIFT:
        raise RuleViolation(
            "a shift ends after it starts and lasts at most 12 hours", field="ends_at", hint="split long days"
        )
    return ctx.create(Shift, opportunity_id=opp.id, starts_at=starts_at, ends_at=ends_at, capacity=capacity)


@service.tool(intent="sign the volunteer up for the shift", write=True, example=_example_signup)
def signup_for_shift(ctx: Ctx, shift_id: ShiftId, volunteer_id: VolunteerId, join_waitlist: bool = True) -> Signup:
    """Sign a volunteer up for a shift; a full shift puts them on its waitlist (or refuses if join_waitlist is false).

    The opportunity must be published and the shift not started; the volunteer
    must be active, old enough, covered by a waiver and a cleared background
    check where the opportunity asks for them, free of overlapping confirmed
    shifts, and not already signed up for the shift.

    Args:
        shift_id: The shift.
        volunteer_id: The volunteer.
        join_waitlist: Whether to join the waitlist when the shift is full.
    """
    shift = ctx.get(Shift, shift_id, field="shift_id")
    vol = ctx.get(Volunteer, volunteer_id, field="volunteer_id")
    opp = ctx.get(Opportunity, shift.opportunity_id)
    if opp.status != "published":
        raise RuleViolation(
            f"{opp.title} is {opp.status}", field="shift_id", hint="sign up for a published opportunity"
        )
    if shift.starts_at <= ctx.now():
        raise RuleViolation(f"the shift started at {shift.starts_at}", field="shift_id", hint="pick a later shift")
    for s in ctx.where(Signup, shift_id=shift.id, volunteer_id=vol.id):
        if s.status != "cancelled":
            raise Conflict(
                f"{vol.email} is already {s.status} for this shift ({s.id})", field="volunteer_id", hint="nothing to do"
            )
    _eligible(ctx, vol, shift, opp)
    clash = _overlap(ctx, vol, shift)
    if clash is not None:
        raise RuleViolation(
            f"{vol.email} is already on a shift from {clash.starts_at} to {clash.ends_at}",
            field="shift_id",
            hint="cancel that sign-up or pick a shift that does not overlap",
        )
    fields = {"shift_id": shift.id, "volunteer_id": vol.id, "opportunity_id": opp.id, "volunteer_email": vol.email}
    if shift.confirmed_count < shift.capacity:
        ctx.update(shift, confirmed_count=shift.confirmed_count + 1)
        return ctx.create(Signup, **fields)
    if not join_waitlist:
        raise RuleViolation(
            f"the shift is full ({shift.capacity} volunteers)",
            field="shift_id",
            hint="join its waitlist (join_waitlist=true) or pick another shift",
        )
    ctx.update(shift, waitlist_count=shift.waitlist_count + 1)
    return ctx.create(Signup, status="waitlisted", waitlist_position=shift.waitlist_count + 1, **fields)


@service.tool(
    intent="cancel the sign-up",
    write=True,
    example=first_example(Signup, "signup_id", where={"status": "confirmed"}, match=lambda c, s: not _started(c, s)),
)
def cancel_signup(ctx: Ctx, signup_id: SignupId) -> Signup:
    """Cancel a confirmed or waitlisted sign-up before the shift starts; a freed place goes to the first waitlisted.

    Args:
        signup_id: The sign-up.
    """
    signup = ctx.get(Signup, signup_id, field="signup_id")
    if signup.status not in ("confirmed", "waitlisted"):
        raise Conflict(f"the sign-up is {signup.status}", field="signup_id", hint="nothing to cancel")
    shift = ctx.get(Shift, signup.shift_id)
    if shift.starts_at <= ctx.now():
        raise RuleViolation(
            "the shift has started", field="signup_id", hint="record attendance instead (volunteers__record_attendance)"
        )
    cancelled = ctx.update(signup, status="cancelled", waitlist_position=None)
    waiting = sorted(
        (s for s in ctx.where(Signup, shift_id=shift.id, status="waitlisted")), key=lambda s: s.waitlist_position or 0
    )
    if signup.status == "waitlisted":
        for s in waiting:
            if (s.waitlist_position or 0) > (signup.waitlist_position or 0):
                ctx.update(s, waitlist_position=(s.waitlist_position or 1) - 1)
        ctx.update(shift, waitlist_count=shift.waitlist_count - 1)
        return cancelled
    if waiting:
        first, rest = waiting[0], waiting[1:]
        ctx.update(first, status="confirmed", waitlist_position=None)
        for s in rest:
            ctx.update(s, waitlist_position=(s.waitlist_position or 1) - 1)
        ctx.update(shift, waitlist_count=shift.waitlist_count - 1)
    else:
        ctx.update(shift, confirmed_count=shift.confirmed_count - 1)
    return cancelled


@service.tool(
    intent="record whether the volunteer showed up",
    write=True,
    example=first_example(Signup, "signup_id", where={"status": "confirmed"}, match=_started, attended=True),
)
def record_attendance(ctx: Ctx, signup_id: SignupId, attended: bool) -> Signup:
    """Check a confirmed volunteer in (attended) or mark them a no-show, once the shift has started.

    Args:
        signup_id: The sign-up.
        attended: True if they came.
    """
    signup = ctx.get(Signup, signup_id, field="signup_id")
    if signup.status != "confirmed":
        raise Conflict(
            f"the sign-up is {signup.status}", field="signup_id", hint="only confirmed sign-ups get attendance"
        )
    shift = ctx.get(Shift, signup.shift_id)
    if shift.starts_at > ctx.now():
        raise RuleViolation(
            f"the shift starts at {shift.starts_at}", field="signup_id", hint="record attendance once it has started"
        )
    return ctx.update(signup, status="attended" if attended else "no_show")


@service.tool(intent="log the volunteer's hours", write=True, example=_example_log)
def log_hours(ctx: Ctx, signup_id: SignupId, hours: Annotated[float, Field(gt=0, le=12)], note: Text = "") -> HourEntry:
    """Log the hours served on an attended shift, once per sign-up and never more than the shift lasted.

    Args:
        signup_id: The attended sign-up.
        hours: Hours served.
        note: What they did.
    """
    signup = ctx.get(Signup, signup_id, field="signup_id")
    if signup.status != "attended":
        raise RuleViolation(
            f"the sign-up is {signup.status}; hours are logged for attended shifts",
            field="signup_id",
            hint="record attendance first",
        )
    existing = ctx.first(HourEntry, signup_id=signup.id)
    if existing is not None:
        raise Conflict(
            f"hours are already logged for this shift ({existing.id}, {existing.status})",
            field="signup_id",
            hint="ask a coordinator to reject it before logging again" if existing.status == "pending" else "done",
        )
    shift = ctx.get(Shift, signup.shift_id)
    most = round(_duration_hours(shift), 2)
    if hours > most:
        raise RuleViolation(f"the shift lasted {most} hours", field="hours", hint=f"log at most {most}")
    return ctx.create(
        HourEntry,
        signup_id=signup.id,
        volunteer_id=signup.volunteer_id,
        opportunity_id=signup.opportunity_id,
        served_on=shift.starts_at.date(),
        hours=hours,
        note=note,
    )


@service.tool(intent="summarise the volunteer's service", example=first_example(Volunteer, "volunteer_id"))
def volunteer_hours_summary(ctx: Ctx, volunteer_id: VolunteerId) -> HoursSummary:
    """A volunteer's approved and pending hours, attended and missed shifts, and confirmed shifts ahead.

    Args:
        volunteer_id: The volunteer.
    """
    vol = ctx.get(Volunteer, volunteer_id, field="volunteer_id")
    entries = ctx.where(HourEntry, volunteer_id=vol.id)
    signed = ctx.where(Signup, volunteer_id=vol.id)
    ahead = [s for s in signed if s.status == "confirmed" and ctx.get(Shift, s.shift_id).starts_at > ctx.now()]
    return HoursSummary(
        volunteer_id=vol.id,
        email=vol.email,
        approved_hours=round(sum(e.hours for e in entries if e.status == "approved"), 2),
        pending_hours=round(sum(e.hours for e in entries if e.status == "pending"), 2),
        shifts_attended=sum(s.status == "attended" for s in signed),
        no_shows=sum(s.status == "no_show" for s in signed),
        upcoming_shifts=len(ahead),
    )


# -- seed -------------------------------------------------------------------------------------

OPPORTUNITIES: tuple[tuple[str, str, int, bool, bool, str], ...] = (
    ("Food bank sorting", "Sort and pack donated food for weekly distribution.", 14, True, False, "published"),
    ("Riverside park cleanup", "Litter pick and invasive plant removal; gloves provided.", 0, True, False, "published"),
    ("After-school reading tutor", "Read one-to-one with pupils aged 6-10.", 18, False, True, "published"),
    ("Animal shelter dog walking", "Walk and socialise shelter dogs.", 16, True, False, "published"),
    ("Hospital welcome desk", "Greet and guide visitors at the main entrance.", 18, False, True, "draft"),
    ("Winter coat drive", "Collect and sort coats for families in need.", 0, False, False, "closed"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Community and staff volunteers, opportunities with past, running and future shifts, sign-ups and hours."""
    pop = s.population
    today = s.now.date()
    coordinators = pop.staff("People", "Support", fallback=3)
    people = list(pop.consumers[:28]) + list(pop.employees[:6])
    vols: list[Volunteer] = []
    for k, p in enumerate(people):
        waiver = None if k % 5 == 4 else today - dt.timedelta(days=30 + 45 * (k % 9))
        check: Check = ("cleared", "none", "pending", "cleared", "failed")[k % 5]
        vols.append(
            s.create(
                Volunteer,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                birth_date=p.birth_date,
                status="inactive" if k % 13 == 12 else "active",
                waiver_signed_on=waiver,
                background_check=check,
                city=p.address.city,
                created_at=s.now - dt.timedelta(days=500 - 7 * k),
                updated_at=s.now - dt.timedelta(days=100 - k),
            )
        )
    city = pop.home.address.city
    busy: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}
    for n, (title, text, age, needs_waiver, needs_check, status) in enumerate(OPPORTUNITIES):
        opp = s.create(
            Opportunity,
            title=title,
            description=text,
            city=city,
            coordinator_email=coordinators[n % len(coordinators)].email,
            min_age=age,
            requires_waiver=needs_waiver,
            requires_background_check=needs_check,
            status=status,
            created_at=s.now - dt.timedelta(days=120 - n),
            updated_at=s.now - dt.timedelta(days=60 - n),
        )
        _seed_shifts(s, opp, n, vols, busy)


def _seed_shifts(
    s: SeedContext,
    opp: Opportunity,
    n: int,
    vols: list[Volunteer],
    busy: dict[str, list[tuple[dt.datetime, dt.datetime]]],
) -> None:
    """A past shift (attendance and hours), a running one, and two ahead (the first full); a draft's stay empty."""
    plan = ((-3 * 24 - 2 * n, 3, 4), (-1, 3, 6), (2 * 24 + n, 3, 3), (9 * 24 + n, 4, 10))
    for slot, (offset, length, capacity) in enumerate(plan):
        start = s.now + dt.timedelta(hours=offset)
        end = start + dt.timedelta(hours=length)
        shift = s.create(
            Shift,
            opportunity_id=opp.id,
            starts_at=start,
            ends_at=end,
            capacity=capacity,
            created_at=s.now - dt.timedelta(days=30),
        )
        if opp.status == "draft" or (opp.status == "closed" and slot > 0):
            continue
        fits = [
            v for v in vols if _fits(v, opp, start) and not any(a < end and start < b for a, b in busy.get(v.id, ()))
        ]
        chosen = fits[(n * 5 + slot * 3) % max(1, len(fits) - 6) :][: capacity + (2 if slot == 2 else 0)]
        if slot == 3:
            chosen = chosen[:2]
        confirmed = 0
        waitlist = 0
        for j, vol in enumerate(chosen):
            status: SignupStatus = "confirmed"
            position = None
            if slot == 0:
                status = "no_show" if j == 3 else "attended"
            elif j >= capacity:
                waitlist += 1
                status, position = "waitlisted", waitlist
            if status in BUSY:
                busy.setdefault(vol.id, []).append((start, end))
            if status != "waitlisted":
                confirmed += 1
            signup = s.create(
                Signup,
                shift_id=shift.id,
                volunteer_id=vol.id,
                opportunity_id=opp.id,
                volunteer_email=vol.email,
                status=status,
                waitlist_position=position,
                created_at=start - dt.timedelta(days=7),
                updated_at=start - dt.timedelta(days=7),
            )
            if status == "attended" and j < 2:
                s.create(
                    HourEntry,
                    signup_id=signup.id,
                    volunteer_id=vol.id,
                    opportunity_id=opp.id,
                    served_on=start.date(),
                    hours=float(length),
                    note=opp.title,
                    status="approved" if j == 0 else "pending",
                    reviewed_on=start.date() if j == 0 else None,
                    created_at=start + dt.timedelta(hours=length + 1),
                )
        s.update(shift, confirmed_count=confirmed, waitlist_count=waitlist)


def _fits(vol: Volunteer, opp: Opportunity, start: dt.datetime) -> bool:
    day = start.date()
    signed = vol.waiver_signed_on
    return (
        vol.status == "active"
        and age_on(vol.birth_date, day) >= opp.min_age
        and (not opp.requires_waiver or (signed is not None and signed <= day and day - signed <= WAIVER_VALIDITY))
        and (not opp.requires_background_check or vol.background_check == "cleared")
    )
