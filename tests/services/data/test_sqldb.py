"""Quarry SQL: the dialect's parser, parameters, constraints, database states, DDL, saved queries, history."""

from __future__ import annotations

from typing import Any

import pytest

from compoworld import Episode
from compoworld.services.data.sqldb import Row
from compoworld.world.commerce import first_order_numbers
from tests.services.helpers import ServiceTools, rows

SQL = ServiceTools("sqldb")
WORLD = SQL.world
ok, refused, every = SQL.ok, SQL.refused, SQL.every
POP = WORLD.population


def db_id(ep: Episode, name: str) -> str:
    return str(every(ep, "list_databases", name=name)[0]["id"])


def table_id(ep: Episode, name: str, db: str = "commerce") -> str:
    return str(every(ep, "list_tables", database_id=db_id(ep, db), name=name)[0]["id"])


def q(ep: Episode, sql: str, *params: Any, db: str = "commerce") -> dict[str, Any]:
    return dict(ok(ep, "run_query", database_id=db_id(ep, db), sql=sql, params=list(params)))


def bad(ep: Episode, etype: str, field: str, sql: str, *params: Any, db: str = "commerce") -> str:
    return refused(ep, "run_query", etype, field, database_id=db_id(ep, db), sql=sql, params=list(params))


def values(result: dict[str, Any], column: str) -> list[Any]:
    return [r[column] for r in result["rows"]]


# -- the world --------------------------------------------------------------------------------


def test_the_commerce_database_holds_the_populations_customers_products_and_shop_orders() -> None:
    ep = Episode(WORLD)
    customers = q(ep, "SELECT id, email, first_name, last_name, phone FROM customers ORDER BY id")["rows"]
    assert [(c["email"], c["first_name"], c["last_name"], c["phone"]) for c in customers] == [
        (p.email, p.first_name, p.last_name, p.phone) for p in POP.consumers
    ]
    skus = values(q(ep, "SELECT sku FROM products ORDER BY sku"), "sku")
    assert skus == sorted(p.sku for p in POP.products)
    orders = q(ep, "SELECT order_number, customer_id FROM orders")["rows"]
    by_email = first_order_numbers(POP)
    assert {o["order_number"] for o in orders} == set(by_email.values())
    for o in orders:
        assert by_email[customers[o["customer_id"] - 1]["email"]] == o["order_number"]
    managers = {p.email for p in POP.employees}
    assert set(
        values(q(ep, "SELECT account_manager_email FROM accounts", db="analytics"), "account_manager_email")
    ) <= (managers)
    for db in every(ep, "list_databases"):
        assert db["owner_email"] in managers


def test_seeded_rows_keep_every_constraint_and_order_totals_add_up() -> None:
    ep = Episode(WORLD)
    for db in ("commerce", "analytics"):
        for table in every(ep, "list_tables", database_id=db_id(ep, db)):
            rows = q(ep, f"SELECT * FROM {table['schema_name']}.{table['name']}", db=db)["rows"]
            keys = [tuple(table["primary_key"])] + [tuple(u["columns"]) for u in table["unique_constraints"]]
            for key in keys:
                seen = [tuple(r[c] for c in key) for r in rows]
                assert len(seen) == len(set(seen)), (table["name"], key)
            for col in table["columns"]:
                if not col["nullable"]:
                    assert all(r[col["name"]] is not None for r in rows)
            for fk in table["foreign_keys"]:
                target = ok(ep, "get_table", table_id=fk["references_table_id"])
                there = q(ep, f"SELECT * FROM {target['name']}", db=db)["rows"]
                keys_there = {tuple(r[c] for c in fk["references_columns"]) for r in there}
                assert all(tuple(r[c] for c in fk["columns"]) in keys_there for r in rows)
    items = q(ep, "SELECT order_id, quantity, unit_price FROM order_items")["rows"]
    for order in q(ep, "SELECT id, total FROM orders")["rows"]:
        total = sum(float(i["unit_price"]) * i["quantity"] for i in items if i["order_id"] == order["id"])
        assert round(total, 2) == float(order["total"])


