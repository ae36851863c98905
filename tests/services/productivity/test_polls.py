"""Pollday: poll options and deadlines, votes and limits, closing on a final time, booking page slots."""

from __future__ import annotations

import datetime as dt
from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

POLLS = ServiceTools("polls")
WORLD = POLLS.world
ok, refused, every = POLLS.ok, POLLS.refused, POLLS.every
POP = WORLD.population
NOW = WORLD.epoch
ME = POP.employees[0].email


def poll(ep: Episode, prefix: str) -> dict[str, Any]:
    return next(p for p in every(ep, "list_polls") if p["title"].startswith(prefix))


def at(days: float, hour: int = 9) -> str:
    day = (NOW + dt.timedelta(days=days)).date()
    return dt.datetime.combine(day, dt.time(hour), tzinfo=dt.UTC).isoformat().replace("+00:00", "Z")


def test_seeded_polls_invite_the_customers_contacts(ep: Episode) -> None:
    qbr = poll(ep, "Quarterly business review with")
    company = POP.customers[0]
    assert company.name in qbr["title"]
    voters = {p["email"] for p in every(ep, "list_participants", poll_id=qbr["id"])}
    assert {p.email for p in POP.people_at(company)[:3]} <= voters
    closed = every(ep, "list_polls", status="closed")[0]
    assert closed["final_option_id"] == "opt2" and closed["final_start"] == closed["options"][1]["start"]


def test_a_poll_needs_distinct_future_options_and_a_deadline_before_them(ep: Episode) -> None:
    refused(ep, "create_poll", "rule_violation", "starts", title="x", organizer_email=ME, starts=[at(-1)])
    refused(ep, "create_poll", "rule_violation", "starts", title="x", organizer_email=ME, starts=[at(3), at(3)])
    refused(
        ep, "create_poll", "rule_violation", "deadline", title="x", organizer_email=ME, starts=[at(3)], deadline=at(4)
    )
    refused(ep, "create_poll", "rule_violation", "organizer_email", title="x", organizer_email="a@b.io", starts=[at(3)])
    made = ok(ep, "create_poll", title="Sync", organizer_email=ME, starts=[at(5), at(3)], deadline=at(2))
    assert [o["option_id"] for o in made["options"]] == ["opt1", "opt2"] and made["options"][0]["start"] == at(3)


def test_votes_are_once_per_email_for_the_polls_options(ep: Episode) -> None:
    p = poll(ep, "Hiring panel debrief")
    who = POP.contacts[5]
    refused(
        ep,
        "vote",
        "rule_violation",
        "votes",
        poll_id=p["id"],
        name=who.name,
        email=who.email,
        votes=[{"option_id": "opt9", "answer": "yes"}],
    )
    made = ok(
        ep, "vote", poll_id=p["id"], name=who.name, email=who.email, votes=[{"option_id": "opt1", "answer": "yes"}]
    )
    assert [v["answer"] for v in made["votes"]] == ["yes", "no", "no", "no"]
    refused(ep, "vote", "conflict", "email", poll_id=p["id"], name=who.name, email=who.email, votes=[])
    changed = ok(ep, "change_votes", participant_id=made["id"], votes=[{"option_id": "opt2", "answer": "if_need_be"}])
    assert [v["answer"] for v in changed["votes"]] == ["no", "if_need_be", "no", "no"]


def test_yes_limits_and_if_need_be_settings_are_enforced(ep: Episode) -> None:
    made = ok(ep, "create_poll", title="Lunch", organizer_email=ME, starts=[at(4)], yes_limit=1, if_need_be=False)
    a, b = POP.contacts[0], POP.contacts[1]
    ok(ep, "vote", poll_id=made["id"], name=a.name, email=a.email, votes=[{"option_id": "opt1", "answer": "yes"}])
    refused(
        ep,
        "vote",
        "rule_violation",
        "votes",
        poll_id=made["id"],
        name=b.name,
        email=b.email,
        votes=[{"option_id": "opt1", "answer": "yes"}],
    )
    refused(
        ep,
        "vote",
        "rule_violation",
        "votes",
        poll_id=made["id"],
        name=b.name,
        email=b.email,
        votes=[{"option_id": "opt1", "answer": "if_need_be"}],
    )


