"""Lenswork BI: SQL permissions, question validity, source states, the dashboard grid, archiving, subscriptions."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BI = ServiceTools("bidash")
WORLD = BI.world
ok, refused, every, items, first = BI.ok, BI.refused, BI.every, BI.items, BI.first
POP = WORLD.population
DOMAIN = POP.home.domain


def source(ep: Episode, name: str) -> dict[str, Any]:
    return next(s for s in items(ep, "data_sources") if s["name"] == name)


def table(ep: Episode, src: str, name: str) -> dict[str, Any]:
    return first(ep, "tables", source_id=source(ep, src)["id"], name=name)


def question(ep: Episode, name: str) -> dict[str, Any]:
    return next(q for q in every(ep, "list_questions") if q["name"] == name)


def dashboard(ep: Episode, name: str) -> dict[str, Any]:
    return next(d for d in items(ep, "dashboards") if d["name"] == name)


def user(ep: Episode, role: str) -> dict[str, Any]:
    return first(ep, "users", role=role, active=True)


# -- the world ------------------------------------------------------------------------------


def test_users_are_staff_and_dashcards_fit_the_grid_without_overlap() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p.name for p in POP.employees}
    assert all(staff[u["email"]] == u["name"] for u in every(ep, "list_users"))
    cards = every(ep, "list_dashcards")
    for a in cards:
        assert a["col"] + a["size_x"] <= 24
        for b in cards:
            if a["id"] < b["id"] and a["dashboard_id"] == b["dashboard_id"]:
                assert not (
                    a["col"] < b["col"] + b["size_x"]
                    and b["col"] < a["col"] + a["size_x"]
                    and a["row"] < b["row"] + b["size_y"]
                    and b["row"] < a["row"] + a["size_y"]
                )
    users = {u["email"]: u for u in every(ep, "list_users")}
    for sub in items(ep, "subscriptions"):
        for r in sub["recipients"]:
            assert (r in users and users[r]["active"]) or r.endswith("@" + DOMAIN)


# -- questions ------------------------------------------------------------------------------


def test_only_analysts_and_admins_write_sql(ep: Episode) -> None:
    src = source(ep, "Shop database")["id"]
    sql = "SELECT COUNT(*) FROM orders"
    viewer, analyst = user(ep, "viewer"), user(ep, "analyst")
    refused(
        ep,
        "create_question",
        "rule_violation",
        "kind",
        name="Count",
        source_id=src,
        owner_email=viewer["email"],
        kind="native",
        sql=sql,
    )
    q = ok(ep, "create_question", name="Count", source_id=src, owner_email=analyst["email"], kind="native", sql=sql)
    assert q["kind"] == "native"
    refused(
        ep,
        "create_question",
        "rule_violation",
        "owner_email",
        name="X",
        source_id=src,
        owner_email="someone@example.org",
    )


def test_a_structured_question_aggregates_fitting_columns_of_its_own_source(ep: Episode) -> None:
    src = source(ep, "Shop database")["id"]
    orders = table(ep, "Shop database", "orders")["id"]
    tickets = table(ep, "Support warehouse", "tickets")["id"]
    owner = user(ep, "viewer")["email"]
    base = dict(name="Q", source_id=src, owner_email=owner)
    refused(ep, "create_question", "rule_violation", "table_id", table_id=tickets, **base)
    refused(
        ep, "create_question", "rule_violation", "column", table_id=orders, aggregation="sum", column="country", **base
    )
    refused(
        ep, "create_question", "rule_violation", "column", table_id=orders, aggregation="sum", column="nope", **base
    )
    refused(
        ep, "create_question", "rule_violation", "column", table_id=orders, aggregation="count", column="total", **base
    )
    legacy = source(ep, "Legacy ERP")
    refused(
        ep,
        "create_question",
        "rule_violation",
        "source_id",
        **{**base, "source_id": legacy["id"]},
        table_id=table(ep, "Legacy ERP", "invoices")["id"],
    )
    q = ok(ep, "create_question", table_id=orders, aggregation="avg", column="total", group_by="country", **base)
    assert (q["aggregation"], q["column"]) == ("avg", "total")


def test_results_break_down_by_catalog_products() -> None:
    ep = Episode(WORLD)
    res = ok(ep, "run_question", question_id=question(ep, "Units sold by product")["id"])
    assert [r["sku"] for r in res["rows"]] == [p.sku for p in POP.products]
    assert res["row_count"] == len(POP.products)
    assert res == ok(Episode(WORLD), "run_question", question_id=question(ep, "Units sold by product")["id"])
    months = ok(ep, "run_question", question_id=question(ep, "Revenue by month")["id"])["rows"]
    assert [r["label"] for r in months][-1] == "2026-03"


def test_questions_run_only_on_active_sources(ep: Episode) -> None:
    lake = source(ep, "Marketing lake")
    spend = question(ep, "Ad spend by campaign")
    refused(ep, "run_question", "rule_violation", "question_id", question_id=spend["id"])
    ok(ep, "sync_data_source", data_source_id=lake["id"])
    assert ok(ep, "run_question", question_id=spend["id"])["rows"]
    ok(ep, "disable_data_source", data_source_id=lake["id"])
    refused(ep, "sync_data_source", "rule_violation", "data_source_id", data_source_id=lake["id"])
    refused(ep, "run_question", "rule_violation", "question_id", question_id=spend["id"])
    assert ok(ep, "enable_data_source", data_source_id=lake["id"])["status"] == "sync_failed"


def test_archiving_takes_a_question_off_its_dashboards(ep: Episode) -> None:
    q = question(ep, "Revenue by month")
    res = ok(ep, "archive_question", question_id=q["id"])
    assert res["removed_from_dashboards"] == [dashboard(ep, "Sales overview")["id"]]
    assert items(ep, "dashcards", question_id=q["id"]) == []
    refused(ep, "archive_question", "conflict", "question_id", question_id=q["id"])
    refused(ep, "run_question", "rule_violation", "question_id", question_id=q["id"])
    refused(ep, "update_question", "rule_violation", "question_id", question_id=q["id"], name="Again")
    refused(
        ep,
        "add_card_to_dashboard",
        "rule_violation",
        "question_id",
        dashboard_id=dashboard(ep, "Scratchpad")["id"],
        question_id=q["id"],
        col=0,
        row=0,
    )


# -- dashboards -----------------------------------------------------------------------------


def test_cards_fit_the_24_column_grid_without_overlapping(ep: Episode) -> None:
    dash = dashboard(ep, "Sales overview")
    q = question(ep, "Orders per day")["id"]
    args = dict(dashboard_id=dash["id"], question_id=q)
    refused(ep, "add_card_to_dashboard", "conflict", "row", col=6, row=3, **args)
    refused(ep, "add_card_to_dashboard", "rule_violation", "size_x", col=20, row=100, size_x=6, **args)
    bottom = max(c["row"] + c["size_y"] for c in items(ep, "dashcards", dashboard_id=dash["id"]))
    card = ok(ep, "add_card_to_dashboard", col=16, row=bottom, size_x=8, **args)
    assert (card["col"], card["row"]) == (16, bottom)


def test_sharing_makes_one_public_link(ep: Episode) -> None:
    dash = dashboard(ep, "Scratchpad")
    url = ok(ep, "share_dashboard", dashboard_id=dash["id"])["public_url"]
    assert url.startswith(f"https://bi.{DOMAIN}/public/dashboard/")
    assert ok(ep, "share_dashboard", dashboard_id=dash["id"])["public_url"] == url


# -- subscriptions --------------------------------------------------------------------------


def test_subscriptions_need_cards_approved_recipients_and_a_weekday_when_weekly(ep: Episode) -> None:
    creator = user(ep, "analyst")["email"]
    sales, empty = dashboard(ep, "Sales overview"), dashboard(ep, "Scratchpad")
    base = dict(creator_email=creator, schedule="daily")
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "dashboard_id",
        dashboard_id=empty["id"],
        recipients=[creator],
        **base,
    )
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "recipients.1",
        dashboard_id=sales["id"],
        recipients=[creator, "boss@example.org"],
        **base,
    )
    inactive = first(ep, "users", active=False)["email"]
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "recipients.0",
        dashboard_id=sales["id"],
        recipients=[inactive],
        **base,
    )
    refused(
        ep,
        "create_subscription",
        "rule_violation",
        "day_of_week",
        dashboard_id=sales["id"],
        recipients=[creator],
        creator_email=creator,
        schedule="weekly",
    )
    sub = ok(
        ep,
        "create_subscription",
        dashboard_id=sales["id"],
        recipients=[creator, f"board@{DOMAIN}"],
        creator_email=creator,
        schedule="weekly",
        day_of_week="fri",
    )
    assert sub["recipients"] == [creator, f"board@{DOMAIN}"]


def test_sending_now_delivers_runnable_cards_to_active_recipients(ep: Episode) -> None:
    ops = dashboard(ep, "Operations weekly")
    sub = first(ep, "subscriptions", dashboard_id=ops["id"])
    sent = ok(ep, "send_subscription_now", subscription_id=sub["id"])
    assert sent["sent_to"] == sub["recipients"]
    assert sent["cards"] == 1  # the marketing lake card cannot run while its sync is broken
    assert {d["recipient"] for d in items(ep, "deliveries", subscription_id=sub["id"])} == set(sub["recipients"])
    off = first(ep, "subscriptions", enabled=False)
    refused(ep, "send_subscription_now", "rule_violation", "subscription_id", subscription_id=off["id"])


def test_the_last_active_admin_stays(ep: Episode) -> None:
    admins = items(ep, "users", role="admin", active=True)
    for extra in admins[1:]:
        ok(ep, "update_user", user_id=extra["id"], role="analyst")
    refused(ep, "update_user", "rule_violation", "role", user_id=admins[0]["id"], role="viewer")
    refused(ep, "update_user", "rule_violation", "role", user_id=admins[0]["id"], active=False)
