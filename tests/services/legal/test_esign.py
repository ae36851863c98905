"""Inkwell Sign: sending needs a signer and a document, routing order, voiding, sender-only actions, expiry."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ESIGN = ServiceTools("esign")
WORLD = ESIGN.world
ok, refused, every = ESIGN.ok, ESIGN.refused, ESIGN.every
POP = WORLD.population
EMPLOYEE = POP.employees[2]
CONTACT = POP.contacts[0]
CONSUMER = POP.consumers[0]
LINK = f"https://share.{POP.home.domain}/s/contract"


def draft(ep: Episode, *, documents: bool = True, signers: tuple[Any, ...] = (CONTACT,)) -> dict[str, Any]:
    env = ok(ep, "create_envelope", subject="Supply contract", message="Please sign", sender_email=EMPLOYEE.email)
    if documents:
        env = ok(ep, "add_document", envelope_id=env["id"], name="Contract.pdf", file_link=LINK, pages=3)
    for order, person in enumerate(signers, start=1):
        ok(ep, "create_recipient", envelope_id=env["id"], name=person.name, email=person.email, routing_order=order)
    return dict(env)


def in_process(ep: Episode) -> dict[str, Any]:
    """A seeded sent, unexpired envelope."""
    for env in every(ep, "list_envelopes", status="sent"):
        if env["expires_at"] > WORLD.epoch.isoformat():
            return env
    raise AssertionError("no envelope in process")


# -- the world ------------------------------------------------------------------------------


def test_senders_are_employees_and_signers_are_contacts_consumers_or_employees() -> None:
    ep = Episode(WORLD)
    employees = {p.email for p in POP.employees}
    assert all(e["sender_email"] in employees for e in every(ep, "list_envelopes"))
    outside = {p.email for p in POP.contacts} | {p.email for p in POP.consumers}
    emails = {r["email"] for r in every(ep, "list_recipients")}
    assert emails & {p.email for p in POP.contacts} and emails & {p.email for p in POP.consumers}
    assert emails <= outside | employees
    assert {e["status"] for e in every(ep, "list_envelopes")} == {"created", "sent", "completed", "declined", "voided"}


# -- drafting and sending -------------------------------------------------------------------


def test_only_an_employee_can_send_envelopes(ep: Episode) -> None:
    refused(ep, "create_envelope", "rule_violation", "sender_email", subject="Contract", sender_email=CONSUMER.email)


def test_an_envelope_without_a_signer_cannot_be_sent(ep: Episode) -> None:
    env = draft(ep, signers=())
    refused(ep, "send_envelope", "rule_violation", "envelope_id", envelope_id=env["id"])


def test_an_envelope_without_a_document_cannot_be_sent(ep: Episode) -> None:
    env = draft(ep, documents=False)
    refused(ep, "send_envelope", "rule_violation", "envelope_id", envelope_id=env["id"])


def test_sending_releases_the_first_routing_order_only(ep: Episode) -> None:
    env = draft(ep, signers=(CONTACT, CONSUMER))
    snap = ep.snapshot()
    sent = ok(ep, "send_envelope", envelope_id=env["id"], expire_after_days=30)
    assert sent["status"] == "sent" and sent["expires_at"] > sent["sent_at"]
    rs = {r["email"]: r["status"] for r in every(ep, "list_recipients", envelope_id=env["id"])}
    assert rs == {CONTACT.email: "sent", CONSUMER.email: "created"}
    counts = ep.diff(snap).counts()
    assert counts["esign.envelopes"]["updated"] == 1 and counts["esign.audit_events"]["added"] == 1
    refused(
        ep,
        "create_recipient",
        "rule_violation",
        "envelope_id",
        envelope_id=env["id"],
        name=EMPLOYEE.name,
        email=EMPLOYEE.email,
    )


# -- signing --------------------------------------------------------------------------------


def test_recipients_sign_in_routing_order_and_the_last_signature_completes(ep: Episode) -> None:
    env = draft(ep, signers=(CONTACT, CONSUMER))
    ok(ep, "send_envelope", envelope_id=env["id"])
    refused(ep, "sign_envelope", "rule_violation", "signer_email", envelope_id=env["id"], signer_email=CONSUMER.email)
    ok(ep, "sign_envelope", envelope_id=env["id"], signer_email=CONTACT.email)
    assert [e["envelope"]["id"] for e in ok(ep, "envelopes_awaiting", email=CONSUMER.email)] == [env["id"]]
    done = ok(ep, "sign_envelope", envelope_id=env["id"], signer_email=CONSUMER.email)
    assert done["status"] == "completed" and done["completed_at"]
    actions = [e["action"] for e in every(ep, "list_audit_events", envelope_id=env["id"])]
    assert actions == ["created", "sent", "signed", "signed", "completed"]


def test_someone_not_on_the_envelope_cannot_sign_it(ep: Episode) -> None:
    env = in_process(ep)
    refused(
        ep, "sign_envelope", "not_found", "signer_email", envelope_id=env["id"], signer_email="stranger@example.com"
    )


def test_an_expired_envelope_cannot_be_signed(ep: Episode) -> None:
    expired = next(e for e in every(ep, "list_envelopes", status="sent") if e["expires_at"] < WORLD.epoch.isoformat())
    signer = every(ep, "list_recipients", envelope_id=expired["id"], status="sent")[0]
    refused(
        ep, "sign_envelope", "rule_violation", "envelope_id", envelope_id=expired["id"], signer_email=signer["email"]
    )
    refused(
        ep,
        "send_reminder",
        "rule_violation",
        "envelope_id",
        envelope_id=expired["id"],
        acting_email=expired["sender_email"],
    )


def test_declining_needs_a_reason_and_ends_the_envelope(ep: Episode) -> None:
    env = in_process(ep)
    signer = every(ep, "list_recipients", envelope_id=env["id"], status="sent", role="signer")[0]
    args = {"envelope_id": env["id"], "signer_email": signer["email"]}
    refused(ep, "decline_envelope", "rule_violation", "reason", reason=" ", **args)
    done = ok(ep, "decline_envelope", reason="Price too high", **args)
    assert done["status"] == "declined"
    assert ok(ep, "get_recipient", recipient_id=signer["id"])["decline_reason"] == "Price too high"


# -- voiding and sender-only actions --------------------------------------------------------


def test_a_completed_envelope_cannot_be_voided(ep: Episode) -> None:
    env = every(ep, "list_envelopes", status="completed")[0]
    refused(
        ep,
        "void_envelope",
        "rule_violation",
        "envelope_id",
        envelope_id=env["id"],
        acting_email=env["sender_email"],
        reason="Oops",
    )


def test_voiding_needs_a_reason_and_only_the_sender_can_void(ep: Episode) -> None:
    env = in_process(ep)
    other = next(p.email for p in POP.employees if p.email != env["sender_email"])
    refused(
        ep, "void_envelope", "rule_violation", "acting_email", envelope_id=env["id"], acting_email=other, reason="No"
    )
    refused(
        ep,
        "void_envelope",
        "rule_violation",
        "reason",
        envelope_id=env["id"],
        acting_email=env["sender_email"],
        reason="",
    )
    done = ok(ep, "void_envelope", envelope_id=env["id"], acting_email=env["sender_email"], reason="Wrong price")
    assert done["status"] == "voided" and done["voided_reason"] == "Wrong price"
    assert ep.diff().counts()["esign.audit_events"]["added"] == 1


def test_only_the_sender_can_correct_a_recipient_who_has_not_signed(ep: Episode) -> None:
    env = in_process(ep)
    r = every(ep, "list_recipients", envelope_id=env["id"], status="sent")[0]
    other = next(p.email for p in POP.employees if p.email != env["sender_email"])
    refused(
        ep,
        "correct_recipient",
        "rule_violation",
        "acting_email",
        recipient_id=r["id"],
        acting_email=other,
        email="new@x.io",
    )
    fixed = ok(
        ep, "correct_recipient", recipient_id=r["id"], acting_email=env["sender_email"], email="new.address@x.io"
    )
    assert fixed["email"] == "new.address@x.io"
    signed, owner = next(
        (r, e)
        for r in every(ep, "list_recipients", status="signed")
        if (e := ok(ep, "get_envelope", envelope_id=r["envelope_id"]))["status"] == "sent"
    )
    refused(
        ep,
        "correct_recipient",
        "rule_violation",
        "recipient_id",
        recipient_id=signed["id"],
        acting_email=owner["sender_email"],
        name="Someone Else",
    )


def test_a_reminder_goes_to_the_signers_whose_turn_it_is(ep: Episode) -> None:
    env = in_process(ep)
    due = ok(ep, "send_reminder", envelope_id=env["id"], acting_email=env["sender_email"])
    assert due and all(r["status"] == "sent" for r in due)
    assert every(ep, "list_audit_events", envelope_id=env["id"], action="reminder_sent")


# -- templates ------------------------------------------------------------------------------


def test_an_envelope_from_a_template_needs_every_role_filled(ep: Episode) -> None:
    msa = every(ep, "list_templates", query="Master Services")[0]
    refused(
        ep,
        "create_envelope_from_template",
        "rule_violation",
        "recipients",
        template_id=msa["id"],
        sender_email=EMPLOYEE.email,
        recipients=[{"role_name": "Customer", "name": CONTACT.name, "email": CONTACT.email}],
    )
    env = ok(
        ep,
        "create_envelope_from_template",
        template_id=msa["id"],
        sender_email=EMPLOYEE.email,
        recipients=[
            {"role_name": "Customer", "name": CONTACT.name, "email": CONTACT.email},
            {"role_name": "Company", "name": EMPLOYEE.name, "email": EMPLOYEE.email},
            {"role_name": "Legal copy", "name": POP.employees[3].name, "email": POP.employees[3].email},
        ],
    )
    assert env["status"] == "created" and env["documents"] == msa["documents"]
    orders = sorted((r["routing_order"], r["role"]) for r in every(ep, "list_recipients", envelope_id=env["id"]))
    assert orders == [(1, "signer"), (2, "signer"), (3, "cc")]
    assert ok(ep, "send_envelope", envelope_id=env["id"])["status"] == "sent"


def test_a_template_needs_a_signer_role(ep: Episode) -> None:
    refused(
        ep,
        "create_template",
        "rule_violation",
        "roles",
        name="Copy only",
        owner_email=EMPLOYEE.email,
        email_subject="FYI",
        documents=[{"name": "Memo.pdf", "file_link": LINK}],
        roles=[{"role_name": "Reader", "role": "cc"}],
    )


def test_a_sent_envelope_cannot_be_deleted_but_a_draft_can(ep: Episode) -> None:
    env = in_process(ep)
    refused(ep, "delete_envelope", "rule_violation", "envelope_id", envelope_id=env["id"])
    d = draft(ep)
    ok(ep, "delete_envelope", envelope_id=d["id"])
    assert all(r["envelope_id"] != d["id"] for r in every(ep, "list_recipients"))
