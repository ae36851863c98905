"""Hub CRM: contacts, companies, deals in pipelines, associations, owners and engagements.

Modeled on the HubSpot CRM API v3: objects ``contacts``, ``companies`` and
``deals`` with HubSpot's own properties (``lifecyclestage``, ``hs_lead_status``,
``dealstage``, ``closedate``, ``hubspot_owner_id``); the owners API; deal
pipelines whose stages carry a win probability and an ``isClosed`` flag
(``appointmentscheduled`` … ``closedwon`` / ``closedlost``); the v4
associations API between objects (contact↔company with one primary company,
deal↔contact, deal↔company) with labels; engagements (notes, calls, tasks)
associated with records.

HubSpot's rules: a contact's e-mail and a company's domain are unique; the
lifecycle stage only moves forward (subscriber → lead → MQL → SQL →
opportunity → customer → evangelist) unless it is cleared to ``other``; a deal
stage must belong to the deal's pipeline; a closed-lost deal needs a
``closed_lost_reason``; closing a deal won needs an amount and an associated
contact and promotes its contacts and companies to ``customer``; a closed deal
must be reopened into an open stage before it is edited; a task is completed
once.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal, get_args

from pydantic import Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Company
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    Cents,
    City,
    CompanyName,
    Country,
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
    Text,
    Title,
)
from compoworld.services.kit.records import Timestamped, Value

__all__ = ["service"]

service = Service(
    "hubcrm",
    title="Hub CRM",
    category="crm",
    modeled_on="HubSpot CRM API v3 (objects contacts/companies/deals, owners, pipelines and stages, "
    "associations v4 with labels, engagements notes/calls/tasks)",
    description="Inbound-marketing CRM: contacts and companies with lifecycle stages, deals moving through "
    "pipeline stages, labelled associations between records, the sales owners they belong to, and the "
    "notes, calls and tasks logged on their timelines.",
)

OwnerId = Annotated[str, IdOf("hubcrm.owner")]
ContactId = Annotated[str, IdOf("hubcrm.contact")]
CompanyId = Annotated[str, IdOf("hubcrm.company")]
PipelineId = Annotated[str, IdOf("hubcrm.pipeline")]
DealId = Annotated[str, IdOf("hubcrm.deal")]
AssociationId = Annotated[str, IdOf("hubcrm.association")]
EngagementId = Annotated[str, IdOf("hubcrm.engagement")]

Lifecycle = Literal[
    "subscriber",
    "lead",
    "marketingqualifiedlead",
    "salesqualifiedlead",
    "opportunity",
    "customer",
    "evangelist",
    "other",
]
LeadStatus = Literal[
    "NEW", "OPEN", "IN_PROGRESS", "OPEN_DEAL", "UNQUALIFIED", "ATTEMPTED_TO_CONTACT", "CONNECTED", "BAD_TIMING"
]
ObjectType = Literal["contact", "company", "deal"]
AssocLabel = Literal["Primary", "Decision maker", "Billing contact", "Champion", "Unlabeled"]
EngagementType = Literal["NOTE", "CALL", "TASK"]
CallDisposition = Literal["connected", "left_voicemail", "no_answer", "busy", "wrong_number"]
TaskStatus = Literal["NOT_STARTED", "IN_PROGRESS", "WAITING", "COMPLETED", "DEFERRED"]
Priority = Literal["LOW", "MEDIUM", "HIGH"]
Industry = Annotated[str, Field(pattern=r"^[A-Z_]{2,60}$")]
"""HubSpot industry code (COMPUTER_SOFTWARE, RETAIL …)."""

STAGE_ORDER: tuple[str, ...] = get_args(Lifecycle)[:-1]
"""The lifecycle stages in their forward order (``other`` is outside it)."""


class Owner(Record):
    """A HubSpot user who can own records (the owners API)."""

    id: OwnerId
    email: Email
    """The owner's login e-mail."""
    first_name: FirstName
    """First name."""
    last_name: LastName
    """Last name."""
    team: Title
    """The team the owner is on."""
    archived: bool = False
    """Deactivated users own nothing new."""