def test_the_seeded_history_is_what_the_saved_queries_return() -> None:
    ep = Episode(WORLD)
    runs = every(ep, "list_query_runs")
    assert runs and all(r["saved_query_id"] for r in runs)
    for run in runs:
        saved = ok(ep, "get_saved_query", saved_query_id=run["saved_query_id"])
        again = ok(ep, "run_saved_query", saved_query_id=saved["id"], params=list(run["params"]))
        assert again["row_count"] == run["row_count"] and run["sql"] == saved["sql"]


# -- SELECT -----------------------------------------------------------------------------------


def test_select_filters_orders_pages_and_counts(ep: Episode) -> None:
    paid = q(ep, "SELECT order_number, total FROM orders WHERE status = $1 ORDER BY total DESC", "paid")
    totals = [float(t) for t in values(paid, "total")]
    assert totals == sorted(totals, reverse=True) and paid["row_count"] == len(totals) > 2
    page = q(
        ep, "SELECT order_number FROM orders WHERE status = $1 ORDER BY total DESC LIMIT $2 OFFSET $3", "paid", 2, 1
    )
    assert values(page, "order_number") == values(paid, "order_number")[1:3]
    count = q(ep, "SELECT count(*) AS n FROM orders WHERE status = $1 OR status = $2", "paid", "pending")
    pending = q(ep, "SELECT id FROM orders WHERE status = $1", "pending")["row_count"]
    assert count["rows"] == [{"n": len(totals) + pending}] and count["fields"] == [
        {"name": "n", "data_type": "integer"}
    ]
    aliased = q(ep, "SELECT o.order_number AS num FROM orders o WHERE o.total >= $1 ORDER BY num LIMIT 3", "100")
    assert values(aliased, "num") == sorted(values(aliased, "num"))


def test_nulls_never_match_a_comparison_and_sort_last_ascending_first_descending(ep: Episode) -> None:
    asc = values(q(ep, "SELECT shipped_on FROM orders ORDER BY shipped_on"), "shipped_on")
    desc = values(q(ep, "SELECT shipped_on FROM orders ORDER BY shipped_on DESC"), "shipped_on")
    assert asc[-1] is None and asc[0] is not None and desc[0] is None
    flipped = values(q(ep, "SELECT shipped_on FROM orders ORDER BY shipped_on NULLS FIRST"), "shipped_on")
    assert flipped[0] is None
    everyone = q(ep, "SELECT count(*) FROM orders")["rows"][0]["count"]
    nulls = q(ep, "SELECT count(*) FROM orders WHERE shipped_on IS NULL")["rows"][0]["count"]
    later = q(ep, "SELECT count(*) FROM orders WHERE shipped_on > $1", "2000-01-01")["rows"][0]["count"]
    other = q(ep, "SELECT count(*) FROM orders WHERE NOT (shipped_on > $1)", "2000-01-01")["rows"][0]["count"]
    assert later == everyone - nulls and other == 0 and nulls > 0


def test_like_and_ilike_match_patterns_on_text_only(ep: Episode) -> None:
    product = POP.products[0]
    word = product.name.split()[-1]
    found = q(ep, "SELECT name FROM products WHERE name ILIKE $1", f"%{word.upper()}%")
    assert product.name in values(found, "name")
    assert q(ep, "SELECT name FROM products WHERE name LIKE $1", f"%{word.upper()}%")["row_count"] == 0
    assert q(ep, "SELECT sku FROM products WHERE sku LIKE $1", f"{product.sku[:4]}_%")["row_count"] >= 1
    assert q(ep, "SELECT sku FROM products WHERE sku NOT LIKE $1", "%")["row_count"] == 0
    bad(ep, "not_found", "sql", "SELECT sku FROM products WHERE weight_grams ILIKE $1", "1%")
    bad(ep, "rule_violation", "params", "SELECT sku FROM products WHERE name LIKE $1", "ends with \\")
    assert q(ep, "SELECT id FROM customers WHERE email LIKE $1", "%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%a%z")["row_count"] == 0
    assert q(ep, "SELECT id FROM customers WHERE email LIKE $1", "%\\_%")["row_count"] == 0


