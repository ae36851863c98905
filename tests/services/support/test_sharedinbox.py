"""Frontdesk Inbox: incoming mail and rules, assignment access, replies with templates, snoozes, comments, tags."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

INBOX = ServiceTools("sharedinbox")
WORLD = INBOX.world
ok, refused, every = INBOX.ok, INBOX.refused, INBOX.every
POP = WORLD.population
DOMAIN = POP.home.domain
CUSTOMER = POP.consumers[12]


def inbox(ep: Episode, name: str) -> dict[str, Any]:
    return next(i for i in every(ep, "list_inboxes") if i["name"] == name)


def outsider(ep: Episode, box: dict[str, Any]) -> dict[str, Any]:
    return next(m for m in every(ep, "list_teammates") if m["id"] not in box["teammate_ids"])


def incoming(ep: Episode, subject: str, box: str = "Support", sender: str = CUSTOMER.email) -> dict[str, Any]:
    conv: dict[str, Any] = ok(
        ep,
        "receive_message",
        inbox_id=inbox(ep, box)["id"],
        sender_email=sender,
        subject=subject,
        body="Hello team",
        sender_name=CUSTOMER.name,
    )
    return conv


def _later(days: int) -> str:
    return (WORLD.epoch + dt.timedelta(days=days)).isoformat()


def tag_id(ep: Episode, name: str) -> str:
    return str(next(t["id"] for t in every(ep, "list_tags") if t["name"] == name))


def test_seeded_inboxes_teammates_and_conversations_come_from_the_world(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    people = {p.email: p for p in POP.people}
    assert all(m["email"] in staff for m in every(ep, "list_teammates"))
    assert {i["address"] for i in every(ep, "list_inboxes")} == {
        f"{n}@{DOMAIN}" for n in ("support", "billing", "sales")
    }
    convs = every(ep, "list_conversations")
    assert {c["status"] for c in convs} == {"open", "archived", "snoozed", "deleted"}
    for c in convs:
        assert people[c["recipient_email"]].name == c["recipient_name"]
        assert (c["snoozed_until"] is not None) == (c["status"] == "snoozed")
        if c["assignee_id"]:
            assert c["assignee_id"] in ok(ep, "get_inbox", inbox_id=c["inbox_id"])["teammate_ids"]


def test_incoming_mail_starts_a_conversation_and_rules_tag_and_assign_it(ep: Episode) -> None:
    conv = incoming(ep, "Please refund my order")
    assert (conv["status"], conv["assignee_id"], conv["tag_ids"]) == ("open", None, [tag_id(ep, "refund")])
    bill = incoming(ep, "Invoice 2291 is wrong", box="Billing")
    rule = every(ep, "list_rules", inbox_id=inbox(ep, "Billing")["id"])[0]
    assert (bill["assignee_id"], bill["tag_ids"]) == (rule["assign_to_id"], [tag_id(ep, "billing")])
    refused(
        ep,
        "receive_message",
        "rule_violation",
        "sender_email",
        inbox_id=inbox(ep, "Support")["id"],
        sender_email=f"someone@{DOMAIN}",
        subject="Hi",
        body="x",
    )


def test_a_new_message_reopens_the_archived_conversation(ep: Episode) -> None:
    conv = incoming(ep, "Login problem")
    ok(ep, "archive_conversation", conversation_id=conv["id"])
    refused(ep, "archive_conversation", "rule_violation", "conversation_id", conversation_id=conv["id"])
    again = incoming(ep, "RE: Login problem")
    assert (again["id"], again["status"]) == (conv["id"], "open")
    assert len(every(ep, "list_messages", conversation_id=conv["id"], is_inbound=True)) == 2


def test_assignees_need_inbox_access_and_availability(ep: Episode) -> None:
    box = inbox(ep, "Sales")
    conv = incoming(ep, "Pricing for 50 seats", box="Sales")
    refused(
        ep,
        "assign_conversation",
        "rule_violation",
        "assignee_id",
        conversation_id=conv["id"],
        assignee_id=outsider(ep, box)["id"],
    )
    away = every(ep, "list_teammates", is_available=False)[0]
    if away["id"] not in box["teammate_ids"]:
        ok(ep, "grant_inbox_access", inbox_id=box["id"], teammate_id=away["id"])
    refused(
        ep, "assign_conversation", "rule_violation", "assignee_id", conversation_id=conv["id"], assignee_id=away["id"]
    )
    mate = box["teammate_ids"][0]
    assert ok(ep, "assign_conversation", conversation_id=conv["id"], assignee_id=mate)["assignee_id"] == mate
    refused(ep, "assign_conversation", "conflict", "assignee_id", conversation_id=conv["id"], assignee_id=mate)
    assert ok(ep, "unassign_conversation", conversation_id=conv["id"])["assignee_id"] is None


def test_replies_use_shared_templates_and_can_archive(ep: Episode) -> None:
    conv = incoming(ep, "Damaged parcel")
    box = inbox(ep, "Support")
    author = box["teammate_ids"][0]
    tpl = {t["name"]: t for t in every(ep, "list_templates")}
    sent = ok(
        ep,
        "reply",
        conversation_id=conv["id"],
        author_id=author,
        template_id=tpl["Refund confirmation"]["id"],
        archive=True,
    )
    assert sent["body"].startswith(f"Hi {CUSTOMER.first_name},") and sent["to_email"] == CUSTOMER.email
    after = ok(ep, "get_conversation", conversation_id=conv["id"])
    assert (after["status"], after["assignee_id"]) == ("archived", author)
    refused(ep, "reply", "rule_violation", "conversation_id", conversation_id=conv["id"], author_id=author, body="More")
    bill = incoming(ep, "Card declined", box="Billing")
    bill_author = inbox(ep, "Billing")["teammate_ids"][0]
    refused(
        ep,
        "reply",
        "rule_violation",
        "template_id",
        conversation_id=bill["id"],
        author_id=bill_author,
        template_id=tpl["Bug acknowledged"]["id"],
    )
    refused(
        ep,
        "reply",
        "rule_violation",
        "author_id",
        conversation_id=bill["id"],
        author_id=outsider(ep, inbox(ep, "Billing"))["id"],
        body="Hi",
    )
    refused(ep, "reply", "rule_violation", "body", conversation_id=bill["id"], author_id=bill_author, body="  ")


def test_snoozes_end_in_the_future_and_trash_can_be_restored(ep: Episode) -> None:
    conv = incoming(ep, "Feature idea")
    refused(
        ep, "snooze_conversation", "rule_violation", "until", conversation_id=conv["id"], until="2000-01-01T00:00:00Z"
    )
    snoozed = ok(ep, "snooze_conversation", conversation_id=conv["id"], until=_later(days=3))
    assert snoozed["status"] == "snoozed"
    refused(
        ep, "snooze_conversation", "rule_violation", "conversation_id", conversation_id=conv["id"], until=_later(days=4)
    )
    assert ok(ep, "trash_conversation", conversation_id=conv["id"])["status"] == "deleted"
    refused(
        ep,
        "assign_conversation",
        "rule_violation",
        "conversation_id",
        conversation_id=conv["id"],
        assignee_id=inbox(ep, "Support")["teammate_ids"][0],
    )
    restored = ok(ep, "reopen_conversation", conversation_id=conv["id"])
    assert (restored["status"], restored["snoozed_until"]) == ("open", None)


def test_comments_mention_only_teammates_of_the_inbox(ep: Episode) -> None:
    conv = incoming(ep, "Data export")
    box = inbox(ep, "Support")
    mates = {m["id"]: m for m in every(ep, "list_teammates")}
    author, other = box["teammate_ids"][0], box["teammate_ids"][1]
    stranger = outsider(ep, box)
    refused(
        ep,
        "add_comment",
        "rule_violation",
        "body",
        conversation_id=conv["id"],
        author_id=author,
        body=f"@{stranger['email']} can you look?",
    )
    made = ok(
        ep, "add_comment", conversation_id=conv["id"], author_id=author, body=f"@{mates[other]['email']} can you look?"
    )
    assert made["mention_ids"] == [other]
    assert [c["id"] for c in every(ep, "list_comments", conversation_id=conv["id"])] == [made["id"]]


def test_tags_are_unique_and_applied_once(ep: Episode) -> None:
    refused(ep, "create_tag", "conflict", "name", name="vip")
    urgent = ok(ep, "create_tag", name="urgent", highlight="red")
    conv = incoming(ep, "Outage on our account")
    ok(ep, "tag_conversation", conversation_id=conv["id"], tag_id=urgent["id"])
    refused(ep, "tag_conversation", "conflict", "tag_id", conversation_id=conv["id"], tag_id=urgent["id"])
    refused(ep, "untag_conversation", "rule_violation", "tag_id", conversation_id=conv["id"], tag_id=tag_id(ep, "vip"))
    assert ok(ep, "untag_conversation", conversation_id=conv["id"], tag_id=urgent["id"])["tag_ids"] == []


def test_rules_need_a_condition_an_action_and_an_assignee_with_access(ep: Episode) -> None:
    box = inbox(ep, "Sales")
    base = {"name": "Route enterprise", "inbox_id": box["id"]}
    refused(ep, "create_rule", "rule_violation", "subject_contains", add_tag_id=tag_id(ep, "vip"), **base)
    refused(ep, "create_rule", "rule_violation", "assign_to_id", subject_contains="enterprise", **base)
    refused(
        ep,
        "create_rule",
        "rule_violation",
        "assign_to_id",
        subject_contains="enterprise",
        assign_to_id=outsider(ep, box)["id"],
        **base,
    )
    ok(ep, "create_rule", subject_contains="enterprise", add_tag_id=tag_id(ep, "vip"), archive=False, **base)
    conv = incoming(ep, "Enterprise plan question", box="Sales")
    assert conv["tag_ids"] == [tag_id(ep, "vip")]
