"""Outflow Sync: reverse ETL from the warehouse into business tools, with models, syncs, mappings and runs.

Modeled on the Hightouch REST API v1 (``/sources``, ``/models``,
``/destinations``, ``/syncs``, ``/syncs/{id}/trigger``, ``/syncs/{id}/runs``):
sources (warehouse connections), models (a SQL query over a source with a
``primaryKey`` and the columns it returns), destinations (Salesforce, HubSpot,
Braze, Zendesk, Google Ads, Iterable) with the objects they accept, syncs of a
model into a destination object with a ``mode`` (upsert, update, insert,
mirror), ``configuration`` field mappings and a record-matching key, a
``schedule`` (manual, interval, daily) that can be disabled, a ``status``
(pending, success, warning, failed, cancelled, processing) and sync runs
with ``plannedRows`` added / changed / removed, ``successfulRows``,
``failedRows`` and the rejected rows with their reasons.

A sync maps only columns its model returns, each destination field once, and
matches records on a mapped column; the mode must be one its destination
allows. A run is triggered only on an enabled sync whose source is connected
and with no run in progress; it reads the model's rows, rejects rows whose
match value is empty or whose e-mail field is not an address, and ends as
success, or warning when rows were rejected. A model with syncs cannot be
deleted.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.lists import require_employee
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "reverseetl",
    title="Outflow Sync",
    category="reverse_etl",
    modeled_on="Hightouch REST API v1: sources, models (SQL, primary key), destinations, syncs (mode, field mappings, "
    "record matching, schedule, enable/disable), trigger sync, sync runs with planned/successful/failed rows and "
    "rejected rows",
    description="Reverse ETL that pushes warehouse data into the company's business tools: warehouse sources, SQL "
    "models of customers and accounts, destinations such as the CRM and the e-mail platform, syncs with their field "
    "mappings and schedules, and sync runs with the rows they sent and rejected.",
)

SourceId = Annotated[str, IdOf("reverseetl.source")]
ModelId = Annotated[str, IdOf("reverseetl.model")]
DestinationId = Annotated[str, IdOf("reverseetl.destination")]
SyncId = Annotated[str, IdOf("reverseetl.sync")]
RunId = Annotated[str, IdOf("reverseetl.sync_run")]

Column = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,62}$")]
"""A column of a model's result."""
FieldName = Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_]{0,79}$")]
"""A field of a destination object (Email, FirstName, lifecyclestage)."""

SourceType = Literal["snowflake", "bigquery", "postgres", "redshift"]
DestinationType = Literal["salesforce", "hubspot", "braze", "zendesk", "google_ads", "iterable"]
SyncMode = Literal["upsert", "update", "insert", "mirror"]
Schedule = Literal["manual", "every_15_minutes", "hourly", "daily"]
SyncStatus = Literal["pending", "processing", "success", "warning", "failed", "cancelled"]
RunStatus = Literal["processing", "success", "warning", "failed", "cancelled"]

OBJECTS: dict[str, tuple[str, ...]] = {
    "salesforce": ("Contact", "Lead", "Account"),
    "hubspot": ("contacts", "companies", "deals"),
    "braze": ("users",),
    "zendesk": ("users", "organizations"),
    "google_ads": ("customer_match_list",),
    "iterable": ("users", "lists"),
}
MODES: dict[str, tuple[str, ...]] = {
    "salesforce": ("upsert", "update", "insert"),
    "hubspot": ("upsert", "update"),
    "braze": ("upsert", "update"),
    "zendesk": ("upsert", "update"),
    "google_ads": ("mirror",),
    "iterable": ("upsert", "mirror"),
}
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$")


class Mapping(Value):
    """One field mapping: a model column into a destination field."""

    from_column: Column
    """The model's column."""
    to_field: FieldName
    """The destination object's field."""


class Source(Record):
    """A warehouse connection models query."""

    id: SourceId
    name: Title
    """Its name."""
    source_type: SourceType
    """snowflake, bigquery, postgres or redshift."""
    status: Literal["connected", "broken"] = "connected"
    """connected, or broken (credentials failed)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was connected."""


