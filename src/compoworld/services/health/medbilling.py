"""Clearpath Claims: professional claims with CPT and ICD-10 codes, scrubbing, submission, remittances, appeals.

Modeled on Waystar / Claim.MD (837P professional claims with service lines,
claim scrubbing edits before submission, payer acknowledgements (277CA)
accepting or rejecting a claim, electronic remittance advice (835 ERA) with
CARC adjustment groups CO/PR/OA, denials and appeals, patient statements):
a claim is built as a draft with ICD-10 diagnoses and CPT lines pointing at
them; scrubbing finds the edits (no lines, a pointer to a missing diagnosis,
the same CPT twice on one day without a modifier, an E/M visit beside a
procedure without modifier 25, past the payer's timely filing limit) and a
clean claim is ready; only ready claims are submitted; a rejected claim is
corrected back to draft; a remittance must balance (paid + adjustments +
patient responsibility = charges); a denied claim is appealed within the
payer's appeal window, at most twice; statements bill patients what payers
left to them, once per claim.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Generated
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import Cents, CompanyName, Date, DateTime, Email, IdOf, PersonName, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value
from compoworld.world.care import clinicians, provider_npi

__all__ = ["service"]

service = Service(
    "medbilling",
    title="Clearpath Claims",
    category="medical_billing",
    modeled_on="Waystar / Claim.MD API: 837P professional claims and service lines, claim scrubber edits, "
    "submission, 277CA payer acknowledgements, 835 ERA remittances with CARC adjustments, appeals, statements",
    description="Medical billing for a practice: patients and their insurance, professional claims with ICD-10 "
    "diagnoses and CPT service lines, scrubbing edits before submission, payer acknowledgements, remittances "
    "with contractual adjustments and patient responsibility, denials and appeals, and patient statements.",
)

PayerId = Annotated[str, IdOf("medbilling.payer")]
ProviderId = Annotated[str, IdOf("medbilling.provider")]
PatientId = Annotated[str, IdOf("medbilling.patient")]
ClaimId = Annotated[str, IdOf("medbilling.claim")]
LineId = Annotated[str, IdOf("medbilling.line")]
RemitId = Annotated[str, IdOf("medbilling.remittance")]
AppealId = Annotated[str, IdOf("medbilling.appeal")]
StatementId = Annotated[str, IdOf("medbilling.statement")]

Icd10 = Annotated[str, StringConstraints(pattern=r"^[A-TV-Z][0-9][0-9A-Z](\.[0-9A-Z]{1,4})?$")]
"""An ICD-10-CM diagnosis code (E11.9)."""
Cpt = Annotated[str, StringConstraints(pattern=r"^[0-9]{4}[0-9A-Z]$")]
"""A CPT or HCPCS procedure code (99213)."""
Modifier = Annotated[str, StringConstraints(pattern=r"^[0-9A-Z]{2}$")]
"""A CPT modifier (25, 59, LT)."""
Carc = Annotated[str, StringConstraints(pattern=r"^[A-Z]?[0-9]{1,3}$")]
"""A claim adjustment reason code (CARC), e.g. 45, 97, 50."""

ClaimStatus = Literal["draft", "ready", "submitted", "accepted", "rejected", "paid", "denied", "appealed", "void"]
AppealStatus = Literal["submitted", "overturned", "upheld"]
StatementStatus = Literal["sent", "paid"]

EM_CODES = frozenset({"99202", "99203", "99204", "99205", "99211", "99212", "99213", "99214", "99215"})
MAX_APPEALS = 2


class Payer(Timestamped):
    """An insurance payer claims go to."""

    id: PayerId
    name: CompanyName
    """The plan's name."""
    payer_code: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{5}$")]
    """The electronic payer id."""
    timely_filing_days: Annotated[int, Field(ge=30, le=730)] = 180
    """Days after the service a claim may be filed."""
    appeal_days: Annotated[int, Field(ge=30, le=365)] = 120
    """Days after a denial an appeal may be filed."""


class Provider(Timestamped):
    """A rendering provider of the practice."""

    id: ProviderId
    name: PersonName
    """Full name."""
    npi: Annotated[str, StringConstraints(pattern=r"^[0-9]{10}$")]
    """National Provider Identifier."""


