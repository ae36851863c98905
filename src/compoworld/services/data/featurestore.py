"""Featurely: a feature store of entities, feature views, feature services, materialization and online lookups.

Modeled on Feast (``feast apply`` objects and the feature server) and Tecton:
entities with a ``join_key``; batch sources (warehouse tables with a
``timestamp_field``) and push sources; feature views over entities and a
source with a schema of typed features, a ``ttl`` and ``online`` serving;
feature services that bundle feature references (``view:feature``);
``materialize`` jobs that load a time window of a source into the online
store (``materialize-incremental``); ``get-online-features`` for entity keys,
where a value older than its view's TTL comes back as null; and ``push`` of
fresh values into the online store.

Names of entities, views and services are unique; a view's features are
distinct and typed; a feature service refers only to existing features; a
view or entity in use cannot be deleted. Materialization needs an online
view and a window that ends no later than now, starts before it ends and
spans at most a year. Pushed values must name the view's features with
values of their types.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Quantity, Text
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "featurestore",
    title="Featurely",
    category="feature_store",
    modeled_on="Feast (entities, batch and push sources, feature views with schema and ttl, feature services, "
    "materialize / materialize-incremental, get-online-features, push) and Tecton feature services",
    description="The ML team's feature store: entities such as customers and users, the warehouse sources features "
    "are computed from, feature views with typed features and time-to-live, feature services models read, "
    "materialization jobs into the online store, online lookups by entity key and pushes of fresh values.",
)

EntityId = Annotated[str, IdOf("featurestore.entity")]
SourceId = Annotated[str, IdOf("featurestore.source")]
ViewId = Annotated[str, IdOf("featurestore.feature_view")]
FsId = Annotated[str, IdOf("featurestore.feature_service")]
JobId = Annotated[str, IdOf("featurestore.materialization_job")]
ValueRowId = Annotated[str, IdOf("featurestore.online_value")]

Name = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,62}$")]
"""A snake_case name."""
FeatureRef = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,62}:[a-z][a-z0-9_]{0,62}$")]
"""A feature reference, view:feature."""
EntityKey = Annotated[str, StringConstraints(min_length=1, max_length=254)]
"""An entity's key value (a customer's domain, a user's e-mail)."""
Dtype = Literal["int64", "float64", "string", "bool"]
FeatureValue = int | float | str | bool

MAX_WINDOW = dt.timedelta(days=366)


class FeatureSpec(Value):
    """A typed feature of a view."""

    name: Name
    """The feature's name."""
    dtype: Dtype
    """int64, float64, string or bool."""


class SourceRow(Value):
    """A row of a batch source."""

    entity_key: EntityKey
    """The entity it describes."""
    event_timestamp: DateTime
    """When the values were true."""
    values: dict[Name, FeatureValue]
    """Column values."""


class Entity(Record):
    """Something features describe (a customer, a user)."""

    id: EntityId
    name: Name
    """Its unique name."""
    join_key: Name
    """The key column joining it to sources."""
    description: Text = ""
    """What it is."""
    created_at: Annotated[DateTime, CREATED]
    """When it was applied."""


class Source(Record):
    """A batch source (a warehouse table) or a push source."""

    id: SourceId
    name: Name
    """Its unique name."""
    kind: Literal["batch", "push"] = "batch"
    """batch or push."""
    table: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_.]{1,120}$")] | None = None
    """For batch sources: the warehouse table."""
    timestamp_field: Name = "event_timestamp"
    """The column with each row's event time."""
    rows: tuple[SourceRow, ...] = ()
    """The rows the table holds."""
    created_at: Annotated[DateTime, CREATED]
    """When it was applied."""


class FeatureView(Record):
    """A group of features of an entity computed from a source."""

    id: ViewId
    name: Name
    """Its unique name."""
    entity_id: EntityId
    """The entity it describes."""
    source_id: SourceId
    """Its source."""
    features: tuple[FeatureSpec, ...]
    """Its typed features."""
    ttl_days: Annotated[int, Field(ge=0, le=3650)] = 30
    """How long a value stays valid online (0: forever)."""
    online: bool = True
    """Whether it is served from the online store."""
    owner_email: Email | None = None
    """The employee who owns it."""
    description: Text = ""
    """What it computes."""
    materialized_until: DateTime | None = None
    """The end of the last materialized window."""
    created_at: Annotated[DateTime, CREATED]
    """When it was applied."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class FeatureService(Record):
    """A named set of features a model reads."""

    id: FsId
    name: Name
    """Its unique name."""
    features: tuple[FeatureRef, ...]
    """The features it serves, view:feature."""
    owner_email: Email | None = None
    """The employee who owns it."""
    description: Text = ""
    """Which model uses it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was applied."""


class MaterializationJob(Record):
    """A load of a view's source window into the online store."""

    id: JobId
    feature_view_id: ViewId
    """The view."""
    start: DateTime
    """Window start."""
    end: DateTime
    """Window end."""
    status: Literal["success", "failed"] = "success"
    """success or failed."""
    rows_written: Quantity = 0
    """Entity rows written online."""
    created_at: Annotated[DateTime, CREATED]
    """When it ran."""


