"""Lenswork BI: the home company's business intelligence with data sources, saved questions and dashboards.

Modeled on the Metabase API (Databases with sync, Tables, Cards i.e. saved
questions in the query builder or native SQL, Dashboards with dashcards on a
24-column grid, Dashboard Subscriptions (pulses) with schedules and approved
e-mail domains, public sharing links) with Looker's scheduled plans: only
analysts and admins write native SQL, questions run only on active data
sources, a structured question sums or averages only numeric columns of its
own source's tables, dashcards fit the 24-column grid without overlapping,
archived questions leave their dashboards and cannot be added or run,
subscriptions need a dashboard with cards, recipients who are active users or
on the company's domain, and a weekday exactly when weekly.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, RuleViolation
from compoworld.engine.records import CREATED, UPDATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import (
    CompanyName,
    Country,
    Date,
    DateTime,
    Email,
    IdOf,
    PersonName,
    Quantity,
    Sku,
    Text,
    Title,
    Url,
)
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Value
from compoworld.services.kit.time import add_months
from compoworld.world.org import is_lead

__all__ = ["service"]

service = Service(
    "bidash",
    title="Lenswork BI",
    category="analytics",
    modeled_on="Metabase API (Databases and sync, Tables, Cards, Dashboards and dashcards, Dashboard "
    "Subscriptions, public links) with Looker scheduled plans",
    description="Business intelligence over the company's databases: connected data sources and their "
    "tables, saved questions (query builder or SQL) and their results, dashboards laid out on a grid, "
    "public links, and scheduled e-mail subscriptions that deliver dashboards.",
)

UserId = Annotated[str, IdOf("bidash.user")]
SourceId = Annotated[str, IdOf("bidash.data_source")]
TableId = Annotated[str, IdOf("bidash.table")]
QuestionId = Annotated[str, IdOf("bidash.question")]
DashboardId = Annotated[str, IdOf("bidash.dashboard")]
DashcardId = Annotated[str, IdOf("bidash.dashcard")]
SubscriptionId = Annotated[str, IdOf("bidash.subscription")]
ColumnName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,39}$")]
Aggregation = Literal["count", "sum", "avg", "distinct"]
GroupBy = Literal["none", "day", "month", "product", "country", "customer"]
Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
GRID = 24


class User(Record):
    """A person who uses the BI tool."""

    id: UserId
    name: PersonName
    """Full name."""
    email: Email
    """Sign-in e-mail; unique."""
    role: Literal["admin", "analyst", "viewer"] = "viewer"
    """admin (everything), analyst (also native SQL) or viewer (query builder only)."""
    active: bool = True
    """Deactivated users receive no subscriptions."""


class DataSource(Record):
    """A connected database."""

    id: SourceId
    name: Title
    """Display name."""
    engine: Literal["postgres", "mysql", "bigquery", "snowflake"]
    """Database engine."""
    host: Annotated[str, StringConstraints(pattern=r"^[a-z0-9.-]{3,120}$")]
    """Host name of the database."""
    status: Literal["active", "sync_failed", "disabled"] = "active"
    """active (queryable), sync_failed (schema sync broke; not queryable) or disabled."""
    owner_email: Email
    """E-mail of the person responsible for the connection."""
    last_synced_at: DateTime | None = None
    """When its schema was last synced."""


class Column(Value):
    """A column of a table."""

    name: ColumnName = Field(description="Column name.")
    type: Literal["number", "text", "date", "money"] = Field(description="Kind of values.")


class Table(Record):
    """A table of a data source, as found by the last sync."""

    id: TableId
    source_id: SourceId
    """The data source."""
    name: ColumnName
    """Table name."""
    display_name: Title
    """Human name."""
    row_count: Quantity
    """Rows at the last sync."""
    columns: tuple[Column, ...]
    """Its columns."""


class Question(Record):
    """A saved question (card): a query and how to show its result."""

    id: QuestionId
    name: Title
    """Question name."""
    source_id: SourceId
    """The data source it queries."""
    kind: Literal["structured", "native"]
    """structured (query builder on a table) or native (SQL)."""
    table_id: TableId | None = None
    """Structured: the table."""
    aggregation: Aggregation = "count"
    """Structured: count rows, or sum / average / count distinct values of a column."""
    column: ColumnName | None = None
    """Structured: the column aggregated (not for count)."""
    group_by: GroupBy = "none"
    """How the result is broken down."""
    sql: Text | None = None
    """Native: the SQL."""
    display: Literal["table", "bar", "line", "number", "pie"] = "table"
    """Visualization."""
    owner_email: Email
    """E-mail of the creator."""
    archived: bool = False
    """Archived questions are off dashboards and do not run."""
    created_at: Annotated[DateTime, CREATED]
    """When it was saved."""
    updated_at: Annotated[DateTime, UPDATED]
    """When it last changed."""


class Dashboard(Created):
    """A dashboard of questions."""

    id: DashboardId
    name: Title
    """Dashboard name."""
    description: Text = ""
    """What it shows."""
    owner_email: Email
    """E-mail of the creator."""
    public_url: Url | None = None
    """Public sharing link, if shared."""


class Dashcard(Record):
    """A question placed on a dashboard's 24-column grid."""

    id: DashcardId
    dashboard_id: DashboardId
    """The dashboard."""
    question_id: QuestionId
    """The question shown."""
    col: Annotated[int, Field(ge=0, le=GRID - 1)]
    """Left column (0-23)."""
    row: Annotated[int, Field(ge=0, le=1000)]
    """Top row."""
    size_x: Annotated[int, Field(ge=1, le=GRID)]
    """Width in columns."""
    size_y: Annotated[int, Field(ge=1, le=40)]
    """Height in rows."""


