"""Trustmark Compliance: control readiness from tests and evidence, test disabling, evidence expiry, vendor reviews, onboarding."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

COMP = ServiceTools("compliance")
WORLD = COMP.world
ok, refused, every = COMP.ok, COMP.refused, COMP.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
OWNER = POP.employees[0].email


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def framework(ep: Episode, name: str) -> dict[str, Any]:
    return next(f for f in every(ep, "list_frameworks") if f["name"] == name)


def readiness(ep: Episode, name: str) -> dict[str, Any]:
    result: dict[str, Any] = ok(ep, "framework_readiness", framework_id=framework(ep, name)["id"])
    return result


def not_met(ep: Episode, name: str, code: str) -> dict[str, Any]:
    return next(s for s in readiness(ep, name)["not_met"] if s["code"] == code)


def test_seeded_people_are_the_staff_and_vendors_the_populations_companies(ep: Episode) -> None:
    staff = {p.email: p.name for p in POP.employees}
    people = every(ep, "list_people")
    assert {p["email"]: p["name"] for p in people} == staff
    for p in people:
        done = {t["task"] for t in p["completed"]}
        assert (p["status"] == "active") == (len(done) == 4 and p["status"] != "offboarded") or p[
            "status"
        ] == "offboarded"
    domains = {c.domain: c.name for c in POP.companies}
    for v in every(ep, "list_vendors"):
        assert domains[v["domain"]] == v["name"]
        if v["status"] == "approved" and v["risk_level"] in ("high", "critical"):
            assert v["soc2_report_url"]


def test_a_control_is_met_only_with_passing_tests_and_valid_evidence(ep: Episode) -> None:
    soc2 = readiness(ep, "SOC 2")
    assert soc2["met"] + len(soc2["not_met"]) == soc2["controls"]
    assert soc2["percent"] == round(100 * soc2["met"] / soc2["controls"], 1)
    stale = not_met(ep, "SOC 2", "CC6.2")
    assert stale["missing_evidence"] is True and stale["failing_tests"]
    failing = not_met(ep, "SOC 2", "CC2.2")
    assert failing["missing_evidence"] is False and failing["failing_tests"]


def test_disabling_a_test_needs_a_reason_and_takes_it_out_of_the_control(ep: Episode) -> None:
    state = not_met(ep, "SOC 2", "CC2.2")
    test_id = state["failing_tests"][0]
    refused(ep, "disable_test", "rule_violation", "reason", test_id=test_id, reason="  ")
    before = readiness(ep, "SOC 2")["met"]
    assert ok(ep, "disable_test", test_id=test_id, reason="Training tracked in the LMS")["status"] == "disabled"
    assert readiness(ep, "SOC 2")["met"] == before + 1
    refused(ep, "disable_test", "conflict", "test_id", test_id=test_id, reason="again")
    enabled = ok(ep, "enable_test", test_id=test_id)
    assert (enabled["status"], enabled["disabled_reason"]) == ("needs_attention", None)
    assert readiness(ep, "SOC 2")["met"] == before
    refused(ep, "enable_test", "conflict", "test_id", test_id=test_id)


def test_evidence_must_be_https_and_expire_within_a_year(ep: Episode) -> None:
    state = not_met(ep, "ISO 27001", "A.8.13")
    assert state["missing_evidence"] and not state["failing_tests"]
    base = {"control_id": state["control_id"], "title": "Backup restore test", "uploaded_by": OWNER}
    refused(
        ep, "upload_evidence", "rule_violation", "url", url="http://files.example.com/r.pdf", expires_on=day(90), **base
    )
    refused(
        ep,
        "upload_evidence",
        "rule_violation",
        "expires_on",
        url="https://files.example.com/r.pdf",
        expires_on=day(0),
        **base,
    )
    refused(
        ep,
        "upload_evidence",
        "rule_violation",
        "expires_on",
        url="https://files.example.com/r.pdf",
        expires_on=day(400),
        **base,
    )
    refused(
        ep,
        "upload_evidence",
        "rule_violation",
        "uploaded_by",
        url="https://files.example.com/r.pdf",
        expires_on=day(90),
        **(base | {"uploaded_by": "a@b.io"}),
    )
    ok(ep, "upload_evidence", url="https://files.example.com/r.pdf", expires_on=day(90), **base)
    iso = readiness(ep, "ISO 27001")
    assert iso["met"] == iso["controls"] and iso["percent"] == 100.0


def test_high_risk_vendors_need_a_soc2_report_to_be_approved(ep: Episode) -> None:
    vendor = next(v for v in every(ep, "list_vendors", status="not_reviewed") if not v["soc2_report_url"])
    args = {"vendor_id": vendor["id"], "reviewer_email": OWNER}
    refused(
        ep, "review_vendor", "rule_violation", "soc2_report_url", risk_level="critical", decision="approved", **args
    )
    refused(
        ep,
        "review_vendor",
        "rule_violation",
        "reviewer_email",
        risk_level="low",
        decision="approved",
        **(args | {"reviewer_email": "x@y.io"}),
    )
    rejected = ok(ep, "review_vendor", risk_level="critical", decision="rejected", **args)
    assert (rejected["status"], rejected["next_review_due"]) == ("rejected", day(182))
    approved = ok(
        ep,
        "review_vendor",
        risk_level="high",
        decision="approved",
        soc2_report_url="https://trust.example.com/soc2.pdf",
        **args,
    )
    assert (approved["status"], approved["last_review_date"], approved["next_review_due"]) == (
        "approved",
        day(0),
        day(182),
    )
    low = ok(ep, "review_vendor", risk_level="low", decision="approved", **args)
    assert low["next_review_due"] == day(365)


def test_vendors_are_unique_by_domain(ep: Episode) -> None:
    known = every(ep, "list_vendors")[0]
    refused(ep, "create_vendor", "conflict", "domain", name="Copycat", domain=known["domain"], category="saas")
    refused(
        ep,
        "create_vendor",
        "rule_violation",
        "owner_email",
        name="New",
        domain="newvendor.io",
        category="saas",
        owner_email="z@z.io",
    )
    made = ok(ep, "create_vendor", name="New Vendor", domain="newvendor.io", category="saas")
    assert (made["domain"], made["status"]) == ("newvendor.io", "not_reviewed")


def test_onboarding_completes_when_all_four_tasks_are_done(ep: Episode) -> None:
    person = next(p for p in every(ep, "list_people", status="onboarding") if len(p["completed"]) == 3)
    done = {t["task"] for t in person["completed"]}
    refused(ep, "complete_onboarding_task", "conflict", "task", person_id=person["id"], task=sorted(done)[0])
    last = next(
        t for t in ("accept_policies", "security_training", "background_check", "install_device_agent") if t not in done
    )
    after = ok(ep, "complete_onboarding_task", person_id=person["id"], task=last)
    assert after["status"] == "active" and after["completed"][-1] == {"task": last, "completed_on": day(0)}


def test_offboarded_people_complete_nothing(ep: Episode) -> None:
    person = every(ep, "list_people", status="onboarding")[0]
    assert ok(ep, "offboard_person", person_id=person["id"])["status"] == "offboarded"
    refused(
        ep, "complete_onboarding_task", "rule_violation", "person_id", person_id=person["id"], task="security_training"
    )
    refused(ep, "offboard_person", "rule_violation", "person_id", person_id=person["id"])


def test_control_owners_are_employees(ep: Episode) -> None:
    ctl = every(ep, "list_controls")[0]
    refused(
        ep, "update_control", "rule_violation", "owner_email", control_id=ctl["id"], owner_email="auditor@bigfour.com"
    )
    assert ok(ep, "update_control", control_id=ctl["id"], owner_email=OWNER)["owner_email"] == OWNER
