"""Tributary Data: the customer data platform that collects events and routes them to tools.

Modeled on the Segment Public API: a workspace; sources (``slug``, ``writeKey``,
``enabled``, the catalog ``metadata`` such as javascript or http-api) connected
to one tracking plan; tracking plans whose ``rules`` give each event's required
properties and their JSON types, with the "block unplanned events" setting;
destinations (Google Analytics, Mixpanel, Braze, webhooks, warehouses) on a
source, at most one per integration, ``enabled`` or not; destination filters
(``if`` an event name, ``actions`` drop or sample) that stop events reaching a
destination; Protocols violations (unplanned event, missing required property,
wrong type) counted per source, event and property; and Unify profiles with
traits merged by ``identify`` calls. Disabled sources refuse calls, a plan
connected to a source cannot be deleted, nor a source with destinations.
"""

from __future__ import annotations

import hashlib
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "cdp",
    title="Tributary Data",
    category="customer_data_platform",
    modeled_on="Segment Public API: workspaces, sources, tracking plans with rules, destinations and "
    "destination filters, Protocols violations, Unify profiles with traits; track and identify calls",
    description="The company's customer data platform: the website and app sources that send events, the "
    "tracking plans that say which events and properties are expected, the destinations events are "
    "forwarded to and their filters, schema violations, and customer profiles with their traits.",
)

WorkspaceId = Annotated[str, IdOf("cdp.workspace")]
SourceId = Annotated[str, IdOf("cdp.source")]
PlanId = Annotated[str, IdOf("cdp.tracking_plan")]
DestinationId = Annotated[str, IdOf("cdp.destination")]
FilterId = Annotated[str, IdOf("cdp.destination_filter")]
ProfileId = Annotated[str, IdOf("cdp.profile")]

Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]{1,63}$")]
"""A URL-safe name."""
EventName = Annotated[str, StringConstraints(min_length=1, max_length=120)]
"""An event's name, e.g. Order Completed."""
PropName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")]
"""A property or trait name."""
UserId = Annotated[str, StringConstraints(min_length=1, max_length=120)]
"""The user id the customer has in the company's systems."""
Scalar = str | bool | int | float

SourceKind = Literal["javascript", "ios", "android", "http_api", "node_server"]
Integration = Literal["google_analytics", "mixpanel", "amplitude", "braze", "webhooks", "bigquery", "hubspot"]
PropType = Literal["string", "number", "boolean"]
FilterAction = Literal["drop", "sample"]
ViolationType = Literal["unplanned_event", "missing_required_property", "wrong_type"]


class PropertyRule(Value):
    """One property of a planned event."""

    name: PropName
    """The property."""
    type: PropType
    """string, number or boolean."""
    required: bool = False
    """Whether every call must carry it."""


class EventRule(Value):
    """A planned event and its properties."""

    event: EventName
    """The event name."""
    properties: tuple[PropertyRule, ...] = ()
    """Its properties."""


