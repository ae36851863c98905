"""Cadence Nurture: marketing automation with lead scoring, lifecycle stages, static lists and smart campaigns.

Modeled on the Marketo Engage REST API (Leads, Static Lists and list
membership, Activities, Smart Campaigns with ``schedule``/``trigger``
requests) together with HubSpot Marketing's lead scoring and lifecycle stages:
activities earn points by active scoring rules (each rule at most its limit
per lead), a lead reaching 100 points becomes marketing qualified, lifecycle
stages only move forward and a sales-qualified lead needs an owner, batch
campaigns run over every qualifying lead while trigger campaigns are requested
for one lead, each lead goes through a campaign's flow once, and campaigns
that send e-mail never reach unsubscribed or suspended leads.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Country,
    DateTime,
    Email,
    FirstName,
    IdOf,
    JobTitle,
    LastName,
    Phone,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "nurture",
    title="Cadence Nurture",
    category="marketing",
    modeled_on="Marketo Engage REST API (Leads, Static Lists, List Membership, Activities, Smart Campaigns "
    "schedule/trigger) with HubSpot Marketing lead scoring and lifecycle stages",
    description="B2B marketing automation: leads with behavioural scores and lifecycle stages, scoring rules "
    "that turn activities into points, static lists, and smart campaigns whose flows e-mail leads, move "
    "them along the funnel and hand them to sales owners.",
)

LeadId = Annotated[str, IdOf("nurture.lead")]
ListId = Annotated[str, IdOf("nurture.static_list")]
RuleId = Annotated[str, IdOf("nurture.scoring_rule")]
CampaignId = Annotated[str, IdOf("nurture.smart_campaign")]
Stage = Literal["subscriber", "lead", "marketing_qualified", "sales_qualified", "opportunity", "customer"]
STAGES: tuple[Stage, ...] = ("subscriber", "lead", "marketing_qualified", "sales_qualified", "opportunity", "customer")
ActivityType = Literal["email_open", "email_click", "web_visit", "form_fill", "webinar_attend", "content_download"]
Source = Literal["website", "webinar", "trade_show", "referral", "paid_search", "import"]
Points = Annotated[int, Field(ge=-100, le=100)]
Score = Annotated[int, Field(ge=-10000, le=100000)]
ListName = Annotated[str, StringConstraints(min_length=1, max_length=100, strip_whitespace=True)]
MQL_THRESHOLD = 100


def _rank(stage: str) -> int:
    order: tuple[str, ...] = STAGES
    return order.index(stage)


class Lead(Timestamped):
    """A person marketing knows about: their profile, score, lifecycle stage and consent."""

    id: LeadId
    email: Email
    """E-mail address; unique."""
    first_name: FirstName
    """Given name."""
    last_name: LastName
    """Family name."""
    company: CompanyName | None = None
    """Company the lead works at."""
    job_title: JobTitle | None = None
    """Job title."""
    phone: Phone | None = None
    """Phone number."""
    country: Country | None = None
    """Country (ISO code)."""
    lead_source: Source = "website"
    """Where the lead came from."""
    lifecycle_stage: Stage = "subscriber"
    """Funnel stage; only moves forward."""
    score: Score = 0
    """Behavioural score: the points its activities earned."""
    owner_email: Email | None = None
    """E-mail of the sales rep who owns the lead; required from sales_qualified on."""
    unsubscribed: bool = False
    """Whether the lead opted out of marketing e-mail."""
    unsubscribed_reason: Text | None = None
    """Why the lead opted out."""
    marketing_suspended: bool = False
    """Whether marketing to the lead is suspended (e.g. a hard bounce)."""


class StaticList(Created):
    """A static list of leads, added and removed explicitly."""

    id: ListId
    name: ListName
    """List name; unique."""
    description: Text = ""
    """What the list is for."""


class ListMembership(Record):
    """A lead's membership of a static list."""

    id: Annotated[str, IdOf("nurture.list_membership")]
    list_id: ListId
    """The list."""
    lead_id: LeadId
    """The lead."""
    added_at: Annotated[DateTime, CREATED]
    """When the lead was added."""


class ScoringRule(Record):
    """Points a lead earns for one kind of activity."""

    id: RuleId
    name: Title
    """Rule name."""
    activity_type: ActivityType
    """The activity that earns the points."""
    points: Points
    """Points per activity (negative to lower the score)."""
    limit_per_lead: Annotated[int, Field(ge=1, le=1000)] | None = None
    """How many times one lead can earn this rule's points; null: no limit."""
    active: bool = True
    """Inactive rules award nothing."""


