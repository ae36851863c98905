"""Vigil Monitoring: monitors with thresholds, their states, downtimes, events, dashboards and SLOs.

Modeled on the Datadog API (v1 Monitors, Downtimes, Events, Dashboards,
Service Level Objectives; v2 downtime schedules): a monitor evaluates a query
against a warning and a critical threshold, moves between OK, Warn, Alert and
No Data, and notifies the employees it names unless it is muted or inside a
downtime; SLOs are built on monitors and track an error budget.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from compoworld.engine.context import Ctx
from compoworld.engine.errors import NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Percent, Text, Title
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped

__all__ = ["service"]

service = Service(
    "monitoring",
    title="Vigil Monitoring",
    category="monitoring",
    modeled_on="Datadog API v1/v2 (Monitors, Downtimes, Events, Dashboards, Service Level Objectives)",
    description="Infrastructure and application monitoring: threshold monitors over metric and log queries, "
    "their alert states and notifications, scheduled downtimes, the event stream, dashboards and SLOs.",
)

MonitorId = Annotated[str, IdOf("monitoring.monitor")]
SloId = Annotated[str, IdOf("monitoring.slo")]
MonitorState = Literal["OK", "Warn", "Alert", "No Data"]
Comparator = Literal[">", ">=", "<", "<="]


class Monitor(Timestamped):
    """A threshold check over a metric or log query."""

    id: MonitorId
    name: Title
    """Monitor name, shown in notifications."""
    type: Literal["metric alert", "query alert", "log alert", "service check"] = "metric alert"
    """Kind of query evaluated."""
    query: str
    """The query evaluated, e.g. 'avg(last_5m):avg:system.cpu.user{service:checkout}'."""
    comparator: Comparator = ">"
    """How the value compares to the thresholds: '>' alerts on high values, '<' on low ones."""
    critical_threshold: float
    """Value at which the monitor alerts."""
    warning_threshold: float | None = None
    """Value at which it warns; must be reached before the critical one."""
    message: Text = ""
    """Notification text."""
    notify_emails: list[Email] = Field(default_factory=list)
    """Employees notified when the state changes (the '@' handles)."""
    tags: list[str] = Field(default_factory=list)
    """Tags such as 'service:checkout' or 'team:platform'."""
    priority: int | None = Field(default=None, ge=1, le=5)
    """Priority 1 (highest) to 5."""
    overall_state: MonitorState = "OK"
    """Current state."""
    last_value: float | None = None
    """Last evaluated value."""
    muted_until: DateTime | None = None
    """While set and in the future (or muted forever), the monitor does not notify."""
    muted: bool = False
    """Whether the monitor is muted."""
    creator_email: Email
    """Who created the monitor."""


class Downtime(Created):
    """A scheduled silence of a monitor (or of every monitor with a tag)."""

    id: Annotated[str, IdOf("monitoring.downtime")]
    monitor_id: MonitorId | None = None
    """The monitor silenced; null with a scope silences by tag."""
    scope: str = "*"
    """Tag scope silenced, e.g. 'service:checkout'; '*' for the monitor's whole scope."""
    start: DateTime
    """When the downtime starts."""
    end: DateTime
    """When it ends; must be after the start and in the future."""
    message: Text = ""
    """Why the monitors are silenced."""
    status: Literal["scheduled", "canceled"] = "scheduled"
    """Canceled downtimes silence nothing."""


