"""Brightbite Dental: a dental practice's patients, chair schedule, procedures by tooth, treatment plans, claims, recalls.

Modeled on the Open Dental API (patients, providers, appointments with
operatories and AptStatus, procedurelogs with CDT codes, tooth numbers and
surfaces and ProcStatus TP/C, treatplans, claims with ClaimStatus and insurance
payments, recalls):

* an appointment books a provider in an operatory; neither is double-booked; it
  moves scheduled → complete, or broken (no-show) or cancelled; only a started
  appointment can be completed, and completing it completes its planned procedures;
* a procedure is a CDT code with the practice fee; tooth codes need a Universal
  tooth number 1-32 (root canals D3330 on molars only), fillings the right number
  of surfaces (M, O, D, B, L), and a tooth that was extracted gets no more treatment;
  a planned (TP) procedure may be deleted, a completed (C) one may not;
* a treatment plan groups planned procedures with fee and insurance estimate and
  is signed by the patient once;
* a claim bills completed procedures not yet claimed to the patient's carrier;
  its estimate covers preventive 100 %, basic 80 % and major 50 %, up to the
  remaining annual maximum; it goes unsent → sent → received (paid) or denied;
* completing a prophylaxis or periodic exam moves the patient's recall due date
  forward by its interval.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, Date, DateTime, Email, FirstName, IdOf, LastName, PersonName, Phone, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import add_months, utc_at

__all__ = ["service"]

service = Service(
    "dental",
    title="Brightbite Dental",
    category="dental_practice",
    modeled_on="Open Dental API (patients, providers, appointments with operatories and AptStatus, procedurelogs "
    "with CDT codes, tooth numbers and surfaces, treatplans, claims and claim payments, recalls)",
    description="The dental practice's management system: patients and their dental insurance, dentists and "
    "hygienists, the chair schedule by operatory, procedures by CDT code and tooth, treatment plans the patient "
    "signs, insurance claims with estimates against the annual maximum, and hygiene recalls.",
)

PatientId = Annotated[str, IdOf("dental.patient")]
ProviderId = Annotated[str, IdOf("dental.provider")]
AppointmentId = Annotated[str, IdOf("dental.appointment")]
ProcedureId = Annotated[str, IdOf("dental.procedure")]
TreatPlanId = Annotated[str, IdOf("dental.treatplan")]
ClaimId = Annotated[str, IdOf("dental.claim")]
RecallId = Annotated[str, IdOf("dental.recall")]
Tooth = Annotated[int, Field(ge=1, le=32)]
"""A permanent tooth in Universal numbering, 1-32."""
Surfaces = Annotated[str, StringConstraints(pattern=r"^[MODBL]{1,5}$")]
"""Tooth surfaces, each once: M, O, D, B, L."""

CdtCode = Literal["D0120", "D0150", "D0274", "D1110", "D2391", "D2392", "D2740", "D3330", "D7140"]
Carrier = Literal["Delta Dental", "MetLife", "Cigna Dental", "Aetna Dental", "Guardian"]
PatStatus = Literal["patient", "inactive"]
Specialty = Literal["general", "hygienist", "endodontics", "oral_surgery"]
AptStatus = Literal["scheduled", "complete", "broken", "cancelled"]
ProcStatus = Literal["TP", "C"]
PlanStatus = Literal["active", "signed", "inactive"]
ClaimStatus = Literal["unsent", "sent", "received", "denied"]
Operatory = Literal["OP1", "OP2", "OP3", "HYG1", "HYG2"]

# CDT code: description, fee in cents, coverage class, needs a tooth, surfaces needed (0: none)
CDT: dict[str, tuple[str, int, str, bool, int]] = {
    "D0120": ("Periodic oral evaluation", 6500, "preventive", False, 0),
    "D0150": ("Comprehensive oral evaluation", 11000, "preventive", False, 0),
    "D0274": ("Bitewings, four radiographic images", 7500, "preventive", False, 0),
    "D1110": ("Prophylaxis, adult", 12000, "preventive", False, 0),
    "D2391": ("Resin-based composite, one surface, posterior", 19500, "basic", True, 1),
    "D2392": ("Resin-based composite, two surfaces, posterior", 24500, "basic", True, 2),
    "D2740": ("Crown, porcelain/ceramic", 125000, "major", True, 0),
    "D3330": ("Endodontic therapy, molar", 115000, "major", True, 0),
    "D7140": ("Extraction, erupted tooth", 22000, "basic", True, 0),
}
COVERAGE = {"preventive": 100, "basic": 80, "major": 50}
MOLARS = frozenset({1, 2, 3, 14, 15, 16, 17, 18, 19, 30, 31, 32})
RECALL_CODES = frozenset({"D1110", "D0120"})


class Patient(Timestamped):
    """A patient of the practice (Open Dental patient), with primary dental insurance."""

    id: PatientId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    birth_date: Date
    """Date of birth."""
    email: Email
    """E-mail (unique)."""
    phone: Phone | None = None
    """Wireless phone."""
    status: PatStatus = "patient"
    """patient (active) or inactive."""
    primary_provider_id: ProviderId | None = None
    """Their dentist."""
    carrier: Carrier | None = None
    """Primary dental insurance carrier (none: self-pay)."""
    subscriber_id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,15}$")] | None = None
    """Member id with the carrier."""
    annual_max_cents: Cents = 150000
    """The plan's annual maximum benefit."""
    benefits_used_cents: Cents = 0
    """Benefits the carrier paid this year."""


