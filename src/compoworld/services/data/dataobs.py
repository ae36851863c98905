"""Signalgrid Data: data observability over the warehouse: monitored tables, monitors, incidents and lineage.

Modeled on the Monte Carlo API (GraphQL ``getTables`` with importance scores and
owners, ``createOrUpdateMonitor`` for freshness, volume, schema and field
health monitors with thresholds, ``runMonitor``, ``getIncidents`` with
severity SEV-1..SEV-4, an owner and a status (no status, investigating, fixed,
expected, false positive, no action needed), table-level lineage
(``getTableLineage``, custom lineage edges) and ``setTableMuted`` mutes with an
expiry).

A monitor watches one table: freshness (hours since the last update), volume
(minimum rows and the largest allowed change in percent), schema (any column
change since its last run) or field health (the highest null rate of one
field). Running a monitor measures the table: a breach opens an incident on it,
or joins the open incident the same monitor already has, unless the table is
muted; a paused monitor does not run. An incident lists the downstream tables
its table feeds through lineage; it is closed as fixed only with an owner, and
a closed incident can be reopened. Lineage edges join two different tables once
and never form a cycle.
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
from compoworld.engine.types import DateTime, Email, IdOf, Percent, Quantity, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Value

__all__ = ["service"]

service = Service(
    "dataobs",
    title="Signalgrid Data",
    category="data_observability",
    modeled_on="Monte Carlo API: tables (importance, owners), monitors (freshness, volume, schema, field health) "
    "with thresholds, runMonitor, incidents (severity, owner, status), table lineage, muted tables",
    description="Data observability for the company's warehouse: the tables it monitors with their owners and "
    "importance, freshness, volume, schema and field health monitors with their thresholds, the incidents "
    "they raise with severity and owner, lineage between tables and the downstream impact, and mutes.",
)

TableId = Annotated[str, IdOf("dataobs.table")]
MonitorId = Annotated[str, IdOf("dataobs.monitor")]
IncidentId = Annotated[str, IdOf("dataobs.incident")]
EdgeId = Annotated[str, IdOf("dataobs.lineage_edge")]
MuteId = Annotated[str, IdOf("dataobs.mute")]

ColumnName = Annotated[str, StringConstraints(pattern=r"^[a-z_][a-z0-9_]{0,62}$")]
"""A column name."""

MonitorType = Literal["freshness", "volume", "schema", "field_health"]
MonitorStatus = Literal["active", "paused"]
Sev = Literal["SEV-1", "SEV-2", "SEV-3", "SEV-4"]
IncidentStatus = Literal["no_status", "investigating", "fixed", "expected", "false_positive", "no_action_needed"]
RunResult = Literal["pass", "breach", "breach_muted", "joined_incident"]

OPEN: tuple[IncidentStatus, ...] = ("no_status", "investigating")


class FieldStat(Value):
    """A column of a table and its current null rate."""

    name: ColumnName
    """The column."""
    null_rate: Percent = 0.0
    """Percent of its values that are null."""


class Table(Record):
    """A warehouse table the observability platform monitors."""

    id: TableId
    full_table_id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9_-]+:[a-z0-9_]+\.[a-z0-9_]+$")]
    """project:dataset.table (unique)."""
    warehouse: Literal["snowflake", "bigquery", "redshift", "databricks"]
    """The warehouse."""
    owner_email: Email | None = None
    """The employee who owns it."""
    importance_score: Annotated[float, Field(ge=0, le=1)] = 0.5
    """How much is built on it, 0-1."""
    domain: Annotated[str, StringConstraints(min_length=1, max_length=60)] = "analytics"
    """The data domain (finance, marketing …)."""
    last_updated_at: DateTime
    """When data last landed."""
    row_count: Quantity
    """Rows now."""
    previous_row_count: Quantity
    """Rows at the previous load."""
    fields: tuple[FieldStat, ...] = ()
    """Its columns."""
    schema_changed_at: DateTime | None = None
    """When its columns last changed."""


class Monitor(Record):
    """A monitor on a table."""

    id: MonitorId
    table_id: TableId
    """The table."""
    monitor_type: MonitorType
    """freshness, volume, schema or field_health."""
    column: ColumnName | None = None
    """For field health: the column."""
    max_hours_stale: Annotated[int, Field(ge=1, le=720)] | None = None
    """Freshness: most hours without an update."""
    min_rows: Quantity | None = None
    """Volume: fewest rows."""
    max_change_pct: Percent | None = None
    """Volume: largest change since the previous load, in percent."""
    max_null_rate: Percent | None = None
    """Field health: highest null rate, in percent."""
    severity: Sev = "SEV-3"
    """The severity of incidents it raises."""
    status: MonitorStatus = "active"
    """active or paused."""
    created_by: Email
    """The employee who made it."""
    last_run_at: DateTime | None = None
    """When it last ran."""
    last_result: RunResult | None = None
    """What its last run found."""
    created_at: Annotated[DateTime, CREATED]
    """When it was made."""


class Incident(Record):
    """A data incident raised by a monitor."""

    id: IncidentId
    monitor_id: MonitorId
    """The monitor that raised it."""
    table_id: TableId
    """The affected table."""
    incident_type: MonitorType
    """freshness, volume, schema or field_health."""
    severity: Sev
    """SEV-1 (worst) to SEV-4."""
    status: IncidentStatus = "no_status"
    """no_status, investigating, fixed, expected, false_positive or no_action_needed."""
    owner_email: Email | None = None
    """The employee handling it."""
    summary: Text
    """What breached."""
    downstream_table_ids: tuple[TableId, ...] = ()
    """Tables fed by the affected one (at the time it opened)."""
    events: int = 1
    """Breaches grouped into it."""
    started_at: DateTime
    """When it opened."""
    closed_at: DateTime | None = None
    """When it was closed."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class LineageEdge(Record):
    """A lineage edge: data flows from the upstream table into the downstream one."""

    id: EdgeId
    upstream_table_id: TableId
    """Where the data comes from."""
    downstream_table_id: TableId
    """Where it goes."""
    source: Literal["query_logs", "custom"] = "query_logs"
    """Derived from query logs, or added by hand."""