def test_expressions_nest_and_chain_only_so_deep(ep: Episode) -> None:
    assert q(ep, "SELECT id FROM customers WHERE " + " OR ".join(["id = $1"] * 40), 1)["row_count"] == 1
    assert q(ep, "SELECT id FROM customers WHERE ((((id = $1))))", 1)["row_count"] == 1
    for sql in (
        "SELECT id FROM customers WHERE " + " OR ".join(["id = $1"] * 500),
        "SELECT id FROM customers WHERE " + "(" * 300 + "id = $1" + ")" * 300,
        "SELECT id FROM customers WHERE " + "NOT " * 1000 + "id = $1",
    ):
        assert "54001" in bad(ep, "rule_violation", "sql", sql, 1)


# -- what the dialect refuses -----------------------------------------------------------------


def test_values_written_into_the_query_are_refused_in_favour_of_parameters(ep: Episode) -> None:
    email = POP.consumers[0].email
    message = bad(ep, "rule_violation", "sql", f"SELECT * FROM customers WHERE email = '{email}'")
    assert "parameters" in message
    bad(ep, "rule_violation", "sql", "SELECT * FROM customers WHERE id = 5")
    bad(ep, "rule_violation", "sql", "UPDATE customers SET city = E'Paris' WHERE id = $1", 1)
    bad(ep, "rule_violation", "sql", "SELECT * FROM customers WHERE email = $$x$$")
    bad(ep, "not_found", "sql", f'SELECT * FROM customers WHERE email = "{email}"')
    assert q(ep, "SELECT id FROM customers WHERE email = $1", email)["rows"] == [{"id": 1}]


@pytest.mark.parametrize(
    ("sql", "needle"),
    [
        ("SELECT * FROM `customers`", "MySQL"),
        ("SELECT * FROM customers LIMIT 5, 10", "LIMIT #,#"),
        ("SELECT TOP 5 * FROM customers", "SQL Server"),
        ("SELECT * FROM customers WHERE id = ?", "placeholders"),
        ("SELECT * FROM customers WHERE id = :id", "named parameters"),
        ("SELECT * FROM customers; DELETE FROM customers WHERE id = $1", "multiple commands"),
        ("DROP TABLE customers", "DDL"),
        ("CREATE TABLE t (id integer)", "DDL"),
        ("BEGIN", "transaction control"),
        ("SELECT * FROM orders o JOIN customers c ON o.customer_id = c.id", "JOIN"),
        ("SELECT * FROM orders, customers", "JOIN"),
        ("SELECT status, count(*) FROM orders GROUP BY status", "GROUP BY"),
        ("SELECT * FROM customers WHERE id IN ($1, $2)", "IN"),
        ("SELECT id::text FROM customers", "casts"),
        ("SELECT * FROM (SELECT * FROM customers) c", "a quoted string is not|syntax error|subqueries"),
        ("INSERT INTO customers SET email = $1", "MySQL"),
        ("SELECT now()", "output column"),
    ],
)
def test_other_dialects_ddl_and_several_statements_are_refused_with_what_is_accepted(
    ep: Episode, sql: str, needle: str
) -> None:
    res = ep.call("sqldb__run_query", {"database_id": db_id(ep, "commerce"), "sql": sql, "params": []})
    assert not res.ok and res.error is not None
    assert res.error.field == "sql" and res.error.hint
    assert any(n in res.error.message for n in needle.split("|")), res.error.message
    assert ep.diff().is_empty


