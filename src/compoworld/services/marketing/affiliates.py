"""Kickback Partners: affiliate programs, partners, referral links, referred customers, conversions, commissions.

Modeled on the PartnerStack Partner API v2 (programs, partnerships, links,
customers, transactions, rewards, payouts) with impact.com's action locking and
reversals. Partners apply to an active program and are approved (at once when
the program auto-approves) or rejected; only approved partners get links, refer
customers and earn. A link's key is unique and it must point at the program's
own landing domain. A customer can be referred once per program (the first
partner keeps the attribution) and never by themselves. A conversion (a
purchase by a referred customer, with a unique order number per program) earns
a commission by the program's rule: a percentage of the amount, capped per
conversion, or a flat amount; only the customer's first N purchases earn
(the program's commission limit). Commissions are pending during the program's
hold period, then approved, then paid in a payout that nets outstanding
clawbacks and must reach the program's minimum. Refunding a conversion reverses
an unpaid commission; a paid one is clawed back from the next payout.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Currency,
    Date,
    DateTime,
    Domain,
    Email,
    IdOf,
    OrderNumber,
    Percent,
    PersonName,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created
from compoworld.world.commerce import first_order_numbers

__all__ = ["service"]

service = Service(
    "affiliates",
    title="Kickback Partners",
    category="affiliate_marketing",
    modeled_on="PartnerStack Partner API v2 (programs, partnerships, links, customers, transactions, rewards, "
    "payouts) with impact.com action locking and reversals",
    description="Affiliate and referral programs: partners who apply and are approved, their referral links, "
    "the customers they refer, purchases that earn commissions by the program's rules, the hold period, "
    "payouts, and clawbacks when a purchase is refunded.",
)

ProgramId = Annotated[str, IdOf("affiliates.program")]
PartnerId = Annotated[str, IdOf("affiliates.partner")]
LinkId = Annotated[str, IdOf("affiliates.link")]
ReferralId = Annotated[str, IdOf("affiliates.referral")]
ConversionId = Annotated[str, IdOf("affiliates.conversion")]
CommissionId = Annotated[str, IdOf("affiliates.commission")]
LinkKey = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]{2,39}$")]
"""A link key: 3-40 lower-case letters, digits and hyphens, e.g. ana-spring."""

ProgramStatus = Literal["active", "paused", "closed"]
PartnerStatus = Literal["applied", "approved", "rejected", "suspended"]
CommissionStatus = Literal["pending", "approved", "paid", "reversed"]

TRACKING_HOST = "https://go.kickback.example"


class Program(Created):
    """An affiliate program and its commission rule."""

    id: ProgramId
    name: Title
    """Program name."""
    status: ProgramStatus = "active"
    """active (takes applications and tracks), paused (tracks nothing new) or closed."""
    landing_domain: Domain
    """The company domain every referral link must point at."""
    commission_type: Literal["percent", "flat"]
    """percent of the purchase amount, or a flat amount per purchase."""
    commission_rate: Percent = 0.0
    """The percentage, for percent programs."""
    flat_amount: Cents = 0
    """The amount per purchase in cents, for flat programs."""
    cap_per_conversion: Cents | None = None
    """The most one purchase can earn, in cents (percent programs)."""
    commission_limit: int | None = None
    """How many purchases of one referred customer earn (None: all)."""
    currency: Currency = "USD"
    """Currency of purchases, commissions and payouts."""
    hold_days: int = 30
    """Days a commission stays pending (the refund window) before it can be approved."""
    min_payout: Cents = 5000
    """The smallest payout, in cents."""
    auto_approve: bool = False
    """Whether applications are approved at once."""


class Partner(Record):
    """A partner's membership of one program."""

    id: PartnerId
    program_id: ProgramId
    """The program."""
    name: PersonName
    """The partner's name."""
    email: Email
    """The partner's e-mail; unique in the program."""
    company: CompanyName | None = None
    """The partner's company or publication."""
    payout_email: Email | None = None
    """Where payouts go; needed before the first payout."""
    status: PartnerStatus = "applied"
    """applied, approved, rejected or suspended."""
    created_at: Annotated[DateTime, CREATED]
    """When they applied."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the membership last changed."""


