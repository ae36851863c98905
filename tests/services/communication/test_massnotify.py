"""Alertline: recipients from groups, options, incident rules, responses within the window, reports."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MN = ServiceTools("massnotify")
WORLD = MN.world
ok, refused, every = MN.ok, MN.refused, MN.every
POP = WORLD.population
ME = POP.employees[0].email
NOW = WORLD.epoch


def group(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_groups", name=name)[0]


def hq(ep: Episode) -> dict[str, Any]:
    return group(ep, f"{POP.home.place.city} office")


def test_every_employee_is_a_contact_in_their_department_group(ep: Episode) -> None:
    contacts = every(ep, "list_contacts")
    assert sorted(c["email"] for c in contacts) == sorted(p.email for p in POP.employees)
    for p in POP.employees[:10]:
        c = every(ep, "list_contacts", email=p.email)[0]
        assert group(ep, f"{p.department} team")["id"] in c["group_ids"]


def test_a_broadcast_expands_groups_and_needs_recipients(ep: Episode) -> None:
    g = hq(ep)
    members = [c["id"] for c in every(ep, "list_contacts") if g["id"] in c["group_ids"]]
    extra = next(c["id"] for c in every(ep, "list_contacts") if c["id"] not in members)
    b = ok(
        ep,
        "send_broadcast",
        title="Drill",
        body="Fire drill at 10",
        sender_email=ME,
        group_ids=[g["id"]],
        contact_ids=[extra],
    )
    assert b["recipients"] == sorted([*members, extra]) and b["status"] == "sent"
    empty = ok(ep, "create_group", name="Nobody")
    refused(
        ep,
        "send_broadcast",
        "rule_violation",
        "group_ids",
        title="x",
        body="x",
        sender_email=ME,
        group_ids=[empty["id"]],
    )
    refused(
        ep,
        "send_broadcast",
        "rule_violation",
        "sender_email",
        title="x",
        body="x",
        sender_email="a@b.io",
        contact_ids=[extra],
    )


def test_response_options_must_be_two_to_nine_distinct(ep: Episode) -> None:
    c = every(ep, "list_contacts")[0]["id"]
    base = {"title": "x", "body": "x", "sender_email": ME, "contact_ids": [c]}
    refused(ep, "send_broadcast", "rule_violation", "response_options", response_options=["OK"], **base)
    refused(ep, "send_broadcast", "rule_violation", "response_options", response_options=["OK", "OK"], **base)
    tpl = every(ep, "list_templates", name="Safety check")[0]
    b = ok(ep, "send_broadcast", template_id=tpl["id"], **base)
    assert b["response_options"] == tpl["response_options"] and b["paths"] == tpl["paths"]


def test_closed_incidents_take_no_broadcasts_and_closing_cancels_scheduled_ones(ep: Episode) -> None:
    closed = every(ep, "list_incidents", status="closed")[0]
    c = every(ep, "list_contacts")[0]["id"]
    refused(
        ep,
        "send_broadcast",
        "rule_violation",
        "incident_id",
        title="x",
        body="x",
        sender_email=ME,
        contact_ids=[c],
        incident_id=closed["id"],
    )
    storm = every(ep, "list_incidents", status="open")[0]
    sched = every(ep, "list_broadcasts", incident_id=storm["id"], status="scheduled")
    assert sched
    ok(ep, "close_incident", incident_id=storm["id"])
    assert all(ok(ep, "get_broadcast", broadcast_id=b["id"])["status"] == "cancelled" for b in sched)


def test_responses_come_from_recipients_with_an_option_and_replace_earlier_ones(ep: Episode) -> None:
    live = every(ep, "list_broadcasts", status="sent", priority="priority")
    b = next(x for x in live if x["expires_at"] > NOW.isoformat())
    silent = ok(ep, "broadcast_report", broadcast_id=b["id"])["not_responded"][0]
    outsider = next(c["email"] for c in every(ep, "list_contacts") if c["id"] not in b["recipients"])
    refused(
        ep,
        "record_response",
        "rule_violation",
        "contact_email",
        broadcast_id=b["id"],
        contact_email=outsider,
        option="I am safe",
    )
    refused(
        ep, "record_response", "rule_violation", "option", broadcast_id=b["id"], contact_email=silent, option="Maybe"
    )
    first = ok(ep, "record_response", broadcast_id=b["id"], contact_email=silent, option="I need help")
    again = ok(ep, "record_response", broadcast_id=b["id"], contact_email=silent, option="I am safe")
    assert first["id"] == again["id"] and again["option"] == "I am safe"


def test_expired_broadcasts_take_no_responses(ep: Episode) -> None:
    old = next(b for b in every(ep, "list_broadcasts", status="sent") if b["expires_at"] < NOW.isoformat())
    who = ok(ep, "get_contact", contact_id=old["recipients"][0])["email"]
    refused(
        ep,
        "record_response",
        "rule_violation",
        "broadcast_id",
        broadcast_id=old["id"],
        contact_email=who,
        option="I am safe",
    )


def test_the_report_counts_answers_and_lists_who_is_silent(ep: Episode) -> None:
    for b in every(ep, "list_broadcasts"):
        rep = ok(ep, "broadcast_report", broadcast_id=b["id"])
        answers = every(ep, "list_responses", broadcast_id=b["id"])
        assert rep["recipients"] == len(b["recipients"])
        assert sum(rep["by_option"].values()) == len(answers)
        if b["response_options"]:
            assert len(rep["not_responded"]) == len(b["recipients"]) - len(answers)


def test_scheduled_broadcasts_cancel_and_block_deleting_their_group(ep: Episode) -> None:
    sched = every(ep, "list_broadcasts", status="scheduled")[0]
    gid = sched["group_ids"][0]
    refused(ep, "delete_group", "conflict", "group_id", group_id=gid)
    ok(ep, "cancel_broadcast", broadcast_id=sched["id"])
    refused(ep, "cancel_broadcast", "conflict", "broadcast_id", broadcast_id=sched["id"])
    ok(ep, "delete_group", group_id=gid)
    assert all(gid not in c["group_ids"] for c in every(ep, "list_contacts"))
    later = (NOW + dt.timedelta(hours=2)).isoformat()
    c = every(ep, "list_contacts")[0]["id"]
    assert (
        ok(ep, "send_broadcast", title="x", body="x", sender_email=ME, contact_ids=[c], send_at=later)["status"]
        == "scheduled"
    )


def test_contacts_are_unique_by_email_and_groups_by_name(ep: Episode) -> None:
    refused(ep, "create_contact", "conflict", "email", first_name="A", last_name="B", email=ME)
    refused(ep, "create_group", "conflict", "name", name=hq(ep)["name"])
    c = ok(
        ep,
        "create_contact",
        first_name="Vera",
        last_name="Visitor",
        email="vera@guest.example.com",
        record_type="visitor",
    )
    ok(ep, "add_to_group", group_id=hq(ep)["id"], contact_id=c["id"])
    refused(ep, "add_to_group", "conflict", "contact_id", group_id=hq(ep)["id"], contact_id=c["id"])
    ok(ep, "remove_from_group", group_id=hq(ep)["id"], contact_id=c["id"])
    refused(ep, "remove_from_group", "rule_violation", "group_id", group_id=hq(ep)["id"], contact_id=c["id"])