class Patient(Timestamped):
    """A patient and their primary insurance."""

    id: PatientId
    name: PersonName
    """Full name."""
    email: Email | None = None
    """E-mail for statements."""
    birth_date: Date
    """Date of birth."""
    payer_id: PayerId | None = None
    """The primary payer (none: self-pay)."""
    member_id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,20}$")] | None = None
    """The insurance member id."""


class Claim(Timestamped):
    """A professional (837P) claim for one date of service."""

    id: ClaimId
    claim_number: Annotated[str, Generated("sequence", "CLM-{n:06d}")]
    """The practice's claim number."""
    patient_id: PatientId
    """The patient."""
    payer_id: PayerId
    """The payer billed."""
    provider_id: ProviderId
    """The rendering provider."""
    service_date: Date
    """Date of service."""
    diagnosis_codes: tuple[Icd10, ...]
    """ICD-10 diagnoses, in pointer order (1 = first)."""
    total_charge_cents: Cents = 0
    """Sum of the lines' charges."""
    status: ClaimStatus = "draft"
    """draft, ready, submitted, accepted, rejected, paid, denied, appealed or void."""
    edits: tuple[str, ...] = ()
    """Scrubber edits found at the last scrub."""
    rejection_reason: Text | None = None
    """Why the payer rejected it."""
    submitted_at: DateTime | None = None
    """When it was last submitted."""
    paid_cents: Cents = 0
    """What payers paid."""
    patient_responsibility_cents: Cents = 0
    """What the patient owes."""
    denied_on: Date | None = None
    """When it was denied."""


class Line(Timestamped):
    """A service line of a claim."""

    id: LineId
    claim_id: ClaimId
    """The claim."""
    cpt: Cpt
    """The procedure code."""
    modifiers: tuple[Modifier, ...] = ()
    """Modifiers."""
    units: Annotated[int, Field(ge=1, le=99)] = 1
    """Units."""
    charge_cents: Cents
    """Charge per unit."""
    diagnosis_pointers: tuple[Annotated[int, Field(ge=1, le=12)], ...] = (1,)
    """Which diagnoses (1-based) justify it."""


class Remittance(Timestamped):
    """An 835 ERA payment or denial for a claim."""

    id: RemitId
    claim_id: ClaimId
    """The claim."""
    paid_cents: Cents
    """Paid by the payer."""
    contractual_cents: Cents = 0
    """CO-45 contractual adjustment."""
    patient_responsibility_cents: Cents = 0
    """PR deductible, coinsurance and copay."""
    denial_code: Carc | None = None
    """The CARC of a denial."""
    check_number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4,20}$")]
    """EFT trace or check number."""
    received_on: Date
    """When it arrived."""


class Appeal(Timestamped):
    """An appeal of a denied claim."""

    id: AppealId
    claim_id: ClaimId
    """The claim."""
    level: Annotated[int, Field(ge=1, le=MAX_APPEALS)]
    """1 or 2."""
    reason: Text
    """The argument."""
    status: AppealStatus = "submitted"
    """submitted, overturned or upheld."""


class Statement(Timestamped):
    """A bill to a patient for what insurance left to them."""

    id: StatementId
    patient_id: PatientId
    """The patient."""
    claim_ids: tuple[ClaimId, ...]
    """The claims it bills."""
    amount_cents: Cents
    """Amount due."""
    paid_cents: Cents = 0
    """Paid so far."""
    status: StatementStatus = "sent"
    """sent or paid."""


class ScrubResult(Value):
    """What the scrubber found."""

    claim_id: ClaimId
    """The claim."""
    status: ClaimStatus
    """draft (edits to fix) or ready."""
    edits: list[str]
    """The edits found."""


# -- rules ------------------------------------------------------------------------------------


def _draft(ctx: Ctx, claim_id: str, field: str = "claim_id") -> Claim:
    claim = ctx.get(Claim, claim_id, field=field)
    if claim.status != "draft":
        raise RuleViolation(f"claim {claim.claim_number} is {claim.status}", field=field, hint="only drafts change")
    return claim


def _guard_line_delete(ctx: Ctx, new: Any, old: Any) -> None:
    claim = _draft(ctx, old.claim_id, "line_id")
    ctx.update(claim, total_charge_cents=claim.total_charge_cents - old.charge_cents * old.units)


