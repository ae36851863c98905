"""Guildhall: permissions and role hierarchy, moderation, slowmode, mentions, reactions, pins, threads, invites, webhooks."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.services.communication.guildchat import BITS, bits_of, names_of
from tests.services.helpers import ServiceTools

GC = ServiceTools("guildchat")
WORLD = GC.world
ok, refused, every = GC.ok, GC.refused, GC.every
POP = WORLD.population
HOME = POP.home.domain


def community(ep: Episode) -> dict[str, Any]:
    return next(g for g in every(ep, "list_guilds") if g["name"].endswith("Community"))


def partners(ep: Episode) -> dict[str, Any]:
    return next(g for g in every(ep, "list_guilds") if g["name"].endswith("Partners"))


def channel(ep: Episode, guild: dict[str, Any], name: str) -> dict[str, Any]:
    return every(ep, "list_channels", guild_id=guild["id"], name=name)[0]


def role(ep: Episode, guild: dict[str, Any], name: str) -> dict[str, Any]:
    return every(ep, "list_roles", guild_id=guild["id"], name=name)[0]


def holder(ep: Episode, guild: dict[str, Any], role_name: str) -> str:
    """The e-mail of the first member with the role."""
    rid = role(ep, guild, role_name)["id"]
    return str(next(m["email"] for m in every(ep, "list_members", guild_id=guild["id"]) if rid in m["role_ids"]))


def plain(ep: Episode, guild: dict[str, Any], n: int = 0) -> str:
    """The e-mail of the n-th member with no roles who is not timed out and not the owner."""
    found = [
        m["email"]
        for m in every(ep, "list_members", guild_id=guild["id"])
        if not m["role_ids"] and m["email"] != guild["owner_email"] and m["communication_disabled_until"] is None
    ]
    return str(found[n])


def outsider(ep: Episode, guild: dict[str, Any]) -> str:
    """A consumer who is neither a member nor banned."""
    inside = {m["email"] for m in every(ep, "list_members", guild_id=guild["id"])}
    banned = {b["email"] for b in every(ep, "list_bans", guild_id=guild["id"])}
    return next(p.email for p in POP.consumers if p.email not in inside | banned)


def later(**delta: float) -> str:
    return (WORLD.epoch + dt.timedelta(**delta)).isoformat()


# -- the world --------------------------------------------------------------------------------


def test_seeded_servers_are_made_of_the_population() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for g in every(ep, "list_guilds"):
        assert g["owner_email"].endswith("@" + HOME)
        mems = every(ep, "list_members", guild_id=g["id"])
        assert g["member_count"] == len(mems)
        staff_roles = {
            r["id"]
            for r in every(ep, "list_roles", guild_id=g["id"])
            if int(r["permissions"]) & BITS["MANAGE_MESSAGES"]
        }
        for m in mems:
            assert m["global_name"] == people[m["email"]].name
            if set(m["role_ids"]) & staff_roles:
                assert m["email"].endswith("@" + HOME), "only staff moderate"
        inside = {m["email"] for m in mems}
        for b in every(ep, "list_bans", guild_id=g["id"]):
            assert b["email"] in people and b["email"] not in inside
        for msg in every(ep, "list_messages", guild_id=g["id"]):
            assert (msg["webhook_id"] is None) == (msg["author_email"] is not None)
    c = community(ep)
    assert any(m["communication_disabled_until"] for m in every(ep, "list_members", guild_id=c["id"]))
    assert {t["status"] for t in every(ep, "list_threads")} == {"active", "archived", "locked"}


def test_role_bits_and_names_agree() -> None:
    ep = Episode(WORLD)
    for r in every(ep, "list_roles"):
        assert names_of(int(r["permissions"])) == tuple(r["permission_names"])
        assert bits_of(r["permission_names"]) == int(r["permissions"])
    everyone = [r for r in every(ep, "list_roles") if r["is_everyone"]]
    assert len(everyone) == 2 and all(r["position"] == 0 for r in everyone)


# -- permissions and channels -----------------------------------------------------------------


def test_only_members_with_manage_channels_create_channels(ep: Episode) -> None:
    g = community(ep)
    refused(ep, "create_channel", "rule_violation", "actor_email", guild_id=g["id"], actor_email=plain(ep, g), name="x")
    refused(
        ep, "create_channel", "rule_violation", "actor_email", guild_id=g["id"], actor_email=outsider(ep, g), name="x"
    )
    mod = holder(ep, g, "Moderator")
    cat = channel(ep, g, "Community")
    made = ok(ep, "create_channel", guild_id=g["id"], actor_email=mod, name="Show And Tell", parent_id=cat["id"])
    assert (made["name"], made["type"], made["parent_id"]) == ("show-and-tell", "text", cat["id"])
    siblings = every(ep, "list_channels", parent_id=cat["id"])
    assert made["position"] == max(c["position"] for c in siblings)
    refused(
        ep,
        "create_channel",
        "rule_violation",
        "parent_id",
        guild_id=g["id"],
        actor_email=mod,
        name="Nested",
        type="category",
        parent_id=cat["id"],
    )
    general = channel(ep, g, "general")
    refused(
        ep,
        "create_channel",
        "rule_violation",
        "parent_id",
        guild_id=g["id"],
        actor_email=mod,
        name="y",
        parent_id=general["id"],
    )
    refused(
        ep, "create_channel", "rule_violation", "bitrate", guild_id=g["id"], actor_email=mod, name="z", bitrate=64000
    )


def test_staff_channels_are_hidden_from_everyone_else(ep: Episode) -> None:
    g = community(ep)
    log = channel(ep, g, "mod-log")
    customer = plain(ep, g)
    refused(
        ep, "send_message", "rule_violation", "author_email", channel_id=log["id"], author_email=customer, content="hi"
    )
    support = holder(ep, g, "Support Team")
    posted = ok(ep, "send_message", channel_id=log["id"], author_email=support, content="Heads-up: spam wave tonight.")
    assert posted["author_email"] == support


def test_slowmode_holds_back_members_but_not_moderators(ep: Episode) -> None:
    g = community(ep)
    intro = channel(ep, g, "introductions")
    customer = plain(ep, g)
    ok(ep, "send_message", channel_id=intro["id"], author_email=customer, content="Hi, I'm new here!")
    msg = refused(
        ep,
        "send_message",
        "rule_violation",
        "channel_id",
        channel_id=intro["id"],
        author_email=customer,
        content="Also...",
    )
    assert "slowmode" in msg
    mod = holder(ep, g, "Moderator")
    ok(ep, "send_message", channel_id=intro["id"], author_email=mod, content="Welcome!")
    ok(ep, "send_message", channel_id=intro["id"], author_email=mod, content="Read the rules first.")
    ok(ep, "modify_channel", channel_id=intro["id"], actor_email=mod, rate_limit_per_user=0)
    ok(ep, "send_message", channel_id=intro["id"], author_email=customer, content="Also, hello everyone.")


def test_slowmode_limits(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    news = channel(ep, g, "announcements")
    general = channel(ep, g, "general")
    refused(
        ep,
        "modify_channel",
        "rule_violation",
        "rate_limit_per_user",
        channel_id=news["id"],
        actor_email=mod,
        rate_limit_per_user=30,
    )
    refused(
        ep,
        "modify_channel",
        "rule_violation",
        "rate_limit_per_user",
        channel_id=general["id"],
        actor_email=mod,
        rate_limit_per_user=21601,
    )
    refused(
        ep,
        "modify_channel",
        "rule_violation",
        "actor_email",
        channel_id=general["id"],
        actor_email=plain(ep, g),
        topic="x",
    )
    assert (
        ok(ep, "modify_channel", channel_id=general["id"], actor_email=mod, rate_limit_per_user=21600)[
            "rate_limit_per_user"
        ]
        == 21600
    )


def test_community_channels_cannot_be_deleted_and_categories_release_their_channels(ep: Episode) -> None:
    g = community(ep)
    owner = g["owner_email"]
    refused(ep, "delete_channel", "rule_violation", "channel_id", channel_id=g["rules_channel_id"], actor_email=owner)
    refused(ep, "delete_channel", "rule_violation", "channel_id", channel_id=g["system_channel_id"], actor_email=owner)
    voice = channel(ep, g, "Voice")
    children = every(ep, "list_channels", parent_id=voice["id"])
    out = ok(ep, "delete_channel", channel_id=voice["id"], actor_email=owner)
    assert sorted(out["uncategorized_channel_ids"]) == sorted(c["id"] for c in children)
    help_forum = channel(ep, g, "help")
    n_threads = len(every(ep, "list_threads", channel_id=help_forum["id"]))
    gone = ok(ep, "delete_channel", channel_id=help_forum["id"], actor_email=owner)
    assert gone["deleted_threads"] == n_threads and gone["deleted_messages"] > 0
    assert all(m["channel_id"] != help_forum["id"] for m in every(ep, "list_messages", guild_id=g["id"]))
    assert all(w["channel_id"] != help_forum["id"] for w in every(ep, "list_webhooks", guild_id=g["id"]))


# -- roles and the hierarchy ------------------------------------------------------------------


def test_roles_are_assigned_only_below_ones_highest_role(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    customer = plain(ep, g)
    beta = role(ep, g, "Beta Testers")
    for name in ("Moderator", "Admin"):
        refused(
            ep,
            "add_member_role",
            "rule_violation",
            "role_id",
            guild_id=g["id"],
            actor_email=mod,
            email=customer,
            role_id=role(ep, g, name)["id"],
        )
    refused(
        ep,
        "add_member_role",
        "rule_violation",
        "role_id",
        guild_id=g["id"],
        actor_email=mod,
        email=customer,
        role_id=role(ep, g, "Release Bot")["id"],
    )
    refused(
        ep,
        "add_member_role",
        "rule_violation",
        "actor_email",
        guild_id=g["id"],
        actor_email=plain(ep, g, 1),
        email=customer,
        role_id=beta["id"],
    )
    got = ok(ep, "add_member_role", guild_id=g["id"], actor_email=mod, email=customer, role_id=beta["id"])
    assert beta["id"] in got["role_ids"]
    refused(
        ep,
        "add_member_role",
        "conflict",
        "role_id",
        guild_id=g["id"],
        actor_email=mod,
        email=customer,
        role_id=beta["id"],
    )
    promoted = ok(
        ep,
        "add_member_role",
        guild_id=g["id"],
        actor_email=g["owner_email"],
        email=customer,
        role_id=role(ep, g, "Moderator")["id"],
    )
    assert len(promoted["role_ids"]) == 2
    dropped = ok(ep, "remove_member_role", guild_id=g["id"], actor_email=mod, email=customer, role_id=beta["id"])
    assert beta["id"] not in dropped["role_ids"]
    refused(
        ep,
        "remove_member_role",
        "rule_violation",
        "role_id",
        guild_id=g["id"],
        actor_email=mod,
        email=customer,
        role_id=beta["id"],
    )


def test_nobody_grants_a_permission_they_lack(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    refused(
        ep,
        "create_role",
        "rule_violation",
        "permissions",
        guild_id=g["id"],
        actor_email=mod,
        name="Super",
        permissions=["ADMINISTRATOR"],
    )
    before = {r["id"]: r["position"] for r in every(ep, "list_roles", guild_id=g["id"])}
    made = ok(
        ep,
        "create_role",
        guild_id=g["id"],
        actor_email=mod,
        name="Event Hosts",
        permissions=["MANAGE_EVENTS", "MANAGE_EVENTS"],
    )
    assert (made["position"], made["permission_names"]) == (1, ["MANAGE_EVENTS"])
    assert made["permissions"] == str(1 << 33)
    for r in every(ep, "list_roles", guild_id=g["id"]):
        if r["id"] in before and before[r["id"]] > 0:
            assert r["position"] == before[r["id"]] + 1
    refused(
        ep,
        "modify_role",
        "rule_violation",
        "permissions",
        role_id=made["id"],
        actor_email=mod,
        permissions=["MANAGE_EVENTS", "MANAGE_GUILD"],
    )
    refused(ep, "create_role", "rule_violation", "name", guild_id=g["id"], actor_email=mod, name="@everyone")


def test_role_positions_stay_below_the_actor(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    beta = role(ep, g, "Beta Testers")
    mod_role = role(ep, g, "Moderator")
    refused(
        ep,
        "modify_role",
        "rule_violation",
        "position",
        role_id=beta["id"],
        actor_email=mod,
        position=mod_role["position"],
    )
    refused(ep, "modify_role", "rule_violation", "role_id", role_id=mod_role["id"], actor_email=mod, color=1)
    moved = ok(ep, "modify_role", role_id=beta["id"], actor_email=mod, position=4)
    assert moved["position"] == 4
    positions = sorted(r["position"] for r in every(ep, "list_roles", guild_id=g["id"]))
    assert positions == list(range(len(positions)))
    everyone = role(ep, g, "@everyone")
    refused(ep, "modify_role", "rule_violation", "name", role_id=everyone["id"], actor_email=mod, name="all")
    refused(ep, "modify_role", "rule_violation", "position", role_id=everyone["id"], actor_email=mod, position=2)


def test_deleting_a_role_strips_it_and_spares_managed_ones(ep: Episode) -> None:
    g = community(ep)
    owner = g["owner_email"]
    refused(ep, "delete_role", "rule_violation", "role_id", role_id=role(ep, g, "Release Bot")["id"], actor_email=owner)
    refused(ep, "delete_role", "rule_violation", "role_id", role_id=role(ep, g, "@everyone")["id"], actor_email=owner)
    support = role(ep, g, "Support Team")
    had = [m for m in every(ep, "list_members", guild_id=g["id"]) if support["id"] in m["role_ids"]]
    out = ok(ep, "delete_role", role_id=support["id"], actor_email=owner)
    assert out["members_affected"] == len(had) > 0
    assert all(support["id"] not in m["role_ids"] for m in every(ep, "list_members", guild_id=g["id"]))
    staff_chat = channel(ep, g, "staff-chat")
    assert all(o["role_id"] != support["id"] for o in staff_chat["permission_overwrites"])


# -- moderation -------------------------------------------------------------------------------


def test_moderators_act_only_on_lower_members_and_never_on_the_owner(ep: Episode) -> None:
    g = community(ep)
    support = holder(ep, g, "Support Team")
    mod = holder(ep, g, "Moderator")
    refused(ep, "remove_guild_member", "rule_violation", "email", guild_id=g["id"], actor_email=support, email=mod)
    refused(
        ep, "remove_guild_member", "rule_violation", "email", guild_id=g["id"], actor_email=mod, email=g["owner_email"]
    )
    refused(
        ep, "ban_member", "rule_violation", "actor_email", guild_id=g["id"], actor_email=support, email=plain(ep, g)
    )
    customer = plain(ep, g)
    out = ok(ep, "remove_guild_member", guild_id=g["id"], actor_email=support, email=customer)
    assert out["member_count"] == g["member_count"] - 1
    assert every(ep, "list_members", guild_id=g["id"], email=customer) == []


def test_a_ban_removes_the_member_purges_recent_messages_and_blocks_invites(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    customer = plain(ep, g)
    general = channel(ep, g, "general")
    ok(
        ep,
        "send_message",
        channel_id=general["id"],
        author_email=customer,
        content="buy cheap followers at spam.example",
    )
    refused(
        ep,
        "ban_member",
        "rule_violation",
        "delete_message_seconds",
        guild_id=g["id"],
        actor_email=mod,
        email=customer,
        delete_message_seconds=604801,
    )
    out = ok(
        ep, "ban_member", guild_id=g["id"], actor_email=mod, email=customer, reason="Spam", delete_message_seconds=3600
    )
    assert out["removed_member"] and out["deleted_messages"] == 1 and out["ban"]["banned_by"] == mod
    refused(ep, "ban_member", "conflict", "email", guild_id=g["id"], actor_email=mod, email=customer)
    code = next(
        i["code"] for i in every(ep, "list_invites", guild_id=g["id"]) if i["max_age"] == 0 and i["max_uses"] == 0
    )
    refused(ep, "accept_invite", "rule_violation", "email", code=code, email=customer)
    ok(ep, "unban_member", guild_id=g["id"], actor_email=mod, email=customer)
    refused(ep, "unban_member", "not_found", "email", guild_id=g["id"], actor_email=mod, email=customer)
    back = ok(ep, "accept_invite", code=code, email=customer)
    assert back["role_ids"] == []


def test_timeouts_are_bounded_and_silence_the_member(ep: Episode) -> None:
    g = community(ep)
    support = holder(ep, g, "Support Team")
    customer = plain(ep, g)
    general = channel(ep, g, "general")
    refused(
        ep,
        "timeout_member",
        "rule_violation",
        "until",
        guild_id=g["id"],
        actor_email=support,
        email=customer,
        until=later(days=29),
    )
    refused(
        ep,
        "timeout_member",
        "rule_violation",
        "until",
        guild_id=g["id"],
        actor_email=support,
        email=customer,
        until=later(hours=-1),
    )
    refused(
        ep,
        "timeout_member",
        "rule_violation",
        "email",
        guild_id=g["id"],
        actor_email=g["owner_email"],
        email=holder(ep, g, "Admin"),
        until=later(hours=1),
    )
    refused(ep, "timeout_member", "rule_violation", "email", guild_id=g["id"], actor_email=support, email=customer)
    done = ok(ep, "timeout_member", guild_id=g["id"], actor_email=support, email=customer, until=later(days=28))
    assert done["communication_disabled_until"] == later(days=28).replace("+00:00", "Z")
    refused(
        ep,
        "send_message",
        "rule_violation",
        "author_email",
        channel_id=general["id"],
        author_email=customer,
        content="hey",
    )
    msg = every(ep, "list_messages", channel_id=general["id"], type="default")[0]
    refused(ep, "add_reaction", "rule_violation", "actor_email", message_id=msg["id"], actor_email=customer, emoji="👍")
    ok(ep, "timeout_member", guild_id=g["id"], actor_email=support, email=customer)
    ok(ep, "send_message", channel_id=general["id"], author_email=customer, content="Sorry about that.")


def test_nicknames_follow_change_and_manage_nicknames(ep: Episode) -> None:
    g = community(ep)
    customer, other = plain(ep, g), plain(ep, g, 1)
    assert (
        ok(ep, "set_member_nickname", guild_id=g["id"], actor_email=customer, email=customer, nick="Night Owl")["nick"]
        == "Night Owl"
    )
    refused(
        ep,
        "set_member_nickname",
        "rule_violation",
        "actor_email",
        guild_id=g["id"],
        actor_email=other,
        email=customer,
        nick="x",
    )
    support = holder(ep, g, "Support Team")
    refused(
        ep,
        "set_member_nickname",
        "rule_violation",
        "email",
        guild_id=g["id"],
        actor_email=support,
        email=g["owner_email"],
        nick="Boss",
    )
    cleared = ok(ep, "set_member_nickname", guild_id=g["id"], actor_email=support, email=customer)
    assert cleared["nick"] is None
    general = channel(ep, g, "general")
    ok(ep, "set_member_nickname", guild_id=g["id"], actor_email=customer, email=customer, nick="Owl")
    assert (
        ok(ep, "send_message", channel_id=general["id"], author_email=customer, content="hoot")["author_name"] == "Owl"
    )


# -- messages ---------------------------------------------------------------------------------


def test_message_content_and_places(ep: Episode) -> None:
    g = community(ep)
    customer = plain(ep, g)
    general = channel(ep, g, "general")
    refused(
        ep,
        "send_message",
        "rule_violation",
        "content",
        channel_id=general["id"],
        author_email=customer,
        content="x" * 2001,
    )
    refused(
        ep, "send_message", "rule_violation", "content", channel_id=general["id"], author_email=customer, content="  "
    )
    cat = channel(ep, g, "Community")
    refused(
        ep, "send_message", "rule_violation", "channel_id", channel_id=cat["id"], author_email=customer, content="hi"
    )
    forum = channel(ep, g, "help")
    refused(
        ep, "send_message", "rule_violation", "thread_id", channel_id=forum["id"], author_email=customer, content="hi"
    )
    other_thread = every(ep, "list_threads", channel_id=channel(ep, g, "feedback")["id"])[0]
    refused(
        ep,
        "send_message",
        "rule_violation",
        "thread_id",
        channel_id=forum["id"],
        author_email=customer,
        content="hi",
        thread_id=other_thread["id"],
    )
    assert (
        ok(ep, "send_message", channel_id=general["id"], author_email=customer, content="x" * 2000)["type"] == "default"
    )


def test_mentions_need_members_mentionable_roles_and_mention_everyone(ep: Episode) -> None:
    g = community(ep)
    customer = plain(ep, g)
    general = channel(ep, g, "general")
    base = {"channel_id": general["id"], "content": "ping"}
    refused(
        ep, "send_message", "rule_violation", "mentions.0", author_email=customer, mentions=[outsider(ep, g)], **base
    )
    verified = role(ep, g, "Verified Customer")
    assert not verified["mentionable"]
    refused(
        ep,
        "send_message",
        "rule_violation",
        "mention_role_ids.0",
        author_email=customer,
        mention_role_ids=[verified["id"]],
        **base,
    )
    refused(
        ep, "send_message", "rule_violation", "mention_everyone", author_email=customer, mention_everyone=True, **base
    )
    beta = role(ep, g, "Beta Testers")
    ok(ep, "send_message", author_email=customer, mention_role_ids=[beta["id"]], mentions=[plain(ep, g, 1)], **base)
    support = holder(ep, g, "Support Team")
    sent = ok(
        ep, "send_message", author_email=support, mention_role_ids=[verified["id"]], mention_everyone=True, **base
    )
    assert sent["mention_everyone"] and sent["mention_roles"] == [verified["id"]]


def test_replies_stay_in_their_channel_and_mention_the_author(ep: Episode) -> None:
    g = community(ep)
    support = holder(ep, g, "Support Team")
    general = channel(ep, g, "general")
    question = every(ep, "list_messages", channel_id=general["id"], type="default")[1]
    reply = ok(
        ep,
        "send_message",
        channel_id=general["id"],
        author_email=support,
        content="Yes!",
        reply_to_message_id=question["id"],
    )
    assert reply["type"] == "reply" and question["author_email"] in reply["mentions"]
    bugs = channel(ep, g, "bug-reports")
    refused(
        ep,
        "send_message",
        "rule_violation",
        "reply_to_message_id",
        channel_id=bugs["id"],
        author_email=support,
        content="Yes!",
        reply_to_message_id=question["id"],
    )


def test_only_the_author_edits_and_moderators_delete(ep: Episode) -> None:
    g = community(ep)
    general = channel(ep, g, "general")
    msg = next(m for m in every(ep, "list_messages", channel_id=general["id"], type="default") if m["reactions"])
    author = msg["author_email"]
    someone = next(e for e in (plain(ep, g), plain(ep, g, 1)) if e != author)
    refused(
        ep, "edit_message", "rule_violation", "author_email", message_id=msg["id"], author_email=someone, content="x"
    )
    edited = ok(ep, "edit_message", message_id=msg["id"], author_email=author, content="Edited text")
    assert edited["edited_timestamp"] is not None
    refused(ep, "delete_message", "rule_violation", "actor_email", message_id=msg["id"], actor_email=someone)
    out = ok(ep, "delete_message", message_id=msg["id"], actor_email=holder(ep, g, "Support Team"))
    assert out["message_id"] == msg["id"]
    refused(ep, "add_reaction", "not_found", "message_id", message_id=msg["id"], actor_email=someone, emoji="👍")


def test_reactions_limits_and_add_reactions(ep: Episode) -> None:
    g = community(ep)
    owner = g["owner_email"]
    general = channel(ep, g, "general")
    msg = next(m for m in every(ep, "list_messages", channel_id=general["id"], type="default") if m["reactions"])
    reacted = {r.email for r in GC.records("reactions") if r.message_id == msg["id"]} | {msg["author_email"]}
    fresh = [e for e in (plain(ep, g, n) for n in range(8)) if e not in reacted]
    customer, other = fresh[0], fresh[1]
    emoji = msg["reactions"][0]["emoji"]
    joined = ok(ep, "add_reaction", message_id=msg["id"], actor_email=customer, emoji=emoji)
    assert joined["reactions"][0]["count"] == msg["reactions"][0]["count"] + 1
    refused(ep, "add_reaction", "conflict", "emoji", message_id=msg["id"], actor_email=customer, emoji=emoji)
    everyone = role(ep, g, "@everyone")
    kept = [p for p in everyone["permission_names"] if p != "ADD_REACTIONS"]
    ok(ep, "modify_role", role_id=everyone["id"], actor_email=owner, permissions=kept)
    refused(ep, "add_reaction", "rule_violation", "actor_email", message_id=msg["id"], actor_email=other, emoji="🔥")
    ok(ep, "add_reaction", message_id=msg["id"], actor_email=other, emoji=emoji)
    for n in range(19):
        ok(ep, "add_reaction", message_id=msg["id"], actor_email=owner, emoji=f"custom{n}:{1000 + n}")
    full = ok(ep, "get_message", message_id=msg["id"])
    assert len(full["reactions"]) == 20
    refused(ep, "add_reaction", "rule_violation", "emoji", message_id=msg["id"], actor_email=owner, emoji="🚀")
    refused(
        ep,
        "remove_reaction",
        "rule_violation",
        "actor_email",
        message_id=msg["id"],
        actor_email=other,
        emoji=emoji,
        email=customer,
    )
    after = ok(ep, "remove_reaction", message_id=msg["id"], actor_email=customer, emoji=emoji)
    assert after["reactions"][0]["count"] == msg["reactions"][0]["count"] + 1


def test_a_channel_keeps_at_most_fifty_pins(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    customer = plain(ep, g)
    bugs = channel(ep, g, "bug-reports")
    refused(
        ep,
        "pin_message",
        "rule_violation",
        "actor_email",
        message_id=every(ep, "list_messages", channel_id=bugs["id"])[0]["id"],
        actor_email=customer,
    )
    already = len(every(ep, "list_messages", channel_id=bugs["id"], pinned=True))
    last = None
    for n in range(50 - already):
        last = ok(ep, "send_message", channel_id=bugs["id"], author_email=mod, content=f"Known issue #{n}")
        pinned = ok(ep, "pin_message", message_id=last["id"], actor_email=mod)
        assert pinned["pinned"]
    assert last is not None
    refused(ep, "pin_message", "conflict", "message_id", message_id=last["id"], actor_email=mod)
    extra = ok(ep, "send_message", channel_id=bugs["id"], author_email=mod, content="One more")
    refused(ep, "pin_message", "rule_violation", "message_id", message_id=extra["id"], actor_email=mod)
    notices = every(ep, "list_messages", channel_id=bugs["id"], type="channel_pinned_message")
    assert len(notices) == 50 - already and notices[-1]["referenced_message_id"] == last["id"]
    ok(ep, "unpin_message", message_id=last["id"], actor_email=mod)
    refused(ep, "unpin_message", "rule_violation", "message_id", message_id=last["id"], actor_email=mod)
    ok(ep, "pin_message", message_id=extra["id"], actor_email=mod)


def test_announcements_are_crossposted_once_to_their_followers(ep: Episode) -> None:
    g, p = community(ep), partners(ep)
    news = channel(ep, g, "announcements")
    mod = holder(ep, g, "Moderator")
    post = ok(ep, "send_message", channel_id=news["id"], author_email=mod, content="Version 5 ships on Monday.")
    refused(ep, "crosspost_message", "rule_violation", "actor_email", message_id=post["id"], actor_email=plain(ep, g))
    out = ok(ep, "crosspost_message", message_id=post["id"], actor_email=mod)
    assert out["message"]["crossposted"]
    follower = channel(ep, p, "partner-news")
    assert [c["channel_id"] for c in out["copies"]] == [follower["id"]]
    assert out["copies"][0]["content"] == post["content"] and out["copies"][0]["webhook_id"]
    refused(ep, "crosspost_message", "conflict", "message_id", message_id=post["id"], actor_email=mod)
    general = channel(ep, g, "general")
    chat = ok(ep, "send_message", channel_id=general["id"], author_email=mod, content="Not news")
    refused(ep, "crosspost_message", "rule_violation", "message_id", message_id=chat["id"], actor_email=mod)


# -- threads ----------------------------------------------------------------------------------


def test_forum_posts_are_threads_and_a_message_starts_one_thread(ep: Episode) -> None:
    g = community(ep)
    customer = plain(ep, g)
    forum = channel(ep, g, "help")
    refused(ep, "start_thread", "rule_violation", "content", channel_id=forum["id"], author_email=customer, name="Help")
    post = ok(
        ep,
        "start_thread",
        channel_id=forum["id"],
        author_email=customer,
        name="SSO with Okta",
        content="How do I set up SSO with Okta?",
    )
    assert post["message_count"] == 1 and post["member_email"] == customer
    first = every(ep, "list_messages", thread_id=post["id"])[0]
    assert first["content"] == "How do I set up SSO with Okta?"
    general = channel(ep, g, "general")
    taken = next(t for t in every(ep, "list_threads", channel_id=general["id"]) if t["starter_message_id"])
    refused(
        ep,
        "start_thread",
        "conflict",
        "message_id",
        channel_id=general["id"],
        author_email=customer,
        name="Again",
        message_id=taken["starter_message_id"],
    )
    free = next(
        m
        for m in every(ep, "list_messages", channel_id=general["id"], type="default")
        if m["id"] != taken["starter_message_id"] and m["thread_id"] is None
    )
    side = ok(ep, "start_thread", channel_id=general["id"], author_email=customer, name="Side", message_id=free["id"])
    assert side["starter_message_id"] == free["id"] and side["type"] == "public_thread"
    lounge = channel(ep, g, "Lounge")
    refused(
        ep, "start_thread", "rule_violation", "channel_id", channel_id=lounge["id"], author_email=customer, name="x"
    )


def test_archived_threads_wake_up_and_locked_ones_need_a_manager(ep: Episode) -> None:
    g = community(ep)
    forum = channel(ep, g, "help")
    customer = plain(ep, g)
    archived = every(ep, "list_threads", channel_id=forum["id"], status="archived")[0]
    ok(
        ep,
        "send_message",
        channel_id=forum["id"],
        thread_id=archived["id"],
        author_email=customer,
        content="Still an issue",
    )
    woke = every(ep, "list_threads", channel_id=forum["id"], status="active")
    assert archived["id"] in {t["id"] for t in woke}
    locked = every(ep, "list_threads", channel_id=forum["id"], status="locked")[0]
    refused(
        ep,
        "send_message",
        "rule_violation",
        "thread_id",
        channel_id=forum["id"],
        thread_id=locked["id"],
        author_email=customer,
        content="Hello?",
    )
    mod = holder(ep, g, "Support Team")
    ok(ep, "send_message", channel_id=forum["id"], thread_id=locked["id"], author_email=mod, content="Closing note.")
    assert every(ep, "list_threads", channel_id=forum["id"], status="locked")[0]["id"] == locked["id"]


def test_thread_status_moves_through_its_state_machine(ep: Episode) -> None:
    g = community(ep)
    active = every(ep, "list_threads", guild_id=g["id"], status="active")[0]
    archived = ok(ep, "archive_thread", thread_id=active["id"])
    assert archived["status"] == "archived" and archived["archive_timestamp"] is not None
    refused(ep, "archive_thread", "rule_violation", "thread_id", thread_id=active["id"])
    assert ok(ep, "lock_thread", thread_id=active["id"])["status"] == "locked"
    refused(ep, "lock_thread", "rule_violation", "thread_id", thread_id=active["id"])
    refused(ep, "archive_thread", "rule_violation", "thread_id", thread_id=active["id"])
    assert ok(ep, "unarchive_thread", thread_id=active["id"])["status"] == "active"
    refused(ep, "unarchive_thread", "rule_violation", "thread_id", thread_id=active["id"])


# -- invites and webhooks ---------------------------------------------------------------------


def test_invites_run_out_by_age_and_uses(ep: Episode) -> None:
    g = community(ep)
    invites = every(ep, "list_invites", guild_id=g["id"])
    expired = next(i for i in invites if i["expires_at"] and i["expires_at"] < later())
    used_up = next(i for i in invites if i["max_uses"] and i["uses"] >= i["max_uses"])
    newcomer = outsider(ep, g)
    refused(ep, "accept_invite", "rule_violation", "code", code=expired["code"], email=newcomer)
    refused(ep, "accept_invite", "rule_violation", "code", code=used_up["code"], email=newcomer)
    refused(ep, "accept_invite", "not_found", "code", code="NoSuchCode", email=newcomer)
    refused(ep, "accept_invite", "conflict", "email", code=invites[0]["code"], email=plain(ep, g))
    mod = holder(ep, g, "Moderator")
    welcome = g["system_channel_id"]
    refused(ep, "create_invite", "rule_violation", "max_age", channel_id=welcome, actor_email=mod, max_age=604801)
    refused(ep, "create_invite", "rule_violation", "max_uses", channel_id=welcome, actor_email=mod, max_uses=101)
    inv = ok(ep, "create_invite", channel_id=welcome, actor_email=mod, max_uses=1)
    assert inv["expires_at"] == later(days=1).replace("+00:00", "Z") and len(inv["code"]) == 8
    joined = ok(ep, "accept_invite", code=inv["code"], email=newcomer)
    person = next(p for p in POP.people if p.email == newcomer)
    assert joined["global_name"] == person.name
    assert ok(ep, "list_guilds", limit=1)["items"][0]["member_count"] == g["member_count"] + 1
    hello = every(ep, "list_messages", channel_id=welcome, type="guild_member_join")[-1]
    assert person.name in hello["content"]
    refused(ep, "accept_invite", "rule_violation", "code", code=inv["code"], email=outsider(ep, g))


def test_webhooks_names_limits_tokens_and_forums(ep: Episode) -> None:
    g = community(ep)
    mod = holder(ep, g, "Moderator")
    general = channel(ep, g, "general")
    refused(
        ep, "create_webhook", "rule_violation", "name", channel_id=general["id"], actor_email=mod, name="Discord Bot"
    )
    refused(
        ep,
        "create_webhook",
        "rule_violation",
        "actor_email",
        channel_id=general["id"],
        actor_email=plain(ep, g),
        name="x",
    )
    refused(
        ep,
        "create_webhook",
        "rule_violation",
        "channel_id",
        channel_id=channel(ep, g, "Lounge")["id"],
        actor_email=mod,
        name="x",
    )
    hook = None
    for n in range(15):
        hook = ok(ep, "create_webhook", channel_id=general["id"], actor_email=mod, name=f"Feed {n}")
    assert hook is not None
    refused(
        ep, "create_webhook", "rule_violation", "channel_id", channel_id=general["id"], actor_email=mod, name="Feed 16"
    )
    refused(ep, "execute_webhook", "rule_violation", "token", webhook_id=hook["id"], token="wrong", content="hi")
    refused(
        ep,
        "execute_webhook",
        "rule_violation",
        "username",
        webhook_id=hook["id"],
        token=hook["token"],
        content="hi",
        username="clyde",
    )
    sent = ok(ep, "execute_webhook", webhook_id=hook["id"], token=hook["token"], content="Deploy done", username="CI")
    assert (sent["author_email"], sent["author_name"], sent["webhook_id"]) == (None, "CI", hook["id"])
    bridge = every(ep, "list_webhooks", channel_id=channel(ep, g, "help")["id"])[0]
    refused(
        ep,
        "execute_webhook",
        "rule_violation",
        "thread_name",
        webhook_id=bridge["id"],
        token=bridge["token"],
        content="x",
    )
    post = ok(
        ep,
        "execute_webhook",
        webhook_id=bridge["id"],
        token=bridge["token"],
        content="Ticket #42",
        thread_name="Ticket #42",
    )
    made = GC.first(ep, "threads", channel_id=bridge["channel_id"], query="Ticket #42")
    assert post["thread_id"] == made["id"] and made["message_count"] == 1
    follower = every(ep, "list_webhooks", type="channel_follower")[0]
    refused(ep, "execute_webhook", "rule_violation", "webhook_id", webhook_id=follower["id"], token="x", content="hi")


def test_webhooks_are_not_held_by_slowmode(ep: Episode) -> None:
    g = community(ep)
    bugs = channel(ep, g, "bug-reports")
    assert bugs["rate_limit_per_user"] > 0
    alerts = every(ep, "list_webhooks", channel_id=bugs["id"])[0]
    for n in range(3):
        ok(ep, "execute_webhook", webhook_id=alerts["id"], token=alerts["token"], content=f"Alert {n}")
