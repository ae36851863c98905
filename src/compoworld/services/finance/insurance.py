"""Bulwark Claims: insurance policies and coverages, claims, exposures, reserves and claim payments.

Modeled on the Guidewire ClaimCenter Cloud API v1 (Policies and Coverages,
Claims, Exposures, Reserves, Payments/Checks, Users with authority limits): a
claim is opened only for a loss inside the policy period of an in-force
policy; an exposure is opened against one coverage of the claim's policy that
fits the cause of loss, once per coverage; reserves never exceed what the
coverage can still pay; payments need an assigned adjuster, draw down the
open reserve, stay within the adjuster's authority and the coverage limit
less its deductible; a final payment closes its exposure; a claim closes only
when nothing is left open on it.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Email,
    IdOf,
    InvoiceNumber,
    PersonName,
    Phone,
    PostalAddress,
    Text,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "insurance",
    title="Bulwark Claims",
    category="insurance",
    modeled_on="Guidewire ClaimCenter Cloud API v1 (Policy, Coverage, Claim, Exposure, Reserve, Payment/Check, "
    "User authority limits)",
    description="Property and casualty claims handling: policies with their coverages, limits and deductibles, "
    "first notice of loss, adjuster assignment, exposures per coverage, reserves, claim payments to claimants and "
    "repair shops, and claim closure.",
)

PolicyId = Annotated[str, IdOf("insurance.policy")]
CoverageId = Annotated[str, IdOf("insurance.coverage")]
AdjusterId = Annotated[str, IdOf("insurance.adjuster")]
ClaimId = Annotated[str, IdOf("insurance.claim")]
ExposureId = Annotated[str, IdOf("insurance.exposure")]
PaymentId = Annotated[str, IdOf("insurance.claim_payment")]

PolicyNumber = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}-[0-9]{6}$")]
Product = Literal["personal_auto", "homeowners", "commercial_property", "general_liability"]
CoverageType = Literal[
    "collision",
    "comprehensive",
    "bodily_injury_liability",
    "property_damage_liability",
    "dwelling",
    "personal_property",
    "loss_of_use",
    "building",
    "business_interruption",
    "general_liability",
]
LossCause = Literal["collision", "theft", "fire", "water_damage", "wind", "vandalism", "liability"]
COMPATIBLE: dict[str, frozenset[str]] = {
    "collision": frozenset({"collision", "bodily_injury_liability", "property_damage_liability"}),
    "theft": frozenset({"comprehensive", "personal_property", "building"}),
    "fire": frozenset(
        {"comprehensive", "dwelling", "personal_property", "loss_of_use", "building", "business_interruption"}
    ),
    "water_damage": frozenset({"dwelling", "personal_property", "loss_of_use", "building", "business_interruption"}),
    "wind": frozenset({"comprehensive", "dwelling", "building", "business_interruption"}),
    "vandalism": frozenset({"comprehensive", "dwelling", "building"}),
    "liability": frozenset({"bodily_injury_liability", "property_damage_liability", "general_liability"}),
}
"""Which coverages can respond to each cause of loss."""


class Policy(Record):
    """An insurance policy (a copy of the policy system's record)."""

    id: PolicyId
    policy_number: PolicyNumber
    """Policy number; unique."""
    product: Product
    """personal_auto, homeowners, commercial_property or general_liability."""
    insured_name: PersonName
    """The insured person, or the contact of an insured business."""
    insured_email: Email
    """The insured's e-mail."""
    insured_phone: Phone | None = None
    """The insured's phone."""
    insured_company: CompanyName | None = None
    """The insured business, for commercial policies."""
    risk_address: PostalAddress
    """Where the insured property or business is."""
    effective_date: Date
    """First day of cover."""
    expiration_date: Date
    """Last day of cover."""
    status: Literal["in_force", "cancelled"] = "in_force"
    """in_force or cancelled."""
    cancellation_date: Date | None = None
    """Last day of cover of a cancelled policy."""
    premium: Cents
    """Annual premium in cents."""
    currency: Currency
    """Currency."""


class Coverage(Record):
    """One coverage of a policy."""

    id: CoverageId
    policy_id: PolicyId
    """The policy."""
    type: CoverageType
    """What is covered."""
    limit: Cents
    """Most the coverage pays per claim, in cents."""
    deductible: Cents = 0
    """Borne by the insured per claim, in cents."""


class Adjuster(Record):
    """A claims adjuster."""

    id: AdjusterId
    name: PersonName
    """Full name."""
    email: Email
    """Work e-mail; unique."""
    authority_limit: Cents
    """Largest single payment they may issue, in cents."""
    max_open_claims: Annotated[int, Field(ge=1, le=200)] = 25
    """Most open claims they may hold."""
    active: bool = True
    """Inactive adjusters take no claims."""


class Claim(Record):
    """A reported loss under a policy."""

    id: ClaimId
    claim_number: Annotated[str, Generated("sequence", "CLM-{n:06d}")]
    """Claim number."""
    policy_id: PolicyId
    """The policy."""
    policy_number: PolicyNumber
    """Its number."""
    loss_date: Date
    """When the loss happened."""
    loss_cause: LossCause
    """Cause of loss."""
    description: Text
    """What happened."""
    loss_location: PostalAddress
    """Where it happened."""
    claimant_name: PersonName
    """Who claims."""
    claimant_email: Email
    """The claimant's e-mail."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    adjuster_id: AdjusterId | None = None
    """The assigned adjuster."""
    closed_reason: Text | None = None
    """Why it was closed."""
    reported_at: Annotated[DateTime, CREATED]
    """When it was reported (first notice of loss)."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Exposure(Record):
    """A claim's demand against one coverage, with its reserve."""

    id: ExposureId
    claim_id: ClaimId
    """The claim."""
    coverage_id: CoverageId
    """The coverage."""
    coverage_type: CoverageType
    """The coverage's type."""
    status: Literal["open", "closed"] = "open"
    """open or closed."""
    reserve: Cents = 0
    """Open reserve in cents: what is expected to be paid still."""
    paid: Cents = 0
    """Paid so far in cents."""
    created_at: Annotated[DateTime, CREATED]
    """When it was opened."""


class ClaimPayment(Record):
    """A payment on an exposure."""

    id: PaymentId
    claim_id: ClaimId
    """The claim."""
    exposure_id: ExposureId
    """The exposure it is charged to."""
    amount: Cents
    """Amount in cents."""
    payee_person: PersonName | None = None
    """A person paid (the claimant)."""
    payee_company: CompanyName | None = None
    """A business paid (a repair shop)."""
    payee_email: Email | None = None
    """Where the remittance advice is sent."""
    invoice_number: InvoiceNumber | None = None
    """The payee's invoice it settles."""
    method: Literal["check", "eft"] = "eft"
    """check or eft."""
    payment_type: Literal["partial", "final"] = "partial"
    """A final payment closes the exposure."""
    status: Literal["issued", "voided"] = "issued"
    """issued or voided."""
    issued_by: AdjusterId
    """The adjuster who issued it."""
    void_reason: Text | None = None
    """Why it was voided."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was issued."""


# -- rules ------------------------------------------------------------------------------------


def _open_claim(ctx: Ctx, claim_id: str, field: str) -> Claim:
    claim = ctx.get(Claim, claim_id, field=field)
    if claim.status != "open":
        raise RuleViolation(
            f"claim {claim.claim_number} is closed", field=field, hint="reopen it with insurance__reopen_claim first"
        )
    return claim


def _open_exposure(ctx: Ctx, exposure_id: str, field: str) -> tuple[Exposure, Claim, Coverage]:
    exp = ctx.get(Exposure, exposure_id, field=field)
    claim = _open_claim(ctx, exp.claim_id, field)
    if exp.status != "open":
        raise RuleViolation("the exposure is closed", field=field, hint="open a new exposure or reopen the claim")
    return exp, claim, ctx.get(Coverage, exp.coverage_id)


def _headroom(cov: Coverage, paid: int) -> int:
    """What the coverage can still pay on one claim."""
    return max(0, cov.limit - cov.deductible - paid)


def _guard_claim(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status == "closed":
        raise RuleViolation(
            f"claim {old.claim_number} is closed", field="claim_id", hint="reopen it with insurance__reopen_claim first"
        )


def _guard_adjuster(ctx: Ctx, new: Any, old: Any) -> None:
    if old.active and not new.active:
        held = ctx.where(Claim, adjuster_id=old.id, status="open")
        if held:
            raise RuleViolation(
                f"{old.name} still holds {len(held)} open claim(s)",
                field="active",
                hint="reassign them with insurance__assign_claim first",
            )


policies = service.resource(
    Policy,
    name="policy",
    plural="policies",
    prefix="pol",
    create=False,
    filters=("policy_number", "product", "status", "insured_email", "insured_company"),
    search=("policy_number", "insured_name", "insured_company"),
    delete=False,
    title="insurance policy",
)
coverages = service.resource(
    Coverage,
    name="coverage",
    plural="coverages",
    prefix="cov",
    create=False,
    get=False,
    filters=("policy_id", "type"),
    delete=False,
)
adjusters = service.resource(
    Adjuster,
    name="adjuster",
    plural="adjusters",
    prefix="adj",
    create=False,
    filters=("active", "email"),
    search=("name", "email"),
    update=("authority_limit", "max_open_claims", "active"),
    delete=False,
    guard_update=_guard_adjuster,
    title="claims adjuster",
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    filters=("policy_id", "policy_number", "status", "adjuster_id", "loss_cause", "claimant_email", "claim_number"),
    search=("claim_number", "description", "claimant_name"),
    update=("description", "claimant_email"),
    delete=False,
    guard_update=_guard_claim,
    title="insurance claim",
)
exposures = service.resource(
    Exposure,
    name="exposure",
    plural="exposures",
    prefix="exp",
    create=False,
    filters=("claim_id", "coverage_id", "status", "coverage_type"),
    delete=False,
)
payments = service.resource(
    ClaimPayment,
    name="claim_payment",
    plural="claim_payments",
    prefix="pay",
    create=False,
    filters=("claim_id", "exposure_id", "status", "issued_by", "payee_email", "invoice_number"),
    search=("payee_person", "payee_company"),
    delete=False,
    title="claim payment",
)


# -- examples ---------------------------------------------------------------------------------


def _example_open(ctx: Ctx) -> dict[str, Any] | None:
    today = ctx.today()
    for p in ctx.where(Policy, status="in_force", product="homeowners"):
        if p.effective_date <= today - dt.timedelta(days=3) <= p.expiration_date:
            return {
                "policy_number": p.policy_number,
                "loss_date": (today - dt.timedelta(days=3)).isoformat(),
                "loss_cause": "water_damage",
                "description": "A pipe burst in the kitchen.",
                "claimant_name": p.insured_name,
                "claimant_email": p.insured_email,
            }
    return None


def _free_adjuster(ctx: Ctx) -> Adjuster | None:
    for a in ctx.where(Adjuster, active=True):
        if len(ctx.where(Claim, adjuster_id=a.id, status="open")) < a.max_open_claims:
            return a
    return None


def _example_assign(ctx: Ctx) -> dict[str, Any] | None:
    claim = next((c for c in ctx.where(Claim, status="open") if c.adjuster_id is None), None)
    adj = _free_adjuster(ctx)
    return None if claim is None or adj is None else {"claim_id": claim.id, "adjuster_id": adj.id}


def _example_exposure(ctx: Ctx) -> dict[str, Any] | None:
    for claim in ctx.where(Claim, status="open"):
        taken = {e.coverage_id for e in ctx.where(Exposure, claim_id=claim.id)}
        for cov in ctx.where(Coverage, policy_id=claim.policy_id):
            if cov.id not in taken and cov.type in COMPATIBLE[claim.loss_cause]:
                return {"claim_id": claim.id, "coverage_id": cov.id, "reserve": min(1_000_00, _headroom(cov, 0))}
    return None


def _example_reserve(ctx: Ctx) -> dict[str, Any] | None:
    for exp in ctx.where(Exposure, status="open"):
        claim = ctx.get(Claim, exp.claim_id)
        if claim.status == "open":
            cov = ctx.get(Coverage, exp.coverage_id)
            return {"exposure_id": exp.id, "reserve": min(exp.reserve + 500_00, _headroom(cov, exp.paid))}
    return None


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for exp in ctx.where(Exposure, status="open"):
        claim = ctx.get(Claim, exp.claim_id)
        if claim.status == "open" and claim.adjuster_id and exp.reserve >= 100_00:
            return {
                "exposure_id": exp.id,
                "amount": 100_00,
                "payee_person": claim.claimant_name,
                "payee_email": claim.claimant_email,
            }
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="report the loss and open a claim", write=True, example=_example_open)
def open_claim(
    ctx: Ctx,
    policy_number: PolicyNumber,
    loss_date: Date,
    loss_cause: LossCause,
    description: Text,
    claimant_name: PersonName,
    claimant_email: Email,
    loss_location: PostalAddress | None = None,
) -> Claim:
    """Open a claim (first notice of loss) on a policy that covered the loss date.

    The loss must have happened within the policy period, before any
    cancellation, and not in the future.

    Args:
        policy_number: The policy number.
        loss_date: When the loss happened.
        loss_cause: collision, theft, fire, water_damage, wind, vandalism or liability.
        description: What happened.
        claimant_name: Who claims.
        claimant_email: The claimant's e-mail.
        loss_location: Where it happened; default the policy's risk address.
    """
    policy = ctx.first(Policy, policy_number=policy_number)
    if policy is None:
        raise NotFound(
            f"no policy numbered {policy_number}",
            field="policy_number",
            hint="search policies by insured name with insurance__list_policies",
        )
    if loss_date > ctx.today():
        raise RuleViolation("the loss date is in the future", field="loss_date", hint="give the day the loss happened")
    last = (
        policy.cancellation_date
        if policy.status == "cancelled" and policy.cancellation_date
        else policy.expiration_date
    )
    if not policy.effective_date <= loss_date <= last:
        raise RuleViolation(
            f"policy {policy.policy_number} covered {policy.effective_date} to {last}, not {loss_date}",
            field="loss_date",
            hint="a loss outside the policy period is not covered; check the policy or the date",
        )
    if not description.strip():
        raise RuleViolation("describe the loss", field="description", hint="say what happened")
    return ctx.create(
        Claim,
        policy_id=policy.id,
        policy_number=policy.policy_number,
        loss_date=loss_date,
        loss_cause=loss_cause,
        description=description,
        loss_location=loss_location or policy.risk_address,
        claimant_name=claimant_name,
        claimant_email=claimant_email,
    )


@service.tool(intent="assign the claim to an adjuster", write=True, example=_example_assign)
def assign_claim(ctx: Ctx, claim_id: ClaimId, adjuster_id: AdjusterId) -> Claim:
    """Assign an open claim to an active adjuster who holds fewer open claims than their maximum.

    Args:
        claim_id: The claim.
        adjuster_id: The adjuster.
    """
    claim = _open_claim(ctx, claim_id, "claim_id")
    adj = ctx.get(Adjuster, adjuster_id, field="adjuster_id")
    if not adj.active:
        raise RuleViolation(f"{adj.name} is inactive", field="adjuster_id", hint="pick an active adjuster")
    if claim.adjuster_id == adj.id:
        raise Conflict(f"the claim is already assigned to {adj.name}", field="adjuster_id", hint="nothing to do")
    held = len(ctx.where(Claim, adjuster_id=adj.id, status="open"))
    if held >= adj.max_open_claims:
        raise RuleViolation(
            f"{adj.name} already holds {held} open claims (maximum {adj.max_open_claims})",
            field="adjuster_id",
            hint="pick an adjuster with capacity (insurance__list_adjusters)",
        )
    return ctx.update(claim, adjuster_id=adj.id)


@service.tool(intent="open an exposure on the coverage", write=True, example=_example_exposure)
def add_exposure(ctx: Ctx, claim_id: ClaimId, coverage_id: CoverageId, reserve: Cents = 0) -> Exposure:
    """Open an exposure of a claim against a coverage of its policy, with an initial reserve.

    The coverage must respond to the claim's cause of loss, each coverage is
    claimed once per claim, and the reserve cannot exceed the coverage limit
    less its deductible.

    Args:
        claim_id: The claim.
        coverage_id: A coverage of the claim's policy.
        reserve: Initial reserve in cents.
    """
    claim = _open_claim(ctx, claim_id, "claim_id")
    cov = ctx.get(Coverage, coverage_id, field="coverage_id")
    if cov.policy_id != claim.policy_id:
        raise RuleViolation(
            f"the coverage is not on policy {claim.policy_number}",
            field="coverage_id",
            hint="list the policy's coverages with insurance__list_coverages",
        )
    if cov.type not in COMPATIBLE[claim.loss_cause]:
        raise RuleViolation(
            f"{cov.type.replace('_', ' ')} does not cover {claim.loss_cause.replace('_', ' ')} losses",
            field="coverage_id",
            hint=f"use one of: {', '.join(sorted(COMPATIBLE[claim.loss_cause]))}",
        )
    if ctx.first(Exposure, claim_id=claim.id, coverage_id=cov.id) is not None:
        raise Conflict(
            "the claim already has an exposure on this coverage",
            field="coverage_id",
            hint="change that exposure's reserve with insurance__set_reserve",
        )
    if reserve > _headroom(cov, 0):
        raise RuleViolation(
            f"the reserve exceeds what the coverage can pay ({_headroom(cov, 0)})",
            field="reserve",
            hint="reserve at most the limit less the deductible",
        )
    return ctx.create(Exposure, claim_id=claim.id, coverage_id=cov.id, coverage_type=cov.type, reserve=reserve)


@service.tool(intent="set the exposure's reserve", write=True, idempotent=True, example=_example_reserve)
def set_reserve(ctx: Ctx, exposure_id: ExposureId, reserve: Cents) -> Exposure:
    """Set the open reserve of an exposure: what is still expected to be paid on it.

    The reserve plus what was already paid cannot exceed the coverage limit
    less its deductible.

    Args:
        exposure_id: The open exposure.
        reserve: New open reserve in cents.
    """
    exp, _, cov = _open_exposure(ctx, exposure_id, "exposure_id")
    room = _headroom(cov, exp.paid)
    if reserve > room:
        raise RuleViolation(
            f"{exp.paid} was already paid; the coverage can pay {room} more",
            field="reserve",
            hint=f"reserve at most {room}",
        )
    return ctx.update(exp, reserve=reserve)


@service.tool(intent="pay the claim", write=True, example=_example_pay)
def issue_payment(
    ctx: Ctx,
    exposure_id: ExposureId,
    amount: Cents,
    payee_person: PersonName | None = None,
    payee_company: CompanyName | None = None,
    payee_email: Email | None = None,
    invoice_number: InvoiceNumber | None = None,
    method: Literal["check", "eft"] = "eft",
    final: bool = False,
) -> ClaimPayment:
    """Issue a payment on an exposure, drawn from its open reserve; a final payment closes the exposure.

    The claim needs an assigned adjuster, who issues the payment and whose
    authority limit it cannot exceed; the amount cannot exceed the open
    reserve. A payee (person or company) is required.

    Args:
        exposure_id: The open exposure.
        amount: Amount in cents.
        payee_person: A person paid (the claimant).
        payee_company: A business paid (a repair shop).
        payee_email: Where the remittance advice goes.
        invoice_number: The payee's invoice being paid.
        method: check or eft.
        final: This is the last payment: the exposure closes and its remaining reserve is released.
    """
    exp, claim, _ = _open_exposure(ctx, exposure_id, "exposure_id")
    if claim.adjuster_id is None:
        raise RuleViolation(
            f"claim {claim.claim_number} has no adjuster",
            field="exposure_id",
            hint="assign one with insurance__assign_claim first",
        )
    if payee_person is None and payee_company is None:
        raise RuleViolation("a payment needs a payee", field="payee_person", hint="give a person or a company")
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="pay at least one cent")
    if amount > exp.reserve:
        raise RuleViolation(
            f"{amount} exceeds the open reserve of {exp.reserve}",
            field="amount",
            hint="raise the reserve with insurance__set_reserve first",
        )
    adj = ctx.get(Adjuster, claim.adjuster_id)
    if amount > adj.authority_limit:
        raise RuleViolation(
            f"{amount} exceeds {adj.name}'s payment authority of {adj.authority_limit}",
            field="amount",
            hint="split the payment or have an adjuster with more authority take the claim",
        )
    if invoice_number is not None:
        other = ctx.first(ClaimPayment, claim_id=claim.id, invoice_number=invoice_number, status="issued")
        if other is not None:
            raise Conflict(
                f"invoice {invoice_number} was already paid ({other.id})",
                field="invoice_number",
                hint="each invoice is paid once",
            )
    ctx.update(
        exp,
        paid=exp.paid + amount,
        reserve=0 if final else exp.reserve - amount,
        status="closed" if final else "open",
    )
    return ctx.create(
        ClaimPayment,
        claim_id=claim.id,
        exposure_id=exp.id,
        amount=amount,
        payee_person=payee_person,
        payee_company=payee_company,
        payee_email=payee_email,
        invoice_number=invoice_number,
        method=method,
        payment_type="final" if final else "partial",
        issued_by=adj.id,
    )