class Link(Created):
    """A partner's tracked referral link."""

    id: LinkId
    partner_id: PartnerId
    """The partner."""
    program_id: ProgramId
    """The program."""
    key: LinkKey
    """The link key, unique across programs."""
    destination: Url
    """Where the link lands, on the program's landing domain."""
    url: Url
    """The tracked link to share."""
    clicks: int = 0
    """Clicks so far."""


class Referral(Created):
    """A customer a partner referred to a program."""

    id: ReferralId
    program_id: ProgramId
    """The program."""
    partner_id: PartnerId
    """The partner who keeps the attribution."""
    link_id: LinkId | None = None
    """The link the customer came through."""
    customer_email: Email
    """The referred customer's e-mail; once per program."""
    customer_name: PersonName
    """The referred customer's name."""
    status: Literal["lead", "customer"] = "lead"
    """lead until their first purchase, then customer."""


class Conversion(Created):
    """A purchase by a referred customer."""

    id: ConversionId
    program_id: ProgramId
    """The program."""
    referral_id: ReferralId
    """The referred customer."""
    partner_id: PartnerId
    """The partner credited."""
    customer_email: Email
    """The customer who bought."""
    order_number: OrderNumber
    """The order's number in the shop, unique in the program."""
    amount: Cents
    """What the customer paid, in cents."""
    currency: Currency
    """The program's currency."""
    status: Literal["approved", "refunded"] = "approved"
    """approved, or refunded (its commission reversed or clawed back)."""
    commission_id: CommissionId | None = None
    """The commission it earned (none past the commission limit)."""