class Provider(Record):
    """A dentist or hygienist."""

    id: ProviderId
    name: PersonName
    """Full name."""
    abbr: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2,5}$")]
    """Short name on the schedule."""
    specialty: Specialty
    """general, hygienist, endodontics or oral_surgery."""
    email: Email
    """Work e-mail."""
    npi: Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
    """National Provider Identifier."""


class Appointment(Timestamped):
    """A booked chair time (Open Dental appointment)."""

    id: AppointmentId
    patient_id: PatientId
    """The patient."""
    provider_id: ProviderId
    """The provider."""
    operatory: Operatory
    """The chair."""
    start: DateTime
    """When it starts."""
    minutes: Annotated[int, Field(ge=10, le=240, multiple_of=10)] = 60
    """Length in minutes (10-minute steps)."""
    status: AptStatus = "scheduled"
    """scheduled, complete, broken (no-show) or cancelled."""
    note: Annotated[str, StringConstraints(max_length=500)] = ""
    """Scheduling note."""


class Procedure(Timestamped):
    """A charted procedure (procedurelog): treatment planned (TP) or complete (C)."""

    id: ProcedureId
    patient_id: PatientId
    """The patient."""
    code: CdtCode
    """CDT code."""
    description: Title
    """What the code means."""
    tooth: Tooth | None = None
    """Universal tooth number, for tooth procedures."""
    surfaces: Surfaces | None = None
    """Surfaces, for fillings."""
    fee_cents: Cents
    """The practice fee."""
    status: ProcStatus = "TP"
    """TP (treatment planned) or C (complete)."""
    provider_id: ProviderId
    """Who performs it."""
    appointment_id: AppointmentId | None = None
    """The appointment it is scheduled on."""
    completed_on: Date | None = None
    """The date it was done."""
    claim_id: ClaimId | None = None
    """The claim it was billed on."""


class TreatPlan(Timestamped):
    """A treatment plan presented to the patient."""

    id: TreatPlanId
    patient_id: PatientId
    """The patient."""
    heading: Title
    """Its title."""
    procedure_ids: tuple[ProcedureId, ...]
    """The planned procedures."""
    total_fee_cents: Cents
    """Sum of their fees."""
    insurance_estimate_cents: Cents
    """What insurance is estimated to pay."""
    status: PlanStatus = "active"
    """active, signed (accepted by the patient) or inactive."""
    signed_at: DateTime | None = None
    """When the patient signed it."""


class Claim(Timestamped):
    """An insurance claim for completed procedures."""

    id: ClaimId
    patient_id: PatientId
    """The patient."""
    carrier: Carrier
    """The carrier billed."""
    procedure_ids: tuple[ProcedureId, ...]
    """The procedures billed."""
    claim_fee_cents: Cents
    """Sum of their fees."""
    estimate_cents: Cents
    """Estimated insurance payment."""
    paid_cents: Cents = 0
    """What the carrier paid."""
    status: ClaimStatus = "unsent"
    """unsent, sent, received or denied."""
    sent_on: Date | None = None
    """When it was sent."""