class Event(Record):
    """An entry in the event stream: an alert transition, a deploy, a comment."""

    id: Annotated[str, IdOf("monitoring.event")]
    title: Title
    """Event title."""
    text: Text = ""
    """Event body."""
    alert_type: Literal["error", "warning", "info", "success"] = "info"
    """Severity of the event."""
    source_type: Literal["monitor", "deploy", "user", "integration"] = "user"
    """What posted it."""
    monitor_id: MonitorId | None = None
    """The monitor that raised it, if any."""
    notified_emails: list[Email] = Field(default_factory=list)
    """Who was notified."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""
    date_happened: Annotated[DateTime, CREATED]
    """When it happened."""


class Widget(BaseModel):
    """One widget on a dashboard."""

    title: Title = Field(description="Widget title.")
    kind: Literal["timeseries", "query_value", "monitor_summary", "slo", "note"] = Field(description="Widget type.")
    query: str = Field(default="", description="Metric query for timeseries and query_value widgets.")
    monitor_id: MonitorId | None = Field(default=None, description="Monitor shown by a monitor_summary widget.")
    slo_id: SloId | None = Field(default=None, description="SLO shown by an slo widget.")


class Dashboard(Record):
    """A dashboard of widgets."""

    id: Annotated[str, IdOf("monitoring.dashboard")]
    title: Title
    """Dashboard title."""
    description: Text = ""
    """What it shows."""
    layout_type: Literal["ordered", "free"] = "ordered"
    """Grid layout."""
    widgets: list[Widget] = Field(default_factory=list)
    """The widgets."""
    author_email: Email
    """Who made it."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Slo(Created):
    """A service level objective computed from monitors."""

    id: SloId
    name: Title
    """SLO name."""
    description: Text = ""
    """What it promises."""
    monitor_ids: list[MonitorId] = Field(min_length=1)
    """The monitors whose uptime makes the SLI."""
    target: Percent
    """Target percentage, strictly between 0 and 100."""
    warning: Percent | None = None
    """Warning percentage, above the target."""
    timeframe: Literal["7d", "30d", "90d"] = "30d"
    """Rolling window."""
    sli_value: Percent = 100.0
    """Current measured percentage."""
    tags: list[str] = Field(default_factory=list)
    """Tags."""


# -- helpers and guards ---------------------------------------------------------------------------


def _employee_emails(ctx: Ctx) -> set[str]:
    return {p.email for p in ctx.population.employees}


def _above(comparator: str) -> bool:
    return comparator in (">", ">=")


def _breaches(value: float, comparator: str, threshold: float) -> bool:
    if comparator == ">":
        return value > threshold
    if comparator == ">=":
        return value >= threshold
    if comparator == "<":
        return value < threshold
    return value <= threshold


def _guard_monitor(ctx: Ctx, new: Any, old: Any) -> None:
    if new.warning_threshold is not None:
        bad = (
            new.warning_threshold >= new.critical_threshold
            if _above(new.comparator)
            else new.warning_threshold <= new.critical_threshold
        )
        if bad:
            side = "below" if _above(new.comparator) else "above"
            raise RuleViolation(
                f"the warning threshold must be {side} the critical threshold for comparator {new.comparator!r}",
                field="warning_threshold",
                hint=f"set warning_threshold {side} {new.critical_threshold} or omit it",
            )
    staff = _employee_emails(ctx)
    for i, email in enumerate(new.notify_emails):
        if email not in staff:
            raise RuleViolation(
                f"{email} is not an employee and cannot be notified",
                field=f"notify_emails.{i}",
                hint="notify employees by their work e-mail",
            )
    if not new.query.strip():
        raise RuleViolation("a monitor needs a query", field="query", hint="give the metric or log query")


def _guard_monitor_delete(ctx: Ctx, new: Any, old: Any) -> None:
    for slo in ctx.scan(Slo):
        if old.id in slo.monitor_ids:
            raise RuleViolation(
                f"monitor {old.id} is used by SLO {slo.id} ({slo.name})",
                hint="delete the SLO or remove the monitor from it first",
            )


def _guard_downtime(ctx: Ctx, new: Any, old: Any) -> None:
    if new.end <= new.start:
        raise RuleViolation("a downtime must end after it starts", field="end", hint="give an end after the start")
    if new.end <= ctx.now():
        raise RuleViolation("a downtime must end in the future", field="end", hint="give an end after now")
    if new.monitor_id is not None:
        ctx.get(Monitor, new.monitor_id, field="monitor_id")


def _guard_slo(ctx: Ctx, new: Any, old: Any) -> None:
    if not 0 < new.target < 100:
        raise RuleViolation("an SLO target must be strictly between 0 and 100", field="target", hint="use e.g. 99.9")
    if new.warning is not None and not new.target < new.warning < 100:
        raise RuleViolation(
            "an SLO warning must be above the target and below 100",
            field="warning",
            hint=f"set warning between {new.target} and 100, or omit it",
        )
    for i, mid in enumerate(new.monitor_ids):
        ctx.get(Monitor, mid, field=f"monitor_ids.{i}")


