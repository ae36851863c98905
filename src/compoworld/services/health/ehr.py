"""Chartwell EHR: the clinical record of patients — encounters, vital signs and labs, problems, medications, allergies.

Modeled on the HL7 FHIR R4 API as Epic and athenahealth expose it (Patient,
Practitioner, Encounter, Observation, Condition, MedicationRequest,
AllergyIntolerance and ``Patient/$everything``). Where the clinic service books
visits and the pharmacy fills prescriptions, this is the chart they document
into:

* an Encounter moves planned → arrived → in-progress → finished, one step at a
  time (planned or arrived ones may be cancelled); a patient arrives on the
  planned day and has at most one encounter in progress;
* an Observation is recorded during an in-progress encounter, with the LOINC
  code's own unit and a physiologically plausible value, and is interpreted
  against the code's reference range (H, L or N);
* a Condition is an ICD-10 problem with an onset between the birth date and
  today; a patient has one active condition per code; resolving it sets the
  abatement date;
* a MedicationRequest names an RxNorm medication of the formulary; it is refused
  when the patient has an active, unrefuted AllergyIntolerance to the drug's
  class, when the same medication is already active, when the daily dose exceeds
  the drug's maximum, and for an opioid supply longer than seven days; it moves
  active ⇄ on-hold → stopped (with a reason) or completed;
* an allergy is recorded once per substance, and not while an active
  medication request of that class is on the chart (stop it first);
* patients are matched on name and birth date: the same person is not registered
  twice; a deceased patient gets no new orders.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    PersonName,
    Phone,
    PostalAddress,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "ehr",
    title="Chartwell EHR",
    category="health_records",
    modeled_on="HL7 FHIR R4 API as exposed by Epic and athenahealth (Patient, Practitioner, Encounter, Observation, "
    "Condition, MedicationRequest, AllergyIntolerance, Patient/$everything)",
    description="The electronic health record: patients and practitioners, encounters from planned to finished, "
    "vital signs and lab results with their reference ranges, the problem list, medication orders checked against "
    "allergies and dose limits, and a patient's whole chart in one read.",
)

PatientId = Annotated[str, IdOf("ehr.patient")]
PractitionerId = Annotated[str, IdOf("ehr.practitioner")]
EncounterId = Annotated[str, IdOf("ehr.encounter")]
ObservationId = Annotated[str, IdOf("ehr.observation")]
ConditionId = Annotated[str, IdOf("ehr.condition")]
MedicationRequestId = Annotated[str, IdOf("ehr.medication_request")]
AllergyId = Annotated[str, IdOf("ehr.allergy_intolerance")]
Npi = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
Mrn = Annotated[str, StringConstraints(pattern=r"^MRN-[0-9]{7}$")]

Gender = Literal["male", "female", "other", "unknown"]
EncounterClass = Literal["AMB", "EMER", "IMP", "VR"]
EncounterStatus = Literal["planned", "arrived", "in-progress", "finished", "cancelled"]
ObservationStatus = Literal["final", "amended"]
Interpretation = Literal["H", "L", "N"]
ClinicalStatus = Literal["active", "resolved"]
MedStatus = Literal["active", "on-hold", "stopped", "completed"]
AllergyVerification = Literal["unconfirmed", "confirmed", "refuted"]
Criticality = Literal["low", "high", "unable-to-assess"]

LoincCode = Literal["8867-4", "8310-5", "8480-6", "8462-4", "29463-7", "8302-2", "2708-6", "4548-4", "2345-7", "2093-3"]
LOINC: dict[str, tuple[str, str, float, float, float | None, float | None, str]] = {
    "8867-4": ("Heart rate", "/min", 20, 250, 60, 100, "vital-signs"),
    "8310-5": ("Body temperature", "Cel", 30, 45, 36.1, 37.5, "vital-signs"),
    "8480-6": ("Systolic blood pressure", "mm[Hg]", 50, 260, 90, 130, "vital-signs"),
    "8462-4": ("Diastolic blood pressure", "mm[Hg]", 30, 160, 60, 85, "vital-signs"),
    "29463-7": ("Body weight", "kg", 0.5, 400, None, None, "vital-signs"),
    "8302-2": ("Body height", "cm", 30, 250, None, None, "vital-signs"),
    "2708-6": ("Oxygen saturation in arterial blood", "%", 50, 100, 95, 100, "vital-signs"),
    "4548-4": ("Hemoglobin A1c", "%", 3, 20, 4.0, 5.6, "laboratory"),
    "2345-7": ("Glucose [Mass/volume] in serum or plasma", "mg/dL", 20, 800, 70, 99, "laboratory"),
    "2093-3": ("Cholesterol [Mass/volume] in serum or plasma", "mg/dL", 50, 600, None, 200, "laboratory"),
}
"""LOINC code: display, UCUM unit, plausible low and high, reference low and high, category."""

Icd10 = Literal["I10", "E11.9", "J45.909", "E78.5", "M54.5", "J06.9", "F41.1", "K21.9", "N39.0", "G43.909"]
ICD10: dict[str, str] = {
    "I10": "Essential (primary) hypertension",
    "E11.9": "Type 2 diabetes mellitus without complications",
    "J45.909": "Unspecified asthma, uncomplicated",
    "E78.5": "Hyperlipidemia, unspecified",
    "M54.5": "Low back pain",
    "J06.9": "Acute upper respiratory infection, unspecified",
    "F41.1": "Generalized anxiety disorder",
    "K21.9": "Gastro-esophageal reflux disease without esophagitis",
    "N39.0": "Urinary tract infection, site not specified",
    "G43.909": "Migraine, unspecified, not intractable",
}

DrugClass = Literal[
    "calcium_channel_blocker",
    "ace_inhibitor",
    "biguanide",
    "statin",
    "penicillin",
    "nsaid",
    "opioid",
    "ssri",
    "bronchodilator",
    "sulfonamide",
    "anticoagulant",
    "macrolide",
]
RxNorm = Literal[
    "197361",
    "314076",
    "860975",
    "617312",
    "308182",
    "197806",
    "1049621",
    "312938",
    "745679",
    "198335",
    "855332",
    "308460",
]
FORMULARY: dict[str, tuple[str, DrugClass, int]] = {
    "197361": ("Amlodipine 5 MG Oral Tablet", "calcium_channel_blocker", 2),
    "314076": ("Lisinopril 10 MG Oral Tablet", "ace_inhibitor", 4),
    "860975": ("Metformin hydrochloride 500 MG Oral Tablet", "biguanide", 4),
    "617312": ("Atorvastatin 20 MG Oral Tablet", "statin", 4),
    "308182": ("Amoxicillin 500 MG Oral Capsule", "penicillin", 6),
    "197806": ("Ibuprofen 600 MG Oral Tablet", "nsaid", 4),
    "1049621": ("Oxycodone hydrochloride 5 MG Oral Tablet", "opioid", 6),
    "312938": ("Sertraline 50 MG Oral Tablet", "ssri", 4),
    "745679": ("Albuterol 0.09 MG/ACTUAT Metered Dose Inhaler", "bronchodilator", 12),
    "198335": ("Sulfamethoxazole 800 MG / Trimethoprim 160 MG Oral Tablet", "sulfonamide", 2),
    "855332": ("Warfarin sodium 5 MG Oral Tablet", "anticoagulant", 3),
    "308460": ("Azithromycin 250 MG Oral Tablet", "macrolide", 2),
}
"""RxNorm code: name, drug class, most units a day."""
Substance = Literal[
    "penicillin",
    "sulfonamide",
    "nsaid",
    "statin",
    "opioid",
    "ace_inhibitor",
    "macrolide",
    "peanut",
    "latex",
    "shellfish",
]
FOOD_OR_ENVIRONMENT = {"peanut": "food", "shellfish": "food", "latex": "environment"}
OPIOID_MAX_DAYS = 7
MED_MOVES: dict[str, tuple[str, ...]] = {
    "active": ("on-hold", "stopped", "completed"),
    "on-hold": ("active", "stopped"),
    "stopped": (),
    "completed": (),
}
ENCOUNTER_NEXT: dict[str, tuple[str, ...]] = {
    "planned": ("arrived", "cancelled"),
    "arrived": ("in-progress", "cancelled"),
    "in-progress": ("finished",),
    "finished": (),
    "cancelled": (),
}


# -- records -------------------------------------------------------------------------------


class Practitioner(Record):
    """A clinician who documents and orders (FHIR Practitioner)."""

    id: PractitionerId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail."""
    npi: Npi
    """National Provider Identifier (the same one the clinic and the pharmacy know)."""
    qualification: Literal["MD", "DO", "NP", "PA"]
    """Their qualification."""
    active: bool = True
    """Whether they may still document and order."""


