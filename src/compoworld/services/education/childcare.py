"""Little Sprouts: the child care center's classrooms, children, families, check-ins, daily reports and tuition.

Modeled on Brightwheel: rooms with an age group and the staff-to-child ratio
state licensing sets (infants 1:4, toddlers 1:6, preschool 1:10, pre-K 1:12)
and a capacity, children enrolled in a room (or waitlisted, or withdrawn),
family contacts (guardians, who are billed and get the daily report, and
approved pickups), staff check-in to a room, child check-in and check-out
(only a guardian or an approved pickup takes a child home), daily report
activities (meals, naps, diapers, notes) logged for checked-in children, and
tuition billing (monthly invoices, paid or voided). A room takes no more
enrolled children than its capacity, and no child checks in when the room's
checked-in staff could not keep the ratio.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "childcare",
    title="Little Sprouts",
    category="childcare",
    modeled_on="Brightwheel (rooms with ratios, students, guardians and approved pickups, check-in/out, "
    "daily report activities, tuition billing)",
    description="The child care center: classrooms with licensing ratios and capacity, enrolled children and "
    "their families, staff and child check-ins and check-outs, daily report activities sent to parents, and "
    "monthly tuition invoices.",
)

RoomId = Annotated[str, IdOf("childcare.room")]
ChildId = Annotated[str, IdOf("childcare.child")]
ContactId = Annotated[str, IdOf("childcare.family_contact")]
ShiftId = Annotated[str, IdOf("childcare.staff_shift")]
VisitId = Annotated[str, IdOf("childcare.attendance")]
ActivityId = Annotated[str, IdOf("childcare.activity")]
InvoiceId = Annotated[str, IdOf("childcare.invoice")]

AgeGroup = Literal["infant", "toddler", "preschool", "pre_k"]
Month = Annotated[str, StringConstraints(pattern=r"^20[0-9]{2}-(0[1-9]|1[0-2])$")]
"""A month, YYYY-MM."""
RATIO: dict[str, int] = {"infant": 4, "toddler": 6, "preschool": 10, "pre_k": 12}


class Room(Timestamped):
    """A classroom."""

    id: RoomId
    name: Title
    """Its name."""
    age_group: AgeGroup
    """infant, toddler, preschool or pre_k (sets the ratio)."""
    capacity: Annotated[int, Field(ge=1, le=100)] = 12
    """Most enrolled children."""
    lead_teacher_email: Email
    """The lead teacher."""


class Child(Timestamped):
    """A child of the center."""

    id: ChildId
    name: PersonName
    """The child's name."""
    birth_date: Date
    """Date of birth."""
    room_id: RoomId | None = None
    """The room (none while waitlisted)."""
    status: Literal["enrolled", "waitlisted", "withdrawn"] = "waitlisted"
    """enrolled, waitlisted or withdrawn."""
    allergies: str = ""
    """Allergies staff must know."""
    monthly_tuition: Cents = 0
    """Monthly tuition, cents."""


class FamilyContact(Created):
    """A guardian or approved pickup of a child."""

    id: ContactId
    child_id: ChildId
    """The child."""
    name: PersonName
    """Their name."""
    email: Email | None = None
    """E-mail (guardians get reports and invoices)."""
    phone: Phone
    """Phone."""
    relationship: Literal["parent", "grandparent", "guardian", "nanny", "other"] = "parent"
    """Relationship to the child."""
    role: Literal["guardian", "approved_pickup"] = "guardian"
    """guardian or approved_pickup."""


class StaffShift(Created):
    """A staff member checked in to a room."""

    id: ShiftId
    room_id: RoomId
    """The room."""
    staff_email: Email
    """The employee."""
    in_at: DateTime
    """Check-in."""
    out_at: DateTime | None = None
    """Check-out (none while on the floor)."""


class Attendance(Created):
    """A child's day: check-in and check-out."""

    id: VisitId
    child_id: ChildId
    """The child."""
    room_id: RoomId
    """The room."""
    day: Date
    """The day."""
    in_at: DateTime
    """Check-in."""
    dropped_off_by: PersonName
    """Who dropped off."""
    out_at: DateTime | None = None
    """Check-out."""
    picked_up_by: str = ""
    """Who picked up."""