class Subscription(Record):
    """A scheduled e-mail delivery of a dashboard."""

    id: SubscriptionId
    dashboard_id: DashboardId
    """The dashboard delivered."""
    recipients: tuple[Email, ...]
    """Who gets it."""
    schedule: Literal["hourly", "daily", "weekly", "monthly"]
    """How often."""
    hour: Annotated[int, Field(ge=0, le=23)] = 8
    """Hour of the day it goes out (UTC); ignored for hourly."""
    day_of_week: Weekday | None = None
    """Weekday of a weekly subscription."""
    format: Literal["inline", "csv", "pdf"] = "inline"
    """How results are attached."""
    creator_email: Email
    """Who set it up."""
    enabled: bool = True
    """Disabled subscriptions send nothing."""


class Delivery(Record):
    """One e-mail a subscription sent."""

    id: Annotated[str, IdOf("bidash.delivery")]
    subscription_id: SubscriptionId
    """The subscription."""
    dashboard_id: DashboardId
    """The dashboard."""
    recipient: Email
    """Who got it."""
    cards: Quantity
    """Questions included."""
    sent_at: Annotated[DateTime, CREATED]
    """When it was sent."""


# -- rules ------------------------------------------------------------------------------------


def _user(ctx: Ctx, email: str, field: str) -> User:
    u = ctx.first(User, email=email)
    if u is None or not u.active:
        raise RuleViolation(
            f"{email} is not an active user of the BI tool",
            field=field,
            hint="use the e-mail of an active user (bidash__list_users)",
        )
    return u


def _queryable(source: DataSource, field: str) -> None:
    if source.status != "active":
        raise RuleViolation(
            f"data source {source.name} is {source.status}",
            field=field,
            hint="sync it with bidash__sync_data_source or enable it first",
        )


def _check_question(ctx: Ctx, q: Question, field_prefix: str = "") -> None:
    source = ctx.get(DataSource, q.source_id, field="source_id")
    if source.status == "disabled":
        raise RuleViolation(f"data source {source.name} is disabled", field="source_id", hint="enable it first")
    if q.kind == "native":
        if not (q.sql or "").strip():
            raise RuleViolation("a native question needs SQL", field="sql", hint="write the query")
        if q.table_id is not None or q.column is not None:
            raise RuleViolation("native questions name no table or column", field="table_id", hint="leave them empty")
        return
    if q.sql is not None:
        raise RuleViolation("structured questions take no SQL", field="sql", hint="use kind 'native' for SQL")
    if q.table_id is None:
        raise RuleViolation("a structured question needs a table", field="table_id", hint="pick a table of the source")
    table = ctx.get(Table, q.table_id, field="table_id")
    if table.source_id != source.id:
        raise RuleViolation(
            f"table {table.name} belongs to another data source",
            field="table_id",
            hint=f"pick a table of {source.name} (bidash__list_tables)",
        )
    if q.aggregation == "count":
        if q.column is not None:
            raise RuleViolation("count takes no column", field="column", hint="leave column empty")
        return
    col = next((c for c in table.columns if c.name == q.column), None)
    if col is None:
        raise RuleViolation(
            f"table {table.name} has no column {q.column}",
            field="column",
            hint=f"columns: {', '.join(c.name for c in table.columns)}",
        )
    if q.aggregation in ("sum", "avg") and col.type not in ("number", "money"):
        raise RuleViolation(
            f"{q.aggregation} needs a numeric column; {col.name} is {col.type}",
            field="column",
            hint="use count or distinct, or a number column",
        )


