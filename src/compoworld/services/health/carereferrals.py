"""LoopLink Referrals: referrals between providers, insurance checks, scheduling and closing the loop.

Modeled on ReferralMD and Epic's referral workqueues (a provider directory
with specialty, network and whether a provider accepts referrals; referrals
with a reason, ICD-10 diagnosis and urgency (stat, urgent, routine) that set
how soon the patient must be seen; an insurance check that verifies
eligibility and flags specialties the payer authorizes first; referrals that
go draft → sent → accepted → scheduled → completed when the specialist's
consult note closes the loop, or are declined with a reason, or cancelled):
a referral is sent only after its insurance check passes (with an
authorization number where one is required), only to a provider who accepts
referrals in the specialty asked for and is not the referring provider, it is
scheduled inside its urgency window, and the loop closes only after the
appointment with a consult note.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Date, DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped
from compoworld.services.kit.time import utc_at
from compoworld.world.care import clinic_sites, clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "carereferrals",
    title="LoopLink Referrals",
    category="care_referrals",
    modeled_on="ReferralMD / Epic referrals: provider directory, referrals with urgency and ICD-10 reason, insurance "
    "eligibility and authorization checks, send/accept/decline, scheduling, loop closure with consult notes",
    description="Referral management between a practice and specialists: the provider directory, patients and their "
    "coverage, referrals with urgency windows, insurance checks and authorizations, acceptance or denial by the "
    "specialist, the appointment, and the consult note that closes the loop.",
)

ProviderId = Annotated[str, IdOf("carereferrals.provider")]
PatientId = Annotated[str, IdOf("carereferrals.patient")]
ReferralId = Annotated[str, IdOf("carereferrals.referral")]

Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")]
"""An ICD-10-CM code."""
AuthNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{6,20}$")]
"""A payer authorization number."""

Specialty = Literal["cardiology", "orthopedics", "dermatology", "neurology", "gastroenterology", "physical_therapy"]
Urgency = Literal["stat", "urgent", "routine"]
Payer = Literal["aetna", "bcbs", "cigna", "medicare", "medicaid", "self_pay"]
Status = Literal["draft", "sent", "accepted", "scheduled", "completed", "declined", "cancelled"]
Check = Literal["not_checked", "verified", "auth_required", "ineligible"]
DeclineReason = Literal[
    "not_accepting", "out_of_network", "wrong_specialty", "insufficient_information", "patient_declined"
]

WINDOW_DAYS: dict[str, int] = {"stat": 1, "urgent": 7, "routine": 30}
AUTH_FIRST: dict[str, frozenset[str]] = {
    "medicaid": frozenset({"cardiology", "orthopedics", "neurology", "gastroenterology", "dermatology"}),
    "aetna": frozenset({"orthopedics", "neurology"}),
    "cigna": frozenset({"gastroenterology"}),
    "bcbs": frozenset(),
    "medicare": frozenset(),
    "self_pay": frozenset(),
}
OPEN: tuple[Status, ...] = ("draft", "sent", "accepted", "scheduled")


class Provider(Timestamped):
    """A provider in the directory."""

    id: ProviderId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail (referral inbox)."""
    npi: Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
    """National Provider Identifier."""
    specialty: Specialty | Literal["primary_care"]
    """Specialty."""
    organization: Annotated[str, StringConstraints(min_length=1, max_length=160)]
    """Practice or hospital."""
    accepting: bool = True
    """Whether they accept new referrals."""


class Patient(Timestamped):
    """A patient being referred."""

    id: PatientId
    name: PersonName
    """Full name."""
    email: Email
    """E-mail."""
    birth_date: Date
    """Date of birth."""
    payer: Payer = "bcbs"
    """aetna, bcbs, cigna, medicare, medicaid or self_pay."""
    member_id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,15}$")] | None = None
    """Insurance member id."""