def _guard_patient(ctx: Ctx, new: Any, old: Any) -> None:
    if (new.payer_id is None) != (new.member_id is None):
        raise RuleViolation("payer and member id go together", field="member_id", hint="give both or neither")
    if new.payer_id is not None:
        ctx.get(Payer, new.payer_id, field="payer_id")


payers = service.resource(
    Payer,
    name="payer",
    plural="payers",
    prefix="pyr",
    create=False,
    filters=("payer_code",),
    search=("name",),
    delete=False,
)
providers = service.resource(
    Provider,
    name="provider",
    plural="providers",
    prefix="prv",
    create=False,
    get=False,
    filters=("npi",),
    search=("name",),
    delete=False,
)
patients = service.resource(
    Patient,
    name="patient",
    plural="patients",
    prefix="pat",
    create=("name", "email", "birth_date"),
    filters=("payer_id", "email", "member_id"),
    search=("name",),
    update=("email",),
    delete=False,
    guard_create=_guard_patient,
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("patient_id", "payer_id", "provider_id", "status", "claim_number", "service_date"),
    delete=False,
    transitions={
        "void": Transition("status", ("draft", "ready", "rejected"), "void", "void the claim", destructive=True),
        "correct": Transition("status", ("rejected", "ready"), "draft", "reopen the claim for correction"),
    },
)
lines = service.resource(
    Line,
    name="line",
    plural="lines",
    prefix="ln",
    create=False,
    get=False,
    filters=("claim_id", "cpt"),
    delete=True,
    guard_delete=_guard_line_delete,
    title="service line",
)
remittances = service.resource(
    Remittance,
    name="remittance",
    plural="remittances",
    prefix="era",
    create=False,
    filters=("claim_id",),
    delete=False,
)
appeals = service.resource(
    Appeal,
    name="appeal",
    plural="appeals",
    prefix="apl",
    create=False,
    get=False,
    filters=("claim_id", "status"),
    delete=False,
)
statements = service.resource(
    Statement,
    name="statement",
    plural="statements",
    prefix="stm",
    create=False,
    filters=("patient_id", "status"),
    delete=False,
    title="patient statement",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    p = next((p for p in ctx.scan(Patient) if p.payer_id is not None), None)
    prv = ctx.first(Provider)
    if p is None or prv is None:
        return None
    return {
        "patient_id": p.id,
        "provider_id": prv.id,
        "service_date": (ctx.today() - dt.timedelta(days=3)).isoformat(),
        "diagnosis_codes": ["E11.9", "I10"],
    }


@service.tool(intent="create a claim for the patient's visit", write=True, example=_example_claim)
def create_claim(
    ctx: Ctx,
    patient_id: PatientId,
    provider_id: ProviderId,
    service_date: Date,
    diagnosis_codes: Annotated[list[Icd10], Field(min_length=1, max_length=12)],
) -> Claim:
    """Start a draft claim to the patient's payer for one date of service, with its diagnoses in pointer order.

    Args:
        patient_id: An insured patient.
        provider_id: The rendering provider.
        service_date: The date of service (not in the future).
        diagnosis_codes: ICD-10 codes, 1 to 12, each once.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    ctx.get(Provider, provider_id, field="provider_id")
    if patient.payer_id is None:
        raise RuleViolation(
            f"{patient.name} is self-pay", field="patient_id", hint="bill self-pay patients by statement"
        )
    if service_date > ctx.today():
        raise RuleViolation("the service date is in the future", field="service_date", hint="bill services rendered")
    if len(set(diagnosis_codes)) != len(diagnosis_codes):
        raise RuleViolation("a diagnosis is listed twice", field="diagnosis_codes", hint="list each code once")
    return ctx.create(
        Claim,
        patient_id=patient.id,
        payer_id=patient.payer_id,
        provider_id=provider_id,
        service_date=service_date,
        diagnosis_codes=tuple(diagnosis_codes),
    )


def _example_line(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Claim, status="draft")
    return None if c is None else {"claim_id": c.id, "cpt": "36415", "charge_cents": 2500, "diagnosis_pointers": [1]}


@service.tool(intent="add a service line to the claim", write=True, example=_example_line)
def add_line(
    ctx: Ctx,
    claim_id: ClaimId,
    cpt: Cpt,
    charge_cents: Annotated[int, Field(ge=1, le=10**8)],
    diagnosis_pointers: Annotated[list[Annotated[int, Field(ge=1, le=12)]], Field(min_length=1, max_length=4)],
    units: Annotated[int, Field(ge=1, le=99)] = 1,
    modifiers: Annotated[list[Modifier], Field(max_length=4)] | None = None,
) -> Line:
    """Add a CPT line to a draft claim; the claim's total charge grows by charge × units.

    Args:
        claim_id: A draft claim.
        cpt: The CPT or HCPCS code.
        charge_cents: Charge per unit.
        diagnosis_pointers: 1 to 4 diagnoses (1-based) that justify it.
        units: Units.
        modifiers: Up to 4 modifiers.
    """
    claim = _draft(ctx, claim_id)
    line = ctx.create(
        Line,
        claim_id=claim.id,
        cpt=cpt,
        modifiers=tuple(modifiers or ()),
        units=units,
        charge_cents=charge_cents,
        diagnosis_pointers=tuple(diagnosis_pointers),
    )
    ctx.update(claim, total_charge_cents=claim.total_charge_cents + charge_cents * units)
    return line


def _edits(ctx: Ctx, claim: Claim) -> list[str]:
    found: list[str] = []
    lines_ = ctx.where(Line, claim_id=claim.id)
    if not lines_:
        found.append("NO_LINES: the claim has no service line")
    for ln in lines_:
        if any(p > len(claim.diagnosis_codes) for p in ln.diagnosis_pointers):
            found.append(f"BAD_POINTER: line {ln.cpt} points past the {len(claim.diagnosis_codes)} diagnoses")
    seen: dict[str, int] = {}
    for ln in lines_:
        if not ln.modifiers:
            seen[ln.cpt] = seen.get(ln.cpt, 0) + 1
    found += [f"DUPLICATE: {cpt} is billed twice without a modifier" for cpt, n in seen.items() if n > 1]
    procedures = [ln for ln in lines_ if ln.cpt not in EM_CODES and ln.cpt[0] in "12345678"]
    for ln in lines_:
        if ln.cpt in EM_CODES and procedures and "25" not in ln.modifiers:
            found.append(f"MODIFIER_25: {ln.cpt} with a procedure on the same day needs modifier 25")
    payer = ctx.get(Payer, claim.payer_id)
    if (ctx.today() - claim.service_date).days > payer.timely_filing_days:
        found.append(f"TIMELY_FILING: past {payer.name}'s {payer.timely_filing_days}-day filing limit")
    return found


@service.tool(intent="scrub the claim", write=True, example=first_example(Claim, "claim_id", where={"status": "draft"}))
def scrub_claim(ctx: Ctx, claim_id: ClaimId) -> ScrubResult:
    """Run the claim scrubber on a draft: with no edits it becomes ready, otherwise it stays draft with its edits.

    Args:
        claim_id: A draft claim.
    """
    claim = _draft(ctx, claim_id)
    found = _edits(ctx, claim)
    done = ctx.update(claim, edits=tuple(found), status="draft" if found else "ready")
    return ScrubResult(claim_id=done.id, status=done.status, edits=found)


@service.tool(
    intent="submit the claim to the payer",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "ready"}),
)
def submit_claim(ctx: Ctx, claim_id: ClaimId) -> Claim:
    """Submit a scrubbed (ready) claim to its payer within the timely filing limit.

    Args:
        claim_id: A ready claim.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "ready":
        raise RuleViolation(
            f"claim {claim.claim_number} is {claim.status}",
            field="claim_id",
            hint="scrub it clean with scrub_claim first",
        )
    payer = ctx.get(Payer, claim.payer_id)
    if (ctx.today() - claim.service_date).days > payer.timely_filing_days:
        raise RuleViolation("the timely filing limit has passed", field="claim_id", hint="void the claim or appeal")
    return ctx.update(claim, status="submitted", submitted_at=ctx.now(), rejection_reason=None)


@service.tool(
    intent="record the payer's acknowledgement of the claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "submitted"}, accepted=True),
)
def record_acknowledgement(ctx: Ctx, claim_id: ClaimId, accepted: bool, reason: Text | None = None) -> Claim:
    """Record the payer's 277CA: a submitted claim is accepted for adjudication, or rejected with a reason.

    Args:
        claim_id: A submitted claim.
        accepted: Whether the payer accepted it.
        reason: The rejection reason (required when rejected).
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "submitted":
        raise RuleViolation(f"claim {claim.claim_number} is {claim.status}", field="claim_id", hint="submit it first")
    if accepted:
        return ctx.update(claim, status="accepted")
    if not (reason or "").strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="copy the payer's rejection message")
    return ctx.update(claim, status="rejected", rejection_reason=(reason or "").strip())


def _example_remit(ctx: Ctx) -> dict[str, Any] | None:
    c = ctx.first(Claim, status="accepted")
    if c is None:
        return None
    paid = c.total_charge_cents * 6 // 10
    pr = c.total_charge_cents // 10
    return {
        "claim_id": c.id,
        "paid_cents": paid,
        "contractual_cents": c.total_charge_cents - paid - pr,
        "patient_responsibility_cents": pr,
        "check_number": "EFT88123",
    }


@service.tool(intent="post the remittance for the claim", write=True, example=_example_remit)
def post_remittance(
    ctx: Ctx,
    claim_id: ClaimId,
    paid_cents: Cents,
    check_number: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{4,20}$")],
    contractual_cents: Cents = 0,
    patient_responsibility_cents: Cents = 0,
    denial_code: Carc | None = None,
) -> Remittance:
    """Post an 835 ERA to an accepted or appealed claim; it must balance to the charges. No payment with a CARC: denied.

    Args:
        claim_id: An accepted or appealed claim.
        paid_cents: Paid by the payer.
        check_number: EFT trace or check number.
        contractual_cents: CO-45 contractual adjustment.
        patient_responsibility_cents: PR deductible, coinsurance and copay.
        denial_code: The CARC when the payer denies it (with nothing paid).
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status not in ("accepted", "appealed"):
        raise RuleViolation(
            f"claim {claim.claim_number} is {claim.status}", field="claim_id", hint="wait for acceptance"
        )
    total = paid_cents + contractual_cents + patient_responsibility_cents
    denied = denial_code is not None
    if denied and paid_cents:
        raise RuleViolation("a denial pays nothing", field="paid_cents", hint="post a payment without denial_code")
    if not denied and total != claim.total_charge_cents:
        raise RuleViolation(
            f"the remittance accounts for {total} of {claim.total_charge_cents} cents",
            field="paid_cents",
            hint="paid + contractual + patient responsibility must equal the charges",
        )
    remit = ctx.create(
        Remittance,
        claim_id=claim.id,
        paid_cents=paid_cents,
        contractual_cents=contractual_cents,
        patient_responsibility_cents=patient_responsibility_cents,
        denial_code=denial_code,
        check_number=check_number,
        received_on=ctx.today(),
    )
    if denied:
        ctx.update(claim, status="denied", denied_on=ctx.today())
    else:
        ctx.update(
            claim,
            status="paid",
            paid_cents=claim.paid_cents + paid_cents,
            patient_responsibility_cents=patient_responsibility_cents,
        )
    return remit


@service.tool(
    intent="appeal the denied claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "denied"}, reason="Medical necessity documented."),
)
def file_appeal(ctx: Ctx, claim_id: ClaimId, reason: Text) -> Appeal:
    """Appeal a denied claim within the payer's appeal window; at most two levels.

    Args:
        claim_id: A denied claim.
        reason: The argument (required).
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "denied" or claim.denied_on is None:
        raise RuleViolation(f"claim {claim.claim_number} is {claim.status}", field="claim_id", hint="appeal denials")
    if not reason.strip():
        raise RuleViolation("an appeal needs a reason", field="reason", hint="say why the denial is wrong")
    payer = ctx.get(Payer, claim.payer_id)
    if (ctx.today() - claim.denied_on).days > payer.appeal_days:
        raise RuleViolation(
            f"{payer.name}'s {payer.appeal_days}-day appeal window has passed",
            field="claim_id",
            hint="the denial is final",
        )
    level = len(ctx.where(Appeal, claim_id=claim.id)) + 1
    if level > MAX_APPEALS:
        raise RuleViolation("both appeal levels were used", field="claim_id", hint="the denial is final")
    ctx.update(claim, status="appealed")
    return ctx.create(Appeal, claim_id=claim.id, level=level, reason=reason.strip())


@service.tool(
    intent="record the appeal decision",
    write=True,
    example=first_example(Appeal, "appeal_id", where={"status": "submitted"}, overturned=False),
)
def decide_appeal(ctx: Ctx, appeal_id: AppealId, overturned: bool) -> Appeal:
    """Record the payer's decision: overturned, the claim awaits its new remittance; upheld, it is denied again.

    Args:
        appeal_id: A submitted appeal.
        overturned: Whether the payer reversed the denial.
    """
    appeal = ctx.get(Appeal, appeal_id, field="appeal_id")
    if appeal.status != "submitted":
        raise RuleViolation(f"appeal {appeal.id} is {appeal.status}", field="appeal_id", hint="already decided")
    claim = ctx.get(Claim, appeal.claim_id)
    if not overturned:
        ctx.update(claim, status="denied", denied_on=ctx.today())
    return ctx.update(appeal, status="overturned" if overturned else "upheld")


def _billed(ctx: Ctx, patient_id: str) -> set[str]:
    return {c for s in ctx.where(Statement, patient_id=patient_id) for c in s.claim_ids}


def _example_statement(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(Claim, status="paid"):
        if c.patient_responsibility_cents and c.id not in _billed(ctx, c.patient_id):
            return {"patient_id": c.patient_id}
    return None


@service.tool(intent="send the patient a statement", write=True, example=_example_statement)
def create_statement(ctx: Ctx, patient_id: PatientId) -> Statement:
    """Bill a patient the responsibility of their paid claims not yet on a statement.

    Args:
        patient_id: The patient.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    billed = _billed(ctx, patient.id)
    due = [
        c
        for c in ctx.where(Claim, patient_id=patient.id, status="paid")
        if c.patient_responsibility_cents and c.id not in billed
    ]
    if not due:
        raise RuleViolation(f"{patient.name} owes nothing new", field="patient_id", hint="nothing to bill")
    return ctx.create(
        Statement,
        patient_id=patient.id,
        claim_ids=tuple(c.id for c in due),
        amount_cents=sum(c.patient_responsibility_cents for c in due),
    )


@service.tool(
    intent="record the patient's payment",
    write=True,
    example=first_example(Statement, "statement_id", where={"status": "sent"}, amount_cents=1000),
)
def record_patient_payment(ctx: Ctx, statement_id: StatementId, amount_cents: Annotated[int, Field(ge=1)]) -> Statement:
    """Record a patient's payment on a sent statement, no more than the balance; paid in full closes it.

    Args:
        statement_id: A sent statement.
        amount_cents: Amount paid.
    """
    st = ctx.get(Statement, statement_id, field="statement_id")
    if st.status != "sent":
        raise RuleViolation(f"statement {st.id} is {st.status}", field="statement_id", hint="it is settled")
    balance = st.amount_cents - st.paid_cents
    if amount_cents > balance:
        raise RuleViolation(f"the balance is {balance} cents", field="amount_cents", hint=f"pay at most {balance}")
    paid = st.paid_cents + amount_cents
    return ctx.update(st, paid_cents=paid, status="paid" if paid == st.amount_cents else "sent")


def _example_patient(ctx: Ctx) -> dict[str, Any] | None:
    for p in ctx.where(Patient, payer_id=None):
        payer = ctx.first(Payer)
        return None if payer is None else {"patient_id": p.id, "payer_id": payer.id, "member_id": "XQZ4410291"}
    return None


@service.tool(intent="set the patient's insurance", write=True, example=_example_patient)
def set_insurance(
    ctx: Ctx,
    patient_id: PatientId,
    payer_id: PayerId,
    member_id: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9]{6,20}$")],
) -> Patient:
    """Record a patient's primary payer and member id (claims already made keep their payer).

    Args:
        patient_id: The patient.
        payer_id: The payer.
        member_id: The member id on the insurance card.
    """
    patient = ctx.get(Patient, patient_id, field="patient_id")
    ctx.get(Payer, payer_id, field="payer_id")
    other = ctx.first(Patient, payer_id=payer_id, member_id=member_id)
    if other is not None and other.id != patient.id:
        raise Conflict(f"member {member_id} is patient {other.id}", field="member_id", hint="check the insurance card")
    return ctx.update(patient, payer_id=payer_id, member_id=member_id)


