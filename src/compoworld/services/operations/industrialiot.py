"""Plantwire IoT: industrial asset models and hierarchies, measurements and transforms, alarms, maintenance triggers.

Modeled on AWS IoT SiteWise (CreateAssetModel with measurements, transforms and hierarchies, CreateAsset,
AssociateAssets, BatchPutAssetPropertyValue, GetAssetPropertyValue / Aggregates) with IoT Events alarms
(NORMAL → ACTIVE → ACKNOWLEDGED → NORMAL, SNOOZE_DISABLED for a bounded time, DISABLED) and PTC ThingWorx
maintenance triggers: a model fixes its assets' properties; a transform is a linear function of a measurement
of the model, computed on every value; a child is associated only through a hierarchy of its parent's model,
once, never in a cycle; values older than 7 days or over 5 minutes ahead are rejected; a threshold alarm turns
active when a value breaches it, is acknowledged with a note, snoozed up to 24 hours, and reset only once the
latest value is back within the threshold; a runtime counter crossing its interval opens a maintenance
request for the asset's owner, and completing it starts the next interval.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "industrialiot",
    title="Plantwire IoT",
    category="industrial_iot",
    modeled_on="AWS IoT SiteWise API (asset models with measurements, transforms and hierarchies, assets, "
    "AssociateAssets, BatchPutAssetPropertyValue, property aggregates) with IoT Events alarms and PTC "
    "ThingWorx maintenance triggers",
    description="Industrial IoT for the plants: asset models with measurements, transforms and hierarchies, "
    "the assets built from them in plant / line / machine trees, measured values and computed transforms, "
    "threshold alarms with acknowledgement and snoozing, and runtime-based maintenance triggers and requests.",
)

ModelId = Annotated[str, IdOf("industrialiot.asset_model")]
AssetId = Annotated[str, IdOf("industrialiot.asset")]
ValueId = Annotated[str, IdOf("industrialiot.property_value")]
AlarmId = Annotated[str, IdOf("industrialiot.alarm")]
TriggerId = Annotated[str, IdOf("industrialiot.maintenance_trigger")]
RequestId = Annotated[str, IdOf("industrialiot.maintenance_request")]

PropName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,47}$")]
Unit = Annotated[str, StringConstraints(max_length=16)]
Comparison = Literal["GREATER", "GREATER_OR_EQUAL", "LESS", "LESS_OR_EQUAL"]
AlarmState = Literal["NORMAL", "ACTIVE", "ACKNOWLEDGED", "SNOOZE_DISABLED", "DISABLED"]
Severity = Annotated[int, Field(ge=1, le=5)]
Quality = Literal["GOOD", "BAD", "UNCERTAIN"]

MAX_AGE = dt.timedelta(days=7)
MAX_AHEAD = dt.timedelta(minutes=5)
MAX_SNOOZE = 24 * 60


class PropertyDef(Value):
    """A property of an asset model: a measurement, or a transform of one."""

    name: PropName
    """Property name, unique in the model."""
    kind: Literal["measurement", "transform"]
    """measurement (sent by devices) or transform (computed)."""
    unit: Unit = ""
    """Unit."""
    source: PropName | None = None
    """For a transform: the measurement it is computed from."""
    scale: float = 1.0
    """For a transform: value = source × scale + offset."""
    offset: float = 0.0
    """For a transform: the offset."""


class AssetModel(Record):
    """An asset model: the properties and child hierarchies its assets have."""

    id: ModelId
    name: Title
    """Model name (unique)."""
    description: Text = ""
    """What it models."""
    properties: tuple[PropertyDef, ...] = ()
    """Its measurements and transforms."""
    child_model_ids: tuple[ModelId, ...] = ()
    """Models its assets may have as children (hierarchies)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Asset(Record):
    """An asset: a plant, line or machine built from a model."""

    id: AssetId
    name: Title
    """Asset name."""
    model_id: ModelId
    """Its model."""
    parent_id: AssetId | None = None
    """The asset it is associated under."""
    owner_email: Email
    """The engineer responsible for it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class PropertyValue(Record):
    """One timestamped value of an asset property."""

    id: ValueId
    asset_id: AssetId
    """The asset."""
    property: PropName
    """The property."""
    value: float
    """The value."""
    quality: Quality = "GOOD"
    """GOOD, BAD or UNCERTAIN."""
    timestamp: DateTime
    """When it was measured."""


class Alarm(Record):
    """A threshold alarm on an asset property."""

    id: AlarmId
    asset_id: AssetId
    """The asset."""
    property: PropName
    """The watched property."""
    name: Title
    """Alarm name."""
    comparison: Comparison
    """GREATER, GREATER_OR_EQUAL, LESS or LESS_OR_EQUAL."""
    threshold: float
    """The threshold."""
    severity: Severity = 3
    """1 (critical) to 5 (informational)."""
    state: AlarmState = "NORMAL"
    """NORMAL, ACTIVE, ACKNOWLEDGED, SNOOZE_DISABLED or DISABLED."""
    last_value: float | None = None
    """The last evaluated value."""
    triggered_at: DateTime | None = None
    """When it last turned active."""
    note: Text = ""
    """The last acknowledgement or snooze note."""
    snoozed_until: DateTime | None = None
    """End of the snooze."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class MaintenanceTrigger(Record):
    """A ThingWorx-style trigger: a counter property crossing an interval opens a maintenance request."""

    id: TriggerId
    asset_id: AssetId
    """The asset."""
    property: PropName
    """The counter (e.g. runtime_hours)."""
    interval: Annotated[float, Field(gt=0, le=10**7)]
    """How far the counter may move between services."""
    baseline: float = 0.0
    """Counter value at the last service."""
    task: Title
    """The maintenance to do."""


