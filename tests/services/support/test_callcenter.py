"""Ringline: routing by opening hours, IVR and availability, call lifecycle, transfers, contacts, notes, privacy."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

CC = ServiceTools("callcenter")
WORLD = CC.world
ok, refused, every = CC.ok, CC.refused, CC.every
POP = WORLD.population
CALLER = POP.consumers[20].phone


def line(ep: Episode, name: str) -> dict[str, Any]:
    return next(n for n in every(ep, "list_numbers") if n["name"] == name)


def user(ep: Episode, uid: str) -> dict[str, Any]:
    found: dict[str, Any] = ok(ep, "get_user", user_id=uid)
    return found


def free_member(ep: Episode, number: dict[str, Any]) -> dict[str, Any]:
    return next(u for u in map(lambda i: user(ep, i), number["user_ids"]) if u["availability_status"] == "available")


def test_seeded_agents_contacts_and_calls_come_from_the_world(ep: Episode) -> None:
    staff = {p.email for p in POP.employees}
    phones = {p.phone: p for p in POP.people}
    assert all(u["email"] in staff for u in every(ep, "list_users"))
    for c in every(ep, "list_contacts"):
        person = phones[c["phone_numbers"][0]]
        assert (c["first_name"], c["emails"]) == (person.first_name, [person.email])
    contacts = {c["id"]: c for c in every(ep, "list_contacts")}
    for call in every(ep, "list_calls"):
        if call["contact_id"]:
            assert call["raw_digits"] in contacts[call["contact_id"]]["phone_numbers"]
        assert (call["missed_call_reason"] is not None) == (call["status"] == "done" and call["user_id"] is None)
    closed = line(ep, "After-hours line")
    for call in every(ep, "list_calls", number_id=closed["id"]):
        assert (call["missed_call_reason"], call["voicemail"] is not None) == ("out_of_opening_hours", True)


def test_inbound_calls_route_by_opening_hours_and_ivr(ep: Episode) -> None:
    closed = ok(ep, "incoming_call", number_id=line(ep, "After-hours line")["id"], from_digits=CALLER)
    assert (closed["missed_call_reason"], closed["status"], closed["voicemail"] is not None) == (
        "out_of_opening_hours",
        "done",
        True,
    )
    support = line(ep, "Support line")
    lost = ok(ep, "incoming_call", number_id=support["id"], from_digits=CALLER)
    assert (lost["missed_call_reason"], lost["voicemail"]) == ("abandoned_in_ivr", None)
    billing = next(o for o in support["ivr"] if o["key"] == 1)
    rung = ok(ep, "incoming_call", number_id=support["id"], from_digits=CALLER, ivr_key=1)
    if rung["status"] == "initial":
        assert (
            rung["user_id"] in billing["user_ids"] and user(ep, rung["user_id"])["availability_status"] == "available"
        )
    else:
        assert rung["missed_call_reason"] == "no_available_agent"
    refused(
        ep,
        "incoming_call",
        "rule_violation",
        "ivr_key",
        number_id=line(ep, "Sales line")["id"],
        from_digits=CALLER,
        ivr_key=1,
    )


def test_a_known_caller_is_matched_and_nobody_available_means_voicemail(ep: Episode) -> None:
    sales = line(ep, "Sales line")
    contact = every(ep, "list_contacts")[0]
    for uid in sales["user_ids"]:
        if user(ep, uid)["availability_status"] not in ("unavailable", "in_call"):
            ok(ep, "set_availability", user_id=uid, status="unavailable")
    call = ok(ep, "incoming_call", number_id=sales["id"], from_digits=contact["phone_numbers"][0])
    assert (call["contact_id"], call["missed_call_reason"]) == (contact["id"], "no_available_agent")
    assert call["voicemail"] is not None


def test_answering_and_hanging_up_move_the_agent_through_in_call_and_after_call_work(ep: Episode) -> None:
    sales = line(ep, "Sales line")
    agent = free_member(ep, sales)
    rung = ok(ep, "incoming_call", number_id=sales["id"], from_digits=CALLER)
    assert (rung["status"], rung["user_id"]) == ("initial", agent["id"])
    ok(ep, "answer_call", call_id=rung["id"])
    assert user(ep, agent["id"])["availability_status"] == "in_call"
    refused(ep, "answer_call", "conflict", "call_id", call_id=rung["id"])
    refused(ep, "set_availability", "rule_violation", "user_id", user_id=agent["id"], status="available")
    done = ok(ep, "hangup_call", call_id=rung["id"])
    assert done["status"] == "done" and done["recording"] is not None and done["ended_at"] is not None
    assert user(ep, agent["id"])["availability_status"] == "after_call_work"
    refused(ep, "hangup_call", "conflict", "call_id", call_id=rung["id"])
    ok(ep, "set_availability", user_id=agent["id"], status="available")
    refused(ep, "set_availability", "conflict", "status", user_id=agent["id"], status="available")


def test_outbound_calls_need_an_available_member_and_an_external_number(ep: Episode) -> None:
    sales, support = line(ep, "Sales line"), line(ep, "Support line")
    outsider = next(
        u for u in every(ep, "list_users", availability_status="available") if u["id"] not in sales["user_ids"]
    )
    refused(
        ep,
        "start_outbound_call",
        "rule_violation",
        "user_id",
        user_id=outsider["id"],
        number_id=sales["id"],
        to_digits=CALLER,
    )
    agent = free_member(ep, sales)
    refused(
        ep,
        "start_outbound_call",
        "rule_violation",
        "to_digits",
        user_id=agent["id"],
        number_id=sales["id"],
        to_digits=support["digits"],
    )
    call = ok(ep, "start_outbound_call", user_id=agent["id"], number_id=sales["id"], to_digits=CALLER)
    assert (call["direction"], call["status"]) == ("outbound", "answered")
    refused(
        ep,
        "start_outbound_call",
        "rule_violation",
        "user_id",
        user_id=agent["id"],
        number_id=sales["id"],
        to_digits=CALLER,
    )


def test_only_an_answered_call_is_transferred_to_another_free_member(ep: Episode) -> None:
    live = every(ep, "list_calls", status="answered")[0]
    support = line(ep, "Support line")
    refused(ep, "transfer_call", "rule_violation", "to_user_id", call_id=live["id"], to_user_id=live["user_id"])
    away = next(
        u for u in support["user_ids"] if user(ep, u)["availability_status"] in ("unavailable", "do_not_disturb")
    )
    refused(ep, "transfer_call", "rule_violation", "to_user_id", call_id=live["id"], to_user_id=away)
    target = next(
        u for u in support["user_ids"] if u != live["user_id"] and user(ep, u)["availability_status"] == "available"
    )
    moved = ok(ep, "transfer_call", call_id=live["id"], to_user_id=target)
    assert (moved["user_id"], moved["transferred_from"]) == (target, live["user_id"])
    assert user(ep, live["user_id"])["availability_status"] == "available"
    assert user(ep, target)["availability_status"] == "in_call"
    finished = every(ep, "list_calls", status="done")[0]
    refused(ep, "transfer_call", "rule_violation", "call_id", call_id=finished["id"], to_user_id=target)


def test_contact_phone_numbers_are_unique(ep: Episode) -> None:
    known = every(ep, "list_contacts")[0]
    refused(
        ep,
        "create_contact",
        "conflict",
        "phone_numbers",
        first_name="A",
        last_name="B",
        phone_numbers=known["phone_numbers"],
    )
    refused(ep, "create_contact", "rule_violation", "phone_numbers", first_name="A", last_name="B", phone_numbers=[])
    made = ok(ep, "create_contact", first_name="Zoe", last_name="Quinn", phone_numbers=[CALLER])
    call = ok(ep, "incoming_call", number_id=line(ep, "After-hours line")["id"], from_digits=CALLER)
    assert call["contact_id"] == made["id"]


def test_notes_are_limited_and_tags_applied_once(ep: Episode) -> None:
    call = every(ep, "list_calls", status="done")[0]
    author = every(ep, "list_users")[0]["id"]
    existing = len(every(ep, "list_comments", call_id=call["id"]))
    for k in range(5 - existing):
        ok(ep, "add_comment", call_id=call["id"], author_id=author, content=f"Note {k}")
    refused(ep, "add_comment", "rule_violation", "call_id", call_id=call["id"], author_id=author, content="One more")
    refused(ep, "create_tag", "conflict", "name", name="Billing")
    tag = ok(ep, "create_tag", name="Escalated")
    ok(ep, "tag_call", call_id=call["id"], tag_id=tag["id"])
    refused(ep, "tag_call", "conflict", "tag_id", call_id=call["id"], tag_id=tag["id"])


def test_recordings_and_voicemails_are_deleted_for_good(ep: Episode) -> None:
    rec = next(c for c in every(ep, "list_calls") if c["recording"])
    assert ok(ep, "delete_recording", call_id=rec["id"])["recording"] is None
    refused(ep, "delete_recording", "rule_violation", "call_id", call_id=rec["id"])
    vm = next(c for c in every(ep, "list_calls") if c["voicemail"])
    assert ok(ep, "delete_voicemail", call_id=vm["id"])["voicemail"] is None
    refused(ep, "delete_voicemail", "rule_violation", "call_id", call_id=vm["id"])
    assert ok(ep, "archive_call", call_id=vm["id"])["archived"] is True