class Mute(Record):
    """A mute on a table: its monitors' breaches open no incidents until it ends."""

    id: MuteId
    table_id: TableId
    """The muted table."""
    reason: Text
    """Why."""
    muted_by: Email
    """The employee who muted it."""
    until: DateTime
    """When it ends."""
    created_at: Annotated[DateTime, CREATED]
    """When it was set."""


class Lineage(Value):
    """A table's upstream and downstream tables, followed transitively."""

    table_id: TableId
    """The table."""
    upstream: tuple[TableId, ...]
    """Tables it is built from."""
    downstream: tuple[TableId, ...]
    """Tables built from it."""


# -- rules ------------------------------------------------------------------------------------


def _staff(ctx: Ctx, email: str | None, field: str) -> None:
    if email is not None and email not in {p.email for p in ctx.population.employees}:
        raise RuleViolation(f"{email} is not a user of the account", field=field, hint="use an employee's e-mail")


def _walk(ctx: Ctx, start: str, down: bool) -> list[str]:
    seen: list[str] = []
    frontier = [start]
    while frontier:
        here = frontier.pop(0)
        key = "upstream_table_id" if down else "downstream_table_id"
        for e in ctx.where(LineageEdge, **{key: here}):
            nxt = e.downstream_table_id if down else e.upstream_table_id
            if nxt not in seen and nxt != start:
                seen.append(nxt)
                frontier.append(nxt)
    return seen


def _guard_incident(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_table(ctx: Ctx, new: Any, old: Any) -> None:
    _staff(ctx, new.owner_email, "owner_email")


def _guard_monitor(ctx: Ctx, new: Any, old: Any) -> None:
    _check_thresholds(new.monitor_type, new.max_hours_stale, new.min_rows, new.max_change_pct, new.max_null_rate)


tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=False,
    filters=("warehouse", "owner_email", "domain", "full_table_id"),
    search=("full_table_id",),
    update=("owner_email", "importance_score", "domain"),
    delete=False,
    guard_update=_guard_table,
)
monitors = service.resource(
    Monitor,
    name="monitor",
    plural="monitors",
    prefix="mon",
    create=False,
    filters=("table_id", "monitor_type", "status", "severity", "created_by", "last_result"),
    update=("max_hours_stale", "min_rows", "max_change_pct", "max_null_rate", "severity"),
    transitions={
        "pause": Transition("status", ("active",), "paused", "pause the monitor"),
        "resume": Transition("status", ("paused",), "active", "resume the monitor"),
    },
    guard_update=_guard_monitor,
)
incidents = service.resource(
    Incident,
    name="incident",
    plural="incidents",
    prefix="inc",
    create=False,
    filters=("table_id", "monitor_id", "status", "severity", "owner_email", "incident_type"),
    search=("summary",),
    update=("owner_email", "severity"),
    delete=False,
    guard_update=_guard_incident,
)
edges = service.resource(
    LineageEdge,
    name="lineage_edge",
    plural="lineage_edges",
    prefix="edge",
    create=False,
    get=False,
    filters=("upstream_table_id", "downstream_table_id", "source"),
    title="lineage edge",
)
mutes = service.resource(
    Mute, name="mute", plural="mutes", prefix="mute", create=False, get=False, filters=("table_id", "muted_by")
)