class Model(Record):
    """A SQL model: what a sync reads from the warehouse."""

    id: ModelId
    source_id: SourceId
    """The source it queries."""
    name: Title
    """Its unique name."""
    sql: Text
    """The query."""
    primary_key: Column
    """The column identifying each row."""
    columns: tuple[Column, ...]
    """The columns the query returns."""
    rows: tuple[dict[Column, str], ...] = ()
    """The rows the query currently returns (column to value as text)."""
    owner_email: Email | None = None
    """The employee who owns it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Destination(Record):
    """A business tool syncs write into."""

    id: DestinationId
    name: Title
    """Its name."""
    destination_type: DestinationType
    """salesforce, hubspot, braze, zendesk, google_ads or iterable."""
    created_at: Annotated[DateTime, CREATED]
    """When it was connected."""


class Sync(Record):
    """A model synced into a destination object."""

    id: SyncId
    model_id: ModelId
    """The model read."""
    destination_id: DestinationId
    """The destination written."""
    object: FieldName
    """The destination object (Contact, contacts, users)."""
    mode: SyncMode = "upsert"
    """upsert, update, insert or mirror."""
    match_column: Column
    """The model column records are matched on."""
    match_field: FieldName
    """The destination field it matches."""
    mappings: tuple[Mapping, ...] = ()
    """The other mapped fields."""
    schedule: Schedule = "manual"
    """manual, every_15_minutes, hourly or daily."""
    state: Literal["enabled", "disabled"] = "enabled"
    """enabled, or disabled (no runs)."""
    status: SyncStatus = "pending"
    """The last run's status (pending: never run)."""
    last_run_at: DateTime | None = None
    """When it last ran."""
    synced_keys: tuple[str, ...] = ()
    """Primary keys sent so far (what the destination holds)."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class RejectedRow(Value):
    """A row the destination did not take."""

    primary_key: str
    """The row's primary key."""
    reason: Text
    """Why it was rejected."""


class SyncRun(Record):
    """One run of a sync."""

    id: RunId
    sync_id: SyncId
    """The sync."""
    status: RunStatus
    """processing, success, warning, failed or cancelled."""
    full_resync: bool = False
    """Whether every row was sent again."""
    planned_added: Quantity = 0
    """Rows new to the destination."""
    planned_changed: Quantity = 0
    """Rows sent again."""
    planned_removed: Quantity = 0
    """Rows removed (mirror mode)."""
    successful_rows: Quantity = 0
    """Rows written."""
    rejected: tuple[RejectedRow, ...] = ()
    """Rows rejected, with reasons."""
    error: Text = ""
    """Why the run failed."""
    started_at: DateTime
    """When it started."""
    finished_at: DateTime | None = None
    """When it ended."""


# -- rules ------------------------------------------------------------------------------------


def _guard_model(ctx: Ctx, new: Any, old: Any) -> None:
    if new.owner_email is not None and (old is None or old.owner_email != new.owner_email):
        require_employee(ctx, new.owner_email, field="owner_email", hint="models are owned by staff")


def _guard_model_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.first(Sync, model_id=old.id) is not None:
        raise Conflict(f"model {old.name!r} has syncs", field="model_id", hint="delete its syncs first")


def _guard_sync_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for run in ctx.where(SyncRun, sync_id=old.id):
        ctx.delete(run)


