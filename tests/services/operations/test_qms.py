"""Keystone QMS: document review and versions, training, nonconformance closure, CAPA steps, deviations, audits."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

QMS = ServiceTools("qms")
WORLD = QMS.world
ok, refused, every = QMS.ok, QMS.refused, QMS.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = [p.email for p in POP.employees]


def day(n: int) -> str:
    return (TODAY + dt.timedelta(days=n)).isoformat()


def new_doc(ep: Episode, approvers: list[str]) -> dict[str, Any]:
    made: dict[str, Any] = ok(
        ep,
        "create_document",
        doc_number="SOP-900",
        title="Line clearance",
        owner_email=STAFF[0],
        approver_emails=approvers,
        trainee_emails=STAFF[3:5],
    )
    return made


def test_seeded_records_belong_to_staff_and_products(ep: Episode) -> None:
    skus = {p.sku for p in POP.products}
    for nc in every(ep, "list_nonconformances"):
        assert nc["owner_email"] in STAFF and nc["sku"] in skus
    for d in every(ep, "list_documents"):
        assert d["owner_email"] not in d["approver_emails"]
    for d in every(ep, "list_documents", status="effective"):
        trained = {t["employee_email"] for t in every(ep, "list_training_records", document_id=d["id"])}
        assert trained == set(d["trainee_emails"])


def test_a_document_needs_every_approver_and_not_its_owner(ep: Episode) -> None:
    refused(
        ep,
        "create_document",
        "rule_violation",
        "approver_emails",
        doc_number="SOP-901",
        title="X",
        owner_email=STAFF[0],
        approver_emails=[STAFF[0]],
    )
    refused(ep, "create_document", "conflict", "doc_number", doc_number="SOP-001", title="X", owner_email=STAFF[0])
    doc = new_doc(ep, STAFF[1:3])
    ok(ep, "submit_document", document_id=doc["id"])
    refused(ep, "approve_document", "rule_violation", "approver_email", document_id=doc["id"], approver_email=STAFF[5])
    assert ok(ep, "approve_document", document_id=doc["id"], approver_email=STAFF[1])["status"] == "in_review"
    refused(ep, "approve_document", "conflict", "approver_email", document_id=doc["id"], approver_email=STAFF[1])
    assert ok(ep, "approve_document", document_id=doc["id"], approver_email=STAFF[2])["status"] == "approved"


def test_a_rejection_needs_a_comment_and_returns_the_draft(ep: Episode) -> None:
    doc = new_doc(ep, STAFF[1:2])
    ok(ep, "submit_document", document_id=doc["id"])
    refused(ep, "update_document", "rule_violation", "document_id", document_id=doc["id"], title="Renamed")
    refused(
        ep, "reject_document", "rule_violation", "comment", document_id=doc["id"], approver_email=STAFF[1], comment=" "
    )
    back = ok(ep, "reject_document", document_id=doc["id"], approver_email=STAFF[1], comment="Add step 3")
    assert back["status"] == "draft" and back["signatures"][0]["decision"] == "rejected"
    assert ok(ep, "update_document", document_id=doc["id"], title="Renamed")["title"] == "Renamed"


def test_a_new_version_supersedes_the_old_and_trains_again(ep: Episode) -> None:
    v1 = every(ep, "list_documents", status="effective")[0]
    v2 = ok(ep, "revise_document", document_id=v1["id"])
    assert (v2["version"], v2["status"], v2["doc_number"]) == (v1["version"] + 1, "draft", v1["doc_number"])
    refused(ep, "revise_document", "conflict", "document_id", document_id=v1["id"])
    ok(ep, "submit_document", document_id=v2["id"])
    for a in v2["approver_emails"]:
        ok(ep, "approve_document", document_id=v2["id"], approver_email=a)
    refused(ep, "make_effective", "rule_violation", "effective_on", document_id=v2["id"], effective_on=day(-1))
    eff = ok(ep, "make_effective", document_id=v2["id"], effective_on=day(0))
    assert eff["status"] == "effective" and eff["review_due_on"] == day(730)
    assert ok(ep, "get_document", document_id=v1["id"])["status"] == "superseded"
    records = every(ep, "list_training_records", document_id=v2["id"])
    assert {r["employee_email"] for r in records} == set(v2["trainee_emails"])
    assert all(r["status"] == "assigned" and r["due_on"] == day(30) for r in records)
    assert ok(ep, "complete_training_record", training_record_id=records[0]["id"])["status"] == "completed"


def test_a_major_nonconformance_closes_only_with_a_capa(ep: Episode) -> None:
    nc = ok(ep, "create_nonconformance", title="Cracked housing", severity="major", owner_email=STAFF[0])
    refused(
        ep,
        "disposition_nonconformance",
        "rule_violation",
        "nonconformance_id",
        nonconformance_id=nc["id"],
        disposition="scrap",
    )
    ok(ep, "investigate_nonconformance", nonconformance_id=nc["id"])
    refused(
        ep,
        "disposition_nonconformance",
        "rule_violation",
        "disposition",
        nonconformance_id=nc["id"],
        disposition="return_to_supplier",
    )
    ok(ep, "disposition_nonconformance", nonconformance_id=nc["id"], disposition="scrap")
    refused(ep, "close_nonconformance", "rule_violation", "nonconformance_id", nonconformance_id=nc["id"])
    capa = every(ep, "list_capas", status="open")[0]
    ok(ep, "link_capa", nonconformance_id=nc["id"], capa_id=capa["id"])
    refused(ep, "link_capa", "conflict", "nonconformance_id", nonconformance_id=nc["id"], capa_id=capa["id"])
    closed = ok(ep, "close_nonconformance", nonconformance_id=nc["id"])
    assert closed["status"] == "closed" and closed["closed_at"] is not None


def test_a_capa_moves_through_its_steps_and_is_verified_by_another(ep: Episode) -> None:
    capa = ok(ep, "create_capa", title="Torque drift", owner_email=STAFF[0], due_on=day(60))
    refused(
        ep,
        "add_capa_action",
        "rule_violation",
        "capa_id",
        capa_id=capa["id"],
        description="Fix",
        assignee_email=STAFF[1],
        due_on=day(5),
    )
    ok(ep, "record_root_cause", capa_id=capa["id"], root_cause="Wrench out of calibration")
    act = {"capa_id": capa["id"], "description": "Calibrate", "assignee_email": STAFF[1]}
    refused(ep, "add_capa_action", "rule_violation", "due_on", due_on=day(61), **act)
    assert ok(ep, "add_capa_action", due_on=day(10), **act)["status"] == "implementation"
    refused(ep, "verify_capa", "rule_violation", "capa_id", capa_id=capa["id"], verified_by=STAFF[2], effective=True)
    assert ok(ep, "complete_capa_action", capa_id=capa["id"], action_index=0)["status"] == "verification"
    refused(
        ep, "verify_capa", "rule_violation", "verified_by", capa_id=capa["id"], verified_by=STAFF[0], effective=True
    )
    assert ok(ep, "verify_capa", capa_id=capa["id"], verified_by=STAFF[2], effective=True)["status"] == "closed"


def test_an_ineffective_capa_goes_back_to_root_cause(ep: Episode) -> None:
    capa = every(ep, "list_capas", status="verification")[0]
    other = next(e for e in STAFF if e != capa["owner_email"])
    back = ok(ep, "verify_capa", capa_id=capa["id"], verified_by=other, effective=False)
    assert back["status"] == "root_cause" and back["verified_by"] is None


def test_a_deviation_is_short_from_an_effective_document_and_approved_by_another(ep: Episode) -> None:
    eff = every(ep, "list_documents", status="effective")[0]
    draft = every(ep, "list_documents", status="draft")[0]
    base = {"title": "Alt tool", "justification": "Calibrated spare", "requested_by": STAFF[0], "starts_on": day(0)}
    refused(ep, "request_deviation", "rule_violation", "document_id", document_id=draft["id"], ends_on=day(5), **base)
    refused(ep, "request_deviation", "rule_violation", "ends_on", document_id=eff["id"], ends_on=day(91), **base)
    dev = ok(ep, "request_deviation", document_id=eff["id"], ends_on=day(90), **base)
    refused(ep, "approve_deviation", "rule_violation", "approved_by", deviation_id=dev["id"], approved_by=STAFF[0])
    assert ok(ep, "approve_deviation", deviation_id=dev["id"], approved_by=STAFF[1])["status"] == "approved"


def test_a_major_audit_finding_raises_a_nonconformance(ep: Episode) -> None:
    audit = every(ep, "list_audits", status="planned")[0]
    refused(
        ep,
        "add_audit_finding",
        "rule_violation",
        "audit_id",
        audit_id=audit["id"],
        classification="minor",
        description="x",
    )
    ok(ep, "start_audit", audit_id=audit["id"])
    minor = ok(ep, "add_audit_finding", audit_id=audit["id"], classification="minor", description="Label faded")
    assert minor["nonconformance_id"] is None
    major = ok(
        ep, "add_audit_finding", audit_id=audit["id"], classification="major", description="No calibration records"
    )
    nc = ok(ep, "get_nonconformance", nonconformance_id=major["nonconformance_id"])
    assert (nc["source"], nc["severity"], nc["owner_email"]) == ("audit", "major", audit["lead_auditor_email"])
    refused(
        ep,
        "create_audit",
        "rule_violation",
        "supplier_name",
        title="Supplier",
        audit_type="supplier",
        lead_auditor_email=STAFF[0],
        scheduled_on=day(9),
    )
