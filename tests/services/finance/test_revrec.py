"""Tally Rev: allocation by SSP, activation schedules, recognition runs, period close order and journal export."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from compoworld.services.finance.revrec import period_of
from tests.services.helpers import ServiceTools

REV = ServiceTools("revrec")
WORLD = REV.world
ok, refused, every = REV.ok, REV.refused, REV.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
NOW = period_of(TODAY)
STAFF = {p.email for p in POP.employees}
ACCT = POP.employees[0].email


def contract(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_contracts", status=status)[0]


def new_contract(ep: Episode, price: int = 1_000_000) -> dict[str, Any]:
    start = TODAY.replace(day=1).isoformat()
    end = TODAY.replace(year=TODAY.year + 1, day=1).isoformat()
    c: dict[str, Any] = ok(
        ep,
        "create_contract",
        customer_name="Globex Corporation",
        customer_email="ap@globex.example",
        transaction_price=price,
        start_date=start,
        end_date=end,
        owner_email=ACCT,
    )
    return c


def test_seeded_contracts_use_world_customers_and_reconcile_to_their_lines(ep: Episode) -> None:
    names = {c.name for c in POP.customers}
    for c in every(ep, "list_contracts"):
        assert c["customer_name"] in names and c["owner_email"] in STAFF
        lines = every(ep, "list_schedule_lines", contract_id=c["id"], status="recognized")
        assert c["recognized_total"] == sum(ln["amount"] for ln in lines)
        if c["status"] in ("allocated", "active"):
            pobs = every(ep, "list_obligations", contract_id=c["id"])
            assert sum(p["allocated_amount"] for p in pobs) == c["transaction_price"]
    assert {"draft", "allocated", "active", "cancelled"} <= {c["status"] for c in every(ep, "list_contracts")}


def test_allocation_splits_the_price_by_relative_ssp(ep: Episode) -> None:
    c = new_contract(ep, price=900_000)
    refused(ep, "allocate_contract", "rule_violation", "contract_id", contract_id=c["id"])
    start, end = c["start_date"], c["end_date"]
    ok(
        ep,
        "create_obligation",
        contract_id=c["id"],
        name="License",
        kind="software_license",
        ssp=600_000,
        method="point_in_time",
        start_date=start,
        end_date=start,
    )
    ok(
        ep,
        "create_obligation",
        contract_id=c["id"],
        name="Support",
        kind="support",
        ssp=300_000,
        method="ratably",
        start_date=start,
        end_date=end,
    )
    pobs = ok(ep, "allocate_contract", contract_id=c["id"])
    assert sorted(p["allocated_amount"] for p in pobs) == [300_000, 600_000]
    assert ok(ep, "get_contract", contract_id=c["id"])["status"] == "allocated"


def test_obligations_must_fit_the_term_and_have_a_price(ep: Episode) -> None:
    c = new_contract(ep)
    base = {"contract_id": c["id"], "name": "Setup", "kind": "professional_services", "method": "percent_complete"}
    refused(
        ep,
        "create_obligation",
        "rule_violation",
        "ssp",
        ssp=0,
        start_date=c["start_date"],
        end_date=c["start_date"],
        **base,
    )
    refused(
        ep,
        "create_obligation",
        "rule_violation",
        "start_date",
        ssp=100,
        start_date="2001-01-01",
        end_date=c["start_date"],
        **base,
    )
    active = contract(ep, "active")
    refused(
        ep,
        "create_obligation",
        "rule_violation",
        "contract_id",
        ssp=100,
        start_date=active["start_date"],
        end_date=active["start_date"],
        **(base | {"contract_id": active["id"]}),
    )


def test_changing_an_allocated_contract_sends_it_back_to_draft(ep: Episode) -> None:
    c = contract(ep, "allocated")
    pob = every(ep, "list_obligations", contract_id=c["id"])[0]
    ok(ep, "update_obligation", obligation_id=pob["id"], ssp=pob["ssp"] + 1000)
    assert ok(ep, "get_contract", contract_id=c["id"])["status"] == "draft"
    refused(ep, "activate_contract", "rule_violation", "contract_id", contract_id=c["id"])


def test_activation_schedules_ratable_revenue_with_a_catch_up_in_the_open_period(ep: Episode) -> None:
    c = contract(ep, "allocated")
    ok(ep, "activate_contract", contract_id=c["id"])
    opened = min(p["name"] for p in every(ep, "list_periods", status="open"))
    for pob in every(ep, "list_obligations", contract_id=c["id"], method="ratably"):
        lines = every(ep, "list_schedule_lines", obligation_id=pob["id"])
        assert sum(ln["amount"] for ln in lines) == pob["allocated_amount"]
        assert min(ln["period"] for ln in lines) >= opened
    refused(ep, "delete_contract", "rule_violation", "contract_id", contract_id=c["id"])


def test_percent_complete_schedules_only_new_progress(ep: Episode) -> None:
    pob = every(ep, "list_obligations", method="percent_complete", status="in_progress")[0]
    refused(
        ep,
        "record_progress",
        "rule_violation",
        "percent_complete",
        obligation_id=pob["id"],
        percent_complete=pob["percent_complete"],
    )
    done = ok(ep, "record_progress", obligation_id=pob["id"], percent_complete=100)
    assert done["status"] == "satisfied" and done["recognized_amount"] == pob["allocated_amount"]
    new = every(ep, "list_schedule_lines", obligation_id=pob["id"], period=NOW)
    assert sum(ln["amount"] for ln in new) == pob["allocated_amount"] - pob["recognized_amount"]
    refused(ep, "satisfy_obligation", "rule_violation", "obligation_id", obligation_id=pob["id"])


def test_periods_close_in_order_once_recognized(ep: Episode) -> None:
    opened = sorted(p["name"] for p in every(ep, "list_periods", status="open"))
    refused(ep, "close_period", "rule_violation", "period", period=opened[1], closed_by=ACCT)
    refused(ep, "close_period", "rule_violation", "closed_by", period=opened[0], closed_by="x@nowhere.io")
    closed = ok(ep, "close_period", period=opened[0], closed_by=ACCT)
    assert closed["status"] == "closed"
    refused(ep, "run_recognition", "rule_violation", "period", period=opened[0])
    refused(ep, "close_period", "rule_violation", "period", period=NOW, closed_by=ACCT)


def test_recognition_run_moves_scheduled_lines_and_contract_totals(ep: Episode) -> None:
    due = every(ep, "list_schedule_lines", period=NOW, status="scheduled")
    assert due
    before = {c["id"]: c["recognized_total"] for c in every(ep, "list_contracts")}
    ok(ep, "run_recognition", period=NOW)
    for ln in due:
        after = ok(ep, "get_contract", contract_id=ln["contract_id"])
        assert after["recognized_total"] > before[ln["contract_id"]]
    refused(ep, "run_recognition", "rule_violation", "period", period=NOW)
    future = max(p["name"] for p in every(ep, "list_periods"))
    refused(ep, "run_recognition", "rule_violation", "period", period=future)


def test_export_blocks_reopening_until_voided(ep: Episode) -> None:
    latest = max(p["name"] for p in every(ep, "list_periods", status="closed"))
    refused(ep, "export_journal", "rule_violation", "period", period=NOW, target="ledger", exported_by=ACCT)
    ex = ok(ep, "export_journal", period=latest, target="netsuite", exported_by=ACCT)
    lines = every(ep, "list_schedule_lines", period=latest, status="recognized")
    assert (ex["amount"], ex["line_count"]) == (sum(ln["amount"] for ln in lines), len(lines))
    refused(ep, "export_journal", "conflict", "period", period=latest, target="ledger", exported_by=ACCT)
    refused(ep, "reopen_period", "rule_violation", "period", period=latest)
    ok(ep, "void_journal_export", journal_export_id=ex["id"])
    assert ok(ep, "reopen_period", period=latest)["status"] == "open"


def test_cancelling_unschedules_future_revenue(ep: Episode) -> None:
    c = contract(ep, "active")
    ok(ep, "cancel_contract", contract_id=c["id"])
    assert not every(ep, "list_schedule_lines", contract_id=c["id"], status="scheduled")
    wf = ok(ep, "contract_waterfall", contract_id=c["id"])
    assert wf["scheduled"] == 0 and wf["recognized"] == c["recognized_total"]
    refused(ep, "cancel_contract", "rule_violation", "contract_id", contract_id=c["id"])
