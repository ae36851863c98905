"""Bridgeway Care Management: program enrollment, outreach, care gaps, care plans and transitions of care.

Modeled on population health care management platforms (Innovaccer / Arcadia /
Epic Healthy Planet care management: patients with a risk score and tier;
programs such as diabetes, heart failure and transitional care with a
capacity; enrollments that go identified → outreach → enrolled (with the
patient's consent) → graduated, or declined or disenrolled; outreach attempts
by channel and outcome, three unanswered in a row closing the outreach as
unreachable; HEDIS-style care gaps (HbA1c test, eye exam, mammogram,
colorectal screening, statin therapy, blood pressure control) closed with
evidence or excluded with a reason; care plans with goals; and transitions of
care from admission, discharge and ED feeds, where a discharge needs
interactive contact within two business days and a follow-up visit within
seven or fourteen days (TCM)): a care manager is staff and carries at most
25 patients, and a program never enrolls past its capacity.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Phone, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "caremanage",
    title="Bridgeway Care Management",
    category="care_management",
    modeled_on="Population health care management (Innovaccer / Arcadia / Epic Healthy Planet): risk-tiered "
    "patients, programs and enrollments, outreach attempts, HEDIS care gaps, care plans with goals, transitions "
    "of care (ADT feeds, 2-day contact, TCM follow-up)",
    description="A care management team's workspace: patients ranked by risk, the programs they are enrolled in, "
    "outreach to reach them, open care gaps to close, care plans with goals, and transitions of care after "
    "hospital discharges that need timely contact and follow-up.",
)

PatientId = Annotated[str, IdOf("caremanage.patient")]
ProgramId = Annotated[str, IdOf("caremanage.program")]
EnrollmentId = Annotated[str, IdOf("caremanage.enrollment")]
GapId = Annotated[str, IdOf("caremanage.gap")]
PlanId = Annotated[str, IdOf("caremanage.care_plan")]
OutreachId = Annotated[str, IdOf("caremanage.outreach")]
TocId = Annotated[str, IdOf("caremanage.transition")]

Tier = Literal["low", "rising", "high"]
EnrollStatus = Literal["identified", "outreach", "enrolled", "graduated", "declined", "disenrolled", "unreachable"]
Channel = Literal["phone", "sms", "email", "letter"]
Outcome = Literal["reached", "no_answer", "left_message", "wrong_number", "declined"]
Measure = Literal["hba1c_test", "eye_exam", "mammogram", "colorectal_screening", "statin_therapy", "bp_control"]
GapStatus = Literal["open", "closed", "excluded"]
TocKind = Literal["admission", "discharge", "ed_visit"]
TocStatus = Literal["open", "contacted", "completed"]

MAX_CASELOAD = 25
UNANSWERED_LIMIT = 3
LIVE: tuple[EnrollStatus, ...] = ("identified", "outreach", "enrolled")


def _tier(score: int) -> Tier:
    return "high" if score >= 70 else "rising" if score >= 40 else "low"


def _business_days(start: dt.date, n: int) -> dt.date:
    day = start
    while n:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:
            n -= 1
    return day


class Goal(Value):
    """A goal of a care plan."""

    description: Annotated[str, StringConstraints(min_length=3, max_length=200)]
    """The goal."""
    target_date: Date
    """When."""
    met: bool = False
    """Whether it is met."""


class Patient(Timestamped):
    """A patient in the attributed population."""

    id: PatientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    phone: Phone
    """Phone."""
    birth_date: Date
    """Date of birth."""
    risk_score: Annotated[int, Field(ge=0, le=100)]
    """Predicted risk, 0-100."""
    risk_tier: Tier
    """low, rising or high."""
    pcp_name: PersonName | None = None
    """Primary care provider."""


class Program(Timestamped):
    """A care management program."""

    id: ProgramId
    name: Title
    """Its name."""
    capacity: Annotated[int, Field(ge=1, le=1000)]
    """Most patients enrolled at once."""
    active: bool = True
    """Whether it takes new patients."""


class Enrollment(Timestamped):
    """A patient's place in a program, from identification to discharge."""

    id: EnrollmentId
    patient_id: PatientId
    """The patient."""
    program_id: ProgramId
    """The program."""
    care_manager_email: Email
    """The care manager (staff)."""
    status: EnrollStatus = "identified"
    """identified, outreach, enrolled, graduated, declined, disenrolled or unreachable."""
    consent_on: Date | None = None
    """When the patient consented."""
    unanswered: int = 0
    """Unanswered outreach attempts in a row."""


