"""Ledgerstone Assets: register seeding, in-service, monthly runs in order, impairments, transfers, disposals."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.finance.fixedassets import period_of
from tests.services.helpers import ServiceTools

FA = ServiceTools("fixedassets")
WORLD = FA.world
ok, refused, every = FA.ok, FA.refused, FA.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
NOW = period_of(TODAY)
STAFF = {p.email for p in POP.employees}
ME = POP.employees[0].email


def asset(ep: Episode, status: str = "in_service") -> dict[str, Any]:
    return every(ep, "list_assets", status=status)[0]


def test_seeded_register_balances_cost_depreciation_and_book_value(ep: Episode) -> None:
    vendors = {c.name for c in POP.customers}
    for a in every(ep, "list_assets"):
        assert a["cost"] == a["accumulated_depreciation"] + a["impairment_total"] + a["net_book_value"]
        assert a["custodian_email"] in STAFF and a["vendor_name"] in vendors
        assert a["net_book_value"] >= a["salvage_value"]
    for run in every(ep, "list_depreciation_runs"):
        lines = every(ep, "list_depreciation_entries", run_id=run["id"])
        assert run["total"] == sum(e["amount"] for e in lines) and run["asset_count"] == len(lines)
    assert {"pending", "in_service", "disposed"} <= {a["status"] for a in every(ep, "list_assets")}


def test_runs_go_month_by_month_and_never_ahead(ep: Episode) -> None:
    refused(ep, "run_depreciation", "rule_violation", "period", period="2001-01", run_by=ME)
    refused(ep, "run_depreciation", "rule_violation", "run_by", period=NOW, run_by="nobody@else.io")
    before = {a["id"]: a for a in every(ep, "list_assets", status="in_service")}
    run = ok(ep, "run_depreciation", period=NOW, run_by=ME)
    assert run["asset_count"] > 0
    for e in every(ep, "list_depreciation_entries", run_id=run["id"]):
        after = ok(ep, "get_asset", asset_id=e["asset_id"])
        old = before[e["asset_id"]]
        assert after["net_book_value"] == old["net_book_value"] - e["amount"]
        assert after["months_depreciated"] == old["months_depreciated"] + 1
    nxt = period_of(TODAY.replace(day=28) + dt.timedelta(days=7))
    refused(ep, "run_depreciation", "rule_violation", "period", period=nxt, run_by=ME)


def test_straight_line_spreads_what_is_left_over_the_remaining_life(ep: Episode) -> None:
    a = next(x for x in every(ep, "list_assets", status="in_service") if x["method"] == "straight_line")
    forecast = ok(ep, "depreciation_forecast", asset_id=a["id"], months=2)
    room = a["net_book_value"] - a["salvage_value"]
    assert forecast[0]["amount"] == room // (a["useful_life_months"] - a["months_depreciated"])
    run = ok(ep, "run_depreciation", period=NOW, run_by=ME)
    [entry] = every(ep, "list_depreciation_entries", run_id=run["id"], asset_id=a["id"])
    assert entry["amount"] == forecast[0]["amount"]


def test_only_the_latest_run_is_reversed_and_it_restores_book_values(ep: Episode) -> None:
    runs = sorted(every(ep, "list_depreciation_runs"), key=lambda r: r["period"])
    refused(ep, "reverse_run", "rule_violation", "depreciation_run_id", depreciation_run_id=runs[0]["id"])
    entries = every(ep, "list_depreciation_entries", run_id=runs[-1]["id"])
    before = {e["asset_id"]: ok(ep, "get_asset", asset_id=e["asset_id"])["net_book_value"] for e in entries}
    assert ok(ep, "reverse_run", depreciation_run_id=runs[-1]["id"])["status"] == "reversed"
    for e in entries:
        assert ok(ep, "get_asset", asset_id=e["asset_id"])["net_book_value"] == before[e["asset_id"]] + e["amount"]
    refused(ep, "reverse_run", "conflict", "depreciation_run_id", depreciation_run_id=runs[-1]["id"])
    assert ok(ep, "run_depreciation", period=runs[-1]["period"], run_by=ME)["status"] == "posted"


def test_pending_assets_go_into_service_and_only_they_are_deleted(ep: Episode) -> None:
    p = asset(ep, "pending")
    refused(ep, "place_in_service", "rule_violation", "in_service_date", asset_id=p["id"], in_service_date="2000-01-01")
    live = ok(ep, "place_in_service", asset_id=p["id"])
    assert (live["status"], live["in_service_date"]) == ("in_service", TODAY.isoformat())
    refused(ep, "place_in_service", "conflict", "asset_id", asset_id=p["id"])
    refused(ep, "delete_asset", "rule_violation", "asset_id", asset_id=p["id"])


def test_new_assets_need_a_salvage_below_cost_and_a_staff_custodian(ep: Episode) -> None:
    cls = every(ep, "list_asset_classes", code="COMP")[0]
    loc = every(ep, "list_locations")[0]
    base = {
        "name": "ThinkPad X1",
        "class_id": cls["id"],
        "location_id": loc["id"],
        "cost": 200_000,
        "acquired_on": TODAY.isoformat(),
        "useful_life_months": 36,
        "method": "straight_line",
    }
    refused(ep, "create_asset", "rule_violation", "salvage_value", salvage_value=200_000, **base)
    refused(ep, "create_asset", "rule_violation", "custodian_email", custodian_email="x@y.io", **base)
    made = ok(ep, "create_asset", custodian_email=ME, **base)
    assert (made["status"], made["net_book_value"], made["tag_number"][:3]) == ("pending", 200_000, "FA-")


def test_impairment_is_capped_at_book_value_above_salvage(ep: Episode) -> None:
    a = asset(ep)
    room = a["net_book_value"] - a["salvage_value"]
    args = {"asset_id": a["id"], "reason": "Flood damage", "recorded_by": ME}
    refused(ep, "record_impairment", "rule_violation", "amount", amount=room + 1, **args)
    refused(ep, "record_impairment", "rule_violation", "reason", amount=10, **(args | {"reason": " "}))
    ok(ep, "record_impairment", amount=room, **args)
    after = ok(ep, "get_asset", asset_id=a["id"])
    assert (after["net_book_value"], after["status"]) == (a["salvage_value"], "fully_depreciated")


def test_transfers_move_the_asset_and_refuse_the_same_site(ep: Episode) -> None:
    a = asset(ep)
    other = next(loc for loc in every(ep, "list_locations") if loc["id"] != a["location_id"])
    refused(
        ep,
        "transfer_asset",
        "rule_violation",
        "to_location_id",
        asset_id=a["id"],
        to_location_id=a["location_id"],
        requested_by=ME,
    )
    t = ok(
        ep,
        "transfer_asset",
        asset_id=a["id"],
        to_location_id=other["id"],
        requested_by=ME,
        new_custodian_email=POP.employees[1].email,
    )
    assert t["from_location_id"] == a["location_id"]
    moved = ok(ep, "get_asset", asset_id=a["id"])
    assert (moved["location_id"], moved["custodian_email"]) == (other["id"], POP.employees[1].email)


def test_disposal_books_gain_or_loss_and_freezes_the_asset(ep: Episode) -> None:
    a = asset(ep)
    refused(ep, "dispose_asset", "rule_violation", "proceeds", asset_id=a["id"], method="sale", approved_by=ME)
    refused(
        ep, "dispose_asset", "rule_violation", "proceeds", asset_id=a["id"], method="scrap", proceeds=5, approved_by=ME
    )
    d = ok(
        ep,
        "dispose_asset",
        asset_id=a["id"],
        method="sale",
        proceeds=100_000,
        approved_by=ME,
        buyer_name="Acme Liquidators",
    )
    assert d["gain_loss"] == 100_000 - a["net_book_value"]
    assert ok(ep, "get_asset", asset_id=a["id"])["status"] == "disposed"
    refused(ep, "update_asset", "rule_violation", "asset_id", asset_id=a["id"], name="Renamed")
    refused(ep, "dispose_asset", "rule_violation", "asset_id", asset_id=a["id"], method="scrap", approved_by=ME)
