"""Channel Hub: partner relationship management with tiers, deal registrations and market development funds.

Modeled on the Impartner PRM REST API (objects ``Account`` (partner) with
tier and status, ``User``, ``DealRegistration`` with approval, protection
period and channel-conflict checks, ``MdfRequest`` and ``MdfClaim``) and
PartnerStack's partner tiers. Rules: only an active partner registers deals
or requests funds; a partner registers a prospect (by domain) once while its
registration is open; approving a registration gives 90 days of protection,
refused when another partner already holds an approved, unexpired
registration on the same prospect (channel conflict); a registration is
extended once by 30 days, and won or lost only once approved; funds (MDF)
are for silver partners and up, within the tier's yearly allocation less what
is committed, requested at least 14 days before the activity, approved for at
most the requested amount, and claimed once after the activity ends with
proof of performance, for at most the approved amount; terminating a partner
expires its open registrations and cancels its pending funds.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Country,
    Currency,
    Date,
    DateTime,
    Domain,
    Email,
    FileLink,
    IdOf,
    PersonName,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "partners",
    title="Channel Hub",
    category="partner_relationship",
    modeled_on="Impartner PRM REST API (Account, User, DealRegistration, MdfRequest, MdfClaim) with PartnerStack "
    "partner tiers",
    description="Partner program management: resellers, referral and technology partners in tiers, their "
    "users, the deals they register for protection with channel-conflict checks, and the market development "
    "funds they request and claim.",
)

PartnerId = Annotated[str, IdOf("partners.partner")]
UserId = Annotated[str, IdOf("partners.user")]
RegistrationId = Annotated[str, IdOf("partners.registration")]
RequestId = Annotated[str, IdOf("partners.fund_request")]
ClaimId = Annotated[str, IdOf("partners.claim")]

Tier = Literal["registered", "silver", "gold", "platinum"]
PartnerStatus = Literal["applied", "active", "suspended", "terminated"]
PartnerType = Literal["reseller", "referral", "msp", "technology"]
RegStatus = Literal["submitted", "approved", "rejected", "expired", "won", "lost"]
FundStatus = Literal["submitted", "approved", "rejected", "claimed", "cancelled"]
ClaimStatus = Literal["submitted", "approved", "rejected", "paid"]
Activity = Literal["event", "webinar", "digital_ads", "content", "training"]
OPEN_REG: tuple[RegStatus, ...] = ("submitted", "approved")
COMMITTED: tuple[FundStatus, ...] = ("submitted", "approved", "claimed")
ALLOCATION: dict[str, int] = {"registered": 0, "silver": 1_000_000, "gold": 2_500_000, "platinum": 5_000_000}
PROTECTION = dt.timedelta(days=90)
EXTENSION = dt.timedelta(days=30)
LEAD_TIME = dt.timedelta(days=14)


class Partner(Timestamped):
    """A partner company in the program."""

    id: PartnerId
    name: CompanyName
    """Partner company name."""
    domain: Domain
    """Its domain (unique)."""
    partner_type: PartnerType
    """reseller, referral, msp or technology."""
    tier: Tier = "registered"
    """registered, silver, gold or platinum."""
    status: PartnerStatus = "applied"
    """applied, active, suspended or terminated."""
    country: Country
    """Home country."""
    channel_manager_email: Email
    """The employee who manages the partner."""
    currency: Currency
    """Currency of its funds."""


class User(Timestamped):
    """A person at a partner with portal access."""

    id: UserId
    partner_id: PartnerId
    """The partner."""
    email: Email
    """Login e-mail (unique, at the partner's domain)."""
    name: PersonName
    """Full name."""
    role: Literal["admin", "sales_rep", "marketing"] = "sales_rep"
    """admin, sales_rep or marketing."""


class Registration(Timestamped):
    """A deal a partner registers for protection."""

    id: RegistrationId
    partner_id: PartnerId
    """The partner."""
    submitted_by: Email
    """The partner user who registered it."""
    prospect_company: CompanyName
    """The end customer."""
    prospect_domain: Domain
    """The end customer's domain."""
    prospect_contact_email: Email
    """The end customer's contact."""
    amount: Cents
    """Estimated deal size in minor units."""
    currency: Currency
    """Currency."""
    expected_close: Date
    """Expected close date."""
    status: RegStatus = "submitted"
    """submitted, approved, rejected, expired, won or lost."""
    reviewer_email: Email | None = None
    """The channel manager who decided it."""
    decision_note: Text | None = None
    """Why it was rejected, lost or approved with conditions."""
    protected_until: Date | None = None
    """End of the protection period of an approved registration."""
    extended: bool = False
    """Whether the protection was extended (once)."""


class FundRequest(Timestamped):
    """A market development funds (MDF) request for a marketing activity."""

    id: RequestId
    partner_id: PartnerId
    """The partner."""
    activity: Activity
    """event, webinar, digital_ads, content or training."""
    title: Title
    """The activity."""
    requested: Cents
    """Amount requested in minor units."""
    approved_amount: Cents | None = None
    """Amount approved."""
    currency: Currency
    """Currency."""
    starts_on: Date
    """When the activity starts."""
    ends_on: Date
    """When it ends."""
    status: FundStatus = "submitted"
    """submitted, approved, rejected, claimed or cancelled."""
    reviewer_email: Email | None = None
    """The employee who decided it."""


class Claim(Timestamped):
    """A claim for reimbursement of an approved MDF activity."""

    id: ClaimId
    request_id: RequestId
    """The fund request."""
    partner_id: PartnerId
    """The partner."""
    amount: Cents
    """Amount claimed."""
    proof_url: FileLink
    """Proof of performance (invoices, photos, results)."""
    status: ClaimStatus = "submitted"
    """submitted, approved, rejected or paid."""
    paid_at: DateTime | None = None
    """When it was paid."""


class FundBalance(Value):
    """A partner's MDF position for the year."""

    partner_id: PartnerId
    """The partner."""
    tier: Tier
    """Its tier."""
    allocation: Cents
    """The tier's yearly allocation."""
    committed: Cents
    """Requested or approved, not rejected or cancelled."""
    available: Cents
    """What it may still request."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not on the channel team", field=field, hint="use an employee's e-mail")


def _guard_partner(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.channel_manager_email, "channel_manager_email")
    if (
        old is not None
        and new.status == "active"
        and old.status == "applied"
        and not ctx.where(User, partner_id=new.id)
    ):
        raise RuleViolation("the partner has no users", field="partner_id", hint="invite a partner user first")
    if old is not None and new.status == "terminated" and old.status != "terminated":
        for reg in ctx.where(Registration, partner_id=new.id):
            if reg.status in OPEN_REG:
                ctx.update(reg, status="expired", decision_note="Partner terminated")
        for req in ctx.where(FundRequest, partner_id=new.id):
            if req.status in ("submitted", "approved"):
                ctx.update(req, status="cancelled")


def _guard_user(ctx: Ctx, new: Any, old: Any) -> None:
    partner = ctx.get(Partner, new.partner_id, field="partner_id")
    if new.email.split("@")[1].lower() != partner.domain:
        raise RuleViolation(f"{new.email} is not at {partner.domain}", field="email", hint="use the partner's domain")


def _active(ctx: Ctx, partner_id: str) -> Partner:
    partner = ctx.get(Partner, partner_id, field="partner_id")
    if partner.status != "active":
        raise RuleViolation(
            f"partner {partner.name!r} is {partner.status}",
            field="partner_id",
            hint="only active partners register deals and request funds",
        )
    return partner


partners = service.resource(
    Partner,
    name="partner",
    plural="partners",
    prefix="ptn",
    create=("name", "domain", "partner_type", "country", "channel_manager_email", "currency"),
    filters=("status", "tier", "partner_type", "channel_manager_email", "domain"),
    search=("name", "domain"),
    update=("tier", "partner_type", "channel_manager_email"),
    unique=("domain",),
    delete=False,
    transitions={
        "approve": Transition("status", ("applied",), "active", "approve the partner's application"),
        "suspend": Transition("status", ("active",), "suspended", "suspend the partner"),
        "reactivate": Transition("status", ("suspended",), "active", "reactivate the partner"),
        "terminate": Transition(
            "status",
            ("applied", "active", "suspended"),
            "terminated",
            "terminate the partnership",
            destructive=True,
            description="End the partnership: its open deal registrations expire and pending funds are cancelled.",
        ),
    },
    guard_create=_guard_partner,
    guard_update=_guard_partner,
)
users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="pu",
    create=("partner_id", "email", "name", "role"),
    get=False,
    filters=("partner_id", "email", "role"),
    search=("name", "email"),
    unique=("email",),
    guard_create=_guard_user,
    title="partner user",
)
registrations = service.resource(
    Registration,
    name="registration",
    plural="registrations",
    prefix="reg",
    create=False,
    filters=("partner_id", "status", "prospect_domain", "reviewer_email"),
    search=("prospect_company", "prospect_domain"),
    update=("amount", "expected_close"),
    delete=False,
    title="deal registration",
)
requests = service.resource(
    FundRequest,
    name="fund_request",
    plural="fund_requests",
    prefix="mdf",
    create=False,
    filters=("partner_id", "status", "activity"),
    search=("title",),
    delete=False,
    title="MDF request",
)
claims = service.resource(
    Claim,
    name="claim",
    plural="claims",
    prefix="clm",
    create=False,
    get=False,
    filters=("partner_id", "status", "request_id"),
    delete=False,
    title="MDF claim",
)


# -- deal registration ------------------------------------------------------------------------


def _example_register(ctx: Ctx) -> dict[str, Any] | None:
    for partner in ctx.where(Partner, status="active"):
        user = ctx.first(User, partner_id=partner.id)
        if user is not None:
            return {
                "partner_id": partner.id,
                "submitted_by": user.email,
                "prospect_company": "Northwind Traders",
                "prospect_domain": "northwind.example",
                "prospect_contact_email": "buyer@northwind.example",
                "amount": 4_500_000,
                "expected_close": (ctx.today() + dt.timedelta(days=60)).isoformat(),
            }
    return None


@service.tool(intent="register the deal", write=True, example=_example_register)
def register_deal(
    ctx: Ctx,
    partner_id: PartnerId,
    submitted_by: Email,
    prospect_company: CompanyName,
    prospect_domain: Domain,
    prospect_contact_email: Email,
    amount: Cents,
    expected_close: Date,
) -> Registration:
    """Register a prospect's deal for an active partner, submitted by one of its users, for review.

    Args:
        partner_id: The partner.
        submitted_by: The partner user registering it.
        prospect_company: The end customer's name.
        prospect_domain: The end customer's domain.
        prospect_contact_email: The end customer's contact (at the prospect's domain).
        amount: Estimated deal size in minor units (above zero).
        expected_close: Expected close date (in the future).
    """
    partner = _active(ctx, partner_id)
    user = ctx.first(User, email=submitted_by)
    if user is None or user.partner_id != partner.id:
        raise RuleViolation(
            f"{submitted_by} is not a user of {partner.name!r}",
            field="submitted_by",
            hint="use one of the partner's users",
        )
    if prospect_contact_email.split("@")[1].lower() != prospect_domain:
        raise RuleViolation(
            "the contact is not at the prospect's domain",
            field="prospect_contact_email",
            hint=f"use an address at {prospect_domain}",
        )
    if amount <= 0:
        raise RuleViolation("a registration needs an amount", field="amount", hint="estimate the deal size")
    if expected_close <= ctx.today():
        raise RuleViolation("expected_close must be in the future", field="expected_close", hint="pick a later date")
    for reg in ctx.where(Registration, prospect_domain=prospect_domain, partner_id=partner.id):
        if reg.status in OPEN_REG:
            raise Conflict(
                f"{partner.name} already registered {prospect_domain} ({reg.id})",
                field="prospect_domain",
                hint="update that registration instead",
            )
    return ctx.create(
        Registration,
        partner_id=partner.id,
        submitted_by=submitted_by,
        prospect_company=prospect_company,
        prospect_domain=prospect_domain,
        prospect_contact_email=prospect_contact_email,
        amount=amount,
        currency=partner.currency,
        expected_close=expected_close,
    )


def _holder(ctx: Ctx, reg: Registration) -> Registration | None:
    for other in ctx.where(Registration, prospect_domain=reg.prospect_domain, status="approved"):
        if (
            other.id != reg.id
            and other.partner_id != reg.partner_id
            and (other.protected_until or ctx.today()) >= ctx.today()
        ):
            return other
    return None


def _decide(ctx: Ctx, registration_id: str, reviewer_email: str) -> Registration:
    reg = ctx.get(Registration, registration_id, field="registration_id")
    _staff(ctx, reviewer_email, "reviewer_email")
    if reg.status != "submitted":
        raise Conflict(
            f"the registration is {reg.status}", field="registration_id", hint="only submitted ones are decided"
        )
    return reg


def _example_approve(ctx: Ctx) -> dict[str, Any] | None:
    for reg in ctx.where(Registration, status="submitted"):
        if _holder(ctx, reg) is None:
            return {"registration_id": reg.id, "reviewer_email": ctx.get(Partner, reg.partner_id).channel_manager_email}
    return None


def _example_decide(ctx: Ctx, model: type[Registration] | type[FundRequest], param: str) -> dict[str, Any]:
    for rec in ctx.where(model, status="submitted"):
        return {param: rec.id, "reviewer_email": ctx.get(Partner, rec.partner_id).channel_manager_email}
    return {}


@service.tool(intent="approve the deal registration", write=True, example=_example_approve)
def approve_registration(ctx: Ctx, registration_id: RegistrationId, reviewer_email: Email) -> Registration:
    """Approve a submitted registration: the partner gets 90 days of protection on the prospect.

    Refused (channel conflict) when another partner holds an approved, unexpired registration on the same domain.

    Args:
        registration_id: The registration.
        reviewer_email: The channel manager approving it.
    """
    reg = _decide(ctx, registration_id, reviewer_email)
    holder = _holder(ctx, reg)
    if holder is not None:
        raise Conflict(
            f"channel conflict: {holder.partner_id} holds {reg.prospect_domain} until {holder.protected_until}",
            field="registration_id",
            hint="reject this registration or wait for the protection to end",
        )
    return ctx.update(reg, status="approved", reviewer_email=reviewer_email, protected_until=ctx.today() + PROTECTION)


@service.tool(
    intent="reject the deal registration",
    write=True,
    example=lambda ctx: _example_decide(ctx, Registration, "registration_id") | {"reason": "Existing direct deal"},
)
def reject_registration(ctx: Ctx, registration_id: RegistrationId, reviewer_email: Email, reason: Text) -> Registration:
    """Reject a submitted registration with a reason.

    Args:
        registration_id: The registration.
        reviewer_email: The channel manager rejecting it.
        reason: Why (required).
    """
    reg = _decide(ctx, registration_id, reviewer_email)
    if not reason.strip():
        raise RuleViolation("a rejection needs a reason", field="reason", hint="say why")
    return ctx.update(reg, status="rejected", reviewer_email=reviewer_email, decision_note=reason.strip())


@service.tool(
    intent="extend the deal registration",
    write=True,
    example=first_example(Registration, "registration_id", where={"status": "approved", "extended": False}),
)
def extend_registration(ctx: Ctx, registration_id: RegistrationId) -> Registration:
    """Extend an approved registration's protection by 30 days, once.

    Args:
        registration_id: The registration.
    """
    reg = ctx.get(Registration, registration_id, field="registration_id")
    if reg.status != "approved" or reg.protected_until is None:
        raise RuleViolation(
            f"the registration is {reg.status}", field="registration_id", hint="only approved ones extend"
        )
    if reg.extended:
        raise Conflict("the registration was already extended", field="registration_id", hint="it extends only once")
    return ctx.update(reg, extended=True, protected_until=reg.protected_until + EXTENSION)


@service.tool(
    intent="close the deal registration",
    write=True,
    example=first_example(Registration, "registration_id", where={"status": "approved"}, outcome="won"),
)
def close_registration(
    ctx: Ctx, registration_id: RegistrationId, outcome: Literal["won", "lost"], note: Text | None = None
) -> Registration:
    """Close an approved registration as won or lost (lost needs a note).

    Args:
        registration_id: The registration.
        outcome: won or lost.
        note: Why it was lost.
    """
    reg = ctx.get(Registration, registration_id, field="registration_id")
    if reg.status != "approved":
        raise RuleViolation(
            f"the registration is {reg.status}", field="registration_id", hint="only approved ones close"
        )
    if outcome == "lost" and not (note or "").strip():
        raise RuleViolation("a lost registration needs a note", field="note", hint="say why it was lost")
    return ctx.update(reg, status=outcome, decision_note=note.strip() if note else reg.decision_note)


# -- market development funds -----------------------------------------------------------------


def _balance(ctx: Ctx, partner: Partner) -> FundBalance:
    committed = sum(
        r.approved_amount if r.approved_amount is not None else r.requested
        for r in ctx.where(FundRequest, partner_id=partner.id)
        if r.status in COMMITTED
    )
    allocation = ALLOCATION[partner.tier]
    return FundBalance(
        partner_id=partner.id,
        tier=partner.tier,
        allocation=allocation,
        committed=committed,
        available=max(0, allocation - committed),
    )


@service.tool(intent="show the partner's fund balance", example=first_example(Partner, "partner_id"))
def fund_balance(ctx: Ctx, partner_id: PartnerId) -> FundBalance:
    """A partner's yearly MDF allocation by tier, what is committed, and what is still available.

    Args:
        partner_id: The partner.
    """
    return _balance(ctx, ctx.get(Partner, partner_id, field="partner_id"))


def _example_fund(ctx: Ctx) -> dict[str, Any] | None:
    for partner in ctx.where(Partner, status="active"):
        if _balance(ctx, partner).available >= 200_000:
            start = ctx.today() + dt.timedelta(days=30)
            return {
                "partner_id": partner.id,
                "activity": "webinar",
                "title": "Joint webinar: automation 101",
                "requested": 200_000,
                "starts_on": start.isoformat(),
                "ends_on": start.isoformat(),
            }
    return None


@service.tool(intent="request marketing development funds", write=True, example=_example_fund)
def request_funds(
    ctx: Ctx,
    partner_id: PartnerId,
    activity: Activity,
    title: Title,
    requested: Cents,
    starts_on: Date,
    ends_on: Date,
) -> FundRequest:
    """Request MDF for an activity: silver tier and up, within the available balance, 14+ days ahead.

    Args:
        partner_id: The partner.
        activity: event, webinar, digital_ads, content or training.
        title: The activity.
        requested: Amount in minor units.
        starts_on: When the activity starts (at least 14 days from today).
        ends_on: When it ends (on or after the start).
    """
    partner = _active(ctx, partner_id)
    if partner.tier == "registered":
        raise RuleViolation("registered-tier partners get no funds", field="partner_id", hint="funds start at silver")
    if requested <= 0:
        raise RuleViolation("the amount must be above zero", field="requested", hint="give an amount")
    available = _balance(ctx, partner).available
    if requested > available:
        raise RuleViolation(
            f"only {available} is available this year",
            field="requested",
            hint="request at most the available balance (see partners__fund_balance)",
        )
    if starts_on < ctx.today() + LEAD_TIME:
        raise RuleViolation("funds are requested at least 14 days ahead", field="starts_on", hint="pick a later start")
    if ends_on < starts_on:
        raise RuleViolation("ends_on is before starts_on", field="ends_on", hint="fix the dates")
    return ctx.create(
        FundRequest,
        partner_id=partner.id,
        activity=activity,
        title=title,
        requested=requested,
        currency=partner.currency,
        starts_on=starts_on,
        ends_on=ends_on,
    )


@service.tool(
    intent="approve the fund request",
    write=True,
    example=lambda ctx: _example_decide(ctx, FundRequest, "fund_request_id"),
)
def approve_funds(
    ctx: Ctx, fund_request_id: RequestId, reviewer_email: Email, approved_amount: Cents | None = None
) -> FundRequest:
    """Approve a submitted MDF request for the requested amount or less.

    Args:
        fund_request_id: The request.
        reviewer_email: The employee approving it.
        approved_amount: The amount approved (default: as requested; at most that).
    """
    req = ctx.get(FundRequest, fund_request_id, field="fund_request_id")
    _staff(ctx, reviewer_email, "reviewer_email")
    if req.status != "submitted":
        raise Conflict(f"the request is {req.status}", field="fund_request_id", hint="only submitted ones are decided")
    amount = req.requested if approved_amount is None else approved_amount
    if not 0 < amount <= req.requested:
        raise RuleViolation("approve between 1 and the requested amount", field="approved_amount", hint="lower it")
    return ctx.update(req, status="approved", approved_amount=amount, reviewer_email=reviewer_email)


@service.tool(
    intent="reject the fund request",
    write=True,
    example=lambda ctx: _example_decide(ctx, FundRequest, "fund_request_id"),
)
def reject_funds(ctx: Ctx, fund_request_id: RequestId, reviewer_email: Email) -> FundRequest:
    """Reject a submitted MDF request; its amount is released.

    Args:
        fund_request_id: The request.
        reviewer_email: The employee rejecting it.
    """
    req = ctx.get(FundRequest, fund_request_id, field="fund_request_id")
    _staff(ctx, reviewer_email, "reviewer_email")
    if req.status != "submitted":
        raise Conflict(f"the request is {req.status}", field="fund_request_id", hint="only submitted ones are decided")
    return ctx.update(req, status="rejected", reviewer_email=reviewer_email)


def _example_claim(ctx: Ctx) -> dict[str, Any] | None:
    for req in ctx.where(FundRequest, status="approved"):
        if req.ends_on < ctx.today() and req.approved_amount:
            return {
                "fund_request_id": req.id,
                "amount": req.approved_amount,
                "proof_url": "https://files.partner.example/proof/invoice-2291.pdf",
            }
    return None


@service.tool(intent="claim the approved funds", write=True, example=_example_claim)
def submit_claim(ctx: Ctx, fund_request_id: RequestId, amount: Cents, proof_url: FileLink) -> Claim:
    """Claim reimbursement for an approved activity once it has ended, with proof, up to the approved amount.

    Args:
        fund_request_id: The approved request.
        amount: Amount claimed in minor units.
        proof_url: Proof of performance.
    """
    req = ctx.get(FundRequest, fund_request_id, field="fund_request_id")
    if req.status != "approved" or req.approved_amount is None:
        raise RuleViolation(
            f"the request is {req.status}", field="fund_request_id", hint="claim approved requests only"
        )
    if req.ends_on >= ctx.today():
        raise RuleViolation(f"the activity ends on {req.ends_on}", field="fund_request_id", hint="claim after it ends")
    if not 0 < amount <= req.approved_amount:
        raise RuleViolation(f"claim at most the approved {req.approved_amount}", field="amount", hint="lower it")
    ctx.update(req, status="claimed")
    return ctx.create(Claim, request_id=req.id, partner_id=req.partner_id, amount=amount, proof_url=proof_url)


@service.tool(
    intent="pay the claim", write=True, example=first_example(Claim, "claim_id", where={"status": "submitted"})
)
def pay_claim(ctx: Ctx, claim_id: ClaimId) -> Claim:
    """Approve and pay a submitted claim.

    Args:
        claim_id: The claim.
    """
    claim = ctx.get(Claim, claim_id, field="claim_id")
    if claim.status != "submitted":
        raise Conflict(f"the claim is {claim.status}", field="claim_id", hint="only submitted claims are paid")
    return ctx.update(claim, status="paid", paid_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

PLAN: tuple[tuple[PartnerType, Tier, PartnerStatus], ...] = (
    ("reseller", "platinum", "active"),
    ("reseller", "gold", "active"),
    ("msp", "silver", "active"),
    ("referral", "registered", "active"),
    ("technology", "gold", "active"),
    ("reseller", "silver", "suspended"),
    ("referral", "registered", "applied"),
    ("msp", "silver", "terminated"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Partners from the world's companies in every tier and status, their users, registrations and funds."""
    pop = s.population
    managers = pop.staff("Sales", fallback=3)
    companies = list(pop.customers[-len(PLAN) :])
    prospects = list(pop.customers[:12])
    made = [_seed_partner(s, k, c, managers[k % len(managers)].email) for k, c in enumerate(companies)]
    reps = {u.partner_id: u.email for u in reversed(s.records(User))}
    sellers = [p for p in made[:5] if p.id in reps]
    statuses: tuple[RegStatus, ...] = ("submitted", "approved", "approved", "won", "rejected", "lost", "submitted")
    for k, prospect in enumerate(prospects):
        partner = sellers[k % len(sellers)]
        contact = pop.first_contact(prospect)
        status = statuses[k % len(statuses)]
        decided = status != "submitted"
        s.create(
            Registration,
            partner_id=partner.id,
            submitted_by=reps[partner.id],
            prospect_company=prospect.name,
            prospect_domain=prospect.domain,
            prospect_contact_email=contact.email if contact else f"info@{prospect.domain}",
            amount=(20 + 9 * k) * 100_000,
            currency=partner.currency,
            expected_close=(s.now + dt.timedelta(days=30 + 7 * k)).date(),
            status=status,
            reviewer_email=partner.channel_manager_email if decided else None,
            decision_note={"rejected": "Existing direct opportunity", "lost": "Went with a competitor"}.get(status),
            protected_until=(s.now + dt.timedelta(days=60 - k)).date() if status in ("approved", "won") else None,
            created_at=s.ago(days=40 - k),
            updated_at=s.ago(days=10 - k % 5),
        )
    funds: tuple[tuple[int, Activity, str, int, int, FundStatus], ...] = (
        (0, "event", "Customer roadshow", 1_500_000, -40, "claimed"),
        (1, "webinar", "Automation webinar", 300_000, 30, "submitted"),
        (1, "digital_ads", "Q3 search ads", 800_000, -20, "approved"),
        (2, "content", "Case study", 250_000, 45, "approved"),
        (4, "training", "Admin bootcamp", 400_000, 25, "rejected"),
    )
    for idx, activity, title, amount, offset, fstatus in funds:
        p = made[idx]
        start = (s.now + dt.timedelta(days=offset)).date()
        req = s.create(
            FundRequest,
            partner_id=p.id,
            activity=activity,
            title=title,
            requested=amount,
            currency=p.currency,
            approved_amount=amount if fstatus in ("approved", "claimed") else None,
            starts_on=start,
            ends_on=start + dt.timedelta(days=2),
            status=fstatus,
            reviewer_email=p.channel_manager_email if fstatus != "submitted" else None,
            created_at=s.ago(days=60),
            updated_at=s.ago(days=5),
        )
        if fstatus == "claimed":
            s.create(
                Claim,
                request_id=req.id,
                partner_id=p.id,
                amount=amount - 100_000,
                created_at=s.ago(days=10),
                proof_url=f"https://files.{p.domain}/mdf/{req.id}.pdf",
                updated_at=s.ago(days=10),
            )


def _seed_partner(s: SeedContext, k: int, c: Company, manager: str) -> Partner:
    kind, tier, status = PLAN[k]
    partner = s.create(
        Partner,
        name=c.name,
        domain=c.domain,
        partner_type=kind,
        tier=tier,
        status=status,
        country=c.place.country,
        channel_manager_email=manager,
        currency=c.place.currency,
        created_at=s.ago(days=500 - 40 * k),
        updated_at=s.ago(days=20),
    )
    for j, p in enumerate(s.population.people_at(c)[:3]):
        s.create(
            User,
            partner_id=partner.id,
            email=p.email,
            name=p.name,
            role="admin" if j == 0 else "sales_rep",
            created_at=s.ago(days=400 - 30 * k),
            updated_at=s.ago(days=400 - 30 * k),
        )
    return partner
