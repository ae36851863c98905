"""Slotwise Scheduling: open times, no double booking with buffers, group seats, cancel and reschedule."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

from compoworld import Episode
from tests.services.helpers import ServiceTools

BK = ServiceTools("booking")
WORLD = BK.world
ok, refused, every = BK.ok, BK.refused, BK.every
POP = WORLD.population
TODAY = WORLD.epoch.date()
GUESTS = list(POP.contacts)


def ts(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def etype(ep: Episode, name: str) -> dict[str, Any]:
    return every(ep, "list_event_types", active=True, query=name)[0]


def host_of(ep: Episode, et: dict[str, Any]) -> dict[str, Any]:
    return next(h for h in every(ep, "list_hosts") if h["id"] == et["host_id"])


def week(ep: Episode, et: dict[str, Any], days: int = 8) -> list[dict[str, Any]]:
    start = TODAY + dt.timedelta(days=days)
    return list(
        ok(
            ep,
            "available_times",
            event_type_id=et["id"],
            start_date=start.isoformat(),
            end_date=(start + dt.timedelta(days=6)).isoformat(),
        )
    )


def book(ep: Episode, et: dict[str, Any], start: str, k: int = 0, **extra: Any) -> dict[str, Any]:
    p = GUESTS[k]
    return dict(
        ok(
            ep,
            "book_event",
            event_type_id=et["id"],
            start_time=start,
            invitee_name=p.name,
            invitee_email=p.email,
            **extra,
        )
    )


def local(ep: Episode, et: dict[str, Any], when: str) -> dt.datetime:
    return ts(when).astimezone(ZoneInfo(host_of(ep, et)["timezone"]))


# -- the world --------------------------------------------------------------------------------


def test_hosts_are_staff_and_no_host_is_double_booked() -> None:
    ep = Episode(WORLD)
    staff = {p.email: p for p in POP.employees}
    for h in every(ep, "list_hosts"):
        assert staff[h["email"]].name == h["name"] and staff[h["email"]].place.timezone == h["timezone"]
    by_host: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}
    for e in every(ep, "list_scheduled_events", status="active"):
        a = ts(e["start_time"]) - dt.timedelta(minutes=e["buffer_before"])
        b = ts(e["end_time"]) + dt.timedelta(minutes=e["buffer_after"])
        assert all(not (a < y and x < b) for x, y in by_host.get(e["host_id"], []))
        by_host.setdefault(e["host_id"], []).append((a, b))
        booked = every(ep, "list_invitees", scheduled_event_id=e["id"], status="active")
        assert len(booked) == e["invitees_count"] > 0
    people = {p.email: p for p in POP.people}
    for inv in every(ep, "list_invitees"):
        company = POP.company_of(people[inv["email"]])
        assert inv["name"] == people[inv["email"]].name
        assert inv["company_name"] == (company.name if company else None)


# -- availability -----------------------------------------------------------------------------


def test_open_times_lie_inside_the_hosts_hours_in_their_time_zone(ep: Episode) -> None:
    et = etype(ep, "Support session")
    slots = week(ep, et)
    assert slots
    for slot in slots:
        start, end = local(ep, et, slot["start_time"]), local(ep, et, slot["end_time"])
        a, b = start.hour * 60 + start.minute, end.hour * 60 + end.minute
        assert start.weekday() < 5 and a >= 9 * 60 and b <= 17 * 60
        assert not (a < 13 * 60 and b > 12 * 60), "no slot spans the lunch break"
    refused(
        ep,
        "available_times",
        "rule_violation",
        "end_date",
        event_type_id=et["id"],
        start_date=TODAY.isoformat(),
        end_date=(TODAY + dt.timedelta(days=7)).isoformat(),
    )
    inactive = every(ep, "list_event_types", active=False)[0]
    refused(
        ep,
        "available_times",
        "rule_violation",
        "event_type_id",
        event_type_id=inactive["id"],
        start_date=TODAY.isoformat(),
        end_date=TODAY.isoformat(),
    )


def test_a_booked_time_is_no_longer_open_and_cannot_be_booked_twice(ep: Episode) -> None:
    et = etype(ep, "Support session")
    first = week(ep, et)[0]
    out = book(ep, et, first["start_time"], notes="Setup help")
    assert out["scheduled_event"]["join_url"].startswith("https://meet.google.com/")
    assert out["invitee"]["status"] == "active" and out["scheduled_event"]["invitees_count"] == 1
    assert first["start_time"] not in {s["start_time"] for s in week(ep, et)}
    p = GUESTS[1]
    refused(
        ep,
        "book_event",
        "conflict",
        "start_time",
        event_type_id=et["id"],
        start_time=first["start_time"],
        invitee_name=p.name,
        invitee_email=p.email,
    )


def test_buffers_keep_the_host_free_around_an_event(ep: Episode) -> None:
    et = etype(ep, "Support session")  # 5 minutes before and after
    slot = week(ep, et)[0]
    book(ep, et, slot["start_time"])
    right_after = (ts(slot["end_time"])).isoformat()
    p = GUESTS[2]
    msg = refused(
        ep,
        "book_event",
        "conflict",
        "start_time",
        event_type_id=et["id"],
        start_time=right_after,
        invitee_name=p.name,
        invitee_email=p.email,
    )
    assert "buffers" in msg
    later = (ts(slot["end_time"]) + dt.timedelta(minutes=30)).isoformat()
    assert ts(book(ep, et, later, 3)["scheduled_event"]["start_time"]) == ts(later)


def test_times_outside_hours_too_soon_or_on_blocked_dates_are_refused(ep: Episode) -> None:
    et = etype(ep, "Support session")
    tz = ZoneInfo(host_of(ep, et)["timezone"])
    day = TODAY + dt.timedelta(days=8)
    while day.weekday() >= 5:
        day += dt.timedelta(days=1)
    night = dt.datetime(day.year, day.month, day.day, 22, 0, tzinfo=tz).isoformat()
    p = GUESTS[0]
    args = dict(event_type_id=et["id"], invitee_name=p.name, invitee_email=p.email)
    refused(ep, "book_event", "rule_violation", "start_time", start_time=night, **args)
    soon = (WORLD.epoch + dt.timedelta(minutes=30)).isoformat()
    msg = refused(ep, "book_event", "rule_violation", "start_time", start_time=soon, **args)
    assert "ahead" in msg
    sched = next(s for s in every(ep, "list_availability_schedules") if s["host_id"] == et["host_id"])
    blocked = day + dt.timedelta(days=1)
    while blocked.weekday() >= 5:
        blocked += dt.timedelta(days=1)
    ok(ep, "update_availability_schedule", availability_schedule_id=sched["id"], blocked_dates=[blocked.isoformat()])
    ten = dt.datetime(blocked.year, blocked.month, blocked.day, 10, 0, tzinfo=tz).isoformat()
    refused(ep, "book_event", "rule_violation", "start_time", start_time=ten, **args)


def test_phone_calls_need_the_invitees_number(ep: Episode) -> None:
    et = etype(ep, "Intro call")
    slot = week(ep, et)[0]
    p = GUESTS[0]
    refused(
        ep,
        "book_event",
        "rule_violation",
        "invitee_phone",
        event_type_id=et["id"],
        start_time=slot["start_time"],
        invitee_name=p.name,
        invitee_email=p.email,
    )
    out = book(ep, et, slot["start_time"], invitee_phone=p.phone)
    assert out["invitee"]["phone"] == p.phone and out["scheduled_event"]["join_url"] is None


def test_a_daily_maximum_caps_bookings_of_a_type(ep: Episode) -> None:
    et = etype(ep, "Candidate interview")  # at most 3 a day
    slots = week(ep, et, days=15)
    day = local(ep, et, slots[0]["start_time"]).date()
    free = [s for s in slots if local(ep, et, s["start_time"]).date() == day]
    booked = {(e["start_time"]) for e in every(ep, "list_scheduled_events", event_type_id=et["id"], status="active")}
    already = sum(1 for b in booked if local(ep, et, b).date() == day)
    k = 0
    for slot in free:
        if already + k >= 3:
            break
        try_ = ep.call(
            "booking__book_event",
            {
                "event_type_id": et["id"],
                "start_time": slot["start_time"],
                "invitee_name": GUESTS[k].name,
                "invitee_email": GUESTS[k].email,
            },
        )
        if try_.ok:
            k += 1
    assert already + k == 3
    remaining = [s for s in week(ep, et, days=15) if local(ep, et, s["start_time"]).date() == day]
    assert remaining == []


def test_group_events_fill_their_seats(ep: Episode) -> None:
    et = etype(ep, "Onboarding workshop")
    assert et["kind"] == "group" and et["max_invitees"] == 8
    slot = week(ep, et)[0]
    events = set()
    for k in range(8 - (8 - slot["seats_left"])):
        events.add(book(ep, et, slot["start_time"], k)["scheduled_event"]["id"])
    assert len(events) == 1
    p = GUESTS[20]
    refused(
        ep,
        "book_event",
        "conflict",
        "start_time",
        event_type_id=et["id"],
        start_time=slot["start_time"],
        invitee_name=p.name,
        invitee_email=p.email,
    )
    assert ok(ep, "get_scheduled_event", scheduled_event_id=events.pop())["invitees_count"] == 8


def test_an_invitee_cancels_their_seat_and_a_one_on_one_event_with_it(ep: Episode) -> None:
    group = etype(ep, "Onboarding workshop")
    slot = week(ep, group)[0]
    a = book(ep, group, slot["start_time"], 0)
    book(ep, group, slot["start_time"], 1)
    left = ok(ep, "cancel_invitee", invitee_id=a["invitee"]["id"], reason="Conflict")
    assert (
        left["scheduled_event"]["status"] == "active"
        and left["scheduled_event"]["invitees_count"] == a["scheduled_event"]["invitees_count"]
    )
    solo = etype(ep, "Support session")
    b = book(ep, solo, week(ep, solo)[0]["start_time"], 2)
    out = ok(ep, "cancel_invitee", invitee_id=b["invitee"]["id"])
    assert out["scheduled_event"]["status"] == "canceled"
    refused(ep, "cancel_invitee", "rule_violation", "invitee_id", invitee_id=b["invitee"]["id"])


def test_only_the_host_or_an_invitee_cancels_a_future_event(ep: Episode) -> None:
    future = next(e for e in every(ep, "list_scheduled_events", status="active") if ts(e["start_time"]) > WORLD.epoch)
    stranger = POP.consumers[-1].email
    refused(ep, "cancel_event", "rule_violation", "canceled_by", scheduled_event_id=future["id"], canceled_by=stranger)
    host = next(h for h in every(ep, "list_hosts") if h["id"] == future["host_id"])
    done = ok(ep, "cancel_event", scheduled_event_id=future["id"], canceled_by=host["email"], reason="Travel")
    assert done["status"] == "canceled" and done["invitees_count"] == 0
    assert all(i["status"] == "canceled" for i in every(ep, "list_invitees", scheduled_event_id=future["id"]))
    past = next(e for e in every(ep, "list_scheduled_events", status="active") if ts(e["start_time"]) < WORLD.epoch)
    refused(
        ep,
        "cancel_event",
        "rule_violation",
        "scheduled_event_id",
        scheduled_event_id=past["id"],
        canceled_by=host["email"],
    )


def test_rescheduling_moves_the_booking_to_an_open_time(ep: Episode) -> None:
    et = etype(ep, "Support session")
    slots = week(ep, et)
    first = book(ep, et, slots[0]["start_time"])
    refused(
        ep,
        "reschedule_invitee",
        "rule_violation",
        "new_start_time",
        invitee_id=first["invitee"]["id"],
        new_start_time=slots[0]["start_time"],
    )
    night = (ts(slots[0]["start_time"]).replace(hour=3)).isoformat()
    refused(
        ep,
        "reschedule_invitee",
        "rule_violation",
        "new_start_time",
        invitee_id=first["invitee"]["id"],
        new_start_time=night,
    )
    moved = ok(ep, "reschedule_invitee", invitee_id=first["invitee"]["id"], new_start_time=slots[3]["start_time"])
    assert ts(moved["scheduled_event"]["start_time"]) == ts(slots[3]["start_time"])
    old = every(ep, "list_invitees", scheduled_event_id=first["scheduled_event"]["id"])[0]
    assert (old["status"], old["rescheduled"], old["new_invitee_id"]) == ("canceled", True, moved["invitee"]["id"])
    assert ok(ep, "get_scheduled_event", scheduled_event_id=first["scheduled_event"]["id"])["status"] == "canceled"


def test_no_shows_are_marked_only_after_the_event(ep: Episode) -> None:
    future = next(
        i
        for i in every(ep, "list_invitees", status="active")
        if ts(ok(ep, "get_scheduled_event", scheduled_event_id=i["scheduled_event_id"])["end_time"]) > WORLD.epoch
    )
    refused(ep, "mark_no_show", "rule_violation", "invitee_id", invitee_id=future["id"])
    past = next(
        i
        for i in every(ep, "list_invitees", status="active", no_show=False)
        if ts(ok(ep, "get_scheduled_event", scheduled_event_id=i["scheduled_event_id"])["end_time"]) < WORLD.epoch
    )
    assert ok(ep, "mark_no_show", invitee_id=past["id"])["no_show"] is True
    refused(ep, "mark_no_show", "conflict", "invitee_id", invitee_id=past["id"])


def test_event_type_rules(ep: Episode) -> None:
    host = every(ep, "list_hosts")[0]["id"]
    refused(
        ep,
        "create_event_type",
        "rule_violation",
        "location_address",
        host_id=host,
        name="Visit",
        location_kind="in_person",
    )
    refused(ep, "create_event_type", "rule_violation", "max_invitees", host_id=host, name="Class", kind="group")
    made = ok(ep, "create_event_type", host_id=host, name="Quick Sync!", duration=15)
    assert made["slug"] == "quick-sync"
    refused(ep, "create_event_type", "conflict", "name", host_id=host, name="quick sync")
    refused(ep, "create_event_type", "rule_violation", "currency", host_id=host, name="Paid advice", price=5000)


def test_weekly_rules_must_not_overlap(ep: Episode) -> None:
    sched = every(ep, "list_availability_schedules")[0]
    overlapping = [
        {"weekday": "monday", "start": "09:00", "end": "12:00"},
        {"weekday": "monday", "start": "11:00", "end": "13:00"},
    ]
    refused(
        ep,
        "update_availability_schedule",
        "rule_violation",
        "rules.1",
        availability_schedule_id=sched["id"],
        rules=overlapping,
    )
    backwards = [{"weekday": "monday", "start": "12:00", "end": "09:00"}]
    refused(
        ep,
        "update_availability_schedule",
        "rule_violation",
        "rules.0.end",
        availability_schedule_id=sched["id"],
        rules=backwards,
    )
    busy = ok(
        ep,
        "list_busy_times",
        host_id=sched["host_id"],
        start_time=WORLD.epoch.isoformat(),
        end_time=(WORLD.epoch + dt.timedelta(days=7)).isoformat(),
    )
    assert all(ts(b["buffered_start_time"]) <= ts(b["start_time"]) for b in busy)
