"""Frontdoor Intake: patient intake before visits — forms, screenings, insurance cards, consents, copays, check-in.

Modeled on Phreesia's patient intake platform (appointments synced from the
practice management system; intake invitations sent by text or e-mail;
intake forms and standardized screening questionnaires such as PHQ-9 and
GAD-7 scored on submission; insurance card capture with real-time eligibility
checks; electronic consents such as the HIPAA notice of privacy practices and
the financial policy; point-of-service payments; kiosk or mobile check-in):
a visit goes scheduled → intake_sent → intake_completed → checked_in →
completed, or cancelled / no_show; intake is sent only for a future visit and
creates the forms its visit type needs; submitting the last outstanding form
completes the intake; a screening needs exactly its questionnaire's answers,
each 0-3, and a PHQ-9 of 10 or more (or any answer on item 9) is flagged
positive; a patient holds at most one card per priority, a secondary card
needs a primary one, and eligibility marks a card with lapsed coverage
inactive; one active consent per kind; a copay is collected only up to what
is due; check-in needs the intake completed, the HIPAA notice and financial
policy signed, a verified primary card (unless self-pay) and the copay paid.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    AccountNumber,
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    FirstName,
    IdOf,
    Language,
    LastName,
    PersonName,
    Phone,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.care import clinicians

__all__ = ["service"]

service = Service(
    "patientintake",
    title="Frontdoor Intake",
    category="patient_intake",
    modeled_on="Phreesia patient intake: appointments, intake invitations, intake forms and PHQ-9/GAD-7 "
    "screenings, insurance card capture and eligibility, e-consents, point-of-service payments, kiosk check-in",
    description="The practice's patient intake: upcoming visits and the intake sent before them, the forms and "
    "scored screening questionnaires patients fill in, insurance cards captured and checked for eligibility, "
    "signed consents, copays and balances collected at check-in, and kiosk or mobile check-in.",
)

PatientId = Annotated[str, IdOf("patientintake.patient")]
VisitId = Annotated[str, IdOf("patientintake.visit")]
FormId = Annotated[str, IdOf("patientintake.form")]
CardId = Annotated[str, IdOf("patientintake.insurance_card")]
ConsentId = Annotated[str, IdOf("patientintake.consent")]
PaymentId = Annotated[str, IdOf("patientintake.payment")]

VisitType = Literal["new_patient", "follow_up", "annual_physical", "behavioral_health"]
VisitStatus = Literal["scheduled", "intake_sent", "intake_completed", "checked_in", "completed", "cancelled", "no_show"]
FormKind = Literal["demographics", "medical_history", "phq9", "gad7"]
FormStatus = Literal["sent", "completed"]
ScreenResult = Literal["negative", "positive"]
CardPriority = Literal["primary", "secondary"]
CardStatus = Literal["captured", "verified", "inactive"]
ConsentKind = Literal["hipaa_notice", "financial_policy", "treatment", "telehealth"]
ConsentStatus = Literal["signed", "revoked"]
PayKind = Literal["copay", "balance"]
PayMethod = Literal["card", "hsa_card", "cash", "apple_pay"]
PayStatus = Literal["captured", "refunded"]
Channel = Literal["sms", "email"]
CheckInMethod = Literal["kiosk", "mobile", "front_desk"]

Answer = Annotated[int, Field(ge=0, le=3)]
"""One questionnaire answer: 0 (not at all) to 3 (nearly every day)."""

FORMS: dict[str, tuple[FormKind, ...]] = {
    "new_patient": ("demographics", "medical_history", "phq9"),
    "follow_up": ("medical_history",),
    "annual_physical": ("medical_history", "phq9", "gad7"),
    "behavioral_health": ("phq9", "gad7"),
}
ITEMS: dict[str, int] = {"phq9": 9, "gad7": 7}
REQUIRED_CONSENTS: tuple[ConsentKind, ...] = ("hipaa_notice", "financial_policy")
OPEN: tuple[VisitStatus, ...] = ("scheduled", "intake_sent", "intake_completed")
PAYERS = ("Bluecrest Health Plan", "Unity Mutual Insurance", "Northgate Health Insurance")


class Patient(Timestamped):
    """A patient of the practice as intake knows them."""

    id: PatientId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail the intake invitations go to; unique."""
    phone: Phone
    """Mobile phone the text invitations go to."""
    birth_date: Date
    """Date of birth."""
    preferred_language: Language = "en"
    """Language of the forms (ISO 639-1)."""
    balance_cents: Cents = 0
    """Outstanding balance from earlier visits."""
    self_pay: bool = False
    """Whether the patient pays without insurance."""