sources = service.resource(
    Source,
    name="source",
    plural="sources",
    prefix="src",
    create=("name", "source_type"),
    filters=("source_type", "status", "name"),
    delete=False,
)
models = service.resource(
    Model,
    name="model",
    plural="models",
    prefix="mdl",
    create=False,
    filters=("source_id", "owner_email", "name"),
    search=("name", "sql"),
    update=("sql", "owner_email"),
    guard_update=_guard_model,
    guard_delete=_guard_model_delete,
)
destinations = service.resource(
    Destination,
    name="destination",
    plural="destinations",
    prefix="dst",
    create=("name", "destination_type"),
    filters=("destination_type", "name"),
    delete=False,
)
syncs = service.resource(
    Sync,
    name="sync",
    plural="syncs",
    prefix="sync",
    create=False,
    filters=("model_id", "destination_id", "state", "status", "schedule"),
    update=("schedule",),
    transitions={
        "disable": Transition("state", ("enabled",), "disabled", "disable the sync"),
        "enable": Transition("state", ("disabled",), "enabled", "enable the sync"),
    },
    guard_delete=_guard_sync_delete,
)
runs = service.resource(
    SyncRun,
    name="sync_run",
    plural="sync_runs",
    prefix="run",
    create=False,
    filters=("sync_id", "status"),
    delete=False,
    title="sync run",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_model(ctx: Ctx) -> dict[str, Any] | None:
    src = ctx.first(Source, status="connected")
    return (
        None
        if src is None
        else {
            "source_id": src.id,
            "name": "Trial signups",
            "sql": "select user_id, email from analytics.trials",
            "primary_key": "user_id",
            "columns": ["user_id", "email"],
        }
    )


@service.tool(intent="create the warehouse model", write=True, example=_example_model)
def create_model(
    ctx: Ctx,
    source_id: SourceId,
    name: Title,
    sql: Text,
    primary_key: Column,
    columns: Annotated[list[Column], Field(min_length=1, max_length=100)],
    owner_email: Email | None = None,
) -> Model:
    """Define a model (unique name) by its SQL, the columns it returns and its primary key among them.

    Args:
        source_id: The warehouse source it queries.
        name: Its unique name.
        sql: The SELECT query.
        primary_key: The column identifying rows.
        columns: The columns the query returns.
        owner_email: The employee who owns it.
    """
    ctx.get(Source, source_id, field="source_id")
    if ctx.first(Model, name=name) is not None:
        raise Conflict(f"a model is already named {name!r}", field="name", hint="pick another name")
    if not sql.strip().lower().startswith(("select", "with")):
        raise RuleViolation("a model is a SELECT query", field="sql", hint="start it with select or with")
    if len(set(columns)) != len(columns):
        raise RuleViolation("a column is listed twice", field="columns", hint="list each column once")
    if primary_key not in columns:
        raise RuleViolation(
            f"{primary_key} is not among the columns", field="primary_key", hint="pick a returned column"
        )
    if owner_email is not None:
        require_employee(ctx, owner_email, field="owner_email", hint="models are owned by staff")
    return ctx.create(
        Model,
        source_id=source_id,
        name=name,
        sql=sql.strip(),
        primary_key=primary_key,
        columns=tuple(columns),
        owner_email=owner_email,
    )


@service.tool(intent="preview the model's rows", example=first_example(Model, "model_id"))
def preview_model(ctx: Ctx, model_id: ModelId, limit: Annotated[int, Field(ge=1, le=100)] = 20) -> list[dict[str, str]]:
    """The first rows the model's query returns.

    Args:
        model_id: The model.
        limit: How many rows (1-100).
    """
    model = ctx.get(Model, model_id, field="model_id")
    return [dict(r) for r in model.rows[:limit]]


def _example_sync(ctx: Ctx) -> dict[str, Any] | None:
    model = ctx.first(Model, name="Active customers")
    dest = ctx.first(Destination, destination_type="braze")
    if model is None or dest is None:
        return None
    return {
        "model_id": model.id,
        "destination_id": dest.id,
        "object": "users",
        "match_column": "email",
        "match_field": "email",
        "mappings": [{"from_column": "company_name", "to_field": "company"}],
    }


@service.tool(intent="create the sync", write=True, example=_example_sync)
def create_sync(
    ctx: Ctx,
    model_id: ModelId,
    destination_id: DestinationId,
    object: FieldName,
    match_column: Column,
    match_field: FieldName,
    mappings: Annotated[list[Mapping], Field(max_length=100)] | None = None,
    mode: SyncMode = "upsert",
    schedule: Schedule = "manual",
) -> Sync:
    """Sync a model into a destination object, matching records on a column and mapping others.

    Args:
        model_id: The model to read.
        destination_id: The destination to write.
        object: An object the destination accepts (Salesforce Contact, HubSpot contacts, Braze users).
        match_column: The model column records are matched on.
        match_field: The destination field it matches.
        mappings: Other columns and the fields they fill (each field once).
        mode: upsert, update, insert or mirror (as the destination allows).
        schedule: manual, every_15_minutes, hourly or daily.
    """
    model = ctx.get(Model, model_id, field="model_id")
    dest = ctx.get(Destination, destination_id, field="destination_id")
    objects = OBJECTS[dest.destination_type]
    if object not in objects:
        raise RuleViolation(f"{dest.name} has no object {object!r}", field="object", hint=f"use one of {list(objects)}")
    if mode not in MODES[dest.destination_type]:
        raise RuleViolation(
            f"{dest.destination_type} does not support {mode}",
            field="mode",
            hint=f"use one of {list(MODES[dest.destination_type])}",
        )
    maps = list(mappings or [])
    if match_column not in model.columns:
        raise RuleViolation(f"{match_column} is not a column of {model.name}", field="match_column", hint="pick one")
    for m in maps:
        if m.from_column not in model.columns:
            raise RuleViolation(
                f"{m.from_column} is not a column of {model.name}",
                field="mappings",
                hint=f"map one of {list(model.columns)}",
            )
    fields = [match_field, *(m.to_field for m in maps)]
    if len(set(fields)) != len(fields):
        raise RuleViolation("a destination field is mapped twice", field="mappings", hint="map each field once")
    return ctx.create(
        Sync,
        model_id=model.id,
        destination_id=dest.id,
        object=object,
        mode=mode,
        match_column=match_column,
        match_field=match_field,
        mappings=tuple(maps),
        schedule=schedule,
    )


def _run(ctx: Ctx, sync: Sync, full: bool) -> SyncRun:
    model = ctx.get(Model, sync.model_id)
    email_cols = {m.from_column for m in sync.mappings if "email" in m.to_field.lower()}
    if "email" in sync.match_field.lower():
        email_cols.add(sync.match_column)
    held = set(sync.synced_keys)
    rejected: list[RejectedRow] = []
    sent: list[str] = []
    for row in model.rows:
        key = row.get(model.primary_key, "")
        if not row.get(sync.match_column, "").strip():
            rejected.append(RejectedRow(primary_key=key, reason=f"{sync.match_column} is empty: nothing to match on"))
        elif any(not _EMAIL.match(row.get(c, "")) for c in email_cols):
            rejected.append(RejectedRow(primary_key=key, reason="invalid e-mail address"))
        elif sync.mode == "update" and key not in held:
            rejected.append(RejectedRow(primary_key=key, reason="no matching record in the destination to update"))
        elif sync.mode == "insert" and key in held and not full:
            continue
        else:
            sent.append(key)
    added = sum(1 for k in sent if k not in held)
    changed = len(sent) - added
    gone = held - {r.get(model.primary_key, "") for r in model.rows} if sync.mode == "mirror" else set()
    removed = len(gone)
    keep = (held | set(sent)) - gone
    status: RunStatus = "warning" if rejected else "success"
    run = ctx.create(
        SyncRun,
        sync_id=sync.id,
        status=status,
        full_resync=full,
        planned_added=added,
        planned_changed=changed,
        planned_removed=removed,
        successful_rows=added + changed + removed,
        rejected=tuple(rejected),
        started_at=ctx.now(),
        finished_at=ctx.now(),
    )
    ctx.update(sync, status=status, last_run_at=ctx.now(), synced_keys=tuple(sorted(keep)))
    return run


def _can_run(ctx: Ctx, sync: Sync) -> bool:
    model = ctx.get(Model, sync.model_id)
    source = ctx.get(Source, model.source_id)
    return sync.state == "enabled" and source.status == "connected" and sync.status != "processing"


@service.tool(
    intent="trigger a run of the sync",
    write=True,
    example=first_example(Sync, "sync_id", match=lambda c, s: _can_run(c, s)),
)
def trigger_sync(ctx: Ctx, sync_id: SyncId, full_resync: bool = False) -> SyncRun:
    """Run an enabled sync now: read the model, send new and changed rows, reject bad ones.

    Args:
        sync_id: The sync.
        full_resync: Send every row again, not only new and changed ones.
    """
    sync = ctx.get(Sync, sync_id, field="sync_id")
    if sync.state != "enabled":
        raise RuleViolation("the sync is disabled", field="sync_id", hint="enable it with reverseetl__enable_sync")
    if sync.status == "processing":
        raise Conflict("a run is in progress", field="sync_id", hint="wait for it or cancel it")
    model = ctx.get(Model, sync.model_id)
    source = ctx.get(Source, model.source_id)
    if source.status != "connected":
        raise RuleViolation(
            f"source {source.name} is {source.status}", field="sync_id", hint="reconnect the source's credentials"
        )
    return _run(ctx, sync, full_resync)


@service.tool(
    intent="cancel the sync run",
    write=True,
    example=first_example(SyncRun, "run_id", where={"status": "processing"}),
)
def cancel_run(ctx: Ctx, run_id: RunId) -> SyncRun:
    """Cancel a run in progress; its sync shows cancelled.

    Args:
        run_id: The run.
    """
    run = ctx.get(SyncRun, run_id, field="run_id")
    if run.status != "processing":
        raise Conflict(f"run {run.id} already ended as {run.status}", field="run_id", hint="only running runs cancel")
    ctx.update(ctx.get(Sync, run.sync_id), status="cancelled")
    return ctx.update(run, status="cancelled", finished_at=ctx.now())


@service.tool(intent="reconnect the warehouse source", write=True, example=first_example(Source, "source_id"))
def test_source(ctx: Ctx, source_id: SourceId, credentials_valid: bool = True) -> Source:
    """Test a source's connection with its (re-entered) credentials: connected if valid, else broken.

    Args:
        source_id: The source.
        credentials_valid: Whether the re-entered credentials are accepted by the warehouse.
    """
    source = ctx.get(Source, source_id, field="source_id")
    return ctx.update(source, status="connected" if credentials_valid else "broken")


# -- seed -------------------------------------------------------------------------------------


@service.seeder
def seed(s: SeedContext) -> None:
    """A Snowflake source with customer models built from the world's contacts, CRM and e-mail syncs and runs."""
    pop = s.population
    data = pop.staff("Engineering", fallback=2)
    mkt = pop.staff("Marketing", fallback=2)
    snow = s.create(Source, name="Snowflake production", source_type="snowflake", created_at=s.ago(days=400))
    s.create(Source, name="Postgres replica", source_type="postgres", status="broken", created_at=s.ago(days=200))
    rows: list[dict[str, str]] = []
    for k, c in enumerate(pop.customers[:10]):
        contact = pop.first_contact(c)
        email = contact.email if contact else ""
        if k == 7:
            email = ""
        elif k == 8:
            email = email.replace("@", " at ") if email else "unknown"
        rows.append(
            {
                "account_id": f"acc-{1000 + k}",
                "email": email,
                "company_name": c.name,
                "industry": c.industry,
                "lifetime_value": str(12000 + 3500 * k),
            }
        )
    customers = s.create(
        Model,
        source_id=snow.id,
        name="Active customers",
        sql="select account_id, email, company_name, industry, lifetime_value from analytics.customers",
        primary_key="account_id",
        columns=("account_id", "email", "company_name", "industry", "lifetime_value"),
        rows=tuple(rows),
        owner_email=data[0].email,
        created_at=s.ago(days=120),
        updated_at=s.ago(days=30),
    )
    churn = s.create(
        Model,
        source_id=snow.id,
        name="Churn risk accounts",
        sql="select account_id, email, company_name from analytics.churn_scores where score > 0.7",
        primary_key="account_id",
        columns=("account_id", "email", "company_name"),
        rows=tuple({k: r[k] for k in ("account_id", "email", "company_name")} for r in rows[:3]),
        owner_email=mkt[0].email,
        created_at=s.ago(days=60),
        updated_at=s.ago(days=10),
    )
    s.create(
        Model,
        source_id=snow.id,
        name="Webinar attendees (draft)",
        sql="select attendee_id, email from marketing.webinar_attendees",
        primary_key="attendee_id",
        columns=("attendee_id", "email"),
        owner_email=mkt[-1].email,
        created_at=s.ago(days=3),
        updated_at=s.ago(days=3),
    )
    sf = s.create(Destination, name="Salesforce", destination_type="salesforce", created_at=s.ago(days=300))
    hs = s.create(Destination, name="HubSpot marketing", destination_type="hubspot", created_at=s.ago(days=250))
    s.create(Destination, name="Braze", destination_type="braze", created_at=s.ago(days=100))
    good = [r["account_id"] for r in rows if r["email"] and "@" in r["email"] and " " not in r["email"]]
    first = s.create(
        Sync,
        model_id=customers.id,
        destination_id=sf.id,
        object="Account",
        mode="upsert",
        match_column="account_id",
        match_field="External_Id__c",
        mappings=(
            Mapping(from_column="company_name", to_field="Name"),
            Mapping(from_column="lifetime_value", to_field="LTV__c"),
        ),
        schedule="daily",
        status="success",
        last_run_at=s.ago(hours=8),
        synced_keys=tuple(sorted(r["account_id"] for r in rows)),
        created_at=s.ago(days=110),
        updated_at=s.ago(hours=8),
    )
    second = s.create(
        Sync,
        model_id=customers.id,
        destination_id=hs.id,
        object="contacts",
        mode="upsert",
        match_column="email",
        match_field="email",
        mappings=(Mapping(from_column="company_name", to_field="company"),),
        schedule="hourly",
        status="warning",
        last_run_at=s.ago(hours=1),
        synced_keys=tuple(sorted(good)),
        created_at=s.ago(days=90),
        updated_at=s.ago(hours=1),
    )
    s.create(
        Sync,
        model_id=churn.id,
        destination_id=hs.id,
        object="companies",
        mode="update",
        match_column="company_name",
        match_field="name",
        schedule="daily",
        state="disabled",
        status="pending",
        created_at=s.ago(days=20),
        updated_at=s.ago(days=5),
    )
    s.create(
        SyncRun,
        sync_id=first.id,
        status="success",
        planned_added=0,
        planned_changed=len(rows),
        successful_rows=len(rows),
        started_at=s.ago(hours=8),
        finished_at=s.ago(hours=8, minutes=-3),
    )
    s.create(
        SyncRun,
        sync_id=second.id,
        status="warning",
        planned_added=len(good),
        successful_rows=len(good),
        rejected=(
            RejectedRow(primary_key=rows[7]["account_id"], reason="email is empty: nothing to match on"),
            RejectedRow(primary_key=rows[8]["account_id"], reason="invalid e-mail address"),
        ),
        started_at=s.ago(hours=1),
        finished_at=s.ago(minutes=58),
    )
    fourth = s.create(
        Sync,
        model_id=churn.id,
        destination_id=sf.id,
        object="Account",
        mode="update",
        match_column="account_id",
        match_field="External_Id__c",
        schedule="every_15_minutes",
        status="processing",
        last_run_at=s.ago(minutes=2),
        created_at=s.ago(days=15),
        updated_at=s.ago(minutes=2),
    )
    s.create(SyncRun, sync_id=fourth.id, status="processing", started_at=s.ago(minutes=2))