class Commission(Record):
    """What a partner earned on a conversion, or a clawback of a paid one."""

    id: CommissionId
    program_id: ProgramId
    """The program."""
    partner_id: PartnerId
    """The partner."""
    conversion_id: ConversionId
    """The conversion."""
    kind: Literal["commission", "clawback"] = "commission"
    """commission, or clawback (deducted from the next payout)."""
    amount: Cents
    """In cents; a clawback's amount is deducted."""
    currency: Currency
    """The program's currency."""
    status: CommissionStatus = "pending"
    """pending (hold period), approved, paid (a clawback: settled) or reversed."""
    hold_until: Date
    """The first day it can be approved."""
    paid_at: DateTime | None = None
    """When it was paid or settled."""
    payout_reference: str | None = None
    """The payout it went out in."""
    created_at: Annotated[DateTime, CREATED]
    """When it was earned."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


# -- rules ------------------------------------------------------------------------------------


def _active_program(ctx: Ctx, program_id: str, field: str = "program_id") -> Program:
    program = ctx.get(Program, program_id, field=field)
    if program.status != "active":
        raise RuleViolation(f"program {program.name} is {program.status}", field=field, hint="use an active program")
    return program


def _approved(ctx: Ctx, partner_id: str, field: str = "partner_id") -> Partner:
    partner = ctx.get(Partner, partner_id, field=field)
    if partner.status != "approved":
        raise RuleViolation(
            f"partner {partner.name} is {partner.status} in the program",
            field=field,
            hint="approve the application with affiliates__approve_partner first"
            if partner.status == "applied"
            else "only approved partners refer and earn",
        )
    return partner


def _guard_partner_create(ctx: Ctx, new: Any, old: Any) -> None:
    program = _active_program(ctx, new.program_id)
    for other in ctx.where(Partner, program_id=program.id, email=new.email):
        if other.id != new.id:
            raise Conflict(
                f"{new.email} already has a {other.status} membership of {program.name} ({other.id})",
                field="email",
                hint="use that partner",
            )
    if program.auto_approve:
        ctx.update(new, status="approved")


def _guard_partner_update(ctx: Ctx, new: Any, old: Any) -> None:
    if new.status == "approved" and old.status == "applied":
        _active_program(ctx, old.program_id, field="partner_id")


def _check_link(ctx: Ctx, partner: Partner, key: str, destination: str) -> Program:
    program = _active_program(ctx, partner.program_id, field="partner_id")
    host = re.match(r"^https?://([^/:?#]+)", destination)
    name = host.group(1).lower() if host else ""
    if name != program.landing_domain and not name.endswith("." + program.landing_domain):
        raise RuleViolation(
            f"links of {program.name} must land on {program.landing_domain}",
            field="destination",
            hint=f"use a page such as https://{program.landing_domain}/pricing",
        )
    if ctx.first(Link, key=key) is not None:
        raise Conflict(f"link key {key} is taken", field="key", hint="choose another key")
    return program


def _check_referral(ctx: Ctx, partner: Partner, email: str, link_id: str | None) -> Program:
    program = _active_program(ctx, partner.program_id, field="partner_id")
    if email.lower() in (partner.email.lower(), (partner.payout_email or "").lower()):
        raise RuleViolation("partners cannot refer themselves", field="customer_email", hint="refer someone else")
    if link_id is not None and ctx.get(Link, link_id, field="link_id").partner_id != partner.id:
        raise RuleViolation(
            f"link {link_id} belongs to another partner", field="link_id", hint="use the partner's own link"
        )
    other = ctx.first(Referral, program_id=program.id, customer_email=email)
    if other is not None:
        raise Conflict(
            f"{email} was already referred to {program.name} ({other.id})",
            field="customer_email",
            hint="the first partner keeps the attribution",
        )
    return program


def _guard_commission_approve(ctx: Ctx, new: Any, old: Any) -> None:
    if old.kind == "clawback":
        raise RuleViolation(
            "a clawback is settled by the next payout, not approved",
            field="commission_id",
            hint="pay the partner with affiliates__pay_partner",
        )
    if ctx.today() < old.hold_until:
        raise RuleViolation(
            f"commission {old.id} is on hold until {old.hold_until} (the refund window)",
            field="commission_id",
            hint=f"approve it on or after {old.hold_until}",
        )


def commission_for(program: Program, amount: int) -> int:
    """What one purchase of ``amount`` cents earns under ``program``'s rule."""
    if program.commission_type == "flat":
        return program.flat_amount
    earned = round(amount * program.commission_rate / 100)
    return earned if program.cap_per_conversion is None else min(earned, program.cap_per_conversion)


programs = service.resource(
    Program,
    name="program",
    plural="programs",
    prefix="prg",
    create=False,
    get=False,
    filters=("status", "commission_type", "currency"),
    search=("name",),
    delete=False,
)
partners = service.resource(
    Partner,
    name="partner",
    plural="partners",
    prefix="ptn",
    create=("program_id", "name", "email", "company", "payout_email"),
    get=False,
    filters=("program_id", "status", "email"),
    search=("name", "email", "company"),
    update=("payout_email", "company"),
    delete=False,
    transitions={
        "approve": Transition("status", ("applied",), "approved", "approve the partner's application"),
        "reject": Transition("status", ("applied",), "rejected", "reject the partner's application"),
        "suspend": Transition(
            "status",
            ("approved",),
            "suspended",
            "suspend the partner",
            description="Suspend an approved partner: no new links, referrals or commissions.",
        ),
    },
    guard_create=_guard_partner_create,
    guard_update=_guard_partner_update,
)
links = service.resource(
    Link,
    name="link",
    plural="links",
    prefix="lnk",
    create=False,
    get=False,
    filters=("partner_id", "program_id", "key"),
    delete=False,
    title="referral link",
)
referrals = service.resource(
    Referral,
    name="referral",
    plural="referrals",
    prefix="ref",
    create=False,
    get=False,
    filters=("program_id", "partner_id", "customer_email", "status"),
    search=("customer_name", "customer_email"),
    delete=False,
    title="referred customer",
)
conversions = service.resource(
    Conversion,
    name="conversion",
    plural="conversions",
    prefix="cvn",
    create=False,
    get=False,
    filters=("program_id", "partner_id", "referral_id", "customer_email", "order_number", "status"),
    delete=False,
)
commissions = service.resource(
    Commission,
    name="commission",
    plural="commissions",
    prefix="com",
    create=False,
    get=False,
    filters=("program_id", "partner_id", "conversion_id", "kind", "status"),
    delete=False,
    transitions={
        "approve": Transition(
            "status",
            ("pending",),
            "approved",
            "approve the commission",
            description="Approve a pending commission once its hold period (the refund window) is over.",
        )
    },
    guard_update=_guard_commission_approve,
)


