"""Carewell Practice: clinic departments, providers, patients, appointment slots, appointments and encounters.

Modeled on the athenahealth athenaOne API (Departments, Providers, Patients,
Appointments: open slots, booking, rescheduling, cancellation, check-in,
Encounters with diagnoses and sign-off) and Epic's FHIR Scheduling resources
(Slot, Appointment, Encounter): a slot is booked by at most one patient and a
patient is never double-booked; new-patient slots are for patients the
provider has not seen and follow-up slots for those they have; providers not
accepting new patients take none; slots are opened on working days inside
clinic hours without overlapping the provider's other slots; cancelling less
than 24 hours ahead is a late cancellation with a fee; check-in happens on the
day; only a checked-in visit is documented and a signed encounter is final.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    LastName,
    MeetingLink,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Timezone,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinic_sites, clinicians, local_time, provider_npi

__all__ = ["service"]

service = Service(
    "clinic",
    title="Carewell Practice",
    category="healthcare",
    modeled_on="athenahealth athenaOne API (Departments, Providers, Patients, Appointments, Encounters) "
    "with Epic FHIR R4 Scheduling (Slot, Appointment, Encounter)",
    description="Outpatient practice scheduling: clinic departments and their providers, registered patients, "
    "open appointment slots, booking, rescheduling, cancellation, check-in and no-shows, and the visit's "
    "encounter with diagnoses signed by the provider.",
)

DepartmentId = Annotated[str, IdOf("clinic.department")]
ProviderId = Annotated[str, IdOf("clinic.provider")]
PatientId = Annotated[str, IdOf("clinic.patient")]
SlotId = Annotated[str, IdOf("clinic.slot")]
AppointmentId = Annotated[str, IdOf("clinic.appointment")]
EncounterId = Annotated[str, IdOf("clinic.encounter")]
Npi = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-B](\.[0-9A-Z]{1,4})?$")]
LocalTime = Annotated[str, StringConstraints(pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")]

Specialty = Literal["family_medicine", "internal_medicine", "pediatrics", "dermatology", "cardiology"]
VisitType = Literal["new_patient", "follow_up", "annual_physical", "telehealth"]
SlotStatus = Literal["open", "booked", "blocked"]
AppointmentStatus = Literal["booked", "checked_in", "completed", "cancelled", "no_show"]
Sex = Literal["female", "male", "other"]

OPEN_HOUR, CLOSE_HOUR = 7, 19
LATE_CANCEL = dt.timedelta(hours=24)
HELD: tuple[str, ...] = ("booked", "checked_in")
COPAY_MAJOR = 25
SELF_PAY_MAJOR: dict[str, int] = {"new_patient": 180, "follow_up": 110, "annual_physical": 220, "telehealth": 80}
LATE_FEE_MAJOR = 40


class Department(Record):
    """A clinic location of the practice."""

    id: DepartmentId
    name: Title
    """Clinic name."""
    address: PostalAddress
    """Street address."""
    phone: Phone
    """Front-desk phone."""
    timezone: Timezone
    """IANA time zone the clinic's hours are in."""
    currency: Currency
    """Currency of copays and fees."""


class Provider(Record):
    """A clinician who sees patients."""

    id: ProviderId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    npi: Npi
    """National provider identifier (10 digits); unique."""
    specialty: Specialty
    """Medical specialty."""
    department_id: DepartmentId
    """The clinic the provider works at."""
    accepting_new_patients: bool = True
    """Whether the provider takes patients they have not seen before."""


