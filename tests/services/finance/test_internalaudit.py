"""Assurely Audit: plan approval, phase gates, sample sizes, conclusions, sign-offs, findings and remediation."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

IA = ServiceTools("internalaudit")
WORLD = IA.world
ok, refused, every = IA.ok, IA.refused, IA.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = [p.email for p in POP.employees]
SIZES = {"annual": 1, "quarterly": 2, "monthly": 2, "weekly": 5, "daily": 25}


def audit(ep: Episode, phase: str) -> dict[str, Any]:
    return every(ep, "list_audits", phase=phase)[-1]  # this year's plan's (next year's comes first)


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def other_than(*emails: str) -> str:
    return next(e for e in STAFF if e not in emails)


def finish_test(ep: Episode, test: dict[str, Any], result: str = "pass") -> dict[str, Any]:
    for n in range(test["sample_size"] - len(every(ep, "list_samples", test_id=test["id"]))):
        ok(ep, "add_sample", test_id=test["id"], reference=f"REF-{test['id']}-{n}")
    for smp in every(ep, "list_samples", test_id=test["id"], result="pending"):
        ok(ep, "record_sample_result", sample_id=smp["id"], result=result, note="Seen")
    return dict(ok(ep, "conclude_test", test_id=test["id"]))


def test_seeding_follows_the_phases_sample_sizes_and_sign_off_rules(ep: Episode) -> None:
    phases = {a["phase"] for a in every(ep, "list_audits")}
    assert phases == {"planning", "fieldwork", "follow_up", "closed"}
    for t in every(ep, "list_control_tests"):
        assert t["sample_size"] == SIZES[t["frequency"]]
        assert t["tester_email"] in STAFF and t["control_owner_email"] in STAFF
        if t["status"] == "signed_off":
            assert t["reviewer_email"] not in (None, t["tester_email"])
            assert len(every(ep, "list_samples", test_id=t["id"])) >= t["sample_size"]
    for t in every(ep, "list_control_tests", conclusion="ineffective"):
        assert every(ep, "list_findings", test_id=t["id"])


def test_a_plan_is_unique_per_year_and_approved_only_with_audits(ep: Episode) -> None:
    year = TODAY.year
    refused(ep, "create_audit_plan", "conflict", "year", year=year, title="Again", budget_hours=10)
    empty = ok(ep, "create_audit_plan", year=year + 2, title="Later", budget_hours=10)
    refused(
        ep, "approve_audit_plan", "rule_violation", "audit_plan_id", audit_plan_id=empty["id"], approved_by=STAFF[0]
    )
    nxt = every(ep, "list_audit_plans", year=year + 1)[0]
    refused(ep, "approve_audit_plan", "rule_violation", "approved_by", audit_plan_id=nxt["id"], approved_by="x@y.io")
    assert ok(ep, "approve_audit_plan", audit_plan_id=nxt["id"], approved_by=STAFF[0])["status"] == "approved"
    refused(ep, "approve_audit_plan", "conflict", "audit_plan_id", audit_plan_id=nxt["id"], approved_by=STAFF[0])


def test_fieldwork_starts_only_on_an_approved_plan_with_tests(ep: Episode) -> None:
    nxt = every(ep, "list_audit_plans", year=TODAY.year + 1)[0]
    draft_audit = every(ep, "list_audits", plan_id=nxt["id"])[0]
    refused(ep, "advance_audit", "rule_violation", "audit_id", audit_id=draft_audit["id"])
    refused(ep, "advance_audit", "rule_violation", "audit_id", audit_id=audit(ep, "fieldwork")["id"])
    refused(ep, "advance_audit", "rule_violation", "audit_id", audit_id=audit(ep, "closed")["id"])
    planning = audit(ep, "planning")
    assert ok(ep, "advance_audit", audit_id=planning["id"])["phase"] == "fieldwork"


def test_control_tests_get_their_sample_size_once_per_audit_before_reporting(ep: Episode) -> None:
    a = audit(ep, "planning")
    base = {
        "control_description": "Daily cash reconciliation",
        "control_owner_email": STAFF[-1],
        "tester_email": STAFF[0],
    }
    made = ok(ep, "add_control_test", audit_id=a["id"], control_code="CSH-01", frequency="daily", **base)
    assert (made["sample_size"], made["status"]) == (25, "not_started")
    refused(
        ep,
        "add_control_test",
        "conflict",
        "control_code",
        audit_id=a["id"],
        control_code="CSH-01",
        frequency="weekly",
        **base,
    )
    refused(
        ep,
        "add_control_test",
        "rule_violation",
        "audit_id",
        audit_id=audit(ep, "follow_up")["id"],
        control_code="CSH-02",
        frequency="weekly",
        **base,
    )
    refused(
        ep,
        "add_control_test",
        "rule_violation",
        "tester_email",
        audit_id=a["id"],
        control_code="CSH-03",
        frequency="weekly",
        **(base | {"tester_email": "x@y.io"}),
    )
    assert ok(ep, "update_control_test", control_test_id=made["id"], frequency="quarterly")["sample_size"] == 2
    refused(ep, "add_sample", "rule_violation", "test_id", test_id=made["id"], reference="CSH-100")


def test_samples_are_tested_in_fieldwork_and_exceptions_make_the_control_ineffective(ep: Episode) -> None:
    a = audit(ep, "fieldwork")
    pending = next(
        t
        for t in every(ep, "list_control_tests", audit_id=a["id"], status="in_progress")
        if every(ep, "list_samples", test_id=t["id"], result="pending")
    )
    refused(ep, "conclude_test", "rule_violation", "test_id", test_id=pending["id"])
    smp = every(ep, "list_samples", test_id=pending["id"], result="pending")[0]
    refused(ep, "record_sample_result", "rule_violation", "note", sample_id=smp["id"], result="exception", note=" ")
    taken = every(ep, "list_samples", test_id=pending["id"])[0]
    refused(ep, "add_sample", "conflict", "reference", test_id=pending["id"], reference=taken["reference"])
    done = finish_test(ep, pending, "exception")
    assert (done["status"], done["conclusion"]) == ("concluded", "ineffective")
    refused(ep, "add_sample", "rule_violation", "test_id", test_id=pending["id"], reference="LATE-1")


def test_a_reviewer_other_than_the_tester_signs_off_and_ineffective_tests_need_a_finding(ep: Episode) -> None:
    a = audit(ep, "fieldwork")
    t = next(
        x
        for x in every(ep, "list_control_tests", audit_id=a["id"], status="in_progress")
        if every(ep, "list_samples", test_id=x["id"], result="pending")
    )
    done = finish_test(ep, t, "exception")
    reviewer = other_than(done["tester_email"])
    refused(
        ep, "sign_off_test", "rule_violation", "reviewer_email", test_id=t["id"], reviewer_email=done["tester_email"]
    )
    refused(ep, "sign_off_test", "rule_violation", "test_id", test_id=t["id"], reviewer_email=reviewer)
    ok(
        ep,
        "create_finding",
        audit_id=a["id"],
        test_id=t["id"],
        title="Late approvals",
        description="x",
        severity="moderate",
    )
    signed = ok(ep, "sign_off_test", test_id=t["id"], reviewer_email=reviewer)
    assert (signed["status"], signed["reviewer_email"], signed["signed_off_on"]) == ("signed_off", reviewer, day(0))


def test_reporting_needs_every_test_signed_and_follow_up_a_plan_for_serious_findings(ep: Episode) -> None:
    a = audit(ep, "fieldwork")
    for t in every(ep, "list_control_tests", audit_id=a["id"]):
        if t["status"] == "in_progress":
            t = finish_test(ep, t)
        if t["status"] == "concluded":
            ok(ep, "sign_off_test", test_id=t["id"], reviewer_email=other_than(t["tester_email"]))
    assert ok(ep, "advance_audit", audit_id=a["id"])["phase"] == "reporting"
    f = ok(ep, "create_finding", audit_id=a["id"], title="Stale admin accounts", description="x", severity="high")
    refused(ep, "advance_audit", "rule_violation", "audit_id", audit_id=a["id"])
    args = {"finding_id": f["id"], "owner_email": STAFF[-1], "action": "Quarterly access recertification"}
    refused(ep, "create_remediation", "rule_violation", "due_date", due_date=day(91), **args)
    refused(ep, "create_remediation", "rule_violation", "due_date", due_date=day(0), **args)
    ok(ep, "create_remediation", due_date=day(90), **args)
    assert ok(ep, "get_finding", finding_id=f["id"])["status"] == "remediating"
    moved = ok(ep, "advance_audit", audit_id=a["id"])
    assert (moved["phase"], moved["report_issued_on"]) == ("follow_up", day(0))
    refused(
        ep,
        "create_finding",
        "rule_violation",
        "audit_id",
        audit_id=a["id"],
        title="Late",
        description="x",
        severity="low",
    )


def test_validated_remediation_closes_findings_and_then_the_audit(ep: Episode) -> None:
    a = audit(ep, "follow_up")
    refused(ep, "advance_audit", "rule_violation", "audit_id", audit_id=a["id"])
    for f in every(ep, "list_findings", audit_id=a["id"]):
        if f["status"] == "open":
            ok(ep, "create_remediation", finding_id=f["id"], owner_email=STAFF[-1], action="Fix", due_date=day(100))
        for rem in every(ep, "list_remediations", finding_id=f["id"]):
            if rem["status"] == "in_progress":
                refused(
                    ep,
                    "validate_remediation",
                    "rule_violation",
                    "remediation_id",
                    remediation_id=rem["id"],
                    validated_by=STAFF[0],
                )
                ok(ep, "implement_remediation", remediation_id=rem["id"])
            refused(
                ep,
                "validate_remediation",
                "rule_violation",
                "validated_by",
                remediation_id=rem["id"],
                validated_by=rem["owner_email"],
            )
            done = ok(ep, "validate_remediation", remediation_id=rem["id"], validated_by=other_than(rem["owner_email"]))
            assert done["status"] == "validated"
        assert ok(ep, "get_finding", finding_id=f["id"])["status"] == "closed"
    assert ok(ep, "advance_audit", audit_id=a["id"])["phase"] == "closed"


def test_a_finding_cites_a_test_of_its_own_audit_and_low_findings_get_180_days(ep: Episode) -> None:
    field, closed = audit(ep, "fieldwork"), audit(ep, "closed")
    foreign = every(ep, "list_control_tests", audit_id=closed["id"])[0]
    refused(
        ep,
        "create_finding",
        "rule_violation",
        "test_id",
        audit_id=field["id"],
        test_id=foreign["id"],
        title="Wrong test",
        description="x",
        severity="low",
    )
    low = ok(ep, "create_finding", audit_id=field["id"], title="Naming", description="x", severity="low")
    rem = ok(ep, "create_remediation", finding_id=low["id"], owner_email=STAFF[-1], action="Rename", due_date=day(180))
    assert rem["due_date"] == day(180)
    refused(
        ep,
        "create_remediation",
        "rule_violation",
        "finding_id",
        finding_id=low["id"],
        owner_email=STAFF[-1],
        action="Again",
        due_date=day(10),
    )
