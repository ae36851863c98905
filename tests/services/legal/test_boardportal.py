"""Quorum Boards: seats, board books, attendance quorum, minutes approval, resolution voting."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

BP = ServiceTools("boardportal")
WORLD = BP.world
ok, refused, every = BP.ok, BP.refused, BP.every
POP = WORLD.population
STAFF = {p.email for p in POP.employees}


def board(ep: Episode) -> dict[str, Any]:
    return every(ep, "list_boards", kind="board")[0]


def voters(ep: Episode, board_id: str) -> list[dict[str, Any]]:
    return [
        m for m in every(ep, "list_members", board_id=board_id, status="active") if m["role"] in ("chair", "director")
    ]


def later(days: int) -> str:
    return (WORLD.epoch + dt.timedelta(days=days)).isoformat()


def test_seeded_members_are_staff_and_committees_hang_off_the_board(ep: Episode) -> None:
    b = board(ep)
    assert {m["email"] for m in every(ep, "list_members")} <= STAFF
    assert {c["parent_id"] for c in every(ep, "list_boards", kind="committee")} == {b["id"]}
    for x in every(ep, "list_boards"):
        assert len([m for m in every(ep, "list_members", board_id=x["id"]) if m["role"] == "chair"]) == 1
    statuses = {m["status"] for m in every(ep, "list_meetings")}
    assert statuses == {"draft", "published", "held", "minutes_approved"}


def test_a_committee_needs_a_parent_board(ep: Episode) -> None:
    refused(ep, "create_board", "rule_violation", "parent_id", name="Risk Committee", kind="committee")
    c = ok(ep, "create_board", name="Risk Committee", kind="committee", parent_id=board(ep)["id"])
    refused(ep, "create_board", "rule_violation", "parent_id", name="Sub", kind="committee", parent_id=c["id"])


def test_seats_are_unique_and_one_chair_per_board(ep: Episode) -> None:
    b = board(ep)
    seated = every(ep, "list_members", board_id=b["id"])[1]
    refused(ep, "add_member", "conflict", "email", board_id=b["id"], name=seated["name"], email=seated["email"])
    p = POP.employees[-1]
    refused(ep, "add_member", "conflict", "role", board_id=b["id"], name=p.name, email=p.email, role="chair")
    assert ok(ep, "add_member", board_id=b["id"], name=p.name, email=p.email)["role"] == "director"


def test_board_book_publishes_only_with_an_agenda(ep: Episode) -> None:
    m = ok(ep, "create_meeting", board_id=board(ep)["id"], title="Special meeting", starts_at=later(10))
    refused(ep, "publish_book", "rule_violation", "meeting_id", meeting_id=m["id"])
    item = ok(ep, "add_agenda_item", meeting_id=m["id"], title="Acquisition approval")
    assert item["position"] == 1
    pub = ok(ep, "publish_book", meeting_id=m["id"])
    assert pub["status"] == "published" and pub["book_published_at"]
    refused(ep, "publish_book", "conflict", "meeting_id", meeting_id=m["id"])
    refused(
        ep, "create_meeting", "rule_violation", "starts_at", board_id=board(ep)["id"], title="Late", starts_at=later(-1)
    )


def test_a_meeting_is_held_only_with_a_quorum(ep: Episode) -> None:
    m = every(ep, "list_meetings", status="published")[0]
    v = voters(ep, m["board_id"])
    observer = every(ep, "list_members", board_id=m["board_id"], role="observer")[0]
    refused(
        ep,
        "hold_meeting",
        "rule_violation",
        "attendee_ids",
        meeting_id=m["id"],
        attendee_ids=[v[0]["id"], observer["id"]],
    )
    held = ok(ep, "hold_meeting", meeting_id=m["id"], attendee_ids=[x["id"] for x in v[:3]])
    assert held["status"] == "held"
    refused(ep, "add_agenda_item", "conflict", "meeting_id", meeting_id=m["id"], title="Late item")


def test_minutes_are_written_then_approved(ep: Episode) -> None:
    m = every(ep, "list_meetings", status="published")[0]
    ok(ep, "hold_meeting", meeting_id=m["id"], attendee_ids=[x["id"] for x in voters(ep, m["board_id"])])
    refused(ep, "approve_minutes", "rule_violation", "meeting_id", meeting_id=m["id"])
    ok(ep, "record_minutes", meeting_id=m["id"], minutes="Quorum present. Q4 reviewed.")
    assert ok(ep, "approve_minutes", meeting_id=m["id"])["status"] == "minutes_approved"
    refused(ep, "record_minutes", "conflict", "meeting_id", meeting_id=m["id"], minutes="Changed afterwards.")


def test_only_voting_members_vote_once(ep: Episode) -> None:
    r = every(ep, "list_resolutions", status="voting")[0]
    done = {v["member_id"] for v in every(ep, "list_votes", resolution_id=r["id"])}
    fresh = next(m for m in voters(ep, r["board_id"]) if m["id"] not in done)
    ok(ep, "cast_vote", resolution_id=r["id"], member_id=fresh["id"], choice="against")
    refused(ep, "cast_vote", "conflict", "member_id", resolution_id=r["id"], member_id=fresh["id"], choice="for")
    observer = every(ep, "list_members", board_id=r["board_id"], role="observer")[0]
    refused(
        ep, "cast_vote", "rule_violation", "member_id", resolution_id=r["id"], member_id=observer["id"], choice="for"
    )


def test_resolution_workflow_needs_quorum_and_counts_votes(ep: Episode) -> None:
    b = board(ep)
    r = ok(ep, "create_resolution", board_id=b["id"], title="Open a Singapore branch", text="RESOLVED, that ...")
    refused(
        ep,
        "cast_vote",
        "conflict",
        "resolution_id",
        resolution_id=r["id"],
        member_id=voters(ep, b["id"])[0]["id"],
        choice="for",
    )
    ok(ep, "open_voting_resolution", resolution_id=r["id"])
    v = voters(ep, b["id"])
    ok(ep, "cast_vote", resolution_id=r["id"], member_id=v[0]["id"], choice="against")
    refused(ep, "close_voting", "rule_violation", "resolution_id", resolution_id=r["id"])
    ok(ep, "cast_vote", resolution_id=r["id"], member_id=v[1]["id"], choice="against")
    ok(ep, "cast_vote", resolution_id=r["id"], member_id=v[2]["id"], choice="for")
    closed = ok(ep, "close_voting", resolution_id=r["id"])
    assert (closed["status"], closed["votes_for"], closed["votes_against"]) == ("failed", 1, 2)


def test_a_removed_member_loses_their_vote(ep: Episode) -> None:
    r = every(ep, "list_resolutions", status="voting")[0]
    done = {v["member_id"] for v in every(ep, "list_votes", resolution_id=r["id"])}
    fresh = next(m for m in voters(ep, r["board_id"]) if m["id"] not in done)
    assert ok(ep, "remove_member", member_id=fresh["id"])["status"] == "removed"
    refused(ep, "cast_vote", "rule_violation", "member_id", resolution_id=r["id"], member_id=fresh["id"], choice="for")
    passed = ok(ep, "close_voting", resolution_id=r["id"])
    assert (passed["status"], passed["votes_for"], passed["votes_against"]) == ("passed", 2, 1)