# -- examples ---------------------------------------------------------------------------------


def _example_link(ctx: Ctx) -> dict[str, Any] | None:
    for partner in ctx.where(Partner, status="approved"):
        program = ctx.get(Program, partner.program_id)
        if program.status == "active":
            return {
                "partner_id": partner.id,
                "key": "spring-promo-1",
                "destination": f"https://{program.landing_domain}/spring",
            }
    return None


def _example_referral(ctx: Ctx) -> dict[str, Any] | None:
    for partner in ctx.where(Partner, status="approved"):
        if ctx.get(Program, partner.program_id).status != "active":
            continue
        for person in ctx.population.consumers:
            if ctx.first(Referral, program_id=partner.program_id, customer_email=person.email) is None:
                return {"partner_id": partner.id, "customer_email": person.email, "customer_name": person.name}
    return None


def _example_conversion(ctx: Ctx) -> dict[str, Any] | None:
    for ref in ctx.scan(Referral):
        partner = ctx.get(Partner, ref.partner_id)
        if partner.status == "approved" and ctx.get(Program, ref.program_id).status == "active":
            return {"referral_id": ref.id, "order_number": "AFF-90001", "amount": 12900}
    return None


def _example_pay(ctx: Ctx) -> dict[str, Any] | None:
    for partner in ctx.where(Partner, status="approved"):
        if partner.payout_email and _balance(ctx, partner)[0] >= ctx.get(Program, partner.program_id).min_payout:
            return {"partner_id": partner.id}
    return None


# -- tools ------------------------------------------------------------------------------------


@service.tool(intent="create a referral link for the partner", write=True, example=_example_link)
def create_link(ctx: Ctx, partner_id: PartnerId, key: LinkKey, destination: Url) -> Link:
    """Create a tracked referral link for an approved partner.

    The key is unique across programs; the destination must be a page on the
    program's landing domain.

    Args:
        partner_id: The approved partner.
        key: The link key, e.g. ana-spring.
        destination: The page the link lands on.
    """
    partner = _approved(ctx, partner_id)
    program = _check_link(ctx, partner, key, destination)
    return ctx.create(
        Link,
        partner_id=partner.id,
        program_id=program.id,
        key=key,
        destination=destination,
        url=f"{TRACKING_HOST}/{key}",
    )


@service.tool(intent="record a customer the partner referred", write=True, example=_example_referral)
def refer_customer(
    ctx: Ctx, partner_id: PartnerId, customer_email: Email, customer_name: PersonName, link_id: LinkId | None = None
) -> Referral:
    """Record a customer an approved partner referred (a lead until their first purchase).

    A customer is referred once per program: the first partner keeps the
    attribution. Partners cannot refer themselves; a link must be the partner's own.

    Args:
        partner_id: The approved partner.
        customer_email: The customer's e-mail.
        customer_name: The customer's name.
        link_id: The partner's link they came through.
    """
    partner = _approved(ctx, partner_id)
    program = _check_referral(ctx, partner, customer_email, link_id)
    return ctx.create(
        Referral,
        program_id=program.id,
        partner_id=partner.id,
        link_id=link_id,
        customer_email=customer_email,
        customer_name=customer_name,
    )


