"""Pitchbook Proposals: drafting, approvals before sending, signing order, declines, reminders and expiry."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

PROP = ServiceTools("proposals")
WORLD = PROP.world
ok, refused, every = PROP.ok, PROP.refused, PROP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}
REP = POP.staff("Sales", fallback=3)[0].email
MANAGER = next(p.email for p in POP.employees if p.email != REP)


def new_draft(ep: Episode, contacts: int = 2) -> dict[str, Any]:
    tpl = every(ep, "list_templates")[0]
    doc = ok(ep, "create_document", template_id=tpl["id"], name="Platform", owner_email=REP, company_name="Acme Ltd")
    for k, c in enumerate(every(ep, "list_contacts")[:contacts]):
        ok(ep, "add_recipient", document_id=doc["id"], contact_id=c["id"], role=tpl["roles"][0], signing_order=k + 1)
    return dict(ok(ep, "get_document", document_id=doc["id"]))


def test_seeded_documents_belong_to_reps_and_customers_and_totals_add_up(ep: Episode) -> None:
    docs = every(ep, "list_documents")
    customers = {c.name for c in POP.customers}
    contacts = {c["email"] for c in every(ep, "list_contacts")}
    assert {d["status"] for d in docs} >= {"draft", "sent", "viewed", "completed", "waiting_approval", "expired"}
    for d in docs:
        assert d["owner_email"] in STAFF and d["company_name"] in customers
        assert d["grand_total"] == sum(i["subtotal"] for i in d["items"])
        assert {r["email"] for r in d["recipients"]} <= contacts
    for a in every(ep, "list_approvals", status="pending"):
        assert ok(ep, "get_document", document_id=a["document_id"])["status"] == "waiting_approval"


def test_a_document_is_sent_only_with_pricing_and_a_signer(ep: Episode) -> None:
    tpl = every(ep, "list_templates")[0]
    doc = ok(ep, "create_document", template_id=tpl["id"], name="Empty", owner_email=REP, company_name="Acme Ltd")
    refused(ep, "send_document", "rule_violation", "document_id", document_id=doc["id"])
    ok(ep, "add_pricing_item", document_id=doc["id"], name="Seats", qty=10, price=12000)
    refused(ep, "send_document", "rule_violation", "document_id", document_id=doc["id"])
    c = every(ep, "list_contacts")[0]
    refused(ep, "add_recipient", "rule_violation", "role", document_id=doc["id"], contact_id=c["id"], role="Nobody")
    ok(ep, "add_recipient", document_id=doc["id"], contact_id=c["id"], role=tpl["roles"][0])
    refused(ep, "add_recipient", "conflict", "contact_id", document_id=doc["id"], contact_id=c["id"], role="Client")
    sent = ok(ep, "send_document", document_id=doc["id"])
    assert sent["status"] == "sent" and sent["expiration_date"] is not None
    refused(ep, "add_pricing_item", "rule_violation", "document_id", document_id=doc["id"], name="X", qty=1, price=1)


def test_a_deep_discount_needs_approval_by_someone_else(ep: Episode) -> None:
    doc = new_draft(ep)
    ok(ep, "add_pricing_item", document_id=doc["id"], name="Seats", qty=10, price=12000, discount=20)
    refused(ep, "send_document", "rule_violation", "document_id", document_id=doc["id"])
    refused(ep, "request_approval", "rule_violation", "approver_email", document_id=doc["id"], approver_email=REP)
    refused(ep, "request_approval", "rule_violation", "approver_email", document_id=doc["id"], approver_email="x@y.io")
    appr = ok(ep, "request_approval", document_id=doc["id"], approver_email=MANAGER)
    assert ok(ep, "get_document", document_id=doc["id"])["status"] == "waiting_approval"
    refused(ep, "approve_document", "rule_violation", "approver_email", approval_id=appr["id"], approver_email=REP)
    assert ok(ep, "approve_document", approval_id=appr["id"], approver_email=MANAGER)["status"] == "approved"
    refused(ep, "approve_document", "conflict", "approval_id", approval_id=appr["id"], approver_email=MANAGER)
    assert ok(ep, "send_document", document_id=doc["id"])["status"] == "sent"


def test_a_large_total_needs_approval_and_editing_an_approved_document_resets_it(ep: Episode) -> None:
    doc = new_draft(ep)
    ok(ep, "add_pricing_item", document_id=doc["id"], name="Enterprise", qty=1, price=5_000_000)
    refused(ep, "send_document", "rule_violation", "document_id", document_id=doc["id"])
    appr = ok(ep, "request_approval", document_id=doc["id"], approver_email=MANAGER)
    ok(ep, "approve_document", approval_id=appr["id"], approver_email=MANAGER)
    edited = ok(ep, "add_pricing_item", document_id=doc["id"], name="Training", qty=1, price=100000)
    assert edited["status"] == "draft" and edited["grand_total"] == 5_100_000
    assert ok(ep, "get_approval", approval_id=appr["id"])["status"] == "cancelled"
    refused(ep, "send_document", "rule_violation", "document_id", document_id=doc["id"])


def test_a_rejection_needs_a_comment_and_returns_the_document_for_edits(ep: Episode) -> None:
    appr = every(ep, "list_approvals", status="pending")[0]
    who = appr["approver_email"]
    refused(ep, "reject_document", "rule_violation", "comment", approval_id=appr["id"], approver_email=who)
    ok(ep, "reject_document", approval_id=appr["id"], approver_email=who, comment="Too deep")
    doc = ok(ep, "get_document", document_id=appr["document_id"])
    assert doc["status"] == "rejected"
    assert ok(ep, "update_document", document_id=doc["id"], name="Revised offer")["status"] == "draft"


def test_signers_sign_in_order_and_the_last_signature_completes(ep: Episode) -> None:
    doc = new_draft(ep)
    ok(ep, "add_pricing_item", document_id=doc["id"], name="Seats", qty=2, price=10000)
    ok(ep, "send_document", document_id=doc["id"])
    first, second = (r["email"] for r in doc["recipients"])
    refused(ep, "sign_document", "rule_violation", "recipient_email", document_id=doc["id"], recipient_email=second)
    assert ok(ep, "record_view", document_id=doc["id"], recipient_email=first)["status"] == "viewed"
    assert ok(ep, "sign_document", document_id=doc["id"], recipient_email=first)["status"] == "viewed"
    refused(ep, "sign_document", "conflict", "recipient_email", document_id=doc["id"], recipient_email=first)
    done = ok(ep, "sign_document", document_id=doc["id"], recipient_email=second)
    assert done["status"] == "completed" and done["completed_at"] is not None
    refused(ep, "void_document", "rule_violation", "document_id", document_id=doc["id"])


def test_a_declined_document_can_no_longer_be_signed(ep: Episode) -> None:
    doc = every(ep, "list_documents", status="sent")[0]
    who = doc["recipients"][0]["email"]
    assert ok(ep, "decline_document", document_id=doc["id"], recipient_email=who)["status"] == "declined"
    refused(ep, "sign_document", "rule_violation", "document_id", document_id=doc["id"], recipient_email=who)
    refused(ep, "delete_document", "rule_violation", "document_id", document_id=doc["id"])


def test_reminders_go_to_pending_signers_once_a_day_and_three_at_most(ep: Episode) -> None:
    doc = new_draft(ep, contacts=1)
    ok(ep, "add_pricing_item", document_id=doc["id"], name="Seats", qty=2, price=10000)
    ok(ep, "send_document", document_id=doc["id"])
    who = doc["recipients"][0]["email"]
    refused(ep, "send_reminder", "rule_violation", "recipient_email", document_id=doc["id"], recipient_email=REP)
    ok(ep, "send_reminder", document_id=doc["id"], recipient_email=who)
    refused(ep, "send_reminder", "conflict", "recipient_email", document_id=doc["id"], recipient_email=who)
    assert len(every(ep, "list_reminders", document_id=doc["id"])) == 1
    ok(ep, "sign_document", document_id=doc["id"], recipient_email=who)
    refused(ep, "send_reminder", "rule_violation", "document_id", document_id=doc["id"], recipient_email=who)


def test_expiry_sweeps_overdue_documents_and_blocks_signing(ep: Episode) -> None:
    moved = ok(ep, "expire_documents")
    assert moved and {d["status"] for d in moved} == {"expired"}
    assert ok(ep, "expire_documents") == []
    doc = every(ep, "list_documents", status="expired")[0]
    who = doc["recipients"][0]["email"]
    refused(ep, "sign_document", "rule_violation", "document_id", document_id=doc["id"], recipient_email=who)


def test_templates_in_use_cannot_be_deleted_and_contacts_are_unique(ep: Episode) -> None:
    used = every(ep, "list_documents", status="sent")[0]["template_id"]
    refused(ep, "delete_template", "conflict", "template_id", template_id=used)
    refused(ep, "create_template", "rule_violation", "owner_email", name="X", roles=["Client"], owner_email="a@b.io")
    refused(ep, "create_template", "rule_violation", "roles", name="X", roles=["Client", "Client"], owner_email=REP)
    c = every(ep, "list_contacts")[0]
    refused(ep, "create_contact", "conflict", "email", email=c["email"], first_name="A", last_name="B")
