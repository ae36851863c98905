"""Hive Chat: channels and membership, posting and threads, author-only edits, reactions, pins."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CHAT = ServiceTools("chat")
WORLD = CHAT.world
ok, refused = CHAT.ok, CHAT.refused
POP = WORLD.population


def member(ep: Episode, index: int) -> str:
    items = ok(ep, "list_members", email=POP.employees[index].email)["items"]
    assert len(items) == 1
    return str(items[0]["id"])


def channel(ep: Episode, name: str) -> dict[str, Any]:
    items = ok(ep, "list_channels", name=name)["items"]
    assert len(items) == 1
    return dict(items[0])


def members_of(ep: Episode, channel_id: str) -> list[str]:
    return [m["member_id"] for m in ok(ep, "list_memberships", channel_id=channel_id, limit=100)["items"]]


def outsider_of(ep: Episode, channel_id: str) -> str:
    inside = set(members_of(ep, channel_id))
    everyone = [m["id"] for m in ok(ep, "list_members", limit=100)["items"]]
    return str(next(m for m in everyone if m not in inside))


def general(ep: Episode) -> dict[str, Any]:
    items = ok(ep, "list_channels", is_general=True)["items"]
    assert len(items) == 1
    return dict(items[0])


def new_channel(ep: Episode, creator: str, name: str, *, private: bool = False) -> dict[str, Any]:
    return dict(ok(ep, "create_channel", member_id=creator, name=name, is_private=private))


# -- channels and membership --------------------------------------------------------------


def test_creating_a_channel_makes_the_creator_its_first_member(ep: Episode) -> None:
    me = member(ep, 0)
    ch = new_channel(ep, me, "project-phoenix", private=True)
    assert ch["kind"] == "private" and ch["creator_id"] == me and not ch["is_archived"]
    assert members_of(ep, ch["id"]) == [me]
    assert ep.diff().counts() == {
        "chat.channels": {"added": 1, "updated": 0, "removed": 0},
        "chat.memberships": {"added": 1, "updated": 0, "removed": 0},
    }


def test_channel_names_are_unique_even_against_archived_channels(ep: Episode) -> None:
    me = member(ep, 0)
    refused(ep, "create_channel", "conflict", "name", member_id=me, name="general")
    refused(ep, "create_channel", "conflict", "name", member_id=me, name="offsite-2025")
    refused(ep, "create_channel", "invalid_arguments", "name", member_id=me, name="Has Spaces")


def test_a_public_channel_can_be_joined_but_a_private_one_cannot(ep: Episode) -> None:
    public = channel(ep, "random")
    newcomer = outsider_of(ep, public["id"])
    joined = ok(ep, "join_channel", channel_id=public["id"], member_id=newcomer)
    assert joined["member_id"] == newcomer
    refused(ep, "join_channel", "conflict", "member_id", channel_id=public["id"], member_id=newcomer)
    private = channel(ep, "leadership")
    refused(
        ep,
        "join_channel",
        "rule_violation",
        "channel_id",
        channel_id=private["id"],
        member_id=outsider_of(ep, private["id"]),
    )


def test_only_members_can_invite_to_a_channel(ep: Episode) -> None:
    private = channel(ep, "leadership")
    insider = members_of(ep, private["id"])[0]
    outsider = outsider_of(ep, private["id"])
    another = next(
        m["id"]
        for m in ok(ep, "list_members", limit=100)["items"]
        if m["id"] not in {*members_of(ep, private["id"]), outsider}
    )
    refused(
        ep,
        "invite_to_channel",
        "rule_violation",
        "member_id",
        channel_id=private["id"],
        member_id=outsider,
        invitee_id=another,
    )
    ok(ep, "invite_to_channel", channel_id=private["id"], member_id=insider, invitee_id=outsider)
    assert outsider in members_of(ep, private["id"])
    refused(
        ep,
        "invite_to_channel",
        "conflict",
        "invitee_id",
        channel_id=private["id"],
        member_id=insider,
        invitee_id=outsider,
    )


def test_nobody_can_leave_or_be_removed_from_general(ep: Episode) -> None:
    gen = general(ep)
    a, b = members_of(ep, gen["id"])[:2]
    refused(ep, "leave_channel", "rule_violation", "channel_id", channel_id=gen["id"], member_id=a)
    refused(
        ep,
        "remove_from_channel",
        "rule_violation",
        "channel_id",
        channel_id=gen["id"],
        member_id=a,
        removed_member_id=b,
    )


def test_the_last_member_of_a_private_channel_cannot_leave(ep: Episode) -> None:
    me, you = member(ep, 0), member(ep, 1)
    ch = new_channel(ep, me, "tiny-team", private=True)
    ok(ep, "invite_to_channel", channel_id=ch["id"], member_id=me, invitee_id=you)
    ok(ep, "leave_channel", channel_id=ch["id"], member_id=you)
    refused(ep, "leave_channel", "rule_violation", "member_id", channel_id=ch["id"], member_id=me)
    refused(ep, "leave_channel", "rule_violation", "member_id", channel_id=ch["id"], member_id=you)


def test_removing_someone_needs_a_member_or_admin_and_not_oneself(ep: Episode) -> None:
    me, you = member(ep, 1), member(ep, 2)
    ch = new_channel(ep, me, "pairing")
    ok(ep, "join_channel", channel_id=ch["id"], member_id=you)
    refused(
        ep,
        "remove_from_channel",
        "rule_violation",
        "removed_member_id",
        channel_id=ch["id"],
        member_id=me,
        removed_member_id=me,
    )
    before = ep.snapshot()
    ok(ep, "remove_from_channel", channel_id=ch["id"], member_id=me, removed_member_id=you)
    assert ep.diff(before).counts() == {"chat.memberships": {"added": 0, "updated": 0, "removed": 1}}


def test_general_cannot_be_archived_and_nothing_changes(ep: Episode) -> None:
    gen = general(ep)
    refused(ep, "archive_channel", "rule_violation", "channel_id", channel_id=gen["id"], member_id=gen["creator_id"])


def test_an_archived_channel_takes_no_posts_until_unarchived(ep: Episode) -> None:
    me = member(ep, 0)
    ch = new_channel(ep, me, "short-lived")
    archived = ok(ep, "archive_channel", channel_id=ch["id"], member_id=me)
    assert archived["is_archived"] is True
    refused(ep, "archive_channel", "rule_violation", "channel_id", channel_id=ch["id"], member_id=me)
    refused(ep, "post_message", "rule_violation", "channel_id", channel_id=ch["id"], member_id=me, text="Hello?")
    refused(ep, "update_channel", "rule_violation", "channel_id", channel_id=ch["id"], topic="New topic")
    ok(ep, "unarchive_channel", channel_id=ch["id"], member_id=me)
    ok(ep, "post_message", channel_id=ch["id"], member_id=me, text="We're back.")


def test_posting_in_a_seeded_archived_channel_is_refused_and_changes_nothing(ep: Episode) -> None:
    ch = channel(ep, "offsite-2025")
    assert ch["is_archived"]
    author = members_of(ep, ch["id"])[0]
    refused(ep, "post_message", "rule_violation", "channel_id", channel_id=ch["id"], member_id=author, text="Hi")


def test_only_the_creator_or_an_admin_can_rename_a_channel(ep: Episode) -> None:
    creator, other = member(ep, 1), member(ep, 2)
    admin = ok(ep, "list_members", is_admin=True)["items"][0]["id"]
    ch = new_channel(ep, creator, "old-name")
    refused(ep, "rename_channel", "rule_violation", "member_id", channel_id=ch["id"], member_id=other, name="x-name")
    refused(ep, "rename_channel", "conflict", "name", channel_id=ch["id"], member_id=creator, name="random")
    assert ok(ep, "rename_channel", channel_id=ch["id"], member_id=creator, name="new-name")["name"] == "new-name"
    assert ok(ep, "rename_channel", channel_id=ch["id"], member_id=admin, name="admin-name")["name"] == "admin-name"


def test_direct_messages_are_reused_and_cannot_be_archived_or_joined(ep: Episode) -> None:
    a, b, c = member(ep, 0), member(ep, 1), member(ep, 2)
    dm = ok(ep, "open_direct_message", member_id=a, other_member_id=b)
    assert dm["kind"] == "dm" and dm["name"] is None
    assert ok(ep, "open_direct_message", member_id=b, other_member_id=a)["id"] == dm["id"]
    refused(ep, "archive_channel", "rule_violation", "channel_id", channel_id=dm["id"], member_id=a)
    refused(ep, "join_channel", "rule_violation", "channel_id", channel_id=dm["id"], member_id=c)
    refused(ep, "post_message", "rule_violation", "member_id", channel_id=dm["id"], member_id=c, text="Hi")
    ok(ep, "post_message", channel_id=dm["id"], member_id=b, text="Hi!")
    assert {ch["id"] for ch in ok(ep, "list_member_channels", member_id=a)} >= {dm["id"]}


# -- messages -----------------------------------------------------------------------------


def test_only_members_post_to_a_private_channel(ep: Episode) -> None:
    ch = channel(ep, "leadership")
    outsider = outsider_of(ep, ch["id"])
    refused(ep, "post_message", "rule_violation", "member_id", channel_id=ch["id"], member_id=outsider, text="Hi")
    insider = members_of(ep, ch["id"])[0]
    msg = ok(ep, "post_message", channel_id=ch["id"], member_id=insider, text="Board deck v2 is up.")
    assert msg["author_id"] == insider and msg["thread_parent_id"] is None
    assert [m["id"] for m in ep.diff().tables["chat.messages"].added] == [msg["id"]]


def test_blank_messages_are_refused(ep: Episode) -> None:
    gen = general(ep)
    refused(ep, "post_message", "rule_violation", "text", channel_id=gen["id"], member_id=gen["creator_id"], text="  ")


def test_a_thread_reply_updates_the_parents_reply_count(ep: Episode) -> None:
    gen = general(ep)
    a, b = members_of(ep, gen["id"])[:2]
    parent = ok(ep, "post_message", channel_id=gen["id"], member_id=a, text="Lunch poll?")
    reply = ok(ep, "post_message", channel_id=gen["id"], member_id=b, text="Pizza", thread_parent_id=parent["id"])
    thread = ok(ep, "get_thread", message_id=reply["id"])
    assert thread["parent"]["reply_count"] == 1
    assert thread["parent"]["latest_reply_at"] == reply["posted_at"]
    assert [r["id"] for r in thread["replies"]] == [reply["id"]]
    refused(
        ep,
        "post_message",
        "rule_violation",
        "thread_parent_id",
        channel_id=gen["id"],
        member_id=a,
        text="Sushi",
        thread_parent_id=reply["id"],
    )
    other = channel(ep, "random")
    refused(
        ep,
        "post_message",
        "rule_violation",
        "thread_parent_id",
        channel_id=other["id"],
        member_id=members_of(ep, other["id"])[0],
        text="Tacos",
        thread_parent_id=parent["id"],
    )


def test_only_the_author_can_edit_a_message(ep: Episode) -> None:
    gen = general(ep)
    a, b = members_of(ep, gen["id"])[:2]
    msg = ok(ep, "post_message", channel_id=gen["id"], member_id=a, text="Meeting at 3")
    message = refused(ep, "update_message", "rule_violation", "member_id", message_id=msg["id"], member_id=b, text="4")
    assert "author" in message
    edited = ok(ep, "update_message", message_id=msg["id"], member_id=a, text="Meeting at 4")
    assert edited["text"] == "Meeting at 4" and edited["edited_at"] is not None


def test_only_the_author_can_delete_a_message_and_it_takes_its_thread_reactions_and_pin(ep: Episode) -> None:
    gen = general(ep)
    a, b = members_of(ep, gen["id"])[:2]
    msg = ok(ep, "post_message", channel_id=gen["id"], member_id=a, text="Release notes")
    ok(ep, "post_message", channel_id=gen["id"], member_id=b, text="Nice", thread_parent_id=msg["id"])
    ok(ep, "add_reaction", message_id=msg["id"], member_id=b, name="tada")
    ok(ep, "pin_message", message_id=msg["id"], member_id=b)
    refused(ep, "delete_message", "rule_violation", "member_id", message_id=msg["id"], member_id=b)
    ok(ep, "delete_message", message_id=msg["id"], member_id=a)
    assert ep.diff().is_empty  # everything the test added is gone again


def test_deleting_a_reply_lowers_the_reply_count(ep: Episode) -> None:
    gen = general(ep)
    a, b = members_of(ep, gen["id"])[:2]
    parent = ok(ep, "post_message", channel_id=gen["id"], member_id=a, text="Question")
    reply = ok(ep, "post_message", channel_id=gen["id"], member_id=b, text="Answer", thread_parent_id=parent["id"])
    ok(ep, "delete_message", message_id=reply["id"], member_id=b)
    after = ok(ep, "get_message", message_id=parent["id"])
    assert after["reply_count"] == 0 and after["latest_reply_at"] is None


# -- reactions and pins -------------------------------------------------------------------


def test_a_member_reacts_with_each_emoji_once(ep: Episode) -> None:
    gen = general(ep)
    a = members_of(ep, gen["id"])[0]
    msg = ok(ep, "post_message", channel_id=gen["id"], member_id=a, text="Shipped!")
    ok(ep, "add_reaction", message_id=msg["id"], member_id=a, name="rocket")
    refused(ep, "add_reaction", "conflict", "name", message_id=msg["id"], member_id=a, name="rocket")
    refused(ep, "remove_reaction", "not_found", "name", message_id=msg["id"], member_id=a, name="tada")
    ok(ep, "remove_reaction", message_id=msg["id"], member_id=a, name="rocket")
    assert ok(ep, "list_reactions", message_id=msg["id"])["items"] == []


def test_a_message_carries_at_most_23_different_emoji(ep: Episode) -> None:
    gen = general(ep)
    a, b = members_of(ep, gen["id"])[:2]
    msg = ok(ep, "post_message", channel_id=gen["id"], member_id=a, text="React away")
    for i in range(23):
        ok(ep, "add_reaction", message_id=msg["id"], member_id=a, name=f"emoji_{i}")
    refused(ep, "add_reaction", "rule_violation", "name", message_id=msg["id"], member_id=b, name="one_too_many")
    ok(ep, "add_reaction", message_id=msg["id"], member_id=b, name="emoji_0")  # an emoji already there is fine


def test_reactions_in_private_channels_need_membership(ep: Episode) -> None:
    ch = channel(ep, "leadership")
    insider = members_of(ep, ch["id"])[0]
    msg = ok(ep, "post_message", channel_id=ch["id"], member_id=insider, text="Agenda")
    outsider = outsider_of(ep, ch["id"])
    refused(ep, "add_reaction", "rule_violation", "member_id", message_id=msg["id"], member_id=outsider, name="eyes")


def test_pins_need_membership_and_a_message_is_pinned_once(ep: Episode) -> None:
    ch = channel(ep, "random")
    insider = members_of(ep, ch["id"])[0]
    msg = ok(ep, "post_message", channel_id=ch["id"], member_id=insider, text="Office wifi password rotates Monday")
    refused(ep, "pin_message", "rule_violation", "member_id", message_id=msg["id"], member_id=outsider_of(ep, ch["id"]))
    pin = ok(ep, "pin_message", message_id=msg["id"], member_id=insider)
    assert pin["channel_id"] == ch["id"] and pin["pinned_by"] == insider
    refused(ep, "pin_message", "conflict", "message_id", message_id=msg["id"], member_id=insider)
    ok(ep, "unpin_message", message_id=msg["id"], member_id=insider)
    refused(ep, "unpin_message", "not_found", "message_id", message_id=msg["id"], member_id=insider)


def test_archived_channels_take_no_reactions_or_pins(ep: Episode) -> None:
    ch = channel(ep, "offsite-2025")
    msg = ok(ep, "list_messages", channel_id=ch["id"])["items"][0]
    insider = members_of(ep, ch["id"])[0]
    refused(ep, "add_reaction", "rule_violation", "message_id", message_id=msg["id"], member_id=insider, name="eyes")
    refused(ep, "pin_message", "rule_violation", "message_id", message_id=msg["id"], member_id=insider)
    refused(
        ep, "update_message", "rule_violation", "message_id", message_id=msg["id"], member_id=msg["author_id"], text="x"
    )


# -- the seeded workspace -----------------------------------------------------------------


def test_every_employee_is_a_member_and_in_general(ep: Episode) -> None:
    members = ok(ep, "list_members", limit=100)["items"]
    assert {m["email"] for m in members} == {p.email for p in POP.employees}
    assert {m["real_name"] for m in members} == {p.name for p in POP.employees}
    assert sorted(members_of(ep, general(ep)["id"])) == sorted(m["id"] for m in members)
    kinds = {c["kind"] for c in ok(ep, "list_channels", limit=100)["items"]}
    assert kinds == {"public", "private", "dm"}
