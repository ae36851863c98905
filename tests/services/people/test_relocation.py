"""Movewise Relocation: approval after the agreement, tier limits, moves, stays, gross-up, repayment."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

REL = ServiceTools("relocation")
WORLD = REL.world
ok, refused, every = REL.ok, REL.refused, REL.every
POP = WORLD.population
TODAY = WORLD.epoch.date()


def tier(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_policies", tier=name)[0]


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def free_employee(ep: Episode) -> str:
    busy = {r["employee_email"] for r in every(ep, "list_relocations")}
    return next(p.email for p in POP.employees if p.email not in busy)


def start(ep: Episode, tier_name: str) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "initiate_relocation",
        employee_email=free_employee(ep),
        policy_id=tier(ep, tier_name)["id"],
        origin_city="Denver",
        destination_city="Boston",
        report_date=day(30),
    )
    return made


def test_seeded_files_belong_to_employees_and_paid_totals_match(ep: Episode) -> None:
    names = {p.email: p.name for p in POP.employees}
    for r in every(ep, "list_relocations"):
        assert names[r["employee_email"]] == r["employee_name"]
        paid = every(ep, "list_expenses", relocation_id=r["id"], status="paid")
        assert r["reimbursed_cents"] == sum(e["amount_cents"] + e["gross_up_cents"] for e in paid)
    statuses = {r["status"] for r in every(ep, "list_relocations")}
    assert statuses == {"initiated", "approved", "in_progress", "completed", "cancelled"}


def test_initiation_refuses_non_employees_same_city_past_dates_and_a_second_file(ep: Episode) -> None:
    pid = tier(ep, "renter")["id"]
    who = free_employee(ep)
    base = {"policy_id": pid, "origin_city": "Denver"}
    refused(
        ep,
        "initiate_relocation",
        "rule_violation",
        "employee_email",
        employee_email="a@b.io",
        destination_city="Boston",
        report_date=day(9),
        **base,
    )
    refused(
        ep,
        "initiate_relocation",
        "rule_violation",
        "destination_city",
        employee_email=who,
        destination_city="denver",
        report_date=day(9),
        **base,
    )
    refused(
        ep,
        "initiate_relocation",
        "rule_violation",
        "report_date",
        employee_email=who,
        destination_city="Boston",
        report_date=day(0),
        **base,
    )
    made = ok(ep, "initiate_relocation", employee_email=who, destination_city="Boston", report_date=day(9), **base)
    assert made["status"] == "initiated"
    refused(
        ep,
        "initiate_relocation",
        "conflict",
        "employee_email",
        employee_email=who,
        destination_city="Miami",
        report_date=day(9),
        **base,
    )


def test_approval_waits_for_the_signed_repayment_agreement(ep: Episode) -> None:
    rel = start(ep, "homeowner")
    agr = every(ep, "list_agreements", relocation_id=rel["id"])[0]
    assert (agr["status"], agr["months"]) == ("pending", tier(ep, "homeowner")["repayment_months"])
    refused(ep, "approve_relocation", "rule_violation", "relocation_id", relocation_id=rel["id"])
    assert ok(ep, "sign_agreement", agreement_id=agr["id"])["signed_on"] == day(0)
    assert ok(ep, "approve_relocation", relocation_id=rel["id"])["status"] == "approved"
    refused(ep, "approve_relocation", "rule_violation", "relocation_id", relocation_id=rel["id"])
    lump = start(ep, "lump_sum")
    assert not every(ep, "list_agreements", relocation_id=lump["id"])
    assert ok(ep, "approve_relocation", relocation_id=lump["id"])["status"] == "approved"


def test_household_goods_stay_within_the_tier_cap_and_one_move_per_file(ep: Episode) -> None:
    rel = next(
        r
        for r in every(ep, "list_relocations", status="approved")
        if not every(ep, "list_shipments", relocation_id=r["id"])
    )
    cap = ok(ep, "get_policy", policy_id=rel["policy_id"])["household_goods_max_lbs"]
    base = {"relocation_id": rel["id"], "carrier": "Atlas Van Lines", "pack_date": day(5)}
    refused(ep, "schedule_move", "rule_violation", "estimated_weight_lbs", estimated_weight_lbs=cap + 1, **base)
    ship = ok(ep, "schedule_move", estimated_weight_lbs=cap, **base)
    refused(ep, "schedule_move", "conflict", "relocation_id", estimated_weight_lbs=100, **base)
    for verb, status in (("pack", "packed"), ("dispatch", "in_transit"), ("deliver", "delivered")):
        assert ok(ep, f"{verb}_shipment", shipment_id=ship["id"])["status"] == status
    initiated = every(ep, "list_relocations", status="initiated")[0]
    refused(
        ep,
        "schedule_move",
        "rule_violation",
        "relocation_id",
        estimated_weight_lbs=10,
        **(base | {"relocation_id": initiated["id"]}),
    )


def test_temporary_housing_stays_within_the_tiers_nights(ep: Episode) -> None:
    rel = every(ep, "list_relocations", status="approved")[0]
    nights = ok(ep, "get_policy", policy_id=rel["policy_id"])["temp_housing_nights"]
    used = sum(s["nights"] for s in every(ep, "list_stays", relocation_id=rel["id"]) if s["status"] != "cancelled")
    base = {"relocation_id": rel["id"], "property_name": "Oakwood", "check_in": day(3), "nightly_rate_cents": 15_000}
    refused(ep, "book_stay", "rule_violation", "nights", nights=nights - used + 1, **base)
    refused(ep, "book_stay", "rule_violation", "check_in", nights=1, **(base | {"check_in": day(-1)}))
    stay = ok(ep, "book_stay", nights=nights - used, **base)
    refused(ep, "book_stay", "rule_violation", "nights", nights=1, **base)
    ok(ep, "cancel_stay", stay_id=stay["id"])
    assert ok(ep, "book_stay", nights=1, **base)["status"] == "booked"


def test_expenses_are_grossed_up_only_under_a_gross_up_tier(ep: Episode) -> None:
    for r in every(ep, "list_relocations", status="in_progress"):
        policy = ok(ep, "get_policy", policy_id=r["policy_id"])
        exp = ok(
            ep,
            "submit_expense",
            relocation_id=r["id"],
            category="travel",
            description="Flight",
            amount_cents=70_000,
            incurred_on=day(0),
        )
        refused(ep, "pay_expense", "rule_violation", "expense_id", expense_id=exp["id"])
        ok(ep, "approve_expense", expense_id=exp["id"])
        paid = ok(ep, "pay_expense", expense_id=exp["id"])
        assert paid["gross_up_cents"] == (30_000 if policy["gross_up"] else 0)
        after = ok(ep, "get_relocation", relocation_id=r["id"])
        assert after["reimbursed_cents"] == r["reimbursed_cents"] + 70_000 + paid["gross_up_cents"]
    r = every(ep, "list_relocations", status="in_progress")[0]
    refused(
        ep,
        "submit_expense",
        "rule_violation",
        "incurred_on",
        relocation_id=r["id"],
        category="meals",
        description="Dinner",
        amount_cents=100,
        incurred_on=day(1),
    )
    lump = start(ep, "lump_sum")
    ok(ep, "approve_relocation", relocation_id=lump["id"])
    refused(
        ep,
        "submit_expense",
        "rule_violation",
        "relocation_id",
        relocation_id=lump["id"],
        category="meals",
        description="Dinner",
        amount_cents=100,
        incurred_on=day(0),
    )


def test_a_relocation_completes_only_when_goods_are_delivered_and_stays_closed(ep: Episode) -> None:
    busy = next(
        r
        for r in every(ep, "list_relocations", status="in_progress")
        if every(ep, "list_shipments", relocation_id=r["id"], status="in_transit")
    )
    refused(ep, "complete_relocation", "rule_violation", "relocation_id", relocation_id=busy["id"])
    ok(ep, "deliver_shipment", shipment_id=every(ep, "list_shipments", relocation_id=busy["id"])[0]["id"])
    refused(ep, "complete_relocation", "rule_violation", "relocation_id", relocation_id=busy["id"])
    ok(ep, "check_out_stay", stay_id=every(ep, "list_stays", relocation_id=busy["id"], status="checked_in")[0]["id"])
    assert ok(ep, "complete_relocation", relocation_id=busy["id"])["status"] == "completed"
    refused(ep, "cancel_relocation", "rule_violation", "relocation_id", relocation_id=busy["id"], reason="Late")


def test_cancelling_cancels_booked_stays_but_not_packed_goods(ep: Episode) -> None:
    packed = next(
        r
        for r in every(ep, "list_relocations", status="approved")
        if every(ep, "list_shipments", relocation_id=r["id"], status="packed")
    )
    refused(ep, "cancel_relocation", "conflict", "relocation_id", relocation_id=packed["id"], reason="Declined")
    other = next(
        r
        for r in every(ep, "list_relocations", status="approved")
        if every(ep, "list_shipments", relocation_id=r["id"], status="surveyed")
    )
    refused(ep, "cancel_relocation", "rule_violation", "reason", relocation_id=other["id"], reason=" ")
    done = ok(ep, "cancel_relocation", relocation_id=other["id"], reason="Offer withdrawn")
    assert done["status"] == "cancelled"
    assert {s["status"] for s in every(ep, "list_shipments", relocation_id=other["id"])} == {"cancelled"}
    assert {s["status"] for s in every(ep, "list_stays", relocation_id=other["id"])} == {"cancelled"}


def test_leaving_early_owes_a_prorated_repayment(ep: Episode) -> None:
    rel = start(ep, "executive")
    agr = every(ep, "list_agreements", relocation_id=rel["id"])[0]
    refused(ep, "enforce_repayment", "rule_violation", "agreement_id", agreement_id=agr["id"], separation_date=day(60))
    ok(ep, "sign_agreement", agreement_id=agr["id"])
    report = dt.date.fromisoformat(rel["report_date"])
    leave = report.replace(year=report.year + 1) if report.month != 2 or report.day != 29 else report
    owed = ok(ep, "enforce_repayment", agreement_id=agr["id"], separation_date=leave.isoformat())
    assert (owed["status"], owed["owed_cents"]) == ("repayment_due", round(agr["amount_cents"] * 12 / 24))
    refused(ep, "enforce_repayment", "rule_violation", "agreement_id", agreement_id=agr["id"], separation_date=day(1))
