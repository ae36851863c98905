"""Lumen Imaging: protocols and contrast, room scheduling, acquisition, reads, critical results, signing, addenda."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

RAD = ServiceTools("radiology")
WORLD = RAD.world
ok, refused, every = RAD.ok, RAD.refused, RAD.every
POP = WORLD.population
DOCTORS = {p.name for p, _ in clinicians(POP)}


def later(hours: int) -> str:
    return (WORLD.epoch + dt.timedelta(days=5, hours=hours)).isoformat()


def order(ep: Episode, status: str, modality: str | None = None) -> dict[str, Any]:
    found = every(ep, "list_orders", status=status)
    return next(o for o in found if modality is None or o["modality"] == modality)


def new_order(ep: Episode, modality: str, egfr: int | None = None) -> dict[str, Any]:
    p = POP.consumers[0]
    made: dict[str, Any] = ok(
        ep,
        "create_order",
        patient_name=p.name,
        patient_email=p.email,
        birth_date=p.birth_date.isoformat(),
        ordering_provider=next(iter(sorted(DOCTORS))),
        modality=modality,
        procedure=f"{modality} exam",
        reason="Follow-up",
        egfr=egfr,
    )
    return made


def test_seeded_orders_come_from_the_practice_and_cover_the_workflow(ep: Episode) -> None:
    people = {p.email: p.name for p in POP.consumers}
    for o in every(ep, "list_orders"):
        assert people[o["patient_email"]] == o["patient_name"]
        assert o["ordering_provider"] in DOCTORS
    assert {o["status"] for o in every(ep, "list_orders")} == {
        "ordered",
        "protocoled",
        "scheduled",
        "completed",
        "cancelled",
    }
    for st in every(ep, "list_studies"):
        assert ok(ep, "get_order", order_id=st["order_id"])["status"] == "completed"


def test_contrast_needs_a_ct_or_mr_and_a_safe_egfr(ep: Episode) -> None:
    low = next(o for o in every(ep, "list_orders", status="ordered") if o["egfr"] is not None and o["egfr"] < 30)
    refused(ep, "protocol_order", "rule_violation", "contrast", order_id=low["id"], protocol="CTPA", contrast=True)
    unknown = new_order(ep, "MR")
    refused(ep, "protocol_order", "rule_violation", "contrast", order_id=unknown["id"], protocol="MR+C", contrast=True)
    ok(ep, "update_order", order_id=unknown["id"], egfr=80)
    done = ok(ep, "protocol_order", order_id=unknown["id"], protocol="MR with gadolinium", contrast=True)
    assert (done["status"], done["contrast"]) == ("protocoled", True)
    xr = new_order(ep, "XR", egfr=90)
    refused(ep, "protocol_order", "rule_violation", "contrast", order_id=xr["id"], protocol="XR", contrast=True)
    refused(ep, "protocol_order", "conflict", "order_id", order_id=unknown["id"], protocol="Again")


def test_cross_sectional_exams_need_a_protocol_before_scheduling_and_xray_does_not(ep: Episode) -> None:
    ct = new_order(ep, "CT")
    refused(ep, "schedule_exam", "rule_violation", "order_id", order_id=ct["id"], room="CT-1", scheduled_at=later(1))
    xr = new_order(ep, "XR")
    assert ok(ep, "schedule_exam", order_id=xr["id"], room="XR-1", scheduled_at=later(1))["status"] == "scheduled"


def test_a_room_must_match_the_modality_and_be_free(ep: Episode) -> None:
    a, b = new_order(ep, "US"), new_order(ep, "US")
    refused(ep, "schedule_exam", "rule_violation", "room", order_id=a["id"], room="CT-1", scheduled_at=later(2))
    ok(ep, "schedule_exam", order_id=a["id"], room="US-1", scheduled_at=later(2))
    clash = (WORLD.epoch + dt.timedelta(days=5, hours=2, minutes=15)).isoformat()
    refused(ep, "schedule_exam", "conflict", "scheduled_at", order_id=b["id"], room="US-1", scheduled_at=clash)
    refused(
        ep,
        "schedule_exam",
        "rule_violation",
        "scheduled_at",
        order_id=b["id"],
        room="US-1",
        scheduled_at=(WORLD.epoch - dt.timedelta(hours=1)).isoformat(),
    )
    assert ok(ep, "schedule_exam", order_id=b["id"], room="US-1", scheduled_at=later(3))["room"] == "US-1"


def test_acquiring_a_scheduled_exam_makes_a_study_with_a_new_accession(ep: Episode) -> None:
    o = order(ep, "scheduled")
    refused(
        ep,
        "acquire_study",
        "conflict",
        "order_id",
        order_id=order(ep, "ordered")["id"],
        series_count=1,
        instance_count=2,
        technologist="Jordan Pike",
    )
    refused(
        ep,
        "acquire_study",
        "rule_violation",
        "instance_count",
        order_id=o["id"],
        series_count=3,
        instance_count=2,
        technologist="Jordan Pike",
    )
    st = ok(ep, "acquire_study", order_id=o["id"], series_count=2, instance_count=4, technologist="Jordan Pike")
    before = {s["accession_number"] for s in every(ep, "list_studies") if s["id"] != st["id"]}
    assert st["accession_number"] not in before and st["status"] == "unread"
    assert ok(ep, "get_order", order_id=o["id"])["status"] == "completed"
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=o["id"])


def test_a_study_is_read_only_by_an_active_credentialed_radiologist(ep: Episode) -> None:
    st = every(ep, "list_studies", status="unread")[0]
    rads = every(ep, "list_radiologists")
    wrong = next(r for r in rads if r["active"] and st["modality"] not in r["modalities"])
    idle = next(r for r in rads if not r["active"])
    right = next(r for r in rads if r["active"] and st["modality"] in r["modalities"])
    refused(ep, "assign_study", "rule_violation", "radiologist_id", study_id=st["id"], radiologist_id=wrong["id"])
    refused(ep, "assign_study", "rule_violation", "radiologist_id", study_id=st["id"], radiologist_id=idle["id"])
    assert st["id"] in [i["study_id"] for i in ok(ep, "reading_worklist", radiologist_id=right["id"])]
    ok(ep, "assign_study", study_id=st["id"], radiologist_id=right["id"])
    refused(
        ep,
        "dictate_report",
        "conflict",
        "study_id",
        study_id=every(ep, "list_studies", status="reported")[0]["id"],
        findings="x",
        impression="y",
    )
    rep = ok(ep, "dictate_report", study_id=st["id"], findings="Normal.", impression="No acute abnormality.")
    assert (rep["status"], rep["radiologist_id"]) == ("preliminary", right["id"])


def test_a_critical_report_is_signed_only_after_the_result_is_communicated(ep: Episode) -> None:
    rep = every(ep, "list_reports", critical=True, status="preliminary")[0]
    refused(ep, "sign_report", "rule_violation", "report_id", report_id=rep["id"])
    told = ok(ep, "communicate_critical_result", report_id=rep["id"], communicated_to="Dana Reyes", method="phone")
    assert told["critical_communicated_at"] is not None
    refused(ep, "communicate_critical_result", "conflict", "report_id", report_id=rep["id"], communicated_to="X Y")
    assert ok(ep, "sign_report", report_id=rep["id"])["status"] == "final"
    plain = every(ep, "list_reports", critical=False)[0]
    refused(
        ep,
        "communicate_critical_result",
        "rule_violation",
        "report_id",
        report_id=plain["id"],
        communicated_to="Dana Reyes",
    )


def test_a_signed_report_changes_only_by_addenda(ep: Episode) -> None:
    final = every(ep, "list_reports", status="final")[0]
    refused(ep, "sign_report", "conflict", "report_id", report_id=final["id"])
    pre = every(ep, "list_reports", status="preliminary", critical=False)[0]
    rid = final["radiologist_id"]
    refused(ep, "add_addendum", "conflict", "report_id", report_id=pre["id"], text="More", radiologist_id=rid)
    refused(ep, "add_addendum", "rule_violation", "text", report_id=final["id"], text="  ", radiologist_id=rid)
    ok(ep, "add_addendum", report_id=final["id"], text="Compared with prior: stable.", radiologist_id=rid)
    assert ok(ep, "get_report", report_id=final["id"])["status"] == "amended"
    assert len(every(ep, "list_addenda", report_id=final["id"])) == 1


def test_an_order_runs_end_to_end_from_order_to_signed_report(ep: Episode) -> None:
    o = new_order(ep, "CT", egfr=70)
    refused(ep, "update_order", "invalid_arguments", "egfr", order_id=o["id"], egfr=500)
    ok(ep, "protocol_order", order_id=o["id"], protocol="CT abdomen portal venous", contrast=True)
    ok(ep, "schedule_exam", order_id=o["id"], room="CT-2", scheduled_at=later(6))
    st = ok(ep, "acquire_study", order_id=o["id"], series_count=3, instance_count=600, technologist="Jordan Pike")
    reader = next(r for r in every(ep, "list_radiologists", active=True) if "CT" in r["modalities"])
    ok(ep, "assign_study", study_id=st["id"], radiologist_id=reader["id"])
    rep = ok(ep, "dictate_report", study_id=st["id"], findings="Normal.", impression="Normal CT.")
    assert ok(ep, "sign_report", report_id=rep["id"])["status"] == "final"
    assert ok(ep, "get_study", study_id=st["id"])["status"] == "reported"
