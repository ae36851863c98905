"""Relay CRM: accounts, contacts, leads, opportunities and activities.

Modeled on the Salesforce REST API (sObjects Account, Contact, Lead,
Opportunity, Task): opportunities move through a sales-stage pipeline, leads
convert into an account, a contact and an opportunity, and a closed
opportunity cannot be reopened or edited.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company, Person
from compoworld.engine.errors import NotFound, RuleViolation
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
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    Phone,
    PostalAddress,
    Text,
    Title,
)
from compoworld.services.kit.records import Created

__all__ = ["service"]

service = Service(
    "crm",
    title="Relay CRM",
    category="crm",
    modeled_on="Salesforce REST API v60 (Account, Contact, Lead, Opportunity, Task)",
    description="Customer relationship management: the accounts the company sells to, their people, "
    "the sales pipeline and the activities logged against it.",
)

AccountId = Annotated[str, IdOf("crm.account")]
ContactId = Annotated[str, IdOf("crm.contact")]
LeadId = Annotated[str, IdOf("crm.lead")]
OpportunityId = Annotated[str, IdOf("crm.opportunity")]
Stage = Literal["prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"]
OPEN_STAGES: tuple[str, ...] = ("prospecting", "qualification", "proposal", "negotiation")


class Account(Created):
    """A company the home company sells to."""

    id: AccountId
    name: CompanyName
    """Company name."""
    domain: Domain
    """The company's web domain."""
    industry: str = ""
    """Industry, free text."""
    billing_address: PostalAddress
    """Where invoices go."""
    phone: Phone | None = None
    """Main phone number."""
    owner_email: Email
    """E-mail of the sales rep who owns the account."""