@service.tool(intent="record the referred customer's purchase", write=True, example=_example_conversion)
def record_conversion(ctx: Ctx, referral_id: ReferralId, order_number: OrderNumber, amount: Cents) -> Conversion:
    """Record a purchase by a referred customer and the commission it earns.

    The partner must be approved and the program active; an order number
    counts once per program. The commission follows the program's rule (percent
    capped per conversion, or flat) and is pending until the hold period ends;
    purchases past the program's commission limit earn nothing.

    Args:
        referral_id: The referred customer.
        order_number: The shop order's number.
        amount: What the customer paid, in cents (more than 0).
    """
    ref = ctx.get(Referral, referral_id, field="referral_id")
    _approved(ctx, ref.partner_id, field="referral_id")
    program = _active_program(ctx, ref.program_id, field="referral_id")
    if amount <= 0:
        raise RuleViolation("a purchase amount must be more than 0", field="amount", hint="pass the amount paid")
    if ctx.first(Conversion, program_id=program.id, order_number=order_number) is not None:
        raise Conflict(
            f"order {order_number} was already recorded in {program.name}",
            field="order_number",
            hint="each order converts once",
        )
    earlier = ctx.where(Conversion, referral_id=ref.id)
    conv = ctx.create(
        Conversion,
        program_id=program.id,
        referral_id=ref.id,
        partner_id=ref.partner_id,
        customer_email=ref.customer_email,
        order_number=order_number,
        amount=amount,
        currency=program.currency,
    )
    if ref.status == "lead":
        ctx.update(ref, status="customer")
    earns = commission_for(program, amount)
    if earns <= 0 or (program.commission_limit is not None and len(earlier) >= program.commission_limit):
        return conv
    com = ctx.create(
        Commission,
        program_id=program.id,
        partner_id=ref.partner_id,
        conversion_id=conv.id,
        amount=earns,
        currency=program.currency,
        hold_until=ctx.today() + dt.timedelta(days=program.hold_days),
    )
    return ctx.update(conv, commission_id=com.id)


class Refund(BaseModel):
    """What refunding a conversion did to its commission."""

    conversion: Conversion = Field(description="The refunded conversion.")
    reversed: Commission | None = Field(description="The unpaid commission, now reversed.")
    clawback: Commission | None = Field(description="The clawback of a paid commission, due at the next payout.")


@service.tool(
    intent="refund the referred purchase and reverse its commission",
    write=True,
    destructive=True,
    example=first_example(Conversion, "conversion_id", where={"status": "approved"}),
)
def refund_conversion(ctx: Ctx, conversion_id: ConversionId) -> Refund:
    """Mark a conversion refunded: its unpaid commission is reversed, a paid one is clawed back.

    Args:
        conversion_id: The conversion.
    """
    conv = ctx.get(Conversion, conversion_id, field="conversion_id")
    if conv.status == "refunded":
        raise Conflict(f"conversion {conv.order_number} is already refunded", field="conversion_id", hint="done")
    conv = ctx.update(conv, status="refunded")
    if conv.commission_id is None:
        return Refund(conversion=conv, reversed=None, clawback=None)
    com = ctx.get(Commission, conv.commission_id)
    if com.status in ("pending", "approved"):
        return Refund(conversion=conv, reversed=ctx.update(com, status="reversed"), clawback=None)
    claw = ctx.create(
        Commission,
        program_id=com.program_id,
        partner_id=com.partner_id,
        conversion_id=conv.id,
        kind="clawback",
        amount=com.amount,
        currency=com.currency,
        hold_until=ctx.today(),
    )
    return Refund(conversion=conv, reversed=None, clawback=claw)


class Payout(BaseModel):
    """A payout to a partner."""

    reference: str = Field(description="The payout's reference.")
    partner_id: PartnerId = Field(description="The partner.")
    payout_email: Email = Field(description="Where it was sent.")
    gross: Cents = Field(description="Approved commissions paid, in cents.")
    clawed_back: Cents = Field(description="Clawbacks deducted, in cents.")
    net: Cents = Field(description="What was sent, in cents.")
    currency: Currency = Field(description="Currency.")
    commissions: list[Commission] = Field(description="The commissions and clawbacks it settled.")