def test_parameters_must_match_the_placeholders_and_their_columns_types(ep: Episode) -> None:
    bad(ep, "rule_violation", "params", "SELECT * FROM customers WHERE id = $1")
    bad(ep, "rule_violation", "params", "SELECT * FROM customers WHERE id = $1", 1, 2)
    bad(ep, "rule_violation", "sql", "SELECT * FROM customers WHERE id = $2", 1, 2)
    bad(ep, "rule_violation", "sql", "SELECT * FROM customers WHERE id = $1 AND email = $1", 1)
    bad(ep, "rule_violation", "sql", "SELECT * FROM customers WHERE $1 = $2", 1, 1)
    bad(ep, "rule_violation", "params.0", "SELECT * FROM customers WHERE id = $1", "abc")
    bad(ep, "rule_violation", "params.0", "SELECT * FROM customers WHERE created_at > $1", "yesterday")
    bad(ep, "not_found", "sql", "SELECT * FROM customers WHERE email = $1 + id", "x")
    assert q(ep, "SELECT email FROM customers WHERE id = $1", "1")["row_count"] == 1
    assert q(ep, "SELECT sku FROM products WHERE active = $1", "no")["row_count"] >= 1


def test_unknown_tables_and_columns_say_what_exists(ep: Episode) -> None:
    msg = bad(ep, "not_found", "sql", 'SELECT * FROM "Customers"')
    assert "42P01" in msg
    res = ep.call("sqldb__run_query", {"database_id": db_id(ep, "commerce"), "sql": "SELECT emial FROM customers"})
    assert res.error is not None and "email" in res.error.hint
    bad(ep, "not_found", "sql", "SELECT c.email FROM customers x")
    assert q(ep, "SELECT EMAIL FROM Customers LIMIT 1")["fields"][0]["name"] == "email"


# -- writes and constraints -------------------------------------------------------------------


def test_insert_numbers_identity_fills_defaults_and_returns_the_row(ep: Episode) -> None:
    before = q(ep, "SELECT count(*) FROM customers")["rows"][0]["count"]
    row = q(
        ep,
        "INSERT INTO customers (email, first_name, last_name, country) VALUES ($1, $2, $3, $4), ($5, $2, $3, $4) "
        "RETURNING id, marketing_opt_in, created_at",
        "ana.new@mailbox.net",
        "Ana",
        "New",
        "PT",
        "ana.other@mailbox.net",
    )
    assert [r["id"] for r in row["rows"]] == [before + 1, before + 2]
    assert row["rows"][0]["marketing_opt_in"] is False and row["rows"][0]["created_at"].endswith("+00")
    table = ok(ep, "get_table", table_id=table_id(ep, "customers"))
    assert table["sequences"] == {"id": before + 3}
    bad(
        ep,
        "rule_violation",
        "sql",
        "INSERT INTO customers (id, email, first_name, last_name, country) VALUES ($1, $2, $3, $4, $5)",
        999,
        "x@mailbox.net",
        "X",
        "Y",
        "US",
    )
    bad(ep, "rule_violation", "sql", "UPDATE customers SET id = $1 WHERE id = $2", 500, 1)


def test_unique_keys_not_null_and_numeric_precision_are_enforced(ep: Episode) -> None:
    taken = POP.consumers[1].email
    insert = "INSERT INTO customers (email, first_name, last_name, country) VALUES ($1, $2, $3, $4)"
    msg = bad(ep, "conflict", "params", insert, taken, "A", "B", "US")
    assert "customers_email_key" in msg and taken in msg
    bad(ep, "conflict", "params", insert + ", ($1, $2, $3, $4)", "twice@mailbox.net", "A", "B", "US")
    bad(ep, "conflict", "params", "UPDATE customers SET email = $1 WHERE id = $2", taken, 1)
    bad(
        ep,
        "rule_violation",
        "params",
        "INSERT INTO customers (email, first_name, last_name) VALUES ($1, $2, $3)",
        "nocountry@mailbox.net",
        "A",
        "B",
    )
    bad(ep, "rule_violation", "params", "UPDATE customers SET first_name = NULL WHERE id = $1", 1)
    sku = POP.products[0].sku
    bad(ep, "rule_violation", "params", "UPDATE products SET price = $1 WHERE sku = $2", "123456789.5", sku)
    bumped = q(ep, "UPDATE products SET price = price + $1 WHERE sku = $2 RETURNING price", "0.005", sku)
    cents = POP.products[0].price_cents + 1
    assert bumped["rows"] == [{"price": f"{cents // 100}.{cents % 100:02d}"}]


