"""Speak Up Line: anonymity, report keys, triage and escalation, investigator conflicts, follow-ups, closure."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EL = ServiceTools("ethicsline")
WORLD = EL.world
ok, refused, every, first = EL.ok, EL.refused, EL.every, EL.first
POP = WORLD.population
STAFF = [p.email for p in POP.employees]


def report(ep: Episode, **over: Any) -> dict[str, Any]:
    args = {
        "category": "fraud",
        "location": "Finance",
        "description": "Invoices split to dodge approval limits.",
        "anonymous": True,
    }
    made: dict[str, Any] = ok(ep, "submit_report", **(args | over))
    return made


def test_seeded_reports_come_from_staff_and_anonymous_ones_keep_no_identity(ep: Episode) -> None:
    for r in every(ep, "list_reports"):
        assert (r["reporter_email"] is None) == r["anonymous"]
        assert r["reporter_email"] is None or r["reporter_email"] in STAFF
        assert r["investigator_email"] is None or r["investigator_email"] in STAFF
    assert {r["status"] for r in every(ep, "list_reports")} == {"new", "triaged", "assigned", "investigating", "closed"}


def test_anonymity_rules_and_a_unique_report_key(ep: Episode) -> None:
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "reporter_email",
        category="fraud",
        location="X",
        description="y",
        anonymous=True,
        reporter_email=STAFF[0],
    )
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "reporter_email",
        category="fraud",
        location="X",
        description="y",
        anonymous=False,
    )
    refused(
        ep,
        "submit_report",
        "rule_violation",
        "description",
        category="fraud",
        location="X",
        description="  ",
        anonymous=True,
    )
    a, b = report(ep), report(ep, anonymous=False, reporter_email=STAFF[1])
    assert a["status"] == "new" and len(a["report_key"]) == 10 and a["report_key"] != b["report_key"]
    view = ok(ep, "check_status", report_key=a["report_key"])
    assert (view["status"], view["open_questions"], view["closed"]) == ("new", [], False)
    refused(ep, "check_status", "rule_violation", "report_key", report_key="0000000001")


def test_triage_sets_severity_and_critical_escalates(ep: Episode) -> None:
    r = report(ep)
    t = ok(ep, "triage_report", report_id=r["id"], severity="critical", category="theft")
    assert (t["status"], t["escalated"], t["category"]) == ("triaged", True, "theft")
    refused(ep, "triage_report", "conflict", "report_id", report_id=r["id"], severity="low")
    refused(ep, "escalate_report", "conflict", "report_id", report_id=r["id"])
    other = first(ep, "reports", status="triaged", escalated=False)
    assert ok(ep, "escalate_report", report_id=other["id"])["severity"] == "critical"


def test_the_reporter_and_the_subject_cannot_investigate(ep: Episode) -> None:
    subject = POP.employees[3]
    r = report(ep, anonymous=False, reporter_email=STAFF[0], subject_name=subject.name)
    refused(ep, "assign_investigator", "rule_violation", "report_id", report_id=r["id"], investigator_email=STAFF[2])
    ok(ep, "triage_report", report_id=r["id"], severity="high")
    refused(
        ep,
        "assign_investigator",
        "rule_violation",
        "investigator_email",
        report_id=r["id"],
        investigator_email=STAFF[0],
    )
    refused(
        ep,
        "assign_investigator",
        "rule_violation",
        "investigator_email",
        report_id=r["id"],
        investigator_email=subject.email,
    )
    refused(
        ep,
        "assign_investigator",
        "rule_violation",
        "investigator_email",
        report_id=r["id"],
        investigator_email="outside@example.org",
    )
    done = ok(ep, "assign_investigator", report_id=r["id"], investigator_email=STAFF[2])
    assert (done["status"], done["investigator_email"]) == ("assigned", STAFF[2])
    refused(ep, "update_report", "rule_violation", "investigator_email", report_id=r["id"], investigator_email=STAFF[0])


def test_questions_reach_the_reporter_through_the_key(ep: Episode) -> None:
    r = next(
        x
        for x in every(ep, "list_reports", status="investigating")
        if not every(ep, "list_follow_ups", report_id=x["id"], direction="to_reporter", answered=False)
    )
    q = ok(ep, "ask_reporter", report_id=r["id"], question="Which invoices?")
    refused(ep, "ask_reporter", "conflict", "report_id", report_id=r["id"], question="And when?")
    assert ok(ep, "check_status", report_key=r["report_key"])["open_questions"] == ["Which invoices?"]
    ok(ep, "reporter_reply", report_key=r["report_key"], answer="The March ones.")
    assert ok(ep, "get_follow_up", follow_up_id=q["id"])["answered"]
    refused(ep, "reporter_reply", "rule_violation", "report_key", report_key=r["report_key"], answer="More")


def test_only_the_investigator_logs_actions_during_the_investigation(ep: Episode) -> None:
    r = first(ep, "reports", status="assigned")
    args = {"report_id": r["id"], "kind": "interview", "summary": "Talked to the loader crew."}
    refused(ep, "log_action", "rule_violation", "report_id", author_email=r["investigator_email"], **args)
    ok(ep, "start_investigation_report", report_id=r["id"])
    other = next(e for e in STAFF if e != r["investigator_email"])
    refused(ep, "log_action", "rule_violation", "author_email", author_email=other, **args)
    assert ok(ep, "log_action", author_email=r["investigator_email"], **args)["kind"] == "interview"


def test_closing_needs_an_action_and_a_resolution_when_substantiated(ep: Episode) -> None:
    r = first(ep, "reports", status="assigned")
    ok(ep, "start_investigation_report", report_id=r["id"])
    refused(ep, "close_report", "rule_violation", "report_id", report_id=r["id"], finding="unsubstantiated")
    ok(
        ep,
        "log_action",
        report_id=r["id"],
        kind="site_visit",
        summary="Alarms found disabled.",
        author_email=r["investigator_email"],
    )
    refused(ep, "close_report", "rule_violation", "resolution", report_id=r["id"], finding="substantiated")
    closed = ok(
        ep, "close_report", report_id=r["id"], finding="substantiated", resolution="Alarms fixed; lead retrained."
    )
    assert (closed["status"], closed["finding"]) == ("closed", "substantiated")
    assert ok(ep, "check_status", report_key=r["report_key"])["closed"]
    refused(ep, "ask_reporter", "rule_violation", "report_id", report_id=r["id"], question="Anything else?")
    stats = ok(ep, "hotline_stats")
    assert stats["by_status"]["closed"] == 2 and stats["substantiated_share"] == 0.5


def test_reopen_and_caseload(ep: Episode) -> None:
    closed = first(ep, "reports", status="closed")
    refused(ep, "reopen_report", "rule_violation", "reason", report_id=closed["id"], reason=" ")
    again = ok(ep, "reopen_report", report_id=closed["id"], reason="A second witness came forward.")
    assert (again["status"], again["finding"]) == ("investigating", None)
    load = ok(ep, "caseload", investigator_email=closed["investigator_email"])
    assert closed["id"] in [r["id"] for r in load]
    assert all(r["status"] in ("assigned", "investigating") for r in load)