class Stage(Value):
    """A stage of a deal pipeline."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9_]{2,40}$")]
    """Internal stage id (``closedwon``)."""
    label: Title
    """Display label."""
    probability: Annotated[float, Field(ge=0, le=1)]
    """Win probability of deals in this stage (0.0-1.0)."""
    is_closed: bool = False
    """Whether deals in this stage are closed."""


class Pipeline(Record):
    """A deal pipeline: ordered stages."""

    id: PipelineId
    label: Title
    """Pipeline name."""
    stages: tuple[Stage, ...]
    """Its stages in display order."""


class Contact(Timestamped):
    """A person the company markets and sells to."""

    id: ContactId
    email: Email
    """Primary e-mail (unique)."""
    firstname: FirstName
    """First name."""
    lastname: LastName
    """Last name."""
    phone: Phone | None = None
    """Phone number."""
    jobtitle: JobTitle | None = None
    """Job title."""
    lifecyclestage: Lifecycle = "lead"
    """Lifecycle stage; moves forward only."""
    hs_lead_status: LeadStatus | None = None
    """Lead status for sales follow-up."""
    hubspot_owner_id: OwnerId | None = None
    """The contact owner."""


class CompanyRec(Timestamped):
    """A company (business account)."""

    id: CompanyId
    name: CompanyName
    """Company name."""
    domain: Domain
    """Company domain (unique)."""
    industry: Industry | None = None
    """Industry."""
    city: City | None = None
    """City."""
    country: Country | None = None
    """Country code."""
    numberofemployees: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    """Head count."""
    lifecyclestage: Lifecycle = "lead"
    """Lifecycle stage; moves forward only."""
    hubspot_owner_id: OwnerId | None = None
    """The company owner."""


class Deal(Timestamped):
    """A deal in a pipeline stage."""

    id: DealId
    dealname: Title
    """Deal name."""
    pipeline: PipelineId
    """The pipeline."""
    dealstage: Annotated[str, Field(pattern=r"^[a-z0-9_]{2,40}$")]
    """The stage id within the pipeline."""
    amount: Cents | None = None
    """Deal amount in minor units."""
    deal_currency_code: Currency
    """Currency of the amount."""
    closedate: Date | None = None
    """Expected or actual close date."""
    hubspot_owner_id: OwnerId | None = None
    """The deal owner."""
    hs_is_closed: bool = False
    """Whether the deal is in a closed stage."""
    hs_is_closed_won: bool = False
    """Whether the deal was won."""
    closed_lost_reason: Text | None = None
    """Why it was lost."""


class Association(Record):
    """A labelled association between two CRM records (associations API v4)."""

    id: AssociationId
    from_object: ObjectType
    """contact, company or deal."""
    from_id: Annotated[str, Field(pattern=r"^[a-z]+_[A-Za-z0-9]+$")]
    """The record the association starts from."""
    to_object: ObjectType
    """contact, company or deal."""
    to_id: Annotated[str, Field(pattern=r"^[a-z]+_[A-Za-z0-9]+$")]
    """The record it points to."""
    label: AssocLabel = "Unlabeled"
    """Primary (a contact's primary company), Decision maker, Billing contact, Champion or Unlabeled."""


class Engagement(Timestamped):
    """A note, call or task on the timelines of its associated records."""

    id: EngagementId
    type: EngagementType
    """NOTE, CALL or TASK."""
    hs_timestamp: DateTime
    """When it happened (or, for a task, when it is due)."""
    hubspot_owner_id: OwnerId
    """Who logged or owns it."""
    title: Title | None = None
    """Subject (calls and tasks)."""
    body: Text = ""
    """Note text, call notes or task notes."""
    contact_id: ContactId | None = None
    """Associated contact."""
    company_id: CompanyId | None = None
    """Associated company."""
    deal_id: DealId | None = None
    """Associated deal."""
    call_disposition: CallDisposition | None = None
    """Outcome of a call."""
    call_duration_s: Annotated[int, Field(ge=0, le=86400)] | None = None
    """Call length in seconds."""
    task_status: TaskStatus | None = None
    """Status of a task."""
    task_priority: Priority | None = None
    """Priority of a task."""
    completed_at: DateTime | None = None
    """When a task was completed."""


# -- rules ------------------------------------------------------------------------------------


def _owner(ctx: Ctx, owner_id: str | None, field: str = "hubspot_owner_id") -> None:
    if owner_id is None:
        return
    owner = ctx.get(Owner, owner_id, field=field)
    if owner.archived:
        raise RuleViolation(f"owner {owner.email} is deactivated", field=field, hint="pick an active owner")


def _forward(new: Any, old: Any) -> None:
    if old is None or new.lifecyclestage == old.lifecyclestage or new.lifecyclestage == "other":
        return
    if old.lifecyclestage != "other" and STAGE_ORDER.index(new.lifecyclestage) < STAGE_ORDER.index(old.lifecyclestage):
        raise RuleViolation(
            f"lifecycle stage cannot move back from {old.lifecyclestage} to {new.lifecyclestage}",
            field="lifecyclestage",
            hint="set it to 'other' first to reset it, as HubSpot requires",
        )


def _guard_record(ctx: Ctx, new: Any, old: Any) -> None:
    _owner(ctx, new.hubspot_owner_id)
    _forward(new, old)


def _stage(ctx: Ctx, pipeline_id: str, stage_id: str) -> Stage:
    pipe = ctx.get(Pipeline, pipeline_id, field="pipeline")
    for st in pipe.stages:
        if st.id == stage_id:
            return st
    raise RuleViolation(
        f"stage {stage_id!r} is not in pipeline {pipe.label!r}",
        field="dealstage",
        hint="use one of: " + ", ".join(s.id for s in pipe.stages),
    )


def _guard_deal(ctx: Ctx, new: Any, old: Any) -> None:
    _owner(ctx, new.hubspot_owner_id)
    if old is not None and old.hs_is_closed and (new.amount, new.dealname) != (old.amount, old.dealname):
        raise RuleViolation(
            f"deal {old.dealname!r} is closed", field="deal_id", hint="reopen it with hubcrm__move_deal_stage first"
        )


def _assoc_of(ctx: Ctx, rec_id: str, other: str) -> list[Association]:
    out = [a for a in ctx.where(Association, from_id=rec_id) if a.to_object == other]
    return out + [a for a in ctx.where(Association, to_id=rec_id) if a.from_object == other]


def _linked(ctx: Ctx, rec_id: str, other: str) -> list[str]:
    return [x.to_id if x.from_id == rec_id else x.from_id for x in _assoc_of(ctx, rec_id, other)]


def _guard_delete(ctx: Ctx, new: Any, old: Any) -> None:
    """Deleting a record removes its associations; a company with an open deal is not deleted."""
    for deal in (ctx.get(Deal, i) for i in _linked(ctx, old.id, "deal")):
        if isinstance(old, CompanyRec) and not deal.hs_is_closed:
            raise RuleViolation(
                f"company {old.name!r} has open deal {deal.dealname!r}",
                field="company_id",
                hint="close or delete its open deals first",
            )
    for x in ctx.where(Association, from_id=old.id) + ctx.where(Association, to_id=old.id):
        ctx.delete(x)


def _guard_engagement(ctx: Ctx, new: Any, old: Any) -> None:
    if new.task_status == "COMPLETED" and old.task_status != "COMPLETED":
        ctx.update(new, completed_at=ctx.now())


owners = service.resource(
    Owner, name="owner", plural="owners", prefix="own", create=False, delete=False, filters=("email", "team")
)
pipelines = service.resource(
    Pipeline, name="pipeline", plural="pipelines", prefix="pipe", create=False, get=False, delete=False, filters=()
)
contacts = service.resource(
    Contact,
    name="contact",
    plural="contacts",
    prefix="ct",
    create=("email", "firstname", "lastname", "phone", "jobtitle", "lifecyclestage", "hubspot_owner_id"),
    filters=("email", "lifecyclestage", "hs_lead_status", "hubspot_owner_id"),
    search=("firstname", "lastname", "email", "jobtitle"),
    update=("firstname", "lastname", "phone", "jobtitle", "lifecyclestage", "hs_lead_status", "hubspot_owner_id"),
    unique=("email",),
    guard_create=_guard_record,
    guard_update=_guard_record,
    guard_delete=_guard_delete,
)
companies = service.resource(
    CompanyRec,
    name="company",
    plural="companies",
    prefix="co",
    create=("name", "domain", "industry", "city", "country", "numberofemployees", "hubspot_owner_id"),
    filters=("domain", "industry", "country", "lifecyclestage", "hubspot_owner_id"),
    search=("name", "domain"),
    update=("name", "industry", "city", "country", "numberofemployees", "lifecyclestage", "hubspot_owner_id"),
    unique=("domain",),
    guard_create=_guard_record,
    guard_update=_guard_record,
    guard_delete=_guard_delete,
)
deals = service.resource(
    Deal,
    name="deal",
    plural="deals",
    prefix="deal",
    create=False,
    filters=("pipeline", "dealstage", "hubspot_owner_id", "hs_is_closed", "hs_is_closed_won"),
    search=("dealname",),
    update=("dealname", "amount", "closedate", "hubspot_owner_id"),
    delete=False,
    guard_update=_guard_deal,
)
associations = service.resource(
    Association,
    name="association",
    plural="associations",
    prefix="asc",
    create=False,
    get=False,
    filters=("from_object", "from_id", "to_object", "to_id", "label"),
    delete=True,
)
engagements = service.resource(
    Engagement,
    name="engagement",
    plural="engagements",
    prefix="eng",
    create=False,
    filters=("type", "hubspot_owner_id", "contact_id", "company_id", "deal_id", "task_status"),
    search=("title", "body"),
    update=("title", "body", "hs_timestamp", "task_priority"),
    transitions={
        "complete": Transition(
            "task_status",
            ("NOT_STARTED", "IN_PROGRESS", "WAITING", "DEFERRED"),
            "COMPLETED",
            "complete the task",
            description="Mark a task that is not yet done completed; when it was completed is recorded.",
        ),
    },
    guard_update=_guard_engagement,
)


# -- domain tools -----------------------------------------------------------------------------


_KIND: dict[str, type[Record]] = {"contact": Contact, "company": CompanyRec, "deal": Deal}


def _link(ctx: Ctx, a: str, a_id: str, b: str, b_id: str, label: str) -> Association:
    ctx.get(_KIND[a], a_id, field="from_id")
    ctx.get(_KIND[b], b_id, field="to_id")
    if a == b:
        raise RuleViolation("records of one type are not associated here", field="to_object", hint="pick another type")
    for x in _assoc_of(ctx, a_id, b):
        if b_id in (x.from_id, x.to_id):
            raise Conflict(f"{a} {a_id} and {b} {b_id} are already associated", field="to_id", hint="nothing to do")
    if label == "Primary":
        if (a, b) != ("contact", "company"):
            raise RuleViolation(
                "only a contact's company can be Primary", field="label", hint="use another label or Unlabeled"
            )
        for x in _assoc_of(ctx, a_id, b):
            if x.label == "Primary":
                raise Conflict(
                    f"contact {a_id} already has a primary company",
                    field="label",
                    hint="remove that association with hubcrm__delete_association first",
                )
    return ctx.create(Association, from_object=a, from_id=a_id, to_object=b, to_id=b_id, label=label)


def _example_associate(ctx: Ctx) -> dict[str, Any] | None:
    deal = ctx.first(Deal, hs_is_closed=False)
    if deal is None:
        return None
    linked = set(_linked(ctx, deal.id, "contact"))
    for c in ctx.scan(Contact):
        if c.id not in linked:
            return {"from_object": "deal", "from_id": deal.id, "to_object": "contact", "to_id": c.id}
    return None


@service.tool(intent="associate the records", write=True, example=_example_associate)
def associate(
    ctx: Ctx, from_object: ObjectType, from_id: str, to_object: ObjectType, to_id: str, label: AssocLabel = "Unlabeled"
) -> Association:
    """Associate two records of different types, with a label; a contact has at most one Primary company.

    Args:
        from_object: contact, company or deal.
        from_id: The first record's id.
        to_object: contact, company or deal.
        to_id: The second record's id.
        label: Primary (contact→company only), Decision maker, Billing contact, Champion or Unlabeled.
    """
    return _link(ctx, from_object, from_id, to_object, to_id, label)


def _sales_pipeline(ctx: Ctx) -> str:
    return next(p.id for p in ctx.scan(Pipeline) if p.label == "Sales Pipeline")


def _example_deal(ctx: Ctx) -> dict[str, Any] | None:
    owner = ctx.first(Owner, archived=False)
    co = ctx.first(CompanyRec)
    ct = ctx.first(Contact)
    if owner is None or co is None or ct is None:
        return None
    close = (ctx.today() + dt.timedelta(days=45)).isoformat()
    args = {"dealstage": "qualifiedtobuy", "amount": 1_250_000, "closedate": close, "contact_ids": [ct.id]}
    return args | {
        "dealname": f"{co.name} - expansion",
        "pipeline": _sales_pipeline(ctx),
        "hubspot_owner_id": owner.id,
        "company_id": co.id,
    }


@service.tool(intent="create the deal", write=True, example=_example_deal)
def create_deal(
    ctx: Ctx,
    dealname: Title,
    pipeline: PipelineId,
    dealstage: Annotated[str, Field(pattern=r"^[a-z0-9_]{2,40}$")],
    hubspot_owner_id: OwnerId,
    amount: Cents | None = None,
    closedate: Date | None = None,
    company_id: CompanyId | None = None,
    contact_ids: tuple[ContactId, ...] = (),
) -> Deal:
    """Create a deal in an open stage of a pipeline, associated with its company and contacts.

    Args:
        dealname: The deal's name.
        pipeline: The pipeline (see hubcrm__list_pipelines).
        dealstage: An open stage id of that pipeline (e.g. ``appointmentscheduled``).
        hubspot_owner_id: The deal owner.
        amount: The amount in minor units.
        closedate: The expected close date.
        company_id: The company to associate.
        contact_ids: Contacts to associate.
    """
    st = _stage(ctx, pipeline, dealstage)
    if st.is_closed:
        raise RuleViolation("a new deal starts in an open stage", field="dealstage", hint="pick an open stage")
    _owner(ctx, hubspot_owner_id)
    if company_id is not None:
        ctx.get(CompanyRec, company_id, field="company_id")
    for cid in contact_ids:
        ctx.get(Contact, cid, field="contact_ids")
    if len(set(contact_ids)) != len(contact_ids):
        raise RuleViolation("a contact is listed twice", field="contact_ids", hint="list each contact once")
    deal = ctx.create(
        Deal,
        dealname=dealname,
        pipeline=pipeline,
        dealstage=dealstage,
        amount=amount,
        deal_currency_code=ctx.population.home.place.currency,
        closedate=closedate,
        hubspot_owner_id=hubspot_owner_id,
    )
    if company_id is not None:
        _link(ctx, "deal", deal.id, "company", company_id, "Unlabeled")
    for cid in contact_ids:
        _link(ctx, "deal", deal.id, "contact", cid, "Unlabeled")
        contact = ctx.get(Contact, cid)
        if contact.lifecyclestage in STAGE_ORDER[:4]:
            ctx.update(contact, lifecyclestage="opportunity", hs_lead_status="OPEN_DEAL")
    return deal


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    deal = ctx.first(Deal, hs_is_closed=False, pipeline=_sales_pipeline(ctx))
    return None if deal is None else {"deal_id": deal.id, "dealstage": "contractsent"}


@service.tool(intent="move the deal to another stage", write=True, example=_example_move)
def move_deal_stage(
    ctx: Ctx,
    deal_id: DealId,
    dealstage: Annotated[str, Field(pattern=r"^[a-z0-9_]{2,40}$")],
    closed_lost_reason: Text | None = None,
) -> Deal:
    """Move a deal to another stage of its pipeline; closing won promotes its contacts and companies to customer.

    Closed lost needs a reason; closed won needs an amount and an associated contact. Moving a closed
    deal to an open stage reopens it.

    Args:
        deal_id: The deal.
        dealstage: The target stage id in the deal's pipeline.
        closed_lost_reason: Why the deal was lost (required for a lost stage).
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    st = _stage(ctx, deal.pipeline, dealstage)
    if st.id == deal.dealstage:
        raise Conflict(f"deal is already in {st.label}", field="dealstage", hint="pick another stage")
    won = st.is_closed and st.probability >= 1
    lost = st.is_closed and not won
    if lost and not (closed_lost_reason or "").strip():
        raise RuleViolation("a lost deal needs a reason", field="closed_lost_reason", hint="say why it was lost")
    contact_ids = _linked(ctx, deal.id, "contact")
    if won:
        if not deal.amount:
            raise RuleViolation("a won deal needs an amount", field="deal_id", hint="set it with hubcrm__update_deal")
        if not contact_ids:
            raise RuleViolation(
                "a won deal needs an associated contact", field="deal_id", hint="associate one with hubcrm__associate"
            )
    changes: dict[str, Any] = {
        "dealstage": st.id,
        "hs_is_closed": st.is_closed,
        "hs_is_closed_won": won,
        "closed_lost_reason": closed_lost_reason.strip() if lost and closed_lost_reason else None,
    }
    if st.is_closed:
        changes["closedate"] = ctx.today()
    if won:
        company_ids = _linked(ctx, deal.id, "company")
        for rec in [ctx.get(Contact, c) for c in contact_ids] + [ctx.get(CompanyRec, c) for c in company_ids]:
            if rec.lifecyclestage not in ("customer", "evangelist"):
                ctx.update(rec, lifecyclestage="customer")
    return ctx.update(deal, **changes)


def _engage(
    ctx: Ctx, kind: str, owner: str, links: tuple[str | None, str | None, str | None], **fields: Any
) -> Engagement:
    _owner(ctx, owner)
    if links == (None, None, None):
        raise RuleViolation(
            "an engagement must be associated with a record", field="contact_id", hint="give a contact, company or deal"
        )
    named = dict(zip(("contact_id", "company_id", "deal_id"), links, strict=True))
    models: tuple[type[Record], ...] = (Contact, CompanyRec, Deal)
    for (name, value), model in zip(named.items(), models, strict=True):
        if value is not None:
            ctx.get(model, value, field=name)
    return ctx.create(Engagement, type=kind, hubspot_owner_id=owner, **named, **fields)


def _example_note(ctx: Ctx) -> dict[str, Any] | None:
    owner, ct = ctx.first(Owner, archived=False), ctx.first(Contact)
    if owner is None or ct is None:
        return None
    return {"hubspot_owner_id": owner.id, "body": "Asked for a security questionnaire.", "contact_id": ct.id}


@service.tool(intent="add a note to the record", write=True, example=_example_note)
def create_note(
    ctx: Ctx,
    hubspot_owner_id: OwnerId,
    body: Text,
    contact_id: ContactId | None = None,
    company_id: CompanyId | None = None,
    deal_id: DealId | None = None,
) -> Engagement:
    """Add a note to the timeline of a contact, company or deal.

    Args:
        hubspot_owner_id: Who writes it.
        body: The note.
        contact_id: Associated contact.
        company_id: Associated company.
        deal_id: Associated deal.
    """
    if not body.strip():
        raise RuleViolation("a note needs text", field="body", hint="write the note")
    return _engage(ctx, "NOTE", hubspot_owner_id, (contact_id, company_id, deal_id), hs_timestamp=ctx.now(), body=body)


def _example_call(ctx: Ctx) -> dict[str, Any] | None:
    base = _example_note(ctx)
    return (
        None if base is None else base | {"title": "Discovery call", "call_disposition": "connected", "duration_s": 900}
    )


@service.tool(intent="log the call", write=True, example=_example_call)
def log_call(
    ctx: Ctx,
    hubspot_owner_id: OwnerId,
    title: Title,
    call_disposition: CallDisposition,
    duration_s: Annotated[int, Field(ge=0, le=86400)] = 0,
    body: Text = "",
    contact_id: ContactId | None = None,
    deal_id: DealId | None = None,
) -> Engagement:
    """Log a call that took place; a connected call moves a NEW or ATTEMPTED contact's lead status to CONNECTED.

    Args:
        hubspot_owner_id: Who called.
        title: Call subject.
        call_disposition: connected, left_voicemail, no_answer, busy or wrong_number.
        duration_s: Length in seconds (0 unless connected).
        body: Call notes.
        contact_id: The contact called.
        deal_id: Associated deal.
    """
    if call_disposition != "connected" and duration_s > 120:
        raise RuleViolation(
            f"a {call_disposition} call cannot last {duration_s} s", field="duration_s", hint="use connected"
        )
    call = _engage(
        ctx,
        "CALL",
        hubspot_owner_id,
        (contact_id, None, deal_id),
        hs_timestamp=ctx.now(),
        title=title,
        body=body,
        call_disposition=call_disposition,
        call_duration_s=duration_s,
    )
    if contact_id is not None:
        ct = ctx.get(Contact, contact_id)
        status = ct.hs_lead_status
        if call_disposition == "connected" and status in (None, "NEW", "ATTEMPTED_TO_CONTACT", "OPEN"):
            ctx.update(ct, hs_lead_status="CONNECTED")
        elif call_disposition != "connected" and status in (None, "NEW", "OPEN"):
            ctx.update(ct, hs_lead_status="ATTEMPTED_TO_CONTACT")
    return call


def _example_task(ctx: Ctx) -> dict[str, Any] | None:
    base = _example_note(ctx)
    if base is None:
        return None
    return base | {
        "title": "Send proposal",
        "due": (ctx.now() + dt.timedelta(days=3)).replace(microsecond=0).isoformat(),
    }


@service.tool(intent="create the task", write=True, example=_example_task)
def create_task(
    ctx: Ctx,
    hubspot_owner_id: OwnerId,
    title: Title,
    due: DateTime,
    task_priority: Priority = "MEDIUM",
    body: Text = "",
    contact_id: ContactId | None = None,
    deal_id: DealId | None = None,
) -> Engagement:
    """Create a follow-up task for an owner, due at a time, on a contact, company or deal.

    Args:
        hubspot_owner_id: Who must do it.
        title: What to do.
        due: When it is due.
        task_priority: LOW, MEDIUM or HIGH.
        body: Notes.
        contact_id: Associated contact.
        deal_id: Associated deal.
    """
    return _engage(
        ctx,
        "TASK",
        hubspot_owner_id,
        (contact_id, None, deal_id),
        hs_timestamp=due,
        title=title,
        body=body,
        task_status="NOT_STARTED",
        task_priority=task_priority,
    )


# -- seed -------------------------------------------------------------------------------------

SALES = (
    ("appointmentscheduled", "Appointment scheduled", 0.2, False),
    ("qualifiedtobuy", "Qualified to buy", 0.4, False),
    ("presentationscheduled", "Presentation scheduled", 0.6, False),
    ("decisionmakerboughtin", "Decision maker bought-in", 0.8, False),
    ("contractsent", "Contract sent", 0.9, False),
    ("closedwon", "Closed won", 1.0, True),
    ("closedlost", "Closed lost", 0.0, True),
)
RENEWALS = (
    ("renewal_due", "Renewal due", 0.7, False),
    ("renewal_negotiation", "In negotiation", 0.8, False),
    ("renewed", "Renewed", 1.0, True),
    ("churned", "Churned", 0.0, True),
)


def _pair(s: SeedContext, a: str, a_id: str, b: str, b_id: str, label: str) -> None:
    s.create(Association, from_object=a, from_id=a_id, to_object=b, to_id=b_id, label=label)


def _eng(s: SeedContext, kind: str, owner: str, days: int, links: tuple[str | None, ...], **kw: Any) -> None:
    when = s.ago(days=days)
    made = min(when, s.now)
    contact, company, deal = links
    s.create(
        Engagement,
        type=kind,
        hs_timestamp=when,
        hubspot_owner_id=owner,
        contact_id=contact,
        company_id=company,
        deal_id=deal,
        created_at=made,
        updated_at=made,
        **kw,
    )


@service.seeder
def seed(s: SeedContext) -> None:
    """Sales owners, the two pipelines, customer companies with their contacts, deals in every stage, engagements."""
    pop = s.population
    team = pop.staff("Sales", fallback=4) + pop.staff("Marketing", fallback=0)[:2]
    owners = [
        s.create(Owner, email=p.email, first_name=p.first_name, last_name=p.last_name, team=p.department or "Sales")
        for p in team
    ]
    if len(owners) > 2:
        s.update(owners[-1], archived=True)
    active = owners[:-1] if len(owners) > 2 else owners
    pipes = [
        s.create(
            Pipeline, label=label, stages=tuple(Stage(id=a, label=b, probability=c, is_closed=d) for a, b, c, d in rows)
        )
        for label, rows in (("Sales Pipeline", SALES), ("Renewals", RENEWALS))
    ]
    for k, c in enumerate(pop.customers[:14]):
        _seed_account(s, k, c, active[k % len(active)].id, pipes[0].id)
    for k, p in enumerate(pop.consumers[:8]):
        life: Any = "subscriber" if k % 2 == 0 else "lead"
        when = s.ago(days=30 + k)
        s.create(
            Contact,
            email=p.email,
            firstname=p.first_name,
            lastname=p.last_name,
            lifecyclestage=life,
            hs_lead_status=None if k % 2 == 0 else "NEW",
            created_at=when,
            updated_at=when,
        )


def _seed_account(s: SeedContext, k: int, c: Company, owner: str, pipeline: str) -> None:
    """One customer company, its contacts (first is primary buyer), a deal in a stage and its engagements."""
    st = SALES[k % len(SALES)]
    won = st[0] == "closedwon"
    life: Any = "customer" if won else ("opportunity" if k % 3 else "salesqualifiedlead")
    co = s.create(
        CompanyRec,
        name=c.name,
        domain=c.domain,
        industry=c.industry.upper(),
        city=c.place.city,
        country=c.place.country,
        numberofemployees=c.employees,
        lifecyclestage=life,
        hubspot_owner_id=owner,
        created_at=s.ago(days=300 - 15 * k),
        updated_at=s.ago(days=10 + k),
    )
    made: list[Contact] = []
    for j, p in enumerate(s.population.people_at(c)[:3]):
        stage: Any = life if j == 0 else ("marketingqualifiedlead" if j == 1 else "lead")
        status: Any = "OPEN_DEAL" if j == 0 and not won else ("NEW" if j else None)
        made.append(
            s.create(
                Contact,
                email=p.email,
                firstname=p.first_name,
                lastname=p.last_name,
                phone=p.phone,
                jobtitle=p.job_title,
                lifecyclestage=stage,
                hs_lead_status=status,
                hubspot_owner_id=owner,
                created_at=s.ago(days=290 - 15 * k),
                updated_at=s.ago(days=5 + k),
            )
        )
        _pair(s, "contact", made[-1].id, "company", co.id, "Primary")
    deal = s.create(
        Deal,
        dealname=f"{c.name} - {('new business', 'platform', 'pilot')[k % 3]}",
        pipeline=pipeline,
        dealstage=st[0],
        amount=s.rng.randrange(5_000, 120_000) * 100,
        deal_currency_code=s.population.home.place.currency,
        closedate=(s.now + dt.timedelta(days=s.rng.randint(-20, 60))).date(),
        hubspot_owner_id=owner,
        hs_is_closed=st[3],
        hs_is_closed_won=won,
        closed_lost_reason="Chose a competitor on price" if st[0] == "closedlost" else None,
        created_at=s.ago(days=120 - 5 * k),
        updated_at=s.ago(days=3 + k),
    )
    _pair(s, "deal", deal.id, "company", co.id, "Unlabeled")
    if made:
        first = made[0].id
        _pair(s, "deal", deal.id, "contact", first, "Decision maker")
        talk = k % 4 != 0
        _eng(
            s,
            "CALL",
            owner,
            k + 2,
            (first, None, deal.id),
            title="Discovery call",
            body="Discussed tooling and budget.",
            call_disposition="connected" if talk else "no_answer",
            call_duration_s=1200 if talk else 0,
        )
        done = k % 5 == 0
        _eng(
            s,
            "TASK",
            owner,
            -(k % 5) - 1,
            (first, None, deal.id),
            title=f"Follow up with {made[0].firstname}",
            task_status="COMPLETED" if done else "NOT_STARTED",
            task_priority="HIGH" if k % 2 else "MEDIUM",
            completed_at=s.ago(days=1) if done else None,
        )
    if k % 3 == 0:
        _eng(s, "NOTE", owner, 7, (None, co.id, None), body="Procurement asked for SOC 2 report.")
