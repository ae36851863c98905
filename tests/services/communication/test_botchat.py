"""Kestrel Bots: who a bot may write to, edits and deletes, pins, member moderation, invite links, updates."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BOT = ServiceTools("botchat")
WORLD = BOT.world
ok, refused, every = BOT.ok, BOT.refused, BOT.every
POP = WORLD.population


def bot_named(ep: Episode, word: str) -> dict[str, Any]:
    return next(b for b in every(ep, "list_bots") if word in b["username"])


def chat_titled(ep: Episode, word: str) -> dict[str, Any]:
    return next(c for c in every(ep, "list_chats") if c["title"] and word in c["title"])


def private_chat(ep: Episode, bot: dict[str, Any], status: str = "member") -> dict[str, Any]:
    return every(ep, "list_chats", bot_id=bot["id"], type="private", bot_status=status)[0]


def member(ep: Episode, chat: dict[str, Any], status: str) -> dict[str, Any]:
    return every(ep, "list_chat_members", chat_id=chat["id"], status=status)[0]


def stranger(ep: Episode, chat: dict[str, Any]) -> str:
    """A user with no membership of the chat and no join request for it."""
    known = {m["user_id"] for m in every(ep, "list_chat_members", chat_id=chat["id"])}
    known |= {r["user_id"] for r in every(ep, "list_join_requests", chat_id=chat["id"])}
    return str(next(u["id"] for u in every(ep, "list_users") if u["id"] not in known))


def ago(**delta: float) -> dt.datetime:
    return WORLD.epoch - dt.timedelta(**delta)


def at(when: dt.datetime) -> str:
    return when.isoformat()


def parse(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


# -- the world --------------------------------------------------------------------------------


def test_seeded_users_are_the_populations_people_and_bots_belong_to_staff() -> None:
    ep = Episode(WORLD)
    by_name = {(p.first_name, p.last_name): p for p in POP.people}
    by_first = {(p.first_name, p.phone) for p in POP.people}
    for user in every(ep, "list_users"):
        if user["last_name"] is not None:
            person = by_name[(user["first_name"], user["last_name"])]
            assert user["phone_number"] in (None, person.phone)
            assert user["language_code"] == person.place.language
        elif user["phone_number"] is not None:
            assert (user["first_name"], user["phone_number"]) in by_first
    staff = {p.email for p in POP.employees}
    assert all(b["owner_email"] in staff for b in every(ep, "list_bots"))
    chats = every(ep, "list_chats")
    assert {c["type"] for c in chats} == {"private", "group", "supergroup", "channel"}
    assert {c["bot_status"] for c in chats} == {"member", "administrator", "left", "kicked"}
    statuses = {m["status"] for m in every(ep, "list_chat_members")}
    assert statuses == {"creator", "administrator", "member", "restricted", "left", "kicked"}
    users = {u["id"]: u for u in every(ep, "list_users")}
    for chat in every(ep, "list_chats", type="private"):
        user = users[chat["user_id"]]
        assert (chat["first_name"], chat["last_name"], chat["username"]) == (
            user["first_name"],
            user["last_name"],
            user["username"],
        )
    for msg in every(ep, "list_messages"):
        assert (msg["from_user_id"] is None) == (msg["sender_type"] != "user")
        assert msg["from_user_id"] is None or msg["from_user_id"] in users


# -- who the bot may write to -----------------------------------------------------------------


def test_a_bot_writes_only_to_users_who_started_it_and_did_not_block_it(ep: Episode) -> None:
    support = bot_named(ep, "Support")
    chat = private_chat(ep, support)
    sent = ok(ep, "send_message", chat_id=chat["id"], text="  Your parcel is on its way.  ")
    assert (sent["sender_type"], sent["text"], sent["from_user_id"]) == ("bot", "Your parcel is on its way.", None)
    blocked = private_chat(ep, support, "kicked")
    refused(ep, "send_message", "rule_violation", "chat_id", chat_id=blocked["id"], text="Hello?")
    refused(
        ep,
        "send_media_message",
        "rule_violation",
        "chat_id",
        chat_id=blocked["id"],
        media_type="photo",
        file_name="a.jpg",
        file_size=1000,
    )
    refused(ep, "send_message", "rule_violation", "text", chat_id=chat["id"], text="   ")
    refused(ep, "send_message", "rule_violation", "text", chat_id=chat["id"], text="x" * 4097)
    assert ok(ep, "send_message", chat_id=chat["id"], text="x" * 4096)["text"] == "x" * 4096


def test_a_user_starts_the_bot_with_start_and_blocking_it_stops_the_bot(ep: Episode) -> None:
    orders = bot_named(ep, "Orders")
    started = {c["user_id"] for c in every(ep, "list_chats", bot_id=orders["id"], type="private")}
    user = next(u["id"] for u in every(ep, "list_users") if u["id"] not in started)
    refused(ep, "receive_message", "rule_violation", "text", bot_id=orders["id"], user_id=user, text="hello")
    hello = ok(ep, "receive_message", bot_id=orders["id"], user_id=user, text="/start")
    chat = hello["chat"]
    assert (chat["type"], chat["user_id"], chat["bot_status"]) == ("private", user, "member")
    assert chat["first_name"] == ok(ep, "get_user", user_id=user)["first_name"]
    assert hello["update"]["status"] == "pending" and hello["update"]["message_id"] == hello["message"]["id"]
    ok(ep, "send_message", chat_id=chat["id"], text="Welcome!")
    assert ok(ep, "block_bot", bot_id=orders["id"], user_id=user)["bot_status"] == "kicked"
    refused(ep, "block_bot", "conflict", "user_id", bot_id=orders["id"], user_id=user)
    refused(ep, "send_message", "rule_violation", "chat_id", chat_id=chat["id"], text="Still there?")
    refused(ep, "receive_message", "rule_violation", "text", bot_id=orders["id"], user_id=user, text="hi again")
    back = ok(ep, "receive_message", bot_id=orders["id"], user_id=user, text="/start")
    assert back["chat"]["id"] == chat["id"] and back["chat"]["bot_status"] == "member"
    ok(ep, "send_message", chat_id=chat["id"], text="Welcome back!")


def test_a_bot_must_be_in_a_group_and_may_post_to_a_channel_only_as_a_posting_admin(ep: Episode) -> None:
    left = chat_titled(ep, "Launch week")
    refused(ep, "send_message", "rule_violation", "chat_id", chat_id=left["id"], text="Anyone here?")
    news = chat_titled(ep, "News")
    assert ok(ep, "send_message", chat_id=news["id"], text="New arrivals today.")["chat_id"] == news["id"]
    beta = chat_titled(ep, "Beta")
    assert ok(ep, "send_message", chat_id=beta["id"], text="Build 2.5 is out.")["sender_type"] == "bot"


def test_media_respects_upload_limits_and_stickers_take_no_caption(ep: Episode) -> None:
    chat = private_chat(ep, bot_named(ep, "Support"))
    args = {"chat_id": chat["id"], "file_name": "label.pdf"}
    refused(ep, "send_media_message", "rule_violation", "file_size", media_type="photo", file_size=10_000_001, **args)
    refused(
        ep,
        "send_media_message",
        "rule_violation",
        "caption",
        media_type="sticker",
        file_size=1000,
        caption="hi",
        **args,
    )
    refused(
        ep,
        "send_media_message",
        "rule_violation",
        "caption",
        media_type="document",
        file_size=1000,
        caption="c" * 1025,
        **args,
    )
    doc = ok(ep, "send_media_message", media_type="document", file_size=50_000_000, caption="Your label", **args)
    assert (doc["kind"], doc["file_size"], doc["text"]) == ("document", 50_000_000, "Your label")


# -- privacy mode and what users may write ----------------------------------------------------


def test_privacy_mode_hides_group_chatter_from_a_bot_that_is_not_an_admin(ep: Episode) -> None:
    community_bot = bot_named(ep, "Community")
    beta = chat_titled(ep, "Beta")
    user = member(ep, beta, "member")["user_id"]
    args = {"bot_id": community_bot["id"], "user_id": user, "chat_id": beta["id"]}
    before = ep.state_hash()
    unseen = ok(ep, "receive_message", text="Anyone tried the new build?", **args)
    assert (unseen["delivered_to_bot"], unseen["message"]) == (False, None) and ep.state_hash() == before
    command = ok(ep, "receive_message", text="/bugreport the app crashes on start", **args)
    assert command["delivered_to_bot"] and command["update"]["update_type"] == "message"
    mention = ok(ep, "receive_message", text=f"@{community_bot['username']} when is the next build?", **args)
    assert mention["delivered_to_bot"]
    community = chat_titled(ep, "Community")
    chatter = member(ep, community, "member")["user_id"]
    seen = ok(ep, "receive_message", bot_id=community_bot["id"], user_id=chatter, chat_id=community["id"], text="Hi!")
    assert seen["delivered_to_bot"], "an administrator bot sees every message"


def test_restricted_banned_and_departed_members_cannot_write(ep: Episode) -> None:
    community_bot = bot_named(ep, "Community")
    community = chat_titled(ep, "Community")
    args = {"bot_id": community_bot["id"], "chat_id": community["id"], "text": "/help"}
    for status in ("restricted", "kicked", "left"):
        refused(
            ep, "receive_message", "rule_violation", "user_id", user_id=member(ep, community, status)["user_id"], **args
        )
    news = chat_titled(ep, "News")
    reader = member(ep, news, "member")["user_id"]
    refused(
        ep,
        "receive_message",
        "rule_violation",
        "user_id",
        bot_id=community_bot["id"],
        user_id=reader,
        chat_id=news["id"],
        text="Nice post",
    )
    admin = member(ep, news, "administrator")["user_id"]
    post = ok(ep, "receive_message", bot_id=community_bot["id"], user_id=admin, chat_id=news["id"], text="Sale!")
    assert (post["message"]["sender_type"], post["update"]["update_type"]) == ("channel", "channel_post")


# -- edits and deletes ------------------------------------------------------------------------


def test_a_bot_edits_only_its_own_text_messages_and_only_with_a_change(ep: Episode) -> None:
    chat = private_chat(ep, bot_named(ep, "Support"))
    mine = ok(ep, "send_message", chat_id=chat["id"], text="Your order ships Monday.")
    refused(ep, "edit_message_text", "rule_violation", "text", message_id=mine["id"], text="Your order ships Monday.")
    edited = ok(ep, "edit_message_text", message_id=mine["id"], text="Your order ships Tuesday.")
    assert edited["text"] == "Your order ships Tuesday." and edited["edit_date"] is not None
    theirs = every(ep, "list_messages", chat_id=chat["id"], sender_type="user")[0]
    refused(ep, "edit_message_text", "rule_violation", "message_id", message_id=theirs["id"], text="changed")
    doc = every(ep, "list_messages", sender_type="bot", kind="document")[0]
    refused(ep, "edit_message_text", "rule_violation", "message_id", message_id=doc["id"], text="changed")


def test_messages_can_be_deleted_only_within_48_hours(ep: Episode) -> None:
    chat = private_chat(ep, bot_named(ep, "Support"))
    msgs = every(ep, "list_messages", chat_id=chat["id"])
    old = next(m for m in msgs if parse(m["date"]) < ago(hours=48))
    refused(ep, "delete_message", "rule_violation", "message_id", message_id=old["id"])
    fresh = ok(ep, "send_message", chat_id=chat["id"], text="Oops, wrong chat.")
    assert ok(ep, "delete_message", message_id=fresh["id"]) == {"id": fresh["id"], "deleted": True}
    assert all(m["id"] != fresh["id"] for m in every(ep, "list_messages", chat_id=chat["id"]))
    service_notice = every(ep, "list_messages", kind="service")[0]
    refused(ep, "delete_message", "rule_violation", "message_id", message_id=service_notice["id"])


def test_deleting_others_messages_needs_the_delete_right_outside_private_chats(ep: Episode) -> None:
    community_bot = bot_named(ep, "Community")
    beta = chat_titled(ep, "Beta")
    user = member(ep, beta, "member")["user_id"]
    said = ok(ep, "receive_message", bot_id=community_bot["id"], user_id=user, chat_id=beta["id"], text="/spam link")
    refused(ep, "delete_message", "rule_violation", "message_id", message_id=said["message"]["id"])
    community = chat_titled(ep, "Community")
    chatter = member(ep, community, "member")["user_id"]
    spam = ok(ep, "receive_message", bot_id=community_bot["id"], user_id=chatter, chat_id=community["id"], text="BUY")
    ok(ep, "delete_message", message_id=spam["message"]["id"])
    support_chat = private_chat(ep, bot_named(ep, "Support"))
    theirs = ok(ep, "receive_message", bot_id=support_chat["bot_id"], user_id=support_chat["user_id"], text="typo")
    ok(ep, "delete_message", message_id=theirs["message"]["id"])


# -- pins and forwards ------------------------------------------------------------------------


def test_pinning_needs_the_pin_right_in_groups_and_the_edit_right_in_channels(ep: Episode) -> None:
    beta = chat_titled(ep, "Beta")
    beta_post = next(m for m in every(ep, "list_messages", chat_id=beta["id"]) if m["kind"] != "service")
    refused(ep, "pin_message", "rule_violation", "message_id", message_id=beta_post["id"])
    community = chat_titled(ep, "Community")
    posts = [m for m in every(ep, "list_messages", chat_id=community["id"]) if m["kind"] != "service"]
    target = next(m for m in posts if not m["is_pinned"])
    assert ok(ep, "pin_message", message_id=target["id"])["is_pinned"] is True
    refused(ep, "pin_message", "rule_violation", "message_id", message_id=target["id"])
    notice = next(m for m in every(ep, "list_messages", chat_id=community["id"]) if m["kind"] == "service")
    refused(ep, "pin_message", "rule_violation", "message_id", message_id=notice["id"])
    news = chat_titled(ep, "News")
    pinned = every(ep, "list_messages", chat_id=news["id"], is_pinned=True)[0]
    assert ok(ep, "unpin_message", message_id=pinned["id"])["is_pinned"] is False
    refused(ep, "unpin_message", "rule_violation", "message_id", message_id=pinned["id"])


def test_protected_content_cannot_be_forwarded(ep: Episode) -> None:
    deals = chat_titled(ep, "VIP")
    community = chat_titled(ep, "Community")
    secret = next(m for m in every(ep, "list_messages", chat_id=deals["id"]) if m["kind"] != "service")
    refused(
        ep,
        "forward_message",
        "rule_violation",
        "from_chat_id",
        from_chat_id=deals["id"],
        message_id=secret["id"],
        chat_id=community["id"],
    )
    news = chat_titled(ep, "News")
    post = next(m for m in every(ep, "list_messages", chat_id=news["id"]) if m["kind"] != "service")
    fwd = ok(ep, "forward_message", from_chat_id=news["id"], message_id=post["id"], chat_id=community["id"])
    assert (fwd["forward_from_chat_id"], fwd["text"], fwd["chat_id"]) == (news["id"], post["text"], community["id"])
    other_bot_chat = private_chat(ep, bot_named(ep, "Support"))
    refused(
        ep,
        "forward_message",
        "rule_violation",
        "chat_id",
        from_chat_id=news["id"],
        message_id=post["id"],
        chat_id=other_bot_chat["id"],
    )


# -- moderation -------------------------------------------------------------------------------


def test_banning_needs_the_restrict_right_and_spares_the_owner_and_foreign_admins(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    args = {"chat_id": community["id"]}
    owner = member(ep, community, "creator")["user_id"]
    refused(ep, "ban_chat_member", "rule_violation", "user_id", user_id=owner, **args)
    admins = every(ep, "list_chat_members", chat_id=community["id"], status="administrator")
    foreign = next(a for a in admins if not a["can_be_edited"])
    refused(ep, "ban_chat_member", "rule_violation", "user_id", user_id=foreign["user_id"], **args)
    user = member(ep, community, "member")["user_id"]
    forever = ok(ep, "ban_chat_member", user_id=user, until_date=at(WORLD.epoch + dt.timedelta(seconds=10)), **args)
    assert (forever["status"], forever["until_date"]) == ("kicked", None)
    refused(ep, "ban_chat_member", "conflict", "user_id", user_id=user, **args)
    other = every(ep, "list_chat_members", chat_id=community["id"], status="member")[1]["user_id"]
    until = WORLD.epoch + dt.timedelta(days=2)
    timed = ok(ep, "ban_chat_member", user_id=other, until_date=at(until), **args)
    assert parse(timed["until_date"]) == until
    deals = chat_titled(ep, "VIP")
    refused(
        ep,
        "ban_chat_member",
        "rule_violation",
        "chat_id",
        chat_id=deals["id"],
        user_id=member(ep, deals, "member")["user_id"],
    )


def test_unban_lets_the_user_rejoin_but_only_in_supergroups_and_channels(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    banned = member(ep, community, "kicked")["user_id"]
    link = next(x for x in every(ep, "list_invite_links", chat_id=community["id"]) if x["name"] == "Spring campaign")
    refused(ep, "join_chat", "rule_violation", "user_id", invite_link_id=link["id"], user_id=banned)
    assert ok(ep, "unban_chat_member", chat_id=community["id"], user_id=banned)["status"] == "left"
    joined = ok(ep, "join_chat", invite_link_id=link["id"], user_id=banned)
    assert joined["member"]["status"] == "member" and joined["join_request"] is None
    assert (
        ok(ep, "unban_chat_member", chat_id=community["id"], user_id=banned, only_if_banned=True)["status"] == "member"
    )
    assert ok(ep, "unban_chat_member", chat_id=community["id"], user_id=banned)["status"] == "left"
    beta = chat_titled(ep, "Beta")
    refused(
        ep,
        "unban_chat_member",
        "rule_violation",
        "chat_id",
        chat_id=beta["id"],
        user_id=member(ep, beta, "member")["user_id"],
    )


def test_restrictions_apply_to_supergroup_members_and_lift_when_everything_is_allowed(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    user = member(ep, community, "member")["user_id"]
    args = {"chat_id": community["id"], "user_id": user}
    muted = ok(ep, "restrict_chat_member", can_send_messages=False, can_send_media=False, **args)
    assert (muted["status"], muted["can_send_messages"]) == ("restricted", False)
    bot = bot_named(ep, "Community")["id"]
    refused(ep, "receive_message", "rule_violation", "user_id", bot_id=bot, text="hey", **args)
    freed = ok(ep, "restrict_chat_member", can_send_messages=True, can_send_media=True, **args)
    assert (freed["status"], freed["until_date"]) == ("member", None)
    ok(ep, "receive_message", bot_id=bot, text="thanks", **args)
    admin = member(ep, community, "administrator")["user_id"]
    refused(
        ep,
        "restrict_chat_member",
        "rule_violation",
        "user_id",
        chat_id=community["id"],
        user_id=admin,
        can_send_messages=False,
        can_send_media=False,
    )
    news = chat_titled(ep, "News")
    refused(
        ep,
        "restrict_chat_member",
        "rule_violation",
        "chat_id",
        chat_id=news["id"],
        user_id=member(ep, news, "member")["user_id"],
        can_send_messages=False,
        can_send_media=False,
    )


def test_a_bot_grants_only_rights_it_has_and_may_then_act_on_its_admins(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    user = member(ep, community, "member")["user_id"]
    args = {"chat_id": community["id"], "user_id": user}
    refused(ep, "promote_chat_member", "rule_violation", "rights", rights=["can_post_messages"], **args)
    made = ok(ep, "promote_chat_member", rights=["can_delete_messages", "can_pin_messages"], **args)
    assert (made["status"], made["rights"], made["can_be_edited"]) == (
        "administrator",
        ["can_delete_messages", "can_pin_messages"],
        True,
    )
    demoted = ok(ep, "promote_chat_member", rights=[], **args)
    assert (demoted["status"], demoted["rights"]) == ("member", [])
    refused(ep, "promote_chat_member", "conflict", "user_id", rights=[], **args)
    deals = chat_titled(ep, "VIP")
    refused(
        ep,
        "promote_chat_member",
        "rule_violation",
        "chat_id",
        chat_id=deals["id"],
        user_id=member(ep, deals, "member")["user_id"],
        rights=["can_pin_messages"],
    )


def test_the_bot_leaves_a_group_and_loses_its_rights(ep: Episode) -> None:
    refused(ep, "leave_chat", "rule_violation", "chat_id", chat_id=private_chat(ep, bot_named(ep, "Support"))["id"])
    community = chat_titled(ep, "Community")
    gone = ok(ep, "leave_chat", chat_id=community["id"])
    assert (gone["bot_status"], gone["bot_rights"]) == ("left", [])
    refused(ep, "leave_chat", "rule_violation", "chat_id", chat_id=community["id"])
    refused(ep, "send_message", "rule_violation", "chat_id", chat_id=community["id"], text="bye")
    refused(ep, "create_chat_invite_link", "rule_violation", "chat_id", chat_id=community["id"])


def test_chat_info_changes_need_the_change_info_right(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    renamed = ok(ep, "update_chat", chat_id=community["id"], title="Community Lounge")
    assert renamed["title"] == "Community Lounge"
    refused(ep, "update_chat", "rule_violation", "chat_id", chat_id=chat_titled(ep, "News")["id"], title="Press")
    refused(ep, "update_chat", "rule_violation", "chat_id", chat_id=chat_titled(ep, "Beta")["id"], description="x")


# -- invite links and join requests -----------------------------------------------------------


def test_invite_link_rules(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    args = {"chat_id": community["id"]}
    refused(
        ep,
        "create_chat_invite_link",
        "rule_violation",
        "member_limit",
        member_limit=10,
        creates_join_request=True,
        **args,
    )
    refused(ep, "create_chat_invite_link", "rule_violation", "expire_date", expire_date=at(ago(hours=1)), **args)
    link = ok(ep, "create_chat_invite_link", name="Meetup", member_limit=1, **args)
    assert link["invite_link"].startswith("https://kst.me/+") and link["creator_user_id"] is None
    first = stranger(ep, community)
    ok(ep, "join_chat", invite_link_id=link["id"], user_id=first)
    second = stranger(ep, community)
    refused(ep, "join_chat", "rule_violation", "invite_link_id", invite_link_id=link["id"], user_id=second)
    links = {x["name"]: x for x in every(ep, "list_invite_links", chat_id=community["id"])}
    refused(ep, "join_chat", "conflict", "user_id", invite_link_id=links["Spring campaign"]["id"], user_id=first)
    for dead in ("Fair booth", "Winter promo", "Old flyer"):
        refused(ep, "join_chat", "rule_violation", "invite_link_id", invite_link_id=links[dead]["id"], user_id=second)
    refused(ep, "create_chat_invite_link", "rule_violation", "chat_id", chat_id=chat_titled(ep, "Beta")["id"])


def test_a_bot_revokes_its_own_links_and_the_primary_link_is_replaced(ep: Episode) -> None:
    community = chat_titled(ep, "Community")
    links = {x["name"]: x for x in every(ep, "list_invite_links", chat_id=community["id"])}
    refused(ep, "revoke_invite_link", "rule_violation", "invite_link_id", invite_link_id=links["Partner forum"]["id"])
    gone = ok(ep, "revoke_invite_link", invite_link_id=links["Spring campaign"]["id"])
    assert gone["is_revoked"] is True
    refused(ep, "revoke_invite_link", "rule_violation", "invite_link_id", invite_link_id=gone["id"])
    primary = every(ep, "list_invite_links", chat_id=community["id"], is_primary=True)[0]
    old = ok(ep, "revoke_invite_link", invite_link_id=primary["id"])
    assert (old["is_revoked"], old["is_primary"]) == (True, False)
    new = every(ep, "list_invite_links", chat_id=community["id"], is_primary=True)
    assert len(new) == 1 and new[0]["id"] != primary["id"] and not new[0]["is_revoked"]


def test_an_approval_link_makes_join_requests_that_the_bot_approves_or_declines(ep: Episode) -> None:
    deals = chat_titled(ep, "VIP")
    link = next(x for x in every(ep, "list_invite_links", chat_id=deals["id"]) if x["creates_join_request"])
    user = stranger(ep, deals)
    asked = ok(ep, "join_chat", invite_link_id=link["id"], user_id=user)
    assert asked["member"] is None and asked["join_request"]["status"] == "pending"
    refused(ep, "join_chat", "conflict", "user_id", invite_link_id=link["id"], user_id=user)
    pending = every(ep, "list_join_requests", chat_id=deals["id"], status="pending")
    approved = ok(ep, "approve_join_request", join_request_id=asked["join_request"]["id"])
    assert approved["status"] == "approved" and approved["decided_at"] is not None
    assert every(ep, "list_chat_members", chat_id=deals["id"], user_id=user)[0]["status"] == "member"
    after = next(x for x in every(ep, "list_invite_links", chat_id=deals["id"]) if x["id"] == link["id"])
    assert (after["member_count"], after["pending_join_request_count"]) == (
        link["member_count"] + 1,
        len(pending) - 1,
    )
    refused(ep, "decline_join_request", "rule_violation", "join_request_id", join_request_id=approved["id"])
    other = next(r for r in pending if r["user_id"] != user)
    assert ok(ep, "decline_join_request", join_request_id=other["id"])["status"] == "declined"
    assert every(ep, "list_chat_members", chat_id=deals["id"], user_id=other["user_id"]) == []


# -- updates and webhooks ---------------------------------------------------------------------


def test_get_updates_confirms_below_the_offset_and_skips_updates_older_than_a_day(ep: Episode) -> None:
    orders = bot_named(ep, "Orders")
    pending = ok(ep, "get_updates", bot_id=orders["id"])
    assert pending and all(ago(hours=24) <= parse(u["date"]) for u in pending)
    ids = [u["update_id"] for u in pending]
    assert ids == sorted(ids)
    again = ok(ep, "get_updates", bot_id=orders["id"], offset=ids[0] + 1)
    assert [u["update_id"] for u in again] == ids[1:]
    assert ok(ep, "get_updates", bot_id=orders["id"], offset=ids[-1] + 1) == []
    refused(ep, "get_updates", "conflict", "bot_id", bot_id=bot_named(ep, "Support")["id"])


def test_a_webhook_needs_https_on_an_allowed_port_and_takes_over_from_polling(ep: Episode) -> None:
    orders = bot_named(ep, "Orders")
    refused(ep, "set_webhook", "rule_violation", "url", bot_id=orders["id"], url="http://hooks.example.com/tg")
    refused(ep, "set_webhook", "rule_violation", "url", bot_id=orders["id"], url="https://hooks.example.com:8080/tg")
    hooked = ok(ep, "set_webhook", bot_id=orders["id"], url="https://hooks.example.com:8443/tg")
    assert hooked["webhook_url"] == "https://hooks.example.com:8443/tg"
    refused(ep, "get_updates", "conflict", "bot_id", bot_id=orders["id"])
    chat = private_chat(ep, orders)
    pushed = ok(ep, "receive_message", bot_id=orders["id"], user_id=chat["user_id"], text="Any news?")
    assert pushed["update"]["status"] == "confirmed"
    ok(ep, "delete_webhook", bot_id=orders["id"])
    refused(ep, "delete_webhook", "conflict", "bot_id", bot_id=orders["id"])
    assert ok(ep, "get_updates", bot_id=orders["id"]) == []


def test_dropping_pending_updates_discards_them(ep: Episode) -> None:
    orders = bot_named(ep, "Orders")
    assert ok(ep, "get_updates", bot_id=orders["id"])
    ok(ep, "set_webhook", bot_id=orders["id"], url="https://hooks.example.com/tg", drop_pending_updates=True)
    ok(ep, "delete_webhook", bot_id=orders["id"])
    assert ok(ep, "get_updates", bot_id=orders["id"]) == []
