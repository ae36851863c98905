"""Chartwell EHR: encounter states, observations and ranges, problems, allergy-checked orders, dose limits, chart."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EHR = ServiceTools("ehr")
WORLD = EHR.world
ok, refused, every = EHR.ok, EHR.refused, EHR.every
POP = WORLD.population


def encounter(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_encounters", status=status)[0]


def doctor(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_practitioners", active=True)[0]


def order(ep: Episode, patient_id: str, code: str, **kw: Any) -> dict[str, Any]:
    args = {"dose_quantity": 1, "frequency_per_day": 2, "duration_days": 10} | kw
    return {"patient_id": patient_id, "requester_id": doctor(ep)["id"], "medication_code": code, **args}


def allergic(ep: Episode, substance: str) -> dict[str, Any]:
    found = every(ep, "list_allergy_intolerances", substance=substance, verification_status="confirmed")
    return found[0]


def test_an_encounter_moves_one_step_at_a_time(ep: Episode) -> None:
    enc = next(e for e in every(ep, "list_encounters", status="planned") if e["planned_start"].startswith("2026-03-02"))
    refused(ep, "update_encounter_status", "rule_violation", "status", encounter_id=enc["id"], status="finished")
    ok(ep, "update_encounter_status", encounter_id=enc["id"], status="arrived")
    started = ok(ep, "update_encounter_status", encounter_id=enc["id"], status="in-progress")
    assert started["period_start"] is not None
    refused(ep, "update_encounter_status", "rule_violation", "status", encounter_id=enc["id"], status="cancelled")
    done = ok(ep, "update_encounter_status", encounter_id=enc["id"], status="finished")
    assert done["period_end"] is not None
    refused(ep, "update_encounter_status", "rule_violation", "status", encounter_id=enc["id"], status="arrived")


def test_arrival_is_on_the_planned_day_and_one_visit_runs_at_a_time(ep: Episode) -> None:
    later = next(e for e in every(ep, "list_encounters", status="planned") if e["planned_start"] > "2026-03-03")
    refused(ep, "update_encounter_status", "rule_violation", "encounter_id", encounter_id=later["id"], status="arrived")
    running = encounter(ep, "in-progress")
    again = ok(
        ep,
        "create_encounter",
        patient_id=running["patient_id"],
        practitioner_id=running["practitioner_id"],
        planned_start="2026-03-02T10:00:00Z",
    )
    ok(ep, "update_encounter_status", encounter_id=again["id"], status="arrived")
    refused(ep, "update_encounter_status", "conflict", "encounter_id", encounter_id=again["id"], status="in-progress")
    ok(ep, "update_encounter_status", encounter_id=running["id"], status="finished")
    assert ok(ep, "update_encounter_status", encounter_id=again["id"], status="in-progress")["status"] == "in-progress"


def test_observations_need_a_running_visit_the_right_unit_and_a_plausible_value(ep: Episode) -> None:
    enc = encounter(ep, "in-progress")
    high = ok(ep, "record_observation", encounter_id=enc["id"], code="8480-6", value=162)
    assert (high["interpretation"], high["unit"], high["patient_id"]) == ("H", "mm[Hg]", enc["patient_id"])
    assert ok(ep, "record_observation", encounter_id=enc["id"], code="2708-6", value=91)["interpretation"] == "L"
    assert ok(ep, "record_observation", encounter_id=enc["id"], code="29463-7", value=70)["interpretation"] is None
    refused(
        ep,
        "record_observation",
        "rule_violation",
        "unit",
        encounter_id=enc["id"],
        code="8310-5",
        value=98.6,
        unit="[degF]",
    )
    refused(ep, "record_observation", "rule_violation", "value", encounter_id=enc["id"], code="8310-5", value=98.6)
    planned = encounter(ep, "planned")
    refused(
        ep, "record_observation", "rule_violation", "encounter_id", encounter_id=planned["id"], code="8867-4", value=70
    )


def test_an_order_conflicting_with_a_recorded_allergy_is_refused(ep: Episode) -> None:
    allergy = allergic(ep, "penicillin")
    refused(
        ep,
        "create_medication_request",
        "rule_violation",
        "medication_code",
        **order(ep, allergy["patient_id"], "308182"),
    )
    made = ok(ep, "create_medication_request", **order(ep, allergy["patient_id"], "308460", frequency_per_day=1))
    assert (made["drug_class"], made["status"]) == ("macrolide", "active")
    refused(
        ep, "create_medication_request", "conflict", "medication_code", **order(ep, allergy["patient_id"], "308460")
    )


def test_an_allergy_is_not_recorded_while_that_class_is_ordered(ep: Episode) -> None:
    req = every(ep, "list_medication_requests", drug_class="statin", status="active")[0]
    args = {"patient_id": req["patient_id"], "substance": "statin", "criticality": "high"}
    refused(ep, "create_allergy_intolerance", "rule_violation", "substance", **args)
    refused(
        ep,
        "update_medication_request_status",
        "rule_violation",
        "reason",
        medication_request_id=req["id"],
        status="stopped",
    )
    ok(ep, "update_medication_request_status", medication_request_id=req["id"], status="stopped", reason="Myalgia")
    made = ok(ep, "create_allergy_intolerance", **args)
    assert made["category"] == "medication"
    refused(ep, "create_allergy_intolerance", "conflict", "substance", **args)
    refused(
        ep, "create_medication_request", "rule_violation", "medication_code", **order(ep, req["patient_id"], "617312")
    )


def test_dose_limits_and_opioid_duration(ep: Episode) -> None:
    patient = every(ep, "list_patients")[1]["id"]
    refused(
        ep,
        "create_medication_request",
        "rule_violation",
        "dose_quantity",
        **order(ep, patient, "197361", frequency_per_day=3),
    )
    refused(
        ep,
        "create_medication_request",
        "rule_violation",
        "duration_days",
        **order(ep, patient, "1049621", duration_days=14),
    )
    refused(
        ep,
        "create_medication_request",
        "rule_violation",
        "duration_days",
        **order(ep, patient, "1049621", duration_days=5, refills=1),
    )
    assert (
        ok(ep, "create_medication_request", **order(ep, patient, "1049621", duration_days=5))["drug_class"] == "opioid"
    )


def test_medication_request_state_machine(ep: Episode) -> None:
    req = every(ep, "list_medication_requests", status="active")[0]
    rid = req["id"]
    held = ok(ep, "update_medication_request_status", medication_request_id=rid, status="on-hold", reason="Surgery")
    assert held["status_reason"] == "Surgery"
    refused(
        ep,
        "update_medication_request_status",
        "rule_violation",
        "status",
        medication_request_id=rid,
        status="completed",
    )
    resumed = ok(ep, "update_medication_request_status", medication_request_id=rid, status="active")
    assert resumed["status_reason"] is None
    ok(ep, "update_medication_request_status", medication_request_id=rid, status="completed")
    refused(
        ep, "update_medication_request_status", "rule_violation", "status", medication_request_id=rid, status="active"
    )


def test_problem_list_one_active_condition_per_code_and_resolving(ep: Episode) -> None:
    cond = every(ep, "list_conditions", clinical_status="active")[0]
    args = {"patient_id": cond["patient_id"], "code": cond["code"], "recorder_id": doctor(ep)["id"]}
    refused(ep, "create_condition", "conflict", "code", onset_date="2026-01-01", **args)
    refused(
        ep, "create_condition", "rule_violation", "onset_date", onset_date="2026-04-01", **{**args, "code": "N39.0"}
    )
    resolved = ok(ep, "resolve_condition", condition_id=cond["id"])
    assert resolved["abatement_date"] == "2026-03-02"
    again = ok(ep, "create_condition", onset_date="2026-02-20", **args)
    assert again["display"] == cond["display"] and again["clinical_status"] == "active"


def test_patients_are_matched_and_the_deceased_get_no_orders(ep: Episode) -> None:
    p = every(ep, "list_patients")[0]
    refused(
        ep,
        "create_patient",
        "conflict",
        "last_name",
        first_name=p["first_name"],
        last_name=p["last_name"],
        gender="other",
        birth_date=p["birth_date"],
        email="someone.else@example.org",
        phone="+15550001111",
    )
    dead = next(x for x in every(ep, "list_patients") if x["deceased_date"])
    refused(ep, "create_medication_request", "rule_violation", "patient_id", **order(ep, dead["id"], "197361"))
    refused(
        ep,
        "create_encounter",
        "rule_violation",
        "patient_id",
        patient_id=dead["id"],
        practitioner_id=doctor(ep)["id"],
        planned_start="2026-03-03T10:00:00Z",
    )


def test_the_chart_gathers_problems_orders_allergies_and_latest_vitals(ep: Episode) -> None:
    allergy = allergic(ep, "penicillin")
    chart = ok(ep, "get_patient_chart", patient_id=allergy["patient_id"])
    assert [a["substance"] for a in chart["allergies"]] == ["penicillin"]
    assert {c["code"] for c in chart["active_conditions"]} == {"I10", "E78.5"}
    assert {m["drug_class"] for m in chart["active_medications"]} == {"ace_inhibitor", "statin"}
    assert {o["code"] for o in chart["latest_observations"]} == {"8867-4", "8480-6", "8462-4", "29463-7"}
    assert chart["next_encounter_at"] == "2026-03-02T14:00:00Z"


def test_seeded_practitioners_share_the_practices_clinicians() -> None:
    from compoworld.world.care import clinicians, provider_npi

    docs = EHR.seeded("practitioners")
    assert [(d["email"], d["npi"]) for d in docs] == [
        (p.email, provider_npi(i)) for i, (p, _) in enumerate(clinicians(POP))
    ]
    consumers = {p.email for p in POP.consumers}
    assert all(p["email"] in consumers for p in EHR.seeded("patients"))