class Recall(Record):
    """A patient's hygiene recall."""

    id: RecallId
    patient_id: PatientId
    """The patient."""
    interval_months: Annotated[int, Field(ge=1, le=24)] = 6
    """Months between visits."""
    date_due: Date
    """When the next visit is due."""
    previous_date: Date | None = None
    """The last prophy or exam."""
    disabled: bool = False
    """Whether the recall is turned off."""


# -- rules ------------------------------------------------------------------------------------


def _estimate(ctx: Ctx, pat: Patient, procs: list[Procedure]) -> int:
    if pat.carrier is None:
        return 0
    raw = sum(p.fee_cents * COVERAGE[CDT[p.code][2]] // 100 for p in procs)
    pending = sum(c.estimate_cents for c in ctx.where(Claim, patient_id=pat.id) if c.status in ("unsent", "sent"))
    return max(0, min(raw, pat.annual_max_cents - pat.benefits_used_cents - pending))


def _extracted(ctx: Ctx, patient_id: str) -> set[int]:
    return {
        p.tooth for p in ctx.where(Procedure, patient_id=patient_id, code="D7140", status="C") if p.tooth is not None
    }


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    other = ctx.first(Patient, email=new.email)
    if other is not None and other.id != new.id:
        raise Conflict(f"patient {other.id} already uses {new.email}", field="email", hint="use another e-mail")
    if (new.carrier is None) != (new.subscriber_id is None):
        raise RuleViolation(
            "carrier and subscriber_id go together", field="subscriber_id", hint="give both, or neither for self-pay"
        )


def _guard_recall(ctx: Ctx, new: Any, old: Any) -> None:
    if new.interval_months != old.interval_months and new.previous_date is not None:
        ctx.update(new, date_due=add_months(new.previous_date, new.interval_months))


def _guard_proc_delete(ctx: Ctx, new: Any, rec: Any) -> None:
    if rec.status == "C":
        raise RuleViolation(
            f"procedure {rec.id} is complete", field="procedure_id", hint="completed procedures stay on the chart"
        )
    if any(rec.id in t.procedure_ids for t in ctx.where(TreatPlan, status="signed")):
        raise RuleViolation(
            f"procedure {rec.id} is on a signed plan", field="procedure_id", hint="inactivate the plan first"
        )


patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="dpat",
    create=False,
    filters=("email", "last_name", "status", "carrier", "primary_provider_id"),
    search=("first_name", "last_name", "email"),
    update=("email", "phone", "status", "primary_provider_id", "carrier", "subscriber_id", "annual_max_cents"),
    delete=False,
    guard_update=_guard_patient,
)
providers = service.resource(
    Provider,
    name="provider",
    plural="providers",
    prefix="dprov",
    create=False,
    filters=("specialty", "email"),
    search=("name",),
    delete=False,
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="apt",
    create=False,
    filters=("patient_id", "provider_id", "operatory", "status"),
    update=("note",),
    delete=False,
    transitions={
        "break": Transition(
            "status",
            ("scheduled",),
            "broken",
            "mark the appointment broken",
            description="Mark a scheduled appointment broken: the patient did not show up.",
        ),
        "cancel": Transition("status", ("scheduled",), "cancelled", "cancel the dental appointment"),
    },
)
procedures = service.resource(
    Procedure,
    name="procedure",
    plural="procedures",
    prefix="proc",
    create=False,
    filters=("patient_id", "code", "status", "tooth", "appointment_id", "claim_id"),
    delete=True,
    guard_delete=_guard_proc_delete,
)
treatplans = service.resource(
    TreatPlan,
    name="treatplan",
    plural="treatplans",
    prefix="tp",
    create=False,
    filters=("patient_id", "status"),
    search=("heading",),
    delete=False,
    transitions={
        "inactivate": Transition("status", ("active", "signed"), "inactive", "inactivate the treatment plan"),
    },
    title="treatment plan",
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("patient_id", "carrier", "status"),
    delete=False,
    transitions={
        "send": Transition("status", ("unsent",), "sent", "send the dental claim"),
        "deny": Transition("status", ("sent",), "denied", "record the claim denial"),
    },
    title="insurance claim",
)
recalls = service.resource(
    Recall,
    name="recall",
    plural="recalls",
    prefix="rcl",
    create=False,
    filters=("patient_id", "disabled", "date_due"),
    update=("interval_months", "disabled"),
    delete=False,
    guard_update=_guard_recall,
)


