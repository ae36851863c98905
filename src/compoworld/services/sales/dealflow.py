"""Dealflow CRM: pipelines and stages, organizations, persons, deals with product lines, and activities.

Modeled on the Pipedrive API v1 (Pipelines, Stages, Organizations, Persons,
Deals with ``status`` open/won/lost, Deal Products, Activities, the deals
summary and deal rotting): a deal sits in one stage of one pipeline and takes
the stage's win probability unless it has its own, a deal with product lines
is worth the sum of its lines, only open deals move, change or get products, a
won deal needs a value and a lost deal a reason, closed deals can be reopened,
and an open deal "rots" when it sits in a stage longer than the stage's
rotting period without a completed activity.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Person as PopulationPerson
from compoworld.engine.errors import RuleViolation
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
    JobTitle,
    Percent,
    PersonName,
    Phone,
    PostalAddress,
    Sku,
    Text,
    Title,
)
from compoworld.services.kit.examples import first_example

__all__ = ["service"]

service = Service(
    "dealflow",
    title="Dealflow CRM",
    category="crm",
    modeled_on="Pipedrive API v1 (Pipelines, Stages, Organizations, Persons, Deals, Deal Products, "
    "Activities, deals summary, deal rotting)",
    description="Pipeline-first sales CRM: deals moving through the stages of sales pipelines, the "
    "organizations and persons they are with, product lines that make up a deal's value, and the calls, "
    "meetings and tasks that keep deals from rotting.",
)

PipelineId = Annotated[str, IdOf("dealflow.pipeline")]
StageId = Annotated[str, IdOf("dealflow.stage")]
OrganizationId = Annotated[str, IdOf("dealflow.organization")]
PersonId = Annotated[str, IdOf("dealflow.person")]
DealId = Annotated[str, IdOf("dealflow.deal")]
DealProductId = Annotated[str, IdOf("dealflow.deal_product")]
ActivityId = Annotated[str, IdOf("dealflow.activity")]
DealStatus = Literal["open", "won", "lost"]
ActivityType = Literal["call", "meeting", "task", "deadline", "email", "lunch"]
RottenDays = Annotated[int, Field(ge=1, le=365)]


class Pipeline(Record):
    """A sales pipeline: an ordered set of stages deals move through."""

    id: PipelineId
    name: Title
    """Pipeline name."""
    deal_probability: bool = True
    """Whether deals in this pipeline are weighted by win probability in forecasts."""
    active: bool = True
    """Inactive pipelines take no new deals."""


class Stage(Record):
    """One stage of a pipeline, with its default win probability and rotting period."""

    id: StageId
    pipeline_id: PipelineId
    """The pipeline the stage belongs to."""
    name: Title
    """Stage name."""
    order_nr: Annotated[int, Field(ge=1, le=50)]
    """Position of the stage in its pipeline (1 is the first)."""
    deal_probability: Percent = 100
    """Default win probability of deals in this stage, in percent."""
    rotten_days: RottenDays | None = None
    """Days a deal may sit in this stage without activity before it rots; null: never rots."""


class Organization(Record):
    """A company deals are made with."""

    id: OrganizationId
    name: CompanyName
    """Organization name; unique."""
    domain: Domain | None = None
    """The company's web domain."""
    address: PostalAddress | None = None
    """Postal address."""
    owner_email: Email
    """E-mail of the sales rep who owns the organization."""
    add_time: Annotated[DateTime, CREATED]
    """When it was added."""


class Person(Record):
    """A contact person, usually at an organization."""

    id: PersonId
    name: PersonName
    """Full name."""
    email: Email
    """Primary e-mail address; unique."""
    phone: Phone | None = None
    """Primary phone number."""
    org_id: OrganizationId | None = None
    """The organization the person works at."""
    job_title: JobTitle | None = None
    """Job title."""
    owner_email: Email
    """E-mail of the sales rep who owns the person."""
    marketing_status: Literal["subscribed", "unsubscribed", "no_consent"] = "no_consent"
    """Consent to marketing e-mail."""
    add_time: Annotated[DateTime, CREATED]
    """When the person was added."""


