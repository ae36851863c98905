"""Pipewell: managed data pipelines from SaaS apps and databases into the warehouse.

Modeled on the Fivetran REST API v1: groups (``/v1/groups``) each with one
destination (``/v1/destinations``: Snowflake, BigQuery, Redshift, Databricks,
with ``setup_status`` incomplete / connected / broken and setup tests),
connectors (``/v1/connectors``) with ``service``, destination ``schema``,
``status.setup_state`` incomplete / connected / broken, ``status.sync_state``
scheduled / syncing / paused / rescheduled, ``paused``, ``sync_frequency`` (5,
15, 30, 60, 120, 180, 360, 480, 720 or 1440 minutes) with ``daily_sync_time``
for daily syncs, ``schedule_type`` auto or manual, ``succeeded_at`` and
``failed_at``; ``POST .../sync`` (force a sync), ``POST .../resync`` (historical
re-sync of the whole connector or of some tables), ``POST .../test`` (setup
tests), the schema config (``/schemas``: tables enabled or not, sync mode
SOFT_DELETE / HISTORY / LIVE, some tables locked on by the source) and the
usage endpoints (monthly active rows).

A group has at most one destination; connectors of a group write to its
destination under a schema name unique in the group. A connector syncs only
when its setup and its destination are connected, it is not paused and no sync
is already running; a sync loads the enabled tables and records a run with the
rows it synced. Setup tests pass only when the connector's credentials are
valid; reauthorizing renews them. Pausing stops the schedule and cancels a
running sync. A daily sync time is allowed only with a 1440-minute frequency;
locked tables cannot be disabled; a table re-sync needs the table enabled. A
group with connectors cannot be deleted.
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
from compoworld.engine.types import DateTime, Email, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "etl",
    title="Pipewell",
    category="data_pipelines",
    modeled_on="Fivetran REST API v1: groups, destinations (setup tests), connectors (setup and sync state, "
    "pause, sync frequency and daily sync time, force sync, historical and table re-sync, setup tests), "
    "schema config (tables, sync modes), sync history and usage (monthly active rows)",
    description="Managed ELT pipelines into the company's warehouse: groups with their destination, "
    "connectors from SaaS apps and databases with their setup and sync state, schedules, the tables each "
    "one syncs, sync runs with their results, re-syncs and monthly active rows.",
)

GroupId = Annotated[str, IdOf("etl.group")]
DestinationId = Annotated[str, IdOf("etl.destination")]
ConnectorId = Annotated[str, IdOf("etl.connector")]
TableId = Annotated[str, IdOf("etl.source_table")]
RunId = Annotated[str, IdOf("etl.sync_run")]

SchemaName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,62}$")]
"""A destination schema name: lower-case letters, digits and underscores."""
SyncTime = Annotated[str, StringConstraints(pattern=r"^([01]\d|2[0-3]):00$")]
"""A daily sync time on the hour, HH:00 UTC."""

SetupState = Literal["incomplete", "connected", "broken"]
SyncState = Literal["scheduled", "syncing", "paused", "rescheduled"]
ScheduleType = Literal["auto", "manual"]
Warehouse = Literal["snowflake", "big_query", "redshift", "databricks"]
SourceService = Literal[
    "salesforce", "hubspot", "stripe", "zendesk", "postgres", "google_analytics_4", "netsuite", "jira", "shopify"
]
SyncMode = Literal["SOFT_DELETE", "HISTORY", "LIVE"]
RunKind = Literal["incremental", "historical", "table_resync"]
RunStatus = Literal["running", "succeeded", "failed", "cancelled"]

FREQUENCIES = (5, 15, 30, 60, 120, 180, 360, 480, 720, 1440)
Frequency = Annotated[int, Field(ge=5, le=1440)]
"""Minutes between syncs: 5, 15, 30, 60, 120, 180, 360, 480, 720 or 1440."""


class Group(Record):
    """A group: a destination and the connectors that load into it."""

    id: GroupId
    name: Title
    """The group's name (unique)."""
    owner_email: Email | None = None
    """The employee who administers it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Destination(Record):
    """The warehouse a group's connectors load into."""

    id: DestinationId
    group_id: GroupId
    """Its group (one destination per group)."""
    service: Warehouse
    """snowflake, big_query, redshift or databricks."""
    region: Literal["US", "EU", "APAC"] = "US"
    """Where Fivetran processes the data."""
    time_zone_offset: Annotated[int, Field(ge=-12, le=14)] = 0
    """Hours from UTC used for daily syncs and reports."""
    database: Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,62}$")]
    """The warehouse database or project."""
    setup_status: SetupState = "incomplete"
    """incomplete, connected or broken."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""


class Connector(Record):
    """A connector: a source app or database synced into a schema of the group's destination."""

    id: ConnectorId
    group_id: GroupId
    """Its group."""
    service: SourceService
    """The source: salesforce, hubspot, stripe, zendesk, postgres, google_analytics_4, netsuite, jira or shopify."""
    schema_name: SchemaName
    """The destination schema it writes (unique in the group)."""
    setup_state: SetupState = "incomplete"
    """incomplete, connected or broken."""
    sync_state: SyncState = "scheduled"
    """scheduled, syncing, paused or rescheduled."""
    paused: bool = True
    """Whether its schedule is paused."""
    sync_frequency: Frequency = 360
    """Minutes between syncs."""
    daily_sync_time: SyncTime | None = None
    """For daily syncs: the hour they start."""
    schedule_type: ScheduleType = "auto"
    """auto (on the frequency) or manual (only forced syncs)."""
    credentials_valid: bool = False
    """Whether the source accepts its credentials."""
    is_historical_sync: bool = True
    """Whether the next sync loads the full history."""
    connected_by: Email
    """The employee who set it up."""
    succeeded_at: DateTime | None = None
    """When a sync last succeeded."""
    failed_at: DateTime | None = None
    """When a sync last failed."""
    created_at: Annotated[DateTime, CREATED]
    """When it was created."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class SourceTable(Record):
    """A table of a connector's schema config."""

    id: TableId
    connector_id: ConnectorId
    """Its connector."""
    table_name: SchemaName
    """The table's name in the destination schema."""
    enabled: bool = True
    """Whether it syncs."""
    locked: bool = False
    """Whether the source requires it (it cannot be disabled)."""
    sync_mode: SyncMode = "SOFT_DELETE"
    """SOFT_DELETE, HISTORY (keeps every version) or LIVE."""
    row_count: Quantity = 0
    """Rows in the destination table."""
    rows_per_sync: Quantity = 0
    """Rows an incremental sync typically changes."""
    last_synced_at: DateTime | None = None
    """When a sync last loaded it."""