@service.tool(
    intent="void the claim payment",
    write=True,
    destructive=True,
    example=first_example(
        ClaimPayment,
        "claim_payment_id",
        where={"status": "issued"},
        match=lambda ctx, p: ctx.get(Claim, p.claim_id).status == "open",
        reason="Check lost in the mail",
    ),
)
def void_payment(ctx: Ctx, claim_payment_id: PaymentId, reason: Text) -> ClaimPayment:
    """Void an issued payment of an open claim: its amount returns to the exposure's reserve (reopening it).

    Args:
        claim_payment_id: The payment.
        reason: Why it is voided.
    """
    pay = ctx.get(ClaimPayment, claim_payment_id, field="claim_payment_id")
    if pay.status != "issued":
        raise RuleViolation("the payment is already voided", field="claim_payment_id", hint="nothing to do")
    _open_claim(ctx, pay.claim_id, "claim_payment_id")
    if not reason.strip():
        raise RuleViolation("voiding needs a reason", field="reason", hint="say why")
    exp = ctx.get(Exposure, pay.exposure_id)
    ctx.update(exp, paid=max(0, exp.paid - pay.amount), reserve=exp.reserve + pay.amount, status="open")
    return ctx.update(pay, status="voided", void_reason=reason.strip())


@service.tool(
    intent="close the exposure",
    write=True,
    example=first_example(
        Exposure,
        "exposure_id",
        where={"status": "open"},
        match=lambda ctx, e: ctx.get(Claim, e.claim_id).status == "open",
    ),
)
def close_exposure(ctx: Ctx, exposure_id: ExposureId) -> Exposure:
    """Close an open exposure; its remaining reserve is released.

    Args:
        exposure_id: The exposure.
    """
    exp, _, _ = _open_exposure(ctx, exposure_id, "exposure_id")
    return ctx.update(exp, status="closed", reserve=0)