def test_results_rank_yes_then_if_need_be_then_time(ep: Episode) -> None:
    p = poll(ep, "Quarterly business review with")
    res = ok(ep, "poll_results", poll_id=p["id"])
    parts = every(ep, "list_participants", poll_id=p["id"])
    assert res["participants"] == len(parts)
    for row in res["options"]:
        answers = [v["answer"] for x in parts for v in x["votes"] if v["option_id"] == row["option_id"]]
        assert (row["yes"], row["if_need_be"], row["no"]) == (
            answers.count("yes"),
            answers.count("if_need_be"),
            answers.count("no"),
        )
    best = max(res["options"], key=lambda r: (r["yes"], r["if_need_be"], [-ord(c) for c in r["start"]]))
    assert res["best_option_id"] == best["option_id"]


def test_only_the_organizer_closes_and_a_closed_poll_takes_no_votes(ep: Episode) -> None:
    p = poll(ep, "Team offsite planning")
    other = next(e.email for e in POP.employees if e.email != p["organizer_email"])
    refused(
        ep,
        "close_poll",
        "rule_violation",
        "organizer_email",
        poll_id=p["id"],
        organizer_email=other,
        final_option_id="opt1",
    )
    refused(
        ep,
        "close_poll",
        "rule_violation",
        "final_option_id",
        poll_id=p["id"],
        organizer_email=p["organizer_email"],
        final_option_id="opt7",
    )
    closed = ok(ep, "close_poll", poll_id=p["id"], organizer_email=p["organizer_email"], final_option_id="opt3")
    assert closed["status"] == "closed" and closed["final_start"] == p["options"][2]["start"]
    who = POP.contacts[9]
    refused(ep, "vote", "rule_violation", "poll_id", poll_id=p["id"], name=who.name, email=who.email, votes=[])
    reopened = ok(ep, "reopen_poll", poll_id=p["id"], organizer_email=p["organizer_email"])
    assert (reopened["status"], reopened["final_option_id"]) == ("open", None)


def test_options_with_votes_stay_and_new_options_follow_the_deadline(ep: Episode) -> None:
    p = poll(ep, "Team offsite planning")
    org = p["organizer_email"]
    refused(ep, "remove_option", "conflict", "option_id", poll_id=p["id"], organizer_email=org, option_id="opt1")
    grown = ok(ep, "add_option", poll_id=p["id"], organizer_email=org)
    assert len(grown["options"]) == 5
    refused(ep, "add_option", "rule_violation", "start", poll_id=p["id"], organizer_email=org, start=at(0, 23))
    shrunk = ok(ep, "remove_option", poll_id=p["id"], organizer_email=org, option_id="opt5")
    assert len(shrunk["options"]) == 4


def test_booking_slots_fit_the_pages_hours_and_do_not_overlap(ep: Episode) -> None:
    page = every(ep, "list_booking_pages", status="enabled")[0]
    taken = every(ep, "list_bookings", page_id=page["id"])[0]
    who = POP.contacts[3]
    refused(
        ep, "book_slot", "conflict", "start", page_id=page["id"], start=taken["start"], name=who.name, email=who.email
    )
    start = dt.datetime.fromisoformat(taken["start"].replace("Z", "+00:00"))
    for bad in (start.replace(hour=7), start.replace(minute=10), start.replace(hour=17)):
        refused(
            ep,
            "book_slot",
            "rule_violation",
            "start",
            page_id=page["id"],
            start=bad.isoformat(),
            name=who.name,
            email=who.email,
        )
    made = ok(
        ep, "book_slot", page_id=page["id"], start=start.replace(hour=11).isoformat(), name=who.name, email=who.email
    )
    ok(ep, "cancel_booking", booking_id=taken["id"])
    again = ok(ep, "book_slot", page_id=page["id"], start=taken["start"], name=who.name, email=who.email)
    assert made["status"] == again["status"] == "confirmed"


def test_disabled_pages_take_no_bookings_and_slugs_are_unique(ep: Episode) -> None:
    page = every(ep, "list_booking_pages", status="disabled")[0]
    who = POP.contacts[3]
    refused(
        ep,
        "book_slot",
        "rule_violation",
        "page_id",
        page_id=page["id"],
        start=at(7, 10),
        name=who.name,
        email=who.email,
    )
    refused(ep, "create_booking_page", "conflict", "slug", slug=page["slug"], title="x", owner_email=ME)
    refused(
        ep,
        "create_booking_page",
        "rule_violation",
        "end_hour",
        slug="late",
        title="x",
        owner_email=ME,
        start_hour=16,
        end_hour=16,
    )
    assert ok(ep, "enable_booking_page", booking_page_id=page["id"])["status"] == "enabled"
