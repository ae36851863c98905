"""Stagecast Webinars: lifecycle, capacity and waitlists, approvals, joining, polls, certificates, reports."""

from __future__ import annotations

from typing import Any

from compoworld import Episode
from tests.services.helpers import ServiceTools

WEB = ServiceTools("webinars")
WORLD = WEB.world
ok, refused, every, items, first = WEB.ok, WEB.refused, WEB.every, WEB.items, WEB.first
POP = WORLD.population
HOST = POP.employees[0].email


def event(ep: Episode, title_start: str) -> dict[str, Any]:
    return next(e for e in items(ep, "events") if e["title"].startswith(title_start))


def signup(ep: Episode, event_id: str, email: str = "ana.silva@example.org") -> dict[str, Any]:
    return dict(ok(ep, "register", event_id=event_id, email=email, name="Ana Silva"))


# -- the world ------------------------------------------------------------------------------


def test_people_come_from_the_population_and_capacity_holds() -> None:
    ep = Episode(WORLD)
    people = {p.email: p.name for p in POP.people}
    for r in every(ep, "list_registrants"):
        assert people[r["email"]] == r["name"]
    for p in every(ep, "list_panelists"):
        assert people[p["email"]] == p["name"]
    for e in items(ep, "events"):
        assert len(items(ep, "registrants", event_id=e["id"], status="approved")) <= e["capacity"]
        panel = {p["email"] for p in items(ep, "panelists", event_id=e["id"])}
        assert not panel & {r["email"] for r in items(ep, "registrants", event_id=e["id"])}
    past = event(ep, "Shipping smarter")
    for a in every(ep, "list_attendances", event_id=past["id"]):
        assert a["certificate"] == (a["minutes"] * 100 >= past["certificate_threshold"] * past["duration_minutes"])


# -- building and scheduling ----------------------------------------------------------------


def test_a_webinar_is_created_in_the_future_and_scheduled_with_a_presenter(ep: Episode) -> None:
    args = dict(title="Pricing deep dive", duration_minutes=45)
    refused(
        ep, "create_event", "rule_violation", "start_time", host_email=HOST, start_time="2026-03-01T10:00:00Z", **args
    )
    refused(
        ep,
        "create_event",
        "rule_violation",
        "host_email",
        host_email="someone@example.org",
        start_time="2026-03-20T10:00:00Z",
        **args,
    )
    new = ok(ep, "create_event", host_email=HOST, start_time="2026-03-20T10:00:00Z", **args)
    assert new["status"] == "draft" and new["audience_url"].endswith(new["id"].replace("_", ""))
    refused(ep, "register", "rule_violation", "event_id", event_id=new["id"], email="a@b.io", name="A B")
    refused(ep, "schedule_event", "rule_violation", "event_id", event_id=new["id"])
    ok(ep, "add_panelist", event_id=new["id"], name="Mo Host", email=HOST, role="moderator")
    refused(ep, "schedule_event", "rule_violation", "event_id", event_id=new["id"])
    ok(ep, "add_panelist", event_id=new["id"], name="Guest Star", email="guest@example.org", company="Nimbus Labs")
    refused(ep, "add_panelist", "conflict", "email", event_id=new["id"], name="Guest Star", email="guest@example.org")
    assert ok(ep, "schedule_event", event_id=new["id"])["status"] == "scheduled"


# -- registration ---------------------------------------------------------------------------


def test_a_full_event_waitlists_and_a_cancelled_seat_goes_to_the_first_waiting(ep: Episode) -> None:
    full = event(ep, "Masterclass")
    waiting = sorted(
        items(ep, "registrants", event_id=full["id"], status="waitlisted"), key=lambda r: r["registered_at"]
    )
    assert signup(ep, full["id"])["status"] == "waitlisted"
    seat = first(ep, "registrants", event_id=full["id"], status="approved")
    res = ok(ep, "cancel_registration", registrant_id=seat["id"])
    assert res["registrant"]["status"] == "cancelled"
    assert res["promoted"]["id"] == waiting[0]["id"] and res["promoted"]["status"] == "approved"
    refused(ep, "cancel_registration", "rule_violation", "registrant_id", registrant_id=seat["id"])
    refused(ep, "update_event", "rule_violation", "capacity", event_id=full["id"], capacity=5)