class Activity(Record):
    """Something a lead did, and the points it earned."""

    id: Annotated[str, IdOf("nurture.activity")]
    lead_id: LeadId
    """The lead."""
    type: ActivityType
    """What the lead did."""
    url: Url | None = None
    """Page visited, form or asset URL."""
    points_awarded: Annotated[int, Field(ge=-1000, le=1000)] = 0
    """Points the scoring rules gave for it."""
    rule_ids: tuple[RuleId, ...] = ()
    """Scoring rules that awarded points."""
    occurred_at: Annotated[DateTime, CREATED]
    """When it happened."""


class SmartCampaign(Timestamped):
    """A smart campaign: who qualifies (smart list) and what happens to them (flow)."""

    id: CampaignId
    name: Title
    """Campaign name."""
    type: Literal["batch", "trigger"]
    """batch campaigns run over every qualifying lead at once; trigger campaigns are requested for one lead."""
    status: Literal["inactive", "active"] = "inactive"
    """Only active campaigns run or can be requested."""
    min_score: Score | None = None
    """Smart list: minimum score; null: any score."""
    stages: tuple[Stage, ...] = ()
    """Smart list: lifecycle stages that qualify; empty: any stage."""
    list_id: ListId | None = None
    """Smart list: only members of this static list."""
    email_subject: Title | None = None
    """Flow: subject of the e-mail sent; null sends none. Unsubscribed or suspended leads never qualify."""
    set_stage: Stage | None = None
    """Flow: stage leads move to (leads already further along keep theirs)."""
    add_to_list_id: ListId | None = None
    """Flow: static list leads are added to."""
    assign_owner_email: Email | None = None
    """Flow: sales rep who becomes the owner of leads without one; required when set_stage is sales_qualified or later."""


class Enrollment(Record):
    """One lead's run through a campaign's flow."""

    id: Annotated[str, IdOf("nurture.enrollment")]
    campaign_id: CampaignId
    """The campaign."""
    lead_id: LeadId
    """The lead."""
    email: Email
    """The lead's e-mail address at the time."""
    email_subject: Title | None = None
    """Subject of the e-mail the flow sent, if any."""
    stage_after: Stage
    """The lead's lifecycle stage after the flow."""
    enrolled_at: Annotated[DateTime, CREATED]
    """When the lead went through the flow."""


# -- rules ------------------------------------------------------------------------------------


def _guard_lead(ctx: Ctx, new: Any, old: Any) -> None:
    if _rank(new.lifecycle_stage) >= _rank("sales_qualified") and new.owner_email is None:
        raise RuleViolation(
            f"a {new.lifecycle_stage} lead needs an owner",
            field="owner_email",
            hint="give the sales rep's e-mail as owner_email",
        )


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    if new.points == 0:
        raise RuleViolation("a scoring rule must award points", field="points", hint="use a non-zero number of points")
    if new.active:
        for other in ctx.where(ScoringRule, activity_type=new.activity_type, active=True):
            if other.id != new.id and other.points * new.points > 0 and other.limit_per_lead == new.limit_per_lead:
                raise Conflict(
                    f"active rule {other.name} already scores {new.activity_type} the same way",
                    field="activity_type",
                    hint=f"change that rule (nurture__update_scoring_rule {other.id}) instead of adding a twin",
                )


def _guard_campaign(ctx: Ctx, new: Any, old: Any) -> None:
    if new.set_stage is not None and _rank(new.set_stage) >= _rank("sales_qualified") and not new.assign_owner_email:
        raise RuleViolation(
            f"a flow that makes leads {new.set_stage} must assign an owner",
            field="assign_owner_email",
            hint="give the sales rep's e-mail as assign_owner_email",
        )
    if new.add_to_list_id is not None and new.add_to_list_id == new.list_id:
        raise RuleViolation(
            "the flow adds leads to the list the smart list already requires",
            field="add_to_list_id",
            hint="add them to another list or leave add_to_list_id empty",
        )
    if new.email_subject is None and new.set_stage is None and new.add_to_list_id is None:
        raise RuleViolation(
            "the campaign's flow does nothing",
            field="email_subject",
            hint="give at least one flow step: email_subject, set_stage or add_to_list_id",
        )
    if old is not None and old.status == "active" and new.status == "active" and old.type != new.type:
        raise RuleViolation("an active campaign's type cannot change", field="type", hint="deactivate it first")


