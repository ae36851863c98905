"""Huddle Meetings: host overlaps, registration and approval, running meetings, recordings owned by the host."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

MEETINGS = ServiceTools("meetings")
WORLD = MEETINGS.world
ok, refused, every = MEETINGS.ok, MEETINGS.refused, MEETINGS.every
POP = WORLD.population


def meeting(ep: Episode, **where: Any) -> dict[str, Any]:
    for m in every(ep, "list_meetings"):
        if all(m[k] == v for k, v in where.items()):
            return m
    raise AssertionError(f"no meeting with {where}")


def active_host(ep: Episode, **where: Any) -> dict[str, Any]:
    return every(ep, "list_users", status="active", **where)[0]


# -- the world ------------------------------------------------------------------------------


def test_users_are_the_home_employees_and_registrants_are_outside_people() -> None:
    ep = Episode(WORLD)
    assert {u["email"] for u in every(ep, "list_users")} == {p.email for p in POP.employees}
    outside = {p.email for p in POP.contacts} | {p.email for p in POP.consumers}
    regs = every(ep, "list_registrants")
    assert regs and all(r["email"] in outside for r in regs)
    assert {m["status"] for m in every(ep, "list_meetings")} == {"waiting", "started", "ended"}
    assert {r["status"] for r in regs} >= {"pending", "approved", "denied"}
    assert every(ep, "list_recordings") and every(ep, "list_participants")


# -- scheduling -----------------------------------------------------------------------------


def test_a_new_meeting_gets_a_number_passcode_and_join_link(ep: Episode) -> None:
    host = active_host(ep)
    m = ok(ep, "create_meeting", host_id=host["id"], topic="Kickoff", start_time="2026-03-20T08:00:00Z", duration=45)
    assert m["join_url"].startswith("https://huddle.example/j/" + m["meeting_number"])
    assert len(m["passcode"]) == 6 and m["status"] == "waiting"
    assert m["timezone"] == host["timezone"]
    assert ep.diff().counts() == {"meetings.meetings": {"added": 1, "updated": 0, "removed": 0}}


def test_a_host_cannot_have_two_overlapping_meetings(ep: Episode) -> None:
    existing = meeting(ep, status="waiting")
    refused(
        ep,
        "create_meeting",
        "conflict",
        "start_time",
        host_id=existing["host_id"],
        topic="Double booked",
        start_time=existing["start_time"],
        duration=30,
    )
    other = meeting(ep, status="waiting", approval_type="none")
    taken = next(m for m in every(ep, "list_meetings", host_id=other["host_id"], status="waiting") if m != other)
    refused(ep, "update_meeting", "conflict", "start_time", meeting_id=other["id"], start_time=taken["start_time"])
    free = ok(ep, "check_host_availability", host_id=other["host_id"], start_time=taken["start_time"])
    assert not free["free"] and taken["id"] in free["conflicts"]


def test_a_meeting_cannot_start_in_the_past_nor_be_hosted_by_an_inactive_user(ep: Episode) -> None:
    host = active_host(ep)
    refused(
        ep,
        "create_meeting",
        "rule_violation",
        "start_time",
        host_id=host["id"],
        topic="Late",
        start_time="2026-03-01T08:00:00Z",
    )
    inactive = every(ep, "list_users", status="inactive")[0]
    refused(
        ep,
        "create_meeting",
        "rule_violation",
        "host_id",
        host_id=inactive["id"],
        topic="Ghost",
        start_time="2026-03-20T08:00:00Z",
    )


def test_only_licensed_hosts_run_webinars(ep: Episode) -> None:
    basic = active_host(ep, type="basic")
    refused(
        ep,
        "create_webinar",
        "rule_violation",
        "host_id",
        host_id=basic["id"],
        topic="Launch",
        start_time="2026-03-25T15:00:00Z",
    )
    licensed = active_host(ep, type="licensed")
    w = ok(ep, "create_webinar", host_id=licensed["id"], topic="Launch", start_time="2026-03-25T15:00:00Z")
    assert w["status"] == "scheduled"
    refused(
        ep,
        "create_meeting",
        "conflict",
        "start_time",
        host_id=licensed["id"],
        topic="Clash",
        start_time="2026-03-25T15:30:00Z",
    )


# -- registration ---------------------------------------------------------------------------


def test_registration_is_only_for_meetings_with_registration_enabled(ep: Episode) -> None:
    closed = meeting(ep, approval_type="none", status="waiting")
    person = POP.contacts[0]
    refused(
        ep,
        "add_registrant",
        "rule_violation",
        "meeting_id",
        meeting_id=closed["id"],
        email=person.email,
        first_name=person.first_name,
    )


def test_manual_approval_registrants_wait_for_the_host(ep: Episode) -> None:
    m = meeting(ep, approval_type="manual", status="waiting")
    taken = {r["email"] for r in every(ep, "list_registrants", meeting_id=m["id"])}
    person = next(p for p in POP.consumers if p.email not in taken)
    r = ok(ep, "add_registrant", meeting_id=m["id"], email=person.email, first_name=person.first_name)
    assert r["status"] == "pending" and r["join_url"].startswith(m["join_url"])
    refused(
        ep, "add_registrant", "conflict", "email", meeting_id=m["id"], email=person.email, first_name=person.first_name
    )
    [approved] = ok(ep, "update_registrant_status", meeting_id=m["id"], action="approve", registrant_ids=[r["id"]])
    assert approved["status"] == "approved"
    refused(
        ep,
        "update_registrant_status",
        "rule_violation",
        "registrant_ids.0",
        meeting_id=m["id"],
        action="deny",
        registrant_ids=[r["id"]],
    )


def test_automatic_approval_meetings_have_nothing_to_approve(ep: Episode) -> None:
    m = meeting(ep, approval_type="automatic", status="waiting")
    person = POP.consumers[-1]
    r = ok(ep, "add_registrant", meeting_id=m["id"], email=person.email, first_name=person.first_name)
    assert r["status"] == "approved"
    refused(
        ep,
        "update_registrant_status",
        "rule_violation",
        "action",
        meeting_id=m["id"],
        action="approve",
        registrant_ids=[r["id"]],
    )


def test_a_registrant_of_another_meeting_is_refused_in_a_batch_and_nothing_changes(ep: Episode) -> None:
    m = meeting(ep, approval_type="manual", status="waiting")
    mine = every(ep, "list_registrants", meeting_id=m["id"], status="pending")[0]
    theirs = next(r for r in every(ep, "list_registrants", status="pending") if r["meeting_id"] != m["id"])
    refused(
        ep,
        "update_registrant_status",
        "rule_violation",
        "registrant_ids.1",
        meeting_id=m["id"],
        action="approve",
        registrant_ids=[mine["id"], theirs["id"]],
    )


# -- running and ended meetings -------------------------------------------------------------


def test_ending_a_meeting_records_the_host_and_approved_registrants_as_participants(ep: Episode) -> None:
    m = meeting(ep, status="started")
    approved = every(ep, "list_registrants", meeting_id=m["id"], status="approved")
    ended = ok(ep, "end_meeting", meeting_id=m["id"])
    assert ended["status"] == "ended" and ended["ended_at"] is not None
    parts = every(ep, "list_participants", meeting_id=m["id"])
    assert len(parts) == 1 + len(approved)
    counts = ep.diff().counts()
    assert counts["meetings.participants"]["added"] == 1 + len(approved)
    assert counts["meetings.meetings"] == {"added": 0, "updated": 1, "removed": 0}


def test_a_host_runs_one_meeting_at_a_time(ep: Episode) -> None:
    live = meeting(ep, status="started")
    later = next(m for m in every(ep, "list_meetings", host_id=live["host_id"], status="waiting"))
    refused(ep, "start_meeting", "conflict", "meeting_id", meeting_id=later["id"])
    ok(ep, "end_meeting", meeting_id=live["id"])
    assert ok(ep, "start_meeting", meeting_id=later["id"])["status"] == "started"


def test_an_ended_meeting_is_immutable(ep: Episode) -> None:
    m = meeting(ep, status="ended")
    refused(ep, "update_meeting", "rule_violation", "meeting_id", meeting_id=m["id"], topic="Renamed")
    refused(ep, "delete_meeting", "rule_violation", "meeting_id", meeting_id=m["id"])
    refused(ep, "start_meeting", "rule_violation", "meeting_id", meeting_id=m["id"])


def test_registration_cannot_be_turned_off_while_people_are_registered(ep: Episode) -> None:
    m = meeting(ep, approval_type="automatic", status="waiting")
    refused(ep, "update_meeting", "rule_violation", "approval_type", meeting_id=m["id"], approval_type="none")


# -- recordings -----------------------------------------------------------------------------


def test_only_the_host_deletes_recordings(ep: Episode) -> None:
    rec = every(ep, "list_recordings", status="completed")[0]
    other = next(u for u in every(ep, "list_users") if u["id"] != rec["host_id"])
    refused(
        ep,
        "delete_recordings",
        "rule_violation",
        "requested_by",
        meeting_id=rec["meeting_id"],
        requested_by=other["id"],
    )
    out = ok(ep, "delete_recordings", meeting_id=rec["meeting_id"], requested_by=rec["host_id"])
    assert rec["id"] in out["recording_ids"]
    assert all(r["status"] == "trashed" for r in every(ep, "list_recordings", meeting_id=rec["meeting_id"]))
    back = ok(ep, "recover_recordings", meeting_id=rec["meeting_id"], requested_by=rec["host_id"])
    assert back["recording_ids"] == out["recording_ids"]
    gone = ok(ep, "delete_recordings", meeting_id=rec["meeting_id"], requested_by=rec["host_id"], action="delete")
    assert ep.diff().counts()["meetings.recordings"]["removed"] == len(gone["recording_ids"])
