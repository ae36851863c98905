"""Sift Logs: log management with indexes and retention, log search, saved views and log-based alert rules.

Modeled on the Datadog Logs API v2 (Indexes with ``filter.query``,
``num_retention_days`` and ``daily_limit``, ``/logs/events/search``,
``/logs/analytics/aggregate``, Saved views) and Elastic/Kibana log threshold
alerting rules (count of matching documents over a time window, evaluated on
a schedule, with an alert history): a log goes to the first index whose
filter matches it and is dropped once that index's daily quota is reached;
logs older than 18 hours or in the future are refused; retention is one of the
allowed periods and a search cannot reach past the retention of the indexes
it reads; queries use ``key:value`` terms, ``-`` to negate and free text; an
alert rule's window cannot exceed its index's retention and evaluating it
moves it between OK and Alert, notifying its recipients unless it is muted.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Quantity, Text, Title
from compoworld.services.kit.examples import first_example, fixed_example
from compoworld.services.kit.records import Created, Value

__all__ = ["service"]

service = Service(
    "logs",
    title="Sift Logs",
    category="monitoring",
    modeled_on="Datadog Logs API v2 (Indexes, Log search, Aggregate, Saved views) / Elastic Kibana log threshold rules",
    description="Centralised application logs: indexes that route logs and keep them for a retention period "
    "under a daily quota, full-text and faceted search, aggregations, saved views, and log-count alert rules "
    "evaluated on demand with their history.",
)

IndexId = Annotated[str, IdOf("logs.index")]
LogId = Annotated[str, IdOf("logs.log")]
ViewId = Annotated[str, IdOf("logs.saved_view")]
RuleId = Annotated[str, IdOf("logs.alert_rule")]
EvaluationId = Annotated[str, IdOf("logs.evaluation")]

IndexName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_-]{0,39}$")]
ServiceName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_.-]{0,59}$")]
Host = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9.-]{0,99}$")]
Query = Annotated[str, StringConstraints(max_length=500)]
LogStatus = Literal["debug", "info", "warn", "error", "critical"]
Env = Literal["production", "staging"]
RETENTIONS: tuple[int, ...] = (3, 7, 15, 30, 45, 60, 90, 180, 360)
MAX_AGE_HOURS = 18
QUERY_KEYS: tuple[str, ...] = ("service", "status", "host", "env", "user", "http_status")


class Index(Created):
    """A log index: which logs it keeps (filter), for how long and how many per day."""

    id: IndexId
    name: IndexName
    """Index name; unique."""
    filter_query: Query = ""
    """Query a log must match to go to this index; empty matches every log."""
    position: Quantity
    """Order in which indexes are tried; a log goes to the first match."""
    retention_days: Annotated[int, Field(ge=3, le=360)] = 15
    """Days logs are kept: 3, 7, 15, 30, 45, 60, 90, 180 or 360."""
    daily_limit: Annotated[int, Field(ge=1, le=10**9)] | None = None
    """Logs accepted per UTC day; further logs are dropped. Null: no limit."""


class Log(Record):
    """One log event."""

    id: LogId
    index_id: IndexId
    """The index it was stored in."""
    timestamp: DateTime
    """When it happened."""
    service: ServiceName
    """Application that logged it."""
    host: Host
    """Host it came from."""
    status: LogStatus
    """debug, info, warn, error or critical."""
    env: Env = "production"
    """Environment."""
    message: Text
    """The log line."""
    http_status: Annotated[int, Field(ge=100, le=599)] | None = None
    """HTTP status of the request, if any."""
    duration_ms: Annotated[int, Field(ge=0, le=3_600_000)] | None = None
    """Request duration in milliseconds, if any."""
    user_email: Email | None = None
    """E-mail of the end user of the request, if known."""


class LogInput(Value):
    """A log event to ingest."""

    service: ServiceName = Field(description="Application name.")
    host: Host = Field(description="Host name.")
    status: LogStatus = Field(description="debug, info, warn, error or critical.")
    message: Text = Field(description="The log line.")
    env: Env = Field(default="production", description="production or staging.")
    timestamp: DateTime | None = Field(default=None, description="When it happened; omit for now.")
    http_status: Annotated[int, Field(ge=100, le=599)] | None = Field(default=None, description="HTTP status.")
    duration_ms: Annotated[int, Field(ge=0, le=3_600_000)] | None = Field(default=None, description="Duration (ms).")
    user_email: Email | None = Field(default=None, description="E-mail of the end user.")


class SavedView(Record):
    """A saved log search."""

    id: ViewId
    name: Title
    """View name; unique per owner."""
    query: Query
    """The search query."""
    index_names: tuple[IndexName, ...] = ()
    """Indexes searched; empty means all."""
    owner_email: Email
    """E-mail of the employee who saved it."""
    shared: bool = False
    """Whether the whole team sees it."""
    created_at: Annotated[DateTime, CREATED]
    """When it was saved."""


class AlertRule(Record):
    """A log threshold rule: alert when the number of matching logs in a window crosses a threshold."""

    id: RuleId
    name: Title
    """Rule name."""
    index_id: IndexId
    """Index searched."""
    query: Query
    """Logs counted."""
    comparator: Literal[">", ">=", "<", "<="] = ">"
    """How the count compares to the threshold."""
    threshold: Annotated[int, Field(ge=0, le=10**9)]
    """The count that triggers."""
    window_minutes: Annotated[int, Field(ge=1, le=10080)] = 15
    """Length of the evaluated window, ending now."""
    notify_emails: tuple[Email, ...] = ()
    """Who is notified when it starts alerting."""
    muted: bool = False
    """Muted rules change state but notify nobody."""
    state: Literal["ok", "alert", "no_data"] = "no_data"
    """State after the last evaluation."""
    last_evaluated_at: DateTime | None = None
    """When it was last evaluated."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Evaluation(Record):
    """One evaluation of an alert rule."""

    id: EvaluationId
    rule_id: RuleId
    """The rule."""
    count: Quantity
    """Matching logs in the window."""
    state: Literal["ok", "alert"]
    """Resulting state."""
    changed: bool
    """Whether the state changed."""
    notified: tuple[Email, ...] = ()
    """Who was notified."""
    evaluated_at: Annotated[DateTime, CREATED]
    """When it ran."""