class Visit(Timestamped):
    """An appointment synced from the practice management system and its intake."""

    id: VisitId
    patient_id: PatientId
    """The patient."""
    provider_name: PersonName
    """The clinician seen."""
    visit_type: VisitType
    """new_patient, follow_up, annual_physical or behavioral_health."""
    scheduled_at: DateTime
    """When the visit starts."""
    status: VisitStatus = "scheduled"
    """scheduled, intake_sent, intake_completed, checked_in, completed, cancelled or no_show."""
    copay_cents: Cents = 0
    """The copay due at check-in."""
    intake_channel: Channel | None = None
    """How the intake invitation went out."""
    intake_sent_at: DateTime | None = None
    """When the intake invitation went out."""
    check_in_method: CheckInMethod | None = None
    """kiosk, mobile or front_desk."""
    checked_in_at: DateTime | None = None
    """When the patient checked in."""


class Form(Record):
    """An intake form or screening questionnaire of a visit."""

    id: FormId
    visit_id: VisitId
    """The visit."""
    patient_id: PatientId
    """The patient."""
    kind: FormKind
    """demographics, medical_history, phq9 or gad7."""
    status: FormStatus = "sent"
    """sent or completed."""
    answers: tuple[Answer, ...] = ()
    """A screening's answers, item by item."""
    notes: Text | None = None
    """What the patient wrote on a free-form form."""
    score: int | None = None
    """A screening's total score."""
    result: ScreenResult | None = None
    """A screening's result: negative or positive."""
    completed_at: DateTime | None = None
    """When it was submitted."""


class InsuranceCard(Record):
    """An insurance card the patient photographed at intake."""

    id: CardId
    patient_id: PatientId
    """The patient."""
    payer: CompanyName
    """The health plan."""
    member_id: AccountNumber
    """Member number on the card."""
    group_number: AccountNumber | None = None
    """Group number on the card."""
    priority: CardPriority = "primary"
    """primary or secondary."""
    coverage_end: Date | None = None
    """Last day of coverage, if the plan reports one."""
    status: CardStatus = "captured"
    """captured, verified (eligible) or inactive."""
    eligibility_checked_at: DateTime | None = None
    """When eligibility was last checked."""
    created_at: Annotated[DateTime, CREATED]
    """When it was captured."""


class Consent(Record):
    """An electronic consent the patient signed."""

    id: ConsentId
    patient_id: PatientId
    """The patient."""
    kind: ConsentKind
    """hipaa_notice, financial_policy, treatment or telehealth."""
    signed_by: PersonName
    """Who signed (the patient or a guardian)."""
    status: ConsentStatus = "signed"
    """signed or revoked."""
    signed_at: DateTime
    """When it was signed."""


class Payment(Record):
    """A point-of-service payment."""

    id: PaymentId
    patient_id: PatientId
    """The patient."""
    visit_id: VisitId | None = None
    """The visit a copay is for."""
    kind: PayKind
    """copay or balance."""
    amount_cents: Cents
    """Amount paid."""
    method: PayMethod
    """card, hsa_card, cash or apple_pay."""
    status: PayStatus = "captured"
    """captured or refunded."""
    refund_reason: Text | None = None
    """Why it was refunded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was paid."""


class Readiness(Value):
    """What still stands between a visit and check-in."""

    visit_id: VisitId
    """The visit."""
    status: VisitStatus
    """The visit's status."""
    forms_outstanding: tuple[FormKind, ...]
    """Forms not yet submitted."""
    consents_missing: tuple[ConsentKind, ...]
    """Required consents not signed."""
    insurance: Literal["verified", "unverified", "missing", "self_pay"]
    """The primary card's state."""
    copay_due_cents: int
    """Copay not yet paid."""
    ready: bool
    """Whether check-in would succeed."""


