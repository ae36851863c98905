"""Fathom Warehouse: datasets and schemas, the job state machine, bytes billed and the daily quota, schedules."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.data.lakehouse import DAILY_QUERY_QUOTA, MB
from tests.services.helpers import ServiceTools

LH = ServiceTools("lakehouse")
WORLD = LH.world
ok, refused, every = LH.ok, LH.refused, LH.every
POP = WORLD.population
NOW = WORLD.epoch
GIB = 1024**3


def table(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_tables", name=name)[0]


def dataset(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_datasets", name=name)[0]


def me() -> str:
    return POP.employees[0].email


def billed_today(ep: Episode) -> int:
    start = dt.datetime.combine(NOW.date(), dt.time(), tzinfo=dt.UTC)
    return sum(
        j["total_bytes_billed"]
        for j in every(ep, "list_jobs", job_type="QUERY")
        if not j["dry_run"] and dt.datetime.fromisoformat(j["creation_time"]) >= start
    )


def test_seeded_datasets_belong_to_staff_and_today_has_used_most_of_the_quota(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    assert all(d["owner_email"] in staff for d in every(ep, "list_datasets"))
    assert all(j["user_email"] in staff for j in every(ep, "list_jobs"))
    used = billed_today(ep)
    assert DAILY_QUERY_QUOTA // 2 < used < DAILY_QUERY_QUOTA
    assert {j["state"] for j in every(ep, "list_jobs")} == {"PENDING", "RUNNING", "DONE"}


def test_dataset_names_and_default_table_expiration(ep: Episode) -> None:
    refused(ep, "create_dataset", "rule_violation", "name", name="web-events", location="US", owner_email=me())
    refused(ep, "create_dataset", "conflict", "name", name="sales", location="US", owner_email=me())
    ds = ok(ep, "create_dataset", name="web_events", location="EU", owner_email=me(), default_table_expiration_days=3)
    t = ok(ep, "create_table", dataset_id=ds["id"], name="hits", columns=[{"name": "url", "type": "STRING"}])
    created = dt.datetime.fromisoformat(t["created_at"])
    assert dt.datetime.fromisoformat(t["expiration_time"]) == created + dt.timedelta(days=3)


def test_a_dataset_with_tables_is_deleted_only_with_its_contents(ep: Episode) -> None:
    sales = dataset(ep, "sales")
    msg = refused(ep, "delete_dataset", "rule_violation", "delete_contents", dataset_id=sales["id"])
    assert "still in use" in msg
    res = ok(ep, "delete_dataset", dataset_id=sales["id"], delete_contents=True)
    assert res["tables_deleted"] == 3
    assert not every(ep, "list_tables", dataset_id=dataset(ep, "marketing")["id"], name="orders")
    assert all(not sq["enabled"] for sq in every(ep, "list_scheduled_queries"))


def test_schemas_refuse_bad_reserved_and_duplicate_columns_and_required_additions(ep: Episode) -> None:
    mk = dataset(ep, "marketing")["id"]
    for cols, etype in (
        ([{"name": "1st", "type": "STRING"}], "rule_violation"),
        ([{"name": "_PARTITIONTIME", "type": "TIMESTAMP"}], "rule_violation"),
        ([{"name": "Cost", "type": "NUMERIC"}, {"name": "cost", "type": "FLOAT64"}], "conflict"),
    ):
        refused(ep, "create_table", etype, "columns", dataset_id=mk, name="costs", columns=cols)
    refused(
        ep,
        "create_table",
        "conflict",
        "name",
        dataset_id=mk,
        name="web_sessions",
        columns=[{"name": "x", "type": "STRING"}],
    )
    sessions = table(ep, "web_sessions")
    refused(
        ep,
        "add_table_columns",
        "rule_violation",
        "columns",
        table_id=sessions["id"],
        columns=[{"name": "device", "type": "STRING", "mode": "REQUIRED"}],
    )
    refused(
        ep,
        "add_table_columns",
        "conflict",
        "columns",
        table_id=sessions["id"],
        columns=[{"name": "PAGE", "type": "STRING"}],
    )
    done = ok(ep, "add_table_columns", table_id=sessions["id"], columns=[{"name": "device", "type": "STRING"}])
    assert [c["name"] for c in done["columns"]][-1] == "device"


def test_a_query_job_moves_pending_running_done_and_writes_its_destination(ep: Episode) -> None:
    revenue = table(ep, "daily_revenue")
    job = ok(
        ep,
        "insert_query_job",
        query="SELECT order_date, total FROM sales.orders LIMIT 500",
        user_email=me(),
        destination_table_id=revenue["id"],
    )
    assert job["state"] == "PENDING"
    assert ok(ep, "poll_job", job_id=job["id"])["state"] == "RUNNING"
    done = ok(ep, "poll_job", job_id=job["id"])
    assert (done["state"], done["error_result"], done["output_rows"]) == ("DONE", None, 500)
    assert ok(ep, "get_table", table_id=revenue["id"])["num_rows"] == 500
    refused(ep, "cancel_job", "conflict", "job_id", job_id=job["id"])
    running = every(ep, "list_jobs", state="RUNNING")[0]
    stopped = ok(ep, "cancel_job", job_id=running["id"])
    assert (stopped["state"], stopped["error_result"]["reason"]) == ("DONE", "stopped")
    assert ok(ep, "get_table", table_id=table(ep, "orders")["id"])["num_rows"] == table(ep, "orders")["num_rows"]


def test_queries_bill_only_the_named_columns_with_a_ten_megabyte_floor(ep: Episode) -> None:
    orders = table(ep, "orders")
    per_column = orders["num_bytes"] // len(orders["columns"])
    two = ok(ep, "insert_query_job", query="SELECT status, total FROM sales.orders", user_email=me(), dry_run=True)
    assert (two["state"], two["total_bytes_processed"]) == ("DONE", 2 * per_column)
    star = ok(ep, "insert_query_job", query="SELECT * FROM sales.customers", user_email=me(), dry_run=True)
    assert star["total_bytes_processed"] == table(ep, "customers")["num_bytes"]
    tiny = ok(ep, "insert_query_job", query="SELECT total FROM sales.daily_revenue", user_email=me())
    assert tiny["total_bytes_billed"] == 10 * MB
    refused(
        ep,
        "insert_query_job",
        "rule_violation",
        "maximum_bytes_billed",
        query="SELECT status FROM sales.orders",
        user_email=me(),
        maximum_bytes_billed=GIB,
    )


def test_the_daily_quota_refuses_a_query_that_would_exceed_it(ep: Episode) -> None:
    left = DAILY_QUERY_QUOTA - billed_today(ep)
    msg = refused(
        ep, "insert_query_job", "rule_violation", "query", query="SELECT * FROM sales.orders", user_email=me()
    )
    assert "quotaExceeded" in msg
    dry = ok(ep, "insert_query_job", query="SELECT * FROM sales.orders", user_email=me(), dry_run=True)
    assert dry["total_bytes_processed"] > left and billed_today(ep) == DAILY_QUERY_QUOTA - left
    ok(ep, "insert_query_job", query="SELECT status, total FROM sales.orders", user_email=me())
    refused(
        ep,
        "insert_query_job",
        "rule_violation",
        "query",
        query="SELECT status, total FROM sales.orders",
        user_email=me(),
    )


def test_queries_cannot_read_across_locations_or_expired_tables(ep: Episode) -> None:
    refused(
        ep,
        "insert_query_job",
        "rule_violation",
        "query",
        query="SELECT o.total FROM sales.orders o JOIN finance_intl.gl_entries g ON o.order_id = g.entry_id",
        user_email=me(),
        dry_run=True,
    )
    refused(ep, "insert_query_job", "not_found", "query", query="SELECT total FROM staging.old_import", user_email=me())
    refused(
        ep,
        "insert_query_job",
        "rule_violation",
        "destination_table_id",
        query="SELECT amount FROM finance_intl.gl_entries",
        user_email=me(),
        destination_table_id=table(ep, "daily_revenue")["id"],
    )


def test_load_jobs_append_truncate_or_fail_on_a_table_with_rows(ep: Episode) -> None:
    def load(name: str, disposition: str, rows: int) -> dict[str, Any]:
        job = ok(
            ep,
            "insert_load_job",
            destination_table_id=table(ep, name)["id"],
            source_uri="gs://exports/x.csv",
            source_format="CSV",
            source_rows=rows,
            user_email=me(),
            write_disposition=disposition,
        )
        ok(ep, "poll_job", job_id=job["id"])
        return dict(ok(ep, "poll_job", job_id=job["id"]))

    failed = load("daily_revenue", "WRITE_EMPTY", 10)
    assert failed["error_result"]["reason"] == "duplicate" and table(ep, "daily_revenue")["num_rows"] == 690
    assert load("orders_import", "WRITE_EMPTY", 40)["error_result"] is None
    assert table(ep, "orders_import")["num_rows"] == 40
    load("orders_import", "WRITE_APPEND", 10)
    assert table(ep, "orders_import")["num_rows"] == 50
    load("orders_import", "WRITE_TRUNCATE", 7)
    assert table(ep, "orders_import")["num_rows"] == 7
    refused(
        ep,
        "insert_load_job",
        "not_found",
        "destination_table_id",
        destination_table_id=table(ep, "old_import")["id"],
        source_uri="gs://exports/x.csv",
        source_format="CSV",
        source_rows=1,
        user_email=me(),
    )


def test_scheduled_queries_run_at_least_fifteen_minutes_apart_and_start_quota_checked_jobs(ep: Episode) -> None:
    revenue = table(ep, "daily_revenue")
    base = {"display_name": "Revenue", "destination_table_id": revenue["id"], "owner_email": me()}
    refused(
        ep,
        "create_scheduled_query",
        "rule_violation",
        "schedule",
        **base,
        query="SELECT order_date, total FROM sales.orders",
        schedule="every 5 minutes",
    )
    refused(
        ep,
        "create_scheduled_query",
        "rule_violation",
        "destination_table_id",
        **base,
        query="SELECT amount FROM finance_intl.gl_entries",
        schedule="every 1 hours",
    )
    made = ok(
        ep, "create_scheduled_query", **base, query="SELECT total FROM sales.daily_revenue", schedule="every 15 minutes"
    )
    created = dt.datetime.fromisoformat(made["created_at"])
    assert dt.datetime.fromisoformat(made["next_run_time"]) == created + dt.timedelta(minutes=15)
    daily = every(ep, "list_scheduled_queries", enabled=True)[0]
    job = ok(ep, "run_scheduled_query", scheduled_query_id=daily["id"])
    assert (job["state"], job["scheduled_query_id"], job["destination_table_id"]) == (
        "PENDING",
        daily["id"],
        revenue["id"],
    )
    refused(ep, "run_scheduled_query", "rule_violation", "query", scheduled_query_id=daily["id"])