def _balance(ctx: Ctx, partner: Partner) -> tuple[int, list[Commission], list[Commission]]:
    approved = ctx.where(Commission, partner_id=partner.id, kind="commission", status="approved")
    claws = ctx.where(Commission, partner_id=partner.id, kind="clawback", status="pending")
    return sum(c.amount for c in approved) - sum(c.amount for c in claws), approved, claws


@service.tool(intent="pay the partner their approved commissions", write=True, example=_example_pay)
def pay_partner(ctx: Ctx, partner_id: PartnerId) -> Payout:
    """Pay a partner every approved commission, less outstanding clawbacks.

    The partner needs a payout e-mail; the net must reach the program's
    minimum payout. Suspended partners are not paid.

    Args:
        partner_id: The partner.
    """
    partner = _approved(ctx, partner_id)
    program = ctx.get(Program, partner.program_id)
    if partner.payout_email is None:
        raise RuleViolation(
            f"partner {partner.name} has no payout e-mail",
            field="partner_id",
            hint="set one with affiliates__update_partner",
        )
    net, approved, claws = _balance(ctx, partner)
    if net < program.min_payout:
        raise RuleViolation(
            f"the payable balance {net / 100:.2f} {program.currency} is below the minimum payout "
            f"{program.min_payout / 100:.2f}",
            field="partner_id",
            hint="approve more commissions or wait for further conversions",
        )
    reference = f"PO-{ctx.next_number(Commission, 'payout'):05d}"
    now = ctx.now()
    settled = [ctx.update(c, status="paid", paid_at=now, payout_reference=reference) for c in approved + claws]
    gross = sum(c.amount for c in approved)
    return Payout(
        reference=reference,
        partner_id=partner.id,
        payout_email=partner.payout_email,
        gross=gross,
        clawed_back=gross - net,
        net=net,
        currency=program.currency,
        commissions=settled,
    )


class Earnings(BaseModel):
    """A partner's commissions by status."""

    partner_id: PartnerId = Field(description="The partner.")
    pending: Cents = Field(description="On hold, in cents.")
    approved: Cents = Field(description="Approved and unpaid, in cents.")
    paid: Cents = Field(description="Paid so far, in cents.")
    clawbacks_due: Cents = Field(description="Clawbacks to deduct from the next payout, in cents.")
    payable: Cents = Field(description="What a payout would send now, in cents.")


@service.tool(intent="report the partner's earnings")
def partner_earnings(ctx: Ctx, partner_id: PartnerId) -> Earnings:
    """Sum a partner's commissions by status and what a payout would send now.

    Args:
        partner_id: The partner.
    """
    partner = ctx.get(Partner, partner_id, field="partner_id")
    coms = ctx.where(Commission, partner_id=partner.id, kind="commission")
    net, _, claws = _balance(ctx, partner)
    return Earnings(
        partner_id=partner.id,
        pending=sum(c.amount for c in coms if c.status == "pending"),
        approved=sum(c.amount for c in coms if c.status == "approved"),
        paid=sum(c.amount for c in coms if c.status == "paid"),
        clawbacks_due=sum(c.amount for c in claws),
        payable=max(net, 0),
    )


