"""Kindred Giving: donors, donations, campaigns with goals, funds, pledges and tax receipts.

Modeled on the Bloomerang API v2 (Constituents, Transactions with designations
to Funds, Campaigns, Pledges and pledge payments, receipts) and Salesforce
Nonprofit Success Pack (recurring pledges, write-offs, year-end receipts): a
gift is recorded only for an active donor, to an active fund, within an
active campaign's dates; a pledge payment cannot exceed the pledge's balance
and fulfils it when nothing is left; a donor holds one open pledge per
campaign; a year-end receipt covers the donor's unreceipted gifts of a past or
current year and states the deductible amount (gift less benefits received);
a receipted gift is refunded only after its receipt is voided.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Generated, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    CompanyName,
    Date,
    DateTime,
    Email,
    IdOf,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.time import utc_at

__all__ = ["service"]

service = Service(
    "fundraising",
    title="Kindred Giving",
    category="fundraising",
    modeled_on="Bloomerang API v2 (Constituents, Transactions/Designations, Funds, Campaigns, Pledges, Receipts) "
    "with Salesforce NPSP recurring pledges and year-end receipts",
    description="Donor management for a nonprofit: individual and organization donors, gifts designated to funds "
    "and campaigns with goals, multi-installment pledges and their payments, refunds, write-offs and year-end tax "
    "receipts.",
)

ConstituentId = Annotated[str, IdOf("fundraising.constituent")]
FundId = Annotated[str, IdOf("fundraising.fund")]
CampaignId = Annotated[str, IdOf("fundraising.campaign")]
DonationId = Annotated[str, IdOf("fundraising.donation")]
PledgeId = Annotated[str, IdOf("fundraising.pledge")]
ReceiptId = Annotated[str, IdOf("fundraising.tax_receipt")]

Method = Literal["cash", "check", "credit_card", "ach", "stock", "in_kind"]
Year = Annotated[int, Field(ge=2000, le=2100)]


class Constituent(Record):
    """A donor: a person or an organization."""

    id: ConstituentId
    type: Literal["individual", "organization"]
    """individual or organization."""
    name: PersonName
    """The person, or an organization's contact."""
    organization_name: CompanyName | None = None
    """Name of an organization donor."""
    email: Email
    """Primary e-mail; unique."""
    phone: Phone | None = None
    """Phone number."""
    address: PostalAddress | None = None
    """Mailing address (for receipts)."""
    status: Literal["active", "inactive", "deceased"] = "active"
    """Only active donors can give or pledge."""
    lifetime_giving: Cents = 0
    """Posted gifts less refunds, in cents."""
    last_gift_date: Date | None = None
    """Date of the latest posted gift."""
    created_at: Annotated[DateTime, CREATED]
    """When the donor was added."""


class Fund(Record):
    """Where gifts are designated."""

    id: FundId
    name: Title
    """Fund name."""
    restricted: bool = False
    """Whether its money may only be spent on its purpose."""
    active: bool = True
    """Inactive funds take no gifts."""


class Campaign(Record):
    """A fundraising campaign with a goal."""

    id: CampaignId
    name: Title
    """Campaign name."""
    goal: Cents
    """Fundraising goal in cents."""
    start_date: Date
    """First day."""
    end_date: Date
    """Last day."""
    fund_id: FundId
    """Fund its gifts go to by default."""
    status: Literal["planned", "active", "closed"] = "planned"
    """planned, active (takes gifts and pledges) or closed."""
    raised: Cents = 0
    """Posted gifts in cents."""


class Donation(Record):
    """A gift."""

    id: DonationId
    constituent_id: ConstituentId
    """The donor."""
    donor_email: Email
    """The donor's e-mail."""
    amount: Cents
    """Amount in cents."""
    date: Date
    """Gift date."""
    method: Method
    """How it was given."""
    fund_id: FundId
    """Fund it is designated to."""
    campaign_id: CampaignId | None = None
    """Campaign it counts towards."""
    pledge_id: PledgeId | None = None
    """The pledge it pays."""
    non_deductible: Cents = 0
    """Value of benefits the donor received (e.g. a gala dinner), in cents; not deductible."""
    tribute: Text = ""
    """In honor or memory of."""
    status: Literal["posted", "refunded"] = "posted"
    """posted or refunded."""
    refund_reason: Text | None = None
    """Why it was refunded."""
    receipt_id: ReceiptId | None = None
    """The tax receipt covering it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was recorded."""