# -- rules ------------------------------------------------------------------------------------


patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pat",
    create=("first_name", "last_name", "email", "phone", "birth_date", "preferred_language", "self_pay"),
    filters=("email", "last_name", "self_pay"),
    search=("first_name", "last_name", "email"),
    update=("phone", "preferred_language", "self_pay"),
    delete=False,
    unique=("email",),
)
visits = service.resource(
    Visit,
    name="visit",
    plural="visits",
    prefix="vis",
    create=False,
    filters=("patient_id", "status", "visit_type", "provider_name"),
    search=("provider_name",),
    delete=False,
    transitions={
        "cancel": Transition("status", OPEN, "cancelled", "cancel the visit"),
        "mark_no_show": Transition(
            "status",
            OPEN,
            "no_show",
            "mark the visit a no-show",
            description="Mark a visit the patient did not come to (before check-in) a no-show.",
        ),
        "complete": Transition("status", ("checked_in",), "completed", "complete the visit"),
    },
)
forms = service.resource(
    Form,
    name="form",
    plural="forms",
    prefix="frm",
    create=False,
    filters=("visit_id", "patient_id", "kind", "status", "result"),
    delete=False,
    title="intake form",
)
cards = service.resource(
    InsuranceCard,
    name="insurance_card",
    plural="insurance_cards",
    prefix="card",
    create=False,
    get=False,
    filters=("patient_id", "payer", "priority", "status", "member_id"),
    search=("payer",),
)
consents = service.resource(
    Consent,
    name="consent",
    plural="consents",
    prefix="cns",
    create=False,
    get=False,
    filters=("patient_id", "kind", "status"),
    delete=False,
    transitions={"revoke": Transition("status", ("signed",), "revoked", "revoke the consent")},
)
payments = service.resource(
    Payment,
    name="payment",
    plural="payments",
    prefix="pay",
    create=False,
    get=False,
    filters=("patient_id", "visit_id", "kind", "status", "method"),
    delete=False,
)


def _copay_paid(ctx: Ctx, visit: Visit) -> int:
    return sum(p.amount_cents for p in ctx.where(Payment, visit_id=visit.id, kind="copay", status="captured"))


def _readiness(ctx: Ctx, visit: Visit) -> Readiness:
    patient = ctx.get(Patient, visit.patient_id)
    outstanding = tuple(f.kind for f in ctx.where(Form, visit_id=visit.id) if f.status != "completed")
    signed = {c.kind for c in ctx.where(Consent, patient_id=patient.id, status="signed")}
    missing = tuple(k for k in REQUIRED_CONSENTS if k not in signed)
    insurance: Any = "self_pay"
    if not patient.self_pay:
        card = ctx.first(InsuranceCard, patient_id=patient.id, priority="primary")
        insurance = "missing" if card is None else "verified" if card.status == "verified" else "unverified"
    due = max(visit.copay_cents - _copay_paid(ctx, visit), 0)
    ready = (
        visit.status == "intake_completed"
        and not outstanding
        and not missing
        and insurance in ("verified", "self_pay")
        and due == 0
    )
    return Readiness(
        visit_id=visit.id,
        status=visit.status,
        forms_outstanding=outstanding,
        consents_missing=missing,
        insurance=insurance,
        copay_due_cents=due,
        ready=ready,
    )


# -- domain tools -----------------------------------------------------------------------------


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Patient)
    return (
        None
        if p is None
        else {
            "patient_id": p.id,
            "provider_name": clinicians(ctx.population)[0][0].name,
            "visit_type": "follow_up",
            "scheduled_at": (ctx.now() + dt.timedelta(days=3)).replace(minute=0, second=0, microsecond=0).isoformat(),
            "copay_cents": 2500,
        }
    )


