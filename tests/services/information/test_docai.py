"""Parsewell Document AI: documents read from the world, processors, and human review of low confidence."""

from __future__ import annotations

from compoworld import Episode
from tests.services.helpers import ServiceTools

DOC = ServiceTools("docai")
WORLD = DOC.world
ok, refused, every = DOC.ok, DOC.refused, DOC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
INVOICE = "https://files.example.com/ap/invoice-555.pdf"


def test_an_invoice_is_from_a_world_company_and_its_amounts_add_up(ep: Episode) -> None:
    for n in range(8):
        a = ok(ep, "analyze_expense", document_url=f"https://files.example.com/ap/invoice-{n}.pdf")
        assert a["kind"] == "invoice" and a["supplier_name"] in {c.name for c in POP.customers}
        fields = {e["type"]: e for e in a["entities"]}
        sub, tax, total = (int(fields[t]["normalized_value"]) for t in ("SUBTOTAL", "TAX", "TOTAL"))
        assert sub == sum(i["amount"] for i in a["line_items"]) and sub + tax == total == a["total"]
        assert a["supplier_email"] in {p.email for p in POP.contacts}
        assert a["min_confidence"] == min(e["confidence"] for e in a["entities"])
    assert ok(ep, "analyze_expense", document_url=INVOICE) == ok(ep, "analyze_expense", document_url=INVOICE)


def test_an_id_belongs_to_a_world_person_and_wrong_kinds_are_refused(ep: Episode) -> None:
    a = ok(ep, "analyze_id", document_url="https://files.example.com/kyc/passport-1.jpg")
    fields = {e["type"]: e["normalized_value"] or e["mention_text"] for e in a["entities"]}
    [person] = [p for p in POP.people if p.name == a["person_name"]]
    assert fields["DATE_OF_BIRTH"] == person.birth_date.isoformat() and fields["LAST_NAME"] == person.last_name.upper()
    refused(ep, "analyze_id", "rule_violation", "document_url", document_url=INVOICE)
    refused(ep, "analyze_expense", "rule_violation", "document_url", document_url="https://x.example.com/passport.png")
    refused(ep, "analyze_document", "rule_violation", "document_url", document_url="https://x.example.com/a.docx")
    assert ok(ep, "classify_document", document_url=INVOICE)["suggested_processor_type"] == "invoice"


def test_seeded_processors_are_run_by_staff_and_their_counts_match(ep: Episode) -> None:
    procs = every(ep, "list_processors")
    assert {p["state"] for p in procs} == {"enabled", "disabled"} and all(p["owner_email"] in STAFF for p in procs)
    for p in procs:
        assert len(every(ep, "list_documents", processor_id=p["id"])) == p["documents_processed"]
    for t in every(ep, "list_review_tasks"):
        doc = ok(ep, "get_document", document_id=t["document_id"])
        assert doc["status"] == "in_review" and t["low_fields"]


def test_processing_stores_the_reading_and_routes_low_confidence_to_review(ep: Episode) -> None:
    proc = DOC.first(ep, "processors", type="invoice", state="enabled")
    routed = completed = 0
    for n in range(12):
        url = f"https://files.example.com/ap/invoice-{n}.pdf"
        a = ok(ep, "analyze_expense", document_url=url)
        if a["pages"] > 15:
            refused(ep, "process_document", "rule_violation", "document_url", processor_id=proc["id"], document_url=url)
            continue
        doc = ok(ep, "process_document", processor_id=proc["id"], document_url=url)
        assert doc["entities"] == a["entities"] and doc["total"] == a["total"]
        tasks = every(ep, "list_review_tasks", document_id=doc["id"])
        if a["min_confidence"] < proc["confidence_threshold"]:
            routed += 1
            assert doc["status"] == "in_review" and tasks[0]["status"] == "pending"
        else:
            completed += 1
            assert doc["status"] == "completed" and tasks == []
    assert routed and completed


def test_a_processor_reads_only_its_kinds_and_must_be_enabled(ep: Episode) -> None:
    proc = DOC.first(ep, "processors", type="invoice", state="enabled")
    refused(
        ep,
        "process_document",
        "rule_violation",
        "processor_id",
        processor_id=proc["id"],
        document_url="https://files.example.com/kyc/passport-9.png",
    )
    ok(ep, "disable_processor", processor_id=proc["id"])
    refused(ep, "process_document", "rule_violation", "processor_id", processor_id=proc["id"], document_url=INVOICE)


def test_a_processor_is_deleted_only_when_disabled_without_open_reviews(ep: Episode) -> None:
    proc = DOC.first(ep, "processors", type="invoice")
    refused(ep, "delete_processor", "rule_violation", "processor_id", processor_id=proc["id"])
    ok(ep, "disable_processor", processor_id=proc["id"])
    assert {t["status"] for t in every(ep, "list_review_tasks", processor_id=proc["id"])} & {"pending", "in_progress"}
    refused(ep, "delete_processor", "rule_violation", "processor_id", processor_id=proc["id"])
    idp = DOC.first(ep, "processors", state="disabled", type="id_proofing")
    ok(ep, "delete_processor", processor_id=idp["id"])


def test_processor_names_are_unique_and_owners_are_staff(ep: Episode) -> None:
    proc = DOC.first(ep, "processors")
    args = {"type": "ocr", "owner_email": POP.employees[0].email}
    refused(ep, "create_processor", "conflict", "display_name", display_name=proc["display_name"], **args)
    refused(
        ep,
        "create_processor",
        "rule_violation",
        "owner_email",
        display_name="New",
        type="ocr",
        owner_email=POP.contacts[0].email,
    )
    assert ok(ep, "create_processor", display_name="Mailroom OCR", **args)["state"] == "enabled"


def test_review_end_to_end_claim_correct_complete(ep: Episode) -> None:
    task = DOC.first(ep, "review_tasks", status="pending")
    refused(ep, "correct_field", "rule_violation", "task_id", task_id=task["id"], field_type="TOTAL", value="1")
    refused(
        ep,
        "claim_review_task",
        "rule_violation",
        "reviewer_email",
        task_id=task["id"],
        reviewer_email=POP.contacts[0].email,
    )
    me = POP.employees[0].email
    ok(ep, "claim_review_task", task_id=task["id"], reviewer_email=me)
    refused(ep, "complete_review_task", "rule_violation", "task_id", task_id=task["id"])
    refused(ep, "correct_field", "not_found", "field_type", task_id=task["id"], field_type="NOPE", value="x")
    for f in task["low_fields"]:
        doc = ok(ep, "correct_field", task_id=task["id"], field_type=f, value="checked")
    assert all(e["confidence"] == 1.0 for e in doc["entities"] if e["type"] in task["low_fields"])
    done = ok(ep, "complete_review_task", task_id=task["id"])
    assert (done["status"], done["corrections"]) == ("completed", len(task["low_fields"]))
    assert ok(ep, "get_document", document_id=task["document_id"])["status"] == "reviewed"
    refused(ep, "stop_review_task", "rule_violation", "review_task_id", review_task_id=task["id"])


def test_stopping_a_review_marks_the_document_and_frees_its_deletion(ep: Episode) -> None:
    task = DOC.first(ep, "review_tasks", status="pending")
    refused(ep, "delete_document", "rule_violation", "document_id", document_id=task["document_id"])
    ok(ep, "stop_review_task", review_task_id=task["id"])
    assert ok(ep, "get_document", document_id=task["document_id"])["status"] == "review_stopped"
    ok(ep, "delete_document", document_id=task["document_id"])
