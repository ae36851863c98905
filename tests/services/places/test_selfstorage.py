"""Keepsafe Storage: reservations, move-ins with protection, rent, delinquency, lockouts, liens, auctions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

STORE = ServiceTools("selfstorage")
WORLD = STORE.world
ok, refused, every, first = STORE.ok, STORE.refused, STORE.every, STORE.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def new_tenant(ep: Episode, n: int = 1) -> dict[str, Any]:
    made: dict[str, Any] = ok(ep, "create_tenant", full_name=f"Sam {n}", email=f"sam{n}@reyes.io", phone="+15125550100")
    return made


def rental(ep: Episode, stage: str) -> dict[str, Any]:
    return first(ep, "rentals", stage=stage, status="active")


def test_seeded_tenants_come_from_the_population_and_units_match_their_rentals(ep: Episode) -> None:
    emails = {p.email for p in POP.people}
    assert all(t["email"] in emails for t in every(ep, "list_tenants"))
    stages = {r["stage"] for r in every(ep, "list_rentals", status="active")}
    assert stages == {"current", "late", "locked_out", "lien", "auction_scheduled"}
    for r in every(ep, "list_rentals", status="active"):
        unit = ok(ep, "get_unit", unit_id=r["unit_id"])
        assert unit["status"] == ("rented" if r["stage"] in ("current", "late") else "overlocked")
        assert r["gate_access"] == (r["stage"] in ("current", "late"))


def test_move_in_requires_protection_and_charges_fee_prorated_rent_and_premium(ep: Episode) -> None:
    unit = first(ep, "units", status="available")
    t = new_tenant(ep)
    refused(ep, "move_in", "rule_violation", "protection_plan_id", unit_id=unit["id"], tenant_id=t["id"], method="card")
    plan = every(ep, "list_protection_plans")[0]
    r = ok(ep, "move_in", unit_id=unit["id"], tenant_id=t["id"], method="card", protection_plan_id=plan["id"])
    assert (r["status"], r["stage"], r["balance_cents"], r["gate_access"]) == ("active", "current", 0, True)
    kinds = {c["kind"]: c["amount_cents"] for c in every(ep, "list_charges", rental_id=r["id"])}
    fac = ok(ep, "get_facility", facility_id=r["facility_id"])
    assert kinds["admin_fee"] == fac["admin_fee_cents"] and kinds["protection"] == plan["monthly_premium_cents"]
    assert 0 < kinds["rent"] <= unit["monthly_rate_cents"]
    assert every(ep, "list_payments", rental_id=r["id"])[0]["amount_cents"] == sum(kinds.values())
    assert ok(ep, "get_unit", unit_id=unit["id"])["status"] == "rented"
    refused(
        ep, "move_in", "conflict", "unit_id", unit_id=unit["id"], tenant_id=t["id"], method="card", own_insurance=True
    )


def test_a_reserved_unit_moves_in_only_its_tenant(ep: Episode) -> None:
    unit = first(ep, "units", status="available")
    a, b = new_tenant(ep, 1), new_tenant(ep, 2)
    far = (TODAY + dt.timedelta(days=31)).isoformat()
    refused(
        ep,
        "reserve_unit",
        "rule_violation",
        "expected_move_in",
        unit_id=unit["id"],
        tenant_id=a["id"],
        expected_move_in=far,
    )
    rsv = ok(ep, "reserve_unit", unit_id=unit["id"], tenant_id=a["id"], expected_move_in=TODAY.isoformat())
    refused(
        ep,
        "reserve_unit",
        "conflict",
        "unit_id",
        unit_id=unit["id"],
        tenant_id=b["id"],
        expected_move_in=TODAY.isoformat(),
    )
    refused(
        ep, "move_in", "conflict", "unit_id", unit_id=unit["id"], tenant_id=b["id"], method="cash", own_insurance=True
    )
    refused(ep, "take_offline_unit", "rule_violation", "unit_id", unit_id=unit["id"])
    r = ok(ep, "move_in", unit_id=unit["id"], tenant_id=a["id"], method="cash", own_insurance=True)
    assert r["protection_plan_id"] is None and r["premium_cents"] == 0
    assert every(ep, "list_reservations", unit_id=unit["id"])[0]["status"] == "converted"
    refused(ep, "cancel_reservation", "conflict", "reservation_id", reservation_id=rsv["id"])


def test_the_delinquency_run_charges_late_fees_locks_out_and_sends_lien_notices(ep: Episode) -> None:
    due = next(r for r in every(ep, "list_rentals", status="active") if r["next_due_date"] <= TODAY.isoformat())
    posted = ok(ep, "post_rent", facility_id=due["facility_id"])
    after = next(r for r in posted if r["id"] == due["id"])
    assert after["balance_cents"] == due["balance_cents"] + due["rent_cents"] + due["premium_cents"]
    assert after["next_due_date"] > TODAY.isoformat()
    refused(ep, "post_rent", "rule_violation", "facility_id", facility_id=due["facility_id"])
    late = rental(ep, "late")
    days = (TODAY - dt.date.fromisoformat(late["past_due_since"])).days
    assert ok(ep, "run_delinquency", facility_id=late["facility_id"])["locked_out"] == []
    ok(ep, "update_facility", facility_id=late["facility_id"], lockout_after_days=days)
    run = ok(ep, "run_delinquency", facility_id=late["facility_id"])
    assert run["locked_out"] == [late["id"]] and run["late"] == []
    locked = ok(ep, "get_rental", rental_id=late["id"])
    assert (locked["stage"], locked["gate_access"]) == ("locked_out", False)
    assert ok(ep, "get_unit", unit_id=late["unit_id"])["status"] == "overlocked"


def test_lockout_denies_the_gate_and_paying_in_full_lifts_it(ep: Episode) -> None:
    r = rental(ep, "locked_out")
    denied = ok(ep, "enter_gate", facility_id=r["facility_id"], gate_code=r["gate_code"])
    assert not denied["granted"] and denied["rental_id"] == r["id"]
    refused(ep, "move_out", "rule_violation", "rental_id", rental_id=r["id"])
    refused(
        ep,
        "take_payment",
        "rule_violation",
        "amount_cents",
        rental_id=r["id"],
        method="card",
        amount_cents=r["balance_cents"] + 2 * r["rent_cents"] + r["premium_cents"],
    )
    part = ok(ep, "take_payment", rental_id=r["id"], amount_cents=1, method="card")
    assert (part["stage"], part["gate_access"]) == ("locked_out", False)
    paid = ok(ep, "take_payment", rental_id=r["id"], amount_cents=part["balance_cents"], method="card")
    assert (paid["stage"], paid["gate_access"], paid["balance_cents"]) == ("current", True, 0)
    assert ok(ep, "get_unit", unit_id=r["unit_id"])["status"] == "rented"
    assert ok(ep, "move_out", rental_id=r["id"])["status"] == "moved_out"
    assert ok(ep, "get_unit", unit_id=r["unit_id"])["status"] == "available"


def test_an_auction_waits_14_days_after_the_lien_notice(ep: Episode) -> None:
    r = rental(ep, "lien")
    notice = dt.date.fromisoformat(r["lien_notice_on"])
    earliest = max(notice + dt.timedelta(days=14), TODAY + dt.timedelta(days=1))
    refused(
        ep,
        "schedule_auction",
        "rule_violation",
        "auction_on",
        rental_id=r["id"],
        auction_on=(earliest - dt.timedelta(days=1)).isoformat(),
    )
    done = ok(ep, "schedule_auction", rental_id=r["id"])
    assert (done["stage"], done["auction_on"]) == ("auction_scheduled", earliest.isoformat())
    refused(ep, "sell_at_auction", "rule_violation", "rental_id", rental_id=r["id"], winning_bid_cents=10000)
    refused(ep, "schedule_auction", "rule_violation", "rental_id", rental_id=rental(ep, "late")["id"])


def test_an_auction_sale_frees_the_unit_and_applies_the_proceeds(ep: Episode) -> None:
    r = rental(ep, "auction_scheduled")
    sold = ok(ep, "sell_at_auction", rental_id=r["id"], winning_bid_cents=50000)
    assert (sold["status"], sold["balance_cents"]) == ("auctioned", r["balance_cents"] - 50000)
    assert ok(ep, "get_unit", unit_id=r["unit_id"])["status"] == "available"
    assert every(ep, "list_payments", rental_id=r["id"], method="auction")[0]["amount_cents"] == 50000
    refused(ep, "take_payment", "rule_violation", "rental_id", rental_id=r["id"], amount_cents=100, method="cash")


def test_paying_before_the_auction_cancels_it(ep: Episode) -> None:
    r = rental(ep, "auction_scheduled")
    paid = ok(ep, "take_payment", rental_id=r["id"], amount_cents=r["balance_cents"], method="ach")
    assert (paid["stage"], paid["auction_on"], paid["lien_notice_on"]) == ("current", None, None)
    refused(ep, "sell_at_auction", "rule_violation", "rental_id", rental_id=r["id"], winning_bid_cents=100)


def test_gate_codes_open_only_for_active_rentals_and_reset_codes_replace_old_ones(ep: Episode) -> None:
    r = rental(ep, "current")
    old = r["gate_code"]
    new = ok(ep, "reset_gate_code", rental_id=r["id"])["gate_code"]
    codes = [x["gate_code"] for x in every(ep, "list_rentals", facility_id=r["facility_id"], status="active")]
    assert new != old and codes.count(new) == 1
    gone = ok(ep, "enter_gate", facility_id=r["facility_id"], gate_code=old)
    assert (gone["granted"], gone["reason"], gone["rental_id"]) == (False, "unknown code", None)
    event = ok(ep, "enter_gate", facility_id=r["facility_id"], gate_code=new)
    assert event["rental_id"] == r["id"]
    assert event["granted"] == (event["reason"] == "access granted")
    assert every(ep, "list_access_events", rental_id=r["id"])[-1]["id"] == event["id"]
