"""Crewroom: owners, members and guests, General and private channels, posts, replies, archived teams."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

TC = ServiceTools("teamchat")
WORLD = TC.world
ok, refused, every = TC.ok, TC.refused, TC.every
POP = WORLD.population
HOME = POP.home.domain


def team_named(ep: Episode, name: str) -> dict[str, Any]:
    return next(t for t in every(ep, "list_teams") if t["display_name"] == name)


def role_in(ep: Episode, team: dict[str, Any], role: str) -> list[str]:
    return [m["email"] for m in every(ep, "list_team_members", team_id=team["id"], role=role)]


def channel(ep: Episode, team: dict[str, Any], **filters: Any) -> dict[str, Any]:
    return every(ep, "list_channels", team_id=team["id"], **filters)[0]


def outsider(ep: Episode, team: dict[str, Any]) -> str:
    inside = {m["email"] for m in every(ep, "list_team_members", team_id=team["id"])}
    return next(p.email for p in POP.employees if p.email not in inside)


def private_setup(ep: Episode) -> tuple[dict[str, Any], dict[str, Any], str, str]:
    """A live private channel, its team, its owner, and a team member who is not in the channel."""
    for ch in every(ep, "list_channels", membership_type="private"):
        team = ok(ep, "get_team", team_id=ch["team_id"])
        if team["archived"]:
            continue
        inside = {m["email"]: m["role"] for m in every(ep, "list_channel_members", channel_id=ch["id"])}
        owner = next(e for e, r in inside.items() if r == "owner")
        out = [m["email"] for m in every(ep, "list_team_members", team_id=team["id"]) if m["email"] not in inside]
        if out:
            return ch, team, owner, out[0]
    raise AssertionError("no private channel with outsiders")


# -- the world --------------------------------------------------------------------------------


def test_teams_are_made_of_the_worlds_people_with_owners_and_a_general_channel() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for team in every(ep, "list_teams"):
        members = every(ep, "list_team_members", team_id=team["id"])
        assert all(m["display_name"] == people[m["email"]].name for m in members)
        assert any(m["role"] == "owner" for m in members)
        assert all((m["role"] == "guest") != m["email"].endswith("@" + HOME) for m in members)
        assert len(every(ep, "list_channels", team_id=team["id"], is_general=True)) == 1
        emails = {m["email"] for m in members}
        for ch in every(ep, "list_channels", team_id=team["id"], membership_type="private"):
            assert {c["email"] for c in every(ep, "list_channel_members", channel_id=ch["id"])} <= emails
    depts = {p.department for p in POP.employees}
    assert depts <= {t["display_name"] for t in every(ep, "list_teams")}


# -- teams and members ------------------------------------------------------------------------


def test_creating_a_team_needs_an_employee_owner_and_a_new_name(ep: Episode) -> None:
    contact = POP.contacts[0].email
    refused(ep, "create_team", "rule_violation", "owner_email", display_name="Partners", owner_email=contact)
    me = POP.employees[0].email
    refused(ep, "create_team", "conflict", "display_name", display_name="engineering", owner_email=me)
    team = ok(ep, "create_team", display_name="Partners", owner_email=me, visibility="public")
    assert role_in(ep, team, "owner") == [me]
    assert channel(ep, team)["display_name"] == "General"


def test_only_owners_add_people_and_outsiders_join_as_guests(ep: Episode) -> None:
    team = team_named(ep, "Sales")
    owner = role_in(ep, team, "owner")[0]
    member = role_in(ep, team, "member")[0]
    new = outsider(ep, team)
    refused(ep, "add_team_member", "rule_violation", "actor_email", team_id=team["id"], actor_email=member, email=new)
    refused(
        ep, "add_team_member", "rule_violation", "role", team_id=team["id"], actor_email=owner, email=new, role="guest"
    )
    guest = POP.contacts[0].email
    refused(ep, "add_team_member", "rule_violation", "role", team_id=team["id"], actor_email=owner, email=guest)
    refused(
        ep,
        "add_team_member",
        "rule_violation",
        "display_name",
        team_id=team["id"],
        actor_email=owner,
        email="x@elsewhere.example",
        role="guest",
    )
    added = ok(ep, "add_team_member", team_id=team["id"], actor_email=owner, email=guest, role="guest")
    assert added["display_name"] == POP.contacts[0].name
    refused(
        ep, "add_team_member", "conflict", "email", team_id=team["id"], actor_email=owner, email=guest, role="guest"
    )


def test_employees_may_join_public_teams_on_their_own(ep: Episode) -> None:
    public = every(ep, "list_teams", visibility="public", archived=False)[0]
    me = outsider(ep, public)
    assert ok(ep, "add_team_member", team_id=public["id"], actor_email=me, email=me)["role"] == "member"
    private = every(ep, "list_teams", visibility="private", archived=False)[0]
    me = outsider(ep, private)
    refused(ep, "add_team_member", "rule_violation", "actor_email", team_id=private["id"], actor_email=me, email=me)


def test_a_team_always_keeps_an_owner(ep: Episode) -> None:
    team = ok(ep, "create_team", display_name="Tiny", owner_email=POP.employees[0].email)
    owner = POP.employees[0].email
    refused(ep, "remove_team_member", "rule_violation", "email", team_id=team["id"], actor_email=owner, email=owner)
    refused(
        ep,
        "set_member_role",
        "rule_violation",
        "email",
        team_id=team["id"],
        actor_email=owner,
        email=owner,
        role="member",
    )
    other = POP.employees[1].email
    ok(ep, "add_team_member", team_id=team["id"], actor_email=owner, email=other)
    ok(ep, "set_member_role", team_id=team["id"], actor_email=owner, email=other, role="owner")
    out = ok(ep, "remove_team_member", team_id=team["id"], actor_email=owner, email=owner)
    assert out["email"] == owner and role_in(ep, team, "owner") == [other]


def test_leaving_a_team_drops_its_private_channels(ep: Episode) -> None:
    ch, team, _, _ = private_setup(ep)
    plain = set(role_in(ep, team, "member"))
    member = next(m["email"] for m in every(ep, "list_channel_members", channel_id=ch["id"]) if m["email"] in plain)
    out = ok(ep, "remove_team_member", team_id=team["id"], actor_email=member, email=member)
    assert ch["id"] in out["private_channel_ids"]
    assert every(ep, "list_channel_members", channel_id=ch["id"], email=member) == []


def test_an_archived_team_is_read_only_until_unarchived(ep: Episode) -> None:
    team = every(ep, "list_teams", archived=True)[0]
    owner = role_in(ep, team, "owner")[0]
    general = channel(ep, team, is_general=True)
    refused(ep, "post_message", "rule_violation", "channel_id", channel_id=general["id"], author_email=owner, body="Hi")
    refused(ep, "update_team", "rule_violation", "team_id", team_id=team["id"], description="Back")
    refused(
        ep,
        "add_team_member",
        "rule_violation",
        "team_id",
        team_id=team["id"],
        actor_email=owner,
        email=outsider(ep, team),
    )
    member = next(iter(role_in(ep, team, "member")), None)
    if member:
        refused(
            ep,
            "set_team_archived",
            "rule_violation",
            "actor_email",
            team_id=team["id"],
            actor_email=member,
            archived=False,
        )
    ok(ep, "set_team_archived", team_id=team["id"], actor_email=owner, archived=False)
    assert (
        ok(ep, "post_message", channel_id=general["id"], author_email=owner, body="We're back")["body"] == "We're back"
    )


# -- channels ---------------------------------------------------------------------------------


def test_who_may_create_channels_and_names_are_unique(ep: Episode) -> None:
    finance = team_named(ep, "Finance")
    member = role_in(ep, finance, "member")[0]
    refused(
        ep,
        "create_channel",
        "rule_violation",
        "creator_email",
        team_id=finance["id"],
        creator_email=member,
        display_name="Audit",
    )
    owner = role_in(ep, finance, "owner")[0]
    refused(
        ep,
        "create_channel",
        "conflict",
        "display_name",
        team_id=finance["id"],
        creator_email=owner,
        display_name="GENERAL",
    )
    ch = ok(
        ep,
        "create_channel",
        team_id=finance["id"],
        creator_email=owner,
        display_name="Audit",
        membership_type="private",
    )
    assert ch["email"] is None
    assert every(ep, "list_channel_members", channel_id=ch["id"])[0]["role"] == "owner"
    refused(
        ep,
        "create_channel",
        "conflict",
        "display_name",
        team_id=finance["id"],
        creator_email=owner,
        display_name="audit",
    )


def test_private_channels_are_for_their_members_only(ep: Episode) -> None:
    ch, team, owner, other = private_setup(ep)
    refused(ep, "post_message", "rule_violation", "author_email", channel_id=ch["id"], author_email=other, body="Hi")
    refused(
        ep,
        "post_message",
        "rule_violation",
        "mentions.0",
        channel_id=ch["id"],
        author_email=owner,
        body="Hi",
        mentions=[other],
    )
    stranger = outsider(ep, team)
    refused(ep, "add_channel_member", "rule_violation", "email", channel_id=ch["id"], actor_email=owner, email=stranger)
    refused(
        ep, "add_channel_member", "rule_violation", "actor_email", channel_id=ch["id"], actor_email=other, email=other
    )
    ok(ep, "add_channel_member", channel_id=ch["id"], actor_email=owner, email=other)
    post = ok(ep, "post_message", channel_id=ch["id"], author_email=owner, body="Welcome", mentions=[other])
    assert post["id"] in {m["id"] for m in ok(ep, "list_mentions", email=other)}
    joined = {j["team"]["id"]: j["channel_ids"] for j in ok(ep, "list_joined_teams", email=other)}
    assert ch["id"] in joined[team["id"]]


def test_the_general_channel_cannot_be_deleted(ep: Episode) -> None:
    team = team_named(ep, "Engineering")
    owner = role_in(ep, team, "owner")[0]
    general = channel(ep, team, is_general=True)
    refused(ep, "delete_channel", "rule_violation", "channel_id", channel_id=general["id"], actor_email=owner)
    other = channel(ep, team, is_general=False, membership_type="standard")
    n = len(every(ep, "list_messages", channel_id=other["id"]))
    out = ok(ep, "delete_channel", channel_id=other["id"], actor_email=owner)
    assert out["deleted_messages"] == n > 0
    assert all(c["id"] != other["id"] for c in every(ep, "list_channels", team_id=team["id"]))


# -- messages ---------------------------------------------------------------------------------


def test_posts_take_replies_but_replies_do_not(ep: Episode) -> None:
    team = team_named(ep, "Engineering")
    general = channel(ep, team, is_general=True)
    me, you = role_in(ep, team, "member")[:2]
    post = ok(
        ep,
        "post_message",
        channel_id=general["id"],
        author_email=me,
        body="Deploy at 5?",
        subject="Deploy",
        importance="high",
    )
    reply = ok(ep, "reply_to_message", message_id=post["id"], author_email=you, body="Yes")
    refused(ep, "reply_to_message", "rule_violation", "message_id", message_id=reply["id"], author_email=me, body="Ok")
    thread = ok(ep, "get_thread", message_id=reply["id"], viewer_email=me)
    assert thread["post"]["reply_count"] == 1 and [r["id"] for r in thread["replies"]] == [reply["id"]]


def test_only_the_author_edits_and_the_author_or_an_owner_deletes(ep: Episode) -> None:
    team = team_named(ep, "Engineering")
    general = channel(ep, team, is_general=True)
    me, you = role_in(ep, team, "member")[:2]
    owner = role_in(ep, team, "owner")[0]
    post = ok(ep, "post_message", channel_id=general["id"], author_email=me, body="Draft")
    refused(ep, "edit_message", "rule_violation", "author_email", message_id=post["id"], author_email=you, body="Mine")
    assert ok(ep, "edit_message", message_id=post["id"], author_email=me, body="Final")["edited_at"] is not None
    refused(ep, "delete_message", "rule_violation", "actor_email", message_id=post["id"], actor_email=you)
    gone = ok(ep, "delete_message", message_id=post["id"], actor_email=owner)
    assert (gone["deleted"], gone["body"]) == (True, "")
    refused(ep, "reply_to_message", "rule_violation", "message_id", message_id=post["id"], author_email=you, body="?")


def test_tabs_show_https_content_under_unique_names(ep: Episode) -> None:
    team = team_named(ep, "Marketing")
    general = channel(ep, team, is_general=True)
    owner = role_in(ep, team, "owner")[0]
    args = dict(channel_id=general["id"], actor_email=owner, display_name="Brand kit", app="website")
    refused(ep, "add_tab", "rule_violation", "content_url", content_url="http://brand.example.com", **args)
    tab = ok(ep, "add_tab", content_url="https://brand.example.com", **args)
    assert tab["created_by"] == owner
    refused(
        ep,
        "add_tab",
        "conflict",
        "display_name",
        content_url="https://other.example.com",
        **{**args, "display_name": "brand KIT"},
    )