def test_foreign_keys_restrict_cascade_and_refuse_missing_parents(ep: Episode) -> None:
    insert = "INSERT INTO orders (order_number, customer_id, currency, total) VALUES ($1, $2, $3, $4)"
    msg = bad(ep, "rule_violation", "params", insert, "#9001", 9999, "EUR", "10.00")
    assert "orders_customer_id_fkey" in msg
    order = q(ep, "SELECT id, customer_id FROM orders LIMIT 1")["rows"][0]
    bad(ep, "rule_violation", "sql", "DELETE FROM customers WHERE id = $1", order["customer_id"])
    bad(
        ep,
        "rule_violation",
        "params",
        "UPDATE products SET sku = $1 WHERE sku = $2",
        "NEW-1",
        q(ep, "SELECT sku FROM order_items LIMIT 1")["rows"][0]["sku"],
    )
    items = q(ep, "SELECT count(*) FROM order_items WHERE order_id = $1", order["id"])["rows"][0]["count"]
    assert items >= 1
    gone = q(ep, "DELETE FROM orders WHERE id = $1 RETURNING order_number", order["id"])
    assert gone["row_count"] == 1
    assert q(ep, "SELECT count(*) FROM order_items WHERE order_id = $1", order["id"])["rows"][0]["count"] == 0
    q(ep, "DELETE FROM orders WHERE customer_id = $1", order["customer_id"])
    assert q(ep, "DELETE FROM customers WHERE id = $1", order["customer_id"])["row_count"] == 1


def test_update_and_delete_need_a_where_clause(ep: Episode) -> None:
    bad(ep, "rule_violation", "sql", "UPDATE products SET active = $1", False)
    bad(ep, "rule_violation", "sql", "DELETE FROM order_items")
    everyone = q(ep, "UPDATE products SET active = $1 WHERE true", False)
    assert everyone["row_count"] == len(POP.products)
    assert q(ep, "SELECT count(*) FROM products WHERE active")["rows"] == [{"count": 0}]
    moved = q(ep, "UPDATE orders SET shipped_on = shipped_on + $1 WHERE shipped_on IS NOT NULL RETURNING id", 1)
    assert moved["row_count"] > 0


# -- database states --------------------------------------------------------------------------


def test_a_read_only_database_takes_only_select_until_unlocked(ep: Episode) -> None:
    analytics = db_id(ep, "analytics")
    assert q(ep, "SELECT count(*) FROM accounts", db="analytics")["rows"] == [{"count": len(POP.customers)}]
    update = "UPDATE accounts SET industry = $1 WHERE id = $2"
    assert "25006" in bad(ep, "rule_violation", "sql", update, "retail", 1, db="analytics")
    refused(ep, "create_schema", "rule_violation", "database_id", database_id=analytics, name="scratch")
    refused(ep, "lock_database", "rule_violation", "database_id", database_id=analytics)
    ok(ep, "unlock_database", database_id=analytics)
    assert q(ep, update + " RETURNING industry", "retail", 1, db="analytics")["rows"] == [{"industry": "retail"}]


def test_a_paused_database_takes_nothing_until_resumed(ep: Episode) -> None:
    legacy = db_id(ep, "legacy_crm")
    assert "57P03" in bad(ep, "rule_violation", "database_id", "SELECT * FROM contacts", db="legacy_crm")
    refused(ep, "drop_table", "rule_violation", "table_id", table_id=table_id(ep, "contacts", "legacy_crm"))
    refused(ep, "pause_database", "rule_violation", "database_id", database_id=legacy)
    refused(ep, "unlock_database", "rule_violation", "database_id", database_id=legacy)
    assert ok(ep, "resume_database", database_id=legacy)["status"] == "active"
    assert q(ep, "SELECT count(*) FROM contacts", db="legacy_crm")["rows"] == [{"count": 12}]
    assert ok(ep, "pause_database", database_id=db_id(ep, "commerce"))["status"] == "paused"


