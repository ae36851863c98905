"""Inspectly: booking rules, agreement before confirmation, payment before publishing, defects, repair lists."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.kit.time import iso_z
from tests.services.helpers import ServiceTools

HI = ServiceTools("homeinspect")
WORLD = HI.world
ok, refused, every, first = HI.ok, HI.refused, HI.every, HI.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
BUYER = POP.consumers[0]


def at(days: int, hour: int) -> str:
    return iso_z(dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC))


def certified(ep: Episode, service: str) -> dict[str, Any]:
    return next(i for i in every(ep, "list_inspectors") if service in i["services"])


def book(ep: Episode, inspector: dict[str, Any], start: str, **extra: Any) -> Any:
    args = {
        "address": "5 Test Ln",
        "city": "Springfield",
        "square_feet": 2000,
        "client_name": BUYER.name,
        "client_email": BUYER.email,
        "inspector_id": inspector["id"],
        "services": ["home_inspection"],
        "start_at": start,
    } | extra
    return ok(ep, "schedule_inspection", **args)


def test_seeded_inspectors_are_staff_and_clients_are_consumers(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    consumers = {p.email: p.name for p in POP.consumers}
    assert all(i["email"] in staff for i in every(ep, "list_inspectors"))
    for j in every(ep, "list_inspections"):
        assert consumers[j["client_email"]] == j["client_name"]
        if j["status"] == "published":
            assert j["paid"] >= j["fee"] and j["agreement_signed_at"]


def test_fees_add_services_and_a_large_home_surcharge(ep: Episode) -> None:
    who = certified(ep, "radon")
    small = book(ep, who, at(30, 8), services=["home_inspection", "radon"])
    assert small["fee"] == 42500 + 15000
    big = book(ep, who, at(31, 8), square_feet=4200)
    assert big["fee"] == 42500 + 2 * 5000


def test_an_inspector_must_be_certified_free_and_inside_the_day(ep: Episode) -> None:
    pool = certified(ep, "pool")
    no_pool = next(i for i in every(ep, "list_inspectors") if "pool" not in i["services"])
    base = {
        "address": "1 A St",
        "city": "X",
        "square_feet": 1500,
        "client_name": BUYER.name,
        "client_email": BUYER.email,
    }
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "inspector_id",
        inspector_id=no_pool["id"],
        services=["home_inspection", "pool"],
        start_at=at(20, 9),
        **base,
    )
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "start_at",
        inspector_id=pool["id"],
        services=["home_inspection"],
        start_at=at(20, 17),
        **base,
    )
    refused(
        ep,
        "schedule_inspection",
        "rule_violation",
        "services",
        inspector_id=pool["id"],
        services=["pool", "pool"],
        start_at=at(20, 9),
        **base,
    )
    book(ep, pool, at(20, 9))
    refused(
        ep,
        "schedule_inspection",
        "conflict",
        "start_at",
        inspector_id=pool["id"],
        services=["home_inspection"],
        start_at=at(20, 11),
        **base,
    )


def test_confirmation_needs_the_signed_agreement(ep: Episode) -> None:
    job = next(j for j in every(ep, "list_inspections", status="scheduled") if not j["agreement_signed_at"])
    refused(ep, "confirm_inspection", "rule_violation", "inspection_id", inspection_id=job["id"])
    ok(ep, "sign_agreement", inspection_id=job["id"])
    refused(ep, "sign_agreement", "conflict", "inspection_id", inspection_id=job["id"])
    assert ok(ep, "confirm_inspection", inspection_id=job["id"])["status"] == "confirmed"


def test_defects_are_written_only_during_or_after_the_inspection(ep: Episode) -> None:
    scheduled = first(ep, "inspections", status="scheduled")
    live = first(ep, "inspections", status="in_progress")
    item = {"section": "Roof", "title": "Cracked boot", "severity": "recommendation"}
    refused(ep, "create_defect", "rule_violation", "inspection_id", inspection_id=scheduled["id"], **item)
    made = ok(ep, "create_defect", inspection_id=live["id"], **item)
    ok(ep, "complete_inspection", inspection_id=live["id"])
    ok(ep, "update_defect", defect_id=made["id"], severity="safety")
    published = first(ep, "inspections", status="published")
    old = first(ep, "defects", inspection_id=published["id"])
    refused(ep, "update_defect", "rule_violation", "inspection_id", defect_id=old["id"], severity="maintenance")
    refused(ep, "delete_defect", "rule_violation", "inspection_id", defect_id=old["id"])


def test_publishing_needs_full_payment_and_payments_cannot_exceed_the_fee(ep: Episode) -> None:
    job = next(j for j in every(ep, "list_inspections", status="completed") if j["paid"] < j["fee"])
    refused(ep, "publish_report", "rule_violation", "inspection_id", inspection_id=job["id"])
    refused(
        ep, "record_payment", "rule_violation", "amount", inspection_id=job["id"], amount=job["fee"] + 1, method="card"
    )
    ok(ep, "record_payment", inspection_id=job["id"], amount=job["fee"] - 100, method="ach")
    refused(ep, "publish_report", "rule_violation", "inspection_id", inspection_id=job["id"])
    ok(ep, "record_payment", inspection_id=job["id"], amount=100, method="card")
    assert ok(ep, "publish_report", inspection_id=job["id"])["status"] == "published"
    assert sum(p["amount"] for p in every(ep, "list_payments", inspection_id=job["id"])) == job["fee"]


def test_repair_lists_come_from_the_published_report_by_client_or_agent(ep: Episode) -> None:
    job = first(ep, "inspections", status="published")
    mine = every(ep, "list_defects", inspection_id=job["id"])
    other = next(d for d in every(ep, "list_defects") if d["inspection_id"] != job["id"])
    base = {"inspection_id": job["id"]}
    refused(
        ep,
        "create_repair_request",
        "rule_violation",
        "requested_by",
        requested_by="seller@x.io",
        defect_ids=[mine[0]["id"]],
        **base,
    )
    refused(
        ep,
        "create_repair_request",
        "rule_violation",
        "defect_ids",
        requested_by=job["agent_email"],
        defect_ids=[other["id"]],
        **base,
    )
    made = ok(ep, "create_repair_request", requested_by=job["client_email"], defect_ids=[mine[0]["id"]], **base)
    assert ok(ep, "send_repair_request", repair_request_id=made["id"])["status"] == "sent"
    refused(ep, "send_repair_request", "conflict", "repair_request_id", repair_request_id=made["id"])
    unpublished = first(ep, "inspections", status="completed")
    refused(
        ep,
        "create_repair_request",
        "rule_violation",
        "inspection_id",
        inspection_id=unpublished["id"],
        requested_by=unpublished["client_email"],
        defect_ids=[mine[0]["id"]],
    )


def test_cancelling_refunds_and_ends_the_job(ep: Episode) -> None:
    job = first(ep, "inspections", status="confirmed")
    ok(ep, "record_payment", inspection_id=job["id"], amount=1000, method="card")
    out = ok(ep, "cancel_inspection", inspection_id=job["id"])
    assert (out["status"], out["paid"]) == ("cancelled", 0)
    refused(ep, "start_inspection", "rule_violation", "inspection_id", inspection_id=job["id"])
    refused(ep, "reschedule_inspection", "rule_violation", "inspection_id", inspection_id=job["id"], start_at=at(9, 9))