def _guard_dashboard(ctx: Ctx, new: Any, old: Any) -> None:
    for i, w in enumerate(new.widgets):
        if w.monitor_id is not None:
            ctx.get(Monitor, w.monitor_id, field=f"widgets.{i}.monitor_id")
        if w.slo_id is not None:
            ctx.get(Slo, w.slo_id, field=f"widgets.{i}.slo_id")


monitors = service.resource(
    Monitor,
    name="monitor",
    plural="monitors",
    prefix="mon",
    create=(
        "name",
        "type",
        "query",
        "comparator",
        "critical_threshold",
        "warning_threshold",
        "message",
        "notify_emails",
        "tags",
        "priority",
        "creator_email",
    ),
    filters=("overall_state", "type", "muted", "priority", "creator_email"),
    search=("name", "query", "message"),
    update=(
        "name",
        "query",
        "comparator",
        "critical_threshold",
        "warning_threshold",
        "message",
        "notify_emails",
        "tags",
        "priority",
    ),
    guard_create=_guard_monitor,
    guard_update=_guard_monitor,
    guard_delete=_guard_monitor_delete,
)
downtimes = service.resource(
    Downtime,
    name="downtime",
    plural="downtimes",
    prefix="dt",
    create=("monitor_id", "scope", "start", "end", "message"),
    filters=("monitor_id", "status", "scope"),
    search=("message",),
    update=("end", "message"),
    delete=False,
    transitions={"cancel": Transition("status", ("scheduled",), "canceled", "cancel the downtime")},
    guard_create=_guard_downtime,
    guard_update=_guard_downtime,
)
events = service.resource(
    Event,
    name="event",
    plural="events",
    prefix="evt",
    create=("title", "text", "alert_type", "tags"),
    filters=("alert_type", "source_type", "monitor_id"),
    search=("title", "text"),
    delete=False,
)
dashboards = service.resource(
    Dashboard,
    name="dashboard",
    plural="dashboards",
    prefix="dash",
    filters=("author_email", "layout_type"),
    search=("title", "description"),
    update=("title", "description", "layout_type", "widgets"),
    guard_create=_guard_dashboard,
    guard_update=_guard_dashboard,
)
slos = service.resource(
    Slo,
    name="slo",
    plural="slos",
    prefix="slo",
    create=("name", "description", "monitor_ids", "target", "warning", "timeframe", "tags"),
    filters=("timeframe",),
    search=("name", "description"),
    update=("name", "description", "monitor_ids", "target", "warning", "timeframe", "tags"),
    guard_create=_guard_slo,
    guard_update=_guard_slo,
    title="service level objective",
)


# -- domain tools ---------------------------------------------------------------------------------


def _is_muted(ctx: Ctx, mon: Monitor) -> bool:
    return mon.muted and (mon.muted_until is None or mon.muted_until > ctx.now())


def _active_downtime(ctx: Ctx, mon: Monitor) -> Downtime | None:
    now = ctx.now()
    scopes = set(mon.tags)
    for d in ctx.where(Downtime, status="scheduled"):
        if not d.start <= now < d.end:
            continue
        if d.monitor_id == mon.id or (d.monitor_id is None and d.scope in scopes):
            return d
    return None


class Evaluation(BaseModel):
    """The outcome of evaluating a monitor on a new value."""

    monitor: Monitor = Field(description="The monitor after the evaluation.")
    previous_state: MonitorState = Field(description="Its state before.")
    state: MonitorState = Field(description="Its state now.")
    notified_emails: list[Email] = Field(description="Who was notified (empty when nothing changed or silenced).")
    silenced_by: Literal["mute", "downtime"] | None = Field(
        description="Why a state change notified nobody, if it was silenced."
    )
    event: Event | None = Field(description="The event recorded for a state change.")


def _example_monitor(ctx: Ctx) -> dict[str, Any] | None:
    mon = ctx.first(Monitor, overall_state="OK", muted=False)
    return (
        {"monitor_id": mon.id, "value": mon.critical_threshold + (1 if _above(mon.comparator) else -1)} if mon else None
    )


