"""Bridgeway Cases: non-profit case management: clients, programs, enrollments, service notes, goals, referrals.

Modeled on Apricot by Bonterra (formerly Social Solutions): client profiles
with an assigned case manager, programs with a capacity and age range,
program enrollments (enrolled, or waitlisted when the program is full, then
completed or exited with a reason; the first waitlisted client moves up when
a seat frees), service notes (contacts logged by staff against an active
enrollment: service type, date, minutes), goals with target dates and
outcomes (not started → in progress → achieved or not achieved; an enrollment
completes only when none is still open), and referrals out to partner
organizations (sent → accepted or declined → completed) with a follow-up date.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import CompanyName, Date, Email, FirstName, IdOf, LastName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import age_on

__all__ = ["service"]

service = Service(
    "casemanage",
    title="Bridgeway Cases",
    category="nonprofit_case_management",
    modeled_on="Apricot by Bonterra (Social Solutions): client profiles, programs, program enrollments, "
    "service notes, goals and outcomes, referrals out to partner organizations",
    description="The non-profit's client case files: people served and their case managers, the programs they "
    "enroll in, service notes staff log, goals with outcomes, and referrals to partner organizations.",
)

ClientId = Annotated[str, IdOf("casemanage.client")]
ProgramId = Annotated[str, IdOf("casemanage.program")]
EnrollmentId = Annotated[str, IdOf("casemanage.enrollment")]
NoteId = Annotated[str, IdOf("casemanage.note")]
GoalId = Annotated[str, IdOf("casemanage.goal")]
ReferralId = Annotated[str, IdOf("casemanage.referral")]

ServiceType = Literal["case_management", "counseling", "job_coaching", "housing_search", "transportation", "benefits"]
EnrollmentStatus = Literal["enrolled", "waitlisted", "completed", "exited"]
ExitReason = Literal["moved", "lost_contact", "declined_services", "ineligible", "other"]
GoalStatus = Literal["not_started", "in_progress", "achieved", "not_achieved"]
Need = Literal["housing", "food", "legal", "mental_health", "employment", "medical"]
OPEN_GOAL: tuple[GoalStatus, ...] = ("not_started", "in_progress")
LIVE: tuple[EnrollmentStatus, ...] = ("enrolled", "waitlisted")


class Client(Timestamped):
    """A person the organization serves."""

    id: ClientId
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Phone."""
    birth_date: Date
    """Date of birth."""
    case_manager_email: Email | None = None
    """The assigned case manager (staff)."""
    status: Literal["active", "inactive"] = "active"
    """active or inactive."""


class Program(Timestamped):
    """A program clients enroll in."""

    id: ProgramId
    name: Title
    """The program's name."""
    capacity: Annotated[int, Field(ge=1, le=1000)]
    """Seats."""
    enrolled: int = 0
    """Clients enrolled."""
    min_age: Annotated[int, Field(ge=0, le=120)] = 0
    """Youngest age."""
    max_age: Annotated[int, Field(ge=0, le=120)] = 120
    """Oldest age."""
    lead_email: Email
    """The program lead (staff)."""
    status: Literal["open", "closed"] = "open"
    """open or closed to enrollment."""


class Enrollment(Timestamped):
    """A client's enrollment in a program."""

    id: EnrollmentId
    client_id: ClientId
    """The client."""
    client_email: Email
    """The client's e-mail."""
    program_id: ProgramId
    """The program."""
    status: EnrollmentStatus = "enrolled"
    """enrolled, waitlisted, completed or exited."""
    enrolled_on: Date | None = None
    """When a seat was given."""
    ended_on: Date | None = None
    """When it completed or exited."""
    exit_reason: ExitReason | None = None
    """Why the client exited."""


class Note(Timestamped):
    """A service note: one contact with the client."""

    id: NoteId
    client_id: ClientId
    """The client."""
    enrollment_id: EnrollmentId
    """The enrollment it counts toward."""
    author_email: Email
    """The staff member."""
    service_type: ServiceType
    """case_management, counseling, job_coaching, housing_search, transportation or benefits."""
    service_date: Date
    """When the service took place."""
    minutes: Annotated[int, Field(ge=5, le=480)]
    """Duration."""
    body: Text
    """What happened."""