def test_manual_events_approve_while_seats_remain(ep: Episode) -> None:
    vip = event(ep, "Executive roundtable")
    new = signup(ep, vip["id"])
    assert new["status"] == "pending"
    approved = len(items(ep, "registrants", event_id=vip["id"], status="approved"))
    ok(ep, "update_event", event_id=vip["id"], capacity=approved + 1)
    ok(ep, "decide_registration", registrant_id=new["id"], decision="approve")
    other = first(ep, "registrants", event_id=vip["id"], status="pending")
    refused(ep, "decide_registration", "conflict", "decision", registrant_id=other["id"], decision="approve")
    assert ok(ep, "decide_registration", registrant_id=other["id"], decision="deny")["status"] == "denied"
    refused(ep, "decide_registration", "rule_violation", "registrant_id", registrant_id=new["id"], decision="deny")


def test_registration_is_once_per_person_and_not_for_panelists(ep: Episode) -> None:
    soon = event(ep, "Office hours")
    reg = signup(ep, soon["id"])
    refused(ep, "register", "conflict", "email", event_id=soon["id"], email=reg["email"], name="Ana Silva")
    panelist = first(ep, "panelists", event_id=soon["id"])
    refused(
        ep, "register", "rule_violation", "email", event_id=soon["id"], email=panelist["email"], name=panelist["name"]
    )
    ok(ep, "cancel_registration", registrant_id=reg["id"])
    again = signup(ep, soon["id"])
    assert (again["id"], again["status"]) == (reg["id"], "approved")
    refused(ep, "add_panelist", "rule_violation", "email", event_id=soon["id"], name="Ana Silva", email=reg["email"])


# -- going live -----------------------------------------------------------------------------


def test_an_event_goes_live_at_most_30_minutes_early(ep: Episode) -> None:
    refused(ep, "start_event", "rule_violation", "event_id", event_id=event(ep, "Masterclass")["id"])
    soon = event(ep, "Office hours")
    assert ok(ep, "start_event", event_id=soon["id"])["status"] == "live"
    refused(ep, "cancel_event", "rule_violation", "event_id", event_id=soon["id"])


def test_only_approved_registrants_join_a_live_event_once_at_a_time(ep: Episode) -> None:
    live = event(ep, "Live demo")
    inside = {a["registrant_id"] for a in items(ep, "attendances", event_id=live["id"])}
    outside = next(r for r in items(ep, "registrants", event_id=live["id"], status="approved") if r["id"] not in inside)
    att = ok(ep, "join_event", registrant_id=outside["id"])
    assert (att["email"], att["left_at"]) == (outside["email"], None)
    refused(ep, "join_event", "conflict", "registrant_id", registrant_id=outside["id"])
    waiting = first(ep, "registrants", event_id=event(ep, "Masterclass")["id"], status="waitlisted")
    refused(ep, "join_event", "rule_violation", "registrant_id", registrant_id=waiting["id"])
    late = signup(ep, live["id"])
    assert ok(ep, "join_event", registrant_id=late["id"])["event_id"] == live["id"]