class Referral(Timestamped):
    """A referral from one provider to another."""

    id: ReferralId
    patient_id: PatientId
    """The patient."""
    referring_provider_id: ProviderId
    """Who refers."""
    receiving_provider_id: ProviderId
    """The specialist referred to."""
    specialty: Specialty
    """The specialty asked for."""
    reason: Text
    """Why."""
    diagnosis: Icd10
    """ICD-10 reason for referral."""
    urgency: Urgency = "routine"
    """stat (1 day), urgent (7 days) or routine (30 days)."""
    status: Status = "draft"
    """draft, sent, accepted, scheduled, completed, declined or cancelled."""
    insurance_check: Check = "not_checked"
    """not_checked, verified, auth_required or ineligible."""
    auth_number: AuthNumber | None = None
    """The payer's authorization number."""
    sent_on: Date | None = None
    """When it was sent."""
    see_by: Date | None = None
    """The last day of its urgency window (from sending)."""
    appointment_at: DateTime | None = None
    """The specialist appointment."""
    decline_reason: DeclineReason | None = None
    """Why it was declined."""
    consult_note: Text = ""
    """The specialist's consult note (closes the loop)."""


# -- rules ------------------------------------------------------------------------------------

providers = service.resource(
    Provider,
    name="provider",
    plural="providers",
    prefix="prv",
    create=False,
    filters=("specialty", "accepting", "email", "npi"),
    search=("name", "organization"),
    update=("accepting",),
    delete=False,
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pat",
    create=("name", "email", "birth_date", "payer"),
    filters=("email", "payer"),
    search=("name",),
    update=("payer",),
    delete=False,
    unique=("email",),
)
referrals = service.resource(
    Referral,
    name="referral",
    plural="referrals",
    prefix="ref",
    create=False,
    filters=(
        "patient_id",
        "referring_provider_id",
        "receiving_provider_id",
        "status",
        "urgency",
        "specialty",
        "insurance_check",
    ),
    search=("reason",),
    delete=False,
)


def _ref_in(ctx: Ctx, referral_id: str, *allowed: Status) -> Referral:
    ref = ctx.get(Referral, referral_id, field="referral_id")
    if ref.status not in allowed:
        raise RuleViolation(
            f"referral {ref.id} is {ref.status}",
            field="referral_id",
            hint=f"only {', '.join(allowed)} referrals can take this step",
        )
    return ref


# -- domain tools -----------------------------------------------------------------------------


def _example_create(ctx: Ctx) -> dict[str, Any] | None:
    pcp = ctx.first(Provider, specialty="primary_care")
    spec = ctx.first(Provider, specialty="cardiology", accepting=True)
    pt = next(
        (
            p
            for p in ctx.where(Patient, payer="bcbs")
            if not any(r.status in OPEN for r in ctx.where(Referral, patient_id=p.id, specialty="cardiology"))
        ),
        None,
    )
    if pcp is None or spec is None or pt is None:
        return None
    return {
        "patient_id": pt.id,
        "referring_provider_id": pcp.id,
        "receiving_provider_id": spec.id,
        "specialty": "cardiology",
        "reason": "Palpitations with an abnormal ECG.",
        "diagnosis": "R00.2",
        "urgency": "urgent",
    }


@service.tool(intent="create a referral for the patient", write=True, example=_example_create)
def create_referral(
    ctx: Ctx,
    patient_id: PatientId,
    referring_provider_id: ProviderId,
    receiving_provider_id: ProviderId,
    specialty: Specialty,
    reason: Text,
    diagnosis: Icd10,
    urgency: Urgency = "routine",
) -> Referral:
    """Draft a referral to a specialist of the asked specialty (not the referring provider).

    The patient may have only one open referral per specialty.

    Args:
        patient_id: The patient.
        referring_provider_id: The referring provider.
        receiving_provider_id: The specialist.
        specialty: The specialty asked for.
        reason: Clinical question (required).
        diagnosis: ICD-10 reason.
        urgency: stat, urgent or routine.
    """
    pt = ctx.get(Patient, patient_id, field="patient_id")
    ctx.get(Provider, referring_provider_id, field="referring_provider_id")
    to = ctx.get(Provider, receiving_provider_id, field="receiving_provider_id")
    if to.id == referring_provider_id:
        raise RuleViolation("a provider cannot refer to themselves", field="receiving_provider_id", hint="pick another")
    if to.specialty != specialty:
        raise RuleViolation(
            f"{to.name} practices {to.specialty}", field="receiving_provider_id", hint=f"pick a {specialty} provider"
        )
    if not reason.strip():
        raise RuleViolation("a referral states its reason", field="reason", hint="write the clinical question")
    for other in ctx.where(Referral, patient_id=pt.id, specialty=specialty):
        if other.status in OPEN:
            raise Conflict(
                f"{pt.name} already has open {specialty} referral {other.id}", field="specialty", hint="work that one"
            )
    return ctx.create(
        Referral,
        patient_id=pt.id,
        referring_provider_id=referring_provider_id,
        receiving_provider_id=to.id,
        specialty=specialty,
        reason=reason.strip(),
        diagnosis=diagnosis,
        urgency=urgency,
    )


