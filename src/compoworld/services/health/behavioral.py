"""Willow Behavioral Health: clients, therapy appointments, signed and locked progress notes, plans and superbills.

Modeled on SimplePractice (clients with insurance or self-pay billing and a
client portal, clinicians with a license type, appointments by CPT service
code (90791 intake, 90834, 90837, 90847) that are attended, cancelled, late
cancelled inside 24 hours (with the practice's late fee) or no-shows;
progress notes in SOAP, DAP or BIRP format written for attended appointments,
edited while draft and signed, which locks them; treatment plans with a
diagnosis, goals and a review date, one active per client; superbills
gathering a month's attended, documented appointments for out-of-network
reimbursement; and portal requests from clients for appointments that the
clinician accepts, booking them, or declines): an appointment needs an active
client and a clinician free then, only an intake (90791) is booked for a
client without one attended, and a superbill needs every appointment it
lists to have a signed note and to be on no other superbill.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, IdOf, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "behavioral",
    title="Willow Behavioral Health",
    category="behavioral_health",
    modeled_on="SimplePractice: clients, clinicians, appointments by CPT code with late-cancel fees, progress notes "
    "(SOAP/DAP/BIRP) signed and locked, treatment plans, superbills, client portal appointment requests",
    description="A therapy practice: clients and their billing, intake and therapy sessions with clinicians, progress "
    "notes that lock when signed, treatment plans with goals, monthly superbills, and appointment requests clients "
    "send from the portal.",
)

ClientId = Annotated[str, IdOf("behavioral.client")]
ClinicianId = Annotated[str, IdOf("behavioral.clinician")]
ApptId = Annotated[str, IdOf("behavioral.appointment")]
NoteId = Annotated[str, IdOf("behavioral.note")]
PlanId = Annotated[str, IdOf("behavioral.treatment_plan")]
SuperbillId = Annotated[str, IdOf("behavioral.superbill")]
RequestId = Annotated[str, IdOf("behavioral.portal_request")]

Billing = Literal["insurance", "self_pay", "sliding_scale"]
License = Literal["lcsw", "lpc", "lmft", "psyd", "phd"]
ServiceCode = Literal["90791", "90834", "90837", "90847"]
ApptStatus = Literal["scheduled", "attended", "cancelled", "late_cancelled", "no_show"]
Location = Literal["office", "telehealth"]
NoteFormat = Literal["soap", "dap", "birp"]
NoteStatus = Literal["draft", "signed"]
PlanStatus = Literal["draft", "active", "closed"]
BillStatus = Literal["draft", "issued"]
RequestStatus = Literal["pending", "accepted", "declined"]

MINUTES: dict[str, int] = {"90791": 60, "90834": 45, "90837": 60, "90847": 50}
LATE_CANCEL = dt.timedelta(hours=24)
LATE_FEE_CENTS = 7500
F_CODE = r"^F[0-9]{2}(\.[0-9A-Z]{1,4})?$"


class Client(Timestamped):
    """A client of the practice."""

    id: ClientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail (unique; the portal login)."""
    phone: Phone
    """Phone."""
    birth_date: Date
    """Date of birth."""
    billing_type: Billing = "self_pay"
    """insurance, self_pay or sliding_scale."""
    session_fee_cents: Cents = 15000
    """The fee of a session."""
    clinician_id: ClinicianId | None = None
    """Their primary clinician."""
    status: Literal["active", "inactive"] = "active"
    """active or inactive."""
    balance_cents: Cents = 0
    """What they owe (late-cancel and no-show fees)."""


class Clinician(Timestamped):
    """A therapist of the practice."""

    id: ClinicianId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    license: License
    """lcsw, lpc, lmft, psyd or phd."""
    accepting_clients: bool = True
    """Whether new clients can request them."""


class Appointment(Timestamped):
    """A session with a client."""

    id: ApptId
    client_id: ClientId
    """The client."""
    clinician_id: ClinicianId
    """The clinician."""
    service_code: ServiceCode
    """90791 intake, 90834 (45 min), 90837 (60 min) or 90847 (family)."""
    starts_at: DateTime
    """When."""
    location: Location = "office"
    """office or telehealth."""
    status: ApptStatus = "scheduled"
    """scheduled, attended, cancelled, late_cancelled or no_show."""
    fee_cents: Cents = 0
    """The fee charged."""