class Workspace(Record):
    """The Segment workspace of the company."""

    id: WorkspaceId
    name: Title
    """Its name."""
    slug: Slug
    """Its slug."""
    owner_email: Email
    """The workspace owner."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class TrackingPlan(Record):
    """A tracking plan: the events sources are expected to send."""

    id: PlanId
    name: Title
    """Its name (unique)."""
    rules: tuple[EventRule, ...] = ()
    """The planned events."""
    block_unplanned: bool = False
    """Whether unplanned events are blocked instead of forwarded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Source(Record):
    """A source of data: a website, an app or a server sending events."""

    id: SourceId
    workspace_id: WorkspaceId
    """The workspace."""
    name: Title
    """Its name."""
    slug: Slug
    """Its slug (unique)."""
    kind: SourceKind
    """javascript, ios, android, http_api or node_server."""
    write_key: str
    """The key its calls authenticate with."""
    enabled: bool = True
    """Whether it accepts calls."""
    tracking_plan_id: PlanId | None = None
    """The tracking plan it is validated against."""
    events_received: int = 0
    """Calls accepted."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Destination(Record):
    """A tool events from a source are forwarded to."""

    id: DestinationId
    source_id: SourceId
    """The source."""
    name: Title
    """Its name."""
    integration: Integration
    """The catalog integration."""
    enabled: bool = True
    """Whether events are forwarded."""
    events_delivered: int = 0
    """Events forwarded."""
    created_at: Annotated[DateTime, CREATED]
    """When it was connected."""


class DestinationFilter(Record):
    """A filter that keeps matching events from a destination."""

    id: FilterId
    destination_id: DestinationId
    """The destination."""
    title: Title
    """What it does."""
    event: EventName
    """The event it matches."""
    action: FilterAction = "drop"
    """drop (never forward) or sample (forward one in ten)."""
    enabled: bool = True
    """Whether it applies."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Violation(Record):
    """A Protocols violation: calls that broke the source's tracking plan."""

    id: Annotated[str, IdOf("cdp.violation")]
    source_id: SourceId
    """The source."""
    tracking_plan_id: PlanId
    """The plan broken."""
    event: EventName
    """The event."""
    violation_type: ViolationType
    """unplanned_event, missing_required_property or wrong_type."""
    property: str | None = None
    """The property concerned."""
    count: int = 1
    """How many calls had it."""
    last_seen: DateTime
    """When it last happened."""


class Profile(Record):
    """A unified customer profile built from identify and track calls."""

    id: ProfileId
    user_id: UserId
    """The customer's user id (unique)."""
    email: Email | None = None
    """The customer's e-mail."""
    traits: dict[str, Scalar] = Field(default_factory=dict)
    """Traits merged from identify calls."""
    event_count: int = 0
    """Events tracked for the customer."""
    last_seen: DateTime | None = None
    """When the customer was last seen."""
    created_at: Annotated[DateTime, CREATED]
    """When the profile was created."""


class TrackResult(Value):
    """What happened to one track call."""

    accepted: bool
    """False when the plan blocked it."""
    violations: tuple[str, ...]
    """Violations found (type:property)."""
    delivered_to: tuple[DestinationId, ...]
    """Destinations the event was forwarded to."""
    profile_id: ProfileId
    """The customer's profile."""


# -- rules ------------------------------------------------------------------------------------


def _guard_plan(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None or new.name != old.name:
        other = ctx.first(TrackingPlan, name=new.name)
        if other is not None and other.id != new.id:
            raise Conflict(f"tracking plan {new.name!r} exists", field="name", hint=f"use plan {other.id}")
    _check_rules(new.rules)


def _check_rules(rules: tuple[EventRule, ...]) -> None:
    names = [r.event for r in rules]
    if len(set(names)) != len(names):
        raise RuleViolation("an event is planned twice", field="rules", hint="give each event one rule")
    for r in rules:
        props = [p.name for p in r.properties]
        if len(set(props)) != len(props):
            raise RuleViolation(f"{r.event} lists a property twice", field="rules", hint="list each property once")


def _guard_plan_delete(ctx: Ctx, new: Any, old: Any) -> None:
    used = ctx.first(Source, tracking_plan_id=old.id)
    if used is not None:
        raise Conflict(
            f"tracking plan {old.name!r} is connected to source {used.slug}",
            field="tracking_plan_id",
            hint="disconnect it with cdp__connect_tracking_plan (tracking_plan_id omitted) first",
        )


def _guard_source_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Destination, source_id=old.id) is not None:
        raise Conflict(
            f"source {old.slug} still has destinations",
            field="source_id",
            hint="delete its destinations first",
        )


def _guard_destination(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Source, new.source_id, field="source_id")
        for d in ctx.where(Destination, source_id=new.source_id, integration=new.integration):
            if d.id != new.id:
                raise Conflict(
                    f"source already sends to {new.integration} ({d.id})",
                    field="integration",
                    hint="update the existing destination",
                )


