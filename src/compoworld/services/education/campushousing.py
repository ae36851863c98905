"""Quadrant Housing: residence halls, rooms and bed spaces, housing applications, assignments and check-in.

Modeled on StarRez (Residential Management): halls with a gender policy,
rooms of a type (single, double, triple, suite) with bed spaces that are
available or offline, residents (students), housing applications per term
(submitted → accepted or waitlisted, or cancelled; a deposit must be paid
before acceptance), roommate requests that become mutual when both students
ask for each other, room assignments of a resident to a bed space for a term
(assigned → checked_in → checked_out, or cancelled), and check-out with a
damage inspection that bills charges. A bed takes one assignment per term and
never while offline; a resident has one assignment per term, needs an
accepted application, and goes only to a hall whose policy fits them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, DateTime, Email, IdOf, PersonName, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "campushousing",
    title="Quadrant Housing",
    category="student_housing",
    modeled_on="StarRez Residential Management (halls, rooms and bed spaces, applications with deposits, "
    "roommate requests, room assignments, check-in and check-out with damage charges)",
    description="Student housing: residence halls, rooms and bed spaces, students' housing applications and "
    "deposits for each term, roommate requests, bed assignments, and move-in and move-out with damage charges.",
)

HallId = Annotated[str, IdOf("campushousing.hall")]
RoomId = Annotated[str, IdOf("campushousing.room")]
BedId = Annotated[str, IdOf("campushousing.bed")]
ResidentId = Annotated[str, IdOf("campushousing.resident")]
ApplicationId = Annotated[str, IdOf("campushousing.application")]
RequestId = Annotated[str, IdOf("campushousing.roommate_request")]
AssignmentId = Annotated[str, IdOf("campushousing.assignment")]

Term = Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(FA|SP|SU)$")]
"""A term such as 2026-FA."""
RoomType = Literal["single", "double", "triple", "suite"]
Gender = Literal["female", "male", "nonbinary"]
Policy = Literal["coed", "women", "men"]
AssignmentStatus = Literal["assigned", "checked_in", "checked_out", "cancelled"]
LIVE: tuple[str, ...] = ("assigned", "checked_in")
FITS: dict[str, tuple[str, ...]] = {"coed": ("female", "male", "nonbinary"), "women": ("female",), "men": ("male",)}


class Hall(Created):
    """A residence hall."""

    id: HallId
    name: Title
    """Its name."""
    policy: Policy = "coed"
    """coed, women or men."""
    area_coordinator_email: Email
    """The staff member running it."""


class Room(Created):
    """A room of a hall."""

    id: RoomId
    hall_id: HallId
    """The hall."""
    number: Annotated[str, StringConstraints(pattern=r"^[0-9]{3,4}[A-Z]?$")]
    """Room number."""
    type: RoomType
    """single, double, triple or suite."""
    rate: Cents
    """Rent per bed per term, cents."""


class Bed(Created):
    """A bed space of a room."""

    id: BedId
    room_id: RoomId
    """The room."""
    hall_id: HallId
    """The hall."""
    label: Annotated[str, StringConstraints(pattern=r"^[A-D]$")]
    """A, B, C or D."""
    status: Literal["available", "offline"] = "available"
    """available, or offline (maintenance)."""


class Resident(Timestamped):
    """A student who lives, or wants to live, on campus."""

    id: ResidentId
    name: PersonName
    """Their name."""
    email: Email
    """Their e-mail."""
    student_number: Annotated[str, StringConstraints(pattern=r"^[0-9]{8}$")]
    """Student number."""
    gender: Gender
    """For hall policies."""
    class_year: Literal["first_year", "sophomore", "junior", "senior", "graduate"] = "first_year"
    """Class year."""


class Application(Timestamped):
    """A housing application for a term."""

    id: ApplicationId
    resident_id: ResidentId
    """The applicant."""
    term: Term
    """The term."""
    preferred_type: RoomType = "double"
    """Preferred room type."""
    deposit_paid: bool = False
    """Whether the housing deposit is paid."""
    status: Literal["submitted", "accepted", "waitlisted", "cancelled"] = "submitted"
    """submitted, accepted, waitlisted or cancelled."""


class RoommateRequest(Created):
    """A request to live with another resident."""

    id: RequestId
    requester_id: ResidentId
    """Who asks."""
    requested_id: ResidentId
    """Whom they ask for."""
    term: Term
    """The term."""
    status: Literal["pending", "mutual", "declined"] = "pending"
    """pending, mutual (both asked) or declined."""


class Assignment(Timestamped):
    """A resident's bed for a term."""

    id: AssignmentId
    resident_id: ResidentId
    """The resident."""
    bed_id: BedId
    """The bed."""
    hall_id: HallId
    """Its hall."""
    term: Term
    """The term."""
    status: AssignmentStatus = "assigned"
    """assigned, checked_in, checked_out or cancelled."""
    checked_in_at: DateTime | None = None
    """Move-in."""
    checked_out_at: DateTime | None = None
    """Move-out."""
    damage_charge: Cents = 0
    """Charges from the move-out inspection, cents."""
    damage_notes: str = ""
    """What was damaged."""