class OnlineValue(Record):
    """The latest feature values of one entity key in one view, in the online store."""

    id: ValueRowId
    feature_view_id: ViewId
    """The view."""
    entity_key: EntityKey
    """The entity key."""
    values: dict[Name, FeatureValue]
    """Feature values."""
    event_timestamp: DateTime
    """When they were true."""


class OnlineRow(Value):
    """Online features for one entity key."""

    entity_key: EntityKey
    """The key."""
    values: dict[FeatureRef, FeatureValue | None]
    """Each requested feature; null when missing or older than its TTL."""


# -- rules ------------------------------------------------------------------------------------


def _owner(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email is not None and (old is None or old.owner_email != new.owner_email):
        require_employee(ctx, new.owner_email, field="owner_email", hint="feature store objects are owned by staff")


def _guard_entity_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(FeatureView, entity_id=old.id) is not None:
        raise Conflict(f"entity {old.name} has feature views", field="entity_id", hint="delete those views first")


def _guard_view_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for fs in ctx.scan(FeatureService):
        if any(ref.split(":")[0] == old.name for ref in fs.features):
            raise Conflict(
                f"feature service {fs.name} serves features of {old.name}",
                field="feature_view_id",
                hint="remove them from the feature service first",
            )
    for v in ctx.where(OnlineValue, feature_view_id=old.id):
        ctx.delete(v)


def _unique(ctx: Ctx, model: type[Entity] | type[FeatureView] | type[FeatureService], name: str) -> None:
    if ctx.first(model, name=name) is not None:
        raise Conflict(f"{name} already exists", field="name", hint="pick another name, or update the existing one")


entities = service.resource(
    Entity,
    name="entity",
    plural="entities",
    prefix="ent",
    create=False,
    filters=("name", "join_key"),
    guard_delete=_guard_entity_delete,
)
sources = service.resource(
    Source, name="source", plural="sources", prefix="src", create=False, filters=("name", "kind"), delete=False
)
views = service.resource(
    FeatureView,
    name="feature_view",
    plural="feature_views",
    prefix="fv",
    create=False,
    filters=("name", "entity_id", "source_id", "online", "owner_email"),
    search=("name", "description"),
    update=("ttl_days", "online", "owner_email", "description"),
    guard_update=_owner,
    guard_delete=_guard_view_delete,
    title="feature view",
)
services = service.resource(
    FeatureService,
    name="feature_service",
    plural="feature_services",
    prefix="fs",
    create=False,
    filters=("name", "owner_email"),
    search=("name", "description"),
    title="feature service",
)
jobs = service.resource(
    MaterializationJob,
    name="materialization_job",
    plural="materialization_jobs",
    prefix="mat",
    create=False,
    filters=("feature_view_id", "status"),
    delete=False,
    title="materialization job",
)
values = service.resource(
    OnlineValue,
    name="online_value",
    plural="online_values",
    prefix="ov",
    create=False,
    get=False,
    filters=("feature_view_id", "entity_key"),
    delete=False,
    title="online value",
)


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create the entity",
    write=True,
    example=fixed_example(name="merchant", join_key="merchant_id", description="A marketplace seller."),
)
def create_entity(ctx: Ctx, name: Name, join_key: Name, description: Text = "") -> Entity:
    """Apply an entity (unique name) with the key that joins it to sources.

    Args:
        name: Its unique name.
        join_key: The key column.
        description: What it is.
    """
    _unique(ctx, Entity, name)
    return ctx.create(Entity, name=name, join_key=join_key, description=description)


def _example_view(ctx: Ctx) -> dict[str, Any] | None:
    ent = ctx.first(Entity, name="user")
    src = ctx.first(Source, name="user_activity")
    if ent is None or src is None:
        return None
    return {
        "name": "user_engagement",
        "entity_id": ent.id,
        "source_id": src.id,
        "features": [{"name": "sessions_7d", "dtype": "int64"}],
        "ttl_days": 7,
    }