@service.tool(intent="evaluate the monitor on a new value", write=True, example=_example_monitor)
def submit_monitor_value(ctx: Ctx, monitor_id: MonitorId, value: float) -> Evaluation:
    """Evaluate a monitor on a new value of its query and record the state change.

    The value is compared with the critical then the warning threshold. A state
    change posts an event and notifies the monitor's handles, unless the
    monitor is muted or inside a downtime, in which case nobody is notified.

    Args:
        monitor_id: The monitor.
        value: The query's new value.
    """
    mon = ctx.get(Monitor, monitor_id, field="monitor_id")
    prev = mon.overall_state
    state: MonitorState = "OK"
    if _breaches(value, mon.comparator, mon.critical_threshold):
        state = "Alert"
    elif mon.warning_threshold is not None and _breaches(value, mon.comparator, mon.warning_threshold):
        state = "Warn"
    silenced: Literal["mute", "downtime"] | None = None
    notified: list[str] = []
    event = None
    if state != prev:
        if _is_muted(ctx, mon):
            silenced = "mute"
        elif _active_downtime(ctx, mon) is not None:
            silenced = "downtime"
        else:
            notified = list(mon.notify_emails)
        event = ctx.create(
            Event,
            title=f"[{'Triggered' if state == 'Alert' else 'Recovered' if state == 'OK' else state}] {mon.name}",
            text=f"{mon.query} is {value} (critical {mon.comparator} {mon.critical_threshold}). {mon.message}",
            alert_type={"Alert": "error", "Warn": "warning", "OK": "success", "No Data": "info"}[state],
            source_type="monitor",
            monitor_id=mon.id,
            notified_emails=notified,
            tags=mon.tags,
        )
    mon = ctx.update(mon, overall_state=state, last_value=value)
    return Evaluation(
        monitor=mon, previous_state=prev, state=state, notified_emails=notified, silenced_by=silenced, event=event
    )


@service.tool(
    intent="mute the monitor", write=True, example=first_example(Monitor, "monitor_id", where={"muted": False})
)
def mute_monitor(ctx: Ctx, monitor_id: MonitorId, end: DateTime | None = None) -> Monitor:
    """Mute a monitor so it stops notifying, until an end time or until unmuted.

    Args:
        monitor_id: The monitor.
        end: When the mute ends; must be in the future; omit to mute until unmuted.
    """
    mon = ctx.get(Monitor, monitor_id, field="monitor_id")
    if end is not None and end <= ctx.now():
        raise RuleViolation("a mute must end in the future", field="end", hint="give an end after now or omit it")
    if _is_muted(ctx, mon) and mon.muted_until == end:
        raise RuleViolation(f"monitor {mon.id} is already muted", field="monitor_id", hint="unmute it first")
    return ctx.update(mon, muted=True, muted_until=end)


@service.tool(
    intent="unmute the monitor", write=True, example=first_example(Monitor, "monitor_id", where={"muted": True})
)
def unmute_monitor(ctx: Ctx, monitor_id: MonitorId) -> Monitor:
    """Unmute a muted monitor so it notifies again.

    Args:
        monitor_id: The monitor.
    """
    mon = ctx.get(Monitor, monitor_id, field="monitor_id")
    if not mon.muted:
        raise RuleViolation(f"monitor {mon.id} is not muted", field="monitor_id", hint="nothing to unmute")
    return ctx.update(mon, muted=False, muted_until=None)


@service.tool(
    intent="resolve the monitor's alert",
    write=True,
    example=first_example(Monitor, "monitor_id", where={"overall_state": "Alert"}),
)
def resolve_monitor(ctx: Ctx, monitor_id: MonitorId) -> Monitor:
    """Force a monitor in Alert, Warn or No Data back to OK, posting a recovery event.

    Args:
        monitor_id: The monitor.
    """
    mon = ctx.get(Monitor, monitor_id, field="monitor_id")
    if mon.overall_state == "OK":
        raise RuleViolation(f"monitor {mon.id} is already OK", field="monitor_id", hint="nothing to resolve")
    ctx.create(
        Event,
        title=f"[Resolved] {mon.name}",
        text="Manually resolved.",
        alert_type="success",
        source_type="user",
        monitor_id=mon.id,
        tags=mon.tags,
    )
    return ctx.update(mon, overall_state="OK")


