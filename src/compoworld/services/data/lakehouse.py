"""Fathom Warehouse: the company's analytics warehouse of datasets, typed tables, load and query jobs.

Modeled on the Google BigQuery API v2 (datasets.insert / delete with
deleteContents, tables.insert / patch, jobs.insert for load and query jobs,
jobs.get, jobs.cancel, custom query quotas) and the Data Transfer Service v1 for
scheduled queries. Dataset names hold letters, digits and underscores and are
unique in the project; a dataset with tables is deleted only with
``delete_contents``; its default table expiration dates every new table. A
table's schema has typed, uniquely named columns (no reserved ``_TABLE_``,
``_FILE_`` or ``_PARTITION`` prefix); columns can be added later but not as
REQUIRED; an expired table is gone for every job. Jobs move PENDING → RUNNING →
DONE (each poll advances one step), end DONE with an error result when they
fail or are cancelled, and cannot be cancelled once DONE. A query bills at
least 10 MB per table it reads, only for the columns it names (all of them for
``SELECT *``); it is refused when it would bill more than its
``maximum_bytes_billed`` or than what is left of the project's daily query
quota (1 TiB), and it cannot read across locations; a dry run only estimates.
A load job with WRITE_EMPTY fails on a table that holds rows. Scheduled
queries run at least 15 minutes apart and write into a table of the location
they read.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.errors import Conflict, NotFound, RuleViolation
from compoworld.engine.records import CREATED, Record
from compoworld.engine.service import Service, Transition
from compoworld.engine.state import SeedContext
from compoworld.engine.types import DateTime, Email, IdOf, Text
from compoworld.services.kit.examples import first_example
from compoworld.services.kit.records import Created, Timestamped, Value

__all__ = ["service"]

service = Service(
    "lakehouse",
    title="Fathom Warehouse",
    category="data_warehouse",
    modeled_on="Google BigQuery API v2 (datasets, tables with schemas and expiration, load and query jobs with "
    "jobs.insert / get / cancel, maximumBytesBilled and custom daily query quotas) and BigQuery Data Transfer "
    "Service v1 scheduled queries",
    description="The analytics warehouse: datasets in a location, tables with typed schemas and expiration, load "
    "and query jobs that move from pending to running to done, query costs in bytes billed against a daily "
    "quota, and scheduled queries that refresh report tables.",
)

DatasetId = Annotated[str, IdOf("lakehouse.dataset")]
TableId = Annotated[str, IdOf("lakehouse.table")]
JobId = Annotated[str, IdOf("lakehouse.job")]
ScheduleId = Annotated[str, IdOf("lakehouse.scheduled_query")]

DatasetName = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
"""A dataset's name: letters, digits and underscores."""
TableName = Annotated[str, StringConstraints(min_length=1, max_length=1024)]
"""A table's name: letters, digits and underscores."""
Sql = Annotated[str, StringConstraints(min_length=1, max_length=100_000)]
"""A GoogleSQL query, e.g. SELECT order_id, total FROM sales.orders WHERE total > 100."""
SourceUri = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+://[^\s/]+/\S+$", max_length=2048)]
"""Where a load job reads its file, e.g. gs://exports/orders/2026-03-01.csv."""

Location = Literal["US", "EU", "us-central1", "europe-west2", "asia-northeast1"]
ColumnType = Literal["STRING", "INT64", "FLOAT64", "NUMERIC", "BOOL", "DATE", "TIMESTAMP", "JSON"]
Mode = Literal["NULLABLE", "REQUIRED", "REPEATED"]
JobState = Literal["PENDING", "RUNNING", "DONE"]
JobType = Literal["LOAD", "QUERY"]
WriteDisposition = Literal["WRITE_APPEND", "WRITE_TRUNCATE", "WRITE_EMPTY"]
SourceFormat = Literal["CSV", "NEWLINE_DELIMITED_JSON", "PARQUET", "AVRO"]