class Outreach(Timestamped):
    """An outreach attempt."""

    id: OutreachId
    enrollment_id: EnrollmentId
    """The enrollment."""
    channel: Channel
    """phone, sms, email or letter."""
    outcome: Outcome
    """reached, no_answer, left_message, wrong_number or declined."""
    attempted_at: DateTime
    """When."""
    note: Text = ""
    """Notes."""


class Gap(Timestamped):
    """A care gap (quality measure not yet met)."""

    id: GapId
    patient_id: PatientId
    """The patient."""
    measure: Measure
    """The HEDIS-style measure."""
    due_on: Date
    """By when it should close."""
    status: GapStatus = "open"
    """open, closed or excluded."""
    evidence: Text = ""
    """What closed it, or why it is excluded."""
    closed_on: Date | None = None
    """When it closed."""


class CarePlan(Timestamped):
    """A care plan of an enrollment."""

    id: PlanId
    enrollment_id: EnrollmentId
    """The enrollment."""
    problem: Text
    """The problem addressed."""
    goals: tuple[Goal, ...] = ()
    """Goals."""
    status: Literal["active", "completed"] = "active"
    """active or completed."""


class TransitionOfCare(Timestamped):
    """An admission, discharge or ED visit from the hospital feed."""

    id: TocId
    patient_id: PatientId
    """The patient."""
    kind: TocKind
    """admission, discharge or ED visit."""
    facility: Annotated[str, StringConstraints(min_length=2, max_length=120)]
    """The hospital."""
    event_date: Date
    """When."""
    contact_due: Date | None = None
    """Interactive contact due (two business days after a discharge)."""
    visit_due: Date | None = None
    """Follow-up visit due."""
    status: TocStatus = "open"
    """open, contacted or completed."""


# -- rules ------------------------------------------------------------------------------------

patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=False,
    filters=("email", "risk_tier", "pcp_name"),
    search=("name",),
    delete=False,
)
programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prog",
    create=False,
    filters=("active",),
    search=("name",),
    delete=False,
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="enr",
    create=False,
    filters=("patient_id", "program_id", "status", "care_manager_email"),
    delete=False,
    transitions={
        "graduate": Transition("status", ("enrolled",), "graduated", "graduate the patient from the program"),
        "disenroll": Transition("status", ("enrolled",), "disenrolled", "disenroll the patient"),
    },
)
outreach = service.resource(
    Outreach,
    name="outreach",
    plural="outreach_attempts",
    prefix="out",
    create=False,
    get=False,
    filters=("enrollment_id", "channel", "outcome"),
    delete=False,
    title="outreach attempt",
)
gaps = service.resource(
    Gap,
    name="gap",
    plural="gaps",
    prefix="gap",
    create=False,
    filters=("patient_id", "measure", "status"),
    delete=False,
    title="care gap",
)
care_plans = service.resource(
    CarePlan,
    name="care_plan",
    plural="care_plans",
    prefix="cp",
    create=False,
    filters=("enrollment_id", "status"),
    delete=False,
)
transitions = service.resource(
    TransitionOfCare,
    name="transition",
    plural="transitions",
    prefix="toc",
    create=False,
    filters=("patient_id", "kind", "status"),
    delete=False,
    title="transition of care",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_identify(ctx: Ctx) -> dict[str, Any] | None:
    prog = ctx.first(Program, active=True)
    for pt in ctx.where(Patient, risk_tier="high"):
        if prog and not any(e.status in LIVE for e in ctx.where(Enrollment, patient_id=pt.id, program_id=prog.id)):
            return {"patient_id": pt.id, "program_id": prog.id, "care_manager_email": ctx.population.employees[4].email}
    return None


@service.tool(intent="identify the patient for a care program", write=True, example=_example_identify)
def identify_patient(ctx: Ctx, patient_id: PatientId, program_id: ProgramId, care_manager_email: Email) -> Enrollment:
    """Put a patient on an active program's list with a care manager (staff, at most 25 live patients).

    Args:
        patient_id: The patient.
        program_id: An active program.
        care_manager_email: The care manager.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    prog = ctx.get(Program, program_id, field="program_id")
    if not prog.active:
        raise RuleViolation(f"{prog.name} is closed", field="program_id", hint="pick an active program")
    require_employee(ctx, care_manager_email, field="care_manager_email", hint="care managers are staff")
    for e in ctx.where(Enrollment, patient_id=pt.id, program_id=prog.id):
        if e.status in LIVE:
            raise Conflict(f"{pt.name} is already {e.status} in {prog.name}", field="program_id", hint="work it")
    load = sum(e.status in LIVE for e in ctx.where(Enrollment, care_manager_email=care_manager_email))
    if load >= MAX_CASELOAD:
        raise RuleViolation(
            f"{care_manager_email} carries {load} patients",
            field="care_manager_email",
            hint="assign another care manager",
        )
    return ctx.create(Enrollment, patient_id=pt.id, program_id=prog.id, care_manager_email=care_manager_email)


@service.tool(
    intent="log an outreach attempt",
    write=True,
    example=first_example(
        Enrollment, "enrollment_id", where={"status": "outreach"}, channel="phone", outcome="left_message"
    ),
)
def log_outreach(
    ctx: Ctx, enrollment_id: EnrollmentId, channel: Channel, outcome: Outcome, note: Text = ""
) -> Outreach:
    """Log an attempt to reach an identified or in-outreach patient.

    A decline closes the enrollment; three unanswered attempts in a row mark it unreachable.

    Args:
        enrollment_id: The enrollment.
        channel: phone, sms, email or letter.
        outcome: reached, no_answer, left_message, wrong_number or declined.
        note: Notes.
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status not in ("identified", "outreach"):
        raise RuleViolation(
            f"enrollment {e.id} is {e.status}", field="enrollment_id", hint="outreach is before enrollment"
        )
    made = ctx.create(Outreach, enrollment_id=e.id, channel=channel, outcome=outcome, attempted_at=ctx.now(), note=note)
    if outcome == "declined":
        ctx.update(e, status="declined")
    elif outcome == "reached":
        ctx.update(e, status="outreach", unanswered=0)
    else:
        misses = e.unanswered + 1
        ctx.update(e, status="unreachable" if misses >= UNANSWERED_LIMIT else "outreach", unanswered=misses)
    return made


@service.tool(
    intent="enroll the patient in the program",
    write=True,
    example=first_example(
        Enrollment,
        "enrollment_id",
        where={"status": "outreach"},
        match=lambda c, e: any(o.outcome == "reached" for o in c.where(Outreach, enrollment_id=e.id)),
    ),
)
def enroll_patient(ctx: Ctx, enrollment_id: EnrollmentId) -> Enrollment:
    """Enroll a patient who was reached and consents, if the program has room.

    Args:
        enrollment_id: An enrollment in outreach whose patient was reached.
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status != "outreach" or not any(o.outcome == "reached" for o in ctx.where(Outreach, enrollment_id=e.id)):
        raise RuleViolation(
            f"enrollment {e.id} is {e.status} and the patient was not reached",
            field="enrollment_id",
            hint="reach the patient and get consent first",
        )
    prog = ctx.get(Program, e.program_id)
    if len(ctx.where(Enrollment, program_id=prog.id, status="enrolled")) >= prog.capacity:
        raise RuleViolation(
            f"{prog.name} is full ({prog.capacity})", field="enrollment_id", hint="graduate someone or wait"
        )
    return ctx.update(e, status="enrolled", consent_on=ctx.today())


@service.tool(
    intent="write a care plan for the enrollment",
    write=True,
    example=first_example(
        Enrollment,
        "enrollment_id",
        where={"status": "enrolled"},
        problem="Uncontrolled type 2 diabetes",
        goals=[{"description": "HbA1c under 8%", "target_date": "2026-09-30"}],
    ),
)
def create_care_plan(ctx: Ctx, enrollment_id: EnrollmentId, problem: Text, goals: list[Goal]) -> CarePlan:
    """Write the care plan of an enrolled patient (one active per enrollment), with at least one goal.

    Args:
        enrollment_id: An enrolled enrollment.
        problem: The problem addressed.
        goals: Goals with target dates.
    """
    e = ctx.get(Enrollment, enrollment_id, field="enrollment_id")
    if e.status != "enrolled":
        raise RuleViolation(f"enrollment {e.id} is {e.status}", field="enrollment_id", hint="enroll the patient first")
    if not goals or not problem.strip():
        raise RuleViolation("a care plan names the problem and a goal", field="goals", hint="add both")
    if ctx.first(CarePlan, enrollment_id=e.id, status="active") is not None:
        raise Conflict("an active care plan exists", field="enrollment_id", hint="complete it first")
    return ctx.create(CarePlan, enrollment_id=e.id, problem=problem.strip(), goals=tuple(goals))


@service.tool(
    intent="close the care gap",
    write=True,
    example=first_example(Gap, "gap_id", where={"status": "open"}, evidence="Lab result 2026-02-20: HbA1c 7.4%"),
)
def close_gap(ctx: Ctx, gap_id: GapId, evidence: Text) -> Gap:
    """Close an open gap with the evidence (claim, lab result, visit) that meets the measure.

    Args:
        gap_id: An open gap.
        evidence: What meets it (required).
    """
    g = ctx.get(Gap, gap_id, field="gap_id")
    if g.status != "open":
        raise RuleViolation(f"gap {g.id} is {g.status}", field="gap_id", hint="only open gaps close")
    if not evidence.strip():
        raise RuleViolation("closing a gap needs evidence", field="evidence", hint="cite the claim or result")
    return ctx.update(g, status="closed", evidence=evidence.strip(), closed_on=ctx.today())


@service.tool(
    intent="exclude the patient from the measure",
    write=True,
    example=first_example(Gap, "gap_id", where={"status": "open"}, reason="Bilateral mastectomy on record."),
)
def exclude_gap(ctx: Ctx, gap_id: GapId, reason: Text) -> Gap:
    """Exclude an open gap (hospice, contraindication, prior procedure) with the reason.

    Args:
        gap_id: An open gap.
        reason: Why the measure does not apply (required).
    """
    g = ctx.get(Gap, gap_id, field="gap_id")
    if g.status != "open":
        raise RuleViolation(f"gap {g.id} is {g.status}", field="gap_id", hint="only open gaps are excluded")
    if not reason.strip():
        raise RuleViolation("an exclusion needs a reason", field="reason", hint="say why it does not apply")
    return ctx.update(g, status="excluded", evidence=reason.strip())


@service.tool(
    intent="record a hospital transition of care",
    write=True,
    example=first_example(
        Patient, "patient_id", kind="discharge", facility="St. Mary's Medical Center", event_date="2026-03-01"
    ),
)
def record_transition(
    ctx: Ctx,
    patient_id: PatientId,
    kind: TocKind,
    facility: Annotated[str, StringConstraints(min_length=2, max_length=120)],
    event_date: Date,
) -> TransitionOfCare:
    """Record an ADT event; a discharge sets contact due in two business days and a visit in 7 (high risk) or 14 days.

    Args:
        patient_id: The patient.
        kind: admission, discharge or ed_visit.
        facility: The hospital.
        event_date: When (not in the future).
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if event_date > ctx.today():
        raise RuleViolation("the event is in the future", field="event_date", hint="record events that happened")
    contact = visit = None
    if kind == "discharge":
        contact = _business_days(event_date, 2)
        visit = event_date + dt.timedelta(days=7 if pt.risk_tier == "high" else 14)
    return ctx.create(
        TransitionOfCare,
        patient_id=pt.id,
        kind=kind,
        facility=facility,
        event_date=event_date,
        contact_due=contact,
        visit_due=visit,
        status="open" if kind == "discharge" else "completed",
    )


@service.tool(
    intent="record contact with the patient after discharge",
    write=True,
    example=first_example(TransitionOfCare, "transition_id", where={"status": "open"}),
)
def contact_after_discharge(ctx: Ctx, transition_id: TocId) -> TransitionOfCare:
    """Record the interactive contact of an open discharge.

    Args:
        transition_id: An open discharge.
    """
    t = ctx.get(TransitionOfCare, transition_id, field="transition_id")
    if t.status != "open":
        raise RuleViolation(f"transition {t.id} is {t.status}", field="transition_id", hint="already contacted")
    return ctx.update(t, status="contacted")


@service.tool(
    intent="complete the transition follow-up",
    write=True,
    example=first_example(TransitionOfCare, "transition_id", where={"status": "contacted"}),
)
def complete_follow_up(ctx: Ctx, transition_id: TocId) -> TransitionOfCare:
    """Record the follow-up visit of a contacted discharge, completing the transition.

    Args:
        transition_id: A contacted discharge.
    """
    t = ctx.get(TransitionOfCare, transition_id, field="transition_id")
    if t.status != "contacted":
        raise RuleViolation(f"transition {t.id} is {t.status}", field="transition_id", hint="contact the patient first")
    return ctx.update(t, status="completed")


@service.tool(intent="find the care management patient by e-mail")
def find_patient(ctx: Ctx, email: Email) -> Patient:
    """The patient with this e-mail.

    Args:
        email: The patient's e-mail.
    """
    pt = ctx.first(Patient, email=email)
    if pt is None:
        raise RuleViolation(f"no patient with e-mail {email}", field="email", hint="search patients by name")
    return pt


# -- seed -------------------------------------------------------------------------------------

PROGRAMS = (("Diabetes management", 40), ("Heart failure", 3), ("Transitional care", 30), ("COPD", 20))
MEASURES: tuple[Measure, ...] = (
    "hba1c_test",
    "eye_exam",
    "mammogram",
    "colorectal_screening",
    "statin_therapy",
    "bp_control",
)
FLOW: tuple[EnrollStatus, ...] = (
    "enrolled",
    "enrolled",
    "outreach",
    "identified",
    "enrolled",
    "declined",
    "outreach",
    "enrolled",
    "graduated",
    "identified",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Programs, consumer patients by risk, staff care managers, enrollments, outreach, gaps, plans, transitions."""
    pop = s.population
    today = s.now.date()
    progs = [s.create(Program, name=n, capacity=c, active=True) for n, c in PROGRAMS]
    s.create(Program, name="Hypertension pilot (closed)", capacity=10, active=False)
    cms = pop.staff("Operations", "Support", fallback=3)
    for k, p in enumerate(pop.consumers[5:17]):
        score = (88, 74, 55, 41, 92, 30, 66, 79, 45, 20, 71, 35)[k]
        pt = s.create(
            Patient,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            risk_score=score,
            risk_tier=_tier(score),
            pcp_name=clinicians(pop)[k % 3][0].name,
        )
        for n in range(2):
            m = MEASURES[(k + n) % len(MEASURES)]
            s.create(
                Gap,
                patient_id=pt.id,
                measure=m,
                due_on=today + dt.timedelta(days=60 - 40 * n),
                status="open" if (k + n) % 4 else "closed",
                evidence="" if (k + n) % 4 else "Claim on file.",
                closed_on=None if (k + n) % 4 else today,
            )
        if k < len(FLOW):
            status = FLOW[k]
            prog = progs[1] if k in (0, 1, 4) else progs[k % len(progs)]
            e = s.create(
                Enrollment,
                patient_id=pt.id,
                program_id=prog.id,
                care_manager_email=cms[k % len(cms)].email,
                status=status,
                consent_on=today - dt.timedelta(days=30) if status in ("enrolled", "graduated") else None,
                unanswered=2 if k == 6 else 0,
            )
            if status in ("outreach", "declined", "enrolled"):
                s.create(
                    Outreach,
                    enrollment_id=e.id,
                    channel="phone",
                    outcome={"outreach": "reached" if k == 2 else "no_answer", "declined": "declined"}.get(
                        status, "reached"
                    ),
                    attempted_at=s.ago(days=5),
                )
            if status == "enrolled" and k != 7:
                s.create(
                    CarePlan,
                    enrollment_id=e.id,
                    problem="Frequent admissions; medication adherence.",
                    goals=(Goal(description="No readmission in 30 days", target_date=today + dt.timedelta(days=30)),),
                )
        if k in (0, 4, 7):
            disc = today - dt.timedelta(days=1 + k % 3)
            s.create(
                TransitionOfCare,
                patient_id=pt.id,
                kind="discharge",
                facility="St. Mary's Medical Center",
                event_date=disc,
                contact_due=_business_days(disc, 2),
                visit_due=disc + dt.timedelta(days=7 if score >= 70 else 14),
                status=("open", "contacted", "open")[(0, 4, 7).index(k)],
            )