@service.tool(intent="create the feature view", write=True, example=_example_view)
def create_feature_view(
    ctx: Ctx,
    name: Name,
    entity_id: EntityId,
    source_id: SourceId,
    features: Annotated[list[FeatureSpec], Field(min_length=1, max_length=200)],
    ttl_days: Annotated[int, Field(ge=0, le=3650)] = 30,
    online: bool = True,
    owner_email: Email | None = None,
    description: Text = "",
) -> FeatureView:
    """Apply a feature view (unique name) of an entity over a source, with distinct typed features.

    Args:
        name: Its unique name.
        entity_id: The entity it describes.
        source_id: Its batch or push source.
        features: Its features with their types.
        ttl_days: How long values stay valid online (0: forever).
        online: Whether it is served online.
        owner_email: The employee who owns it.
        description: What it computes.
    """
    _unique(ctx, FeatureView, name)
    ctx.get(Entity, entity_id, field="entity_id")
    ctx.get(Source, source_id, field="source_id")
    names = [f.name for f in features]
    if len(set(names)) != len(names):
        raise RuleViolation("a feature is listed twice", field="features", hint="name each feature once")
    view = ctx.create(
        FeatureView,
        name=name,
        entity_id=entity_id,
        source_id=source_id,
        features=tuple(features),
        ttl_days=ttl_days,
        online=online,
        owner_email=owner_email,
        description=description,
    )
    _owner(ctx, view, None)
    return view


def _known_refs(ctx: Ctx) -> set[str]:
    return {f"{v.name}:{f.name}" for v in ctx.scan(FeatureView) for f in v.features}


def _example_fs(ctx: Ctx) -> dict[str, Any] | None:
    refs = sorted(_known_refs(ctx))
    return {"name": "upsell_model_v1", "features": refs[:2]} if refs else None


@service.tool(intent="create the feature service", write=True, example=_example_fs)
def create_feature_service(
    ctx: Ctx,
    name: Name,
    features: Annotated[list[FeatureRef], Field(min_length=1, max_length=500)],
    owner_email: Email | None = None,
    description: Text = "",
) -> FeatureService:
    """Apply a feature service (unique name) serving existing features, each once.

    Args:
        name: Its unique name.
        features: Feature references, view:feature.
        owner_email: The employee who owns it.
        description: Which model uses it.
    """
    _unique(ctx, FeatureService, name)
    if len(set(features)) != len(features):
        raise RuleViolation("a feature is listed twice", field="features", hint="list each feature once")
    known = _known_refs(ctx)
    missing = [f for f in features if f not in known]
    if missing:
        raise RuleViolation(
            f"unknown features {missing}", field="features", hint="list feature views to see their features"
        )
    fs = ctx.create(
        FeatureService, name=name, features=tuple(features), owner_email=owner_email, description=description
    )
    _owner(ctx, fs, None)
    return fs


