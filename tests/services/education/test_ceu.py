"""Tracked CE: reporting approved completions, compliance by subject, renewal, audits and rejected credits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world.care import clinicians
from tests.services.helpers import ServiceTools

CEU = ServiceTools("ceu")
WORLD = CEU.world
ok, refused, every = CEU.ok, CEU.refused, CEU.every
TODAY = WORLD.epoch.date()


def day(days: int) -> str:
    return (TODAY + dt.timedelta(days=days)).isoformat()


def open_cycle(ep: Episode, compliant: bool) -> dict[str, Any]:
    for c in every(ep, "list_cycles", status="open"):
        if ok(ep, "compliance_status", cycle_id=c["id"])["compliant"] is compliant:
            return c
    raise AssertionError("no such cycle")


def fresh_course(ep: Episode, subject: str = "general", hours: float = 20.0) -> dict[str, Any]:
    made = ok(ep, "create_course", title=f"New {subject} course", provider_name="NetCE", subject=subject, hours=hours)
    approved: dict[str, Any] = ok(ep, "approve_course", course_id=made["id"])
    return approved


def test_licensees_are_the_practices_clinicians_with_one_open_cycle(ep: Episode) -> None:
    names = {p.name for p, _ in clinicians(WORLD.population)}
    for lic in every(ep, "list_licensees"):
        assert lic["name"] in names
        cycles = every(ep, "list_cycles", licensee_id=lic["id"], status="open")
        assert len(cycles) == 1 and cycles[0]["ends_on"] == lic["license_expires_on"]
        assert every(ep, "list_requirements", profession=lic["profession"])


def test_only_approved_courses_count_once_per_cycle_and_not_in_the_future(ep: Episode) -> None:
    cyc = open_cycle(ep, False)
    unapproved = every(ep, "list_courses", approved=False)[0]
    base = {"licensee_id": cyc["licensee_id"], "completed_on": day(0)}
    refused(ep, "report_credit", "rule_violation", "course_id", course_id=unapproved["id"], **base)
    refused(ep, "approve_course", "conflict", "course_id", course_id=every(ep, "list_courses", approved=True)[0]["id"])
    ok(ep, "approve_course", course_id=unapproved["id"])
    made = ok(ep, "report_credit", course_id=unapproved["id"], **base)
    assert (made["cycle_id"], made["hours"]) == (cyc["id"], unapproved["hours"])
    refused(ep, "report_credit", "conflict", "course_id", course_id=unapproved["id"], **base)
    other = fresh_course(ep)
    refused(
        ep,
        "report_credit",
        "rule_violation",
        "completed_on",
        course_id=other["id"],
        licensee_id=cyc["licensee_id"],
        completed_on=day(1),
    )


def test_compliance_counts_hours_by_subject_and_extra_subject_hours_toward_general(ep: Episode) -> None:
    cyc = open_cycle(ep, False)
    before = ok(ep, "compliance_status", cycle_id=cyc["id"])
    general = next(r for r in before["by_subject"] if r["subject"] == "general")
    extra = fresh_course(ep, "ethics", 5.0)
    ok(ep, "report_credit", licensee_id=cyc["licensee_id"], course_id=extra["id"], completed_on=day(0))
    after = ok(ep, "compliance_status", cycle_id=cyc["id"])
    general_after = next(r for r in after["by_subject"] if r["subject"] == "general")
    ethics = next(r for r in after["by_subject"] if r["subject"] == "ethics")
    assert (ethics["required"], ethics["earned"]) == (2.0, 2.0)  # every short licensee's board asks 2 ethics hours
    assert general_after["earned"] == general["earned"] + 3.0  # the 3 hours beyond them count as general
    assert after["hours_short"] < before["hours_short"]


def test_a_licence_renews_only_when_compliant(ep: Episode) -> None:
    short = open_cycle(ep, False)
    refused(ep, "renew_license", "rule_violation", "licensee_id", licensee_id=short["licensee_id"])
    done = open_cycle(ep, True)
    lic = ok(ep, "renew_license", licensee_id=done["licensee_id"])
    expected = dt.date.fromisoformat(done["ends_on"])
    assert lic["license_expires_on"] > done["ends_on"]
    assert (dt.date.fromisoformat(lic["license_expires_on"]) - expected).days in range(728, 733)
    cycles = every(ep, "list_cycles", licensee_id=done["licensee_id"])
    assert [c["status"] for c in cycles].count("open") == 1
    assert ok(ep, "get_cycle", cycle_id=done["id"])["status"] == "completed"


def test_a_short_licensee_becomes_compliant_by_reporting_enough_hours(ep: Episode) -> None:
    cyc = open_cycle(ep, False)
    for row in ok(ep, "compliance_status", cycle_id=cyc["id"])["by_subject"]:
        missing = row["required"] - row["earned"]
        if missing > 0:
            course = fresh_course(ep, row["subject"], max(missing, 0.5))
            ok(ep, "report_credit", licensee_id=cyc["licensee_id"], course_id=course["id"], completed_on=day(0))
    assert ok(ep, "compliance_status", cycle_id=cyc["id"])["compliant"] is True
    assert ok(ep, "renew_license", licensee_id=cyc["licensee_id"])["id"] == cyc["licensee_id"]


def test_only_completed_cycles_are_audited_and_only_once(ep: Episode) -> None:
    refused(ep, "select_for_audit", "rule_violation", "cycle_id", cycle_id=open_cycle(ep, True)["id"])
    audited = every(ep, "list_audits")[0]
    refused(ep, "select_for_audit", "conflict", "cycle_id", cycle_id=audited["cycle_id"])
    free = next(
        c for c in every(ep, "list_cycles", status="completed") if not every(ep, "list_audits", cycle_id=c["id"])
    )
    assert ok(ep, "select_for_audit", cycle_id=free["id"])["status"] == "selected"


def test_rejecting_credits_in_an_audit_can_fail_it(ep: Episode) -> None:
    audit = every(ep, "list_audits", status="selected")[0]
    outside = every(ep, "list_credits", cycle_id=open_cycle(ep, True)["id"])[0]
    refused(ep, "reject_credit", "rule_violation", "credit_id", credit_id=outside["id"], reason="No proof")
    cred = next(c for c in every(ep, "list_credits", cycle_id=audit["cycle_id"]) if c["subject"] == "general")
    refused(ep, "reject_credit", "rule_violation", "reason", credit_id=cred["id"], reason=" ")
    ok(ep, "reject_credit", credit_id=cred["id"], reason="No certificate of completion.")
    refused(ep, "reject_credit", "conflict", "credit_id", credit_id=cred["id"], reason="Again")
    for other in every(ep, "list_credits", cycle_id=audit["cycle_id"], status="accepted"):
        ok(ep, "reject_credit", credit_id=other["id"], reason="Provider could not confirm attendance.")
    assert ok(ep, "close_audit", audit_id=audit["id"])["status"] == "failed"
    refused(ep, "close_audit", "conflict", "audit_id", audit_id=audit["id"])


def test_an_audit_of_a_compliant_cycle_passes(ep: Episode) -> None:
    audit = every(ep, "list_audits", status="selected")[0]
    assert ok(ep, "compliance_status", cycle_id=audit["cycle_id"])["compliant"] is True
    assert ok(ep, "close_audit", audit_id=audit["id"])["status"] == "passed"