@service.tool(intent="schedule the visit", write=True, example=_example_schedule)
def schedule_visit(
    ctx: Ctx,
    patient_id: PatientId,
    provider_name: PersonName,
    visit_type: VisitType,
    scheduled_at: DateTime,
    copay_cents: Cents = 0,
) -> Visit:
    """Add a visit synced from the practice management system; it must be in the future.

    Args:
        patient_id: The patient.
        provider_name: The clinician.
        visit_type: new_patient, follow_up, annual_physical or behavioral_health.
        scheduled_at: When it starts.
        copay_cents: Copay due at check-in (0 for self-pay or none).
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    if scheduled_at <= ctx.now():
        raise RuleViolation("a visit must be in the future", field="scheduled_at", hint="pick a later time")
    for v in ctx.where(Visit, patient_id=patient.id):
        if v.status in OPEN and v.scheduled_at == scheduled_at:
            raise Conflict(f"visit {v.id} is already at that time", field="scheduled_at", hint="pick another time")
    return ctx.create(
        Visit,
        patient_id=patient.id,
        provider_name=provider_name,
        visit_type=visit_type,
        scheduled_at=scheduled_at,
        copay_cents=copay_cents,
    )


@service.tool(
    intent="send the intake to the patient",
    write=True,
    example=first_example(Visit, "visit_id", where={"status": "scheduled"}, channel="sms"),
)
def send_intake(ctx: Ctx, visit_id: VisitId, channel: Channel = "sms") -> Visit:
    """Invite the patient to complete intake before a scheduled visit; creates the forms the visit type needs.

    Args:
        visit_id: The visit.
        channel: sms or email.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "scheduled":
        raise Conflict(f"visit {visit.id} is {visit.status}", field="visit_id", hint="intake goes to scheduled visits")
    if visit.scheduled_at <= ctx.now():
        raise RuleViolation("the visit has already started", field="visit_id", hint="check the patient in instead")
    for kind in FORMS[visit.visit_type]:
        ctx.create(Form, visit_id=visit.id, patient_id=visit.patient_id, kind=kind)
    return ctx.update(visit, status="intake_sent", intake_channel=channel, intake_sent_at=ctx.now())


def _example_submit(ctx: Ctx) -> dict[str, Any] | None:
    f = ctx.first(Form, status="sent", kind="phq9")
    return None if f is None else {"form_id": f.id, "answers": [1, 1, 0, 2, 1, 0, 1, 0, 0]}


@service.tool(intent="submit the intake form", write=True, example=_example_submit)
def submit_form(ctx: Ctx, form_id: FormId, answers: list[Answer] | None = None, notes: Text | None = None) -> Form:
    """Submit a form; a screening is scored, and the last outstanding form completes the visit's intake.

    Args:
        form_id: The form.
        answers: A screening's answers, each 0-3 (PHQ-9: 9 items, GAD-7: 7 items).
        notes: What the patient wrote on a demographics or history form.
    """
    form = ctx.get(Form, form_id, field="form_id")
    if form.status == "completed":
        raise Conflict(f"form {form.id} is already completed", field="form_id", hint="nothing to do")
    visit = ctx.get(Visit, form.visit_id)
    if visit.status != "intake_sent":
        raise Conflict(f"visit {visit.id} is {visit.status}", field="form_id", hint="the intake is closed")
    got = tuple(answers or ())
    score: int | None = None
    result: ScreenResult | None = None
    if form.kind in ITEMS:
        need = ITEMS[form.kind]
        if len(got) != need:
            raise RuleViolation(
                f"{form.kind} has {need} items, got {len(got)} answers", field="answers", hint=f"give {need} answers"
            )
        score = sum(got)
        flagged = score >= 10 or (form.kind == "phq9" and got[8] > 0)
        result = "positive" if flagged else "negative"
    elif got:
        raise RuleViolation(f"a {form.kind} form takes no scored answers", field="answers", hint="use notes")
    done = ctx.update(
        form, status="completed", answers=got, notes=notes, score=score, result=result, completed_at=ctx.now()
    )
    if all(f.status == "completed" for f in ctx.where(Form, visit_id=visit.id)):
        ctx.update(visit, status="intake_completed")
    return done


def _example_card(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Patient, self_pay=False):
        if ctx.first(InsuranceCard, patient_id=p.id, priority="primary") and not ctx.first(
            InsuranceCard, patient_id=p.id, priority="secondary"
        ):
            return {"patient_id": p.id, "payer": PAYERS[1], "member_id": "SEC-778812", "priority": "secondary"}
    return None