# -- domain tools -----------------------------------------------------------------------------


def _example_patient(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "first_name": "Tomasz",
        "last_name": "Wierzbicki",
        "birth_date": "1979-09-02",
        "email": f"tomasz.w@mail.{ctx.population.home.domain}",
        "carrier": "MetLife",
        "subscriber_id": "MET4471902",
    }


@service.tool(intent="add the dental patient", write=True, example=_example_patient)
def add_patient(
    ctx: Ctx,
    first_name: FirstName,
    last_name: LastName,
    birth_date: Date,
    email: Email,
    phone: Phone | None = None,
    carrier: Carrier | None = None,
    subscriber_id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,15}$")] | None = None,
) -> Patient:
    """Add a patient; e-mails are unique and the same name with the same birth date is not added twice.

    Args:
        first_name: Given name.
        last_name: Family name.
        birth_date: Date of birth.
        email: E-mail.
        phone: Wireless phone.
        carrier: Dental insurance carrier; omit for self-pay.
        subscriber_id: Member id with the carrier (with a carrier only).
    """
    if birth_date >= ctx.today():
        raise RuleViolation("birth_date must be in the past", field="birth_date", hint="give the date of birth")
    for p in ctx.where(Patient, last_name=last_name, birth_date=birth_date):
        if p.first_name.lower() == first_name.lower():
            raise Conflict(f"{p.first_name} {p.last_name} is patient {p.id}", field="last_name", hint=f"use {p.id}")
    if ctx.first(Patient, email=email) is not None:
        raise Conflict(f"{email} is already a patient's", field="email", hint="find the patient by e-mail")
    if (carrier is None) != (subscriber_id is None):
        raise RuleViolation("carrier and subscriber_id go together", field="subscriber_id", hint="give both or neither")
    pat = ctx.create(
        Patient,
        first_name=first_name,
        last_name=last_name,
        birth_date=birth_date,
        email=email,
        phone=phone,
        carrier=carrier,
        subscriber_id=subscriber_id,
    )
    ctx.create(Recall, patient_id=pat.id, date_due=ctx.today())
    return pat


def _busy(ctx: Ctx, field: str, value: str, start: dt.datetime, minutes: int, skip: str = "") -> Appointment | None:
    end = start + dt.timedelta(minutes=minutes)
    for a in ctx.where(Appointment, **{field: value}, status="scheduled"):
        if a.id != skip and a.start < end and start < a.start + dt.timedelta(minutes=a.minutes):
            return a
    return None


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    pat = ctx.first(Patient, status="patient")
    doc = ctx.first(Provider, specialty="hygienist")
    if pat is None or doc is None:
        return None
    start = utc_at(ctx.today() + dt.timedelta(days=30), 15)
    return {"patient_id": pat.id, "provider_id": doc.id, "operatory": "HYG2", "start": start.isoformat(), "minutes": 60}


