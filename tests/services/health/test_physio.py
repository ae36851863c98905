"""Kinetic Physical Therapy: plans of care and certification, authorization limits, the 8-minute rule, discharge."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

PT = ServiceTools("physio")
WORLD = PT.world
ok, refused, every, first = PT.ok, PT.refused, PT.every, PT.first
POP = WORLD.population
TODAY = WORLD.epoch.date()


def at(days: int, hour: int = 16) -> str:
    return dt.datetime.combine(TODAY + dt.timedelta(days=days), dt.time(hour), tzinfo=dt.UTC).isoformat()


def certified(ep: Episode, payer: str) -> dict[str, Any]:
    for plan in every(ep, "list_plans", status="certified"):
        if ok(ep, "get_patient", patient_id=plan["patient_id"])["payer"] == payer:
            return plan
    raise AssertionError(payer)


def test_seeded_therapists_are_the_practices_clinicians_and_patients_consumers(ep: Episode) -> None:
    docs = {p.email for p, _ in clinicians(POP)}
    assert {t["email"] for t in every(ep, "list_therapists")} <= docs
    assert {t["discipline"] for t in every(ep, "list_therapists")} == {"pt", "pta"}
    names = {p.email: p.name for p in POP.consumers}
    for p in every(ep, "list_patients"):
        assert names[p["email"]] == p["name"]
    for a in every(ep, "list_authorizations"):
        assert ok(ep, "get_patient", patient_id=a["patient_id"])["payer"] == a["payer"] != "self_pay"


def test_only_a_pt_writes_plans_and_certification_is_capped_at_90_days(ep: Episode) -> None:
    pt = first(ep, "patients", status="active")
    pta = first(ep, "therapists", discipline="pta")
    lic = first(ep, "therapists", discipline="pt")
    args = {"patient_id": pt["id"], "diagnosis": "M54.50", "goals": "Walk 2 miles", "visits_per_week": 3}
    refused(ep, "create_plan", "rule_violation", "therapist_id", therapist_id=pta["id"], duration_weeks=4, **args)
    refused(
        ep,
        "create_plan",
        "rule_violation",
        "goals",
        therapist_id=lic["id"],
        duration_weeks=4,
        **(args | {"goals": " "}),
    )
    plan = ok(ep, "create_plan", therapist_id=lic["id"], duration_weeks=20, **args)
    done = ok(ep, "certify_plan", plan_id=plan["id"], physician="Dr. Ada Finch", cert_start=TODAY.isoformat())
    assert done["cert_end"] == (TODAY + dt.timedelta(days=89)).isoformat()
    refused(
        ep, "certify_plan", "rule_violation", "plan_id", plan_id=plan["id"], physician="X", cert_start=TODAY.isoformat()
    )
    closed = [p for p in every(ep, "list_plans", patient_id=pt["id"]) if p["id"] != plan["id"]]
    assert all(p["status"] == "closed" for p in closed)


def test_a_treatment_needs_a_certified_plan_on_the_day(ep: Episode) -> None:
    plan = certified(ep, "commercial")
    th = first(ep, "therapists", discipline="pta")
    args = {"patient_id": plan["patient_id"], "therapist_id": th["id"], "visit_type": "treatment"}
    refused(ep, "schedule_visit", "rule_violation", "patient_id", starts_at=at(200), **args)
    refused(
        ep, "schedule_visit", "rule_violation", "therapist_id", **(args | {"visit_type": "evaluation"}), starts_at=at(2)
    )
    v = ok(ep, "schedule_visit", starts_at=at(2, 8), **args)
    assert (v["plan_id"], v["status"]) == (plan["id"], "scheduled")
    refused(ep, "schedule_visit", "conflict", "starts_at", starts_at=at(2, 8), **args)


def test_the_authorization_caps_the_visits_booked_and_used(ep: Episode) -> None:
    small = next(a for a in every(ep, "list_authorizations") if a["visits_authorized"] == 6)
    th = first(ep, "therapists", discipline="pt")
    refused(
        ep,
        "schedule_visit",
        "rule_violation",
        "patient_id",
        patient_id=small["patient_id"],
        therapist_id=th["id"],
        visit_type="treatment",
        starts_at=at(5),
    )
    booked = first(ep, "visits", authorization_id=small["id"], status="scheduled")
    ok(
        ep,
        "complete_visit",
        visit_id=booked["id"],
        timed_minutes=30,
        lines=[{"cpt": "97110", "units": 2}],
        note="Good session",
    )
    assert ok(ep, "get_authorization", authorization_id=small["id"])["status"] == "exhausted"


def test_units_follow_the_eight_minute_rule(ep: Episode) -> None:
    v = first(ep, "visits", status="scheduled", visit_type="treatment")
    refused(
        ep,
        "complete_visit",
        "rule_violation",
        "lines",
        visit_id=v["id"],
        timed_minutes=22,
        lines=[{"cpt": "97110", "units": 2}],
        note="x",
    )
    refused(
        ep,
        "complete_visit",
        "rule_violation",
        "lines",
        visit_id=v["id"],
        timed_minutes=38,
        lines=[{"cpt": "97110", "units": 1}, {"cpt": "97110", "units": 1}],
        note="x",
    )
    refused(
        ep,
        "complete_visit",
        "rule_violation",
        "note",
        visit_id=v["id"],
        timed_minutes=38,
        lines=[{"cpt": "97110", "units": 2}],
        note=" ",
    )
    done = ok(
        ep, "complete_visit", visit_id=v["id"], timed_minutes=23, lines=[{"cpt": "97110", "units": 2}], note="Therex"
    )
    assert done["status"] == "completed" and sum(x["units"] for x in done["lines"]) == 2


def test_recording_an_authorization_refuses_self_pay_and_duplicates(ep: Episode) -> None:
    selfpay = first(ep, "patients", payer="self_pay", status="active")
    base = {"visits_authorized": 10, "start_date": TODAY.isoformat(), "end_date": at(40)[:10]}
    refused(
        ep, "record_authorization", "rule_violation", "patient_id", patient_id=selfpay["id"], reference="AUTH-1", **base
    )
    other = first(ep, "patients", payer="medicare")
    taken = first(ep, "authorizations")["reference"]
    refused(ep, "record_authorization", "conflict", "reference", patient_id=other["id"], reference=taken, **base)
    made = ok(ep, "record_authorization", patient_id=other["id"], reference="MC-2026-01", **base)
    assert (made["payer"], made["visits_used"]) == ("medicare", 0)


def test_recertifying_starts_a_new_period_after_the_old_one(ep: Episode) -> None:
    plan = certified(ep, "medicare")
    again = ok(ep, "recertify_plan", plan_id=plan["id"], physician="Dr. Ada Finch", weeks=4)
    start = dt.date.fromisoformat(plan["cert_end"]) + dt.timedelta(days=1)
    assert again["cert_start"] == max(start, TODAY).isoformat()
    draft = first(ep, "plans", status="draft")
    refused(ep, "recertify_plan", "rule_violation", "plan_id", plan_id=draft["id"], physician="X", weeks=2)


def test_discharge_closes_the_plan_and_cancels_booked_visits(ep: Episode) -> None:
    v = first(ep, "visits", status="scheduled")
    refused(ep, "discharge_patient", "rule_violation", "reason", patient_id=v["patient_id"], reason="")
    done = ok(ep, "discharge_patient", patient_id=v["patient_id"], reason="Goals met")
    assert done["status"] == "discharged"
    assert ok(ep, "get_visit", visit_id=v["id"])["status"] == "cancelled"
    assert {p["status"] for p in every(ep, "list_plans", patient_id=v["patient_id"])} == {"closed"}
    refused(ep, "discharge_patient", "rule_violation", "patient_id", patient_id=v["patient_id"], reason="Again")


def test_progress_compares_first_and_latest_scores(ep: Episode) -> None:
    for p in every(ep, "list_patients")[:5]:
        scores = every(ep, "list_outcomes", patient_id=p["id"])
        inst = scores[0]["instrument"]
        prog = ok(ep, "outcome_progress", patient_id=p["id"], instrument=inst)
        assert prog["improvement"] == 12.0 and prog["meaningful"] is True
    p = first(ep, "patients")
    refused(
        ep,
        "create_outcome",
        "rule_violation",
        "score",
        patient_id=p["id"],
        instrument="lefs",
        score=90,
        taken_on=TODAY.isoformat(),
    )