@service.tool(intent="capture the insurance card", write=True, example=_example_card)
def capture_insurance_card(
    ctx: Ctx,
    patient_id: PatientId,
    payer: CompanyName,
    member_id: AccountNumber,
    priority: CardPriority = "primary",
    group_number: AccountNumber | None = None,
    coverage_end: Date | None = None,
) -> InsuranceCard:
    """Record a card the patient photographed; one card per priority, and a secondary needs a primary.

    Args:
        patient_id: The patient.
        payer: The health plan on the card.
        member_id: Member number.
        priority: primary or secondary.
        group_number: Group number.
        coverage_end: Last day of coverage, if printed.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    same = ctx.first(InsuranceCard, patient_id=patient.id, priority=priority)
    if same is not None:
        raise Conflict(
            f"patient already has {priority} card {same.id}",
            field="priority",
            hint="delete it with patientintake__delete_insurance_card first",
        )
    if priority == "secondary" and ctx.first(InsuranceCard, patient_id=patient.id, priority="primary") is None:
        raise RuleViolation("a secondary card needs a primary card", field="priority", hint="capture the primary first")
    if patient.self_pay:
        ctx.update(patient, self_pay=False)
    return ctx.create(
        InsuranceCard,
        patient_id=patient.id,
        payer=payer,
        member_id=member_id,
        priority=priority,
        group_number=group_number,
        coverage_end=coverage_end,
    )


@service.tool(
    intent="check the insurance eligibility",
    write=True,
    example=first_example(InsuranceCard, "card_id", where={"status": "captured"}),
)
def check_eligibility(ctx: Ctx, card_id: CardId) -> InsuranceCard:
    """Run a real-time eligibility check: the card becomes verified, or inactive when its coverage has ended.

    Args:
        card_id: The insurance card.
    """
    card = ctx.get(InsuranceCard, card_id, field="card_id")
    if card.status == "verified":
        raise Conflict(f"card {card.id} is already verified", field="card_id", hint="nothing to do")
    lapsed = card.coverage_end is not None and card.coverage_end < ctx.today()
    return ctx.update(card, status="inactive" if lapsed else "verified", eligibility_checked_at=ctx.now())


def _example_consent(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Patient):
        if ctx.first(Consent, patient_id=p.id, kind="telehealth", status="signed") is None:
            return {"patient_id": p.id, "kind": "telehealth", "signed_by": f"{p.first_name} {p.last_name}"}
    return None


@service.tool(intent="sign the consent", write=True, example=_example_consent)
def sign_consent(ctx: Ctx, patient_id: PatientId, kind: ConsentKind, signed_by: PersonName) -> Consent:
    """Record an e-signed consent; a patient holds one signed consent of each kind.

    Args:
        patient_id: The patient.
        kind: hipaa_notice, financial_policy, treatment or telehealth.
        signed_by: Who signed (the patient, or a guardian for a minor).
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    have = ctx.first(Consent, patient_id=patient.id, kind=kind, status="signed")
    if have is not None:
        raise Conflict(f"{kind} is already signed ({have.id})", field="kind", hint="revoke it first to re-sign")
    age = (ctx.today() - patient.birth_date).days // 365
    if age < 18 and signed_by.strip().lower() == f"{patient.first_name} {patient.last_name}".lower():
        raise RuleViolation("a minor's consent is signed by a guardian", field="signed_by", hint="give the guardian")
    return ctx.create(Consent, patient_id=patient.id, kind=kind, signed_by=signed_by.strip(), signed_at=ctx.now())


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.where(Visit, status="intake_completed"):
        due = v.copay_cents - _copay_paid(ctx, v)
        if due > 0:
            return {"patient_id": v.patient_id, "visit_id": v.id, "amount_cents": due, "method": "card"}
    return None