MB = 1024**2
TIB = 1024**4
DAILY_QUERY_QUOTA = TIB
"""The project's custom quota: bytes billed by queries per day (UTC)."""
MIN_BILLED_PER_TABLE = 10 * MB
MAX_COLUMNS = 10_000
MIN_SCHEDULE = dt.timedelta(minutes=15)
RESERVED = ("_TABLE_", "_FILE_", "_PARTITION", "_ROW_TIMESTAMP", "__ROOT__", "_COLIDENTIFIER")
_DATASET = re.compile(r"^[A-Za-z0-9_]{1,1024}$")
_TABLE = re.compile(r"^[A-Za-z0-9_]{1,1024}$")
_COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,299}$")
_REF = re.compile(r"\b(?:FROM|JOIN)\s+`?(?:[A-Za-z0-9-]+\.)?([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)`?", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SCHEDULE = re.compile(r"^every (\d{1,4}) (minutes|hours|days)$")


class Dataset(Created):
    """A dataset: a container of tables in one location."""

    id: DatasetId
    name: DatasetName
    """The dataset's name, unique in the project."""
    location: Location
    """Where its data lives; queries cannot join across locations."""
    description: Text = ""
    """What it holds."""
    default_table_expiration_days: int | None = None
    """Days after creation at which new tables expire (None: never)."""
    owner_email: Email
    """The staff member who owns it."""


class SchemaField(Value):
    """One column of a table's schema."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=300)] = Field(
        description="The column name: letters, digits and underscores, not starting with a digit."
    )
    type: ColumnType = Field(description="STRING, INT64, FLOAT64, NUMERIC, BOOL, DATE, TIMESTAMP or JSON.")
    mode: Mode = Field(default="NULLABLE", description="NULLABLE, REQUIRED or REPEATED.")


class Table(Timestamped):
    """A table with a typed schema."""

    id: TableId
    dataset_id: DatasetId
    """The dataset."""
    name: TableName
    """The table's name, unique in its dataset."""
    columns: tuple[SchemaField, ...]
    """The schema."""
    num_rows: int = 0
    """How many rows it holds."""
    num_bytes: int = 0
    """Its logical size in bytes."""
    expiration_time: DateTime | None = None
    """When it is deleted (None: never)."""


class JobError(Value):
    """Why a job failed."""

    reason: Literal["duplicate", "stopped", "invalid", "notFound"] = Field(description="The error reason.")
    message: str = Field(description="What went wrong.")


class Job(Record):
    """A load or query job."""

    id: JobId
    job_type: JobType
    """LOAD or QUERY."""
    state: JobState = "PENDING"
    """PENDING, RUNNING or DONE (DONE with an error result when it failed)."""
    location: Location
    """Where it runs."""
    user_email: Email
    """Who ran it."""
    query: Sql | None = None
    """A query job's SQL."""
    source_uri: SourceUri | None = None
    """A load job's file."""
    source_format: SourceFormat | None = None
    """A load job's file format."""
    source_rows: int | None = None
    """Rows in a load job's file."""
    destination_table_id: TableId | None = None
    """The table a load writes, or a query writes its results to."""
    write_disposition: WriteDisposition = "WRITE_APPEND"
    """WRITE_APPEND, WRITE_TRUNCATE or WRITE_EMPTY (fail when the table holds rows)."""
    dry_run: bool = False
    """Whether the query was only estimated."""
    total_bytes_processed: int = 0
    """Bytes the query reads."""
    total_bytes_billed: int = 0
    """Bytes billed (at least 10 MB per table read)."""
    output_rows: int = 0
    """Rows written to the destination."""
    scheduled_query_id: ScheduleId | None = None
    """The scheduled query that started it."""
    error_result: JobError | None = None
    """Why it failed, if it did."""
    creation_time: Annotated[DateTime, CREATED]
    """When it was inserted."""
    start_time: DateTime | None = None
    """When it started running."""
    end_time: DateTime | None = None
    """When it finished."""


class ScheduledQuery(Created):
    """A query that runs on a schedule and writes into a table."""

    id: ScheduleId
    display_name: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    """Its name."""
    query: Sql
    """The SQL it runs."""
    destination_table_id: TableId
    """The table it writes."""
    write_disposition: Literal["WRITE_APPEND", "WRITE_TRUNCATE"] = "WRITE_TRUNCATE"
    """Append to or replace the table."""
    schedule: Annotated[str, StringConstraints(pattern=r"^every \d{1,4} (minutes|hours|days)$")]
    """How often it runs, e.g. every 24 hours."""
    enabled: bool = True
    """Whether it runs."""
    owner_email: Email
    """Whose credentials it runs with."""
    next_run_time: DateTime | None = None
    """When it runs next."""
    last_run_time: DateTime | None = None
    """When it last ran."""


datasets = service.resource(
    Dataset,
    name="dataset",
    plural="datasets",
    prefix="ds",
    create=False,
    get=False,
    filters=("name", "location", "owner_email"),
    search=("name", "description"),
    delete=False,
)
tables = service.resource(
    Table,
    name="table",
    plural="tables",
    prefix="tbl",
    create=False,
    filters=("dataset_id", "name"),
    search=("name",),
    delete=False,
)
jobs = service.resource(
    Job,
    name="job",
    plural="jobs",
    prefix="job",
    create=False,
    get=False,
    filters=("job_type", "state", "user_email", "destination_table_id", "scheduled_query_id", "location"),
    search=("query",),
    delete=False,
)
schedules = service.resource(
    ScheduledQuery,
    name="scheduled_query",
    plural="scheduled_queries",
    prefix="sq",
    create=False,
    get=False,
    filters=("destination_table_id", "enabled", "owner_email"),
    search=("display_name", "query"),
    delete=False,
    transitions={
        "disable": Transition("enabled", (True,), False, "pause the scheduled query"),
    },
    title="scheduled query",
)


# -- rules ------------------------------------------------------------------------------------


def _expired(ctx: Ctx, table: Table) -> bool:
    return table.expiration_time is not None and table.expiration_time <= ctx.now()


def _live_table(ctx: Ctx, table_id: str, field: str) -> Table:
    table = ctx.get(Table, table_id, field=field)
    if _expired(ctx, table):
        raise NotFound(
            f"Not found: table {table.name} expired at {table.expiration_time.isoformat() if table.expiration_time else ''}",
            field=field,
            hint="the table is gone; create it again or use another table",
        )
    return table


def _dataset_of(ctx: Ctx, table: Table) -> Dataset:
    return ctx.get(Dataset, table.dataset_id)


def _check_columns(fields: list[SchemaField] | tuple[SchemaField, ...], taken: set[str], field: str) -> None:
    seen = set(taken)
    for col in fields:
        if not _COLUMN.match(col.name):
            raise RuleViolation(
                f"invalid field name {col.name!r}: letters, digits and underscores, not starting with a digit",
                field=field,
                hint="rename the column, e.g. order_total",
            )
        if col.name.upper().startswith(RESERVED):
            raise RuleViolation(
                f"field name {col.name} uses a reserved prefix ({', '.join(RESERVED)})",
                field=field,
                hint="rename the column",
            )
        if col.name.lower() in seen:
            raise Conflict(
                f"duplicate column name {col.name} (names are case-insensitive)",
                field=field,
                hint="give every column its own name",
            )
        seen.add(col.name.lower())
    if len(seen) > MAX_COLUMNS:
        raise RuleViolation(f"a table has at most {MAX_COLUMNS} columns", field=field, hint="split the table")


class Plan(BaseModel):
    """What a query reads and bills, before it runs."""

    tables: list[TableId] = Field(description="The tables it reads.")
    location: Location = Field(description="Where it runs.")
    total_bytes_processed: int = Field(description="Bytes read.")
    total_bytes_billed: int = Field(description="Bytes billed.")
    source_rows: int = Field(description="Rows of the first table read.")


def plan_query(ctx: Ctx, query: str) -> Plan:
    """Resolve the tables a query reads and what it bills (at least 10 MB a table, named columns only)."""
    refs = _REF.findall(query)
    if not refs or not re.match(r"^\s*(SELECT|WITH)\b", query, re.IGNORECASE):
        raise RuleViolation(
            "invalid query: expected SELECT ... FROM dataset.table",
            field="query",
            hint="name each table as dataset.table, e.g. SELECT order_id FROM sales.orders",
        )
    words = {w.lower() for w in _WORD.findall(query)}
    star = re.search(r"\bSELECT\s+(\w+\.)?\*", query, re.IGNORECASE) is not None
    read: list[Table] = []
    locations: set[str] = set()
    processed = billed = 0
    for ds_name, table_name in refs:
        dataset = ctx.first(Dataset, name=ds_name)
        table = None if dataset is None else ctx.first(Table, dataset_id=dataset.id, name=table_name)
        if dataset is None or table is None or _expired(ctx, table):
            raise NotFound(
                f"Not found: Table {ds_name}.{table_name}",
                field="query",
                hint="list datasets and tables to find the right name; an expired table is gone",
            )
        locations.add(dataset.location)
        if table.id in {t.id for t in read}:
            continue
        read.append(table)
        cols = table.columns
        used = cols if star else tuple(c for c in cols if c.name.lower() in words) or cols[:1]
        share = table.num_bytes * len(used) // max(1, len(cols))
        processed += share
        billed += max(MIN_BILLED_PER_TABLE, -(-share // MB) * MB)
    if len(locations) > 1:
        raise RuleViolation(
            f"a query cannot read across locations ({', '.join(sorted(locations))})",
            field="query",
            hint="copy the tables into datasets of one location first",
        )
    return Plan(
        tables=[t.id for t in read],
        location=locations.pop(),
        total_bytes_processed=processed,
        total_bytes_billed=billed,
        source_rows=read[0].num_rows,
    )


def billed_today(ctx: Ctx) -> int:
    """Bytes billed by the project's queries since midnight UTC."""
    start = dt.datetime.combine(ctx.today(), dt.time(), tzinfo=dt.UTC)
    return sum(
        j.total_bytes_billed
        for j in ctx.where(Job, job_type="QUERY", dry_run=False)
        if j.creation_time >= start and (j.error_result is None or j.error_result.reason != "invalid")
    )


def _interval(schedule: str) -> dt.timedelta:
    m = _SCHEDULE.match(schedule)
    if m is None:
        raise RuleViolation(
            f"invalid schedule {schedule!r}", field="schedule", hint="write every N minutes, hours or days"
        )
    n, unit = int(m.group(1)), m.group(2)
    return dt.timedelta(**{unit: n})


# -- examples ---------------------------------------------------------------------------------


def _example_query(ctx: Ctx) -> dict[str, Any] | None:
    table = ctx.first(Table, name="orders")
    if table is None:
        return None
    ds = ctx.get(Dataset, table.dataset_id)
    return {"query": f"SELECT order_id, total FROM {ds.name}.orders WHERE total > 100", "user_email": ds.owner_email}


def _example_load(ctx: Ctx) -> dict[str, Any] | None:
    for table in ctx.scan(Table):
        if table.name == "orders" and not _expired(ctx, table):
            return {
                "destination_table_id": table.id,
                "source_uri": "gs://exports/orders/2026-03-02.csv",
                "source_format": "CSV",
                "source_rows": 1200,
                "user_email": ctx.get(Dataset, table.dataset_id).owner_email,
            }
    return None


def _example_table(ctx: Ctx) -> dict[str, Any] | None:
    ds = ctx.first(Dataset, name="marketing")
    if ds is None:
        return None
    return {
        "dataset_id": ds.id,
        "name": "campaign_costs",
        "columns": [
            {"name": "campaign_id", "type": "STRING", "mode": "REQUIRED"},
            {"name": "day", "type": "DATE"},
            {"name": "cost", "type": "NUMERIC"},
        ],
    }


def _example_schedule(ctx: Ctx) -> dict[str, Any] | None:
    table = ctx.first(Table, name="daily_revenue")
    src = ctx.first(Table, name="orders")
    if table is None or src is None:
        return None
    ds = ctx.get(Dataset, src.dataset_id)
    return {
        "display_name": "Hourly revenue",
        "query": f"SELECT order_date, total FROM {ds.name}.orders",
        "destination_table_id": table.id,
        "schedule": "every 1 hours",
        "owner_email": ds.owner_email,
    }


def _unexpired(ctx: Ctx, t: Table) -> bool:
    return not _expired(ctx, t)


# -- datasets ---------------------------------------------------------------------------------


@service.tool(
    intent="create a dataset",
    write=True,
    example=lambda ctx: {
        "name": "product_analytics",
        "location": "US",
        "owner_email": ctx.population.employees[0].email,
        "default_table_expiration_days": 30,
    },
)
def create_dataset(
    ctx: Ctx,
    name: DatasetName,
    location: Location,
    owner_email: Email,
    description: Text = "",
    default_table_expiration_days: Annotated[int, Field(ge=1)] | None = None,
) -> Dataset:
    """Create a dataset in a location; its name (letters, digits, underscores) is unique in the project.

    Args:
        name: The dataset's name.
        location: Where its data lives.
        owner_email: The staff member who owns it.
        description: What it holds.
        default_table_expiration_days: Days after which new tables expire.
    """
    if not _DATASET.match(name):
        raise RuleViolation(
            f"invalid dataset name {name!r}: only letters, digits and underscores",
            field="name",
            hint="replace hyphens and spaces with underscores",
        )
    if ctx.first(Dataset, name=name) is not None:
        raise Conflict(f"Already Exists: Dataset {name}", field="name", hint="use it, or choose another name")
    return ctx.create(
        Dataset,
        name=name,
        location=location,
        owner_email=owner_email,
        description=description,
        default_table_expiration_days=default_table_expiration_days,
    )


class DatasetDeleted(BaseModel):
    """What deleting a dataset removed."""

    dataset_id: DatasetId = Field(description="The dataset.")
    tables_deleted: int = Field(description="How many tables went with it.")


@service.tool(
    intent="delete the dataset",
    write=True,
    destructive=True,
    example=first_example(Dataset, "dataset_id", delete_contents=True),
)
def delete_dataset(ctx: Ctx, dataset_id: DatasetId, delete_contents: bool = False) -> DatasetDeleted:
    """Delete a dataset; one that still holds tables needs ``delete_contents``.

    Scheduled queries writing into its tables are disabled.

    Args:
        dataset_id: The dataset.
        delete_contents: Also delete its tables.
    """
    ds = ctx.get(Dataset, dataset_id, field="dataset_id")
    held = ctx.where(Table, dataset_id=ds.id)
    if held and not delete_contents:
        raise RuleViolation(
            f"Dataset {ds.name} is still in use: it holds {len(held)} tables",
            field="delete_contents",
            hint="pass delete_contents=true to delete its tables too",
        )
    for table in held:
        for sq in ctx.where(ScheduledQuery, destination_table_id=table.id):
            ctx.update(sq, enabled=False, next_run_time=None)
    ctx.delete(ds)
    for table in held:
        ctx.delete(table)
    return DatasetDeleted(dataset_id=ds.id, tables_deleted=len(held))


# -- tables -----------------------------------------------------------------------------------


@service.tool(intent="create a table", write=True, example=_example_table)
def create_table(
    ctx: Ctx,
    dataset_id: DatasetId,
    name: TableName,
    columns: Annotated[list[SchemaField], Field(min_length=1)],
    expiration_time: DateTime | None = None,
) -> Table:
    """Create an empty table with a schema.

    Column names are letters, digits and underscores, unique ignoring case, and
    avoid the reserved prefixes; without an expiration time the dataset's
    default table expiration applies.

    Args:
        dataset_id: The dataset.
        name: The table's name.
        columns: The schema.
        expiration_time: When the table is deleted.
    """
    ds = ctx.get(Dataset, dataset_id, field="dataset_id")
    if not _TABLE.match(name):
        raise RuleViolation(
            f"invalid table name {name!r}: only letters, digits and underscores", field="name", hint="rename it"
        )
    old = ctx.first(Table, dataset_id=ds.id, name=name)
    if old is not None and not _expired(ctx, old):
        raise Conflict(f"Already Exists: Table {ds.name}.{name}", field="name", hint="use it, or choose another name")
    _check_columns(columns, set(), "columns")
    now = ctx.now()
    if expiration_time is not None and expiration_time <= now:
        raise RuleViolation(
            "the expiration time must be in the future", field="expiration_time", hint="pick a later time"
        )
    if expiration_time is None and ds.default_table_expiration_days is not None:
        expiration_time = now + dt.timedelta(days=ds.default_table_expiration_days)
    if old is not None:
        ctx.delete(old)
    return ctx.create(Table, dataset_id=ds.id, name=name, columns=tuple(columns), expiration_time=expiration_time)


@service.tool(
    intent="add columns to the table",
    write=True,
    example=first_example(Table, "table_id", match=_unexpired, columns=[{"name": "notes", "type": "STRING"}]),
)
def add_table_columns(ctx: Ctx, table_id: TableId, columns: Annotated[list[SchemaField], Field(min_length=1)]) -> Table:
    """Add columns to a table's schema (tables.patch); a new column cannot be REQUIRED.

    Args:
        table_id: The table.
        columns: The new columns, NULLABLE or REPEATED.
    """
    table = _live_table(ctx, table_id, "table_id")
    for col in columns:
        if col.mode == "REQUIRED":
            raise RuleViolation(
                f"cannot add required field {col.name} to an existing schema",
                field="columns",
                hint="add it as NULLABLE and fill it with a query",
            )
    _check_columns(columns, {c.name.lower() for c in table.columns}, "columns")
    return ctx.update(table, columns=(*table.columns, *columns))


@service.tool(
    intent="change when the table expires",
    write=True,
    example=first_example(Table, "table_id", match=_unexpired, expiration_time=None),
)
def set_table_expiration(ctx: Ctx, table_id: TableId, expiration_time: DateTime | None) -> Table:
    """Set or clear when a table is deleted; the time must be in the future.

    Args:
        table_id: The table.
        expiration_time: The new expiration (null: never).
    """
    table = _live_table(ctx, table_id, "table_id")
    if expiration_time is not None and expiration_time <= ctx.now():
        raise RuleViolation(
            "the expiration time must be in the future", field="expiration_time", hint="pick a later time, or null"
        )
    return ctx.update(table, expiration_time=expiration_time)


# -- jobs -------------------------------------------------------------------------------------


@service.tool(intent="run a query", write=True, example=_example_query)
def insert_query_job(
    ctx: Ctx,
    query: Sql,
    user_email: Email,
    destination_table_id: TableId | None = None,
    write_disposition: WriteDisposition = "WRITE_TRUNCATE",
    maximum_bytes_billed: Annotated[int, Field(ge=1)] | None = None,
    dry_run: bool = False,
) -> Job:
    """Start a query job (PENDING); a dry run only estimates and is DONE at once.

    The query reads tables named dataset.table in one location and bills at
    least 10 MB per table, for the columns it names. It is refused when it
    would bill more than ``maximum_bytes_billed`` or than what is left of the
    project's daily quota (1 TiB).

    Args:
        query: The SQL.
        user_email: Who runs it.
        destination_table_id: A table to write the results to.
        write_disposition: How results go into the destination.
        maximum_bytes_billed: Refuse the query if it would bill more.
        dry_run: Only estimate the bytes.
    """
    plan = plan_query(ctx, query)
    if destination_table_id is not None:
        dest = _live_table(ctx, destination_table_id, "destination_table_id")
        if _dataset_of(ctx, dest).location != plan.location:
            raise RuleViolation(
                f"the destination table is not in {plan.location}, where the query runs",
                field="destination_table_id",
                hint="write the results into a table of a dataset in the same location",
            )
    if dry_run:
        return ctx.create(
            Job,
            job_type="QUERY",
            state="DONE",
            location=plan.location,
            user_email=user_email,
            query=query,
            destination_table_id=destination_table_id,
            write_disposition=write_disposition,
            dry_run=True,
            total_bytes_processed=plan.total_bytes_processed,
            end_time=ctx.now(),
        )
    if maximum_bytes_billed is not None and plan.total_bytes_billed > maximum_bytes_billed:
        raise RuleViolation(
            f"bytesBilledLimitExceeded: the query would bill {plan.total_bytes_billed} bytes, more than the "
            f"maximum of {maximum_bytes_billed}",
            field="maximum_bytes_billed",
            hint="select fewer columns, or raise maximum_bytes_billed",
        )
    left = DAILY_QUERY_QUOTA - billed_today(ctx)
    if plan.total_bytes_billed > left:
        raise RuleViolation(
            f"quotaExceeded: the query would bill {plan.total_bytes_billed} bytes but only {max(0, left)} of the "
            "project's daily query quota are left",
            field="query",
            hint="select fewer columns or wait until the quota resets at midnight UTC",
        )
    return ctx.create(
        Job,
        job_type="QUERY",
        location=plan.location,
        user_email=user_email,
        query=query,
        destination_table_id=destination_table_id,
        write_disposition=write_disposition,
        total_bytes_processed=plan.total_bytes_processed,
        total_bytes_billed=plan.total_bytes_billed,
    )


@service.tool(intent="load a file into the table", write=True, example=_example_load)
def insert_load_job(
    ctx: Ctx,
    destination_table_id: TableId,
    source_uri: SourceUri,
    source_format: SourceFormat,
    source_rows: Annotated[int, Field(ge=0)],
    user_email: Email,
    write_disposition: WriteDisposition = "WRITE_APPEND",
) -> Job:
    """Start a load job (PENDING) that writes a file's rows into a table when it runs.

    WRITE_EMPTY makes the job fail if the table holds rows by then;
    WRITE_TRUNCATE replaces them.

    Args:
        destination_table_id: The table.
        source_uri: The file.
        source_format: CSV, NEWLINE_DELIMITED_JSON, PARQUET or AVRO.
        source_rows: How many rows the file holds.
        user_email: Who runs it.
        write_disposition: WRITE_APPEND, WRITE_TRUNCATE or WRITE_EMPTY.
    """
    table = _live_table(ctx, destination_table_id, "destination_table_id")
    return ctx.create(
        Job,
        job_type="LOAD",
        location=_dataset_of(ctx, table).location,
        user_email=user_email,
        source_uri=source_uri,
        source_format=source_format,
        source_rows=source_rows,
        destination_table_id=table.id,
        write_disposition=write_disposition,
    )


def _finish(ctx: Ctx, job: Job) -> Job:
    """Run a job's effect as it completes: DONE, or DONE with an error result."""
    now = ctx.now()
    if job.destination_table_id is None:
        return ctx.update(job, state="DONE", end_time=now)
    table = ctx.find(Table, job.destination_table_id)
    if table is None or _expired(ctx, table):
        error = JobError(reason="notFound", message="Not found: the destination table")
        return ctx.update(job, state="DONE", end_time=now, error_result=error)
    if job.write_disposition == "WRITE_EMPTY" and table.num_rows > 0:
        error = JobError(reason="duplicate", message=f"Already Exists: table {table.name} holds {table.num_rows} rows")
        return ctx.update(job, state="DONE", end_time=now, error_result=error)
    if job.job_type == "LOAD":
        rows = job.source_rows or 0
    else:
        limit = re.search(r"\bLIMIT\s+(\d+)", job.query or "", re.IGNORECASE)
        plan = plan_query(ctx, job.query or "")
        rows = plan.source_rows if limit is None else min(int(limit.group(1)), plan.source_rows)
    width = max(1, len(table.columns)) * 16
    base_rows = 0 if job.write_disposition == "WRITE_TRUNCATE" else table.num_rows
    base_bytes = 0 if job.write_disposition == "WRITE_TRUNCATE" else table.num_bytes
    ctx.update(table, num_rows=base_rows + rows, num_bytes=base_bytes + rows * width)
    return ctx.update(job, state="DONE", end_time=now, output_rows=rows)


@service.tool(
    intent="check on the job",
    write=True,
    example=first_example(Job, "job_id", where={"state": "PENDING"}),
)
def poll_job(ctx: Ctx, job_id: JobId) -> Job:
    """Check on a job (jobs.get): a PENDING job starts RUNNING, a RUNNING one completes.

    On completion a load writes its rows and a query its results; a WRITE_EMPTY
    destination that holds rows, or one that expired meanwhile, fails the job.
    A DONE job is returned as it is.

    Args:
        job_id: The job.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.state == "PENDING":
        return ctx.update(job, state="RUNNING", start_time=ctx.now())
    if job.state == "RUNNING":
        return _finish(ctx, job)
    return job


@service.tool(
    intent="cancel the job",
    write=True,
    destructive=True,
    example=first_example(Job, "job_id", where={"state": "RUNNING"}),
)
def cancel_job(ctx: Ctx, job_id: JobId) -> Job:
    """Cancel a pending or running job: it ends DONE with the error reason ``stopped`` and writes nothing.

    Args:
        job_id: The job.
    """
    job = ctx.get(Job, job_id, field="job_id")
    if job.state == "DONE":
        raise Conflict(
            f"job {job.id} is already DONE and cannot be cancelled",
            field="job_id",
            hint="a finished query's results stay; undo a load with a WRITE_TRUNCATE load or query",
        )
    error = JobError(reason="stopped", message="Job execution was cancelled: User requested cancellation")
    return ctx.update(job, state="DONE", end_time=ctx.now(), error_result=error)


# -- scheduled queries ------------------------------------------------------------------------


@service.tool(intent="schedule a recurring query", write=True, example=_example_schedule)
def create_scheduled_query(
    ctx: Ctx,
    display_name: Annotated[str, StringConstraints(min_length=1, max_length=200)],
    query: Sql,
    destination_table_id: TableId,
    schedule: Annotated[str, StringConstraints(min_length=1, max_length=40)],
    owner_email: Email,
    write_disposition: Literal["WRITE_APPEND", "WRITE_TRUNCATE"] = "WRITE_TRUNCATE",
) -> ScheduledQuery:
    """Schedule a query that writes into a table (a Data Transfer Service config).

    The schedule is every N minutes, hours or days, at least 15 minutes apart;
    the query must be valid and read from the destination's location.

    Args:
        display_name: Its name.
        query: The SQL.
        destination_table_id: The table it writes.
        schedule: e.g. every 24 hours.
        owner_email: Whose credentials it runs with.
        write_disposition: Append to or replace the table.
    """
    every = _interval(schedule)
    if every < MIN_SCHEDULE:
        raise RuleViolation(
            f"{schedule} is too frequent: scheduled queries run at least 15 minutes apart",
            field="schedule",
            hint="use every 15 minutes or longer",
        )
    plan = plan_query(ctx, query)
    dest = _live_table(ctx, destination_table_id, "destination_table_id")
    if _dataset_of(ctx, dest).location != plan.location:
        raise RuleViolation(
            f"the destination dataset is not in {plan.location}, where the data is",
            field="destination_table_id",
            hint="write into a table of a dataset in the same location",
        )
    return ctx.create(
        ScheduledQuery,
        display_name=display_name,
        query=query,
        destination_table_id=dest.id,
        write_disposition=write_disposition,
        schedule=schedule,
        owner_email=owner_email,
        next_run_time=ctx.now() + every,
    )


@service.tool(
    intent="run the scheduled query now",
    write=True,
    example=first_example(ScheduledQuery, "scheduled_query_id", where={"enabled": True}),
)
def run_scheduled_query(ctx: Ctx, scheduled_query_id: ScheduleId) -> Job:
    """Start a manual run of a scheduled query: a PENDING query job into its table, under the daily quota.

    Args:
        scheduled_query_id: The scheduled query.
    """
    sq = ctx.get(ScheduledQuery, scheduled_query_id, field="scheduled_query_id")
    job = insert_query_job(
        ctx,
        query=sq.query,
        user_email=sq.owner_email,
        destination_table_id=sq.destination_table_id,
        write_disposition=sq.write_disposition,
    )
    job = ctx.update(job, scheduled_query_id=sq.id)
    ctx.update(sq, last_run_time=ctx.now())
    return job


# -- seed -------------------------------------------------------------------------------------


def _cols(*spec: str) -> tuple[SchemaField, ...]:
    out = []
    for item in spec:
        name, _, rest = item.partition(":")
        kind, _, mode = rest.partition(":")
        out.append(SchemaField(name=name, type=kind, mode=mode or "NULLABLE"))
    return tuple(out)


@service.seeder
def seed(s: SeedContext) -> None:
    """Sales, marketing, staging and an EU finance dataset; big order tables; today's jobs near the quota."""
    pop = s.population
    engineers = pop.staff("Engineering", fallback=3)
    finance = pop.staff("Finance", fallback=3)
    sales_staff = pop.staff("Sales", fallback=3)
    home_loc: Location = "EU" if pop.home.place.country not in ("US", "CA", "BR") else "US"
    other_loc: Location = "US" if home_loc == "EU" else "EU"
    now = s.now

    def dataset(name: str, loc: Location, owner: str, days: int, desc: str, expiry: int | None = None) -> Dataset:
        return s.create(
            Dataset,
            name=name,
            location=loc,
            owner_email=owner,
            description=desc,
            default_table_expiration_days=expiry,
            created_at=now - dt.timedelta(days=days),
        )

    sales = dataset("sales", home_loc, sales_staff[0].email, 700, f"Orders and customers of {pop.home.name}")
    marketing = dataset("marketing", home_loc, engineers[0].email, 400, "Campaign and web analytics")
    staging = dataset("staging", home_loc, engineers[-1].email, 100, "Scratch tables for loads", expiry=7)
    fin = dataset("finance_intl", other_loc, finance[0].email, 300, "Ledger exports kept in another region")

    def table(
        ds: Dataset,
        name: str,
        cols: tuple[SchemaField, ...],
        rows: int,
        size: int,
        days: int,
        expires: dt.datetime | None = None,
    ) -> Table:
        when = now - dt.timedelta(days=days)
        return s.create(
            Table,
            dataset_id=ds.id,
            name=name,
            columns=cols,
            num_rows=rows,
            num_bytes=size,
            expiration_time=expires,
            created_at=when,
            updated_at=when,
        )

    orders = table(
        sales,
        "orders",
        _cols(
            "order_id:STRING:REQUIRED",
            "customer_email:STRING",
            "order_date:DATE",
            "total:NUMERIC",
            "currency:STRING",
            "status:STRING",
            "channel:STRING",
            "country:STRING",
            "items:STRING:REPEATED",
            "discount:NUMERIC",
            "shipping:NUMERIC",
            "created_at:TIMESTAMP",
        ),
        2_400_000_000,
        600 * 1024**3,
        700,
    )
    table(
        sales,
        "customers",
        _cols(
            "customer_email:STRING:REQUIRED",
            "name:STRING",
            "company:STRING",
            "country:STRING",
            "first_order:DATE",
            "lifetime_value:NUMERIC",
        ),
        len(pop.people) * 1000,
        2 * 1024**3,
        700,
    )
    revenue = table(sales, "daily_revenue", _cols("order_date:DATE:REQUIRED", "total:NUMERIC"), 690, 22_080, 300)
    table(
        marketing,
        "web_sessions",
        _cols("session_id:STRING", "page:STRING", "started_at:TIMESTAMP", "source:STRING"),
        80_000_000,
        40 * 1024**3,
        400,
    )
    table(
        staging, "orders_import", _cols("order_id:STRING", "total:NUMERIC"), 0, 0, 2, expires=now + dt.timedelta(days=5)
    )
    table(
        staging,
        "old_import",
        _cols("order_id:STRING", "total:NUMERIC"),
        5000,
        160_000,
        9,
        expires=now - dt.timedelta(days=2),
    )
    table(
        fin,
        "gl_entries",
        _cols("entry_id:STRING:REQUIRED", "account:STRING", "amount:NUMERIC", "posted:DATE"),
        3_000_000,
        900 * MB,
        300,
    )

    sq = s.create(
        ScheduledQuery,
        display_name="Daily revenue",
        query="SELECT order_date, total FROM sales.orders",
        destination_table_id=revenue.id,
        write_disposition="WRITE_TRUNCATE",
        schedule="every 24 hours",
        owner_email=finance[0].email,
        next_run_time=now + dt.timedelta(hours=15),
        last_run_time=now - dt.timedelta(hours=9),
        created_at=now - dt.timedelta(days=300),
    )
    analysts = [*finance, *sales_staff, *engineers]
    for k in range(6):  # today's queries: together about 700 GiB of the 1 TiB quota
        when = now - dt.timedelta(hours=8 - k)
        size = (110 + 7 * k) * 1024**3
        s.create(
            Job,
            job_type="QUERY",
            state="DONE",
            location=home_loc,
            user_email=analysts[k % len(analysts)].email,
            query=f"SELECT customer_email, total, status FROM sales.orders WHERE total > {50 * (k + 1)}",
            total_bytes_processed=size - 3,
            total_bytes_billed=size,
            creation_time=when,
            start_time=when + dt.timedelta(seconds=2),
            end_time=when + dt.timedelta(seconds=40),
            scheduled_query_id=sq.id if k == 0 else None,
            destination_table_id=revenue.id if k == 0 else None,
            output_rows=690 if k == 0 else 0,
        )
    yesterday = now - dt.timedelta(days=1, hours=2)
    s.create(
        Job,
        job_type="QUERY",
        state="DONE",
        location=home_loc,
        user_email=engineers[0].email,
        query="SELECT * FROM sales.orders",
        total_bytes_processed=600 * 1024**3,
        total_bytes_billed=600 * 1024**3,
        creation_time=yesterday,
        start_time=yesterday,
        end_time=yesterday + dt.timedelta(minutes=3),
    )
    s.create(
        Job,
        job_type="LOAD",
        state="RUNNING",
        location=home_loc,
        user_email=engineers[-1].email,
        source_uri="gs://exports/orders/2026-03-01.csv",
        source_format="CSV",
        source_rows=48_000,
        destination_table_id=orders.id,
        creation_time=now - dt.timedelta(minutes=30),
        start_time=now - dt.timedelta(minutes=29),
    )
    s.create(
        Job,
        job_type="QUERY",
        state="PENDING",
        location=home_loc,
        user_email=sales_staff[0].email,
        query="SELECT status, total FROM sales.orders LIMIT 1000",
        total_bytes_processed=100 * 1024**3,
        total_bytes_billed=100 * 1024**3,
        creation_time=now - dt.timedelta(minutes=2),
    )
    failed = now - dt.timedelta(days=3)
    s.create(
        Job,
        job_type="LOAD",
        state="DONE",
        location=home_loc,
        user_email=engineers[0].email,
        source_uri="gs://exports/customers/full.csv",
        source_format="CSV",
        source_rows=12_000,
        destination_table_id=revenue.id,
        write_disposition="WRITE_EMPTY",
        creation_time=failed,
        start_time=failed,
        end_time=failed + dt.timedelta(seconds=5),
        error_result=JobError(reason="duplicate", message="Already Exists: table daily_revenue holds 690 rows"),
    )