# -- seed -------------------------------------------------------------------------------------

PAYERS = (
    ("Blue Meridian PPO", "BMPPO", 180, 180),
    ("Medicare Part B", "MCRPB", 365, 120),
    ("Unity Health Plan", "UNITY", 90, 60),
    ("State Medicaid", "MCAID", 365, 90),
)
VISITS: tuple[tuple[tuple[str, ...], tuple[tuple[str, tuple[str, ...], int], ...]], ...] = (
    (("E11.9", "I10"), (("99214", (), 18500), ("83036", (), 4200))),
    (("J06.9",), (("99213", (), 12500),)),
    (("M54.50",), (("99213", ("25",), 12500), ("20610", (), 21000))),
    (("Z00.00",), (("99396", (), 23000), ("36415", (), 1500))),
)
FLOW: tuple[ClaimStatus, ...] = (
    "draft",
    "ready",
    "submitted",
    "accepted",
    "rejected",
    "paid",
    "paid",
    "denied",
    "appealed",
    "draft",
    "paid",
    "void",
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Payers, the practice's providers, patients from the population, claims in every status with their money trail."""
    pop = s.population
    made_payers = [s.create(Payer, name=n, payer_code=c, timely_filing_days=t, appeal_days=a) for n, c, t, a in PAYERS]
    provs = [s.create(Provider, name=p.name, npi=provider_npi(i)) for i, (p, _) in enumerate(clinicians(pop))]
    today = s.now.date()
    pats = []
    for k, p in enumerate(pop.consumers[:14]):
        payer = made_payers[k % 4] if k != 13 else None
        pats.append(
            s.create(
                Patient,
                name=p.name,
                email=p.email,
                birth_date=p.birth_date,
                payer_id=payer.id if payer else None,
                member_id=f"M{k:02d}{p.key[1:].upper()}X" if payer else None,
            )
        )
    for k, status in enumerate(FLOW):
        pat = pats[k % 13]
        dx, svc = VISITS[k % 4]
        days = 400 if k == 9 else 5 + 4 * k
        claim = s.create(
            Claim,
            patient_id=pat.id,
            payer_id=pat.payer_id,
            provider_id=provs[k % len(provs)].id,
            service_date=today - dt.timedelta(days=days),
            diagnosis_codes=dx,
            created_at=s.ago(days=days - 1),
        )
        total = 0
        for cpt, mods, charge in svc:
            s.create(Line, claim_id=claim.id, cpt=cpt, modifiers=mods, charge_cents=charge, created_at=claim.created_at)
            total += charge
        changes: dict[str, Any] = {"status": status, "total_charge_cents": total}
        if status not in ("draft", "ready", "void"):
            changes["submitted_at"] = s.ago(days=days - 2)
        if status == "rejected":
            changes["rejection_reason"] = "Subscriber id not found."
        if status == "paid":
            paid, pr = total * 6 // 10, total // 10 if k != 10 else 0
            s.create(
                Remittance,
                claim_id=claim.id,
                paid_cents=paid,
                contractual_cents=total - paid - pr,
                patient_responsibility_cents=pr,
                check_number=f"EFT{5000 + k}",
                received_on=today - dt.timedelta(days=2),
            )
            changes |= {"paid_cents": paid, "patient_responsibility_cents": pr}
        if status in ("denied", "appealed"):
            s.create(
                Remittance,
                claim_id=claim.id,
                paid_cents=0,
                denial_code="50",
                check_number=f"EFT{5000 + k}",
                received_on=today - dt.timedelta(days=10),
            )
            changes["denied_on"] = today - dt.timedelta(days=10)
        if status == "appealed":
            s.create(Appeal, claim_id=claim.id, level=1, reason="Records show medical necessity.")
        s.update(claim, **changes)
    first_paid = next(c for c in s.records(Claim) if c.status == "paid")
    s.create(
        Statement,
        patient_id=first_paid.patient_id,
        claim_ids=(first_paid.id,),
        amount_cents=first_paid.patient_responsibility_cents,
    )
