"""Cohort Trials: site activation, enrollment and caps, visit windows and deviations, SAE timelines, withdrawal."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

CTMS = ServiceTools("ctms")
WORLD = CTMS.world
ok, refused, every = CTMS.ok, CTMS.refused, CTMS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
CRA = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def study(ep: Episode, status: str) -> dict[str, Any]:
    return every(ep, "list_studies", status=status)[0]


def active_site(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_sites", study_id=study(ep, "enrolling")["id"], status="activated")[0]


def screen(ep: Episode, site: dict[str, Any], n: int) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "screen_subject",
        site_id=site["id"],
        name=f"Sam Lee{n}",
        email=f"sam{n}@example.org",
        consent_signed_on=day(0),
    )
    return made


def test_seeded_trials_use_the_practices_investigators_and_patients(ep: Episode) -> None:
    doctors = {p.name for p, _ in clinicians(POP)}
    for site in every(ep, "list_sites"):
        assert site["principal_investigator"] in doctors
    people = {p.email: p.name for p in POP.consumers}
    for subj in every(ep, "list_subjects"):
        assert people[subj["email"]] == subj["name"]
        assert (subj["arm"] is None) == (subj["enrolled_on"] is None)
    for mv in every(ep, "list_monitoring_visits"):
        assert mv["monitor_email"] in {p.email for p in POP.employees}


def test_a_site_activates_only_with_irb_approval_and_an_initiation_visit(ep: Episode) -> None:
    st = study(ep, "enrolling")
    site = ok(
        ep,
        "create_site",
        study_id=st["id"],
        name="Lakeside Hospital",
        city="Denver",
        principal_investigator="Dana Reyes",
        enrollment_cap=3,
    )
    refused(ep, "activate_site", "rule_violation", "site_id", site_id=site["id"])
    ok(ep, "update_site", site_id=site["id"], irb_approved_on=day(-1))
    refused(ep, "activate_site", "rule_violation", "site_id", site_id=site["id"])
    refused(
        ep,
        "schedule_monitoring_visit",
        "rule_violation",
        "kind",
        site_id=site["id"],
        kind="imv",
        monitor_email=CRA,
        planned_on=day(1),
    )
    refused(
        ep,
        "schedule_monitoring_visit",
        "rule_violation",
        "monitor_email",
        site_id=site["id"],
        kind="siv",
        monitor_email="someone@example.org",
        planned_on=day(1),
    )
    siv = ok(ep, "schedule_monitoring_visit", site_id=site["id"], kind="siv", monitor_email=CRA, planned_on=day(1))
    ok(ep, "complete_monitoring_visit", monitoring_visit_id=siv["id"], findings="Trained.")
    assert ok(ep, "activate_site", site_id=site["id"])["status"] == "activated"


def test_enrollment_opens_only_with_an_activated_site(ep: Episode) -> None:
    planned = study(ep, "planned")
    live = every(ep, "list_sites", study_id=planned["id"], status="activated")[0]
    ok(ep, "close_site", site_id=live["id"])
    refused(ep, "open_enrollment", "rule_violation", "study_id", study_id=planned["id"])
    ok(ep, "activate_site", site_id=every(ep, "list_sites", study_id=planned["id"], status="selected")[0]["id"])
    assert ok(ep, "open_enrollment", study_id=planned["id"])["status"] == "enrolling"
    refused(ep, "open_enrollment", "conflict", "study_id", study_id=planned["id"])


def test_screening_needs_consent_and_one_subject_per_person(ep: Episode) -> None:
    site = active_site(ep)
    refused(
        ep,
        "screen_subject",
        "rule_violation",
        "consent_signed_on",
        site_id=site["id"],
        name="Sam Lee",
        email="sam@example.org",
        consent_signed_on=day(1),
    )
    subj = screen(ep, site, 1)
    assert subj["status"] == "screening" and subj["subject_number"].endswith("-005")
    refused(
        ep,
        "screen_subject",
        "conflict",
        "email",
        site_id=site["id"],
        name="Sam Lee",
        email="sam1@example.org",
        consent_signed_on=day(0),
    )
    closed = study(ep, "suspended")
    ok(ep, "resume_study", study_id=closed["id"])
    ok(ep, "suspend_study", study_id=study(ep, "enrolling")["id"])
    refused(
        ep,
        "screen_subject",
        "conflict",
        "site_id",
        site_id=site["id"],
        name="Kim Ro",
        email="kim@example.org",
        consent_signed_on=day(0),
    )


def test_enrolling_randomizes_and_schedules_the_protocol_visits_within_the_site_cap(ep: Episode) -> None:
    site = active_site(ep)
    subj = screen(ep, site, 2)
    done = ok(ep, "enroll_subject", subject_id=subj["id"])
    assert done["status"] == "enrolled" and done["arm"] in ("treatment", "placebo") and done["enrolled_on"] == day(0)
    visits = every(ep, "list_visits", subject_id=subj["id"])
    assert sorted(v["target_on"] for v in visits) == [day(0), day(28), day(84)]
    ok(
        ep,
        "update_site",
        site_id=site["id"],
        enrollment_cap=len(every(ep, "list_subjects", site_id=site["id"], status="enrolled")) + 1,
    )
    more = screen(ep, site, 3)
    refused(ep, "enroll_subject", "rule_violation", "subject_id", subject_id=more["id"])
    refused(ep, "enroll_subject", "conflict", "subject_id", subject_id=subj["id"])
    assert ok(ep, "screen_fail_subject", subject_id=more["id"], reason="BMI over 40.")["status"] == "screen_failed"


def test_a_visit_outside_its_window_logs_a_deviation(ep: Episode) -> None:
    late = next(v for v in every(ep, "list_visits", status="scheduled") if v["target_on"] < day(-10))
    before = len(every(ep, "list_deviations"))
    refused(ep, "complete_visit", "rule_violation", "completed_on", visit_id=late["id"], completed_on=day(1))
    ok(ep, "complete_visit", visit_id=late["id"])
    devs = every(ep, "list_deviations", subject_id=late["subject_id"])
    assert len(every(ep, "list_deviations")) == before + 1 and any(late["name"] in d["description"] for d in devs)
    refused(ep, "complete_visit", "conflict", "visit_id", visit_id=late["id"])


def test_a_late_serious_adverse_event_logs_a_major_deviation(ep: Episode) -> None:
    subj = every(ep, "list_subjects", status="enrolled")[0]
    base = {"subject_id": subj["id"], "term": "Syncope"}
    refused(ep, "report_adverse_event", "rule_violation", "onset_on", grade=2, onset_on=day(1), **base)
    on_time = ok(ep, "report_adverse_event", grade=4, onset_on=day(-1), **base)
    assert on_time["serious"] is True  # grade 4 is serious whatever was said
    assert not every(ep, "list_deviations", subject_id=subj["id"], major=True)
    ok(ep, "report_adverse_event", grade=3, serious=True, onset_on=day(-6), aware_on=day(-5), **base)
    assert len(every(ep, "list_deviations", subject_id=subj["id"], major=True)) == 1
    assert ok(ep, "enrollment_summary", study_id=subj["study_id"])["open_saes"] >= 2


def test_withdrawing_cancels_remaining_visits_and_completion_needs_none_pending(ep: Episode) -> None:
    subj = next(
        s
        for s in every(ep, "list_subjects", status="enrolled")
        if every(ep, "list_visits", subject_id=s["id"], status="scheduled")
    )
    refused(ep, "complete_subject", "rule_violation", "subject_id", subject_id=subj["id"])
    refused(ep, "withdraw_subject", "rule_violation", "reason", subject_id=subj["id"], reason=" ")
    ok(ep, "withdraw_subject", subject_id=subj["id"], reason="Relocated.")
    assert not every(ep, "list_visits", subject_id=subj["id"], status="scheduled")
    assert every(ep, "list_visits", subject_id=subj["id"], status="cancelled")
    refused(ep, "withdraw_subject", "conflict", "subject_id", subject_id=subj["id"], reason="Again")


def test_enrollment_summary_counts_subjects_by_status_and_site(ep: Episode) -> None:
    st = study(ep, "enrolling")
    summary = ok(ep, "enrollment_summary", study_id=st["id"])
    subs = every(ep, "list_subjects", study_id=st["id"])
    assert summary["enrolled"] == sum(s["status"] in ("enrolled", "completed") for s in subs)
    assert summary["screening"] == sum(s["status"] == "screening" for s in subs)
    assert sum(summary["by_site"].values()) == summary["enrolled"]
    ok(ep, "close_enrollment_study", study_id=st["id"])
    assert ok(ep, "complete_study", study_id=st["id"])["status"] == "completed"