# -- queries ----------------------------------------------------------------------------------

Matcher = Callable[[Log], bool]


def _term(key: str, value: str, field: str) -> Matcher:
    if key == "http_status":
        for op in (">=", "<=", ">", "<"):
            if value.startswith(op):
                try:
                    n = int(value[len(op) :])
                except ValueError:
                    break
                cmp = {">=": int.__ge__, "<=": int.__le__, ">": int.__gt__, "<": int.__lt__}[op]
                return lambda log: log.http_status is not None and cmp(log.http_status, n)
        try:
            n = int(value)
        except ValueError:
            raise RuleViolation(
                f"http_status needs a number, got {value!r}",
                field=field,
                hint="e.g. http_status:500 or http_status:>=500",
            ) from None
        return lambda log: log.http_status == n
    attr = "user_email" if key == "user" else key
    wanted = value.lower()
    if wanted.endswith("*"):
        prefix = wanted[:-1]
        return lambda log: str(getattr(log, attr) or "").lower().startswith(prefix)
    return lambda log: str(getattr(log, attr) or "").lower() == wanted


_TOKEN = re.compile(r'(-?)(?:"([^"]*)"|([^\s"]+))')


def _contains(text: str) -> Matcher:
    return lambda log: text in log.message.lower()


def parse_query(query: str, field: str = "query") -> Matcher:
    """Compile a query (``service:checkout status:error -host:web-1 "timed out"``) into a predicate.

    Terms are ANDed; the same key repeated is ORed; ``-`` negates a term; a
    value ending in ``*`` is a prefix; free words match the message.
    """
    if query.count('"') % 2:
        raise RuleViolation("the query has an unclosed quote", field=field, hint="close every quote")
    by_key: dict[str, list[Matcher]] = {}
    negated: list[Matcher] = []
    texts: list[str] = []
    for tok in _TOKEN.finditer(query):
        neg = tok.group(1) == "-"
        quoted = tok.group(2) is not None
        body = tok.group(2) if quoted else tok.group(3)
        if not body:
            continue
        if not quoted and ":" in body:
            key, value = body.split(":", 1)
            if key not in QUERY_KEYS:
                raise RuleViolation(
                    f"unknown query key {key!r}",
                    field=field,
                    hint=f"use {', '.join(QUERY_KEYS)}, or free text for the message",
                )
            if not value:
                raise RuleViolation(f"{key}: needs a value", field=field, hint=f"e.g. {key}:something")
            m = _term(key, value, field)
            (negated if neg else by_key.setdefault(key, [])).append(m)
        else:
            low = body.lower()
            if neg:
                negated.append(_contains(low))
            else:
                texts.append(low)

    def match(log: Log) -> bool:
        msg = log.message.lower()
        return (
            all(any(m(log) for m in ms) for ms in by_key.values())
            and not any(m(log) for m in negated)
            and all(t in msg for t in texts)
        )

    return match