class Note(Timestamped):
    """A progress note for an attended appointment; signing locks it."""

    id: NoteId
    appointment_id: ApptId
    """The appointment."""
    client_id: ClientId
    """The client."""
    clinician_id: ClinicianId
    """The author."""
    format: NoteFormat = "soap"
    """soap, dap or birp."""
    content: Text = ""
    """The note."""
    status: NoteStatus = "draft"
    """draft or signed (locked)."""
    signed_at: DateTime | None = None
    """When it was signed."""


class TreatmentPlan(Timestamped):
    """A client's treatment plan."""

    id: PlanId
    client_id: ClientId
    """The client."""
    diagnosis: Annotated[str, Field(pattern=F_CODE)]
    """ICD-10 mental health diagnosis (F code)."""
    goals: Text
    """Goals and objectives."""
    review_on: Date
    """When it is reviewed."""
    status: PlanStatus = "draft"
    """draft, active or closed."""


class Superbill(Timestamped):
    """A statement of services for a client to claim out of network."""

    id: SuperbillId
    client_id: ClientId
    """The client."""
    appointment_ids: tuple[ApptId, ...]
    """The sessions it lists."""
    total_cents: Cents
    """Sum of their fees."""
    status: BillStatus = "draft"
    """draft or issued (sent to the client)."""


class PortalRequest(Timestamped):
    """An appointment request a client made from the portal."""

    id: RequestId
    client_id: ClientId
    """The client."""
    clinician_id: ClinicianId
    """The clinician asked for."""
    requested_at: DateTime
    """The time asked for."""
    service_code: ServiceCode = "90834"
    """The session type asked for."""
    message: Text = ""
    """The client's message."""
    status: RequestStatus = "pending"
    """pending, accepted or declined."""
    appointment_id: ApptId | None = None
    """The appointment made when accepted."""


# -- rules ------------------------------------------------------------------------------------