def test_a_transaction_commits_together_or_rolls_back_whole(ep: Episode) -> None:
    commerce = db_id(ep, "commerce")
    new = "INSERT INTO customers (email, first_name, last_name, country) VALUES ($1, $2, $3, $4) RETURNING id"
    order = "INSERT INTO orders (order_number, customer_id, currency, total) VALUES ($1, $2, $3, $4) RETURNING id"
    done = ok(
        ep,
        "run_transaction",
        database_id=commerce,
        queries=[
            {"sql": new, "params": ["tx.one@mailbox.net", "Tia", "Xu", "SG"]},
            {"sql": order, "params": ["#8001", len(POP.consumers) + 1, "EUR", "12.50"]},
        ],
    )
    assert [r["command"] for r in done["results"]] == ["INSERT", "INSERT"]
    taken = first_order_numbers(POP)[POP.consumers[0].email]
    msg = refused(
        ep,
        "run_transaction",
        "conflict",
        "queries.1.params",
        database_id=commerce,
        queries=[
            {"sql": new, "params": ["tx.two@mailbox.net", "Tia", "Xu", "SG"]},
            {"sql": order, "params": [taken, 1, "EUR", "1"]},
        ],
    )
    assert "statement 2 of 2" in msg
    assert q(ep, "SELECT count(*) FROM customers WHERE email = $1", "tx.two@mailbox.net")["rows"] == [{"count": 0}]
    refused(
        ep,
        "run_transaction",
        "rule_violation",
        "queries.0.sql",
        database_id=commerce,
        read_only=True,
        queries=[{"sql": new, "params": ["tx.three@mailbox.net", "Tia", "Xu", "SG"]}],
    )


# -- tables and schemas -----------------------------------------------------------------------


def test_create_table_checks_keys_types_defaults_and_references(ep: Episode) -> None:
    commerce = db_id(ep, "commerce")
    products = table_id(ep, "products")
    cols = [{"name": "id", "type": "integer", "identity": True, "primary_key": True}]

    def create(etype: str, field: str, **kw: Any) -> None:
        refused(ep, "create_table", etype, field, **{"database_id": commerce, "name": "reviews", "columns": cols} | kw)

    create("conflict", "name", name="customers")
    create("rule_violation", "name", name="order")
    create("not_found", "schema_name", schema_name="nowhere")
    create("rule_violation", "primary_key", primary_key=["id"])
    create("rule_violation", "columns.0.identity", columns=[{"name": "id", "type": "text", "identity": True}])
    create("rule_violation", "columns.0.default", columns=[{"name": "n", "type": "integer", "default": "many"}])
    create("rule_violation", "columns.0.scale", columns=[{"name": "n", "type": "numeric", "precision": 3, "scale": 5}])
    create("rule_violation", "columns.1.name", columns=[*cols, {"name": "id", "type": "text"}])
    fk = {"columns": ["sku"], "references_table_id": products}
    sku_int = [*cols, {"name": "sku", "type": "integer"}]
    create("rule_violation", "foreign_keys.0.columns", columns=sku_int, foreign_keys=[fk])
    sku = [*cols, {"name": "sku", "type": "text", "nullable": False}]
    create(
        "rule_violation",
        "foreign_keys.0.references_columns",
        columns=sku,
        foreign_keys=[fk | {"references_columns": ["category"]}],
    )
    made = ok(
        ep,
        "create_table",
        database_id=commerce,
        name="reviews",
        columns=[*sku, {"name": "stars", "type": "integer", "nullable": False, "default": 5}],
        foreign_keys=[fk | {"on_delete": "cascade"}],
    )
    assert made["primary_key"] == ["id"] and made["foreign_keys"][0]["name"] == "reviews_sku_fkey"
    row = q(ep, "INSERT INTO reviews (sku) VALUES ($1) RETURNING id, stars", POP.products[1].sku)
    assert row["rows"] == [{"id": 1, "stars": 5}]
    desc = ok(ep, "describe_table", table_id=products)
    assert {"table_name": "reviews", "constraint": "reviews_sku_fkey"}.items() <= {
        k: v for r in desc["referenced_by"] for k, v in r.items() if r["table_name"] == "reviews"
    }.items()
    assert "CREATE TABLE public.reviews" in ok(ep, "describe_table", table_id=made["id"])["ddl"]


