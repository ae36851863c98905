"""Kinetic Physical Therapy: patients, plans of care with certification periods, visits with billed units, outcomes.

Modeled on WebPT (patients with a payer, therapists as PT or PTA, plans of care
with ICD-10 diagnosis, frequency and duration that the referring physician
certifies for a period of at most 90 days and that are recertified or closed
at discharge; payer authorizations that allow a number of visits between two
dates; visits scheduled → completed (note signed), cancelled or no_show, billed
in CPT timed units under the CMS 8-minute rule; outcome measures such as LEFS,
ODI, NDI and QuickDASH recorded at evaluation and on progress): only a PT
evaluates, a treatment visit needs a certified plan covering its day and an
authorization with visits left, units never exceed what the minutes allow, and
discharge closes the plan and cancels the visits still scheduled.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Phone, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "physio",
    title="Kinetic Physical Therapy",
    category="physical_therapy",
    modeled_on="WebPT: patients, therapists (PT/PTA), plans of care with physician certification and recertification, "
    "visit authorizations, visits with CPT timed units (8-minute rule), outcome measures (LEFS, ODI, NDI, QuickDASH)",
    description="An outpatient physical therapy clinic: patients referred for rehab, plans of care certified by the "
    "referring physician, payer authorizations that cap visits, treatment visits billed in CPT units, and outcome "
    "scores that show progress until discharge.",
)

PatientId = Annotated[str, IdOf("physio.patient")]
TherapistId = Annotated[str, IdOf("physio.therapist")]
PlanId = Annotated[str, IdOf("physio.plan")]
AuthId = Annotated[str, IdOf("physio.authorization")]
VisitId = Annotated[str, IdOf("physio.visit")]
OutcomeId = Annotated[str, IdOf("physio.outcome")]

Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")]
"""An ICD-10-CM diagnosis code."""

Payer = Literal["medicare", "commercial", "workers_comp", "auto", "self_pay"]
Discipline = Literal["pt", "pta"]
PatientStatus = Literal["active", "discharged"]
PlanStatus = Literal["draft", "certified", "expired", "closed"]
AuthStatus = Literal["active", "exhausted", "expired"]
VisitType = Literal["evaluation", "treatment", "re_evaluation"]
VisitStatus = Literal["scheduled", "completed", "cancelled", "no_show"]
Cpt = Literal["97110", "97112", "97140", "97530", "97116", "97035"]
Instrument = Literal["lefs", "odi", "ndi", "quickdash"]

MAX_CERT_DAYS = 90
EVAL_CODE = {"evaluation": "97162", "re_evaluation": "97164"}
HIGHER_IS_BETTER: dict[str, bool] = {"lefs": True, "odi": False, "ndi": False, "quickdash": False}
MCID: dict[str, float] = {"lefs": 9, "odi": 10, "ndi": 7.5, "quickdash": 10.8}


class Patient(Timestamped):
    """A patient in rehab."""

    id: PatientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail (unique)."""
    phone: Phone
    """Phone."""
    birth_date: Date
    """Date of birth."""
    payer: Payer = "commercial"
    """medicare, commercial, workers_comp, auto or self_pay."""
    referring_physician: PersonName | None = None
    """The physician who referred them."""
    status: PatientStatus = "active"
    """active or discharged."""


class Therapist(Timestamped):
    """A physical therapist (PT) or assistant (PTA)."""

    id: TherapistId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    discipline: Discipline
    """pt or pta (assistants treat but do not evaluate or write plans)."""
    npi: Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
    """National Provider Identifier."""


class UnitLine(Value):
    """A CPT code billed on a visit."""

    cpt: Cpt
    """97110 therapeutic exercise, 97112 neuromuscular re-ed, 97140 manual therapy, 97530 therapeutic activities,
    97116 gait training, 97035 ultrasound."""
    units: Annotated[int, Field(ge=1, le=8)]
    """15-minute units."""