class SloStatus(BaseModel):
    """Where an SLO stands against its target."""

    slo_id: SloId = Field(description="The SLO.")
    sli_value: float = Field(description="Measured percentage.")
    target: float = Field(description="Target percentage.")
    error_budget_remaining: float = Field(description="Share of the error budget left, in percent (negative: blown).")
    state: Literal["ok", "warning", "breached"] = Field(description="ok, warning (below warning) or breached.")
    alerting_monitor_ids: list[MonitorId] = Field(description="Its monitors currently in Alert.")


@service.tool(intent="check the SLO's error budget", example=first_example(Slo, "slo_id"))
def get_slo_status(ctx: Ctx, slo_id: SloId) -> SloStatus:
    """Compare an SLO's measured value with its target and report the error budget left.

    Args:
        slo_id: The SLO.
    """
    slo = ctx.get(Slo, slo_id, field="slo_id")
    budget = 100.0 - slo.target
    remaining = round((slo.sli_value - slo.target) / budget * 100, 2) if budget > 0 else 0.0
    state: Literal["ok", "warning", "breached"] = "ok"
    if slo.sli_value < slo.target:
        state = "breached"
    elif slo.warning is not None and slo.sli_value < slo.warning:
        state = "warning"
    alerting = [m for m in slo.monitor_ids if (mon := ctx.find(Monitor, m)) and mon.overall_state == "Alert"]
    return SloStatus(
        slo_id=slo.id,
        sli_value=slo.sli_value,
        target=slo.target,
        error_budget_remaining=remaining,
        state=state,
        alerting_monitor_ids=alerting,
    )


def _example_notify(ctx: Ctx) -> dict[str, Any] | None:
    for mon in ctx.scan(Monitor):
        if mon.notify_emails:
            return {"email": mon.notify_emails[0]}
    return None


@service.tool(intent="find the monitors that notify this person", example=_example_notify)
def list_monitors_notifying(ctx: Ctx, email: Email) -> list[Monitor]:
    """List the monitors whose notifications go to an e-mail address.

    Args:
        email: The employee's work e-mail.
    """
    if email not in _employee_emails(ctx):
        raise NotFound(
            f"{email} is not an employee's e-mail", field="email", hint="monitors notify employees by work e-mail"
        )
    return [m for m in ctx.scan(Monitor) if email in m.notify_emails]


# -- seed -------------------------------------------------------------------------------------------

CHECKS = (
    ("High CPU", "avg(last_5m):avg:system.cpu.user{{service:{s}}}", ">", 90.0, 75.0),
    ("Error rate", "sum(last_5m):sum:trace.http.request.errors{{service:{s}}}.as_rate()", ">", 5.0, 2.0),
    ("p99 latency", "avg(last_10m):p99:trace.http.request.duration{{service:{s}}}", ">", 2.0, 1.0),
    ("Low free disk", "min(last_15m):min:system.disk.free_pct{{service:{s}}}", "<", 5.0, 15.0),
    ("Healthy hosts", "min(last_5m):sum:aws.elb.healthy_host_count{{service:{s}}}", "<", 1.0, 2.0),
)
SERVICES = ("checkout", "payments", "search", "auth", "pipeline", "warehouse-sync", "email")


@service.seeder
def seed(s: SeedContext) -> None:
    """Monitors over the company's services notifying engineering and operations staff, SLOs, downtimes."""
    pop = s.population
    staff = [p.email for p in pop.staff("Engineering", "Operations")]
    mons = _seed_monitors(s, staff)
    _seed_events(s, mons)
    slos = _seed_slos(s, mons)
    _seed_downtimes(s, mons)
    _seed_dashboards(s, staff, mons, slos)


def _seed_monitors(s: SeedContext, staff: list[str]) -> list[Monitor]:
    """Most CHECKS on every service, in every state, some muted."""
    mons: list[Monitor] = []
    for n, svc in enumerate(SERVICES):
        for k, (label, query, comp, crit, warn) in enumerate(CHECKS):
            if (n + k) % 3 == 2:
                continue
            state: MonitorState = ("OK", "OK", "OK", "Warn", "Alert", "OK", "No Data")[(n + k) % 7]
            muted = (n * 5 + k) % 9 == 4
            mons.append(
                s.create(
                    Monitor,
                    name=f"{label} on {svc}",
                    type="metric alert" if k != 1 else "query alert",
                    query=query.format(s=svc),
                    comparator=comp,
                    critical_threshold=crit,
                    warning_threshold=warn,
                    message=f"{label} on {svc}. Check the runbook before paging.",
                    notify_emails=s.rng.sample(staff, k=min(2, len(staff))),
                    tags=[f"service:{svc}", f"team:{'ops' if svc in ('warehouse-sync', 'email') else 'platform'}"],
                    priority=s.rng.choice((1, 2, 3, 4, None)),
                    overall_state=state,
                    muted=muted,
                    muted_until=s.now + dt.timedelta(hours=12) if muted and n % 2 else None,
                    creator_email=s.rng.choice(staff),
                    created_at=s.ago(days=90 - n),
                    updated_at=s.ago(days=n),
                )
            )
    return mons