class Goal(Timestamped):
    """A goal in the client's service plan."""

    id: GoalId
    client_id: ClientId
    """The client."""
    enrollment_id: EnrollmentId
    """The enrollment."""
    description: Title
    """The goal."""
    target_date: Date
    """When it should be met."""
    status: GoalStatus = "not_started"
    """not_started, in_progress, achieved or not_achieved."""
    outcome_on: Date | None = None
    """When the outcome was recorded."""


class Referral(Timestamped):
    """A referral out to a partner organization."""

    id: ReferralId
    client_id: ClientId
    """The client."""
    client_email: Email
    """The client's e-mail."""
    organization: CompanyName
    """The partner organization."""
    need: Need
    """housing, food, legal, mental_health, employment or medical."""
    status: Literal["sent", "accepted", "declined", "completed"] = "sent"
    """sent, accepted, declined or completed."""
    follow_up_on: Date
    """When to check on it."""


class Summary(Value):
    """A client's case at a glance."""

    client_id: ClientId
    """The client."""
    active_enrollments: int
    """Enrolled or waitlisted programs."""
    service_minutes: int
    """Minutes of service logged."""
    goals_achieved: int
    """Goals achieved."""
    goals_open: int
    """Goals not started or in progress."""
    open_referrals: int
    """Referrals sent or accepted."""


# -- rules ------------------------------------------------------------------------------------


def _guard_client(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.email != old.email:
        dup = ctx.first(Client, email=new.email)
        if dup is not None and dup.id != new.id:
            raise Conflict(f"client {dup.id} uses {new.email}", field="email", hint="open that client's file")
    if new.case_manager_email is not None and (old is None or new.case_manager_email != old.case_manager_email):
        require_employee(ctx, new.case_manager_email, field="case_manager_email", hint="assign a staff case manager")


def _guard_program(ctx: Ctx, new: Any, old: Any) -> None:
    require_employee(ctx, new.lead_email, field="lead_email", hint="programs are led by staff")
    if new.min_age > new.max_age:
        raise RuleViolation("min_age is above max_age", field="min_age", hint="swap them")
    if new.capacity < new.enrolled:
        raise RuleViolation(f"{new.enrolled} clients are enrolled", field="capacity", hint="keep room for them")


def _guard_goal(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status in ("achieved", "not_achieved") and old.status not in ("achieved", "not_achieved"):
        ctx.update(new, outcome_on=ctx.today())


def _client(ctx: Ctx, email: str) -> Client:
    found = ctx.first(Client, email=email)
    if found is None:
        raise RuleViolation(f"no client uses {email}", field="email", hint="create the client first")
    return found


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cl",
    create=("first_name", "last_name", "email", "phone", "birth_date", "case_manager_email"),
    filters=("email", "last_name", "case_manager_email", "status"),
    search=("first_name", "last_name"),
    update=("email", "phone", "case_manager_email", "status"),
    delete=False,
    guard_create=_guard_client,
    guard_update=_guard_client,
)
programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prg",
    create=("name", "capacity", "min_age", "max_age", "lead_email"),
    filters=("status", "lead_email"),
    search=("name",),
    update=("capacity", "lead_email"),
    delete=False,
    transitions={
        "close": Transition("status", ("open",), "closed", "close the program to enrollment"),
        "reopen": Transition("status", ("closed",), "open", "reopen the program"),
    },
    guard_create=_guard_program,
    guard_update=_guard_program,
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="en",
    create=False,
    filters=("client_id", "client_email", "program_id", "status"),
    delete=False,
)
notes = service.resource(
    Note,
    name="note",
    plural="notes",
    prefix="nt",
    create=False,
    filters=("client_id", "enrollment_id", "author_email", "service_type", "service_date"),
    search=("body",),
    delete=False,
    title="service note",
)
goals = service.resource(
    Goal,
    name="goal",
    plural="goals",
    prefix="gl",
    create=False,
    filters=("client_id", "enrollment_id", "status"),
    search=("description",),
    delete=False,
    transitions={
        "start": Transition("status", ("not_started",), "in_progress", "start working on the goal"),
        "achieve": Transition("status", ("in_progress",), "achieved", "mark the goal achieved"),
        "miss": Transition("status", ("not_started", "in_progress"), "not_achieved", "mark the goal not achieved"),
    },
    guard_update=_guard_goal,
)
referrals = service.resource(
    Referral,
    name="referral",
    plural="referrals",
    prefix="ref",
    create=False,
    filters=("client_id", "client_email", "organization", "need", "status"),
    delete=False,
    transitions={
        "accept": Transition("status", ("sent",), "accepted", "record the referral as accepted"),
        "decline": Transition("status", ("sent",), "declined", "record the referral as declined"),
        "complete": Transition("status", ("accepted",), "completed", "record the referral as completed"),
    },
)