def _check_retention(days: int, field: str) -> None:
    if days not in RETENTIONS:
        raise RuleViolation(
            f"{days} days is not an available retention",
            field=field,
            hint=f"pick one of {', '.join(str(r) for r in RETENTIONS)}",
        )


def _guard_index(ctx: Ctx, new: Any, old: Any) -> None:
    if any(i.id != new.id and i.name == new.name for i in ctx.scan(Index)):
        raise Conflict(f"an index named {new.name} exists", field="name", hint="pick another name")
    _check_retention(new.retention_days, "retention_days")
    parse_query(new.filter_query, "filter_query")


def _guard_view(ctx: Ctx, new: Any, old: Any) -> None:
    parse_query(new.query)
    names = {i.name for i in ctx.scan(Index)}
    missing = [n for n in new.index_names if n not in names]
    if missing:
        raise RuleViolation(
            f"no index named {missing[0]}", field="index_names", hint="list indexes with logs__list_indexes"
        )
    if any(v.id != new.id and v.name == new.name for v in ctx.where(SavedView, owner_email=new.owner_email)):
        raise Conflict(
            f"{new.owner_email} already has a view named {new.name!r}", field="name", hint="pick another name"
        )


def _guard_rule(ctx: Ctx, new: Any, old: Any) -> None:
    index = ctx.get(Index, new.index_id, field="index_id")
    parse_query(new.query)
    if new.window_minutes > index.retention_days * 24 * 60:
        raise RuleViolation(
            f"a {new.window_minutes}-minute window reaches past the {index.retention_days}-day retention of {index.name}",
            field="window_minutes",
            hint="shorten the window or raise the index's retention",
        )


indexes = service.resource(
    Index,
    name="index",
    plural="indexes",
    prefix="idx",
    create=False,
    get=False,
    filters=("name", "retention_days"),
    update=("filter_query", "retention_days", "daily_limit"),
    delete=False,
    guard_update=_guard_index,
    title="log index",
)
logs = service.resource(
    Log,
    name="log",
    plural="logs",
    prefix="log",
    create=False,
    filters=None,
    delete=False,
    title="log event",
)
views = service.resource(
    SavedView,
    name="saved_view",
    plural="saved_views",
    prefix="view",
    create=("name", "query", "index_names", "owner_email", "shared"),
    get=False,
    filters=("owner_email", "shared"),
    search=("name", "query"),
    guard_create=_guard_view,
    title="saved view",
)
rules = service.resource(
    AlertRule,
    name="alert_rule",
    plural="alert_rules",
    prefix="rule",
    create=("name", "index_id", "query", "comparator", "threshold", "window_minutes", "notify_emails"),
    filters=("index_id", "state", "muted"),
    search=("name", "query"),
    update=("query", "comparator", "threshold", "window_minutes", "notify_emails", "muted"),
    guard_create=_guard_rule,
    guard_update=_guard_rule,
    title="log alert rule",
)
evaluations = service.resource(
    Evaluation,
    name="evaluation",
    plural="evaluations",
    prefix="eval",
    create=False,
    get=False,
    filters=("rule_id", "state", "changed"),
    delete=False,
    title="alert evaluation",
)


