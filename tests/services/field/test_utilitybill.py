"""Kilowatt Home Energy: readings, tariff switches, billing, payments and refunds, moving in and out, closing."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

UB = ServiceTools("utilitybill")
WORLD = UB.world
ok, refused, every = UB.ok, UB.refused, UB.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def supplied(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_meter_points", supply_status="on_supply", **filters)[0]


def last_reading(ep: Episode, mp_id: str) -> dict[str, Any]:
    return max(every(ep, "list_readings", meter_point_id=mp_id), key=lambda r: r["read_at"])


def test_seeded_accounts_are_the_worlds_consumers_and_balances_match_bills_and_payments(ep: Episode) -> None:
    people = {p.email: p for p in POP.consumers}
    for a in every(ep, "list_accounts"):
        assert a["customer_name"] == people[a["email"]].name
        billed = sum(b["amount"] for b in every(ep, "list_bills", account_id=a["id"]))
        paid = sum(p["amount"] for p in every(ep, "list_payments", account_id=a["id"], status="succeeded"))
        assert a["balance"] == paid - billed
    for b in every(ep, "list_bills", status="open"):
        assert b["outstanding"] > 0


def test_readings_never_go_backwards_or_into_the_future(ep: Episode) -> None:
    mp = supplied(ep)
    last = last_reading(ep, mp["id"])
    args = {"meter_point_id": mp["id"]}
    refused(ep, "submit_reading", "rule_violation", "value", value=last["value"] - 1, read_at=day(0), **args)
    refused(ep, "submit_reading", "rule_violation", "read_at", value=last["value"] + 5, read_at=day(1), **args)
    refused(ep, "submit_reading", "conflict", "read_at", value=last["value"] + 5, read_at=last["read_at"], **args)
    refused(ep, "submit_reading", "rule_violation", "value", value=last["value"] + 5000, read_at=day(0), **args)
    made = ok(ep, "submit_reading", value=last["value"] + 30, read_at=day(0), **args)
    assert made["source"] == "customer"
    refused(ep, "submit_reading", "rule_violation", "read_at", value=last["value"] + 40, read_at=day(-1), **args)


def test_switching_tariff_ends_the_current_agreement(ep: Episode) -> None:
    mp = supplied(ep, fuel="electricity", meter_type="traditional")
    current = every(ep, "list_agreements", meter_point_id=mp["id"], status="active")[0]
    refused(
        ep,
        "switch_tariff",
        "rule_violation",
        "tariff_code",
        meter_point_id=mp["id"],
        tariff_code="E-1R-AGILE-24-10-01-C",
    )
    refused(
        ep, "switch_tariff", "rule_violation", "tariff_code", meter_point_id=mp["id"], tariff_code="G-1R-VAR-22-11-01-C"
    )
    refused(
        ep,
        "switch_tariff",
        "rule_violation",
        "tariff_code",
        meter_point_id=mp["id"],
        tariff_code="E-1R-OE-FIX-12M-23-05-01-C",
    )
    refused(ep, "switch_tariff", "conflict", "tariff_code", meter_point_id=mp["id"], tariff_code=current["tariff_code"])
    new = ok(ep, "switch_tariff", meter_point_id=mp["id"], tariff_code="E-1R-SILVER-23-12-06-C")
    assert (new["status"], new["valid_from"]) == ("active", day(0))
    ended = next(a for a in every(ep, "list_agreements", meter_point_id=mp["id"]) if a["id"] == current["id"])
    assert (ended["status"], ended["valid_to"]) == ("ended", day(-1))
    smart = supplied(ep, fuel="electricity", meter_type="smart")
    assert (
        ok(ep, "switch_tariff", meter_point_id=smart["id"], tariff_code="E-1R-AGILE-24-10-01-C")["status"] == "active"
    )


def test_a_bill_charges_consumption_at_the_tariff_plus_standing_charges(ep: Episode) -> None:
    mp = supplied(ep, fuel="electricity")
    account = ok(ep, "get_account", account_id=mp["account_id"])
    before = max(b["period_to"] for b in every(ep, "list_bills", account_id=account["id"]))
    bill = ok(ep, "generate_bill", account_id=account["id"])
    assert bill["period_from"] == before and bill["status"] == "open" and bill["amount"] > 0
    expected = 0
    for m in every(ep, "list_meter_points", account_id=account["id"]):
        use = ok(ep, "meter_consumption", meter_point_id=m["id"], period_from=before, period_to=bill["period_to"])
        expected += use["estimated_cost"]
    assert bill["amount"] == expected
    assert ok(ep, "get_account", account_id=account["id"])["balance"] == account["balance"] - bill["amount"]
    refused(ep, "generate_bill", "rule_violation", "account_id", account_id=account["id"])


def test_payments_pay_down_a_bill_but_never_more_than_it_owes(ep: Episode) -> None:
    bill = every(ep, "list_bills", status="open")[0]
    acct = ok(ep, "get_account", account_id=bill["account_id"])
    args = {"account_id": acct["id"], "bill_id": bill["id"]}
    refused(ep, "take_payment", "rule_violation", "amount", amount=bill["outstanding"] + 1, **args)
    if not acct["direct_debit"]:
        refused(ep, "take_payment", "rule_violation", "method", amount=100, method="direct_debit", **args)
    ok(ep, "take_payment", amount=100, **args)
    assert ok(ep, "get_bill", bill_id=bill["id"])["outstanding"] == bill["outstanding"] - 100
    ok(ep, "take_payment", amount=bill["outstanding"] - 100, **args)
    assert ok(ep, "get_bill", bill_id=bill["id"])["status"] == "paid"
    refused(ep, "take_payment", "conflict", "bill_id", amount=1, **args)
    assert ok(ep, "get_account", account_id=acct["id"])["balance"] == acct["balance"] + bill["outstanding"]


def test_only_credit_is_refunded(ep: Episode) -> None:
    owing = next(a for a in every(ep, "list_accounts", status="active") if a["balance"] < 0)
    pay = every(ep, "list_payments", account_id=owing["id"])[0]
    refused(ep, "refund_payment", "rule_violation", "payment_id", payment_id=pay["id"])
    credit = next(a for a in every(ep, "list_accounts") if a["balance"] > 0)
    extra = next(p for p in every(ep, "list_payments", account_id=credit["id"]) if p["bill_id"] is None)
    assert ok(ep, "refund_payment", payment_id=extra["id"])["status"] == "refunded"
    assert ok(ep, "get_account", account_id=credit["id"])["balance"] == credit["balance"] - extra["amount"]
    refused(ep, "refund_payment", "conflict", "payment_id", payment_id=extra["id"])


def test_move_in_opens_an_account_with_pending_meters_that_start_supply(ep: Episode) -> None:
    p = POP.consumers[-1]
    args = {
        "customer_name": p.name,
        "email": p.email,
        "address": {**p.address.model_dump(), "street": "14 Orchard Lane"},
        "mpan": "1900012345678",
        "electricity_tariff_code": "E-1R-VAR-22-11-01-C",
    }
    refused(ep, "move_in", "rule_violation", "move_in_date", move_in_date=day(61), **args)
    refused(ep, "move_in", "rule_violation", "mpan", move_in_date=day(3), **(args | {"mpan": "123456"}))
    taken = supplied(ep, fuel="electricity")["mpxn"]
    refused(ep, "move_in", "conflict", "mpan", move_in_date=day(3), **(args | {"mpan": taken}))
    refused(ep, "move_in", "rule_violation", "gas_tariff_code", move_in_date=day(3), mprn="7654321", **args)
    prop = ok(ep, "move_in", move_in_date=day(3), mprn="7654321", gas_tariff_code="G-1R-VAR-22-11-01-C", **args)
    account = ok(ep, "get_account", account_id=prop["account_id"])
    assert (account["email"], account["status"], account["balance"]) == (p.email, "active", 0)
    mps = every(ep, "list_meter_points", property_id=prop["id"])
    assert {m["supply_status"] for m in mps} == {"pending_registration"} and len(mps) == 2
    elec = next(m for m in mps if m["fuel"] == "electricity")
    refused(
        ep, "submit_reading", "rule_violation", "meter_point_id", meter_point_id=elec["id"], value=1.0, read_at=day(0)
    )
    assert ok(ep, "start_supply_meter_point", meter_point_id=elec["id"])["supply_status"] == "on_supply"
    assert every(ep, "list_agreements", meter_point_id=elec["id"])[0]["status"] == "active"


def test_moving_out_needs_final_readings_then_ends_supply_with_a_final_bill(ep: Episode) -> None:
    mp = supplied(ep, fuel="electricity")
    prop = ok(ep, "get_property", property_id=mp["property_id"])
    refused(ep, "move_out", "rule_violation", "move_out_date", property_id=prop["id"], move_out_date=day(10))
    for m in every(ep, "list_meter_points", property_id=prop["id"]):
        ok(ep, "submit_reading", meter_point_id=m["id"], value=last_reading(ep, m["id"])["value"] + 20, read_at=day(0))
    bill = ok(ep, "move_out", property_id=prop["id"], move_out_date=day(1))
    assert bill["is_final"] and bill["period_to"] == day(1)
    assert {m["supply_status"] for m in every(ep, "list_meter_points", property_id=prop["id"])} == {"off_supply"}
    for m in every(ep, "list_meter_points", property_id=prop["id"]):
        assert {a["status"] for a in every(ep, "list_agreements", meter_point_id=m["id"])} == {"ended"}
    refused(ep, "move_out", "conflict", "property_id", property_id=prop["id"], move_out_date=day(2))


def test_an_account_closes_only_when_moved_out_and_settled(ep: Episode) -> None:
    living = next(a for a in every(ep, "list_accounts", status="active") if a["balance"] == 0)
    props = every(ep, "list_properties", account_id=living["id"])
    if any(p["moved_out_at"] is None for p in props):
        refused(ep, "close_account", "rule_violation", "account_id", account_id=living["id"])
    ready = [
        a
        for a in every(ep, "list_accounts", status="active")
        if a["balance"] == 0 and all(p["moved_out_at"] for p in every(ep, "list_properties", account_id=a["id"]))
    ]
    assert ready
    closed = ok(ep, "close_account", account_id=ready[0]["id"])
    assert (closed["status"], closed["direct_debit"]) == ("closed", False)
    refused(ep, "update_account", "rule_violation", "account_id", account_id=closed["id"], phone="+447700900123")
    refused(ep, "close_account", "rule_violation", "account_id", account_id=closed["id"])