class SyncRun(Record):
    """One sync of a connector and its result."""

    id: RunId
    connector_id: ConnectorId
    """The connector."""
    kind: RunKind = "incremental"
    """incremental, historical or table_resync."""
    status: RunStatus = "running"
    """running, succeeded, failed or cancelled."""
    tables: tuple[SchemaName, ...] = ()
    """The tables it loaded."""
    rows_synced: Quantity = 0
    """Rows inserted, updated or deleted."""
    message: Text = ""
    """The failure reason, if any."""
    triggered_by: Email | None = None
    """Who forced it (none: the schedule)."""
    started_at: DateTime
    """When it started."""
    finished_at: DateTime | None = None
    """When it ended."""


class ConnectorUsage(Value):
    """A connector's monthly active rows."""

    connector_id: ConnectorId
    """The connector."""
    schema_name: SchemaName
    """Its schema."""
    runs: int
    """Syncs that succeeded in the last 30 days."""
    monthly_active_rows: int
    """Rows synced by them."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the account", field=field, hint="use an employee's e-mail")


def _check_schedule(frequency: int, daily: str | None) -> None:
    if frequency not in FREQUENCIES:
        raise RuleViolation(
            f"sync_frequency {frequency} is not supported",
            field="sync_frequency",
            hint="use one of " + ", ".join(map(str, FREQUENCIES)),
        )
    if daily is not None and frequency != 1440:
        raise RuleViolation(
            "daily_sync_time applies only to a daily (1440-minute) frequency",
            field="daily_sync_time",
            hint="set sync_frequency to 1440 too",
        )


def _guard_group(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")
    for g in ctx.where(Group, name=new.name):
        if g.id != new.id:
            raise Conflict(f"group {new.name!r} already exists", field="name", hint="pick another name")


def _guard_group_delete(ctx: Ctx, new: Any, old: Any) -> None:
    if ctx.where(Connector, group_id=old.id):
        raise Conflict(f"group {old.name!r} still has connectors", field="group_id", hint="delete its connectors first")
    for d in ctx.where(Destination, group_id=old.id):
        ctx.delete(d)


def _guard_connector(ctx: Ctx, new: Any, old: Any) -> None:
    _check_schedule(new.sync_frequency, new.daily_sync_time)


def _guard_connector_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for t in ctx.where(SourceTable, connector_id=old.id):
        ctx.delete(t)


def _guard_table(ctx: Ctx, new: Any, old: Any) -> None:
    if old.enabled and not new.enabled and new.locked:
        raise RuleViolation(
            f"table {new.table_name} is required by the source and cannot be disabled",
            field="enabled",
            hint="disable another table, or keep it",
        )


groups = service.resource(
    Group,
    name="group",
    plural="groups",
    prefix="grp",
    create=("name", "owner_email"),
    filters=("name", "owner_email"),
    search=("name",),
    update=("name", "owner_email"),
    guard_create=_guard_group,
    guard_update=_guard_group,
    guard_delete=_guard_group_delete,
)
destinations = service.resource(
    Destination,
    name="destination",
    plural="destinations",
    prefix="dst",
    create=False,
    filters=("group_id", "service", "setup_status"),
    update=("region", "time_zone_offset"),
    delete=False,
)
connectors = service.resource(
    Connector,
    name="connector",
    plural="connectors",
    prefix="conn",
    create=False,
    filters=("group_id", "service", "setup_state", "sync_state", "paused", "schema_name", "connected_by"),
    search=("schema_name",),
    update=("sync_frequency", "daily_sync_time", "schedule_type"),
    guard_update=_guard_connector,
    guard_delete=_guard_connector_delete,
)
tables = service.resource(
    SourceTable,
    name="source_table",
    plural="source_tables",
    prefix="tbl",
    create=False,
    filters=("connector_id", "enabled", "sync_mode", "table_name"),
    search=("table_name",),
    update=("enabled", "sync_mode"),
    delete=False,
    guard_update=_guard_table,
    title="connector table",
)
runs = service.resource(
    SyncRun,
    name="sync_run",
    plural="sync_runs",
    prefix="run",
    create=False,
    filters=("connector_id", "status", "kind", "triggered_by"),
    delete=False,
    title="sync run",
)


# -- domain tools -----------------------------------------------------------------------------


def _example_destination(ctx: Ctx) -> dict[str, Any] | None:
    for g in ctx.scan(Group):
        if ctx.first(Destination, group_id=g.id) is None:
            return {"group_id": g.id, "service": "snowflake", "database": "ANALYTICS_DEV", "region": "EU"}
    return None


@service.tool(intent="create the destination of the group", write=True, example=_example_destination)
def create_destination(
    ctx: Ctx,
    group_id: GroupId,
    service: Warehouse,
    database: Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,62}$")],
    region: Literal["US", "EU", "APAC"] = "US",
    time_zone_offset: Annotated[int, Field(ge=-12, le=14)] = 0,
) -> Destination:
    """Create the group's destination warehouse; a group has one. It starts incomplete until its setup tests pass.

    Args:
        group_id: The group.
        service: snowflake, big_query, redshift or databricks.
        database: The warehouse database or project.
        region: US, EU or APAC.
        time_zone_offset: Hours from UTC for daily syncs.
    """
    group = ctx.get(Group, group_id, field="group_id")
    if ctx.first(Destination, group_id=group.id) is not None:
        raise Conflict(
            f"group {group.name!r} already has a destination",
            field="group_id",
            hint="update it with etl__update_destination, or create another group",
        )
    return ctx.create(
        Destination,
        group_id=group.id,
        service=service,
        database=database,
        region=region,
        time_zone_offset=time_zone_offset,
    )


@service.tool(
    intent="run the destination's setup tests",
    write=True,
    example=first_example(Destination, "destination_id", where={"setup_status": "incomplete"}),
)
def test_destination(ctx: Ctx, destination_id: DestinationId) -> Destination:
    """Run a destination's setup tests (connection, permissions); passing makes it connected.

    Args:
        destination_id: The destination.
    """
    dest = ctx.get(Destination, destination_id, field="destination_id")
    return ctx.update(dest, setup_status="connected")


def _example_connector(ctx: Ctx) -> dict[str, Any] | None:
    g = ctx.first(Group, name="Marketing Analytics")
    if g is None:
        return None
    return {"group_id": g.id, "service": "jira", "schema_name": "jira_cloud", "connected_by": g.owner_email}


@service.tool(intent="create the connector", write=True, example=_example_connector)
def create_connector(
    ctx: Ctx,
    group_id: GroupId,
    service: SourceService,
    schema_name: SchemaName,
    connected_by: Email,
    sync_frequency: Frequency = 360,
    daily_sync_time: SyncTime | None = None,
) -> Connector:
    """Create a connector in a group; it starts paused and incomplete until its setup tests pass.

    Its tables are discovered from the source (all enabled).

    Args:
        group_id: The group whose destination it loads into.
        service: The source app or database.
        schema_name: The destination schema it writes (unique in the group).
        connected_by: The employee setting it up.
        sync_frequency: Minutes between syncs: 5, 15, 30, 60, 120, 180, 360, 480, 720 or 1440.
        daily_sync_time: For daily syncs, the hour (HH:00) they start.
    """
    group = ctx.get(Group, group_id, field="group_id")
    if ctx.first(Connector, group_id=group.id, schema_name=schema_name) is not None:
        raise Conflict(
            f"schema {schema_name} is already used in group {group.name!r}",
            field="schema_name",
            hint="pick another destination schema name",
        )
    _staff(ctx, connected_by, "connected_by")
    _check_schedule(sync_frequency, daily_sync_time)
    conn = ctx.create(
        Connector,
        group_id=group.id,
        service=service,
        schema_name=schema_name,
        connected_by=connected_by,
        sync_frequency=sync_frequency,
        daily_sync_time=daily_sync_time,
        credentials_valid=True,
    )
    for name, locked, rows in SOURCE_TABLES[service]:
        ctx.create(SourceTable, connector_id=conn.id, table_name=name, locked=locked, rows_per_sync=rows)
    return conn


@service.tool(
    intent="reauthorize the connector",
    write=True,
    example=first_example(Connector, "connector_id", where={"setup_state": "broken"}),
)
def reauthorize_connector(ctx: Ctx, connector_id: ConnectorId) -> Connector:
    """Renew a connector's source credentials (OAuth or key); its setup tests must then be run again.

    Args:
        connector_id: The connector.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    return ctx.update(conn, credentials_valid=True)