@service.tool(intent="collect the payment", write=True, example=_example_pay)
def collect_payment(
    ctx: Ctx,
    patient_id: PatientId,
    amount_cents: Cents,
    method: PayMethod,
    kind: PayKind = "copay",
    visit_id: VisitId | None = None,
) -> Payment:
    """Take a copay for a visit or a payment on the patient's balance, never more than is due.

    Args:
        patient_id: The patient.
        amount_cents: Amount to charge.
        method: card, hsa_card, cash or apple_pay.
        kind: copay (needs visit_id) or balance.
        visit_id: The visit a copay is for.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    if amount_cents <= 0:
        raise RuleViolation("amount must be positive", field="amount_cents", hint="charge at least 1 cent")
    if kind == "copay":
        if visit_id is None:
            raise RuleViolation("a copay is for a visit", field="visit_id", hint="give the visit id")
        visit = ctx.get(Visit, visit_id, field="visit_id")
        if visit.patient_id != patient.id:
            raise RuleViolation("the visit is another patient's", field="visit_id", hint="use this patient's visit")
        if visit.status in ("cancelled", "no_show"):
            raise Conflict(f"visit {visit.id} is {visit.status}", field="visit_id", hint="no copay is due")
        due = visit.copay_cents - _copay_paid(ctx, visit)
    else:
        due = patient.balance_cents
    if amount_cents > due:
        raise RuleViolation(f"only {due} cents are due", field="amount_cents", hint=f"charge at most {due}")
    if kind == "balance":
        ctx.update(patient, balance_cents=patient.balance_cents - amount_cents)
    return ctx.create(
        Payment,
        patient_id=patient.id,
        visit_id=visit_id if kind == "copay" else None,
        kind=kind,
        amount_cents=amount_cents,
        method=method,
    )


@service.tool(
    intent="refund the payment",
    write=True,
    example=first_example(Payment, "payment_id", where={"status": "captured"}, reason="Charged twice at the kiosk."),
)
def refund_payment(ctx: Ctx, payment_id: PaymentId, reason: Text) -> Payment:
    """Refund a captured payment; a balance payment goes back on the patient's balance.

    Args:
        payment_id: The payment.
        reason: Why (required).
    """
    pay = ctx.get(Payment, payment_id, field="payment_id")
    if pay.status != "captured":
        raise Conflict(f"payment {pay.id} is already {pay.status}", field="payment_id", hint="nothing to refund")
    if not reason.strip():
        raise RuleViolation("a refund needs a reason", field="reason", hint="say why")
    if pay.kind == "balance":
        patient = ctx.get(Patient, pay.patient_id)
        ctx.update(patient, balance_cents=patient.balance_cents + pay.amount_cents)
    return ctx.update(pay, status="refunded", refund_reason=reason.strip())


def _ready_visit(ctx: Ctx, visit: Visit) -> bool:
    return _readiness(ctx, visit).ready


@service.tool(
    intent="check the patient in",
    write=True,
    example=first_example(Visit, "visit_id", where={"status": "intake_completed"}, match=_ready_visit, method="kiosk"),
)
def check_in(ctx: Ctx, visit_id: VisitId, method: CheckInMethod = "kiosk") -> Visit:
    """Check a patient in: intake completed, required consents signed, primary card verified (or self-pay), copay paid.

    Args:
        visit_id: The visit.
        method: kiosk, mobile or front_desk.
    """
    visit = ctx.get(Visit, visit_id, field="visit_id")
    if visit.status != "intake_completed":
        raise Conflict(
            f"visit {visit.id} is {visit.status}",
            field="visit_id",
            hint="the patient completes intake first (patientintake__visit_readiness says what is missing)",
        )
    r = _readiness(ctx, visit)
    if r.consents_missing:
        raise RuleViolation(
            f"unsigned consents: {', '.join(r.consents_missing)}",
            field="visit_id",
            hint="use patientintake__sign_consent",
        )
    if r.insurance in ("missing", "unverified"):
        raise RuleViolation(
            f"primary insurance is {r.insurance}", field="visit_id", hint="capture the card and check eligibility"
        )
    if r.copay_due_cents:
        raise RuleViolation(
            f"{r.copay_due_cents} cents of copay are due", field="visit_id", hint="use patientintake__collect_payment"
        )
    return ctx.update(visit, status="checked_in", check_in_method=method, checked_in_at=ctx.now())


@service.tool(intent="show the visit's readiness for check-in", example=first_example(Visit, "visit_id"))
def visit_readiness(ctx: Ctx, visit_id: VisitId) -> Readiness:
    """What a visit still needs before check-in: forms, consents, insurance and copay.

    Args:
        visit_id: The visit.
    """
    return _readiness(ctx, ctx.get(Visit, visit_id, field="visit_id"))


# -- seed -------------------------------------------------------------------------------------

PLAN: tuple[tuple[VisitStatus, VisitType, int], ...] = (
    ("completed", "follow_up", -50),
    ("checked_in", "new_patient", -1),
    ("intake_completed", "annual_physical", 3),
    ("intake_completed", "behavioral_health", 5),
    ("intake_sent", "new_patient", 26),
    ("intake_sent", "annual_physical", 48),
    ("scheduled", "follow_up", 72),
    ("scheduled", "behavioral_health", 96),
    ("cancelled", "follow_up", 30),
    ("no_show", "new_patient", -26),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """The clinic's patients with their cards, consents and balances; visits in every status with forms and copays."""
    pop = s.population
    docs = clinicians(pop)
    keys = {p.key for p, _ in docs}
    people = [p for p in list(pop.consumers)[:36] if p.key not in keys] + list(pop.employees)[:10]
    made: list[Patient] = []
    for i, p in enumerate(people[:24]):
        insured = i % 5 != 4
        pat = s.create(
            Patient,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            birth_date=p.birth_date,
            balance_cents=(0, 4500, 0, 12000)[i % 4],
            self_pay=not insured,
            created_at=s.ago(days=30 + 11 * i),
            updated_at=s.ago(days=30 + 11 * i),
        )
        made.append(pat)
        if insured:
            s.create(
                InsuranceCard,
                patient_id=pat.id,
                payer=PAYERS[i % len(PAYERS)],
                member_id=f"MBR-{400000 + i * 131:06d}",
                group_number=f"GRP-{7000 + i % 3}",
                coverage_end=s.now.date() - dt.timedelta(days=20) if i == 6 else None,
                status="captured" if i in (3, 6) else "verified",
                eligibility_checked_at=None if i in (3, 6) else s.ago(days=5),
                created_at=s.ago(days=20 + i),
            )
        kinds: tuple[ConsentKind, ...] = REQUIRED_CONSENTS if i % 6 != 5 else ("hipaa_notice",)
        for ckind in kinds:
            s.create(Consent, patient_id=pat.id, kind=ckind, signed_by=p.name, signed_at=s.ago(days=25 + i))
    for k, (status, vtype, hours) in enumerate(PLAN):
        pat = made[k]
        when = (s.now + dt.timedelta(hours=hours)).replace(minute=0, second=0, microsecond=0)
        copay = 0 if pat.self_pay else (2500, 4000)[k % 2]
        sent = status not in ("scheduled", "cancelled")
        visit = s.create(
            Visit,
            patient_id=pat.id,
            provider_name=docs[k % len(docs)][0].name,
            visit_type=vtype,
            scheduled_at=when,
            status=status,
            copay_cents=copay,
            intake_channel=("sms", "email")[k % 2] if sent else None,
            intake_sent_at=when - dt.timedelta(days=2) if sent else None,
            check_in_method="kiosk" if status in ("checked_in", "completed") else None,
            checked_in_at=when - dt.timedelta(minutes=10) if status in ("checked_in", "completed") else None,
            created_at=when - dt.timedelta(days=10),
            updated_at=when - dt.timedelta(days=2),
        )
        if not sent:
            continue
        for n, kind in enumerate(FORMS[vtype]):
            done = status != "intake_sent" or n == 0
            answers = tuple((1, 0, 2, 1, 0, 1, 0, 1, 0)[: ITEMS[kind]]) if kind in ITEMS and done else ()
            positive = k == 3 and kind == "gad7"
            if positive:
                answers = (2, 2, 1, 2, 1, 2, 1)
            s.create(
                Form,
                visit_id=visit.id,
                patient_id=pat.id,
                kind=kind,
                status="completed" if done else "sent",
                answers=answers,
                score=sum(answers) if answers else None,
                result=("positive" if positive else "negative") if answers else None,
                completed_at=when - dt.timedelta(days=1) if done else None,
            )
        if copay and (status in ("checked_in", "completed") or k == 2):
            s.create(
                Payment,
                patient_id=pat.id,
                visit_id=visit.id,
                kind="copay",
                amount_cents=copay,
                method="card",
                created_at=when - dt.timedelta(minutes=12),
            )
