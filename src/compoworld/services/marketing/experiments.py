"""Forkline Experiments: A/B tests of the website and product, with audiences, metrics and results.

Modeled on the Optimizely Web / Feature Experimentation REST API v2: projects
(``platform`` web or custom), audiences with targeting conditions, events
used as metrics, and experiments with variations whose ``weight`` is in basis
points (summing to 10000), a ``holdback`` expressed as traffic allocation, an
ordered list of metrics whose first is primary, and ``status``
not_started → running ↔ paused → concluded → archived. Starting needs two or
more variations, weights summing to 100%, a metric and a live project;
variations cannot change once an experiment has run; a concluded experiment
may name a winner only when its primary metric is statistically significant
at the project's confidence level (two-proportion z-test, as the results
page's "statistical significance"); running experiments cannot be archived
or deleted, nor can an audience or event they use.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Percent, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "experiments",
    title="Forkline Experiments",
    category="experimentation",
    modeled_on="Optimizely Web/Feature Experimentation REST API v2: projects, audiences, events (metrics), "
    "experiments with variations, traffic allocation, start/pause/conclude/archive, results with significance",
    description="A/B testing of the company's website and product: projects, audiences that target "
    "visitors, conversion events used as metrics, experiments with weighted variations and traffic "
    "allocation, and the results that say which variation wins and how significant it is.",
)

ProjectId = Annotated[str, IdOf("experiments.project")]
AudienceId = Annotated[str, IdOf("experiments.audience")]
EventId = Annotated[str, IdOf("experiments.event")]
ExperimentId = Annotated[str, IdOf("experiments.experiment")]

Key = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{1,63}$")]
"""A machine key: lower case letters, digits and underscores."""
Weight = Annotated[int, Field(ge=0, le=10000)]
"""A share of traffic in basis points (10000 = 100%)."""
Confidence = Annotated[int, Field(ge=80, le=99)]
"""Statistical significance threshold in percent."""

Platform = Literal["web", "custom"]
ProjectStatus = Literal["active", "archived"]
EventType = Literal["custom", "click", "pageview", "revenue"]
ExperimentStatus = Literal["not_started", "running", "paused", "concluded", "archived"]
LIVE: tuple[ExperimentStatus, ...] = ("running", "paused")


class Variation(Value):
    """One arm of an experiment."""

    key: Key
    """Its key (unique within the experiment); the first variation is the baseline."""
    name: Title
    """Its display name."""
    weight: Weight
    """Its share of the experiment's traffic, in basis points."""


class Project(Record):
    """A project: the website or application experiments run in."""

    id: ProjectId
    name: Title
    """The project's name (unique)."""
    platform: Platform = "web"
    """web (Optimizely Web) or custom (Feature Experimentation SDKs)."""
    confidence_level: Confidence = 90
    """The statistical significance a result needs to declare a winner, in percent."""
    owner_email: Email
    """The employee who owns the project."""
    status: ProjectStatus = "active"
    """active or archived."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Audience(Record):
    """A group of visitors an experiment may target."""

    id: AudienceId
    project_id: ProjectId
    """The project."""
    name: Title
    """Its name (unique in the project)."""
    conditions: Text
    """Targeting conditions, e.g. device = mobile and country = US."""
    description: Text = ""
    """What it is for."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Event(Record):
    """A tracked conversion event, usable as an experiment metric."""

    id: EventId
    project_id: ProjectId
    """The project."""
    key: Key
    """Its key (unique in the project), as the SDK tracks it."""
    name: Title
    """Its display name."""
    event_type: EventType = "custom"
    """custom, click, pageview or revenue."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Experiment(Record):
    """An A/B test: weighted variations, an audience, metrics and a lifecycle."""

    id: ExperimentId
    project_id: ProjectId
    """The project."""
    key: Key
    """Its key (unique in the project)."""
    name: Title
    """Its name."""
    hypothesis: Text = ""
    """What it is expected to show."""
    variations: tuple[Variation, ...] = ()
    """Its variations; the first is the baseline."""
    traffic_allocation: Percent = 100.0
    """Share of eligible visitors included in the experiment, in percent."""
    audience_ids: tuple[AudienceId, ...] = ()
    """Audiences targeted (none: everyone)."""
    metric_ids: tuple[EventId, ...] = ()
    """Events measured; the first is the primary metric."""
    owner_email: Email
    """The employee running it."""
    status: ExperimentStatus = "not_started"
    """not_started, running, paused, concluded or archived."""
    winner_key: str | None = None
    """The winning variation's key, when one was declared."""
    started_at: DateTime | None = None
    """When it first started."""
    concluded_at: DateTime | None = None
    """When it was concluded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Tally(Record):
    """Visitors and conversions of one variation on one metric (what the results page aggregates)."""

    id: Annotated[str, IdOf("experiments.tally")]
    experiment_id: ExperimentId
    """The experiment."""
    variation_key: Key
    """The variation."""
    event_id: EventId
    """The metric's event."""
    visitors: int = 0
    """Unique visitors bucketed into the variation."""
    conversions: int = 0
    """Visitors who triggered the event."""