class SetupTest(Value):
    """The result of a connector's setup tests."""

    connector_id: ConnectorId
    """The connector."""
    passed: bool
    """Whether every test passed."""
    setup_state: SetupState
    """Its setup state afterwards."""
    message: str
    """What failed, if anything."""


@service.tool(
    intent="run the connector's setup tests",
    write=True,
    example=first_example(Connector, "connector_id", where={"setup_state": "incomplete"}),
)
def test_connector(ctx: Ctx, connector_id: ConnectorId) -> SetupTest:
    """Run a connector's setup tests: valid credentials make it connected, invalid ones broken.

    Args:
        connector_id: The connector.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    if conn.credentials_valid:
        conn = ctx.update(conn, setup_state="connected")
        return SetupTest(connector_id=conn.id, passed=True, setup_state="connected", message="")
    conn = ctx.update(conn, setup_state="broken")
    msg = f"{conn.service} rejected the credentials (401 Unauthorized)"
    return SetupTest(connector_id=conn.id, passed=False, setup_state="broken", message=msg)


def _ready(ctx: Ctx, conn: Connector) -> None:
    if conn.setup_state != "connected":
        raise RuleViolation(
            f"connector {conn.schema_name} is {conn.setup_state}, not connected",
            field="connector_id",
            hint="fix its setup and run etl__test_connector",
        )
    dest = ctx.first(Destination, group_id=conn.group_id)
    if dest is None or dest.setup_status != "connected":
        raise RuleViolation(
            f"the destination of connector {conn.schema_name} is not connected",
            field="connector_id",
            hint="create the group's destination and run etl__test_destination",
        )


def _no_running(conn: Connector) -> None:
    if conn.sync_state == "syncing":
        raise Conflict(
            f"connector {conn.schema_name} is already syncing",
            field="connector_id",
            hint="wait for the running sync to finish",
        )


def _run(ctx: Ctx, conn: Connector, kind: RunKind, by: str | None, only: list[SourceTable] | None = None) -> SyncRun:
    chosen = only if only is not None else ctx.where(SourceTable, connector_id=conn.id, enabled=True)
    now = ctx.now()
    total = 0
    for t in chosen:
        rows = t.row_count if kind != "incremental" or conn.is_historical_sync else t.rows_per_sync
        rows = max(rows, t.rows_per_sync)
        total += rows
        ctx.update(t, row_count=t.row_count + (0 if kind != "incremental" else t.rows_per_sync), last_synced_at=now)
    ctx.update(conn, succeeded_at=now, is_historical_sync=False, sync_state="paused" if conn.paused else "scheduled")
    return ctx.create(
        SyncRun,
        connector_id=conn.id,
        kind=kind,
        status="succeeded",
        tables=tuple(t.table_name for t in chosen),
        rows_synced=total,
        triggered_by=by,
        started_at=now,
        finished_at=now,
    )


def _example_sync(ctx: Ctx) -> dict[str, Any] | None:
    for conn in ctx.where(Connector, setup_state="connected", paused=False):
        dest = ctx.first(Destination, group_id=conn.group_id)
        if conn.sync_state != "syncing" and dest is not None and dest.setup_status == "connected":
            return {"connector_id": conn.id, "triggered_by": conn.connected_by}
    return None


@service.tool(intent="sync the connector now", write=True, example=_example_sync)
def sync_connector(ctx: Ctx, connector_id: ConnectorId, triggered_by: Email) -> SyncRun:
    """Force a sync of a connector's enabled tables now; refused when paused, not connected or already syncing.

    Args:
        connector_id: The connector.
        triggered_by: The employee forcing it.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    _staff(ctx, triggered_by, "triggered_by")
    if conn.paused:
        raise RuleViolation(
            f"connector {conn.schema_name} is paused", field="connector_id", hint="resume it with etl__resume_connector"
        )
    _ready(ctx, conn)
    _no_running(conn)
    return _run(ctx, conn, "incremental", triggered_by)