class Patient(Record):
    """A registered patient."""

    id: PatientId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail; unique."""
    phone: Phone
    """Mobile phone."""
    birth_date: Date
    """Date of birth."""
    sex: Sex
    """Sex recorded for care."""
    address: PostalAddress
    """Home address."""
    insurance_payer: CompanyName | None = None
    """Health insurer; null for self-pay."""
    member_id: AccountNumber | None = None
    """Insurance member number."""
    created_at: Annotated[DateTime, CREATED]
    """When the patient was registered."""


class Slot(Record):
    """A bookable time of a provider for one visit type."""

    id: SlotId
    provider_id: ProviderId
    """The provider."""
    department_id: DepartmentId
    """Where the visit takes place."""
    start: DateTime
    """Start (UTC)."""
    end: DateTime
    """End (UTC)."""
    visit_type: VisitType
    """new_patient, follow_up, annual_physical or telehealth."""
    status: SlotStatus = "open"
    """open, booked or blocked."""


class Appointment(Record):
    """A patient's booked visit with a provider."""

    id: AppointmentId
    slot_id: SlotId
    """The slot it occupies."""
    patient_id: PatientId
    """The patient."""
    provider_id: ProviderId
    """The provider."""
    department_id: DepartmentId
    """The clinic."""
    start: DateTime
    """Start (UTC)."""
    end: DateTime
    """End (UTC)."""
    visit_type: VisitType
    """Type of visit."""
    reason: Text = ""
    """Reason for the visit in the patient's words."""
    status: AppointmentStatus = "booked"
    """booked, checked_in, completed, cancelled or no_show."""
    meeting_link: MeetingLink | None = None
    """Video link of a telehealth visit."""
    copay: Cents
    """What the patient pays at check-in, in minor units."""
    currency: Currency
    """Currency of the copay and fees."""
    late_cancel_fee: Cents | None = None
    """Fee of a cancellation less than 24 hours ahead."""
    cancel_reason: Text | None = None
    """Why it was cancelled."""
    checked_in_at: DateTime | None = None
    """When the patient checked in."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Encounter(Record):
    """The clinical record of a visit: diagnoses and notes, signed by the provider."""

    id: EncounterId
    appointment_id: AppointmentId
    """The visit."""
    patient_id: PatientId
    """The patient."""
    provider_id: ProviderId
    """The provider."""
    date: Date
    """Date of the visit."""
    diagnosis_codes: list[Icd10] = Field(default_factory=list, max_length=12)
    """ICD-10 diagnosis codes."""
    notes: Text = ""
    """Clinical notes."""
    status: Literal["open", "signed"] = "open"
    """open while documented, signed when final."""
    signed_at: DateTime | None = None
    """When the provider signed it."""


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.birth_date > ctx.today():
        raise RuleViolation("a birth date cannot be in the future", field="birth_date", hint="check the date")
    if (new.member_id is None) != (new.insurance_payer is None):
        raise RuleViolation(
            "an insurance payer and a member id go together",
            field="member_id",
            hint="give both for an insured patient, neither for self-pay",
        )


departments = service.resource(
    Department, name="department", plural="departments", prefix="dep", create=False, delete=False, filters=()
)
providers = service.resource(
    Provider,
    name="provider",
    plural="providers",
    prefix="prv",
    create=False,
    filters=("department_id", "specialty", "accepting_new_patients", "email"),
    search=("name",),
    update=("accepting_new_patients",),
    delete=False,
    unique=("email", "npi"),
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pat",
    create=(
        "first_name",
        "last_name",
        "email",
        "phone",
        "birth_date",
        "sex",
        "address",
        "insurance_payer",
        "member_id",
    ),
    filters=("email", "last_name", "birth_date", "insurance_payer"),
    search=("first_name", "last_name", "email"),
    update=("email", "phone", "address", "insurance_payer", "member_id"),
    delete=False,
    unique=("email",),
    guard_create=_guard_patient,
    guard_update=_guard_patient,
)
slots = service.resource(
    Slot,
    name="slot",
    plural="slots",
    prefix="slt",
    create=False,
    filters=("provider_id", "department_id", "visit_type", "status"),
    delete=False,
    transitions={
        "block": Transition(
            "status", ("open",), "blocked", "block the slot", description="Take an open slot out of booking."
        ),
        "unblock": Transition("status", ("blocked",), "open", "reopen the slot", description="Reopen a blocked slot."),
    },
    title="appointment slot",
)
appointments = service.resource(
    Appointment,
    name="appointment",
    plural="appointments",
    prefix="apt",
    create=False,
    filters=("patient_id", "provider_id", "department_id", "status", "visit_type"),
    delete=False,
)
encounters = service.resource(
    Encounter,
    name="encounter",
    plural="encounters",
    prefix="enc",
    create=False,
    filters=("patient_id", "provider_id", "appointment_id", "status"),
    delete=False,
)


# -- helpers ---------------------------------------------------------------------------------------


def _minor(currency: str) -> int:
    return 1 if currency == "JPY" else 100


def _local_date(dep: Department, when: dt.datetime) -> dt.date:
    return when.astimezone(ZoneInfo(dep.timezone)).date()


def _can_check_in(ctx: Ctx, appt: Appointment) -> bool:
    """Whether the appointment is today where its clinic is, and not over yet."""
    dep = ctx.get(Department, appt.department_id)
    return _local_date(dep, appt.start) == _local_date(dep, ctx.now()) and appt.end > ctx.now()


def _seen(ctx: Ctx, patient_id: str, provider_id: str) -> bool:
    return any(a.status == "completed" for a in ctx.where(Appointment, patient_id=patient_id, provider_id=provider_id))


def _check_bookable(ctx: Ctx, slot: Slot, patient: Patient, ignore: str | None = None) -> None:
    if slot.status == "booked":
        raise Conflict(
            f"slot {slot.id} is already booked", field="slot_id", hint="find another with clinic__find_open_slots"
        )
    if slot.status != "open":
        raise RuleViolation(
            f"slot {slot.id} is blocked", field="slot_id", hint="find an open slot with clinic__find_open_slots"
        )
    if slot.start <= ctx.now():
        raise RuleViolation("the slot has already started", field="slot_id", hint="pick a future slot")
    provider = ctx.get(Provider, slot.provider_id)
    seen = _seen(ctx, patient.id, provider.id)
    if slot.visit_type == "new_patient":
        if seen:
            raise RuleViolation(
                f"{patient.first_name} {patient.last_name} is an established patient of {provider.name}",
                field="slot_id",
                hint="book a follow_up slot instead",
            )
        if not provider.accepting_new_patients:
            raise RuleViolation(
                f"{provider.name} is not accepting new patients",
                field="slot_id",
                hint="pick a provider who accepts new patients",
            )
    if slot.visit_type == "follow_up" and not seen:
        raise RuleViolation(
            f"{provider.name} has not seen {patient.first_name} {patient.last_name} yet",
            field="slot_id",
            hint="book a new_patient slot first",
        )
    for other in ctx.where(Appointment, patient_id=patient.id):
        if other.id != ignore and other.status in HELD and other.start < slot.end and slot.start < other.end:
            raise Conflict(
                f"the patient already has appointment {other.id} at {other.start.isoformat()}",
                field="slot_id",
                hint="pick a slot that does not overlap, or reschedule that appointment",
            )


def _copay(patient: Patient, visit_type: str, currency: str) -> int:
    major = COPAY_MAJOR if patient.insurance_payer else SELF_PAY_MAJOR[visit_type]
    return major * _minor(currency)


def _link(appointment_id: str) -> str:
    return f"https://visit.carewell.health/room/{appointment_id}"


def _appointment(ctx: Ctx, appointment_id: str, statuses: tuple[str, ...], action: str) -> Appointment:
    appt = ctx.get(Appointment, appointment_id, field="appointment_id")
    if appt.status not in statuses:
        raise RuleViolation(
            f"appointment {appt.id} is {appt.status}; only {' or '.join(statuses)} appointments can be {action}",
            field="appointment_id",
            hint="look the appointment up with clinic__get_appointment",
        )
    return appt


# -- examples ----------------------------------------------------------------------------------------


def _bookable_pair(ctx: Ctx) -> tuple[Slot, Patient] | None:
    for slot in ctx.where(Slot, status="open", visit_type="new_patient"):
        if slot.start <= ctx.now() or not ctx.get(Provider, slot.provider_id).accepting_new_patients:
            continue
        for patient in ctx.scan(Patient):
            try:
                _check_bookable(ctx, slot, patient)
            except (Conflict, RuleViolation):
                continue
            return slot, patient
    return None


def _example_book(ctx: Ctx) -> dict[str, Any] | None:
    pair = _bookable_pair(ctx)
    return None if pair is None else {"slot_id": pair[0].id, "patient_id": pair[1].id, "reason": "Check-up"}


def _example_reschedule(ctx: Ctx) -> dict[str, Any] | None:
    for appt in ctx.where(Appointment, status="booked"):
        if appt.start <= ctx.now():
            continue
        patient = ctx.get(Patient, appt.patient_id)
        for slot in ctx.where(Slot, status="open", visit_type=appt.visit_type):
            try:
                _check_bookable(ctx, slot, patient, ignore=appt.id)
            except (Conflict, RuleViolation):
                continue
            return {"appointment_id": appt.id, "slot_id": slot.id}
    return None


def _example_slots(ctx: Ctx) -> dict[str, Any] | None:
    provider = ctx.first(Provider)
    if provider is None:
        return None
    day = ctx.today() + dt.timedelta(days=28)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    return {"provider_id": provider.id, "date": day.isoformat(), "start_time": "08:00", "count": 3}


# -- domain tools -------------------------------------------------------------------------------------


@service.tool(intent="open appointment slots for the provider", write=True, example=_example_slots)
def create_slots(
    ctx: Ctx,
    provider_id: ProviderId,
    date: Date,
    start_time: LocalTime,
    count: Annotated[int, Field(ge=1, le=16)] = 1,
    duration_minutes: Annotated[int, Field(ge=10, le=120)] = 30,
    visit_type: VisitType = "follow_up",
) -> list[Slot]:
    """Open consecutive slots for a provider on a working day, in the clinic's local time.

    Slots must lie within clinic hours (07:00-19:00 local), on a weekday, not in the past,
    and must not overlap the provider's other open or booked slots.

    Args:
        provider_id: The provider.
        date: The local date.
        start_time: Local start of the first slot (HH:MM).
        count: Number of consecutive slots (1 to 16).
        duration_minutes: Length of each slot.
        visit_type: Visit type the slots are for.
    """
    provider = ctx.get(Provider, provider_id, field="provider_id")
    dep = ctx.get(Department, provider.department_id)
    if date.weekday() >= 5:
        raise RuleViolation("the clinic is closed at weekends", field="date", hint="pick a weekday")
    hour, minute = (int(x) for x in start_time.split(":"))
    zone = ZoneInfo(dep.timezone)
    first = dt.datetime(date.year, date.month, date.day, hour, minute, tzinfo=zone)
    last_end = first + dt.timedelta(minutes=duration_minutes * count)
    close = dt.datetime(date.year, date.month, date.day, CLOSE_HOUR, 0, tzinfo=zone)
    if hour < OPEN_HOUR or last_end > close:
        raise RuleViolation(
            f"slots must lie within clinic hours {OPEN_HOUR:02d}:00-{CLOSE_HOUR:02d}:00 local",
            field="start_time",
            hint="start later or open fewer slots",
        )
    start_utc = first.astimezone(dt.UTC)
    if start_utc <= ctx.now():
        raise RuleViolation("slots cannot start in the past", field="date", hint="pick a later date or time")
    end_utc = last_end.astimezone(dt.UTC)
    for other in ctx.where(Slot, provider_id=provider.id):
        if other.status != "blocked" and other.start < end_utc and start_utc < other.end:
            raise Conflict(
                f"the provider already has slot {other.id} at {other.start.isoformat()}",
                field="start_time",
                hint="pick a time the provider is free",
            )
    made: list[Slot] = []
    for k in range(count):
        s0 = start_utc + dt.timedelta(minutes=duration_minutes * k)
        made.append(
            ctx.create(
                Slot,
                provider_id=provider.id,
                department_id=dep.id,
                start=s0,
                end=s0 + dt.timedelta(minutes=duration_minutes),
                visit_type=visit_type,
            )
        )
    return made


class OpenSlot(BaseModel):
    """An open slot with its provider and clinic."""

    slot_id: SlotId = Field(description="The slot.")
    start: DateTime = Field(description="Start (UTC).")
    end: DateTime = Field(description="End (UTC).")
    local_start: str = Field(description="Start in the clinic's local time (YYYY-MM-DDTHH:MM).")
    visit_type: VisitType = Field(description="Visit type.")
    provider_id: ProviderId = Field(description="The provider.")
    provider_name: PersonName = Field(description="The provider's name.")
    specialty: Specialty = Field(description="The provider's specialty.")
    department_id: DepartmentId = Field(description="The clinic.")
    department_name: Title = Field(description="The clinic's name.")


@service.tool(intent="find open appointment slots")
def find_open_slots(
    ctx: Ctx,
    provider_id: ProviderId | None = None,
    specialty: Specialty | None = None,
    visit_type: VisitType | None = None,
    department_id: DepartmentId | None = None,
    start_date: Date | None = None,
    days: Annotated[int, Field(ge=1, le=31)] = 14,
    limit: Annotated[int, Field(ge=1, le=50)] = 20,
) -> list[OpenSlot]:
    """Find future open slots, earliest first, optionally for a provider, specialty, visit type or clinic.

    Args:
        provider_id: Only this provider.
        specialty: Only providers of this specialty.
        visit_type: Only this visit type.
        department_id: Only this clinic.
        start_date: First date to search (UTC); omit for today.
        days: Number of days to search.
        limit: Most slots to return.
    """
    lo = utc_at(start_date or ctx.today())
    lo = max(lo, ctx.now())
    hi = lo + dt.timedelta(days=days)
    found: list[OpenSlot] = []
    for slot in sorted(ctx.where(Slot, status="open"), key=lambda s: (s.start, s.id)):
        if not lo < slot.start <= hi:
            continue
        if provider_id and slot.provider_id != provider_id:
            continue
        if visit_type and slot.visit_type != visit_type:
            continue
        if department_id and slot.department_id != department_id:
            continue
        prov = ctx.get(Provider, slot.provider_id)
        if specialty and prov.specialty != specialty:
            continue
        dep = ctx.get(Department, slot.department_id)
        found.append(
            OpenSlot(
                slot_id=slot.id,
                start=slot.start,
                end=slot.end,
                local_start=slot.start.astimezone(ZoneInfo(dep.timezone)).strftime("%Y-%m-%dT%H:%M"),
                visit_type=slot.visit_type,
                provider_id=prov.id,
                provider_name=prov.name,
                specialty=prov.specialty,
                department_id=dep.id,
                department_name=dep.name,
            )
        )
        if len(found) == limit:
            break
    return found


@service.tool(intent="book the appointment", write=True, example=_example_book)
def book_appointment(ctx: Ctx, slot_id: SlotId, patient_id: PatientId, reason: Text = "") -> Appointment:
    """Book an open slot for a patient.

    New-patient slots are for patients the provider has not seen (and only with providers
    accepting new patients), follow-up slots for patients they have; a patient cannot hold
    two overlapping appointments. Telehealth visits get a video link.

    Args:
        slot_id: The open slot.
        patient_id: The patient.
        reason: Reason for the visit.
    """
    slot = ctx.get(Slot, slot_id, field="slot_id")
    patient = ctx.get(Patient, patient_id, field="patient_id")
    _check_bookable(ctx, slot, patient)
    dep = ctx.get(Department, slot.department_id)
    ctx.update(slot, status="booked")
    appt = ctx.create(
        Appointment,
        slot_id=slot.id,
        patient_id=patient.id,
        provider_id=slot.provider_id,
        department_id=dep.id,
        start=slot.start,
        end=slot.end,
        visit_type=slot.visit_type,
        reason=reason,
        copay=_copay(patient, slot.visit_type, dep.currency),
        currency=dep.currency,
    )
    if slot.visit_type == "telehealth":
        appt = ctx.update(appt, meeting_link=_link(appt.id))
    return appt


@service.tool(intent="move the appointment to another slot", write=True, example=_example_reschedule)
def reschedule_appointment(ctx: Ctx, appointment_id: AppointmentId, slot_id: SlotId) -> Appointment:
    """Move a booked appointment to another open slot of the same visit type; the old slot reopens.

    Args:
        appointment_id: The booked appointment.
        slot_id: The new open slot.
    """
    appt = _appointment(ctx, appointment_id, ("booked",), "rescheduled")
    slot = ctx.get(Slot, slot_id, field="slot_id")
    if slot.visit_type != appt.visit_type:
        raise RuleViolation(
            f"the slot is for {slot.visit_type} visits, the appointment is a {appt.visit_type} visit",
            field="slot_id",
            hint=f"pick a {appt.visit_type} slot",
        )
    patient = ctx.get(Patient, appt.patient_id)
    _check_bookable(ctx, slot, patient, ignore=appt.id)
    old = ctx.get(Slot, appt.slot_id)
    if old.start > ctx.now():
        ctx.update(old, status="open")
    ctx.update(slot, status="booked")
    return ctx.update(
        appt,
        slot_id=slot.id,
        provider_id=slot.provider_id,
        department_id=slot.department_id,
        start=slot.start,
        end=slot.end,
    )


@service.tool(
    intent="cancel the appointment",
    write=True,
    destructive=True,
    example=first_example(Appointment, "appointment_id", where={"status": "booked"}, reason="Feeling better"),
)
def cancel_appointment(ctx: Ctx, appointment_id: AppointmentId, reason: Text) -> Appointment:
    """Cancel a booked appointment; its slot reopens.

    Cancelling less than 24 hours before the start is a late cancellation that carries a fee.

    Args:
        appointment_id: The booked appointment.
        reason: Why it is cancelled.
    """
    appt = _appointment(ctx, appointment_id, ("booked",), "cancelled")
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why the visit is cancelled")
    now = ctx.now()
    late = appt.start - now < LATE_CANCEL
    slot = ctx.get(Slot, appt.slot_id)
    if slot.start > now:
        ctx.update(slot, status="open")
    return ctx.update(
        appt,
        status="cancelled",
        cancel_reason=reason.strip(),
        late_cancel_fee=LATE_FEE_MAJOR * _minor(appt.currency) if late else None,
    )


@service.tool(
    intent="check the patient in",
    write=True,
    example=first_example(Appointment, "appointment_id", where={"status": "booked"}, match=_can_check_in),
)
def check_in_appointment(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Check a patient in for a booked appointment, on the day of the visit (clinic local date) before it ends.

    Args:
        appointment_id: The booked appointment.
    """
    appt = _appointment(ctx, appointment_id, ("booked",), "checked in")
    dep = ctx.get(Department, appt.department_id)
    today = _local_date(dep, ctx.now())
    if _local_date(dep, appt.start) != today or appt.end <= ctx.now():
        raise RuleViolation(
            f"the appointment is on {_local_date(dep, appt.start)}; check-in is only possible on the day",
            field="appointment_id",
            hint="check the patient in on the day of the visit, before it ends",
        )
    return ctx.update(appt, status="checked_in", checked_in_at=ctx.now())