def _guard_question_update(ctx: Ctx, new: Any, old: Any) -> None:
    if old.archived and new.archived:
        raise RuleViolation(f"question {old.name} is archived", field="question_id", hint="unarchive it first")
    _check_question(ctx, new)


def _overlap(a: Dashcard | dict[str, int], b: Dashcard) -> bool:
    ax, ay, aw, ah = (
        (a["col"], a["row"], a["size_x"], a["size_y"]) if isinstance(a, dict) else (a.col, a.row, a.size_x, a.size_y)
    )
    return ax < b.col + b.size_x and b.col < ax + aw and ay < b.row + b.size_y and b.row < ay + ah


def _check_subscription(ctx: Ctx, sub: Subscription) -> None:
    if not ctx.where(Dashcard, dashboard_id=sub.dashboard_id):
        raise RuleViolation(
            "the dashboard has no cards to deliver", field="dashboard_id", hint="add questions to it first"
        )
    if not sub.recipients:
        raise RuleViolation("a subscription needs recipients", field="recipients", hint="give e-mail addresses")
    domain = ctx.population.home.domain
    for k, email in enumerate(sub.recipients):
        u = ctx.first(User, email=email)
        if u is not None and not u.active:
            raise RuleViolation(f"{email} is deactivated", field=f"recipients.{k}", hint="remove deactivated users")
        if u is None and not email.endswith("@" + domain):
            raise RuleViolation(
                f"{email} is neither a user nor on the approved domain {domain}",
                field=f"recipients.{k}",
                hint=f"subscriptions go to users or addresses @{domain}",
            )
    if (sub.schedule == "weekly") != (sub.day_of_week is not None):
        raise RuleViolation(
            "weekly subscriptions, and only they, need a day_of_week",
            field="day_of_week",
            hint="set day_of_week for weekly, leave it empty otherwise",
        )


def _guard_user(ctx: Ctx, new: Any, old: Any) -> None:
    demoted = old.role == "admin" and (new.role != "admin" or not new.active)
    if demoted and not any(u.id != old.id and u.active for u in ctx.where(User, role="admin")):
        raise RuleViolation(f"{old.name} is the last active admin", field="role", hint="make someone else admin first")


users = service.resource(
    User,
    name="user",
    plural="users",
    prefix="usr",
    create=False,
    get=False,
    filters=("email", "role", "active"),
    search=("name", "email"),
    update=("role", "active"),
    delete=False,
    guard_update=_guard_user,
)
sources = service.resource(
    DataSource,
    name="data_source",
    plural="data_sources",
    prefix="db",
    create=False,
    get=False,
    filters=("engine", "status", "owner_email"),
    search=("name", "host"),
    delete=False,
    transitions={
        "disable": Transition("status", ("active", "sync_failed"), "disabled", "disable the data source"),
        "enable": Transition("status", ("disabled",), "sync_failed", "enable the data source again (needs a sync)"),
    },
    title="data source",
)
tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=False,
    get=False,
    filters=("source_id", "name"),
    delete=False,
)
questions = service.resource(
    Question,
    name="question",
    plural="questions",
    prefix="card",
    create=False,
    filters=("source_id", "table_id", "kind", "owner_email", "archived", "group_by"),
    search=("name",),
    update=("name", "aggregation", "column", "group_by", "sql", "display"),
    delete=False,
    guard_update=_guard_question_update,
)
dashboards = service.resource(
    Dashboard,
    name="dashboard",
    plural="dashboards",
    prefix="dash",
    create=("name", "description", "owner_email"),
    filters=("owner_email",),
    search=("name", "description"),
    update=("name", "description"),
    delete=False,
)
dashcards = service.resource(
    Dashcard,
    name="dashcard",
    plural="dashcards",
    prefix="dc",
    create=False,
    get=False,
    filters=("dashboard_id", "question_id"),
)
subscriptions = service.resource(
    Subscription,
    name="subscription",
    plural="subscriptions",
    prefix="sub",
    create=False,
    get=False,
    filters=("dashboard_id", "schedule", "creator_email", "enabled"),
    title="dashboard subscription",
)
deliveries = service.resource(
    Delivery,
    name="delivery",
    plural="deliveries",
    prefix="dlv",
    create=False,
    get=False,
    filters=("subscription_id", "dashboard_id", "recipient"),
    delete=False,
)


# -- examples ---------------------------------------------------------------------------------