class VariationResult(Value):
    """One variation's numbers on the primary metric."""

    variation_key: str
    """The variation."""
    visitors: int
    """Unique visitors."""
    conversions: int
    """Conversions."""
    conversion_rate: float
    """Conversions per visitor, in percent (2 decimals)."""
    lift: float | None
    """Relative improvement over the baseline, in percent (None for the baseline)."""
    significance: float | None
    """Statistical significance of the difference from the baseline, in percent (None for the baseline)."""
    is_significant: bool
    """Whether significance reaches the project's confidence level."""


class Results(Value):
    """An experiment's results on its primary metric."""

    experiment_id: ExperimentId
    """The experiment."""
    metric_id: EventId | None
    """The primary metric."""
    confidence_level: int
    """The project's threshold, in percent."""
    variations: tuple[VariationResult, ...]
    """Per variation, the baseline first."""
    leader_key: str | None
    """The significant variation with the highest lift, if any."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the account", field=field, hint="use an employee's e-mail")


def _live_project(ctx: Ctx, project_id: str) -> Project:
    project = ctx.get(Project, project_id, field="project_id")
    if project.status != "active":
        raise RuleViolation(f"project {project.name!r} is archived", field="project_id", hint="use an active project")
    return project


def _check_variations(variations: tuple[Variation, ...], field: str = "variations") -> None:
    keys = [v.key for v in variations]
    if len(set(keys)) != len(keys):
        raise RuleViolation("a variation key is used twice", field=field, hint="give each variation its own key")
    if variations and sum(v.weight for v in variations) != 10000:
        raise RuleViolation(
            f"variation weights sum to {sum(v.weight for v in variations)}, not 10000",
            field=field,
            hint="weights are basis points: make them add up to 10000 (100%)",
        )


def _in_use(ctx: Ctx, attr: str, record_id: str, field: str, what: str) -> None:
    for exp in ctx.scan(Experiment):
        if exp.status in LIVE and record_id in getattr(exp, attr):
            raise Conflict(
                f"{what} {record_id} is used by {exp.status} experiment {exp.key}",
                field=field,
                hint="conclude or archive the experiment first",
            )


def _guard_audience(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        _live_project(ctx, new.project_id)
    if old is None or new.name != old.name:
        other = ctx.first(Audience, project_id=new.project_id, name=new.name)
        if other is not None and other.id != new.id:
            raise Conflict(f"audience {new.name!r} exists", field="name", hint=f"use audience {other.id}")


def _guard_audience_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _in_use(ctx, "audience_ids", old.id, "audience_id", "audience")


def _guard_event_delete(ctx: Ctx, new: Any, old: Any) -> None:
    _in_use(ctx, "metric_ids", old.id, "event_id", "event")


def _guard_experiment(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        return
    if old.status in ("concluded", "archived") and new.status == old.status:
        raise RuleViolation(
            f"experiment {old.key} is {old.status}", field="experiment_id", hint="copy it into a new experiment"
        )
    for aid in new.audience_ids:
        aud = ctx.get(Audience, aid, field="audience_ids")
        if aud.project_id != new.project_id:
            raise RuleViolation(f"audience {aid} is in another project", field="audience_ids", hint="pick its own")


def _guard_experiment_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if old.status != "not_started":
        raise Conflict(
            f"experiment {old.key} is {old.status}; only not-started experiments can be deleted",
            field="experiment_id",
            hint="archive it with experiments__archive_experiment instead",
        )


projects = service.resource(
    Project,
    name="project",
    plural="projects",
    prefix="proj",
    create=False,
    filters=("platform", "status", "owner_email"),
    search=("name",),
    update=("confidence_level",),
    delete=False,
    transitions={"archive": Transition("status", ("active",), "archived", "archive the project")},
)
audiences = service.resource(
    Audience,
    name="audience",
    plural="audiences",
    prefix="aud",
    create=("project_id", "name", "conditions", "description"),
    filters=("project_id",),
    search=("name", "conditions"),
    update=("name", "conditions", "description"),
    guard_create=_guard_audience,
    guard_update=_guard_audience,
    guard_delete=_guard_audience_delete,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=False,
    filters=("project_id", "event_type", "key"),
    search=("name",),
    update=("name",),
    guard_delete=_guard_event_delete,
)
experiments = service.resource(
    Experiment,
    name="experiment",
    plural="experiments",
    prefix="exp",
    create=False,
    filters=("project_id", "status", "owner_email", "key"),
    search=("name", "hypothesis"),
    update=("name", "hypothesis", "traffic_allocation", "audience_ids"),
    transitions={
        "pause": Transition("status", ("running",), "paused", "pause the experiment"),
        "archive": Transition(
            "status",
            ("not_started", "paused", "concluded"),
            "archived",
            "archive the experiment",
            description="Archive an experiment that is not running; it leaves the active list for good.",
            destructive=True,
        ),
    },
    guard_update=_guard_experiment,
    guard_delete=_guard_experiment_delete,
)
tallies = service.resource(
    Tally, name="tally", plural="tallies", prefix="tly", create=False, get=False, filters=None, delete=False
)


# -- domain tools -----------------------------------------------------------------------------


def _example_project(ctx: Ctx) -> dict[str, Any] | None:
    return {"name": "Mobile app onboarding", "platform": "custom", "owner_email": ctx.population.employees[0].email}


@service.tool(intent="create the experimentation project", write=True, example=_example_project)
def create_project(
    ctx: Ctx, name: Title, owner_email: Email, platform: Platform = "web", confidence_level: Confidence = 90
) -> Project:
    """Create a project; names are unique.

    Args:
        name: The project's name.
        owner_email: The employee who owns it.
        platform: web or custom (feature experimentation in code).
        confidence_level: Significance needed to declare a winner, 80-99 percent.
    """
    if ctx.first(Project, name=name) is not None:
        raise Conflict(f"project {name!r} exists", field="name", hint="pick another name or use that project")
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(Project, name=name, owner_email=owner_email, platform=platform, confidence_level=confidence_level)


def _example_event(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, status="active")
    return None if p is None else {"project_id": p.id, "key": "newsletter_signup", "name": "Newsletter signup"}


@service.tool(intent="create the conversion event", write=True, example=_example_event)
def create_event(ctx: Ctx, project_id: ProjectId, key: Key, name: Title, event_type: EventType = "custom") -> Event:
    """Create a conversion event in a project; keys are unique per project.

    Args:
        project_id: The project.
        key: The key the SDK tracks, e.g. add_to_cart.
        name: Its display name.
        event_type: custom, click, pageview or revenue.
    """
    _live_project(ctx, project_id)
    if ctx.first(Event, project_id=project_id, key=key) is not None:
        raise Conflict(f"event {key} exists in the project", field="key", hint="use the existing event")
    return ctx.create(Event, project_id=project_id, key=key, name=name, event_type=event_type)


def _example_experiment(ctx: Ctx) -> dict[str, Any] | None:
    p = ctx.first(Project, status="active")
    e = None if p is None else ctx.first(Event, project_id=p.id)
    if p is None or e is None:
        return None
    return {
        "project_id": p.id,
        "key": "checkout_button_color",
        "name": "Checkout button colour",
        "owner_email": p.owner_email,
        "variations": [
            {"key": "control", "name": "Blue", "weight": 5000},
            {"key": "green", "name": "Green", "weight": 5000},
        ],
        "metric_ids": [e.id],
    }


@service.tool(intent="create the experiment", write=True, example=_example_experiment)
def create_experiment(
    ctx: Ctx,
    project_id: ProjectId,
    key: Key,
    name: Title,
    owner_email: Email,
    variations: list[Variation],
    metric_ids: list[EventId] | None = None,
    audience_ids: list[AudienceId] | None = None,
    traffic_allocation: Percent = 100.0,
    hypothesis: Text = "",
) -> Experiment:
    """Create an experiment (not started); keys are unique per project.

    Args:
        project_id: The project.
        key: Its key, e.g. pricing_page_layout.
        name: Its name.
        owner_email: The employee running it.
        variations: The variations, baseline first; weights in basis points summing to 10000.
        metric_ids: Events to measure, the primary first.
        audience_ids: Audiences to target (none: everyone).
        traffic_allocation: Share of eligible visitors included, in percent.
        hypothesis: What it is expected to show.
    """
    _live_project(ctx, project_id)
    if ctx.first(Experiment, project_id=project_id, key=key) is not None:
        raise Conflict(f"experiment {key} exists in the project", field="key", hint="pick another key")
    _staff(ctx, owner_email, "owner_email")
    _check_variations(tuple(variations))
    for eid in metric_ids or []:
        if ctx.get(Event, eid, field="metric_ids").project_id != project_id:
            raise RuleViolation(f"event {eid} is in another project", field="metric_ids", hint="use its own events")
    for aid in audience_ids or []:
        if ctx.get(Audience, aid, field="audience_ids").project_id != project_id:
            raise RuleViolation(f"audience {aid} is in another project", field="audience_ids", hint="pick its own")
    return ctx.create(
        Experiment,
        project_id=project_id,
        key=key,
        name=name,
        owner_email=owner_email,
        variations=tuple(variations),
        metric_ids=tuple(metric_ids or ()),
        audience_ids=tuple(audience_ids or ()),
        traffic_allocation=traffic_allocation,
        hypothesis=hypothesis,
    )


@service.tool(
    intent="change the experiment's variations",
    write=True,
    example=first_example(
        Experiment,
        "experiment_id",
        where={"status": "not_started"},
        variations=[
            {"key": "control", "name": "Original", "weight": 3400},
            {"key": "variant_a", "name": "Variant A", "weight": 3300},
            {"key": "variant_b", "name": "Variant B", "weight": 3300},
        ],
    ),
)
def set_variations(ctx: Ctx, experiment_id: ExperimentId, variations: list[Variation]) -> Experiment:
    """Replace the variations of an experiment that has never run.

    Args:
        experiment_id: The experiment.
        variations: The variations, baseline first; weights in basis points summing to 10000.
    """
    exp = ctx.get(Experiment, experiment_id, field="experiment_id")
    if exp.status != "not_started":
        raise Conflict(
            f"experiment {exp.key} is {exp.status}; variations are fixed once it has run",
            field="experiment_id",
            hint="create a new experiment to test other variations",
        )
    _check_variations(tuple(variations))
    return ctx.update(exp, variations=tuple(variations))


@service.tool(
    intent="add the metric to the experiment",
    write=True,
    example=first_example(Experiment, "experiment_id", where={"status": "not_started"}),
)
def add_metric(ctx: Ctx, experiment_id: ExperimentId, event_id: EventId | None = None) -> Experiment:
    """Add an event of the project as a metric (the first metric added is primary).

    Args:
        experiment_id: The experiment.
        event_id: The event; omit for the project's first event not yet measured.
    """
    exp = ctx.get(Experiment, experiment_id, field="experiment_id")
    if exp.status in ("concluded", "archived"):
        raise Conflict(f"experiment {exp.key} is {exp.status}", field="experiment_id", hint="nothing to measure")
    if event_id is None:
        spare = [e for e in ctx.where(Event, project_id=exp.project_id) if e.id not in exp.metric_ids]
        if not spare:
            raise RuleViolation("every event is already a metric", field="event_id", hint="create an event first")
        event_id = spare[0].id
    event = ctx.get(Event, event_id, field="event_id")
    if event.project_id != exp.project_id:
        raise RuleViolation(f"event {event_id} is in another project", field="event_id", hint="use its own events")
    if event_id in exp.metric_ids:
        raise Conflict(f"event {event.key} is already a metric", field="event_id", hint="nothing to add")
    return ctx.update(exp, metric_ids=(*exp.metric_ids, event_id))


@service.tool(
    intent="start the experiment",
    write=True,
    example=first_example(Experiment, "experiment_id", where={"status": "paused"}),
)
def start_experiment(ctx: Ctx, experiment_id: ExperimentId) -> Experiment:
    """Start (or resume) an experiment: it needs two or more variations, weights of 100%, a metric and a live project.

    Args:
        experiment_id: The experiment.
    """
    exp = ctx.get(Experiment, experiment_id, field="experiment_id")
    if exp.status not in ("not_started", "paused"):
        raise Conflict(
            f"experiment {exp.key} is {exp.status}", field="experiment_id", hint="only not-started or paused"
        )
    project = ctx.get(Project, exp.project_id)
    if project.status != "active":
        raise RuleViolation(f"project {project.name!r} is archived", field="experiment_id", hint="nothing can run")
    if len(exp.variations) < 2:
        raise RuleViolation(
            "an experiment needs at least two variations",
            field="experiment_id",
            hint="add variations with experiments__set_variations",
        )
    if not exp.metric_ids:
        raise RuleViolation(
            "an experiment needs a metric", field="experiment_id", hint="add one with experiments__add_metric"
        )
    started = exp.started_at or ctx.now()
    return ctx.update(exp, status="running", started_at=started)


def _results(ctx: Ctx, exp: Experiment) -> Results:
    project = ctx.get(Project, exp.project_id)
    metric = exp.metric_ids[0] if exp.metric_ids else None
    rows: list[tuple[str, int, int]] = []
    for v in exp.variations:
        t = None if metric is None else ctx.first(Tally, experiment_id=exp.id, variation_key=v.key, event_id=metric)
        rows.append((v.key, t.visitors if t else 0, t.conversions if t else 0))
    out: list[VariationResult] = []
    base_n, base_c = (rows[0][1], rows[0][2]) if rows else (0, 0)
    for k, (key, n, c) in enumerate(rows):
        rate = c / n if n else 0.0
        lift = sig = None
        if k > 0:
            base = base_c / base_n if base_n else 0.0
            lift = round((rate - base) / base * 100, 2) if base else None
            sig = round(_significance(base_c, base_n, c, n), 2)
        out.append(
            VariationResult(
                variation_key=key,
                visitors=n,
                conversions=c,
                conversion_rate=round(rate * 100, 2),
                lift=lift,
                significance=sig,
                is_significant=sig is not None and sig >= project.confidence_level,
            )
        )
    winners = [r for r in out if r.is_significant and (r.lift or 0) > 0]
    leader = max(winners, key=lambda r: r.lift or 0).variation_key if winners else None
    return Results(
        experiment_id=exp.id,
        metric_id=metric,
        confidence_level=project.confidence_level,
        variations=tuple(out),
        leader_key=leader,
    )


def _significance(c1: int, n1: int, c2: int, n2: int) -> float:
    """Two-sided two-proportion z-test: 100 × (1 − p)."""
    if not n1 or not n2:
        return 0.0
    pooled = (c1 + c2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return 0.0
    z = abs(c2 / n2 - c1 / n1) / se
    return (1 - math.erfc(z / math.sqrt(2))) * 100


@service.tool(
    intent="show the experiment's results",
    example=first_example(Experiment, "experiment_id", where={"status": "running"}),
)
def experiment_results(ctx: Ctx, experiment_id: ExperimentId) -> Results:
    """Visitors, conversion rate, lift and statistical significance of each variation on the primary metric.

    Args:
        experiment_id: The experiment.
    """
    return _results(ctx, ctx.get(Experiment, experiment_id, field="experiment_id"))


def _example_conclude(ctx: Ctx) -> dict[str, Any] | None:
    for exp in ctx.where(Experiment, status="running"):
        return {"experiment_id": exp.id, "winner_key": _results(ctx, exp).leader_key}
    return None


@service.tool(intent="conclude the experiment", write=True, example=_example_conclude)
def conclude_experiment(ctx: Ctx, experiment_id: ExperimentId, winner_key: str | None = None) -> Experiment:
    """Conclude a running or paused experiment, declaring a winner only if it is significant and ahead.

    Args:
        experiment_id: The experiment.
        winner_key: The winning variation's key; omit to conclude without a winner.
    """
    exp = ctx.get(Experiment, experiment_id, field="experiment_id")
    if exp.status not in LIVE:
        raise Conflict(f"experiment {exp.key} is {exp.status}", field="experiment_id", hint="only running or paused")
    if winner_key is not None:
        res = _results(ctx, exp)
        row = next((r for r in res.variations if r.variation_key == winner_key), None)
        if row is None:
            raise RuleViolation(
                f"no variation {winner_key!r}", field="winner_key", hint="use a key from the experiment's variations"
            )
        if winner_key != res.leader_key:
            raise RuleViolation(
                f"variation {winner_key} is not a significant improvement at {res.confidence_level}%",
                field="winner_key",
                hint="check experiments__experiment_results, or conclude without a winner",
            )
    return ctx.update(exp, status="concluded", winner_key=winner_key, concluded_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

PLANS: tuple[tuple[str, str, ExperimentStatus, tuple[tuple[int, int], ...]], ...] = (
    ("pricing_page_layout", "Pricing page layout", "running", ((20400, 612), (20310, 751))),
    ("checkout_single_page", "Single-page checkout", "running", ((8800, 440), (8750, 452))),
    ("homepage_hero_video", "Homepage hero video", "paused", ((5100, 204), (5080, 198))),
    ("free_shipping_banner", "Free shipping banner", "concluded", ((30100, 903), (30050, 1082))),
    ("signup_social_login", "Social login on signup", "not_started", ()),
    ("old_nav_menu", "Navigation menu test", "archived", ((4000, 120), (4010, 118))),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Two projects, audiences and events, and experiments in every status with results."""
    pop = s.population
    team = pop.staff("Marketing", "Product", fallback=4)
    web = s.create(
        Project, name=f"{pop.home.name} website", platform="web", owner_email=team[0].email, created_at=s.ago(days=500)
    )
    app = s.create(
        Project,
        name=f"{pop.home.name} app",
        platform="custom",
        confidence_level=95,
        owner_email=team[1 % len(team)].email,
        created_at=s.ago(days=300),
    )
    s.create(
        Project,
        name="Legacy storefront",
        owner_email=team[0].email,
        status="archived",
        created_at=s.ago(days=900),
    )
    auds = [
        s.create(Audience, project_id=web.id, name=n, conditions=c, created_at=s.ago(days=200))
        for n, c in (
            ("Mobile visitors", "device = mobile"),
            ("Returning customers", "cookie returning_customer = true"),
            (f"Visitors from {pop.home.place.country}", f"location.country = {pop.home.place.country}"),
        )
    ]
    s.create(Audience, project_id=app.id, name="Beta users", conditions="attribute beta = true")
    evs = [
        s.create(Event, project_id=web.id, key=k, name=n, event_type=t, created_at=s.ago(days=200))
        for k, n, t in (
            ("purchase", "Purchase", "revenue"),
            ("add_to_cart", "Add to cart", "click"),
            ("pricing_view", "Pricing page view", "pageview"),
        )
    ]
    s.create(Event, project_id=app.id, key="signup_completed", name="Signup completed")
    for k, (key, name, status, counts) in enumerate(PLANS):
        variations = (
            Variation(key="control", name="Original", weight=5000),
            Variation(key="variant", name="Variant", weight=5000),
        )
        started = s.ago(days=40 - 5 * k) if status != "not_started" else None
        exp = s.create(
            Experiment,
            project_id=web.id,
            key=key,
            name=name,
            hypothesis=f"{name} raises conversion.",
            variations=variations,
            traffic_allocation=100.0 if k % 2 == 0 else 50.0,
            audience_ids=(auds[k % len(auds)].id,) if k % 3 else (),
            metric_ids=(evs[0].id, evs[1].id),
            owner_email=team[k % len(team)].email,
            status=status,
            winner_key="variant" if status == "concluded" else None,
            started_at=started,
            concluded_at=s.ago(days=3) if status == "concluded" else None,
            created_at=s.ago(days=60),
            updated_at=s.ago(days=2),
        )
        for v, (n, c) in zip(variations, counts, strict=False):
            s.create(Tally, experiment_id=exp.id, variation_key=v.key, event_id=evs[0].id, visitors=n, conversions=c)
            s.create(
                Tally,
                experiment_id=exp.id,
                variation_key=v.key,
                event_id=evs[1].id,
                visitors=n,
                conversions=c * 3,
            )
