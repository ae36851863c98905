"""Leakguard: policies over apps, scans raising violations, remediation by app, annotations, allow-lists."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

DLP = ServiceTools("dlp")
WORLD = DLP.world
ok, refused, every = DLP.ok, DLP.refused, DLP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
ANALYST = POP.employees[0].email


def detector(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_detectors", name=name)[0]


def test_seeded_violations_are_by_employees_and_counts_match_findings(ep: Episode) -> None:
    vios = every(ep, "list_violations")
    assert {v["status"] for v in vios} == {"active", "resolved", "ignored"}
    for v in vios:
        assert v["actor_email"] in STAFF
        assert len(every(ep, "list_findings", violation_id=v["id"])) == v["finding_count"]
    for p in every(ep, "list_policies"):
        assert p["alert_email"] in STAFF


def test_a_scan_raises_a_violation_per_matching_active_policy(ep: Episode) -> None:
    res = ok(ep, "scan_content", text="refund to 4539 1488 0343 6467 please", app="slack", location="#support")
    assert res["findings"] == 1 and len(res["violation_ids"]) == 1
    v = ok(ep, "get_violation", violation_id=res["violation_ids"][0])
    assert (v["status"], v["action_taken"], v["app"]) == ("active", "notified", "slack")
    f = every(ep, "list_findings", violation_id=v["id"])[0]
    assert f["fragment"].endswith("6467") and "4539" not in f["fragment"]
    none = ok(ep, "scan_content", text="nothing sensitive here", app="slack", location="#random")
    assert none == {"findings": 0, "allowed": 0, "violation_ids": []}


def test_allow_listed_values_are_not_reported(ep: Episode) -> None:
    res = ok(ep, "scan_content", text="test card 4111 1111 1111 1111", app="jira", location="QA-1")
    assert (res["findings"], res["allowed"], res["violation_ids"]) == (0, 1, [])
    card = detector(ep, "Credit card number")
    refused(ep, "allow_value", "conflict", "value", detector_id=card["id"], value="4111 1111 1111 1111", reason="x")
    refused(ep, "allow_value", "rule_violation", "reason", detector_id=card["id"], value="5105", reason=" ")
    ok(
        ep,
        "allow_value",
        detector_id=card["id"],
        value="5105 1051 0510 5100",
        reason="Mastercard test",
        added_by=ANALYST,
    )
    assert ok(ep, "scan_content", text="5105 1051 0510 5100", app="slack", location="#qa")["allowed"] == 1


def test_paused_policies_do_not_scan_and_quarantine_resolves_at_once(ep: Episode) -> None:
    drive = every(ep, "list_policies", action="quarantine")[0]
    assert drive["status"] == "paused"
    assert ok(ep, "scan_content", text="SSN 078-05-1120", app="google_drive", location="HR.xlsx")["findings"] == 0
    ok(ep, "activate_policy", policy_id=drive["id"])
    res = ok(ep, "scan_content", text="SSN 078-05-1120", app="google_drive", location="HR.xlsx")
    v = ok(ep, "get_violation", violation_id=res["violation_ids"][0])
    assert (v["status"], v["action_taken"]) == ("resolved", "quarantined")


def test_remediation_must_be_supported_by_the_app(ep: Episode) -> None:
    gh = every(ep, "list_violations", app="github", status="active")[0]
    refused(ep, "remediate_violation", "rule_violation", "action", violation_id=gh["id"], action="redact")
    assert ok(ep, "remediate_violation", violation_id=gh["id"], action="notify")["action_taken"] == "notified"
    slack = every(ep, "list_violations", app="slack", status="active")[0]
    done = ok(ep, "remediate_violation", violation_id=slack["id"], action="delete", by=ANALYST)
    assert (done["status"], done["action_taken"], done["resolved_by"]) == ("resolved", "deleted", ANALYST)
    refused(ep, "remediate_violation", "conflict", "violation_id", violation_id=slack["id"], action="notify")


def test_policies_refuse_actions_their_apps_cannot_take(ep: Episode) -> None:
    card = detector(ep, "Credit card number")
    base = {"name": "Cards", "detector_ids": [card["id"]], "alert_email": ANALYST}
    refused(ep, "create_policy", "rule_violation", "action", apps=["github"], action="redact", **base)
    refused(ep, "create_policy", "rule_violation", "apps", apps=[], **base)
    refused(ep, "create_policy", "rule_violation", "alert_email", apps=["slack"], **(base | {"alert_email": "x@y.io"}))
    made = ok(ep, "create_policy", apps=["slack", "confluence"], action="redact", **base)
    assert made["status"] == "active"
    ok(ep, "archive_policy", policy_id=made["id"])
    refused(ep, "update_policy", "rule_violation", "policy_id", policy_id=made["id"], name="Again")


def test_detectors_in_use_cannot_be_deleted_or_disabled(ep: Episode) -> None:
    card = detector(ep, "Credit card number")
    refused(ep, "delete_detector", "conflict", "detector_id", detector_id=card["id"])
    refused(ep, "update_detector", "rule_violation", "detector_id", detector_id=card["id"], enabled=False)
    free = detector(ep, "Email address")
    ok(ep, "delete_detector", detector_id=free["id"])
    refused(ep, "create_detector", "rule_violation", "regex", name="Broken", regex="([a-")
    refused(ep, "create_detector", "conflict", "name", name="US SSN", builtin="US_SOCIAL_SECURITY_NUMBER")
    made = ok(ep, "create_detector", name="Employee ID", regex=r"EMP-\d{5}", min_likelihood="POSSIBLE")
    assert made["enabled"] and made["builtin"] is None


def test_a_custom_detector_finds_its_pattern_once_added_to_a_policy(ep: Episode) -> None:
    made = ok(ep, "create_detector", name="Employee ID", regex=r"EMP-\d{5}", min_likelihood="POSSIBLE")
    pol = every(ep, "list_policies", status="active")[0]
    ok(ep, "update_policy", policy_id=pol["id"], detector_ids=[*pol["detector_ids"], made["id"]])
    res = ok(ep, "scan_content", text="badge for EMP-00412", app="slack", location="#it", actor_email=ANALYST)
    found = every(ep, "list_findings", violation_id=res["violation_ids"][0])
    assert [f["detector_name"] for f in found] == ["Employee ID"]


def test_false_positive_annotations_close_the_violation(ep: Episode) -> None:
    res = ok(ep, "scan_content", text="ACCT-11112222 and ACCT-33334444", app="slack", location="#sales")
    vid = res["violation_ids"][0]
    first, second = every(ep, "list_findings", violation_id=vid)
    refused(ep, "annotate_finding", "rule_violation", "annotation", finding_id=first["id"], annotation="none")
    ok(ep, "annotate_finding", finding_id=first["id"], annotation="false_positive", comment="sample data")
    assert ok(ep, "get_violation", violation_id=vid)["status"] == "active"
    ok(ep, "annotate_finding", finding_id=second["id"], annotation="false_positive")
    assert ok(ep, "get_violation", violation_id=vid)["status"] == "ignored"


def test_ignoring_marks_open_findings_false_positive_and_summary_counts(ep: Episode) -> None:
    v = every(ep, "list_violations", status="active")[0]
    refused(ep, "ignore_violation", "rule_violation", "by", violation_id=v["id"], by="someone@else.io")
    ok(ep, "ignore_violation", violation_id=v["id"], by=ANALYST)
    assert {f["annotation"] for f in every(ep, "list_findings", violation_id=v["id"])} == {"false_positive"}
    tally = {t["policy_id"]: t for t in ok(ep, "violation_summary")}
    for pid, t in tally.items():
        vios = every(ep, "list_violations", policy_id=pid)
        assert t["active"] + t["resolved"] + t["ignored"] == len(vios)