class Pledge(Record):
    """A promise to give an amount over installments."""

    id: PledgeId
    constituent_id: ConstituentId
    """The donor."""
    campaign_id: CampaignId
    """The campaign."""
    amount: Cents
    """Pledged total in cents."""
    paid: Cents = 0
    """Paid so far in cents."""
    balance: Cents
    """Still to be paid in cents."""
    installments: Annotated[int, Field(ge=1, le=60)]
    """Number of installments."""
    frequency: Literal["monthly", "quarterly", "annually", "one_time"]
    """How often an installment is due."""
    start_date: Date
    """First installment date."""
    status: Literal["open", "fulfilled", "written_off"] = "open"
    """open, fulfilled (paid in full) or written_off."""
    write_off_reason: Text | None = None
    """Why it was written off."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class TaxReceipt(Record):
    """A year-end receipt of a donor's gifts."""

    id: ReceiptId
    receipt_number: Annotated[str, Generated("sequence", "RCPT-{n:05d}")]
    """Receipt number."""
    constituent_id: ConstituentId
    """The donor."""
    donor_name: PersonName
    """Name on the receipt."""
    organization_name: CompanyName | None = None
    """Organization on the receipt."""
    donor_email: Email
    """Where it was sent."""
    year: Year
    """Tax year."""
    donation_ids: list[DonationId] = Field(max_length=500)
    """The gifts covered."""
    total_amount: Cents
    """Sum of the gifts in cents."""
    deductible_amount: Cents
    """Sum less benefits received, in cents."""
    status: Literal["issued", "voided"] = "issued"
    """issued or voided."""
    issued_at: Annotated[DateTime, CREATED]
    """When it was issued."""


# -- rules ------------------------------------------------------------------------------------


def _guard_constituent(ctx: Ctx, new: Any, old: Any) -> None:
    if new.type == "organization" and new.organization_name is None:
        raise RuleViolation(
            "an organization donor needs its name", field="organization_name", hint="give the organization's name"
        )
    if old is not None and old.status == "deceased" and new.status != "deceased":
        raise RuleViolation(
            "a deceased donor cannot be reactivated", field="status", hint="record the gift under another donor"
        )


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if new.end_date < new.start_date:
        raise RuleViolation("the campaign ends before it starts", field="end_date", hint="give a later end date")
    fund = ctx.get(Fund, new.fund_id, field="fund_id")
    if not fund.active and (old is None or new.fund_id != old.fund_id):
        raise RuleViolation(f"fund {fund.name} is inactive", field="fund_id", hint="pick an active fund")
    if old is not None and old.status == "closed":
        raise RuleViolation(f"campaign {old.name} is closed", field="campaign_id", hint="closed campaigns are final")


def _active_donor(ctx: Ctx, constituent_id: str, field: str) -> Constituent:
    donor = ctx.get(Constituent, constituent_id, field=field)
    if donor.status != "active":
        raise RuleViolation(
            f"donor {donor.email} is {donor.status}",
            field=field,
            hint="reactivate the donor with fundraising__update_constituent"
            if donor.status == "inactive"
            else "gifts in memory of a deceased donor are recorded under the giver",
        )
    return donor


def _live_campaign(ctx: Ctx, campaign_id: str, day: dt.date | None, field: str) -> Campaign:
    camp = ctx.get(Campaign, campaign_id, field=field)
    if camp.status != "active":
        raise RuleViolation(
            f"campaign {camp.name} is {camp.status}",
            field=field,
            hint="launch it with fundraising__launch_campaign" if camp.status == "planned" else "pick an active one",
        )
    if day is not None and not camp.start_date <= day <= camp.end_date:
        raise RuleViolation(
            f"campaign {camp.name} runs {camp.start_date} to {camp.end_date}, not {day}",
            field="date",
            hint="date the gift within the campaign, or give it to another campaign",
        )
    return camp


def _post_totals(ctx: Ctx, donor_id: str, campaign_id: str | None, amount: int, day: dt.date | None) -> None:
    donor = ctx.get(Constituent, donor_id)
    changes: dict[str, Any] = {"lifetime_giving": max(0, donor.lifetime_giving + amount)}
    if day is not None and (donor.last_gift_date is None or day > donor.last_gift_date):
        changes["last_gift_date"] = day
    ctx.update(donor, **changes)
    if campaign_id is not None:
        camp = ctx.get(Campaign, campaign_id)
        ctx.update(camp, raised=max(0, camp.raised + amount))