# -- domain tools -----------------------------------------------------------------------------


def _check_thresholds(
    kind: str, stale: int | None, rows: int | None, change: float | None, nulls: float | None
) -> None:
    needed = {
        "freshness": ("max_hours_stale",),
        "volume": ("min_rows", "max_change_pct"),
        "field_health": ("max_null_rate",),
    }
    given = {"max_hours_stale": stale, "min_rows": rows, "max_change_pct": change, "max_null_rate": nulls}
    wanted = needed.get(kind, ())
    if wanted and all(given[n] is None for n in wanted):
        raise RuleViolation(f"a {kind} monitor needs a threshold", field=wanted[0], hint="set " + " or ".join(wanted))
    for name, value in given.items():
        if value is not None and name not in wanted:
            raise RuleViolation(
                f"{name} does not apply to a {kind} monitor",
                field=name,
                hint="set only " + (", ".join(wanted) or "no threshold: schema monitors watch every change"),
            )


def _example_monitor(ctx: Ctx) -> dict[str, Any] | None:
    t = next(iter(ctx.scan(Table)), None)
    if t is None:
        return None
    return {"table_id": t.id, "monitor_type": "volume", "min_rows": 10, "created_by": ctx.population.employees[0].email}


@service.tool(intent="create a monitor on the table", write=True, example=_example_monitor)
def create_monitor(
    ctx: Ctx,
    table_id: TableId,
    monitor_type: MonitorType,
    created_by: Email,
    column: ColumnName | None = None,
    max_hours_stale: Annotated[int, Field(ge=1, le=720)] | None = None,
    min_rows: Quantity | None = None,
    max_change_pct: Percent | None = None,
    max_null_rate: Percent | None = None,
    severity: Sev = "SEV-3",
) -> Monitor:
    """Create a monitor on a table with the thresholds its type takes.

    Args:
        table_id: The table.
        monitor_type: freshness (max_hours_stale), volume (min_rows and/or max_change_pct), schema (none)
            or field_health (column and max_null_rate).
        created_by: The employee making it.
        column: For field health: a column of the table.
        max_hours_stale: Freshness: most hours without an update.
        min_rows: Volume: fewest rows.
        max_change_pct: Volume: largest change since the previous load, in percent.
        max_null_rate: Field health: highest null rate, in percent.
        severity: The severity of the incidents it raises.
    """
    table = ctx.get(Table, table_id, field="table_id")
    _staff(ctx, created_by, "created_by")
    _check_thresholds(monitor_type, max_hours_stale, min_rows, max_change_pct, max_null_rate)
    if (monitor_type == "field_health") != (column is not None):
        raise RuleViolation(
            "a column is set for field health monitors only, and they need one",
            field="column",
            hint="name a column for field_health, none otherwise",
        )
    if column is not None and column not in {f.name for f in table.fields}:
        raise RuleViolation(
            f"{table.full_table_id} has no column {column}",
            field="column",
            hint="pick one of " + ", ".join(f.name for f in table.fields),
        )
    for m in ctx.where(Monitor, table_id=table.id, monitor_type=monitor_type):
        if m.column == column:
            raise Conflict(
                f"monitor {m.id} already watches {monitor_type} of this table",
                field="monitor_type",
                hint="update its thresholds with dataobs__update_monitor",
            )
    return ctx.create(
        Monitor,
        table_id=table.id,
        monitor_type=monitor_type,
        column=column,
        max_hours_stale=max_hours_stale,
        min_rows=min_rows,
        max_change_pct=max_change_pct,
        max_null_rate=max_null_rate,
        severity=severity,
        created_by=created_by,
    )


