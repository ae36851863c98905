"""Frontdoor Intake: intake sent and scored, insurance cards and eligibility, consents, copays, check-in."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

INTAKE = ServiceTools("patientintake")
WORLD = INTAKE.world
ok, refused, every = INTAKE.ok, INTAKE.refused, INTAKE.every
POP = WORLD.population


def visit(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_visits", status=status)[0]


def ready(ep: Episode) -> dict[str, Any]:
    for v in every(ep, "list_visits", status="intake_completed"):
        if ok(ep, "visit_readiness", visit_id=v["id"])["ready"]:
            return v
    raise AssertionError("no ready visit")


def test_seeded_patients_are_the_clinics_people_and_visits_cover_every_status(ep: Episode) -> None:
    people = {p.email: p for p in [*POP.consumers, *POP.employees]}
    for p in every(ep, "list_patients"):
        person = people[p["email"]]
        assert (p["first_name"], p["last_name"]) == (person.first_name, person.last_name)
    statuses = {v["status"] for v in every(ep, "list_visits")}
    assert statuses == {
        "scheduled",
        "intake_sent",
        "intake_completed",
        "checked_in",
        "completed",
        "cancelled",
        "no_show",
    }
    for c in every(ep, "list_insurance_cards"):
        assert not ok(ep, "get_patient", patient_id=c["patient_id"])["self_pay"]


def test_sending_intake_creates_the_visit_types_forms_once(ep: Episode) -> None:
    v = visit(ep, "scheduled")
    sent = ok(ep, "send_intake", visit_id=v["id"], channel="email")
    assert (sent["status"], sent["intake_channel"]) == ("intake_sent", "email")
    kinds = {f["kind"] for f in every(ep, "list_forms", visit_id=v["id"])}
    assert kinds == {"medical_history"} if v["visit_type"] == "follow_up" else kinds == {"phq9", "gad7"}
    refused(ep, "send_intake", "conflict", "visit_id", visit_id=v["id"])
    refused(ep, "send_intake", "conflict", "visit_id", visit_id=visit(ep, "cancelled")["id"])


def test_screenings_need_every_item_and_are_scored(ep: Episode) -> None:
    v = visit(ep, "scheduled")
    ok(ep, "send_intake", visit_id=v["id"])
    phq = ok(
        ep,
        "schedule_visit",
        patient_id=v["patient_id"],
        provider_name="Dana Reyes",
        visit_type="behavioral_health",
        scheduled_at=(WORLD.epoch + dt.timedelta(days=9)).isoformat(),
    )
    ok(ep, "send_intake", visit_id=phq["id"])
    phq9 = every(ep, "list_forms", visit_id=phq["id"], kind="phq9")[0]
    refused(ep, "submit_form", "rule_violation", "answers", form_id=phq9["id"], answers=[1, 1, 1])
    done = ok(ep, "submit_form", form_id=phq9["id"], answers=[0, 0, 0, 0, 0, 0, 0, 0, 1])
    assert (done["score"], done["result"]) == (1, "positive")  # item 9 answered: flagged whatever the score
    refused(ep, "submit_form", "conflict", "form_id", form_id=phq9["id"], answers=[0] * 9)
    gad7 = every(ep, "list_forms", visit_id=phq["id"], kind="gad7")[0]
    assert ok(ep, "get_visit", visit_id=phq["id"])["status"] == "intake_sent"
    low = ok(ep, "submit_form", form_id=gad7["id"], answers=[1, 1, 1, 1, 1, 1, 0])
    assert (low["score"], low["result"]) == (6, "negative")
    assert ok(ep, "get_visit", visit_id=phq["id"])["status"] == "intake_completed"


def test_a_free_form_form_takes_notes_not_scores(ep: Episode) -> None:
    f = every(ep, "list_forms", status="sent", kind="medical_history")[0]
    refused(ep, "submit_form", "rule_violation", "answers", form_id=f["id"], answers=[1, 2])
    assert ok(ep, "submit_form", form_id=f["id"], notes="Penicillin allergy.")["score"] is None


def test_insurance_cards_one_per_priority_and_secondary_needs_primary(ep: Episode) -> None:
    card = every(ep, "list_insurance_cards", priority="primary")[0]
    base = {"patient_id": card["patient_id"], "payer": "Unity Mutual Insurance", "member_id": "UMI-12345"}
    refused(ep, "capture_insurance_card", "conflict", "priority", priority="primary", **base)
    self_pay = every(ep, "list_patients", self_pay=True)[0]
    refused(
        ep,
        "capture_insurance_card",
        "rule_violation",
        "priority",
        patient_id=self_pay["id"],
        payer="Unity Mutual Insurance",
        member_id="UMI-12345",
        priority="secondary",
    )
    made = ok(ep, "capture_insurance_card", priority="secondary", **base)
    assert made["status"] == "captured"
    new = ok(ep, "capture_insurance_card", patient_id=self_pay["id"], payer="Bluecrest Health Plan", member_id="BHP-9")
    assert new["priority"] == "primary"
    assert ok(ep, "get_patient", patient_id=self_pay["id"])["self_pay"] is False


def test_eligibility_verifies_a_card_or_finds_coverage_lapsed(ep: Episode) -> None:
    captured = every(ep, "list_insurance_cards", status="captured")
    results = {c["id"]: ok(ep, "check_eligibility", card_id=c["id"])["status"] for c in captured}
    lapsed = [c["id"] for c in captured if c["coverage_end"] is not None]
    assert lapsed and all(results[c] == "inactive" for c in lapsed)
    assert {results[c["id"]] for c in captured if c["coverage_end"] is None} == {"verified"}
    verified = next(c for c in captured if c["coverage_end"] is None)
    refused(ep, "check_eligibility", "conflict", "card_id", card_id=verified["id"])


def test_one_signed_consent_per_kind_until_revoked(ep: Episode) -> None:
    c = every(ep, "list_consents", kind="hipaa_notice", status="signed")[0]
    args = {"patient_id": c["patient_id"], "kind": "hipaa_notice", "signed_by": c["signed_by"]}
    refused(ep, "sign_consent", "conflict", "kind", **args)
    assert ok(ep, "revoke_consent", consent_id=c["id"])["status"] == "revoked"
    assert ok(ep, "sign_consent", **args)["status"] == "signed"


def test_copays_are_collected_only_up_to_what_is_due_and_refunds_restore_balances(ep: Episode) -> None:
    v = next(v for v in every(ep, "list_visits", status="intake_completed") if v["copay_cents"])
    paid = sum(p["amount_cents"] for p in every(ep, "list_payments", visit_id=v["id"], status="captured"))
    due = v["copay_cents"] - paid
    base = {"patient_id": v["patient_id"], "visit_id": v["id"], "method": "card"}
    refused(ep, "collect_payment", "rule_violation", "amount_cents", amount_cents=due + 1, **base)
    refused(
        ep, "collect_payment", "rule_violation", "visit_id", patient_id=v["patient_id"], amount_cents=100, method="cash"
    )
    owing = next(p for p in every(ep, "list_patients") if p["balance_cents"])
    pay = ok(
        ep,
        "collect_payment",
        patient_id=owing["id"],
        amount_cents=owing["balance_cents"],
        method="hsa_card",
        kind="balance",
    )
    assert ok(ep, "get_patient", patient_id=owing["id"])["balance_cents"] == 0
    refused(ep, "refund_payment", "rule_violation", "reason", payment_id=pay["id"], reason=" ")
    ok(ep, "refund_payment", payment_id=pay["id"], reason="Insurance paid the claim.")
    assert ok(ep, "get_patient", patient_id=owing["id"])["balance_cents"] == owing["balance_cents"]
    refused(ep, "refund_payment", "conflict", "payment_id", payment_id=pay["id"], reason="Again")


def test_check_in_refuses_until_insurance_is_verified_and_copay_paid(ep: Episode) -> None:
    blocked = next(v for v in every(ep, "list_visits", status="intake_completed") if v["id"] != ready(ep)["id"])
    r = ok(ep, "visit_readiness", visit_id=blocked["id"])
    assert (r["insurance"], r["ready"]) == ("unverified", False)
    refused(ep, "check_in", "rule_violation", "visit_id", visit_id=blocked["id"])
    card = every(ep, "list_insurance_cards", patient_id=blocked["patient_id"], priority="primary")[0]
    ok(ep, "check_eligibility", card_id=card["id"])
    refused(ep, "check_in", "rule_violation", "visit_id", visit_id=blocked["id"])  # the copay is still due
    ok(
        ep,
        "collect_payment",
        patient_id=blocked["patient_id"],
        visit_id=blocked["id"],
        amount_cents=r["copay_due_cents"],
        method="apple_pay",
    )
    assert ok(ep, "check_in", visit_id=blocked["id"], method="mobile")["status"] == "checked_in"


def test_a_visit_goes_from_scheduled_to_completed_end_to_end(ep: Episode) -> None:
    v = ready(ep)
    refused(ep, "complete_visit", "rule_violation", "visit_id", visit_id=v["id"])
    done = ok(ep, "check_in", visit_id=v["id"])
    assert (done["status"], done["check_in_method"]) == ("checked_in", "kiosk")
    refused(ep, "cancel_visit", "rule_violation", "visit_id", visit_id=v["id"])
    refused(ep, "check_in", "conflict", "visit_id", visit_id=v["id"])
    assert ok(ep, "complete_visit", visit_id=v["id"])["status"] == "completed"
    refused(ep, "send_intake", "conflict", "visit_id", visit_id=visit(ep, "no_show")["id"])
    past = (WORLD.epoch - dt.timedelta(hours=1)).isoformat()
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "scheduled_at",
        patient_id=v["patient_id"],
        provider_name="Dana Reyes",
        visit_type="follow_up",
        scheduled_at=past,
    )