# -- seeding ----------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Three programs; the population's contacts as partners; consumers referred, buying and earning."""
    pop = s.population
    domain = pop.home.domain
    saas = s.create(
        Program,
        name=f"{pop.home.name} Affiliate Program",
        landing_domain=domain,
        commission_type="percent",
        commission_rate=20.0,
        cap_per_conversion=50000,
        commission_limit=12,
        hold_days=30,
        min_payout=5000,
        created_at=s.now - dt.timedelta(days=400),
    )
    bounty = s.create(
        Program,
        name=f"{pop.home.name} Referral Bounty",
        landing_domain=domain,
        commission_type="flat",
        flat_amount=15000,
        commission_limit=1,
        hold_days=14,
        min_payout=10000,
        auto_approve=True,
        created_at=s.now - dt.timedelta(days=200),
    )
    s.create(
        Program,
        name="Influencer Pilot 2025",
        status="paused",
        landing_domain=domain,
        commission_type="percent",
        commission_rate=10.0,
        created_at=s.now - dt.timedelta(days=300),
    )
    orders = first_order_numbers(pop)
    consumers = list(pop.consumers)
    statuses: tuple[PartnerStatus, ...] = ("approved", "approved", "approved", "applied", "rejected", "suspended")
    nth = 0
    for k, person in enumerate(pop.contacts[:18]):
        program = saas if k % 3 else bounty
        status = statuses[k % len(statuses)]
        company = pop.company_of(person)
        partner = s.create(
            Partner,
            program_id=program.id,
            name=person.name,
            email=person.email,
            company=company.name if company else None,
            payout_email=person.email if k % 4 else None,
            status=status,
            created_at=s.now - dt.timedelta(days=120 - k),
            updated_at=s.now - dt.timedelta(days=100 - k),
        )
        if status not in ("approved", "suspended"):
            continue
        key = f"{person.first_name}-{person.last_name}-{k}".lower()
        key = re.sub(r"[^a-z0-9-]", "", key)[:40]
        link = s.create(
            Link,
            partner_id=partner.id,
            program_id=program.id,
            key=key,
            destination=f"https://{domain}/{'pricing' if program is saas else 'signup'}",
            url=f"{TRACKING_HOST}/{key}",
            clicks=s.rng.randint(20, 900),
            created_at=s.now - dt.timedelta(days=90 - k),
        )
        for _ in range(2):
            if nth >= len(consumers):
                break
            buyer = consumers[nth]
            nth += 1
            _seed_referral(s, program, partner, link, buyer.email, buyer.name, orders.get(buyer.email), nth)


def _seed_referral(
    s: SeedContext,
    program: Program,
    partner: Partner,
    link: Link,
    email: str,
    name: str,
    order: str | None,
    n: int,
) -> None:
    start = s.now - dt.timedelta(days=80 - n)
    ref = s.create(
        Referral,
        program_id=program.id,
        partner_id=partner.id,
        link_id=link.id,
        customer_email=email,
        customer_name=name,
        status="customer" if n % 5 else "lead",
        created_at=start,
    )
    if n % 5 == 0:
        return
    purchases = [order or f"AFF-{10000 + n}"] + ([f"AFF-{20000 + n}"] if n % 3 == 0 else [])
    for i, number in enumerate(purchases):
        when = start + dt.timedelta(days=5 + 20 * i + n % 40)
        amount = s.rng.randint(40, 600) * 100
        refunded = n % 11 == 0
        conv = s.create(
            Conversion,
            program_id=program.id,
            referral_id=ref.id,
            partner_id=partner.id,
            customer_email=email,
            order_number=number,
            amount=amount,
            currency=program.currency,
            status="refunded" if refunded else "approved",
            created_at=when,
        )
        if program.commission_limit is not None and i >= program.commission_limit:
            continue
        hold = when.date() + dt.timedelta(days=program.hold_days)
        status: CommissionStatus = "pending"
        if refunded:
            status = "reversed"
        elif hold <= s.now.date():
            status = "paid" if n % 4 == 1 and partner.payout_email else "approved" if n % 2 else "pending"
        com = s.create(
            Commission,
            program_id=program.id,
            partner_id=partner.id,
            conversion_id=conv.id,
            amount=commission_for(program, amount),
            currency=program.currency,
            status=status,
            hold_until=hold,
            paid_at=s.now - dt.timedelta(days=3) if status == "paid" else None,
            payout_reference="PO-00000" if status == "paid" else None,
            created_at=when,
            updated_at=when,
        )
        s.update(conv, commission_id=com.id)