@service.tool(
    intent="close the claim",
    write=True,
    example=first_example(
        Claim,
        "claim_id",
        where={"status": "open"},
        match=lambda ctx, c: all(e.status == "closed" for e in ctx.where(Exposure, claim_id=c.id)),
        reason="Settled",
    ),
)
def close_claim(ctx: Ctx, claim_id: ClaimId, reason: Text) -> Claim:
    """Close an open claim whose exposures are all closed.

    Args:
        claim_id: The claim.
        reason: Why (e.g. settled, withdrawn, denied).
    """
    claim = _open_claim(ctx, claim_id, "claim_id")
    still = [e for e in ctx.where(Exposure, claim_id=claim.id) if e.status == "open"]
    if still:
        raise RuleViolation(
            f"{len(still)} exposure(s) of claim {claim.claim_number} are still open",
            field="claim_id",
            hint="pay them finally or close them with insurance__close_exposure first",
        )
    if not reason.strip():
        raise RuleViolation("closing needs a reason", field="reason", hint="e.g. settled, withdrawn, denied")
    return ctx.update(claim, status="closed", closed_reason=reason.strip())


@service.tool(
    intent="reopen the closed claim",
    write=True,
    example=first_example(Claim, "claim_id", where={"status": "closed"}, reason="Supplemental damage found"),
)
def reopen_claim(ctx: Ctx, claim_id: ClaimId, reason: Text) -> Claim:
    """Reopen a closed claim (e.g. supplemental damage); its exposures stay closed until new ones are opened.

    Args:
        claim_id: The closed claim.
        reason: Why it is reopened.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "closed":
        raise RuleViolation(f"claim {claim.claim_number} is open", field="claim_id", hint="nothing to reopen")
    if not reason.strip():
        raise RuleViolation("reopening needs a reason", field="reason", hint="say why")
    return ctx.update(claim, status="open", closed_reason=None, description=f"{claim.description}\nReopened: {reason}")


class ExposureFinancials(BaseModel):
    """Money on one exposure."""

    exposure_id: ExposureId = Field(description="The exposure.")
    coverage_type: CoverageType = Field(description="The coverage.")
    limit: Cents = Field(description="Coverage limit in cents.")
    deductible: Cents = Field(description="Deductible in cents.")
    reserve: Cents = Field(description="Open reserve in cents.")
    paid: Cents = Field(description="Paid in cents.")
    incurred: Cents = Field(description="Paid plus open reserve in cents.")
    remaining: Cents = Field(description="What the coverage can still pay, in cents.")


class ClaimFinancials(BaseModel):
    """Money on a claim."""

    claim_id: ClaimId = Field(description="The claim.")
    claim_number: str = Field(description="Its number.")
    exposures: list[ExposureFinancials] = Field(description="Per exposure.")
    total_reserve: Cents = Field(description="Open reserves in cents.")
    total_paid: Cents = Field(description="Paid in cents.")
    total_incurred: Cents = Field(description="Paid plus open reserves in cents.")


@service.tool(
    intent="see what has been reserved and paid on the claim",
    example=first_example(Exposure, fields={"claim_id": "claim_id"}),
)
def claim_financials(ctx: Ctx, claim_id: ClaimId) -> ClaimFinancials:
    """Sum a claim's reserves and payments per exposure.

    Args:
        claim_id: The claim.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    rows = []
    for exp in ctx.where(Exposure, claim_id=claim.id):
        cov = ctx.get(Coverage, exp.coverage_id)
        rows.append(
            ExposureFinancials(
                exposure_id=exp.id,
                coverage_type=exp.coverage_type,
                limit=cov.limit,
                deductible=cov.deductible,
                reserve=exp.reserve,
                paid=exp.paid,
                incurred=exp.paid + exp.reserve,
                remaining=_headroom(cov, exp.paid),
            )
        )
    return ClaimFinancials(
        claim_id=claim.id,
        claim_number=claim.claim_number,
        exposures=rows,
        total_reserve=sum(r.reserve for r in rows),
        total_paid=sum(r.paid for r in rows),
        total_incurred=sum(r.incurred for r in rows),
    )