@service.tool(
    intent="mark the patient as a no-show",
    write=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "booked"}, match=lambda ctx, a: a.end < ctx.now()
    ),
)
def mark_no_show(ctx: Ctx, appointment_id: AppointmentId) -> Appointment:
    """Mark a booked appointment whose time has passed without check-in as a no-show.

    Args:
        appointment_id: The booked appointment.
    """
    appt = _appointment(ctx, appointment_id, ("booked",), "marked no-show")
    if appt.end > ctx.now():
        raise RuleViolation(
            "the appointment has not ended yet", field="appointment_id", hint="wait until the visit time is over"
        )
    return ctx.update(appt, status="no_show")


@service.tool(
    intent="document the visit",
    write=True,
    idempotent=True,
    example=first_example(
        Appointment, "appointment_id", where={"status": "checked_in"}, diagnosis_codes=["J06.9"], notes="Rest."
    ),
)
def document_encounter(
    ctx: Ctx,
    appointment_id: AppointmentId,
    diagnosis_codes: Annotated[list[Icd10], Field(max_length=12)],
    notes: Text = "",
) -> Encounter:
    """Write the diagnoses and notes of a checked-in visit into its (open) encounter.

    Args:
        appointment_id: The checked-in appointment.
        diagnosis_codes: ICD-10 codes (e.g. J06.9); replaces the encounter's codes.
        notes: Clinical notes; replaces the encounter's notes.
    """
    appt = _appointment(ctx, appointment_id, ("checked_in",), "documented")
    enc = ctx.first(Encounter, appointment_id=appt.id)
    codes = list(dict.fromkeys(diagnosis_codes))
    if enc is None:
        dep = ctx.get(Department, appt.department_id)
        return ctx.create(
            Encounter,
            appointment_id=appt.id,
            patient_id=appt.patient_id,
            provider_id=appt.provider_id,
            date=_local_date(dep, appt.start),
            diagnosis_codes=codes,
            notes=notes,
        )
    if enc.status == "signed":  # pragma: no cover - signing completes the appointment
        raise RuleViolation("the encounter is signed", field="appointment_id", hint="signed encounters are final")
    return ctx.update(enc, diagnosis_codes=codes, notes=notes)


