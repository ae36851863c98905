"""Scriptline eRx: electronic prescriptions, pharmacies, fills, refills, transfers and renewals.

Modeled on the Surescripts e-prescribing network (NCPDP SCRIPT 2017071:
NewRx, RxFill, CancelRx, RxRenewalRequest/Response, RxTransfer) and the
pharmacy-side fill workflow of a retail pharmacy system: a prescription names a
prescriber, a patient, a medication from the formulary and the pharmacy it is
sent to; controlled substances need a prescriber with a DEA registration and a
pharmacy that dispenses them, schedule II allows no refills and III-V at most
five; a patient's recorded allergies and severe interactions with their other
active medications block a prescription unless the prescriber overrides them;
each fill after the first uses one authorised refill, never more than
authorised and not before 75% of the previous supply is used; an unclaimed fill
returned to stock gives its refill back; schedule II cannot be transferred;
a prescription with no refills left is renewed through a request the
prescriber approves or denies.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Phone,
    PostalAddress,
    Quantity,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "pharmacy",
    title="Scriptline eRx",
    category="healthcare",
    modeled_on="Surescripts e-prescribing network, NCPDP SCRIPT 2017071 (NewRx, RxFill, CancelRx, "
    "RxRenewalRequest/Response, RxTransfer) with a retail pharmacy fill workflow",
    description="Electronic prescribing and dispensing: prescribers send prescriptions for formulary "
    "medications to pharmacies, which fill and refill them within the authorised refills; prescriptions "
    "can be transferred, cancelled and renewed, with allergy and drug-interaction checks.",
)

PharmacyId = Annotated[str, IdOf("pharmacy.pharmacy")]
PrescriberId = Annotated[str, IdOf("pharmacy.prescriber")]
PatientId = Annotated[str, IdOf("pharmacy.patient")]
MedicationId = Annotated[str, IdOf("pharmacy.medication")]
PrescriptionId = Annotated[str, IdOf("pharmacy.prescription")]
FillId = Annotated[str, IdOf("pharmacy.fill")]
RenewalId = Annotated[str, IdOf("pharmacy.renewal_request")]
Npi = Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
Dea = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}[0-9]{7}$")]
Ncpdp = Annotated[str, StringConstraints(pattern=r"^[0-9]{7}$")]
Ndc = Annotated[str, StringConstraints(pattern=r"^[0-9]{5}-[0-9]{4}-[0-9]{2}$")]
RxNumber = Annotated[str, StringConstraints(pattern=r"^RX-[0-9]{7}$")]

Schedule = Literal["none", "II", "III", "IV", "V"]
Allergy = Literal["penicillin", "sulfa", "nsaid", "codeine", "statin"]
DrugClass = Literal[
    "penicillin",
    "macrolide",
    "sulfonamide",
    "statin",
    "ace_inhibitor",
    "biguanide",
    "nsaid",
    "anticoagulant",
    "ssri",
    "triptan",
    "opioid",
    "benzodiazepine",
    "hypnotic",
    "thyroid",
    "bronchodilator",
    "potassium",
]
RxStatus = Literal["active", "completed", "cancelled", "expired"]
FillStatus = Literal["queued", "ready", "picked_up", "returned_to_stock"]
RenewalStatus = Literal["pending", "approved", "denied"]

MAX_REFILLS: dict[str, int] = {"none": 11, "II": 0, "III": 5, "IV": 5, "V": 5}
VALID_DAYS: dict[str, int] = {"none": 365, "II": 90, "III": 180, "IV": 180, "V": 180}
EARLY_SHARE = 0.75
"""A refill is due once this share of the previous fill's supply is used."""
USD_RATE: dict[str, float] = {
    "USD": 1.0,
    "EUR": 0.92,
    "GBP": 0.79,
    "JPY": 150.0,
    "SEK": 10.5,
    "CAD": 1.36,
    "AUD": 1.52,
    "SGD": 1.34,
    "BRL": 5.0,
}
"""Local currency per US dollar, for pricing the formulary's dollar prices."""
SEVERE: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        ("anticoagulant", "nsaid"),
        ("opioid", "benzodiazepine"),
        ("opioid", "hypnotic"),
        ("statin", "macrolide"),
    )
)
MODERATE: frozenset[frozenset[str]] = frozenset(
    frozenset(pair)
    for pair in (
        ("ssri", "triptan"),
        ("ssri", "nsaid"),
        ("ace_inhibitor", "potassium"),
        ("ace_inhibitor", "nsaid"),
        ("anticoagulant", "macrolide"),
    )
)
ALLERGY_OF: dict[str, str] = {"penicillin": "penicillin", "sulfonamide": "sulfa", "nsaid": "nsaid", "statin": "statin"}