def _measure(ctx: Ctx, m: Monitor, t: Table) -> str | None:
    """What breached, in words, or None."""
    if m.monitor_type == "freshness" and m.max_hours_stale is not None:
        hours = (ctx.now() - t.last_updated_at).total_seconds() / 3600
        return f"no update for {hours:.0f} h (limit {m.max_hours_stale} h)" if hours > m.max_hours_stale else None
    if m.monitor_type == "volume":
        if m.min_rows is not None and t.row_count < m.min_rows:
            return f"{t.row_count} rows, below {m.min_rows}"
        if m.max_change_pct is not None and t.previous_row_count:
            change = abs(t.row_count - t.previous_row_count) * 100 / t.previous_row_count
            return f"row count changed {change:.1f}% (limit {m.max_change_pct}%)" if change > m.max_change_pct else None
        return None
    if m.monitor_type == "schema":
        since = m.last_run_at or m.created_at
        return "columns changed" if t.schema_changed_at is not None and t.schema_changed_at > since else None
    rate = next((f.null_rate for f in t.fields if f.name == m.column), 0.0)
    limit = m.max_null_rate or 0.0
    return f"{m.column} is {rate:.1f}% null (limit {limit}%)" if rate > limit else None


class MonitorRun(Value):
    """What a monitor run found."""

    monitor_id: MonitorId
    """The monitor."""
    result: RunResult
    """pass, breach (new incident), breach_muted (table muted) or joined_incident (grouped into an open one)."""
    detail: str
    """What was measured."""
    incident_id: IncidentId | None
    """The incident opened or joined."""


@service.tool(
    intent="run the monitor", write=True, example=first_example(Monitor, "monitor_id", where={"status": "active"})
)
def run_monitor(ctx: Ctx, monitor_id: MonitorId) -> MonitorRun:
    """Run an active monitor now: a breach opens an incident (or joins its open one) unless the table is muted.

    Args:
        monitor_id: The monitor.
    """
    m = ctx.get(Monitor, monitor_id, field="monitor_id")
    if m.status != "active":
        raise RuleViolation(f"monitor {m.id} is paused", field="monitor_id", hint="resume it first")
    t = ctx.get(Table, m.table_id)
    breach = _measure(ctx, m, t)
    now = ctx.now()
    inc_id: str | None = None
    if breach is None:
        result: RunResult = "pass"
    elif any(x.until > now for x in ctx.where(Mute, table_id=t.id)):
        result = "breach_muted"
    else:
        open_inc = next((i for i in ctx.where(Incident, monitor_id=m.id) if i.status in OPEN), None)
        if open_inc is not None:
            result, inc_id = "joined_incident", ctx.update(open_inc, events=open_inc.events + 1).id
        else:
            result = "breach"
            inc_id = ctx.create(
                Incident,
                monitor_id=m.id,
                table_id=t.id,
                incident_type=m.monitor_type,
                severity=m.severity,
                owner_email=t.owner_email,
                summary=f"{m.monitor_type} breach on {t.full_table_id}: {breach}",
                downstream_table_ids=tuple(_walk(ctx, t.id, True)),
                started_at=now,
            ).id
    ctx.update(m, last_run_at=now, last_result=result)
    return MonitorRun(monitor_id=m.id, result=result, detail=breach or "within thresholds", incident_id=inc_id)


def _example_status(ctx: Ctx) -> dict[str, Any] | None:
    i = ctx.first(Incident, status="no_status")
    return None if i is None else {"incident_id": i.id, "status": "investigating"}


@service.tool(intent="set the incident's status", write=True, example=_example_status)
def set_incident_status(ctx: Ctx, incident_id: IncidentId, status: IncidentStatus) -> Incident:
    """Move an incident to investigating, or close it (fixed needs an owner); a closed one can be reopened.

    Args:
        incident_id: The incident.
        status: investigating, fixed, expected, false_positive or no_action_needed; investigating reopens.
    """
    inc = ctx.get(Incident, incident_id, field="incident_id")
    if status == inc.status:
        raise Conflict(f"incident {inc.id} is already {status}", field="status", hint="nothing to do")
    if status == "no_status":
        raise RuleViolation("an incident cannot go back to no_status", field="status", hint="use investigating")
    if status == "fixed" and inc.owner_email is None:
        raise RuleViolation(
            "a fixed incident needs an owner", field="status", hint="set owner_email with dataobs__update_incident"
        )
    closing = status not in OPEN
    return ctx.update(inc, status=status, closed_at=ctx.now() if closing else None)