# -- seed -------------------------------------------------------------------------------------

COVERAGES: dict[str, tuple[tuple[CoverageType, int, int], ...]] = {
    "personal_auto": (
        ("collision", 25_000_00, 500_00),
        ("comprehensive", 25_000_00, 250_00),
        ("bodily_injury_liability", 100_000_00, 0),
        ("property_damage_liability", 50_000_00, 0),
    ),
    "homeowners": (
        ("dwelling", 300_000_00, 1_000_00),
        ("personal_property", 100_000_00, 1_000_00),
        ("loss_of_use", 30_000_00, 0),
    ),
    "commercial_property": (("building", 1_000_000_00, 5_000_00), ("business_interruption", 250_000_00, 2_500_00)),
    "general_liability": (("general_liability", 1_000_000_00, 0),),
}
CAUSES: dict[str, tuple[LossCause, ...]] = {
    "personal_auto": ("collision", "theft", "vandalism", "wind"),
    "homeowners": ("water_damage", "fire", "theft", "wind"),
    "commercial_property": ("fire", "water_damage", "wind", "theft"),
    "general_liability": ("liability",),
}
PREFIX = {"personal_auto": "PA", "homeowners": "HO", "commercial_property": "CP", "general_liability": "GL"}
STORIES: dict[str, str] = {
    "collision": "Rear-ended at a junction; bumper and tailgate damaged.",
    "theft": "Items stolen after a break-in.",
    "vandalism": "Windows smashed and paint scratched overnight.",
    "wind": "Storm damage to the roof and fence.",
    "water_damage": "A burst pipe flooded the ground floor.",
    "fire": "A kitchen fire damaged two rooms.",
    "liability": "A visitor slipped on the premises and was injured.",
}
SHOPS = ("Precision Auto Body", "Allied Restoration", "BrightBuild Contractors", "Metro Glass Repair")


