"""Panelwise Scheduling: qualified interviewers, working hours, load limits, loops, reschedules, self-scheduling."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

SCHED = ServiceTools("interviewsched")
WORLD = SCHED.world
ok, refused, every, first = SCHED.ok, SCHED.refused, SCHED.every, SCHED.first
POP = WORLD.population
TODAY = WORLD.epoch.date()
STAFF = {p.email for p in POP.employees}
RECRUITER = POP.employees[0].email


def at(days: int, hour: int) -> str:
    """``hour``:00 UTC on the first weekday ``days`` or more ahead."""
    d = TODAY + dt.timedelta(days=days)
    while d.weekday() >= 5:
        d += dt.timedelta(days=1)
    return dt.datetime.combine(d, dt.time(hour), tzinfo=dt.UTC).isoformat().replace("+00:00", "Z")


def new_loop(ep: Episode, pools: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    loop = ok(
        ep,
        "create_loop",
        candidate_name="Ines Duarte",
        candidate_email="ines.duarte@example.net",
        job_title="Data Engineer",
        recruiter_email=RECRUITER,
    )
    made = [ok(ep, "create_session", loop_id=loop["id"], title="Round", pool_id=p, duration_minutes=60) for p in pools]
    return loop, made


def qualified(ep: Episode, pool_id: str) -> list[dict[str, Any]]:
    ids = [m["interviewer_id"] for m in every(ep, "list_pool_members", pool_id=pool_id, level="qualified")]
    return [
        ok(ep, "get_interviewer", interviewer_id=i)
        for i in ids
        if ok(ep, "get_interviewer", interviewer_id=i)["active"]
    ]


def test_seeded_interviewers_are_staff_and_booked_sessions_have_qualified_interviewers(ep: Episode) -> None:
    assert {i["email"] for i in every(ep, "list_interviewers")} <= STAFF
    for s in every(ep, "list_sessions", status="scheduled"):
        members = every(ep, "list_pool_members", pool_id=s["pool_id"], interviewer_id=s["interviewer_id"])
        assert [m["level"] for m in members] == ["qualified"]
    assert {lp["status"] for lp in every(ep, "list_loops")} == {
        "awaiting_schedule",
        "scheduled",
        "completed",
        "cancelled",
    }
    consumers = {p.email for p in POP.consumers}
    assert all(lp["candidate_email"] in consumers for lp in every(ep, "list_loops"))


def test_scheduling_needs_a_qualified_interviewer_in_working_hours_in_the_future(ep: Episode) -> None:
    pool = first(ep, "pools")
    loop, (s,) = new_loop(ep, [pool["id"]])
    who = qualified(ep, pool["id"])[0]
    members = {m["interviewer_id"] for m in every(ep, "list_pool_members", pool_id=pool["id"], level="qualified")}
    outsider = next(i for i in every(ep, "list_interviewers") if i["id"] not in members)
    refused(
        ep,
        "schedule_session",
        "rule_violation",
        "interviewer_id",
        session_id=s["id"],
        interviewer_id=outsider["id"],
        start=at(8, 11),
    )
    refused(ep, "schedule_session", "conflict", "start", session_id=s["id"], interviewer_id=who["id"], start=at(8, 3))
    refused(
        ep,
        "schedule_session",
        "rule_violation",
        "start",
        session_id=s["id"],
        interviewer_id=who["id"],
        start="2026-02-02T11:00:00Z",
    )
    booked = ok(ep, "schedule_session", session_id=s["id"], interviewer_id=who["id"], start=at(8, 11))
    assert booked["status"] == "scheduled" and booked["end"] == at(8, 12) and booked["meeting_link"]
    assert ok(ep, "get_loop", loop_id=loop["id"])["status"] == "scheduled"


def test_an_interviewer_is_never_double_booked_or_over_the_weekly_limit(ep: Episode) -> None:
    pool = first(ep, "pools")
    _, (s1, s2) = new_loop(ep, [pool["id"], pool["id"]])
    who = qualified(ep, pool["id"])[0]
    ok(ep, "schedule_session", session_id=s1["id"], interviewer_id=who["id"], start=at(9, 11))
    refused(ep, "schedule_session", "conflict", "start", session_id=s2["id"], interviewer_id=who["id"], start=at(9, 11))
    load = ok(ep, "interviewer_load", interviewer_id=who["id"], week_of=at(9, 11))
    ok(ep, "update_interviewer", interviewer_id=who["id"], weekly_limit=load["booked"])
    refused(ep, "schedule_session", "conflict", "start", session_id=s2["id"], interviewer_id=who["id"], start=at(9, 14))
    free = ok(ep, "find_interviewers", session_id=s2["id"], start=at(9, 14))
    assert next(c for c in free if c["interviewer_id"] == who["id"])["free"] is False


def test_blocked_time_keeps_interviewers_free(ep: Episode) -> None:
    pool = first(ep, "pools")
    _, (s,) = new_loop(ep, [pool["id"]])
    who = qualified(ep, pool["id"])[0]
    refused(ep, "create_block", "rule_violation", "end", interviewer_id=who["id"], start=at(10, 12), end=at(10, 9))
    ok(ep, "create_block", interviewer_id=who["id"], start=at(10, 9), end=at(10, 13), reason="Dentist")
    refused(ep, "schedule_session", "conflict", "start", session_id=s["id"], interviewer_id=who["id"], start=at(10, 10))


def test_a_loop_completes_when_every_live_session_is_held(ep: Episode) -> None:
    loop = next(
        lp
        for lp in every(ep, "list_loops", status="scheduled")
        if all(s["start"] <= at(0, 9) for s in every(ep, "list_sessions", loop_id=lp["id"]))
    )
    held = every(ep, "list_sessions", loop_id=loop["id"])
    ok(ep, "complete_session", session_id=held[0]["id"])
    assert ok(ep, "get_loop", loop_id=loop["id"])["status"] == "scheduled"
    ok(ep, "cancel_session", session_id=held[1]["id"], reason="Panel merged")
    assert ok(ep, "get_loop", loop_id=loop["id"])["status"] == "completed"
    refused(ep, "cancel_loop", "rule_violation", "loop_id", loop_id=loop["id"], reason="Late")
    future = every(ep, "list_sessions", status="scheduled")
    later = next(s for s in future if s["start"] > at(0, 9))
    refused(ep, "complete_session", "rule_violation", "session_id", session_id=later["id"])


def test_a_session_moves_at_most_three_times_and_needs_a_reason(ep: Episode) -> None:
    pool = first(ep, "pools")
    _, (s,) = new_loop(ep, [pool["id"]])
    who = qualified(ep, pool["id"])[0]
    ok(ep, "schedule_session", session_id=s["id"], interviewer_id=who["id"], start=at(15, 11))
    refused(ep, "reschedule_session", "rule_violation", "reason", session_id=s["id"], start=at(15, 13), reason=" ")
    for n, hour in enumerate((13, 14, 15)):
        moved = ok(ep, "reschedule_session", session_id=s["id"], start=at(15, hour), reason="Candidate asked")
        assert (moved["reschedules"], moved["start"]) == (n + 1, at(15, hour))
    refused(ep, "reschedule_session", "rule_violation", "session_id", session_id=s["id"], start=at(15, 11), reason="x")


def test_cancelling_a_loop_cancels_sessions_and_revokes_links(ep: Episode) -> None:
    loop = every(ep, "list_loops", status="awaiting_schedule")[0]
    link = ok(ep, "send_link", loop_id=loop["id"], valid_days=3)
    refused(ep, "send_link", "conflict", "loop_id", loop_id=loop["id"])
    refused(ep, "cancel_loop", "rule_violation", "reason", loop_id=loop["id"], reason="")
    assert ok(ep, "cancel_loop", loop_id=loop["id"], reason="Candidate withdrew")["status"] == "cancelled"
    assert {s["status"] for s in every(ep, "list_sessions", loop_id=loop["id"])} == {"cancelled"}
    assert every(ep, "list_links", loop_id=loop["id"])[0]["status"] == "revoked"
    refused(ep, "book_via_link", "rule_violation", "link_id", link_id=link["id"], start=at(8, 11))


def test_self_scheduling_books_open_sessions_back_to_back_once(ep: Episode) -> None:
    coding, behavioral = first(ep, "pools", query="Coding"), first(ep, "pools", query="Behavioral")
    loop, _ = new_loop(ep, [coding["id"], behavioral["id"]])
    link = ok(ep, "send_link", loop_id=loop["id"])
    assert link["candidate_email"] == "ines.duarte@example.net"
    booked = ok(ep, "book_via_link", link_id=link["id"], start=at(11, 10))
    assert [(b["start"], b["end"]) for b in booked] == [(at(11, 10), at(11, 11)), (at(11, 11), at(11, 12))]
    assert ok(ep, "get_loop", loop_id=loop["id"])["status"] == "scheduled"
    refused(ep, "book_via_link", "rule_violation", "link_id", link_id=link["id"], start=at(12, 10))
    expired = every(ep, "list_links", status="active")
    assert all(x["id"] != link["id"] for x in expired)


def test_trainees_are_promoted_after_two_training_interviews(ep: Episode) -> None:
    trainee = next(m for m in every(ep, "list_pool_members", level="shadow") if m["shadowed"] == 0)
    refused(ep, "promote_member", "rule_violation", "pool_member_id", pool_member_id=trainee["id"])
    ok(ep, "log_training", pool_member_id=trainee["id"])
    ok(ep, "log_training", pool_member_id=trainee["id"])
    up = ok(ep, "promote_member", pool_member_id=trainee["id"])
    assert (up["level"], up["shadowed"]) == ("reverse_shadow", 0)
    pro = every(ep, "list_pool_members", level="qualified")[0]
    refused(ep, "log_training", "rule_violation", "pool_member_id", pool_member_id=pro["id"])


def test_interviewers_come_from_the_directory_once(ep: Episode) -> None:
    known = {i["email"] for i in every(ep, "list_interviewers")}
    fresh = next(p for p in POP.employees if p.email not in known)
    refused(ep, "add_interviewer", "rule_violation", "email", email="someone@example.org")
    made = ok(ep, "add_interviewer", email=fresh.email, weekly_limit=2)
    assert (made["name"], made["job_title"], made["weekly_limit"]) == (fresh.name, fresh.job_title, 2)
    refused(ep, "add_interviewer", "conflict", "email", email=fresh.email)
    refused(ep, "update_interviewer", "rule_violation", "work_end_hour", interviewer_id=made["id"], work_end_hour=8)