leads = service.resource(
    Lead,
    name="lead",
    plural="leads",
    prefix="ld",
    create=("email", "first_name", "last_name", "company", "job_title", "phone", "country", "lead_source"),
    filters=("email", "company", "lifecycle_stage", "owner_email", "unsubscribed", "lead_source"),
    search=("first_name", "last_name", "email", "company"),
    update=("first_name", "last_name", "company", "job_title", "phone", "country", "owner_email"),
    delete=False,
    unique=("email",),
    guard_update=_guard_lead,
)
static_lists = service.resource(
    StaticList,
    name="static_list",
    plural="static_lists",
    prefix="lst",
    create=("name", "description"),
    get=False,
    search=("name", "description"),
    delete=False,
    unique=("name",),
    title="static list",
)
memberships = service.resource(
    ListMembership,
    name="list_membership",
    plural="list_memberships",
    prefix="lm",
    create=False,
    get=False,
    filters=("list_id", "lead_id"),
    title="list membership",
)
rules = service.resource(
    ScoringRule,
    name="scoring_rule",
    plural="scoring_rules",
    prefix="sr",
    create=("name", "activity_type", "points", "limit_per_lead"),
    get=False,
    filters=("activity_type", "active"),
    update=("name", "points", "limit_per_lead", "active"),
    delete=False,
    guard_create=_guard_rule,
    guard_update=_guard_rule,
    title="scoring rule",
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="la",
    create=False,
    get=False,
    filters=("lead_id", "type"),
    delete=False,
)
campaigns = service.resource(
    SmartCampaign,
    name="smart_campaign",
    plural="smart_campaigns",
    prefix="sc",
    create=(
        "name",
        "type",
        "min_score",
        "stages",
        "list_id",
        "email_subject",
        "set_stage",
        "add_to_list_id",
        "assign_owner_email",
    ),
    filters=("type", "status"),
    search=("name",),
    update=(
        "name",
        "min_score",
        "stages",
        "list_id",
        "email_subject",
        "set_stage",
        "add_to_list_id",
        "assign_owner_email",
    ),
    delete=False,
    transitions={
        "activate": Transition("status", ("inactive",), "active", "activate the smart campaign"),
        "deactivate": Transition("status", ("active",), "inactive", "deactivate the smart campaign"),
    },
    guard_create=_guard_campaign,
    guard_update=_guard_campaign,
    title="smart campaign",
)
enrollments = service.resource(
    Enrollment,
    name="enrollment",
    plural="enrollments",
    prefix="en",
    create=False,
    get=False,
    filters=("campaign_id", "lead_id", "email"),
    delete=False,
)


def _qualifies(ctx: Ctx, campaign: SmartCampaign, lead: Lead) -> str | None:
    """Why the lead does not qualify for the campaign, or None."""
    if campaign.email_subject is not None and (lead.unsubscribed or lead.marketing_suspended):
        return "is unsubscribed or suspended and the campaign sends e-mail"
    if campaign.min_score is not None and lead.score < campaign.min_score:
        return f"has a score of {lead.score}, below the campaign's minimum of {campaign.min_score}"
    if campaign.stages and lead.lifecycle_stage not in campaign.stages:
        return f"is {lead.lifecycle_stage}, not one of {', '.join(campaign.stages)}"
    if campaign.list_id is not None and ctx.first(ListMembership, list_id=campaign.list_id, lead_id=lead.id) is None:
        return f"is not a member of list {campaign.list_id}"
    return None


def _run_flow(ctx: Ctx, campaign: SmartCampaign, lead: Lead) -> Enrollment:
    changes: dict[str, Any] = {}
    if campaign.set_stage is not None and _rank(campaign.set_stage) > _rank(lead.lifecycle_stage):
        changes["lifecycle_stage"] = campaign.set_stage
        if lead.owner_email is None and campaign.assign_owner_email is not None:
            changes["owner_email"] = campaign.assign_owner_email
    if changes:
        lead = ctx.update(lead, **changes)
    if (
        campaign.add_to_list_id is not None
        and ctx.first(ListMembership, list_id=campaign.add_to_list_id, lead_id=lead.id) is None
    ):
        ctx.create(ListMembership, list_id=campaign.add_to_list_id, lead_id=lead.id)
    return ctx.create(
        Enrollment,
        campaign_id=campaign.id,
        lead_id=lead.id,
        email=lead.email,
        email_subject=campaign.email_subject,
        stage_after=lead.lifecycle_stage,
    )


