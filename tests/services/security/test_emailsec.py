"""Mailguard: remediation and restore, quarantine releases with approval, sender lists, reported phish cases."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SEC = ServiceTools("emailsec")
WORLD = SEC.world
ok, refused, every = SEC.ok, SEC.refused, SEC.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def admin(ep: Episode, role: str) -> str:
    return str(every(ep, "list_admins", role=role)[0]["email"])


def threat(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_threats", **filters)[0]


def test_seeded_mail_reaches_employees_and_threats_match_their_messages(ep: Episode) -> None:
    for m in every(ep, "list_messages"):
        assert m["recipient_email"] in STAFF
    for t in every(ep, "list_threats"):
        found = every(ep, "list_messages", threat_id=t["id"])
        assert len(found) == t["recipient_count"]
        assert {m["sender_email"] for m in found} == {t["sender_email"]}
        if t["remediation_status"] in ("remediated", "auto_remediated"):
            assert {m["location"] for m in found} == {"removed"}
    assert {a["email"] for a in every(ep, "list_admins")} <= STAFF


def test_remediating_a_threat_removes_it_from_every_mailbox_once(ep: Episode) -> None:
    t = threat(ep, attack_type="bec")
    refused(
        ep, "remediate_threat", "rule_violation", "requested_by", threat_id=t["id"], requested_by=admin(ep, "read_only")
    )
    done = ok(ep, "remediate_threat", threat_id=t["id"], requested_by=admin(ep, "analyst"))
    assert (done["action"], done["message_count"]) == ("remove", t["recipient_count"])
    assert {m["location"] for m in every(ep, "list_messages", threat_id=t["id"])} == {"removed"}
    assert ok(ep, "get_threat", threat_id=t["id"])["remediation_status"] == "remediated"
    refused(ep, "remediate_threat", "conflict", "threat_id", threat_id=t["id"], requested_by=admin(ep, "analyst"))


def test_restoring_needs_a_false_positive_judgement(ep: Episode) -> None:
    t = threat(ep, attack_type="credential_phishing", false_positive=False)
    analyst = admin(ep, "analyst")
    refused(ep, "restore_threat", "rule_violation", "threat_id", threat_id=t["id"], requested_by=analyst)
    assert ok(ep, "mark_false_positive", threat_id=t["id"], requested_by=analyst)["false_positive"] is True
    back = ok(ep, "restore_threat", threat_id=t["id"], requested_by=analyst)
    assert back["message_count"] == t["recipient_count"]
    assert {m["location"] for m in every(ep, "list_messages", threat_id=t["id"])} == {"inbox"}
    refused(ep, "restore_threat", "conflict", "threat_id", threat_id=t["id"], requested_by=analyst)


def test_dangerous_mail_leaves_quarantine_only_through_an_approved_request(ep: Episode) -> None:
    held = every(ep, "list_messages", location="quarantine", verdict="malicious")[0]
    refused(ep, "release_message", "rule_violation", "message_id", message_id=held["id"])
    other = next(e for e in sorted(STAFF) if e != held["recipient_email"])
    refused(
        ep, "request_release", "rule_violation", "requested_by", message_id=held["id"], requested_by=other, reason="x"
    )
    req = ok(ep, "request_release", message_id=held["id"], requested_by=held["recipient_email"], reason="Need it")
    refused(
        ep,
        "request_release",
        "conflict",
        "message_id",
        message_id=held["id"],
        requested_by=held["recipient_email"],
        reason="Again",
    )
    refused(
        ep, "approve_release", "rule_violation", "decided_by", request_id=req["id"], decided_by=admin(ep, "read_only")
    )
    approved = ok(ep, "approve_release", request_id=req["id"], decided_by=admin(ep, "analyst"))
    assert approved["status"] == "approved"
    assert ok(ep, "get_message", message_id=held["id"])["location"] == "inbox"
    refused(ep, "deny_release", "conflict", "request_id", request_id=req["id"], decided_by=admin(ep, "admin"))


def test_nobody_approves_their_own_release(ep: Episode) -> None:
    held = next(
        m
        for m in every(ep, "list_messages", location="quarantine", verdict="malicious")
        if not every(ep, "list_release_requests", message_id=m["id"], status="pending")
    )
    analyst = held["recipient_email"]
    ok(ep, "create_admin", email=analyst, name="Reviewer", role="analyst")
    req = ok(ep, "request_release", message_id=held["id"], requested_by=analyst, reason="Mine")
    refused(ep, "approve_release", "rule_violation", "decided_by", request_id=req["id"], decided_by=analyst)
    assert ok(ep, "deny_release", request_id=req["id"], decided_by=admin(ep, "admin"))["status"] == "denied"
    assert ok(ep, "get_message", message_id=held["id"])["location"] == "quarantine"


def test_spam_is_released_directly_and_deleting_ends_pending_requests(ep: Episode) -> None:
    spam = every(ep, "list_messages", location="quarantine", verdict="spam")[0]
    assert ok(ep, "release_message", message_id=spam["id"])["location"] == "inbox"
    refused(ep, "release_message", "conflict", "message_id", message_id=spam["id"])
    pending = every(ep, "list_release_requests", status="pending")[0]
    assert ok(ep, "delete_message", message_id=pending["message_id"])["location"] == "deleted"
    assert every(ep, "list_release_requests", status="pending") == []


def test_sender_lists_are_for_administrators_and_never_contradict(ep: Episode) -> None:
    boss = admin(ep, "admin")
    refused(
        ep,
        "add_sender_rule",
        "rule_violation",
        "created_by",
        list_type="block",
        value="x.biz",
        created_by=admin(ep, "analyst"),
    )
    refused(ep, "add_sender_rule", "conflict", "value", list_type="allow", value="eventdeals.biz", created_by=boss)
    refused(ep, "add_sender_rule", "rule_violation", "value", list_type="allow", value=POP.home.domain, created_by=boss)
    made = ok(ep, "add_sender_rule", list_type="block", value="Bad@Spam.Example", created_by=boss)
    assert made["value"] == "bad@spam.example"
    refused(ep, "add_sender_rule", "conflict", "value", list_type="block", value="bad@spam.example", created_by=boss)


def test_a_reported_phish_judged_malicious_is_removed_everywhere_and_its_sender_blocked(ep: Episode) -> None:
    case = every(ep, "list_cases", status="in_review")[0]
    msg = ok(ep, "get_message", message_id=case["message_id"])
    done = ok(ep, "resolve_case", case_id=case["id"], judgement="malicious", block_sender=True)
    assert (done["status"], done["judgement"]) == ("resolved", "malicious")
    same = every(ep, "list_messages", sender_email=msg["sender_email"])
    assert {m["location"] for m in same if m["subject"] == msg["subject"]} <= {"removed", "deleted"}
    assert every(ep, "list_sender_rules", value=msg["sender_email"], list_type="block")
    assert every(ep, "list_remediations", case_id=case["id"])[0]["action"] == "remove"
    refused(ep, "resolve_case", "conflict", "case_id", case_id=case["id"], judgement="safe")


def test_reporting_and_reviewing_a_case(ep: Episode) -> None:
    msg = next(
        m for m in every(ep, "list_messages", location="inbox") if not every(ep, "list_cases", message_id=m["id"])
    )
    other = next(e for e in sorted(STAFF) if e != msg["recipient_email"])
    refused(ep, "report_message", "rule_violation", "reporter_email", message_id=msg["id"], reporter_email=other)
    case = ok(ep, "report_message", message_id=msg["id"], reporter_email=msg["recipient_email"])
    refused(ep, "report_message", "conflict", "message_id", message_id=msg["id"], reporter_email=msg["recipient_email"])
    refused(ep, "resolve_case", "conflict", "case_id", case_id=case["id"], judgement="safe")
    refused(
        ep, "assign_case", "rule_violation", "analyst_email", case_id=case["id"], analyst_email=admin(ep, "read_only")
    )
    ok(ep, "assign_case", case_id=case["id"], analyst_email=admin(ep, "analyst"))
    refused(
        ep, "resolve_case", "rule_violation", "block_sender", case_id=case["id"], judgement="safe", block_sender=True
    )
    assert ok(ep, "resolve_case", case_id=case["id"], judgement="safe")["judgement"] == "safe"
    assert ok(ep, "get_message", message_id=msg["id"])["location"] == "inbox"


def test_the_last_administrator_stays(ep: Episode) -> None:
    only = every(ep, "list_admins", role="admin")
    assert len(only) == 1
    refused(ep, "update_admin", "conflict", "admin_id", admin_id=only[0]["id"], role="analyst")
    refused(ep, "delete_admin", "conflict", "admin_id", admin_id=only[0]["id"])
    refused(ep, "create_admin", "rule_violation", "email", email="someone@elsewhere.io", name="X Y", role="admin")