# -- examples ---------------------------------------------------------------------------------


def _example_search(ctx: Ctx) -> dict[str, Any]:
    now = ctx.now()
    return {"query": "status:error", "from_time": (now - dt.timedelta(days=2)).isoformat(), "to_time": now.isoformat()}


def _example_aggregate(ctx: Ctx) -> dict[str, Any]:
    return {**_example_search(ctx), "group_by": "service"}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(
    intent="create a log index",
    write=True,
    example=fixed_example(name="audit", filter_query="service:auth", retention_days=90, daily_limit=100000),
)
def create_index(
    ctx: Ctx,
    name: IndexName,
    filter_query: Query = "",
    retention_days: Annotated[int, Field(ge=3, le=360)] = 15,
    daily_limit: Annotated[int, Field(ge=1, le=10**9)] | None = None,
) -> Index:
    """Create an index after the existing ones (a log goes to the first index whose filter matches).

    Args:
        name: Index name (lower case), unique.
        filter_query: Logs it keeps; empty keeps every log not taken by an earlier index.
        retention_days: 3, 7, 15, 30, 45, 60, 90, 180 or 360.
        daily_limit: Logs accepted per UTC day; omit for no limit.
    """
    if ctx.first(Index, name=name) is not None:
        raise Conflict(f"an index named {name} exists", field="name", hint="pick another name")
    _check_retention(retention_days, "retention_days")
    parse_query(filter_query, "filter_query")
    position = max((i.position for i in ctx.scan(Index)), default=0) + 1
    return ctx.create(
        Index,
        name=name,
        filter_query=filter_query,
        position=position,
        retention_days=retention_days,
        daily_limit=daily_limit,
    )


class IngestResult(BaseModel):
    """What happened to a batch of logs."""

    accepted: int = Field(description="Logs stored.")
    dropped_over_quota: int = Field(description="Logs dropped because their index's daily limit was reached.")
    unrouted: int = Field(description="Logs no index filter matched (dropped).")
    by_index: dict[str, int] = Field(description="Logs stored per index name.")
    log_ids: list[LogId] = Field(description="Ids of the stored logs, in input order.")


def _routed(ctx: Ctx) -> list[tuple[Index, Matcher]]:
    return [(i, parse_query(i.filter_query)) for i in sorted(ctx.scan(Index), key=lambda i: (i.position, i.id))]


def _route(routes: list[tuple[Index, Matcher]], values: dict[str, Any]) -> Index | None:
    """The first index whose filter matches a log with these fields (None: the log is dropped)."""
    probe = Log.model_construct(id="", index_id="", **values)
    return next((idx for idx, m in routes if m(probe)), None)


def _day_count(ctx: Ctx, index_id: str, day: dt.date) -> int:
    return sum(1 for log in ctx.where(Log, index_id=index_id) if log.timestamp.date() == day)


@service.tool(
    intent="send logs",
    write=True,
    example=fixed_example(
        logs=[
            {
                "service": "checkout",
                "host": "web-1",
                "status": "error",
                "message": "payment declined",
                "http_status": 502,
                "user_email": "shopper@example.com",
            },
            {"service": "api", "host": "api-2", "status": "info", "message": "GET /orders 200", "http_status": 200},
        ]
    ),
)
def ingest_logs(ctx: Ctx, logs: Annotated[list[LogInput], Field(min_length=1, max_length=100)]) -> IngestResult:
    """Send a batch of logs; each goes to the first index whose filter matches it.

    A log is dropped when that index reached its daily limit for the log's
    day, or when no index matches. Logs more than 18 hours old or in the
    future are refused.

    Args:
        logs: The log events.
    """
    now = ctx.now()
    for k, item in enumerate(logs):
        ts = item.timestamp or now
        if ts > now:
            raise RuleViolation(f"log {k} is in the future", field=f"logs.{k}.timestamp", hint="send past events")
        if ts < now - dt.timedelta(hours=MAX_AGE_HOURS):
            raise RuleViolation(
                f"log {k} is more than {MAX_AGE_HOURS} hours old",
                field=f"logs.{k}.timestamp",
                hint="only logs from the last 18 hours are accepted",
            )
    routes = _routed(ctx)
    accepted = dropped = unrouted = 0
    by_index: dict[str, int] = {}
    ids: list[str] = []
    for item in logs:
        values = item.model_dump()
        values["timestamp"] = item.timestamp or now
        target = _route(routes, values)
        if target is None:
            unrouted += 1
            continue
        if (
            target.daily_limit is not None
            and _day_count(ctx, target.id, values["timestamp"].date()) >= target.daily_limit
        ):
            dropped += 1
            continue
        log = ctx.create(Log, index_id=target.id, **values)
        accepted += 1
        by_index[target.name] = by_index.get(target.name, 0) + 1
        ids.append(log.id)
    return IngestResult(
        accepted=accepted, dropped_over_quota=dropped, unrouted=unrouted, by_index=by_index, log_ids=ids
    )