class Patient(Timestamped):
    """A patient's demographics (FHIR Patient)."""

    id: PatientId
    mrn: Annotated[Mrn, Generated("sequence", "MRN-{n:07d}")]
    """Medical record number."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    gender: Gender
    """Administrative gender."""
    birth_date: Date
    """Date of birth."""
    email: Email
    """E-mail (telecom); unique."""
    phone: Phone
    """Mobile phone (telecom)."""
    address: PostalAddress | None = None
    """Home address."""
    general_practitioner_id: PractitionerId | None = None
    """Their primary care practitioner."""
    deceased_date: Date | None = None
    """Date of death; a deceased patient gets no new orders or encounters."""


class Encounter(Timestamped):
    """A visit or admission (FHIR Encounter)."""

    id: EncounterId
    patient_id: PatientId
    """The patient."""
    practitioner_id: PractitionerId
    """The attending practitioner."""
    encounter_class: EncounterClass = "AMB"
    """AMB (ambulatory), EMER (emergency), IMP (inpatient) or VR (virtual)."""
    status: EncounterStatus = "planned"
    """planned → arrived → in-progress → finished; planned or arrived may be cancelled."""
    planned_start: DateTime
    """When it is planned to begin."""
    period_start: DateTime | None = None
    """When it began (in progress)."""
    period_end: DateTime | None = None
    """When it finished."""
    reason_code: Icd10 | None = None
    """ICD-10 code of the reason for the visit."""


class Observation(Record):
    """A vital sign or lab result (FHIR Observation)."""

    id: ObservationId
    patient_id: PatientId
    """The patient."""
    encounter_id: EncounterId
    """The encounter it was recorded in."""
    performer_id: PractitionerId
    """Who recorded it."""
    code: LoincCode
    """LOINC code."""
    display: str
    """What was measured."""
    category: Literal["vital-signs", "laboratory"]
    """vital-signs or laboratory."""
    value: float
    """The measured value."""
    unit: str
    """UCUM unit of the value."""
    interpretation: Interpretation | None = None
    """H (high), L (low) or N (normal) against the reference range; None without a range."""
    status: ObservationStatus = "final"
    """final or amended."""
    effective_at: Annotated[DateTime, CREATED]
    """When it was measured."""


class Condition(Timestamped):
    """A problem or diagnosis on the patient's problem list (FHIR Condition)."""

    id: ConditionId
    patient_id: PatientId
    """The patient."""
    code: Icd10
    """ICD-10-CM code."""
    display: str = ""
    """The code's name (filled in)."""
    clinical_status: ClinicalStatus = "active"
    """active or resolved."""
    onset_date: Date
    """When it began."""
    abatement_date: Date | None = None
    """When it resolved."""
    recorder_id: PractitionerId
    """Who recorded it."""
    encounter_id: EncounterId | None = None
    """The encounter where it was diagnosed."""
    note: Text | None = None
    """A clinical note."""