def _guard_activate(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "active" and old.status != "active":
        for other in ctx.where(TreatmentPlan, client_id=new.client_id, status="active"):
            if other.id != new.id:
                ctx.update(other, status="closed")


def _guard_note(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.status == "signed":
        raise RuleViolation(f"note {old.id} is signed and locked", field="note_id", hint="signed notes are final")


clients = service.resource(
    Client,
    name="client",
    plural="clients",
    prefix="cl",
    create=("name", "email", "phone", "birth_date", "billing_type", "session_fee_cents", "clinician_id"),
    filters=("email", "status", "billing_type", "clinician_id"),
    search=("name",),
    update=("email", "phone", "billing_type", "session_fee_cents", "clinician_id"),
    delete=False,
    unique=("email",),
    transitions={
        "deactivate": Transition("status", ("active",), "inactive", "make the client inactive"),
        "reactivate": Transition("status", ("inactive",), "active", "make the client active again"),
    },
)
clinicians_res = service.resource(
    Clinician,
    name="clinician",
    plural="clinicians",
    prefix="clin",
    create=False,
    filters=("license", "email", "accepting_clients"),
    search=("name",),
    update=("accepting_clients",),
    delete=False,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="apt",
    create=False,
    filters=("client_id", "clinician_id", "status", "service_code"),
    delete=False,
)
notes = service.resource(
    Note,
    name="note",
    plural="notes",
    prefix="note",
    create=False,
    filters=("client_id", "clinician_id", "status", "appointment_id"),
    update=("content", "format"),
    delete=False,
    guard_update=_guard_note,
    title="progress note",
)
plans = service.resource(
    TreatmentPlan,
    name="treatment_plan",
    plural="treatment_plans",
    prefix="tp",
    create=False,
    filters=("client_id", "status"),
    update=("goals", "review_on"),
    delete=False,
    transitions={
        "activate": Transition("status", ("draft",), "active", "activate the treatment plan"),
        "close": Transition("status", ("active",), "closed", "close the treatment plan"),
    },
    guard_update=_guard_activate,
)
superbills = service.resource(
    Superbill,
    name="superbill",
    plural="superbills",
    prefix="sb",
    create=False,
    filters=("client_id", "status"),
    delete=False,
    transitions={"issue": Transition("status", ("draft",), "issued", "issue the superbill to the client")},
)
requests = service.resource(
    PortalRequest,
    name="portal_request",
    plural="portal_requests",
    prefix="req",
    create=False,
    filters=("client_id", "clinician_id", "status"),
    delete=False,
    title="portal appointment request",
)


# -- domain tools -----------------------------------------------------------------------------


def _book(ctx: Ctx, client_id: str, clinician_id: str, code: str, starts_at: dt.datetime, location: str) -> Appointment:
    client = ctx.get(Client, client_id, field="client_id")
    if client.status != "active":
        raise RuleViolation(f"{client.name} is inactive", field="client_id", hint="reactivate the client first")
    who = ctx.get(Clinician, clinician_id, field="clinician_id")
    if starts_at <= ctx.now():
        raise RuleViolation("the time has passed", field="starts_at", hint="pick a future time")
    had_intake = any(
        a.service_code == "90791" and a.status in ("attended", "scheduled")
        for a in ctx.where(Appointment, client_id=client.id)
    )
    if code != "90791" and not had_intake:
        raise RuleViolation(f"{client.name} has had no intake", field="service_code", hint="book a 90791 intake first")
    end = starts_at + dt.timedelta(minutes=MINUTES[code])
    for other in ctx.where(Appointment, clinician_id=who.id, status="scheduled"):
        other_end = other.starts_at + dt.timedelta(minutes=MINUTES[other.service_code])
        if other.starts_at < end and starts_at < other_end:
            raise Conflict(f"{who.name} has appointment {other.id} then", field="starts_at", hint="pick another time")
    return ctx.create(
        Appointment,
        client_id=client.id,
        clinician_id=who.id,
        service_code=code,
        starts_at=starts_at,
        location=location,
        fee_cents=client.session_fee_cents,
    )


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    for client in ctx.where(Client, status="active"):
        if client.clinician_id and ctx.where(Appointment, client_id=client.id, status="attended"):
            return {
                "client_id": client.id,
                "clinician_id": client.clinician_id,
                "service_code": "90837",
                "starts_at": utc_at(ctx.today() + dt.timedelta(days=11), 7).isoformat(),
                "location": "telehealth",
            }
    return None


@service.tool(intent="book a therapy appointment for the client", write=True, example=_example_book)
def book_appointment(
    ctx: Ctx,
    client_id: ClientId,
    clinician_id: ClinicianId,
    service_code: ServiceCode,
    starts_at: DateTime,
    location: Location = "office",
) -> Appointment:
    """Book a session for an active client with a clinician free then; a new client's first session is an intake.

    Args:
        client_id: The client.
        clinician_id: The clinician.
        service_code: 90791 intake, 90834, 90837 or 90847.
        starts_at: When (in the future).
        location: office or telehealth.
    """
    return _book(ctx, client_id, clinician_id, service_code, starts_at, location)


@service.tool(
    intent="mark the appointment attended",
    write=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "scheduled"}, match=lambda c, a: a.starts_at <= c.now()
    ),
)
def mark_attended(ctx: Ctx, appointment_id: ApptId) -> Appointment:
    """Record that a scheduled session that has begun took place.

    Args:
        appointment_id: A scheduled appointment whose time has come.
    """
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status != "scheduled":
        raise RuleViolation(f"appointment {appt.id} is {appt.status}", field="appointment_id", hint="only scheduled")
    if appt.starts_at > ctx.now():
        raise RuleViolation("the session has not started", field="appointment_id", hint="wait for the session")
    return ctx.update(appt, status="attended")