@service.tool(intent="book the dental appointment", write=True, example=_example_schedule)
def schedule_appointment(
    ctx: Ctx,
    patient_id: PatientId,
    provider_id: ProviderId,
    operatory: Operatory,
    start: DateTime,
    minutes: Annotated[int, Field(ge=10, le=240, multiple_of=10)] = 60,
    procedure_ids: list[ProcedureId] | None = None,
) -> Appointment:
    """Book an appointment in the future; neither the provider nor the operatory may be double-booked.

    Args:
        patient_id: The patient (active).
        provider_id: The dentist or hygienist.
        operatory: The chair (OP1-OP3, HYG1-HYG2).
        start: When it starts.
        minutes: Length, 10-240 in 10-minute steps.
        procedure_ids: Planned procedures of the patient to do in it.
    """
    pat = ctx.get(Patient, patient_id, field="patient_id")
    ctx.get(Provider, provider_id, field="provider_id")
    if pat.status != "patient":
        raise RuleViolation(f"patient {pat.id} is inactive", field="patient_id", hint="reactivate the patient first")
    if start <= ctx.now():
        raise RuleViolation("the appointment must start in the future", field="start", hint="pick a later time")
    for field, value in (("provider_id", provider_id), ("operatory", operatory)):
        clash = _busy(ctx, field, value, start, minutes)
        if clash is not None:
            raise Conflict(
                f"{value} is booked by appointment {clash.id} at {clash.start:%Y-%m-%d %H:%M}",
                field=field,
                hint="pick another time, provider or chair",
            )
    procs = [ctx.get(Procedure, pid, field="procedure_ids") for pid in procedure_ids or []]
    for p in procs:
        if p.patient_id != pat.id or p.status != "TP" or p.appointment_id is not None:
            raise RuleViolation(
                f"procedure {p.id} is not an unscheduled planned procedure of this patient",
                field="procedure_ids",
                hint="list the patient's TP procedures",
            )
    apt = ctx.create(
        Appointment, patient_id=pat.id, provider_id=provider_id, operatory=operatory, start=start, minutes=minutes
    )
    for p in procs:
        ctx.update(p, appointment_id=apt.id)
    return apt


