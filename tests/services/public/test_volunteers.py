"""Helping Hands Volunteer Hub: eligibility, capacity and waitlists, overlaps, attendance and hours."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

VOL = ServiceTools("volunteers")
WORLD = VOL.world
ok, refused, every = VOL.ok, VOL.refused, VOL.every
POP = WORLD.population
NOW = WORLD.epoch


def parse(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def opportunity(ep: Episode, title: str) -> dict[str, Any]:
    return next(o for o in every(ep, "list_opportunities") if o["title"] == title)


def shifts(ep: Episode, opp: dict[str, Any], ahead: bool = True) -> list[dict[str, Any]]:
    return [s for s in every(ep, "list_shifts", opportunity_id=opp["id"]) if (parse(s["starts_at"]) > NOW) == ahead]


def signed_up(ep: Episode, shift_id: str) -> set[str]:
    return {s["volunteer_id"] for s in every(ep, "list_signups", shift_id=shift_id) if s["status"] != "cancelled"}


def new_volunteer(ep: Episode, k: int, birth: str = "1990-05-01") -> dict[str, Any]:
    known = {v["email"] for v in every(ep, "list_volunteers")}
    p = [p for p in POP.people if p.email not in known][k]
    vol = ok(
        ep,
        "create_volunteer",
        first_name=p.first_name,
        last_name=p.last_name,
        email=p.email,
        phone=p.phone,
        birth_date=birth,
        city=p.address.city,
    )
    ok(ep, "sign_waiver", volunteer_id=vol["id"])
    return dict(vol)


def test_seeded_volunteers_are_people_of_the_population_and_counts_add_up() -> None:
    ep = Episode(WORLD)
    people = {p.email: p for p in POP.people}
    for v in every(ep, "list_volunteers"):
        p = people[v["email"]]
        assert (v["first_name"], v["last_name"], v["birth_date"]) == (
            p.first_name,
            p.last_name,
            p.birth_date.isoformat(),
        )
    staff = {p.email for p in POP.employees}
    assert all(o["coordinator_email"] in staff for o in every(ep, "list_opportunities"))
    for shift in every(ep, "list_shifts"):
        rows = every(ep, "list_signups", shift_id=shift["id"])
        assert shift["confirmed_count"] == sum(r["status"] in ("confirmed", "attended", "no_show") for r in rows)
        assert shift["waitlist_count"] == sum(r["status"] == "waitlisted" for r in rows)
        assert shift["confirmed_count"] <= shift["capacity"]


def test_a_full_shift_waitlists_and_a_cancellation_promotes_the_first_waiting(ep: Episode) -> None:
    opp = opportunity(ep, "Riverside park cleanup")
    full = next(s for s in shifts(ep, opp) if s["confirmed_count"] == s["capacity"])
    vol = new_volunteer(ep, 0)
    refused(
        ep,
        "signup_for_shift",
        "rule_violation",
        "shift_id",
        shift_id=full["id"],
        volunteer_id=vol["id"],
        join_waitlist=False,
    )
    waiting = ok(ep, "signup_for_shift", shift_id=full["id"], volunteer_id=vol["id"])
    assert (waiting["status"], waiting["waitlist_position"]) == ("waitlisted", full["waitlist_count"] + 1)
    first = next(
        s for s in every(ep, "list_signups", shift_id=full["id"], status="waitlisted") if s["waitlist_position"] == 1
    )
    confirmed = every(ep, "list_signups", shift_id=full["id"], status="confirmed")[0]
    assert ok(ep, "cancel_signup", signup_id=confirmed["id"])["status"] == "cancelled"
    promoted = next(s for s in every(ep, "list_signups", shift_id=full["id"]) if s["id"] == first["id"])
    assert (promoted["status"], promoted["waitlist_position"]) == ("confirmed", None)
    mine = next(s for s in every(ep, "list_signups", shift_id=full["id"]) if s["id"] == waiting["id"])
    assert mine["waitlist_position"] == full["waitlist_count"]
    refused(ep, "cancel_signup", "conflict", "signup_id", signup_id=confirmed["id"])


def test_the_minimum_age_is_checked_on_the_shifts_day(ep: Episode) -> None:
    opp = opportunity(ep, "Animal shelter dog walking")
    shift = shifts(ep, opp)[-1]
    day = parse(shift["starts_at"]).date()
    sixteenth = dt.date(day.year - 16, day.month, day.day)
    young = new_volunteer(ep, 1, birth=(sixteenth + dt.timedelta(days=1)).isoformat())
    refused(ep, "signup_for_shift", "rule_violation", "volunteer_id", shift_id=shift["id"], volunteer_id=young["id"])
    sixteen = new_volunteer(ep, 2, birth=sixteenth.isoformat())
    assert ok(ep, "signup_for_shift", shift_id=shift["id"], volunteer_id=sixteen["id"])["status"] == "confirmed"


def test_waivers_must_cover_the_shift_and_background_checks_must_be_cleared(ep: Episode) -> None:
    park = shifts(ep, opportunity(ep, "Riverside park cleanup"))[-1]
    unsigned = next(v for v in every(ep, "list_volunteers", status="active") if v["waiver_signed_on"] is None)
    refused(ep, "signup_for_shift", "rule_violation", "volunteer_id", shift_id=park["id"], volunteer_id=unsigned["id"])
    old = next(
        v
        for v in every(ep, "list_volunteers", status="active")
        if v["waiver_signed_on"] and (NOW.date() - dt.date.fromisoformat(v["waiver_signed_on"])).days > 365
    )
    refused(ep, "signup_for_shift", "rule_violation", "volunteer_id", shift_id=park["id"], volunteer_id=old["id"])
    ok(ep, "sign_waiver", volunteer_id=unsigned["id"])
    refused(ep, "sign_waiver", "conflict", "volunteer_id", volunteer_id=unsigned["id"])
    assert ok(ep, "signup_for_shift", shift_id=park["id"], volunteer_id=unsigned["id"])["status"] == "confirmed"
    tutor = shifts(ep, opportunity(ep, "After-school reading tutor"))[-1]
    pending = next(
        v
        for v in every(ep, "list_volunteers", status="active", background_check="pending")
        if v["id"] not in signed_up(ep, tutor["id"])
    )
    refused(ep, "signup_for_shift", "rule_violation", "volunteer_id", shift_id=tutor["id"], volunteer_id=pending["id"])


def test_a_volunteer_cannot_take_overlapping_shifts_or_the_same_shift_twice(ep: Episode) -> None:
    vol = new_volunteer(ep, 3)
    food = shifts(ep, opportunity(ep, "Food bank sorting"))[-1]
    park = shifts(ep, opportunity(ep, "Riverside park cleanup"))[-1]
    assert parse(food["starts_at"]) < parse(park["ends_at"]) and parse(park["starts_at"]) < parse(food["ends_at"])
    first = ok(ep, "signup_for_shift", shift_id=food["id"], volunteer_id=vol["id"])
    refused(ep, "signup_for_shift", "rule_violation", "shift_id", shift_id=park["id"], volunteer_id=vol["id"])
    refused(ep, "signup_for_shift", "conflict", "volunteer_id", shift_id=food["id"], volunteer_id=vol["id"])
    ok(ep, "cancel_signup", signup_id=first["id"])
    assert ok(ep, "signup_for_shift", shift_id=park["id"], volunteer_id=vol["id"])["status"] == "confirmed"


def test_sign_ups_need_a_published_opportunity_and_a_shift_ahead(ep: Episode) -> None:
    vol = new_volunteer(ep, 4)
    running = shifts(ep, opportunity(ep, "Food bank sorting"), ahead=False)[-1]
    refused(ep, "signup_for_shift", "rule_violation", "shift_id", shift_id=running["id"], volunteer_id=vol["id"])
    closed = shifts(ep, opportunity(ep, "Winter coat drive"))[-1]
    refused(ep, "signup_for_shift", "rule_violation", "shift_id", shift_id=closed["id"], volunteer_id=vol["id"])
    inactive = every(ep, "list_volunteers", status="inactive")[0]
    park = shifts(ep, opportunity(ep, "Riverside park cleanup"))[-1]
    refused(ep, "signup_for_shift", "rule_violation", "volunteer_id", shift_id=park["id"], volunteer_id=inactive["id"])


def test_shifts_start_ahead_last_at_most_twelve_hours_and_drafts_publish_with_shifts(ep: Episode) -> None:
    draft = ok(
        ep,
        "create_opportunity",
        title="Beach cleanup",
        description="",
        city="Lisbon",
        coordinator_email=POP.employees[0].email,
        min_age=0,
        requires_waiver=True,
        requires_background_check=False,
    )
    refused(ep, "publish_opportunity", "rule_violation", "opportunity_id", opportunity_id=draft["id"])
    start = NOW + dt.timedelta(days=3)
    args = {"opportunity_id": draft["id"], "capacity": 5}
    refused(
        ep,
        "create_shift",
        "rule_violation",
        "starts_at",
        starts_at=(NOW - dt.timedelta(hours=1)).isoformat(),
        ends_at=NOW.isoformat(),
        **args,
    )
    refused(
        ep,
        "create_shift",
        "rule_violation",
        "ends_at",
        starts_at=start.isoformat(),
        ends_at=(start + dt.timedelta(hours=13)).isoformat(),
        **args,
    )
    refused(
        ep, "create_shift", "rule_violation", "ends_at", starts_at=start.isoformat(), ends_at=start.isoformat(), **args
    )
    ok(ep, "create_shift", starts_at=start.isoformat(), ends_at=(start + dt.timedelta(hours=4)).isoformat(), **args)
    assert ok(ep, "publish_opportunity", opportunity_id=draft["id"])["status"] == "published"
    ok(ep, "close_opportunity", opportunity_id=draft["id"])
    refused(
        ep,
        "create_shift",
        "rule_violation",
        "opportunity_id",
        starts_at=start.isoformat(),
        ends_at=(start + dt.timedelta(hours=2)).isoformat(),
        **args,
    )


def test_attendance_is_recorded_once_the_shift_has_started(ep: Episode) -> None:
    running = shifts(ep, opportunity(ep, "Food bank sorting"), ahead=False)[-1]
    assert parse(running["starts_at"]) <= NOW < parse(running["ends_at"])
    came, missed = every(ep, "list_signups", shift_id=running["id"], status="confirmed")[:2]
    assert ok(ep, "record_attendance", signup_id=came["id"], attended=True)["status"] == "attended"
    assert ok(ep, "record_attendance", signup_id=missed["id"], attended=False)["status"] == "no_show"
    refused(ep, "record_attendance", "conflict", "signup_id", signup_id=came["id"], attended=True)
    ahead = every(
        ep, "list_signups", shift_id=shifts(ep, opportunity(ep, "Food bank sorting"))[0]["id"], status="confirmed"
    )[0]
    refused(ep, "record_attendance", "rule_violation", "signup_id", signup_id=ahead["id"], attended=True)
    refused(
        ep,
        "cancel_signup",
        "rule_violation",
        "signup_id",
        signup_id=every(ep, "list_signups", shift_id=running["id"], status="confirmed")[0]["id"],
    )


def test_hours_are_logged_once_for_attended_shifts_within_the_shifts_length(ep: Episode) -> None:
    logged = {h["signup_id"] for h in every(ep, "list_hour_entries")}
    attended = next(s for s in every(ep, "list_signups", status="attended") if s["id"] not in logged)
    shift = next(s for s in every(ep, "list_shifts") if s["id"] == attended["shift_id"])
    length = (parse(shift["ends_at"]) - parse(shift["starts_at"])).total_seconds() / 3600
    refused(ep, "log_hours", "rule_violation", "hours", signup_id=attended["id"], hours=length + 0.5)
    entry = ok(ep, "log_hours", signup_id=attended["id"], hours=length, note="Packed boxes")
    assert (entry["status"], entry["served_on"]) == ("pending", shift["starts_at"][:10])
    refused(ep, "log_hours", "conflict", "signup_id", signup_id=attended["id"], hours=1.0)
    no_show = every(ep, "list_signups", status="no_show")[0]
    refused(ep, "log_hours", "rule_violation", "signup_id", signup_id=no_show["id"], hours=1.0)
    approved = ok(ep, "approve_hour_entry", hour_entry_id=entry["id"])
    assert (approved["status"], approved["reviewed_on"]) == ("approved", NOW.date().isoformat())
    refused(ep, "reject_hour_entry", "rule_violation", "hour_entry_id", hour_entry_id=entry["id"])


def test_the_summary_adds_approved_and_pending_hours(ep: Episode) -> None:
    entry = every(ep, "list_hour_entries", status="pending")[0]
    before = ok(ep, "volunteer_hours_summary", volunteer_id=entry["volunteer_id"])
    ok(ep, "approve_hour_entry", hour_entry_id=entry["id"])
    after = ok(ep, "volunteer_hours_summary", volunteer_id=entry["volunteer_id"])
    assert after["approved_hours"] == round(before["approved_hours"] + entry["hours"], 2)
    assert after["pending_hours"] == round(before["pending_hours"] - entry["hours"], 2)
    assert after["shifts_attended"] == len(
        every(ep, "list_signups", volunteer_id=entry["volunteer_id"], status="attended")
    )
    refused(
        ep,
        "create_volunteer",
        "conflict",
        "email",
        first_name="A",
        last_name="B",
        email=after["email"],
        phone=None,
        birth_date="1990-01-01",
        city=None,
    )
