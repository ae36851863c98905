"""Harvest Share: visit limits and TEFAP eligibility, agency monitoring and allocations, stock, donations."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

FB = ServiceTools("foodbank")
WORLD = FB.world
ok, refused, every, first = FB.ok, FB.refused, FB.every, FB.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def household(ep: Episode, size: int, income: int) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_client",
        first_name="Lena",
        last_name="Park",
        email="lena.park@example.org",
        postal_code="62704",
        household_size=size,
        monthly_income_cents=income,
    )
    return made


def fresh_agency(ep: Episode) -> dict[str, Any]:
    for a in every(ep, "list_agencies", status="active"):
        if a["monitored_on"] and a["monitored_on"] >= (TODAY - dt.timedelta(days=300)).isoformat():
            return a
    raise AssertionError("no monitored agency")


def test_households_are_residents_and_agencies_are_the_worlds_companies(ep: Episode) -> None:
    assert all(c["email"] in {p.email for p in POP.consumers} for c in every(ep, "list_clients"))
    names = [c.name for c in POP.companies]
    assert all(any(a["name"].startswith(n) for n in names) for a in every(ep, "list_agencies"))
    for c in every(ep, "list_clients"):
        visits = every(ep, "list_visits", client_id=c["id"], program="pantry")
        assert max(v["visited_on"] for v in visits) == c["last_visit_on"]


def test_one_pantry_visit_a_month_but_produce_any_time(ep: Episode) -> None:
    h = household(ep, 3, 100000)
    assert ok(ep, "screen_household", email=h["email"])["pantry_visit_available"]
    v = ok(ep, "record_visit", email=h["email"], program="pantry", pounds=40)
    assert (v["people_served"], v["visited_on"]) == (3, TODAY.isoformat())
    refused(ep, "record_visit", "rule_violation", "program", email=h["email"], program="pantry", pounds=40)
    assert ok(ep, "record_visit", email=h["email"], program="produce", pounds=15)["program"] == "produce"
    assert not ok(ep, "screen_household", email=h["email"])["pantry_visit_available"]


def test_tefap_needs_income_under_185_percent_of_poverty(ep: Episode) -> None:
    h = household(ep, 2, 320000)
    screen = ok(ep, "screen_household", email=h["email"])
    assert screen["tefap_limit_cents"] == (1506000 + 538000) * 185 // 100 // 12 and not screen["tefap_eligible"]
    refused(ep, "record_visit", "rule_violation", "program", email=h["email"], program="tefap", pounds=20)
    ok(ep, "update_client", client_id=h["id"], monthly_income_cents=200000)
    assert ok(ep, "record_visit", email=h["email"], program="tefap", pounds=20)["program"] == "tefap"


def test_household_rules_on_registration(ep: Episode) -> None:
    h = household(ep, 2, 0)
    refused(
        ep,
        "create_client",
        "conflict",
        "email",
        first_name="L",
        last_name="P",
        email=h["email"],
        postal_code="62704",
        household_size=1,
        monthly_income_cents=0,
    )
    refused(ep, "update_client", "rule_violation", "household_size", client_id=h["id"], children=2, seniors=1)
    inactive = first(ep, "clients", status="inactive")
    refused(ep, "record_visit", "rule_violation", "email", email=inactive["email"], program="produce", pounds=5)


def test_distributions_need_a_monitored_active_agency_and_stock(ep: Episode) -> None:
    lot = first(ep, "items", sku="FB-1004")
    stale = next(
        a
        for a in every(ep, "list_agencies", status="active")
        if a["monitored_on"] < (TODAY - dt.timedelta(days=366)).isoformat()
    )
    args = {"sku": lot["sku"], "pounds": 50, "pickup_on": (TODAY + dt.timedelta(days=1)).isoformat()}
    refused(ep, "schedule_distribution", "rule_violation", "agency_id", agency_id=stale["id"], **args)
    ok(ep, "record_monitoring", agency_id=stale["id"])
    made = ok(ep, "schedule_distribution", agency_id=stale["id"], **args)
    assert ok(ep, "get_item", item_id=lot["id"])["on_hand_lbs"] == lot["on_hand_lbs"] - 50
    ok(ep, "cancel_distribution", distribution_id=made["id"])
    assert ok(ep, "get_item", item_id=lot["id"])["on_hand_lbs"] == lot["on_hand_lbs"]
    suspended = first(ep, "agencies", status="suspended")
    refused(ep, "schedule_distribution", "rule_violation", "agency_id", agency_id=suspended["id"], **args)


def test_allocation_stock_and_dates_limit_a_distribution(ep: Episode) -> None:
    agency = fresh_agency(ep)
    big = first(ep, "items", sku="FB-1001")
    day = (TODAY + dt.timedelta(days=1)).isoformat()
    refused(
        ep,
        "schedule_distribution",
        "rule_violation",
        "pounds",
        agency_id=agency["id"],
        sku=big["sku"],
        pounds=agency["monthly_allocation_lbs"] + 1,
        pickup_on=day,
    )
    bread = first(ep, "items", sku="FB-1007")
    refused(
        ep,
        "schedule_distribution",
        "rule_violation",
        "sku",
        agency_id=agency["id"],
        sku=bread["sku"],
        pounds=10,
        pickup_on=(TODAY + dt.timedelta(days=3)).isoformat(),
    )
    baby = first(ep, "items", sku="FB-1006")
    refused(
        ep,
        "schedule_distribution",
        "rule_violation",
        "pounds",
        agency_id=agency["id"],
        sku=baby["sku"],
        pounds=baby["on_hand_lbs"] + 1,
        pickup_on=day,
    )


def test_donations_add_stock_and_are_valued_for_the_receipt(ep: Episode) -> None:
    apples = first(ep, "items", sku="FB-1003")
    d = ok(ep, "receive_donation", donor_name="Orchard Hill Farm", sku="FB-1003", pounds=250)
    assert d["fair_market_value_cents"] == 250 * 193
    assert ok(ep, "get_item", item_id=apples["id"])["on_hand_lbs"] == apples["on_hand_lbs"] + 250
    refused(ep, "receive_donation", "rule_violation", "sku", donor_name="Orchard Hill Farm", sku="FB-1001", pounds=5)
    refused(ep, "receive_donation", "rule_violation", "name", donor_name="Orchard Hill Farm", sku="FB-3000", pounds=5)
    new = ok(
        ep,
        "receive_donation",
        donor_name="Scouts Food Drive",
        sku="FB-3000",
        pounds=80,
        name="Canned soup",
        category="canned",
    )
    assert ok(ep, "list_items", sku="FB-3000")["items"][0]["on_hand_lbs"] == 80 and new["pounds"] == 80


def test_agency_transitions(ep: Episode) -> None:
    agency = fresh_agency(ep)
    assert ok(ep, "suspend_agency", agency_id=agency["id"])["status"] == "suspended"
    refused(ep, "suspend_agency", "rule_violation", "agency_id", agency_id=agency["id"])
    assert ok(ep, "reinstate_agency", agency_id=agency["id"])["status"] == "active"