class MedicationRequest(Timestamped):
    """A medication order (FHIR MedicationRequest)."""

    id: MedicationRequestId
    patient_id: PatientId
    """The patient."""
    requester_id: PractitionerId
    """Who ordered it."""
    encounter_id: EncounterId | None = None
    """The encounter it was ordered in."""
    medication_code: RxNorm
    """RxNorm code of the medication."""
    medication_name: str
    """The medication's name."""
    drug_class: DrugClass
    """Its therapeutic class."""
    dose_quantity: Annotated[int, Field(ge=1, le=20)]
    """Units per dose."""
    frequency_per_day: Annotated[int, Field(ge=1, le=12)]
    """Doses a day."""
    duration_days: Annotated[int, Field(ge=1, le=365)]
    """Days of supply."""
    refills: Annotated[int, Field(ge=0, le=11)] = 0
    """Repeats allowed after the first dispense."""
    status: MedStatus = "active"
    """active, on-hold, stopped or completed."""
    status_reason: Text | None = None
    """Why it was put on hold or stopped."""
    authored_on: Date
    """When it was ordered."""


class AllergyIntolerance(Timestamped):
    """A recorded allergy or intolerance (FHIR AllergyIntolerance)."""

    id: AllergyId
    patient_id: PatientId
    """The patient."""
    substance: Substance
    """The drug class or food/environmental substance."""
    category: Literal["medication", "food", "environment"] = "medication"
    """medication, food or environment (filled in from the substance)."""
    criticality: Criticality = "low"
    """low, high or unable-to-assess."""
    clinical_status: Literal["active", "inactive"] = "active"
    """active or inactive."""
    verification_status: AllergyVerification = "confirmed"
    """unconfirmed, confirmed or refuted (a refuted allergy does not block orders)."""
    reaction: Text | None = None
    """The reaction observed."""
    recorder_id: PractitionerId | None = None
    """Who recorded it."""


# -- guards --------------------------------------------------------------------------------


def _live_patient(ctx: Ctx, patient_id: str) -> Patient:
    patient = ctx.get(Patient, patient_id, field="patient_id")
    if patient.deceased_date is not None:
        raise RuleViolation(
            f"patient {patient.mrn} is deceased ({patient.deceased_date})",
            field="patient_id",
            hint="nothing new can be ordered or scheduled for a deceased patient",
        )
    return patient


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.birth_date > ctx.today():
        raise RuleViolation("the birth date is in the future", field="birth_date", hint="give the date of birth")
    if new.deceased_date is not None and new.deceased_date < new.birth_date:
        raise RuleViolation("death precedes birth", field="deceased_date", hint="check the dates")
    for other in ctx.where(Patient, birth_date=new.birth_date, last_name=new.last_name):
        if other.id != new.id and other.first_name.lower() == new.first_name.lower():
            raise Conflict(
                f"{new.first_name} {new.last_name}, born {new.birth_date}, is already registered as {other.mrn}",
                field="last_name",
                hint=f"use patient {other.id}",
            )