def test_attendees_vote_once_in_launched_polls(ep: Episode) -> None:
    live = event(ep, "Live demo")
    launched = first(ep, "polls", event_id=live["id"], status="launched")
    draft = first(ep, "polls", event_id=live["id"], status="draft")
    voter = first(ep, "attendances", event_id=live["id"])["registrant_id"]
    inside = {a["registrant_id"] for a in items(ep, "attendances", event_id=live["id"])}
    absent = next(r for r in items(ep, "registrants", event_id=live["id"]) if r["id"] not in inside)
    refused(
        ep,
        "vote_in_poll",
        "rule_violation",
        "registrant_id",
        poll_id=launched["id"],
        registrant_id=absent["id"],
        choices=["Yes"],
    )
    refused(
        ep,
        "vote_in_poll",
        "rule_violation",
        "choices",
        poll_id=launched["id"],
        registrant_id=voter,
        choices=["Yes", "No"],
    )
    refused(
        ep,
        "vote_in_poll",
        "rule_violation",
        "choices",
        poll_id=launched["id"],
        registrant_id=voter,
        choices=["Perhaps"],
    )
    refused(ep, "vote_in_poll", "rule_violation", "poll_id", poll_id=draft["id"], registrant_id=voter, choices=["Yes"])
    ok(ep, "vote_in_poll", poll_id=launched["id"], registrant_id=voter, choices=["Yes"])
    refused(
        ep, "vote_in_poll", "conflict", "registrant_id", poll_id=launched["id"], registrant_id=voter, choices=["No"]
    )
    assert ok(ep, "launch_poll", poll_id=draft["id"])["status"] == "launched"
    past_poll = first(ep, "polls", event_id=event(ep, "Shipping smarter")["id"])
    refused(ep, "launch_poll", "rule_violation", "poll_id", poll_id=past_poll["id"])


def test_ending_closes_attendance_and_awards_certificates(ep: Episode) -> None:
    live = event(ep, "Live demo")
    ok(ep, "update_event", event_id=live["id"], certificate_threshold=50.0)
    res = ok(ep, "end_event", event_id=live["id"])
    atts = items(ep, "attendances", event_id=live["id"])
    assert all(a["left_at"] is not None for a in atts)
    assert res["attendees"] == len({a["registrant_id"] for a in atts})
    assert res["certificates"] == sorted(
        a["email"] for a in atts if a["minutes"] * 100 >= 50 * live["duration_minutes"]
    )
    assert all(p["status"] != "launched" for p in items(ep, "polls", event_id=live["id"]))
    assert res["event"]["on_demand_url"] and res["event"]["status"] == "ended"
    refused(ep, "end_event", "rule_violation", "event_id", event_id=live["id"])
    refused(ep, "update_event", "rule_violation", "event_id", event_id=live["id"], title="Again")


def test_cancelling_an_event_cancels_and_lists_its_registrations(ep: Episode) -> None:
    full = event(ep, "Masterclass")
    active = [r["email"] for r in items(ep, "registrants", event_id=full["id"]) if r["status"] != "cancelled"]
    res = ok(ep, "cancel_event", event_id=full["id"])
    assert res["notify_emails"] == active
    assert {r["status"] for r in items(ep, "registrants", event_id=full["id"])} == {"cancelled"}


def test_the_only_presenter_of_a_scheduled_event_stays(ep: Episode) -> None:
    full = event(ep, "Masterclass")
    presenter = first(ep, "panelists", event_id=full["id"], role="presenter")
    refused(ep, "delete_panelist", "rule_violation", "panelist_id", panelist_id=presenter["id"])
    moderator = first(ep, "panelists", event_id=full["id"], role="moderator")
    ok(ep, "delete_panelist", panelist_id=moderator["id"])


def test_the_attendance_report_sums_minutes_polls_and_certificates() -> None:
    ep = Episode(WORLD)
    past = event(ep, "Shipping smarter")
    rep = ok(ep, "attendance_report", event_id=past["id"])
    atts = every(ep, "list_attendances", event_id=past["id"])
    assert rep["approved"] == len(items(ep, "registrants", event_id=past["id"], status="approved"))
    assert rep["attendees"] == len(atts)
    assert rep["attendance_rate"] == round(100 * len(atts) / rep["approved"], 1)
    assert rep["average_minutes"] == round(sum(a["minutes"] for a in atts) / len(atts), 1)
    votes = every(ep, "list_votes")
    for line in rep["lines"]:
        assert line["polls_answered"] == sum(1 for v in votes if v["registrant_id"] == line["registrant_id"])