class Occupancy(Value):
    """A hall's beds for a term."""

    hall_id: HallId
    """The hall."""
    term: str
    """The term."""
    beds: int
    """Bed spaces."""
    offline: int
    """Offline beds."""
    occupied: int
    """Beds with a live assignment."""
    available: int
    """Beds free to assign."""


# -- rules ------------------------------------------------------------------------------------


def _live_on_bed(ctx: Ctx, bed_id: str, term: str) -> Assignment | None:
    return next((a for a in ctx.where(Assignment, bed_id=bed_id, term=term) if a.status in LIVE), None)


def _guard_bed(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "offline" and any(a.status == "checked_in" for a in ctx.where(Assignment, bed_id=new.id)):
        raise RuleViolation("someone lives in that bed", field="bed_id", hint="move them first")


def _guard_application(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "accepted" and not new.deposit_paid:
        raise RuleViolation("the deposit is not paid", field="application_id", hint="record the deposit first")
    if new.status == "cancelled":
        for a in ctx.where(Assignment, resident_id=new.resident_id, term=new.term, status="assigned"):
            ctx.update(a, status="cancelled")


halls = service.resource(
    Hall,
    name="hall",
    plural="halls",
    prefix="hall",
    create=False,
    filters=("policy",),
    search=("name",),
    delete=False,
    title="residence hall",
)
rooms = service.resource(
    Room, name="room", plural="rooms", prefix="room", create=False, filters=("hall_id", "type", "number"), delete=False
)
beds = service.resource(
    Bed,
    name="bed",
    plural="beds",
    prefix="bed",
    create=False,
    get=False,
    filters=("room_id", "hall_id", "status"),
    delete=False,
    transitions={
        "take_offline": Transition("status", ("available",), "offline", "take the bed space offline"),
        "bring_online": Transition("status", ("offline",), "available", "bring the bed space back online"),
    },
    guard_update=_guard_bed,
    title="bed space",
)
residents = service.resource(
    Resident,
    name="resident",
    plural="residents",
    prefix="res",
    create=False,
    filters=("email", "student_number", "gender", "class_year"),
    search=("name",),
    update=("email", "class_year"),
    delete=False,
)
applications = service.resource(
    Application,
    name="application",
    plural="applications",
    prefix="app",
    create=False,
    filters=("resident_id", "term", "status", "deposit_paid"),
    update=("preferred_type",),
    delete=False,
    transitions={
        "accept": Transition("status", ("submitted", "waitlisted"), "accepted", "accept the housing application"),
        "waitlist": Transition("status", ("submitted",), "waitlisted", "waitlist the housing application"),
        "cancel": Transition(
            "status", ("submitted", "accepted", "waitlisted"), "cancelled", "cancel the housing application"
        ),
    },
    guard_update=_guard_application,
    title="housing application",
)
requests = service.resource(
    RoommateRequest,
    name="roommate_request",
    plural="roommate_requests",
    prefix="rmr",
    create=False,
    get=False,
    filters=("requester_id", "requested_id", "term", "status"),
    delete=False,
    transitions={"decline": Transition("status", ("pending",), "declined", "decline the roommate request")},
)
assignments = service.resource(
    Assignment,
    name="assignment",
    plural="assignments",
    prefix="asg",
    create=False,
    filters=("resident_id", "bed_id", "hall_id", "term", "status"),
    delete=False,
    title="room assignment",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_apply(ctx: Ctx) -> dict[str, Any] | None:
    for r in ctx.scan(Resident):
        if not ctx.where(Application, resident_id=r.id, term="2027-SP"):
            return {"resident_id": r.id, "term": "2027-SP", "preferred_type": "single"}
    return None


@service.tool(intent="apply for housing", write=True, example=_example_apply)
def submit_application(
    ctx: Ctx, resident_id: ResidentId, term: Term, preferred_type: RoomType = "double"
) -> Application:
    """Submit a resident's housing application for a term (one live application per term).

    Args:
        resident_id: The student.
        term: The term, e.g. 2026-FA.
        preferred_type: single, double, triple or suite.
    """
    res = ctx.get(Resident, resident_id, field="resident_id")
    for a in ctx.where(Application, resident_id=res.id, term=term):
        if a.status != "cancelled":
            raise Conflict(
                f"{res.name} already applied for {term} ({a.status})", field="term", hint="update that application"
            )
    return ctx.create(Application, resident_id=res.id, term=term, preferred_type=preferred_type)


@service.tool(
    intent="record the housing deposit",
    write=True,
    example=first_example(Application, "application_id", where={"deposit_paid": False, "status": "submitted"}),
)
def pay_deposit(ctx: Ctx, application_id: ApplicationId) -> Application:
    """Record the housing deposit of a live application.

    Args:
        application_id: The application.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status == "cancelled":
        raise RuleViolation("the application is cancelled", field="application_id", hint="apply again")
    if app.deposit_paid:
        raise Conflict("the deposit is already paid", field="application_id", hint="nothing to do")
    return ctx.update(app, deposit_paid=True)


def _example_roommate(ctx: Ctx) -> dict[str, Any] | None:
    people = list(ctx.scan(Resident))
    for a in people:
        for b in people:
            if a.id != b.id and not ctx.where(RoommateRequest, requester_id=a.id, requested_id=b.id, term="2026-FA"):
                return {"requester_id": a.id, "requested_email": b.email, "term": "2026-FA"}
    return None


@service.tool(intent="request a roommate", write=True, example=_example_roommate)
def request_roommate(ctx: Ctx, requester_id: ResidentId, requested_email: Email, term: Term) -> RoommateRequest:
    """Ask to live with another resident (by e-mail); when they asked too, both requests become mutual.

    Args:
        requester_id: Who asks.
        requested_email: The e-mail of the resident they want.
        term: The term.
    """
    me = ctx.get(Resident, requester_id, field="requester_id")
    other = ctx.first(Resident, email=requested_email)
    if other is None or other.id == me.id:
        raise RuleViolation(
            f"{requested_email} is not another resident",
            field="requested_email",
            hint="ask for a resident by their e-mail",
        )
    if ctx.where(RoommateRequest, requester_id=me.id, requested_id=other.id, term=term):
        raise Conflict(f"{me.name} already asked for {other.name}", field="requested_email", hint="nothing to do")
    back = [
        r
        for r in ctx.where(RoommateRequest, requester_id=other.id, requested_id=me.id, term=term)
        if r.status == "pending"
    ]
    for r in back:
        ctx.update(r, status="mutual")
    return ctx.create(
        RoommateRequest, requester_id=me.id, requested_id=other.id, term=term, status="mutual" if back else "pending"
    )


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    for app in ctx.where(Application, status="accepted"):
        res = ctx.get(Resident, app.resident_id)
        if any(a.status in LIVE for a in ctx.where(Assignment, resident_id=res.id, term=app.term)):
            continue
        for bed in ctx.where(Bed, status="available"):
            if res.gender in FITS[ctx.get(Hall, bed.hall_id).policy] and _live_on_bed(ctx, bed.id, app.term) is None:
                return {"application_id": app.id, "bed_id": bed.id}
    return None


@service.tool(intent="assign the bed", write=True, example=_example_assign)
def assign_bed(ctx: Ctx, application_id: ApplicationId, bed_id: BedId) -> Assignment:
    """Assign an accepted applicant a free, online bed in a hall whose policy fits them.

    Args:
        application_id: The accepted application.
        bed_id: The bed space.
    """
    app = ctx.get(Application, application_id, field="application_id")
    if app.status != "accepted":
        raise RuleViolation(f"the application is {app.status}", field="application_id", hint="accept it first")
    res = ctx.get(Resident, app.resident_id)
    bed = ctx.get(Bed, bed_id, field="bed_id")
    hall = ctx.get(Hall, bed.hall_id)
    if bed.status != "available":
        raise RuleViolation("the bed is offline", field="bed_id", hint="pick another bed")
    if res.gender not in FITS[hall.policy]:
        raise RuleViolation(f"{hall.name} is a {hall.policy} hall", field="bed_id", hint="pick a bed in another hall")
    taken = _live_on_bed(ctx, bed.id, app.term)
    if taken is not None:
        raise Conflict(f"the bed is taken for {app.term} ({taken.id})", field="bed_id", hint="pick a free bed")
    if any(a.status in LIVE for a in ctx.where(Assignment, resident_id=res.id, term=app.term)):
        raise Conflict(
            f"{res.name} already has a bed for {app.term}",
            field="application_id",
            hint="cancel that assignment to move them",
        )
    return ctx.create(Assignment, resident_id=res.id, bed_id=bed.id, hall_id=hall.id, term=app.term)


@service.tool(
    intent="check the resident in",
    write=True,
    example=first_example(Assignment, "assignment_id", where={"status": "assigned"}),
)
def check_in(ctx: Ctx, assignment_id: AssignmentId) -> Assignment:
    """Move a resident into their assigned bed.

    Args:
        assignment_id: The assignment.
    """
    asg = ctx.get(Assignment, assignment_id, field="assignment_id")
    if asg.status != "assigned":
        raise RuleViolation(f"the assignment is {asg.status}", field="assignment_id", hint="only assigned ones")
    return ctx.update(asg, status="checked_in", checked_in_at=ctx.now())


@service.tool(
    intent="check the resident out",
    write=True,
    example=first_example(Assignment, "assignment_id", where={"status": "checked_in"}, damage_charge=0),
)
def check_out(
    ctx: Ctx,
    assignment_id: AssignmentId,
    damage_charge: Cents = 0,
    damage_notes: Annotated[str, StringConstraints(max_length=500)] = "",
) -> Assignment:
    """Move a resident out after the room inspection, billing any damage.

    Args:
        assignment_id: The assignment (checked in).
        damage_charge: Damage charges, cents.
        damage_notes: What was damaged (required with a charge).
    """
    asg = ctx.get(Assignment, assignment_id, field="assignment_id")
    if asg.status != "checked_in":
        raise RuleViolation(f"the assignment is {asg.status}", field="assignment_id", hint="check them in first")
    if damage_charge and not damage_notes.strip():
        raise RuleViolation("say what was damaged", field="damage_notes", hint="describe the damage")
    return ctx.update(
        asg,
        status="checked_out",
        checked_out_at=ctx.now(),
        damage_charge=damage_charge,
        damage_notes=damage_notes.strip(),
    )


@service.tool(
    intent="cancel the room assignment",
    write=True,
    example=first_example(Assignment, "assignment_id", where={"status": "assigned"}),
)
def cancel_assignment(ctx: Ctx, assignment_id: AssignmentId, reason: Text = "") -> Assignment:
    """Cancel an assignment before move-in; the bed is free again.

    Args:
        assignment_id: The assignment.
        reason: Why.
    """
    asg = ctx.get(Assignment, assignment_id, field="assignment_id")
    if asg.status != "assigned":
        raise RuleViolation(
            f"the assignment is {asg.status}",
            field="assignment_id",
            hint="a checked-in resident is checked out instead",
        )
    return ctx.update(asg, status="cancelled", damage_notes=reason.strip())


@service.tool(intent="show the hall's occupancy", example=first_example(Hall, "hall_id", term="2026-FA"))
def hall_occupancy(ctx: Ctx, hall_id: HallId, term: Term) -> Occupancy:
    """Beds, offline beds, occupied and available beds of a hall for a term.

    Args:
        hall_id: The hall.
        term: The term.
    """
    hall = ctx.get(Hall, hall_id, field="hall_id")
    all_beds = ctx.where(Bed, hall_id=hall.id)
    off = sum(b.status == "offline" for b in all_beds)
    used = sum(_live_on_bed(ctx, b.id, term) is not None for b in all_beds)
    free = sum(b.status == "available" and _live_on_bed(ctx, b.id, term) is None for b in all_beds)
    return Occupancy(hall_id=hall.id, term=term, beds=len(all_beds), offline=off, occupied=used, available=free)


# -- seed -------------------------------------------------------------------------------------

HALLS: tuple[tuple[str, Policy], ...] = (("Maple Hall", "coed"), ("Birch House", "women"), ("Cedar Tower", "men"))
PLAN: tuple[tuple[RoomType, int, int], ...] = (("single", 1, 410000), ("double", 2, 330000), ("triple", 3, 290000))


@service.seeder
def seed(s: SeedContext) -> None:
    """Halls with rooms and beds, residents from the world's young people, applications, requests, assignments."""
    pop = s.population
    staff = pop.staff("Operations", "People", fallback=3)
    halls = [
        s.create(
            Hall,
            name=name,
            policy=policy,
            area_coordinator_email=staff[k % len(staff)].email,
            created_at=s.ago(days=2000),
        )
        for k, (name, policy) in enumerate(HALLS)
    ]
    for k, hall in enumerate(halls):
        for j, (rtype, nbeds, rate) in enumerate(PLAN):
            room = s.create(
                Room,
                hall_id=hall.id,
                number=f"{(k + 1) * 100 + j + 1}",
                type=rtype,
                rate=rate,
                created_at=s.ago(days=2000),
            )
            for b in range(nbeds):
                s.create(
                    Bed,
                    room_id=room.id,
                    hall_id=hall.id,
                    label="ABCD"[b],
                    status="offline" if (k, j, b) == (0, 2, 2) else "available",
                    created_at=s.ago(days=2000),
                )
    people = list(pop.consumers[:12]) or list(pop.contacts[:12])
    res = [
        s.create(
            Resident,
            name=p.name,
            email=p.email,
            student_number=f"{20250000 + 17 * k:08d}",
            gender=("female", "male", "nonbinary", "female")[k % 4],
            class_year=("first_year", "sophomore", "junior", "senior")[k % 4],
            created_at=s.ago(days=200),
            updated_at=s.ago(days=10),
        )
        for k, p in enumerate(people)
    ]
    apps = []
    for k, r in enumerate(res):
        status = ("accepted", "accepted", "submitted", "waitlisted", "accepted", "cancelled")[k % 6]
        apps.append(
            s.create(
                Application,
                resident_id=r.id,
                term="2026-FA",
                preferred_type=PLAN[k % 3][0],
                deposit_paid=status in ("accepted", "waitlisted"),
                status=status,
                created_at=s.ago(days=90 - k),
                updated_at=s.ago(days=20),
            )
        )
    free = {h.id: [b for b in s.records(Bed) if b.hall_id == h.id and b.status == "available"] for h in halls}
    for k, (r, app) in enumerate(zip(res, apps, strict=True)):
        if app.status != "accepted" or k > 8:
            continue
        hall = next(h for h in halls[::-1] if r.gender in FITS[h.policy] and free[h.id])
        bed = free[hall.id].pop(0)
        checked = k % 2 == 0
        s.create(
            Assignment,
            resident_id=r.id,
            bed_id=bed.id,
            hall_id=hall.id,
            term="2026-FA",
            status="checked_in" if checked else "assigned",
            checked_in_at=s.ago(days=30) if checked else None,
            created_at=s.ago(days=40),
            updated_at=s.ago(days=30),
        )
    s.create(
        RoommateRequest,
        requester_id=res[0].id,
        requested_id=res[4].id,
        term="2026-FA",
        status="mutual",
        created_at=s.ago(days=70),
    )
    s.create(
        RoommateRequest,
        requester_id=res[4].id,
        requested_id=res[0].id,
        term="2026-FA",
        status="mutual",
        created_at=s.ago(days=69),
    )
    s.create(RoommateRequest, requester_id=res[1].id, requested_id=res[5].id, term="2026-FA", created_at=s.ago(days=60))