constituents = service.resource(
    Constituent,
    name="constituent",
    plural="constituents",
    prefix="con",
    create=("type", "name", "organization_name", "email", "phone", "address"),
    filters=("type", "status", "email", "organization_name"),
    search=("name", "organization_name", "email"),
    update=("name", "email", "phone", "address", "status"),
    delete=False,
    unique=("email",),
    guard_create=_guard_constituent,
    guard_update=_guard_constituent,
    title="donor",
)
funds = service.resource(
    Fund,
    name="fund",
    plural="funds",
    prefix="fund",
    create=False,
    get=False,
    filters=("active", "restricted"),
    search=("name",),
    delete=False,
)
campaigns = service.resource(
    Campaign,
    name="campaign",
    plural="campaigns",
    prefix="camp",
    create=("name", "goal", "start_date", "end_date", "fund_id"),
    filters=("status", "fund_id"),
    search=("name",),
    update=("name", "goal", "end_date"),
    delete=False,
    transitions={
        "launch": Transition("status", ("planned",), "active", "launch the fundraising campaign"),
        "close": Transition("status", ("active",), "closed", "close the fundraising campaign", destructive=True),
    },
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
    title="fundraising campaign",
)
donations = service.resource(
    Donation,
    name="donation",
    plural="donations",
    prefix="don",
    create=False,
    filters=("constituent_id", "donor_email", "campaign_id", "fund_id", "pledge_id", "status", "method", "receipt_id"),
    search=("tribute",),
    delete=False,
    title="gift",
)
pledges = service.resource(
    Pledge,
    name="pledge",
    plural="pledges",
    prefix="plg",
    create=False,
    filters=("constituent_id", "campaign_id", "status", "frequency"),
    delete=False,
)
receipts = service.resource(
    TaxReceipt,
    name="tax_receipt",
    plural="tax_receipts",
    prefix="rcpt",
    create=False,
    filters=("constituent_id", "donor_email", "year", "status", "receipt_number"),
    delete=False,
    title="tax receipt",
)


# -- examples ---------------------------------------------------------------------------------


def _example_gift(ctx: Ctx) -> dict[str, Any] | None:
    donor = ctx.first(Constituent, status="active")
    today = ctx.today()
    camp = next((c for c in ctx.where(Campaign, status="active") if c.start_date <= today <= c.end_date), None)
    if donor is None or camp is None:
        return None
    return {"constituent_id": donor.id, "amount": 150_00, "method": "credit_card", "campaign_id": camp.id}


def _example_pledge(ctx: Ctx) -> dict[str, Any] | None:
    for camp in ctx.where(Campaign, status="active"):
        busy = {p.constituent_id for p in ctx.where(Pledge, campaign_id=camp.id, status="open")}
        for donor in ctx.where(Constituent, status="active"):
            if donor.id not in busy:
                return {
                    "constituent_id": donor.id,
                    "campaign_id": camp.id,
                    "amount": 1_200_00,
                    "installments": 12,
                    "frequency": "monthly",
                }
    return None


