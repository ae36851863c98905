"""ClearSight Eye Care: exams and refractions, prescriptions that expire and supersede, lab orders, recalls."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

EYE = ServiceTools("optometry")
WORLD = EYE.world
ok, refused, every, first = EYE.ok, EYE.refused, EYE.every, EYE.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def later(days: int, hour: int = 15) -> str:
    return dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC).isoformat()


def new_exam(ep: Episode, exam_type: str = "comprehensive", days: int = 20) -> dict[str, Any]:
    pt = first(ep, "patients", active=True)
    dr = first(ep, "doctors")
    made: dict[str, Any] = ok(
        ep, "schedule_exam", patient_id=pt["id"], doctor_id=dr["id"], exam_type=exam_type, scheduled_at=later(days)
    )
    return made


def test_seeded_patients_and_doctors_come_from_the_shared_population(ep: Episode) -> None:
    docs = {p.email for p, _ in clinicians(POP)}
    assert {d["email"] for d in every(ep, "list_doctors")} <= docs
    consumers = {p.email: p.name for p in POP.consumers}
    for pt in every(ep, "list_patients"):
        assert consumers[pt["email"]] == pt["name"]
    for rx in every(ep, "list_prescriptions", status="active"):
        assert rx["expires_on"] >= TODAY.isoformat()


def test_a_cylinder_needs_an_axis_and_an_exam_completes_only_after_refraction(ep: Episode) -> None:
    ex = new_exam(ep)
    refused(ep, "complete_exam", "rule_violation", "exam_id", exam_id=ex["id"])
    refused(
        ep,
        "record_refraction",
        "rule_violation",
        "os_axis",
        exam_id=ex["id"],
        od_sphere=-1.0,
        os_sphere=-1.0,
        os_cylinder=-0.75,
    )
    ok(ep, "record_refraction", exam_id=ex["id"], od_sphere=-1.0, os_sphere=-1.0, os_cylinder=-0.75, os_axis=170)
    done = ok(ep, "complete_exam", exam_id=ex["id"])
    assert done["status"] == "completed"
    recalls = every(ep, "list_recalls", patient_id=ex["patient_id"])
    assert [r["status"] for r in recalls if r["status"] != "closed"] == ["pending"]
    refused(ep, "record_refraction", "rule_violation", "exam_id", exam_id=ex["id"], od_sphere=0.0, os_sphere=0.0)


def test_a_doctor_cannot_be_double_booked_and_past_times_are_refused(ep: Episode) -> None:
    ex = new_exam(ep)
    pt = every(ep, "list_patients", active=True)[1]
    args = {"patient_id": pt["id"], "doctor_id": ex["doctor_id"], "exam_type": "medical"}
    refused(ep, "schedule_exam", "conflict", "scheduled_at", scheduled_at=ex["scheduled_at"], **args)
    refused(ep, "schedule_exam", "rule_violation", "scheduled_at", scheduled_at=later(-2), **args)
    inactive = first(ep, "patients", active=False)
    refused(
        ep,
        "schedule_exam",
        "rule_violation",
        "patient_id",
        **(args | {"patient_id": inactive["id"]}),
        scheduled_at=later(30),
    )


def test_a_new_prescription_supersedes_the_active_one_of_its_kind(ep: Episode) -> None:
    old = first(ep, "prescriptions", status="active", kind="spectacle")
    ex = ok(
        ep,
        "schedule_exam",
        patient_id=old["patient_id"],
        doctor_id=first(ep, "doctors")["id"],
        exam_type="comprehensive",
        scheduled_at=later(3),
    )
    ok(ep, "record_refraction", exam_id=ex["id"], od_sphere=-2.0, os_sphere=-2.25)
    ok(ep, "complete_exam", exam_id=ex["id"])
    refused(ep, "issue_prescription", "rule_violation", "kind", exam_id=ex["id"], kind="contact_lens")
    rx = ok(ep, "issue_prescription", exam_id=ex["id"], kind="spectacle")
    assert (rx["od_sphere"], rx["status"]) == (-2.0, "active")
    assert rx["expires_on"] == TODAY.replace(year=TODAY.year + 2).isoformat()
    assert ok(ep, "get_prescription", prescription_id=old["id"])["status"] == "superseded"
    refused(ep, "issue_prescription", "conflict", "exam_id", exam_id=ex["id"], kind="spectacle")


def test_an_order_needs_an_active_prescription_of_the_matching_kind(ep: Episode) -> None:
    rx = first(ep, "prescriptions", status="active", kind="spectacle")
    base = {"prescription_id": rx["id"], "lab": "hoya", "price_cents": 19900}
    refused(ep, "create_order", "rule_violation", "prescription_id", kind="contacts", lens_type="monthly", **base)
    refused(
        ep, "create_order", "rule_violation", "lens_type", kind="glasses", lens_type="monthly", frame_name="X", **base
    )
    refused(ep, "create_order", "rule_violation", "frame_name", kind="glasses", lens_type="single_vision", **base)
    expired = first(ep, "prescriptions", status="expired")
    refused(
        ep,
        "create_order",
        "rule_violation",
        "prescription_id",
        kind="glasses",
        lens_type="single_vision",
        frame_name="X",
        **(base | {"prescription_id": expired["id"]}),
    )
    order = ok(ep, "create_order", kind="glasses", lens_type="single_vision", frame_name="Durand", **base)
    assert (order["status"], order["patient_id"]) == ("draft", rx["patient_id"])


def test_an_order_moves_through_the_lab_to_the_patient(ep: Episode) -> None:
    order = first(ep, "orders", status="draft")
    refused(ep, "receive_order", "rule_violation", "order_id", order_id=order["id"])
    sent = ok(ep, "send_to_lab", order_id=order["id"])
    assert sent["status"] == "sent_to_lab" and sent["lab_job"]
    ok(ep, "receive_order", order_id=order["id"])
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=order["id"])
    done = ok(ep, "dispense_order", order_id=order["id"])
    assert done["status"] == "dispensed" and done["dispensed_at"]


def test_a_remake_happens_once_and_goes_back_to_the_same_lab(ep: Episode) -> None:
    order = first(ep, "orders", status="received")
    refused(ep, "remake_order", "rule_violation", "reason", order_id=order["id"], reason=" ")
    remake = ok(ep, "remake_order", order_id=order["id"], reason="Wrong axis")
    assert (remake["lab"], remake["remake_of"], remake["status"], remake["price_cents"]) == (
        order["lab"],
        order["id"],
        "sent_to_lab",
        0,
    )
    assert ok(ep, "get_order", order_id=order["id"])["status"] == "remade"
    ok(ep, "receive_order", order_id=remake["id"])
    refused(ep, "remake_order", "rule_violation", "order_id", order_id=remake["id"], reason="Again")


def test_scheduling_an_exam_moves_open_recalls_and_outreach_is_capped(ep: Episode) -> None:
    recall = first(ep, "recalls", status="pending")
    for _ in range(3):
        ok(ep, "contact_recall", recall_id=recall["id"])
    refused(ep, "contact_recall", "rule_violation", "recall_id", recall_id=recall["id"])
    ok(
        ep,
        "schedule_exam",
        patient_id=recall["patient_id"],
        doctor_id=first(ep, "doctors")["id"],
        exam_type="comprehensive",
        scheduled_at=later(12),
    )
    assert ok(ep, "get_recall", recall_id=recall["id"])["status"] == "scheduled"


def test_prescriptions_are_found_by_the_patients_email(ep: Episode) -> None:
    pt = first(ep, "patients")
    found = ok(ep, "prescriptions_for", email=pt["email"])
    assert found and all(r["patient_id"] == pt["id"] for r in found)
    refused(ep, "prescriptions_for", "rule_violation", "email", email="nobody@example.org")