@service.tool(
    intent="check the patient's insurance for the referral",
    write=True,
    example=first_example(Referral, "referral_id", where={"status": "draft", "insurance_check": "not_checked"}),
)
def check_insurance(ctx: Ctx, referral_id: ReferralId) -> Referral:
    """Run the eligibility check of a draft referral: verified, auth_required or ineligible.

    auth_required: the payer authorizes the specialty first; ineligible: no member id on file.

    Args:
        referral_id: A draft referral.
    """
    ref = _ref_in(ctx, referral_id, "draft")
    pt = ctx.get(Patient, ref.patient_id)
    if pt.payer != "self_pay" and pt.member_id is None:
        result: Check = "ineligible"
    elif ref.specialty in AUTH_FIRST[pt.payer] and ref.auth_number is None:
        result = "auth_required"
    else:
        result = "verified"
    return ctx.update(ref, insurance_check=result)


@service.tool(
    intent="record the payer's authorization on the referral",
    write=True,
    example=first_example(
        Referral, "referral_id", where={"insurance_check": "auth_required"}, auth_number="AUTH-88231"
    ),
)
def record_authorization(ctx: Ctx, referral_id: ReferralId, auth_number: AuthNumber) -> Referral:
    """Record the authorization number the payer gave: the insurance check becomes verified.

    Args:
        referral_id: A draft referral whose check requires an authorization.
        auth_number: The authorization number.
    """
    ref = _ref_in(ctx, referral_id, "draft")
    if ref.insurance_check != "auth_required":
        raise RuleViolation(
            f"referral {ref.id}'s insurance check is {ref.insurance_check}",
            field="referral_id",
            hint="run the insurance check first; only auth_required referrals take a number",
        )
    return ctx.update(ref, auth_number=auth_number, insurance_check="verified")


@service.tool(
    intent="send the referral to the specialist",
    write=True,
    example=first_example(
        Referral,
        "referral_id",
        where={"status": "draft", "insurance_check": "verified"},
        match=lambda c, r: c.get(Provider, r.receiving_provider_id).accepting,
    ),
)
def send_referral(ctx: Ctx, referral_id: ReferralId) -> Referral:
    """Send a draft referral whose insurance is verified to a specialist who accepts referrals; its window starts.

    Args:
        referral_id: A draft referral.
    """
    ref = _ref_in(ctx, referral_id, "draft")
    if ref.insurance_check != "verified":
        raise RuleViolation(
            f"the insurance check is {ref.insurance_check}",
            field="referral_id",
            hint="check insurance and record any authorization first",
        )
    to = ctx.get(Provider, ref.receiving_provider_id)
    if not to.accepting:
        raise RuleViolation(f"{to.name} is not accepting referrals", field="referral_id", hint="redirect it")
    today = ctx.today()
    return ctx.update(ref, status="sent", sent_on=today, see_by=today + dt.timedelta(days=WINDOW_DAYS[ref.urgency]))


@service.tool(
    intent="redirect the referral to another specialist",
    write=True,
    example=lambda ctx: next(
        (
            {"referral_id": r.id, "receiving_provider_id": p.id}
            for r in ctx.where(Referral, status="draft")
            for p in ctx.where(Provider, specialty=r.specialty, accepting=True)
            if p.id != r.receiving_provider_id
        ),
        None,
    ),
)
def redirect_referral(ctx: Ctx, referral_id: ReferralId, receiving_provider_id: ProviderId) -> Referral:
    """Point a draft or declined referral at another specialist of its specialty; it returns to draft.

    Args:
        referral_id: A draft or declined referral.
        receiving_provider_id: The new specialist.
    """
    ref = _ref_in(ctx, referral_id, "draft", "declined")
    to = ctx.get(Provider, receiving_provider_id, field="receiving_provider_id")
    if to.specialty != ref.specialty or to.id == ref.receiving_provider_id:
        raise RuleViolation(
            f"{to.name} is not another {ref.specialty} provider",
            field="receiving_provider_id",
            hint="pick a different provider of the specialty",
        )
    return ctx.update(ref, receiving_provider_id=to.id, status="draft", decline_reason=None, sent_on=None, see_by=None)