@service.tool(
    intent="sign the encounter",
    write=True,
    example=first_example(
        Encounter, "encounter_id", where={"status": "open"}, match=lambda ctx, enc: bool(enc.diagnosis_codes)
    ),
)
def sign_encounter(ctx: Ctx, encounter_id: EncounterId) -> Encounter:
    """Sign an open encounter: it becomes final and its appointment completed.

    An encounter needs at least one diagnosis code to be signed.

    Args:
        encounter_id: The open encounter.
    """
    enc = ctx.get(Encounter, encounter_id, field="encounter_id")
    if enc.status == "signed":
        raise RuleViolation(
            f"encounter {enc.id} is already signed", field="encounter_id", hint="signed encounters are final"
        )
    if not enc.diagnosis_codes:
        raise RuleViolation(
            "an encounter needs at least one diagnosis code to be signed",
            field="encounter_id",
            hint="add codes with clinic__document_encounter",
        )
    ctx.update(ctx.get(Appointment, enc.appointment_id), status="completed")
    return ctx.update(enc, status="signed", signed_at=ctx.now())


# -- seed ----------------------------------------------------------------------------------------------

PAYERS = ("Bluecrest Health Plan", "Unity Mutual Insurance", "Northgate Health Insurance")
REASONS = ("Persistent cough", "Annual check-up", "Skin rash", "Back pain", "Headaches", "Blood pressure review")
CODES = ("J06.9", "Z00.00", "L30.9", "M54.5", "R51.9", "I10")
SPECIALTIES: tuple[Specialty, ...] = (
    "family_medicine",
    "internal_medicine",
    "pediatrics",
    "dermatology",
    "family_medicine",
    "cardiology",
)