class Plan(Timestamped):
    """A plan of care: diagnosis, goals, frequency and the certified period."""

    id: PlanId
    patient_id: PatientId
    """The patient."""
    therapist_id: TherapistId
    """The PT who wrote it."""
    diagnosis: Icd10
    """Treating diagnosis (ICD-10)."""
    goals: Text
    """Functional goals."""
    visits_per_week: Annotated[int, Field(ge=1, le=5)]
    """Planned frequency."""
    duration_weeks: Annotated[int, Field(ge=1, le=26)]
    """Planned duration."""
    cert_start: Date | None = None
    """First day of the certification period."""
    cert_end: Date | None = None
    """Last day of the certification period."""
    certified_by: PersonName | None = None
    """The physician who signed it."""
    status: PlanStatus = "draft"
    """draft, certified, expired or closed."""


class Authorization(Timestamped):
    """A payer's authorization of visits."""

    id: AuthId
    patient_id: PatientId
    """The patient."""
    payer: Payer
    """The payer."""
    reference: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,20}$")]
    """The payer's authorization number."""
    visits_authorized: Annotated[int, Field(ge=1, le=100)]
    """Visits allowed."""
    visits_used: Annotated[int, Field(ge=0)] = 0
    """Visits completed against it."""
    start_date: Date
    """First day it covers."""
    end_date: Date
    """Last day it covers."""
    status: AuthStatus = "active"
    """active, exhausted or expired."""


class Visit(Timestamped):
    """A visit: an evaluation or a treatment session."""

    id: VisitId
    patient_id: PatientId
    """The patient."""
    therapist_id: TherapistId
    """Who sees the patient."""
    plan_id: PlanId | None = None
    """The plan of care it treats under."""
    authorization_id: AuthId | None = None
    """The authorization it counts against."""
    visit_type: VisitType = "treatment"
    """evaluation, treatment or re_evaluation."""
    starts_at: DateTime
    """When."""
    status: VisitStatus = "scheduled"
    """scheduled, completed, cancelled or no_show."""
    timed_minutes: int = 0
    """Minutes of timed (one-on-one) treatment."""
    lines: tuple[UnitLine, ...] = ()
    """CPT codes and units billed."""
    note: Text = ""
    """The signed daily note."""


class Outcome(Timestamped):
    """An outcome measure score."""

    id: OutcomeId
    patient_id: PatientId
    """The patient."""
    instrument: Instrument
    """lefs (0-80, higher better), odi, ndi or quickdash (0-100, lower better)."""
    score: Annotated[float, Field(ge=0, le=100)]
    """The score."""
    taken_on: Date
    """When it was taken."""


class Progress(Value):
    """How a patient's outcome scores moved."""

    patient_id: PatientId
    """The patient."""
    instrument: Instrument
    """The measure."""
    first_score: float
    """The first score."""
    latest_score: float
    """The latest score."""
    improvement: float
    """How much better (in the measure's good direction)."""
    meaningful: bool
    """Whether the change reaches the measure's minimal clinically important difference."""
    visits_completed: int
    """Completed visits so far."""


# -- rules ------------------------------------------------------------------------------------


def _max_units(minutes: int) -> int:
    """Units the CMS 8-minute rule allows for ``minutes`` of timed treatment."""
    return (minutes + 7) // 15


def _guard_outcome(ctx: Ctx, new: Any, old: Any) -> None:
    ctx.get(Patient, new.patient_id, field="patient_id")
    if new.instrument == "lefs" and new.score > 80:
        raise RuleViolation("LEFS scores run 0-80", field="score", hint="check the score")
    if new.taken_on > ctx.today():
        raise RuleViolation("the score is dated in the future", field="taken_on", hint="date it today or earlier")


patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=("name", "email", "phone", "birth_date", "payer", "referring_physician"),
    filters=("email", "payer", "status"),
    search=("name", "referring_physician"),
    update=("email", "phone", "payer", "referring_physician"),
    delete=False,
    unique=("email",),
)
therapists = service.resource(
    Therapist,
    name="therapist",
    plural="therapists",
    prefix="th",
    create=False,
    filters=("discipline", "email"),
    search=("name",),
    delete=False,
)
plans = service.resource(
    Plan,
    name="plan",
    plural="plans",
    prefix="poc",
    create=False,
    filters=("patient_id", "therapist_id", "status", "diagnosis"),
    delete=False,
    title="plan of care",
)
authorizations = service.resource(
    Authorization,
    name="authorization",
    plural="authorizations",
    prefix="auth",
    create=False,
    filters=("patient_id", "status", "reference"),
    delete=False,
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=False,
    filters=("patient_id", "therapist_id", "plan_id", "authorization_id", "status", "visit_type"),
    delete=False,
    transitions={
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the therapy visit"),
        "no_show": Transition("status", ("scheduled",), "no_show", "record the patient as a no-show"),
    },
)
outcomes = service.resource(
    Outcome,
    name="outcome",
    plural="outcomes",
    prefix="om",
    create=("patient_id", "instrument", "score", "taken_on"),
    filters=("patient_id", "instrument"),
    delete=False,
    guard_create=_guard_outcome,
    title="outcome measure",
)


# -- domain tools -----------------------------------------------------------------------------


def _pt(ctx: Ctx, therapist_id: str, what: str) -> Therapist:
    who = ctx.get(Therapist, therapist_id, field="therapist_id")
    if who.discipline != "pt":
        raise RuleViolation(
            f"{who.name} is a PTA and cannot {what}", field="therapist_id", hint="a licensed PT must do it"
        )
    return who


def _active_patient(ctx: Ctx, patient_id: str) -> Patient:
    pt = ctx.get(Patient, patient_id, field="patient_id")
    if pt.status != "active":
        raise RuleViolation(f"{pt.name} is discharged", field="patient_id", hint="re-refer the patient first")
    return pt


def _example_auth(ctx: Ctx) -> dict[str, Any] | None:
    pt = ctx.first(Patient, status="active", payer="commercial")
    if pt is None:
        return None
    return {
        "patient_id": pt.id,
        "reference": "AUTH-77001",
        "visits_authorized": 8,
        "start_date": ctx.today().isoformat(),
        "end_date": (ctx.today() + dt.timedelta(days=60)).isoformat(),
    }


@service.tool(intent="record the payer's authorization of visits", write=True, example=_example_auth)
def record_authorization(
    ctx: Ctx,
    patient_id: PatientId,
    reference: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,20}$")],
    visits_authorized: Annotated[int, Field(ge=1, le=100)],
    start_date: Date,
    end_date: Date,
) -> Authorization:
    """Record an authorization from the patient's payer: a number of visits between two dates.

    Args:
        patient_id: The patient (not self-pay).
        reference: The payer's authorization number (unique).
        visits_authorized: Visits allowed.
        start_date: First day covered.
        end_date: Last day covered.
    """
    pt = _active_patient(ctx, patient_id)
    if pt.payer == "self_pay":
        raise RuleViolation(
            f"{pt.name} pays for themselves", field="patient_id", hint="self-pay needs no authorization"
        )
    if end_date < start_date:
        raise RuleViolation("the authorization ends before it starts", field="end_date", hint="give a later end")
    if ctx.first(Authorization, reference=reference) is not None:
        raise Conflict(f"authorization {reference} is on file", field="reference", hint="use the one on file")
    return ctx.create(
        Authorization,
        patient_id=pt.id,
        payer=pt.payer,
        reference=reference,
        visits_authorized=visits_authorized,
        start_date=start_date,
        end_date=end_date,
    )


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    pt = ctx.first(Patient, status="active")
    th = ctx.first(Therapist, discipline="pt")
    if pt is None or th is None:
        return None
    return {
        "patient_id": pt.id,
        "therapist_id": th.id,
        "diagnosis": "M54.50",
        "goals": "Sit 60 minutes without pain; return to jogging.",
        "visits_per_week": 2,
        "duration_weeks": 6,
    }