@service.tool(intent="re-sync the connector's history", write=True, example=_example_sync)
def resync_connector(
    ctx: Ctx, connector_id: ConnectorId, triggered_by: Email, table_ids: list[TableId] | None = None
) -> SyncRun:
    """Re-sync the full history of a connector, or of some of its enabled tables (a table re-sync).

    Args:
        connector_id: The connector.
        triggered_by: The employee asking.
        table_ids: Only these tables (each enabled); omit for every enabled table.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    _staff(ctx, triggered_by, "triggered_by")
    _ready(ctx, conn)
    _no_running(conn)
    if table_ids is None:
        ctx.update(conn, is_historical_sync=True)
        return _run(ctx, ctx.get(Connector, conn.id), "historical", triggered_by)
    chosen = []
    for tid in table_ids:
        t = ctx.get(SourceTable, tid, field="table_ids")
        if t.connector_id != conn.id or not t.enabled:
            raise RuleViolation(
                f"table {t.table_name} is not an enabled table of {conn.schema_name}",
                field="table_ids",
                hint="list its tables with etl__list_source_tables and enable the table first",
            )
        chosen.append(t)
    if not chosen:
        raise RuleViolation("no table to re-sync", field="table_ids", hint="name a table, or omit table_ids")
    return _run(ctx, conn, "table_resync", triggered_by, chosen)


@service.tool(
    intent="pause the connector",
    write=True,
    example=first_example(Connector, "connector_id", where={"paused": False}),
)
def pause_connector(ctx: Ctx, connector_id: ConnectorId) -> Connector:
    """Pause a connector's schedule; a running sync is cancelled.

    Args:
        connector_id: The connector.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    if conn.paused:
        raise Conflict(f"connector {conn.schema_name} is already paused", field="connector_id", hint="nothing to do")
    for run in ctx.where(SyncRun, connector_id=conn.id, status="running"):
        ctx.update(run, status="cancelled", finished_at=ctx.now(), message="cancelled: connector paused")
    return ctx.update(conn, paused=True, sync_state="paused")