def _guard_filter(ctx: Ctx, new: Any, old: Any) -> None:
    if old is None:
        ctx.get(Destination, new.destination_id, field="destination_id")
        for f in ctx.where(DestinationFilter, destination_id=new.destination_id, event=new.event):
            if f.id != new.id:
                raise Conflict(f"filter {f.id} already matches {new.event}", field="event", hint="update that one")


workspaces = service.resource(
    Workspace, name="workspace", plural="workspaces", prefix="ws", create=False, delete=False, filters=("slug",)
)
plans = service.resource(
    TrackingPlan,
    name="tracking_plan",
    plural="tracking_plans",
    prefix="tp",
    create=("name", "block_unplanned"),
    filters=("block_unplanned",),
    search=("name",),
    update=("name", "block_unplanned"),
    guard_create=_guard_plan,
    guard_update=_guard_plan,
    guard_delete=_guard_plan_delete,
    title="tracking plan",
)
sources = service.resource(
    Source,
    name="source",
    plural="sources",
    prefix="src",
    create=False,
    filters=("kind", "enabled", "tracking_plan_id", "slug"),
    search=("name",),
    update=("name", "enabled"),
    guard_delete=_guard_source_delete,
)
destinations = service.resource(
    Destination,
    name="destination",
    plural="destinations",
    prefix="dst",
    create=("source_id", "name", "integration", "enabled"),
    filters=("source_id", "integration", "enabled"),
    search=("name",),
    update=("name", "enabled"),
    guard_create=_guard_destination,
)
dest_filters = service.resource(
    DestinationFilter,
    name="destination_filter",
    plural="destination_filters",
    prefix="flt",
    create=("destination_id", "title", "event", "action"),
    get=False,
    filters=("destination_id", "event", "enabled"),
    update=("enabled",),
    guard_create=_guard_filter,
    title="destination filter",
)
violations = service.resource(
    Violation,
    name="violation",
    plural="violations",
    prefix="vio",
    create=False,
    get=False,
    filters=("source_id", "tracking_plan_id", "event", "violation_type"),
    delete=False,
)
profiles = service.resource(
    Profile,
    name="profile",
    plural="profiles",
    prefix="prf",
    create=False,
    filters=("user_id", "email"),
    delete=False,
)


# -- domain tools -----------------------------------------------------------------------------


def _write_key(slug: str) -> str:
    return hashlib.sha256(slug.encode()).hexdigest()[:32]


def _example_source(ctx: Ctx) -> dict[str, Any] | None:
    ws = ctx.first(Workspace)
    return None if ws is None else {"workspace_id": ws.id, "name": "Kiosk app", "slug": "kiosk-app", "kind": "android"}


@service.tool(intent="create the source", write=True, example=_example_source)
def create_source(ctx: Ctx, workspace_id: WorkspaceId, name: Title, slug: Slug, kind: SourceKind) -> Source:
    """Create a source and its write key; slugs are unique.

    Args:
        workspace_id: The workspace.
        name: Its name.
        slug: Its URL-safe slug.
        kind: javascript, ios, android, http_api or node_server.
    """
    ctx.get(Workspace, workspace_id, field="workspace_id")
    if ctx.first(Source, slug=slug) is not None:
        raise Conflict(f"source {slug} exists", field="slug", hint="pick another slug")
    return ctx.create(Source, workspace_id=workspace_id, name=name, slug=slug, kind=kind, write_key=_write_key(slug))