@service.tool(intent="write a plan of care for the patient", write=True, example=_example_plan)
def create_plan(
    ctx: Ctx,
    patient_id: PatientId,
    therapist_id: TherapistId,
    diagnosis: Icd10,
    goals: Text,
    visits_per_week: Annotated[int, Field(ge=1, le=5)],
    duration_weeks: Annotated[int, Field(ge=1, le=26)],
) -> Plan:
    """Draft a plan of care by a PT for an active patient; it awaits the physician's certification.

    Args:
        patient_id: The patient.
        therapist_id: The PT writing it.
        diagnosis: ICD-10 treating diagnosis.
        goals: Functional goals (required).
        visits_per_week: Frequency.
        duration_weeks: Duration.
    """
    pt = _active_patient(ctx, patient_id)
    _pt(ctx, therapist_id, "write a plan of care")
    if not goals.strip():
        raise RuleViolation("a plan of care states goals", field="goals", hint="write measurable functional goals")
    return ctx.create(
        Plan,
        patient_id=pt.id,
        therapist_id=therapist_id,
        diagnosis=diagnosis,
        goals=goals.strip(),
        visits_per_week=visits_per_week,
        duration_weeks=duration_weeks,
    )


def _example_certify(ctx: Ctx) -> dict[str, Any] | None:
    plan = ctx.first(Plan, status="draft")
    if plan is None:
        return None
    return {"plan_id": plan.id, "physician": "Dr. Hannah Okafor", "cert_start": ctx.today().isoformat()}