class MaintenanceRequest(Record):
    """A maintenance request opened by a trigger."""

    id: RequestId
    trigger_id: TriggerId
    """The trigger."""
    asset_id: AssetId
    """The asset."""
    task: Title
    """What to do."""
    counter_value: float
    """The counter when it opened."""
    assignee_email: Email
    """Who does it (the asset's owner)."""
    status: Literal["open", "completed"] = "open"
    """open or completed."""
    opened_at: Annotated[DateTime, CREATED]
    """When it opened."""


class Aggregates(Value):
    """Statistics of a property over a window."""

    asset_id: AssetId
    """The asset."""
    property: PropName
    """The property."""
    count: int
    """Values in the window."""
    minimum: float | None
    """Smallest."""
    maximum: float | None
    """Largest."""
    average: float | None
    """Mean."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str, field: str) -> None:
    if email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not an employee", field=field, hint="use an engineer's e-mail")


def _prop(ctx: Ctx, asset: Asset, name: str, field: str = "property") -> PropertyDef:
    model = ctx.get(AssetModel, asset.model_id)
    for p in model.properties:
        if p.name == name:
            return p
    raise RuleViolation(
        f"{model.name} has no property {name!r}",
        field=field,
        hint=", ".join(p.name for p in model.properties) or "the model has no properties",
    )


def _guard_asset_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Asset, parent_id=old.id) is not None:
        raise RuleViolation(f"{old.name} has child assets", field="asset_id", hint="disassociate them first")


def _guard_asset(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


models = service.resource(
    AssetModel,
    name="asset_model",
    plural="asset_models",
    prefix="mdl",
    create=False,
    filters=(),
    search=("name",),
    delete=False,
    title="asset model",
)
assets = service.resource(
    Asset,
    name="asset",
    plural="assets",
    prefix="ast",
    create=False,
    filters=("model_id", "parent_id", "owner_email"),
    search=("name",),
    update=("name", "owner_email"),
    guard_update=_guard_asset,
    guard_delete=_guard_asset_delete,
)
values = service.resource(
    PropertyValue,
    name="property_value",
    plural="property_values",
    prefix="val",
    create=False,
    get=False,
    filters=("asset_id", "property", "quality"),
    delete=False,
    title="property value",
)
alarms = service.resource(
    Alarm,
    name="alarm",
    plural="alarms",
    prefix="alm",
    create=False,
    filters=("asset_id", "property", "state", "severity"),
    search=("name",),
    update=("threshold", "severity"),
    delete=False,
    transitions={
        "disable": Transition("state", ("NORMAL", "ACKNOWLEDGED", "SNOOZE_DISABLED"), "DISABLED", "disable the alarm"),
        "enable": Transition("state", ("DISABLED",), "NORMAL", "enable the alarm"),
    },
)
triggers = service.resource(
    MaintenanceTrigger,
    name="maintenance_trigger",
    plural="maintenance_triggers",
    prefix="mtr",
    create=False,
    get=False,
    filters=("asset_id",),
    delete=False,
    title="maintenance trigger",
)
requests = service.resource(
    MaintenanceRequest,
    name="maintenance_request",
    plural="maintenance_requests",
    prefix="mreq",
    create=False,
    get=False,
    filters=("asset_id", "status", "assignee_email", "trigger_id"),
    delete=False,
    title="maintenance request",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_model(ctx: Ctx) -> dict[str, Any] | None:
    return {
        "name": "Chiller",
        "description": "Process water chiller",
        "properties": [
            {"name": "outlet_temp_c", "kind": "measurement", "unit": "°C"},
            {
                "name": "outlet_temp_f",
                "kind": "transform",
                "unit": "°F",
                "source": "outlet_temp_c",
                "scale": 1.8,
                "offset": 32,
            },
        ],
    }


@service.tool(intent="create the asset model", write=True, example=_example_model)
def create_asset_model(
    ctx: Ctx,
    name: Title,
    properties: list[PropertyDef],
    description: Text = "",
    child_model_ids: list[ModelId] | None = None,
) -> AssetModel:
    """Create an asset model; property names are unique and transforms read a measurement of the model.

    Args:
        name: Model name (unique).
        properties: Measurements and transforms.
        description: What it models.
        child_model_ids: Models its assets may have as children.
    """
    if ctx.first(AssetModel, name=name) is not None:
        raise Conflict(f"a model named {name!r} exists", field="name", hint="pick another name")
    names = [p.name for p in properties]
    if len(set(names)) != len(names):
        raise RuleViolation("a property name is used twice", field="properties", hint="name each property once")
    measured = {p.name for p in properties if p.kind == "measurement"}
    for p in properties:
        if p.kind == "transform" and p.source not in measured:
            raise RuleViolation(
                f"transform {p.name} must read a measurement of the model",
                field="properties",
                hint=f"set its source to one of {sorted(measured)}",
            )
    for mid in child_model_ids or []:
        ctx.get(AssetModel, mid, field="child_model_ids")
    return ctx.create(
        AssetModel,
        name=name,
        description=description,
        properties=tuple(properties),
        child_model_ids=tuple(child_model_ids or ()),
    )


def _example_asset(ctx: Ctx) -> dict[str, Any] | None:
    m = ctx.first(AssetModel)
    return (
        None
        if m is None
        else {"name": "Spare unit 9", "model_id": m.id, "owner_email": ctx.population.employees[0].email}
    )


@service.tool(intent="create the asset", write=True, example=_example_asset)
def create_asset(ctx: Ctx, name: Title, model_id: ModelId, owner_email: Email) -> Asset:
    """Create an asset from a model (unassociated; associate it under a parent next).

    Args:
        name: Asset name.
        model_id: Its model.
        owner_email: The responsible engineer (an employee).
    """
    ctx.get(AssetModel, model_id, field="model_id")
    _staff(ctx, owner_email, "owner_email")
    return ctx.create(Asset, name=name, model_id=model_id, owner_email=owner_email)


def _example_associate(ctx: Ctx) -> dict[str, Any] | None:
    for parent in ctx.scan(Asset):
        allowed = ctx.get(AssetModel, parent.model_id).child_model_ids
        for child in ctx.where(Asset, parent_id=None):
            if child.model_id in allowed and child.id != parent.id:
                return {"asset_id": child.id, "parent_id": parent.id}
    return None


@service.tool(intent="associate the asset under its parent", write=True, example=_example_associate)
def associate_asset(ctx: Ctx, asset_id: AssetId, parent_id: AssetId) -> Asset:
    """Put an unassociated asset under a parent whose model has a hierarchy for the child's model.

    Args:
        asset_id: The child asset (not yet associated).
        parent_id: The parent asset.
    """
    child = ctx.get(Asset, asset_id, field="asset_id")
    parent = ctx.get(Asset, parent_id, field="parent_id")
    if child.parent_id is not None:
        raise Conflict(f"{child.name} is already under {child.parent_id}", field="asset_id", hint="disassociate first")
    model = ctx.get(AssetModel, parent.model_id)
    if child.model_id not in model.child_model_ids:
        raise RuleViolation(
            f"{model.name} assets have no hierarchy for this model",
            field="parent_id",
            hint="pick a parent whose model allows it",
        )
    node: Asset | None = parent
    while node is not None:
        if node.id == child.id:
            raise RuleViolation("that would make a cycle", field="parent_id", hint="pick a parent outside its subtree")
        node = None if node.parent_id is None else ctx.get(Asset, node.parent_id)
    return ctx.update(child, parent_id=parent.id)


@service.tool(
    intent="disassociate the asset from its parent",
    write=True,
    example=first_example(Asset, "asset_id", match=lambda c, a: a.parent_id is not None),
)
def disassociate_asset(ctx: Ctx, asset_id: AssetId) -> Asset:
    """Detach an asset from its parent.

    Args:
        asset_id: An associated asset.
    """
    a = ctx.get(Asset, asset_id, field="asset_id")
    if a.parent_id is None:
        raise RuleViolation(f"{a.name} has no parent", field="asset_id", hint="nothing to detach")
    return ctx.update(a, parent_id=None)


def _breaches(alarm: Alarm, value: float) -> bool:
    t = alarm.threshold
    return {"GREATER": value > t, "GREATER_OR_EQUAL": value >= t, "LESS": value < t, "LESS_OR_EQUAL": value <= t}[
        alarm.comparison
    ]


def _react(ctx: Ctx, asset: Asset, name: str, value: float) -> None:
    for alarm in ctx.where(Alarm, asset_id=asset.id, property=name):
        state = alarm.state
        if state == "SNOOZE_DISABLED" and alarm.snoozed_until is not None and alarm.snoozed_until <= ctx.now():
            state = "NORMAL"
        if state == "NORMAL" and _breaches(alarm, value):
            ctx.update(alarm, state="ACTIVE", triggered_at=ctx.now(), last_value=value, snoozed_until=None)
        elif state != "DISABLED":
            ctx.update(alarm, state=state, last_value=value)
    for trig in ctx.where(MaintenanceTrigger, asset_id=asset.id, property=name):
        if (
            value - trig.baseline >= trig.interval
            and ctx.first(MaintenanceRequest, trigger_id=trig.id, status="open") is None
        ):
            ctx.create(
                MaintenanceRequest,
                trigger_id=trig.id,
                asset_id=asset.id,
                task=trig.task,
                counter_value=value,
                assignee_email=asset.owner_email,
            )


def _example_put(ctx: Ctx) -> dict[str, Any] | None:
    for a in ctx.scan(Asset):
        for p in ctx.get(AssetModel, a.model_id).properties:
            if p.kind == "measurement":
                return {"asset_id": a.id, "property": p.name, "value": 1.0}
    return None


@service.tool(intent="send the measured value", write=True, example=_example_put)
def put_value(
    ctx: Ctx,
    asset_id: AssetId,
    property: PropName,
    value: float,
    timestamp: DateTime | None = None,
    quality: Quality = "GOOD",
) -> PropertyValue:
    """Ingest a measurement (BatchPutAssetPropertyValue); its transforms are computed and alarms evaluated.

    Args:
        asset_id: The asset.
        property: A measurement of the asset's model.
        value: The value.
        timestamp: When measured (default now); at most 7 days old and 5 minutes ahead.
        quality: GOOD, BAD or UNCERTAIN; only GOOD values drive alarms and triggers.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    p = _prop(ctx, asset, property)
    if p.kind != "measurement":
        raise RuleViolation(f"{property} is a {p.kind}", field="property", hint="send measurements only")
    when = timestamp or ctx.now()
    if not ctx.now() - MAX_AGE <= when <= ctx.now() + MAX_AHEAD:
        raise RuleViolation(
            "timestamp is outside the accepted window", field="timestamp", hint="send values from the last 7 days"
        )
    if ctx.first(PropertyValue, asset_id=asset.id, property=property, timestamp=when) is not None:
        raise Conflict(f"{property} already has a value at {when}", field="timestamp", hint="use another timestamp")
    made = ctx.create(PropertyValue, asset_id=asset.id, property=property, value=value, quality=quality, timestamp=when)
    for t in ctx.get(AssetModel, asset.model_id).properties:
        if t.kind == "transform" and t.source == property:
            derived = round(value * t.scale + t.offset, 6)
            ctx.create(
                PropertyValue, asset_id=asset.id, property=t.name, value=derived, quality=quality, timestamp=when
            )
            if quality == "GOOD":
                _react(ctx, asset, t.name, derived)
    if quality == "GOOD":
        _react(ctx, asset, property, value)
    return made