def _seed_adjusters(s: SeedContext) -> list[Adjuster]:
    """Operations and support staff as adjusters; returns the active ones."""
    pop = s.population
    staff = pop.staff("Operations", "Support", fallback=6)
    adjusters_: list[Adjuster] = []
    for i, p in enumerate(staff[:8]):
        adjusters_.append(
            s.create(
                Adjuster,
                name=p.name,
                email=p.email,
                authority_limit=(25_000_00, 10_000_00, 50_000_00, 5_000_00)[i % 4],
                max_open_claims=(12, 8, 15, 6)[i % 4],
                active=i != 7,
            )
        )
    return [a for a in adjusters_ if a.active]


def _seed_policies(s: SeedContext) -> list[tuple[Policy, list[Coverage]]]:
    """Auto and home policies for consumers, property and liability policies for customer companies."""
    pop = s.population
    today = s.now.date()
    policies_: list[tuple[Policy, list[Coverage]]] = []
    counter = 100_000
    holders: list[tuple[Any, Product, Any]] = []
    for i, person in enumerate(pop.consumers[:40]):
        holders.append((person, "personal_auto" if i % 2 == 0 else "homeowners", None))
    for i, company in enumerate(pop.customers[:14]):
        contact = pop.first_contact(company)
        if contact is not None:
            holders.append((contact, "commercial_property" if i % 3 else "general_liability", company))
    for i, (person, product, company) in enumerate(holders):
        counter += 7
        start = today - dt.timedelta(days=30 + (i * 23) % 330)
        cancelled = i % 19 == 18
        policy = s.create(
            Policy,
            policy_number=f"{PREFIX[product]}-{counter:06d}",
            product=product,
            insured_name=person.name,
            insured_email=person.email,
            insured_phone=person.phone,
            insured_company=company.name if company else None,
            risk_address=company.address if company else person.address,
            effective_date=start,
            expiration_date=start + dt.timedelta(days=364),
            status="cancelled" if cancelled else "in_force",
            cancellation_date=start + dt.timedelta(days=20) if cancelled else None,
            premium=s.rng.randint(600, 9_000) * 100 * (8 if company else 1),
            currency=pop.home.place.currency,
        )
        covs = [
            s.create(Coverage, policy_id=policy.id, type=t, limit=limit, deductible=ded)
            for t, limit, ded in COVERAGES[product]
        ]
        policies_.append((policy, covs))
    return policies_