@service.tool(intent="certify the plan of care", write=True, example=_example_certify)
def certify_plan(ctx: Ctx, plan_id: PlanId, physician: PersonName, cert_start: Date) -> Plan:
    """Record the physician's signature on a draft plan: it is certified for its duration, at most 90 days.

    The patient's other certified plan, if any, is closed.

    Args:
        plan_id: A draft plan.
        physician: The certifying physician.
        cert_start: First day of the certification period (not in the past).
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if plan.status != "draft":
        raise RuleViolation(f"plan {plan.id} is {plan.status}", field="plan_id", hint="certify a draft plan")
    if cert_start < ctx.today() - dt.timedelta(days=30):
        raise RuleViolation(
            "certification cannot start more than 30 days back", field="cert_start", hint="start it today"
        )
    days = min(MAX_CERT_DAYS, plan.duration_weeks * 7)
    for old in ctx.where(Plan, patient_id=plan.patient_id, status="certified"):
        ctx.update(old, status="closed")
    return ctx.update(
        plan,
        status="certified",
        certified_by=physician,
        cert_start=cert_start,
        cert_end=cert_start + dt.timedelta(days=days - 1),
    )


@service.tool(
    intent="recertify the plan of care",
    write=True,
    example=first_example(Plan, "plan_id", where={"status": "certified"}, physician="Dr. Hannah Okafor", weeks=4),
)
def recertify_plan(ctx: Ctx, plan_id: PlanId, physician: PersonName, weeks: Annotated[int, Field(ge=1, le=12)]) -> Plan:
    """Extend a certified (or lapsed) plan by a new period that starts the day after it ends (at most 90 days).

    Args:
        plan_id: A certified or expired plan.
        physician: The physician signing the recertification.
        weeks: Length of the new period.
    """
    plan = ctx.get(Plan, plan_id, field="plan_id")
    if plan.status not in ("certified", "expired") or plan.cert_end is None:
        raise RuleViolation(f"plan {plan.id} is {plan.status}", field="plan_id", hint="certify the draft first")
    start = max(plan.cert_end + dt.timedelta(days=1), ctx.today())
    return ctx.update(
        plan,
        status="certified",
        certified_by=physician,
        cert_start=start,
        cert_end=start + dt.timedelta(days=min(MAX_CERT_DAYS, weeks * 7) - 1),
        duration_weeks=min(26, plan.duration_weeks + weeks),
    )


def _covering_auth(ctx: Ctx, patient_id: str, day: dt.date) -> Authorization | None:
    for auth in ctx.where(Authorization, patient_id=patient_id, status="active"):
        if auth.start_date <= day <= auth.end_date:
            return auth
    return None


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for plan in ctx.where(Plan, status="certified"):
        day = ctx.today() + dt.timedelta(days=3)
        if plan.cert_end is None or plan.cert_end < day:
            continue
        auth = _covering_auth(ctx, plan.patient_id, day)
        th = ctx.first(Therapist, discipline="pta")
        if auth is not None and auth.visits_used + 1 < auth.visits_authorized and th is not None:
            return {
                "patient_id": plan.patient_id,
                "therapist_id": th.id,
                "visit_type": "treatment",
                "starts_at": utc_at(day, 16).isoformat(),
            }
    return None


@service.tool(intent="schedule a therapy visit", write=True, example=_example_schedule)
def schedule_visit(
    ctx: Ctx, patient_id: PatientId, therapist_id: TherapistId, visit_type: VisitType, starts_at: DateTime
) -> Visit:
    """Book a visit; treatments need a certified plan on the day and an authorization with visits left.

    Evaluations are done by a PT; patients who are not self-pay need an authorization covering the day with
    visits left beside those already booked.

    Args:
        patient_id: An active patient.
        therapist_id: The therapist.
        visit_type: evaluation, treatment or re_evaluation.
        starts_at: When (in the future).
    """
    pt = _active_patient(ctx, patient_id)
    if visit_type != "treatment":
        _pt(ctx, therapist_id, "evaluate")
    else:
        ctx.get(Therapist, therapist_id, field="therapist_id")
    if starts_at <= ctx.now():
        raise RuleViolation("the time has passed", field="starts_at", hint="pick a future time")
    day = starts_at.date()
    plan = None
    if visit_type == "treatment":
        plan = next(
            (
                p
                for p in ctx.where(Plan, patient_id=pt.id, status="certified")
                if p.cert_start and p.cert_end and p.cert_start <= day <= p.cert_end
            ),
            None,
        )
        if plan is None:
            raise RuleViolation(
                f"{pt.name} has no plan of care certified on {day}",
                field="patient_id",
                hint="certify or recertify the plan first",
            )
    auth = _covering_auth(ctx, pt.id, day)
    if pt.payer != "self_pay":
        if auth is None:
            raise RuleViolation(
                f"no active authorization covers {day}", field="patient_id", hint="record the payer's authorization"
            )
        booked = len(ctx.where(Visit, authorization_id=auth.id, status="scheduled"))
        if auth.visits_used + booked >= auth.visits_authorized:
            raise RuleViolation(
                f"authorization {auth.reference} has {auth.visits_authorized} visits, all used or booked",
                field="patient_id",
                hint="request more visits from the payer",
            )
    for other in ctx.where(Visit, therapist_id=therapist_id, status="scheduled"):
        if abs((other.starts_at - starts_at).total_seconds()) < 45 * 60:
            raise Conflict(f"the therapist has visit {other.id} then", field="starts_at", hint="pick another time")
    return ctx.create(
        Visit,
        patient_id=pt.id,
        therapist_id=therapist_id,
        plan_id=plan.id if plan else None,
        authorization_id=auth.id if auth else None,
        visit_type=visit_type,
        starts_at=starts_at,
    )


@service.tool(
    intent="complete the visit and sign the note",
    write=True,
    example=first_example(
        Visit,
        "visit_id",
        where={"status": "scheduled", "visit_type": "treatment"},
        timed_minutes=38,
        lines=[{"cpt": "97110", "units": 2}, {"cpt": "97140", "units": 1}],
        note="Tolerated therex well; pain 3/10.",
    ),
)
def complete_visit(
    ctx: Ctx,
    visit_id: VisitId,
    timed_minutes: Annotated[int, Field(ge=0, le=240)],
    lines: list[UnitLine],
    note: Text,
) -> Visit:
    """Sign a scheduled visit's note with the CPT units billed; the visit counts against its authorization.

    Timed units may not exceed what the CMS 8-minute rule allows for the minutes.

    Args:
        visit_id: A scheduled visit.
        timed_minutes: Minutes of one-on-one timed treatment.
        lines: CPT codes and units (evaluations bill their own code and may list none).
        note: The daily note (required).
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled":
        raise RuleViolation(f"visit {visit.id} is {visit.status}", field="visit_id", hint="sign a scheduled visit")
    if not note.strip():
        raise RuleViolation("the note is empty", field="note", hint="document the session")
    if len({line.cpt for line in lines}) != len(lines):
        raise RuleViolation("a CPT code is listed twice", field="lines", hint="sum its units on one line")
    units = sum(line.units for line in lines)
    if units > _max_units(timed_minutes):
        raise RuleViolation(
            f"{timed_minutes} timed minutes allow {_max_units(timed_minutes)} unit(s), {units} billed",
            field="lines",
            hint="bill fewer units or record the real minutes",
        )
    if visit.visit_type == "treatment" and not lines:
        raise RuleViolation("a treatment bills at least one unit", field="lines", hint="list the CPT codes")
    if visit.authorization_id is not None:
        auth = ctx.get(Authorization, visit.authorization_id)
        used = auth.visits_used + 1
        ctx.update(auth, visits_used=used, status="exhausted" if used >= auth.visits_authorized else auth.status)
    return ctx.update(visit, status="completed", timed_minutes=timed_minutes, lines=tuple(lines), note=note.strip())


