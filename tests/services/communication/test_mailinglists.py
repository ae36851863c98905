"""Listhub: joining by privacy, bans, moderation of posts, roles, digests."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

ML = ServiceTools("mailinglists")
WORLD = ML.world
ok, refused, every = ML.ok, ML.refused, ML.every
POP = WORLD.population


def group(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_groups", name=name)[0]


def role(ep: Episode, group_id: str, r: str) -> str:
    return str(every(ep, "list_members", group_id=group_id, role=r)[0]["email"])


def test_the_community_list_holds_customers_and_staff_run_it(ep: Episode) -> None:
    g = group(ep, "user-community")
    emails = {m["email"] for m in every(ep, "list_members", group_id=g["id"], role="member")}
    assert emails == {p.email for p in POP.consumers[:10]}
    staff = {p.email for p in POP.employees}
    assert role(ep, g["id"], "owner") in staff and role(ep, g["id"], "moderator") in staff


def test_joining_depends_on_privacy_and_bans(ep: Episode) -> None:
    p = POP.consumers[30]
    open_g, restricted, private = group(ep, "user-community"), group(ep, "announcements"), group(ep, "partners")
    assert ok(ep, "join_group", group_id=open_g["id"], email=p.email, name=p.name)["status"] == "active"
    refused(ep, "join_group", "conflict", "email", group_id=open_g["id"], email=p.email, name=p.name)
    assert ok(ep, "join_group", group_id=restricted["id"], email=p.email, name=p.name)["status"] == "pending"
    refused(ep, "join_group", "rule_violation", "group_id", group_id=private["id"], email=p.email, name=p.name)
    banned = every(ep, "list_bans", group_id=open_g["id"])[0]["email"]
    refused(ep, "join_group", "rule_violation", "email", group_id=open_g["id"], email=banned, name="Spam Bot")


def test_moderated_members_are_held_until_a_moderator_approves(ep: Episode) -> None:
    g = group(ep, "user-community")
    mod = role(ep, g["id"], "moderator")
    held_member = next(m for m in every(ep, "list_members", group_id=g["id"], role="member") if m["moderated"])
    msg = ok(
        ep, "post_message", group_id=g["id"], sender_email=held_member["email"], subject="Q", body="How do I export?"
    )
    assert msg["status"] == "pending"
    refused(
        ep,
        "approve_message",
        "rule_violation",
        "moderator_email",
        message_id=msg["id"],
        moderator_email=held_member["email"],
    )
    ok(ep, "approve_message", message_id=msg["id"], moderator_email=mod)
    refused(ep, "approve_message", "conflict", "message_id", message_id=msg["id"], moderator_email=mod)
    again = ok(ep, "post_message", group_id=g["id"], sender_email=held_member["email"], subject="Thanks", body="Solved")
    assert again["status"] == "approved"


def test_only_active_members_post_within_the_size_limit(ep: Episode) -> None:
    g = group(ep, "announcements")
    pending = every(ep, "list_members", group_id=g["id"], status="pending")[0]
    refused(
        ep,
        "post_message",
        "rule_violation",
        "sender_email",
        group_id=g["id"],
        sender_email=pending["email"],
        subject="x",
        body="x",
    )
    refused(
        ep,
        "post_message",
        "rule_violation",
        "sender_email",
        group_id=g["id"],
        sender_email="nobody@example.org",
        subject="x",
        body="x",
    )
    owner = role(ep, g["id"], "owner")
    refused(
        ep,
        "post_message",
        "rule_violation",
        "size_kb",
        group_id=g["id"],
        sender_email=owner,
        subject="x",
        body="x",
        size_kb=5000,
    )
    assert ok(ep, "post_message", group_id=g["id"], sender_email=owner, subject="x", body="x")["status"] == "approved"


def test_replies_join_the_topic_of_their_parent(ep: Episode) -> None:
    g = group(ep, "partners")
    owner = role(ep, g["id"], "owner")
    root = next(m for m in every(ep, "list_messages", group_id=g["id"]) if m["topic_id"] is None)
    reply = every(ep, "list_messages", group_id=g["id"], topic_id=root["id"])[0]
    made = ok(
        ep,
        "post_message",
        group_id=g["id"],
        sender_email=owner,
        subject="Re",
        body="x",
        reply_to_message_id=reply["id"],
    )
    assert made["topic_id"] == root["id"]


def test_bans_remove_the_member_and_reject_their_pending_messages(ep: Episode) -> None:
    g = group(ep, "user-community")
    mod = role(ep, g["id"], "moderator")
    pend = every(ep, "list_messages", group_id=g["id"], status="pending")[0]
    refused(
        ep,
        "ban_member",
        "rule_violation",
        "email",
        group_id=g["id"],
        email=role(ep, g["id"], "owner"),
        reason="x",
        moderator_email=mod,
    )
    ok(ep, "ban_member", group_id=g["id"], email=pend["sender_email"], reason="Off-topic", moderator_email=mod)
    assert every(ep, "list_members", group_id=g["id"], email=pend["sender_email"]) == []
    assert ok(ep, "get_message", message_id=pend["id"])["status"] == "rejected"
    refused(
        ep,
        "post_message",
        "rule_violation",
        "sender_email",
        group_id=g["id"],
        sender_email=pend["sender_email"],
        subject="x",
        body="x",
    )


def test_only_owners_change_roles_and_one_owner_remains(ep: Episode) -> None:
    g = group(ep, "user-community")
    owner, mod = role(ep, g["id"], "owner"), role(ep, g["id"], "moderator")
    member = every(ep, "list_members", group_id=g["id"], role="member")[0]
    refused(ep, "set_role", "rule_violation", "owner_email", member_id=member["id"], role="moderator", owner_email=mod)
    assert ok(ep, "set_role", member_id=member["id"], role="moderator", owner_email=owner)["role"] == "moderator"
    own = every(ep, "list_members", group_id=g["id"], role="owner")[0]
    refused(ep, "set_role", "rule_violation", "role", member_id=own["id"], role="member", owner_email=owner)
    refused(ep, "delete_member", "rule_violation", "member_id", member_id=own["id"])


def test_pending_members_are_approved_by_moderators(ep: Episode) -> None:
    g = group(ep, "announcements")
    pending = every(ep, "list_members", group_id=g["id"], status="pending")[0]
    refused(
        ep,
        "approve_member",
        "rule_violation",
        "moderator_email",
        member_id=pending["id"],
        moderator_email=pending["email"],
    )
    done = ok(ep, "approve_member", member_id=pending["id"], moderator_email=role(ep, g["id"], "moderator"))
    assert done["status"] == "active"


def test_digests_gather_new_approved_messages_for_digest_readers(ep: Episode) -> None:
    g = group(ep, "partners")
    fresh = every(ep, "list_messages", group_id=g["id"], status="approved")
    fresh = [m for m in fresh if not m["digested"]]
    d = ok(ep, "send_digest", group_id=g["id"])
    assert sorted(d["message_ids"]) == sorted(m["id"] for m in fresh)
    readers = {m["email"] for m in every(ep, "list_members", group_id=g["id"], delivery="digest", status="active")}
    assert set(d["recipients"]) == readers
    refused(ep, "send_digest", "rule_violation", "group_id", group_id=g["id"])