class Pharmacy(Record):
    """A pharmacy that receives and fills prescriptions."""

    id: PharmacyId
    name: Title
    """Store name."""
    ncpdp_id: Ncpdp
    """NCPDP provider id (7 digits); unique."""
    address: PostalAddress
    """Street address."""
    phone: Phone
    """Phone number."""
    currency: Currency
    """Currency of its prices."""
    dispenses_controlled: bool = True
    """Whether it stocks and dispenses controlled substances."""


class Prescriber(Record):
    """A clinician allowed to prescribe."""

    id: PrescriberId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    npi: Npi
    """National provider identifier; unique."""
    dea_number: Dea | None = None
    """DEA registration; needed to prescribe controlled substances."""


class Patient(Record):
    """A patient known to the network."""

    id: PatientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail; unique."""
    phone: Phone
    """Phone for pick-up notices."""
    birth_date: Date
    """Date of birth."""
    address: PostalAddress
    """Home address."""
    allergies: list[Allergy] = Field(default_factory=list, max_length=5)
    """Recorded drug allergies."""
    preferred_pharmacy_id: PharmacyId | None = None
    """Where prescriptions go by default."""


class Medication(Record):
    """A formulary medication."""

    id: MedicationId
    name: Title
    """Drug, strength and form."""
    ndc: Ndc
    """National drug code; unique."""
    drug_class: DrugClass
    """Therapeutic class (used for allergy and interaction checks)."""
    schedule: Schedule = "none"
    """DEA schedule: none, II, III, IV or V."""
    unit_price_usd: Cents
    """List price of one unit, in US cents."""


class Prescription(Record):
    """A prescription sent to a pharmacy."""

    id: PrescriptionId
    rx_number: Annotated[RxNumber, Generated("sequence", "RX-{n:07d}")]
    """Prescription number on the label."""
    patient_id: PatientId
    """The patient."""
    prescriber_id: PrescriberId
    """Who prescribed it."""
    medication_id: MedicationId
    """What is prescribed."""
    pharmacy_id: PharmacyId
    """The pharmacy that holds it."""
    sig: Text
    """Directions for use."""
    quantity: Quantity
    """Units per fill."""
    days_supply: Annotated[int, Field(ge=1, le=90)]
    """Days one fill lasts."""
    refills_authorized: Annotated[int, Field(ge=0, le=11)]
    """Refills allowed after the first fill."""
    refills_used: Annotated[int, Field(ge=0, le=11)] = 0
    """Refills dispensed so far."""
    substitution_allowed: bool = True
    """Whether a generic may be dispensed."""
    override_reason: Text | None = None
    """Why the prescriber overrode an allergy or interaction alert."""
    written_on: Date
    """Date written."""
    expires_on: Date
    """Last date it can be filled."""
    status: RxStatus = "active"
    """active, completed (no refills left), cancelled or expired."""
    cancel_reason: Text | None = None
    """Why the prescriber cancelled it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Fill(Record):
    """One dispensing of a prescription."""

    id: FillId
    prescription_id: PrescriptionId
    """The prescription."""
    pharmacy_id: PharmacyId
    """Where it was filled."""
    fill_number: Annotated[int, Field(ge=0, le=11)]
    """0 for the original fill, then 1, 2 … for refills."""
    quantity: Quantity
    """Units dispensed."""
    price: Cents
    """Price in minor units of the pharmacy's currency."""
    currency: Currency
    """Currency of the price."""
    filled_on: Date
    """Day it was filled."""
    status: FillStatus = "queued"
    """queued, ready (for pick-up), picked_up or returned_to_stock."""
    picked_up_at: DateTime | None = None
    """When the patient collected it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RenewalRequest(Record):
    """A pharmacy's request that the prescriber renew a prescription with no refills left."""

    id: RenewalId
    prescription_id: PrescriptionId
    """The exhausted prescription."""
    prescriber_id: PrescriberId
    """Who must answer."""
    status: RenewalStatus = "pending"
    """pending, approved or denied."""
    new_prescription_id: PrescriptionId | None = None
    """The renewed prescription, when approved."""
    note: Text | None = None
    """The prescriber's note."""
    created_at: Annotated[DateTime, CREATED]
    """When it was requested."""