@service.tool(
    intent="resume the connector",
    write=True,
    example=first_example(Connector, "connector_id", where={"paused": True, "setup_state": "connected"}),
)
def resume_connector(ctx: Ctx, connector_id: ConnectorId) -> Connector:
    """Resume a paused connector's schedule; its setup must be connected.

    Args:
        connector_id: The connector.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    if not conn.paused:
        raise Conflict(f"connector {conn.schema_name} is not paused", field="connector_id", hint="nothing to do")
    _ready(ctx, conn)
    return ctx.update(conn, paused=False, sync_state="scheduled")


@service.tool(intent="report the connector's monthly active rows", example=first_example(Connector, "connector_id"))
def connector_usage(ctx: Ctx, connector_id: ConnectorId) -> ConnectorUsage:
    """A connector's succeeded syncs in the last 30 days and the rows they synced (monthly active rows).

    Args:
        connector_id: The connector.
    """
    conn = ctx.get(Connector, connector_id, field="connector_id")
    since = ctx.now() - dt.timedelta(days=30)
    done = [r for r in ctx.where(SyncRun, connector_id=conn.id, status="succeeded") if r.started_at >= since]
    return ConnectorUsage(
        connector_id=conn.id,
        schema_name=conn.schema_name,
        runs=len(done),
        monthly_active_rows=sum(r.rows_synced for r in done),
    )


# -- seed -------------------------------------------------------------------------------------

SOURCE_TABLES: dict[str, tuple[tuple[str, bool, int], ...]] = {
    "salesforce": (("account", True, 120), ("contact", False, 400), ("opportunity", False, 90), ("user", True, 3)),
    "hubspot": (("contact", True, 800), ("company", False, 150), ("deal", False, 60), ("email_event", False, 5000)),
    "stripe": (("charge", True, 700), ("customer", False, 120), ("invoice", False, 300), ("refund", False, 20)),
    "zendesk": (("ticket", True, 250), ("ticket_comment", False, 900), ("user", False, 60)),
    "postgres": (("orders", False, 1500), ("order_items", False, 4200), ("users", False, 200)),
    "google_analytics_4": (("events_report", True, 3000), ("traffic_sources", False, 400)),
    "netsuite": (("transaction", True, 600), ("account", False, 5), ("vendor", False, 10)),
    "jira": (("issue", True, 180), ("project", False, 2), ("sprint", False, 4)),
    "shopify": (("order", True, 900), ("product", False, 40), ("customer", False, 150)),
}
GROUPS: tuple[tuple[str, Warehouse | None, str], ...] = (
    ("Marketing Analytics", "snowflake", "ANALYTICS"),
    ("Finance Data", "big_query", "finance-warehouse"),
    ("Product Sandbox", None, ""),
)
CONNECTORS: tuple[tuple[int, SourceService, str, SetupState, SyncState, int], ...] = (
    (0, "salesforce", "salesforce", "connected", "scheduled", 60),
    (0, "hubspot", "hubspot", "connected", "scheduled", 360),
    (0, "google_analytics_4", "ga4_web", "connected", "syncing", 1440),
    (0, "zendesk", "zendesk_support", "broken", "paused", 360),
    (1, "stripe", "stripe", "connected", "scheduled", 30),
    (1, "netsuite", "netsuite_erp", "connected", "paused", 1440),
    (1, "postgres", "app_db", "incomplete", "paused", 15),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Three groups (one without a destination), seven connectors in every state, their tables and runs."""
    data = s.population.staff("Engineering", "Finance", "Marketing", fallback=4)
    made: list[Group] = []
    for k, (name, wh, db) in enumerate(GROUPS):
        g = s.create(Group, name=name, owner_email=data[k % len(data)].email, created_at=s.ago(days=400 - 60 * k))
        made.append(g)
        if wh is not None:
            s.create(
                Destination,
                group_id=g.id,
                service=wh,
                database=db,
                region="US" if k == 0 else "EU",
                setup_status="connected",
                created_at=s.ago(days=399 - 60 * k),
            )
    for k, (gi, svc, schema, setup, state, freq) in enumerate(CONNECTORS):
        paused = state == "paused"
        conn = s.create(
            Connector,
            group_id=made[gi].id,
            service=svc,
            schema_name=schema,
            setup_state=setup,
            sync_state=state,
            paused=paused,
            sync_frequency=freq,
            daily_sync_time="02:00" if freq == 1440 else None,
            credentials_valid=setup == "connected",
            is_historical_sync=setup == "incomplete",
            connected_by=data[(k + 1) % len(data)].email,
            succeeded_at=None if setup == "incomplete" else s.ago(hours=1 + k * 3),
            failed_at=s.ago(days=2) if setup == "broken" else None,
            created_at=s.ago(days=300 - 25 * k),
            updated_at=s.ago(hours=1 + k),
        )
        names: list[str] = []
        for j, (tname, locked, rows) in enumerate(SOURCE_TABLES[svc]):
            enabled = locked or j % 4 != 3
            s.create(
                SourceTable,
                connector_id=conn.id,
                table_name=tname,
                enabled=enabled,
                locked=locked,
                sync_mode="HISTORY" if svc == "salesforce" and tname == "opportunity" else "SOFT_DELETE",
                row_count=0 if setup == "incomplete" else rows * (60 + 7 * j),
                rows_per_sync=rows,
                last_synced_at=None if setup == "incomplete" else s.ago(hours=1 + k * 3),
            )
            if enabled:
                names.append(tname)
        if setup == "incomplete":
            continue
        per_sync = sum(r for t, locked, r in SOURCE_TABLES[svc] if t in names)
        for n in range(6):
            started = s.ago(days=5 * n + 1, hours=k)
            failed = setup == "broken" and n == 0
            s.create(
                SyncRun,
                connector_id=conn.id,
                status="failed" if failed else "succeeded",
                tables=tuple(names),
                rows_synced=0 if failed else per_sync,
                message="401 Unauthorized: the OAuth token was revoked" if failed else "",
                started_at=started,
                finished_at=started + dt.timedelta(minutes=4 + k),
            )
        if state == "syncing":
            s.create(SyncRun, connector_id=conn.id, status="running", tables=tuple(names), started_at=s.ago(minutes=9))
