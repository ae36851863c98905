"""Pitwise Commodities: consistent spot prices, settlements and spreads, and price watches."""

from __future__ import annotations

import datetime as dt

from compoworld import Episode
from tests.services.helpers import ServiceTools

CM = ServiceTools("commodities")
WORLD = CM.world
ok, refused, every = CM.ok, CM.refused, CM.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
TODAY = WORLD.epoch.date()


def _iso(days: int) -> str:
    return (TODAY - dt.timedelta(days=days)).isoformat()


def test_spot_series_agree_with_single_prices_and_weekends_carry_friday(ep: Episode) -> None:
    series = ok(ep, "get_timeseries", symbol="CL", start_date=_iso(20), end_date=_iso(0))
    assert len(series) == 21
    for p in series[::4]:
        assert ok(ep, "get_spot_price", symbol="CL", date=p["date"])["price"] == p["price"]
    for p in series:
        day = dt.date.fromisoformat(p["date"])
        if day.weekday() == 6:
            friday = (day - dt.timedelta(days=2)).isoformat()
            assert p["price"] == next(x["price"] for x in series if x["date"] == friday)
    fl = ok(ep, "get_fluctuation", symbols=["CL"], start_date=_iso(20), end_date=_iso(0))[0]
    assert fl["high"] == max(p["price"] for p in series) and fl["end_price"] == series[-1]["price"]


def test_dates_must_be_past_and_periods_bounded(ep: Episode) -> None:
    future = (TODAY + dt.timedelta(days=1)).isoformat()
    refused(ep, "get_spot_price", "rule_violation", "date", symbol="GC", date=future)
    refused(ep, "get_timeseries", "rule_violation", "end_date", symbol="GC", start_date=_iso(400), end_date=_iso(0))
    refused(ep, "get_timeseries", "rule_violation", "end_date", symbol="GC", start_date=_iso(1), end_date=_iso(5))
    refused(ep, "get_spot_price", "not_found", "symbol", symbol="XX")


def test_listed_contracts_follow_the_cycle_and_have_not_expired(ep: Episode) -> None:
    for c in ok(ep, "list_commodities"):
        contracts = ok(ep, "list_contracts", symbol=c["symbol"])
        assert all(k["code"][2] in c["contract_months"] for k in contracts)
        assert all(k["last_trade_date"] >= TODAY.isoformat() < k["contract_month"] for k in contracts)
        months = [k["contract_month"] for k in contracts]
        assert months == sorted(months) and len(set(months)) == len(months)
    assert all(c["sector"] == "metals" for c in ok(ep, "list_commodities", sector="metals"))


def test_the_curve_has_the_products_carry_and_spreads_are_settlement_differences(ep: Episode) -> None:
    gold = ok(ep, "get_settlements", symbol="GC")
    assert gold[-1]["settle"] > gold[0]["settle"]  # contango
    near, far = gold[0]["code"], gold[-1]["code"]
    spread = ok(ep, "get_spread", near=near, far=far)
    assert abs(spread["spread"] - (gold[0]["settle"] - gold[-1]["settle"])) < 1e-6
    assert spread["structure"] == "contango"
    refused(ep, "get_spread", "rule_violation", "far", near=far, far=near)
    crude = ok(ep, "list_contracts", symbol="CL")[0]["code"]
    refused(ep, "get_spread", "rule_violation", "far", near=near, far=crude)


def test_contract_details_match_the_settlements_and_expired_ones_are_refused(ep: Episode) -> None:
    for s in ok(ep, "get_settlements", symbol="ZC"):
        c = ok(ep, "get_contract", code=s["code"])
        assert c["settlement"] == s and c["days_to_last_trade"] >= 0
        history = ok(ep, "get_contract_history", code=s["code"], days=10)
        assert history[-1] == s
    refused(ep, "get_contract", "rule_violation", "code", code="ZCH20")
    refused(ep, "get_contract", "not_found", "code", code="GCF26")


def test_conversions_and_ratios_use_the_spot_price(ep: Episode) -> None:
    spot = ok(ep, "get_spot_price", symbol="ZC")["price"]
    tonne = ok(ep, "convert_price", symbol="ZC", to_unit="metric ton")
    assert abs(tonne["converted"] - spot / 0.0254) < 0.01
    refused(ep, "convert_price", "not_found", "to_unit", symbol="ZC", to_unit="troy ounce")
    ratio = ok(ep, "get_price_ratio", numerator="GC", denominator="SI")
    silver = ok(ep, "get_spot_price", symbol="SI")["price"]
    assert abs(ratio["ratio"] - ok(ep, "get_spot_price", symbol="GC")["price"] / silver) < 0.001
    refused(ep, "get_price_ratio", "rule_violation", "denominator", numerator="GC", denominator="GC")


def test_seeded_watches_belong_to_staff_and_name_world_suppliers(ep: Episode) -> None:
    watches = every(ep, "list_watches")
    assert {w["status"] for w in watches} == {"active", "triggered", "paused"}
    names = {c.name for c in POP.companies}
    for w in watches:
        assert w["owner_email"] in STAFF
        assert w["supplier_name"] is None or w["supplier_name"] in names
        if w["contract_code"]:
            assert w["contract_code"].startswith(w["symbol"])


def test_checking_a_watch_triggers_it_only_when_the_price_crosses(ep: Episode) -> None:
    for w in every(ep, "list_watches", status="active"):
        got = ok(ep, "check_watch", watch_id=w["id"])
        crossed = got["price"] >= w["level"] if w["direction"] == "above" else got["price"] <= w["level"]
        assert got["triggered"] == crossed
        assert ok(ep, "get_watch", watch_id=w["id"])["status"] == ("triggered" if crossed else "active")
    t = CM.first(ep, "watches", status="triggered")
    refused(ep, "check_watch", "rule_violation", "watch_id", watch_id=t["id"])
    ok(ep, "acknowledge_watch", watch_id=t["id"])
    refused(ep, "acknowledge_watch", "rule_violation", "watch_id", watch_id=t["id"])


def test_a_watch_level_must_not_be_reached_already(ep: Episode) -> None:
    spot = ok(ep, "get_spot_price", symbol="HG")["price"]
    me = POP.employees[-1].email
    refused(
        ep, "create_watch", "rule_violation", "level", symbol="HG", direction="above", level=spot * 0.9, owner_email=me
    )
    w = ok(ep, "create_watch", symbol="HG", direction="above", level=round(spot * 1.2, 4), owner_email=me)
    assert ok(ep, "check_watch", watch_id=w["id"])["triggered"] is False
    refused(ep, "update_watch", "rule_violation", "level", watch_id=w["id"], level=round(spot * 0.8, 4))
    refused(ep, "create_watch", "conflict", "symbol", symbol="HG", direction="above", level=spot * 1.3, owner_email=me)


def test_watches_are_for_staff_and_contracts_of_the_same_product(ep: Episode) -> None:
    spot = ok(ep, "get_spot_price", symbol="NG")["price"]
    args = {"symbol": "NG", "direction": "above", "level": spot * 2}
    refused(ep, "create_watch", "rule_violation", "owner_email", owner_email=POP.contacts[0].email, **args)
    gold = ok(ep, "list_contracts", symbol="GC")[0]["code"]
    me = POP.employees[0].email
    refused(ep, "create_watch", "rule_violation", "contract_code", owner_email=me, contract_code=gold, **args)
    refused(ep, "create_watch", "rule_violation", "contract_code", owner_email=me, contract_code="NGF20", **args)