class Activity(Created):
    """A daily report entry."""

    id: ActivityId
    child_id: ChildId
    """The child."""
    kind: Literal["meal", "nap", "diaper", "note", "incident"]
    """meal, nap, diaper, note or incident."""
    details: Text
    """What happened."""
    staff_email: Email
    """Who logged it."""


class Invoice(Timestamped):
    """A tuition invoice to a child's guardian."""

    id: InvoiceId
    child_id: ChildId
    """The child."""
    payer_email: Email
    """The guardian billed."""
    month: Month
    """The month billed."""
    amount: Cents
    """Amount, cents."""
    due_on: Date
    """Due date."""
    status: Literal["open", "paid", "void"] = "open"
    """open, paid or void."""
    paid_on: Date | None = None
    """When it was paid."""


# -- rules ------------------------------------------------------------------------------------


def _on_floor(ctx: Ctx, room_id: str) -> int:
    return sum(1 for s in ctx.where(StaffShift, room_id=room_id) if s.out_at is None)


def _present(ctx: Ctx, room_id: str) -> list[Attendance]:
    return [a for a in ctx.where(Attendance, room_id=room_id, day=ctx.today()) if a.out_at is None]


def _open_visit(ctx: Ctx, child_id: str) -> Attendance | None:
    return next((a for a in ctx.where(Attendance, child_id=child_id, day=ctx.today()) if a.out_at is None), None)


def _guard_room(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.lead_teacher_email, field="lead_teacher_email", hint="rooms are led by staff")
    if new.capacity < len(ctx.where(Child, room_id=new.id, status="enrolled")) or new.capacity < 1:
        raise RuleViolation("capacity is below the children enrolled", field="capacity", hint="move children first")