def _seed_exposures(
    s: SeedContext, k: int, claim: Claim, policy: Policy, covs: list[Coverage], payer: Adjuster
) -> None:
    """Up to two exposures of the k-th claim on the coverages its cause touches, with the payments made so far."""
    closed = claim.status == "closed"
    for j, cov in enumerate(c for c in covs if c.type in COMPATIBLE[claim.loss_cause]):
        if j > 1:
            break
        room = cov.limit - cov.deductible
        estimate = min(room, s.rng.randint(8, 120) * 100_00 // (1 if policy.insured_company else 4))
        paid = 0
        exp = s.create(
            Exposure,
            claim_id=claim.id,
            coverage_id=cov.id,
            coverage_type=cov.type,
            reserve=estimate,
            created_at=claim.reported_at + dt.timedelta(hours=3),
        )
        n_pay = 2 if closed else (k + j) % 3
        for m in range(n_pay):
            final = closed and m == n_pay - 1
            amount = min(payer.authority_limit, estimate - paid if final else estimate // 3)
            if amount <= 0:
                break
            shop = j == 0 and m == 0 and claim.loss_cause != "liability"
            s.create(
                ClaimPayment,
                claim_id=claim.id,
                exposure_id=exp.id,
                amount=amount,
                payee_person=None if shop else policy.insured_name,
                payee_company=SHOPS[k % len(SHOPS)] if shop else None,
                payee_email=None if shop else policy.insured_email,
                invoice_number=f"RS-{4000 + k * 10 + m}" if shop else None,
                method="check" if m % 2 else "eft",
                payment_type="final" if final else "partial",
                issued_by=payer.id,
                issued_at=claim.reported_at + dt.timedelta(days=2 + m * 5),
            )
            paid += amount
        s.update(
            exp,
            paid=paid,
            reserve=0 if closed else max(0, estimate - paid),
            status="closed" if closed else "open",
        )


def _seed_claims(s: SeedContext, policies_: list[tuple[Policy, list[Coverage]]], working: list[Adjuster]) -> None:
    """Claims on two policies in three: some unassigned, some closed, none beyond an adjuster's open-claim limit."""
    today = s.now.date()
    load = {a.id: 0 for a in working}
    for k, (policy, covs) in enumerate(policies_):
        if k % 3 == 2 or policy.status == "cancelled":
            continue
        cause = CAUSES[policy.product][k % len(CAUSES[policy.product])]
        loss = max(policy.effective_date, today - dt.timedelta(days=2 + (k * 11) % 60))
        closed = k % 5 == 4
        adj = None if k % 7 == 3 else working[k % len(working)]
        if adj is not None and load[adj.id] >= adj.max_open_claims - 1:
            adj = None
        if adj is not None and not closed:
            load[adj.id] += 1
        claim = s.create(
            Claim,
            policy_id=policy.id,
            policy_number=policy.policy_number,
            loss_date=loss,
            loss_cause=cause,
            description=STORIES[cause],
            loss_location=policy.risk_address,
            claimant_name=policy.insured_name,
            claimant_email=policy.insured_email,
            status="closed" if closed else "open",
            adjuster_id=adj.id if adj else (working[0].id if closed else None),
            closed_reason="Settled" if closed else None,
            reported_at=utc_at(loss, 15) + dt.timedelta(days=1),
            updated_at=s.ago(days=1),
        )
        if adj is None and not closed:
            continue
        _seed_exposures(s, k, claim, policy, covs, adj or working[0])


@service.seeder
def seed(s: SeedContext) -> None:
    """Policies for consumers and customer companies, adjusters from the staff, claims at every stage."""
    working = _seed_adjusters(s)
    _seed_claims(s, _seed_policies(s), working)
