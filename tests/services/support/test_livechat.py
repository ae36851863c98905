"""Tandem Messenger: contacts and leads, conversation states, assignment, snoozing, closing, tags."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from compoworld.world import commerce as links
from tests.services.helpers import ServiceTools

LC = ServiceTools("livechat")
WORLD = LC.world
ok, refused, every = LC.ok, LC.refused, LC.every
POP = WORLD.population


def admin(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_admins", away_mode=False)[0]


def user(ep: Episode, **filters: Any) -> dict[str, Any]:
    return every(ep, "list_contacts", role="user", archived=False, **filters)[0]


def waiting_conversation(ep: Episode) -> dict[str, Any]:
    return next(c for c in every(ep, "list_conversations", state="open") if c["waiting_since"] is not None)


# -- the world --------------------------------------------------------------------------------


def test_contacts_and_teammates_are_people_of_the_world() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    contacts = [c for c in every(ep, "list_contacts") if c["email"]]
    assert {c["email"] for c in contacts} == {p.email for p in (*POP.consumers, *POP.contacts)}
    assert all(c["name"] == people[c["email"]].name for c in contacts)
    for c in contacts:
        company = POP.company_of(people[c["email"]])
        assert c["company_name"] == (company.name if company else None)
    staff = {p.email for p in POP.employees if p.department in ("Support", "Sales")}
    assert {a["email"] for a in every(ep, "list_admins")} == staff


def test_conversations_quote_the_customers_shop_orders_and_count_their_parts() -> None:
    ep = Episode(WORLD)
    orders = {p.email: links.first_order_number(i) for i, p in enumerate(POP.consumers) if links.places_first_order(i)}
    convs = every(ep, "list_conversations")
    quoted = [c for c in convs if c["order_number"]]
    assert quoted and all(orders[c["contact_email"]] == c["order_number"] for c in quoted)
    assert {c["state"] for c in convs} == {"open", "snoozed", "closed"}
    for conv in convs[:12]:
        assert conv["part_count"] == len(every(ep, "list_conversation_parts", conversation_id=conv["id"]))


# -- contacts ---------------------------------------------------------------------------------


def test_users_need_a_unique_email_but_leads_may_be_anonymous(ep: Episode) -> None:
    refused(ep, "create_contact", "rule_violation", "email", role="user", name="Ann Other")
    taken = user(ep)["email"]
    refused(ep, "create_contact", "conflict", "email", role="lead", email=taken)
    lead = ok(ep, "create_contact", role="lead", city="Paris", country="FR")
    assert (lead["role"], lead["email"], lead["name"]) == ("lead", None, None)


def test_converting_a_lead_to_a_new_email_makes_it_a_user(ep: Episode) -> None:
    lead = ok(ep, "create_contact", role="lead", name="Pat Visitor")
    out = ok(ep, "convert_lead", contact_id=lead["id"], email="pat.visitor@inbox.io")
    assert not out["merged"] and out["contact"]["role"] == "user" and out["contact"]["signed_up_at"]
    refused(ep, "convert_lead", "rule_violation", "contact_id", contact_id=lead["id"], email="pat2@inbox.io")


def test_converting_a_lead_with_a_users_email_merges_it_into_the_user(ep: Episode) -> None:
    target = user(ep)
    conv = ok(ep, "start_conversation", contact_email="visitor.tmp@inbox.io", body="Hello?")
    ok(ep, "update_contact", contact_id=conv["contact_id"], name="Temp Visitor")
    out = ok(ep, "convert_lead", contact_id=conv["contact_id"], email=target["email"])
    assert out["merged"] and out["contact"]["id"] == target["id"]
    assert out["moved_conversation_ids"] == [conv["id"]]
    assert ok(ep, "get_conversation", conversation_id=conv["id"])["contact_id"] == target["id"]
    assert ok(ep, "get_contact", contact_id=conv["contact_id"])["archived"] is True


# -- conversations ----------------------------------------------------------------------------


def test_a_customer_writing_in_starts_a_waiting_conversation(ep: Episode) -> None:
    known = user(ep)
    conv = ok(ep, "start_conversation", contact_email=known["email"], body="Where is my parcel?")
    assert (conv["contact_id"], conv["state"], conv["part_count"]) == (known["id"], "open", 1)
    assert conv["waiting_since"] is not None
    stranger = ok(
        ep, "start_conversation", contact_email="new.person@postbox.org", body="Hi", contact_name="New Person"
    )
    lead = ok(ep, "get_contact", contact_id=stranger["contact_id"])
    assert (lead["role"], lead["name"]) == ("lead", "New Person")


def test_email_messages_respect_unsubscribes_and_need_a_subject(ep: Episode) -> None:
    me = admin(ep)["id"]
    gone = user(ep, unsubscribed_from_emails=True)["email"]
    refused(
        ep,
        "send_message",
        "rule_violation",
        "contact_email",
        admin_id=me,
        contact_email=gone,
        body="Hi",
        channel="email",
        subject="News",
    )
    fine = user(ep, unsubscribed_from_emails=False)["email"]
    refused(
        ep, "send_message", "rule_violation", "subject", admin_id=me, contact_email=fine, body="Hi", channel="email"
    )
    chat = ok(ep, "send_message", admin_id=me, contact_email=gone, body="Hi in app")
    assert (chat["started_by"], chat["admin_assignee_id"], chat["waiting_since"]) == ("admin", me, None)


def test_replies_answer_reopen_and_closed_conversations_take_only_notes(ep: Episode) -> None:
    me = admin(ep)["id"]
    conv = waiting_conversation(ep)
    answered = ok(ep, "reply_to_conversation", conversation_id=conv["id"], body="On it", admin_id=me)
    assert answered["waiting_since"] is None and answered["part_count"] == conv["part_count"] + 1
    closed = every(ep, "list_conversations", state="closed")[0]
    refused(
        ep,
        "reply_to_conversation",
        "rule_violation",
        "conversation_id",
        conversation_id=closed["id"],
        body="Hi",
        admin_id=me,
    )
    noted = ok(ep, "reply_to_conversation", conversation_id=closed["id"], body="FYI", admin_id=me, message_type="note")
    assert noted["state"] == "closed"
    refused(
        ep,
        "reply_to_conversation",
        "rule_violation",
        "message_type",
        conversation_id=closed["id"],
        body="x",
        message_type="note",
    )
    back = ok(ep, "reply_to_conversation", conversation_id=closed["id"], body="It broke again")
    assert back["state"] == "open" and back["waiting_since"] is not None


def test_away_teammates_and_non_members_are_not_assigned(ep: Episode) -> None:
    me = admin(ep)["id"]
    conv = every(ep, "list_conversations", state="open")[0]
    away = every(ep, "list_admins", away_mode=True)[0]
    refused(
        ep,
        "assign_conversation",
        "rule_violation",
        "assignee_id",
        conversation_id=conv["id"],
        admin_id=me,
        assignee_id=away["id"],
    )
    teams = every(ep, "list_teams")
    team = next(t for t in teams if t["name"] == "Sales")
    support = next(t for t in teams if t["name"] == "Customer Support")
    present = {a["id"] for a in every(ep, "list_admins", away_mode=False)}
    outsider = next(a for a in support["admin_ids"] if a not in team["admin_ids"] and a in present)
    refused(
        ep,
        "assign_conversation",
        "rule_violation",
        "assignee_id",
        conversation_id=conv["id"],
        admin_id=me,
        assignee_id=outsider,
        team_id=team["id"],
    )
    done = ok(
        ep, "assign_conversation", conversation_id=conv["id"], admin_id=me, assignee_id=outsider, team_id=support["id"]
    )
    assert (done["admin_assignee_id"], done["team_assignee_id"]) == (outsider, support["id"])


def test_snoozing_needs_a_future_time_and_a_customer_reply_wakes_it(ep: Episode) -> None:
    me = admin(ep)["id"]
    conv = every(ep, "list_conversations", state="open")[0]
    past = (WORLD.epoch - dt.timedelta(hours=1)).isoformat()
    refused(
        ep,
        "snooze_conversation",
        "rule_violation",
        "snoozed_until",
        conversation_id=conv["id"],
        admin_id=me,
        snoozed_until=past,
    )
    later = (WORLD.epoch + dt.timedelta(days=2)).isoformat()
    assert (
        ok(ep, "snooze_conversation", conversation_id=conv["id"], admin_id=me, snoozed_until=later)["state"]
        == "snoozed"
    )
    woke = ok(ep, "reply_to_conversation", conversation_id=conv["id"], body="Any news?")
    assert (woke["state"], woke["snoozed_until"]) == ("open", None)


def test_a_waiting_customer_is_not_closed_on_without_a_reply(ep: Episode) -> None:
    me = admin(ep)["id"]
    conv = waiting_conversation(ep)
    msg = refused(ep, "close_conversation", "rule_violation", "body", conversation_id=conv["id"], admin_id=me)
    assert "waiting" in msg
    closed = ok(ep, "close_conversation", conversation_id=conv["id"], admin_id=me, body="Sorted, thanks!")
    assert closed["state"] == "closed" and closed["part_count"] == conv["part_count"] + 2
    assert closed["admin_assignee_id"] is not None
    refused(ep, "close_conversation", "conflict", "conversation_id", conversation_id=conv["id"], admin_id=me)
    assert ok(ep, "open_conversation", conversation_id=conv["id"], admin_id=me)["state"] == "open"


def test_tags_must_exist_before_they_are_used(ep: Episode) -> None:
    me = admin(ep)["id"]
    conv = every(ep, "list_conversations", state="open")[0]
    refused(
        ep, "tag_conversation", "not_found", "tag_name", conversation_id=conv["id"], admin_id=me, tag_name="urgent-x"
    )
    ok(ep, "create_tag", name="urgent-x")
    refused(ep, "create_tag", "conflict", "name", name="urgent-x")
    tagged = ok(ep, "tag_conversation", conversation_id=conv["id"], admin_id=me, tag_name="urgent-x")
    assert "urgent-x" in tagged["tags"]
    untagged = ok(ep, "tag_conversation", conversation_id=conv["id"], admin_id=me, tag_name="urgent-x", remove=True)
    assert "urgent-x" not in untagged["tags"]


def test_contacts_with_live_conversations_cannot_be_archived(ep: Episode) -> None:
    me = admin(ep)["id"]
    known = user(ep)
    conv = ok(ep, "start_conversation", contact_email=known["email"], body="Question")
    others = [c for c in every(ep, "list_conversations", contact_id=known["id"]) if c["state"] != "closed"]
    refused(ep, "archive_contact", "rule_violation", "contact_id", contact_id=known["id"])
    for c in others:
        ok(ep, "close_conversation", conversation_id=c["id"], admin_id=me, body="Closing")
    assert ok(ep, "archive_contact", contact_id=known["id"])["archived"] is True
    refused(ep, "start_conversation", "rule_violation", "contact_email", contact_email=known["email"], body="Hi")
    assert conv["contact_id"] == known["id"]


def test_inbox_summary_counts_open_snoozed_and_waiting_work() -> None:
    ep = Episode(WORLD)
    summary = ok(ep, "inbox_summary")
    convs = every(ep, "list_conversations")
    assert summary["open"] == sum(1 for c in convs if c["state"] == "open")
    assert summary["snoozed"] == sum(1 for c in convs if c["state"] == "snoozed")
    waiting = [c for c in convs if c["state"] == "open" and c["waiting_since"]]
    assert summary["waiting"] == len(waiting) > 0
    oldest = min(waiting, key=lambda c: (c["waiting_since"], c["id"]))
    assert summary["longest_waiting_conversation_id"] == oldest["id"]
    assert sum(r["open"] for r in summary["by_admin"]) == summary["open"]
    assert summary["by_admin"][0]["admin_id"] is None