def _scope(ctx: Ctx, from_time: dt.datetime, to_time: dt.datetime, index_names: list[str] | None) -> list[Index]:
    if to_time <= from_time:
        raise RuleViolation("to_time is not after from_time", field="to_time", hint="give a later end")
    chosen = list(ctx.scan(Index))
    if index_names:
        chosen = []
        for name in index_names:
            idx = ctx.first(Index, name=name)
            if idx is None:
                raise NotFound(
                    f"no index named {name}", field="index_names", hint="list indexes with logs__list_indexes"
                )
            chosen.append(idx)
    horizon = ctx.now() - dt.timedelta(days=min(i.retention_days for i in chosen))
    if from_time < horizon:
        raise RuleViolation(
            f"from_time is before {horizon:%Y-%m-%d %H:%M}, beyond the retention of the searched indexes",
            field="from_time",
            hint="search a shorter range or only indexes with a longer retention (index_names)",
        )
    return chosen


def _matching(ctx: Ctx, query: str, from_time: dt.datetime, to_time: dt.datetime, chosen: list[Index]) -> list[Log]:
    match = parse_query(query)
    found = [
        log
        for idx in chosen
        for log in ctx.where(Log, index_id=idx.id)
        if from_time <= log.timestamp < to_time and match(log)
    ]
    found.sort(key=lambda log: (log.timestamp, log.id), reverse=True)
    return found


class SearchResult(BaseModel):
    """Logs matching a search, newest first."""

    total: int = Field(description="Number of matching logs.")
    logs: list[Log] = Field(description="The newest matching logs, up to the limit.")


@service.tool(intent="search the logs", example=_example_search)
def search_logs(
    ctx: Ctx,
    query: Query,
    from_time: DateTime,
    to_time: DateTime,
    index_names: list[IndexName] | None = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 25,
) -> SearchResult:
    """Search logs in a time range, newest first.

    Query syntax: key:value terms (service, status, host, env, user,
    http_status with >, >=, <, <=), a value ending in * is a prefix, a leading
    - negates, repeated keys are ORed, free words must appear in the message.
    The range cannot reach past the retention of the indexes searched.

    Args:
        query: The query; empty matches everything.
        from_time: Start of the range.
        to_time: End of the range (exclusive).
        index_names: Indexes to search; omit for all.
        limit: How many logs to return.
    """
    chosen = _scope(ctx, from_time, to_time, index_names)
    found = _matching(ctx, query, from_time, to_time, chosen)
    return SearchResult(total=len(found), logs=found[:limit])


class Bucket(BaseModel):
    """One group of an aggregation."""

    key: str = Field(description="The group's value.")
    count: int = Field(description="Logs in it.")
    errors: int = Field(description="Of which status error or critical.")


class Aggregation(BaseModel):
    """Counts of matching logs by a facet."""

    group_by: str = Field(description="The facet.")
    total: int = Field(description="Matching logs.")
    buckets: list[Bucket] = Field(description="Groups, largest first.")