def _example_edge(ctx: Ctx) -> dict[str, Any] | None:
    ts = list(ctx.scan(Table))
    for a in ts:
        for b in ts:
            if (
                a.id != b.id
                and a.id not in _walk(ctx, b.id, True)
                and not ctx.where(LineageEdge, upstream_table_id=a.id, downstream_table_id=b.id)
            ):
                return {"upstream_table_id": a.id, "downstream_table_id": b.id}
    return None


@service.tool(intent="add a lineage edge", write=True, example=_example_edge)
def add_lineage_edge(ctx: Ctx, upstream_table_id: TableId, downstream_table_id: TableId) -> LineageEdge:
    """Add a custom lineage edge: data flows from one table into another (no self-edges, duplicates or cycles).

    Args:
        upstream_table_id: Where the data comes from.
        downstream_table_id: Where it goes.
    """
    up = ctx.get(Table, upstream_table_id, field="upstream_table_id")
    down = ctx.get(Table, downstream_table_id, field="downstream_table_id")
    if up.id == down.id:
        raise RuleViolation("a table cannot feed itself", field="downstream_table_id", hint="pick another table")
    if ctx.where(LineageEdge, upstream_table_id=up.id, downstream_table_id=down.id):
        raise Conflict("this edge exists", field="downstream_table_id", hint="nothing to do")
    if up.id in _walk(ctx, down.id, True):
        raise RuleViolation(
            f"{down.full_table_id} already feeds {up.full_table_id}: the edge would make a cycle",
            field="downstream_table_id",
            hint="check dataobs__table_lineage",
        )
    return ctx.create(LineageEdge, upstream_table_id=up.id, downstream_table_id=down.id, source="custom")


@service.tool(intent="show the table's lineage", example=first_example(Table, "table_id"))
def table_lineage(ctx: Ctx, table_id: TableId) -> Lineage:
    """A table's upstream and downstream tables, followed through every edge.

    Args:
        table_id: The table.
    """
    t = ctx.get(Table, table_id, field="table_id")
    return Lineage(table_id=t.id, upstream=tuple(_walk(ctx, t.id, False)), downstream=tuple(_walk(ctx, t.id, True)))


def _example_mute(ctx: Ctx) -> dict[str, Any] | None:
    for t in ctx.scan(Table):
        if not ctx.where(Mute, table_id=t.id):
            return {"table_id": t.id, "hours": 24, "reason": "Backfill", "muted_by": ctx.population.employees[0].email}
    return None


@service.tool(intent="mute the table", write=True, example=_example_mute)
def mute_table(
    ctx: Ctx, table_id: TableId, hours: Annotated[int, Field(ge=1, le=720)], reason: Text, muted_by: Email
) -> Mute:
    """Mute a table for some hours: its monitors' breaches open no incidents meanwhile.

    Args:
        table_id: The table.
        hours: How long, 1-720 hours.
        reason: Why (required).
        muted_by: The employee muting it.
    """
    t = ctx.get(Table, table_id, field="table_id")
    _staff(ctx, muted_by, "muted_by")
    if not reason.strip():
        raise RuleViolation("a mute needs a reason", field="reason", hint="say why, e.g. a planned backfill")
    now = ctx.now()
    if any(m.until > now for m in ctx.where(Mute, table_id=t.id)):
        raise Conflict(f"{t.full_table_id} is already muted", field="table_id", hint="delete that mute first")
    return ctx.create(
        Mute, table_id=t.id, reason=reason.strip(), muted_by=muted_by, until=now + dt.timedelta(hours=hours)
    )


# -- seed -------------------------------------------------------------------------------------