class Deal(Record):
    """A deal: a potential sale in one stage of one pipeline."""

    id: DealId
    title: Title
    """Deal title."""
    value: Cents = 0
    """Deal value in cents; the sum of its product lines when it has any."""
    currency: Currency
    """Currency of the value."""
    pipeline_id: PipelineId
    """The pipeline the deal is in."""
    stage_id: StageId
    """The deal's stage; it must belong to the deal's pipeline."""
    status: DealStatus = "open"
    """open, won or lost; closed deals can be reopened but not changed."""
    probability: Percent | None = None
    """The deal's own win probability; null uses its stage's."""
    person_id: PersonId | None = None
    """The contact person."""
    org_id: OrganizationId | None = None
    """The organization."""
    owner_email: Email
    """E-mail of the sales rep who owns the deal."""
    expected_close_date: Date | None = None
    """When the deal is expected to close."""
    lost_reason: Text | None = None
    """Why a lost deal was lost."""
    stage_change_time: DateTime | None = None
    """When the deal last moved to another stage; null: it is still in the stage it was added in."""
    last_activity_date: Date | None = None
    """Date of the last completed activity on the deal."""
    won_time: DateTime | None = None
    """When it was won."""
    lost_time: DateTime | None = None
    """When it was lost."""
    add_time: Annotated[DateTime, CREATED]
    """When it was added."""
    update_time: Annotated[DateTime, UPDATED]
    """When it last changed."""


class DealProduct(Record):
    """A product line on a deal; the deal's value is the sum of its lines."""

    id: DealProductId
    deal_id: DealId
    """The deal."""
    sku: Sku
    """SKU of the product sold."""
    name: Title
    """Product name."""
    item_price: Cents
    """Unit price in the deal's currency, in cents."""
    quantity: Annotated[int, Field(ge=1, le=100000)]
    """Units."""
    discount_percent: Percent = 0
    """Discount on the line, in percent."""
    sum: Cents
    """Line total: price times quantity less the discount, in cents."""


class Activity(Record):
    """A call, meeting, task or other activity scheduled for a deal or person."""

    id: ActivityId
    subject: Title
    """Subject."""
    type: ActivityType = "task"
    """Kind of activity."""
    due_date: Date
    """When it is due."""
    deal_id: DealId | None = None
    """The deal it is for."""
    person_id: PersonId | None = None
    """The person it involves."""
    owner_email: Email
    """E-mail of the user the activity is assigned to."""
    note: Text = ""
    """Notes."""
    done: bool = False
    """Whether it is completed; completing it counts as activity on its deal."""
    add_time: Annotated[DateTime, CREATED]
    """When it was added."""


# -- rules ------------------------------------------------------------------------------------


def _line_sum(price: int, quantity: int, discount: float) -> int:
    return round(price * quantity * (100 - discount) / 100)


def _require_open(deal: Deal, field: str = "deal_id") -> None:
    if deal.status != "open":
        raise RuleViolation(
            f"deal {deal.id} is {deal.status} and cannot be changed",
            field=field,
            hint="reopen it first with dealflow__reopen_deal",
        )


def _revalue(ctx: Ctx, deal_id: str) -> None:
    deal = ctx.get(Deal, deal_id)
    lines = ctx.where(DealProduct, deal_id=deal_id)
    if lines:
        ctx.update(deal, value=sum(p.sum for p in lines))


def _check_stage(ctx: Ctx, stage_id: str, pipeline_id: str, field: str) -> Stage:
    stage = ctx.get(Stage, stage_id, field=field)
    if stage.pipeline_id != pipeline_id:
        raise RuleViolation(
            f"stage {stage.name} ({stage.id}) is not a stage of pipeline {pipeline_id}",
            field=field,
            hint=f"pick a stage from dealflow__list_stages with pipeline_id={pipeline_id}",
        )
    return stage