@service.tool(intent="count the logs by a facet", example=_example_aggregate)
def aggregate_logs(
    ctx: Ctx,
    query: Query,
    from_time: DateTime,
    to_time: DateTime,
    group_by: Literal["service", "status", "host", "env", "user_email", "http_status"],
    index_names: list[IndexName] | None = None,
) -> Aggregation:
    """Count the logs matching a query in a time range, grouped by a facet.

    Args:
        query: The query (see logs__search_logs).
        from_time: Start of the range.
        to_time: End of the range (exclusive).
        group_by: The facet to group by.
        index_names: Indexes to search; omit for all.
    """
    chosen = _scope(ctx, from_time, to_time, index_names)
    found = _matching(ctx, query, from_time, to_time, chosen)
    groups: dict[str, list[Log]] = {}
    for log in found:
        groups.setdefault(str(getattr(log, group_by)), []).append(log)
    buckets = [
        Bucket(key=k, count=len(v), errors=sum(1 for x in v if x.status in ("error", "critical")))
        for k, v in groups.items()
    ]
    buckets.sort(key=lambda b: (-b.count, b.key))
    return Aggregation(group_by=group_by, total=len(found), buckets=buckets)


@service.tool(intent="open the saved view", example=first_example(SavedView, "saved_view_id", hours=24))
def run_saved_view(ctx: Ctx, saved_view_id: ViewId, hours: Annotated[int, Field(ge=1, le=720)] = 24) -> SearchResult:
    """Run a saved view's query over the last hours, on its indexes.

    Args:
        saved_view_id: The saved view.
        hours: How far back to look.
    """
    view = ctx.get(SavedView, saved_view_id, field="saved_view_id")
    now = ctx.now()
    start = now - dt.timedelta(hours=hours)
    try:
        chosen = _scope(ctx, start, now, list(view.index_names) or None)
    except RuleViolation as exc:
        raise RuleViolation(exc.message, field="hours", hint="look back fewer hours") from None
    found = _matching(ctx, view.query, start, now, chosen)
    return SearchResult(total=len(found), logs=found[:25])


def _compare(count: int, comparator: str, threshold: int) -> bool:
    return {">": count > threshold, ">=": count >= threshold, "<": count < threshold, "<=": count <= threshold}[
        comparator
    ]


@service.tool(intent="evaluate the log alert rule", write=True, example=first_example(AlertRule, "alert_rule_id"))
def evaluate_alert_rule(ctx: Ctx, alert_rule_id: RuleId) -> Evaluation:
    """Count the rule's matching logs in its window (ending now) and update its state.

    When the rule starts alerting, its recipients are notified unless it is muted.

    Args:
        alert_rule_id: The rule.
    """
    rule = ctx.get(AlertRule, alert_rule_id, field="alert_rule_id")
    now = ctx.now()
    start = now - dt.timedelta(minutes=rule.window_minutes)
    match = parse_query(rule.query)
    count = sum(1 for log in ctx.where(Log, index_id=rule.index_id) if start <= log.timestamp < now and match(log))
    state: Literal["ok", "alert"] = "alert" if _compare(count, rule.comparator, rule.threshold) else "ok"
    changed = state != rule.state
    notified = rule.notify_emails if state == "alert" and changed and not rule.muted else ()
    ctx.update(rule, state=state, last_evaluated_at=now)
    return ctx.create(Evaluation, rule_id=rule.id, count=count, state=state, changed=changed, notified=notified)


# -- seed -------------------------------------------------------------------------------------

SERVICES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("checkout", "web", ("POST /checkout", "payment declined", "card authorised", "gateway timeout")),
    ("api", "api", ("GET /orders", "GET /products", "rate limit exceeded", "POST /webhooks")),
    ("auth", "auth", ("login succeeded", "login failed: bad password", "token refreshed", "MFA challenge sent")),
    ("billing", "worker", ("invoice generated", "dunning e-mail sent", "charge failed", "invoice paid")),
    ("search", "search", ("query served", "index rebuilt", "slow query", "cache miss")),
)


@service.seeder
def seed(s: SeedContext) -> None:
    """Indexes with different retentions and quotas, two days of logs of the company's services, views, rules."""
    pop = s.population
    indexes = _seed_indexes(s)
    _seed_logs(s, indexes, [p.email for p in pop.consumers])
    staff = [p.email for p in pop.staff("Engineering", fallback=1)]
    _seed_saved_views(s, staff)
    _seed_alert_rules(s, {i.name: i for i in indexes}, staff)