class Contact(Created):
    """A person at an account."""

    id: ContactId
    account_id: AccountId
    """The account the contact works at."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """Work e-mail address."""
    phone: Phone | None = None
    """Direct phone number."""
    title: JobTitle | None = None
    """Job title."""
    do_not_contact: bool = False
    """Whether the contact opted out of outreach."""


class Lead(Created):
    """A prospective customer not yet qualified into an account."""

    id: LeadId
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    email: Email
    """E-mail address."""
    company: CompanyName
    """Company the lead works at."""
    status: Literal["new", "working", "converted", "disqualified"] = "new"
    """Lead status; conversion and disqualification are final."""
    source: Literal["web", "referral", "event", "outbound"] = "web"
    """Where the lead came from."""
    converted_contact_id: ContactId | None = None
    """The contact a converted lead became."""


class Opportunity(Record):
    """A potential deal with an account, moving through sales stages."""

    id: OpportunityId
    account_id: AccountId
    """The account the deal is with."""
    name: Title
    """Deal name."""
    amount: Cents
    """Expected deal value in cents."""
    currency: Currency = "USD"
    """Currency of the amount."""
    stage: Stage = "prospecting"
    """Sales stage; closed stages are final."""
    close_date: Date
    """Expected or actual close date."""
    primary_contact_id: ContactId | None = None
    """The main contact for the deal."""
    loss_reason: str | None = None
    """Why a lost deal was lost."""
    updated_at: Annotated[DateTime, UPDATED]
    """When the opportunity last changed."""


class Activity(Record):
    """A logged call, meeting, e-mail or to-do against a contact."""

    id: Annotated[str, IdOf("crm.activity")]
    contact_id: ContactId
    """The contact the activity concerns."""
    opportunity_id: OpportunityId | None = None
    """The deal it relates to, if any."""
    kind: Literal["call", "meeting", "email", "task"]
    """Kind of activity."""
    subject: Title
    """Short subject."""
    notes: Text = ""
    """Details."""
    due_date: Date | None = None
    """Due date of a task."""
    done: bool = False
    """Whether it is completed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was logged."""


def _guard_opportunity(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.stage in ("closed_won", "closed_lost") and new.stage == old.stage:
        raise RuleViolation(
            f"opportunity {old.id} is closed ({old.stage}) and cannot be edited",
            hint="create a new opportunity for follow-up business",
        )
    if new.stage == "closed_won" and new.amount == 0:
        raise RuleViolation(
            "an opportunity cannot be won with an amount of 0",
            field="amount",
            hint="set the deal amount before closing it as won",
        )


def _guard_account_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Contact, account_id=old.id) is not None:
        raise RuleViolation(f"account {old.id} still has contacts", hint="delete or move its contacts first")


accounts = service.resource(
    Account,
    name="account",
    plural="accounts",
    prefix="acc",
    filters=("industry", "owner_email", "domain"),
    search=("name", "domain"),
    update=("name", "industry", "billing_address", "phone", "owner_email"),
    unique=("domain",),
    guard_delete=_guard_account_delete,
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="con",
    filters=("account_id", "email", "last_name"),
    search=("first_name", "last_name", "email"),
    update=("first_name", "last_name", "email", "phone", "title", "do_not_contact"),
    unique=("email",),
)
leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="lead",
    create=("first_name", "last_name", "email", "company", "source"),
    filters=("status", "source", "email"),
    search=("first_name", "last_name", "company"),
    update=("first_name", "last_name", "email", "company"),
    transitions={
        "start_working": Transition("status", ("new",), "working", "start working the lead"),
        "disqualify": Transition("status", ("new", "working"), "disqualified", "disqualify the lead"),
    },
    unique=("email",),
)
opportunities = service.resource(
    Opportunity,
    name="opportunity",
    plural="opportunities",
    prefix="opp",
    create=("account_id", "name", "amount", "currency", "close_date", "primary_contact_id"),
    filters=("account_id", "stage", "primary_contact_id"),
    search=("name",),
    update=("name", "amount", "close_date", "primary_contact_id"),
    delete=False,
    guard_update=_guard_opportunity,
    title="opportunity",
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    filters=("contact_id", "opportunity_id", "kind", "done"),
    search=("subject",),
    update=("subject", "notes", "due_date"),
    transitions={"complete": Transition("done", (False,), True, "mark the activity done")},
)


class Conversion(BaseModel):
    """What converting a lead created."""

    account: Account = Field(description="The account (existing or new).")
    contact: Contact = Field(description="The new contact.")
    opportunity: Opportunity | None = Field(description="The new opportunity, if one was asked for.")


@service.tool(intent="convert the lead into a customer", write=True)
def convert_lead(
    ctx: Ctx,
    lead_id: LeadId,
    account_domain: Domain,
    opportunity_name: Title | None = None,
    opportunity_amount: Cents = 0,
    close_date: Date | None = None,
) -> Conversion:
    """Convert a lead into a contact at an account, optionally opening an opportunity.

    The account is found by its domain or created from the lead's company.
    Converted and disqualified leads cannot be converted.

    Args:
        lead_id: The lead to convert.
        account_domain: Web domain of the lead's company; an existing account with it is reused.
        opportunity_name: Name of an opportunity to open; omit to open none.
        opportunity_amount: Expected value of that opportunity in cents.
        close_date: Expected close date of that opportunity (default: 30 days from today).
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.status in ("converted", "disqualified"):
        raise RuleViolation(
            f"lead {lead.id} is {lead.status} and cannot be converted",
            field="lead_id",
            hint="only new or working leads can be converted",
        )
    account = ctx.first(Account, domain=account_domain)
    if account is None:
        home = ctx.population.home
        account = ctx.create(
            Account,
            name=lead.company,
            domain=account_domain,
            industry="",
            billing_address=home.address,
            owner_email=ctx.population.employees[0].email,
        )
    contact = ctx.create(
        Contact, account_id=account.id, first_name=lead.first_name, last_name=lead.last_name, email=lead.email
    )
    opp = None
    if opportunity_name:
        opp = ctx.create(
            Opportunity,
            account_id=account.id,
            name=opportunity_name,
            amount=opportunity_amount,
            close_date=close_date or ctx.today() + dt.timedelta(days=30),
            primary_contact_id=contact.id,
        )
    ctx.update(lead, status="converted", converted_contact_id=contact.id)
    return Conversion(account=account, contact=contact, opportunity=opp)


@service.tool(intent="move the deal to a new sales stage", write=True)
def advance_opportunity(
    ctx: Ctx, opportunity_id: OpportunityId, stage: Stage, loss_reason: str | None = None
) -> Opportunity:
    """Move an opportunity to another stage of the pipeline.

    Open stages can move forward or back; closing as won needs a non-zero
    amount; closing as lost needs a loss reason; closed deals are final.

    Args:
        opportunity_id: The opportunity.
        stage: The new stage.
        loss_reason: Why the deal was lost; required for closed_lost.
    """
    opp = ctx.get(Opportunity, opportunity_id, field="opportunity_id")
    if opp.stage not in OPEN_STAGES:
        raise RuleViolation(
            f"opportunity {opp.id} is already {opp.stage}",
            field="opportunity_id",
            hint="closed opportunities are final; create a new one",
        )
    if stage == opp.stage:
        raise RuleViolation(f"opportunity {opp.id} is already at stage {stage}", field="stage")
    if stage == "closed_lost" and not (loss_reason or "").strip():
        raise RuleViolation(
            "closing as lost needs a loss_reason", field="loss_reason", hint="say why the deal was lost"
        )
    if stage == "closed_won" and opp.amount == 0:
        raise RuleViolation(
            "an opportunity cannot be won with an amount of 0", field="stage", hint="update the amount first"
        )
    return ctx.update(opp, stage=stage, loss_reason=loss_reason if stage == "closed_lost" else None)


