"""Curbline Hauling: agreements and containers, completing and skipping stops, missed and extra pickups, charges."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WS = ServiceTools("waste")
WORLD = WS.world
ok, refused, every = WS.ok, WS.refused, WS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def active_customer_without(ep: Episode, stream: str) -> dict[str, Any]:
    for cust in every(ep, "list_customers", status="active"):
        if not any(
            a["stream"] == stream for a in every(ep, "list_agreements", customer_id=cust["id"], status="active")
        ):
            found: dict[str, Any] = cust
            return found
    raise AssertionError("every customer has that stream")


def test_accounts_come_from_companies_and_consumers_with_delivered_containers(ep: Episode) -> None:
    names = {c.name for c in POP.customers} | {f"{p.last_name} household" for p in POP.consumers}
    for cust in every(ep, "list_customers"):
        assert cust["name"] in names
    for agr in every(ep, "list_agreements", status="active"):
        boxes = every(ep, "list_containers", agreement_id=agr["id"])
        assert [(b["kind"], b["status"]) for b in boxes] == [(agr["container_kind"], "delivered")]
    for route in every(ep, "list_routes"):
        assert route["driver_email"] in STAFF


def test_starting_service_delivers_a_container_from_the_yard(ep: Episode) -> None:
    cust = active_customer_without(ep, "organics")
    args = {"customer_id": cust["id"], "stream": "organics", "pickup_day": "friday", "monthly_rate_cents": 2000}
    refused(
        ep, "start_agreement", "rule_violation", "start_date", container_kind="cart_96gal", start_date=day(-1), **args
    )
    refused(
        ep,
        "start_agreement",
        "rule_violation",
        "container_kind",
        container_kind="roll_off_30yd",
        start_date=day(1),
        **args,
    )
    agr = ok(ep, "start_agreement", container_kind="cart_96gal", start_date=day(1), **args)
    assert (agr["extra_pickup_cents"], agr["overage_cents"]) == (1500, 1000)
    box = every(ep, "list_containers", agreement_id=agr["id"])[0]
    assert box["status"] == "delivered"
    refused(ep, "start_agreement", "conflict", "stream", container_kind="cart_96gal", start_date=day(1), **args)


def test_suspended_accounts_get_no_new_service_or_requests(ep: Episode) -> None:
    cust = every(ep, "list_customers", status="suspended")[0]
    refused(
        ep,
        "start_agreement",
        "rule_violation",
        "customer_id",
        customer_id=cust["id"],
        stream="organics",
        container_kind="cart_96gal",
        pickup_day="monday",
        monthly_rate_cents=100,
        start_date=day(1),
    )
    agr = every(ep, "list_agreements", customer_id=cust["id"])[0]
    refused(ep, "request_extra_pickup", "rule_violation", "customer_id", agreement_id=agr["id"], service_date=day(2))
    ok(ep, "reactivate_customer", customer_id=cust["id"])
    assert ok(ep, "request_extra_pickup", agreement_id=agr["id"], service_date=day(2))["kind"] == "extra_pickup"


def test_an_overfilled_pickup_is_charged_the_overage_once(ep: Episode) -> None:
    stop = every(ep, "list_pickups", status="scheduled")[0]
    agr = ok(ep, "get_agreement", agreement_id=stop["agreement_id"])
    before = every(ep, "list_charges", agreement_id=agr["id"], kind="overage")
    done = ok(ep, "complete_pickup", pickup_id=stop["id"], weight_lbs=420, overfilled=True)
    assert (done["status"], done["weight_lbs"]) == ("completed", 420)
    after = every(ep, "list_charges", agreement_id=agr["id"], kind="overage")
    assert len(after) == len(before) + 1 and after[-1]["amount_cents"] == agr["overage_cents"]
    refused(ep, "complete_pickup", "rule_violation", "pickup_id", pickup_id=stop["id"], weight_lbs=1)


def test_a_skipped_stop_needs_a_note(ep: Episode) -> None:
    stop = every(ep, "list_pickups", status="scheduled")[0]
    refused(ep, "skip_pickup", "rule_violation", "note", pickup_id=stop["id"], reason="missed", note=" ")
    assert ok(ep, "skip_pickup", pickup_id=stop["id"], reason="blocked", note="Gate locked")["status"] == "blocked"


def test_a_recent_miss_gets_one_free_redo(ep: Episode) -> None:
    missed = every(ep, "list_pickups", status="missed")[0]
    req = ok(ep, "report_missed_pickup", agreement_id=missed["agreement_id"], notes="Cart was out")
    redo = ok(ep, "get_pickup", pickup_id=req["pickup_id"])
    assert (redo["kind"], redo["service_date"], redo["status"]) == ("redo", day(1), "scheduled")
    assert not every(ep, "list_charges", agreement_id=missed["agreement_id"], kind="extra_pickup")
    refused(ep, "report_missed_pickup", "conflict", "agreement_id", agreement_id=missed["agreement_id"])


def test_no_free_redo_without_a_recent_missed_stop(ep: Episode) -> None:
    blocked = every(ep, "list_pickups", status="blocked")[0]
    refused(ep, "report_missed_pickup", "rule_violation", "agreement_id", agreement_id=blocked["agreement_id"])


def test_an_extra_pickup_is_booked_ahead_and_charged(ep: Episode) -> None:
    agr = every(ep, "list_agreements", status="active")[0]
    refused(ep, "request_extra_pickup", "rule_violation", "service_date", agreement_id=agr["id"], service_date=day(0))
    req = ok(ep, "request_extra_pickup", agreement_id=agr["id"], service_date=day(3), notes="Old furniture")
    charge = every(ep, "list_charges", agreement_id=agr["id"], kind="extra_pickup")[0]
    assert (charge["pickup_id"], charge["amount_cents"]) == (req["pickup_id"], agr["extra_pickup_cents"])
    assert ok(ep, "waive_charge", charge_id=charge["id"])["status"] == "waived"
    refused(ep, "invoice_charge", "rule_violation", "charge_id", charge_id=charge["id"])


def test_cancelling_removes_containers_and_future_stops(ep: Episode) -> None:
    agr = every(ep, "list_agreements", status="active")[0]
    future = [p for p in every(ep, "list_pickups", agreement_id=agr["id"]) if p["service_date"] >= day(0)]
    assert future
    ok(ep, "cancel_agreement", agreement_id=agr["id"])
    assert {b["status"] for b in every(ep, "list_containers", agreement_id=agr["id"])} == {"removed"}
    left = [p for p in every(ep, "list_pickups", agreement_id=agr["id"]) if p["service_date"] >= day(0)]
    assert not [p for p in left if p["status"] == "scheduled"]
    refused(ep, "cancel_agreement", "conflict", "agreement_id", agreement_id=agr["id"])
    refused(ep, "request_extra_pickup", "rule_violation", "agreement_id", agreement_id=agr["id"], service_date=day(2))