@service.tool(
    intent="accept the referral",
    write=True,
    example=first_example(Referral, "referral_id", where={"status": "sent"}),
)
def accept_referral(ctx: Ctx, referral_id: ReferralId) -> Referral:
    """The specialist accepts a sent referral.

    Args:
        referral_id: A sent referral.
    """
    return ctx.update(_ref_in(ctx, referral_id, "sent"), status="accepted")


@service.tool(
    intent="decline the referral",
    write=True,
    example=first_example(Referral, "referral_id", where={"status": "sent"}, reason="out_of_network"),
)
def decline_referral(ctx: Ctx, referral_id: ReferralId, reason: DeclineReason) -> Referral:
    """The specialist declines a sent or accepted referral, with a reason.

    Args:
        referral_id: A sent or accepted referral.
        reason: not_accepting, out_of_network, wrong_specialty, insufficient_information or patient_declined.
    """
    return ctx.update(_ref_in(ctx, referral_id, "sent", "accepted"), status="declined", decline_reason=reason)


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    for ref in ctx.where(Referral, status="accepted"):
        if ref.see_by is not None and ref.see_by > ctx.today():
            return {"referral_id": ref.id, "appointment_at": utc_at(ref.see_by, 15).isoformat()}
    return None


@service.tool(intent="schedule the referral appointment", write=True, example=_example_schedule)
def schedule_referral(ctx: Ctx, referral_id: ReferralId, appointment_at: DateTime) -> Referral:
    """Book the specialist appointment of an accepted referral, in the future and by the end of its urgency window.

    Args:
        referral_id: An accepted (or already scheduled, to reschedule) referral.
        appointment_at: When.
    """
    ref = _ref_in(ctx, referral_id, "accepted", "scheduled")
    if appointment_at <= ctx.now():
        raise RuleViolation("the time has passed", field="appointment_at", hint="pick a future time")
    if ref.see_by is not None and appointment_at.date() > ref.see_by:
        raise RuleViolation(
            f"a {ref.urgency} referral must be seen by {ref.see_by}",
            field="appointment_at",
            hint="find an earlier slot or redirect to another specialist",
        )
    return ctx.update(ref, status="scheduled", appointment_at=appointment_at)


@service.tool(
    intent="close the referral loop with the consult note",
    write=True,
    example=first_example(
        Referral,
        "referral_id",
        where={"status": "scheduled"},
        match=lambda c, r: r.appointment_at is not None and r.appointment_at <= c.now(),
        consult_note="Echo normal; benign PVCs. Reassured; follow up as needed.",
    ),
)
def close_loop(ctx: Ctx, referral_id: ReferralId, consult_note: Text) -> Referral:
    """Complete a scheduled referral after its appointment with the specialist's consult note.

    Args:
        referral_id: A scheduled referral whose appointment has passed.
        consult_note: The consult note (required).
    """
    ref = _ref_in(ctx, referral_id, "scheduled")
    if ref.appointment_at is None or ref.appointment_at > ctx.now():
        raise RuleViolation("the appointment has not happened", field="referral_id", hint="close it after the visit")
    if not consult_note.strip():
        raise RuleViolation("the loop closes with a consult note", field="consult_note", hint="attach the note")
    return ctx.update(ref, status="completed", consult_note=consult_note.strip())


@service.tool(
    intent="cancel the referral",
    write=True,
    example=first_example(Referral, "referral_id", where={"status": "draft"}),
)
def cancel_referral(ctx: Ctx, referral_id: ReferralId) -> Referral:
    """Cancel an open referral.

    Args:
        referral_id: An open referral.
    """
    return ctx.update(_ref_in(ctx, referral_id, *OPEN), status="cancelled")


