"""Meterline: idempotent ingest, metric aggregation, contracts, drafts, finalization with drawdowns, voiding."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BILL = ServiceTools("usagebilling")
WORLD = BILL.world
ok, refused, every = BILL.ok, BILL.refused, BILL.every
POP = WORLD.population
NOW = "2026-03-02T08:00:00Z"


def customer(ep: Episode, n: int = 0) -> dict[str, Any]:
    return every(ep, "list_customers")[n]


def metric(ep: Episode, event_type: str) -> dict[str, Any]:
    return every(ep, "list_metrics", event_type=event_type)[0]


def usage(ep: Episode, customer_id: str, event_type: str, start: str = "2026-03-01", end: str = "2026-04-01") -> float:
    rows = ok(ep, "get_usage", customer_id=customer_id, starting_on=start, ending_before=end)
    return float(next(u["value"] for u in rows if u["metric_id"] == metric(ep, event_type)["id"]))


def test_seeded_customers_are_world_companies_and_drawdowns_add_up(ep: Episode) -> None:
    companies = {c.name: c for c in POP.customers}
    for c in every(ep, "list_customers"):
        contact = POP.first_contact(companies[c["name"]])
        assert contact is not None and c["billing_email"] == contact.email
    drawn: dict[str, int] = {}
    for inv in every(ep, "list_invoices"):
        assert inv["total"] == inv["subtotal"] - sum(d["amount"] for d in inv["drawdowns"])
        for d in inv["drawdowns"] if inv["status"] == "FINALIZED" else []:
            drawn[d["balance_id"]] = drawn.get(d["balance_id"], 0) + d["amount"]
    for b in every(ep, "list_balances"):
        assert b["remaining"] == b["amount"] - drawn.get(b["id"], 0)
    assert {i["status"] for i in every(ep, "list_invoices")} == {"DRAFT", "FINALIZED", "VOID"}


def test_ingest_is_idempotent_by_transaction_id(ep: Episode) -> None:
    c = customer(ep)
    before = usage(ep, c["id"], "api_request")
    args = {"customer_alias": c["ingest_alias"], "event_type": "api_request", "timestamp": NOW}
    first = ok(ep, "ingest_event", transaction_id="req-1", **args)
    again = ok(ep, "ingest_event", transaction_id="req-1", **args)
    assert first["id"] == again["id"] and first["customer_id"] == c["id"]
    assert len(every(ep, "list_events", transaction_id="req-1")) == 1
    assert usage(ep, c["id"], "api_request") == before + 1


def test_ingest_refuses_unknown_aliases_future_and_invoiced_periods(ep: Episode) -> None:
    c = customer(ep)
    args = {"event_type": "api_request", "transaction_id": "late-1"}
    refused(ep, "ingest_event", "rule_violation", "customer_alias", customer_alias="nobody", timestamp=NOW, **args)
    alias = c["ingest_alias"]
    future = "2026-03-02T10:00:00Z"
    refused(ep, "ingest_event", "rule_violation", "timestamp", customer_alias=alias, timestamp=future, **args)
    jan = every(ep, "list_invoices", customer_id=c["id"], status="FINALIZED")[0]
    late = "2026-01-15T12:00:00Z"
    refused(ep, "ingest_event", "rule_violation", "timestamp", customer_alias=alias, timestamp=late, **args)
    ok(ep, "void_invoice", invoice_id=jan["id"])
    ok(ep, "ingest_event", customer_alias=alias, timestamp=late, **args)


def test_metrics_aggregate_count_sum_max_and_unique(ep: Episode) -> None:
    c = customer(ep, 2)
    alias = c["ingest_alias"]
    base = {k: usage(ep, c["id"], k) for k in ("compute", "storage_snapshot", "login")}
    for n, (etype, props) in enumerate(
        (
            ("compute", {"cpu_hours": 2.5}),
            ("compute", {"cpu_hours": "1.5"}),
            ("storage_snapshot", {"gb": base["storage_snapshot"] + 100}),
            ("storage_snapshot", {"gb": 1.0}),
            ("login", {"user_id": "new-user"}),
            ("login", {"user_id": "new-user"}),
        )
    ):
        ok(
            ep,
            "ingest_event",
            customer_alias=alias,
            event_type=etype,
            transaction_id=f"m{n}",
            timestamp=NOW,
            properties=props,
        )
    assert usage(ep, c["id"], "compute") == base["compute"] + 4.0
    assert usage(ep, c["id"], "storage_snapshot") == base["storage_snapshot"] + 100
    assert usage(ep, c["id"], "login") == base["login"] + 1


def test_metric_definitions_follow_their_aggregation(ep: Episode) -> None:
    refused(
        ep,
        "create_metric",
        "rule_violation",
        "aggregation_key",
        name="Calls",
        event_type="call",
        aggregation="COUNT",
        aggregation_key="x",
    )
    refused(
        ep, "create_metric", "rule_violation", "aggregation_key", name="Bytes", event_type="upload", aggregation="SUM"
    )
    refused(ep, "create_metric", "conflict", "name", name="API requests", event_type="call", aggregation="COUNT")
    made = ok(ep, "create_metric", name="Bytes uploaded", event_type="upload", aggregation="SUM", aggregation_key="b")
    assert made["status"] == "active"


def test_priced_metrics_cannot_be_archived_and_cards_take_active_metrics(ep: Episode) -> None:
    priced = metric(ep, "api_request")
    refused(ep, "archive_metric", "conflict", "metric_id", metric_id=priced["id"])
    spare = metric(ep, "webhook")
    assert ok(ep, "archive_metric", metric_id=spare["id"])["status"] == "archived"
    rate = {"metric_id": spare["id"], "unit_price": 1.0}
    refused(ep, "create_rate_card", "rule_violation", "rates", name="Webhooks", rates=[rate])
    live = {"metric_id": priced["id"], "unit_price": 0.2}
    refused(ep, "create_rate_card", "rule_violation", "rates", name="Twice", rates=[live, live])


def test_contracts_do_not_overlap_and_end_on_a_month_boundary(ep: Episode) -> None:
    cards = every(ep, "list_rate_cards")
    busy, free = customer(ep, 0), customer(ep, 7)
    args = {"rate_card_id": cards[0]["id"], "starting_at": "2026-03-01"}
    refused(ep, "create_contract", "conflict", "customer_id", customer_id=busy["id"], **args)
    made = ok(ep, "create_contract", customer_id=free["id"], **args)
    refused(ep, "end_contract", "rule_violation", "ending_before", contract_id=made["id"], ending_before="2026-04-15")
    refused(ep, "end_contract", "rule_violation", "ending_before", contract_id=made["id"], ending_before="2026-03-01")
    ended = ok(ep, "end_contract", contract_id=made["id"], ending_before="2026-05-01")
    assert (ended["status"], ended["ending_before"]) == ("active", "2026-05-01")
    switch = {"customer_id": free["id"], "rate_card_id": cards[1]["id"]}
    refused(ep, "create_contract", "conflict", "customer_id", starting_at="2026-04-01", **switch)
    assert ok(ep, "create_contract", starting_at="2026-05-01", **switch)["rate_card_id"] == cards[1]["id"]
    assert ok(ep, "refresh_draft_invoice", contract_id=made["id"])["contract_id"] == made["id"]
    old = every(ep, "list_contracts", status="ended")[0]
    refused(ep, "refresh_draft_invoice", "rule_violation", "contract_id", contract_id=old["id"])


def test_the_draft_follows_usage_above_the_free_units(ep: Episode) -> None:
    c = customer(ep, 1)
    ctr = every(ep, "list_contracts", customer_id=c["id"])[0]
    card = ok(ep, "get_rate_card", rate_card_id=ctr["rate_card_id"])
    rate = next(r for r in card["rates"] if r["metric_id"] == metric(ep, "api_request")["id"])
    for n in range(rate["free_units"] + 30):
        ok(
            ep,
            "ingest_event",
            customer_alias=c["ingest_alias"],
            event_type="api_request",
            transaction_id=f"r{n}",
            timestamp=NOW,
        )
    draft = ok(ep, "refresh_draft_invoice", contract_id=ctr["id"])
    line = next(li for li in draft["line_items"] if li["metric_id"] == rate["metric_id"])
    assert line["quantity"] == usage(ep, c["id"], "api_request")
    assert line["amount"] == round((line["quantity"] - rate["free_units"]) * rate["unit_price"])
    assert (draft["status"], draft["period_start"]) == ("DRAFT", "2026-03-01")
    assert len(every(ep, "list_invoices", contract_id=ctr["id"], period_start="2026-03-01")) == 1


def test_finalizing_after_the_period_draws_credits_then_commits(ep: Episode) -> None:
    c = customer(ep)
    ctr = every(ep, "list_contracts", customer_id=c["id"])[0]
    ok(
        ep,
        "add_balance",
        contract_id=ctr["id"],
        type="commit",
        name="Prepaid",
        amount=100_000,
        starting_at="2026-01-01",
        ending_before="2026-06-01",
    )
    credit = every(ep, "list_balances", contract_id=ctr["id"], type="credit")[0]
    march = every(ep, "list_invoices", contract_id=ctr["id"], period_start="2026-03-01")[0]
    refused(ep, "finalize_invoice", "rule_violation", "invoice_id", invoice_id=march["id"])
    feb = every(ep, "list_invoices", contract_id=ctr["id"], period_start="2026-02-01")[0]
    done = ok(ep, "finalize_invoice", invoice_id=feb["id"])
    assert done["status"] == "FINALIZED" and done["subtotal"] == feb["subtotal"]
    assert done["drawdowns"][0] == {"balance_id": credit["id"], "amount": min(credit["remaining"], feb["subtotal"])}
    assert done["total"] == done["subtotal"] - sum(d["amount"] for d in done["drawdowns"])
    refused(ep, "finalize_invoice", "conflict", "invoice_id", invoice_id=feb["id"])


def test_voiding_restores_the_drawn_balances(ep: Episode) -> None:
    inv = next(i for i in every(ep, "list_invoices", status="FINALIZED") if i["drawdowns"])
    d = inv["drawdowns"][0]
    before = ok(ep, "get_balance", balance_id=d["balance_id"])["remaining"]
    assert ok(ep, "void_invoice", invoice_id=inv["id"])["status"] == "VOID"
    assert ok(ep, "get_balance", balance_id=d["balance_id"])["remaining"] == before + d["amount"]
    refused(ep, "void_invoice", "conflict", "invoice_id", invoice_id=inv["id"])


def test_balances_go_to_active_contracts_and_expire_ahead(ep: Episode) -> None:
    ended = every(ep, "list_contracts", status="ended")[0]
    live = every(ep, "list_contracts", status="active")[0]
    args = {"type": "credit", "name": "Goodwill", "amount": 5000, "starting_at": "2026-03-01"}
    refused(
        ep, "add_balance", "rule_violation", "contract_id", contract_id=ended["id"], ending_before="2026-06-01", **args
    )
    refused(
        ep, "add_balance", "rule_violation", "ending_before", contract_id=live["id"], ending_before="2026-03-02", **args
    )
    made = ok(ep, "add_balance", contract_id=live["id"], ending_before="2026-06-01", **args)
    assert made["remaining"] == made["amount"] == 5000