@service.tool(
    intent="connect the tracking plan to the source",
    write=True,
    example=first_example(Source, "source_id", where={"tracking_plan_id": None}),
)
def connect_tracking_plan(ctx: Ctx, source_id: SourceId, tracking_plan_id: PlanId | None = None) -> Source:
    """Validate a source against a tracking plan (omit the plan to disconnect it).

    Args:
        source_id: The source.
        tracking_plan_id: The plan; omit to disconnect the current one (or, with none connected, the first plan).
    """
    src = ctx.get(Source, source_id, field="source_id")
    if tracking_plan_id is None:
        if src.tracking_plan_id is not None:
            return ctx.update(src, tracking_plan_id=None)
        first = ctx.first(TrackingPlan)
        if first is None:
            raise RuleViolation("no tracking plan exists", field="tracking_plan_id", hint="create one first")
        tracking_plan_id = first.id
    ctx.get(TrackingPlan, tracking_plan_id, field="tracking_plan_id")
    if src.tracking_plan_id == tracking_plan_id:
        raise Conflict("the plan is already connected", field="tracking_plan_id", hint="nothing to do")
    return ctx.update(src, tracking_plan_id=tracking_plan_id)


@service.tool(
    intent="add or replace the event rule of the tracking plan",
    write=True,
    example=first_example(
        TrackingPlan,
        "tracking_plan_id",
        event="Coupon Applied",
        properties=[{"name": "coupon_code", "type": "string", "required": True}],
    ),
)
def upsert_event_rule(
    ctx: Ctx, tracking_plan_id: PlanId, event: EventName, properties: list[PropertyRule] | None = None
) -> TrackingPlan:
    """Add an event to a tracking plan, or replace the rule of an event already planned.

    Args:
        tracking_plan_id: The plan.
        event: The event name, e.g. Order Completed.
        properties: Its properties, each with a JSON type and whether it is required.
    """
    plan = ctx.get(TrackingPlan, tracking_plan_id, field="tracking_plan_id")
    names = [p.name for p in properties or []]
    if len(set(names)) != len(names):
        raise RuleViolation(f"{event} lists a property twice", field="properties", hint="list each property once")
    rule = EventRule(event=event, properties=tuple(properties or ()))
    return ctx.update(plan, rules=(*(r for r in plan.rules if r.event != event), rule))


@service.tool(
    intent="remove the event from the tracking plan",
    write=True,
    example=first_example(TrackingPlan, "tracking_plan_id", event="Product Viewed"),
)
def remove_event_rule(ctx: Ctx, tracking_plan_id: PlanId, event: EventName) -> TrackingPlan:
    """Remove an event's rule from a tracking plan.

    Args:
        tracking_plan_id: The plan.
        event: The event name.
    """
    plan = ctx.get(TrackingPlan, tracking_plan_id, field="tracking_plan_id")
    if all(r.event != event for r in plan.rules):
        raise RuleViolation(f"{event!r} is not in the plan", field="event", hint="list the plan's rules")
    return ctx.update(plan, rules=tuple(r for r in plan.rules if r.event != event))


def _live_source(ctx: Ctx, source_id: str) -> Source:
    src = ctx.get(Source, source_id, field="source_id")
    if not src.enabled:
        raise RuleViolation(
            f"source {src.slug} is disabled", field="source_id", hint="enable it with cdp__update_source"
        )
    return src


def _profile(ctx: Ctx, user_id: str) -> Profile:
    prof = ctx.first(Profile, user_id=user_id)
    return prof if prof is not None else ctx.create(Profile, user_id=user_id)


def _check_call(rule: EventRule, properties: dict[str, Scalar]) -> list[tuple[ViolationType, str]]:
    out: list[tuple[ViolationType, str]] = []
    for p in rule.properties:
        if p.name not in properties:
            if p.required:
                out.append(("missing_required_property", p.name))
            continue
        v = properties[p.name]
        kind = "boolean" if isinstance(v, bool) else "number" if isinstance(v, int | float) else "string"
        if kind != p.type:
            out.append(("wrong_type", p.name))
    return out