def _example_receipt(ctx: Ctx) -> dict[str, Any] | None:
    for d in ctx.where(Donation, status="posted"):
        if d.receipt_id is None:
            return {"constituent_id": d.constituent_id, "year": d.date.year}
    return None


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="record the donor's gift", write=True, example=_example_gift)
def record_donation(
    ctx: Ctx,
    constituent_id: ConstituentId,
    amount: Cents,
    method: Method,
    campaign_id: CampaignId | None = None,
    fund_id: FundId | None = None,
    pledge_id: PledgeId | None = None,
    date: Date | None = None,
    non_deductible: Cents = 0,
    tribute: Text = "",
) -> Donation:
    """Record a gift from an active donor, optionally paying one of their pledges.

    The gift goes to the given fund, else the campaign's fund, else the
    general fund. A campaign must be active and the gift dated within it. A
    pledge payment counts towards the pledge's campaign, cannot exceed what is
    left on the pledge, and fulfils the pledge when nothing is left. The value
    of benefits received cannot exceed the gift.

    Args:
        constituent_id: The donor.
        amount: Amount in cents.
        method: cash, check, credit_card, ach, stock or in_kind.
        campaign_id: Campaign it counts towards.
        fund_id: Fund it is designated to.
        pledge_id: The donor's open pledge it pays.
        date: Gift date; default today.
        non_deductible: Value of benefits the donor received, in cents.
        tribute: In honor or memory of.
    """
    donor = _active_donor(ctx, constituent_id, "constituent_id")
    day = date or ctx.today()
    if day > ctx.today():
        raise RuleViolation("a gift cannot be dated in the future", field="date", hint="record it when it arrives")
    if amount <= 0:
        raise RuleViolation("the amount must be positive", field="amount", hint="record at least one cent")
    if non_deductible > amount:
        raise RuleViolation(
            "the benefits received exceed the gift", field="non_deductible", hint="it is at most the gift amount"
        )
    pledge = None
    if pledge_id is not None:
        pledge = ctx.get(Pledge, pledge_id, field="pledge_id")
        if pledge.constituent_id != donor.id:
            raise RuleViolation(
                "the pledge is another donor's", field="pledge_id", hint="pick one of this donor's pledges"
            )
        if pledge.status != "open":
            raise RuleViolation(f"the pledge is {pledge.status}", field="pledge_id", hint="record a plain gift instead")
        if amount > pledge.balance:
            raise RuleViolation(
                f"{amount} exceeds the pledge's balance of {pledge.balance}",
                field="amount",
                hint=f"pay at most {pledge.balance} on the pledge and record the rest as a separate gift",
            )
        if campaign_id is not None and campaign_id != pledge.campaign_id:
            raise RuleViolation(
                "a pledge payment counts towards the pledge's campaign",
                field="campaign_id",
                hint="omit campaign_id or use the pledge's campaign",
            )
        campaign_id = pledge.campaign_id
    camp = _live_campaign(ctx, campaign_id, day, "campaign_id") if campaign_id is not None else None
    target = fund_id or (camp.fund_id if camp else None)
    if target is None:
        general = ctx.first(Fund, restricted=False, active=True)
        assert general is not None, "the general fund is seeded"
        target = general.id
    fund = ctx.get(Fund, target, field="fund_id")
    if not fund.active:
        raise RuleViolation(f"fund {fund.name} is inactive", field="fund_id", hint="designate an active fund")
    gift = ctx.create(
        Donation,
        constituent_id=donor.id,
        donor_email=donor.email,
        amount=amount,
        date=day,
        method=method,
        fund_id=fund.id,
        campaign_id=camp.id if camp else None,
        pledge_id=pledge.id if pledge else None,
        non_deductible=non_deductible,
        tribute=tribute,
    )
    _post_totals(ctx, donor.id, gift.campaign_id, amount, day)
    if pledge is not None:
        left = pledge.balance - amount
        ctx.update(pledge, paid=pledge.paid + amount, balance=left, status="fulfilled" if left == 0 else "open")
    return gift


@service.tool(
    intent="refund the gift",
    write=True,
    destructive=True,
    example=first_example(
        Donation,
        "donation_id",
        where={"status": "posted"},
        match=lambda ctx, d: d.receipt_id is None,
        reason="Charged twice",
    ),
)
def refund_donation(ctx: Ctx, donation_id: DonationId, reason: Text) -> Donation:
    """Refund a posted gift: the donor's, campaign's and pledge's totals are reversed.

    A gift on an issued tax receipt is refunded only after the receipt is voided.

    Args:
        donation_id: The gift.
        reason: Why it is refunded.
    """
    gift = ctx.get(Donation, donation_id, field="donation_id")
    if gift.status != "posted":
        raise RuleViolation("the gift is already refunded", field="donation_id", hint="nothing to do")
    if gift.receipt_id is not None:
        receipt = ctx.get(TaxReceipt, gift.receipt_id)
        raise RuleViolation(
            f"the gift is on tax receipt {receipt.receipt_number}",
            field="donation_id",
            hint="void the receipt with fundraising__void_tax_receipt first, then reissue it without this gift",
        )
    if not reason.strip():
        raise RuleViolation("a refund needs a reason", field="reason", hint="say why")
    _post_totals(ctx, gift.constituent_id, gift.campaign_id, -gift.amount, None)
    if gift.pledge_id is not None:
        pledge = ctx.get(Pledge, gift.pledge_id)
        ctx.update(
            pledge,
            paid=max(0, pledge.paid - gift.amount),
            balance=pledge.balance + gift.amount,
            status="open" if pledge.status == "fulfilled" else pledge.status,
        )
    return ctx.update(gift, status="refunded", refund_reason=reason.strip())