# -- domain tools -----------------------------------------------------------------------------


def _example_enroll(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Program, status="open"):
        for c in ctx.where(Client, status="active"):
            fits = p.min_age <= age_on(c.birth_date, ctx.today()) <= p.max_age
            taken = [e for e in ctx.where(Enrollment, client_id=c.id, program_id=p.id) if e.status in LIVE]
            if fits and not taken:
                return {"email": c.email, "program_id": p.id}
    return None


@service.tool(intent="enroll the client in the program", write=True, example=_example_enroll)
def enroll_client(ctx: Ctx, email: Email, program_id: ProgramId) -> Enrollment:
    """Enroll an active client in an open program of their age; a full program waitlists them.

    Args:
        email: The client's e-mail.
        program_id: The program.
    """
    c = _client(ctx, email)
    if c.status != "active":
        raise RuleViolation(f"client {email} is inactive", field="email", hint="reactivate the client first")
    p = ctx.get(Program, program_id, field="program_id")
    if p.status != "open":
        raise RuleViolation(f"{p.name} is closed", field="program_id", hint="pick an open program")
    age = age_on(c.birth_date, ctx.today())
    if not p.min_age <= age <= p.max_age:
        raise RuleViolation(f"{p.name} serves ages {p.min_age}-{p.max_age}", field="email", hint="pick another program")
    for e in ctx.where(Enrollment, client_id=c.id, program_id=p.id):
        if e.status in LIVE:
            raise Conflict(f"{email} is already {e.status} ({e.id})", field="email", hint="nothing to do")
    if p.enrolled >= p.capacity:
        return ctx.create(Enrollment, client_id=c.id, client_email=c.email, program_id=p.id, status="waitlisted")
    ctx.update(p, enrolled=p.enrolled + 1)
    return ctx.create(Enrollment, client_id=c.id, client_email=c.email, program_id=p.id, enrolled_on=ctx.today())


@service.tool(
    intent="end the client's enrollment",
    write=True,
    example=first_example(
        Enrollment, "enrollment_id", where={"status": "enrolled"}, completed=False, exit_reason="moved"
    ),
)
def end_enrollment(
    ctx: Ctx, enrollment_id: EnrollmentId, completed: bool, exit_reason: ExitReason | None = None
) -> Enrollment:
    """Complete an enrollment (no goal may be open) or exit it with a reason; the first waitlisted moves up.

    Args:
        enrollment_id: The enrolled or waitlisted enrollment.
        completed: True when the client finished the program; False to exit early.
        exit_reason: Why the client exited (required when not completed).
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status not in LIVE:
        raise Conflict(f"enrollment {e.id} is {e.status}", field="enrollment_id", hint="it already ended")
    if completed:
        if e.status != "enrolled":
            raise RuleViolation("a waitlisted client cannot complete", field="completed", hint="exit it instead")
        open_goals = [g for g in ctx.where(Goal, enrollment_id=e.id) if g.status in OPEN_GOAL]
        if open_goals:
            raise RuleViolation(
                f"{len(open_goals)} goals are still open", field="enrollment_id", hint="record their outcomes first"
            )
    elif exit_reason is None:
        raise RuleViolation("an exit needs a reason", field="exit_reason", hint="say why the client left")
    was_enrolled = e.status == "enrolled"
    done = ctx.update(
        e,
        status="completed" if completed else "exited",
        ended_on=ctx.today(),
        exit_reason=None if completed else exit_reason,
    )
    if was_enrolled:
        p = ctx.get(Program, e.program_id)
        waiting = ctx.where(Enrollment, program_id=p.id, status="waitlisted")
        if waiting:
            ctx.update(waiting[0], status="enrolled", enrolled_on=ctx.today())
        else:
            ctx.update(p, enrolled=p.enrolled - 1)
    return done


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Enrollment, status="enrolled")
    return (
        None
        if e is None
        else {
            "enrollment_id": e.id,
            "author_email": ctx.population.employees[0].email,
            "service_type": "case_management",
            "minutes": 45,
            "body": "Reviewed housing applications and next steps.",
        }
    )


@service.tool(intent="log a service note", write=True, example=_example_note)
def add_service_note(
    ctx: Ctx,
    enrollment_id: EnrollmentId,
    author_email: Email,
    service_type: ServiceType,
    minutes: Annotated[int, Field(ge=5, le=480)],
    body: Text,
    service_date: Date | None = None,
) -> Note:
    """Log a contact with the client against an active enrollment; notes are not dated in the future.

    Args:
        enrollment_id: The enrolled enrollment.
        author_email: The staff member who served the client.
        service_type: case_management, counseling, job_coaching, housing_search, transportation or benefits.
        minutes: Duration (5 to 480).
        body: What happened (required).
        service_date: When (default today).
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status != "enrolled":
        raise RuleViolation(f"enrollment {e.id} is {e.status}", field="enrollment_id", hint="notes need an active one")
    require_employee(ctx, author_email, field="author_email", hint="notes are written by staff")
    day = service_date or ctx.today()
    if day > ctx.today():
        raise RuleViolation("a service cannot be logged ahead", field="service_date", hint="log it once it happened")
    if not body.strip():
        raise RuleViolation("a note needs a body", field="body", hint="describe the contact")
    return ctx.create(
        Note,
        client_id=e.client_id,
        enrollment_id=e.id,
        author_email=author_email,
        service_type=service_type,
        service_date=day,
        minutes=minutes,
        body=body.strip(),
    )


