"""Privra: statutory deadlines, identity verification, per-system tasks, consents and processing activities."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PRIV = ServiceTools("privacy")
WORLD = PRIV.world
ok, refused, every = PRIV.ok, PRIV.refused, PRIV.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
ME = POP.employees[0].email


def one(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_requests", **filters)[0]


def test_requests_come_from_consumers_and_systems_belong_to_staff(ep: Episode) -> None:
    consumers = {p.email for p in POP.consumers}
    assert all(r["subject_email"] in consumers for r in every(ep, "list_requests"))
    staff = {p.email for p in POP.employees}
    assert all(s["owner_email"] in staff for s in every(ep, "list_data_systems"))


def test_deadlines_follow_the_regulation(ep: Episode) -> None:
    for reg, days in (("gdpr", 30), ("ccpa", 45), ("lgpd", 15)):
        p = POP.consumers[40 + days % 7]
        r = ok(ep, "submit_request", request_type="access", regulation=reg, subject_email=p.email, subject_name=p.name)
        assert r["due_on"] == (TODAY + dt.timedelta(days=days)).isoformat() and r["status"] == "verifying"
        refused(
            ep,
            "submit_request",
            "conflict",
            "subject_email",
            request_type="access",
            regulation=reg,
            subject_email=p.email,
            subject_name=p.name,
        )
    p = POP.consumers[50]
    refused(
        ep,
        "submit_request",
        "rule_violation",
        "request_type",
        request_type="sale_opt_out",
        regulation="gdpr",
        subject_email=p.email,
        subject_name=p.name,
    )


def test_work_starts_only_after_identity_is_verified(ep: Episode) -> None:
    p = POP.consumers[45]
    r = ok(ep, "submit_request", request_type="erasure", regulation="gdpr", subject_email=p.email, subject_name=p.name)
    refused(ep, "start_processing", "rule_violation", "request_id", request_id=r["id"], assignee_email=ME)
    refused(ep, "verify_identity", "rule_violation", "method", request_id=r["id"], method="email_link")
    ok(ep, "verify_identity", request_id=r["id"], method="id_document")
    created = ok(ep, "start_processing", request_id=r["id"], assignee_email=ME)
    scope = [s["id"] for s in every(ep, "list_data_systems") if "erasure" in s["handles"]]
    assert sorted(t["system_id"] for t in created) == sorted(scope)
    assert ok(ep, "get_request", request_id=r["id"])["status"] == "in_progress"


def test_a_request_completes_only_when_every_task_is_closed(ep: Episode) -> None:
    r = one(ep, request_type="erasure", status="in_progress")
    refused(ep, "complete_request", "rule_violation", "request_id", request_id=r["id"])
    for t in every(ep, "list_request_tasks", request_id=r["id"], status="pending"):
        refused(
            ep,
            "complete_task",
            "rule_violation",
            "completed_by",
            task_id=t["id"],
            outcome="done",
            completed_by="x@y.io",
        )
        ok(ep, "complete_task", task_id=t["id"], outcome="not_found", completed_by=ME)
    done = ok(ep, "complete_request", request_id=r["id"])
    assert done["status"] == "completed"
    assert every(ep, "list_consents", subject_email=r["subject_email"], status="granted") == []


def test_a_sale_opt_out_withdraws_only_the_sale_consent(ep: Episode) -> None:
    r = one(ep, request_type="sale_opt_out", status="in_progress")
    before = every(ep, "list_consents", subject_email=r["subject_email"], status="granted")
    ok(ep, "complete_request", request_id=r["id"])
    after = every(ep, "list_consents", subject_email=r["subject_email"], status="granted")
    assert [c["purpose"] for c in after] == [c["purpose"] for c in before if c["purpose"] != "sale_of_data"]


def test_a_deadline_extends_once_with_a_reason(ep: Episode) -> None:
    r = one(ep, request_type="rectification", status="in_progress")
    refused(ep, "extend_deadline", "rule_violation", "reason", request_id=r["id"], reason=" ")
    ext = ok(ep, "extend_deadline", request_id=r["id"], reason="Several systems involved")
    assert ext["due_on"] == (dt.date.fromisoformat(r["due_on"]) + dt.timedelta(days=60)).isoformat()
    refused(ep, "extend_deadline", "rule_violation", "request_id", request_id=r["id"], reason="again")
    done = one(ep, status="completed")
    refused(ep, "extend_deadline", "conflict", "request_id", request_id=done["id"], reason="x")


def test_overdue_requests_are_the_open_ones_past_due(ep: Episode) -> None:
    late = ok(ep, "overdue_requests")
    expected = [
        r
        for r in every(ep, "list_requests")
        if r["status"] in ("new", "verifying", "in_progress") and r["due_on"] <= TODAY.isoformat()
    ]
    assert sorted(o["request_id"] for o in late) == sorted(r["id"] for r in expected) and late
    r = next(x for x in expected if x["status"] != "completed")
    ok(ep, "reject_request", request_id=r["id"], reason="Manifestly unfounded")
    assert r["id"] not in {o["request_id"] for o in ok(ep, "overdue_requests")}


def test_one_live_consent_per_person_and_purpose(ep: Episode) -> None:
    c = every(ep, "list_consents", status="granted")[0]
    refused(ep, "record_consent", "conflict", "purpose", subject_email=c["subject_email"], purpose=c["purpose"])
    ok(ep, "withdraw_consent", consent_id=c["id"])
    refused(ep, "withdraw_consent", "conflict", "consent_id", consent_id=c["id"])
    again = ok(ep, "record_consent", subject_email=c["subject_email"], purpose=c["purpose"], source="preference_center")
    assert again["status"] == "granted"


def test_processing_activities_check_basis_systems_and_retention(ep: Episode) -> None:
    sys_id = every(ep, "list_data_systems")[0]["id"]
    base = {
        "name": "Referral program",
        "purpose_description": "Reward referrals.",
        "system_ids": [sys_id],
        "owner_email": ME,
    }
    refused(
        ep,
        "create_processing_activity",
        "rule_violation",
        "consent_purpose",
        legal_basis="consent",
        retention_months=12,
        **base,
    )
    refused(
        ep,
        "create_processing_activity",
        "rule_violation",
        "consent_purpose",
        legal_basis="contract",
        consent_purpose="analytics",
        retention_months=12,
        **base,
    )
    refused(
        ep,
        "create_processing_activity",
        "rule_violation",
        "system_ids",
        legal_basis="contract",
        retention_months=12,
        **(base | {"system_ids": [sys_id, sys_id]}),
    )
    made = ok(
        ep,
        "create_processing_activity",
        legal_basis="consent",
        consent_purpose="marketing_email",
        retention_months=12,
        **base,
    )
    assert made["system_ids"] == [sys_id]