@service.tool(intent="record the donor's pledge", write=True, example=_example_pledge)
def create_pledge(
    ctx: Ctx,
    constituent_id: ConstituentId,
    campaign_id: CampaignId,
    amount: Cents,
    installments: Annotated[int, Field(ge=1, le=60)] = 1,
    frequency: Literal["monthly", "quarterly", "annually", "one_time"] = "one_time",
    start_date: Date | None = None,
) -> Pledge:
    """Record an active donor's pledge to an active campaign; a donor holds one open pledge per campaign.

    Each installment is at least 1.00, and a one-time pledge has one installment.

    Args:
        constituent_id: The donor.
        campaign_id: The campaign.
        amount: Pledged total in cents.
        installments: Number of installments.
        frequency: monthly, quarterly, annually or one_time.
        start_date: First installment date; default today.
    """
    donor = _active_donor(ctx, constituent_id, "constituent_id")
    camp = _live_campaign(ctx, campaign_id, None, "campaign_id")
    if ctx.first(Pledge, constituent_id=donor.id, campaign_id=camp.id, status="open") is not None:
        raise Conflict(
            f"{donor.email} already has an open pledge to {camp.name}",
            field="campaign_id",
            hint="pay or write off that pledge first",
        )
    if frequency == "one_time" and installments != 1:
        raise RuleViolation("a one-time pledge has one installment", field="installments", hint="pass 1")
    if amount < installments * 1_00:
        raise RuleViolation(
            "each installment must be at least 1.00", field="amount", hint="pledge more or use fewer installments"
        )
    return ctx.create(
        Pledge,
        constituent_id=donor.id,
        campaign_id=camp.id,
        amount=amount,
        balance=amount,
        installments=installments,
        frequency=frequency,
        start_date=start_date or ctx.today(),
    )


@service.tool(
    intent="write off the unpaid pledge",
    write=True,
    destructive=True,
    example=first_example(Pledge, "pledge_id", where={"status": "open"}, reason="Donor moved abroad"),
)
def write_off_pledge(ctx: Ctx, pledge_id: PledgeId, reason: Text) -> Pledge:
    """Write off what is left of an open pledge; it stops counting as expected income.

    Args:
        pledge_id: The open pledge.
        reason: Why.
    """
    pledge = ctx.get(Pledge, pledge_id, field="pledge_id")
    if pledge.status != "open":
        raise RuleViolation(
            f"the pledge is {pledge.status}", field="pledge_id", hint="only open pledges are written off"
        )
    if not reason.strip():
        raise RuleViolation("a write-off needs a reason", field="reason", hint="say why")
    return ctx.update(pledge, status="written_off", write_off_reason=reason.strip())


@service.tool(intent="issue the donor's tax receipt for the year", write=True, example=_example_receipt)
def issue_tax_receipt(ctx: Ctx, constituent_id: ConstituentId, year: Year) -> TaxReceipt:
    """Issue a receipt for a donor's posted gifts of a year that no receipt covers yet.

    The deductible amount is each gift less the value of the benefits the
    donor received. The year cannot be in the future.

    Args:
        constituent_id: The donor.
        year: Tax year.
    """
    donor = ctx.get(Constituent, constituent_id, field="constituent_id")
    if year > ctx.today().year:
        raise RuleViolation(f"{year} has not started", field="year", hint="receipt a past or the current year")
    gifts = [
        d
        for d in ctx.where(Donation, constituent_id=donor.id, status="posted")
        if d.date.year == year and d.receipt_id is None
    ]
    if not gifts:
        raise RuleViolation(
            f"{donor.email} has no unreceipted gifts in {year}",
            field="year",
            hint="list their receipts with fundraising__list_tax_receipts; void one to reissue it",
        )
    receipt = ctx.create(
        TaxReceipt,
        constituent_id=donor.id,
        donor_name=donor.name,
        organization_name=donor.organization_name,
        donor_email=donor.email,
        year=year,
        donation_ids=[d.id for d in gifts],
        total_amount=sum(d.amount for d in gifts),
        deductible_amount=sum(d.amount - d.non_deductible for d in gifts),
    )
    for d in gifts:
        ctx.update(d, receipt_id=receipt.id)
    return receipt


@service.tool(
    intent="void the tax receipt",
    write=True,
    destructive=True,
    example=first_example(TaxReceipt, "tax_receipt_id", where={"status": "issued"}, reason="Wrong address"),
)
def void_tax_receipt(ctx: Ctx, tax_receipt_id: ReceiptId, reason: Text) -> TaxReceipt:
    """Void an issued receipt: its gifts become unreceipted so that a corrected receipt can be issued.

    Args:
        tax_receipt_id: The receipt.
        reason: Why.
    """
    receipt = ctx.get(TaxReceipt, tax_receipt_id, field="tax_receipt_id")
    if receipt.status != "issued":
        raise RuleViolation("the receipt is already voided", field="tax_receipt_id", hint="nothing to do")
    if not reason.strip():
        raise RuleViolation("voiding needs a reason", field="reason", hint="say why")
    for d in ctx.where(Donation, receipt_id=receipt.id):
        ctx.update(d, receipt_id=None)
    return ctx.update(receipt, status="voided")