def test_dropping_a_referenced_table_needs_cascade(ep: Episode) -> None:
    customers = table_id(ep, "customers")
    refused(ep, "drop_table", "rule_violation", "cascade", table_id=customers)
    dropped = ok(ep, "drop_table", table_id=customers, cascade=True)
    assert dropped["dropped_constraints"] == ["orders_customer_id_fkey"]
    assert dropped["rows_deleted"] == len(POP.consumers)
    assert ok(ep, "get_table", table_id=table_id(ep, "orders"))["foreign_keys"] == []
    bad(ep, "not_found", "sql", "SELECT * FROM customers")


def test_columns_are_added_with_defaults_and_dropped_with_their_constraints(ep: Episode) -> None:
    customers = table_id(ep, "customers")
    refused(
        ep,
        "add_column",
        "rule_violation",
        "column.default",
        table_id=customers,
        column={"name": "tier", "type": "text", "nullable": False},
    )
    refused(
        ep,
        "add_column",
        "conflict",
        "column.unique",
        table_id=customers,
        column={"name": "tier", "type": "text", "unique": True, "default": "basic"},
    )
    refused(ep, "add_column", "conflict", "column.name", table_id=customers, column={"name": "email", "type": "text"})
    ok(
        ep,
        "add_column",
        table_id=customers,
        column={"name": "tier", "type": "text", "nullable": False, "default": "basic"},
    )
    assert set(values(q(ep, "SELECT tier FROM customers"), "tier")) == {"basic"}
    refused(ep, "drop_column", "rule_violation", "column_name", table_id=customers, column_name="id")
    table = ok(ep, "drop_column", table_id=customers, column_name="email")
    assert table["unique_constraints"] == [] and "email" not in [c["name"] for c in table["columns"]]
    bad(ep, "not_found", "sql", "SELECT email FROM customers")
    refused(ep, "drop_column", "not_found", "column_name", table_id=customers, column_name="email")


def test_schemas_group_tables_and_are_dropped_only_empty(ep: Episode) -> None:
    commerce = db_id(ep, "commerce")
    refused(ep, "create_schema", "rule_violation", "name", database_id=commerce, name="pg_stuff")
    refused(ep, "create_schema", "conflict", "name", database_id=commerce, name="staging")
    staging = every(ep, "list_schemas", database_id=commerce, name="staging")[0]["id"]
    ok(
        ep,
        "create_table",
        database_id=commerce,
        schema_name="staging",
        name="customers",
        columns=[{"name": "email", "type": "text", "primary_key": True}],
    )
    q(ep, "INSERT INTO staging.customers (email) VALUES ($1)", "import@mailbox.net")
    assert q(ep, "SELECT count(*) FROM staging.customers")["rows"] == [{"count": 1}]
    assert q(ep, "SELECT count(*) FROM customers")["rows"] == [{"count": len(POP.consumers)}]
    refused(ep, "delete_schema", "rule_violation", "schema_id", schema_id=staging)
    archive = every(ep, "list_schemas", database_id=commerce, name="archive")[0]["id"]
    ok(ep, "delete_schema", schema_id=archive)


# -- databases, saved queries and history -----------------------------------------------------