def _require_active(campaign: SmartCampaign, kind: str) -> None:
    if campaign.status != "active":
        raise RuleViolation(
            f"campaign {campaign.name} is inactive",
            field="campaign_id",
            hint="activate it first with nurture__activate_smart_campaign",
        )
    if campaign.type != kind:
        verb = "nurture__run_campaign" if campaign.type == "batch" else "nurture__request_campaign"
        raise RuleViolation(
            f"campaign {campaign.name} is a {campaign.type} campaign",
            field="campaign_id",
            hint=f"use {verb} for {campaign.type} campaigns",
        )


# -- examples ---------------------------------------------------------------------------------


def _example_add(ctx: Ctx) -> dict[str, Any] | None:
    for lst in ctx.scan(StaticList):
        for lead in ctx.scan(Lead):
            if ctx.first(ListMembership, list_id=lst.id, lead_id=lead.id) is None:
                return {"list_id": lst.id, "lead_ids": [lead.id]}
    return None


def _example_run(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(SmartCampaign, type="batch", status="active"):
        done = {e.lead_id for e in ctx.where(Enrollment, campaign_id=c.id)}
        if any(lead.id not in done and _qualifies(ctx, c, lead) is None for lead in ctx.scan(Lead)):
            return {"campaign_id": c.id}
    return None


def _example_request(ctx: Ctx) -> dict[str, Any] | None:
    for c in ctx.where(SmartCampaign, type="trigger", status="active"):
        done = {e.lead_id for e in ctx.where(Enrollment, campaign_id=c.id)}
        for lead in ctx.scan(Lead):
            if lead.id not in done and _qualifies(ctx, c, lead) is None:
                return {"campaign_id": c.id, "lead_id": lead.id}
    return None


# -- domain tools -----------------------------------------------------------------------------


class Scored(BaseModel):
    """An activity logged and the lead's score after it."""

    activity: Activity = Field(description="The logged activity with the points it earned.")
    lead: Lead = Field(description="The lead after scoring (score and lifecycle stage).")


@service.tool(
    intent="log the lead's activity and score it",
    write=True,
    example=first_example(Lead, "lead_id", type="form_fill", url="https://www.example.com/demo"),
)
def log_activity(ctx: Ctx, lead_id: LeadId, type: ActivityType, url: Url | None = None) -> Scored:
    """Record something a lead did; every active scoring rule for that activity adds its points.

    A rule stops scoring a lead once it has awarded its points limit_per_lead
    times. A subscriber or lead whose score reaches 100 becomes marketing
    qualified.

    Args:
        lead_id: The lead.
        type: What the lead did.
        url: The page, form or asset; required for web visits, form fills and downloads.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if type in ("web_visit", "form_fill", "content_download") and url is None:
        raise RuleViolation(f"a {type} activity needs the URL", field="url", hint="give the page or form URL")
    past = ctx.where(Activity, lead_id=lead.id)
    points = 0
    used: list[str] = []
    for rule in ctx.where(ScoringRule, activity_type=type, active=True):
        times = sum(1 for a in past if rule.id in a.rule_ids)
        if rule.limit_per_lead is not None and times >= rule.limit_per_lead:
            continue
        points += rule.points
        used.append(rule.id)
    act = ctx.create(Activity, lead_id=lead.id, type=type, url=url, points_awarded=points, rule_ids=tuple(used))
    score = lead.score + points
    stage = lead.lifecycle_stage
    if score >= MQL_THRESHOLD and _rank(stage) < _rank("marketing_qualified"):
        stage = "marketing_qualified"
    lead = ctx.update(lead, score=score, lifecycle_stage=stage)
    return Scored(activity=act, lead=lead)


@service.tool(
    intent="move the lead to a later lifecycle stage",
    write=True,
    example=first_example(Lead, "lead_id", where={"lifecycle_stage": "lead"}, stage="marketing_qualified"),
)
def change_lifecycle_stage(ctx: Ctx, lead_id: LeadId, stage: Stage, owner_email: Email | None = None) -> Lead:
    """Move a lead forward in the funnel; stages never move back.

    From sales_qualified on a lead needs an owner: give owner_email unless it has one.

    Args:
        lead_id: The lead.
        stage: The later stage.
        owner_email: Sales rep who becomes the owner.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if _rank(stage) <= _rank(lead.lifecycle_stage):
        raise RuleViolation(
            f"lead {lead.email} is already {lead.lifecycle_stage}; stages only move forward",
            field="stage",
            hint=f"pick a stage after {lead.lifecycle_stage}",
        )
    owner = owner_email or lead.owner_email
    if _rank(stage) >= _rank("sales_qualified") and owner is None:
        raise RuleViolation(
            f"a {stage} lead needs an owner", field="owner_email", hint="give the sales rep's e-mail as owner_email"
        )
    return ctx.update(lead, lifecycle_stage=stage, owner_email=owner)


@service.tool(
    intent="unsubscribe the lead from marketing e-mail",
    write=True,
    example=first_example(Lead, "lead_id", where={"unsubscribed": False}, reason="Too many e-mails"),
)
def unsubscribe_lead(ctx: Ctx, lead_id: LeadId, reason: Text = "") -> Lead:
    """Record that a lead opted out of marketing e-mail; campaigns that send e-mail skip them from now on.

    Args:
        lead_id: The lead.
        reason: Why they opted out.
    """
    lead = ctx.get(Lead, lead_id, field="lead_id")
    if lead.unsubscribed:
        raise Conflict(f"lead {lead.email} is already unsubscribed", field="lead_id", hint="nothing to do")
    return ctx.update(lead, unsubscribed=True, unsubscribed_reason=reason.strip() or None)


class ListChange(BaseModel):
    """Leads added to a static list."""

    list_id: ListId = Field(description="The list.")
    added: list[LeadId] = Field(description="Leads added.")
    already_members: list[LeadId] = Field(description="Leads that were members already.")
    members: int = Field(description="Members of the list now.")


@service.tool(intent="add the leads to the static list", write=True, idempotent=True, example=_example_add)
def add_to_list(
    ctx: Ctx, list_id: ListId, lead_ids: Annotated[list[LeadId], Field(min_length=1, max_length=300)]
) -> ListChange:
    """Add leads to a static list; leads already on it are reported, not duplicated.

    Args:
        list_id: The list.
        lead_ids: The leads to add (at most 300).
    """
    lst = ctx.get(StaticList, list_id, field="list_id")
    added: list[str] = []
    already: list[str] = []
    for k, lid in enumerate(dict.fromkeys(lead_ids)):
        ctx.get(Lead, lid, field=f"lead_ids.{k}")
        if ctx.first(ListMembership, list_id=lst.id, lead_id=lid) is not None:
            already.append(lid)
        else:
            ctx.create(ListMembership, list_id=lst.id, lead_id=lid)
            added.append(lid)
    if not added:
        raise Conflict(
            "every lead is already on the list",
            field="lead_ids",
            hint="list members with nurture__list_list_memberships",
        )
    return ListChange(
        list_id=lst.id, added=added, already_members=already, members=len(ctx.where(ListMembership, list_id=lst.id))
    )


class RunResult(BaseModel):
    """What a batch campaign run did."""

    campaign_id: CampaignId = Field(description="The campaign.")
    enrolled_emails: list[Email] = Field(description="E-mail addresses of the leads that went through the flow.")
    enrolled: int = Field(description="How many leads went through the flow.")
    skipped_already_enrolled: int = Field(description="Qualifying leads that had been through the flow before.")
    skipped_opted_out: int = Field(description="Leads left out because they are unsubscribed or suspended.")


@service.tool(intent="run the batch campaign", write=True, example=_example_run)
def run_campaign(ctx: Ctx, campaign_id: CampaignId) -> RunResult:
    """Run an active batch campaign now: every qualifying lead not yet enrolled goes through the flow once.

    Args:
        campaign_id: The active batch campaign.
    """
    campaign = ctx.get(SmartCampaign, campaign_id, field="campaign_id")
    _require_active(campaign, "batch")
    done = {e.lead_id for e in ctx.where(Enrollment, campaign_id=campaign.id)}
    emails: list[str] = []
    again = opted = 0
    for lead in list(ctx.scan(Lead)):
        why = _qualifies(ctx, campaign, lead)
        if why is not None:
            opted += why.startswith("is unsubscribed")
            continue
        if lead.id in done:
            again += 1
            continue
        emails.append(_run_flow(ctx, campaign, lead).email)
    if not emails:
        raise RuleViolation(
            f"no new lead qualifies for campaign {campaign.name}",
            field="campaign_id",
            hint="widen the smart list (min_score, stages, list_id) or add leads to its list",
        )
    return RunResult(
        campaign_id=campaign.id,
        enrolled_emails=emails,
        enrolled=len(emails),
        skipped_already_enrolled=again,
        skipped_opted_out=opted,
    )


@service.tool(intent="send the lead through the trigger campaign", write=True, example=_example_request)
def request_campaign(ctx: Ctx, campaign_id: CampaignId, lead_id: LeadId) -> Enrollment:
    """Request an active trigger campaign for one lead, who must qualify and not have been through it before.

    Args:
        campaign_id: The active trigger campaign.
        lead_id: The lead.
    """
    campaign = ctx.get(SmartCampaign, campaign_id, field="campaign_id")
    lead = ctx.get(Lead, lead_id, field="lead_id")
    _require_active(campaign, "trigger")
    if ctx.first(Enrollment, campaign_id=campaign.id, lead_id=lead.id) is not None:
        raise Conflict(
            f"lead {lead.email} has already been through campaign {campaign.name}",
            field="lead_id",
            hint="each lead goes through a campaign's flow once",
        )
    why = _qualifies(ctx, campaign, lead)
    if why is not None:
        raise RuleViolation(
            f"lead {lead.email} {why}", field="lead_id", hint="pick a lead that matches the campaign's smart list"
        )
    return _run_flow(ctx, campaign, lead)


# -- seed -------------------------------------------------------------------------------------

RULES: tuple[tuple[str, ActivityType, int, int | None], ...] = (
    ("Opened an e-mail", "email_open", 2, 10),
    ("Clicked an e-mail link", "email_click", 5, None),
    ("Visited the website", "web_visit", 3, 20),
    ("Filled in a form", "form_fill", 20, None),
    ("Attended a webinar", "webinar_attend", 25, None),
    ("Downloaded content", "content_download", 10, 5),
)
LISTS = (
    ("Newsletter subscribers", "Everyone who asked for the monthly newsletter."),
    ("Webinar attendees 2026", "People who attended one of this year's webinars."),
    ("Trade show Q1", "Badge scans from the first-quarter trade show."),
    ("Nurture track: evaluation", "Leads in the evaluation e-mail track."),
)
PAGES = ("pricing", "product-tour", "case-studies", "blog/automation-guide", "demo")


@service.seeder
def seed(s: SeedContext) -> None:
    """Leads from the population's business contacts and some consumers, activities that add up to their scores."""
    pop = s.population
    reps = pop.staff("Sales")
    rule_recs = [
        s.create(ScoringRule, name=name, activity_type=t, points=pts, limit_per_lead=lim) for name, t, pts, lim in RULES
    ]
    s.create(ScoringRule, name="Old: clicked an ad", activity_type="web_visit", points=1, active=False)
    lists = [s.create(StaticList, name=n, description=d, created_at=s.now - dt.timedelta(days=200)) for n, d in LISTS]
    lead_recs = _seed_leads(s, rule_recs, reps)
    memberships_seeded: list[ListMembership] = []
    for i, lead in enumerate(lead_recs):
        for j, lst in enumerate(lists[:3]):
            if (i + j) % (2 + j) == 0:
                m = s.create(ListMembership, list_id=lst.id, lead_id=lead.id, added_at=lead.created_at)
                if j == 1:
                    memberships_seeded.append(m)
    webinar = _seed_campaigns(s, lists, reps)
    # The webinar follow-up already ran for some attendees after last month's webinar.
    attendees = {m.lead_id for m in memberships_seeded}
    followed = [
        lead
        for lead in lead_recs
        if lead.id in attendees
        and not (lead.unsubscribed or lead.marketing_suspended)
        and lead.lifecycle_stage != "subscriber"
    ]
    for lead in followed[:6]:
        s.create(
            Enrollment,
            campaign_id=webinar.id,
            lead_id=lead.id,
            email=lead.email,
            email_subject=webinar.email_subject,
            stage_after=lead.lifecycle_stage,
            enrolled_at=s.now - dt.timedelta(days=12),
        )


SeedActivity = tuple[ActivityType, str | None, int, tuple[str, ...]]
"""An activity drawn for a lead: type, page, points awarded and the rules that awarded them."""


def _draw_activities(s: SeedContext, i: int, rule_recs: list[ScoringRule]) -> tuple[list[SeedActivity], int]:
    """The ``i``-th lead's activities, each scored by its rule up to the rule's limit, and the total score."""
    rng = s.rng
    score = 0
    acts: list[SeedActivity] = []
    counts: dict[str, int] = {}
    for _ in range(rng.randint(0, 9) + (6 if i % 7 == 0 else 0)):
        rule = rule_recs[rng.choice((0, 0, 1, 2, 2, 3, 4, 5))]
        n = counts.get(rule.id, 0)
        awarded = rule.limit_per_lead is None or n < rule.limit_per_lead
        counts[rule.id] = n + 1
        url = (
            f"https://www.{s.population.home.domain}/{rng.choice(PAGES)}"
            if rule.activity_type in ("web_visit", "form_fill", "content_download")
            else None
        )
        acts.append((rule.activity_type, url, rule.points if awarded else 0, (rule.id,) if awarded else ()))
        score += rule.points if awarded else 0
    return acts, score


def _seed_leads(s: SeedContext, rule_recs: list[ScoringRule], reps: list[Person]) -> list[Lead]:
    """A lead per business contact and per third consumer, with the activities behind its score."""
    pop = s.population
    people = list(pop.contacts) + list(pop.consumers[: len(pop.consumers) // 3])
    lead_recs: list[Lead] = []
    for i, p in enumerate(people):
        company = pop.company_of(p)
        created = s.now - dt.timedelta(days=s.rng.randint(5, 300))
        acts, score = _draw_activities(s, i, rule_recs)
        stage: Stage = "subscriber" if company is None else "lead"
        if score >= MQL_THRESHOLD:
            stage = "marketing_qualified"
        owner = None
        if company is not None and i % 5 == 0:
            stage = ("sales_qualified", "opportunity", "customer")[i // 5 % 3]
            owner = reps[i % len(reps)].email
        unsub = i % 11 == 4
        lead = s.create(
            Lead,
            email=p.email,
            first_name=p.first_name,
            last_name=p.last_name,
            company=company.name if company else None,
            job_title=p.job_title if company else None,
            phone=p.phone if i % 3 else None,
            country=p.place.country,
            lead_source=("website", "webinar", "trade_show", "referral", "paid_search", "import")[i % 6],
            lifecycle_stage=stage,
            score=score,
            owner_email=owner,
            unsubscribed=unsub,
            unsubscribed_reason="No longer interested" if unsub else None,
            marketing_suspended=i % 23 == 9,
            created_at=created,
            updated_at=created,
        )
        lead_recs.append(lead)
        for k, (t, url, pts, rids) in enumerate(acts):
            s.create(
                Activity,
                lead_id=lead.id,
                type=t,
                url=url,
                points_awarded=pts,
                rule_ids=rids,
                occurred_at=created + dt.timedelta(hours=6 + 11 * k),
            )
    return lead_recs


def _seed_campaigns(s: SeedContext, lists: list[StaticList], reps: list[Person]) -> SmartCampaign:
    """Batch and trigger campaigns; returns the webinar follow-up."""
    s.create(
        SmartCampaign,
        name="Monthly newsletter",
        type="batch",
        status="active",
        list_id=lists[0].id,
        email_subject="What's new this month",
    )
    s.create(
        SmartCampaign,
        name="Evaluation nurture track",
        type="batch",
        status="active",
        min_score=30,
        stages=("lead",),
        email_subject="How teams like yours evaluate us",
        add_to_list_id=lists[3].id,
    )
    s.create(
        SmartCampaign,
        name="MQL hand-off to sales",
        type="trigger",
        status="active",
        stages=("marketing_qualified",),
        set_stage="sales_qualified",
        assign_owner_email=reps[0].email,
    )
    webinar = s.create(
        SmartCampaign,
        name="Webinar follow-up",
        type="trigger",
        status="active",
        list_id=lists[1].id,
        email_subject="Thanks for attending: slides and recording",
        set_stage="lead",
    )
    s.create(
        SmartCampaign,
        name="Trade show welcome",
        type="batch",
        status="inactive",
        list_id=lists[2].id,
        email_subject="Great to meet you at the show",
    )
    return webinar