class CampaignProgress(BaseModel):
    """How a campaign stands against its goal."""

    campaign_id: CampaignId = Field(description="The campaign.")
    name: Title = Field(description="Its name.")
    goal: Cents = Field(description="Goal in cents.")
    raised: Cents = Field(description="Posted gifts in cents.")
    percent_of_goal: Percent = Field(description="Raised as a percentage of the goal (capped at 100).")
    pledged_outstanding: Cents = Field(description="Balance of open pledges in cents.")
    projected: Cents = Field(description="Raised plus outstanding pledges, in cents.")
    donors: int = Field(description="Donors with a posted gift.")
    days_left: int = Field(description="Days until the campaign ends (0 when over).")


@service.tool(
    intent="check the campaign's progress towards its goal",
    example=first_example(Campaign, "campaign_id", where={"status": "active"}),
)
def campaign_progress(ctx: Ctx, campaign_id: CampaignId) -> CampaignProgress:
    """Compare a campaign's gifts and open pledges with its goal.

    Args:
        campaign_id: The campaign.
    """
    camp = ctx.get(Campaign, campaign_id, field="campaign_id")
    gifts = ctx.where(Donation, campaign_id=camp.id, status="posted")
    outstanding = sum(p.balance for p in ctx.where(Pledge, campaign_id=camp.id, status="open"))
    raised = sum(d.amount for d in gifts)
    return CampaignProgress(
        campaign_id=camp.id,
        name=camp.name,
        goal=camp.goal,
        raised=raised,
        percent_of_goal=min(100.0, round(100 * raised / camp.goal, 2)) if camp.goal else 100.0,
        pledged_outstanding=outstanding,
        projected=raised + outstanding,
        donors=len({d.constituent_id for d in gifts}),
        days_left=max(0, (camp.end_date - ctx.today()).days),
    )


class DonorSummary(BaseModel):
    """A donor's giving."""

    constituent_id: ConstituentId = Field(description="The donor.")
    name: PersonName = Field(description="Their name.")
    organization_name: CompanyName | None = Field(description="Their organization.")
    email: Email = Field(description="Their e-mail.")
    lifetime_giving: Cents = Field(description="Posted gifts less refunds, in cents.")
    this_year: Cents = Field(description="Posted gifts this calendar year, in cents.")
    open_pledge_balance: Cents = Field(description="What their open pledges still owe, in cents.")
    last_gift_date: Date | None = Field(description="Date of their latest gift.")
    unreceipted_gifts: int = Field(description="Posted gifts no receipt covers yet.")


@service.tool(
    intent="look up the donor's giving history", example=first_example(Donation, fields={"email": "donor_email"})
)
def donor_summary(ctx: Ctx, email: Email) -> DonorSummary:
    """Summarise the giving of the donor with this e-mail.

    Args:
        email: The donor's e-mail.
    """
    donor = ctx.first(Constituent, email=email)
    if donor is None:
        raise NotFound(
            f"no donor with e-mail {email}",
            field="email",
            hint="search donors by name with fundraising__list_constituents",
        )
    gifts = ctx.where(Donation, constituent_id=donor.id, status="posted")
    year = ctx.today().year
    return DonorSummary(
        constituent_id=donor.id,
        name=donor.name,
        organization_name=donor.organization_name,
        email=donor.email,
        lifetime_giving=donor.lifetime_giving,
        this_year=sum(d.amount for d in gifts if d.date.year == year),
        open_pledge_balance=sum(p.balance for p in ctx.where(Pledge, constituent_id=donor.id, status="open")),
        last_gift_date=donor.last_gift_date,
        unreceipted_gifts=sum(1 for d in gifts if d.receipt_id is None),
    )


# -- seed -------------------------------------------------------------------------------------


class _Appeals(NamedTuple):
    """The campaigns the seeded gifts go to."""

    annual: Campaign
    gala: Campaign
    capital: Campaign
    year_end: Campaign


