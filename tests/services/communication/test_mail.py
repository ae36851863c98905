"""Quill Mail: sending and delivery, replies and forwards, drafts, labels, archive/trash, search."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MAIL = ServiceTools("mail")
WORLD = MAIL.world
ok, refused = MAIL.ok, MAIL.refused
POP = WORLD.population
OUTSIDER = POP.contacts[0].email
LINK = "https://files.example.com/d/report"


def mailbox(ep: Episode, index: int) -> dict[str, Any]:
    items = ok(ep, "list_mailboxes", email=POP.employees[index].email)["items"]
    assert len(items) == 1
    return dict(items[0])


def label(ep: Episode, mailbox_id: str, name: str) -> str:
    items = ok(ep, "list_labels", mailbox_id=mailbox_id, name=name)["items"]
    assert len(items) == 1
    return str(items[0]["id"])


def label_names(ep: Episode, msg: dict[str, Any]) -> set[str]:
    return {ok(ep, "get_label", label_id=lid)["name"] for lid in msg["label_ids"]}


def first_message(ep: Episode, state: str, *, with_label: str | None = None) -> dict[str, Any]:
    cursor = None
    while True:
        page = ok(ep, "list_messages", state=state, limit=100, cursor=cursor)
        for msg in page["items"]:
            if with_label is None or with_label in label_names(ep, msg):
                return dict(msg)
        cursor = page["next_cursor"]
        assert cursor is not None, f"no {state} message with {with_label}"


def send(ep: Episode, mailbox_id: str, to: list[str], **extra: Any) -> dict[str, Any]:
    return dict(
        ok(ep, "send_message", mailbox_id=mailbox_id, to=to, subject="Status update", body="All good.", **extra)
    )


# -- sending ------------------------------------------------------------------------------


def test_sending_to_a_colleague_delivers_an_unread_copy_into_their_inbox(ep: Episode) -> None:
    alice, bob = mailbox(ep, 0), mailbox(ep, 1)
    sent = send(ep, alice["id"], [bob["email"]])
    assert sent["state"] == "sent" and sent["from_email"] == alice["email"]
    assert label_names(ep, sent) == {"SENT"}
    diff = ep.diff()
    assert diff.counts() == {
        "mail.messages": {"added": 2, "updated": 0, "removed": 0},
        "mail.threads": {"added": 2, "updated": 0, "removed": 0},
    }
    copy = next(m for m in diff.tables["mail.messages"].added if m["mailbox_id"] == bob["id"])
    assert copy["state"] == "received"
    assert copy["rfc822_id"] == sent["rfc822_id"]
    assert label_names(ep, copy) == {"INBOX", "UNREAD"}
    assert copy["thread_id"] != sent["thread_id"]


def test_sending_outside_the_company_only_keeps_the_sent_copy(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    send(ep, alice["id"], [OUTSIDER])
    assert ep.diff().counts()["mail.messages"] == {"added": 1, "updated": 0, "removed": 0}


def test_bcc_recipients_are_hidden_from_the_delivered_copy(ep: Episode) -> None:
    alice, bob, carol = mailbox(ep, 0), mailbox(ep, 1), mailbox(ep, 2)
    sent = send(ep, alice["id"], [bob["email"]], bcc=[carol["email"]])
    assert sent["bcc"] == [carol["email"]]
    copies = [m for m in ep.diff().tables["mail.messages"].added if m["state"] == "received"]
    assert {m["mailbox_id"] for m in copies} == {bob["id"], carol["id"]}
    assert all(m["bcc"] == [] for m in copies)


def test_sending_with_no_recipients_is_refused_and_changes_nothing(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    refused(ep, "send_message", "rule_violation", "to", mailbox_id=alice["id"], to=[], subject="Hello")


def test_a_malformed_recipient_is_refused_and_changes_nothing(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    to = [OUTSIDER, "not-an-address"]
    refused(ep, "send_message", "invalid_arguments", "to.1", mailbox_id=alice["id"], to=to, subject="Hello")


def test_more_than_500_recipients_is_refused_and_changes_nothing(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    to = [f"person{i}@example.com" for i in range(501)]
    refused(ep, "send_message", "rule_violation", "to", mailbox_id=alice["id"], to=to, subject="Hello")


def test_attachments_over_25_mb_are_refused_and_changes_nothing(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    big = {"filename": "video.mp4", "mime_type": "video/mp4", "size_bytes": 26 * 1024 * 1024, "link": LINK}
    message = refused(
        ep,
        "send_message",
        "rule_violation",
        "attachments",
        mailbox_id=alice["id"],
        to=[OUTSIDER],
        subject="The video",
        attachments=[big],
    )
    assert "25 MB" in message


def test_an_attachment_carries_its_file_link(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    pdf = {"filename": "report.pdf", "mime_type": "application/pdf", "size_bytes": 120_000, "link": LINK}
    sent = send(ep, alice["id"], [OUTSIDER], attachments=[pdf])
    assert sent["attachments"] == [pdf]


# -- replies and forwards -----------------------------------------------------------------


def test_reply_goes_to_the_sender_in_the_same_thread_with_a_re_subject(ep: Episode) -> None:
    original = first_message(ep, "received")
    reply = ok(ep, "reply_to_message", message_id=original["id"], body="Thanks, will do.")
    assert reply["thread_id"] == original["thread_id"]
    assert reply["mailbox_id"] == original["mailbox_id"]
    assert reply["to"] == [original["from_email"]]
    assert reply["in_reply_to"] == original["rfc822_id"]
    assert reply["subject"] == f"Re: {original['subject']}" or original["subject"].lower().startswith("re:")
    again = ok(ep, "reply_to_message", message_id=reply["id"], body="One more thing.")
    assert again["subject"] == reply["subject"]  # no "Re: Re: "
    assert again["to"] == reply["to"]  # replying to one's own message goes to its recipients


def test_reply_all_copies_the_other_recipients_but_not_oneself(ep: Episode) -> None:
    alice, bob, carol = mailbox(ep, 0), mailbox(ep, 1), mailbox(ep, 2)
    sent = send(ep, alice["id"], [bob["email"]], cc=[carol["email"], OUTSIDER])
    copy = next(m for m in ep.diff().tables["mail.messages"].added if m["mailbox_id"] == bob["id"])
    reply = ok(ep, "reply_to_message", message_id=copy["id"], body="Agreed.", reply_all=True)
    assert reply["to"] == [alice["email"]]
    assert set(reply["cc"]) == {carol["email"], OUTSIDER.lower()}
    assert bob["email"] not in reply["cc"]
    # The reply lands in Alice's original thread.
    back = ok(ep, "list_messages", mailbox_id=alice["id"], rfc822_id=reply["rfc822_id"])["items"]
    assert len(back) == 1 and back[0]["thread_id"] == sent["thread_id"]
    assert ok(ep, "get_thread", thread_id=sent["thread_id"])["last_message_at"] == reply["sent_at"]


def test_replying_to_a_draft_is_refused_and_changes_nothing(ep: Episode) -> None:
    draft = first_message(ep, "draft")
    refused(ep, "reply_to_message", "rule_violation", "message_id", message_id=draft["id"], body="Hi")


def test_a_draft_cannot_answer_another_draft_or_another_mailboxs_message(ep: Episode) -> None:
    draft = first_message(ep, "draft")
    refused(
        ep,
        "create_draft",
        "rule_violation",
        "reply_to_message_id",
        mailbox_id=draft["mailbox_id"],
        subject="Re: draft",
        reply_to_message_id=draft["id"],
    )
    received = first_message(ep, "received")
    other = next(m for m in (mailbox(ep, 0), mailbox(ep, 1)) if m["id"] != received["mailbox_id"])
    refused(
        ep,
        "create_draft",
        "rule_violation",
        "reply_to_message_id",
        mailbox_id=other["id"],
        subject="Re: yours",
        reply_to_message_id=received["id"],
    )


def test_forward_starts_a_new_thread_with_a_fwd_subject_and_the_attachments(ep: Episode) -> None:
    alice, bob = mailbox(ep, 0), mailbox(ep, 1)
    pdf = {"filename": "report.pdf", "mime_type": "application/pdf", "size_bytes": 120_000, "link": LINK}
    sent = send(ep, alice["id"], [OUTSIDER], attachments=[pdf])
    fwd = ok(ep, "forward_message", message_id=sent["id"], to=[bob["email"]], note="See below.")
    assert fwd["subject"] == "Fwd: Status update"
    assert fwd["thread_id"] != sent["thread_id"]
    assert fwd["attachments"] == [pdf]
    assert fwd["body"].startswith("See below.") and "All good." in fwd["body"]


def test_forwarding_a_draft_or_to_nobody_is_refused_and_changes_nothing(ep: Episode) -> None:
    draft = first_message(ep, "draft")
    refused(ep, "forward_message", "rule_violation", "message_id", message_id=draft["id"], to=[OUTSIDER])
    received = first_message(ep, "received")
    refused(ep, "forward_message", "rule_violation", "to", message_id=received["id"], to=[])


# -- drafts -------------------------------------------------------------------------------


def test_a_draft_without_recipients_cannot_be_sent_until_recipients_are_added(ep: Episode) -> None:
    alice, bob = mailbox(ep, 0), mailbox(ep, 1)
    draft = ok(ep, "create_draft", mailbox_id=alice["id"], subject="Plan", body="First idea")
    assert draft["state"] == "draft" and draft["sent_at"] is None
    assert label_names(ep, draft) == {"DRAFT"}
    refused(ep, "send_draft", "rule_violation", "message_id", message_id=draft["id"])
    edited = ok(ep, "update_draft", message_id=draft["id"], to=[bob["email"]], subject="Plan v2")
    assert edited["to"] == [bob["email"]]
    assert ok(ep, "get_thread", thread_id=draft["thread_id"])["subject"] == "Plan v2"
    before = ep.snapshot()
    sent = ok(ep, "send_draft", message_id=draft["id"])
    assert sent["id"] == draft["id"] and sent["state"] == "sent" and sent["sent_at"] is not None
    assert label_names(ep, sent) == {"SENT"}
    changes = ep.diff(before).tables["mail.messages"]
    assert [c.id for c in changes.updated] == [draft["id"]]
    assert [m["mailbox_id"] for m in changes.added] == [bob["id"]]


def test_a_sent_message_cannot_be_edited_and_nothing_changes(ep: Episode) -> None:
    sent = first_message(ep, "sent")
    message = refused(ep, "update_draft", "rule_violation", "message_id", message_id=sent["id"], body="Oops")
    assert "cannot be edited" in message
    refused(ep, "send_draft", "rule_violation", "message_id", message_id=sent["id"])
    refused(ep, "delete_draft", "rule_violation", "message_id", message_id=sent["id"])


def test_discarding_a_new_draft_removes_it_and_its_thread(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    draft = ok(ep, "create_draft", mailbox_id=alice["id"], subject="Never mind")
    ok(ep, "delete_draft", message_id=draft["id"])
    assert ep.diff().is_empty


# -- labels -------------------------------------------------------------------------------


def test_system_labels_cannot_be_renamed_or_deleted_and_nothing_changes(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    inbox = label(ep, alice["id"], "INBOX")
    refused(ep, "update_label", "rule_violation", "label_id", label_id=inbox, name="Incoming")
    refused(ep, "delete_label", "rule_violation", "label_id", label_id=inbox)


def test_label_names_are_unique_per_mailbox_and_system_names_are_reserved(ep: Episode) -> None:
    alice, bob = mailbox(ep, 0), mailbox(ep, 1)
    ok(ep, "create_label", mailbox_id=alice["id"], name="Partners", color="teal")
    refused(ep, "create_label", "conflict", "name", mailbox_id=alice["id"], name="partners")
    refused(ep, "create_label", "conflict", "name", mailbox_id=alice["id"], name="Inbox")
    other = ok(ep, "create_label", mailbox_id=alice["id"], name="Vendors")
    refused(ep, "update_label", "conflict", "name", label_id=other["id"], name="PARTNERS")
    ok(ep, "create_label", mailbox_id=bob["id"], name="Partners")  # another mailbox: fine


def test_deleting_a_user_label_removes_it_from_its_messages(ep: Episode) -> None:
    alice = mailbox(ep, 0)
    sent = send(ep, alice["id"], [OUTSIDER])
    tag = ok(ep, "create_label", mailbox_id=alice["id"], name="Partners")
    tagged = ok(ep, "modify_message_labels", message_id=sent["id"], add_label_ids=[tag["id"]])
    assert tag["id"] in tagged["label_ids"]
    before = ep.snapshot()
    ok(ep, "delete_label", label_id=tag["id"])
    diff = ep.diff(before)
    assert [r["id"] for r in diff.tables["mail.labels"].removed] == [tag["id"]]
    assert ok(ep, "get_message", message_id=sent["id"])["label_ids"] == sent["label_ids"]


def test_modify_labels_refuses_state_labels_and_other_mailboxes_labels(ep: Episode) -> None:
    received = first_message(ep, "received")
    box = received["mailbox_id"]
    refused(
        ep,
        "modify_message_labels",
        "rule_violation",
        "add_label_ids.0",
        message_id=received["id"],
        add_label_ids=[label(ep, box, "SENT")],
    )
    other = next(m for m in (mailbox(ep, 0), mailbox(ep, 1)) if m["id"] != box)
    refused(
        ep,
        "modify_message_labels",
        "rule_violation",
        "add_label_ids.0",
        message_id=received["id"],
        add_label_ids=[label(ep, other["id"], "STARRED")],
    )
    refused(
        ep,
        "modify_message_labels",
        "not_found",
        "remove_label_ids.0",
        message_id=received["id"],
        remove_label_ids=["lbl_999999"],
    )


def test_starring_adds_the_label_once(ep: Episode) -> None:
    received = first_message(ep, "received")
    starred = label(ep, received["mailbox_id"], "STARRED")
    once = ok(ep, "modify_message_labels", message_id=received["id"], add_label_ids=[starred])
    twice = ok(ep, "modify_message_labels", message_id=received["id"], add_label_ids=[starred])
    assert once == twice and once["label_ids"].count(starred) == 1


# -- archive, trash, read state -----------------------------------------------------------


def test_archive_trash_untrash_and_delete_forever(ep: Episode) -> None:
    msg = first_message(ep, "received", with_label="INBOX")
    archived = ok(ep, "archive_message", message_id=msg["id"])
    assert "INBOX" not in label_names(ep, archived)
    refused(ep, "archive_message", "rule_violation", "message_id", message_id=msg["id"])
    refused(ep, "untrash_message", "rule_violation", "message_id", message_id=msg["id"])
    refused(ep, "delete_message", "rule_violation", "message_id", message_id=msg["id"])
    trashed = ok(ep, "trash_message", message_id=msg["id"])
    assert "TRASH" in label_names(ep, trashed)
    refused(ep, "trash_message", "rule_violation", "message_id", message_id=msg["id"])
    restored = ok(ep, "untrash_message", message_id=msg["id"])
    assert {"INBOX"} <= label_names(ep, restored) and "TRASH" not in label_names(ep, restored)
    ok(ep, "trash_message", message_id=msg["id"])
    ok(ep, "delete_message", message_id=msg["id"])
    assert [r["id"] for r in ep.diff().tables["mail.messages"].removed] == [msg["id"]]


def test_a_draft_cannot_be_trashed_and_nothing_changes(ep: Episode) -> None:
    draft = first_message(ep, "draft")
    refused(ep, "trash_message", "rule_violation", "message_id", message_id=draft["id"])


def test_mark_read_removes_unread_and_repeating_it_changes_nothing(ep: Episode) -> None:
    msg = first_message(ep, "received", with_label="UNREAD")
    read = ok(ep, "mark_message_read", message_id=msg["id"])
    assert "UNREAD" not in label_names(ep, read)
    after_first = ep.state_hash()
    ok(ep, "mark_message_read", message_id=msg["id"])
    assert ep.state_hash() == after_first
    unread = ok(ep, "mark_message_unread", message_id=msg["id"])
    assert "UNREAD" in label_names(ep, unread)


# -- reading ------------------------------------------------------------------------------


def test_search_leaves_out_spam_and_trash_unless_asked(ep: Episode) -> None:
    msg = first_message(ep, "received", with_label="INBOX")
    box = msg["mailbox_id"]
    ok(ep, "trash_message", message_id=msg["id"])
    plain = {m["id"] for m in ok(ep, "search_messages", mailbox_id=box, limit=100)}
    assert msg["id"] not in plain
    everything = {m["id"] for m in ok(ep, "search_messages", mailbox_id=box, include_spam_trash=True, limit=100)}
    assert msg["id"] in everything
    in_trash = ok(ep, "search_messages", mailbox_id=box, label_id=label(ep, box, "TRASH"), limit=100)
    assert msg["id"] in {m["id"] for m in in_trash}


def test_search_finds_new_mail_by_text_and_unread(ep: Episode) -> None:
    alice, bob = mailbox(ep, 0), mailbox(ep, 1)
    ok(ep, "send_message", mailbox_id=alice["id"], to=[bob["email"]], subject="Zebra crossing", body="x")
    hits = ok(ep, "search_messages", mailbox_id=bob["id"], query="zebra", unread_only=True)
    assert [h["subject"] for h in hits] == ["Zebra crossing"]
    assert ok(ep, "search_messages", mailbox_id=bob["id"], query="zebra", from_email=OUTSIDER) == []


def test_label_counts_follow_the_unread_state(ep: Episode) -> None:
    alice, bob = mailbox(ep, 0), mailbox(ep, 1)
    inbox = label(ep, bob["id"], "INBOX")
    before = ok(ep, "get_label_counts", label_id=inbox)
    send(ep, alice["id"], [bob["email"]])
    after = ok(ep, "get_label_counts", label_id=inbox)
    assert after["messages_total"] == before["messages_total"] + 1
    assert after["messages_unread"] == before["messages_unread"] + 1
    assert after["threads_total"] == before["threads_total"] + 1


def test_the_seeded_mailboxes_belong_to_the_employees_and_mail_comes_from_the_population(ep: Episode) -> None:
    emails = {p.email for p in POP.people}
    boxes = ok(ep, "list_mailboxes", limit=100)["items"]
    assert {b["email"] for b in boxes} == {p.email for p in POP.employees}
    seeded = [r.model_dump() for r in WORLD.tables["mail.messages"].records.values()]
    assert {m["from_email"] for m in seeded} <= emails
    assert {m["state"] for m in seeded} == {"draft", "sent", "received"}
    recipients = {a for m in seeded for a in (*m["to"], *m["cc"])}
    assert recipients <= emails