def _guard_child(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "enrolled":
        if new.room_id is None:
            raise RuleViolation("an enrolled child needs a room", field="room_id", hint="pick a room")
        room = ctx.get(Room, new.room_id, field="room_id")
        if len(ctx.where(Child, room_id=room.id, status="enrolled")) > room.capacity:
            raise RuleViolation(
                f"{room.name} is full ({room.capacity})",
                field="room_id",
                hint="waitlist the child or pick another room",
            )
    if old is not None and new.status == "withdrawn" and _open_visit(ctx, new.id):
        raise RuleViolation(f"{new.name} is checked in", field="child_id", hint="check the child out first")


def _guard_contact(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Child, new.child_id, field="child_id")
    if new.role == "guardian" and new.email is None:
        raise RuleViolation("a guardian needs an e-mail for reports and invoices", field="email", hint="add one")


children = service.resource(
    Child,
    name="child",
    plural="children",
    prefix="chd",
    create=("name", "birth_date", "room_id", "status", "allergies", "monthly_tuition"),
    filters=("room_id", "status"),
    search=("name",),
    update=("room_id", "status", "allergies", "monthly_tuition"),
    delete=False,
    transitions={"withdraw": Transition("status", ("enrolled", "waitlisted"), "withdrawn", "withdraw the child")},
    guard_create=_guard_child,
    guard_update=_guard_child,
)
rooms = service.resource(
    Room,
    name="room",
    plural="rooms",
    prefix="room",
    create=("name", "age_group", "capacity", "lead_teacher_email"),
    filters=("age_group", "lead_teacher_email"),
    search=("name",),
    update=("name", "capacity", "lead_teacher_email"),
    delete=False,
    guard_create=_guard_room,
    guard_update=_guard_room,
    title="classroom",
)
contacts = service.resource(
    FamilyContact,
    name="family_contact",
    plural="family_contacts",
    prefix="fam",
    create=("child_id", "name", "email", "phone", "relationship", "role"),
    get=False,
    filters=("child_id", "email", "role"),
    search=("name",),
    guard_create=_guard_contact,
)
shifts = service.resource(
    StaffShift,
    name="staff_shift",
    plural="staff_shifts",
    prefix="shf",
    create=False,
    get=False,
    filters=("room_id", "staff_email"),
    delete=False,
)
attendance = service.resource(
    Attendance,
    name="attendance",
    plural="attendance",
    prefix="att",
    create=False,
    get=False,
    filters=("child_id", "room_id", "day"),
    delete=False,
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    create=False,
    get=False,
    filters=("child_id", "kind", "staff_email"),
    delete=False,
    title="daily report activity",
)
invoices = service.resource(
    Invoice,
    name="invoice",
    plural="invoices",
    prefix="inv",
    create=False,
    filters=("child_id", "payer_email", "month", "status"),
    delete=False,
    transitions={"void": Transition("status", ("open",), "void", "void the invoice", destructive=True)},
    title="tuition invoice",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_staff_in(ctx: Ctx) -> dict[str, Any] | None:
    room = ctx.first(Room)
    on = {s.staff_email for s in ctx.scan(StaffShift) if s.out_at is None}
    free = next((p.email for p in ctx.population.employees if p.email not in on), None)
    return None if room is None or free is None else {"room_id": room.id, "staff_email": free}


@service.tool(intent="check the staff member in to the room", write=True, example=_example_staff_in)
def staff_check_in(ctx: Ctx, room_id: RoomId, staff_email: Email) -> StaffShift:
    """Put a staff member on the floor of a room (one room at a time).

    Args:
        room_id: The room.
        staff_email: The employee.
    """
    room = ctx.get(Room, room_id, field="room_id")
    require_employee(ctx, staff_email, field="staff_email", hint="only staff check in to rooms")
    for s in ctx.where(StaffShift, staff_email=staff_email):
        if s.out_at is None:
            raise Conflict(f"{staff_email} is already checked in", field="staff_email", hint="check them out first")
    return ctx.create(StaffShift, room_id=room.id, staff_email=staff_email, in_at=ctx.now())


@service.tool(
    intent="check the staff member out",
    write=True,
    example=first_example(
        StaffShift,
        None,
        match=lambda c, s: s.out_at is None and _on_floor(c, s.room_id) > 1 and not _present(c, s.room_id),
        fields={"staff_email": "staff_email"},
    ),
)
def staff_check_out(ctx: Ctx, staff_email: Email) -> StaffShift:
    """Take a staff member off the floor, unless the children left in the room would break the ratio.

    Args:
        staff_email: The employee.
    """
    shift = next((s for s in ctx.where(StaffShift, staff_email=staff_email) if s.out_at is None), None)
    if shift is None:
        raise RuleViolation(f"{staff_email} is not checked in", field="staff_email", hint="nothing to do")
    room = ctx.get(Room, shift.room_id)
    if len(_present(ctx, room.id)) > (_on_floor(ctx, room.id) - 1) * RATIO[room.age_group]:
        raise RuleViolation(
            f"{room.name} would fall out of ratio 1:{RATIO[room.age_group]}",
            field="staff_email",
            hint="check another teacher in, or children out, first",
        )
    return ctx.update(shift, out_at=ctx.now())


def _example_child_in(ctx: Ctx) -> dict[str, Any] | None:
    for child in ctx.where(Child, status="enrolled"):
        room = ctx.get(Room, child.room_id or "")
        if (
            _open_visit(ctx, child.id) is None
            and len(_present(ctx, room.id)) < _on_floor(ctx, room.id) * RATIO[room.age_group]
        ):
            return {"child_id": child.id, "dropped_off_by": "Parent"}
    return None


@service.tool(intent="check the child in", write=True, example=_example_child_in)
def check_in_child(ctx: Ctx, child_id: ChildId, dropped_off_by: PersonName) -> Attendance:
    """Check an enrolled child in to their room for today, within the staff ratio.

    Args:
        child_id: The child.
        dropped_off_by: Who dropped the child off.
    """
    child = ctx.get(Child, child_id, field="child_id")
    if child.status != "enrolled" or child.room_id is None:
        raise RuleViolation(f"{child.name} is {child.status}", field="child_id", hint="enroll the child in a room")
    if _open_visit(ctx, child.id) is not None:
        raise Conflict(f"{child.name} is already checked in", field="child_id", hint="check out first")
    room = ctx.get(Room, child.room_id)
    if len(_present(ctx, room.id)) + 1 > _on_floor(ctx, room.id) * RATIO[room.age_group]:
        raise RuleViolation(
            f"{room.name} is at ratio 1:{RATIO[room.age_group]}",
            field="child_id",
            hint="check another staff member in to the room first",
        )
    return ctx.create(
        Attendance, child_id=child.id, room_id=room.id, day=ctx.today(), in_at=ctx.now(), dropped_off_by=dropped_off_by
    )


def _example_child_out(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Attendance, day=ctx.today()):
        fam = ctx.first(FamilyContact, child_id=a.child_id)
        if a.out_at is None and fam is not None:
            return {"child_id": a.child_id, "picked_up_by": fam.name}
    return None


@service.tool(intent="check the child out", write=True, example=_example_child_out)
def check_out_child(ctx: Ctx, child_id: ChildId, picked_up_by: PersonName) -> Attendance:
    """Check a child out to a guardian or approved pickup (by name).

    Args:
        child_id: The child.
        picked_up_by: The adult taking the child; must be on the child's family contacts.
    """
    child = ctx.get(Child, child_id, field="child_id")
    visit = _open_visit(ctx, child.id)
    if visit is None:
        raise RuleViolation(f"{child.name} is not checked in", field="child_id", hint="nothing to do")
    names = {f.name.lower() for f in ctx.where(FamilyContact, child_id=child.id)}
    if picked_up_by.strip().lower() not in names:
        raise RuleViolation(
            f"{picked_up_by} is not approved to pick up {child.name}",
            field="picked_up_by",
            hint="add them as an approved pickup first",
        )
    return ctx.update(visit, out_at=ctx.now(), picked_up_by=picked_up_by.strip())


def _example_activity(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.where(Attendance, day=ctx.today()):
        if a.out_at is None:
            room = ctx.get(Room, a.room_id)
            return {
                "child_id": a.child_id,
                "kind": "meal",
                "details": "Ate all of lunch",
                "staff_email": room.lead_teacher_email,
            }
    return None


@service.tool(intent="log a daily report activity", write=True, example=_example_activity)
def log_activity(
    ctx: Ctx,
    child_id: ChildId,
    kind: Literal["meal", "nap", "diaper", "note", "incident"],
    details: Text,
    staff_email: Email,
) -> Activity:
    """Add a meal, nap, diaper, note or incident to a checked-in child's daily report.

    Args:
        child_id: The child (checked in today).
        kind: meal, nap, diaper, note or incident.
        details: What happened.
        staff_email: The staff member logging it.
    """
    child = ctx.get(Child, child_id, field="child_id")
    require_employee(ctx, staff_email, field="staff_email", hint="staff log activities")
    if _open_visit(ctx, child.id) is None:
        raise RuleViolation(f"{child.name} is not checked in", field="child_id", hint="check the child in first")
    if not details.strip():
        raise RuleViolation("say what happened", field="details", hint="describe the activity")
    return ctx.create(Activity, child_id=child.id, kind=kind, details=details.strip(), staff_email=staff_email)


@service.tool(intent="bill the month's tuition", write=True, example=lambda ctx: {"month": f"{ctx.today():%Y-%m}"})
def bill_tuition(ctx: Ctx, month: Month) -> list[Invoice]:
    """Invoice every enrolled child's primary guardian for a month (once per child and month), due on the 5th.

    Args:
        month: The month, YYYY-MM.
    """
    year, mon = (int(x) for x in month.split("-"))
    made = []
    for child in ctx.where(Child, status="enrolled"):
        if child.monthly_tuition and not ctx.where(Invoice, child_id=child.id, month=month):
            payer = next((f for f in ctx.where(FamilyContact, child_id=child.id, role="guardian") if f.email), None)
            if payer is not None and payer.email is not None:
                made.append(
                    ctx.create(
                        Invoice,
                        child_id=child.id,
                        payer_email=payer.email,
                        month=month,
                        amount=child.monthly_tuition,
                        due_on=dt.date(year, mon, 5),
                    )
                )
    if not made:
        raise Conflict(f"tuition for {month} is already billed", field="month", hint="list that month's invoices")
    return made


@service.tool(
    intent="record the tuition payment",
    write=True,
    example=first_example(Invoice, "invoice_id", where={"status": "open"}),
)
def pay_invoice(ctx: Ctx, invoice_id: InvoiceId) -> Invoice:
    """Record that an open tuition invoice was paid today.

    Args:
        invoice_id: The invoice.
    """
    inv = ctx.get(Invoice, invoice_id, field="invoice_id")
    if inv.status != "open":
        raise RuleViolation(f"invoice {inv.id} is {inv.status}", field="invoice_id", hint="only open invoices")
    return ctx.update(inv, status="paid", paid_on=ctx.today())


# -- seed -------------------------------------------------------------------------------------

ROOMS: tuple[tuple[str, AgeGroup, int, int], ...] = (
    ("Caterpillars", "infant", 8, 110000),
    ("Ladybugs", "toddler", 12, 165000),
    ("Dragonflies", "preschool", 20, 140000),
    ("Owls", "pre_k", 24, 125000),
)
KIDS = ("Mia", "Leo", "Ava", "Noah", "Zoe", "Eli", "Ivy", "Max", "Ruby", "Sam", "Nora", "Finn")


@service.seeder
def seed(s: SeedContext) -> None:
    """Rooms led by staff, the world's young parents' children, family contacts, today's check-ins, invoices."""
    pop = s.population
    staff = pop.staff("Operations", "People", fallback=6)
    today = s.now.date()
    parents = [p for p in pop.consumers if 25 <= (today - p.birth_date).days // 365 <= 45][:12] or list(
        pop.consumers[:12]
    )
    rooms = [
        s.create(
            Room,
            name=name,
            age_group=age,
            capacity=cap,
            lead_teacher_email=staff[k % len(staff)].email,
            created_at=s.ago(days=900),
            updated_at=s.ago(days=30),
        )
        for k, (name, age, cap, _) in enumerate(ROOMS)
    ]
    for k, room in enumerate(rooms):
        s.create(
            StaffShift,
            room_id=room.id,
            staff_email=room.lead_teacher_email,
            in_at=s.ago(hours=2),
            created_at=s.ago(hours=2),
        )
        if k == 1:
            s.create(
                StaffShift,
                room_id=room.id,
                staff_email=staff[4 % len(staff)].email,
                in_at=s.ago(hours=1),
                created_at=s.ago(hours=1),
            )
    for k, parent in enumerate(parents):
        room = rooms[k % len(rooms)]
        age_days = (90, 500, 1200, 1700)[k % 4]
        status = "waitlisted" if k == 11 else "withdrawn" if k == 10 else "enrolled"
        child = s.create(
            Child,
            name=f"{KIDS[k % len(KIDS)]} {parent.last_name}",
            birth_date=today - dt.timedelta(days=age_days + 13 * k),
            room_id=None if status == "waitlisted" else room.id,
            status=status,
            allergies="peanuts" if k % 5 == 0 else "",
            monthly_tuition=ROOMS[k % 4][3],
            created_at=s.ago(days=300 - 10 * k),
            updated_at=s.ago(days=20),
        )
        s.create(
            FamilyContact,
            child_id=child.id,
            name=parent.name,
            email=parent.email,
            phone=parent.phone,
            relationship="parent",
            created_at=s.ago(days=300 - 10 * k),
        )
        s.create(
            FamilyContact,
            child_id=child.id,
            name=f"Grandma {parent.last_name}",
            phone=parent.phone,
            relationship="grandparent",
            role="approved_pickup",
            created_at=s.ago(days=200),
        )
        if status != "enrolled":
            continue
        if k < 6:
            visit = s.create(
                Attendance,
                child_id=child.id,
                room_id=room.id,
                day=today,
                in_at=s.ago(hours=1.5),
                dropped_off_by=parent.name,
                created_at=s.ago(hours=1.5),
            )
            s.create(
                Activity,
                child_id=child.id,
                kind="meal",
                details="Breakfast: oatmeal and berries",
                staff_email=room.lead_teacher_email,
                created_at=visit.in_at + dt.timedelta(minutes=20),
            )
        for back, paid in ((2, True), (1, k % 3 != 0)):
            m = today.month - 1 - back
            y, mm = today.year + m // 12, m % 12 + 1
            s.create(
                Invoice,
                child_id=child.id,
                payer_email=parent.email,
                month=f"{y:04d}-{mm:02d}",
                amount=child.monthly_tuition,
                due_on=dt.date(y, mm, 5),
                status="paid" if paid else "open",
                paid_on=dt.date(y, mm, 3) if paid else None,
                created_at=s.ago(days=30 * back + 5),
                updated_at=s.ago(days=30 * back),
            )