def _seed_funds(s: SeedContext) -> tuple[Fund, _Appeals]:
    """The funds and campaigns; returns the general fund and the campaigns that receive gifts."""
    year = s.now.year
    general = s.create(Fund, name="General Operating Fund")
    scholarship = s.create(Fund, name="Scholarship Fund", restricted=True)
    building = s.create(Fund, name="Building Fund", restricted=True)
    s.create(Fund, name="Flood Relief 2019", restricted=True, active=False)
    appeals = _Appeals(
        annual=s.create(
            Campaign,
            name=f"Annual Fund {year}",
            goal=250_000_00,
            start_date=dt.date(year, 1, 1),
            end_date=dt.date(year, 12, 31),
            fund_id=general.id,
            status="active",
        ),
        gala=s.create(
            Campaign,
            name=f"Spring Gala {year}",
            goal=80_000_00,
            start_date=dt.date(year, 2, 1),
            end_date=dt.date(year, 4, 30),
            fund_id=scholarship.id,
            status="active",
        ),
        capital=s.create(
            Campaign,
            name="New Learning Center",
            goal=1_500_000_00,
            start_date=dt.date(year - 1, 3, 1),
            end_date=dt.date(year + 1, 12, 31),
            fund_id=building.id,
            status="active",
        ),
        year_end=s.create(
            Campaign,
            name=f"Year-End Appeal {year - 1}",
            goal=60_000_00,
            start_date=dt.date(year - 1, 11, 1),
            end_date=dt.date(year - 1, 12, 31),
            fund_id=general.id,
            status="closed",
        ),
    )
    s.create(
        Campaign,
        name=f"Summer Camp {year}",
        goal=40_000_00,
        start_date=dt.date(year, 6, 1),
        end_date=dt.date(year, 8, 31),
        fund_id=scholarship.id,
    )
    return general, appeals


def _seed_donors(s: SeedContext) -> list[Constituent]:
    """Consumers as individual donors, then customer companies (through a contact) as organizations."""
    pop = s.population
    donors: list[Constituent] = []
    for i, person in enumerate(pop.consumers):
        donors.append(
            s.create(
                Constituent,
                type="individual",
                name=person.name,
                email=person.email,
                phone=person.phone,
                address=person.address,
                status="deceased" if i % 29 == 28 else ("inactive" if i % 13 == 12 else "active"),
                created_at=s.ago(days=100 + 9 * i),
            )
        )
    for i, company in enumerate(pop.customers[:12]):
        contact = pop.first_contact(company)
        if contact is None:
            continue
        donors.append(
            s.create(
                Constituent,
                type="organization",
                name=contact.name,
                organization_name=company.name,
                email=contact.email,
                phone=company.phone,
                address=company.address,
                created_at=s.ago(days=300 + 5 * i),
            )
        )
    return donors


@dataclass
class _Gifts:
    """The gifts while they are seeded, with the totals they add up to per donor and per campaign.

    Attributes:
        s: The seed context.
        general: The fund of gifts outside any campaign.
        gifts: Every gift so far, as created.
        totals: Posted giving per donor id.
        last: Latest posted gift date per donor id.
        raised: Posted giving per campaign id.
    """

    s: SeedContext
    general: Fund
    gifts: list[Donation] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    last: dict[str, dt.date] = field(default_factory=dict)
    raised: dict[str, int] = field(default_factory=dict)

    def give(self, donor: Constituent, amount: int, day: dt.date, camp: Campaign | None, **extra: Any) -> Donation:
        """Record a gift and add it to the totals."""
        # The method is drawn even when given, so that every gift takes the same draws.
        method = extra.pop("method", self.s.rng.choice(("credit_card", "check", "ach", "cash")))
        gift = self.s.create(
            Donation,
            constituent_id=donor.id,
            donor_email=donor.email,
            amount=amount,
            date=day,
            method=method,
            fund_id=camp.fund_id if camp else self.general.id,
            campaign_id=camp.id if camp else None,
            created_at=utc_at(day, 11),
            **extra,
        )
        if gift.status == "posted":
            self.totals[donor.id] = self.totals.get(donor.id, 0) + amount
            self.last[donor.id] = max(self.last.get(donor.id, day), day)
            if camp is not None:
                self.raised[camp.id] = self.raised.get(camp.id, 0) + amount
        self.gifts.append(gift)
        return gift

    def refund_one(self) -> Donation:
        """Refund the first gift of this year outside a pledge (charged twice); returns it as it was."""
        refunded = next(g for g in self.gifts if g.date.year == self.s.now.year and g.pledge_id is None)
        self.s.update(refunded, status="refunded", refund_reason="Card charged twice")
        self.totals[refunded.constituent_id] -= refunded.amount
        if refunded.campaign_id:
            self.raised[refunded.campaign_id] -= refunded.amount
        return refunded