@service.tool(
    intent="cancel the appointment",
    write=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "scheduled"}, match=lambda c, a: a.starts_at > c.now()
    ),
)
def cancel_appointment(ctx: Ctx, appointment_id: ApptId, charge_late_fee: bool = True) -> Appointment:
    """Cancel a future session; inside 24 hours it is a late cancellation and the late fee goes on the balance.

    Args:
        appointment_id: A scheduled appointment not yet started.
        charge_late_fee: Whether to charge the fee for a late cancellation.
    """
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status != "scheduled" or appt.starts_at <= ctx.now():
        raise RuleViolation(
            f"appointment {appt.id} is {appt.status} at {appt.starts_at:%Y-%m-%d %H:%M}",
            field="appointment_id",
            hint="cancel a future scheduled session; record a missed one as a no-show",
        )
    if appt.starts_at - ctx.now() >= LATE_CANCEL:
        return ctx.update(appt, status="cancelled", fee_cents=0)
    fee = LATE_FEE_CENTS if charge_late_fee else 0
    client = ctx.get(Client, appt.client_id)
    ctx.update(client, balance_cents=client.balance_cents + fee)
    return ctx.update(appt, status="late_cancelled", fee_cents=fee)


@service.tool(
    intent="mark the client a no-show",
    write=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "scheduled"}, match=lambda c, a: a.starts_at <= c.now()
    ),
)
def mark_no_show(ctx: Ctx, appointment_id: ApptId) -> Appointment:
    """Record a scheduled session the client missed; the late fee goes on their balance.

    Args:
        appointment_id: A scheduled appointment whose time has come.
    """
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status != "scheduled" or appt.starts_at > ctx.now():
        raise RuleViolation(
            f"appointment {appt.id} is {appt.status}", field="appointment_id", hint="only a session that began"
        )
    client = ctx.get(Client, appt.client_id)
    ctx.update(client, balance_cents=client.balance_cents + LATE_FEE_CENTS)
    return ctx.update(appt, status="no_show", fee_cents=LATE_FEE_CENTS)


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    for appt in ctx.where(Appointment, status="attended"):
        if ctx.first(Note, appointment_id=appt.id) is None:
            return {"appointment_id": appt.id, "format": "dap", "content": "D: Reports better sleep. A: Progressing."}
    return None


@service.tool(intent="write a progress note for the appointment", write=True, example=_example_note)
def write_note(ctx: Ctx, appointment_id: ApptId, content: Text, format: NoteFormat = "soap") -> Note:
    """Start the progress note (draft) of an attended appointment; each appointment has one note.

    Args:
        appointment_id: An attended appointment.
        content: The note.
        format: soap, dap or birp.
    """
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status != "attended":
        raise RuleViolation(
            f"appointment {appt.id} is {appt.status}", field="appointment_id", hint="notes document attended sessions"
        )
    if ctx.first(Note, appointment_id=appt.id) is not None:
        raise Conflict(f"appointment {appt.id} has a note", field="appointment_id", hint="edit the existing note")
    return ctx.create(
        Note,
        appointment_id=appt.id,
        client_id=appt.client_id,
        clinician_id=appt.clinician_id,
        format=format,
        content=content,
    )


@service.tool(
    intent="sign and lock the progress note",
    write=True,
    example=first_example(Note, "note_id", where={"status": "draft"}, match=lambda c, n: bool(n.content.strip())),
)
def sign_note(ctx: Ctx, note_id: NoteId) -> Note:
    """Sign a draft note that has content: it is locked from then on.

    Args:
        note_id: A draft note.
    """
    note = ctx.get(Note, note_id, field="note_id")
    if note.status != "draft":
        raise RuleViolation(f"note {note.id} is already signed", field="note_id", hint="signed notes are final")
    if not note.content.strip():
        raise RuleViolation("the note is empty", field="note_id", hint="write the note before signing")
    return ctx.update(note, status="signed", signed_at=ctx.now())


def _example_superbill(ctx: Ctx) -> dict[str, Any] | None:
    billed = {a for sb in ctx.where(Superbill) for a in sb.appointment_ids}
    for note in ctx.where(Note, status="signed"):
        if note.appointment_id not in billed:
            return {"client_id": note.client_id, "appointment_ids": [note.appointment_id]}
    return None