def _latest(ctx: Ctx, asset_id: str, prop: str) -> PropertyValue | None:
    found = ctx.where(PropertyValue, asset_id=asset_id, property=prop)
    return max(found, key=lambda v: v.timestamp, default=None)


@service.tool(
    intent="read the property's latest value",
    example=first_example(PropertyValue, None, fields={"asset_id": "asset_id", "property": "property"}),
)
def latest_value(ctx: Ctx, asset_id: AssetId, property: PropName) -> PropertyValue:
    """The latest value of an asset property (GetAssetPropertyValue).

    Args:
        asset_id: The asset.
        property: A property of its model.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    _prop(ctx, asset, property)
    got = _latest(ctx, asset.id, property)
    if got is None:
        raise RuleViolation(f"{property} has no value yet", field="property", hint="send a measurement first")
    return got


@service.tool(
    intent="aggregate the property's values",
    example=first_example(PropertyValue, None, fields={"asset_id": "asset_id", "property": "property"}, hours=24),
)
def property_aggregates(
    ctx: Ctx, asset_id: AssetId, property: PropName, hours: Annotated[int, Field(ge=1, le=168)] = 24
) -> Aggregates:
    """Count, minimum, maximum and average of a property's GOOD values over the last hours.

    Args:
        asset_id: The asset.
        property: A property of its model.
        hours: The window, 1-168 hours back from now.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    _prop(ctx, asset, property)
    since = ctx.now() - dt.timedelta(hours=hours)
    vals = [
        v.value
        for v in ctx.where(PropertyValue, asset_id=asset.id, property=property, quality="GOOD")
        if v.timestamp >= since
    ]
    return Aggregates(
        asset_id=asset.id,
        property=property,
        count=len(vals),
        minimum=min(vals, default=None),
        maximum=max(vals, default=None),
        average=round(sum(vals) / len(vals), 4) if vals else None,
    )