def _example_goal(ctx: Ctx) -> dict[str, Any] | None:
    e = ctx.first(Enrollment, status="enrolled")
    return (
        None
        if e is None
        else {
            "enrollment_id": e.id,
            "description": "Secure stable housing",
            "target_date": (ctx.today() + dt.timedelta(days=90)).isoformat(),
        }
    )


@service.tool(intent="set a goal for the client", write=True, example=_example_goal)
def set_goal(ctx: Ctx, enrollment_id: EnrollmentId, description: Title, target_date: Date) -> Goal:
    """Add a goal to an active enrollment's service plan, with a target date ahead.

    Args:
        enrollment_id: The enrolled enrollment.
        description: The goal.
        target_date: When it should be met (after today).
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status != "enrolled":
        raise RuleViolation(f"enrollment {e.id} is {e.status}", field="enrollment_id", hint="goals need an active one")
    if target_date <= ctx.today():
        raise RuleViolation("the target date must be ahead", field="target_date", hint="pick a later date")
    return ctx.create(Goal, client_id=e.client_id, enrollment_id=e.id, description=description, target_date=target_date)


def _example_refer(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Client, status="active")
    return None if c is None else {"email": c.email, "organization": "Harbor Legal Aid", "need": "legal"}


@service.tool(intent="refer the client to a partner organization", write=True, example=_example_refer)
def refer_client(ctx: Ctx, email: Email, organization: CompanyName, need: Need, follow_up_days: int = 14) -> Referral:
    """Refer a client out for a need; one open referral per organization and need; follow up in 1-60 days.

    Args:
        email: The client's e-mail.
        organization: The partner organization.
        need: housing, food, legal, mental_health, employment or medical.
        follow_up_days: Days until the follow-up check.
    """
    c = _client(ctx, email)
    if not 1 <= follow_up_days <= 60:
        raise RuleViolation("follow up within 1 to 60 days", field="follow_up_days", hint="pick 1 to 60")
    for r in ctx.where(Referral, client_id=c.id, organization=organization, need=need):
        if r.status in ("sent", "accepted"):
            raise Conflict(f"referral {r.id} is already {r.status}", field="organization", hint="follow up on it")
    return ctx.create(
        Referral,
        client_id=c.id,
        client_email=c.email,
        organization=organization,
        need=need,
        follow_up_on=ctx.today() + dt.timedelta(days=follow_up_days),
    )


@service.tool(intent="summarize the client's case", example=first_example(Client, None, fields={"email": "email"}))
def case_summary(ctx: Ctx, email: Email) -> Summary:
    """A client's case at a glance: active enrollments, minutes of service, goals and open referrals.

    Args:
        email: The client's e-mail.
    """
    c = _client(ctx, email)
    goals_all = ctx.where(Goal, client_id=c.id)
    return Summary(
        client_id=c.id,
        active_enrollments=sum(e.status in LIVE for e in ctx.where(Enrollment, client_id=c.id)),
        service_minutes=sum(n.minutes for n in ctx.where(Note, client_id=c.id)),
        goals_achieved=sum(g.status == "achieved" for g in goals_all),
        goals_open=sum(g.status in OPEN_GOAL for g in goals_all),
        open_referrals=sum(r.status in ("sent", "accepted") for r in ctx.where(Referral, client_id=c.id)),
    )


# -- seed -------------------------------------------------------------------------------------

PROGRAMS: tuple[tuple[str, int, int, int], ...] = (
    ("Rapid Rehousing", 6, 18, 120),
    ("Workforce Readiness", 4, 16, 65),
    ("Youth Mentoring", 8, 12, 24),
    ("Senior Connections", 10, 60, 120),
    ("Financial Coaching", 12, 18, 120),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Clients from the world's residents with staff case managers, enrollments, notes, goals and referrals."""
    pop = s.population
    today = s.now.date()
    staff = pop.staff("People", "Support", "Operations", fallback=4)
    progs = [
        s.create(
            Program,
            name=name,
            capacity=cap,
            min_age=lo,
            max_age=hi,
            lead_email=staff[k % len(staff)].email,
            status="closed" if k == 4 else "open",
            created_at=s.ago(days=700),
            updated_at=s.ago(days=30),
        )
        for k, (name, cap, lo, hi) in enumerate(PROGRAMS)
    ]
    counts = [0] * len(progs)
    partners = [co.name for co in pop.companies if not co.home][:4]
    for k, p in enumerate(pop.consumers[:20]):
        manager = staff[k % len(staff)].email
        c = s.create(
            Client,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            case_manager_email=manager,
            status="inactive" if k == 19 else "active",
            created_at=s.ago(days=300 - 10 * k),
            updated_at=s.ago(days=5),
        )
        age = age_on(p.birth_date, today)
        for j, prog in enumerate(progs):
            if not prog.min_age <= age <= prog.max_age or (k + j) % 3 or prog.status == "closed":
                continue
            full = counts[j] >= prog.capacity
            status: EnrollmentStatus = "waitlisted" if full else ("completed" if k % 7 == 6 else "enrolled")
            start = today - dt.timedelta(days=20 + 5 * k)
            e = s.create(
                Enrollment,
                client_id=c.id,
                client_email=c.email,
                program_id=prog.id,
                status=status,
                enrolled_on=None if full else start,
                ended_on=today - dt.timedelta(days=3) if status == "completed" else None,
                created_at=s.ago(days=(today - start).days),
                updated_at=s.ago(days=3),
            )
            if status == "enrolled":
                counts[j] += 1
            if status == "waitlisted":
                continue
            for n in range(2):
                s.create(
                    Note,
                    client_id=c.id,
                    enrollment_id=e.id,
                    author_email=manager,
                    service_type=("case_management", "housing_search", "job_coaching")[(k + n) % 3],
                    service_date=start + dt.timedelta(days=3 + 7 * n),
                    minutes=30 + 15 * n,
                    body="Met with client to review progress on the service plan.",
                    created_at=s.ago(days=(today - start).days - 3 - 7 * n),
                    updated_at=s.ago(days=(today - start).days - 3 - 7 * n),
                )
            gstatus: GoalStatus = "achieved" if status == "completed" else ("in_progress", "not_started")[k % 2]
            s.create(
                Goal,
                client_id=c.id,
                enrollment_id=e.id,
                description=f"{prog.name}: complete the service plan",
                target_date=today + dt.timedelta(days=60),
                status=gstatus,
                outcome_on=today - dt.timedelta(days=3) if gstatus == "achieved" else None,
                created_at=s.ago(days=(today - start).days),
                updated_at=s.ago(days=3),
            )
        if k % 3 == 0 and partners:
            s.create(
                Referral,
                client_id=c.id,
                client_email=c.email,
                organization=partners[k % len(partners)],
                need=("housing", "food", "legal", "employment")[k % 4],
                status=("sent", "accepted", "completed", "declined")[k % 4],
                follow_up_on=today + dt.timedelta(days=10 - k),
                created_at=s.ago(days=k + 4),
                updated_at=s.ago(days=2),
            )
    for prog, n in zip(progs, counts, strict=True):
        s.update(prog, enrolled=n)