VISIT_TYPES: tuple[VisitType, ...] = (
    "new_patient",
    "follow_up",
    "follow_up",
    "annual_physical",
    "telehealth",
    "follow_up",
)
"""Visit types of a provider's slots through the day, in turn."""


def _seed_departments(s: SeedContext) -> list[Department]:
    """A clinic in each site's city: at a healthcare company's own address, else on its High Street."""
    deps: list[Department] = []
    for i, company in enumerate(clinic_sites(s.population)):
        place = company.place
        own = company.industry == "healthcare"
        deps.append(
            s.create(
                Department,
                name=f"Carewell Clinic {place.city}" + (f" ({company.name})" if own else ""),
                address=company.address
                if own
                else PostalAddress(
                    street=f"{12 + 9 * i} High Street",
                    city=place.city,
                    postal_code=f"{place.postal_prefix}{300 + i}",
                    country=place.country,
                ),
                phone=company.phone if own else f"{place.phone_prefix}{5550100 + i}",
                timezone=place.timezone,
                currency=place.currency,
            )
        )
    return deps


def _seed_patients(s: SeedContext) -> list[Patient]:
    """Consumers (but the providers) and ten employees as patients; every fifth pays for themselves."""
    pop = s.population
    provider_keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in list(pop.consumers)[:36] if p.key not in provider_keys] + list(pop.employees)[:10]
    pats: list[Patient] = []
    for i, p in enumerate(people):
        insured = i % 5 != 4
        pats.append(
            s.create(
                Patient,
                first_name=p.first_name,
                last_name=p.last_name,
                email=p.email,
                phone=p.phone,
                birth_date=p.birth_date,
                sex=("female", "male")[i % 2] if i % 17 else "other",
                address=p.address,
                insurance_payer=PAYERS[i % len(PAYERS)] if insured else None,
                member_id=f"MBR-{400000 + i * 131:06d}" if insured else None,
                created_at=s.ago(days=30 + 11 * i),
            )
        )
    return pats