def _guard_deal(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None:
        _require_open(old)
        if new.value != old.value and ctx.first(DealProduct, deal_id=old.id) is not None:
            raise RuleViolation(
                f"deal {old.id} has product lines; its value is their sum",
                field="value",
                hint="change the product lines instead (dealflow__add_deal_product, dealflow__delete_deal_product)",
            )
    else:
        pipeline = ctx.get(Pipeline, new.pipeline_id, field="pipeline_id")
        if not pipeline.active:
            raise RuleViolation(
                f"pipeline {pipeline.name} is inactive", field="pipeline_id", hint="add the deal to an active pipeline"
            )
        _check_stage(ctx, new.stage_id, new.pipeline_id, "stage_id")
    if new.person_id is not None and new.org_id is not None:
        person = ctx.get(Person, new.person_id, field="person_id")
        if person.org_id is not None and person.org_id != new.org_id:
            raise RuleViolation(
                f"person {person.name} works at another organization ({person.org_id})",
                field="person_id",
                hint="link the deal to the person's own organization, or leave org_id empty",
            )


def _guard_person(ctx: Ctx, new: Any, old: Any) -> None:
    if old is not None and old.org_id != new.org_id:
        for deal in ctx.where(Deal, person_id=old.id, status="open"):
            if deal.org_id is not None and deal.org_id != new.org_id:
                raise RuleViolation(
                    f"person {old.name} is the contact of open deal {deal.id} with organization {deal.org_id}",
                    field="org_id",
                    hint="close or re-link those deals first",
                )


def _guard_activity(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None and new.deal_id is not None:
        deal = ctx.get(Deal, new.deal_id, field="deal_id")
        if deal.status != "open":
            raise RuleViolation(
                f"deal {deal.id} is {deal.status}; activities are planned only for open deals",
                field="deal_id",
                hint="reopen the deal first or plan the activity for the person alone",
            )
    if old is not None and new.done and not old.done and new.deal_id is not None:
        deal = ctx.get(Deal, new.deal_id)
        if deal.status == "open":
            ctx.update(deal, last_activity_date=ctx.today())


def _guard_stage(ctx: Ctx, new: Any, old: Any) -> None:
    if new.order_nr != old.order_nr:
        for other in ctx.where(Stage, pipeline_id=new.pipeline_id):
            if other.id != new.id and other.order_nr == new.order_nr:
                raise RuleViolation(
                    f"stage {other.name} already has position {new.order_nr} in the pipeline",
                    field="order_nr",
                    hint="give each stage of a pipeline its own position",
                )


def _guard_line_delete(ctx: Ctx, new: Any, old: Any) -> None:
    deal = ctx.get(Deal, old.deal_id)
    _require_open(deal, "deal_product_id")
    rest = [p for p in ctx.where(DealProduct, deal_id=deal.id) if p.id != old.id]
    ctx.update(deal, value=sum(p.sum for p in rest))


pipelines = service.resource(
    Pipeline,
    name="pipeline",
    plural="pipelines",
    prefix="pip",
    create=False,
    get=False,
    filters=("active",),
    search=("name",),
    delete=False,
)
stages = service.resource(
    Stage,
    name="stage",
    plural="stages",
    prefix="stg",
    create=False,
    get=False,
    filters=("pipeline_id",),
    search=("name",),
    update=("name", "order_nr", "deal_probability", "rotten_days"),
    delete=False,
    guard_update=_guard_stage,
)
organizations = service.resource(
    Organization,
    name="organization",
    plural="organizations",
    prefix="org",
    create=("name", "domain", "address", "owner_email"),
    filters=("owner_email", "domain"),
    search=("name", "domain"),
    update=("name", "domain", "address", "owner_email"),
    delete=False,
    unique=("name",),
)
persons = service.resource(
    Person,
    name="person",
    plural="persons",
    prefix="per",
    create=("name", "email", "phone", "org_id", "job_title", "owner_email"),
    filters=("org_id", "email", "owner_email", "marketing_status"),
    search=("name", "email"),
    update=("name", "email", "phone", "org_id", "job_title", "owner_email", "marketing_status"),
    delete=False,
    unique=("email",),
    guard_update=_guard_person,
)
deals = service.resource(
    Deal,
    name="deal",
    plural="deals",
    prefix="deal",
    create=(
        "title",
        "value",
        "currency",
        "pipeline_id",
        "stage_id",
        "person_id",
        "org_id",
        "owner_email",
        "expected_close_date",
    ),
    filters=("pipeline_id", "stage_id", "status", "person_id", "org_id", "owner_email"),
    search=("title",),
    update=("title", "value", "probability", "person_id", "org_id", "owner_email", "expected_close_date"),
    delete=False,
    guard_create=_guard_deal,
    guard_update=_guard_deal,
)
deal_products = service.resource(
    DealProduct,
    name="deal_product",
    plural="deal_products",
    prefix="dp",
    create=False,
    get=False,
    filters=("deal_id", "sku"),
    guard_delete=_guard_line_delete,
    title="deal product line",
)
activities = service.resource(
    Activity,
    name="activity",
    plural="activities",
    prefix="act",
    create=("subject", "type", "due_date", "deal_id", "person_id", "owner_email", "note"),
    get=False,
    filters=("deal_id", "person_id", "owner_email", "type", "done", "due_date"),
    search=("subject", "note"),
    delete=False,
    transitions={"complete": Transition("done", (False,), True, "mark the activity as done")},
    guard_create=_guard_activity,
    guard_update=_guard_activity,
)


# -- examples ---------------------------------------------------------------------------------


def _example_move(ctx: Ctx) -> dict[str, Any] | None:
    deal = ctx.first(Deal, status="open")
    if deal is None:
        return None
    for stage in ctx.where(Stage, pipeline_id=deal.pipeline_id):
        if stage.id != deal.stage_id:
            return {"deal_id": deal.id, "stage_id": stage.id}
    return None


def _example_reopen(ctx: Ctx) -> dict[str, Any] | None:
    deal = ctx.first(Deal, status="lost") or ctx.first(Deal, status="won")
    return None if deal is None else {"deal_id": deal.id}


def _example_add_product(ctx: Ctx) -> dict[str, Any] | None:
    home = ctx.population.home.place.currency
    product = ctx.population.products[0]
    for deal in ctx.where(Deal, status="open"):
        if deal.currency == home:
            return {"deal_id": deal.id, "sku": product.sku, "quantity": 3}
    return None


def _example_summary(ctx: Ctx) -> dict[str, Any] | None:
    pipeline = ctx.first(Pipeline, active=True)
    if pipeline is None:
        return None
    return {"pipeline_id": pipeline.id, "currency": ctx.population.home.place.currency}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="move the deal to another pipeline stage", write=True, example=_example_move)
def move_deal_to_stage(ctx: Ctx, deal_id: DealId, stage_id: StageId) -> Deal:
    """Move an open deal to another stage; a stage of another pipeline moves the deal to that pipeline.

    The deal's stage change time is reset, which restarts its rotting clock.

    Args:
        deal_id: The open deal.
        stage_id: The stage to move it to.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    stage = ctx.get(Stage, stage_id, field="stage_id")
    _require_open(deal)
    if stage.id == deal.stage_id:
        raise RuleViolation(
            f"deal {deal.id} is already in stage {stage.name}",
            field="stage_id",
            hint="pick another stage from dealflow__list_stages",
        )
    pipeline = ctx.get(Pipeline, stage.pipeline_id)
    if not pipeline.active:
        raise RuleViolation(
            f"stage {stage.name} belongs to inactive pipeline {pipeline.name}",
            field="stage_id",
            hint="move deals only into stages of active pipelines",
        )
    return ctx.update(deal, stage_id=stage.id, pipeline_id=stage.pipeline_id, stage_change_time=ctx.now())


@service.tool(
    intent="mark the deal as won",
    write=True,
    example=first_example(Deal, "deal_id", where={"status": "open"}, match=lambda ctx, d: d.value > 0),
)
def mark_deal_won(ctx: Ctx, deal_id: DealId) -> Deal:
    """Close an open deal as won; it needs a value above zero.

    Args:
        deal_id: The open deal.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    _require_open(deal)
    if deal.value == 0:
        raise RuleViolation(
            f"deal {deal.id} has no value and cannot be won",
            field="deal_id",
            hint="set its value with dealflow__update_deal or add product lines first",
        )
    return ctx.update(deal, status="won", won_time=ctx.now(), lost_time=None, lost_reason=None)


@service.tool(
    intent="mark the deal as lost",
    write=True,
    example=first_example(Deal, "deal_id", where={"status": "open"}, lost_reason="Went with a competitor"),
)
def mark_deal_lost(ctx: Ctx, deal_id: DealId, lost_reason: Text) -> Deal:
    """Close an open deal as lost, saying why.

    Args:
        deal_id: The open deal.
        lost_reason: Why the deal was lost.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    _require_open(deal)
    if not lost_reason.strip():
        raise RuleViolation(
            "a lost deal needs a reason", field="lost_reason", hint="say why the deal was lost (e.g. price)"
        )
    return ctx.update(deal, status="lost", lost_time=ctx.now(), lost_reason=lost_reason.strip(), won_time=None)


@service.tool(intent="reopen the closed deal", write=True, example=_example_reopen)
def reopen_deal(ctx: Ctx, deal_id: DealId) -> Deal:
    """Reopen a won or lost deal in its stage; its close times and lost reason are cleared.

    Args:
        deal_id: The won or lost deal.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    if deal.status == "open":
        raise RuleViolation(f"deal {deal.id} is already open", field="deal_id", hint="only won or lost deals reopen")
    return ctx.update(deal, status="open", won_time=None, lost_time=None, lost_reason=None, stage_change_time=ctx.now())


@service.tool(intent="add the product to the deal", write=True, example=_example_add_product)
def add_deal_product(
    ctx: Ctx,
    deal_id: DealId,
    sku: Sku,
    quantity: Annotated[int, Field(ge=1, le=100000)] = 1,
    item_price: Cents | None = None,
    discount_percent: Percent = 0,
) -> DealProduct:
    """Add a product line to an open deal; the deal's value becomes the sum of its lines.

    The product is one of the company's catalog products, found by SKU. Its
    list price is used when no price is given, but only for deals in the
    company's home currency.

    Args:
        deal_id: The open deal.
        sku: SKU of a catalog product.
        quantity: Units sold.
        item_price: Unit price in the deal's currency, in cents; omit to use the list price.
        discount_percent: Discount on the line, in percent.
    """
    deal = ctx.get(Deal, deal_id, field="deal_id")
    _require_open(deal)
    product = next((p for p in ctx.population.products if p.sku == sku), None)
    if product is None:
        raise RuleViolation(
            f"no catalog product with SKU {sku}",
            field="sku",
            hint="use the SKU of a product the company sells (e.g. from the shop or warehouse catalog)",
        )
    if ctx.first(DealProduct, deal_id=deal.id, sku=sku) is not None:
        raise RuleViolation(
            f"deal {deal.id} already has a line for {sku}",
            field="sku",
            hint="delete that line and add it again with the new quantity",
        )
    home = ctx.population.home.place.currency
    if item_price is None:
        if deal.currency != home:
            raise RuleViolation(
                f"list prices are in {home} but deal {deal.id} is in {deal.currency}",
                field="item_price",
                hint=f"give the unit price in {deal.currency}",
            )
        item_price = product.price_cents
    line = ctx.create(
        DealProduct,
        deal_id=deal.id,
        sku=sku,
        name=product.name,
        item_price=item_price,
        quantity=quantity,
        discount_percent=discount_percent,
        sum=_line_sum(item_price, quantity, discount_percent),
    )
    _revalue(ctx, deal.id)
    return line


class StageForecast(BaseModel):
    """Open deals of one stage."""

    stage_id: StageId = Field(description="The stage.")
    name: str = Field(description="Stage name.")
    deal_probability: Percent = Field(description="The stage's default win probability.")
    open_deals: int = Field(description="Open deals in the stage (in the currency asked for).")
    value: Cents = Field(description="Their total value in cents.")
    weighted_value: Cents = Field(description="Their value weighted by each deal's win probability, in cents.")


class PipelineSummary(BaseModel):
    """The deals summary of one pipeline in one currency."""

    pipeline_id: PipelineId = Field(description="The pipeline.")
    currency: Currency = Field(description="The currency summed.")
    stages: list[StageForecast] = Field(description="Open deals per stage, in stage order.")
    open_value: Cents = Field(description="Total value of open deals in cents.")
    weighted_value: Cents = Field(description="Probability-weighted value of open deals in cents.")
    won_value: Cents = Field(description="Total value of won deals in cents.")
    lost_deals: int = Field(description="Number of lost deals.")
    rotten_deal_ids: list[DealId] = Field(description="Open deals that have rotted in their stage.")
    other_currency_deals: int = Field(description="Deals in other currencies, left out of the totals.")


def _is_rotten(deal: Deal, stage: Stage, today: dt.date) -> bool:
    if deal.status != "open" or stage.rotten_days is None:
        return False
    since = (deal.stage_change_time or deal.add_time).date()
    if deal.last_activity_date is not None and deal.last_activity_date > since:
        since = deal.last_activity_date
    return (today - since).days > stage.rotten_days


@service.tool(intent="summarise the pipeline's deals and forecast", example=_example_summary)
def pipeline_summary(ctx: Ctx, pipeline_id: PipelineId, currency: Currency) -> PipelineSummary:
    """Summarise a pipeline: open value and probability-weighted forecast per stage, won value, rotten deals.

    A deal's weight is its own probability or else its stage's; a pipeline
    with deal probability switched off weighs every open deal fully.

    Args:
        pipeline_id: The pipeline.
        currency: Currency of the deals to sum; deals in other currencies are only counted.
    """
    pipeline = ctx.get(Pipeline, pipeline_id, field="pipeline_id")
    stage_list = sorted(ctx.where(Stage, pipeline_id=pipeline.id), key=lambda s: (s.order_nr, s.id))
    by_stage = {s.id: s for s in stage_list}
    all_deals = ctx.where(Deal, pipeline_id=pipeline.id)
    mine = [d for d in all_deals if d.currency == currency]
    today = ctx.today()
    rows: list[StageForecast] = []
    total_w = 0
    for stage in stage_list:
        open_ = [d for d in mine if d.stage_id == stage.id and d.status == "open"]
        weighted = 0
        for d in open_:
            p = (
                100.0
                if not pipeline.deal_probability
                else (d.probability if d.probability is not None else stage.deal_probability)
            )
            weighted += round(d.value * p / 100)
        total_w += weighted
        rows.append(
            StageForecast(
                stage_id=stage.id,
                name=stage.name,
                deal_probability=stage.deal_probability,
                open_deals=len(open_),
                value=sum(d.value for d in open_),
                weighted_value=weighted,
            )
        )
    return PipelineSummary(
        pipeline_id=pipeline.id,
        currency=currency,
        stages=rows,
        open_value=sum(r.value for r in rows),
        weighted_value=total_w,
        won_value=sum(d.value for d in mine if d.status == "won"),
        lost_deals=sum(1 for d in mine if d.status == "lost"),
        rotten_deal_ids=[
            d.id for d in all_deals if d.stage_id in by_stage and _is_rotten(d, by_stage[d.stage_id], today)
        ],
        other_currency_deals=len(all_deals) - len(mine),
    )


# -- seed -------------------------------------------------------------------------------------

PIPELINES: tuple[tuple[str, bool, bool, tuple[tuple[str, float, int | None], ...]], ...] = (
    (
        "Sales",
        True,
        True,
        (
            ("Qualified", 10, None),
            ("Contact made", 20, 14),
            ("Demo scheduled", 40, 10),
            ("Proposal made", 60, 10),
            ("Negotiations started", 80, 7),
        ),
    ),
    ("Partnerships", False, True, (("Introduction", 10, 30), ("Evaluation", 50, 21), ("Agreement", 90, None))),
    ("Legacy renewals", True, False, (("Renewal due", 70, None), ("Renewal signed", 100, None))),
)
REASONS = ("Went with a competitor", "No budget this year", "Project cancelled", "Price too high")
ACTIVITY_SUBJECTS: tuple[tuple[ActivityType, str], ...] = (
    ("call", "Discovery call"),
    ("meeting", "Product demo"),
    ("email", "Send proposal"),
    ("task", "Prepare quote"),
    ("lunch", "Lunch with the buyer"),
    ("deadline", "Proposal deadline"),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three pipelines, customer companies as organizations with their contacts, deals in every status."""
    reps = s.population.staff("Sales")
    active_pipelines = _seed_pipelines(s)
    organizations = _seed_organizations(s, reps)
    _seed_deals(s, active_pipelines, organizations)
    _seed_leads(s, reps)


def _seed_pipelines(s: SeedContext) -> list[tuple[Pipeline, list[Stage]]]:
    """Create the pipelines and their stages; return the active ones with their stages in order."""
    stage_sets: list[tuple[Pipeline, list[Stage]]] = []
    for name, weighted, active, spec in PIPELINES:
        pipe = s.create(Pipeline, name=name, deal_probability=weighted, active=active)
        made = [
            s.create(Stage, pipeline_id=pipe.id, name=sname, order_nr=k + 1, deal_probability=prob, rotten_days=rot)
            for k, (sname, prob, rot) in enumerate(spec)
        ]
        stage_sets.append((pipe, made))
    return [(p, st) for p, st in stage_sets if p.active]


def _seed_organizations(s: SeedContext, reps: Sequence[PopulationPerson]) -> list[tuple[Organization, list[Person]]]:
    """Create most customer companies as organizations, each followed by its people; return both."""
    orgs: list[tuple[Organization, list[Person]]] = []
    for n, company in enumerate(s.population.customers):
        if n % 6 == 5:
            continue  # not every customer is in this CRM
        rep = reps[n % len(reps)]
        org = s.create(
            Organization,
            name=company.name,
            domain=company.domain,
            address=company.address,
            owner_email=rep.email,
            add_time=s.ago(days=s.rng.randint(30, 600)),
        )
        orgs.append((org, _seed_persons(s, org, s.population.people_at(company))))
    return orgs


def _seed_persons(s: SeedContext, org: Organization, people: Sequence[PopulationPerson]) -> list[Person]:
    return [
        s.create(
            Person,
            name=p.name,
            email=p.email,
            phone=p.phone,
            org_id=org.id,
            job_title=p.job_title,
            owner_email=org.owner_email,
            marketing_status=("subscribed", "no_consent", "unsubscribed")[k % 3],
            add_time=s.ago(days=s.rng.randint(10, 400)),
        )
        for k, p in enumerate(people)
    ]


def _seed_deals(
    s: SeedContext,
    active_pipelines: Sequence[tuple[Pipeline, list[Stage]]],
    orgs: Sequence[tuple[Organization, list[Person]]],
) -> None:
    """One or two deals per organization, cycling through statuses; every third has product lines."""
    rng = s.rng
    statuses: tuple[DealStatus, ...] = ("open", "open", "open", "won", "open", "lost", "open")
    k = 0
    for n, (org, people) in enumerate(orgs):
        for j in range(1 + n % 2):
            pipe, pstages = active_pipelines[0] if (n + j) % 4 else active_pipelines[1]
            status = statuses[k % len(statuses)]
            stage = pstages[(n + 2 * j) % len(pstages)]
            added = s.ago(days=rng.randint(20, 120))
            changed = s.ago(days=(k * 5) % 40 + 1)
            deal = s.create(
                Deal,
                title=f"{org.name} {('platform deal', 'expansion', 'pilot', 'renewal')[(n + j) % 4]}",
                value=rng.randint(20, 400) * 100_00,
                currency=s.population.home.place.currency,
                pipeline_id=pipe.id,
                stage_id=stage.id,
                status=status,
                probability=None if k % 5 else 35.0,
                person_id=people[0].id if people else None,
                org_id=org.id,
                owner_email=org.owner_email,
                expected_close_date=s.now.date() + dt.timedelta(days=rng.randint(-20, 90)),
                lost_reason=REASONS[k % len(REASONS)] if status == "lost" else None,
                stage_change_time=changed,
                won_time=s.ago(days=2) if status == "won" else None,
                lost_time=s.ago(days=3) if status == "lost" else None,
                add_time=added,
                update_time=changed,
            )
            if k % 3 == 0:
                deal = _seed_deal_products(s, deal, k)
            done_date = _seed_activities(s, deal, k, org.name, changed)
            if done_date is not None:
                s.update(deal, last_activity_date=done_date)
            k += 1


def _seed_deal_products(s: SeedContext, deal: Deal, k: int) -> Deal:
    """Give the ``k``-th seeded deal one to three catalog products; return it valued at their sum."""
    products = s.population.products
    lines = []
    for m in range(1 + k % 3):
        product = products[(k + m * 7) % len(products)]
        qty = 1 + (k + m) % 12
        disc = (0, 5, 10)[m % 3]
        lines.append(
            s.create(
                DealProduct,
                deal_id=deal.id,
                sku=product.sku,
                name=product.name,
                item_price=product.price_cents,
                quantity=qty,
                discount_percent=disc,
                sum=_line_sum(product.price_cents, qty, disc),
            )
        )
    return s.update(deal, value=sum(x.sum for x in lines))


def _seed_activities(s: SeedContext, deal: Deal, k: int, org_name: str, changed: dt.datetime) -> dt.date | None:
    """Plan up to two activities on the ``k``-th seeded deal, last moved at ``changed``; return when one was done."""
    done_date: dt.date | None = None
    for a in range(k % 3):
        typ, subject = ACTIVITY_SUBJECTS[(k + a) % len(ACTIVITY_SUBJECTS)]
        done = a == 0 and (deal.status != "open" or k % 2 == 0)
        due = (changed + dt.timedelta(days=2 + a * 3)).date()
        if done:
            due = min(due, s.now.date() - dt.timedelta(days=1))
            done_date = due
        s.create(
            Activity,
            subject=f"{subject}: {org_name}",
            type=typ,
            due_date=due,
            deal_id=deal.id,
            person_id=deal.person_id,
            owner_email=deal.owner_email,
            done=done,
            add_time=changed,
        )
    return done_date


def _seed_leads(s: SeedContext, reps: Sequence[PopulationPerson]) -> None:
    """Leads without a deal yet: consumers' own businesses as persons without organization."""
    for i, p in enumerate(s.population.consumers[:6]):
        s.create(
            Person,
            name=p.name,
            email=p.email,
            phone=p.phone,
            owner_email=reps[i % len(reps)].email,
            add_time=s.ago(days=5 + i),
        )