def _example_alarm(ctx: Ctx) -> dict[str, Any] | None:
    ex = _example_put(ctx)
    return (
        None
        if ex is None
        else {
            "asset_id": ex["asset_id"],
            "property": ex["property"],
            "name": "High reading",
            "comparison": "GREATER",
            "threshold": 1000.0,
        }
    )


@service.tool(intent="create the threshold alarm", write=True, example=_example_alarm)
def create_alarm(
    ctx: Ctx,
    asset_id: AssetId,
    property: PropName,
    name: Title,
    comparison: Comparison,
    threshold: float,
    severity: Severity = 3,
) -> Alarm:
    """Create a threshold alarm on an asset property; at most one per property, comparison and threshold.

    Args:
        asset_id: The asset.
        property: A property of its model.
        name: Alarm name.
        comparison: GREATER, GREATER_OR_EQUAL, LESS or LESS_OR_EQUAL.
        threshold: The threshold.
        severity: 1 (critical) to 5.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    _prop(ctx, asset, property)
    for a in ctx.where(Alarm, asset_id=asset.id, property=property, comparison=comparison):
        if a.threshold == threshold:
            raise Conflict(f"alarm {a.id} already watches this", field="threshold", hint="update that alarm")
    return ctx.create(
        Alarm,
        asset_id=asset.id,
        property=property,
        name=name,
        comparison=comparison,
        threshold=threshold,
        severity=severity,
    )


@service.tool(
    intent="acknowledge the alarm",
    write=True,
    example=first_example(Alarm, "alarm_id", where={"state": "ACTIVE"}, note="Operator checking coolant flow."),
)
def acknowledge_alarm(ctx: Ctx, alarm_id: AlarmId, note: Text) -> Alarm:
    """Acknowledge an active alarm with a note.

    Args:
        alarm_id: An ACTIVE alarm.
        note: What is being done.
    """
    a = ctx.get(Alarm, alarm_id, field="alarm_id")
    if a.state != "ACTIVE":
        raise RuleViolation(f"alarm {a.name} is {a.state}", field="alarm_id", hint="only active alarms")
    return ctx.update(a, state="ACKNOWLEDGED", note=note)


@service.tool(
    intent="snooze the alarm",
    write=True,
    example=first_example(Alarm, "alarm_id", where={"state": "ACKNOWLEDGED"}, minutes=60, note="Planned stop."),
)
def snooze_alarm(ctx: Ctx, alarm_id: AlarmId, minutes: Annotated[int, Field(ge=1)], note: Text) -> Alarm:
    """Shelve an active or acknowledged alarm for up to 24 hours.

    Args:
        alarm_id: An ACTIVE or ACKNOWLEDGED alarm.
        minutes: How long, 1-1440.
        note: Why.
    """
    a = ctx.get(Alarm, alarm_id, field="alarm_id")
    if a.state not in ("ACTIVE", "ACKNOWLEDGED"):
        raise RuleViolation(f"alarm {a.name} is {a.state}", field="alarm_id", hint="only raised alarms snooze")
    if minutes > MAX_SNOOZE:
        raise RuleViolation("alarms snooze for at most 24 hours", field="minutes", hint="use 1440 or less")
    return ctx.update(a, state="SNOOZE_DISABLED", note=note, snoozed_until=ctx.now() + dt.timedelta(minutes=minutes))


@service.tool(
    intent="reset the alarm",
    write=True,
    example=first_example(
        Alarm,
        "alarm_id",
        where={"state": "ACKNOWLEDGED"},
        match=lambda c, a: a.last_value is not None and not _breaches(a, a.last_value),
    ),
)
def reset_alarm(ctx: Ctx, alarm_id: AlarmId) -> Alarm:
    """Return an acknowledged or snoozed alarm to NORMAL once the latest value is within the threshold.

    Args:
        alarm_id: An ACKNOWLEDGED or SNOOZE_DISABLED alarm.
    """
    a = ctx.get(Alarm, alarm_id, field="alarm_id")
    if a.state not in ("ACKNOWLEDGED", "SNOOZE_DISABLED"):
        raise RuleViolation(f"alarm {a.name} is {a.state}", field="alarm_id", hint="acknowledge it first")
    latest = _latest(ctx, a.asset_id, a.property)
    if latest is not None and _breaches(a, latest.value):
        raise RuleViolation(f"{a.property} is still {latest.value}", field="alarm_id", hint="fix the cause first")
    return ctx.update(a, state="NORMAL", snoozed_until=None)


def _example_trigger(ctx: Ctx) -> dict[str, Any] | None:
    ex = _example_put(ctx)
    return (
        None
        if ex is None
        else {"asset_id": ex["asset_id"], "property": ex["property"], "interval": 500.0, "task": "Lubricate bearings"}
    )


@service.tool(intent="set up the maintenance trigger", write=True, example=_example_trigger)
def create_maintenance_trigger(
    ctx: Ctx, asset_id: AssetId, property: PropName, interval: Annotated[float, Field(gt=0, le=10**7)], task: Title
) -> MaintenanceTrigger:
    """Open a maintenance request each time a counter property moves ``interval`` past its last service.

    Args:
        asset_id: The asset.
        property: A counter property of its model (e.g. runtime_hours).
        interval: Counter distance between services.
        task: The maintenance to do.
    """
    asset = ctx.get(Asset, asset_id, field="asset_id")
    _prop(ctx, asset, property)
    if ctx.first(MaintenanceTrigger, asset_id=asset.id, property=property) is not None:
        raise Conflict(f"{asset.name} already has a trigger on {property}", field="property", hint="one per counter")
    latest = _latest(ctx, asset.id, property)
    return ctx.create(
        MaintenanceTrigger,
        asset_id=asset.id,
        property=property,
        interval=interval,
        task=task,
        baseline=0.0 if latest is None else latest.value,
    )


@service.tool(
    intent="complete the maintenance request",
    write=True,
    example=first_example(MaintenanceRequest, "request_id", where={"status": "open"}),
)
def complete_maintenance(ctx: Ctx, request_id: RequestId) -> MaintenanceRequest:
    """Complete an open maintenance request; the trigger's next interval starts from the counter now.

    Args:
        request_id: An open request.
    """
    req = ctx.get(MaintenanceRequest, request_id, field="request_id")
    if req.status != "open":
        raise Conflict(f"request {req.id} is completed", field="request_id", hint="nothing to do")
    trig = ctx.get(MaintenanceTrigger, req.trigger_id)
    latest = _latest(ctx, req.asset_id, trig.property)
    ctx.update(trig, baseline=req.counter_value if latest is None else latest.value)
    return ctx.update(req, status="completed")


# -- seed -------------------------------------------------------------------------------------

MACHINES: dict[str, tuple[tuple[str, str, float], ...]] = {
    "Filler": (("temperature_c", "°C", 62.0), ("pressure_bar", "bar", 4.2), ("runtime_hours", "h", 0.0)),
    "Conveyor": (("speed_mps", "m/s", 1.5), ("motor_current_a", "A", 11.0), ("runtime_hours", "h", 0.0)),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Plant → line → machine models and assets per site, a day of hourly values, alarms and triggers."""
    pop = s.population
    eng = pop.staff("Operations", "Engineering", fallback=3)
    mids: dict[str, str] = {}
    for name, props in MACHINES.items():
        defs = [PropertyDef(name=p, kind="measurement", unit=u) for p, u, _ in props]
        if name == "Filler":
            defs.append(
                PropertyDef(
                    name="temperature_f", kind="transform", unit="°F", source="temperature_c", scale=1.8, offset=32.0
                )
            )
        mids[name] = s.create(AssetModel, name=name, properties=tuple(defs), created_at=s.ago(days=400)).id
    line = s.create(
        AssetModel,
        name="Packaging Line",
        child_model_ids=(mids["Filler"], mids["Conveyor"]),
        properties=(PropertyDef(name="units_per_hour", kind="measurement", unit="u/h"),),
        created_at=s.ago(days=400),
    )
    plant = s.create(AssetModel, name="Plant", child_model_ids=(line.id,), created_at=s.ago(days=400))
    cities = [pop.home.place.city, *[p.city for p in pop.places if p.city != pop.home.place.city][:1]]
    for k, city in enumerate(cities):
        owner = eng[k % len(eng)].email
        top = s.create(
            Asset,
            name=f"{city} Plant",
            model_id=plant.id,
            owner_email=owner,
            created_at=s.ago(days=380),
            updated_at=s.ago(days=380),
        )
        for n in range(2):
            ln = s.create(
                Asset,
                name=f"{city} Line {n + 1}",
                model_id=line.id,
                parent_id=top.id,
                owner_email=owner,
                created_at=s.ago(days=370),
                updated_at=s.ago(days=370),
            )
            for kind in MACHINES:
                who = eng[(k + n + len(kind)) % len(eng)].email
                s.create(
                    Asset,
                    name=f"{city} L{n + 1} {kind}",
                    model_id=mids[kind],
                    parent_id=ln.id,
                    owner_email=who,
                    created_at=s.ago(days=360),
                    updated_at=s.ago(days=360),
                )
    s.create(
        Asset,
        name="Spare Filler",
        model_id=mids["Filler"],
        owner_email=eng[0].email,
        created_at=s.ago(days=20),
        updated_at=s.ago(days=20),
    )
    _seed_values(s, mids)