def _record(ctx: Ctx, src: Source, event: str, vtype: ViolationType, prop: str | None) -> None:
    assert src.tracking_plan_id is not None
    v = ctx.first(Violation, source_id=src.id, event=event, violation_type=vtype, property=prop)
    if v is None:
        ctx.create(
            Violation,
            source_id=src.id,
            tracking_plan_id=src.tracking_plan_id,
            event=event,
            violation_type=vtype,
            property=prop,
            last_seen=ctx.now(),
        )
    else:
        ctx.update(v, count=v.count + 1, last_seen=ctx.now())


def _example_track(ctx: Ctx) -> dict[str, Any] | None:
    src = ctx.first(Source, enabled=True)
    prof = ctx.first(Profile)
    if src is None or prof is None:
        return None
    return {
        "source_id": src.id,
        "user_id": prof.user_id,
        "event": "Order Completed",
        "properties": {"order_id": "1042", "revenue": 59.9},
    }


@service.tool(intent="track the event", write=True, example=_example_track)
def track(
    ctx: Ctx, source_id: SourceId, user_id: UserId, event: EventName, properties: dict[str, Scalar] | None = None
) -> TrackResult:
    """Send a track call: it is validated against the source's plan and forwarded to its destinations.

    Args:
        source_id: The source sending it (must be enabled).
        user_id: The customer's user id.
        event: The event name, e.g. Order Completed.
        properties: The event's properties.
    """
    src = _live_source(ctx, source_id)
    props = properties or {}
    found: list[tuple[ViolationType, str | None]] = []
    blocked = False
    if src.tracking_plan_id is not None:
        plan = ctx.get(TrackingPlan, src.tracking_plan_id)
        rule = next((r for r in plan.rules if r.event == event), None)
        if rule is None:
            found.append(("unplanned_event", None))
            blocked = plan.block_unplanned
        else:
            found.extend(_check_call(rule, props))
        for vtype, prop in found:
            _record(ctx, src, event, vtype, prop)
    prof = _profile(ctx, user_id)
    delivered: list[str] = []
    if not blocked:
        ctx.update(src, events_received=src.events_received + 1)
        ctx.update(prof, event_count=prof.event_count + 1, last_seen=ctx.now())
        for d in ctx.where(Destination, source_id=src.id, enabled=True):
            drops = [f for f in ctx.where(DestinationFilter, destination_id=d.id, event=event) if f.enabled]
            if any(f.action == "drop" for f in drops):
                continue
            if drops and (src.events_received % 10) != 0:
                continue
            ctx.update(d, events_delivered=d.events_delivered + 1)
            delivered.append(d.id)
    return TrackResult(
        accepted=not blocked,
        violations=tuple(f"{t}:{p}" if p else t for t, p in found),
        delivered_to=tuple(delivered),
        profile_id=prof.id,
    )


def _example_identify(ctx: Ctx) -> dict[str, Any] | None:
    src = ctx.first(Source, enabled=True)
    prof = ctx.first(Profile)
    if src is None or prof is None:
        return None
    return {"source_id": src.id, "user_id": prof.user_id, "traits": {"plan": "premium", "newsletter": True}}


@service.tool(intent="identify the customer", write=True, example=_example_identify)
def identify(
    ctx: Ctx,
    source_id: SourceId,
    user_id: UserId,
    email: Email | None = None,
    traits: dict[str, Scalar] | None = None,
) -> Profile:
    """Send an identify call: the customer's profile is created or its traits merged (new values win).

    Args:
        source_id: The source sending it (must be enabled).
        user_id: The customer's user id.
        email: The customer's e-mail.
        traits: Traits to set, e.g. {"plan": "premium"}.
    """
    _live_source(ctx, source_id)
    bad = [k for k in traits or {} if not k or not k.replace("_", "a").isalnum()]
    if bad:
        raise RuleViolation(f"invalid trait name {bad[0]!r}", field="traits", hint="use letters, digits, underscores")
    if email is not None:
        other = ctx.first(Profile, email=email)
        if other is not None and other.user_id != user_id:
            raise Conflict(
                f"{email} belongs to profile {other.id} (user {other.user_id})",
                field="email",
                hint="identify that user id instead",
            )
    prof = _profile(ctx, user_id)
    merged = dict(prof.traits) | dict(traits or {})
    if email is not None:
        merged["email"] = email
    return ctx.update(prof, email=email or prof.email, traits=merged, last_seen=ctx.now())


