"""LoopLink Referrals: insurance checks before sending, urgency windows, decline and redirect, closing the loop."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

REF = ServiceTools("carereferrals")
WORLD = REF.world
ok, refused, every, first = REF.ok, REF.refused, REF.every, REF.first
POP = WORLD.population
NOW = WORLD.epoch
TODAY = NOW.date()


def draft(ep: Episode, specialty: str = "cardiology", payer: str = "bcbs") -> dict[str, Any]:
    pt = ok(
        ep, "create_patient", name="Iris Vale", email=f"iris.{payer}@example.org", birth_date="1970-05-02", payer=payer
    )
    pcp = first(ep, "providers", specialty="primary_care")
    spec = first(ep, "providers", specialty=specialty, accepting=True)
    made: dict[str, Any] = ok(
        ep,
        "create_referral",
        patient_id=pt["id"],
        referring_provider_id=pcp["id"],
        receiving_provider_id=spec["id"],
        specialty=specialty,
        reason="Chest pain",
        diagnosis="R07.9",
        urgency="urgent",
    )
    return made


def test_primary_care_are_the_practices_clinicians_and_patients_consumers(ep: Episode) -> None:
    docs = {p.email for p, _ in clinicians(POP)}
    assert {p["email"] for p in every(ep, "list_providers", specialty="primary_care")} <= docs
    names = {p.email: p.name for p in POP.consumers}
    for pt in every(ep, "list_patients"):
        assert names[pt["email"]] == pt["name"]
        assert ok(ep, "find_patient", email=pt["email"])["id"] == pt["id"]
    for r in every(ep, "list_referrals"):
        to = ok(ep, "get_provider", provider_id=r["receiving_provider_id"])
        assert to["specialty"] == r["specialty"]


def test_a_referral_goes_to_a_provider_of_its_specialty_once(ep: Episode) -> None:
    r = draft(ep)
    pcp = first(ep, "providers", specialty="primary_care")
    derm = first(ep, "providers", specialty="dermatology")
    base = {"patient_id": r["patient_id"], "referring_provider_id": pcp["id"], "reason": "x", "diagnosis": "R07.9"}
    refused(
        ep,
        "create_referral",
        "rule_violation",
        "receiving_provider_id",
        receiving_provider_id=derm["id"],
        specialty="cardiology",
        **base,
    )
    refused(
        ep,
        "create_referral",
        "rule_violation",
        "receiving_provider_id",
        receiving_provider_id=pcp["id"],
        specialty="cardiology",
        **base,
    )
    refused(
        ep,
        "create_referral",
        "conflict",
        "specialty",
        receiving_provider_id=r["receiving_provider_id"],
        specialty="cardiology",
        **base,
    )


def test_sending_needs_a_verified_insurance_check(ep: Episode) -> None:
    r = draft(ep)
    refused(ep, "send_referral", "rule_violation", "referral_id", referral_id=r["id"])
    assert ok(ep, "check_insurance", referral_id=r["id"])["insurance_check"] == "ineligible"
    refused(ep, "send_referral", "rule_violation", "referral_id", referral_id=r["id"])


def test_a_payer_that_authorizes_first_needs_a_number(ep: Episode) -> None:
    ref = first(ep, "referrals", status="draft", insurance_check="auth_required")
    refused(ep, "send_referral", "rule_violation", "referral_id", referral_id=ref["id"])
    done = ok(ep, "record_authorization", referral_id=ref["id"], auth_number="AET-551023")
    assert (done["insurance_check"], done["auth_number"]) == ("verified", "AET-551023")
    refused(
        ep, "record_authorization", "rule_violation", "referral_id", referral_id=ref["id"], auth_number="AET-551024"
    )
    sent = ok(ep, "send_referral", referral_id=ref["id"])
    assert (sent["status"], sent["sent_on"]) == ("sent", TODAY.isoformat())
    assert (
        sent["see_by"]
        == (TODAY + dt.timedelta(days={"stat": 1, "urgent": 7, "routine": 30}[ref["urgency"]])).isoformat()
    )


def test_the_appointment_must_fall_inside_the_urgency_window(ep: Episode) -> None:
    ref = first(ep, "referrals", status="accepted")
    see_by = dt.date.fromisoformat(ref["see_by"])
    late = dt.datetime.combine(see_by + dt.timedelta(days=1), dt.time(15), tzinfo=dt.UTC).isoformat()
    refused(ep, "schedule_referral", "rule_violation", "appointment_at", referral_id=ref["id"], appointment_at=late)
    refused(
        ep,
        "schedule_referral",
        "rule_violation",
        "appointment_at",
        referral_id=ref["id"],
        appointment_at=(NOW - dt.timedelta(hours=1)).isoformat(),
    )
    when = (NOW + dt.timedelta(hours=20)).isoformat()
    done = ok(ep, "schedule_referral", referral_id=ref["id"], appointment_at=when)
    assert (done["status"], done["appointment_at"][:19]) == ("scheduled", when[:19])


def test_the_loop_closes_after_the_visit_with_a_consult_note(ep: Episode) -> None:
    due = next(r for r in every(ep, "list_referrals", status="scheduled") if r["appointment_at"] <= NOW.isoformat())
    refused(ep, "close_loop", "rule_violation", "consult_note", referral_id=due["id"], consult_note=" ")
    done = ok(ep, "close_loop", referral_id=due["id"], consult_note="MRI normal; no further follow-up.")
    assert done["status"] == "completed"
    future = next(r for r in every(ep, "list_referrals", status="scheduled") if r["appointment_at"] > NOW.isoformat())
    refused(ep, "close_loop", "rule_violation", "referral_id", referral_id=future["id"], consult_note="x")


def test_a_declined_referral_is_redirected_and_sent_again(ep: Episode) -> None:
    sent = first(ep, "referrals", status="sent")
    declined = ok(ep, "decline_referral", referral_id=sent["id"], reason="not_accepting")
    assert declined["decline_reason"] == "not_accepting"
    refused(ep, "accept_referral", "rule_violation", "referral_id", referral_id=sent["id"])
    other = next(
        p for p in every(ep, "list_providers", specialty=sent["specialty"]) if p["id"] != sent["receiving_provider_id"]
    )
    again = ok(ep, "redirect_referral", referral_id=sent["id"], receiving_provider_id=other["id"])
    assert (again["status"], again["decline_reason"], again["receiving_provider_id"]) == ("draft", None, other["id"])
    if not other["accepting"]:
        refused(ep, "send_referral", "rule_violation", "referral_id", referral_id=sent["id"])


def test_overdue_referrals_are_past_their_window_without_an_appointment(ep: Episode) -> None:
    overdue = ok(ep, "overdue_referrals")
    for r in overdue:
        assert r["status"] in ("sent", "accepted") and r["see_by"] < TODAY.isoformat()
    ids = {r["id"] for r in overdue}
    for r in every(ep, "list_referrals"):
        if r["status"] in ("sent", "accepted") and r["see_by"] < TODAY.isoformat():
            assert r["id"] in ids


def test_a_cancelled_referral_takes_no_further_step(ep: Episode) -> None:
    r = first(ep, "referrals", status="sent")
    assert ok(ep, "cancel_referral", referral_id=r["id"])["status"] == "cancelled"
    refused(ep, "cancel_referral", "rule_violation", "referral_id", referral_id=r["id"])
    refused(ep, "accept_referral", "rule_violation", "referral_id", referral_id=r["id"])