@service.tool(intent="create a superbill for the client", write=True, example=_example_superbill)
def create_superbill(ctx: Ctx, client_id: ClientId, appointment_ids: list[ApptId]) -> Superbill:
    """Gather a client's attended sessions with signed notes, none billed before, on a draft superbill.

    Args:
        client_id: The client.
        appointment_ids: The sessions to list.
    """
    client = ctx.get(Client, client_id, field="client_id")
    if not appointment_ids or len(set(appointment_ids)) != len(appointment_ids):
        raise RuleViolation("list each session once", field="appointment_ids", hint="list attended sessions")
    billed = {a for sb in ctx.where(Superbill, client_id=client.id) for a in sb.appointment_ids}
    total = 0
    for aid in appointment_ids:
        appt = ctx.get(Appointment, aid, field="appointment_ids")
        note = ctx.first(Note, appointment_id=aid, status="signed")
        if appt.client_id != client.id or appt.status != "attended" or note is None:
            raise RuleViolation(
                f"appointment {aid} is not an attended session of {client.name} with a signed note",
                field="appointment_ids",
                hint="sign its note first, or leave it out",
            )
        if aid in billed:
            raise Conflict(f"appointment {aid} is on another superbill", field="appointment_ids", hint="leave it out")
        total += appt.fee_cents
    return ctx.create(Superbill, client_id=client.id, appointment_ids=tuple(appointment_ids), total_cents=total)


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    client = ctx.first(Client, status="active")
    if client is None:
        return None
    return {
        "client_id": client.id,
        "diagnosis": "F41.1",
        "goals": "Practice two coping skills a day.",
        "review_on": (ctx.today() + dt.timedelta(days=90)).isoformat(),
    }


@service.tool(intent="write a treatment plan for the client", write=True, example=_example_plan)
def create_treatment_plan(
    ctx: Ctx,
    client_id: ClientId,
    diagnosis: Annotated[str, Field(pattern=F_CODE)],
    goals: Text,
    review_on: Date,
) -> TreatmentPlan:
    """Draft a treatment plan for a client: an F-code diagnosis, goals and a review date ahead.

    Args:
        client_id: The client.
        diagnosis: ICD-10 mental health diagnosis (F code, e.g. F41.1).
        goals: Goals and objectives (required).
        review_on: When the plan is reviewed (after today).
    """
    client = ctx.get(Client, client_id, field="client_id")
    if review_on <= ctx.today():
        raise RuleViolation("the review date has passed", field="review_on", hint="set a review date ahead")
    if not goals.strip():
        raise RuleViolation("a treatment plan states goals", field="goals", hint="write the goals")
    return ctx.create(TreatmentPlan, client_id=client.id, diagnosis=diagnosis, goals=goals.strip(), review_on=review_on)


@service.tool(
    intent="accept the client's appointment request",
    write=True,
    example=first_example(PortalRequest, "request_id", where={"status": "pending"}),
)
def accept_request(ctx: Ctx, request_id: RequestId) -> PortalRequest:
    """Accept a pending portal request: the appointment is booked at the requested time.

    Args:
        request_id: A pending request.
    """
    req = ctx.get(PortalRequest, request_id, field="request_id")
    if req.status != "pending":
        raise RuleViolation(f"request {req.id} is {req.status}", field="request_id", hint="only pending requests")
    appt = _book(ctx, req.client_id, req.clinician_id, req.service_code, req.requested_at, "office")
    return ctx.update(req, status="accepted", appointment_id=appt.id)


@service.tool(
    intent="decline the client's appointment request",
    write=True,
    example=first_example(PortalRequest, "request_id", where={"status": "pending"}),
)
def decline_request(ctx: Ctx, request_id: RequestId) -> PortalRequest:
    """Decline a pending portal request.

    Args:
        request_id: A pending request.
    """
    req = ctx.get(PortalRequest, request_id, field="request_id")
    if req.status != "pending":
        raise RuleViolation(f"request {req.id} is {req.status}", field="request_id", hint="only pending requests")
    return ctx.update(req, status="declined")