def _example_question(ctx: Ctx) -> dict[str, Any] | None:
    for source in ctx.where(DataSource, status="active"):
        table = ctx.first(Table, source_id=source.id)
        user = ctx.first(User, role="viewer", active=True)
        if table is not None and user is not None:
            return {
                "name": "Rows per month",
                "source_id": source.id,
                "table_id": table.id,
                "group_by": "month",
                "owner_email": user.email,
            }
    return None


def _example_add_card(ctx: Ctx) -> dict[str, Any] | None:
    dash = ctx.first(Dashboard)
    q = ctx.first(Question, archived=False)
    if dash is None or q is None:
        return None
    bottom = max((c.row + c.size_y for c in ctx.where(Dashcard, dashboard_id=dash.id)), default=0)
    return {"dashboard_id": dash.id, "question_id": q.id, "col": 0, "row": bottom, "size_x": 12, "size_y": 6}


def _example_subscribe(ctx: Ctx) -> dict[str, Any] | None:
    for dash in ctx.scan(Dashboard):
        if ctx.where(Dashcard, dashboard_id=dash.id):
            user = ctx.first(User, active=True)
            if user is not None:
                return {
                    "dashboard_id": dash.id,
                    "recipients": [user.email],
                    "schedule": "daily",
                    "creator_email": user.email,
                }
    return None


def _example_sync(ctx: Ctx) -> dict[str, Any] | None:
    src = ctx.first(DataSource, status="sync_failed") or ctx.first(DataSource, status="active")
    return None if src is None else {"data_source_id": src.id}


# -- domain tools -----------------------------------------------------------------------------


@service.tool(intent="save a new question", write=True, example=_example_question)
def create_question(
    ctx: Ctx,
    name: Title,
    source_id: SourceId,
    owner_email: Email,
    kind: Literal["structured", "native"] = "structured",
    table_id: TableId | None = None,
    aggregation: Aggregation = "count",
    column: ColumnName | None = None,
    group_by: GroupBy = "none",
    sql: Text | None = None,
    display: Literal["table", "bar", "line", "number", "pie"] = "table",
) -> Question:
    """Save a question: a structured query on one table of a source, or native SQL (analysts and admins only).

    Sums and averages need a number or money column.

    Args:
        name: Question name.
        source_id: The data source.
        owner_email: E-mail of the active user saving it.
        kind: structured (query builder) or native (SQL).
        table_id: Structured: the table.
        aggregation: Structured: count, sum, avg or distinct.
        column: Structured: the column aggregated (not for count).
        group_by: Breakdown of the result.
        sql: Native: the query.
        display: Visualization.
    """
    owner = _user(ctx, owner_email, "owner_email")
    ctx.get(DataSource, source_id, field="source_id")
    if kind == "native" and owner.role == "viewer":
        raise RuleViolation(
            f"{owner.name} is a viewer and cannot write native SQL",
            field="kind",
            hint="use the query builder (kind 'structured') or ask an analyst",
        )
    q = ctx.create(
        Question,
        name=name,
        source_id=source_id,
        kind=kind,
        table_id=table_id,
        aggregation=aggregation,
        column=column,
        group_by=group_by,
        sql=sql,
        display=display,
        owner_email=owner.email,
    )
    _check_question(ctx, q)
    return q


class ResultRow(BaseModel):
    """One row of a question's result."""

    label: str = Field(description="The breakdown value as text ('Total' without a breakdown).")
    date: Date | None = Field(default=None, description="The day or first day of the month (day/month breakdowns).")
    sku: Sku | None = Field(default=None, description="The product (product breakdown).")
    country: Country | None = Field(default=None, description="The country (country breakdown).")
    company: CompanyName | None = Field(default=None, description="The customer (customer breakdown).")
    value: float = Field(description="The aggregated value.")


class Result(BaseModel):
    """A question's result."""

    question_id: QuestionId = Field(description="The question.")
    rows: list[ResultRow] = Field(description="Result rows.")
    row_count: int = Field(description="Number of rows.")
    ran_at: DateTime = Field(description="When it ran.")