class PipelineSummary(BaseModel):
    """Open pipeline of one account."""

    account_id: AccountId = Field(description="The account.")
    open_opportunities: int = Field(description="Number of open opportunities.")
    open_amount: Cents = Field(description="Sum of their amounts in cents.")
    won_amount: Cents = Field(description="Sum of won opportunities in cents.")


@service.tool(intent="total up the account's sales pipeline")
def account_pipeline(ctx: Ctx, account_id: AccountId) -> PipelineSummary:
    """Summarise an account's open and won opportunities.

    Args:
        account_id: The account.
    """
    opps = ctx.where(Opportunity, account_id=account_id)
    open_ = [o for o in opps if o.stage in OPEN_STAGES]
    return PipelineSummary(
        account_id=account_id,
        open_opportunities=len(open_),
        open_amount=sum(o.amount for o in open_),
        won_amount=sum(o.amount for o in opps if o.stage == "closed_won"),
    )


@service.tool(intent="find the contact with this e-mail address")
def find_contact_by_email(ctx: Ctx, email: Email) -> Contact:
    """Find the contact whose work e-mail is the given address.

    Args:
        email: The e-mail address.
    """
    found = ctx.first(Contact, email=email)
    if found is None:
        raise NotFound(
            f"no contact with e-mail {email}", field="email", hint="search contacts by name with crm__list_contacts"
        )
    return found


@service.seeder
def seed(s: SeedContext) -> None:
    """Accounts for customer companies, their people as contacts, a pipeline, leads."""
    pop = s.population
    reps = pop.staff("Sales")
    for n, company in enumerate(pop.customers):
        account = _seed_account(s, company, reps)
        # Every fifth account is a fresh prospect whose people are not in the CRM yet.
        contacts = _seed_contacts(s, account, pop.people_at(company) if n % 5 else ())
        _seed_opportunities(s, account, contacts)
        _seed_activity(s, account, contacts)
    _seed_leads(s)


def _seed_account(s: SeedContext, company: Company, reps: Sequence[Person]) -> Account:
    return s.create(
        Account,
        name=company.name,
        domain=company.domain,
        industry=company.industry,
        billing_address=company.address,
        phone=company.phone,
        owner_email=s.rng.choice(reps).email,
    )


def _seed_contacts(s: SeedContext, account: Account, people: Sequence[Person]) -> list[Contact]:
    return [
        s.create(
            Contact,
            account_id=account.id,
            first_name=p.first_name,
            last_name=p.last_name,
            email=p.email,
            phone=p.phone,
            title=p.job_title,
        )
        for p in people
    ]


def _seed_opportunities(s: SeedContext, account: Account, contacts: Sequence[Contact]) -> None:
    for k in range(s.rng.randint(0, 2)):
        stage = s.rng.choice(("prospecting", "qualification", "proposal", "negotiation", "closed_won", "closed_lost"))
        s.create(
            Opportunity,
            account_id=account.id,
            name=f"{account.name} {('renewal', 'expansion', 'pilot')[k % 3]}",
            amount=s.rng.randint(50, 900) * 10000,
            currency="USD",
            stage=stage,
            close_date=s.now.date() + dt.timedelta(days=s.rng.randint(-60, 90)),
            primary_contact_id=contacts[0].id if contacts else None,
            loss_reason="Chose a competitor" if stage == "closed_lost" else None,
        )


def _seed_activity(s: SeedContext, account: Account, contacts: Sequence[Contact]) -> None:
    # The coin is tossed only for accounts with contacts: the draw order is part of the seeded world.
    if contacts and s.rng.random() < 0.5:
        s.create(
            Activity,
            contact_id=contacts[0].id,
            kind=s.rng.choice(("call", "meeting", "email")),
            subject=f"Check-in with {account.name}",
        )


def _seed_leads(s: SeedContext) -> None:
    consumers = s.population.consumers
    for person in consumers[: max(4, len(consumers) // 4)]:
        s.create(
            Lead,
            first_name=person.first_name,
            last_name=person.last_name,
            email=person.email,
            company=f"{person.last_name} Consulting",
            source=s.rng.choice(("web", "referral", "event", "outbound")),
        )