@service.tool(
    intent="discharge the patient from therapy",
    write=True,
    destructive=True,
    example=first_example(Patient, "patient_id", where={"status": "active"}, reason="Goals met."),
)
def discharge_patient(ctx: Ctx, patient_id: PatientId, reason: Text) -> Patient:
    """Discharge an active patient: the certified plan is closed and scheduled visits are cancelled.

    Args:
        patient_id: An active patient.
        reason: Why (goals met, plateau, self-discharge...).
    """
    pt = _active_patient(ctx, patient_id)
    if not reason.strip():
        raise RuleViolation("a discharge needs a reason", field="reason", hint="say why therapy ends")
    for plan in ctx.where(Plan, patient_id=pt.id):
        if plan.status in ("draft", "certified"):
            ctx.update(plan, status="closed")
    for v in ctx.where(Visit, patient_id=pt.id, status="scheduled"):
        ctx.update(v, status="cancelled", note=f"Discharged: {reason.strip()}")
    return ctx.update(pt, status="discharged")


@service.tool(
    intent="show the patient's progress on an outcome measure",
    example=first_example(Outcome, None, fields={"patient_id": "patient_id", "instrument": "instrument"}),
)
def outcome_progress(ctx: Ctx, patient_id: PatientId, instrument: Instrument) -> Progress:
    """Compare a patient's first and latest score on a measure against its minimal clinically important difference.

    Args:
        patient_id: The patient.
        instrument: lefs, odi, ndi or quickdash.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    scores = sorted(ctx.where(Outcome, patient_id=pt.id, instrument=instrument), key=lambda o: (o.taken_on, o.id))
    if not scores:
        raise RuleViolation(
            f"{pt.name} has no {instrument} score", field="instrument", hint="record one with physio__create_outcome"
        )
    change = scores[-1].score - scores[0].score
    better = change if HIGHER_IS_BETTER[instrument] else -change
    return Progress(
        patient_id=pt.id,
        instrument=instrument,
        first_score=scores[0].score,
        latest_score=scores[-1].score,
        improvement=round(better, 1),
        meaningful=better >= MCID[instrument],
        visits_completed=len(ctx.where(Visit, patient_id=pt.id, status="completed")),
    )


# -- seed -------------------------------------------------------------------------------------

CASES: tuple[tuple[str, str, Instrument, float], ...] = (
    ("M54.50", "Return to golf without low back pain; sit 60 minutes.", "odi", 42),
    ("M17.11", "Climb stairs reciprocally; walk 1 mile.", "lefs", 31),
    ("S83.511A", "Return to pivoting sports after ACL reconstruction.", "lefs", 24),
    ("M75.101", "Reach overhead to shelf; sleep on the right side.", "quickdash", 55),
    ("M54.2", "Drive and check blind spots without neck pain.", "ndi", 38),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Clinicians as therapists, consumer patients with certified plans, authorizations, visits and outcome scores."""
    pop = s.population
    docs = clinicians(pop)
    made_th = [
        s.create(
            Therapist,
            name=p.name,
            email=p.email,
            discipline="pt" if i < 3 else "pta",
            npi=provider_npi(i),
            created_at=s.ago(days=800),
        )
        for i, (p, _) in enumerate(docs[1:5])
    ]
    keys = {p.key for p, _ in docs}
    people = [p for p in pop.consumers if p.key not in keys][12:22]
    today = s.now.date()
    for k, p in enumerate(people):
        diagnosis, goals, instrument, first = CASES[k % len(CASES)]
        status: PatientStatus = "discharged" if k == 9 else "active"
        payer: Payer = ("medicare", "commercial", "workers_comp", "commercial", "self_pay")[k % 5]
        pt = s.create(
            Patient,
            name=p.name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            payer=payer,
            referring_physician=docs[0][0].name,
            status=status,
            created_at=s.ago(days=40 + 3 * k),
        )
        th = made_th[k % 3]
        start = today - dt.timedelta(days=28 + k)
        plan_status: PlanStatus = "closed" if status == "discharged" else ("draft" if k == 8 else "certified")
        plan = s.create(
            Plan,
            patient_id=pt.id,
            therapist_id=th.id,
            diagnosis=diagnosis,
            goals=goals,
            visits_per_week=2,
            duration_weeks=8,
            cert_start=None if plan_status == "draft" else start,
            cert_end=None if plan_status == "draft" else start + dt.timedelta(days=55),
            certified_by=None if plan_status == "draft" else docs[0][0].name,
            status=plan_status,
        )
        auth = None
        if payer != "self_pay":
            auth = s.create(
                Authorization,
                patient_id=pt.id,
                payer=payer,
                reference=f"AUTH-{48210 + 7 * k}",
                visits_authorized=12 if k != 3 else 6,
                visits_used=5,
                start_date=start,
                end_date=start + dt.timedelta(days=90),
            )
        for n in range(5):
            when = utc_at(start + dt.timedelta(days=3 * n + 1), 14 + k % 4)
            s.create(
                Visit,
                patient_id=pt.id,
                therapist_id=th.id if n == 0 else made_th[(k + n) % len(made_th)].id,
                plan_id=None if n == 0 else plan.id,
                authorization_id=auth.id if auth else None,
                visit_type="evaluation" if n == 0 else "treatment",
                starts_at=when,
                status="completed",
                timed_minutes=0 if n == 0 else 38,
                lines=() if n == 0 else (UnitLine(cpt="97110", units=2), UnitLine(cpt="97140", units=1)),
                note="Evaluation complete." if n == 0 else "Progressing with therex.",
            )
        for n, days in enumerate((27 + k, 3)):
            better = 12.0 * n if HIGHER_IS_BETTER[instrument] else -12.0 * n
            s.create(
                Outcome,
                patient_id=pt.id,
                instrument=instrument,
                score=first + better,
                taken_on=today - dt.timedelta(days=days),
            )
        if status == "active" and plan_status == "certified":
            s.create(
                Visit,
                patient_id=pt.id,
                therapist_id=made_th[3].id,
                plan_id=plan.id,
                authorization_id=auth.id if auth else None,
                starts_at=utc_at(today + dt.timedelta(days=1 + k % 3), 15 + k % 3),
            )