def _value(seed: int, qid: str, label: str, base: int) -> float:
    h = int(hashlib.sha256(f"{seed}:{qid}:{label}".encode()).hexdigest()[:8], 16)
    return float(base // 40 + h % max(1, base // 10 + 1))


@service.tool(
    intent="run the saved question",
    example=first_example(
        Question,
        "question_id",
        where={"archived": False},
        match=lambda ctx, q: ctx.get(DataSource, q.source_id).status == "active",
    ),
)
def run_question(ctx: Ctx, question_id: QuestionId) -> Result:
    """Run a saved question on its data source and return the result rows.

    Archived questions and questions on sources that are not active do not run.

    Args:
        question_id: The question.
    """
    q = ctx.get(Question, question_id, field="question_id")
    if q.archived:
        raise RuleViolation(f"question {q.name} is archived", field="question_id", hint="unarchive it to run it")
    _queryable(ctx.get(DataSource, q.source_id), "question_id")
    table = ctx.find(Table, q.table_id) if q.table_id else None
    base = table.row_count if table else 5000
    pop = ctx.population
    today = ctx.today()
    seed = pop.seed
    rows: list[ResultRow] = []
    if q.group_by == "none":
        rows.append(
            ResultRow(
                label="Total", value=float(base) if q.aggregation == "count" else _value(seed, q.id, "Total", base)
            )
        )
    elif q.group_by == "day":
        for k in range(14, 0, -1):
            d = today - dt.timedelta(days=k)
            rows.append(ResultRow(label=d.isoformat(), date=d, value=_value(seed, q.id, d.isoformat(), base)))
    elif q.group_by == "month":
        for k in range(5, -1, -1):
            d = add_months(today.replace(day=1), -k)
            rows.append(ResultRow(label=d.strftime("%Y-%m"), date=d, value=_value(seed, q.id, d.isoformat(), base)))
    elif q.group_by == "product":
        for p in pop.products:
            rows.append(ResultRow(label=p.name, sku=p.sku, value=_value(seed, q.id, p.sku, base)))
    elif q.group_by == "country":
        for code in sorted({pl.country for pl in pop.places}):
            rows.append(ResultRow(label=code, country=code, value=_value(seed, q.id, code, base)))
    else:
        for c in pop.customers:
            rows.append(ResultRow(label=c.name, company=c.name, value=_value(seed, q.id, c.key, base)))
    return Result(question_id=q.id, rows=rows, row_count=len(rows), ran_at=ctx.now())


class Archived(BaseModel):
    """An archived question and the dashboards it left."""

    question: Question = Field(description="The archived question.")
    removed_from_dashboards: list[DashboardId] = Field(description="Dashboards it was removed from.")


@service.tool(
    intent="archive the question",
    write=True,
    example=first_example(Question, "question_id", where={"archived": False}),
)
def archive_question(ctx: Ctx, question_id: QuestionId) -> Archived:
    """Archive a question: it leaves every dashboard it was on and no longer runs.

    Args:
        question_id: The question.
    """
    q = ctx.get(Question, question_id, field="question_id")
    if q.archived:
        raise Conflict(f"question {q.name} is already archived", field="question_id", hint="nothing to do")
    removed: list[str] = []
    for dc in ctx.where(Dashcard, question_id=q.id):
        removed.append(dc.dashboard_id)
        ctx.delete(dc)
    return Archived(question=ctx.update(q, archived=True), removed_from_dashboards=sorted(set(removed)))


@service.tool(intent="put the question on the dashboard", write=True, example=_example_add_card)
def add_card_to_dashboard(
    ctx: Ctx,
    dashboard_id: DashboardId,
    question_id: QuestionId,
    col: Annotated[int, Field(ge=0, le=GRID - 1)],
    row: Annotated[int, Field(ge=0, le=1000)],
    size_x: Annotated[int, Field(ge=1, le=GRID)] = 8,
    size_y: Annotated[int, Field(ge=1, le=40)] = 6,
) -> Dashcard:
    """Place a question on a dashboard's 24-column grid, where no other card is.

    Args:
        dashboard_id: The dashboard.
        question_id: The question (not archived).
        col: Left column (0-23).
        row: Top row.
        size_x: Width in columns; col + size_x is at most 24.
        size_y: Height in rows.
    """
    dash = ctx.get(Dashboard, dashboard_id, field="dashboard_id")
    q = ctx.get(Question, question_id, field="question_id")
    if q.archived:
        raise RuleViolation(f"question {q.name} is archived", field="question_id", hint="unarchive it first")
    if col + size_x > GRID:
        raise RuleViolation(
            f"the card ends at column {col + size_x}; the grid has {GRID}",
            field="size_x",
            hint="narrow it or move it left",
        )
    place = {"col": col, "row": row, "size_x": size_x, "size_y": size_y}
    for other in ctx.where(Dashcard, dashboard_id=dash.id):
        if _overlap(place, other):
            raise Conflict(
                f"the card would overlap card {other.id} at column {other.col}, row {other.row}",
                field="row",
                hint="place it below the other cards or in a free column",
            )
    return ctx.create(Dashcard, dashboard_id=dash.id, question_id=q.id, col=col, row=row, size_x=size_x, size_y=size_y)


@service.tool(intent="share the dashboard with a public link", write=True, idempotent=True)
def share_dashboard(ctx: Ctx, dashboard_id: DashboardId) -> Dashboard:
    """Create the public link of a dashboard (or return the existing one); anyone with it can view.

    Args:
        dashboard_id: The dashboard.
    """
    dash = ctx.get(Dashboard, dashboard_id, field="dashboard_id")
    if dash.public_url is not None:
        return dash
    token = hashlib.sha256(f"{ctx.population.seed}:{dash.id}".encode()).hexdigest()[:20]
    return ctx.update(dash, public_url=f"https://bi.{ctx.population.home.domain}/public/dashboard/{token}")


@service.tool(intent="subscribe people to the dashboard by e-mail", write=True, example=_example_subscribe)
def create_subscription(
    ctx: Ctx,
    dashboard_id: DashboardId,
    recipients: Annotated[list[Email], Field(min_length=1, max_length=50)],
    schedule: Literal["hourly", "daily", "weekly", "monthly"],
    creator_email: Email,
    hour: Annotated[int, Field(ge=0, le=23)] = 8,
    day_of_week: Weekday | None = None,
    format: Literal["inline", "csv", "pdf"] = "inline",
) -> Subscription:
    """Schedule e-mail delivery of a dashboard that has cards.

    Recipients are active users or addresses on the company's domain; weekly
    subscriptions need a day_of_week.

    Args:
        dashboard_id: The dashboard.
        recipients: E-mail addresses.
        schedule: hourly, daily, weekly or monthly.
        creator_email: The active user setting it up.
        hour: Hour of the day (UTC).
        day_of_week: Weekday of a weekly subscription.
        format: inline, csv or pdf.
    """
    ctx.get(Dashboard, dashboard_id, field="dashboard_id")
    _user(ctx, creator_email, "creator_email")
    sub = ctx.create(
        Subscription,
        dashboard_id=dashboard_id,
        recipients=tuple(dict.fromkeys(recipients)),
        schedule=schedule,
        hour=hour,
        day_of_week=day_of_week,
        format=format,
        creator_email=creator_email,
    )
    _check_subscription(ctx, sub)
    return sub


class Sent(BaseModel):
    """What sending a subscription did."""

    subscription_id: SubscriptionId = Field(description="The subscription.")
    sent_to: list[Email] = Field(description="Recipients e-mailed.")
    cards: int = Field(description="Questions included.")


@service.tool(
    intent="send the dashboard subscription now",
    write=True,
    example=first_example(Subscription, "subscription_id", where={"enabled": True}),
)
def send_subscription_now(ctx: Ctx, subscription_id: SubscriptionId) -> Sent:
    """Send an enabled subscription's dashboard to its recipients right away.

    Deactivated users are skipped; cards whose source is not active are left out.

    Args:
        subscription_id: The subscription.
    """
    sub = ctx.get(Subscription, subscription_id, field="subscription_id")
    if not sub.enabled:
        raise RuleViolation("the subscription is disabled", field="subscription_id", hint="enable it first")
    cards = [
        dc
        for dc in ctx.where(Dashcard, dashboard_id=sub.dashboard_id)
        if ctx.get(DataSource, ctx.get(Question, dc.question_id).source_id).status == "active"
    ]
    if not cards:
        raise RuleViolation(
            "no card of the dashboard can run now", field="subscription_id", hint="fix the dashboard's data sources"
        )
    sent: list[str] = []
    for email in sub.recipients:
        u = ctx.first(User, email=email)
        if u is not None and not u.active:
            continue
        ctx.create(Delivery, subscription_id=sub.id, dashboard_id=sub.dashboard_id, recipient=email, cards=len(cards))
        sent.append(email)
    return Sent(subscription_id=sub.id, sent_to=sent, cards=len(cards))


@service.tool(intent="sync the data source's schema", write=True, example=_example_sync)
def sync_data_source(ctx: Ctx, data_source_id: SourceId) -> DataSource:
    """Sync a data source's schema; a source whose sync had failed becomes active again.

    Args:
        data_source_id: The data source (not disabled).
    """
    src = ctx.get(DataSource, data_source_id, field="data_source_id")
    if src.status == "disabled":
        raise RuleViolation(
            f"data source {src.name} is disabled",
            field="data_source_id",
            hint="enable it with bidash__enable_data_source",
        )
    return ctx.update(src, status="active", last_synced_at=ctx.now())


# -- seed -------------------------------------------------------------------------------------

MONEY = Column(name="total", type="money")
TABLES: dict[str, tuple[tuple[str, str, int, tuple[Column, ...]], ...]] = {
    "Shop database": (
        (
            "orders",
            "Orders",
            18_400,
            (
                Column(name="order_number", type="text"),
                MONEY,
                Column(name="created_at", type="date"),
                Column(name="country", type="text"),
            ),
        ),
        (
            "order_items",
            "Order items",
            41_900,
            (
                Column(name="sku", type="text"),
                Column(name="quantity", type="number"),
                Column(name="price", type="money"),
            ),
        ),
        (
            "customers",
            "Customers",
            9_300,
            (
                Column(name="email", type="text"),
                Column(name="country", type="text"),
                Column(name="signup_date", type="date"),
            ),
        ),
    ),
    "Support warehouse": (
        (
            "tickets",
            "Tickets",
            6_200,
            (
                Column(name="status", type="text"),
                Column(name="priority", type="text"),
                Column(name="reply_minutes", type="number"),
            ),
        ),
    ),
    "Legacy ERP": (("invoices", "Invoices", 52_000, (Column(name="invoice_number", type="text"), MONEY)),),
    "Marketing lake": (
        ("ad_spend", "Ad spend", 3_100, (Column(name="campaign", type="text"), Column(name="cost", type="money"))),
    ),
}


@service.seeder
def seed(s: SeedContext) -> None:
    """Staff users, four data sources, questions, two dashboards laid out on the grid, subscriptions, deliveries."""
    admin, analysts = _seed_users(s)
    srcs, tables_by = _seed_sources(s, admin)
    made = _seed_questions(s, srcs, tables_by, admin, analysts)
    sales_dash, ops_dash = _seed_dashboards(s, made, admin, analysts)
    _seed_subscriptions(s, sales_dash, ops_dash, admin, analysts)


def _seed_users(s: SeedContext) -> tuple[User, list[User]]:
    """Users from the departments that use BI; returns the first admin and the active analysts."""
    pop = s.population
    roles = {
        "Engineering": "analyst",
        "Finance": "analyst",
        "Marketing": "analyst",
        "Operations": "viewer",
        "Sales": "viewer",
    }
    users_made: list[User] = []
    for i, p in enumerate(e for e in pop.employees if (e.department or "") in roles):
        role = roles[p.department or ""] if i >= 2 else "admin"
        users_made.append(s.create(User, name=p.name, email=p.email, role=role, active=i % 11 != 10))
    admin = users_made[0]
    return admin, [u for u in users_made if u.role == "analyst" and u.active] or [admin]


def _seed_sources(s: SeedContext, admin: User) -> tuple[dict[str, DataSource], dict[str, list[Table]]]:
    """The four data sources and their tables, both by source name."""
    specs = (
        ("Shop database", "postgres", "active"),
        ("Support warehouse", "bigquery", "active"),
        ("Legacy ERP", "mysql", "disabled"),
        ("Marketing lake", "snowflake", "sync_failed"),
    )
    tables_by: dict[str, list[Table]] = {}
    srcs: dict[str, DataSource] = {}
    for name, engine, status in specs:
        src = s.create(
            DataSource,
            name=name,
            engine=engine,
            host=f"{engine}.{name.split()[0].lower()}.{s.population.home.domain}",
            status=status,
            owner_email=admin.email,
            last_synced_at=s.now - dt.timedelta(hours=6 if status == "active" else 24 * 9),
        )
        srcs[name] = src
        tables_by[name] = [
            s.create(Table, source_id=src.id, name=t, display_name=d, row_count=n, columns=cols)
            for t, d, n, cols in TABLES[name]
        ]
    return srcs, tables_by


QUESTIONS: tuple[tuple[str, str, str, Aggregation, str | None, GroupBy, str], ...] = (
    ("Revenue by month", "Shop database", "orders", "sum", "total", "month", "line"),
    ("Orders per day", "Shop database", "orders", "count", None, "day", "bar"),
    ("Units sold by product", "Shop database", "order_items", "sum", "quantity", "product", "bar"),
    ("Revenue by country", "Shop database", "orders", "sum", "total", "country", "pie"),
    ("New customers", "Shop database", "customers", "count", None, "month", "number"),
    ("Average reply time (minutes)", "Support warehouse", "tickets", "avg", "reply_minutes", "none", "number"),
    ("Ad spend by campaign", "Marketing lake", "ad_spend", "sum", "cost", "none", "table"),
)
"""The seeded structured questions: name, source, table, aggregation, column, breakdown and display."""


def _seed_questions(
    s: SeedContext,
    srcs: dict[str, DataSource],
    tables_by: dict[str, list[Table]],
    admin: User,
    analysts: list[User],
) -> list[Question]:
    """The structured questions, a native SQL one and an archived one, in that order."""
    now = s.now
    made: list[Question] = []
    for k, (qname, src_name, tname, agg, col, grp, disp) in enumerate(QUESTIONS):
        table = next(t for t in tables_by[src_name] if t.name == tname)
        made.append(
            s.create(
                Question,
                name=qname,
                source_id=srcs[src_name].id,
                kind="structured",
                table_id=table.id,
                aggregation=agg,
                column=col,
                group_by=grp,
                display=disp,
                owner_email=analysts[k % len(analysts)].email,
                created_at=now - dt.timedelta(days=90 - k),
                updated_at=now - dt.timedelta(days=30 - k),
            )
        )
    made.append(
        s.create(
            Question,
            name="Top customers by revenue (SQL)",
            source_id=srcs["Shop database"].id,
            kind="native",
            group_by="customer",
            sql="SELECT company, SUM(total) FROM orders JOIN customers USING (email) GROUP BY company ORDER BY 2 DESC",
            owner_email=analysts[0].email,
            created_at=now - dt.timedelta(days=40),
            updated_at=now - dt.timedelta(days=40),
        )
    )
    made.append(
        s.create(
            Question,
            name="Old invoice totals",
            source_id=srcs["Legacy ERP"].id,
            kind="structured",
            table_id=tables_by["Legacy ERP"][0].id,
            aggregation="sum",
            column="total",
            owner_email=admin.email,
            archived=True,
            created_at=now - dt.timedelta(days=400),
            updated_at=now - dt.timedelta(days=200),
        )
    )
    return made


SALES_LAYOUT = ((0, 0, 0, 12, 6), (1, 12, 0, 12, 6), (2, 0, 6, 16, 8), (3, 16, 6, 8, 8), (7, 0, 14, 24, 8))
"""The sales dashboard's cards: question index, column, row, width and height."""


def _seed_dashboards(
    s: SeedContext, made: list[Question], admin: User, analysts: list[User]
) -> tuple[Dashboard, Dashboard]:
    """The sales and operations dashboards (returned) with their cards, and an empty scratchpad."""
    now = s.now
    sales_dash = s.create(
        Dashboard,
        name="Sales overview",
        description="Revenue, orders and products of the web shop.",
        owner_email=analysts[0].email,
        created_at=now - dt.timedelta(days=60),
    )
    ops_dash = s.create(
        Dashboard,
        name="Operations weekly",
        description="Support and marketing health.",
        owner_email=admin.email,
        public_url=f"https://bi.{s.population.home.domain}/public/dashboard/ops-weekly-2026",
        created_at=now - dt.timedelta(days=50),
    )
    for qi, x, y, w, h in SALES_LAYOUT:
        s.create(Dashcard, dashboard_id=sales_dash.id, question_id=made[qi].id, col=x, row=y, size_x=w, size_y=h)
    for qi, x, y, w, h in ((5, 0, 0, 8, 4), (6, 8, 0, 16, 8)):
        s.create(Dashcard, dashboard_id=ops_dash.id, question_id=made[qi].id, col=x, row=y, size_x=w, size_y=h)
    s.create(Dashboard, name="Scratchpad", owner_email=analysts[-1].email, created_at=now - dt.timedelta(days=3))
    return sales_dash, ops_dash


def _seed_subscriptions(
    s: SeedContext, sales_dash: Dashboard, ops_dash: Dashboard, admin: User, analysts: list[User]
) -> None:
    """Daily, weekly and disabled monthly subscriptions, and the daily one's last three deliveries."""
    pop = s.population
    leaders = [p.email for p in pop.employees if is_lead(p)][:4]
    daily = s.create(
        Subscription,
        dashboard_id=sales_dash.id,
        recipients=tuple(dict.fromkeys([analysts[0].email, *leaders])),
        schedule="daily",
        hour=7,
        creator_email=analysts[0].email,
    )
    s.create(
        Subscription,
        dashboard_id=ops_dash.id,
        recipients=(admin.email, f"ops-team@{pop.home.domain}"),
        schedule="weekly",
        day_of_week="mon",
        hour=6,
        format="pdf",
        creator_email=admin.email,
    )
    s.create(
        Subscription,
        dashboard_id=sales_dash.id,
        recipients=(analysts[-1].email,),
        schedule="monthly",
        format="csv",
        creator_email=analysts[-1].email,
        enabled=False,
    )
    for d in range(1, 4):
        for email in daily.recipients:
            s.create(
                Delivery,
                subscription_id=daily.id,
                dashboard_id=sales_dash.id,
                recipient=email,
                cards=len(SALES_LAYOUT),
                sent_at=s.now - dt.timedelta(days=d, hours=2),
            )