TABLES: tuple[tuple[str, str, float, int, int, float, tuple[tuple[str, float], ...]], ...] = (
    ("raw.stripe_charges", "finance", 0.7, 2, 182000, 180500, (("charge_id", 0.0), ("customer_id", 0.4))),
    ("raw.salesforce_opportunities", "sales", 0.6, 30, 9100, 9050, (("opportunity_id", 0.0), ("amount", 1.2))),
    ("raw.app_orders", "product", 0.8, 1, 540000, 531000, (("order_id", 0.0), ("coupon_code", 71.0))),
    ("staging.orders_enriched", "product", 0.85, 1, 531000, 300000, (("order_id", 0.0), ("region", 18.5))),
    ("marts.revenue_daily", "finance", 0.95, 3, 730, 729, (("day", 0.0), ("revenue", 0.0))),
    ("marts.pipeline_weekly", "sales", 0.5, 50, 104, 103, (("week", 0.0), ("pipeline", 0.0))),
    ("marts.customer_ltv", "finance", 0.9, 4, 48000, 47900, (("customer_id", 0.0), ("ltv", 2.0))),
)
EDGES = ((0, 4), (2, 3), (3, 4), (3, 6), (1, 5), (0, 6))


@service.seeder
def seed(s: SeedContext) -> None:
    """Seven tables in lineage, monitors of every type, open and closed incidents and a mute."""
    data = s.population.staff("Engineering", "Finance", fallback=4)
    made: list[Table] = []
    for k, (name, domain, imp, hours, rows, prev, cols) in enumerate(TABLES):
        made.append(
            s.create(
                Table,
                full_table_id=f"analytics-prod:{name}",
                warehouse="bigquery" if k % 3 else "snowflake",
                owner_email=data[k % len(data)].email if k != 5 else None,
                importance_score=imp,
                domain=domain,
                last_updated_at=s.ago(hours=hours),
                row_count=rows,
                previous_row_count=prev,
                fields=tuple(FieldStat(name=c, null_rate=r) for c, r in cols),
                schema_changed_at=s.ago(hours=2) if k == 1 else s.ago(days=60),
            )
        )
    for a, b in EDGES:
        s.create(LineageEdge, upstream_table_id=made[a].id, downstream_table_id=made[b].id)
    by = data[0].email
    specs: list[dict[str, Any]] = [
        {"table": 0, "monitor_type": "freshness", "max_hours_stale": 6, "severity": "SEV-2"},
        {"table": 1, "monitor_type": "freshness", "max_hours_stale": 24},
        {"table": 1, "monitor_type": "schema", "severity": "SEV-4"},
        {"table": 3, "monitor_type": "volume", "max_change_pct": 20.0, "severity": "SEV-2"},
        {"table": 3, "monitor_type": "field_health", "column": "region", "max_null_rate": 5.0},
        {"table": 4, "monitor_type": "freshness", "max_hours_stale": 26, "severity": "SEV-1"},
        {"table": 5, "monitor_type": "freshness", "max_hours_stale": 36, "status": "paused"},
        {"table": 2, "monitor_type": "field_health", "column": "coupon_code", "max_null_rate": 90.0},
    ]
    mons = []
    for k, spec in enumerate(specs):
        t = made[spec.pop("table")]
        mons.append(
            s.create(
                Monitor,
                table_id=t.id,
                created_by=by,
                last_run_at=s.ago(hours=3),
                last_result="pass",
                created_at=s.ago(days=120 - k),
                **spec,
            )
        )
    # The staged orders lost rows (open, investigated); an old freshness incident is fixed.
    vol = mons[3]
    s.update(vol, last_result="breach")
    s.create(
        Incident,
        monitor_id=vol.id,
        table_id=vol.table_id,
        incident_type="volume",
        severity="SEV-2",
        status="investigating",
        owner_email=made[3].owner_email,
        summary=f"volume breach on {made[3].full_table_id}: row count changed 43.5% (limit 20.0%)",
        downstream_table_ids=(made[4].id, made[6].id),
        started_at=s.ago(hours=3),
        updated_at=s.ago(hours=2),
    )
    old = mons[0]
    s.create(
        Incident,
        monitor_id=old.id,
        table_id=old.table_id,
        incident_type="freshness",
        severity="SEV-2",
        status="fixed",
        owner_email=made[0].owner_email,
        summary=f"freshness breach on {made[0].full_table_id}: no update for 9 h (limit 6 h)",
        downstream_table_ids=(made[4].id, made[6].id),
        started_at=s.ago(days=12),
        closed_at=s.ago(days=11),
        updated_at=s.ago(days=11),
    )
    s.create(
        Mute,
        table_id=made[5].id,
        reason="Quarterly pipeline model rebuild.",
        muted_by=by,
        until=s.ago(hours=-48),
        created_at=s.ago(hours=6),
    )