@service.tool(intent="find the client by e-mail")
def find_client(ctx: Ctx, email: Email) -> Client:
    """The client with this e-mail (the portal login).

    Args:
        email: The client's e-mail.
    """
    client = ctx.first(Client, email=email)
    if client is None:
        raise RuleViolation(f"no client with e-mail {email}", field="email", hint="search clients by name")
    return client


# -- seed -------------------------------------------------------------------------------------

DIAGNOSES = (
    ("F41.1", "Reduce worry to 2 days a week; use grounding skills."),
    ("F32.1", "Return to work full time; PHQ-9 under 10."),
    ("F43.10", "Sleep 6+ hours; fewer intrusive memories."),
    ("F90.0", "Use a planner daily; finish projects on time."),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Clinicians of the practice, consumer clients with intakes, sessions, notes, plans, superbills, requests."""
    pop = s.population
    docs = clinicians(pop)
    made = [
        s.create(
            Clinician,
            name=p.name,
            email=p.email,
            license=("lcsw", "lpc", "psyd")[i],
            accepting_clients=i != 2,
            created_at=s.ago(days=700),
        )
        for i, (p, _) in enumerate(docs[3:6])
    ]
    keys = {p.key for p, _ in docs}
    people = [p for p in pop.consumers if p.key not in keys][20:30]
    today = s.now.date()
    for k, p in enumerate(people):
        clin = made[k % len(made)]
        fee = (15000, 17500, 12000)[k % 3]
        client = s.create(
            Client,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            billing_type=("insurance", "self_pay", "sliding_scale")[k % 3],
            session_fee_cents=fee,
            clinician_id=clin.id,
            status="inactive" if k == 9 else "active",
            created_at=s.ago(days=60 + 5 * k),
        )
        diagnosis, goals = DIAGNOSES[k % len(DIAGNOSES)]
        s.create(
            TreatmentPlan,
            client_id=client.id,
            diagnosis=diagnosis,
            goals=goals,
            review_on=today + dt.timedelta(days=30 + k),
            status="draft" if k == 4 else "active",
        )
        if k == 8:
            continue
        for n in range(4):
            when = utc_at(today - dt.timedelta(days=35 - 7 * n), 14 + k % 5)
            appt = s.create(
                Appointment,
                client_id=client.id,
                clinician_id=clin.id,
                service_code="90791" if n == 0 else "90834",
                starts_at=when,
                location="telehealth" if k % 2 else "office",
                status="attended" if n != 2 or k % 3 else "no_show",
                fee_cents=fee if n != 2 or k % 3 else LATE_FEE_CENTS,
            )
            if appt.status == "attended" and not (n == 3 and k % 2):
                s.create(
                    Note,
                    appointment_id=appt.id,
                    client_id=client.id,
                    clinician_id=clin.id,
                    format=("soap", "dap", "birp")[k % 3],
                    content="S: Reports lower anxiety this week. O: Engaged. A: Progressing. P: Continue CBT.",
                    status="draft" if n == 3 else "signed",
                    signed_at=None if n == 3 else when + dt.timedelta(hours=2),
                )
        if k < 3:
            first_two = [a.id for a in s.records(Appointment) if a.client_id == client.id][:2]
            s.create(
                Superbill,
                client_id=client.id,
                appointment_ids=tuple(first_two),
                total_cents=2 * fee,
                status="issued" if k == 0 else "draft",
            )
        if k < 9:
            s.create(
                Appointment,
                client_id=client.id,
                clinician_id=clin.id,
                service_code="90837" if k % 2 else "90834",
                starts_at=utc_at(today + dt.timedelta(days=k % 4), 15 + k % 5) if k != 1 else s.ago(minutes=10),
                location="office",
                fee_cents=fee,
            )
    for k, client in enumerate(s.records(Client)[:4]):
        s.create(
            PortalRequest,
            client_id=client.id,
            clinician_id=made[k % len(made)].id,
            requested_at=utc_at(today + dt.timedelta(days=8 + k), 12 + k),
            message="Could we meet earlier in the day?" if k % 2 else "",
            status="pending" if k < 3 else "declined",
        )