@service.tool(
    intent="complete the dental appointment",
    write=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "scheduled"}, match=lambda c, a: a.start <= c.now()
    ),
)
def complete_appointment(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Set a started appointment complete; its planned procedures are completed today (recalls move on).

    Args:
        appointment_id: The appointment (scheduled and started).
    """
    apt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if apt.status != "scheduled":
        raise Conflict(f"appointment {apt.id} is {apt.status}", field="appointment_id", hint="only scheduled ones")
    if apt.start > ctx.now():
        raise RuleViolation(
            "the appointment has not started yet", field="appointment_id", hint="complete it once the patient is seated"
        )
    for p in ctx.where(Procedure, appointment_id=apt.id, status="TP"):
        _complete(ctx, p)
    return ctx.update(apt, status="complete")


def _complete(ctx: Ctx, p: Procedure) -> Procedure:
    if p.tooth is not None and p.tooth in _extracted(ctx, p.patient_id):
        raise RuleViolation(f"tooth {p.tooth} was extracted", field="procedure_id", hint="delete the procedure")
    done = ctx.update(p, status="C", completed_on=ctx.today())
    if p.code in RECALL_CODES:
        for r in ctx.where(Recall, patient_id=p.patient_id, disabled=False):
            ctx.update(r, previous_date=ctx.today(), date_due=add_months(ctx.today(), r.interval_months))
    return done


def _example_plan(ctx: Ctx) -> dict[str, Any] | None:
    pat = ctx.first(Patient, status="patient")
    doc = ctx.first(Provider, specialty="general")
    if pat is None or doc is None:
        return None
    tooth = next(t for t in (30, 19, 3, 14) if t not in _extracted(ctx, pat.id))
    return {"patient_id": pat.id, "code": "D2391", "tooth": tooth, "surfaces": "O", "provider_id": doc.id}


@service.tool(intent="chart the planned procedure", write=True, example=_example_plan)
def plan_procedure(
    ctx: Ctx,
    patient_id: PatientId,
    code: CdtCode,
    provider_id: ProviderId,
    tooth: Tooth | None = None,
    surfaces: Surfaces | None = None,
) -> Procedure:
    """Chart a treatment-planned procedure with the practice fee; tooth and surfaces as the CDT code needs.

    Args:
        patient_id: The patient.
        code: CDT code (D0120 exam, D0150 comprehensive exam, D0274 bitewings, D1110 prophy, D2391/D2392
            composite 1/2 surfaces, D2740 crown, D3330 molar root canal, D7140 extraction).
        provider_id: Who will perform it.
        tooth: Universal tooth number 1-32, for tooth procedures.
        surfaces: Surfaces (M, O, D, B, L), for fillings.
    """
    ctx.get(Patient, patient_id, field="patient_id")
    ctx.get(Provider, provider_id, field="provider_id")
    desc, fee, _, needs_tooth, n_surf = CDT[code]
    if needs_tooth and tooth is None:
        raise RuleViolation(f"{code} needs a tooth number", field="tooth", hint="give the Universal number 1-32")
    if not needs_tooth and tooth is not None:
        raise RuleViolation(f"{code} is not a tooth procedure", field="tooth", hint="omit the tooth")
    if code == "D3330" and tooth not in MOLARS:
        raise RuleViolation(f"D3330 is for molars; tooth {tooth} is not one", field="tooth", hint="pick a molar")
    if len(surfaces or "") != n_surf or len(set(surfaces or "")) != len(surfaces or ""):
        raise RuleViolation(
            f"{code} needs {n_surf} distinct surface(s)",
            field="surfaces",
            hint="give M, O, D, B or L" if n_surf else "omit",
        )
    if tooth is not None and tooth in _extracted(ctx, patient_id):
        raise RuleViolation(f"tooth {tooth} was extracted", field="tooth", hint="plan treatment on another tooth")
    return ctx.create(
        Procedure,
        patient_id=patient_id,
        code=code,
        description=desc,
        tooth=tooth,
        surfaces=surfaces,
        fee_cents=fee,
        provider_id=provider_id,
    )


@service.tool(
    intent="set the procedure complete",
    write=True,
    example=first_example(Procedure, "procedure_id", where={"status": "TP", "code": "D0120"}),
)
def complete_procedure(ctx: Ctx, procedure_id: ProcedureId) -> Procedure:
    """Set a planned procedure complete today (a prophy or exam moves the recall).

    Args:
        procedure_id: The procedure (TP).
    """
    p = ctx.get(Procedure, procedure_id, field="procedure_id")
    if p.status != "TP":
        raise Conflict(f"procedure {p.id} is already complete", field="procedure_id", hint="nothing to do")
    return _complete(ctx, p)


@service.tool(
    intent="present the treatment plan",
    write=True,
    example=first_example(
        Procedure,
        fields={"patient_id": "patient_id"},
        where={"status": "TP"},
        heading="Restorative phase",
    ),
)
def create_treatplan(ctx: Ctx, patient_id: PatientId, heading: Title) -> TreatPlan:
    """Gather the patient's planned procedures into an active treatment plan with its insurance estimate.

    Args:
        patient_id: The patient.
        heading: The plan's title.
    """
    pat = ctx.get(Patient, patient_id, field="patient_id")
    procs = ctx.where(Procedure, patient_id=pat.id, status="TP")
    if not procs:
        raise RuleViolation("the patient has no planned procedure", field="patient_id", hint="chart them first")
    if ctx.first(TreatPlan, patient_id=pat.id, status="active") is not None:
        raise Conflict("the patient already has an active plan", field="patient_id", hint="sign or inactivate it")
    return ctx.create(
        TreatPlan,
        patient_id=pat.id,
        heading=heading,
        procedure_ids=tuple(p.id for p in procs),
        total_fee_cents=sum(p.fee_cents for p in procs),
        insurance_estimate_cents=_estimate(ctx, pat, procs),
    )


@service.tool(
    intent="sign the treatment plan",
    write=True,
    example=first_example(TreatPlan, "treatplan_id", where={"status": "active"}),
)
def sign_treatplan(ctx: Ctx, treatplan_id: TreatPlanId) -> TreatPlan:
    """Record the patient's signature on an active treatment plan.

    Args:
        treatplan_id: The plan (active).
    """
    plan = ctx.get(TreatPlan, treatplan_id, field="treatplan_id")
    if plan.status != "active":
        raise Conflict(f"plan {plan.id} is {plan.status}", field="treatplan_id", hint="only active plans are signed")
    return ctx.update(plan, status="signed", signed_at=ctx.now())


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Procedure, status="C", claim_id=None):
        pat = ctx.get(Patient, p.patient_id)
        if pat.carrier is not None:
            return {"patient_id": pat.id, "procedure_ids": [p.id]}
    return None


@service.tool(intent="create the insurance claim", write=True, example=_example_claim)
def create_claim(ctx: Ctx, patient_id: PatientId, procedure_ids: list[ProcedureId]) -> Claim:
    """Bill completed, unclaimed procedures to the patient's carrier; the estimate respects the annual maximum.

    Args:
        patient_id: The patient (insured).
        procedure_ids: Their completed procedures to bill.
    """
    pat = ctx.get(Patient, patient_id, field="patient_id")
    if pat.carrier is None:
        raise RuleViolation("the patient has no dental insurance", field="patient_id", hint="bill the patient")
    if not procedure_ids or len(set(procedure_ids)) != len(procedure_ids):
        raise RuleViolation("list each procedure once", field="procedure_ids", hint="give distinct procedures")
    procs = [ctx.get(Procedure, pid, field="procedure_ids") for pid in procedure_ids]
    for p in procs:
        if p.patient_id != pat.id or p.status != "C":
            raise RuleViolation(
                f"procedure {p.id} is not a completed procedure of this patient",
                field="procedure_ids",
                hint="only completed procedures are claimed",
            )
        if p.claim_id is not None:
            raise Conflict(f"procedure {p.id} is on claim {p.claim_id}", field="procedure_ids", hint="leave it out")
    claim = ctx.create(
        Claim,
        patient_id=pat.id,
        carrier=pat.carrier,
        procedure_ids=tuple(procedure_ids),
        claim_fee_cents=sum(p.fee_cents for p in procs),
        estimate_cents=_estimate(ctx, pat, procs),
    )
    for p in procs:
        ctx.update(p, claim_id=claim.id)
    return claim


@service.tool(
    intent="receive the claim payment",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "sent"}, fields={"paid_cents": "estimate_cents"}),
)
def receive_claim_payment(ctx: Ctx, claim_id: ClaimId, paid_cents: Cents) -> Claim:
    """Record the carrier's payment on a sent claim; it counts against the patient's annual maximum.

    Args:
        claim_id: The claim (sent).
        paid_cents: What the carrier paid, at most the claim fee and the remaining annual maximum.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "sent":
        raise RuleViolation(f"claim {claim.id} is {claim.status}", field="claim_id", hint="send the claim first")
    pat = ctx.get(Patient, claim.patient_id)
    remaining = pat.annual_max_cents - pat.benefits_used_cents
    if paid_cents > min(claim.claim_fee_cents, remaining):
        raise RuleViolation(
            f"payment exceeds the claim fee or the {remaining} cents left of the annual maximum",
            field="paid_cents",
            hint="enter what the explanation of benefits says",
        )
    ctx.update(pat, benefits_used_cents=pat.benefits_used_cents + paid_cents)
    return ctx.update(claim, status="received", paid_cents=paid_cents)


# -- seed -------------------------------------------------------------------------------------

CARRIERS: tuple[Carrier, ...] = ("Delta Dental", "MetLife", "Cigna Dental", "Aetna Dental", "Guardian")
_STAFF: tuple[tuple[Specialty, str], ...] = (
    ("general", "DDS"),
    ("general", "DMD"),
    ("hygienist", "RDH"),
    ("hygienist", "RDH"),
    ("endodontics", "DDS"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Five providers from the staff, consumer patients with insurance, charts, plans, claims, a day's schedule."""
    pop = s.population
    docs = []
    for i, (spec, _) in enumerate(_STAFF):
        p = pop.employees[-1 - i]
        abbr = (p.first_name[:1] + p.last_name[:2]).upper()
        abbr = "".join(c for c in abbr if "A" <= c <= "Z").ljust(2, "X")
        npi = f"1{(987654321 + i * 1234567) % 10**9:09d}"
        docs.append(s.create(Provider, name=p.name, abbr=abbr, specialty=spec, email=p.email, npi=npi))
    people = list(pop.consumers)[:18]
    today = s.now.date()
    for i, person in enumerate(people):
        carrier = CARRIERS[i % 5] if i % 6 else None
        pat = s.create(
            Patient,
            first_name=person.first_name,
            last_name=person.last_name,
            birth_date=person.birth_date,
            email=person.email,
            phone=person.phone,
            status="inactive" if i == 17 else "patient",
            primary_provider_id=docs[i % 2].id,
            carrier=carrier,
            subscriber_id=f"{carrier[:3].upper()}{100000 + 7919 * i}" if carrier else None,
            annual_max_cents=(150000, 200000, 100000)[i % 3],
            benefits_used_cents=(0, 42000, 96000)[i % 3],
            created_at=s.ago(days=900 - 30 * i),
        )
        last = add_months(today, -(2 + i % 8))
        s.create(Recall, patient_id=pat.id, previous_date=last, date_due=add_months(last, 6), disabled=i == 17)
        _seed_chart(s, pat, docs, i, last)


def _seed_chart(s: SeedContext, pat: Patient, docs: list[Provider], i: int, last: dt.date) -> None:
    today = s.now.date()
    done = []
    for code in ("D0120", "D1110", "D0274"):
        done.append(
            s.create(
                Procedure,
                patient_id=pat.id,
                code=code,
                description=CDT[code][0],
                fee_cents=CDT[code][1],
                status="C",
                provider_id=docs[2 + i % 2].id,
                completed_on=last,
            )
        )
    if i % 4 == 1:
        done.append(
            s.create(
                Procedure,
                patient_id=pat.id,
                code="D7140",
                description=CDT["D7140"][0],
                tooth=1,
                fee_cents=CDT["D7140"][1],
                status="C",
                provider_id=docs[0].id,
                completed_on=last,
            )
        )
    planned = []
    if i % 3 == 0:
        for code, tooth, surf in (("D2392", 30, "MO"), ("D2740", 19, None)):
            planned.append(
                s.create(
                    Procedure,
                    patient_id=pat.id,
                    code=code,
                    description=CDT[code][0],
                    tooth=tooth,
                    surfaces=surf,
                    fee_cents=CDT[code][1],
                    provider_id=docs[i % 2].id,
                )
            )
        if i % 2 == 0:
            s.create(
                TreatPlan,
                patient_id=pat.id,
                heading="Restorative phase",
                procedure_ids=tuple(p.id for p in planned),
                total_fee_cents=sum(p.fee_cents for p in planned),
                insurance_estimate_cents=sum(p.fee_cents * COVERAGE[CDT[p.code][2]] // 100 for p in planned)
                if pat.carrier
                else 0,
                status="signed" if i % 4 == 0 else "active",
                signed_at=s.ago(days=3) if i % 4 == 0 else None,
            )
    if pat.carrier is not None and i % 5 != 4:
        status: ClaimStatus = ("received", "sent", "unsent", "denied")[i % 4]
        fee = sum(p.fee_cents for p in done)
        claim = s.create(
            Claim,
            patient_id=pat.id,
            carrier=pat.carrier,
            procedure_ids=tuple(p.id for p in done),
            claim_fee_cents=fee,
            estimate_cents=fee * 9 // 10,
            paid_cents=fee * 9 // 10 if status == "received" else 0,
            status=status,
            sent_on=None if status == "unsent" else last + dt.timedelta(days=1),
        )
        for p in done:
            s.update(p, claim_id=claim.id)
    if i < 10:
        start = utc_at(today, 8 + i % 9) + dt.timedelta(days=0 if i < 6 else 7)
        status_a: AptStatus = "complete" if i == 9 else "scheduled"
        apt = s.create(
            Appointment,
            patient_id=pat.id,
            provider_id=docs[i % 4].id,
            operatory=("OP1", "OP2", "HYG1", "HYG2")[i % 4],
            start=start - dt.timedelta(days=30) if status_a == "complete" else start,
            minutes=60,
            status=status_a,
        )
        for p in planned[:1]:
            s.update(p, appointment_id=apt.id)
        if i in (0, 5):
            code = "D0120"
            s.create(
                Procedure,
                patient_id=pat.id,
                code=code,
                description=CDT[code][0],
                fee_cents=CDT[code][1],
                provider_id=apt.provider_id,
                appointment_id=apt.id,
            )