def test_databases_are_owned_by_staff_and_dropped_whole(ep: Episode) -> None:
    staff = POP.employees[0].email
    refused(ep, "create_database", "rule_violation", "name", name="postgres", owner_email=staff)
    refused(ep, "create_database", "conflict", "name", name="commerce", owner_email=staff)
    refused(ep, "create_database", "rule_violation", "owner_email", name="events", owner_email=POP.consumers[0].email)
    new = ok(ep, "create_database", name="events", owner_email=staff)
    assert [s["name"] for s in every(ep, "list_schemas", database_id=new["id"])] == ["public"]
    commerce = db_id(ep, "commerce")
    tables = {t["id"] for t in every(ep, "list_tables", database_id=commerce)}
    ok(ep, "delete_database", database_id=commerce)
    assert not [r for r in rows(ep, Row) if r.table_id in tables]
    for tool in ("list_tables", "list_schemas", "list_saved_queries", "list_query_runs"):
        assert all(r["database_id"] != commerce for r in every(ep, tool))
    assert every(ep, "list_tables")


def test_saved_queries_are_checked_named_once_and_run_with_their_parameters(ep: Episode) -> None:
    commerce = db_id(ep, "commerce")
    owner = POP.employees[0].email
    save = {"database_id": commerce, "owner_email": owner}
    refused(ep, "create_saved_query", "rule_violation", "sql", name="x", sql="DROP TABLE orders", **save)
    refused(ep, "create_saved_query", "not_found", "sql", name="x", sql="SELECT * FROM invoices", **save)
    refused(ep, "create_saved_query", "conflict", "name", name="Customer by e-mail", sql="SELECT * FROM orders", **save)
    made = ok(
        ep, "create_saved_query", name="Big orders", sql="SELECT order_number FROM orders WHERE total > $1", **save
    )
    assert (made["command"], made["param_count"]) == ("SELECT", 1)
    refused(ep, "run_saved_query", "rule_violation", "params", saved_query_id=made["id"])
    run = ok(ep, "run_saved_query", saved_query_id=made["id"], params=["500"])
    assert ok(ep, "get_query_run", query_run_id=run["query_run_id"])["saved_query_id"] == made["id"]
    edited = ok(
        ep,
        "update_saved_query",
        saved_query_id=made["id"],
        sql="SELECT order_number FROM orders WHERE total > $1 AND status = $2",
    )
    assert edited["param_count"] == 2
    refused(ep, "update_saved_query", "rule_violation", "sql", saved_query_id=made["id"], sql="SELECT * FROM x; x")
    archived = every(ep, "list_saved_queries", status="archived")[0]
    refused(
        ep,
        "run_saved_query",
        "rule_violation",
        "saved_query_id",
        saved_query_id=archived["id"],
        params=["#1001", "shipped"],
    )
    refused(ep, "archive_saved_query", "rule_violation", "saved_query_id", saved_query_id=archived["id"])
    ok(ep, "unarchive_saved_query", saved_query_id=archived["id"])
    shipped = ok(ep, "run_saved_query", saved_query_id=archived["id"], params=["#1001", "shipped"])
    assert shipped["rows"] == [{"order_number": "#1001", "status": "shipped"}]


def test_every_statement_that_ran_is_in_the_history_and_a_preview_is_not(ep: Episode) -> None:
    commerce = db_id(ep, "commerce")
    before = len(every(ep, "list_query_runs", database_id=commerce))
    prepared = ok(
        ep,
        "prepare_query",
        database_id=commerce,
        sql="UPDATE orders SET status = $2 WHERE order_number = $1 AND total > $3 RETURNING id",
    )
    assert [p["data_type"] for p in prepared["parameters"]] == ["text", "text", "numeric"]
    assert prepared["fields"] == [{"name": "id", "data_type": "integer"}]
    assert len(every(ep, "list_query_runs", database_id=commerce)) == before
    q(ep, "SELECT id FROM orders WHERE status = $1", "paid")
    bad(ep, "rule_violation", "sql", "SELECT id FROM orders WHERE status = 'paid'")
    runs = every(ep, "list_query_runs", database_id=commerce)
    assert len(runs) == before + 1 and runs[-1]["params"] == ["paid"] and runs[-1]["command"] == "SELECT"
