"""Sealpoint Credentials: holds, transcript orders and their delivery, credentials and verification."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TR = ServiceTools("transcripts")
WORLD = TR.world
ok, refused, every = TR.ok, TR.refused, TR.every
STAFF = {p.email for p in WORLD.population.employees}
CLERK = WORLD.population.employees[0].email


def free_learner(ep: Episode) -> dict[str, Any]:
    for learner in every(ep, "list_learners", status="graduated"):
        if not every(ep, "list_holds", learner_id=learner["id"], status="active"):
            return learner
    raise AssertionError("no learner without holds")


def order(ep: Episode, learner_id: str, **over: Any) -> dict[str, Any]:
    args = {
        "learner_id": learner_id,
        "recipient_type": "employer",
        "recipient_name": "Northwind Analytics",
        "recipient_email": "hr@northwind.example",
        "consent": True,
    } | over
    return dict(ok(ep, "order_transcript", **args))


def test_seeded_learners_are_world_people_and_holds_are_placed_by_staff(ep: Episode) -> None:
    emails = {p.email for p in WORLD.population.people}
    assert all(x["email"] in emails for x in every(ep, "list_learners"))
    assert all(h["placed_by"] in STAFF for h in every(ep, "list_holds"))
    for o in every(ep, "list_orders", status="on_hold"):
        assert every(ep, "list_holds", learner_id=o["learner_id"], status="active")


def test_orders_need_consent_and_the_right_address_for_delivery(ep: Episode) -> None:
    learner = free_learner(ep)
    base = {"learner_id": learner["id"], "recipient_type": "institution", "recipient_name": "State University"}
    refused(ep, "order_transcript", "rule_violation", "consent", consent=False, recipient_email="a@u.edu", **base)
    refused(ep, "order_transcript", "rule_violation", "recipient_email", consent=True, **base)
    refused(ep, "order_transcript", "rule_violation", "mailing_address", consent=True, delivery="mail", **base)
    paper = ok(
        ep,
        "order_transcript",
        consent=True,
        delivery="mail",
        mailing_address="1 College Rd, Springfield",
        copies=2,
        **base,
    )
    assert (paper["fee"], paper["status"]) == (3000, "processing")


def test_a_hold_keeps_new_orders_waiting_until_the_last_hold_is_released(ep: Episode) -> None:
    learner = free_learner(ep)
    h1 = ok(ep, "place_hold", learner_id=learner["id"], type="library", reason="Overdue books", placed_by=CLERK)
    h2 = ok(
        ep, "place_hold", learner_id=learner["id"], type="financial", reason="Tuition", placed_by=CLERK, amount=50000
    )
    waiting = order(ep, learner["id"])
    assert waiting["status"] == "on_hold"
    refused(ep, "send_order", "rule_violation", "order_id", order_id=waiting["id"])
    ok(ep, "release_hold", hold_id=h1["id"])
    assert ok(ep, "get_order", order_id=waiting["id"])["status"] == "on_hold"
    ok(ep, "release_hold", hold_id=h2["id"])
    assert ok(ep, "get_order", order_id=waiting["id"])["status"] == "processing"
    refused(ep, "release_hold", "conflict", "hold_id", hold_id=h2["id"])
    refused(ep, "update_hold", "rule_violation", "hold_id", hold_id=h2["id"], reason="Changed")


def test_hold_rules_on_staff_reason_amount_and_duplicates(ep: Episode) -> None:
    learner = free_learner(ep)
    base = {"learner_id": learner["id"]}
    refused(ep, "place_hold", "rule_violation", "placed_by", type="library", reason="x", placed_by="a@b.io", **base)
    refused(ep, "place_hold", "rule_violation", "reason", type="library", reason=" ", placed_by=CLERK, **base)
    refused(ep, "place_hold", "rule_violation", "amount", type="financial", reason="Fees", placed_by=CLERK, **base)
    ok(ep, "place_hold", type="registrar", reason="Missing form", placed_by=CLERK, **base)
    refused(ep, "place_hold", "conflict", "type", type="registrar", reason="Again", placed_by=CLERK, **base)


def test_an_order_is_sent_then_delivered_and_cancelled_only_before_sending(ep: Episode) -> None:
    learner = free_learner(ep)
    o = order(ep, learner["id"])
    sent = ok(ep, "send_order", order_id=o["id"])
    assert sent["status"] == "sent" and sent["sent_at"] is not None
    refused(ep, "cancel_order", "rule_violation", "order_id", order_id=o["id"])
    assert ok(ep, "confirm_delivery", order_id=o["id"])["status"] == "delivered"
    refused(ep, "confirm_delivery", "rule_violation", "order_id", order_id=o["id"])
    other = order(ep, learner["id"])
    assert ok(ep, "cancel_order", order_id=other["id"])["status"] == "cancelled"


def test_diplomas_go_to_graduates_once(ep: Episode) -> None:
    enrolled = every(ep, "list_learners", status="enrolled")[0]
    refused(
        ep, "issue_credential", "rule_violation", "learner_id", learner_id=enrolled["id"], type="diploma", title="BA"
    )
    grad = free_learner(ep)
    refused(ep, "issue_credential", "conflict", "type", learner_id=grad["id"], type="diploma", title="BA")
    badge = ok(ep, "issue_credential", learner_id=enrolled["id"], type="badge", title="Hackathon winner")
    assert badge["status"] == "issued" and len(badge["code"]) == 9


def test_verification_reports_valid_revoked_or_unknown_codes(ep: Episode) -> None:
    cred = every(ep, "list_credentials", status="issued")[0]
    args = {"requester_org": "Northwind Analytics", "requester_email": "hr@northwind.example"}
    assert ok(ep, "verify_credential", code=cred["code"].lower(), **args)["result"] == "valid"
    refused(ep, "revoke_credential", "rule_violation", "reason", credential_id=cred["id"], reason="")
    ok(ep, "revoke_credential", credential_id=cred["id"], reason="Academic misconduct")
    refused(ep, "revoke_credential", "conflict", "credential_id", credential_id=cred["id"], reason="again")
    assert ok(ep, "verify_credential", code=cred["code"], **args)["result"] == "revoked"
    missing = ok(ep, "verify_credential", code="ZZZZ-ZZZZ", **args)
    assert (missing["result"], missing["credential_id"]) == ("not_found", None)
    assert len(every(ep, "list_verifications", requester_email="hr@northwind.example")) >= 3


def test_learners_are_found_by_student_number(ep: Episode) -> None:
    learner = every(ep, "list_learners")[3]
    found = every(ep, "list_learners", student_number=learner["student_number"])
    assert [x["id"] for x in found] == [learner["id"]]