def _seed_gifts(gifts: _Gifts, donors: list[Constituent], appeals: _Appeals) -> None:
    """Last year-end's gifts, this year's annual fund and gala tickets; every sixth donor never gave."""
    rng = gifts.s.rng
    today = gifts.s.now.date()
    gala = appeals.gala
    for i, donor in enumerate(donors):
        if i % 6 == 5:
            continue
        big = donor.type == "organization"
        for k in range(1 + i % 3):
            day = dt.date(today.year - 1, 11 + k % 2, 3 + (i * 7 + k) % 25)
            gifts.give(donor, rng.randint(25, 500 if not big else 5_000) * 100, day, appeals.year_end)
        if donor.status == "active" and i % 2 == 0:
            day = today - dt.timedelta(days=1 + (i * 5) % 55)
            gifts.give(donor, rng.randint(20, 300 if not big else 3_000) * 100, day, appeals.annual)
        if donor.status == "active" and i % 5 == 1 and today >= gala.start_date:
            day = max(gala.start_date, today - dt.timedelta(days=1 + i % 20))
            gifts.give(
                donor, 250_00, day, gala, non_deductible=90_00, tribute="Gala dinner ticket", method="credit_card"
            )


def _seed_pledges(gifts: _Gifts, donors: list[Constituent], capital: Campaign) -> None:
    """Pledges to the learning center: some paid in installments, some fulfilled, one written off."""
    s = gifts.s
    today = s.now.date()
    pledgers = [d for d in donors if d.status == "active"][:12]
    for k, donor in enumerate(pledgers):
        amount = (12_000_00, 6_000_00, 2_400_00)[k % 3] * (5 if donor.type == "organization" else 1)
        installments = (12, 4, 1)[k % 3]
        freq = ("monthly", "quarterly", "one_time")[k % 3]
        each = amount // installments
        n_paid = installments if k % 3 == 2 and k % 2 == 0 else min(installments - 1, 2 + k % 3)
        paid = each * n_paid if n_paid < installments else amount
        status = "fulfilled" if paid == amount else ("written_off" if k == 4 else "open")
        pledge = s.create(
            Pledge,
            constituent_id=donor.id,
            campaign_id=capital.id,
            amount=amount,
            paid=paid,
            balance=amount - paid,
            installments=installments,
            frequency=freq,
            start_date=today - dt.timedelta(days=30 * max(1, n_paid)),
            status=status,
            write_off_reason="Donor's business closed" if status == "written_off" else None,
            updated_at=s.ago(days=3),
        )
        for m in range(n_paid):
            part = each if n_paid < installments or m < n_paid - 1 else amount - each * (n_paid - 1)
            gifts.give(
                donor, part, today - dt.timedelta(days=30 * (n_paid - m)), capital, pledge_id=pledge.id, method="ach"
            )


def _seed_receipts(s: SeedContext, donors: list[Constituent], gifts: list[Donation], refunded: Donation) -> None:
    """Receipts for last year's gifts, one voided and reissued; every seventh donor still waits for theirs."""
    year = s.now.year
    by_donor: dict[str, list[Donation]] = {}
    for g in gifts:
        if g.date.year == year - 1 and g.id != refunded.id:
            by_donor.setdefault(g.constituent_id, []).append(g)
    for k, donor in enumerate(donors):
        mine = by_donor.get(donor.id)
        if not mine or k % 7 == 3:
            continue
        for attempt in (0, 1) if k == 0 else (1,):
            receipt = s.create(
                TaxReceipt,
                constituent_id=donor.id,
                donor_name=donor.name,
                organization_name=donor.organization_name,
                donor_email=donor.email,
                year=year - 1,
                donation_ids=[g.id for g in mine],
                total_amount=sum(g.amount for g in mine),
                deductible_amount=sum(g.amount - g.non_deductible for g in mine),
                status="voided" if attempt == 0 else "issued",
                issued_at=dt.datetime(year, 1, 20 + attempt, 10, 0, tzinfo=dt.UTC),
            )
        for g in mine:
            s.update(next(x for x in s.records(Donation) if x.id == g.id), receipt_id=receipt.id)


@service.seeder
def seed(s: SeedContext) -> None:
    """Funds and campaigns, consumers and customer companies as donors, two years of gifts, pledges, receipts."""
    general, appeals = _seed_funds(s)
    donors = _seed_donors(s)
    gifts = _Gifts(s, general)
    _seed_gifts(gifts, donors, appeals)
    _seed_pledges(gifts, donors, appeals.capital)
    refunded = gifts.refund_one()
    _seed_receipts(s, donors, gifts.gifts, refunded)
    for donor in donors:
        if donor.id in gifts.totals:
            s.update(donor, lifetime_giving=gifts.totals[donor.id], last_gift_date=gifts.last[donor.id])
    for camp in appeals:
        s.update(camp, raised=gifts.raised.get(camp.id, 0))