@service.tool(intent="list referrals past their urgency window", example=lambda ctx: {})
def overdue_referrals(ctx: Ctx) -> list[Referral]:
    """Sent or accepted referrals whose urgency window ended without an appointment (the leakage workqueue)."""
    today = ctx.today()
    return [
        r
        for status in ("sent", "accepted")
        for r in ctx.where(Referral, status=status)
        if r.see_by is not None and r.see_by < today
    ]


@service.tool(intent="find the referral patient by e-mail")
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

SPECIALISTS: tuple[Specialty, ...] = (
    "cardiology",
    "orthopedics",
    "dermatology",
    "neurology",
    "gastroenterology",
    "cardiology",
    "orthopedics",
    "physical_therapy",
)
CASES: tuple[tuple[Specialty, str, str, Urgency], ...] = (
    ("cardiology", "Exertional chest pain, abnormal stress test.", "R07.9", "urgent"),
    ("orthopedics", "Right knee pain, suspected meniscal tear.", "M23.91", "routine"),
    ("dermatology", "Changing pigmented lesion on the back.", "D48.5", "urgent"),
    ("neurology", "New-onset seizure.", "R56.9", "stat"),
    ("gastroenterology", "Screening colonoscopy, family history.", "Z80.0", "routine"),
)
STATES: tuple[Status, ...] = (
    "draft",
    "sent",
    "accepted",
    "scheduled",
    "completed",
    "declined",
    "draft",
    "sent",
    "scheduled",
    "draft",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Clinicians as primary care, specialists from healthcare contacts, consumer patients, referrals in every state."""
    pop = s.population
    sites = clinic_sites(pop)
    pcps = [
        s.create(
            Provider,
            name=p.name,
            email=p.email,
            npi=provider_npi(i),
            specialty="primary_care",
            organization=sites[site].name if sites else pop.home.name,
        )
        for i, (p, site) in enumerate(clinicians(pop)[:3])
    ]
    keys = {p.key for p, _ in clinicians(pop)}
    outside = [p for p in pop.contacts if p.key not in keys][: len(SPECIALISTS)]
    specs: list[Provider] = []
    for k, (p, spec) in enumerate(zip(outside, SPECIALISTS, strict=False)):
        company = pop.company_of(p)
        specs.append(
            s.create(
                Provider,
                name=p.name,
                email=p.email,
                npi=provider_npi(10 + k),
                specialty=spec,
                organization=company.name if company else "Community Specialists",
                accepting=k != 5,
            )
        )
    people = [p for p in pop.consumers if p.key not in keys][40:50]
    today = s.now.date()
    for k, p in enumerate(people):
        payer: Payer = ("bcbs", "aetna", "medicaid", "cigna", "medicare")[k % 5]
        pt = s.create(
            Patient,
            name=p.name,
            email=p.email,
            birth_date=p.birth_date,
            payer=payer,
            member_id=None if k == 7 else f"M{p.birth_date:%y%m}{4400 + 13 * k}",
        )
        spec, reason, code, urgency = CASES[k % len(CASES)]
        to = next(x for x in specs if x.specialty == spec and x.accepting)
        status = STATES[k]
        sent = today - dt.timedelta(days=3 + k) if status != "draft" else None
        window = WINDOW_DAYS[urgency]
        s.create(
            Referral,
            patient_id=pt.id,
            referring_provider_id=pcps[k % len(pcps)].id,
            receiving_provider_id=to.id,
            specialty=spec,
            reason=reason,
            diagnosis=code,
            urgency=urgency if status != "scheduled" else "routine",
            status=status,
            insurance_check=("not_checked", "auth_required", "verified")[(k == 6) + 2 * (k == 9)]
            if status == "draft"
            else "verified",
            auth_number=f"AUTH-{70100 + k}" if spec in AUTH_FIRST[payer] and status != "draft" else None,
            sent_on=sent,
            see_by=sent + dt.timedelta(days=window if status != "scheduled" else 30) if sent else None,
            appointment_at=(
                s.ago(hours=2) if k == 3 or status == "completed" else utc_at(today + dt.timedelta(days=5), 15)
            )
            if status in ("scheduled", "completed")
            else None,
            decline_reason="out_of_network" if status == "declined" else None,
            consult_note="Seen; plan sent to the referring provider." if status == "completed" else "",
        )
