"""Maple Grove Senior Living: assessments set care levels, move-ins by care setting, the MAR, incidents, move-outs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SL = ServiceTools("seniorliving")
WORLD = SL.world
ok, refused, every, first = SL.ok, SL.refused, SL.every, SL.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
NURSE = POP.employees[0].email


def ready_prospect(ep: Episode) -> dict[str, Any]:
    return next(r for r in every(ep, "list_residents", status="prospect") if r["care_level"])


def test_residents_live_in_units_of_their_care_setting(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.consumers}
    for r in every(ep, "list_residents"):
        assert people[r["email"]] == r["name"]
        if r["unit_id"]:
            unit = ok(ep, "get_unit", unit_id=r["unit_id"])
            assert (unit["status"], unit["care_setting"]) == ("occupied", r["care_level"])
    occupied = every(ep, "list_units", status="occupied")
    assert len(occupied) == len([r for r in every(ep, "list_residents") if r["unit_id"]])


def test_finalizing_an_assessment_sets_the_care_level(ep: Episode) -> None:
    draft = first(ep, "assessments", status="draft")
    refused(
        ep,
        "move_in",
        "rule_violation",
        "resident_id",
        resident_id=draft["resident_id"],
        unit_id=first(ep, "units", status="available")["id"],
        move_in_date=TODAY.isoformat(),
    )
    refused(
        ep,
        "assess_resident",
        "rule_violation",
        "assessor_email",
        resident_id=draft["resident_id"],
        assessor_email="x@y.org",
        adl_score=2,
        bims_score=15,
    )
    r = ok(ep, "finalize_assessment", assessment_id=draft["id"])
    assert r["care_level"] == draft["recommended_level"]
    refused(ep, "finalize_assessment", "rule_violation", "assessment_id", assessment_id=draft["id"])
    low = ok(ep, "assess_resident", resident_id=r["id"], assessor_email=NURSE, adl_score=3, bims_score=6)
    assert low["recommended_level"] == "memory_care"


def test_a_move_in_needs_an_available_unit_of_the_right_setting(ep: Episode) -> None:
    r = ready_prospect(ep)
    wrong = next(u for u in every(ep, "list_units", status="available") if u["care_setting"] != r["care_level"])
    refused(
        ep,
        "move_in",
        "rule_violation",
        "unit_id",
        resident_id=r["id"],
        unit_id=wrong["id"],
        move_in_date=TODAY.isoformat(),
    )
    taken = first(ep, "units", status="occupied", care_setting=r["care_level"])
    refused(
        ep, "move_in", "conflict", "unit_id", resident_id=r["id"], unit_id=taken["id"], move_in_date=TODAY.isoformat()
    )
    unit = first(ep, "units", status="available", care_setting=r["care_level"])
    moved = ok(ep, "move_in", resident_id=r["id"], unit_id=unit["id"], move_in_date=TODAY.isoformat())
    assert (moved["status"], moved["unit_id"]) == ("active", unit["id"])
    assert moved["monthly_rate_cents"] > unit["base_rent_cents"]
    assert ok(ep, "get_unit", unit_id=unit["id"])["status"] == "occupied"


def test_a_pass_is_recorded_once_on_an_active_order(ep: Episode) -> None:
    order = next(
        o
        for o in every(ep, "list_med_orders", status="active")
        if ok(ep, "get_resident", resident_id=o["resident_id"])["status"] == "active"
    )
    args = {"order_id": order["id"], "staff_email": NURSE}
    refused(ep, "record_administration", "rule_violation", "med_pass", med_pass="1200", status="given", **args)
    refused(ep, "record_administration", "rule_violation", "note", med_pass="0800", status="refused", **args)
    ok(ep, "record_administration", med_pass="0800", status="given", **args)
    refused(ep, "record_administration", "conflict", "med_pass", med_pass="0800", status="given", **args)
    ok(ep, "discontinue_med_order", med_order_id=order["id"])
    refused(ep, "record_administration", "rule_violation", "order_id", med_pass="0800", status="given", **args)


def test_no_pass_while_the_resident_is_on_leave(ep: Episode) -> None:
    away = first(ep, "residents", status="on_leave")
    order = first(ep, "med_orders", resident_id=away["id"])
    refused(
        ep,
        "record_administration",
        "rule_violation",
        "order_id",
        order_id=order["id"],
        med_pass="0800",
        status="given",
        staff_email=NURSE,
    )
    ok(ep, "end_leave_resident", resident_id=away["id"])
    ok(ep, "record_administration", order_id=order["id"], med_pass="0800", status="given", staff_email=NURSE)


def test_an_incident_closes_only_after_the_family_is_told(ep: Episode) -> None:
    inc = next(i for i in every(ep, "list_incidents") if not i["family_notified"])
    refused(ep, "close_incident", "rule_violation", "incident_id", incident_id=inc["id"])
    ok(ep, "update_incident", incident_id=inc["id"], family_notified=True)
    assert ok(ep, "close_incident", incident_id=inc["id"])["status"] == "closed"
    r = first(ep, "residents", status="active")
    refused(
        ep,
        "report_incident",
        "rule_violation",
        "occurred_at",
        resident_id=r["id"],
        kind="fall",
        severity="minor",
        occurred_at=(WORLD.epoch + dt.timedelta(days=1)).isoformat(),
        description="x",
        reported_by=NURSE,
    )


def test_moving_out_discontinues_orders_and_turns_the_unit_over(ep: Episode) -> None:
    r = first(ep, "residents", status="active")
    out = ok(ep, "move_out", resident_id=r["id"])
    assert (out["status"], out["unit_id"], out["move_out_date"]) == ("moved_out", None, TODAY.isoformat())
    assert {o["status"] for o in every(ep, "list_med_orders", resident_id=r["id"])} == {"discontinued"}
    assert ok(ep, "get_unit", unit_id=r["unit_id"])["status"] == "out_of_service"
    assert ok(ep, "return_to_service_unit", unit_id=r["unit_id"])["status"] == "available"
    refused(ep, "move_out", "rule_violation", "resident_id", resident_id=r["id"])


def test_a_new_care_level_means_a_transfer_to_its_wing(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_residents", status="active") if x["care_level"] == "assisted")
    a = ok(ep, "assess_resident", resident_id=r["id"], assessor_email=NURSE, adl_score=20, bims_score=4)
    moved = ok(ep, "finalize_assessment", assessment_id=a["id"])
    assert moved["care_level"] == "memory_care"
    old = r["unit_id"]
    same_wing = first(ep, "units", status="available", care_setting="assisted")
    refused(ep, "transfer_unit", "rule_violation", "unit_id", resident_id=r["id"], unit_id=same_wing["id"])
    target = first(ep, "units", status="available", care_setting="memory_care")
    done = ok(ep, "transfer_unit", resident_id=r["id"], unit_id=target["id"])
    assert done["unit_id"] == target["id"]
    assert ok(ep, "get_unit", unit_id=old)["status"] == "out_of_service"


def test_a_care_plan_supersedes_the_last_and_orders_are_not_doubled(ep: Episode) -> None:
    r = first(ep, "residents", status="active")
    old = first(ep, "care_plans", resident_id=r["id"], status="active")
    new = ok(ep, "create_care_plan", resident_id=r["id"], focus=["nutrition"], interventions="Weigh weekly.")
    assert ok(ep, "get_care_plan", care_plan_id=old["id"])["status"] == "superseded"
    assert new["review_on"] == (TODAY + dt.timedelta(days=90)).isoformat()
    order = first(ep, "med_orders", resident_id=r["id"], status="active")
    refused(
        ep,
        "create_med_order",
        "conflict",
        "drug",
        resident_id=r["id"],
        drug=order["drug"].upper(),
        dose="1",
        passes=["0800"],
        prescriber="Dr. Helen Ortiz",
    )