def _guard_encounter(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _live_patient(ctx, new.patient_id)
        doctor = ctx.get(Practitioner, new.practitioner_id, field="practitioner_id")
        if not doctor.active:
            raise RuleViolation(f"{doctor.name} is inactive", field="practitioner_id", hint="choose an active one")
        if new.planned_start < ctx.now() - dt.timedelta(hours=1):
            raise RuleViolation(
                "a planned encounter cannot start in the past", field="planned_start", hint="plan it from now on"
            )


def _guard_condition(ctx: Ctx, new: Any, old: Any) -> None:
    if new.clinical_status == "resolved" and old.clinical_status == "active":
        ctx.update(new, abatement_date=ctx.today())


practitioners = service.resource(
    Practitioner,
    name="practitioner",
    plural="practitioners",
    prefix="prac",
    create=False,
    get=False,
    filters=("npi", "email", "qualification", "active"),
    search=("name",),
    delete=False,
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pat",
    create=("first_name", "last_name", "gender", "birth_date", "email", "phone", "address", "general_practitioner_id"),
    filters=("mrn", "email", "phone", "birth_date", "last_name", "general_practitioner_id"),
    search=("first_name", "last_name"),
    delete=False,
    unique=("email",),
    guard_create=_guard_patient,
)
encounters = service.resource(
    Encounter,
    name="encounter",
    plural="encounters",
    prefix="enc",
    create=("patient_id", "practitioner_id", "encounter_class", "planned_start", "reason_code"),
    get=False,
    filters=("patient_id", "practitioner_id", "status", "encounter_class", "reason_code"),
    delete=False,
    guard_create=_guard_encounter,
)
observations = service.resource(
    Observation,
    name="observation",
    plural="observations",
    prefix="obs",
    create=False,
    get=False,
    filters=("patient_id", "encounter_id", "code", "category", "interpretation"),
    delete=False,
)
conditions = service.resource(
    Condition,
    name="condition",
    plural="conditions",
    prefix="cond",
    create=False,
    get=False,
    filters=("patient_id", "code", "clinical_status"),
    search=("display", "note"),
    delete=False,
    transitions={
        "resolve": Transition(
            "clinical_status",
            ("active",),
            "resolved",
            "mark the condition resolved",
            description="Mark an active problem resolved; its abatement date becomes today.",
        )
    },
    guard_update=_guard_condition,
)
medication_requests = service.resource(
    MedicationRequest,
    name="medication_request",
    plural="medication_requests",
    prefix="medrx",
    create=False,
    get=False,
    filters=("patient_id", "requester_id", "medication_code", "drug_class", "status"),
    search=("medication_name",),
    delete=False,
)
allergies = service.resource(
    AllergyIntolerance,
    name="allergy_intolerance",
    plural="allergy_intolerances",
    prefix="alg",
    create=False,
    get=False,
    filters=("patient_id", "substance", "category", "clinical_status", "verification_status", "criticality"),
    delete=False,
    title="allergy or intolerance",
)


# -- encounters ----------------------------------------------------------------------------


def _example_encounter_status(ctx: Ctx) -> dict[str, Any] | None:
    enc = ctx.first(Encounter, status="arrived")
    return None if enc is None else {"encounter_id": enc.id, "status": "in-progress"}


@service.tool(intent="move the encounter to its next status", write=True, example=_example_encounter_status)
def update_encounter_status(
    ctx: Ctx, encounter_id: EncounterId, status: Literal["arrived", "in-progress", "finished", "cancelled"]
) -> Encounter:
    """Move an encounter one step: planned → arrived → in-progress → finished, or cancel a planned/arrived one.

    A patient arrives on the planned day; starting sets the period's start and
    needs the patient to have no other encounter in progress; finishing sets its end.

    Args:
        encounter_id: The encounter.
        status: arrived, in-progress, finished or cancelled.
    """
    enc = ctx.get(Encounter, encounter_id, field="encounter_id")
    if status not in ENCOUNTER_NEXT[enc.status]:
        allowed = ", ".join(ENCOUNTER_NEXT[enc.status]) or "nothing (it is final)"
        raise RuleViolation(
            f"an encounter that is {enc.status} cannot become {status}",
            field="status",
            hint=f"from {enc.status} it can become: {allowed}",
        )
    now = ctx.now()
    if status == "arrived" and enc.planned_start.date() != ctx.today():
        raise RuleViolation(
            f"the encounter is planned for {enc.planned_start.date()}, not today",
            field="encounter_id",
            hint="the patient arrives on the planned day; plan a new encounter for today",
        )
    if status == "in-progress":
        for other in ctx.where(Encounter, patient_id=enc.patient_id, status="in-progress"):
            raise Conflict(
                f"the patient already has encounter {other.id} in progress",
                field="encounter_id",
                hint="finish that encounter first",
            )
        return ctx.update(enc, status=status, period_start=now)
    if status == "finished":
        return ctx.update(enc, status=status, period_end=now)
    return ctx.update(enc, status=status)


# -- observations --------------------------------------------------------------------------


def _example_observation(ctx: Ctx) -> dict[str, Any] | None:
    enc = ctx.first(Encounter, status="in-progress")
    return None if enc is None else {"encounter_id": enc.id, "code": "8867-4", "value": 72, "unit": "/min"}


@service.tool(intent="record a vital sign or lab result in the visit", write=True, example=_example_observation)
def record_observation(
    ctx: Ctx,
    encounter_id: EncounterId,
    code: LoincCode,
    value: Annotated[float, Field(ge=0, le=10000)],
    unit: str | None = None,
    performer_id: PractitionerId | None = None,
) -> Observation:
    """Record a vital sign or lab value during an in-progress encounter (FHIR ``POST /Observation``).

    The unit must be the code's UCUM unit and the value physiologically
    plausible; the result is interpreted against the code's reference range.

    Args:
        encounter_id: The in-progress encounter.
        code: LOINC code (8867-4 heart rate, 8310-5 temperature, 8480-6/8462-4 blood pressure, 29463-7 weight,
            8302-2 height, 2708-6 SpO2, 4548-4 HbA1c, 2345-7 glucose, 2093-3 cholesterol).
        value: The measured value.
        unit: UCUM unit; omit for the code's own.
        performer_id: Who measured it; omit for the encounter's practitioner.
    """
    enc = ctx.get(Encounter, encounter_id, field="encounter_id")
    if enc.status != "in-progress":
        raise RuleViolation(
            f"encounter {enc.id} is {enc.status}; observations are recorded while it is in progress",
            field="encounter_id",
            hint="start the encounter with ehr__update_encounter_status",
        )
    display, code_unit, lo, hi, ref_lo, ref_hi, category = LOINC[code]
    if unit is not None and unit != code_unit:
        raise RuleViolation(
            f"{display} is recorded in {code_unit}, not {unit}", field="unit", hint=f"convert the value to {code_unit}"
        )
    if not lo <= value <= hi:
        raise RuleViolation(
            f"{value} {code_unit} is not a plausible {display.lower()}",
            field="value",
            hint=f"a value between {lo} and {hi} {code_unit}",
        )
    if performer_id is not None:
        ctx.get(Practitioner, performer_id, field="performer_id")
    interpretation: Interpretation | None = None
    if ref_lo is not None or ref_hi is not None:
        interpretation = "H" if ref_hi is not None and value > ref_hi else "N"
        if ref_lo is not None and value < ref_lo:
            interpretation = "L"
    return ctx.create(
        Observation,
        patient_id=enc.patient_id,
        encounter_id=enc.id,
        performer_id=performer_id or enc.practitioner_id,
        code=code,
        display=display,
        category=category,
        value=value,
        unit=code_unit,
        interpretation=interpretation,
    )


# -- problems and allergies ----------------------------------------------------------------


def _example_condition(ctx: Ctx) -> dict[str, Any] | None:
    doctor = ctx.first(Practitioner, active=True)
    for patient in ctx.scan(Patient):
        taken = {c.code for c in ctx.where(Condition, patient_id=patient.id, clinical_status="active")}
        if doctor is not None and patient.deceased_date is None and "K21.9" not in taken:
            onset = max(patient.birth_date, ctx.today() - dt.timedelta(days=30))
            return {
                "patient_id": patient.id,
                "code": "K21.9",
                "onset_date": onset.isoformat(),
                "recorder_id": doctor.id,
            }
    return None


@service.tool(intent="add the problem to the patient's problem list", write=True, example=_example_condition)
def create_condition(
    ctx: Ctx,
    patient_id: PatientId,
    code: Icd10,
    onset_date: Date,
    recorder_id: PractitionerId,
    encounter_id: EncounterId | None = None,
    note: Text | None = None,
) -> Condition:
    """Record a problem or diagnosis (FHIR ``POST /Condition``); one active condition per code and patient.

    Args:
        patient_id: The patient.
        code: ICD-10-CM code.
        onset_date: When it began (between the birth date and today).
        recorder_id: The practitioner recording it.
        encounter_id: The patient's encounter where it was diagnosed.
        note: A clinical note.
    """
    patient = _live_patient(ctx, patient_id)
    if onset_date > ctx.today() or onset_date < patient.birth_date:
        raise RuleViolation(
            f"the onset {onset_date} is not between the birth date {patient.birth_date} and today",
            field="onset_date",
            hint="give when the condition began",
        )
    ctx.get(Practitioner, recorder_id, field="recorder_id")
    if encounter_id is not None:
        enc = ctx.get(Encounter, encounter_id, field="encounter_id")
        if enc.patient_id != patient.id:
            raise RuleViolation("the encounter is another patient's", field="encounter_id", hint="name their encounter")
    for other in ctx.where(Condition, patient_id=patient.id, code=code, clinical_status="active"):
        raise Conflict(
            f"{code} ({ICD10[code]}) is already an active problem ({other.id})",
            field="code",
            hint="keep that condition, or resolve it first",
        )
    return ctx.create(
        Condition,
        patient_id=patient.id,
        code=code,
        display=ICD10[code],
        onset_date=onset_date,
        recorder_id=recorder_id,
        encounter_id=encounter_id,
        note=note,
    )


def _example_allergy(ctx: Ctx) -> dict[str, Any] | None:
    for patient in ctx.scan(Patient):
        if patient.deceased_date is None and not ctx.where(
            AllergyIntolerance, patient_id=patient.id, substance="latex"
        ):
            return {"patient_id": patient.id, "substance": "latex", "criticality": "low", "reaction": "Rash"}
    return None


@service.tool(intent="record the patient's allergy", write=True, example=_example_allergy)
def create_allergy_intolerance(
    ctx: Ctx,
    patient_id: PatientId,
    substance: Substance,
    criticality: Criticality = "low",
    verification_status: AllergyVerification = "confirmed",
    reaction: Text | None = None,
    recorder_id: PractitionerId | None = None,
) -> AllergyIntolerance:
    """Record an allergy or intolerance (FHIR ``POST /AllergyIntolerance``), once per substance.

    A drug allergy cannot be recorded while a medication request of that class
    is active or on hold: stop the order first.

    Args:
        patient_id: The patient.
        substance: The drug class or food/environmental substance.
        criticality: low, high or unable-to-assess.
        verification_status: unconfirmed, confirmed or refuted.
        reaction: The reaction observed.
        recorder_id: Who records it.
    """
    patient = _live_patient(ctx, patient_id)
    if recorder_id is not None:
        ctx.get(Practitioner, recorder_id, field="recorder_id")
    for other in ctx.where(AllergyIntolerance, patient_id=patient.id, substance=substance, clinical_status="active"):
        raise Conflict(
            f"an allergy to {substance} is already recorded ({other.id})",
            field="substance",
            hint="one record per substance",
        )
    if verification_status != "refuted":
        for req in ctx.where(MedicationRequest, patient_id=patient.id, drug_class=substance):
            if req.status in ("active", "on-hold"):
                raise RuleViolation(
                    f"{req.medication_name} ({req.id}) of class {substance} is still ordered",
                    field="substance",
                    hint="stop that medication request first (ehr__update_medication_request_status)",
                )
    return ctx.create(
        AllergyIntolerance,
        patient_id=patient.id,
        substance=substance,
        category=FOOD_OR_ENVIRONMENT.get(substance, "medication"),
        criticality=criticality,
        verification_status=verification_status,
        reaction=reaction,
        recorder_id=recorder_id,
    )


# -- medication requests -------------------------------------------------------------------


def _example_order(ctx: Ctx) -> dict[str, Any] | None:
    doctor = ctx.first(Practitioner, active=True)
    for patient in ctx.scan(Patient):
        if patient.deceased_date is None and doctor is not None:
            blocked = {a.substance for a in ctx.where(AllergyIntolerance, patient_id=patient.id)}
            taken = {m.medication_code for m in ctx.where(MedicationRequest, patient_id=patient.id)}
            if "nsaid" not in blocked and "197806" not in taken:
                return {
                    "patient_id": patient.id,
                    "requester_id": doctor.id,
                    "medication_code": "197806",
                    "dose_quantity": 1,
                    "frequency_per_day": 3,
                    "duration_days": 10,
                }
    return None


@service.tool(intent="order a medication for the patient", write=True, example=_example_order)
def create_medication_request(
    ctx: Ctx,
    patient_id: PatientId,
    requester_id: PractitionerId,
    medication_code: RxNorm,
    dose_quantity: Annotated[int, Field(ge=1, le=20)],
    frequency_per_day: Annotated[int, Field(ge=1, le=12)],
    duration_days: Annotated[int, Field(ge=1, le=365)],
    refills: Annotated[int, Field(ge=0, le=11)] = 0,
    encounter_id: EncounterId | None = None,
) -> MedicationRequest:
    """Order a formulary medication (FHIR ``POST /MedicationRequest``).

    Refused when the patient has an active, unrefuted allergy to the drug's
    class, already has the medication active or on hold, when dose × frequency
    exceeds the drug's daily maximum, and for an opioid supply over seven days
    or with refills.

    Args:
        patient_id: The patient.
        requester_id: The ordering practitioner.
        medication_code: RxNorm code of the medication.
        dose_quantity: Units per dose.
        frequency_per_day: Doses a day.
        duration_days: Days of supply.
        refills: Repeats after the first dispense.
        encounter_id: The encounter it is ordered in (must be the patient's and not cancelled).
    """
    patient = _live_patient(ctx, patient_id)
    doctor = ctx.get(Practitioner, requester_id, field="requester_id")
    if not doctor.active:
        raise RuleViolation(f"{doctor.name} is inactive and cannot order", field="requester_id", hint="choose another")
    name, drug_class, max_daily = FORMULARY[medication_code]
    for allergy in ctx.where(AllergyIntolerance, patient_id=patient.id, substance=drug_class):
        if allergy.clinical_status == "active" and allergy.verification_status != "refuted":
            raise RuleViolation(
                f"{patient.first_name} {patient.last_name} has a recorded {allergy.criticality}-criticality allergy "
                f"to {drug_class} ({allergy.id}); {name} is a {drug_class}",
                field="medication_code",
                hint="choose a medication of another class (a refuted allergy does not block orders)",
            )
    for other in ctx.where(MedicationRequest, patient_id=patient.id, medication_code=medication_code):
        if other.status in ("active", "on-hold"):
            raise Conflict(
                f"{name} is already ordered ({other.id}, {other.status})",
                field="medication_code",
                hint="change that order instead",
            )
    if dose_quantity * frequency_per_day > max_daily:
        raise RuleViolation(
            f"{dose_quantity} × {frequency_per_day} a day exceeds the maximum of {max_daily} units a day of {name}",
            field="dose_quantity",
            hint=f"order at most {max_daily} units a day",
        )
    if drug_class == "opioid" and (duration_days > OPIOID_MAX_DAYS or refills):
        raise RuleViolation(
            f"an opioid may be ordered for at most {OPIOID_MAX_DAYS} days without refills",
            field="duration_days",
            hint=f"order {OPIOID_MAX_DAYS} days or fewer, no refills",
        )
    if encounter_id is not None:
        enc = ctx.get(Encounter, encounter_id, field="encounter_id")
        if enc.patient_id != patient.id or enc.status == "cancelled":
            raise RuleViolation(
                f"encounter {enc.id} is {'cancelled' if enc.status == 'cancelled' else 'another patient s'}",
                field="encounter_id",
                hint="name one of the patient's current encounters",
            )
    return ctx.create(
        MedicationRequest,
        patient_id=patient.id,
        requester_id=doctor.id,
        encounter_id=encounter_id,
        medication_code=medication_code,
        medication_name=name,
        drug_class=drug_class,
        dose_quantity=dose_quantity,
        frequency_per_day=frequency_per_day,
        duration_days=duration_days,
        refills=refills,
        authored_on=ctx.today(),
    )


@service.tool(
    intent="put on hold, resume, stop or complete the medication order",
    write=True,
    example=first_example(
        MedicationRequest, "medication_request_id", where={"status": "active"}, status="on-hold", reason="surgery"
    ),
)
def update_medication_request_status(
    ctx: Ctx,
    medication_request_id: MedicationRequestId,
    status: Literal["active", "on-hold", "stopped", "completed"],
    reason: Text | None = None,
) -> MedicationRequest:
    """Change an order's status: active ⇄ on-hold, active or on-hold → stopped, active → completed.

    Holding and stopping need a reason; stopped and completed orders are final.

    Args:
        medication_request_id: The order.
        status: active (resume), on-hold, stopped or completed.
        reason: Why it is held or stopped.
    """
    req = ctx.get(MedicationRequest, medication_request_id, field="medication_request_id")
    if status not in MED_MOVES[req.status]:
        allowed = ", ".join(MED_MOVES[req.status]) or "nothing (it is final)"
        raise RuleViolation(
            f"a medication request that is {req.status} cannot become {status}",
            field="status",
            hint=f"from {req.status} it can become: {allowed}",
        )
    if status in ("on-hold", "stopped") and not (reason or "").strip():
        raise RuleViolation(f"putting an order {status} needs a reason", field="reason", hint="say why")
    return ctx.update(req, status=status, status_reason=reason if status != "active" else None)


# -- the chart -----------------------------------------------------------------------------


class LatestObservation(BaseModel):
    """The latest value of one observation code."""

    code: str = Field(description="LOINC code.")
    display: str = Field(description="What was measured.")
    value: float = Field(description="The value.")
    unit: str = Field(description="Its unit.")
    interpretation: Interpretation | None = Field(description="H, L or N.")
    effective_at: DateTime = Field(description="When it was measured.")


class Chart(BaseModel):
    """A patient's chart (``Patient/$everything``, summarised)."""

    patient: Patient = Field(description="Demographics.")
    age: int = Field(description="Age in whole years today.")
    active_conditions: list[Condition] = Field(description="The active problem list.")
    active_medications: list[MedicationRequest] = Field(description="Orders that are active or on hold.")
    allergies: list[AllergyIntolerance] = Field(description="Active, unrefuted allergies and intolerances.")
    latest_observations: list[LatestObservation] = Field(description="The latest value of each code, by code.")
    encounters: int = Field(description="How many encounters the patient has had or has planned.")
    next_encounter_at: DateTime | None = Field(description="When the next planned encounter starts.")


@service.tool(intent="read the patient's whole chart", example=first_example(Patient, "patient_id"))
def get_patient_chart(ctx: Ctx, patient_id: PatientId) -> Chart:
    """A patient's chart: problems, medications, allergies, latest vitals and labs, encounters.

    Args:
        patient_id: The patient.
    """
    p = ctx.get(Patient, patient_id, field="patient_id")
    latest: dict[str, Observation] = {}
    for obs in ctx.where(Observation, patient_id=p.id):
        if obs.code not in latest or obs.effective_at >= latest[obs.code].effective_at:
            latest[obs.code] = obs
    encs = ctx.where(Encounter, patient_id=p.id)
    planned = sorted(e.planned_start for e in encs if e.status == "planned")
    today = ctx.today()
    return Chart(
        patient=p,
        age=today.year - p.birth_date.year - ((today.month, today.day) < (p.birth_date.month, p.birth_date.day)),
        active_conditions=ctx.where(Condition, patient_id=p.id, clinical_status="active"),
        active_medications=[
            m for m in ctx.where(MedicationRequest, patient_id=p.id) if m.status in ("active", "on-hold")
        ],
        allergies=[
            a
            for a in ctx.where(AllergyIntolerance, patient_id=p.id, clinical_status="active")
            if a.verification_status != "refuted"
        ],
        latest_observations=[
            LatestObservation(
                code=o.code,
                display=o.display,
                value=o.value,
                unit=o.unit,
                interpretation=o.interpretation,
                effective_at=o.effective_at,
            )
            for _, o in sorted(latest.items())
        ],
        encounters=len(encs),
        next_encounter_at=planned[0] if planned else None,
    )


# -- seeding -------------------------------------------------------------------------------

_PROBLEMS: tuple[tuple[str, ...], ...] = (
    ("I10", "E78.5"),
    ("E11.9", "I10"),
    ("J45.909",),
    ("F41.1", "G43.909"),
    ("K21.9",),
    (),
    ("M54.5",),
    ("E11.9", "E78.5", "I10"),
)
_MEDS_FOR: dict[str, tuple[str, int, int]] = {
    "I10": ("314076", 1, 1),
    "E78.5": ("617312", 1, 1),
    "E11.9": ("860975", 1, 2),
    "J45.909": ("745679", 2, 4),
    "F41.1": ("312938", 1, 1),
    "G43.909": ("197806", 1, 2),
}
_ALLERGIES: tuple[tuple[str, str], ...] = (("penicillin", "high"), ("sulfonamide", "low"), ("peanut", "high"))
_VITALS: tuple[tuple[str, float, float], ...] = (
    ("8867-4", 58, 104),
    ("8480-6", 108, 152),
    ("8462-4", 64, 96),
    ("29463-7", 52, 110),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The practice's clinicians, consumer patients with problems, orders, allergies, past visits and today's."""
    pop = s.population
    docs = [
        s.create(
            Practitioner,
            name=p.name,
            email=p.email,
            npi=provider_npi(i),
            qualification=("MD", "MD", "DO", "NP", "MD", "PA")[i],
            active=i != 5,
        )
        for i, (p, _) in enumerate(clinicians(pop))
    ]
    keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in pop.consumers if p.key not in keys][:24]
    today = s.now.date()
    for i, person in enumerate(people):
        doc = docs[i % 5]
        pat = s.create(
            Patient,
            first_name=person.first_name,
            last_name=person.last_name,
            gender=("female", "male")[i % 2] if i % 11 else "other",
            birth_date=person.birth_date,
            email=person.email,
            phone=person.phone,
            address=person.address,
            general_practitioner_id=doc.id,
            deceased_date=today - dt.timedelta(days=40) if i == 23 else None,
            created_at=s.ago(days=400 - 9 * i),
        )
        _seed_chart(s, pat, doc, i)
        if i < 8 and i != 23:
            status: EncounterStatus = ("planned", "planned", "arrived", "in-progress", "planned")[i % 5]
            start = utc_at(today, 14 + i % 4) if status == "planned" else s.ago(hours=1)
            s.create(
                Encounter,
                patient_id=pat.id,
                practitioner_id=doc.id,
                status=status,
                planned_start=start + dt.timedelta(days=7 if i == 4 else 0),
                period_start=s.ago(minutes=20) if status == "in-progress" else None,
                reason_code=(_PROBLEMS[i % len(_PROBLEMS)] or ("J06.9",))[0],
            )


def _seed_chart(s: SeedContext, pat: Patient, doc: Practitioner, i: int) -> None:
    visit_day = s.ago(days=30 + 7 * i)
    enc = s.create(
        Encounter,
        patient_id=pat.id,
        practitioner_id=doc.id,
        status="finished",
        planned_start=visit_day,
        period_start=visit_day,
        period_end=visit_day + dt.timedelta(minutes=25),
        reason_code=(_PROBLEMS[i % len(_PROBLEMS)] or ("J06.9",))[0],
        created_at=visit_day - dt.timedelta(days=10),
    )
    for code, lo, hi in _VITALS:
        value = round(lo + (hi - lo) * s.rng.random())
        _, unit, _, _, ref_lo, ref_hi, category = LOINC[code]
        interp: Interpretation | None = None
        if ref_lo is not None and ref_hi is not None:
            interp = "H" if value > ref_hi else "L" if value < ref_lo else "N"
        s.create(
            Observation,
            patient_id=pat.id,
            encounter_id=enc.id,
            performer_id=doc.id,
            code=code,
            display=LOINC[code][0],
            category=category,
            value=float(value),
            unit=unit,
            interpretation=interp,
            effective_at=visit_day + dt.timedelta(minutes=5),
        )
    allergy = _ALLERGIES[i % 4] if i % 4 < 3 else None
    if allergy is not None:
        s.create(
            AllergyIntolerance,
            patient_id=pat.id,
            substance=allergy[0],
            category=FOOD_OR_ENVIRONMENT.get(allergy[0], "medication"),
            criticality=allergy[1],
            verification_status="unconfirmed" if i % 7 == 6 else "confirmed",
            reaction="Hives" if allergy[1] == "low" else "Anaphylaxis",
            recorder_id=doc.id,
        )
    for k, code in enumerate(_PROBLEMS[i % len(_PROBLEMS)]):
        onset = max(pat.birth_date + dt.timedelta(days=6570), s.now.date() - dt.timedelta(days=900 + 200 * k))
        s.create(
            Condition,
            patient_id=pat.id,
            code=code,
            display=ICD10[code],
            onset_date=onset,
            recorder_id=doc.id,
            encounter_id=enc.id,
        )
        if code in _MEDS_FOR:
            rx, dose, freq = _MEDS_FOR[code]
            name, drug_class, _ = FORMULARY[rx]
            s.create(
                MedicationRequest,
                patient_id=pat.id,
                requester_id=doc.id,
                encounter_id=enc.id,
                medication_code=rx,
                medication_name=name,
                drug_class=drug_class,
                dose_quantity=dose,
                frequency_per_day=freq,
                duration_days=90,
                refills=3,
                status="on-hold" if i == 7 and k == 0 else "active",
                status_reason="Surgery planned" if i == 7 and k == 0 else None,
                authored_on=visit_day.date(),
            )
    if i % 6 == 5:
        s.create(
            Condition,
            patient_id=pat.id,
            code="J06.9",
            display=ICD10["J06.9"],
            clinical_status="resolved",
            onset_date=visit_day.date(),
            abatement_date=visit_day.date() + dt.timedelta(days=9),
            recorder_id=doc.id,
            encounter_id=enc.id,
        )
        s.create(
            MedicationRequest,
            patient_id=pat.id,
            requester_id=doc.id,
            encounter_id=enc.id,
            medication_code="308460",
            medication_name=FORMULARY["308460"][0],
            drug_class="macrolide",
            dose_quantity=1,
            frequency_per_day=1,
            duration_days=5,
            status="completed",
            authored_on=visit_day.date(),
        )