def _guard_fill(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "returned_to_stock":
        # The unclaimed supply was never dispensed: give its refill back.
        rx = ctx.get(Prescription, new.prescription_id)
        used = rx.refills_used - 1 if new.fill_number > 0 else rx.refills_used
        ctx.update(rx, refills_used=used, status="active" if rx.status == "completed" else rx.status)


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    if new.birth_date > ctx.today():
        raise RuleViolation("a birth date cannot be in the future", field="birth_date", hint="check the date")


pharmacies = service.resource(
    Pharmacy,
    name="pharmacy",
    plural="pharmacies",
    prefix="phm",
    create=False,
    filters=("dispenses_controlled", "currency"),
    search=("name",),
    delete=False,
    unique=("ncpdp_id",),
)
prescribers = service.resource(
    Prescriber,
    name="prescriber",
    plural="prescribers",
    prefix="psc",
    create=False,
    filters=("email", "npi"),
    search=("name",),
    delete=False,
    unique=("email", "npi"),
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pt",
    create=("name", "email", "phone", "birth_date", "address", "allergies", "preferred_pharmacy_id"),
    filters=("email", "birth_date", "preferred_pharmacy_id"),
    search=("name", "email"),
    update=("phone", "address", "allergies", "preferred_pharmacy_id"),
    delete=False,
    unique=("email",),
    guard_create=_guard_patient,
)
medications = service.resource(
    Medication,
    name="medication",
    plural="medications",
    prefix="med",
    create=False,
    filters=("drug_class", "schedule", "ndc"),
    search=("name",),
    delete=False,
)
prescriptions = service.resource(
    Prescription,
    name="prescription",
    plural="prescriptions",
    prefix="rx",
    create=False,
    filters=("patient_id", "prescriber_id", "medication_id", "pharmacy_id", "status", "rx_number"),
    delete=False,
)
fills = service.resource(
    Fill,
    name="fill",
    plural="fills",
    prefix="fil",
    create=False,
    filters=("prescription_id", "pharmacy_id", "status"),
    delete=False,
    transitions={
        "mark_ready": Transition(
            "status", ("queued",), "ready", "mark the fill ready for pick-up", description="Mark a queued fill ready."
        ),
        "return_to_stock": Transition(
            "status",
            ("ready",),
            "returned_to_stock",
            "return the unclaimed fill to stock",
            description="Return a ready fill the patient did not collect; a refill's use is given back.",
            destructive=True,
        ),
    },
    guard_update=_guard_fill,
)
renewals = service.resource(
    RenewalRequest,
    name="renewal_request",
    plural="renewal_requests",
    prefix="ren",
    create=False,
    get=False,
    filters=("prescription_id", "prescriber_id", "status"),
    delete=False,
)


# -- helpers -------------------------------------------------------------------------------------------


def _price(med: Medication, quantity: int, currency: str) -> int:
    rate = USD_RATE.get(currency, 1.0)
    cents = med.unit_price_usd * quantity * rate
    return round(cents / 100) if currency == "JPY" else round(cents)


class Alert(BaseModel):
    """A safety alert for a medication and a patient."""

    kind: Literal["allergy", "interaction"] = Field(description="allergy or interaction.")
    severity: Literal["moderate", "severe"] = Field(description="How serious it is; severe alerts block prescribing.")
    with_prescription_id: PrescriptionId | None = Field(description="The interacting active prescription.")
    message: str = Field(description="What the problem is.")


def _alerts(ctx: Ctx, patient: Patient, med: Medication, ignore: str | None = None) -> list[Alert]:
    out: list[Alert] = []
    allergy = ALLERGY_OF.get(med.drug_class)
    if allergy is not None and allergy in patient.allergies:
        out.append(
            Alert(
                kind="allergy",
                severity="severe",
                with_prescription_id=None,
                message=f"{patient.name} is allergic to {allergy} ({med.name})",
            )
        )
    for rx in ctx.where(Prescription, patient_id=patient.id, status="active"):
        if rx.id == ignore:
            continue
        other = ctx.get(Medication, rx.medication_id)
        pair = frozenset((med.drug_class, other.drug_class))
        if pair in SEVERE or pair in MODERATE:
            out.append(
                Alert(
                    kind="interaction",
                    severity="severe" if pair in SEVERE else "moderate",
                    with_prescription_id=rx.id,
                    message=f"{med.name} interacts with {other.name} ({rx.rx_number})",
                )
            )
    return out


def _active_rx(ctx: Ctx, prescription_id: str, action: str) -> Prescription:
    rx = ctx.get(Prescription, prescription_id, field="prescription_id")
    if rx.status == "active" and rx.expires_on < ctx.today():
        raise RuleViolation(
            f"prescription {rx.rx_number} expired on {rx.expires_on}",
            field="prescription_id",
            hint="request a renewal from the prescriber with pharmacy__request_renewal",
        )
    if rx.status != "active":
        raise RuleViolation(
            f"prescription {rx.rx_number} is {rx.status}; only active prescriptions can be {action}",
            field="prescription_id",
            hint="list the patient's active prescriptions",
        )
    return rx


def _new_rx(ctx: Ctx, **fields: Any) -> Prescription:
    patient = ctx.get(Patient, fields["patient_id"], field="patient_id")
    prescriber = ctx.get(Prescriber, fields["prescriber_id"], field="prescriber_id")
    med = ctx.get(Medication, fields["medication_id"], field="medication_id")
    pharmacy = ctx.get(Pharmacy, fields["pharmacy_id"], field="pharmacy_id")
    if med.schedule != "none":
        if prescriber.dea_number is None:
            raise RuleViolation(
                f"{prescriber.name} has no DEA registration and cannot prescribe schedule {med.schedule} drugs",
                field="prescriber_id",
                hint="a prescriber with a DEA number must send it",
            )
        if not pharmacy.dispenses_controlled:
            raise RuleViolation(
                f"{pharmacy.name} does not dispense controlled substances",
                field="pharmacy_id",
                hint="send it to a pharmacy that dispenses controlled substances",
            )
    most = MAX_REFILLS[med.schedule]
    if fields["refills_authorized"] > most:
        raise RuleViolation(
            f"schedule {med.schedule} allows at most {most} refills",
            field="refills",
            hint=f"authorise {most} refills or fewer",
        )
    severe = [a for a in _alerts(ctx, patient, med) if a.severity == "severe"]
    if severe and not (fields.get("override_reason") or "").strip():
        raise RuleViolation(
            f"safety alert: {severe[0].message}",
            field="medication_id",
            hint="choose another medication, or give an override_reason (see pharmacy__check_interactions)",
        )
    return ctx.create(
        Prescription,
        expires_on=fields["written_on"] + dt.timedelta(days=VALID_DAYS[med.schedule]),
        **fields,
    )


# -- examples -------------------------------------------------------------------------------------------


def _example_send(ctx: Ctx) -> dict[str, Any] | None:
    med = ctx.first(Medication, drug_class="thyroid")
    patient = ctx.first(Patient)
    prescriber = ctx.first(Prescriber)
    pharmacy = ctx.first(Pharmacy)
    if not (med and patient and prescriber and pharmacy):
        return None
    return {
        "patient_id": patient.id,
        "prescriber_id": prescriber.id,
        "medication_id": med.id,
        "pharmacy_id": pharmacy.id,
        "sig": "Take one tablet by mouth every morning",
        "quantity": 30,
        "days_supply": 30,
        "refills": 5,
    }


def _example_check(ctx: Ctx) -> dict[str, Any] | None:
    med, patient = ctx.first(Medication), ctx.first(Patient)
    return None if not (med and patient) else {"patient_id": patient.id, "medication_id": med.id}


def _refill_due(ctx: Ctx, rx: Prescription) -> bool:
    done = [f for f in ctx.where(Fill, prescription_id=rx.id) if f.status != "returned_to_stock"]
    if any(f.status in ("queued", "ready") for f in done) or rx.expires_on < ctx.today():
        return False
    if not done:
        return True
    last = max(done, key=lambda f: f.filled_on)
    due = last.filled_on + dt.timedelta(days=int(rx.days_supply * EARLY_SHARE))
    return rx.refills_used < rx.refills_authorized and due <= ctx.today()


def _example_transfer(ctx: Ctx) -> dict[str, Any] | None:
    for rx in ctx.where(Prescription, status="active"):
        med = ctx.get(Medication, rx.medication_id)
        busy = any(f.status in ("queued", "ready") for f in ctx.where(Fill, prescription_id=rx.id))
        if med.schedule == "none" and not busy and rx.expires_on >= ctx.today():
            other = next((p for p in ctx.scan(Pharmacy) if p.id != rx.pharmacy_id), None)
            if other is not None:
                return {"prescription_id": rx.id, "to_pharmacy_id": other.id}
    return None


# -- domain tools ---------------------------------------------------------------------------------------


@service.tool(intent="check the medication for allergies and interactions", example=_example_check)
def check_interactions(ctx: Ctx, patient_id: PatientId, medication_id: MedicationId) -> list[Alert]:
    """Check a medication against a patient's allergies and active prescriptions before prescribing.

    Args:
        patient_id: The patient.
        medication_id: The medication to prescribe.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    return _alerts(ctx, patient, ctx.get(Medication, medication_id, field="medication_id"))


@service.tool(intent="send the prescription to the pharmacy", write=True, example=_example_send)
def send_prescription(
    ctx: Ctx,
    patient_id: PatientId,
    prescriber_id: PrescriberId,
    medication_id: MedicationId,
    sig: Text,
    quantity: Annotated[int, Field(ge=1, le=1000)],
    days_supply: Annotated[int, Field(ge=1, le=90)],
    refills: Annotated[int, Field(ge=0, le=11)] = 0,
    pharmacy_id: PharmacyId | None = None,
    substitution_allowed: bool = True,
    override_reason: Text | None = None,
) -> Prescription:
    """Send a new prescription (NewRx) to a pharmacy; it is filled with pharmacy__fill_prescription.

    Controlled substances need a prescriber with a DEA number and a pharmacy that dispenses them;
    schedule II allows no refills, III-V at most 5, others at most 11. An allergy or a severe
    interaction with the patient's active prescriptions blocks it unless an override reason is given.

    Args:
        patient_id: The patient.
        prescriber_id: The prescriber.
        medication_id: The formulary medication.
        sig: Directions for use.
        quantity: Units per fill.
        days_supply: Days one fill lasts (1 to 90).
        refills: Refills authorised after the first fill.
        pharmacy_id: Target pharmacy; omit for the patient's preferred pharmacy.
        substitution_allowed: Whether a generic may be dispensed.
        override_reason: Why a safety alert is overridden.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    target = pharmacy_id or patient.preferred_pharmacy_id
    if target is None:
        raise RuleViolation(
            f"{patient.name} has no preferred pharmacy", field="pharmacy_id", hint="name the pharmacy to send it to"
        )
    if not sig.strip():
        raise RuleViolation("a prescription needs directions", field="sig", hint="say how to take it")
    return _new_rx(
        ctx,
        patient_id=patient.id,
        prescriber_id=prescriber_id,
        medication_id=medication_id,
        pharmacy_id=target,
        sig=sig.strip(),
        quantity=quantity,
        days_supply=days_supply,
        refills_authorized=refills,
        substitution_allowed=substitution_allowed,
        override_reason=override_reason,
        written_on=ctx.today(),
    )


@service.tool(
    intent="fill the prescription",
    write=True,
    example=first_example(Prescription, "prescription_id", where={"status": "active"}, match=_refill_due),
)
def fill_prescription(ctx: Ctx, prescription_id: PrescriptionId) -> Fill:
    """Dispense the original fill or the next refill of an active prescription at its pharmacy.

    A refill uses one authorised refill and is not due before 75% of the previous fill's
    supply is used; a prescription with a fill waiting for pick-up is not filled again.

    Args:
        prescription_id: The prescription.
    """
    rx = _active_rx(ctx, prescription_id, "filled")
    done = [f for f in ctx.where(Fill, prescription_id=rx.id) if f.status != "returned_to_stock"]
    waiting = [f for f in done if f.status in ("queued", "ready")]
    if waiting:
        raise Conflict(
            f"fill {waiting[0].id} of {rx.rx_number} is still {waiting[0].status}",
            field="prescription_id",
            hint="have the patient pick it up first",
        )
    refill = bool(done)
    if refill:
        if rx.refills_used >= rx.refills_authorized:
            raise RuleViolation(  # pragma: no cover - such prescriptions are completed
                f"no refills left on {rx.rx_number}", field="prescription_id", hint="request a renewal"
            )
        last = max(done, key=lambda f: f.filled_on)
        due = last.filled_on + dt.timedelta(days=int(rx.days_supply * EARLY_SHARE))
        if due > ctx.today():
            raise RuleViolation(
                f"refill too soon: {rx.rx_number} was last filled on {last.filled_on}; next due {due}",
                field="prescription_id",
                hint=f"fill it on or after {due}",
            )
    med = ctx.get(Medication, rx.medication_id)
    pharmacy = ctx.get(Pharmacy, rx.pharmacy_id)
    used = rx.refills_used + (1 if refill else 0)
    fill = ctx.create(
        Fill,
        prescription_id=rx.id,
        pharmacy_id=pharmacy.id,
        fill_number=used if refill else 0,
        quantity=rx.quantity,
        price=_price(med, rx.quantity, pharmacy.currency),
        currency=pharmacy.currency,
        filled_on=ctx.today(),
    )
    ctx.update(rx, refills_used=used, status="completed" if used >= rx.refills_authorized else "active")
    return fill


@service.tool(
    intent="hand the prescription to the patient",
    write=True,
    example=first_example(Fill, "fill_id", where={"status": "ready"}),
)
def pick_up_fill(ctx: Ctx, fill_id: FillId) -> Fill:
    """Record that the patient collected a ready fill.

    Args:
        fill_id: The ready fill.
    """
    fill = ctx.get(Fill, fill_id, field="fill_id")
    if fill.status != "ready":
        raise RuleViolation(
            f"fill {fill.id} is {fill.status}; only a ready fill can be picked up",
            field="fill_id",
            hint="mark a queued fill ready with pharmacy__mark_ready_fill first",
        )
    return ctx.update(fill, status="picked_up", picked_up_at=ctx.now())


@service.tool(intent="transfer the prescription to another pharmacy", write=True, example=_example_transfer)
def transfer_prescription(ctx: Ctx, prescription_id: PrescriptionId, to_pharmacy_id: PharmacyId) -> Prescription:
    """Move an active prescription and its remaining refills to another pharmacy (RxTransfer).

    Schedule II prescriptions cannot be transferred, nor can one with a fill waiting for pick-up.

    Args:
        prescription_id: The prescription.
        to_pharmacy_id: The receiving pharmacy.
    """
    rx = _active_rx(ctx, prescription_id, "transferred")
    target = ctx.get(Pharmacy, to_pharmacy_id, field="to_pharmacy_id")
    if target.id == rx.pharmacy_id:
        raise RuleViolation(
            "the prescription is already at that pharmacy", field="to_pharmacy_id", hint="pick another pharmacy"
        )
    med = ctx.get(Medication, rx.medication_id)
    if med.schedule == "II":
        raise RuleViolation(
            f"schedule II prescriptions ({med.name}) cannot be transferred",
            field="prescription_id",
            hint="the prescriber must send a new prescription to the other pharmacy",
        )
    if med.schedule != "none" and not target.dispenses_controlled:
        raise RuleViolation(
            f"{target.name} does not dispense controlled substances",
            field="to_pharmacy_id",
            hint="pick a pharmacy that dispenses controlled substances",
        )
    if any(f.status in ("queued", "ready") for f in ctx.where(Fill, prescription_id=rx.id)):
        raise Conflict(
            f"{rx.rx_number} has a fill waiting for pick-up",
            field="prescription_id",
            hint="have it picked up or returned to stock first",
        )
    return ctx.update(rx, pharmacy_id=target.id)


@service.tool(
    intent="cancel the prescription",
    write=True,
    destructive=True,
    example=first_example(Prescription, "prescription_id", where={"status": "active"}, reason="Therapy changed"),
)
def cancel_prescription(ctx: Ctx, prescription_id: PrescriptionId, reason: Text) -> Prescription:
    """Cancel an active prescription (CancelRx); fills not yet picked up are returned to stock.

    Args:
        prescription_id: The prescription.
        reason: Why it is cancelled.
    """
    rx = ctx.get(Prescription, prescription_id, field="prescription_id")
    if rx.status != "active":
        raise RuleViolation(
            f"prescription {rx.rx_number} is {rx.status}",
            field="prescription_id",
            hint="only active prescriptions can be cancelled",
        )
    if not reason.strip():
        raise RuleViolation("a cancellation needs a reason", field="reason", hint="say why it is cancelled")
    for fill in ctx.where(Fill, prescription_id=rx.id):
        if fill.status in ("queued", "ready"):
            ctx.update(fill, status="returned_to_stock")
    return ctx.update(rx, status="cancelled", cancel_reason=reason.strip())


@service.tool(
    intent="ask the prescriber to renew the prescription",
    write=True,
    example=first_example(
        Prescription,
        "prescription_id",
        where={"status": "completed"},
        match=lambda ctx, rx: ctx.first(RenewalRequest, prescription_id=rx.id, status="pending") is None,
    ),
)
def request_renewal(ctx: Ctx, prescription_id: PrescriptionId) -> RenewalRequest:
    """Ask the prescriber to renew a prescription that has no refills left or has expired (RxRenewalRequest).

    Args:
        prescription_id: The completed or expired prescription.
    """
    rx = ctx.get(Prescription, prescription_id, field="prescription_id")
    lapsed = rx.status == "active" and rx.expires_on < ctx.today()
    if rx.status not in ("completed", "expired") and not lapsed:
        left = rx.refills_authorized - rx.refills_used
        raise RuleViolation(
            f"prescription {rx.rx_number} is {rx.status} with {left} refill(s) left",
            field="prescription_id",
            hint="fill the remaining refills; renewals are for used-up or expired prescriptions",
        )
    if ctx.first(RenewalRequest, prescription_id=rx.id, status="pending") is not None:
        raise Conflict(
            f"a renewal of {rx.rx_number} is already pending",
            field="prescription_id",
            hint="wait for the prescriber's answer",
        )
    return ctx.create(RenewalRequest, prescription_id=rx.id, prescriber_id=rx.prescriber_id)


@service.tool(
    intent="answer the renewal request",
    write=True,
    example=first_example(RenewalRequest, "renewal_request_id", where={"status": "pending"}, approve=True, refills=2),
)
def respond_to_renewal(
    ctx: Ctx,
    renewal_request_id: RenewalId,
    approve: bool,
    refills: Annotated[int, Field(ge=0, le=11)] = 0,
    note: Text | None = None,
) -> RenewalRequest:
    """The prescriber's answer to a renewal request: approving sends a new prescription to the same pharmacy.

    Args:
        renewal_request_id: The pending request.
        approve: True to renew, False to deny.
        refills: Refills on the renewed prescription.
        note: A note to the pharmacy (a denial needs one).
    """
    req = ctx.get(RenewalRequest, renewal_request_id, field="renewal_request_id")
    if req.status != "pending":
        raise RuleViolation(
            f"renewal request {req.id} was already {req.status}",
            field="renewal_request_id",
            hint="list pending renewal requests",
        )
    if not approve:
        if not (note or "").strip():
            raise RuleViolation("a denial needs a note", field="note", hint="tell the pharmacy why")
        return ctx.update(req, status="denied", note=note)
    old = ctx.get(Prescription, req.prescription_id)
    new = _new_rx(
        ctx,
        patient_id=old.patient_id,
        prescriber_id=old.prescriber_id,
        medication_id=old.medication_id,
        pharmacy_id=old.pharmacy_id,
        sig=old.sig,
        quantity=old.quantity,
        days_supply=old.days_supply,
        refills_authorized=refills,
        substitution_allowed=old.substitution_allowed,
        override_reason=old.override_reason,
        written_on=ctx.today(),
    )
    if old.status == "active":
        ctx.update(old, status="expired")
    return ctx.update(req, status="approved", new_prescription_id=new.id, note=note)


# -- seed ------------------------------------------------------------------------------------------------

FORMULARY: tuple[tuple[str, DrugClass, Schedule, int], ...] = (
    ("Amoxicillin 500 mg capsule", "penicillin", "none", 45),
    ("Azithromycin 250 mg tablet", "macrolide", "none", 180),
    ("Sulfamethoxazole-Trimethoprim 800-160 mg tablet", "sulfonamide", "none", 40),
    ("Atorvastatin 20 mg tablet", "statin", "none", 35),
    ("Lisinopril 10 mg tablet", "ace_inhibitor", "none", 20),
    ("Metformin 500 mg tablet", "biguanide", "none", 15),
    ("Ibuprofen 600 mg tablet", "nsaid", "none", 12),
    ("Naproxen 500 mg tablet", "nsaid", "none", 18),
    ("Warfarin 5 mg tablet", "anticoagulant", "none", 25),
    ("Sertraline 50 mg tablet", "ssri", "none", 30),
    ("Sumatriptan 50 mg tablet", "triptan", "none", 150),
    ("Oxycodone 5 mg tablet", "opioid", "II", 60),
    ("Hydrocodone-Acetaminophen 5-325 mg tablet", "opioid", "II", 55),
    ("Alprazolam 0.5 mg tablet", "benzodiazepine", "IV", 22),
    ("Zolpidem 10 mg tablet", "hypnotic", "IV", 40),
    ("Levothyroxine 50 mcg tablet", "thyroid", "none", 18),
    ("Albuterol 90 mcg inhaler", "bronchodilator", "none", 3500),
    ("Potassium Chloride 20 mEq tablet", "potassium", "none", 28),
)
SIGS: dict[str, str] = {
    "penicillin": "Take one capsule by mouth three times daily until finished",
    "macrolide": "Take two tablets on day one, then one tablet daily",
    "bronchodilator": "Inhale two puffs every four to six hours as needed",
}


def _seed_pharmacies(s: SeedContext) -> list[Pharmacy]:
    """Pharmacies of four retailers (food and retail first); one does not dispense controlled substances."""
    pop = s.population
    shops = [c for c in pop.customers if c.industry in ("retail", "food")]
    retailers = (shops + [c for c in pop.customers if c not in shops])[:4]
    pharms: list[Pharmacy] = []
    for i, company in enumerate(retailers):
        place = company.place
        own = company in shops
        pharms.append(
            s.create(
                Pharmacy,
                name=f"{company.name} Pharmacy" if own else f"Scriptline Pharmacy {place.city}",
                ncpdp_id=f"{1400000 + i * 3571:07d}",
                address=company.address
                if own
                else PostalAddress(
                    street=f"{3 + 11 * i} Market Square",
                    city=place.city,
                    postal_code=f"{place.postal_prefix}{200 + i}",
                    country=place.country,
                ),
                phone=company.phone if own else f"{place.phone_prefix}{5550200 + i}",
                currency=place.currency,
                dispenses_controlled=i != 1,
            )
        )
    return pharms


def _seed_patients(s: SeedContext, pharms: list[Pharmacy]) -> list[Patient]:
    """Consumers (but the prescribers) and six employees, each preferring a pharmacy in their country."""
    pop = s.population
    prescriber_keys = {p.key for p, _ in clinicians(pop)}
    people = [p for p in list(pop.consumers)[:30] if p.key not in prescriber_keys] + list(pop.employees)[:6]
    allergies: tuple[list[Allergy], ...] = ([], ["penicillin"], [], ["sulfa"], [], [], ["nsaid"], [])
    pats: list[Patient] = []
    for i, p in enumerate(people):
        local = [ph for ph in pharms if ph.address.country == p.address.country]
        pats.append(
            s.create(
                Patient,
                name=p.name,
                email=p.email,
                phone=p.phone,
                birth_date=p.birth_date,
                address=p.address,
                allergies=allergies[i % len(allergies)],
                preferred_pharmacy_id=(local or pharms)[i % len(local or pharms)].id,
            )
        )
    return pats


def _seed_prescription(
    s: SeedContext, i: int, j: int, patient: Patient, med: Medication, prescriber: Prescriber, pharmacy: Pharmacy
) -> None:
    """The i-th patient's j-th prescription, its fills up to today and, for some completed ones, a renewal request."""
    today = s.now.date()
    supply = 30 if med.schedule != "II" else 7
    refills = min(MAX_REFILLS[med.schedule], (2, 5, 3, 0, 11)[(i + j) % 5])
    written = today - dt.timedelta(days=10 + (i * 17 + j * 29) % 160)
    if med.schedule == "II":
        written = today - dt.timedelta(days=3 + i % 5)
    expires = written + dt.timedelta(days=VALID_DAYS[med.schedule])
    rx = s.create(
        Prescription,
        patient_id=patient.id,
        prescriber_id=prescriber.id,
        medication_id=med.id,
        pharmacy_id=pharmacy.id,
        sig=SIGS.get(med.drug_class, "Take one tablet by mouth daily"),
        quantity=supply if med.drug_class != "bronchodilator" else 1,
        days_supply=supply,
        refills_authorized=refills,
        written_on=written,
        expires_on=expires,
        updated_at=s.ago(days=1),
    )
    # Fill history: the original fill, then a refill each supply period up to today.
    day, n = written + dt.timedelta(days=1), 0
    while day <= today and n <= refills and day <= expires:
        last = day + dt.timedelta(days=supply) > today or n == refills
        waiting = last and (i + j) % 2 == 0 and (today - day).days < 12
        s.create(
            Fill,
            prescription_id=rx.id,
            pharmacy_id=pharmacy.id,
            fill_number=n,
            quantity=rx.quantity,
            price=_price(med, rx.quantity, pharmacy.currency),
            currency=pharmacy.currency,
            filled_on=day,
            status=("ready" if (i // 2 + j) % 2 else "queued") if waiting else "picked_up",
            picked_up_at=None if waiting else utc_at(day, 17) + dt.timedelta(hours=i % 5),
            updated_at=utc_at(day, 12),
        )
        n += 1
        day += dt.timedelta(days=supply)
    used = max(0, n - 1)
    status: RxStatus = "active"
    if used >= refills and n > 0:
        status = "completed"
    if expires < today:
        status = "expired"
    rx = s.update(rx, refills_used=used, status=status)
    if status == "completed" and i % 2 == 0:
        s.create(
            RenewalRequest,
            prescription_id=rx.id,
            prescriber_id=prescriber.id,
            created_at=s.ago(hours=5 + i),
        )


@service.seeder
def seed(s: SeedContext) -> None:
    """Pharmacies of the world's retailers, the clinic's providers as prescribers, consumers as patients."""
    pharms = _seed_pharmacies(s)
    scribers = [
        s.create(
            Prescriber,
            name=p.name,
            email=p.email,
            npi=provider_npi(i),
            dea_number=f"B{p.last_name[0].upper()}{(4120000 + i * 1373) % 10**7:07d}" if i % 3 != 2 else None,
        )
        for i, (p, _) in enumerate(clinicians(s.population))
    ]
    meds = [
        s.create(
            Medication,
            name=name,
            ndc=f"{50000 + 37 * i:05d}-{1000 + 13 * i:04d}-{10 + i:02d}",
            drug_class=cls,
            schedule=sched,
            unit_price_usd=price,
        )
        for i, (name, cls, sched, price) in enumerate(FORMULARY)
    ]
    pats = _seed_patients(s, pharms)
    # Patients get safe everyday drugs, some a second one or a controlled one; never one they are allergic to.
    safe = [m for m in meds if m.schedule == "none" and m.drug_class not in ("nsaid", "anticoagulant", "macrolide")]
    controlled = [m for m in meds if m.schedule != "none"]
    dea = [p for p in scribers if p.dea_number]
    for i, patient in enumerate(pats):
        chosen = [safe[i % len(safe)]]
        if i % 4 == 0:
            chosen.append(safe[(i + 5) % len(safe)])
        if i % 7 == 3:
            chosen.append(controlled[i % len(controlled)])
        for j, med in enumerate(chosen):
            allergy = ALLERGY_OF.get(med.drug_class)
            if allergy is not None and allergy in patient.allergies:
                continue
            prescriber = dea[(i + j) % len(dea)] if med.schedule != "none" else scribers[(i + j) % len(scribers)]
            pharmacy = next(ph for ph in pharms if ph.id == patient.preferred_pharmacy_id)
            if med.schedule != "none" and not pharmacy.dispenses_controlled:
                pharmacy = next(ph for ph in pharms if ph.dispenses_controlled)
            _seed_prescription(s, i, j, patient, med, prescriber, pharmacy)