def _seed_events(s: SeedContext, mons: list[Monitor]) -> None:
    """The alert or warning that put each monitor in its state, then a few deploys."""
    for mon in mons:
        if mon.overall_state in ("Alert", "Warn"):
            s.create(
                Event,
                title=f"[{'Triggered' if mon.overall_state == 'Alert' else 'Warn'}] {mon.name}",
                text=mon.message,
                alert_type="error" if mon.overall_state == "Alert" else "warning",
                source_type="monitor",
                monitor_id=mon.id,
                notified_emails=[] if mon.muted else mon.notify_emails,
                tags=mon.tags,
                date_happened=s.ago(hours=s.rng.randint(1, 48)),
            )
    for n, svc in enumerate(SERVICES[:4]):
        s.create(
            Event,
            title=f"Deployed {svc} v2.{n + 3}.0",
            text="Rolling deploy finished.",
            alert_type="info",
            source_type="deploy",
            tags=[f"service:{svc}"],
            date_happened=s.ago(days=n + 1),
        )


def _seed_slos(s: SeedContext, mons: list[Monitor]) -> list[Slo]:
    """An availability SLO for each of the first five services, over two of its monitors."""
    slos = []
    for n, svc in enumerate(SERVICES[:5]):
        used = [m.id for m in mons if f"service:{svc}" in m.tags][:2]
        target = (99.9, 99.5, 99.0, 99.95, 95.0)[n]
        slos.append(
            s.create(
                Slo,
                name=f"{svc} availability",
                description=f"{svc} stays healthy {target}% of the time.",
                monitor_ids=used,
                target=target,
                warning=min(99.99, target + (100 - target) / 2),
                timeframe=("30d", "7d", "90d", "30d", "7d")[n],
                sli_value=(99.97, 99.41, 99.6, 99.96, 97.0)[n],
                tags=[f"service:{svc}"],
            )
        )
    return slos


def _seed_downtimes(s: SeedContext, mons: list[Monitor]) -> None:
    """One planned, one running now, one cancelled."""
    s.create(
        Downtime,
        monitor_id=mons[0].id,
        start=s.now + dt.timedelta(days=1),
        end=s.now + dt.timedelta(days=1, hours=2),
        message="Planned database upgrade.",
    )
    s.create(
        Downtime,
        scope="service:email",
        start=s.ago(hours=1),
        end=s.now + dt.timedelta(hours=5),
        message="Mail provider migration.",
    )
    s.create(
        Downtime,
        scope="service:search",
        start=s.ago(days=3),
        end=s.ago(days=3) + dt.timedelta(hours=1),
        message="Reindex.",
        status="canceled",
    )


def _seed_dashboards(s: SeedContext, staff: list[str], mons: list[Monitor], slos: list[Slo]) -> None:
    """A platform overview, then one dashboard per service."""
    owner = s.rng.choice(staff)
    s.create(
        Dashboard,
        title="Platform overview",
        description="Health of the customer-facing services.",
        widgets=[Widget(title=m.name, kind="monitor_summary", monitor_id=m.id) for m in mons[:4]]
        + [Widget(title=slos[0].name, kind="slo", slo_id=slos[0].id)],
        author_email=owner,
    )
    for svc in SERVICES:
        s.create(
            Dashboard,
            title=f"{svc} service",
            layout_type="free",
            widgets=[
                Widget(title="Requests", kind="timeseries", query=f"sum:trace.http.request.hits{{service:{svc}}}"),
                Widget(title="Errors", kind="query_value", query=f"sum:trace.http.request.errors{{service:{svc}}}"),
            ],
            author_email=s.rng.choice(staff),
        )