def _seed_values(s: SeedContext, mids: dict[str, str]) -> None:
    """Twelve hourly values per measurement, alarms in every state, runtime triggers with one open request."""
    machines = [a for a in s.records(Asset) if a.model_id in mids.values() and a.parent_id is not None]
    states: tuple[AlarmState, ...] = ("ACTIVE", "ACKNOWLEDGED", "NORMAL", "SNOOZE_DISABLED", "DISABLED", "NORMAL")
    for k, a in enumerate(machines):
        kind = "Filler" if a.model_id == mids["Filler"] else "Conveyor"
        for prop, _unit, base in MACHINES[kind]:
            hours0 = 300.0 + 97 * k
            for h in range(12):
                at = s.ago(hours=12 - h)
                v = (
                    round(hours0 + h, 1)
                    if prop == "runtime_hours"
                    else round(base * (1 + s.rng.uniform(-0.04, 0.04)), 3)
                )
                hot = prop == "temperature_c" and h == 11 and k % 4 == 0
                v = round(base * 1.3, 2) if hot else v
                s.create(PropertyValue, asset_id=a.id, property=prop, value=v, timestamp=at)
                if prop == "temperature_c":
                    s.create(
                        PropertyValue,
                        asset_id=a.id,
                        property="temperature_f",
                        value=round(v * 1.8 + 32, 6),
                        timestamp=at,
                    )
        watched, limit = ("temperature_c", 75.0) if kind == "Filler" else ("motor_current_a", 14.0)
        state = states[k % len(states)]
        raised = state in ("ACTIVE", "ACKNOWLEDGED", "SNOOZE_DISABLED")
        last = limit * 1.05 if state == "ACTIVE" else limit * 0.85
        s.create(
            Alarm,
            asset_id=a.id,
            property=watched,
            name=f"High {watched.split('_')[0]}",
            comparison="GREATER",
            threshold=limit,
            severity=2 if kind == "Filler" else 3,
            state=state,
            last_value=round(last, 2),
            triggered_at=s.ago(hours=2) if raised else None,
            note="Checked by shift lead" if raised else "",
            snoozed_until=s.ago(hours=-3) if state == "SNOOZE_DISABLED" else None,
            updated_at=s.ago(hours=1),
        )
        trig = s.create(
            MaintenanceTrigger,
            asset_id=a.id,
            property="runtime_hours",
            interval=500.0,
            baseline=hours0 + 11 - 520 if k == 1 else hours0 - 100,
            task=f"{kind} preventive service (500 h)",
        )
        if k == 1:
            s.create(
                MaintenanceRequest,
                trigger_id=trig.id,
                asset_id=a.id,
                task=trig.task,
                counter_value=hours0 + 11,
                assignee_email=a.owner_email,
                opened_at=s.ago(days=1),
            )