def _seed_indexes(s: SeedContext) -> list[Index]:
    """The indexes in routing order: security, errors, main and a catch-all staging index."""
    created = s.ago(days=200)
    return [
        s.create(
            Index, name="security", filter_query="service:auth", position=1, retention_days=90, created_at=created
        ),
        s.create(
            Index,
            name="errors",
            filter_query="status:error status:critical",
            position=2,
            retention_days=30,
            created_at=created,
        ),
        s.create(
            Index,
            name="main",
            filter_query="env:production",
            position=3,
            retention_days=7,
            daily_limit=5000,
            created_at=created,
        ),
        s.create(
            Index, name="staging", filter_query="", position=4, retention_days=3, daily_limit=60, created_at=created
        ),
    ]


def _seed_logs(s: SeedContext, indexes: list[Index], users: list[str]) -> None:
    """A log every four minutes for a day, round the services, routed as ingestion would."""
    rng, now = s.rng, s.now
    routes = [(i, parse_query(i.filter_query)) for i in indexes]
    for k in range(360):
        svc, host_prefix, messages = SERVICES[k % len(SERVICES)]
        msg = messages[(k // len(SERVICES)) % len(messages)]
        bad = any(w in msg for w in ("declined", "timeout", "failed", "exceeded", "slow"))
        status: LogStatus = ("error" if k % 3 else "warn") if bad else ("info" if k % 11 else "debug")
        if "timeout" in msg and k % 4 == 0:
            status = "critical"
        http = None
        if msg.startswith(("GET", "POST")):
            http = 200 if not bad else 429
        elif svc == "checkout":
            http = 502 if bad else 201
        ts = now - dt.timedelta(minutes=4 * k + rng.randint(0, 3))
        values: dict[str, Any] = dict(
            timestamp=ts,
            service=svc,
            host=f"{host_prefix}-{1 + k % 3}",
            status=status,
            env="staging" if k % 10 == 9 else "production",
            message=msg,
            http_status=http,
            duration_ms=rng.randint(5, 900) if http else None,
            user_email=users[k % len(users)] if svc in ("checkout", "auth", "billing") and k % 2 == 0 else None,
        )
        target = _route(routes, values)
        if target is not None:  # always: the staging index takes every log
            s.create(Log, index_id=target.id, **values)


def _seed_saved_views(s: SeedContext, staff: list[str]) -> None:
    for k, (name, query, idx_names, shared) in enumerate(
        (
            ("Checkout failures", "service:checkout status:error", ("errors",), True),
            ("Failed logins", '"login failed"', ("security",), True),
            ("Slow API requests", "service:api -http_status:200", (), False),
        )
    ):
        s.create(
            SavedView,
            name=name,
            query=query,
            index_names=idx_names,
            owner_email=staff[k % len(staff)],
            shared=shared,
            created_at=s.ago(days=20 - k),
        )


def _seed_alert_rules(s: SeedContext, indexes: dict[str, Index], staff: list[str]) -> None:
    """Two rules evaluated an hour ago, both ok, and a muted one never evaluated."""
    s.create(
        AlertRule,
        name="Checkout error spike",
        index_id=indexes["errors"].id,
        query="service:checkout",
        comparator=">",
        threshold=5,
        window_minutes=120,
        notify_emails=tuple(staff[:2]),
        state="ok",
        last_evaluated_at=s.ago(hours=1),
        updated_at=s.ago(days=3),
    )
    s.create(
        AlertRule,
        name="Brute-force logins",
        index_id=indexes["security"].id,
        query='"login failed"',
        comparator=">=",
        threshold=50,
        window_minutes=60,
        notify_emails=tuple(staff[1:3]),
        state="ok",
        last_evaluated_at=s.ago(hours=1),
        updated_at=s.ago(days=3),
    )
    s.create(
        AlertRule,
        name="No billing activity",
        index_id=indexes["main"].id,
        query="service:billing",
        comparator="<",
        threshold=1,
        window_minutes=30,
        notify_emails=tuple(staff[:1]),
        muted=True,
        updated_at=s.ago(days=3),
    )