# -- seed -------------------------------------------------------------------------------------

PLAN_RULES = (
    EventRule(
        event="Order Completed",
        properties=(
            PropertyRule(name="order_id", type="string", required=True),
            PropertyRule(name="revenue", type="number", required=True),
            PropertyRule(name="coupon", type="string"),
        ),
    ),
    EventRule(
        event="Product Viewed",
        properties=(
            PropertyRule(name="product_id", type="string", required=True),
            PropertyRule(name="price", type="number"),
        ),
    ),
    EventRule(event="Signed Up", properties=(PropertyRule(name="newsletter", type="boolean"),)),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """One workspace, plans, sources, destinations with filters, violations and customer profiles."""
    pop = s.population
    owner = pop.staff("Marketing", "Engineering", fallback=1)[0]
    slug = "".join(ch for ch in pop.home.domain.split(".")[0].lower() if ch.isalnum()) or "acme"
    ws = s.create(Workspace, name=pop.home.name, slug=slug, owner_email=owner.email, created_at=s.ago(days=700))
    main = s.create(TrackingPlan, name="Ecommerce spec", rules=PLAN_RULES, created_at=s.ago(days=400))
    strict = s.create(
        TrackingPlan, name="Mobile spec", rules=PLAN_RULES[1:], block_unplanned=True, created_at=s.ago(days=200)
    )
    s.create(TrackingPlan, name="Draft spec", created_at=s.ago(days=5))
    made: list[Source] = []
    for name, sl, kind, plan, enabled in (
        ("Website", "website", "javascript", main.id, True),
        ("iOS app", "ios-app", "ios", strict.id, True),
        ("Backend", "backend", "node_server", None, True),
        ("Old landing pages", "landing-pages", "javascript", None, False),
    ):
        made.append(
            s.create(
                Source,
                workspace_id=ws.id,
                name=name,
                slug=sl,
                kind=kind,
                write_key=_write_key(sl),
                enabled=enabled,
                tracking_plan_id=plan,
                events_received=s.rng.randint(5000, 90000) if enabled else 120,
                created_at=s.ago(days=600),
            )
        )
    web, ios = made[0], made[1]
    for src, name, integ in (
        (web, "Google Analytics 4", "google_analytics"),
        (web, "Mixpanel", "mixpanel"),
        (web, "BigQuery warehouse", "bigquery"),
        (ios, "Braze", "braze"),
        (made[2], "HubSpot", "hubspot"),
    ):
        s.create(Destination, source_id=src.id, name=name, integration=integ, events_delivered=s.rng.randint(100, 9000))
    mix = next(d for d in s.records(Destination) if d.integration == "mixpanel")
    s.create(DestinationFilter, destination_id=mix.id, title="Drop page views", event="Product Viewed")
    for event, vtype, prop, count in (
        ("Order Completed", "missing_required_property", "revenue", 14),
        ("Cart Abandoned", "unplanned_event", None, 230),
        ("Product Viewed", "wrong_type", "price", 41),
    ):
        s.create(
            Violation,
            source_id=web.id,
            tracking_plan_id=main.id,
            event=event,
            violation_type=vtype,
            property=prop,
            count=count,
            last_seen=s.ago(hours=count % 24 + 1),
        )
    for k, p in enumerate(pop.consumers[:20]):
        s.create(
            Profile,
            user_id=f"u{1000 + k}",
            email=p.email,
            traits={"email": p.email, "first_name": p.first_name, "last_name": p.last_name, "city": p.place.city},
            event_count=s.rng.randint(1, 200),
            last_seen=s.ago(days=k % 30),
            created_at=s.ago(days=300 - k),
        )
