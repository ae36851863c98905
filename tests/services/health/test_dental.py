"""Brightbite Dental: scheduling without double-booking, charting rules by tooth, plans, claims, recalls."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DENTAL = ServiceTools("dental")
WORLD = DENTAL.world
ok, refused, every = DENTAL.ok, DENTAL.refused, DENTAL.every
POP = WORLD.population
NOW = WORLD.epoch


def patient(ep: Episode, insured: bool = True) -> dict[str, Any]:
    for p in every(ep, "list_patients", status="patient"):
        if (p["carrier"] is not None) == insured:
            return p
    raise AssertionError("no such patient")


def doc(ep: Episode, specialty: str = "general") -> str:
    return str(every(ep, "list_providers", specialty=specialty)[0]["id"])


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def later(days: int, hour: int = 15) -> str:
    return dt.datetime.combine(NOW.date() + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC).isoformat()


def test_seeded_patients_are_consumers_and_providers_are_staff(ep: Episode) -> None:
    consumers = {p.email: p for p in POP.consumers}
    for p in every(ep, "list_patients"):
        assert consumers[p["email"]].last_name == p["last_name"]
        assert (p["carrier"] is None) == (p["subscriber_id"] is None)
        assert every(ep, "list_recalls", patient_id=p["id"])
    staff = {p.email for p in POP.employees}
    assert all(d["email"] in staff for d in every(ep, "list_providers"))


def test_neither_provider_nor_operatory_is_double_booked(ep: Episode) -> None:
    busy = next(a for a in every(ep, "list_appointments", status="scheduled") if at(a["start"]) > NOW)
    p = patient(ep)
    other_doc = next(d["id"] for d in every(ep, "list_providers") if d["id"] != busy["provider_id"])
    free_op = next(o for o in ("OP1", "OP2", "OP3", "HYG1", "HYG2") if o != busy["operatory"])
    base = {"patient_id": p["id"], "start": busy["start"], "minutes": 30}
    refused(
        ep,
        "schedule_appointment",
        "conflict",
        "provider_id",
        provider_id=busy["provider_id"],
        operatory=free_op,
        **base,
    )
    refused(
        ep, "schedule_appointment", "conflict", "operatory", provider_id=other_doc, operatory=busy["operatory"], **base
    )
    refused(
        ep,
        "schedule_appointment",
        "rule_violation",
        "start",
        provider_id=other_doc,
        operatory=free_op,
        patient_id=p["id"],
        start=later(-1),
    )
    made = ok(ep, "schedule_appointment", provider_id=other_doc, operatory=free_op, **base)
    assert made["status"] == "scheduled"
    inactive = every(ep, "list_patients", status="inactive")[0]
    refused(
        ep,
        "schedule_appointment",
        "rule_violation",
        "patient_id",
        **(base | {"patient_id": inactive["id"]}),
        provider_id=other_doc,
        operatory="OP3",
    )


def test_charting_follows_the_cdt_code(ep: Episode) -> None:
    p, d = patient(ep)["id"], doc(ep)
    base = {"patient_id": p, "provider_id": d}
    refused(ep, "plan_procedure", "rule_violation", "tooth", code="D2740", **base)
    refused(ep, "plan_procedure", "rule_violation", "tooth", code="D1110", tooth=3, **base)
    refused(ep, "plan_procedure", "rule_violation", "tooth", code="D3330", tooth=8, **base)
    refused(ep, "plan_procedure", "rule_violation", "surfaces", code="D2392", tooth=30, surfaces="O", **base)
    refused(ep, "plan_procedure", "rule_violation", "surfaces", code="D2392", tooth=30, surfaces="OO", **base)
    made = ok(ep, "plan_procedure", code="D2392", tooth=30, surfaces="MO", **base)
    assert (made["status"], made["fee_cents"], made["description"]) == (
        "TP",
        24500,
        "Resin-based composite, two surfaces, posterior",
    )


def test_an_extracted_tooth_gets_no_more_treatment(ep: Episode) -> None:
    ext = every(ep, "list_procedures", code="D7140", status="C")[0]
    args = {"patient_id": ext["patient_id"], "provider_id": doc(ep), "tooth": ext["tooth"]}
    refused(ep, "plan_procedure", "rule_violation", "tooth", code="D2740", **args)
    assert ok(ep, "plan_procedure", code="D2740", **(args | {"tooth": 2}))["tooth"] == 2


def test_completing_an_appointment_completes_its_procedures_and_moves_the_recall(ep: Episode) -> None:
    started = [a for a in every(ep, "list_appointments", status="scheduled") if at(a["start"]) <= NOW]
    apt = next(a for a in started if every(ep, "list_procedures", appointment_id=a["id"], code="D0120"))
    done = ok(ep, "complete_appointment", appointment_id=apt["id"])
    assert done["status"] == "complete"
    for p in every(ep, "list_procedures", appointment_id=apt["id"]):
        assert (p["status"], p["completed_on"]) == ("C", NOW.date().isoformat())
    recall = every(ep, "list_recalls", patient_id=apt["patient_id"])[0]
    assert recall["previous_date"] == NOW.date().isoformat() and recall["date_due"] > NOW.date().isoformat()
    refused(ep, "complete_appointment", "conflict", "appointment_id", appointment_id=apt["id"])
    future = next(a for a in every(ep, "list_appointments", status="scheduled") if at(a["start"]) > NOW)
    refused(ep, "complete_appointment", "rule_violation", "appointment_id", appointment_id=future["id"])


def test_a_completed_procedure_cannot_be_deleted_but_a_planned_one_can(ep: Episode) -> None:
    done = every(ep, "list_procedures", status="C")[0]
    refused(ep, "delete_procedure", "rule_violation", "procedure_id", procedure_id=done["id"])
    made = ok(ep, "plan_procedure", patient_id=done["patient_id"], provider_id=doc(ep), code="D0150")
    ok(ep, "delete_procedure", procedure_id=made["id"])
    assert not every(ep, "list_procedures", patient_id=done["patient_id"], code="D0150")


def test_a_treatment_plan_gathers_planned_work_with_an_estimate_and_is_signed_once(ep: Episode) -> None:
    p = next(
        x
        for x in every(ep, "list_patients", status="patient")
        if x["carrier"] and not every(ep, "list_treatplans", patient_id=x["id"])
    )
    refused(ep, "create_treatplan", "rule_violation", "patient_id", patient_id=p["id"], heading="Nothing")
    ok(ep, "plan_procedure", patient_id=p["id"], provider_id=doc(ep), code="D2740", tooth=3)
    ok(ep, "plan_procedure", patient_id=p["id"], provider_id=doc(ep), code="D2391", tooth=14, surfaces="O")
    plan = ok(ep, "create_treatplan", patient_id=p["id"], heading="Phase 1")
    assert plan["total_fee_cents"] == 125000 + 19500
    remaining = (
        p["annual_max_cents"]
        - p["benefits_used_cents"]
        - sum(
            c["estimate_cents"]
            for c in every(ep, "list_claims", patient_id=p["id"])
            if c["status"] in ("unsent", "sent")
        )
    )
    assert plan["insurance_estimate_cents"] == max(0, min(125000 // 2 + 19500 * 8 // 10, remaining))
    refused(ep, "create_treatplan", "conflict", "patient_id", patient_id=p["id"], heading="Again")
    assert ok(ep, "sign_treatplan", treatplan_id=plan["id"])["status"] == "signed"
    refused(ep, "sign_treatplan", "conflict", "treatplan_id", treatplan_id=plan["id"])


def test_claims_bill_completed_unclaimed_work_of_insured_patients(ep: Episode) -> None:
    self_pay = patient(ep, insured=False)
    sp_proc = every(ep, "list_procedures", patient_id=self_pay["id"], status="C")[0]
    refused(
        ep, "create_claim", "rule_violation", "patient_id", patient_id=self_pay["id"], procedure_ids=[sp_proc["id"]]
    )
    claimed = next(x for x in every(ep, "list_procedures", status="C") if x["claim_id"])
    refused(
        ep, "create_claim", "conflict", "procedure_ids", patient_id=claimed["patient_id"], procedure_ids=[claimed["id"]]
    )
    p = patient(ep)
    tp = ok(ep, "plan_procedure", patient_id=p["id"], provider_id=doc(ep), code="D0150")
    refused(ep, "create_claim", "rule_violation", "procedure_ids", patient_id=p["id"], procedure_ids=[tp["id"]])
    ok(ep, "complete_procedure", procedure_id=tp["id"])
    claim = ok(ep, "create_claim", patient_id=p["id"], procedure_ids=[tp["id"]])
    assert (claim["status"], claim["carrier"], claim["claim_fee_cents"]) == ("unsent", p["carrier"], 11000)
    assert ok(ep, "get_procedure", procedure_id=tp["id"])["claim_id"] == claim["id"]


def test_a_claim_is_paid_after_sending_within_fee_and_annual_maximum(ep: Episode) -> None:
    claim = every(ep, "list_claims", status="unsent")[0]
    refused(ep, "receive_claim_payment", "rule_violation", "claim_id", claim_id=claim["id"], paid_cents=100)
    ok(ep, "send_claim", claim_id=claim["id"])
    refused(
        ep,
        "receive_claim_payment",
        "rule_violation",
        "paid_cents",
        claim_id=claim["id"],
        paid_cents=claim["claim_fee_cents"] + 1,
    )
    before = ok(ep, "get_patient", patient_id=claim["patient_id"])["benefits_used_cents"]
    paid = ok(ep, "receive_claim_payment", claim_id=claim["id"], paid_cents=1000)
    assert (paid["status"], paid["paid_cents"]) == ("received", 1000)
    assert ok(ep, "get_patient", patient_id=claim["patient_id"])["benefits_used_cents"] == before + 1000


def test_changing_a_recall_interval_recomputes_the_due_date(ep: Episode) -> None:
    r = next(x for x in every(ep, "list_recalls", disabled=False) if x["previous_date"])
    got = ok(ep, "update_recall", recall_id=r["id"], interval_months=3)
    prev = dt.date.fromisoformat(r["previous_date"])
    month = prev.month + 2
    assert got["date_due"][:7] == f"{prev.year + month // 12}-{month % 12 + 1:02d}"
