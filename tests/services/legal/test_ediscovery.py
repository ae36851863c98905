"""Discovery Desk: holds and notices, collections, batch review and coding, productions with Bates numbers."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

EDISC = ServiceTools("ediscovery")
WORLD = EDISC.world
ok, refused, every = EDISC.ok, EDISC.refused, EDISC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
REVIEWER = POP.employees[1].email


def active_matter(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_matters", status="active")[0]


def test_seeded_custodians_are_employees_and_holds_match_their_notices(ep: Episode) -> None:
    custs = every(ep, "list_custodians")
    assert custs and all(c["email"] in STAFF for c in custs)
    for m in every(ep, "list_matters"):
        assert m["case_manager_email"] in STAFF
        assert m["opposing_party"] in {c.name for c in POP.customers}
    for hold in every(ep, "list_holds"):
        notices = every(ep, "list_notices", hold_id=hold["id"])
        if hold["status"] == "draft":
            assert notices == []
        else:
            assert sorted(n["custodian_id"] for n in notices) == sorted(hold["custodian_ids"])
        if hold["status"] == "released":
            assert {n["status"] for n in notices} == {"released"}


def test_issuing_a_hold_sends_every_custodian_a_notice(ep: Episode) -> None:
    draft = every(ep, "list_holds", status="draft")[0]
    issued = ok(ep, "issue_hold", hold_id=draft["id"])
    assert issued["status"] == "active" and issued["issued_at"] is not None
    notices = every(ep, "list_notices", hold_id=draft["id"])
    assert sorted(n["custodian_id"] for n in notices) == sorted(draft["custodian_ids"])
    assert {n["status"] for n in notices} == {"sent"}
    refused(ep, "issue_hold", "conflict", "hold_id", hold_id=draft["id"])


def test_a_hold_lists_only_the_matters_custodians_once(ep: Episode) -> None:
    m1, m2 = every(ep, "list_matters", status="active")[:2]
    mine = every(ep, "list_custodians", matter_id=m1["id"])[0]
    theirs = every(ep, "list_custodians", matter_id=m2["id"])[0]
    base = {"matter_id": m1["id"], "name": "Second notice", "notice_text": "Preserve."}
    refused(ep, "create_hold", "rule_violation", "custodian_ids", custodian_ids=[mine["id"], mine["id"]], **base)
    refused(ep, "create_hold", "rule_violation", "custodian_ids", custodian_ids=[theirs["id"]], **base)
    empty = ok(ep, "create_hold", custodian_ids=[], **base)
    refused(ep, "issue_hold", "rule_violation", "hold_id", hold_id=empty["id"])


def test_reminders_escalate_at_the_third_and_acknowledgement_ends_them(ep: Episode) -> None:
    notice = next(n for n in every(ep, "list_notices", status="sent") if n["reminders"] == 1)
    assert ok(ep, "send_reminder", notice_id=notice["id"])["status"] == "sent"
    third = ok(ep, "send_reminder", notice_id=notice["id"])
    assert (third["status"], third["reminders"]) == ("escalated", 3)
    refused(ep, "send_reminder", "rule_violation", "notice_id", notice_id=notice["id"])
    acked = ok(ep, "acknowledge_notice", notice_id=notice["id"])
    assert acked["status"] == "acknowledged" and acked["acknowledged_at"] is not None
    refused(ep, "acknowledge_notice", "rule_violation", "notice_id", notice_id=notice["id"])


def test_a_matter_closes_only_after_its_holds_are_released(ep: Episode) -> None:
    hold = every(ep, "list_holds", status="active")[0]
    refused(ep, "close_matter", "rule_violation", "matter_id", matter_id=hold["matter_id"])
    ok(ep, "release_hold", hold_id=hold["id"])
    assert {n["status"] for n in every(ep, "list_notices", hold_id=hold["id"])} == {"released"}
    assert ok(ep, "close_matter", matter_id=hold["matter_id"])["status"] == "closed"
    cust = every(ep, "list_custodians", matter_id=hold["matter_id"])[0]
    args = {"custodian_id": cust["id"], "source": "slack", "date_from": "2025-01-01", "date_to": "2025-06-30"}
    refused(ep, "create_collection", "rule_violation", "custodian_id", **args)


def test_a_collection_runs_and_brings_documents_into_the_matter(ep: Episode) -> None:
    m = active_matter(ep)
    cust = every(ep, "list_custodians", matter_id=m["id"])[-1]
    args = {"custodian_id": cust["id"], "source": "slack", "date_from": "2025-01-01", "date_to": "2025-06-30"}
    refused(ep, "create_collection", "rule_violation", "date_from", **(args | {"date_from": "2025-07-01"}))
    col = ok(ep, "create_collection", **args)
    refused(ep, "create_collection", "conflict", "source", **args)
    refused(ep, "complete_collection", "rule_violation", "collection_id", collection_id=col["id"])
    ok(ep, "start_collection", collection_id=col["id"])
    done = ok(ep, "complete_collection", collection_id=col["id"])
    docs = every(ep, "list_documents", custodian_id=cust["id"])
    assert done["status"] == "completed" and len(docs) == done["item_count"] > 0
    assert all("2025-01-01" <= d["doc_date"] <= "2025-06-30" and d["responsiveness"] is None for d in docs)


def test_only_the_reviewer_of_a_checked_out_batch_codes_and_privilege_needs_a_basis(ep: Episode) -> None:
    batch = every(ep, "list_batches", status="pending")[0]
    doc = batch["document_ids"][0]
    refused(
        ep,
        "code_document",
        "rule_violation",
        "document_id",
        document_id=doc,
        reviewer_email=REVIEWER,
        responsiveness="responsive",
    )
    ok(ep, "check_out_batch", batch_id=batch["id"], reviewer_email=REVIEWER)
    refused(ep, "check_out_batch", "conflict", "batch_id", batch_id=batch["id"], reviewer_email=REVIEWER)
    other = POP.employees[2].email
    refused(
        ep,
        "code_document",
        "rule_violation",
        "reviewer_email",
        document_id=doc,
        reviewer_email=other,
        responsiveness="responsive",
    )
    base = {"document_id": doc, "reviewer_email": REVIEWER, "responsiveness": "responsive"}
    refused(ep, "code_document", "rule_violation", "privilege_basis", privilege="work_product", **base)
    coded = ok(ep, "code_document", privilege="work_product", privilege_basis="Drafted for litigation.", **base)
    assert (coded["privilege"], coded["coded_by"]) == ("work_product", REVIEWER)


def test_a_batch_completes_only_when_every_document_is_coded(ep: Episode) -> None:
    batch = every(ep, "list_batches", status="pending")[0]
    ok(ep, "check_out_batch", batch_id=batch["id"], reviewer_email=REVIEWER)
    refused(ep, "complete_batch", "rule_violation", "batch_id", batch_id=batch["id"])
    for doc in batch["document_ids"]:
        ok(ep, "code_document", document_id=doc, reviewer_email=REVIEWER, responsiveness="not_responsive")
    assert ok(ep, "complete_batch", batch_id=batch["id"])["status"] == "completed"
    refused(
        ep, "create_batch", "rule_violation", "document_ids", matter_id=batch["matter_id"], name="x", document_ids=[]
    )


def test_a_document_is_in_one_open_batch_at_a_time(ep: Episode) -> None:
    batch = every(ep, "list_batches", status="pending")[0]
    m = batch["matter_id"]
    refused(ep, "create_batch", "conflict", "document_ids", matter_id=m, name="QC", document_ids=batch["document_ids"])
    closed = every(ep, "list_batches", status="completed")[0]
    again = ok(ep, "create_batch", matter_id=m, name="QC", document_ids=closed["document_ids"][:2])
    assert again["status"] == "pending" and again["reviewer_email"] is None


def test_productions_withhold_privileged_and_stamp_consecutive_bates_numbers(ep: Episode) -> None:
    m = active_matter(ep)
    docs = every(ep, "list_documents", matter_id=m["id"])
    priv = next(d for d in docs if d["privilege"] != "none")
    base = {"matter_id": m["id"], "name": "Volume 003", "bates_prefix": "HOME", "recipient_email": "opp@law.example"}
    refused(ep, "stage_production", "rule_violation", "document_ids", document_ids=[priv["id"]], **base)
    produced = next(d for d in docs if d["bates_number"])
    refused(ep, "stage_production", "rule_violation", "document_ids", document_ids=[produced["id"]], **base)
    staged = every(ep, "list_productions", status="staged")[0]
    done = ok(ep, "run_production", production_id=staged["id"])
    assert (done["begin_bates"], done["end_bates"]) == ("HOME0000002", "HOME0000002")
    assert ok(ep, "get_document", document_id=staged["document_ids"][0])["bates_number"] == "HOME0000002"
    refused(ep, "run_production", "conflict", "production_id", production_id=staged["id"])
    log = [d for d in every(ep, "list_documents", matter_id=m["id"]) if d["privilege"] != "none"]
    assert all(d["privilege_basis"] and d["bates_number"] is None for d in log)