def _example_mat(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.where(FeatureView, online=True):
        if ctx.get(Source, v.source_id).kind == "batch":
            return {
                "feature_view_id": v.id,
                "start": (ctx.now() - dt.timedelta(days=30)).isoformat(),
                "end": ctx.now().isoformat(),
            }
    return None


@service.tool(intent="materialize the feature view", write=True, example=_example_mat)
def materialize(ctx: Ctx, feature_view_id: ViewId, start: DateTime, end: DateTime) -> MaterializationJob:
    """Load a window of an online view's batch source into the online store (latest row per entity key).

    Args:
        feature_view_id: The view.
        start: Window start.
        end: Window end (not after now; at most a year after start).
    """
    view = ctx.get(FeatureView, feature_view_id, field="feature_view_id")
    if not view.online:
        raise RuleViolation(f"{view.name} is not served online", field="feature_view_id", hint="set online first")
    source = ctx.get(Source, view.source_id)
    if source.kind != "batch":
        raise RuleViolation(f"{view.name} reads a push source", field="feature_view_id", hint="push its values instead")
    if end > ctx.now():
        raise RuleViolation("the window ends in the future", field="end", hint="end it now or earlier")
    if start >= end or end - start > MAX_WINDOW:
        raise RuleViolation(
            "the window must start before it ends and span at most a year", field="start", hint="shorten the window"
        )
    wanted = {f.name for f in view.features}
    latest: dict[str, SourceRow] = {}
    for row in source.rows:
        if start <= row.event_timestamp < end:
            held = latest.get(row.entity_key)
            if held is None or row.event_timestamp > held.event_timestamp:
                latest[row.entity_key] = row
    for key, row in sorted(latest.items()):
        vals = {k: v for k, v in row.values.items() if k in wanted}
        _write(ctx, view, key, vals, row.event_timestamp)
    until = max(end, view.materialized_until) if view.materialized_until else end
    ctx.update(view, materialized_until=until)
    return ctx.create(MaterializationJob, feature_view_id=view.id, start=start, end=end, rows_written=len(latest))


def _write(ctx: Ctx, view: FeatureView, key: str, vals: dict[str, Any], when: dt.datetime) -> OnlineValue:
    old = ctx.first(OnlineValue, feature_view_id=view.id, entity_key=key)
    if old is None:
        return ctx.create(OnlineValue, feature_view_id=view.id, entity_key=key, values=vals, event_timestamp=when)
    if when < old.event_timestamp:
        return old
    return ctx.update(old, values={**old.values, **vals}, event_timestamp=when)


_TYPES: dict[str, tuple[type, ...]] = {"int64": (int,), "float64": (float, int), "string": (str,), "bool": (bool,)}


def _example_push(ctx: Ctx) -> dict[str, Any] | None:
    for v in ctx.scan(FeatureView):
        if ctx.get(Source, v.source_id).kind == "push" and v.online:
            f = v.features[0]
            sample: dict[str, Any] = {"int64": 3, "float64": 1.5, "string": "x", "bool": True}
            return {"feature_view_id": v.id, "entity_key": "new-user@example.com", "values": {f.name: sample[f.dtype]}}
    return None


@service.tool(intent="push fresh feature values", write=True, example=_example_push)
def push_features(
    ctx: Ctx, feature_view_id: ViewId, entity_key: EntityKey, values: dict[Name, FeatureValue]
) -> OnlineValue:
    """Write fresh values of an online view's features for one entity key, stamped now.

    Args:
        feature_view_id: The view (online).
        entity_key: The entity key (a user's e-mail, a customer's domain).
        values: Feature names and values of their types.
    """
    view = ctx.get(FeatureView, feature_view_id, field="feature_view_id")
    if not view.online:
        raise RuleViolation(f"{view.name} is not served online", field="feature_view_id", hint="set online first")
    if not values:
        raise RuleViolation("no values", field="values", hint="give at least one feature")
    types = {f.name: f.dtype for f in view.features}
    for k, v in values.items():
        if k not in types:
            raise RuleViolation(f"{view.name} has no feature {k}", field="values", hint=f"use {sorted(types)}")
        ok = isinstance(v, _TYPES[types[k]]) and not (types[k] != "bool" and isinstance(v, bool))
        if not ok:
            raise RuleViolation(f"{k} is {types[k]}", field="values", hint=f"give a {types[k]} value")
    return _write(ctx, view, entity_key, dict(values), ctx.now())


def _example_online(ctx: Ctx) -> dict[str, Any] | None:
    val = ctx.first(OnlineValue)
    if val is None:
        return None
    view = ctx.get(FeatureView, val.feature_view_id)
    return {"features": [f"{view.name}:{view.features[0].name}"], "entity_keys": [val.entity_key]}


@service.tool(intent="get online features for entity keys", example=_example_online)
def get_online_features(
    ctx: Ctx,
    entity_keys: Annotated[list[EntityKey], Field(min_length=1, max_length=100)],
    features: Annotated[list[FeatureRef], Field(max_length=500)] | None = None,
    feature_service: Name | None = None,
) -> list[OnlineRow]:
    """Online values of features (listed, or a feature service's) for entity keys; stale or missing ones are null.

    Args:
        entity_keys: The entity keys.
        features: Feature references, view:feature (or give feature_service).
        feature_service: A feature service's name (or give features).
    """
    if (features is None) == (feature_service is None):
        raise RuleViolation("give features or a feature service", field="features", hint="exactly one of the two")
    if feature_service is not None:
        fs = ctx.first(FeatureService, name=feature_service)
        if fs is None:
            raise RuleViolation(f"no feature service {feature_service}", field="feature_service", hint="list them")
        refs = list(fs.features)
    else:
        refs = list(features or [])
        missing = [f for f in refs if f not in _known_refs(ctx)]
        if missing:
            raise RuleViolation(f"unknown features {missing}", field="features", hint="list the feature views")
    out = []
    for key in entity_keys:
        row: dict[str, Any] = {}
        for ref in refs:
            vname, fname = ref.split(":")
            view = ctx.first(FeatureView, name=vname)
            held = None if view is None else ctx.first(OnlineValue, feature_view_id=view.id, entity_key=key)
            fresh = (
                held is not None
                and view is not None
                and view.online
                and (view.ttl_days == 0 or ctx.now() - held.event_timestamp <= dt.timedelta(days=view.ttl_days))
            )
            row[ref] = held.values.get(fname) if fresh and held is not None else None
        out.append(OnlineRow(entity_key=key, values=row))
    return out


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """Customer and user entities keyed by the world's domains and e-mails, views, services and online values."""
    pop = s.population
    ml = pop.staff("Engineering", fallback=2)
    cust = s.create(Entity, name="customer", join_key="customer_domain", description="A customer company.")
    user = s.create(Entity, name="user", join_key="user_email", description="A consumer using the app.")
    s.create(Entity, name="courier", join_key="courier_id", description="A delivery courier (no views yet).")
    crow = tuple(
        SourceRow(
            entity_key=c.domain,
            event_timestamp=s.ago(days=d),
            values={"orders_90d": 3 + k + d % 2, "revenue_90d": round(1500.0 + 410.5 * k - d, 2), "segment": "mid"},
        )
        for k, c in enumerate(pop.customers[:8])
        for d in (40, 2 + k)
    )
    csrc = s.create(
        Source,
        name="customer_orders",
        table="analytics.customer_order_stats",
        rows=crow,
        created_at=s.ago(days=200),
    )
    urow = tuple(
        SourceRow(
            entity_key=p.email,
            event_timestamp=s.ago(days=1 + k % 5),
            values={"sessions_7d": 2 + k % 6, "churn_score": round(0.1 + 0.07 * (k % 9), 2)},
        )
        for k, p in enumerate(pop.consumers[:12])
    )
    usrc = s.create(
        Source, name="user_activity", table="analytics.user_daily_activity", rows=urow, created_at=s.ago(days=150)
    )
    push = s.create(Source, name="app_events_push", kind="push", created_at=s.ago(days=90))
    cview = s.create(
        FeatureView,
        name="customer_order_stats",
        entity_id=cust.id,
        source_id=csrc.id,
        features=(
            FeatureSpec(name="orders_90d", dtype="int64"),
            FeatureSpec(name="revenue_90d", dtype="float64"),
            FeatureSpec(name="segment", dtype="string"),
        ),
        ttl_days=30,
        owner_email=ml[0].email,
        description="Order counts and revenue per customer over 90 days.",
        materialized_until=s.ago(days=1),
        created_at=s.ago(days=180),
        updated_at=s.ago(days=1),
    )
    s.create(
        FeatureView,
        name="user_activity_stats",
        entity_id=user.id,
        source_id=usrc.id,
        features=(FeatureSpec(name="sessions_7d", dtype="int64"), FeatureSpec(name="churn_score", dtype="float64")),
        ttl_days=3,
        owner_email=ml[1 % len(ml)].email,
        description="Engagement and churn score per app user.",
        created_at=s.ago(days=140),
        updated_at=s.ago(days=10),
    )
    s.create(
        FeatureView,
        name="user_realtime",
        entity_id=user.id,
        source_id=push.id,
        features=(FeatureSpec(name="cart_items", dtype="int64"), FeatureSpec(name="is_logged_in", dtype="bool")),
        ttl_days=1,
        owner_email=ml[1 % len(ml)].email,
        created_at=s.ago(days=80),
        updated_at=s.ago(days=80),
    )
    latest: dict[str, SourceRow] = {}
    for row in crow:
        if row.event_timestamp < s.ago(days=1) and (
            row.entity_key not in latest or row.event_timestamp > latest[row.entity_key].event_timestamp
        ):
            latest[row.entity_key] = row
    for key, row in sorted(latest.items()):
        s.create(
            OnlineValue,
            feature_view_id=cview.id,
            entity_key=key,
            values=dict(row.values),
            event_timestamp=row.event_timestamp,
        )
    s.create(
        MaterializationJob,
        feature_view_id=cview.id,
        start=s.ago(days=91),
        end=s.ago(days=1),
        rows_written=len(latest),
        created_at=s.ago(days=1),
    )
    s.create(
        FeatureService,
        name="churn_model_v2",
        features=("customer_order_stats:orders_90d", "customer_order_stats:revenue_90d"),
        owner_email=ml[0].email,
        description="Features the churn model reads.",
        created_at=s.ago(days=60),
    )