@dataclass
class _Schedule:
    """The patients while the providers' slots are filled, in turn.

    Attributes:
        s: The seed context.
        patients: The patients, booked one after the other.
        booked: How many appointments are booked so far.
        history: Whether a (patient id, provider id) pair has had a completed visit.
        busy: The (patient id, start) pairs already booked.
    """

    s: SeedContext
    patients: list[Patient]
    booked: int = 0
    history: dict[tuple[str, str], bool] = field(default_factory=dict)
    busy: set[tuple[str, dt.datetime]] = field(default_factory=set)

    def slot(self, prov: Provider, dep: Department, pi: int, day: dt.date, n: int) -> None:
        """The provider's n-th slot of the day: past slots were all used, a third of the future ones are booked."""
        s = self.s
        hour, minute = 9 + n // 2 + (1 if n >= 4 else 0), 30 * (n % 2)
        start = local_time(day, hour, minute, dep.timezone)
        vtype = VISIT_TYPES[(n + pi) % len(VISIT_TYPES)]
        if vtype == "new_patient" and not prov.accepting_new_patients:
            vtype = "follow_up"
        past = start < s.now
        book = past or (n + pi + day.day) % 3 == 0
        patient = self.patients[self.booked % len(self.patients)] if book else None
        if patient is not None and (patient.id, start) in self.busy:
            patient = None
        if patient is not None:
            self.busy.add((patient.id, start))
            seen = self.history.get((patient.id, prov.id), False)
            if vtype == "new_patient" and seen:
                vtype = "follow_up"
            elif vtype == "follow_up" and not seen:
                vtype = "new_patient" if prov.accepting_new_patients else "annual_physical"
        slot = s.create(
            Slot,
            provider_id=prov.id,
            department_id=dep.id,
            start=start,
            end=start + dt.timedelta(minutes=30),
            visit_type=vtype,
            status="booked" if patient else ("blocked" if (n + day.day) % 11 == 0 else "open"),
        )
        if patient is not None:
            self.booked += 1
            self.appointment(slot, patient, prov, dep, past)

    def appointment(self, slot: Slot, patient: Patient, prov: Provider, dep: Department, past: bool) -> None:
        """The appointment in a booked slot, and the encounter of a completed (or some checked-in) visit."""
        s = self.s
        p_i = self.booked
        start = slot.start
        if past:
            status: AppointmentStatus = (
                "no_show"
                if p_i % 13 == 0
                else "cancelled"
                if p_i % 11 == 0
                else "booked"
                if p_i % 17 == 0
                else "completed"
            )
        elif _local_date(dep, start) == _local_date(dep, s.now) and p_i % 2 == 0:
            status = "checked_in"  # arrived early for a visit later today
        else:
            status = "booked"
        if status == "completed":
            self.history[(patient.id, prov.id)] = True
        appt = s.create(
            Appointment,
            slot_id=slot.id,
            patient_id=patient.id,
            provider_id=prov.id,
            department_id=dep.id,
            start=start,
            end=start + dt.timedelta(minutes=30),
            visit_type=slot.visit_type,
            reason=REASONS[p_i % len(REASONS)],
            status=status,
            copay=_copay(patient, slot.visit_type, dep.currency),
            currency=dep.currency,
            cancel_reason="Schedule conflict" if status == "cancelled" else None,
            checked_in_at={"completed": start - dt.timedelta(minutes=10), "checked_in": s.now}.get(status),
            updated_at=min(start, s.now),
        )
        if slot.visit_type == "telehealth":
            s.update(appt, meeting_link=_link(appt.id))
        if status == "completed" or (status == "checked_in" and p_i % 4 == 0):
            done = status == "completed"
            s.create(
                Encounter,
                appointment_id=appt.id,
                patient_id=patient.id,
                provider_id=prov.id,
                date=_local_date(dep, start),
                diagnosis_codes=[CODES[p_i % len(CODES)]],
                notes=f"Seen for {appt.reason.lower()}; plan discussed." if done else "Vitals taken.",
                status="signed" if done else "open",
                signed_at=start + dt.timedelta(minutes=40) if done else None,
            )


@service.seeder
def seed(s: SeedContext) -> None:
    """Clinics of the world's healthcare companies, their people as providers, consumers and staff as patients."""
    deps = _seed_departments(s)
    provs = [
        s.create(
            Provider,
            name=p.name,
            email=p.email,
            npi=provider_npi(i),
            specialty=SPECIALTIES[i],
            department_id=deps[site].id,
            accepting_new_patients=i != 3,
        )
        for i, (p, site) in enumerate(clinicians(s.population))
    ]
    schedule = _Schedule(s, _seed_patients(s))
    dep_by_id = {d.id: d for d in deps}
    today = s.now.date()
    monday = today - dt.timedelta(days=today.weekday())
    days = [monday + dt.timedelta(days=d) for d in (-7, -5, 0, 1, 2, 3, 7, 8)]
    for pi, prov in enumerate(provs):
        for day in days:
            for n in range(6):
                schedule.slot(prov, dep_by_id[prov.department_id], pi, day, n)
